/*
 * Tenstorrent Blackhole Tensix coprocessor: the device (one per Tensix
 * tile), its per-core windows, reset, migration and monitor dump.  The
 * units live in tensix-<unit>.c (see tensix-internal.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/lockable.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "target/riscv/cpu.h"
#define TT_TENSIX_ISA_TABLE     /* the one definition of tt_tensix_isa[] */
#include "tensix-internal.h"

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

    memory_region_add_subregion(root, TT_TENSIX_PUSH_BASE, &p->push);
    memory_region_add_subregion(root, TT_TENSIX_PCBUF_BASE, &p->pcbuf);
    memory_region_add_subregion(root, TT_TENSIX_GPR_BASE, &p->gpr);
    memory_region_add_subregion(root, TT_TENSIX_CFG_BASE, &p->cfg);
    memory_region_add_subregion(root, TT_TENSIX_MOPCFG_BASE, &p->mopcfg);
}

bool tt_tensix_l1_write(TTTensix *t, uint32_t addr, const void *buf,
                        uint32_t len)
{
    /* through the tile's address space: stores onto code invalidate it */
    return address_space_write(t->view_as, addr, MEMTXATTRS_UNSPECIFIED, buf,
                               len) == MEMTX_OK;
}

static void tt_tensix_realize(DeviceState *dev, Error **errp)
{
    TTTensix *t = TT_TENSIX(dev);
    Object *o = OBJECT(t);

    if (!t->l1_mr) {
        error_setg(errp, "tt-tensix: link 'l1' (the tile's L1) not set");
        return;
    }
    t->l1 = memory_region_get_ram_ptr(t->l1_mr);
    t->l1_size = memory_region_size(t->l1_mr);
    qemu_mutex_init(&t->lock);
    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        TTTensixPort *p = &t->port[r];

        p->t = t;
        p->role = r;
        memory_region_init_io(&p->push, o, &tt_tensix_push_ops, p,
                              "tensix-push",
                              TT_TENSIX_PUSH_SIZE);
        memory_region_init_io(&p->pcbuf, o, &tt_tensix_pcbuf_ops, p,
                              "tensix-pcbuf",
                              TT_TENSIX_PCBUF_SIZE);
        memory_region_init_io(&p->gpr, o, &tt_tensix_gpr_ops, p, "tensix-gpr",
                              TT_TENSIX_GPR_SIZE);
        memory_region_init_io(&p->cfg, o, &tt_tensix_cfg_ops, p, "tensix-cfg",
                              TT_TENSIX_CFG_SIZE);
        memory_region_init_io(&p->mopcfg, o, &tt_tensix_mopcfg_ops, p,
                              "tensix-mop-cfg", TT_TENSIX_MOPCFG_SIZE);
        memory_region_enable_lockless_io(&p->push);
        memory_region_enable_lockless_io(&p->pcbuf);
        memory_region_enable_lockless_io(&p->gpr);
        memory_region_enable_lockless_io(&p->cfg);
        memory_region_enable_lockless_io(&p->mopcfg);
    }
}

static void tt_tensix_reset_hold(Object *obj, ResetType type)
{
    TTTensix *t = TT_TENSIX(obj);

    memset(t->th, 0, sizeof(t->th));
    memset(t->sem_val, 0, sizeof(t->sem_val));
    memset(t->sem_max, 0, sizeof(t->sem_max));
    memset(t->mutex_owner, 0, sizeof(t->mutex_owner));
    memset(t->cfg, 0, sizeof(t->cfg));
    memset(t->unimp, 0, sizeof(t->unimp));
    memset(t->wait_kind, -1, sizeof(t->wait_kind));
    memset(t->src, 0, sizeof(t->src));
    memset(t->dst, 0, sizeof(t->dst));
    /* every Dst row reads as written at reset, as ttsim has it */
    memset(t->dst_valid, true, sizeof(t->dst_valid));
    memset(&t->packer, 0, sizeof(t->packer));
    tt_sfpu_reset(t);
}

static const VMStateDescription vmstate_tt_tensix = {
    .name = TYPE_TT_TENSIX,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8_ARRAY(sem_val, TTTensix, TT_TENSIX_SEMS),
        VMSTATE_UINT8_ARRAY(sem_max, TTTensix, TT_TENSIX_SEMS),
        VMSTATE_UINT8_ARRAY(mutex_owner, TTTensix, TT_TENSIX_MUTEXES),
        VMSTATE_UINT32_2DARRAY(cfg, TTTensix, 2, TT_TENSIX_CFG_WORDS),
        VMSTATE_END_OF_LIST()
    },
};

static const Property tt_tensix_props[] = {
    DEFINE_PROP_UINT8("x", TTTensix, tile_x, 0),
    DEFINE_PROP_UINT8("y", TTTensix, tile_y, 0),
    DEFINE_PROP_LINK("l1", TTTensix, l1_mr, TYPE_MEMORY_REGION,
                     MemoryRegion *),
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
