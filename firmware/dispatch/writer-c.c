/*
 * Data-movement kernel draining a compute kernel: pages from CB 16 to an
 * interleaved GDDR buffer (tt-metal's writer_unary for an output CB).
 *
 * Runtime arguments: 0 buffer base, 1 page size, 2 first page, 3 pages,
 * 4 banks (n), 5.. each bank's NOC xy.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "kernel.h"

#define CB_OUT  16

void kernel_main(void)
{
    uint32_t base = get_arg_val(0), page_size = get_arg_val(1);
    uint32_t first = get_arg_val(2), pages = get_arg_val(3);
    uint32_t nbanks = get_arg_val(4);

    for (uint32_t p = first; p < first + pages; p++) {
        cb_wait_front(CB_OUT, 1);
        noc_async_write(get_read_ptr(CB_OUT), get_arg_val(5 + p % nbanks),
                        dram_page_addr(base, nbanks, p, page_size),
                        page_size);
        noc_async_write_barrier();
        cb_pop_front(CB_OUT, 1);
    }
}
