/*
 * Tenstorrent Blackhole: "info tt" in the monitor, and the hang report.
 *
 *   info tt            chip summary: tiles busy, idle, blocked, in reset
 *   info tt X Y        one tile (physical NOC0 coordinates): each core's
 *                      PC, reset and wait state, the go message, the
 *                      coprocessor (semaphores, mutexes, threads, gates,
 *                      address counters) and the CB stream counters
 *
 * QMP users reach it with human-monitor-command.  With hang-report=N the
 * machine prints the summary to stderr when, for N seconds, no core has
 * run (every core parked, halted or waiting on the coprocessor) while
 * some core is parked or waiting, or a launch is not done.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qemu/timer.h"
#include "system/runstate.h"
#include "monitor/monitor.h"
#include "monitor/hmp.h"
#include "qobject/qdict.h"
#include "target/riscv/cpu.h"
#include "hw/tenstorrent/spin-park.h"
#include "blackhole-internal.h"

#define TT_RUN_MSG_GO       0x80    /* go_msg_t.signal, dev_msgs.h */

typedef enum TTTileState {
    TT_TILE_RESET, TT_TILE_IDLE, TT_TILE_BLOCKED, TT_TILE_BUSY,
} TTTileState;

static const char *const tt_tile_state_name[] = {
    "in reset", "idle", "blocked", "busy",
};

static TTBlackholeMachine *tt_mon_machine;

static bool tt_core_in_reset(TTTensixTile *t, int r)
{
    return tt_debug_regs_get_soft_reset(&t->dbg) & tt_soft_reset_bit(r);
}

/*
 * "running", "parked", "halted", "waiting", "in reset", or "debug-halted"
 * (paused through RISC_DBG_CNTL, risc-debug.c)
 */
static const char *tt_core_state(TTTensixTile *t, int r)
{
    CPUState *cs = CPU(&t->core[r]);
    int park = qatomic_read(&cpu_env(cs)->tt_park), thread;

    if (tt_core_in_reset(t, r)) {
        return "in reset";
    }
    if (tt_risc_debug_halted(&t->dbg.risc_dbg, r)) {
        return "debug-halted";
    }
    if (tt_tensix_core_wait(&t->tensix, r, &thread)) {
        return "waiting";
    }
    if (park == TT_PARK_PARKED) {
        return "parked";
    }
    return qatomic_read(&cs->halted) ? "halted" : "running";
}

static uint8_t tt_go_signal(TTBlackholeMachine *m, TTTensixTile *t)
{
    uint32_t v = 0;

    if (m->boot.fw.go_msg) {
        v = address_space_ldl_le(&t->noc_as, m->boot.fw.go_msg,
                                 MEMTXATTRS_UNSPECIFIED, NULL);
    }
    return v >> 24;     /* signal: the go message's last byte */
}

static TTTileState tt_tile_state(TTTensixTile *t)
{
    bool any_running = false, any_blocked = false, all_reset = true;

    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        const char *s = tt_core_state(t, r);

        all_reset &= !strcmp(s, "in reset");
        any_running |= !strcmp(s, "running");
        any_blocked |= !strcmp(s, "waiting");
    }
    any_blocked |= tt_tensix_blocked(&t->tensix);
    return all_reset ? TT_TILE_RESET : any_running ? TT_TILE_BUSY
           : any_blocked ? TT_TILE_BLOCKED : TT_TILE_IDLE;
}

/* Ethernet channels: how many, and one line per channel with a netdev */
static void tt_eth_summary(TTBlackholeSoC *s, GString *out)
{
    int n = 0, linked = 0;

    for (int c = 0; c < TT_ETH_CHANNELS; c++) {
        TTEthTile *t = tt_soc_eth(s, c);

        n += !!t;
        linked += t && t->txrx.nic;
    }
    g_string_append_printf(out, "%d Ethernet channels, %d with a netdev\n",
                           n, linked);
    for (int c = 0; c < TT_ETH_CHANNELS; c++) {
        TTEthTile *t = tt_soc_eth(s, c);

        if (t && t->txrx.nic) {
            g_string_append(out, "  ");
            tt_eth_txrx_describe(&t->txrx, out);
        }
    }
}

static void tt_eth_tile_dump(TTEthTile *t, GString *out)
{
    g_string_append_printf(out, "Ethernet tile x%dy%d (translated x%dy%d), "
                           "SOFT_RESET_0 0x%05x\n  ", t->x, t->y, t->vx,
                           t->vy, tt_debug_regs_get_soft_reset(&t->dbg));
    tt_eth_txrx_describe(&t->txrx, out);
    for (int r = 0; r < TT_ERISC_CORES; r++) {
        CPUState *cs = CPU(&t->core[r]);
        bool held = tt_debug_regs_get_soft_reset(&t->dbg) & BIT(11 + r);

        g_string_append_printf(out, "  %-6s pc 0x%08x %s\n",
                               tt_erisc_name[r], (uint32_t)cpu_env(cs)->pc,
                               held ? "in reset"
                               : qatomic_read(&cpu_env(cs)->tt_park) ==
                                 TT_PARK_PARKED ? "parked"
                               : qatomic_read(&cs->halted) ? "halted"
                               : "running");
    }
}

static void tt_summary(TTBlackholeMachine *m, GString *out)
{
    TTBlackholeSoC *s = &m->soc;
    int n[4] = { 0 };
    GString *list = g_string_new(NULL);

    for (int i = 0; i < s->grid.ntiles; i++) {
        TTTensixTile *t = &s->tile[i];
        TTTileState st = tt_tile_state(t);
        uint8_t go = tt_go_signal(m, t);

        n[st]++;
        if (st == TT_TILE_BUSY || st == TT_TILE_BLOCKED ||
            (go == TT_RUN_MSG_GO && st != TT_TILE_RESET)) {
            g_string_append_printf(list, "  x%dy%d: %s%s\n", t->x, t->y,
                                   tt_tile_state_name[st],
                                   go == TT_RUN_MSG_GO ? ", launch not done"
                                                       : "");
        }
    }
    g_string_append_printf(out, "Blackhole %s, %d tiles: %d busy, %d idle, "
                           "%d blocked, %d in reset\n",
                           s->grid.board == TT_BOARD_P150 ? "P150" : "P100A",
                           s->grid.ntiles, n[TT_TILE_BUSY], n[TT_TILE_IDLE],
                           n[TT_TILE_BLOCKED], n[TT_TILE_RESET]);
    g_string_append(out, list->str);
    g_string_free(list, true);
    tt_eth_summary(s, out);
}

static void tt_tile_dump(TTBlackholeMachine *m, TTTensixTile *t, GString *out)
{
    g_string_append_printf(out, "tile x%dy%d (translated x%dy%d): %s, "
                           "SOFT_RESET_0 0x%05x", t->x, t->y, t->vx, t->vy,
                           tt_tile_state_name[tt_tile_state(t)],
                           tt_debug_regs_get_soft_reset(&t->dbg));
    if (m->boot.fw.go_msg) {
        g_string_append_printf(out, ", go signal 0x%02x",
                               tt_go_signal(m, t));
    }
    g_string_append_c(out, '\n');
    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        CPUState *cs = CPU(&t->core[r]);
        int thread;
        const char *w = tt_tensix_core_wait(&t->tensix, r, &thread);

        g_string_append_printf(out, "  %-6s pc 0x%08x %s", tt_core_role_name[r],
                               (uint32_t)cpu_env(cs)->pc,
                               tt_core_state(t, r));
        if (w) {
            g_string_append_printf(out, " for %s (thread %d)", w, thread);
        }
        g_string_append_c(out, '\n');
    }
    tt_tensix_dump(&t->tensix, out);
    g_string_append(out, "  CB streams (tiles acked/received):");
    for (int st = 0, none = 1; st < TT_STREAMS; st++) {
        uint32_t a = qatomic_read(&t->overlay.reg[st][TT_STREAM_BUF_START]);
        uint32_t rcv = qatomic_read(&t->overlay.reg[st][TT_STREAM_BUF_SIZE]);

        if (a || rcv) {
            g_string_append_printf(out, " %d:%u/%u", st, a, rcv);
            none = 0;
        }
        if (st == TT_STREAMS - 1 && none) {
            g_string_append(out, " all zero");
        }
    }
    g_string_append_c(out, '\n');
}

static void hmp_info_tt(Monitor *mon, const QDict *qdict)
{
    TTBlackholeMachine *m = tt_mon_machine;
    g_autoptr(GString) out = g_string_new(NULL);

    if (!qdict_haskey(qdict, "x")) {
        tt_summary(m, out);
    } else {
        int x = qdict_get_int(qdict, "x");
        int y = qdict_get_try_int(qdict, "y", -1);
        TTTensixTile *t = tt_soc_tile_at(&m->soc, x, y);
        TTEthTile *e = tt_soc_eth_at(&m->soc, x, y);

        if (e) {
            tt_eth_tile_dump(e, out);
        } else if (!t) {
            monitor_printf(mon, "no Tensix or Ethernet tile at physical "
                           "(%d, %d)\n", x, y);
            return;
        } else {
            tt_tile_dump(m, t, out);
        }
    }
    monitor_puts(mon, out->str);
}

/* ------------------------------------------------------ hang report -- */

static bool tt_chip_stuck(TTBlackholeMachine *m)
{
    bool waiting = false;

    for (int i = 0; i < m->soc.grid.ntiles; i++) {
        TTTensixTile *t = &m->soc.tile[i];

        for (int r = 0; r < TT_CORES_PER_TILE; r++) {
            const char *s = tt_core_state(t, r);

            if (!strcmp(s, "running")) {
                return false;
            }
            waiting |= !strcmp(s, "parked") || !strcmp(s, "waiting");
        }
        waiting |= tt_go_signal(m, t) == TT_RUN_MSG_GO &&
                   tt_tile_state(t) != TT_TILE_RESET;
    }
    return waiting;
}

static void tt_hang_check(void *opaque)
{
    TTBlackholeMachine *m = opaque;

    if (!runstate_is_running() || !tt_chip_stuck(m)) {
        m->hang_since = 0;
        m->hang_reported = false;
    } else if (!m->hang_since) {
        m->hang_since = qemu_clock_get_ms(QEMU_CLOCK_REALTIME);
    } else if (!m->hang_reported &&
               qemu_clock_get_ms(QEMU_CLOCK_REALTIME) - m->hang_since >=
               m->hang_report * 1000) {
        g_autoptr(GString) out = g_string_new(NULL);

        tt_summary(m, out);
        /* what each blocked tile waits on, as "info tt X Y" shows it */
        for (int i = 0; i < m->soc.grid.ntiles; i++) {
            if (tt_tile_state(&m->soc.tile[i]) == TT_TILE_BLOCKED) {
                tt_tile_dump(m, &m->soc.tile[i], out);
            }
        }
        fprintf(stderr, "blackhole: no progress for %" PRId64 " s; every "
                "core is parked, halted or waiting:\n%s(\"info tt X Y\" in "
                "the monitor shows a tile)\n", m->hang_report, out->str);
        m->hang_reported = true;
    }
    timer_mod(m->hang_timer, qemu_clock_get_ms(QEMU_CLOCK_REALTIME) + 500);
}

void blackhole_monitor_init(TTBlackholeMachine *m)
{
    tt_mon_machine = m;
    monitor_register_hmp("tt", true, hmp_info_tt);
    if (m->hang_report > 0) {
        m->hang_timer = timer_new_ms(QEMU_CLOCK_REALTIME, tt_hang_check, m);
        timer_mod(m->hang_timer, qemu_clock_get_ms(QEMU_CLOCK_REALTIME) +
                  500);
    }
}
