/*
 * Tenstorrent Blackhole PCIe endpoint: the three BARs the host sees and the
 * PCIe tile's side of the NOC (tt-isa-documentation BlackholeA0/
 * PCIExpressTile; tt-kmd blackhole.c).
 *
 * BAR0 (512 MiB): 202 TLB windows of 2 MiB, their configuration
 * registers, the PCIe tile's NIUs and, on PCIe 1 (P100A), the ARC APB
 * window.  BAR2 (1 MiB): the controller's DBI with the outbound iATU and
 * eDMA read channel 0.  BAR4 (32 GiB): eight 4 GiB TLB windows.  Where
 * each is: data/pcie-host.yaml, as tt-pcie-host.h.  A window access
 * becomes a NOC transaction issued by the PCIe tile's NIU on the window's
 * NOC; NOC transactions that reach the PCIe tile go to host memory
 * (directly or through the iATU), to the DBI or to the NIU registers.
 *
 * Host memory is whatever the transport registered (vfio-user DMA regions);
 * with none, a RAM block of the device ("host-mem-size") stands in for it,
 * so device-to-host traffic stays testable without a host.
 *
 * Threads: BAR accesses come from the transport under the BQL; NOC
 * transactions to the PCIe tile come from any core's thread.  The TLB and
 * iATU registers are read and written with atomics.  @dma_lock guards the
 * transport's DMA callback and counts its callers; it is not held while
 * the callback runs, which may wait for the host (the vfio-user mailbox)
 * while a BAR access from that host needs the callback too.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_PCIE_H
#define HW_TENSTORRENT_PCIE_H

#include "qemu/units.h"
#include "qemu/thread.h"
#include "hw/sysbus.h"
#include "system/memory.h"
#include "hw/tenstorrent/grid.h"
#include "hw/tenstorrent/niu.h"
#include "hw/tenstorrent/tt-pcie-host.h"    /* generated: pcie-host.yaml */
#include "qom/object.h"

#define TYPE_TT_PCIE "tt-pcie"
OBJECT_DECLARE_SIMPLE_TYPE(TTPcie, TT_PCIE)

#define TT_PCIE_NUM_BARS        3           /* BAR0, BAR2, BAR4 */

/* NOC addresses at the PCIe tile: bits [63:58] select a window */
#define TT_PCIE_WIN_SHIFT       58
#define TT_PCIE_WIN_MASK        ((1ull << TT_PCIE_WIN_SHIFT) - 1)
#define TT_PCIE_NIU_NOC_ADDR    0xffffffffff000000ull

/* Host memory access by the transport: device-to-host DMA */
typedef MemTxResult (*TTPcieDmaFn)(void *opaque, uint64_t addr, void *buf,
                                   uint64_t len, bool write);

struct TTPcie {
    SysBusDevice parent_obj;

    MemoryRegion bar[TT_PCIE_NUM_BARS];     /* containers */
    AddressSpace bar_as[TT_PCIE_NUM_BARS];
    MemoryRegion bar0_bg, bar0_win, bar0_tlb, bar0_niu[TT_NUM_NOCS];
    MemoryRegion bar0_arc, bar2_dbi, bar4_win;
    MemoryRegion noc_side;                  /* what the NOC reaches here */
    AddressSpace noc_as;
    MemoryRegion host_mem;                  /* host memory stand-in */
    AddressSpace host_mem_as;
    TTNiu niu[TT_NUM_NOCS];
    TTNoc *noc;                             /* link "noc": the fabric */

    QemuMutex dma_lock;
    QemuCond dma_idle;                      /* dma_users dropped to 0 */
    TTPcieDmaFn dma_fn;
    void *dma_opaque;
    unsigned dma_users;                     /* callers inside dma_fn */

    uint32_t tlb[TT_TLB_COUNT][3];
    uint32_t strided[TT_TLB_STRIDED_COUNT];
    uint32_t *dbi;                          /* BAR2, TT_PCIE_BAR2_SIZE */
    bool edma_busy;                         /* a transfer is under way */
    uint32_t edma_gen;                      /* bumped by reset: ends it */

    /* properties */
    uint8_t x;                              /* physical x: 2 or 11 */
    uint64_t host_mem_size;
};

/*
 * A host access of @len bytes at @offset of BAR @bar (0, 2 or 4): the
 * transport's entry point.  Bulk accesses inside TLB windows are done as
 * one NOC transaction per window.
 */
MemTxResult tt_pcie_bar_rw(TTPcie *s, int bar, uint64_t offset, void *buf,
                           uint64_t len, bool write);

/*
 * Route device-to-host traffic to the transport (NULL: back to host-mem),
 * once no caller is left in the previous callback (waiting without the
 * BQL, which a caller may need to return)
 */
void tt_pcie_set_dma(TTPcie *s, TTPcieDmaFn fn, void *opaque);

/* Index (0, 1, 2) of BAR number 0, 2 or 4, or -1 */
int tt_pcie_bar_index(int bar);

#endif
