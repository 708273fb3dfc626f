/*
 * Blackhole firmware mode: what the machine writes into L1 before it
 * releases BRISC (bank-to-NOC table, JAL, go message, LDM images, reset PCs)
 * and a full boot of the project's boot-protocol firmware on every tile.
 *
 * The expected bank table is built here from the algorithm of blackhole-py
 * build_bank_noc_table and tt-metal noc_bank_table_init(), independently of
 * hw/tenstorrent/grid.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "tt-qtest-util.h"

/* fw-layout=tt-test (same addresses as tt-metal 0079e94) */
#define BANK_TABLE      0x12f00u
#define L2V_TABLE       0x13700u
#define GO_MSG          0x470u
#define SUB_SYNC        0x68u
#define LDM_IMAGE_NC    0xbf00u
#define RESULT(role)    (0x20000u + 4 * (role))
#define RESULT_TILE     0x20014u
#define SOFT_RESET_0    0xffb121b0u
#define NCRISC_RESET_PC 0xffb12238u
#define TRISC_RESET_PC(n) (0xffb12228u + 4 * (n))

static const char *roles[5] = { "brisc", "ncrisc", "trisc0", "trisc1",
                                "trisc2" };

/* Translated (x, y0) of software bank b with physical bank h harvested */
static void bank_xy(int h, int b, int *x, int *y0)
{
    int right[8], left[8], nr = 0, nl = 0, mirror;

    if (h < 0) {
        *x = b < 4 ? 17 : 18;
        *y0 = 12 + (b % 4) * 3;
        return;
    }
    mirror = h < 4 ? h + 3 : h - 4;
    if (h < 4) {
        for (int i = 0; i < 3; i++) {
            right[nr++] = i;
        }
        for (int i = 3; i < 7; i++) {
            if (i != mirror) {
                left[nl++] = i;
            }
        }
    } else {
        for (int i = 0; i < 4; i++) {
            if (i != mirror) {
                left[nl++] = i;
            }
        }
        for (int i = 4; i < 7; i++) {
            right[nr++] = i;
        }
    }
    left[nl++] = mirror;
    for (int i = 0; i < nr; i++) {
        if (right[i] == b) {
            *x = 18;
            *y0 = 12 + 3 * i;
            return;
        }
    }
    for (int i = 0; i < nl; i++) {
        if (left[i] == b) {
            *x = 17;
            *y0 = 12 + 3 * i;
            return;
        }
    }
    g_assert_not_reached();
}

static const int bank_port[8][2] = {
    { 2, 1 }, { 0, 1 }, { 0, 1 }, { 0, 1 }, { 2, 1 }, { 2, 1 }, { 2, 1 },
    { 2, 1 },
};

static size_t expected_table(int h, int ndram, int ncols, uint8_t *buf)
{
    int nl1 = ncols * 10, x, y0;
    uint8_t *p = buf;

    for (int noc = 0; noc < 2; noc++) {
        for (int b = 0; b < ndram; b++) {
            bank_xy(h, b, &x, &y0);
            stw_le_p(p, ((y0 + bank_port[b][noc]) << 6) | x);
            p += 2;
        }
    }
    for (int noc = 0; noc < 2; noc++) {
        for (int i = 0; i < nl1; i++) {
            /* translated columns are dense: 1..7, 10.. */
            int vx = tt_tensix_cols[i % ncols];

            stw_le_p(p, ((2 + (i / ncols) % 10) << 6) | vx);
            p += 2;
        }
    }
    memset(p, 0, 4 * (ndram + nl1));
    return p + 4 * (ndram + nl1) - buf;
}

static QTestState *boot_fw(const char *board_opts, const char *accel)
{
    return qtest_initf("-M blackhole,firmware=%s/boot,fw-layout=tt-test%s %s",
                       tt_firmware_dir(), board_opts, accel);
}

static void check_table(QTestState *qts, int h, int ndram, int ncols,
                        int x, int y)
{
    uint8_t want[4096], got[4096];
    size_t len = expected_table(h, ndram, ncols, want);

    tt_read(qts, x, y, "brisc", BANK_TABLE, got, len);
    g_assert_cmpmem(got, len, want, len);
}

static void test_bank_table_p150(void)
{
    QTestState *qts = boot_fw("", "");

    check_table(qts, -1, 8, 14, 1, 2);
    check_table(qts, -1, 8, 14, 16, 11);
    qtest_quit(qts);
}

static void test_bank_table_p100a(void)
{
    for (int h = 0; h < 8; h++) {
        g_autofree char *opts = g_strdup_printf(",board=p100a,"
                                                "harvested-dram-bank=%d", h);
        QTestState *qts = boot_fw(opts, "");

        check_table(qts, h, 7, 12, 14, 7);
        qtest_quit(qts);
    }
}

/* JAL, go message, logical-to-virtual tables, LDM images, reset PCs */
static void test_boot_state(void)
{
    QTestState *qts = boot_fw(",board=p100a,harvested-tensix-cols=2:16", "");
    uint8_t l2v[32], want[32] = { 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14 };

    for (int j = 0; j < 10; j++) {
        want[20 + j] = 2 + j;
    }
    /* jal x0, 0x4000 (BRISC firmware base of the tt-test layout) */
    g_assert_cmphex(tt_readl(qts, 3, 5, "brisc", 0), ==, 0x0000406f);
    g_assert_cmphex(tt_readl(qts, 3, 5, "ncrisc", GO_MSG) >> 24, ==, 0x40);
    tt_read(qts, 15, 11, "trisc0", L2V_TABLE, l2v, sizeof(l2v));
    g_assert_cmpmem(l2v, sizeof(l2v), want, sizeof(want));
    /* boot-fw.c's "salt", NCRISC's only LDM word, in its LDM image */
    g_assert_cmphex(tt_readl(qts, 3, 5, "brisc", LDM_IMAGE_NC), ==,
                    0x9e3779b9);
    g_assert_cmphex(tt_readl(qts, 3, 5, "brisc", NCRISC_RESET_PC), ==, 0x5800);
    g_assert_cmphex(tt_readl(qts, 3, 5, "brisc", TRISC_RESET_PC(2)), ==,
                    0x7000);
    g_assert_cmphex(tt_readl(qts, 3, 5, "brisc", SOFT_RESET_0), ==, 0x47000);
    qtest_quit(qts);
}

/* boot-fw.c's checksum, WORK = 64 */
static uint32_t work(uint32_t id, int role)
{
    uint32_t x = (id * 5 + role) ^ 0x9e3779b9u, acc = 0;

    for (int i = 0; i < 64; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        acc = acc * 31 + x;
    }
    return acc;
}

static void boot_all(const char *opts, uint32_t harvested, int expect)
{
    QTestState *qts = boot_fw(opts, "-accel tcg");
    int tiles = 0;

    for (int c = 0; c < 14; c++) {
        int x = tt_tensix_cols[c], vx = tt_translated_x(harvested, x);

        if (vx < 0) {
            continue;
        }
        for (int y = 2; y <= 11; y++) {
            uint32_t id = (y << 6) | vx;
            gint64 end = g_get_monotonic_time() + 600 * G_TIME_SPAN_SECOND;

            /* BRISC writes RUN_MSG_DONE once all four subordinates did */
            while (tt_readl(qts, x, y, "brisc", GO_MSG) >> 24 != 0) {
                g_assert_cmpint(g_get_monotonic_time(), <, end);
                g_usleep(10000);
            }
            g_assert_cmphex(tt_readl(qts, x, y, "brisc", SUB_SYNC), ==, 0);
            g_assert_cmphex(tt_readl(qts, x, y, "brisc", RESULT_TILE), ==, id);
            for (int r = 0; r < 5; r++) {
                g_assert_cmphex(tt_readl(qts, x, y, roles[r], RESULT(r)), ==,
                                work(id, r));
            }
            tiles++;
        }
    }
    g_assert_cmpint(tiles, ==, expect);
    qtest_quit(qts);
}

static void test_boot_p150(void)
{
    boot_all("", 0, 140);
}

static void test_boot_p100a(void)
{
    boot_all(",board=p100a", (1u << 15) | (1u << 16), 120);
}

#define LAUNCHES            0x20020u
#define LAUNCH_RESULT(r)    (0x20024u + 4 * (r))

/*
 * Host handshakes with parked cores: after boot every core of the tt-test
 * firmware polls its mailbox (BRISC the go message, the others their
 * subordinate_sync byte).  The host sends RUN_MSG_GO to one tile after
 * another; each launch wakes BRISC, whose stores wake the other four, and
 * every core's result must be this launch's.
 */
static void host_launches(const char *opts, uint32_t harvested, int launches)
{
    QTestState *qts = boot_fw(opts, "-accel tcg");
    int xs[14], nx = 0, count[14][12] = { };

    for (int c = 0; c < 14; c++) {
        if (tt_translated_x(harvested, tt_tensix_cols[c]) >= 0) {
            xs[nx++] = tt_tensix_cols[c];
        }
    }
    for (int i = 0; i < launches + nx * 10; i++) {
        int x = xs[(i / 10) % nx], y = 2 + i % 10, n;
        uint32_t go, id = (y << 6) | tt_translated_x(harvested, x);
        gint64 end = g_get_monotonic_time() + 120 * G_TIME_SPAN_SECOND;

        while ((go = tt_readl(qts, x, y, "brisc", GO_MSG)) >> 24 != 0) {
            g_assert_cmpint(g_get_monotonic_time(), <, end);
        }
        if (i < nx * 10) {
            continue;               /* the first pass waits for the boot */
        }
        n = ++count[(i / 10) % nx][y];
        tt_writel(qts, x, y, "brisc", GO_MSG, (go & 0xffffff) | 0x80u << 24);
        while (tt_readl(qts, x, y, "brisc", GO_MSG) >> 24 != 0) {
            g_assert_cmpint(g_get_monotonic_time(), <, end);
        }
        g_assert_cmpint(tt_readl(qts, x, y, "brisc", LAUNCHES), ==, n);
        for (int r = 0; r < 5; r++) {
            g_assert_cmphex(tt_readl(qts, x, y, roles[r], LAUNCH_RESULT(r)),
                            ==, work(id ^ n, r));
        }
    }
    qtest_quit(qts);
}

/* Two columns, parking on: 400 launches */
static void test_host_launches(void)
{
    host_launches(",harvested-tensix-cols=3:4:5:6:7:10:11:12:13:14:15:16",
                  0x1fcf8, 400);
}

/* The same with parking off, one column only (spinning cores are slow) */
static void test_host_launches_nopark(void)
{
    host_launches(",spin-park=off,harvested-tensix-cols="
                  "2:3:4:5:6:7:10:11:12:13:14:15:16", 0x1fcfc, 20);
}

/*
 * deterministic=on: two runs of the spin-parking stress on two tiles park
 * and wake the same cores in the same order (every park and wake traced),
 * and both pass.
 */
static void test_deterministic(void)
{
    g_autofree char *args = g_strdup_printf(
        "-M blackhole,deterministic=on,firmware=%s/spin-test-2.elf,"
        "harvested-tensix-cols=2:3:4:5:6:7:10:11:12:13:14:15:16 "
        "-semihosting-config enable=on,target=native "
        "-d trace:tt_spin_park,trace:tt_spin_wake", tt_firmware_dir());
    g_autofree char *first = NULL, *second = NULL;

    g_assert_cmpint(tt_run_qemu(args, &first), ==, 0);
    g_assert_cmpint(tt_run_qemu(args, &second), ==, 0);
    g_assert_nonnull(strstr(first, "tt_spin_park"));
    g_assert_nonnull(strstr(first, "ok 3 "));
    g_assert_cmpstr(first, ==, second);
}

/*
 * -device loader writes into one core's view and leaves the core held;
 * released, it starts at its reset PC, not at the ELF entry.
 */
static void test_generic_loader(void)
{
    QTestState *qts = qtest_initf("-M blackhole,harvested-tensix-cols="
                                  "2:3:4:5:6:7:10:11:12:13:14:15:16 "
                                  "-device loader,file=%s/core-test.elf,"
                                  "cpu-num=6", tt_firmware_dir());
    int index, halted;
    uint64_t pc;

    /* cpu 6 = tile 1 (x1y3) NCRISC; core-test.elf: "li a0, 1" at 0x12000 */
    g_assert_cmphex(tt_readl(qts, 1, 3, "brisc", 0x12000), ==, 0x00100513);
    g_assert_cmphex(tt_readl(qts, 1, 2, "brisc", 0x12000), ==, 0);
    g_assert_true(tt_cpu(qts, 1, 3, "ncrisc", &index, &halted, &pc));
    g_assert_cmpint(index, ==, 6);
    g_assert_cmpint(halted, ==, 1);
    tt_writel(qts, 1, 3, "brisc", SOFT_RESET_0, 0x07800);
    for (int i = 0; i < 1000 && halted; i++) {
        g_usleep(1000);
        g_assert_true(tt_cpu(qts, 1, 3, "ncrisc", &index, &halted, &pc));
    }
    g_assert_cmpint(halted, ==, 0);
    g_assert_cmphex(pc, ==, 0x12000);
    qtest_quit(qts);
}

/* A firmware directory with a missing ELF, an ELF outside memory */
static void test_bad_firmware(void)
{
    g_autofree char *dir = g_dir_make_tmp("tt-fw-XXXXXX", NULL);
    g_autofree char *brisc = g_build_filename(dir, "brisc.elf", NULL);
    g_autofree char *bad = g_build_filename(dir, "bad.elf", NULL);
    g_autofree char *src = g_strdup_printf("%s/boot/brisc.elf",
                                           tt_firmware_dir());
    g_autofree char *args = NULL;
    g_autofree char *err = NULL;
    g_autofree gchar *elf = NULL;
    gsize len;
    /* ELF32 LE RISC-V EXEC header, one PT_LOAD of 4 bytes at 0x80000000 */
    uint8_t img[0x58] = {
        0x7f, 'E', 'L', 'F', 1, 1, 1, 0, [16] = 2, 0, 0xf3, 0, 1, 0, 0, 0,
        [28] = 0x34, [40] = 0x34, 0, 0x20, 0, 1, 0,
        [0x34] = 1, [0x38] = 0x54, [0x3c] = 0, 0, 0, 0x80, [0x40] = 0, 0, 0,
        0x80, [0x44] = 4, [0x48] = 4,
    };

    g_assert_true(g_file_get_contents(src, &elf, &len, NULL));
    g_assert_true(g_file_set_contents(brisc, elf, len, NULL));
    args = g_strdup_printf("-M blackhole,firmware=%s", dir);
    g_assert_cmpint(tt_run_qemu(args, &err), ==, 1);
    g_assert_nonnull(strstr(err, "ncrisc.elf"));
    g_free(args);
    g_free(err);
    g_assert_true(g_file_set_contents(bad, (char *)img, sizeof(img), NULL));
    args = g_strdup_printf("-M blackhole,firmware=%s", bad);
    g_assert_cmpint(tt_run_qemu(args, &err), ==, 1);
    g_assert_nonnull(strstr(err, "outside the brisc's memory"));
    unlink(brisc);
    unlink(bad);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/firmware/bank-table-p150",
                   test_bank_table_p150);
    qtest_add_func("/blackhole/firmware/bank-table-p100a",
                   test_bank_table_p100a);
    qtest_add_func("/blackhole/firmware/boot-state", test_boot_state);
    qtest_add_func("/blackhole/firmware/generic-loader", test_generic_loader);
    qtest_add_func("/blackhole/firmware/bad-firmware", test_bad_firmware);
    qtest_add_func("/blackhole/firmware/boot-p150", test_boot_p150);
    qtest_add_func("/blackhole/firmware/host-launches", test_host_launches);
    qtest_add_func("/blackhole/firmware/deterministic", test_deterministic);
    qtest_add_func("/blackhole/firmware/host-launches-nopark",
                   test_host_launches_nopark);
    qtest_add_func("/blackhole/firmware/boot-p100a", test_boot_p100a);
    return g_test_run();
}
