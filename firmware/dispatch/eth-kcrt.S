/*
 * An ERISC kernel's entry (tools/tt-run 'erisc' lines): a stack at the
 * top of E0's LDM, kernel_main(), then its return value and the
 * completion word tt-run waits for.  The core then spins: ttsim's ERISCs
 * stop at a WFI.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "eth-kernel.h"

    .section .text.start, "ax"
    .globl _start
_start:
    li sp, 0xffb01ff0
    call kernel_main
    li t0, ETH_K_RESULT
    sw a0, 0(t0)
    fence
    li t0, ETH_K_DONE
    li t1, ETH_K_DONE_VALUE
    sw t1, 0(t0)
1:  fence
    j 1b
