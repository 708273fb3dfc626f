/*
 * Register offsets of the Tenstorrent Blackhole NOC interface unit (NIU),
 * from its base (0xFFB20000 for NOC0, 0xFFB30000 for NOC1 in a Tensix
 * tile's map): the one table the model (niu.c), the host qtests and the
 * RV32 test firmware use.
 *
 * Plain C without QEMU types.  The includer defines REG32() and FIELD()
 * first: QEMU code and qtests through hw/registerfields.h, test firmware
 * through plain-regfields.h, which gives the same A_, R_ and
 * _SHIFT/_LENGTH/_MASK names.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_NIU_REGS_H
#define HW_TENSTORRENT_NIU_REGS_H

/* tt-isa-documentation BlackholeA0/NoC/MemoryMap.md; noc_parameters.h */
#define TT_NIU_CMD_BUFS         4
#define TT_NIU_CMD_BUF_STRIDE   0x800u
#define TT_NIU_CMD_BUF_REGS     (0x50 / 4)

/* per command buffer (offset from NIU base + buf * 0x800) */
REG32(NOC_TARG_ADDR_LO, 0x00)
REG32(NOC_TARG_ADDR_MID, 0x04)
REG32(NOC_TARG_ADDR_HI, 0x08)
REG32(NOC_RET_ADDR_LO, 0x0c)
REG32(NOC_RET_ADDR_MID, 0x10)
REG32(NOC_RET_ADDR_HI, 0x14)
REG32(NOC_PACKET_TAG, 0x18)
    FIELD(NOC_PACKET_TAG, TXN_ID, 10, 4)
REG32(NOC_CTRL, 0x1c)
    FIELD(NOC_CTRL, AT, 0, 1)
    FIELD(NOC_CTRL, WR, 1, 1)
    FIELD(NOC_CTRL, WR_BE, 2, 1)
    FIELD(NOC_CTRL, WR_INLINE, 3, 1)
    FIELD(NOC_CTRL, RESP_MARKED, 4, 1)
    FIELD(NOC_CTRL, BRCST_PACKET, 5, 1)
    FIELD(NOC_CTRL, PATH_RESERVE, 8, 1)
    FIELD(NOC_CTRL, BRCST_SRC_INCLUDE, 17, 1)
    FIELD(NOC_CTRL, L1_ACC_AT_EN, 31, 1)
REG32(NOC_AT_LEN_BE, 0x20)
    FIELD(NOC_AT_LEN_BE, IND_32, 0, 2)
    FIELD(NOC_AT_LEN_BE, INT_WIDTH, 2, 5)
    FIELD(NOC_AT_LEN_BE, CAS_CMP, 2, 4)
    FIELD(NOC_AT_LEN_BE, CAS_SET, 6, 4)
    FIELD(NOC_AT_LEN_BE, IND_32_SRC, 10, 2)
    FIELD(NOC_AT_LEN_BE, INS, 12, 4)   /* ACC is 9: bit 15 too */
REG32(NOC_AT_LEN_BE_1, 0x24)
REG32(NOC_AT_DATA, 0x28)
REG32(NOC_L1_ACC_AT_INSTRN, 0x30)
REG32(NOC_CMD_CTRL, 0x40)
REG32(NOC_NODE_ID, 0x44)
    FIELD(NOC_NODE_ID, X, 0, 6)
    FIELD(NOC_NODE_ID, Y, 6, 6)
    FIELD(NOC_NODE_ID, WIDTH, 12, 7)
    FIELD(NOC_NODE_ID, HEIGHT, 19, 7)
    FIELD(NOC_NODE_ID, X_FIRST, 28, 1)
REG32(NOC_ENDPOINT_ID, 0x48)
/* per NIU */
REG32(NOC_CLEAR_OUTSTANDING_REQ_CNT, 0x60)
REG32(CMD_BUF_AVAIL, 0x64)
REG32(CMD_BUF_OVFL, 0x68)
REG32(NIU_CFG_0, 0x100)
    FIELD(NIU_CFG_0, COORD_TRANSLATE_EN, 14, 1)
REG32(ROUTER_CFG_1, 0x108)     /* broadcast opt-out, one bit per column */
REG32(ROUTER_CFG_3, 0x110)     /* broadcast opt-out, one bit per row */
REG32(NOC_ID_LOGICAL, 0x148)
REG32(NIU_TRANS_COUNT_RTZ_CLR, 0x17c)
REG32(NIU_MST_ATOMIC_RESP_RECEIVED, 0x200)
/* Counter indices (NIU base + 0x200 + 4 * n), tt-isa-doc NoC/Counters.md */
enum {
    TT_MST_ATOMIC_RESP_RECEIVED = 0x00,
    TT_MST_WR_ACK_RECEIVED = 0x01,
    TT_MST_RD_RESP_RECEIVED = 0x02,
    TT_MST_RD_DATA_WORD_RECEIVED = 0x03,
    TT_MST_CMD_ACCEPTED = 0x04,
    TT_MST_RD_REQ_SENT = 0x05,
    TT_MST_NONPOSTED_ATOMIC_SENT = 0x06,
    TT_MST_POSTED_ATOMIC_SENT = 0x07,
    TT_MST_NONPOSTED_WR_DATA_WORD_SENT = 0x08,
    TT_MST_POSTED_WR_DATA_WORD_SENT = 0x09,
    TT_MST_NONPOSTED_WR_REQ_SENT = 0x0a,
    TT_MST_POSTED_WR_REQ_SENT = 0x0b,
    TT_MST_NONPOSTED_WR_REQ_STARTED = 0x0c,
    TT_MST_POSTED_WR_REQ_STARTED = 0x0d,
    TT_MST_RD_REQ_STARTED = 0x0e,
    TT_MST_NONPOSTED_ATOMIC_STARTED = 0x0f,
    TT_MST_REQS_OUTSTANDING_ID = 0x10,      /* + transaction id */
    TT_MST_WRITE_REQS_OUTGOING_ID = 0x20,   /* + transaction id */
    TT_SLV_ATOMIC_RESP_SENT = 0x30,
    TT_SLV_WR_ACK_SENT = 0x31,
    TT_SLV_RD_RESP_SENT = 0x32,
    TT_SLV_RD_DATA_WORD_SENT = 0x33,
    TT_SLV_REQ_ACCEPTED = 0x34,
    TT_SLV_RD_REQ_RECEIVED = 0x35,
    TT_SLV_NONPOSTED_ATOMIC_RECEIVED = 0x36,
    TT_SLV_POSTED_ATOMIC_RECEIVED = 0x37,
    TT_SLV_NONPOSTED_WR_DATA_WORD_RECEIVED = 0x38,
    TT_SLV_POSTED_WR_DATA_WORD_RECEIVED = 0x39,
    TT_SLV_NONPOSTED_WR_REQ_RECEIVED = 0x3a,
    TT_SLV_POSTED_WR_REQ_RECEIVED = 0x3b,
};
REG32(NIU_TRANS_COUNT_RTZ_SOURCE, 0x37c)

#define TT_NIU_CFG_REGS         0x20    /* 0x100 - 0x17C */
#define TT_NIU_COUNTERS         0x80    /* 0x200 - 0x3FC */
#define TT_NIU_CMD_BUF_ALL_FREE 0x1f1f1f1fu
#define TT_NOC_MAX_PACKET       16384       /* 256 flits of 64 bytes */
#define TT_NOC_FLIT             64
/* NOC_ENDPOINT_ID tile types for Tensix and Ethernet (MemoryMap.md) */
#define TT_ENDPOINT_TENSIX      0x0100u
#define TT_ENDPOINT_ETH         0x0200u

#endif
