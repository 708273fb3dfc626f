/*
 * Host references of the benchmark kernels (bench/fw/kernels.S) and the
 * layout of the parameter block the workload driver (bench/fw/bench.c)
 * reads, shared by tt-bench-ref and tt-host-run.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_BENCH_KERNELS_H
#define TT_BENCH_KERNELS_H

#include <stdint.h>

/* struct params of bench.c, at this L1 address */
#define TT_BENCH_PARAMS         0x8000u
#define TT_BENCH_WORKLOAD       0x00    /* 1: W1, 2: W2 */
#define TT_BENCH_COUNT          0x04
#define TT_BENCH_SEED           0x08
#define TT_BENCH_CHECKSUM       0x0c
#define TT_BENCH_DONE           0x18
#define TT_BENCH_PARAMS_SIZE    0x24
#define TT_BENCH_DONE_MAGIC     0xd0e0d0e0u

/* Instructions a kernel retires, fixed by construction in kernels.S */
static inline uint64_t tt_bench_w1_instr(uint32_t iters)
{
    return 17ull * iters;
}

static inline uint64_t tt_bench_w2_instr(uint32_t reps)
{
    return 5ull * 65536 + reps * (19ull * 16384 + 9);
}

static inline uint32_t tt_bench_w1(uint32_t n, uint32_t x)
{
    uint32_t acc = 0;

    for (; n; n--) {
        uint32_t m;

        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        m = x * 0x9e3779b1u;
        acc = (x & 1) ? acc + m : acc ^ m;
        acc = (acc << 7) | (acc >> 25);
        x += n;
    }
    return acc;
}

#define TT_BENCH_W2_WORDS 65536

static inline uint32_t tt_bench_w2(uint32_t reps, uint32_t seed)
{
    static uint32_t buf[2][TT_BENCH_W2_WORDS];
    uint32_t sum = 0;

    for (int i = 0; i < TT_BENCH_W2_WORDS; i++) {
        seed = seed * 1664525u + 1013904223u;
        buf[0][i] = seed;
    }
    for (uint32_t pass = 0; pass < reps; pass++) {
        uint32_t *src = buf[pass & 1], *dst = buf[!(pass & 1)];

        for (int i = 0; i < TT_BENCH_W2_WORDS; i++) {
            sum ^= src[i];
            dst[i] = src[i] + pass;
        }
    }
    return sum;
}

#endif
