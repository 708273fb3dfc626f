/*
 * Tenstorrent Blackhole Tensix Matrix Unit (FPU): the RWC counters and
 * their instructions.
 *
 * Source: tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/
 * MatrixUnit.md, RWCs.md, SETRWC.md, INCRWC.md (the Blackhole
 * MatrixUnit.md defers to them).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "tensix-internal.h"

#define TT_RWC_SRC_MASK 0x3f
#define TT_RWC_DST_MASK 0x3ff

/* SETRWC (SETRWC.md): set counters, optionally relative to Cr or Dst */
bool tensix_setrwc(TTTensix *t, int thread, uint32_t w)
{
    TTTensixRwc *r = &t->th[thread].rwc;
    uint32_t bits = tt_setrwc_bit_mask(w), cr = tt_setrwc_rwc_cr(w);
    uint32_t v;

    if (bits & 1) {
        v = tt_setrwc_rwc_a(w) + (cr & 1 ? r->srca_cr : 0);
        r->srca = r->srca_cr = v & TT_RWC_SRC_MASK;
    }
    if (bits & 2) {
        v = tt_setrwc_rwc_b(w) + (cr & 2 ? r->srcb_cr : 0);
        r->srcb = r->srcb_cr = v & TT_RWC_SRC_MASK;
    }
    if ((bits & 4) || (cr & 8)) {
        v = tt_setrwc_rwc_d(w) + (cr & 8 ? r->dst : cr & 4 ? r->dst_cr : 0);
        r->dst = r->dst_cr = v & TT_RWC_DST_MASK;
    }
    if (bits & 8) {
        r->fidelity = 0;
    }
    if (tt_setrwc_clear_ab_vld(w)) {
        /* Src bank hand-back belongs to the matrix unit model */
        qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: SETRWC Src bank flip "
                      "not modelled yet\n", t->tile_x, t->tile_y, thread);
    }
    return true;
}

/* INCRWC (INCRWC.md): increment, or increment Cr and copy it */
bool tensix_incrwc(TTTensix *t, int thread, uint32_t w)
{
    TTTensixRwc *r = &t->th[thread].rwc;
    uint32_t cr = tt_incrwc_rwc_cr(w);

    if (cr & 1) {
        r->srca = r->srca_cr = (r->srca_cr + tt_incrwc_rwc_a(w)) &
                               TT_RWC_SRC_MASK;
    } else {
        r->srca = (r->srca + tt_incrwc_rwc_a(w)) & TT_RWC_SRC_MASK;
    }
    if (cr & 2) {
        r->srcb = r->srcb_cr = (r->srcb_cr + tt_incrwc_rwc_b(w)) &
                               TT_RWC_SRC_MASK;
    } else {
        r->srcb = (r->srcb + tt_incrwc_rwc_b(w)) & TT_RWC_SRC_MASK;
    }
    if (cr & 4) {
        r->dst = r->dst_cr = (r->dst_cr + tt_incrwc_rwc_d(w)) &
                             TT_RWC_DST_MASK;
    } else {
        r->dst = (r->dst + tt_incrwc_rwc_d(w)) & TT_RWC_DST_MASK;
    }
    return true;
}

