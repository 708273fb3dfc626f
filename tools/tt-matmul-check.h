/*
 * Operands and verification for tt-matmul-demo: C (mt x nt tiles) = A
 * (mt x kt) x B (kt x nt), BF16 tiles in L1 order (tt-ref.h), each
 * matrix a row-major sequence of tiles, C packed from an FP32 Dst.
 *
 * Two independent checks:
 *  - tt-ref: tools/runtime/tt-ref.c's model of the documented matrix-unit and
 *    packer arithmetic, tile by tile: bit for bit wherever the model fixes
 *    the output bits, within the model's bound elsewhere;
 *  - FP64: every element against the exact product of the BF16 inputs,
 *    within a tolerance that follows from the fidelity's documented
 *    operand bits and the accumulation (tt-matmul-check.c says how).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_MATMUL_CHECK_H
#define TT_MATMUL_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tt-ref.h"

/*
 * @count tiles of BF16 values drawn uniformly from [1/16, 1), from
 * @seed and @stream only.  All positive, so that no sum cancels.
 */
void tt_mm_gen(uint16_t *tiles, size_t count, uint64_t seed,
               uint32_t stream);

typedef struct TTMMCheck {
    /* in */
    const uint16_t *a, *b, *c;
    uint32_t mt, kt, nt;
    int fidelity;               /* 0 LoFi, 2..4 HiFi2..4 */
    const uint32_t *tiles;      /* output tiles tt-ref checks */
    uint32_t ntiles;
    int threads;

    /* out: tt-ref */
    uint64_t ref_count, ref_exact, ref_bad;
    double ref_max_ratio;       /* largest |error| / bound, bounded ones */
    int64_t ref_first_bad;      /* element index (row * N + col), or -1 */
    uint32_t ref_got, ref_want;
    double ref_seconds;

    /* out: FP64 */
    uint64_t f64_count, f64_bad;
    double f64_max_ulp;         /* largest |C - exact| in BF16 ULPs */
    double f64_max_rel;         /* ... relative to the exact value */
    double f64_tol_ulp;         /* the tolerance where the error was max */
    int64_t f64_first_bad;
    double f64_got, f64_want, f64_tol;
    double f64_seconds;
} TTMMCheck;

/* Run both checks on @chk's inputs; true if nothing is bad */
bool tt_mm_check(TTMMCheck *chk);

#endif
