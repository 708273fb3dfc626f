/*
 * Blackhole machine grid: tiles per board, CPU order, NOC identity
 * registers, DRAM port aliasing, harvesting and bad options.
 *
 * Expected values come from the board descriptions (tt-umd's soc
 * descriptors, blackhole-py's bank table), written out here independently of
 * the code under test.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "tt-qtest-util.h"

#define NIU0_NOC_ID_LOGICAL     0xffb20148u
#define NIU1_NOC_ID_LOGICAL     0xffb30148u
#define NIU_NODE_ID(noc)        (0xffb20044u + (noc) * 0x10000u)
#define NIU_ENDPOINT_ID(noc)    (0xffb20048u + (noc) * 0x10000u)
#define NIU_CMD_BUF_AVAIL       0xffb20064u

static const char *roles[5] = { "brisc", "ncrisc", "trisc0", "trisc1",
                                "trisc2" };

/* tt-umd: DRAM bank b, port p at x = b < 4 ? 0 : 9 */
static const int dram_port_y[4][3] = {
    { 0, 1, 11 }, { 2, 10, 3 }, { 9, 4, 8 }, { 5, 7, 6 },
};

static bool is_col(int x, uint32_t harvested)
{
    for (int i = 0; i < 14; i++) {
        if (tt_tensix_cols[i] == x) {
            return !(harvested & (1u << x));
        }
    }
    return false;
}

/* Every (x, y): a core exists iff a Tensix tile is there; tile-major order */
static void check_tiles(QTestState *qts, uint32_t harvested, int expect)
{
    int tiles = 0, index, halted;
    uint64_t pc;

    for (int x = 0; x < 17; x++) {
        for (int y = 0; y < 12; y++) {
            bool tile = is_col(x, harvested) && y >= 2 && y <= 11;

            g_assert_cmpint(tt_cpu(qts, x, y, "brisc", &index, &halted, &pc),
                            ==, tile);
            if (!tile) {
                continue;
            }
            /* column-major tile index, 5 cores per tile */
            g_assert_cmpint(index, ==, tiles * 5);
            g_assert_true(tt_cpu(qts, x, y, "trisc2", &index, &halted, &pc));
            g_assert_cmpint(index, ==, tiles * 5 + 4);
            g_assert_cmpint(halted, ==, 1);
            tiles++;
        }
    }
    g_assert_cmpint(tiles, ==, expect);
}

static void test_p150_tiles(void)
{
    QTestState *qts = qtest_init("-M blackhole");

    check_tiles(qts, 0, 140);
    qtest_quit(qts);
}

static void test_p100a_tiles(void)
{
    QTestState *qts = qtest_init("-M blackhole,board=p100a");

    check_tiles(qts, (1u << 15) | (1u << 16), 120);
    qtest_quit(qts);
}

/* NOC_ID_LOGICAL: translated coordinates; harvested columns move to the end */
static void check_identity(QTestState *qts, uint32_t harvested)
{
    for (int c = 0; c < 14; c++) {
        int x = tt_tensix_cols[c], vx = tt_translated_x(harvested, x);

        if (vx < 0) {
            continue;
        }
        for (int y = 2; y <= 11; y++) {
            uint32_t n0 = tt_readl(qts, x, y, "ncrisc", NIU_NODE_ID(0));
            uint32_t n1 = tt_readl(qts, x, y, "trisc1", NIU_NODE_ID(1));

            g_assert_cmphex(tt_readl(qts, x, y, "brisc", NIU0_NOC_ID_LOGICAL),
                            ==, (y << 6) | vx);
            g_assert_cmphex(tt_readl(qts, x, y, "trisc0", NIU1_NOC_ID_LOGICAL),
                            ==, (y << 6) | vx);
            /* [5:0] x, [11:6] y, [18:12] 17, [25:19] 12, 28 X-first */
            g_assert_cmphex(n0, ==, x | y << 6 | 17 << 12 | 12 << 19 |
                            1u << 28);
            g_assert_cmphex(n1, ==, (16 - x) | (11 - y) << 6 | 17 << 12 |
                            12 << 19);
            g_assert_cmphex(tt_readl(qts, x, y, "brisc", NIU_ENDPOINT_ID(1)),
                            ==, 0x01010000);
            g_assert_cmphex(tt_readl(qts, x, y, "brisc", NIU_CMD_BUF_AVAIL),
                            ==, 0x1f1f1f1f);
        }
    }
}

static void test_noc_id_logical(void)
{
    QTestState *qts = qtest_init("-M blackhole");

    check_identity(qts, 0);
    qtest_quit(qts);
}

static void test_harvested_cols(void)
{
    uint32_t h = (1u << 3) | (1u << 5);
    QTestState *qts = qtest_init("-M blackhole,board=p100a,"
                                 "harvested-tensix-cols=3:5");

    check_tiles(qts, h, 120);
    check_identity(qts, h);
    qtest_quit(qts);
}

/* All three ports of a bank are one store; banks are distinct */
static void check_dram(QTestState *qts, int harvested_bank)
{
    for (int b = 0; b < 8; b++) {
        int x = b < 4 ? 0 : 9;
        uint64_t addr = 0xfffffff0ull - 0x100 * b;

        if (b == harvested_bank) {
            for (int p = 0; p < 3; p++) {
                g_assert_true(tt_readl_fails(qts, x, dram_port_y[b % 4][p],
                                             "-", 0));
            }
            continue;
        }
        tt_writel(qts, x, dram_port_y[b % 4][0], "-", addr, 0xd0000000 | b);
        tt_writel(qts, x, dram_port_y[b % 4][2], "-", 0x40, 0xe0000000 | b);
    }
    for (int b = 0; b < 8; b++) {
        int x = b < 4 ? 0 : 9;
        uint64_t addr = 0xfffffff0ull - 0x100 * b;

        if (b == harvested_bank) {
            continue;
        }
        for (int p = 0; p < 3; p++) {
            int y = dram_port_y[b % 4][p];

            g_assert_cmphex(tt_readl(qts, x, y, "-", addr), ==,
                            0xd0000000 | b);
            g_assert_cmphex(tt_readl(qts, x, y, "-", 0x40), ==,
                            0xe0000000 | b);
        }
    }
}

static void test_dram_ports(void)
{
    QTestState *qts = qtest_init("-M blackhole");

    check_dram(qts, -1);
    qtest_quit(qts);
    qts = qtest_init("-M blackhole,board=p100a,harvested-dram-bank=2,"
                     "harvested-tensix-cols=1:2:3:4:5:6:7:10:11:12:13:14:15");
    check_dram(qts, 2);
    qtest_quit(qts);
}

static void test_roles(void)
{
    QTestState *qts = qtest_init("-M blackhole,harvested-tensix-cols="
                                 "2:3:4:5:6:7:10:11:12:13:14:15:16");
    int index, halted;
    uint64_t pc;

    for (int r = 0; r < 5; r++) {
        g_assert_true(tt_cpu(qts, 1, 11, roles[r], &index, &halted, &pc));
        g_assert_cmpint(index, ==, 9 * 5 + r);
    }
    g_assert_false(tt_cpu(qts, 1, 11, "erisc", &index, &halted, &pc));
    g_assert_false(tt_cpu(qts, 2, 11, "brisc", &index, &halted, &pc));
    g_assert_true(tt_readl_fails(qts, 1, 2, "brisc", 0xffffffffffull));
    qtest_quit(qts);
}

typedef struct BadOption {
    const char *args;
    const char *msg;
} BadOption;

static const BadOption bad_options[] = {
    { "-M blackhole,board=p200", "unknown board 'p200'" },
    { "-M blackhole,harvested-dram-bank=9", "is not 0-7 or none" },
    { "-M blackhole,harvested-dram-bank=3", "a P150 has all 8 GDDR banks" },
    { "-M blackhole,board=p100a,harvested-dram-bank=none",
      "a P100A has one harvested" },
    { "-M blackhole,harvested-tensix-cols=8", "physical Tensix columns" },
    { "-M blackhole,harvested-tensix-cols=3:3", "given twice" },
    { "-M blackhole,harvested-tensix-cols=x", "is not a column number" },
    { "-M blackhole,harvested-tensix-cols=1:2:3:4:5:6:7:10:11:12:13:14:15:16",
      "at least one Tensix column" },
    { "-M blackhole -smp 5", "-smp 5 does not match" },
    { "-M blackhole,board=p100a -smp 140", "-smp 140 does not match" },
    { "-M blackhole,firmware=/nonexistent/fw.elf", "firmware:" },
    { "-M blackhole,firmware=/nonexistent", "firmware:" },
    { "-M blackhole,firmware=/dev/null", "is not a 32-bit little-endian" },
    { "-M blackhole,fw-layout=nope,firmware=/dev/null",
      "unknown layout 'nope'" },
    { "-M blackhole,fw-bank-table=0x200000,firmware=/dev/null",
      "does not fit in L1" },
    { "-M blackhole,fw-ldm-images=1:2,firmware=/dev/null",
      "expected five L1 addresses" },
};

static void test_bad_options(void)
{
    for (int i = 0; i < ARRAY_SIZE(bad_options); i++) {
        g_autofree char *err = NULL;
        int status = tt_run_qemu(bad_options[i].args, &err);

        if (status != 1 || !strstr(err, bad_options[i].msg)) {
            g_test_message("%s: status %d, stderr: %s", bad_options[i].args,
                           status, err);
        }
        g_assert_cmpint(status, ==, 1);
        g_assert_nonnull(strstr(err, bad_options[i].msg));
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/grid/p150-tiles", test_p150_tiles);
    qtest_add_func("/blackhole/grid/p100a-tiles", test_p100a_tiles);
    qtest_add_func("/blackhole/grid/noc-id-logical", test_noc_id_logical);
    qtest_add_func("/blackhole/grid/harvested-cols", test_harvested_cols);
    qtest_add_func("/blackhole/grid/dram-ports", test_dram_ports);
    qtest_add_func("/blackhole/grid/roles", test_roles);
    qtest_add_func("/blackhole/grid/bad-options", test_bad_options);
    return g_test_run();
}
