/*
 * Tenstorrent Blackhole tile control/debug registers (0xFFB12000) and PIC /
 * PC readback block (0xFFB13000): soft reset of the five cores, reset PCs,
 * wall clock, and the RISC debug interface (risc-debug.h).
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
#include "hw/tenstorrent/grid.h"
#include "hw/tenstorrent/risc-debug.h"
#include "hw/tenstorrent/tt-tile-map.h"     /* generated */
#include "qom/object.h"

#define TYPE_TT_RISCV_DEBUG_REGS "tt-riscv-debug-regs"
OBJECT_DECLARE_SIMPLE_TYPE(TTRiscvDebugRegs, TT_RISCV_DEBUG_REGS)

/* Offsets in DEBUG_REGS: tt-metal blackhole/tensix.h */

/* Debug bus: select a signal group, read 32 bits of it */
REG32(DBG_BUS_CTRL, 0x054)
    FIELD(DBG_BUS_CTRL, SIG_SEL, 0, 16)
    FIELD(DBG_BUS_CTRL, DAISY_SEL, 16, 8)
    FIELD(DBG_BUS_CTRL, RD_SEL, 25, 2)
    FIELD(DBG_BUS_CTRL, EN, 29, 1)
REG32(DBG_RD_DATA, 0x05c)
REG32(SOFT_RESET_0, 0x1b0)
    FIELD(SOFT_RESET_0, BRISC, 11, 1)
    FIELD(SOFT_RESET_0, TRISCS, 12, 3)
    FIELD(SOFT_RESET_0, NCRISC, 18, 1)
REG32(WALL_CLOCK_L, 0x1f0)
REG32(WALL_CLOCK_1, 0x1f4)
REG32(WALL_CLOCK_H, 0x1f8)
REG32(DISABLE_RESET, 0x224)
REG32(TRISC0_RESET_PC, 0x228)
REG32(TRISC1_RESET_PC, 0x22c)
REG32(TRISC2_RESET_PC, 0x230)
REG32(TRISC_RESET_PC_OVERRIDE, 0x234)
REG32(NCRISC_RESET_PC, 0x238)
REG32(NCRISC_RESET_PC_OVERRIDE, 0x23c)
REG32(DEST_CG_CTRL, 0x240)
REG32(CG_CTRL_EN, 0x244)
REG32(CG_KICK, 0x248)

/* PC readback, offsets in the PIC block (tt-isa-doc BabyRISCV/README.md) */
REG32(PC_READBACK_BRISC, 0x138)
REG32(PC_READBACK_TRISC2, 0x148)

/* Power-on value: all five cores held (tt-isa-doc SoftReset.md) */
#define TT_SOFT_RESET_POWER_ON  0x00047800u
#define TT_SOFT_RESET_CORES     0x00047800u
/* Bits >= 24 have no effect; bit 31 is tt-umd's staggered start. */
#define TT_SOFT_RESET_MASK      0x00ffffffu

/* Default reset PCs without override (tt-isa-doc SoftReset.md) */
#define TT_NCRISC_DEFAULT_PC    0x12000u
#define TT_TRISC0_DEFAULT_PC    0x06000u
#define TT_TRISC_PC_STRIDE      0x04000u

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

    /* links */
    Object *cpu[TT_CORES_PER_TILE];
    MemoryRegion *ldm[TT_CORES_PER_TILE];
    /*
     * A hold queued on a core (async_run_on_cpu): the LDM to zero and the
     * migration load it was queued under; one per core, latest wins
     */
    struct TTCoreHold {
        MemoryRegion *ldm;      /* NULL: DISABLE_RESET keeps the LDM */
        uint32_t gen;
    } hold[TT_CORES_PER_TILE];
    struct TTSpinTile *spin;    /* "spin": the tile's parked cores */
    /* properties */
    uint8_t tile_x, tile_y;
};

/* Core bit in SOFT_RESET_0 per role (BRISC 11, NCRISC 18, TRISCn 12+n) */
uint32_t tt_soft_reset_bit(TTCoreRole role);

/* Write SOFT_RESET_0 as the NOC or a core would (host boot path). */
void tt_debug_regs_set_soft_reset(TTRiscvDebugRegs *s, uint32_t val);
uint32_t tt_debug_regs_get_soft_reset(TTRiscvDebugRegs *s);

/* Reset PC a core starts at when released now */
uint32_t tt_debug_regs_reset_pc(TTRiscvDebugRegs *s, TTCoreRole role);
void tt_debug_regs_set_reset_pc(TTRiscvDebugRegs *s, TTCoreRole role,
                                uint32_t pc);

#endif
