/* Entry at L1 0: a stack in L1 below the parameter block, then C. */
    .section .text.entry, "ax"
    .globl _start
_start:
    li sp, 0x7ff0
    call bench_main
1:  j 1b
