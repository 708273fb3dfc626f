/*
 * Tenstorrent Blackhole Tensix scalar unit (ThCon) and address counters:
 * the GPR instructions (*DMAREG, LOADREG/STOREREG, REG2FLOP), the ADC
 * instructions of the miscellaneous unit and the RWC instructions.
 *
 * Semantics: tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor
 * pages of each instruction (Blackhole defers to them) and BlackholeA0
 * ADCs.md (13-bit Z/W counters); summarised with their sources in the
 * project's notes on the Tensix coprocessor.  Every instruction completes
 * before the next one is considered, so LOADREG's result is in its GPR
 * at once (what STALLWAIT C0 would wait for) and FLUSHDMA has nothing to
 * wait for.  Called with the tile's coprocessor lock held.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "system/memory.h"
#include "hw/tenstorrent/tensix-frontend.h"
#include "tt-tensix-isa.h"      /* generated from data/tensix-isa.yaml */

/* ADC counter widths on Blackhole: X 18, Y 13, Z 13, W 13 (ADCs.md) */
static const uint32_t tt_adc_mask[4] = { 0x3ffff, 0x1fff, 0x1fff, 0x1fff };

/* THCON config words start here; global ones at TT_TENSIX_GLOBAL_CFG */
#define TT_THCON_CFG_BASE   64

static void tt_thcon_error(TTTensix *t, int thread, uint32_t w,
                           const char *why)
{
    qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d tensix T%d: %s (0x%08x): %s\n",
                  t->tile_x, t->tile_y, thread,
                  tt_tensix_isa[w >> 24].name, w, why);
}

static void tt_setdmareg(TTTensix *t, int thread, uint32_t w)
{
    uint32_t *gpr = t->th[thread].gpr;
    uint32_t half = tt_setdmareg_reg_index16b(w);
    uint32_t val = tt_setdmareg_payload_sig_sel_size(w) << 14 |
                   tt_setdmareg_payload_sig_sel(w);

    if (tt_setdmareg_set_signals_mode(w)) {
        qemu_log_mask(LOG_UNIMP, "tensix: SETDMAREG packer signals mode\n");
        return;
    }
    gpr[half / 2] = deposit32(gpr[half / 2], 16 * (half & 1), 16, val);
}

/*
 * ADD/SUB/MUL/BITWOP/SHIFT/CMPDMAREG share one layout: result [17:12],
 * right register or 6-bit constant [11:6], left register [5:0], constant
 * flag [23], mode [20:18] (ADDDMAREG.md and its siblings).
 */
static void tt_dmareg_alu(TTTensix *t, int thread, uint32_t w)
{
    uint32_t *gpr = t->th[thread].gpr;
    uint32_t l = gpr[tt_adddmareg_op_a_reg_index(w)];
    uint32_t r = tt_adddmareg_op_b_is_const(w) ? tt_adddmareg_op_b_reg_index(w)
                 : gpr[tt_adddmareg_op_b_reg_index(w)];
    uint32_t mode = tt_bitwopdmareg_op_sel(w), res;

    switch (w >> 24) {
    case TT_OP_ADDDMAREG:
        res = l + r;
        break;
    case TT_OP_SUBDMAREG:
        res = l - r;
        break;
    case TT_OP_MULDMAREG:       /* low 16 bits times low 16 bits */
        res = (l & 0xffff) * (r & 0xffff);
        break;
    case TT_OP_BITWOPDMAREG:
        if (mode > 2) {
            tt_thcon_error(t, thread, w, "mode is not AND, OR or XOR");
            return;
        }
        res = mode == 0 ? l & r : mode == 1 ? l | r : l ^ r;
        break;
    case TT_OP_SHIFTDMAREG:
        if (mode > 1) {
            tt_thcon_error(t, thread, w, "mode is not a left/right shift");
            return;
        }
        r &= 0x1f;
        res = mode ? l >> r : l << r;
        break;
    default:                    /* CMPDMAREG, unsigned */
        if (mode > 2) {
            tt_thcon_error(t, thread, w, "mode is not >, < or ==");
            return;
        }
        res = mode == 0 ? l > r : mode == 1 ? l < r : l == r;
    }
    gpr[tt_adddmareg_result_reg_index(w)] = res;
}

/* LOADREG/STOREREG: the tile's registers at 0xFFB00000 + (AddrLo << 2) */
static void tt_loadstorereg(TTTensix *t, int thread, uint32_t w)
{
    uint32_t *gpr = &t->th[thread].gpr[tt_storereg_tdma_data_reg_index(w)];
    hwaddr addr = 0xffb00000u + (tt_storereg_reg_addr(w) << 2);
    MemTxResult r;

    if (addr < 0xffb11000u) {
        tt_thcon_error(t, thread, w, "address below 0xFFB11000 (undefined)");
        return;
    }
    if (w >> 24 == TT_OP_STOREREG) {
        address_space_stl_le(t->view_as, addr, *gpr, MEMTXATTRS_UNSPECIFIED,
                             &r);
    } else {
        *gpr = address_space_ldl_le(t->view_as, addr, MEMTXATTRS_UNSPECIFIED,
                                    &r);
    }
    if (r != MEMTX_OK) {
        tt_thcon_error(t, thread, w, "nothing answered at that address");
    }
}

/* REG2FLOP, ADC form: one counter (or its Cr) from part of a GPR */
static void tt_reg2flop_adc(TTTensix *t, int thread, uint32_t w)
{
    uint32_t v = t->th[thread].gpr[tt_reg2flop_reg_index(w)];
    uint32_t flop = tt_reg2flop_flop_index(w);
    uint32_t shift = tt_reg2flop_byte_offset(w);
    int dim = flop & 3, cr = (flop >> 2) & 1, sel = (flop >> 3) & 3;
    int ch = (flop >> 5) & 1;
    int target = tt_reg2flop_target_sel(w) & 1 ? tt_reg2flop_context_id_2(w)
                                               : thread;
    TTTensixAdc *a;

    switch (tt_reg2flop_size_sel(w)) {
    case 0:
        v = 0;                  /* "128 bit (not valid)" */
        break;
    case 1:
        v = shift ? 0 : v;
        break;
    case 2:
        v = shift == 0 ? v & 0xffff : shift == 2 ? v >> 16 : 0;
        break;
    default:
        v = (v >> (8 * shift)) & 0xff;
    }
    if (target >= TT_TENSIX_THREADS || sel == 3) {
        tt_thcon_error(t, thread, w, "no such thread or address counter");
        return;
    }
    a = &t->th[target].adc[sel];
    (cr ? a->cr : a->val)[ch][dim] = v & tt_adc_mask[dim];
}

/* REG2FLOP: a GPR (or four) into THCON configuration, or into an ADC */
static void tt_reg2flop(TTTensix *t, int thread, uint32_t w)
{
    TTTensixThread *th = &t->th[thread];
    uint32_t idx = tt_reg2flop_flop_index(w), reg = tt_reg2flop_reg_index(w);
    uint32_t *cfg = t->cfg[th->thread_cfg[0] & 1] + TT_THCON_CFG_BASE;

    if (tt_reg2flop_target_sel(w) & 2) {
        tt_reg2flop_adc(t, thread, w);
        return;
    }
    if (idx >= TT_TENSIX_GLOBAL_CFG - TT_THCON_CFG_BASE) {
        tt_thcon_error(t, thread, w, "THCON config index out of range");
        return;
    }
    if (tt_reg2flop_size_sel(w) == 0) {     /* 128 bits */
        memcpy(&cfg[idx & ~3], &th->gpr[reg & ~3], 16);
    } else {
        cfg[idx] = th->gpr[reg];
    }
}

/* ------------------------------------------------------------- ADCs -- */

static int tt_adc_thread(TTTensix *t, int thread, uint32_t over, uint32_t w)
{
    if (over) {
        /* ISA: "UnsupportedFunctionality, weak confidence" */
        qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: %s thread override %u "
                      "used\n", t->tile_x, t->tile_y, thread,
                      tt_tensix_isa[w >> 24].name, over);
        return over - 1 < TT_TENSIX_THREADS ? over - 1 : thread;
    }
    return thread;
}

/*
 * SETADCXY/ZW, INCADCXY/ZW, ADDRCRXY/ZW: the XY and ZW forms share one
 * layout (ch0 [8:6], ch0' [11:9], ch1 [14:12], ch1' [17:15]); @d0 is the
 * first dimension (0: X, 2: Z).
 */
static void tt_adc_xyzw(TTTensix *t, int thread, uint32_t w, int d0)
{
    uint32_t op = w >> 24, mask = tt_setadcxy_cnt_set_mask(w);
    uint32_t v[4] = { tt_setadcxy_ch0_x(w), tt_setadcxy_ch0_y(w),
                      tt_setadcxy_ch1_x(w), tt_setadcxy_ch1_y(w) };
    bool inc = op == TT_OP_INCADCXY || op == TT_OP_INCADCZW;
    uint32_t bits = inc ? 0xf : tt_setadcxy_bit_mask(w);
    int th = tt_adc_thread(t, thread, tt_setadcxy_thread_override(w), w);

    for (int u = 0; u < 3; u++) {
        TTTensixAdc *a = &t->th[th].adc[u];

        if (!(mask & BIT(u))) {
            continue;
        }
        for (int i = 0; i < 4; i++) {
            int ch = i / 2, d = d0 + (i & 1);
            uint32_t m = tt_adc_mask[d];

            if (!(bits & BIT(i))) {
                continue;
            }
            if (inc) {
                a->val[ch][d] = (a->val[ch][d] + v[i]) & m;
            } else if (op == TT_OP_ADDRCRXY || op == TT_OP_ADDRCRZW) {
                a->cr[ch][d] = (a->cr[ch][d] + v[i]) & m;
                a->val[ch][d] = a->cr[ch][d];
            } else {
                a->val[ch][d] = a->cr[ch][d] = v[i];
            }
        }
    }
}

static void tt_adc_set(TTTensix *t, int thread, uint32_t w)
{
    uint32_t mask = tt_setadcxx_cnt_set_mask(w);
    int th = thread;

    for (int u = 0; u < 3; u++) {
        TTTensixAdc *a;

        if (!(mask & BIT(u))) {
            continue;
        }
        if (w >> 24 == TT_OP_SETADCXX) {    /* both channels' X */
            a = &t->th[thread].adc[u];
            a->val[0][0] = a->cr[0][0] = tt_setadcxx_x_start(w);
            a->val[1][0] = a->cr[1][0] = tt_setadcxx_x_end2(w);
            continue;
        }
        /* SETADC: ISA takes a thread override from NewValue[17:16] */
        th = tt_adc_thread(t, thread, tt_setadc_value(w) >> 16, w);
        a = &t->th[th].adc[u];
        a->val[tt_setadc_channel_index(w)][tt_setadc_dimension_index(w)] =
        a->cr[tt_setadc_channel_index(w)][tt_setadc_dimension_index(w)] =
            tt_setadc_value(w) & tt_adc_mask[tt_setadc_dimension_index(w)];
    }
}

/* ------------------------------------------------------------- RWCs -- */

#define TT_RWC_SRC_MASK 0x3f
#define TT_RWC_DST_MASK 0x3ff

/* SETRWC (SETRWC.md): set counters, optionally relative to Cr or Dst */
static void tt_setrwc(TTTensix *t, int thread, uint32_t w)
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
}

/* INCRWC (INCRWC.md): increment, or increment Cr and copy it */
static void tt_incrwc(TTTensix *t, int thread, uint32_t w)
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
}

bool tt_thcon_execute(TTTensix *t, int thread, uint32_t w)
{
    switch (w >> 24) {
    case TT_OP_SETDMAREG:
        tt_setdmareg(t, thread, w);
        break;
    case TT_OP_ADDDMAREG:
    case TT_OP_SUBDMAREG:
    case TT_OP_MULDMAREG:
    case TT_OP_BITWOPDMAREG:
    case TT_OP_SHIFTDMAREG:
    case TT_OP_CMPDMAREG:
        tt_dmareg_alu(t, thread, w);
        break;
    case TT_OP_LOADREG:
    case TT_OP_STOREREG:
        tt_loadstorereg(t, thread, w);
        break;
    case TT_OP_REG2FLOP:
        tt_reg2flop(t, thread, w);
        break;
    case TT_OP_FLUSHDMA:        /* nothing is ever in flight */
    case TT_OP_DMANOP:
        break;
    case TT_OP_SETADC:
    case TT_OP_SETADCXX:
        tt_adc_set(t, thread, w);
        break;
    case TT_OP_SETADCXY:
    case TT_OP_INCADCXY:
    case TT_OP_ADDRCRXY:
        tt_adc_xyzw(t, thread, w, 0);
        break;
    case TT_OP_SETADCZW:
    case TT_OP_INCADCZW:
    case TT_OP_ADDRCRZW:
        tt_adc_xyzw(t, thread, w, 2);
        break;
    case TT_OP_SETRWC:
        tt_setrwc(t, thread, w);
        break;
    case TT_OP_INCRWC:
        tt_incrwc(t, thread, w);
        break;
    default:
        return false;
    }
    return true;
}
