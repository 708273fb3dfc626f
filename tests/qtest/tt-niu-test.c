/*
 * Blackhole NIU: command-buffer transactions driven from qtest through a
 * core's view, checking data and the counter block after each kind of
 * transaction, bad coordinates, oversize transfers and byte-enable
 * writes (the fabric's side: tt-noc-test).
 *
 * Register offsets: tt-isa-documentation BlackholeA0/NoC/MemoryMap.md and
 * Counters.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "tt-niu-cmd.h"

/* two columns: physical x = 1 and x = 16, translated 1 and 2 */
#define TWO_COLS "-M blackhole,harvested-tensix-cols=" \
                 "2:3:4:5:6:7:10:11:12:13:14:15"

static void test_read_counters(void)
{
    QTestState *q = qtest_init(TWO_COLS);
    uint32_t before[4];

    tt_writel(q, 16, 7, "trisc1", 0x1000, 0x12345678);
    before[0] = tt_niu_status(q, 0, RD_RESP_RECEIVED);
    before[1] = tt_niu_status(q, 0, RD_REQ_SENT);
    before[2] = tt_niu_status(q, 0, CMD_ACCEPTED);
    before[3] = tt_niu_status(q, 0, RD_DATA_WORD_RECEIVED);
    /* translated (2, 7) is physical (16, 7) */
    tt_niu_issue(q, 0, 1, RESP, 0x1000, XY(2, 7), 0x2000, XY(1, 2), 128);
    g_assert_cmphex(tt_readl(q, 1, 2, "ncrisc", 0x2000), ==, 0x12345678);
    g_assert_cmpuint(tt_niu_status(q, 0, RD_RESP_RECEIVED), ==, before[0] + 1);
    g_assert_cmpuint(tt_niu_status(q, 0, RD_REQ_SENT), ==, before[1] + 1);
    g_assert_cmpuint(tt_niu_status(q, 0, CMD_ACCEPTED), ==, before[2] + 1);
    g_assert_cmpuint(tt_niu_status(q, 0, RD_DATA_WORD_RECEIVED), ==,
                     before[3] + 2);
    g_assert_cmpuint(tt_niu_status(q, 0, REQS_OUTSTANDING(0)), ==, 0);
    qtest_quit(q);
}

static void test_write_counters(void)
{
    QTestState *q = qtest_init(TWO_COLS);
    uint32_t acks = tt_niu_status(q, 0, WR_ACK_RECEIVED);
    uint32_t np = tt_niu_status(q, 0, NONPOSTED_WR_SENT);
    uint32_t p = tt_niu_status(q, 0, POSTED_WR_SENT);
    uint32_t slv = tt_readl(q, 16, 3, "brisc",
                            STATUS(0, SLV_POSTED_WR_RECEIVED));

    tt_writel(q, 1, 2, "brisc", 0x3000, 0xcafe0001);
    tt_niu_issue(q, 0, 0, WR | RESP, 0x3000, XY(1, 2), 0x4000, XY(2, 3), 4);
    tt_niu_issue(q, 0, 0, WR, 0x3000, XY(1, 2), 0x4004, XY(2, 3), 4);
    g_assert_cmphex(tt_readl(q, 16, 3, "brisc", 0x4000), ==, 0xcafe0001);
    g_assert_cmphex(tt_readl(q, 16, 3, "brisc", 0x4004), ==, 0xcafe0001);
    g_assert_cmpuint(tt_niu_status(q, 0, WR_ACK_RECEIVED), ==, acks + 1);
    g_assert_cmpuint(tt_niu_status(q, 0, NONPOSTED_WR_SENT), ==, np + 1);
    g_assert_cmpuint(tt_niu_status(q, 0, POSTED_WR_SENT), ==, p + 1);
    g_assert_cmpuint(tt_readl(q, 16, 3, "brisc",
                              STATUS(0, SLV_POSTED_WR_RECEIVED)), ==, slv + 1);
    qtest_quit(q);
}

static void test_atomic_counters(void)
{
    QTestState *q = qtest_init(TWO_COLS);
    uint32_t resp = tt_niu_status(q, 0, ATOMIC_RESP_RECEIVED);
    uint32_t posted = tt_niu_status(q, 0, POSTED_ATOMIC_SENT);

    tt_writel(q, 1, 2, "brisc", CMD(0, 3, AT_DATA), 3);
    tt_niu_issue(q, 0, 3, AT | RESP, 0x5008, XY(2, 4), 0x6000, XY(1, 2),
                 0x1000 | (31 << 2) | 2);
    tt_niu_issue(q, 0, 3, AT, 0x5008, XY(2, 4), 0x6004, XY(1, 2),
                 0x1000 | (31 << 2) | 2);
    g_assert_cmphex(tt_readl(q, 16, 4, "brisc", 0x5008), ==, 6);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x6000), ==, 0);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x6004), ==, 0);  /* posted */
    g_assert_cmpuint(tt_niu_status(q, 0, ATOMIC_RESP_RECEIVED), ==, resp + 1);
    g_assert_cmpuint(tt_niu_status(q, 0, POSTED_ATOMIC_SENT), ==, posted + 1);
    /* IntWidth 3: add within the low 4 bits, upper bits kept */
    tt_writel(q, 16, 4, "brisc", 0x5010, 0xab0f);
    tt_writel(q, 1, 2, "brisc", CMD(0, 3, AT_DATA), 2);
    tt_niu_issue(q, 0, 3, AT | RESP, 0x5010, XY(2, 4), 0x6008, XY(1, 2),
                 0x1000 | (3 << 2));
    g_assert_cmphex(tt_readl(q, 16, 4, "brisc", 0x5010), ==, 0xab01);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x6008), ==, 0xab0f);
    qtest_quit(q);
}


static void test_dram_and_limits(void)
{
    QTestState *q = qtest_init(TWO_COLS);
    uint32_t rd = tt_niu_status(q, 0, RD_RESP_RECEIVED);

    /* GDDR bank 5 through translated (18, 15 + 2) = physical (9, 3) */
    tt_writel(q, 1, 2, "brisc", 0x9000, 0xd7a0d7a0);
    tt_writel(q, 1, 2, "brisc", 0x9000 + 16384, 0x0ddba11);
    tt_niu_issue(q, 0, 0, WR | RESP, 0x9000, XY(1, 2), 0x100, XY(18, 17),
                 16388);
    g_assert_cmphex(tt_readl(q, 9, 3, "-", 0x100), ==, 0xd7a0d7a0);
    /* more than one packet to DRAM: truncated to 16 KiB */
    g_assert_cmphex(tt_readl(q, 9, 3, "-", 0x100 + 16384), ==, 0);
    /* a read from no node answers all-ones and still completes */
    tt_niu_issue(q, 0, 1, RESP, 0x0, XY(30, 30), 0xa000, XY(1, 2), 4);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0xa000), ==, 0xffffffff);
    g_assert_cmpuint(tt_niu_status(q, 0, RD_RESP_RECEIVED), ==, rd + 1);
    /*
     * MMIO takes 4-byte accesses only: an 8-byte write to stream 0 regs 8
     * and 9 of a remote tile moves one word, a misaligned read the word
     * holding the address.
     */
    tt_writel(q, 1, 2, "brisc", 0x9100, 0x11111111);
    tt_writel(q, 1, 2, "brisc", 0x9104, 0x22222222);
    tt_niu_issue(q, 0, 0, WR | RESP, 0x9100, XY(1, 2), 0xffb40020, XY(2, 3), 8);
    g_assert_cmphex(tt_readl(q, 16, 3, "brisc", 0xffb40020), ==, 0x11111111);
    g_assert_cmphex(tt_readl(q, 16, 3, "brisc", 0xffb40024), ==, 0);
    tt_niu_issue(q, 0, 1, RESP, 0xffb40022, XY(2, 3), 0x9200, XY(1, 2), 4);
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
    tt_niu_issue(q, 0, 0, WR | (1u << 2) | RESP, 0xb000, XY(1, 2), 0xc000,
                 XY(2, 2), 0x000000f0);
    tt_read(q, 16, 2, "brisc", 0xc000, got, sizeof(got));
    for (int i = 0; i < 64; i++) {
        bool on = (i >= 4 && i < 8) || (i >= 32 && i < 36);

        g_assert_cmphex(got[i], ==, on ? src[i] : 0);
    }
    qtest_quit(q);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/niu/read-counters", test_read_counters);
    qtest_add_func("/blackhole/niu/write-counters", test_write_counters);
    qtest_add_func("/blackhole/niu/atomic-counters", test_atomic_counters);
    qtest_add_func("/blackhole/niu/dram-and-limits", test_dram_and_limits);
    qtest_add_func("/blackhole/niu/write-be", test_write_be);
    return g_test_run();
}
