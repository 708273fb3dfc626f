/*
 * Multicast sender: over several rounds, wait until every receiver has
 * signalled on this core's "ready" semaphore, multicast the next chunk
 * to the receivers' landing buffer, then multicast the round number onto
 * their "valid" semaphore (tt-metal's sender/receiver pattern:
 * noc_semaphore_wait, noc_async_write_multicast,
 * noc_semaphore_set_multicast; programming_examples multicast).
 *
 * Runtime arguments: 0 source chunks (L1), 1 chunk bytes, 2 rounds,
 * 3 landing buffer (L1 of the receivers), 4 receivers' rectangle
 * (multicast encoding), 5 receivers in it, 6 ready semaphore id,
 * 7 valid semaphore id.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "kernel.h"

void kernel_main(void)
{
    uint32_t src = get_arg_val(0), chunk = get_arg_val(1);
    uint32_t rounds = get_arg_val(2), dst = get_arg_val(3);
    uint32_t rect = get_arg_val(4), ndests = get_arg_val(5);
    uint32_t ready = get_semaphore(get_arg_val(6));
    uint32_t valid = get_semaphore(get_arg_val(7));

    for (uint32_t r = 0; r < rounds; r++) {
        noc_semaphore_wait_min(ready, ndests * (r + 1));
        noc_async_write_multicast(src + r * chunk, rect, dst, chunk, ndests);
        /* the source of the semaphore write is this core's own copy */
        noc_semaphore_set(valid, r + 1);
        noc_async_write_multicast(valid, rect, valid, 4, ndests);
        noc_async_write_barrier();
    }
}
