/*
 * A deliberate deadlock for the monitor and hang-report tests (bare
 * image; the tile at translated (1, 2) hangs, other tiles idle): TRISC0
 * holds its thread behind a SEMWAIT on semaphore 5, which nothing ever
 * posts, and then waits for the thread to drain (TTSync); TRISC1 polls a
 * flag nobody sets; BRISC leaves known values in CB stream 3 (tiles acked
 * 7, received 9) and mutex 2 held by thread 2, then waits for interrupts.
 */
#include "tensix.h"

#define REPORTER_ID ((2u << 6) | 1u)    /* translated (1, 2), as tap.h */

#define NEVER_SET   0x60000u

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
        __asm__ volatile("" ::: "memory");
    }
}

static void trisc2(void)
{
    TT_INLINE(TT_ATGETM(2));
}

void core_main(int role, int kind)
{
    if (REG32(NOC_ID_LOGICAL(0)) == REPORTER_ID) {
        switch (role) {
        case BRISC:
            REG32(NEVER_SET) = 0;
            REG32(STREAM_REG(3, 8)) = 7;
            REG32(STREAM_REG(3, 10)) = 9;
            REG32(SOFT_RESET_0) = 0;
            break;
        case TRISC0:
            trisc0();
            break;
        case TRISC1:
            trisc1();
            break;
        case TRISC2:
            trisc2();
            break;
        }
    }
    for (;;) {
        __asm__ volatile("wfi");
    }
}
