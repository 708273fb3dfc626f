/*
 * Tenstorrent Blackhole NOC fabric: node registry and coordinate
 * translation.  The NIUs (niu.c) issue transactions through it.
 *
 * Coordinates (tt-umd blackhole_implementation.hpp and
 * device/coordinates/blackhole_coordinate_manager.cpp):
 * - physical NOC0 coordinates are the wire coordinates; NOC1 numbers the
 *   same grid from the opposite corner (x1 = 16 - x, y1 = 11 - y);
 * - with translation (NIU_CFG_0 bit 14), firmware and host use translated
 *   coordinates, the same on both NOCs: Tensix tiles keep dense columns
 *   (harvested columns move to the end), DRAM ports sit at x = 17/18,
 *   y = 12..23 and the PCIe endpoint at (19, 24).  Translated DRAM
 *   coordinates follow tt-umd (x = 17: banks at NOC0 x = 0, x = 18: x = 9,
 *   three ports per bank in tt-umd's port order), with the software bank
 *   numbering of the bank-to-NOC table the machine writes for firmware
 *   (grid.c), so a bank table entry always reaches the bank it names.
 *   Other coordinates pass through unchanged.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/tenstorrent/noc.h"

void tt_noc_set_grid(TTNoc *noc, const TTGrid *grid)
{
    noc->grid = grid;
}

void tt_noc_add_node(TTNoc *noc, int x, int y, AddressSpace *as,
                     MemoryRegion *l1, TTNiu *niu0, TTNiu *niu1)
{
    TTNocNode *n = &noc->node[x][y];

    n->as = as;
    n->l1 = l1;
    n->niu[0] = niu0;
    n->niu[1] = niu1;
}

void tt_noc_set_node_rw(TTNoc *noc, int x, int y, TTNocNodeRw rw,
                        void *opaque)
{
    noc->node[x][y].rw = rw;
    noc->node[x][y].rw_opaque = opaque;
}

const TTNocNode *tt_noc_node(TTNoc *noc, int x, int y)
{
    if (x < 0 || y < 0 || x >= TT_GRID_W || y >= TT_GRID_H ||
        !noc->node[x][y].as) {
        return NULL;
    }
    return &noc->node[x][y];
}

/* Translated DRAM port -> physical port of the bank it names */
static bool tt_noc_translate_dram(const TTGrid *g, int x, int y, int *px,
                                  int *py)
{
    for (int b = 0; b < g->ndram; b++) {
        int vx, vy0, pbank;

        tt_grid_dram_bank_vxy(g, b, &vx, &vy0);
        if (vx != x || y < vy0 || y >= vy0 + TT_DRAM_PORTS) {
            continue;
        }
        /* software banks number the enabled physical banks in order */
        pbank = g->harvested_dram_bank >= 0 && b >= g->harvested_dram_bank
                ? b + 1 : b;
        tt_grid_dram_port_xy(pbank, y - vy0, px, py);
        return true;
    }
    return false;
}

static bool tt_noc_translate(const TTGrid *g, int x, int y, int *px, int *py)
{
    if (y >= TT_TENSIX_Y0 && y < TT_TENSIX_Y0 + TT_TENSIX_ROWS) {
        for (int c = 0; c < TT_TENSIX_COLS; c++) {
            if (tt_tensix_cols[c] != x) {
                continue;
            }
            /* a Tensix column in translated space */
            for (int i = 0; i < g->ntiles; i += TT_TENSIX_ROWS) {
                if (g->tile_vx[i] == x) {
                    *px = g->tile_x[i];
                    *py = y;
                    return true;
                }
            }
            return false;       /* a harvested column's translated slot */
        }
    }
    if (x == TT_VIRT_DRAM_X0 || x == TT_VIRT_DRAM_X0 + 1) {
        return tt_noc_translate_dram(g, x, y, px, py);
    }
    if (x == TT_VIRT_PCIE_X && y == TT_VIRT_PCIE_Y) {
        *px = g->pcie_x;
        *py = 0;
        return true;
    }
    *px = x;
    *py = y;
    return true;
}

bool tt_noc_resolve(TTNoc *noc, int noc_id, bool translate, int x, int y,
                    int *px, int *py)
{
    if (translate) {
        if (!tt_noc_translate(noc->grid, x, y, px, py)) {
            return false;
        }
    } else if (noc_id) {
        *px = TT_GRID_W - 1 - x;
        *py = TT_GRID_H - 1 - y;
    } else {
        *px = x;
        *py = y;
    }
    return *px >= 0 && *py >= 0 && *px < TT_GRID_W && *py < TT_GRID_H;
}

MemTxResult tt_noc_node_rw(const TTNocNode *n, uint64_t addr, void *buf,
                           uint32_t len, bool write)
{
    if (n->rw) {
        return n->rw(n->rw_opaque, addr, buf, len, write);
    }
    return address_space_rw(n->as, addr, MEMTXATTRS_UNSPECIFIED, buf, len,
                             write);
}

void tt_noc_routing_changed(TTNoc *noc)
{
    notifier_list_notify(&noc->routing_notifiers, noc);
}

void tt_noc_add_routing_notifier(TTNoc *noc, Notifier *n)
{
    notifier_list_add(&noc->routing_notifiers, n);
}

static void tt_noc_init(Object *obj)
{
    notifier_list_init(&TT_NOC(obj)->routing_notifiers);
}

static void tt_noc_realize(DeviceState *dev, Error **errp)
{
    TTNoc *noc = TT_NOC(dev);

    if (!noc->grid) {
        error_setg(errp, "tt-noc: no grid");
    }
}

static void tt_noc_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole NOC fabric";
    dc->realize = tt_noc_realize;
    dc->user_creatable = false;
}

static const TypeInfo tt_noc_types[] = {
    {
        .name = TYPE_TT_NOC,
        .parent = TYPE_DEVICE,
        .instance_size = sizeof(TTNoc),
        .instance_init = tt_noc_init,
        .class_init = tt_noc_class_init,
    },
};

DEFINE_TYPES(tt_noc_types)
