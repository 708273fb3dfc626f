/*
 * Helpers for the Blackhole qtests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "tt-qtest-util.h"

const int tt_tensix_cols[14] = { 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14,
                                 15, 16 };

int tt_translated_x(uint32_t harvested, int x)
{
    int vcol = 0;

    if (harvested & (1u << x)) {
        return -1;
    }
    for (int c = 0; c < 14 && tt_tensix_cols[c] != x; c++) {
        vcol += !(harvested & (1u << tt_tensix_cols[c]));
    }
    return tt_tensix_cols[vcol];
}

static gchar **tt_ok(QTestState *qts, gchar **w, const char *cmd)
{
    if (!w[0] || strcmp(w[0], "OK") != 0) {
        g_autofree char *reply = g_strjoinv(" ", w);

        g_error("'%s' answered '%s'", cmd, reply);
    }
    return w;
}

/* "X Y ROLE" or "bar N -": what a tt command reaches */
#define TT_TARGET(x, y, role) g_strdup_printf("%d %d %s", x, y, role)
#define TT_BAR(bar) g_strdup_printf("bar %d -", bar)

static uint32_t tt_readl_t(QTestState *qts, const char *t, uint64_t addr)
{
    g_autofree char *cmd = g_strdup_printf("tt readl %s 0x%" PRIx64, t,
                                           addr);
    g_auto(GStrv) w = tt_ok(qts, qtest_raw_cmd(qts, "%s", cmd), cmd);
    uint64_t v;

    g_assert(w[1]);
    g_assert_cmpint(qemu_strtou64(w[1], NULL, 0, &v), ==, 0);
    return v;
}

static bool tt_readl_fails_t(QTestState *qts, const char *t, uint64_t addr)
{
    g_auto(GStrv) w = qtest_raw_cmd(qts, "tt readl %s 0x%" PRIx64, t, addr);

    return w[0] && !strcmp(w[0], "FAIL");
}

static void tt_writel_t(QTestState *qts, const char *t, uint64_t addr,
                        uint32_t val)
{
    g_autofree char *cmd = g_strdup_printf("tt writel %s 0x%" PRIx64 " 0x%x",
                                           t, addr, val);
    g_auto(GStrv) w = tt_ok(qts, qtest_raw_cmd(qts, "%s", cmd), cmd);
}

static void tt_read_t(QTestState *qts, const char *t, uint64_t addr,
                      void *buf, size_t len)
{
    g_autofree char *cmd = g_strdup_printf("tt read %s 0x%" PRIx64 " %zu", t,
                                           addr, len);
    g_auto(GStrv) w = tt_ok(qts, qtest_raw_cmd(qts, "%s", cmd), cmd);
    uint8_t *p = buf;

    g_assert(w[1] && strlen(w[1]) == 2 + 2 * len);
    for (size_t i = 0; i < len; i++) {
        int hi = g_ascii_xdigit_value(w[1][2 + 2 * i]);
        int lo = g_ascii_xdigit_value(w[1][3 + 2 * i]);

        g_assert(hi >= 0 && lo >= 0);
        p[i] = hi << 4 | lo;
    }
}

static void tt_write_t(QTestState *qts, const char *t, uint64_t addr,
                       const void *buf, size_t len)
{
    GString *cmd = g_string_new("");
    const uint8_t *p = buf;
    gchar **w;

    g_string_printf(cmd, "tt write %s 0x%" PRIx64 " %zu 0x", t, addr, len);
    for (size_t i = 0; i < len; i++) {
        g_string_append_printf(cmd, "%02x", p[i]);
    }
    w = tt_ok(qts, qtest_raw_cmd(qts, "%s", cmd->str), cmd->str);
    g_strfreev(w);
    g_string_free(cmd, true);
}

uint32_t tt_readl(QTestState *qts, int x, int y, const char *role,
                  uint64_t addr)
{
    g_autofree char *t = TT_TARGET(x, y, role);

    return tt_readl_t(qts, t, addr);
}

bool tt_readl_fails(QTestState *qts, int x, int y, const char *role,
                    uint64_t addr)
{
    g_autofree char *t = TT_TARGET(x, y, role);

    return tt_readl_fails_t(qts, t, addr);
}

void tt_writel(QTestState *qts, int x, int y, const char *role,
               uint64_t addr, uint32_t val)
{
    g_autofree char *t = TT_TARGET(x, y, role);

    tt_writel_t(qts, t, addr, val);
}

void tt_read(QTestState *qts, int x, int y, const char *role, uint64_t addr,
             void *buf, size_t len)
{
    g_autofree char *t = TT_TARGET(x, y, role);

    tt_read_t(qts, t, addr, buf, len);
}

void tt_write(QTestState *qts, int x, int y, const char *role, uint64_t addr,
              const void *buf, size_t len)
{
    g_autofree char *t = TT_TARGET(x, y, role);

    tt_write_t(qts, t, addr, buf, len);
}

uint32_t tt_bar_readl(QTestState *qts, int bar, uint64_t off)
{
    g_autofree char *t = TT_BAR(bar);

    return tt_readl_t(qts, t, off);
}

bool tt_bar_readl_fails(QTestState *qts, int bar, uint64_t off)
{
    g_autofree char *t = TT_BAR(bar);

    return tt_readl_fails_t(qts, t, off);
}

void tt_bar_writel(QTestState *qts, int bar, uint64_t off, uint32_t val)
{
    g_autofree char *t = TT_BAR(bar);

    tt_writel_t(qts, t, off, val);
}

void tt_bar_read(QTestState *qts, int bar, uint64_t off, void *buf,
                 size_t len)
{
    g_autofree char *t = TT_BAR(bar);

    tt_read_t(qts, t, off, buf, len);
}

void tt_bar_write(QTestState *qts, int bar, uint64_t off, const void *buf,
                  size_t len)
{
    g_autofree char *t = TT_BAR(bar);

    tt_write_t(qts, t, off, buf, len);
}

bool tt_cpu(QTestState *qts, int x, int y, const char *role, int *index,
            int *halted, uint64_t *pc)
{
    g_auto(GStrv) w = qtest_raw_cmd(qts, "tt cpu %d %d %s", x, y, role);
    uint64_t v;

    if (!w[0] || strcmp(w[0], "OK") != 0) {
        return false;
    }
    g_assert(w[1] && w[2] && w[3]);
    *index = atoi(w[1]);
    *halted = atoi(w[2]);
    g_assert_cmpint(qemu_strtou64(w[3], NULL, 0, &v), ==, 0);
    *pc = v;
    return true;
}

int tt_run_qemu(const char *args, char **err)
{
    const char *bin = g_getenv("QTEST_QEMU_BINARY");
    g_autofree char *cmd = g_strdup_printf("%s -display none -monitor none "
                                           "-serial none %s", bin, args);
    g_autoptr(GError) gerr = NULL;
    g_auto(GStrv) argv = NULL;
    int status;

    g_assert(bin);
    g_assert(g_shell_parse_argv(cmd, NULL, &argv, NULL));
    g_assert(g_spawn_sync(NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
                          NULL, NULL, err, &status, &gerr));
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const char *tt_firmware_dir(void)
{
    const char *d = g_getenv("TT_FIRMWARE_DIR");

    return d ? d : "../firmware";
}

void tt_tlb_2m(QTestState *q, int n, uint64_t addr, int xs, int ys,
               int xe, int ye, int noc, int mcast)
{
    uint64_t off = addr >> 21;

    tt_bar_writel(q, 0, TT_TLB_CFG + 12 * n, off);
    tt_bar_writel(q, 0, TT_TLB_CFG + 12 * n + 4, (off >> 32 & 0x7ff) |
                  xe << 11 | ye << 17 | xs << 23 | (ys & 7) << 29);
    tt_bar_writel(q, 0, TT_TLB_CFG + 12 * n + 8,
                  ys >> 3 | noc << 3 | mcast << 5 | 1 << 6 /* strict */);
}
