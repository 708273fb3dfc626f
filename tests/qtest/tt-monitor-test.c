/*
 * Blackhole "info tt" and the hang report, on a tile in a known state:
 * tests/firmware/hang-test.c deadlocks TRISC0 behind a SEMWAIT nothing
 * posts (then in a TTSync load), parks TRISC1 on a flag, holds mutex 2 in
 * thread 2, runs thread 2's address counter and register window
 * instructions to values worked out by hand (hang-test.c) and leaves CB
 * stream 3 at 7 acked / 9 received.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include <glib-unix.h>
#include "tt-qtest-util.h"

#define ONE_COLUMN  "harvested-tensix-cols=2:3:4:5:6:7:10:11:12:13:14:15:16"

/* Ask "info tt" until @want and @also show up (cores get there in time) */
static char *info_until(QTestState *q, const char *cmd, const char *want,
                        const char *also)
{
    for (int i = 0; i < 2000; i++) {
        char *out = qtest_hmp(q, "%s", cmd);

        if (strstr(out, want) && (!also || strstr(out, also))) {
            return out;
        }
        g_free(out);
        g_usleep(10000);
    }
    g_error("'%s' never showed '%s' and '%s'", cmd, want, also);
}

static void test_info_tt(void)
{
    QTestState *q = qtest_initf("-M blackhole,firmware=%s/hang-test.elf,"
                                ONE_COLUMN " -accel tcg", tt_firmware_dir());
    /* the other tiles' cores reach wfi on their own time */
    g_autofree char *sum = info_until(q, "info tt", "Blackhole P150, 10 "
                                      "tiles: 0 busy, 9 idle, 1 blocked, 0 "
                                      "in reset", NULL);
    g_autofree char *tile = info_until(q, "info tt 1 2", "8 executed",
                                       "waiting for TTSync");
    g_autofree char *none = qtest_hmp(q, "info tt 0 0");

    g_assert_nonnull(strstr(sum, "x1y2: blocked"));
    g_assert_nonnull(strstr(tile, "trisc0 "));
    g_assert_nonnull(strstr(tile, "waiting for TTSync (thread draining) "
                            "(thread 0)"));
    g_assert_nonnull(strstr(tile, "gate held by SEMWAIT (block 0x1ff, cond "
                            "0x1, sems 0x20"));
    g_assert_nonnull(strstr(tile, "next SETDMAREG"));
    g_assert_nonnull(strstr(tile, " 0/15 "));          /* semaphore 5 */
    g_assert_nonnull(strstr(tile, "2:T2"));            /* mutex 2 */
    g_assert_nonnull(strstr(tile, "CB streams (tiles acked/received): "
                            "3:7/9"));
    /* thread 2's counters (the only thread that set any) */
    g_assert_nonnull(strstr(tile, "RWC srca 5/3 srcb 3/2 dst 9/9 "
                            "fidelity 0"));
    g_assert_nonnull(strstr(tile, "ADC unp0: ch0 x69 y0 z0 w0, ch1 x291 y0 "
                            "z0 w0"));
    g_assert_nonnull(strstr(tile, "ADC unp1: ch0 x0 y0 z3 w4, ch1 x0 y341 "
                            "z0 w0"));
    g_assert_nonnull(strstr(tile, "ADC pack: ch0 x13 y7 z0 w0, ch1 x3 y4 "
                            "z0 w0"));
    g_assert_nonnull(strstr(none, "no Tensix or Ethernet tile at physical "
                            "(0, 0)"));
    qtest_quit(q);
}

/*
 * hang-report=1: the summary, and each blocked tile as "info tt X Y" shows
 * it, reach stderr once nothing runs
 */
static void test_hang_report(void)
{
    const char *bin = g_getenv("QTEST_QEMU_BINARY");
    g_autofree char *fw = g_strdup_printf("blackhole,firmware=%s/hang-test."
                                          "elf," ONE_COLUMN ",hang-report=1",
                                          tt_firmware_dir());
    const char *argv[] = { bin, "-M", fw, "-display", "none", "-monitor",
                           "none", "-serial", "none", NULL };
    g_autoptr(GError) err = NULL;
    g_autoptr(GString) out = g_string_new(NULL);
    GPid pid;
    int fd;
    char buf[4096];
    ssize_t n;

    g_assert(bin);
    g_assert(g_spawn_async_with_pipes(NULL, (char **)argv, NULL,
                                      G_SPAWN_DO_NOT_REAP_CHILD |
                                      G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                                      &pid, NULL, NULL, &fd, &err));
    g_unix_set_fd_nonblocking(fd, true, NULL);
    for (int i = 0; i < 3000 && !strstr(out->str, "(\"info tt X Y\""); i++) {
        while ((n = read(fd, buf, sizeof(buf))) > 0) {
            g_string_append_len(out, buf, n);
        }
        g_usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    g_spawn_close_pid(pid);
    close(fd);
    g_assert_nonnull(strstr(out->str, "blackhole: no progress for 1 s"));
    g_assert_nonnull(strstr(out->str, "x1y2: blocked"));
    g_assert_nonnull(strstr(out->str, "tile x1y2 (translated x1y2): "
                            "blocked"));
    g_assert_nonnull(strstr(out->str, "semaphores (value/max):"));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/tt/monitor/info-tt", test_info_tt);
    qtest_add_func("/tt/monitor/hang-report", test_hang_report);
    return g_test_run();
}
