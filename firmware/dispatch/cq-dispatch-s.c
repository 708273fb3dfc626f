/*
 * Fast dispatch, dispatch subordinate (dispatch_s, NCRISC of the
 * dispatch core): tt-metal's cq_dispatch_subordinate.cpp (also in
 * blackhole-py d570394 firmware/cq/), written anew.  It reads its own
 * buffer (256-byte pages, filled by the prefetcher for RELAY_INLINE with
 * dispatcher_type 1) and sends go signals so that dispatch_d can go on
 * writing the next program's configuration meanwhile:
 *
 *   SEND_GO_SIGNAL          wait until dispatch_d has let this go signal
 *                           through (NOTIFY_SUBORDINATE_GO_SIGNAL bumps
 *                           DISPATCH_S_SYNC_SEM[stream - 48]) and the
 *                           workers' stream count is reached, then send
 *   SET_GO_SIGNAL_NOC_DATA  the unicast destinations
 *   SET_NUM_WORKER_SEMS
 *   WAIT                    wait for and clear a stream (stream flags
 *                           only; dispatch_s runs beside dispatch_d here)
 *   TERMINATE
 *
 * It shares the core's NOC with dispatch_d through its own command
 * buffers (2 and 3).  Runtime arguments: cq.h CQ_RTA_*.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cq-common.h"

uint32_t cq_noc, cq_role, cq_commands, cq_colmask;

static CQReader cb;
static uint32_t page = 1u << CQ_DISPATCH_S_CB_LOG_PAGE;
static uint32_t go_addr, mcast_grid, mcast_dests, num_worker_sems = 1;
static uint32_t mcasts_sent[CQ_MAX_WORKER_SEMS];
static uint32_t go_noc_data[CQ_MAX_GO_NOC_DATA];
static volatile uint32_t scratch[4] __attribute__((aligned(16)));

static uint32_t addr_of(uint32_t pos)
{
    return cq_reader_addr(&cb, pos);
}

static void go_signal(uint32_t pos)
{
    volatile CQDispatchGoSignal *c =
        (volatile CQDispatchGoSignal *)addr_of(pos);
    uint32_t stream = c->wait_stream, first = c->noc_data_start_index;
    uint32_t n = c->num_unicast_txns, moff = c->multicast_go_offset;
    uint32_t go = c->go_signal, count = c->wait_count, idx, sync;

    cq_check_stream(stream, pos);
    idx = stream - FIRST_STREAM_USED;
    if (first + n > CQ_MAX_GO_NOC_DATA) {
        cq_fail(CQ_ERR_BAD_COUNT, first + n, pos);
    }
    if (moff != CQ_GO_NO_MULTICAST_OFFSET && (moff > 8 || !mcast_dests)) {
        cq_fail(CQ_ERR_BAD_COUNT, moff, pos);
    }
    /* dispatch_d's permission: its count must pass the go signals sent */
    sync = CQ_DISPATCH_S_SYNC_SEM + 16 * idx;
    do {
        invalidate_l1_cache();
    } while (!cq_ge(RD32(sync), mcasts_sent[idx] + 1, 32));
    mcasts_sent[idx]++;
    while (!cq_ge(cq_stream_count(stream), count, STREAM_WORD_BITS)) {
    }
    cq_send_go(go, go_addr, moff, mcast_grid, mcast_dests,
               &go_noc_data[first], n, scratch);
    cb.pos = pos + sizeof(*c);
}

static void wait_cmd(uint32_t pos)
{
    volatile CQDispatchWait *c = (volatile CQDispatchWait *)addr_of(pos);
    uint32_t flags = c->flags, stream = c->stream;

    if (flags & ~(CQ_WAIT_FLAG_WAIT_STREAM | CQ_WAIT_FLAG_CLEAR_STREAM)) {
        cq_fail(CQ_ERR_BAD_CMD, flags, pos);
    }
    cq_check_stream(stream, pos);
    if (flags & CQ_WAIT_FLAG_WAIT_STREAM) {
        while (!cq_ge(cq_stream_count(stream), c->count, STREAM_WORD_BITS)) {
        }
    }
    if (flags & CQ_WAIT_FLAG_CLEAR_STREAM) {
        cq_stream_clear(stream);
    }
    cb.pos = pos + sizeof(*c);
}

static int run_command(void)
{
    uint32_t pos = cb.pos, id;

    cq_reader_wait(&cb, pos, CQ_CMD_SIZE);
    id = RD8(addr_of(pos));
    switch (id) {
    case CQ_DISPATCH_CMD_SEND_GO_SIGNAL:
        go_signal(pos);
        break;
    case CQ_DISPATCH_SET_GO_SIGNAL_NOC_DATA:
        cb.pos = cq_set_noc_data(&cb, pos, go_noc_data);
        break;
    case CQ_DISPATCH_SET_NUM_WORKER_SEMS: {
        uint32_t n = ((volatile CQDispatchSetCount *)addr_of(pos))->value;

        if (!n || n > CQ_MAX_WORKER_SEMS) {
            cq_fail(CQ_ERR_BAD_COUNT, n, pos);
        }
        num_worker_sems = n;
        cb.pos = pos + CQ_CMD_SIZE;
        break;
    }
    case CQ_DISPATCH_CMD_WAIT:
        wait_cmd(pos);
        break;
    case CQ_DISPATCH_CMD_TERMINATE:
        cb.pos = pos + CQ_CMD_SIZE;
        cq_count();
        return 0;
    default:
        cq_fail(CQ_ERR_BAD_CMD, id, pos);
    }
    cq_count();
    return 1;
}

void kernel_main(void)
{
    cq_status_init(CQ_ROLE_DISPATCH_S);
    cq_noc = get_arg_val(CQ_RTA_NOC);
    go_addr = get_arg_val(CQ_RTA_GO_ADDR);
    mcast_grid = get_arg_val(CQ_RTA_MCAST_GRID);
    mcast_dests = get_arg_val(CQ_RTA_MCAST_DESTS);
    cq_colmask = get_arg_val(CQ_RTA_COL_MASK);
    cb = (CQReader) {
        .base = CQ_DISPATCH_S_CB_BASE, .size = CQ_DISPATCH_S_CB_SIZE,
        .log_page = CQ_DISPATCH_S_CB_LOG_PAGE,
        .my_sem = get_semaphore(CQ_SEM_DISPATCH_S_PAGES),
        .xy = get_arg_val(CQ_RTA_PEER_XY),
        .its_sem = get_semaphore(CQ_SEM_DISPATCH_S_CB),
    };
    for (;;) {
        int more = run_command();

        cb.pos = (cb.pos + page - 1) & ~(page - 1);
        noc_async_write_barrier();
        cq_reader_release(&cb, cb.pos);
        if (!more) {
            break;
        }
    }
    noc_async_full_barrier();
    (void)num_worker_sems;
}
