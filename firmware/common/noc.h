/*
 * NIU command-buffer helpers for test firmware, written from the register
 * semantics (tt-isa-documentation BlackholeA0/NoC/MemoryMap.md, Counters.md;
 * tt-metal noc_parameters.h field positions).  One transaction at a time,
 * waiting for NOC_CMD_CTRL to read 0 first, as tt-metal's dataflow API does.
 */
#ifndef TT_FW_NOC_H
#define TT_FW_NOC_H

#include "tt.h"

#define NIU_REG(noc, buf, off)  \
    REG32(NIU_BASE(noc) + (buf) * (int)TT_NIU_CMD_BUF_STRIDE + (off))
#define TARG_LO     A_NOC_TARG_ADDR_LO
#define TARG_MID    A_NOC_TARG_ADDR_MID
#define TARG_HI     A_NOC_TARG_ADDR_HI
#define RET_LO      A_NOC_RET_ADDR_LO
#define RET_MID     A_NOC_RET_ADDR_MID
#define RET_HI      A_NOC_RET_ADDR_HI
#define PACKET_TAG  A_NOC_PACKET_TAG
#define CTRL        A_NOC_CTRL
#define AT_LEN_BE   A_NOC_AT_LEN_BE
#define AT_DATA     A_NOC_AT_DATA
#define CMD_CTRL    A_NOC_CMD_CTRL
#define NIU_CFG_0(noc)  (NIU_BASE(noc) + A_NIU_CFG_0)
#define NIU_STATUS(noc, n) \
    REG32(NIU_BASE(noc) + A_NIU_MST_ATOMIC_RESP_RECEIVED + 4 * (n))

#define CMD_AT          ((uint32_t)R_NOC_CTRL_AT_MASK)
#define CMD_WR          ((uint32_t)R_NOC_CTRL_WR_MASK)
#define CMD_WR_INLINE   ((uint32_t)R_NOC_CTRL_WR_INLINE_MASK)
#define CMD_RESP_MARKED ((uint32_t)R_NOC_CTRL_RESP_MARKED_MASK)
#define CMD_BRCST       ((uint32_t)R_NOC_CTRL_BRCST_PACKET_MASK)
#define CMD_PATH_RES    ((uint32_t)R_NOC_CTRL_PATH_RESERVE_MASK)
#define CMD_SRC_INCLUDE ((uint32_t)R_NOC_CTRL_BRCST_SRC_INCLUDE_MASK)

/* counters (NIU base + 0x200 + 4n) */
#define ST_ATOMIC_RESP_RECEIVED TT_MST_ATOMIC_RESP_RECEIVED
#define ST_WR_ACK_RECEIVED      TT_MST_WR_ACK_RECEIVED
#define ST_RD_RESP_RECEIVED     TT_MST_RD_RESP_RECEIVED
#define ST_NONPOSTED_WR_SENT    TT_MST_NONPOSTED_WR_REQ_SENT
#define ST_POSTED_WR_SENT       TT_MST_POSTED_WR_REQ_SENT
#define ST_SLV_NONPOSTED_WR_RECEIVED TT_SLV_NONPOSTED_WR_REQ_RECEIVED

#define XY(x, y)    (((y) << 6) | (x))
#define MCAST(x0, y0, x1, y1) (((y0) << 18) | ((x0) << 12) | ((y1) << 6) | (x1))

/* Own coordinates: translated when translation is on, else this NOC's */
static inline uint32_t my_xy(int noc)
{
    uint32_t xlate = (uint32_t)R_NIU_CFG_0_COORD_TRANSLATE_EN_MASK;

    return (REG32(NIU_BASE(noc) + A_NIU_CFG_0) & xlate
            ? REG32(NOC_ID_LOGICAL(noc)) : REG32(NOC_NODE_ID(noc))) & 0xfff;
}

static inline void noc_wait(int noc, int buf)
{
    while (NIU_REG(noc, buf, CMD_CTRL)) {
    }
}

/* remote (xy, addr) -> local dst */
static inline void noc_read(int noc, uint32_t xy, uint32_t addr, uint32_t dst,
                            uint32_t len)
{
    noc_wait(noc, 1);
    NIU_REG(noc, 1, CTRL) = CMD_RESP_MARKED;
    NIU_REG(noc, 1, TARG_LO) = addr;
    NIU_REG(noc, 1, TARG_MID) = 0;
    NIU_REG(noc, 1, TARG_HI) = xy;
    NIU_REG(noc, 1, RET_LO) = dst;
    NIU_REG(noc, 1, RET_MID) = 0;
    NIU_REG(noc, 1, RET_HI) = my_xy(noc);
    NIU_REG(noc, 1, AT_LEN_BE) = len;
    NIU_REG(noc, 1, CMD_CTRL) = 1;
    noc_wait(noc, 1);
}

/* local src -> remote (hi, addr); hi is a unicast or multicast field */
static inline void noc_write(int noc, uint32_t src, uint32_t hi,
                             uint32_t addr, uint32_t len, uint32_t flags)
{
    noc_wait(noc, 0);
    NIU_REG(noc, 0, CTRL) = CMD_WR | flags;
    NIU_REG(noc, 0, TARG_LO) = src;
    NIU_REG(noc, 0, TARG_MID) = 0;
    NIU_REG(noc, 0, TARG_HI) = my_xy(noc);
    NIU_REG(noc, 0, RET_LO) = addr;
    NIU_REG(noc, 0, RET_MID) = 0;
    NIU_REG(noc, 0, RET_HI) = hi;
    NIU_REG(noc, 0, AT_LEN_BE) = len;
    NIU_REG(noc, 0, CMD_CTRL) = 1;
    noc_wait(noc, 0);
}

/*
 * A non-posted unicast write, then wait for its acknowledgement (as
 * tt-metal's noc_async_write_barrier counts NIU_MST_WR_ACK_RECEIVED)
 */
static inline void noc_write_acked(int noc, uint32_t src, uint32_t xy,
                                   uint32_t addr, uint32_t len)
{
    uint32_t acks = NIU_STATUS(noc, ST_WR_ACK_RECEIVED);

    noc_write(noc, src, xy, addr, len, CMD_RESP_MARKED);
    while (NIU_STATUS(noc, ST_WR_ACK_RECEIVED) != acks + 1) {
    }
}

static inline void noc_inline(int noc, uint32_t xy, uint32_t addr,
                              uint32_t val)
{
    noc_wait(noc, 2);
    NIU_REG(noc, 2, AT_DATA) = val;
    NIU_REG(noc, 2, CTRL) = CMD_WR | CMD_WR_INLINE;
    NIU_REG(noc, 2, TARG_LO) = addr;
    NIU_REG(noc, 2, TARG_MID) = 0;
    NIU_REG(noc, 2, TARG_HI) = xy;
    NIU_REG(noc, 2, AT_LEN_BE) = 0xf << (addr & 63);
    NIU_REG(noc, 2, CMD_CTRL) = 1;
    noc_wait(noc, 2);
}

/* non-posted atomic at (hi, addr); old value lands at local ret */
static inline void noc_atomic(int noc, uint32_t hi, uint32_t addr,
                              uint32_t len_be, uint32_t data, uint32_t ret,
                              uint32_t flags)
{
    noc_wait(noc, 3);
    NIU_REG(noc, 3, TARG_LO) = addr;
    NIU_REG(noc, 3, TARG_MID) = 0;
    NIU_REG(noc, 3, TARG_HI) = hi;
    NIU_REG(noc, 3, RET_LO) = ret;
    NIU_REG(noc, 3, RET_MID) = 0;
    NIU_REG(noc, 3, RET_HI) = my_xy(noc);
    NIU_REG(noc, 3, CTRL) = CMD_AT | CMD_RESP_MARKED | flags;
    NIU_REG(noc, 3, AT_LEN_BE) = len_be;
    NIU_REG(noc, 3, AT_DATA) = data;
    NIU_REG(noc, 3, CMD_CTRL) = 1;
    noc_wait(noc, 3);
}

/* INCR_GET, full 32-bit add, word (addr >> 2) & 3 of the 16-byte block */
#define AT_INCR_GET(addr)   ((1u << 12) | (31u << 2) | (((addr) >> 2) & 3))
#define AT_SWAP_4B(addr)    ((7u << 12) | ((((addr) >> 2) & 3) << 2))
#define AT_SWAP_MASK(mask)  ((3u << 12) | ((mask) << 2))
#define AT_ACC_INT32        ((9u << 12) | 3)
#define AT_CAS(addr, cmp, set) \
    ((4u << 12) | ((set) << 6) | ((cmp) << 2) | (((addr) >> 2) & 3))

#endif
