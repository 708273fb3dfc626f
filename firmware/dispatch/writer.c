/*
 * Data-movement kernel: take pages from CB 0, add a constant to each
 * 32-bit word (so results depend on the runtime arguments), and write
 * them to an interleaved GDDR buffer (tt-metal's writer_unary).
 *
 * Runtime arguments: 0 buffer base, 1 page size, 2 first page, 3 pages,
 * 4 value added, 5 banks (n), 6.. each bank's NOC xy.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "kernel.h"

#define CB_IN   0

void kernel_main(void)
{
    uint32_t base = get_arg_val(0), page_size = get_arg_val(1);
    uint32_t first = get_arg_val(2), pages = get_arg_val(3);
    uint32_t add = get_arg_val(4), nbanks = get_arg_val(5);

    for (uint32_t p = first; p < first + pages; p++) {
        uint32_t xy = get_arg_val(6 + p % nbanks);
        volatile uint32_t *w;

        cb_wait_front(CB_IN, 1);
        w = (volatile uint32_t *)get_read_ptr(CB_IN);
        for (uint32_t i = 0; i < page_size / 4; i++) {
            w[i] += add;
        }
        noc_async_write(get_read_ptr(CB_IN), xy,
                        dram_page_addr(base, nbanks, p, page_size),
                        page_size);
        noc_async_write_barrier();
        cb_pop_front(CB_IN, 1);
    }
}
