/*
 * Blackhole Tensix Vector Unit (SFPU): every SFP instruction, from thread
 * 1 of tile (1, 2), and SFPLOADMACRO's scheduled sub-unit instructions
 * (SFPLOADMACRO.md).  LRegs are read through the "tt tensix X Y lreg R"
 * qtest command, Dst through "dst ROW".
 *
 * Expected values were worked out by hand from tenstorrent/
 * tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/<INSTR>.md
 * (WormholeB0 pages where the Blackhole page defers to them),
 * VectorUnit.md, LReg.md, Dst.md and Miscellaneous/FMA/ (fma_model_bh).
 * The FMA vectors are those of the BH model (denormals in and out flushed,
 * a product narrowed to the addend's precision with a sticky bit, an
 * underflowing product taken as zero, canonical NaN).
 *
 * Per-lane inputs are built with SFP instructions themselves: a constant
 * with SFPLOADI (LOWER then UPPER), then each differing lane under a
 * flag condition on LReg15 (= 2 * lane), see set_lanes().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qobject/qdict.h"
#include "tt-qtest-util.h"
#include "tt-tensix-enc.h"      /* generated from data/tensix-isa.yaml */
#include "tt-tensix-config.h"   /* generated from data/tensix-config.yaml */

#define T 1                     /* the thread that runs the tests */
#define N 32                    /* lanes */

#define LOADI(r, m, imm)        TT_ENC_SFPLOADI(r, m, imm)
#define LOAD(r, m, am, a)       TT_ENC_SFPLOAD(r, m, am, a)
#define STORE(r, m, am, a)      TT_ENC_SFPSTORE(r, m, am, a)
#define MAD(a, b, c, d, m)      TT_ENC_SFPMAD(a, b, c, d, m)
#define IADDI(imm, c, d, m)     TT_ENC_SFPIADD((imm) & 0xfff, c, d, m)
#define SHFTI(imm, c, d, m)     TT_ENC_SFPSHFT((imm) & 0xfff, c, d, m)
#define SETCC(c, m)             TT_ENC_SFPSETCC(0, c, 0, m)
#define ENCC(imm, m)            TT_ENC_SFPENCC(imm, 0, 0, m)
#define PUSHC(m)                TT_ENC_SFPPUSHC(0, 0, 0, m)
#define POPC(m)                 TT_ENC_SFPPOPC(0, 0, 0, m)
#define COMPC                   TT_ENC_SFPCOMPC(0, 0, 0, 0)
#define MOV(c, d, m)            TT_ENC_SFPMOV(0, c, d, m)
#define CONFIG(imm, vd, m)      TT_ENC_SFPCONFIG(imm, vd, m)
#define ZEROACC_ALL             TT_ENC_ZEROACC(3, 0, 0, 0, 0)

/* SFPLOAD/SFPSTORE Mod0 (SFPLOAD.md) */
enum {
    SRCB, FP16, BF16, FP32, INT32, INT8, UINT16, HI16, INT16, LO16,
    INT32_ALL, ZERO, INT32_SM, INT8_COMP, LO16_ONLY, HI16_ONLY,
};

static void push(TTTensixCfg *c, uint32_t insn)
{
    tt_tensix_push(c->qts, c->x, c->y, T, insn);
}

static void check_lreg(TTTensixCfg *c, int r, const uint32_t *exp)
{
    g_autofree char *what = g_strdup_printf("LReg%d", r);
    uint32_t got[N];

    tt_tensix_lreg(c->qts, c->x, c->y, r, got);
    tt_check_row(what, got, exp, N);
}

/* LReg[@r] in every lane is @v */
static void check_all(TTTensixCfg *c, int r, uint32_t v)
{
    uint32_t exp[N];

    for (int l = 0; l < N; l++) {
        exp[l] = v;
    }
    check_lreg(c, r, exp);
}

/* Lane flags, flag enable, stack depth */
static void check_cc(TTTensixCfg *c, uint32_t flags, unsigned use,
                     unsigned sp)
{
    unsigned st[3];

    tt_tensix_sfpu(c->qts, c->x, c->y, st);
    g_assert_cmphex(st[0], ==, flags);
    g_assert_cmpuint(st[1], ==, use);
    g_assert_cmpuint(st[2], ==, sp);
}

/* LReg[@r] = @v in the enabled lanes: SFPLOADI LOWER, then UPPER */
static void li(TTTensixCfg *c, int r, uint32_t v)
{
    push(c, LOADI(r, 10, v & 0xffff));
    push(c, LOADI(r, 8, v >> 16));
}

/*
 * LReg[@r] = @v[lane] (@r != 7; LReg7 is scratch): @v[0] everywhere, then
 * each other value under flags = (2 * lane - 2 * l >= 0) && (... - 2 < 0)
 */
static void set_lanes(TTTensixCfg *c, int r, const uint32_t *v)
{
    g_assert(r != 7);
    li(c, r, v[0]);
    for (int l = 1; l < N; l++) {
        if (v[l] == v[0]) {
            continue;
        }
        push(c, PUSHC(0));
        push(c, IADDI(-2 * l, 15, 7, 9));
        push(c, IADDI(-2, 7, 7, 1));
        li(c, r, v[l]);
        push(c, POPC(0));
    }
}

/* The first @n lanes from @v, the others @rest */
static void set_first(TTTensixCfg *c, int r, const uint32_t *v, int n,
                      uint32_t rest)
{
    uint32_t all[N];

    for (int l = 0; l < N; l++) {
        all[l] = l < n ? v[l] : rest;
    }
    set_lanes(c, r, all);
}

/* Check the first @n lanes against @v, the others against @rest */
static void check_first(TTTensixCfg *c, int r, const uint32_t *v, int n,
                        uint32_t rest)
{
    uint32_t all[N];

    for (int l = 0; l < N; l++) {
        all[l] = l < n ? v[l] : rest;
    }
    check_lreg(c, r, all);
}

/* Flags = @mask, flag use on: all lanes enabled, then SETCC NE0 on LReg6 */
static void set_flags(TTTensixCfg *c, uint32_t mask)
{
    uint32_t v[N];

    push(c, ENCC(3, 10));
    for (int l = 0; l < N; l++) {
        v[l] = mask >> l & 1;
    }
    set_lanes(c, 6, v);
    push(c, SETCC(6, 2));
}

static int dst_valid(TTTensixCfg *c, int row)
{
    uint16_t v[16];

    return tt_tensix_dst(c->qts, c->x, c->y, row, v);
}

/* ------------------------------------------------------------ tests -- */

/* LReg.md constants; LReg11-14 and flags as ttsim resets them */
static void test_reset(void)
{
    TTTensixCfg *c = tt_tensix_start();
    uint32_t lane2[N];

    for (int r = 0; r < 8; r++) {
        check_all(c, r, 0);
    }
    check_all(c, 8, 0x3f56594b);
    check_all(c, 9, 0);
    check_all(c, 10, 0x3f800000);
    check_all(c, 11, 0xbf800000);
    check_all(c, 12, 0x3b000000);
    check_all(c, 13, 0xbf2cc4c7);
    check_all(c, 14, 0xbeb08ff9);
    for (int l = 0; l < N; l++) {
        lane2[l] = 2 * l;
    }
    check_lreg(c, 15, lane2);
    check_cc(c, 0xffffffff, 1, 0);
    tt_tensix_end(c);
}

/* SFPLOADI.md: each Mod0, and no write to LReg8 and up */
static void test_loadi(void)
{
    TTTensixCfg *c = tt_tensix_start();

    push(c, LOADI(0, 0, 0xff80));
    check_all(c, 0, 0xff800000);
    push(c, LOADI(1, 1, 0x3c00));       /* FP16 rebiased, no specials */
    check_all(c, 1, 0x3f800000);
    push(c, LOADI(2, 1, 0x0000));
    check_all(c, 2, 0x38000000);
    push(c, LOADI(3, 1, 0x7c00));
    check_all(c, 3, 0x47800000);
    push(c, LOADI(4, 1, 0x8000));
    check_all(c, 4, 0xb8000000);
    push(c, LOADI(5, 2, 0xffff));
    check_all(c, 5, 0x0000ffff);
    push(c, LOADI(6, 4, 0x8000));
    check_all(c, 6, 0xffff8000);
    li(c, 0, 0x11112222);
    push(c, LOADI(0, 8, 0xabcd));
    check_all(c, 0, 0xabcd2222);
    li(c, 1, 0x11112222);
    push(c, LOADI(1, 10, 0xabcd));
    check_all(c, 1, 0x1111abcd);
    push(c, LOADI(8, 0, 0x4000));
    push(c, LOADI(11, 0, 0x4000));
    check_all(c, 8, 0x3f56594b);
    check_all(c, 11, 0xbf800000);
    tt_tensix_end(c);
}

/*
 * The lane layout (SFPLOAD.md, SFPSTORE.md): lane l is row l / 8 of the
 * four-row group, column 2 (l % 8) (+1 for odd); 16-bit rows and 32-bit
 * rows (Dst.md Adj32), row-valid bits, Imm10 + DEST_TARGET_REG_CFG_MATH
 * Offset + RWC Dst, and the partial address modifier after the access.
 */
static void test_lane_mapping(void)
{
    TTTensixCfg *c = tt_tensix_start();
    uint32_t v[N], v32[N], exp32[16];
    uint16_t row[16];
    unsigned rwc[4];

    for (int l = 0; l < N; l++) {
        v[l] = 0xa000 | l;
        v32[l] = l << 16 | l;
    }
    set_lanes(c, 0, v);
    set_lanes(c, 1, v32);
    push(c, ZEROACC_ALL);
    push(c, STORE(0, UINT16, 0, 0));        /* rows 0-3, even columns */
    for (int r = 0; r < 4; r++) {
        for (int k = 0; k < 16; k++) {
            row[k] = k & 1 ? 0 : 0xa000 | (8 * r + k / 2);
        }
        tt_tensix_check_dst16(c, r, row, 1);
    }
    push(c, STORE(0, UINT16, 0, 2));        /* the odd columns */
    for (int r = 0; r < 4; r++) {
        for (int k = 0; k < 16; k++) {
            row[k] = 0xa000 | (8 * r + k / 2);
        }
        tt_tensix_check_dst16(c, r, row, 1);
    }
    g_assert_cmpint(dst_valid(c, 4), ==, 0);
    /*
     * Disabled lanes keep their Dst datum: lanes 1, 8, 9, 30 (a column
     * of row 0's first half, row 1's first two, row 3's last but one)
     * store 0xb0.. in the odd columns of rows 0-3; ZEROACC clears the
     * rows' valid bits, not their datums (0xa0.. from above)
     */
    push(c, ZEROACC_ALL);
    set_flags(c, 1u << 1 | 1u << 8 | 1u << 9 | 1u << 30);
    for (int l = 0; l < N; l++) {
        v32[l] = 0xb000 | l;
    }
    set_lanes(c, 3, v32);
    push(c, STORE(3, UINT16, 0, 2));
    push(c, ENCC(0, 0));
    for (int r = 0; r < 4; r++) {
        for (int k = 0; k < 16; k++) {
            int l = 8 * r + k / 2;

            row[k] = ((k & 1) && (l == 1 || l == 8 || l == 9 || l == 30) ?
                      0xb000 : 0xa000) | l;
        }
        tt_tensix_check_dst16(c, r, row, r != 2);
    }
    g_assert_cmpint(dst_valid(c, 2), ==, 0);    /* no lane stored: not */
    /* and SFPLOAD reads the odd columns back, 0 from the invalid row */
    push(c, LOAD(4, UINT16, 0, 2));
    for (int l = 0; l < N; l++) {
        v32[l] = l / 8 == 2 ? 0 : l == 1 || l == 8 || l == 9 || l == 30 ?
                 0xb000 | l : 0xa000 | l;
    }
    check_lreg(c, 4, v32);
    for (int l = 0; l < N; l++) {
        v32[l] = l << 16 | l;
    }
    set_lanes(c, 1, v32);
    /* Imm10 bit 0 is not used: 9 is rows 8-11, even columns */
    push(c, STORE(0, UINT16, 0, 9));
    for (int k = 0; k < 16; k++) {
        row[k] = k & 1 ? 0 : 0xa000 | (k / 2);
    }
    tt_tensix_check_dst16(c, 8, row, 1);

    /* 32-bit: x << 16 | x stored as DstEncodeFP32 = x << 24 | x */
    push(c, STORE(1, INT32, 0, 16));
    for (int k = 0; k < 16; k++) {
        exp32[k] = k & 1 ? 0 : (uint32_t)(k / 2) << 24 | (k / 2);
    }
    tt_tensix_check_dst32(c, 16, exp32);
    g_assert_cmpint(dst_valid(c, 40), ==, 0);   /* low half's row: not */

    /* base 64, ADDR_MOD 2: Dst += 4 (and fidelity, which SFPSTORE keeps) */
    TT_THCFG_SET(c, T, DEST_TARGET_REG_CFG_MATH_Offset, 64);
    TT_THCFG_SET_N(c, T, ADDR_MOD_DST_SECn_DestIncr, 2, 4);
    TT_THCFG_SET_N(c, T, ADDR_MOD_DST_SECn_FidelityIncr, 2, 1);
    push(c, STORE(0, UINT16, 2, 0));
    push(c, STORE(0, UINT16, 2, 0));
    tt_tensix_rwc(c->qts, c->x, c->y, T, rwc);
    g_assert_cmpuint(rwc[2], ==, 8);
    g_assert_cmpuint(rwc[3], ==, 0);
    for (int k = 0; k < 16; k++) {
        row[k] = k & 1 ? 0 : 0xa000 | (8 + k / 2);
    }
    tt_tensix_check_dst16(c, 65, row, 1);
    tt_tensix_check_dst16(c, 69, row, 1);
    /* and back: 1016 + 64 + 8 wraps to row 64 */
    push(c, LOAD(2, UINT16, 0, 1016));
    check_lreg(c, 2, v);
    tt_tensix_end(c);
}

/* Dst datums of the SFPLOAD format tests, in lanes 0-8 of rows 0, 1 */
static const uint32_t raw16[9] = {
    0x007f, 0x807f, 0x00ff, 0x40ff, 0x000f, 0x0020, 0x7fff, 0x8000, 0xbeef,
};

/* SFPLOAD.md conversions of 16-bit datums (ReadFP16, SignMag*) */
static void test_load_formats(void)
{
    static const uint32_t bf16[9] = {
        0x3f800000, 0xbf800000, 0x7f800000, 0x7fc00000, 0x07800000,
        0x10000000, 0x7fff0000, 0x80000000, 0xf7be0000,
    };
    static const uint32_t fp16[9] = {
        0x47806000, 0xc7806000, 0x4780e000, 0x47c0e000, 0x3f800000,
        0x00002000, 0x47ffe000, 0x80000000, 0xbfbee000,
    };
    static const uint32_t int8[9] = {
        3, 0x80000003, 7, 7, 0, 1, 0xff, 0x80000000, 0x800000f7,
    };
    static const uint32_t int8c[9] = {
        3, 0x80000003, 7, 0x207, 0, 1, 0x3ff, 0x80000000, 0x800001f7,
    };
    static const uint32_t int16[9] = {
        0x7f, 0x8000007f, 0xff, 0x40ff, 0xf, 0x20, 0x7fff, 0x80000000,
        0x80003eef,
    };
    TTTensixCfg *c = tt_tensix_start();
    uint32_t e[9];

    set_first(c, 0, raw16, 9, 0);
    push(c, STORE(0, UINT16, 0, 0));
    push(c, LOAD(1, BF16, 0, 0));
    check_first(c, 1, bf16, 9, 0);
    push(c, LOAD(1, FP16, 0, 0));
    check_first(c, 1, fp16, 9, 0);
    push(c, LOAD(1, INT8, 0, 0));
    check_first(c, 1, int8, 9, 0);
    push(c, LOAD(1, INT8_COMP, 0, 0));
    check_first(c, 1, int8c, 9, 0);
    push(c, LOAD(1, INT16, 0, 0));
    check_first(c, 1, int16, 9, 0);
    push(c, LOAD(1, UINT16, 0, 0));
    check_first(c, 1, raw16, 9, 0);
    push(c, LOAD(1, LO16, 0, 0));
    check_first(c, 1, raw16, 9, 0);
    for (int l = 0; l < 9; l++) {
        e[l] = raw16[l] << 16;
    }
    push(c, LOAD(1, HI16, 0, 0));
    check_first(c, 1, e, 9, 0);
    li(c, 1, 0x12345678);
    push(c, LOAD(1, ZERO, 0, 0));
    check_all(c, 1, 0);
    li(c, 1, 0x12345678);
    push(c, LOAD(1, LO16_ONLY, 0, 0));
    for (int l = 0; l < 9; l++) {
        e[l] = 0x12340000 | raw16[l];
    }
    check_first(c, 1, e, 9, 0x12340000);
    li(c, 1, 0x12345678);
    push(c, LOAD(1, HI16_ONLY, 0, 0));
    for (int l = 0; l < 9; l++) {
        e[l] = raw16[l] << 16 | 0x5678;
    }
    check_first(c, 1, e, 9, 0x5678);

    /* ENABLE_FP16A_INF: exponent 31, mantissa 0x3ff is infinity */
    push(c, CONFIG(0x001, 15, 1));
    memcpy(e, fp16, sizeof(e));
    e[6] = 0x7f800000;
    push(c, LOAD(1, FP16, 0, 0));
    check_first(c, 1, e, 9, 0);
    push(c, CONFIG(0, 15, 1));

    /* Mod0 0 follows SrcB's format: FP16, BF16 */
    TT_CFG_SET(c, ALU_FORMAT_SPEC_REG1_SrcB, TT_FMT_FP16);
    push(c, LOAD(1, SRCB, 0, 0));
    check_first(c, 1, fp16, 9, 0);
    TT_CFG_SET(c, ALU_FORMAT_SPEC_REG1_SrcB, TT_FMT_BFP8);
    push(c, LOAD(1, SRCB, 0, 0));
    check_first(c, 1, bf16, 9, 0);
    /* ... or SFPU_DEST_FMT when enabled (ThreadConfig) */
    TT_THCFG_SET(c, T, SFPU_DEST_FMT_Base, TT_FMT_FP16);
    TT_THCFG_SET(c, T, SFPU_DEST_FMT_Enable, 1);
    push(c, LOAD(1, SRCB, 0, 0));
    check_first(c, 1, fp16, 9, 0);

    /* rows whose valid bit is clear read 0 */
    push(c, ZEROACC_ALL);
    li(c, 1, 0x12345678);
    push(c, LOAD(1, UINT16, 0, 0));
    check_all(c, 1, 0);
    tt_tensix_end(c);
}

/* 32-bit SFPLOAD/SFPSTORE round trips and Mod0 0 with SFPU_Fp32_enabled */
static void test_load_store32(void)
{
    static const uint32_t v[4] = {
        0x3f800000, 0x00010000, 0x80000001, 0x12345678,
    };
    /* DstEncodeFP32: {sign, man7, exp8} over the low 16 bits */
    static const uint32_t dst[16] = {
        0x007f0000, 0, 0x01000000, 0, 0x80000001, 0, 0x34245678,
    };
    TTTensixCfg *c = tt_tensix_start();

    set_first(c, 0, v, 4, 0);
    push(c, STORE(0, INT32, 0, 0));
    tt_tensix_check_dst32(c, 0, dst);
    push(c, LOAD(1, FP32, 0, 0));
    check_first(c, 1, v, 4, 0);
    push(c, LOAD(2, INT32_SM, 0, 0));
    check_first(c, 2, v, 4, 0);
    TT_CFG_SET(c, ALU_ACC_CTRL_SFPU_Fp32_enabled, 1);
    push(c, LOAD(3, SRCB, 0, 0));
    check_first(c, 3, v, 4, 0);
    tt_tensix_end(c);
}

/* SFPSTORE.md ToFP16, ToBF16, ToFP32 and the integer modes, row 0 */
static void test_store_formats(void)
{
    static const struct {
        int mod;
        uint32_t in[8];
        uint16_t out[8];
    } t16[] = {
        { FP16, { 0x3f800000, 0x477fe000, 0x477ff000, 0x47800000,
                  0x7f800000, 0xffc00000, 0x387fffff, 0x80000000 },
                { 0x000f, 0x7ffe, 0x7ffe, 0x001f, 0x7fff, 0xffff, 0x0000,
                  0x8000 } },
        { BF16, { 0x3f80ffff, 0x80400000, 0x7f800001, 0x40490fdb,
                  0xc0000000 },
                { 0x007f, 0x8000, 0x00ff, 0x4980, 0x8080 } },
        { INT16, { 0x80001234, 0x00007fff, 0x0001abcd },
                 { 0x9234, 0x7fff, 0x2bcd } },
        { INT8, { 0x80000005, 0x000000ff, 0 },
                { 0x80b0, 0x1ff0, 0x0010, 0x0010, 0x0010, 0x0010, 0x0010,
                  0x0010 } },
        { UINT16, { 0x1234abcd }, { 0xabcd } },
        { LO16_ONLY, { 0x1234abcd }, { 0xabcd } },
        { HI16_ONLY, { 0x1234abcd }, { 0x1234 } },
        { ZERO, { 0x1234abcd }, { 0 } },
    };
    static const struct {
        int mod;
        uint32_t in[4];
        uint32_t out[4];
    } t32[] = {
        { FP32, { 0x00400000, 0x3f800000, 0x80000001, 0x12345678 },
                { 0, 0x007f0000, 0x80000000, 0x34245678 } },
        { INT32, { 0x00400000 }, { 0x40000000 } },
        { LO16, { 0x12345678 }, { 0x56781234 } },
        { HI16, { 0x12345678 }, { 0x12345678 } },
    };
    TTTensixCfg *c = tt_tensix_start();
    uint16_t row[16];
    uint32_t row32[16];

    for (int i = 0; i < ARRAY_SIZE(t16); i++) {
        set_first(c, 0, t16[i].in, 8, 0);
        push(c, STORE(0, t16[i].mod, 0, 0));
        for (int k = 0; k < 16; k++) {
            row[k] = k & 1 ? 0 : t16[i].out[k / 2];
        }
        tt_tensix_check_dst16(c, 0, row, 1);
    }
    for (int i = 0; i < ARRAY_SIZE(t32); i++) {
        push(c, ZEROACC_ALL);
        set_first(c, 0, t32[i].in, 4, 0);
        push(c, STORE(0, t32[i].mod, 0, 0));
        memset(row32, 0, sizeof(row32));
        for (int k = 0; k < 4; k++) {
            row32[2 * k] = t32[i].out[k];
        }
        tt_tensix_check_dst32(c, 0, row32);
    }
    /* Mod0 0: FP32 with SFPU_Fp32_enabled (denormals flushed) */
    push(c, ZEROACC_ALL);
    TT_CFG_SET(c, ALU_ACC_CTRL_SFPU_Fp32_enabled, 1);
    set_first(c, 0, t32[0].in, 4, 0);
    push(c, STORE(0, SRCB, 0, 0));
    memset(row32, 0, sizeof(row32));
    for (int k = 0; k < 4; k++) {
        row32[2 * k] = t32[0].out[k];
    }
    tt_tensix_check_dst32(c, 0, row32);
    /* ... else FP16 for an FP16 SrcB */
    TT_CFG_SET(c, ALU_ACC_CTRL_SFPU_Fp32_enabled, 0);
    TT_CFG_SET(c, ALU_FORMAT_SPEC_REG1_SrcB, TT_FMT_FP16);
    set_first(c, 0, t16[0].in, 8, 0);
    push(c, STORE(0, SRCB, 0, 0));
    for (int k = 0; k < 16; k++) {
        row[k] = k & 1 ? 0 : t16[0].out[k / 2];
    }
    tt_tensix_check_dst16(c, 0, row, 1);
    tt_tensix_end(c);
}

/* x, y, z, fma_model_bh(x, y, z): Miscellaneous/FMA/ README's cases */
static const uint32_t fma_vec[][4] = {
    { 0x3f800000, 0x3f800000, 0x00000000, 0x3f800000 },
    { 0x00000000, 0x3f800000, 0x80000000, 0x00000000 },
    { 0x80000000, 0x3f800000, 0x80000000, 0x80000000 },
    { 0xbf800000, 0x00000000, 0x00000000, 0x00000000 },
    { 0xbf800000, 0x00000000, 0x80000000, 0x80000000 },
    { 0x00400000, 0x7e800000, 0x00000000, 0x00000000 },  /* DAZ */
    { 0x3f800000, 0x00000001, 0x00000000, 0x00000000 },
    { 0x00800000, 0x3f000000, 0x00000000, 0x00000000 },  /* FTZ */
    { 0x00c00000, 0x3f800000, 0x80800000, 0x00000000 },
    { 0x7f7fffff, 0x40000000, 0x00000000, 0x7f800000 },
    { 0x7f7fffff, 0x40000000, 0xff7fffff, 0x7f800000 },  /* product ovf */
    { 0x7f800000, 0x00000000, 0x00000000, 0x7fc00000 },
    { 0x7f800000, 0x00000001, 0x00000000, 0x7fc00000 },
    { 0x7f800000, 0x3f800000, 0xff800000, 0x7fc00000 },
    { 0xff800000, 0x3f800000, 0xff800000, 0xff800000 },
    { 0x3f800000, 0x3f800000, 0xffc00001, 0x7fc00000 },
    { 0xffffffff, 0x3f800000, 0x00000000, 0x7fc00000 },
    { 0x1c800000, 0x1c800000, 0x00800000, 0x00800000 },  /* underflow */
    { 0x3f800000, 0x3f800000, 0x33800000, 0x3f800000 },  /* tie: even */
    { 0x3f800000, 0x3f800000, 0x34400000, 0x3f800002 },
    { 0x3f800001, 0x3f7fffff, 0xbf800000, 0x33400000 },  /* narrowed */
    { 0x3f800001, 0x3f800001, 0xbf800000, 0x34880000 },  /* sticky */
    { 0x40400000, 0x3eaaaaab, 0xbf800000, 0x33000000 },
    { 0x20000000, 0x1f800000, 0x00000000, 0x00000000 },
    { 0x3caae981, 0x0475fb58, 0x81c43946, 0x80800000 },
    { 0x7e967699, 0x41200000, 0xff800000, 0xff800000 },
    { 0x00000000, 0x00000000, 0x80000005, 0x00000000 },
    { 0x80000000, 0x00000000, 0x80000005, 0x80000000 },
};

/* SFPMAD.md: VD = VA * VB + VC, bit for bit the BH FMA model */
static void test_mad_vectors(void)
{
    TTTensixCfg *c = tt_tensix_start();
    uint32_t x[N] = { 0 }, y[N] = { 0 }, z[N] = { 0 }, d[N] = { 0 };

    for (int l = 0; l < ARRAY_SIZE(fma_vec); l++) {
        x[l] = fma_vec[l][0];
        y[l] = fma_vec[l][1];
        z[l] = fma_vec[l][2];
        d[l] = fma_vec[l][3];
    }
    set_lanes(c, 0, x);
    set_lanes(c, 1, y);
    set_lanes(c, 2, z);
    push(c, MAD(0, 1, 2, 3, 0));
    check_lreg(c, 3, d);
    /* the same through SFPMAD's negations: -(-x) * y - (-z) */
    for (int l = 0; l < N; l++) {
        x[l] ^= 0x80000000;
        z[l] ^= 0x80000000;
    }
    set_lanes(c, 0, x);
    set_lanes(c, 2, z);
    push(c, MAD(0, 1, 2, 4, 3));
    check_lreg(c, 4, d);
    tt_tensix_end(c);
}

/* SFPADD (VA or VB = 1.0), SFPMUL (VC = 0), SFPADDI, SFPMULI */
static void test_mad_family(void)
{
    static const uint32_t ma[4] = {
        0x40000000, 0x40400000, 0x7f7fffff, 0x3fc00000,
    };
    static const uint32_t mb[4] = {
        0x80000000, 0xbf800000, 0x40000000, 0x3fc00000,
    };
    static const uint32_t mul[4] = {        /* -0 product + 0 is +0 */
        0, 0xc0400000, 0x7f800000, 0x40100000,
    };
    static const uint32_t mul_neg[4] = {
        0, 0x40400000, 0xff800000, 0xc0100000,
    };
    static const uint32_t ab[4] = {
        0x3f800000, 0x3f800000, 0x80000000, 0x7f800000,
    };
    static const uint32_t ac[4] = {
        0x33800000, 0x34400000, 0x80000000, 0xff800000,
    };
    static const uint32_t add[4] = {
        0x3f800000, 0x3f800002, 0x80000000, 0x7fc00000,
    };
    static const uint32_t add_neg[4] = {    /* -b - c */
        0xbf800000, 0xbf800002, 0x00000000, 0x7fc00000,
    };
    TTTensixCfg *c = tt_tensix_start();

    set_first(c, 0, ma, 4, 0);
    set_first(c, 1, mb, 4, 0);
    push(c, TT_ENC_SFPMUL(0, 1, 9, 2, 0));
    check_first(c, 2, mul, 4, 0);
    push(c, TT_ENC_SFPMUL(0, 1, 9, 2, 1));
    check_first(c, 2, mul_neg, 4, 0);

    set_first(c, 0, ab, 4, 0);
    set_first(c, 1, ac, 4, 0);
    push(c, TT_ENC_SFPADD(10, 0, 1, 2, 0));
    check_first(c, 2, add, 4, 0);
    push(c, TT_ENC_SFPADD(0, 10, 1, 2, 0));   /* 1.0 as VB */
    check_first(c, 2, add, 4, 0);
    push(c, TT_ENC_SFPADD(10, 0, 1, 2, 3));   /* -1 * 0 - 0 = -0 */
    check_first(c, 2, add_neg, 4, 0x80000000);

    /* SFPADDI / SFPMULI: BF16 immediate (ttsim's vectors, then Mod1 2) */
    li(c, 4, 0x80000000);
    push(c, TT_ENC_SFPADDI(0x3f80, 4, 0));
    check_all(c, 4, 0x3f800000);
    li(c, 4, 0x80000000);
    push(c, TT_ENC_SFPADDI(0x8000, 4, 0));
    check_all(c, 4, 0x80000000);
    push(c, TT_ENC_SFPADDI(0x0000, 4, 0));
    check_all(c, 4, 0x00000000);
    li(c, 4, 0x4f000000);
    push(c, TT_ENC_SFPADDI(0xcf00, 4, 0));
    check_all(c, 4, 0x00000000);
    li(c, 5, 0x80000000);
    push(c, TT_ENC_SFPMULI(0x4000, 5, 0));
    check_all(c, 5, 0x00000000);
    li(c, 5, 0x40400000);
    push(c, TT_ENC_SFPMULI(0xbf80, 5, 0));
    check_all(c, 5, 0xc0400000);
    li(c, 5, 0x3f800000);
    push(c, TT_ENC_SFPADDI(0x4000, 5, 2));     /* 2 - 1 */
    check_all(c, 5, 0x3f800000);
    li(c, 5, 0x40400000);
    push(c, TT_ENC_SFPMULI(0x4000, 5, 2));     /* 2 * -3 */
    check_all(c, 5, 0xc0c00000);
    tt_tensix_end(c);
}

/* SFPMAD INDIRECT_VA / INDIRECT_VD: LReg[LReg7 & 15] per lane */
static void test_mad_indirect(void)
{
    static const uint32_t val[4] = {
        0x3f800000, 0x40000000, 0x40400000, 0x40800000,
    };
    TTTensixCfg *c = tt_tensix_start();
    uint32_t e[N];

    for (int r = 0; r < 4; r++) {
        li(c, r, val[r]);
    }
    push(c, SHFTI(-1, 15, 7, 5));           /* LReg7 = lane */
    li(c, 6, 3);
    push(c, TT_ENC_SFPAND(0, 6, 7, 0));     /* LReg7 = lane & 3 */
    push(c, MAD(9, 10, 9, 4, 4));           /* LReg4 = LReg[lane & 3] */
    for (int l = 0; l < N; l++) {
        e[l] = val[l & 3];
    }
    check_lreg(c, 4, e);
    for (int r = 0; r < 4; r++) {
        li(c, r, 0);
    }
    push(c, MAD(10, 10, 9, 5, 8));          /* LReg[lane & 3] = 1.0 */
    for (int r = 0; r < 4; r++) {
        for (int l = 0; l < N; l++) {
            e[l] = (l & 3) == r ? 0x3f800000 : 0;
        }
        check_lreg(c, r, e);
    }
    check_all(c, 5, 0);
    tt_tensix_end(c);
}

/* SFPIADD, SFPSHFT, SFPAND/OR/XOR/NOT, SFPLZ, SFPABS, SFPMUL24 */
static void test_integer(void)
{
    static const uint32_t lz_in[4] = { 0, 1, 0x80000000, 0x00010000 };
    static const uint32_t lz[4] = { 32, 31, 0, 15 };
    static const uint32_t lz_nosgn[4] = { 32, 31, 32, 15 };
    static const uint32_t abs_in[9] = {
        0x80000000, 0xbf800000, 0xff800000, 0xff800001, 0xffc00000,
        0x7fc00000, 0xffffffff, 0x80000001, 0x00000005,
    };
    static const uint32_t abs_fp[9] = {
        0, 0x3f800000, 0x7f800000, 0xff800001, 0xffc00000, 0x7fc00000,
        0xffffffff, 0x00000001, 5,
    };
    static const uint32_t abs_int[9] = {
        0x80000000, 0x40800000, 0x00800000, 0x007fffff, 0x00400000,
        0x7fc00000, 1, 0x7fffffff, 5,
    };
    TTTensixCfg *c = tt_tensix_start();

    li(c, 0, 0x7fffffff);
    push(c, IADDI(1, 0, 1, 1));             /* + 1, flags = (< 0) */
    check_all(c, 1, 0x80000000);
    check_cc(c, 0xffffffff, 1, 0);
    li(c, 2, 0);
    push(c, IADDI(0xfff, 2, 2, 5));         /* - 1, flags kept */
    check_all(c, 2, 0xffffffff);
    push(c, IADDI(0, 0, 2, 9));             /* flags = (>= 0) */
    check_cc(c, 0xffffffff, 1, 0);
    li(c, 5, 5);
    li(c, 3, 7);
    push(c, IADDI(0, 5, 3, 6));             /* VC - VD, no flags */
    check_all(c, 3, 0xfffffffe);
    li(c, 3, 7);
    push(c, IADDI(0, 5, 3, 0));             /* VC + VD, flags = (< 0) */
    check_all(c, 3, 12);
    check_cc(c, 0, 1, 0);
    push(c, ENCC(0, 0));

    li(c, 0, 1);
    push(c, SHFTI(31, 0, 0, 1));
    check_all(c, 0, 0x80000000);
    li(c, 1, 0x80000000);
    push(c, SHFTI(-31, 1, 1, 1));           /* logical */
    check_all(c, 1, 1);
    li(c, 1, 0x80000000);
    push(c, SHFTI(-31, 1, 1, 3));           /* arithmetic */
    check_all(c, 1, 0xffffffff);
    li(c, 2, 0x0000f00f);
    li(c, 3, 4);
    push(c, SHFTI(0, 3, 2, 0));             /* VD << VC */
    check_all(c, 2, 0x000f00f0);
    li(c, 3, 32);                           /* amounts mod 32 */
    push(c, SHFTI(0, 3, 2, 0));
    check_all(c, 2, 0x000f00f0);
    push(c, SHFTI(-4, 2, 4, 5));            /* VC >> 4 into VD */
    check_all(c, 4, 0x0000f00f);

    li(c, 0, 0xf0f0f0f0);
    li(c, 1, 0xff00ff00);
    push(c, TT_ENC_SFPAND(0, 1, 2, 1));     /* VB (LReg0) & VC */
    check_all(c, 2, 0xf000f000);
    push(c, TT_ENC_SFPOR(0, 1, 2, 1));
    check_all(c, 2, 0xfff0fff0);
    li(c, 3, 0xf0f0f0f0);
    push(c, TT_ENC_SFPXOR(0, 1, 3, 0));
    check_all(c, 3, 0x0ff00ff0);
    push(c, TT_ENC_SFPAND(0, 1, 3, 0));     /* VD & VC */
    check_all(c, 3, 0x0f000f00);
    push(c, TT_ENC_SFPNOT(0, 0, 4, 0));
    check_all(c, 4, 0x0f0f0f0f);

    set_first(c, 0, lz_in, 4, 0);
    push(c, TT_ENC_SFPLZ(0, 0, 1, 0));
    check_first(c, 1, lz, 4, 32);
    push(c, TT_ENC_SFPLZ(0, 0, 1, 4));
    check_first(c, 1, lz_nosgn, 4, 32);
    push(c, TT_ENC_SFPLZ(0, 0, 1, 2));      /* flags = (VC != 0) */
    check_cc(c, 0xe, 1, 0);
    push(c, ENCC(0, 0));
    push(c, TT_ENC_SFPLZ(0, 0, 1, 6));
    check_cc(c, 0xa, 1, 0);
    push(c, ENCC(0, 0));
    push(c, TT_ENC_SFPLZ(0, 0, 1, 10));     /* inverted */
    check_cc(c, 0xfffffff1, 1, 0);
    push(c, ENCC(0, 0));

    set_first(c, 0, abs_in, 9, 0);
    push(c, TT_ENC_SFPABS(0, 0, 1, 1));
    check_first(c, 1, abs_fp, 9, 0);
    push(c, TT_ENC_SFPABS(0, 0, 1, 0));
    check_first(c, 1, abs_int, 9, 0);

    li(c, 0, 0x7fffff);
    push(c, TT_ENC_SFPMUL24(0, 0, 9, 1, 0));
    check_all(c, 1, 0x000001);
    push(c, TT_ENC_SFPMUL24(0, 0, 9, 1, 1));
    check_all(c, 1, 0x7ffffe);
    li(c, 0, 0x80000003);
    li(c, 2, 5);
    push(c, TT_ENC_SFPMUL24(0, 2, 9, 1, 0));
    check_all(c, 1, 0x00000f);
    tt_tensix_end(c);
}

/* SFPCAST: SM32 -> FP32 round to nearest even, INT32 <-> SM32, abs */
static void test_cast(void)
{
    static const uint32_t in[9] = {
        0, 0x80000000, 1, 0x80000001, 0x7fffffff, 0x01000001, 0x01000003,
        0x7fffffbf, 0x7fffffc0,
    };
    static const uint32_t rne[9] = {
        0, 0x80000000, 0x3f800000, 0xbf800000, 0x4f000000, 0x4b800000,
        0x4b800002, 0x4effffff, 0x4f000000,
    };
    static const uint32_t ii_in[5] = {
        0xffffffff, 0x80000001, 0x80000000, 0xfffffffb, 0x80000005,
    };
    static const uint32_t ii[5] = {
        0x80000001, 0xffffffff, 0x80000000, 0x80000005, 0xfffffffb,
    };
    static const uint32_t iabs[5] = {
        1, 0x7fffffff, 0x80000000, 5, 0x7ffffffb,
    };
    TTTensixCfg *c = tt_tensix_start();

    set_first(c, 0, in, 9, 0);
    push(c, TT_ENC_SFPCAST(0, 1, 0));
    check_first(c, 1, rne, 9, 0);
    set_first(c, 0, ii_in, 5, 0);
    push(c, TT_ENC_SFPCAST(0, 1, 3));
    check_first(c, 1, ii, 5, 0);
    push(c, TT_ENC_SFPCAST(0, 1, 2));
    check_first(c, 1, iabs, 5, 0);
    tt_tensix_end(c);
}

/* One step of a lane's PRNG (VectorUnit.md "PRNG") */
static uint32_t prng_step(uint32_t r)
{
    uint32_t taps = __builtin_popcount(r & 0x80200003);

    return (~taps << 31) | (r >> 1);
}

/*
 * Each lane's PRNG after writing @seed to PRNG_SEED_Seed_Val: ttsim's
 * seeding (32 steps, then every second state, lane 31 first)
 */
static void prng_seeded(uint32_t seed, uint32_t *state)
{
    for (int i = 0; i < 32; i++) {
        seed = prng_step(seed);
    }
    for (int i = 0; i < N; i++) {
        seed = prng_step(prng_step(seed));
        state[N - 1 - i] = seed;
    }
}

/*
 * SFPCAST stochastic rounding (DOC-only mode): 2^30 + 32 needs 7 bits
 * rounded away with the 7 discarded bits 0x40 (a quarter), so it rounds
 * up when the PRNG's bits 15:9 are below 32: about 25% of the time
 */
static void test_cast_stochastic(void)
{
    TTTensixCfg *c = tt_tensix_start();
    uint32_t state[N], first[N], v[N];
    int up = 0, total = 0;

    TT_CFG_SET(c, PRNG_SEED_Seed_Val, 0x1234567);
    prng_seeded(0x1234567, state);
    li(c, 0, 0x40000020);
    push(c, TT_ENC_SFPCAST(0, 1, 1));
    for (int l = 0; l < N; l++) {
        uint32_t bits = state[l] >> 9 & 0xfe;

        first[l] = 0x4e800000 + (0x40 > bits);
        state[l] = prng_step(state[l]);
    }
    check_lreg(c, 1, first);
    for (int i = 0; i < 40; i++) {
        push(c, TT_ENC_SFPCAST(0, 1, 1));
        tt_tensix_lreg(c->qts, c->x, c->y, 1, v);
        for (int l = 0; l < N; l++) {
            g_assert(v[l] == 0x4e800000 || v[l] == 0x4e800001);
            up += v[l] & 1;
            total++;
        }
    }
    g_assert_cmpint(up, >, total / 8);
    g_assert_cmpint(up, <, total * 3 / 8);
    tt_tensix_end(c);
}

/* SFPDIVP2, SFPEXEXP, SFPEXMAN, SFPSETEXP, SFPSETMAN, SFPSETSGN */
static void test_exp_man(void)
{
    static const uint32_t dv_in[5] = {
        0x3f800000, 0x00000000, 0x7f000000, 0x7f800000, 0x7fc00001,
    };
    static const uint32_t dv_add1[5] = {
        0x40000000, 0x00800000, 0x7f800000, 0x7f800000, 0x7fc00001,
    };
    static const uint32_t ex_in[7] = {
        0x3f800000, 0x3f000000, 0x00000000, 0x00000001, 0x7f800000,
        0x7fc00000, 0x80000000,
    };
    static const uint32_t ex[7] = {
        0, 0xffffffff, 0xffffff81, 0xffffff81, 128, 128, 0xffffff81,
    };
    TTTensixCfg *c = tt_tensix_start();
    uint32_t e[7];

    set_first(c, 0, dv_in, 5, 0);
    push(c, TT_ENC_SFPDIVP2(1, 0, 1, 1));
    check_first(c, 1, dv_add1, 5, 0x00800000);
    li(c, 0, 0x7f000000);
    push(c, TT_ENC_SFPDIVP2(2, 0, 1, 1));  /* wraps */
    check_all(c, 1, 0);
    li(c, 0, 0x3fc00000);
    push(c, TT_ENC_SFPDIVP2(0x81, 0, 1, 1));   /* 1.5 * 2^-127 */
    check_all(c, 1, 0x00400000);
    li(c, 0, 0xbfc00000);
    push(c, TT_ENC_SFPDIVP2(0x80, 0, 1, 0));   /* exponent := 0x80 */
    check_all(c, 1, 0xc0400000);

    set_first(c, 0, ex_in, 7, 0);
    push(c, TT_ENC_SFPEXEXP(0, 0, 1, 0));
    check_first(c, 1, ex, 7, 0xffffff81);
    push(c, TT_ENC_SFPEXEXP(0, 0, 1, 1));   /* no debias */
    for (int l = 0; l < 7; l++) {
        e[l] = ex[l] + 127;
    }
    check_first(c, 1, e, 7, 0);
    push(c, TT_ENC_SFPEXEXP(0, 0, 1, 2));   /* flags = (< 0) */
    check_cc(c, 0xffffffce, 1, 0);
    push(c, ENCC(0, 0));
    push(c, TT_ENC_SFPEXEXP(0, 0, 1, 10));  /* flags = (>= 0) */
    check_cc(c, 0x00000031, 1, 0);
    push(c, ENCC(0, 0));

    li(c, 0, 0);
    push(c, TT_ENC_SFPEXMAN(0, 0, 1, 0));
    check_all(c, 1, 0x00800000);
    li(c, 0, 0xbfc00000);
    push(c, TT_ENC_SFPEXMAN(0, 0, 1, 0));
    check_all(c, 1, 0x00c00000);
    push(c, TT_ENC_SFPEXMAN(0, 0, 1, 1));
    check_all(c, 1, 0x00400000);

    li(c, 0, 0x3fc00000);
    push(c, TT_ENC_SFPSETEXP(0x80, 0, 1, 1));
    check_all(c, 1, 0x40400000);
    li(c, 0, 0xbfc00000);
    li(c, 1, 0x40800000);
    push(c, TT_ENC_SFPSETEXP(0, 0, 1, 2));  /* VD's exponent */
    check_all(c, 1, 0xc0c00000);
    li(c, 0, 0x3fc00000);
    li(c, 1, 0x181);
    push(c, TT_ENC_SFPSETEXP(0, 0, 1, 0));  /* VD's low 8 bits */
    check_all(c, 1, 0x40c00000);

    li(c, 0, 0x3f800000);
    push(c, TT_ENC_SFPSETMAN(0x800, 0, 1, 1));
    check_all(c, 1, 0x3fc00000);
    li(c, 1, 0x12345678);
    push(c, TT_ENC_SFPSETMAN(0, 0, 1, 0));
    check_all(c, 1, 0x3fb45678);

    push(c, TT_ENC_SFPSETSGN(1, 0, 1, 1));
    check_all(c, 1, 0xbf800000);
    li(c, 0, 0x40000000);
    li(c, 1, 0xc0400000);
    push(c, TT_ENC_SFPSETSGN(0, 0, 1, 0));  /* VD's sign */
    check_all(c, 1, 0xc0000000);
    li(c, 0, 0xffc00000);
    push(c, TT_ENC_SFPSETSGN(0, 0, 1, 1));
    check_all(c, 1, 0x7fc00000);
    tt_tensix_end(c);
}

/* SFPSETCC.md on -0, +0, +NaN, -NaN, 1 (rest 0) */
static void test_setcc(void)
{
    static const uint32_t in[5] = {
        0x80000000, 0, 0x7fc00000, 0xffc00000, 1,
    };
    TTTensixCfg *c = tt_tensix_start();

    set_first(c, 0, in, 5, 0);
    push(c, SETCC(0, 0));
    check_cc(c, 0x9, 1, 0);                 /* LT0: -0 and -NaN too */
    push(c, ENCC(0, 0));
    push(c, SETCC(0, 2));
    check_cc(c, 0x1d, 1, 0);                /* NE0 */
    push(c, ENCC(0, 0));
    push(c, SETCC(0, 4));
    check_cc(c, 0xfffffff6, 1, 0);          /* GTE0 */
    push(c, ENCC(0, 0));
    push(c, SETCC(0, 6));
    check_cc(c, 0xffffffe2, 1, 0);          /* EQ0 */
    push(c, ENCC(0, 0));
    push(c, TT_ENC_SFPSETCC(0, 0, 0, 1));   /* Imm1 = 0 */
    check_cc(c, 0, 1, 0);
    push(c, ENCC(0, 0));
    push(c, TT_ENC_SFPSETCC(1, 0, 0, 1));
    check_cc(c, 0xffffffff, 1, 0);
    push(c, SETCC(0, 8));                   /* clear */
    check_cc(c, 0, 1, 0);
    /* SFPENCC: flags from Imm2 bit 1, enable from bit 0 */
    push(c, ENCC(2, 10));
    check_cc(c, 0xffffffff, 0, 0);
    push(c, ENCC(0, 8));
    check_cc(c, 0, 0, 0);
    push(c, ENCC(0, 1));                    /* invert the enable */
    check_cc(c, 0xffffffff, 1, 0);
    /* with flags not in use SETCC clears every flag (ttsim stops) */
    push(c, ENCC(0, 2));
    push(c, SETCC(0, 4));
    check_cc(c, 0, 0, 0);
    push(c, ENCC(3, 10));
    check_cc(c, 0xffffffff, 1, 0);
    tt_tensix_end(c);
}

/*
 * Predication: disabled lanes keep their values, a flag write in a
 * disabled lane does nothing (nested conditions AND), and the if / else /
 * endif mapping of SFPPUSHC / SFPCOMPC / SFPPOPC
 */
static void test_predication(void)
{
    static const uint32_t in[6] = {
        0xbf800000, 0, 0x80000000, 0x7fc00000, 0xffc00000, 0x40000000,
    };
    TTTensixCfg *c = tt_tensix_start();
    uint32_t e[N], v[N] = { 5, 0, 0, 0, 5 };

    set_first(c, 0, in, 6, 0x3f800000);
    li(c, 1, 0xaaaa);
    push(c, PUSHC(0));
    check_cc(c, 0xffffffff, 1, 1);
    push(c, SETCC(0, 0));                   /* if (x < 0) */
    check_cc(c, 0x15, 1, 1);
    push(c, LOADI(1, 2, 0x1111));
    push(c, COMPC);                         /* else */
    check_cc(c, 0xffffffea, 1, 1);
    push(c, LOADI(1, 2, 0x2222));
    push(c, POPC(0));                       /* endif */
    check_cc(c, 0xffffffff, 1, 0);
    for (int l = 0; l < N; l++) {
        e[l] = l == 0 || l == 2 || l == 4 ? 0x1111 : 0x2222;
    }
    check_lreg(c, 1, e);

    /* nested: (x < 0) && (LReg2 != 0) */
    set_lanes(c, 2, v);
    push(c, PUSHC(0));
    push(c, SETCC(0, 0));
    push(c, SETCC(2, 2));
    check_cc(c, 0x11, 1, 1);
    li(c, 3, 0);
    push(c, LOADI(3, 2, 7));
    push(c, POPC(0));
    for (int l = 0; l < N; l++) {
        e[l] = l == 0 || l == 4 ? 7 : 0;
    }
    check_lreg(c, 3, e);
    /* an integer condition narrows the same way (SFPIADD's flags) */
    push(c, PUSHC(0));
    push(c, SETCC(0, 0));
    push(c, IADDI(-1, 2, 4, 1));            /* && (LReg2 - 1 < 0) */
    check_cc(c, 0x04, 1, 1);
    push(c, POPC(0));
    check_cc(c, 0xffffffff, 1, 0);
    tt_tensix_end(c);
}

/* Blackhole SFPPUSHC/SFPPOPC Mod1 1-15: BooleanOp on the stack top */
static void test_stack_ops(void)
{
    TTTensixCfg *c = tt_tensix_start();

    set_flags(c, 0x0f0f);
    push(c, PUSHC(0));                      /* top = 0x0f0f */
    set_flags(c, 0x3333);
    push(c, PUSHC(3));                      /* top = top & flags */
    push(c, POPC(0));
    check_cc(c, 0x0303, 1, 0);
    set_flags(c, 0x0f0f);
    push(c, PUSHC(0));
    set_flags(c, 0x3333);
    push(c, PUSHC(11));                     /* top = top != flags */
    push(c, POPC(4));                       /* peek: flags |= top */
    check_cc(c, 0x3f3f, 1, 1);
    push(c, POPC(13));                      /* flags = !flags */
    check_cc(c, 0xffffc0c0, 1, 1);
    push(c, POPC(1));                       /* flags = top */
    check_cc(c, 0x3c3c, 1, 1);
    push(c, POPC(15));                      /* constants */
    check_cc(c, 0, 1, 1);
    push(c, PUSHC(14));                     /* top = {true, true} */
    push(c, POPC(0));
    check_cc(c, 0xffffffff, 1, 0);
    set_flags(c, 0x00ff);
    push(c, PUSHC(0));
    push(c, PUSHC(13));                     /* invert, then top = it */
    check_cc(c, 0xffffff00, 1, 1);
    push(c, POPC(0));
    check_cc(c, 0xffffff00, 1, 0);
    tt_tensix_end(c);
}

/* SFPGT / SFPLE: the total order, into VD, the flags and the stack top */
static void test_gt_le(void)
{
    static const uint32_t d[6] = {
        0x80000000, 0x00000000, 0xffc00000, 0x7fc00000, 0x80000000,
        0x7fc00000,
    };
    static const uint32_t cv[6] = {
        0x00000000, 0x80000000, 0xff800000, 0x7f800000, 0x80000001,
        0x3f800000,
    };
    static const uint32_t gt[6] = {
        0, 0xffffffff, 0, 0xffffffff, 0xffffffff, 0xffffffff,
    };
    TTTensixCfg *c = tt_tensix_start();
    uint32_t le[6];

    set_first(c, 1, cv, 6, 0);
    set_first(c, 0, d, 6, 0);
    push(c, TT_ENC_SFPGT(0, 1, 0, 8));
    check_first(c, 0, gt, 6, 0);
    set_first(c, 0, d, 6, 0);
    push(c, TT_ENC_SFPLE(0, 1, 0, 8));
    for (int l = 0; l < 6; l++) {
        le[l] = ~gt[l];
    }
    check_first(c, 0, le, 6, 0xffffffff);
    set_first(c, 0, d, 6, 0);
    push(c, ENCC(0, 0));
    push(c, TT_ENC_SFPGT(0, 1, 0, 1));
    check_cc(c, 0x3a, 1, 0);
    push(c, ENCC(0, 0));
    push(c, PUSHC(0));
    push(c, TT_ENC_SFPGT(0, 1, 0, 2));      /* top &= (d > c) */
    check_cc(c, 0xffffffff, 1, 1);
    push(c, POPC(0));
    check_cc(c, 0x3a, 1, 0);
    push(c, ENCC(1, 10));                   /* flags 0, in use */
    push(c, PUSHC(0));
    push(c, TT_ENC_SFPLE(0, 1, 0, 6));      /* top |= (d <= c) */
    push(c, POPC(0));
    check_cc(c, 0xffffffc5, 1, 0);
    tt_tensix_end(c);
}

/* SFPSWAP: swap, min/max per lane group, EXCHANGE_SRCB_SRCC, argmax */
static void test_swap(void)
{
    static const uint32_t vd[4] = {
        0x00000000, 0x7fc00000, 0x80000000, 0x3f800000,
    };
    static const uint32_t vc[4] = {
        0x80000000, 0x7f800000, 0x80000001, 0x7fc00000,
    };
    static const uint32_t min[4] = {
        0x80000000, 0x7f800000, 0x80000001, 0x3f800000,
    };
    static const uint32_t max[4] = {
        0x00000000, 0x7fc00000, 0x80000000, 0x7fc00000,
    };
    TTTensixCfg *c = tt_tensix_start();
    uint32_t a[N], b[N], ea[N], eb[N];

    set_first(c, 0, vd, 4, 0);
    set_first(c, 1, vc, 4, 0);
    push(c, TT_ENC_SFPSWAP(0, 1, 0, 1));    /* VD = min, VC = max */
    check_first(c, 0, min, 4, 0);
    check_first(c, 1, max, 4, 0);
    push(c, TT_ENC_SFPSWAP(0, 1, 0, 0));    /* plain swap */
    check_first(c, 1, min, 4, 0);
    check_first(c, 0, max, 4, 0);
    /* EXCHANGE_SRCB_SRCC inverts: VD = max */
    set_first(c, 0, vd, 4, 0);
    set_first(c, 1, vc, 4, 0);
    push(c, CONFIG(0x100, 15, 1));
    push(c, TT_ENC_SFPSWAP(0, 1, 0, 1));
    check_first(c, 0, max, 4, 0);
    check_first(c, 1, min, 4, 0);
    push(c, CONFIG(0, 15, 1));

    /* Mod1 2: lanes 0-15 VD = min, 16-31 VD = max; 3: 0x00ff00ff */
    for (int l = 0; l < N; l++) {
        a[l] = l;
        b[l] = 31 - l;
    }
    set_lanes(c, 0, a);
    set_lanes(c, 1, b);
    push(c, TT_ENC_SFPSWAP(0, 1, 0, 2));
    for (int l = 0; l < N; l++) {
        uint32_t lo = MIN(l, 31 - l), hi = MAX(l, 31 - l);

        ea[l] = l < 16 ? lo : hi;
        eb[l] = l < 16 ? hi : lo;
    }
    check_lreg(c, 0, ea);
    check_lreg(c, 1, eb);
    set_lanes(c, 0, a);
    set_lanes(c, 1, b);
    push(c, TT_ENC_SFPSWAP(0, 1, 0, 3));
    for (int l = 0; l < N; l++) {
        uint32_t lo = MIN(l, 31 - l), hi = MAX(l, 31 - l);
        bool vdmin = (0x00ff00ffu >> l) & 1;

        ea[l] = vdmin ? lo : hi;
        eb[l] = vdmin ? hi : lo;
    }
    check_lreg(c, 0, ea);
    check_lreg(c, 1, eb);

    /*
     * argmax (ENABLE_DEST_INDEX): LReg4/LReg5 follow LReg0/LReg1; with
     * Mod1 9 (VD = max) equal keys swap too
     */
    for (int l = 0; l < N; l++) {
        a[l] = l < 16 ? 3 : 7;
        b[l] = l < 8 ? 1 : l < 16 ? 5 : 7;
    }
    set_lanes(c, 0, a);
    set_lanes(c, 1, b);
    li(c, 4, 100);
    li(c, 5, 200);
    push(c, CONFIG(0x4, 15, 1));
    push(c, TT_ENC_SFPSWAP(0, 1, 0, 9));    /* LReg0 = max */
    for (int l = 0; l < N; l++) {
        bool sw = b[l] >= a[l];

        ea[l] = sw ? b[l] : a[l];
        eb[l] = sw ? 200 : 100;
    }
    check_lreg(c, 0, ea);
    check_lreg(c, 4, eb);
    for (int l = 0; l < N; l++) {
        eb[l] = eb[l] == 100 ? 200 : 100;
    }
    check_lreg(c, 5, eb);
    tt_tensix_end(c);
}

/* LReg@r = 256 r + 2 lane (SFPIADD on LReg15), r = 0..7 */
static void fill_distinct(TTTensixCfg *c)
{
    for (int r = 0; r < 8; r++) {
        push(c, IADDI(256 * r, 15, r, 5));
    }
}

/* SFPTRANSP: each column's 4 x 4 blocks transposed; twice = identity */
static void test_transp(void)
{
    TTTensixCfg *c = tt_tensix_start();
    uint32_t e[N];

    fill_distinct(c);
    push(c, TT_ENC_SFPTRANSP(0, 0, 0, 0));
    for (int r = 0; r < 8; r++) {
        int base = r & 4, i = r & 3;

        for (int l = 0; l < N; l++) {
            /* LReg[base + i][8 j + col] = old LReg[base + j][8 i + col] */
            e[l] = 256 * (base + l / 8) + 2 * (8 * i + (l & 7));
        }
        check_lreg(c, r, e);
    }
    push(c, TT_ENC_SFPTRANSP(0, 0, 0, 0));
    for (int r = 0; r < 8; r++) {
        for (int l = 0; l < N; l++) {
            e[l] = 256 * r + 2 * l;
        }
        check_lreg(c, r, e);
    }
    /* only lanes 0-7 enabled: only they take the transposed values */
    push(c, IADDI(-16, 15, 7, 1));
    push(c, TT_ENC_SFPTRANSP(0, 0, 0, 0));
    push(c, ENCC(0, 0));
    for (int l = 0; l < N; l++) {
        e[l] = l < 8 ? 2 * (8 + l) : 256 + 2 * l;
    }
    check_lreg(c, 1, e);
    tt_tensix_end(c);
}

/* SFPSHFT2 (Blackhole SFPSHFT2.md): copies, lane rotates and shifts */
static void test_shft2(void)
{
    TTTensixCfg *c = tt_tensix_start();
    uint32_t e[N];

    fill_distinct(c);                       /* LReg4 = 1024 + 2 lane */
    push(c, TT_ENC_SFPSHFT2(0, 4, 5, 3));   /* rotate right in rows */
    for (int l = 0; l < N; l++) {
        e[l] = 1024 + 2 * (l & 7 ? l - 1 : l + 7);
    }
    check_lreg(c, 5, e);
    push(c, TT_ENC_SFPSHFT2(0, 4, 6, 4));   /* shift right in rows */
    for (int l = 0; l < N; l++) {
        e[l] = l & 7 ? 1024 + 2 * (l - 1) : 0;
    }
    check_lreg(c, 6, e);
    li(c, 3, 0xf0);
    push(c, TT_ENC_SFPSHFT2(3, 1, 2, 5));   /* LReg3 (VB) by LReg1 */
    for (int l = 0; l < N; l++) {
        e[l] = 0xf0u << ((256 + 2 * l) & 31);
    }
    check_lreg(c, 2, e);
    push(c, TT_ENC_SFPSHFT2(0xffc, 0, 2, 6));   /* LReg12 >> 4 */
    check_all(c, 2, 0x3b000000 >> 4);

    fill_distinct(c);
    push(c, TT_ENC_SFPSHFT2(0, 0, 0, 0));   /* COPY4 */
    for (int r = 0; r < 3; r++) {
        for (int l = 0; l < N; l++) {
            e[l] = 256 * (r + 1) + 2 * l;
        }
        check_lreg(c, r, e);
    }
    check_all(c, 3, 0);
    fill_distinct(c);
    push(c, TT_ENC_SFPSHFT2(0, 0, 0, 1));   /* old LReg0 8 lanes on */
    for (int l = 0; l < N; l++) {
        e[l] = l < 24 ? 2 * (l + 8) : 0;
    }
    check_lreg(c, 3, e);
    fill_distinct(c);
    push(c, TT_ENC_SFPSHFT2(0, 4, 0, 2));   /* LReg3 = ror(LReg4) */
    for (int l = 0; l < N; l++) {
        e[l] = 1024 + 2 * (l & 7 ? l - 1 : l + 7);
    }
    check_lreg(c, 3, e);
    for (int l = 0; l < N; l++) {
        e[l] = 512 + 2 * l;
    }
    check_lreg(c, 1, e);
    tt_tensix_end(c);
}

/* SFPLUT (Lut8 coefficients) and SFPLUTFP32 (FP16 tables) */
static void test_lut(void)
{
    static const uint32_t x[4] = {
        0x3f400000, 0xbf400000, 0x3fc00000, 0x40400000,
    };
    static const uint32_t lut_retain[4] = {
        0x3f300000, 0xbf300000, 0x40200000, 0x40400000,
    };
    static const uint32_t lut_plain[4] = {
        0x3f300000, 0x3f300000, 0x40200000, 0xc0400000,
    };
    static const uint32_t x2[8] = {
        0x3e800000, 0x3f400000, 0x3fa00000, 0x3fe00000, 0x40200000,
        0x40600000, 0xbe800000, 0x40200000,
    };
    static const uint32_t t1[8] = {
        0x3e800000, 0x40000000, 0x3fa00100, 0xbf000000, 0xbfc00000,
        0x477fe0e0, 0x3e800000, 0xbfc00000,
    };
    static const uint32_t t2_retain[8] = {
        0x3e800000, 0x40000000, 0x3fa00100, 0x3f000000, 0x3fc00000,
        0x40200000, 0xbe800000, 0x3fc00000,
    };
    TTTensixCfg *c = tt_tensix_start();

    /* [0, 1): A 0.25 C 0.5; [1, 2): 1.0, 1.0; [2, inf): -1.0, 0 */
    li(c, 0, 0x2010);
    li(c, 1, 0x0000);
    li(c, 2, 0x80ff);
    set_first(c, 3, x, 4, 0);
    push(c, TT_ENC_SFPLUT(4, 4, 0));        /* sign of LReg3 kept */
    check_first(c, 4, lut_retain, 4, 0x3f000000);
    push(c, TT_ENC_SFPLUT(4, 0, 0));
    check_first(c, 4, lut_plain, 4, 0x3f000000);

    /* upper halves for [0.5, 1), [1.5, 2), [3 (TABLE1) or 4, inf) */
    li(c, 0, 0x40003c00);                   /* 2.0 | 1.0 */
    li(c, 4, 0x38007c00);                   /* 0.5 | +0 */
    li(c, 1, 0xc0003c00);                   /* -2.0 | 1.0 */
    li(c, 5, 0x42000000);                   /* 3.0 | 2^-15 */
    li(c, 2, 0x3400bc00);                   /* 0.25 | -1.0 */
    li(c, 6, 0x7bff3c00);                   /* 65504 | 1.0 */
    set_first(c, 3, x2, 8, 0);
    push(c, TT_ENC_SFPLUTFP32(0, 7, 2));    /* TABLE1 */
    check_first(c, 7, t1, 8, 0);
    push(c, TT_ENC_SFPLUTFP32(0, 7, 7));    /* TABLE2, sign retained */
    check_first(c, 7, t2_retain, 8, 0);
    /* FP32 three entries: [0, 1) 2.0 * x + 1.0 */
    li(c, 0, 0x40000000);
    li(c, 4, 0x3f800000);
    li(c, 3, 0x3e800000);
    push(c, TT_ENC_SFPLUTFP32(0, 7, 0));
    check_all(c, 7, 0x3fc00000);
    tt_tensix_end(c);
}

/* SFPARECIP: ApproxRecip (ttsim's mode) and the documented other two */
static void test_arecip(void)
{
    static const uint32_t in[16] = {
        0x3f800000, 0xbf800000, 0x40400000, 0x40000000, 0x3fffffff,
        0x00000000, 0x80000000, 0x00000001, 0x00800000, 0x7e7fffff,
        0x7e800000, 0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
        0xffc00000,
    };
    static const uint32_t recip[16] = {
        0x3f7f0000, 0xbf7f0000, 0x3eaa0000, 0x3eff0000, 0x3f000000,
        0x7f800000, 0xff800000, 0x7f800000, 0x7e7f0000, 0x00800000,
        0, 0, 0, 0x80000000, 0, 0x80000000,
    };
    static const uint32_t ein[5] = {
        0x3f800000, 0x00000000, 0xbf800000, 0x3f000000, 0x3c23d70a,
    };
    static const uint32_t eexp[5] = {
        0x402d0000, 0x3f800000, 0xc02d0000, 0x3fd30000, 0x3f81d70a,
    };
    TTTensixCfg *c = tt_tensix_start();
    uint32_t e[N], neg[N];

    set_first(c, 0, in, 16, 0x40000000);
    push(c, TT_ENC_SFPARECIP(0, 0, 1, 0));
    check_first(c, 1, recip, 16, 0x3eff0000);
    /* COND_RECIP: 1/|x| where LReg2 < 0, else x */
    for (int l = 0; l < N; l++) {
        neg[l] = l & 1 ? 0x80000000 : 0;
        e[l] = l >= 16 ? (l & 1 ? 0x3eff0000 : 0x40000000)
             : l & 1 ? recip[l] & 0x7fffffff : in[l];
    }
    set_lanes(c, 2, neg);
    push(c, TT_ENC_SFPARECIP(2, 0, 1, 1));
    check_lreg(c, 1, e);
    /* EXP: sign | ApproxExp(|x|), low 16 bits of x passed through */
    set_first(c, 0, ein, 5, 0x40000000);
    push(c, TT_ENC_SFPARECIP(0, 0, 1, 2));
    check_first(c, 1, eexp, 5, 0x40800000);
    tt_tensix_end(c);
}

/* SFP_STOCH_RND round to nearest (ties away), ttsim's vectors */
static void test_stochrnd_nearest(void)
{
    static const uint32_t fin[7] = {
        0x3f808000, 0xbf808000, 0x3f807fff, 0x80000000, 0x807fffff,
        0xffc00001, 0x7f800001,
    };
    static const uint32_t bf16[7] = {
        0x3f810000, 0xbf810000, 0x3f800000, 0, 0, 0xff800000, 0x7f800000,
    };
    static const uint32_t iin[15] = {
        0x3f000000, 0xbf000000, 0x3efae148, 0xbe99999a, 0x40200000,
        0xc0200000, 0x42ff0000, 0xc36d0000, 0x501502f9, 0x7f800000,
        0x7fc00000, 0xff800000, 0xffc00000, 0x46ffff00, 0x477fff80,
    };
    static const uint32_t out[4][15] = {
        { 1, 1, 0, 0, 3, 3, 0x80, 0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
          0xff },                                       /* UINT8 */
        { 1, 0x80000001, 0, 0, 3, 0x80000003, 0x7f, 0x8000007f, 0x7f, 0x7f,
          0x7f, 0x8000007f, 0x8000007f, 0x7f, 0x7f },   /* INT8 */
        { 1, 1, 0, 0, 3, 3, 0x80, 0xed, 0xffff, 0xffff, 0xffff, 0xffff,
          0xffff, 0x8000, 0xffff },                     /* UINT16 */
        { 1, 0x80000001, 0, 0, 3, 0x80000003, 0x80, 0x800000ed, 0x7fff,
          0x7fff, 0x7fff, 0x80007fff, 0x80007fff, 0x7fff, 0x7fff },
    };
    static const int mode[4] = { 2, 3, 6, 7 };
    TTTensixCfg *c = tt_tensix_start();

    set_first(c, 0, fin, 7, 0);
    push(c, TT_ENC_SFP_STOCH_RND(0, 0, 0, 0, 1, 1));
    check_first(c, 1, bf16, 7, 0);
    set_first(c, 0, iin, 15, 0);
    for (int m = 0; m < 4; m++) {
        push(c, TT_ENC_SFP_STOCH_RND(0, 0, 0, 0, 1, mode[m]));
        check_first(c, 1, out[m], 15, 0);
    }
    tt_tensix_end(c);
}

/*
 * The modes only the documentation gives: FP16A (10 bits kept), the
 * integer descaling (VB or Imm5 shift), and round toward zero with its
 * documented bug (discarded bits >= 0x7fffff's share round up)
 */
static void test_stochrnd_doc(void)
{
    static const uint32_t fa[2] = { 0x3f801000, 0x3f800fff };
    static const uint32_t fa_out[2] = { 0x3f802000, 0x3f800000 };
    static const uint32_t zin[3] = { 0x3f80ffff, 0x3f80fffe, 0x40200000 };
    static const uint32_t zout[3] = { 0x3f810000, 0x3f800000, 0x40200000 };
    TTTensixCfg *c = tt_tensix_start();

    set_first(c, 0, fa, 2, 0);
    push(c, TT_ENC_SFP_STOCH_RND(0, 0, 0, 0, 1, 0));
    check_first(c, 1, fa_out, 2, 0);
    li(c, 0, 1000);
    push(c, TT_ENC_SFP_STOCH_RND(0, 3, 0, 0, 1, 13));   /* >> 3: 125 */
    check_all(c, 1, 125);
    li(c, 0, 0x800003e8);                   /* -1000 >> 2 = -250 */
    push(c, TT_ENC_SFP_STOCH_RND(0, 2, 0, 0, 1, 13));
    check_all(c, 1, 0x8000007f);
    push(c, TT_ENC_SFP_STOCH_RND(0, 2, 0, 0, 1, 12));
    check_all(c, 1, 250);
    li(c, 0, 5);
    li(c, 2, 0x21);                         /* VB & 31 = 1: 2.5 -> 3 */
    push(c, TT_ENC_SFP_STOCH_RND(0, 0, 2, 0, 1, 5));
    check_all(c, 1, 3);
    set_first(c, 0, zin, 3, 0);
    push(c, TT_ENC_SFP_STOCH_RND(2, 0, 0, 0, 1, 1));
    check_first(c, 1, zout, 3, 0);
    li(c, 0, 0x40200000);                   /* 2.5 toward zero: 2 */
    push(c, TT_ENC_SFP_STOCH_RND(2, 0, 0, 0, 1, 7));
    check_all(c, 1, 2);
    tt_tensix_end(c);
}

/*
 * Stochastic rounding: 2.25 to an integer rounds up when the 23 PRNG
 * bits are at most 0x200000, about a quarter of the time; the exact
 * first results follow the seeded PRNG
 */
static void test_stochrnd_stochastic(void)
{
    TTTensixCfg *c = tt_tensix_start();
    uint32_t state[N], first[N], v[N];
    int up = 0, total = 0;

    TT_CFG_SET(c, PRNG_SEED_Seed_Val, 0xdeadbeef);
    prng_seeded(0xdeadbeef, state);
    li(c, 0, 0x40100000);
    push(c, TT_ENC_SFP_STOCH_RND(1, 0, 0, 0, 1, 7));
    for (int l = 0; l < N; l++) {
        first[l] = 2 + (0x200000 >= (state[l] & 0x7fffff));
    }
    check_lreg(c, 1, first);
    for (int i = 0; i < 40; i++) {
        push(c, TT_ENC_SFP_STOCH_RND(1, 0, 0, 0, 1, 7));
        tt_tensix_lreg(c->qts, c->x, c->y, 1, v);
        for (int l = 0; l < N; l++) {
            g_assert(v[l] == 2 || v[l] == 3);
            up += v[l] == 3;
            total++;
        }
    }
    g_assert_cmpint(up, >, total / 8);
    g_assert_cmpint(up, <, total * 3 / 8);
    tt_tensix_end(c);
}

/* A lane value for the rounding: random, or special for SFP_STOCH_RND */
static uint32_t rnd_operand(GRand *g)
{
    static const uint32_t special[] = {
        0, 0x7f800000, 0x7fc00000, 0x7f800001, 0x7f7fffff,
    };
    uint32_t r = g_rand_int(g), sign = r & 0x80000000;

    switch (g_rand_int_range(g, 0, 8)) {
    case 0:                     /* zeros, infinities, NaNs, max normal */
        return sign | special[g_rand_int_range(g, 0, ARRAY_SIZE(special))];
    case 1:                     /* denormals */
        return r & 0x807fffff;
    case 2:                     /* around the integer flavours' range */
        return (r & 0x807fffff) | g_rand_int_range(g, 124, 145) << 23;
    case 3:                     /* halfway and all-ones fractions */
        return sign | g_rand_int_range(g, 124, 145) << 23 |
               (g_rand_boolean(g) ? 0x400000 : 0x7fffff) >> (r & 7);
    case 4:                     /* small sign-magnitude integers */
        return r & 0x80000fff;
    default:
        return r;
    }
}

/*
 * SFP_STOCH_RND's vectorised rounding (tensix-sfpu-vec.c) against the
 * reference path's scalar functions (-global tt-tensix.reference=on),
 * bit for bit: every Mod1, with and without UseImm5, in every rounding
 * mode, the PRNGs of both seeded alike, over random and special lanes
 */
static void test_stochrnd_reference(void)
{
    TTTensixCfg *c[2] = {
        tt_tensix_start(),
        tt_tensix_start_args("-global tt-tensix.reference=on"),
    };
    g_autoptr(GRand) g = g_rand_new_with_seed(27);
    uint32_t x[N], b[N], v[2][N];

    for (int k = 0; k < 2; k++) {
        TT_CFG_SET(c[k], PRNG_SEED_Seed_Val, 0x5eed);
    }
    for (int round = 0; round < 8; round++) {
        for (int l = 0; l < N; l++) {
            x[l] = rnd_operand(g);
            b[l] = g_rand_int(g);
        }
        for (int k = 0; k < 2; k++) {
            set_lanes(c[k], 0, x);
            set_lanes(c[k], 2, b);
        }
        for (int mod = 0; mod < 16; mod++) {
            for (int rmode = 0; rmode < 4; rmode++) {
                unsigned imm5 = g_rand_int_range(g, 0, 32);

                for (int k = 0; k < 2; k++) {
                    push(c[k], TT_ENC_SFP_STOCH_RND(rmode, imm5, 2, 0, 1,
                                                    mod));
                    tt_tensix_lreg(c[k]->qts, c[k]->x, c[k]->y, 1, v[k]);
                }
                for (int l = 0; l < N; l++) {
                    if (v[0][l] != v[1][l]) {
                        g_test_message("Mod1 %d mode %d Imm5 %u lane %d: "
                                       "x 0x%08x VB 0x%08x", mod, rmode,
                                       imm5, l, x[l], b[l]);
                    }
                    g_assert_cmphex(v[0][l], ==, v[1][l]);
                }
            }
        }
    }
    tt_tensix_end(c[0]);
    tt_tensix_end(c[1]);
}

/*
 * The PRNG: writing PRNG_SEED_Seed_Val reseeds every lane, SFPMOV (Mod1
 * 8, VC 9) reads and advances it, SFP_STOCH_RND advances it in enabled
 * lanes even when rounding to nearest
 */
static void test_prng(void)
{
    TTTensixCfg *c = tt_tensix_start();
    uint32_t state[N], e[N];

    TT_CFG_SET(c, PRNG_SEED_Seed_Val, 42);
    prng_seeded(42, state);
    push(c, MOV(9, 0, 8));
    check_lreg(c, 0, state);
    for (int l = 0; l < N; l++) {
        state[l] = prng_step(state[l]);
    }
    push(c, MOV(9, 0, 8));
    check_lreg(c, 0, state);
    for (int l = 0; l < N; l++) {
        state[l] = prng_step(state[l]);
    }
    /* nearest rounding in lanes 0-7: they advance, the others do not */
    push(c, IADDI(-16, 15, 7, 1));
    push(c, TT_ENC_SFP_STOCH_RND(0, 0, 0, 0, 1, 1));
    push(c, ENCC(0, 0));
    push(c, MOV(9, 0, 8));
    for (int l = 0; l < N; l++) {
        e[l] = l < 8 ? prng_step(state[l]) : state[l];
    }
    check_lreg(c, 0, e);
    /* the reset state is zero; zero steps to 0x80000000 */
    tt_tensix_end(c);
    c = tt_tensix_start();
    push(c, MOV(9, 0, 8));
    push(c, MOV(9, 1, 8));
    check_all(c, 0, 0);
    check_all(c, 1, 0x80000000);
    tt_tensix_end(c);
}

/* SFPCONFIG: LReg11-14, their defaults, LaneConfig, LoadMacroConfig */
static void test_config(void)
{
    TTTensixCfg *c = tt_tensix_start();
    uint32_t v[N], e[N];

    li(c, 0, 0x40490fdb);
    push(c, CONFIG(0, 12, 0));
    check_all(c, 12, 0x40490fdb);
    for (int l = 0; l < N; l++) {
        v[l] = 0x100 + l;
        e[l] = 0x100 + (l & 7);             /* lanes 0-7, broadcast */
    }
    set_lanes(c, 0, v);
    push(c, CONFIG(0, 13, 0));
    check_lreg(c, 13, e);
    push(c, CONFIG(0, 11, 1));
    push(c, CONFIG(0, 12, 1));
    push(c, CONFIG(0, 13, 1));
    push(c, CONFIG(0, 14, 1));
    check_all(c, 11, 0xbf800000);
    check_all(c, 12, 0x3b000000);
    check_all(c, 13, 0xbf2cc4c7);
    check_all(c, 14, 0xbeb08ff9);

    /* LaneConfig: set, OR, AND, XOR; read back with SFPMOV */
    push(c, CONFIG(0x104, 15, 1));
    push(c, MOV(15, 1, 8));
    check_all(c, 1, 0x104);
    push(c, CONFIG(0x001, 15, 3));
    push(c, MOV(15, 1, 8));
    check_all(c, 1, 0x105);
    push(c, CONFIG(0x005, 15, 5));
    push(c, MOV(15, 1, 8));
    check_all(c, 1, 0x005);
    push(c, CONFIG(0x100, 15, 7));
    push(c, MOV(15, 1, 8));
    check_all(c, 1, 0x105);
    /* lane mask (Mod1 8): columns 0 and 1 only, from LReg0 = 0 */
    li(c, 0, 0);
    push(c, CONFIG(0x0005, 15, 8));
    push(c, MOV(15, 1, 8));
    for (int l = 0; l < N; l++) {
        e[l] = (l & 7) < 2 ? 0 : 0x105;
    }
    check_lreg(c, 1, e);
    /* columns whose lane 0-7 flag is clear are skipped */
    push(c, IADDI(-4, 15, 7, 1));           /* lanes 0, 1 */
    push(c, CONFIG(0x0002, 15, 1));
    push(c, ENCC(0, 0));
    push(c, MOV(15, 1, 8));
    for (int l = 0; l < N; l++) {
        e[l] = (l & 7) < 2 ? 0x2 : 0x105;
    }
    check_lreg(c, 1, e);
    push(c, CONFIG(0, 15, 1));

    /* Misc (12 bits) and Sequence */
    push(c, CONFIG(0x123, 8, 1));
    push(c, CONFIG(0x010, 8, 3));
    push(c, MOV(8, 1, 8));
    check_all(c, 1, 0x133);
    push(c, CONFIG(0xf0f0, 8, 5));
    push(c, MOV(8, 1, 8));
    check_all(c, 1, 0x030);
    push(c, CONFIG(0x031, 8, 7));
    push(c, MOV(8, 1, 8));
    check_all(c, 1, 0x001);
    push(c, CONFIG(0xbeef, 5, 1));
    push(c, MOV(5, 1, 8));
    check_all(c, 1, 0xbeef);
    /* a template from LReg0 */
    li(c, 0, 0x920000e1);
    push(c, CONFIG(0, 2, 0));
    push(c, MOV(2, 1, 8));
    check_all(c, 1, 0x920000e1);
    tt_tensix_end(c);
}

/*
 * The back door: an instruction with VD >= 12 is stored into
 * InstructionTemplate[VD - 12] instead of executing, unless
 * DISABLE_BACKDOOR_LOAD
 */
static void test_backdoor(void)
{
    TTTensixCfg *c = tt_tensix_start();
    uint16_t row[16];

    push(c, MAD(12, 0, 13, 13, 0));
    push(c, MOV(1, 1, 8));
    check_all(c, 1, MAD(12, 0, 13, 13, 0));
    push(c, TT_ENC_SFPENCC(0, 0, 13, 0));
    push(c, MOV(1, 1, 8));
    check_all(c, 1, TT_ENC_SFPENCC(0, 0, 13, 0));
    /* SFPSTORE of LReg12: a template write, no Dst write */
    push(c, ZEROACC_ALL);
    push(c, STORE(12, UINT16, 0, 0));
    push(c, MOV(0, 1, 8));
    check_all(c, 1, STORE(12, UINT16, 0, 0));
    g_assert_cmpint(dst_valid(c, 0), ==, 0);
    /* with DISABLE_BACKDOOR_LOAD it stores the constant's low half */
    push(c, CONFIG(0x002, 15, 1));
    push(c, STORE(12, UINT16, 0, 0));
    for (int k = 0; k < 16; k++) {
        row[k] = k & 1 ? 0 : 0x0000;        /* 0x3b000000 & 0xffff */
    }
    tt_tensix_check_dst16(c, 0, row, 1);
    push(c, STORE(12, HI16_ONLY, 0, 0));
    for (int k = 0; k < 16; k++) {
        row[k] = k & 1 ? 0 : 0x3b00;
    }
    tt_tensix_check_dst16(c, 0, row, 1);
    push(c, MOV(0, 1, 8));
    check_all(c, 1, STORE(12, UINT16, 0, 0));
    tt_tensix_end(c);
}

/*
 * LaneConfig features only the documentation has: ROW_MASK, blocking
 * Dst reads/writes, column exchange, CAPTURE_DEFAULT_DEST_INDEX
 */
static void test_lane_config(void)
{
    TTTensixCfg *c = tt_tensix_start();
    uint32_t e[N], v[N];
    uint16_t row[16];

    push(c, CONFIG(0x2000, 15, 1));         /* row 1 (lanes 8-15) off */
    push(c, LOADI(0, 2, 0x55));
    for (int l = 0; l < N; l++) {
        e[l] = l >= 8 && l < 16 ? 0 : 0x55;
    }
    check_lreg(c, 0, e);
    push(c, CONFIG(0, 15, 1));

    for (int l = 0; l < N; l++) {
        v[l] = 0x100 + l;
    }
    set_lanes(c, 0, v);
    push(c, CONFIG(0x080, 15, 1));          /* stores: odd columns */
    push(c, STORE(0, UINT16, 0, 0));
    for (int k = 0; k < 16; k++) {
        row[k] = k & 1 ? 0x100 + k / 2 : 0;
    }
    tt_tensix_check_dst16(c, 0, row, 1);
    push(c, CONFIG(0x010, 15, 1));          /* stores blocked */
    li(c, 1, 0x999);
    push(c, STORE(1, UINT16, 0, 0));
    tt_tensix_check_dst16(c, 0, row, 1);
    push(c, CONFIG(0x040, 15, 1));          /* loads: odd columns */
    push(c, LOAD(2, UINT16, 0, 0));
    check_lreg(c, 2, v);
    push(c, CONFIG(0x020, 15, 1));          /* loads blocked */
    push(c, LOAD(1, UINT16, 0, 0));
    check_all(c, 1, 0x999);
    /* ENABLE_DEST_INDEX + CAPTURE: LReg[VD + 4] = Row << 4 | Column */
    push(c, CONFIG(0x00c, 15, 1));
    push(c, LOAD(1, UINT16, 0, 6));
    for (int l = 0; l < N; l++) {
        e[l] = (4 + l / 8) << 4 | (2 * (l & 7) + 1);
    }
    check_lreg(c, 5, e);
    tt_tensix_end(c);
}

/* Wait until @qts's migration (outgoing or incoming) has completed */
static void wait_migrated(QTestState *qts)
{
    for (;;) {
        QDict *rsp = qtest_qmp(qts, "{ 'execute': 'query-migrate' }");
        QDict *ret = qdict_get_qdict(rsp, "return");
        const char *st = ret && qdict_haskey(ret, "status") ?
                         qdict_get_str(ret, "status") : "";

        g_assert_cmpstr(st, !=, "failed");
        if (!strcmp(st, "completed")) {
            qobject_unref(rsp);
            return;
        }
        qobject_unref(rsp);
        g_usleep(10 * 1000);
    }
}

/*
 * LaneConfig across a migration: the lane masks the unit derives from it
 * are not in the stream, so the destination must derive them from the
 * loaded LaneConfig (a ROW_MASK set before still disables its lanes, and
 * clearing it after enables them)
 */
static void test_lane_config_migrate(void)
{
    g_autofree char *path = g_strdup_printf("%s/tt-sfpu-migrate-%d",
                                            g_get_tmp_dir(), getpid());
    g_autofree char *uri = g_strdup_printf("file:%s", path);
    TTTensixCfg *c = tt_tensix_start();
    uint32_t e[N];

    push(c, CONFIG(0x2000, 15, 1));         /* row 1 (lanes 8-15) off */
    qtest_qmp_assert_success(c->qts, "{ 'execute': 'migrate', "
                             "'arguments': { 'uri': %s } }", uri);
    wait_migrated(c->qts);
    qtest_quit(c->qts);
    c->qts = qtest_initf(TT_ONE_COL " -incoming %s", uri);
    wait_migrated(c->qts);
    unlink(path);

    push(c, LOADI(0, 2, 0x55));
    for (int l = 0; l < N; l++) {
        e[l] = l >= 8 && l < 16 ? 0 : 0x55;
    }
    check_lreg(c, 0, e);
    push(c, CONFIG(0, 15, 1));
    push(c, LOADI(0, 2, 0x66));
    check_all(c, 0, 0x66);
    tt_tensix_end(c);
}

/*
 * MOD0_FMT_INT32_ALL: stack-pointer addressing (the Sp RWC moved by
 * SFPU_STACK_Incr, up after a store, down before a load), all lanes
 */
static void test_int32_all(void)
{
    TTTensixCfg *c = tt_tensix_start();
    uint32_t row32[16] = { 0 };

    TT_THCFG_SET(c, T, SFPU_STACK_Incr, 4);
    li(c, 0, 0x11);
    li(c, 1, 0x22);
    push(c, ENCC(1, 10));                   /* flags all clear: no lane */
    push(c, STORE(0, INT32_ALL, 0, 0));     /* rows 0-3, Sp = 4 */
    push(c, STORE(1, INT32_ALL, 0, 0));     /* rows 4-7, Sp = 8 */
    push(c, LOAD(2, INT32_ALL, 0, 0));      /* Sp = 4: LReg1's */
    push(c, LOAD(3, INT32_ALL, 0, 0));      /* Sp = 0: LReg0's */
    push(c, ENCC(3, 10));
    check_all(c, 2, 0x22);
    check_all(c, 3, 0x11);
    for (int k = 0; k < 16; k += 2) {
        row32[k] = 0x22;
    }
    tt_tensix_check_dst32(c, 5, row32);
    tt_tensix_end(c);
}


/* ----------------------------------------------------- SFPLOADMACRO -- */

/*
 * SFPLOADMACRO of sequence @m into LReg @vd from Dst address @a (even):
 * MacroIndex << 2 | VDLo, and VDHi in Imm10's bit 0
 */
#define LM(m, vd, mod0, am, a) \
    TT_ENC_SFPLOADMACRO((m) << 2 | ((vd) & 3), mod0, am, (a) | (vd) >> 2)
#define NOP                     TT_ENC_SFPNOP()

/* Sequence[@n]: a byte per sub-unit (through LReg0 and SFPCONFIG) */
static void lm_sequence(TTTensixCfg *c, int n, uint32_t simple, uint32_t mad,
                        uint32_t round, uint32_t store)
{
    li(c, 0, store << 24 | round << 16 | mad << 8 | simple);
    push(c, CONFIG(0, 4 + n, 0));
}

/*
 * tt-llk's clamped Schraudolph exp, SFPLOADMACRO form, as
 * tenstorrent/tt-llk ckernel_sfpu_exp.h _init_exponential_ programs it:
 * templates SWAP (VC 0, VD 14), MAD (VA 12, VC 13), STOCHRND (FP32 to
 * UINT16), SHFT (left 15); sequence 1 loads, swaps with LReg14 (-88.5)
 * and stores back after 2; sequence 0 loads, MADs, rounds at 2, shifts
 * into LReg16 at 3 and stores LReg16 at 4; delays count cycles.
 * Expected: the DISABLE_SFPLOADMACRO body's results (SFPSWAP.md,
 * fma_model_bh, SFPSTOCHRND_FloatInt.md, SFPSHFT.md), FP32 stores
 * flushing denormals.
 */
static void test_lm_exp(void)
{
    static const uint32_t in[9] = {
        0x00000000, 0x3f800000, 0xbf800000, 0x40000000, 0x41200000,
        0xc1200000, 0xc2b00000, 0xc2c80000, 0x7f800000,
    };
    static const uint32_t out[9] = {
        0x3f7a8000, 0x40330000, 0x3ec18000, 0x40eb8000, 0x46b10000,
        0x38440000, 0x00000000, 0x005c8000, 0x7fff8000,
    };
    uint32_t flushed[9];
    TTTensixCfg *c = tt_tensix_start();

    TT_CFG_SET(c, ALU_ACC_CTRL_SFPU_Fp32_enabled, 1);
    set_first(c, 1, in, 9, 0);
    push(c, STORE(1, FP32, 0, 0));
    li(c, 0, 0xc2b10000);
    push(c, CONFIG(0, 14, 0));
    li(c, 0, 0x43b8aa3b);
    push(c, CONFIG(0, 12, 0));
    li(c, 0, 0x46fde9a3);
    push(c, CONFIG(0, 13, 0));
    li(c, 0, 0x920000e1);               /* SFPSWAP(0, 0, 14, 1) */
    push(c, CONFIG(0, 0, 0));
    push(c, NOP);
    push(c, MAD(12, 0, 13, 13, 0));
    push(c, TT_ENC_SFP_STOCH_RND(0, 0, 0, 0, 14, 14));
    push(c, SHFTI(15, 0, 15, 1));
    lm_sequence(c, 1, 0x04, 0x00, 0x00, 0x13);
    lm_sequence(c, 0, 0xdf, 0x85, 0x16, 0x63);
    push(c, CONFIG(0, 8, 1));
    push(c, LM(1, 0, SRCB, 0, 0));
    push(c, NOP);
    push(c, LM(0, 0, SRCB, 0, 0));
    push(c, NOP);
    /* -100 clamps to -88.5, whose pattern is a denormal: Dst gets 0 */
    check_first(c, 16, out, 9, 0x3f7a8000);
    memcpy(flushed, out, sizeof(flushed));
    flushed[7] = 0;
    push(c, LOAD(2, FP32, 0, 0));
    check_first(c, 2, flushed, 9, 0x3f7a8000);
    tt_tensix_end(c);
}


/*
 * tt-llk's BF16 reciprocal (ckernel_sfpu_recip.h _init_reciprocal_fast_
 * 8b_3c_, _calculate_reciprocal_fast_8b_3c_), three macros a row group
 * counting instructions: SFPARECIP and an INDIRECT_VD copy into LReg[L7]
 * (LReg1) right after the load, a store of LReg0's 0x8000 and a LO16_ONLY
 * load setting y's bit 15, the error x y - 1 into LReg16 and stored as
 * BF16, read back by a LO16 load two row groups later into LReg1 (which
 * the two-cycle MAD writing x there relies on), added to y as an integer
 * into LReg16 and stored.  Expected: the DISABLE_SFPLOADMACRO body's
 * BF16 results (SFPARECIP.md, fma_model_bh, truncating BF16 store).
 */
static void test_lm_recip8(void)
{
    static const uint32_t in[8] = {
        0x3f800000, 0x40400000, 0xc0400000, 0x00000000, 0x80000000,
        0x7f800000, 0x7fc00000, 0x3dcd0000,
    };
    static const uint32_t out[8] = {
        0x3f800000, 0x3eab0000, 0xbeab0000, 0x7f800000, 0xff800000,
        0x00000000, 0x00000000, 0x41200000,
    };
    const int x = 1, t = 1;
    TTTensixCfg *c = tt_tensix_start();

    TT_THCFG_SET_N(c, T, ADDR_MOD_DST_SECn_DestIncr, 6, 2);
    set_first(c, 2, in, 8, 0x3f800000);
    for (int a = 0; a < 16; a += 2) {
        push(c, STORE(2, BF16, 0, a));
    }
    push(c, TT_ENC_SFPARECIP(0, 0, 12, 0));
    push(c, MAD(9, 9, 0, 13, 8));
    push(c, MAD(x, 0, 11, 14, 0));
    push(c, IADDI(0, t, 15, 4));
    lm_sequence(c, 0, 0x04, 0x05, 0x00, 0x83);
    lm_sequence(c, 1, 0xef, 0xc6, 0x00, 0x53);
    lm_sequence(c, 2, 0x00, 0x00, 0x00, 0x4b);
    push(c, CONFIG(0x700, 8, 1));

    push(c, LOADI(0, 0, 0x8000));
    push(c, LOADI(7, 2, x));
    for (int d = 0; d < 8; d++) {
        int y = 3 + d % 3;

        push(c, LM(0, y, SRCB, 7, 0));
        push(c, d < 2 ? NOP : LM(2, t, LO16, 7, -4 & 0x3ff));
        push(c, LM(1, y, LO16_ONLY, 6, 0));
    }
    for (int d = 0; d < 2; d++) {
        push(c, NOP);
        push(c, LM(2, t, LO16, 6, -4 & 0x3ff));
        push(c, NOP);
    }
    push(c, NOP);
    /* ten ADDR_MOD_6 loads moved the Dst counter on by 20 */
    for (int a = 0; a < 16; a += 2) {
        push(c, LOAD(2, BF16, 7, (a - 20) & 0x3ff));
        check_first(c, 2, out, 8, 0x3f800000);
    }
    tt_tensix_end(c);
}


/* Dst32b[@row][@col] raw (DstEncodeFP32 form), without touching the SFPU */
static uint32_t dst32_at(TTTensixCfg *c, int row, int col)
{
    int adj = ((row & 0x1f8) << 1) | (row & 0x207);
    uint16_t hi[16], lo[16];

    tt_tensix_dst(c->qts, c->x, c->y, adj, hi);
    tt_tensix_dst(c->qts, c->x, c->y, adj + 8, lo);
    return (uint32_t)hi[col] << 16 | lo[col];
}

/*
 * One macro through every sub-unit, counting instructions: MAD (x = 2 x
 * + 0.5, loaded LReg as VB) at once, SFPSTOCHRND to BF16 after 2, SFPABS
 * into LReg16 after 3, the store of LReg16 after 4 with the load's Mod0
 * (UsesLoadMod0ForStore; StoreMod0 says BF16) at the load's address,
 * though the load's AddrMod and an INCRWC moved the Dst counter.  Each
 * step is checked as it lands: the MAD's result two SFP instructions
 * later, the others one, nothing while the thread idles.
 */
static void test_lm_schedule(void)
{
    static const uint32_t x[3] = { 0x3f808000, 0xc0400000, 0x7f800000 };
    /* 2x + 0.5: 2.5078125, -5.5, +Inf; others 0.5 */
    static const uint32_t mad[3] = { 0x40208000, 0xc0b00000, 0x7f800000 };
    /* BF16, nearest with ties away (SFPSTOCHRND_FloatFloat.md) */
    static const uint32_t rnd[3] = { 0x40210000, 0xc0b00000, 0x7f800000 };
    static const uint32_t abs[3] = { 0x40210000, 0x40b00000, 0x7f800000 };
    TTTensixCfg *c = tt_tensix_start();
    unsigned rwc[4];

    push(c, ZEROACC_ALL);
    set_first(c, 1, x, 3, 0);
    push(c, STORE(1, FP32, 0, 0));
    li(c, 5, 0x40000000);
    li(c, 6, 0x3f000000);
    push(c, MAD(5, 0, 6, 12, 0));                   /* template 0 */
    push(c, TT_ENC_SFP_STOCH_RND(0, 0, 0, 0, 13, 1));   /* 1: to BF16 */
    push(c, TT_ENC_SFPABS(0, 0, 14, 1));            /* 2: FP32 abs */
    lm_sequence(c, 0, 0x40 | 3 << 3 | 6, 0x80 | 4, 2 << 3 | 5,
                0x40 | 4 << 3 | 3);
    push(c, CONFIG(0xf00 | 1 << 4 | BF16, 8, 1));
    TT_THCFG_SET_N(c, T, ADDR_MOD_DST_SECn_DestIncr, 2, 4);

    push(c, LM(0, 2, FP32, 2, 0));
    check_first(c, 2, x, 3, 0);
    push(c, TT_ENC_INCRWC(0, 4, 0, 0));
    check_first(c, 2, x, 3, 0);                     /* idle: no change */
    push(c, NOP);                                   /* MAD runs */
    check_first(c, 2, x, 3, 0);
    push(c, NOP);                                   /* its result lands */
    check_first(c, 2, mad, 3, 0x3f000000);
    push(c, NOP);                                   /* round */
    check_first(c, 2, rnd, 3, 0x3f000000);
    check_all(c, 16, 0);
    push(c, NOP);                                   /* abs */
    check_first(c, 16, abs, 3, 0x3f000000);
    g_assert_cmphex(dst32_at(c, 0, 0), ==, 0x007f8000);     /* x, stored */
    push(c, NOP);                                   /* store */
    g_assert_cmphex(dst32_at(c, 0, 0), ==, 0x21800000);     /* FP32 */
    tt_tensix_rwc(c->qts, c->x, c->y, T, rwc);
    g_assert_cmpuint(rwc[2], ==, 8);                /* AddrMod 4 + 4 only */
    push(c, LOAD(3, FP32, 0, -8 & 0x3ff));
    check_first(c, 3, abs, 3, 0x3f000000);
    g_assert_cmpint(dst_valid(c, 4), ==, 0);
    tt_tensix_end(c);
}

/*
 * tt-llk's where(a, b, c) macros (ckernel_sfpu_where.h, macro 0 and 2):
 * SFPSETCC (EQ0) scheduled with the load of b sets the flags from a; that
 * load, in the same cycle, is not predicated by them, the plain SFPLOAD
 * of c in the next cycle is, while the SFPENCC scheduled with it enables
 * every lane again only for the cycle after, whose store writes the
 * result: a == 0 ? c : b.
 */
static void test_lm_where(void)
{
    uint32_t a[N], b[N], cv[N], exp[N];
    TTTensixCfg *c = tt_tensix_start();

    for (int l = 0; l < N; l++) {
        a[l] = l % 3 ? l + 1 : 0;
        b[l] = 100 + l;
        cv[l] = 200 + l;
        exp[l] = a[l] ? b[l] : cv[l];
    }
    set_lanes(c, 1, a);
    push(c, STORE(1, INT32, 0, 0));
    set_lanes(c, 1, b);
    push(c, STORE(1, INT32, 0, 4));
    set_lanes(c, 1, cv);
    push(c, STORE(1, INT32, 0, 8));
    push(c, SETCC(0, 6) | 12 << 4);                 /* template 0 */
    push(c, TT_ENC_SFPENCC(0, 0, 13, 0));           /* template 1 */
    lm_sequence(c, 0, 0x04, 0, 0, 2 << 3 | 3);
    lm_sequence(c, 2, 0x05, 0, 0, 0);
    push(c, CONFIG(0x770, 8, 1));

    push(c, LM(0, 0, INT32, 0, 0));
    push(c, LM(2, 0, INT32, 0, 4));
    check_lreg(c, 1, cv);                           /* untouched */
    check_lreg(c, 0, b);
    push(c, LOAD(0, INT32, 0, 8));
    check_cc(c, 0xffffffff, 1, 0);
    check_lreg(c, 0, exp);
    push(c, NOP);                                   /* the store */
    push(c, LOAD(1, INT32, 0, 0));
    check_lreg(c, 1, exp);
    tt_tensix_end(c);
}

/*
 * A macro's instruction replaces one already scheduled on its sub-unit
 * for the same cycle; a macro scheduling nothing there replaces nothing.
 */
static void test_lm_forget(void)
{
    TTTensixCfg *c = tt_tensix_start();

    li(c, 1, 0xc0000000);                           /* -2 */
    push(c, STORE(1, FP32, 0, 0));
    li(c, 1, 0xc0400000);                           /* -3 */
    push(c, STORE(1, FP32, 0, 4));
    push(c, TT_ENC_SFPABS(0, 0, 14, 1));            /* template 2 */
    push(c, TT_ENC_SFPNOT(0, 0, 15, 0));            /* template 3 */
    lm_sequence(c, 1, 0x40 | 2 << 3 | 7, 0, 0, 0);  /* NOT after 2 */
    lm_sequence(c, 2, 0x40 | 1 << 3 | 6, 0, 0, 0);  /* ABS after 1 */
    lm_sequence(c, 3, 0, 0, 0, 0);                  /* the load only */
    push(c, CONFIG(0x100, 8, 1));

    push(c, LM(1, 1, FP32, 0, 0));
    push(c, LM(2, 2, FP32, 0, 4));                  /* same cycle */
    push(c, NOP);
    push(c, NOP);
    check_all(c, 16, 0x40400000);                   /* |-3|, no NOT */
    push(c, NOP);
    check_all(c, 16, 0x40400000);

    push(c, LM(1, 1, FP32, 0, 0));
    push(c, LM(3, 2, FP32, 0, 4));
    push(c, NOP);
    push(c, NOP);
    check_all(c, 16, 0x3fffffff);                   /* ~(-2) */
    tt_tensix_end(c);
}

/*
 * Delays counting cycles: back to back from the replay buffer, a Tensix
 * NOP takes a cycle, so SFPABS (delay 1) runs with the first SFPSTORE,
 * which still stores the loaded value, and the second stores |x|; pushed
 * alone, the macro has finished by the time the thread idles.
 */
static void test_lm_cycles(void)
{
    TTTensixCfg *c = tt_tensix_start();

    li(c, 1, 0xc0000000);
    push(c, STORE(1, FP32, 0, 0));
    push(c, TT_ENC_SFPABS(0, 0, 14, 1));            /* template 2 */
    lm_sequence(c, 0, 1 << 3 | 6, 0, 0, 0);
    lm_sequence(c, 1, 0x40 | 6, 0, 0, 0x40 | 1 << 3 | 3);
    push(c, CONFIG(3, 8, 1));                       /* FP32 stores, cycles */

    push(c, TT_ENC_REPLAY(0, 4, 0, 1));
    push(c, LM(0, 2, FP32, 0, 0));
    push(c, TT_ENC_NOP());
    push(c, STORE(2, FP32, 0, 8));
    push(c, STORE(2, FP32, 0, 12));
    push(c, TT_ENC_REPLAY(0, 4, 0, 0));
    push(c, LOAD(3, FP32, 0, 8));
    check_all(c, 3, 0xc0000000);
    push(c, LOAD(3, FP32, 0, 12));
    check_all(c, 3, 0x40000000);

    li(c, 1, 0xc0400000);
    push(c, STORE(1, FP32, 0, 16));
    push(c, LM(1, 4, FP32, 0, 16));
    check_all(c, 16, 0x40400000);
    g_assert_cmphex(dst32_at(c, 16, 0), ==, 0x40800000);    /* 3.0 */
    tt_tensix_end(c);
}

/* Log of the last bad SFPLOADMACRO run */
static char *lm_log_path;

/*
 * Undefined macro configurations are logged (-d guest_errors,unimp) with
 * defined results: a select of 1 and a store sub-unit given something
 * else schedule nothing, simple and round both writing one LReg run
 * both (the simple sub-unit's result landing last), an issued
 * instruction meeting a scheduled one on its sub-unit is dropped, and
 * LoadMacroConfig that differs between columns runs column 0's.
 */
static void test_lm_bad(void)
{
    static const char *const expect[] = {
        "selects 1 (undefined)", "store sub-unit given",
        "exactly one VD of 16", "discarded", "differs between lane columns",
    };
    g_autofree char *args = NULL, *text = NULL;
    TTTensixCfg *c = g_new0(TTTensixCfg, 1);
    int fd = g_file_open_tmp("tt-sfpu-lm-XXXXXX.log", &lm_log_path, NULL);

    g_assert(fd >= 0);
    close(fd);
    args = g_strdup_printf(TT_ONE_COL " -d guest_errors,unimp -D %s",
                           lm_log_path);
    c->qts = qtest_init(args);
    c->x = TT_TX;
    c->y = TT_TY;

    li(c, 1, 0xc0000000);
    push(c, STORE(1, FP32, 0, 0));
    push(c, MAD(9, 9, 9, 12, 0));                   /* template 0 */
    push(c, TT_ENC_SFPABS(0, 0, 13, 1));            /* template 1 */
    push(c, TT_ENC_SFP_STOCH_RND(0, 0, 0, 0, 14, 1)); /* template 2 */
    lm_sequence(c, 0, 0x01, 0, 0, 0x04);
    lm_sequence(c, 1, 0x05, 0, 0x06, 0);
    push(c, CONFIG(0x100, 8, 1));

    push(c, LM(0, 2, FP32, 0, 0));                  /* nothing scheduled */
    push(c, NOP);
    check_all(c, 2, 0xc0000000);
    li(c, 5, 0x12345678);
    push(c, LM(1, 3, FP32, 0, 0));
    push(c, TT_ENC_SFPABS(0, 3, 5, 1));             /* meets the ABS */
    check_all(c, 5, 0x12345678);
    check_all(c, 3, 0x40000000);        /* round then simple: ABS's last */
    li(c, 0, 1 << 3 | 5);                           /* ABS after 1 */
    push(c, CONFIG(0x0001, 4, 8));                  /* column 0 only */
    push(c, LM(0, 2, FP32, 0, 0));
    push(c, NOP);
    check_all(c, 2, 0xc0000000);
    push(c, NOP);
    check_all(c, 2, 0x40000000);
    qtest_quit(c->qts);
    g_free(c);

    g_assert(g_file_get_contents(lm_log_path, &text, NULL, NULL));
    for (int i = 0; i < ARRAY_SIZE(expect); i++) {
        if (!strstr(text, expect[i])) {
            g_test_message("log lacks \"%s\"", expect[i]);
            g_test_message("%s", text);
        }
        g_assert_nonnull(strstr(text, expect[i]));
    }
    unlink(lm_log_path);
    g_free(lm_log_path);
}

/* Log of the last bad-input run */
static char *log_path;

/*
 * Undefined, reserved and non-contractual encodings and flag-stack
 * overflow / underflow are logged (-d guest_errors) and do nothing
 */
static void test_bad_input(void)
{
    static const char *const expect[] = {
        "SFPLOADI", "undefined Mod0 3", "flag stack empty",
        "flag stack full", "SFPSHFT", "reserved Mod1 4", "SFPCAST",
        "reserved Mod1 5", "SFPSWAP", "non-contractual", "SFPSHFT2",
        "undefined Mod1 7", "SFPCONFIG", "VD 9", "SFPMUL24", "not zero",
    };
    g_autofree char *args = NULL, *text = NULL;
    TTTensixCfg *c = g_new0(TTTensixCfg, 1);
    int fd = g_file_open_tmp("tt-sfpu-XXXXXX.log", &log_path, NULL);

    g_assert(fd >= 0);
    close(fd);
    args = g_strdup_printf(TT_ONE_COL " -d guest_errors -D %s", log_path);
    c->qts = qtest_init(args);
    c->x = TT_TX;
    c->y = TT_TY;

    li(c, 0, 0x12345678);
    push(c, LOADI(0, 3, 0x4000));
    check_all(c, 0, 0x12345678);
    push(c, POPC(0));
    check_cc(c, 0xffffffff, 1, 0);
    for (int i = 0; i < 9; i++) {
        push(c, PUSHC(0));
    }
    check_cc(c, 0xffffffff, 1, 8);
    for (int i = 0; i < 8; i++) {
        push(c, POPC(0));
    }
    push(c, SHFTI(1, 0, 0, 4));
    push(c, TT_ENC_SFPCAST(0, 0, 5));
    push(c, TT_ENC_SFPSWAP(0, 1, 0, 10));
    push(c, TT_ENC_SFPSHFT2(0, 1, 0, 7));
    push(c, CONFIG(0, 9, 1));
    li(c, 1, 2);
    push(c, TT_ENC_SFPMUL24(0, 0, 1, 0, 0));
    check_all(c, 0, 0x12345678);
    check_cc(c, 0xffffffff, 1, 0);
    /* still working */
    push(c, IADDI(1, 0, 0, 5));
    check_all(c, 0, 0x12345679);
    qtest_quit(c->qts);
    g_free(c);

    g_assert(g_file_get_contents(log_path, &text, NULL, NULL));
    for (int i = 0; i < ARRAY_SIZE(expect); i++) {
        if (!strstr(text, expect[i])) {
            g_test_message("log lacks \"%s\"", expect[i]);
            g_test_message("%s", text);
        }
        g_assert_nonnull(strstr(text, expect[i]));
    }
    unlink(log_path);
    g_free(log_path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/tensix-sfpu/reset", test_reset);
    qtest_add_func("/blackhole/tensix-sfpu/loadi", test_loadi);
    qtest_add_func("/blackhole/tensix-sfpu/lane-mapping", test_lane_mapping);
    qtest_add_func("/blackhole/tensix-sfpu/load-formats", test_load_formats);
    qtest_add_func("/blackhole/tensix-sfpu/load-store32", test_load_store32);
    qtest_add_func("/blackhole/tensix-sfpu/store-formats",
                   test_store_formats);
    qtest_add_func("/blackhole/tensix-sfpu/mad-vectors", test_mad_vectors);
    qtest_add_func("/blackhole/tensix-sfpu/mad-family", test_mad_family);
    qtest_add_func("/blackhole/tensix-sfpu/mad-indirect", test_mad_indirect);
    qtest_add_func("/blackhole/tensix-sfpu/integer", test_integer);
    qtest_add_func("/blackhole/tensix-sfpu/cast", test_cast);
    qtest_add_func("/blackhole/tensix-sfpu/cast-stochastic",
                   test_cast_stochastic);
    qtest_add_func("/blackhole/tensix-sfpu/exp-man", test_exp_man);
    qtest_add_func("/blackhole/tensix-sfpu/setcc", test_setcc);
    qtest_add_func("/blackhole/tensix-sfpu/predication", test_predication);
    qtest_add_func("/blackhole/tensix-sfpu/stack-ops", test_stack_ops);
    qtest_add_func("/blackhole/tensix-sfpu/gt-le", test_gt_le);
    qtest_add_func("/blackhole/tensix-sfpu/swap", test_swap);
    qtest_add_func("/blackhole/tensix-sfpu/transp", test_transp);
    qtest_add_func("/blackhole/tensix-sfpu/shft2", test_shft2);
    qtest_add_func("/blackhole/tensix-sfpu/lut", test_lut);
    qtest_add_func("/blackhole/tensix-sfpu/arecip", test_arecip);
    qtest_add_func("/blackhole/tensix-sfpu/stochrnd-nearest",
                   test_stochrnd_nearest);
    qtest_add_func("/blackhole/tensix-sfpu/stochrnd-doc", test_stochrnd_doc);
    qtest_add_func("/blackhole/tensix-sfpu/stochrnd-stochastic",
                   test_stochrnd_stochastic);
    qtest_add_func("/blackhole/tensix-sfpu/stochrnd-reference",
                   test_stochrnd_reference);
    qtest_add_func("/blackhole/tensix-sfpu/prng", test_prng);
    qtest_add_func("/blackhole/tensix-sfpu/config", test_config);
    qtest_add_func("/blackhole/tensix-sfpu/backdoor", test_backdoor);
    qtest_add_func("/blackhole/tensix-sfpu/lane-config", test_lane_config);
    qtest_add_func("/blackhole/tensix-sfpu/lane-config-migrate",
                   test_lane_config_migrate);
    qtest_add_func("/blackhole/tensix-sfpu/int32-all", test_int32_all);
    qtest_add_func("/blackhole/tensix-sfpu/lm-exp", test_lm_exp);
    qtest_add_func("/blackhole/tensix-sfpu/lm-recip8", test_lm_recip8);
    qtest_add_func("/blackhole/tensix-sfpu/lm-schedule", test_lm_schedule);
    qtest_add_func("/blackhole/tensix-sfpu/lm-where", test_lm_where);
    qtest_add_func("/blackhole/tensix-sfpu/lm-forget", test_lm_forget);
    qtest_add_func("/blackhole/tensix-sfpu/lm-cycles", test_lm_cycles);
    qtest_add_func("/blackhole/tensix-sfpu/lm-bad", test_lm_bad);
    qtest_add_func("/blackhole/tensix-sfpu/bad-input", test_bad_input);
    return g_test_run();
}
