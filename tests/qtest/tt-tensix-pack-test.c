/*
 * Blackhole Tensix packer: PACR from Dst to L1 in BF16, FP32, FP16,
 * BFP8_b/BFP4_b/BFP2_b and INT8/UINT8, ReLU, edge masks, L1 accumulate,
 * Last padding and output groups, the output address, read-interface
 * selection, 32-bit Dst reads and bad input.  Dst is filled through the
 * unpacker (thread 0: FP32/INT32 straight to Dst, 16-bit formats into SrcA
 * then MOVA2D on thread 1); PACR runs on thread 2.
 *
 * Expected values were worked out by hand from tenstorrent/
 * tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/PACR.md
 * and the Wormhole packer pages it defers to (WormholeB0/TensixTile/
 * TensixCoprocessor/Packers/FormatConversion.md, ReLU.md, EdgeMasking.md,
 * OutputAddressGenerator.md, InputAddressGenerator.md), Dst.md and
 * FloatBitPatterns.md; where those leave Blackhole details open (exact
 * rounding of the FP32 -> TF32 -> FP16 path, L1 accumulation) from ttsim
 * src/tensix.cpp, as noted above each table.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "tt-qtest-util.h"
#include "tt-tensix-enc.h"      /* generated from data/tensix-isa.yaml */
#include "tt-tensix-config.h"   /* generated from data/tensix-config.yaml */

#define L1_SRC 0x20000          /* unpacker input */
#define L1_P 0x40000            /* packer output */
#define L1_SIZE (1536 * 1024)

#define MATH 1
#define PACK 2
/* PACR with the fields Blackhole software uses (tt-llk) left at 0 */
#define PACR(intf, am, last) \
    TT_ENC_PACR(0, 0, 0, am, 0, 0, intf, 0, 0, 0, 0, last)

static void push(TTTensixCfg *c, int thread, uint32_t insn)
{
    tt_tensix_push(c->qts, c->x, c->y, thread, insn);
}

/* Start, keeping exponent-0 values as they are when MOVA2D fills Dst */
static TTTensixCfg *start(void)
{
    TTTensixCfg *c = tt_tensix_start();

    TT_CFG_SET(c, ALU_ACC_CTRL_Zero_Flag_disabled_src, 1);
    return c;
}

/* Dst16b rows @row0.. (@n a multiple of 8) = @v, BF16 or FP16 */
static void dst_fill16(TTTensixCfg *c, int fmt, int row0, const uint16_t *v,
                       int n)
{
    tt_tensix_l1_write16(c, L1_SRC, v, 16 * n);
    tt_tensix_unpack_setup(c, 0, fmt, fmt, L1_SRC, 16 * n, 1, 1, 16 * n);
    push(c, 0, TT_UNPACR(0, 0, 1));
    for (int i = 0; i < n; i += 8) {
        push(c, MATH, TT_ENC_MOVA2D(0, i, 0, 2, row0 + i));
    }
    push(c, MATH, TT_ENC_CLEARDVALID(1, 0));
}

/* Dst32b row @row = @v (FP32 or INT32), unpacked straight to Dst */
static void dst_fill32(TTTensixCfg *c, int fmt, int row, const uint32_t *v)
{
    tt_tensix_l1_write32(c, L1_SRC, v, 16);
    tt_tensix_unpack_setup(c, 0, fmt, fmt, L1_SRC, 16, 1, 1, 16);
    TT_CFG_SET(c, THCON_SEC0_REG2_Unpack_if_sel_cntx0, 1);
    TT_CFG_SET(c, THCON_SEC0_REG5_Dest_cntx0_address, 16 * (4 + row));
    TT_THCFG_SET(c, 0, SRCA_SET_SetOvrdWithAddr, 0);
    push(c, 0, TT_UNPACR(0, 0, 0));
    TT_THCFG_SET(c, 0, SRCA_SET_SetOvrdWithAddr, 1);
    TT_CFG_SET(c, THCON_SEC0_REG2_Unpack_if_sel_cntx0, 0);
}

/*
 * Packer configuration for Dst format @in (IntermediateFormat = Dstacc =
 * In_data_format, which ttsim src/tensix.cpp requires to agree) to L1
 * format @out at byte @dest: L1_Dest_addr is in 16-byte units and the
 * packer adds one (!Sub_l1_tile_header_size, OutputAddressGenerator.md).
 * Input Y stride = one Dst row of the source datum size; all 16 rows of a
 * face in one xy plane; edge mask SEC0 keeps every column; X range 0-15
 * (SETADCXX on the packer ADCs of thread 2).
 */
static void pack_setup(TTTensixCfg *c, int in, int out, bool read32,
                       uint32_t dest)
{
    int bytes = (in & 3) == 0 ? 4 : (in & 3) == 1 ? 2 : 1;

    TT_CFG_SET(c, ALU_FORMAT_SPEC_REG2_Dstacc, in);
    TT_CFG_SET(c, THCON_SEC0_REG1_In_data_format, in);
    TT_CFG_SET(c, THCON_SEC0_REG1_Out_data_format, out);
    TT_CFG_SET(c, PCK_DEST_RD_CTRL_Read_32b_data, read32);
    TT_CFG_SET(c, PCK0_ADDR_CTRL_XY_REG_0_Ystride, 16 * bytes);
    TT_CFG_SET_N(c, PACK_COUNTERS_SECn_pack_reads_per_xy_plane, 0, 16);
    TT_CFG_SET_N(c, PCK_EDGE_OFFSET_SECn_mask, 0, 0xffff);
    TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr, dest / 16 - 1);
    push(c, PACK, TT_ENC_SETADCXX(4, 15, 0));
}

static void l1_fill(TTTensixCfg *c, uint32_t addr, uint8_t byte, size_t n)
{
    g_autofree uint8_t *p = g_malloc(n);

    memset(p, byte, n);
    tt_write(c->qts, c->x, c->y, "brisc", addr, p, n);
}

static void check_l1_8(TTTensixCfg *c, uint32_t addr, const uint8_t *exp,
                       int n)
{
    g_autofree char *what = g_strdup_printf("L1 bytes at 0x%x", addr);
    g_autofree uint8_t *p = g_malloc(n);
    g_autofree uint32_t *got = g_new(uint32_t, n);
    g_autofree uint32_t *want = g_new(uint32_t, n);

    tt_read(c->qts, c->x, c->y, "brisc", addr, p, n);
    for (int i = 0; i < n; i++) {
        got[i] = p[i];
        want[i] = exp[i];
    }
    tt_check_row(what, got, want, n);
}

static void check_l1_16(TTTensixCfg *c, uint32_t addr, const uint16_t *exp,
                        int n)
{
    g_autofree char *what = g_strdup_printf("L1 halfwords at 0x%x", addr);
    g_autofree uint16_t *p = g_new(uint16_t, n);
    g_autofree uint32_t *got = g_new(uint32_t, n);
    g_autofree uint32_t *want = g_new(uint32_t, n);

    tt_read(c->qts, c->x, c->y, "brisc", addr, p, 2 * n);
    for (int i = 0; i < n; i++) {
        got[i] = le16_to_cpu(p[i]);
        want[i] = exp[i];
    }
    tt_check_row(what, got, want, n);
}

static void check_l1_32(TTTensixCfg *c, uint32_t addr, const uint32_t *exp,
                        int n)
{
    g_autofree char *what = g_strdup_printf("L1 words at 0x%x", addr);
    g_autofree uint32_t *got = g_new(uint32_t, n);

    tt_read(c->qts, c->x, c->y, "brisc", addr, got, 4 * n);
    for (int i = 0; i < n; i++) {
        got[i] = le32_to_cpu(got[i]);
    }
    tt_check_row(what, got, exp, n);
}

/* @n bytes at @addr still hold @byte */
static void check_untouched(TTTensixCfg *c, uint32_t addr, uint8_t byte,
                            int n)
{
    g_autofree uint8_t *exp = g_malloc(n);

    memset(exp, byte, n);
    check_l1_8(c, addr, exp, n);
}

/* Dst rows of 0x4000 + 16r + c (2.0 upwards, all distinct, BF16) */
static void dst_rows_bf16(TTTensixCfg *c, int nrows)
{
    g_autofree uint16_t *v = g_new(uint16_t, 16 * nrows);

    for (int i = 0; i < 16 * nrows; i++) {
        v[i] = 0x4000 + i;
    }
    dst_fill16(c, TT_FMT_BF16, 0, v, nrows);
}

/*
 * BF16 Dst -> BF16 L1 (Packers/FormatConversion.md, IntermediateFormat
 * BF16 with Read_raw = 0, "Rounding": denormals and -0 become +0, NaN
 * becomes infinity with its sign; the late conversion is the identity).
 * ReadIntfSel 0 packs Dst rows 0-3 (64 datums, PACR.md), contiguously
 * from L1_Dest_addr + 1; the 16-byte slot before it is not written.
 */
static void test_bf16(void)
{
    static const uint16_t row0[16] = {
        0x3f80, 0xc049, 0x7fc0, 0xffc1, 0x0001, 0x8000, 0x807f, 0x0080,
        0x7f80, 0xff80, 0x7f7f, 0x4000, 0x8080, 0x3f81, 0x4049, 0xbf80,
    };
    static const uint16_t exp0[16] = {
        0x3f80, 0xc049, 0x7f80, 0xff80, 0x0000, 0x0000, 0x0000, 0x0080,
        0x7f80, 0xff80, 0x7f7f, 0x4000, 0x8080, 0x3f81, 0x4049, 0xbf80,
    };
    uint16_t v[8 * 16] = { 0 }, exp[64];
    TTTensixCfg *c = start();

    memcpy(v, row0, sizeof(row0));
    memcpy(exp, exp0, sizeof(exp0));
    for (int i = 16; i < 64; i++) {
        v[i] = exp[i] = 0x4000 + i;
    }
    dst_fill16(c, TT_FMT_BF16, 0, v, 8);
    l1_fill(c, L1_P - 16, 0xaa, 256);
    pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, false, L1_P);
    push(c, PACK, PACR(0, 0, 1));
    check_l1_16(c, L1_P, exp, 64);
    check_untouched(c, L1_P - 16, 0xaa, 16);
    check_untouched(c, L1_P + 128, 0xaa, 64);
    tt_tensix_end(c);
}

/*
 * Dst rows whose valid bit is clear pack as zeros (as ttsim reads them):
 * ZEROACC clears the bits of rows 0-7, not their datums
 */
static void test_invalid_rows(void)
{
    uint16_t v[8 * 16], zero[64] = { 0 };
    TTTensixCfg *c = start();

    for (int i = 0; i < 8 * 16; i++) {
        v[i] = 0x4000 + i;
    }
    dst_fill16(c, TT_FMT_BF16, 0, v, 8);
    push(c, MATH, TT_ENC_ZEROACC(3, 0, 0, 0, 0));
    l1_fill(c, L1_P - 16, 0xaa, 256);
    pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, false, L1_P);
    push(c, PACK, PACR(0, 0, 1));
    check_l1_16(c, L1_P, zero, 64);
    check_untouched(c, L1_P + 128, 0xaa, 64);
    tt_tensix_end(c);
}

/*
 * FP32 Dst -> FP32 L1 (Read_32b_data, identity: NaN and denormals
 * preserved, FormatConversion.md).  Dst32b row 12, reached through
 * DEST_TARGET_REG_CFG_PACK_SEC0_Offset = 12 (InputAddressGenerator.md),
 * is DstBits 20 / 28 (Dst.md Adj32).  ReadIntfSel 1: one row.
 */
static void test_fp32(void)
{
    static const uint32_t v[16] = {
        0x3f800000, 0x7fc00001, 0x00400000, 0x80000000, 0xc0490fdb,
        0x3f800001, 0xff800000, 0x00000001, 0x12345678, 0x7f7fffff,
        0x807fffff, 0x40000000, 0xbf800000, 0x33800000, 0x7f800000,
        0x3faaaaab,
    };
    TTTensixCfg *c = start();

    dst_fill32(c, TT_FMT_FP32, 12, v);
    pack_setup(c, TT_FMT_FP32, TT_FMT_FP32, true, L1_P);
    TT_CFG_SET_N(c, DEST_TARGET_REG_CFG_PACK_SECn_Offset, 0, 12);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_32(c, L1_P, v, 16);
    tt_tensix_end(c);
}

/*
 * FP32 Dst -> BF16 (FormatConversion.md, IntermediateFormat BF16 with
 * Read_32b_data and Read_raw = 0, "Rounding": round to nearest, ties away
 * from zero, on the magnitude; denormals and -0 -> +0; NaN -> Inf):
 * 0x3f808000 -> 0x3f81 (tie), 0xbf808000 -> 0xbf81, 0x3f807fff -> 0x3f80,
 * 0x7f7fffff -> 0x7f80, 0x7fc00001 -> 0x7f80, 0x407f8000 -> 0x4080,
 * 0x3fffffff -> 0x4000, 0x00400000 and 0x80000000 -> 0.
 */
static void test_fp32_to_bf16(void)
{
    static const uint32_t v[16] = {
        0x3f808000, 0xbf808000, 0x3f80ffff, 0x7f7fffff, 0x7fc00001,
        0x00400000, 0x80000000, 0x3f807fff, 0x3f800000, 0xc0490fdb,
        0x3f818000, 0x407f8000, 0xff800000, 0x00800000, 0x80800000,
        0x3fffffff,
    };
    static const uint16_t exp[16] = {
        0x3f81, 0xbf81, 0x3f81, 0x7f80, 0x7f80, 0x0000, 0x0000, 0x3f80,
        0x3f80, 0xc049, 0x3f82, 0x4080, 0xff80, 0x0080, 0x8080, 0x4000,
    };
    TTTensixCfg *c = start();

    dst_fill32(c, TT_FMT_FP32, 0, v);
    pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, true, L1_P);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_16(c, L1_P, exp, 16);
    tt_tensix_end(c);
}

/*
 * FP32 Dst -> BFP8_b (FormatConversion.md): either IntermediateFormat FP32
 * and the late conversion truncating to BF16 first, or IntermediateFormat
 * BFP8 = E8M6 (6 mantissa bits, rounded ties away) from the early
 * conversion; then the shared exponent (here 0x80, from 2.0) and
 * magnitude (m + 2^sh) >> (sh + 1):
 *   value        BF16 trunc -> code    E8M6 -> code
 *   0x3f808000   3f80 -> 0x20          3f80 -> 0x20
 *   0x3f810000   3f81 -> 0x20          3f82 -> 0x21
 *   0x3f830000   3f83 -> 0x21          3f84 -> 0x21
 *   0x3f7f0000   3f7f -> 0x20          3f80 -> 0x20
 *   2.0 -> 0x40, -2.0 -> 0xc0, 1.0 -> 0x20, 0 -> 0.
 */
static void test_fp32_to_bfp8(void)
{
    static const uint32_t v[16] = {
        0x3f808000, 0x3f810000, 0x3f830000, 0x3f7f0000, 0x3f80ffff,
        0x40000000, 0xc0000000, 0x3f800000,
    };
    static const uint8_t exp_trunc[16] = {
        0x20, 0x20, 0x21, 0x20, 0x20, 0x40, 0xc0, 0x20,
    };
    static const uint8_t exp_e8m6[16] = {
        0x20, 0x21, 0x21, 0x20, 0x20, 0x40, 0xc0, 0x20,
    };
    static const uint8_t exps[16] = { 0x80 };
    TTTensixCfg *c = start();

    dst_fill32(c, TT_FMT_FP32, 0, v);
    pack_setup(c, TT_FMT_FP32, TT_FMT_BFP8, true, L1_P);
    TT_CFG_SET(c, THCON_SEC0_REG1_Exp_section_size, 1);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_8(c, L1_P, exps, 16);
    check_l1_8(c, L1_P + 16, exp_trunc, 16);

    pack_setup(c, TT_FMT_BFP8, TT_FMT_BFP8, true, L1_P + 0x100);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_8(c, L1_P + 0x100, exps, 16);
    check_l1_8(c, L1_P + 0x110, exp_e8m6, 16);
    tt_tensix_end(c);
}

/*
 * FP16 Dst -> FP8 E4M3 (Blackhole: THCON_SEC0_REG1_Pac_LF8_4b_exp; the
 * conversion is that of ttsim src/tensix.cpp, the Wormhole page only has
 * E5M2): FP16 exponent e <= 8 -> signed zero, e >= 24 -> sign | 0x7f,
 * else sign | (e - 8) << 3 | man10 >> 7 (truncation).  0x3c00 -> 0x38,
 * 0x3e00 -> 0x3c, 0x5f00 (448) -> 0x7e, 0x6000 (512) -> 0x7f, 0x2400
 * (2^-6) -> 0x08, 0x2000 -> 0x00, 0x4248 -> 0x44, 0x5b80 (240) -> 0x77.
 */
static void test_fp8_e4m3(void)
{
    static const uint16_t in[16] = {
        0x3c00, 0x3e00, 0x3fff, 0x5f00, 0x6000, 0x2400, 0x2000, 0xbc00,
        0x7bff, 0x0001, 0x8000, 0xe000, 0x4248, 0x2800, 0x5b80, 0xa400,
    };
    static const uint8_t exp[16] = {
        0x38, 0x3c, 0x3f, 0x7e, 0x7f, 0x08, 0x00, 0xb8,
        0x7f, 0x00, 0x00, 0xff, 0x44, 0x10, 0x77, 0x88,
    };
    uint16_t v[8 * 16] = { 0 };
    TTTensixCfg *c = start();

    memcpy(v, in, sizeof(in));
    dst_fill16(c, TT_FMT_FP16, 0, v, 8);
    pack_setup(c, TT_FMT_FP16, TT_FMT_FP8, false, L1_P);
    TT_CFG_SET(c, THCON_SEC0_REG1_Pac_LF8_4b_exp, 1);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_8(c, L1_P, exp, 16);
    tt_tensix_end(c);
}

/*
 * FP16 out, three ways:
 * - FP16 Dst -> FP16 (FormatConversion.md, rounding form: exponent-0
 *   values, including -0, become +0; others unchanged).
 * - FP32 Dst -> FP16 by the late conversion ("Saturate if there is
 *   narrowing of exponent, then truncate"): e = exp8 - 112, e < 0 -> signed
 *   zero, e > 31 -> sign | 0x7fff (Inf and NaN too), else truncated:
 *   65520 (0x477ff000) -> 0x7bff, 2^16 -> 0x7c00, 1.5 * 2^-15 -> 0x0200
 *   (the "mishandled" band), -pi -> 0xc248.
 * - FP32 Dst rounded at TF32 then FP16 (IntermediateFormat FP16 with
 *   Read_32b_data and Round_10b_mant; Blackhole path of ttsim
 *   src/tensix.cpp): add 0x1000, keep 19 bits, flush exponent 0, then as
 *   above: 0x3f801000 -> 0x3c01, 0x3f803000 -> 0x3c02, 0x477ff000 ->
 *   0x7c00, 0x47fff000 -> 0x7fff, 0x38401000 -> 0x0201, NaN -> 0x7fff.
 */
static void test_fp16(void)
{
    static const uint16_t in16[16] = {
        0x3c00, 0x0001, 0x8000, 0x7c00, 0x7fff, 0xc500, 0x0400, 0x83ff,
        0x3555, 0xfbff, 0x8400, 0x0000, 0x5bff, 0x4248, 0x0200, 0xffff,
    };
    static const uint16_t exp16[16] = {
        0x3c00, 0x0000, 0x0000, 0x7c00, 0x7fff, 0xc500, 0x0400, 0x0000,
        0x3555, 0xfbff, 0x8400, 0x0000, 0x5bff, 0x4248, 0x0000, 0xffff,
    };
    static const uint32_t in_late[16] = {
        0x3f800000, 0x477ff000, 0x477fffff, 0x47800000, 0x7f800000,
        0x3727c5ac, 0x38000000, 0x38400000, 0x38800000, 0xc0490fdb,
        0xff800000, 0xc7800000, 0x3f801fff, 0x00000000, 0x80000000,
        0x7fc00000,
    };
    static const uint16_t exp_late[16] = {
        0x3c00, 0x7bff, 0x7bff, 0x7c00, 0x7fff, 0x0000, 0x0000, 0x0200,
        0x0400, 0xc248, 0xffff, 0xfc00, 0x3c00, 0x0000, 0x8000, 0x7fff,
    };
    static const uint32_t in_tf32[16] = {
        0x3f800fff, 0x3f801000, 0x3f803000, 0x477ff000, 0xc0490fdb,
        0x7fc00000, 0x38000000, 0x33800000, 0x00400000, 0xbf800000,
        0x3f800000, 0x47fff000, 0x38401000, 0x477fe000, 0x80000000,
        0x40000000,
    };
    static const uint16_t exp_tf32[16] = {
        0x3c00, 0x3c01, 0x3c02, 0x7c00, 0xc248, 0x7fff, 0x0000, 0x0000,
        0x0000, 0xbc00, 0x3c00, 0x7fff, 0x0201, 0x7bff, 0x0000, 0x4000,
    };
    uint16_t v[8 * 16] = { 0 };
    TTTensixCfg *c = start();

    memcpy(v, in16, sizeof(in16));
    dst_fill16(c, TT_FMT_FP16, 0, v, 8);
    pack_setup(c, TT_FMT_FP16, TT_FMT_FP16, false, L1_P);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_16(c, L1_P, exp16, 16);

    dst_fill32(c, TT_FMT_FP32, 16, in_late);
    pack_setup(c, TT_FMT_FP32, TT_FMT_FP16, true, L1_P + 0x100);
    TT_CFG_SET_N(c, DEST_TARGET_REG_CFG_PACK_SECn_Offset, 0, 16);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_16(c, L1_P + 0x100, exp_late, 16);

    dst_fill32(c, TT_FMT_FP32, 20, in_tf32);
    pack_setup(c, TT_FMT_FP16, TT_FMT_FP16, true, L1_P + 0x200);
    TT_CFG_SET(c, PCK_DEST_RD_CTRL_Round_10b_mant, 1);
    TT_CFG_SET_N(c, DEST_TARGET_REG_CFG_PACK_SECn_Offset, 0, 20);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_16(c, L1_P + 0x200, exp_tf32, 16);
    tt_tensix_end(c);
}

/*
 * BF16 Dst -> BFP8_b / BFP4_b / BFP2_b (FormatConversion.md "To BFP8":
 * BF16, then one shared 8-bit exponent per 16 datums, round to nearest
 * with ties away from zero; BFP4/BFP2 truncate the BFP8 magnitude).  Per
 * datum: m = 0x80 | man7, sh = E - exp, mag = (m + 2^sh) >> (sh + 1),
 * sh >= 8 -> 0; sign only on non-zero magnitudes (sign-magnitude 0 with
 * sign means -Inf, FloatBitPatterns.md "BFP").  The early BF16 rounding
 * makes the denormal 0x0040 and -0 zero.  Row 0:
 *   3f80 3f40 4040 bf00 3f81 3fff 0000 8000 2f80 c0a0 4080 407f 3e00 0040
 *   4000 c000  ->  E = 0x81:
 *   3f80: sh 2, (128 + 4) >> 3 = 16;  3f40: exp 7e, m 0xc0, sh 3 -> 12;
 *   4040: sh 1, (192 + 2) >> 2 = 48;  bf00 -> 8 with sign = 0x88;
 *   3f81: (129 + 4) >> 3 = 16;  3fff: (255 + 4) >> 3 = 32;  2f80: sh 34 ->
 *   0;  c0a0: (160 + 1) >> 1 = 80 -> 0xd0;  4080 -> 64;  407f: (255 + 2)
 *   >> 2 = 64;  3e00: (128 + 32) >> 6 = 2;  4000 -> 32;  c000 -> 0xa0.
 *   BFP4 keeps mag >> 4: 1 0 3 0(-0 dropped) 1 2 0 0 0 d 4 4 0 0 2 a;
 *   BFP2 keeps mag >> 6: only c0a0 (sign, 1), 4080, 407f are non-zero.
 * Rows 1-3 = 1.0: E = 0x7f, magnitude 64 (BFP8 0x40, BFP4 4, BFP2 1).
 * L1: the exponent section (Exp_section_size = 1, 16 bytes: 81 7f 7f 7f
 * and 12 zero bytes padded by Last) comes first, the data after it
 * (OutputAddressGenerator.md ExponentStream / DataStream).
 */
static void test_bfp(void)
{
    static const uint16_t row0[16] = {
        0x3f80, 0x3f40, 0x4040, 0xbf00, 0x3f81, 0x3fff, 0x0000, 0x8000,
        0x2f80, 0xc0a0, 0x4080, 0x407f, 0x3e00, 0x0040, 0x4000, 0xc000,
    };
    static const uint8_t exps[16] = { 0x81, 0x7f, 0x7f, 0x7f };
    static const uint8_t bfp8_0[16] = {
        0x10, 0x0c, 0x30, 0x88, 0x10, 0x20, 0x00, 0x00,
        0x00, 0xd0, 0x40, 0x40, 0x02, 0x00, 0x20, 0xa0,
    };
    static const uint8_t bfp4_0[8] = {
        0x01, 0x03, 0x21, 0x00, 0xd0, 0x44, 0x00, 0xa2,
    };
    static const uint8_t bfp2_0[4] = { 0x00, 0x00, 0x5c, 0x00 };
    static const struct {
        int fmt, bytes_per_row;
        const uint8_t *row0;
        uint8_t rest;
    } out[] = {
        { TT_FMT_BFP8, 16, bfp8_0, 0x40 },
        { TT_FMT_BFP4, 8, bfp4_0, 0x44 },
        { TT_FMT_BFP2, 4, bfp2_0, 0x55 },
    };
    uint16_t v[8 * 16];
    TTTensixCfg *c = start();

    for (int i = 0; i < 128; i++) {
        v[i] = i < 16 ? row0[i] : 0x3f80;
    }
    dst_fill16(c, TT_FMT_BF16, 0, v, 8);
    for (int k = 0; k < ARRAY_SIZE(out); k++) {
        uint32_t dest = L1_P + 0x100 * k;
        int n = 4 * out[k].bytes_per_row;
        uint8_t data[64];

        memcpy(data, out[k].row0, out[k].bytes_per_row);
        memset(data + out[k].bytes_per_row, out[k].rest,
               n - out[k].bytes_per_row);
        l1_fill(c, dest, 0xaa, 0x100);
        pack_setup(c, TT_FMT_BF16, out[k].fmt, false, dest);
        TT_CFG_SET(c, THCON_SEC0_REG1_Exp_section_size, 1);
        push(c, PACK, PACR(0, 0, 1));
        g_test_message("format %d", out[k].fmt);
        check_l1_8(c, dest, exps, 16);
        check_l1_8(c, dest + 16, data, n);
        check_untouched(c, dest + 16 + n, 0xaa, 16);
    }
    tt_tensix_end(c);
}

/*
 * INT32 Dst -> INT8 / UINT8 (FormatConversion.md, IntermediateFormat INT8
 * with Read_raw = 0 and no shift: saturate to -127..127 keeping the sign
 * (sign-magnitude), or to 0..255 with Read_unsigned, negatives -> 0).
 * Inputs are sign-magnitude INT32 (Dst.md): 5, 300, -5, -0, -300, 127,
 * 128, -127, -128, 255, 256, 0, 1, -1, 0x7fffffff, -0x7fffffff.
 */
static void test_int8(void)
{
    static const uint32_t v[16] = {
        5, 300, 0x80000005, 0x80000000, 0x8000012c, 127, 128, 0x8000007f,
        0x80000080, 255, 256, 0, 1, 0x80000001, 0x7fffffff, 0xffffffff,
    };
    static const uint8_t exp_signed[16] = {
        0x05, 0x7f, 0x85, 0x80, 0xff, 0x7f, 0x7f, 0xff,
        0xff, 0x7f, 0x7f, 0x00, 0x01, 0x81, 0x7f, 0xff,
    };
    static const uint8_t exp_unsigned[16] = {
        0x05, 0xff, 0x00, 0x00, 0x00, 0x7f, 0x80, 0x00,
        0x00, 0xff, 0xff, 0x00, 0x01, 0x00, 0xff, 0x00,
    };
    TTTensixCfg *c = start();

    dst_fill32(c, TT_FMT_INT32, 0, v);
    pack_setup(c, TT_FMT_INT8, TT_FMT_INT8, true, L1_P);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_8(c, L1_P, exp_signed, 16);
    TT_CFG_SET(c, PCK_DEST_RD_CTRL_Read_unsigned, 1);
    TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr, (L1_P + 0x100) / 16 - 1);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_8(c, L1_P + 0x100, exp_unsigned, 16);
    tt_tensix_end(c);
}

/*
 * The other INT32 -> INT8 / UINT8 conversions of FormatConversion.md, on
 * test_int8's inputs: Read_raw (PCK_DEST_RD_CTRL_Read_int8) keeps the
 * sign and the low 7 bits of the magnitude, or (UINT8) its low 8 bits;
 * INT_DESCALE (Enable, SEC0 Value 4) shifts the magnitude right by 4,
 * rounds to nearest with ties away from zero from the shifted-out bits,
 * then saturates; ReLU mode 1 (ReLU.md) zeroes negative integers.
 */
static void test_int8_raw_descale_relu(void)
{
    static const uint32_t v[16] = {
        5, 300, 0x80000005, 0x80000000, 0x8000012c, 127, 128, 0x8000007f,
        0x80000080, 255, 256, 0, 1, 0x80000001, 0x7fffffff, 0xffffffff,
    };
    static const uint8_t exp_raw[16] = {
        0x05, 0x2c, 0x85, 0x80, 0xac, 0x7f, 0x00, 0xff,
        0x80, 0x7f, 0x00, 0x00, 0x01, 0x81, 0x7f, 0xff,
    };
    static const uint8_t exp_raw_unsigned[16] = {
        0x05, 0x2c, 0x05, 0x00, 0x2c, 0x7f, 0x80, 0x7f,
        0x80, 0xff, 0x00, 0x00, 0x01, 0x01, 0xff, 0xff,
    };
    /* 300 >> 4 = 18.75 -> 19; 127 -> 7.9 -> 8; 255 -> 15.9 -> 16 */
    static const uint8_t exp_shift4[16] = {
        0x00, 0x13, 0x80, 0x80, 0x93, 0x08, 0x08, 0x88,
        0x88, 0x10, 0x10, 0x00, 0x00, 0x80, 0x7f, 0xff,
    };
    static const uint8_t exp_relu[16] = {
        0x05, 0x7f, 0x00, 0x00, 0x00, 0x7f, 0x7f, 0x00,
        0x00, 0x7f, 0x7f, 0x00, 0x01, 0x00, 0x7f, 0x00,
    };
    TTTensixCfg *c = start();

    dst_fill32(c, TT_FMT_INT32, 0, v);
    pack_setup(c, TT_FMT_INT8, TT_FMT_INT8, true, L1_P);
    TT_CFG_SET(c, PCK_DEST_RD_CTRL_Read_int8, 1);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_8(c, L1_P, exp_raw, 16);
    TT_CFG_SET(c, PCK_DEST_RD_CTRL_Read_unsigned, 1);
    TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr, (L1_P + 0x100) / 16 - 1);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_8(c, L1_P + 0x100, exp_raw_unsigned, 16);

    TT_CFG_SET(c, PCK_DEST_RD_CTRL_Read_unsigned, 0);
    TT_CFG_SET(c, PCK_DEST_RD_CTRL_Read_int8, 0);
    TT_CFG_SET(c, INT_DESCALE_Enable, 1);
    TT_CFG_SET_N(c, INT_DESCALE_VALUES_SECn_Value, 0, 4);
    TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr, (L1_P + 0x200) / 16 - 1);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_8(c, L1_P + 0x200, exp_shift4, 16);

    TT_CFG_SET(c, INT_DESCALE_Enable, 0);
    TT_CFG_SET(c, STACC_RELU_ApplyRelu, 1);
    TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr, (L1_P + 0x300) / 16 - 1);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_8(c, L1_P + 0x300, exp_relu, 16);
    tt_tensix_end(c);
}

/*
 * ReLU after the early conversion (ReLU.md), threshold 1.0 (BF16 0x3f80):
 * mode 1 x <= 0 -> 0; mode 2 x <= 1.0 -> 0; mode 3 clamp to [0, 1.0].
 * The early BF16 rounding already turned -0 into +0.
 */
static void test_relu(void)
{
    static const uint16_t in[16] = {
        0x3f80, 0x4000, 0x3f00, 0xbf80, 0x8000, 0x0000, 0x7f80, 0x3f81,
        0xc000, 0x3e80, 0x40a0, 0xff80, 0x3f7f, 0x4049, 0xbe00, 0x0080,
    };
    static const uint16_t exp[3][16] = {
        { 0x3f80, 0x4000, 0x3f00, 0x0000, 0x0000, 0x0000, 0x7f80, 0x3f81,
          0x0000, 0x3e80, 0x40a0, 0x0000, 0x3f7f, 0x4049, 0x0000, 0x0080 },
        { 0x0000, 0x4000, 0x0000, 0x0000, 0x0000, 0x0000, 0x7f80, 0x3f81,
          0x0000, 0x0000, 0x40a0, 0x0000, 0x0000, 0x4049, 0x0000, 0x0000 },
        { 0x3f80, 0x3f80, 0x3f00, 0x0000, 0x0000, 0x0000, 0x3f80, 0x3f80,
          0x0000, 0x3e80, 0x3f80, 0x0000, 0x3f7f, 0x3f80, 0x0000, 0x0080 },
    };
    uint16_t v[8 * 16] = { 0 };
    TTTensixCfg *c = start();

    memcpy(v, in, sizeof(in));
    dst_fill16(c, TT_FMT_BF16, 0, v, 8);
    pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, false, L1_P);
    TT_CFG_SET(c, STACC_RELU_ReluThreshold, 0x3f80);
    for (int mode = 1; mode <= 3; mode++) {
        uint32_t dest = L1_P + 0x100 * mode;

        TT_CFG_SET(c, STACC_RELU_ApplyRelu, mode);
        TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr, dest / 16 - 1);
        push(c, PACK, PACR(1, 0, 1));
        g_test_message("ReLU mode %d", mode);
        check_l1_16(c, dest, exp[mode - 1], 16);
    }
    tt_tensix_end(c);
}

/*
 * Edge masking (EdgeMasking.md): the tile position generator's row Y
 * picks TILE_ROW_SET_MAPPING_0.row_set_mapping[Y], which picks
 * PCK_EDGE_OFFSET_SEC[c].mask; a datum whose column bit is clear is
 * packed as 0.  Y advances every 16 datums (one Dst row, one read
 * interface, PACR.md) and restarts with each output group.  Rows 1 and 3
 * use SEC1: mask 0x0001 keeps column 0 only, then mask 0 keeps nothing.
 */
static void test_edge_mask(void)
{
    TTTensixCfg *c = start();

    dst_rows_bf16(c, 8);
    pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, false, L1_P);
    TT_CFG_SET_N(c, TILE_ROW_SET_MAPPING_n_row_set_mapping_1, 0, 1);
    TT_CFG_SET_N(c, TILE_ROW_SET_MAPPING_n_row_set_mapping_3, 0, 1);
    for (int k = 0; k < 2; k++) {
        uint32_t dest = L1_P + 0x100 * k;
        uint16_t exp[64];

        TT_CFG_SET_N(c, PCK_EDGE_OFFSET_SECn_mask, 1, k ? 0 : 1);
        TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr, dest / 16 - 1);
        push(c, PACK, PACR(0, 0, 1));
        for (int i = 0; i < 64; i++) {
            int row = i / 16, col = i % 16;
            bool kept = !(row & 1) || (k == 0 && col == 0);

            exp[i] = kept ? 0x4000 + i : 0;
        }
        check_l1_16(c, dest, exp, 64);
    }
    tt_tensix_end(c);
}

/*
 * L1 accumulation (THCON_SEC0_REG1_Pack_L1_Acc; L1.md near-memory
 * accumulate) adds each packed datum to what L1 holds.  The rounding is
 * that of ttsim src/tensix.cpp pack_l1_acc_fp32/bf16: IEEE addition with
 * round to nearest even, denormal inputs and results flushed to signed
 * zero, a NaN result is 0x7fc00000; for BF16 a NaN operand acts as a huge
 * number (-> 0x7f80) and +Inf + -Inf gives 0x7fc0.
 *   FP32 (old + new): 1 + 1 = 2; 2^-149 + 1 = 1; Inf - Inf and NaN + 0 ->
 *   0x7fc00000; 2^-126 - 2^-126 (1 + 2^-23) = -2^-149 -> -0; 1 + 2^-24 ->
 *   1 (tie, even); (1 + 2^-23) + 2^-24 -> 1 + 2^-22 (tie, even); 3 - 2;
 *   1 - 1 = +0; max + max = Inf; 0 + denormal = 0; -0 + -0 = -0;
 *   1 + NaN; 2 + 2; 1.5 + 1.5; 1 + 0.
 *   BF16: 1 + 1; NaN + 1 -> 0x7f80; 1 + 2^-8 -> 0x3f80 (tie, even);
 *   1 + 0x3b81 -> 0x3f81; denormal + 1 -> 1; max + max -> 0x7f80;
 *   Inf + -Inf -> 0x7fc0; 0x3f81 + 2^-8 -> 0x3f82 (tie, even); 2 - 1;
 *   1 - 1 and -1 + 1 -> +0; 2^-126 - 2^-126 -> 0; 2^-125 - 2^-126 =
 *   2^-126; 1.5 * 2^-126 - 2^-126 is denormal -> 0; 1 + 0; 0 + 0.
 */
static void test_l1_acc(void)
{
    static const uint32_t old32[16] = {
        0x3f800000, 0x00000001, 0x7f800000, 0x7fc00000, 0x00800000,
        0x3f800000, 0x3f800001, 0x40400000, 0x3f800000, 0x7f7fffff,
        0x00000000, 0x80000000, 0x3f800000, 0x40000000, 0x3fc00000,
        0x3f800000,
    };
    static const uint32_t new32[16] = {
        0x3f800000, 0x3f800000, 0xff800000, 0x00000000, 0x80800001,
        0x33800000, 0x33800000, 0xc0000000, 0xbf800000, 0x7f7fffff,
        0x00400000, 0x80000000, 0x7fc00000, 0x40000000, 0x3fc00000,
        0x00000000,
    };
    static const uint32_t sum32[16] = {
        0x40000000, 0x3f800000, 0x7fc00000, 0x7fc00000, 0x80000000,
        0x3f800000, 0x3f800002, 0x3f800000, 0x00000000, 0x7f800000,
        0x00000000, 0x80000000, 0x7fc00000, 0x40800000, 0x40400000,
        0x3f800000,
    };
    static const uint16_t old16[16] = {
        0x3f80, 0x7fc0, 0x3f80, 0x3f80, 0x0040, 0x7f7f, 0x7f80, 0x3f81,
        0x4000, 0x3f80, 0xbf80, 0x0080, 0x0100, 0x00c0, 0x3f80, 0x0000,
    };
    static const uint16_t new16[16] = {
        0x3f80, 0x3f80, 0x3b80, 0x3b81, 0x3f80, 0x7f7f, 0xff80, 0x3b80,
        0xbf80, 0xbf80, 0x3f80, 0x8080, 0x8080, 0x8080, 0x0000, 0x0000,
    };
    static const uint16_t sum16[16] = {
        0x4000, 0x7f80, 0x3f80, 0x3f81, 0x3f80, 0x7f80, 0x7fc0, 0x3f82,
        0x3f80, 0x0000, 0x0000, 0x0000, 0x0080, 0x0000, 0x3f80, 0x0000,
    };
    uint16_t v[8 * 16] = { 0 };
    TTTensixCfg *c = start();

    dst_fill32(c, TT_FMT_FP32, 0, new32);
    tt_tensix_l1_write32(c, L1_P, old32, 16);
    pack_setup(c, TT_FMT_FP32, TT_FMT_FP32, true, L1_P);
    TT_CFG_SET(c, THCON_SEC0_REG1_Pack_L1_Acc, 1);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_32(c, L1_P, sum32, 16);

    memcpy(v, new16, sizeof(new16));
    dst_fill16(c, TT_FMT_BF16, 16, v, 8);
    tt_tensix_l1_write16(c, L1_P + 0x100, old16, 16);
    pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, false, L1_P + 0x100);
    TT_CFG_SET_N(c, DEST_TARGET_REG_CFG_PACK_SECn_Offset, 0, 16);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_16(c, L1_P + 0x100, sum16, 16);

    /*
     * INT32, sign-magnitude with saturation (L1.md, "near-memory
     * accumulate of 4xFP32 or 4xINT32"): 5 + 7, -5 + 7, 5 + -7, -0 + 0,
     * (2^31 - 1) + 1 and -(2^31 - 1) + -5 saturate, 100 + -100 is +0,
     * 2^30 + 2^30 saturates to 2^31 - 1
     */
    {
        static const uint32_t oldi[16] = {
            5, 0x80000005, 5, 0x80000000, 0x7fffffff, 0xffffffff, 100,
            0x40000000,
        };
        static const uint32_t newi[16] = {
            7, 7, 0x80000007, 0, 1, 0x80000005, 0x80000064, 0x40000000,
        };
        static const uint32_t sumi[16] = {
            12, 2, 0x80000002, 0, 0x7fffffff, 0xffffffff, 0, 0x7fffffff,
        };

        dst_fill32(c, TT_FMT_INT32, 4, newi);
        tt_tensix_l1_write32(c, L1_P + 0x200, oldi, 16);
        pack_setup(c, TT_FMT_INT32, TT_FMT_INT32, true, L1_P + 0x200);
        TT_CFG_SET_N(c, DEST_TARGET_REG_CFG_PACK_SECn_Offset, 0, 4);
        push(c, PACK, PACR(1, 0, 1));
        check_l1_32(c, L1_P + 0x200, sumi, 16);
    }
    tt_tensix_end(c);
}

/*
 * Output groups (OutputAddressGenerator.md "NeedsNewAddress"): only the
 * first PACR after a Last takes L1_Dest_addr (and Exp_section_size);
 * later ones append; Last pads the partial 16-byte buffers with zeros.
 * BFP4_b, one row per PACR: 1.0 -> exponent 0x7f, codes 4 (0x44 bytes);
 * 3.0 -> exponent 0x80, magnitude (192 + 1) >> 1 = 96 -> code 6 (0x66).
 * - one PACR with Last: 1 exponent byte + 15 zeros, 8 data bytes + 8
 *   zeros (PACR.md: "flushing ... will zero the remainder of the final 16
 *   byte block"), nothing after.
 * - two PACRs, the first without Last, with L1_Dest_addr moved in
 *   between (ignored) and ADDR_MOD_PACK YsrcIncr 1 moving to Dst row 1:
 *   exponents 7f 80, data 8 x 0x44 then 8 x 0x66.
 */
static void test_last_and_groups(void)
{
    uint16_t v[8 * 16];
    uint8_t exp_e[16] = { 0x7f }, exp_d[16];
    TTTensixCfg *c = start();

    for (int i = 0; i < 128; i++) {
        v[i] = i < 16 ? 0x3f80 : 0x4040;
    }
    dst_fill16(c, TT_FMT_BF16, 0, v, 8);
    l1_fill(c, L1_P, 0xaa, 0x400);
    pack_setup(c, TT_FMT_BF16, TT_FMT_BFP4, false, L1_P);
    TT_CFG_SET(c, THCON_SEC0_REG1_Exp_section_size, 1);
    TT_THCFG_SET_N(c, PACK, ADDR_MOD_PACK_SECn_YsrcIncr, 1, 1);
    push(c, PACK, PACR(1, 0, 1));
    memset(exp_d, 0x44, 8);
    memset(exp_d + 8, 0, 8);
    check_l1_8(c, L1_P, exp_e, 16);
    check_l1_8(c, L1_P + 16, exp_d, 16);
    check_untouched(c, L1_P + 32, 0xaa, 32);

    TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr, (L1_P + 0x100) / 16 - 1);
    push(c, PACK, PACR(1, 1, 0));
    TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr, (L1_P + 0x200) / 16 - 1);
    push(c, PACK, PACR(1, 0, 1));
    exp_e[1] = 0x80;
    memset(exp_d + 8, 0x66, 8);
    check_l1_8(c, L1_P + 0x100, exp_e, 16);
    check_l1_8(c, L1_P + 0x110, exp_d, 16);
    check_untouched(c, L1_P + 0x120, 0xaa, 16);
    check_untouched(c, L1_P + 0x200, 0xaa, 64);
    tt_tensix_end(c);
}

/*
 * Output address (OutputAddressGenerator.md): (L1_Dest_addr + 1) * 16,
 * only 17 bits of it (so bit 31, which tt-llk sets, is dropped), plus on
 * Blackhole ADC channel 1 Y * PCK0_ADDR_CTRL_XY_REG_1_Ystride bytes >> 4;
 * the AddrMod's YdstIncr then advances channel 1 Y for the next group.
 * ADDR_MOD_PACK YsrcIncr moves the input by Y * Ystride0 bytes = rows
 * (InputAddressGenerator.md): two PACRs of 4 rows form one 8-row output.
 */
static void test_output_address(void)
{
    uint16_t rows[128];
    TTTensixCfg *c = start();

    for (int i = 0; i < 128; i++) {
        rows[i] = 0x4000 + i;
    }
    dst_rows_bf16(c, 8);
    l1_fill(c, L1_P - 16, 0xaa, 0x400);
    pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, false, L1_P);
    TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr,
               0x80000000u | (L1_P / 16 - 1));
    push(c, PACK, PACR(1, 0, 1));
    check_l1_16(c, L1_P, rows, 16);
    check_untouched(c, L1_P - 16, 0xaa, 16);
    check_untouched(c, L1_P + 32, 0xaa, 96);

    /* channel 1 Y = 2, Ystride 64 bytes: + 128; AddrMod 2 then Y += 1 */
    TT_CFG_SET(c, PCK0_ADDR_CTRL_XY_REG_1_Ystride, 64);
    TT_THCFG_SET_N(c, PACK, ADDR_MOD_PACK_SECn_YdstIncr, 2, 1);
    push(c, PACK, TT_ENC_SETADC(4, 1, 1, 2));
    push(c, PACK, PACR(1, 2, 1));
    check_l1_16(c, L1_P + 128, rows, 16);
    check_untouched(c, L1_P + 160, 0xaa, 32);
    push(c, PACK, PACR(1, 0, 1));
    check_l1_16(c, L1_P + 192, rows, 16);

    /* input rows: YsrcIncr 4 after the first PACR of a group */
    TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr, (L1_P + 0x200) / 16 - 1);
    push(c, PACK, TT_ENC_SETADC(4, 1, 1, 0));
    TT_THCFG_SET_N(c, PACK, ADDR_MOD_PACK_SECn_YsrcIncr, 1, 4);
    push(c, PACK, PACR(0, 1, 0));
    push(c, PACK, PACR(0, 0, 1));
    check_l1_16(c, L1_P + 0x200, rows, 128);
    tt_tensix_end(c);
}

/*
 * ReadIntfSel (PACR.md "Dst read interfaces", StartRow 0): 1 -> row 0;
 * 3 -> rows 0, 1; 5 -> rows 0, 2; 10 -> rows 1, 3; packed contiguously.
 */
static void test_intf_select(void)
{
    static const struct {
        int sel, nrows, row[2];
    } sel[] = {
        { 1, 1, { 0 } }, { 3, 2, { 0, 1 } }, { 5, 2, { 0, 2 } },
        { 10, 2, { 1, 3 } },
    };
    TTTensixCfg *c = start();

    dst_rows_bf16(c, 8);
    pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, false, L1_P);
    for (int k = 0; k < ARRAY_SIZE(sel); k++) {
        uint32_t dest = L1_P + 0x100 * k;
        uint16_t exp[32];

        TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr, dest / 16 - 1);
        push(c, PACK, PACR(sel[k].sel, 0, 1));
        for (int i = 0; i < 16 * sel[k].nrows; i++) {
            exp[i] = 0x4000 + 16 * sel[k].row[i / 16] + i % 16;
        }
        g_test_message("ReadIntfSel %d", sel[k].sel);
        check_l1_16(c, dest, exp, 16 * sel[k].nrows);
    }
    tt_tensix_end(c);
}

/*
 * Bad input must not stop QEMU: output past the end of L1 (half, and
 * wholly at 2 MiB, the top of the 17-bit address), an output format the
 * packer lacks (BFP4a, FormatConversion.md "valid only in LateToFormat"
 * but not supported by the Blackhole packer in ttsim), an undefined code
 * (12).  Nothing may land at the bottom of L1 (no address wrap) nor, for
 * the format errors, at the destination, and a normal BF16 PACR still
 * works afterwards.
 */
static void test_bad_input(void)
{
    static const struct {
        int in, out;
        uint32_t dest_units;
    } bad[] = {
        { TT_FMT_BF16, TT_FMT_BF16, (L1_SIZE - 64) / 16 - 1 },
        { TT_FMT_BF16, TT_FMT_BF16, 0x1ffff },
        { TT_FMT_BF16, TT_FMT_BFP4A, L1_P / 16 - 1 },
        { TT_FMT_BF16, 12, L1_P / 16 - 1 },
    };
    uint16_t rows[64];
    TTTensixCfg *c = start();

    for (int i = 0; i < 64; i++) {
        rows[i] = 0x4000 + i;
    }
    dst_rows_bf16(c, 8);
    l1_fill(c, 0, 0x5a, 256);
    for (int i = 0; i < ARRAY_SIZE(bad); i++) {
        l1_fill(c, L1_P, 0xaa, 128);
        pack_setup(c, bad[i].in, bad[i].out, false, L1_P);
        TT_CFG_SET(c, THCON_SEC0_REG1_L1_Dest_addr, bad[i].dest_units);
        push(c, PACK, PACR(0, 0, 1));
        /* the format errors target L1_P: nothing may be written there */
        check_untouched(c, L1_P, 0xaa, 128);

        pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, false, L1_P);
        push(c, PACK, PACR(0, 0, 1));
        check_l1_16(c, L1_P, rows, 64);
    }
    check_untouched(c, 0, 0x5a, 256);
    tt_tensix_end(c);
}

/*
 * IntermediateFormat (ALU_FORMAT_SPEC_REG2_Dstacc, or the override)
 * different from
 * LateFromFormat (In_data_format): the early conversion would hand the
 * late one a format it does not expect (FormatConversion.md); ttsim
 * src/tensix.cpp treats it as undefined behaviour.  Such a PACR is logged
 * and must not write L1 (style guide rule 8: a logged guest error stops
 * the action); the next correct PACR works.
 */
static void test_dstacc_mismatch(void)
{
    uint16_t rows[64];
    TTTensixCfg *c = start();

    for (int i = 0; i < 64; i++) {
        rows[i] = 0x4000 + i;
    }
    dst_rows_bf16(c, 8);
    l1_fill(c, L1_P, 0xaa, 256);
    pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, false, L1_P);
    TT_CFG_SET(c, ALU_FORMAT_SPEC_REG2_Dstacc, TT_FMT_FP32);
    push(c, PACK, PACR(0, 0, 1));
    check_untouched(c, L1_P, 0xaa, 256);

    pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, false, L1_P);
    push(c, PACK, PACR(0, 0, 1));
    check_l1_16(c, L1_P, rows, 64);

    /*
     * ALU_FORMAT_SPEC_REG_Dstacc_override names IntermediateFormat in
     * REG2_Dstacc's place (FormatConversion.md): REG2_Dstacc FP32 with the
     * override at BF16 packs BF16 again, and the override at FP32 with
     * REG2_Dstacc BF16 is the mismatch
     */
    l1_fill(c, L1_P, 0xaa, 256);
    pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, false, L1_P);
    TT_CFG_SET(c, ALU_FORMAT_SPEC_REG2_Dstacc, TT_FMT_FP32);
    TT_CFG_SET(c, ALU_FORMAT_SPEC_REG_Dstacc_override, 1);
    TT_CFG_SET(c, ALU_FORMAT_SPEC_REG_Dstacc_val, TT_FMT_BF16);
    push(c, PACK, PACR(0, 0, 1));
    check_l1_16(c, L1_P, rows, 64);

    l1_fill(c, L1_P, 0xaa, 256);
    pack_setup(c, TT_FMT_BF16, TT_FMT_BF16, false, L1_P);
    TT_CFG_SET(c, ALU_FORMAT_SPEC_REG_Dstacc_val, TT_FMT_FP32);
    push(c, PACK, PACR(0, 0, 1));
    check_untouched(c, L1_P, 0xaa, 256);
    tt_tensix_end(c);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/tensix-pack/bf16", test_bf16);
    qtest_add_func("/blackhole/tensix-pack/invalid-rows", test_invalid_rows);
    qtest_add_func("/blackhole/tensix-pack/fp32", test_fp32);
    qtest_add_func("/blackhole/tensix-pack/fp32-to-bf16", test_fp32_to_bf16);
    qtest_add_func("/blackhole/tensix-pack/fp32-to-bfp8", test_fp32_to_bfp8);
    qtest_add_func("/blackhole/tensix-pack/fp16", test_fp16);
    qtest_add_func("/blackhole/tensix-pack/fp8-e4m3", test_fp8_e4m3);
    qtest_add_func("/blackhole/tensix-pack/bfp", test_bfp);
    qtest_add_func("/blackhole/tensix-pack/int8", test_int8);
    qtest_add_func("/blackhole/tensix-pack/int8-raw-descale-relu",
                   test_int8_raw_descale_relu);
    qtest_add_func("/blackhole/tensix-pack/relu", test_relu);
    qtest_add_func("/blackhole/tensix-pack/edge-mask", test_edge_mask);
    qtest_add_func("/blackhole/tensix-pack/l1-acc", test_l1_acc);
    qtest_add_func("/blackhole/tensix-pack/last-and-groups",
                   test_last_and_groups);
    qtest_add_func("/blackhole/tensix-pack/output-address",
                   test_output_address);
    qtest_add_func("/blackhole/tensix-pack/intf-select", test_intf_select);
    qtest_add_func("/blackhole/tensix-pack/bad-input", test_bad_input);
    qtest_add_func("/blackhole/tensix-pack/dstacc-mismatch",
                   test_dstacc_mismatch);
    return g_test_run();
}
