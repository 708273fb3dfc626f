/*
 * Host reference for the Tensix kernels (see tt-ref.h).  Section names
 * below refer to tenstorrent/tt-isa-documentation, WormholeB0/TensixTile/
 * TensixCoprocessor/ (the BlackholeA0 pages for these units point there).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt-ref.h"

#define FP32_MANT           23
#define BF16_MANT           7
#define FP32_MIN_EXP        (-126)      /* of the smallest normal */

/* ================================================== bit patterns === */

double tt_ref_fp32_value(uint32_t f)
{
    float x;

    memcpy(&x, &f, sizeof(x));
    return x;
}

uint32_t tt_ref_fp32_bits(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof(u));
    return u;
}

double tt_ref_bf16_value(uint16_t h)
{
    return tt_ref_fp32_value((uint32_t)h << 16);
}

double tt_ref_ulp(double x, int mant_bits)
{
    uint64_t u;
    int e;

    x = fabs(x);
    if (!(x >= FLT_MIN)) {      /* NaN too */
        x = FLT_MIN;
    } else if (isinf(x)) {
        frexp(x, &e);           /* whatever the C library says */
        return ldexp(1.0, e - 1 - mant_bits);
    }
    /* x = 1.m * 2^e, a normal double: the unit is 2^(e - mant_bits) */
    memcpy(&u, &x, sizeof(u));
    e = (int)(u >> 52) - 1023;
    u = (uint64_t)(e - mant_bits + 1023) << 52;
    memcpy(&x, &u, sizeof(x));
    return x;
}

/* Nearest FP32, ties to even; results below the normal range become 0 */
uint32_t tt_ref_fp32_round(double x)
{
    float f = (float)x;         /* the host rounds to nearest even */

    if (fabs(f) < ldexp(1.0, FP32_MIN_EXP)) {
        return 0;
    }
    return tt_ref_fp32_bits(f);
}

uint16_t tt_ref_bf16_round_even(double x)
{
    uint32_t u = tt_ref_fp32_round(x);

    u += 0x7fff + ((u >> 16) & 1);
    return u >> 16;
}

static double bf16_even(double x)
{
    return tt_ref_bf16_value(tt_ref_bf16_round_even(x));
}

/*
 * The Matrix Unit's reading of an operand (FloatBitPatterns.md, "Matrix
 * Unit (FPU)" columns): exponent 0 is zero, whatever the mantissa and
 * sign; exponent 255 is just (1 + Mant) * 2^128, not Inf or NaN.
 */
static double fpu_value(uint32_t f)
{
    int e = (f >> 23) & 0xff;
    uint64_t u;
    double v;

    if (e == 0) {
        return 0.0;
    }
    /* (1 + Man / 2^23) * 2^(e - 127), as a double's fields */
    u = (uint64_t)(f >> 31) << 63 | (uint64_t)(e - 127 + 1023) << 52 |
        (uint64_t)(f & 0x7fffff) << 29;
    memcpy(&v, &u, sizeof(v));
    return v;
}

static double fpu_bf16(uint16_t h)
{
    return fpu_value((uint32_t)h << 16);
}

/* =================================================== conversions === */

/*
 * Packer early conversions (Packers/FormatConversion.md, "Early format
 * conversion").  "Rounding" is round to nearest with ties away from zero;
 * it flushes denormals to +0, turns -0 into +0 and NaN into Inf (8-bit
 * exponents).  BF16 to BF16 "rounding" changes nothing else.
 */
static uint16_t pack_bf16_to_bf16(uint16_t h)
{
    int e = (h >> 7) & 0xff;

    if (e == 0) {
        return 0;
    }
    if (e == 0xff && (h & 0x7f)) {
        return (h & 0x8000) | 0x7f80;
    }
    return h;
}

static uint16_t pack_fp32_to_bf16(uint32_t f)
{
    int e = (f >> 23) & 0xff;

    if (e == 0) {
        return 0;
    }
    if (e == 0xff) {
        return (f >> 16 & 0x8000) | 0x7f80;
    }
    /* ties away: add half an LSB to the magnitude; a carry may reach Inf */
    return (f >> 16 & 0x8000) | (((f & 0x7fffffff) + 0x8000) >> 16);
}

/* To E8M6 (6 mantissa bits, the BFP8 intermediate), same rounding */
static uint16_t pack_bf16_to_e8m6(uint16_t h)
{
    uint16_t v = pack_bf16_to_bf16(h);

    if (!v || (v & 0x7f80) == 0x7f80) {
        return v;
    }
    return (v & 0x8000) | (((v & 0x7fff) + 1) & ~1);
}

static uint16_t pack_fp32_to_e8m6(uint32_t f)
{
    int e = (f >> 23) & 0xff;

    if (e == 0) {
        return 0;
    }
    if (e == 0xff) {
        return (f >> 16 & 0x8000) | 0x7f80;
    }
    return (f >> 16 & 0x8000) |
           ((((f & 0x7fffffff) + 0x10000) >> 16) & ~1);
}

/* FloatBitPatterns.md, "Conversion routines": BFP8ToBF16 */
uint16_t tt_ref_bfp8_to_bf16(uint8_t datum, uint8_t exp)
{
    unsigned sign = datum >> 7;
    uint8_t mag = datum << 1;
    int lz = 0;

    if (mag == 0) {
        return sign ? 0xff80 : 0;
    }
    while (!(mag & 0x80)) {
        mag <<= 1;
        lz++;
    }
    exp -= lz;                  /* 8-bit wrap, as the routine's uint8_t */
    return sign << 15 | exp << 7 | (mag & 0x7e);
}

/*
 * Late conversion to BFP8 (Packers/FormatConversion.md): the 16 BF16
 * values of a row share one 8-bit exponent; each datum keeps a sign and a
 * 7-bit magnitude Mag meaning Mag/64 * 2^(Exp-127) (FloatBitPatterns.md
 * BFP8), rounded to nearest with ties away from zero.  Not spelled out
 * in the documentation, and assumed here:
 *  - the shared exponent is the largest exponent of the 16 (so no value
 *    needs more than 7 bits of magnitude before rounding);
 *  - a magnitude that rounds up to 128 saturates at 127 rather than
 *    bumping the shared exponent;
 *  - a datum whose magnitude rounds to 0 is written as +0, because sign 1
 *    with magnitude 0 means -2^128 (FloatBitPatterns.md BFP8 table).
 */
uint8_t tt_ref_bfp8_block(const uint16_t in[16], uint8_t out[16])
{
    int emax = 0;

    for (int i = 0; i < 16; i++) {
        int e = (in[i] >> 7) & 0xff;

        emax = e > emax ? e : emax;
    }
    for (int i = 0; i < 16; i++) {
        int e = (in[i] >> 7) & 0xff;
        unsigned m = e ? 0x80 | (in[i] & 0x7f) : 0;  /* 1.mmmmmmm * 2^7 */
        int shift = emax - e + 1;   /* Mag = m / 2^shift */
        unsigned mag;

        if (shift > 8) {
            mag = 0;
        } else {
            mag = (m + (1u << (shift - 1))) >> shift;
        }
        if (mag > 127) {
            mag = 127;
        }
        out[i] = mag ? (in[i] >> 15) << 7 | mag : 0;
    }
    return emax;
}

/* A BFP8 tile: 64 exponent bytes (one per 16-datum row, L1 order), data */
void tt_ref_bfp8_encode_tile(const uint16_t *bf16, uint8_t *l1)
{
    for (int row = 0; row < 64; row++) {
        l1[row] = tt_ref_bfp8_block(bf16 + 16 * row, l1 + 64 + 16 * row);
    }
}

void tt_ref_bfp8_decode_tile(const uint8_t *l1, uint16_t *bf16)
{
    for (int i = 0; i < TT_REF_TILE; i++) {
        bf16[i] = tt_ref_bfp8_to_bf16(l1[64 + i], l1[i / 16]);
    }
}

/* =================================================== tile layout === */

int tt_ref_tile_pos(int r, int c)
{
    return ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16;
}

/* ============================================== exact data moves === */

static int out_mant_bits(const TTRefPipe *pp)
{
    return pp->out_fmt == TT_REF_FLOAT32 && pp->pack_src == TT_REF_FLOAT32
           ? FP32_MANT : BF16_MANT;
}

static void set_exact(const TTRefPipe *pp, uint32_t bits, TTRefExpect *e)
{
    e->exact = true;
    e->bits = bits;
    e->bound = 0;
    e->val = pp->out_fmt == TT_REF_FLOAT32 ? tt_ref_fp32_value(bits) :
             pp->out_fmt == TT_REF_INT32 ? (double)(int32_t)bits :
             pp->out_fmt == TT_REF_INT8 ? (bits & 0x80 ? -1.0 : 1.0) *
                                          (bits & 0x7f) :
             tt_ref_bf16_value(bits);
}

/* Dst16b holds BF16 @h: packer early then late conversion */
static void pack_dst16(const TTRefPipe *pp, uint16_t h, TTRefExpect *e)
{
    uint16_t v = pp->pack_src == TT_REF_BFP8_B ? pack_bf16_to_e8m6(h)
                                              : pack_bf16_to_bf16(h);

    /* to FP32 the late conversion widens; to BFP8 see tt_ref_encode() */
    set_exact(pp, pp->out_fmt == TT_REF_FLOAT32 ? (uint32_t)v << 16 : v, e);
}

/* Dst32b holds FP32 @f */
static void pack_dst32(const TTRefPipe *pp, uint32_t f, TTRefExpect *e)
{
    uint32_t v;

    switch (pp->pack_src) {
    case TT_REF_FLOAT32:
    case TT_REF_INT32:
        v = f;                  /* identity */
        break;
    case TT_REF_BFP8_B:
        v = pack_fp32_to_e8m6(f);
        break;
    default:
        v = pack_fp32_to_bf16(f);
        if (pp->out_fmt == TT_REF_FLOAT32) {
            v <<= 16;
        }
        break;
    }
    set_exact(pp, v, e);
}

/* A zero produced by arithmetic, sign unspecified */
static void set_zero(const TTRefPipe *pp, TTRefExpect *e)
{
    if (pp->out_fmt != TT_REF_FLOAT32 || pp->pack_src != TT_REF_FLOAT32) {
        set_exact(pp, 0, e);    /* packer rounding makes -0 +0 */
        return;
    }
    e->exact = false;
    e->val = 0;
    e->bound = 0;
}

/*
 * One datum through datacopy.  16-bit Dst: MOVA2D (MOVA2D.md) copies the
 * BF16 bits, flushing exponent-0 values to 0.  32-bit Dst: ELWADD of the
 * datum and a zeroed SrcB (ELWADD.md), exact for finite values; exponent
 * 255 reads as a value >= 2^128, too large for FP32, so the result is the
 * Inf pattern (FloatBitPatterns.md note (‡)).
 */
static void datacopy_one(const TTRefPipe *pp, uint16_t h, TTRefExpect *e)
{
    int exp = (h >> 7) & 0xff;

    if (!pp->dst_fp32) {
        pack_dst16(pp, exp ? h : 0, e);
    } else if (exp == 0) {
        set_zero(pp, e);
    } else if (exp == 0xff) {
        pack_dst32(pp, (uint32_t)(h & 0x8000) << 16 | 0x7f800000, e);
    } else {
        pack_dst32(pp, (uint32_t)h << 16, e);
    }
}

void tt_ref_datacopy(const TTRefPipe *pp, const uint16_t *a, int ntiles,
                     TTRefExpect *out)
{
    for (int i = 0; i < ntiles * TT_REF_TILE; i++) {
        datacopy_one(pp, a[i], &out[i]);
    }
}

/*
 * The unpacker's haloize mode transposes each face on its way into SrcA
 * and the faces are unpacked in the order 0, 2, 1, 3, so the datacopy
 * writes the transposed tile.
 */
void tt_ref_transpose(const TTRefPipe *pp, const uint16_t *a, int ntiles,
                      TTRefExpect *out)
{
    for (int t = 0; t < ntiles; t++) {
        for (int r = 0; r < 32; r++) {
            for (int c = 0; c < 32; c++) {
                datacopy_one(pp, a[t * TT_REF_TILE + tt_ref_tile_pos(c, r)],
                             &out[t * TT_REF_TILE + tt_ref_tile_pos(r, c)]);
            }
        }
    }
}

/* Datum (@r, @c) of tile @t of an @nt tiles wide row-major matrix */
static int rowmajor_pos(int nt, int t, int r, int c)
{
    return ((t / nt) * 32 + r) * nt * 32 + (t % nt) * 32 + c;
}

void tt_ref_tilize(const TTRefPipe *pp, const uint16_t *a, int mt, int nt,
                   TTRefExpect *out)
{
    for (int t = 0; t < mt * nt; t++) {
        for (int r = 0; r < 32; r++) {
            for (int c = 0; c < 32; c++) {
                datacopy_one(pp, a[rowmajor_pos(nt, t, r, c)],
                             &out[t * TT_REF_TILE + tt_ref_tile_pos(r, c)]);
            }
        }
    }
}

void tt_ref_untilize(const TTRefPipe *pp, const uint16_t *a, int mt, int nt,
                     TTRefExpect *out)
{
    for (int t = 0; t < mt * nt; t++) {
        for (int r = 0; r < 32; r++) {
            for (int c = 0; c < 32; c++) {
                datacopy_one(pp, a[t * TT_REF_TILE + tt_ref_tile_pos(r, c)],
                             &out[rowmajor_pos(nt, t, r, c)]);
            }
        }
    }
}

/* ===================================================== arithmetic === */

/*
 * Fidelity phases (SrcASrcB.md, "Fidelity phases"; the SrcAFidelityBits
 * and SrcBFidelityBits definitions in ELWMUL.md): a multiply in phase p
 * uses the implicit 1 and top four mantissa bits of SrcA (p & 1 == 0) or
 * the next bits, and the implicit 1 and top six mantissa bits of SrcB
 * (p & 2 == 0) or the rest.  LoFi runs phase 0 only, HiFiN phases
 * 0..N-1; for BF16 all four phases together give the exact product.
 */
static double slice_a(uint16_t h, int phase)
{
    uint32_t u = (uint32_t)h << 16;
    double hi = fpu_value(u & 0xfff80000);

    return (phase & 1) ? fpu_value(u) - hi : hi;
}

static double slice_b(uint16_t h, int phase)
{
    uint32_t u = (uint32_t)h << 16;
    double hi = fpu_value(u & 0xfffe0000);

    return (phase & 2) ? fpu_value(u) - hi : hi;
}

static int nphases(const TTRefPipe *pp)
{
    return pp->fidelity ? pp->fidelity : 1;
}

/*
 * A Dst datum under accumulation: the value the documented model gives
 * with every Dst write rounded to nearest (even) in the Dst format, and
 * a bound on how far hardware following the same model may be from it.
 *
 * The documentation gives neither the rounding of RoundToBF16 /
 * WriteDstFP32 nor the internal precision ("precision could be either
 * lower or higher").  Each write that must round is therefore allowed
 * one unit in the last place of the largest of old value, addend and
 * result (which covers any rounding direction and an addend rounded into
 * the frame of the larger operand); a write whose exact result fits the
 * Dst format is exact, unless an earlier one was not.  Every sum of
 * products is allowed the error of an adder tree that keeps 10 bits
 * below the largest product of each group of 8: half a unit per product,
 * i.e. 2^-8 of the group's largest product for phase 0 (whose products
 * have at least 11 significant bits), 2^-13 for the other phases (at
 * least 2^5 smaller).  ttsim v1.10.0 implements such an adder (two
 * groups of eight per 16-term dot product).  A LoFi result misses the
 * HiFi4 value by a truncation of 3 SrcA mantissa bits per product, far
 * outside these bounds (the *-lofi-vs-hifi4 cases of tt-kernel-run).
 */
typedef struct Acc {
    double d;
    double err;
} Acc;

/* fmax(), inline: a NaN operand gives the other */
static inline double max_num(double a, double b)
{
    return a >= b || b != b ? a : b;
}

static void acc_add(Acc *acc, double s, bool dst32)
{
    double r = dst32 ? tt_ref_fp32_value(tt_ref_fp32_round(acc->d + s))
                     : bf16_even(acc->d + s);
    double big = max_num(max_num(fabs(acc->d), fabs(s)), fabs(r));

    /*
     * Once the hardware's Dst may differ from the model's (err > 0), its
     * own sum may need rounding even where the model's does not.
     */
    if (r != acc->d + s || acc->err > 0) {
        acc->err += tt_ref_ulp(big, dst32 ? FP32_MANT : BF16_MANT);
    }
    acc->d = r;
}

/*
 * One MVMUL/GAPOOL row of one phase: sum over k < n of the SrcB slice
 * @sb[k] times the SrcA slice @sa[k] (MVMUL.md), added to Dst; @vb and
 * @va are the operands' whole values, for the groups' largest products.
 */
static void acc_dot_sliced(Acc *acc, const double *sb, const double *sa,
                           const double *vb, const double *va, int n,
                           int phase, bool dst32)
{
    double s = 0;

    for (int g = 0; g < n; g += 8) {
        double gmax = 0;

        for (int k = g; k < g + 8 && k < n; k++) {
            double p = fabs(vb[k] * va[k]);

            s += sb[k] * sa[k];
            gmax = p > gmax ? p : gmax;     /* fmax: no NaN here */
        }
        /* 2^-13 or 2^-8, exactly */
        acc->err += gmax * (phase ? 1.0 / 8192 : 1.0 / 256);
    }
    acc_add(acc, s, dst32);
}

/* The same on BF16 datums (at most 16) */
static void acc_dot(Acc *acc, const uint16_t *srcb, const uint16_t *srca,
                    int n, int phase, bool dst32)
{
    double sb[16], sa[16], vb[16], va[16];

    for (int k = 0; k < n; k++) {
        sb[k] = slice_b(srcb[k], phase);
        sa[k] = slice_a(srca[k], phase);
        vb[k] = fpu_bf16(srcb[k]);
        va[k] = fpu_bf16(srca[k]);
    }
    acc_dot_sliced(acc, sb, sa, vb, va, n, phase, dst32);
}

/*
 * Dst to L1 for an arithmetic result.  Without error Dst holds exactly
 * @acc->d and the packer's output is exact.  Otherwise Dst holds some
 * value within @acc->err of it; when the packer rounds FP32 to BF16 and
 * both ends of that interval round the same way the output is still
 * exact, else it may be one more BF16 unit away.
 */
static void pack_approx(const TTRefPipe *pp, const Acc *acc, TTRefExpect *e)
{
    bool rounds = pp->dst_fp32 && out_mant_bits(pp) == BF16_MANT;

    if (acc->d == 0 && acc->err == 0) {
        set_zero(pp, e);
        return;
    }
    if (acc->err == 0) {
        if (pp->dst_fp32) {
            pack_dst32(pp, tt_ref_fp32_round(acc->d), e);
        } else {
            pack_dst16(pp, tt_ref_fp32_round(acc->d) >> 16, e);
        }
        return;
    }
    if (rounds) {
        uint16_t lo = pack_fp32_to_bf16(tt_ref_fp32_round(acc->d - acc->err));
        uint16_t hi = pack_fp32_to_bf16(tt_ref_fp32_round(acc->d + acc->err));

        if (lo == hi) {
            pack_dst32(pp, (uint32_t)lo << 16, e);
            return;
        }
    }
    e->exact = false;
    e->val = acc->d;
    e->bound = acc->err;
    if (rounds) {
        e->val = tt_ref_bf16_value(
            pack_fp32_to_bf16(tt_ref_fp32_round(acc->d)));
        e->bound += tt_ref_ulp(fabs(acc->d) + acc->err, BF16_MANT);
    }
}

/*
 * ELWADD / ELWSUB (ELWADD.md, ELWSUB.md): Dst = A +- B, one rounding.
 * Besides the Dst rounding, the smaller operand may be aligned to the
 * larger one's grid with a few guard bits before the add; allow 2^-10 of
 * the larger magnitude for that (ttsim keeps 11 significant bits).
 * ELWMUL (ELWMUL.md): Dst += slice_a(A) * slice_b(B) for each phase,
 * starting from a zeroed Dst; the products are exact.
 */
void tt_ref_eltwise(const TTRefPipe *pp, int op, const uint16_t *a,
                    const uint16_t *b, int ntiles, TTRefExpect *out)
{
    for (int i = 0; i < ntiles * TT_REF_TILE; i++) {
        Acc acc = { 0, 0 };

        if (op == 2) {
            for (int p = 0; p < nphases(pp); p++) {
                acc_add(&acc, slice_a(a[i], p) * slice_b(b[i], p),
                        pp->dst_fp32);
            }
        } else {
            double x = fpu_bf16(a[i]);
            double y = op ? -fpu_bf16(b[i]) : fpu_bf16(b[i]);

            acc.err = ldexp(fmax(fabs(x), fabs(y)), -10);
            acc_add(&acc, x + y, pp->dst_fp32);
        }
        pack_approx(pp, &acc, &out[i]);
    }
}

/*
 * The operands of a matmul, decoded once: for each of 32 rows of A (or
 * columns of B) over the whole K, the slice each phase multiplies and the
 * whole value, at [(row * (phases + 1) + phase) * K + k] (phase = phases:
 * the value).
 */
static double *decode_operand(const uint16_t *tiles, int kt, int stride,
                              int np, bool is_b, double *out)
{
    int kd = 32 * kt;

    for (int r = 0; r < 32; r++) {
        for (int k = 0; k < kd; k++) {
            const uint16_t *t = tiles + (size_t)(k / 32) * stride * TT_REF_TILE;
            uint16_t h = is_b ? t[tt_ref_tile_pos(k % 32, r)]
                              : t[tt_ref_tile_pos(r, k % 32)];
            double *o = out + (size_t)r * (np + 1) * kd + k;

            for (int p = 0; p < np; p++) {
                o[(size_t)p * kd] = is_b ? slice_a(h, p) : slice_b(h, p);
            }
            o[(size_t)np * kd] = fpu_bf16(h);
        }
    }
    return out;
}

/*
 * The matmul runs four output columns at once, each lane doing the scalar
 * path's operations (acc_dot_sliced(), acc_add(), tt_ref_ulp()) in the
 * scalar path's order, so the results are the same bit for bit (GCC's
 * vector extensions).
 */
#define LANES 4
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* four doubles are one AVX2 register, two SSE2 ones elsewhere */
#define TT_REF_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TT_REF_VECTOR_CLONES
#endif
typedef double VD __attribute__((vector_size(8 * LANES)));
typedef int64_t VI __attribute__((vector_size(8 * LANES)));
typedef float VF __attribute__((vector_size(4 * LANES)));
typedef int32_t VI32 __attribute__((vector_size(4 * LANES)));
typedef uint32_t VU32 __attribute__((vector_size(4 * LANES)));

/* m ? a : b, |x| and max_num() per lane (macros: no vector arguments) */
#define VSEL(m, a, b)   ((VD)(((VI)(a) & (m)) | ((VI)(b) & ~(m))))
#define VABS(x)         ((VD)((VI)(x) & INT64_MAX))
#define VMAX_NUM(a, b)  VSEL(((a) >= (b)) | ((b) != (b)), a, b)

/* acc_add() per lane; *@d and *@err are the lanes' Acc fields */
static inline __attribute__((always_inline))
void vacc_add(VD *d, VD *err, const VD *sp, bool dst32)
{
    const VD tiny = (VD){ 0 } + FLT_MIN;
    const int mant = dst32 ? FP32_MANT : BF16_MANT;
    VD s = *sp, t = *d + s, r, big, ulp;
    VF f = __builtin_convertvector(t, VF);  /* nearest, ties to even */
    VI flush, inexact;
    int64_t any = 0;

    /* tt_ref_fp32_round(): below the normal range it is +0 */
    r = __builtin_convertvector(f, VD);
    flush = VABS(r) < tiny;
    r = VSEL(flush, (VD){ 0 }, r);
    if (!dst32) {                           /* bf16_even() */
        VU32 u = (VU32)f & ~(VU32)__builtin_convertvector(flush, VI32);

        u += 0x7fff + ((u >> 16) & 1);
        r = __builtin_convertvector((VF)(u >> 16 << 16), VD);
    }
    big = VABS(*d);
    big = VMAX_NUM(big, VABS(s));
    big = VMAX_NUM(big, VABS(r));
    inexact = (r != t) | (*err > 0);
    for (int j = 0; j < LANES; j++) {
        any |= inexact[j];
    }
    if (any) {
        /* tt_ref_ulp(): a normal double's unit, from its exponent */
        big = VSEL(big >= tiny, big, tiny);
        ulp = (VD)((((VI)big >> 52) - mant) << 52);
        for (int j = 0; j < LANES; j++) {
            if (isinf(big[j])) {
                ulp[j] = tt_ref_ulp(big[j], mant);
            }
        }
        *err += VSEL(inexact, ulp, (VD){ 0 });
    }
    *d = r;
}

/*
 * One k tile into four columns' accumulators: per phase, both 16-wide
 * halves, as acc_dot_sliced() does them (the groups' largest products are
 * the same in every phase, so they are found once).  @ar: a row of A as
 * decode_operand() lays it out; @bv: four columns of B, the same layout
 * with the columns innermost.
 */
static TT_REF_VECTOR_CLONES
void matmul_ktile4(VD *d, VD *err, const double *ar, const VD *bv, int kd,
                   int np, bool dst32)
{
    const double *va = ar + np * kd;
    const VD *vb = bv + np * kd;
    VD gmax[4] = { 0 };

    for (int k = 0; k < 32; k++) {
        VD p = VABS(va[k] * vb[k]);

        gmax[k / 8] = VSEL(p > gmax[k / 8], p, gmax[k / 8]);
    }
    for (int p = 0; p < np; p++) {
        const double *sa = ar + p * kd;
        const VD *sb = bv + p * kd;
        double f = p ? 1.0 / 8192 : 1.0 / 256;

        for (int h = 0; h < 32; h += 16) {
            VD s = { 0 };

            for (int k = h; k < h + 16; k++) {
                s += sa[k] * sb[k];
            }
            *err += gmax[h / 8] * f;
            *err += gmax[h / 8 + 1] * f;
            vacc_add(d, err, &s, dst32);
        }
    }
}

/*
 * Matmul as tt-llk sequences it (llk_math_matmul.h): in0 (A) in SrcB,
 * in1 (B) in SrcA; for each k tile and each fidelity phase every output
 * row gets two MVMULs, one per 16-wide half of k.  Dst accumulates
 * across k tiles.
 */
void tt_ref_matmul(const TTRefPipe *pp, const uint16_t *a, const uint16_t *b,
                   int mt, int kt, int nt, TTRefExpect *out)
{
    int np = nphases(pp), kd = 32 * kt;
    size_t row = (size_t)(np + 1) * kd;
    double *ra = malloc(32 * row * sizeof(double));
    double *cb = malloc(32 * row * sizeof(double));
    VD *cv = aligned_alloc(sizeof(VD), 32 * row * sizeof(double));

    if (!ra || !cb || !cv) {
        fprintf(stderr, "tt_ref_matmul: out of memory\n");
        abort();
    }
    for (int m = 0; m < mt; m++) {
        decode_operand(a + (size_t)m * kt * TT_REF_TILE, kt, 1, np, false,
                       ra);
        for (int n = 0; n < nt; n++) {
            TTRefExpect *o = out + ((size_t)m * nt + n) * TT_REF_TILE;

            decode_operand(b + (size_t)n * TT_REF_TILE, kt, nt, np, true, cb);
            for (int c = 0; c < 32; c++) {      /* columns innermost */
                for (size_t i = 0; i < row; i++) {
                    cv[c / LANES * row + i][c % LANES] = cb[c * row + i];
                }
            }
            for (int r = 0; r < 32; r++) {
                for (int c = 0; c < 32; c += LANES) {
                    const double *ar = ra + r * row;
                    const VD *bv = cv + c / LANES * row;
                    VD d = { 0 }, err = { 0 };

                    for (int k = 0; k < kd; k += 32) {
                        matmul_ktile4(&d, &err, ar + k, bv + k, kd, np,
                                      pp->dst_fp32);
                    }
                    for (int j = 0; j < LANES; j++) {
                        Acc acc = { d[j], err[j] };

                        pack_approx(pp, &acc, &o[tt_ref_tile_pos(r, c + j)]);
                    }
                }
            }
        }
    }
    free(ra);
    free(cb);
    free(cv);
}

/* Sign-magnitude order of the GMPOOL comparison on finite BF16 values */
static double max_value(double x, double y)
{
    return x > y ? x : y;
}

/*
 * Reduce (tt-llk llk_math_reduce.h).  Column reduce: GAPOOL/GMPOOL of
 * each face into its Dst row 0, faces 2/3 on top of faces 0/1.  Row
 * reduce: the unpacker transposes each face, so the same column operation
 * yields row results; these are moved from the Dst row into SrcB
 * (MOVD2B.md: from a 32-bit Dst truncated to BF16), transposed there and
 * written back as a column by an ELWADD with a zeroed SrcA (exact).
 * GAPOOL is MVMUL on 4 rows (GAPOOL.md) with the scaler row in SrcB;
 * GMPOOL (GMPOOL.md) takes the column maximum with Dst, whose invalid
 * rows read as minus infinity, and needs the scaler to be 1.0.
 */
void tt_ref_reduce(const TTRefPipe *pp, bool col, bool max,
                   const uint16_t *a, const uint16_t *scaler, int ntiles,
                   TTRefExpect *out)
{
    for (int t = 0; t < ntiles; t++) {
        const uint16_t *at = a + t * TT_REF_TILE;
        TTRefExpect *o = out + t * TT_REF_TILE;

        for (int i = 0; i < TT_REF_TILE; i++) {
            set_exact(pp, 0, &o[i]);        /* masked by the packer */
        }
        for (int j = 0; j < 32; j++) {
            Acc acc = { 0, 0 };
            double m = -INFINITY;
            int pos = col ? tt_ref_tile_pos(0, j) : tt_ref_tile_pos(j, 0);

            for (int half = 0; half < 2; half++) {
                uint16_t srca[16], srcb[16];

                for (int k = 0; k < 16; k++) {
                    int kk = 16 * half + k;
                    int face = col ? (kk / 16) * 2 + j / 16
                                   : (j / 16) * 2 + kk / 16;

                    srca[k] = col ? at[tt_ref_tile_pos(kk, j)]
                                  : at[tt_ref_tile_pos(j, kk)];
                    srcb[k] = scaler[face * 256 + k];
                    m = max_value(m, fpu_bf16(srca[k]));
                }
                for (int p = 0; p < (max ? 0 : nphases(pp)); p++) {
                    acc_dot(&acc, srcb, srca, 16, p, pp->dst_fp32);
                }
            }
            if (max) {
                /* exact: a BF16 value, in either Dst width */
                if (pp->dst_fp32) {
                    pack_dst32(pp, tt_ref_fp32_bits((float)m), &o[pos]);
                } else {
                    pack_dst16(pp, tt_ref_fp32_bits((float)m) >> 16,
                               &o[pos]);
                }
                continue;
            }
            if (!col && pp->dst_fp32) {
                /* MOVD2B truncates to BF16: up to one BF16 unit lower */
                acc.err += tt_ref_ulp(fabs(acc.d) + acc.err, BF16_MANT);
            }
            pack_approx(pp, &acc, &o[pos]);
        }
    }
}

/* ================================================== vector unit === */

/*
 * Eltwise unary SFPU operations (firmware/tensix sfpu.c): each datum goes
 * through datacopy into Dst, the Vector Unit loads it as FP32 (SFPLOAD
 * with the implied format: BF16 from a 16-bit Dst, FP32 from a 32-bit
 * one), computes, stores it back (SFPSTORE: BF16 by truncation,
 * FP32 as it is; both flush denormals to zero, keeping the sign) and the
 * packer converts as for every other operation (SFPLOAD.md, SFPSTORE.md,
 * VectorUnit.md of BlackholeA0/TensixTile/TensixCoprocessor).
 *
 * Results that are data moves or integer arithmetic (the ReLU family,
 * the typecasts, the bitonic sort step) are exact.  The others are
 * checked against the mathematical function evaluated in double
 * precision: the algorithm tt-llk uses (tt_llk_blackhole/common/inc/
 * sfpu/ckernel_sfpu_*.h) bounds how far the FP32 value in the LReg can
 * be from it, [lo, hi] below; SFPSTORE and the packer are monotonic, so
 * the output must lie between what they make of lo and of hi.  The
 * arithmetic instructions round to nearest even (SFPMAD.md), so each
 * FP32 multiply-add adds at most half a unit of its result's last place.
 */

#define TWO_M24             (1.0 / 16777216)

/*
 * The FP32 word the SFPU loads for input @h; *@signless: a zero ELWADD
 * left with either sign (32-bit Dst, see datacopy_one())
 */
static uint32_t sfpu_input(const TTRefPipe *pp, uint16_t h, bool *signless)
{
    int exp = (h >> 7) & 0xff;

    *signless = false;
    if (exp == 0) {
        *signless = pp->dst_fp32;
        return 0;
    }
    if (exp == 0xff && pp->dst_fp32) {
        return (uint32_t)(h & 0x8000) << 16 | 0x7f800000;
    }
    return (uint32_t)h << 16;
}

/*
 * SFPSTOCHRND FP32 -> BF16 to nearest (SFPSTOCHRND_FloatFloat.md): the
 * rounding constant is compared with >=, so ties go away from zero;
 * exponent 0 gives +0, exponent 255 loses its mantissa
 */
static uint32_t stochrnd_bf16(uint32_t v)
{
    int exp = (v >> 23) & 0xff;

    if (exp == 0) {
        return 0;
    }
    if (exp == 0xff) {
        return v & 0xff800000;
    }
    return ((v & 0xffff) >= 0x8000 ? v + 0x10000 : v) & 0xffff0000;
}

/* LReg word @v through SFPSTORE (rounded to BF16 first: @round16) */
static void sfpu_store_exact(const TTRefPipe *pp, uint32_t v, bool round16,
                             TTRefExpect *e)
{
    if (((v >> 23) & 0xff) == 0) {
        v &= 0x80000000;                    /* denormals flushed */
    }
    if (pp->dst_fp32) {
        pack_dst32(pp, v, e);
        return;
    }
    if (round16) {
        v = stochrnd_bf16(v);
    }
    pack_dst16(pp, v >> 16, e);
}

/*
 * The LReg holds an FP32 value in [@lo, @hi]: the output lies between
 * the outputs of the two ends (exact when they agree)
 */
static void sfpu_store_range(const TTRefPipe *pp, double lo, double hi,
                             bool round16, TTRefExpect *e)
{
    TTRefExpect a, b;

    sfpu_store_exact(pp, tt_ref_fp32_round(lo), round16, &a);
    sfpu_store_exact(pp, tt_ref_fp32_round(hi), round16, &b);
    if (a.bits == b.bits) {
        *e = a;
        return;
    }
    e->exact = false;
    e->val = (a.val + b.val) / 2;
    e->bound = (b.val - a.val) / 2 * (1 + ldexp(1, -40));
}

static void sfpu_store_bound(const TTRefPipe *pp, double f, double b,
                             bool round16, TTRefExpect *e)
{
    sfpu_store_range(pp, f - b, f + b, round16, e);
}

/*
 * exp, approximate (_calculate_exponential_ with APPROXIMATION_MODE,
 * FAST_APPROX and CLAMP_NEGATIVE; Schraudolph's method): x is clamped
 * at -88.5, t = A x + (B - C) with A = 256/ln2 in FP32 and B - C =
 * 32500.818359375 = 127 * 256 - 11.181640625, u = round(t) (16-bit
 * integer), and the result's bits are u << 15: 2^(u/256 - 127)
 * with the fraction bits of u/256 taken as a linear mantissa.  In log2
 * units the result is e^x times 2^d with d = (log2(1 + m) - m) - c0 + r:
 * log2(1 + m) - m lies in [0, log2(1/ln2) - 1/ln2 + 1] (0.0861),
 * c0 = 11.181640625/256, and rounding t (half a unit, plus half an FP32
 * unit of t < 2^16) and A (2^-24 relative) give |r| <= (0.5 + 2^-9)/256
 * + |x| log2(e) 2^-23.  So the value is within about -3.1% / +3.1% of
 * e^x (for -87 < x < 88, where u has a normal exponent).
 */
static void ref_exp_fast(const TTRefPipe *pp, uint32_t v, TTRefExpect *e)
{
    double x = fmax(tt_ref_fp32_value(v), -88.5), f = exp(x);
    double c0 = (127 * 256 - 32500.818359375) / 256;
    double dmax = log2(1 / M_LN2) - (1 / M_LN2 - 1);
    double r = (0.5 + ldexp(1, -9)) / 256 + fabs(x) * M_LOG2E * 2 * TWO_M24;

    sfpu_store_range(pp, f * exp2(-c0 - r), f * exp2(dmax - c0 + r), false,
                     e);
}

/*
 * exp, precise (_calculate_exponential_piecewise_<false>, _sfpu_exp_):
 * y = |x| with its exponent set to -1 if |x| >= 1, so |x| = y 2^k (k = 0
 * if |x| < 1, else exexp(|x|) + 1 and y in [0.5, 1)); p(y) = y (0.8373 y
 * + 0.859375) + 1 (LReg8 and the truncated BF16 of 0.863281) stands for
 * e^y, and k squarings give p(y)^(2^k) for e^|x|.  So ln(result / e^|x|)
 * = 2^k ln(p(y) / e^y), whose range over y's interval is computed here
 * once (about -0.8% .. -0.5% on [0.5, 1), times 2^k), plus the roundings:
 * two in p, one per squaring, each doubled by every later squaring, less
 * than 3 2^k FP32 half-units in all.  For x < 0 the result is the
 * reciprocal (_sfpu_reciprocal_<2>: SFPARECIP's 7 bits, two Newton steps:
 * error squared twice, i.e. below 2^-27, plus 4 roundings).
 */
static double p_exp_poly(double y)
{
    return y * (tt_ref_fp32_value(0x3f56594b) * y + 0.859375) + 1;
}

static void exp_poly_range(int k, double *dmin, double *dmax)
{
    static double lo[2], hi[2];
    static bool done;

    if (!done) {
        for (int j = 0; j < 2; j++) {
            lo[j] = INFINITY;
            hi[j] = -INFINITY;
            for (int i = 0; i <= 1 << 16; i++) {
                double y = j ? 0.5 + 0.5 * i / 65536.0 : i / 65536.0;
                double d = log(p_exp_poly(y)) - y;

                lo[j] = fmin(lo[j], d);
                hi[j] = fmax(hi[j], d);
            }
        }
        done = true;
    }
    *dmin = lo[k > 0];
    *dmax = hi[k > 0];
}

static void ref_exp_precise(const TTRefPipe *pp, uint32_t v, TTRefExpect *e)
{
    double x = tt_ref_fp32_value(v), dmin, dmax, s, r;
    int k = 0;

    if (fabs(x) >= 1) {
        frexp(x, &k);                       /* |x| = m 2^k, m in [0.5, 1) */
    }
    exp_poly_range(k, &dmin, &dmax);
    s = ldexp(1.0, k);
    r = 3 * s * TWO_M24 + (x < 0 ? ldexp(1, -27) + 4 * TWO_M24 : 0);
    if (x < 0) {
        /* 1 / (e^|x| e^d) = e^x e^-d */
        double t = dmin;

        dmin = -dmax;
        dmax = -t;
    }
    sfpu_store_range(pp, exp(x) * exp(s * dmin - r), exp(x) * exp(s * dmax + r),
                     false, e);
}

/*
 * Reciprocal.  16-bit Dst (_calculate_reciprocal_fast_8b_3c_): SFPARECIP
 * (SFPARECIP.md) gives 7 mantissa bits from a 128-entry table of 1/x at
 * the middle of each input interval, rounded: for the BF16 inputs here at
 * most 1.5 units of its last place from 1/x; the kernel adds one unit
 * where x (r + half a unit) < 1, i.e. where 1/x lies above the midpoint,
 * and the BF16 store truncates: the result is within one BF16 unit of
 * 1/x.  Zero gives SFPARECIP's +Inf, which the kernel keeps; Inf and NaN
 * give 0 (SFPARECIP.md), stored as a zero the packer makes +0.
 * FP32 Dst (_calculate_reciprocal_fast_24b_5c_): y = SFPARECIP(x) (relative
 * error e0 <= 1.5 2^-7), e = 1 - x y, y (1 + e + e^2 + e^3) = (1 - e^4) / x,
 * plus 4 roundings: within |1/x| (e0^4 + 3 2^-24).
 */
static void ref_recip(const TTRefPipe *pp, uint32_t v, TTRefExpect *e)
{
    double x = tt_ref_fp32_value(v), f = 1 / x;
    int exp = (v >> 23) & 0xff;

    if (!pp->dst_fp32) {
        if (exp == 0 || exp == 0xff) {
            sfpu_store_exact(pp, exp ? 0 : 0x7f800000, false, e);
            return;
        }
        sfpu_store_bound(pp, f, tt_ref_ulp(f, BF16_MANT), false, e);
        return;
    }
    sfpu_store_bound(pp, f, fabs(f) * (pow(1.5 / 128, 4) + 3 * TWO_M24),
                     false, e);
}

/*
 * sqrt (_calculate_sqrt_body_<false>, SQRT_23-bits of Kokosinski, Gepner,
 * Moroz et al., Numerical Algorithms 2024): the magic-constant estimate,
 * one polynomial refinement and a final Newton-like correction leave
 * about one FP32 unit of error; with 7 roundings allow 2 units (4 2^-24
 * relative).  A 16-bit Dst gets it rounded to BF16 (SFPSTOCHRND).
 */
static void ref_sqrt(const TTRefPipe *pp, uint32_t v, TTRefExpect *e)
{
    double f = sqrt(tt_ref_fp32_value(v));

    sfpu_store_bound(pp, f, f * 4 * TWO_M24, !pp->dst_fp32, e);
}

/*
 * SFPLUTFP32's six-entry FP16 tables (SFPLUTFP32.md): slopes in the low
 * and high halves of LReg0-2, intercepts in LReg4-6, segments [0, 0.5),
 * [0.5, 1), [1, 1.5), [1.5, 2), [2, @cut), [@cut, inf) of |x|; FP16 is
 * read as Lut16ToFp32 does (exponent 31 is zero).
 */
static double lut16(uint16_t h)
{
    int exp = (h >> 10) & 0x1f;
    double m = exp == 0x1f ? 0 : ldexp(1 + (h & 0x3ff) / 1024.0, exp - 15);

    return h & 0x8000 ? -m : m;
}

typedef struct Lut6 {
    uint32_t a[3], c[3];        /* LReg0-2, LReg4-6 */
    double cut;
    double err[6];              /* largest |table - g| per segment */
} Lut6;

static int lut6_segment(const Lut6 *t, double b)
{
    return b < 0.5 ? 0 : b < 1 ? 1 : b < 1.5 ? 2 : b < 2 ? 3 :
           b < t->cut ? 4 : 5;
}

static double lut6_eval(const Lut6 *t, int s, double b, bool abs_value)
{
    double d = lut16(t->a[s / 2] >> (s & 1 ? 16 : 0)) * b +
               lut16(t->c[s / 2] >> (s & 1 ? 16 : 0));

    return abs_value ? fabs(d) : d;
}

/*
 * Largest difference between the table and @g on each segment, sampled
 * 4096 times per segment (the last one up to 64, beyond which neither
 * table nor g has any curvature left)
 */
static void lut6_errors(Lut6 *t, double (*g)(double), bool abs_value)
{
    static const double edge[7] = { 0, 0.5, 1, 1.5, 2, 0, 64 };

    for (int s = 0; s < 6; s++) {
        double lo = s == 5 ? t->cut : edge[s];
        double hi = s == 4 ? t->cut : edge[s + 1];

        t->err[s] = 0;
        for (int i = 0; i <= 4096; i++) {
            double b = lo + (hi - lo) * i / 4096;

            t->err[s] = fmax(t->err[s],
                             fabs(lut6_eval(t, s, b, abs_value) - g(b)));
        }
    }
}

/* gelu(x) - x/2 = x/2 erf(x / sqrt2), even in x */
static double gelu_rest(double b)
{
    return 0.5 * b * erf(b / M_SQRT2);
}

/* sigmoid(x) - 1/2, odd in x */
static double sigmoid_rest(double b)
{
    return 1 / (1 + exp(-b)) - 0.5;
}

/*
 * gelu, approximate (_calculate_gelu_appx_, _init_gelu_'s table, Mod1 2:
 * no sign copy): x/2 + table(|x|) for x/2 + gelu_rest(|x|); the bound is
 * the table's error on |x|'s segment plus three roundings.
 */
static void ref_gelu(const TTRefPipe *pp, uint32_t v, TTRefExpect *e)
{
    static Lut6 t = {
        { 0x37e7322b, 0x38e138f3, 0x38003852 },
        { 0xb12286d8, 0xb437b479, 0x7c00afa4 }, 3.0, { 0 },
    };
    static bool done;
    double x = tt_ref_fp32_value(v), b = fabs(x);
    double f = 0.5 * x + gelu_rest(b);

    if (!done) {
        lut6_errors(&t, gelu_rest, false);
        done = true;
    }
    sfpu_store_bound(pp, f, t.err[lut6_segment(&t, b)] * 1.01 +
                     3 * TWO_M24 * (b + fabs(f)) + ldexp(1, -60), false, e);
}

/*
 * sigmoid (_calculate_sigmoid_, _init_sigmoid_'s table, Mod1 7: table 2
 * with x's sign copied): 1/2 + sign(x) |table(|x|)| for 1/2 +
 * sign(x) sigmoid_rest(|x|).
 */
static void ref_sigmoid(const TTRefPipe *pp, uint32_t v, TTRefExpect *e)
{
    static Lut6 t = {
        { 0x32f433d9, 0x300a318a, 0x7c002a35 },
        { 0x23c89018, 0x30272baa, 0x37ff34cc }, 4.0, { 0 },
    };
    static bool done;
    double x = tt_ref_fp32_value(v), b = fabs(x);

    if (!done) {
        lut6_errors(&t, sigmoid_rest, true);
        done = true;
    }
    sfpu_store_bound(pp, 1 / (1 + exp(-x)),
                     t.err[lut6_segment(&t, b)] * 1.01 + 2 * TWO_M24, false,
                     e);
}

/* Sign-magnitude order of SFPSWAP (SFPSWAP.md), as an integer key */
static int32_t sm_key(uint32_t v)
{
    return (int32_t)v < 0 ? (int32_t)(v ^ 0x7fffffff) : (int32_t)v;
}

static bool is_nan32(uint32_t v)
{
    return (v & 0x7fffffff) > 0x7f800000;
}

/*
 * ReLU family (ckernel_sfpu_relu.h), exact.  relu_min: lanes where x <
 * threshold store the threshold, the others keep Dst; the compare is the
 * sign of x - threshold (NaN: false; x == threshold: +0 for a positive
 * threshold, and -0 < +0 counts as below).  relu_max: min(x, threshold)
 * (x - threshold > 0; NaN counts as above, no data here has one), then
 * negative values and -0 become +0.  Leaky relu: lanes with the sign bit
 * set get x * slope + 0 (one rounding, NaN canonical; a product that
 * underflows counts as exactly 0, so -0 and tiny x give +0: SFPMAD.md and
 * the bit-exact fma_model_bh of Miscellaneous/FMA).
 */
static void ref_relu(const TTRefPipe *pp, int op, uint32_t arg, uint32_t v,
                     bool signless, uint16_t h, TTRefExpect *e)
{
    float thr = tt_ref_fp32_value(arg), x = tt_ref_fp32_value(v);

    switch (op) {
    case TT_REF_SFPU_RELU_MIN:
        if (v << 1 == 0 && arg << 1 == 0) {
            /* -0 - +0 = -0 counts as below: the stored +0 */
            sfpu_store_exact(pp, signless || v ? arg : v, false, e);
        } else if (!is_nan32(v) && x < thr) {
            sfpu_store_exact(pp, arg, false, e);
        } else if (signless) {
            set_zero(pp, e);
        } else {
            datacopy_one(pp, h, e);         /* Dst as datacopy left it */
        }
        return;
    case TT_REF_SFPU_RELU_MAX:
        if (x > thr) {
            v = arg;
        }
        sfpu_store_exact(pp, (int32_t)v < 0 ? 0 : v, false, e);
        return;
    default:
        if ((int32_t)v < 0) {
            float p = x * (float)tt_ref_fp32_value(arg);

            /* a product below FP32's normal range counts as exactly 0 */
            v = is_nan32(v) ? 0x7fc00000 :
                fabsf(p) < ldexp(1, FP32_MIN_EXP) ? 0 : tt_ref_fp32_bits(p);
        }
        if (signless) {
            v = 0;
        }
        sfpu_store_exact(pp, v, false, e);
        return;
    }
}

/*
 * fp32 -> int32 (_calculate_typecast_fp32_to_int32_), exact: truncation
 * toward zero, INT_MIN for |x| >= 2^31 and for Inf and NaN, negative
 * results in two's complement (the kernel negates with SFPIADD).
 */
static uint32_t fp32_to_int32(uint32_t v)
{
    int e = (int)((v >> 23) & 0xff) - 127;
    uint32_t m = (v & 0x7fffff) | 0x800000;

    if (e < 0) {
        return 0;
    }
    if (e >= 31) {
        return 0x80000000;
    }
    m = e >= 23 ? m << (e - 23) : m >> (23 - e);
    return (int32_t)v < 0 ? -m : m;
}

/*
 * int32 -> fp32 (_calculate_typecast_int32_to_fp32_): the two's
 * complement value, rounded to nearest even (SFPCAST), INT_MIN -> -2^31,
 * 0 -> +0.
 */
static uint32_t int32_to_fp32(uint32_t i)
{
    return i ? tt_ref_fp32_bits((float)(int32_t)i) : 0;
}

/*
 * Bitonic sort (ckernel_sfpu_topk.h, phases 0 and 1 of
 * _bitonic_topk_phases_steps), exact: per column of each 16-row group of
 * the value tiles, compare-and-swap of rows as SFPSWAP does it after
 * SFPTRANSP (LReg i holds rows i, 4 + i, 8 + i, 12 + i): "VD gets the
 * minimum" lanes swap when key(VC) < key(VD), "VD gets the maximum" lanes
 * when key(VC) >= key(VD); the index tiles (Dst + 128 rows) follow.
 * Phase 0: (VC, VD) = (row 0, row 1) and (3, 2) of each 4-row group, VD
 * gets the minimum.  Phase 1 (ROWS_02_MAX): (0, 2), (1, 3), (0, 1),
 * (2, 3), VD gets the minimum in groups 0 and 2, the maximum in 1 and 3.
 */
static void topk_swap(uint32_t *val, int *pos, int vc, int vd, bool min)
{
    bool swap = min ? sm_key(val[vc]) < sm_key(val[vd])
                    : sm_key(val[vc]) >= sm_key(val[vd]);

    if (swap) {
        uint32_t t = val[vc];
        int p = pos[vc];

        val[vc] = val[vd];
        val[vd] = t;
        pos[vc] = pos[vd];
        pos[vd] = p;
    }
}

static void ref_topk(const TTRefPipe *pp, uint32_t last, const uint16_t *a,
                     TTRefExpect *out)
{
    for (int row0 = 0; row0 < 128; row0 += 16) {
        for (int c = 0; c < 16; c++) {
            uint32_t val[16];
            int pos[16];
            bool signless;

            for (int r = 0; r < 16; r++) {
                int row = row0 + r;

                pos[r] = (row / 16) * 256 + r * 16 + c;   /* L1 order */
                val[r] = sfpu_input(pp, a[pos[r]], &signless);
            }
            for (int g = 0; g < 16; g += 4) {
                topk_swap(val, pos, g, g + 1, true);
                topk_swap(val, pos, g + 3, g + 2, true);
                if (last >= 1) {
                    bool min = !(g & 4);

                    topk_swap(val, pos, g, g + 2, min);
                    topk_swap(val, pos, g + 1, g + 3, min);
                    topk_swap(val, pos, g, g + 1, min);
                    topk_swap(val, pos, g + 2, g + 3, min);
                }
            }
            for (int r = 0; r < 16; r++) {
                int dst = ((row0 + r) / 16) * 256 + r * 16 + c;

                datacopy_one(pp, a[pos[r]], &out[dst]);
                datacopy_one(pp, a[2048 + pos[r]], &out[2048 + dst]);
            }
        }
    }
}

void tt_ref_sfpu(const TTRefPipe *pp, int op, uint32_t arg,
                 const uint16_t *a, int ntiles, TTRefExpect *out)
{
    if (op == TT_REF_SFPU_TOPK) {
        ref_topk(pp, arg, a, out);
        return;
    }
    for (int i = 0; i < ntiles * TT_REF_TILE; i++) {
        bool signless;
        uint32_t v = sfpu_input(pp, a[i], &signless);
        TTRefExpect *e = &out[i];

        switch (op) {
        case TT_REF_SFPU_EXP:
            ref_exp_fast(pp, v, e);
            break;
        case TT_REF_SFPU_EXP_PRECISE:
            ref_exp_precise(pp, v, e);
            break;
        case TT_REF_SFPU_RECIP:
            ref_recip(pp, v, e);
            break;
        case TT_REF_SFPU_SQRT:
            ref_sqrt(pp, v, e);
            break;
        case TT_REF_SFPU_GELU:
            ref_gelu(pp, v, e);
            break;
        case TT_REF_SFPU_SIGMOID:
            ref_sigmoid(pp, v, e);
            break;
        case TT_REF_SFPU_FP32_TO_INT32:
            set_exact(pp, fp32_to_int32(v), e);
            break;
        case TT_REF_SFPU_FP32_TO_SM32: {
            uint32_t n = fp32_to_int32(v);

            set_exact(pp, (int32_t)n < 0 ? 0x80000000 | -n : n, e);
            break;
        }
        case TT_REF_SFPU_INT32_ROUNDTRIP:
            sfpu_store_exact(pp, int32_to_fp32(fp32_to_int32(v)), false, e);
            break;
        default:
            ref_relu(pp, op, arg, v, signless, a[i], e);
            break;
        }
    }
}

/* ================================================ integer math === */

/* A sign-magnitude Int8 byte */
static int int8_value(uint16_t x)
{
    return x & 0x80 ? -(x & 0x7f) : (x & 0x7f);
}

/*
 * The magnitude bits phase @phase of an integer multiplication reads
 * (SrcASrcB.md "Fidelity phases (integer)"): SrcA's bits 7..5 (phase bit 0
 * clear) or 4..0, SrcB's bits 9..4 (phase bit 1 clear) or 3..0, each in
 * place
 */
static int int8_slice(int v, bool srca, int phase)
{
    int mag = abs(v);

    if (srca) {
        mag &= phase & 1 ? 0x1f : 0xe0;
    } else {
        mag &= phase & 2 ? 0x0f : 0x3f0;
    }
    return v < 0 ? -mag : mag;
}

void tt_ref_int(const TTRefPipe *pp, int op, const uint16_t *a,
                const uint16_t *b, int ntiles, TTRefExpect *out)
{
    int phases = pp->fidelity ? pp->fidelity : 1;

    for (int i = 0; i < ntiles * TT_REF_TILE; i++) {
        int x = int8_value(a[i]), y = op < 0 ? 0 : int8_value(b[i]);
        int64_t r = 0;
        uint32_t bits;

        switch (op) {
        case 2:             /* ELWMUL adds each phase's product to Dst */
            for (int p = 0; p < phases; p++) {
                r += (int64_t)int8_slice(x, true, p) * int8_slice(y, false, p);
            }
            break;
        case 1:
            r = x - y;
            break;
        default:
            r = x + y;
            break;
        }
        /* Dst saturates at +-(2^31 - 1); a zero is +0 */
        r = r > INT32_MAX ? INT32_MAX : r < -INT32_MAX ? -INT32_MAX : r;
        if (pp->pack_src == TT_REF_INT8) {
            /* shift by 0, round, saturate to -127..127 */
            bits = (r < 0 ? 0x80 : 0) | (uint32_t)(llabs(r) > 127 ? 127
                                                   : llabs(r));
            bits = r ? bits : 0;
        } else {
            bits = (r < 0 ? 0x80000000u : 0) | (uint32_t)llabs(r);
        }
        set_exact(pp, bits, &out[i]);
    }
}

/* ======================================================== output === */

size_t tt_ref_encode(const TTRefPipe *pp, const TTRefExpect *exp, int ntiles,
                     uint8_t *l1)
{
    int n = ntiles * TT_REF_TILE;

    switch (pp->out_fmt) {
    case TT_REF_FLOAT32:
    case TT_REF_INT32:
        for (int i = 0; i < n; i++) {
            memcpy(l1 + 4 * i, &exp[i].bits, 4);
        }
        return 4 * n;
    case TT_REF_INT8:
        for (int i = 0; i < n; i++) {
            l1[i] = exp[i].bits;
        }
        return n;
    case TT_REF_BFP8_B:
        for (int t = 0; t < ntiles; t++) {
            uint16_t v[TT_REF_TILE];

            for (int i = 0; i < TT_REF_TILE; i++) {
                v[i] = exp[t * TT_REF_TILE + i].bits;
            }
            tt_ref_bfp8_encode_tile(v, l1 + t * TT_REF_BFP8_TILE);
        }
        return ntiles * TT_REF_BFP8_TILE;
    default:
        for (int i = 0; i < n; i++) {
            uint16_t h = exp[i].bits;

            memcpy(l1 + 2 * i, &h, 2);
        }
        return 2 * n;
    }
}

static void note_bad(TTRefStats *st, int i, uint32_t got, uint32_t want)
{
    if (!st->bad++) {
        st->first_bad = i;
        st->bad_got = got;
        st->bad_want = want;
    }
}

/* |got - want| in units of the last place of the larger of the two */
static void track_ulp(TTRefStats *st, double want, double got, int mant)
{
    double diff = fabs(got - want);

    if (got == want) {
        return;
    }
    if (isnan(diff)) {
        diff = INFINITY;
    }
    diff /= tt_ref_ulp(fmax(fabs(want), fabs(got)), mant);
    if (diff > st->max_ulp) {
        st->max_ulp = diff;
    }
}

static void check_bfp8(const TTRefPipe *pp, const TTRefExpect *exp,
                       int ntiles, const uint8_t *l1, TTRefStats *st)
{
    for (int t = 0; t < ntiles; t++) {
        const uint8_t *tile = l1 + t * TT_REF_BFP8_TILE;
        uint8_t want[TT_REF_BFP8_TILE];
        uint16_t got16[TT_REF_TILE], want16[TT_REF_TILE];

        tt_ref_encode(pp, exp + t * TT_REF_TILE, 1, want);
        tt_ref_bfp8_decode_tile(tile, got16);
        tt_ref_bfp8_decode_tile(want, want16);
        for (int i = 0; i < TT_REF_TILE; i++) {
            /* the exponent byte and the datum byte must both match */
            if (tile[i / 16] != want[i / 16] ||
                tile[64 + i] != want[64 + i]) {
                note_bad(st, t * TT_REF_TILE + i,
                         tile[i / 16] << 8 | tile[64 + i],
                         want[i / 16] << 8 | want[64 + i]);
            }
            track_ulp(st, tt_ref_bf16_value(want16[i]),
                      tt_ref_bf16_value(got16[i]), BF16_MANT);
        }
    }
}

void tt_ref_check(const TTRefPipe *pp, const TTRefExpect *exp, int ntiles,
                  const uint8_t *l1, TTRefStats *st)
{
    int n = ntiles * TT_REF_TILE;

    memset(st, 0, sizeof(*st));
    st->first_bad = -1;
    st->count = n;
    if (pp->out_fmt == TT_REF_BFP8_B) {
        check_bfp8(pp, exp, ntiles, l1, st);
        return;
    }
    for (int i = 0; i < n; i++) {
        const TTRefExpect *e = &exp[i];
        uint32_t got;
        double gv;

        if (pp->out_fmt == TT_REF_INT32) {
            memcpy(&got, l1 + 4 * i, 4);
            gv = (int32_t)got;
        } else if (pp->out_fmt == TT_REF_INT8) {
            got = l1[i];
            gv = int8_value(got);
        } else if (pp->out_fmt == TT_REF_FLOAT32) {
            memcpy(&got, l1 + 4 * i, 4);
            gv = tt_ref_fp32_value(got);
        } else {
            uint16_t h;

            memcpy(&h, l1 + 2 * i, 2);
            got = h;
            gv = tt_ref_bf16_value(h);
        }
        if (e->exact) {
            if (got != e->bits) {
                note_bad(st, i, got, e->bits);
            }
        } else {
            double diff = fabs(gv - e->val);

            if (isnan(gv) || diff > e->bound) {
                uint32_t want = tt_ref_fp32_bits((float)e->val);

                note_bad(st, i, got,
                         pp->out_fmt == TT_REF_FLOAT32 ? want : want >> 16);
            }
            if (e->bound > 0 && diff / e->bound > st->max_ratio) {
                st->max_ratio = diff / e->bound;
            }
        }
        if (pp->out_fmt != TT_REF_INT32 && pp->out_fmt != TT_REF_INT8) {
            track_ulp(st, e->val, gv, out_mant_bits(pp));
        } else if (got != e->bits) {
            st->max_ulp = fmax(st->max_ulp, fabs(gv - e->val));
        }
    }
}
