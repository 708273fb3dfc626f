/*
 * Tenstorrent Blackhole ARC tile, as host software sees it over the NOC:
 * CSM (ARC SRAM) holding the telemetry table and the message queues, and
 * the reset unit's scratch registers (tt-kmd blackhole.c, telemetry.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_ARC_H
#define HW_TENSTORRENT_ARC_H

#include "hw/sysbus.h"
#include "system/memory.h"
#include "qemu/thread.h"
#include "qom/object.h"

#define TYPE_TT_ARC "tt-arc"
OBJECT_DECLARE_SIMPLE_TYPE(TTArc, TT_ARC)

/* Physical NOC0 coordinates of the ARC tile */
#define TT_ARC_X            8
#define TT_ARC_Y            0

/* NOC addresses inside the ARC tile (tt-kmd blackhole.c, telemetry.h) */
#define TT_ARC_CSM_BASE     0x10000000u
#define TT_ARC_CSM_SIZE     (512 * KiB)
#define TT_ARC_RESET_BASE   0x80030000u
#define TT_ARC_RESET_SIZE   0x10000u
#define TT_ARC_MSI_FIFO     0x800b0000u
#define TT_ARC_MSI_SIZE     0x1000u

/* Reset unit offsets */
#define TT_ARC_MISC_CNTL            0x100
#define TT_ARC_MISC_CNTL_IRQ0       (1u << 16)
#define TT_ARC_SCRATCH_RAM(n)       (0x400 + 4 * (n))

struct TTArc {
    SysBusDevice parent_obj;

    MemoryRegion root;          /* the tile's NOC address space */
    MemoryRegion background;    /* logs accesses to nothing */
    MemoryRegion csm;
    MemoryRegion reset_unit;
    MemoryRegion msi_fifo;
    AddressSpace as;
    QemuMutex lock;             /* message queue service */

    uint32_t reset_regs[TT_ARC_RESET_SIZE / 4];
    uint32_t aiclk_mhz;

    /* properties */
    uint64_t board_id;          /* bits 55:36: UPI, tt-umd's board type */
    uint64_t asic_id;
    uint8_t asic_location;      /* place on the board or in the cluster */
    uint8_t pcie;               /* the PCIe endpoint in use, 0 or 1 */
    uint32_t enabled_tensix_cols;   /* firmware column order */
    uint32_t enabled_gddr;
    uint32_t enabled_eth;
};

#endif
