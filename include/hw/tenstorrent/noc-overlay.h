/*
 * Tenstorrent Blackhole NOC overlay stream registers: 64 streams x 0x1000
 * at 0xFFB40000.  tt-metal uses them as circular-buffer counters (regs 8
 * and 10), a sync register (reg 31) and the dispatch completion pair
 * (write-only update reg 270 adding into read-only reg 297).
 *
 * Threads: the tile's cores and NOC traffic from other tiles access it
 * concurrently; registers are read and written with atomics, the reg 270
 * update is a compare-and-swap on reg 297.  No lock.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_NOC_OVERLAY_H
#define HW_TENSTORRENT_NOC_OVERLAY_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_TT_NOC_OVERLAY "tt-noc-overlay"
OBJECT_DECLARE_SIMPLE_TYPE(TTNocOverlay, TT_NOC_OVERLAY)

#include "hw/tenstorrent/noc-overlay-regs.h"

struct TTNocOverlay {
    SysBusDevice parent_obj;

    MemoryRegion mmio;
    uint32_t reg[TT_STREAMS][TT_STREAM_REGS];
    uint8_t tile_x, tile_y;
    /* link "spin": the tile's parked cores, to wake */
    struct TTSpinTile *spin;
    /* GPIO out "stream-changed": pulsed after a register write */
    qemu_irq stream_changed;
};

#endif
