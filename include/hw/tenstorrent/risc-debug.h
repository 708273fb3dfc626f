/*
 * Tenstorrent Blackhole baby RISC-V debug interface: RISC_DBG_CNTL_0/1 and
 * RISC_DBG_STATUS_0/1 in the tile's debug registers (0xFFB12080..0x8C), a
 * window onto each core's debug registers DR0-DR5 and DR10-DR17 with which
 * a debugger on the host or the NOC halts, steps and resumes a core and
 * reads and writes its registers and memory.
 *
 * Facts: tt-isa-documentation WormholeB0/TensixTile/BabyRISCV/
 * DebugInterface.md (Blackhole has no page of its own; tt-exalens and
 * blackhole-py drive Blackhole with the same protocol), tt-exalens
 * ttexalens/hardware/baby_risc_debug.py and its blackhole/ overrides.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_RISC_DEBUG_H
#define HW_TENSTORRENT_RISC_DEBUG_H

#include "hw/registerfields.h"
#include "hw/tenstorrent/riscv-debug-regmap.h"   /* RISC_DBG_CNTL/STATUS */
#include "hw/tenstorrent/grid.h"
#include "qom/object.h"

#define TT_RISC_DBG_CORES   4
#define TT_RISC_DBG_DRS     18

/* Per-core debug registers DR(i) */
enum {
    TT_DR_STATUS = 0,
    TT_DR_COMMAND = 1,
    TT_DR_ARG0 = 2,
    TT_DR_ARG1 = 3,
    TT_DR_RESULT = 4,
    TT_DR_WATCH_SETTINGS = 5,
    TT_DR_WATCH0 = 10,
    TT_DR_WATCH7 = 17,
};

/* DR0 status bits */
#define TT_DBG_STATUS_HALTED    BIT(0)
#define TT_DBG_STATUS_PC_HIT    BIT(1)
#define TT_DBG_STATUS_MEM_HIT   BIT(2)
#define TT_DBG_STATUS_EBREAK    BIT(3)
#define TT_DBG_STATUS_SLOT(i)   BIT(8 + (i))

/* DR5: a 4-bit mode per slot i (DR10 + i holds its address) */
#define TT_DBG_SLOTS            8
#define TT_DBG_MODE_PC          8
#define TT_DBG_MODE_READ        9
#define TT_DBG_MODE_WRITE       10
#define TT_DBG_MODE_ACCESS      11

/* DR1 command bits */
#define TT_DBG_CMD_HALT         BIT(0)
#define TT_DBG_CMD_STEP         BIT(1)
#define TT_DBG_CMD_CONTINUE     BIT(2)
#define TT_DBG_CMD_READ_REG     BIT(3)
#define TT_DBG_CMD_WRITE_REG    BIT(4)
#define TT_DBG_CMD_READ_MEM     BIT(5)
#define TT_DBG_CMD_WRITE_MEM    BIT(6)
#define TT_DBG_CMD_ZERO_REGS    BIT(7)
#define TT_DBG_CMD_SET_PC       BIT(8)
#define TT_DBG_CMD_DEBUG_MODE   BIT(31)

/* Register number of the PC in READ/WRITE_REGISTER (x0-x31 are 0-31) */
#define TT_DBG_REG_PC           32

typedef struct TTRiscDebugCore {
    uint32_t dr[TT_RISC_DBG_DRS];
    bool halted;            /* paused by the debug interface */
    bool ebreak;            /* paused by an ebreak or ecall */
    uint32_t hits;          /* DR0 breakpoint/watchpoint bits of the halt */
    bool step_then_run;     /* continue from a breakpoint: step over it */
    /* slots installed in QEMU (core's thread only): DR5 and addresses */
    uint32_t armed_modes;
    uint32_t armed_addr[TT_DBG_SLOTS];
    bool step_armed;        /* one STEP seen: the next one steps */
    bool stepping;          /* a step is under way */
} TTRiscDebugCore;

/*
 * Part of the tile's debug registers (riscv-debug-regs.c), which own it,
 * migrate its state and serialise the writes that reach it.
 */
typedef struct TTRiscDebug {
    uint32_t cntl0, cntl1, status1;
    bool read_valid;
    TTRiscDebugCore core[TT_RISC_DBG_CORES];

    /* from tt_risc_debug_init(), fixed afterwards */
    Object *const *cpu;         /* the tile's cores, by role */
    struct TTSpinTile *spin;    /* their parking, to kick */
    uint8_t tile_x, tile_y;
} TTRiscDebug;

/* @cpu: the tile's five cores by role; @spin may be NULL */
void tt_risc_debug_init(TTRiscDebug *d, Object *const *cpu,
                        struct TTSpinTile *spin, uint8_t x, uint8_t y);
void tt_risc_debug_reset(TTRiscDebug *d);
uint32_t tt_risc_debug_read(TTRiscDebug *d, hwaddr addr);
/* @held: the roles (bit per TTCoreRole) held in soft reset */
void tt_risc_debug_write(TTRiscDebug *d, hwaddr addr, uint32_t val,
                         uint32_t held);
/* Core @role left reset: its debug state is gone (kept with @keep_drs) */
void tt_risc_debug_core_reset(TTRiscDebug *d, TTCoreRole role,
                              bool keep_drs);
/* Whether core @role is paused by the debug interface (for the monitor) */
bool tt_risc_debug_halted(TTRiscDebug *d, TTCoreRole role);

#endif
