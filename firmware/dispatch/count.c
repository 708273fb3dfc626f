/*
 * Adds one to a 32-bit counter in this core's L1 per launch: after N
 * back-to-back launches the counter reads N when no launch was lost or
 * run twice.
 *
 * Runtime arguments: 0 the counter's L1 address.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "kernel.h"

void kernel_main(void)
{
    volatile uint32_t *c = (volatile uint32_t *)get_arg_val(0);

    *c += 1;
}
