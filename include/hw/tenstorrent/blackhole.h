/*
 * Tenstorrent Blackhole chip (P100A / P150 boards) and the "blackhole"
 * machine.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_BLACKHOLE_H
#define HW_TENSTORRENT_BLACKHOLE_H

#include "hw/boards.h"
#include "hw/cpu/cluster.h"
#include "hw/tenstorrent/arc.h"
#include "hw/tenstorrent/grid.h"
#include "hw/tenstorrent/dram.h"
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
    TTNoc noc;
    TTTensixTile tile[TT_MAX_TILES];
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

    /* properties */
    uint32_t board;
    uint32_t harvested_cols;
    int32_t harvested_dram_bank;
    bool spin_park;
    bool prealloc_l1;           /* allocate L1 in the RAM file at start */
};

/*
 * Layout of the RAM file: tile i's L1 and LDMs at i * 2 MiB, GDDR bank b
 * at 512 MiB + b * 4 GiB; holes stay sparse.
 */
#define TT_SOC_RAM_TILE_STRIDE  (2 * MiB)
#define TT_SOC_RAM_DRAM_BASE    (512 * MiB)

/* Tile at physical NOC0 (x, y), or NULL */
TTTensixTile *tt_soc_tile_at(TTBlackholeSoC *s, int x, int y);
/* DRAM bank whose port is at physical (x, y), or NULL */
TTDramBank *tt_soc_dram_at(TTBlackholeSoC *s, int x, int y);

#define TYPE_TT_BLACKHOLE_MACHINE MACHINE_TYPE_NAME("blackhole")
OBJECT_DECLARE_SIMPLE_TYPE(TTBlackholeMachine, TT_BLACKHOLE_MACHINE)

/* Firmware-defined L1 addresses of one build (tt-metal dev_mem_map.h) */
typedef struct TTFwLayout {
    const char *name;
    const char *desc;
    uint32_t bank_table;        /* MEM_BANK_TO_NOC_SCRATCH */
    uint32_t l2v_table;         /* MEM_LOGICAL_TO_VIRTUAL_SCRATCH, 0: none */
    uint32_t go_msg;            /* go_messages[0] */
    /* MEM_*_INIT_LOCAL_L1_BASE_SCRATCH */
    uint32_t ldm_image[TT_CORES_PER_TILE];
    uint32_t num_dram_banks;    /* 0: the board's */
    uint32_t num_l1_banks;      /* 0: the board's worker count */
} TTFwLayout;

struct TTBlackholeMachine {
    MachineState parent_obj;

    TTBlackholeSoC soc;
    Notifier boot_notifier;
    TTFwLayout fw;              /* preset with overrides applied */
    struct TTFwImage *fw_img[TT_CORES_PER_TILE];
    int fw_num_dram;            /* resolved bank counts */
    int fw_num_l1;

    /* properties */
    char *board;
    char *harvested_cols;
    char *harvested_dram_bank;
    char *fw_layout;
    char *fw_ldm_images;
    int64_t fw_bank_table;
    int64_t fw_l2v_table;
    int64_t fw_go_msg;
    int64_t fw_num_dram_banks;
    int64_t fw_num_l1_banks;
    bool spin_park;
    bool prealloc_l1;
    bool deterministic;
    int64_t hang_report;        /* seconds, 0: off */

    /* hang report (blackhole-monitor.c) */
    struct QEMUTimer *hang_timer;
    int64_t hang_since;
    bool hang_reported;
};

#endif
