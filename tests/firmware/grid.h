/*
 * The P150's Tensix tiles for test firmware, from the generated grid
 * (hw/tenstorrent/data/grid.yaml through scripts/tenstorrent/gen-grid.py)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_FW_GRID_H
#define TT_FW_GRID_H

#include "noc.h"
#include "tt-grid.h"

/*
 * NOC coordinates (XY()) of Tensix tile @k of all TT_TENSIX_COLS x
 * TT_TENSIX_ROWS, in column-major order: translated coordinates, which
 * are the physical ones on an unharvested P150
 */
static inline uint32_t tensix_xy(int k)
{
    static const uint8_t cols[TT_TENSIX_COLS] = TT_GRID_TENSIX_COLS_INIT;

    return XY(cols[k / TT_TENSIX_ROWS], TT_TENSIX_Y0 + k % TT_TENSIX_ROWS);
}

/* This core's tile's index k among the first @n of tensix_xy(), or -1 */
static inline int tensix_index(int n)
{
    uint32_t id = REG32(NOC_ID_LOGICAL(0)) & 0xfff;

    for (int k = 0; k < n; k++) {
        if (tensix_xy(k) == id) {
            return k;
        }
    }
    return -1;
}

/*
 * Count this tile as done at tile 0's L1 word @done, and at @good too if
 * @ok, with NOC atomics (@scratch: 16 bytes of this tile's L1 for their
 * returns)
 */
static inline void tensix_report(uint32_t done, uint32_t good, int ok,
                                 uint32_t scratch)
{
    if (ok) {
        noc_atomic(0, tensix_xy(0), good, AT_INCR_GET(good), 1, scratch, 0);
    }
    noc_atomic(1, tensix_xy(0), done, AT_INCR_GET(done), 1, scratch, 0);
}

#endif
