/*
 * ERISC kernel: take the chunks eth-send streams over this Ethernet
 * channel's link (eth-link.h) and write each into a Tensix tile's L1.
 *
 * Arguments: 0 destination NOC xy, 1 destination address, 2 bytes,
 * 3 chunk bytes, as the sender's.
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

        link_wait(LINK_SENT, i + 1);
        noc_write_acked(0, LINK_SLOT(i, chunk), xy, addr + off, len);
        link_post(LINK_DONE, i + 1);
    }
    return 0;
}
