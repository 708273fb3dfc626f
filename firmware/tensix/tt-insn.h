/*
 * Tensix instruction words for the kernel firmware.  Opcodes and operand
 * fields come from the generated TT_ENC_<MNEMONIC>(fields, most
 * significant first) of tt-tensix-enc.h (gen-tensix-isa.py --encoders
 * over hw/tenstorrent/data/tensix-isa.yaml), ThreadConfig registers and
 * fields from TT_THCFG_* of tt-tensix-config.h (gen-tensix-config.py
 * over hw/tenstorrent/data/tensix-config.yaml): the same data the
 * emulator decodes with.  The macros here only give the kernels' short
 * operand lists, the fields the kernels always leave 0 filled in, and
 * names for operand values.
 *
 * The constants at the end check a few of these words against words
 * worked out by hand from the field layouts of the Blackhole ISA
 * (tenstorrent/tt-isa-documentation WormholeB0/TensixTile/
 * TensixCoprocessor/<MNEMONIC>.md encodings; Blackhole field positions as
 * in tenstorrent/tt-llk tt_llk_blackhole/common/inc/ckernel_ops.h), so
 * they check the data file and the generator.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_INSN_H
#define TT_INSN_H

#include <stdint.h>

#include "tt-tensix-config.h"
#include "tt-tensix-enc.h"

/* ----------------------------------------- front end (MOP, REPLAY) -- */

#define TT_NOP              TT_ENC_NOP()
#define TT_MOP(tpl, count, zmask_lo) TT_ENC_MOP(tpl, count, zmask_lo)
#define TT_REPLAY(start, len, exec, load) \
    TT_ENC_REPLAY(start, len, exec, load)

/* ------------------------------------------------------ unpackers -- */

/*
 * UNPACR, regular form: which unpacker (0: SrcA, 1: SrcB), AddrMode
 * (Ch0Z[1:0] Ch0Y[3:2] Ch1Z[5:4] Ch1Y[7:6] increments), MultiContextMode
 * (tt-llk "OvrdThreadId"), FlipSrc (tt-llk "SetDatValid") and Last.  The
 * remaining fields (context numbers, counters, search, zero write,
 * broadcast) are always 0 in the kernels.
 */
#define TT_UNPACR(sel, am, multi_ctx, flip, last) \
    TT_ENC_UNPACR(sel, am, 0, 0, 0, multi_ctx, flip, 0, 0, 0, 0, 0, last)
/* UNPACR_NOP, Blackhole form: clear the unpacker's bank (op 1), maybe flip */
#define TT_UNPACR_NOP(sel, set_dvalid, clr_val, op) \
    TT_ENC_UNPACR_NOP(sel, 0, 0, set_dvalid, 0, 0, 0, clr_val, op)
#define UNP_CLR_SRC         1

/* address counters: mask bit 0 unpacker 0, bit 1 unpacker 1, bit 2 packer */
#define ADC_UNP_A           1
#define ADC_UNP_B           2
#define ADC_PAC             4
#define TT_SETADC(mask, ch, dim, v) TT_ENC_SETADC(mask, ch, dim, v)
#define ADC_DIM_W           3
#define TT_SETADCXX(mask, x_end, x_start) \
    TT_ENC_SETADCXX(mask, x_end, x_start)
/*
 * SETADCXY: bits {X0, Y0, X1, Y1}; SETADCZW: bits {Z0, W0, Z1, W1}; the
 * counters of this thread (no thread override)
 */
#define TT_SETADCXY(mask, c1y, c1x, c0y, c0x, bits) \
    TT_ENC_SETADCXY(mask, 0, c1y, c1x, c0y, c0x, bits)
#define TT_SETADCZW(mask, c1w, c1z, c0w, c0z, bits) \
    TT_ENC_SETADCZW(mask, 0, c1w, c1z, c0w, c0z, bits)
/* increments of the four counters; ADDRCR: counter = CR shadow + incr */
#define TT_INCADCXY(mask, c1y, c1x, c0y, c0x) \
    TT_ENC_INCADCXY(mask, 0, c1y, c1x, c0y, c0x)
#define TT_INCADCZW(mask, c1w, c1z, c0w, c0z) \
    TT_ENC_INCADCZW(mask, 0, c1w, c1z, c0w, c0z)
#define TT_ADDRCRZW(mask, c1w, c1z, c0w, c0z, bits) \
    TT_ENC_ADDRCRZW(mask, 0, c1w, c1z, c0w, c0z, bits)

/* ------------------------------------------------------- packer -- */

/*
 * PACR: AddrMode (2 bits), ReadIntfSel (0 = all four Dst interfaces),
 * Last; the _X form adds DstAccessMode (1 = strided rows) and Concat.
 */
#define TT_PACR_X(strided, am, intf_sel, concat, last) \
    TT_ENC_PACR(0, 0, strided, am, 0, 0, intf_sel, 0, concat, 0, 0, last)
#define TT_PACR(am, intf_sel, last) TT_PACR_X(0, am, intf_sel, 0, last)

/* --------------------------------------------------- matrix unit -- */

#define CLR_NONE            0
#define CLR_A               1
#define CLR_B               2
#define CLR_AB              3

#define TT_ELWMUL(clr, acc, bcast, am, dst) \
    TT_ENC_ELWMUL(clr, acc, bcast, am, dst)
#define TT_ELWADD(clr, acc, bcast, am, dst) \
    TT_ENC_ELWADD(clr, acc, bcast, am, dst)
#define TT_ELWSUB(clr, acc, bcast, am, dst) \
    TT_ENC_ELWSUB(clr, acc, bcast, am, dst)
#define TT_MVMUL(clr, bcast_row, am, dst) \
    TT_ENC_MVMUL(clr, bcast_row, am, dst)
/* GMPOOL/GAPOOL: mod 1 = 16x16 pooling; pool AddrMode sits at 17:15 */
#define TT_GMPOOL(clr, mod, am, idx, dst) TT_ENC_GMPOOL(clr, mod, am, idx, dst)
#define TT_GAPOOL(clr, mod, am, idx, dst) TT_ENC_GAPOOL(clr, mod, am, idx, dst)
#define POOL_16X16          1
/* MOVA2D / MOVD2B: mod 0 = 1 row, 2 = 8 rows (MOVA2D) / 4 rows (MOVD2B) */
#define TT_MOVA2D(lo32, src, am, mod, dst) \
    TT_ENC_MOVA2D(lo32, src, am, mod, dst)
#define TT_MOVD2B(lo32, src, am, mod, dst) \
    TT_ENC_MOVD2B(lo32, src, am, mod, dst)
#define MOV_1_ROW           0
#define MOV_8_ROWS          2
#define TT_TRNSPSRCB        TT_ENC_TRNSPSRCB()
#define TT_ZEROSRC(zero_val, write_mode, both_banks, src_mask) \
    TT_ENC_ZEROSRC(zero_val, write_mode, both_banks, src_mask)
#define TT_ZEROACC(mode, b32, clr_zf, am, where) \
    TT_ENC_ZEROACC(mode, b32, clr_zf, am, where)
#define ZEROACC_HALF        2
#define ZEROACC_ALL         3
#define TT_CLEARDVALID(clr, reset) TT_ENC_CLEARDVALID(clr, reset)
/* SETRWC: CR bits {A, B, D, DtoCr}; set mask {A, B, D, fidelity} */
#define TT_SETRWC(clr, cr, d, b, a, mask) \
    TT_ENC_SETRWC(clr, cr, d, b, a, mask)
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

#define TT_SETC16(reg, v)   TT_ENC_SETC16(reg, v)
#define TT_WRCFG(gpr, wide, cfg) TT_ENC_WRCFG(gpr, wide, cfg)
#define TT_RDCFG(gpr, cfg)  TT_ENC_RDCFG(gpr, cfg)
/* RMWCIB0-3: byte @n of config word @cfg = (old & ~mask) | (data & mask) */
#define TT_RMWCIB(n, mask, data, cfg) \
    ((n) == 0 ? TT_ENC_RMWCIB0(mask, data, cfg) : \
     (n) == 1 ? TT_ENC_RMWCIB1(mask, data, cfg) : \
     (n) == 2 ? TT_ENC_RMWCIB2(mask, data, cfg) : \
     TT_ENC_RMWCIB3(mask, data, cfg))
/*
 * SETDMAREG, immediate form: half 2n = low, 2n + 1 = high half of GPR n
 * gets the 16-bit @v, whose top two bits sit in the size field
 */
#define TT_SETDMAREG(half, v) \
    TT_ENC_SETDMAREG((uint32_t)(v) >> 14, v, 0, half)
#define GPR_LO(n)           (2 * (n))
#define GPR_HI(n)           (2 * (n) + 1)
#define TT_ADDDMAREG(b_const, res, b, a) TT_ENC_ADDDMAREG(b_const, res, b, a)
#define TT_DMANOP           TT_ENC_DMANOP()

/* ------------------------------------------------------ sync unit -- */

#define TT_STALLWAIT(block, cond) TT_ENC_STALLWAIT(block, cond)
#define TT_SEMINIT(max, init, sel) TT_ENC_SEMINIT(max, init, sel)
#define TT_SEMPOST(sel)     TT_ENC_SEMPOST(sel)
#define TT_SEMGET(sel)      TT_ENC_SEMGET(sel)
#define TT_SEMWAIT(block, sel, cond) TT_ENC_SEMWAIT(block, sel, cond)
#define TT_ATGETM(m)        TT_ENC_ATGETM(m)
#define TT_ATRELM(m)        TT_ENC_ATRELM(m)

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

/* Field @f of ThreadConfig (a TT_THCFG_<f>_* of tt-tensix-config.h) = @v */
#define THCFG(f, v) \
    (((uint32_t)(v) & ((1u << TT_THCFG_##f##_WIDTH) - 1)) << \
     TT_THCFG_##f##_SHIFT)

/*
 * ThreadConfig ADDR_MOD_AB_SECn: per source an increment, CR and clear,
 * SrcA's low, SrcB's in the same places above it; ADDR_MOD_DST_SECn:
 * increment, CR, clear, CToCR, fidelity increment and clear;
 * ADDR_MOD_BIAS_SECn stays 0.  ADDR_MOD_PACK_SECn: Y source increment,
 * clear; Y destination increment, clear; Z source increment, clear.
 */
#define AM_SRC(incr, cr, clr) \
    (THCFG(ADDR_MOD_AB_SECn_SrcAIncr, incr) | \
     THCFG(ADDR_MOD_AB_SECn_SrcACR, cr) | \
     THCFG(ADDR_MOD_AB_SECn_SrcAClear, clr))
#define AM_AB(a, b) \
    ((a) | (b) << (TT_THCFG_ADDR_MOD_AB_SECn_SrcBIncr_SHIFT - \
                   TT_THCFG_ADDR_MOD_AB_SECn_SrcAIncr_SHIFT))
_Static_assert(AM_AB(0, AM_SRC(0x3f, 1, 1)) ==
               (THCFG(ADDR_MOD_AB_SECn_SrcBIncr, 0x3f) |
                THCFG(ADDR_MOD_AB_SECn_SrcBCR, 1) |
                THCFG(ADDR_MOD_AB_SECn_SrcBClear, 1)),
               "AM_AB: SrcB's fields sit where SrcA's do, shifted");
#define AM_DST(incr, cr, clr, c2cr, fid_incr, fid_clr) \
    (THCFG(ADDR_MOD_DST_SECn_DestIncr, incr) | \
     THCFG(ADDR_MOD_DST_SECn_DestCR, cr) | \
     THCFG(ADDR_MOD_DST_SECn_DestClear, clr) | \
     THCFG(ADDR_MOD_DST_SECn_DestCToCR, c2cr) | \
     THCFG(ADDR_MOD_DST_SECn_FidelityIncr, fid_incr) | \
     THCFG(ADDR_MOD_DST_SECn_FidelityClear, fid_clr))
#define AM_PACK(ys_incr, ys_clr, yd_incr, yd_clr, zs_incr, zs_clr) \
    (THCFG(ADDR_MOD_PACK_SECn_YsrcIncr, ys_incr) | \
     THCFG(ADDR_MOD_PACK_SECn_YsrcClear, ys_clr) | \
     THCFG(ADDR_MOD_PACK_SECn_YdstIncr, yd_incr) | \
     THCFG(ADDR_MOD_PACK_SECn_YdstClear, yd_clr) | \
     THCFG(ADDR_MOD_PACK_SECn_ZsrcIncr, zs_incr) | \
     THCFG(ADDR_MOD_PACK_SECn_ZsrcClear, zs_clr))

/* ThreadConfig registers (SETC16 index), named after their first field */
#define TC_DEST_TARGET_MATH TT_THCFG_DEST_TARGET_REG_CFG_MATH_Offset_WORD
#define TC_SRCA_SET         TT_THCFG_SRCA_SET_Base_WORD
#define TC_CLR_DVALID       TT_THCFG_CLR_DVALID_SrcA_Disable_WORD
#define TC_ADDR_MOD_AB(n)   (TT_THCFG_ADDR_MOD_AB_SECn_SrcAIncr_WORD + (n))
#define TC_ADDR_MOD_DST(n)  (TT_THCFG_ADDR_MOD_DST_SECn_DestIncr_WORD + (n))
#define TC_ADDR_MOD_PACK(n) (TT_THCFG_ADDR_MOD_PACK_SECn_YsrcIncr_WORD + (n))
#define TC_UNPACK_MISC      TT_THCFG_UNPACK_MISC_CFG_CfgContextOffset_0_WORD
#define TC_ADDR_MOD_BIAS(n) (TT_THCFG_ADDR_MOD_BIAS_SECn_BiasIncr_WORD + (n))

/* ------------------------------------------- vector unit (SFPU) -- */

/*
 * Operands in tt-llk's TTI_SFP* order (tt_llk_blackhole/common/inc/
 * ckernel_ops.h), which is the field order of the generated encoders.
 * SFPLOAD/SFPSTORE/SFPLOADMACRO: LReg (SFPLOADMACRO: macro << 2 | the
 * low two bits of the LReg), Mod0 format, AddrMod, Dst row offset
 * (SFPLOADMACRO: with the LReg's bit 2 in bit 0).
 */
#define TT_SFPLOAD(vd, mod0, am, imm) TT_ENC_SFPLOAD(vd, mod0, am, imm)
#define TT_SFPSTORE(vd, mod0, am, imm) TT_ENC_SFPSTORE(vd, mod0, am, imm)
#define TT_SFPLOADMACRO(vd, mod0, am, imm) \
    TT_ENC_SFPLOADMACRO(vd, mod0, am, (imm) & 0x3ff)
#define TT_SFPLOADI(vd, mod0, imm16) TT_ENC_SFPLOADI(vd, mod0, (imm16) & 0xffff)
#define TT_SFPCONFIG(imm16, dest, mod1) TT_ENC_SFPCONFIG(imm16, dest, mod1)
#define TT_SFPMAD(va, vb, vc, vd, mod1) TT_ENC_SFPMAD(va, vb, vc, vd, mod1)
#define TT_SFPADD(va, vb, vc, vd, mod1) TT_ENC_SFPADD(va, vb, vc, vd, mod1)
#define TT_SFPMUL(va, vb, vc, vd, mod1) TT_ENC_SFPMUL(va, vb, vc, vd, mod1)
#define TT_SFPADDI(imm16, vd, mod1) TT_ENC_SFPADDI(imm16, vd, mod1)
#define TT_SFPMULI(imm16, vd, mod1) TT_ENC_SFPMULI(imm16, vd, mod1)
#define TT_SFPSWAP(imm12, vc, vd, mod1) TT_ENC_SFPSWAP(imm12, vc, vd, mod1)
#define TT_SFPSHFT(imm12, vc, vd, mod1) \
    TT_ENC_SFPSHFT((imm12) & 0xfff, vc, vd, mod1)
#define TT_SFPSHFT2(imm12, vc, vd, mod1) \
    TT_ENC_SFPSHFT2((imm12) & 0xfff, vc, vd, mod1)
#define TT_SFPIADD(imm12, vc, vd, mod1) \
    TT_ENC_SFPIADD((imm12) & 0xfff, vc, vd, mod1)
#define TT_SFP_STOCH_RND(rnd, imm8, vb, vc, vd, mod1) \
    TT_ENC_SFP_STOCH_RND(rnd, imm8, vb, vc, vd, mod1)
#define TT_SFPSETSGN(imm12, vc, vd, mod1) TT_ENC_SFPSETSGN(imm12, vc, vd, mod1)
#define TT_SFPSETEXP(imm12, vc, vd, mod1) TT_ENC_SFPSETEXP(imm12, vc, vd, mod1)
#define TT_SFPEXEXP(imm12, vc, vd, mod1) TT_ENC_SFPEXEXP(imm12, vc, vd, mod1)
#define TT_SFPEXMAN(imm12, vc, vd, mod1) TT_ENC_SFPEXMAN(imm12, vc, vd, mod1)
#define TT_SFPSETCC(imm12, vc, vd, mod1) TT_ENC_SFPSETCC(imm12, vc, vd, mod1)
#define TT_SFPENCC(imm12, vc, vd, mod1) TT_ENC_SFPENCC(imm12, vc, vd, mod1)
#define TT_SFPPUSHC         TT_ENC_SFPPUSHC(0, 0, 0, 0)
#define TT_SFPPOPC          TT_ENC_SFPPOPC(0, 0, 0, 0)
#define TT_SFPMOV(imm12, vc, vd, mod1) TT_ENC_SFPMOV(imm12, vc, vd, mod1)
#define TT_SFPABS(imm12, vc, vd, mod1) TT_ENC_SFPABS(imm12, vc, vd, mod1)
#define TT_SFPOR(imm12, vc, vd, mod1) TT_ENC_SFPOR(imm12, vc, vd, mod1)
#define TT_SFPCAST(vc, vd, mod1) TT_ENC_SFPCAST(vc, vd, mod1)
#define TT_SFPARECIP(imm12, vc, vd, mod1) TT_ENC_SFPARECIP(imm12, vc, vd, mod1)
/* tt-llk's TTI_SFPLUTFP32 leaves the Mod1Mirror field 0 */
#define TT_SFPLUTFP32(vd, mod1) TT_ENC_SFPLUTFP32(0, vd, mod1)
#define TT_SFPTRANSP        TT_ENC_SFPTRANSP(0, 0, 0, 0)
#define TT_SFPNOP           TT_ENC_SFPNOP()
/* INCRWC: Dst/SrcB/SrcA counters += d/b/a (cr: of the CR shadows) */
#define TT_INCRWC(cr, d, b, a) TT_ENC_INCRWC(cr, d, b, a)

/* LRegs and constant registers (tt-llk ckernel_instr_params.h p_sfpu) */
#define LREG0               0
#define LREG1               1
#define LREG2               2
#define LREG3               3
#define LREG4               4
#define LREG5               5
#define LREG6               6
#define LREG7               7
#define LCONST_0_8373       8
#define LCONST_0            9
#define LCONST_1            10
#define LCONST_NEG1         11
#define LREG12              12
#define LREG13              13
#define LREG14              14
#define LREG15              15
/* SFPLOAD/SFPSTORE Mod0 (tt-llk InstrModLoadStore) */
#define SFP_FMT_DEFAULT     0   /* as Dst / SrcB is configured */
#define SFP_FMT_FP16B       2
#define SFP_FMT_FP32        3
#define SFP_FMT_INT32       4
#define SFP_FMT_LO16        6
/* SFPLOADI Mod0 (sfpi SFPLOADI_MOD0_*) */
#define SFP_LI_FLOATB       0
#define SFP_LI_USHORT       2
#define SFP_LI_SHORT        4
#define SFP_LI_UPPER        8
#define SFP_LI_LOWER        10

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

_Static_assert(TT_SFPENCC(3, 0, 0, 10) == 0x8a00300a, "SFPENCC");
_Static_assert(TT_SFPCONFIG(0, 0xf, 1) == 0x910000f1, "SFPCONFIG");
_Static_assert(TT_SFPLOAD(LREG0, 0, 7, 0) == 0x7000e000, "SFPLOAD");
_Static_assert(TT_SFPSTORE(LREG0, 0, 7, 0) == 0x7200e000, "SFPSTORE");
_Static_assert(TT_SFPSWAP(0, LREG0, LREG1, 1) == 0x92000011, "SFPSWAP");
_Static_assert(TT_SFPNOP == 0x8f000000, "SFPNOP");
_Static_assert(TT_SFPTRANSP == 0x8c000000, "SFPTRANSP");
_Static_assert(TT_INCRWC(0, 2, 0, 0) == 0x38008000, "INCRWC");
_Static_assert(TT_STALLWAIT(STALL_SFPU, WAIT_MATH) == 0xa2800010,
               "STALLWAIT SFPU");
_Static_assert(TT_SETRWC(CLR_NONE, RWC_CR_D, 8, 0, 0, SET_D) == 0x37120004,
               "SETRWC face");

#endif
