/*
 * Tenstorrent Blackhole tile control/debug registers (0xFFB12000) and PIC /
 * PC readback block (0xFFB13000): soft reset of the five cores, reset PCs,
 * wall clock, and the RISC debug interface (risc-debug.h).  With
 * "ethernet" set, an Ethernet tile's: two ERISC cores (bits 11 and 12 of
 * SOFT_RESET_0) whose reset PCs are in the second region, the ERISC
 * control block at 0xFFB14000; no debug interface, no PC readback.
 *
 * Threads: any vCPU of the tile, other tiles' NOC traffic and the host may
 * access the block concurrently.  The MMIO regions are lockless; @lock
 * serialises register updates and the reset requests they queue, so each
 * core sees its hold/release work in register order.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_RISCV_DEBUG_REGS_H
#define HW_TENSTORRENT_RISCV_DEBUG_REGS_H

#include "hw/sysbus.h"
#include "hw/registerfields.h"
#include "hw/tenstorrent/riscv-debug-regmap.h"
#include "hw/tenstorrent/grid.h"
#include "hw/tenstorrent/risc-debug.h"
#include "hw/tenstorrent/tt-tile-map.h"     /* generated */
#include "qom/object.h"

#define TYPE_TT_RISCV_DEBUG_REGS "tt-riscv-debug-regs"
OBJECT_DECLARE_SIMPLE_TYPE(TTRiscvDebugRegs, TT_RISCV_DEBUG_REGS)

struct TTRiscvDebugRegs {
    SysBusDevice parent_obj;

    MemoryRegion ctrl;          /* 0xFFB12000, 4 KiB */
    MemoryRegion pic;           /* 0xFFB13000, 4 KiB */
    QemuMutex lock;

    uint32_t soft_reset;
    uint32_t disable_reset;
    uint32_t trisc_reset_pc[3];
    uint32_t trisc_pc_override;
    uint32_t ncrisc_reset_pc;
    uint32_t ncrisc_pc_override;
    uint32_t cg[3];             /* clock gating write sinks */
    uint32_t wall_clock_hi_latched;
    uint32_t dbg_bus_ctrl;
    TTRiscDebug risc_dbg;       /* RISC_DBG_CNTL/STATUS, risc-debug.c */
    /* an Ethernet tile's ERISC control block */
    uint32_t erisc_reset_pc[TT_ERISC_CORES];
    uint32_t erisc_end_pc;
    uint32_t erisc_int_mode[5];
    int ncores;                 /* 5, or TT_ERISC_CORES if @ethernet */
    /* cores released since their last cpu_reset(), one bit per role */
    uint32_t ran;

    /* links */
    Object *cpu[TT_CORES_PER_TILE];
    MemoryRegion *ldm[TT_CORES_PER_TILE];
    /*
     * A hold queued on a core (async_run_on_cpu): the LDM to zero and the
     * migration load it was queued under; one per core, latest wins.
     * Holds queued and run so far, for a host waiting for them.
     */
    struct TTCoreHold {
        MemoryRegion *ldm;      /* NULL: DISABLE_RESET keeps the LDM */
        uint32_t gen;
        uint32_t queued;
        uint32_t done;
    } hold[TT_CORES_PER_TILE];
    /*
     * A release queued on a core: its reset PC and load count as for a
     * hold; once it has run, @started and where the core's progress
     * counters (stores, backward branches) stood, for a host waiting to
     * see the core's first steps
     */
    struct TTCoreRelease {
        uint32_t pc;
        uint32_t gen;
        uint32_t epoch;
        int32_t count;
        bool started;
    } rel[TT_CORES_PER_TILE];
    struct TTSpinTile *spin;    /* "spin": the tile's parked cores */
    /* a word of a vfio-user client's map: @live_bit while a core runs */
    uint64_t *live_word;
    uint64_t live_bit;
    /* properties */
    uint8_t tile_x, tile_y;
    bool ethernet;              /* an Ethernet tile's block (E0, E1) */
};

/*
 * A baby RISC-V core @cs keeps its TLB and TB jump cache when reset: the
 * soft reset of every started kernel must not cost their refill
 */
void tt_core_keep_caches(CPUState *cs);

/* Core bit in SOFT_RESET_0 per role (BRISC 11, NCRISC 18, TRISCn 12+n) */
uint32_t tt_soft_reset_bit(TTCoreRole role);

/*
 * Has core @role been released from reset since the last call (or ever,
 * for the first)?  Clears the answer: the caller resets the core.
 */
bool tt_debug_regs_take_ran(TTRiscvDebugRegs *s, int role);

/* Write SOFT_RESET_0 as the NOC or a core would (host boot path). */
void tt_debug_regs_set_soft_reset(TTRiscvDebugRegs *s, uint32_t val);
uint32_t tt_debug_regs_get_soft_reset(TTRiscvDebugRegs *s);

/*
 * Keep @bit of *@word set while any core of the tile is out of reset
 * (host-map.c's TTHmShared.live), from now on; @word NULL: no longer
 */
void tt_debug_regs_set_live_flag(TTRiscvDebugRegs *s, uint64_t *word,
                                 uint64_t bit);

/* Reset PC a core starts at when released now */
uint32_t tt_debug_regs_reset_pc(TTRiscvDebugRegs *s, TTCoreRole role);
void tt_debug_regs_set_reset_pc(TTRiscvDebugRegs *s, TTCoreRole role,
                                uint32_t pc);

#endif
