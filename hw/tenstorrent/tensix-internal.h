/*
 * Tenstorrent Blackhole Tensix coprocessor: what the unit files share.
 *
 * Every instruction has one handler, tensix_<mnemonic>(), in the file of
 * its unit; the generated table tt_tensix_isa[] (tt-tensix-isa.h, from
 * data/tensix-isa.yaml) maps opcodes to handlers.  Handlers run with the
 * tile's coprocessor lock held, on the host thread of the core whose push
 * made the instruction executable.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_TENSIX_INTERNAL_H
#define HW_TENSTORRENT_TENSIX_INTERNAL_H

#include "hw/tenstorrent/tensix.h"
#include "tt-tensix-isa.h"      /* generated from data/tensix-isa.yaml */

/* ThreadConfig words (tt-metal blackhole cfg_defines.h THD_STATE) */
#define TT_TC_CFG_STATE_ID          0   /* CFG_STATE_ID_StateID, bit 0 */
#define TT_TC_STREAMWAIT_PHASE_HI   57
#define TT_TC_STREAMWAIT_MSGS_HI    58
#define TT_TC_STREAM_ID_SYNC        59

static inline const char *tt_op_name(uint32_t w)
{
    const char *n = tt_tensix_isa[w >> 24].name;

    return n ? n : "(unknown)";
}

/* Log a guest error about instruction @w of @thread; the caller stops it */
void G_GNUC_PRINTF(4, 5) tt_tensix_error(TTTensix *t, int thread, uint32_t w,
                                          const char *fmt, ...);

/* The configuration state (0 or 1) @thread's instructions use */
static inline int tt_cfg_state(TTTensix *t, int thread)
{
    return t->th[thread].thread_cfg[TT_TC_CFG_STATE_ID] & 1;
}

/* tensix-config.c: write config word @reg of @state (globals: both) */
void tt_cfg_write(TTTensix *t, int state, uint32_t reg, uint32_t val);

/* tensix-adc.c: ADC counter widths, X Y Z W (Blackhole ADCs.md) */
extern const uint32_t tt_adc_mask[4];

/* tensix-sync.c: true while the latched wait keeps the gate closed */
bool tt_sync_latch_holds(TTTensix *t, TTTensixLatch *l);
/* tensix-sync.c: add @delta to each semaphore in mask @sems (0..15) */
void tt_sync_sem_update(TTTensix *t, uint32_t sems, int delta);

/* tensix-frontend.c: run every thread as far as it can go; wake cores */
bool tt_tensix_run(TTTensix *t);
void tt_tensix_release_waiters(TTTensix *t);

/* The per-core windows, one set of callbacks per block */
extern const MemoryRegionOps tt_tensix_push_ops;    /* tensix-frontend.c */
extern const MemoryRegionOps tt_tensix_pcbuf_ops;   /* tensix-frontend.c */
extern const MemoryRegionOps tt_tensix_mopcfg_ops;  /* tensix-frontend.c */
extern const MemoryRegionOps tt_tensix_gpr_ops;     /* tensix-thcon.c */
extern const MemoryRegionOps tt_tensix_cfg_ops;     /* tensix-config.c */

/* Monitor: a thread's front-end state */
void tt_tensix_frontend_dump(TTTensix *t, int thread, GString *out);

#endif
