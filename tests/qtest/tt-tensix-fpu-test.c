/*
 * Blackhole Tensix matrix unit (FPU): MVMUL at each fidelity phase, with
 * 16-bit and FP32 Dst, ELWADD/ELWSUB/ELWMUL on ordinary and special
 * values, SrcB broadcasts, GMPOOL, GAPOOL, MOVA2D/MOVB2D/MOVD2A/MOVD2B,
 * TRNSPSRCB, ZEROACC, ZEROSRC, CLEARDVALID, SETRWC/INCRWC, every
 * address-modifier feature and the wait for data valid.  Operands are
 * unpacked from L1 by thread 0; FPU instructions run on thread 1.
 *
 * Expected values were worked out by hand.  Data movement and control
 * follow tenstorrent/tt-isa-documentation WormholeB0/TensixTile/
 * TensixCoprocessor/<INSTRUCTION>.md, RWCs.md, SrcASrcB.md, Dst.md and
 * BlackholeA0/TensixTile/TensixCoprocessor/Dst.md.  Those pages call their
 * floating-point arithmetic a rough guide; the exact Blackhole arithmetic
 * (fidelity slices, two 8-product groups, alignment rounding, 16-bit Dst
 * double rounding) is that of ttsim src/tensix.cpp (mvmul(), elwmul(),
 * elwadd(), fpu_accum_normalize_encode()), restated here per value:
 *   product slices (phase p): SrcA 5 bits = p & 1 ? (MA >> 1) & 31 : MA >> 6,
 *   SrcB 7 bits = p & 2 ? (MB & 15) << 3 : MB >> 4, with MA / MB the 11-bit
 *   significands; product exponent eA + eB - 127 - (p & 1 ? 5 : 0) -
 *   (p & 2 ? 7 : 0); a product M * 2^(E - 137).
 * Dst16b holds BF16 as {sign, man7, exp8} and FP16 as {sign, man10, exp5};
 * Dst32b row r is DstBits[adj] << 16 | DstBits[adj + 8] (Dst.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "tt-qtest-util.h"
#include "tt-tensix-enc.h"      /* generated from data/tensix-isa.yaml */
#include "tt-tensix-config.h"   /* generated from data/tensix-config.yaml */

#define L1_A 0x20000
#define L1_B 0x30000

/* FPU instructions; the matrix unit runs thread 1's pushes */
#define MATH 1
#define MVMUL(am, dst)              TT_ENC_MVMUL(0, 0, am, dst)
#define ELWADD(acc, bcast, am, dst) TT_ENC_ELWADD(0, acc, bcast, am, dst)
#define ELWSUB(acc, bcast, am, dst) TT_ENC_ELWSUB(0, acc, bcast, am, dst)
#define ELWMUL(am, dst)             TT_ENC_ELWMUL(0, 0, 0, am, dst)
#define ZEROACC_ALL                 TT_ENC_ZEROACC(3, 0, 0, 0, 0)
#define SETRWC_AB(a, b)             TT_ENC_SETRWC(0, 0, 0, b, a, 3)

static void push(TTTensixCfg *c, int thread, uint32_t insn)
{
    tt_tensix_push(c->qts, c->x, c->y, thread, insn);
}

/*
 * Unpack @ra rows of @a into SrcA and @rb rows of @b into SrcB, both of
 * format @fmt, handing both banks to the matrix unit (SetDatValid).
 */
static void load_ab(TTTensixCfg *c, int fmt, const uint16_t *a, int ra,
                    const uint16_t *b, int rb)
{
    tt_tensix_l1_write16(c, L1_A, a, 16 * ra);
    tt_tensix_l1_write16(c, L1_B, b, 16 * rb);
    tt_tensix_unpack_setup(c, 0, fmt, fmt, L1_A, 16 * ra, 1, 1, 16 * ra);
    tt_tensix_unpack_setup(c, 1, fmt, fmt, L1_B, 16 * rb, 1, 1, 16 * rb);
    push(c, 0, TT_UNPACR(0, 0, 1));
    push(c, 0, TT_UNPACR(1, 0, 1));
}

static void check_rwc(TTTensixCfg *c, int thread, unsigned srca,
                      unsigned srcb, unsigned dst, unsigned fid)
{
    unsigned rwc[4];

    tt_tensix_rwc(c->qts, c->x, c->y, thread, rwc);
    g_assert_cmpuint(rwc[0], ==, srca);
    g_assert_cmpuint(rwc[1], ==, srcb);
    g_assert_cmpuint(rwc[2], ==, dst);
    g_assert_cmpuint(rwc[3], ==, fid);
}

static int dst_valid(TTTensixCfg *c, int row)
{
    uint16_t v[16];

    return tt_tensix_dst(c->qts, c->x, c->y, row, v);
}

/* BF16 inputs of MVMUL's fidelity test (one product in column 0) */
static void load_single_product(TTTensixCfg *c, uint16_t a, uint16_t b)
{
    uint16_t sa[16 * 16] = { a }, sb[8 * 16] = { b };

    load_ab(c, TT_FMT_BF16, sa, 16, sb, 8);
}

/*
 * a = b = BF16 0x3fff (1.9921875, MA = MB = 0x7f8).  Slices: A-hi 31,
 * A-lo 28, B-hi 127, B-lo 64.
 *   phase 0: 31 * 127 = 3937, E 127 -> 0xf61 << 13 normalised:
 *            FP32 0x40761000 (3.8447265625)
 *   phase 1: 28 * 127 = 3556, E 122; aligned to E 128 by 6 with rounding:
 *            (3556 << 13 + 32) >> 6 = 0x6f200; 0xf61000 + 0x6f200 = 0xfd0200
 *   phase 2: 31 * 64 = 1984, E 120, >> 8 -> 0xf800: 0xfdfa00
 *   phase 3: 28 * 64 = 1792, E 115, >> 13 -> 0x700: 0xfe0100
 *            = 0x407e0100, exactly 255^2 / 128^2
 * With BF16 Dst every step is rounded again to 8 bits (each addend first
 * to 2^13 units, then half up): 0x4076, 0x407d, 0x407e, 0x407e.
 */
static const uint32_t fid_fp32[4] = {
    0x76801000, 0x7d800200, 0x7d80fa00, 0x7e800100,
};
static const uint16_t fid_bf16[4] = { 0x7680, 0x7d80, 0x7e80, 0x7e80 };

static void run_fidelity(bool fp32, uint32_t (*op)(void))
{
    TTTensixCfg *c = tt_tensix_start();

    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, fp32);
    /* ADDR_MOD 1: FidelityIncr = 1 (RWCs.md ApplyAddrMod) */
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_FidelityIncr, 1, 1);
    load_single_product(c, 0x3fff, 0x3fff);
    push(c, MATH, ZEROACC_ALL);
    for (int p = 0; p < 4; p++) {
        uint32_t exp32[16] = { fid_fp32[p] };
        uint16_t exp16[16] = { fid_bf16[p] };
        static const uint32_t zero32[16];
        static const uint16_t zero16[16];

        push(c, MATH, op());
        check_rwc(c, MATH, 0, 0, 0, (p + 1) & 3);
        if (fp32) {
            tt_tensix_check_dst32(c, 0, exp32);
            tt_tensix_check_dst32(c, 7, zero32);
        } else {
            tt_tensix_check_dst16(c, 0, exp16, 1);
            tt_tensix_check_dst16(c, 7, zero16, 1);
        }
    }
    tt_tensix_end(c);
}

static uint32_t mvmul_am1(void)
{
    return MVMUL(1, 0);
}

static uint32_t elwmul_am1(void)
{
    return ELWMUL(1, 0);
}

/* MVMUL.md, fidelity phases 0-3 in turn, FP32 Dst (LoFi != HiFi4) */
static void test_mvmul_fidelity_fp32(void)
{
    run_fidelity(true, mvmul_am1);
}

/* The same with BF16 Dst */
static void test_mvmul_fidelity_bf16(void)
{
    run_fidelity(false, mvmul_am1);
}

/* ELWMUL.md uses the same multiplier slices */
static void test_elwmul_fidelity(void)
{
    run_fidelity(true, elwmul_am1);
}

/*
 * MVMUL sums products k = 0..7 and k = 8..15 in two groups, each in units
 * of its largest product's LSB (rounded half up), then adds both groups
 * and Dst with 13 more bits.  SrcA column 0 rows 0, 1, 8 = 1.0, FP32 Dst,
 * LoFi; Dst row r = sum_k SrcB[r][k] * SrcA[k][0] (MVMUL.md):
 *   row 0: 1.0 + 2^-12 (k 1): 2^-12 is 1024 / 2^12 = 0.25 unit -> lost:
 *          0x3f800000
 *   row 1: 1.0 + 2^-12 (k 8, group 1): kept, 0x3f800800
 *   row 2: 1.0 + 2^-11 (k 1): half a unit rounds up: 0x3f802000
 *   row 3: 1.0 - 1.0 (k 1): 0x00000000
 *   row 4: 2.0 + 0.5 (k 8): 0x40200000
 */
static void test_mvmul_groups(void)
{
    uint16_t a[16 * 16] = { [0] = 0x3f80, [16] = 0x3f80, [128] = 0x3f80 };
    uint16_t b[8 * 16] = {
        [0] = 0x3f80, [1] = 0x3980,
        [16] = 0x3f80, [24] = 0x3980,
        [32] = 0x3f80, [33] = 0x3a00,
        [48] = 0x3f80, [49] = 0xbf80,
        [64] = 0x4000, [72] = 0x3f00,
    };
    static const uint32_t col0[8] = {
        0x007f0000, 0x007f0800, 0x007f2000, 0x00000000, 0x20800000,
    };
    TTTensixCfg *c = tt_tensix_start();

    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    load_ab(c, TT_FMT_BF16, a, 16, b, 8);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, MVMUL(0, 0));
    for (int r = 0; r < 8; r++) {
        uint32_t exp[16] = { col0[r] };

        tt_tensix_check_dst32(c, r, exp);
    }
    tt_tensix_end(c);
}

/*
 * The top of the range, FP32 Dst, LoFi (slices exact for these operands):
 * a product of exponent 254 is finite, one of 255 or more is the
 * exponent-255 pattern (Inf).  SrcA[0] = [2^127, 1.5 * 2^127], SrcB rows
 * 0, 1 = [1.0], [2.0]; Dst in its FP32 style (sign, 7 mantissa bits,
 * exponent | low 16 mantissa bits):
 *   Dst[0][0] = 2^127 (0x7f000000)       -> 0x00fe0000
 *   Dst[0][1] = 1.5 * 2^127 (0x7f400000) -> 0x40fe0000
 *   Dst[1][0] = 2^128, Dst[1][1] = 3 * 2^127: Inf -> 0x00ff0000
 */
static void test_mvmul_range(void)
{
    uint16_t a[16 * 16] = { [0] = 0x7f00, [1] = 0x7f40 };
    uint16_t b[8 * 16] = { [0] = 0x3f80, [16] = 0x4000 };
    static const uint32_t exp[2][16] = {
        { 0x00fe0000, 0x40fe0000 },
        { 0x00ff0000, 0x00ff0000 },
    };
    TTTensixCfg *c = tt_tensix_start();

    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    load_ab(c, TT_FMT_BF16, a, 16, b, 8);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, MVMUL(0, 0));
    tt_tensix_check_dst32(c, 0, exp[0]);
    tt_tensix_check_dst32(c, 1, exp[1]);
    tt_tensix_end(c);
}

/*
 * TF32 operands (unpacked FP32 -> TF32), FP32 Dst, all four fidelity
 * phases: MVMUL.md (†) "For SrcA, the least significant bit of the FP16
 * or TF32 mantissa is ignored", while SrcB's is used (phase 2: SrcB bits
 * 3..0).  SrcA[0] = [1 + 2^-10, 1.0], SrcB rows 0, 1 = [1.0], [1 + 2^-10]:
 *   Dst[0][0] = 1.0 * (1 + 2^-10) -> 1.0 (0x3f800000)
 *   Dst[0][1] = 1.0
 *   Dst[1][0] = (1 + 2^-10)^2 -> (1 + 2^-10) * 1.0 = 0x3f802000
 *   Dst[1][1] = (1 + 2^-10) * 1.0 = 0x3f802000 (phase 2: 16 * 8 << -17)
 */
static void test_mvmul_tf32(void)
{
    static const uint32_t a[16 * 16] = { 0x3f802000, 0x3f800000 };
    static const uint32_t b[8 * 16] = { [0] = 0x3f800000,
                                        [16] = 0x3f802000 };
    static const uint32_t row0[16] = { 0x007f0000, 0x007f0000 };
    static const uint32_t row1[16] = { 0x007f2000, 0x007f2000 };
    TTTensixCfg *c = tt_tensix_start();

    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_FidelityIncr, 1, 1);
    tt_tensix_l1_write32(c, L1_A, a, 256);
    tt_tensix_l1_write32(c, L1_B, b, 128);
    tt_tensix_unpack_setup(c, 0, TT_FMT_FP32, TT_FMT_TF32, L1_A, 256, 1, 1,
                           256);
    tt_tensix_unpack_setup(c, 1, TT_FMT_FP32, TT_FMT_TF32, L1_B, 128, 1, 1,
                           128);
    push(c, 0, TT_UNPACR(0, 0, 1));
    push(c, 0, TT_UNPACR(1, 0, 1));
    push(c, MATH, ZEROACC_ALL);
    for (int p = 0; p < 4; p++) {
        push(c, MATH, MVMUL(1, 0));
    }
    tt_tensix_check_dst32(c, 0, row0);
    tt_tensix_check_dst32(c, 1, row1);
    tt_tensix_end(c);
}

/*
 * MOVA2D of TF32 SrcA writes Dst32b (MOVA2D.md: Val16b << 16 |
 * LowMantissa): FP32 0x3faaaaab unpacked to TF32 0x3faaa000 (man10
 * 0x155) -> high half {man7 0x2a, exp 0x7f} = 0x2a7f, low half (0x155 & 7)
 * << 13 = 0xa000.  -2.5 -> 0xa0800000.
 */
static void test_mova2d_tf32(void)
{
    uint32_t a[8 * 16] = { 0 }, exp[16] = { 0 };
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        a[i] = i & 1 ? 0xc0200000 : 0x3faaaaab;
        exp[i] = i & 1 ? 0xa0800000 : 0x2a7fa000;
    }
    tt_tensix_l1_write32(c, L1_A, a, 128);
    tt_tensix_unpack_setup(c, 0, TT_FMT_FP32, TT_FMT_TF32, L1_A, 128, 1, 1,
                           128);
    push(c, 0, TT_UNPACR(0, 0, 1));
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, TT_ENC_MOVA2D(0, 0, 0, 2, 8));
    tt_tensix_check_dst32(c, 8, exp);
    tt_tensix_end(c);
}

/*
 * MVMUL row addressing (MVMUL.md): SrcA rows RWC.SrcA..+15, SrcB rows
 * RWC.SrcB..+7, Dst rows DstRow + MATH_Offset + RWC.Dst.  RWCs SrcA 16,
 * SrcB 8, Dst 8 (SETRWC), DstRow 16, MATH_Offset 32 -> Dst rows 56-63.
 * SrcB rows 8-15 = identity, so Dst row 56 + r = SrcA row 16 + r, which
 * holds 0x3f80 + (r << 7) + (c << 3) (exponent 0x7f + r, 4 mantissa bits,
 * exact at LoFi) -> Dst16b c << 11 | (0x7f + r).  SrcA rows 0-15 = 2.0 and
 * SrcB rows 0-7 = 3.0 would show up if the wrong rows were used.
 */
static void test_mvmul_addressing(void)
{
    uint16_t a[32 * 16], b[16 * 16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 512; i++) {
        int r = i / 16 - 16, col = i % 16;

        a[i] = r < 0 ? 0x4000 : 0x3f80 + (r << 7) + (col << 3);
    }
    for (int i = 0; i < 256; i++) {
        int r = i / 16 - 8, k = i % 16;

        b[i] = r < 0 ? 0x4040 : (k == r ? 0x3f80 : 0);
    }
    load_ab(c, TT_FMT_BF16, a, 32, b, 16);
    push(c, MATH, ZEROACC_ALL);
    TT_THCFG_SET(c, MATH, DEST_TARGET_REG_CFG_MATH_Offset, 32);
    push(c, MATH, TT_ENC_SETRWC(0, 0, 8, 8, 0, 7));
    push(c, MATH, TT_ENC_INCRWC(0, 0, 0, 15));
    push(c, MATH, TT_ENC_INCRWC(0, 0, 0, 1));
    check_rwc(c, MATH, 16, 8, 8, 0);
    push(c, MATH, MVMUL(0, 16));
    for (int r = 0; r < 8; r++) {
        uint16_t exp[16];

        for (int col = 0; col < 16; col++) {
            exp[col] = col << 11 | (0x7f + r);
        }
        tt_tensix_check_dst16(c, 56 + r, exp, 1);
    }
    g_assert_cmpint(dst_valid(c, 55), ==, 0);
    g_assert_cmpint(dst_valid(c, 64), ==, 0);
    tt_tensix_end(c);
}

/*
 * MVMUL with the SrcA RWC at 56: its 16 rows would pass the bank's end
 * (undefined in MVMUL.md); they wrap, with a guest error.  SrcA row 0 is
 * 1.0 (all other rows 0), SrcB column 8 is 2.0: row 56 + 8 wraps to row 0,
 * so every Dst datum is 2.0 (Dst16 {sign, mantissa, exponent}: 0x0080);
 * read past the bank, it would be 0.
 */
static void test_mvmul_srca_wrap(void)
{
    uint16_t a[64 * 16] = { 0 }, b[8 * 16] = { 0 }, exp[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int col = 0; col < 16; col++) {
        a[col] = 0x3f80;
        exp[col] = 0x0080;
    }
    for (int r = 0; r < 8; r++) {
        b[r * 16 + 8] = 0x4000;
    }
    load_ab(c, TT_FMT_BF16, a, 64, b, 8);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, SETRWC_AB(0, 0));
    for (int i = 0; i < 4; i++) {
        push(c, MATH, TT_ENC_INCRWC(0, 0, 0, 14));
    }
    check_rwc(c, MATH, 56, 0, 0, 0);
    push(c, MATH, MVMUL(0, 0));
    for (int r = 0; r < 8; r++) {
        tt_tensix_check_dst16(c, r, exp, 1);
    }
    tt_tensix_end(c);
}

/*
 * SrcA rewritten by the matrix unit's own instructions between MVMULs
 * of the same rows: each MVMUL must read the new values (the fast path
 * keeps SrcA prepared per face while its bank is unchanged).  SrcB row 0
 * column 0 is 2.0; BF16 Dst16 raw values {man7, exp8}: 2.0 0x0080, 4.0
 * 0x0081, 8.0 0x0082.
 *   SrcA[0][0] = 1.0: Dst[0][0] = 2.0
 *   ZEROSRC of SrcA's matrix bank: 0
 *   MOVB2A of SrcB row 0: SrcA[0][0] = 2.0, Dst[0][0] = 4.0
 *   SHIFTXA right: SrcA[0][1] = 2.0, Dst[0][1] = 4.0
 *   MOVD2A of that Dst row: SrcA[0][1] = 4.0, Dst[0][1] = 8.0
 *   UNPACR_NOP clearing both SrcA banks (BankClrCntrl): 0
 */
static void mvmul_row0(TTTensixCfg *c, int col, uint16_t v)
{
    uint16_t exp[16] = { 0 };

    exp[col] = v;
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, MVMUL(0, 0));
    tt_tensix_check_dst16(c, 0, exp, 1);
}

static void test_mvmul_srca_rewritten(void)
{
    uint16_t a[16 * 16] = { 0x3f80 }, b[8 * 16] = { 0x4000 };
    TTTensixCfg *c = tt_tensix_start();

    load_ab(c, TT_FMT_BF16, a, 16, b, 8);
    mvmul_row0(c, 0, 0x0080);
    push(c, MATH, TT_ENC_ZEROSRC(0, 1, 0, 1));
    mvmul_row0(c, 0, 0x0000);
    push(c, MATH, TT_ENC_MOVB2A(0, 0, 0, 0));
    mvmul_row0(c, 0, 0x0081);
    push(c, MATH, TT_ENC_SHIFTXA(0, 0));
    mvmul_row0(c, 1, 0x0081);
    push(c, MATH, TT_ENC_MOVD2A(0, 0, 0, 0, 0));
    mvmul_row0(c, 1, 0x0082);
    /* UNPACR_NOP pop, stalling on the unpacker's bank, clears both */
    push(c, 0, TT_ENC_UNPACR_NOP(0, 0, 0, 0, 0, 1, 1, 0, 1));
    mvmul_row0(c, 1, 0x0000);
    tt_tensix_end(c);
}

/*
 * Integer MVMUL (INT8_math_enabled; SrcASrcB.md "Fidelity phases
 * (integer)", MVMUL.md masks): SrcA magnitude bits 7..5 (phase bit 0
 * clear) or 4..0, SrcB bits 9..4 (phase bit 1 clear) or 3..0, each kept
 * in place.  SrcA = 200 (unsigned), SrcB row 0 = 100, row 1 = -100:
 * phase 0: 192 * 96 = 18432; + 8 * 96 + 192 * 4 + 8 * 4 = 20000 after
 * phase 3.  Dst32b holds sign-magnitude INT32 (Dst.md): 20000 = 0x4e20,
 * -20000 = 0x80004e20 -> high half {sign, man7, exp8} of 0x8000 = 0x8000.
 */
static void test_mvmul_int8(void)
{
    uint8_t a[16 * 16] = { 200 }, b[8 * 16] = { [0] = 100, [16] = 0xe4 };
    static const uint32_t lofi[2] = { 0x00004800, 0x80004800 };
    static const uint32_t hifi[2] = { 0x00004e20, 0x80004e20 };
    TTTensixCfg *c = tt_tensix_start();

    TT_CFG_SET(c, ALU_ACC_CTRL_INT8_math_enabled, 1);
    TT_CFG_SET(c, ALU_FORMAT_SPEC_REG0_SrcAUnsigned, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_FidelityIncr, 1, 1);
    tt_write(c->qts, TT_TX, TT_TY, "brisc", L1_A, a, sizeof(a));
    tt_write(c->qts, TT_TX, TT_TY, "brisc", L1_B, b, sizeof(b));
    tt_tensix_unpack_setup(c, 0, TT_FMT_INT8, TT_FMT_INT8, L1_A, 256, 1, 1,
                           256);
    tt_tensix_unpack_setup(c, 1, TT_FMT_INT8, TT_FMT_INT8, L1_B, 128, 1, 1,
                           128);
    push(c, 0, TT_UNPACR(0, 0, 1));
    push(c, 0, TT_UNPACR(1, 0, 1));
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, MVMUL(1, 0));
    for (int r = 0; r < 2; r++) {
        uint32_t exp[16] = { lofi[r] };

        tt_tensix_check_dst32(c, r, exp);
    }
    push(c, MATH, MVMUL(1, 0));
    push(c, MATH, MVMUL(1, 0));
    push(c, MATH, MVMUL(1, 0));
    for (int r = 0; r < 2; r++) {
        uint32_t exp[16] = { hifi[r] };

        tt_tensix_check_dst32(c, r, exp);
    }
    tt_tensix_end(c);
}

/*
 * Integer ELWADD/ELWSUB/ELWMUL (INT8_math_enabled, Dst32b INT32): Int8
 * L1 data is sign-magnitude; ELWADD.md adds whole ReadSrcInt8 values
 * (no fidelity slicing), ELWMUL.md multiplies the phase slices, so the
 * product is exact only after phases 0-3.  Pairs (20,-7) (65,51)
 * (127,-127) (0,-1) (100,100) in columns 0-4 of row 0:
 *   A+B = 13 116 0 -1 200;  A-B = 27 14 254 1 0;
 *   A*B phase 0 = 0 3072 -10752 0 9216;  all phases = -140 3315 -16129 0
 *   10000.  Below 2^16 the Dst32b shuffle leaves the word unchanged.
 */
static void test_elw_int8(void)
{
    uint8_t a[8 * 16] = { 0x14, 0x41, 0x7f, 0x00, 0x64 };
    uint8_t b[8 * 16] = { 0x87, 0x33, 0xff, 0x81, 0x64 };
    static const uint32_t add[16] = {
        0x0000000d, 0x00000074, 0x00000000, 0x80000001, 0x000000c8,
    };
    static const uint32_t sub[16] = {
        0x0000001b, 0x0000000e, 0x000000fe, 0x00000001, 0x00000000,
    };
    static const uint32_t mul_lofi[16] = {
        0x00000000, 0x00000c00, 0x80002a00, 0x00000000, 0x00002400,
    };
    static const uint32_t mul[16] = {
        0x8000008c, 0x00000cf3, 0x80003f01, 0x00000000, 0x00002710,
    };
    TTTensixCfg *c = tt_tensix_start();

    TT_CFG_SET(c, ALU_ACC_CTRL_INT8_math_enabled, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_FidelityIncr, 1, 1);
    tt_write(c->qts, TT_TX, TT_TY, "brisc", L1_A, a, sizeof(a));
    tt_write(c->qts, TT_TX, TT_TY, "brisc", L1_B, b, sizeof(b));
    tt_tensix_unpack_setup(c, 0, TT_FMT_INT8, TT_FMT_INT8, L1_A, 128, 1, 1,
                           128);
    tt_tensix_unpack_setup(c, 1, TT_FMT_INT8, TT_FMT_INT8, L1_B, 128, 1, 1,
                           128);
    push(c, 0, TT_UNPACR(0, 0, 1));
    push(c, 0, TT_UNPACR(1, 0, 1));
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, ELWADD(0, 0, 0, 0));
    tt_tensix_check_dst32(c, 0, add);
    push(c, MATH, ELWSUB(0, 0, 0, 8));
    tt_tensix_check_dst32(c, 8, sub);
    push(c, MATH, ELWMUL(1, 16));
    tt_tensix_check_dst32(c, 16, mul_lofi);
    for (int p = 1; p < 4; p++) {
        push(c, MATH, ELWMUL(1, 16));
    }
    tt_tensix_check_dst32(c, 16, mul);
    tt_tensix_end(c);
}

/*
 * ELWADD (no accumulate): the smaller operand is aligned to the larger
 * one's 11-bit significand, rounding half up, then added; Src values with
 * exponent 0 are zero; exponent 255 is an ordinary (huge) exponent
 * (FloatBitPatterns.md: the FPU reads it as (1 + m) * 2^128), and results
 * too large give the 0x7f80 pattern (‡ there).  Columns (SrcA + SrcB):
 *   0  1.0 + 2^-8: 0x404 -> FP32 0x3f808000, BF16 tie up 0x3f81
 *   1  1.0 + 1.5 * 2^-11: 0x600 >> 11 rounds to 1 -> 0x3f802000 / 0x3f80
 *   2  0x7f80 + 0xff80: equal magnitudes cancel -> +0
 *   3  0x7fc0 + 1.0 -> exponent 255 -> 0x7f800000
 *   4  0x7f7f + 0x7f7f -> overflow -> 0x7f800000
 *   5  1.0 + -1.0 -> +0;  6  -0 + -0 -> +0;  7  0x0001 + 1.0 -> 1.0
 *   8  -1.0 + -2.0 -> -3.0;  9  0x8001 + -1.0 -> -1.0;  10  3.0 + -0
 *   11 0x0080 + 0 -> 0x00800000 (smallest normal stays)
 *   12 0x0080 + 0x8080 -> +0;  13 1.5 + 0.25 -> 1.75
 *   14 2.0 + -1.0 -> 1.0;  15 0x3f81 + 2^-8: 0x40c -> 0x3f818000 / 0x3f82
 */
static const uint16_t add_a[16] = {
    0x3f80, 0x3f80, 0x7f80, 0x7fc0, 0x7f7f, 0x3f80, 0x8000, 0x0001,
    0xbf80, 0x8001, 0x4040, 0x0080, 0x0080, 0x3fc0, 0x4000, 0x3f81,
};
static const uint16_t add_b[16] = {
    0x3b80, 0x3a40, 0xff80, 0x3f80, 0x7f7f, 0xbf80, 0x8000, 0x3f80,
    0xc000, 0xbf80, 0x8000, 0x0000, 0x8080, 0x3e80, 0xbf80, 0x3b80,
};

static void test_elwadd(void)
{
    static const uint16_t exp_bf16[16] = {
        0x017f, 0x007f, 0x0000, 0x00ff, 0x00ff, 0x0000, 0x0000, 0x007f,
        0xc080, 0x807f, 0x4080, 0x0001, 0x0000, 0x607f, 0x007f, 0x027f,
    };
    static const uint32_t exp_fp32[16] = {
        0x007f8000, 0x007f2000, 0x00000000, 0x00ff0000, 0x00ff0000,
        0x00000000, 0x00000000, 0x007f0000, 0xc0800000, 0x807f0000,
        0x40800000, 0x00010000, 0x00000000, 0x607f0000, 0x007f0000,
        0x017f8000,
    };
    uint16_t a[8 * 16] = { 0 }, b[8 * 16] = { 0 };
    TTTensixCfg *c = tt_tensix_start();

    memcpy(a, add_a, sizeof(add_a));
    memcpy(b, add_b, sizeof(add_b));
    load_ab(c, TT_FMT_BF16, a, 8, b, 8);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, ELWADD(0, 0, 0, 0));
    tt_tensix_check_dst16(c, 0, exp_bf16, 1);
    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    push(c, MATH, ELWADD(0, 0, 0, 8));
    tt_tensix_check_dst32(c, 8, exp_fp32);
    tt_tensix_end(c);
}

/*
 * ELWSUB = ELWADD with SrcB's sign flipped (ELWSUB.md):
 *   3.0 - 1.0 = 2.0; 1.0 - 1.0 = +0; -1.0 - 1.0 = -2.0; 0 - 1.0 = -1.0;
 *   1.0 - 2^-8: 0x400 - 4 = 0x3fc, normalised -> 0x3f7f0000 (exact);
 *   2.0 - 0.5: 0x400 - 0x100 -> 1.5.
 */
static void test_elwsub(void)
{
    uint16_t a[8 * 16] = { 0x4040, 0x3f80, 0xbf80, 0x0000, 0x3f80, 0x4000 };
    uint16_t b[8 * 16] = { 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3b80, 0x3f00 };
    static const uint16_t exp_bf16[16] = {
        0x0080, 0x0000, 0x8080, 0x807f, 0x7f7e, 0x407f,
    };
    static const uint32_t exp_fp32[16] = {
        0x00800000, 0x00000000, 0x80800000, 0x807f0000, 0x7f7e0000,
        0x407f0000,
    };
    TTTensixCfg *c = tt_tensix_start();

    load_ab(c, TT_FMT_BF16, a, 8, b, 8);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, ELWSUB(0, 0, 0, 0));
    tt_tensix_check_dst16(c, 0, exp_bf16, 1);
    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    push(c, MATH, ELWSUB(0, 0, 0, 8));
    tt_tensix_check_dst32(c, 8, exp_fp32);
    tt_tensix_end(c);
}

/*
 * ELWADD's accumulate bit (ELWADD.md: Dst += A + B instead of =), FP32
 * Dst.  Rows 0: 1.0 + 1.0; rows 8 (SrcA/SrcB RWCs set to 8 by SETRWC):
 * 1.0 + 0.5.  = 2.0, += 1.5 -> 3.5 (0x40600000), = 1.5 again.
 */
static void test_elwadd_accumulate(void)
{
    uint16_t a[16 * 16] = { 0 }, b[16 * 16] = { 0 };
    uint32_t two[16], three_half[16], one_half[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        a[i] = b[i] = a[128 + i] = 0x3f80;
        b[128 + i] = 0x3f00;
        two[i] = 0x00800000;
        three_half[i] = 0x60800000;
        one_half[i] = 0x407f0000;
    }
    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    load_ab(c, TT_FMT_BF16, a, 16, b, 16);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, ELWADD(0, 0, 0, 0));
    tt_tensix_check_dst32(c, 0, two);
    push(c, MATH, SETRWC_AB(8, 8));
    check_rwc(c, MATH, 8, 8, 0, 0);
    push(c, MATH, ELWADD(1, 0, 0, 0));
    tt_tensix_check_dst32(c, 0, three_half);
    push(c, MATH, ELWADD(0, 0, 0, 0));
    tt_tensix_check_dst32(c, 0, one_half);
    tt_tensix_end(c);
}

/*
 * ELWMUL accumulates into Dst (ELWMUL.md), FP32 Dst, LoFi.  A first
 * ELWMUL (rows 0) writes the old value old = A0 * 1.0 exactly, the second
 * (rows 8) adds A8 * B8.  The product is aligned to the larger exponent
 * rounding half toward +inf, Dst half up, the sum rounded half up: not
 * IEEE.
 *   0  1.0 + -2^-24: (2^23 - 1) >> 24 = 0 -> 0x3f800000
 *   1  1.0 + 2^-24 -> 0x3f800001
 *   2  -1.0 + 2^-24 -> 0x800000 - 1 normalised -> 0xbf7ffffe
 *   3  -1.0 + -2^-24 -> 0xbf800000
 *   4  2^-24 + 1.0 -> 0x3f800001;  5  -2^-24 + 1.0 -> 0x3f7ffffe
 *   6  1.0 + -1.0 -> +0;  7  2.0 * 3.0: 16 * 96 = 1536, E 129 -> 6.0
 *   8  0x7f80 * 2.0: E 256 -> 0x7f800000;  9  0x7fc0 * 1.0 -> 0x7f800000
 *   10 0x0001 * 1.0 -> zero;  11 2^-100 * 2^-100: E <= 0 -> zero
 *   12 -1.5 * -1.5 -> 2.25;  13 0x3fff^2 -> 0x40761000 (LoFi)
 *   14 1.0 + 0x3f81^2: LoFi keeps 16 * 64 of 0x408 * 0x408 -> 2.0
 *   15 -3.0 * 0.5 -> -1.5
 */
static void test_elwmul(void)
{
    static const uint16_t a0[16] = {
        0x3f80, 0x3f80, 0xbf80, 0xbf80, 0x3380, 0xb380, 0x3f80, 0,
        0, 0, 0, 0, 0, 0, 0x3f80, 0,
    };
    static const uint16_t a8[16] = {
        0xb380, 0x3380, 0x3380, 0xb380, 0x3f80, 0x3f80, 0xbf80, 0x4000,
        0x7f80, 0x7fc0, 0x0001, 0x0d80, 0xbfc0, 0x3fff, 0x3f81, 0xc040,
    };
    static const uint16_t b8[16] = {
        0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x4040,
        0x4000, 0x3f80, 0x3f80, 0x0d80, 0xbfc0, 0x3fff, 0x3f81, 0x3f00,
    };
    static const uint32_t exp_old[16] = {
        0x007f0000, 0x007f0000, 0x807f0000, 0x807f0000, 0x00670000,
        0x80670000, 0x007f0000, 0, 0, 0, 0, 0, 0, 0, 0x007f0000, 0,
    };
    static const uint32_t exp[16] = {
        0x007f0000, 0x007f0001, 0xff7efffe, 0x807f0000, 0x007f0001,
        0x7f7efffe, 0x00000000, 0x40810000, 0x00ff0000, 0x00ff0000,
        0x00000000, 0x00000000, 0x10800000, 0x76801000, 0x00800000,
        0xc07f0000,
    };
    uint16_t a[16 * 16] = { 0 }, b[16 * 16] = { 0 };
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        a[i] = a0[i];
        b[i] = 0x3f80;
        a[128 + i] = a8[i];
        b[128 + i] = b8[i];
    }
    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    load_ab(c, TT_FMT_BF16, a, 16, b, 16);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, ELWMUL(0, 0));
    tt_tensix_check_dst32(c, 0, exp_old);
    push(c, MATH, SETRWC_AB(8, 8));
    push(c, MATH, ELWMUL(0, 0));
    tt_tensix_check_dst32(c, 0, exp);
    tt_tensix_end(c);
}

/*
 * 16-bit against FP32 Dst accumulation: old Dst 1.0, ELWMUL adds
 *   0  1.875 * 2^-9 = 2^-8 - 2^-12: aligned 0x7800, rounded to 2^13 units
 *      0x8000, then the sum 0x808000 rounded half up -> BF16 0x3f81
 *      (IEEE: 0x3f80); FP32 keeps 0x3f807800
 *   1  2^-8 * 1.0: tie, rounded up -> 0x3f81; FP32 0x3f808000
 *   2  2^-9 * 1.0: below half -> 0x3f80; FP32 0x3f804000
 */
static void test_elwmul_dst_rounding(void)
{
    static const uint16_t exp_bf16[16] = { 0x017f, 0x017f, 0x007f };
    static const uint32_t exp_fp32[16] = {
        0x007f7800, 0x007f8000, 0x007f4000,
    };
    uint16_t a[16 * 16] = { 0x3f80, 0x3f80, 0x3f80,
                            [128] = 0x3ff0, 0x3b80, 0x3b00 };
    uint16_t b[16 * 16] = { 0x3f80, 0x3f80, 0x3f80,
                            [128] = 0x3b00, 0x3f80, 0x3f80 };
    TTTensixCfg *c = tt_tensix_start();

    load_ab(c, TT_FMT_BF16, a, 16, b, 16);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, ELWMUL(0, 0));
    push(c, MATH, SETRWC_AB(8, 8));
    push(c, MATH, ELWMUL(0, 0));
    tt_tensix_check_dst16(c, 0, exp_bf16, 1);

    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    push(c, MATH, SETRWC_AB(0, 0));
    push(c, MATH, ELWMUL(0, 16));
    push(c, MATH, SETRWC_AB(8, 8));
    push(c, MATH, ELWMUL(0, 16));
    tt_tensix_check_dst32(c, 16, exp_fp32);
    tt_tensix_end(c);
}

/*
 * FP16 sources (implied format FP16 from the unpacker): exponents are
 * 5-bit, bias 15; FP16 exponent 31 is a normal number and larger results
 * saturate to 0x7fff (FloatBitPatterns.md "FP16", ‡).  With FP32 Dst the
 * result is rebiased to 127.
 *   ELWMUL: 256 * 256 = 2^16 -> FP16 0x7c00 (raw {man10, exp5} 0x001f),
 *           512 * 256 -> 0x7fff, 1 * 1 -> 0x3c00 (0x000f),
 *           65504^2 -> 0x7fff;
 *           FP32: 0x47800000, 0x48000000, 0x3f800000, LoFi 31 * 127 =
 *           3937 at 2^(30 + 30 - 30) -> 0x4f761000
 *   ELWADD: 256 + 256 = 512 (0x6000, raw 0x0018), 512 + 256 = 0x6200
 *           (raw 0x4018), 1 + 1 = 0x4000 (0x0010), 65504 + 65504 ->
 *           0x7fff; FP32: 0x44000000, 0x44400000, 0x40000000,
 *           131008 = 0x47ffe000
 */
static void test_elw_fp16(void)
{
    uint16_t a[8 * 16] = { 0x5c00, 0x6000, 0x3c00, 0x7bff };
    uint16_t b[8 * 16] = { 0x5c00, 0x5c00, 0x3c00, 0x7bff };
    static const uint16_t mul16[16] = { 0x001f, 0x7fff, 0x000f, 0x7fff };
    static const uint16_t add16[16] = { 0x0018, 0x4018, 0x0010, 0x7fff };
    static const uint32_t mul32[16] = {
        0x008f0000, 0x00900000, 0x007f0000, 0x769e1000,
    };
    static const uint32_t add32[16] = {
        0x00880000, 0x40880000, 0x00800000, 0x7f8fe000,
    };
    TTTensixCfg *c = tt_tensix_start();

    load_ab(c, TT_FMT_FP16, a, 8, b, 8);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, ELWMUL(0, 0));
    tt_tensix_check_dst16(c, 0, mul16, 1);
    push(c, MATH, ELWADD(0, 0, 0, 8));
    tt_tensix_check_dst16(c, 8, add16, 1);
    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    push(c, MATH, ELWMUL(0, 16));
    tt_tensix_check_dst32(c, 16, mul32);
    push(c, MATH, ELWADD(0, 0, 0, 24));
    tt_tensix_check_dst32(c, 24, add32);
    tt_tensix_end(c);
}

/*
 * SrcB broadcasts of the element-wise instructions (ELWADD.md): mode 1
 * takes column 0 of each SrcB row, mode 2 SrcB row 0 for all 8 rows, mode
 * 3 SrcB[0][0] everywhere.  SrcA is 0, so Dst = SrcB exactly; SrcB[r][c]
 * = 0x3f80 + 16r + c, i.e. Dst16b {man7 = 16r + c, exp 0x7f}.
 */
static void test_broadcast(void)
{
    uint16_t a[8 * 16] = { 0 }, b[8 * 16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 128; i++) {
        b[i] = 0x3f80 + i;
    }
    load_ab(c, TT_FMT_BF16, a, 8, b, 8);
    push(c, MATH, ZEROACC_ALL);
    for (int mode = 0; mode < 4; mode++) {
        push(c, MATH, ELWADD(0, mode, 0, 8 * mode));
    }
    for (int r = 0; r < 8; r++) {
        uint16_t none[16], col[16], row[16], all[16];

        for (int col_i = 0; col_i < 16; col_i++) {
            none[col_i] = (16 * r + col_i) << 8 | 0x7f;
            col[col_i] = (16 * r) << 8 | 0x7f;
            row[col_i] = col_i << 8 | 0x7f;
            all[col_i] = 0x007f;
        }
        tt_tensix_check_dst16(c, r, none, 1);
        tt_tensix_check_dst16(c, 8 + r, col, 1);
        tt_tensix_check_dst16(c, 16 + r, row, 1);
        tt_tensix_check_dst16(c, 24 + r, all, 1);
    }
    tt_tensix_end(c);
}

/*
 * GMPOOL (GMPOOL.md): column max of the 16x16 SrcA block, SrcB row 0 =
 * 1.0 (no scaling), starting from Dst, which reads as minus infinity
 * after ZEROACC; the 3 following rows become 0.  Src values with exponent
 * 0 are +0 (-0 and denormals included); order is sign-magnitude, so the
 * 0x7fc0 "NaN" is above 0x7f80.  Columns:
 *   0 [-3 -1 -2 -5 ...] -> -1.0;  1 all -0 -> +0;  2 [1 0x7f80 0x7fc0
 *   0xff80 0...] -> 0x7fc0;  3 [1 3 2 0...] -> 3.0;  4 [0x0001, -1...]
 *   -> +0;  5 all 0x8001 -> +0;  6 all 0 -> 0;  7 [-inf -2 -inf...] ->
 *   -2.0;  8 10.0 in row 15, -1 elsewhere -> 10.0;  9 0x3f80 + i ->
 *   0x3f8f;  10 0x3f8f - i -> 0x3f8f;  11 all 2.0;  12 0x0080 among
 *   0x8080 -> 0x0080;  13 [-0, 0x8080...] -> +0;  14 all 1.0;
 *   15 [0xff7f, 0xff80...] -> 0xff7f.
 * BF16 Dst16b {sign, man7, exp8}; FP32 Dst keeps it in the high half.
 */
static void test_gmpool(void)
{
    static const uint16_t exp_row[16] = {
        0x807f, 0x0000, 0x40ff, 0x4080, 0x0000, 0x0000, 0x0000, 0x8080,
        0x2082, 0x0f7f, 0x0f7f, 0x0080, 0x0001, 0x0000, 0x007f, 0xfffe,
    };
    static const uint16_t zero16[16];
    static const uint32_t zero32[16];
    uint32_t exp32[16];
    uint16_t a[16 * 16], b[8 * 16] = { 0 };
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        uint16_t *r = &a[16 * i];

        r[0] = i == 0 ? 0xc040 : i == 1 ? 0xbf80 : i == 2 ? 0xc000 : 0xc0a0;
        r[1] = 0x8000;
        r[2] = i == 0 ? 0x3f80 : i == 1 ? 0x7f80 : i == 2 ? 0x7fc0 :
               i == 3 ? 0xff80 : 0;
        r[3] = i == 0 ? 0x3f80 : i == 1 ? 0x4040 : i == 2 ? 0x4000 : 0;
        r[4] = i == 0 ? 0x0001 : 0xbf80;
        r[5] = 0x8001;
        r[6] = 0;
        r[7] = i == 1 ? 0xc000 : 0xff80;
        r[8] = i == 15 ? 0x4120 : 0xbf80;
        r[9] = 0x3f80 + i;
        r[10] = 0x3f8f - i;
        r[11] = 0x4000;
        r[12] = i == 1 ? 0x0080 : 0x8080;
        r[13] = i == 0 ? 0x8000 : 0x8080;
        r[14] = 0x3f80;
        r[15] = i == 0 ? 0xff7f : 0xff80;
        b[i] = 0x3f80;
        exp32[i] = (uint32_t)exp_row[i] << 16;
    }
    load_ab(c, TT_FMT_BF16, a, 16, b, 8);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, TT_ENC_GMPOOL(0, 1, 0, 0, 0));
    tt_tensix_check_dst16(c, 0, exp_row, 1);
    for (int r = 1; r < 4; r++) {
        tt_tensix_check_dst16(c, r, zero16, 1);
    }
    g_assert_cmpint(dst_valid(c, 4), ==, 0);

    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    push(c, MATH, TT_ENC_GMPOOL(0, 1, 0, 0, 8));
    tt_tensix_check_dst32(c, 8, exp32);
    for (int r = 9; r < 12; r++) {
        tt_tensix_check_dst32(c, r, zero32);
    }
    tt_tensix_end(c);
}

/*
 * GMPOOL scales SrcA row i by the exponent of SrcB row 0 column i
 * (GMPOOL.md ReadAndScaleSrc): here 4.0 for row 3, and an exponent of 0
 * (minus infinity) for row 7.  SrcA is 1.0 except column 1 row 5 (8.0),
 * column 2 (-0.5, row 3 -1.0) and column 3 (-1.0, row 7 100.0).  Maxima:
 * 4.0 (row 3 scaled), 8.0 in column 1, -0.5 in column 2 (row 3 became
 * -4.0) and -1.0 in column 3 (row 7 is -inf), as DstBits (Sign,Man7,Exp8).
 */
static void test_gmpool_scaling(void)
{
    uint16_t exp_row[16], a[16 * 16], b[8 * 16] = { 0 };
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        for (int col = 0; col < 16; col++) {
            a[16 * i + col] = 0x3f80;
        }
        a[16 * i + 2] = i == 3 ? 0xbf80 : 0xbf00;
        a[16 * i + 3] = i == 7 ? 0x42c8 : 0xbf80;
        b[i] = i == 3 ? 0x4080 : i == 7 ? 0x0000 : 0x3f80;
        exp_row[i] = 0x0081;
    }
    a[16 * 5 + 1] = 0x4100;
    exp_row[1] = 0x0082;
    exp_row[2] = 0x807e;
    exp_row[3] = 0x807f;
    load_ab(c, TT_FMT_BF16, a, 16, b, 8);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, TT_ENC_GMPOOL(0, 1, 0, 0, 0));
    tt_tensix_check_dst16(c, 0, exp_row, 1);
    tt_tensix_end(c);
}

/*
 * GMPOOL's ArgMax with BF16 in a 32-bit Dst (GMPOOL.md): the maximum in
 * the high half, the index phase and the transformed index of the
 * largest of SrcA's first eight rows in the low half; rows are visited
 * 4-7, 0-3, 8-15 and ties go to the later one.  Column 0 is 1.0 with 8.0
 * in row 5 and 16.0 in row 12: 16.0 with index 7 (row 5 transformed).
 * The other columns are all 1.0: index 1 (row 3, visited last).  A second
 * GMPOOL on the same row advances the phase to 0x100 (the index adds
 * phase >> 4 where it changes: 0x11 in the tied columns) and the three
 * rows below become the advanced phase of what they held.
 */
static void test_gmpool_argmax(void)
{
    uint16_t a[16 * 16], b[8 * 16] = { 0 };
    uint32_t exp[16], rows[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        for (int col = 0; col < 16; col++) {
            a[16 * i + col] = 0x3f80;
        }
        b[i] = 0x3f80;
    }
    a[16 * 5] = 0x4100;
    a[16 * 12] = 0x4180;
    load_ab(c, TT_FMT_BF16, a, 16, b, 8);
    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, TT_ENC_GMPOOL(0, 1, 0, 1, 0));
    for (int col = 0; col < 16; col++) {
        exp[col] = col ? 0x007f0001 : 0x00830007;
        rows[col] = 0;
    }
    tt_tensix_check_dst32(c, 0, exp);
    for (int r = 1; r < 4; r++) {
        tt_tensix_check_dst32(c, r, rows);
    }
    push(c, MATH, TT_ENC_GMPOOL(0, 1, 0, 1, 0));
    for (int col = 0; col < 16; col++) {
        exp[col] = col ? 0x007f0111 : 0x00830107;
        rows[col] = 0x100;
    }
    tt_tensix_check_dst32(c, 0, exp);
    for (int r = 1; r < 4; r++) {
        tt_tensix_check_dst32(c, r, rows);
    }
    tt_tensix_end(c);
}

/*
 * GMPOOL with FP32 Dst starts from the Dst value truncated to TF32
 * (GMPOOL.md ReadDst with DstStyle TF32: 10 mantissa bits), and writes
 * that back even when no SrcA value is larger.  Dst row 0 is first made
 * 0x3f800001 in columns 0 and 1 and 1.0 elsewhere (ELWMUL 1.0 * 1.0, then
 * += 2^-24 * 1.0 in columns 0-1, see elwmul); SrcA rows 16-31 are -1.0
 * except 0x3f81 in row 16 column 2.  Result: 0x3f800000 everywhere but
 * column 2 (0x3f810000).
 */
static void test_gmpool_fp32_truncation(void)
{
    uint16_t a[32 * 16], b[32 * 16] = { 0 };
    uint32_t exp[16];
    static const uint32_t zero[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 512; i++) {
        int r = i / 16, col = i % 16;

        a[i] = r == 0 ? 0x3f80 : r == 8 ? (col < 2 ? 0x3380 : 0) :
               r < 16 ? 0 : (r == 16 && col == 2) ? 0x3f81 : 0xbf80;
    }
    for (int col = 0; col < 16; col++) {
        b[col] = b[8 * 16 + col] = b[16 * 16 + col] = 0x3f80;
        exp[col] = col == 2 ? 0x017f0000 : 0x007f0000;
    }
    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    load_ab(c, TT_FMT_BF16, a, 32, b, 32);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, ELWMUL(0, 0));
    push(c, MATH, SETRWC_AB(8, 8));
    push(c, MATH, ELWMUL(0, 0));
    {
        uint32_t before[16];

        for (int col = 0; col < 16; col++) {
            before[col] = col < 2 ? 0x007f0001 : 0x007f0000;
        }
        tt_tensix_check_dst32(c, 0, before);
    }
    /* SETRWC values are 4 bits: 8, then INCRWC 8 */
    push(c, MATH, SETRWC_AB(8, 8));
    push(c, MATH, TT_ENC_INCRWC(0, 0, 8, 8));
    check_rwc(c, MATH, 16, 16, 0, 0);
    push(c, MATH, TT_ENC_GMPOOL(0, 1, 0, 0, 0));
    tt_tensix_check_dst32(c, 0, exp);
    tt_tensix_check_dst32(c, 1, zero);
    tt_tensix_end(c);
}

/*
 * GAPOOL = MVMUL with 4 output rows (GAPOOL.md).  SrcB row 0 = 2^-4
 * everywhere; SrcA column 0 = 1.0, column 1 = 2.0, column 2 = row index k.
 * Column 0: 16 products 2^-4 -> 1.0; column 1 -> 2.0; column 2: group
 * 0 (k 0-7) 7168 units of 2^-12, group 1 (k 8-15) 11776 units of 2^-11,
 * sum 7.5 (BF16 0x40f0, raw 0x7081).  Rows 1-3 = 0; row 4 not written.
 */
static void test_gapool(void)
{
    static const uint16_t ints[16] = {
        0x0000, 0x3f80, 0x4000, 0x4040, 0x4080, 0x40a0, 0x40c0, 0x40e0,
        0x4100, 0x4110, 0x4120, 0x4130, 0x4140, 0x4150, 0x4160, 0x4170,
    };
    static const uint16_t exp16[16] = { 0x007f, 0x0080, 0x7081 };
    static const uint32_t exp32[16] = { 0x007f0000, 0x00800000, 0x70810000 };
    static const uint16_t zero16[16];
    uint16_t a[16 * 16] = { 0 }, b[8 * 16] = { 0 };
    TTTensixCfg *c = tt_tensix_start();

    for (int k = 0; k < 16; k++) {
        a[16 * k] = 0x3f80;
        a[16 * k + 1] = 0x4000;
        a[16 * k + 2] = ints[k];
        b[k] = 0x3d80;
    }
    load_ab(c, TT_FMT_BF16, a, 16, b, 8);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, TT_ENC_GAPOOL(0, 1, 0, 0, 0));
    tt_tensix_check_dst16(c, 0, exp16, 1);
    for (int r = 1; r < 4; r++) {
        tt_tensix_check_dst16(c, r, zero16, 1);
    }
    g_assert_cmpint(dst_valid(c, 4), ==, 0);
    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    push(c, MATH, TT_ENC_GAPOOL(0, 1, 0, 0, 8));
    tt_tensix_check_dst32(c, 8, exp32);
    tt_tensix_end(c);
}

/*
 * MOVA2D (MOVA2D.md, Move8Rows): SrcA rows src..src+7 to Dst, BF16 as
 * RemoveLowMantissa = {sign, man7, exp8}; exponent-0 values are flushed
 * to 0.  SrcA[r][c] = 0x4000 + 16r + c: rows 0-7 -> (16r + c) << 8 |
 * 0x80, rows 8-15 -> (16r + c - 128) << 8 | 0x81; SrcA[8][15] = 0x0001
 * and SrcA[9][15] = 0x8000 become 0.  AddrMod 1 (DestIncr 8) applies.
 */
static void test_mova2d(void)
{
    uint16_t a[16 * 16], b[8 * 16] = { 0 };
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 256; i++) {
        a[i] = 0x4000 + i;
    }
    a[8 * 16 + 15] = 0x0001;
    a[9 * 16 + 15] = 0x8000;
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_DestIncr, 1, 8);
    load_ab(c, TT_FMT_BF16, a, 16, b, 8);
    push(c, MATH, TT_ENC_MOVA2D(0, 0, 1, 2, 0));
    check_rwc(c, MATH, 0, 0, 8, 0);
    push(c, MATH, TT_ENC_MOVA2D(0, 8, 0, 2, 8));
    for (int r = 0; r < 8; r++) {
        uint16_t lo[16], hi[16];

        for (int col = 0; col < 16; col++) {
            lo[col] = (16 * r + col) << 8 | 0x80;
            hi[col] = (16 * r + col) << 8 | 0x81;
        }
        if (r < 2) {
            hi[15] = 0;
        }
        tt_tensix_check_dst16(c, r, lo, 1);
        /* dst field 8 + RWC Dst 8 */
        tt_tensix_check_dst16(c, 16 + r, hi, 1);
    }
    tt_tensix_end(c);
}

/*
 * MOVB2D (MOVB2D.md): mode 4 moves 4 rows, 5 = 4 rows of column 0
 * broadcast, 2 = one row to 8 rows, 3 = SrcB[row][0] to 8 x 16.
 * SrcB[r][c] = 0x4000 + 16r + c -> Dst16b (16r + c) << 8 | 0x80.
 */
static void test_movb2d(void)
{
    uint16_t a[8 * 16] = { 0 }, b[8 * 16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 128; i++) {
        b[i] = 0x4000 + i;
    }
    load_ab(c, TT_FMT_BF16, a, 8, b, 8);
    push(c, MATH, TT_ENC_MOVB2D(0, 4, 0, 4, 0));
    push(c, MATH, TT_ENC_MOVB2D(0, 0, 0, 5, 4));
    push(c, MATH, TT_ENC_MOVB2D(0, 0, 0, 2, 8));
    push(c, MATH, TT_ENC_MOVB2D(0, 0, 0, 3, 16));
    for (int r = 0; r < 8; r++) {
        uint16_t exp[16];

        for (int col = 0; col < 16; col++) {
            if (r < 4) {
                exp[col] = (16 * (4 + r) + col) << 8 | 0x80;
            } else {
                exp[col] = (16 * (r - 4)) << 8 | 0x80;
            }
        }
        tt_tensix_check_dst16(c, r, exp, 1);
        for (int col = 0; col < 16; col++) {
            exp[col] = col << 8 | 0x80;
        }
        tt_tensix_check_dst16(c, 8 + r, exp, 1);
        for (int col = 0; col < 16; col++) {
            exp[col] = 0x0080;
        }
        tt_tensix_check_dst16(c, 16 + r, exp, 1);
    }
    tt_tensix_end(c);
}

/*
 * MOVD2A / MOVD2B (MOVD2A.md, MOVD2B.md), BF16: ShuffleBF16 turns Dst16b
 * {sign, man7, exp8} back into the Src cell sign << 18 | man7 << 11 |
 * exp8.  Dst rows 0-3 hold SrcB rows 0-3 (MOVB2D), value 0x4000 + 16r +
 * c, so the cells are (16r + c) << 11 | 0x80.  MOVD2A 4 rows to SrcA rows
 * 8-11, MOVD2B 4 rows to SrcB rows 12-15, MOVD2B one row (Dst row 0) to
 * SrcB row 20, leaving row 21 at 0.
 */
static void test_movd2a_movd2b(void)
{
    uint16_t a[8 * 16] = { 0 }, b[32 * 16] = { 0 };
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 64; i++) {
        b[i] = 0x4000 + i;
    }
    load_ab(c, TT_FMT_BF16, a, 8, b, 32);
    push(c, MATH, TT_ENC_MOVB2D(0, 0, 0, 4, 0));
    push(c, MATH, TT_ENC_MOVD2A(0, 8, 0, 2, 0));
    push(c, MATH, TT_ENC_MOVD2B(0, 12, 0, 2, 0));
    push(c, MATH, TT_ENC_MOVD2B(0, 20, 0, 0, 0));
    for (int r = 0; r < 4; r++) {
        uint32_t exp[16];

        for (int col = 0; col < 16; col++) {
            exp[col] = (16 * r + col) << 11 | 0x80;
        }
        tt_tensix_check_src(c, 'A', 0, 8 + r, exp);
        tt_tensix_check_src(c, 'B', 0, 12 + r, exp);
        if (r == 0) {
            static const uint32_t zero[16];

            tt_tensix_check_src(c, 'B', 0, 20, exp);
            tt_tensix_check_src(c, 'B', 0, 21, zero);
        }
    }
    tt_tensix_end(c);
}

/*
 * MOVD2A from 32-bit Dst (MOVD2A.md: UseDst32b with Fp32_enabled or
 * INT8_math_enabled).  An FP16-like SrcA format (FP16, FP8, BFP8a-2a,
 * INT8) takes the datum's high half as Dst16 FP16 bits,
 * ShuffleFP16(DstVal >> 16); the others truncate to BF16,
 * ShuffleBF16(DstVal >> 16).  FP32 0x3c004000 unpacked to Dst32 row 9
 * holds 0x0078 in its high half (sign, man7, exp8), 0xc0a01234 holds
 * 0xa081: FP16 style gives ((x & 0xffe0) << 3) | (x & 0x1f) = 0x318 and
 * 0x50401, BF16 style ((x & 0xff00) << 3) | (x & 0xff) = 0x78 and 0x50081.
 */
static void test_movd2a_dst32_styles(void)
{
    static const uint32_t in[2] = { 0x3c004000, 0xc0a01234 };
    static const struct {
        int fmt, row;
        uint32_t cell[2];
    } cases[] = {
        { TT_FMT_FP16, 8, { 0x318, 0x50401 } },
        { TT_FMT_INT8, 12, { 0x318, 0x50401 } },
        { TT_FMT_BFP8A, 16, { 0x318, 0x50401 } },
        { TT_FMT_BF16, 20, { 0x78, 0x50081 } },
    };
    uint32_t l1[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        l1[i] = in[i & 1];
    }
    tt_tensix_l1_write32(c, L1_A, l1, 16);
    TT_THCFG_SET(c, 0, SRCA_SET_SetOvrdWithAddr, 0);
    tt_tensix_unpack_setup(c, 0, TT_FMT_FP32, TT_FMT_FP32, L1_A, 16, 1, 1,
                           16);
    TT_CFG_SET(c, THCON_SEC0_REG2_Unpack_if_sel_cntx0, 1);
    TT_CFG_SET(c, THCON_SEC0_REG5_Dest_cntx0_address, 16 * (4 + 9));
    push(c, 0, TT_UNPACR(0, 0, 0));
    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    /* the format from the configuration, not from an unpacker's bank */
    TT_THCFG_SET(c, MATH, DISABLE_IMPLIED_SRCA_FMT_Base, 1);
    for (int i = 0; i < ARRAY_SIZE(cases); i++) {
        uint32_t exp[16];

        TT_CFG_SET(c, ALU_FORMAT_SPEC_REG0_SrcA, cases[i].fmt);
        push(c, MATH, TT_ENC_MOVD2A(0, cases[i].row, 0, 0, 9));
        for (int col = 0; col < 16; col++) {
            exp[col] = cases[i].cell[col & 1];
        }
        tt_tensix_check_src(c, 'A', 0, cases[i].row, exp);
    }
    tt_tensix_end(c);
}

/*
 * TRNSPSRCB (TRNSPSRCB.md) transposes SrcB rows 16-31 as a 16x16 matrix;
 * rows 0-15 stay.  SrcB[r][c] = 0x4000 + 16r + c; after it, row 16 column
 * 1 = old [17][0] = 0x4110 (0x08082), row 17 column 0 = old [16][1] =
 * 0x4101 (0x00882).
 */
static void test_trnspsrcb(void)
{
    uint16_t a[8 * 16] = { 0 }, b[32 * 16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 512; i++) {
        b[i] = 0x4000 + i;
    }
    load_ab(c, TT_FMT_BF16, a, 8, b, 32);
    push(c, MATH, TT_ENC_TRNSPSRCB());
    for (int r = 0; r < 32; r++) {
        uint32_t exp[16];

        for (int col = 0; col < 16; col++) {
            int n = r < 16 ? 16 * r + col : 16 * (16 + col) + r - 16;
            uint16_t v = 0x4000 + n;

            exp[col] = (v & 0x7f) << 11 | (v >> 7 & 0xff);
        }
        if (r == 16) {
            g_assert_cmphex(exp[1], ==, 0x08082);
        } else if (r == 17) {
            g_assert_cmphex(exp[0], ==, 0x00882);
        }
        tt_tensix_check_src(c, 'B', 0, r, exp);
    }
    tt_tensix_end(c);
}

/*
 * ZEROACC (ZEROACC.md) only clears DstRowValid.  Blackhole (ttsim
 * src/tensix.cpp, which also starts with every row valid): the 16-row
 * modes take Imm10 as a face within the half of Dst that the thread's
 * offset selects (DEST_ACCESS_CFG_zeroacc_absolute_tile_mode = 0), and
 * UseDst32b with the 16-row mode (mode 5) clears Dst32b rows 16f..16f+15,
 * i.e. DstBits 32f..32f+7 and 32f+16..32f+23 (Dst.md Adj32), or sets them
 * with clear_zero_flags.  The one-row mode adds the thread's offset and
 * Dst RWC, and uses Dst32b rows when Fp32_enabled.  Modes 0 and 1 apply
 * the AddrMod.
 */
static void test_zeroacc(void)
{
    static const struct {
        int row, valid;
    } after_16[] = {
        { 31, 1 }, { 32, 0 }, { 47, 0 }, { 48, 1 },
        { 543, 1 }, { 544, 0 }, { 559, 0 }, { 560, 1 },
    }, after_32[] = {
        { 95, 1 }, { 96, 0 }, { 103, 0 }, { 104, 1 }, { 111, 1 },
        { 112, 0 }, { 119, 0 }, { 120, 1 }, { 127, 1 }, { 128, 1 },
    };
    TTTensixCfg *c = tt_tensix_start();

    g_assert_cmpint(dst_valid(c, 0), ==, 1);
    g_assert_cmpint(dst_valid(c, 1023), ==, 1);

    push(c, MATH, TT_ENC_ZEROACC(1, 0, 0, 0, 2));
    TT_THCFG_SET(c, MATH, DEST_TARGET_REG_CFG_MATH_Offset, 512);
    push(c, MATH, TT_ENC_ZEROACC(1, 0, 0, 0, 2));
    TT_THCFG_SET(c, MATH, DEST_TARGET_REG_CFG_MATH_Offset, 0);
    for (int i = 0; i < ARRAY_SIZE(after_16); i++) {
        g_assert_cmpint(dst_valid(c, after_16[i].row), ==, after_16[i].valid);
    }

    push(c, MATH, TT_ENC_ZEROACC(1, 1, 0, 0, 3));
    for (int i = 0; i < ARRAY_SIZE(after_32); i++) {
        g_assert_cmpint(dst_valid(c, after_32[i].row), ==, after_32[i].valid);
    }
    push(c, MATH, TT_ENC_ZEROACC(1, 1, 1, 0, 3));
    for (int i = 0; i < ARRAY_SIZE(after_32); i++) {
        g_assert_cmpint(dst_valid(c, after_32[i].row), ==, 1);
    }

    /* one row: Dst16b row 5; with Fp32_enabled Dst32b row 9 = DstBits 17 */
    push(c, MATH, TT_ENC_ZEROACC(0, 0, 0, 0, 5));
    g_assert_cmpint(dst_valid(c, 4), ==, 1);
    g_assert_cmpint(dst_valid(c, 5), ==, 0);
    g_assert_cmpint(dst_valid(c, 6), ==, 1);
    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 1);
    push(c, MATH, TT_ENC_ZEROACC(0, 0, 0, 0, 9));
    g_assert_cmpint(dst_valid(c, 9), ==, 1);
    g_assert_cmpint(dst_valid(c, 17), ==, 0);
    g_assert_cmpint(dst_valid(c, 25), ==, 1);
    TT_CFG_SET(c, ALU_ACC_CTRL_Fp32_enabled, 0);

    /* AddrMod 2: DestIncr 16, applied by the 16-row mode (rows 64-79) */
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_DestIncr, 2, 16);
    push(c, MATH, TT_ENC_ZEROACC(1, 0, 0, 2, 4));
    check_rwc(c, MATH, 0, 0, 16, 0);
    g_assert_cmpint(dst_valid(c, 64), ==, 0);
    g_assert_cmpint(dst_valid(c, 79), ==, 0);
    g_assert_cmpint(dst_valid(c, 80), ==, 1);
    /* one row at Imm10 5 + RWC Dst 16 */
    push(c, MATH, TT_ENC_ZEROACC(0, 0, 0, 0, 5));
    g_assert_cmpint(dst_valid(c, 20), ==, 1);
    g_assert_cmpint(dst_valid(c, 21), ==, 0);

    /* half: Imm10 bit 0 selects rows 512-1023 */
    push(c, MATH, TT_ENC_ZEROACC(2, 0, 0, 0, 1));
    g_assert_cmpint(dst_valid(c, 511), ==, 1);
    g_assert_cmpint(dst_valid(c, 512), ==, 0);
    g_assert_cmpint(dst_valid(c, 1023), ==, 0);
    push(c, MATH, ZEROACC_ALL);
    g_assert_cmpint(dst_valid(c, 0), ==, 0);
    g_assert_cmpint(dst_valid(c, 511), ==, 0);
    tt_tensix_end(c);
}

/*
 * ZEROSRC (ZEROSRC.md): SingleBankMatrixUnit clears the matrix unit's
 * current bank of SrcA or SrcB; BothBanks clears both banks; valid bits
 * and bank pointers do not change.
 */
static void test_zerosrc(void)
{
    uint16_t a[8 * 16], b[8 * 16];
    uint32_t one[16], two[16];
    static const uint32_t zero[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 128; i++) {
        a[i] = 0x3f80;
        b[i] = 0x4000;
    }
    for (int i = 0; i < 16; i++) {
        one[i] = 0x0007f;
        two[i] = 0x00080;
    }
    load_ab(c, TT_FMT_BF16, a, 8, b, 8);
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x110110);
    push(c, MATH, TT_ENC_ZEROSRC(0, 1, 0, 1));
    tt_tensix_check_src(c, 'A', 0, 0, zero);
    tt_tensix_check_src(c, 'A', 0, 7, zero);
    tt_tensix_check_src(c, 'B', 0, 0, two);
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x110110);

    /* second pair of banks */
    load_ab(c, TT_FMT_BF16, a, 8, b, 8);
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x300300);
    push(c, MATH, TT_ENC_ZEROSRC(0, 1, 0, 2));
    tt_tensix_check_src(c, 'B', 0, 0, zero);
    tt_tensix_check_src(c, 'B', 1, 0, two);
    tt_tensix_check_src(c, 'A', 1, 0, one);

    push(c, MATH, TT_ENC_ZEROSRC(0, 0, 1, 3));
    tt_tensix_check_src(c, 'A', 1, 0, zero);
    tt_tensix_check_src(c, 'B', 1, 0, zero);
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x300300);
    tt_tensix_end(c);
}

/*
 * Giving banks back to the unpackers: CLEARDVALID (CLEARDVALID.md) and an
 * FPU instruction's FlipSrcA/FlipSrcB (ELWADD.md "Possibly flip source
 * banks") clear the matrix bank's valid bit and flip the matrix bank;
 * SETRWC's FlipSrc leaves the valid bit if CLR_DVALID_Src?_Disable is set
 * but still flips (SETRWC.md).
 */
static void test_cleardvalid(void)
{
    uint16_t a[8 * 16] = { 0 }, b[8 * 16] = { 0 };
    TTTensixCfg *c = tt_tensix_start();

    load_ab(c, TT_FMT_BF16, a, 8, b, 8);
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x110110);
    push(c, MATH, TT_ENC_CLEARDVALID(1, 0));
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x011110);
    push(c, MATH, TT_ENC_CLEARDVALID(2, 0));
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x011011);

    load_ab(c, TT_FMT_BF16, a, 8, b, 8);
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x201201);
    push(c, MATH, TT_ENC_ELWADD(3, 0, 0, 0, 0));
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x000000);

    load_ab(c, TT_FMT_BF16, a, 8, b, 8);
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x110110);
    TT_THCFG_SET(c, MATH, CLR_DVALID_SrcA_Disable, 1);
    push(c, MATH, TT_ENC_SETRWC(3, 0, 0, 0, 0, 0));
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x111011);
    tt_tensix_end(c);
}

/*
 * SETRWC / INCRWC (SETRWC.md, INCRWC.md, RWCs.md; SrcA/SrcB 6 bits, Dst
 * 10 bits): SETRWC sets counter and _Cr, or _Cr + value with the Cr bits;
 * INCRWC adds, or with DstCr adds to Dst_Cr and copies it; the Fidelity
 * bit of SETRWC clears the phase.
 */
static void test_setrwc_incrwc(void)
{
    TTTensixCfg *c = tt_tensix_start();

    push(c, MATH, TT_ENC_SETRWC(0, 0, 5, 3, 2, 7));
    check_rwc(c, MATH, 2, 3, 5, 0);
    push(c, MATH, TT_ENC_INCRWC(0, 4, 8, 1));
    check_rwc(c, MATH, 3, 11, 9, 0);
    /* SrcACr: SrcA = SrcA_Cr (2) + 4 */
    push(c, MATH, TT_ENC_SETRWC(0, 1, 0, 0, 4, 1));
    check_rwc(c, MATH, 6, 11, 9, 0);
    /* SrcBCr: SrcB = SrcB_Cr (3) + 1 */
    push(c, MATH, TT_ENC_SETRWC(0, 2, 0, 1, 0, 2));
    check_rwc(c, MATH, 6, 4, 9, 0);
    /* INCRWC DstCr: Dst_Cr (5) + 3 -> Dst */
    push(c, MATH, TT_ENC_INCRWC(4, 3, 0, 0));
    check_rwc(c, MATH, 6, 4, 8, 0);
    /* SETRWC DstCr: Dst_Cr (8) + 2 */
    push(c, MATH, TT_ENC_SETRWC(0, 4, 2, 0, 0, 4));
    check_rwc(c, MATH, 6, 4, 10, 0);
    /* 6-bit wrap: 6 + 4 * 15 = 66 -> 2; 4 + 4 * 15 = 64 -> 0 */
    for (int i = 0; i < 4; i++) {
        push(c, MATH, TT_ENC_INCRWC(0, 0, 15, 15));
    }
    check_rwc(c, MATH, 2, 0, 10, 0);
    /* fidelity phase via AddrMod 1, then SETRWC's Fidelity bit */
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_FidelityIncr, 1, 1);
    push(c, MATH, TT_ENC_ZEROACC(0, 0, 0, 1, 0));
    push(c, MATH, TT_ENC_ZEROACC(0, 0, 0, 1, 0));
    check_rwc(c, MATH, 2, 0, 10, 2);
    push(c, MATH, TT_ENC_SETRWC(0, 0, 0, 0, 0, 8));
    check_rwc(c, MATH, 2, 0, 10, 0);
    tt_tensix_end(c);
}

/*
 * Every address-modifier feature (RWCs.md ApplyAddrMod; Blackhole
 * selects ADDR_MOD_*_SEC0..7 with 3 bits).  ZEROACC's one-row mode is
 * the carrier (it applies the AddrMod, RWCs.md "Instructions").
 *   AM0 incr:  SrcA += 16, SrcB += 8, Dst += 8
 *   AM1 CR:    SrcA_Cr += 4, SrcB_Cr += 1, Dst_Cr += 2, counters = _Cr
 *   AM2 clear: SrcA, SrcB, Dst and their _Cr = 0
 *   AM3 CToCR: Dst += 3, Dst_Cr = Dst
 *   AM4 FidelityIncr 1;  AM5 FidelityClear
 *   AM6 FidelityIncr 3, SrcA += 63, Dst += 1023 (both wrap: -1)
 *   AM7 SrcB += 63
 */
static void test_addrmod(void)
{
    static const struct {
        int am;
        unsigned srca, srcb, dst, fid;
    } seq[] = {
        { 0, 16, 8, 8, 0 }, { 0, 32, 16, 16, 0 }, { 1, 4, 1, 2, 0 },
        { 1, 8, 2, 4, 0 }, { 0, 24, 10, 12, 0 }, { 2, 0, 0, 0, 0 },
        { 0, 16, 8, 8, 0 }, { 3, 16, 8, 11, 0 }, { 1, 4, 1, 13, 0 },
        { 4, 4, 1, 13, 1 }, { 4, 4, 1, 13, 2 }, { 6, 3, 1, 12, 1 },
        { 7, 3, 0, 12, 1 }, { 5, 3, 0, 12, 0 },
    };
    TTTensixCfg *c = tt_tensix_start();

    TT_THCFG_SET_N(c, MATH, ADDR_MOD_AB_SECn_SrcAIncr, 0, 16);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_AB_SECn_SrcBIncr, 0, 8);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_DestIncr, 0, 8);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_AB_SECn_SrcAIncr, 1, 4);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_AB_SECn_SrcACR, 1, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_AB_SECn_SrcBIncr, 1, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_AB_SECn_SrcBCR, 1, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_DestIncr, 1, 2);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_DestCR, 1, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_AB_SECn_SrcAClear, 2, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_AB_SECn_SrcBClear, 2, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_DestClear, 2, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_DestIncr, 3, 3);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_DestCToCR, 3, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_FidelityIncr, 4, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_FidelityClear, 5, 1);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_FidelityIncr, 6, 3);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_AB_SECn_SrcAIncr, 6, 63);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_DST_SECn_DestIncr, 6, 1023);
    TT_THCFG_SET_N(c, MATH, ADDR_MOD_AB_SECn_SrcBIncr, 7, 63);
    for (int i = 0; i < ARRAY_SIZE(seq); i++) {
        g_test_message("AddrMod %d, step %d", seq[i].am, i);
        push(c, MATH, TT_ENC_ZEROACC(0, 0, 0, seq[i].am, 0));
        check_rwc(c, MATH, seq[i].srca, seq[i].srcb, seq[i].dst, seq[i].fid);
    }
    tt_tensix_end(c);
}

/*
 * FPU instructions wait at the Wait Gate until both SrcA and SrcB matrix
 * banks belong to the matrix unit (ELWADD.md), and later instructions of
 * the same thread wait behind them.  1.0 + 2.0 = 3.0 (Dst16b 0x4080).
 */
static void test_wait_for_valid(void)
{
    uint16_t a[8 * 16] = { 0 }, b[8 * 16] = { 0 };
    static const uint16_t three[16] = {
        0x4080, 0x4080, 0x4080, 0x4080, 0x4080, 0x4080, 0x4080, 0x4080,
        0x4080, 0x4080, 0x4080, 0x4080, 0x4080, 0x4080, 0x4080, 0x4080,
    };
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        a[i] = 0x3f80;
        b[i] = 0x4000;
    }
    tt_tensix_l1_write16(c, L1_A, a, 128);
    tt_tensix_l1_write16(c, L1_B, b, 128);
    tt_tensix_unpack_setup(c, 0, TT_FMT_BF16, TT_FMT_BF16, L1_A, 128, 1, 1,
                           128);
    tt_tensix_unpack_setup(c, 1, TT_FMT_BF16, TT_FMT_BF16, L1_B, 128, 1, 1,
                           128);
    push(c, MATH, ZEROACC_ALL);
    push(c, MATH, ELWADD(0, 0, 0, 0));
    push(c, MATH, TT_ENC_INCRWC(0, 0, 0, 1));
    g_assert_cmpint(dst_valid(c, 0), ==, 0);
    check_rwc(c, MATH, 0, 0, 0, 0);

    push(c, 0, TT_UNPACR(0, 0, 1));
    g_assert_cmpint(dst_valid(c, 0), ==, 0);
    check_rwc(c, MATH, 0, 0, 0, 0);

    push(c, 0, TT_UNPACR(1, 0, 1));
    tt_tensix_check_dst16(c, 0, three, 1);
    check_rwc(c, MATH, 1, 0, 0, 0);
    tt_tensix_end(c);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/tensix-fpu/mvmul-fidelity-fp32",
                   test_mvmul_fidelity_fp32);
    qtest_add_func("/blackhole/tensix-fpu/mvmul-fidelity-bf16",
                   test_mvmul_fidelity_bf16);
    qtest_add_func("/blackhole/tensix-fpu/mvmul-groups", test_mvmul_groups);
    qtest_add_func("/blackhole/tensix-fpu/mvmul-range", test_mvmul_range);
    qtest_add_func("/blackhole/tensix-fpu/mvmul-tf32", test_mvmul_tf32);
    qtest_add_func("/blackhole/tensix-fpu/mvmul-addressing",
                   test_mvmul_addressing);
    qtest_add_func("/blackhole/tensix-fpu/mvmul-int8", test_mvmul_int8);
    qtest_add_func("/blackhole/tensix-fpu/mvmul-srca-wrap",
                   test_mvmul_srca_wrap);
    qtest_add_func("/blackhole/tensix-fpu/mvmul-srca-rewritten",
                   test_mvmul_srca_rewritten);
    qtest_add_func("/blackhole/tensix-fpu/elw-int8", test_elw_int8);
    qtest_add_func("/blackhole/tensix-fpu/elwadd", test_elwadd);
    qtest_add_func("/blackhole/tensix-fpu/elwsub", test_elwsub);
    qtest_add_func("/blackhole/tensix-fpu/elwadd-accumulate",
                   test_elwadd_accumulate);
    qtest_add_func("/blackhole/tensix-fpu/elwmul", test_elwmul);
    qtest_add_func("/blackhole/tensix-fpu/elwmul-fidelity",
                   test_elwmul_fidelity);
    qtest_add_func("/blackhole/tensix-fpu/elwmul-dst-rounding",
                   test_elwmul_dst_rounding);
    qtest_add_func("/blackhole/tensix-fpu/elw-fp16", test_elw_fp16);
    qtest_add_func("/blackhole/tensix-fpu/broadcast", test_broadcast);
    qtest_add_func("/blackhole/tensix-fpu/gmpool", test_gmpool);
    qtest_add_func("/blackhole/tensix-fpu/gmpool-fp32-truncation",
                   test_gmpool_fp32_truncation);
    qtest_add_func("/blackhole/tensix-fpu/gmpool-scaling",
                   test_gmpool_scaling);
    qtest_add_func("/blackhole/tensix-fpu/gmpool-argmax",
                   test_gmpool_argmax);
    qtest_add_func("/blackhole/tensix-fpu/gapool", test_gapool);
    qtest_add_func("/blackhole/tensix-fpu/mova2d", test_mova2d);
    qtest_add_func("/blackhole/tensix-fpu/mova2d-tf32", test_mova2d_tf32);
    qtest_add_func("/blackhole/tensix-fpu/movb2d", test_movb2d);
    qtest_add_func("/blackhole/tensix-fpu/movd2a-movd2b",
                   test_movd2a_movd2b);
    qtest_add_func("/blackhole/tensix-fpu/movd2a-dst32-styles",
                   test_movd2a_dst32_styles);
    qtest_add_func("/blackhole/tensix-fpu/trnspsrcb", test_trnspsrcb);
    qtest_add_func("/blackhole/tensix-fpu/zeroacc", test_zeroacc);
    qtest_add_func("/blackhole/tensix-fpu/zerosrc", test_zerosrc);
    qtest_add_func("/blackhole/tensix-fpu/cleardvalid", test_cleardvalid);
    qtest_add_func("/blackhole/tensix-fpu/setrwc-incrwc",
                   test_setrwc_incrwc);
    qtest_add_func("/blackhole/tensix-fpu/addrmod", test_addrmod);
    qtest_add_func("/blackhole/tensix-fpu/wait-for-valid",
                   test_wait_for_valid);
    return g_test_run();
}
