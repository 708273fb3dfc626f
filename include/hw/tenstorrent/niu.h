/*
 * Tenstorrent Blackhole NOC interface unit (NIU): one per tile per NOC, at
 * 0xFFB20000 (NOC0) and 0xFFB30000 (NOC1).
 *
 * The interface unit: the four command buffers, the NIU's identity,
 * configuration and counter registers (offsets in niu-regs.h).  A write of
 * NOC_CMD_CTRL latches the buffer's command, counts it on this side and
 * hands the transaction to the fabric (noc.c), which delivers it and
 * counts at the receiving end.  Threads: any core of the tile and the
 * host; @lock serialises commands (and guards @buf), the registers are
 * read and written with atomics.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_NIU_H
#define HW_TENSTORRENT_NIU_H

#include "hw/sysbus.h"
#include "hw/registerfields.h"
#include "hw/tenstorrent/niu-regs.h"
#include "hw/tenstorrent/grid.h"
#include "hw/tenstorrent/noc.h"
#include "hw/tenstorrent/tt-tile-map.h"     /* generated */
#include "qom/object.h"

#define TYPE_TT_NIU "tt-niu"
OBJECT_DECLARE_SIMPLE_TYPE(TTNiu, TT_NIU)

struct TTNiu {
    SysBusDevice parent_obj;

    MemoryRegion mmio;
    QemuMutex lock;             /* command issue; counters are atomics */
    uint8_t buf[TT_NOC_MAX_PACKET];     /* data in flight, under @lock */

    uint32_t cmd[TT_NIU_CMD_BUFS][TT_NIU_CMD_BUF_REGS];
    TTNocPort port;             /* configuration and counters */

    /* links */
    TTNoc *fabric;              /* "fabric": the NOC it issues into */
    struct TTSpinTile *spin;    /* "spin": the tile's parked cores, or none */

    /* properties */
    uint8_t noc;
    uint8_t x, y;               /* physical NOC0 coordinates of the tile */
    uint32_t node_id;           /* physical coordinates in this NOC */
    uint32_t logical_id;        /* translated coordinates, power-on value */
    uint32_t endpoint_id;
};

/*
 * A host access through a PCIe TLB window, issued by the PCIe tile's NIU:
 * @rect packs x_end, y_end, x_start, y_start like NOC_RET_ADDR_HI.
 */
void tt_niu_host_rw(TTNiu *s, uint32_t rect, bool mcast, uint64_t addr,
                    void *buf, uint32_t len, bool write);

#endif
