/*
 * Data-movement kernel feeding a compute kernel: pages of two interleaved
 * GDDR buffers into CB 0 (A) and CB 1 (B), one page at a time
 * (tt-metal's reader_binary_diff_lengths / matmul readers).
 *
 * Runtime arguments: 0 A base, 1 B base, 2 page size, 3 A's first page,
 * 4 A pages, 5 B's first page, 6 B pages, 7 banks (n), 8.. each bank's
 * NOC xy (tt-run's {banks}).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "kernel.h"

static void stream(int cb, uint32_t base, uint32_t page_size, uint32_t first,
                   uint32_t pages, uint32_t nbanks)
{
    for (uint32_t p = first; p < first + pages; p++) {
        uint32_t xy = get_arg_val(8 + p % nbanks);

        cb_reserve_back(cb, 1);
        noc_async_read(xy, dram_page_addr(base, nbanks, p, page_size),
                       get_write_ptr(cb), page_size);
        noc_async_read_barrier();
        cb_push_back(cb, 1);
    }
}

void kernel_main(void)
{
    uint32_t page_size = get_arg_val(2), nbanks = get_arg_val(7);

    stream(0, get_arg_val(0), page_size, get_arg_val(3), get_arg_val(4),
           nbanks);
    stream(1, get_arg_val(1), page_size, get_arg_val(5), get_arg_val(6),
           nbanks);
}
