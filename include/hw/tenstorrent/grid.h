/*
 * Tenstorrent Blackhole NOC grid: which node sits at which coordinate, the
 * translated ("virtual") coordinate system firmware uses, harvesting, and the
 * bank-to-NOC table the host writes into L1.
 *
 * Pure data and lookups; no QOM.  Filled once at machine creation and read
 * only afterwards, so any thread may use it without locking.
 *
 * Sources: tt-umd blackhole_implementation.hpp and soc descriptor
 * blackhole_140_arch.yaml (physical placement), tt-isa-documentation
 * BlackholeA0/NoC/MemoryMap.md, blackhole-py build_bank_noc_table (bank
 * table with harvesting).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_GRID_H
#define HW_TENSTORRENT_GRID_H

/*
 * Grid sizes, coordinates, harvesting order and boards, generated from
 * hw/tenstorrent/data/grid.yaml (TT_GRID_W, TT_TENSIX_COLS, TT_DRAM_PORTS,
 * TT_VIRT_*, the TT_GRID_*_INIT tables)
 */
#include "hw/tenstorrent/tt-grid.h"

#define TT_MAX_TILES            (TT_TENSIX_COLS * TT_TENSIX_ROWS)
#define TT_CORES_PER_TILE       5
#define TT_MAX_CORES            (TT_MAX_TILES * TT_CORES_PER_TILE)
#define TT_NUM_NOCS             2

/* Packed coordinate as in NOC registers and the bank table: (y << 6) | x */
#define TT_NOC_XY(x, y)         ((((y) & 0x3f) << 6) | ((x) & 0x3f))

typedef enum TTBoard {
    TT_BOARD_P150 = TT_GRID_BOARD_P150,
    TT_BOARD_P100A = TT_GRID_BOARD_P100A,
} TTBoard;

/* A physical NOC0 coordinate */
typedef struct TTGridXY {
    uint8_t x, y;
} TTGridXY;

/* What a board is built with (grid.yaml boards) */
typedef struct TTGridBoard {
    const char *name;
    int pcie;                   /* the PCIe endpoint in use, 0 or 1 */
    uint32_t harvested_cols;    /* default: bit x, physical column x off */
    int harvested_dram_bank;    /* default: physical bank, -1 for none */
    uint32_t harvested_eth;     /* bit c: Ethernet channel c fused off */
} TTGridBoard;

typedef enum TTCoreRole {
    TT_BRISC,
    TT_NCRISC,
    TT_TRISC0,
    TT_TRISC1,
    TT_TRISC2,
} TTCoreRole;

typedef enum TTNodeKind {
    TT_NODE_NONE,       /* routing fabric only */
    TT_NODE_TENSIX,
    TT_NODE_DRAM,
    TT_NODE_PCIE,
    TT_NODE_ARC,
    TT_NODE_ETH,
    TT_NODE_SECURITY,
    TT_NODE_L2CPU,
} TTNodeKind;

typedef struct TTNode {
    TTNodeKind kind;
    int16_t index;      /* tile index, DRAM bank, PCIe/ETH/L2CPU instance */
    int8_t port;        /* DRAM port 0..2 */
} TTNode;

typedef struct TTGrid {
    TTBoard board;
    uint32_t harvested_cols;    /* bit x: physical Tensix column x harvested */
    int harvested_dram_bank;    /* physical bank, -1 for none */
    uint32_t harvested_eth;     /* the board's: bit c, channel c off */
    int ntiles;
    int ndram;                  /* enabled banks */
    int pcie_x;                 /* physical x of the enabled PCIe endpoint */
    /* enabled Tensix tiles in column-major order, physical NOC0 coordinates */
    uint8_t tile_x[TT_MAX_TILES];
    uint8_t tile_y[TT_MAX_TILES];
    /* translated x of each enabled tile (harvested columns move to the end) */
    uint8_t tile_vx[TT_MAX_TILES];
    TTNode node[TT_GRID_W][TT_GRID_H];
} TTGrid;

extern const char *const tt_core_role_name[TT_CORES_PER_TILE];

/* The 14 physical Tensix columns in ascending order */
extern const uint8_t tt_tensix_cols[TT_TENSIX_COLS];

/*
 * Harvesting order: bit i of a harvesting mask, and of ARC telemetry's
 * enabled-column mask, stands for physical column tt_grid_harvest_order[i]
 */
extern const uint8_t tt_grid_harvest_order[TT_TENSIX_COLS];

extern const TTGridBoard tt_grid_boards[TT_GRID_BOARDS];

/*
 * Fill @g for @board with the given harvesting.  Returns false with a
 * message in @err if the combination is invalid.
 */
bool tt_grid_init(TTGrid *g, TTBoard board, uint32_t harvested_cols,
                  int harvested_dram_bank, const char **err);

/*
 * Use PCIe endpoint @pe (0: (2, 0), 1: (11, 0)) instead of the board's:
 * a P300's second chip serves the host from PCIe1
 */
void tt_grid_set_pcie(TTGrid *g, int pe);

/* Number of Tensix tiles left by a harvested-column mask */
int tt_grid_count_tiles(uint32_t harvested_cols);

/*
 * Ethernet channel @c's place among the channels that are not fused off
 * (its translated x is TT_VIRT_ETH_X0 plus that), or -1 if it is off
 */
int tt_grid_eth_logical(const TTGrid *g, int c);

/* Physical NOC0 coordinates of Ethernet channel @c's tile */
void tt_grid_eth_xy(int c, int *x, int *y);

/* Node at physical NOC0 (x, y); kind TT_NODE_NONE when outside the grid. */
TTNode tt_grid_node(const TTGrid *g, int x, int y);

/* Tile index of physical (x, y), or -1 */
int tt_grid_tile_at(const TTGrid *g, int x, int y);

/* Physical NOC0 coordinates of port @port of physical DRAM bank @bank */
void tt_grid_dram_port_xy(int bank, int port, int *x, int *y);

/*
 * Translated coordinates (x, first port y) of software DRAM bank @bank,
 * 0 <= bank < g->ndram, with blackhole-py's harvesting remap.
 */
void tt_grid_dram_bank_vxy(const TTGrid *g, int bank, int *x, int *y0);

/* Port offset per software bank and NOC used by firmware (blackhole-py) */
int tt_grid_dram_bank_port(int bank, int noc);

/*
 * Size in bytes of the bank-to-NOC table for a firmware built with
 * @num_dram / @num_l1 banks: the four arrays tt-metal's
 * noc_bank_table_init() reads back to back.
 */
size_t tt_grid_bank_table_size(int num_dram, int num_l1);

/* Write that table (little endian) into @buf of tt_grid_bank_table_size() */
void tt_grid_bank_table(const TTGrid *g, int num_dram, int num_l1,
                        uint8_t *buf);

#endif
