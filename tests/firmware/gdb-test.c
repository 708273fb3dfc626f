/*
 * Firmware for the scripted gdb session (tests/gdb/gdb-test.py), on every
 * tile: each core writes (tile id << 8 | role) into its LDM and calls
 * checkpoint() once; TRISC1 then pushes a run of inline Tensix words; then
 * BRISC keeps incrementing `shared` in its tile's L1 while the other cores
 * idle.
 */
#include "tensix.h"

#define LDM_TAG     (LDM_BASE + 0x100)

volatile uint32_t shared;

/* noipa: -O2 drops calls to a side-effect-free noinline function */
uint32_t __attribute__((noipa)) checkpoint(uint32_t tag)
{
    return tag + 1;
}

/* Thread 1's GPR20 as TRISC1 sees it: the words of tensix_run() count */
volatile uint32_t *const run_gpr __attribute__((used)) =
    (volatile uint32_t *)TT_MY_GPR(20);    /* volatile: MMIO */

/*
 * TRISC1: a run of 16 inline Tensix words across a page end, 4 words
 * before it and 12 after, with the label run_mid 4 words into the second
 * page (gdb-test.py breaks there).  GPR20 = 0, then 14 increments: 6
 * before run_mid.  The padding is jumped over: zero words are Tensix NOPs.
 */
static void tensix_run(void)
{
    __asm__ volatile("j 1f\n.balign 4096\n.skip 4080\n1:\n"
                     ".word %0\n.word %1\n.rept 6\n.word %2\n.endr\n"
                     ".globl run_mid\nrun_mid:\n.rept 8\n.word %2\n.endr"
                     : : "i"(TT_ROL2(TT_SETDMAREG16(40, 0))),
                         "i"(TT_ROL2(TT_SETDMAREG16(41, 0))),
                         "i"(TT_ROL2(TT_ADDDMAREG_IMM(20, 1, 20)))
                     : "memory");
}

void core_main(int role, int kind)
{
    uint32_t id = REG32(NOC_ID_LOGICAL(0)) & 0xfff;

    if (role == BRISC) {
        REG32(SOFT_RESET_0) = 0;
    }
    REG32(LDM_TAG) = id << 8 | role;
    checkpoint(REG32(LDM_TAG));
    if (role == TRISC1) {
        tensix_run();
    }
    if (role != BRISC) {
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    for (;;) {
        for (volatile uint32_t i = 0; i < 100000; i++) {
        }
        shared++;
    }
}
