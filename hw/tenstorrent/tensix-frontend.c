/*
 * Tenstorrent Blackhole Tensix front end: instruction pushes (the three
 * INSTRN_BUF windows and inline words), the per-thread MOP and replay
 * expanders, the wait gate and dispatch to the units; the PC buffers,
 * TTSync and the MOP configuration window.
 *
 * Pushes arrive as 32-bit stores: a TRISC's inline Tensix words become a
 * store to 0xFFE40000 (target/riscv/xtttensix.decode), tt-llk's TT_*
 * macros store there directly, and BRISC pushes into threads 0-2 at
 * 0xFFE40000/0xFFE50000/0xFFE60000 after the MOP expander
 * (BlackholeA0/TensixTile/BabyRISCV/PushTensixInstruction.md).
 *
 * The model is functional and synchronous: the MOP and replay expanders
 * run at push time, and the back end executes each instruction as soon as
 * the thread's wait gate and the instruction's unit let it.  A thread held
 * by a wait, a mutex or a unit (e.g. the matrix unit waiting for its Src
 * banks) queues what follows; a push into a FIFO holding 28 words stalls:
 * the pushing core halts on its store, which completes once a word has
 * drained.  Everything runs under one lock per tile, never the BQL.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/lockable.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "qemu/processor.h"
#include "system/tcg.h"
#include "hw/core/cpu.h"
#include "target/riscv/cpu.h"
#include "tensix-common.h"
#include "hw/tenstorrent/spin-park.h"
#include "trace.h"

/* ------------------------------------------------------- the wait gate -- */

/*
 * The gate: a latched wait holds the first instruction of a group its
 * block mask names (and every later one, the gate being in order); other
 * instructions pass.  The latch is forgotten once its condition clears.
 */
static bool tt_gate_holds(TTTensix *t, int thread, uint32_t w)
{
    TTTensixLatch *l = &t->th[thread].latch;

    if (!l->op) {
        return false;
    }
    if (!tt_sync_latch_holds(t, l)) {
        l->op = 0;
        return false;
    }
    if (l->block == 0x1ff || (tt_tensix_isa[w >> 24].block & l->block)) {
        trace_tt_tensix_stall(t->tile_x, t->tile_y, thread,
                              tt_tensix_isa[l->op].name);
        return true;
    }
    return false;
}

/*
 * Execute @w on @thread, or return false if the wait gate or its unit
 * holds it (the instruction then stays first in the queue).
 */
static bool tt_execute(TTTensix *t, int thread, uint32_t w)
{
    const TTTensixOpInfo *op = &tt_tensix_isa[w >> 24];

    if (tt_gate_holds(t, thread, w)) {
        return false;
    }
    if (op->exec) {
        if (!op->exec(t, thread, w)) {
            return false;
        }
    } else if (!op->name) {
        /* no such instruction: skipped, like a NOP */
        t->unimp[w >> 24]++;
        tt_tensix_error(t, thread, w, "unknown opcode 0x%02x skipped",
                        w >> 24);
    } else {
        t->unimp[w >> 24]++;
        qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: %s (0x%08x) is decoded "
                      "but not executed\n", t->tile_x, t->tile_y, thread,
                      op->name, w);
    }
    t->th[thread].executed++;
    trace_tt_tensix_exec(t->tile_x, t->tile_y, thread, tt_op_name(w), w);
    if (unlikely(tt_sfpu_busy(t)) && op->unit != TT_UNIT_SFPU) {
        tt_sfpu_cycle(t, thread);   /* SFPLOADMACRO's pipeline moves on */
    }
    return true;
}

/* ------------------------------------------- miscellaneous unit (misc) -- */

bool tensix_nop(TTTensix *t, int thread, uint32_t w)
{
    return true;
}

/* RESOURCEDECL: a hint for Auto TTSync, which needs no model here */
bool tensix_resourcedecl(TTTensix *t, int thread, uint32_t w)
{
    return true;
}

/*
 * MOP, MOP_CFG and REPLAY are consumed by the expanders; they reach the
 * gate only when BRISC pushes them after the MOP expander.
 */
bool tensix_mop(TTTensix *t, int thread, uint32_t w)
{
    tt_tensix_error(t, thread, w, "MOP pushed after the MOP expander "
                    "(by BRISC): ignored");
    return true;
}

bool tensix_mop_cfg(TTTensix *t, int thread, uint32_t w)
{
    return tensix_mop(t, thread, w);
}

/* A REPLAY recorded into the replay buffer, then played back */
bool tensix_replay(TTTensix *t, int thread, uint32_t w)
{
    tt_tensix_error(t, thread, w, "REPLAY inside a replayed sequence: "
                    "ignored");
    return true;
}

/* ------------------------------------------------------ the gate queue -- */

static void tt_enqueue(TTTensix *t, int thread, uint32_t w)
{
    TTTensixThread *th = &t->th[thread];

    if (th->count == TT_TENSIX_QUEUE) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d tensix T%d: more than %d "
                      "instructions wait at a closed gate; %s dropped\n",
                      t->tile_x, t->tile_y, thread, TT_TENSIX_QUEUE,
                      tt_op_name(w));
        return;
    }
    th->queue[(th->head + th->count) % TT_TENSIX_QUEUE] =
        (TTTensixQueued) { .insn = w };
    th->count++;
    th->enqueued++;
}

/*
 * A pushed word has produced all its instructions (since @enq0 were
 * enqueued): the push is done when the last of them executes, or now.
 */
static void tt_word_done(TTTensixThread *th, uint64_t enq0)
{
    if (th->enqueued != enq0 && th->dequeued < th->enqueued) {
        th->queue[(th->head + th->count - 1) % TT_TENSIX_QUEUE].ends_push =
            true;
    } else {
        th->pushes--;
    }
}

/* ------------------------------------------------ replay and MOP stages -- */

static void tt_replay_stage(TTTensix *t, int thread, uint32_t w)
{
    TTTensixThread *th = &t->th[thread];

    if (th->replay_left) {
        th->replay[th->replay_pos++ % TT_TENSIX_REPLAY] = w;
        th->replay_left--;
        if (th->replay_exec) {
            tt_enqueue(t, thread, w);
        }
        return;
    }
    if (w >> 24 != TT_OP_REPLAY) {
        tt_enqueue(t, thread, w);
        return;
    }
    /* REPLAY: record the next len instructions, or play len back */
    {
        uint32_t start = tt_replay_start_idx(w) % TT_TENSIX_REPLAY;
        uint32_t len = tt_replay_len(w) ?: TT_TENSIX_REPLAY * 2;

        if (tt_replay_load_mode(w)) {
            th->replay_pos = start;
            th->replay_left = len;
            th->replay_exec = tt_replay_execute_while_loading(w);
            return;
        }
        for (uint32_t i = 0; i < len; i++) {
            tt_enqueue(t, thread, th->replay[(start + i) % TT_TENSIX_REPLAY]);
        }
    }
}

static bool tt_is_nop(uint32_t w)
{
    return w >> 24 == TT_OP_NOP;
}

/*
 * Word @j of outer iteration @o of an expansion, false past its end.
 * Template 0 (MOPExpander.md): a masked loop of A0..A3 and B, or of the
 * skip instructions.  Template 1: StartOp, InnerCount loop ops (toggling
 * with LoopOp1; the last replaced by Loop0Last in the last outer
 * iteration and by Loop1Last in the others), EndOp0, EndOp1; NOPs among
 * the start and end ops are not emitted.
 */
static bool tt_mop_word(TTTensixMop *m, uint32_t o, uint32_t j, uint32_t *w)
{
    const uint32_t *c = m->cfg;
    QEMU_UNINITIALIZED uint32_t seq[6];
    unsigned n = 0;

    if (m->tmpl == 0) {
        if (o < 32 && (m->mask & BIT(o))) {
            seq[n++] = c[7];
            if (c[1] & 1) {
                seq[n++] = c[8];
            }
        } else {
            seq[n++] = c[3];
            for (int a = 4; a <= 6 && (c[1] & 2); a++) {
                seq[n++] = c[a];
            }
            if (c[1] & 1) {
                seq[n++] = c[2];
            }
        }
        *w = j < n ? seq[j] : 0;
        return j < n;
    }
    if (!tt_is_nop(c[2]) && j-- == 0) {
        *w = c[2];
        return true;
    }
    if (j < m->inner) {
        *w = !tt_is_nop(c[6]) && (j & 1) ? c[6] : c[5];
        if (j == m->inner - 1) {
            *w = o == m->outer - 1 ? c[7] : c[8];
        }
        return true;
    }
    j -= m->inner;
    for (int e = 3; e <= 4; e++) {
        if (!tt_is_nop(c[e]) && j-- == 0) {
            *w = c[e];
            return true;
        }
    }
    return false;
}

static bool tt_mop_next(TTTensixMop *m, uint32_t *w)
{
    while (m->i < m->outer) {
        if (tt_mop_word(m, m->i, m->j, w)) {
            m->j++;
            return true;
        }
        m->i++;
        m->j = 0;
    }
    m->active = false;
    return false;
}

/* MOP: start an expansion from the configuration as it is now */
static void tt_mop_start(TTTensixThread *th, uint32_t w)
{
    TTTensixMop *m = &th->mop;

    *m = (TTTensixMop) { .active = true, .tmpl = tt_mop_mop_type(w) };
    memcpy(m->cfg, th->mop_cfg, sizeof(m->cfg));
    if (!m->tmpl) {
        m->outer = tt_mop_loop_count(w) + 1;
        m->mask = th->mop_mask_hi << 16 | tt_mop_zmask_lo16_or_loop_count(w);
        return;
    }
    m->outer = m->cfg[0] & 0x7f;
    m->inner = m->cfg[1] & 0x7f;
    /* hardware quirk: 129 outer iterations */
    if (m->outer == 1 && tt_is_nop(m->cfg[2]) && m->inner == 0 &&
        !tt_is_nop(m->cfg[3])) {
        m->outer += 128;
    }
    if (!tt_is_nop(m->cfg[6])) {
        m->inner *= 2;          /* alternating LoopOp and LoopOp1 */
    }
}

/*
 * Move words along while the queue has room for a replay's worth: from
 * the MOP expander, else from the FIFO into the MOP stage.
 */
static bool tt_pump(TTTensix *t, int thread)
{
    TTTensixThread *th = &t->th[thread];
    bool any = false;
    uint32_t w;

    while (th->count + 2 * TT_TENSIX_REPLAY <= TT_TENSIX_QUEUE) {
        if (th->mop.active) {
            if (tt_mop_next(&th->mop, &w)) {
                tt_replay_stage(t, thread, w);
            } else {
                tt_word_done(th, th->mop_enq);
            }
        } else if (th->fifo_count) {
            uint64_t enq0 = th->enqueued;

            w = th->fifo[th->fifo_head];
            th->fifo_head = (th->fifo_head + 1) % TT_TENSIX_FIFO;
            th->fifo_count--;
            if (w >> 24 == TT_OP_MOP) {
                tt_mop_start(th, w);
                th->mop_enq = enq0;
            } else if (w >> 24 == TT_OP_MOP_CFG) {
                th->mop_mask_hi = tt_mop_cfg_zmask_hi16(w);
                tt_word_done(th, enq0);
            } else {
                tt_replay_stage(t, thread, w);
                tt_word_done(th, enq0);
            }
        } else {
            break;
        }
        any = true;
    }
    return any;
}

/* The coprocessor whose threads this host thread is running, if any */
static __thread TTTensix *tt_running;

/* Nothing of the thread waits in the FIFO or the MOP expander */
static bool tt_expander_idle(TTTensixThread *th)
{
    return !th->fifo_count && !th->mop.active;
}

/* ------------------------------------------- Src hand-overs in flight -- */

/*
 * Core @role, which pushed @thread's last word, no longer runs: halted
 * (parked, held, stalled on another access), but not if only until its
 * store into @thread's full FIFO goes in: that store is its next word.
 */
static bool tt_pusher_stopped(TTTensix *t, int role, int thread)
{
    int park;

    if (!qatomic_read(&t->cpu[role]->halted)) {
        return false;
    }
    if (!(t->redo_push & BIT(role)) || t->wait_thread[role] != thread) {
        return true;
    }
    /* a core held or reset meanwhile redoes nothing */
    park = qatomic_read(&cpu_env(t->cpu[role])->tt_park);
    return park != TT_PARK_STALLED && park != TT_PARK_WOKEN;
}

/*
 * On hardware an UNPACR or UNPACR_NOP hands its Src bank to the matrix
 * unit only when it completes, many cycles after its push, and by then
 * the words its core pushed next are queued behind it.  Software relies
 * on that: tt-llk's _llk_unpack_A_ hands over a zeroed SrcB bank (an
 * UNPACR_NOP) with every face of SrcA, and the math thread releases both
 * banks together (SETRWC clear_ab_vld) once SrcA has arrived; were the
 * release to come between the two hand-overs, SrcB's banks would be out
 * of step for good and the threads would deadlock.  The model executes an
 * instruction as soon as it reaches the gate, so the core may not have
 * pushed the next word yet.  Hence an unpacker hand-over that leaves its
 * thread with nothing queued, while the pushing core runs, stays in
 * flight (TTTensix.flips) until the core has moved on: until the thread
 * stalls, the core accesses the coprocessor other than by pushing (TTSync,
 * semaphores, PC buffers), halts, parks, or runs TT_SPIN_QUIESCE loop
 * iterations without pushing (spin-park.c).  The matrix unit releasing a
 * bank in flight takes the hand-overs up to that one first, in order.  The
 * unpackers see a bank in flight as handed over.
 */
bool tt_src_defer(TTTensix *t, int thread, unsigned which, unsigned bank)
{
    TTTensixThread *th = &t->th[thread];

    /* @thread's current instruction is th->queue[th->head] */
    if (th->pusher < 0 || th->count > 1 || !tt_expander_idle(th) ||
        tt_pusher_stopped(t, th->pusher, thread) ||
        t->nflips == TT_TENSIX_FLIPS || tt_src_in_flight(t, which, bank)) {
        tt_src_publish(t);      /* the earlier ones arrive first */
        return false;
    }
    if (t->flip_thread != thread) {
        tt_src_publish(t);
        t->flip_thread = thread;
    }
    t->flips[t->nflips++] = which << 1 | bank;
    tt_spin_quiesce_watch(t->spin, th->pusher);
    tt_src_watch(t);
    return true;
}

/*
 * A core that halts in WFI right after a hand-over neither pushes, nor
 * loops, nor touches the coprocessor again, and a halted pusher is only
 * noticed by a run, which no other core may start (they may all wait on
 * that very hand-over).  So while hand-overs are in flight a timer looks
 * every TT_SRC_WATCH_NS and completes them once their core is halted.
 * Called locked.
 */
#define TT_SRC_WATCH_NS (10 * SCALE_MS)

void tt_src_watch(TTTensix *t)
{
    if (t->flip_watch && !timer_pending(t->flip_watch)) {
        timer_mod(t->flip_watch,
                  qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + TT_SRC_WATCH_NS);
    }
}

/* The first @n hand-overs in flight reach the matrix unit */
static void tt_src_publish_n(TTTensix *t, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        t->src[t->flips[i] >> 1].valid |= BIT(t->flips[i] & 1);
    }
    trace_tt_tensix_src_publish(t->tile_x, t->tile_y, t->flip_thread, n,
                                t->nflips);
    t->nflips -= n;
    memmove(t->flips, t->flips + n, t->nflips);
    if (!t->nflips) {
        t->flip_thread = -1;
    }
}

bool tt_src_publish(TTTensix *t)
{
    if (!t->nflips) {
        return false;
    }
    tt_src_publish_n(t, t->nflips);
    return true;
}

void tt_src_publish_through(TTTensix *t, unsigned which, unsigned bank)
{
    for (unsigned i = 0; i < t->nflips; i++) {
        if (t->flips[i] == (which << 1 | bank)) {
            tt_src_publish_n(t, i + 1);
            return;
        }
    }
}

/* Publish the hand-overs pushed by core @role, if any are pending */
static bool tt_src_publish_by(TTTensix *t, int role)
{
    return t->nflips && t->th[t->flip_thread].pusher == role &&
           tt_src_publish(t);
}

/* The pending hand-overs' core no longer runs (halted, parked, in reset) */
static bool tt_src_pusher_stopped(TTTensix *t)
{
    int role = t->nflips ? t->th[t->flip_thread].pusher : -1;

    return role >= 0 && tt_pusher_stopped(t, role, t->flip_thread);
}

/*
 * Run every thread as far as its gate and units allow; true if anything
 * ran.  The threads take turns, one instruction each, as the hardware
 * issues them (and ttsim clocks them): software relies on an instruction
 * unblocked in one thread running before another thread gets far ahead,
 * e.g. tt-llk's UNPACR_NOP filling a SrcB bank before the math thread's
 * SETRWC hands that bank back.
 */
bool tt_tensix_run(TTTensix *t)
{
    bool any = false, progress = true;
    /*
     * Steps taken in this run, and the step at which each thread's head
     * was last held: with the lock held nothing else changes what holds
     * it, so until the next step it is held still and not tried again
     * (unless the vector unit's pipeline moves meanwhile)
     */
    unsigned steps = 0, held_at[TT_TENSIX_THREADS];

    memset(held_at, 0xff, sizeof(held_at));
    tt_running = t;
    while (progress) {
        progress = false;
        for (int i = 0; i < TT_TENSIX_THREADS; i++) {
            TTTensixThread *th = &t->th[i];
            bool try = th->count &&
                       (held_at[i] != steps || unlikely(tt_sfpu_busy(t)));

            if (try && tt_execute(t, i, th->queue[th->head].insn)) {
                if (th->queue[th->head].ends_push) {
                    th->pushes--;
                }
                th->head = (th->head + 1) % TT_TENSIX_QUEUE;
                th->count--;
                th->dequeued++;
                progress = any = true;
                steps++;
            } else {
                /* a held thread's hand-overs complete meanwhile */
                if (try) {
                    held_at[i] = steps;
                    if (i == t->flip_thread && tt_src_publish(t)) {
                        progress = any = true;
                        steps++;
                    }
                }
                if (unlikely(tt_sfpu_busy(t))) {
                    tt_sfpu_idle(t, i); /* cycles pass with nothing issued */
                }
            }
            if (th->count < 2 * TT_TENSIX_REPLAY && tt_pump(t, i)) {
                progress = any = true;
                steps++;
            }
        }
        if (!progress && tt_src_pusher_stopped(t)) {
            progress = any = tt_src_publish(t);
            steps++;
        }
    }
    tt_running = NULL;
    return any;
}

/* ------------------------------------------------------------- pushes -- */

/*
 * Cores halted by the coprocessor.  Each core waits for at most one thing;
 * the condition is re-checked whenever a thread runs (tt_release_waiters).
 */
static bool tt_wait_done(TTTensix *t, int kind, int thread)
{
    TTTensixThread *th = &t->th[thread];

    switch (kind) {
    case TT_WAIT_FIFO:          /* room for the stalled push */
        return th->pushes < TT_TENSIX_FIFO_SOFT;
    case TT_WAIT_SYNC:          /* no instruction of the thread in flight */
        return th->count == 0 && tt_expander_idle(th);
    case TT_WAIT_MOP:
        return tt_expander_idle(th);
    case TT_WAIT_PCBUF:
        return th->pcbuf_count > 0;
    case TT_WAIT_PCBUF_FULL:
        return th->pcbuf_count < TT_TENSIX_PCBUF_DEPTH;
    default:                    /* BARRIER (PCBufs.md) */
        return th->pcbuf_count == 0 && th->count == 0 &&
               tt_expander_idle(th) &&
               t->wait_kind[TT_TRISC0 + thread] == TT_WAIT_PCBUF;
    }
}

void tt_tensix_release_waiters(TTTensix *t)
{
    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        CPUState *cs = t->cpu[r];

        if (t->wait_kind[r] < 0 ||
            !tt_wait_done(t, t->wait_kind[r], t->wait_thread[r])) {
            continue;
        }
        t->wait_kind[r] = -1;
        if (qatomic_cmpxchg(&cpu_env(cs)->tt_park, TT_PARK_STALLED,
                            TT_PARK_WOKEN) == TT_PARK_STALLED) {
            if (t->spin) {
                tt_spin_kick(t->spin, r);
            } else {
                qemu_cpu_kick(cs);
            }
        }
    }
}

/*
 * Halt core @role (the current CPU) until @kind clears on @thread; the
 * access that found the condition (a blocking load, or a store that
 * cannot complete yet) is re-executed afterwards: leave the translation
 * block at once with the PC on the access.  Called locked; unlocks and
 * does not return, unless the access is not a core's (gdb, qtest): then
 * it returns false and the access completes without waiting.
 */
static bool tt_wait(TTTensix *t, int role, int kind, int thread)
{
    CPUState *cs = current_cpu;

    if (!cs || cs != t->cpu[role] || !cs->mem_io_pc) {
        return false;
    }
    t->wait_kind[role] = kind;
    t->wait_thread[role] = thread;
    tt_tensix_release_waiters(t);      /* a barrier may wait for this wait */
    trace_tt_tensix_core_wait(t->tile_x, t->tile_y, role, kind, thread);
    qatomic_set(&cpu_env(cs)->tt_park, TT_PARK_STALLED);
    /*
     * Halted before the lock goes, also while it spins: a run from here on
     * takes the core as stopped and completes its Src hand-overs
     * (tt_src_pusher_stopped())
     */
    qatomic_set(&cs->halted, 1);
    qemu_mutex_unlock(&t->lock);
    if (tt_spin_briefly(t->spin, &cpu_env(cs)->tt_park, TT_PARK_STALLED)) {
        /* released while spinning: redo the access at once */
        qatomic_set(&cs->halted, 0);
        qatomic_set(&cpu_env(cs)->tt_park, TT_PARK_RUNNING);
    } else {
        /* a release after the spin leaves TT_PARK_WOKEN: has_work sees it */
        cpu_exit(cs);           /* leave the execution loop: it is halted */
    }
    cpu_loop_exit_restore(cs, cs->mem_io_pc);
}

/*
 * The lock, taken by every push of the tile's cores.  A push holds it for
 * microseconds (it runs the coprocessor), and a futex sleep and wake-up on
 * a contended lock cost more than that: spin on it first for up to
 * TT_LOCK_SPIN_NS, as MTTCG runs the holder on another host CPU.
 */
#define TT_LOCK_SPIN_NS 20000

static void tt_tensix_lock(TTTensix *t)
{
    int64_t t0;

    if (!qemu_mutex_trylock(&t->lock)) {
        return;
    }
    if (qemu_tcg_mttcg_enabled()) {
        t0 = get_clock();
        do {
            for (int i = 0; i < 32; i++) {
                cpu_relax();
            }
            if (!qemu_mutex_trylock(&t->lock)) {
                return;
            }
        } while (get_clock() - t0 < TT_LOCK_SPIN_NS);
    }
    qemu_mutex_lock(&t->lock);
}

/*
 * A word pushed to a thread with nothing queued, expanding or recording
 * runs at once when it can: every thread was left held or empty by the
 * last run, and only a run or a step of its own changes that, so it is
 * the one instruction that may go now, as in a run, without the queues
 * and a run's turns.  False if it is held (or expands): it queues.
 */
static bool tt_push_direct(TTTensix *t, int thread, uint32_t w)
{
    TTTensixThread *th = &t->th[thread];
    unsigned op = w >> 24;
    bool done;

    if (th->count || !tt_expander_idle(th) || th->replay_left ||
        op == TT_OP_MOP || op == TT_OP_MOP_CFG || op == TT_OP_REPLAY) {
        return false;
    }
    tt_running = t;             /* as in a run: STOREREG may reach the tile */
    done = tt_execute(t, thread, w);
    tt_running = NULL;
    return done;
}

/* Some thread holds or expands words, or something is left in flight */
static bool tt_tensix_pending(TTTensix *t)
{
    for (int i = 0; i < TT_TENSIX_THREADS; i++) {
        if (t->th[i].count || !tt_expander_idle(&t->th[i])) {
            return true;
        }
    }
    return t->nflips || tt_sfpu_busy(t);
}

/*
 * Whether word @w, run at once while no SFPLOADMACRO is pending, changes
 * nothing a held thread, a unit hold, a mutex or a core waits for.  The
 * Vector Unit changes only LRegs and Dst (the cores do not see Dst);
 * INCRWC only its own thread's RWCs.  A vector-unit kernel pushes such
 * words back to back (tt-llk's loops: SFP words, then INCRWC to the next
 * rows): they need no run of the other threads and no wake-up.
 */
static bool tt_push_quiet(uint32_t w)
{
    return tt_tensix_isa[w >> 24].unit == TT_UNIT_SFPU ||
           w >> 24 == TT_OP_INCRWC;
}

/*
 * Push word @w to @thread for core @role, the lock held and the FIFO known
 * to have room; true if something ran that a core or a held thread may
 * have waited for
 */
static bool tt_push_locked(TTTensix *t, int role, int thread, uint32_t w,
                           bool before_mop)
{
    TTTensixThread *th = &t->th[thread];
    uint64_t enq0;

    t->redo_push &= ~BIT(role);
    if (current_cpu == t->cpu[role]) {
        tt_spin_pushed(t->spin, role);
    }
    trace_tt_tensix_push(t->tile_x, t->tile_y, thread, tt_op_name(w), w);
    if (before_mop && th->fifo_count == TT_TENSIX_FIFO) {
        /* only a push that halts no core (qtest, gdb) gets here */
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d tensix T%d: instruction "
                      "FIFO full: 0x%08x dropped\n", t->tile_x, t->tile_y,
                      thread, w);
        return false;
    }
    th->pushes++;
    if (th->pusher != (current_cpu == t->cpu[role] ? role : -1)) {
        /* hand-overs wait for the core that pushed them, not another */
        if (t->flip_thread == thread) {
            tt_src_publish(t);
        }
        th->pusher = current_cpu == t->cpu[role] ? role : -1;
    }
    if (before_mop) {
        bool sfpu_idle = !tt_sfpu_busy(t);

        if (tt_push_direct(t, thread, w)) {
            th->pushes--;
            if (sfpu_idle && !tt_sfpu_busy(t) && tt_push_quiet(w)) {
                return false;   /* no run, no wake-up */
            }
            if (tt_tensix_pending(t)) {
                tt_tensix_run(t);   /* what it may have unblocked */
            }
            return true;
        }
    }
    if (before_mop) {
        th->fifo[(th->fifo_head + th->fifo_count++) % TT_TENSIX_FIFO] = w;
    } else {                    /* BRISC: after the MOP expander */
        enq0 = th->enqueued;
        tt_replay_stage(t, thread, w);
        tt_word_done(th, enq0);
    }
    return tt_tensix_run(t);
}

/* After pushes of core @role: hand-overs, waiters, unlock, wake-ups */
static void tt_push_done(TTTensix *t, int role, bool ran)
{
    if (t->flip_thread >= 0 && t->th[t->flip_thread].pusher == role) {
        /* count the core's loop iterations from this push on */
        tt_spin_quiesce_watch(t->spin, role);
    }
    tt_tensix_release_waiters(t);
    qemu_mutex_unlock(&t->lock);
    if (ran) {
        tt_spin_wake(t->spin);      /* semaphores, config, GPRs changed */
    }
}

static void tt_push(TTTensix *t, int role, int thread, uint32_t w,
                    bool before_mop)
{
    tt_tensix_lock(t);
    /* a full FIFO stalls the store: it completes once a word drains */
    if (t->th[thread].pushes >= TT_TENSIX_FIFO_SOFT) {
        t->redo_push |= BIT(role);
        tt_wait(t, role, TT_WAIT_FIFO, thread);
    }
    tt_push_done(t, role, tt_push_locked(t, role, thread, w, before_mop));
}

/*
 * An inline Tensix word of a TRISC (target/riscv/tt_tensix.c): the push
 * its store to the instruction buffer makes, without the TLB lookup and
 * the MMIO dispatch around it
 */
void tt_tensix_push_inline(CPURISCVState *env, uint32_t w, uintptr_t ra)
{
    TTTensixPort *p = env->tt_push_opaque;

    env_cpu(env)->mem_io_pc = ra;   /* tt_wait() restarts the push here */
    tt_push(p->t, p->role, p->role - TT_TRISC0, w, true);
}

/*
 * A run of @n inline words, pushed under one hold of the lock, with one
 * release of waiters and one wake-up: as many as go without waiting for
 * FIFO room (the rest take tt_tensix_push_inline(), which may wait).
 */
uint32_t tt_tensix_push_run(CPURISCVState *env, const uint32_t *w,
                            uint32_t n)
{
    TTTensixPort *p = env->tt_push_opaque;
    TTTensix *t = p->t;
    int thread = p->role - TT_TRISC0;
    bool ran = false;
    uint32_t k;

    tt_tensix_lock(t);
    for (k = 0; k < n && t->th[thread].pushes < TT_TENSIX_FIFO_SOFT; k++) {
        ran |= tt_push_locked(t, p->role, thread, w[k], true);
    }
    tt_push_done(t, p->role, ran);
    return k;
}

/*
 * Core @role ran TT_SPIN_QUIESCE loop iterations since its last push, or
 * parks (spin-park.c): its pending hand-overs complete
 */
void tt_tensix_quiesce(void *opaque, int role)
{
    TTTensix *t = opaque;
    bool ran = false;

    tt_tensix_lock(t);
    if (tt_src_publish_by(t, role)) {
        tt_tensix_run(t);
        tt_tensix_release_waiters(t);
        ran = true;
    }
    qemu_mutex_unlock(&t->lock);
    if (ran) {
        tt_spin_wake(t->spin);
    }
}

/* TT_SRC_WATCH_NS after a hand-over went in flight (tt_src_watch()) */
void tt_src_watch_expired(void *opaque)
{
    TTTensix *t = opaque;
    bool ran = false;

    tt_tensix_lock(t);
    if (tt_src_pusher_stopped(t) && tt_src_publish(t)) {
        tt_tensix_run(t);
        tt_tensix_release_waiters(t);
        ran = true;
    }
    if (t->nflips) {
        tt_src_watch(t);
    }
    qemu_mutex_unlock(&t->lock);
    if (ran) {
        tt_spin_wake(t->spin);
    }
}

static void tt_push_write(void *opaque, hwaddr addr, uint64_t val,
                          unsigned size)
{
    TTTensixPort *p = opaque;
    int window = addr >> 16;

    switch (p->role) {
    case TT_BRISC:              /* threads 0-2, after the MOP expander */
        tt_push(p->t, p->role, window, val, false);
        break;
    case TT_NCRISC:
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d: NCRISC cannot push Tensix "
                      "instructions (0x%08" PRIx64 " dropped)\n",
                      p->t->tile_x, p->t->tile_y, val);
        break;
    default:
        if (window) {
            qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d: TRISC%d push to another "
                          "thread's buffer 0x%" HWADDR_PRIx " (hangs on "
                          "hardware) dropped\n", p->t->tile_x, p->t->tile_y,
                          p->role - TT_TRISC0, TT_TILE_INSTRN_BUF_BASE + addr);
            break;
        }
        tt_push(p->t, p->role, p->role - TT_TRISC0, val, true);
    }
}

static uint64_t tt_push_read(void *opaque, hwaddr addr, unsigned size)
{
    qemu_log_mask(LOG_GUEST_ERROR, "tensix: the instruction buffer is "
                  "write-only\n");
    return 0;
}

const MemoryRegionOps tt_tensix_push_ops = {
    .read = tt_push_read,
    .write = tt_push_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

/* ------------------------- PC buffers, TTSync and semaphores (PCBufs.md) -- */

#define TT_PCBUF_WINDOW     0x10000     /* BRISC: one per TRISC */
#define TT_PCBUF_POP        0x0         /* TRISC: pop its buffer */
#define TT_PCBUF_SYNC       0x4         /* CoprocessorDoneCheck */
#define TT_PCBUF_MOP_SYNC   0x8         /* MOPExpanderDoneCheck */
#define TT_PCBUF_SEM0       0x20        /* semaphores 0-7 (SyncUnit.md) */

/* BRISC: a write pushes into thread @i's buffer, a read is a barrier */
static uint32_t tt_pcbuf_brisc(TTTensix *t, int i, uint32_t val, bool write)
{
    TTTensixThread *th = &t->th[i];

    if (!write) {
        if (!tt_wait_done(t, TT_WAIT_BARRIER, i)) {
            tt_wait(t, TT_BRISC, TT_WAIT_BARRIER, i);
        }
        return 0;
    }
    if (th->pcbuf_count == TT_TENSIX_PCBUF_DEPTH) {
        if (tt_wait(t, TT_BRISC, TT_WAIT_PCBUF_FULL, i)) {
            return 0;   /* not reached */
        }
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d: PC buffer %d full: 0x%x "
                      "dropped\n", t->tile_x, t->tile_y, i, val);
        return 0;
    }
    th->pcbuf[(th->pcbuf_head + th->pcbuf_count++) % TT_TENSIX_PCBUF_DEPTH] =
        val;
    tt_tensix_release_waiters(t);
    return 0;
}

/* TRISC @i: its own buffer, TTSync and the semaphores */
static uint32_t tt_pcbuf_trisc(TTTensix *t, int i, hwaddr addr, uint32_t val,
                               bool write)
{
    TTTensixThread *th = &t->th[i];
    uint32_t v;

    if (addr >= TT_PCBUF_SEM0 && addr < TT_PCBUF_SEM0 + 4 * TT_TENSIX_SEMS) {
        if (!write) {
            return t->sem_val[(addr - TT_PCBUF_SEM0) / 4];
        }
        /* bit 0 set: like SEMGET, clear: like SEMPOST (SyncUnit.md) */
        tt_sync_sem_update(t, BIT((addr - TT_PCBUF_SEM0) / 4),
                           val & 1 ? -1 : 1);
        tt_tensix_run(t);
        tt_tensix_release_waiters(t);
        return 0;
    }
    switch (addr) {
    case TT_PCBUF_POP:
        if (write) {
            return 0;           /* discarded */
        }
        if (!th->pcbuf_count && !tt_wait(t, TT_TRISC0 + i, TT_WAIT_PCBUF,
                                         i)) {
            return 0;           /* not a core's access: nothing to wait for */
        }
        v = th->pcbuf[th->pcbuf_head];
        th->pcbuf_head = (th->pcbuf_head + 1) % TT_TENSIX_PCBUF_DEPTH;
        th->pcbuf_count--;
        tt_tensix_release_waiters(t);
        return v;
    case TT_PCBUF_SYNC:
        /* the load completes once the thread has nothing in flight */
        if (!write && !tt_wait_done(t, TT_WAIT_SYNC, i)) {
            tt_wait(t, TT_TRISC0 + i, TT_WAIT_SYNC, i);
        }
        return 0;
    case TT_PCBUF_MOP_SYNC:     /* the load completes once MOPs expanded */
        if (!write && !tt_expander_idle(th)) {
            tt_wait(t, TT_TRISC0 + i, TT_WAIT_MOP, i);
        }
        return 0;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d TRISC%d: PC buffer %s at 0x%"
                  HWADDR_PRIx " (undocumented) ignored\n", t->tile_x,
                  t->tile_y, i, write ? "write" : "read",
                  TT_TILE_PC_BUF_BASE + addr);
    return 0;
}

static uint32_t tt_pcbuf_access(TTTensixPort *p, hwaddr addr, uint32_t val,
                                bool write)
{
    TTTensix *t = p->t;
    int win = addr / TT_PCBUF_WINDOW;
    uint32_t r = 0;

    if (p->role == TT_NCRISC || (p->role != TT_BRISC && win)) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d %s: no PC buffer at 0x%"
                      HWADDR_PRIx "\n", t->tile_x, t->tile_y,
                      tt_core_role_name[p->role], TT_TILE_PC_BUF_BASE + addr);
        return 0;
    }
    tt_tensix_lock(t);      /* a blocking access unlocks and leaves */
    /* the core has moved on: what it handed over arrives (and may run) */
    if (current_cpu == t->cpu[p->role] && tt_src_publish_by(t, p->role)) {
        tt_tensix_run(t);
        tt_tensix_release_waiters(t);
        tt_spin_wake(t->spin);
    }
    if (p->role == TT_BRISC) {
        r = tt_pcbuf_brisc(t, win, val, write);
    } else {
        r = tt_pcbuf_trisc(t, p->role - TT_TRISC0, addr, val, write);
    }
    qemu_mutex_unlock(&t->lock);
    if (write) {
        tt_spin_wake(t->spin);
    }
    return r;
}

static uint64_t tt_pcbuf_read(void *opaque, hwaddr addr, unsigned size)
{
    return tt_pcbuf_access(opaque, addr, 0, false);
}

static void tt_pcbuf_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    tt_pcbuf_access(opaque, addr, val, true);
}

const MemoryRegionOps tt_tensix_pcbuf_ops = {
    .read = tt_pcbuf_read,
    .write = tt_pcbuf_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

/* -------------------- MOP configuration, T_i only (MOPExpander.md) -- */

static uint64_t tt_mopcfg_read(void *opaque, hwaddr addr, unsigned size)
{
    qemu_log_mask(LOG_GUEST_ERROR, "tensix: MOP config is write-only\n");
    return 0;
}

static void tt_mopcfg_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    TTTensixPort *p = opaque;

    if (p->role < TT_TRISC0 || addr / 4 >= TT_TENSIX_MOP_CFG) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d %s: MOP config write 0x%"
                      HWADDR_PRIx " ignored\n", p->t->tile_x, p->t->tile_y,
                      tt_core_role_name[p->role], TT_TILE_MOP_CFG_BASE + addr);
        return;
    }
    QEMU_LOCK_GUARD(&p->t->lock);
    p->t->th[p->role - TT_TRISC0].mop_cfg[addr / 4] = val;
}

const MemoryRegionOps tt_tensix_mopcfg_ops = {
    .read = tt_mopcfg_read,
    .write = tt_mopcfg_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

/* ------------------------------------------------- monitor and hangs -- */

static const char *const tt_wait_kind_name[TT_WAIT_KINDS] = {
    "a full instruction FIFO", "TTSync (thread draining)",
    "MOP sync (expander draining)",
    "its empty PC buffer", "a full PC buffer", "a PC buffer barrier",
};

/* What core @role waits on in the coprocessor, or NULL */
const char *tt_tensix_core_wait(TTTensix *t, int role, int *thread)
{
    int k = qatomic_read(&t->wait_kind[role]);

    *thread = t->wait_thread[role];
    return k < 0 ? NULL : tt_wait_kind_name[k];
}

void tt_tensix_frontend_dump(TTTensix *t, int i, GString *out)
{
    TTTensixThread *th = &t->th[i];
    TTTensixRwc *r = &th->rwc;

    g_string_append_printf(out, "  thread %d: %u queued (%u pushed words), "
                           "%" PRIu64 " executed, config state %d",
                           i, th->count, th->pushes, th->executed,
                           tt_cfg_state(t, i));
    if (th->count) {
        g_string_append_printf(out, ", next %s",
                               tt_op_name(th->queue[th->head].insn));
    }
    if (th->fifo_count) {
        g_string_append_printf(out, ", %u words before the MOP expander",
                               th->fifo_count);
    }
    if (th->mop.active) {
        g_string_append_printf(out, ", MOP template %u expanding (outer %u "
                               "of %u)", th->mop.tmpl, th->mop.i + 1,
                               th->mop.outer);
    }
    if (th->latch.op) {
        g_string_append_printf(out, ", gate held by %s (block 0x%03x, "
                               "cond 0x%x, sems 0x%02x, stream %d >= %u)",
                               tt_tensix_isa[th->latch.op].name,
                               th->latch.block, th->latch.cond,
                               th->latch.sems, th->latch.stream,
                               th->latch.target);
    }
    g_string_append_printf(out, "\n    PC buffer %u words; RWC srca %u/%u "
                           "srcb %u/%u dst %u/%u fidelity %u\n",
                           th->pcbuf_count, r->srca, r->srca_cr, r->srcb,
                           r->srcb_cr, r->dst, r->dst_cr, r->fidelity);
    for (int u = 0; u < 3; u++) {
        TTTensixAdc *a = &th->adc[u];

        g_string_append_printf(out, "    ADC %s: ch0 x%u y%u z%u w%u, ch1 "
                               "x%u y%u z%u w%u\n",
                               u == 2 ? "pack" : u ? "unp1" : "unp0",
                               a->val[0][0], a->val[0][1], a->val[0][2],
                               a->val[0][3], a->val[1][0], a->val[1][1],
                               a->val[1][2], a->val[1][3]);
    }
}

/* A stream register changed: a thread may be held by STREAMWAIT */
void tt_tensix_stream_changed(void *opaque, int n, int level)
{
    TTTensix *t = opaque;
    bool waiting = false;

    for (int i = 0; i < TT_TENSIX_THREADS; i++) {
        waiting |= qatomic_read(&t->th[i].latch.op) == TT_OP_STREAMWAIT;
    }
    if (!waiting) {
        return;
    }
    if (tt_running == t) {
        /* a STOREREG of this tile: the running loop re-evaluates latches */
        return;
    }
    tt_tensix_lock(t);
    tt_tensix_run(t);
    tt_tensix_release_waiters(t);
    qemu_mutex_unlock(&t->lock);
    tt_spin_wake(t->spin);
}

