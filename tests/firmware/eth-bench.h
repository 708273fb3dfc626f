/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The L1 words of tests/firmware/eth-bench.c that a host reads and writes
 * (bench/eth-bench.py, scripts/tenstorrent/ttchips.py read them from here)
 */
#ifndef TT_ETH_BENCH_H
#define TT_ETH_BENCH_H

/* ETH_BENCH_DONE_VALUE once a run ended */
#define ETH_BENCH_DONE          0x30010u
#define ETH_BENCH_DONE_VALUE    0x600d0001u
/* a host that loads the image: ETH_BENCH_ROLE_HOST | 1 measure, | 2 answer */
#define ETH_BENCH_ROLE          0x30020u
#define ETH_BENCH_ROLE_HOST     0x501e0000u
#define ETH_BENCH_RESULTS       0x30100u    /* 7 words: see eth-bench.c */

#endif
