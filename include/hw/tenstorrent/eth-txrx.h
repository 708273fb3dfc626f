/*
 * Tenstorrent Blackhole Ethernet tile: TX and RX queues (eth-txrx.c).
 *
 * Three TX queues, three RX queues, the ETH_CTRL registers and the TX
 * header table (tt-isa-documentation BlackholeA0/EthernetTile/
 * EthernetTxRx.md), behind one MMIO region at 0xFFB90000, and the link: a
 * QEMU NIC on the netdev the machine names for this channel.  A TT-link
 * packet is a real Ethernet frame (Ethernet header, an 18-byte TT-link
 * header, payload); the TT-link header's layout is not public, so its
 * fields are this model's own (ttlink.h, docs/system/riscv/blackhole.rst).
 *
 * Threads: the registers take the BQL (they are not lockless), so a core's
 * command and the main loop's frame delivery never run at once; frames
 * leave and arrive in the main loop.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_ETH_TXRX_H
#define HW_TENSTORRENT_ETH_TXRX_H

#include "hw/sysbus.h"
#include "net/net.h"
#include "hw/tenstorrent/ttlink.h"
#include "qom/object.h"

#define TYPE_TT_ETH_TXRX "tt-eth-txrx"
OBJECT_DECLARE_SIMPLE_TYPE(TTEthTxRx, TT_ETH_TXRX)

struct TTSpinTile;

#define TT_ETH_QUEUES           3
#define TT_ETH_TX_HEADERS       10
/* TT-link packets a TX queue keeps for resending until they are acked */
#define TT_ETH_WINDOW           64

/* A TT-link packet sent and not yet acknowledged: the frame, for resends */
typedef struct TTEthSent {
    uint8_t *frame;
    uint32_t len;
} TTEthSent;

typedef struct TTEthTxq {
    uint32_t reg[TT_ETHQ_REGS];     /* by word offset */
    bool ongoing;                   /* STATUS.CMD_ONGOING */
    /* a command whose packets did not all fit in the window yet */
    uint32_t cmd, src, dst, left;
    /* TT-link: sequence numbers of the oldest unacked and next packets */
    uint8_t una, next;
    TTEthSent sent[TT_ETH_WINDOW];  /* by sequence number % window */
    int64_t sent_ns;                /* when the oldest unacked left */
} TTEthTxq;

typedef struct TTEthRxq {
    uint32_t reg[TT_ETHQ_REGS];
} TTEthRxq;

struct TTEthTxRx {
    SysBusDevice parent_obj;

    MemoryRegion mmio;
    AddressSpace as;                /* the tile's view: L1 and registers */
    NICState *nic;
    NICConf conf;
    QEMUTimer *timer;               /* link upkeep and resends, host time */
    QEMUTimer *ack_timer;           /* a delayed sequence update */

    /*
     * Cores of the tile that poll and read the link themselves (the
     * netdev polled, not watched by the main loop), when each last did,
     * and the watchdog that hands reading back if they stop without
     * saying so (a WFI, a reset, a debugger's stop)
     */
    uint32_t polling;
    bool unpollable;                /* the netdev cannot be polled so */
    int64_t poll_seen_ns;
    int64_t tx_seen_ns;             /* the last command */
    QEMUTimer *poll_timer;
    int64_t ack_due_ns;             /* when owed acks go alone, or 0 */
    /* frames in the netdev's queue; they outlive a reset */
    uint32_t tx_queued;
    /*
     * Frames the netdev keeps to write together (tt_eth_batch_begin()):
     * a batch is open, its frames and bytes
     */
    bool batching;
    uint32_t batch_frames, batch_bytes;
    uint64_t batches, frames_batched;   /* written so, and their frames */

    TTEthTxq txq[TT_ETH_QUEUES];
    TTEthRxq rxq[TT_ETH_QUEUES];
    uint32_t ctrl[TT_ETH_CTRL_REGS];
    uint32_t hdr[TT_ETH_TX_HEADERS][TT_ETH_TX_HEADER_WORDS];

    /*
     * TT-link receive state per sending queue of the peer: the next
     * sequence number expected, and whether an ack is owed
     */
    uint8_t rx_next[TT_ETH_QUEUES];
    uint8_t ack_owed[TT_ETH_QUEUES];    /* packets received, not acked */

    /* the link */
    bool up;                        /* peer's hello seen, frames flowing */
    bool was_up;                    /* up at some point since reset */
    int64_t last_rx_ns;
    int64_t last_hello_ns;
    TTLinkChipInfo remote;
    uint32_t session;               /* ours, new when the link went down */
    uint32_t peer_session;          /* the peer's we last started with */
    uint64_t drops;                 /* frames dropped as malformed */
    uint64_t frames_tx, frames_rx;
    /* TT-link packets dropped as ahead of the next expected: a gap */
    uint64_t rx_early;

    /* links */
    MemoryRegion *view;             /* "view": the tile's view */
    struct TTSpinTile *spin;        /* "spin": the tile's parked cores */

    /* properties */
    uint8_t x, y;                   /* physical NOC0 coordinates */
    uint8_t channel;                /* physical channel */
    uint8_t logical;                /* logical channel */
    uint8_t asic_location;
    uint8_t pcb_type;
    uint64_t board_id;
    uint64_t asic_id;
};

/* A frame from the wire (the NIC's receive path; the qtest "tt ethrx") */
void tt_eth_txrx_receive(TTEthTxRx *s, const uint8_t *frame, size_t len);

/* For `info tt`: one line on the link and its counters */
void tt_eth_txrx_describe(TTEthTxRx *s, GString *out);

#endif
