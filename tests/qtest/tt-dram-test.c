/*
 * QTest for the GDDR banks of a Blackhole (hw/tenstorrent/dram.c) as the
 * NOC reaches them, through the qtest "tt" commands at the banks' tiles:
 * a bank's three ports are one memory, the eight banks are eight
 * memories, a bank holds its last word and ends there, and a P100A's
 * harvested bank has nothing behind its ports.  Ports: tt-umd's SoC
 * descriptor (grid.yaml, generated tt-grid.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "tt-qtest-util.h"
#include "hw/tenstorrent/tt-grid.h"      /* generated from data/grid.yaml */

#define ONE_COL "-M blackhole,harvested-tensix-cols=" \
                "2:3:4:5:6:7:10:11:12:13:14:15:16"

static const struct {
    uint8_t x, y;
} ports[TT_DRAM_BANKS][TT_DRAM_PORTS] = TT_GRID_DRAM_PORTS_INIT;

static uint32_t pattern(int bank, int port)
{
    return 0x6dd70000u | bank << 8 | port;
}

/* A word written through any port of a bank reads back through the others */
static void test_ports_alias(void)
{
    QTestState *q = qtest_init(ONE_COL);

    for (int b = 0; b < TT_DRAM_BANKS; b++) {
        for (int p = 0; p < TT_DRAM_PORTS; p++) {
            uint64_t addr = 0x1000 * (p + 1);

            tt_writel(q, ports[b][p].x, ports[b][p].y, "-", addr,
                      pattern(b, p));
            for (int o = 0; o < TT_DRAM_PORTS; o++) {
                g_assert_cmphex(tt_readl(q, ports[b][o].x, ports[b][o].y,
                                         "-", addr), ==, pattern(b, p));
            }
        }
    }
    qtest_quit(q);
}

/* Each bank its own memory: one address, eight values */
static void test_banks_distinct(void)
{
    QTestState *q = qtest_init(ONE_COL);

    for (int b = 0; b < TT_DRAM_BANKS; b++) {
        tt_writel(q, ports[b][0].x, ports[b][0].y, "-", 0x40, pattern(b, 9));
    }
    for (int b = 0; b < TT_DRAM_BANKS; b++) {
        g_assert_cmphex(tt_readl(q, ports[b][1].x, ports[b][1].y, "-", 0x40),
                        ==, pattern(b, 9));
    }
    qtest_quit(q);
}

/* 4 GiB a bank: its last word is memory, the next address is nothing */
static void test_bank_end(void)
{
    QTestState *q = qtest_init(ONE_COL);
    uint64_t last = TT_GRID_DRAM_BANK_SIZE - 4;

    for (int b = 0; b < TT_DRAM_BANKS; b++) {
        tt_writel(q, ports[b][2].x, ports[b][2].y, "-", last, ~pattern(b, 0));
        g_assert_cmphex(tt_readl(q, ports[b][0].x, ports[b][0].y, "-", last),
                        ==, ~pattern(b, 0));
        g_assert_true(tt_readl_fails(q, ports[b][0].x, ports[b][0].y, "-",
                                     TT_GRID_DRAM_BANK_SIZE));
    }
    qtest_quit(q);
}

/* A P100A's harvested bank (7): no memory behind any of its ports */
static void test_harvested_bank(void)
{
    QTestState *q = qtest_init("-M blackhole,board=p100a,"
                               "harvested-tensix-cols=2:3:4:5:6:7:10:11:12");

    for (int p = 0; p < TT_DRAM_PORTS; p++) {
        g_assert_true(tt_readl_fails(q, ports[7][p].x, ports[7][p].y, "-",
                                     0x40));
    }
    tt_writel(q, ports[6][0].x, ports[6][0].y, "-", 0x40, pattern(6, 0));
    g_assert_cmphex(tt_readl(q, ports[6][2].x, ports[6][2].y, "-", 0x40), ==,
                    pattern(6, 0));
    qtest_quit(q);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/dram/ports-alias", test_ports_alias);
    qtest_add_func("/blackhole/dram/banks-distinct", test_banks_distinct);
    qtest_add_func("/blackhole/dram/bank-end", test_bank_end);
    qtest_add_func("/blackhole/dram/harvested-bank", test_harvested_bank);
    return g_test_run();
}
