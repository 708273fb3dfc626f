/*
 * What tools/tt-run and the ERISC kernels of a program that spans chips
 * agree on (an 'erisc' line of a description): where an image, its
 * arguments, its mailbox and its completion word live in the Ethernet
 * tile's L1.  tt-metal starts its Ethernet kernels through its own active
 * Ethernet firmware; tt-run has none and starts E0 bare, as a host loads
 * an image through the tile's reset-PC and soft-reset registers.
 *
 * The ranges stay below the base firmware's reserved L1 (0x70000 up) and
 * clear of its results; kernels keep their buffers in
 * [ETH_K_FREE, ETH_K_FREE_END).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_DISPATCH_ETH_KERNEL_H
#define TT_DISPATCH_ETH_KERNEL_H

#define ETH_K_BASE          0x20000    /* text, data and bss */
#define ETH_K_END           0x2e000
/*
 * Words the kernels of both ends of a link write into each other's L1:
 * zeroed by the host on every chip before any ERISC kernel of the
 * program starts, so that no kernel clears what its peer already sent
 */
#define ETH_K_MBOX          0x2e000
#define ETH_K_MBOX_SIZE     0x1000
#define ETH_K_ARGS          0x2f000    /* word 0: count, then arguments */
#define ETH_K_MAX_ARGS      64
#define ETH_K_DONE          0x2ff00    /* ETH_K_DONE_VALUE once main returned */
#define ETH_K_RESULT        0x2ff04    /* its return value: 0 is success */
#define ETH_K_DONE_VALUE    0xe4d0e000
#define ETH_K_FREE          0x30000
#define ETH_K_FREE_END      0x70000

#endif
