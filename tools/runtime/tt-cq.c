/*
 * The host side of fast dispatch (tt-runtime.h): host memory with the
 * issue and completion rings, served to the device through the libttsim
 * DMA callbacks; prefetch_q entries written through a TLB window; the
 * prefetcher and dispatcher kernels started and stopped; programs
 * launched as command sequences (blackhole-py d570394 dispatch.py's
 * lowering: the kernel configuration by WRITE_PACKED_LARGE, runtime
 * arguments and launch messages by WRITE_PACKED, go signals,
 * worker-completion waits, a host event).  Commands are encoded from
 * tools/abi/cq.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt-runtime.h"
#include "cq.h"
#define TT_LAYOUT 0
#include "layout.h"

#define RECORD_MAX          (128u * 1024)   /* bytes per issue record */
#define RELAY_ALIGN         CQ_PCIE_ALIGN   /* cq.py: stride alignment */
#define PAGE                (1u << CQ_DISPATCH_CB_LOG_PAGE)

typedef struct TTRRecord {
    uint32_t start, len, slot;
} TTRRecord;

struct TTRCq {
    TTRCqOpts o;
    int pf, dt;                 /* tile indices */
    uint32_t issue_wr, q_wr;
    TTRRecord rec[CQ_PREFETCH_Q_ENTRIES];   /* in flight, oldest first */
    uint32_t rec_head, rec_count;
    uint32_t compl_base16, compl_end16, compl_rd;
    uint32_t launches, event;
    TTRRect wgrid;              /* workers' go-signal multicast rectangle */
    uint32_t wgrid_enc;
    TTRProgram fd;
    bool running;
    uint8_t *batch;             /* commands of the record being built */
    uint32_t batch_len, batch_cap;
    uint64_t records, issue_bytes, completions;
    uint32_t issue_wraps, q_wraps, completion_wraps;
};

/* Host memory: one buffer at NOC address CQ_SYSMEM_NOC */
static uint8_t *sysmem;
static uint32_t sysmem_size;
static uint32_t dma_bad;
static uint64_t dma_bad_addr;

static bool in_sysmem(uint64_t paddr, uint32_t size)
{
    return sysmem && paddr >= CQ_SYSMEM_NOC &&
           paddr - CQ_SYSMEM_NOC <= sysmem_size &&
           size <= sysmem_size - (paddr - CQ_SYSMEM_NOC);
}

void ttr_dma_rd(uint64_t paddr, void *dst, uint32_t size)
{
    if (in_sysmem(paddr, size)) {
        memcpy(dst, sysmem + paddr - CQ_SYSMEM_NOC, size);
        return;
    }
    memset(dst, 0, size);
    dma_bad++;
    dma_bad_addr = paddr;
}

void ttr_dma_wr(uint64_t paddr, const void *src, uint32_t size)
{
    if (in_sysmem(paddr, size)) {
        memcpy(sysmem + paddr - CQ_SYSMEM_NOC, src, size);
        return;
    }
    dma_bad++;
    dma_bad_addr = paddr;
}

static uint32_t sys32(uint32_t off)
{
    uint32_t v;

    memcpy(&v, sysmem + off, 4);
    return v;
}

void ttr_cq_reserved(const TTRBoard *b, bool *reserved)
{
    reserved[ttr_board_tile(b, b->prefetch_x, b->prefetch_y)] = true;
    reserved[ttr_board_tile(b, b->dispatch_x, b->dispatch_y)] = true;
}

static uint32_t xy_of(const TTRBoard *b, int t)
{
    return (uint32_t)b->y[t] << 6 | b->x[t];
}

/* a rectangle for the dispatcher's NOC: NOC 1 multicasts end to start */
static uint32_t mcast_for_noc(const TTRRect *r, int noc)
{
    if (noc) {
        return (uint32_t)r->y1 << 18 | (uint32_t)r->x1 << 12 |
               (uint32_t)r->y0 << 6 | r->x0;
    }
    return (uint32_t)r->y0 << 18 | (uint32_t)r->x0 << 12 |
           (uint32_t)r->y1 << 6 | r->x1;
}

/* ------------------------------------------------------ status words */

static const char *const cq_errors[CQ_ERR_COUNT] = {
    [CQ_OK] = "no error",
    [CQ_ERR_BAD_CMD] = "unknown or unsupported command",
    [CQ_ERR_BAD_FETCH] = "prefetch_q entry larger than cmddat_q or the "
                         "issue ring",
    [CQ_ERR_BAD_STRIDE] = "stride or length outside the fetched record",
    [CQ_ERR_TOO_LONG] = "payload larger than the ring it goes through",
    [CQ_ERR_BAD_DEST] = "NOC destination outside the grid",
    [CQ_ERR_BAD_COUNT] = "sub-command or word count past its limit",
    [CQ_ERR_BAD_STREAM] = "WAIT on a stream outside 48-55",
    [CQ_ERR_BAD_SIZE] = "zero or misaligned size",
};

static const char *const cq_roles[] = {
    "prefetcher", "dispatcher", "dispatch_s",
};

bool ttr_cq_check(TTRDevice *d, char *err, size_t errlen)
{
    TTRCq *q = d->cq;

    if (dma_bad) {
        return ttr_fail(err, errlen, "device DMA outside host memory (%u "
                        "accesses, last at 0x%" PRIx64 ")", dma_bad,
                        dma_bad_addr);
    }
    for (int role = 0; role < 3; role++) {
        int t = role == CQ_ROLE_PREFETCH ? q->pf : q->dt;
        uint32_t st[4];

        ttr_l1_read(d, t, CQ_STATUS(role), st, sizeof(st));
        if (st[0] != CQ_OK) {
            return ttr_fail(err, errlen, "%s stopped: %s (error %u, argument "
                            "0x%x, command at %s 0x%x, after %u commands)",
                            cq_roles[role], st[0] < CQ_ERR_COUNT
                            ? cq_errors[st[0]] : "?", st[0], st[1],
                            role == CQ_ROLE_PREFETCH ? "L1"
                            : "dispatch CB stream offset", st[2], st[3]);
        }
    }
    return true;
}

/* ------------------------------------------------------- the issue ring */

static bool timed_out(TTRDevice *d, double deadline, const char *what,
                      char *err, size_t errlen)
{
    if (!ttr_cq_check(d, err, errlen)) {
        return true;
    }
    if (tt_host_now() > deadline) {
        ttr_fail(err, errlen, "timeout: %s after %.0f s", what, d->timeout);
        return true;
    }
    return false;
}

/* prefetch_q entry @slot, as the prefetcher left it */
static uint16_t q_entry(TTRDevice *d, uint32_t slot)
{
    uint16_t v;

    ttr_l1_read(d, d->cq->pf, CQ_PREFETCH_Q_BASE + 2 * slot, &v, 2);
    return v;
}

/* forget the oldest record once the prefetcher has read it */
static bool retire_oldest(TTRDevice *d, double deadline, char *err,
                          size_t errlen)
{
    TTRCq *q = d->cq;
    TTRRecord *r = &q->rec[q->rec_head];

    while (q_entry(d, r->slot)) {
        if (timed_out(d, deadline, "the prefetcher does not read its queue",
                      err, errlen)) {
            return false;
        }
        ttr_poll(d);
    }
    q->rec_head = (q->rec_head + 1) % CQ_PREFETCH_Q_ENTRIES;
    q->rec_count--;
    return true;
}

/*
 * Where a @len-byte record goes: at the write pointer if it fits before
 * the end, else at the start (the prefetcher's rule), once the records
 * still in flight there have been read
 */
static bool issue_place(TTRDevice *d, uint32_t len, uint32_t *at,
                        double deadline, char *err, size_t errlen)
{
    TTRCq *q = d->cq;
    uint32_t size = q->o.issue_size;

    if (len > size) {
        return ttr_fail(err, errlen, "a %u-byte record does not fit the "
                        "%u-byte issue ring", len, size);
    }
    for (;;) {
        uint32_t w = q->issue_wr, r = q->rec[q->rec_head].start;

        if (!q->rec_count || w > r) {
            /* in flight: [r, w) or nothing; free: [w, size) and [0, r) */
            if (len <= size - w) {
                *at = w;
                return true;
            }
            if (!q->rec_count || len <= r) {
                *at = 0;
                q->issue_wraps++;
                return true;
            }
        } else if (w < r && len <= r - w) {
            /* wrapped: in flight [r, end) and [0, w); free [w, r) */
            *at = w;
            return true;
        }
        if (!retire_oldest(d, deadline, err, errlen)) {
            return false;
        }
    }
}

bool ttr_cq_submit(TTRDevice *d, const void *rec, uint32_t len, char *err,
                   size_t errlen)
{
    TTRCq *q = d->cq;
    double deadline = tt_host_now() + d->timeout;
    uint16_t entry = len >> 4;
    uint32_t at = 0;

    if (!len || len & (CQ_PCIE_ALIGN - 1) || len >> 4 > 0x7fff) {
        return ttr_fail(err, errlen, "record of %u bytes (a non-zero multiple "
                        "of %u, at most 512 KiB)", len, CQ_PCIE_ALIGN);
    }
    if (q->rec_count == CQ_PREFETCH_Q_ENTRIES &&
        !retire_oldest(d, deadline, err, errlen)) {
        return false;
    }
    if (!issue_place(d, len, &at, deadline, err, errlen)) {
        return false;
    }
    memcpy(sysmem + CQ_HOST_ISSUE_OFF + at, rec, len);
    /* the slot is free once the prefetcher zeroed it */
    while (q_entry(d, q->q_wr)) {
        if (timed_out(d, deadline, "prefetch_q full", err, errlen)) {
            return false;
        }
        ttr_poll(d);
    }
    q->rec[(q->rec_head + q->rec_count++) % CQ_PREFETCH_Q_ENTRIES] =
        (TTRRecord) { at, len, q->q_wr };
    q->issue_wr = at + len;
    d->lib.mem_wr(tt_host_win(&d->lib, TTR_WIN_TILE0 + q->pf,
                              CQ_PREFETCH_Q_BASE + 2 * q->q_wr), &entry, 2);
    q->q_wr = (q->q_wr + 1) % CQ_PREFETCH_Q_ENTRIES;
    q->q_wraps += !q->q_wr;
    q->records++;
    q->issue_bytes += len;
    return true;
}

/* -------------------------------------------------- the completion ring */

bool ttr_cq_wait_event(TTRDevice *d, void *buf, uint32_t len, char *err,
                       size_t errlen)
{
    TTRCq *q = d->cq;
    double deadline = tt_host_now() + d->timeout;
    uint32_t off, rlen, pages, rd;
    uint64_t len64;

    while (sys32(CQ_HOST_CQ_WR_OFF) == q->compl_rd) {
        if (timed_out(d, deadline, "no completion event", err, errlen)) {
            return false;
        }
        ttr_poll(d);
    }
    off = ((q->compl_rd & 0x7fffffff) << 4) - CQ_SYSMEM_NOC;
    memcpy(&len64, sysmem + off + 8, 8);
    if (sysmem[off] != CQ_DISPATCH_CMD_WRITE_LINEAR_H_HOST || len64 < 16 ||
        len64 > (q->compl_end16 - q->compl_base16) << 4) {
        return ttr_fail(err, errlen, "completion record at 0x%x: command %u, "
                        "%" PRIu64 " bytes", off, sysmem[off], len64);
    }
    rlen = len64;
    /* the record may wrap around the end of the ring */
    for (uint32_t i = 0; i < len && 16 + i < rlen; i++) {
        uint32_t o = off + 16 + i;

        if (o >= q->compl_end16 * 16 - CQ_SYSMEM_NOC) {
            o -= (q->compl_end16 - q->compl_base16) * 16;
        }
        ((uint8_t *)buf)[i] = sysmem[o];
    }
    pages = (rlen + PAGE - 1) / PAGE;
    rd = (q->compl_rd & 0x7fffffff) + pages * (PAGE >> 4);
    if (rd >= q->compl_end16) {
        rd = rd - q->compl_end16 + q->compl_base16;
        q->compl_rd ^= 0x80000000u;
        q->completion_wraps++;
    }
    q->compl_rd = (q->compl_rd & 0x80000000u) | rd;
    memcpy(sysmem + CQ_HOST_CQ_RD_OFF, &q->compl_rd, 4);
    ttr_l1_wr32(d, q->dt, CQ_DEV_COMPLETION_RD_PTR, q->compl_rd);
    q->completions++;
    return true;
}

void ttr_cq_stats(TTRDevice *d, uint64_t *records, uint64_t *issue_bytes,
                  uint64_t *completions, uint32_t *issue_wraps,
                  uint32_t *q_wraps, uint32_t *completion_wraps)
{
    TTRCq *q = d->cq;

    *records = q->records;
    *issue_bytes = q->issue_bytes;
    *completions = q->completions;
    *issue_wraps = q->issue_wraps;
    *q_wraps = q->q_wraps;
    *completion_wraps = q->completion_wraps;
}

/* ----------------------------------------------------------- encoders */

static uint8_t *batch_grow(TTRCq *q, uint32_t n)
{
    if (q->batch_len + n > q->batch_cap) {
        q->batch_cap = (q->batch_len + n) * 2;
        q->batch = realloc(q->batch, q->batch_cap);
        if (!q->batch) {
            tt_host_die("tt-run", "out of memory");
        }
    }
    memset(q->batch + q->batch_len, 0, n);
    q->batch_len += n;
    return q->batch + q->batch_len - n;
}

/*
 * One dispatcher command, @hdr_len header bytes then @data, wrapped in a
 * RELAY_INLINE for dispatch_d (@sub false) or dispatch_s
 */
static void relay(TTRCq *q, bool sub, const void *hdr, uint32_t hdr_len,
                  const void *data, uint32_t data_len)
{
    uint32_t len = hdr_len + data_len;
    uint32_t stride = (CQ_CMD_SIZE + len + RELAY_ALIGN - 1) &
                      ~(RELAY_ALIGN - 1);
    uint8_t *p = batch_grow(q, stride);
    CQPrefetchRelayInline ri = {
        .cmd_id = CQ_PREFETCH_CMD_RELAY_INLINE,
        .dispatcher_type = sub ? CQ_DISPATCH_SUBORDINATE : CQ_DISPATCH_MASTER,
        .length = len, .stride = stride,
    };

    memcpy(p, &ri, sizeof(ri));
    memcpy(p + CQ_CMD_SIZE, hdr, hdr_len);
    if (data_len) {
        memcpy(p + CQ_CMD_SIZE + hdr_len, data, data_len);
    }
}

/* the batch as issue records, split between commands */
static bool flush_batch(TTRDevice *d, char *err, size_t errlen)
{
    TTRCq *q = d->cq;
    uint32_t start = 0, off = 0;
    uint32_t max = q->o.record_max ? q->o.record_max : RECORD_MAX;

    while (off < q->batch_len) {
        uint32_t stride = 64;

        if (q->batch[off] == CQ_PREFETCH_CMD_RELAY_INLINE ||
            q->batch[off] == CQ_PREFETCH_CMD_RELAY_INLINE_NOFLUSH) {
            memcpy(&stride, q->batch + off + 8, 4);
        }
        if (q->batch_len - off < 64 || stride < 64 || stride % 64 ||
            stride > q->batch_len - off) {
            /* not a command we can frame: the rest is one record */
            off = q->batch_len;
            break;
        }
        if (off > start && off + stride - start > max) {
            if (!ttr_cq_submit(d, q->batch + start, off - start, err,
                               errlen)) {
                return false;
            }
            start = off;
        }
        off += stride;
    }
    if (off > start &&
        !ttr_cq_submit(d, q->batch + start, off - start, err, errlen)) {
        return false;
    }
    q->batch_len = 0;
    return true;
}

static void cmd_wait(TTRCq *q, bool sub, uint32_t flags, uint32_t count)
{
    CQDispatchWait w = {
        .cmd_id = CQ_DISPATCH_CMD_WAIT, .flags = flags,
        .stream = FIRST_STREAM_USED, .count = count,
    };

    relay(q, sub, &w, sizeof(w), NULL, 0);
}

/* the next event: its id comes back in the completion ring */
static void cmd_event(TTRCq *q)
{
    uint32_t ev[4] = { ++q->event };
    CQDispatchWriteHost h = {
        .cmd_id = CQ_DISPATCH_CMD_WRITE_LINEAR_H_HOST, .is_event = 1,
        .length = sizeof(h) + sizeof(ev),
    };

    relay(q, false, &h, sizeof(h), ev, sizeof(ev));
}

/* ------------------------------------------------------------- launch */

/* the kernel configuration shared by a group, one sub-command a target */
static void cmd_config(TTRDevice *d, const TTRProgram *p, int g,
                       const uint8_t *img)
{
    TTRCq *q = d->cq;
    const TTRGroup *gr = &p->group[g];
    uint32_t len = ttr_prog_config_len(d, p, g);
    int nsub = q->o.no_mcast ? gr->ncores : gr->nrects;

    for (int first = 0; first < nsub;
         first += CQ_PACKED_LARGE_MAX_SUB_CMDS) {
        int n = nsub - first < CQ_PACKED_LARGE_MAX_SUB_CMDS
                ? nsub - first : CQ_PACKED_LARGE_MAX_SUB_CMDS;
        uint32_t subs_len = (sizeof(CQWritePackedLargeSub) * n + 15) & ~15u;
        uint32_t dlen = ((len + 15) & ~15u) * n;
        uint8_t *data = tt_host_xcalloc("tt-run", subs_len + dlen);
        CQDispatchWritePackedLarge c = {
            .cmd_id = CQ_DISPATCH_CMD_WRITE_PACKED_LARGE, .type = 2,
            .count = n, .alignment = CQ_L1_ALIGN,
        };

        for (int i = 0; i < n; i++) {
            CQWritePackedLargeSub *s = (CQWritePackedLargeSub *)data + i;
            TTRRect one;
            const TTRRect *r = &gr->rect[first + i];

            if (q->o.no_mcast) {
                int t = gr->core[first + i];

                one = (TTRRect) { d->board->x[t], d->board->y[t],
                                  d->board->x[t], d->board->y[t], 1 };
                r = &one;
            }
            s->noc_xy_addr = mcast_for_noc(r, q->o.dispatch_noc);
            s->addr = d->layout->kcb_base + p->sem_off;
            s->length_minus1 = len - 1;
            s->num_mcast_dests = r->n;
            memcpy(data + subs_len + ((len + 15) & ~15u) * i,
                   img + p->sem_off, len);
        }
        relay(q, false, &c, sizeof(c), data, subs_len + dlen);
        free(data);
    }
}

/* runtime arguments, [0, sem_off) of each core's image */
static bool cmd_rtas(TTRDevice *d, const TTRProgram *p, int g, uint8_t *img,
                     char *err, size_t errlen)
{
    TTRCq *q = d->cq;
    const TTRGroup *gr = &p->group[g];
    uint32_t size = p->sem_off, subs_len = (4 * gr->ncores + 15) & ~15u;
    uint8_t *data = tt_host_xcalloc("tt-run", subs_len + size * gr->ncores);
    int ci0 = ttr_prog_core_index(p, g, 0);
    CQDispatchWritePacked c = {
        .cmd_id = CQ_DISPATCH_CMD_WRITE_PACKED, .count = gr->ncores,
        .size = size, .addr = d->layout->kcb_base,
    };

    for (int k = 0; k < gr->ncores; k++) {
        uint32_t xy = xy_of(d->board, gr->core[k]);

        if (!ttr_prog_image(p, d->board, d->layout, g, ci0 + k, img, err,
                            errlen)) {
            free(data);
            return false;
        }
        memcpy(data + 4 * k, &xy, 4);
        memcpy(data + subs_len + size * k, img, size);
    }
    relay(q, false, &c, sizeof(c), data, subs_len + size * gr->ncores);
    free(data);
    return true;
}

/* the same @len bytes to every core of a group (launch message) */
static void cmd_packed_same(TTRDevice *d, const TTRGroup *gr, uint32_t addr,
                            const void *buf, uint32_t len)
{
    TTRCq *q = d->cq;
    bool mc = !q->o.no_mcast;
    int n = mc ? gr->nrects : gr->ncores, w = mc ? 2 : 1;
    uint32_t subs_len = (4 * w * n + 15) & ~15u;
    uint8_t *data = tt_host_xcalloc("tt-run", subs_len + len);
    CQDispatchWritePacked c = {
        .cmd_id = CQ_DISPATCH_CMD_WRITE_PACKED, .count = n, .size = len,
        .addr = addr,
        .flags = CQ_PACKED_FLAG_NO_STRIDE | (mc ? CQ_PACKED_FLAG_MCAST : 0),
    };

    for (int i = 0; i < n; i++) {
        uint32_t sub[2];

        if (mc) {
            sub[0] = mcast_for_noc(&gr->rect[i], q->o.dispatch_noc);
            sub[1] = gr->rect[i].n;
        } else {
            sub[0] = xy_of(d->board, gr->core[i]);
        }
        memcpy(data + 4 * w * i, sub, 4 * w);
    }
    memcpy(data + subs_len, buf, len);
    relay(q, false, &c, sizeof(c), data, subs_len + len);
    free(data);
}

/*
 * Go signals: by multicast to the workers' rectangle when the program
 * covers it, by unicast to every other core (at most 255 per command)
 */
static void cmd_go(TTRDevice *d, const TTRProgram *p)
{
    TTRCq *q = d->cq;
    const TTRBoard *b = d->board;
    bool in[TTR_MAX_TILES] = { false }, mc = !q->o.no_mcast;
    uint32_t uni[TTR_MAX_TILES], nuni = 0, sub = q->o.go_via_dispatch_s;
    CQDispatchSetCount nd = { .cmd_id = CQ_DISPATCH_SET_GO_SIGNAL_NOC_DATA };
    CQDispatchGoSignal go = {
        .cmd_id = CQ_DISPATCH_CMD_SEND_GO_SIGNAL,
        .go_signal = RUN_MSG_GO << 24 | (uint32_t)b->dispatch_y << 16 |
                     (uint32_t)b->dispatch_x << 8,
        .multicast_go_offset = CQ_GO_NO_MULTICAST_OFFSET,
        .wait_stream = FIRST_STREAM_USED,
    };

    for (int g = 0; g < p->ngroups; g++) {
        for (int k = 0; k < p->group[g].ncores; k++) {
            in[p->group[g].core[k]] = true;
        }
    }
    for (int t = 0; mc && t < b->ntiles; t++) {
        const TTRRect *r = &q->wgrid;

        if (b->x[t] >= r->x0 && b->x[t] <= r->x1 && b->y[t] >= r->y0 &&
            b->y[t] <= r->y1) {
            mc &= in[t];
        }
    }
    for (int t = 0; t < b->ntiles; t++) {
        const TTRRect *r = &q->wgrid;
        bool inr = b->x[t] >= r->x0 && b->x[t] <= r->x1 &&
                   b->y[t] >= r->y0 && b->y[t] <= r->y1;

        if (in[t] && !(mc && inr)) {
            uni[nuni++] = xy_of(b, t);
        }
    }
    if (mc) {
        go.multicast_go_offset = 0;
    }
    nd.value = nuni;
    go.num_unicast_txns = nuni;
    relay(q, sub, &nd, sizeof(nd), uni, 4 * nuni);
    relay(q, sub, &go, sizeof(go), NULL, 0);
}

bool ttr_cq_run_stream(TTRDevice *d, const uint8_t *cmds, uint32_t len,
                       char *err, size_t errlen)
{
    TTRCq *q = d->cq;
    uint32_t ev;

    memcpy(batch_grow(q, len), cmds, len);
    cmd_event(q);
    if (!flush_batch(d, err, errlen) ||
        !ttr_cq_wait_event(d, &ev, 4, err, errlen)) {
        return false;
    }
    if (ev != q->event) {
        return ttr_fail(err, errlen, "completion event %u, expected %u", ev,
                        q->event);
    }
    return true;
}

bool ttr_run_fast(TTRDevice *d, const TTRProgram *p, char *err,
                  size_t errlen)
{
    TTRCq *q = d->cq;
    const TTRLayout *l = d->layout;
    uint32_t lm_addr = MB_LAUNCH + q->launches % MB_LAUNCH_ENTRIES *
                       l->launch_size, ev;
    uint8_t lm[128];

    for (int g = 0; g < p->ngroups; g++) {
        const TTRGroup *gr = &p->group[g];
        uint8_t *img = tt_host_xcalloc("tt-run", gr->image_size);

        if (!ttr_prog_image(p, d->board, l, g, ttr_prog_core_index(p, g, 0),
                            img, err, errlen)) {
            free(img);
            return false;
        }
        cmd_config(d, p, g, img);
        if (p->sem_off && !cmd_rtas(d, p, g, img, err, errlen)) {
            free(img);
            return false;
        }
        free(img);
        ttr_prog_launch_msg(p, l, g, true, lm);
        cmd_packed_same(d, gr, lm_addr, lm, l->launch_size);
    }
    /* the previous launch's completions are counted: start from 0 */
    cmd_wait(q, false, CQ_WAIT_FLAG_BARRIER | CQ_WAIT_FLAG_CLEAR_STREAM, 0);
    if (q->o.go_via_dispatch_s) {
        CQDispatchNotifySub n = {
            .cmd_id = CQ_DISPATCH_NOTIFY_SUBORDINATE_GO_SIGNAL, .wait = 1,
            .index_bitmask = 1,
        };

        relay(q, false, &n, sizeof(n), NULL, 0);
    }
    cmd_go(d, p);
    cmd_wait(q, false, CQ_WAIT_FLAG_WAIT_STREAM | CQ_WAIT_FLAG_CLEAR_STREAM,
             p->ncores);
    cmd_event(q);
    q->launches++;
    d->resident = p;
    if (!flush_batch(d, err, errlen)) {
        return false;
    }
    if (!ttr_cq_wait_event(d, &ev, 4, err, errlen)) {
        if (!strncmp(err, "timeout", 7)) {
            fprintf(stderr, "tt-run: launch %u not complete; dispatcher "
                    "stream %d at %u of %d:\n", q->launches,
                    FIRST_STREAM_USED,
                    ttr_reg_rd32(d, q->dt, STREAM_ADDR(FIRST_STREAM_USED,
                                                       STREAM_SPACE_REG)) &
                    0x1ffff, p->ncores);
            ttr_report_busy(d, p, stderr);
        }
        return false;
    }
    if (ev != q->event) {
        return ttr_fail(err, errlen, "completion event %u, expected %u", ev,
                        q->event);
    }
    return true;
}

/* -------------------------------------------------------- start, stop */

static char *num(uint32_t v)
{
    char *s;

    if (asprintf(&s, "%u", v) < 0) {
        tt_host_die("tt-run", "out of memory");
    }
    return s;
}

static void fd_group(TTRCq *q, int g, const char *name, int tile)
{
    TTRGroup *gr = &q->fd.group[g];

    gr->name = strdup(name);
    gr->ncores = 1;
    gr->core[0] = tile;
}

static void fd_kernel(TTRGroup *gr, int role, const char *kdir,
                      const char *name)
{
    if (asprintf(&gr->kernel[role].path, "%s/%s.%s.elf", kdir, name,
                 ttr_role_name[role]) < 0) {
        tt_host_die("tt-run", "out of memory");
    }
}

static void fd_args(TTRDevice *d, TTRGroup *gr, int role, uint32_t peer,
                    int noc)
{
    const TTRBoard *b = d->board;
    TTRCq *q = d->cq;
    uint32_t a[CQ_RTA_COUNT] = { 0 };

    a[CQ_RTA_MY_XY] = xy_of(b, gr->core[0]);
    a[CQ_RTA_PEER_XY] = peer;
    a[CQ_RTA_PCIE_XY] = (uint32_t)CQ_PCIE_Y << 6 | CQ_PCIE_X;
    a[CQ_RTA_NOC] = noc;
    a[CQ_RTA_SYSMEM_NOC] = CQ_SYSMEM_NOC;
    a[CQ_RTA_ISSUE_SIZE] = q->o.issue_size;
    a[CQ_RTA_COMPLETION_SIZE] = q->o.completion_size;
    a[CQ_RTA_GO_ADDR] = d->layout->go_msg;
    a[CQ_RTA_MCAST_GRID] = q->wgrid_enc;
    a[CQ_RTA_MCAST_DESTS] = q->wgrid.n;
    a[CQ_RTA_COL_MASK] = b->colmask;
    a[CQ_RTA_NBANKS] = b->nbanks;
    for (int k = 0; k < b->nbanks; k++) {
        a[CQ_RTA_BANK_XY + k] = ttr_bank_xy(b, k, noc);
    }
    for (int i = 0; i < CQ_RTA_COUNT; i++) {
        gr->rta[role].expr[gr->rta[role].n++] = num(a[i]);
    }
}

bool ttr_cq_start(TTRDevice *d, const TTRCqOpts *o, char *err,
                  size_t errlen)
{
    const TTRBoard *b = d->board;
    TTRCq *q = calloc(1, sizeof(*q));
    uint32_t compl16, zero[0xc00 / 4] = { 0 };
    int fx = b->dispatch_x;
    TTRGroup *gp, *gd;

    if (!q) {
        return ttr_fail(err, errlen, "out of memory");
    }
    d->cq = q;
    q->o = *o;
    if (o->issue_size < 4096 || o->issue_size % CQ_PCIE_ALIGN ||
        o->completion_size < PAGE || o->completion_size % PAGE ||
        (uint64_t)o->issue_size + o->completion_size > (1u << 30)) {
        return ttr_fail(err, errlen, "issue ring %u bytes (>= 4096, a "
                        "multiple of 64), completion ring %u bytes (a "
                        "multiple of 4096): at most 1 GiB in all",
                        o->issue_size, o->completion_size);
    }
    sysmem_size = CQ_HOST_ISSUE_OFF + o->issue_size + o->completion_size;
    sysmem = calloc(1, sysmem_size);
    if (!sysmem) {
        return ttr_fail(err, errlen, "cannot allocate %u bytes of host memory",
                        sysmem_size);
    }
    q->pf = ttr_board_tile(b, b->prefetch_x, b->prefetch_y);
    q->dt = ttr_board_tile(b, b->dispatch_x, b->dispatch_y);
    /* workers' rectangle: every Tensix column but the dispatch cores' */
    q->wgrid = (TTRRect) { 1, 2, fx - 1, 11, 0 };
    while (!(b->colmask & (1u << q->wgrid.x1))) {
        q->wgrid.x1--;
    }
    for (int t = 0; t < b->ntiles; t++) {
        q->wgrid.n += b->x[t] <= q->wgrid.x1;
    }
    q->wgrid_enc = mcast_for_noc(&q->wgrid, o->dispatch_noc);
    /* both rings empty: the completion pointers at its start */
    compl16 = (CQ_SYSMEM_NOC + CQ_HOST_ISSUE_OFF + o->issue_size) >> 4;
    q->compl_base16 = q->compl_rd = compl16;
    q->compl_end16 = compl16 + (o->completion_size >> 4);
    memcpy(sysmem + CQ_HOST_CQ_WR_OFF, &compl16, 4);
    memcpy(sysmem + CQ_HOST_CQ_RD_OFF, &compl16, 4);
    ttr_l1_write(d, q->pf, CQ_STATUS_BASE, zero, 64);
    ttr_l1_write(d, q->pf, CQ_PREFETCH_Q_RD_PTR, zero, 8);
    ttr_l1_write(d, q->pf, CQ_PREFETCH_Q_BASE, zero,
                 2 * CQ_PREFETCH_Q_ENTRIES);
    ttr_l1_write(d, q->dt, CQ_STATUS_BASE, zero, 64);
    ttr_l1_write(d, q->dt, CQ_DISPATCH_S_SYNC_SEM, zero,
                 16 * CQ_MAX_WORKER_SEMS);
    ttr_l1_wr32(d, q->dt, CQ_DEV_COMPLETION_WR_PTR, compl16);
    ttr_l1_wr32(d, q->dt, CQ_DEV_COMPLETION_RD_PTR, compl16);
    /* workers: launch ring and go message index from 0 */
    for (int t = 0; t < b->ntiles; t++) {
        if (t != q->pf && t != q->dt) {
            ttr_l1_wr32(d, t, MB_LAUNCH_RD_PTR, 0);
            ttr_l1_wr32(d, t, d->layout->go_msg_index, 0);
        }
    }
    /* the three kernels: a slow-dispatch launch that does not end */
    q->fd.path = strdup("fast dispatch");
    q->fd.ngroups = 2;
    gp = &q->fd.group[0];
    gd = &q->fd.group[1];
    fd_group(q, 0, "prefetch", q->pf);
    fd_group(q, 1, "dispatch", q->dt);
    fd_kernel(gp, TTR_BRISC, o->kdir, "cq-prefetch");
    fd_kernel(gd, TTR_BRISC, o->kdir, "cq-dispatch");
    fd_kernel(gd, TTR_NCRISC, o->kdir, "cq-dispatch-s");
    fd_args(d, gp, TTR_BRISC, xy_of(b, q->dt), 0);
    fd_args(d, gd, TTR_BRISC, xy_of(b, q->pf), o->dispatch_noc);
    fd_args(d, gd, TTR_NCRISC, xy_of(b, q->pf), o->dispatch_noc);
    q->fd.nsems = CQ_NUM_SEMS;
    for (int s = 0; s < CQ_NUM_SEMS; s++) {
        q->fd.sem_used[s] = true;
    }
    gp->sem_set[CQ_SEM_DOWNSTREAM_CB] = true;
    gp->sem_val[CQ_SEM_DOWNSTREAM_CB] = CQ_DISPATCH_CB_PAGES;
    gp->sem_set[CQ_SEM_DISPATCH_S_CB] = true;
    gp->sem_val[CQ_SEM_DISPATCH_S_CB] =
        CQ_DISPATCH_S_CB_SIZE >> CQ_DISPATCH_S_CB_LOG_PAGE;
    if (!ttr_prog_layout(&q->fd, b, d->layout, NULL, err, errlen) ||
        !ttr_launch_slow(d, &q->fd, err, errlen)) {
        return false;
    }
    q->running = true;
    return ttr_cq_check(d, err, errlen);
}

bool ttr_cq_stop(TTRDevice *d, char *err, size_t errlen)
{
    TTRCq *q = d->cq;
    CQDispatchSetCount term = { .cmd_id = CQ_DISPATCH_CMD_TERMINATE };
    int tiles[2] = { q->pf, q->dt };
    uint8_t *p;

    relay(q, true, &term, sizeof(term), NULL, 0);
    relay(q, false, &term, sizeof(term), NULL, 0);
    p = batch_grow(q, 64);
    p[0] = CQ_PREFETCH_CMD_TERMINATE;
    if (!flush_batch(d, err, errlen)) {
        return false;
    }
    if (ttr_wait_done(d, tiles, 2, d->timeout)) {
        if (!ttr_cq_check(d, err, errlen)) {
            return false;
        }
        return ttr_fail(err, errlen, "the fast-dispatch kernels did not stop "
                        "after TERMINATE within %.0f s", d->timeout);
    }
    q->running = false;
    return ttr_cq_check(d, err, errlen);
}
