/*
 * Tenstorrent Blackhole Tensix Sync Unit: semaphores, mutexes and the wait
 * instructions the front end's wait gate latches.
 *
 * Source: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/
 * SyncUnit.md, SEMINIT.md, SEMPOST.md, SEMGET.md, SEMWAIT.md,
 * STALLWAIT.md, STREAMWAIT.md, ATGETM.md, ATRELM.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/atomic.h"
#include "tensix-common.h"
#include "hw/tenstorrent/noc-overlay.h"
#include "trace.h"

/* Stream registers STREAMWAIT compares (tt-metal noc_overlay_parameters.h) */
#define TT_STREAM_CURR_PHASE        29
#define TT_STREAM_NUM_MSGS_RECEIVED 259

static bool tt_sem_holds(TTTensix *t, uint32_t sems, uint32_t cond)
{
    for (int i = 0; i < TT_TENSIX_SEMS; i++) {
        if (!(sems & BIT(i))) {
            continue;
        }
        /* bit 0: hold while zero; bit 1: hold while at max (SEMWAIT.md) */
        if (((cond & 1) && t->sem_val[i] == 0) ||
            ((cond & 2) && t->sem_val[i] >= t->sem_max[i])) {
            return true;
        }
    }
    return false;
}

void tt_sync_sem_update(TTTensix *t, uint32_t sems, int delta)
{
    for (int i = 0; i < TT_TENSIX_SEMS; i++) {
        if (sems & BIT(i)) {
            int v = t->sem_val[i] + delta;

            /* SEMPOST stops at 15, SEMGET at 0 (SEMPOST.md, SEMGET.md) */
            t->sem_val[i] = MAX(0, MIN(15, v));
            trace_tt_tensix_sem(t->tile_x, t->tile_y, i, t->sem_val[i]);
        }
    }
}

/*
 * STALLWAIT's conditions (STALLWAIT.md): every unit finishes each
 * instruction before the next one is considered, so the busy conditions
 * (C0-C4, C9-C12) hold at once; C5-C8 follow Src bank ownership.
 */
static bool tt_stallwait_holds(TTTensix *t, uint32_t cond)
{
    TTTensixSrc *a = &t->src[0], *b = &t->src[1];

    return ((cond & BIT(5)) && tt_src_handed(t, 0, a->unpack_bank)) ||
           ((cond & BIT(6)) && tt_src_handed(t, 1, b->unpack_bank)) ||
           ((cond & BIT(7)) && !(a->valid & BIT(a->matrix_bank))) ||
           ((cond & BIT(8)) && !(b->valid & BIT(b->matrix_bank)));
}

bool tt_sync_latch_holds(TTTensix *t, TTTensixLatch *l)
{
    uint32_t v;

    switch (l->op) {
    case TT_OP_SEMWAIT:
        return tt_sem_holds(t, l->sems, l->cond);
    case TT_OP_STREAMWAIT:
        v = qatomic_read(&t->overlay->reg[l->stream][l->cond
                         ? TT_STREAM_NUM_MSGS_RECEIVED : TT_STREAM_CURR_PHASE]);
        return v < l->target;
    default:
        return tt_stallwait_holds(t, l->cond);
    }
}

/* Latch a wait: it closes the gate to the units in its block mask */
static void tt_latch(TTTensix *t, int thread, uint32_t w, uint32_t cond)
{
    TTTensixLatch *l = &t->th[thread].latch;

    *l = (TTTensixLatch) {
        .op = w >> 24, .block = tt_stallwait_stall_res(w), .cond = cond,
    };
    if (!l->block) {
        l->block = BIT(6);      /* B6, math, when none is given */
    }
}

bool tensix_stallwait(TTTensix *t, int thread, uint32_t w)
{
    uint32_t cond = tt_stallwait_wait_res(w) ?: 0xf;

    if (cond & BIT(11)) {
        /* C11, the Vector Unit busy: its scheduled instructions finish */
        tt_sfpu_settle(t);
    }
    tt_latch(t, thread, w, cond);
    return true;
}

bool tensix_semwait(TTTensix *t, int thread, uint32_t w)
{
    if (!tt_semwait_wait_sem_cond(w)) {
        tt_tensix_error(t, thread, w, "no condition (undefined): ignored");
        return true;
    }
    tt_latch(t, thread, w, tt_semwait_wait_sem_cond(w));
    t->th[thread].latch.sems = tt_semwait_sem_sel(w);
    return true;
}

bool tensix_streamwait(TTTensix *t, int thread, uint32_t w)
{
    TTTensixThread *th = &t->th[thread];
    TTTensixLatch *l = &th->latch;
    uint32_t sel = tt_streamwait_wait_stream_sel(w);

    tt_latch(t, thread, w, tt_streamwait_target_sel(w));
    l->stream = TT_THCFG_N(th->thread_cfg, STREAM_ID_SYNC_SECn_BankSel, sel);
    l->target = (l->cond ? TT_THCFG(th->thread_cfg, STREAMWAIT_NUM_MSGS_HI_Val)
                         : TT_THCFG(th->thread_cfg, STREAMWAIT_PHASE_HI_Val))
                << 10 | tt_streamwait_target_value(w);
    return true;
}

bool tensix_seminit(TTTensix *t, int thread, uint32_t w)
{
    for (int i = 0; i < TT_TENSIX_SEMS; i++) {
        if (tt_seminit_sem_sel(w) & BIT(i)) {
            t->sem_val[i] = tt_seminit_init_value(w);
            t->sem_max[i] = tt_seminit_max_value(w);
        }
    }
    return true;
}

bool tensix_sempost(TTTensix *t, int thread, uint32_t w)
{
    tt_sync_sem_update(t, tt_sempost_sem_sel(w), 1);
    return true;
}

bool tensix_semget(TTTensix *t, int thread, uint32_t w)
{
    tt_sync_sem_update(t, tt_semget_sem_sel(w), -1);
    return true;
}

static bool tt_mutex_valid(TTTensix *t, int thread, uint32_t w, uint32_t m)
{
    if (m < TT_TENSIX_MUTEXES && m != 1) {
        return true;
    }
    tt_tensix_error(t, thread, w, "mutex %u does not exist on Blackhole "
                    "(0, 2, 3, 4)", m);
    return false;
}

/* ATGETM: take the mutex, or wait at the gate while another thread has it */
bool tensix_atgetm(TTTensix *t, int thread, uint32_t w)
{
    uint32_t m = tt_atgetm_mutex_index(w);
    uint8_t *owner = &t->mutex_owner[m % TT_TENSIX_MUTEXES];

    if (!tt_mutex_valid(t, thread, w, m)) {
        return true;
    }
    if (*owner && *owner != thread + 1) {
        trace_tt_tensix_stall(t->tile_x, t->tile_y, thread, "ATGETM");
        return false;
    }
    if (!*owner) {
        trace_tt_tensix_mutex(t->tile_x, t->tile_y, thread, m, true);
    }
    *owner = thread + 1;
    return true;
}

/* ATRELM: release the mutex if this thread holds it */
bool tensix_atrelm(TTTensix *t, int thread, uint32_t w)
{
    uint32_t m = tt_atrelm_mutex_index(w);

    if (tt_mutex_valid(t, thread, w, m) &&
        t->mutex_owner[m] == thread + 1) {
        t->mutex_owner[m] = 0;
        trace_tt_tensix_mutex(t->tile_x, t->tile_y, thread, m, false);
    }
    return true;
}
