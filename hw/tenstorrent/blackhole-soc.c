/*
 * Tenstorrent Blackhole chip: the Tensix tiles of the grid, the five per-role
 * CPU clusters, the GDDR banks, the ARC tile and the PCIe endpoint.
 *
 * CPUs: one cluster per core role (brisc, ncrisc, trisc0-2), because the
 * roles decode differently and each cluster is one gdb inferior.  Each
 * cluster is realized before its CPUs, so its index reaches the translation
 * block flags; CPUs are then realized tile-major (index = tile * 5 + role),
 * tiles in column-major order.
 *
 * RAM: every tile's L1 and LDMs and every GDDR bank are RAM blocks backed
 * by one memfd (TT_SOC_RAM_* in blackhole-soc.h), sealed against shrinking and
 * growing, so that the vfio-user export can hand it to a client that maps
 * L1 and GDDR (host-map.c) without the client being able to pull pages
 * from under QEMU.  GDDR stays sparse: the file has holes until written.
 * L1 is allocated up front (prealloc-l1, in a thread of its own while the
 * machine starts), as on the chip: a client writing L1 through its
 * mapping then pays no page allocation per 4 KiB it first touches.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/madvise.h"
#include "qemu/memalign.h"
#include "qemu/memfd.h"
#include "qemu/thread.h"
#include <sys/resource.h>
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "net/net.h"
#include "hw/qdev-properties.h"
#include "system/reset.h"
#include "hw/core/cpu.h"
#include "hw/registerfields.h"
#include "hw/tenstorrent/riscv-debug-regmap.h"
#include "system/ramblock.h"
#include "system/physmem.h"
#include "system/tcg.h"
#include "exec/translation-block.h"
#include "qemu/main-loop.h"
#include "trace.h"
#include "hw/tenstorrent/blackhole-soc.h"

TTTensixTile *tt_soc_tile_at(TTBlackholeSoC *s, int x, int y)
{
    int i = tt_grid_tile_at(&s->grid, x, y);

    return i < 0 ? NULL : &s->tile[i];
}

TTEthTile *tt_soc_eth(TTBlackholeSoC *s, int c)
{
    return c >= 0 && c < TT_ETH_CHANNELS &&
           tt_grid_eth_logical(&s->grid, c) >= 0 ? &s->eth[c] : NULL;
}

TTEthTile *tt_soc_eth_at(TTBlackholeSoC *s, int x, int y)
{
    TTNode n = tt_grid_node(&s->grid, x, y);

    return n.kind == TT_NODE_ETH ? tt_soc_eth(s, n.index) : NULL;
}

TTDramBank *tt_soc_dram_at(TTBlackholeSoC *s, int x, int y)
{
    TTNode n = tt_grid_node(&s->grid, x, y);

    return n.kind == TT_NODE_DRAM ? &s->dram[n.index] : NULL;
}

/*
 * A power cycle resets only the cores that ran since their last reset: a
 * core held since then is in its reset state already, and a release
 * resets it anyway.  The rest of the 724 resets (a jump cache and the
 * state of each core) were most of a warm chip's power cycle.
 */
static void tt_soc_cores_reset(TTRiscvDebugRegs *dbg, RISCVCPU *core)
{
    for (int r = 0; r < dbg->ncores; r++) {
        CPUState *cs = CPU(&core[r]);

        if (tt_debug_regs_take_ran(dbg, r) || !qatomic_read(&cs->halted)) {
            cpu_reset(cs);
        }
    }
}

static void tt_soc_tile_reset(void *opaque)
{
    TTTensixTile *t = opaque;

    tt_soc_cores_reset(&t->dbg, t->core);
}

static void tt_soc_eth_reset(void *opaque)
{
    TTEthTile *t = opaque;

    tt_soc_cores_reset(&t->dbg, t->core);
}

static void blackhole_soc_create_tiles(TTBlackholeSoC *s)
{
    Object *clusters[TT_CORES_PER_TILE];

    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        clusters[r] = OBJECT(&s->cluster[r]);
    }
    /*
     * 454 KB a tile, every byte cleared by object_initialize(): in 2 MiB
     * pages where the host has them, a full chip takes 32 page faults to
     * do that rather than 16,000, a quarter of its start-up
     */
    s->tile = qemu_memalign(QEMU_VMALLOC_ALIGN,
                            s->grid.ntiles * sizeof(TTTensixTile));
    qemu_madvise(s->tile, s->grid.ntiles * sizeof(TTTensixTile),
                 QEMU_MADV_HUGEPAGE);
    for (int i = 0; i < s->grid.ntiles; i++) {
        TTTensixTile *t = &s->tile[i];
        g_autofree char *name = g_strdup_printf("tile-x%dy%d",
                                                s->grid.tile_x[i],
                                                s->grid.tile_y[i]);

        object_initialize_child(OBJECT(s), name, t, TYPE_TT_TENSIX_TILE);
        qdev_prop_set_uint8(DEVICE(t), "x", s->grid.tile_x[i]);
        qdev_prop_set_uint8(DEVICE(t), "y", s->grid.tile_y[i]);
        qdev_prop_set_uint8(DEVICE(t), "vx", s->grid.tile_vx[i]);
        qdev_prop_set_uint8(DEVICE(t), "vy", s->grid.tile_y[i]);
        qdev_prop_set_bit(DEVICE(t), "spin-park", s->spin_park);
        qdev_prop_set_bit(DEVICE(t), "tb-share", s->tb_share);
        qdev_prop_set_bit(DEVICE(t), "one-thread", s->tile_threads);
        qdev_prop_set_int32(DEVICE(t), "ram-fd", s->ram_fd);
        qdev_prop_set_uint64(DEVICE(t), "ram-offset",
                             i * TT_SOC_RAM_TILE_STRIDE);
        object_property_set_link(OBJECT(t), "noc", OBJECT(&s->noc),
                                 &error_abort);
        tt_tensix_tile_init_cores(t, clusters);
    }
}

/*
 * The board id: as given, else the board's UPI (bits 55:36, tt-umd
 * board_upi_map: 0x40 P150, 0x43 P100A) and serial number 1
 */
static uint64_t tt_soc_board_id(TTBlackholeSoC *s)
{
    uint64_t upi = s->grid.board == TT_BOARD_P150 ? 0x40 : 0x43;

    return s->board_id ? s->board_id : upi << 36 | 1;
}

/* The ASIC id: as given, else 1 + the chip's place (ttsim's numbering) */
static uint64_t tt_soc_asic_id(TTBlackholeSoC *s)
{
    return s->asic_id ? s->asic_id : 1 + s->asic_location;
}

/*
 * The Ethernet tiles of the channels the board has, each with the netdev
 * the machine named for it (or none: link down), and the chip's identity
 * its base firmware reports to the peer
 */
/* Every enabled Ethernet tile's base firmware, in virtual time */
static void blackhole_soc_eth_fw(void *opaque)
{
    TTBlackholeSoC *s = opaque;

    for (int c = 0; c < TT_ETH_CHANNELS; c++) {
        if (tt_soc_eth(s, c)) {
            tt_eth_tile_base_fw(tt_soc_eth(s, c));
        }
    }
    timer_mod(s->eth_fw_timer, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) +
              TT_ETH_BASE_FW_PERIOD_MS);
}

static bool blackhole_soc_create_eth(TTBlackholeSoC *s, Error **errp)
{
    Object *clusters[TT_ERISC_CORES];

    /* a cluster may not be empty: none on a board without Ethernet */
    for (int r = 0; r < TT_ERISC_CORES && ~s->grid.harvested_eth &
         MAKE_64BIT_MASK(0, TT_ETH_CHANNELS); r++) {
        object_initialize_child(OBJECT(s), tt_erisc_name[r],
                                &s->eth_cluster[r], TYPE_CPU_CLUSTER);
        qdev_prop_set_uint32(DEVICE(&s->eth_cluster[r]), "cluster-id",
                             TT_CORES_PER_TILE + r);
        clusters[r] = OBJECT(&s->eth_cluster[r]);
    }
    for (int c = 0; c < TT_ETH_CHANNELS; c++) {
        TTEthTile *t = &s->eth[c];
        DeviceState *d;
        int x, y, logical = tt_grid_eth_logical(&s->grid, c);
        g_autofree char *name = NULL;

        if (logical < 0) {
            if (s->eth_netdev[c]) {
                error_setg(errp, "eth%d=%s: Ethernet channel %d is fused off "
                           "on this board", c, s->eth_netdev[c], c);
                return false;
            }
            continue;
        }
        tt_grid_eth_xy(c, &x, &y);
        name = g_strdup_printf("eth-x%dy%d", x, y);
        object_initialize_child(OBJECT(s), name, t, TYPE_TT_ETH_TILE);
        d = DEVICE(t);
        qdev_prop_set_uint8(d, "x", x);
        qdev_prop_set_uint8(d, "y", y);
        qdev_prop_set_uint8(d, "vx", TT_VIRT_ETH_X0 + logical);
        qdev_prop_set_uint8(d, "vy", TT_VIRT_ETH_Y);
        qdev_prop_set_uint8(d, "channel", c);
        qdev_prop_set_bit(d, "spin-park", s->spin_park);
        qdev_prop_set_bit(d, "tb-share", s->tb_share);
        qdev_prop_set_int32(d, "ram-fd", s->ram_fd);
        qdev_prop_set_uint64(d, "ram-offset",
                             TT_SOC_RAM_ETH_BASE + c * TT_SOC_RAM_ETH_STRIDE);
        qdev_prop_set_uint8(d, "asic-location", s->asic_location);
        qdev_prop_set_uint64(d, "board-id", tt_soc_board_id(s));
        qdev_prop_set_uint64(d, "asic-id", tt_soc_asic_id(s));
        object_property_set_link(OBJECT(t), "noc", OBJECT(&s->noc),
                                 &error_abort);
        if (s->eth_netdev[c]) {
            if (!qemu_find_netdev(s->eth_netdev[c])) {
                error_setg(errp, "eth%d=%s: no -netdev with id '%s'", c,
                           s->eth_netdev[c], s->eth_netdev[c]);
                return false;
            }
            if (!object_property_set_str(OBJECT(t), "netdev",
                                         s->eth_netdev[c], errp)) {
                error_prepend(errp, "eth%d: ", c);
                return false;
            }
        }
        tt_eth_tile_init_cores(t, clusters);
    }
    for (int c = 0; c < TT_ETH_CHANNELS; c++) {
        if (tt_soc_eth(s, c) && !qdev_realize(DEVICE(&s->eth[c]), NULL,
                                              errp)) {
            return false;
        }
    }
    return true;
}

static bool blackhole_soc_realize_cpus(TTBlackholeSoC *s, Error **errp)
{
    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        if (!qdev_realize(DEVICE(&s->cluster[r]), NULL, errp)) {
            return false;
        }
    }
    for (int r = 0; r < TT_ERISC_CORES && ~s->grid.harvested_eth &
         MAKE_64BIT_MASK(0, TT_ETH_CHANNELS); r++) {
        if (!qdev_realize(DEVICE(&s->eth_cluster[r]), NULL, errp)) {
            return false;
        }
    }
    for (int i = 0; i < s->grid.ntiles; i++) {
        for (int r = 0; r < TT_CORES_PER_TILE; r++) {
            if (!qdev_realize(DEVICE(&s->tile[i].core[r]), NULL, errp)) {
                return false;
            }
        }
        qemu_register_reset(tt_soc_tile_reset, &s->tile[i]);
    }
    /* ERISC cores after every Tensix core: cpu_index / 5 stays the tile */
    for (int c = 0; c < TT_ETH_CHANNELS; c++) {
        for (int r = 0; tt_soc_eth(s, c) && r < TT_ERISC_CORES; r++) {
            if (!qdev_realize(DEVICE(&s->eth[c].core[r]), NULL, errp)) {
                return false;
            }
        }
        if (tt_soc_eth(s, c)) {
            qemu_register_reset(tt_soc_eth_reset, &s->eth[c]);
        }
    }
    return true;
}

static bool blackhole_soc_create_dram(TTBlackholeSoC *s, Error **errp)
{
    for (int b = 0; b < TT_DRAM_BANKS; b++) {
        g_autofree char *name = g_strdup_printf("gddr%d", b);

        if (b == s->grid.harvested_dram_bank) {
            continue;
        }
        object_initialize_child(OBJECT(s), name, &s->dram[b],
                                TYPE_TT_DRAM_BANK);
        qdev_prop_set_uint8(DEVICE(&s->dram[b]), "bank", b);
        qdev_prop_set_int32(DEVICE(&s->dram[b]), "ram-fd", s->ram_fd);
        qdev_prop_set_uint64(DEVICE(&s->dram[b]), "ram-offset",
                             TT_SOC_RAM_DRAM_BASE +
                             (uint64_t)b * TT_DRAM_BANK_SIZE);
        if (!qdev_realize(DEVICE(&s->dram[b]), NULL, errp)) {
            return false;
        }
    }
    return true;
}

/*
 * ARC telemetry describes the machine's harvesting: Tensix columns in
 * harvesting order (grid.yaml, tt-umd HARVESTING_NOC_LOCATIONS and
 * blackhole_tt_device.cpp), GDDR banks, and the Ethernet
 * ports tt-umd expects per board (2 harvested on P150, all 14 on P100).
 */
static bool blackhole_soc_create_arc(TTBlackholeSoC *s, Error **errp)
{
    DeviceState *d = DEVICE(&s->arc);
    uint32_t cols = 0;

    for (int i = 0; i < TT_TENSIX_COLS; i++) {
        int x = tt_grid_harvest_order[i];

        if (tt_grid_node(&s->grid, x, TT_TENSIX_Y0).kind == TT_NODE_TENSIX) {
            cols |= BIT(i);
        }
    }
    qdev_prop_set_uint64(d, "board-id", tt_soc_board_id(s));
    qdev_prop_set_uint64(d, "asic-id", tt_soc_asic_id(s));
    qdev_prop_set_uint8(d, "asic-location", s->asic_location);
    qdev_prop_set_uint8(d, "pcie", s->pcie_endpoint >= 0 ? s->pcie_endpoint
                                   : tt_grid_boards[s->board].pcie);
    qdev_prop_set_uint32(d, "enabled-tensix-cols", cols);
    qdev_prop_set_uint32(d, "enabled-gddr",
                         0xff & ~(s->grid.harvested_dram_bank < 0 ? 0 :
                                  BIT(s->grid.harvested_dram_bank)));
    qdev_prop_set_uint32(d, "enabled-eth",
                         ~s->grid.harvested_eth & MAKE_64BIT_MASK(0,
                                                       TT_ETH_CHANNELS));
    return sysbus_realize(SYS_BUS_DEVICE(d), errp);
}

/* The nodes with no NIU of their own: GDDR ports and the ARC tile */
static void blackhole_soc_connect_noc(TTBlackholeSoC *s)
{
    for (int b = 0; b < TT_DRAM_BANKS; b++) {
        for (int p = 0; p < TT_DRAM_PORTS && b != s->grid.harvested_dram_bank;
             p++) {
            int x, y;

            tt_grid_dram_port_xy(b, p, &x, &y);
            tt_noc_add_node(&s->noc, x, y, &s->dram[b].as, NULL, NULL);
        }
    }
    tt_noc_add_node(&s->noc, TT_ARC_X, TT_ARC_Y, &s->arc.as, NULL, NULL);
}

typedef struct TTSocPrealloc {
    int fd;                     /* the SoC's: open as long as QEMU runs */
    int ntiles;
} TTSocPrealloc;

/* Allocate every tile's L1 and LDMs in the RAM file (a detached thread) */
static void *blackhole_soc_prealloc(void *opaque)
{
    TTSocPrealloc *p = opaque;

    /* only spare host CPU: this must not slow the machine's start-up */
    setpriority(PRIO_PROCESS, qemu_get_thread_id(), 19);
    for (int i = 0; i < p->ntiles; i++) {
        if (fallocate(p->fd, 0, i * TT_SOC_RAM_TILE_STRIDE,
                      TT_SOC_RAM_TILE_STRIDE) < 0) {
            break;      /* out of memory for now: pages come on first use */
        }
    }
    g_free(p);
    return NULL;
}

static void blackhole_soc_prealloc_start(TTBlackholeSoC *s)
{
    TTSocPrealloc *p = g_new(TTSocPrealloc, 1);
    QemuThread thread;

    /*
     * No copy of the descriptor: QEMU's set of open files then does not
     * change when the thread is done (the bad-client test counts them to
     * find leaks)
     */
    p->fd = s->ram_fd;
    p->ntiles = s->grid.ntiles;
    qemu_thread_create(&thread, "tt-l1-prealloc", blackhole_soc_prealloc, p,
                       QEMU_THREAD_DETACHED);
}

/*
 * The RAM file.  Without memfd (or with its seals refused) the chip still
 * works, on anonymous RAM, but cannot be mapped by a vfio-user client.
 */
static void blackhole_soc_create_ram(TTBlackholeSoC *s)
{
    Error *err = NULL;

    s->ram_size = TT_SOC_RAM_DRAM_BASE + TT_DRAM_BANKS * TT_DRAM_BANK_SIZE;
    s->ram_fd = qemu_memfd_create("tt-blackhole-ram", s->ram_size, false, 0,
                                  F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL,
                                  &err);
    if (s->ram_fd < 0) {
        warn_report_err(err);
        warn_report("tt-blackhole-soc: chip RAM is not shareable");
        s->ram_size = 0;
        return;
    }
    if (s->prealloc_l1) {
        blackhole_soc_prealloc_start(s);
    }
}

/*
 * Every RAM of the chip back to zeros (pages are dropped, not written),
 * and the code translated from L1 and the LDMs with it
 */
static void blackhole_soc_wipe_ram(TTBlackholeSoC *s)
{
    MemoryRegion *mr[TT_MAX_TILES + TT_ETH_CHANNELS + TT_DRAM_BANKS];
    int n = 0, ncode;

    for (int i = 0; i < s->grid.ntiles; i++) {
        mr[n++] = &s->tile[i].sram;
    }
    for (int c = 0; c < TT_ETH_CHANNELS; c++) {
        if (tt_soc_eth(s, c)) {
            mr[n++] = &s->eth[c].sram;
        }
    }
    ncode = n;
    for (int i = 0; i < ncode && tcg_enabled(); i++) {
        ram_addr_t start = memory_region_get_ram_addr(mr[i]);
        uint64_t size = memory_region_size(mr[i]);

        /*
         * Only a RAM whose pages hold translated code: those are clean
         * for DIRTY_MEMORY_CODE (physmem's own writes test the same).
         * The invalidation looks up every page of the range, 59,000 on
         * a P150, most of a power cycle when few tiles ran code.
         */
        if (physical_memory_range_includes_clean(start, size,
                                                 1 << DIRTY_MEMORY_CODE)) {
            tb_invalidate_phys_range(NULL, start, start + size - 1);
        }
    }
    for (int b = 0; b < TT_DRAM_BANKS; b++) {
        if (b != s->grid.harvested_dram_bank) {
            mr[n++] = &s->dram[b].ram;
        }
    }
    for (int i = 0; i < n; i++) {
        uint64_t size = memory_region_size(mr[i]);

        if (ram_block_discard_range(mr[i]->ram_block, 0, size) < 0) {
            /* the kernel refused to drop them: write the zeros */
            memset(memory_region_get_ram_ptr(mr[i]), 0, size);
        }
    }
}

/*
 * A reset handler registered before every other one of the chip, so that
 * the firmware loader (blackhole-boot.c) writes into wiped RAM.
 */
static void blackhole_soc_power_reset(void *opaque)
{
    TTBlackholeSoC *s = opaque;

    if (!s->pc_pending) {
        return;
    }
    s->pc_pending = false;
    blackhole_soc_wipe_ram(s);
    /*
     * No new prealloc-l1: a warm chip is power-cycled between every two
     * clients, and a wipe then has only the pages they touched to drop
     */
    trace_tt_soc_power_cycle();
}

static void blackhole_soc_sync_core(CPUState *cs, run_on_cpu_data data)
{
}

/*
 * Not by qemu_system_reset_request(): the main loop would pause and
 * resume every vCPU thread, 700 wake-ups each way, tens of milliseconds
 * on two host cores.  Cores held in reset are halted, and a halted vCPU
 * thread waits for the BQL to go on: holding every core (as a host
 * writing SOFT_RESET_0 of every tile) and then keeping the BQL is as good
 * as pausing them, and costs only the cores that were running.
 */
void tt_soc_power_cycle(TTBlackholeSoC *s)
{
    CPUState *cs;

    bql_lock();
    for (int i = 0; i < s->grid.ntiles; i++) {
        tt_debug_regs_set_soft_reset(&s->tile[i].dbg, TT_SOFT_RESET_POWER_ON);
    }
    for (int c = 0; c < TT_ETH_CHANNELS; c++) {
        if (tt_soc_eth(s, c)) {
            tt_debug_regs_set_soft_reset(&s->eth[c].dbg,
                                         TT_ERISC_SOFT_RESET_POWER_ON);
        }
    }
    CPU_FOREACH(cs) {
        /* its queued hold has run once this returns */
        if (!qatomic_read(&cs->halted)) {
            run_on_cpu(cs, blackhole_soc_sync_core, RUN_ON_CPU_NULL);
        }
    }
    s->pc_pending = true;
    tt_noc_routing_hold(&s->noc, true);
    qemu_devices_reset(RESET_TYPE_COLD);
    tt_noc_routing_hold(&s->noc, false);
    bql_unlock();
}

static void blackhole_soc_build(TTBlackholeSoC *s, Error **errp)
{
    const char *err;

    if (!tt_grid_init(&s->grid, s->board, s->harvested_cols,
                      s->harvested_dram_bank, &err)) {
        error_setg(errp, "%s", err);
        return;
    }
    if (s->pcie_endpoint >= 0) {
        tt_grid_set_pcie(&s->grid, s->pcie_endpoint);
    }
    qdev_prop_set_int32(DEVICE(&s->noc), "pcie", s->pcie_endpoint);
    qdev_prop_set_uint32(DEVICE(&s->noc), "board", s->board);
    qdev_prop_set_uint32(DEVICE(&s->noc), "harvested-cols", s->harvested_cols);
    qdev_prop_set_int32(DEVICE(&s->noc), "harvested-dram-bank",
                        s->harvested_dram_bank);
    if (!qdev_realize(DEVICE(&s->noc), NULL, errp)) {
        return;
    }
    blackhole_soc_create_ram(s);
    qemu_register_reset(blackhole_soc_power_reset, s);
    blackhole_soc_create_tiles(s);
    for (int i = 0; i < s->grid.ntiles; i++) {
        if (!qdev_realize(DEVICE(&s->tile[i]), NULL, errp)) {
            return;
        }
    }
    if (!blackhole_soc_create_eth(s, errp) ||
        !blackhole_soc_realize_cpus(s, errp)) {
        return;
    }
    if (~s->grid.harvested_eth & MAKE_64BIT_MASK(0, TT_ETH_CHANNELS)) {
        s->eth_fw_timer = timer_new_ms(QEMU_CLOCK_VIRTUAL,
                                       blackhole_soc_eth_fw, s);
        timer_mod(s->eth_fw_timer, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) +
                  TT_ETH_BASE_FW_PERIOD_MS);
    }
    qdev_prop_set_uint8(DEVICE(&s->pcie), "x", s->grid.pcie_x);
    object_property_set_link(OBJECT(&s->pcie), "noc", OBJECT(&s->noc),
                             &error_abort);
    if (blackhole_soc_create_dram(s, errp) &&
        blackhole_soc_create_arc(s, errp) &&
        sysbus_realize(SYS_BUS_DEVICE(&s->pcie), errp)) {
        blackhole_soc_connect_noc(s);
    }
}

static void blackhole_soc_realize(DeviceState *dev, Error **errp)
{
    /*
     * One memory transaction for the whole chip: otherwise every region a
     * tile adds re-renders every address space created so far (hundreds),
     * which makes start-up quadratic in time and memory.
     */
    memory_region_transaction_begin();
    blackhole_soc_build(TT_BLACKHOLE_SOC(dev), errp);
    memory_region_transaction_commit();
}

static void blackhole_soc_init(Object *obj)
{
    TTBlackholeSoC *s = TT_BLACKHOLE_SOC(obj);

    s->ram_fd = -1;

    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        object_initialize_child(obj, tt_core_role_name[r], &s->cluster[r],
                                TYPE_CPU_CLUSTER);
        qdev_prop_set_uint32(DEVICE(&s->cluster[r]), "cluster-id", r);
    }

    object_initialize_child(obj, "noc", &s->noc, TYPE_TT_NOC);
    object_initialize_child(obj, "arc", &s->arc, TYPE_TT_ARC);
    object_initialize_child(obj, "pcie", &s->pcie, TYPE_TT_PCIE);
}

/* After the tiles, children of the SoC, were finalized */
static void blackhole_soc_finalize(Object *obj)
{
    qemu_vfree(TT_BLACKHOLE_SOC(obj)->tile);
}

static const Property blackhole_soc_props[] = {
    DEFINE_PROP_UINT32("board", TTBlackholeSoC, board, TT_BOARD_P150),
    DEFINE_PROP_UINT32("harvested-cols", TTBlackholeSoC, harvested_cols, 0),
    DEFINE_PROP_INT32("harvested-dram-bank", TTBlackholeSoC,
                      harvested_dram_bank, -1),
    DEFINE_PROP_BOOL("spin-park", TTBlackholeSoC, spin_park, true),
    DEFINE_PROP_BOOL("tile-threads", TTBlackholeSoC, tile_threads, true),
    DEFINE_PROP_BOOL("prealloc-l1", TTBlackholeSoC, prealloc_l1, true),
    DEFINE_PROP_BOOL("tb-share", TTBlackholeSoC, tb_share, true),
    DEFINE_PROP_UINT8("asic-location", TTBlackholeSoC, asic_location, 0),
    DEFINE_PROP_UINT64("board-id", TTBlackholeSoC, board_id, 0),
    DEFINE_PROP_UINT64("asic-id", TTBlackholeSoC, asic_id, 0),
    DEFINE_PROP_INT32("pcie-endpoint", TTBlackholeSoC, pcie_endpoint, -1),
};

void tt_eth_netdev_visit(char **slot, Visitor *v, const char *name,
                         bool set, Error **errp)
{
    char *val;

    if (!set) {
        val = g_strdup(*slot ?: "");
        visit_type_str(v, name, &val, errp);
        g_free(val);
        return;
    }
    if (!visit_type_str(v, name, &val, errp)) {
        return;
    }
    g_free(*slot);
    *slot = *val ? val : NULL;
    if (!*val) {
        g_free(val);
    }
}

/* "eth0".."eth13": the netdev id of each channel's link */
static void blackhole_soc_get_eth(Object *obj, Visitor *v, const char *name,
                                  void *opaque, Error **errp)
{
    tt_eth_netdev_visit(&TT_BLACKHOLE_SOC(obj)->eth_netdev[(uintptr_t)opaque],
                        v, name, false, errp);
}

static void blackhole_soc_set_eth(Object *obj, Visitor *v, const char *name,
                                  void *opaque, Error **errp)
{
    tt_eth_netdev_visit(&TT_BLACKHOLE_SOC(obj)->eth_netdev[(uintptr_t)opaque],
                        v, name, true, errp);
}

void tt_add_eth_netdev_props(ObjectClass *oc, ObjectPropertyAccessor *get,
                             ObjectPropertyAccessor *set)
{
    for (uintptr_t c = 0; c < TT_ETH_CHANNELS; c++) {
        g_autofree char *name = g_strdup_printf("eth%u", (unsigned)c);
        g_autofree char *desc = g_strdup_printf(
            "The -netdev id Ethernet channel %u's link runs over (none: "
            "link down)", (unsigned)c);

        object_class_property_add(oc, name, "str", get, set, NULL,
                                  (void *)c);
        object_class_property_set_description(oc, name, desc);
    }
}

static void blackhole_soc_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole chip";
    dc->realize = blackhole_soc_realize;
    dc->user_creatable = false;
    device_class_set_props(dc, blackhole_soc_props);
    tt_add_eth_netdev_props(klass, blackhole_soc_get_eth,
                            blackhole_soc_set_eth);
}

static const TypeInfo blackhole_soc_types[] = {
    {
        .name = TYPE_TT_BLACKHOLE_SOC,
        .parent = TYPE_DEVICE,
        .instance_size = sizeof(TTBlackholeSoC),
        .instance_init = blackhole_soc_init,
        .instance_finalize = blackhole_soc_finalize,
        .class_init = blackhole_soc_class_init,
    },
};

DEFINE_TYPES(blackhole_soc_types)
