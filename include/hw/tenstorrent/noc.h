/*
 * Tenstorrent Blackhole NOC fabric: one object serving NOC0 and NOC1.
 *
 * It knows every node's physical NOC0 coordinates (from the grid), the
 * address space a transaction reaches there (a Tensix tile's NOC-visible
 * view, a GDDR bank) and each tile's NIUs, and it translates coordinates.
 * Transfers complete synchronously in the issuing thread; nothing here takes
 * a global lock: the data path is address_space_*() on the target, atomics
 * on L1 are host atomics on the RAM.
 *
 * The node table is filled at realize and read-only afterwards.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_NOC_H
#define HW_TENSTORRENT_NOC_H

#include "hw/qdev-core.h"
#include "qemu/notify.h"
#include "system/memory.h"
#include "hw/tenstorrent/grid.h"
#include "qom/object.h"

#define TYPE_TT_NOC "tt-noc"
OBJECT_DECLARE_SIMPLE_TYPE(TTNoc, TT_NOC)

typedef struct TTNiu TTNiu;

/* A node that serves transactions itself (the PCIe tile), any length */
typedef MemTxResult (*TTNocNodeRw)(void *opaque, uint64_t addr, void *buf,
                                   uint32_t len, bool write);

/* What a transaction reaches at one physical coordinate */
typedef struct TTNocNode {
    AddressSpace *as;           /* NULL: no node */
    MemoryRegion *l1;           /* Tensix L1 RAM, for atomics */
    TTNiu *niu[TT_NUM_NOCS];    /* the slave-side counters */
    TTNocNodeRw rw;             /* if set, used instead of @as */
    void *rw_opaque;
} TTNocNode;

struct TTNoc {
    DeviceState parent_obj;

    const TTGrid *grid;
    TTNocNode node[TT_GRID_W][TT_GRID_H];
    /* filled before the machine runs; notified from any thread */
    NotifierList routing_notifiers;
};

void tt_noc_set_grid(TTNoc *noc, const TTGrid *grid);
void tt_noc_add_node(TTNoc *noc, int x, int y, AddressSpace *as,
                     MemoryRegion *l1, TTNiu *niu0, TTNiu *niu1);
void tt_noc_set_node_rw(TTNoc *noc, int x, int y, TTNocNodeRw rw,
                        void *opaque);

/*
 * Physical NOC0 coordinates of (x, y) as given to NOC @noc: translated
 * coordinates when @translate (NIU_CFG_0 bit 14), else that NOC's own
 * numbering (NOC1 is reflected).  False if the result is off the grid.
 */
bool tt_noc_resolve(TTNoc *noc, int noc_id, bool translate, int x, int y,
                    int *px, int *py);

/* Node at physical (x, y), or NULL */
const TTNocNode *tt_noc_node(TTNoc *noc, int x, int y);

/*
 * Routing state changed: an NIU's coordinate translation or multicast
 * opt-out (NIU_CFG_0, ROUTER_CFG_1/3) was written or reset.  Runs the
 * notifiers on the calling thread (a core's, with or without the BQL).
 */
void tt_noc_routing_changed(TTNoc *noc);
/* Call @n on every routing change; before the machine runs */
void tt_noc_add_routing_notifier(TTNoc *noc, Notifier *n);

/* A transaction of @len bytes at @addr of node @n */
MemTxResult tt_noc_node_rw(const TTNocNode *n, uint64_t addr, void *buf,
                           uint32_t len, bool write);

#endif
