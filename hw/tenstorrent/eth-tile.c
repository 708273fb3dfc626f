/*
 * Tenstorrent Blackhole Ethernet tile: L1, the two ERISC cores and their
 * private LDMs, and the tile's register blocks.
 *
 * Address map: tt-isa-documentation BlackholeA0/EthernetTile/BabyRISCV/
 * README.md (memory map table), in hw/tenstorrent/data/tile-map.yaml.
 * The ERISC cores are RV32IM with Zicsr, Zaamo, Zba and Zbb, as the
 * Tensix tile's data-movement cores, and run their CPU type.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "system/ramblock.h"
#include "migration/vmstate.h"
#include "qemu/atomic.h"
#include "qemu/bswap.h"
#include "qemu/log.h"
#include "hw/tenstorrent/eth-tile.h"
#include "hw/tenstorrent/ttlink.h"
#include "trace.h"

/* Core names in gdb's thread list and the CPU clusters: x20y25-erisc0 */
const char *const tt_erisc_name[TT_ERISC_CORES] = { "erisc0", "erisc1" };

void tt_eth_tile_init_cores(TTEthTile *t, Object *clusters[])
{
    for (int r = 0; r < TT_ERISC_CORES; r++) {
        g_autofree char *name = g_strdup_printf("x%dy%d-%s", t->x, t->y,
                                                tt_erisc_name[r]);

        object_initialize_child(clusters[r], name, &t->core[r],
                                TYPE_RISCV_CPU_TT_BH_DM);
        tt_core_keep_caches(CPU(&t->core[r]));
    }
}

/* The base firmware */

/* lui sp, SP; lui t0, %hi(pc); addi t0, t0, %lo(pc); jr t0 (RV32I) */
static void tt_eth_tile_trampoline(uint32_t pc, uint32_t *w)
{
    uint32_t hi = (pc + 0x800) >> 12, lo = pc - (hi << 12);

    w[0] = cpu_to_le32((TT_ETH_FW_E0_SP & 0xfffff000u) | 2 << 7 | 0x37);
    w[1] = cpu_to_le32((hi & 0xfffff) << 12 | 5 << 7 | 0x37);
    w[2] = cpu_to_le32((lo & 0xfff) << 20 | 5 << 15 | 5 << 7 | 0x13);
    w[3] = cpu_to_le32(5 << 15 | 0x67);
}

/* RELEASE_CORE: E0 from reset again, at @pc with the firmware's stack */
static void tt_eth_tile_release_e0(TTEthTile *t, uint32_t pc)
{
    uint32_t bit = tt_soft_reset_bit(TT_BRISC);    /* E0's */
    uint32_t reset = tt_debug_regs_get_soft_reset(&t->dbg);
    uint32_t w[4];

    tt_eth_tile_trampoline(pc, w);
    /* a write as any other: code translated from the last one goes */
    address_space_write(&t->noc_as, TT_ETH_FW_TRAMPOLINE,
                        MEMTXATTRS_UNSPECIFIED, w, sizeof(w));
    if (!(reset & bit)) {
        tt_debug_regs_set_soft_reset(&t->dbg, reset | bit);
    }
    tt_debug_regs_set_reset_pc(&t->dbg, 0, TT_ETH_FW_TRAMPOLINE);
    tt_debug_regs_set_soft_reset(&t->dbg, reset & ~bit);
}

void tt_eth_tile_base_fw(TTEthTile *t)
{
    uint8_t *l1 = memory_region_get_ram_ptr(&t->sram);
    bool answered = false;

    for (int i = 0; i < TT_ETH_MAILBOXES; i++) {
        uint8_t *mb = l1 + TT_ETH_MAILBOX + i * TT_ETH_MAILBOX_SIZE;
        uint32_t msg = ldl_le_p(mb);
        uint32_t type = msg & ~TT_ETH_MSG_STATUS_MASK;

        if ((msg & TT_ETH_MSG_STATUS_MASK) != TT_ETH_MSG_CALL) {
            continue;
        }
        trace_tt_eth_mailbox(t->channel, i, type, ldl_le_p(mb + 4));
        if (type == TT_ETH_MSG_RELEASE_CORE) {
            tt_eth_tile_release_e0(t, ldl_le_p(mb + 4));
        } else {
            qemu_log_mask(LOG_UNIMP, "tt-eth-tile: channel %d mailbox %d: "
                          "message type 0x%x acknowledged, not carried "
                          "out\n", t->channel, i, type);
        }
        memset(mb + 4, 0, TT_ETH_MAILBOX_SIZE - 4);
        qatomic_store_release((uint32_t *)mb,
                              cpu_to_le32(TT_ETH_MSG_DONE | type));
        answered = true;
    }
    if (tt_debug_regs_get_soft_reset(&t->dbg) & tt_soft_reset_bit(TT_BRISC)) {
        /* E0 held: its base firmware would be alive; nobody waits on it */
        uint32_t hb = ldl_le_p(l1 + TT_ETH_HEARTBEAT);

        stl_le_p(l1 + TT_ETH_HEARTBEAT, 0xabcd0000u | ((hb + 1) & 0xffff));
    }
    if (answered) {
        tt_spin_wake(&t->spin);         /* E1 may wait for an answer */
    }
}

static void tt_eth_tile_init_core_memory(TTEthTile *t, int r)
{
    Object *o = OBJECT(t);
    g_autofree char *ldm = g_strdup_printf("x%dy%d-%s-ldm", t->x, t->y,
                                           tt_erisc_name[r]);

    memory_region_init(&t->root[r], o, tt_erisc_name[r], UINT64_MAX);
    memory_region_init_alias(&t->ldm[r], o, ldm, &t->sram,
                             TT_ETH_L1_SIZE + r * TT_ETH_LDM_SIZE,
                             TT_ETH_LDM_SIZE);
    memory_region_add_subregion(&t->root[r], TT_ETH_LDM_BASE, &t->ldm[r]);
    memory_region_init_alias(&t->view_alias[r], o, "tile-view", &t->view, 0,
                             UINT64_MAX);
    memory_region_add_subregion_overlap(&t->root[r], 0, &t->view_alias[r],
                                        -1);
    object_property_set_link(OBJECT(&t->core[r]), "memory",
                             OBJECT(&t->root[r]), &error_abort);
    object_property_set_bool(OBJECT(&t->core[r]), "start-powered-off", true,
                             &error_abort);
}

static void tt_eth_tile_link(void *block, const char *name, void *target)
{
    object_property_set_link(OBJECT(block), name, OBJECT(target),
                             &error_abort);
}

static bool tt_eth_tile_realize_sysbus(TTEthTile *t, void *dev, int n,
                                       const hwaddr *base, Error **errp)
{
    SysBusDevice *sbd = SYS_BUS_DEVICE(dev);

    qdev_prop_set_uint8(DEVICE(dev), "x", t->x);
    qdev_prop_set_uint8(DEVICE(dev), "y", t->y);
    if (!sysbus_realize(sbd, errp)) {
        return false;
    }
    for (int i = 0; i < n; i++) {
        memory_region_add_subregion(&t->view, base[i],
                                    sysbus_mmio_get_region(sbd, i));
    }
    return true;
}

static bool tt_eth_tile_realize_blocks(TTEthTile *t, Error **errp)
{
    static const hwaddr dbg[] = { TT_ETH_DEBUG_REGS_BASE,
                                  TT_ETH_ERISC_CTRL_BASE };
    static const hwaddr overlay[] = { TT_ETH_NOC_OVERLAY_BASE };
    static const hwaddr txrx[] = { TT_ETH_TXRX_BASE };

    for (int r = 0; r < TT_ERISC_CORES; r++) {
        g_autofree char *cpu = g_strdup_printf("cpu%d", r);
        g_autofree char *ldm = g_strdup_printf("ldm%d", r);

        tt_eth_tile_link(&t->dbg, cpu, &t->core[r]);
        tt_eth_tile_link(&t->dbg, ldm, &t->ldm[r]);
    }
    tt_eth_tile_link(&t->dbg, "spin", &t->spin);
    tt_eth_tile_link(&t->overlay, "spin", &t->spin);
    tt_eth_tile_link(&t->txrx, "spin", &t->spin);
    tt_eth_tile_link(&t->txrx, "view", &t->view);
    qdev_prop_set_bit(DEVICE(&t->dbg), "ethernet", true);
    if (!tt_eth_tile_realize_sysbus(t, &t->dbg, 2, dbg, errp) ||
        !tt_eth_tile_realize_sysbus(t, &t->overlay, 1, overlay, errp)) {
        return false;
    }
    qdev_prop_set_uint8(DEVICE(&t->txrx), "channel", t->channel);
    qdev_prop_set_uint8(DEVICE(&t->txrx), "logical", t->vx - TT_VIRT_ETH_X0);
    if (!tt_eth_tile_realize_sysbus(t, &t->txrx, 1, txrx, errp)) {
        return false;
    }
    for (int n = 0; n < TT_NUM_NOCS; n++) {
        DeviceState *d = DEVICE(&t->niu[n]);
        hwaddr base = n ? TT_ETH_NIU1_BASE : TT_ETH_NIU0_BASE;

        tt_eth_tile_link(d, "spin", &t->spin);
        tt_eth_tile_link(d, "fabric", t->noc);
        qdev_prop_set_uint8(d, "noc", n);
        qdev_prop_set_uint32(d, "node-id", tt_noc_node_id(n, t->x, t->y));
        qdev_prop_set_uint32(d, "logical-id", TT_NOC_XY(t->vx, t->vy));
        qdev_prop_set_uint32(d, "endpoint-id",
                             (n << 24) | (TT_ENDPOINT_ETH << 8) | t->channel);
        if (!tt_eth_tile_realize_sysbus(t, d, 1, &base, errp)) {
            return false;
        }
    }
    return true;
}

static void tt_eth_tile_realize(DeviceState *dev, Error **errp)
{
    TTEthTile *t = TT_ETH_TILE(dev);
    Object *o = OBJECT(t);
    g_autofree char *sram = g_strdup_printf("x%dy%d-sram", t->x, t->y);

    if (!t->noc) {
        error_setg(errp, "tt-eth-tile: 'noc' link not set");
        return;
    }
    memory_region_init(&t->view, o, "eth-tile-view", UINT64_MAX);
    if (!tt_tile_init_sram(&t->sram, dev, sram, TT_ETH_L1_SIZE +
                           TT_ERISC_CORES * TT_ETH_LDM_SIZE, t->ram_fd,
                           t->ram_offset, errp)) {
        return;
    }
    memory_region_init_alias(&t->l1, o, "l1", &t->sram, 0, TT_ETH_L1_SIZE);
    memory_region_add_subregion(&t->view, 0, &t->l1);
    tt_tile_background_init(&t->unmapped, o, &t->view, tt_eth_tile_map,
                            ARRAY_SIZE(tt_eth_tile_map), t->x, t->y);
    for (int r = 0; r < TT_ERISC_CORES; r++) {
        tt_eth_tile_init_core_memory(t, r);
        t->ram_cpus[r] = CPU(&t->core[r]);
    }
    if (!tt_eth_tile_realize_blocks(t, errp)) {
        return;
    }
    address_space_init(&t->noc_as, &t->view, "eth-tile-noc-view");
    qemu_ram_block_set_tlb_cpus(t->sram.ram_block, t->ram_cpus,
                                TT_ERISC_CORES);
    qemu_ram_block_set_code_share(t->sram.ram_block, t->tb_share);
    tt_spin_tile_init(&t->spin, t->ram_cpus, TT_ERISC_CORES, &t->sram,
                      t->spin_park, false);
    tt_noc_add_node(t->noc, t->x, t->y, &t->noc_as, &t->l1, &t->spin);
}

static void tt_eth_tile_init(Object *obj)
{
    TTEthTile *t = TT_ETH_TILE(obj);

    object_initialize_child(obj, "debug-regs", &t->dbg,
                            TYPE_TT_RISCV_DEBUG_REGS);
    object_initialize_child(obj, "niu0", &t->niu[0], TYPE_TT_NIU);
    object_initialize_child(obj, "niu1", &t->niu[1], TYPE_TT_NIU);
    object_initialize_child(obj, "overlay", &t->overlay, TYPE_TT_NOC_OVERLAY);
    object_initialize_child(obj, "txrx", &t->txrx, TYPE_TT_ETH_TXRX);
    object_initialize_child(obj, "spin", &t->spin, TYPE_TT_SPIN_TILE);
    /* the link and the chip identity it reports, set by the chip */
    object_property_add_alias(obj, "netdev", OBJECT(&t->txrx), "netdev");
    object_property_add_alias(obj, "asic-location", OBJECT(&t->txrx),
                              "asic-location");
    object_property_add_alias(obj, "pcb-type", OBJECT(&t->txrx), "pcb-type");
    object_property_add_alias(obj, "board-id", OBJECT(&t->txrx), "board-id");
    object_property_add_alias(obj, "asic-id", OBJECT(&t->txrx), "asic-id");
}

static const Property tt_eth_tile_props[] = {
    DEFINE_PROP_UINT8("x", TTEthTile, x, 0),
    DEFINE_PROP_UINT8("y", TTEthTile, y, 0),
    DEFINE_PROP_UINT8("vx", TTEthTile, vx, 0),
    DEFINE_PROP_UINT8("vy", TTEthTile, vy, 0),
    DEFINE_PROP_UINT8("channel", TTEthTile, channel, 0),
    DEFINE_PROP_BOOL("spin-park", TTEthTile, spin_park, true),
    DEFINE_PROP_BOOL("tb-share", TTEthTile, tb_share, true),
    DEFINE_PROP_INT32("ram-fd", TTEthTile, ram_fd, -1),
    DEFINE_PROP_UINT64("ram-offset", TTEthTile, ram_offset, 0),
    DEFINE_PROP_LINK("noc", TTEthTile, noc, TYPE_TT_NOC, TTNoc *),
};

static int tt_eth_tile_post_load(void *opaque, int version_id)
{
    TTEthTile *t = opaque;

    return tt_tile_check_park_states(t->core, TT_ERISC_CORES, t->x, t->y);
}

static const VMStateDescription vmstate_tt_eth_tile = {
    .name = TYPE_TT_ETH_TILE,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = tt_eth_tile_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(core, TTEthTile, TT_ERISC_CORES, 1,
                             vmstate_tt_tile_core, RISCVCPU),
        VMSTATE_STRUCT(spin, TTEthTile, 1, vmstate_tt_spin_tile, TTSpinTile),
        VMSTATE_END_OF_LIST()
    },
};

static void tt_eth_tile_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole Ethernet tile";
    dc->realize = tt_eth_tile_realize;
    dc->vmsd = &vmstate_tt_eth_tile;
    dc->user_creatable = false;
    device_class_set_props(dc, tt_eth_tile_props);
}

static const TypeInfo tt_eth_tile_types[] = {
    {
        .name = TYPE_TT_ETH_TILE,
        .parent = TYPE_DEVICE,
        .instance_size = sizeof(TTEthTile),
        .instance_init = tt_eth_tile_init,
        .class_init = tt_eth_tile_class_init,
    },
};

DEFINE_TYPES(tt_eth_tile_types)
