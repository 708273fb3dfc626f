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
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
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
        if (!memory_region_init_ram(&s->ram, OBJECT(s), name, s->size,
                                    errp)) {
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
        vmstate_register_ram(&s->ram, dev);
    }
    address_space_init(&s->as, &s->ram, name);
}

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
