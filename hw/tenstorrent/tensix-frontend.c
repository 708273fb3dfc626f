/*
 * Tenstorrent Blackhole Tensix coprocessor, part 1: instruction delivery,
 * front end, synchronisation and configuration (tensix-coprocessor.md).
 *
 * Pushes arrive as 32-bit stores: a TRISC's inline Tensix words become a
 * store to 0xFFE40000 (target/riscv/xtttensix.decode), tt-llk's TT_*
 * macros store there directly, and BRISC pushes into threads 0-2 at
 * 0xFFE40000/0xFFE50000/0xFFE60000 after the MOP expander.
 *
 * The model is functional and synchronous: the MOP and replay expanders
 * run at push time, and the back end executes each instruction as soon as
 * the thread's wait gate lets it (every unit is idle at once).  A thread
 * held by SEMWAIT or ATGETM queues what follows; when its pushed words
 * exceed the FIFO's 28 entries the pushing core is halted after its store
 * until the thread drains.  Everything runs under one lock per tile, never
 * the BQL.
 *
 * Instructions whose execution belongs to later work (unpack, pack, FPU,
 * SFPU, mover) are decoded through the generated table, counted per
 * opcode and logged as unimplemented.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/lockable.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/core/cpu.h"
#include "migration/vmstate.h"
#include "target/riscv/cpu.h"
#include "hw/tenstorrent/tensix-frontend.h"
#include "hw/tenstorrent/spin-park.h"
#include "hw/tenstorrent/noc-overlay.h"
#include "tt-tensix-isa.h"      /* generated from data/tensix-isa.yaml */
#include "trace.h"

static const char *tt_op_name(uint32_t insn)
{
    const char *n = tt_tensix_isa[insn >> 24].name;

    return n ? n : "(unknown)";
}

void tt_tensix_disas(uint32_t w, GString *out)
{
    const TTTensixOpInfo *op = &tt_tensix_isa[w >> 24];

    if (!op->name) {
        g_string_append_printf(out, ".ttinsn 0x%08x", w);
        return;
    }
    g_string_append(out, op->name);
    for (int i = 0; i < op->nfields; i++) {
        g_string_append_printf(out, "%s%s=%u", i ? "," : " ",
                               op->fields[i].name,
                               extract32(w, op->fields[i].lsb,
                                         op->fields[i].width));
    }
}

/* ---------------------------------------------------------- back end -- */

static bool tt_sem_holds(TTTensix *t, uint32_t sems, uint32_t cond)
{
    for (int i = 0; i < TT_TENSIX_SEMS; i++) {
        if (!(sems & BIT(i))) {
            continue;
        }
        /* bit 0: hold while zero; bit 1: hold while at max (SyncUnit.md) */
        if (((cond & 1) && t->sem_val[i] == 0) ||
            ((cond & 2) && t->sem_val[i] >= t->sem_max[i])) {
            return true;
        }
    }
    return false;
}

static void tt_sem_update(TTTensix *t, uint32_t sems, int delta)
{
    for (int i = 0; i < TT_TENSIX_SEMS; i++) {
        if (sems & BIT(i)) {
            int v = t->sem_val[i] + delta;

            /* SEMPOST stops at 15, SEMGET at 0 (ISA doc, 5.4) */
            t->sem_val[i] = MAX(0, MIN(15, v));
            trace_tt_tensix_sem(t->tile_x, t->tile_y, i, t->sem_val[i]);
        }
    }
}

static bool tt_mutex_valid(TTTensix *t, uint32_t m)
{
    if (m < TT_TENSIX_MUTEXES && m != 1) {
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d tensix: mutex %u does not exist "
                  "on Blackhole (0, 2, 3, 4)\n", t->tile_x, t->tile_y, m);
    return false;
}

/* Config word @reg of the thread's current state (ThreadConfig word 0) */
static uint32_t *tt_cfg_word(TTTensix *t, int thread, uint32_t reg)
{
    int state = t->th[thread].thread_cfg[0] & 1;

    if (reg >= TT_TENSIX_CFG_WORDS) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d tensix: config word %u out of "
                      "range\n", t->tile_x, t->tile_y, reg);
        return NULL;
    }
    return &t->cfg[state][reg];
}

static void tt_cfg_write(TTTensix *t, int state, uint32_t reg, uint32_t val)
{
    t->cfg[state][reg] = val;
    if (reg >= TT_TENSIX_GLOBAL_CFG) {
        t->cfg[!state][reg] = val;  /* global words live in both states */
    }
}

/*
 * CFGSHIFTMASK (CFGSHIFTMASK.md): combine a masked, rotated scratch word
 * (config words 209-211; selector 3 is the thread's own) into a config
 * word of the thread's state.
 */
#define TT_CFG_SCRATCH  209

static void tt_cfgshiftmask(TTTensix *t, int thread, uint32_t w)
{
    int state = t->th[thread].thread_cfg[0] & 1, rot;
    uint32_t sel = tt_cfgshiftmask_scratch_sel(w), reg, sc, mask, cfg, op;

    reg = tt_cfgshiftmask_cfg_reg(w);
    if (reg >= TT_TENSIX_CFG_WORDS) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d tensix: CFGSHIFTMASK config "
                      "word %u out of range\n", t->tile_x, t->tile_y, reg);
        return;
    }
    rot = tt_cfgshiftmask_right_cshift_amt(w);
    mask = tt_cfgshiftmask_mask_width(w) == 31 ? UINT32_MAX
           : (2u << tt_cfgshiftmask_mask_width(w)) - 1;
    sc = ror32(t->cfg[state][TT_CFG_SCRATCH + (sel < 3 ? sel : thread)] &
               mask, rot);
    cfg = t->cfg[state][reg];
    if (!tt_cfgshiftmask_disable_mask_on_old_val(w)) {
        cfg &= ~ror32(mask, rot);
    }
    /* modes 4-6 use the complement of the masked, rotated scratch */
    op = tt_cfgshiftmask_operation(w);
    if (op >= 4 && op <= 6) {
        sc = ~sc;
    }
    switch (op & 3) {
    case 0:
        cfg |= sc;
        break;
    case 1:
        cfg &= sc;
        break;
    case 2:
        cfg ^= sc;
        break;
    default:
        cfg = op == 3 ? cfg + sc : cfg - sc;
    }
    tt_cfg_write(t, state, reg, cfg);
}

static void tt_exec_cfg(TTTensix *t, int thread, uint32_t w)
{
    TTTensixThread *th = &t->th[thread];
    uint32_t op = w >> 24, *word;

    switch (op) {
    case TT_OP_SETC16:
        if (tt_setc16_setc16_reg(w) < TT_TENSIX_THREAD_CFG) {
            th->thread_cfg[tt_setc16_setc16_reg(w)] = tt_setc16_setc16_value(w);
        }
        break;
    case TT_OP_WRCFG:
        word = tt_cfg_word(t, thread, tt_wrcfg_cfg_reg(w));
        if (word) {
            int n = tt_wrcfg_wr128b(w) ? 4 : 1;
            uint32_t reg = tt_wrcfg_cfg_reg(w) & ~(n - 1);
            uint32_t gpr = tt_wrcfg_gpr_address(w) & ~(n - 1);

            for (int i = 0; i < n && reg + i < TT_TENSIX_CFG_WORDS; i++) {
                tt_cfg_write(t, th->thread_cfg[0] & 1, reg + i,
                             th->gpr[(gpr + i) % TT_TENSIX_GPRS]);
            }
        }
        break;
    case TT_OP_RDCFG:
        word = tt_cfg_word(t, thread, tt_rdcfg_cfg_reg(w));
        if (word) {
            th->gpr[tt_rdcfg_gpr_address(w) % TT_TENSIX_GPRS] = *word;
        }
        break;
    case TT_OP_CFGSHIFTMASK:
        tt_cfgshiftmask(t, thread, w);
        break;
    default:                    /* RMWCIB0..3: byte lane = opcode - RMWCIB0 */
        word = tt_cfg_word(t, thread, tt_rmwcib0_cfg_reg_addr(w));
        if (word) {
            int sh = 8 * (op - TT_OP_RMWCIB0);
            uint32_t mask = tt_rmwcib0_mask(w) << sh;

            tt_cfg_write(t, 0, tt_rmwcib0_cfg_reg_addr(w),
                         (t->cfg[0][tt_rmwcib0_cfg_reg_addr(w)] & ~mask) |
                         ((tt_rmwcib0_data(w) << sh) & mask));
        }
    }
}

/* ------------------------------------------------------- the wait gate -- */

/* ThreadConfig words of STREAMWAIT (tensix_regs.json thread_cfg) */
#define TT_TC_STREAMWAIT_PHASE_HI   57
#define TT_TC_STREAMWAIT_MSGS_HI    58
#define TT_TC_STREAM_ID_SYNC        59
/* Stream registers STREAMWAIT compares (noc_overlay_parameters.h) */
#define TT_STREAM_CURR_PHASE        29
#define TT_STREAM_NUM_MSGS_RECEIVED 259

/* True while the latched wait's condition keeps the gate closed */
static bool tt_latch_holds(TTTensix *t, TTTensixLatch *l)
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
        /*
         * STALLWAIT: every unit finishes each instruction before the next
         * one is considered, so the busy conditions (C0-C4, C9-C12) hold
         * at once; C5-C8 (Src bank ownership) belong to the unpacker and
         * matrix unit models, which do not exist yet: satisfied too.
         */
        return false;
    }
}

/* Latch a wait instruction (STALLWAIT.md, SEMWAIT.md, STREAMWAIT.md) */
static void tt_latch(TTTensix *t, int thread, uint32_t w)
{
    TTTensixThread *th = &t->th[thread];
    TTTensixLatch *l = &th->latch;
    uint32_t sel;

    *l = (TTTensixLatch) { .op = w >> 24, .block = tt_stallwait_stall_res(w) };
    switch (l->op) {
    case TT_OP_STALLWAIT:
        l->cond = tt_stallwait_wait_res(w) ?: 0xf;
        break;
    case TT_OP_SEMWAIT:
        l->sems = tt_semwait_sem_sel(w);
        l->cond = tt_semwait_wait_sem_cond(w);
        if (!l->cond) {
            qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d tensix T%d: SEMWAIT with "
                          "no condition (undefined): ignored\n", t->tile_x,
                          t->tile_y, thread);
            l->op = 0;
        }
        break;
    default:                    /* STREAMWAIT */
        l->cond = tt_streamwait_target_sel(w);
        sel = tt_streamwait_wait_stream_sel(w);
        l->stream = th->thread_cfg[TT_TC_STREAM_ID_SYNC + sel] & 0x3f;
        l->target = (th->thread_cfg[l->cond ? TT_TC_STREAMWAIT_MSGS_HI
                                            : TT_TC_STREAMWAIT_PHASE_HI] &
                     (l->cond ? 0x7f : 0x3ff)) << 10 |
                    tt_streamwait_target_value(w);
    }
    if (!l->block) {
        l->block = BIT(6);      /* B6, math, when none is given */
    }
}

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
    if (!tt_latch_holds(t, l)) {
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
 * Execute @w on @thread, or return false if the wait gate holds it (the
 * instruction then stays first in the queue).
 */
static bool tt_execute(TTTensix *t, int thread, uint32_t w)
{
    TTTensixThread *th = &t->th[thread];
    uint32_t op = w >> 24;

    if (tt_gate_holds(t, thread, w)) {
        return false;
    }
    switch (op) {
    case TT_OP_NOP:
        break;
    case TT_OP_STALLWAIT:
    case TT_OP_SEMWAIT:
    case TT_OP_STREAMWAIT:
        tt_latch(t, thread, w);
        break;
    case TT_OP_SEMINIT:
        for (int i = 0; i < TT_TENSIX_SEMS; i++) {
            if (tt_seminit_sem_sel(w) & BIT(i)) {
                t->sem_val[i] = tt_seminit_init_value(w);
                t->sem_max[i] = tt_seminit_max_value(w);
            }
        }
        break;
    case TT_OP_SEMPOST:
        tt_sem_update(t, tt_sempost_sem_sel(w), 1);
        break;
    case TT_OP_SEMGET:
        tt_sem_update(t, tt_semget_sem_sel(w), -1);
        break;
    case TT_OP_ATGETM:
        if (tt_mutex_valid(t, tt_atgetm_mutex_index(w))) {
            uint8_t *owner = &t->mutex_owner[tt_atgetm_mutex_index(w)];

            if (*owner && *owner != thread + 1) {
                trace_tt_tensix_stall(t->tile_x, t->tile_y, thread, "ATGETM");
                return false;
            }
            if (!*owner) {
                trace_tt_tensix_mutex(t->tile_x, t->tile_y, thread,
                                      tt_atgetm_mutex_index(w), true);
            }
            *owner = thread + 1;
        }
        break;
    case TT_OP_ATRELM:
        if (tt_mutex_valid(t, tt_atrelm_mutex_index(w)) &&
            t->mutex_owner[tt_atrelm_mutex_index(w)] == thread + 1) {
            t->mutex_owner[tt_atrelm_mutex_index(w)] = 0;
            trace_tt_tensix_mutex(t->tile_x, t->tile_y, thread,
                                  tt_atrelm_mutex_index(w), false);
        }
        break;
    case TT_OP_SETC16:
    case TT_OP_WRCFG:
    case TT_OP_RDCFG:
    case TT_OP_RMWCIB0 ... TT_OP_RMWCIB3:
    case TT_OP_CFGSHIFTMASK:
        tt_exec_cfg(t, thread, w);
        break;
    default:
        if (tt_thcon_execute(t, thread, w)) {
            break;
        }
        t->unimp[op]++;
        if (!tt_tensix_isa[op].name) {
            /* no such instruction: skipped, like a NOP */
            qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d tensix T%d: unknown "
                          "opcode 0x%02x (0x%08x) skipped\n", t->tile_x,
                          t->tile_y, thread, op, w);
            break;
        }
        qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: %s (0x%08x) is decoded "
                      "but not executed yet\n", t->tile_x, t->tile_y, thread,
                      tt_op_name(w), w);
    }
    th->executed++;
    trace_tt_tensix_exec(t->tile_x, t->tile_y, thread, tt_op_name(w), w);
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
}

/* The coprocessor whose threads this host thread is running, if any */
static __thread TTTensix *tt_running;

/* Run every thread as far as its gate allows; true if anything ran */
static bool tt_run(TTTensix *t)
{
    bool any = false, progress = true;

    tt_running = t;
    while (progress) {
        progress = false;
        for (int i = 0; i < TT_TENSIX_THREADS; i++) {
            TTTensixThread *th = &t->th[i];

            while (th->count && tt_execute(t, i, th->queue[th->head].insn)) {
                if (th->queue[th->head].ends_push) {
                    th->pushes--;
                }
                th->head = (th->head + 1) % TT_TENSIX_QUEUE;
                th->count--;
                progress = any = true;
            }
        }
    }
    tt_running = NULL;
    return any;
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

/* Template 0 (MOPExpander.md): a masked loop of A0..A3 and B */
static void tt_mop_template0(TTTensix *t, int thread, uint32_t count,
                             uint32_t mask)
{
    uint32_t *c = t->th[thread].mop_cfg;
    bool has_b = c[1] & 1, has_a123 = c[1] & 2;

    for (uint32_t i = 0; i <= count; i++) {
        if (i < 32 && (mask & BIT(i))) {
            tt_replay_stage(t, thread, c[7]);
            if (has_b) {
                tt_replay_stage(t, thread, c[8]);
            }
            continue;
        }
        tt_replay_stage(t, thread, c[3]);
        for (int a = 4; a <= 6 && has_a123; a++) {
            tt_replay_stage(t, thread, c[a]);
        }
        if (has_b) {
            tt_replay_stage(t, thread, c[2]);
        }
    }
}

/* Template 1 (MOPExpander.md): nested loops for matmul */
static void tt_mop_template1(TTTensix *t, int thread)
{
    uint32_t *c = t->th[thread].mop_cfg;
    uint32_t outer = c[0] & 0x7f, inner = c[1] & 0x7f;
    bool toggle = !tt_is_nop(c[6]);

    /* hardware quirk (5.1): 129 outer iterations */
    if (outer == 1 && tt_is_nop(c[2]) && inner == 0 && !tt_is_nop(c[3])) {
        outer += 128;
    }
    if (toggle) {
        inner *= 2;
    }
    for (uint32_t o = 0; o < outer; o++) {
        if (!tt_is_nop(c[2])) {
            tt_replay_stage(t, thread, c[2]);
        }
        for (uint32_t i = 0; i < inner; i++) {
            uint32_t op = toggle && (i & 1) ? c[6] : c[5];

            if (i == inner - 1) {
                op = o == outer - 1 ? c[7] : c[8];
            }
            tt_replay_stage(t, thread, op);
        }
        for (int e = 3; e <= 4; e++) {
            if (!tt_is_nop(c[e])) {
                tt_replay_stage(t, thread, c[e]);
            }
        }
    }
}

static void tt_mop_stage(TTTensix *t, int thread, uint32_t w)
{
    TTTensixThread *th = &t->th[thread];

    switch (w >> 24) {
    case TT_OP_MOP_CFG:
        th->mop_mask_hi = tt_mop_cfg_zmask_hi16(w);
        break;
    case TT_OP_MOP:
        if (tt_mop_mop_type(w)) {
            tt_mop_template1(t, thread);
        } else {
            tt_mop_template0(t, thread, tt_mop_loop_count(w),
                             th->mop_mask_hi << 16 |
                             tt_mop_zmask_lo16_or_loop_count(w));
        }
        break;
    default:
        tt_replay_stage(t, thread, w);
    }
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
    case TT_WAIT_FIFO:
        return th->pushes <= TT_TENSIX_FIFO_SOFT;
    case TT_WAIT_SYNC:          /* no instruction of the thread in flight */
        return th->count == 0;
    case TT_WAIT_PCBUF:
        return th->pcbuf_count > 0;
    case TT_WAIT_PCBUF_FULL:
        return th->pcbuf_count < TT_TENSIX_PCBUF_DEPTH;
    default:                    /* BARRIER (PCBufs.md) */
        return th->pcbuf_count == 0 && th->count == 0 &&
               t->wait_kind[TT_TRISC0 + thread] == TT_WAIT_PCBUF;
    }
}

static void tt_release_waiters(TTTensix *t)
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
            qemu_cpu_kick(cs);
            tt_spin_kick_later(t->spin, r);
        }
    }
}

/*
 * Halt core @role (the current CPU) until @kind clears on @thread.  With
 * @retry the access that found the condition is re-executed afterwards (a
 * blocking load, or a store that cannot complete yet): leave the
 * translation block at once with the PC on the access.  Otherwise (the
 * store completed) the core stops after it.  Called locked; with @retry it
 * unlocks and does not return.  False if the access is not a core's (gdb,
 * qtest): it then completes without waiting.
 */
static bool tt_wait(TTTensix *t, int role, int kind, int thread, bool retry)
{
    CPUState *cs = current_cpu;

    if (!cs || cs != t->cpu[role] || !cs->mem_io_pc) {
        return false;
    }
    t->wait_kind[role] = kind;
    t->wait_thread[role] = thread;
    tt_release_waiters(t);      /* a barrier may wait for this wait */
    trace_tt_tensix_core_wait(t->tile_x, t->tile_y, role, kind, thread);
    qatomic_set(&cpu_env(cs)->tt_park, TT_PARK_STALLED);
    cs->halted = 1;
    cpu_exit(cs);               /* leave the execution loop: it is halted */
    if (!retry) {
        return true;
    }
    qemu_mutex_unlock(&t->lock);
    cpu_loop_exit_restore(cs, cs->mem_io_pc);
}

static void tt_push(TTTensix *t, int role, int thread, uint32_t w,
                    bool before_mop)
{
    TTTensixThread *th = &t->th[thread];
    uint32_t queued;
    bool ran;

    WITH_QEMU_LOCK_GUARD(&t->lock) {
        trace_tt_tensix_push(t->tile_x, t->tile_y, thread, tt_op_name(w), w);
        queued = th->count;
        if (before_mop) {
            tt_mop_stage(t, thread, w);
        } else {
            tt_replay_stage(t, thread, w);
        }
        if (th->count > queued) {
            th->queue[(th->head + th->count - 1) % TT_TENSIX_QUEUE].ends_push
                = true;
            th->pushes++;
        }
        ran = tt_run(t);
        tt_release_waiters(t);
        if (th->pushes > TT_TENSIX_FIFO_SOFT) {
            tt_wait(t, role, TT_WAIT_FIFO, thread, false);
        }
    }
    if (ran) {
        tt_spin_wake(t->spin);      /* semaphores, config, GPRs changed */
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
                          p->role - TT_TRISC0, TT_TENSIX_PUSH_BASE + addr);
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

static const MemoryRegionOps tt_push_ops = {
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
            tt_wait(t, TT_BRISC, TT_WAIT_BARRIER, i, true);
        }
        return 0;
    }
    if (th->pcbuf_count == TT_TENSIX_PCBUF_DEPTH) {
        if (tt_wait(t, TT_BRISC, TT_WAIT_PCBUF_FULL, i, true)) {
            return 0;   /* not reached */
        }
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d: PC buffer %d full: 0x%x "
                      "dropped\n", t->tile_x, t->tile_y, i, val);
        return 0;
    }
    th->pcbuf[(th->pcbuf_head + th->pcbuf_count++) % TT_TENSIX_PCBUF_DEPTH] =
        val;
    tt_release_waiters(t);
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
        tt_sem_update(t, BIT((addr - TT_PCBUF_SEM0) / 4), val & 1 ? -1 : 1);
        tt_run(t);
        tt_release_waiters(t);
        return 0;
    }
    switch (addr) {
    case TT_PCBUF_POP:
        if (write) {
            return 0;           /* discarded */
        }
        if (!th->pcbuf_count && !tt_wait(t, TT_TRISC0 + i, TT_WAIT_PCBUF, i,
                                         true)) {
            return 0;           /* not a core's access: nothing to wait for */
        }
        v = th->pcbuf[th->pcbuf_head];
        th->pcbuf_head = (th->pcbuf_head + 1) % TT_TENSIX_PCBUF_DEPTH;
        th->pcbuf_count--;
        tt_release_waiters(t);
        return v;
    case TT_PCBUF_SYNC:
        /* the load completes once the thread has nothing in flight */
        if (!write && th->count) {
            tt_wait(t, TT_TRISC0 + i, TT_WAIT_SYNC, i, true);
        }
        return 0;
    case TT_PCBUF_MOP_SYNC:     /* MOPs expand at push time */
        return 0;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d TRISC%d: PC buffer %s at 0x%"
                  HWADDR_PRIx " (undocumented) ignored\n", t->tile_x,
                  t->tile_y, i, write ? "write" : "read",
                  TT_TENSIX_PCBUF_BASE + addr);
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
                      tt_core_role_name[p->role], TT_TENSIX_PCBUF_BASE + addr);
        return 0;
    }
    qemu_mutex_lock(&t->lock);      /* a blocking access unlocks and leaves */
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

static const MemoryRegionOps tt_pcbuf_ops = {
    .read = tt_pcbuf_read,
    .write = tt_pcbuf_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

/* ------------------------------------------------------- GPRs (7.4) -- */

/* BRISC sees GPRs[3][64], a TRISC its own thread's */
static uint32_t *tt_gpr_ptr(TTTensixPort *p, hwaddr addr)
{
    int thread = p->role == TT_BRISC ? addr / (4 * TT_TENSIX_GPRS)
                                     : p->role - TT_TRISC0;

    if (p->role == TT_NCRISC || thread >= TT_TENSIX_THREADS ||
        (p->role != TT_BRISC && addr >= 4 * TT_TENSIX_GPRS)) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d %s: no GPR at 0x%" HWADDR_PRIx
                      "\n", p->t->tile_x, p->t->tile_y,
                      tt_core_role_name[p->role], TT_TENSIX_GPR_BASE + addr);
        return NULL;
    }
    return &p->t->th[thread].gpr[(addr / 4) % TT_TENSIX_GPRS];
}

static uint64_t tt_gpr_read(void *opaque, hwaddr addr, unsigned size)
{
    uint32_t *r = tt_gpr_ptr(opaque, addr & ~3);

    return r ? extract32(qatomic_read(r), 8 * (addr & 3), 8 * size) : 0;
}

static void tt_gpr_write(void *opaque, hwaddr addr, uint64_t val,
                         unsigned size)
{
    TTTensixPort *p = opaque;
    uint32_t *r = tt_gpr_ptr(p, addr & ~3);

    if (r) {
        WITH_QEMU_LOCK_GUARD(&p->t->lock) {
            *r = deposit32(*r, 8 * (addr & 3), 8 * size, val);
        }
        tt_spin_wake(p->t->spin);
    }
}

static const MemoryRegionOps tt_gpr_ops = {
    .read = tt_gpr_read,
    .write = tt_gpr_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};

/* -------------------------------------------- configuration space (6.5) -- */

#define TT_CFG_DUAL     0x700       /* ConfigDualWrite */
#define TT_CFG_THREAD   0xa80       /* {u16, pad} ThreadConfig[3][68] */

static uint64_t tt_cfg_read(void *opaque, hwaddr addr, unsigned size)
{
    TTTensixPort *p = opaque;
    TTTensix *t = p->t;
    uint32_t w = 0, idx = addr / 4;

    QEMU_LOCK_GUARD(&t->lock);
    if (addr < TT_CFG_DUAL) {
        w = t->cfg[idx / TT_TENSIX_CFG_WORDS][idx % TT_TENSIX_CFG_WORDS];
    } else if (addr >= TT_CFG_THREAD &&
               idx - TT_CFG_THREAD / 4 <
               TT_TENSIX_THREADS * TT_TENSIX_THREAD_CFG) {
        idx -= TT_CFG_THREAD / 4;
        w = t->th[idx / TT_TENSIX_THREAD_CFG]
                .thread_cfg[idx % TT_TENSIX_THREAD_CFG];
    } else {
        qemu_log_mask(LOG_UNIMP, "x%dy%d: config read 0x%" HWADDR_PRIx
                      " not modelled\n", t->tile_x, t->tile_y,
                      TT_TENSIX_CFG_BASE + addr);
    }
    return extract32(w, 8 * (addr & 3), 8 * size);
}

static void tt_cfg_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    TTTensixPort *p = opaque;
    TTTensix *t = p->t;
    uint32_t idx = addr / 4;

    if (p->role == TT_NCRISC || size != 4) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d %s: config write of %u bytes "
                      "at 0x%" HWADDR_PRIx " ignored\n", t->tile_x, t->tile_y,
                      tt_core_role_name[p->role], size,
                      TT_TENSIX_CFG_BASE + addr);
        return;
    }
    WITH_QEMU_LOCK_GUARD(&t->lock) {
        if (addr < TT_CFG_DUAL) {
            tt_cfg_write(t, idx / TT_TENSIX_CFG_WORDS,
                         idx % TT_TENSIX_CFG_WORDS, val);
        } else if (addr < TT_CFG_THREAD) {
            idx = (addr - TT_CFG_DUAL) / 4;
            t->cfg[0][idx % TT_TENSIX_CFG_WORDS] = val;
            t->cfg[1][idx % TT_TENSIX_CFG_WORDS] = val;
        } else {
            qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d: ThreadConfig is written "
                          "by SETC16 only\n", t->tile_x, t->tile_y);
        }
    }
    tt_spin_wake(t->spin);
}

static const MemoryRegionOps tt_cfg_ops = {
    .read = tt_cfg_read,
    .write = tt_cfg_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};

/* ----------------------------------- MOP configuration, T_i only (5.1) -- */

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
                      tt_core_role_name[p->role], TT_TENSIX_MOPCFG_BASE + addr);
        return;
    }
    QEMU_LOCK_GUARD(&p->t->lock);
    p->t->th[p->role - TT_TRISC0].mop_cfg[addr / 4] = val;
}

static const MemoryRegionOps tt_mopcfg_ops = {
    .read = tt_mopcfg_read,
    .write = tt_mopcfg_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

/* ------------------------------------------------- monitor and hangs -- */

static const char *const tt_wait_kind_name[TT_WAIT_KINDS] = {
    "a full instruction FIFO", "TTSync (thread draining)",
    "its empty PC buffer", "a full PC buffer", "a PC buffer barrier",
};

/* What core @role waits on in the coprocessor, or NULL */
const char *tt_tensix_core_wait(TTTensix *t, int role, int *thread)
{
    int k = qatomic_read(&t->wait_kind[role]);

    *thread = t->wait_thread[role];
    return k < 0 ? NULL : tt_wait_kind_name[k];
}

static void tt_tensix_dump_thread(TTTensix *t, int i, GString *out)
{
    TTTensixThread *th = &t->th[i];
    TTTensixRwc *r = &th->rwc;

    g_string_append_printf(out, "  thread %d: %u queued (%u pushed words), "
                           "%" PRIu64 " executed, config state %d",
                           i, th->count, th->pushes, th->executed,
                           th->thread_cfg[0] & 1);
    if (th->count) {
        g_string_append_printf(out, ", next %s",
                               tt_op_name(th->queue[th->head].insn));
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

void tt_tensix_dump(TTTensix *t, GString *out)
{
    QEMU_LOCK_GUARD(&t->lock);
    g_string_append(out, "  semaphores (value/max):");
    for (int i = 0; i < TT_TENSIX_SEMS; i++) {
        g_string_append_printf(out, " %u/%u", t->sem_val[i], t->sem_max[i]);
    }
    g_string_append(out, "\n  mutexes:");
    for (int m = 0; m < TT_TENSIX_MUTEXES; m++) {
        if (m == 1) {
            continue;           /* no mutex 1 on Blackhole */
        }
        if (t->mutex_owner[m]) {
            g_string_append_printf(out, " %d:T%d", m, t->mutex_owner[m] - 1);
        } else {
            g_string_append_printf(out, " %d:free", m);
        }
    }
    g_string_append_c(out, '\n');
    for (int i = 0; i < TT_TENSIX_THREADS; i++) {
        tt_tensix_dump_thread(t, i, out);
    }
}

/* True if a thread holds instructions at its gate */
bool tt_tensix_blocked(TTTensix *t)
{
    for (int i = 0; i < TT_TENSIX_THREADS; i++) {
        if (qatomic_read(&t->th[i].count)) {
            return true;
        }
    }
    return false;
}

/* A stream register changed: a thread may be held by STREAMWAIT */
void tt_tensix_stream_changed(void *opaque)
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
    qemu_mutex_lock(&t->lock);
    tt_run(t);
    tt_release_waiters(t);
    qemu_mutex_unlock(&t->lock);
    tt_spin_wake(t->spin);
}

/* ------------------------------------------------------------- device -- */

void tt_tensix_map(TTTensix *t, int role, MemoryRegion *root)
{
    TTTensixPort *p = &t->port[role];

    memory_region_add_subregion(root, TT_TENSIX_PUSH_BASE, &p->push);
    memory_region_add_subregion(root, TT_TENSIX_PCBUF_BASE, &p->pcbuf);
    memory_region_add_subregion(root, TT_TENSIX_GPR_BASE, &p->gpr);
    memory_region_add_subregion(root, TT_TENSIX_CFG_BASE, &p->cfg);
    memory_region_add_subregion(root, TT_TENSIX_MOPCFG_BASE, &p->mopcfg);
}

static void tt_tensix_realize(DeviceState *dev, Error **errp)
{
    TTTensix *t = TT_TENSIX(dev);
    Object *o = OBJECT(t);

    qemu_mutex_init(&t->lock);
    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        TTTensixPort *p = &t->port[r];

        p->t = t;
        p->role = r;
        memory_region_init_io(&p->push, o, &tt_push_ops, p, "tensix-push",
                              TT_TENSIX_PUSH_SIZE);
        memory_region_init_io(&p->pcbuf, o, &tt_pcbuf_ops, p, "tensix-pcbuf",
                              TT_TENSIX_PCBUF_SIZE);
        memory_region_init_io(&p->gpr, o, &tt_gpr_ops, p, "tensix-gpr",
                              TT_TENSIX_GPR_SIZE);
        memory_region_init_io(&p->cfg, o, &tt_cfg_ops, p, "tensix-cfg",
                              TT_TENSIX_CFG_SIZE);
        memory_region_init_io(&p->mopcfg, o, &tt_mopcfg_ops, p,
                              "tensix-mop-cfg", TT_TENSIX_MOPCFG_SIZE);
        memory_region_enable_lockless_io(&p->push);
        memory_region_enable_lockless_io(&p->pcbuf);
        memory_region_enable_lockless_io(&p->gpr);
        memory_region_enable_lockless_io(&p->cfg);
        memory_region_enable_lockless_io(&p->mopcfg);
    }
}

static void tt_tensix_reset_hold(Object *obj, ResetType type)
{
    TTTensix *t = TT_TENSIX(obj);

    memset(t->th, 0, sizeof(t->th));
    memset(t->sem_val, 0, sizeof(t->sem_val));
    memset(t->sem_max, 0, sizeof(t->sem_max));
    memset(t->mutex_owner, 0, sizeof(t->mutex_owner));
    memset(t->cfg, 0, sizeof(t->cfg));
    memset(t->unimp, 0, sizeof(t->unimp));
    memset(t->wait_kind, -1, sizeof(t->wait_kind));
}

static const VMStateDescription vmstate_tt_tensix = {
    .name = TYPE_TT_TENSIX,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8_ARRAY(sem_val, TTTensix, TT_TENSIX_SEMS),
        VMSTATE_UINT8_ARRAY(sem_max, TTTensix, TT_TENSIX_SEMS),
        VMSTATE_UINT8_ARRAY(mutex_owner, TTTensix, TT_TENSIX_MUTEXES),
        VMSTATE_UINT32_2DARRAY(cfg, TTTensix, 2, TT_TENSIX_CFG_WORDS),
        VMSTATE_END_OF_LIST()
    },
};

static const Property tt_tensix_props[] = {
    DEFINE_PROP_UINT8("x", TTTensix, tile_x, 0),
    DEFINE_PROP_UINT8("y", TTTensix, tile_y, 0),
};

static void tt_tensix_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole Tensix coprocessor front end";
    riscv_tt_disas = tt_tensix_disas;   /* -d in_asm names Tensix words */
    dc->realize = tt_tensix_realize;
    dc->vmsd = &vmstate_tt_tensix;
    dc->user_creatable = false;
    rc->phases.hold = tt_tensix_reset_hold;
    device_class_set_props(dc, tt_tensix_props);
}

static const TypeInfo tt_tensix_types[] = {
    {
        .name = TYPE_TT_TENSIX,
        .parent = TYPE_SYS_BUS_DEVICE,
        .instance_size = sizeof(TTTensix),
        .class_init = tt_tensix_class_init,
    },
};

DEFINE_TYPES(tt_tensix_types)
