/*
 * Tenstorrent Blackhole Tensix coprocessor: what the device file and the
 * unit files share, below both of them: the one definition of the opcode
 * table, the guest-error log of an instruction, and the packers' path to
 * L1.  The inline helpers are in tensix-common.h.  tensix.c (the device)
 * sits on top of the units and of this file; nothing here calls a unit.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "system/memory.h"
#define TT_TENSIX_ISA_TABLE     /* the one definition of tt_tensix_isa[] */
#include "tensix-common.h"

void tt_tensix_error(TTTensix *t, int thread, uint32_t w, const char *fmt,
                     ...)
{
    g_autofree char *why = NULL;
    va_list ap;

    if (!qemu_loglevel_mask(LOG_GUEST_ERROR)) {
        return;
    }
    va_start(ap, fmt);
    why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    qemu_log("x%dy%d tensix T%d: %s (0x%08x): %s\n", t->tile_x, t->tile_y,
             thread, tt_op_name(w), w, why);
}

bool tt_tensix_l1_write(TTTensix *t, uint32_t addr, const void *buf,
                        uint32_t len)
{
    /* through the tile's address space: stores onto code invalidate it */
    return address_space_write(&t->view_as, addr, MEMTXATTRS_UNSPECIFIED, buf,
                               len) == MEMTX_OK;
}

/* ---------------------------- address modifiers (matrix and vector) -- */

/* One counter and its Cr copy under an address modifier (RWCs.md) */
static void tt_rwc_step(uint16_t *c, uint16_t *cr, unsigned inc, bool clr,
                        bool use_cr, bool c_to_cr, unsigned mask)
{
    if (clr) {
        *c = *cr = 0;
    } else if (c_to_cr) {
        *c = (*c + inc) & mask;
        *cr = *c;
    } else if (use_cr) {
        *c = *cr = (*cr + inc) & mask;
    } else {
        *c = (*c + inc) & mask;
    }
}

/*
 * ApplyAddrMod: Blackhole's instructions carry a 3-bit index into the
 * thread's eight ADDR_MOD_AB/DST sections.  The bias sections
 * (ExtraAddrModBit) choose between two sets of four on Wormhole's 2-bit
 * index and have no use here.
 */
void tt_addr_mod(TTTensix *t, int thread, unsigned n, bool fidelity)
{
    const uint16_t *tc = t->th[thread].thread_cfg;
    TTTensixRwc *r = &t->th[thread].rwc;
    uint16_t a = r->srca, acr = r->srca_cr, b = r->srcb, bcr = r->srcb_cr;

    tt_rwc_step(&a, &acr, TT_THCFG_N(tc, ADDR_MOD_AB_SECn_SrcAIncr, n),
                TT_THCFG_N(tc, ADDR_MOD_AB_SECn_SrcAClear, n),
                TT_THCFG_N(tc, ADDR_MOD_AB_SECn_SrcACR, n), false,
                TT_RWC_SRC_MASK);
    tt_rwc_step(&b, &bcr, TT_THCFG_N(tc, ADDR_MOD_AB_SECn_SrcBIncr, n),
                TT_THCFG_N(tc, ADDR_MOD_AB_SECn_SrcBClear, n),
                TT_THCFG_N(tc, ADDR_MOD_AB_SECn_SrcBCR, n), false,
                TT_RWC_SRC_MASK);
    tt_rwc_step(&r->dst, &r->dst_cr,
                TT_THCFG_N(tc, ADDR_MOD_DST_SECn_DestIncr, n),
                TT_THCFG_N(tc, ADDR_MOD_DST_SECn_DestClear, n),
                TT_THCFG_N(tc, ADDR_MOD_DST_SECn_DestCR, n),
                TT_THCFG_N(tc, ADDR_MOD_DST_SECn_DestCToCR, n),
                TT_RWC_DST_MASK);
    r->srca = a;
    r->srca_cr = acr;
    r->srcb = b;
    r->srcb_cr = bcr;
    if (fidelity) {
        r->fidelity = TT_THCFG_N(tc, ADDR_MOD_DST_SECn_FidelityClear, n) ? 0 :
            (r->fidelity + TT_THCFG_N(tc, ADDR_MOD_DST_SECn_FidelityIncr, n))
            & 3;
    }
}
