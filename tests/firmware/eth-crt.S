/* ERISC entry: a stack at the top of the core's LDM, then eth_main() */
    .section .text.start, "ax"
    .globl _start
_start:
    li sp, 0xffb01ff0
    call eth_main
1:  j 1b
