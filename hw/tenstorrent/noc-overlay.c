/*
 * Tenstorrent Blackhole NOC overlay stream registers (hot path: no lock).
 *
 * Register semantics as tt-metal relies on them (tt-metal
 * blackhole/noc/noc_overlay_parameters.h, stream_interface.h, dispatch
 * kernels): plain read/write storage, except
 * - reg 10 (REMOTE_DEST_BUF_SIZE) also sets reg 297's words-free field;
 * - reg 270 (SPACE_AVAILABLE_UPDATE, write-only) adds its bits 22:6 to reg
 *   297 bits 16:0 and its bits 31:23 to reg 297 bits 25:17, each modulo its
 *   width (negative increments clear, as the dispatcher's CLEAR_STREAM does);
 * - reg 297 (SPACE_AVAILABLE) is read-only.
 * The stream engines themselves are not modelled.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/atomic.h"
#include "hw/qdev-properties.h"
#include "hw/irq.h"
#include "migration/vmstate.h"
#include "hw/tenstorrent/noc-overlay.h"
#include "hw/tenstorrent/tt-tile-map.h"
#include "hw/tenstorrent/spin-park.h"
#include "trace.h"

static uint32_t *tt_stream_reg(TTNocOverlay *s, hwaddr addr, int *index)
{
    int stream = addr / TT_STREAM_STRIDE;

    *index = (addr % TT_STREAM_STRIDE) / 4;
    if (stream >= TT_STREAMS || *index >= TT_STREAM_REGS) {
        return NULL;
    }
    return &s->reg[stream][*index];
}

static uint64_t tt_overlay_read(void *opaque, hwaddr addr, unsigned size)
{
    TTNocOverlay *s = opaque;
    int index;
    uint32_t *reg = tt_stream_reg(s, addr, &index), val = 0;

    if (!reg) {
        qemu_log_mask(LOG_UNIMP, "%s: x%dy%d: stream register 0x%"
                      HWADDR_PRIx " not implemented\n", __func__, s->tile_x,
                      s->tile_y, TT_TILE_NOC_OVERLAY_BASE + addr);
    } else if (index != TT_STREAM_SPACE_UPDATE) {
        val = qatomic_read(reg);
    }
    trace_tt_stream_read(s->tile_x, s->tile_y, addr, val);
    return val;
}

static void tt_overlay_space_update(uint32_t *avail, uint32_t val)
{
    uint32_t words = (val >> TT_STREAM_WORDS_FREE_SHIFT) & TT_STREAM_WORDS_MASK;
    uint32_t msgs = (val >> TT_STREAM_MSG_SHIFT) & TT_STREAM_MSG_MASK;
    uint32_t old, new;

    do {
        old = qatomic_read(avail);
        new = ((old + words) & TT_STREAM_WORDS_MASK) |
              ((((old >> TT_STREAM_AVAIL_MSG_SHIFT) + msgs) &
                TT_STREAM_MSG_MASK) << TT_STREAM_AVAIL_MSG_SHIFT);
    } while (qatomic_cmpxchg(avail, old, new) != old);
}

static void tt_overlay_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    TTNocOverlay *s = opaque;
    int index, stream = addr / TT_STREAM_STRIDE;
    uint32_t *reg = tt_stream_reg(s, addr, &index);

    trace_tt_stream_write(s->tile_x, s->tile_y, addr, val);
    if (!reg) {
        qemu_log_mask(LOG_UNIMP, "%s: x%dy%d: stream register 0x%"
                      HWADDR_PRIx " not implemented\n", __func__, s->tile_x,
                      s->tile_y, TT_TILE_NOC_OVERLAY_BASE + addr);
        return;
    }
    switch (index) {
    case TT_STREAM_SPACE_UPDATE:
        tt_overlay_space_update(&s->reg[stream][TT_STREAM_SPACE_AVAILABLE],
                                val);
        break;
    case TT_STREAM_SPACE_AVAILABLE:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: x%dy%d: stream %d register 297 "
                      "is read-only\n", __func__, s->tile_x, s->tile_y,
                      stream);
        break;
    case TT_STREAM_BUF_SIZE:
        qatomic_set(reg, val);
        qatomic_set(&s->reg[stream][TT_STREAM_SPACE_AVAILABLE],
                    val & TT_STREAM_WORDS_MASK);
        break;
    default:
        qatomic_set(reg, val);
    }
    qemu_irq_raise(s->stream_changed);     /* a STREAMWAIT may pass */
    if (s->spin) {
        tt_spin_wake(s->spin);
    }
}

static const MemoryRegionOps tt_overlay_ops = {
    .read = tt_overlay_read,
    .write = tt_overlay_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

static void tt_overlay_reset_hold(Object *obj, ResetType type)
{
    TTNocOverlay *s = TT_NOC_OVERLAY(obj);

    memset(s->reg, 0, sizeof(s->reg));
}

static void tt_overlay_realize(DeviceState *dev, Error **errp)
{
    TTNocOverlay *s = TT_NOC_OVERLAY(dev);

    memory_region_init_io(&s->mmio, OBJECT(s), &tt_overlay_ops, s,
                          "tt-noc-overlay", TT_TILE_NOC_OVERLAY_SIZE);
    memory_region_enable_lockless_io(&s->mmio);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->mmio);
    qdev_init_gpio_out_named(dev, &s->stream_changed, "stream-changed", 1);
}

static const VMStateDescription vmstate_tt_overlay = {
    .name = TYPE_TT_NOC_OVERLAY,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_2DARRAY(reg, TTNocOverlay, TT_STREAMS, TT_STREAM_REGS),
        VMSTATE_END_OF_LIST()
    },
};

static const Property tt_overlay_props[] = {
    DEFINE_PROP_UINT8("x", TTNocOverlay, tile_x, 0),
    DEFINE_PROP_UINT8("y", TTNocOverlay, tile_y, 0),
    DEFINE_PROP_LINK("spin", TTNocOverlay, spin, TYPE_TT_SPIN_TILE,
                     TTSpinTile *),
};

static void tt_overlay_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole NOC overlay stream registers";
    dc->realize = tt_overlay_realize;
    dc->vmsd = &vmstate_tt_overlay;
    dc->user_creatable = false;
    rc->phases.hold = tt_overlay_reset_hold;
    device_class_set_props(dc, tt_overlay_props);
}

static const TypeInfo tt_overlay_types[] = {
    {
        .name = TYPE_TT_NOC_OVERLAY,
        .parent = TYPE_SYS_BUS_DEVICE,
        .instance_size = sizeof(TTNocOverlay),
        .class_init = tt_overlay_class_init,
    },
};

DEFINE_TYPES(tt_overlay_types)
