/*
 * Host reference for the benchmark kernels (bench/fw/kernels.S): prints
 * the checksum a core must report.  Usage: tt-bench-ref w1|w2 COUNT SEED
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t w1(uint32_t n, uint32_t x)
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

#define WORDS 65536

static uint32_t w2(uint32_t reps, uint32_t seed)
{
    static uint32_t buf[2][WORDS];
    uint32_t sum = 0;

    for (int i = 0; i < WORDS; i++) {
        seed = seed * 1664525u + 1013904223u;
        buf[0][i] = seed;
    }
    for (uint32_t pass = 0; pass < reps; pass++) {
        uint32_t *src = buf[pass & 1], *dst = buf[!(pass & 1)];

        for (int i = 0; i < WORDS; i++) {
            sum ^= src[i];
            dst[i] = src[i] + pass;
        }
    }
    return sum;
}

int main(int argc, char **argv)
{
    uint32_t count, seed;

    if (argc != 4 || (strcmp(argv[1], "w1") && strcmp(argv[1], "w2"))) {
        fprintf(stderr, "usage: %s w1|w2 COUNT SEED\n", argv[0]);
        return 2;
    }
    count = strtoul(argv[2], NULL, 0);
    seed = strtoul(argv[3], NULL, 0);
    printf("0x%08x\n", argv[1][1] == '1' ? w1(count, seed) : w2(count, seed));
    return 0;
}
