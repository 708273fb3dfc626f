/*
 * Entry stubs of a bare image: a0 = core role, a1 = how it started
 * (1: default reset PC, 2: override PC programmed by BRISC).
 * GPRs are zero when a core leaves reset, so each stub sets what it needs.
 */
    .macro entry role, kind
    li a0, \role
    li a1, \kind
    j core_start
    .endm

    .section .entry.brisc, "ax"
    .globl _start
_start:
    entry 0, 1
    .section .entry.ncrisc, "ax"
    entry 1, 1
    .section .entry.trisc0, "ax"
    entry 2, 1
    .section .entry.trisc1, "ax"
    entry 3, 1
    .section .entry.trisc2, "ax"
    entry 4, 1

    .text
    .globl entry_override
    .balign 16
entry_override:             /* + 16 * role */
    .irp role, 0, 1, 2, 3, 4
    .balign 16
    entry \role, 2
    .endr

core_start:
    /* sp = LDM top - 16: 8 KiB for BRISC/NCRISC, 4 KiB for TRISCs */
    li sp, 0xffb01ff0
    li t0, 2
    blt a0, t0, 1f
    li sp, 0xffb00ff0
1:  mv s11, a0              /* role, for the trap handler (-ffixed-s11) */
    la t0, trap_entry
    csrw mtvec, t0
    call core_main
2:  j 2b

    /* Record the trap for the test and step over the faulting insn. */
    .balign 4
trap_entry:
    addi sp, sp, -16
    sw t0, 0(sp)
    sw t1, 4(sp)
    slli t1, s11, 2         /* mhartid reads 0 on every core: use s11 */
    la t0, trap_cause
    add t1, t1, t0
    csrr t0, mcause
    sw t0, 0(t1)
    csrr t0, mepc
    addi t0, t0, 4
    csrw mepc, t0
    lw t0, 0(sp)
    lw t1, 4(sp)
    addi sp, sp, 16
    mret

    /* mcause of the last trap per role; a test may define its own */
    .data
    .weak trap_cause
    .balign 4
trap_cause:
    .space 20
