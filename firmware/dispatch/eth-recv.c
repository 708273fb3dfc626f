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
    LinkArgs a;

    if (link_args(&a)) {
        return 1;
    }
    for (uint32_t i = 0; i < a.n; i++) {
        link_wait(LINK_SENT, i + 1);
        noc_write_acked(0, LINK_SLOT(i, a.chunk), a.xy, a.addr + i * a.chunk,
                        link_len(&a, i));
        link_post(LINK_DONE, i + 1);
    }
    return 0;
}
