/*
 * ERISC kernel: stream a buffer of a Tensix tile's L1 over this
 * Ethernet channel's link, chunk by chunk (eth-link.h), to the
 * eth-recv kernel at the other end.
 *
 * Arguments: 0 source NOC xy, 1 source address, 2 bytes (a multiple of
 * 16), 3 chunk bytes (a multiple of 16, at most 16 KiB).
 * Returns 0, or 1 for bad arguments.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "eth-link.h"

int kernel_main(void)
{
    LinkArgs a;

    if (link_args(&a)) {
        return 1;
    }
    for (uint32_t i = 0; i < a.n; i++) {
        uint32_t slot = LINK_SLOT(i, a.chunk), len = link_len(&a, i);

        /* the slot is free once the receiver delivered its last chunk */
        if (i >= LINK_SLOTS) {
            link_wait(LINK_DONE, i + 1 - LINK_SLOTS);
        }
        noc_read(0, a.xy, a.addr + i * a.chunk, slot, len);
        eth_txq_l1_write(0, slot, slot, len);
        /* same queue, so the count lands after the chunk */
        link_post(LINK_SENT, i + 1);
    }
    link_wait(LINK_DONE, a.n);
    return 0;
}
