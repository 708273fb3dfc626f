/*
 * Entry of a tt-run kernel, called by the worker firmware as
 * uint32_t kernel(void) on its own stack (tt-metal's kernel _start
 * returns the free stack; 0 here): clear bss, run kernel_main.  Only
 * PC-relative addressing (lla), so the image runs wherever it is put.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
    .section .text.start, "ax"
    .globl _start
_start:
    addi sp, sp, -16
    sw ra, 12(sp)
    lla t0, __bss_start
    lla t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:  call kernel_main
    lw ra, 12(sp)
    addi sp, sp, 16
    li a0, 0
    ret
