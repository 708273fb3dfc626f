/*
 * What the three fast-dispatch kernels share: the NOC they use (a
 * runtime argument), error reporting in their status words (cq.h), the
 * page-credit protocol between a producer and a consumer CB (tt-metal
 * cq_common.hpp CBWriter / CBReaderWithReleasePolicy, written anew: the
 * producer's semaphore counts pages it may fill, the consumer's counts
 * pages filled, each adds to the other's with a NOC atomic), validation
 * of NOC destinations and the go-signal sender.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_DISPATCH_CQ_COMMON_H
#define TT_DISPATCH_CQ_COMMON_H

#include <stdint.h>

extern uint32_t cq_noc;
#undef KNOC
#define KNOC cq_noc
#include "kernel.h"
#include "cq.h"

#define RD8(a)      (*(volatile uint8_t *)(uintptr_t)(a))
#define RD16(a)     (*(volatile uint16_t *)(uintptr_t)(a))
#define RD32(a)     (*(volatile uint32_t *)(uintptr_t)(a))

/* the kernel's role (CQ_ROLE_*), for its status words */
extern uint32_t cq_role;
extern uint32_t cq_commands;

static inline uint32_t cq_status_addr(uint32_t field)
{
    return CQ_STATUS(cq_role) + field;
}

/*
 * Stop on a malformed command: the error, its argument and where the
 * command was go to the status words the host polls; then nothing more
 * is processed (the host reports it and gives up)
 */
static inline void __attribute__((noreturn))
cq_fail(uint32_t code, uint32_t arg, uint32_t where)
{
    RD32(cq_status_addr(CQ_ST_ARG)) = arg;
    RD32(cq_status_addr(CQ_ST_WHERE)) = where;
    RD32(cq_status_addr(CQ_ST_COUNT)) = cq_commands;
    invalidate_l1_cache();
    RD32(cq_status_addr(CQ_ST_ERROR)) = code;
    for (;;) {
        invalidate_l1_cache();
    }
}

static inline void cq_status_init(uint32_t role)
{
    cq_role = role;
    cq_commands = 0;
    RD32(cq_status_addr(CQ_ST_ERROR)) = CQ_OK;
    RD32(cq_status_addr(CQ_ST_ARG)) = 0;
    RD32(cq_status_addr(CQ_ST_WHERE)) = 0;
    RD32(cq_status_addr(CQ_ST_COUNT)) = 0;
}

static inline void cq_count(void)
{
    RD32(cq_status_addr(CQ_ST_COUNT)) = ++cq_commands;
}

/* wrap-safe a >= b on counters of @bits bits */
static inline int cq_ge(uint32_t a, uint32_t b, int bits)
{
    return (int32_t)((a - b) << (32 - bits)) >= 0;
}

/* ----------------------------------------------------- destinations */

/* translated columns holding Tensix tiles (CQ_RTA_COL_MASK) */
extern uint32_t cq_colmask;

static inline int cq_tensix_xy(uint32_t xy)
{
    uint32_t x = xy & 63, y = (xy >> 6) & 63;

    return x < 32 && (cq_colmask >> x & 1) && y >= 2 && y <= 11;
}

/* a unicast destination: a Tensix tile, a GDDR port or the PCIe tile */
static inline int cq_unicast_ok(uint32_t xy)
{
    uint32_t x = xy & 63, y = (xy >> 6) & 63;

    return !(xy >> 12) &&
           (cq_tensix_xy(xy) || ((x == 17 || x == 18) && y >= 12 &&
                                 y <= 23) ||
            (x == CQ_PCIE_X && y == CQ_PCIE_Y));
}

/* a multicast rectangle of Tensix tiles reaching @n of them */
static inline int cq_mcast_ok(uint32_t enc, uint32_t n)
{
    return !(enc >> 24) && cq_tensix_xy(enc & 0xfff) &&
           cq_tensix_xy(enc >> 12) && n >= 1 && n <= 140;
}

static inline void cq_check_dest(uint32_t xy, uint32_t ndests,
                                 uint32_t where)
{
    if (ndests ? !cq_mcast_ok(xy, ndests) : !cq_unicast_ok(xy)) {
        cq_fail(CQ_ERR_BAD_DEST, xy, where);
    }
}

/* ------------------------------------------------- page credits: producer */

typedef struct CQWriter {
    uint32_t base, size, log_page;  /* the consumer's CB */
    uint32_t xy;                    /* consumer core */
    uint32_t my_sem;                /* pages granted (local semaphore) */
    uint32_t its_sem;               /* pages filled (consumer's) */
    uint32_t pos;                   /* bytes written, free-running */
    uint32_t acquired, released;    /* pages, free-running */
} CQWriter;

/* grant pages so that [pos, pos + n) may be written: at least one more */
static inline void cq_writer_acquire(CQWriter *w, uint32_t want_pages)
{
    uint32_t avail;

    do {
        invalidate_l1_cache();
        avail = RD32(w->my_sem) - w->acquired;
    } while ((int32_t)avail <= 0);
    w->acquired += avail < want_pages ? avail : want_pages;
}

/* tell the consumer about the pages filled up to pos */
static inline void cq_writer_release(CQWriter *w, uint32_t upto_pos)
{
    uint32_t pages = upto_pos >> w->log_page;

    if (pages != w->released) {
        noc_async_write_barrier();
        noc_semaphore_inc(w->xy, w->its_sem, pages - w->released);
        w->released = pages;
    }
}

/*
 * Copy @len bytes at local @src to the consumer's ring, waiting for
 * credits page by page; @flush ends the page (the next relay starts on a
 * new one) and hands over everything written
 */
static inline void cq_writer_relay(CQWriter *w, uint32_t src, uint32_t len,
                                   int flush)
{
    uint32_t page = 1u << w->log_page;

    while (len) {
        uint32_t room = (w->acquired << w->log_page) - w->pos;
        uint32_t off = w->pos & (w->size - 1), n;

        if (!room) {
            uint32_t end = (w->pos + len + page - 1) >> w->log_page;

            cq_writer_acquire(w, end - w->acquired);
            continue;
        }
        n = len < room ? len : room;
        n = n < w->size - off ? n : w->size - off;
        noc_async_write(src, w->xy, w->base + off, n);
        w->pos += n;
        src += n;
        len -= n;
        if (len) {
            cq_writer_release(w, w->pos);
        }
    }
    if (flush) {
        w->pos = (w->pos + page - 1) & ~(page - 1);
    }
    cq_writer_release(w, w->pos);
}

/* ------------------------------------------------- page credits: consumer */

typedef struct CQReader {
    uint32_t base, size, log_page;
    uint32_t my_sem;                /* pages filled (local semaphore) */
    uint32_t xy, its_sem;           /* producer and its grant semaphore */
    uint32_t pos;                   /* bytes consumed, free-running */
    uint32_t released;              /* pages given back */
} CQReader;

static inline uint32_t cq_reader_addr(const CQReader *r, uint32_t pos)
{
    return r->base + (pos & (r->size - 1));
}

/* bytes readable at @pos now (negative: not there yet) */
static inline int32_t cq_reader_avail(const CQReader *r, uint32_t pos)
{
    invalidate_l1_cache();
    return (RD32(r->my_sem) << r->log_page) - pos;
}

/* wait until [pos, pos + n) has arrived */
static inline void cq_reader_wait(const CQReader *r, uint32_t pos,
                                  uint32_t n)
{
    while (cq_reader_avail(r, pos) - (int32_t)n < 0) {
    }
}

/* give the producer back the pages wholly before @pos */
static inline void cq_reader_release(CQReader *r, uint32_t pos)
{
    uint32_t pages = pos >> r->log_page;

    if (pages != r->released) {
        noc_semaphore_inc(r->xy, r->its_sem, pages - r->released);
        r->released = pages;
    }
}

/*
 * Copy [pos, pos + n) of the ring to local @dst (at most a page: the
 * sub-commands a command carries)
 */
static inline void cq_reader_copy(const CQReader *r, uint32_t pos,
                                  uint32_t *dst, uint32_t n)
{
    for (uint32_t i = 0; i < n / 4; i++) {
        dst[i] = RD32(cq_reader_addr(r, pos + 4 * i));
    }
}

/*
 * The go signal's unicast destinations (a count, then that many NOC xy
 * words) at @pos into @data, each checked to be a Tensix tile; returns
 * the position of the next command
 */
static inline uint32_t cq_set_noc_data(const CQReader *r, uint32_t pos,
                                       uint32_t *data)
{
    volatile CQDispatchSetCount *c =
        (volatile CQDispatchSetCount *)cq_reader_addr(r, pos);
    uint32_t n = c->value;

    if (n > CQ_MAX_GO_NOC_DATA) {
        cq_fail(CQ_ERR_BAD_COUNT, n, pos);
    }
    cq_reader_wait(r, pos, sizeof(*c) + 4 * n);
    cq_reader_copy(r, pos + sizeof(*c), data, 4 * n);
    for (uint32_t i = 0; i < n; i++) {
        if (!cq_tensix_xy(data[i])) {
            cq_fail(CQ_ERR_BAD_DEST, data[i], pos);
        }
    }
    return pos + ((sizeof(*c) + 4 * n + 15) & ~15u);
}

/*
 * Write [pos, pos + len) of the ring to (@hi, @mid:@addr) as data
 * arrives, split where the ring wraps; @ndests: multicast; releases
 * pages as it passes them.  Returns the position after the data.
 */
static inline uint32_t cq_reader_write_out(CQReader *r, uint32_t pos,
                                           uint32_t len, uint32_t hi,
                                           uint32_t mid, uint32_t addr,
                                           uint32_t ndests)
{
    while (len) {
        int32_t avail;
        uint32_t off = pos & (r->size - 1), n;

        while ((avail = cq_reader_avail(r, pos)) <= 0) {
        }
        n = len < (uint32_t)avail ? len : (uint32_t)avail;
        n = n < r->size - off ? n : r->size - off;
        noc_async_write_any(r->base + off, hi, mid, addr, n, ndests);
        pos += n;
        addr += n;
        len -= n;
        if (((pos >> r->log_page) - r->released) >= 32) {
            noc_async_write_barrier();
            cq_reader_release(r, pos);
        }
    }
    return pos;
}

/* -------------------------------------------------------- go signals */

/*
 * The go word every worker gets: from a 16-byte aligned local copy at
 * the same offset modulo 16 as the destination (NOC writes keep the low
 * address bits; tt-metal process_go_signal_mcast_cmd() does the same)
 */
static inline void cq_send_go(uint32_t go, uint32_t go_addr,
                              uint32_t mcast_off, uint32_t mcast_grid,
                              uint32_t mcast_dests, const uint32_t *uni,
                              uint32_t nuni, volatile uint32_t *scratch)
{
    if (mcast_off != CQ_GO_NO_MULTICAST_OFFSET) {
        uint32_t dst = go_addr + 4 * mcast_off;

        scratch[(dst >> 2) & 3] = go;
        noc_async_write_multicast((uint32_t)&scratch[(dst >> 2) & 3],
                                  mcast_grid, dst, 4, mcast_dests);
    }
    scratch[(go_addr >> 2) & 3] = go;
    for (uint32_t i = 0; i < nuni; i++) {
        noc_async_write((uint32_t)&scratch[(go_addr >> 2) & 3], uni[i],
                        go_addr, 4);
    }
}

/* worker completions: stream 48 + k's space-available register */
static inline uint32_t cq_stream_count(uint32_t stream)
{
    return RD32(STREAM_ADDR(stream, STREAM_SPACE_REG));
}

/* back to 0: add minus its value (tt-metal CLEAR_STREAM) */
static inline void cq_stream_clear(uint32_t stream)
{
    uint32_t v = cq_stream_count(stream);

    RD32(STREAM_ADDR(stream, STREAM_SPACE_UPDATE_REG)) =
        -v << STREAM_WORDS_FREE_SHIFT;
}

static inline void cq_check_stream(uint32_t stream, uint32_t where)
{
    if (stream < FIRST_STREAM_USED ||
        stream >= FIRST_STREAM_USED + CQ_MAX_WORKER_SEMS) {
        cq_fail(CQ_ERR_BAD_STREAM, stream, where);
    }
}

#endif
