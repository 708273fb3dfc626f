/*
 * Blackhole Tensix unpackers: UNPACR format conversions into SrcA, SrcB
 * and Dst, the output address (4-row offset, haloize transpose, ADC
 * post-increments), data-valid hand-off with the matrix unit, UNPACR_NOP
 * and bad input.  Instructions are pushed from qtest, where no core runs,
 * so each push executes (or stalls) before the push returns.
 *
 * Every expected value was worked out by hand from tenstorrent/
 * tt-isa-documentation (WormholeB0/TensixTile/TensixCoprocessor/
 * UNPACR_Regular.md, which BlackholeA0/.../UNPACR_Regular.md points to,
 * FloatBitPatterns.md, SrcASrcB.md, Dst.md, Unpackers/FormatConversion.md)
 * and, where those pages leave Blackhole open, from ttsim src/tensix.cpp;
 * the derivation is in the comment above each table.  Cells are read back
 * in the documentation's 19-bit Src layout {sign[18], mantissa[17:8],
 * exponent[7:0]} (SrcASrcB.md "Data type bit layout").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "tt-qtest-util.h"
#include "tt-tensix-enc.h"      /* generated from data/tensix-isa.yaml */
#include "tt-tensix-config.h"   /* generated from data/tensix-config.yaml */

#define L1_A 0x20000
#define L1_B 0x30000
#define L1_SIZE (1536 * 1024)

/* Blackhole UNPACR_NOP: pop = 1 clears the unpacker's bank */
#define UNPACR_NOP(unp, set_dvalid, clr_val) \
    TT_ENC_UNPACR_NOP(unp, 0, 0, set_dvalid, 0, 0, 0, clr_val, 1)

static void push(TTTensixCfg *c, int thread, uint32_t insn)
{
    tt_tensix_push(c->qts, c->x, c->y, thread, insn);
}

static void l1_write(TTTensixCfg *c, uint32_t addr, const void *p, size_t n)
{
    tt_write(c->qts, c->x, c->y, "brisc", addr, p, n);
}

/*
 * SrcASrcB.md / UNPACR_Regular.md WriteSrcBF16: a BF16 {sign, exp8,
 * man7} becomes the cell sign[18] | man7 << 11 | exp8.  Only used where the
 * test is about placement, not about the conversion.
 */
static uint32_t src_bf16(uint16_t x)
{
    return (x >> 15) << 18 | (x & 0x7f) << 11 | (x >> 7 & 0xff);
}

/* Unpack one row of 16 datums of @in -> @out into SrcA row 0 */
static void unpack_row(TTTensixCfg *c, int in, int out, const void *l1,
                       size_t len, const uint32_t *exp)
{
    l1_write(c, L1_A, l1, len);
    tt_tensix_unpack_setup(c, 0, in, out, L1_A, 16, 1, 1, 16);
    push(c, 0, TT_UNPACR(0, 0, 0));
    tt_tensix_check_src(c, 'A', 0, 0, exp);
}

/*
 * BF16 -> BF16 into SrcA and SrcB: WriteSrcBF16 (UNPACR_Regular.md), the
 * cell is sign << 18 | man7 << 11 | exp8, no flushing of denormals, no
 * special case for exponent 255 (FloatBitPatterns.md "BF16").
 */
static void test_bf16(void)
{
    static const uint16_t in[16] = {
        0x3f80, 0xc049, 0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x0001,
        0x3fff, 0x4049, 0x0080, 0x7f7f, 0xbf80, 0x3c00, 0x4000, 0x8001,
    };
    static const uint32_t exp[16] = {
        0x0007f, 0x64880, 0x00000, 0x40000, 0x000ff, 0x400ff, 0x200ff,
        0x00800, 0x3f87f, 0x24880, 0x00001, 0x3f8fe, 0x4007f, 0x00078,
        0x00080, 0x40800,
    };
    TTTensixCfg *c = tt_tensix_start();

    tt_tensix_l1_write16(c, L1_A, in, 16);
    tt_tensix_unpack_setup(c, 0, TT_FMT_BF16, TT_FMT_BF16, L1_A, 16, 1, 1, 16);
    push(c, 0, TT_UNPACR(0, 0, 0));
    tt_tensix_check_src(c, 'A', 0, 0, exp);

    /* unpacker 1 writes SrcB from row 0, no 4-row offset */
    tt_tensix_l1_write16(c, L1_B, in, 16);
    tt_tensix_unpack_setup(c, 1, TT_FMT_BF16, TT_FMT_BF16, L1_B, 16, 1, 1, 16);
    push(c, 0, TT_UNPACR(1, 0, 0));
    tt_tensix_check_src(c, 'B', 0, 0, exp);
    tt_tensix_end(c);
}

/*
 * FP32 -> TF32 (UNPACR_Regular.md FormatConversion: WriteSrcTF32(x >> 13)):
 * keep sign, exp8 and the top 10 mantissa bits; denormals, Inf and NaN
 * bit patterns are kept (no flush on this path).
 * 0x3faaaaab: man23 0x2aaaab >> 13 = 0x155 -> 0x155 << 8 | 0x7f = 0x1557f;
 * 0xc0200000 -> 0x40000 | 0x100 << 8 | 0x80; 0x00400000 -> 0x200 << 8;
 * 0x3f801fff -> man 0 (the 13 low bits dropped), 0x3f802000 -> man 1;
 * 0xff7fffff -> 0x40000 | 0x3ff00 | 0xfe.
 */
static void test_fp32_to_tf32(void)
{
    static const uint32_t in[16] = {
        0x3faaaaab, 0x3f800000, 0xc0200000, 0x00400000, 0x7f800000,
        0x7fc00000, 0x80000000, 0x3f801fff, 0x3f802000, 0xc0490fdb,
        0x33800000, 0x00000001, 0xff7fffff, 0x40000000, 0x3e000000,
        0x4b000001,
    };
    static const uint32_t exp[16] = {
        0x1557f, 0x0007f, 0x50080, 0x20000, 0x000ff, 0x200ff, 0x40000,
        0x0007f, 0x0017f, 0x64880, 0x00067, 0x00000, 0x7fffe, 0x00080,
        0x0007c, 0x00096,
    };
    uint32_t le[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        le[i] = cpu_to_le32(in[i]);
    }
    unpack_row(c, TT_FMT_FP32, TT_FMT_TF32, le, sizeof(le), exp);
    tt_tensix_end(c);
}

/*
 * FP32 -> BF16 (UNPACR_Regular.md FormatConversion): a denormal (exponent
 * 0) keeps only its sign, then the low 16 bits are truncated and the BF16
 * is written as WriteSrcBF16.  0x3faaaaab -> 0x3faa -> 0x2a << 11 | 0x7f
 * = 0x1507f; 0x3f802000 -> 0x3f80 (truncated, not rounded); 0x80400000 ->
 * 0x8000 -> 0x40000; 0xff7fffff -> 0xff7f -> 0x7f8fe.
 */
static void test_fp32_to_bf16(void)
{
    static const uint32_t in[16] = {
        0x3faaaaab, 0x3f800000, 0xc0200000, 0x00400000, 0x7f800000,
        0x7fc00000, 0x80000000, 0x3f801fff, 0x3f802000, 0xc0490fdb,
        0x33800000, 0x00000001, 0xff7fffff, 0x40000000, 0x3e000000,
        0x80400000,
    };
    static const uint32_t exp[16] = {
        0x1507f, 0x0007f, 0x50080, 0x00000, 0x000ff, 0x200ff, 0x40000,
        0x0007f, 0x0007f, 0x64880, 0x00067, 0x00000, 0x7f8fe, 0x00080,
        0x0007c, 0x40000,
    };
    uint32_t le[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        le[i] = cpu_to_le32(in[i]);
    }
    unpack_row(c, TT_FMT_FP32, TT_FMT_BF16, le, sizeof(le), exp);
    tt_tensix_end(c);
}

/*
 * FP32 -> FP16 (FP32ToFP16 of UNPACR_Regular.md; Blackhole rounding and
 * range from ttsim src/tensix.cpp): e = exp8 - 112; e < 0 -> signed zero;
 * e > 31 (incl. Inf/NaN) -> sign | 0x7fff; otherwise sign | e << 10 |
 * man23 >> 13 (truncation).  The FP16 then sits in the cell with its 5-bit
 * exponent in the low bits (WriteSrcFP16): sign << 18 | man10 << 8 | e.
 * 0x3faaaaab: e 15, man 0x155 -> 0x1550f; 0x47800000 (65536): e 31 ->
 * 0x0001f (a finite value on Tensix); 0x49742400 (1e6): exp8 0x92, e 34 ->
 * 0x3ff1f; 0x38400000: exp8 112 -> e 0, man 0x200 -> 0x20000; 0xc0490fdb:
 * e 16, man 0x490fdb >> 13 = 0x248 -> 0x64810; 0x477fe000 (65504): e 30,
 * man 0x3ff -> 0x3ff1e; 0x387fffff: e 0, man 0x3ff -> 0x3ff00.
 */
static void test_fp32_to_fp16(void)
{
    static const uint32_t in[16] = {
        0x3faaaaab, 0x3f800000, 0x47800000, 0x49742400, 0x7f800000,
        0x33800000, 0xb3800000, 0x38000000, 0x38400000, 0xc0490fdb,
        0x477fe000, 0xff800000, 0x00000000, 0x40000000, 0x387fffff,
        0xc7800000,
    };
    static const uint32_t exp[16] = {
        0x1550f, 0x0000f, 0x0001f, 0x3ff1f, 0x3ff1f, 0x00000, 0x40000,
        0x00000, 0x20000, 0x64810, 0x3ff1e, 0x7ff1f, 0x00000, 0x00010,
        0x3ff00, 0x4001f,
    };
    uint32_t le[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        le[i] = cpu_to_le32(in[i]);
    }
    unpack_row(c, TT_FMT_FP32, TT_FMT_FP16, le, sizeof(le), exp);
    tt_tensix_end(c);
}

/*
 * FP16 -> FP16 (WriteSrcFP16): the 5-bit exponent is not rebiased, and
 * exponent 0 / 31 patterns are kept as bits.  0xc500: sign, e 17, man
 * 0x100 -> 0x50011; 0x3555: e 13, man 0x155 -> 0x1550d; 0x4248: e 16, man
 * 0x248 -> 0x24810.
 */
static void test_fp16(void)
{
    static const uint16_t in[16] = {
        0x3c00, 0xc500, 0x7bff, 0x0001, 0x8000, 0x7c00, 0x7fff, 0x0400,
        0x3555, 0xfc00, 0x3800, 0x4248, 0x0000, 0x0000, 0x0000, 0x0000,
    };
    static const uint32_t exp[16] = {
        0x0000f, 0x50011, 0x3ff1e, 0x00100, 0x40000, 0x0001f, 0x3ff1f,
        0x00001, 0x1550d, 0x4001f, 0x0000e, 0x24810, 0, 0, 0, 0,
    };
    uint16_t le[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        le[i] = cpu_to_le16(in[i]);
    }
    unpack_row(c, TT_FMT_FP16, TT_FMT_FP16, le, sizeof(le), exp);
    tt_tensix_end(c);
}

/*
 * BFP8_b: the exponent section (one byte per 16 datums, padded to 16
 * bytes) comes first, then one sign-magnitude byte per datum
 * (UNPACR_Regular.md InAddr_Exponents).  BFP8ToBF16 (FloatBitPatterns.md
 * "Conversion routines"): mag = datum << 1 (8 bits); 0 -> +0, or the BF16
 * -Inf pattern 0xff80 if the sign is set; else normalise by its leading
 * zeros lz: exp -= lz (8-bit wrap), man7 = (mag << lz) & 0x7e.
 *   row 0, exp 0x7f: 0x40 -> 1.0; 0x41 -> 0x3f82 (0x0107f); 0x01 -> lz 6,
 *   exp 0x79; 0x85 -> mag 0x0a, lz 4, exp 0x7b, man 0x20 -> 0xbda0
 *   (0x5007b); 0x80 -> 0xff80 (0x400ff); 0x7f -> man 0x7e (0x3f07f); 0x3f
 *   -> mag 0x7e, lz 1 -> 0x3f7c (0x3e07e); 0x10 -> lz 2 -> 0.25.
 *   row 1, exp 0x80: 0x50 -> mag 0xa0, man 0x20 -> 0x4020 = 2.5 (0x10080);
 *   0x03 -> mag 0x06, lz 5, exp 0x7b, man 0x40 (0x2007b).
 *   row 2, exp 0x02: 0x01 -> exp 2 - 6 wraps to 0xfc; 0x10 -> exp 0;
 *   0x08 -> exp 0xff.
 */
static void test_bfp8(void)
{
    static const uint8_t data[48] = {
        0x40, 0x41, 0x01, 0x85, 0x80, 0x00, 0x7f, 0xc0,
        0x20, 0x60, 0x3f, 0xff, 0x81, 0x10, 0x08, 0x04,
        0x50, 0x03, 0xc0, 0x40, 0x00, 0x80, 0x7f, 0x01,
        0x50, 0x03, 0xc0, 0x40, 0x00, 0x80, 0x7f, 0x01,
        0x01, 0x40, 0x20, 0x02, 0x81, 0x10, 0x08, 0x7f,
        0x01, 0x40, 0x20, 0x02, 0x81, 0x10, 0x08, 0x7f,
    };
    static const uint32_t exp[3][16] = {
        { 0x0007f, 0x0107f, 0x00079, 0x5007b, 0x400ff, 0x00000, 0x3f07f,
          0x4007f, 0x0007e, 0x2007f, 0x3e07e, 0x7f07f, 0x40079, 0x0007d,
          0x0007c, 0x0007b },
        { 0x10080, 0x2007b, 0x40080, 0x00080, 0x00000, 0x400ff, 0x3f080,
          0x0007a, 0x10080, 0x2007b, 0x40080, 0x00080, 0x00000, 0x400ff,
          0x3f080, 0x0007a },
        { 0x000fc, 0x00002, 0x00001, 0x000fd, 0x400fc, 0x00000, 0x000ff,
          0x3f002, 0x000fc, 0x00002, 0x00001, 0x000fd, 0x400fc, 0x00000,
          0x000ff, 0x3f002 },
    };
    uint8_t l1[16 + 48] = { 0x7f, 0x80, 0x02 };
    TTTensixCfg *c = tt_tensix_start();

    memcpy(l1 + 16, data, sizeof(data));
    l1_write(c, L1_A, l1, sizeof(l1));
    tt_tensix_unpack_setup(c, 0, TT_FMT_BFP8, TT_FMT_BFP8, L1_A, 16, 3, 1, 48);
    push(c, 0, TT_UNPACR(0, 0, 0));
    for (int r = 0; r < 3; r++) {
        tt_tensix_check_src(c, 'A', 0, r, exp[r]);
    }

    /*
     * Starting at ADC Y = 2 (SETADCXY, Y0 only): datums 32-47 with the
     * exponent byte of datum 32, i.e. byte 2 (InAddr_Exponents +=
     * FirstDatum / 16), land in row 0; then Y = 1.
     */
    push(c, 0, TT_ENC_SETADCXX(1, 15, 0));
    push(c, 0, TT_ENC_SETADCXY(1, 0, 0, 0, 2, 0, 2));
    push(c, 0, TT_UNPACR(0, 0, 0));
    tt_tensix_check_src(c, 'A', 0, 0, exp[2]);
    push(c, 0, TT_ENC_SETADCXY(1, 0, 0, 0, 1, 0, 2));
    push(c, 0, TT_UNPACR(0, 0, 0));
    tt_tensix_check_src(c, 'A', 0, 0, exp[1]);
    tt_tensix_end(c);
}

/*
 * BFP8_b with Force_shared_exp: every datum takes
 * UNP0_FORCED_SHARED_EXP_shared_exp and there is no exponent section
 * (UNPACR_Regular.md; Unpackers/FormatConversion.md note (†)).  Exponent
 * 0x80: 0x40 -> 2.0; 0x50 -> 2.5 (0x10080); 0x85 -> lz 4, exp 0x7c
 * (0x5007c); 0x01 -> exp 0x7a; 0x80 -> 0xff80; 0x7f -> 0x3f080;
 * 0xc0 -> -2.0.
 */
static void test_bfp8_forced_exp(void)
{
    static const uint8_t data[16] = {
        0x40, 0x50, 0x85, 0x01, 0x80, 0x7f, 0xc0, 0x00,
        0x40, 0x50, 0x85, 0x01, 0x80, 0x7f, 0xc0, 0x00,
    };
    static const uint32_t exp[16] = {
        0x00080, 0x10080, 0x5007c, 0x0007a, 0x400ff, 0x3f080, 0x40080,
        0x00000, 0x00080, 0x10080, 0x5007c, 0x0007a, 0x400ff, 0x3f080,
        0x40080, 0x00000,
    };
    TTTensixCfg *c = tt_tensix_start();

    TT_CFG_SET(c, THCON_SEC0_REG2_Force_shared_exp, 1);
    TT_CFG_SET(c, UNP0_FORCED_SHARED_EXP_shared_exp, 0x80);
    unpack_row(c, TT_FMT_BFP8, TT_FMT_BFP8, data, sizeof(data), exp);
    tt_tensix_end(c);
}

/*
 * BFP4_b: datum 2j is the low nibble of byte j (UNPACR_Regular.md
 * ReadL1Bytes is little-endian in bits); BFP4ToBF16(d, e) =
 * BFP8ToBF16(d << 4, e) (FloatBitPatterns.md), i.e. +-mag/4 * 2^(e-127).
 *   exp 0x7f: 0x5 -> 1.25 (0x1007f); 0x1 -> 0.25 (0x0007d); 0xf -> -1.75
 *   (0x7007f); 0x8 -> 0xff80 (0x400ff); 0x3 -> 0.75 (0x2007e);
 *   0xb -> -0.75 (0x6007e).
 *   exp 0x80: 0x3 -> 1.5 (0x2007f); 0x2 -> 1.0; 0x4 -> 2.0 (0x00080).
 */
static void test_bfp4(void)
{
    static const uint32_t exp[2][16] = {
        { 0x1007f, 0x0007f, 0x0007d, 0x7007f, 0x400ff, 0x00000, 0x3007f,
          0x2007e, 0x0007e, 0x2007f, 0x4007d, 0x4007f, 0x5007f, 0x6007f,
          0x6007e, 0x4007e },
        { 0x2007f, 0x0007f, 0x6007f, 0x00080, 0x2007f, 0x0007f, 0x6007f,
          0x00080, 0x2007f, 0x0007f, 0x6007f, 0x00080, 0x2007f, 0x0007f,
          0x6007f, 0x00080 },
    };
    /*
     * row 0 nibbles 5 4 1 f 8 0 7 3 2 6 9 c d e b a,
     * row 1 nibbles (3 2 b 4) x 4
     */
    static const uint8_t l1[16 + 16] = {
        0x7f, 0x80, [16] = 0x45, 0xf1, 0x08, 0x37, 0x62, 0xc9, 0xed, 0xab,
        0x23, 0x4b, 0x23, 0x4b, 0x23, 0x4b, 0x23, 0x4b,
    };
    TTTensixCfg *c = tt_tensix_start();

    l1_write(c, L1_A, l1, sizeof(l1));
    tt_tensix_unpack_setup(c, 0, TT_FMT_BFP4, TT_FMT_BFP4, L1_A, 16, 2, 1, 32);
    push(c, 0, TT_UNPACR(0, 0, 0));
    tt_tensix_check_src(c, 'A', 0, 0, exp[0]);
    tt_tensix_check_src(c, 'A', 0, 1, exp[1]);

    /*
     * X from 1 to 16: datum 1 is the high nibble of byte 0, and datum 16
     * takes the second exponent (InAddr_Exponents += FirstDatum / 16, then
     * 1/16 per datum).
     */
    push(c, 0, TT_ENC_SETADCXX(1, 16, 1));
    push(c, 0, TT_UNPACR(0, 0, 0));
    {
        uint32_t shifted[16];

        memcpy(shifted, &exp[0][1], 15 * sizeof(uint32_t));
        shifted[15] = exp[1][0];
        tt_tensix_check_src(c, 'A', 0, 0, shifted);
    }
    tt_tensix_end(c);
}

/*
 * BFP2_b: datum 4j + k is bits [2k+1:2k] of byte j; BFP2ToBF16(d, e) =
 * BFP8ToBF16(d << 6, e): 01 -> +2^(e-127), 11 -> -2^(e-127), 10 -> the
 * -Inf pattern 0xff80, 00 -> 0 (FloatBitPatterns.md "BFP2").
 * Datums 1 3 2 0 3 1 0 2 1 1 1 1 0 0 3 3 -> bytes 0x2d 0x87 0x55 0xf0.
 */
static void test_bfp2(void)
{
    static const uint32_t exp[2][16] = {
        { 0x00080, 0x40080, 0x400ff, 0x00000, 0x40080, 0x00080, 0x00000,
          0x400ff, 0x00080, 0x00080, 0x00080, 0x00080, 0x00000, 0x00000,
          0x40080, 0x40080 },
        { 0x0007f, 0x4007f, 0x400ff, 0x00000, 0x4007f, 0x0007f, 0x00000,
          0x400ff, 0x0007f, 0x0007f, 0x0007f, 0x0007f, 0x00000, 0x00000,
          0x4007f, 0x4007f },
    };
    static const uint8_t l1[16 + 16] = {
        0x80, 0x7f, [16] = 0x2d, 0x87, 0x55, 0xf0, 0x2d, 0x87, 0x55, 0xf0,
    };
    TTTensixCfg *c = tt_tensix_start();

    l1_write(c, L1_A, l1, sizeof(l1));
    tt_tensix_unpack_setup(c, 0, TT_FMT_BFP2, TT_FMT_BFP2, L1_A, 16, 2, 1, 32);
    push(c, 0, TT_UNPACR(0, 0, 0));
    tt_tensix_check_src(c, 'A', 0, 0, exp[0]);
    tt_tensix_check_src(c, 'A', 0, 1, exp[1]);

    /* X from 3 to 18: datums 3-15 (exponent 0x80), then 16-18 (0x7f) */
    push(c, 0, TT_ENC_SETADCXX(1, 18, 3));
    push(c, 0, TT_UNPACR(0, 0, 0));
    {
        uint32_t shifted[16];

        memcpy(shifted, &exp[0][3], 13 * sizeof(uint32_t));
        memcpy(&shifted[13], &exp[1][0], 3 * sizeof(uint32_t));
        tt_tensix_check_src(c, 'A', 0, 0, shifted);
    }
    tt_tensix_end(c);
}

/*
 * INT8 -> "integer 8" (UNPACR_Regular.md FormatConversion, case INT8):
 * sign-magnitude unless Src?Unsigned; a non-zero magnitude gets the dummy
 * exponent 16, and the FP16 overlay is written with WriteSrcFP16: cell =
 * sign << 18 | mag << 8 | (mag ? 16 : 0).  Signed 0x85 -> -5 = 0x40510,
 * 0x80 -> -0 = 0x40000; unsigned 0xc8 = 200 -> 0x0c810.
 * SrcA signed (SrcAUnsigned = 0), SrcB unsigned (SrcBUnsigned = 1).
 */
static void test_int8(void)
{
    static const uint8_t in[16] = {
        0x85, 0x05, 0x7f, 0x80, 0x00, 0xff, 0xc8, 0x01,
        0x40, 0x81, 0x10, 0x90, 0x3c, 0xbc, 0x02, 0x82,
    };
    static const uint32_t exp_signed[16] = {
        0x40510, 0x00510, 0x07f10, 0x40000, 0x00000, 0x47f10, 0x44810,
        0x00110, 0x04010, 0x40110, 0x01010, 0x41010, 0x03c10, 0x43c10,
        0x00210, 0x40210,
    };
    static const uint32_t exp_unsigned[16] = {
        0x08510, 0x00510, 0x07f10, 0x08010, 0x00000, 0x0ff10, 0x0c810,
        0x00110, 0x04010, 0x08110, 0x01010, 0x09010, 0x03c10, 0x0bc10,
        0x00210, 0x08210,
    };
    TTTensixCfg *c = tt_tensix_start();

    TT_CFG_SET(c, ALU_FORMAT_SPEC_REG0_SrcBUnsigned, 1);
    l1_write(c, L1_A, in, sizeof(in));
    l1_write(c, L1_B, in, sizeof(in));
    tt_tensix_unpack_setup(c, 0, TT_FMT_INT8, TT_FMT_INT8, L1_A, 16, 1, 1, 16);
    tt_tensix_unpack_setup(c, 1, TT_FMT_INT8, TT_FMT_INT8, L1_B, 16, 1, 1, 16);
    push(c, 0, TT_UNPACR(0, 0, 0));
    push(c, 0, TT_UNPACR(1, 0, 0));
    tt_tensix_check_src(c, 'A', 0, 0, exp_signed);
    tt_tensix_check_src(c, 'B', 0, 0, exp_unsigned);
    tt_tensix_end(c);
}

/*
 * FP8 E5M2 (UNPACR_Regular.md: DatumBits <<= 8, then as FP16), with the
 * Blackhole rule of ttsim src/tensix.cpp that a datum whose low 7 bits are
 * all ones also sets the 8 new low bits (0x7f -> FP16 0x7fff).
 * 0x3c -> 0x3c00 (0x0000f); 0x7c -> 0x7c00 (0x0001f); 0x7f -> 0x3ff1f;
 * 0xc1 -> 0xc100: e 16, man 0x100 -> 0x50010; 0x01 -> man 0x100, e 0
 * (0x10000); 0x7e -> 0x7e00 (0x2001f); 0x7b -> 0x7b00: e 30, man 0x300.
 */
static void test_fp8_e5m2(void)
{
    static const uint8_t in[16] = {
        0x3c, 0x7c, 0x7f, 0xc1, 0xff, 0x01, 0x7e, 0x00,
        0x80, 0x40, 0x3d, 0xbc, 0x04, 0x7b, 0xfc, 0x42,
    };
    static const uint32_t exp[16] = {
        0x0000f, 0x0001f, 0x3ff1f, 0x50010, 0x7ff1f, 0x10000, 0x2001f,
        0x00000, 0x40000, 0x00010, 0x1000f, 0x4000f, 0x00001, 0x3001e,
        0x4001f, 0x20010,
    };
    TTTensixCfg *c = tt_tensix_start();

    unpack_row(c, TT_FMT_FP8, TT_FMT_FP8, in, sizeof(in), exp);
    tt_tensix_end(c);
}

/*
 * FP8 E4M3, selected by THCON_SEC0_REG1_Unp_LF8_4b_exp (Blackhole only;
 * conversion from ttsim src/tensix.cpp): s = d[7], e = d[6:3], m = d[2:0];
 * FP16 = s << 15 | (e ? e + 8 : 0) << 10 | m << 7, with the 7 low bits set
 * when e = 15 and m = 7.  0x38 -> 0x3c00 (1.0); 0x7f -> 0x5fff (0x3ff17);
 * 0xbc -> 0xbe00 (-1.5, 0x6000f); 0x01 -> 0x0080 (0x08000); 0x77 ->
 * 0x5b80 (240, 0x38016); 0x7e -> 0x5f00 (448, 0x30017); 0x39 -> 0x3c80.
 */
static void test_fp8_e4m3(void)
{
    static const uint8_t in[16] = {
        0x38, 0x7f, 0xbc, 0x01, 0x08, 0x00, 0x77, 0x80,
        0x40, 0xff, 0x3f, 0x7e, 0x07, 0x48, 0xc0, 0x39,
    };
    static const uint32_t exp[16] = {
        0x0000f, 0x3ff17, 0x6000f, 0x08000, 0x00009, 0x00000, 0x38016,
        0x40000, 0x00010, 0x7ff17, 0x3800f, 0x30017, 0x38000, 0x00011,
        0x40010, 0x0800f,
    };
    TTTensixCfg *c = tt_tensix_start();

    TT_CFG_SET(c, THCON_SEC0_REG1_Unp_LF8_4b_exp, 1);
    unpack_row(c, TT_FMT_FP8, TT_FMT_FP8, in, sizeof(in), exp);
    tt_tensix_end(c);
}

/*
 * INT16 (opaque, UNPACR_Regular.md): ((x & 0xff00) << 3) | (x & 0xff).
 * 0x1234 -> 0x09034; 0xffff -> 0x7f8ff; 0xa5a5 -> 0x528a5.
 */
static void test_uint16(void)
{
    static const uint16_t in[16] = {
        0x1234, 0xffff, 0x8001, 0x00ff, 0xab00, 0x0000, 0x7fff, 0x8000,
        0x0100, 0x0001, 0xff00, 0x5a5a, 0xa5a5, 0x0080, 0x8080, 0x4321,
    };
    static const uint32_t exp[16] = {
        0x09034, 0x7f8ff, 0x40001, 0x000ff, 0x55800, 0x00000, 0x3f8ff,
        0x40000, 0x00800, 0x00001, 0x7f800, 0x2d05a, 0x528a5, 0x00080,
        0x40080, 0x21821,
    };
    uint16_t le[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        le[i] = cpu_to_le16(in[i]);
    }
    unpack_row(c, TT_FMT_INT16, TT_FMT_INT16, le, sizeof(le), exp);
    tt_tensix_end(c);
}

/*
 * FP32 and INT32 into Dst (Unpack_if_sel_cntx0; SetOvrdWithAddr = 0 as the
 * newer UNPACR_Regular.md requires for Dst).  Dst32b row = OutAddr / 16 - 4
 * with OutAddr = Dest_cntx0_address; the value is WriteDstFP32: high half
 * {sign, man7, exp8} of the top 16 bits, low half the low 16 bits as they
 * are (Dst.md).  Dst32b row r is DstBits[adj] and [adj + 8] with adj =
 * ((r & 0x1f8) << 1) | (r & 0x207) (BlackholeA0 Dst.md).
 * 0xc0200000 -> 0xa0800000; 0x3faaaaab -> 0x2a7faaab; 0x12345678 ->
 * 0x34245678 (exp 0x24, man 0x34); 0x00010000 -> 0x01000000.
 * FP32 -> TF32 means FP32 in Dst (UNPACR_Regular.md), INT32 is moved the
 * same way (sign-magnitude, Unpackers/FormatConversion.md).
 */
static void test_to_dst(void)
{
    static const uint32_t in[16] = {
        0x3f800000, 0xc0200000, 0x3faaaaab, 0x7fc00001, 0x00400000,
        0x80000000, 0x12345678, 0xffffffff, 0x00000000, 0x40490fdb,
        0x3f800001, 0xbf800000, 0x00010000, 0x7f800000, 0x0000ffff,
        0x01020304,
    };
    static const uint32_t exp[16] = {
        0x007f0000, 0xa0800000, 0x2a7faaab, 0x40ff0001, 0x40000000,
        0x80000000, 0x34245678, 0xffffffff, 0x00000000, 0x49800fdb,
        0x007f0001, 0x807f0000, 0x01000000, 0x00ff0000, 0x0000ffff,
        0x02020304,
    };
    static const struct {
        int in, out, row;
    } cases[] = {
        { TT_FMT_FP32, TT_FMT_FP32, 9 },      /* DstBits rows 17 and 25 */
        { TT_FMT_FP32, TT_FMT_TF32, 10 },     /* 18 and 26 */
        { TT_FMT_INT32, TT_FMT_INT32, 11 },   /* 19 and 27 */
    };
    TTTensixCfg *c = tt_tensix_start();

    tt_tensix_l1_write32(c, L1_A, in, 16);
    /* every Dst row invalid (ZEROACC, all of Dst) */
    push(c, 1, TT_ENC_ZEROACC(3, 0, 0, 0, 0));
    TT_THCFG_SET(c, 0, SRCA_SET_SetOvrdWithAddr, 0);
    for (int i = 0; i < ARRAY_SIZE(cases); i++) {
        tt_tensix_unpack_setup(c, 0, cases[i].in, cases[i].out, L1_A, 16, 1,
                               1, 16);
        TT_CFG_SET(c, THCON_SEC0_REG2_Unpack_if_sel_cntx0, 1);
        TT_CFG_SET(c, THCON_SEC0_REG5_Dest_cntx0_address,
                   16 * (4 + cases[i].row));
        push(c, 0, TT_UNPACR(0, 0, 0));
        tt_tensix_check_dst32(c, cases[i].row, exp);
    }
    tt_tensix_end(c);
}

/*
 * Haloize_mode transposes each 16x16 block written to SrcA: row r, column
 * c of the output goes to row (r & ~15) | c, column r & 15
 * (UNPACR_Regular.md, "if (Transpose)").  256 BF16 datums 0x3f80 + i:
 * datum 1 (0x3f81) lands in row 1 column 0 = 0x0087f, datum 16 (0x3f90)
 * in row 0 column 1 = 0x0807f.
 */
static void test_haloize(void)
{
    uint16_t in[256];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 256; i++) {
        in[i] = 0x3f80 + i;
    }
    tt_tensix_l1_write16(c, L1_A, in, 256);
    tt_tensix_unpack_setup(c, 0, TT_FMT_BF16, TT_FMT_BF16, L1_A, 256, 1, 1,
                           256);
    TT_CFG_SET(c, THCON_SEC0_REG2_Haloize_mode, 1);
    push(c, 0, TT_UNPACR(0, 0, 0));
    for (int r = 0; r < 16; r++) {
        uint32_t exp[16];

        for (int col = 0; col < 16; col++) {
            exp[col] = src_bf16(in[16 * col + r]);
        }
        if (r == 0) {
            g_assert_cmphex(exp[1], ==, 0x0807f);
        } else if (r == 1) {
            g_assert_cmphex(exp[0], ==, 0x0087f);
        }
        tt_tensix_check_src(c, 'A', 0, r, exp);
    }
    tt_tensix_end(c);
}

/*
 * The unpacker-0 output address starts 4 rows before SrcA row 0
 * (UNPACR_Regular.md: "if (Row < 4 ...) continue; Row -= 4"): with
 * Dest_cntx0_address = 64 the datums land in row 0, with 96 in row 2, and
 * rows 0 and 1 keep their reset value 0.
 */
static void test_dest_offset(void)
{
    static const uint16_t in[16] = {
        0x3f80, 0x4000, 0x4040, 0x4080, 0x40a0, 0x40c0, 0x40e0, 0x4100,
        0x4110, 0x4120, 0x4130, 0x4140, 0x4150, 0x4160, 0x4170, 0x4180,
    };
    /* 1.0 .. 16.0: 0x4110 = 9.0 -> man 0x10, exp 0x82 -> 0x08082 */
    static const uint32_t exp[16] = {
        0x0007f, 0x00080, 0x20080, 0x00081, 0x10081, 0x20081, 0x30081,
        0x00082, 0x08082, 0x10082, 0x18082, 0x20082, 0x28082, 0x30082,
        0x38082, 0x00083,
    };
    static const uint32_t zero[16];
    TTTensixCfg *c = tt_tensix_start();

    tt_tensix_l1_write16(c, L1_A, in, 16);
    tt_tensix_unpack_setup(c, 0, TT_FMT_BF16, TT_FMT_BF16, L1_A, 16, 1, 1, 16);
    push(c, 0, TT_UNPACR(0, 0, 0));
    tt_tensix_check_src(c, 'A', 0, 0, exp);

    TT_CFG_SET(c, THCON_SEC0_REG5_Dest_cntx0_address, 96);
    push(c, 0, TT_UNPACR(0, 0, 0));
    tt_tensix_check_src(c, 'A', 0, 2, exp);
    tt_tensix_check_src(c, 'A', 0, 1, zero);
    tt_tensix_check_src(c, 'A', 0, 3, zero);
    tt_tensix_end(c);
}

/*
 * UNPACR AddrMode post-increments Ch0 Z/Y and Ch1 Z/Y of the issuing
 * thread's ADCs (UNPACR_Regular.md "Update counters").  Tile 16 x 4 x 4
 * BF16 datums 0x4000 + i; input position = ((Z * YDim) + Y) * XDim + X;
 * output = Y * Ystride + Z * Zstride bytes (UNP0_ADDR_CTRL_*_REG_1), added
 * to Dest_cntx0 because UNP0_ADD_DEST_ADDR_CNTR is set.
 * First UNPACR, AddrMode 0x79 (Ch0Z += 1, Ch0Y += 2, Ch1Z += 3, Ch1Y += 1):
 * datums 0..15 to row 0.  Second, AddrMode 0: input 2 * 16 + 1 * 64 = 96,
 * output (1 * 64 + 3 * 128) / 2 bytes per datum = 224 datums = row 14.
 */
static void test_adc_addrmode(void)
{
    uint16_t in[256];
    uint32_t exp[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 256; i++) {
        in[i] = 0x4000 + i;
    }
    tt_tensix_l1_write16(c, L1_A, in, 256);
    tt_tensix_unpack_setup(c, 0, TT_FMT_BF16, TT_FMT_BF16, L1_A, 16, 4, 4, 16);
    TT_CFG_SET(c, UNP0_ADDR_CTRL_XY_REG_1_Ystride, 64);
    TT_CFG_SET(c, UNP0_ADDR_CTRL_ZW_REG_1_Zstride, 128);
    TT_CFG_SET(c, UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr, 1);
    push(c, 0, TT_UNPACR(0, 0x79, 0));
    for (int col = 0; col < 16; col++) {
        exp[col] = src_bf16(0x4000 + col);
    }
    tt_tensix_check_src(c, 'A', 0, 0, exp);
    push(c, 0, TT_UNPACR(0, 0, 0));
    for (int col = 0; col < 16; col++) {
        exp[col] = src_bf16(0x4000 + 96 + col);
    }
    /* 0x4060: exp 0x80, man 0x60 */
    g_assert_cmphex(exp[0], ==, 0x30080);
    tt_tensix_check_src(c, 'A', 0, 14, exp);
    tt_tensix_end(c);
}

/*
 * SetDatValid (FlipSrc) hands the bank just written to the matrix unit and
 * moves the unpacker to the other bank (UNPACR_Regular.md, end of the
 * functional model): banks go 0x000000 -> 0x110000 -> 0x300000, the second
 * unpack landing in SrcA bank 1.  UNPACR_NOP with Set_Dvalid does the same
 * for SrcB (UNPACR_NOP_SETDVALID.md), after clearing the bank.
 */
static void test_bank_flip(void)
{
    static const uint16_t one[16] = {
        0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80,
        0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80,
    };
    static const uint16_t two[16] = {
        0x4000, 0x4000, 0x4000, 0x4000, 0x4000, 0x4000, 0x4000, 0x4000,
        0x4000, 0x4000, 0x4000, 0x4000, 0x4000, 0x4000, 0x4000, 0x4000,
    };
    uint32_t exp1[16], exp2[16];
    static const uint32_t zero[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        exp1[i] = 0x0007f;
        exp2[i] = 0x00080;
    }
    tt_tensix_l1_write16(c, L1_A, one, 16);
    tt_tensix_l1_write16(c, L1_B, two, 16);
    tt_tensix_unpack_setup(c, 0, TT_FMT_BF16, TT_FMT_BF16, L1_A, 16, 1, 1, 16);
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x000000);
    push(c, 0, TT_UNPACR(0, 0, 1));
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x110000);
    tt_tensix_check_src(c, 'A', 0, 0, exp1);

    TT_CFG_SET(c, THCON_SEC0_REG3_Base_address, L1_B / 16 - 1);
    push(c, 0, TT_UNPACR(0, 0, 1));
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x300000);
    tt_tensix_check_src(c, 'A', 0, 0, exp1);
    tt_tensix_check_src(c, 'A', 1, 0, exp2);

    /* SrcB: unpack into bank 0, then UNPACR_NOP clears it and flips */
    tt_tensix_unpack_setup(c, 1, TT_FMT_BF16, TT_FMT_BF16, L1_B, 16, 1, 1, 16);
    push(c, 0, TT_UNPACR(1, 0, 0));
    tt_tensix_check_src(c, 'B', 0, 0, exp2);
    push(c, 0, UNPACR_NOP(1, 1, 0));
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x300110);
    tt_tensix_check_src(c, 'B', 0, 0, zero);
    tt_tensix_end(c);
}

/*
 * The bank's implied format (Blackhole: ImpliedSrcAFmt[bank] =
 * REG2_Out_data_format when the bank is handed over,
 * UNPACR_NOP_SETDVALID.md) is what the matrix unit then uses, not
 * ALU_FORMAT_SPEC_REG0_SrcA, unless DISABLE_IMPLIED_SRCA_FMT is set (ttsim
 * src/tensix.cpp).  Observed through MOVA2D (MOVA2D.md): FP16 SrcA goes to
 * Dst16b as {sign, man10, exp5} (RemoveHighExponent), BF16 as {sign, man7,
 * exp8} (RemoveLowMantissa).  FP16 0x3c01 is cell 0x0010f: as FP16 ->
 * 1 << 5 | 15 = 0x002f, as BF16 -> 0x000f; 0x3c07: 0x00ef / 0x000f;
 * 0x4248 (3.140625): 0x248 << 5 | 16 = 0x4910 / man7 0x49 -> 0x4910.
 */
static void test_implied_format(void)
{
    static const uint16_t in[16] = {
        0x3c01, 0x3c07, 0x4248, 0x3c01, 0x3c07, 0x4248, 0x3c01, 0x3c07,
        0x4248, 0x3c01, 0x3c07, 0x4248, 0x3c01, 0x3c07, 0x4248, 0x3c00,
    };
    static const uint16_t as_fp16[16] = {
        0x002f, 0x00ef, 0x4910, 0x002f, 0x00ef, 0x4910, 0x002f, 0x00ef,
        0x4910, 0x002f, 0x00ef, 0x4910, 0x002f, 0x00ef, 0x4910, 0x000f,
    };
    static const uint16_t as_bf16[16] = {
        0x000f, 0x000f, 0x4910, 0x000f, 0x000f, 0x4910, 0x000f, 0x000f,
        0x4910, 0x000f, 0x000f, 0x4910, 0x000f, 0x000f, 0x4910, 0x000f,
    };
    uint16_t got[16];
    TTTensixCfg *c = tt_tensix_start();

    TT_CFG_SET(c, ALU_FORMAT_SPEC_REG0_SrcA, TT_FMT_BF16);
    tt_tensix_l1_write16(c, L1_A, in, 16);
    tt_tensix_unpack_setup(c, 0, TT_FMT_FP16, TT_FMT_FP16, L1_A, 16, 1, 1, 16);
    push(c, 0, TT_UNPACR(0, 0, 1));
    /* MOVA2D, 8 rows (Move8Rows), SrcA row 0 -> Dst row 0 */
    push(c, 1, TT_ENC_MOVA2D(0, 0, 0, 2, 0));
    g_assert_cmpint(tt_tensix_dst(c->qts, TT_TX, TT_TY, 0, got), ==, 1);
    for (int i = 0; i < 16; i++) {
        g_assert_cmphex(got[i], ==, as_fp16[i]);
    }
    TT_THCFG_SET(c, 1, DISABLE_IMPLIED_SRCA_FMT_Base, 1);
    push(c, 1, TT_ENC_MOVA2D(0, 0, 0, 2, 8));
    tt_tensix_dst(c->qts, TT_TX, TT_TY, 8, got);
    for (int i = 0; i < 16; i++) {
        g_assert_cmphex(got[i], ==, as_bf16[i]);
    }
    tt_tensix_end(c);
}

/*
 * UNPACR waits while its bank belongs to the matrix unit
 * (UNPACR_Regular.md, "while (SrcA[Bank].AllowedClient != Unpackers)
 * wait"), and the thread's later instructions wait behind it.  With both
 * SrcA banks handed over, an UNPACR and an INCRWC pushed to thread 0 do
 * nothing; CLEARDVALID from thread 1 gives bank 0 back (CLEARDVALID.md:
 * AllowedClient = Unpackers, SrcABank ^= 1) and both then run: the new
 * data lands in bank 0, which goes back to the matrix unit, and thread 0's
 * SrcA RWC becomes 1.
 */
static void test_wait_for_bank(void)
{
    static const uint16_t one[16] = {
        0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80,
        0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80,
    };
    static const uint16_t three[16] = {
        0x4040, 0x4040, 0x4040, 0x4040, 0x4040, 0x4040, 0x4040, 0x4040,
        0x4040, 0x4040, 0x4040, 0x4040, 0x4040, 0x4040, 0x4040, 0x4040,
    };
    uint32_t exp1[16], exp3[16];
    unsigned rwc[4];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        exp1[i] = 0x0007f;
        exp3[i] = 0x20080;
    }
    tt_tensix_l1_write16(c, L1_A, one, 16);
    tt_tensix_l1_write16(c, L1_B, three, 16);
    tt_tensix_unpack_setup(c, 0, TT_FMT_BF16, TT_FMT_BF16, L1_A, 16, 1, 1, 16);
    push(c, 0, TT_UNPACR(0, 0, 1));
    push(c, 0, TT_UNPACR(0, 0, 1));
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x300000);

    TT_CFG_SET(c, THCON_SEC0_REG3_Base_address, L1_B / 16 - 1);
    push(c, 0, TT_UNPACR(0, 0, 1));
    push(c, 0, TT_ENC_INCRWC(0, 0, 0, 1));
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x300000);
    tt_tensix_rwc(c->qts, TT_TX, TT_TY, 0, rwc);
    g_assert_cmpuint(rwc[0], ==, 0);
    tt_tensix_check_src(c, 'A', 0, 0, exp1);

    push(c, 1, TT_ENC_CLEARDVALID(1, 0));
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x311000);
    tt_tensix_check_src(c, 'A', 0, 0, exp3);
    tt_tensix_check_src(c, 'A', 1, 0, exp1);
    tt_tensix_rwc(c->qts, TT_TX, TT_TY, 0, rwc);
    g_assert_cmpuint(rwc[0], ==, 1);
    tt_tensix_end(c);
}

/*
 * UNPACR_NOP (Blackhole encoding: pop = 1 clears the unpacker's current
 * bank, UNPACR_NOP_ZEROSRC.md): clear value 0, or all ones = the 19-bit
 * "-inf" 0x7ffff on SrcA (ClearVal = ~0u), whole 64 x 16 bank; with
 * Set_Dvalid the bank then goes to the matrix unit
 * (UNPACR_NOP_SETDVALID.md).
 */
static void test_unpacr_nop(void)
{
    static const uint16_t one[16] = {
        0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80,
        0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80,
    };
    uint32_t exp1[16], ninf[16];
    static const uint32_t zero[16];
    TTTensixCfg *c = tt_tensix_start();

    for (int i = 0; i < 16; i++) {
        exp1[i] = 0x0007f;
        ninf[i] = 0x7ffff;
    }
    tt_tensix_l1_write16(c, L1_A, one, 16);
    tt_tensix_unpack_setup(c, 0, TT_FMT_BF16, TT_FMT_BF16, L1_A, 16, 1, 1, 16);
    push(c, 0, TT_UNPACR(0, 0, 0));
    tt_tensix_check_src(c, 'A', 0, 0, exp1);

    push(c, 0, UNPACR_NOP(0, 0, 1));
    tt_tensix_check_src(c, 'A', 0, 0, ninf);
    tt_tensix_check_src(c, 'A', 0, 63, ninf);
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x000000);

    push(c, 0, UNPACR_NOP(0, 0, 0));
    tt_tensix_check_src(c, 'A', 0, 0, zero);
    tt_tensix_check_src(c, 'A', 0, 63, zero);
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x000000);

    push(c, 0, TT_UNPACR(0, 0, 0));
    push(c, 0, UNPACR_NOP(0, 1, 0));
    tt_tensix_check_src(c, 'A', 0, 0, zero);
    g_assert_cmphex(tt_tensix_banks(c->qts, TT_TX, TT_TY), ==, 0x110000);
    tt_tensix_end(c);
}

/*
 * Bad input must not stop QEMU: an undefined InDataFormat (12, no name in
 * Unpackers/FormatConversion.md), an input/output pair the conversion
 * table does not allow (BF16 -> FP16: "InDataFormat != OutDataFormat"
 * is UndefinedBehaviour), and datums past the end of L1 (ReadL1Bytes:
 * "Address must be in L1").  After each, a normal BF16 unpack on the same
 * tile and thread must still work.
 */
static void test_bad_input(void)
{
    static const uint16_t in[16] = {
        0x3f80, 0x4000, 0x4040, 0x4080, 0x40a0, 0x40c0, 0x40e0, 0x4100,
        0x4110, 0x4120, 0x4130, 0x4140, 0x4150, 0x4160, 0x4170, 0x4180,
    };
    static const uint32_t exp[16] = {
        0x0007f, 0x00080, 0x20080, 0x00081, 0x10081, 0x20081, 0x30081,
        0x00082, 0x08082, 0x10082, 0x18082, 0x20082, 0x28082, 0x30082,
        0x38082, 0x00083,
    };
    static const struct {
        int in, out;
        uint32_t addr;
    } bad[] = {
        { 12, 12, L1_A },
        { TT_FMT_BF16, TT_FMT_FP16, L1_A },
        { TT_FMT_BF16, TT_FMT_BF16, L1_SIZE - 16 },   /* half past the end */
        { TT_FMT_BF16, TT_FMT_BF16, 2 * L1_SIZE },    /* all past the end */
    };
    TTTensixCfg *c = tt_tensix_start();

    tt_tensix_l1_write16(c, L1_A, in, 16);
    tt_tensix_unpack_setup(c, 0, TT_FMT_BF16, TT_FMT_BF16, L1_A, 16, 1, 1,
                           16);
    push(c, 0, TT_UNPACR(0, 0, 0));
    for (int i = 0; i < ARRAY_SIZE(bad); i++) {
        static const uint32_t zero[16];

        tt_tensix_unpack_setup(c, 0, bad[i].in, bad[i].out, bad[i].addr,
                               16, 1, 1, 16);
        push(c, 0, TT_UNPACR(0, 0, 0));
        if (bad[i].addr == L1_A) {
            /* a format error writes nothing (style guide rule 8) */
            tt_tensix_check_src(c, 'A', 0, 0, exp);
        }
        /* ... then clear the bank and unpack something normal */
        push(c, 0, UNPACR_NOP(0, 0, 0));
        tt_tensix_check_src(c, 'A', 0, 0, zero);
        tt_tensix_unpack_setup(c, 0, TT_FMT_BF16, TT_FMT_BF16, L1_A, 16, 1,
                               1, 16);
        push(c, 0, TT_UNPACR(0, 0, 0));
        tt_tensix_check_src(c, 'A', 0, 0, exp);
    }
    tt_tensix_end(c);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/tensix-unpack/bf16", test_bf16);
    qtest_add_func("/blackhole/tensix-unpack/fp32-to-tf32",
                   test_fp32_to_tf32);
    qtest_add_func("/blackhole/tensix-unpack/fp32-to-bf16",
                   test_fp32_to_bf16);
    qtest_add_func("/blackhole/tensix-unpack/fp32-to-fp16",
                   test_fp32_to_fp16);
    qtest_add_func("/blackhole/tensix-unpack/fp16", test_fp16);
    qtest_add_func("/blackhole/tensix-unpack/bfp8", test_bfp8);
    qtest_add_func("/blackhole/tensix-unpack/bfp8-forced-exp",
                   test_bfp8_forced_exp);
    qtest_add_func("/blackhole/tensix-unpack/bfp4", test_bfp4);
    qtest_add_func("/blackhole/tensix-unpack/bfp2", test_bfp2);
    qtest_add_func("/blackhole/tensix-unpack/int8", test_int8);
    qtest_add_func("/blackhole/tensix-unpack/fp8-e5m2", test_fp8_e5m2);
    qtest_add_func("/blackhole/tensix-unpack/fp8-e4m3", test_fp8_e4m3);
    qtest_add_func("/blackhole/tensix-unpack/uint16", test_uint16);
    qtest_add_func("/blackhole/tensix-unpack/to-dst", test_to_dst);
    qtest_add_func("/blackhole/tensix-unpack/haloize", test_haloize);
    qtest_add_func("/blackhole/tensix-unpack/dest-offset", test_dest_offset);
    qtest_add_func("/blackhole/tensix-unpack/adc-addrmode",
                   test_adc_addrmode);
    qtest_add_func("/blackhole/tensix-unpack/bank-flip", test_bank_flip);
    qtest_add_func("/blackhole/tensix-unpack/implied-format",
                   test_implied_format);
    qtest_add_func("/blackhole/tensix-unpack/wait-for-bank",
                   test_wait_for_bank);
    qtest_add_func("/blackhole/tensix-unpack/unpacr-nop", test_unpacr_nop);
    qtest_add_func("/blackhole/tensix-unpack/bad-input", test_bad_input);
    return g_test_run();
}
