/*
 * Tenstorrent Blackhole: parking cores that spin on memory
 * (docs/devel/tenstorrent-spin-park.rst).
 *
 * Detection runs on the core's own thread, in the helper that translated
 * code calls every TT_SPIN_PERIOD backward jumps:
 *
 *   IDLE    samples differ: remember (pc, registers, side-effect epoch).
 *   IDLE    TT_SPIN_MATCHES identical samples in a row: arm.  Arming reads
 *           the tile's wake generation, then clears the dirty bits of the
 *           tile's RAM, so that the next CPU store to each page takes the
 *           TLB slow path and calls tt_spin_ram_written.  A sibling core
 *           may still be between its TLB check and its store; for each
 *           running sibling the parker records the sibling's epoch (which
 *           counts its stores, incremented after each) and queues work on
 *           it: when the sibling next leaves its translated code, the work
 *           wakes the tile if the sibling stored anything since.
 *   ARMED   one more identical sample, taken from memory read after
 *           arming: park unless the wake generation moved.
 *
 * Parking and waking pair like Dekker's algorithm: the parker publishes
 * TT_PARK_PARKED and then rereads the generation, a waker bumps the
 * generation and then reads the core's state, so one of them sees the
 * other.  A parked core is halted; the waker moves it to TT_PARK_WOKEN,
 * which riscv_cpu_has_work() reports, and kicks it.  The kick is repeated
 * from a bottom half under the BQL, because a vCPU thread checks for work
 * and goes to sleep under the BQL and wakers do not hold it.
 *
 * A tile whose cores share one host thread (tt_spin_tile_init(), grouped)
 * runs one core at a time: a polling core cannot be answered by a sibling
 * until it gives up the thread, so it does at once, leaving its execution
 * loop with EXCP_YIELD as soon as it is found polling while a sibling is
 * runnable (with parking off as well), and parks only when none is.  A
 * core that runs TT_SPIN_SLICE_NS without polling while a sibling is
 * runnable yields too, so that no core keeps the thread.  Polling budgets,
 * the brief spin before a stall and the checks queued on running siblings
 * are for cores on threads of their own and are skipped.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "qemu/processor.h"
#include "system/cpus.h"
#include "hw/core/cpu.h"
#include "system/tcg.h"
#include "system/ramblock.h"
#include "system/physmem.h"
#include "exec/cpu-common.h"
#include "qemu/error-report.h"
#include "migration/cpu.h"
#include "hw/tenstorrent/spin-park.h"
#include "trace.h"

/*
 * Backward jumps between samples: TT_SPIN_PERIOD while samples match,
 * doubling up to TT_SPIN_PERIOD_MAX while they differ, so that a busy loop
 * pays for a sample every ~1000 iterations and a new polling loop is still
 * caught within a few thousand.
 */
#define TT_SPIN_PERIOD      16
#define TT_SPIN_PERIOD_MAX  1024
#define TT_SPIN_MATCHES 2       /* identical samples before arming */

enum { TT_SPIN_IDLE, TT_SPIN_ARMED };

/* vCPU threads that run concurrently (qtest has none, RR one) */
static bool tt_spin_mttcg(void)
{
    return tcg_enabled() && qemu_tcg_mttcg_enabled();
}

/* The longest a core of a grouped tile runs while a sibling could */
#define TT_SPIN_SLICE_NS 200000

/*
 * What a polling core of the tile could see change: the wake generation
 * and every core's epoch (its stores, including pushes)
 */
static uint32_t tt_spin_stamp(TTSpinTile *s)
{
    uint32_t v = qatomic_read(&s->wake_gen);

    for (int r = 0; r < s->ncpus; r++) {
        v += qatomic_read(&cpu_env(s->cpu[r])->tt_spin_epoch);
    }
    return v;
}

/*
 * A sibling of @c has something to do: it is not halted (or is woken, or
 * has queued work), and it did not give the thread up polling with nothing
 * changed since.  Cores that only poll each other so park in turn instead
 * of passing the thread round.
 */
static bool tt_spin_sibling_runnable(TTSpinCore *c)
{
    TTSpinTile *s = c->tile;
    uint32_t stamp = tt_spin_stamp(s);

    for (int r = 0; r < s->ncpus; r++) {
        if (r != c->role && !cpu_thread_is_idle(s->cpu[r]) &&
            !(s->core[r].yielded && s->core[r].yield_stamp == stamp)) {
            return true;
        }
    }
    return false;
}

/*
 * Give the group's thread to a sibling; the core resumes at @pc.
 * @polling: it waits for a change (else its time slice ran out).
 */
static void G_NORETURN tt_spin_yield(TTSpinCore *c, CPURISCVState *env,
                                     target_ulong pc, bool polling)
{
    CPUState *cs = env_cpu(env);

    c->yields++;
    c->yielded = polling;
    c->yield_stamp = tt_spin_stamp(c->tile);
    c->tile->running = -1;
    trace_tt_spin_yield(c->tile->cpu[0]->cpu_index, c->role, pc);
    /*
     * Sampled again at its first backward jump: still polling (the sample
     * matches the one before the yield), it yields again at once
     */
    env->tt_spin_count = 0;
    env->pc = pc;
    cs->exception_index = EXCP_YIELD;
    cpu_loop_exit(cs);
}

static void tt_spin_snapshot(TTSpinCore *c, CPURISCVState *env,
                             target_ulong pc)
{
    c->period = MIN(c->period * 2, TT_SPIN_PERIOD_MAX);
    env->tt_spin_count = c->period;
    c->pc = pc;
    c->epoch = env->tt_spin_epoch;
    memcpy(c->gpr, env->gpr, sizeof(c->gpr));
    c->matches = 0;
    c->state = TT_SPIN_IDLE;
    c->yielded = false;
}

/* Work on a sibling that was running when a core of its tile armed */
typedef struct TTSpinCheck {
    TTSpinTile *tile;
    uint32_t epoch;             /* the sibling's epoch at arming */
} TTSpinCheck;

static void tt_spin_check_work(CPUState *cs, run_on_cpu_data data)
{
    TTSpinCheck *chk = data.host_ptr;

    if (cpu_env(cs)->tt_spin_epoch != chk->epoch) {
        tt_spin_wake(chk->tile);    /* it may have stored past the watch */
    }
    g_free(chk);
}

static void tt_spin_arm(TTSpinCore *c)
{
    TTSpinTile *s = c->tile;

    c->armed_gen = qatomic_read(&s->wake_gen);
    smp_mb();   /* a change after this read either bumps the generation... */
    physical_memory_watch_writes(s->ram->ram_block);
    smp_mb();   /* ...or, racing the watch, shows in a sibling's epoch */
    /* grouped, no sibling runs meanwhile: none is between check and store */
    for (int r = 0; r < s->ncpus && tt_spin_mttcg() && !s->grouped; r++) {
        CPUState *cs = s->cpu[r];
        TTSpinCheck *chk;

        if (r == c->role || qatomic_read(&cs->halted)) {
            continue;
        }
        chk = g_new(TTSpinCheck, 1);
        chk->tile = s;
        chk->epoch = qatomic_read(&cpu_env(cs)->tt_spin_epoch);
        async_run_on_cpu(cs, tt_spin_check_work, RUN_ON_CPU_HOST_PTR(chk));
        tt_spin_kick_later(s, r);
    }
    c->state = TT_SPIN_ARMED;
}

static void G_NORETURN tt_spin_park(TTSpinCore *c, CPURISCVState *env,
                                    target_ulong pc)
{
    CPUState *cs = env_cpu(env);

    c->parks++;
    c->yielded = false;
    c->tile->running = -1;
    trace_tt_spin_park(c->tile->cpu[0]->cpu_index,
                       c->role, pc);
    env->pc = pc;
    cs->halted = 1;
    cs->exception_index = EXCP_HLT;
    cpu_loop_exit(cs);
}

/*
 * Polling before parking.  Hand-offs between the cores of a tile (data
 * valid, a semaphore, a circular-buffer counter) mostly come within
 * microseconds, while arming, parking and the wake-up cost thread switches
 * and the BQL (queued work and kicks for the siblings, a futex sleep and
 * wake).  So a core whose loop is found waiting keeps polling, in its own
 * translated code, for up to its budget of host time, and only then arms.
 * The budget adapts per core: a wait that ended within TT_SPIN_MAX_NS raises
 * it, a longer one halves it, so a core that waits long (a data-movement
 * core between kernels, or any core on a host where partners wait for a
 * CPU) soon parks at once again.  Only with MTTCG: with one vCPU thread
 * the partner cannot run meanwhile, and the schedule must not depend on
 * host time.
 */
#define TT_SPIN_MAX_NS  50000
#define TT_SPIN_STEP_NS 1000
/*
 * A core waiting for an answer from another chip (tt_spin_expect_answer(),
 * tt_spin_input()) polls longer: with both ends parked a round trip
 * between two processes costs ~100 us on a loaded host, and two ends that
 * each park before the other answers stay that slow.
 */
#define TT_SPIN_ANSWER_NS 250000

/* A wait of the core ended (@won: within TT_SPIN_MAX_NS) or outlasted it */
static void tt_spin_adapt(TTSpinCore *c, bool won)
{
    c->spin_ns = won ? MIN(c->spin_ns * 2 + TT_SPIN_STEP_NS, TT_SPIN_MAX_NS)
                     : c->spin_ns / 2;
}

static bool tt_spin_polls(TTSpinCore *c)
{
    int64_t now;

    if (!tt_spin_mttcg() || c->tile->grouped) {
        return false;
    }
    now = get_clock();
    if (qatomic_read(&c->tile->input)) {
        qatomic_set(&c->tile->input, false);
        c->spin_ns = TT_SPIN_ANSWER_NS;
        c->wait_start = now;
    }
    if (!c->wait_start) {
        c->wait_start = now;
    }
    return now - c->wait_start < c->spin_ns;
}

/*
 * Spinning before a halt that no polling loop does for the core: a push
 * into a full instruction FIFO.  The same budget and adaptation.
 */
bool tt_spin_briefly(TTSpinTile *s, const uint32_t *word, uint32_t old)
{
    CPUState *cs = current_cpu;
    TTSpinCore *c;
    int64_t t0;

    if (!s || !cs || !tt_spin_mttcg() || s->grouped) {
        return false;
    }
    c = cpu_env(cs)->tt_spin_opaque;
    if (!c || c->tile != s || !c->spin_ns) {
        return false;
    }
    t0 = get_clock();
    do {
        for (int i = 0; i < 64; i++) {
            if (qatomic_read(word) != old) {
                tt_spin_adapt(c, true);
                return true;
            }
            cpu_relax();
        }
        if (qatomic_read(&cs->exit_request) || cs->stop ||
            !cpu_work_list_empty(cs)) {
            return false;       /* the vCPU loop has work: leave it */
        }
    } while (get_clock() - t0 < c->spin_ns);
    tt_spin_adapt(c, false);
    return false;
}

/*
 * The current core started something whose answer comes from outside the
 * tile soon (a frame on an Ethernet link): its next wait polls for the
 * whole budget again.  Otherwise two cores of linked chips, each waiting
 * longer than the budget while the other parks, would keep halving their
 * budgets and never poll again.
 */
void tt_spin_expect_answer(TTSpinTile *s)
{
    CPUState *cs = current_cpu;
    TTSpinCore *c = cs ? cpu_env(cs)->tt_spin_opaque : NULL;

    if (c && c->tile == s) {
        c->spin_ns = TT_SPIN_ANSWER_NS;
    }
}

void tt_spin_want_samples(TTSpinTile *s, bool on)
{
    if (s) {
        qatomic_set(&s->sample, on);
    }
}

bool tt_spin_polled(TTSpinTile *s)
{
    return s && s->park && tt_spin_mttcg();
}

void tt_spin_input(TTSpinTile *s)
{
    qatomic_set(&s->input, true);
}

static void tt_spin_try_park(TTSpinCore *c, CPURISCVState *env,
                             target_ulong pc)
{
    TTSpinTile *s = c->tile;

    c->state = TT_SPIN_IDLE;        /* after a wake, detect and arm anew */
    c->matches = 0;
    qatomic_set(&env->tt_park, TT_PARK_PARKED);
    smp_mb();   /* pairs with tt_spin_wake(): publish, then reread */
    if (qatomic_read(&s->wake_gen) == c->armed_gen) {
        tt_spin_park(c, env, pc);
    }
    qatomic_set(&env->tt_park, TT_PARK_RUNNING);
}

/*
 * The core stops polling: it moved on, or it is about to park (said even
 * when its budget let it poll not at all, for the callback's other state)
 */
static void tt_spin_poll_end(TTSpinCore *c, TTSpinPoll why)
{
    if (c->polling || (why == TT_SPIN_POLL_PARKING && c->tile->poll)) {
        c->polling = false;
        c->tile->poll(c->tile->poll_opaque, c->role, why);
    }
}

static void tt_spin_hook(CPURISCVState *env, target_ulong pc)
{
    TTSpinCore *c = env->tt_spin_opaque;
    TTSpinTile *s = c->tile;

    if (unlikely(qatomic_read(&s->quiesce_roles) & BIT(c->role))) {
        if ((qatomic_read(&s->quiesce_fresh) & BIT(c->role)) ||
            c->quiesce_mark != c->pushes) {
            /*
             * Another core's thread asked, so no count began, or this core
             * pushed since it began: it may be between two pushes of one
             * sequence, not moved on.  Count from here.
             */
            qatomic_and(&s->quiesce_fresh, ~BIT(c->role));
            c->quiesce_mark = c->pushes;
            env->tt_spin_count = TT_SPIN_QUIESCE;
            return;
        }
        qatomic_and(&s->quiesce_roles, ~BIT(c->role));
        s->quiesce(s->quiesce_opaque, c->role);
    }
    if (unlikely(qatomic_read(&s->sample))) {
        s->poll(s->poll_opaque, c->role, TT_SPIN_POLL_SAMPLE);
    }
    if (!s->park && !s->grouped) {
        env->tt_spin_count = TT_SPIN_PERIOD_MAX;
        return;
    }
    if (env_cpu(env)->halted) {
        /* halted at the end of this block (a stalled push): leave it be */
        env->tt_spin_count = TT_SPIN_PERIOD;
        return;
    }
    if (s->grouped) {
        int64_t now = get_clock();

        if (s->running != c->role) {
            s->running = c->role;
            s->slice_start = now;
        } else if (now - s->slice_start > TT_SPIN_SLICE_NS &&
                   tt_spin_sibling_runnable(c)) {
            tt_spin_yield(c, env, pc, false);
        }
    }
    if (qatomic_read(&env->tt_park) == TT_PARK_WOKEN) {
        qatomic_set(&env->tt_park, TT_PARK_RUNNING);     /* back from a wake */
    }
    if (pc != c->pc || env->tt_spin_epoch != c->epoch ||
        memcmp(env->gpr, c->gpr, sizeof(c->gpr))) {
        if (c->wait_start) {     /* the loop it waited in moved on */
            tt_spin_adapt(c, get_clock() - c->wait_start <= TT_SPIN_MAX_NS);
            c->wait_start = 0;
            tt_spin_poll_end(c, TT_SPIN_POLL_MOVED_ON);
        }
        tt_spin_snapshot(c, env, pc);
        return;
    }
    env->tt_spin_count = c->period = TT_SPIN_PERIOD;
    if (s->grouped && c->matches >= TT_SPIN_MATCHES &&
        tt_spin_sibling_runnable(c)) {
        tt_spin_yield(c, env, pc, true);     /* a sibling answers */
    }
    if (!s->park) {
        c->matches = MIN(c->matches + 1, TT_SPIN_MATCHES);
    } else if (c->state == TT_SPIN_ARMED) {
        tt_spin_try_park(c, env, pc);
    } else if (c->matches < TT_SPIN_MATCHES) {
        c->matches++;
    } else if (!tt_spin_polls(c)) {
        tt_spin_poll_end(c, TT_SPIN_POLL_PARKING);
        tt_spin_arm(c);
    } else if (s->poll) {
        c->polling = true;
        s->poll(s->poll_opaque, c->role, TT_SPIN_POLL_WAITING);
    }
}

void tt_spin_set_quiesce(TTSpinTile *s, void (*fn)(void *opaque, int role),
                         void *opaque)
{
    s->quiesce = fn;
    s->quiesce_opaque = opaque;
}

void tt_spin_set_poll(TTSpinTile *s,
                      void (*fn)(void *opaque, int role, TTSpinPoll event),
                      void *opaque)
{
    s->poll = fn;
    s->poll_opaque = opaque;
}

void tt_spin_quiesce_watch(TTSpinTile *s, int role)
{
    if (!s || !s->quiesce) {
        return;
    }
    if (current_cpu == s->cpu[role]) {
        s->core[role].quiesce_mark = s->core[role].pushes;
        cpu_env(current_cpu)->tt_spin_count = TT_SPIN_QUIESCE;
    } else {
        qatomic_or(&s->quiesce_fresh, BIT(role));
    }
    qatomic_or(&s->quiesce_roles, BIT(role));
}

void tt_spin_wake(TTSpinTile *s)
{
    uint32_t kicked = 0;

    if (!s) {
        return;
    }
    qatomic_inc(&s->wake_gen);
    /*
     * Pairs with tt_spin_try_park(): bump, then read states.  The locked
     * increment is that barrier on x86; a second one took 1.5% of a
     * push-bound kernel.
     */
    smp_mb__after_rmw();
    for (int r = 0; r < s->ncpus; r++) {
        CPURISCVState *env = cpu_env(s->cpu[r]);

        if (qatomic_read(&env->tt_park) == TT_PARK_PARKED &&
            qatomic_cmpxchg(&env->tt_park, TT_PARK_PARKED,
                            TT_PARK_WOKEN) == TT_PARK_PARKED) {
            kicked |= BIT(r);
        }
    }
    if (kicked) {
        qatomic_add(&s->wakes, 1);
        trace_tt_spin_wake(s->cpu[0]->cpu_index, kicked);
        for (int r = 0; r < s->ncpus; r++) {
            if (kicked & BIT(r)) {
                tt_spin_kick(s, r);
            }
        }
    }
}

/*
 * Core @role can run again: wake its thread, unless that is the running
 * thread (a grouped tile woken by one of its own cores), which finds the
 * core runnable when the current one gives up the thread.
 */
void tt_spin_kick(TTSpinTile *s, int role)
{
    CPUState *cs = current_cpu;

    if (s->grouped && cs && cpu_env(cs)->tt_spin_opaque &&
        ((TTSpinCore *)cpu_env(cs)->tt_spin_opaque)->tile == s) {
        return;
    }
    qemu_cpu_kick(s->cpu[role]);
    tt_spin_kick_later(s, role);
}

/*
 * Only MTTCG has vCPU threads that sleep while another thread wakes them
 * without the BQL; with one thread (and under icount) a kick from the main
 * loop would only make the schedule depend on host timing.
 */
void tt_spin_kick_later(TTSpinTile *s, int role)
{
    if (tt_spin_mttcg()) {
        qatomic_or(&s->rekick, BIT(role));
        qemu_bh_schedule(s->bh);
    }
}

static void tt_spin_rekick_bh(void *opaque)
{
    TTSpinTile *s = opaque;
    uint32_t mask = qatomic_xchg(&s->rekick, 0);

    for (int r = 0; r < s->ncpus; r++) {
        if (mask & BIT(r)) {
            qemu_cpu_kick(s->cpu[r]);
        }
    }
}

void tt_spin_wake_all(TTSpinTile *tiles, size_t stride, int n)
{
    for (int i = 0; i < n; i++) {
        tt_spin_wake((TTSpinTile *)((char *)tiles + i * stride));
    }
}

void tt_spin_volatile_read(void)
{
    if (current_cpu) {
        cpu_env(current_cpu)->tt_spin_epoch++;
    }
}

void tt_spin_core_reset_cpu(CPUState *cs)
{
    CPURISCVState *env = cpu_env(cs);
    TTSpinCore *c = env->tt_spin_opaque;

    qatomic_set(&env->tt_park, TT_PARK_RUNNING);
    env->tt_spin_count = TT_SPIN_PERIOD;
    if (c) {
        c->state = TT_SPIN_IDLE;
        c->matches = 0;
        c->period = TT_SPIN_PERIOD;
        c->wait_start = 0;
        c->polling = false;     /* the poll callback's owner times it out */
        c->yielded = false;
    }
}

/* A CPU stored to a page of the tile's RAM whose dirty bits were cleared */
static void tt_spin_ram_written(void *opaque, ram_addr_t offset)
{
    tt_spin_wake(opaque);
}

void tt_spin_tile_init(TTSpinTile *s, CPUState **cpus, int ncpus,
                       MemoryRegion *ram, bool enable, bool grouped)
{
    assert(ncpus > 0 && ncpus <= TT_CORES_PER_TILE);
    s->ncpus = ncpus;
    s->grouped = grouped && tt_spin_mttcg();
    s->running = -1;
    s->bh = qemu_bh_new(tt_spin_rekick_bh, s);
    for (int r = 0; r < ncpus; r++) {
        CPURISCVState *env = cpu_env(cpus[r]);

        s->cpu[r] = cpus[r];
        s->core[r].tile = s;
        s->core[r].role = r;
        s->core[r].period = TT_SPIN_PERIOD;
        s->core[r].spin_ns = TT_SPIN_MAX_NS;
        env->tt_spin_opaque = &s->core[r];
        /* without parking the hook still runs, for tt_spin_quiesce_watch */
        env->tt_spin_hook = tt_spin_hook;
        env->tt_spin_count = enable ? TT_SPIN_PERIOD : TT_SPIN_PERIOD_MAX;
    }
    s->park = enable;
    s->ram = ram;
    qemu_ram_block_set_write_notify(ram->ram_block, tt_spin_ram_written, s);
}

/*
 * Migration: the sampler of every core and the tile's wake generation
 * migrate as they are, so that a restored machine parks and wakes its
 * cores at the same points as the one it was saved from.  A core that
 * was armed or parked watched its tile's RAM for stores; the watch is a
 * property of the RAM block, not migrated, so post_load arms it again (a
 * store before the save bumped wake_gen, which is migrated).  The cores'
 * park states are loaded before this (the tile's vmstate lists them
 * first).  With one vCPU thread (deterministic=on) that restores the
 * exact parking behaviour; with MTTCG parked cores are woken instead.
 */
static const VMStateDescription vmstate_tt_spin_core = {
    .name = "tt-spin-core",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_INT32(state, TTSpinCore),
        VMSTATE_INT32(matches, TTSpinCore),
        VMSTATE_INT32(period, TTSpinCore),
        VMSTATE_UINT32(armed_gen, TTSpinCore),
        VMSTATE_UINTTL(pc, TTSpinCore),
        VMSTATE_UINT32(epoch, TTSpinCore),
        VMSTATE_UINTTL_ARRAY(gpr, TTSpinCore, 32),
        VMSTATE_UINT64(parks, TTSpinCore),
        VMSTATE_END_OF_LIST()
    },
};

static int tt_spin_tile_post_load(void *opaque, int version_id)
{
    TTSpinTile *s = opaque;
    bool armed = false;

    if (s->rekick >= BIT(s->ncpus)) {
        error_report("tt-spin: migration stream has re-kick mask 0x%x",
                     s->rekick);
        return -EINVAL;
    }
    for (int r = 0; r < s->ncpus; r++) {
        TTSpinCore *c = &s->core[r];

        if ((c->state != TT_SPIN_IDLE && c->state != TT_SPIN_ARMED) ||
            c->period < 0 || c->period > TT_SPIN_PERIOD_MAX) {
            error_report("tt-spin: migration stream has core %d in state %d "
                         "with period %d", r, c->state, c->period);
            return -EINVAL;
        }
        /* a parked core waits for a store the watch would report */
        armed |= c->state == TT_SPIN_ARMED ||
                 (s->cpu[r] &&
                  cpu_env(s->cpu[r])->tt_park == TT_PARK_PARKED);
    }
    if (tt_spin_mttcg()) {
        /*
         * With MTTCG, arming also queued checks on the running siblings
         * (tt_spin_arm()), work that is not migrated: wake every parked
         * core instead.  A spurious wake is harmless, the core polls
         * again and parks again.
         */
        for (int r = 0; r < s->ncpus && s->cpu[r]; r++) {
            CPURISCVState *env = cpu_env(s->cpu[r]);

            if (env->tt_park == TT_PARK_PARKED) {
                env->tt_park = TT_PARK_WOKEN;
            }
            s->core[r].state = TT_SPIN_IDLE;
            s->core[r].matches = 0;
        }
    } else if (armed && s->ram) {
        physical_memory_watch_writes(s->ram->ram_block);
    }
    /*
     * Which cores a quiesce was asked for is not migrated: ask for every
     * one (the callback ignores a core with nothing in flight)
     */
    if (s->quiesce) {
        s->quiesce_roles = s->quiesce_fresh = BIT(s->ncpus) - 1;
    }
    if (s->rekick && s->bh) {
        qemu_bh_schedule(s->bh);
    }
    return 0;
}

const VMStateDescription vmstate_tt_spin_tile = {
    .name = "tt-spin-tile",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = tt_spin_tile_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(wake_gen, TTSpinTile),
        VMSTATE_UINT32(rekick, TTSpinTile),
        VMSTATE_STRUCT_ARRAY(core, TTSpinTile, TT_CORES_PER_TILE, 1,
                             vmstate_tt_spin_core, TTSpinCore),
        VMSTATE_UINT64(wakes, TTSpinTile),
        VMSTATE_END_OF_LIST()
    },
};

static const TypeInfo tt_spin_types[] = {
    {
        .name = TYPE_TT_SPIN_TILE,
        .parent = TYPE_OBJECT,
        .instance_size = sizeof(TTSpinTile),
    },
};

DEFINE_TYPES(tt_spin_types)
