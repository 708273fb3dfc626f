/*
 * Tenstorrent Blackhole GDDR6 bank: 4 GiB of RAM (as ttsim src/config.h
 * models it) behind three NOC ports that all alias the same store.  The RAM
 * is allocated lazily by the host kernel, so untouched banks cost no memory.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_DRAM_H
#define HW_TENSTORRENT_DRAM_H

#include "hw/qdev-core.h"
#include "system/memory.h"
#include "qom/object.h"
#include "hw/tenstorrent/tt-grid.h"     /* generated from data/grid.yaml */

#define TYPE_TT_DRAM_BANK "tt-dram-bank"
OBJECT_DECLARE_SIMPLE_TYPE(TTDramBank, TT_DRAM_BANK)

#define TT_DRAM_BANK_SIZE   TT_GRID_DRAM_BANK_SIZE

struct TTDramBank {
    DeviceState parent_obj;

    MemoryRegion ram;
    AddressSpace as;            /* what NOC ports and debug access use */

    uint8_t bank;               /* physical bank 0-7 */
    uint64_t size;
    int32_t ram_fd;             /* -1: anonymous RAM; else @ram's file */
    uint64_t ram_offset;        /* @ram's offset in @ram_fd */
};

#endif
