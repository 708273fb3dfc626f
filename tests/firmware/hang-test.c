/*
 * A deliberate deadlock for the monitor and hang-report tests (bare
 * image; the tile at translated (1, 2) hangs, other tiles idle): TRISC0
 * holds its thread behind a SEMWAIT on semaphore 5, which nothing ever
 * posts, and then waits for the thread to drain (TTSync); TRISC1 polls a
 * flag nobody sets; BRISC leaves known values in CB stream 3 (tiles acked
 * 7, received 9); TRISC2 holds mutex 2 in thread 2 and leaves its address
 * counters in a state worked out by hand (see trisc2()).  Then they all
 * wait for interrupts.
 */
#include "tensix.h"

#define NEVER_SET   0x60000u

static void brisc(void)
{
    REG32(NEVER_SET) = 0;
    REG32(STREAM_REG(3, 8)) = 7;
    REG32(STREAM_REG(3, 10)) = 9;
    REG32(SOFT_RESET_0) = 0;
}

static void trisc0(void)
{
    TT_INLINE(TT_SEMINIT(15, 0, 1u << 5));
    TT_INLINE(TT_SEMWAIT(B_ALL, 1u << 5, 1));
    TT_INLINE(TT_SETDMAREG16(2, 0x1234));
    REG32(TT_SYNC) = 0;
    (void)REG32(TT_SYNC);           /* never returns */
}

static void trisc1(void)
{
    while (REG32(NEVER_SET) == 0) {
        __asm__ volatile("fence");
    }
}

/*
 * Expected afterwards (info tt 1 2, thread 2):
 *   ADC unp0: ch0 x69 (0x45), ch1 x291 (0x123)
 *   ADC unp1: ch0 z3 w4, ch1 y341 (0x155)
 *   ADC pack: ch0 x6+7=13 y5+2=7, ch1 x2+1=3 y3+1=4
 *   RWC srca 3+2=5 (Cr 3), srcb 2+1=3 (Cr 2), dst and Cr 5+4=9
 */
static void trisc2(void)
{
    TT_INLINE(TT_ATGETM(2));
    TT_INLINE(TT_SETADCXX(1, 0x123, 0x45));
    TT_INLINE(TT_SETADCXY(4, 3, 2, 5, 6, 0xf));
    TT_INLINE(TT_INCADCXY(4, 1, 1, 2, 7));
    TT_INLINE(TT_ADDRCRZW(2, 0, 0, 4, 3, 0x3));
    TT_INLINE(TT_SETADC(2, 1, 1, 0x155));
    TT_INLINE(TT_SETRWC(0, 5, 2, 3, 0x7));
    TT_INLINE(TT_INCRWC(4, 4, 1, 2));
}

void core_main(int role, int kind)
{
    static const tt_role_fn fn[NCORES] = {
        brisc, 0, trisc0, trisc1, trisc2,
    };

    tt_reporter_main(role, fn);
}
