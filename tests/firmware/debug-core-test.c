/*
 * The RISC debug registers driven by a core (the NOC/core path; the qtest
 * tt-risc-debug-test drives them from the host): on the tile at translated
 * (1, 2), BRISC halts TRISC0 through its own tile's RISC_DBG_CNTL_0/1 and
 * RISC_DBG_STATUS_0/1 (DebugInterface.md; the protocol tt-exalens uses),
 * reads its registers and memory, and resumes it.  TRISC0 runs
 * count-loop.h's three-instruction counter, so the expected values follow
 * from that loop: a halted counter stands still, a0 is the stored count or
 * one ahead (halted between the addi and the sw), the PC is in the loop.
 * Commands from a core reach the target asynchronously: the debugger polls
 * DR0 for the halt, as a core-side debugger would have to.
 */
#include "tap.h"
#include "count-loop.h"

#define RISC_DBG_CNTL_0     (DEBUG_REGS + 0x080)
#define RISC_DBG_CNTL_1     (DEBUG_REGS + 0x084)
#define RISC_DBG_STATUS_1   (DEBUG_REGS + 0x08c)

#define DBG_T0          1               /* debug core numbers: B 0, T0 1 */
#define DR_STATUS       0
#define DR_CMD          1
#define DR_ARG0         2
#define DR_RESULT       4
#define CMD_MODE        0x80000000u
#define CMD_HALT        0x1
#define CMD_CONTINUE    0x4
#define CMD_READ_REG    0x8
#define CMD_READ_MEM    0x20
#define REG_A0          10
#define REG_PC          32

#define LDM_MARK        (LDM_BASE + 0x100)
#define T0_MARK         0x70707070u
#define COUNTER         0x60020u        /* TRISC0's counter in L1 */
#define LOOP_ADDR       0x60108u        /* where TRISC0 publishes its loop */
#define WAIT_TICKS      1350000000u     /* one second of the wall clock */

static void dr_write(int dr, uint32_t v)
{
    REG32(RISC_DBG_CNTL_1) = v;
    REG32(RISC_DBG_CNTL_0) = 0x80010000u | DBG_T0 << 17 | dr;
    REG32(RISC_DBG_CNTL_0) = 0;
}

static uint32_t dr_read(int dr)
{
    REG32(RISC_DBG_CNTL_0) = 0x80000000u | DBG_T0 << 17 | dr;
    REG32(RISC_DBG_CNTL_0) = 0;
    return REG32(RISC_DBG_STATUS_1);
}

/* A command with an argument; returns DR_RESULT */
static uint32_t query(uint32_t cmd, uint32_t arg)
{
    dr_write(DR_ARG0, arg);
    dr_write(DR_CMD, CMD_MODE | cmd);
    return dr_read(DR_RESULT);
}

static int wait_halted(uint32_t want)
{
    uint32_t t0 = wall_clock();

    while ((dr_read(DR_STATUS) & 1) != want) {
        if (wall_clock() - t0 > WAIT_TICKS) {
            return 0;
        }
    }
    return 1;
}

static int wait_count_above(uint32_t n)
{
    uint32_t t0 = wall_clock();

    while (REG32(COUNTER) <= n) {
        if (wall_clock() - t0 > WAIT_TICKS) {
            return 0;
        }
    }
    return 1;
}

static void brisc(void)
{
    uint32_t loop, c1, c2, a0, pc, t0;

    tap_reporter = 1;
    REG32(LDM_MARK) = 0xb0b0cafeu;      /* BRISC's own LDM differs */
    REG32(COUNTER) = 0;
    REG32(LOOP_ADDR) = 0;
    REG32(SOFT_RESET_0) = 0;
    ok(wait_count_above(1000), "TRISC0 counts in L1");
    loop = REG32(LOOP_ADDR);

    dr_write(DR_CMD, CMD_MODE | CMD_HALT);
    ok(wait_halted(1), "HALT written by BRISC halts TRISC0 (DR0 bit 0)");
    c1 = REG32(COUNTER);
    t0 = wall_clock();
    while (wall_clock() - t0 < WAIT_TICKS / 100) {
    }
    c2 = REG32(COUNTER);
    ok(c1 == c2 && c1 > 1000, "the halted TRISC0's counter stands still");
    a0 = query(CMD_READ_REG, REG_A0);
    ok(a0 == c2 || a0 == c2 + 1, "READ_REG a0 is the stored count "
       "(or one ahead: halted between addi and sw)");
    pc = query(CMD_READ_REG, REG_PC);
    ok(loop && pc >= loop && pc <= loop + 8, "READ_REG pc is in the loop");
    ok(query(CMD_READ_MEM, LDM_MARK) == T0_MARK,
       "READ_MEM reads through TRISC0's view (its LDM, not BRISC's)");

    dr_write(DR_CMD, CMD_MODE | CMD_CONTINUE);
    ok(wait_halted(0) && wait_count_above(c2 + 1000),
       "CONTINUE written by BRISC resumes TRISC0");
    tap_done();
}

static void trisc0(void)
{
    REG32(LDM_MARK) = T0_MARK;
    REG32(LOOP_ADDR) = (uint32_t)(uintptr_t)count_loop_body;
    count_loop((uint32_t *)(uintptr_t)COUNTER);
}

void core_main(int role, int kind)
{
    static const tt_role_fn fn[NCORES] = {
        brisc, 0, trisc0, 0, 0,
    };

    tt_reporter_main(role, fn);
}
