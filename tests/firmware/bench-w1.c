/*
 * Benchmark W1 (integer loop) on BRISC of the tile at translated (1, 2):
 * xorshift32, a multiply, a data-dependent branch and a rotate per
 * iteration.  Prints the iteration count, the 17-instruction loop's
 * instruction count and the wall-clock ticks it took (1.35 GHz AICLK ticks
 * of QEMU's virtual clock, which follows host time without icount).
 * Other tiles idle.
 */
#include "tt.h"

#define ITERS 200000000u

static char *hex(char *p, uint32_t v)
{
    for (int i = 28; i >= 0; i -= 4) {
        *p++ = "0123456789abcdef"[(v >> i) & 15];
    }
    return p;
}

static uint32_t w1(uint32_t iters, uint32_t seed)
{
    uint32_t x = seed | 1, acc = 0x12345678;

    for (uint32_t i = 0; i < iters; i++) {
        uint32_t m;

        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        m = x * 0x9e3779b1u;
        if (m & 0x80000000u) {
            acc += m ^ i;
        } else {
            acc ^= (m >> 3) + i;
        }
        acc = (acc << 1) | (acc >> 31);
    }
    return acc ^ x;
}

void core_main(int role, int kind)
{
    static char line[80];
    const char *prefix = "W1 iters=0x";
    char *p = line;
    uint32_t t0, t1, sum;

    if (role != BRISC || REG32(NOC_ID_LOGICAL(0)) != ((2u << 6) | 1u)) {
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    t0 = wall_clock();
    sum = w1(ITERS, 0xc0ffee);
    t1 = wall_clock();
    while (*prefix) {
        *p++ = *prefix++;
    }
    p = hex(p, ITERS);
    *p++ = ' ';
    *p++ = 't';
    *p++ = '=';
    p = hex(p, t1 - t0);
    *p++ = ' ';
    *p++ = 's';
    *p++ = '=';
    p = hex(p, sum);
    *p++ = '\n';
    *p = 0;
    sh_puts(line);
    sh_exit(0);
}
