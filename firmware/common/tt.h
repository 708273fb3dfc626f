/*
 * Shared definitions for the project's RV32 test firmware.
 * Addresses: tt-isa-documentation BlackholeA0/TensixTile/BabyRISCV/README.md
 * and tt-metal blackhole/tensix.h.
 */
#ifndef TT_FW_H
#define TT_FW_H

#include <stdint.h>

#define REG32(a)            (*(volatile uint32_t *)(uintptr_t)(a))

/* NIU register offsets, as the emulator's model declares them */
#define TT_PLAIN_REGS "niu-regs.h"
#include "../../include/hw/tenstorrent/plain-regfields.h"

/* Control/debug and PC readback offsets, as the model declares them */
#define TT_PLAIN_REGS "riscv-debug-regmap.h"
#include "../../include/hw/tenstorrent/plain-regfields.h"

/* Core-local windows, from the emulator's tile map (generated) */
#include "tt-tile-map.h"

#define LDM_BASE            TT_TILE_LDM_BASE
#define DEBUG_REGS          TT_TILE_DEBUG_REGS_BASE
#define PIC_REGS            TT_TILE_PIC_BASE
#define SOFT_RESET_0        (DEBUG_REGS + A_SOFT_RESET_0)
#define WALL_CLOCK_L        (DEBUG_REGS + A_WALL_CLOCK_L)
#define WALL_CLOCK_1        (DEBUG_REGS + A_WALL_CLOCK_1)
#define WALL_CLOCK_H        (DEBUG_REGS + A_WALL_CLOCK_H)
#define DISABLE_RESET       (DEBUG_REGS + A_DISABLE_RESET)
#define TRISC_RESET_PC(n)   (DEBUG_REGS + A_TRISC0_RESET_PC + 4 * (n))
#define TRISC_RESET_PC_OVERRIDE (DEBUG_REGS + A_TRISC_RESET_PC_OVERRIDE)
#define NCRISC_RESET_PC     (DEBUG_REGS + A_NCRISC_RESET_PC)
#define NCRISC_RESET_PC_OVERRIDE (DEBUG_REGS + A_NCRISC_RESET_PC_OVERRIDE)
#define PC_READBACK(role)   (PIC_REGS + A_PC_READBACK_BRISC + 4 * (role))
#define SLOW_LDM(role)      (TT_TILE_SLOW_LDM_BASE + 0x2000u * (role))
#define NIU_BASE(noc)       (TT_TILE_NIU0_BASE + \
                             (TT_TILE_NIU1_BASE - TT_TILE_NIU0_BASE) * (noc))
#define NOC_ID_LOGICAL(noc) (NIU_BASE(noc) + A_NOC_ID_LOGICAL)
#define NOC_NODE_ID(noc)    (NIU_BASE(noc) + A_NOC_NODE_ID)

#define SOFT_RESET_ALL      TT_SOFT_RESET_CORES
#define SOFT_RESET_BRISC    ((uint32_t)R_SOFT_RESET_0_BRISC_MASK)
#define SOFT_RESET_TRISCS   ((uint32_t)R_SOFT_RESET_0_TRISCS_MASK)
#define SOFT_RESET_NCRISC   ((uint32_t)R_SOFT_RESET_0_NCRISC_MASK)

enum { BRISC, NCRISC, TRISC0, TRISC1, TRISC2, NCORES };

/* Entry of an ERISC image, called by eth-crt.S */
void eth_main(void);

/* Semihosting (RISC-V: slli/ebreak/srai, same page) */
static inline long semihost(long op, long arg)
{
    register long a0 __asm__("a0") = op;
    register long a1 __asm__("a1") = arg;

    __asm__ volatile(".balign 16\n\t"
                     ".option push\n\t.option norvc\n\t"
                     "slli x0, x0, 0x1f\n\tebreak\n\tsrai x0, x0, 7\n\t"
                     ".option pop"
                     : "+r"(a0) : "r"(a1) : "memory");
    return a0;
}

static inline void sh_puts(const char *s)
{
    semihost(0x04, (long)s);
}

static inline void __attribute__((noreturn)) sh_exit(int code)
{
    static uint32_t args[2];

    args[0] = 0x20026;  /* ADP_Stopped_ApplicationExit */
    args[1] = code;
    semihost(0x20, (long)args);   /* SYS_EXIT_EXTENDED */
    for (;;) {
    }
}

static inline uint32_t wall_clock(void)
{
    return REG32(WALL_CLOCK_L);
}

/* Spin until *p == v or about @cycles wall-clock ticks pass */
static inline int wait_eq(volatile uint32_t *p, uint32_t v, uint32_t cycles)
{
    uint32_t t0 = wall_clock();

    while (*p != v) {
        if (wall_clock() - t0 > cycles) {
            return 0;
        }
    }
    return 1;
}

/* Spin until the L1 word at @addr is @v (fence: tt-metal's invalidate) */
static inline void spin_until(uint32_t addr, uint32_t v)
{
    while (REG32(addr) != v) {
        __asm__ volatile("fence");
    }
}

/* Wait for interrupts for good: a core with nothing (more) to do */
static inline void __attribute__((noreturn)) idle(void)
{
    for (;;) {
        __asm__ volatile("wfi");
    }
}

#define CSR_READ(csr) ({ uint32_t v_; \
    __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })

/* The tile at translated (1, 2) runs the test; the others idle */
#define REPORTER_ID     ((2u << 6) | 1u)

typedef void (*tt_role_fn)(void);

/*
 * core_main of a single-tile test: on the reporter tile run @fn[role]
 * (NULL: nothing); then, and on every other tile, wait for interrupts.
 */
static inline void __attribute__((noreturn))
tt_reporter_main(int role, const tt_role_fn fn[NCORES])
{
    if (REG32(NOC_ID_LOGICAL(0)) == REPORTER_ID && fn[role]) {
        fn[role]();
    }
    idle();
}

#endif
