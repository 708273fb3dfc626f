/*
 * NIU command-buffer helpers for test firmware, written from the register
 * semantics (tt-isa-documentation BlackholeA0/NoC/MemoryMap.md, Counters.md;
 * tt-metal noc_parameters.h field positions).  One transaction at a time,
 * waiting for NOC_CMD_CTRL to read 0 first, as tt-metal's dataflow API does.
 */
#ifndef TT_FW_NOC_H
#define TT_FW_NOC_H

#include "tt.h"

#define NIU_REG(noc, buf, off)  REG32(NIU_BASE(noc) + ((buf) << 11) + (off))
#define TARG_LO     0x00
#define TARG_MID    0x04
#define TARG_HI     0x08
#define RET_LO      0x0c
#define RET_MID     0x10
#define RET_HI      0x14
#define PACKET_TAG  0x18
#define CTRL        0x1c
#define AT_LEN_BE   0x20
#define AT_DATA     0x28
#define CMD_CTRL    0x40
#define NIU_CFG_0(noc)  (NIU_BASE(noc) + 0x100)
#define NIU_STATUS(noc, n) REG32(NIU_BASE(noc) + 0x200 + 4 * (n))

#define CMD_AT          (1u << 0)
#define CMD_WR          (1u << 1)
#define CMD_WR_INLINE   (1u << 3)
#define CMD_RESP_MARKED (1u << 4)
#define CMD_BRCST       (1u << 5)
#define CMD_PATH_RES    (1u << 8)
#define CMD_SRC_INCLUDE (1u << 17)

/* counters (NIU base + 0x200 + 4n) */
#define ST_ATOMIC_RESP_RECEIVED 0x0
#define ST_WR_ACK_RECEIVED      0x1
#define ST_RD_RESP_RECEIVED     0x2
#define ST_NONPOSTED_WR_SENT    0xa
#define ST_POSTED_WR_SENT       0xb
#define ST_SLV_NONPOSTED_WR_RECEIVED 0x3a

#define XY(x, y)    (((y) << 6) | (x))
#define MCAST(x0, y0, x1, y1) (((y0) << 18) | ((x0) << 12) | ((y1) << 6) | (x1))

/* Own coordinates: translated when translation is on, else this NOC's */
static inline uint32_t my_xy(int noc)
{
    return (REG32(NIU_BASE(noc) + 0x100) & (1u << 14)
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
