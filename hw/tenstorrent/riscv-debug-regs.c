/*
 * Tenstorrent Blackhole tile control/debug registers: soft reset of the five
 * baby RISC-V cores, reset PCs, wall clock, PC readback.
 *
 * Semantics: tt-isa-documentation BlackholeA0/TensixTile/SoftReset.md,
 * WormholeB0/TensixTile/DebugTimestamper.md (same addresses on Blackhole),
 * BabyRISCV/README.md (PC readback); register offsets from tt-metal
 * tt_metal/hw/inc/internal/tt-1xx/blackhole/tensix.h.
 *
 * Leaving reset zeroes the core's GPRs and starts it at its reset PC.
 * Entering reset stops the core and zeroes its LDM unless DISABLE_RESET says
 * otherwise; hardware zeroes LDM while leaving reset instead, but doing it on
 * entry keeps what a loader or the host placed in LDM while the core was
 * held (documented in docs/system/riscv/blackhole.rst).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/lockable.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/core/cpu.h"
#include "migration/vmstate.h"
#include "system/runstate.h"
#include "system/tcg.h"
#include "target/riscv/cpu.h"
#include "hw/tenstorrent/noc.h"
#include "hw/tenstorrent/riscv-debug-regs.h"
#include "hw/tenstorrent/spin-park.h"
#include "trace.h"

/* AICLK 1.35 GHz: the wall clock ticks 27 times per 20 ns */
#define TT_AICLK_MUL    27
#define TT_AICLK_DIV    20

uint32_t tt_soft_reset_bit(TTCoreRole role)
{
    static const uint8_t bit[TT_CORES_PER_TILE] = { 11, 18, 12, 13, 14 };

    return BIT(bit[role]);
}

/*
 * Core @r's bit in this block's SOFT_RESET_0: an Ethernet tile's E0 and E1
 * have BRISC's and TRISC0's (ethdump SOFT_RESET_E0/E1, tt-umd risc_type.hpp)
 */
static uint32_t tt_core_bit(TTRiscvDebugRegs *s, int r)
{
    return s->ethernet ? BIT(11 + r) : tt_soft_reset_bit(r);
}

uint32_t tt_debug_regs_reset_pc(TTRiscvDebugRegs *s, TTCoreRole role)
{
    int t = role - TT_TRISC0;

    if (s->ethernet) {
        return qatomic_read(&s->erisc_reset_pc[role]);
    }
    switch (role) {
    case TT_BRISC:
        return 0;
    case TT_NCRISC:
        return s->ncrisc_pc_override & 1 ? s->ncrisc_reset_pc
                                         : TT_NCRISC_DEFAULT_PC;
    default:
        return s->trisc_pc_override & BIT(t) ? s->trisc_reset_pc[t]
               : TT_TRISC0_DEFAULT_PC + t * TT_TRISC_PC_STRIDE;
    }
}

void tt_debug_regs_set_reset_pc(TTRiscvDebugRegs *s, TTCoreRole role,
                                uint32_t pc)
{
    QEMU_LOCK_GUARD(&s->lock);
    if (s->ethernet) {
        s->erisc_reset_pc[role] = pc;
    } else if (role == TT_NCRISC) {
        s->ncrisc_reset_pc = pc;
        s->ncrisc_pc_override = 1;
    } else if (role >= TT_TRISC0) {
        s->trisc_reset_pc[role - TT_TRISC0] = pc;
        s->trisc_pc_override |= BIT(role - TT_TRISC0);
    }
}

/*
 * Migration loads so far.  Work queued on a core before a load (a vCPU
 * thread runs its queue only when it gets the BQL, which loading holds)
 * belongs to the state the load replaced: it must not reset or hold the
 * loaded core afterwards.  Each work item carries the count it was
 * queued under and does nothing if a load came since.
 */
static uint32_t tt_core_load_gen;

/*
 * The cores are M-mode only, without MMU or PMP (the tt-blackhole CPU
 * models), in an address space that changes only by memory transactions,
 * which flush the TLB themselves: a reset cannot change what their TLB
 * and jump cache hold.  Flushing both at every soft reset made each core
 * refill its TLB and find every TB again through the hash table when a
 * kernel started: about half of a 140-tile run of a short kernel.
 */
void tt_core_keep_caches(CPUState *cs)
{
    cs->tcg_reset_keeps_caches = true;
}

static void tt_core_release_work(CPUState *cs, run_on_cpu_data data)
{
    CPURISCVState *env = cpu_env(cs);
    struct TTCoreRelease *rl = data.host_ptr;

    if (qatomic_read(&rl->gen) != qatomic_read(&tt_core_load_gen)) {
        return;
    }
    cpu_reset(cs);
    memset(env->gpr, 0, sizeof(env->gpr));
    tt_csr_reset(env);
    tt_spin_core_reset_cpu(cs);
    env->pc = qatomic_read(&rl->pc);
    cs->halted = 0;
    rl->epoch = env->tt_spin_epoch;
    rl->count = env->tt_spin_count;
    qatomic_store_release(&rl->started, true);
}

static void tt_core_hold_work(CPUState *cs, run_on_cpu_data data)
{
    struct TTCoreHold *h = data.host_ptr;
    MemoryRegion *ldm = qatomic_read(&h->ldm);

    if (qatomic_read(&h->gen) == qatomic_read(&tt_core_load_gen)) {
        cs->halted = 1;
        cs->exception_index = EXCP_HLT;
        tt_spin_core_reset_cpu(cs);
        if (ldm) {
            memset(memory_region_get_ram_ptr(ldm), 0,
                   memory_region_size(ldm));
        }
    }
    qatomic_store_release(&h->done, h->done + 1);
}

/* A core may not see work queued without the BQL: kick it again later */
static void tt_debug_regs_kick_later(TTRiscvDebugRegs *s, int role)
{
    if (s->spin) {
        tt_spin_kick_later(s->spin, role);
    }
}

/* DISABLE_RESET: even bit per core keeps LDM (T0 0, .. NC 8) */
static const uint8_t tt_keep_ldm_bit[TT_CORES_PER_TILE] = { 6, 8, 0, 2, 4 };

/* Called with s->lock held, so each core gets its work in register order. */
static void tt_soft_reset_update(TTRiscvDebugRegs *s, uint32_t old,
                                 uint32_t val)
{
    for (int r = 0; r < s->ncores; r++) {
        uint32_t bit = tt_core_bit(s, r);
        CPUState *cs = CPU(s->cpu[r]);

        if ((old ^ val) & bit && val & bit) {
            bool keep = s->disable_reset & BIT(tt_keep_ldm_bit[r]);

            trace_tt_core_hold(s->tile_x, s->tile_y, tt_core_role_name[r]);
            qatomic_set(&s->hold[r].ldm, keep ? NULL : s->ldm[r]);
            qatomic_set(&s->hold[r].gen, qatomic_read(&tt_core_load_gen));
            qatomic_set(&s->hold[r].queued, s->hold[r].queued + 1);
            async_run_on_cpu(cs, tt_core_hold_work,
                             RUN_ON_CPU_HOST_PTR(&s->hold[r]));
            tt_debug_regs_kick_later(s, r);
        } else if ((old ^ val) & bit) {
            uint32_t pc = tt_debug_regs_reset_pc(s, r);

            trace_tt_core_release(s->tile_x, s->tile_y, tt_core_role_name[r],
                                  pc);
            /* DISABLE_RESET's odd bit per core keeps the debug registers */
            if (!s->ethernet) {
                tt_risc_debug_core_reset(&s->risc_dbg, r, s->disable_reset &
                                         BIT(tt_keep_ldm_bit[r] + 1));
            }
            qatomic_or(&s->ran, BIT(r));
            qatomic_set(&s->rel[r].started, false);
            qatomic_set(&s->rel[r].pc, pc);
            qatomic_set(&s->rel[r].gen, qatomic_read(&tt_core_load_gen));
            async_run_on_cpu(cs, tt_core_release_work,
                             RUN_ON_CPU_HOST_PTR(&s->rel[r]));
            tt_debug_regs_kick_later(s, r);
        }
    }
}

/*
 * With s->lock held.  Before a core is released (its bit set first, with
 * a full barrier): a client that wrote L1 and then saw the bit clear knows
 * the core will read the write.
 */
static void tt_debug_regs_publish_live(TTRiscvDebugRegs *s)
{
    uint32_t all = 0;

    if (!s->live_word) {
        return;
    }
    for (int r = 0; r < s->ncores; r++) {
        all |= tt_core_bit(s, r);
    }
    if ((s->soft_reset & all) != all) {
        qatomic_or(s->live_word, s->live_bit);
    } else {
        qatomic_and(s->live_word, ~s->live_bit);
    }
    smp_mb();
}

void tt_debug_regs_set_live_flag(TTRiscvDebugRegs *s, uint64_t *word,
                                 uint64_t bit)
{
    QEMU_LOCK_GUARD(&s->lock);
    s->live_word = word;
    s->live_bit = bit;
    tt_debug_regs_publish_live(s);
}

void tt_debug_regs_set_soft_reset(TTRiscvDebugRegs *s, uint32_t val)
{
    uint32_t old;

    QEMU_LOCK_GUARD(&s->lock);
    old = s->soft_reset;
    s->soft_reset = val & TT_SOFT_RESET_MASK;
    tt_debug_regs_publish_live(s);
    tt_soft_reset_update(s, old, s->soft_reset);
}

bool tt_debug_regs_take_ran(TTRiscvDebugRegs *s, int role)
{
    return qatomic_fetch_and(&s->ran, ~BIT(role)) & BIT(role);
}

uint32_t tt_debug_regs_get_soft_reset(TTRiscvDebugRegs *s)
{
    return qatomic_read(&s->soft_reset);
}

/* The roles SOFT_RESET_0 holds, one bit per TTCoreRole */
static uint32_t tt_debug_regs_held(TTRiscvDebugRegs *s)
{
    uint32_t soft_reset = tt_debug_regs_get_soft_reset(s), held = 0;

    for (int r = 0; r < s->ncores; r++) {
        if (soft_reset & tt_core_bit(s, r)) {
            held |= BIT(r);
        }
    }
    return held;
}

static uint64_t tt_wall_clock(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) * TT_AICLK_MUL /
           TT_AICLK_DIV;
}

static uint32_t *tt_debug_reg_ptr(TTRiscvDebugRegs *s, hwaddr addr)
{
    if (s->ethernet) {
        /* the Tensix cores' reset PCs, clock gating and LDM keeping */
        return addr == A_DBG_BUS_CTRL ? &s->dbg_bus_ctrl : NULL;
    }
    switch (addr) {
    case A_DBG_BUS_CTRL:
        return &s->dbg_bus_ctrl;
    case A_DISABLE_RESET:
        return &s->disable_reset;
    case A_TRISC0_RESET_PC:
    case A_TRISC1_RESET_PC:
    case A_TRISC2_RESET_PC:
        return &s->trisc_reset_pc[(addr - A_TRISC0_RESET_PC) / 4];
    case A_TRISC_RESET_PC_OVERRIDE:
        return &s->trisc_pc_override;
    case A_NCRISC_RESET_PC:
        return &s->ncrisc_reset_pc;
    case A_NCRISC_RESET_PC_OVERRIDE:
        return &s->ncrisc_pc_override;
    case A_DEST_CG_CTRL:
    case A_CG_CTRL_EN:
    case A_CG_KICK:
        return &s->cg[(addr - A_DEST_CG_CTRL) / 4];
    default:
        return NULL;
    }
}

/*
 * The debug bus as debuggers read a core's PC on Blackhole (tt-exalens
 * blackhole/functional_worker_debug_bus_signals.py, blackhole-py): daisy 7,
 * read select 1, signals 11/13/15/17/25 for B/T0/T1/T2/NC carry the low
 * 30 bits of the PC entering decode.  Other signals are not modelled.
 */
static uint32_t tt_debug_bus_read(TTRiscvDebugRegs *s)
{
    static const uint8_t pc_sig[TT_CORES_PER_TILE] = { 11, 25, 13, 15, 17 };
    uint32_t c = qatomic_read(&s->dbg_bus_ctrl);

    bool pcs = FIELD_EX32(c, DBG_BUS_CTRL, EN) &&
               FIELD_EX32(c, DBG_BUS_CTRL, DAISY_SEL) == 7 &&
               FIELD_EX32(c, DBG_BUS_CTRL, RD_SEL) == 1;

    for (int r = 0; pcs && !s->ethernet && r < TT_CORES_PER_TILE; r++) {
        if (FIELD_EX32(c, DBG_BUS_CTRL, SIG_SEL) == pc_sig[r]) {
            tt_spin_volatile_read();
            return qatomic_read(&cpu_env(CPU(s->cpu[r]))->pc) & 0x3fffffff;
        }
    }
    qemu_log_mask(LOG_UNIMP, "tt-riscv-debug-regs: x%dy%d: debug bus signal "
                  "0x%08x is not modelled (only the cores' PCs)\n",
                  s->tile_x, s->tile_y, c);
    return 0;
}

static uint64_t tt_debug_regs_read(void *opaque, hwaddr addr, unsigned size)
{
    TTRiscvDebugRegs *s = opaque;
    uint64_t now;
    uint32_t *reg, val = 0;

    switch (addr) {
    case A_RISC_DBG_CNTL_0 ... A_RISC_DBG_STATUS_1:
        if (s->ethernet) {
            qemu_log_mask(LOG_UNIMP, "%s: x%dy%d: the ERISC debug interface "
                          "is not modelled\n", __func__, s->tile_x, s->tile_y);
            break;
        }
        val = tt_risc_debug_read(&s->risc_dbg, addr);
        break;
    case A_DBG_RD_DATA:
        val = tt_debug_bus_read(s);
        break;
    case A_SOFT_RESET_0:
        val = qatomic_read(&s->soft_reset);
        break;
    case A_WALL_CLOCK_L:
        tt_spin_volatile_read();
        now = tt_wall_clock();
        qatomic_set(&s->wall_clock_hi_latched, now >> 32);
        val = now;
        break;
    case A_WALL_CLOCK_1:
        tt_spin_volatile_read();
        val = tt_wall_clock() >> 32;
        break;
    case A_WALL_CLOCK_H:
        val = qatomic_read(&s->wall_clock_hi_latched);
        break;
    default:
        reg = tt_debug_reg_ptr(s, addr);
        if (reg) {
            val = qatomic_read(reg);
        } else {
            qemu_log_mask(LOG_UNIMP, "%s: x%dy%d: unimplemented register "
                          "0x%" HWADDR_PRIx "\n", __func__, s->tile_x,
                          s->tile_y, TT_TILE_DEBUG_REGS_BASE + addr);
        }
    }
    trace_tt_debug_regs_read(s->tile_x, s->tile_y, addr, val);
    return val;
}

static void tt_debug_regs_synced(CPUState *cs, run_on_cpu_data data)
{
}

/*
 * A host (not a core) holding cores: its write completes once they have
 * stopped, as on the chip, where a core in reset runs no more
 * instructions.  The hold is work queued on the core's vCPU; a host that
 * then writes new code over the old must not meet the core still running
 * (or translating) the old.  A core writing the register does not wait:
 * two cores holding each other would deadlock.
 *
 * The holds of one host access are waited for at its end
 * (tt_noc_host_at_end): a multicast reaches 140 tiles, whose cores then
 * stop in parallel.  A hold that has run is done (a count per core);
 * otherwise work queued behind it tells when it has.
 */
typedef struct TTHostHold {
    TTRiscvDebugRegs *s;
    uint32_t roles;             /* one bit per TTCoreRole */
    uint32_t seq[TT_CORES_PER_TILE];    /* hold[r].queued then */
} TTHostHold;

static __thread TTHostHold tt_host_holds[TT_MAX_TILES];
static __thread unsigned tt_host_nholds;

static void tt_host_wait_held(const TTHostHold *h, unsigned n)
{
    bool locked = bql_locked();

    for (unsigned i = 0; i < n; i++) {
        for (int r = 0; r < h[i].s->ncores; r++) {
            CPUState *cs = CPU(h[i].s->cpu[r]);
            uint32_t done = qatomic_load_acquire(&h[i].s->hold[r].done);

            if (!(h[i].roles & BIT(r)) || !cs->created ||
                (int32_t)(done - h[i].seq[r]) >= 0) {
                continue;
            }
            if (!bql_locked()) {
                bql_lock();
            }
            run_on_cpu(cs, tt_debug_regs_synced, RUN_ON_CPU_NULL);
        }
    }
    if (!locked && bql_locked()) {
        bql_unlock();
    }
}

static void tt_host_holds_flush(void)
{
    unsigned n = tt_host_nholds;

    tt_host_nholds = 0;
    tt_host_wait_held(tt_host_holds, n);
}

/*
 * A host that releases a core and reads what the core wrote right after
 * (tt-umd's TestRiscProgram.DeassertResetBrisc) finds, on silicon, that
 * the core has run by then: a PCIe round trip lasts a thousand core
 * cycles.  Here the core's vCPU thread has to wake up and translate
 * first.  The release itself is a posted write on PCIe and completes at
 * once; the host's next read (tt_noc_host_before_read: a register, or
 * the host map's sync before it reads the chip's memory) waits until
 * each core released before it has made progress (a store, a backward
 * branch) or stopped, at most TT_START_WAIT_NS after its release: a core
 * that does neither delays the host only that long.  The bound is generous:
 * under a full test run on two host CPUs a released core once took more
 * than 20 ms to be scheduled.  A host that releases 140 tiles one write
 * at a time waits once.
 */
#define TT_START_WAIT_NS    (250 * SCALE_MS)

/*
 * The wait yields the CPU for its first TT_START_SPIN_NS (a core on an
 * idle host CPU starts within that), then sleeps TT_START_NAP_US between
 * checks: with more released cores than host CPUs a thread that keeps
 * yielding takes the CPU time they need to start (a fifth of two CPUs,
 * releasing 140 tiles)
 */
#define TT_START_SPIN_NS    (1 * SCALE_MS)
#define TT_START_NAP_US     20

typedef struct TTHostStart {
    TTRiscvDebugRegs *s;
    uint32_t roles;
    int64_t until;              /* give up then (get_clock()) */
} TTHostStart;

static __thread TTHostStart tt_host_starts[2 * TT_MAX_TILES];
static __thread unsigned tt_host_nstarts;

static bool tt_core_progressed(CPUState *cs, struct TTCoreRelease *rl)
{
    CPURISCVState *env = cpu_env(cs);

    return qatomic_load_acquire(&rl->started) &&
           (qatomic_read(&env->tt_spin_epoch) != rl->epoch ||
            qatomic_read(&env->tt_spin_count) != rl->count ||
            qatomic_read(&cs->halted) ||
            qatomic_read(&env->tt_park) != TT_PARK_RUNNING);
}

static void tt_host_starts_flush(void)
{
    unsigned n = tt_host_nstarts;
    int64_t t0;
    bool locked;

    tt_host_nstarts = 0;
    if (!n || !tcg_enabled() || !qemu_tcg_mttcg_enabled() ||
        !runstate_is_running()) {
        return;
    }
    locked = bql_locked();
    if (locked) {
        bql_unlock();       /* a halted vCPU thread needs it to wake up */
    }
    t0 = get_clock();
    for (unsigned i = 0; i < n; i++) {
        const TTHostStart *w = &tt_host_starts[i];

        for (int r = 0; r < w->s->ncores; r++) {
            CPUState *cs = CPU(w->s->cpu[r]);
            int64_t now;

            if (!(w->roles & BIT(r))) {
                continue;
            }
            while (!tt_core_progressed(cs, &w->s->rel[r]) &&
                   (now = get_clock()) < w->until) {
                if (now - t0 < TT_START_SPIN_NS) {
                    sched_yield();
                } else {
                    g_usleep(TT_START_NAP_US);
                }
            }
        }
    }
    if (locked) {
        bql_lock();
    }
}

/* A host wrote SOFT_RESET_0 from @old to @now: what it waits for, when */
static void tt_debug_regs_host_wait(TTRiscvDebugRegs *s, uint32_t old,
                                    uint32_t now)
{
    TTHostHold h = { .s = s };
    uint32_t released = 0;

    if (current_cpu) {
        return;
    }
    for (int r = 0; r < s->ncores; r++) {
        uint32_t bit = tt_core_bit(s, r);

        if (!(old & bit) && now & bit) {
            h.roles |= BIT(r);
            h.seq[r] = qatomic_read(&s->hold[r].queued);
        } else if (old & bit && !(now & bit)) {
            released |= BIT(r);
        }
    }
    if (h.roles) {
        if (tt_host_nholds == ARRAY_SIZE(tt_host_holds)) {
            tt_host_holds_flush();
        }
        if (tt_noc_host_at_end(tt_host_holds_flush)) {
            tt_host_holds[tt_host_nholds++] = h;
        } else {
            tt_host_wait_held(&h, 1);   /* not through the NOC: now */
        }
    }
    if (released) {
        if (tt_host_nstarts == ARRAY_SIZE(tt_host_starts)) {
            tt_host_starts_flush();
        }
        /* outside a host access nothing reads: no wait */
        if (tt_noc_host_before_read(tt_host_starts_flush)) {
            tt_host_starts[tt_host_nstarts++] = (TTHostStart) {
                .s = s, .roles = released,
                .until = get_clock() + TT_START_WAIT_NS,
            };
        }
    }
}

static void tt_debug_regs_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size)
{
    TTRiscvDebugRegs *s = opaque;
    uint32_t *reg = tt_debug_reg_ptr(s, addr);

    trace_tt_debug_regs_write(s->tile_x, s->tile_y, addr, val);
    if (addr >= A_RISC_DBG_CNTL_0 && addr <= A_RISC_DBG_STATUS_1 &&
        !s->ethernet) {
        tt_risc_debug_write(&s->risc_dbg, addr, val,
                            tt_debug_regs_held(s));
        return;
    }
    if (addr == A_SOFT_RESET_0) {
        uint32_t old = tt_debug_regs_get_soft_reset(s);

        tt_debug_regs_set_soft_reset(s, val);
        tt_debug_regs_host_wait(s, old, tt_debug_regs_get_soft_reset(s));
    } else if (reg) {
        WITH_QEMU_LOCK_GUARD(&s->lock) {
            qatomic_set(reg, val);
        }
    } else {
        qemu_log_mask(LOG_UNIMP, "%s: x%dy%d: unimplemented register "
                      "0x%" HWADDR_PRIx " <- 0x%" PRIx64 "\n", __func__,
                      s->tile_x, s->tile_y, TT_TILE_DEBUG_REGS_BASE + addr,
                      val);
        return;
    }
    if (s->spin) {
        tt_spin_wake(s->spin);      /* the tile's cores may poll these */
    }
}

static const MemoryRegionOps tt_debug_regs_ops = {
    .read = tt_debug_regs_read,
    .write = tt_debug_regs_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

static uint64_t tt_pic_read(void *opaque, hwaddr addr, unsigned size)
{
    TTRiscvDebugRegs *s = opaque;

    if (addr >= A_PC_READBACK_BRISC && addr <= A_PC_READBACK_TRISC2) {
        /* Order of the readback words: B, NC, T0, T1, T2 */
        CPUState *cs = CPU(s->cpu[(addr - A_PC_READBACK_BRISC) / 4]);

        tt_spin_volatile_read();
        return qatomic_read(&cpu_env(cs)->pc);
    }
    qemu_log_mask(LOG_UNIMP, "%s: x%dy%d: unimplemented PIC register "
                  "0x%" HWADDR_PRIx "\n", __func__, s->tile_x, s->tile_y,
                  TT_TILE_PIC_BASE + addr);
    return 0;
}

static void tt_pic_write(void *opaque, hwaddr addr, uint64_t val,
                         unsigned size)
{
    TTRiscvDebugRegs *s = opaque;

    qemu_log_mask(addr >= A_PC_READBACK_BRISC && addr <= A_PC_READBACK_TRISC2
                  ? LOG_GUEST_ERROR : LOG_UNIMP,
                  "%s: x%dy%d: write to 0x%" HWADDR_PRIx " ignored\n",
                  __func__, s->tile_x, s->tile_y, TT_TILE_PIC_BASE + addr);
}

static const MemoryRegionOps tt_pic_ops = {
    .read = tt_pic_read,
    .write = tt_pic_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

/*
 * An Ethernet tile's ERISC control block at 0xFFB14000: the reset PCs of
 * E0 (+0x0) and E1 (+0x8), "E1 end PC" (+0xC, ethdump writes it; no
 * documented effect) and the five interrupt-mode words (+0x20, tt-metal
 * writes 0 to all of them; the PIC behind them is not modelled).
 * tt-metal dev_mem_map.h IERISC_RESET_PC / SUBORDINATE_IERISC_RESET_PC.
 */
static uint32_t *tt_erisc_ctrl_ptr(TTRiscvDebugRegs *s, hwaddr addr)
{
    switch (addr) {
    case A_ERISC0_RESET_PC:
    case A_ERISC1_RESET_PC:
        return &s->erisc_reset_pc[(addr - A_ERISC0_RESET_PC) / 8];
    case A_ERISC1_END_PC:
        return &s->erisc_end_pc;
    case A_ERISC_INT_MODE_0 ... A_ERISC_INT_MODE_0 + 4 * 4:
        return &s->erisc_int_mode[(addr - A_ERISC_INT_MODE_0) / 4];
    default:
        return NULL;
    }
}

static uint64_t tt_erisc_ctrl_read(void *opaque, hwaddr addr, unsigned size)
{
    TTRiscvDebugRegs *s = opaque;
    uint32_t *reg = tt_erisc_ctrl_ptr(s, addr);

    if (!reg) {
        qemu_log_mask(LOG_UNIMP, "%s: x%dy%d: unimplemented register "
                      "0x%" HWADDR_PRIx "\n", __func__, s->tile_x, s->tile_y,
                      TT_ETH_ERISC_CTRL_BASE + addr);
        return 0;
    }
    return qatomic_read(reg);
}

static void tt_erisc_ctrl_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size)
{
    TTRiscvDebugRegs *s = opaque;
    uint32_t *reg = tt_erisc_ctrl_ptr(s, addr);

    trace_tt_debug_regs_write(s->tile_x, s->tile_y,
                              TT_ETH_ERISC_CTRL_BASE - TT_TILE_DEBUG_REGS_BASE +
                              addr, val);
    if (!reg) {
        qemu_log_mask(LOG_UNIMP, "%s: x%dy%d: unimplemented register "
                      "0x%" HWADDR_PRIx " <- 0x%" PRIx64 "\n", __func__,
                      s->tile_x, s->tile_y, TT_ETH_ERISC_CTRL_BASE + addr, val);
        return;
    }
    if (reg >= s->erisc_int_mode && reg < s->erisc_int_mode + 5 && val) {
        qemu_log_mask(LOG_UNIMP, "%s: x%dy%d: interrupt mode 0x%" PRIx64
                      " (interrupts are not modelled)\n", __func__,
                      s->tile_x, s->tile_y, val);
    }
    WITH_QEMU_LOCK_GUARD(&s->lock) {
        qatomic_set(reg, val);
    }
}

static const MemoryRegionOps tt_erisc_ctrl_ops = {
    .read = tt_erisc_ctrl_read,
    .write = tt_erisc_ctrl_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

static void tt_debug_regs_reset_hold(Object *obj, ResetType type)
{
    TTRiscvDebugRegs *s = TT_RISCV_DEBUG_REGS(obj);

    /* The cores themselves are reset (held) by their own reset handlers. */
    QEMU_LOCK_GUARD(&s->lock);
    s->soft_reset = s->ethernet ? TT_ERISC_SOFT_RESET_POWER_ON
                                : TT_SOFT_RESET_POWER_ON;
    memset(s->erisc_reset_pc, 0, sizeof(s->erisc_reset_pc));
    s->erisc_end_pc = 0;
    memset(s->erisc_int_mode, 0, sizeof(s->erisc_int_mode));
    tt_debug_regs_publish_live(s);
    s->disable_reset = 0;
    memset(s->trisc_reset_pc, 0, sizeof(s->trisc_reset_pc));
    s->trisc_pc_override = 0;
    s->ncrisc_reset_pc = 0;
    s->ncrisc_pc_override = 0;
    memset(s->cg, 0, sizeof(s->cg));
    s->wall_clock_hi_latched = 0;
    tt_risc_debug_reset(&s->risc_dbg);
    s->dbg_bus_ctrl = 0;
}

static void tt_debug_regs_realize(DeviceState *dev, Error **errp)
{
    TTRiscvDebugRegs *s = TT_RISCV_DEBUG_REGS(dev);

    s->ncores = s->ethernet ? TT_ERISC_CORES : TT_CORES_PER_TILE;
    s->ran = MAKE_64BIT_MASK(0, s->ncores);     /* the first reset: all */
    for (int r = 0; r < s->ncores; r++) {
        if (!s->cpu[r] || !s->ldm[r]) {
            error_setg(errp, "tt-riscv-debug-regs: cpu%d/ldm%d link not set",
                       r, r);
            return;
        }
    }
    qemu_mutex_init(&s->lock);
    memory_region_init_io(&s->ctrl, OBJECT(s), &tt_debug_regs_ops, s,
                          "tt-riscv-debug-regs", 0x1000);
    if (s->ethernet) {
        /* region 1 is the ERISC control block, not the Tensix PIC */
        memory_region_init_io(&s->pic, OBJECT(s), &tt_erisc_ctrl_ops, s,
                              "tt-erisc-ctrl", 0x1000);
    } else {
        memory_region_init_io(&s->pic, OBJECT(s), &tt_pic_ops, s,
                              "tt-pic", 0x1000);
        tt_risc_debug_init(&s->risc_dbg, s->cpu, s->spin, s->tile_x,
                           s->tile_y);
    }
    memory_region_enable_lockless_io(&s->ctrl);
    memory_region_enable_lockless_io(&s->pic);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->ctrl);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->pic);
}

static const VMStateDescription vmstate_tt_risc_debug_core = {
    .name = "tt-risc-debug-core",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(dr, TTRiscDebugCore, TT_RISC_DBG_DRS),
        VMSTATE_BOOL(halted, TTRiscDebugCore),
        VMSTATE_BOOL(step_armed, TTRiscDebugCore),
        VMSTATE_BOOL(ebreak, TTRiscDebugCore),
        VMSTATE_END_OF_LIST()
    },
};

/* Work queued before this load is stale (tt_core_load_gen) */
static int tt_debug_regs_pre_load(void *opaque)
{
    qatomic_inc(&tt_core_load_gen);
    return 0;
}

static int tt_debug_regs_post_load(void *opaque, int version_id)
{
    TTRiscvDebugRegs *s = opaque;

    QEMU_LOCK_GUARD(&s->lock);
    tt_debug_regs_publish_live(s);
    return 0;
}

static const VMStateDescription vmstate_tt_debug_regs = {
    .name = TYPE_TT_RISCV_DEBUG_REGS,
    .version_id = 3,
    .minimum_version_id = 2,
    .pre_load = tt_debug_regs_pre_load,
    .post_load = tt_debug_regs_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(soft_reset, TTRiscvDebugRegs),
        VMSTATE_UINT32(disable_reset, TTRiscvDebugRegs),
        VMSTATE_UINT32_ARRAY(trisc_reset_pc, TTRiscvDebugRegs, 3),
        VMSTATE_UINT32(trisc_pc_override, TTRiscvDebugRegs),
        VMSTATE_UINT32(ncrisc_reset_pc, TTRiscvDebugRegs),
        VMSTATE_UINT32(ncrisc_pc_override, TTRiscvDebugRegs),
        VMSTATE_UINT32_ARRAY(cg, TTRiscvDebugRegs, 3),
        VMSTATE_UINT32(wall_clock_hi_latched, TTRiscvDebugRegs),
        VMSTATE_UINT32(dbg_bus_ctrl, TTRiscvDebugRegs),
        VMSTATE_UINT32(risc_dbg.cntl0, TTRiscvDebugRegs),
        VMSTATE_UINT32(risc_dbg.cntl1, TTRiscvDebugRegs),
        VMSTATE_UINT32(risc_dbg.status1, TTRiscvDebugRegs),
        VMSTATE_BOOL(risc_dbg.read_valid, TTRiscvDebugRegs),
        VMSTATE_STRUCT_ARRAY(risc_dbg.core, TTRiscvDebugRegs,
                             TT_RISC_DBG_CORES, 1,
                             vmstate_tt_risc_debug_core, TTRiscDebugCore),
        VMSTATE_UINT32_ARRAY_V(erisc_reset_pc, TTRiscvDebugRegs,
                               TT_ERISC_CORES, 3),
        VMSTATE_UINT32_V(erisc_end_pc, TTRiscvDebugRegs, 3),
        VMSTATE_UINT32_ARRAY_V(erisc_int_mode, TTRiscvDebugRegs, 5, 3),
        VMSTATE_END_OF_LIST()
    },
};

static const Property tt_debug_regs_props[] = {
    DEFINE_PROP_LINK("cpu0", TTRiscvDebugRegs, cpu[0], TYPE_RISCV_CPU,
                     Object *),
    DEFINE_PROP_LINK("cpu1", TTRiscvDebugRegs, cpu[1], TYPE_RISCV_CPU,
                     Object *),
    DEFINE_PROP_LINK("cpu2", TTRiscvDebugRegs, cpu[2], TYPE_RISCV_CPU,
                     Object *),
    DEFINE_PROP_LINK("cpu3", TTRiscvDebugRegs, cpu[3], TYPE_RISCV_CPU,
                     Object *),
    DEFINE_PROP_LINK("cpu4", TTRiscvDebugRegs, cpu[4], TYPE_RISCV_CPU,
                     Object *),
    DEFINE_PROP_LINK("ldm0", TTRiscvDebugRegs, ldm[0], TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_LINK("ldm1", TTRiscvDebugRegs, ldm[1], TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_LINK("ldm2", TTRiscvDebugRegs, ldm[2], TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_LINK("ldm3", TTRiscvDebugRegs, ldm[3], TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_LINK("ldm4", TTRiscvDebugRegs, ldm[4], TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_LINK("spin", TTRiscvDebugRegs, spin, TYPE_TT_SPIN_TILE,
                     TTSpinTile *),
    DEFINE_PROP_UINT8("x", TTRiscvDebugRegs, tile_x, 0),
    DEFINE_PROP_UINT8("y", TTRiscvDebugRegs, tile_y, 0),
    /* an Ethernet tile's: two ERISC cores, cpu0 = E0 and cpu1 = E1 */
    DEFINE_PROP_BOOL("ethernet", TTRiscvDebugRegs, ethernet, false),
};

static void tt_debug_regs_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole tile control and debug registers";
    dc->realize = tt_debug_regs_realize;
    dc->vmsd = &vmstate_tt_debug_regs;
    dc->user_creatable = false;
    rc->phases.hold = tt_debug_regs_reset_hold;
    device_class_set_props(dc, tt_debug_regs_props);
}

static const TypeInfo tt_debug_regs_types[] = {
    {
        .name = TYPE_TT_RISCV_DEBUG_REGS,
        .parent = TYPE_SYS_BUS_DEVICE,
        .instance_size = sizeof(TTRiscvDebugRegs),
        .class_init = tt_debug_regs_class_init,
    },
};

DEFINE_TYPES(tt_debug_regs_types)
