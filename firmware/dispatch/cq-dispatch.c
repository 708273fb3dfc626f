/*
 * Fast dispatch, dispatcher (dispatch_d, BRISC of the dispatch core):
 * tt-metal's cq_dispatch.cpp (also in blackhole-py d570394
 * firmware/cq/), written anew.  Commands arrive in the dispatch CB (4 KiB
 * pages, one command per relayed run, each starting a page); the
 * prefetcher's semaphore counts the pages filled and the dispatcher gives
 * pages back as it passes them.
 *
 *   WRITE_LINEAR(_H)        payload to (noc_xy, addr), multicast when
 *                           num_mcast_dests > 0
 *   WRITE_LINEAR_H_HOST     the command and its payload into the
 *                           completion ring in host memory, waiting for
 *                           room (the host's read pointer); then the new
 *                           write pointer to host memory
 *   WRITE_PAGED             pages to an interleaved GDDR buffer
 *   WRITE_PACKED            one payload (or one each) to many cores,
 *                           unicast or multicast sub-commands
 *   WRITE_PACKED_LARGE      per-destination address and length,
 *                           multicast rectangles
 *   WAIT                    barrier, memory or worker-stream count,
 *                           clear the stream, notify the prefetcher
 *   SEND_GO_SIGNAL          wait for a stream count, then the go word
 *                           by multicast to the worker grid and by
 *                           unicast to the NOC-data list
 *   SET_GO_SIGNAL_NOC_DATA  that list
 *   NOTIFY_SUBORDINATE_GO_SIGNAL  let dispatch_s send its next go signal
 *   SET_WRITE_OFFSET, SINK, DEBUG, DELAY, EXEC_BUF_END, TIMESTAMP
 *   (blackhole-py's), TERMINATE
 *
 * Destinations are checked against the grid (runtime arguments); a
 * malformed command stops the dispatcher with an error in its status
 * words (cq.h).  Runtime arguments: cq.h CQ_RTA_*.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cq-common.h"

uint32_t cq_noc, cq_role, cq_commands, cq_colmask;

static CQReader cb;
static uint32_t page = 1u << CQ_DISPATCH_CB_LOG_PAGE;
static uint32_t pf_xy, pcie_xy, sysmem, compl_base, compl_end;
static uint32_t go_addr, mcast_grid, mcast_dests, nbanks, bank_xy[8];
static uint32_t write_offset[CQ_MAX_WRITE_OFFSETS];
static uint32_t go_noc_data[CQ_MAX_GO_NOC_DATA];
/* sub-commands, copied out of the CB (tt-metal's l1_cache) */
static uint32_t subs[1024];
static volatile uint32_t scratch[4] __attribute__((aligned(16)));
static volatile uint32_t stamp[4] __attribute__((aligned(16)));
/* completion ring write pointer, 16-byte units, bit 31 the toggle */
static uint32_t compl_wr;

static uint32_t addr_of(uint32_t pos)
{
    return cq_reader_addr(&cb, pos);
}

static void write_linear(uint32_t pos)
{
    volatile CQDispatchWriteLinear *c =
        (volatile CQDispatchWriteLinear *)addr_of(pos);
    uint32_t ndests = c->num_mcast_dests, xy = c->noc_xy_addr;
    uint32_t idx = c->write_offset_index;
    uint64_t addr = c->addr, len = c->length;

    cq_check_dest(xy, ndests, pos);
    if (idx >= CQ_MAX_WRITE_OFFSETS) {
        cq_fail(CQ_ERR_BAD_COUNT, idx, pos);
    }
    if (len > 0xffffffffull || (addr >> 32) >> 29) {
        cq_fail(CQ_ERR_TOO_LONG, (uint32_t)len, pos);
    }
    cb.pos = cq_reader_write_out(&cb, pos + sizeof(*c), len, xy, addr >> 32,
                                 (uint32_t)addr + write_offset[idx], ndests);
}

/* ------------------------------------------------- the completion ring */

static uint32_t compl_free_16b(void)
{
    uint32_t rd, size = (compl_end - compl_base) >> 4;

    invalidate_l1_cache();
    rd = RD32(CQ_DEV_COMPLETION_RD_PTR);
    if ((rd >> 31) != (compl_wr >> 31)) {
        return (rd & 0x7fffffff) - (compl_wr & 0x7fffffff);
    }
    return size - ((compl_wr & 0x7fffffff) - (rd & 0x7fffffff));
}

/*
 * WRITE_LINEAR_H_HOST: the whole record (header included) into the
 * ring in one piece of whole pages, split only where the ring wraps,
 * then the write pointer published (in L1 and in host memory)
 */
static void write_host(uint32_t pos)
{
    volatile CQDispatchWriteHost *c =
        (volatile CQDispatchWriteHost *)addr_of(pos);
    uint64_t len64 = c->length;
    uint32_t len = len64, pages, wr;

    if (len64 < sizeof(*c) || len64 > compl_end - compl_base) {
        cq_fail(CQ_ERR_TOO_LONG, (uint32_t)len64, pos);
    }
    pages = (len + page - 1) / page;
    while (compl_free_16b() < pages * (page >> 4)) {
    }
    wr = (compl_wr & 0x7fffffff) << 4;
    while (len) {
        uint32_t n = len < compl_end - wr ? len : compl_end - wr;

        pos = cq_reader_write_out(&cb, pos, n, pcie_xy, CQ_NOC_PCIE_MID, wr,
                                  0);
        len -= n;
        wr += n;
        if (wr == compl_end) {
            wr = compl_base;
        }
    }
    cb.pos = pos;
    /* push_back: whole pages, the toggle flipping at each wrap */
    wr = (compl_wr & 0x7fffffff) + pages * (page >> 4);
    if (wr >= compl_end >> 4) {
        wr = wr - (compl_end >> 4) + (compl_base >> 4);
        compl_wr ^= 0x80000000u;
    }
    compl_wr = (compl_wr & 0x80000000u) | wr;
    noc_async_write_barrier();
    RD32(CQ_DEV_COMPLETION_WR_PTR) = compl_wr;
    noc_async_write_any(CQ_DEV_COMPLETION_WR_PTR, pcie_xy, CQ_NOC_PCIE_MID,
                        sysmem + CQ_HOST_CQ_WR_OFF, 4, 0);
    noc_async_write_barrier();
}

/* ------------------------------------------------------------- writes */

static void write_paged(uint32_t pos)
{
    volatile CQDispatchWritePaged *c =
        (volatile CQDispatchWritePaged *)addr_of(pos);
    uint32_t p = c->start_page, psize = c->page_size, pages = c->pages;
    uint32_t base = c->base_addr;

    if (!c->is_dram) {
        cq_fail(CQ_ERR_BAD_CMD, CQ_DISPATCH_CMD_WRITE_PAGED, pos);
    }
    if (!psize || psize & 15 || !nbanks) {
        cq_fail(CQ_ERR_BAD_SIZE, psize, pos);
    }
    pos += sizeof(*c);
    for (uint32_t i = 0; i < pages; i++, p++) {
        pos = cq_reader_write_out(&cb, pos, psize, bank_xy[p % nbanks], 0,
                                  base + p / nbanks * psize, 0);
    }
    cb.pos = pos;
}

static void write_packed(uint32_t pos)
{
    volatile CQDispatchWritePacked *c =
        (volatile CQDispatchWritePacked *)addr_of(pos);
    uint32_t flags = c->flags, count = c->count, size = c->size;
    uint32_t idx = c->write_offset_index, addr;
    int mcast = flags & CQ_PACKED_FLAG_MCAST;
    uint32_t sub_words = mcast ? 2 : 1, data, stride;

    if (idx >= CQ_MAX_WRITE_OFFSETS) {
        cq_fail(CQ_ERR_BAD_COUNT, idx, pos);
    }
    /* the sub-commands must fit in the command's first page */
    if (!count || sizeof(*c) + 4 * sub_words * count > page) {
        cq_fail(CQ_ERR_BAD_COUNT, count, pos);
    }
    if (!size || size > page) {
        cq_fail(CQ_ERR_BAD_SIZE, size, pos);
    }
    addr = c->addr + write_offset[idx];
    cq_reader_wait(&cb, pos, sizeof(*c) + 4 * sub_words * count);
    cq_reader_copy(&cb, pos + sizeof(*c), subs, 4 * sub_words * count);
    for (uint32_t i = 0; i < count; i++) {
        cq_check_dest(subs[sub_words * i],
                      mcast ? subs[sub_words * i + 1] : 0, pos);
    }
    data = pos + ((sizeof(*c) + 4 * sub_words * count + 15) & ~15u);
    stride = flags & CQ_PACKED_FLAG_NO_STRIDE ? 0 : (size + 15) & ~15u;
    for (uint32_t i = 0; i < count; i++) {
        cq_reader_write_out(&cb, data, size, subs[sub_words * i], 0, addr,
                            mcast ? subs[sub_words * i + 1] : 0);
        data += stride;
    }
    cb.pos = data + (stride ? 0 : (size + 15) & ~15u);
}

static void write_packed_large(uint32_t pos)
{
    volatile CQDispatchWritePackedLarge *c =
        (volatile CQDispatchWritePackedLarge *)addr_of(pos);
    uint32_t count = c->count, align = c->alignment;
    uint32_t off = write_offset[c->write_offset_index & 3], data;

    if (c->write_offset_index >= CQ_MAX_WRITE_OFFSETS ||
        !count || count > CQ_PACKED_LARGE_MAX_SUB_CMDS) {
        cq_fail(CQ_ERR_BAD_COUNT, count, pos);
    }
    if (align < CQ_L1_ALIGN || align & (align - 1)) {
        cq_fail(CQ_ERR_BAD_SIZE, align, pos);
    }
    cq_reader_wait(&cb, pos,
                   sizeof(*c) + sizeof(CQWritePackedLargeSub) * count);
    cq_reader_copy(&cb, pos + sizeof(*c), subs,
                   (sizeof(CQWritePackedLargeSub) * count + 3) & ~3u);
    data = pos + ((sizeof(*c) + sizeof(CQWritePackedLargeSub) * count + 15) &
                  ~15u);
    for (uint32_t i = 0; i < count; i++) {
        CQWritePackedLargeSub *s = (CQWritePackedLargeSub *)subs + i;
        uint32_t len = s->length_minus1 + 1;

        cq_check_dest(s->noc_xy_addr, s->num_mcast_dests, pos);
        cq_reader_write_out(&cb, data, len, s->noc_xy_addr, 0,
                            s->addr + off, s->num_mcast_dests);
        data += (len + align - 1) & ~(align - 1);
    }
    cb.pos = data;
}

/* -------------------------------------------------------- sync, go */

static void wait_cmd(uint32_t pos)
{
    volatile CQDispatchWait *c = (volatile CQDispatchWait *)addr_of(pos);
    uint32_t flags = c->flags, stream = c->stream, count = c->count;

    if (flags & (CQ_WAIT_FLAG_WAIT_STREAM | CQ_WAIT_FLAG_CLEAR_STREAM)) {
        cq_check_stream(stream, pos);
    }
    if (flags & CQ_WAIT_FLAG_BARRIER) {
        noc_async_write_barrier();
    }
    if (flags & CQ_WAIT_FLAG_WAIT_MEMORY) {
        if (c->addr & 3 || c->addr >= TT_L1_SIZE) {
            cq_fail(CQ_ERR_BAD_SIZE, c->addr, pos);
        }
        noc_semaphore_wait_min(c->addr, count);
    }
    if (flags & CQ_WAIT_FLAG_WAIT_STREAM) {
        while (!cq_ge(cq_stream_count(stream), count, STREAM_WORD_BITS)) {
        }
    }
    if (flags & CQ_WAIT_FLAG_CLEAR_STREAM) {
        cq_stream_clear(stream);
    }
    if (flags & CQ_WAIT_FLAG_NOTIFY_PREFETCH) {
        noc_semaphore_inc(pf_xy, get_semaphore(CQ_SEM_DOWNSTREAM_SYNC), 1);
        noc_async_atomic_barrier();
    }
    cb.pos = pos + sizeof(*c);
}

static void go_signal(uint32_t pos)
{
    volatile CQDispatchGoSignal *c =
        (volatile CQDispatchGoSignal *)addr_of(pos);
    uint32_t stream = c->wait_stream, first = c->noc_data_start_index;
    uint32_t n = c->num_unicast_txns, moff = c->multicast_go_offset;
    uint32_t go = c->go_signal, count = c->wait_count;

    cq_check_stream(stream, pos);
    if (first + n > CQ_MAX_GO_NOC_DATA) {
        cq_fail(CQ_ERR_BAD_COUNT, first + n, pos);
    }
    if (moff != CQ_GO_NO_MULTICAST_OFFSET && (moff > 8 || !mcast_dests)) {
        cq_fail(CQ_ERR_BAD_COUNT, moff, pos);
    }
    while (!cq_ge(cq_stream_count(stream), count, STREAM_WORD_BITS)) {
    }
    cq_send_go(go, go_addr, moff, mcast_grid, mcast_dests,
               &go_noc_data[first], n, scratch);
    cb.pos = pos + sizeof(*c);
}

/* dispatch_s may send its next go signal: one per index bit */
static void notify_sub(uint32_t pos)
{
    volatile CQDispatchNotifySub *c =
        (volatile CQDispatchNotifySub *)addr_of(pos);
    uint32_t mask = c->index_bitmask;

    if (c->wait) {
        noc_async_write_barrier();
    }
    if (mask >> CQ_MAX_WORKER_SEMS) {
        cq_fail(CQ_ERR_BAD_COUNT, mask, pos);
    }
    for (uint32_t i = 0; i < CQ_MAX_WORKER_SEMS; i++) {
        if (mask >> i & 1) {
            RD32(CQ_DISPATCH_S_SYNC_SEM + 16 * i) += 1;
        }
    }
    invalidate_l1_cache();
    cb.pos = pos + sizeof(*c);
}

static void timestamp(uint32_t pos)
{
    volatile CQDispatchTimestamp *c =
        (volatile CQDispatchTimestamp *)addr_of(pos);
    uint32_t xy = c->noc_xy_addr, addr = c->addr;

    cq_check_dest(xy, 0, pos);
    if (addr & 15) {
        cq_fail(CQ_ERR_BAD_SIZE, addr, pos);
    }
    stamp[0] = RD32(WALL_CLOCK_L);
    stamp[1] = RD32(WALL_CLOCK_H);
    noc_async_write_any((uint32_t)stamp, xy,
                        (xy & 63) == CQ_PCIE_X ? CQ_NOC_PCIE_MID : 0, addr,
                        8, 0);
    cb.pos = pos + sizeof(*c);
}

/* one command at cb.pos; returns false on TERMINATE */
static int run_command(void)
{
    uint32_t pos = cb.pos, id;

    cq_reader_wait(&cb, pos, CQ_CMD_SIZE);
    id = RD8(addr_of(pos));
    switch (id) {
    case CQ_DISPATCH_CMD_WRITE_LINEAR:
    case CQ_DISPATCH_CMD_WRITE_LINEAR_H:
        cq_reader_wait(&cb, pos, sizeof(CQDispatchWriteLinear));
        write_linear(pos);
        break;
    case CQ_DISPATCH_CMD_WRITE_LINEAR_H_HOST:
        write_host(pos);
        break;
    case CQ_DISPATCH_CMD_WRITE_PAGED:
        write_paged(pos);
        break;
    case CQ_DISPATCH_CMD_WRITE_PACKED:
        write_packed(pos);
        break;
    case CQ_DISPATCH_CMD_WRITE_PACKED_LARGE:
        write_packed_large(pos);
        break;
    case CQ_DISPATCH_CMD_WAIT:
        wait_cmd(pos);
        break;
    case CQ_DISPATCH_CMD_SINK:
    case CQ_DISPATCH_CMD_EXEC_BUF_END:
        cb.pos = pos + CQ_CMD_SIZE;
        break;
    case CQ_DISPATCH_CMD_DEBUG: {
        uint32_t stride = ((volatile CQPrefetchGeneric *)addr_of(pos))->stride;

        /* the next command follows in the same page run */
        if (stride < CQ_CMD_SIZE || stride & 15 || stride > page) {
            cq_fail(CQ_ERR_BAD_STRIDE, stride, pos);
        }
        cb.pos = pos + stride;
        cq_count();
        return run_command();
    }
    case CQ_DISPATCH_CMD_DELAY:
        for (volatile uint32_t i = 0;
             i < ((volatile CQDispatchDelay *)addr_of(pos))->delay; i++) {
        }
        cb.pos = pos + CQ_CMD_SIZE;
        break;
    case CQ_DISPATCH_CMD_SET_WRITE_OFFSET: {
        volatile CQDispatchSetWriteOffset *c =
            (volatile CQDispatchSetWriteOffset *)addr_of(pos);
        uint32_t n = c->offset_count;

        if (n > CQ_MAX_WRITE_OFFSETS) {
            cq_fail(CQ_ERR_BAD_COUNT, n, pos);
        }
        cq_reader_wait(&cb, pos, CQ_CMD_SIZE + 4 * n);
        for (uint32_t i = 0; i < n; i++) {
            write_offset[i] = RD32(addr_of(pos + CQ_CMD_SIZE + 4 * i));
        }
        cb.pos = pos + CQ_CMD_SIZE + 4 * n;
        break;
    }
    case CQ_DISPATCH_CMD_TERMINATE:
        cb.pos = pos + CQ_CMD_SIZE;
        cq_count();
        return 0;
    case CQ_DISPATCH_CMD_SEND_GO_SIGNAL:
        go_signal(pos);
        break;
    case CQ_DISPATCH_NOTIFY_SUBORDINATE_GO_SIGNAL:
        notify_sub(pos);
        break;
    case CQ_DISPATCH_SET_GO_SIGNAL_NOC_DATA:
        cb.pos = cq_set_noc_data(&cb, pos, go_noc_data);
        break;
    case CQ_DISPATCH_CMD_TIMESTAMP:
        timestamp(pos);
        break;
    default:
        /* SET_NUM_WORKER_SEMS is dispatch_s's; the rest unknown */
        cq_fail(CQ_ERR_BAD_CMD, id, pos);
    }
    cq_count();
    return 1;
}

void kernel_main(void)
{
    cq_status_init(CQ_ROLE_DISPATCH);
    cq_noc = get_arg_val(CQ_RTA_NOC);
    pf_xy = get_arg_val(CQ_RTA_PEER_XY);
    pcie_xy = get_arg_val(CQ_RTA_PCIE_XY);
    sysmem = get_arg_val(CQ_RTA_SYSMEM_NOC);
    compl_base = sysmem + CQ_HOST_ISSUE_OFF + get_arg_val(CQ_RTA_ISSUE_SIZE);
    compl_end = compl_base + get_arg_val(CQ_RTA_COMPLETION_SIZE);
    go_addr = get_arg_val(CQ_RTA_GO_ADDR);
    mcast_grid = get_arg_val(CQ_RTA_MCAST_GRID);
    mcast_dests = get_arg_val(CQ_RTA_MCAST_DESTS);
    cq_colmask = get_arg_val(CQ_RTA_COL_MASK);
    nbanks = get_arg_val(CQ_RTA_NBANKS);
    for (uint32_t b = 0; b < nbanks && b < 8; b++) {
        bank_xy[b] = get_arg_val(CQ_RTA_BANK_XY + b);
    }
    cb = (CQReader) {
        .base = CQ_DISPATCH_CB_BASE,
        .size = CQ_DISPATCH_CB_PAGES << CQ_DISPATCH_CB_LOG_PAGE,
        .log_page = CQ_DISPATCH_CB_LOG_PAGE,
        .my_sem = get_semaphore(CQ_SEM_DISPATCH_CB),
        .xy = pf_xy, .its_sem = get_semaphore(CQ_SEM_DOWNSTREAM_CB),
    };
    for (int i = 0; i < CQ_MAX_WORKER_SEMS; i++) {
        cq_stream_clear(FIRST_STREAM_USED + i);
    }
    /* the host initialised both completion pointers */
    compl_wr = RD32(CQ_DEV_COMPLETION_WR_PTR);
    for (;;) {
        int more = run_command();

        /* the next command starts on the next page */
        cb.pos = (cb.pos + page - 1) & ~(page - 1);
        noc_async_write_barrier();
        cq_reader_release(&cb, cb.pos);
        if (!more) {
            break;
        }
    }
    noc_async_full_barrier();
}
