/*
 * Helpers for the Blackhole qtests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "elf.h"
#include "qemu/cutils.h"
#include "tt-qtest-util.h"
#include "qemu/bswap.h"
#include "tt-tensix-enc.h"      /* generated from data/tensix-isa.yaml */
#include "tt-tensix-config.h"   /* generated from data/tensix-config.yaml */
#include "tt-tile-map.h"        /* generated from data/tile-map.yaml */
#include "tt-grid.h"            /* generated from data/grid.yaml */

const int tt_tensix_cols[14] = TT_GRID_TENSIX_COLS_INIT;

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

uint32_t tt_firmware_symbol(const char *elf, const char *name)
{
    g_autofree char *path = g_build_filename(tt_firmware_dir(), elf, NULL);
    g_autofree gchar *img = NULL;
    const Elf32_Ehdr *eh;
    gsize len;

    g_assert_true(g_file_get_contents(path, &img, &len, NULL));
    eh = (const Elf32_Ehdr *)img;
    g_assert_true(len >= sizeof(*eh) && !memcmp(eh->e_ident, ELFMAG, SELFMAG));
    g_assert_cmpuint(eh->e_ident[EI_CLASS], ==, ELFCLASS32);
    g_assert_cmpuint((uint64_t)eh->e_shoff + (uint64_t)eh->e_shnum *
                     sizeof(Elf32_Shdr), <=, len);
    for (int i = 0; i < eh->e_shnum; i++) {
        const Elf32_Shdr *sh = (const Elf32_Shdr *)(img + eh->e_shoff) + i;
        const Elf32_Shdr *strs;

        if (sh->sh_type != SHT_SYMTAB || sh->sh_link >= eh->e_shnum) {
            continue;
        }
        strs = (const Elf32_Shdr *)(img + eh->e_shoff) + sh->sh_link;
        g_assert_cmpuint((uint64_t)sh->sh_offset + sh->sh_size, <=, len);
        g_assert_cmpuint((uint64_t)strs->sh_offset + strs->sh_size, <=, len);
        for (uint32_t k = 0; k < sh->sh_size / sizeof(Elf32_Sym); k++) {
            const Elf32_Sym *sym = (const Elf32_Sym *)(img + sh->sh_offset) +
                                   k;

            if (sym->st_name < strs->sh_size &&
                !strncmp(img + strs->sh_offset + sym->st_name, name,
                         strs->sh_size - sym->st_name)) {
                return sym->st_value;
            }
        }
    }
    g_error("%s: no symbol %s", path, name);
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

void tt_tensix_push(QTestState *qts, int x, int y, int thread,
                    uint32_t insn)
{
    static const char *const role[3] = { "trisc0", "trisc1", "trisc2" };

    g_assert(thread >= 0 && thread < 3);
    tt_writel(qts, x, y, role[thread], TT_TILE_INSTRN_BUF_BASE, insn);
}

static gchar **tt_tensix_cmd(QTestState *qts, int x, int y, const char *what,
                             int nwords)
{
    g_autofree char *cmd = g_strdup_printf("tt tensix %d %d %s", x, y,
                                           what);
    gchar **w = tt_ok(qts, qtest_raw_cmd(qts, "%s", cmd), cmd);

    for (int i = 1; i <= nwords; i++) {
        g_assert(w[i]);
    }
    return w;
}

static uint64_t tt_num(const char *s)
{
    uint64_t v;

    g_assert_cmpint(qemu_strtou64(s, NULL, 0, &v), ==, 0);
    return v;
}

int tt_tensix_dst(QTestState *qts, int x, int y, int row, uint16_t v[16])
{
    g_autofree char *what = g_strdup_printf("dst %d", row);
    g_auto(GStrv) w = tt_tensix_cmd(qts, x, y, what, 17);

    for (int i = 0; i < 16; i++) {
        v[i] = tt_num(w[1 + i]);
    }
    return tt_num(w[17]);
}

void tt_tensix_src(QTestState *qts, int x, int y, char ab, int bank,
                   int row, uint32_t v[16])
{
    g_autofree char *what = g_strdup_printf("src %c %d %d", ab, bank, row);
    g_auto(GStrv) w = tt_tensix_cmd(qts, x, y, what, 16);

    for (int i = 0; i < 16; i++) {
        v[i] = tt_num(w[1 + i]);
    }
}

uint32_t tt_tensix_banks(QTestState *qts, int x, int y)
{
    g_auto(GStrv) w = tt_tensix_cmd(qts, x, y, "banks", 6);
    uint32_t r = 0;

    for (int i = 0; i < 6; i++) {
        uint64_t v = tt_num(w[1 + i]);

        g_assert_cmpuint(v, <, 16);
        r = r << 4 | v;
    }
    return r;
}

void tt_tensix_rwc(QTestState *qts, int x, int y, int thread,
                   unsigned rwc[4])
{
    g_autofree char *what = g_strdup_printf("rwc %d", thread);
    g_auto(GStrv) w = tt_tensix_cmd(qts, x, y, what, 4);

    for (int i = 0; i < 4; i++) {
        rwc[i] = tt_num(w[1 + i]);
    }
}

void tt_tensix_lreg(QTestState *qts, int x, int y, int r, uint32_t v[32])
{
    g_autofree char *what = g_strdup_printf("lreg %d", r);
    g_auto(GStrv) w = tt_tensix_cmd(qts, x, y, what, 32);

    for (int i = 0; i < 32; i++) {
        v[i] = tt_num(w[1 + i]);
    }
}

void tt_tensix_sfpu(QTestState *qts, int x, int y, unsigned st[3])
{
    g_auto(GStrv) w = tt_tensix_cmd(qts, x, y, "sfpu", 3);

    for (int i = 0; i < 3; i++) {
        st[i] = tt_num(w[1 + i]);
    }
}

void tt_tensix_cfg(TTTensixCfg *c, int word, int shift, int width,
                   uint32_t val)
{
    uint32_t mask = (width >= 32 ? ~0u : (1u << width) - 1) << shift;

    g_assert(word >= 0 && word < ARRAY_SIZE(c->cfg));
    c->cfg[word] = (c->cfg[word] & ~mask) | (val << shift & mask);
    tt_writel(c->qts, c->x, c->y, "trisc0",
              TT_TILE_TENSIX_CFG_BASE + 4 * word,
              c->cfg[word]);
}

void tt_tensix_thcfg(TTTensixCfg *c, int thread, int word, int shift,
                     int width, uint32_t val)
{
    uint32_t mask = ((1u << width) - 1) << shift;

    g_assert(thread >= 0 && thread < 3);
    g_assert(word >= 0 && word < ARRAY_SIZE(c->thcfg[0]));
    c->thcfg[thread][word] = (c->thcfg[thread][word] & ~mask) |
                             (val << shift & mask);
    tt_tensix_push(c->qts, c->x, c->y, thread,
                   TT_ENC_SETC16(word, c->thcfg[thread][word]));
}

TTTensixCfg *tt_tensix_start_args(const char *extra)
{
    TTTensixCfg *c = g_new0(TTTensixCfg, 1);
    g_autofree char *args = g_strconcat(TT_ONE_COL " ", extra, NULL);

    c->qts = qtest_init(args);
    c->x = TT_TX;
    c->y = TT_TY;
    TT_THCFG_SET(c, 0, SRCA_SET_SetOvrdWithAddr, 1);
    return c;
}

TTTensixCfg *tt_tensix_start(void)
{
    return tt_tensix_start_args("");
}

void tt_tensix_end(TTTensixCfg *c)
{
    qtest_quit(c->qts);
    g_free(c);
}

void tt_tensix_l1_write16(TTTensixCfg *c, uint32_t addr, const uint16_t *v,
                          size_t n)
{
    g_autofree uint16_t *le = g_new(uint16_t, n);

    for (size_t i = 0; i < n; i++) {
        le[i] = cpu_to_le16(v[i]);
    }
    tt_write(c->qts, c->x, c->y, "brisc", addr, le, 2 * n);
}

void tt_tensix_l1_write32(TTTensixCfg *c, uint32_t addr, const uint32_t *v,
                          size_t n)
{
    g_autofree uint32_t *le = g_new(uint32_t, n);

    for (size_t i = 0; i < n; i++) {
        le[i] = cpu_to_le32(v[i]);
    }
    tt_write(c->qts, c->x, c->y, "brisc", addr, le, 4 * n);
}

/*
 * TileDescriptor sub-fields, which cfg_defines.h does not describe
 * (UNPACR_Regular.md "Configuration"): word 0 InDataFormat [3:0],
 * IsUncompressed [4], XDim [31:16]; word 1 YDim [7:0], ZDim [23:16].
 */
#define TD0(fmt, xdim)  ((uint32_t)(fmt) | 1u << 4 | (uint32_t)(xdim) << 16)
#define TD1(ydim, zdim) ((uint32_t)(ydim) | (uint32_t)(zdim) << 16)

void tt_tensix_unpack_setup(TTTensixCfg *c, int unp, int in, int out,
                            uint32_t addr, int xdim, int ydim, int zdim,
                            int count)
{
    if (unp == 0) {
        tt_tensix_cfg(c, TT_CFG_THCON_SEC0_REG0_TileDescriptor_WORD, 0, 32,
                      TD0(in, xdim));
        tt_tensix_cfg(c, TT_CFG_THCON_SEC0_REG0_TileDescriptor_WORD + 1, 0,
                      32, TD1(ydim, zdim));
        TT_CFG_SET(c, THCON_SEC0_REG2_Out_data_format, out);
        TT_CFG_SET(c, THCON_SEC0_REG2_Disable_zero_compress_cntx0, 1);
        TT_CFG_SET(c, THCON_SEC0_REG3_Base_address, addr / 16 - 1);
        TT_CFG_SET(c, THCON_SEC0_REG5_Dest_cntx0_address, 64);
        TT_CFG_SET(c, THCON_SEC0_REG5_Tile_x_dim_cntx0, xdim);
    } else {
        tt_tensix_cfg(c, TT_CFG_THCON_SEC1_REG0_TileDescriptor_WORD, 0, 32,
                      TD0(in, xdim));
        tt_tensix_cfg(c, TT_CFG_THCON_SEC1_REG0_TileDescriptor_WORD + 1, 0,
                      32, TD1(ydim, zdim));
        TT_CFG_SET(c, THCON_SEC1_REG2_Out_data_format, out);
        TT_CFG_SET(c, THCON_SEC1_REG2_Disable_zero_compress_cntx0, 1);
        TT_CFG_SET(c, THCON_SEC1_REG3_Base_address, addr / 16 - 1);
    }
    tt_tensix_push(c->qts, c->x, c->y, 0,
                   TT_ENC_SETADCXX(1 << unp, count - 1, 0));
}

void tt_check_row(const char *what, const uint32_t *got, const uint32_t *exp,
                  int n)
{
    if (memcmp(got, exp, n * sizeof(*got))) {
        GString *s = g_string_new(what);

        g_string_append(s, "\n  got:");
        for (int i = 0; i < n; i++) {
            g_string_append_printf(s, " %05x", got[i]);
        }
        g_string_append(s, "\n  exp:");
        for (int i = 0; i < n; i++) {
            g_string_append_printf(s, " %05x", exp[i]);
        }
        g_test_message("%s", s->str);
        g_string_free(s, true);
    }
    for (int i = 0; i < n; i++) {
        g_assert_cmphex(got[i], ==, exp[i]);
    }
}

void tt_tensix_check_src(TTTensixCfg *c, char ab, int bank, int row,
                         const uint32_t *exp)
{
    g_autofree char *what = g_strdup_printf("Src%c[%d][%d]", ab, bank, row);
    uint32_t got[16];

    tt_tensix_src(c->qts, c->x, c->y, ab, bank, row, got);
    tt_check_row(what, got, exp, 16);
}

void tt_tensix_check_dst16(TTTensixCfg *c, int row, const uint16_t *exp,
                           int valid)
{
    g_autofree char *what = g_strdup_printf("DstBits[%d]", row);
    uint32_t got[17], want[17];
    uint16_t v[16];

    got[16] = tt_tensix_dst(c->qts, c->x, c->y, row, v);
    want[16] = valid;
    for (int i = 0; i < 16; i++) {
        got[i] = v[i];
        want[i] = exp[i];
    }
    tt_check_row(what, got, want, 17);
}

void tt_tensix_check_dst32(TTTensixCfg *c, int r, const uint32_t *exp)
{
    g_autofree char *what = g_strdup_printf("Dst32b[%d] (+ valid)", r);
    int adj = ((r & 0x1f8) << 1) | (r & 0x207);
    uint32_t got[17], want[17];
    uint16_t hi[16], lo[16];

    got[16] = tt_tensix_dst(c->qts, c->x, c->y, adj, hi);
    tt_tensix_dst(c->qts, c->x, c->y, adj + 8, lo);
    for (int i = 0; i < 16; i++) {
        got[i] = (uint32_t)hi[i] << 16 | lo[i];
        want[i] = exp[i];
    }
    want[16] = 1;
    tt_check_row(what, got, want, 17);
}
