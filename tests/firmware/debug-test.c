/*
 * Target of the RISC debug-register test (tests/qtest/tt-risc-debug-test.c;
 * bare image, the tile at translated (1, 2)): BRISC and TRISC0 each leave
 * a marker in their own LDM, publish the address of their loop and then
 * count in L1 forever with three instructions whose effect the test works
 * out by hand while it halts, steps and resumes them:
 *
 *   loop: addi a0, a0, 1
 *         sw   a0, 0(a1)
 *         j    loop
 *
 * TRISC2 publishes the address of an ebreak, executes it (the core pauses
 * for its debugger) and sets a flag once resumed.  The other cores wait
 * for interrupts.
 */
#include "tt.h"
#include "count-loop.h"

#define LDM_MARK        (LDM_BASE + 0x100)
#define COUNTER(role)   (0x60000u + 0x10u * (role))
#define LOOP_ADDR(role) (0x60100u + 0x4u * (role))

#define EBREAK_ADDR     0x60120u
#define AFTER_EBREAK    0x60124u

void ebreak_here(void);

__asm__(
    "   .text\n"
    "   .globl ebreak_here\n"
    "ebreak_here:\n"
    "   ebreak\n"
    "   ret\n");

static void counter_core(int role, uint32_t mark)
{
    REG32(LDM_MARK) = mark;
    REG32(LOOP_ADDR(role)) = (uint32_t)(uintptr_t)count_loop_body;
    count_loop((uint32_t *)(uintptr_t)COUNTER(role));
}

static void brisc(void)
{
    REG32(SOFT_RESET_0) = 0;            /* release the other cores */
    counter_core(BRISC, 0xb0b0cafeu);
}

static void trisc0(void)
{
    counter_core(TRISC0, 0x70707070u);
}

static void trisc2(void)
{
    REG32(EBREAK_ADDR) = (uint32_t)(uintptr_t)ebreak_here;
    ebreak_here();
    REG32(AFTER_EBREAK) = 1;
}

void core_main(int role, int kind)
{
    static const tt_role_fn fn[NCORES] = {
        brisc, 0, trisc0, 0, trisc2,
    };

    tt_reporter_main(role, fn);
}
