/*
 * Host reference for the Tensix kernels of firmware/tensix: what the
 * unpack -> matrix unit -> pack pipeline should write to L1, computed from
 * the public description of the hardware arithmetic
 * (tenstorrent/tt-isa-documentation, WormholeB0/TensixTile/
 * TensixCoprocessor: FloatBitPatterns.md, SrcASrcB.md, MVMUL.md,
 * ELWADD.md, ELWMUL.md, GAPOOL.md, GMPOOL.md, MOVA2D.md, MOVD2B.md,
 * UNPACR_Regular.md, Packers/FormatConversion.md), not from any
 * simulator.
 *
 * Data move and format conversion are specified bit for bit, so those
 * results are exact.  Floating-point arithmetic is specified only as a
 * "rough guide" (accumulation order and internal precision are left
 * open), so arithmetic results come with an error bound; tt-ref.c says
 * for each operation how the bound is derived.
 *
 * Operands and results are tiles of 32x32 datums in L1 order: four 16x16
 * faces (rows 0-15/cols 0-15, rows 0-15/cols 16-31, rows 16-31/cols
 * 0-15, rows 16-31/cols 16-31), each row-major.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_REF_H
#define TT_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TT_REF_TILE         1024            /* datums per 32x32 tile */
#define TT_REF_BFP8_TILE    (64 + 1024)     /* exponents, then datums */

/* L1 formats (tt-metal DataFormat codes) */
enum {
    TT_REF_FLOAT32 = 0,
    TT_REF_FLOAT16_B = 5,
    TT_REF_BFP8_B = 6,
    TT_REF_INT32 = 8,               /* Dst's bits (packer: raw) */
    TT_REF_INT8 = 14,               /* sign-magnitude */
};

/* The pipeline a kernel runs, as firmware/tensix's parameter block says */
typedef struct TTRefPipe {
    bool dst_fp32;          /* Dst in 32-bit (FP32) mode */
    int fidelity;           /* 0 = LoFi (phase 0 only), 2..4 = HiFi2..4 */
    int pack_src;           /* packer intermediate format */
    int out_fmt;            /* L1 output format */
} TTRefPipe;

/*
 * One expected output datum.  exact: the output bits must equal @bits.
 * Otherwise the decoded output must lie within @bound of @val (and
 * zeros of either sign count as equal).
 */
typedef struct TTRefExpect {
    bool exact;
    uint32_t bits;
    double val;
    double bound;
} TTRefExpect;

/* ------------------------------------------------ bit patterns ----- */

double tt_ref_bf16_value(uint16_t h);
double tt_ref_fp32_value(uint32_t f);
uint32_t tt_ref_fp32_bits(float f);
/* round to nearest, ties to even; denormal results flushed to zero */
uint32_t tt_ref_fp32_round(double x);
uint16_t tt_ref_bf16_round_even(double x);
/* one unit in the last place of @x in a format with @mant_bits */
double tt_ref_ulp(double x, int mant_bits);

/* ------------------------------------------------ conversions ------ */

/* BFP8 datum + shared exponent -> BF16 (FloatBitPatterns.md) */
uint16_t tt_ref_bfp8_to_bf16(uint8_t datum, uint8_t exp);
/* 16 BF16 -> shared exponent and 16 BFP8 datums (the packer's late step) */
uint8_t tt_ref_bfp8_block(const uint16_t in[16], uint8_t out[16]);
void tt_ref_bfp8_encode_tile(const uint16_t *bf16, uint8_t *l1);
void tt_ref_bfp8_decode_tile(const uint8_t *l1, uint16_t *bf16);

/* ------------------------------------------------ tile layout ------ */

/* position in L1 order of datum (@r, @c) of a 32x32 tile */
int tt_ref_tile_pos(int r, int c);

/* ------------------------------------------------ operations ------- */

/* A -> Dst -> L1 (MOVA2D, or ELWADD with a zeroed SrcB for FP32 Dst) */
void tt_ref_datacopy(const TTRefPipe *pp, const uint16_t *a, int ntiles,
                     TTRefExpect *out);
/* as datacopy, each tile transposed */
void tt_ref_transpose(const TTRefPipe *pp, const uint16_t *a, int ntiles,
                      TTRefExpect *out);
/*
 * Tilize: @a is a row-major (32 mt) x (32 nt) matrix, the output its
 * tiles in row-major tile order.  Untilize: the reverse.  Both move data
 * as datacopy does.
 */
void tt_ref_tilize(const TTRefPipe *pp, const uint16_t *a, int mt, int nt,
                   TTRefExpect *out);
void tt_ref_untilize(const TTRefPipe *pp, const uint16_t *a, int mt, int nt,
                     TTRefExpect *out);
/* op: 0 add, 1 sub (A - B), 2 mul */
void tt_ref_eltwise(const TTRefPipe *pp, int op, const uint16_t *a,
                    const uint16_t *b, int ntiles, TTRefExpect *out);
/* C (mt x nt tiles) = A (mt x kt) x B (kt x nt), tiles row-major */
void tt_ref_matmul(const TTRefPipe *pp, const uint16_t *a, const uint16_t *b,
                   int mt, int kt, int nt, TTRefExpect *out);
/*
 * Reduce each tile of A along rows (col = false: sums/maxima in column 0)
 * or columns (col = true: in row 0), scaled by row 0 of each face of the
 * scaler tile; every other output datum is +0 (packer edge mask).
 */
/*
 * Integer math (INT8_math_enabled): sign-magnitude Int8 operands (the
 * byte in each element's low 8 bits) into a sign-magnitude INT32 Dst,
 * packed as Int32 or as Int8.  @op: -1 datacopy (ELWADD with a zero
 * SrcB), else the eltwise op (0 add, 1 sub, 2 mul).
 */
void tt_ref_int(const TTRefPipe *pp, int op, const uint16_t *a,
                const uint16_t *b, int ntiles, TTRefExpect *out);
void tt_ref_reduce(const TTRefPipe *pp, bool col, bool max,
                   const uint16_t *a, const uint16_t *scaler, int ntiles,
                   TTRefExpect *out);

/*
 * Eltwise unary SFPU operations, numbered as firmware/tensix's
 * TTK_SFPU_*: A (@ntiles) through datacopy to Dst, the operation (with
 * its parameter @arg: threshold or slope as FP32 bits, the last topk
 * phase) on each tile, packed.  TOPK takes four tiles, values in 0-1 and
 * indices in 2-3, and sorts within 16-row column groups.
 */
enum {
    TT_REF_SFPU_EXP,
    TT_REF_SFPU_EXP_PRECISE,
    TT_REF_SFPU_RECIP,
    TT_REF_SFPU_SQRT,
    TT_REF_SFPU_GELU,
    TT_REF_SFPU_SIGMOID,
    TT_REF_SFPU_RELU_MIN,
    TT_REF_SFPU_RELU_MAX,
    TT_REF_SFPU_LRELU,
    TT_REF_SFPU_FP32_TO_INT32,
    TT_REF_SFPU_INT32_ROUNDTRIP,
    TT_REF_SFPU_TOPK,
    /* not a kernel: fp32 -> int32 in sign-magnitude, for negative checks */
    TT_REF_SFPU_FP32_TO_SM32,
};
void tt_ref_sfpu(const TTRefPipe *pp, int op, uint32_t arg,
                 const uint16_t *a, int ntiles, TTRefExpect *out);

/*
 * Bytes of the expected L1 output of @ntiles tiles; all of @exp must be
 * exact.  Returns the size written.
 */
size_t tt_ref_encode(const TTRefPipe *pp, const TTRefExpect *exp, int ntiles,
                     uint8_t *l1);

/* ------------------------------------------------ checking --------- */

typedef struct TTRefStats {
    int count;              /* datums compared */
    int bad;                /* outside the bound / bits differ */
    int first_bad;          /* index of the first bad datum, -1 if none */
    uint32_t bad_got, bad_want;
    double max_ulp;         /* |got - want| in output ULPs at want */
    double max_ratio;       /* |got - want| / bound, bounded datums only */
} TTRefStats;

/* Compare the L1 output @l1 with @exp */
void tt_ref_check(const TTRefPipe *pp, const TTRefExpect *exp, int ntiles,
                  const uint8_t *l1, TTRefStats *st);

#endif
