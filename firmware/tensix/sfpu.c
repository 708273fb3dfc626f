/*
 * TRISC1: the vector unit (SFPU) part of the math thread.  An eltwise
 * unary SFPU operation runs on a tile that datacopy has just written to
 * Dst, as tt-llk drives it (tenstorrent/tt-llk tt_llk_blackhole/llk_lib/
 * llk_math_eltwise_unary_sfpu.h, llk_math_eltwise_unary_sfpu_params.h):
 * once, the init (LaneConfig, ADDR_MOD_7/6, counters, the op's
 * constants); per tile, the Dst base, a wait for the matrix unit, the
 * op's instruction stream on each 16x16 face (eight 4-row x 8-column
 * halves, SFPLOAD ... SFPSTORE), two SETRWCs to the next face, and the
 * counter reset.  The streams are those of tt-llk's common/inc/sfpu/
 * ckernel_sfpu_*.h for the default iteration count (8 per face): raw
 * TTI_ sequences word for word (the DISABLE_SFPLOADMACRO body where the
 * default build uses SFPLOADMACRO, which TTK_SFPU_MACRO selects
 * instead), SFPI-written kernels as the operations, constants and
 * predication they compile to (register allocation is ours).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ttk.h"

#define AM6                 6       /* tt-llk ADDR_MOD_6 / ADDR_MOD_7 */
#define AM7                 7
#define FACE_ITERATIONS     8

/* dst_reg++ of SFPI (sfpi_classes.h): the next 4-row half of a face */
#define DST_NEXT            TT_INCRWC(0, 2, 0, 0)

/* SFPMAD/SFPIADD/SFPSETCC/SFPEXEXP modifiers (sfpi_constants.h) */
#define MAD_NEG_A           1
#define MAD_NEG_C           2
#define IADD_IMM            1
#define IADD_SUB            2       /* VD = VC - VD */
#define IADD_CC_NONE        4
#define SETCC_LT0           0
#define SETCC_NE0           2
#define SETCC_GTE0          4
#define SHFT_IMM_VC         5       /* VD = VC shifted by Imm12 */
#define STOCH_FP16B         1
#define STOCH_UINT16        6

/*
 * _sfpu_load_config32_ / vConstFloatPrgmN = ...: LReg0 = @v (low half
 * first), then copied to programmable constant @dest (or LaneConfig, 15)
 */
static void load_config32(int dest, uint32_t v)
{
    tt_push(TT_SFPLOADI(LREG0, SFP_LI_LOWER, v & 0xffff));
    tt_push(TT_SFPLOADI(LREG0, SFP_LI_UPPER, v >> 16));
    tt_push(TT_SFPCONFIG(0, dest, 0));
}

/* _sfpu_load_imm32_: LReg @lreg = @v, low half first */
static void load_imm32(int lreg, uint32_t v)
{
    tt_push(TT_SFPLOADI(lreg, SFP_LI_LOWER, v & 0xffff));
    tt_push(TT_SFPLOADI(lreg, SFP_LI_UPPER, v >> 16));
}

/* An FP32 constant into an LReg as SFPI loads it: one BF16 load if exact */
static void load_float(int lreg, uint32_t bits)
{
    if (bits & 0xffff) {
        load_imm32(lreg, bits);
    } else {
        tt_push(TT_SFPLOADI(lreg, SFP_LI_FLOATB, bits >> 16));
    }
}

/* SFPLOADMACRO Imm10 field: Dst offset with the LReg's bit 2 in bit 0 */
static inline uint32_t lm(uint32_t macro, uint32_t lreg, uint32_t mod0,
                          uint32_t am, uint32_t offset)
{
    return TT_SFPLOADMACRO(macro << 2 | (lreg & 3), mod0, am,
                           offset | lreg >> 2);
}

/* One SFPLOADMACRO sequence register: the four sub-unit bytes */
static void macro_sequence(int n, uint32_t simple, uint32_t mad,
                           uint32_t round, uint32_t store)
{
    tt_push(TT_SFPLOADI(LREG0, SFP_LI_LOWER, mad << 8 | simple));
    tt_push(TT_SFPLOADI(LREG0, SFP_LI_UPPER, store << 8 | round));
    tt_push(TT_SFPCONFIG(0, 4 + n, 0));
}

/* ----------------------------------------------------------- exp -- */

/*
 * ckernel_sfpu_exp.h _init_exponential_<APPROX, FAST, 1.0, CLAMP_NEGATIVE>
 * (Schraudolph): LReg14 = -88.5, LReg12 = A = 256/ln2, LReg13 = B - C;
 * the SFPLOADMACRO form also programs the templates (SWAP with LReg14 by
 * SFPCONFIG, MAD, STOCHRND, SHFT by backdoor) and sequences 1 (load,
 * swap, store) and 0 (load, MAD, round, shift, store).
 */
static void exp_init(uint32_t macro)
{
    load_config32(14, 0xc2b10000);
    load_config32(12, 0x43b8aa3b);
    load_config32(13, 0x46fde9a3);
    if (!macro) {
        return;
    }
    load_imm32(LREG0, 0x920000e1);          /* SFPSWAP(0, 0, 14, 1) */
    tt_push(TT_SFPCONFIG(0, 0, 0));
    tt_push(TT_SFPNOP);
    tt_push(TT_SFPMAD(12, 0, 13, 13, 0));
    tt_push(TT_SFP_STOCH_RND(0, 0, 0, 0, 14, 14));
    tt_push(TT_SFPSHFT(15, 0, 15, 1));
    macro_sequence(1, 0x04, 0x00, 0x00, 0x13);
    macro_sequence(0, 0xdf, 0x85, 0x16, 0x63);
    tt_push(TT_SFPCONFIG(0, 8, 1));
}

/*
 * _calculate_exponential_<true, false, 8, true, false, true>, the
 * DISABLE_SFPLOADMACRO body: x = max(x, -88.5); t = A x + (B - C);
 * u = round(|t|) to 16 bits; the result's bits are u << 15.
 */
static void exp_face(void)
{
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        tt_push(TT_SFPLOAD(LREG0, 0, AM7, 0));
        tt_push(TT_SFPSWAP(0, LREG14, LREG0, 9));
        tt_push(TT_SFPMAD(LREG12, LREG0, LREG13, LREG0, 0));
        tt_push(TT_SFP_STOCH_RND(0, 0, 0, LREG0, LREG0, STOCH_UINT16));
        tt_push(TT_SFPSHFT(15, LREG0, LREG0, 1));
        tt_push(TT_SFPSTORE(LREG0, 0, AM7, 0));
        tt_push(DST_NEXT);
    }
}

/*
 * The default (SFPLOADMACRO) body, hand-unrolled over the face: eight
 * sanitising macros (sequence 1, LRegs 0-3 in turn), then eight
 * computing ones (sequence 0).
 */
static void exp_macro_face(void)
{
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        tt_push(TT_SFPLOADMACRO(4 + (i & 3), 0, AM7, 2 * i));
        if (i < 7) {
            tt_push(TT_SFPNOP);
        }
    }
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        tt_push(TT_SFPLOADMACRO(i & 3, 0, AM7, 2 * i));
    }
    tt_push(TT_SFPNOP);
}

/*
 * _calculate_exponential_<false, ...> -> _calculate_exponential_piecewise_
 * <false>: y = |x| reduced to [0.5, 1) when |x| >= 1 (setexp 126),
 * y = y (0.8373 y + 0.859375) + 1 (sFloat16b(0.863281f) truncates), then
 * squared exexp(|x|) + 1 times; for x < 0, _sfpu_reciprocal_<2> of that
 * (ckernel_sfpu_recip.h: SFPARECIP and two Newton steps with
 * vConstFloatPrgm0 = 2.0, _init_sfpu_reciprocal_<false>).
 * L0 x, L1 y, L2 exponent, L3 polynomial, L4 1/y, L5 t, L6 y1.
 */
static void exp_precise_init(void)
{
    load_config32(12, 0x40000000);
}

static void exp_precise_face(void)
{
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        tt_push(TT_SFPLOAD(LREG0, 0, AM7, 0));
        tt_push(TT_SFPSETSGN(0, LREG0, LREG1, 1));
        tt_push(TT_SFPEXEXP(0, LREG1, LREG2, 0));
        tt_push(TT_SFPPUSHC);
        tt_push(TT_SFPSETCC(0, LREG2, 0, SETCC_GTE0));
        tt_push(TT_SFPSETEXP(126, LREG1, LREG1, 1));
        tt_push(TT_SFPPOPC);
        tt_push(TT_SFPLOADI(LREG3, SFP_LI_FLOATB, 0x3f5c));
        tt_push(TT_SFPMAD(LREG1, LCONST_0_8373, LREG3, LREG3, 0));
        tt_push(TT_SFPMAD(LREG1, LREG3, LCONST_1, LREG1, 0));
        tt_push(TT_SFPPUSHC);
        tt_push(TT_SFPSETCC(0, LREG2, 0, SETCC_GTE0));
        tt_push(TT_SFPMUL(LREG1, LREG1, LCONST_0, LREG1, 0));
        for (int s = 0; s < 7; s++) {
            tt_push(TT_SFPIADD(-1, LREG2, LREG2, IADD_IMM | IADD_CC_NONE));
            tt_push(TT_SFPSETCC(0, LREG2, 0, SETCC_GTE0));     /* v_and */
            tt_push(TT_SFPMUL(LREG1, LREG1, LCONST_0, LREG1, 0));
        }
        tt_push(TT_SFPPOPC);
        tt_push(TT_SFPPUSHC);
        tt_push(TT_SFPSETCC(0, LREG0, 0, SETCC_LT0));
        tt_push(TT_SFPARECIP(0, LREG1, LREG4, 0));
        tt_push(TT_SFPMAD(LREG1, LREG4, LREG12, LREG5, MAD_NEG_C));
        tt_push(TT_SFPMAD(LREG5, LREG4, LCONST_0, LREG6,
                          MAD_NEG_A | MAD_NEG_C));
        tt_push(TT_SFPPUSHC);
        tt_push(TT_SFPSETCC(0, LREG5, 0, SETCC_LT0));
        tt_push(TT_SFPMAD(LREG1, LREG6, LREG12, LREG5, MAD_NEG_C));
        tt_push(TT_SFPMAD(LREG5, LREG6, LCONST_0, LREG4,
                          MAD_NEG_A | MAD_NEG_C));
        tt_push(TT_SFPPOPC);
        tt_push(TT_SFPMOV(0, LREG4, LREG1, 0));
        tt_push(TT_SFPPOPC);
        tt_push(TT_SFPSTORE(LREG1, 0, AM7, 0));
        tt_push(DST_NEXT);
    }
}

/* ---------------------------------------------------- reciprocal -- */

/*
 * ckernel_sfpu_recip.h _init_reciprocal_<false, fp32>: nothing without
 * SFPLOADMACRO; with it, the templates, sequences and Misc of
 * _init_reciprocal_fast_8b_3c_ (16-bit Dst) or _init_reciprocal_fast_
 * 24b_5c_ (FP32 Dst, plus its 6-instruction replay at slot 0).
 */
static void recip_macro_init(uint32_t fp32)
{
    if (!fp32) {
        tt_push(TT_SFPARECIP(0, 0, 12, 0));
        tt_push(TT_SFPMAD(LCONST_0, LCONST_0, 0, 13, 8));
        tt_push(TT_SFPMAD(LREG1, 0, LCONST_NEG1, 14, 0));
        tt_push(TT_SFPIADD(0, LREG1, 15, IADD_CC_NONE));
        macro_sequence(0, 0x04, 0x05, 0x00, 0x83);
        macro_sequence(1, 0xef, 0xc6, 0x00, 0x53);
        macro_sequence(2, 0x00, 0x00, 0x00, 0x4b);
        tt_push(TT_SFPCONFIG(0x700, 8, 1));
        return;
    }
    tt_push(TT_SFPARECIP(0, 0, 12, 0));
    tt_push(TT_SFPMAD(LREG0, LREG0, 0, 13, 0));
    tt_push(TT_SFPMAD(LREG1, LREG0, LREG2, 14, 0));
    tt_push(TT_SFPSWAP(0, LCONST_1, 15, 1));
    macro_sequence(0, 0x04, 0x00, 0x00, 0x73);
    macro_sequence(1, 0x44, 0x15, 0x00, 0x13);
    tt_push(TT_SFPCONFIG(0x06 << 8 | 0x97, 4 + 2, 1));
    macro_sequence(3, 0x00, 0xce, 0x00, 0x5b);
    tt_push(TT_SFPCONFIG(0xff0, 8, 1));
    /* load_replay_buf(0, 6, ...): y, t2, e, the MAD, z twice */
    tt_push(TT_REPLAY(0, 6, 0, 1));
    tt_push(lm(0, LREG3, 0, AM7, 0));
    tt_push(lm(2, LREG1, 0, AM7, -2 & 0x3ff));
    tt_push(lm(1, LREG0, 0, AM7, 0));
    tt_push(TT_SFPMAD(LREG0, LREG3, LCONST_1, 0, MAD_NEG_A));
    tt_push(lm(3, LREG2, 0, AM6, -2 & 0x3ff));
    tt_push(lm(3, LREG2, 0, AM7, -2 & 0x3ff));
}

/*
 * _calculate_reciprocal_fast_8b_3c_ (DISABLE_SFPLOADMACRO): x = 0 * 0 +
 * y (flushes), r = SFPARECIP(y) with bit 15 set (half a BF16 unit), the
 * sign of x r - 1 (bits >> 16, added as an integer) rounds r up or not;
 * the BF16 store truncates.
 */
static void recip_8b_face(void)
{
    tt_push(TT_SFPLOADI(LREG2, SFP_LI_USHORT, 0x8000));
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        tt_push(TT_SFPLOAD(LREG0, SFP_FMT_DEFAULT, AM7, 0));
        tt_push(TT_SFPMAD(LCONST_0, LCONST_0, LREG0, LREG1, 0));
        tt_push(TT_SFPARECIP(0, LREG0, LREG0, 0));
        tt_push(TT_SFPOR(0, LREG2, LREG0, 0));
        tt_push(TT_SFPMAD(LREG1, LREG0, LCONST_NEG1, LREG1, 0));
        tt_push(TT_SFPSHFT(-16, LREG1, LREG1, SHFT_IMM_VC));
        tt_push(TT_SFPIADD(0, LREG1, LREG0, IADD_CC_NONE));
        tt_push(TT_SFPSTORE(LREG0, SFP_FMT_DEFAULT, AM6, 0));
    }
}

/* The SFPLOADMACRO body of _calculate_reciprocal_fast_8b_3c_ */
static void recip_8b_macro_face(void)
{
    const uint32_t x = LREG1, t = LREG1, prev = -4 & 0x3ff;

    tt_push(TT_SFPLOADI(LREG0, SFP_LI_FLOATB, 0x8000));
    tt_push(TT_SFPLOADI(LREG7, SFP_LI_USHORT, x));
#pragma GCC unroll 2
    for (int d = 0; d < 2; d++) {
        uint32_t y = 3 + d % 3;

        tt_push(lm(0, y, SFP_FMT_DEFAULT, AM7, 0));
        tt_push(TT_SFPNOP);
        tt_push(lm(1, y, 14, AM6, 0));
    }
#pragma GCC unroll 8
    for (int d = 2; d < FACE_ITERATIONS; d++) {
        uint32_t y = 3 + d % 3;

        tt_push(lm(0, y, SFP_FMT_DEFAULT, AM7, 0));
        tt_push(lm(2, t, 9, AM7, prev));
        tt_push(lm(1, y, 14, AM6, 0));
    }
    for (int d = 0; d < 2; d++) {
        tt_push(TT_SFPNOP);
        tt_push(lm(2, t, 9, AM6, prev));
        tt_push(TT_SFPNOP);
    }
    tt_push(TT_SFPNOP);
}

/*
 * _calculate_reciprocal_fast_24b_5c_ (DISABLE_SFPLOADMACRO): y =
 * SFPARECIP(x), e = 1 - x y, t = min(e^3 + e^2 + e, 1.0) (NaN -> 1),
 * y + t y.
 */
static void recip_24b_face(void)
{
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        tt_push(TT_SFPLOAD(LREG0, SFP_FMT_DEFAULT, AM7, 0));
        tt_push(TT_SFPARECIP(0, LREG0, LREG1, 0));
        tt_push(TT_SFPMAD(LREG0, LREG1, LCONST_1, LREG2, MAD_NEG_A));
        tt_push(TT_SFPMAD(LREG2, LREG2, LREG2, LREG3, 0));
        tt_push(TT_SFPMAD(LREG3, LREG2, LREG2, LREG3, 0));
        tt_push(TT_SFPSWAP(0, LCONST_1, LREG3, 1));
        tt_push(TT_SFPMAD(LREG3, LREG1, LREG1, LREG0, 0));
        tt_push(TT_SFPSTORE(LREG0, SFP_FMT_DEFAULT, AM6, 0));
    }
}

/* Its SFPLOADMACRO body: the replay of the init, pipelined */
static void recip_24b_macro_face(void)
{
    tt_push(TT_REPLAY(0, 4, 0, 0));
    tt_push(TT_SFPLOAD(LREG7, 0, AM6, 0));
    for (int d = 0; d < FACE_ITERATIONS - 1; d++) {
        tt_push(TT_REPLAY(0, 5, 0, 0));
    }
    tt_push(TT_SFPNOP);
    tt_push(TT_REPLAY(1, 1, 0, 0));
    tt_push(TT_SFPNOP);
    tt_push(TT_REPLAY(3, 2, 0, 0));
    for (int i = 0; i < 4; i++) {
        tt_push(TT_SFPNOP);
    }
}

/* ---------------------------------------------------------- sqrt -- */

/*
 * ckernel_sfpu_sqrt.h _init_sqrt_<false> and _calculate_sqrt_body_
 * <false, false, false> (SQRT_23-bits, Kokosinski et al. 2024):
 * y = 0x5f1110a0 - (x >> 1) (integer), one polynomial refinement
 * y (2.2825186 + c (2.2533049 + c)) with c = -x y y, then
 * sqrt = x y + (1 - x y y) x y / 2 unless x is +Inf; NaN for x < 0.  A
 * 16-bit Dst gets the result rounded to BF16 (float_to_fp16b: SFPSTOCHRND
 * to nearest).  L0 x, L1 y, L2 xy, L3 -y / c / 1 - xyy, L4, L5 temporaries.
 */
static void sqrt_init(void)
{
    load_config32(12, 0x5f1110a0);
    load_config32(13, 0x401214c9);
    load_config32(14, 0x40103626);
}

static void sqrt_face(uint32_t fp32)
{
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        tt_push(TT_SFPLOAD(LREG0, 0, AM7, 0));
        tt_push(TT_SFPSHFT(-1, LREG0, LREG1, SHFT_IMM_VC));
        tt_push(TT_SFPIADD(0, LREG12, LREG1, IADD_SUB | IADD_CC_NONE));
        tt_push(TT_SFPMUL(LREG0, LREG1, LCONST_0, LREG2, 0));
        tt_push(TT_SFPMOV(0, LREG1, LREG3, 1));
        tt_push(TT_SFPMUL(LREG3, LREG2, LCONST_0, LREG3, 0));
        tt_push(TT_SFPADD(LCONST_1, LREG3, LREG14, LREG4, 0));
        tt_push(TT_SFPMAD(LREG3, LREG4, LREG13, LREG4, 0));
        tt_push(TT_SFPMUL(LREG1, LREG4, LCONST_0, LREG1, 0));
        tt_push(TT_SFPMUL(LREG0, LREG1, LCONST_0, LREG2, 0));
        tt_push(TT_SFPMOV(0, LREG1, LREG3, 1));
        tt_push(TT_SFPMAD(LREG3, LREG2, LCONST_1, LREG3, 0));
        tt_push(TT_SFPLOADI(LREG4, SFP_LI_FLOATB, 0x3f00));
        tt_push(TT_SFPMUL(LREG4, LREG2, LCONST_0, LREG4, 0));
        /* v_if (as<vInt>(x) < as<vInt>(+Inf)): x - Inf < 0 */
        tt_push(TT_SFPLOADI(LREG5, SFP_LI_FLOATB, 0x7f80));
        tt_push(TT_SFPPUSHC);
        tt_push(TT_SFPIADD(0, LREG0, LREG5, IADD_SUB));
        tt_push(TT_SFPMAD(LREG3, LREG4, LREG2, LREG1, 0));
        tt_push(TT_SFPPOPC);
        tt_push(TT_SFPPUSHC);
        tt_push(TT_SFPSETCC(0, LREG0, 0, SETCC_LT0));
        tt_push(TT_SFPLOADI(LREG1, SFP_LI_FLOATB, 0x7fc0));
        tt_push(TT_SFPPOPC);
        if (!fp32) {
            tt_push(TT_SFP_STOCH_RND(0, 0, LREG1, LREG1, LREG1, STOCH_FP16B));
        }
        tt_push(TT_SFPSTORE(LREG1, 0, AM7, 0));
        tt_push(DST_NEXT);
    }
}

/* ------------------------------------------------ gelu, sigmoid -- */

/*
 * ckernel_sfpu_gelu.h _init_gelu_ and _calculate_gelu_appx_: 0.5 x plus
 * the six-piece table (FP16 pairs in L0-L2 slopes, L4-L6 intercepts,
 * breakpoints 0.5 1 1.5 2 3) of |x|, SFPLUTFP32 Mod1 2 (TABLE1, sign
 * from the multiply-add).  L3 x, L7 x / 2.
 */
static void gelu_init(void)
{
    load_config32(12, 0x3f000000);
    load_imm32(LREG0, 0x37e7322b);
    load_imm32(LREG4, 0xb12286d8);
    load_imm32(LREG1, 0x38e138f3);
    load_imm32(LREG5, 0xb437b479);
    load_imm32(LREG2, 0x38003852);
    load_imm32(LREG6, 0x7c00afa4);
}

static void gelu_face(void)
{
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        tt_push(TT_SFPLOAD(LREG3, 0, AM7, 0));
        tt_push(TT_SFPMUL(LREG3, LREG12, LCONST_0, LREG7, 0));
        tt_push(TT_SFPLUTFP32(LREG3, 2));
        tt_push(TT_SFPADD(LCONST_1, LREG7, LREG3, LREG3, 0));
        tt_push(TT_SFPSTORE(LREG3, 0, AM7, 0));
        tt_push(DST_NEXT);
    }
}

/*
 * ckernel_sfpu_sigmoid.h _init_sigmoid_ and _calculate_sigmoid_: the
 * six-piece table of sigmoid(|x|) - 1/2 (breakpoints 0.5 1 1.5 2 4),
 * lut2(..., mode 0) = SFPLUTFP32 Mod1 7 (TABLE2 with the sign of x),
 * plus 0.5.
 */
static void sigmoid_init(void)
{
    load_imm32(LREG0, 0x32f433d9);
    load_imm32(LREG4, 0x23c89018);
    load_imm32(LREG1, 0x300a318a);
    load_imm32(LREG5, 0x30272baa);
    load_imm32(LREG2, 0x7c002a35);
    load_imm32(LREG6, 0x37ff34cc);
}

static void sigmoid_face(void)
{
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        tt_push(TT_SFPLOAD(LREG3, 0, AM7, 0));
        tt_push(TT_SFPLUTFP32(LREG3, 7));
        tt_push(TT_SFPADDI(0x3f00, LREG3, 0));
        tt_push(TT_SFPSTORE(LREG3, 0, AM7, 0));
        tt_push(DST_NEXT);
    }
}

/* ---------------------------------------------------------- relu -- */

/*
 * ckernel_sfpu_relu.h _relu_min_<vFloat>: v_if (a < threshold)
 * dst_reg[0] = threshold, the store predicated (other lanes keep Dst);
 * the vector compare as SFPI emits it: a - threshold (SFPMAD with
 * LReg11 = -1), SFPNOP, SFPSETCC.
 */
static void relu_min_face(uint32_t thr)
{
    load_float(LREG2, thr);
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        tt_push(TT_SFPLOAD(LREG0, 0, AM7, 0));
        tt_push(TT_SFPPUSHC);
        tt_push(TT_SFPMAD(LREG2, LCONST_NEG1, LREG0, LREG1, 0));
        tt_push(TT_SFPNOP);
        tt_push(TT_SFPSETCC(0, LREG1, 0, SETCC_LT0));
        tt_push(TT_SFPSTORE(LREG2, 0, AM7, 0));
        tt_push(TT_SFPPOPC);
        tt_push(DST_NEXT);
    }
}

/*
 * _relu_max_<vFloat>: v_if (r > threshold) r = threshold (r - threshold
 * >= 0 and != 0); v_if (r < 0.0f) r = 0.0f.
 */
static void relu_max_face(uint32_t thr)
{
    load_float(LREG2, thr);
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        tt_push(TT_SFPLOAD(LREG0, 0, AM7, 0));
        tt_push(TT_SFPPUSHC);
        tt_push(TT_SFPMAD(LREG2, LCONST_NEG1, LREG0, LREG1, 0));
        tt_push(TT_SFPNOP);
        tt_push(TT_SFPSETCC(0, LREG1, 0, SETCC_GTE0));
        tt_push(TT_SFPSETCC(0, LREG1, 0, SETCC_NE0));
        tt_push(TT_SFPMOV(0, LREG2, LREG0, 0));
        tt_push(TT_SFPPOPC);
        tt_push(TT_SFPPUSHC);
        tt_push(TT_SFPSETCC(0, LREG0, 0, SETCC_LT0));
        tt_push(TT_SFPMOV(0, LCONST_0, LREG0, 0));
        tt_push(TT_SFPPOPC);
        tt_push(TT_SFPSTORE(LREG0, 0, AM7, 0));
        tt_push(DST_NEXT);
    }
}

/* _calculate_lrelu_ (raw): negative lanes (-0 too) times the slope */
static void lrelu_face(uint32_t slope)
{
    tt_push(TT_SFPLOADI(LREG2, SFP_LI_LOWER, slope & 0xffff));
    tt_push(TT_SFPLOADI(LREG2, SFP_LI_UPPER, slope >> 16));
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        tt_push(TT_SFPLOAD(LREG0, SFP_FMT_DEFAULT, AM7, 0));
        tt_push(TT_SFPSETCC(0, LREG0, 0, SETCC_LT0));
        tt_push(TT_SFPMUL(LREG0, LREG2, LCONST_0, LREG0, 0));
        tt_push(TT_SFPENCC(0, 0, 0, 0));
        tt_push(TT_SFPSTORE(LREG0, SFP_FMT_DEFAULT, AM7, 0));
        tt_push(DST_NEXT);
    }
}

/* ----------------------------------------------------- typecasts -- */

/*
 * ckernel_sfpu_typecast.h _calculate_typecast_fp32_to_int32_ (raw, no
 * SFPLOADMACRO form): truncation toward 0, |x| >= 2^31, Inf and NaN ->
 * INT_MIN, negated as two's complement, stored raw (INT32).
 */
static void fp32_to_int32_face(void)
{
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        tt_push(TT_SFPLOAD(LREG0, SFP_FMT_DEFAULT, AM7, 0));
        tt_push(TT_SFPLOADI(LREG1, SFP_LI_USHORT, 0));
        tt_push(TT_SFPEXEXP(0, LREG0, LREG2, 2 | 8));
        tt_push(TT_SFPLOADI(LREG1, SFP_LI_FLOATB, 0x8000));
        tt_push(TT_SFPIADD(-31, LREG2, LREG2, IADD_IMM));
        tt_push(TT_SFPIADD(8, LREG2, LREG2, IADD_IMM | IADD_CC_NONE));
        tt_push(TT_SFPEXMAN(0, LREG0, LREG1, 0));
        tt_push(TT_SFPSHFT(0, LREG2, LREG1, 0));
        tt_push(TT_SFPENCC(0, 0, 0, 0));
        tt_push(TT_SFPSETCC(0, LREG0, 0, SETCC_LT0));
        tt_push(TT_SFPIADD(0, LCONST_0, LREG1, IADD_SUB | IADD_CC_NONE));
        tt_push(TT_SFPENCC(0, 0, 0, 0));
        tt_push(TT_SFPSTORE(LREG1, SFP_FMT_INT32, AM6, 0));
    }
}

/*
 * _calculate_typecast_int32_to_fp32_ (DISABLE_SFPLOADMACRO): |x| (INT_MIN
 * stays negative), SFPCAST to FP32 (round to nearest even), x's sign,
 * and -2^31 for INT_MIN.
 */
static void int32_to_fp32_face(void)
{
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        tt_push(TT_SFPLOAD(LREG0, SFP_FMT_INT32, AM7, 0));
        tt_push(TT_SFPABS(0, LREG0, LREG1, 0));
        tt_push(TT_SFPCAST(LREG1, LREG2, 0));
        tt_push(TT_SFPSETSGN(0, LREG2, LREG0, 0));
        tt_push(TT_SFPSETCC(0, LREG1, 0, SETCC_LT0));
        tt_push(TT_SFPADDI(0xcf00, LREG0, 0));
        tt_push(TT_SFPENCC(0, 0, 0, 0));
        tt_push(TT_SFPSTORE(LREG0, SFP_FMT_DEFAULT, AM6, 0));
    }
}

/* _init_typecast_int32_to_fp32_ (SFPLOADMACRO form) */
static void int32_to_fp32_macro_init(void)
{
    load_config32(12, -31u);
    tt_push(TT_SFPSETSGN(0, LREG4, 12, 0));
    tt_push(TT_SFPMAD(0, LCONST_1, 0, 13, 4));
    macro_sequence(0, 0x80 | 3 << 3 | 4, 0x40 | 4 << 3 | 5, 0,
                   0x40 | 6 << 3 | 3);
    tt_push(TT_SFPCONFIG(0x100 | SFP_FMT_FP32, 8, 1));
}

static void int32_to_fp32_macro_face(void)
{
    tt_push(TT_SFPLOADI(LREG0, SFP_LI_USHORT, 0));
    tt_push(TT_SFPLOADI(LREG1, SFP_LI_FLOATB, 0xcf00));
#pragma GCC unroll 8
    for (int d = 0; d < FACE_ITERATIONS; d++) {
        uint32_t v = 2 + (d & 1);

        tt_push(lm(0, v, SFP_FMT_INT32, AM6, 0));
        tt_push(TT_SFPABS(0, v, LREG4, 0));
        tt_push(TT_SFPSHFT2(LREG4, LREG12, LREG7, 5));
        tt_push(TT_SFPCAST(LREG4, LREG4, 0));
    }
    for (int i = 0; i < 4; i++) {
        tt_push(TT_SFPNOP);
    }
}

/* ---------------------------------------------------------- topk -- */

/*
 * ckernel_sfpu_topk.h _init_topk (LaneConfig ENABLE_DEST_INDEX: SFPSWAP
 * moves LReg4-7 with LReg0-3) and _bitonic_topk_phases_steps<false, fp32,
 * false>(0, last, 0, ...): values in Dst tiles 0-1, indices in tiles 2-3
 * (Dst offset 128); per face row (0, 16) and column parity (0, 2), four
 * 16-row x 8-column groups 32 rows apart, each loaded (LReg0-3 values,
 * LReg4-7 indices), sorted by the phase's steps and stored back, through
 * the replay buffer as tt-llk records it (load 0-7, store 8-15, the
 * phase's steps from 16).
 */
static void topk_load16(uint32_t idx_fmt)
{
    for (int i = 0; i < 4; i++) {
        tt_push(TT_SFPLOAD(LREG0 + i, 0, AM7, 4 * i));
    }
    for (int i = 0; i < 4; i++) {
        tt_push(TT_SFPLOAD(LREG4 + i, idx_fmt, AM7, 128 + 4 * i));
    }
}

static void topk_store16(uint32_t idx_fmt)
{
    for (int i = 0; i < 4; i++) {
        tt_push(TT_SFPSTORE(LREG0 + i, 0, AM7, 4 * i));
    }
    for (int i = 0; i < 4; i++) {
        tt_push(TT_SFPSTORE(LREG4 + i, idx_fmt, i == 3 ? AM6 : AM7,
                            128 + 4 * i));
    }
}

/* bitonic_topk_ph0_st1_to_1<false> and bitonic_topk_ph1_st2_to_1<false> */
static uint32_t topk_phase(uint32_t ph)
{
    if (ph == 0) {
        tt_push(TT_SFPTRANSP);
        tt_push(TT_SFPSWAP(0, LREG0, LREG1, 1));
        tt_push(TT_SFPSWAP(0, LREG3, LREG2, 1));
        tt_push(TT_SFPTRANSP);
        return 4;
    }
    tt_push(TT_SFPTRANSP);
    tt_push(TT_SFPSWAP(0, LREG0, LREG2, 3));
    tt_push(TT_SFPSWAP(0, LREG1, LREG3, 3));
    tt_push(TT_SFPSWAP(0, LREG0, LREG1, 3));
    tt_push(TT_SFPSWAP(0, LREG2, LREG3, 3));
    tt_push(TT_SFPTRANSP);
    return 6;
}

static void topk_run(uint32_t base, uint32_t last, uint32_t fp32)
{
    uint32_t idx_fmt = fp32 ? SFP_FMT_INT32 : SFP_FMT_LO16;
    uint32_t offset = 0, loaded = 0;

    for (int face = 0; face < 2; face++) {
        for (int col = 0; col < 2; col++) {
            for (uint32_t ph = 0; ph <= last; ph++) {
                uint32_t recorded = 0;

                tt_push(TT_SETRWC(CLR_NONE, 0, 0, 0, 0, SET_D));
                for (int d = 0; d < 4; d++) {
                    if (!loaded) {
                        tt_push(TT_REPLAY(0, 8, 1, 1));
                        topk_load16(idx_fmt);
                    } else {
                        tt_push(TT_REPLAY(0, 8, 0, 0));
                    }
                    if (!recorded) {
                        tt_push(TT_REPLAY(16, ph ? 6 : 4, 1, 1));
                        recorded = topk_phase(ph);
                    } else {
                        tt_push(TT_REPLAY(16, recorded, 0, 0));
                    }
                    if (!loaded) {
                        tt_push(TT_REPLAY(8, 8, 1, 1));
                        topk_store16(idx_fmt);
                        loaded = 1;
                    } else {
                        tt_push(TT_REPLAY(8, 8, 0, 0));
                    }
                }
            }
            offset += 2;
            tt_push(TT_SETC16(TC_DEST_TARGET_MATH, base + offset));
        }
        offset = 16;
        tt_push(TT_SETC16(TC_DEST_TARGET_MATH, base + offset));
    }
}

/* --------------------------------------------------------- driver -- */

static uint32_t sfpu_op(const TTKParams *p)
{
    return p->sub_op & ~TTK_SFPU_MACRO;
}

/*
 * _llk_math_eltwise_unary_sfpu_init_<op>: LaneConfig = 0, ADDR_MOD_7 (no
 * increment), ADDR_MOD_6 (Dst + 2 for reciprocal and typecast, + 32 for
 * topk), all counters 0; then the op's own init.
 */
void sfpu_init(const TTKParams *p)
{
    uint32_t op = sfpu_op(p), macro = p->sub_op & TTK_SFPU_MACRO;

    tt_push(TT_SFPCONFIG(0, 0xf, 1));
    addr_mod(7, 0, 0);
    if (op == TTK_SFPU_RECIP || op == TTK_SFPU_FP32_TO_INT32 ||
        op == TTK_SFPU_INT32_ROUNDTRIP) {
        addr_mod(6, 0, AM_DST(2, 0, 0, 0, 0, 0));
    } else if (op == TTK_SFPU_TOPK) {
        addr_mod(6, 0, AM_DST(32, 0, 0, 0, 0, 0));
    }
    tt_push(TT_SETRWC(CLR_NONE, 0, 0, 0, 0, SET_ABD_F));

    switch (op) {
    case TTK_SFPU_EXP:
        exp_init(macro);
        break;
    case TTK_SFPU_EXP_PRECISE:
        exp_precise_init();
        break;
    case TTK_SFPU_RECIP:
        if (macro) {
            recip_macro_init(p->dst_fp32);
        }
        break;
    case TTK_SFPU_SQRT:
        sqrt_init();
        break;
    case TTK_SFPU_GELU:
        gelu_init();
        break;
    case TTK_SFPU_SIGMOID:
        sigmoid_init();
        break;
    case TTK_SFPU_INT32_ROUNDTRIP:
        if (macro) {
            int32_to_fp32_macro_init();
        }
        break;
    case TTK_SFPU_TOPK:
        load_config32(0xf, 0x4);
        break;
    default:
        break;
    }
}

/* One op's stream over one face */
static void sfpu_face(const TTKParams *p, uint32_t op)
{
    uint32_t macro = p->sub_op & TTK_SFPU_MACRO, fp32 = p->dst_fp32;

    switch (op) {
    case TTK_SFPU_EXP:
        if (macro) {
            exp_macro_face();
        } else {
            exp_face();
        }
        break;
    case TTK_SFPU_EXP_PRECISE:
        exp_precise_face();
        break;
    case TTK_SFPU_RECIP:
        if (fp32) {
            if (macro) {
                recip_24b_macro_face();
            } else {
                recip_24b_face();
            }
        } else if (macro) {
            recip_8b_macro_face();
        } else {
            recip_8b_face();
        }
        break;
    case TTK_SFPU_SQRT:
        sqrt_face(fp32);
        break;
    case TTK_SFPU_GELU:
        gelu_face();
        break;
    case TTK_SFPU_SIGMOID:
        sigmoid_face();
        break;
    case TTK_SFPU_RELU_MIN:
        relu_min_face(p->sfpu_arg);
        break;
    case TTK_SFPU_RELU_MAX:
        relu_max_face(p->sfpu_arg);
        break;
    case TTK_SFPU_LRELU:
        lrelu_face(p->sfpu_arg);
        break;
    case TTK_SFPU_FP32_TO_INT32:
        fp32_to_int32_face();
        break;
    default:                        /* the int32 -> fp32 half */
        if (macro) {
            int32_to_fp32_macro_face();
        } else {
            int32_to_fp32_face();
        }
        break;
    }
}

/*
 * _llk_math_eltwise_unary_sfpu_params_ (VectorMode::RC): Dst base, wait
 * until the matrix unit is done with Dst, the op on each face, moving
 * the Dst counter on by 16 rows (twice CR + 8), counter reset (_done_).
 */
static void sfpu_params(const TTKParams *p, uint32_t op, uint32_t dst_row)
{
    tt_push(TT_SETC16(TC_DEST_TARGET_MATH, dst_row));
    tt_push(TT_STALLWAIT(STALL_SFPU, WAIT_MATH));
    for (int face = 0; face < 4; face++) {
        sfpu_face(p, op);
        tt_push(TT_SETRWC(CLR_NONE, RWC_CR_D, 8, 0, 0, SET_D));
        tt_push(TT_SETRWC(CLR_NONE, RWC_CR_D, 8, 0, 0, SET_D));
    }
    tt_push(TT_SETRWC(CLR_NONE, 0, 0, 0, 0, SET_D));
}

void sfpu_tile(const TTKParams *p, uint32_t dst_row)
{
    uint32_t op = sfpu_op(p);

    switch (op) {
    case TTK_SFPU_TOPK:
        /* VectorMode::RC_custom: the function once, on tile 0's base */
        tt_push(TT_SETC16(TC_DEST_TARGET_MATH, dst_row));
        tt_push(TT_STALLWAIT(STALL_SFPU, WAIT_MATH));
        topk_run(dst_row, p->sfpu_arg, p->dst_fp32);
        tt_push(TT_SETRWC(CLR_NONE, 0, 0, 0, 0, SET_D));
        break;
    case TTK_SFPU_INT32_ROUNDTRIP:
        /* two unary ops on the tile, as typecast(typecast(x)) runs */
        sfpu_params(p, TTK_SFPU_FP32_TO_INT32, dst_row);
        sfpu_params(p, op, dst_row);
        break;
    default:
        sfpu_params(p, op, dst_row);
        break;
    }
}
