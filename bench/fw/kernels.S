/*
 * Benchmark kernels, in assembly so that the instruction count per
 * iteration is fixed by construction (RV32IM, no C extension).
 *
 * w1_kernel(iters, seed) -> checksum: 17 instructions per iteration on
 * both branch paths (xorshift32, multiply, data-dependent add or xor,
 * rotate, counter mix).
 *
 * w2_kernel(reps, seed) -> checksum: fill A (64 Ki words at 0x20000) with
 * an LCG, 5 instructions per word; then reps passes copying A to B
 * (0x60000) and back, XOR-summing every word and storing it plus the pass
 * number: 19 instructions per 4 words, 8 of them loads or stores, and 9
 * per pass around the loop.
 */
    .text
    .globl w1_kernel
w1_kernel:
    li a2, 0
    li a3, 0x9e3779b1
1:  slli t0, a1, 13
    xor a1, a1, t0
    srli t0, a1, 17
    xor a1, a1, t0
    slli t0, a1, 5
    xor a1, a1, t0
    mul t1, a1, a3
    andi t2, a1, 1
    bnez t2, 2f
    xor a2, a2, t1
    j 3f
2:  add a2, a2, t1
    nop
3:  slli t0, a2, 7
    srli t3, a2, 25
    or a2, t0, t3
    add a1, a1, a0
    addi a0, a0, -1
    bnez a0, 1b
    mv a0, a2
    ret

    .globl w2_kernel
w2_kernel:
    li t4, 0x20000
    li t5, 0x40000
    add t6, t4, t5
    mv t0, t4
    li t1, 1664525
    li t2, 1013904223
1:  mul a1, a1, t1
    add a1, a1, t2
    sw a1, 0(t0)
    addi t0, t0, 4
    bne t0, t6, 1b
    li a4, 0
    li a3, 0
    li a6, 0x20000
    li a7, 0x60000
2:  mv t4, a6
    mv t5, a7
    li t0, 0x40000
    add t6, a6, t0
3:  lw t0, 0(t4)
    lw t1, 4(t4)
    lw t2, 8(t4)
    lw t3, 12(t4)
    xor a4, a4, t0
    xor a4, a4, t1
    xor a4, a4, t2
    xor a4, a4, t3
    add t0, t0, a3
    add t1, t1, a3
    add t2, t2, a3
    add t3, t3, a3
    sw t0, 0(t5)
    sw t1, 4(t5)
    sw t2, 8(t5)
    sw t3, 12(t5)
    addi t4, t4, 16
    addi t5, t5, 16
    bne t4, t6, 3b
    mv t0, a6
    mv a6, a7
    mv a7, t0
    addi a3, a3, 1
    bne a3, a0, 2b
    mv a0, a4
    ret
