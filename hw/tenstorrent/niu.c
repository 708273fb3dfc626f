/*
 * Tenstorrent Blackhole NOC interface unit registers.
 *
 * Register map: tt-isa-documentation BlackholeA0/NoC/MemoryMap.md and
 * Counters.md, tt-metal noc_parameters.h.
 * NOC_ID_LOGICAL holds the tile's translated coordinates from power-on, as
 * ARC firmware leaves it before the cores start (tt-metal's firmware reads
 * its coordinates there at start-up).
 * A write of NOC_CMD_CTRL runs the command to completion before returning
 * (tt_niu_issue), so command buffers always read back as available: the
 * NIU latches the buffer, counts on the issuing side (Counters.md) and
 * hands the transaction to the fabric (noc.c), which delivers it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/lockable.h"
#include "qemu/bswap.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "hw/tenstorrent/niu.h"
#include "hw/tenstorrent/noc.h"
#include "hw/tenstorrent/spin-park.h"
#include "trace.h"

/* Count on this NIU's side */
static void tt_niu_count(TTNiu *s, int counter, uint32_t n)
{
    qatomic_add(&s->port.counter[counter], n);
}

static uint32_t tt_flits(uint32_t len)
{
    return DIV_ROUND_UP(len, TT_NOC_FLIT);
}

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
        return &s->port.cfg[(addr - A_NIU_CFG_0) / 4];
    }
    if (addr >= A_NIU_MST_ATOMIC_RESP_RECEIVED &&
        addr < A_NIU_MST_ATOMIC_RESP_RECEIVED + TT_NIU_COUNTERS * 4) {
        *ro = true;
        return &s->port.counter[(addr - A_NIU_MST_ATOMIC_RESP_RECEIVED) /
                                4];
    }
    return NULL;
}

/* The transaction's issuer, as the fabric sees it */
static TTNocReq tt_niu_req(TTNiu *s, int buf, uint32_t ctrl)
{
    return (TTNocReq) {
        .noc = s->noc, .x = s->x, .y = s->y, .buf = buf,
        .xlate = FIELD_EX32(qatomic_read(&s->port.cfg[0]), NIU_CFG_0,
                            COORD_TRANSLATE_EN),
        .posted = !FIELD_EX32(ctrl, NOC_CTRL, RESP_MARKED),
        .data = s->buf,
    };
}

/* One command buffer's registers, as latched at NOC_CMD_CTRL time */
typedef struct TTNiuCmd {
    TTNocReq req;
    uint32_t ctrl;
    uint64_t targ, ret;
    uint32_t targ_hi, ret_hi;
    uint32_t len_be, len_be_1, data;
} TTNiuCmd;

static void tt_niu_do_read(TTNiu *s, TTNiuCmd *c)
{
    uint32_t len;

    tt_niu_count(s, TT_MST_RD_REQ_STARTED, 1);
    tt_niu_count(s, TT_MST_RD_REQ_SENT, 1);
    len = tt_noc_read(s->fabric, &c->req, c->targ_hi, c->targ, c->ret_hi,
                      c->ret, c->len_be);
    tt_niu_count(s, TT_MST_RD_DATA_WORD_RECEIVED, tt_flits(len));
    /* the response completes even when nothing answered */
    tt_niu_count(s, TT_MST_RD_RESP_RECEIVED, 1);
}

static void tt_niu_count_write(TTNiu *s, bool posted)
{
    tt_niu_count(s, posted ? TT_MST_POSTED_WR_REQ_SENT
                           : TT_MST_NONPOSTED_WR_REQ_SENT, 1);
}

static void tt_niu_do_write(TTNiu *s, TTNiuCmd *c)
{
    bool posted = c->req.posted;
    uint32_t len = c->len_be;
    int n;

    tt_niu_count(s, posted ? TT_MST_POSTED_WR_REQ_STARTED
                           : TT_MST_NONPOSTED_WR_REQ_STARTED, 1);
    n = tt_noc_write(s->fabric, &c->req, c->targ, c->ret_hi,
                     FIELD_EX32(c->ctrl, NOC_CTRL, BRCST_PACKET),
                     FIELD_EX32(c->ctrl, NOC_CTRL, BRCST_SRC_INCLUDE),
                     c->ret, &len);
    tt_niu_count_write(s, posted);
    tt_niu_count(s, posted ? TT_MST_POSTED_WR_DATA_WORD_SENT
                           : TT_MST_NONPOSTED_WR_DATA_WORD_SENT,
                 tt_flits(len));
    if (!posted) {
        /* one acknowledgement per destination, even a failed one */
        tt_niu_count(s, TT_MST_WR_ACK_RECEIVED, MAX(n, 1));
    }
}

/* Inline write of AT_DATA to TARG, AT_LEN_BE enabling bytes (noc.c) */
static void tt_niu_do_inline(TTNiu *s, TTNiuCmd *c)
{
    tt_noc_write_inline(s->fabric, &c->req, c->targ_hi, c->targ, c->data,
                        c->len_be);
    tt_niu_count(s, c->req.posted ? TT_MST_POSTED_WR_REQ_STARTED
                                  : TT_MST_NONPOSTED_WR_REQ_STARTED, 1);
    tt_niu_count_write(s, c->req.posted);
    if (!c->req.posted) {
        tt_niu_count(s, TT_MST_WR_ACK_RECEIVED, 1);
    }
}

/* Byte-enable write: AT_LEN_BE_1:AT_LEN_BE masks 64 bytes (noc.c) */
static void tt_niu_do_write_be(TTNiu *s, TTNiuCmd *c)
{
    tt_noc_write_be(s->fabric, &c->req, c->targ, c->ret_hi, c->ret,
                    deposit64(c->len_be, 32, 32, c->len_be_1));
    tt_niu_count_write(s, c->req.posted);
    if (!c->req.posted) {
        tt_niu_count(s, TT_MST_WR_ACK_RECEIVED, 1);
    }
}

static void tt_niu_do_atomic(TTNiu *s, TTNiuCmd *c)
{
    tt_noc_atomic(s->fabric, &c->req, c->targ_hi,
                  FIELD_EX32(c->ctrl, NOC_CTRL, BRCST_PACKET),
                  FIELD_EX32(c->ctrl, NOC_CTRL, BRCST_SRC_INCLUDE), c->targ,
                  c->len_be, c->data, c->ret);
    if (c->req.posted) {
        tt_niu_count(s, TT_MST_POSTED_ATOMIC_SENT, 1);
        return;
    }
    tt_niu_count(s, TT_MST_NONPOSTED_ATOMIC_STARTED, 1);
    tt_niu_count(s, TT_MST_NONPOSTED_ATOMIC_SENT, 1);
    tt_niu_count(s, TT_MST_ATOMIC_RESP_RECEIVED, 1);
}

/* NOC_CMD_CTRL written: run the command to completion (called locked) */
static void tt_niu_issue(TTNiu *s, int buf)
{
    uint32_t *r = s->cmd[buf];
    TTNiuCmd c = {
        .req = tt_niu_req(s, buf, r[A_NOC_CTRL / 4]),
        .ctrl = r[A_NOC_CTRL / 4],
        .targ = deposit64(r[A_NOC_TARG_ADDR_LO / 4], 32, 32,
                          r[A_NOC_TARG_ADDR_MID / 4]),
        .ret = deposit64(r[A_NOC_RET_ADDR_LO / 4], 32, 32,
                         r[A_NOC_RET_ADDR_MID / 4]),
        .targ_hi = r[A_NOC_TARG_ADDR_HI / 4],
        .ret_hi = r[A_NOC_RET_ADDR_HI / 4],
        .len_be = r[A_NOC_AT_LEN_BE / 4],
        .len_be_1 = r[A_NOC_AT_LEN_BE_1 / 4],
        .data = r[A_NOC_AT_DATA / 4],
    };

    trace_tt_niu_cmd(s->x, s->y, s->noc, buf, c.ctrl, c.targ_hi, c.targ,
                     c.ret_hi, c.ret, c.len_be);
    tt_niu_count(s, TT_MST_CMD_ACCEPTED, 1);
    if (FIELD_EX32(c.ctrl, NOC_CTRL, L1_ACC_AT_EN)) {
        if (FIELD_EX32(c.ctrl, NOC_CTRL, AT)) {
            /* the atomic's opcode and operands come from L1_ACC_AT_INSTRN */
            c.len_be = r[A_NOC_L1_ACC_AT_INSTRN / 4];
        } else {
            qemu_log_mask(LOG_UNIMP, "x%dy%d NOC%d: L1-accumulate write (a "
                          "Blackhole hardware bug): done as a plain write\n",
                          s->x, s->y, s->noc);
        }
    }
    if (FIELD_EX32(c.ctrl, NOC_CTRL, AT)) {
        tt_niu_do_atomic(s, &c);
    } else if (!FIELD_EX32(c.ctrl, NOC_CTRL, WR)) {
        tt_niu_do_read(s, &c);
    } else if (FIELD_EX32(c.ctrl, NOC_CTRL, WR_INLINE)) {
        tt_niu_do_inline(s, &c);
    } else if (FIELD_EX32(c.ctrl, NOC_CTRL, WR_BE)) {
        tt_niu_do_write_be(s, &c);
    } else {
        tt_niu_do_write(s, &c);
    }
    trace_tt_niu_cmd_done(s->x, s->y, s->noc, buf);
}

/*
 * A host access through a PCIe TLB window, issued by this NIU (the PCIe
 * tile's).  Only writes multicast; a read from no node returns all-ones,
 * as the host sees an unanswered read.
 */
void tt_niu_host_rw(TTNiu *s, uint32_t rect, bool mcast, uint64_t addr,
                    void *buf, uint32_t len, bool write)
{
    TTNocReq req = tt_niu_req(s, -1, 0);

    QEMU_LOCK_GUARD(&s->lock);
    tt_niu_count(s, TT_MST_CMD_ACCEPTED, 1);
    if (tt_noc_host_rw(s->fabric, &req, rect, mcast, addr, buf, len,
                       write)) {
        tt_niu_count(s, write ? TT_MST_POSTED_WR_REQ_SENT
                              : TT_MST_RD_REQ_SENT, 1);
    }
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
        /* transfers complete synchronously: CMD_CTRL reads back 0 */
        if (val & 1) {
            WITH_QEMU_LOCK_GUARD(&s->lock) {
                tt_niu_issue(s, addr / TT_NIU_CMD_BUF_STRIDE);
            }
            tt_spin_wake(s->spin);      /* the counters moved */
        }
        return;
    }
    if (addr == A_NOC_CLEAR_OUTSTANDING_REQ_CNT) {
        return;     /* nothing is ever outstanding: transfers are synchronous */
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
    if (addr >= A_NIU_CFG_0) {
        tt_spin_wake(s->spin);
        if (addr == A_NIU_CFG_0 || addr == A_ROUTER_CFG_1 ||
            addr == A_ROUTER_CFG_3) {
            tt_noc_routing_changed(s->fabric);
        }
    }
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
    memset(&s->port, 0, sizeof(s->port));
    for (int b = 0; b < TT_NIU_CMD_BUFS; b++) {
        s->cmd[b][A_NOC_NODE_ID / 4] = s->node_id;
        s->cmd[b][A_NOC_ENDPOINT_ID / 4] = s->endpoint_id;
    }
    s->port.cfg[(A_NOC_ID_LOGICAL - A_NIU_CFG_0) / 4] = s->logical_id;
    /* ARC firmware enables coordinate translation before the cores run */
    s->port.cfg[0] = FIELD_DP32(0, NIU_CFG_0, COORD_TRANSLATE_EN, 1);
    /*
     * ...and the broadcast opt-out of the non-Tensix columns (x = 0, 8, 9)
     * and rows (y = 0, 1), as ttsim's NONTENSIX_COL/ROW_MASK (src/sim.h),
     * mirrored on NOC1.
     */
    s->port.cfg[A_ROUTER_CFG_1 / 4 - A_NIU_CFG_0 / 4] =
        s->noc ? BIT(16) | BIT(8) | BIT(7) : BIT(0) | BIT(8) | BIT(9);
    s->port.cfg[A_ROUTER_CFG_3 / 4 - A_NIU_CFG_0 / 4] =
        s->noc ? BIT(11) | BIT(10) : BIT(0) | BIT(1);
    if (s->fabric) {
        tt_noc_routing_changed(s->fabric);
    }
}

static void tt_niu_realize(DeviceState *dev, Error **errp)
{
    TTNiu *s = TT_NIU(dev);

    if (s->noc > 1) {
        error_setg(errp, "tt-niu: noc must be 0 or 1");
        return;
    }
    if (!s->fabric) {
        error_setg(errp, "tt-niu: 'fabric' link not set");
        return;
    }
    tt_noc_attach_port(s->fabric, s->noc, s->x, s->y, &s->port);
    qemu_mutex_init(&s->lock);
    memory_region_init_io(&s->mmio, OBJECT(s), &tt_niu_ops, s,
                          s->noc ? "tt-niu1" : "tt-niu0", TT_TILE_NIU0_SIZE);
    memory_region_enable_lockless_io(&s->mmio);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->mmio);
}

/*
 * Every transaction completes inside the NOC_CMD_CTRL write that issues it
 * (@buf is scratch under @lock), so a stopped machine has none in flight:
 * the command buffers, configuration and counters are the whole state.
 * The routing configuration (NIU_CFG_0, ROUTER_CFG_1/3) is cached by the
 * fabric's listeners (host-map.c), which must see the loaded values.
 */
static int tt_niu_post_load(void *opaque, int version_id)
{
    TTNiu *s = opaque;

    if (s->fabric) {
        tt_noc_routing_changed(s->fabric);
    }
    return 0;
}

static const VMStateDescription vmstate_tt_niu = {
    .name = TYPE_TT_NIU,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = tt_niu_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_2DARRAY(cmd, TTNiu, TT_NIU_CMD_BUFS,
                               TT_NIU_CMD_BUF_REGS),
        VMSTATE_UINT32_ARRAY(port.cfg, TTNiu, TT_NIU_CFG_REGS),
        VMSTATE_UINT32_ARRAY(port.counter, TTNiu, TT_NIU_COUNTERS),
        VMSTATE_END_OF_LIST()
    },
};

static const Property tt_niu_props[] = {
    DEFINE_PROP_UINT8("noc", TTNiu, noc, 0),
    DEFINE_PROP_UINT8("x", TTNiu, x, 0),
    DEFINE_PROP_UINT8("y", TTNiu, y, 0),
    DEFINE_PROP_UINT32("node-id", TTNiu, node_id, 0),
    DEFINE_PROP_UINT32("logical-id", TTNiu, logical_id, 0),
    DEFINE_PROP_UINT32("endpoint-id", TTNiu, endpoint_id, 0),
    DEFINE_PROP_LINK("fabric", TTNiu, fabric, TYPE_TT_NOC, TTNoc *),
    DEFINE_PROP_LINK("spin", TTNiu, spin, TYPE_TT_SPIN_TILE, TTSpinTile *),
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
