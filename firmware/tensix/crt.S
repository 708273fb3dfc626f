/*
 * Entry stubs of tt-kernels at the default reset PCs (kernel.ld): a0 =
 * the core's number, a1 = its main.  Each core gets a stack at the top
 * of the first 4 KiB of its local data memory, clears its .bss there and
 * runs its main: core_main(thread) on TRISC0-2, dm_main(role) on BRISC
 * (0) and NCRISC (1); then it parks until the host holds it in reset
 * again.  No trap handler: ttsim does not implement mtvec.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
    .macro entry n, main
    li a0, \n
    la a1, \main
    j start
    .endm

    .section .entry.brisc, "ax"
    .globl _start
_start:
    entry 0, dm_main
    .section .entry.trisc0, "ax"
    entry 0, core_main
    .section .entry.trisc1, "ax"
    entry 1, core_main
    .section .entry.trisc2, "ax"
    entry 2, core_main
    .section .entry.ncrisc, "ax"
    entry 1, dm_main

    .text
start:
    li sp, 0xffb00ff0
    la t0, __bss_start
    la t1, __bss_end
2:  bgeu t0, t1, 3f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 2b
3:  jalr a1
4:  j 4b
