/*
 * Tenstorrent Blackhole GDDR6 bank.
 *
 * One bank is one RAM region; its three NOC ports are three coordinates in
 * the grid that resolve to the same bank (tt-umd soc descriptor).  The RAM
 * is a piece of the chip's shared memory file (ram-fd, ram-offset: see
 * blackhole-soc.c), or anonymous memory without one; either way the host
 * kernel allocates pages on first touch.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/cutils.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "migration/qemu-file-types.h"
#include "qemu/error-report.h"
#include "system/ramblock.h"
#include "hw/tenstorrent/dram.h"

static void tt_dram_realize(DeviceState *dev, Error **errp)
{
    TTDramBank *s = TT_DRAM_BANK(dev);
    g_autofree char *name = g_strdup_printf("gddr%d", s->bank);

    if (s->bank >= 8 || !s->size) {
        error_setg(errp, "tt-dram-bank: bank must be 0-7 and size non-zero");
        return;
    }
    if (s->ram_fd < 0) {
        if (!memory_region_init_ram_nomigrate(&s->ram, OBJECT(s), name,
                                              s->size, errp)) {
            return;
        }
    } else {
        /* the RAM block owns (and closes) its descriptor: give it a copy */
        int fd = qemu_dup(s->ram_fd);

        if (fd < 0 ||
            !memory_region_init_ram_from_fd(&s->ram, OBJECT(s), name, s->size,
                                            RAM_SHARED, fd, s->ram_offset,
                                            errp)) {
            if (fd < 0) {
                error_setg_errno(errp, errno, "tt-dram-bank: dup");
            } else {
                close(fd);
            }
            return;
        }
    }
    address_space_init(&s->as, &s->ram, name);
}

/*
 * Migration.  A bank is 4 GiB of mostly untouched RAM (a hole in the
 * chip's memory file until written): migrated as a RAM block, every page
 * would be read, and reading a hole of a shared memory file allocates it.
 * The bank is therefore not a migratable RAM block; its vmstate carries
 * the pages that hold data instead, found with SEEK_DATA/SEEK_HOLE on the
 * file (anonymous RAM: every page is looked at), as runs of non-zero
 * pages: {offset, length, bytes}..., then TT_DRAM_MIG_END.  Loading
 * empties the bank first, so the pages not in the stream read zero.
 */
#define TT_DRAM_MIG_PAGE    4096u
#define TT_DRAM_MIG_END     UINT64_MAX

/* The next extent of @s that may hold data at or after @pos, or false */
static bool tt_dram_next_data(TTDramBank *s, uint64_t pos, uint64_t *start,
                              uint64_t *end)
{
    int fd = memory_region_get_fd(&s->ram);
    off_t d, h;

    if (fd < 0) {
        *start = pos;
        *end = s->size;
        return pos < s->size;
    }
    d = lseek(fd, s->ram_offset + pos, SEEK_DATA);
    if (d < 0 || d >= s->ram_offset + s->size) {
        return false;           /* ENXIO: only a hole follows */
    }
    h = lseek(fd, d, SEEK_HOLE);
    *start = QEMU_ALIGN_DOWN(d - s->ram_offset, TT_DRAM_MIG_PAGE);
    *end = h < 0 ? s->size : MIN(QEMU_ALIGN_UP(h - s->ram_offset,
                                               TT_DRAM_MIG_PAGE), s->size);
    return true;
}

static int tt_dram_put(QEMUFile *f, void *pv, size_t size,
                       const VMStateField *field, JSONWriter *vmdesc)
{
    TTDramBank *s = pv;
    uint8_t *ram = memory_region_get_ram_ptr(&s->ram);
    uint64_t pos = 0, start, end;

    while (tt_dram_next_data(s, pos, &start, &end)) {
        for (uint64_t p = start; p < end; ) {
            uint64_t run = p;

            while (run < end &&
                   !buffer_is_zero(ram + run, TT_DRAM_MIG_PAGE)) {
                run += TT_DRAM_MIG_PAGE;
            }
            if (run > p) {
                qemu_put_be64(f, p);
                qemu_put_be64(f, run - p);
                qemu_put_buffer(f, ram + p, run - p);
                p = run;
            } else {
                p += TT_DRAM_MIG_PAGE;
            }
        }
        pos = end;
    }
    qemu_put_be64(f, TT_DRAM_MIG_END);
    return 0;
}

static int tt_dram_get(QEMUFile *f, void *pv, size_t size,
                       const VMStateField *field)
{
    TTDramBank *s = pv;
    uint8_t *ram = memory_region_get_ram_ptr(&s->ram);
    uint64_t off, len;
    int ret;

    ret = ram_block_discard_range(s->ram.ram_block, 0, s->size);
    if (ret) {
        error_report("tt-dram-bank %d: cannot empty the bank before loading "
                     "it: %s", s->bank, strerror(-ret));
        return ret;
    }
    while ((off = qemu_get_be64(f)) != TT_DRAM_MIG_END) {
        len = qemu_get_be64(f);
        ret = qemu_file_get_error(f);
        if (ret) {
            return ret;
        }
        if (off > s->size || len > s->size - off) {
            error_report("tt-dram-bank %d: migration stream has data at "
                         "0x%" PRIx64 " + 0x%" PRIx64 ", past the bank's "
                         "0x%" PRIx64 " bytes", s->bank, off, len, s->size);
            return -EINVAL;
        }
        if (qemu_get_buffer(f, ram + off, len) != len) {
            return qemu_file_get_error(f) ?: -EIO;
        }
    }
    return qemu_file_get_error(f);
}

static const VMStateInfo tt_dram_info = {
    .name = "tt-dram-pages",
    .get = tt_dram_get,
    .put = tt_dram_put,
};

static const VMStateDescription vmstate_tt_dram = {
    .name = TYPE_TT_DRAM_BANK,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        {
            .name = "pages",
            .info = &tt_dram_info,
            .flags = VMS_SINGLE,
            .offset = 0,
        },
        VMSTATE_END_OF_LIST()
    },
};

static const Property tt_dram_props[] = {
    DEFINE_PROP_UINT8("bank", TTDramBank, bank, 0),
    DEFINE_PROP_UINT64("size", TTDramBank, size, TT_DRAM_BANK_SIZE),
    DEFINE_PROP_INT32("ram-fd", TTDramBank, ram_fd, -1),
    DEFINE_PROP_UINT64("ram-offset", TTDramBank, ram_offset, 0),
};

static void tt_dram_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole GDDR6 bank";
    dc->realize = tt_dram_realize;
    dc->vmsd = &vmstate_tt_dram;
    dc->user_creatable = false;
    device_class_set_props(dc, tt_dram_props);
}

static const TypeInfo tt_dram_types[] = {
    {
        .name = TYPE_TT_DRAM_BANK,
        .parent = TYPE_DEVICE,
        .instance_size = sizeof(TTDramBank),
        .class_init = tt_dram_class_init,
    },
};

DEFINE_TYPES(tt_dram_types)
