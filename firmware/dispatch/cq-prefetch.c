/*
 * Fast dispatch, prefetcher (BRISC of the prefetch core): the "hd"
 * variant of tt-metal's cq_prefetch.cpp (also in blackhole-py d570394
 * firmware/cq/), written anew.
 *
 * The host appends records to the issue ring in host memory and each
 * record's size, in 16-byte units, to prefetch_q in this core's L1.  The
 * prefetcher waits for the next non-zero entry, reads that record and
 * every further ready one contiguous in the ring (NOC reads to the PCIe
 * tile, NOC address bit 60) into cmddat_q, zeroes their entries (and
 * echoes its read pointers at PREFETCH_Q_RD_PTR / PCIE_RD_PTR), then runs
 * the prefetch commands in them:
 *
 *   RELAY_INLINE[_NOFLUSH]  copy the payload to dispatch_d's CB (or
 *                           dispatch_s's, dispatcher_type 1), page by
 *                           page against its credits
 *   RELAY_LINEAR            NOC-read (noc_xy, addr, length) through
 *                           scratch_db and relay it
 *   RELAY_PAGED             the same for pages of an interleaved GDDR
 *                           buffer (L1-banked buffers: unsupported)
 *   STALL                   wait until dispatch_d's NOTIFY_PREFETCH count
 *                           reaches this stall's number
 *   DEBUG                   skipped by its stride
 *   TERMINATE               stop
 *
 * Commands other than RELAY_INLINE occupy 64 bytes of a record (tt-metal
 * CQ_PREFETCH_CMD_BARE_MIN_SIZE = PCIE_ALIGNMENT).  Ring wrap rule (host
 * and prefetcher agree): a record that would cross the end of the issue
 * ring starts at its beginning instead.  Malformed input stops the
 * prefetcher with an error in its status words (cq.h).
 *
 * Runtime arguments: cq.h CQ_RTA_*.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cq-common.h"

#define CMD_MIN             64      /* CQ_PREFETCH_CMD_BARE_MIN_SIZE */
#define SCRATCH_HALF        (CQ_SCRATCH_DB_SIZE / 2)

uint32_t cq_noc, cq_role, cq_commands, cq_colmask;

static uint32_t pcie_xy, sysmem, issue_size, issue_rd, q_rd, stalls;
static uint32_t nbanks, bank_xy[8];
static CQWriter to_d, to_s;

static void fetch_wait(void)
{
    while (!RD16(CQ_PREFETCH_Q_BASE + 2 * q_rd)) {
        invalidate_l1_cache();
    }
}

/*
 * Read the ready records, contiguous in the ring, into cmddat_q;
 * returns their size
 */
static uint32_t fetch(void)
{
    uint32_t len = 0, q = q_rd, n = 0, start;

    fetch_wait();
    for (;;) {
        uint32_t e = RD16(CQ_PREFETCH_Q_BASE + 2 * q);
        uint32_t size = (e & ~CQ_PREFETCH_Q_STALL) << 4;

        /* empty, or all of prefetch_q ready and taken already */
        if (!e || n == CQ_PREFETCH_Q_ENTRIES) {
            break;
        }
        if (!size || size > CQ_CMDDAT_Q_SIZE || size > issue_size) {
            cq_fail(CQ_ERR_BAD_FETCH, e, q);
        }
        if (!len && issue_rd + size > issue_size) {
            issue_rd = 0;       /* the record starts the ring again */
        }
        if (len && (issue_rd + len + size > issue_size ||
                    len + size > CQ_CMDDAT_Q_SIZE)) {
            break;              /* not contiguous, or no room: next time */
        }
        len += size;
        n++;
        q = q + 1 == CQ_PREFETCH_Q_ENTRIES ? 0 : q + 1;
        if (e & CQ_PREFETCH_Q_STALL) {
            break;
        }
    }
    start = issue_rd;
    noc_async_read64(pcie_xy, CQ_NOC_PCIE_MID,
                     sysmem + CQ_HOST_ISSUE_OFF + start, CQ_CMDDAT_Q_BASE,
                     len);
    noc_async_read_barrier();
    issue_rd += len;
    /* the host may reuse the ring and the entries once the data is here */
    for (; n; n--) {
        RD16(CQ_PREFETCH_Q_BASE + 2 * q_rd) = 0;
        RD32(CQ_PREFETCH_Q_RD_PTR) = CQ_PREFETCH_Q_BASE + 2 * q_rd;
        q_rd = q_rd + 1 == CQ_PREFETCH_Q_ENTRIES ? 0 : q_rd + 1;
    }
    RD32(CQ_PREFETCH_Q_PCIE_RD_PTR) = sysmem + CQ_HOST_ISSUE_OFF + issue_rd;
    return len;
}

/* (@xy, @addr) -> scratch -> downstream, in halves of scratch_db */
static void relay_linear(uint32_t xy, uint32_t mid, uint32_t addr,
                         uint32_t len, uint32_t where)
{
    if (!cq_unicast_ok(xy)) {
        cq_fail(CQ_ERR_BAD_DEST, xy, where);
    }
    while (len) {
        uint32_t n = len < SCRATCH_HALF ? len : SCRATCH_HALF;

        noc_async_read64(xy, mid, addr, CQ_SCRATCH_DB_BASE, n);
        noc_async_read_barrier();
        len -= n;
        addr += n;
        cq_writer_relay(&to_d, CQ_SCRATCH_DB_BASE, n, !len);
    }
}

/* pages of an interleaved GDDR buffer (tt-metal RELAY_PAGED) */
static void relay_paged(uint32_t cmd, uint32_t where)
{
    volatile CQPrefetchRelayPaged *c = (volatile CQPrefetchRelayPaged *)cmd;
    uint32_t flags = c->is_dram_and_length_adjust;
    uint32_t page = c->page_size, pages = c->pages, first = c->start_page;
    uint32_t adjust = flags & CQ_RELAY_PAGED_ADJUST_MASK;
    uint32_t total = pages * page - adjust;

    if (!(flags >> CQ_RELAY_PAGED_IS_DRAM_SHIFT)) {
        cq_fail(CQ_ERR_BAD_CMD, CQ_PREFETCH_CMD_RELAY_PAGED, where);
    }
    if (!page || page > SCRATCH_HALF || page & 63 || !pages ||
        adjust >= page || !nbanks) {
        cq_fail(CQ_ERR_BAD_SIZE, page, where);
    }
    for (uint32_t p = first; total; p++) {
        uint32_t n = total < page ? total : page;

        noc_async_read(bank_xy[p % nbanks],
                       c->base_addr + p / nbanks * page, CQ_SCRATCH_DB_BASE,
                       n);
        noc_async_read_barrier();
        total -= n;
        cq_writer_relay(&to_d, CQ_SCRATCH_DB_BASE, n, !total);
    }
}

/* the commands in [ptr, end); returns false on TERMINATE */
static int run_commands(uint32_t ptr, uint32_t end)
{
    while (ptr < end) {
        uint32_t id = RD8(ptr), stride = CMD_MIN, where = ptr;

        if (end - ptr < CQ_CMD_SIZE) {
            cq_fail(CQ_ERR_BAD_STRIDE, end - ptr, where);
        }
        switch (id) {
        case CQ_PREFETCH_CMD_RELAY_INLINE:
        case CQ_PREFETCH_CMD_RELAY_INLINE_NOFLUSH: {
            volatile CQPrefetchRelayInline *c =
                (volatile CQPrefetchRelayInline *)ptr;
            uint32_t len = c->length;
            CQWriter *w = c->dispatcher_type == CQ_DISPATCH_SUBORDINATE
                          ? &to_s : &to_d;

            stride = c->stride;
            if (len > stride - CQ_CMD_SIZE || stride < CQ_CMD_SIZE ||
                stride & (CQ_L1_ALIGN - 1)) {
                cq_fail(CQ_ERR_BAD_STRIDE, stride, where);
            }
            if (c->dispatcher_type > CQ_DISPATCH_SUBORDINATE) {
                cq_fail(CQ_ERR_BAD_CMD, c->dispatcher_type, where);
            }
            if (stride > end - ptr) {
                cq_fail(CQ_ERR_BAD_STRIDE, stride, where);
            }
            cq_writer_relay(w, ptr + CQ_CMD_SIZE, len,
                            id == CQ_PREFETCH_CMD_RELAY_INLINE);
            break;
        }
        case CQ_PREFETCH_CMD_RELAY_LINEAR: {
            volatile CQPrefetchRelayLinear *c =
                (volatile CQPrefetchRelayLinear *)ptr;

            if (c->length > 0xffffffffull || c->addr >> 32 >> 29) {
                cq_fail(CQ_ERR_TOO_LONG, (uint32_t)c->length, where);
            }
            relay_linear(c->noc_xy_addr, c->addr >> 32, (uint32_t)c->addr,
                         (uint32_t)c->length, where);
            break;
        }
        case CQ_PREFETCH_CMD_RELAY_PAGED:
            relay_paged(ptr, where);
            break;
        case CQ_PREFETCH_CMD_STALL:
            stalls++;
            noc_semaphore_wait_min(get_semaphore(CQ_SEM_DOWNSTREAM_SYNC),
                                   stalls);
            break;
        case CQ_PREFETCH_CMD_DEBUG:
            stride = ((volatile CQPrefetchGeneric *)ptr)->stride;
            if (stride < CQ_CMD_SIZE || stride > end - ptr ||
                stride & (CQ_L1_ALIGN - 1)) {
                cq_fail(CQ_ERR_BAD_STRIDE, stride, where);
            }
            break;
        case CQ_PREFETCH_CMD_TERMINATE:
            cq_count();
            return 0;
        default:
            cq_fail(CQ_ERR_BAD_CMD, id, where);
        }
        if (stride > end - ptr) {
            cq_fail(CQ_ERR_BAD_STRIDE, stride, where);
        }
        ptr += stride;
        cq_count();
    }
    return 1;
}

void kernel_main(void)
{
    uint32_t d_xy = get_arg_val(CQ_RTA_PEER_XY);

    cq_status_init(CQ_ROLE_PREFETCH);
    cq_noc = get_arg_val(CQ_RTA_NOC);
    pcie_xy = get_arg_val(CQ_RTA_PCIE_XY);
    sysmem = get_arg_val(CQ_RTA_SYSMEM_NOC);
    issue_size = get_arg_val(CQ_RTA_ISSUE_SIZE);
    cq_colmask = get_arg_val(CQ_RTA_COL_MASK);
    nbanks = get_arg_val(CQ_RTA_NBANKS);
    for (uint32_t b = 0; b < nbanks && b < 8; b++) {
        bank_xy[b] = get_arg_val(CQ_RTA_BANK_XY + b);
    }
    to_d = (CQWriter) {
        .base = CQ_DISPATCH_CB_BASE,
        .size = CQ_DISPATCH_CB_PAGES << CQ_DISPATCH_CB_LOG_PAGE,
        .log_page = CQ_DISPATCH_CB_LOG_PAGE, .xy = d_xy,
        .my_sem = get_semaphore(CQ_SEM_DOWNSTREAM_CB),
        .its_sem = get_semaphore(CQ_SEM_DISPATCH_CB),
    };
    to_s = (CQWriter) {
        .base = CQ_DISPATCH_S_CB_BASE, .size = CQ_DISPATCH_S_CB_SIZE,
        .log_page = CQ_DISPATCH_S_CB_LOG_PAGE, .xy = d_xy,
        .my_sem = get_semaphore(CQ_SEM_DISPATCH_S_CB),
        .its_sem = get_semaphore(CQ_SEM_DISPATCH_S_PAGES),
    };
    issue_rd = 0;
    q_rd = 0;
    stalls = 0;
    for (;;) {
        uint32_t len = fetch();

        if (!run_commands(CQ_CMDDAT_Q_BASE, CQ_CMDDAT_Q_BASE + len)) {
            break;
        }
    }
    noc_async_full_barrier();
}
