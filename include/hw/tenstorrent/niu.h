/*
 * Tenstorrent Blackhole NOC interface unit (NIU): one per tile per NOC, at
 * 0xFFB20000 (NOC0) and 0xFFB30000 (NOC1).
 *
 * This model holds the identity, configuration and counter registers and
 * the four command buffers' registers.  Threads: any core of the tile and
 * the host; @lock protects the register file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_NIU_H
#define HW_TENSTORRENT_NIU_H

#include "hw/sysbus.h"
#include "hw/registerfields.h"
#include "hw/tenstorrent/tt-tile-map.h"     /* generated */
#include "qom/object.h"

#define TYPE_TT_NIU "tt-niu"
OBJECT_DECLARE_SIMPLE_TYPE(TTNiu, TT_NIU)

/* tt-isa-documentation BlackholeA0/NoC/MemoryMap.md; noc-and-niu.md 1-7 */
#define TT_NIU_CMD_BUFS         4
#define TT_NIU_CMD_BUF_STRIDE   0x800u
#define TT_NIU_CMD_BUF_REGS     (0x50 / 4)

/* per command buffer (offset from NIU base + buf * 0x800) */
REG32(NOC_TARG_ADDR_LO, 0x00)
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
REG32(NOC_ID_LOGICAL, 0x148)
REG32(NIU_TRANS_COUNT_RTZ_CLR, 0x17c)
REG32(NIU_MST_ATOMIC_RESP_RECEIVED, 0x200)
REG32(NIU_TRANS_COUNT_RTZ_SOURCE, 0x37c)

#define TT_NIU_CFG_REGS         0x20    /* 0x100 - 0x17C */
#define TT_NIU_COUNTERS         0x80    /* 0x200 - 0x3FC */
#define TT_NIU_CMD_BUF_ALL_FREE 0x1f1f1f1fu
/* NOC_ENDPOINT_ID tile type for Tensix (MemoryMap.md) */
#define TT_ENDPOINT_TENSIX      0x0100u

struct TTNiu {
    SysBusDevice parent_obj;

    MemoryRegion mmio;
    QemuMutex lock;

    uint32_t cmd[TT_NIU_CMD_BUFS][TT_NIU_CMD_BUF_REGS];
    uint32_t cfg[TT_NIU_CFG_REGS];
    uint32_t counter[TT_NIU_COUNTERS];

    /* properties */
    uint8_t noc;
    uint32_t node_id;           /* physical coordinates in this NOC */
    uint32_t logical_id;        /* translated coordinates, power-on value */
    uint32_t endpoint_id;
};

#endif
