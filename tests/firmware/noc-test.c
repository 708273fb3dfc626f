/*
 * NOC test (bare image on a two-column P150: translated columns 1 and 2):
 * the tile at translated (1, 2) moves data over both NOCs the way tt-metal's
 * dataflow API programs the NIU, and checks data and NIU counters.  Other
 * tiles only serve as targets.
 */
#include "tap.h"
#include "noc.h"

#define BUF         0x30000u    /* local staging */
#define CHECK       0x38000u
#define BIG         0x50000u    /* 20 KiB: two packets */
#define BIG_LEN     (20 * 1024)
#define REMOTE      0x40000u
#define ATOMIC      0x80000u
#define RET         0x34000u
#define MCBUF       0x70000u

static void fill(uint32_t addr, uint32_t len, uint32_t seed)
{
    for (uint32_t i = 0; i < len; i += 4) {
        REG32(addr + i) = seed * 0x9e3779b1u + i;
    }
}

static int same(uint32_t a, uint32_t b, uint32_t len)
{
    for (uint32_t i = 0; i < len; i += 4) {
        if (REG32(a + i) != REG32(b + i)) {
            return 0;
        }
    }
    return 1;
}

/* DRAM bank b, port p in translated coordinates (P150: no harvesting) */
static uint32_t dram_xy(int b, int p)
{
    return XY(17 + b / 4, 12 + 3 * (b % 4) + p);
}

static void test_dram(void)
{
    int good = 1;

    for (int b = 0; b < 8; b++) {
        fill(BUF, 256, b + 1);
        noc_write(0, BUF, dram_xy(b, b % 3), 0x100000 + 0x1000 * b, 256,
                  CMD_RESP_MARKED);
        fill(CHECK, 256, 0);
        noc_read(1, dram_xy(b, (b + 1) % 3), 0x100000 + 0x1000 * b, CHECK,
                 256);
        good &= same(BUF, CHECK, 256);
    }
    ok(good, "DRAM: write on NOC0, read back on NOC1 through another port, "
       "all 8 banks");
}

static void test_unicast(void)
{
    uint32_t rd = NIU_STATUS(1, ST_RD_RESP_RECEIVED);
    uint32_t acks = NIU_STATUS(0, ST_WR_ACK_RECEIVED);

    fill(BUF, 1024, 7);
    noc_write(0, BUF, XY(2, 11), REMOTE, 1024, CMD_RESP_MARKED);
    noc_read(1, XY(2, 11), REMOTE, CHECK, 1024);
    ok(same(BUF, CHECK, 1024), "L1 to L1 between distant tiles, both NOCs");
    ok(NIU_STATUS(1, ST_RD_RESP_RECEIVED) == rd + 1 &&
       NIU_STATUS(0, ST_WR_ACK_RECEIVED) == acks + 1,
       "read response and write ack counters count one each");
    fill(BIG, BIG_LEN, 9);
    noc_write(0, BIG, XY(2, 6), BIG, BIG_LEN, 0);
    fill(BIG, BIG_LEN, 0);
    noc_read(0, XY(2, 6), BIG, BIG, BIG_LEN);
    fill(CHECK, 64, 9);
    ok(same(BIG, CHECK, 64) &&
       REG32(BIG + BIG_LEN - 4) == 9 * 0x9e3779b1u + BIG_LEN - 4,
       "20 KiB L1 transfers are split into packets transparently");
    /* NOC1 without translation numbers the grid from the far corner */
    REG32(NIU_CFG_0(1)) &= ~(1u << 14);
    fill(CHECK, 1024, 0);
    noc_read(1, XY(0, 0), REMOTE, CHECK, 1024);     /* physical (16, 11) */
    REG32(NIU_CFG_0(1)) |= 1u << 14;
    ok(same(BUF, CHECK, 1024), "NOC1 untranslated coordinates are "
       "reflected: (0, 0) is physical (16, 11)");
}

static void test_multicast(void)
{
    uint32_t acks = NIU_STATUS(0, ST_WR_ACK_RECEIVED);
    int good = 1;

    fill(BUF, 64, 3);
    noc_write(0, BUF, MCAST(1, 2, 2, 11), MCBUF, 64,
              CMD_BRCST | CMD_PATH_RES | CMD_RESP_MARKED);
    ok(NIU_STATUS(0, ST_WR_ACK_RECEIVED) == acks + 19,
       "multicast to 20 tiles without the source: 19 acks");
    for (int x = 1; x <= 2; x++) {
        for (int y = 2; y <= 11; y++) {
            if (x == 1 && y == 2) {
                continue;
            }
            noc_read(0, XY(x, y), MCBUF, CHECK, 64);
            good &= same(BUF, CHECK, 64);
        }
    }
    ok(good && REG32(MCBUF) == 0, "every other tile got the data, the "
       "source did not");
    fill(BUF, 64, 4);
    noc_write(0, BUF, MCAST(1, 2, 1, 11), MCBUF, 64,
              CMD_BRCST | CMD_PATH_RES | CMD_SRC_INCLUDE);
    noc_read(1, XY(1, 11), MCBUF, CHECK, 64);
    ok(same(BUF, MCBUF, 64) && same(BUF, CHECK, 64),
       "multicast with BRCST_SRC_INCLUDE reaches the source too");
    noc_read(1, XY(2, 11), MCBUF, CHECK, 64);
    fill(BUF, 64, 3);
    ok(same(BUF, CHECK, 64), "column 2 is outside the second rectangle");
}

static void test_atomics(void)
{
    uint32_t resp = NIU_STATUS(0, ST_ATOMIC_RESP_RECEIVED);
    uint32_t a = ATOMIC + 8, olds = 0;

    for (int i = 0; i < 3; i++) {
        noc_atomic(0, XY(2, 5), a, AT_INCR_GET(a), 5, RET + 4 * i, 0);
        olds = olds * 100 + REG32(RET + 4 * i);
    }
    noc_read(0, XY(2, 5), ATOMIC, CHECK, 16);
    ok(olds == 510 && REG32(CHECK + 8) == 15 && REG32(CHECK) == 0,
       "INCR_GET returns old values 0, 5, 10 and leaves 15");
    ok(NIU_STATUS(0, ST_ATOMIC_RESP_RECEIVED) == resp + 3,
       "ATOMIC_RESP_RECEIVED counts each non-posted atomic");
    noc_atomic(0, XY(2, 5), a, AT_SWAP_4B(a), 4, RET, 0);
    noc_atomic(0, XY(2, 5), a, AT_CAS(a, 4, 9), 0, RET + 4, 0);
    noc_atomic(0, XY(2, 5), a, AT_CAS(a, 4, 3), 0, RET + 8, 0);
    noc_read(0, XY(2, 5), a, CHECK, 4);
    ok(REG32(RET) == 15 && REG32(RET + 4) == 4 && REG32(RET + 8) == 9 &&
       REG32(CHECK) == 9, "SWAP_4B and CAS (match, then mismatch)");
    noc_atomic(0, XY(2, 5), ATOMIC + 0x20, AT_SWAP_MASK(0x5), 0xbbbbaaaau,
               RET, 0);
    noc_atomic(0, XY(2, 5), ATOMIC + 0x30, AT_ACC_INT32, 7, RET, 0);
    noc_atomic(0, XY(2, 5), ATOMIC + 0x44, (6u << 12) | (1u << 2) | 1, 0x55,
               RET + 4, 0);
    noc_read(0, XY(2, 5), ATOMIC + 0x20, CHECK, 0x30);
    ok(REG32(CHECK) == 0xaaaau && REG32(CHECK + 4) == 0xaaaau &&
       REG32(CHECK + 8) == 0, "SWAP with a 16-bit lane mask");
    ok(REG32(CHECK + 0x10) == 7 && REG32(CHECK + 0x1c) == 7,
       "ACC INT32 adds into all four words of the block");
    ok(REG32(CHECK + 0x24) == 0x55 && REG32(RET + 4) == 0,
       "swap, index variant (opcode 6) writes word Ofs, returns the old "
       "TARG word");
    noc_atomic(0, MCAST(1, 2, 2, 11), ATOMIC, AT_INCR_GET(ATOMIC), 1, RET,
               CMD_BRCST | CMD_SRC_INCLUDE);
    noc_read(1, XY(2, 9), ATOMIC, CHECK, 4);
    ok(REG32(ATOMIC) == 1 && REG32(CHECK) == 1,
       "multicast atomic increments every tile including the source");
}

/* one non-posted atomic on word 0 of a fresh block holding @init */
static uint32_t at1(uint32_t addr, uint32_t init, uint32_t len_be,
                    uint32_t data, uint32_t flags)
{
    REG32(CHECK) = init;
    noc_write(0, CHECK, XY(2, 5), addr, 4, CMD_RESP_MARKED);
    noc_atomic(0, XY(2, 5), addr, len_be, data, RET, flags);
    noc_read(0, XY(2, 5), addr, CHECK, 16);
    return REG32(CHECK);
}

#define AT_ACC(fmt)         ((9u << 12) | (fmt))
#define ACC_SAT_DIS         (1u << 3)

/* ACC formats and the rarer opcodes; expected values worked out by hand */
static void test_atomics_more(void)
{
    uint32_t a = ATOMIC + 0x100, olds = 0;

    REG32(CHECK) = 0;
    noc_write(0, CHECK, XY(2, 5), a, 4, CMD_RESP_MARKED);
    for (int i = 0; i < 4; i++) {   /* INCR 2, WRAP 5: 0 2 4 -> 0 */
        noc_atomic(0, XY(2, 5), a, (2u << 12) | (2u << 6) | (5u << 2), 0,
                   RET, 0);
        olds = olds * 10 + REG32(RET);
    }
    noc_read(0, XY(2, 5), a, CHECK, 4);
    ok(olds == 240 && REG32(CHECK) == 2, "INCR_GET_PTR advances by INCR "
       "and wraps to 0 at WRAP");
    ok(at1(a, 0x3fc00000u, AT_ACC(0), 0x40100000u, 0) == 0x40700000u,
       "ACC FP32: 1.5 + 2.25 = 3.75");
    ok(at1(a, 0x00000001u, AT_ACC(0), 0, 0) == 0,
       "ACC FP32 flushes a denormal to zero");
    ok(at1(a, 0x40003c00u, AT_ACC(1), 0x3c004000u, 0) == 0x42004200u,
       "ACC FP16: 1 + 2 and 2 + 1 in the two 16-bit lanes");
    ok(at1(a, 0x3f803f80u, AT_ACC(2), 0x40003f00u, 0) == 0x40403fc0u,
       "ACC BF16: 1 + 0.5 = 1.5 and 1 + 2 = 3 per lane");
    ok(at1(a, 5, AT_ACC(3), 0x80000007u, 0) == 0x80000002u,
       "ACC INT32 is sign-magnitude: 5 + -7 = -2");
    ok(at1(a, 0x7ffffff0u, AT_ACC(3), 0x20, 0) == 0x7fffffffu,
       "ACC INT32 saturates");
    ok(at1(a, 5, AT_ACC(4), (uint32_t)-7, 0) == (uint32_t)-2,
       "ACC INT32_COMPL is two's complement");
    ok(at1(a, 0xfffffff0u, AT_ACC(5), 0x20, 0) == 0xffffffffu &&
       at1(a, 0xfffffff0u, AT_ACC(5) | ACC_SAT_DIS, 0x20, 0) == 0x10,
       "ACC INT32_UNS saturates, or wraps with saturation disabled");
    ok(at1(a, 0x0085007fu, AT_ACC(6), 0x03030305u, 0) == 0x0382037fu,
       "ACC INT8: sign-magnitude lanes, saturating at 127");
    ok(at1(a, 0x000110f0u, AT_ACC(7), 0x01010120u, 0) == 0x010211ffu,
       "ACC UINT8 saturates at 255");
    NIU_REG(0, 3, 0x30) = AT_INCR_GET(a);
    ok(at1(a, 40, 0xffffffffu, 2, 1u << 31) == 42 && REG32(RET) == 40,
       "CTRL bit 31 takes the opcode from NOC_L1_ACC_AT_INSTRN");
    ok(at1(a, 77, 5u << 12, 1, 0) == 77 && REG32(RET) == 77,
       "GET_TILE_MAP leaves memory alone and returns the TARG word");
}

static void test_streams(void)
{
    const uint32_t upd = 0xffb40000u + 48 * 0x1000 + 270 * 4;
    const uint32_t avail = 0xffb40000u + 48 * 0x1000 + 297 * 4;

    for (int i = 0; i < 3; i++) {
        noc_inline(0, XY(2, 3), upd, 1u << 6);     /* a worker's "done" */
    }
    noc_read(0, XY(2, 3), avail, CHECK, 4);
    ok(REG32(CHECK) == 3, "inline writes to stream 48 reg 270 add into "
       "reg 297 of the remote tile");
    noc_inline(1, XY(2, 3), upd, (uint32_t)-3 << 6);
    noc_read(1, XY(2, 3), avail, CHECK, 4);
    ok((REG32(CHECK) & 0x1ffff) == 0,
       "a negative update clears the words-free field (CLEAR_STREAM)");
}

static void test_errors(void)
{
    uint32_t rd = NIU_STATUS(0, ST_RD_RESP_RECEIVED);

    REG32(CHECK) = 0;
    noc_read(0, XY(30, 30), 0, CHECK, 4);
    ok(REG32(CHECK) == 0xffffffffu && NIU_STATUS(0, ST_RD_RESP_RECEIVED) ==
       rd + 1, "a read from no node completes with all-ones");
}

/*
 * An atomic is a write like any other for translated code: a function in
 * L1 that has run once (and so is translated) returns the new immediate
 * after an atomic adds to its first instruction.  QEMU needs no fence.i
 * for that; the cores' ISA string leaves Zifencei out anyway.
 */
#define CODE        0x60000u
#define RV_ADDI_A0_ZERO(imm)    (((uint32_t)(imm) << 20) | (10u << 7) | 0x13u)
#define RV_RET                  0x00008067u

static void test_atomic_code(void)
{
    int (*f)(void) = (int (*)(void))CODE;
    int before, after;

    REG32(CODE) = RV_ADDI_A0_ZERO(7);
    REG32(CODE + 4) = RV_RET;
    before = f();
    noc_atomic(0, my_xy(0), CODE, AT_INCR_GET(CODE), 1u << 20, RET, 0);
    after = f();
    ok(before == 7 && after == 8 && REG32(RET) == RV_ADDI_A0_ZERO(7) &&
       REG32(CODE) == RV_ADDI_A0_ZERO(8),
       "an atomic on an instruction that has run: the new one runs");
}

void core_main(int role, int kind)
{
    if (role != BRISC || REG32(NOC_ID_LOGICAL(0)) != REPORTER_ID) {
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    tap_reporter = 1;
    test_dram();
    test_unicast();
    test_multicast();
    test_atomics();
    test_atomics_more();
    test_atomic_code();
    test_streams();
    test_errors();
    tap_done();
}
