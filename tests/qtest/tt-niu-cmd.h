/*
 * Blackhole qtests: NIU command buffers driven through a core's view of
 * the tile at physical (1, 2), the first Tensix tile of every test
 * machine (tt-niu-test, tt-noc-test).
 *
 * Register offsets: tt-isa-documentation BlackholeA0/NoC/MemoryMap.md and
 * Counters.md, through the model's register header.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_NIU_CMD_H
#define TT_NIU_CMD_H

#include "hw/registerfields.h"
#include "hw/tenstorrent/niu-regs.h"
#include "tt-tile-map.h"        /* generated from data/tile-map.yaml */
#include "tt-qtest-util.h"

#define NIU(noc)            (TT_TILE_NIU0_BASE + TT_TILE_NIU0_SIZE * (noc))
/* short names for the shared register header's (niu-regs.h) */
#define CMD(noc, buf, off)  (NIU(noc) + (buf) * TT_NIU_CMD_BUF_STRIDE + (off))
#define TARG_LO             A_NOC_TARG_ADDR_LO
#define TARG_MID            A_NOC_TARG_ADDR_MID
#define TARG_HI             A_NOC_TARG_ADDR_HI
#define RET_LO              A_NOC_RET_ADDR_LO
#define RET_MID             A_NOC_RET_ADDR_MID
#define RET_HI              A_NOC_RET_ADDR_HI
#define CTRL                A_NOC_CTRL
#define AT_LEN_BE           A_NOC_AT_LEN_BE
#define AT_DATA             A_NOC_AT_DATA
#define CMD_CTRL            A_NOC_CMD_CTRL
#define NIU_CFG_0(noc)      (NIU(noc) + A_NIU_CFG_0)
#define STATUS(noc, n) \
    (NIU(noc) + A_NIU_MST_ATOMIC_RESP_RECEIVED + 4 * (n))

#define RD_RESP_RECEIVED    TT_MST_RD_RESP_RECEIVED
#define RD_REQ_SENT         TT_MST_RD_REQ_SENT
#define WR_ACK_RECEIVED     TT_MST_WR_ACK_RECEIVED
#define NONPOSTED_WR_SENT   TT_MST_NONPOSTED_WR_REQ_SENT
#define POSTED_WR_SENT      TT_MST_POSTED_WR_REQ_SENT
#define ATOMIC_RESP_RECEIVED TT_MST_ATOMIC_RESP_RECEIVED
#define POSTED_ATOMIC_SENT  TT_MST_POSTED_ATOMIC_SENT
#define CMD_ACCEPTED        TT_MST_CMD_ACCEPTED
#define RD_DATA_WORD_RECEIVED TT_MST_RD_DATA_WORD_RECEIVED
#define SLV_POSTED_WR_RECEIVED TT_SLV_POSTED_WR_REQ_RECEIVED
#define REQS_OUTSTANDING(id) (TT_MST_REQS_OUTSTANDING_ID + (id))

#define WR                  R_NOC_CTRL_WR_MASK
#define RESP                R_NOC_CTRL_RESP_MARKED_MASK
#define AT                  R_NOC_CTRL_AT_MASK

static inline uint32_t tt_niu_status(QTestState *q, int noc, int n)
{
    return tt_readl(q, 1, 2, "brisc", STATUS(noc, n));
}

static inline void tt_niu_issue(QTestState *q, int noc, int buf,
                                uint32_t ctrl, uint32_t targ,
                                uint32_t targ_hi, uint32_t ret,
                                uint32_t ret_hi, uint32_t len)
{
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, CTRL), ctrl);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, TARG_LO), targ);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, TARG_MID), 0);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, TARG_HI), targ_hi);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, RET_LO), ret);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, RET_MID), 0);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, RET_HI), ret_hi);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, AT_LEN_BE), len);
    tt_writel(q, 1, 2, "brisc", CMD(noc, buf, CMD_CTRL), 1);
    /* transfers complete synchronously */
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", CMD(noc, buf, CMD_CTRL)), ==,
                    0);
}

#define XY(x, y) (((y) << 6) | (x))
#define ROUTER_CFG_1(noc)   (NIU(noc) + A_ROUTER_CFG_1)
#define ROUTER_CFG_3(noc)   (NIU(noc) + A_ROUTER_CFG_3)
#define BRCST               R_NOC_CTRL_BRCST_PACKET_MASK
#define MCAST(x0, y0, x1, y1) (((y0) << 18) | ((x0) << 12) | ((y1) << 6) | (x1))

#endif
