/*
 * Register offsets of a Tenstorrent Blackhole Tensix tile's control/debug
 * block (DEBUG_REGS, 0xFFB12000 in the tile's map) and of the PC readback
 * in the PIC block (0xFFB13000): the one table the model
 * (riscv-debug-regs.c), the host qtests and the RV32 test firmware use.
 *
 * Plain C without QEMU types.  The includer defines REG32() and FIELD()
 * first: QEMU code and qtests through hw/registerfields.h, test firmware
 * through plain-regfields.h, which gives the same A_, R_ and
 * _SHIFT/_LENGTH/_MASK names.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_RISCV_DEBUG_REGMAP_H
#define HW_TENSTORRENT_RISCV_DEBUG_REGMAP_H

/* Offsets in DEBUG_REGS: tt-metal blackhole/tensix.h */

/* Debug bus: select a signal group, read 32 bits of it */
REG32(DBG_BUS_CTRL, 0x054)
    FIELD(DBG_BUS_CTRL, SIG_SEL, 0, 16)
    FIELD(DBG_BUS_CTRL, DAISY_SEL, 16, 8)
    FIELD(DBG_BUS_CTRL, RD_SEL, 25, 2)
    FIELD(DBG_BUS_CTRL, EN, 29, 1)
REG32(DBG_RD_DATA, 0x05c)
/* The baby RISC-V debug interface (risc-debug.c): DR window and status */
REG32(RISC_DBG_CNTL_0, 0x080)
    FIELD(RISC_DBG_CNTL_0, DR, 0, 11)
    FIELD(RISC_DBG_CNTL_0, WRITE, 16, 1)
    FIELD(RISC_DBG_CNTL_0, RISC, 17, 2)     /* B, T0, T1, T2: no NCRISC */
    FIELD(RISC_DBG_CNTL_0, TRIGGER, 31, 1)
REG32(RISC_DBG_CNTL_1, 0x084)
REG32(RISC_DBG_STATUS_0, 0x088)
    FIELD(RISC_DBG_STATUS_0, WRITE_ECHO, 13, 4)
    FIELD(RISC_DBG_STATUS_0, READ_VALID, 30, 1)
REG32(RISC_DBG_STATUS_1, 0x08c)
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

/*
 * PC readback, offsets in the PIC block (tt-isa-doc BabyRISCV/README.md):
 * one word per core in role order, BRISC first, TRISC2 last
 */
REG32(PC_READBACK_BRISC, 0x138)
REG32(PC_READBACK_TRISC2, 0x148)

/* Power-on value: all five cores held (tt-isa-doc SoftReset.md) */
#define TT_SOFT_RESET_POWER_ON  0x00047800u
#define TT_SOFT_RESET_CORES     0x00047800u
/* Bits >= 24 have no effect; bit 31 is tt-umd's staggered start. */
#define TT_SOFT_RESET_MASK      0x00ffffffu

/*
 * An Ethernet tile's ERISC control block (TT_ETH_ERISC_CTRL_BASE,
 * 0xFFB14000): tt-metal dev_mem_map.h IERISC_RESET_PC and
 * SUBORDINATE_IERISC_RESET_PC, ethdump E1_END_PC_ADDR, eth_fw_api.h
 * ETH_RISC_CTRL_A_INTERRUPT_MODE_0 (five words)
 */
REG32(ERISC0_RESET_PC, 0x00)
REG32(ERISC1_RESET_PC, 0x08)
REG32(ERISC1_END_PC, 0x0c)
REG32(ERISC_INT_MODE_0, 0x20)

#define TT_ERISC_CORES          2
/*
 * SOFT_RESET_0 of an Ethernet tile at power-on: E0 (bit 11) and E1
 * (bit 12) held.  The silicon value is not documented; ttsim's.
 */
#define TT_ERISC_SOFT_RESET_POWER_ON 0x00001800u

/* Default reset PCs without override (tt-isa-doc SoftReset.md) */
#define TT_NCRISC_DEFAULT_PC    0x12000u
#define TT_TRISC0_DEFAULT_PC    0x06000u
#define TT_TRISC_PC_STRIDE      0x04000u

#endif
