/*
 * A busy P150 to stop, migrate and resume (bare image, every Tensix tile;
 * tests/migration/migrate-test.py): NOC traffic and Tensix work in flight
 * at any moment.
 *
 * BRISC: LAPS laps of a ring through all 140 tiles (NCOLS x 10 tiles with
 * -DNCOLS) in column-major order of translated coordinates.  Each tile adds (its NOC_ID_LOGICAL + lap) to
 * every word of a 1 KiB buffer, writes it on to the next tile (non-posted,
 * alternating NOCs, waiting for the ack) and increments the next tile's
 * flag with a NOC atomic.  The tile at translated (1, 2) checks the buffer
 * every CHECK_EVERY laps against the closed form
 *   word i = i + laps * S + NTILES * laps * (laps - 1) / 2,
 * S the sum of all tiles' coordinate words.
 *
 * TRISC0-2 meanwhile push ROUNDS rounds of Tensix instructions: a MOP
 * template 1 expansion (TRISC0), REPLAY playback (TRISC1) and single
 * MMIO pushes that fill the FIFO (TRISC2), each adding to one GPR of its
 * thread, which must end at its own closed-form count.  Each tile reports
 * its verdict with an atomic increment of a counter on the reporter tile.
 */
#include "tap.h"
#include "grid.h"
#include "tensix.h"

#define BUF         0x60000u
#define WORDS       256
#define FLAG        0x68000u
#define GOOD        0x68010u    /* reporter: tiles whose Tensix work passed */
#define DONE(t)     (0x68020u + 4u * (t))
#define GPRV(t)     (0x68040u + 4u * (t))
#ifndef NCOLS
#define NCOLS       14          /* -DNCOLS=1: the first translated column */
#endif
#define NTILES      (NCOLS * 10)
#ifndef LAPS
#define LAPS        400
#endif
#define CHECK_EVERY (LAPS / 8)
#define ROUNDS      400
#define MOP_N       50          /* template 1: 1 x MOP_N loop ops */

static void send_to(int k, int noc)
{
    uint32_t xy = tensix_xy(k % NTILES);

    noc_write_acked(noc, BUF, xy, BUF, WORDS * 4);
    noc_atomic(noc, xy, FLAG, AT_INCR_GET(FLAG), 1, 0x100, 0);
}

static void wait_flag(uint32_t v)
{
    while (REG32(FLAG) != v) {
    }
}

/* GPR 16 of this thread: MOP_N per round through MOP template 1 */
static void trisc0(void)
{
    REG32(TT_MOP_CFG_REG(0)) = 1;
    REG32(TT_MOP_CFG_REG(1)) = MOP_N;
    REG32(TT_MOP_CFG_REG(2)) = TT_NOP;
    REG32(TT_MOP_CFG_REG(3)) = TT_NOP;
    REG32(TT_MOP_CFG_REG(4)) = TT_NOP;
    REG32(TT_MOP_CFG_REG(5)) = TT_ADDDMAREG_IMM(16, 1, 16);
    REG32(TT_MOP_CFG_REG(6)) = TT_NOP;
    REG32(TT_MOP_CFG_REG(7)) = TT_ADDDMAREG_IMM(16, 1, 16);
    REG32(TT_MOP_CFG_REG(8)) = TT_ADDDMAREG_IMM(16, 1, 16);
    for (int r = 0; r < ROUNDS; r++) {
        TT_INLINE(TT_MOP(1, 0, 0));
    }
    (void)REG32(TT_SYNC);
    REG32(GPRV(0)) = REG32(TT_MY_GPR(16));
    REG32(DONE(0)) = 1;
}

/* GPR 17: a replay of three increments of 1, 2, 3 played twice a round */
static void trisc1(void)
{
    TT_INLINE(TT_REPLAY(0, 3, 0, 1));
    TT_INLINE(TT_ADDDMAREG_IMM(17, 1, 17));
    TT_INLINE(TT_ADDDMAREG_IMM(17, 2, 17));
    TT_INLINE(TT_ADDDMAREG_IMM(17, 3, 17));
    for (int r = 0; r < ROUNDS; r++) {
        TT_INLINE(TT_REPLAY(0, 3, 0, 0));
        TT_INLINE(TT_REPLAY(0, 3, 0, 0));
    }
    (void)REG32(TT_SYNC);
    REG32(GPRV(1)) = REG32(TT_MY_GPR(17));
    REG32(DONE(1)) = 1;
}

/* GPR 18: 40 MMIO pushes of +1 a round, more than the FIFO holds */
static void trisc2(void)
{
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < 40; i++) {
            REG32(TT_PUSH(0)) = TT_ADDDMAREG_IMM(18, 1, 18);
        }
    }
    (void)REG32(TT_SYNC);
    REG32(GPRV(2)) = REG32(TT_MY_GPR(18));
    REG32(DONE(2)) = 1;
}

/* The expected buffer after @laps laps */
static int ring_ok(uint32_t laps, uint32_t s)
{
    volatile uint32_t *buf = (volatile uint32_t *)BUF;
    uint32_t add = laps * s + NTILES * (laps * (laps - 1) / 2);
    int good = 1;

    for (int i = 0; i < WORDS; i++) {
        good &= buf[i] == i + add;
    }
    return good;
}

static void brisc(uint32_t id, int k)
{
    volatile uint32_t *buf = (volatile uint32_t *)BUF;
    uint32_t s = 0;
    int tensix_ok;

    for (int j = 0; j < NTILES; j++) {
        s += tensix_xy(j);
    }
    for (int t = 0; t < 3; t++) {
        REG32(DONE(t)) = 0;
        REG32(GPRV(t)) = 0;
    }
    REG32(SOFT_RESET_0) = 0;        /* the TRISCs start their rounds */
    if (k == 0) {
        for (int i = 0; i < WORDS; i++) {
            buf[i] = i;
        }
    }
    for (uint32_t lap = 0; lap < LAPS; lap++) {
        if (k != 0) {
            wait_flag(lap + 1);
        }
        for (int i = 0; i < WORDS; i++) {
            buf[i] += id + lap;
        }
        send_to(k + 1, (k + lap) & 1);
        if (k == 0) {
            wait_flag(lap + 1);
            if ((lap + 1) % CHECK_EVERY == 0) {
                ok(ring_ok(lap + 1, s), "ring lap checked against the "
                   "closed form");
            }
        }
    }
    for (int t = 0; t < 3; t++) {
        while (!REG32(DONE(t))) {
        }
    }
    tensix_ok = REG32(GPRV(0)) == ROUNDS * MOP_N &&
                REG32(GPRV(1)) == ROUNDS * 2 * (1 + 2 + 3) &&
                REG32(GPRV(2)) == ROUNDS * 40;
    if (tensix_ok) {
        noc_atomic(k & 1, tensix_xy(0), GOOD, AT_INCR_GET(GOOD), 1, 0x100, 0);
    }
    if (k == 0) {
        /* ... then wait for every tile's verdict (a hang fails the run) */
        while (REG32(GOOD) != NTILES) {
        }
        ok(1, "MOP, replay and FIFO-filling pushes "
           "counted right on every tile");
        tap_done();
    }
    for (;;) {
        __asm__ volatile("wfi");
    }
}

void core_main(int role, int kind)
{
    uint32_t id = REG32(NOC_ID_LOGICAL(0)) & 0xfff;
    int k = 0;

    switch (role) {
    case BRISC:
        while (tensix_xy(k) != id) {
            k++;
        }
        REG32(GOOD) = 0;
        tap_reporter = k == 0;
        brisc(id, k);
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
    default:
        break;
    }
    for (;;) {
        __asm__ volatile("wfi");
    }
}
