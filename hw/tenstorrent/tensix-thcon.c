/*
 * Tenstorrent Blackhole Tensix Scalar Unit (ThCon): the GPRs, their window
 * at 0xFFE00000 and the GPR instructions (*DMAREG, LOADREG/STOREREG,
 * REG2FLOP).
 *
 * Semantics: tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor
 * pages of each instruction (ScalarUnit.md; Blackhole defers to them).
 * Every instruction completes before the next one is considered, so
 * LOADREG's result is in its GPR at once (what STALLWAIT C0 would wait
 * for) and FLUSHDMA has nothing to wait for.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/lockable.h"
#include "system/memory.h"
#include "tensix-common.h"
#include "hw/tenstorrent/spin-park.h"
#include "hw/tenstorrent/tt-tile-map.h"     /* generated */

/* THCON config words start here; global ones at TT_TENSIX_GLOBAL_CFG */
#define TT_THCON_CFG_BASE   64

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
            tt_tensix_error(t, thread, w, "mode is not AND, OR or XOR");
            return;
        }
        res = mode == 0 ? l & r : mode == 1 ? l | r : l ^ r;
        break;
    case TT_OP_SHIFTDMAREG:
        if (mode > 1) {
            tt_tensix_error(t, thread, w, "mode is not a left/right shift");
            return;
        }
        r &= 0x1f;
        res = mode ? l >> r : l << r;
        break;
    default:                    /* CMPDMAREG, unsigned */
        if (mode > 2) {
            tt_tensix_error(t, thread, w, "mode is not >, < or ==");
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
    hwaddr addr = TT_TILE_LDM_BASE + (tt_storereg_reg_addr(w) << 2);
    MemTxResult r;

    if (addr < 0xffb11000u) {
        tt_tensix_error(t, thread, w, "address below 0xFFB11000 (undefined)");
        return;
    }
    if (w >> 24 == TT_OP_STOREREG) {
        address_space_stl_le(&t->view_as, addr, *gpr, MEMTXATTRS_UNSPECIFIED,
                             &r);
    } else {
        *gpr = address_space_ldl_le(&t->view_as, addr, MEMTXATTRS_UNSPECIFIED,
                                    &r);
    }
    if (r != MEMTX_OK) {
        tt_tensix_error(t, thread, w, "nothing answered at that address");
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
        tt_tensix_error(t, thread, w, "no such thread or address counter");
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
        tt_tensix_error(t, thread, w, "THCON config index out of range");
        return;
    }
    if (tt_reg2flop_size_sel(w) == 0) {     /* 128 bits */
        memcpy(&cfg[idx & ~3], &th->gpr[reg & ~3], 16);
    } else {
        cfg[idx] = th->gpr[reg];
    }
}

bool tensix_setdmareg(TTTensix *t, int thread, uint32_t w)
{
    tt_setdmareg(t, thread, w);
    return true;
}

bool tensix_adddmareg(TTTensix *t, int thread, uint32_t w)
{
    tt_dmareg_alu(t, thread, w);
    return true;
}

bool tensix_subdmareg(TTTensix *t, int thread, uint32_t w)
{
    tt_dmareg_alu(t, thread, w);
    return true;
}

bool tensix_muldmareg(TTTensix *t, int thread, uint32_t w)
{
    tt_dmareg_alu(t, thread, w);
    return true;
}

bool tensix_bitwopdmareg(TTTensix *t, int thread, uint32_t w)
{
    tt_dmareg_alu(t, thread, w);
    return true;
}

bool tensix_shiftdmareg(TTTensix *t, int thread, uint32_t w)
{
    tt_dmareg_alu(t, thread, w);
    return true;
}

bool tensix_cmpdmareg(TTTensix *t, int thread, uint32_t w)
{
    tt_dmareg_alu(t, thread, w);
    return true;
}

bool tensix_loadreg(TTTensix *t, int thread, uint32_t w)
{
    tt_loadstorereg(t, thread, w);
    return true;
}

bool tensix_storereg(TTTensix *t, int thread, uint32_t w)
{
    tt_loadstorereg(t, thread, w);
    return true;
}

bool tensix_reg2flop(TTTensix *t, int thread, uint32_t w)
{
    tt_reg2flop(t, thread, w);
    return true;
}

/* FLUSHDMA: nothing is ever in flight */
bool tensix_flushdma(TTTensix *t, int thread, uint32_t w)
{
    return true;
}

bool tensix_dmanop(TTTensix *t, int thread, uint32_t w)
{
    return true;
}

/* ------------------------------------------------------- GPRs (MMIO) -- */

/* BRISC sees GPRs[3][64], a TRISC its own thread's */
static uint32_t *tt_gpr_ptr(TTTensixPort *p, hwaddr addr)
{
    int thread = p->role == TT_BRISC ? addr / (4 * TT_TENSIX_GPRS)
                                     : p->role - TT_TRISC0;

    if (p->role == TT_NCRISC || thread >= TT_TENSIX_THREADS ||
        (p->role != TT_BRISC && addr >= 4 * TT_TENSIX_GPRS)) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d %s: no GPR at 0x%" HWADDR_PRIx
                      "\n", p->t->tile_x, p->t->tile_y,
                      tt_core_role_name[p->role],
                      TT_TILE_TENSIX_GPR_BASE + addr);
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

const MemoryRegionOps tt_tensix_gpr_ops = {
    .read = tt_gpr_read,
    .write = tt_gpr_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};
