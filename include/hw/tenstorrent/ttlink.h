/*
 * Tenstorrent Blackhole Ethernet tile: the TX/RX register layout, the
 * TT-link frame as this model puts it on the wire, and the base-firmware
 * results in L1 that software reads.  Plain C, no QEMU types: the model
 * (eth-txrx.c), the qtests and the RV32 test firmware share it.
 *
 * Registers: tt-isa-documentation BlackholeA0/EthernetTile/EthernetTxRx.md,
 * EthernetRxClassifier.md; offsets past the documented ones from tt-metal
 * tt_metal/hw/inc/internal/ethernet/tt_eth_ss_regs.h.  Offsets are from
 * the TXRX block (TT_ETH_TXRX_BASE, 0xFFB90000).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_TTLINK_H
#define HW_TENSTORRENT_TTLINK_H

#include <stdint.h>

#define TT_ETH_TXQ(q)                   (0x0000 + 0x1000 * (q))
#define TT_ETH_RXQ(q)                   (0x4000 + 0x1000 * (q))
#define TT_ETH_CTRL                     0x8000
#define TT_ETH_TX_HEADER(i)             (0x8200 + 0x80 * (i))
#define TT_ETHQ_REGS                    64      /* words per queue block */
#define TT_ETH_CTRL_REGS                128     /* 0x8000..0x81FF */
#define TT_ETH_TX_HEADER_WORDS          32

/* TX queue registers */
#define TT_ETH_TXQ_CTRL                 0x00
#define   TT_ETH_TXQ_CTRL_KEEPALIVE     (1u << 0)
#define   TT_ETH_TXQ_CTRL_DIS_DROP      (1u << 3)
#define TT_ETH_TXQ_CMD                  0x04
#define   TT_ETH_TXQ_CMD_RAW            1
#define   TT_ETH_TXQ_CMD_L1_WRITE       2
#define   TT_ETH_TXQ_CMD_MMIO_WRITE     4
#define TT_ETH_TXQ_STATUS               0x08
#define   TT_ETH_TXQ_STATUS_CMD_ONGOING (1u << 16)
#define TT_ETH_TXQ_MAX_PKT_SIZE_BYTES   0x0c
#define TT_ETH_TXQ_TRANSFER_START_ADDR  0x14
#define TT_ETH_TXQ_TRANSFER_SIZE_BYTES  0x18
#define TT_ETH_TXQ_DEST_ADDR            0x1c
#define TT_ETH_TXQ_TRANSFER_CNT         0x30
#define TT_ETH_TXQ_PKT_START_CNT        0x34
#define TT_ETH_TXQ_PKT_END_CNT          0x3c
#define TT_ETH_TXQ_WORD_CNT             0x40
#define TT_ETH_TXQ_REMOTE_REG_DATA      0x44
#define TT_ETH_TXQ_REMOTE_SEQ_TIMEOUT   0x48
#define TT_ETH_TXQ_LOCAL_SEQ_UPDATE_TIMEOUT 0x4c
#define TT_ETH_TXQ_RESEND_CNT           0x68
#define TT_ETH_TXQ_DATA_PACKET_ACCEPT_AHEAD 0x6c
#define TT_ETH_TXQ_TXPKT_CFG_SEL_SW     0x80
#define TT_ETH_TXQ_TXPKT_CFG_SEL_HW     0x84
#define TT_ETH_TXQ_TXPKT_CFG_SEL_OVL    0x88

/* RX queue registers */
#define TT_ETH_RXQ_CTRL                 0x00
#define   TT_ETH_RXQ_CTRL_PACKET_MODE   (1u << 1)
#define   TT_ETH_RXQ_CTRL_BUF_WRAP      (1u << 2)
#define TT_ETH_RXQ_BYTE_CNT             0x04
#define TT_ETH_RXQ_BUF_PTR              0x08
#define TT_ETH_RXQ_BUF_START_WORD_ADDR  0x0c
#define TT_ETH_RXQ_BUF_SIZE_WORDS       0x10
#define TT_ETH_RXQ_WORD_CNT             0x14
#define TT_ETH_RXQ_HDR_CTRL             0x18
#define TT_ETH_RXQ_PKT_START_CNT        0x24
#define TT_ETH_RXQ_PKT_END_CNT          0x28
#define TT_ETH_RXQ_LOCAL_RX_SEQ_NUM     0x40
#define TT_ETH_RXQ_REMOTE_RX_SEQ_NUM    0x44
#define TT_ETH_RXQ_TILE_HEADER_FORMAT   0x48
#define TT_ETH_RXQ_PACKET_DROP_CNT      0x4c
#define TT_ETH_RXQ_OUTSTANDING_WR_CNT   0x50

/* ETH_CTRL registers (offsets from TT_ETH_CTRL) */
#define TT_ETH_CTRL_PCS_STATUS          0x0c    /* 1: link up */
#define TT_ETH_CTRL_EOP_STATUS_GOOD_LO  0x120
#define TT_ETH_CTRL_MAC_RX_ROUTING      0x150
#define TT_ETH_CTRL_MAC_RX_ADDR_ROUTING 0x154

/* TX header table entry (offsets from TT_ETH_TX_HEADER(i)) */
#define TT_ETH_HDR_INSERT_CTL           0x00
#define TT_ETH_HDR_MAC_SA               0x10    /* low 4 bytes, then 2 */
#define TT_ETH_HDR_MAC_DA               0x18
#define TT_ETH_HDR_ETHERTYPE            0x20    /* [31:16] type, [0] use */

/* Bytes per unit of the WORD_CNT counters */
#define TT_ETH_WORD_BYTES               96

/*
 * The TT-link frame on the wire: a 14-byte Ethernet header (destination
 * and source MAC from the TX header table, ethertype TT_LINK_ETHERTYPE),
 * the 18-byte TT-link header below, then the payload (a multiple of 16
 * bytes for an L1 write).  Only the MMIO flag's place (header byte 13,
 * frame bit 216) is documented; the rest of the layout is this model's.
 * Multi-byte fields are little endian.
 */
#define TT_LINK_ETHERTYPE       0x88b5  /* IEEE 802 local experimental 1 */
#define TT_LINK_ETH_HLEN        14
#define TT_LINK_HLEN            18
#define TT_LINK_MAGIC           0x54    /* 'T' */

enum {
    TT_LINK_OFF_MAGIC = 0,
    TT_LINK_OFF_TYPE = 1,
    TT_LINK_OFF_QUEUE = 2,      /* the sending TX queue */
    TT_LINK_OFF_SEQ = 3,        /* data packets: this packet's number */
    TT_LINK_OFF_ACK = 4,        /* next number expected from that queue */
    TT_LINK_OFF_FLAGS = 5,
    TT_LINK_OFF_ADDR = 6,       /* 4 bytes: L1 or register address */
    TT_LINK_OFF_LEN = 10,       /* 2 bytes: payload length */
    TT_LINK_OFF_MMIO = 13,      /* 1 for an MMIO write (EthernetTxRx.md) */
    TT_LINK_OFF_DATA = 14,      /* 4 bytes: the MMIO write's value */
};

enum {
    TT_LINK_SEQ_UPDATE = 0,     /* only the ack */
    TT_LINK_L1_WRITE = 1,
    TT_LINK_MMIO_WRITE = 2,
    TT_LINK_HELLO = 3,          /* link bring-up: a TTLinkChipInfo payload */
};

#define TT_LINK_FLAG_HELLO_REQ  0x01    /* hello: answer with yours */

/*
 * Base-firmware results in an Ethernet tile's L1 (tt-metal
 * tt_metal/hw/inc/internal/tt-1xx/blackhole/eth_fw_api.h, tt-umd
 * blackhole_eth.hpp).  The model writes them; see blackhole.rst.
 */
#define TT_ETH_BOOT_RESULTS     0x7cc00
#define TT_ETH_POSTCODE         0x7cc00
#define   TT_ETH_POSTCODE_PASS  0xc0dea000u
#define TT_ETH_PORT_STATUS      0x7cc04
#define   TT_ETH_PORT_UNKNOWN   0
#define   TT_ETH_PORT_UP        1
#define   TT_ETH_PORT_DOWN      2
#define   TT_ETH_PORT_UNUSED    3
#define TT_ETH_TRAIN_STATUS     0x7cc08
#define   TT_ETH_TRAIN_PASS     2
#define TT_ETH_HEARTBEAT        0x7cc70
#define TT_ETH_RETRAIN_COUNT    0x7ce00
#define TT_ETH_RX_LINK_UP       0x7ce04
#define TT_ETH_FW_VERSION       0x7cfbc /* patch, minor, major bytes */
#define TT_ETH_LOCAL_INFO       0x7cfc0
#define TT_ETH_REMOTE_INFO      0x7cfe0
/*
 * The base firmware's mailboxes (eth_fw_api.h all_eth_mailbox_t): four
 * {msg, arg0, arg1, arg2}, 0 from the host, 1 from E1, 2 from ARC's
 * firmware, 3 other.  A message is CALL | type; the firmware answers
 * DONE | type.  RELEASE_CORE starts E0 at arg0, its stack at
 * TT_ETH_FW_E0_SP.
 */
#define TT_ETH_MAILBOX          0x7d000
#define TT_ETH_MAILBOXES        4
#define TT_ETH_MAILBOX_SIZE     16
#define TT_ETH_MSG_STATUS_MASK  0xffff0000u
#define TT_ETH_MSG_CALL         0xca110000u
#define TT_ETH_MSG_DONE         0xd0e50000u
#define TT_ETH_MSG_RELEASE_CORE 0x0002
#define TT_ETH_FW_E0_SP         0xffb02000u
/*
 * Ours, in the base firmware's reserved L1 (0x70000-0x7ffff): the model's
 * four instructions that set E0's stack and jump to a RELEASE_CORE's arg0
 */
#define TT_ETH_FW_TRAMPOLINE    0x7f000
/*
 * The base firmware's API table (eth_fw_api.h eth_api_table_t: send_eth_msg,
 * service_eth_msg, eth_link_status_check, eth_dynamic_noc_init,
 * eth_link_recovery), which tt-metal's active Ethernet firmware calls
 * through: every entry the model's "ret" at TT_ETH_FW_RETURN, as ttsim's
 */
#define TT_ETH_API_TABLE        0x7cf00
#define TT_ETH_API_ENTRIES      5
#define TT_ETH_FW_RETURN        0x7f010

/* The version reported: tt-umd needs at least 1.4.1 */
#define TT_ETH_FW_MAJOR         1
#define TT_ETH_FW_MINOR         6
#define TT_ETH_FW_PATCH         0

/* chip_info_t, 32 bytes, as in L1 and in a hello frame's payload */
typedef struct TTLinkChipInfo {
    uint8_t pcb_type;
    uint8_t asic_location;
    uint8_t eth_id;             /* physical channel */
    uint8_t logical_eth_id;
    uint32_t board_id_hi;
    uint32_t board_id_lo;
    uint32_t mac_addr_org;
    uint32_t mac_addr_id;
    uint32_t asic_id_hi;
    uint32_t asic_id_lo;
    uint32_t req_ack;
} TTLinkChipInfo;

/* A hello frame's payload: the sender's chip info and link session */
typedef struct TTLinkHello {
    TTLinkChipInfo info;
    uint32_t session;
} TTLinkHello;

#endif
