/*
 * Producer/consumer hand-offs between a tile's TRISCs (bare image), on the
 * first NTILES tiles in column-major order of translated coordinates:
 *
 *  - TRISC0 (producer) waits for a credit in semaphore 1, takes it by
 *    MMIO, and pushes the unpackers' hand-over of a SrcA and a SrcB bank
 *    (UNPACR_NOP, set data-valid) and a SEMPOST of semaphore 0;
 *  - TRISC1 (consumer) waits for semaphore 0, takes it by MMIO, and pushes
 *    a MOVA2D (which waits for SrcA's data-valid), the release of both
 *    banks (SETRWC clear_ab_vld) and a SEMPOST of semaphore 1.
 *
 * Semaphore 1 starts at 2 credits (both banks), so the two cores poll the
 * semaphores while the coprocessor waits on data-valid, XCHG times each.
 * A lost wake-up hangs (the harness times out); a wrong count or a
 * semaphore left off its closed form fails.  Each tile reports to the
 * reporter with NOC atomics.  Build with -DNTILES=n and -DXCHG=n.
 *
 * With -DBUSY=1, NCRISC and TRISC2 count in a loop for ever instead of
 * waiting in wfi: never polling, always runnable.  When a tile's cores
 * share a host thread (-M blackhole,tile-threads=on), the hand-offs then
 * make progress only because a busy core gives the thread up after its
 * time slice.
 */
#include "tap.h"
#include "grid.h"
#include "tensix.h"

#ifndef NTILES
#define NTILES      140
#endif
#ifndef XCHG
#define XCHG        5000
#endif
#ifndef BUSY
#define BUSY        0
#endif

#define COUNT(n)    (0x70000u + 16u * (n))  /* TRISCn's exchanges */
#define SEMS        0x70040u                /* both semaphores at the end */
#define DONE        0x700a0u    /* reporter: tiles finished */
#define GOOD        0x700b0u    /* reporter: tiles whose checks passed */
#define SCRATCH     0x700c0u

#define SEM_FULL    0           /* banks handed over, not yet consumed */
#define SEM_FREE    1           /* credits: banks the producer may fill */

/* the unpackers' bank cleared to 0 and handed to the matrix unit */
#define UNPACR_NOP_HAND(u)  TT_ENC_UNPACR_NOP(u, 0, 0, 1, 0, 0, 0, 0, 1)
/* eight rows of SrcA to Dst: waits for SrcA's data-valid */
#define MOVA2D_8ROWS        TT_ENC_MOVA2D(0, 0, 0, 2, 0)
/* both banks back to the unpackers */
#define SETRWC_CLEAR_AB     TT_ENC_SETRWC(3, 0, 0, 0, 0, 0)

static void push(uint32_t w)
{
    REG32(TT_TILE_INSTRN_BUF_BASE) = w;  /* own thread */
}

/* Wait until semaphore @n is non-zero, then take one (an MMIO SEMGET) */
static void sem_take(int n)
{
    while (REG32(TT_SEM(n)) == 0) {
        __asm__ volatile("fence");
    }
    REG32(TT_SEM(n)) = 1;
}

static void producer(void)
{
    push(TT_SEMINIT(2, 0, 1u << SEM_FULL));
    push(TT_SEMINIT(2, 2, 1u << SEM_FREE));
    for (uint32_t i = 0; i < XCHG; i++) {
        sem_take(SEM_FREE);
        push(UNPACR_NOP_HAND(0));
        push(UNPACR_NOP_HAND(1));
        push(TT_SEMPOST(1u << SEM_FULL));
        REG32(COUNT(0)) = i + 1;
    }
}

static void consumer(void)
{
    for (uint32_t i = 0; i < XCHG; i++) {
        sem_take(SEM_FULL);
        push(MOVA2D_8ROWS);
        push(SETRWC_CLEAR_AB);
        push(TT_SEMPOST(1u << SEM_FREE));
        REG32(COUNT(1)) = i + 1;
    }
    /* drained: both semaphores at rest */
    (void)REG32(TT_SYNC);
    REG32(SEMS) = REG32(TT_SEM(SEM_FULL)) << 8 |
                  REG32(TT_SEM(SEM_FREE));
    REG32(COUNT(2)) = 1;
}

/* A loop that is never the same twice: busy, not waiting */
static void __attribute__((noreturn)) busy(void)
{
    uint32_t n = 0;

    for (;;) {
        __asm__ volatile("addi %0, %0, 1" : "+r"(n));
    }
}

void core_main(int role, int kind)
{
    int k = tensix_index(NTILES), good;

    if (k < 0) {
        idle();
    }
    if (role == TRISC0) {
        producer();
        idle();
    } else if (role == TRISC1) {
        consumer();
        idle();
    } else if (role != BRISC) {
        if (BUSY) {
            busy();
        }
        idle();
    }
    for (int n = 0; n < 3; n++) {
        REG32(COUNT(n)) = 0;
    }
    REG32(SEMS) = ~0u;
    REG32(SOFT_RESET_0) = 0;        /* start the other four cores */
    spin_until(COUNT(2), 1);
    good = REG32(COUNT(0)) == XCHG && REG32(COUNT(1)) == XCHG &&
           REG32(SEMS) == (0u << 8 | 2u);
    tensix_report(DONE, GOOD, good, SCRATCH);
    if (k != 0) {
        idle();
    }
    tap_reporter = 1;
    spin_until(DONE, NTILES);
    ok(REG32(COUNT(0)) == XCHG && REG32(COUNT(1)) == XCHG,
       "reporter tile: producer and consumer TRISCs exchanged every bank");
    ok(REG32(SEMS) == 2, "reporter tile: no bank in flight at the end "
       "(semaphore 0 empty, semaphore 1 back to two credits)");
    ok(REG32(GOOD) == NTILES, "every tile finished its exchanges with the "
       "right counts and semaphores");
    tap_done();
}
