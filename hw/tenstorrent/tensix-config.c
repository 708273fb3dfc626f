/*
 * Tenstorrent Blackhole Tensix Configuration Unit: the two configuration
 * states, ThreadConfig, and the instructions that write them; plus the
 * backend configuration window at 0xFFEF0000.
 *
 * Source: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/
 * ConfigurationUnit.md, BackendConfiguration.md, SETC16.md, WRCFG.md,
 * RDCFG.md, RMWCIB.md, CFGSHIFTMASK.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/lockable.h"
#include "tensix-common.h"
#include "hw/tenstorrent/spin-park.h"

void tt_cfg_write(TTTensix *t, int state, uint32_t reg, uint32_t val)
{
    t->cfg[state][reg] = val;
    if (reg >= TT_TENSIX_GLOBAL_CFG) {
        t->cfg[!state][reg] = val;  /* global words live in both states */
    }
    if (reg == TT_CFG_PRNG_SEED_Seed_Val_WORD) {
        tt_sfpu_seed(t, val);       /* the Vector Unit's PRNG reseeds */
    }
}

/* Config word @reg of the thread's current state, or NULL (logged) */
static uint32_t *tt_cfg_word(TTTensix *t, int thread, uint32_t w,
                             uint32_t reg)
{
    if (reg >= TT_TENSIX_CFG_WORDS) {
        tt_tensix_error(t, thread, w, "config word %u out of range", reg);
        return NULL;
    }
    return &t->cfg[tt_cfg_state(t, thread)][reg];
}

/* SETC16: ThreadConfig[thread][reg] = value */
bool tensix_setc16(TTTensix *t, int thread, uint32_t w)
{
    uint32_t reg = tt_setc16_setc16_reg(w);

    if (reg >= TT_TENSIX_THREAD_CFG) {
        tt_tensix_error(t, thread, w, "ThreadConfig word %u out of range",
                        reg);
        return true;
    }
    t->th[thread].thread_cfg[reg] = tt_setc16_setc16_value(w);
    return true;
}

/* WRCFG: one GPR, or four (aligned), into config words */
bool tensix_wrcfg(TTTensix *t, int thread, uint32_t w)
{
    TTTensixThread *th = &t->th[thread];
    int n = tt_wrcfg_wr128b(w) ? 4 : 1;
    uint32_t reg = tt_wrcfg_cfg_reg(w) & ~(n - 1);
    uint32_t gpr = tt_wrcfg_gpr_address(w) & ~(n - 1);

    if (!tt_cfg_word(t, thread, w, tt_wrcfg_cfg_reg(w))) {
        return true;
    }
    for (int i = 0; i < n && reg + i < TT_TENSIX_CFG_WORDS; i++) {
        tt_cfg_write(t, tt_cfg_state(t, thread), reg + i,
                     th->gpr[(gpr + i) % TT_TENSIX_GPRS]);
    }
    return true;
}

/* RDCFG: config word into a GPR */
bool tensix_rdcfg(TTTensix *t, int thread, uint32_t w)
{
    uint32_t *word = tt_cfg_word(t, thread, w, tt_rdcfg_cfg_reg(w));

    if (word) {
        t->th[thread].gpr[tt_rdcfg_gpr_address(w) % TT_TENSIX_GPRS] = *word;
    }
    return true;
}

/* RMWCIB0..3: masked write of one byte lane of a word of state 0 */
static bool tt_rmwcib(TTTensix *t, int thread, uint32_t w, int lane)
{
    uint32_t reg = tt_rmwcib0_cfg_reg_addr(w);
    uint32_t mask = tt_rmwcib0_mask(w) << (8 * lane);

    if (tt_cfg_word(t, thread, w, reg)) {
        tt_cfg_write(t, 0, reg, (t->cfg[0][reg] & ~mask) |
                     ((tt_rmwcib0_data(w) << (8 * lane)) & mask));
    }
    return true;
}

bool tensix_rmwcib0(TTTensix *t, int thread, uint32_t w)
{
    return tt_rmwcib(t, thread, w, 0);
}

bool tensix_rmwcib1(TTTensix *t, int thread, uint32_t w)
{
    return tt_rmwcib(t, thread, w, 1);
}

bool tensix_rmwcib2(TTTensix *t, int thread, uint32_t w)
{
    return tt_rmwcib(t, thread, w, 2);
}

bool tensix_rmwcib3(TTTensix *t, int thread, uint32_t w)
{
    return tt_rmwcib(t, thread, w, 3);
}

/*
 * CFGSHIFTMASK: combine a masked, rotated scratch word (config words
 * 209-211; selector 3 is the thread's own) into a config word of the
 * thread's state.
 */
#define TT_CFG_SCRATCH  209

static uint32_t tt_cfgshiftmask_op(uint32_t op, uint32_t cfg, uint32_t sc)
{
    /* modes 4-6 use the complement of the masked, rotated scratch */
    if (op >= 4 && op <= 6) {
        sc = ~sc;
    }
    switch (op & 3) {
    case 0:
        return cfg | sc;
    case 1:
        return cfg & sc;
    case 2:
        return cfg ^ sc;
    default:
        return op == 3 ? cfg + sc : cfg - sc;
    }
}

bool tensix_cfgshiftmask(TTTensix *t, int thread, uint32_t w)
{
    int state = tt_cfg_state(t, thread), rot;
    uint32_t sel = tt_cfgshiftmask_scratch_sel(w), reg, sc, mask, cfg;

    reg = tt_cfgshiftmask_cfg_reg(w);
    if (!tt_cfg_word(t, thread, w, reg)) {
        return true;
    }
    rot = tt_cfgshiftmask_right_cshift_amt(w);
    mask = tt_cfgshiftmask_mask_width(w) == 31 ? UINT32_MAX
           : (2u << tt_cfgshiftmask_mask_width(w)) - 1;
    sc = ror32(t->cfg[state][TT_CFG_SCRATCH + (sel < 3 ? sel : thread)] &
               mask, rot);
    cfg = t->cfg[state][reg];
    if (!tt_cfgshiftmask_disable_mask_on_old_val(w)) {
        cfg &= ~ror32(mask, rot);
    }
    tt_cfg_write(t, state, reg,
                 tt_cfgshiftmask_op(tt_cfgshiftmask_operation(w), cfg, sc));
    return true;
}

/* ------------------------------------- the configuration window (MMIO) -- */

#define TT_CFG_DUAL     0x700       /* ConfigDualWrite */
#define TT_CFG_THREAD   0xa80       /* {u16, pad} ThreadConfig[3][68] */

static uint64_t tt_cfg_read(void *opaque, hwaddr addr, unsigned size)
{
    TTTensixPort *p = opaque;
    TTTensix *t = p->t;
    uint32_t w = 0, idx = addr / 4;

    QEMU_LOCK_GUARD(&t->lock);
    if (addr < TT_CFG_DUAL) {
        w = t->cfg[idx / TT_TENSIX_CFG_WORDS][idx % TT_TENSIX_CFG_WORDS];
    } else if (addr >= TT_CFG_THREAD &&
               idx - TT_CFG_THREAD / 4 <
               TT_TENSIX_THREADS * TT_TENSIX_THREAD_CFG) {
        idx -= TT_CFG_THREAD / 4;
        w = t->th[idx / TT_TENSIX_THREAD_CFG]
                .thread_cfg[idx % TT_TENSIX_THREAD_CFG];
    } else {
        qemu_log_mask(LOG_UNIMP, "x%dy%d: config read 0x%" HWADDR_PRIx
                      " not modelled\n", t->tile_x, t->tile_y,
                      TT_TILE_TENSIX_CFG_BASE + addr);
    }
    return extract32(w, 8 * (addr & 3), 8 * size);
}

static void tt_cfg_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    TTTensixPort *p = opaque;
    TTTensix *t = p->t;
    uint32_t idx = addr / 4;

    if (p->role == TT_NCRISC || size != 4) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d %s: config write of %u bytes "
                      "at 0x%" HWADDR_PRIx " ignored\n", t->tile_x, t->tile_y,
                      tt_core_role_name[p->role], size,
                      TT_TILE_TENSIX_CFG_BASE + addr);
        return;
    }
    WITH_QEMU_LOCK_GUARD(&t->lock) {
        if (addr < TT_CFG_DUAL) {
            tt_cfg_write(t, idx / TT_TENSIX_CFG_WORDS,
                         idx % TT_TENSIX_CFG_WORDS, val);
        } else if (addr < TT_CFG_THREAD) {
            idx = (addr - TT_CFG_DUAL) / 4 % TT_TENSIX_CFG_WORDS;
            tt_cfg_write(t, 0, idx, val);
            tt_cfg_write(t, 1, idx, val);
        } else {
            qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d: ThreadConfig is written "
                          "by SETC16 only\n", t->tile_x, t->tile_y);
        }
    }
    tt_spin_wake(t->spin);
}

const MemoryRegionOps tt_tensix_cfg_ops = {
    .read = tt_cfg_read,
    .write = tt_cfg_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
};
