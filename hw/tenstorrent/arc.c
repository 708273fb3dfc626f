/*
 * Tenstorrent Blackhole ARC tile: what tt-kmd, tt-umd and blackhole-py read
 * and send over the NOC (tt-kmd blackhole.c, telemetry.h, msgqueue.h; tt-umd
 * types/telemetry.hpp, arc/blackhole_arc_message_queue.cpp).
 *
 * CSM holds the telemetry table, the telemetry values and the message
 * queues, at the offsets ttsim uses (src/tile.cpp); the reset unit's scratch
 * registers point at them and report the boot as done.  A doorbell (a write
 * of ARC_MISC_CNTL bit 16, tt-umd and blackhole-py; or any write to the MSI
 * FIFO, tt-kmd) answers every pending request at once.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/log.h"
#include "qemu/lockable.h"
#include "qemu/bswap.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/resettable.h"
#include "migration/vmstate.h"
#include "hw/tenstorrent/arc.h"
#include "hw/tenstorrent/ttlink.h"
#include "trace.h"

/* CSM layout (offsets from TT_ARC_CSM_BASE) */
#define CSM_TELEMETRY_TABLE     0x100
#define CSM_TELEMETRY_VALUES    0x200
#define CSM_MSGQ_CONTROL        0x300
#define CSM_MSGQ_BASE           0x400

/* Message queues (10): 4 queues of 4 entries, 8 words per entry */
#define MSGQ_NUM        4
#define MSGQ_ENTRIES    4
#define MSGQ_WORDS      8
#define MSGQ_STRIDE     (32 + 2 * MSGQ_ENTRIES * MSGQ_WORDS * 4)

/* SCRATCH_RAM_2: boot done, ready for messages ((v & 7) == 5, 9.2) */
#define ARC_BOOT_STATUS_READY   5

/* Telemetry tags (tt-umd types/telemetry.hpp, 9.3) */
enum {
    TAG_BOARD_ID_HIGH = 1, TAG_BOARD_ID_LOW = 2, TAG_ASIC_ID = 3,
    TAG_HARVESTING_STATE = 4, TAG_VCORE = 6, TAG_TDP = 7, TAG_TDC = 8,
    TAG_ASIC_TEMPERATURE = 11, TAG_BOARD_TEMPERATURE = 13, TAG_AICLK = 14,
    TAG_AXICLK = 15, TAG_ARCCLK = 16, TAG_ETH_LIVE_STATUS = 21,
    TAG_GDDR_STATUS = 22, TAG_ETH_FW_VERSION = 24,
    TAG_FLASH_BUNDLE_VERSION = 28,
    TAG_TIMER_HEARTBEAT = 32, TAG_ENABLED_TENSIX_COL = 34,
    TAG_ENABLED_ETH = 35, TAG_ENABLED_GDDR = 36, TAG_ENABLED_L2CPU = 37,
    TAG_PCIE_USAGE = 38, TAG_NOC_TRANSLATION = 40, TAG_ASIC_LOCATION = 52,
};

/* Message codes answered with success (10) */
enum {
    MSG_POWER = 0x21, MSG_AICLK_GO_BUSY = 0x52, MSG_AICLK_GO_LONG_IDLE = 0x54,
    MSG_TRIGGER_RESET = 0x56, MSG_HARVESTING = 0x57, MSG_DRAM_TRAINED = 0x58,
    MSG_TEST = 0x90, MSG_PCIE_DMA_H2D = 0x9b, MSG_PCIE_DMA_D2H = 0x9c,
    MSG_ASIC_STATE0 = 0xa0, MSG_ASIC_STATE3 = 0xa3, MSG_TOGGLE_GDDR = 0xb6,
    MSG_SET_WDT_TIMEOUT = 0xc1,
};

#define MSG_STATUS_UNKNOWN  0xff

/* Clocks in MHz: AICLK busy/idle, AXICLK, ARCCLK */
#define AICLK_BUSY_MHZ  1350
#define AICLK_IDLE_MHZ  800

static const uint8_t tt_arc_tags[] = {
    TAG_BOARD_ID_HIGH, TAG_BOARD_ID_LOW, TAG_ASIC_ID, TAG_HARVESTING_STATE,
    TAG_VCORE, TAG_TDP, TAG_TDC, TAG_ASIC_TEMPERATURE, TAG_BOARD_TEMPERATURE,
    TAG_AICLK, TAG_AXICLK, TAG_ARCCLK, TAG_ETH_LIVE_STATUS, TAG_GDDR_STATUS,
    TAG_ETH_FW_VERSION, TAG_FLASH_BUNDLE_VERSION, TAG_TIMER_HEARTBEAT,
    TAG_ENABLED_TENSIX_COL, TAG_ENABLED_ETH, TAG_ENABLED_GDDR, TAG_ENABLED_L2CPU, TAG_PCIE_USAGE,
    TAG_NOC_TRANSLATION, TAG_ASIC_LOCATION,
};

static uint32_t *tt_arc_csm(TTArc *s, uint32_t off)
{
    return (uint32_t *)((uint8_t *)memory_region_get_ram_ptr(&s->csm) + off);
}

static uint32_t tt_arc_gddr_status(uint32_t enabled)
{
    uint32_t v = 0;

    for (int b = 0; b < 8; b++) {
        v |= (enabled >> b & 1) << (2 * b);     /* 0b01: trained */
    }
    return v;
}

static uint32_t tt_arc_tag_value(TTArc *s, int tag)
{
    switch (tag) {
    case TAG_BOARD_ID_HIGH:     /* board UPI = (board_id >> 36) & 0xfffff */
        return s->board_id >> 32;
    case TAG_BOARD_ID_LOW:
        return s->board_id;
    case TAG_ASIC_ID:
        return s->asic_id;
    case TAG_ASIC_LOCATION:
        return s->asic_location;
    case TAG_VCORE:
        return 800;             /* mV */
    case TAG_TDP:
        return 50;              /* W */
    case TAG_TDC:
        return 60;              /* A */
    case TAG_ASIC_TEMPERATURE:
    case TAG_BOARD_TEMPERATURE:
        return 45 << 16;        /* 16.16 degrees C */
    case TAG_AICLK:
        return s->aiclk_mhz;
    case TAG_AXICLK:
        return 960;
    case TAG_ARCCLK:
        return 800;
    case TAG_GDDR_STATUS:
        return tt_arc_gddr_status(s->enabled_gddr);
    case TAG_ETH_LIVE_STATUS:
        /*
         * [15:0] a channel's base firmware heartbeat is alive (the model's
         * is on every enabled channel), [31:16] retrains (none)
         */
        return s->enabled_eth & 0xffff;
    case TAG_ETH_FW_VERSION:    /* what the Ethernet tiles' results say */
        return s->enabled_eth ? TT_ETH_FW_MAJOR << 16 |
                                TT_ETH_FW_MINOR << 8 | TT_ETH_FW_PATCH : 0;
    case TAG_FLASH_BUNDLE_VERSION:
        return 0x12050000;      /* 18.5.0, as ttsim's model reports */
    case TAG_ENABLED_TENSIX_COL:
        return s->enabled_tensix_cols;
    case TAG_ENABLED_ETH:
        return s->enabled_eth;
    case TAG_ENABLED_GDDR:
        return s->enabled_gddr;
    case TAG_PCIE_USAGE:        /* pcie0 [1:0], pcie1 [3:2]; 1: endpoint */
        return 1 << (2 * s->pcie);
    case TAG_NOC_TRANSLATION:
        return 1;
    default:
        return 0;
    }
}

static void tt_arc_write_telemetry(TTArc *s)
{
    uint32_t *table = tt_arc_csm(s, CSM_TELEMETRY_TABLE);
    uint32_t *values = tt_arc_csm(s, CSM_TELEMETRY_VALUES);

    table[0] = cpu_to_le32(1 << 16);            /* version 1.0 */
    table[1] = cpu_to_le32(ARRAY_SIZE(tt_arc_tags));
    for (int i = 0; i < ARRAY_SIZE(tt_arc_tags); i++) {
        table[2 + i] = cpu_to_le32(tt_arc_tags[i] | i << 16);
        values[i] = cpu_to_le32(tt_arc_tag_value(s, tt_arc_tags[i]));
    }
}

/* One request: returns response word 0 (status [7:0], value [31:16]) */
static uint32_t tt_arc_message(TTArc *s, int q, const uint32_t *req)
{
    uint32_t code = req[0] & 0xff;

    trace_tt_arc_message(q, req[0], req[1], req[2]);
    switch (code) {
    case MSG_AICLK_GO_BUSY:
    case MSG_AICLK_GO_LONG_IDLE:
        s->aiclk_mhz = code == MSG_AICLK_GO_BUSY ? AICLK_BUSY_MHZ
                                                 : AICLK_IDLE_MHZ;
        tt_arc_write_telemetry(s);
        return 0;
    case MSG_POWER: case MSG_TRIGGER_RESET: case MSG_HARVESTING:
    case MSG_DRAM_TRAINED: case MSG_TEST: case MSG_PCIE_DMA_H2D:
    case MSG_PCIE_DMA_D2H: case MSG_ASIC_STATE0: case MSG_ASIC_STATE3:
    case MSG_TOGGLE_GDDR: case MSG_SET_WDT_TIMEOUT:
        return 0;
    default:
        qemu_log_mask(LOG_UNIMP, "tt-arc: message 0x%x on queue %d is not "
                      "known; answered with status 0x%x\n", code, q,
                      MSG_STATUS_UNKNOWN);
        return MSG_STATUS_UNKNOWN;
    }
}

/*
 * Answer every pending request of queue @q.  Header: +0x00 request write
 * pointer, +0x04 response read pointer, +0x10 request read pointer, +0x14
 * response write pointer, all counting modulo 2N (10).  Garbage pointers
 * from the host cannot make this loop run away or index outside the queue.
 */
static void tt_arc_service_queue(TTArc *s, int q)
{
    uint32_t base = CSM_MSGQ_BASE + q * MSGQ_STRIDE;
    uint32_t *hdr = tt_arc_csm(s, base);
    uint32_t *slots = tt_arc_csm(s, base + 32);
    uint32_t wrap = 2 * MSGQ_ENTRIES;

    for (int n = 0; n < wrap; n++) {
        uint32_t rd = le32_to_cpu(hdr[4]) % wrap, wr = le32_to_cpu(hdr[0]);
        uint32_t rsp = le32_to_cpu(hdr[5]) % wrap, req[MSGQ_WORDS];
        uint32_t *out;

        if (rd == wr % wrap) {
            break;
        }
        for (int i = 0; i < MSGQ_WORDS; i++) {
            req[i] = le32_to_cpu(slots[(rd % MSGQ_ENTRIES) * MSGQ_WORDS + i]);
        }
        out = &slots[(MSGQ_ENTRIES + rsp % MSGQ_ENTRIES) * MSGQ_WORDS];
        memset(out, 0, MSGQ_WORDS * 4);
        out[0] = cpu_to_le32(tt_arc_message(s, q, req));
        hdr[5] = cpu_to_le32((rsp + 1) % wrap);
        hdr[4] = cpu_to_le32((rd + 1) % wrap);
    }
}

static void tt_arc_doorbell(TTArc *s)
{
    QEMU_LOCK_GUARD(&s->lock);
    for (int q = 0; q < MSGQ_NUM; q++) {
        tt_arc_service_queue(s, q);
    }
}

static uint64_t tt_arc_reset_read(void *opaque, hwaddr addr, unsigned size)
{
    TTArc *s = opaque;

    return qatomic_read(&s->reset_regs[addr / 4]);
}

/* The reset unit: plain registers, with the ARC_MISC_CNTL doorbell */
static void tt_arc_reset_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    TTArc *s = opaque;

    trace_tt_arc_reset_write(addr, val);
    if (addr == TT_ARC_MISC_CNTL && (val & TT_ARC_MISC_CNTL_IRQ0)) {
        tt_arc_doorbell(s);
        val &= ~TT_ARC_MISC_CNTL_IRQ0;      /* the interrupt is taken */
    }
    qatomic_set(&s->reset_regs[addr / 4], val);
}

static const MemoryRegionOps tt_arc_reset_ops = {
    .read = tt_arc_reset_read,
    .write = tt_arc_reset_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

static uint64_t tt_arc_msi_read(void *opaque, hwaddr addr, unsigned size)
{
    return 0;
}

static void tt_arc_msi_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    tt_arc_doorbell(opaque);
}

static const MemoryRegionOps tt_arc_msi_ops = {
    .read = tt_arc_msi_read,
    .write = tt_arc_msi_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

static uint64_t tt_arc_none_read(void *opaque, hwaddr addr, unsigned size)
{
    qemu_log_mask(LOG_UNIMP, "tt-arc: read of unmodelled NOC address "
                  "0x%" HWADDR_PRIx "\n", addr);
    return 0;
}

static void tt_arc_none_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    qemu_log_mask(LOG_UNIMP, "tt-arc: write of unmodelled NOC address "
                  "0x%" HWADDR_PRIx " ignored\n", addr);
}

static const MemoryRegionOps tt_arc_none_ops = {
    .read = tt_arc_none_read,
    .write = tt_arc_none_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static void tt_arc_reset_hold(Object *obj, ResetType type)
{
    TTArc *s = TT_ARC(obj);
    uint32_t *ctl = tt_arc_csm(s, CSM_MSGQ_CONTROL);

    memset(memory_region_get_ram_ptr(&s->csm), 0, TT_ARC_CSM_SIZE);
    memset(s->reset_regs, 0, sizeof(s->reset_regs));
    s->aiclk_mhz = AICLK_IDLE_MHZ;
    tt_arc_write_telemetry(s);
    ctl[0] = cpu_to_le32(TT_ARC_CSM_BASE + CSM_MSGQ_BASE);
    ctl[1] = cpu_to_le32(MSGQ_ENTRIES | MSGQ_NUM << 8);
    s->reset_regs[TT_ARC_SCRATCH_RAM(2) / 4] = ARC_BOOT_STATUS_READY;
    s->reset_regs[TT_ARC_SCRATCH_RAM(11) / 4] =
        TT_ARC_CSM_BASE + CSM_MSGQ_CONTROL;
    s->reset_regs[TT_ARC_SCRATCH_RAM(12) / 4] =
        TT_ARC_CSM_BASE + CSM_TELEMETRY_VALUES;
    s->reset_regs[TT_ARC_SCRATCH_RAM(13) / 4] =
        TT_ARC_CSM_BASE + CSM_TELEMETRY_TABLE;
}

static void tt_arc_realize(DeviceState *dev, Error **errp)
{
    TTArc *s = TT_ARC(dev);
    Object *o = OBJECT(s);

    qemu_mutex_init(&s->lock);
    memory_region_init(&s->root, o, "tt-arc", UINT64_MAX);
    memory_region_init_io(&s->background, o, &tt_arc_none_ops, s,
                          "tt-arc-unmodelled", UINT64_MAX);
    memory_region_add_subregion_overlap(&s->root, 0, &s->background, -1);
    if (!memory_region_init_ram(&s->csm, o, "tt-arc-csm", TT_ARC_CSM_SIZE,
                                errp)) {
        return;
    }
    memory_region_add_subregion(&s->root, TT_ARC_CSM_BASE, &s->csm);
    memory_region_init_io(&s->reset_unit, o, &tt_arc_reset_ops, s,
                          "tt-arc-reset-unit", TT_ARC_RESET_SIZE);
    memory_region_add_subregion(&s->root, TT_ARC_RESET_BASE, &s->reset_unit);
    memory_region_init_io(&s->msi_fifo, o, &tt_arc_msi_ops, s,
                          "tt-arc-msi-fifo", TT_ARC_MSI_SIZE);
    memory_region_add_subregion(&s->root, TT_ARC_MSI_FIFO, &s->msi_fifo);
    address_space_init(&s->as, &s->root, "tt-arc");
}

static const VMStateDescription vmstate_tt_arc = {
    .name = TYPE_TT_ARC,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(reset_regs, TTArc, TT_ARC_RESET_SIZE / 4),
        VMSTATE_UINT32(aiclk_mhz, TTArc),
        VMSTATE_END_OF_LIST()
    },
};

static const Property tt_arc_props[] = {
    /* a P150's: UPI 0x40 (tt-umd board_upi_map), serial 1 */
    DEFINE_PROP_UINT64("board-id", TTArc, board_id, 0x40ull << 36 | 1),
    DEFINE_PROP_UINT64("asic-id", TTArc, asic_id, 1),
    DEFINE_PROP_UINT8("asic-location", TTArc, asic_location, 0),
    DEFINE_PROP_UINT8("pcie", TTArc, pcie, 0),
    DEFINE_PROP_UINT32("enabled-tensix-cols", TTArc, enabled_tensix_cols,
                       0x3fff),
    DEFINE_PROP_UINT32("enabled-gddr", TTArc, enabled_gddr, 0xff),
    DEFINE_PROP_UINT32("enabled-eth", TTArc, enabled_eth, 0x0fff),
};

static void tt_arc_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole ARC tile (host-visible state)";
    dc->realize = tt_arc_realize;
    dc->vmsd = &vmstate_tt_arc;
    dc->user_creatable = false;
    rc->phases.hold = tt_arc_reset_hold;
    device_class_set_props(dc, tt_arc_props);
}

static const TypeInfo tt_arc_types[] = {
    {
        .name = TYPE_TT_ARC,
        .parent = TYPE_SYS_BUS_DEVICE,
        .instance_size = sizeof(TTArc),
        .class_init = tt_arc_class_init,
    },
};

DEFINE_TYPES(tt_arc_types)
