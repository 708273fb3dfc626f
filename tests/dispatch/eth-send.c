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
    uint32_t xy = ARG(0), addr = ARG(1), bytes = ARG(2), chunk = ARG(3);
    uint32_t n, i;

    if (link_check()) {
        return 1;
    }
    n = (bytes + chunk - 1) / chunk;
    for (i = 0; i < n; i++) {
        uint32_t off = i * chunk;
        uint32_t len = bytes - off < chunk ? bytes - off : chunk;

        /* the slot is free once the receiver delivered its last chunk */
        if (i >= LINK_SLOTS) {
            link_wait(LINK_DONE, i + 1 - LINK_SLOTS);
        }
        noc_read(0, xy, addr + off, LINK_SLOT(i, chunk), len);
        eth_txq_l1_write(0, LINK_SLOT(i, chunk), LINK_SLOT(i, chunk), len);
        /* same queue, so the count lands after the chunk */
        link_post(LINK_SENT, i + 1);
    }
    link_wait(LINK_DONE, n);
    return 0;
}
