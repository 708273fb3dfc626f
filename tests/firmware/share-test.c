/*
 * Translations shared among tiles (bare image): the machine translates
 * code once for all tiles whose L1 holds the same bytes on a page
 * (tb-share=on), and must drop that sharing the moment one tile's bytes
 * change.  On the first NTILES tiles, the BRISCs run a function at CODE,
 * all tiles in step, phase after phase:
 *
 *  - same: every tile writes the same function, so one translation
 *    serves all of them;
 *  - own: every tile writes a function returning its own value, right
 *    after running the shared one;
 *  - remote: every tile writes its neighbour's function over the NOC
 *    while the neighbour waits;
 *  - self: a function every tile holds alike stores the tile's own
 *    instruction into itself, the next call must run it (the cores have
 *    no fence.i; QEMU has RISC-V finish the block that stores into
 *    itself, so what the storing call returns is not checked);
 *
 * alternating CPU stores and NOC writes (the tile's own NIU, like DMA)
 * as the way the code gets there.  Each tile checks every result, so a
 * translation kept or shared past a write returns another phase's or
 * another tile's value and fails.  Build with -DNTILES=n for fewer tiles.
 */
#include "tap.h"
#include "grid.h"

#ifndef NTILES
#define NTILES      140
#endif
#define ROUNDS      8
#define CALLS       16

#define CODE        0x50000u    /* the function: a page of its own */
#define STAGE       0x52000u    /* its words for NOC writes (data) */
#define SELF        0x51000u    /* the self-modifying function */
#define ARRIVED     0x53000u    /* reporter: tiles at the barrier */
#define DONE        0x53010u    /* reporter: tiles finished */
#define GOOD        0x53020u    /* reporter: tiles whose checks passed */
#define SCRATCH     0x53040u
#define GO          0x53080u    /* the last barrier every tile reached */
#define GO_SRC      0x530c0u

#define RV_LUI_A0(hi)       (((uint32_t)(hi) << 12) | (10u << 7) | 0x37u)
#define RV_ADDI_A0_A0(lo)   ((((uint32_t)(lo) & 0xfff) << 20) | \
                             (10u << 15) | (10u << 7) | 0x13u)
#define RV_RET              0x00008067u
#define RV_ADDI_A0_ZERO(v)  (((uint32_t)(v) << 20) | (10u << 7) | 0x13u)
#define RV_SW_A1_12_A0      0x00b52623u     /* sw a1, 12(a0) */
#define RV_NOP              0x00000013u

enum { BY_STORE, BY_NOC };

/* lui a0, hi; addi a0, a0, lo; ret: returns @v */
static void encode(uint32_t *w, uint32_t v)
{
    uint32_t hi = (v + 0x800u) >> 12;

    w[0] = RV_LUI_A0(hi);
    w[1] = RV_ADDI_A0_A0(v - (hi << 12));
    w[2] = RV_RET;
    w[3] = 0;
}

/* Put the function returning @v at CODE of tile @xy */
static void put(uint32_t xy, uint32_t v, int how)
{
    uint32_t w[4];

    encode(w, v);
    if (how == BY_STORE) {
        for (int i = 0; i < 4; i++) {
            REG32(CODE + 4 * i) = w[i];
        }
        return;
    }
    for (int i = 0; i < 4; i++) {
        REG32(STAGE + 4 * i) = w[i];
    }
    noc_write_acked(0, STAGE, xy, CODE, sizeof(w));
}

/* Run the function CALLS times: all must return @want */
static int check(uint32_t want)
{
    uint32_t (*f)(void) = (uint32_t (*)(void))CODE;
    int good = 1;

    for (int i = 0; i < CALLS; i++) {
        good &= f() == want;
    }
    return good;
}

/*
 * SELF(SELF, insn): stores @insn over its fourth instruction, which
 * returns 1 as loaded
 */
static const uint32_t self_fn[8] = {
    RV_SW_A1_12_A0, RV_NOP, RV_NOP, RV_ADDI_A0_ZERO(1), RV_RET,
};

/* Load SELF afresh through the NOC, as a loader would */
static void put_self(uint32_t me)
{
    for (int i = 0; i < 8; i++) {
        REG32(STAGE + 64 + 4 * i) = self_fn[i];
    }
    noc_write_acked(0, STAGE + 64, me, SELF, sizeof(self_fn));
}

static int check_self(int k)
{
    uint32_t (*f)(uint32_t, uint32_t) =
        (uint32_t (*)(uint32_t, uint32_t))SELF;
    int good;

    f(SELF, RV_ADDI_A0_ZERO(100 + k));
    good = f(SELF, RV_ADDI_A0_ZERO(200 + k)) == 100u + k;
    return good && f(SELF, RV_ADDI_A0_ZERO(300 + k)) == 200u + k;
}

/*
 * Every tile reaches barrier @n before any goes on: tile 0 counts the
 * arrivals, then writes @n to every tile's GO word
 */
static void barrier(int k, uint32_t n)
{
    noc_atomic(1, tensix_xy(0), ARRIVED, AT_INCR_GET(ARRIVED), 1, SCRATCH,
               0);
    if (k) {
        spin_until(GO, n);
        return;
    }
    spin_until(ARRIVED, n * NTILES);
    REG32(GO_SRC) = n;
    for (int i = 1; i < NTILES; i++) {
        noc_write_acked(0, GO_SRC, tensix_xy(i), GO, 4);
    }
}

void core_main(int role, int kind)
{
    int k = tensix_index(NTILES), good, same = 1, own = 1, remote = 1;
    int self = 1;
    uint32_t me, next, b = 0;

    if (role != BRISC || k < 0) {
        idle();
    }
    me = tensix_xy(k);
    next = tensix_xy((k + 1) % NTILES);
    for (uint32_t r = 0; r < ROUNDS; r++) {
        int how = r & 1;

        put(me, 0x1000u * r + 7, how);
        barrier(k, ++b);
        same &= check(0x1000u * r + 7);
        put(me, 0x100000u + 0x1000u * r + k, !how);
        own &= check(0x100000u + 0x1000u * r + k);
        barrier(k, ++b);
        put(next, 0x200000u + 0x1000u * r + (k + 1) % NTILES, BY_NOC);
        barrier(k, ++b);
        remote &= check(0x200000u + 0x1000u * r + k);
        put_self(me);
        barrier(k, ++b);
        self &= check_self(k);
        barrier(k, ++b);
    }
    good = same && own && remote && self;
    tensix_report(DONE, GOOD, good, SCRATCH);
    if (k != 0) {
        idle();
    }
    tap_reporter = 1;
    spin_until(DONE, NTILES);
    ok(same, "reporter: the function every tile wrote alike");
    ok(own, "reporter: its own function, written right after");
    ok(remote, "reporter: the function its neighbour wrote over the NOC");
    ok(self, "reporter: an instruction stored over code in the block "
       "that runs it");
    ok(REG32(GOOD) == NTILES, "every tile ran the code it and its "
       "neighbour wrote, never another tile's or phase's");
    tap_done();
}
