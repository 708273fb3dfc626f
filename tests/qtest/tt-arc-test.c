/*
 * Blackhole ARC tile as host software reaches it over the NOC: boot status
 * and pointers in the reset unit's scratch registers, the telemetry table
 * per board and harvesting, and the message queue protocol of tt-umd and
 * tt-kmd (tt-umd arc/blackhole_arc_message_queue.cpp, tt-kmd msgqueue.h),
 * including garbage from the host.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "tt-qtest-util.h"

#define ARC_X 8
#define ARC_Y 0
#define SCRATCH_RAM(n)  (0x80030400u + 4 * (n))
#define ARC_MISC_CNTL   0x80030100u
#define ARC_MSI_FIFO    0x800b0000u
#define CSM_BASE        0x10000000u
#define CSM_END         0x10080000u

static uint32_t arc_rd(QTestState *q, uint32_t addr)
{
    return tt_readl(q, ARC_X, ARC_Y, "-", addr);
}

static void arc_wr(QTestState *q, uint32_t addr, uint32_t v)
{
    tt_writel(q, ARC_X, ARC_Y, "-", addr, v);
}

/* Value of telemetry @tag, read the way tt-umd and tt-kmd walk the table */
static uint32_t telemetry(QTestState *q, int tag)
{
    uint32_t table = arc_rd(q, SCRATCH_RAM(13));
    uint32_t values = arc_rd(q, SCRATCH_RAM(12));
    uint32_t n = arc_rd(q, table + 4);

    g_assert_cmpuint(n, >, 0);
    g_assert_cmpuint(n, <, 128);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t e = arc_rd(q, table + 8 + 4 * i);

        if ((e & 0xffff) == tag) {
            return arc_rd(q, values + 4 * (e >> 16));
        }
    }
    g_error("telemetry tag %d missing", tag);
}

static void test_boot_status(void)
{
    QTestState *q = qtest_init("-M blackhole");

    g_assert_cmphex(arc_rd(q, SCRATCH_RAM(2)) & 7, ==, 5);
    for (int n = 11; n <= 13; n++) {     /* tt-kmd: pointers lie in CSM */
        g_assert_cmphex(arc_rd(q, SCRATCH_RAM(n)), >=, CSM_BASE);
        g_assert_cmphex(arc_rd(q, SCRATCH_RAM(n)), <, CSM_END);
    }
    /* table version: major (bits 23:16) <= 1 */
    g_assert_cmphex(arc_rd(q, arc_rd(q, SCRATCH_RAM(13))) >> 16 & 0xff, <=,
                    1);
    qtest_quit(q);
}

static void test_telemetry_boards(void)
{
    QTestState *q = qtest_init("-M blackhole");

    /* board UPI = (BOARD_ID >> 36) & 0xfffff: 0x40 is a P150 */
    g_assert_cmphex(telemetry(q, 1) >> 4, ==, 0x40);
    g_assert_cmphex(telemetry(q, 34), ==, 0x3fff);     /* 14 columns */
    g_assert_cmphex(telemetry(q, 36), ==, 0xff);
    /*
     * ENABLED_ETH: every channel but 5 and 8, the two a simulated
     * Blackhole has fused off (tt-umd tt_sim_tt_device.cpp: mask 0x120)
     */
    g_assert_cmphex(telemetry(q, 35), ==, 0x3fff & ~0x120);
    /* ETH_LIVE_STATUS: a live heartbeat on those channels, no retrains */
    g_assert_cmphex(telemetry(q, 21), ==, 0x3fff & ~0x120);
    g_assert_cmphex(telemetry(q, 40), ==, 1);          /* NOC translation */
    qtest_quit(q);

    /* P100A: x = 15, 16 absent -> bits 1 and 3 of x=1,16,2,15,... clear */
    q = qtest_init("-M blackhole,board=p100a,harvested-dram-bank=3");
    g_assert_cmphex(telemetry(q, 1) >> 4, ==, 0x43);
    g_assert_cmphex(telemetry(q, 34), ==, 0x3ff5);
    g_assert_cmphex(telemetry(q, 36), ==, 0xf7);
    g_assert_cmphex(telemetry(q, 22), ==, 0x5515);     /* GDDR 3 untrained */
    qtest_quit(q);

    /* P150 with columns 2 and 14 harvested: bits 2 and 5 clear */
    q = qtest_init("-M blackhole,harvested-tensix-cols=2:14");
    g_assert_cmphex(telemetry(q, 34), ==, 0x3fdb);
    qtest_quit(q);
}

/*
 * One request on queue @queue the way tt-umd sends it: request slot at
 * wptr % N, advance wptr modulo 2N, ring, read the response slot.
 */
static uint32_t arc_msg(QTestState *q, int queue, uint32_t code,
                        uint32_t doorbell, uint32_t ring)
{
    uint32_t ctl = arc_rd(q, SCRATCH_RAM(11));
    uint32_t base = arc_rd(q, ctl), n = arc_rd(q, ctl + 4) & 0xff;
    uint32_t qb = base + queue * (32 + 2 * n * 32);
    uint32_t w = arc_rd(q, qb), r = arc_rd(q, qb + 4), resp;

    arc_wr(q, qb + 32 + (w % n) * 32, code);
    arc_wr(q, qb + 32 + (w % n) * 32 + 4, 0x1234);
    arc_wr(q, qb, (w + 1) % (2 * n));
    arc_wr(q, doorbell, ring);
    g_assert_cmpuint(arc_rd(q, qb + 0x14), ==, (r + 1) % (2 * n));
    g_assert_cmpuint(arc_rd(q, qb + 0x10), ==, (w + 1) % (2 * n));
    resp = arc_rd(q, qb + 32 + n * 32 + (r % n) * 32);
    arc_wr(q, qb + 4, (r + 1) % (2 * n));
    return resp;
}

static void test_message_queue(void)
{
    QTestState *q = qtest_init("-M blackhole");

    /* tt-kmd's probe messages on queue 0, doorbell on the MSI FIFO */
    g_assert_cmphex(arc_msg(q, 0, 0xa0, ARC_MSI_FIFO, 0) & 0xff, ==, 0);
    g_assert_cmphex(arc_msg(q, 0, 0xc1, ARC_MSI_FIFO, 0) & 0xff, ==, 0);
    g_assert_cmphex(arc_msg(q, 0, 0xf21, ARC_MSI_FIFO, 0) & 0xff, ==, 0);
    /* tt-umd on queue 2 rings ARC_MISC_CNTL bit 16; AICLK follows */
    g_assert_cmpuint(telemetry(q, 14), ==, 800);
    g_assert_cmphex(arc_msg(q, 2, 0x52, ARC_MISC_CNTL, 1u << 16) & 0xff, ==,
                    0);
    g_assert_cmpuint(telemetry(q, 14), ==, 1350);
    g_assert_cmphex(arc_msg(q, 2, 0x54, ARC_MISC_CNTL, 1u << 16) & 0xff, ==,
                    0);
    g_assert_cmpuint(telemetry(q, 14), ==, 800);
    /* pointers wrap modulo 2N over many requests; unknown codes fail */
    for (int i = 0; i < 20; i++) {
        g_assert_cmphex(arc_msg(q, 3, 0x90, ARC_MSI_FIFO, 0) & 0xff, ==, 0);
    }
    g_assert_cmphex(arc_msg(q, 1, 0x77, ARC_MSI_FIFO, 0) & 0xff, ==, 0xff);
    qtest_quit(q);
}

static void test_bad_input(void)
{
    QTestState *q = qtest_init("-M blackhole");
    uint32_t ctl = arc_rd(q, SCRATCH_RAM(11));
    uint32_t base = arc_rd(q, ctl);

    /* garbage pointers: answered within the queue, QEMU survives */
    arc_wr(q, base, 0xffffffffu);
    arc_wr(q, base + 0x10, 0x12345678u);
    arc_wr(q, ARC_MSI_FIFO, 0);
    arc_wr(q, ARC_MISC_CNTL, 0xffffffffu);
    /* unmodelled ARC addresses read 0 and ignore writes */
    arc_wr(q, 0x80000000u, 1);
    g_assert_cmphex(arc_rd(q, 0x80000000u), ==, 0);
    /* the queue still works after a reset of its pointers */
    for (int i = 0; i < 4; i++) {
        arc_wr(q, base + 4 * i, 0);
        arc_wr(q, base + 0x10 + 4 * i, 0);
    }
    g_assert_cmphex(arc_msg(q, 0, 0xa0, ARC_MSI_FIFO, 0) & 0xff, ==, 0);
    qtest_quit(q);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/arc/boot-status", test_boot_status);
    qtest_add_func("/blackhole/arc/telemetry-boards", test_telemetry_boards);
    qtest_add_func("/blackhole/arc/message-queue", test_message_queue);
    qtest_add_func("/blackhole/arc/bad-input", test_bad_input);
    return g_test_run();
}
