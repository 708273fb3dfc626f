/*
 * Tenstorrent Blackhole NOC grid tables and lookups.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/bswap.h"
#include "hw/tenstorrent/grid.h"

const char *const tt_core_role_name[TT_CORES_PER_TILE] = {
    "brisc", "ncrisc", "trisc0", "trisc1", "trisc2",
};

/* The tables of hw/tenstorrent/data/grid.yaml (generated tt-grid.h) */
const uint8_t tt_tensix_cols[TT_TENSIX_COLS] = TT_GRID_TENSIX_COLS_INIT;
const uint8_t tt_grid_harvest_order[TT_TENSIX_COLS] =
    TT_GRID_HARVEST_ORDER_INIT;
const TTGridBoard tt_grid_boards[TT_GRID_BOARDS] = TT_GRID_BOARDS_INIT;
static const TTGridXY dram_ports[TT_DRAM_BANKS][TT_DRAM_PORTS] =
    TT_GRID_DRAM_PORTS_INIT;
static const uint8_t dram_bank_port[TT_DRAM_BANKS][TT_NUM_NOCS] =
    TT_GRID_DRAM_BANK_PORT_INIT;
static const TTGridXY eth[TT_ETH_CHANNELS] = TT_GRID_ETH_INIT;
static const TTGridXY l2cpu[TT_L2CPUS] = TT_GRID_L2CPU_INIT;
static const TTGridXY pcie[TT_PCIE_TILES] = TT_GRID_PCIE_INIT;

void tt_grid_dram_port_xy(int bank, int port, int *x, int *y)
{
    *x = dram_ports[bank][port].x;
    *y = dram_ports[bank][port].y;
}

int tt_grid_dram_bank_port(int bank, int noc)
{
    return dram_bank_port[bank][noc];
}

static void set_node(TTGrid *g, int x, int y, TTNodeKind kind, int index,
                     int port)
{
    g->node[x][y] = (TTNode) { .kind = kind, .index = index, .port = port };
}

static void place_tiles(TTGrid *g)
{
    int vcol = 0;

    g->ntiles = 0;
    for (int c = 0; c < TT_TENSIX_COLS; c++) {
        int x = tt_tensix_cols[c];

        if (g->harvested_cols & BIT(x)) {
            continue;
        }
        /* enabled columns keep the dense translated columns, in order */
        for (int r = 0; r < TT_TENSIX_ROWS; r++) {
            int i = g->ntiles++;

            g->tile_x[i] = x;
            g->tile_y[i] = TT_TENSIX_Y0 + r;
            g->tile_vx[i] = tt_tensix_cols[vcol];
            set_node(g, x, TT_TENSIX_Y0 + r, TT_NODE_TENSIX, i, 0);
        }
        vcol++;
    }
}

static void place_others(TTGrid *g)
{
    int x, y, pe;

    g->ndram = 0;
    for (int b = 0; b < TT_DRAM_BANKS; b++) {
        if (b == g->harvested_dram_bank) {
            continue;
        }
        g->ndram++;
        for (int p = 0; p < TT_DRAM_PORTS; p++) {
            tt_grid_dram_port_xy(b, p, &x, &y);
            set_node(g, x, y, TT_NODE_DRAM, b, p);
        }
    }
    for (int i = 0; i < TT_ETH_CHANNELS; i++) {
        set_node(g, eth[i].x, eth[i].y, TT_NODE_ETH, i, 0);
    }
    for (int i = 0; i < TT_L2CPUS; i++) {
        set_node(g, l2cpu[i].x, l2cpu[i].y, TT_NODE_L2CPU, i, 0);
    }
    set_node(g, TT_GRID_ARC_X, TT_GRID_ARC_Y, TT_NODE_ARC, 0, 0);
    set_node(g, TT_GRID_SECURITY_X, TT_GRID_SECURITY_Y, TT_NODE_SECURITY,
             0, 0);
    /* the board's PCIe endpoint: PCIe0 on a P150, PCIe1 on a P100A */
    pe = tt_grid_boards[g->board].pcie;
    g->pcie_x = pcie[pe].x;
    set_node(g, pcie[pe].x, pcie[pe].y, TT_NODE_PCIE, pe, 0);
}

void tt_grid_set_pcie(TTGrid *g, int pe)
{
    int old = tt_grid_boards[g->board].pcie;

    set_node(g, pcie[old].x, pcie[old].y, TT_NODE_NONE, 0, 0);
    g->pcie_x = pcie[pe].x;
    set_node(g, pcie[pe].x, pcie[pe].y, TT_NODE_PCIE, pe, 0);
}

bool tt_grid_init(TTGrid *g, TTBoard board, uint32_t harvested_cols,
                  int harvested_dram_bank, const char **err)
{
    uint32_t all = 0;

    if ((unsigned)board >= TT_GRID_BOARDS) {
        *err = "unknown board";
        return false;
    }
    for (int c = 0; c < TT_TENSIX_COLS; c++) {
        all |= BIT(tt_tensix_cols[c]);
    }
    if (harvested_cols & ~all) {
        *err = "harvested Tensix columns must be physical Tensix columns "
               "(1-7, 10-16)";
        return false;
    }
    if ((harvested_cols & all) == all) {
        *err = "at least one Tensix column must stay enabled";
        return false;
    }
    if (harvested_dram_bank >= TT_DRAM_BANKS) {
        *err = "the harvested DRAM bank must be one of 0-7";
        return false;
    }
    memset(g, 0, sizeof(*g));
    g->board = board;
    g->harvested_cols = harvested_cols;
    g->harvested_dram_bank = harvested_dram_bank;
    g->harvested_eth = tt_grid_boards[board].harvested_eth;
    place_tiles(g);
    place_others(g);
    return true;
}

void tt_grid_eth_xy(int c, int *x, int *y)
{
    *x = eth[c].x;
    *y = eth[c].y;
}

int tt_grid_eth_logical(const TTGrid *g, int c)
{
    if (g->harvested_eth & BIT(c)) {
        return -1;
    }
    return ctpop32(~g->harvested_eth & (BIT(c) - 1));
}

int tt_grid_count_tiles(uint32_t harvested_cols)
{
    int n = 0;

    for (int c = 0; c < TT_TENSIX_COLS; c++) {
        n += !(harvested_cols & BIT(tt_tensix_cols[c]));
    }
    return n * TT_TENSIX_ROWS;
}

TTNode tt_grid_node(const TTGrid *g, int x, int y)
{
    if (x < 0 || y < 0 || x >= TT_GRID_W || y >= TT_GRID_H) {
        return (TTNode) { .kind = TT_NODE_NONE };
    }
    return g->node[x][y];
}

int tt_grid_tile_at(const TTGrid *g, int x, int y)
{
    TTNode n = tt_grid_node(g, x, y);

    return n.kind == TT_NODE_TENSIX ? n.index : -1;
}

/*
 * blackhole-py build_bank_noc_table: with bank h
 * harvested, its partner ("mirror", h + 3 for h < 4, else h - 4) moves to the
 * last slot of its column so the translated columns hold 4 + 3 banks.  The
 * "right" list sits at x = 18 and the "left" list at x = 17, as in that code.
 */
void tt_grid_dram_bank_vxy(const TTGrid *g, int bank, int *x, int *y0)
{
    int h = g->harvested_dram_bank;
    int mirror, pos = 0;

    if (h < 0) {
        *x = TT_VIRT_DRAM_X0 + (bank >= 4);
        *y0 = TT_VIRT_DRAM_Y0 + (bank % 4) * TT_DRAM_PORTS;
        return;
    }
    mirror = h < 4 ? h + 3 : h - 4;
    if (h < 4 ? bank < 3 : bank >= 4) {
        /* right column: software banks 0..2 (h < 4) or 4..6 (h >= 4) */
        *x = TT_VIRT_DRAM_X0 + 1;
        pos = h < 4 ? bank : bank - 4;
    } else {
        /* left column: the other banks in order, the mirror last */
        int first = h < 4 ? 3 : 0, last = h < 4 ? 6 : 3;

        *x = TT_VIRT_DRAM_X0;
        if (bank == mirror) {
            pos = last - first;
        } else {
            for (int b = first; b < bank; b++) {
                pos += b != mirror;
            }
        }
    }
    *y0 = TT_VIRT_DRAM_Y0 + pos * TT_DRAM_PORTS;
}

size_t tt_grid_bank_table_size(int num_dram, int num_l1)
{
    return (TT_NUM_NOCS * 2 + 4) * (size_t)(num_dram + num_l1);
}

void tt_grid_bank_table(const TTGrid *g, int num_dram, int num_l1,
                        uint8_t *buf)
{
    uint8_t *p = buf;
    uint8_t cols[TT_TENSIX_COLS];
    int ncols = 0, x, y0;

    for (int noc = 0; noc < TT_NUM_NOCS; noc++) {
        for (int b = 0; b < num_dram; b++) {
            tt_grid_dram_bank_vxy(g, b % g->ndram, &x, &y0);
            stw_le_p(p, TT_NOC_XY(x, y0 + dram_bank_port[b % 8][noc]));
            p += 2;
        }
    }
    /* translated columns holding tiles, ascending */
    for (int i = 0; i < g->ntiles; i += TT_TENSIX_ROWS) {
        cols[ncols++] = g->tile_vx[i];
    }
    for (int noc = 0; noc < TT_NUM_NOCS; noc++) {
        for (int i = 0; i < num_l1; i++) {
            stw_le_p(p, TT_NOC_XY(cols[i % ncols],
                                  TT_TENSIX_Y0 + (i / ncols) % TT_TENSIX_ROWS));
            p += 2;
        }
    }
    /* bank_to_dram_offset[] and bank_to_l1_offset[]: all zero */
    memset(p, 0, 4 * (size_t)(num_dram + num_l1));
}
