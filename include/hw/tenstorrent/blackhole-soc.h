/*
 * Tenstorrent Blackhole chip: the Tensix tiles of the grid, the five
 * per-role CPU clusters, the NOC fabric, the GDDR banks, the ARC tile and
 * the PCIe endpoint (blackhole-soc.c).  Created and realized by the
 * machine (blackhole.h) on the main thread; read-only once realized.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_BLACKHOLE_SOC_H
#define HW_TENSTORRENT_BLACKHOLE_SOC_H

#include "hw/cpu/cluster.h"
#include "hw/tenstorrent/arc.h"
#include "hw/tenstorrent/grid.h"
#include "hw/tenstorrent/dram.h"
#include "hw/tenstorrent/eth-tile.h"
#include "hw/tenstorrent/noc.h"
#include "hw/tenstorrent/pcie.h"
#include "hw/tenstorrent/tensix-tile.h"
#include "qom/object.h"

#define TYPE_TT_BLACKHOLE_SOC "tt-blackhole-soc"
OBJECT_DECLARE_SIMPLE_TYPE(TTBlackholeSoC, TT_BLACKHOLE_SOC)

struct TTBlackholeSoC {
    DeviceState parent_obj;

    TTGrid grid;
    CPUClusterState cluster[TT_CORES_PER_TILE];
    CPUClusterState eth_cluster[TT_ERISC_CORES];
    TTNoc noc;
    /*
     * grid.ntiles of them, allocated at realize: a chip of few columns
     * (a cluster's) then clears and maps 4.5 MiB, not 64 (every tile of
     * the grid, 0.2 s of page faults per chip on a 2-core host)
     */
    TTTensixTile *tile;
    /* by physical channel; those the board fuses off are not created */
    TTEthTile eth[TT_ETH_CHANNELS];
    TTDramBank dram[TT_DRAM_BANKS];
    TTArc arc;
    TTPcie pcie;

    /*
     * The chip's RAM (every tile's L1 and LDMs, every GDDR bank) in one
     * sealed memfd, at the offsets below, or -1 (anonymous RAM) if the
     * host has no memfd.  A vfio-user client maps it (host-map.c).
     */
    int ram_fd;
    uint64_t ram_size;

    bool pc_pending;            /* BQL: tt_soc_power_cycle() resets */
    QEMUTimer *eth_fw_timer;    /* the Ethernet tiles' base firmware */

    /* properties */
    char *eth_netdev[TT_ETH_CHANNELS];  /* "ethN": the channel's netdev id */
    uint8_t asic_location;
    uint64_t board_id;          /* 0: the board's UPI, serial 1 */
    uint64_t asic_id;           /* 0: 1 + asic_location */
    int32_t pcie_endpoint;      /* PCIe endpoint, -1: the board's */
    uint32_t board;
    uint32_t harvested_cols;
    int32_t harvested_dram_bank;
    bool spin_park;
    bool tb_share;              /* tiles share translated code */
    bool tile_threads;          /* a host thread per tile, not per core */
    bool prealloc_l1;           /* allocate L1 in the RAM file at start */
};

/*
 * Layout of the RAM file: tile i's L1 and LDMs at i * 2 MiB, Ethernet
 * channel c's at 384 MiB + c * 1 MiB, GDDR bank b at 512 MiB + b * 4 GiB;
 * holes stay sparse.
 */
#define TT_SOC_RAM_TILE_STRIDE  (2 * MiB)
#define TT_SOC_RAM_ETH_BASE     (384 * MiB)
#define TT_SOC_RAM_ETH_STRIDE   (1 * MiB)
#define TT_SOC_RAM_DRAM_BASE    (512 * MiB)

/*
 * Add "eth0".."eth13" string properties to @oc (the chip's and the
 * machine's), each accessor's opaque being the channel number
 */
void tt_add_eth_netdev_props(ObjectClass *oc, ObjectPropertyAccessor *get,
                             ObjectPropertyAccessor *set);
/* Get or set one of them, kept in *@slot (NULL: none) */
void tt_eth_netdev_visit(char **slot, Visitor *v, const char *name,
                         bool set, Error **errp);

/* The Ethernet tile of physical channel @c, or NULL if it is fused off */
TTEthTile *tt_soc_eth(TTBlackholeSoC *s, int c);
/* Ethernet tile at physical NOC0 (x, y), or NULL */
TTEthTile *tt_soc_eth_at(TTBlackholeSoC *s, int x, int y);

/*
 * Power the chip off and on, as a host's warm restart: every RAM (L1,
 * LDMs, GDDR) back to zeros and every block in its power-on state, as at
 * a system reset.  Called without the BQL from a thread that is not a
 * vCPU.
 */
void tt_soc_power_cycle(TTBlackholeSoC *s);

/* Tile at physical NOC0 (x, y), or NULL */
TTTensixTile *tt_soc_tile_at(TTBlackholeSoC *s, int x, int y);
/* DRAM bank whose port is at physical (x, y), or NULL */
TTDramBank *tt_soc_dram_at(TTBlackholeSoC *s, int x, int y);

#endif
