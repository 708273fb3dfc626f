/*
 * Multicast receiver: each round, tell the sender this core is ready
 * (INCR_GET on its "ready" semaphore), wait until the sender's "valid"
 * semaphore write reaches this round, and add the landed chunk, word by
 * word, into a result buffer that the host checks.
 *
 * Runtime arguments: 0 sender xy, 1 landing buffer, 2 chunk bytes,
 * 3 rounds, 4 result buffer (chunk bytes), 5 ready semaphore id, 6 valid
 * semaphore id.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "kernel.h"

void kernel_main(void)
{
    uint32_t sender = get_arg_val(0), dst = get_arg_val(1);
    uint32_t chunk = get_arg_val(2), rounds = get_arg_val(3);
    volatile uint32_t *in = (volatile uint32_t *)dst;
    volatile uint32_t *res = (volatile uint32_t *)get_arg_val(4);
    uint32_t ready = get_semaphore(get_arg_val(5));
    uint32_t valid = get_semaphore(get_arg_val(6));

    for (uint32_t i = 0; i < chunk / 4; i++) {
        res[i] = 0;
    }
    for (uint32_t r = 0; r < rounds; r++) {
        noc_semaphore_inc(sender, ready, 1);
        noc_async_atomic_barrier();
        noc_semaphore_wait(valid, r + 1);
        for (uint32_t i = 0; i < chunk / 4; i++) {
            res[i] += in[i];
        }
    }
}
