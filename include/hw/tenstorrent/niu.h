/*
 * Tenstorrent Blackhole NOC interface unit (NIU): one per tile per NOC, at
 * 0xFFB20000 (NOC0) and 0xFFB30000 (NOC1).
 *
 * This model holds the identity, configuration and counter registers and
 * the four command buffers' registers.  Threads: any core of the tile and
 * the host; @lock protects the register file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_NIU_H
#define HW_TENSTORRENT_NIU_H

#include "hw/sysbus.h"
#include "hw/registerfields.h"
#include "hw/tenstorrent/niu-regs.h"
#include "hw/tenstorrent/grid.h"
#include "hw/tenstorrent/tt-tile-map.h"     /* generated */
#include "qom/object.h"

#define TYPE_TT_NIU "tt-niu"
OBJECT_DECLARE_SIMPLE_TYPE(TTNiu, TT_NIU)

typedef struct TTNoc TTNoc;

struct TTNiu {
    SysBusDevice parent_obj;

    MemoryRegion mmio;
    QemuMutex lock;             /* command issue; counters are atomics */
    uint8_t buf[TT_NOC_MAX_PACKET];     /* data in flight, under @lock */
    TTNoc *fabric;
    AddressSpace *local;        /* this tile's NOC-visible view */
    struct TTSpinTile *spin;    /* the tile's parked cores, to wake */

    uint32_t cmd[TT_NIU_CMD_BUFS][TT_NIU_CMD_BUF_REGS];
    uint32_t cfg[TT_NIU_CFG_REGS];
    uint32_t counter[TT_NIU_COUNTERS];

    /* properties */
    uint8_t noc;
    uint8_t x, y;               /* physical NOC0 coordinates of the tile */
    uint32_t node_id;           /* physical coordinates in this NOC */
    uint32_t logical_id;        /* translated coordinates, power-on value */
    uint32_t endpoint_id;
};

void tt_niu_connect(TTNiu *s, TTNoc *noc, AddressSpace *local);
/* NOC_NODE_ID of the NIU of NOC @noc at physical NOC0 (x, y) */
uint32_t tt_niu_node_id(int noc, int x, int y);
/*
 * A host access through a PCIe TLB window, issued by the PCIe tile's NIU:
 * @rect packs x_end, y_end, x_start, y_start like NOC_RET_ADDR_HI.
 */
void tt_niu_host_rw(TTNiu *s, uint32_t rect, bool mcast, uint64_t addr,
                    void *buf, uint32_t len, bool write);
/* Slave-side counter update by a transaction that reached this NIU's tile */
void tt_niu_count(TTNiu *s, int counter, uint32_t n);
/*
 * Where a multicast rectangle issued on NOC @noc sees Tensix tile @i of
 * @g: its translated column when @xlate, else its physical coordinates
 * in that NOC's numbering
 */
void tt_niu_mcast_xy(const TTGrid *g, int noc, bool xlate, int i, int *x,
                     int *y);
/* Does the tile of destination NIU @d refuse multicasts (ROUTER_CFG_1/3)? */
bool tt_niu_mcast_opted_out(const TTNiu *d);

#endif
