/*
 * Firmware for the scripted gdb session (tests/gdb/gdb-test.py), on every
 * tile: each core writes (tile id << 8 | role) into its LDM and calls
 * checkpoint() once; then BRISC keeps incrementing `shared` in its tile's
 * L1 while the other cores idle.
 */
#include "tt.h"

#define LDM_TAG     (LDM_BASE + 0x100)

volatile uint32_t shared;

/* noipa: -O2 drops calls to a side-effect-free noinline function */
uint32_t __attribute__((noipa)) checkpoint(uint32_t tag)
{
    return tag + 1;
}

void core_main(int role, int kind)
{
    uint32_t id = REG32(NOC_ID_LOGICAL(0)) & 0xfff;

    if (role == BRISC) {
        REG32(SOFT_RESET_0) = 0;
    }
    REG32(LDM_TAG) = id << 8 | role;
    checkpoint(REG32(LDM_TAG));
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
