/*
 * Host reference for the Tensix kernels (see tt-ref.h).  Section names
 * below refer to tenstorrent/tt-isa-documentation, WormholeB0/TensixTile/
 * TensixCoprocessor/ (the BlackholeA0 pages for these units point there).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
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
    int e;

    x = fmax(fabs(x), ldexp(1.0, FP32_MIN_EXP));
    frexp(x, &e);               /* x = m * 2^e, 0.5 <= m < 1 */
    return ldexp(1.0, e - 1 - mant_bits);
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
    double v;

    if (e == 0) {
        return 0.0;
    }
    v = ldexp(1.0 + (f & 0x7fffff) / 0x1p23, e - 127);
    return (f >> 31) ? -v : v;
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
    e->val = pp->out_fmt == TT_REF_FLOAT32 ? tt_ref_fp32_value(bits)
                                           : tt_ref_bf16_value(bits);
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

static void acc_add(Acc *acc, double s, bool dst32)
{
    double r = dst32 ? tt_ref_fp32_value(tt_ref_fp32_round(acc->d + s))
                     : bf16_even(acc->d + s);
    double big = fmax(fmax(fabs(acc->d), fabs(s)), fabs(r));

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

/* One k tile into @acc: per phase, both 16-wide halves */
static void matmul_ktile(Acc *acc, const double *ar, const double *bc,
                         int kd, int np, bool dst32)
{
    for (int p = 0; p < np; p++) {
        for (int h = 0; h < 32; h += 16) {
            acc_dot_sliced(acc, ar + p * kd + h, bc + p * kd + h,
                           ar + np * kd + h, bc + np * kd + h, 16, p, dst32);
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

    if (!ra || !cb) {
        fprintf(stderr, "tt_ref_matmul: out of memory\n");
        abort();
    }
    for (int m = 0; m < mt; m++) {
        decode_operand(a + (size_t)m * kt * TT_REF_TILE, kt, 1, np, false,
                       ra);
        for (int n = 0; n < nt; n++) {
            TTRefExpect *o = out + ((size_t)m * nt + n) * TT_REF_TILE;

            decode_operand(b + (size_t)n * TT_REF_TILE, kt, nt, np, true, cb);
            for (int r = 0; r < 32; r++) {
                for (int c = 0; c < 32; c++) {
                    const double *ar = ra + r * row, *bc = cb + c * row;
                    Acc acc = { 0, 0 };

                    for (int k = 0; k < kd; k += 32) {
                        matmul_ktile(&acc, ar + k, bc + k, kd, np,
                                     pp->dst_fp32);
                    }
                    pack_approx(pp, &acc, &o[tt_ref_tile_pos(r, c)]);
                }
            }
        }
    }
    free(ra);
    free(cb);
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

/* ======================================================== output === */

size_t tt_ref_encode(const TTRefPipe *pp, const TTRefExpect *exp, int ntiles,
                     uint8_t *l1)
{
    int n = ntiles * TT_REF_TILE;

    switch (pp->out_fmt) {
    case TT_REF_FLOAT32:
        for (int i = 0; i < n; i++) {
            memcpy(l1 + 4 * i, &exp[i].bits, 4);
        }
        return 4 * n;
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

        if (pp->out_fmt == TT_REF_FLOAT32) {
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
        track_ulp(st, e->val, gv, out_mant_bits(pp));
    }
}
