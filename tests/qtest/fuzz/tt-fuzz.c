/*
 * Tenstorrent Blackhole fuzz targets
 *
 * Three structured targets for the inputs a guest core or the host
 * controls, on a one-column Blackhole (ten Tensix tiles, so a reset is
 * cheap).  Each input is a sequence of operations; every operation is one
 * or more "tt" qtest commands (hw/tenstorrent/blackhole-qtest.c), so with
 * FUZZ_SERIALIZE_QTEST=1 QTEST_LOG=1 the log of a crashing input replays on
 * an ordinary build (tests/fuzz/replay.py):
 *
 *   tt-niu-fuzz     NOC command buffers of both NIUs of any tile: unicast,
 *                   multicast rectangles (also wrapping and off-grid),
 *                   inline writes, reads, atomics at any address, to every
 *                   kind of node and to harvested and absent coordinates;
 *                   NIU configuration and counter registers.
 *   tt-tensix-fuzz  Tensix instruction words pushed to every thread (TRISC
 *                   pushes before the MOP expander, BRISC pushes after it,
 *                   and the pushes hardware refuses), with the thread
 *                   configuration, GPRs, MOP configuration, PC buffers and
 *                   L1 contents they read.
 *   tt-pcie-fuzz    The host's side: BAR0 (TLB windows and their
 *                   configuration, the NOC2AXI NIUs, the ARC APB window),
 *                   BAR2 (DBI: outbound iATU, eDMA), BAR4 (4 GiB windows),
 *                   eDMA transfers from host memory the input fills
 *                   (and from unmapped host memory), the ARC's registers.
 *
 *   tt-eth-fuzz     Frames from the wire into Ethernet channel 2's
 *                   receive path (raw, TT-link with any header, hellos
 *                   that bring the link up, sequence numbers, addresses
 *                   in and out of L1 and the registers), with the TX/RX
 *                   registers and TX commands the tile's cores program.
 *
 * generic-fuzz reaches the MMIO regions of the first tile with
 * QEMU_FUZZ_OBJECTS (tests/fuzz/run-fuzz.sh).
 *
 * Register layout: tt-isa-documentation BlackholeA0/NoC/MemoryMap.md and
 * the project's include/hw/tenstorrent headers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qemu/main-loop.h"
#include "tests/qtest/libqtest.h"
#include "fuzz.h"
#include "tt-fuzz.h"
#include "tt-pcie-host.h"       /* generated from data/pcie-host.yaml */
#include "tt-tile-map.h"        /* generated from data/tile-map.yaml */

/* A P150 with only Tensix column 1 (tiles (1, 2) .. (1, 11)) */
#define TT_FUZZ_MACHINE "-accel qtest -M blackhole,harvested-tensix-cols=" \
                        "2:3:4:5:6:7:10:11:12:13:14:15:16,prealloc-l1=off"
#define TT_FUZZ_TILE_X  1
#define TT_FUZZ_TILE_Y0 2
#define TT_FUZZ_TILES   10
#define TT_FUZZ_L1      0x180000u

/* Physical NOC0 nodes of this machine (grid.c) */
#define TT_FUZZ_ARC_X   8
#define TT_FUZZ_PCIE_X  2

/* a tile's blocks, from the generated tile map */
#define TT_NIU_BASE(n)      (TT_TILE_NIU0_BASE + \
                             (n) * (TT_TILE_NIU1_BASE - TT_TILE_NIU0_BASE))
#define TT_PUSH_BASE        TT_TILE_INSTRN_BUF_BASE
#define TT_GPR_BASE         TT_TILE_TENSIX_GPR_BASE
#define TT_PCBUF_BASE       TT_TILE_PC_BUF_BASE
#define TT_CFG_BASE         TT_TILE_TENSIX_CFG_BASE
#define TT_MOPCFG_BASE      TT_TILE_MOP_CFG_BASE

#define TT_HOST_MEM_SIZE    (64u << 20)

static const char *const tt_role[5] = {
    "brisc", "ncrisc", "trisc0", "trisc1", "trisc2"
};

/*
 * Coordinates a command may name: Tensix tiles, DRAM, PCIe, ARC, a
 * harvested column, the translated DRAM/PCIe coordinates, off-grid ones.
 */
static const uint8_t tt_coords[][2] = {
    { 1, 2 }, { 1, 3 }, { 1, 11 }, { 0, 0 }, { 0, 5 }, { 9, 3 }, { 9, 11 },
    { 2, 0 }, { 11, 0 }, { 8, 0 }, { 3, 2 }, { 16, 11 }, { 17, 12 },
    { 18, 14 }, { 19, 24 }, { 20, 3 }, { 63, 63 }, { 0, 63 }, { 63, 0 },
    { 5, 1 }, { 1, 1 }, { 14, 6 },
};

typedef struct TTFuzzIn {
    const uint8_t *p;
    size_t left;
} TTFuzzIn;

static uint8_t in8(TTFuzzIn *in)
{
    if (!in->left) {
        return 0;
    }
    in->left--;
    return *in->p++;
}

static uint16_t in16(TTFuzzIn *in)
{
    return in8(in) | in8(in) << 8;
}

static uint32_t in32(TTFuzzIn *in)
{
    return in16(in) | (uint32_t)in16(in) << 16;
}

static uint64_t in64(TTFuzzIn *in)
{
    return in32(in) | (uint64_t)in32(in) << 32;
}

/* One "tt" command; its reply (OK or FAIL) does not matter here */
static void G_GNUC_PRINTF(2, 3) tt_cmd(QTestState *s, const char *fmt, ...)
{
    va_list ap;
    g_autofree char *c = NULL;

    va_start(ap, fmt);
    c = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_strfreev(qtest_raw_cmd(s, "%s", c));
}

static uint32_t tt_cmd_readl(QTestState *s, const char *target, uint64_t a)
{
    gchar **w = qtest_raw_cmd(s, "tt readl %s 0x%" PRIx64, target, a);
    uint64_t v = 0;

    if (!w[0] || strcmp(w[0], "OK") || !w[1] ||
        qemu_strtou64(w[1], NULL, 0, &v)) {
        v = 0;
    }
    g_strfreev(w);
    return v;
}

static void tt_writel(QTestState *s, int x, int y, int role, uint64_t a,
                      uint32_t v)
{
    tt_cmd(s, "tt writel %d %d %s 0x%" PRIx64 " 0x%x", x, y,
           role < 0 ? "-" : tt_role[role], a, v);
}

static void tt_readl(QTestState *s, int x, int y, int role, uint64_t a)
{
    tt_cmd(s, "tt readl %d %d %s 0x%" PRIx64, x, y,
           role < 0 ? "-" : tt_role[role], a);
}

/* "tt write" of @len input bytes (at most 64) */
static void tt_write_bytes(QTestState *s, const char *target, uint64_t a,
                           TTFuzzIn *in, unsigned len)
{
    GString *hex = g_string_new("0x");

    len = MAX(len, 1);
    for (unsigned i = 0; i < len; i++) {
        g_string_append_printf(hex, "%02x", in8(in));
    }
    tt_cmd(s, "tt write %s 0x%" PRIx64 " %u %s", target, a, len, hex->str);
    g_string_free(hex, true);
}

static void tt_read_bytes(QTestState *s, const char *target, uint64_t a,
                          unsigned len)
{
    tt_cmd(s, "tt read %s 0x%" PRIx64 " %u", target, a, MAX(len, 1));
}

static int tt_tile_y(uint8_t b)
{
    return TT_FUZZ_TILE_Y0 + b % TT_FUZZ_TILES;
}

/* L1 bytes of tile @y, the data that NOC writes and Tensix loads read */
static void tt_l1_fill(QTestState *s, TTFuzzIn *in)
{
    int y = tt_tile_y(in8(in));
    uint32_t a = in32(in) % TT_FUZZ_L1;
    unsigned len = in8(in) % 64;
    g_autofree char *t = g_strdup_printf("%d %d brisc", TT_FUZZ_TILE_X, y);

    tt_write_bytes(s, t, a, in, len);
}

/* A coordinate word: a listed node, or the input's own 12 bits */
static uint32_t tt_coord(uint8_t sel, uint16_t raw)
{
    if (sel & 0x80) {
        return raw & 0xfff;
    }
    sel %= ARRAY_SIZE(tt_coords);
    return tt_coords[sel][0] | tt_coords[sel][1] << 6;
}

/* --------------------------------------------------------------- NIU -- */

enum {
    NIU_OP_CMD,         /* fill a command buffer and issue it */
    NIU_OP_REG_WRITE,   /* any NIU register */
    NIU_OP_REG_READ,
    NIU_OP_L1,          /* source data */
    NIU_OP_CLOCK,
    NIU_OP_NODE_ID,     /* read the command buffer's node id */
    NIU_OP_COUNT,
};

static void tt_niu_cmd(QTestState *s, TTFuzzIn *in)
{
    uint8_t sel = in8(in);
    int y = tt_tile_y(in8(in));
    int role = in8(in) % 5;     /* every core of a tile has the NIUs */
    uint32_t base = TT_NIU_BASE(sel & 1) + ((sel >> 1) & 3) * 0x800u;
    uint8_t tsel = in8(in), rsel = in8(in), shape = in8(in);
    uint32_t targ_hi, ret_hi, ctrl, len_be;

    /*
     * ADDR_HI holds the destination (x, y) in bits 0-11 and, for a
     * multicast, the start (x, y) in bits 12-23 (tt-metal noc_parameters.h);
     * rectangles may be empty, inverted or wrap
     */
    targ_hi = tt_coord(tsel, in16(in));
    if (shape & 1) {
        targ_hi |= tt_coord(shape >> 1, in16(in)) << 12;
    }
    ret_hi = tt_coord(rsel, in16(in));
    ctrl = in32(in);
    len_be = in32(in);
    if (shape & 2) {
        len_be %= 0x4000;       /* mostly lengths a transfer can have */
    }
    tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x00, in32(in));
    tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x04,
              shape & 0x10 ? in32(in) : in8(in) & 0xf);
    tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x08, targ_hi);
    tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x0c, in32(in));
    tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x10,
              shape & 0x20 ? in32(in) : in8(in) & 0xf);
    tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x14, ret_hi);
    tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x18, in16(in));
    tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x1c, ctrl);
    tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x20, len_be);
    if (shape & 4) {
        tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x24, in32(in));
        tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x28, in32(in));
        tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x30, in32(in));
    }
    tt_writel(s, TT_FUZZ_TILE_X, y, role, base + 0x40, shape & 8 ? in32(in)
                                                                  : 1);
}

static void tt_niu_fuzz(QTestState *s, const unsigned char *data, size_t size)
{
    TTFuzzIn in = { data, size };

    while (in.left) {
        uint8_t op = in8(&in) % NIU_OP_COUNT;
        uint8_t sel;
        int y;

        switch (op) {
        case NIU_OP_CMD:
            tt_niu_cmd(s, &in);
            break;
        case NIU_OP_REG_WRITE:
            sel = in8(&in);
            y = tt_tile_y(in8(&in));
            tt_writel(s, TT_FUZZ_TILE_X, y, sel % 5,
                      TT_NIU_BASE(sel >> 7) + (in16(&in) & 0xfffc),
                      in32(&in));
            break;
        case NIU_OP_REG_READ:
            sel = in8(&in);
            y = tt_tile_y(in8(&in));
            tt_readl(s, TT_FUZZ_TILE_X, y, sel % 5,
                     TT_NIU_BASE(sel >> 7) + (in16(&in) & 0xfffc));
            break;
        case NIU_OP_L1:
            tt_l1_fill(s, &in);
            break;
        case NIU_OP_CLOCK:
            tt_cmd(s, "clock_step %u", (in16(&in) + 1) * 1000);
            break;
        case NIU_OP_NODE_ID:
            sel = in8(&in);
            tt_readl(s, TT_FUZZ_TILE_X, tt_tile_y(sel), 0,
                     TT_NIU_BASE(sel >> 7) + 0x44);
            break;
        }
    }
    flush_events(s);
    fuzz_reset(s);
}

/* ------------------------------------------------------------ Tensix -- */

enum {
    TX_OP_PUSH,
    TX_OP_PUSH_RUN,     /* several words to one thread */
    TX_OP_CFG,
    TX_OP_GPR,
    TX_OP_MOPCFG,
    TX_OP_PCBUF_WRITE,
    TX_OP_PCBUF_READ,
    TX_OP_L1,
    TX_OP_CFG_READ,
    TX_OP_COUNT,
};

/*
 * Push window @sel: TRISCn pushes to its own thread (before the MOP
 * expander), BRISC to thread 0-2 (after it); TRISC1 into thread 2's
 * window and NCRISC pushes are refused (logged).
 */
static void tt_push(QTestState *s, int y, uint8_t sel, uint32_t w)
{
    static const struct { int role, window; } win[8] = {
        { 2, 0 }, { 3, 0 }, { 4, 0 }, { 0, 0 }, { 0, 1 }, { 0, 2 },
        { 3, 2 }, { 1, 0 },
    };
    int i = sel % 8;

    tt_writel(s, TT_FUZZ_TILE_X, y, win[i].role,
              TT_PUSH_BASE + win[i].window * 0x10000u, w);
}

static void tt_tensix_fuzz(QTestState *s, const unsigned char *data,
                           size_t size)
{
    TTFuzzIn in = { data, size };

    while (in.left) {
        uint8_t op = in8(&in) % TX_OP_COUNT;
        uint8_t sel = in8(&in);
        /* mostly the first tile: its state builds up over the input */
        int y = sel & 0x80 ? tt_tile_y(sel) : TT_FUZZ_TILE_Y0;
        int role = sel % 5;
        unsigned n;

        switch (op) {
        case TX_OP_PUSH:
            tt_push(s, y, in8(&in), in32(&in));
            break;
        case TX_OP_PUSH_RUN:
            n = 1 + in8(&in) % 16;
            sel = in8(&in);
            while (n-- && in.left) {
                tt_push(s, y, sel, in32(&in));
            }
            break;
        case TX_OP_CFG:
            tt_writel(s, TT_FUZZ_TILE_X, y, role,
                      TT_CFG_BASE + (in16(&in) & 0xfffc), in32(&in));
            break;
        case TX_OP_CFG_READ:
            tt_readl(s, TT_FUZZ_TILE_X, y, role,
                     TT_CFG_BASE + (in16(&in) & 0xfffc));
            break;
        case TX_OP_GPR:
            tt_writel(s, TT_FUZZ_TILE_X, y, role,
                      TT_GPR_BASE + (in32(&in) % 0x40000 & ~3u), in32(&in));
            break;
        case TX_OP_MOPCFG:
            tt_writel(s, TT_FUZZ_TILE_X, y, role,
                      TT_MOPCFG_BASE + (in16(&in) & 0xffc), in32(&in));
            break;
        case TX_OP_PCBUF_WRITE:
            tt_writel(s, TT_FUZZ_TILE_X, y, role,
                      TT_PCBUF_BASE + (in32(&in) % 0x30000 & ~3u),
                      in32(&in));
            break;
        case TX_OP_PCBUF_READ:
            tt_readl(s, TT_FUZZ_TILE_X, y, role,
                     TT_PCBUF_BASE + (in32(&in) % 0x30000 & ~3u));
            break;
        case TX_OP_L1:
            tt_l1_fill(s, &in);
            break;
        }
    }
    flush_events(s);
    fuzz_reset(s);
}

/* -------------------------------------------------------------- PCIe -- */

enum {
    PCIE_OP_BAR_WRITE,
    PCIE_OP_BAR_READ,
    PCIE_OP_BAR_BLOCK,      /* an access of 1-64 bytes */
    PCIE_OP_HOST_MEM,       /* host memory the eDMA reads */
    PCIE_OP_EDMA,
    PCIE_OP_ARC_WRITE,      /* the ARC's registers from the NOC */
    PCIE_OP_ARC_READ,
    PCIE_OP_NOC_WRITE,      /* the PCIe tile as the NOC reaches it */
    PCIE_OP_COUNT,
};

/* A BAR and an offset in it, biased towards the registers */
static uint64_t tt_bar_offset(TTFuzzIn *in, int *bar)
{
    uint8_t sel = in8(in);
    uint64_t v = in64(in);

    switch (sel % 10) {
    case 0:     /* TLB configuration (3 words per window, strided too) */
        *bar = 0;
        return TT_TLB_CFG_BASE + (v % 0x1000 & ~3u);
    case 1:     /* the first 2 MiB TLB windows */
        *bar = 0;
        return v % (16u << 21);
    case 2:     /* the NOC2AXI NIUs */
        *bar = 0;
        return TT_NOC2AXI_BASE + (v % 0x40000 & ~3u);
    case 3:     /* the ARC APB window */
        *bar = 0;
        return TT_PCIE_ARC_APB_BASE + (v % 0x100000);
    case 4:     /* iATU and eDMA */
        *bar = 2;
        return v % 0x3000 & ~3u;
    case 5:
        *bar = 2;
        return v % TT_PCIE_BAR2_SIZE;
    case 6:     /* BAR4: 4 GiB windows */
        *bar = 4;
        return v % (32ull << 30);
    case 7:
        *bar = 4;
        return (v & 7) << 32 | (v >> 32) % 0x2000;
    default:
        *bar = 0;
        return v % TT_PCIE_BAR0_SIZE;
    }
}

/*
 * Run one eDMA transfer from host memory to BAR0 and wait for it: the
 * worker thread takes the BQL for each chunk, so let it go while waiting.
 */
static void tt_edma(QTestState *s, TTFuzzIn *in)
{
    uint8_t sel = in8(in);
    uint64_t sar = in64(in);
    uint32_t dar = in32(in), size = in32(in), dar_hi = 0, bell = 1;

    if (!(sel & 1)) {
        sar %= TT_HOST_MEM_SIZE;        /* mostly mapped host memory */
    }
    if (!(sel & 2)) {
        size %= 0x40000;                /* and a short transfer */
    }
    if (!(sel & 4)) {
        dar %= TT_PCIE_BAR0_SIZE;
    }
    tt_cmd(s, "tt writel bar 2 - 0x%x 0x%x", TT_EDMA_RD_SAR_LO, (uint32_t)sar);
    tt_cmd(s, "tt writel bar 2 - 0x%x 0x%x", TT_EDMA_RD_SAR_HI,
           (uint32_t)(sar >> 32));
    tt_cmd(s, "tt writel bar 2 - 0x%x 0x%x", TT_EDMA_RD_DAR_LO, dar);
    if (sel & 8) {
        dar_hi = in32(in);
    }
    if (sel & 16) {
        bell = in32(in);
    }
    tt_cmd(s, "tt writel bar 2 - 0x%x 0x%x", TT_EDMA_RD_DAR_HI, dar_hi);
    tt_cmd(s, "tt writel bar 2 - 0x%x 0x%x", TT_EDMA_RD_SIZE, size);
    tt_cmd(s, "tt writel bar 2 - 0x%x 0x%x", TT_EDMA_RD_DOORBELL, bell);
    /*
     * The controller refuses a doorbell other than 1 (read channel 0) and
     * a transfer that is empty, unaligned or leaves BAR0, leaving SIZE as
     * written: wait only for one that started, and a bounded time (one
     * still running then overlaps what follows, as it may)
     */
    if (bell != 1 || !size || (size | dar) & 3 || dar_hi ||
        (uint64_t)dar + size > TT_PCIE_BAR0_SIZE) {
        return;
    }
    for (int i = 0; i < 200; i++) {
        if (!tt_cmd_readl(s, "bar 2 -", TT_EDMA_RD_SIZE)) {
            break;
        }
        bql_unlock();
        g_usleep(500);
        bql_lock();
    }
}

static void tt_pcie_fuzz(QTestState *s, const unsigned char *data,
                         size_t size)
{
    TTFuzzIn in = { data, size };
    g_autofree char *pcie = g_strdup_printf("%d 0 -", TT_FUZZ_PCIE_X);

    while (in.left) {
        uint8_t op = in8(&in) % PCIE_OP_COUNT;
        uint64_t a;
        uint8_t n;
        int bar;

        switch (op) {
        case PCIE_OP_BAR_WRITE:
            a = tt_bar_offset(&in, &bar);
            tt_cmd(s, "tt writel bar %d - 0x%" PRIx64 " 0x%x", bar, a,
                   in32(&in));
            break;
        case PCIE_OP_BAR_READ:
            a = tt_bar_offset(&in, &bar);
            tt_cmd(s, "tt readl bar %d - 0x%" PRIx64, bar, a);
            break;
        case PCIE_OP_BAR_BLOCK: {
            g_autofree char *t = NULL;

            a = tt_bar_offset(&in, &bar);
            n = in8(&in);
            t = g_strdup_printf("bar %d -", bar);
            if (n & 0x80) {
                tt_read_bytes(s, t, a, n % 65);
            } else {
                tt_write_bytes(s, t, a, &in, n % 65);
            }
            break;
        }
        case PCIE_OP_HOST_MEM:
            /* window 0 of the PCIe tile's NOC side is host memory */
            a = in32(&in) % TT_HOST_MEM_SIZE;
            tt_write_bytes(s, pcie, a, &in, in8(&in) % 65);
            break;
        case PCIE_OP_EDMA:
            tt_edma(s, &in);
            break;
        case PCIE_OP_ARC_WRITE:
            tt_writel(s, TT_FUZZ_ARC_X, 0, -1, in8(&in) & 1 ?
                      0x80030000u + (in16(&in) & 0xfffc) :
                      0x800b0000u + (in16(&in) & 0xffc), in32(&in));
            break;
        case PCIE_OP_ARC_READ:
            tt_readl(s, TT_FUZZ_ARC_X, 0, -1, in8(&in) & 1 ?
                     0x80030000u + (in16(&in) & 0xfffc) :
                     0x800b0000u + (in16(&in) & 0xffc));
            break;
        case PCIE_OP_NOC_WRITE:
            /* window bits 63:58 select host, iATU, DBI or the NIUs */
            a = (uint64_t)(in8(&in) & 0x3f) << 58 | in32(&in);
            if (in8(&in) & 1) {
                a |= 0xffffffffff000000ull;
            }
            tt_writel(s, TT_FUZZ_PCIE_X, 0, -1, a, in32(&in));
            break;
        }
    }
    flush_events(s);
    fuzz_reset(s);
}

/* ------------------------------------------------------------------- */

/* Channel 2's tile, (2, 1): its TX/RX block and L1 */
#define TT_ETH_FUZZ_CH      2
#define TT_ETH_FUZZ_X       2
#define TT_ETH_FUZZ_TXRX    0xffb90000u
#define TT_ETH_FUZZ_TXRX_SZ 0x8800u
#define TT_ETH_FUZZ_L1      0x80000u

enum {
    ETH_OP_FRAME,       /* raw bytes */
    ETH_OP_TTLINK,      /* an Ethernet + TT-link header, fields fuzzed */
    ETH_OP_HELLO,       /* a hello: the link comes up */
    ETH_OP_REG_WRITE,
    ETH_OP_REG_READ,
    ETH_OP_L1,
    ETH_OP_TX_CMD,      /* a whole command: addresses, size, CMD */
    ETH_OP_COUNT,
};

static void tt_ethrx(QTestState *s, const uint8_t *f, size_t len)
{
    GString *hex = g_string_new("0x");

    for (size_t i = 0; i < len; i++) {
        g_string_append_printf(hex, "%02x", f[i]);
    }
    tt_cmd(s, "tt ethrx %d %s", TT_ETH_FUZZ_CH, hex->str);
    g_string_free(hex, true);
}

static void tt_eth_fuzz(QTestState *s, const unsigned char *data,
                        size_t size)
{
    TTFuzzIn in = { data, size };
    uint8_t f[2048];

    while (in.left) {
        uint8_t op = in8(&in) % ETH_OP_COUNT;
        size_t len, i;

        switch (op) {
        case ETH_OP_FRAME:
            len = in16(&in) % sizeof(f);
            for (i = 0; i < len; i++) {
                f[i] = in8(&in);
            }
            tt_ethrx(s, f, len);
            break;
        case ETH_OP_TTLINK:
        case ETH_OP_HELLO:
            /* DA: broadcast, multicast or the input's */
            memset(f, 0xff, 6);
            if (in8(&in) & 1) {
                memcpy(f, "\x01\0\0\0\0\x01", 6);
            }
            memset(f + 6, 0x02, 6);
            f[12] = 0x88;
            f[13] = 0xb5;
            f[14] = 0x54;
            for (i = 15; i < 32; i++) {
                f[i] = in8(&in);
            }
            len = 32 + in16(&in) % (sizeof(f) - 32);
            if (op == ETH_OP_HELLO) {
                f[15] = 3;          /* hello, 36 bytes of chip info */
                len = 32 + 36;
            }
            f[24] = (len - 32) & 0xff;
            f[25] = (len - 32) >> 8;
            for (i = 32; i < len; i++) {
                f[i] = in8(&in);
            }
            tt_ethrx(s, f, len);
            break;
        case ETH_OP_REG_WRITE:
            tt_writel(s, TT_ETH_FUZZ_X, 1, -1, TT_ETH_FUZZ_TXRX +
                      (in16(&in) % TT_ETH_FUZZ_TXRX_SZ & ~3u), in32(&in));
            break;
        case ETH_OP_REG_READ:
            tt_readl(s, TT_ETH_FUZZ_X, 1, -1, TT_ETH_FUZZ_TXRX +
                     (in16(&in) % TT_ETH_FUZZ_TXRX_SZ & ~3u));
            break;
        case ETH_OP_L1: {
            g_autofree char *t = g_strdup_printf("%d 1 -", TT_ETH_FUZZ_X);

            tt_write_bytes(s, t, in32(&in) % TT_ETH_FUZZ_L1, &in,
                           in8(&in) % 64);
            break;
        }
        case ETH_OP_TX_CMD: {
            uint32_t q = 0x1000 * (in8(&in) % 3);

            tt_writel(s, TT_ETH_FUZZ_X, 1, -1, TT_ETH_FUZZ_TXRX + q + 0x14,
                      in32(&in) % (TT_ETH_FUZZ_L1 + 64));
            tt_writel(s, TT_ETH_FUZZ_X, 1, -1, TT_ETH_FUZZ_TXRX + q + 0x18,
                      in32(&in) % (TT_ETH_FUZZ_L1 + 64));
            tt_writel(s, TT_ETH_FUZZ_X, 1, -1, TT_ETH_FUZZ_TXRX + q + 0x1c,
                      in32(&in));
            tt_writel(s, TT_ETH_FUZZ_X, 1, -1, TT_ETH_FUZZ_TXRX + q + 0x4,
                      in8(&in) % 6);
            break;
        }
        }
    }
    flush_events(s);
    fuzz_reset(s);
}

static GString *tt_fuzz_cmdline(FuzzTarget *t)
{
    return g_string_new(TARGET_NAME " " TT_FUZZ_MACHINE " -display none");
}

static void tt_fuzz_pre_fuzz(QTestState *s)
{
    tt_fuzz_take_sigalrm();         /* a model that never returns: a hang */
}

static void tt_fuzz_register(void)
{
    fuzz_add_target(&(FuzzTarget){
        .name = "tt-niu-fuzz",
        .description = "Blackhole NIU command buffers and registers",
        .get_init_cmdline = tt_fuzz_cmdline,
        .pre_fuzz = tt_fuzz_pre_fuzz,
        .fuzz = tt_niu_fuzz,
    });
    fuzz_add_target(&(FuzzTarget){
        .name = "tt-tensix-fuzz",
        .description = "Blackhole Tensix instruction words on every thread",
        .get_init_cmdline = tt_fuzz_cmdline,
        .pre_fuzz = tt_fuzz_pre_fuzz,
        .fuzz = tt_tensix_fuzz,
    });
    fuzz_add_target(&(FuzzTarget){
        .name = "tt-eth-fuzz",
        .description = "Blackhole Ethernet frames from the wire, TX/RX "
                       "registers and commands",
        .get_init_cmdline = tt_fuzz_cmdline,
        .pre_fuzz = tt_fuzz_pre_fuzz,
        .fuzz = tt_eth_fuzz,
    });
    fuzz_add_target(&(FuzzTarget){
        .name = "tt-pcie-fuzz",
        .description = "Blackhole PCIe BARs, TLB windows, iATU, eDMA, ARC",
        .get_init_cmdline = tt_fuzz_cmdline,
        .pre_fuzz = tt_fuzz_pre_fuzz,
        .fuzz = tt_pcie_fuzz,
    });
}

fuzz_target_init(tt_fuzz_register);
