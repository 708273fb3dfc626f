/*
 * Blackhole NOC fabric (noc.c): coordinates (translation on and off, NOC1's
 * reflection, the DRAM ports of the firmware's bank table), multicast
 * rectangles (wrapping spans, the routers' opt-out masks, Tensix tiles
 * only) and the atomics at the target: every documented opcode's effect on
 * the 16-byte block and the value it returns, unicast and multicast.
 * Transactions are issued through the NIU of the tile at physical (1, 2)
 * (tt-niu-cmd.h).
 *
 * Sources: tt-isa-documentation BlackholeA0/NoC/MemoryMap.md,
 * WormholeB0/NoC/Atomics.md (the Blackhole atomics are the same);
 * tt-umd blackhole_implementation.hpp (coordinates); the ACC formats and
 * INCR_GET_PTR: boopdotpng/tenstorrent-docs
 * hardware/blackhole-emulator-specs/noc-atomics.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "tt-niu-cmd.h"

/* two columns: physical x = 1 and x = 16, translated 1 and 2 */
#define TWO_COLS "-M blackhole,harvested-tensix-cols=" \
                 "2:3:4:5:6:7:10:11:12:13:14:15"

/* NOC_AT_LEN_BE: the opcode in [15:12] */
#define AT_OP(op)           ((uint32_t)(op) << 12)
#define AT_INCR_GET         AT_OP(1)
#define AT_INCR_GET_PTR     AT_OP(2)
#define AT_SWAP             AT_OP(3)
#define AT_CAS              AT_OP(4)
#define AT_SWAP_4B          AT_OP(7)
#define AT_ACC              AT_OP(9)
#define ACC_FP32            0
#define ACC_INT32           3
#define ACC_UINT8           7
#define ACC_NO_SAT          8

/* the 16-byte block at @addr of translated tile (2, 4) = physical (16, 4) */
static void block_set(QTestState *q, uint32_t addr, uint32_t w0, uint32_t w1,
                      uint32_t w2, uint32_t w3)
{
    uint32_t w[4] = { w0, w1, w2, w3 };

    for (int i = 0; i < 4; i++) {
        tt_writel(q, 16, 4, "brisc", addr + 4 * i, w[i]);
    }
}

static void block_check(QTestState *q, uint32_t addr, uint32_t w0,
                        uint32_t w1, uint32_t w2, uint32_t w3)
{
    uint32_t w[4] = { w0, w1, w2, w3 };

    for (int i = 0; i < 4; i++) {
        g_assert_cmphex(tt_readl(q, 16, 4, "brisc", addr + 4 * i), ==, w[i]);
    }
}

/* one non-posted atomic on (2, 4); returns what came back to (1, 2) */
static uint32_t atomic(QTestState *q, uint32_t targ, uint32_t len_be,
                       uint32_t data)
{
    tt_writel(q, 1, 2, "brisc", 0x6000, 0xa5a5a5a5);
    tt_writel(q, 1, 2, "brisc", CMD(0, 3, AT_DATA), data);
    tt_niu_issue(q, 0, 3, AT | RESP, targ, XY(2, 4), 0x6000, XY(1, 2),
                 len_be);
    return tt_readl(q, 1, 2, "brisc", 0x6000);
}

/*
 * CAS compares the word IND_32 [1:0] names with CAS_CMP [5:2] and stores
 * CAS_SET [9:6] on a match; SWAP writes the 16-bit lanes its mask [9:2]
 * selects (even lanes AT_DATA's low half, odd the high); SWAP_4B stores
 * AT_DATA into the word [3:2] names.  Each answers the target word's value
 * from before.
 */
static void test_atomic_swap_cas(void)
{
    QTestState *q = qtest_init(TWO_COLS);

    block_set(q, 0x5000, 7, 3, 0x55, 0x66);
    g_assert_cmphex(atomic(q, 0x5004, AT_CAS | 9 << 6 | 3 << 2 | 1, 0), ==, 3);
    block_check(q, 0x5000, 7, 9, 0x55, 0x66);
    /* no match: unchanged, the word comes back */
    g_assert_cmphex(atomic(q, 0x5004, AT_CAS | 5 << 6 | 3 << 2 | 1, 0), ==, 9);
    block_check(q, 0x5000, 7, 9, 0x55, 0x66);

    block_set(q, 0x5010, 0x01020304, 0x05060708, 0x090a0b0c, 0x0d0e0f10);
    /* lanes 0, 2 (low halves of words 0, 1) and 5 (high half of word 2) */
    g_assert_cmphex(atomic(q, 0x5010, AT_SWAP | 0x25 << 2, 0xbbbbaaaa), ==,
                    0x01020304);
    block_check(q, 0x5010, 0x0102aaaa, 0x0506aaaa, 0xbbbb0b0c, 0x0d0e0f10);

    block_set(q, 0x5020, 1, 2, 3, 4);
    g_assert_cmphex(atomic(q, 0x502c, AT_SWAP_4B | 3 << 2, 0xdeadbeef), ==,
                    4);
    block_check(q, 0x5020, 1, 2, 3, 0xdeadbeef);
    qtest_quit(q);
}

/*
 * INCR_GET adds AT_DATA within the low INT_WIDTH + 1 bits; INCR_GET_PTR
 * advances by INCR [9:6] and goes back to 0 on reaching WRAP [5:2].
 */
static void test_atomic_incr(void)
{
    QTestState *q = qtest_init(TWO_COLS);

    block_set(q, 0x5000, 0xfffffffe, 0x1ff, 0, 5);
    g_assert_cmphex(atomic(q, 0x5000, AT_INCR_GET | 31 << 2, 3), ==,
                    0xfffffffe);
    /* width 8: 0x1ff + 1 carries out of bit 7 into nothing */
    g_assert_cmphex(atomic(q, 0x5004, AT_INCR_GET | 7 << 2 | 1, 1), ==, 0x1ff);
    block_check(q, 0x5000, 1, 0x100, 0, 5);
    /* pointer at word 3: 5 + 3 reaches wrap 8: back to 0, then 3 */
    g_assert_cmphex(atomic(q, 0x500c, AT_INCR_GET_PTR | 3 << 6 | 8 << 2 | 3,
                           0), ==, 5);
    g_assert_cmphex(atomic(q, 0x500c, AT_INCR_GET_PTR | 3 << 6 | 8 << 2 | 3,
                           0), ==, 0);
    block_check(q, 0x5000, 1, 0x100, 0, 3);
    qtest_quit(q);
}

/*
 * ACC adds AT_DATA, repeated across the block, lane by lane: FP32 with
 * denormals flushed and ties to even; sign-magnitude INT32 saturating;
 * UINT8 saturating, or wrapping with bit 3.  The target word's old value
 * comes back.
 */
static void test_atomic_acc(void)
{
    QTestState *q = qtest_init(TWO_COLS);

    /* 2.25, -1.5, +inf, the smallest denormal; + 1.5 */
    block_set(q, 0x5000, 0x40100000, 0xbfc00000, 0x7f800000, 0x00000001);
    g_assert_cmphex(atomic(q, 0x5004, AT_ACC | ACC_FP32, 0x3fc00000), ==,
                    0xbfc00000);
    block_check(q, 0x5000, 0x40700000, 0, 0x7f800000, 0x3fc00000);

    /* 5, -3, 2^31 - 2, -0; + 2 */
    block_set(q, 0x5010, 5, 0x80000003, 0x7ffffffe, 0x80000000);
    atomic(q, 0x5010, AT_ACC | ACC_INT32, 2);
    block_check(q, 0x5010, 7, 0x80000001, 0x7fffffff, 2);

    block_set(q, 0x5020, 0xff10fe01, 0, 0, 0);
    atomic(q, 0x5020, AT_ACC | ACC_UINT8, 0x01020304);
    block_check(q, 0x5020, 0xff12ff05, 0x01020304, 0x01020304, 0x01020304);
    atomic(q, 0x5020, AT_ACC | ACC_UINT8 | ACC_NO_SAT, 0x01020304);
    block_check(q, 0x5020, 0x00140209, 0x02040608, 0x02040608, 0x02040608);
    qtest_quit(q);
}

/*
 * A multicast atomic updates every Tensix tile of the rectangle once; the
 * response carries one old value back
 */
static void test_atomic_mcast(void)
{
    QTestState *q = qtest_init(TWO_COLS);

    for (int y = 3; y <= 5; y++) {
        tt_writel(q, 1, y, "brisc", 0x5100, 10 * y);
        tt_writel(q, 16, y, "brisc", 0x5100, 20 * y);
    }
    tt_writel(q, 1, 2, "brisc", CMD(0, 3, AT_DATA), 5);
    /* translated x 1..2, y 3..4 */
    tt_niu_issue(q, 0, 3, AT | BRCST | RESP, 0x5100, MCAST(1, 3, 2, 4),
                 0x6010, XY(1, 2), AT_INCR_GET | 31 << 2);
    for (int y = 3; y <= 4; y++) {
        g_assert_cmphex(tt_readl(q, 1, y, "brisc", 0x5100), ==, 10 * y + 5);
        g_assert_cmphex(tt_readl(q, 16, y, "brisc", 0x5100), ==, 20 * y + 5);
    }
    g_assert_cmphex(tt_readl(q, 1, 5, "brisc", 0x5100), ==, 50);
    g_assert_cmphex(tt_readl(q, 16, 5, "brisc", 0x5100), ==, 100);
    qtest_quit(q);
}

/*
 * Broadcast opt-out: reset masks name the non-Tensix columns and rows;
 * a tile whose own column or row bit is set in its router's mask (in that
 * NOC's coordinates) receives no multicast.
 */
static void test_router_masks(void)
{
    QTestState *q = qtest_init(TWO_COLS);

    g_assert_cmphex(tt_readl(q, 16, 5, "brisc", ROUTER_CFG_1(0)), ==, 0x301);
    g_assert_cmphex(tt_readl(q, 16, 5, "brisc", ROUTER_CFG_3(0)), ==, 0x3);
    g_assert_cmphex(tt_readl(q, 16, 5, "brisc", ROUTER_CFG_1(1)), ==,
                    0x10180);
    g_assert_cmphex(tt_readl(q, 16, 5, "brisc", ROUTER_CFG_3(1)), ==, 0xc00);
    /* tile (16, 5) opts out by column, (16, 6) by row; NOC0 numbering */
    tt_writel(q, 16, 5, "brisc", ROUTER_CFG_1(0), 0x301 | (1u << 16));
    tt_writel(q, 16, 6, "brisc", ROUTER_CFG_3(0), 0x3 | (1u << 6));
    tt_writel(q, 1, 2, "brisc", 0x3000, 0x600dcafe);
    tt_niu_issue(q, 0, 0, WR | BRCST, 0x3000, XY(1, 2), 0x7000,
                 MCAST(2, 2, 2, 11), 4);
    g_assert_cmphex(tt_readl(q, 16, 4, "brisc", 0x7000), ==, 0x600dcafe);
    g_assert_cmphex(tt_readl(q, 16, 7, "brisc", 0x7000), ==, 0x600dcafe);
    g_assert_cmphex(tt_readl(q, 16, 5, "brisc", 0x7000), ==, 0);
    g_assert_cmphex(tt_readl(q, 16, 6, "brisc", 0x7000), ==, 0);
    /*
     * NOC1 masks are separate: the same rectangle on NOC1 (end corner
     * first, as translated NOC1 broadcasts are written) reaches both
     */
    tt_niu_issue(q, 1, 0, WR | BRCST, 0x3000, XY(1, 2), 0x7004,
                 MCAST(2, 11, 2, 2), 4);
    g_assert_cmphex(tt_readl(q, 16, 5, "brisc", 0x7004), ==, 0x600dcafe);
    g_assert_cmphex(tt_readl(q, 16, 6, "brisc", 0x7004), ==, 0x600dcafe);
    qtest_quit(q);
}

static void test_translation_and_noc1(void)
{
    QTestState *q = qtest_init(TWO_COLS);

    tt_writel(q, 16, 11, "brisc", 0x7000, 0x600dda7a);
    /* translation on (power-on): translated (2, 11) */
    tt_niu_issue(q, 1, 1, RESP, 0x7000, XY(2, 11), 0x8000, XY(1, 2), 4);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x8000), ==, 0x600dda7a);
    /* NOC0 without translation: physical (16, 11), own (1, 2) */
    tt_writel(q, 1, 2, "brisc", NIU_CFG_0(0), 0);
    tt_niu_issue(q, 0, 1, RESP, 0x7000, XY(16, 11), 0x8004, XY(1, 2), 4);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x8004), ==, 0x600dda7a);
    /* ... translated (2, 11) is then a harvested physical column */
    tt_niu_issue(q, 0, 1, RESP, 0x7000, XY(2, 11), 0x8008, XY(1, 2), 4);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x8008), ==, 0xffffffff);
    /* NOC1 without translation: reflected, (0, 0) = (16, 11), self (15, 9) */
    tt_writel(q, 1, 2, "brisc", NIU_CFG_0(1), 0);
    tt_niu_issue(q, 1, 1, RESP, 0x7000, XY(0, 0), 0x800c, XY(15, 9), 4);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x800c), ==, 0x600dda7a);
    qtest_quit(q);
}

/*
 * A NOC1 multicast with translation on: the rectangle translated
 * x 2..3, y 3..4 is written end corner first (translation keeps NOC1's
 * leftwards/upwards flow); start before end is a span wrapping the torus.
 * Without translation, NOC1's own coordinates run start to end as on NOC0.
 */
static void test_noc1_mcast(void)
{
    QTestState *q = qtest_init("-M blackhole");
    static const int in[][2] = { { 2, 3 }, { 3, 3 }, { 2, 4 }, { 3, 4 } };
    static const int out[][2] = {
        { 1, 3 }, { 4, 3 }, { 2, 2 }, { 3, 5 }, { 10, 8 }, { 16, 11 },
    };

    tt_writel(q, 1, 2, "brisc", 0x3000, 0x0c1a5701);
    tt_niu_issue(q, 1, 0, WR | BRCST, 0x3000, XY(1, 2), 0x7000,
                 MCAST(3, 4, 2, 3), 4);
    for (int i = 0; i < ARRAY_SIZE(in); i++) {
        g_assert_cmphex(tt_readl(q, in[i][0], in[i][1], "brisc", 0x7000),
                        ==, 0x0c1a5701);
    }
    for (int i = 0; i < ARRAY_SIZE(out); i++) {
        g_assert_cmphex(tt_readl(q, out[i][0], out[i][1], "brisc", 0x7000),
                        ==, 0);
    }
    /* start corner first: from x 2 leftwards round to 3, y 3 up to 4 */
    tt_niu_issue(q, 1, 0, WR | BRCST, 0x3000, XY(1, 2), 0x7004,
                 MCAST(2, 3, 3, 4), 4);
    g_assert_cmphex(tt_readl(q, 10, 8, "brisc", 0x7004), ==, 0x0c1a5701);
    g_assert_cmphex(tt_readl(q, 16, 11, "brisc", 0x7004), ==, 0x0c1a5701);
    g_assert_cmphex(tt_readl(q, 2, 3, "brisc", 0x7004), ==, 0x0c1a5701);
    /* raw NOC1: physical (2, 3) is (14, 8), (3, 4) is (13, 7) */
    tt_writel(q, 1, 2, "brisc", NIU_CFG_0(1), 0);
    tt_niu_issue(q, 1, 0, WR | BRCST, 0x3000, XY(1, 2), 0x7008,
                 MCAST(13, 7, 14, 8), 4);
    for (int i = 0; i < ARRAY_SIZE(in); i++) {
        g_assert_cmphex(tt_readl(q, in[i][0], in[i][1], "brisc", 0x7008),
                        ==, 0x0c1a5701);
    }
    for (int i = 0; i < ARRAY_SIZE(out); i++) {
        g_assert_cmphex(tt_readl(q, out[i][0], out[i][1], "brisc", 0x7008),
                        ==, 0);
    }
    qtest_quit(q);
}

/*
 * P100A with a harvested bank: each DRAM entry of the bank-to-NOC table the
 * machine writes for firmware, used as a translated NOC0 coordinate, must
 * reach a distinct, enabled physical bank.
 */
static void test_harvested_dram_table(void)
{
    /* tt-umd: bank b's ports at x = b < 4 ? 0 : 9 */
    static const int port0_y[4] = { 0, 2, 9, 5 };

    for (int h = 0; h < 8; h += 5) {
        QTestState *q = qtest_initf("-M blackhole,board=p100a,"
                                    "harvested-dram-bank=%d,firmware=%s/boot,"
                                    "fw-layout=tt-test", h, tt_firmware_dir());
        int hit_bank[7];

        for (int b = 0; b < 7; b++) {
            uint32_t e = tt_readl(q, 1, 2, "brisc", 0x12f00 + 4 * (b / 2));

            e = b & 1 ? e >> 16 : e & 0xffff;
            tt_writel(q, 1, 2, "brisc", 0x3000, 0xb0000000 | h << 8 | b);
            tt_niu_issue(q, 0, 0, WR | RESP, 0x3000, XY(1, 2), 0x200 + 4 * b,
                         e, 4);
        }
        for (int b = 0; b < 7; b++) {
            hit_bank[b] = -1;
            for (int pb = 0; pb < 8; pb++) {
                if (pb == h) {
                    continue;
                }
                if (tt_readl(q, pb < 4 ? 0 : 9, port0_y[pb % 4], "-",
                             0x200 + 4 * b) == (0xb0000000 | h << 8 | b)) {
                    g_assert_cmpint(hit_bank[b], ==, -1);
                    hit_bank[b] = pb;
                }
            }
            g_assert_cmpint(hit_bank[b], >=, 0);
            for (int o = 0; o < b; o++) {
                g_assert_cmpint(hit_bank[o], !=, hit_bank[b]);
            }
        }
        qtest_quit(q);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/noc/translation-noc1",
                   test_translation_and_noc1);
    qtest_add_func("/blackhole/noc/noc1-mcast", test_noc1_mcast);
    qtest_add_func("/blackhole/noc/router-masks", test_router_masks);
    qtest_add_func("/blackhole/noc/harvested-dram-table",
                   test_harvested_dram_table);
    qtest_add_func("/blackhole/noc/atomic-swap-cas", test_atomic_swap_cas);
    qtest_add_func("/blackhole/noc/atomic-incr", test_atomic_incr);
    qtest_add_func("/blackhole/noc/atomic-acc", test_atomic_acc);
    qtest_add_func("/blackhole/noc/atomic-mcast", test_atomic_mcast);
    return g_test_run();
}
