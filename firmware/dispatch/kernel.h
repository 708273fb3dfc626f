/*
 * The kernel side of tt-run programs: a small data-movement API in the
 * shape of tt-metal's dataflow_api.h (tt_metal/hw/inc/api/dataflow/
 * dataflow_api.h): runtime arguments, circular buffers, semaphores and
 * NOC transfers, for kernels the worker firmware calls through a launch
 * message.
 *
 * A kernel is position independent (-mcmodel=medany, no absolute
 * relocations: the Makefile checks), because the host places its image
 * wherever the kernel configuration puts it, as tt-metal's
 * execute-in-place kernels.  It reaches the firmware's state, which the
 * firmware sets up from the launch message before the call
 * (rta_l1_base, crta_l1_base, sem_l1_base, cb_interface), at the absolute
 * addresses of the firmware it is built for: FW_SYM_* from the generated
 * fw-syms header (nm of that firmware ELF; tt-metal links kernels against
 * the firmware's symbols the same way).  The kernel runs on the
 * firmware's stack and returns; its own variables live in its L1 image.
 *
 * Each build fixes the NOC and command buffers (KNOC, KWR, KRD): BRISC
 * kernels use NOC 0 buffers 0 (writes, atomics) and 1 (reads), NCRISC
 * kernels buffers 2 and 3, so both can share NOC 0 (ttsim v1.10.0 does
 * not take reads on NOC 1 with translated coordinates).  Transactions
 * are non-posted and counted as tt-metal counts them; barriers wait for
 * the NIU's counters (tt-isa-documentation BlackholeA0/NoC/
 * Counters.md).  Two kernels sharing a NOC share its counters, which a
 * barrier then over-counts: harmless where transactions complete in
 * order, as in this emulator and ttsim.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_DISPATCH_KERNEL_H
#define TT_DISPATCH_KERNEL_H

#include <stdint.h>
#include "layout.h"
#include "cb.h"
#include "tt.h"
#include "noc.h"

#ifndef KNOC
#define KNOC        0
#endif
#ifndef KWR
#define KWR         0
#endif
#ifndef KRD
#define KRD         1
#endif

#define NOC_MAX_BURST       16384u      /* bytes per NOC packet */
#define MEM_NOC_ATOMIC_RET  0x4u        /* L1 scratch for atomic results */

/* The firmware's state, by address (fw-syms-ROLE.h) */
#define K_RTA_BASE  (*(uint32_t *volatile *)(uintptr_t)FW_SYM_RTA_L1_BASE)
#define K_CRTA_BASE (*(uint32_t *volatile *)(uintptr_t)FW_SYM_CRTA_L1_BASE)
#define K_SEM_BASE  ((volatile uint32_t *)(uintptr_t)FW_SYM_SEM_L1_BASE)
#define K_CB        ((volatile CBInterface *)(uintptr_t)FW_SYM_CB_INTERFACE)

void kernel_main(void);

/* ------------------------------------------------ arguments, semaphores */

static inline uint32_t get_arg_val(int i)
{
    return ((volatile uint32_t *)K_RTA_BASE)[i];
}

static inline uint32_t get_common_arg_val(int i)
{
    return ((volatile uint32_t *)K_CRTA_BASE)[i];
}

#ifdef FW_SYM_SEM_L1_BASE
/* L1 address of semaphore @id (tt-metal: 16 bytes apart) */
static inline uint32_t get_semaphore(int id)
{
    return K_SEM_BASE[0] + 16u * id;
}
#endif

static inline void invalidate_l1_cache(void)
{
    __asm__ volatile("fence" : : : "memory");
}

static inline void noc_semaphore_wait(uint32_t addr, uint32_t val)
{
    while (*(volatile uint32_t *)addr != val) {
        invalidate_l1_cache();
    }
}

/* until the semaphore, counting up, reaches @val (wrap-safe) */
static inline void noc_semaphore_wait_min(uint32_t addr, uint32_t val)
{
    while ((int32_t)(*(volatile uint32_t *)addr - val) < 0) {
        invalidate_l1_cache();
    }
}

static inline void noc_semaphore_set(uint32_t addr, uint32_t val)
{
    *(volatile uint32_t *)addr = val;
}

/* -------------------------------------------------- circular buffers */

static inline volatile uint32_t *cb_received_reg(int cb)
{
    return (volatile uint32_t *)STREAM_ADDR(OPERAND_START_STREAM + cb,
                                            STREAM_BUF_SIZE_REG);
}

static inline volatile uint32_t *cb_acked_reg(int cb)
{
    return (volatile uint32_t *)STREAM_ADDR(OPERAND_START_STREAM + cb,
                                            STREAM_BUF_START_REG);
}

/* pages pushed and not yet popped, 16-bit counters */
static inline uint32_t cb_pages_filled(int cb)
{
    return (uint16_t)(*cb_received_reg(cb) - *cb_acked_reg(cb));
}

static inline void cb_reserve_back(int cb, uint32_t n)
{
    while (K_CB[cb].fifo_num_pages - cb_pages_filled(cb) < n) {
    }
}

static inline void cb_push_back(int cb, uint32_t n)
{
    volatile CBInterface *c = &K_CB[cb];
    uint32_t wr = c->fifo_wr_ptr + n * c->fifo_page_size;

    *cb_received_reg(cb) += n;
    c->fifo_wr_ptr = wr >= c->fifo_limit ? wr - c->fifo_size : wr;
}

static inline void cb_wait_front(int cb, uint32_t n)
{
    while (cb_pages_filled(cb) < n) {
    }
}

static inline void cb_pop_front(int cb, uint32_t n)
{
    volatile CBInterface *c = &K_CB[cb];
    uint32_t rd = c->fifo_rd_ptr + n * c->fifo_page_size;

    *cb_acked_reg(cb) += n;
    c->fifo_rd_ptr = rd >= c->fifo_limit ? rd - c->fifo_size : rd;
}

static inline uint32_t get_write_ptr(int cb)
{
    return K_CB[cb].fifo_wr_ptr;
}

static inline uint32_t get_read_ptr(int cb)
{
    return K_CB[cb].fifo_rd_ptr;
}

/* ------------------------------------------------------------- NOC */

/* Where the counters must reach (kernel globals, in the image) */
typedef struct KNocState {
    uint32_t rd_target;
    uint32_t wr_target;
    uint32_t at_target;
} KNocState;

extern KNocState knoc;

static inline void knoc_track(uint32_t *target, uint32_t counter, uint32_t n)
{
    uint32_t want = NIU_STATUS(KNOC, counter) + n;

    if ((int32_t)(want - *target) > 0) {
        *target = want;
    }
}

static inline void knoc_wait(uint32_t counter, uint32_t target)
{
    while ((int32_t)(NIU_STATUS(KNOC, counter) - target) < 0) {
    }
}

static inline uint32_t my_noc_xy(void)
{
    return my_xy(KNOC);
}

/*
 * Read @len bytes at (@xy, @mid:@addr) into local L1 @dst; @mid carries
 * address bits 63:32 (CQ_NOC_PCIE_MID for host memory)
 */
static inline void noc_async_read64(uint32_t xy, uint32_t mid, uint32_t addr,
                                    uint32_t dst, uint32_t len)
{
    while (len) {
        uint32_t n = len < NOC_MAX_BURST ? len : NOC_MAX_BURST;

        noc_wait(KNOC, KRD);
        knoc_track(&knoc.rd_target, ST_RD_RESP_RECEIVED, 1);
        NIU_REG(KNOC, KRD, CTRL) = CMD_RESP_MARKED;
        NIU_REG(KNOC, KRD, TARG_LO) = addr;
        NIU_REG(KNOC, KRD, TARG_MID) = mid;
        NIU_REG(KNOC, KRD, TARG_HI) = xy;
        NIU_REG(KNOC, KRD, RET_LO) = dst;
        NIU_REG(KNOC, KRD, RET_MID) = 0;
        NIU_REG(KNOC, KRD, RET_HI) = my_noc_xy();
        NIU_REG(KNOC, KRD, AT_LEN_BE) = n;
        NIU_REG(KNOC, KRD, CMD_CTRL) = 1;
        addr += n;
        dst += n;
        len -= n;
    }
}

static inline void noc_async_read(uint32_t xy, uint32_t addr, uint32_t dst,
                                  uint32_t len)
{
    noc_async_read64(xy, 0, addr, dst, len);
}

static inline void noc_async_read_barrier(void)
{
    knoc_wait(ST_RD_RESP_RECEIVED, knoc.rd_target);
}

/*
 * Write local @src to (@hi, @mid:@addr): @hi a unicast xy, or with
 * @ndests > 0 a multicast rectangle (MCAST()) reaching @ndests tiles
 */
static inline void noc_async_write_any(uint32_t src, uint32_t hi,
                                       uint32_t mid, uint32_t addr,
                                       uint32_t len, uint32_t ndests)
{
    uint32_t ctrl = CMD_WR | CMD_RESP_MARKED |
                    (ndests ? CMD_BRCST | CMD_PATH_RES : 0);

    while (len) {
        uint32_t n = len < NOC_MAX_BURST ? len : NOC_MAX_BURST;

        noc_wait(KNOC, KWR);
        knoc_track(&knoc.wr_target, ST_WR_ACK_RECEIVED, ndests ? ndests : 1);
        NIU_REG(KNOC, KWR, CTRL) = ctrl;
        NIU_REG(KNOC, KWR, TARG_LO) = src;
        NIU_REG(KNOC, KWR, TARG_MID) = 0;
        NIU_REG(KNOC, KWR, TARG_HI) = my_noc_xy();
        NIU_REG(KNOC, KWR, RET_LO) = addr;
        NIU_REG(KNOC, KWR, RET_MID) = mid;
        NIU_REG(KNOC, KWR, RET_HI) = hi;
        NIU_REG(KNOC, KWR, AT_LEN_BE) = n;
        NIU_REG(KNOC, KWR, CMD_CTRL) = 1;
        src += n;
        addr += n;
        len -= n;
    }
}

static inline void noc_async_write(uint32_t src, uint32_t xy, uint32_t addr,
                                   uint32_t len)
{
    noc_async_write_any(src, xy, 0, addr, len, 0);
}

static inline void noc_async_write_multicast(uint32_t src, uint32_t rect,
                                             uint32_t addr, uint32_t len,
                                             uint32_t ndests)
{
    noc_async_write_any(src, rect, 0, addr, len, ndests);
}

static inline void noc_async_write_barrier(void)
{
    knoc_wait(ST_WR_ACK_RECEIVED, knoc.wr_target);
}

/* 32-bit store at (@xy, @addr): registers only (Blackhole L1 hazard) */
static inline void noc_inline_dw_write(uint32_t xy, uint32_t addr,
                                       uint32_t val)
{
    noc_wait(KNOC, KWR);
    knoc_track(&knoc.wr_target, ST_WR_ACK_RECEIVED, 1);
    NIU_REG(KNOC, KWR, AT_DATA) = val;
    NIU_REG(KNOC, KWR, CTRL) = CMD_WR | CMD_WR_INLINE | CMD_RESP_MARKED;
    NIU_REG(KNOC, KWR, TARG_LO) = addr;
    NIU_REG(KNOC, KWR, TARG_MID) = 0;
    NIU_REG(KNOC, KWR, TARG_HI) = xy;
    NIU_REG(KNOC, KWR, RET_MID) = 0;   /* this tile: ttsim checks it */
    NIU_REG(KNOC, KWR, RET_HI) = my_noc_xy();
    NIU_REG(KNOC, KWR, AT_LEN_BE) = 0xfu << (addr & 0xc);
    NIU_REG(KNOC, KWR, CMD_CTRL) = 1;
}

/* semaphore at (@xy, @addr) += @val: INCR_GET on a 16-byte aligned word */
static inline void noc_semaphore_inc(uint32_t xy, uint32_t addr,
                                     uint32_t val)
{
    noc_wait(KNOC, KWR);
    knoc_track(&knoc.at_target, ST_ATOMIC_RESP_RECEIVED, 1);
    NIU_REG(KNOC, KWR, TARG_LO) = addr;
    NIU_REG(KNOC, KWR, TARG_MID) = 0;
    NIU_REG(KNOC, KWR, TARG_HI) = xy;
    NIU_REG(KNOC, KWR, RET_LO) = MEM_NOC_ATOMIC_RET;
    NIU_REG(KNOC, KWR, RET_MID) = 0;
    NIU_REG(KNOC, KWR, RET_HI) = my_noc_xy();
    NIU_REG(KNOC, KWR, CTRL) = CMD_AT | CMD_RESP_MARKED;
    NIU_REG(KNOC, KWR, AT_LEN_BE) = AT_INCR_GET(addr);
    NIU_REG(KNOC, KWR, AT_DATA) = val;
    NIU_REG(KNOC, KWR, CMD_CTRL) = 1;
}

static inline void noc_async_atomic_barrier(void)
{
    knoc_wait(ST_ATOMIC_RESP_RECEIVED, knoc.at_target);
}

/* every transaction of this kernel acknowledged */
static inline void noc_async_full_barrier(void)
{
    noc_async_read_barrier();
    noc_async_write_barrier();
    noc_async_atomic_barrier();
}

/* ------------------------------------------------------ GDDR pages */

/*
 * Page @page of a buffer interleaved over @nbanks banks as tt-metal lays
 * pages out (bank page % nbanks, offset page / nbanks pages in):
 * @bank_xy holds each bank's NOC coordinates (tt-run's {banks} argument)
 */
static inline uint32_t dram_page_xy(const uint32_t *bank_xy, uint32_t nbanks,
                                    uint32_t page)
{
    return bank_xy[page % nbanks];
}

static inline uint32_t dram_page_addr(uint32_t base, uint32_t nbanks,
                                      uint32_t page, uint32_t page_size)
{
    return base + page / nbanks * page_size;
}

#endif
