/*
 * Entry stubs of tt-kernels: a0 = Tensix thread (TRISC number).  Each
 * TRISC gets a stack at the top of its 4 KiB local data memory, clears
 * its .bss there and runs core_main(), then parks until the host holds
 * it in reset again.  BRISC is never released by the host; should it
 * run, it parks.  No trap handler: ttsim does not implement mtvec.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
    .section .entry.brisc, "ax"
    .globl _start
_start:
1:  j 1b

    .macro entry thread
    li a0, \thread
    j trisc_start
    .endm

    .section .entry.trisc0, "ax"
    entry 0
    .section .entry.trisc1, "ax"
    entry 1
    .section .entry.trisc2, "ax"
    entry 2

    .text
trisc_start:
    li sp, 0xffb00ff0
    la t0, __bss_start
    la t1, __bss_end
2:  bgeu t0, t1, 3f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 2b
3:  call core_main
4:  j 4b
