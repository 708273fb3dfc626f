/*
 * Tenstorrent Blackhole: the "tt" qtest command.
 *
 * qtest's own readl/writel go through the first CPU's address space only.
 * This command reaches any core's view (its LDM, its tile's L1 and MMIO) by
 * tile and role, and what the NOC reaches at any node (a DRAM port, the ARC
 * tile, the PCIe endpoint's host memory) with ROLE "-":
 *
 *   tt readl X Y ROLE ADDR          -> OK 0xVALUE
 *   tt writel X Y ROLE ADDR VALUE   -> OK
 *   tt read X Y ROLE ADDR LEN       -> OK 0xHEXBYTES
 *   tt write X Y ROLE ADDR LEN 0xHEXBYTES -> OK
 *   tt cpu X Y ROLE                 -> OK INDEX HALTED PC
 *   tt disas WORD                   -> OK NAME field=value,...
 *   tt ethrx CHANNEL 0xHEXBYTES     -> OK (a frame from the wire)
 *
 * X, Y are physical NOC0 coordinates; ROLE is brisc, ncrisc, trisc0-2
 * (erisc0, erisc1 on an Ethernet tile), or "-" for the node's NOC view.
 * "bar N -" in place of "X Y ROLE" reaches BAR N (0, 2, 4) of the PCIe
 * endpoint as the host does.  Errors answer
 * "FAIL reason".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qemu/units.h"
#include "qemu/lockable.h"
#include "system/qtest.h"
#include "system/address-spaces.h"
#include "blackhole-internal.h"
#include "tt-tensix-isa.h"      /* generated from data/tensix-isa.yaml */

static TTBlackholeSoC *tt_qtest_soc;

static const char *tt_qtest_target(TTBlackholeSoC *s, gchar **w,
                                   AddressSpace **as, CPUState **cpu,
                                   TTSpinTile **spin)
{
    uint64_t x, y;
    TTTensixTile *t;
    TTEthTile *e;
    const TTNocNode *n;

    if (w[0] && w[1] && w[2] && !strcmp(w[0], "bar")) {
        int bar = qemu_strtou64(w[1], NULL, 0, &x) ? -1
                  : tt_pcie_bar_index(x > 4 ? -1 : x);

        if (bar < 0 || strcmp(w[2], "-")) {
            return "expected bar 0|2|4 -";
        }
        *as = &s->pcie.bar_as[bar];
        *cpu = NULL;
        *spin = NULL;
        return NULL;
    }
    if (!w[0] || !w[1] || !w[2] || qemu_strtou64(w[0], NULL, 0, &x) ||
        qemu_strtou64(w[1], NULL, 0, &y) || x >= 64 || y >= 64) {
        return "expected X Y ROLE";
    }
    t = tt_soc_tile_at(s, x, y);
    e = tt_soc_eth_at(s, x, y);
    *spin = t ? &t->spin : e ? &e->spin : NULL;
    for (int r = 0; e && r < TT_ERISC_CORES; r++) {
        if (!strcmp(w[2], tt_erisc_name[r])) {
            *cpu = CPU(&e->core[r]);
            *as = (*cpu)->as;
            return NULL;
        }
    }
    if (t) {
        for (int r = 0; r < TT_CORES_PER_TILE; r++) {
            if (!strcmp(w[2], tt_core_role_name[r])) {
                *cpu = tt_tile_cpu(t, r);
                *as = (*cpu)->as;
                return NULL;
            }
        }
        return "unknown core role";
    }
    n = tt_noc_node(&s->noc, x, y);
    if (n && !strcmp(w[2], "-")) {
        *cpu = NULL;
        *as = n->as;
        return NULL;
    }
    return "no NOC node at these coordinates";
}

static const char *tt_qtest_do(CharFrontend *chr, gchar **w)
{
    AddressSpace *as;
    CPUState *cpu;
    TTSpinTile *spin;
    uint64_t addr = 0, val, len;
    const char *err = tt_qtest_target(tt_qtest_soc, w + 1, &as, &cpu, &spin);
    const char *op = w[0];
    MemTxResult res = MEMTX_OK;

    if (err) {
        return err;
    }
    if (!strcmp(op, "cpu")) {
        if (!cpu) {
            return "not a core";
        }
        qtest_sendf(chr, "OK %d %d 0x%" PRIx64 "\n", cpu->cpu_index,
                    cpu->halted, (uint64_t)cpu_env(cpu)->pc);
        return NULL;
    }
    if (!w[4] || qemu_strtou64(w[4], NULL, 0, &addr)) {
        return "expected an address";
    }
    if (!strcmp(op, "readl")) {
        uint32_t v = address_space_ldl_le(as, addr, MEMTXATTRS_UNSPECIFIED,
                                          &res);
        if (res == MEMTX_OK) {
            qtest_sendf(chr, "OK 0x%08x\n", v);
        }
    } else if (!strcmp(op, "writel")) {
        if (!w[5] || qemu_strtou64(w[5], NULL, 0, &val)) {
            return "expected a value";
        }
        address_space_stl_le(as, addr, val, MEMTXATTRS_UNSPECIFIED, &res);
        tt_spin_wake(spin);     /* a host write, like one over PCIe */
        if (res == MEMTX_OK) {
            qtest_sendf(chr, "OK\n");
        }
    } else if (!strcmp(op, "read") || !strcmp(op, "write")) {
        g_autofree uint8_t *buf = NULL;
        g_autoptr(GString) hex = g_string_new("");

        if (!w[5] || qemu_strtou64(w[5], NULL, 0, &len) || !len ||
            len > 16 * MiB) {
            return "expected a length of 1 byte to 16 MiB";
        }
        buf = g_malloc0(len);
        if (op[0] == 'w') {
            if (!w[6] || strncmp(w[6], "0x", 2) ||
                strlen(w[6] + 2) != len * 2) {
                return "expected 0x and two hex digits per byte";
            }
            for (uint64_t i = 0; i < len; i++) {
                int hi = g_ascii_xdigit_value(w[6][2 + 2 * i]);
                int lo = g_ascii_xdigit_value(w[6][3 + 2 * i]);

                if (hi < 0 || lo < 0) {
                    return "expected 0x and two hex digits per byte";
                }
                buf[i] = hi << 4 | lo;
            }
            res = address_space_write(as, addr, MEMTXATTRS_UNSPECIFIED, buf,
                                      len);
            tt_spin_wake(spin);
            if (res == MEMTX_OK) {
                qtest_sendf(chr, "OK\n");
            }
        } else {
            res = address_space_read(as, addr, MEMTXATTRS_UNSPECIFIED, buf,
                                     len);
            for (uint64_t i = 0; i < len; i++) {
                g_string_append_printf(hex, "%02x", buf[i]);
            }
            if (res == MEMTX_OK) {
                qtest_sendf(chr, "OK 0x%s\n", hex->str);
            }
        }
    } else {
        return "unknown tt command";
    }
    return res == MEMTX_OK ? NULL : "memory transaction failed";
}

/*
 * "tt isa": per unit, the instructions of the ISA table that have no
 * handler, then "N of M implemented".
 */
static void tt_qtest_isa(CharFrontend *chr)
{
    g_autoptr(GString) s = g_string_new("OK");
    int n = 0, impl = 0;

    for (int u = 0; tt_tensix_unit_name[u]; u++) {
        g_string_append_printf(s, " %s:", tt_tensix_unit_name[u]);
        for (int op = 0; op < 256; op++) {
            const TTTensixOpInfo *i = &tt_tensix_isa[op];

            if (i->name && i->unit == u && !tt_tensix_implemented(op)) {
                g_string_append_printf(s, "%s,", i->name);
            }
        }
    }
    for (int op = 0; op < 256; op++) {
        n += !!tt_tensix_isa[op].name;
        impl += tt_tensix_implemented(op);
    }
    qtest_sendf(chr, "%s implemented=%d/%d\n", s->str, impl, n);
}

/* A Src cell in the documentation's 19-bit {sign, mantissa, exponent} */
static uint32_t tt_qtest_src19(uint32_t cell)
{
    return (cell >> 31) << 18 | (cell >> 13 & 0x3ff) << 8 | (cell >> 23 & 0xff);
}

/*
 * "tt tensix X Y dst ROW": DstBits[ROW][0..15] and its valid bit;
 * "tt tensix X Y src A|B BANK ROW": the 19-bit cells of a Src row;
 * "tt tensix X Y banks": valid masks and bank pointers of SrcA, SrcB;
 * "tt tensix X Y rwc THREAD": SrcA, SrcB, Dst counters and phase;
 * "tt tensix X Y lreg R": the 32 lanes of Vector Unit register LReg[R];
 * "tt tensix X Y sfpu": lane flags, flag enable, flag stack depth.
 */
static const char *tt_qtest_tensix(CharFrontend *chr, gchar **w)
{
    g_autoptr(GString) s = g_string_new("OK");
    uint64_t x, y, a = 0, b = 0;
    TTTensixTile *tile;
    TTTensix *t;

    if (!w[0] || !w[1] || !w[2] || qemu_strtou64(w[0], NULL, 0, &x) ||
        qemu_strtou64(w[1], NULL, 0, &y)) {
        return "expected X Y";
    }
    tile = tt_soc_tile_at(tt_qtest_soc, x, y);
    if (!tile) {
        return "no Tensix tile at X Y";
    }
    t = &tile->tensix;
    QEMU_LOCK_GUARD(&t->lock);
    if (!strcmp(w[2], "dst") && w[3] && !qemu_strtou64(w[3], NULL, 0, &a) &&
        a < TT_DST_ROWS) {
        for (int c = 0; c < TT_ROW_DATUMS; c++) {
            g_string_append_printf(s, " 0x%04x", t->dst[a][c]);
        }
        g_string_append_printf(s, " %d", t->dst_valid[a]);
    } else if (!strcmp(w[2], "src") && w[3] && w[4] && w[5] &&
               (!strcmp(w[3], "A") || !strcmp(w[3], "B")) &&
               !qemu_strtou64(w[4], NULL, 0, &a) && a < 2 &&
               !qemu_strtou64(w[5], NULL, 0, &b) && b < TT_SRC_ROWS) {
        TTTensixSrc *src = &t->src[w[3][0] == 'B'];

        for (int c = 0; c < TT_ROW_DATUMS; c++) {
            g_string_append_printf(s, " 0x%05x",
                                   tt_qtest_src19(src->cell[a][b][c]));
        }
    } else if (!strcmp(w[2], "banks")) {
        for (int i = 0; i < 2; i++) {
            g_string_append_printf(s, " %u %u %u", t->src[i].valid,
                                   t->src[i].unpack_bank,
                                   t->src[i].matrix_bank);
        }
    } else if (!strcmp(w[2], "rwc") && w[3] &&
               !qemu_strtou64(w[3], NULL, 0, &a) && a < TT_TENSIX_THREADS) {
        TTTensixRwc *r = &t->th[a].rwc;

        g_string_append_printf(s, " %u %u %u %u", r->srca, r->srcb, r->dst,
                               r->fidelity);
    } else if (!strcmp(w[2], "lreg") && w[3] &&
               !qemu_strtou64(w[3], NULL, 0, &a) && a < TT_SFPU_LREGS) {
        for (int l = 0; l < TT_SFPU_LANES; l++) {
            g_string_append_printf(s, " 0x%08x", t->sfpu.lreg[a][l]);
        }
    } else if (!strcmp(w[2], "sfpu")) {
        g_string_append_printf(s, " 0x%08x %d %u", t->sfpu.flags,
                               t->sfpu.use_flags, t->sfpu.sp);
    } else {
        return "expected dst ROW, src A|B BANK ROW, banks, rwc THREAD, "
               "lreg R or sfpu";
    }
    qtest_sendf(chr, "%s\n", s->str);
    return NULL;
}

/* "tt ethrx C 0xHEX": a frame arriving on Ethernet channel C's link */
static const char *tt_qtest_ethrx(CharFrontend *chr, gchar **w)
{
    uint64_t c;
    TTEthTile *e;
    g_autofree uint8_t *buf = NULL;
    size_t len;

    if (!w[0] || qemu_strtou64(w[0], NULL, 0, &c) || c >= TT_ETH_CHANNELS) {
        return "expected a channel 0-13";
    }
    e = tt_soc_eth(tt_qtest_soc, c);
    if (!e) {
        return "the channel is fused off";
    }
    if (!w[1] || strncmp(w[1], "0x", 2) || strlen(w[1]) % 2) {
        return "expected 0x and two hex digits per byte";
    }
    len = strlen(w[1] + 2) / 2;
    buf = g_malloc(len + 1);
    for (size_t i = 0; i < len; i++) {
        int hi = g_ascii_xdigit_value(w[1][2 + 2 * i]);
        int lo = g_ascii_xdigit_value(w[1][3 + 2 * i]);

        if (hi < 0 || lo < 0) {
            return "expected 0x and two hex digits per byte";
        }
        buf[i] = hi << 4 | lo;
    }
    tt_eth_txrx_receive(&e->txrx, buf, len);
    qtest_sendf(chr, "OK\n");
    return NULL;
}

static bool tt_qtest_command(CharFrontend *chr, gchar **words)
{
    const char *err;

    if (strcmp(words[0], "tt") != 0) {
        return false;
    }
    if (words[1] && !strcmp(words[1], "disas")) {
        uint64_t w;

        if (!words[2] || qemu_strtou64(words[2], NULL, 0, &w) ||
            w > UINT32_MAX) {
            qtest_sendf(chr, "FAIL expected a 32-bit word\n");
        } else {
            g_autoptr(GString) s = g_string_new(NULL);

            tt_tensix_disas(w, s);
            qtest_sendf(chr, "OK %s\n", s->str);
        }
        return true;
    }
    if (words[1] && !strcmp(words[1], "ethrx")) {
        err = tt_qtest_ethrx(chr, words + 2);
        if (err) {
            qtest_sendf(chr, "FAIL %s\n", err);
        }
        return true;
    }
    if (words[1] && !strcmp(words[1], "isa")) {
        tt_qtest_isa(chr);
        return true;
    }
    if (words[1] && !strcmp(words[1], "tensix")) {
        err = tt_qtest_tensix(chr, words + 2);
        if (err) {
            qtest_sendf(chr, "FAIL %s\n", err);
        }
        return true;
    }
    err = words[1] ? tt_qtest_do(chr, words + 1) : "expected a subcommand";
    if (err) {
        qtest_sendf(chr, "FAIL %s\n", err);
    }
    return true;
}

void blackhole_qtest_register(TTBlackholeSoC *s)
{
    tt_qtest_soc = s;
    qtest_set_command_cb(tt_qtest_command);
}
