/*
 * Tenstorrent Blackhole Ethernet tile: TX queues, RX queues, ETH_CTRL and
 * the TX header table, with the link as a QEMU NIC.
 *
 * Semantics: tt-isa-documentation BlackholeA0/EthernetTile/EthernetTxRx.md
 * and EthernetRxClassifier.md; the base-firmware results in L1 as tt-metal
 * eth_fw_api.h and tt-umd blackhole_eth.hpp lay them out.
 *
 * What goes on the wire (ttlink.h):
 * - CMD 1 (raw): the header-table entry's MACs and ethertype, then
 *   TRANSFER_SIZE_BYTES of L1; no resend.
 * - CMD 2 (TT-link L1 write) and CMD 4 (TT-link MMIO write, TXQ 0 and 1):
 *   TT-link frames with a sequence number per sending queue.  Each queue
 *   keeps its last TT_ETH_WINDOW unacknowledged frames and resends them
 *   all, oldest first, when no ack came within REMOTE_SEQ_TIMEOUT (at
 *   least 1 ms); the receiver takes only the next number it expects and
 *   drops the rest (PACKET_DROP_CNT), so a link that loses, duplicates or
 *   reorders frames still delivers each packet once and in order.  Every
 *   TT-link frame acknowledges what its queue's partner received; a
 *   sequence-update frame carries the ack alone after 16 packets or 50 us
 *   with nothing going back.
 *   CMD_ONGOING stays set while a command's packets do not fit in the
 *   window: that is the back-pressure software sees.
 * - Link bring-up: each side sends a hello frame (its chip_info_t) every
 *   50 ms until it has the peer's; then the link is up, boot results say so
 *   and keepalives flow every 100 ms.  No frame for two seconds, or the
 *   netdev losing its peer, takes the link down.  Packets not yet acked
 *   are renumbered and sent again when the link comes back.
 * Those timers run on host time (QEMU_CLOCK_REALTIME): the link joins two
 * processes whose virtual clocks are unrelated.
 *
 * Received frames go to the RX queue MAC_RX_ADDR_ROUTING picks from the
 * destination MAC (broadcast, multicast, unicast) and the MMIO flag; the
 * flow table (MAC_RX_ROUTING = 2) is not modelled.  A queue in TT-link
 * mode performs L1 and MMIO writes into this tile; a raw queue appends
 * the frame to its buffer in L1.  Frames are untrusted: short, malformed,
 * misaddressed ones are dropped, counted and logged.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/units.h"
#include "qemu/timer.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "migration/vmstate.h"
#include "hw/tenstorrent/eth-txrx.h"
#include "hw/tenstorrent/spin-park.h"
#include "hw/tenstorrent/tt-tile-map.h"
#include "trace.h"

#define TT_ETH_HELLO_NS         (50 * SCALE_MS)
#define TT_ETH_KEEPALIVE_NS     (100 * SCALE_MS)
#define TT_ETH_DEAD_NS          (2000 * SCALE_MS)
#define TT_ETH_MIN_RESEND_NS    (1 * SCALE_MS)
#define TT_ETH_DEF_RESEND_NS    (5 * SCALE_MS)
/* Acks: alone after this many packets or this long without a ride back */
#define TT_ETH_ACK_EVERY        16
#define TT_ETH_ACK_DELAY_NS     (50 * SCALE_US)
/* Payload per packet when MAX_PKT_SIZE_BYTES is 0: a jumbo frame */
#define TT_ETH_DEF_MAX_PKT      9216
/* reading on the cores' threads (tt_eth_poll) */
#define TT_ETH_POLL_LAPSE_NS    (1 * SCALE_MS)
#define TT_ETH_POLL_TX          BIT(31)     /* a role: a command went out */
/* batches (tt_eth_batch_begin) */
#define TT_ETH_BATCH_FRAMES     16
#define TT_ETH_BATCH_BYTES      (64 * KiB)
#define TT_ETH_MAX_FRAME        (TT_LINK_ETH_HLEN + TT_LINK_HLEN + 0xfff0)
/* AICLK 1.35 GHz: cycles to ns */
#define TT_ETH_CYCLES_TO_NS(c)  ((int64_t)(c) * 20 / 27)
/* A TT-link MMIO write may reach the tile's registers, not its LDMs */
#define TT_ETH_MMIO_LO          TT_ETH_DEBUG_REGS_BASE
#define TT_ETH_MMIO_HI          (TT_ETH_MAC_PCS_BASE + TT_ETH_MAC_PCS_SIZE)

static int64_t tt_eth_now(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
}

static uint32_t *tt_txq_reg(TTEthTxq *q, uint32_t off)
{
    return &q->reg[off / 4];
}

static uint32_t *tt_rxq_reg(TTEthRxq *q, uint32_t off)
{
    return &q->reg[off / 4];
}

static NetClientState *tt_eth_nc(TTEthTxRx *s)
{
    return s->nic ? qemu_get_queue(s->nic) : NULL;
}

/* The netdev is there and has not lost its own peer (a stream socket) */
static bool tt_eth_wire_ok(TTEthTxRx *s)
{
    NetClientState *nc = tt_eth_nc(s);

    return nc && !nc->link_down && nc->peer && !nc->peer->link_down;
}

static void tt_eth_l1_write(TTEthTxRx *s, uint32_t addr, const void *buf,
                            uint32_t len)
{
    address_space_write(&s->as, addr, MEMTXATTRS_UNSPECIFIED, buf, len);
}

static void tt_eth_l1_stl(TTEthTxRx *s, uint32_t addr, uint32_t val)
{
    address_space_stl_le(&s->as, addr, val, MEMTXATTRS_UNSPECIFIED, NULL);
}

/* Boot results and chip info */

static void tt_eth_local_info(TTEthTxRx *s, TTLinkChipInfo *ci)
{
    memset(ci, 0, sizeof(*ci));
    ci->pcb_type = s->pcb_type;
    ci->asic_location = s->asic_location;
    ci->eth_id = s->channel;
    ci->logical_eth_id = s->logical;
    ci->board_id_hi = cpu_to_le32(s->board_id >> 32);
    ci->board_id_lo = cpu_to_le32(s->board_id);
    /* Tenstorrent's OUI 20:8C:47 and a per-chip, per-channel id */
    ci->mac_addr_org = cpu_to_le32(0x208c47);
    ci->mac_addr_id = cpu_to_le32(((uint32_t)s->asic_id << 4 | s->channel) &
                                  0xffffff);
    ci->asic_id_hi = cpu_to_le32(s->asic_id >> 32);
    ci->asic_id_lo = cpu_to_le32(s->asic_id);
    ci->req_ack = cpu_to_le32(1);
}

/* What the base firmware leaves in L1: written at reset and link changes */
static void tt_eth_boot_results(TTEthTxRx *s)
{
    TTLinkChipInfo local;
    uint8_t ver[4] = { TT_ETH_FW_PATCH, TT_ETH_FW_MINOR, TT_ETH_FW_MAJOR, 0 };
    /*
     * No netdev: no connector (UNUSED); a link not up yet: still
     * training (UNKNOWN, tt-umd waits while it reads that); one that was
     * up and went down: DOWN
     */
    uint32_t port = !s->nic ? TT_ETH_PORT_UNUSED
                    : s->up ? TT_ETH_PORT_UP
                    : s->was_up ? TT_ETH_PORT_DOWN : TT_ETH_PORT_UNKNOWN;

    tt_eth_local_info(s, &local);
    tt_eth_l1_stl(s, TT_ETH_POSTCODE, TT_ETH_POSTCODE_PASS);
    tt_eth_l1_stl(s, TT_ETH_PORT_STATUS, port);
    tt_eth_l1_stl(s, TT_ETH_TRAIN_STATUS, s->up ? TT_ETH_TRAIN_PASS : 0);
    tt_eth_l1_stl(s, TT_ETH_HEARTBEAT, 0xabcd0001);
    tt_eth_l1_stl(s, TT_ETH_RX_LINK_UP, s->up);
    tt_eth_l1_write(s, TT_ETH_FW_VERSION, ver, sizeof(ver));
    tt_eth_l1_stl(s, TT_ETH_FW_RETURN, 0x00008067);    /* jalr x0, 0(ra) */
    for (int i = 0; i < TT_ETH_API_ENTRIES; i++) {
        tt_eth_l1_stl(s, TT_ETH_API_TABLE + 4 * i, TT_ETH_FW_RETURN);
    }
    tt_eth_l1_write(s, TT_ETH_LOCAL_INFO, &local, sizeof(local));
    if (s->up) {
        tt_eth_l1_write(s, TT_ETH_REMOTE_INFO, &s->remote,
                        sizeof(s->remote));
    }
    tt_spin_wake(s->spin);
}

/* Frames out */

/* MAC of header-table entry @i at word offset @off, in wire order */
static void tt_eth_hdr_mac(TTEthTxRx *s, int i, uint32_t off, uint8_t *mac)
{
    uint32_t w0 = s->hdr[i][off / 4], w1 = s->hdr[i][off / 4 + 1];

    mac[0] = w1 >> 8;
    mac[1] = w1;
    mac[2] = w0 >> 24;
    mac[3] = w0 >> 16;
    mac[4] = w0 >> 8;
    mac[5] = w0;
}

/* Ethernet header from header-table entry @i; @type 0: the entry's */
static void tt_eth_put_ethhdr(TTEthTxRx *s, int i, uint8_t *f, uint16_t type,
                              uint32_t payload)
{
    uint32_t et = s->hdr[i][TT_ETH_HDR_ETHERTYPE / 4];

    tt_eth_hdr_mac(s, i, TT_ETH_HDR_MAC_DA, f);
    tt_eth_hdr_mac(s, i, TT_ETH_HDR_MAC_SA, f + 6);
    if (!type) {
        type = et & 1 ? et >> 16 : MIN(payload, 0xffff);
    }
    stw_be_p(f + 12, type);
    if (s->hdr[i][TT_ETH_HDR_INSERT_CTL / 4]) {
        qemu_log_mask(LOG_UNIMP, "tt-eth-txrx: x%dy%d: TX header %d inserts "
                      "VLAN/L3/L4 headers (0x%x), which is not modelled\n",
                      s->x, s->y, i, s->hdr[i][TT_ETH_HDR_INSERT_CTL / 4]);
    }
}

static void tt_eth_tx_pump(TTEthTxRx *s, int qi);

/*
 * A frame the netdev had to queue went out (its socket had filled).  Once
 * the last has, the TX queues go on: until then they send nothing new, so
 * CMD_ONGOING holds a command while the link cannot take more, and a new
 * frame cannot overtake the queued ones (QEMU sends a packet at once when
 * the peer can take it, even from the callback of a flush).
 */
static void tt_eth_tx_flushed(NetClientState *nc, ssize_t len)
{
    TTEthTxRx *s = qemu_get_nic_opaque(nc);

    if (s->tx_queued && --s->tx_queued) {
        return;
    }
    for (int qi = 0; qi < TT_ETH_QUEUES; qi++) {
        tt_eth_tx_pump(s, qi);
    }
}

/*
 * Batches.  A core issuing commands back to back (a stream of 1 KiB L1
 * writes) cost a socket write per frame and the peer a read per frame:
 * most of a link's cost.  Where a core of the tile waits with the link
 * polled on its thread (tt_eth_poll()), frames sent meanwhile go into a
 * batch the netdev keeps (qemu_net_peer_set_batched()) and writes in one
 * go when a core of the tile waits, polls or parks, when a command leaves
 * its queue's window full, every TT_ETH_BATCH_FRAMES frames or
 * TT_ETH_BATCH_BYTES, at the next sample of a core that went on to other
 * work (TT_SPIN_POLL_SAMPLE, microseconds), and for a core that stopped
 * (a WFI) when reading goes back to the main loop (tt_eth_poll_timer()).
 * A timer of its own would wake the main loop twice per batch.  Frames
 * keep their order; only when they leave the host changes.  With the BQL.
 */
static void tt_eth_batch_end(TTEthTxRx *s)
{
    if (!s->batching) {
        return;
    }
    qatomic_set(&s->batching, false);
    tt_spin_want_samples(s->spin, false);
    qemu_net_peer_set_batched(tt_eth_nc(s), false);
    if (s->batch_frames) {
        s->batches++;
        s->frames_batched += s->batch_frames;
        trace_tt_eth_batch(s->channel, s->batch_frames, s->batch_bytes);
    }
    s->batch_frames = s->batch_bytes = 0;
}

static void tt_eth_batch_begin(TTEthTxRx *s)
{
    if (!s->batching && qemu_net_peer_set_batched(tt_eth_nc(s), true)) {
        qatomic_set(&s->batching, true);
        tt_spin_want_samples(s->spin, true);
    }
}

static void tt_eth_send(TTEthTxRx *s, const uint8_t *f, uint32_t len)
{
    NetClientState *nc = tt_eth_nc(s);

    if (!nc) {
        return;
    }
    s->frames_tx++;
    trace_tt_eth_frame_tx(s->channel, len > TT_LINK_ETH_HLEN + TT_LINK_OFF_ACK
                          && lduw_be_p(f + 12) == TT_LINK_ETHERTYPE
                          ? f[TT_LINK_ETH_HLEN + TT_LINK_OFF_TYPE] : 0xff,
                          len > TT_LINK_ETH_HLEN + TT_LINK_OFF_ACK
                          ? f[TT_LINK_ETH_HLEN + TT_LINK_OFF_SEQ] : 0, len);
    if (!qemu_send_packet_async(nc, f, len, tt_eth_tx_flushed)) {
        s->tx_queued++;         /* the netdev keeps it until it can write */
    } else if (s->batching) {
        s->batch_bytes += len;
        if (++s->batch_frames >= TT_ETH_BATCH_FRAMES ||
            s->batch_bytes >= TT_ETH_BATCH_BYTES) {
            tt_eth_batch_end(s);    /* out, and a new batch for the rest */
            tt_eth_batch_begin(s);
        }
    }
}

/*
 * A TT-link frame: header from table entry @hi, payload space after it,
 * for the caller to fill (not cleared: up to 64 KiB per packet)
 */
static uint8_t *tt_eth_ttlink_frame(TTEthTxRx *s, int q, int hi, int type,
                                    uint32_t addr, uint32_t plen,
                                    uint32_t *flen)
{
    uint8_t *f = g_malloc(TT_LINK_ETH_HLEN + TT_LINK_HLEN + plen);
    uint8_t *h = f + TT_LINK_ETH_HLEN;

    memset(f, 0, TT_LINK_ETH_HLEN + TT_LINK_HLEN);
    tt_eth_put_ethhdr(s, hi, f, TT_LINK_ETHERTYPE, 0);
    h[TT_LINK_OFF_MAGIC] = TT_LINK_MAGIC;
    h[TT_LINK_OFF_TYPE] = type;
    h[TT_LINK_OFF_QUEUE] = q;
    stl_le_p(h + TT_LINK_OFF_ADDR, addr);
    stw_le_p(h + TT_LINK_OFF_LEN, plen);
    h[TT_LINK_OFF_MMIO] = type == TT_LINK_MMIO_WRITE;
    *flen = TT_LINK_ETH_HLEN + TT_LINK_HLEN + plen;
    return f;
}

static bool tt_eth_acks_owed(TTEthTxRx *s)
{
    for (int q = 0; q < TT_ETH_QUEUES; q++) {
        if (s->ack_owed[q]) {
            return true;
        }
    }
    return false;
}

/* Send a frame of queue @q's stream with the current ack */
static void tt_eth_send_ttlink(TTEthTxRx *s, int q, uint8_t *f, uint32_t len)
{
    f[TT_LINK_ETH_HLEN + TT_LINK_OFF_ACK] = s->rx_next[q];
    s->ack_owed[q] = 0;
    if (!tt_eth_acks_owed(s)) {
        qatomic_set(&s->ack_due_ns, 0);
    }
    tt_eth_send(s, f, len);
}

static void tt_eth_send_control(TTEthTxRx *s, int q, int type, int flags)
{
    int hi = extract32(*tt_txq_reg(&s->txq[q], TT_ETH_TXQ_TXPKT_CFG_SEL_HW),
                       0, 4) % TT_ETH_TX_HEADERS;
    uint32_t len, plen = type == TT_LINK_HELLO ? sizeof(TTLinkHello) : 0;
    g_autofree uint8_t *f = tt_eth_ttlink_frame(s, q, hi, type, 0, plen, &len);

    f[TT_LINK_ETH_HLEN + TT_LINK_OFF_FLAGS] = flags;
    if (type == TT_LINK_HELLO) {
        TTLinkHello hello;

        tt_eth_local_info(s, &hello.info);
        hello.session = cpu_to_le32(s->session);
        memcpy(f + TT_LINK_ETH_HLEN + TT_LINK_HLEN, &hello, sizeof(hello));
        s->last_hello_ns = tt_eth_now();
    }
    tt_eth_send_ttlink(s, q, f, len);
}

static uint32_t tt_eth_max_pkt(TTEthTxq *q)
{
    uint32_t m = *tt_txq_reg(q, TT_ETH_TXQ_MAX_PKT_SIZE_BYTES);

    m = m ? m : TT_ETH_DEF_MAX_PKT;
    return MAX(16, MIN(m, 0xfff0u)) & ~15u;
}

static int64_t tt_eth_resend_ns(TTEthTxq *q)
{
    uint32_t c = *tt_txq_reg(q, TT_ETH_TXQ_REMOTE_SEQ_TIMEOUT);

    return c ? MAX(TT_ETH_CYCLES_TO_NS(c), TT_ETH_MIN_RESEND_NS)
             : TT_ETH_DEF_RESEND_NS;
}

static void tt_eth_arm(TTEthTxRx *s);
static void tt_eth_poll_tx(TTEthTxRx *s);

static void tt_eth_count_tx(TTEthTxq *q, uint32_t flen)
{
    (*tt_txq_reg(q, TT_ETH_TXQ_PKT_START_CNT))++;
    (*tt_txq_reg(q, TT_ETH_TXQ_PKT_END_CNT))++;
    *tt_txq_reg(q, TT_ETH_TXQ_WORD_CNT) += DIV_ROUND_UP(flen,
                                                        TT_ETH_WORD_BYTES);
}

/*
 * Put as much of queue @qi's current command into its window as fits,
 * sending what the link can carry now.  CMD_ONGOING clears once all of
 * it is in.
 */
static void tt_eth_tx_pump(TTEthTxRx *s, int qi)
{
    TTEthTxq *q = &s->txq[qi];
    uint32_t sel = *tt_txq_reg(q, TT_ETH_TXQ_TXPKT_CFG_SEL_SW);

    while (q->ongoing && (uint8_t)(q->next - q->una) < TT_ETH_WINDOW &&
           !s->tx_queued) {
        bool mmio = q->cmd == TT_ETH_TXQ_CMD_MMIO_WRITE;
        uint32_t n = mmio ? 0 : MIN(q->left, tt_eth_max_pkt(q));
        int hi = extract32(sel, mmio ? 4 : 8, 4) % TT_ETH_TX_HEADERS;
        uint32_t flen;
        uint8_t *f = tt_eth_ttlink_frame(s, qi, hi, mmio ? TT_LINK_MMIO_WRITE
                                                        : TT_LINK_L1_WRITE,
                                         q->dst, n, &flen);
        TTEthSent *e = &q->sent[q->next % TT_ETH_WINDOW];

        if (mmio) {
            stl_le_p(f + TT_LINK_ETH_HLEN + TT_LINK_OFF_DATA,
                     *tt_txq_reg(q, TT_ETH_TXQ_REMOTE_REG_DATA));
        } else {
            address_space_read(&s->as, q->src, MEMTXATTRS_UNSPECIFIED,
                               f + TT_LINK_ETH_HLEN + TT_LINK_HLEN, n);
        }
        f[TT_LINK_ETH_HLEN + TT_LINK_OFF_SEQ] = q->next;
        g_free(e->frame);
        e->frame = f;
        e->len = flen;
        if (q->una == q->next) {
            q->sent_ns = tt_eth_now();
        }
        q->next++;
        tt_eth_count_tx(q, flen);
        if (s->up) {
            tt_eth_send_ttlink(s, qi, f, flen);
        }
        q->src += n;
        q->dst += n;
        q->left = mmio ? 0 : q->left - n;
        if (!q->left) {
            qatomic_set(&q->ongoing, false);
            trace_tt_eth_cmd_done(s->channel, qi);
            tt_spin_wake(s->spin);      /* a core may poll STATUS */
        }
    }
    tt_eth_arm(s);
}

/* Acknowledged: every packet of queue @qi before sequence number @ack */
static void tt_eth_tx_acked(TTEthTxRx *s, int qi, uint8_t ack)
{
    TTEthTxq *q = &s->txq[qi];
    uint8_t n = ack - q->una;

    if (n == 0 || n > (uint8_t)(q->next - q->una)) {
        return;     /* nothing new, or not a number we sent */
    }
    while (q->una != ack) {
        TTEthSent *e = &q->sent[q->una % TT_ETH_WINDOW];

        g_free(e->frame);
        e->frame = NULL;
        q->una++;
    }
    q->sent_ns = tt_eth_now();
    tt_eth_tx_pump(s, qi);
}

static void tt_eth_resend(TTEthTxRx *s, int qi)
{
    TTEthTxq *q = &s->txq[qi];

    for (uint8_t seq = q->una; seq != q->next; seq++) {
        TTEthSent *e = &q->sent[seq % TT_ETH_WINDOW];

        trace_tt_eth_resend(s->channel, qi, seq);
        tt_eth_send_ttlink(s, qi, e->frame, e->len);
    }
    (*tt_txq_reg(q, TT_ETH_TXQ_RESEND_CNT))++;
    q->sent_ns = tt_eth_now();
}

/* Raw: one frame of the header-table entry and the L1 bytes, no resend */
static void tt_eth_tx_raw(TTEthTxRx *s, int qi)
{
    TTEthTxq *q = &s->txq[qi];
    uint32_t n = *tt_txq_reg(q, TT_ETH_TXQ_TRANSFER_SIZE_BYTES);
    uint32_t src = *tt_txq_reg(q, TT_ETH_TXQ_TRANSFER_START_ADDR);
    int hi = extract32(*tt_txq_reg(q, TT_ETH_TXQ_TXPKT_CFG_SEL_SW), 0, 4) %
             TT_ETH_TX_HEADERS;
    g_autofree uint8_t *f = g_malloc0(TT_LINK_ETH_HLEN + n);

    tt_eth_put_ethhdr(s, hi, f, 0, n);
    address_space_read(&s->as, src, MEMTXATTRS_UNSPECIFIED,
                       f + TT_LINK_ETH_HLEN, n);
    tt_eth_count_tx(q, TT_LINK_ETH_HLEN + n);
    if (s->up || tt_eth_wire_ok(s)) {
        tt_eth_send(s, f, TT_LINK_ETH_HLEN + n);
    }
}

static void tt_eth_tx_cmd(TTEthTxRx *s, int qi, uint32_t cmd)
{
    TTEthTxq *q = &s->txq[qi];
    uint32_t src = *tt_txq_reg(q, TT_ETH_TXQ_TRANSFER_START_ADDR);
    uint32_t size = *tt_txq_reg(q, TT_ETH_TXQ_TRANSFER_SIZE_BYTES);
    uint32_t dst = *tt_txq_reg(q, TT_ETH_TXQ_DEST_ADDR);
    const char *bad = NULL;

    trace_tt_eth_cmd(s->channel, qi, cmd, src, dst, size);
    if (q->ongoing) {
        bad = "a command while CMD_ONGOING";
    } else if (cmd == TT_ETH_TXQ_CMD_RAW) {
        if (size > TT_ETH_MAX_FRAME - TT_LINK_ETH_HLEN ||
            src + (uint64_t)size > TT_ETH_L1_SIZE) {
            bad = "a raw frame outside L1 or over 64 KiB";
        } else {
            tt_eth_tx_raw(s, qi);
            (*tt_txq_reg(q, TT_ETH_TXQ_TRANSFER_CNT))++;
        }
        return;
    } else if (cmd == TT_ETH_TXQ_CMD_L1_WRITE) {
        if ((src | dst | size) & 15 || !size ||
            src + (uint64_t)size > TT_ETH_L1_SIZE) {
            bad = "an L1 write not 16-byte aligned or outside L1";
        }
    } else if (cmd == TT_ETH_TXQ_CMD_MMIO_WRITE) {
        if (qi == 2) {
            bad = "an MMIO write on TXQ 2";
        } else if (dst & 3) {
            bad = "an MMIO write to an unaligned address";
        }
        size = 4;
    } else {
        bad = "an unknown command";
    }
    if (bad) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-eth-txrx: x%dy%d: TXQ %d: %s "
                      "(CMD %u); ignored\n", s->x, s->y, qi, bad, cmd);
        return;
    }
    q->cmd = cmd;
    q->src = src;
    q->dst = dst;
    q->left = size;
    qatomic_set(&q->ongoing, true);
    (*tt_txq_reg(q, TT_ETH_TXQ_TRANSFER_CNT))++;
    tt_spin_expect_answer(s->spin);
    tt_eth_poll_tx(s);
    if (s->polling & TT_ETH_POLL_TX) {
        tt_eth_batch_begin(s);      /* the core's next wait writes it */
    }
    tt_eth_tx_pump(s, qi);
    if (q->ongoing) {
        tt_eth_batch_end(s);        /* the window is full: it waits now */
    }
}

/* The link */

static void tt_eth_link_change(TTEthTxRx *s, bool up)
{
    if (s->up == up) {
        return;
    }
    s->up = up;
    s->was_up |= up;
    if (!up) {
        /* the next bring-up is a new session for both ends */
        s->session = g_random_int();
    }
    trace_tt_eth_link(s->channel, up);
    tt_eth_boot_results(s);
}

/*
 * The peer (re)started its end: both ends begin their sequence numbers
 * again.  Packets not yet acked are renumbered from 0 and sent.
 */
static void tt_eth_link_start(TTEthTxRx *s)
{
    for (int qi = 0; qi < TT_ETH_QUEUES; qi++) {
        TTEthTxq *q = &s->txq[qi];
        uint8_t n = q->next - q->una;
        TTEthSent tmp[TT_ETH_WINDOW];

        for (uint8_t i = 0; i < n; i++) {
            tmp[i] = q->sent[(uint8_t)(q->una + i) % TT_ETH_WINDOW];
            tmp[i].frame[TT_LINK_ETH_HLEN + TT_LINK_OFF_SEQ] = i;
        }
        memset(q->sent, 0, sizeof(q->sent));
        memcpy(q->sent, tmp, n * sizeof(tmp[0]));
        q->una = 0;
        q->next = n;
        s->rx_next[qi] = 0;
        s->ack_owed[qi] = 0;
        *tt_rxq_reg(&s->rxq[qi], TT_ETH_RXQ_LOCAL_RX_SEQ_NUM) = 0;
    }
    tt_eth_link_change(s, true);
    for (int qi = 0; qi < TT_ETH_QUEUES; qi++) {
        if (s->txq[qi].next != s->txq[qi].una) {
            tt_eth_resend(s, qi);
        }
        tt_eth_tx_pump(s, qi);
    }
}

static void tt_eth_timer(void *opaque)
{
    TTEthTxRx *s = opaque;
    int64_t now = tt_eth_now();

    if (s->up && (!tt_eth_wire_ok(s) || now - s->last_rx_ns > TT_ETH_DEAD_NS)) {
        tt_eth_link_change(s, false);
    }
    if (!s->up) {
        if (tt_eth_wire_ok(s) && now - s->last_hello_ns >= TT_ETH_HELLO_NS) {
            tt_eth_send_control(s, 0, TT_LINK_HELLO, TT_LINK_FLAG_HELLO_REQ);
        }
    } else {
        for (int qi = 0; qi < TT_ETH_QUEUES; qi++) {
            TTEthTxq *q = &s->txq[qi];

            if (q->una != q->next && now - q->sent_ns >= tt_eth_resend_ns(q)) {
                tt_eth_resend(s, qi);
            }
        }
        if (now - s->last_hello_ns >= TT_ETH_KEEPALIVE_NS) {
            /* a keepalive: the hello's time stamp paces it */
            s->last_hello_ns = now;
            tt_eth_send_control(s, 0, TT_LINK_SEQ_UPDATE, 0);
        }
    }
    tt_eth_arm(s);
}

/* Next upkeep: hellos or keepalives, or the earliest resend */
static void tt_eth_arm(TTEthTxRx *s)
{
    int64_t now = tt_eth_now(), when;

    if (!s->nic) {
        return;
    }
    when = now + (s->up ? TT_ETH_KEEPALIVE_NS : TT_ETH_HELLO_NS);
    for (int qi = 0; s->up && qi < TT_ETH_QUEUES; qi++) {
        TTEthTxq *q = &s->txq[qi];

        if (q->una != q->next) {
            when = MIN(when, q->sent_ns + tt_eth_resend_ns(q));
        }
    }
    if (!timer_pending(s->timer) || timer_expire_time_ns(s->timer) > when) {
        timer_mod(s->timer, MAX(when, now));
    }
}

static void tt_eth_ack_timer(void *opaque)
{
    TTEthTxRx *s = opaque;

    for (int qi = 0; qi < TT_ETH_QUEUES; qi++) {
        if (s->ack_owed[qi] && s->up) {
            tt_eth_send_control(s, qi, TT_LINK_SEQ_UPDATE, 0);
        }
    }
}

/* Frames in */

static void tt_eth_drop(TTEthTxRx *s, int rxq, const char *why, size_t len)
{
    s->drops++;
    if (rxq >= 0) {
        (*tt_rxq_reg(&s->rxq[rxq], TT_ETH_RXQ_PACKET_DROP_CNT))++;
    }
    trace_tt_eth_drop(s->channel, rxq, len, why);
    qemu_log_mask(LOG_GUEST_ERROR, "tt-eth-txrx: x%dy%d: frame of %zu "
                  "bytes dropped: %s\n", s->x, s->y, len, why);
}

/* RX queue for a frame: MAC_RX_ADDR_ROUTING by destination class */
static int tt_eth_rx_queue(TTEthTxRx *s, const uint8_t *f, bool mmio)
{
    uint32_t r = s->ctrl[TT_ETH_CTRL_MAC_RX_ADDR_ROUTING / 4];
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    int cls = !memcmp(f, bcast, 6) ? 0 : f[0] & 1 ? 1 : 2;

    return extract32(r, cls * 4 + mmio * 2, 2);
}

static void tt_eth_rx_count(TTEthRxq *q, uint32_t bytes, size_t flen)
{
    (*tt_rxq_reg(q, TT_ETH_RXQ_PKT_START_CNT))++;
    (*tt_rxq_reg(q, TT_ETH_RXQ_PKT_END_CNT))++;
    *tt_rxq_reg(q, TT_ETH_RXQ_BYTE_CNT) += bytes;
    *tt_rxq_reg(q, TT_ETH_RXQ_WORD_CNT) += DIV_ROUND_UP(flen,
                                                        TT_ETH_WORD_BYTES);
}

/* Raw mode: the frame, less HDR_CTRL bytes, at BUF_PTR in the ring */
static void tt_eth_rx_raw(TTEthTxRx *s, int qi, const uint8_t *f, size_t len)
{
    TTEthRxq *q = &s->rxq[qi];
    uint32_t start = *tt_rxq_reg(q, TT_ETH_RXQ_BUF_START_WORD_ADDR) << 4;
    uint32_t size = *tt_rxq_reg(q, TT_ETH_RXQ_BUF_SIZE_WORDS) << 4;
    uint32_t strip = MIN(*tt_rxq_reg(q, TT_ETH_RXQ_HDR_CTRL), len);
    uint32_t ptr = *tt_rxq_reg(q, TT_ETH_RXQ_BUF_PTR);
    uint32_t n = len - strip, first;
    bool wrap = *tt_rxq_reg(q, TT_ETH_RXQ_CTRL) & TT_ETH_RXQ_CTRL_BUF_WRAP;

    if (!size || start + (uint64_t)size > TT_ETH_L1_SIZE || ptr > size) {
        tt_eth_drop(s, qi, "raw RX buffer not set up", len);
        return;
    }
    first = MIN(n, size - ptr);
    tt_eth_l1_write(s, start + ptr, f + strip, first);
    ptr += first;
    if (first < n && wrap) {
        uint32_t rest = MIN(n - first, size);

        tt_eth_l1_write(s, start, f + strip + first, rest);
        ptr = rest;
        first += rest;
    } else if (first < n) {
        (*tt_rxq_reg(q, TT_ETH_RXQ_PACKET_DROP_CNT))++;
    }
    *tt_rxq_reg(q, TT_ETH_RXQ_BUF_PTR) = ptr;
    tt_eth_rx_count(q, first, len);
    tt_spin_wake(s->spin);
}

/*
 * A hello carries the sender's session, new each time its end went down.
 * Both ends restart their sequence numbers once per session of the other:
 * repeated hellos of one session (sent every 50 ms until answered) change
 * nothing, and a peer that restarted or lost the link is noticed even if
 * this end did not see the link go down.
 */
static void tt_eth_rx_hello(TTEthTxRx *s, const uint8_t *h, size_t plen)
{
    bool req = h[TT_LINK_OFF_FLAGS] & TT_LINK_FLAG_HELLO_REQ;
    TTLinkHello hello;

    if (plen != sizeof(hello)) {
        tt_eth_drop(s, -1, "hello of the wrong size", plen);
        return;
    }
    memcpy(&hello, h + TT_LINK_HLEN, sizeof(hello));
    s->remote = hello.info;
    if (req) {
        tt_eth_send_control(s, 0, TT_LINK_HELLO, 0);
    }
    if (!s->up || le32_to_cpu(hello.session) != s->peer_session) {
        s->peer_session = le32_to_cpu(hello.session);
        tt_eth_link_start(s);
    }
}

/* TT-link data: the packet the stream expects next, delivered */
static void tt_eth_rx_data(TTEthTxRx *s, const uint8_t *f, size_t len)
{
    const uint8_t *h = f + TT_LINK_ETH_HLEN;
    int src = h[TT_LINK_OFF_QUEUE], type = h[TT_LINK_OFF_TYPE];
    bool mmio = h[TT_LINK_OFF_MMIO] & 1;
    uint32_t addr = ldl_le_p(h + TT_LINK_OFF_ADDR);
    uint32_t plen = lduw_le_p(h + TT_LINK_OFF_LEN);
    int qi = tt_eth_rx_queue(s, f, mmio);
    TTEthRxq *q;

    if (qi >= TT_ETH_QUEUES) {
        tt_eth_drop(s, -1, "routed to RX queue 3", len);
        return;
    }
    q = &s->rxq[qi];
    if (!(*tt_rxq_reg(q, TT_ETH_RXQ_CTRL) & TT_ETH_RXQ_CTRL_PACKET_MODE)) {
        tt_eth_rx_raw(s, qi, f, len);
        return;
    }
    if (plen != len - TT_LINK_ETH_HLEN - TT_LINK_HLEN ||
        mmio != (type == TT_LINK_MMIO_WRITE)) {
        tt_eth_drop(s, qi, "TT-link length or type does not match", len);
        return;
    }
    *tt_rxq_reg(q, TT_ETH_RXQ_REMOTE_RX_SEQ_NUM) = h[TT_LINK_OFF_ACK];
    /*
     * Acks ride on the frames going back; a sequence update goes alone
     * after TT_ETH_ACK_EVERY packets (tt_eth_txrx_receive) or
     * TT_ETH_ACK_DELAY_NS of quiet
     */
    if (!tt_eth_acks_owed(s)) {
        qatomic_set(&s->ack_due_ns, tt_eth_now() + TT_ETH_ACK_DELAY_NS);
    }
    s->ack_owed[src]++;
    if (!(s->polling & ~TT_ETH_POLL_TX) && !timer_pending(s->ack_timer)) {
        timer_mod(s->ack_timer, s->ack_due_ns);   /* else a poller sends it */
    }
    if (h[TT_LINK_OFF_SEQ] != s->rx_next[src]) {
        /* a resend of one delivered already, or one after a loss */
        (*tt_rxq_reg(q, TT_ETH_RXQ_PACKET_DROP_CNT))++;
        if ((uint8_t)(h[TT_LINK_OFF_SEQ] - s->rx_next[src]) < 0x80) {
            s->rx_early++;      /* ahead: one before it was lost */
        }
        trace_tt_eth_out_of_order(s->channel, src, h[TT_LINK_OFF_SEQ],
                                  s->rx_next[src]);
        return;
    }
    if (mmio) {
        if (qi == 2 || addr & 3 || addr < TT_ETH_MMIO_LO ||
            addr >= TT_ETH_MMIO_HI) {
            tt_eth_drop(s, qi, "MMIO write to RX queue 2 or outside the "
                        "tile's registers", len);
            s->rx_next[src]++;      /* delivered as far as the link goes */
            return;
        }
        address_space_stl_le(&s->as, addr, ldl_le_p(h + TT_LINK_OFF_DATA),
                             MEMTXATTRS_UNSPECIFIED, NULL);
    } else if ((addr | plen) & 15 || addr + (uint64_t)plen > TT_ETH_L1_SIZE) {
        tt_eth_drop(s, qi, "L1 write not 16-byte aligned or outside L1",
                    len);
        s->rx_next[src]++;
        return;
    } else {
        tt_eth_l1_write(s, addr, h + TT_LINK_HLEN, plen);
    }
    s->rx_next[src]++;
    *tt_rxq_reg(q, TT_ETH_RXQ_LOCAL_RX_SEQ_NUM) = s->rx_next[src];
    tt_eth_rx_count(q, mmio ? 4 : plen, len);
    trace_tt_eth_deliver(s->channel, qi, mmio, addr, plen);
    tt_spin_input(s->spin);
    tt_spin_wake(s->spin);
}

void tt_eth_txrx_receive(TTEthTxRx *s, const uint8_t *f, size_t len)
{
    const uint8_t *h = f + TT_LINK_ETH_HLEN;
    int src, type;

    s->frames_rx++;
    trace_tt_eth_frame_rx(s->channel, len);
    if (len < TT_LINK_ETH_HLEN || len > TT_ETH_MAX_FRAME) {
        tt_eth_drop(s, -1, "shorter than an Ethernet header or too long",
                    len);
        return;
    }
    if (lduw_be_p(f + 12) != TT_LINK_ETHERTYPE) {
        int qi = tt_eth_rx_queue(s, f, false);

        if (qi < TT_ETH_QUEUES && !(*tt_rxq_reg(&s->rxq[qi], TT_ETH_RXQ_CTRL) &
                                    TT_ETH_RXQ_CTRL_PACKET_MODE)) {
            tt_eth_rx_raw(s, qi, f, len);
        } else {
            tt_eth_drop(s, qi < TT_ETH_QUEUES ? qi : -1,
                        "not TT-link, for a TT-link queue", len);
        }
        return;
    }
    if (len < TT_LINK_ETH_HLEN + TT_LINK_HLEN ||
        h[TT_LINK_OFF_MAGIC] != TT_LINK_MAGIC ||
        h[TT_LINK_OFF_QUEUE] >= TT_ETH_QUEUES) {
        tt_eth_drop(s, -1, "malformed TT-link header", len);
        return;
    }
    s->last_rx_ns = tt_eth_now();
    src = h[TT_LINK_OFF_QUEUE];
    type = h[TT_LINK_OFF_TYPE];
    if (type == TT_LINK_HELLO) {
        tt_eth_rx_hello(s, h, len - TT_LINK_ETH_HLEN - TT_LINK_HLEN);
        return;
    }
    if (!s->up) {
        tt_eth_drop(s, -1, "TT-link packet before the link is up", len);
        return;
    }
    tt_eth_tx_acked(s, src, h[TT_LINK_OFF_ACK]);
    switch (type) {
    case TT_LINK_SEQ_UPDATE:
        break;
    case TT_LINK_L1_WRITE:
    case TT_LINK_MMIO_WRITE:
        tt_eth_rx_data(s, f, len);
        if (s->ack_owed[src] >= TT_ETH_ACK_EVERY) {
            tt_eth_send_control(s, src, TT_LINK_SEQ_UPDATE, 0);
        }
        break;
    default:
        tt_eth_drop(s, -1, "unknown TT-link packet type", len);
        break;
    }
}

static ssize_t tt_eth_receive(NetClientState *nc, const uint8_t *f,
                              size_t len)
{
    tt_eth_txrx_receive(qemu_get_nic_opaque(nc), f, len);
    return len;
}

/*
 * Reading the link on the cores' threads.  A core of the tile that polls
 * before parking (spin-park.c) likely waits for what the link brings: it
 * reads the netdev itself, and the main loop does not watch it.  A frame
 * then costs the sender's write and the poller's read, not a wake-up of
 * the main loop's thread, which on a loaded host costs tens of
 * microseconds per hop and competes with the polling cores for host CPUs
 * and the BQL.  A core that sent a command keeps the main loop off too
 * (TT_ETH_POLL_TX), so that acks and answers wait in the socket for its
 * next poll instead of waking the main loop.  Reading goes back to the
 * main loop when a core parks, or after TT_ETH_POLL_LAPSE_NS without polls
 * or commands (a core that stopped without a word: a WFI, a reset, a
 * debugger's stop, or one that went on to other work).
 */

/* With the BQL: @roles poll the link; false if its netdev cannot be */
static bool tt_eth_poll_start(TTEthTxRx *s, uint32_t roles)
{
    if (!s->polling &&
        !qemu_net_peer_set_polled(qemu_get_queue(s->nic), true)) {
        qatomic_set(&s->unpollable, true);
        return false;
    }
    if (!s->polling) {
        trace_tt_eth_polled(s->channel, true);
    }
    qatomic_set(&s->polling, s->polling | roles);
    if (!timer_pending(s->poll_timer)) {
        timer_mod(s->poll_timer, tt_eth_now() + TT_ETH_POLL_LAPSE_NS);
    }
    return true;
}

/* With the BQL: @roles stop; the main loop reads once none is left */
static void tt_eth_poll_stop(TTEthTxRx *s, uint32_t roles)
{
    uint32_t was = s->polling;

    qatomic_set(&s->polling, was & ~roles);
    if (was && !s->polling) {
        trace_tt_eth_polled(s->channel, false);
        qemu_net_peer_set_polled(qemu_get_queue(s->nic), false);
    }
    if (!(s->polling & ~TT_ETH_POLL_TX) && tt_eth_acks_owed(s) &&
        !timer_pending(s->ack_timer)) {
        timer_mod(s->ack_timer, tt_eth_now() + TT_ETH_ACK_DELAY_NS);
    }
}

static void tt_eth_poll_timer(void *opaque)
{
    TTEthTxRx *s = opaque;
    int64_t now = tt_eth_now();

    if (now - qatomic_read(&s->poll_seen_ns) >= TT_ETH_POLL_LAPSE_NS) {
        tt_eth_poll_stop(s, s->polling & ~TT_ETH_POLL_TX);
    }
    if (now - s->tx_seen_ns >= TT_ETH_POLL_LAPSE_NS) {
        tt_eth_batch_end(s);        /* its core stopped without a sample */
        tt_eth_poll_stop(s, TT_ETH_POLL_TX);
    }
    if (s->polling) {
        timer_mod(s->poll_timer, now + TT_ETH_POLL_LAPSE_NS);
    }
}

/* A command went out: keep reading on the cores' threads (with the BQL) */
static void tt_eth_poll_tx(TTEthTxRx *s)
{
    if (s->nic && !qatomic_read(&s->unpollable) && tt_spin_polled(s->spin)) {
        s->tx_seen_ns = tt_eth_now();
        if (!(s->polling & TT_ETH_POLL_TX)) {
            tt_eth_poll_start(s, TT_ETH_POLL_TX);
        }
    }
}

static void tt_eth_poll(void *opaque, int role, TTSpinPoll event)
{
    TTEthTxRx *s = opaque;
    NetClientState *nc = qemu_get_queue(s->nic);
    int64_t now;

    if (qatomic_read(&s->batching)) {
        bql_lock();
        tt_eth_batch_end(s);        /* a core waits: the peer may answer */
        bql_unlock();
    }
    if (event == TT_SPIN_POLL_SAMPLE) {
        return;
    }
    if (event != TT_SPIN_POLL_WAITING) {
        /* a core that parks must be woken by the main loop's reads */
        uint32_t roles = BIT(role) | (event == TT_SPIN_POLL_PARKING ?
                                      TT_ETH_POLL_TX : 0);

        if (qatomic_read(&s->polling) & roles) {
            bql_lock();
            tt_eth_poll_stop(s, roles);
            bql_unlock();
        }
        return;
    }
    if (qatomic_read(&s->unpollable)) {
        return;
    }
    now = tt_eth_now();
    qatomic_set(&s->poll_seen_ns, now);
    if (!(qatomic_read(&s->polling) & BIT(role))) {
        bql_lock();
        tt_eth_poll_start(s, BIT(role));
        bql_unlock();
    }
    if (qatomic_read(&s->tx_queued) && nc->peer) {
        bql_lock();
        qemu_flush_queued_packets(nc->peer);    /* the socket may take it */
        bql_unlock();
    }
    if (qemu_net_peer_rx_ready(nc)) {
        bql_lock();
        /* what the frames set off (acks, packets the acks let go) */
        tt_eth_batch_begin(s);
        qemu_net_peer_read_now(nc);
        tt_eth_batch_end(s);
        bql_unlock();
    } else if (qatomic_read(&s->ack_due_ns) &&
               now >= qatomic_read(&s->ack_due_ns)) {
        bql_lock();
        tt_eth_ack_timer(s);        /* the quiet after a burst: ack it */
        bql_unlock();
    }
}

static void tt_eth_link_status_changed(NetClientState *nc)
{
    TTEthTxRx *s = qemu_get_nic_opaque(nc);

    timer_mod(s->timer, tt_eth_now());
}

static NetClientInfo tt_eth_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .receive = tt_eth_receive,
    .link_status_changed = tt_eth_link_status_changed,
};

/* Registers */

/*
 * The registers are a lockless region that takes the BQL itself: the
 * state is shared with the link's receive path under the BQL, but an
 * access then need not end its translation block, which for firmware
 * that polls STATUS and writes five registers per command cost a
 * retranslation and a longjmp per access.  What firmware touches for
 * every command skips the BQL too: STATUS and CMD reads, and writes of
 * the registers a command takes its operands from when CMD is written.
 */
static bool tt_eth_txq_lockless(hwaddr addr, bool write)
{
    uint32_t off = addr & 0xfff;

    if (addr >= TT_ETH_TXQ(TT_ETH_QUEUES)) {
        return false;
    }
    return write ? off == TT_ETH_TXQ_TRANSFER_START_ADDR ||
                   off == TT_ETH_TXQ_TRANSFER_SIZE_BYTES ||
                   off == TT_ETH_TXQ_DEST_ADDR
                 : off == TT_ETH_TXQ_STATUS || off == TT_ETH_TXQ_CMD;
}

static uint64_t tt_eth_read_txq_lockless(TTEthTxRx *s, hwaddr addr)
{
    TTEthTxq *q = &s->txq[addr / 0x1000];
    uint32_t val = 0;

    if ((addr & 0xfff) == TT_ETH_TXQ_STATUS &&
        qatomic_read(&q->ongoing)) {
        val = TT_ETH_TXQ_STATUS_CMD_ONGOING;
    }
    trace_tt_eth_reg_read(s->channel, addr, val);
    return val;
}

static uint64_t tt_eth_read(void *opaque, hwaddr addr, unsigned size)
{
    TTEthTxRx *s = opaque;
    uint32_t val = 0, off;

    if (tt_eth_txq_lockless(addr, false)) {
        return tt_eth_read_txq_lockless(s, addr);
    }
    BQL_LOCK_GUARD();

    if (addr < TT_ETH_TXQ(TT_ETH_QUEUES)) {
        off = addr & 0xfff;     /* not STATUS or CMD: read above */
        if (off / 4 < TT_ETHQ_REGS) {
            val = *tt_txq_reg(&s->txq[addr / 0x1000], off);
        }
    } else if (addr < TT_ETH_RXQ(0)) {
        goto unimp;             /* between TXQ 2 and RXQ 0 */
    } else if (addr < TT_ETH_CTRL) {
        off = addr & 0xfff;
        if (addr < TT_ETH_RXQ(TT_ETH_QUEUES) && off / 4 < TT_ETHQ_REGS) {
            val = *tt_rxq_reg(&s->rxq[(addr - TT_ETH_RXQ(0)) / 0x1000], off);
        }
    } else if (addr < TT_ETH_TX_HEADER(0)) {
        off = addr - TT_ETH_CTRL;
        val = off == TT_ETH_CTRL_PCS_STATUS ? s->up : s->ctrl[off / 4];
    } else if (addr < TT_ETH_TX_HEADER(TT_ETH_TX_HEADERS)) {
        off = addr - TT_ETH_TX_HEADER(0);
        val = s->hdr[off / 0x80][(off % 0x80) / 4];
    } else {
        goto unimp;
    }
    trace_tt_eth_reg_read(s->channel, addr, val);
    return val;
unimp:
    qemu_log_mask(LOG_UNIMP, "tt-eth-txrx: x%dy%d: read of unmodelled "
                  "0x%" HWADDR_PRIx "\n", s->x, s->y, TT_ETH_TXRX_BASE + addr);
    return 0;
}

static void tt_eth_write(void *opaque, hwaddr addr, uint64_t val,
                         unsigned size)
{
    TTEthTxRx *s = opaque;
    uint32_t off;

    trace_tt_eth_reg_write(s->channel, addr, val);
    if (tt_eth_txq_lockless(addr, true)) {      /* see tt_eth_read() */
        qatomic_set(tt_txq_reg(&s->txq[addr / 0x1000], addr & 0xfff), val);
        return;
    }
    BQL_LOCK_GUARD();
    if (addr < TT_ETH_RXQ(0)) {
        int qi = addr / 0x1000;

        off = addr & 0xfff;
        if (qi >= TT_ETH_QUEUES || off / 4 >= TT_ETHQ_REGS) {
            goto unimp;
        }
        if (off == TT_ETH_TXQ_CMD) {
            tt_eth_tx_cmd(s, qi, val);
        } else if (off == TT_ETH_TXQ_STATUS) {
            goto ro;
        } else {
            *tt_txq_reg(&s->txq[qi], off) = val;
        }
    } else if (addr < TT_ETH_CTRL) {
        int qi = (addr - TT_ETH_RXQ(0)) / 0x1000;

        off = addr & 0xfff;
        if (qi >= TT_ETH_QUEUES || off / 4 >= TT_ETHQ_REGS) {
            goto unimp;
        }
        if (off == TT_ETH_RXQ_PACKET_DROP_CNT ||
            off == TT_ETH_RXQ_OUTSTANDING_WR_CNT) {
            goto ro;
        }
        *tt_rxq_reg(&s->rxq[qi], off) = val;
    } else if (addr < TT_ETH_TX_HEADER(0)) {
        off = addr - TT_ETH_CTRL;
        if (off == TT_ETH_CTRL_PCS_STATUS) {
            goto ro;
        }
        if (off == TT_ETH_CTRL_MAC_RX_ROUTING && val) {
            qemu_log_mask(LOG_UNIMP, "tt-eth-txrx: x%dy%d: MAC_RX_ROUTING "
                          "%" PRIu64 ": the flow table is not modelled; "
                          "frames keep going by MAC_RX_ADDR_ROUTING\n",
                          s->x, s->y, val);
        }
        s->ctrl[off / 4] = val;
    } else if (addr < TT_ETH_TX_HEADER(TT_ETH_TX_HEADERS)) {
        off = addr - TT_ETH_TX_HEADER(0);
        s->hdr[off / 0x80][(off % 0x80) / 4] = val;
    } else {
        goto unimp;
    }
    return;
ro:
    qemu_log_mask(LOG_GUEST_ERROR, "tt-eth-txrx: x%dy%d: 0x%" HWADDR_PRIx
                  " is read-only\n", s->x, s->y, TT_ETH_TXRX_BASE + addr);
    return;
unimp:
    qemu_log_mask(LOG_UNIMP, "tt-eth-txrx: x%dy%d: write to unmodelled "
                  "0x%" HWADDR_PRIx "\n", s->x, s->y,
                  TT_ETH_TXRX_BASE + addr);
}

static const MemoryRegionOps tt_eth_ops = {
    .read = tt_eth_read,
    .write = tt_eth_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

void tt_eth_txrx_describe(TTEthTxRx *s, GString *out)
{
    g_string_append_printf(out, "eth x%dy%d channel %d (logical %d): ",
                           s->x, s->y, s->channel, s->logical);
    if (!s->nic) {
        g_string_append(out, "no netdev\n");
        return;
    }
    g_string_append_printf(out, "%s, peer board 0x%08x%08x asic location "
                           "%u channel %u; frames tx %" PRIu64 " (%" PRIu64
                           " in %" PRIu64 " batches) rx %" PRIu64 " (%"
                           PRIu64 " early) dropped %" PRIu64,
                           s->up ? "up" : "down",
                           le32_to_cpu(s->remote.board_id_hi),
                           le32_to_cpu(s->remote.board_id_lo),
                           s->remote.asic_location, s->remote.eth_id,
                           s->frames_tx, s->frames_batched, s->batches,
                           s->frames_rx, s->rx_early, s->drops);
    for (int qi = 0; qi < TT_ETH_QUEUES; qi++) {
        TTEthTxq *q = &s->txq[qi];

        g_string_append_printf(out, "; txq%d %u cmds %u unacked %u "
                               "resends%s", qi,
                               *tt_txq_reg(q, TT_ETH_TXQ_TRANSFER_CNT),
                               (uint8_t)(q->next - q->una),
                               *tt_txq_reg(q, TT_ETH_TXQ_RESEND_CNT),
                               q->ongoing ? " ongoing" : "");
    }
    g_string_append_c(out, '\n');
}

/*
 * Power-on state as the base firmware and tt-metal's eth_enable_packet_mode
 * leave it (tt-metal fabric_txq_setup.h; ttsim's tile init applies the
 * same): TXQ 0/1 in TT-link mode, header entry 0 broadcast and entry 1
 * 01:00:00:00:00:01, RXQ 0/1 in TT-link mode, broadcast traffic to RXQ 0,
 * multicast to RXQ 1, unicast to RXQ 2.  RX queues strip 14 bytes in raw
 * mode (EthernetTxRx.md's default).
 */
static void tt_eth_reset_hold(Object *obj, ResetType type)
{
    TTEthTxRx *s = TT_ETH_TXRX(obj);

    for (int qi = 0; qi < TT_ETH_QUEUES; qi++) {
        TTEthTxq *q = &s->txq[qi];

        for (int i = 0; i < TT_ETH_WINDOW; i++) {
            g_free(q->sent[i].frame);
        }
        memset(q, 0, sizeof(*q));
        memset(&s->rxq[qi], 0, sizeof(s->rxq[qi]));
        *tt_rxq_reg(&s->rxq[qi], TT_ETH_RXQ_HDR_CTRL) = TT_LINK_ETH_HLEN;
        s->rx_next[qi] = 0;
        s->ack_owed[qi] = 0;
    }
    timer_del(s->ack_timer);
    s->ack_due_ns = 0;
    if (s->nic) {
        tt_eth_batch_end(s);
        tt_eth_poll_stop(s, s->polling);    /* the main loop reads again */
    }
    memset(s->ctrl, 0, sizeof(s->ctrl));
    memset(s->hdr, 0, sizeof(s->hdr));
    for (int qi = 0; qi < 2; qi++) {
        *tt_txq_reg(&s->txq[qi], TT_ETH_TXQ_CTRL) = TT_ETH_TXQ_CTRL_KEEPALIVE;
        *tt_txq_reg(&s->txq[qi], TT_ETH_TXQ_TXPKT_CFG_SEL_SW) = qi * 0x111;
        *tt_txq_reg(&s->txq[qi], TT_ETH_TXQ_TXPKT_CFG_SEL_HW) = qi;
        *tt_rxq_reg(&s->rxq[qi], TT_ETH_RXQ_CTRL) =
            TT_ETH_RXQ_CTRL_PACKET_MODE;
    }
    s->hdr[0][TT_ETH_HDR_MAC_DA / 4] = 0xffffffff;
    s->hdr[0][TT_ETH_HDR_MAC_DA / 4 + 1] = 0xffff;
    s->hdr[1][TT_ETH_HDR_MAC_DA / 4] = 0x00000001;
    s->hdr[1][TT_ETH_HDR_MAC_DA / 4 + 1] = 0x0100;
    s->ctrl[TT_ETH_CTRL_EOP_STATUS_GOOD_LO / 4] = 0x1f;
    s->ctrl[TT_ETH_CTRL_MAC_RX_ADDR_ROUTING / 4] = 0xa50;
    s->up = false;
    s->was_up = false;
    s->session = g_random_int();
    s->last_hello_ns = 0;
    memset(&s->remote, 0, sizeof(s->remote));
}

/* After the chip's RAM was wiped: the base firmware's results */
static void tt_eth_reset_exit(Object *obj, ResetType type)
{
    TTEthTxRx *s = TT_ETH_TXRX(obj);

    tt_eth_boot_results(s);
    tt_eth_arm(s);
}

static void tt_eth_realize(DeviceState *dev, Error **errp)
{
    TTEthTxRx *s = TT_ETH_TXRX(dev);

    if (!s->view) {
        error_setg(errp, "tt-eth-txrx: 'view' link not set");
        return;
    }
    memory_region_init_io(&s->mmio, OBJECT(s), &tt_eth_ops, s,
                          "tt-eth-txrx", TT_ETH_TXRX_SIZE);
    memory_region_enable_lockless_io(&s->mmio);     /* see tt_eth_read() */
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->mmio);
    address_space_init(&s->as, s->view, "tt-eth-txrx");
    s->timer = timer_new_ns(QEMU_CLOCK_REALTIME, tt_eth_timer, s);
    s->ack_timer = timer_new_ns(QEMU_CLOCK_REALTIME, tt_eth_ack_timer, s);
    s->poll_timer = timer_new_ns(QEMU_CLOCK_REALTIME, tt_eth_poll_timer, s);
    if (s->conf.peers.ncs[0]) {
        g_autofree char *id = g_strdup_printf("eth%d", s->channel);

        qemu_macaddr_default_if_unset(&s->conf.macaddr);
        s->nic = qemu_new_nic(&tt_eth_net_info, &s->conf,
                              object_get_typename(OBJECT(s)), id,
                              &dev->mem_reentrancy_guard, s);
        if (s->spin) {
            tt_spin_set_poll(s->spin, tt_eth_poll, s);
        }
    }
}

static void tt_eth_unrealize(DeviceState *dev)
{
    TTEthTxRx *s = TT_ETH_TXRX(dev);

    if (s->nic) {
        tt_eth_batch_end(s);
        qemu_del_nic(s->nic);
    }
    timer_free(s->timer);
    timer_free(s->ack_timer);
    timer_free(s->poll_timer);
}

/*
 * Migration keeps the registers and sequence state; frames kept for
 * resending are not migrated, so a restored chip resends nothing and its
 * link comes up again through hellos, renumbering from an empty window.
 */
static int tt_eth_post_load(void *opaque, int version_id)
{
    TTEthTxRx *s = opaque;

    for (int qi = 0; qi < TT_ETH_QUEUES; qi++) {
        s->txq[qi].una = s->txq[qi].next;
        s->txq[qi].ongoing = false;
    }
    s->up = false;
    tt_eth_arm(s);
    return 0;
}

static const VMStateDescription vmstate_tt_eth_txq = {
    .name = "tt-eth-txq",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(reg, TTEthTxq, TT_ETHQ_REGS),
        VMSTATE_UINT8(next, TTEthTxq),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_tt_eth_rxq = {
    .name = "tt-eth-rxq",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(reg, TTEthRxq, TT_ETHQ_REGS),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_tt_eth_txrx = {
    .name = TYPE_TT_ETH_TXRX,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = tt_eth_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(txq, TTEthTxRx, TT_ETH_QUEUES, 1,
                             vmstate_tt_eth_txq, TTEthTxq),
        VMSTATE_STRUCT_ARRAY(rxq, TTEthTxRx, TT_ETH_QUEUES, 1,
                             vmstate_tt_eth_rxq, TTEthRxq),
        VMSTATE_UINT32_ARRAY(ctrl, TTEthTxRx, TT_ETH_CTRL_REGS),
        VMSTATE_UINT32_2DARRAY(hdr, TTEthTxRx, TT_ETH_TX_HEADERS,
                               TT_ETH_TX_HEADER_WORDS),
        VMSTATE_UINT8_ARRAY(rx_next, TTEthTxRx, TT_ETH_QUEUES),
        VMSTATE_END_OF_LIST()
    },
};

static const Property tt_eth_props[] = {
    DEFINE_NIC_PROPERTIES(TTEthTxRx, conf),
    DEFINE_PROP_LINK("view", TTEthTxRx, view, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_LINK("spin", TTEthTxRx, spin, TYPE_TT_SPIN_TILE,
                     TTSpinTile *),
    DEFINE_PROP_UINT8("x", TTEthTxRx, x, 0),
    DEFINE_PROP_UINT8("y", TTEthTxRx, y, 0),
    DEFINE_PROP_UINT8("channel", TTEthTxRx, channel, 0),
    DEFINE_PROP_UINT8("logical", TTEthTxRx, logical, 0),
    DEFINE_PROP_UINT8("asic-location", TTEthTxRx, asic_location, 0),
    DEFINE_PROP_UINT8("pcb-type", TTEthTxRx, pcb_type, 0),
    DEFINE_PROP_UINT64("board-id", TTEthTxRx, board_id, 0),
    DEFINE_PROP_UINT64("asic-id", TTEthTxRx, asic_id, 0),
};

static void tt_eth_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole Ethernet TX/RX queues and link";
    dc->realize = tt_eth_realize;
    dc->unrealize = tt_eth_unrealize;
    dc->vmsd = &vmstate_tt_eth_txrx;
    dc->user_creatable = false;
    rc->phases.hold = tt_eth_reset_hold;
    rc->phases.exit = tt_eth_reset_exit;
    device_class_set_props(dc, tt_eth_props);
}

static const TypeInfo tt_eth_types[] = {
    {
        .name = TYPE_TT_ETH_TXRX,
        .parent = TYPE_SYS_BUS_DEVICE,
        .instance_size = sizeof(TTEthTxRx),
        .class_init = tt_eth_class_init,
    },
};

DEFINE_TYPES(tt_eth_types)
