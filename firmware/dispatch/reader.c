/*
 * Data-movement kernel: stream pages of an interleaved GDDR buffer into
 * CB 0, one page at a time (tt-metal's reader_unary / loopback examples).
 *
 * Runtime arguments: 0 buffer base, 1 page size, 2 first page, 3 pages,
 * 4 banks (n), 5.. each bank's NOC xy (tt-run's {banks}).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "kernel.h"

#define CB_IN   0

void kernel_main(void)
{
    uint32_t base = get_arg_val(0), page_size = get_arg_val(1);
    uint32_t first = get_arg_val(2), pages = get_arg_val(3);
    uint32_t nbanks = get_arg_val(4);

    for (uint32_t p = first; p < first + pages; p++) {
        uint32_t xy = get_arg_val(5 + p % nbanks);

        cb_reserve_back(CB_IN, 1);
        noc_async_read(xy, dram_page_addr(base, nbanks, p, page_size),
                       get_write_ptr(CB_IN), page_size);
        noc_async_read_barrier();
        cb_push_back(CB_IN, 1);
    }
}
