/*
 * The host map end to end: libttsim.so serving L1 and GDDR from shared
 * memory, against QEMU's own path (docs/devel/tenstorrent-host-map.rst):
 *
 *   tt-hostmap-test <path to libttsim.so>
 *
 * 1. Paths agree.  Every access goes twice: through a window the library
 *    serves from memory (ordering 0-2) and through the same window with
 *    counted-writes ordering, which the library always sends to QEMU, into
 *    a twin area.  After random unicast and multicast writes (NOC0 and
 *    NOC1, translated and raw coordinates, GDDR through all three ports,
 *    2 MiB and 4 GiB windows, unaligned and odd lengths, pieces crossing a
 *    window, windows moved between accesses, tiles opting out of
 *    multicast), every tile and bank must hold the same bytes in both
 *    areas, and reads through both windows must agree.  QEMU's NIU is the
 *    reference; on a harvested machine the same holds (TT_EMU_ARGS).
 * 2. Ordering: a BRISC waits for a doorbell, a stream register the host
 *    writes through the message path, and checks data the host wrote
 *    through the mapping just before; thousands of times.
 * 3. Wake-up: a BRISC polls an L1 mailbox (and parks); the host writes the
 *    mailbox through the mapping; the core must answer, woken by the
 *    host's next read or by libttsim_clock().
 * 4. Coherence: a BRISC calls a kernel the host rewrites between launches
 *    (new constant, new length, one word patched, by multicast to several
 *    tiles); the new code must run every time.
 *
 * With TT_EMU_SHM=0 everything goes by message and the same checks hold.
 * TT_TEST_SEED picks the random sequence.  Output is TAP.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <time.h>

#include "tt-grid.h"             /* generated from data/grid.yaml */
#include "tt-rv32.h"
#include "tt-test.h"

/* ---------------------------------------------------------- windows -- */

#define WIN_MAP         10      /* served from memory */
#define WIN_MSG         11      /* its twin: counted writes, by message */
#define WIN_SCAN        12      /* reading every tile, by message */
#define WIN_REG         13      /* registers */
#define WIN_FW          14      /* firmware tests */
#define WIN_EDGE        15      /* 15 and 16: an access across windows */
#define WIN4_MAP        202     /* BAR4 window 0 */
#define WIN4_MSG        203

#define ORDER_COUNTED   3       /* the window's ordering field */

#define L1_SIZE         0x180000u
#define AREA_SIZE       0x1000u
#define L1_AREA_MAP     0x80000u    /* written through WIN_MAP */
#define L1_AREA_MSG     0x90000u    /* the same writes through WIN_MSG */
#define DRAM_AREA_MAP   0x10000000ull
#define DRAM_AREA_MSG   0x10010000ull

/* BAR0 offsets (tt-kmd blackhole.c: TLB_REGS_START, NOC2AXI_CFG_START) */
#define TLB_CFG         TT_TLB_CFG_BASE
#define PCIE_NIU_CFG0(n) (0x1fd04100u + (n) * 0x10000u)
#define NIU_CFG0_XLATE  (1u << 14)

/* A tile's registers (tt-isa-documentation BlackholeA0/TensixTile) */
#define REG_BASE        0xffa00000u     /* 2 MiB-aligned window base */
#define SOFT_RESET_0    TT_HOST_SOFT_RESET_0
#define SOFT_RESET_BRISC (1u << 11)
#define HOLD_ALL        TT_HOST_HOLD_ALL
#define NIU_ROUTER_CFG3(noc) (0xffb20110u + (noc) * 0x10000u)
#define STREAM0_REG0    0xffb40000u     /* plain storage: the doorbell */

/* P150 Tensix columns, translated (grid.yaml: unharvested, all of them) */
static const uint8_t tensix_x[] = TT_GRID_TENSIX_COLS_INIT;
#define TENSIX_Y0       2
#define TENSIX_Y1       11
#define GRID_W          TT_GRID_W
#define GRID_H          TT_GRID_H
#define DRAM_VX0        17          /* translated DRAM: x 17/18, y 12-23 */
#define DRAM_VY0        12
/* physical DRAM ports: x 0 (banks 0-3) or 9 (banks 4-7) */
static const uint8_t dram_port_y[] = { 0, 1, 11, 2, 10, 3, 9, 4, 8, 5, 7, 6 };

static TTHostLib lib;
static uint64_t bar4;
static uint32_t rng = 0x2545f491;
static bool xlate[2] = { true, true };

static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return n ? rng % n : rng;
}

typedef struct Target {
    uint8_t xe, ye, xs, ys;
    bool noc1, mcast;
    uint8_t order;
} Target;

/*
 * Program window @n (tt-isa-documentation BlackholeA0/PCIExpressTile/
 * HostToDeviceTLBs.md, 2 MiB and 4 GiB layouts) for @t at
 * @addr, and return the BAR address of @addr through it
 */
static uint64_t tlb(int n, const Target *t, uint64_t addr)
{
    uint64_t cfg = lib.bar0 + TLB_CFG + TT_TLB_CFG_STRIDE * n;
    uint32_t w[3];

    if (n < 202) {
        uint64_t lo = addr >> 21 | (uint64_t)t->xe << 43 |
                      (uint64_t)t->ye << 49 | (uint64_t)t->xs << 55 |
                      (uint64_t)t->ys << 61;

        w[0] = lo;
        w[1] = lo >> 32;
        w[2] = t->ys >> 3 | t->noc1 << 3 | t->mcast << 5 | t->order << 6;
    } else {
        w[0] = addr >> 32;
        w[1] = t->xe | t->ye << 6 | t->xs << 12 | t->ys << 18 |
               t->noc1 << 24 | t->mcast << 26 | (t->order & 1) << 27 |
               (t->order >> 1) << 28;
        w[2] = 0;
    }
    for (int i = 0; i < 3; i++) {
        tt_host_wr32(&lib, cfg + 4 * i, w[i]);
    }
    if (n < 202) {
        return lib.bar0 + (uint64_t)n * (2u << 20) + (addr & ((2u << 20) - 1));
    }
    return bar4 + (uint64_t)(n - 202) * (4ull << 30) +
           (addr & ((4ull << 30) - 1));
}

/* (x, y) in translated or NOC0 coordinates, as NOC @noc1 names it */
static void noc_coords(Target *t, int x, int y, bool noc1)
{
    t->noc1 = noc1;
    if (noc1 && !xlate[1]) {
        x = GRID_W - 1 - x;
        y = GRID_H - 1 - y;
    }
    t->xe = x;
    t->ye = y;
}

/* Reg @addr of tile (@x, @y) by message (registers are never mapped) */
static uint64_t reg(int x, int y, uint32_t addr)
{
    Target t = { .xe = x, .ye = y };

    return tlb(WIN_REG, &t, REG_BASE) + (addr - REG_BASE);
}

static void set_xlate(int noc, bool on)
{
    uint64_t a = lib.bar0 + PCIE_NIU_CFG0(noc);
    uint32_t v = tt_host_rd32(&lib, a);

    tt_host_wr32(&lib, a, on ? v | NIU_CFG0_XLATE : v & ~NIU_CFG0_XLATE);
    xlate[noc] = on;
}

/* ---------------------------------------------------- paths agree -- */

/* Both areas of every node the translated grid names, by message */
static int compare_areas(const char *what)
{
    static uint8_t a[AREA_SIZE], b[AREA_SIZE];
    bool was[2] = { xlate[0], xlate[1] };
    int bad = 0;

    if (!was[0]) {
        set_xlate(0, true);
    }
    for (unsigned c = 0; c < sizeof(tensix_x) + 2; c++) {
        bool dram = c >= sizeof(tensix_x);
        int x = dram ? DRAM_VX0 + c - sizeof(tensix_x) : tensix_x[c];
        int y0 = dram ? DRAM_VY0 : TENSIX_Y0;
        int y1 = dram ? DRAM_VY0 + 11 : TENSIX_Y1;

        for (int y = y0; y <= y1; y += dram ? 3 : 1) {
            Target t = { .xe = x, .ye = y, .order = ORDER_COUNTED };
            uint64_t am = dram ? DRAM_AREA_MAP : L1_AREA_MAP;
            uint64_t ag = dram ? DRAM_AREA_MSG : L1_AREA_MSG;

            lib.mem_rd(tlb(WIN_SCAN, &t, am), a, AREA_SIZE);
            lib.mem_rd(tlb(WIN_SCAN, &t, ag), b, AREA_SIZE);
            if (memcmp(a, b, AREA_SIZE) && !bad++) {
                for (int i = 0; i < AREA_SIZE; i++) {
                    if (a[i] != b[i]) {
                        printf("# %s: node (%d, %d) differs first at 0x%x: "
                               "0x%02x mapped, 0x%02x by message\n", what, x,
                               y, i, a[i], b[i]);
                        break;
                    }
                }
            }
        }
    }
    if (!was[0]) {
        set_xlate(0, false);
    }
    return bad;
}

/* The same bytes, once through each twin window */
static void write_both(int wmap, int wmsg, Target *t, uint64_t amap,
                       uint64_t amsg, uint32_t off, uint32_t len)
{
    static uint8_t buf[AREA_SIZE];
    uint8_t order = t->order;

    tt_fill(buf, len, rnd(0));
    lib.mem_wr(tlb(wmap, t, amap) + off, buf, len);
    t->order = ORDER_COUNTED;
    lib.mem_wr(tlb(wmsg, t, amsg) + off, buf, len);
    t->order = order;
}

/* Reads through both twins agree */
static bool read_both(int wmap, int wmsg, Target *t, uint64_t area,
                      uint32_t off, uint32_t len)
{
    static uint8_t a[AREA_SIZE], b[AREA_SIZE];
    uint8_t order = t->order;

    lib.mem_rd(tlb(wmap, t, area) + off, a, len);
    t->order = ORDER_COUNTED;
    lib.mem_rd(tlb(wmsg, t, area) + off, b, len);
    t->order = order;
    return !memcmp(a, b, len);
}

static uint32_t rnd_len(void)
{
    static const uint32_t odd[] = { 1, 2, 3, 4, 5, 7, 8, 13, 64, 65, 4095 };

    return rnd(4) ? odd[rnd(sizeof(odd) / sizeof(odd[0]))] : 1 + rnd(700);
}

/* A random coordinate: mostly Tensix tiles, sometimes anything */
static void rnd_tile(int *x, int *y)
{
    if (rnd(8)) {
        *x = tensix_x[rnd(sizeof(tensix_x))];
        *y = TENSIX_Y0 + rnd(TENSIX_Y1 - TENSIX_Y0 + 1);
    } else {
        *x = rnd(20);
        *y = rnd(26);
    }
}

static void test_unicast(const char *what, int rounds)
{
    int rbad = 0;

    for (int i = 0; i < rounds; i++) {
        Target t = { .order = rnd(3) };
        uint32_t len = rnd_len(), off = rnd(AREA_SIZE - len + 1);
        int x, y;

        rnd_tile(&x, &y);
        noc_coords(&t, x, y, rnd(2));
        write_both(WIN_MAP, WIN_MSG, &t, L1_AREA_MAP, L1_AREA_MSG, off, len);
        if (!read_both(WIN_MAP, WIN_MSG, &t, L1_AREA_MSG, off, len) &&
            !rbad++) {
            printf("# %s: read of (%d, %d) +0x%x len %u differs\n", what, x,
                   y, off, len);
        }
    }
    tt_ok(!rbad, "%s: %d unicast reads agree", what, rounds);
    tt_ok(!compare_areas(what), "%s: %d unicast writes to L1 agree",
          what, rounds);
}

/*
 * A tile opts in or out of NOC @noc's multicasts: its own row's bit of
 * ROUTER_CFG_3 (rows are never harvested, so its row is y), by message
 */
static void toggle_optout(int x, int y, int noc)
{
    int bit = noc ? GRID_H - 1 - y : y;
    uint64_t r = reg(x, y, NIU_ROUTER_CFG3(noc));

    tt_host_wr32(&lib, r, tt_host_rd32(&lib, r) ^ 1u << bit);
}

static void test_multicast(const char *what, int rounds)
{
    uint8_t opted[64][3];
    int nopted = 0;

    for (int i = 0; i < rounds; i++) {
        Target t = { .mcast = true, .order = rnd(3) };
        uint32_t len = rnd_len(), off = rnd(AREA_SIZE - len + 1);
        int x0, y0, x1, y1;

        rnd_tile(&x0, &y0);
        rnd_tile(&x1, &y1);
        if (rnd(4) == 0 && nopted < 64) {
            uint8_t *o = opted[nopted++];

            o[0] = tensix_x[rnd(sizeof(tensix_x))];
            o[1] = TENSIX_Y0 + rnd(TENSIX_Y1 - TENSIX_Y0 + 1);
            o[2] = rnd(2);
            toggle_optout(o[0], o[1], o[2]);
        }
        noc_coords(&t, x0, y0, rnd(2));
        t.xs = t.xe;
        t.ys = t.ye;
        noc_coords(&t, x1, y1, t.noc1);
        write_both(WIN_MAP, WIN_MSG, &t, L1_AREA_MAP, L1_AREA_MSG, off, len);
    }
    tt_ok(!compare_areas(what), "%s: %d multicast writes agree (%d tiles "
          "opting out, rectangles wrapping, non-Tensix columns)", what,
          rounds, nopted);
    while (nopted--) {
        toggle_optout(opted[nopted][0], opted[nopted][1], opted[nopted][2]);
    }
}

/* A GDDR port: translated (x 17/18) or physical (x 0/9) */
static void rnd_dram(Target *t)
{
    int p = rnd(12);

    if (xlate[0] && xlate[1]) {
        noc_coords(t, DRAM_VX0 + rnd(2), DRAM_VY0 + p, rnd(2));
    } else {
        noc_coords(t, rnd(2) ? 9 : 0, dram_port_y[p], rnd(2));
    }
}

static void test_gddr(const char *what, int rounds)
{
    int rbad = 0;

    for (int i = 0; i < rounds; i++) {
        Target t = { .order = rnd(3) };
        uint32_t len = rnd_len(), off = rnd(AREA_SIZE - len + 1);
        bool big = rnd(2);

        rnd_dram(&t);
        write_both(big ? WIN4_MAP : WIN_MAP, big ? WIN4_MSG : WIN_MSG, &t,
                   DRAM_AREA_MAP, DRAM_AREA_MSG, off, len);
        if (!read_both(big ? WIN4_MAP : WIN_MAP, big ? WIN4_MSG : WIN_MSG,
                       &t, DRAM_AREA_MSG, off, len) && !rbad++) {
            printf("# %s: GDDR read of (%d, %d) differs\n", what, t.xe, t.ye);
        }
    }
    tt_ok(!rbad, "%s: %d GDDR reads agree (2 MiB and 4 GiB windows, three "
          "ports per bank)", what, rounds);
    tt_ok(!compare_areas(what), "%s: %d GDDR writes agree", what, rounds);
}

/*
 * One access across two windows: the end of window A (tile T1 past its
 * L1, not RAM: QEMU's) and the start of window B (tile T2's L1, RAM)
 */
static void test_across_windows(void)
{
    Target t1 = { .xe = 1, .ye = 2 }, t2 = { .xe = 2, .ye = 3 };
    uint8_t out[16], in[8], back[16];
    uint64_t a = tlb(WIN_EDGE, &t1, 0) + (2u << 20) - 8;

    tlb(WIN_EDGE + 1, &t2, 0);
    tt_fill(out, sizeof(out), 99);
    lib.mem_wr(a, out, sizeof(out));
    t2.order = ORDER_COUNTED;
    lib.mem_rd(tlb(WIN_SCAN, &t2, 0), in, sizeof(in));
    lib.mem_rd(a, back, sizeof(back));
    tt_ok(!memcmp(in, out + 8, 8) && !memcmp(back + 8, out + 8, 8),
          "a 16-byte write across two windows: its RAM half lands in tile "
          "(2, 3) and reads back through both paths");
}

/* A window moved between accesses, and the tile calls */
static void test_moved_window(void)
{
    Target a = { .xe = 3, .ye = 4 }, b = { .xe = 4, .ye = 5 };
    uint32_t va = 0x11111111, vb = 0x22222222, r1 = 0, r2 = 0;
    uint64_t p = tlb(WIN_MAP, &a, 0x70000);

    lib.mem_wr(p, &va, 4);
    tlb(WIN_MAP, &b, 0x70000);
    lib.mem_wr(p, &vb, 4);
    lib.tile_rd(3, 4, 0x70000, &r1, 4);
    lib.tile_rd(4, 5, 0x70000, &r2, 4);
    tt_ok(r1 == va && r2 == vb, "a window moved between two writes: each "
          "reached its tile (0x%x, 0x%x)", r1, r2);
    lib.tile_wr(5, 6, 0x70003, "\xab\xcd\xef", 3);
    a.xe = 5;
    a.ye = 6;
    a.order = ORDER_COUNTED;
    r1 = 0;
    lib.mem_rd(tlb(WIN_SCAN, &a, 0x70000) + 3, &r1, 3);
    tt_ok(r1 == 0xefcdab, "tile_wr_bytes of 3 bytes at an odd address, "
          "read by message (0x%x)", r1);
}

/* Windows onto registers go to QEMU: the values are the registers' */
static void test_registers(void)
{
    uint32_t v = tt_host_rd32(&lib, reg(6, 7, SOFT_RESET_0));
    uint64_t cfg = lib.bar0 + TLB_CFG + TT_TLB_CFG_STRIDE * WIN_MAP;
    uint32_t w, before;
    uint16_t half = 0xffff;

    tt_ok(v == HOLD_ALL, "SOFT_RESET_0 through a window reads the "
          "register (0x%x)", v);
    before = tt_host_rd32(&lib, cfg);
    lib.mem_wr(cfg, &half, 2);
    w = tt_host_rd32(&lib, cfg);
    tt_ok(w == before, "a 2-byte TLB configuration write is refused, as "
          "QEMU refuses it (0x%x, was 0x%x)", w, before);
}

/*
 * Host transactions QEMU's PCIe NIU accepted on @noc: its MST_CMD_ACCEPTED
 * counter (NIU status at BAR0 0x1FD04200, tt-kmd blackhole.c
 * NOC_STATUS_OFFSET; counter 4, tt-isa-documentation
 * BlackholeA0/NoC/Counters.md), counted for every BAR access that reaches
 * it, whatever its target: what went by message
 */
#define PCIE_NIU_COUNTER(noc, n) (0x1fd04200u + (noc) * 0x10000u + 4 * (n))
#define MST_CMD_ACCEPTED        0x04
#define L1_PATH         0xa0000u    /* outside both compared areas */

static uint32_t issued(int noc)
{
    return tt_host_rd32(&lib, lib.bar0 +
                        PCIE_NIU_COUNTER(noc, MST_CMD_ACCEPTED));
}

/*
 * Which path an access takes: RAM targets are served from memory (QEMU's
 * NIU sees nothing), everything else reaches QEMU's NIU, with the NIU's
 * result
 */
static void test_which_path(bool mapped)
{
    static const struct {
        const char *what;
        Target t;
        uint64_t addr;
        uint32_t len;
        bool write, ram;
    } c[] = {
        { "4-byte read of L1", { 1, 2 }, L1_PATH, 4, false, true },
        { "4-byte write of L1", { 1, 2 }, L1_PATH, 4, true, true },
        { "64-byte read of GDDR", { DRAM_VX0, DRAM_VY0 }, DRAM_AREA_MAP, 64,
          false, true },
        { "multicast write to L1", { 4, 5, 2, 3, false, true },
          L1_PATH + 64, 16, true, true },
        { "read of a tile register", { 6, 7 }, SOFT_RESET_0, 4, false,
          false },
        { "read of a coordinate with no node", { 40, 40 }, 0x1000, 8,
          false, false },
        { "write to a coordinate with no node", { 40, 40 }, 0x1000, 8, true,
          false },
        { "read past the end of L1", { 1, 2 }, L1_SIZE - 2, 4, false,
          false },
        { "write past the end of L1", { 1, 2 }, L1_SIZE - 2, 4, true,
          false },
        { "read of L1 with counted-writes ordering", { 1, 2, 0, 0, false,
          false, ORDER_COUNTED }, L1_PATH, 4, false, false },
    };
    uint8_t buf[64];

    for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        Target t = c[i].t;
        uint32_t before, after, expect = mapped && c[i].ram ? 0 : 1;
        uint64_t a = tlb(WIN_FW, &t, c[i].addr);

        before = issued(0);
        memset(buf, 0x5a, sizeof(buf));
        if (c[i].write) {
            lib.mem_wr(a, buf, c[i].len);
        } else {
            lib.mem_rd(a, buf, c[i].len);
        }
        after = issued(0);
        tt_ok(after - before == expect, "%s: %s (%u transaction(s) in "
              "QEMU's NIU)", c[i].what, expect ? "by message" : "from memory",
              after - before);
    }
    tlb(WIN_FW, &(Target){ .xe = 40, .ye = 40 }, 0x1000);
    lib.mem_rd(lib.bar0 + (uint64_t)WIN_FW * (2u << 20) + 0x1000, buf, 8);
    tt_ok(!memcmp(buf, "\xff\xff\xff\xff\xff\xff\xff\xff", 8), "a read "
          "of a coordinate with no node returns all-ones, as the NIU "
          "defines it");
}

/* -------------------------------------------------- firmware tests -- */

#define MBOX            0x3000u     /* its own page: no code there */
#define MB_GO           0x00
#define MB_ACK          0x04
#define MB_RESULT       0x08
#define MB_BAD          0x0c
#define MB_DATA         0x40        /* 256 bytes, a line away */
#define MB_DATA_LAST    (MB_DATA + 252)
#define KERNEL          0x2000u
#define WAIT_S          10

static void load_and_release(int x, int y, const RvProg *p)
{
    Target t = { .xe = x, .ye = y };
    uint32_t zero[64] = { 0 };
    uint64_t r = reg(x, y, SOFT_RESET_0);

    tt_host_wr32(&lib, r, HOLD_ALL);
    lib.mem_wr(tlb(WIN_FW, &t, 0), p->insn, p->n * 4);
    lib.mem_wr(tlb(WIN_FW, &t, MBOX), zero, sizeof(zero));
    tt_host_wr32(&lib, reg(x, y, SOFT_RESET_0), HOLD_ALL & ~SOFT_RESET_BRISC);
}

static void hold(int x, int y)
{
    tt_host_wr32(&lib, reg(x, y, SOFT_RESET_0), HOLD_ALL);
}

/* Poll mailbox word @off of the tile behind @mbox until it reads @v */
static bool wait_word(uint64_t mbox, uint32_t off, uint32_t v)
{
    time_t until = time(NULL) + WAIT_S;

    while (tt_host_rd32(&lib, mbox + off) != v) {
        if (time(NULL) > until) {
            return false;
        }
        lib.clock(1);
    }
    return true;
}

/*
 * Wait for a doorbell (stream register, by message), check the data
 * (first and last word of 256 bytes through the mapping) is ~doorbell,
 * acknowledge
 */
static void build_ordering(RvProg *p)
{
    int loop, b1, b2, bad, j;

    p->n = 0;
    rv_li(p, RV_T0, STREAM0_REG0);
    rv_li(p, RV_T1, MBOX);
    rv_emit(p, rv_addi(RV_S0, RV_ZERO, 0));
    loop = rv_emit(p, rv_lw(RV_A0, RV_T0, 0));
    rv_fix_branch(p, rv_emit(p, 0), 0, RV_A0, RV_S0, loop);
    rv_emit(p, rv_addi(RV_S0, RV_A0, 0));
    rv_emit(p, rv_xori(RV_A2, RV_A0, -1));
    rv_emit(p, rv_lw(RV_A1, RV_T1, MB_DATA));
    b1 = rv_emit(p, 0);
    rv_emit(p, rv_lw(RV_A1, RV_T1, MB_DATA_LAST));
    b2 = rv_emit(p, 0);
    rv_emit(p, rv_sw(RV_A0, RV_T1, MB_ACK));
    j = rv_emit(p, 0);
    rv_fix_jal(p, j, loop);
    bad = rv_emit(p, rv_sw(RV_A0, RV_T1, MB_BAD));
    rv_emit(p, rv_sw(RV_A0, RV_T1, MB_ACK));
    rv_fix_jal(p, rv_emit(p, 0), loop);
    rv_fix_branch(p, b1, 1, RV_A1, RV_A2, bad);
    rv_fix_branch(p, b2, 1, RV_A1, RV_A2, bad);
}

static void test_ordering(int rounds)
{
    Target t = { .xe = 1, .ye = 3 };
    uint64_t mbox, bell;
    uint32_t data[64], bad;
    RvProg p;
    int i;

    build_ordering(&p);
    load_and_release(1, 3, &p);
    mbox = tlb(WIN_FW, &t, MBOX);
    bell = reg(1, 3, STREAM0_REG0);
    for (i = 1; i <= rounds; i++) {
        for (int k = 0; k < 64; k++) {
            data[k] = ~(uint32_t)i;
        }
        lib.mem_wr(mbox + MB_DATA, data, sizeof(data));
        tt_host_wr32(&lib, bell, i);
        if (!wait_word(mbox, MB_ACK, i)) {
            break;
        }
    }
    bad = tt_host_rd32(&lib, mbox + MB_BAD);
    tt_ok(i > rounds && bad == 0, "ordering: %d doorbells by message after "
          "data through the mapping; the core saw the data every time "
          "(stopped at %d, bad at 0x%x)", rounds, i, bad);
    hold(1, 3);
}

/* Poll GO (and park); copy it to ACK; again */
static void build_mailbox(RvProg *p)
{
    int loop;

    p->n = 0;
    rv_li(p, RV_T1, MBOX);
    rv_emit(p, rv_addi(RV_S0, RV_ZERO, 0));
    loop = rv_emit(p, rv_lw(RV_A0, RV_T1, MB_GO));
    rv_fix_branch(p, rv_emit(p, 0), 0, RV_A0, RV_S0, loop);
    rv_emit(p, rv_addi(RV_S0, RV_A0, 0));
    rv_emit(p, rv_sw(RV_A0, RV_T1, MB_ACK));
    rv_fix_jal(p, rv_emit(p, 0), loop);
}

static void test_wakeup(int rounds)
{
    Target t = { .xe = 2, .ye = 4 };
    struct timespec nap = { 0, 300 * 1000 };
    struct timespec long_nap = { 0, 50 * 1000 * 1000 };
    uint64_t mbox;
    RvProg p;
    int i;

    build_mailbox(&p);
    load_and_release(2, 4, &p);
    mbox = tlb(WIN_FW, &t, MBOX);
    for (i = 1; i <= rounds; i++) {
        nanosleep(&nap, NULL);          /* long enough to park */
        tt_host_wr32(&lib, mbox + MB_GO, i);
        if (!wait_word(mbox, MB_ACK, i)) {
            break;
        }
    }
    tt_ok(i > rounds, "wake-up: %d mailbox writes through the mapping to "
          "a core polling L1, each answered (stopped at %d)", rounds, i);

    /* no read in between: libttsim_clock() alone must wake the core */
    nanosleep(&long_nap, NULL);
    tt_host_wr32(&lib, mbox + MB_GO, i);
    lib.clock(1);
    nanosleep(&long_nap, NULL);
    tt_ok(tt_host_rd32(&lib, mbox + MB_ACK) == (uint32_t)i, "wake-up: "
          "libttsim_clock() woke the core (answered before the next read)");
    hold(2, 4);
}

/* Wait for GO; call the kernel at KERNEL; acknowledge GO */
static void build_dispatcher(RvProg *p)
{
    int loop;

    p->n = 0;
    rv_li(p, RV_T1, MBOX);
    rv_li(p, RV_S1, KERNEL);
    rv_emit(p, rv_addi(RV_S0, RV_ZERO, 0));
    loop = rv_emit(p, rv_lw(RV_A0, RV_T1, MB_GO));
    rv_fix_branch(p, rv_emit(p, 0), 0, RV_A0, RV_S0, loop);
    rv_emit(p, rv_addi(RV_S0, RV_A0, 0));
    rv_emit(p, rv_jalr(RV_RA, RV_S1, 0));
    rv_emit(p, rv_sw(RV_S0, RV_T1, MB_ACK));
    rv_fix_jal(p, rv_emit(p, 0), loop);
}

/* RESULT = @v + @extra (that many addi of 1): a kernel of 4 + extra words */
static void build_kernel(RvProg *k, uint32_t v, int extra)
{
    k->n = 0;
    rv_li(k, RV_A0, v);
    for (int i = 0; i < extra; i++) {
        rv_emit(k, rv_addi(RV_A0, RV_A0, 1));
    }
    rv_emit(k, rv_sw(RV_A0, RV_T1, MB_RESULT));
    rv_emit(k, rv_jalr(RV_ZERO, RV_RA, 0));
}

/* The dispatcher on @n tiles of column 3; kernels written by multicast */
static void test_coherence(int rounds)
{
    Target one = { .xe = 3, .ye = 2 };
    Target all = { .xe = 3, .ye = 5, .xs = 3, .ys = 2, .mcast = true };
    uint64_t mbox[4];
    int i, bad = 0, multi = 0;
    RvProg p, k;

    build_dispatcher(&p);
    for (int y = 2; y <= 5; y++) {
        Target t = { .xe = 3, .ye = y };

        load_and_release(3, y, &p);
        mbox[y - 2] = tlb(WIN_FW + 1 + (y - 2), &t, MBOX);
    }
    for (i = 1; i <= rounds && !bad; i++) {
        uint32_t v = i * 0x9e3779b1u, want;
        int extra = i % 5;
        bool mcast = i % 10 == 0;
        int ntiles = mcast ? 4 : 1;

        uint64_t base = tlb(WIN_FW, mcast ? &all : &one, KERNEL);

        build_kernel(&k, v, extra);
        want = v + extra;
        if (i % 7 == 3) {
            /* all but the constant's low half, then that one word alone */
            lib.mem_wr(base, k.insn, 4);
            lib.mem_wr(base + 8, &k.insn[2], (k.n - 2) * 4);
            lib.mem_wr(base + 4, &k.insn[1], 4);
        } else {
            lib.mem_wr(base, k.insn, k.n * 4);
        }
        multi += mcast;
        for (int j = 0; j < ntiles; j++) {
            tt_host_wr32(&lib, mbox[j] + MB_GO, i);
        }
        for (int j = 0; j < ntiles; j++) {
            uint32_t r;

            if (!wait_word(mbox[j], MB_ACK, i)) {
                printf("# coherence: tile (3, %d) did not answer launch %d\n",
                       2 + j, i);
                bad++;
                break;
            }
            r = tt_host_rd32(&lib, mbox[j] + MB_RESULT);
            if (r != want) {
                printf("# coherence: launch %d on tile (3, %d) ran old code "
                       "(0x%x, want 0x%x)\n", i, 2 + j, r, want);
                bad++;
            }
        }
    }
    tt_ok(!bad && i > rounds, "coherence: %d launches of a kernel the host "
          "rewrote each time (%d by multicast to 4 tiles, new lengths, "
          "single words) ran the new code", rounds, multi);
    for (int y = 2; y <= 5; y++) {
        hold(3, y);
    }
}

/* ------------------------------------------------------------- main -- */

int main(int argc, char **argv)
{
    const char *seed = getenv("TT_TEST_SEED");
    const char *shm = getenv("TT_EMU_SHM");

    if (argc != 2) {
        fprintf(stderr, "usage: %s <path to libttsim.so>\n", argv[0]);
        return 2;
    }
    if (seed && *seed) {
        long v = 0;

        /* decimal, or 0x-prefixed hex as the seed line prints it */
        if (sscanf(seed, "%li", &v) == 1) {
            rng = (uint32_t)v | 1;
        }
    }
    if (!tt_ok(tt_load(argv[1], &lib) == 0, "all nine libttsim symbols "
               "resolve")) {
        return tt_done();
    }
    printf("# seed 0x%x, %s\n", rng, shm && !strcmp(shm, "0") ?
           "message path only (TT_EMU_SHM=0)" : "L1 and GDDR mapped");
    tt_ok(tt_host_start(&lib, tt_host_no_dma_rd, tt_host_no_dma_wr) ==
          TT_HOST_BH_ID, "a Blackhole");
    bar4 = tt_host_bar_base(&lib, 0x20);

    test_registers();
    test_which_path(!(shm && !strcmp(shm, "0")));
    test_unicast("translated", 400);
    test_multicast("translated", 40);
    test_gddr("translated", 200);
    test_across_windows();
    test_moved_window();
    set_xlate(0, false);
    set_xlate(1, false);
    test_unicast("raw coordinates", 200);
    test_multicast("raw coordinates", 25);
    test_gddr("raw coordinates", 100);
    set_xlate(0, true);
    set_xlate(1, true);

    test_ordering(3000);
    test_wakeup(200);
    test_coherence(1000);

    tt_ok(!tt_host_dma_calls(), "no device-to-host DMA");

    /*
     * Routing changed, then a new session: the chip is power-cycled and
     * every NIU's routing is back to its reset state (translation on, only
     * the non-Tensix columns and rows opted out), which the mapped path
     * must know as the server does
     */
    set_xlate(0, false);
    set_xlate(1, false);
    toggle_optout(tensix_x[0], TENSIX_Y0, 0);
    toggle_optout(tensix_x[1], TENSIX_Y1, 1);
    lib.exit();
    tt_ok(tt_host_start(&lib, tt_host_no_dma_rd, tt_host_no_dma_wr) ==
          TT_HOST_BH_ID, "a second session, the chip power-cycled");
    bar4 = tt_host_bar_base(&lib, 0x20);
    xlate[0] = xlate[1] = true;
    test_unicast("translated after the power cycle", 100);
    test_multicast("translated after the power cycle", 20);
    /* and routing changes after it reach the mapped path again */
    set_xlate(0, false);
    set_xlate(1, false);
    test_unicast("raw coordinates after the power cycle", 100);
    set_xlate(0, true);
    set_xlate(1, true);
    lib.exit();
    return tt_done();
}
