/*
 * Tenstorrent Blackhole Ethernet tile: 512 KiB L1, two ERISC cores (E0,
 * E1) each with a private 8 KiB LDM at 0xFFB00000, the tile's control
 * registers, both NIUs, the NOC overlay and the TX/RX queues with their
 * link (eth-txrx.h).
 *
 * Memory: as a Tensix tile's (tensix-tile.h): @view is what both cores
 * see and what the NOC and the host reach; each core's @root adds its own
 * LDM.  L1 and the LDMs are one RAM block, for spin parking.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_ETH_TILE_H
#define HW_TENSTORRENT_ETH_TILE_H

#include "hw/qdev-core.h"
#include "target/riscv/cpu.h"
#include "hw/tenstorrent/eth-txrx.h"
#include "hw/tenstorrent/grid.h"
#include "hw/tenstorrent/niu.h"
#include "hw/tenstorrent/noc.h"
#include "hw/tenstorrent/noc-overlay.h"
#include "hw/tenstorrent/riscv-debug-regs.h"
#include "hw/tenstorrent/spin-park.h"
#include "hw/tenstorrent/tensix-tile.h"     /* TTTileBackground */
#include "hw/tenstorrent/tt-tile-map.h"     /* generated from tile-map.yaml */
#include "qom/object.h"

#define TYPE_TT_ETH_TILE "tt-eth-tile"
OBJECT_DECLARE_SIMPLE_TYPE(TTEthTile, TT_ETH_TILE)

extern const char *const tt_erisc_name[TT_ERISC_CORES];

struct TTEthTile {
    DeviceState parent_obj;

    /* storage only: each core's QOM parent is its CPU cluster */
    RISCVCPU core[TT_ERISC_CORES];

    MemoryRegion sram;          /* RAM: L1, then the two LDMs */
    MemoryRegion l1;            /* aliases into @sram */
    MemoryRegion view;
    TTTileBackground unmapped;
    MemoryRegion root[TT_ERISC_CORES];
    MemoryRegion ldm[TT_ERISC_CORES];
    MemoryRegion view_alias[TT_ERISC_CORES];
    AddressSpace noc_as;        /* @view as the NOC and the host reach it */
    CPUState *ram_cpus[TT_ERISC_CORES];

    TTRiscvDebugRegs dbg;
    TTNiu niu[TT_NUM_NOCS];
    TTNocOverlay overlay;
    TTEthTxRx txrx;
    TTSpinTile spin;

    /* links */
    TTNoc *noc;                 /* "noc": the fabric, both NOCs */

    /* properties */
    uint8_t x, y;               /* physical NOC0 coordinates */
    uint8_t vx, vy;             /* translated coordinates */
    uint8_t channel;            /* physical Ethernet channel */
    bool spin_park;
    bool tb_share;
    int32_t ram_fd;             /* -1: anonymous RAM; else @sram's file */
    uint64_t ram_offset;
};

/* Create the two cores as children of @clusters (E0's, E1's); call first */
void tt_eth_tile_init_cores(TTEthTile *t, Object *clusters[]);

/*
 * What the base firmware on E0 does between two calls, in its place:
 * answer the mailboxes, and while E0 is held move the heartbeat.  The
 * chip calls it every TT_ETH_BASE_FW_PERIOD_MS of virtual time.
 */
#define TT_ETH_BASE_FW_PERIOD_MS    100
void tt_eth_tile_base_fw(TTEthTile *t);

#endif
