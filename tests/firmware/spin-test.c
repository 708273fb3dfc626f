/*
 * Spin-parking stress (bare image): handshakes through polled memory, each
 * of which must wake a core that is likely parked.  On the first NTILES
 * tiles, in column-major order of translated coordinates:
 *
 *  - same tile: BRISC and NCRISC ping-pong PINGS values through L1, and
 *    TRISC0 -> TRISC1 -> TRISC2 -> TRISC0 pass a token TRING times;
 *  - across tiles: the BRISCs pass a token LAPS times around all NTILES
 *    tiles with NOC writes, each waiting on its own L1;
 *  - every tile reports to the reporter with NOC atomics.
 *
 * Every value is checked against its closed form, so a lost wake-up hangs
 * (the harness times out) and a wrong value fails.  Other tiles sleep in
 * wfi.  Build with -DNTILES=n for fewer tiles (the parking-off runs).
 */
#include "tap.h"
#include "grid.h"

#ifndef NTILES
#define NTILES      140
#endif
#define PINGS       500
#define TRING       300
#define LAPS        5

#define PING        0x70000u
#define PONG        0x70010u
#define TSLOT(n)    (0x70020u + 16u * (n))
#define TDONE       0x70060u
#define TOKEN       0x70080u
#define STAGE       0x70090u
#define DONE        0x700a0u    /* reporter: tiles finished */
#define GOOD        0x700b0u    /* reporter: tiles whose checks passed */
#define SCRATCH     0x700c0u

static uint32_t mix(uint32_t k)
{
    return k * 0x9e3779b1u + 0x1234567u;
}

static int brisc_pings(void)
{
    for (uint32_t k = 1; k <= PINGS; k++) {
        REG32(PING) = mix(k);
        spin_until(PONG, mix(k) + 1);
    }
    spin_until(TDONE, 3 * TRING);
    return 1;
}

static void ncrisc_pongs(void)
{
    for (uint32_t k = 1; k <= PINGS; k++) {
        spin_until(PING, mix(k));
        REG32(PONG) = mix(k) + 1;
    }
}

/* TRISCn waits for token 3r + n in its slot and passes it on, plus one */
static void trisc_ring(int n)
{
    for (uint32_t r = 0; r < TRING; r++) {
        uint32_t want = n ? 3 * r + n : 3 * r;

        if (n || r) {
            spin_until(TSLOT(n), want);
        }
        REG32(TSLOT((n + 1) % 3)) = want + 1;
    }
    if (n == 0) {
        spin_until(TSLOT(0), 3 * TRING);
        REG32(TDONE) = 3 * TRING;
    }
}

static void send_token(int k, uint32_t v)
{
    REG32(STAGE) = v;
    noc_write(k & 1, STAGE, tensix_xy(k % NTILES), TOKEN, 4, CMD_RESP_MARKED);
}

/* Lap l: tile k waits for l * 1000 + k, then sends one more onwards */
static void token_laps(int k)
{
    for (uint32_t l = 1; l <= LAPS; l++) {
        if (k == 0) {
            send_token(1, l * 1000 + 1);
            spin_until(TOKEN, l * 1000 + NTILES);
        } else {
            spin_until(TOKEN, l * 1000 + k);
            send_token(k + 1, l * 1000 + k + 1);
        }
    }
}

void core_main(int role, int kind)
{
    int k = tensix_index(NTILES), good;

    if (k < 0) {
        idle();
    }
    if (role == BRISC) {
        REG32(SOFT_RESET_0) = 0;        /* start the other four cores */
    } else if (role == NCRISC) {
        ncrisc_pongs();
        idle();
    } else {
        trisc_ring(role - TRISC0);
        idle();
    }
    good = brisc_pings();
    if (NTILES > 1) {
        token_laps(k);
    }
    tensix_report(DONE, GOOD, good, SCRATCH);
    if (k != 0) {
        idle();
    }
    tap_reporter = 1;
    spin_until(DONE, NTILES);
    ok(REG32(PONG) == mix(PINGS) + 1 && REG32(TDONE) == 3 * TRING,
       "reporter tile: BRISC/NCRISC ping-pong and the TRISC token ring");
    ok(NTILES == 1 || REG32(TOKEN) == LAPS * 1000 + NTILES,
       "the token went around every tile, lap after lap");
    ok(REG32(GOOD) == NTILES, "every tile finished its same-tile "
       "handshakes with the right values");
    tap_done();
}
