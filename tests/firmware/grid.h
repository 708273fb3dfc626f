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

#endif
