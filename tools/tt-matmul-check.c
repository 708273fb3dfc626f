/*
 * Operands and the two checks of tt-matmul-demo (see tt-matmul-check.h).
 * Both split their work over threads; tt-ref's functions keep no state.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tt-host.h"
#include "tt-matmul-check.h"

#define xcalloc(n)  tt_host_xcalloc("tt-matmul-check", n)

#define TILE    TT_REF_TILE
#define MAX_THREADS 16

/* ---------------------------------------------------------- operands -- */

/* xorshift64* */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

void tt_mm_gen(uint16_t *tiles, size_t count, uint64_t seed,
               uint32_t stream)
{
    uint64_t s = (seed + 1) * 0x9e3779b97f4a7c15ull ^ stream;

    for (int i = 0; i < 4 || !s; i++) {
        s = s ? s : 1;
        rng_next(&s);
    }
    for (size_t i = 0; i < count * TILE; i++) {
        double u = ldexp((double)(rng_next(&s) >> 11), -53);

        tiles[i] = tt_ref_bf16_round_even(1.0 / 16 + u * 15 / 16);
    }
}

/* Work item i < @n goes to @fn, on the check's threads */
typedef struct Work {
    TTMMCheck *chk;
    void (*fn)(struct Work *w, uint32_t i);
    uint32_t n;
    atomic_uint next;
    pthread_mutex_t lock;       /* the result fields of chk */
    const double *ad, *bt;      /* FP64: A row-major, B transposed */
} Work;

static void *worker(void *opaque)
{
    Work *w = opaque;
    uint32_t i;

    while ((i = atomic_fetch_add(&w->next, 1)) < w->n) {
        w->fn(w, i);
    }
    return NULL;
}

static void run_parallel(Work *w)
{
    pthread_t th[MAX_THREADS];
    int n = w->chk->threads < 1 ? 1 : w->chk->threads;

    n = n > MAX_THREADS ? MAX_THREADS : n;
    atomic_init(&w->next, 0);
    pthread_mutex_init(&w->lock, NULL);
    for (int i = 1; i < n; i++) {
        if (pthread_create(&th[i], NULL, worker, w)) {
            n = i;
            break;
        }
    }
    worker(w);
    for (int i = 1; i < n; i++) {
        pthread_join(th[i], NULL);
    }
    pthread_mutex_destroy(&w->lock);
}

/* ------------------------------------------------------------ tt-ref -- */

static void ref_tile(Work *w, uint32_t idx)
{
    TTMMCheck *c = w->chk;
    uint32_t t = c->tiles[idx], m = t / c->nt, n = t % c->nt;
    TTRefPipe pp = {
        .dst_fp32 = true, .fidelity = c->fidelity,
        .pack_src = TT_REF_FLOAT16_B, .out_fmt = TT_REF_FLOAT16_B,
    };
    uint16_t *bcol = xcalloc((size_t)c->kt * TILE * 2);
    TTRefExpect *exp = xcalloc(TILE * sizeof(*exp));
    TTRefStats st;
    uint64_t exact = 0;

    for (uint32_t k = 0; k < c->kt; k++) {
        memcpy(bcol + (size_t)k * TILE,
               c->b + ((size_t)k * c->nt + n) * TILE, TILE * 2);
    }
    tt_ref_matmul(&pp, c->a + (size_t)m * c->kt * TILE, bcol, 1, c->kt, 1,
                  exp);
    tt_ref_check(&pp, exp, 1, (const uint8_t *)(c->c + (size_t)t * TILE),
                 &st);
    for (int i = 0; i < TILE; i++) {
        exact += exp[i].exact;
    }
    pthread_mutex_lock(&w->lock);
    c->ref_count += st.count;
    c->ref_exact += exact;
    c->ref_bad += st.bad;
    c->ref_max_ratio = fmax(c->ref_max_ratio, st.max_ratio);
    if (st.bad) {
        int pos = st.first_bad, face = pos / 256;
        uint32_t r = m * 32 + face / 2 * 16 + pos % 256 / 16;
        uint32_t col = n * 32 + face % 2 * 16 + pos % 16;
        int64_t e = (int64_t)r * c->nt * 32 + col;

        if (c->ref_first_bad < 0 || e < c->ref_first_bad) {
            c->ref_first_bad = e;
            c->ref_got = st.bad_got;
            c->ref_want = st.bad_want;
        }
    }
    pthread_mutex_unlock(&w->lock);
    free(exp);
    free(bcol);
}

/* -------------------------------------------------------------- FP64 -- */

/*
 * What the hardware may be away from the exact product sum @s of
 * magnitudes @abs_sum, by the documented arithmetic (the same model as
 * tools/runtime/tt-ref.c, bounded per element rather than per group):
 *  - fidelity: phase 0 multiplies the implicit 1 and top 6 mantissa bits
 *    of A (SrcB) by the implicit 1 and top 4 of B (SrcA) (SrcASrcB.md,
 *    ELWMUL.md); HiFi2 adds A's top bits times the rest of B, HiFi3 the
 *    rest of A times B's top bits, HiFi4 the rest of both.  Dropping the
 *    rest costs less than 2^-6 of |a| and 2^-4 of |b|: per product LoFi
 *    2^-4 + 2^-6, HiFi2 2^-6, HiFi3 2^-10, HiFi4 nothing;
 *  - each group of eight products of a phase is summed to within 2^-8
 *    (phase 0) or 2^-13 (later phases) of its largest product, which is
 *    at most the group's sum of magnitudes;
 *  - each of the 2 x kt x phases FP32 Dst writes rounds by at most 2^-23
 *    of the running magnitude, itself at most @abs_sum;
 *  - the packer's FP32 -> BF16 rounding: one BF16 unit at the result.
 */
static double f64_tol(const TTMMCheck *c, double s, double abs_sum)
{
    static const double eps_fid[5] = {
        1.0 / 16 + 1.0 / 64, 0, 1.0 / 64, 1.0 / 1024, 0,
    };
    int np = c->fidelity ? c->fidelity : 1;
    double t = abs_sum * (eps_fid[c->fidelity] + ldexp(1, -8) +
                          (np - 1) * ldexp(1, -13) +
                          2.0 * c->kt * np * ldexp(1, -23));

    return t + tt_ref_ulp(fabs(s) + t, 7);
}

/* Two doubles (SSE2), at any double's alignment */
typedef double F64x2 __attribute__((vector_size(16), aligned(8)));
typedef int64_t I64x2 __attribute__((vector_size(16), aligned(8)));

/* One row of C against the exact products */
static void f64_row(Work *w, uint32_t row)
{
    TTMMCheck *c = w->chk;
    uint32_t kd = c->kt * 32, ncols = c->nt * 32;
    const double *ar = w->ad + (size_t)row * kd;
    uint64_t bad = 0;
    double max_ulp = 0, max_rel = 0, tol_at_max = 0;
    int64_t first = -1;
    double got0 = 0, want0 = 0, tol0 = 0;

    for (uint32_t j = 0; j < ncols; j++) {
        const double *bc = w->bt + (size_t)j * kd;
        uint32_t t = row / 32 * c->nt + j / 32;
        double got, want, tol, ulp;

        /* four running sums, k mod 4, two to a vector */
        F64x2 s01 = { 0 }, s23 = { 0 }, a01 = { 0 }, a23 = { 0 };

        for (uint32_t k = 0; k < kd; k += 4) {
            F64x2 p01 = *(const F64x2 *)(ar + k) * *(const F64x2 *)(bc + k);
            F64x2 p23 = *(const F64x2 *)(ar + k + 2) *
                        *(const F64x2 *)(bc + k + 2);

            s01 += p01;
            s23 += p23;
            a01 += (F64x2)((I64x2)p01 & INT64_MAX);     /* fabs() */
            a23 += (F64x2)((I64x2)p23 & INT64_MAX);
        }
        want = (s01[0] + s01[1]) + (s23[0] + s23[1]);
        tol = f64_tol(c, want, (a01[0] + a01[1]) + (a23[0] + a23[1]));
        got = tt_ref_bf16_value(c->c[(size_t)t * TILE +
                                     tt_ref_tile_pos(row % 32, j % 32)]);
        ulp = fabs(got - want) / tt_ref_ulp(want, 7);
        if (!(ulp <= max_ulp)) {
            max_ulp = ulp;
            tol_at_max = tol / tt_ref_ulp(want, 7);
        }
        if (want != 0) {
            max_rel = fmax(max_rel, fabs(got - want) / fabs(want));
        }
        if (!(fabs(got - want) <= tol)) {
            if (!bad++) {
                first = (int64_t)row * ncols + j;
                got0 = got;
                want0 = want;
                tol0 = tol;
            }
        }
    }
    pthread_mutex_lock(&w->lock);
    c->f64_count += ncols;
    c->f64_bad += bad;
    if (max_ulp > c->f64_max_ulp || isnan(max_ulp)) {
        c->f64_max_ulp = max_ulp;
        c->f64_tol_ulp = tol_at_max;
    }
    c->f64_max_rel = fmax(c->f64_max_rel, max_rel);
    if (first >= 0 && (c->f64_first_bad < 0 || first < c->f64_first_bad)) {
        c->f64_first_bad = first;
        c->f64_got = got0;
        c->f64_want = want0;
        c->f64_tol = tol0;
    }
    pthread_mutex_unlock(&w->lock);
}

/* A row-major (@rows x kd), or B transposed (@transpose), as doubles */
static double *to_f64(const uint16_t *m, uint32_t rt, uint32_t ct,
                      bool transpose)
{
    size_t rows = rt * 32, cols = ct * 32;
    double *d = xcalloc(rows * cols * sizeof(double));

    for (size_t r = 0; r < rows; r++) {
        for (size_t col = 0; col < cols; col++) {
            uint16_t h = m[(r / 32 * ct + col / 32) * TILE +
                           tt_ref_tile_pos(r % 32, col % 32)];

            d[transpose ? col * rows + r : r * cols + col] =
                tt_ref_bf16_value(h);
        }
    }
    return d;
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

bool tt_mm_check(TTMMCheck *c)
{
    Work w = { .chk = c };
    double t0 = now();

    c->ref_first_bad = c->f64_first_bad = -1;
    w.fn = ref_tile;
    w.n = c->ntiles;
    run_parallel(&w);
    c->ref_seconds = now() - t0;

    t0 = now();
    w.ad = to_f64(c->a, c->mt, c->kt, false);
    w.bt = to_f64(c->b, c->kt, c->nt, true);
    w.fn = f64_row;
    w.n = c->mt * 32;
    run_parallel(&w);
    free((void *)w.ad);
    free((void *)w.bt);
    c->f64_seconds = now() - t0;
    return !c->ref_bad && !c->f64_bad && c->ref_count &&
           c->f64_count == (uint64_t)c->mt * c->nt * TILE;
}
