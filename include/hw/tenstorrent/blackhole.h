/*
 * Tenstorrent Blackhole: the "blackhole" machine (P150 or P100A board,
 * blackhole.c): user options, the chip (blackhole-soc.h), firmware
 * loading (blackhole-boot.h), monitor commands.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_BLACKHOLE_H
#define HW_TENSTORRENT_BLACKHOLE_H

#include "hw/boards.h"
#include "hw/tenstorrent/blackhole-boot.h"
#include "hw/tenstorrent/blackhole-soc.h"
#include "qom/object.h"

#define TYPE_TT_BLACKHOLE_MACHINE MACHINE_TYPE_NAME("blackhole")
OBJECT_DECLARE_SIMPLE_TYPE(TTBlackholeMachine, TT_BLACKHOLE_MACHINE)

struct TTBlackholeMachine {
    MachineState parent_obj;

    TTBlackholeSoC soc;
    Notifier boot_notifier;
    TTFwBoot boot;              /* firmware=, with the fw-* options */

    /* properties */
    char *board;
    char *harvested_cols;
    char *harvested_dram_bank;
    bool spin_park;
    bool tb_share;
    bool tile_threads;
    bool prealloc_l1;
    bool deterministic;
    int64_t hang_report;        /* seconds, 0: off */
    char *eth_netdev[TT_ETH_CHANNELS];  /* ethN=: netdev ids */
    uint8_t asic_location;
    uint64_t board_id;
    uint64_t asic_id;
    char *pcie_endpoint;        /* "0", "1" or NULL: the board's */

    /* hang report (blackhole-monitor.c) */
    struct QEMUTimer *hang_timer;
    int64_t hang_since;
    bool hang_reported;
};

#endif
