/*
 * Tenstorrent Blackhole NOC fabric: coordinates, multicast selection,
 * delivery, atomics at the target and the receiving side's counters.
 * The NIUs (niu.c) hand it their transactions.
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
 * Transactions: tt-isa-documentation BlackholeA0/NoC/MemoryMap.md (the
 * command encodings), Counters.md (which side counts what).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/bswap.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "fpu/softfloat.h"
#include "hw/tenstorrent/noc.h"
#include "hw/tenstorrent/spin-park.h"
#include "hw/tenstorrent/tt-tile-map.h"     /* generated */
#include "trace.h"

/* Atomic opcodes, NOC_AT_LEN_BE[14:12] (tt-metal noc_parameters.h) */
enum {
    TT_AT_NOP = 0,
    TT_AT_INCR_GET = 1,
    TT_AT_INCR_GET_PTR = 2,
    TT_AT_SWAP = 3,
    TT_AT_CAS = 4,
    TT_AT_GET_TILE_MAP = 5,
    TT_AT_STORE_IND = 6,
    TT_AT_SWAP_4B = 7,
    TT_AT_ACC = 9,
};

/* Node table */

void tt_noc_add_node(TTNoc *noc, int x, int y, AddressSpace *as,
                     MemoryRegion *l1, struct TTSpinTile *spin)
{
    TTNocNode *n = &noc->node[x][y];

    n->as = as;
    n->l1 = l1;
    n->spin = spin;
}

void tt_noc_set_node_rw(TTNoc *noc, int x, int y, TTNocNodeRw rw,
                        void *opaque)
{
    noc->node[x][y].rw = rw;
    noc->node[x][y].rw_opaque = opaque;
}

void tt_noc_attach_port(TTNoc *noc, int noc_id, int x, int y,
                        TTNocPort *port)
{
    noc->node[x][y].port[noc_id] = port;
}

const TTNocNode *tt_noc_node(TTNoc *noc, int x, int y)
{
    if (x < 0 || y < 0 || x >= TT_GRID_W || y >= TT_GRID_H ||
        !noc->node[x][y].as) {
        return NULL;
    }
    return &noc->node[x][y];
}

/* Coordinates */

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

/*
 * Translated (@x, @y) -> physical NOC0; false for a harvested column's
 * slot.  *@table says whether a translation table mapped it: the rest
 * stay where they are on NOC0.
 */
static bool tt_noc_translate(const TTGrid *g, int x, int y, int *px, int *py,
                             bool *table)
{
    *table = true;
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
    if (y == TT_VIRT_ETH_Y && x >= TT_VIRT_ETH_X0 &&
        x < TT_VIRT_ETH_X0 + TT_ETH_CHANNELS) {
        for (int i = 0; i < TT_GRID_W * TT_GRID_H; i++) {
            const TTNode *n = &g->node[i / TT_GRID_H][i % TT_GRID_H];

            if (n->kind == TT_NODE_ETH &&
                tt_grid_eth_logical(g, n->index) == x - TT_VIRT_ETH_X0) {
                *px = i / TT_GRID_H;
                *py = i % TT_GRID_H;
                return true;
            }
        }
    }
    *table = false;
    *px = x;
    *py = y;
    return true;
}

uint32_t tt_noc_node_id(int noc, int x, int y)
{
    /* NOC1 counts from the opposite corner (tt-umd NOC0_X_TO_NOC1_X) */
    uint32_t id = FIELD_DP32(0, NOC_NODE_ID, X, noc ? TT_GRID_W - 1 - x : x);

    id = FIELD_DP32(id, NOC_NODE_ID, Y, noc ? TT_GRID_H - 1 - y : y);
    id = FIELD_DP32(id, NOC_NODE_ID, WIDTH, TT_GRID_W);
    id = FIELD_DP32(id, NOC_NODE_ID, HEIGHT, TT_GRID_H);
    return FIELD_DP32(id, NOC_NODE_ID, X_FIRST, noc == 0);
}

/* The translated coordinates of the node at physical (@px, @py) */
static void tt_noc_translated_xy(const TTGrid *g, int px, int py, int *x,
                                 int *y)
{
    const TTNode *n = &g->node[px][py];

    *x = px;
    *y = py;
    switch (n->kind) {
    case TT_NODE_TENSIX:
        *x = g->tile_vx[n->index];
        break;
    case TT_NODE_DRAM: {
        /* software banks number the enabled physical banks in order */
        int bank = g->harvested_dram_bank >= 0 &&
                   n->index > g->harvested_dram_bank ? n->index - 1
                                                     : n->index;

        tt_grid_dram_bank_vxy(g, bank, x, y);
        *y += n->port;
        break;
    }
    case TT_NODE_PCIE:
        *x = TT_VIRT_PCIE_X;
        *y = TT_VIRT_PCIE_Y;
        break;
    case TT_NODE_ETH:
        /* fused-off channels keep their NOC0 coordinates (tt-umd) */
        if (tt_grid_eth_logical(g, n->index) >= 0) {
            *x = TT_VIRT_ETH_X0 + tt_grid_eth_logical(g, n->index);
            *y = TT_VIRT_ETH_Y;
        }
        break;
    default:
        break;
    }
}

/* A node no translation table maps: router-only, or fused-off Ethernet */
static bool tt_noc_unmapped(const TTGrid *g, int px, int py)
{
    const TTNode *n = &g->node[px][py];

    return n->kind == TT_NODE_NONE ||
           (n->kind == TT_NODE_ETH && tt_grid_eth_logical(g, n->index) < 0);
}

bool tt_noc_resolve(TTNoc *noc, int noc_id, bool translate, int x, int y,
                    int *px, int *py)
{
    bool table;

    if (translate) {
        if (!tt_noc_translate(&noc->grid, x, y, px, py, &table)) {
            return false;
        }
        /*
         * Router-only tiles and fused-off Ethernet tiles, which no table
         * maps, NOC1 reaches mirrored in x: tt-umd's
         * BlackholeRouterOnlyNoc1TranslatedCoords (tests/api/test_noc.cpp)
         * lists translated (15, 0) at NOC1 (15, 11), i.e. NOC0 (1, 0),
         * and translated (9, 0), a DRAM tile's place, at NOC0 (7, 0);
         * tt-umd's soc_descriptor.cpp sends a fused-off Ethernet tile at
         * NOC0 (x, 1) to translated (16 - x, 1) on NOC1.  Column 8 is its
         * own mirror.
         */
        if (noc_id && !table && *px < TT_GRID_W && *py < TT_GRID_H &&
            tt_noc_unmapped(&noc->grid, TT_GRID_W - 1 - *px, *py)) {
            *px = TT_GRID_W - 1 - *px;
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

/*
 * NIU identity registers of the nodes whose NIUs the model has no device
 * for (a Tensix tile's are niu.c's): where tt-umd reads them
 * (blackhole_implementation.hpp NOC0/1_CONTROL_REG_ADDR_BASE_MAP) and
 * how (tests/api/test_noc.cpp).  DRAM and Ethernet tiles have NIU 0 at
 * 0xFFB20000 and NIU 1 at 0xFFB30000, each reporting its own NOC's
 * coordinates whichever NOC carried the read (fused-off Ethernet tiles
 * answer here, the others have NIU devices); PCIe, ARC, security and
 * L2CPU tiles answer at 0xFFFFFFFFFF000000, router-only ones at
 * 0xFF000000, with the NIU of the NOC that carried it.  NOC_NODE_ID,
 * NOC_ENDPOINT_ID (MemoryMap.md types) and NOC_ID_LOGICAL (the
 * translated coordinates) are answered; the rest of such a window reads 0.
 */
#define TT_NOC_NIU_FAR_BASE     0xffffffffff000000ull
#define TT_NOC_NIU_ROUTER_BASE  0xff000000ull
#define TT_NOC_NIU_SIZE         TT_TILE_NIU0_SIZE

static const uint16_t tt_endpoint_type[] = {
    [TT_NODE_TENSIX] = 0x0100, [TT_NODE_ETH] = 0x0200,
    [TT_NODE_PCIE] = 0x0300, [TT_NODE_ARC] = 0x0500,
    [TT_NODE_DRAM] = 0x0800, [TT_NODE_L2CPU] = 0x0901,
    [TT_NODE_SECURITY] = 0x0a00,
};

static bool tt_noc_ident(TTNoc *noc, const TTNocReq *r, uint32_t hi,
                         uint64_t addr, uint32_t len, uint32_t *val)
{
    const TTGrid *g = &noc->grid;
    int px, py, niu = r->noc, vx, vy;
    uint64_t off;
    TTNode n;

    if (len != 4 || (addr & 3) ||
        !tt_noc_resolve(noc, r->noc, r->xlate, hi & 0x3f, (hi >> 6) & 0x3f,
                        &px, &py)) {
        return false;
    }
    n = g->node[px][py];
    if (n.kind == TT_NODE_ETH && noc->node[px][py].as) {
        return false;   /* a modelled Ethernet tile: its own NIUs answer */
    }
    switch (n.kind) {
    case TT_NODE_DRAM:
    case TT_NODE_ETH:
        off = addr - TT_TILE_NIU0_BASE;
        if (addr < TT_TILE_NIU0_BASE || off >= 2 * TT_NOC_NIU_SIZE) {
            return false;
        }
        niu = off / TT_NOC_NIU_SIZE;
        off %= TT_NOC_NIU_SIZE;
        break;
    case TT_NODE_PCIE:
    case TT_NODE_ARC:
    case TT_NODE_SECURITY:
    case TT_NODE_L2CPU:
        off = addr - TT_NOC_NIU_FAR_BASE;
        if (addr < TT_NOC_NIU_FAR_BASE || off >= TT_NOC_NIU_SIZE) {
            return false;
        }
        break;
    case TT_NODE_NONE:
        off = addr - TT_NOC_NIU_ROUTER_BASE;
        if (addr < TT_NOC_NIU_ROUTER_BASE || off >= TT_NOC_NIU_SIZE) {
            return false;
        }
        break;
    default:
        return false;
    }
    switch (off) {
    case A_NOC_NODE_ID:
        *val = tt_noc_node_id(niu, px, py);
        break;
    case A_NOC_ENDPOINT_ID:
        *val = n.kind == TT_NODE_NONE ? 0
               : (uint32_t)niu << 24 | tt_endpoint_type[n.kind] << 8 |
                 (n.index & 0xff);
        break;
    case A_NOC_ID_LOGICAL:
        tt_noc_translated_xy(g, px, py, &vx, &vy);
        *val = TT_NOC_XY(vx, vy);
        break;
    default:
        *val = 0;
        break;
    }
    return true;
}

/* Multicast selection */

static bool tt_in_span(int v, int start, int end)
{
    return start <= end ? v >= start && v <= end : v <= end || v >= start;
}

/*
 * Broadcast opt-out (MemoryMap.md: ROUTER_CFG_1 one bit per column,
 * ROUTER_CFG_3 one per row, in this NOC's physical coordinates): a router
 * whose own column or row bit is set does not deliver multicasts locally.
 */
static bool tt_noc_port_opted_out(const TTNocPort *p, int noc_id, int x,
                                  int y)
{
    int nx = noc_id ? TT_GRID_W - 1 - x : x;
    int ny = noc_id ? TT_GRID_H - 1 - y : y;

    return extract32(p->cfg[A_ROUTER_CFG_1 / 4 - A_NIU_CFG_0 / 4], nx, 1) ||
           extract32(p->cfg[A_ROUTER_CFG_3 / 4 - A_NIU_CFG_0 / 4], ny, 1);
}

bool tt_noc_mcast_opted_out(TTNoc *noc, int noc_id, int x, int y)
{
    return tt_noc_port_opted_out(noc->node[x][y].port[noc_id], noc_id, x, y);
}

void tt_noc_mcast_xy(const TTGrid *g, int noc, bool xlate, int i, int *x,
                     int *y)
{
    *x = xlate ? g->tile_vx[i] : g->tile_x[i];
    *y = g->tile_y[i];
    if (!xlate && noc) {
        *x = TT_GRID_W - 1 - *x;
        *y = TT_GRID_H - 1 - *y;
    }
}

/*
 * Tensix tiles in a multicast rectangle (end_x [5:0], end_y [11:6],
 * start_x [17:12], start_y [23:18]) in the issuing NOC's coordinates,
 * less those that opted out; other nodes never receive multicasts.
 */
static int tt_noc_mcast_nodes(TTNoc *noc, const TTNocReq *r, uint32_t hi,
                              bool self, const TTNocNode **out)
{
    const TTGrid *g = &noc->grid;
    int ex = hi & 0x3f, ey = (hi >> 6) & 0x3f;
    int sx = (hi >> 12) & 0x3f, sy = (hi >> 18) & 0x3f;
    int n = 0;

    /*
     * The span runs from start to end in the direction of this NOC's data
     * flow, wrapping past the grid's edge when start is beyond end (each
     * NOC is a torus, tt-isa-documentation BlackholeA0/NoC/README.md).
     * Translated coordinates are NOC 0's for both NOCs but do not change
     * NOC 1's direction, leftwards and upwards: software swaps
     * StartX with EndX and StartY with EndY for a NOC 1 broadcast
     * (WormholeB0/NoC/Coordinates.md, "Coordinate Translation"; ttsim
     * src/tile.cpp checks start >= end on NOC 1 and swaps).  So on NOC 1
     * with translation the span runs downwards from start to end.
     */
    if (r->xlate && r->noc) {
        int t = sx;

        sx = ex;
        ex = t;
        t = sy;
        sy = ey;
        ey = t;
    }

    for (int i = 0; i < g->ntiles; i++) {
        int x, y;

        tt_noc_mcast_xy(g, r->noc, r->xlate, i, &x, &y);
        if (!tt_in_span(x, sx, ex) || !tt_in_span(y, sy, ey) ||
            (!self && g->tile_x[i] == r->x && g->tile_y[i] == r->y)) {
            continue;
        }
        out[n] = tt_noc_node(noc, g->tile_x[i], g->tile_y[i]);
        if (!tt_noc_port_opted_out(out[n]->port[r->noc], r->noc,
                                   g->tile_x[i], g->tile_y[i])) {
            n++;
        }
    }
    return n;
}

/* Delivery */

static void tt_noc_req_error(const TTNocReq *r, const char *what)
{
    qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d NOC%d buf %d: %s\n", r->x, r->y,
                  r->noc, r->buf, what);
}

/* Node at a unicast coordinate field ([5:0] x, [11:6] y) */
static const TTNocNode *tt_noc_unicast(TTNoc *noc, const TTNocReq *r,
                                       uint32_t hi)
{
    int px, py;
    const TTNocNode *n = NULL;

    if (tt_noc_resolve(noc, r->noc, r->xlate, hi & 0x3f, (hi >> 6) & 0x3f,
                       &px, &py)) {
        n = tt_noc_node(noc, px, py);
    }
    if (!n) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d NOC%d: no node at (%u, %u)"
                      "%s\n", r->x, r->y, r->noc, hi & 0x3f,
                      (hi >> 6) & 0x3f, r->xlate ? " (translated)" : "");
    }
    return n;
}

/* The receiving NIU counts a transaction that reached its tile */
static void tt_noc_count(const TTNocNode *n, int noc_id, int counter)
{
    if (n->port[noc_id]) {
        qatomic_inc(&n->port[noc_id]->counter[counter]);
    }
}

/* A write reached a Tensix tile: its parked cores may be waiting for it */
static void tt_noc_wake(const TTNocNode *n)
{
    if (n->spin) {
        tt_spin_wake(n->spin);
    }
}

static MemTxResult tt_noc_access(const TTNocNode *n, uint64_t addr,
                                 void *buf, uint32_t len, bool write)
{
    MemTxResult r = tt_noc_node_rw(n, addr, buf, len, write);

    if (write) {
        tt_noc_wake(n);
    }
    return r;
}

static uint32_t tt_noc_len(const TTNocReq *r, uint32_t len, bool l1_to_l1)
{
    if (len > TT_NOC_MAX_PACKET && !l1_to_l1) {
        tt_noc_req_error(r, "transfer over 16 KiB to or from a non-L1 "
                         "target: truncated to one packet");
        len = TT_NOC_MAX_PACKET;
    }
    return len;
}

/*
 * Only 4-byte accesses reach a tile's MMIO: anything else
 * is logged and moves the one aligned word holding the address.
 */
static uint32_t tt_noc_mmio_len(const TTNocReq *r, const TTNocNode *n,
                                uint64_t *addr, uint32_t len)
{
    if (!n || !n->l1 || *addr < memory_region_size(n->l1) ||
        (len == 4 && !(*addr & 3))) {
        return len;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d NOC%d buf %d: %u-byte access to "
                  "MMIO 0x%" PRIx64 ": only 4-byte accesses reach MMIO; one "
                  "word moved\n", r->x, r->y, r->noc, r->buf, len, *addr);
    *addr &= ~3ull;
    return 4;
}

/* Copy @len bytes in packet-sized pieces; hardware splits L1 transfers */
static void tt_noc_copy(const TTNocReq *r, const TTNocNode *src,
                        uint64_t saddr, const TTNocNode *const *dst,
                        int ndst, uint64_t daddr, uint32_t len)
{
    /*
     * Bytes with no destination, or past the end of the destinations' L1
     * (every multicast destination is a Tensix L1 of the same size), reach
     * nothing: stop there.  The length field has 32 bits, and moving the
     * rest packet by packet would hold the NIU for minutes.
     */
    if (!ndst) {
        return;
    }
    if (dst[0]->l1 && daddr < memory_region_size(dst[0]->l1) &&
        len > memory_region_size(dst[0]->l1) - daddr) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d NOC%d buf %d: %u-byte "
                      "transfer to L1 0x%" PRIx64 " runs past the end of "
                      "L1; the rest is dropped\n", r->x, r->y, r->noc,
                      r->buf, len, daddr);
        len = memory_region_size(dst[0]->l1) - daddr;
    }
    for (uint32_t done = 0; done < len; done += TT_NOC_MAX_PACKET) {
        uint32_t n = MIN(len - done, TT_NOC_MAX_PACKET);

        if (!src || tt_noc_access(src, saddr + done, r->data, n, false)) {
            if (src) {
                tt_noc_req_error(r, "read from the source failed");
            }
            memset(r->data, 0xff, n);   /* unmapped reads return ones */
        }
        for (int i = 0; i < ndst; i++) {
            if (tt_noc_access(dst[i], daddr + done, r->data, n, true)) {
                tt_noc_req_error(r, "write to the destination failed");
            }
        }
    }
}

uint32_t tt_noc_read(TTNoc *noc, const TTNocReq *r, uint32_t src_hi,
                     uint64_t saddr, uint32_t dst_hi, uint64_t daddr,
                     uint32_t len)
{
    const TTNocNode *src, *dst = tt_noc_unicast(noc, r, dst_hi);
    uint32_t id;

    if (!dst) {
        return 0;
    }
    if (tt_noc_ident(noc, r, src_hi, saddr, len, &id)) {
        stl_le_p(r->data, id);
        if (tt_noc_access(dst, daddr, r->data, 4, true)) {
            tt_noc_req_error(r, "write to the destination failed");
        }
        return 4;
    }
    src = tt_noc_unicast(noc, r, src_hi);
    len = tt_noc_len(r, len, (!src || src->l1) && dst->l1);
    len = tt_noc_mmio_len(r, src, &saddr, len);
    len = tt_noc_mmio_len(r, dst, &daddr, len);
    trace_tt_noc_read(r->x, r->y, r->noc, r->buf, src_hi & 0x3f,
                      (src_hi >> 6) & 0x3f, saddr, src != NULL, daddr, len);
    /* a read from no node returns all-ones (tt_noc_copy) */
    tt_noc_copy(r, src, saddr, &dst, 1, daddr, len);
    if (src) {
        tt_noc_count(src, r->noc, TT_SLV_RD_REQ_RECEIVED);
        tt_noc_count(src, r->noc, TT_SLV_RD_RESP_SENT);
    }
    return len;
}

int tt_noc_write(TTNoc *noc, const TTNocReq *r, uint64_t saddr,
                 uint32_t dst_hi, bool mcast, bool self, uint64_t daddr,
                 uint32_t *len)
{
    const TTNocNode *src = tt_noc_node(noc, r->x, r->y);
    const TTNocNode *dst[TT_MAX_TILES];
    int n;

    if (mcast) {
        n = tt_noc_mcast_nodes(noc, r, dst_hi, self, dst);
        if (n) {
            /* every destination is a Tensix tile: the same address map */
            *len = tt_noc_mmio_len(r, dst[0], &daddr, *len);
        }
    } else {
        dst[0] = tt_noc_unicast(noc, r, dst_hi);
        n = dst[0] != NULL;
        if (n) {
            *len = tt_noc_len(r, *len, dst[0]->l1 != NULL);
            *len = tt_noc_mmio_len(r, dst[0], &daddr, *len);
        }
    }
    *len = tt_noc_mmio_len(r, src, &saddr, *len);
    trace_tt_noc_write(r->x, r->y, r->noc, saddr, dst_hi & 0x3f,
                       (dst_hi >> 6) & 0x3f, mcast, n, daddr, *len);
    tt_noc_copy(r, src, saddr, dst, n, daddr, *len);
    for (int i = 0; i < n; i++) {
        tt_noc_count(dst[i], r->noc, r->posted
                     ? TT_SLV_POSTED_WR_REQ_RECEIVED
                     : TT_SLV_NONPOSTED_WR_REQ_RECEIVED);
    }
    return n;
}

/*
 * Inline write (tt-isa-documentation NoC/MemoryMap.md): to MMIO the byte
 * enables are ignored and 32 bits are stored; to L1 (a Blackhole hazard
 * tt-metal avoids) @be enables bytes of the 64-byte word holding the
 * address, the value repeating in each 4-byte lane.
 */
void tt_noc_write_inline(TTNoc *noc, const TTNocReq *r, uint32_t hi,
                         uint64_t addr, uint32_t data, uint32_t be)
{
    const TTNocNode *dst = tt_noc_unicast(noc, r, hi);
    uint8_t buf[4];

    trace_tt_noc_write_inline(r->x, r->y, r->noc, hi & 0x3f, (hi >> 6) & 0x3f,
                              addr, data, be);
    stl_le_p(buf, data);
    if (dst && dst->l1 && addr < TT_TILE_L1_SIZE) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d NOC%d: inline write to L1 "
                      "0x%" PRIx64 " (unsafe on Blackhole hardware)\n",
                      r->x, r->y, r->noc, addr);
        for (int i = 0; i < 32; i++) {
            if (be & BIT(i)) {
                tt_noc_access(dst, (addr & ~63ull) + i, &buf[i & 3], 1,
                              true);
            }
        }
    } else if (dst && tt_noc_access(dst, addr & ~3ull, buf, 4, true)) {
        tt_noc_req_error(r, "inline write failed");
    }
}

/*
 * Byte-enable write (MemoryMap.md): @mask covers the 64 bytes from
 * @daddr & ~0xF, taken from @saddr & ~0xF of the issuer's tile; to MMIO
 * the mask is ignored and one 32-bit word is stored.
 */
void tt_noc_write_be(TTNoc *noc, const TTNocReq *r, uint64_t saddr,
                     uint32_t dst_hi, uint64_t daddr, uint64_t mask)
{
    const TTNocNode *self = tt_noc_node(noc, r->x, r->y);
    const TTNocNode *dst = tt_noc_unicast(noc, r, dst_hi);
    uint64_t src = saddr & ~15ull, ret = daddr & ~15ull;

    if (dst && tt_noc_access(self, src, r->data, 64, false)) {
        tt_noc_req_error(r, "byte-enable write: local read failed");
    } else if (dst && !dst->l1) {
        tt_noc_access(dst, daddr & ~3ull, r->data + (saddr & 12), 4, true);
    } else if (dst) {
        for (int i = 0; i < 64; i++) {
            if (mask & BIT_ULL(i)) {
                tt_noc_access(dst, ret + i, r->data + i, 1, true);
            }
        }
    }
}

/* Atomics at the target */

/* Add @add into the 32-bit word at @p modulo 2^(width + 1), atomically */
static uint32_t tt_atomic_add_masked(uint32_t *p, uint32_t add,
                                     uint32_t width)
{
    uint32_t mask = width == 31 ? UINT32_MAX : (2u << width) - 1;
    uint32_t old, new;

    do {
        old = qatomic_read(p);
        new = (old & ~mask) | ((old + add) & mask);
    } while (qatomic_cmpxchg(p, old, new) != old);
    return old;
}

/* ACC formats, NOC_AT_LEN_BE[2:0]; bit 3 disables saturation */
enum {
    TT_ACC_FP32, TT_ACC_FP16_A, TT_ACC_FP16_B, TT_ACC_INT32,
    TT_ACC_INT32_COMPL, TT_ACC_INT32_UNS, TT_ACC_INT8, TT_ACC_UINT8,
};

/* Tensix integers are sign-magnitude (tt-isa-doc TensixCoprocessor/Dst.md) */
static int64_t tt_sm_to_int(uint32_t v, int bits)
{
    int64_t mag = v & ((1ull << (bits - 1)) - 1);

    return v >> (bits - 1) & 1 ? -mag : mag;
}

static uint32_t tt_int_to_sm(int64_t v, int bits, bool sat)
{
    uint64_t max = (1ull << (bits - 1)) - 1;
    uint64_t mag = v < 0 ? -v : v;

    mag = sat ? MIN(mag, max) : mag & max;
    return (v < 0 ? 1u << (bits - 1) : 0) | mag;
}

static uint32_t tt_acc_lane(int fmt, bool sat, uint32_t a, uint32_t b,
                            float_status *st)
{
    uint64_t sum;

    switch (fmt) {
    case TT_ACC_FP32:
        return float32_val(float32_add(make_float32(a), make_float32(b), st));
    case TT_ACC_FP16_A:
        return float16_val(float16_add(make_float16(a), make_float16(b), st));
    case TT_ACC_FP16_B:
        return bfloat16_add(a, b, st);
    case TT_ACC_INT32:
        return tt_int_to_sm(tt_sm_to_int(a, 32) + tt_sm_to_int(b, 32), 32,
                            sat);
    case TT_ACC_INT8:
        return tt_int_to_sm(tt_sm_to_int(a, 8) + tt_sm_to_int(b, 8), 8, sat);
    case TT_ACC_INT32_UNS:
        sum = (uint64_t)a + b;
        return sat && sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
    case TT_ACC_UINT8:
        sum = (uint64_t)a + b;
        return sat && sum > UINT8_MAX ? UINT8_MAX : (uint8_t)sum;
    default:                    /* INT32_COMPL: two's complement, wraps */
        return a + b;
    }
}

/*
 * ACC: element-wise accumulate of AT_DATA, repeated across the 16-byte
 * block, into the block (tenstorrent-docs hardware/blackhole-emulator-specs/
 * noc-atomics.md): FP32/INT32 x4, FP16/BF16 x8
 * (AT_DATA's two halves alternate), INT8/UINT8 x16.  Denormals flush to zero;
 * rounding is to nearest even (that page is silent, like the ISA pages).
 * Lanes never cross a word, so each word is updated atomically on its own.
 */
static void tt_atomic_acc(uint32_t *blk, uint32_t instrn, uint32_t data)
{
    int fmt = instrn & 7, bits = fmt <= TT_ACC_FP16_B
        ? (fmt == TT_ACC_FP32 ? 32 : 16)
        : (fmt >= TT_ACC_INT8 ? 8 : 32);
    bool sat = !(instrn & 8);
    float_status st = { };

    set_float_rounding_mode(float_round_nearest_even, &st);
    set_flush_to_zero(true, &st);
    set_flush_inputs_to_zero(true, &st);
    set_default_nan_mode(true, &st);
    set_float_default_nan_pattern(0b01000000, &st);
    set_float_2nan_prop_rule(float_2nan_prop_s_ab, &st);
    for (int i = 0; i < 4; i++) {
        uint32_t old, new;

        do {
            old = qatomic_read(&blk[i]);
            new = 0;
            for (int sh = 0; sh < 32; sh += bits) {
                uint32_t m = bits == 32 ? UINT32_MAX : (1u << bits) - 1;

                new |= (tt_acc_lane(fmt, sat, (old >> sh) & m,
                                    (data >> sh) & m, &st) & m) << sh;
            }
        } while (qatomic_cmpxchg(&blk[i], old, new) != old);
    }
}

/*
 * INCR_GET_PTR (tenstorrent-docs hardware/blackhole-emulator-specs/
 * noc-atomics.md): the word advances by INCR [9:6] (0 means 1) and
 * returns to 0 when a WRAP [5:2] is set and the new value reaches it.
 */
static uint32_t tt_atomic_incr_ptr(uint32_t *p, uint32_t len_be)
{
    uint32_t incr = extract32(len_be, 6, 4) ?: 1, wrap = extract32(len_be, 2,
                                                                   4);
    uint32_t old, new;

    do {
        old = qatomic_read(p);
        new = old + incr;
        if (wrap && new >= wrap) {
            new = 0;
        }
    } while (qatomic_cmpxchg(p, old, new) != old);
    return old;
}

/*
 * One atomic on the 16-byte L1 block holding TARG (tt-isa-documentation
 * WormholeB0/NoC/Atomics.md; the Blackhole page is the same per its
 * README).  Returns the 32-bit word at TARG as it was before.
 */
static uint32_t tt_noc_atomic_block(const TTNocReq *r, uint32_t *blk,
                                    uint64_t addr, uint32_t len_be,
                                    uint32_t data)
{
    uint32_t op = FIELD_EX32(len_be, NOC_AT_LEN_BE, INS);
    uint32_t *targ = &blk[(addr >> 2) & 3];
    uint32_t *word = &blk[FIELD_EX32(len_be, NOC_AT_LEN_BE, IND_32)];
    uint32_t result = qatomic_read(targ), old;
    uint16_t *half = (uint16_t *)blk;

    switch (op) {
    case TT_AT_INCR_GET:
        old = tt_atomic_add_masked(word, data,
                                   FIELD_EX32(len_be, NOC_AT_LEN_BE,
                                              INT_WIDTH));
        break;
    case TT_AT_INCR_GET_PTR:
        old = tt_atomic_incr_ptr(word, len_be);
        break;
    case TT_AT_CAS:
        old = qatomic_cmpxchg(word,
                              FIELD_EX32(len_be, NOC_AT_LEN_BE, CAS_CMP),
                              FIELD_EX32(len_be, NOC_AT_LEN_BE, CAS_SET));
        break;
    case TT_AT_SWAP:
        /* Mask [9:2]: 16-bit lanes, even lanes AT_DATA[15:0], odd [31:16] */
        for (int i = 0; i < 8; i++) {
            if (len_be & BIT(2 + i)) {
                qatomic_set(&half[i], (uint16_t)(data >> (16 * (i & 1))));
            }
        }
        return result;
    case TT_AT_STORE_IND:       /* swap, index variant: Ofs [1:0] */
        old = qatomic_xchg(word, data);
        break;
    case TT_AT_SWAP_4B:         /* swap, index variant: Ofs [3:2] */
        word = &blk[(len_be >> 2) & 3];
        old = qatomic_xchg(word, data);
        break;
    case TT_AT_ACC:
        tt_atomic_acc(blk, len_be, data);
        return result;
    case TT_AT_GET_TILE_MAP:
        qemu_log_mask(LOG_UNIMP, "x%dy%d NOC%d: GET_TILE_MAP is not "
                      "documented; memory unchanged\n", r->x, r->y, r->noc);
        return result;
    default:
        qemu_log_mask(LOG_UNIMP, "x%dy%d NOC%d: atomic opcode %u is not "
                      "documented; memory unchanged\n", r->x, r->y, r->noc,
                      op);
        return result;
    }
    return word == targ ? old : result;
}

void tt_noc_atomic(TTNoc *noc, const TTNocReq *r, uint32_t hi, bool mcast,
                   bool self, uint64_t addr, uint32_t len_be, uint32_t data,
                   uint64_t ret)
{
    const TTNocNode *dst[TT_MAX_TILES];
    uint64_t block = addr & ~15ull;
    uint32_t old = 0;
    uint8_t resp[4];
    int n;

    if (mcast) {
        n = tt_noc_mcast_nodes(noc, r, hi, self, dst);
    } else {
        dst[0] = tt_noc_unicast(noc, r, hi);
        n = dst[0] != NULL;
    }
    trace_tt_noc_atomic(r->x, r->y, r->noc, hi & 0x3f, (hi >> 6) & 0x3f,
                        mcast, n, addr, len_be, data);
    for (int i = 0; i < n; i++) {
        hwaddr maplen = 16;
        uint32_t *blk;

        /* TARG has 64 bits: block + 16 could wrap around to a small value */
        if (!dst[i]->l1 || block >= memory_region_size(dst[i]->l1) ||
            memory_region_size(dst[i]->l1) - block < 16) {
            tt_noc_req_error(r, "atomic target is not Tensix L1: dropped");
            continue;
        }
        /*
         * L1 itself (atomic against the cores' own AMOs), mapped so that
         * unmapping accounts the write as any other: translated code from
         * those bytes dropped, dirty bits set
         */
        blk = address_space_map(dst[i]->as, block, &maplen, true,
                                MEMTXATTRS_UNSPECIFIED);
        if (!blk || maplen < 16) {
            if (blk) {
                address_space_unmap(dst[i]->as, blk, maplen, true, 0);
            }
            tt_noc_req_error(r, "atomic target cannot be mapped: dropped");
            continue;
        }
        old = tt_noc_atomic_block(r, blk, addr, len_be, data);
        address_space_unmap(dst[i]->as, blk, maplen, true, maplen);
        tt_noc_wake(dst[i]);
        tt_noc_count(dst[i], r->noc, r->posted
                     ? TT_SLV_POSTED_ATOMIC_RECEIVED
                     : TT_SLV_NONPOSTED_ATOMIC_RECEIVED);
    }
    if (r->posted) {
        return;
    }
    /* the response carries the old value back to the issuer's L1 */
    stl_le_p(resp, old);
    if (tt_noc_access(tt_noc_node(noc, r->x, r->y), ret, resp, 4, true)) {
        tt_noc_req_error(r, "atomic return write failed");
    }
}

/* Host accesses */

/* Whether this thread delivers a host access; what it waits for later */
#define TT_NOC_HOST_FNS     2
static __thread bool tt_noc_host_access;
static __thread TTNocHostFn *tt_noc_host_end[TT_NOC_HOST_FNS];
static __thread TTNocHostFn *tt_noc_host_read[TT_NOC_HOST_FNS];

static bool tt_noc_host_add(TTNocHostFn **fns, TTNocHostFn *fn)
{
    if (!tt_noc_host_access) {
        return false;
    }
    for (int i = 0; i < TT_NOC_HOST_FNS; i++) {
        if (!fns[i] || fns[i] == fn) {
            fns[i] = fn;
            return true;
        }
    }
    return false;
}

static void tt_noc_host_run(TTNocHostFn **fns)
{
    for (int i = 0; i < TT_NOC_HOST_FNS; i++) {
        TTNocHostFn *fn = fns[i];

        fns[i] = NULL;
        if (fn) {
            fn();
        }
    }
}

bool tt_noc_host_at_end(TTNocHostFn *fn)
{
    return tt_noc_host_add(tt_noc_host_end, fn);
}

bool tt_noc_host_before_read(TTNocHostFn *fn)
{
    return tt_noc_host_add(tt_noc_host_read, fn);
}

void tt_noc_host_sync(void)
{
    tt_noc_host_run(tt_noc_host_read);
}

static int tt_noc_host_rw_one(TTNoc *noc, const TTNocReq *r, uint32_t rect,
                              bool mcast, uint64_t addr, void *buf,
                              uint32_t len, bool write)
{
    const TTNocNode *dst[TT_MAX_TILES];
    int n;

    uint32_t id;

    if (!mcast && !write && tt_noc_ident(noc, r, rect, addr, len, &id)) {
        stl_le_p(buf, id);
        return 1;
    }
    if (mcast && write) {
        n = tt_noc_mcast_nodes(noc, r, rect, false, dst);
    } else {
        dst[0] = tt_noc_unicast(noc, r, rect);
        n = dst[0] != NULL;
    }
    if (!n) {
        if (!write) {
            memset(buf, 0xff, len);
        }
        return 0;
    }
    if (!mcast) {
        uint32_t l = tt_noc_mmio_len(r, dst[0], &addr, len);

        if (l > len) {
            /* a word moves but the host gave fewer bytes: bounce it */
            uint8_t word[4] = { 0 };

            if (write) {
                memcpy(word, buf, len);
            }
            if (tt_noc_access(dst[0], addr, word, sizeof(word), write)) {
                tt_noc_req_error(r, write ? "host write failed"
                                          : "host read failed");
                memset(word, 0xff, sizeof(word));
            }
            if (!write) {
                memcpy(buf, word, len);
            }
            tt_noc_count(dst[0], r->noc, write
                         ? TT_SLV_POSTED_WR_REQ_RECEIVED
                         : TT_SLV_RD_REQ_RECEIVED);
            return n;
        }
        if (l < len && !write) {
            memset(buf, 0xff, len);
        }
        len = l;
    }
    for (int i = 0; i < n; i++) {
        if (tt_noc_access(dst[i], addr, buf, len, write)) {
            tt_noc_req_error(r, write ? "host write failed"
                                      : "host read failed");
            if (!write) {
                memset(buf, 0xff, len);
            }
        }
        tt_noc_count(dst[i], r->noc, write ? TT_SLV_POSTED_WR_REQ_RECEIVED
                                           : TT_SLV_RD_REQ_RECEIVED);
    }
    return n;
}

int tt_noc_host_rw(TTNoc *noc, const TTNocReq *r, uint32_t rect, bool mcast,
                   uint64_t addr, void *buf, uint32_t len, bool write)
{
    int n;

    if (!write) {
        tt_noc_host_sync();
    }
    tt_noc_host_access = true;
    n = tt_noc_host_rw_one(noc, r, rect, mcast, addr, buf, len, write);
    tt_noc_host_access = false;
    tt_noc_host_run(tt_noc_host_end);
    return n;
}

/* Routing changes */

void tt_noc_routing_changed(TTNoc *noc)
{
    if (qatomic_read(&noc->routing_held)) {
        qatomic_set(&noc->routing_pending, true);
        return;
    }
    notifier_list_notify(&noc->routing_notifiers, noc);
}

void tt_noc_routing_hold(TTNoc *noc, bool hold)
{
    qatomic_set(&noc->routing_held, hold);
    if (!hold && qatomic_xchg(&noc->routing_pending, false)) {
        notifier_list_notify(&noc->routing_notifiers, noc);
    }
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
    const char *err;

    if (!tt_grid_init(&noc->grid, noc->board, noc->harvested_cols,
                      noc->harvested_dram_bank, &err)) {
        error_setg(errp, "tt-noc: %s", err);
        return;
    }
    if (noc->pcie >= 0) {
        tt_grid_set_pcie(&noc->grid, noc->pcie);
    }
}

static const Property tt_noc_props[] = {
    DEFINE_PROP_UINT32("board", TTNoc, board, TT_BOARD_P150),
    DEFINE_PROP_UINT32("harvested-cols", TTNoc, harvested_cols, 0),
    DEFINE_PROP_INT32("harvested-dram-bank", TTNoc, harvested_dram_bank, -1),
    DEFINE_PROP_INT32("pcie", TTNoc, pcie, -1),     /* -1: the board's */
};

static void tt_noc_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole NOC fabric";
    dc->realize = tt_noc_realize;
    dc->user_creatable = false;
    device_class_set_props(dc, tt_noc_props);
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
