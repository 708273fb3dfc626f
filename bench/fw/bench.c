/*
 * Benchmark workload driver on a Tensix BRISC, loaded as a flat image at
 * L1 0 (the BRISC reset PC) by a host, as a libttsim-ABI harness loads a
 * workload into ttsim.  The host writes the parameter block at 0x8000,
 * releases BRISC, and polls `done`.  Start and end times come from
 * WALL_CLOCK_L (AICLK cycles; ttsim counts one per instruction step).
 */
#include <stdint.h>

#define WALL_CLOCK_L    (*(volatile uint32_t *)0xffb121f0u)
#define WALL_CLOCK_H    (*(volatile uint32_t *)0xffb121f8u)  /* latched */
#define DONE_MAGIC      0xd0e0d0e0u

struct params {
    uint32_t workload;          /* 1: W1, 2: W2 */
    uint32_t count;             /* W1 iterations, W2 passes */
    uint32_t seed;
    uint32_t checksum;
    uint32_t clk_start, clk_end;
    uint32_t done;
    uint32_t clk_start_hi, clk_end_hi;  /* 0 where there is no latch */
};

#define PARAMS ((volatile struct params *)0x8000u)

uint32_t w1_kernel(uint32_t iters, uint32_t seed);
uint32_t w2_kernel(uint32_t reps, uint32_t seed);

void bench_main(void)
{
    volatile struct params *p = PARAMS;
    uint32_t sum;

    p->clk_start = WALL_CLOCK_L;
    p->clk_start_hi = WALL_CLOCK_H;
    sum = p->workload == 2 ? w2_kernel(p->count, p->seed)
                           : w1_kernel(p->count, p->seed);
    p->clk_end = WALL_CLOCK_L;
    p->clk_end_hi = WALL_CLOCK_H;
    p->checksum = sum;
    p->done = DONE_MAGIC;
    for (;;) {
    }
}
