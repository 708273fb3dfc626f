/*
 * Start-up of a boot-protocol firmware core: stack at the top of LDM, copy
 * the LDM data image from L1 (where the host put it), zero bss, run main.
 */
    .section .text.start, "ax"
    .globl _start
_start:
    la sp, 0xffb00000 + LDM_SIZE - 16
    la t0, __ldm_data_start
    la t1, __ldm_data_end
    li t2, LDM_IMAGE
1:  bgeu t0, t1, 2f
    lw t3, 0(t2)
    sw t3, 0(t0)
    addi t0, t0, 4
    addi t2, t2, 4
    j 1b
2:  la t1, __ldm_bss_end
3:  bgeu t0, t1, 4f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 3b
4:  call main
5:  j 5b
