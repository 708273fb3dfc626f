/*
 * A kernel that never finishes, for tt-run's timeout path.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "kernel.h"

void kernel_main(void)
{
    for (;;) {
        invalidate_l1_cache();
    }
}
