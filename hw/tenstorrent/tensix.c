/*
 * Tenstorrent Blackhole Tensix coprocessor: the device (one per Tensix
 * tile), its per-core windows, reset, migration and monitor dump.  The
 * units live in tensix-<unit>.c; what they and this file share is in
 * tensix-common.c/.h, below both.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/lockable.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "target/riscv/cpu.h"
#include "hw/tenstorrent/noc-overlay.h"
#include "hw/tenstorrent/spin-park.h"
#include "tensix-common.h"
#include "hw/tenstorrent/noc-overlay.h"

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
        tt_tensix_frontend_dump(t, i, out);
    }
    tt_fpu_dump(t, out);
    tt_sfpu_dump(t, out);
}

/* True if a thread holds instructions at its gate */
bool tt_tensix_blocked(TTTensix *t)
{
    for (int i = 0; i < TT_TENSIX_THREADS; i++) {
        TTTensixThread *th = &t->th[i];

        if (qatomic_read(&th->count) || qatomic_read(&th->fifo_count) ||
            qatomic_read(&th->mop.active)) {
            return true;
        }
    }
    return false;
}
/* ------------------------------------------------------------- device -- */

void tt_tensix_map(TTTensix *t, int role, MemoryRegion *root)
{
    TTTensixPort *p = &t->port[role];

    memory_region_add_subregion(root, TT_TILE_INSTRN_BUF_BASE, &p->push);
    memory_region_add_subregion(root, TT_TILE_PC_BUF_BASE, &p->pcbuf);
    memory_region_add_subregion(root, TT_TILE_TENSIX_GPR_BASE, &p->gpr);
    memory_region_add_subregion(root, TT_TILE_TENSIX_CFG_BASE, &p->cfg);
    memory_region_add_subregion(root, TT_TILE_MOP_CFG_BASE, &p->mopcfg);
}

/*
 * Property "vector": the host vector instructions of the datapath, the
 * widest the host has by default; a narrower set runs the same
 * arithmetic, so tests can compare the paths on one host
 */
static bool tt_tensix_pick_vector(TTTensix *t, Error **errp)
{
    static const char *const names[] = {
        [TT_VEC_NONE] = "none", [TT_VEC_AVX2] = "avx2",
        [TT_VEC_AVX512] = "avx512",
    };
    unsigned host = tt_vec_host();

    t->vec = host;
    if (!t->vector || !strcmp(t->vector, "auto")) {
        return true;
    }
    for (unsigned v = 0; v < ARRAY_SIZE(names); v++) {
        if (!strcmp(t->vector, names[v])) {
            if (v > host) {
                error_setg(errp, "tt-tensix: vector=%s: this host (or this "
                           "build) has %s at most", t->vector, names[host]);
                return false;
            }
            t->vec = v;
            return true;
        }
    }
    error_setg(errp, "tt-tensix: vector=%s: expected auto, avx512, avx2 or "
               "none", t->vector);
    return false;
}

static void tt_tensix_realize(DeviceState *dev, Error **errp)
{
    TTTensix *t = TT_TENSIX(dev);
    Object *o = OBJECT(t);

    if (!t->l1_mr) {
        error_setg(errp, "tt-tensix: link 'l1' (the tile's L1) not set");
        return;
    }
    if (!t->view) {
        error_setg(errp, "tt-tensix: link 'view' (the tile's view) not set");
        return;
    }
    if (!tt_tensix_pick_vector(t, errp)) {
        return;
    }
    address_space_init(&t->view_as, t->view, "tensix-view");
    qdev_init_gpio_in_named(dev, tt_tensix_stream_changed, "stream-changed",
                            1);
    t->l1 = memory_region_get_ram_ptr(t->l1_mr);
    if (t->spin) {
        tt_spin_set_quiesce(t->spin, tt_tensix_quiesce, t);
    }
    t->l1_size = memory_region_size(t->l1_mr);
    qemu_mutex_init(&t->lock);
    t->flip_watch = timer_new_ns(QEMU_CLOCK_VIRTUAL, tt_src_watch_expired, t);
    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        TTTensixPort *p = &t->port[r];

        p->t = t;
        p->role = r;
        memory_region_init_io(&p->push, o, &tt_tensix_push_ops, p,
                              "tensix-push",
                              TT_TILE_INSTRN_BUF_SIZE);
        memory_region_init_io(&p->pcbuf, o, &tt_tensix_pcbuf_ops, p,
                              "tensix-pcbuf",
                              TT_TILE_PC_BUF_SIZE);
        memory_region_init_io(&p->gpr, o, &tt_tensix_gpr_ops, p, "tensix-gpr",
                              TT_TILE_TENSIX_GPR_SIZE);
        memory_region_init_io(&p->cfg, o, &tt_tensix_cfg_ops, p, "tensix-cfg",
                              TT_TILE_TENSIX_CFG_SIZE);
        memory_region_init_io(&p->mopcfg, o, &tt_tensix_mopcfg_ops, p,
                              "tensix-mop-cfg", TT_TILE_MOP_CFG_SIZE);
        memory_region_enable_lockless_io(&p->push);
        memory_region_enable_lockless_io(&p->pcbuf);
        memory_region_enable_lockless_io(&p->gpr);
        memory_region_enable_lockless_io(&p->cfg);
        memory_region_enable_lockless_io(&p->mopcfg);
        if (r >= TT_TRISC0 && t->cpu[r]) {
            CPURISCVState *env = cpu_env(t->cpu[r]);

            /* the TRISC's inline words: its own thread */
            env->tt_push_opaque = p;
            env->tt_push_hook = tt_tensix_push_inline;
            env->tt_push_run_hook = tt_tensix_push_run;
        }
    }
}

static void tt_tensix_reset_hold(Object *obj, ResetType type)
{
    TTTensix *t = TT_TENSIX(obj);

    memset(t->th, 0, sizeof(t->th));
    for (int i = 0; i < TT_TENSIX_THREADS; i++) {
        t->th[i].pusher = -1;
    }
    t->nflips = 0;
    t->flip_thread = -1;
    if (t->flip_watch) {
        timer_del(t->flip_watch);
    }
    memset(t->sem_val, 0, sizeof(t->sem_val));
    memset(t->sem_max, 0, sizeof(t->sem_max));
    memset(t->mutex_owner, 0, sizeof(t->mutex_owner));
    memset(t->cfg, 0, sizeof(t->cfg));
    memset(t->unimp, 0, sizeof(t->unimp));
    memset(t->wait_kind, -1, sizeof(t->wait_kind));
    t->redo_push = 0;
    memset(t->src, 0, sizeof(t->src));
    tt_src_changed_all(t);
    memset(t->dst, 0, sizeof(t->dst));
    /* every Dst row reads as written at reset, as ttsim has it */
    memset(t->dst_valid, true, sizeof(t->dst_valid));
    memset(&t->packer, 0, sizeof(t->packer));
    tt_sfpu_reset(t);
}

/* ---------------------------------------------------------- migration -- */

/*
 * The whole coprocessor migrates: every thread's FIFO, MOP expansion,
 * replay buffer, queue at the gate, latched wait, PC buffer, GPRs,
 * ThreadConfig, ADCs and RWCs; the semaphores, mutexes, both
 * configuration states, which core waits on what; SrcA, SrcB, Dst and its
 * valid flags, the packer's position and the Vector Unit (LRegs, flags
 * and their stack, LaneConfig, LoadMacroConfig, PRNG, SFPLOADMACRO's
 * scheduled instructions and pending writes).  The stream is untrusted:
 * tt_tensix_post_load() refuses every index that the units would use
 * without masking it.
 */
static const VMStateDescription vmstate_tt_tensix_queued = {
    .name = "tt-tensix/queued",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(insn, TTTensixQueued),
        VMSTATE_BOOL(ends_push, TTTensixQueued),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_tt_tensix_latch = {
    .name = "tt-tensix/latch",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8(op, TTTensixLatch),
        VMSTATE_UINT16(cond, TTTensixLatch),
        VMSTATE_UINT16(block, TTTensixLatch),
        VMSTATE_UINT8(sems, TTTensixLatch),
        VMSTATE_UINT8(stream, TTTensixLatch),
        VMSTATE_UINT32(target, TTTensixLatch),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_tt_tensix_adc = {
    .name = "tt-tensix/adc",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_2DARRAY(val, TTTensixAdc, 2, 4),
        VMSTATE_UINT32_2DARRAY(cr, TTTensixAdc, 2, 4),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_tt_tensix_rwc = {
    .name = "tt-tensix/rwc",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(dst, TTTensixRwc),
        VMSTATE_UINT16(dst_cr, TTTensixRwc),
        VMSTATE_UINT16(sp, TTTensixRwc),
        VMSTATE_UINT8(srca, TTTensixRwc),
        VMSTATE_UINT8(srca_cr, TTTensixRwc),
        VMSTATE_UINT8(srcb, TTTensixRwc),
        VMSTATE_UINT8(srcb_cr, TTTensixRwc),
        VMSTATE_UINT8(fidelity, TTTensixRwc),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_tt_tensix_mop = {
    .name = "tt-tensix/mop",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(active, TTTensixMop),
        VMSTATE_UINT8(tmpl, TTTensixMop),
        VMSTATE_UINT32_ARRAY(cfg, TTTensixMop, TT_TENSIX_MOP_CFG),
        VMSTATE_UINT32(mask, TTTensixMop),
        VMSTATE_UINT32(outer, TTTensixMop),
        VMSTATE_UINT32(inner, TTTensixMop),
        VMSTATE_UINT32(i, TTTensixMop),
        VMSTATE_UINT32(j, TTTensixMop),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_tt_tensix_thread = {
    .name = "tt-tensix/thread",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(fifo, TTTensixThread, TT_TENSIX_FIFO),
        VMSTATE_UINT32(fifo_head, TTTensixThread),
        VMSTATE_UINT32(fifo_count, TTTensixThread),
        VMSTATE_STRUCT(mop, TTTensixThread, 1, vmstate_tt_tensix_mop,
                       TTTensixMop),
        VMSTATE_UINT64(mop_enq, TTTensixThread),
        VMSTATE_STRUCT_ARRAY(queue, TTTensixThread, TT_TENSIX_QUEUE, 1,
                             vmstate_tt_tensix_queued, TTTensixQueued),
        VMSTATE_UINT32(head, TTTensixThread),
        VMSTATE_UINT32(count, TTTensixThread),
        VMSTATE_UINT64(enqueued, TTTensixThread),
        VMSTATE_UINT64(dequeued, TTTensixThread),
        VMSTATE_UINT32(pushes, TTTensixThread),
        VMSTATE_STRUCT(latch, TTTensixThread, 1, vmstate_tt_tensix_latch,
                       TTTensixLatch),
        VMSTATE_UINT32_ARRAY(pcbuf, TTTensixThread, TT_TENSIX_PCBUF_DEPTH),
        VMSTATE_UINT32(pcbuf_head, TTTensixThread),
        VMSTATE_UINT32(pcbuf_count, TTTensixThread),
        VMSTATE_UINT32_ARRAY(mop_cfg, TTTensixThread, TT_TENSIX_MOP_CFG),
        VMSTATE_UINT32(mop_mask_hi, TTTensixThread),
        VMSTATE_UINT32_ARRAY(replay, TTTensixThread, TT_TENSIX_REPLAY),
        VMSTATE_UINT32(replay_pos, TTTensixThread),
        VMSTATE_UINT32(replay_left, TTTensixThread),
        VMSTATE_BOOL(replay_exec, TTTensixThread),
        VMSTATE_UINT32_ARRAY(gpr, TTTensixThread, TT_TENSIX_GPRS),
        VMSTATE_UINT16_ARRAY(thread_cfg, TTTensixThread,
                             TT_TENSIX_THREAD_CFG),
        VMSTATE_STRUCT_ARRAY(adc, TTTensixThread, 3, 1, vmstate_tt_tensix_adc,
                             TTTensixAdc),
        VMSTATE_STRUCT(rwc, TTTensixThread, 1, vmstate_tt_tensix_rwc,
                       TTTensixRwc),
        VMSTATE_UINT64(executed, TTTensixThread),
        VMSTATE_INT8(pusher, TTTensixThread),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_tt_tensix_src = {
    .name = "tt-tensix/src",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        /* the three-dimensional cell array as one flat array of cells */
        {
            .name = "cell",
            .num = 2 * TT_SRC_ROWS * TT_ROW_DATUMS,
            .info = &vmstate_info_uint32,
            .size = sizeof(uint32_t),
            .flags = VMS_ARRAY,
            .offset = offsetof(TTTensixSrc, cell),
        },
        VMSTATE_UINT8(valid, TTTensixSrc),
        VMSTATE_UINT8(unpack_bank, TTTensixSrc),
        VMSTATE_UINT8(matrix_bank, TTTensixSrc),
        VMSTATE_UINT8_ARRAY(format, TTTensixSrc, 2),
        VMSTATE_UINT8_ARRAY(row, TTTensixSrc, 3),
        VMSTATE_UINT8_ARRAY(context, TTTensixSrc, 3),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_tt_tensix_packer = {
    .name = "tt-tensix/packer",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(open, TTTensixPacker),
        VMSTATE_UINT32(data, TTTensixPacker),
        VMSTATE_UINT32(exp, TTTensixPacker),
        VMSTATE_UINT8(tpg_x, TTTensixPacker),
        VMSTATE_UINT8(tpg_y, TTTensixPacker),
        VMSTATE_UINT8(tpg_z, TTTensixPacker),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_tt_tensix_sfp_sched = {
    .name = "tt-tensix/sfp-sched",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(w, TTTensixSfpSched),
        VMSTATE_UINT16(addr, TTTensixSfpSched),
        VMSTATE_UINT8(va, TTTensixSfpSched),
        VMSTATE_UINT8(vb, TTTensixSfpSched),
        VMSTATE_UINT8(vc, TTTensixSfpSched),
        VMSTATE_UINT8(vd, TTTensixSfpSched),
        VMSTATE_UINT8(unit, TTTensixSfpSched),
        VMSTATE_UINT8(count, TTTensixSfpSched),
        VMSTATE_BOOL(by_insn, TTTensixSfpSched),
        VMSTATE_UINT8(thread, TTTensixSfpSched),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_tt_tensix_sfp_wb = {
    .name = "tt-tensix/sfp-wb",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(v, TTTensixSfpWb, TT_SFPU_LANES),
        VMSTATE_UINT32(mask, TTTensixSfpWb),
        VMSTATE_UINT8(reg, TTTensixSfpWb),
        VMSTATE_UINT8(left, TTTensixSfpWb),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_tt_tensix_sfpu = {
    .name = "tt-tensix/sfpu",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_2DARRAY(lreg, TTTensixSfpu, TT_SFPU_LREGS,
                               TT_SFPU_LANES),
        VMSTATE_UINT32(flags, TTTensixSfpu),
        VMSTATE_BOOL(use_flags, TTTensixSfpu),
        VMSTATE_UINT8(sp, TTTensixSfpu),
        VMSTATE_UINT32_ARRAY(stack_flags, TTTensixSfpu, TT_SFPU_STACK),
        VMSTATE_BOOL_ARRAY(stack_use, TTTensixSfpu, TT_SFPU_STACK),
        VMSTATE_UINT32_ARRAY(lane_config, TTTensixSfpu, TT_SFPU_COLS),
        VMSTATE_UINT32_2DARRAY(lm_template, TTTensixSfpu, TT_SFPU_COLS, 4),
        VMSTATE_UINT32_2DARRAY(lm_sequence, TTTensixSfpu, TT_SFPU_COLS, 4),
        VMSTATE_UINT16_ARRAY(lm_misc, TTTensixSfpu, TT_SFPU_COLS),
        VMSTATE_UINT32_ARRAY(prng, TTTensixSfpu, TT_SFPU_LANES),
        VMSTATE_STRUCT_ARRAY(sched, TTTensixSfpu, TT_SFPU_SCHED, 1,
                             vmstate_tt_tensix_sfp_sched, TTTensixSfpSched),
        VMSTATE_UINT8(nsched, TTTensixSfpu),
        VMSTATE_UINT8(nwb, TTTensixSfpu),
        VMSTATE_STRUCT_ARRAY(wb, TTTensixSfpu, TT_SFPU_WB, 1,
                             vmstate_tt_tensix_sfp_wb, TTTensixSfpWb),
        VMSTATE_UINT8(wb_lat, TTTensixSfpu),
        VMSTATE_UINT8(thread, TTTensixSfpu),
        VMSTATE_END_OF_LIST()
    },
};

/* Refuse a loaded value @v above @max: log which, fail the load */
static bool tt_tensix_check(TTTensix *t, const char *what, int i,
                            uint64_t v, uint64_t max)
{
    if (v <= max) {
        return true;
    }
    error_report("tt-tensix x%dy%d: migration stream has %s[%d] = %" PRIu64
                 " (at most %" PRIu64 ")", t->tile_x, t->tile_y, what, i, v,
                 max);
    return false;
}

static bool tt_tensix_thread_valid(TTTensix *t, int i)
{
    TTTensixThread *th = &t->th[i];
    TTTensixMop *m = &th->mop;
    bool ok = true;

    /* the ring buffers are indexed without a mask */
    ok &= tt_tensix_check(t, "fifo_head", i, th->fifo_head,
                          TT_TENSIX_FIFO - 1);
    ok &= tt_tensix_check(t, "fifo_count", i, th->fifo_count,
                          TT_TENSIX_FIFO);
    ok &= tt_tensix_check(t, "queue head", i, th->head, TT_TENSIX_QUEUE - 1);
    ok &= tt_tensix_check(t, "queue count", i, th->count, TT_TENSIX_QUEUE);
    ok &= tt_tensix_check(t, "pcbuf_head", i, th->pcbuf_head,
                          TT_TENSIX_PCBUF_DEPTH - 1);
    ok &= tt_tensix_check(t, "pcbuf_count", i, th->pcbuf_count,
                          TT_TENSIX_PCBUF_DEPTH);
    ok &= tt_tensix_check(t, "replay_left", i, th->replay_left,
                          2 * TT_TENSIX_REPLAY);
    /* MOPExpander.md: at most 129 outer and 2 x 127 inner iterations */
    ok &= tt_tensix_check(t, "mop template", i, m->tmpl, 1);
    ok &= tt_tensix_check(t, "mop outer", i, m->outer, 129);
    ok &= tt_tensix_check(t, "mop inner", i, m->inner, 2 * 0x7f);
    ok &= tt_tensix_check(t, "mop position", i, m->i, m->outer);
    /* STREAMWAIT reads the stream's register directly */
    if (th->latch.op == TT_OP_STREAMWAIT) {
        ok &= tt_tensix_check(t, "latched stream", i, th->latch.stream,
                              TT_STREAMS - 1);
    }
    /* the RWCs' and ADCs' widths (RWCs.md, ADCs.md) */
    ok &= tt_tensix_check(t, "rwc dst", i, th->rwc.dst, TT_DST_ROWS - 1);
    ok &= tt_tensix_check(t, "rwc dst_cr", i, th->rwc.dst_cr,
                          TT_DST_ROWS - 1);
    ok &= tt_tensix_check(t, "rwc sp", i, th->rwc.sp, TT_DST_ROWS - 1);
    ok &= tt_tensix_check(t, "rwc srca", i, th->rwc.srca, TT_SRC_ROWS - 1);
    ok &= tt_tensix_check(t, "rwc srca_cr", i, th->rwc.srca_cr,
                          TT_SRC_ROWS - 1);
    ok &= tt_tensix_check(t, "rwc srcb", i, th->rwc.srcb, TT_SRC_ROWS - 1);
    ok &= tt_tensix_check(t, "rwc srcb_cr", i, th->rwc.srcb_cr,
                          TT_SRC_ROWS - 1);
    for (int a = 0; a < 3; a++) {
        for (int c = 0; c < 2; c++) {
            for (int k = 0; k < 4; k++) {
                ok &= tt_tensix_check(t, "adc counter", i,
                                      th->adc[a].val[c][k], tt_adc_mask[k]);
                ok &= tt_tensix_check(t, "adc counter CR", i,
                                      th->adc[a].cr[c][k], tt_adc_mask[k]);
            }
        }
    }
    /* ThreadConfig's CFG_STATE_ID selects one of the two config states */
    ok &= tt_tensix_check(t, "config state", i, tt_cfg_state(t, i), 1);
    return ok;
}

static int tt_tensix_post_load(void *opaque, int version_id)
{
    TTTensix *t = opaque;
    TTTensixSfpu *s = &t->sfpu;
    bool ok = true;

    for (int i = 0; i < TT_TENSIX_THREADS; i++) {
        ok &= tt_tensix_thread_valid(t, i);
    }
    for (int i = 0; i < TT_TENSIX_SEMS; i++) {
        ok &= tt_tensix_check(t, "semaphore", i, t->sem_val[i], 15);
        ok &= tt_tensix_check(t, "semaphore max", i, t->sem_max[i], 15);
    }
    for (int i = 0; i < TT_TENSIX_MUTEXES; i++) {
        ok &= tt_tensix_check(t, "mutex owner", i, t->mutex_owner[i],
                              TT_TENSIX_THREADS);
    }
    for (int i = 0; i < TT_TENSIX_THREADS; i++) {
        ok &= tt_tensix_check(t, "pushing core", i, t->th[i].pusher + 1,
                              TT_CORES_PER_TILE);
    }
    ok &= tt_tensix_check(t, "hand-overs in flight", 0, t->nflips,
                          TT_TENSIX_FLIPS);
    /* a thread while hand-overs are in flight, else -1 */
    ok &= tt_tensix_check(t, "hand-over thread", 0,
                          t->nflips ? (uint8_t)t->flip_thread
                                    : (uint8_t)(t->flip_thread + 1),
                          t->nflips ? TT_TENSIX_THREADS - 1 : 0);
    for (int i = 0; ok && i < t->nflips; i++) {
        ok &= tt_tensix_check(t, "hand-over", i, t->flips[i], 3);
    }
    ok &= tt_tensix_check(t, "stalled pushes", 0, t->redo_push,
                          BIT(TT_CORES_PER_TILE) - 1);
    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        ok &= tt_tensix_check(t, "core wait kind", r, t->wait_kind[r] + 1,
                              TT_WAIT_KINDS);
        ok &= tt_tensix_check(t, "core wait thread", r, t->wait_thread[r],
                              TT_TENSIX_THREADS - 1);
    }
    for (int i = 0; i < 2; i++) {
        TTTensixSrc *src = &t->src[i];

        ok &= tt_tensix_check(t, "src valid banks", i, src->valid, 3);
        ok &= tt_tensix_check(t, "src unpack bank", i, src->unpack_bank, 1);
        ok &= tt_tensix_check(t, "src matrix bank", i, src->matrix_bank, 1);
        for (int k = 0; k < 3; k++) {
            ok &= tt_tensix_check(t, "src row", i, src->row[k],
                                  TT_SRC_ROWS - 1);
            ok &= tt_tensix_check(t, "src context", i, src->context[k], 7);
        }
    }
    ok &= tt_tensix_check(t, "packer tile x", 0, t->packer.tpg_x, 15);
    ok &= tt_tensix_check(t, "packer data", 0, t->packer.data, t->l1_size);
    ok &= tt_tensix_check(t, "packer exponent", 0, t->packer.exp, t->l1_size);
    tt_sfpu_lane_config_changed(t);
    tt_sfpu_lm_changed(t);
    tt_src_changed_all(t);      /* Src arrived: nothing prepared holds */
    /* the Vector Unit's stack and SFPLOADMACRO's pipeline */
    ok &= tt_tensix_check(t, "sfpu stack depth", 0, s->sp, TT_SFPU_STACK);
    ok &= tt_tensix_check(t, "sfpu thread", 0, s->thread,
                          TT_TENSIX_THREADS - 1);
    ok &= tt_tensix_check(t, "sfpu scheduled", 0, s->nsched, TT_SFPU_SCHED);
    ok &= tt_tensix_check(t, "sfpu writes", 0, s->nwb, TT_SFPU_WB);
    for (int j = 0; ok && j < s->nsched; j++) {
        TTTensixSfpSched *q = &s->sched[j];

        ok &= tt_tensix_check(t, "sfpu sched va", j, q->va, TT_SFPU_LREGS - 1);
        ok &= tt_tensix_check(t, "sfpu sched vb", j, q->vb, TT_SFPU_LREGS - 1);
        ok &= tt_tensix_check(t, "sfpu sched vc", j, q->vc, TT_SFPU_LREGS - 1);
        ok &= tt_tensix_check(t, "sfpu sched vd", j, q->vd, TT_SFPU_LREGS - 1);
        ok &= tt_tensix_check(t, "sfpu sched unit", j, q->unit, 3);
        ok &= tt_tensix_check(t, "sfpu sched thread", j, q->thread,
                              TT_TENSIX_THREADS - 1);
        ok &= tt_tensix_check(t, "sfpu sched dst address", j, q->addr,
                              TT_DST_ROWS - 1);
    }
    for (int j = 0; ok && j < s->nwb; j++) {
        ok &= tt_tensix_check(t, "sfpu write register", j, s->wb[j].reg,
                              TT_SFPU_LREGS - 1);
    }
    if (!ok) {
        return -EINVAL;
    }
    if (t->nflips) {                /* the timer is not migrated */
        tt_src_watch(t);
    }
    return 0;
}

static const VMStateDescription vmstate_tt_tensix = {
    .name = TYPE_TT_TENSIX,
    .version_id = 4,
    .minimum_version_id = 3,
    .post_load = tt_tensix_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(th, TTTensix, TT_TENSIX_THREADS, 1,
                             vmstate_tt_tensix_thread, TTTensixThread),
        VMSTATE_UINT8_ARRAY(sem_val, TTTensix, TT_TENSIX_SEMS),
        VMSTATE_UINT8_ARRAY(sem_max, TTTensix, TT_TENSIX_SEMS),
        VMSTATE_UINT8_ARRAY(mutex_owner, TTTensix, TT_TENSIX_MUTEXES),
        VMSTATE_ARRAY(wait_kind, TTTensix, TT_CORES_PER_TILE, 0,
                      vmstate_info_int8, int8_t),
        VMSTATE_UINT8_ARRAY(wait_thread, TTTensix, TT_CORES_PER_TILE),
        VMSTATE_UINT8_V(redo_push, TTTensix, 4),
        VMSTATE_UINT32_2DARRAY(cfg, TTTensix, 2, TT_TENSIX_CFG_WORDS),
        VMSTATE_UINT64_ARRAY(unimp, TTTensix, 256),
        VMSTATE_STRUCT_ARRAY(src, TTTensix, 2, 1, vmstate_tt_tensix_src,
                             TTTensixSrc),
        VMSTATE_UINT8_ARRAY(flips, TTTensix, TT_TENSIX_FLIPS),
        VMSTATE_UINT8(nflips, TTTensix),
        VMSTATE_INT8(flip_thread, TTTensix),
        VMSTATE_UINT16_2DARRAY(dst, TTTensix, TT_DST_ROWS, TT_ROW_DATUMS),
        VMSTATE_BOOL_ARRAY(dst_valid, TTTensix, TT_DST_ROWS),
        VMSTATE_STRUCT(packer, TTTensix, 1, vmstate_tt_tensix_packer,
                       TTTensixPacker),
        VMSTATE_STRUCT(sfpu, TTTensix, 1, vmstate_tt_tensix_sfpu,
                       TTTensixSfpu),
        VMSTATE_END_OF_LIST()
    },
};

static const Property tt_tensix_props[] = {
    DEFINE_PROP_UINT8("x", TTTensix, tile_x, 0),
    DEFINE_PROP_UINT8("y", TTTensix, tile_y, 0),
    DEFINE_PROP_BOOL("reference", TTTensix, reference, false),
    DEFINE_PROP_STRING("vector", TTTensix, vector),
    DEFINE_PROP_LINK("l1", TTTensix, l1_mr, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_LINK("view", TTTensix, view, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_LINK("spin", TTTensix, spin, TYPE_TT_SPIN_TILE,
                     TTSpinTile *),
    DEFINE_PROP_LINK("overlay", TTTensix, overlay, TYPE_TT_NOC_OVERLAY,
                     TTNocOverlay *),
    DEFINE_PROP_LINK("cpu0", TTTensix, cpu[0], TYPE_CPU, CPUState *),
    DEFINE_PROP_LINK("cpu1", TTTensix, cpu[1], TYPE_CPU, CPUState *),
    DEFINE_PROP_LINK("cpu2", TTTensix, cpu[2], TYPE_CPU, CPUState *),
    DEFINE_PROP_LINK("cpu3", TTTensix, cpu[3], TYPE_CPU, CPUState *),
    DEFINE_PROP_LINK("cpu4", TTTensix, cpu[4], TYPE_CPU, CPUState *),
};

static void tt_tensix_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole Tensix coprocessor";
    riscv_tt_disas = tt_tensix_disas;   /* -d in_asm names Tensix words */
    tt_sfpu_class_init();
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
