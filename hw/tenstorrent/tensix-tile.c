/*
 * Tenstorrent Blackhole Tensix tile: L1, the five baby RISC-V cores and their
 * private LDMs, and the tile's register blocks.
 *
 * Address map: tt-isa-documentation BlackholeA0/TensixTile/BabyRISCV/
 * README.md (memory map table).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "hw/misc/unimp.h"
#include "system/ramblock.h"
#include "migration/vmstate.h"
#include "hw/tenstorrent/tensix-tile.h"
#include "accel/tcg/vcpu-thread-group.h"
#include "trace.h"

/* An access between the blocks of the tile map, by the current core */
static void tt_tile_log_unmapped(TTTileBackground *b, hwaddr addr,
                                 bool write)
{
    qemu_log_mask(LOG_GUEST_ERROR, "tt-tile: x%dy%d: %s at 0x%" HWADDR_PRIx
                  " hits no block (%s)\n", b->x, b->y,
                  write ? "write" : "read", addr,
                  current_cpu ? object_get_canonical_path_component(
                                    OBJECT(current_cpu)) : "not a core");
}

static uint64_t tt_tile_unmapped_read(void *opaque, hwaddr addr,
                                      unsigned size)
{
    tt_tile_log_unmapped(opaque, addr, false);
    return 0;
}

static void tt_tile_unmapped_write(void *opaque, hwaddr addr, uint64_t val,
                                   unsigned size)
{
    tt_tile_log_unmapped(opaque, addr, true);
}

static const MemoryRegionOps tt_tile_unmapped_ops = {
    .read = tt_tile_unmapped_read,
    .write = tt_tile_unmapped_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 8,
    .impl.min_access_size = 1,
    .impl.max_access_size = 8,
};

void tt_tile_background_init(TTTileBackground *b, Object *owner,
                             MemoryRegion *view, const TTTileRegion *map,
                             int nregions, int x, int y)
{
    b->x = x;
    b->y = y;
    memory_region_init_io(&b->mr, owner, &tt_tile_unmapped_ops, b,
                          "tile-unmapped", UINT64_MAX);
    memory_region_enable_lockless_io(&b->mr);
    memory_region_add_subregion_overlap(view, 0, &b->mr, -1000);
    /* the blocks not modelled: QEMU's unimplemented device, named xXyY-NAME */
    for (int i = 0; i < nregions; i++) {
        const TTTileRegion *r = &map[i];
        g_autofree char *name = NULL;
        DeviceState *dev;

        if (r->modelled) {
            continue;
        }
        name = g_strdup_printf("x%dy%d-%s", x, y, r->name);
        dev = qdev_new(TYPE_UNIMPLEMENTED_DEVICE);
        qdev_prop_set_string(dev, "name", name);
        qdev_prop_set_uint64(dev, "size", r->size);
        object_property_add_child(owner, r->name, OBJECT(dev));
        sysbus_realize_and_unref(SYS_BUS_DEVICE(dev), &error_fatal);
        memory_region_add_subregion_overlap(
            view, r->base, sysbus_mmio_get_region(SYS_BUS_DEVICE(dev), 0),
            -500);
    }
}

void tt_tensix_tile_init_cores(TTTensixTile *t, Object *clusters[])
{
    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        g_autofree char *name = g_strdup_printf("x%dy%d-%s", t->x, t->y,
                                                tt_core_role_name[r]);

        object_initialize_child(clusters[r], name, &t->core[r],
                                r <= TT_NCRISC ? TYPE_RISCV_CPU_TT_BH_DM
                                               : TYPE_RISCV_CPU_TT_BH_TRISC);
        tt_core_keep_caches(CPU(&t->core[r]));
    }
}

/* Offset of core @r's LDM in the tile's SRAM block, after L1 */
static hwaddr tt_tile_ldm_offset(TTCoreRole r)
{
    hwaddr off = TT_L1_SIZE;

    for (int i = 0; i < r; i++) {
        off += tt_ldm_size(i);
    }
    return off;
}

static void tt_tile_init_core_memory(TTTensixTile *t, TTCoreRole r)
{
    Object *o = OBJECT(t);
    const char *role = tt_core_role_name[r];
    g_autofree char *ldm = g_strdup_printf("x%dy%d-%s-ldm", t->x, t->y, role);
    g_autofree char *slow = g_strdup_printf("%s-slow", ldm);

    memory_region_init(&t->root[r], o, role, UINT64_MAX);
    memory_region_init_alias(&t->ldm[r], o, ldm, &t->sram,
                             tt_tile_ldm_offset(r), tt_ldm_size(r));
    memory_region_add_subregion(&t->root[r], TT_LDM_BASE, &t->ldm[r]);
    memory_region_init_alias(&t->view_alias[r], o, "tile-view", &t->view, 0,
                             UINT64_MAX);
    memory_region_add_subregion_overlap(&t->root[r], 0, &t->view_alias[r],
                                        -1);
    /* Shared "slow" alias of each LDM, visible to all cores (and the NOC) */
    memory_region_init_alias(&t->slow_ldm[r], o, slow, &t->ldm[r], 0,
                             tt_ldm_size(r));
    memory_region_add_subregion(&t->view, TT_TILE_SLOW_LDM_BASE +
                                r * TT_SLOW_LDM_STRIDE, &t->slow_ldm[r]);

    object_property_set_link(OBJECT(&t->core[r]), "memory",
                             OBJECT(&t->root[r]), &error_abort);
    object_property_set_bool(OBJECT(&t->core[r]), "start-powered-off", true,
                             &error_abort);
}

static void tt_tile_link(void *block, const char *name, void *target)
{
    object_property_set_link(OBJECT(block), name, OBJECT(target),
                             &error_abort);
}

/* The tile's blocks reach its cores, its parking and each other by links */
static void tt_tile_link_blocks(TTTensixTile *t)
{
    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        g_autofree char *cpu = g_strdup_printf("cpu%d", r);
        g_autofree char *ldm = g_strdup_printf("ldm%d", r);

        tt_tile_link(&t->dbg, cpu, &t->core[r]);
        tt_tile_link(&t->dbg, ldm, &t->ldm[r]);
        tt_tile_link(&t->tensix, cpu, &t->core[r]);
    }
    tt_tile_link(&t->dbg, "spin", &t->spin);
    tt_tile_link(&t->tensix, "spin", &t->spin);
    tt_tile_link(&t->tensix, "overlay", &t->overlay);
    tt_tile_link(&t->tensix, "view", &t->view);
    tt_tile_link(&t->tensix, "l1", &t->l1);
    tt_tile_link(&t->overlay, "spin", &t->spin);
    for (int n = 0; n < TT_NUM_NOCS; n++) {
        tt_tile_link(&t->niu[n], "spin", &t->spin);
        tt_tile_link(&t->niu[n], "fabric", t->noc);
    }
}

static bool tt_tile_realize_blocks(TTTensixTile *t, Error **errp)
{
    SysBusDevice *sbd = SYS_BUS_DEVICE(&t->dbg);

    tt_tile_link_blocks(t);
    qdev_prop_set_uint8(DEVICE(&t->dbg), "x", t->x);
    qdev_prop_set_uint8(DEVICE(&t->dbg), "y", t->y);
    if (!sysbus_realize(sbd, errp)) {
        return false;
    }
    memory_region_add_subregion(&t->view, TT_TILE_DEBUG_REGS_BASE,
                                sysbus_mmio_get_region(sbd, 0));
    memory_region_add_subregion(&t->view, TT_TILE_PIC_BASE,
                                sysbus_mmio_get_region(sbd, 1));

    qdev_prop_set_uint8(DEVICE(&t->tensix), "x", t->x);
    qdev_prop_set_uint8(DEVICE(&t->tensix), "y", t->y);
    if (!sysbus_realize(SYS_BUS_DEVICE(&t->tensix), errp)) {
        return false;
    }
    /* core-local windows: each core's own view of the coprocessor */
    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        tt_tensix_map(&t->tensix, r, &t->root[r]);
    }

    qdev_prop_set_uint8(DEVICE(&t->overlay), "x", t->x);
    qdev_prop_set_uint8(DEVICE(&t->overlay), "y", t->y);
    if (!sysbus_realize(SYS_BUS_DEVICE(&t->overlay), errp)) {
        return false;
    }
    memory_region_add_subregion(&t->view, TT_TILE_NOC_OVERLAY_BASE,
                                sysbus_mmio_get_region(
                                    SYS_BUS_DEVICE(&t->overlay), 0));
    /* a stream register write may release a STREAMWAIT */
    qdev_connect_gpio_out_named(DEVICE(&t->overlay), "stream-changed", 0,
                                qdev_get_gpio_in_named(DEVICE(&t->tensix),
                                                       "stream-changed", 0));

    for (int n = 0; n < TT_NUM_NOCS; n++) {
        DeviceState *d = DEVICE(&t->niu[n]);
        qdev_prop_set_uint8(d, "noc", n);
        qdev_prop_set_uint8(d, "x", t->x);
        qdev_prop_set_uint8(d, "y", t->y);
        qdev_prop_set_uint32(d, "node-id", tt_noc_node_id(n, t->x, t->y));
        qdev_prop_set_uint32(d, "logical-id", TT_NOC_XY(t->vx, t->vy));
        qdev_prop_set_uint32(d, "endpoint-id",
                             (n << 24) | (TT_ENDPOINT_TENSIX << 8));
        if (!sysbus_realize(SYS_BUS_DEVICE(d), errp)) {
            return false;
        }
        memory_region_add_subregion(&t->view, n ? TT_TILE_NIU1_BASE
                                                : TT_TILE_NIU0_BASE,
                                    sysbus_mmio_get_region(SYS_BUS_DEVICE(d),
                                                           0));
    }
    return true;
}

/*
 * L1 and the LDMs: anonymous RAM, or a piece of the chip's shared memory
 * file (ram-fd, from blackhole-soc.c), which a vfio-user client may map
 * (host-map.c).  The guest sees the same RAM either way.
 */
bool tt_tile_init_sram(MemoryRegion *mr, DeviceState *owner,
                       const char *name, uint64_t size, int ram_fd,
                       uint64_t ram_offset, Error **errp)
{
    int fd;

    if (ram_fd < 0) {
        return memory_region_init_ram(mr, OBJECT(owner), name, size, errp);
    }
    /* the RAM block owns (and closes) its descriptor: give it a copy */
    fd = qemu_dup(ram_fd);
    if (fd < 0) {
        error_setg_errno(errp, errno, "%s: dup", name);
        return false;
    }
    if (!memory_region_init_ram_from_fd(mr, OBJECT(owner), name, size,
                                        RAM_SHARED, fd, ram_offset, errp)) {
        close(fd);
        return false;
    }
    vmstate_register_ram(mr, owner);
    return true;
}

static void tt_tensix_tile_realize(DeviceState *dev, Error **errp)
{
    TTTensixTile *t = TT_TENSIX_TILE(dev);
    Object *o = OBJECT(t);
    g_autofree char *sram = g_strdup_printf("x%dy%d-sram", t->x, t->y);

    if (!t->noc) {
        error_setg(errp, "tt-tensix-tile: 'noc' link not set");
        return;
    }

    /*
     * L1 and the five LDMs are one RAM block, so that watching the tile's
     * memory for stores (spin-park.c) is one dirty-bitmap and TLB pass.
     */
    memory_region_init(&t->view, o, "tile-view", UINT64_MAX);
    if (!tt_tile_init_sram(&t->sram, dev, sram,
                           tt_tile_ldm_offset(TT_CORES_PER_TILE), t->ram_fd,
                           t->ram_offset, errp)) {
        return;
    }
    memory_region_init_alias(&t->l1, o, "l1", &t->sram, 0, TT_L1_SIZE);
    memory_region_add_subregion(&t->view, 0, &t->l1);
    tt_tile_background_init(&t->unmapped, o, &t->view, tt_tile_map,
                            ARRAY_SIZE(tt_tile_map), t->x, t->y);

    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        tt_tile_init_core_memory(t, r);
    }
    if (!tt_tile_realize_blocks(t, errp)) {
        return;
    }
    address_space_init(&t->noc_as, &t->view, "tile-noc-view");
    /*
     * L1 and the LDMs (through the slow aliases) are in this tile's five
     * address spaces only; NOC, host and debugger use address_space_*()
     * calls, not TLBs.  Telling QEMU keeps code-page protection O(5).
     */
    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        t->ram_cpus[r] = CPU(&t->core[r]);
    }
    qemu_ram_block_set_tlb_cpus(t->sram.ram_block, t->ram_cpus,
                                TT_CORES_PER_TILE);
    /* the same firmware and kernels on every tile: translated once */
    qemu_ram_block_set_code_share(t->sram.ram_block, t->tb_share);
    /*
     * The five cores hand work to each other every few microseconds: on
     * one host thread a hand-over is a return from the execution loop, not
     * a futex wake-up and a context switch (tcg_vcpu_share_thread())
     */
    for (int r = 1; r < TT_CORES_PER_TILE && t->one_thread; r++) {
        tcg_vcpu_share_thread(t->ram_cpus[r], t->ram_cpus[0]);
    }
    tt_spin_tile_init(&t->spin, t->ram_cpus, TT_CORES_PER_TILE, &t->sram,
                      t->spin_park, t->one_thread);
    /* what the NOC reaches here: the tile's view, L1 for atomics */
    tt_noc_add_node(t->noc, t->x, t->y, &t->noc_as, &t->l1, &t->spin);
}

static void tt_tensix_tile_init(Object *obj)
{
    TTTensixTile *t = TT_TENSIX_TILE(obj);

    object_initialize_child(obj, "debug-regs", &t->dbg,
                            TYPE_TT_RISCV_DEBUG_REGS);
    object_initialize_child(obj, "niu0", &t->niu[0], TYPE_TT_NIU);
    object_initialize_child(obj, "niu1", &t->niu[1], TYPE_TT_NIU);
    object_initialize_child(obj, "overlay", &t->overlay, TYPE_TT_NOC_OVERLAY);
    object_initialize_child(obj, "tensix", &t->tensix, TYPE_TT_TENSIX);
    object_initialize_child(obj, "spin", &t->spin, TYPE_TT_SPIN_TILE);
}

static const Property tt_tensix_tile_props[] = {
    DEFINE_PROP_UINT8("x", TTTensixTile, x, 0),
    DEFINE_PROP_UINT8("y", TTTensixTile, y, 0),
    DEFINE_PROP_UINT8("vx", TTTensixTile, vx, 0),
    DEFINE_PROP_UINT8("vy", TTTensixTile, vy, 0),
    DEFINE_PROP_BOOL("spin-park", TTTensixTile, spin_park, true),
    DEFINE_PROP_BOOL("tb-share", TTTensixTile, tb_share, true),
    DEFINE_PROP_BOOL("one-thread", TTTensixTile, one_thread, true),
    DEFINE_PROP_INT32("ram-fd", TTTensixTile, ram_fd, -1),
    DEFINE_PROP_UINT64("ram-offset", TTTensixTile, ram_offset, 0),
    DEFINE_PROP_LINK("noc", TTTensixTile, noc, TYPE_TT_NOC, TTNoc *),
};

/*
 * The cores' Tenstorrent additions to the RISC-V state, which the CPU's
 * own vmstate does not know: the custom CSRs (tt_csr.c) and the parking
 * sampler's per-core counters and park state (spin-park.c).
 */
const VMStateDescription vmstate_tt_tile_core = {
    .name = "tt-tensix-tile/core",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(env.tt_csr, RISCVCPU, TT_CSR_SLOTS),
        VMSTATE_INT32(env.tt_spin_count, RISCVCPU),
        VMSTATE_UINT32(env.tt_spin_epoch, RISCVCPU),
        VMSTATE_UINT32(env.tt_park, RISCVCPU),
        VMSTATE_END_OF_LIST()
    },
};

int tt_tile_check_park_states(RISCVCPU *cores, int n, int x, int y)
{
    for (int r = 0; r < n; r++) {
        if (cores[r].env.tt_park > TT_PARK_STALLED) {
            error_report("tile x%dy%d: migration stream has core %d in park "
                         "state %u", x, y, r, cores[r].env.tt_park);
            return -EINVAL;
        }
    }
    return 0;
}

static int tt_tensix_tile_post_load(void *opaque, int version_id)
{
    TTTensixTile *t = opaque;

    return tt_tile_check_park_states(t->core, TT_CORES_PER_TILE, t->x, t->y);
}

static const VMStateDescription vmstate_tt_tensix_tile = {
    .name = TYPE_TT_TENSIX_TILE,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = tt_tensix_tile_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(core, TTTensixTile, TT_CORES_PER_TILE, 1,
                             vmstate_tt_tile_core, RISCVCPU),
        VMSTATE_STRUCT(spin, TTTensixTile, 1, vmstate_tt_spin_tile,
                       TTSpinTile),
        VMSTATE_END_OF_LIST()
    },
};

static void tt_tensix_tile_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole Tensix tile";
    dc->realize = tt_tensix_tile_realize;
    dc->vmsd = &vmstate_tt_tensix_tile;
    dc->user_creatable = false;
    device_class_set_props(dc, tt_tensix_tile_props);
}

static const TypeInfo tt_tensix_tile_types[] = {
    {
        .name = TYPE_TT_TENSIX_TILE,
        .parent = TYPE_DEVICE,
        .instance_size = sizeof(TTTensixTile),
        .instance_init = tt_tensix_tile_init,
        .class_init = tt_tensix_tile_class_init,
    },
};

DEFINE_TYPES(tt_tensix_tile_types)
