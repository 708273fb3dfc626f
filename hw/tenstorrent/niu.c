/*
 * Tenstorrent Blackhole NOC interface unit registers.
 *
 * Register map: tt-isa-documentation BlackholeA0/NoC/MemoryMap.md and
 * Counters.md, tt-metal noc_parameters.h (noc-and-niu.md sections 1-7).
 * NOC_ID_LOGICAL holds the tile's translated coordinates from power-on, as
 * ARC firmware leaves it before the cores start (seed 000 section 8).
 * Issuing transactions (NOC_CMD_CTRL) is not modelled yet: such writes are
 * logged as unimplemented and complete nothing.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "hw/tenstorrent/niu.h"
#include "trace.h"

static uint32_t *tt_niu_reg(TTNiu *s, hwaddr addr, bool *ro)
{
    *ro = false;
    /* Buffer i's registers sit at i * 0x800; the NIU's own follow buf 0's */
    if (addr < TT_NIU_CMD_BUFS * TT_NIU_CMD_BUF_STRIDE &&
        addr % TT_NIU_CMD_BUF_STRIDE < TT_NIU_CMD_BUF_REGS * 4) {
        hwaddr off = addr % TT_NIU_CMD_BUF_STRIDE;

        *ro = off == A_NOC_NODE_ID || off == A_NOC_ENDPOINT_ID;
        return &s->cmd[addr / TT_NIU_CMD_BUF_STRIDE][off / 4];
    }
    if (addr >= A_NIU_CFG_0 && addr < A_NIU_CFG_0 + TT_NIU_CFG_REGS * 4) {
        return &s->cfg[(addr - A_NIU_CFG_0) / 4];
    }
    if (addr >= A_NIU_MST_ATOMIC_RESP_RECEIVED &&
        addr < A_NIU_MST_ATOMIC_RESP_RECEIVED + TT_NIU_COUNTERS * 4) {
        *ro = true;
        return &s->counter[(addr - A_NIU_MST_ATOMIC_RESP_RECEIVED) / 4];
    }
    return NULL;
}

static uint64_t tt_niu_read(void *opaque, hwaddr addr, unsigned size)
{
    TTNiu *s = opaque;
    uint32_t *reg, val = 0;
    bool ro;

    switch (addr) {
    case A_CMD_BUF_AVAIL:
        val = TT_NIU_CMD_BUF_ALL_FREE;
        break;
    case A_NOC_CLEAR_OUTSTANDING_REQ_CNT:
    case A_CMD_BUF_OVFL:
        break;
    default:
        reg = tt_niu_reg(s, addr, &ro);
        if (reg) {
            val = qatomic_read(reg);
        } else {
            qemu_log_mask(LOG_UNIMP, "%s: NOC%d: unimplemented register "
                          "0x%" HWADDR_PRIx "\n", __func__, s->noc, addr);
        }
    }
    trace_tt_niu_read(s->node_id, s->noc, addr, val);
    return val;
}

static void tt_niu_write(void *opaque, hwaddr addr, uint64_t val,
                         unsigned size)
{
    TTNiu *s = opaque;
    uint32_t *reg;
    bool ro;

    trace_tt_niu_write(s->node_id, s->noc, addr, val);
    if (addr < TT_NIU_CMD_BUFS * TT_NIU_CMD_BUF_STRIDE &&
        addr % TT_NIU_CMD_BUF_STRIDE == A_NOC_CMD_CTRL) {
        qemu_log_mask(LOG_UNIMP, "%s: NOC%d: command buffer %d: issuing "
                      "NOC transactions is not implemented\n", __func__,
                      s->noc, (int)(addr / TT_NIU_CMD_BUF_STRIDE));
        return;
    }
    reg = tt_niu_reg(s, addr, &ro);
    if (!reg) {
        qemu_log_mask(LOG_UNIMP, "%s: NOC%d: unimplemented register "
                      "0x%" HWADDR_PRIx "\n", __func__, s->noc, addr);
        return;
    }
    if (ro) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: NOC%d: write to read-only "
                      "register 0x%" HWADDR_PRIx " ignored\n", __func__,
                      s->noc, addr);
        return;
    }
    qatomic_set(reg, val);
}

static const MemoryRegionOps tt_niu_ops = {
    .read = tt_niu_read,
    .write = tt_niu_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

static void tt_niu_reset_hold(Object *obj, ResetType type)
{
    TTNiu *s = TT_NIU(obj);

    memset(s->cmd, 0, sizeof(s->cmd));
    memset(s->cfg, 0, sizeof(s->cfg));
    memset(s->counter, 0, sizeof(s->counter));
    for (int b = 0; b < TT_NIU_CMD_BUFS; b++) {
        s->cmd[b][A_NOC_NODE_ID / 4] = s->node_id;
        s->cmd[b][A_NOC_ENDPOINT_ID / 4] = s->endpoint_id;
    }
    s->cfg[(A_NOC_ID_LOGICAL - A_NIU_CFG_0) / 4] = s->logical_id;
}

static void tt_niu_realize(DeviceState *dev, Error **errp)
{
    TTNiu *s = TT_NIU(dev);

    if (s->noc > 1) {
        error_setg(errp, "tt-niu: noc must be 0 or 1");
        return;
    }
    qemu_mutex_init(&s->lock);
    memory_region_init_io(&s->mmio, OBJECT(s), &tt_niu_ops, s,
                          s->noc ? "tt-niu1" : "tt-niu0", TT_TILE_NIU0_SIZE);
    memory_region_enable_lockless_io(&s->mmio);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->mmio);
}

static const VMStateDescription vmstate_tt_niu = {
    .name = TYPE_TT_NIU,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_2DARRAY(cmd, TTNiu, TT_NIU_CMD_BUFS,
                               TT_NIU_CMD_BUF_REGS),
        VMSTATE_UINT32_ARRAY(cfg, TTNiu, TT_NIU_CFG_REGS),
        VMSTATE_UINT32_ARRAY(counter, TTNiu, TT_NIU_COUNTERS),
        VMSTATE_END_OF_LIST()
    },
};

static const Property tt_niu_props[] = {
    DEFINE_PROP_UINT8("noc", TTNiu, noc, 0),
    DEFINE_PROP_UINT32("node-id", TTNiu, node_id, 0),
    DEFINE_PROP_UINT32("logical-id", TTNiu, logical_id, 0),
    DEFINE_PROP_UINT32("endpoint-id", TTNiu, endpoint_id, 0),
};

static void tt_niu_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole NOC interface unit";
    dc->realize = tt_niu_realize;
    dc->vmsd = &vmstate_tt_niu;
    dc->user_creatable = false;
    rc->phases.hold = tt_niu_reset_hold;
    device_class_set_props(dc, tt_niu_props);
}

static const TypeInfo tt_niu_types[] = {
    {
        .name = TYPE_TT_NIU,
        .parent = TYPE_SYS_BUS_DEVICE,
        .instance_size = sizeof(TTNiu),
        .class_init = tt_niu_class_init,
    },
};

DEFINE_TYPES(tt_niu_types)
