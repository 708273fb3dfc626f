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
#include "system/memory.h"
#include "hw/tenstorrent/grid.h"
#include "qom/object.h"

#define TYPE_TT_NOC "tt-noc"
OBJECT_DECLARE_SIMPLE_TYPE(TTNoc, TT_NOC)

typedef struct TTNiu TTNiu;

/* What a transaction reaches at one physical coordinate */
typedef struct TTNocNode {
    AddressSpace *as;           /* NULL: no node */
    MemoryRegion *l1;           /* Tensix L1 RAM, for atomics */
    TTNiu *niu[TT_NUM_NOCS];    /* Tensix tiles: the slave-side counters */
} TTNocNode;

struct TTNoc {
    DeviceState parent_obj;

    const TTGrid *grid;
    TTNocNode node[TT_GRID_W][TT_GRID_H];
    /* host memory behind the PCIe endpoint until the host interface exists */
    MemoryRegion sysmem;
    AddressSpace sysmem_as;

    uint64_t sysmem_size;
};

void tt_noc_set_grid(TTNoc *noc, const TTGrid *grid);
void tt_noc_add_node(TTNoc *noc, int x, int y, AddressSpace *as,
                     MemoryRegion *l1, TTNiu *niu0, TTNiu *niu1);

/*
 * Physical NOC0 coordinates of (x, y) as given to NOC @noc: translated
 * coordinates when @translate (NIU_CFG_0 bit 14), else that NOC's own
 * numbering (NOC1 is reflected).  False if the result is off the grid.
 */
bool tt_noc_resolve(TTNoc *noc, int noc_id, bool translate, int x, int y,
                    int *px, int *py);

/* Node at physical (x, y), or NULL */
const TTNocNode *tt_noc_node(TTNoc *noc, int x, int y);

/* Address space for @addr at the node: bit 60 selects the PCIe window */
AddressSpace *tt_noc_target_as(TTNoc *noc, const TTNocNode *n, uint64_t addr);

#endif
