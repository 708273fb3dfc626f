/*
 * Tenstorrent Blackhole: parking cores that spin on memory.
 *
 * Firmware never sleeps: idle cores poll mailboxes, counters and
 * semaphores.  A core whose backward-jump samples show the same PC and
 * registers with no store, AMO, CSR access or volatile register read in
 * between is in a loop that can only leave when something it reads
 * changes.  It is parked (halted) until its tile sees a change: a store by
 * a core into the tile's L1 or LDMs (caught through dirty-page tracking),
 * a NOC or host write into the tile, or a write to the tile's registers.
 * docs/devel/tenstorrent-spin-park.rst explains the design.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_SPIN_PARK_H
#define HW_TENSTORRENT_SPIN_PARK_H

#include "hw/tenstorrent/grid.h"
#include "system/memory.h"
#include "block/aio.h"
#include "target/riscv/cpu.h"
#include "migration/vmstate.h"
#include "qom/object.h"

/*
 * One per Tensix tile, a child of the tile; the blocks that can wake its
 * cores hold it as their "spin" link.
 */
#define TYPE_TT_SPIN_TILE "tt-spin-tile"
OBJECT_DECLARE_SIMPLE_TYPE(TTSpinTile, TT_SPIN_TILE)

/*
 * env->tt_park value of a core a device holds (a push into a full Tensix
 * FIFO): halted like a parked core, but only that device releases it, by
 * moving it to TT_PARK_WOKEN.
 */
#define TT_PARK_STALLED 3

/* Per-core sampler state; only the core's own thread touches it. */
typedef struct TTSpinCore {
    TTSpinTile *tile;
    int role;
    int state;                  /* TT_SPIN_* in spin-park.c */
    int matches;
    int period;                 /* backward jumps between samples */
    uint32_t armed_gen;
    target_ulong pc;
    uint32_t epoch;
    target_ulong gpr[32];
    uint64_t parks;
    uint64_t yields;            /* the group's thread given to a sibling */
    bool yielded;               /* last gave it up polling... */
    uint32_t yield_stamp;       /* ...with the tile's stamp at this value */
    int64_t wait_start;         /* host ns when the loop began waiting */
    int64_t spin_ns;            /* polling budget (spin-park.c) */
    bool polling;               /* the tile's poll callback knows it polls */
    uint32_t pushes;            /* tt_spin_pushed() calls */
    uint32_t quiesce_mark;      /* pushes when its quiesce count began */
} TTSpinCore;

/*
 * Loop iterations (backward jumps) after a core's last Tensix push at which
 * it counts as having moved on, for the "quiesce" callback
 */
#define TT_SPIN_QUIESCE 16

/* What a core that polls before parking does, for the tile's callback */
typedef enum TTSpinPoll {
    TT_SPIN_POLL_WAITING,       /* each sample while it polls */
    TT_SPIN_POLL_MOVED_ON,      /* once: its loop moved on */
    TT_SPIN_POLL_PARKING,       /* once: it stops polling to park */
    TT_SPIN_POLL_SAMPLE,        /* each sample of any core, when asked */
} TTSpinPoll;

struct TTSpinTile {
    Object parent_obj;

    bool park;                  /* park polling cores (-M ...,spin-park) */
    /* the cores share one host thread (-M ...,tile-threads) under MTTCG */
    bool grouped;
    int running;                /* grouped: the core last sampled, or -1 */
    int64_t slice_start;        /* host ns when it was first sampled */
    /*
     * Roles whose sampler calls quiesce(quiesce_opaque, role) at its next
     * sample (tt_spin_quiesce_watch), before it decides about parking
     */
    uint32_t quiesce_roles;
    /* of those, asked for by another core's thread: no count begun yet */
    uint32_t quiesce_fresh;
    void (*quiesce)(void *opaque, int role);
    void *quiesce_opaque;
    /* Called without the BQL as a core polls before parking (TTSpinPoll) */
    void (*poll)(void *opaque, int role, TTSpinPoll event);
    void *poll_opaque;
    bool sample;                /* TT_SPIN_POLL_SAMPLE wanted */
    bool input;                 /* tt_spin_input() since a core last looked */

    uint32_t wake_gen;          /* bumped by every possible change */
    uint32_t rekick;            /* roles to kick again under the BQL */
    QEMUBH *bh;
    int ncpus;                  /* 5 on a Tensix tile, 2 on Ethernet */
    CPUState *cpu[TT_CORES_PER_TILE];
    MemoryRegion *ram;          /* L1 and the LDMs: one RAM block */
    TTSpinCore core[TT_CORES_PER_TILE];
    uint64_t wakes;
};

/* The tile's parking state, migrated as part of its Tensix tile */
extern const VMStateDescription vmstate_tt_spin_tile;

/*
 * Set up parking for one tile whose cores' RAM is all in @ram; @grouped:
 * the cores share a host thread (tcg_vcpu_share_thread()).
 */
void tt_spin_tile_init(TTSpinTile *s, CPUState **cpus, int ncpus,
                       MemoryRegion *ram, bool enable, bool grouped);

/* The callback tt_spin_quiesce_watch() arms (the tile's Tensix) */
void tt_spin_set_quiesce(TTSpinTile *s, void (*fn)(void *opaque, int role),
                         void *opaque);

/*
 * A callback for the samples of a core that polls before parking, to fetch
 * what the core may be waiting for (an Ethernet tile's link input)
 */
void tt_spin_set_poll(TTSpinTile *s,
                      void (*fn)(void *opaque, int role, TTSpinPoll event),
                      void *opaque);

/* Whether cores of @s poll before parking (MTTCG and spin-park on) */
bool tt_spin_polled(TTSpinTile *s);

/*
 * The poll callback also hears TT_SPIN_POLL_SAMPLE at every sample of
 * every core of @s, running or not (every 16-1024 backward jumps), while
 * @on: a core that went on to other work still comes by within
 * microseconds, without a timer in the main loop.  Any thread.
 */
void tt_spin_want_samples(TTSpinTile *s, bool on);

/*
 * The current CPU, a core of @s, sent something whose answer comes soon:
 * let its next wait poll for the whole budget (spin-park.c)
 */
void tt_spin_expect_answer(TTSpinTile *s);

/*
 * Input from outside the tile (a frame from a link) landed: a core that
 * waits polls for the whole budget from now on, rather than parking
 * between the frames of a stream.  Lock-free; any thread.
 */
void tt_spin_input(TTSpinTile *s);

/*
 * Call the quiesce callback for core @role once it has run TT_SPIN_QUIESCE
 * backward jumps without a push (tt_spin_pushed()): counted from now if
 * @role is the current CPU, else from its next sample.  Called with any
 * lock held; @s may be NULL.
 */
void tt_spin_quiesce_watch(TTSpinTile *s, int role);

/* The current CPU, core @role of @s, pushed a coprocessor instruction */
static inline void tt_spin_pushed(TTSpinTile *s, int role)
{
    if (s) {
        s->core[role].pushes++;
    }
}

/*
 * Something the tile's cores can read may have changed: wake its parked
 * cores.  Lock-free; callable from any thread with any lock held.
 */
void tt_spin_wake(TTSpinTile *s);

/*
 * The current CPU is about to halt until *@word leaves @old: spin for a
 * while first.  True if it changed; false (then halt) if the budget ran out,
 * the vCPU loop has work, or spinning is off.  Call with no lock held.
 */
bool tt_spin_briefly(TTSpinTile *s, const uint32_t *word, uint32_t old);

/* Wake every parked core of the chip's tiles (after a debugger stop). */
void tt_spin_wake_all(TTSpinTile *tiles, size_t stride, int n);

/*
 * The current CPU read a register whose value changes by itself (a clock,
 * another core's PC): its loop is not waiting for memory.
 */
void tt_spin_volatile_read(void);

/* @cs entered or left reset (on its own thread): forget parking. */
void tt_spin_core_reset_cpu(CPUState *cs);

/*
 * Work was queued for core @role from a thread that may not hold the BQL:
 * kick it again from the main loop so a vCPU going to sleep cannot miss it.
 */
void tt_spin_kick_later(TTSpinTile *s, int role);

/* Core @role can run again: qemu_cpu_kick() and tt_spin_kick_later() */
void tt_spin_kick(TTSpinTile *s, int role);

#endif
