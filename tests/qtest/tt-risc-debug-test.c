/*
 * The RISC debug registers (RISC_DBG_CNTL_0/1, RISC_DBG_STATUS_0/1) driven
 * from the host path, a BAR0 TLB window onto the tile, with tt-exalens'
 * protocol (baby_risc_debug.py): halt a running core, read its registers
 * and memory, step it instruction by instruction, change a register and
 * the PC, resume it.  The target is tests/firmware/debug-test.c: BRISC and
 * TRISC0 of the tile at (1, 2) count in L1 with a three-instruction loop
 * (addi a0, a0, 1; sw a0, 0(a1); j loop), so every expected value below
 * follows from that loop, not from the model.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "hw/registerfields.h"
#include "hw/tenstorrent/riscv-debug-regmap.h"
#include "tt-tile-map.h"        /* generated from data/tile-map.yaml */
#include "tt-qtest-util.h"

#define ONE_COLUMN  "harvested-tensix-cols=2:3:4:5:6:7:10:11:12:13:14:15:16"

/* Windows: 1 onto the tile's L1, 2 onto its registers at 0xFFA00000 */
#define WIN_L1          TT_WIN_2M(1)
#define WIN_REGS        TT_WIN_2M(2)
/* the tile's map seen through a window onto 0xFFA00000 */
#define TILE_REG(base, r) (WIN_REGS + (base) - 0xffa00000u + A_##r)
#define CNTL_0          TILE_REG(TT_TILE_DEBUG_REGS_BASE, RISC_DBG_CNTL_0)
#define CNTL_1          TILE_REG(TT_TILE_DEBUG_REGS_BASE, RISC_DBG_CNTL_1)
#define STATUS_0        TILE_REG(TT_TILE_DEBUG_REGS_BASE, RISC_DBG_STATUS_0)
#define STATUS_1        TILE_REG(TT_TILE_DEBUG_REGS_BASE, RISC_DBG_STATUS_1)
#define SOFT_RESET_0    TILE_REG(TT_TILE_DEBUG_REGS_BASE, SOFT_RESET_0)
#define PC_TRISC1       (TILE_REG(TT_TILE_PIC_BASE, PC_READBACK_BRISC) + 4 * 3)
#define DBG_BUS_CTRL    TILE_REG(TT_TILE_DEBUG_REGS_BASE, DBG_BUS_CTRL)
#define DBG_RD_DATA     TILE_REG(TT_TILE_DEBUG_REGS_BASE, DBG_RD_DATA)

/* Debug-interface core numbers: BRISC 0, TRISC0 1, TRISC1 2, TRISC2 3 */
enum { DBG_B, DBG_T0, DBG_T1, DBG_T2 };

/* DR numbers and DR1 commands (DebugInterface.md, tt-exalens) */
#define DR_STATUS       0
#define DR_CMD          1
#define DR_ARG0         2
#define DR_ARG1         3
#define DR_RESULT       4
#define CMD_MODE        0x80000000u
#define CMD_HALT        0x1
#define CMD_STEP        0x2
#define CMD_CONTINUE    0x4
#define CMD_READ_REG    0x8
#define CMD_WRITE_REG   0x10
#define CMD_READ_MEM    0x20
#define CMD_WRITE_MEM   0x40
#define CMD_SET_PC      0x100
#define REG_A0          10
#define REG_PC          32

/* debug-test.c */
#define COUNTER(dbg)    (0x60000u + 0x10u * ((dbg) ? 2 : 0))
#define LOOP_ADDR(dbg)  (0x60100u + 0x4u * ((dbg) ? 2 : 0))
#define LDM_MARK        0xffb00100u
#define EBREAK_ADDR     0x60120u
#define AFTER_EBREAK    0x60124u

static void dr_write(QTestState *q, int core, int dr, uint32_t v)
{
    tt_bar_writel(q, 0, CNTL_1, v);
    tt_bar_writel(q, 0, CNTL_0, 0x80010000u | core << 17 | dr);
    tt_bar_writel(q, 0, CNTL_0, 0);
}

static uint32_t dr_read(QTestState *q, int core, int dr)
{
    tt_bar_writel(q, 0, CNTL_0, 0x80000000u | core << 17 | dr);
    tt_bar_writel(q, 0, CNTL_0, 0);
    g_assert_cmphex(tt_bar_readl(q, 0, STATUS_0) & (1u << 30), !=, 0);
    return tt_bar_readl(q, 0, STATUS_1);
}

static void command(QTestState *q, int core, uint32_t cmd)
{
    dr_write(q, core, DR_CMD, CMD_MODE | cmd);
}

static uint32_t reg(QTestState *q, int core, int n)
{
    dr_write(q, core, DR_ARG0, n);
    command(q, core, CMD_READ_REG);
    return dr_read(q, core, DR_RESULT);
}

static void set_reg(QTestState *q, int core, int n, uint32_t v)
{
    dr_write(q, core, DR_ARG1, v);
    dr_write(q, core, DR_ARG0, n);
    command(q, core, CMD_WRITE_REG);
}

static uint32_t mem(QTestState *q, int core, uint32_t addr)
{
    dr_write(q, core, DR_ARG0, addr);
    command(q, core, CMD_READ_MEM);
    return dr_read(q, core, DR_RESULT);
}

static void set_mem(QTestState *q, int core, uint32_t addr, uint32_t v)
{
    dr_write(q, core, DR_ARG1, v);
    dr_write(q, core, DR_ARG0, addr);
    command(q, core, CMD_WRITE_MEM);
}

/* tt-exalens' step() on Blackhole: two STEP commands, one instruction */
static void step(QTestState *q, int core)
{
    command(q, core, CMD_STEP);
    command(q, core, CMD_STEP);
}

static bool halted(QTestState *q, int core)
{
    return dr_read(q, core, DR_STATUS) & 1;
}

static uint32_t l1(QTestState *q, uint32_t addr)
{
    return tt_bar_readl(q, 0, WIN_L1 + addr);
}

/* Wait until the counter at @addr moves past @from */
static uint32_t counting(QTestState *q, uint32_t addr, uint32_t from)
{
    for (int i = 0; i < 2000; i++) {
        uint32_t v = l1(q, addr);

        if (v != from) {
            return v;
        }
        g_usleep(5000);
    }
    g_error("counter at 0x%x stuck at %u", addr, from);
}

static QTestState *boot(void)
{
    QTestState *q = qtest_initf("-M blackhole,firmware=%s/debug-test.elf,"
                                ONE_COLUMN "%s -accel tcg "
                                "-d guest_errors,unimp", tt_firmware_dir(),
                                getenv("TT_DBG_MACHINE_OPTS") ?: "");

    tt_tlb_2m(q, 1, 0, 1, 2, 1, 2, 0, 0);
    tt_tlb_2m(q, 2, 0xffa00000, 1, 2, 1, 2, 0, 0);
    counting(q, COUNTER(DBG_B), 0);
    counting(q, COUNTER(DBG_T0), 0);
    return q;
}

static void test_halt_regs_memory(void)
{
    QTestState *q = boot();
    uint32_t loop = l1(q, LOOP_ADDR(DBG_B)), pc, a0, count, t0;

    command(q, DBG_B, 0);
    g_assert_false(halted(q, DBG_B));
    command(q, DBG_B, CMD_HALT);
    g_assert_true(halted(q, DBG_B));
    {
        g_autofree char *info = qtest_hmp(q, "info tt 1 2");

        g_assert_nonnull(strstr(info, "debug-halted"));
    }

    /* BRISC stands still; TRISC0 keeps counting */
    count = l1(q, COUNTER(DBG_B));
    t0 = l1(q, COUNTER(DBG_T0));
    g_usleep(20000);
    g_assert_cmpuint(l1(q, COUNTER(DBG_B)), ==, count);
    counting(q, COUNTER(DBG_T0), t0);

    /* the PC is on one of the loop's instructions; a0 agrees with L1 */
    pc = reg(q, DBG_B, REG_PC);
    a0 = reg(q, DBG_B, REG_A0);
    g_assert_true(pc == loop || pc == loop + 4 || pc == loop + 8);
    g_assert_cmpuint(a0, ==, pc == loop + 4 ? count + 1 : count);
    g_assert_cmphex(reg(q, DBG_B, 11), ==, COUNTER(DBG_B));     /* a1 */
    /* the PC as tt-exalens reads it on Blackhole: debug bus daisy 7 */
    tt_bar_writel(q, 0, DBG_BUS_CTRL, 0x2207000b);
    g_assert_cmphex(tt_bar_readl(q, 0, DBG_RD_DATA), ==, pc);
    tt_bar_writel(q, 0, DBG_BUS_CTRL, 0x22070019);              /* NCRISC */
    /* the PC it shows once it has reached its loop (a loaded host: later) */
    for (int i = 0; i < 500 && tt_bar_readl(q, 0, DBG_RD_DATA) < 0x20000;
         i++) {
        g_usleep(10000);
    }
    g_assert_cmphex(tt_bar_readl(q, 0, DBG_RD_DATA), >=, 0x20000);
    g_assert_cmphex(reg(q, DBG_B, 0), ==, 0);

    /* memory as the core sees it: its own LDM, the tile's L1 */
    g_assert_cmphex(mem(q, DBG_B, LDM_MARK), ==, 0xb0b0cafe);
    g_assert_cmphex(mem(q, DBG_B, COUNTER(DBG_B)), ==, count);
    set_mem(q, DBG_B, LDM_MARK + 4, 0x12345678);
    g_assert_cmphex(mem(q, DBG_B, LDM_MARK + 4), ==, 0x12345678);
    set_mem(q, DBG_B, 0x60200, 0xfeedf00d);
    g_assert_cmphex(l1(q, 0x60200), ==, 0xfeedf00d);

    /* TRISC0's LDM is its own; it must be halted for memory access */
    g_assert_cmphex(mem(q, DBG_T0, LDM_MARK), ==, 0);   /* refused */
    command(q, DBG_T0, CMD_HALT);
    g_assert_true(halted(q, DBG_T0));
    g_assert_cmphex(mem(q, DBG_T0, LDM_MARK), ==, 0x70707070);
    g_assert_cmphex(mem(q, DBG_T0, LDM_MARK + 4), ==, 0);
    command(q, DBG_T0, CMD_CONTINUE);
    g_assert_false(halted(q, DBG_T0));
    counting(q, COUNTER(DBG_T0), l1(q, COUNTER(DBG_T0)));

    /* resume BRISC */
    command(q, DBG_B, CMD_CONTINUE);
    g_assert_false(halted(q, DBG_B));
    counting(q, COUNTER(DBG_B), count);
    qtest_quit(q);
}

static void test_step_and_modify(void)
{
    QTestState *q = boot();
    uint32_t loop = l1(q, LOOP_ADDR(DBG_B));

    command(q, DBG_B, CMD_MODE);
    command(q, DBG_B, CMD_HALT);
    g_assert_true(halted(q, DBG_B));

    /* new PC (tt-exalens puts it in DR3) and a0 = 1000 */
    dr_write(q, DBG_B, DR_ARG1, loop);
    command(q, DBG_B, CMD_SET_PC);
    g_assert_cmphex(reg(q, DBG_B, REG_PC), ==, loop);
    set_reg(q, DBG_B, REG_A0, 1000);
    g_assert_cmpuint(reg(q, DBG_B, REG_A0), ==, 1000);

    /* one STEP alone only arms (Blackhole steps on the second) */
    command(q, DBG_B, CMD_STEP);
    g_assert_cmphex(reg(q, DBG_B, REG_PC), ==, loop);

    step(q, DBG_B);                                 /* addi */
    g_assert_true(halted(q, DBG_B));
    g_assert_cmphex(reg(q, DBG_B, REG_PC), ==, loop + 4);
    g_assert_cmpuint(reg(q, DBG_B, REG_A0), ==, 1001);
    g_assert_cmpuint(l1(q, COUNTER(DBG_B)), !=, 1001);
    step(q, DBG_B);                                 /* sw */
    g_assert_cmphex(reg(q, DBG_B, REG_PC), ==, loop + 8);
    g_assert_cmpuint(l1(q, COUNTER(DBG_B)), ==, 1001);
    step(q, DBG_B);                                 /* j */
    g_assert_cmphex(reg(q, DBG_B, REG_PC), ==, loop);
    for (int i = 0; i < 3; i++) {
        step(q, DBG_B);
    }
    g_assert_cmpuint(l1(q, COUNTER(DBG_B)), ==, 1002);
    g_assert_cmpuint(reg(q, DBG_B, REG_A0), ==, 1002);

    /* x0 stays 0 */
    set_reg(q, DBG_B, 0, 5);
    g_assert_cmphex(reg(q, DBG_B, 0), ==, 0);

    /* resume: it counts on from 1002 */
    command(q, DBG_B, CMD_CONTINUE);
    g_assert_cmpuint(counting(q, COUNTER(DBG_B), 1002), >, 1002);

    qtest_quit(q);
}

static void test_reset_and_bad_input(void)
{
    QTestState *q = boot();
    uint32_t pc;

    /* TRISC1 waits for interrupts in tt_reporter_main (PC snapshot) */
    for (int i = 0; i < 2000 && !(tt_bar_readl(q, 0, PC_TRISC1) >> 17); i++) {
        g_usleep(5000);
    }
    command(q, DBG_T1, CMD_HALT);
    g_assert_true(halted(q, DBG_T1));
    pc = reg(q, DBG_T1, REG_PC);
    g_assert_cmphex(pc, >=, 0x20000);
    g_assert_cmphex(pc, <, 0x30000);
    /* its soft reset forgets the debug state */
    tt_bar_writel(q, 0, SOFT_RESET_0, 1u << 13);
    tt_bar_writel(q, 0, SOFT_RESET_0, 0);
    g_assert_false(halted(q, DBG_T1));
    g_assert_cmphex(dr_read(q, DBG_T1, DR_CMD), ==, 0);

    /* bad input: logged, defined results, the chip keeps running */
    g_assert_cmphex(dr_read(q, DBG_B, 7), ==, 0);       /* no DR7 */
    dr_write(q, DBG_B, DR_STATUS, 1);                   /* read-only */
    g_assert_false(halted(q, DBG_B));
    step(q, DBG_B);                                     /* not halted */
    command(q, DBG_B, CMD_HALT);
    g_assert_cmphex(reg(q, DBG_B, 40), ==, 0);          /* no register */
    g_assert_cmphex(mem(q, DBG_B, 0xfff00000), ==, 0);  /* nothing there */
    g_assert_cmphex(mem(q, DBG_B, LDM_MARK + 2), ==, 0xb0b0cafe);
    tt_bar_writel(q, 0, CNTL_0, 0x80080000u);           /* bit 19 */
    tt_bar_writel(q, 0, CNTL_0, 0);
    tt_bar_writel(q, 0, STATUS_1, 1);                   /* read-only */
    command(q, DBG_B, CMD_CONTINUE);
    counting(q, COUNTER(DBG_B), l1(q, COUNTER(DBG_B)));
    qtest_quit(q);
}

static void wait_halted(QTestState *q, int core)
{
    for (int i = 0; i < 2000 && !halted(q, core); i++) {
        g_usleep(5000);
    }
    g_assert_true(halted(q, core));
}

/*
 * DR5/DR10+: a PC breakpoint on the loop's sw stops BRISC before it, once
 * per iteration; a write watchpoint on the counter stops it after the sw.
 */
static void test_breakpoints(void)
{
    QTestState *q = boot();
    uint32_t loop = l1(q, LOOP_ADDR(DBG_B)), a0;

    dr_write(q, DBG_B, 10, loop + 4);
    dr_write(q, DBG_B, 5, 0x8);                 /* slot 0: PC */
    g_assert_cmphex(dr_read(q, DBG_B, 10), ==, loop + 4);
    wait_halted(q, DBG_B);
    g_assert_cmphex(dr_read(q, DBG_B, DR_STATUS), ==, 0x103);
    g_assert_cmphex(reg(q, DBG_B, REG_PC), ==, loop + 4);
    a0 = reg(q, DBG_B, REG_A0);
    g_assert_cmpuint(l1(q, COUNTER(DBG_B)), ==, a0 - 1);

    /* continue: exactly one more iteration */
    command(q, DBG_B, CMD_CONTINUE);
    wait_halted(q, DBG_B);
    g_assert_cmphex(dr_read(q, DBG_B, DR_STATUS), ==, 0x103);
    g_assert_cmphex(reg(q, DBG_B, REG_PC), ==, loop + 4);
    g_assert_cmpuint(reg(q, DBG_B, REG_A0), ==, a0 + 1);
    g_assert_cmpuint(l1(q, COUNTER(DBG_B)), ==, a0);

    /* slot 1 instead: a write watchpoint on the counter */
    dr_write(q, DBG_B, 11, COUNTER(DBG_B));
    dr_write(q, DBG_B, 5, 0xa0);
    command(q, DBG_B, CMD_CONTINUE);            /* the sw is the first write */
    wait_halted(q, DBG_B);
    g_assert_cmphex(dr_read(q, DBG_B, DR_STATUS), ==, 0x205);
    g_assert_cmphex(reg(q, DBG_B, REG_PC), ==, loop + 8);
    g_assert_cmpuint(l1(q, COUNTER(DBG_B)), ==, a0 + 1);
    command(q, DBG_B, CMD_CONTINUE);
    wait_halted(q, DBG_B);
    g_assert_cmphex(dr_read(q, DBG_B, DR_STATUS), ==, 0x205);
    g_assert_cmphex(reg(q, DBG_B, REG_PC), ==, loop + 8);
    g_assert_cmpuint(l1(q, COUNTER(DBG_B)), ==, a0 + 2);

    /* all slots off: it runs freely again */
    dr_write(q, DBG_B, 5, 0);
    command(q, DBG_B, CMD_CONTINUE);
    g_assert_cmpuint(counting(q, COUNTER(DBG_B), a0 + 2), >, a0 + 2);
    g_assert_false(halted(q, DBG_B));
    qtest_quit(q);
}

/* DebugInterface.md: ebreak pauses the core, DR0 = halted | ebreak */
static void test_ebreak(void)
{
    QTestState *q = boot();
    uint32_t at;
    int i;

    for (i = 0; i < 2000 && !(dr_read(q, DBG_T2, DR_STATUS) & 1); i++) {
        g_usleep(5000);
    }
    g_assert_cmphex(dr_read(q, DBG_T2, DR_STATUS), ==, 0x9);
    at = l1(q, EBREAK_ADDR);
    g_assert_cmphex(reg(q, DBG_T2, REG_PC), ==, at + 4);   /* tt-exalens */
    g_usleep(20000);
    g_assert_cmphex(l1(q, AFTER_EBREAK), ==, 0);
    /* tt-exalens' Blackhole continue after an ebreak: set PC, continue */
    dr_write(q, DBG_T2, DR_ARG1, reg(q, DBG_T2, REG_PC));
    command(q, DBG_T2, CMD_SET_PC);
    command(q, DBG_T2, CMD_CONTINUE);
    g_assert_cmphex(dr_read(q, DBG_T2, DR_STATUS), ==, 0);
    counting(q, AFTER_EBREAK, 0);
    g_assert_cmphex(l1(q, AFTER_EBREAK), ==, 1);
    qtest_quit(q);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/tt/risc-debug/halt-regs-memory", test_halt_regs_memory);
    qtest_add_func("/tt/risc-debug/step-and-modify", test_step_and_modify);
    qtest_add_func("/tt/risc-debug/reset-and-bad-input",
                   test_reset_and_bad_input);
    qtest_add_func("/tt/risc-debug/ebreak", test_ebreak);
    qtest_add_func("/tt/risc-debug/breakpoints", test_breakpoints);
    return g_test_run();
}
