/*
 * Blackhole Ethernet tiles: registers, boot results and identity of one
 * chip; two chips in two QEMU processes linked over a stream netdev (link
 * bring-up, TT-link L1 and MMIO writes, back-pressure, a peer that goes
 * away); a lossy link through a relay that drops, duplicates and reorders
 * datagrams; ERISC firmware sending from one chip to a parked core of the
 * other.
 *
 * Registers: tt-isa-documentation BlackholeA0/EthernetTile/EthernetTxRx.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/timer.h"
#include <sys/socket.h>
#include <sys/un.h>
#include "hw/registerfields.h"
#include "hw/tenstorrent/niu-regs.h"
#include "hw/tenstorrent/noc-overlay-regs.h"
#include "hw/tenstorrent/riscv-debug-regmap.h"
#include "hw/tenstorrent/ttlink.h"
#include "tt-tile-map.h"        /* generated from data/tile-map.yaml */
#include "tt-qtest-util.h"

/* channel 0 at (1, 1), channel 2 at (2, 1), channel 3 at (15, 1) */
#define CH0_X       1
#define CH2_X       2
#define CH3_X       15
#define ETH_Y       1

#define TXQ(q, off) (TT_ETH_TXRX_BASE + TT_ETH_TXQ(q) + (off))
#define RXQ(q, off) (TT_ETH_TXRX_BASE + TT_ETH_RXQ(q) + (off))
#define ECTRL(off)  (TT_ETH_TXRX_BASE + TT_ETH_CTRL + (off))
#define HDR(i, off) (TT_ETH_TXRX_BASE + TT_ETH_TX_HEADER(i) + (off))
#define STREAM(s, r) (TT_ETH_NOC_OVERLAY_BASE + (s) * TT_STREAM_STRIDE + \
                      (r) * 4)

#define WAIT_US     (20 * 1000 * 1000)

static uint32_t rd(QTestState *q, int x, uint32_t addr)
{
    return tt_readl(q, x, ETH_Y, "-", addr);
}

static void wr(QTestState *q, int x, uint32_t addr, uint32_t v)
{
    tt_writel(q, x, ETH_Y, "-", addr, v);
}

/* Poll until *@addr on chip @q reads @v; false after WAIT_US */
static bool wait_for(QTestState *q, int x, uint32_t addr, uint32_t v)
{
    for (int us = 0; us < WAIT_US; us += 1000) {
        if (rd(q, x, addr) == v) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

static void fill(uint8_t *buf, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        buf[i] = seed >> 16;
    }
}

/* One L1 write command on TXQ @q of chip @a, channel tile @x */
static void l1_write(QTestState *a, int x, int q, uint32_t src, uint32_t dst,
                     uint32_t size)
{
    wr(a, x, TXQ(q, TT_ETH_TXQ_TRANSFER_START_ADDR), src);
    wr(a, x, TXQ(q, TT_ETH_TXQ_DEST_ADDR), dst);
    wr(a, x, TXQ(q, TT_ETH_TXQ_TRANSFER_SIZE_BYTES), size);
    wr(a, x, TXQ(q, TT_ETH_TXQ_CMD), TT_ETH_TXQ_CMD_L1_WRITE);
}

static void mmio_write(QTestState *a, int x, int q, uint32_t dst,
                       uint32_t val)
{
    wr(a, x, TXQ(q, TT_ETH_TXQ_DEST_ADDR), dst);
    wr(a, x, TXQ(q, TT_ETH_TXQ_REMOTE_REG_DATA), val);
    wr(a, x, TXQ(q, TT_ETH_TXQ_CMD), TT_ETH_TXQ_CMD_MMIO_WRITE);
}

static bool ongoing(QTestState *a, int x, int q)
{
    rd(a, x, TXQ(q, TT_ETH_TXQ_CMD));   /* BH-55: CMD before STATUS */
    return rd(a, x, TXQ(q, TT_ETH_TXQ_STATUS)) &
           TT_ETH_TXQ_STATUS_CMD_ONGOING;
}

static void wait_idle(QTestState *a, int x, int q)
{
    for (int us = 0; ongoing(a, x, q); us += 1000) {
        g_assert_cmpint(us, <, WAIT_US);
        g_usleep(1000);
    }
}

/*
 * The base firmware's mailbox, which the model answers every
 * TT_ETH_BASE_FW_PERIOD_MS (100) of virtual time: RELEASE_CORE starts E0 at arg0 through a trampoline that
 * sets its stack; other messages are acknowledged; the heartbeat moves
 * while E0 is held.  Expected words worked out by hand (RV32I).
 */
static void test_mailbox(void)
{
    QTestState *q = qtest_init("-M blackhole");
    uint32_t mb1 = TT_ETH_MAILBOX + TT_ETH_MAILBOX_SIZE;
    uint32_t soft = TT_ETH_DEBUG_REGS_BASE + A_SOFT_RESET_0;
    uint32_t hb0 = rd(q, CH2_X, TT_ETH_HEARTBEAT), hb1;

    qtest_clock_step(q, 250 * SCALE_MS);
    hb1 = rd(q, CH2_X, TT_ETH_HEARTBEAT);
    g_assert_cmphex(hb1 >> 16, ==, 0xabcd);
    g_assert_cmpuint((hb1 - hb0) & 0xffff, >=, 2);

    /* mailbox 1 (E1's), an unknown type: acknowledged, args cleared */
    wr(q, CH2_X, mb1 + 4, 0x1234);
    wr(q, CH2_X, mb1, TT_ETH_MSG_CALL | 0x77);
    qtest_clock_step(q, 100 * SCALE_MS);
    g_assert_cmphex(rd(q, CH2_X, mb1), ==, TT_ETH_MSG_DONE | 0x77);
    g_assert_cmphex(rd(q, CH2_X, mb1 + 4), ==, 0);

    /* RELEASE_CORE from the host's mailbox: E0 at 0x12345 */
    wr(q, CH2_X, TT_ETH_MAILBOX + 4, 0x12345);
    wr(q, CH2_X, TT_ETH_MAILBOX, TT_ETH_MSG_CALL | TT_ETH_MSG_RELEASE_CORE);
    qtest_clock_step(q, 100 * SCALE_MS);
    g_assert_cmphex(rd(q, CH2_X, TT_ETH_MAILBOX), ==,
                    TT_ETH_MSG_DONE | TT_ETH_MSG_RELEASE_CORE);
    g_assert_cmphex(rd(q, CH2_X, soft), ==, 0x1000);     /* E1 still held */
    g_assert_cmphex(rd(q, CH2_X, TT_ETH_ERISC_CTRL_BASE + A_ERISC0_RESET_PC),
                    ==, TT_ETH_FW_TRAMPOLINE);
    /* lui sp, 0xffb02; lui t0, 0x12; addi t0, t0, 0x345; jr t0 */
    g_assert_cmphex(rd(q, CH2_X, TT_ETH_FW_TRAMPOLINE), ==, 0xffb02137);
    g_assert_cmphex(rd(q, CH2_X, TT_ETH_FW_TRAMPOLINE + 4), ==, 0x000122b7);
    g_assert_cmphex(rd(q, CH2_X, TT_ETH_FW_TRAMPOLINE + 8), ==, 0x34528293);
    g_assert_cmphex(rd(q, CH2_X, TT_ETH_FW_TRAMPOLINE + 12), ==, 0x00028067);
    /* the API table's calls return at once */
    for (int i = 0; i < TT_ETH_API_ENTRIES; i++) {
        g_assert_cmphex(rd(q, CH3_X, TT_ETH_API_TABLE + 4 * i), ==,
                        TT_ETH_FW_RETURN);
    }
    g_assert_cmphex(rd(q, CH3_X, TT_ETH_FW_RETURN), ==, 0x00008067);
    /* the other channels' mailboxes are untouched */
    g_assert_cmphex(rd(q, CH3_X, TT_ETH_MAILBOX), ==, 0);
    qtest_quit(q);
}

/* One chip alone: power-on state, identity, bad commands */
static void test_registers(void)
{
    QTestState *q = qtest_init("-M blackhole");
    uint32_t ci[8];
    uint8_t buf[64], back[64];

    /* both ERISC cores held; TT-link set up as the base firmware leaves it */
    g_assert_cmphex(rd(q, CH2_X, TT_ETH_DEBUG_REGS_BASE + A_SOFT_RESET_0),
                    ==, TT_ERISC_SOFT_RESET_POWER_ON);
    g_assert_cmphex(rd(q, CH2_X, TXQ(0, TT_ETH_TXQ_CTRL)), ==, 1);
    g_assert_cmphex(rd(q, CH2_X, TXQ(1, TT_ETH_TXQ_TXPKT_CFG_SEL_SW)), ==,
                    0x111);
    g_assert_cmphex(rd(q, CH2_X, RXQ(1, TT_ETH_RXQ_CTRL)), ==,
                    TT_ETH_RXQ_CTRL_PACKET_MODE);
    g_assert_cmphex(rd(q, CH2_X, RXQ(2, TT_ETH_RXQ_HDR_CTRL)), ==, 14);
    g_assert_cmphex(rd(q, CH2_X, ECTRL(TT_ETH_CTRL_MAC_RX_ADDR_ROUTING)), ==,
                    0xa50);
    g_assert_cmphex(rd(q, CH2_X, HDR(1, TT_ETH_HDR_MAC_DA)), ==, 1);
    g_assert_cmphex(rd(q, CH2_X, HDR(1, TT_ETH_HDR_MAC_DA + 4)), ==, 0x100);
    /* no netdev: link down, in PCS_STATUS and the boot results */
    g_assert_cmphex(rd(q, CH2_X, ECTRL(TT_ETH_CTRL_PCS_STATUS)), ==, 0);
    g_assert_cmphex(rd(q, CH2_X, TT_ETH_POSTCODE), ==, TT_ETH_POSTCODE_PASS);
    g_assert_cmphex(rd(q, CH2_X, TT_ETH_PORT_STATUS), ==,
                    TT_ETH_PORT_UNUSED);
    g_assert_cmphex(rd(q, CH2_X, TT_ETH_FW_VERSION), ==, 0x00010600);
    for (int i = 0; i < 8; i++) {
        ci[i] = rd(q, CH3_X, TT_ETH_LOCAL_INFO + 4 * i);
    }
    /* eth_id 3, logical 3 (5 and 8 fused off), board id of a P150 */
    g_assert_cmphex(ci[0] & 0xffff0000, ==, 0x03030000);
    g_assert_cmphex(ci[1], ==, 0x40 << 4);
    g_assert_cmphex(ci[2], ==, 1);
    /* logical 5 is physical 6 at (4, 1): translated x = 25 */
    g_assert_cmphex(rd(q, 4, TT_ETH_LOCAL_INFO), ==, 0x05060000);
    /* the tile's own NIUs: NOC0 and NOC1 coordinates, endpoint type */
    g_assert_cmphex(rd(q, CH3_X, TT_ETH_NIU0_BASE + A_NOC_NODE_ID) & 0xfff,
                    ==, ETH_Y << 6 | CH3_X);
    g_assert_cmphex(rd(q, CH3_X, TT_ETH_NIU1_BASE + A_NOC_NODE_ID) & 0xfff,
                    ==, (11 - ETH_Y) << 6 | (16 - CH3_X));
    g_assert_cmphex(rd(q, CH3_X, TT_ETH_NIU0_BASE + A_NOC_ENDPOINT_ID), ==,
                    TT_ENDPOINT_ETH << 8 | 3);
    g_assert_cmphex(rd(q, CH3_X, TT_ETH_NIU0_BASE + A_NOC_ID_LOGICAL), ==,
                    25 << 6 | (20 + 3));
    /* all 512 KiB of L1 */
    fill(buf, sizeof(buf), 1);
    tt_write(q, CH2_X, ETH_Y, "-", TT_ETH_L1_SIZE - sizeof(buf), buf,
             sizeof(buf));
    tt_read(q, CH2_X, ETH_Y, "-", TT_ETH_L1_SIZE - sizeof(buf), back,
            sizeof(back));
    g_assert_cmpmem(buf, sizeof(buf), back, sizeof(back));

    /* bad commands are logged and change nothing */
    mmio_write(q, CH2_X, 2, 0xffb40000, 1);     /* TXQ 2: no MMIO */
    l1_write(q, CH2_X, 0, 0x1008, 0x2000, 64);  /* not 16-byte aligned */
    l1_write(q, CH2_X, 0, 0x7fff0, 0x2000, 32); /* past the end of L1 */
    wr(q, CH2_X, TXQ(0, TT_ETH_TXQ_CMD), 3);    /* no such command */
    wr(q, CH2_X, TXQ(0, TT_ETH_TXQ_STATUS), ~0u);
    g_assert_cmpuint(rd(q, CH2_X, TXQ(0, TT_ETH_TXQ_TRANSFER_CNT)), ==, 0);
    g_assert_cmpuint(rd(q, CH2_X, TXQ(2, TT_ETH_TXQ_TRANSFER_CNT)), ==, 0);
    g_assert_false(ongoing(q, CH2_X, 0));
    /* a good one, link down: taken into the window, counted */
    l1_write(q, CH2_X, 0, 0x1000, 0x2000, 64);
    g_assert_cmpuint(rd(q, CH2_X, TXQ(0, TT_ETH_TXQ_TRANSFER_CNT)), ==, 1);
    g_assert_cmpuint(rd(q, CH2_X, TXQ(0, TT_ETH_TXQ_PKT_START_CNT)), ==, 1);
    /* ERISC reset PCs */
    wr(q, CH2_X, TT_ETH_ERISC_CTRL_BASE + A_ERISC1_RESET_PC, 0x9320);
    g_assert_cmphex(rd(q, CH2_X, TT_ETH_ERISC_CTRL_BASE + A_ERISC1_RESET_PC),
                    ==, 0x9320);
    qtest_quit(q);
}

/* Fused-off channels and bad options */
static void test_options(void)
{
    static const struct {
        const char *args, *err;
    } bad[] = {
        { "-M blackhole,eth5=n0 -netdev stream,id=n0,server=on,"
          "addr.type=unix,addr.path=/nonexistent/x", "fused off" },
        { "-M blackhole,eth2=nosuch", "no -netdev with id 'nosuch'" },
        { "-M blackhole,board=p100a,eth0=n0 -netdev stream,id=n0,server=on,"
          "addr.type=unix,addr.path=/nonexistent/x", "fused off" },
        { "-M blackhole,asic-location=40", "not a chip position" },
        { "-M blackhole -smp 700", "(5 per Tensix tile, 2 per Ethernet" },
        { "-M blackhole,pcie-endpoint=2", "is not 0 (PCIe0 at (2, 0)) or 1" },
    };
    QTestState *q = qtest_init("-M blackhole,board=p100a");

    /* a P100A has no Ethernet: nothing answers at (1, 1) */
    g_assert_true(tt_readl_fails(q, CH0_X, ETH_Y, "-", 0));
    qtest_quit(q);
    /* a P300's second chip: the host's endpoint is PCIe1 at (11, 0) */
    q = qtest_init("-M blackhole,pcie-endpoint=1");
    g_assert_true(tt_readl_fails(q, 2, 0, "-", 0));
    g_assert_false(tt_readl_fails(q, 11, 0, "-", 0));
    qtest_quit(q);
    for (int i = 0; i < ARRAY_SIZE(bad); i++) {
        g_autofree char *err = NULL;

        g_assert_cmpint(tt_run_qemu(bad[i].args, &err), ==, 1);
        if (!strstr(err, bad[i].err)) {
            g_error("'%s' said '%s', not '%s'", bad[i].args, err, bad[i].err);
        }
    }
}

typedef struct Pair {
    char *dir;
    QTestState *a, *b;
} Pair;

/*
 * Chip A's channel @ca and chip B's channel @cb on a UNIX stream socket;
 * A also gets a pcap of its side (filter-dump) when @pcap
 */
static void pair_start(Pair *p, int ca, int cb, const char *pcap)
{
    g_autofree char *sock = NULL;
    g_autofree char *dump = NULL;

    p->dir = g_dir_make_tmp("tt-eth-XXXXXX", NULL);
    g_assert_nonnull(p->dir);
    sock = g_build_filename(p->dir, "link.sock", NULL);
    dump = pcap ? g_strdup_printf(" -object filter-dump,id=d0,netdev=n0,"
                                  "file=%s", pcap) : g_strdup("");
    p->a = qtest_initf("-M blackhole,eth%d=n0,asic-location=0 -netdev "
                       "stream,id=n0,server=on,addr.type=unix,addr.path=%s%s",
                       ca, sock, dump);
    p->b = qtest_initf("-M blackhole,eth%d=n0,asic-location=1 -netdev "
                       "stream,id=n0,server=off,reconnect-ms=100,"
                       "addr.type=unix,addr.path=%s", cb, sock);
}

static void pair_stop(Pair *p)
{
    g_autofree char *sock = g_build_filename(p->dir, "link.sock", NULL);

    if (p->b) {
        qtest_quit(p->b);
    }
    qtest_quit(p->a);
    unlink(sock);
}

/* scripts/tenstorrent/ttlink-pcap.py on @pcap: its output and status */
static int ttlink_pcap(const char *pcap, char **out)
{
    const char *src = g_getenv("TT_SRC_DIR");
    g_autofree char *script = g_build_filename(src ? src : "../src",
                                               "scripts", "tenstorrent",
                                               "ttlink-pcap.py", NULL);
    char *argv[] = { (char *)"python3", script, (char *)pcap, NULL };
    int status;

    g_assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
                               G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, out,
                               NULL, &status, NULL));
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A pcap of one frame: a TT-link ethertype with a bad magic byte */
static void write_bad_pcap(const char *path)
{
    static const uint8_t pcap[] = {
        0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0xff, 0xff, 0, 0, 1, 0, 0, 0,                   /* Ethernet */
        0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0, 32, 0, 0, 0,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 2, 2, 2, 2, 2, 0x88, 0xb5,
        0x55, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    };

    g_assert_true(g_file_set_contents(path, (const char *)pcap,
                                      sizeof(pcap), NULL));
}

/* Two chips: bring-up, L1 and MMIO writes, back-pressure, peer gone */
static void test_two_chips(void)
{
    Pair p;
    g_autofree uint8_t *buf = g_malloc(256 * KiB);
    g_autofree uint8_t *back = g_malloc(256 * KiB);
    g_autofree char *info = NULL;

    g_autofree char *pcap = NULL;
    char *out = NULL;

    p.dir = NULL;
    pcap = g_strdup_printf("%s/tt-eth-%d.pcap", g_get_tmp_dir(), getpid());
    pair_start(&p, 2, 3, pcap);
    g_assert_true(wait_for(p.a, CH2_X, ECTRL(TT_ETH_CTRL_PCS_STATUS), 1));
    g_assert_true(wait_for(p.b, CH3_X, ECTRL(TT_ETH_CTRL_PCS_STATUS), 1));
    /* boot results: up, and who is on the other side */
    g_assert_cmphex(rd(p.a, CH2_X, TT_ETH_PORT_STATUS), ==, TT_ETH_PORT_UP);
    g_assert_cmphex(rd(p.a, CH2_X, TT_ETH_TRAIN_STATUS), ==,
                    TT_ETH_TRAIN_PASS);
    g_assert_cmphex(rd(p.a, CH2_X, TT_ETH_RX_LINK_UP), ==, 1);
    /* remote: asic location 1, channel 3 (logical 3) */
    g_assert_cmphex(rd(p.a, CH2_X, TT_ETH_REMOTE_INFO), ==, 0x03030100);
    g_assert_cmphex(rd(p.b, CH3_X, TT_ETH_REMOTE_INFO), ==, 0x02020000);
    g_assert_cmphex(rd(p.b, CH3_X, TT_ETH_REMOTE_INFO + 24), ==, 1);

    /*
     * No resends on a loaded host (the link loses nothing): B's drop
     * counter then counts only what B refuses
     */
    for (int q = 0; q < 2; q++) {
        wr(p.a, CH2_X, TXQ(q, TT_ETH_TXQ_REMOTE_SEQ_TIMEOUT), 0xffffffff);
    }

    /* a 4 KiB L1 write on TXQ 0 lands in B's L1 through RXQ 0 */
    fill(buf, 4096, 7);
    tt_write(p.a, CH2_X, ETH_Y, "-", 0x20000, buf, 4096);
    l1_write(p.a, CH2_X, 0, 0x20000, 0x30000, 4096);
    g_assert_true(wait_for(p.b, CH3_X, RXQ(0, TT_ETH_RXQ_BYTE_CNT), 4096));
    tt_read(p.b, CH3_X, ETH_Y, "-", 0x30000, back, 4096);
    g_assert_cmpmem(buf, 4096, back, 4096);
    g_assert_cmpuint(rd(p.b, CH3_X, RXQ(0, TT_ETH_RXQ_PKT_END_CNT)), ==, 1);
    g_assert_cmpuint(rd(p.b, CH3_X, RXQ(0, TT_ETH_RXQ_LOCAL_RX_SEQ_NUM)), ==,
                     1);
    g_assert_cmpuint(rd(p.a, CH2_X, TXQ(0, TT_ETH_TXQ_TRANSFER_CNT)), ==, 1);

    /*
     * 256 KiB in 1 KiB packets on TXQ 1 (multicast DA: RXQ 1): 256
     * packets, four windows' worth, so CMD_ONGOING holds the command
     * until acks make room
     */
    fill(buf, 256 * KiB, 8);
    tt_write(p.a, CH2_X, ETH_Y, "-", 0x40000, buf, 256 * KiB);
    wr(p.a, CH2_X, TXQ(1, TT_ETH_TXQ_MAX_PKT_SIZE_BYTES), 1024);
    l1_write(p.a, CH2_X, 1, 0x40000, 0x40000, 256 * KiB);
    wait_idle(p.a, CH2_X, 1);
    g_assert_true(wait_for(p.b, CH3_X, RXQ(1, TT_ETH_RXQ_PKT_END_CNT), 256));
    tt_read(p.b, CH3_X, ETH_Y, "-", 0x40000, back, 256 * KiB);
    g_assert_cmpmem(buf, 256 * KiB, back, 256 * KiB);
    g_assert_cmpuint(rd(p.a, CH2_X, TXQ(1, TT_ETH_TXQ_PKT_START_CNT)), ==,
                     256);

    /* MMIO writes: the fabric's credit update adds into the peer stream */
    for (int i = 0; i < 5; i++) {
        mmio_write(p.a, CH2_X, 0, STREAM(2, TT_STREAM_SPACE_UPDATE),
                   3 << TT_STREAM_WORDS_FREE_SHIFT);
        wait_idle(p.a, CH2_X, 0);
    }
    g_assert_true(wait_for(p.b, CH3_X,
                           STREAM(2, TT_STREAM_SPACE_AVAILABLE), 15));
    /* an MMIO write to B's LDM is refused by B */
    mmio_write(p.a, CH2_X, 0, TT_ETH_LDM_BASE, 1);
    g_assert_true(wait_for(p.b, CH3_X, RXQ(0, TT_ETH_RXQ_PACKET_DROP_CNT),
                           1));

    /*
     * Raw frames: TXQ 2 with header entry 2 (DA 02:00:00:00:00:02,
     * unicast, so B's RXQ 2; ethertype 0x0800) into B's RXQ 2 in raw
     * mode, a 128-byte ring that wraps: the second frame's tail lands at
     * the ring's start
     */
    wr(p.a, CH2_X, HDR(2, TT_ETH_HDR_MAC_DA), 0x00000002);
    wr(p.a, CH2_X, HDR(2, TT_ETH_HDR_MAC_DA + 4), 0x0200);
    wr(p.a, CH2_X, HDR(2, TT_ETH_HDR_ETHERTYPE), 0x08000001);
    wr(p.a, CH2_X, TXQ(2, TT_ETH_TXQ_TXPKT_CFG_SEL_SW), 2);
    wr(p.b, CH3_X, RXQ(2, TT_ETH_RXQ_BUF_START_WORD_ADDR), 0x50000 >> 4);
    wr(p.b, CH3_X, RXQ(2, TT_ETH_RXQ_BUF_SIZE_WORDS), 128 >> 4);
    wr(p.b, CH3_X, RXQ(2, TT_ETH_RXQ_CTRL), TT_ETH_RXQ_CTRL_BUF_WRAP);
    for (int i = 0; i < 2; i++) {
        fill(buf + 96 * i, 96, 20 + i);
        tt_write(p.a, CH2_X, ETH_Y, "-", 0x21000, buf + 96 * i, 96);
        wr(p.a, CH2_X, TXQ(2, TT_ETH_TXQ_TRANSFER_START_ADDR), 0x21000);
        wr(p.a, CH2_X, TXQ(2, TT_ETH_TXQ_TRANSFER_SIZE_BYTES), 96);
        wr(p.a, CH2_X, TXQ(2, TT_ETH_TXQ_CMD), TT_ETH_TXQ_CMD_RAW);
        g_assert_true(wait_for(p.b, CH3_X, RXQ(2, TT_ETH_RXQ_PKT_END_CNT),
                               i + 1));
    }
    g_assert_cmpuint(rd(p.b, CH3_X, RXQ(2, TT_ETH_RXQ_BUF_PTR)), ==, 64);
    tt_read(p.b, CH3_X, ETH_Y, "-", 0x50000, back, 128);
    g_assert_cmpmem(buf + 128, 64, back, 64);           /* wrapped tail */
    g_assert_cmpmem(buf + 64, 64, back + 64, 64);       /* frame 1, frame 2 */

    info = qtest_hmp(p.a, "info tt");
    g_assert_nonnull(strstr(info, "channel 2 (logical 2): up, peer board "
                            "0x0000040000000001 asic location 1 channel 3"));
    g_free(info);

    /* B goes away: A's link goes down, and A keeps running */
    qtest_quit(p.b);
    p.b = NULL;
    g_assert_true(wait_for(p.a, CH2_X, ECTRL(TT_ETH_CTRL_PCS_STATUS), 0));
    g_assert_cmphex(rd(p.a, CH2_X, TT_ETH_PORT_STATUS), ==,
                    TT_ETH_PORT_DOWN);
    l1_write(p.a, CH2_X, 0, 0x20000, 0x30000, 64);
    info = qtest_hmp(p.a, "info tt 2 1");
    g_assert_nonnull(strstr(info, "channel 2 (logical 2): down"));
    g_assert_nonnull(strstr(info, "txq0 8 cmds 1 unacked"));
    pair_stop(&p);

    /* A's side of the link, frame by frame, as the decoder reads it */
    g_assert_cmpint(ttlink_pcap(pcap, &out), ==, 0);
    g_assert_nonnull(strstr(out, "ttlink hello q 0"));
    g_assert_nonnull(strstr(out, "ttlink l1-write q 0 seq 0 ack 0 addr "
                            "0x30000 len 4096"));
    g_assert_nonnull(strstr(out, "ttlink l1-write q 1 seq 255 ack 0 addr "
                            "0x7fc00 len 1024"));
    g_assert_nonnull(strstr(out, "ttlink mmio-write q 0 seq 1 ack 0 addr "
                            "0xffb42438 data 0xc0"));
    g_assert_nonnull(strstr(out, "ttlink seq-update q 1 seq 0 ack "));
    g_free(out);
    write_bad_pcap(pcap);
    g_assert_cmpint(ttlink_pcap(pcap, &out), ==, 1);
    g_assert_nonnull(strstr(out, "ttlink BAD header"));
    g_free(out);
    unlink(pcap);
    rmdir(p.dir);
    g_free(p.dir);
}

/*
 * A lossy link: a relay between two dgram netdevs drops every 5th
 * datagram, sends every 7th twice and swaps every 11th with the next.
 */
typedef struct Relay {
    int fd[2];                  /* bound to ra.sock, rb.sock */
    struct sockaddr_un to[2];   /* a.sock, b.sock */
    bool stop;
    unsigned n, dropped, duplicated, swapped;
} Relay;

static void relay_send(Relay *r, int side, const void *buf, ssize_t len)
{
    sendto(r->fd[side], buf, len, 0, (struct sockaddr *)&r->to[!side],
           sizeof(r->to[!side]));
}

static gpointer relay_thread(gpointer opaque)
{
    Relay *r = opaque;
    static uint8_t held[2][65536];
    ssize_t held_len[2] = { 0, 0 };

    while (!qatomic_read(&r->stop)) {
        for (int side = 0; side < 2; side++) {
            uint8_t buf[65536];
            ssize_t len = recv(r->fd[side], buf, sizeof(buf), MSG_DONTWAIT);

            if (len <= 0) {
                continue;
            }
            r->n++;
            if (r->n % 5 == 0) {
                r->dropped++;
            } else if (r->n % 11 == 0 && !held_len[side]) {
                memcpy(held[side], buf, len);   /* goes after the next */
                held_len[side] = len;
                r->swapped++;
            } else {
                relay_send(r, side, buf, len);
                if (r->n % 7 == 0) {
                    relay_send(r, side, buf, len);
                    r->duplicated++;
                }
                if (held_len[side]) {
                    relay_send(r, side, held[side], held_len[side]);
                    held_len[side] = 0;
                }
            }
        }
        g_usleep(50);
    }
    return NULL;
}

static int unix_dgram(const char *path, struct sockaddr_un *sa)
{
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

    memset(sa, 0, sizeof(*sa));
    sa->sun_family = AF_UNIX;
    g_assert_cmpint(strlen(path), <, sizeof(sa->sun_path));
    strcpy(sa->sun_path, path);
    return fd;
}

static void test_lossy(void)
{
    g_autofree char *dir = g_dir_make_tmp("tt-eth-XXXXXX", NULL);
    g_autofree char *pa = g_build_filename(dir, "a.sock", NULL);
    g_autofree char *pb = g_build_filename(dir, "b.sock", NULL);
    g_autofree char *ra = g_build_filename(dir, "ra.sock", NULL);
    g_autofree char *rb = g_build_filename(dir, "rb.sock", NULL);
    Relay r = { 0 };
    struct sockaddr_un sa;
    GThread *th;
    QTestState *a, *b;
    uint8_t buf[64], back[64];
    const int n = 150;

    r.fd[0] = unix_dgram(ra, &sa);
    g_assert_cmpint(bind(r.fd[0], (struct sockaddr *)&sa, sizeof(sa)), ==, 0);
    r.fd[1] = unix_dgram(rb, &sa);
    g_assert_cmpint(bind(r.fd[1], (struct sockaddr *)&sa, sizeof(sa)), ==, 0);
    close(unix_dgram(pa, &r.to[0]));
    close(unix_dgram(pb, &r.to[1]));
    th = g_thread_new("relay", relay_thread, &r);
    a = qtest_initf("-M blackhole,eth2=n0 -netdev dgram,id=n0,"
                    "local.type=unix,local.path=%s,remote.type=unix,"
                    "remote.path=%s", pa, ra);
    b = qtest_initf("-M blackhole,eth3=n0,asic-location=1 -netdev dgram,"
                    "id=n0,local.type=unix,local.path=%s,remote.type=unix,"
                    "remote.path=%s", pb, rb);
    g_assert_true(wait_for(a, CH2_X, ECTRL(TT_ETH_CTRL_PCS_STATUS), 1));
    g_assert_true(wait_for(b, CH3_X, ECTRL(TT_ETH_CTRL_PCS_STATUS), 1));

    /*
     * n credit updates of one word each: a lost packet would leave the
     * count short, a duplicate delivered twice would overshoot.  An L1
     * write between every two checks the order of the stream.
     */
    for (int i = 0; i < n; i++) {
        mmio_write(a, CH2_X, 0, STREAM(1, TT_STREAM_SPACE_UPDATE),
                   1 << TT_STREAM_WORDS_FREE_SHIFT);
        wait_idle(a, CH2_X, 0);
        if (i % 10 == 9) {
            fill(buf, sizeof(buf), i);
            tt_write(a, CH2_X, ETH_Y, "-", 0x10000 + 64 * (i / 10), buf,
                     sizeof(buf));
            l1_write(a, CH2_X, 0, 0x10000 + 64 * (i / 10),
                     0x10000 + 64 * (i / 10), sizeof(buf));
            wait_idle(a, CH2_X, 0);
        }
    }
    g_assert_true(wait_for(b, CH3_X, STREAM(1, TT_STREAM_SPACE_AVAILABLE),
                           n));
    g_assert_true(wait_for(b, CH3_X, RXQ(0, TT_ETH_RXQ_PKT_END_CNT),
                           n + n / 10));
    g_usleep(100 * 1000);   /* resends still on the way change nothing */
    g_assert_cmpuint(rd(b, CH3_X, STREAM(1, TT_STREAM_SPACE_AVAILABLE)), ==,
                     n);
    for (int i = 0; i < n / 10; i++) {
        fill(buf, sizeof(buf), 10 * i + 9);
        tt_read(b, CH3_X, ETH_Y, "-", 0x10000 + 64 * i, back, sizeof(back));
        g_assert_cmpmem(buf, sizeof(buf), back, sizeof(back));
    }
    /* the relay did its damage, and B saw duplicates or gaps */
    g_assert_cmpuint(r.dropped, >, 10);
    g_assert_cmpuint(r.duplicated, >, 10);
    g_assert_cmpuint(r.swapped, >, 5);
    g_assert_cmpuint(rd(b, CH3_X, RXQ(0, TT_ETH_RXQ_PACKET_DROP_CNT)), >, 0);
    g_assert_cmpuint(rd(a, CH2_X, TXQ(0, TT_ETH_TXQ_RESEND_CNT)), >, 0);

    qtest_quit(b);
    qtest_quit(a);
    qatomic_set(&r.stop, true);
    g_thread_join(th);
    close(r.fd[0]);
    close(r.fd[1]);
    unlink(pa);
    unlink(pb);
    unlink(ra);
    unlink(rb);
    rmdir(dir);
}

/*
 * ERISC firmware: E0 of chip A's channel 0 sends to E0 of chip B's channel
 * 0, which polls its L1 and parks until the data lands
 */
static void erisc_start(QTestState *q, uint32_t role)
{
    wr(q, CH0_X, 0x30000, role);
    wr(q, CH0_X, TT_ETH_ERISC_CTRL_BASE + A_ERISC0_RESET_PC, 0x20000);
    wr(q, CH0_X, TT_ETH_DEBUG_REGS_BASE + A_SOFT_RESET_0,
       TT_ERISC_SOFT_RESET_POWER_ON & ~BIT(11));
}

static void test_erisc(void)
{
    g_autofree char *dir = g_dir_make_tmp("tt-eth-XXXXXX", NULL);
    g_autofree char *sock = g_build_filename(dir, "link.sock", NULL);
    /* E0 of channel 0: the first core after the 700 Tensix cores */
    const char *load = "-device loader,file=%s/eth-test.elf,cpu-num=700 "
                       "-accel tcg";
    g_autofree char *la = g_strdup_printf(load, tt_firmware_dir());
    QTestState *a, *b;
    bool parked = false;
    int index, halted;
    uint64_t pc;

    b = qtest_initf("-M blackhole,eth0=n0,asic-location=1 -netdev stream,"
                    "id=n0,server=on,addr.type=unix,addr.path=%s %s", sock,
                    la);
    erisc_start(b, 2);
    /* the receiver polls L1 for the flag: it parks, as a Tensix core */
    for (int us = 0; us < WAIT_US && !parked; us += 1000) {
        g_assert_true(tt_cpu(b, CH0_X, ETH_Y, "erisc0", &index, &halted,
                             &pc));
        parked = halted;
        g_usleep(1000);
    }
    g_assert_true(parked);
    g_assert_cmpint(index, ==, 700);
    g_assert_cmphex(rd(b, CH0_X, 0x30010), ==, 0);

    a = qtest_initf("-M blackhole,eth0=n0 -netdev stream,id=n0,server=off,"
                    "addr.type=unix,addr.path=%s %s", sock, la);
    erisc_start(a, 1);
    g_assert_true(wait_for(a, CH0_X, 0x30010, 0x600d0001));
    g_assert_true(wait_for(b, CH0_X, 0x30010, 0x600d0001));
    g_assert_cmpuint(rd(b, CH0_X, RXQ(0, TT_ETH_RXQ_BYTE_CNT)), ==,
                     2048 + 4 + 16);
    qtest_quit(a);
    qtest_quit(b);
    unlink(sock);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/eth/registers", test_registers);
    qtest_add_func("/blackhole/eth/options", test_options);
    qtest_add_func("/blackhole/eth/mailbox", test_mailbox);
    qtest_add_func("/blackhole/eth/two-chips", test_two_chips);
    qtest_add_func("/blackhole/eth/lossy", test_lossy);
    qtest_add_func("/blackhole/eth/erisc", test_erisc);
    return g_test_run();
}
