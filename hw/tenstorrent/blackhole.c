/*
 * Tenstorrent Blackhole board: the "blackhole" machine (P150 or P100A).
 *
 * The machine owns the user options (board, harvesting, firmware), checks
 * them, creates the chip, and in firmware mode prepares L1 the way tt-metal's
 * host does before it releases BRISC (tt-metal
 * tt_metal/llrt/hal.cpp, firmware_common.h noc_bank_table_init()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/boards.h"
#include "hw/qdev-properties.h"
#include "system/reset.h"
#include "system/system.h"
#include "system/address-spaces.h"
#include "system/runstate.h"
#include "qemu/config-file.h"
#include "qemu/option.h"
#include "elf.h"
#include "hw/tenstorrent/blackhole.h"
#include "blackhole-internal.h"

/* go_msg_t.signal (tt-metal tt_metal/hw/inc/hostdev/dev_msgs.h) */
#define TT_RUN_MSG_INIT     0x40
#define TT_GO_MSG_SIGNAL    3
/* SOFT_RESET_0 with only BRISC released (tt-isa-doc SoftReset.md) */
#define TT_SOFT_RESET_BRISC_ONLY    0x47000u

/* "15:16", "15,16" or "none" -> bit mask of physical columns */
static bool tt_parse_cols(const char *str, uint32_t *mask, Error **errp)
{
    g_auto(GStrv) parts = NULL;

    *mask = 0;
    if (!str || !*str || !strcmp(str, "none")) {
        return true;
    }
    parts = g_strsplit_set(str, ":,", -1);
    for (int i = 0; parts[i]; i++) {
        uint64_t x;

        if (qemu_strtou64(parts[i], NULL, 10, &x) || x >= 32) {
            error_setg(errp, "harvested-tensix-cols: '%s' is not a column "
                       "number", parts[i]);
            return false;
        }
        if (*mask & BIT(x)) {
            error_setg(errp, "harvested-tensix-cols: column %" PRIu64
                       " given twice", x);
            return false;
        }
        *mask |= BIT(x);
    }
    return true;
}

static bool tt_parse_board(TTBlackholeMachine *m, TTBoard *board,
                           uint32_t *cols, int *bank, Error **errp)
{
    const char *err;
    TTGrid *g;

    if (!strcmp(m->board, "p150")) {
        *board = TT_BOARD_P150;
    } else if (!strcmp(m->board, "p100a")) {
        *board = TT_BOARD_P100A;
    } else {
        error_setg(errp, "board: unknown board '%s' (use p150 or p100a)",
                   m->board);
        return false;
    }
    /* the board's own harvesting (P100A: GDDR bank 7, columns 15, 16) */
    *bank = tt_grid_boards[*board].harvested_dram_bank;
    *cols = tt_grid_boards[*board].harvested_cols;
    if (m->harvested_cols && !tt_parse_cols(m->harvested_cols, cols, errp)) {
        return false;
    }
    if (m->harvested_dram_bank) {
        uint64_t b;

        if (!strcmp(m->harvested_dram_bank, "none")) {
            *bank = -1;
        } else if (qemu_strtou64(m->harvested_dram_bank, NULL, 10, &b) ||
                   b > 7) {
            error_setg(errp, "harvested-dram-bank: '%s' is not 0-7 or none",
                       m->harvested_dram_bank);
            return false;
        } else {
            *bank = b;
        }
    }
    if (*board == TT_BOARD_P100A && *bank < 0) {
        error_setg(errp, "harvested-dram-bank: a P100A has one harvested "
                   "GDDR bank (0-7)");
        return false;
    }
    if (*board == TT_BOARD_P150 && *bank >= 0) {
        error_setg(errp, "harvested-dram-bank: a P150 has all 8 GDDR banks");
        return false;
    }
    g = g_new(TTGrid, 1);
    if (!tt_grid_init(g, *board, *cols, *bank, &err)) {
        error_setg(errp, "harvested-tensix-cols: %s", err);
        g_free(g);
        return false;
    }
    g_free(g);
    return true;
}

static bool tt_check_smp(MachineState *ms, unsigned ncpus, Error **errp)
{
    MachineClass *mc = MACHINE_GET_CLASS(ms);

    /* -smp defaults to 700; any explicit value must match the board. */
    if (ms->smp.cpus != ncpus && ms->smp.cpus != mc->default_cpus) {
        error_setg(errp, "this board has %u cores (5 per Tensix tile, 2 per "
                   "Ethernet tile); "
                   "-smp %u does not match", ncpus, ms->smp.cpus);
        return false;
    }
    return true;
}

/* A debugger may have written memory while the machine was stopped */
static void blackhole_vm_state_change(void *opaque, bool running,
                                      RunState state)
{
    TTBlackholeSoC *s = opaque;

    if (running) {
        tt_spin_wake_all(&s->tile[0].spin, sizeof(s->tile[0]),
                         s->grid.ntiles);
    }
}

/*
 * The sysbus (and with it every tile's registers) joins the reset tree only
 * once machine creation is done; the boot handler must run after it.
 */
static void blackhole_register_boot(Notifier *n, void *data)
{
    TTBlackholeMachine *m = container_of(n, TTBlackholeMachine,
                                         boot_notifier);

    qemu_register_reset(blackhole_fw_boot, &m->boot);
}

/*
 * Options every machine has that mean nothing here: refused, rather than
 * left to look as if they did something
 */
static bool blackhole_check_generic(MachineState *ms, Error **errp)
{
    const char *what = ms->kernel_filename ? "kernel" : ms->dtb ? "dtb"
                     : ms->dt_compatible ? "dt-compatible"
                     : ms->phandle_start ? "phandle-start" : NULL;

    if (what) {
        error_setg(errp, "%s: the Blackhole machine has no Linux boot and no "
                   "device tree; its cores run firmware= (tt-metal's) or "
                   "code put in L1 with -device loader", what);
        return false;
    }
    if (machine_usb(ms)) {
        error_setg(errp, "usb=on: the Blackhole machine has no USB");
        return false;
    }
    return true;
}

static void blackhole_machine_init(MachineState *ms)
{
    TTBlackholeMachine *m = TT_BLACKHOLE_MACHINE(ms);
    TTBlackholeSoC *s = &m->soc;
    TTBoard board;
    uint32_t cols;
    int bank;

    if (!blackhole_check_generic(ms, &error_fatal) ||
        !tt_parse_board(m, &board, &cols, &bank, &error_fatal)) {
        return;
    }
    object_initialize_child(OBJECT(ms), "soc", s, TYPE_TT_BLACKHOLE_SOC);
    qdev_prop_set_uint32(DEVICE(s), "board", board);
    qdev_prop_set_uint32(DEVICE(s), "harvested-cols", cols);
    qdev_prop_set_int32(DEVICE(s), "harvested-dram-bank", bank);
    qdev_prop_set_bit(DEVICE(s), "spin-park", m->spin_park);
    qdev_prop_set_bit(DEVICE(s), "tile-threads", m->tile_threads);
    qdev_prop_set_bit(DEVICE(s), "prealloc-l1", m->prealloc_l1);
    qdev_prop_set_bit(DEVICE(s), "tb-share", m->tb_share);
    qdev_prop_set_uint8(DEVICE(s), "asic-location", m->asic_location);
    qdev_prop_set_uint64(DEVICE(s), "board-id", m->board_id);
    qdev_prop_set_uint64(DEVICE(s), "asic-id", m->asic_id);
    if (m->pcie_endpoint) {
        if (strcmp(m->pcie_endpoint, "0") && strcmp(m->pcie_endpoint, "1")) {
            error_report("pcie-endpoint: '%s' is not 0 (PCIe0 at (2, 0)) or "
                         "1 (PCIe1 at (11, 0))", m->pcie_endpoint);
            exit(1);
        }
        qdev_prop_set_int32(DEVICE(s), "pcie-endpoint",
                            atoi(m->pcie_endpoint));
    }
    for (int c = 0; c < TT_ETH_CHANNELS; c++) {
        g_autofree char *name = g_strdup_printf("eth%d", c);

        object_property_set_str(OBJECT(s), name, m->eth_netdev[c] ?: "",
                                &error_abort);
    }
    if (!tt_check_smp(ms, tt_grid_count_tiles(cols) * TT_CORES_PER_TILE +
                      TT_ERISC_CORES *
                      ctpop32(~tt_grid_boards[board].harvested_eth &
                              MAKE_64BIT_MASK(0, TT_ETH_CHANNELS)),
                      &error_fatal)) {
        return;
    }
    /* Firmware is checked before the chip exists: nothing half-started. */
    m->boot.soc = s;
    m->boot.firmware = ms->firmware;
    if (ms->firmware && !blackhole_fw_prepare(&m->boot,
                                             tt_grid_count_tiles(cols),
                                             TT_DRAM_BANKS - (bank >= 0),
                                             &error_fatal)) {
        return;
    }
    qdev_realize(DEVICE(s), NULL, &error_fatal);
    qemu_add_vm_change_state_handler(blackhole_vm_state_change, s);
    blackhole_qtest_register(s);
    blackhole_monitor_init(m);
    if (m->boot.erisc_firmware &&
        !blackhole_fw_prepare_erisc(&m->boot, &error_fatal)) {
        return;
    }
    if (ms->firmware || m->boot.erisc_firmware) {
        m->boot_notifier.notify = blackhole_register_boot;
        qemu_add_machine_init_done_notifier(&m->boot_notifier);
    }
}

#define TT_STR_PROP(name, field)                                            \
    static char *tt_get_##name(Object *obj, Error **errp)                     \
    {                                                                         \
        return g_strdup(TT_BLACKHOLE_MACHINE(obj)->field);                    \
    }                                                                         \
    static void tt_set_##name(Object *obj, const char *v, Error **errp)       \
    {                                                                         \
        TTBlackholeMachine *m = TT_BLACKHOLE_MACHINE(obj);                    \
        g_free(m->field);                                                     \
        m->field = g_strdup(v);                                               \
    }

TT_STR_PROP(board, board)
TT_STR_PROP(harvested_cols, harvested_cols)
TT_STR_PROP(harvested_dram_bank, harvested_dram_bank)
/* Checked when given, so that a bad value never passes unnoticed */
#define TT_CHECKED_STR_PROP(name, field, check)                               \
    static char *tt_get_##name(Object *obj, Error **errp)                     \
    {                                                                         \
        return g_strdup(TT_BLACKHOLE_MACHINE(obj)->field);                    \
    }                                                                         \
    static void tt_set_##name(Object *obj, const char *v, Error **errp)       \
    {                                                                         \
        TTBlackholeMachine *m = TT_BLACKHOLE_MACHINE(obj);                    \
        if (!check(v, errp)) {                                                \
            return;                                                           \
        }                                                                     \
        g_free(m->field);                                                     \
        m->field = g_strdup(v);                                               \
    }

static bool tt_check_fw_layout(const char *v, Error **errp)
{
    return blackhole_fw_layout_lookup(v, errp) != NULL;
}

static bool tt_check_ldm_images(const char *v, Error **errp)
{
    uint32_t addr[TT_CORES_PER_TILE];

    return blackhole_fw_parse_ldm_images(v, addr, errp);
}

TT_CHECKED_STR_PROP(fw_layout, boot.layout, tt_check_fw_layout)
TT_CHECKED_STR_PROP(fw_ldm_images, boot.ldm_images, tt_check_ldm_images)
TT_STR_PROP(erisc_firmware, boot.erisc_firmware)
TT_STR_PROP(pcie_endpoint, pcie_endpoint)

static void tt_get_i64(Object *obj, Visitor *v, const char *name,
                       void *opaque, Error **errp)
{
    int64_t *field = (int64_t *)((char *)obj + (uintptr_t)opaque);

    visit_type_int64(v, name, field, errp);
}

/* An int64 option in [0, @max] into the field at @opaque's offset */
static void tt_set_i64_max(Object *obj, Visitor *v, const char *name,
                           void *opaque, int64_t max, Error **errp)
{
    int64_t val;

    if (!visit_type_int64(v, name, &val, errp)) {
        return;
    }
    /* -1, "not given", is the default only */
    if (val < 0 || val > max) {
        error_setg(errp, "%s: %" PRId64 " is out of range (0 to %" PRId64
                   ")", name, val, max);
        return;
    }
    *(int64_t *)((char *)obj + (uintptr_t)opaque) = val;
}

static void tt_set_i64(Object *obj, Visitor *v, const char *name,
                       void *opaque, Error **errp)
{
    tt_set_i64_max(obj, v, name, opaque, UINT32_MAX, errp);
}

/* seconds, 0: off */
static void tt_set_hang_report(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    tt_set_i64_max(obj, v, name, opaque, 24 * 3600, errp);
}

static void tt_get_eth(Object *obj, Visitor *v, const char *name,
                       void *opaque, Error **errp)
{
    tt_eth_netdev_visit(&TT_BLACKHOLE_MACHINE(obj)->eth_netdev[
                            (uintptr_t)opaque], v, name, false, errp);
}

static void tt_set_eth(Object *obj, Visitor *v, const char *name,
                       void *opaque, Error **errp)
{
    tt_eth_netdev_visit(&TT_BLACKHOLE_MACHINE(obj)->eth_netdev[
                            (uintptr_t)opaque], v, name, true, errp);
}

static void tt_get_asic_location(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    visit_type_uint8(v, name, &TT_BLACKHOLE_MACHINE(obj)->asic_location,
                     errp);
}

static void tt_set_asic_location(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    uint8_t val;

    if (!visit_type_uint8(v, name, &val, errp)) {
        return;
    }
    if (val > 31) {
        error_setg(errp, "asic-location: %u is not a chip position (0-31)",
                   val);
        return;
    }
    TT_BLACKHOLE_MACHINE(obj)->asic_location = val;
}

/* Getter and setter alike: the visitor reads or writes the field */
static void tt_visit_u64(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    visit_type_uint64(v, name, (uint64_t *)((char *)obj + (uintptr_t)opaque),
                      errp);
}

static void tt_add_override(ObjectClass *oc, const char *name,
                            size_t offset, const char *desc)
{
    object_class_property_add(oc, name, "int", tt_get_i64, tt_set_i64, NULL,
                              (void *)offset);
    object_class_property_set_description(oc, name, desc);
}

static void blackhole_machine_instance_init(Object *obj)
{
    TTBlackholeMachine *m = TT_BLACKHOLE_MACHINE(obj);

    m->board = g_strdup("p150");
    m->boot.layout = g_strdup(TT_DEFAULT_FW_LAYOUT);
    m->boot.bank_table = -1;
    m->boot.l2v_table = -1;
    m->boot.go_msg = -1;
    m->boot.num_dram_banks = -1;
    m->boot.num_l1_banks = -1;
    m->spin_park = true;
    m->tile_threads = true;
    m->prealloc_l1 = true;
    m->tb_share = true;
}

static bool tt_get_spin_park(Object *obj, Error **errp)
{
    return TT_BLACKHOLE_MACHINE(obj)->spin_park;
}

static void tt_set_spin_park(Object *obj, bool v, Error **errp)
{
    TT_BLACKHOLE_MACHINE(obj)->spin_park = v;
}

static bool tt_get_tile_threads(Object *obj, Error **errp)
{
    return TT_BLACKHOLE_MACHINE(obj)->tile_threads;
}

static void tt_set_tile_threads(Object *obj, bool v, Error **errp)
{
    TT_BLACKHOLE_MACHINE(obj)->tile_threads = v;
}

static bool tt_get_prealloc_l1(Object *obj, Error **errp)
{
    return TT_BLACKHOLE_MACHINE(obj)->prealloc_l1;
}

static void tt_set_prealloc_l1(Object *obj, bool v, Error **errp)
{
    TT_BLACKHOLE_MACHINE(obj)->prealloc_l1 = v;
}

static bool tt_get_tb_share(Object *obj, Error **errp)
{
    return TT_BLACKHOLE_MACHINE(obj)->tb_share;
}

static void tt_set_tb_share(Object *obj, bool v, Error **errp)
{
    TT_BLACKHOLE_MACHINE(obj)->tb_share = v;
}

static bool tt_get_deterministic(Object *obj, Error **errp)
{
    return TT_BLACKHOLE_MACHINE(obj)->deterministic;
}

/*
 * Machine options are applied before the accelerator is configured, so
 * deterministic=on can still ask for instruction counting, which runs
 * every core in one thread in a fixed order (no MTTCG) and makes virtual
 * time a function of instructions executed.  An explicit -icount wins.
 */
static void tt_set_deterministic(Object *obj, bool v, Error **errp)
{
    QemuOptsList *icount = qemu_find_opts("icount");

    TT_BLACKHOLE_MACHINE(obj)->deterministic = v;
    if (v && QTAILQ_EMPTY(&icount->head) &&
        !qemu_opts_parse_noisily(icount, "shift=0,align=off,sleep=off",
                                 false)) {
        error_setg(errp, "deterministic=on: cannot enable -icount");
    }
}

static void blackhole_machine_class_init(ObjectClass *oc, const void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);
    g_autofree char *names = blackhole_fw_layout_names();
    g_autofree char *layout_desc = g_strdup_printf(
        "L1 layout of the firmware's tt-metal release: %s (default %s)",
        names, TT_DEFAULT_FW_LAYOUT);

    mc->desc = "Tenstorrent Blackhole (P150 or P100A board)";
    mc->init = blackhole_machine_init;
    /* every Tensix tile's five cores, every Ethernet tile's two */
    mc->max_cpus = TT_MAX_CORES + TT_ETH_CHANNELS * TT_ERISC_CORES;
    mc->min_cpus = TT_CORES_PER_TILE;
    mc->default_cpus = mc->max_cpus;
    mc->default_ram_size = 0;
    mc->no_parallel = 1;
    mc->no_floppy = 1;
    mc->no_cdrom = 1;

    object_class_property_add_str(oc, "board", tt_get_board, tt_set_board);
    tt_add_eth_netdev_props(oc, tt_get_eth, tt_set_eth);
    object_class_property_add_str(oc, "pcie-endpoint", tt_get_pcie_endpoint,
                                  tt_set_pcie_endpoint);
    object_class_property_set_description(oc, "pcie-endpoint",
        "The PCIe endpoint the host reaches the chip through: 0 (PCIe0 at "
        "(2, 0)) or 1 (PCIe1 at (11, 0)); default: the board's (a P300's "
        "second chip uses 1)");
    object_class_property_add_str(oc, "erisc-firmware", tt_get_erisc_firmware,
                                  tt_set_erisc_firmware);
    object_class_property_set_description(oc, "erisc-firmware",
        "An RV32 ELF image loaded into every Ethernet tile's L1 at reset; "
        "E0 starts at its entry (E1 stays held)");
    object_class_property_add(oc, "asic-location", "uint8",
                              tt_get_asic_location, tt_set_asic_location,
                              NULL, NULL);
    object_class_property_set_description(oc, "asic-location",
        "The chip's position on its board or in its cluster (0-31), as its "
        "Ethernet links and ARC telemetry report it");
    object_class_property_add(oc, "board-id", "uint64", tt_visit_u64,
                              tt_visit_u64, NULL,
                              (void *)offsetof(TTBlackholeMachine, board_id));
    object_class_property_set_description(oc, "board-id",
        "The board id ARC telemetry and the Ethernet links report; bits "
        "55:36 are the UPI tt-umd takes the board type from (default: the "
        "board's UPI, serial number 1)");
    object_class_property_add(oc, "asic-id", "uint64", tt_visit_u64,
                              tt_visit_u64, NULL,
                              (void *)offsetof(TTBlackholeMachine, asic_id));
    object_class_property_set_description(oc, "asic-id",
        "The ASIC id ARC telemetry and the Ethernet links report (default "
        "1 + asic-location)");
    object_class_property_set_description(oc, "board",
        "Board: p150 (140 Tensix tiles, 8 GDDR banks; default) or p100a "
        "(120 tiles, 7 banks)");
    object_class_property_add_str(oc, "harvested-tensix-cols",
                                  tt_get_harvested_cols,
                                  tt_set_harvested_cols);
    object_class_property_set_description(oc, "harvested-tensix-cols",
        "Physical NOC0 x of disabled Tensix columns, ':'-separated, or "
        "none (default: none on p150, 15:16 on p100a)");
    object_class_property_add_str(oc, "harvested-dram-bank",
                                  tt_get_harvested_dram_bank,
                                  tt_set_harvested_dram_bank);
    object_class_property_set_description(oc, "harvested-dram-bank",
        "Disabled physical GDDR bank 0-7 (p100a only; default 7)");
    object_class_property_add_bool(oc, "spin-park", tt_get_spin_park,
                                   tt_set_spin_park);
    object_class_property_set_description(oc, "spin-park",
        "Halt cores that spin on memory until something they read may have "
        "changed (default on)");
    object_class_property_add_bool(oc, "tile-threads", tt_get_tile_threads,
                                   tt_set_tile_threads);
    object_class_property_set_description(oc, "tile-threads",
        "Run the five cores of each Tensix tile on one host thread, one core "
        "at a time, so that their hand-offs cost no host thread switch; "
        "off: a thread per core (default on; no effect with "
        "deterministic=on)");
    object_class_property_add_bool(oc, "prealloc-l1", tt_get_prealloc_l1,
                                   tt_set_prealloc_l1);
    object_class_property_set_description(oc, "prealloc-l1",
        "Allocate every tile's L1 (1.5 MiB each) while the machine starts, "
        "as a host that maps L1 (libttsim) would otherwise pay a page "
        "fault per 4 KiB it first writes (default on)");
    object_class_property_add_bool(oc, "tb-share", tt_get_tb_share,
                                   tt_set_tb_share);
    object_class_property_set_description(oc, "tb-share",
        "Translate code once for all tiles whose L1 holds the same bytes "
        "on a page, instead of once per tile (default on)");
    object_class_property_add_bool(oc, "deterministic", tt_get_deterministic,
                                   tt_set_deterministic);
    object_class_property_set_description(oc, "deterministic",
        "Run every core in one thread in a fixed order with instruction "
        "counting (-icount shift=0,sleep=off), so runs repeat exactly; "
        "slower (default off)");
    object_class_property_add_str(oc, "fw-layout", tt_get_fw_layout,
                                  tt_set_fw_layout);
    object_class_property_set_description(oc, "fw-layout", layout_desc);
    object_class_property_add_str(oc, "fw-ldm-images", tt_get_fw_ldm_images,
                                  tt_set_fw_ldm_images);
    object_class_property_set_description(oc, "fw-ldm-images",
        "Override: L1 scratch addresses of the five LDM init images "
        "(brisc:ncrisc:trisc0:trisc1:trisc2)");
    object_class_property_add(oc, "hang-report", "int", tt_get_i64,
                              tt_set_hang_report, NULL,
                              (void *)offsetof(TTBlackholeMachine,
                                               hang_report));
    object_class_property_set_description(oc, "hang-report",
        "Print the chip summary to stderr when no core has run for this "
        "many seconds while a core polls, waits or a launch is pending "
        "(default 0: off)");
    tt_add_override(oc, "fw-bank-table",
                    offsetof(TTBlackholeMachine, boot.bank_table),
                    "Override: L1 address of the bank-to-NOC table");
    tt_add_override(oc, "fw-l2v-table",
                    offsetof(TTBlackholeMachine, boot.l2v_table),
                    "Override: L1 address of the logical-to-virtual "
                    "coordinate tables (0: none)");
    tt_add_override(oc, "fw-go-msg",
                    offsetof(TTBlackholeMachine, boot.go_msg),
                    "Override: L1 address of go_messages[0]");
    tt_add_override(oc, "fw-num-dram-banks",
                    offsetof(TTBlackholeMachine, boot.num_dram_banks),
                    "Override: NUM_DRAM_BANKS the firmware was built with");
    tt_add_override(oc, "fw-num-l1-banks",
                    offsetof(TTBlackholeMachine, boot.num_l1_banks),
                    "Override: NUM_L1_BANKS the firmware was built with");
}

static const TypeInfo blackhole_machine_types[] = {
    {
        .name = TYPE_TT_BLACKHOLE_MACHINE,
        .parent = TYPE_MACHINE,
        .instance_size = sizeof(TTBlackholeMachine),
        .instance_init = blackhole_machine_instance_init,
        .class_init = blackhole_machine_class_init,
    },
};

DEFINE_TYPES(blackhole_machine_types)
