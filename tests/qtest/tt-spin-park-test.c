/*
 * Blackhole spin parking (spin-park.c), with running cores: the project's
 * echo firmware (tests/firmware/park-echo.c) polls an L1 word on every
 * BRISC.  A polling core parks (its vCPU halts), a host write or a NOC
 * write to the word wakes it to answer and it parks again, no wake-up is
 * lost over many rounds, a core whose loop stores on every iteration never
 * parks, and with spin-park=off a polling core keeps running and still
 * answers.  The machine runs under TCG with the qtest protocol beside it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "tt-niu-cmd.h"

#define ELF         "park-echo.elf"
#define ROUNDS      200
#define WAIT_MS     20000

/* one Tensix column, physical x = 1 */
#define ONE_COL "harvested-tensix-cols=2:3:4:5:6:7:10:11:12:13:14:15:16"
/* two columns: physical x = 1 and x = 16 (translated 1 and 2) */
#define TWO_COLS "harvested-tensix-cols=2:3:4:5:6:7:10:11:12:13:14:15"

static uint32_t cmd_addr, ans_addr, count_addr, busy_addr;

static QTestState *start(const char *opts)
{
    cmd_addr = tt_firmware_symbol(ELF, "echo_cmd");
    ans_addr = tt_firmware_symbol(ELF, "echo_ans");
    count_addr = tt_firmware_symbol(ELF, "echo_count");
    busy_addr = tt_firmware_symbol(ELF, "echo_busy");
    return qtest_initf("-M blackhole,firmware=%s/%s,%s -accel tcg",
                       tt_firmware_dir(), ELF, opts);
}

static bool halted(QTestState *q, int x, int y)
{
    int index, h;
    uint64_t pc;

    g_assert_true(tt_cpu(q, x, y, "brisc", &index, &h, &pc));
    return h;
}

/* wait until tile (@x, @y)'s BRISC is parked; false on timeout */
static bool wait_parked(QTestState *q, int x, int y)
{
    for (int ms = 0; ms < WAIT_MS; ms++) {
        if (halted(q, x, y)) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

static void wait_answer(QTestState *q, int x, int y, uint32_t v)
{
    for (int ms = 0; ms < WAIT_MS; ms++) {
        if (tt_readl(q, x, y, "brisc", ans_addr) == 3 * v + 1) {
            return;
        }
        g_usleep(ms < 10 ? 100 : 1000);
    }
    g_assert_cmphex(tt_readl(q, x, y, "brisc", ans_addr), ==, 3 * v + 1);
}

/* A polling core parks; host writes wake it, every one answered */
static void test_host_wakes(void)
{
    QTestState *q = start(ONE_COL);

    g_assert_true(wait_parked(q, 1, 2));
    g_assert_cmpuint(tt_readl(q, 1, 2, "brisc", count_addr), ==, 0);
    for (uint32_t v = 1; v <= ROUNDS; v++) {
        tt_writel(q, 1, 2, "brisc", cmd_addr, v);
        wait_answer(q, 1, 2, v);
    }
    g_assert_cmpuint(tt_readl(q, 1, 2, "brisc", count_addr), ==, ROUNDS);
    g_assert_true(wait_parked(q, 1, 2));
    /* the other tiles' cores parked too, untouched */
    g_assert_true(wait_parked(q, 1, 11));
    g_assert_cmpuint(tt_readl(q, 1, 11, "brisc", count_addr), ==, 0);
    qtest_quit(q);
}

/* A NOC write from another tile wakes the parked core */
static void test_noc_wakes(void)
{
    QTestState *q = start(TWO_COLS);

    g_assert_true(wait_parked(q, 16, 3));
    for (uint32_t v = 1; v <= ROUNDS / 4; v++) {
        tt_writel(q, 1, 2, "ncrisc", 0x7f000, v);
        /* posted write of (1, 2)'s word to translated (2, 3) */
        tt_niu_issue(q, 0, 0, WR, 0x7f000, XY(1, 2), cmd_addr, XY(2, 3), 4);
        wait_answer(q, 16, 3, v);
    }
    g_assert_true(wait_parked(q, 16, 3));
    g_assert_cmpuint(tt_readl(q, 16, 3, "brisc", count_addr), ==, ROUNDS / 4);
    qtest_quit(q);
}

/* A loop that stores on every iteration is not polling: it never parks */
static void test_busy_runs(void)
{
    QTestState *q = start(ONE_COL);
    uint32_t before;

    g_assert_true(wait_parked(q, 1, 3));
    tt_writel(q, 1, 3, "brisc", cmd_addr,
              tt_readl(q, 1, 3, "brisc",
                       tt_firmware_symbol(ELF, "echo_busy_cmd")));
    for (int ms = 0; ms < WAIT_MS &&
         !tt_readl(q, 1, 3, "brisc", busy_addr); ms++) {
        g_usleep(1000);
    }
    /* it keeps counting: never halted, progress at every sample */
    for (int i = 0; i < 50; i++) {
        int ms = 0;

        before = tt_readl(q, 1, 3, "brisc", busy_addr);
        g_usleep(2000);
        g_assert_false(halted(q, 1, 3));
        while (tt_readl(q, 1, 3, "brisc", busy_addr) == before &&
               ms++ < WAIT_MS) {
            g_usleep(1000);
        }
        g_assert_cmpuint(tt_readl(q, 1, 3, "brisc", busy_addr), !=, before);
    }
    qtest_quit(q);
}

/* spin-park=off: the polling core keeps running and still answers */
static void test_park_off(void)
{
    QTestState *q = start(ONE_COL ",spin-park=off");

    for (uint32_t v = 1; v <= 20; v++) {
        tt_writel(q, 1, 2, "brisc", cmd_addr, v);
        wait_answer(q, 1, 2, v);
    }
    /* out of reset (it answered), polling, never halted */
    for (int i = 0; i < 50; i++) {
        g_usleep(2000);
        g_assert_false(halted(q, 1, 2));
    }
    qtest_quit(q);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/spin-park/host-wakes", test_host_wakes);
    qtest_add_func("/blackhole/spin-park/noc-wakes", test_noc_wakes);
    qtest_add_func("/blackhole/spin-park/busy-runs", test_busy_runs);
    qtest_add_func("/blackhole/spin-park/park-off", test_park_off);
    return g_test_run();
}
