/*
 * Tensix instruction words for the kernel firmware, built from the field
 * layouts of the Blackhole ISA: opcode in bits 31:24, operands below
 * (tenstorrent/tt-isa-documentation WormholeB0/TensixTile/
 * TensixCoprocessor/<MNEMONIC>.md encodings; Blackhole field positions as
 * in tenstorrent/tt-llk tt_llk_blackhole/common/inc/ckernel_ops.h).  Every
 * operand is masked to its field, so an out-of-range value cannot spill
 * into a neighbour.
 *
 * The constants at the end check a few of these encoders against words
 * worked out by hand from the same layouts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_INSN_H
#define TT_INSN_H

#include <stdint.h>

#define TTF(v, lo, w)   (((uint32_t)(v) & ((1u << (w)) - 1)) << (lo))
#define TT_OP(op, p)    (((uint32_t)(op) << 24) | (uint32_t)(p))

/* ----------------------------------------- front end (MOP, REPLAY) -- */

#define TT_NOP              TT_OP(0x02, 0)
#define TT_MOP(tpl, count, zmask_lo) \
    TT_OP(0x01, TTF(tpl, 23, 1) | TTF(count, 16, 7) | TTF(zmask_lo, 0, 16))
#define TT_MOP_CFG(zmask_hi) TT_OP(0x03, TTF(zmask_hi, 0, 16))
#define TT_REPLAY(start, len, exec, load) \
    TT_OP(0x04, TTF(start, 14, 10) | TTF(len, 4, 10) | TTF(exec, 1, 1) | \
          TTF(load, 0, 1))

/* ------------------------------------------------------ unpackers -- */

/*
 * UNPACR, regular form: which unpacker (0: SrcA, 1: SrcB), AddrMode
 * (Ch0Z[1:0] Ch0Y[3:2] Ch1Z[5:4] Ch1Y[7:6] increments), MultiContextMode
 * (tt-llk "OvrdThreadId"), FlipSrc (tt-llk "SetDatValid") and Last.  The
 * remaining fields (context numbers, counters, search, zero write,
 * broadcast) are always 0 in the kernels.
 */
#define TT_UNPACR(sel, am, multi_ctx, flip, last) \
    TT_OP(0x42, TTF(sel, 23, 1) | TTF(am, 15, 8) | TTF(multi_ctx, 7, 1) | \
          TTF(flip, 6, 1) | TTF(last, 0, 1))
/* UNPACR_NOP, Blackhole form: clear the unpacker's bank (op 1), maybe flip */
#define TT_UNPACR_NOP(sel, set_dvalid, clr_val, op) \
    TT_OP(0x43, TTF(sel, 23, 1) | TTF(set_dvalid, 8, 1) | \
          TTF(clr_val, 2, 2) | TTF(op, 0, 2))
#define UNP_CLR_SRC         1

/* address counters: mask bit 0 unpacker 0, bit 1 unpacker 1, bit 2 packer */
#define ADC_UNP_A           1
#define ADC_UNP_B           2
#define ADC_PAC             4
#define TT_SETADC(mask, ch, dim, v) \
    TT_OP(0x50, TTF(mask, 21, 3) | TTF(ch, 20, 1) | TTF(dim, 18, 2) | \
          TTF(v, 0, 18))
#define ADC_DIM_W           3
#define TT_SETADCXX(mask, x_end, x_start) \
    TT_OP(0x5e, TTF(mask, 21, 3) | TTF(x_end, 10, 10) | TTF(x_start, 0, 10))
/* SETADCXY: bits {X0, Y0, X1, Y1}; SETADCZW: bits {Z0, W0, Z1, W1} */
#define TT_ADC4(op, mask, c1b, c1a, c0b, c0a, bits) \
    TT_OP(op, TTF(mask, 21, 3) | TTF(c1b, 15, 3) | TTF(c1a, 12, 3) | \
          TTF(c0b, 9, 3) | TTF(c0a, 6, 3) | TTF(bits, 0, 4))
#define TT_SETADCXY(mask, c1y, c1x, c0y, c0x, bits) \
    TT_ADC4(0x51, mask, c1y, c1x, c0y, c0x, bits)
#define TT_SETADCZW(mask, c1w, c1z, c0w, c0z, bits) \
    TT_ADC4(0x54, mask, c1w, c1z, c0w, c0z, bits)
/* increments of the four counters; ADDRCR: counter = CR shadow + incr */
#define TT_INCADCXY(mask, c1y, c1x, c0y, c0x) \
    TT_ADC4(0x52, mask, c1y, c1x, c0y, c0x, 0)
#define TT_INCADCZW(mask, c1w, c1z, c0w, c0z) \
    TT_ADC4(0x55, mask, c1w, c1z, c0w, c0z, 0)
#define TT_ADDRCRZW(mask, c1w, c1z, c0w, c0z, bits) \
    TT_ADC4(0x56, mask, c1w, c1z, c0w, c0z, bits)

/* ------------------------------------------------------- packer -- */

/*
 * PACR: AddrMode (2 bits), ReadIntfSel (0 = all four Dst interfaces),
 * Last; the _X form adds DstAccessMode (1 = strided rows) and Concat.
 */
#define TT_PACR_X(strided, am, intf_sel, concat, last) \
    TT_OP(0x41, TTF(strided, 17, 1) | TTF(am, 15, 2) | TTF(intf_sel, 8, 4) | \
          TTF(concat, 4, 1) | TTF(last, 0, 1))
#define TT_PACR(am, intf_sel, last) TT_PACR_X(0, am, intf_sel, 0, last)

/* --------------------------------------------------- matrix unit -- */

#define CLR_NONE            0
#define CLR_A               1
#define CLR_B               2
#define CLR_AB              3

#define TT_ELW(op, clr, acc, bcast, am, dst) \
    TT_OP(op, TTF(clr, 22, 2) | TTF(acc, 21, 1) | TTF(bcast, 19, 2) | \
          TTF(am, 14, 3) | TTF(dst, 0, 10))
#define TT_ELWMUL(clr, acc, bcast, am, dst) \
    TT_ELW(0x27, clr, acc, bcast, am, dst)
#define TT_ELWADD(clr, acc, bcast, am, dst) \
    TT_ELW(0x28, clr, acc, bcast, am, dst)
#define TT_ELWSUB(clr, acc, bcast, am, dst) \
    TT_ELW(0x30, clr, acc, bcast, am, dst)
#define TT_MVMUL(clr, bcast_row, am, dst) \
    TT_OP(0x26, TTF(clr, 22, 2) | TTF(bcast_row, 19, 1) | TTF(am, 14, 3) | \
          TTF(dst, 0, 10))
/* GMPOOL/GAPOOL: mod 1 = 16x16 pooling; pool AddrMode sits at 17:15 */
#define TT_POOL(op, clr, mod, am, index_en, dst) \
    TT_OP(op, TTF(clr, 22, 2) | TTF(mod, 19, 1) | TTF(am, 15, 3) | \
          TTF(index_en, 14, 1) | TTF(dst, 0, 10))
#define TT_GMPOOL(clr, mod, am, idx, dst) TT_POOL(0x33, clr, mod, am, idx, dst)
#define TT_GAPOOL(clr, mod, am, idx, dst) TT_POOL(0x34, clr, mod, am, idx, dst)
#define POOL_16X16          1
/* MOVA2D / MOVD2B: mod 0 = 1 row, 2 = 8 rows (MOVA2D) / 4 rows (MOVD2B) */
#define TT_MOV(op, lo32, src, am, mod, dst) \
    TT_OP(op, TTF(lo32, 23, 1) | TTF(src, 17, 6) | TTF(am, 14, 3) | \
          TTF(mod, 12, 2) | TTF(dst, 0, 10))
#define TT_MOVA2D(lo32, src, am, mod, dst) TT_MOV(0x12, lo32, src, am, mod, dst)
#define TT_MOVD2B(lo32, src, am, mod, dst) TT_MOV(0x0a, lo32, src, am, mod, dst)
#define MOV_1_ROW           0
#define MOV_8_ROWS          2
#define TT_TRNSPSRCB        TT_OP(0x16, 0)
#define TT_ZEROSRC(zero_val, write_mode, both_banks, src_mask) \
    TT_OP(0x11, TTF(zero_val, 4, 1) | TTF(write_mode, 3, 1) | \
          TTF(both_banks, 2, 1) | TTF(src_mask, 0, 2))
#define TT_ZEROACC(mode, b32, clr_zf, am, where) \
    TT_OP(0x10, TTF(mode, 19, 2) | TTF(b32, 18, 1) | TTF(clr_zf, 17, 1) | \
          TTF(am, 14, 3) | TTF(where, 0, 10))
#define ZEROACC_HALF        2
#define ZEROACC_ALL         3
#define TT_CLEARDVALID(clr, reset) \
    TT_OP(0x36, TTF(clr, 22, 2) | TTF(reset, 0, 2))
/* SETRWC: CR bits {A, B, D, DtoCr}; set mask {A, B, D, fidelity} */
#define TT_SETRWC(clr, cr, d, b, a, mask) \
    TT_OP(0x37, TTF(clr, 22, 2) | TTF(cr, 18, 4) | TTF(d, 14, 4) | \
          TTF(b, 10, 4) | TTF(a, 6, 4) | TTF(mask, 0, 4))
#define RWC_CR_B            2
#define RWC_CR_D            4
#define SET_A               1
#define SET_B               2
#define SET_AB              3
#define SET_D               4
#define SET_AD              5
#define SET_BD              6
#define SET_ABD_F           15

/* --------------------------------- configuration and scalar unit -- */

#define TT_SETC16(reg, v)   TT_OP(0xb2, TTF(reg, 16, 8) | TTF(v, 0, 16))
#define TT_WRCFG(gpr, wide, cfg) \
    TT_OP(0xb0, TTF(gpr, 16, 6) | TTF(wide, 15, 1) | TTF(cfg, 0, 11))
#define TT_RDCFG(gpr, cfg)  TT_OP(0xb1, TTF(gpr, 16, 6) | TTF(cfg, 0, 11))
#define TT_RMWCIB(n, mask, data, cfg) \
    TT_OP(0xb3 + (n), TTF(mask, 16, 8) | TTF(data, 8, 8) | TTF(cfg, 0, 8))
/* SETDMAREG, immediate form: half 2n = low, 2n + 1 = high half of GPR n */
#define TT_SETDMAREG(half, v) TT_OP(0x45, TTF(v, 8, 16) | TTF(half, 0, 7))
#define GPR_LO(n)           (2 * (n))
#define GPR_HI(n)           (2 * (n) + 1)
#define TT_ADDDMAREG(b_const, res, b, a) \
    TT_OP(0x58, TTF(b_const, 23, 1) | TTF(res, 12, 6) | TTF(b, 6, 6) | \
          TTF(a, 0, 6))
#define TT_DMANOP           TT_OP(0x60, 0)

/* ------------------------------------------------------ sync unit -- */

#define TT_STALLWAIT(block, cond) \
    TT_OP(0xa2, TTF(block, 15, 9) | TTF(cond, 0, 12))
#define TT_SEMINIT(max, init, sel) \
    TT_OP(0xa3, TTF(max, 20, 4) | TTF(init, 16, 4) | TTF(sel, 2, 8))
#define TT_SEMPOST(sel)     TT_OP(0xa4, TTF(sel, 2, 8))
#define TT_SEMGET(sel)      TT_OP(0xa5, TTF(sel, 2, 8))
#define TT_SEMWAIT(block, sel, cond) \
    TT_OP(0xa6, TTF(block, 15, 9) | TTF(sel, 2, 8) | TTF(cond, 0, 2))
#define TT_ATGETM(m)        TT_OP(0xa0, TTF(m, 0, 16))
#define TT_ATRELM(m)        TT_OP(0xa1, TTF(m, 0, 16))

/* STALLWAIT / SEMWAIT blocked units (BlackholeA0 STALLWAIT.md) */
#define STALL_TDMA          0x001
#define STALL_SYNC          0x002
#define STALL_PACK          0x004
#define STALL_UNPACK        0x008
#define STALL_THCON         0x020
#define STALL_MATH          0x040
#define STALL_CFG           0x080
#define STALL_SFPU          0x100
/* ... and the conditions waited for */
#define WAIT_THCON          0x001
#define WAIT_UNPACK0        0x002
#define WAIT_UNPACK1        0x004
#define WAIT_PACK           0x008
#define WAIT_MATH           0x010
#define WAIT_TRISC_CFG      0x400
#define WAIT_SFPU           0x800
/* SEMWAIT conditions */
#define SEM_WAIT_ZERO       1
#define SEM_WAIT_MAX        2

/* semaphores, as tt-metal numbers them (tt-llk ckernel_structs.h) */
#define SEM_MATH_PACK       1
#define SEM_UNPACK_TO_DEST  2
#define SEM_PACK_DONE       4
#define SEM_UNPACK_SYNC     5
#define SEM_MATH_DONE       7
#define SEM_BIT(n)          (1u << (n))

/* --------------------------------------------- address modifiers -- */

/*
 * ThreadConfig ADDR_MOD_AB_SECn (12 + n): per source an increment [5:0],
 * CR [6] and clear [7]; ADDR_MOD_DST_SECn (28 + n): increment [9:0], CR
 * [10], clear [11], CToCR [12], fidelity increment [14:13] and clear [15];
 * ADDR_MOD_BIAS_SECn (47 + n) stays 0.  ADDR_MOD_PACK_SECn (37 + n): Y
 * source increment [3:0], CR [4], clear [5]; Y destination the same at 6;
 * Z source increment [12], clear [13]; Z destination [14], clear [15].
 */
#define AM_SRC(incr, cr, clr) \
    (TTF(incr, 0, 6) | TTF(cr, 6, 1) | TTF(clr, 7, 1))
#define AM_AB(a, b)         ((a) | (b) << 8)
#define AM_DST(incr, cr, clr, c2cr, fid_incr, fid_clr) \
    (TTF(incr, 0, 10) | TTF(cr, 10, 1) | TTF(clr, 11, 1) | \
     TTF(c2cr, 12, 1) | TTF(fid_incr, 13, 2) | TTF(fid_clr, 15, 1))
#define AM_PACK(ys_incr, ys_clr, yd_incr, yd_clr, zs_incr, zs_clr) \
    (TTF(ys_incr, 0, 4) | TTF(ys_clr, 5, 1) | TTF(yd_incr, 6, 4) | \
     TTF(yd_clr, 11, 1) | TTF(zs_incr, 12, 1) | TTF(zs_clr, 13, 1))

/* ThreadConfig registers (SETC16 index) */
#define TC_DEST_TARGET_MATH     1
#define TC_SRCA_SET             5
#define TC_CLR_DVALID           7
#define TC_ADDR_MOD_AB(n)       (12 + (n))
#define TC_ADDR_MOD_DST(n)      (28 + (n))
#define TC_ADDR_MOD_PACK(n)     (37 + (n))
#define TC_UNPACK_MISC          41
#define TC_ADDR_MOD_BIAS(n)     (47 + (n))

/* ------------------------------------------ hand-computed checks -- */

_Static_assert(TT_UNPACR(0, 1, 1, 1, 1) == 0x420080c1, "UNPACR A");
_Static_assert(TT_UNPACR(1, 1, 1, 1, 1) == 0x428080c1, "UNPACR B");
_Static_assert(TT_UNPACR_NOP(1, 1, 0, UNP_CLR_SRC) == 0x43800101,
               "UNPACR_NOP B");
_Static_assert(TT_SETADCXX(ADC_UNP_A, 255, 0) == 0x5e23fc00, "SETADCXX");
_Static_assert(TT_SETADCZW(ADC_UNP_A, 0, 0, 0, 1, 1) == 0x54200041,
               "SETADCZW");
_Static_assert(TT_SETADC(ADC_PAC, 0, ADC_DIM_W, 0) == 0x508c0000, "SETADC");
_Static_assert(TT_PACR(1, 0, 1) == 0x41008001, "PACR");
_Static_assert(TT_INCADCZW(ADC_PAC, 0, 0, 1, 0) == 0x55800200, "INCADCZW");
_Static_assert(TT_MOVA2D(0, 0, 2, MOV_8_ROWS, 0) == 0x1200a000, "MOVA2D");
_Static_assert(TT_MOVD2B(0, 16, 0, MOV_1_ROW, 0) == 0x0a200000, "MOVD2B");
_Static_assert(TT_MVMUL(CLR_A, 0, 5, 0) == 0x26414000, "MVMUL");
_Static_assert(TT_GAPOOL(CLR_AB, POOL_16X16, 0, 0, 0) == 0x34c80000,
               "GAPOOL");
_Static_assert(TT_ZEROACC(ZEROACC_HALF, 1, 0, 1, 1) == 0x10144001,
               "ZEROACC");
_Static_assert(TT_SETRWC(CLR_AB, RWC_CR_D, 8, 0, 0, SET_BD) == 0x37d20006,
               "SETRWC");
_Static_assert(TT_SETDMAREG(GPR_LO(36), 128) == 0x45008048, "SETDMAREG");
_Static_assert(TT_ADDDMAREG(0, 12, 12, 36) == 0x5800c324, "ADDDMAREG");
_Static_assert(TT_SEMWAIT(STALL_MATH | STALL_SFPU | STALL_SYNC,
                          SEM_BIT(SEM_MATH_PACK), SEM_WAIT_MAX) == 0xa6a1000a,
               "SEMWAIT");
_Static_assert(TT_RMWCIB(3, 0x20, 0x20, 1) == 0xb6202001, "RMWCIB3");
_Static_assert(TT_WRCFG(4, 1, 180) == 0xb00480b4, "WRCFG");
_Static_assert(TT_SETC16(TC_ADDR_MOD_AB(5), AM_AB(AM_SRC(0, 1, 1),
                                                   AM_SRC(0, 1, 1)))
               == 0xb211c0c0, "SETC16 addr mod");
_Static_assert(AM_DST(0, 1, 1, 0, 1, 0) == 0x2c00, "AM_DST");
_Static_assert(AM_DST(8, 0, 0, 1, 0, 1) == 0x9008, "AM_DST c2cr");
_Static_assert(AM_PACK(0, 1, 0, 1, 0, 1) == 0x2820, "AM_PACK");
_Static_assert(AM_PACK(0, 1, 4, 0, 1, 0) == 0x1120, "AM_PACK 2");

#endif
