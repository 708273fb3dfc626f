/*
 * Blackhole Tensix tile: soft reset and reset PCs, per-core LDM, shared L1,
 * slow LDM aliases, wall clock, unmodelled blocks.
 *
 * Register addresses: tt-metal tt_metal/hw/inc/.../blackhole/tensix.h and
 * tt-isa-documentation BlackholeA0/TensixTile (SoftReset.md, BabyRISCV/).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "hw/registerfields.h"
#include "hw/tenstorrent/riscv-debug-regmap.h"
#include "tt-tile-map.h"        /* generated from data/tile-map.yaml */
#include "tt-qtest-util.h"

/* short names for the shared register header's (riscv-debug-regmap.h) */
#define DEBUG_REG(r)            (TT_TILE_DEBUG_REGS_BASE + A_##r)
#define SOFT_RESET_0            DEBUG_REG(SOFT_RESET_0)
#define WALL_CLOCK_L            DEBUG_REG(WALL_CLOCK_L)
#define WALL_CLOCK_1            DEBUG_REG(WALL_CLOCK_1)
#define WALL_CLOCK_H            DEBUG_REG(WALL_CLOCK_H)
#define TRISC_RESET_PC(n)       (DEBUG_REG(TRISC0_RESET_PC) + 4 * (n))
#define TRISC_RESET_PC_OVERRIDE DEBUG_REG(TRISC_RESET_PC_OVERRIDE)
#define NCRISC_RESET_PC         DEBUG_REG(NCRISC_RESET_PC)
#define NCRISC_RESET_PC_OVERRIDE DEBUG_REG(NCRISC_RESET_PC_OVERRIDE)
#define PC_READBACK(role) \
    (TT_TILE_PIC_BASE + A_PC_READBACK_BRISC + 4 * (role))
#define SLOW_LDM(role)          (0xffb14000u + 0x2000u * (role))
#define LDM                     0xffb00000u
#define NOC_NODE_ID             0xffb20044u

/* One column (x = 1): 10 tiles, 50 cores */
#define ONE_COL "-M blackhole,harvested-tensix-cols=" \
                "2:3:4:5:6:7:10:11:12:13:14:15:16"

static const char *roles[5] = { "brisc", "ncrisc", "trisc0", "trisc1",
                                "trisc2" };

static void wait_halted(QTestState *qts, const char *role, int want,
                        uint64_t *pc)
{
    int index, halted = -1;

    /* release and hold are queued to the core's own thread */
    for (int i = 0; i < 1000; i++) {
        g_assert_true(tt_cpu(qts, 1, 2, role, &index, &halted, pc));
        if (halted == want) {
            return;
        }
        g_usleep(1000);
    }
    g_assert_cmpint(halted, ==, want);
}

static void test_reset_power_on(void)
{
    QTestState *qts = qtest_init(ONE_COL);
    uint64_t pc;

    g_assert_cmphex(tt_readl(qts, 1, 2, "brisc", SOFT_RESET_0), ==, 0x47800);
    g_assert_cmphex(tt_readl(qts, 1, 11, "trisc2", SOFT_RESET_0), ==,
                    0x47800);
    for (int r = 0; r < 5; r++) {
        wait_halted(qts, roles[r], 1, &pc);
    }
    qtest_quit(qts);
}

static void test_release_and_hold(void)
{
    QTestState *qts = qtest_init(ONE_COL);
    uint64_t pc;

    /* BRISC only: it starts at 0; the others stay held */
    tt_writel(qts, 1, 2, "ncrisc", SOFT_RESET_0, 0x47000);
    wait_halted(qts, "brisc", 0, &pc);
    g_assert_cmphex(pc, ==, 0);
    wait_halted(qts, "ncrisc", 1, &pc);
    /* bits >= 24 (tt-umd's staggered start bit 31) are ignored */
    tt_writel(qts, 1, 2, "brisc", SOFT_RESET_0, 0x80047000);
    g_assert_cmphex(tt_readl(qts, 1, 2, "brisc", SOFT_RESET_0), ==, 0x47000);

    /* default reset PCs without overrides */
    tt_writel(qts, 1, 2, "brisc", SOFT_RESET_0, 0x0);
    wait_halted(qts, "ncrisc", 0, &pc);
    g_assert_cmphex(pc, ==, 0x12000);
    for (int t = 0; t < 3; t++) {
        wait_halted(qts, roles[2 + t], 0, &pc);
        g_assert_cmphex(pc, ==, 0x6000 + 0x4000 * t);
    }

    /* hold everything, then overrides */
    tt_writel(qts, 1, 2, "brisc", SOFT_RESET_0, 0x47800);
    for (int r = 0; r < 5; r++) {
        wait_halted(qts, roles[r], 1, &pc);
    }
    tt_writel(qts, 1, 2, "brisc", NCRISC_RESET_PC, 0x1230);
    tt_writel(qts, 1, 2, "brisc", NCRISC_RESET_PC_OVERRIDE, 1);
    tt_writel(qts, 1, 2, "brisc", TRISC_RESET_PC(1), 0x4560);
    tt_writel(qts, 1, 2, "brisc", TRISC_RESET_PC_OVERRIDE, 2);
    g_assert_cmphex(tt_readl(qts, 1, 2, "trisc0", TRISC_RESET_PC(1)), ==,
                    0x4560);
    tt_writel(qts, 1, 2, "brisc", SOFT_RESET_0, 0x00800);
    wait_halted(qts, "ncrisc", 0, &pc);
    g_assert_cmphex(pc, ==, 0x1230);
    wait_halted(qts, "trisc1", 0, &pc);
    g_assert_cmphex(pc, ==, 0x4560);
    g_assert_cmphex(tt_readl(qts, 1, 2, "trisc2", PC_READBACK(3)), ==, 0x4560);
    wait_halted(qts, "trisc0", 0, &pc);
    g_assert_cmphex(pc, ==, 0x6000);
    wait_halted(qts, "brisc", 1, &pc);

    /* another tile is unaffected */
    g_assert_cmphex(tt_readl(qts, 1, 3, "brisc", SOFT_RESET_0), ==, 0x47800);
    qtest_quit(qts);
}

static void test_ldm_private(void)
{
    QTestState *qts = qtest_init(ONE_COL);

    for (int r = 0; r < 5; r++) {
        tt_writel(qts, 1, 2, roles[r], LDM + 0x10, 0x1000 + r);
        tt_writel(qts, 1, 3, roles[r], LDM + 0x10, 0x2000 + r);
    }
    for (int r = 0; r < 5; r++) {
        g_assert_cmphex(tt_readl(qts, 1, 2, roles[r], LDM + 0x10), ==,
                        0x1000 + r);
        g_assert_cmphex(tt_readl(qts, 1, 3, roles[r], LDM + 0x10), ==,
                        0x2000 + r);
        /* the slow alias shows the same word to every core */
        g_assert_cmphex(tt_readl(qts, 1, 2, roles[(r + 1) % 5],
                                 SLOW_LDM(r) + 0x10), ==, 0x1000 + r);
    }
    /* BRISC/NCRISC have 8 KiB of LDM, TRISCs 4 KiB */
    tt_writel(qts, 1, 2, "ncrisc", LDM + 0x1ffc, 0xabcd);
    g_assert_cmphex(tt_readl(qts, 1, 2, "ncrisc", LDM + 0x1ffc), ==, 0xabcd);
    g_assert_cmphex(tt_readl(qts, 1, 2, "trisc0", LDM + 0x1ffc), ==, 0);
    qtest_quit(qts);
}

static void test_l1_shared(void)
{
    QTestState *qts = qtest_init(ONE_COL);

    tt_writel(qts, 1, 2, "brisc", 0x100, 0x11111111);
    tt_writel(qts, 1, 3, "trisc1", 0x100, 0x22222222);
    tt_writel(qts, 1, 2, "trisc2", 0x17fffc, 0x33333333);
    for (int r = 0; r < 5; r++) {
        g_assert_cmphex(tt_readl(qts, 1, 2, roles[r], 0x100), ==, 0x11111111);
        g_assert_cmphex(tt_readl(qts, 1, 3, roles[r], 0x100), ==, 0x22222222);
        g_assert_cmphex(tt_readl(qts, 1, 2, roles[r], 0x17fffc), ==,
                        0x33333333);
    }
    g_assert_cmphex(tt_readl(qts, 1, 4, "brisc", 0x100), ==, 0);
    qtest_quit(qts);
}

static void test_wall_clock(void)
{
    QTestState *qts = qtest_init(ONE_COL);
    uint32_t a, b;

    a = tt_readl(qts, 1, 2, "brisc", WALL_CLOCK_L);
    qtest_clock_step(qts, 1000000);     /* 1 ms at 1.35 GHz */
    b = tt_readl(qts, 1, 2, "trisc0", WALL_CLOCK_L);
    g_assert_cmpuint(b - a, >=, 1350000);
    g_assert_cmpuint(b - a, <, 1360000);
    /* the high half is latched by reading the low half */
    qtest_clock_step(qts, 4000000000ull);   /* 5.4e9 ticks: high half 1 */
    g_assert_cmphex(tt_readl(qts, 1, 2, "brisc", WALL_CLOCK_H), ==, 0);
    g_assert_cmphex(tt_readl(qts, 1, 2, "brisc", WALL_CLOCK_1), ==, 1);
    tt_readl(qts, 1, 2, "brisc", WALL_CLOCK_L);
    g_assert_cmphex(tt_readl(qts, 1, 2, "brisc", WALL_CLOCK_H), ==, 1);
    qtest_quit(qts);
}

static void test_unmodelled(void)
{
    g_autofree char *log_path = NULL;
    g_autofree char *log = NULL;
    g_autofree char *mtree = NULL;
    int fd = g_file_open_tmp("tt-tile-test-XXXXXX.log", &log_path, NULL);
    QTestState *qts;

    g_assert(fd >= 0);
    close(fd);
    qts = qtest_initf(ONE_COL " -d unimp,guest_errors -D %s", log_path);
    /* unimplemented registers and blocks read 0, writes are dropped */
    tt_writel(qts, 1, 2, "brisc", 0xffb12000, 0x1234);
    g_assert_cmphex(tt_readl(qts, 1, 2, "brisc", 0xffb12000), ==, 0);
    tt_writel(qts, 1, 2, "brisc", 0xffb11000, 0x1234);
    g_assert_cmphex(tt_readl(qts, 1, 2, "brisc", 0xffb11000), ==, 0);
    g_assert_cmphex(tt_readl(qts, 1, 2, "brisc", 0x20000000), ==, 0);
    /* the unmodelled blocks are QEMU's unimplemented devices, per tile */
    mtree = qtest_hmp(qts, "info mtree");
    g_assert(strstr(mtree, "x1y2-TDMA_RISC"));
    g_assert(strstr(mtree, "x1y2-MAILBOX"));
    /* read-only NIU identity */
    tt_writel(qts, 1, 2, "brisc", NOC_NODE_ID, 0);
    g_assert_cmphex(tt_readl(qts, 1, 2, "brisc", NOC_NODE_ID) & 0xfff, ==,
                    (2 << 6) | 1);
    qtest_quit(qts);
    /* each logged, naming the block and tile, or the tile alone */
    g_assert(g_file_get_contents(log_path, &log, NULL, NULL));
    g_assert(strstr(log, "x1y2-TDMA_RISC: unimplemented device write"));
    g_assert(strstr(log, "x1y2-TDMA_RISC: unimplemented device read"));
    g_assert(strstr(log, "tt-tile: x1y2: read at 0x20000000 hits no block"));
    unlink(log_path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/tile/reset-power-on", test_reset_power_on);
    qtest_add_func("/blackhole/tile/release-and-hold", test_release_and_hold);
    qtest_add_func("/blackhole/tile/ldm-private", test_ldm_private);
    qtest_add_func("/blackhole/tile/l1-shared", test_l1_shared);
    qtest_add_func("/blackhole/tile/wall-clock", test_wall_clock);
    qtest_add_func("/blackhole/tile/unmodelled", test_unmodelled);
    return g_test_run();
}
