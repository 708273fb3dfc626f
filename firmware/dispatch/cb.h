/*
 * The circular-buffer interface the project's worker firmware sets up and
 * its kernels use (C only: layout.h also feeds assembly and linker
 * scripts).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_DISPATCH_CB_H
#define TT_DISPATCH_CB_H

#include <stdint.h>

/*
 * One circular buffer's state as the firmware sets it up and kernels use
 * it (tt-metal's LocalCBInterface, circular_buffer_interface.h)
 */
typedef struct CBInterface {
    uint32_t fifo_size;
    uint32_t fifo_limit;
    uint32_t fifo_page_size;
    uint32_t fifo_num_pages;
    uint32_t fifo_rd_ptr;
    uint32_t fifo_wr_ptr;
    uint32_t tiles_acked_received_init;
    uint32_t fifo_wr_tile_ptr;
} CBInterface;

#endif
