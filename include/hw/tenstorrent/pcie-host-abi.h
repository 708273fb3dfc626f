/*
 * Tenstorrent Blackhole: the PCIe function as a host sees it (vendor and
 * device id, BAR sizes, BAR0's TLB windows and their configuration
 * registers), the one source for the model (pcie.c), the libttsim library,
 * the host tools and the tests, in C and (tests/, bench/) Python, which
 * read the #defines below.  Plain C constants only.
 *
 * Sources: tt-isa-documentation BlackholeA0/PCIExpressTile/
 * HostToDeviceTLBs.md; tt-kmd blackhole.c (TLB_REGS_START, TLB_REG_SIZE).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_TENSTORRENT_PCIE_HOST_ABI_H
#define HW_TENSTORRENT_PCIE_HOST_ABI_H

#define TT_PCI_VENDOR_ID        0x1e52
#define TT_PCI_DEVICE_ID        0xb140

#define TT_PCIE_BAR0_SIZE       (512ull << 20)
#define TT_PCIE_BAR2_SIZE       (1ull << 20)
#define TT_PCIE_BAR4_SIZE       (32ull << 30)

/*
 * BAR0 [0, 202 * 2 MiB): 2 MiB windows; BAR4: 4 GiB windows.  Window n's
 * configuration is three 32-bit words at TT_TLB_CFG_BASE + 12 n.
 */
#define TT_TLB_2M_COUNT         202
#define TT_TLB_4G_COUNT         8
#define TT_TLB_2M_SHIFT         21
#define TT_TLB_4G_SHIFT         32
#define TT_TLB_COUNT            (TT_TLB_2M_COUNT + TT_TLB_4G_COUNT)
#define TT_TLB_CFG_BASE         0x1fc00000u
#define TT_TLB_CFG_STRIDE       12
/* then a strided-multicast word per window of the first 32 */
#define TT_TLB_STRIDED_COUNT    32
#define TT_TLB_STRIDED_BASE     (TT_TLB_CFG_BASE + \
                                 TT_TLB_COUNT * TT_TLB_CFG_STRIDE)

#endif
