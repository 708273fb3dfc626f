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

/* tt-metal blackhole/noc/noc_overlay_parameters.h, stream_interface.h */
#define TT_STREAMS                  64
#define TT_STREAM_STRIDE            0x1000
#define TT_STREAM_REGS              304     /* indexes 0..303 stored */
#define TT_STREAM_BUF_START         8       /* CB tiles_acked */
#define TT_STREAM_BUF_SIZE          10      /* CB tiles_received */
#define TT_STREAM_SPACE_UPDATE      270     /* write-only */
#define TT_STREAM_SPACE_AVAILABLE   297     /* read-only */
#define TT_STREAM_WORDS_FREE_SHIFT  6       /* REMOTE_DEST_BUF_WORDS_FREE_INC */
#define TT_STREAM_WORDS_MASK        0x1ffffu
#define TT_STREAM_MSG_SHIFT         23      /* ..._MSG_INFO_..._FREE_INC */
#define TT_STREAM_MSG_MASK          0x1ffu
#define TT_STREAM_AVAIL_MSG_SHIFT   17

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
