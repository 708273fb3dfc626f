/*
 * Blackhole NIU: command-buffer transactions driven from qtest through a
 * core's view, checking data and the counter block after each kind of
 * transaction, coordinate translation on and off, NOC1 reflection, bad
 * coordinates and oversize transfers.
 *
 * Register offsets: tt-isa-documentation BlackholeA0/NoC/MemoryMap.md and
 * Counters.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "hw/registerfields.h"
#include "hw/tenstorrent/niu-regs.h"
#include "tt-tile-map.h"        /* generated from data/tile-map.yaml */
#include "tt-qtest-util.h"

#define NIU(noc)            (TT_TILE_NIU0_BASE + TT_TILE_NIU0_SIZE * (noc))
/* short names for the shared register header's (niu-regs.h) */
#define CMD(noc, buf, off)  (NIU(noc) + (buf) * TT_NIU_CMD_BUF_STRIDE + (off))
#define TARG_LO             A_NOC_TARG_ADDR_LO
#define TARG_MID            A_NOC_TARG_ADDR_MID
#define TARG_HI             A_NOC_TARG_ADDR_HI
#define RET_LO              A_NOC_RET_ADDR_LO
#define RET_MID             A_NOC_RET_ADDR_MID
#define RET_HI              A_NOC_RET_ADDR_HI
#define CTRL                A_NOC_CTRL
#define AT_LEN_BE           A_NOC_AT_LEN_BE
#define AT_DATA             A_NOC_AT_DATA
#define CMD_CTRL            A_NOC_CMD_CTRL
#define NIU_CFG_0(noc)      (NIU(noc) + A_NIU_CFG_0)
#define STATUS(noc, n) \
    (NIU(noc) + A_NIU_MST_ATOMIC_RESP_RECEIVED + 4 * (n))

#define RD_RESP_RECEIVED    TT_MST_RD_RESP_RECEIVED
#define RD_REQ_SENT         TT_MST_RD_REQ_SENT
#define WR_ACK_RECEIVED     TT_MST_WR_ACK_RECEIVED
#define NONPOSTED_WR_SENT   TT_MST_NONPOSTED_WR_REQ_SENT
#define POSTED_WR_SENT      TT_MST_POSTED_WR_REQ_SENT
#define ATOMIC_RESP_RECEIVED TT_MST_ATOMIC_RESP_RECEIVED
#define POSTED_ATOMIC_SENT  TT_MST_POSTED_ATOMIC_SENT
#define CMD_ACCEPTED        TT_MST_CMD_ACCEPTED
#define RD_DATA_WORD_RECEIVED TT_MST_RD_DATA_WORD_RECEIVED
#define SLV_POSTED_WR_RECEIVED TT_SLV_POSTED_WR_REQ_RECEIVED
#define REQS_OUTSTANDING(id) (TT_MST_REQS_OUTSTANDING_ID + (id))

#define WR                  R_NOC_CTRL_WR_MASK
#define RESP                R_NOC_CTRL_RESP_MARKED_MASK
#define AT                  R_NOC_CTRL_AT_MASK

/* two columns: physical x = 1 and x = 16, translated 1 and 2 */
#define TWO_COLS "-M blackhole,harvested-tensix-cols=" \
                 "2:3:4:5:6:7:10:11:12:13:14:15"

static uint32_t st(QTestState *q, int noc, int n)
{
    return tt_readl(q, 1, 2, "brisc", STATUS(noc, n));
}

static void issue(QTestState *q, int noc, int buf, uint32_t ctrl,
                  uint32_t targ, uint32_t targ_hi, uint32_t ret,
                  uint32_t ret_hi, uint32_t len)
{
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, CTRL), ctrl);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, TARG_LO), targ);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, TARG_MID), 0);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, TARG_HI), targ_hi);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, RET_LO), ret);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, RET_MID), 0);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, RET_HI), ret_hi);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, AT_LEN_BE), len);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, CMD_CTRL), 1);
    /* transfers complete synchronously */
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", CMD(noc, buf, CMD_CTRL)), ==,
                    0);
}

#define XY(x, y) (((y) << 6) | (x))

static void test_read_counters(void)
{
    QTestState *q = qtest_init(TWO_COLS);
    uint32_t before[4];

    tt_writel(q, 16, 7, "trisc1", 0x1000, 0x12345678);
    before[0] = st(q, 0, RD_RESP_RECEIVED);
    before[1] = st(q, 0, RD_REQ_SENT);
    before[2] = st(q, 0, CMD_ACCEPTED);
    before[3] = st(q, 0, RD_DATA_WORD_RECEIVED);
    /* translated (2, 7) is physical (16, 7) */
    issue(q, 0, 1, RESP, 0x1000, XY(2, 7), 0x2000, XY(1, 2), 128);
    g_assert_cmphex(tt_readl(q, 1, 2, "ncrisc", 0x2000), ==, 0x12345678);
    g_assert_cmpuint(st(q, 0, RD_RESP_RECEIVED), ==, before[0] + 1);
    g_assert_cmpuint(st(q, 0, RD_REQ_SENT), ==, before[1] + 1);
    g_assert_cmpuint(st(q, 0, CMD_ACCEPTED), ==, before[2] + 1);
    g_assert_cmpuint(st(q, 0, RD_DATA_WORD_RECEIVED), ==, before[3] + 2);
    g_assert_cmpuint(st(q, 0, REQS_OUTSTANDING(0)), ==, 0);
    qtest_quit(q);
}

static void test_write_counters(void)
{
    QTestState *q = qtest_init(TWO_COLS);
    uint32_t acks = st(q, 0, WR_ACK_RECEIVED);
    uint32_t np = st(q, 0, NONPOSTED_WR_SENT);
    uint32_t p = st(q, 0, POSTED_WR_SENT);
    uint32_t slv = tt_readl(q, 16, 3, "brisc",
                            STATUS(0, SLV_POSTED_WR_RECEIVED));

    tt_writel(q, 1, 2, "brisc", 0x3000, 0xcafe0001);
    issue(q, 0, 0, WR | RESP, 0x3000, XY(1, 2), 0x4000, XY(2, 3), 4);
    issue(q, 0, 0, WR, 0x3000, XY(1, 2), 0x4004, XY(2, 3), 4);
    g_assert_cmphex(tt_readl(q, 16, 3, "brisc", 0x4000), ==, 0xcafe0001);
    g_assert_cmphex(tt_readl(q, 16, 3, "brisc", 0x4004), ==, 0xcafe0001);
    g_assert_cmpuint(st(q, 0, WR_ACK_RECEIVED), ==, acks + 1);
    g_assert_cmpuint(st(q, 0, NONPOSTED_WR_SENT), ==, np + 1);
    g_assert_cmpuint(st(q, 0, POSTED_WR_SENT), ==, p + 1);
    g_assert_cmpuint(tt_readl(q, 16, 3, "brisc",
                              STATUS(0, SLV_POSTED_WR_RECEIVED)), ==, slv + 1);
    qtest_quit(q);
}

static void test_atomic_counters(void)
{
    QTestState *q = qtest_init(TWO_COLS);
    uint32_t resp = st(q, 0, ATOMIC_RESP_RECEIVED);
    uint32_t posted = st(q, 0, POSTED_ATOMIC_SENT);

    tt_writel(q, 1, 2, "brisc", CMD(0, 3, AT_DATA), 3);
    issue(q, 0, 3, AT | RESP, 0x5008, XY(2, 4), 0x6000, XY(1, 2),
          0x1000 | (31 << 2) | 2);
    issue(q, 0, 3, AT, 0x5008, XY(2, 4), 0x6004, XY(1, 2),
          0x1000 | (31 << 2) | 2);
    g_assert_cmphex(tt_readl(q, 16, 4, "brisc", 0x5008), ==, 6);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x6000), ==, 0);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x6004), ==, 0);  /* posted */
    g_assert_cmpuint(st(q, 0, ATOMIC_RESP_RECEIVED), ==, resp + 1);
    g_assert_cmpuint(st(q, 0, POSTED_ATOMIC_SENT), ==, posted + 1);
    /* IntWidth 3: add within the low 4 bits, upper bits kept */
    tt_writel(q, 16, 4, "brisc", 0x5010, 0xab0f);
    tt_writel(q, 1, 2, "brisc", CMD(0, 3, AT_DATA), 2);
    issue(q, 0, 3, AT | RESP, 0x5010, XY(2, 4), 0x6008, XY(1, 2),
          0x1000 | (3 << 2));
    g_assert_cmphex(tt_readl(q, 16, 4, "brisc", 0x5010), ==, 0xab01);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x6008), ==, 0xab0f);
    qtest_quit(q);
}

#define ROUTER_CFG_1(noc)   (NIU(noc) + A_ROUTER_CFG_1)
#define ROUTER_CFG_3(noc)   (NIU(noc) + A_ROUTER_CFG_3)
#define BRCST               R_NOC_CTRL_BRCST_PACKET_MASK
#define MCAST(x0, y0, x1, y1) (((y0) << 18) | ((x0) << 12) | ((y1) << 6) | (x1))

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
    issue(q, 0, 0, WR | BRCST, 0x3000, XY(1, 2), 0x7000,
          MCAST(2, 2, 2, 11), 4);
    g_assert_cmphex(tt_readl(q, 16, 4, "brisc", 0x7000), ==, 0x600dcafe);
    g_assert_cmphex(tt_readl(q, 16, 7, "brisc", 0x7000), ==, 0x600dcafe);
    g_assert_cmphex(tt_readl(q, 16, 5, "brisc", 0x7000), ==, 0);
    g_assert_cmphex(tt_readl(q, 16, 6, "brisc", 0x7000), ==, 0);
    /*
     * NOC1 masks are separate: the same rectangle on NOC1 (end corner
     * first, as translated NOC1 broadcasts are written) reaches both
     */
    issue(q, 1, 0, WR | BRCST, 0x3000, XY(1, 2), 0x7004,
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
    issue(q, 1, 1, RESP, 0x7000, XY(2, 11), 0x8000, XY(1, 2), 4);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x8000), ==, 0x600dda7a);
    /* NOC0 without translation: physical (16, 11), own (1, 2) */
    tt_writel(q, 1, 2, "brisc", NIU_CFG_0(0), 0);
    issue(q, 0, 1, RESP, 0x7000, XY(16, 11), 0x8004, XY(1, 2), 4);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x8004), ==, 0x600dda7a);
    /* ... translated (2, 11) is then a harvested physical column */
    issue(q, 0, 1, RESP, 0x7000, XY(2, 11), 0x8008, XY(1, 2), 4);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x8008), ==, 0xffffffff);
    /* NOC1 without translation: reflected, (0, 0) = (16, 11), self (15, 9) */
    tt_writel(q, 1, 2, "brisc", NIU_CFG_0(1), 0);
    issue(q, 1, 1, RESP, 0x7000, XY(0, 0), 0x800c, XY(15, 9), 4);
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
    issue(q, 1, 0, WR | BRCST, 0x3000, XY(1, 2), 0x7000,
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
    issue(q, 1, 0, WR | BRCST, 0x3000, XY(1, 2), 0x7004,
          MCAST(2, 3, 3, 4), 4);
    g_assert_cmphex(tt_readl(q, 10, 8, "brisc", 0x7004), ==, 0x0c1a5701);
    g_assert_cmphex(tt_readl(q, 16, 11, "brisc", 0x7004), ==, 0x0c1a5701);
    g_assert_cmphex(tt_readl(q, 2, 3, "brisc", 0x7004), ==, 0x0c1a5701);
    /* raw NOC1: physical (2, 3) is (14, 8), (3, 4) is (13, 7) */
    tt_writel(q, 1, 2, "brisc", NIU_CFG_0(1), 0);
    issue(q, 1, 0, WR | BRCST, 0x3000, XY(1, 2), 0x7008,
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

static void test_dram_and_limits(void)
{
    QTestState *q = qtest_init(TWO_COLS);
    uint32_t rd = st(q, 0, RD_RESP_RECEIVED);

    /* GDDR bank 5 through translated (18, 15 + 2) = physical (9, 3) */
    tt_writel(q, 1, 2, "brisc", 0x9000, 0xd7a0d7a0);
    tt_writel(q, 1, 2, "brisc", 0x9000 + 16384, 0x0ddba11);
    issue(q, 0, 0, WR | RESP, 0x9000, XY(1, 2), 0x100, XY(18, 17), 16388);
    g_assert_cmphex(tt_readl(q, 9, 3, "-", 0x100), ==, 0xd7a0d7a0);
    /* more than one packet to DRAM: truncated to 16 KiB */
    g_assert_cmphex(tt_readl(q, 9, 3, "-", 0x100 + 16384), ==, 0);
    /* a read from no node answers all-ones and still completes */
    issue(q, 0, 1, RESP, 0x0, XY(30, 30), 0xa000, XY(1, 2), 4);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0xa000), ==, 0xffffffff);
    g_assert_cmpuint(st(q, 0, RD_RESP_RECEIVED), ==, rd + 1);
    /*
     * MMIO takes 4-byte accesses only: an 8-byte write to stream 0 regs 8
     * and 9 of a remote tile moves one word, a misaligned read the word
     * holding the address.
     */
    tt_writel(q, 1, 2, "brisc", 0x9100, 0x11111111);
    tt_writel(q, 1, 2, "brisc", 0x9104, 0x22222222);
    issue(q, 0, 0, WR | RESP, 0x9100, XY(1, 2), 0xffb40020, XY(2, 3), 8);
    g_assert_cmphex(tt_readl(q, 16, 3, "brisc", 0xffb40020), ==, 0x11111111);
    g_assert_cmphex(tt_readl(q, 16, 3, "brisc", 0xffb40024), ==, 0);
    issue(q, 0, 1, RESP, 0xffb40022, XY(2, 3), 0x9200, XY(1, 2), 4);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x9200), ==, 0x11111111);
    qtest_quit(q);
}

static void test_write_be(void)
{
    QTestState *q = qtest_init(TWO_COLS);
    uint8_t src[64], got[64];

    for (int i = 0; i < 64; i++) {
        src[i] = 0x40 + i;
    }
    tt_write(q, 1, 2, "brisc", 0xb000, src, sizeof(src));
    /* bytes 4-7 and 32-35 of the 64-byte block */
    tt_writel(q, 1, 2, "brisc", CMD(0, 0, 0x24), 0x0000000f);
    issue(q, 0, 0, WR | (1u << 2) | RESP, 0xb000, XY(1, 2), 0xc000,
          XY(2, 2), 0x000000f0);
    tt_read(q, 16, 2, "brisc", 0xc000, got, sizeof(got));
    for (int i = 0; i < 64; i++) {
        bool on = (i >= 4 && i < 8) || (i >= 32 && i < 36);

        g_assert_cmphex(got[i], ==, on ? src[i] : 0);
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
            issue(q, 0, 0, WR | RESP, 0x3000, XY(1, 2), 0x200 + 4 * b, e, 4);
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
    qtest_add_func("/blackhole/niu/read-counters", test_read_counters);
    qtest_add_func("/blackhole/niu/write-counters", test_write_counters);
    qtest_add_func("/blackhole/niu/atomic-counters", test_atomic_counters);
    qtest_add_func("/blackhole/niu/translation-noc1",
                   test_translation_and_noc1);
    qtest_add_func("/blackhole/niu/noc1-mcast", test_noc1_mcast);
    qtest_add_func("/blackhole/niu/dram-and-limits", test_dram_and_limits);
    qtest_add_func("/blackhole/niu/write-be", test_write_be);
    qtest_add_func("/blackhole/niu/router-masks", test_router_masks);
    qtest_add_func("/blackhole/niu/harvested-dram-table",
                   test_harvested_dram_table);
    return g_test_run();
}
