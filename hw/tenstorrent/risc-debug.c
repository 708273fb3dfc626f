/*
 * Tenstorrent Blackhole baby RISC-V debug interface (RISC_DBG_CNTL_0/1,
 * RISC_DBG_STATUS_0/1): the per-core debug registers behind them and the
 * commands a debugger issues through DR1.
 *
 * Protocol (DebugInterface.md; tt-exalens baby_risc_debug.py): CNTL_0
 * selects DR i of core j (B, T0, T1, T2) and whether to write it from
 * CNTL_1; the access happens on a 0->1 edge of CNTL_0 bit 31.  A read
 * leaves the value in STATUS_1 and sets STATUS_0 bit 30 until the next
 * edge.  A write of DR1 is a command: halt, step, continue, register and
 * memory access through the core's own view, zeroing x1-x31, new PC.
 *
 * Halting uses the core's halted state with its parking cleared, so no
 * waker (spin parking, Tensix waits) restarts it; only CONTINUE, STEP or
 * the core's soft reset do.  Commands from the host path (vfio-user,
 * qtest: BQL held, no current CPU) complete before the register write
 * returns, as tt-exalens expects (it checks the halt at once); commands
 * from a core's NOC traffic are queued to the target core.  A step runs
 * TCG's single-step mode on that core; patch 0011's hook takes its debug
 * exception so the rest of the chip keeps running.
 *
 * Blackhole specifics followed here: tt-exalens and blackhole-py send STEP
 * twice per instruction (a documented hardware bug), so the first STEP of
 * a pair arms and the second executes one instruction; SET_PC takes the
 * new PC from DR3 as tt-exalens writes it (the ISA text says DR4).
 * ebreak and ecall pause the core (patch target-riscv-tt-pause-on-ebreak),
 * as DebugInterface.md says.
 * The eight breakpoint/watchpoint slots (DR5 modes, DR10-17 addresses)
 * become QEMU breakpoints (flagged as gdb's, the only kind TCG stops at)
 * and watchpoints (32-bit word, stopping after the access) of that core;
 * continuing from a PC breakpoint steps over it first.  Not modelled:
 * slow "debug mode" timing.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "hw/core/cpu.h"
#include "exec/watchpoint.h"
#include "exec/tb-flush.h"
#include "system/cpus.h"
#include "system/memory.h"
#include "target/riscv/cpu.h"
#include "hw/tenstorrent/risc-debug.h"
#include "hw/tenstorrent/spin-park.h"
#include "trace.h"

/* How long the host path waits for one step (a stalled access waits on) */
#define TT_DBG_STEP_WAIT_MS     200

static const TTCoreRole tt_dbg_role[TT_RISC_DBG_CORES] = {
    TT_BRISC, TT_TRISC0, TT_TRISC1, TT_TRISC2,
};

/* Debug state of each CPU, for the debug-exception hook */
static GHashTable *tt_dbg_by_cpu;
static QemuCond tt_dbg_step_done;       /* with the BQL: a step finished */

static bool tt_dbg_sync(void)
{
    return !current_cpu && bql_locked();
}

static int tt_dbg_mode(uint32_t modes, int i)
{
    return (modes >> (4 * i)) & 0xf;
}

static void tt_dbg_halt_work(CPUState *cs, run_on_cpu_data data)
{
    TTRiscDebugCore *c = data.host_ptr;

    cs->halted = 1;
    qatomic_set(&cpu_env(cs)->tt_park, TT_PARK_RUNNING);    /* no wakers */
    qatomic_set(&c->halted, true);
}

static void tt_dbg_resume_work(CPUState *cs, run_on_cpu_data data)
{
    TTRiscDebugCore *c = data.host_ptr;

    if (qatomic_read(&c->halted)) {
        return;
    }
    if (c->step_then_run) {
        /* on a PC breakpoint: run its instruction first (steps ignore it) */
        qatomic_set(&c->stepping, true);
        cpu_single_step(cs, SSTEP_ENABLE | SSTEP_NOIRQ | SSTEP_NOTIMER);
    }
    cs->halted = 0;
}

/* DR5 or a slot address changed: reinstall the core's slots */
static void tt_dbg_slots_work(CPUState *cs, run_on_cpu_data data)
{
    TTRiscDebugCore *c = data.host_ptr;
    static const int wp_flags[] = {
        BP_MEM_READ, BP_MEM_WRITE, BP_MEM_ACCESS,
    };

    bool pc_slots = false;

    for (int i = 0; i < TT_DBG_SLOTS; i++) {
        int mode = tt_dbg_mode(c->armed_modes, i);

        if (mode == TT_DBG_MODE_PC) {
            pc_slots = true;
            cpu_breakpoint_remove(cs, c->armed_addr[i], BP_GDB);
        } else if (mode > TT_DBG_MODE_PC && mode <= TT_DBG_MODE_ACCESS) {
            cpu_watchpoint_remove(cs, c->armed_addr[i], 4,
                                  wp_flags[mode - TT_DBG_MODE_READ]);
        }
    }
    qatomic_set(&c->armed_modes, qatomic_read(&c->dr[TT_DR_WATCH_SETTINGS]));
    for (int i = 0; i < TT_DBG_SLOTS; i++) {
        int mode = tt_dbg_mode(c->armed_modes, i);

        c->armed_addr[i] = qatomic_read(&c->dr[TT_DR_WATCH0 + i]);
        if (mode == TT_DBG_MODE_PC) {
            pc_slots = true;
            cpu_breakpoint_insert(cs, c->armed_addr[i], BP_GDB, NULL);
        } else if (mode > TT_DBG_MODE_PC && mode <= TT_DBG_MODE_ACCESS) {
            cpu_watchpoint_insert(cs, c->armed_addr[i], 4,
                                  wp_flags[mode - TT_DBG_MODE_READ], NULL);
        }
    }
    if (pc_slots) {
        queue_tb_flush(cs); /* translated code must see the breakpoints */
    }
}

static void tt_dbg_step_work(CPUState *cs, run_on_cpu_data data)
{
    TTRiscDebugCore *c = data.host_ptr;

    qatomic_set(&c->stepping, true);
    cpu_single_step(cs, SSTEP_ENABLE | SSTEP_NOIRQ | SSTEP_NOTIMER);
    cs->halted = 0;
}

/* A debug exception at one of the core's own breakpoints or watchpoints */
static uint32_t tt_dbg_slot_hit(CPUState *cs, TTRiscDebugCore *c)
{
    CPUWatchpoint *wp = cs->watchpoint_hit;

    for (int i = 0; i < TT_DBG_SLOTS; i++) {
        int mode = tt_dbg_mode(c->armed_modes, i);

        if (wp && !(wp->flags & BP_GDB) && mode > TT_DBG_MODE_PC &&
            mode <= TT_DBG_MODE_ACCESS && wp->vaddr == c->armed_addr[i]) {
            wp->flags &= ~BP_WATCHPOINT_HIT;
            cs->watchpoint_hit = NULL;
            return TT_DBG_STATUS_MEM_HIT | TT_DBG_STATUS_SLOT(i);
        }
        if (!wp && mode == TT_DBG_MODE_PC &&
            cpu_env(cs)->pc == c->armed_addr[i]) {
            return TT_DBG_STATUS_PC_HIT | TT_DBG_STATUS_SLOT(i);
        }
    }
    return 0;
}

/*
 * Patch 0011: a debug exception on a core of this interface: the end of
 * its single step, or one of its breakpoints or watchpoints.  Anything
 * else is gdb's.
 */
static bool tt_dbg_debug_hook(CPUState *cs)
{
    TTRiscDebugCore *c = g_hash_table_lookup(tt_dbg_by_cpu, cs);
    uint32_t hit;

    if (!c) {
        return false;
    }
    hit = tt_dbg_slot_hit(cs, c);
    if (qatomic_read(&c->stepping)) {
        bool run_on = c->step_then_run && !hit;

        cpu_single_step(cs, 0);
        qatomic_set(&c->stepping, false);
        c->step_then_run = false;
        if (run_on) {
            return true;                /* stepped over a breakpoint */
        }
    } else if (!hit) {
        return false;
    }
    /* a watchpoint also left a debug interrupt pending: it is handled */
    cpu_reset_interrupt(cs, CPU_INTERRUPT_DEBUG);
    qatomic_set(&c->hits, hit);
    tt_dbg_halt_work(cs, RUN_ON_CPU_HOST_PTR(c));
    qemu_cond_broadcast(&tt_dbg_step_done);
    return true;
}

/*
 * Patch target-riscv-tt-pause-on-ebreak: ebreak or ecall on a core (its
 * PC on the instruction, inside the execution loop, BQL held).  The core
 * pauses after it, with DR0 = halted | ebreak (DebugInterface.md;
 * tt-exalens expects the PC after the ebreak).  NCRISC pauses too, with no
 * debug interface to resume it: only its soft reset does.
 */
static bool tt_dbg_pause_hook(CPUState *cs)
{
    TTRiscDebugCore *c = g_hash_table_lookup(tt_dbg_by_cpu, cs);

    cpu_env(cs)->pc += 4;
    if (c) {
        qatomic_set(&c->ebreak, true);
        tt_dbg_halt_work(cs, RUN_ON_CPU_HOST_PTR(c));
    } else {
        cs->halted = 1;
        qatomic_set(&cpu_env(cs)->tt_park, TT_PARK_RUNNING);
    }
    trace_tt_risc_debug_ebreak(cs->cpu_index, cpu_env(cs)->pc - 4);
    cpu_exit(cs);           /* leave the execution loop: it is halted */
    return true;
}

static void tt_dbg_run(TTRiscDebug *d, int j, run_on_cpu_func fn)
{
    CPUState *cs = CPU(d->cpu[tt_dbg_role[j]]);
    run_on_cpu_data data = RUN_ON_CPU_HOST_PTR(&d->core[j]);

    if (tt_dbg_sync()) {
        run_on_cpu(cs, fn, data);
    } else {
        async_run_on_cpu(cs, fn, data);
        if (d->spin) {
            tt_spin_kick_later(d->spin, tt_dbg_role[j]);
        }
    }
}

static void tt_dbg_step(TTRiscDebug *d, int j)
{
    TTRiscDebugCore *c = &d->core[j];
    int64_t until;

    if (!qatomic_read(&c->halted) || qatomic_read(&c->stepping)) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-risc-debug: x%dy%d %s: STEP "
                      "while not halted; ignored\n", d->tile_x, d->tile_y,
                      tt_core_role_name[tt_dbg_role[j]]);
        return;
    }
    c->step_armed = !c->step_armed;
    if (c->step_armed) {
        return;                     /* the first STEP of the pair */
    }
    qatomic_set(&c->halted, false);
    tt_dbg_run(d, j, tt_dbg_step_work);
    if (!tt_dbg_sync()) {
        return;
    }
    until = qemu_clock_get_ms(QEMU_CLOCK_REALTIME) + TT_DBG_STEP_WAIT_MS;
    while (!qatomic_read(&c->halted) &&
           qemu_clock_get_ms(QEMU_CLOCK_REALTIME) < until) {
        qemu_cond_timedwait_bql(&tt_dbg_step_done, 10);
    }
}

static CPURISCVState *tt_dbg_env(TTRiscDebug *d, int j)
{
    return cpu_env(CPU(d->cpu[tt_dbg_role[j]]));
}

static void tt_dbg_reg_access(TTRiscDebug *d, int j, bool write)
{
    TTRiscDebugCore *c = &d->core[j];
    CPURISCVState *env = tt_dbg_env(d, j);
    uint32_t n = c->dr[TT_DR_ARG0];

    if (n > TT_DBG_REG_PC) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-risc-debug: register %u does "
                      "not exist (x0-x31, 32 = pc)\n", n);
        c->dr[TT_DR_RESULT] = 0;
    } else if (!write) {
        c->dr[TT_DR_RESULT] = n == TT_DBG_REG_PC ? env->pc : env->gpr[n];
    } else if (n == TT_DBG_REG_PC) {
        env->pc = c->dr[TT_DR_ARG1];
    } else if (n) {
        env->gpr[n] = c->dr[TT_DR_ARG1];
    }
}

static void tt_dbg_mem_access(TTRiscDebug *d, int j, bool write)
{
    TTRiscDebugCore *c = &d->core[j];
    CPUState *cs = CPU(d->cpu[tt_dbg_role[j]]);
    uint32_t addr = c->dr[TT_DR_ARG0], v = cpu_to_le32(c->dr[TT_DR_ARG1]);
    MemTxResult r;

    if (addr & 3) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-risc-debug: unaligned memory "
                      "access at 0x%08x; the word below is used\n", addr);
        addr &= ~3u;
    }
    r = address_space_rw(cs->as, addr, MEMTXATTRS_UNSPECIFIED, &v, 4, write);
    if (r != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-risc-debug: x%dy%d %s: memory "
                      "%s at 0x%08x failed\n", d->tile_x, d->tile_y,
                      tt_core_role_name[tt_dbg_role[j]],
                      write ? "write" : "read", addr);
        v = 0;
    }
    if (!write) {
        c->dr[TT_DR_RESULT] = le32_to_cpu(v);
    }
}

/* Commands that need the core paused (DebugInterface.md) */
#define TT_DBG_CMD_PAUSED   (TT_DBG_CMD_READ_REG | TT_DBG_CMD_WRITE_REG | \
                             TT_DBG_CMD_READ_MEM | TT_DBG_CMD_WRITE_MEM | \
                             TT_DBG_CMD_ZERO_REGS | TT_DBG_CMD_SET_PC)

static void tt_dbg_paused_command(TTRiscDebug *d, int j, uint32_t cmd)
{
    TTRiscDebugCore *c = &d->core[j];
    CPURISCVState *env = tt_dbg_env(d, j);

    if (cmd & (TT_DBG_CMD_READ_REG | TT_DBG_CMD_WRITE_REG)) {
        tt_dbg_reg_access(d, j, cmd & TT_DBG_CMD_WRITE_REG);
    }
    if (cmd & (TT_DBG_CMD_READ_MEM | TT_DBG_CMD_WRITE_MEM)) {
        tt_dbg_mem_access(d, j, cmd & TT_DBG_CMD_WRITE_MEM);
    }
    if (cmd & TT_DBG_CMD_ZERO_REGS) {
        memset(&env->gpr[1], 0, sizeof(env->gpr) - sizeof(env->gpr[0]));
    }
    if (cmd & TT_DBG_CMD_SET_PC) {
        env->pc = c->dr[TT_DR_ARG1];
    }
}

static bool tt_dbg_in_reset(uint32_t held, int j)
{
    return held & BIT(tt_dbg_role[j]);
}

static void tt_dbg_command(TTRiscDebug *d, int j, uint32_t cmd,
                           uint32_t held)
{
    TTRiscDebugCore *c = &d->core[j];
    const char *name = tt_core_role_name[tt_dbg_role[j]];

    trace_tt_risc_debug_command(d->tile_x, d->tile_y, name, cmd);
    if (!(cmd & TT_DBG_CMD_STEP)) {
        c->step_armed = false;
    }
    if (cmd & TT_DBG_CMD_HALT && !qatomic_read(&c->halted)) {
        tt_dbg_run(d, j, tt_dbg_halt_work);
    }
    if (cmd & TT_DBG_CMD_PAUSED) {
        if (qatomic_read(&c->halted)) {
            tt_dbg_paused_command(d, j, cmd);
        } else {
            qemu_log_mask(LOG_GUEST_ERROR, "tt-risc-debug: x%dy%d %s: "
                          "command 0x%x needs the core halted; ignored\n",
                          d->tile_x, d->tile_y, name, cmd);
        }
    }
    if (cmd & (TT_DBG_CMD_STEP | TT_DBG_CMD_CONTINUE) &&
        tt_dbg_in_reset(held, j)) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-risc-debug: x%dy%d %s is in "
                      "reset: step/continue only clear the halt\n",
                      d->tile_x, d->tile_y, name);
        qatomic_set(&c->halted, false);
        return;
    }
    if (cmd & (TT_DBG_CMD_STEP | TT_DBG_CMD_CONTINUE)) {
        qatomic_set(&c->ebreak, false);
        c->step_then_run = cmd & TT_DBG_CMD_CONTINUE &&
                           qatomic_read(&c->hits) & TT_DBG_STATUS_PC_HIT;
        qatomic_set(&c->hits, 0);
    }
    if (cmd & TT_DBG_CMD_STEP) {
        tt_dbg_step(d, j);
    }
    if (cmd & TT_DBG_CMD_CONTINUE && qatomic_read(&c->halted)) {
        qatomic_set(&c->halted, false);
        tt_dbg_run(d, j, tt_dbg_resume_work);
    }
}

static uint32_t tt_dbg_read_dr(TTRiscDebug *d, int j, unsigned i)
{
    TTRiscDebugCore *c = &d->core[j];

    if (i == TT_DR_STATUS) {
        return (qatomic_read(&c->halted) ? TT_DBG_STATUS_HALTED : 0) |
               (qatomic_read(&c->ebreak) ? TT_DBG_STATUS_EBREAK : 0) |
               qatomic_read(&c->hits);
    }
    if (i < TT_RISC_DBG_DRS && (i <= TT_DR_WATCH_SETTINGS ||
                                i >= TT_DR_WATCH0)) {
        return c->dr[i];
    }
    qemu_log_mask(LOG_GUEST_ERROR, "tt-risc-debug: DR%u does not exist\n", i);
    return 0;
}

static void tt_dbg_write_dr(TTRiscDebug *d, int j, unsigned i,
                            uint32_t v, uint32_t held)
{
    TTRiscDebugCore *c = &d->core[j];

    if (i == TT_DR_STATUS || i == TT_DR_RESULT) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-risc-debug: DR%u is read-only\n",
                      i);
        return;
    }
    if (i >= TT_RISC_DBG_DRS || (i > TT_DR_WATCH_SETTINGS &&
                                 i < TT_DR_WATCH0)) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-risc-debug: DR%u does not "
                      "exist\n", i);
        return;
    }
    qatomic_set(&c->dr[i], v);
    if (i == TT_DR_COMMAND) {
        tt_dbg_command(d, j, v, held);
    } else if (i == TT_DR_WATCH_SETTINGS || i >= TT_DR_WATCH0) {
        tt_dbg_run(d, j, tt_dbg_slots_work);
    }
}

/* A 0->1 edge of CNTL_0 bit 31: one DR access */
static void tt_dbg_trigger(TTRiscDebug *d, uint32_t cntl0,
                           uint32_t held)
{
    int j = FIELD_EX32(cntl0, RISC_DBG_CNTL_0, RISC);
    unsigned i = FIELD_EX32(cntl0, RISC_DBG_CNTL_0, DR);

    if (cntl0 & BIT(19)) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-risc-debug: CNTL_0 bit 19 set: "
                      "NCRISC has no debug interface; bits 18:17 select "
                      "the core\n");
    }
    qatomic_set(&d->read_valid, false);
    if (FIELD_EX32(cntl0, RISC_DBG_CNTL_0, WRITE)) {
        tt_dbg_write_dr(d, j, i, qatomic_read(&d->cntl1), held);
    } else {
        qatomic_set(&d->status1, tt_dbg_read_dr(d, j, i));
        qatomic_set(&d->read_valid, true);
    }
}

uint32_t tt_risc_debug_read(TTRiscDebug *d, hwaddr addr)
{
    uint32_t c0 = qatomic_read(&d->cntl0);

    switch (addr) {
    case A_RISC_DBG_CNTL_0:
        return c0;
    case A_RISC_DBG_CNTL_1:
        return qatomic_read(&d->cntl1);
    case A_RISC_DBG_STATUS_0:
        /* echo of CNTL_0: DR, write bit at 13 + core, trigger */
        return FIELD_EX32(c0, RISC_DBG_CNTL_0, DR) |
               FIELD_EX32(c0, RISC_DBG_CNTL_0, WRITE) <<
               (R_RISC_DBG_STATUS_0_WRITE_ECHO_SHIFT +
                FIELD_EX32(c0, RISC_DBG_CNTL_0, RISC)) |
               qatomic_read(&d->read_valid) <<
               R_RISC_DBG_STATUS_0_READ_VALID_SHIFT |
               (c0 & R_RISC_DBG_CNTL_0_TRIGGER_MASK);
    default:
        return qatomic_read(&d->status1);
    }
}

void tt_risc_debug_write(TTRiscDebug *d, hwaddr addr, uint32_t val,
                         uint32_t held)
{
    switch (addr) {
    case A_RISC_DBG_CNTL_0:
        if (val & ~qatomic_xchg(&d->cntl0, val) &
            R_RISC_DBG_CNTL_0_TRIGGER_MASK) {
            tt_dbg_trigger(d, val, held);
        }
        break;
    case A_RISC_DBG_CNTL_1:
        qatomic_set(&d->cntl1, val);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "tt-risc-debug: RISC_DBG_STATUS "
                      "registers are read-only\n");
    }
}

void tt_risc_debug_core_reset(TTRiscDebug *d, TTCoreRole role,
                              bool keep_drs)
{
    for (int j = 0; j < TT_RISC_DBG_CORES; j++) {
        TTRiscDebugCore *c = &d->core[j];

        if (tt_dbg_role[j] != role) {
            continue;
        }
        qatomic_set(&c->halted, false);
        qatomic_set(&c->ebreak, false);
        qatomic_set(&c->hits, 0);
        c->step_armed = false;
        c->step_then_run = false;
        if (!keep_drs) {
            memset(c->dr, 0, sizeof(c->dr));
            if (qatomic_read(&c->armed_modes)) {
                /* queued: the caller holds the tile's register lock */
                async_run_on_cpu(CPU(d->cpu[role]), tt_dbg_slots_work,
                                 RUN_ON_CPU_HOST_PTR(c));
            }
        }
    }
}

bool tt_risc_debug_halted(TTRiscDebug *d, TTCoreRole role)
{
    for (int j = 0; j < TT_RISC_DBG_CORES; j++) {
        if (tt_dbg_role[j] == role) {
            return qatomic_read(&d->core[j].halted);
        }
    }
    return false;
}

void tt_risc_debug_reset(TTRiscDebug *d)
{
    d->cntl0 = d->cntl1 = d->status1 = 0;
    d->read_valid = false;
    memset(d->core, 0, sizeof(d->core));
}

void tt_risc_debug_init(TTRiscDebug *d, Object *const *cpu,
                        struct TTSpinTile *spin, uint8_t x, uint8_t y)
{
    d->cpu = cpu;
    d->spin = spin;
    d->tile_x = x;
    d->tile_y = y;
    if (!tt_dbg_by_cpu) {
        tt_dbg_by_cpu = g_hash_table_new(NULL, NULL);
        qemu_cond_init(&tt_dbg_step_done);
        cpu_set_guest_debug_hook(tt_dbg_debug_hook);
        riscv_tt_pause_hook = tt_dbg_pause_hook;
    }
    for (int j = 0; j < TT_RISC_DBG_CORES; j++) {
        g_hash_table_insert(tt_dbg_by_cpu, d->cpu[tt_dbg_role[j]],
                            &d->core[j]);
    }
}
