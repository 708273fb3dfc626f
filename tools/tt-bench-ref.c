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

#include "tt-bench-kernels.h"

int main(int argc, char **argv)
{
    uint32_t count, seed;

    if (argc != 4 || (strcmp(argv[1], "w1") && strcmp(argv[1], "w2"))) {
        fprintf(stderr, "usage: %s w1|w2 COUNT SEED\n", argv[0]);
        return 2;
    }
    count = strtoul(argv[2], NULL, 0);
    seed = strtoul(argv[3], NULL, 0);
    printf("0x%08x\n", argv[1][1] == '1' ? tt_bench_w1(count, seed)
                                         : tt_bench_w2(count, seed));
    return 0;
}
