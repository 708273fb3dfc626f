/*
 * Tensix coprocessor, synchronisation and scalar unit (bare image; the
 * tile at translated (1, 2) reports, other tiles idle):
 * - the wait gate's block mask: a latched SEMWAIT holding only math lets
 *   scalar instructions pass and holds the first math one and all after;
 *   STALLWAIT on busy units releases at once; STREAMWAIT waits for a
 *   stream register another core writes;
 * - TTSync: a TRISC's load of 0xFFE80004 returns only once its thread has
 *   drained (here: behind a SEMWAIT another core releases);
 * - PC buffers: BRISC pushes, a TRISC pops (blocking while empty), and
 *   BRISC's barrier read returns once the TRISC waits on an empty buffer;
 * - SUB/BITWOP/SHIFT/CMPDMAREG, CFGSHIFTMASK, STOREREG/LOADREG to stream
 *   registers, REG2FLOP into THCON configuration.
 * Expected values are worked out by hand in the comments.
 */
#include "tap.h"
#include "tensix.h"

#define FLAG(n)     (0x60000u + 4u * (n))
#define RESULT(n)   (0x60100u + 4u * (n))

enum {      /* flags */
    F_T0_GATE, F_T0_DONE, F_T1_SYNCING, F_T1_SYNCED, F_T1_POPPED,
    F_T1_DONE, F_T2_WAITING, F_T2_DONE, F_NC_DONE,
};
enum {      /* results */
    R_PASSED, R_HELD, R_AFTER_POST, R_STALLWAIT, R_SUB, R_AND, R_OR, R_XOR,
    R_SHL, R_SHR, R_GT, R_LT, R_EQ, R_CSM_ADD, R_CSM_OR, R_STOREREG,
    R_LOADREG, R_REG2FLOP, R_SYNC_EARLY, R_SYNC_GPR, R_POP0, R_POP1, R_POP2,
    R_BARRIER, R_T2_HELD, R_T2_GPR, R_NC_PCBUF,
    R_NUM
};

/* Let other cores run a while: the wall clock at 0xFFB121F0 ticks */
static void delay(void)
{
    uint32_t t0 = REG32(WALL_CLOCK_L);

    while (REG32(WALL_CLOCK_L) - t0 < 20000000) {
        __asm__ volatile("nop");
    }
}

/* GPR operands by MMIO: 20 = 0x0ff0f00f, 21 = 0x00ff00ff, 22 = 4 */
static void trisc0_alu(void)
{
    REG32(TT_MY_GPR(20)) = 0x0ff0f00fu;
    REG32(TT_MY_GPR(21)) = 0x00ff00ffu;
    REG32(TT_MY_GPR(22)) = 4;
    TT_INLINE(TT_SUBDMAREG(30, 21, 20));                /* 20 - 21 */
    TT_INLINE(TT_DMAREG(BITWOPDMAREG, 0, 31, 21, 20));  /* AND */
    TT_INLINE(TT_DMAREG(BITWOPDMAREG, 1, 32, 21, 20));  /* OR */
    TT_INLINE(TT_DMAREG(BITWOPDMAREG, 2, 33, 21, 20));  /* XOR */
    TT_INLINE(TT_DMAREG(SHIFTDMAREG, 0, 34, 22, 20));   /* << 4 */
    TT_INLINE(TT_DMAREG(SHIFTDMAREG, 1, 35, 22, 20));   /* >> 4 */
    TT_INLINE(TT_DMAREG(CMPDMAREG, 0, 36, 21, 20));     /* > */
    TT_INLINE(TT_DMAREG(CMPDMAREG, 1, 37, 21, 20));     /* < */
    TT_INLINE(TT_DMAREG(CMPDMAREG, 2, 38, 20, 20));     /* == */
    for (int i = 0; i < 9; i++) {
        REG32(RESULT(R_SUB + i)) = REG32(TT_MY_GPR(30 + i));
    }
}

static void trisc0_cfg(void)
{
    /* scratch word 0 = 0x12345678, config word 20 = 0x11111111 */
    REG32(TT_CFG(TT_CFG_SCRATCH_SECn_val_WORD)) = 0x12345678u;
    REG32(TT_CFG(20)) = 0x11111111u;
    /* op 3 (add), full mask, no rotation, keep old bits */
    TT_INLINE(TT_CFGSHIFTMASK(1, 3, 31, 0, 0, 20));
    REG32(RESULT(R_CSM_ADD)) = REG32(TT_CFG(20));
    /* op 0 (or), mask 0xff rotated right 4, old bits under it cleared */
    TT_INLINE(TT_CFGSHIFTMASK(0, 0, 7, 4, 0, 21));
    REG32(RESULT(R_CSM_OR)) = REG32(TT_CFG(21));
    /* STOREREG GPR20 -> stream 3 register 8; LOADREG it into GPR39 */
    TT_INLINE(TT_STOREREG(20, STREAM_REG(3, 8)));
    REG32(RESULT(R_STOREREG)) = REG32(STREAM_REG(3, 8));
    TT_INLINE(TT_LOADREG(39, STREAM_REG(3, 8)));
    REG32(RESULT(R_LOADREG)) = REG32(TT_MY_GPR(39));
    /* REG2FLOP GPR21 -> THCON config word 5 (THCON starts at SEC0_REG0) */
    TT_INLINE(TT_REG2FLOP32(5, 21));
    REG32(RESULT(R_REG2FLOP)) =
        REG32(TT_CFG(TT_CFG_THCON_SEC0_REG0_TileDescriptor_WORD + 5));
}

/* A SEMWAIT that holds math only: scalar work passes, INCRWC is held */
static void trisc0_gate(void)
{
    TT_INLINE(TT_SEMINIT(15, 0, 1u << 3));
    TT_INLINE(TT_SEMWAIT(B_MATH, 1u << 3, 1));     /* sem 3 zero: wait */
    TT_INLINE(TT_SETDMAREG16(80, 0x1111));         /* GPR40 low: passes */
    TT_INLINE(TT_INCRWC(0, 1, 0, 0));              /* math: held */
    TT_INLINE(TT_SETDMAREG16(82, 0x2222));         /* GPR41: behind it */
    REG32(RESULT(R_PASSED)) = REG32(TT_MY_GPR(40));
    REG32(RESULT(R_HELD)) = REG32(TT_MY_GPR(41));
    REG32(TT_SEM(3)) = 0;                          /* post: gate opens */
    spin_until(TT_MY_GPR(41), 0x2222);
    REG32(RESULT(R_AFTER_POST)) = REG32(TT_MY_GPR(41));
    /* STALLWAIT on busy units: nothing is busy, the next one runs */
    TT_INLINE(TT_STALLWAIT(B_THCON, 0x1f));
    TT_INLINE(TT_SETDMAREG16(84, 0x3333));
    REG32(RESULT(R_STALLWAIT)) = REG32(TT_MY_GPR(42));
}

static void trisc0(void)
{
    trisc0_alu();
    trisc0_cfg();
    trisc0_gate();
    REG32(FLAG(F_T0_DONE)) = 1;
}

/* TTSync behind a SEMWAIT that NCRISC releases; then PC buffer pops */
static void trisc1(void)
{
    uint32_t v;

    TT_INLINE(TT_SEMINIT(15, 0, 1u << 4));
    TT_INLINE(TT_SEMWAIT(B_ALL, 1u << 4, 1));
    TT_INLINE(TT_SETDMAREG16(20, 0x5a5a));          /* GPR10 */
    REG32(FLAG(F_T1_SYNCING)) = 1;
    REG32(TT_SYNC) = 0;                             /* tensix_sync() */
    v = REG32(TT_SYNC);
    (void)v;
    REG32(RESULT(R_SYNC_GPR)) = REG32(TT_MY_GPR(10));
    REG32(FLAG(F_T1_SYNCED)) = 1;

    REG32(RESULT(R_POP0)) = REG32(TT_PCBUF);        /* blocks until BRISC */
    REG32(RESULT(R_POP1)) = REG32(TT_PCBUF);
    REG32(RESULT(R_POP2)) = REG32(TT_PCBUF);
    REG32(FLAG(F_T1_POPPED)) = 1;
    v = REG32(TT_PCBUF);                            /* BRISC's release */
    REG32(FLAG(F_T1_DONE)) = v;
}

/* STREAMWAIT: stream selector 1 -> stream 5, phase >= 3 */
static void trisc2(void)
{
    /* opcode 0x2a does not exist: logged, skipped, the thread goes on */
    REG32(TT_PUSH(0)) = 0x2a000123u;
    TT_INLINE(TT_SETC16(TT_THCFG_STREAM_ID_SYNC_SECn_BankSel_WORD + 1, 5));
    TT_INLINE(TT_SETC16(TT_THCFG_STREAMWAIT_PHASE_HI_Val_WORD, 0));
    TT_INLINE(TT_STREAMWAIT(B_ALL, 3, 0, 1));
    TT_INLINE(TT_SETDMAREG16(30, 0x7e7e));          /* GPR15 */
    REG32(RESULT(R_T2_HELD)) = REG32(TT_MY_GPR(15));
    REG32(FLAG(F_T2_WAITING)) = 1;
    spin_until(TT_MY_GPR(15), 0x7e7e);
    REG32(RESULT(R_T2_GPR)) = REG32(TT_MY_GPR(15));
    REG32(FLAG(F_T2_DONE)) = 1;
}

static void ncrisc(void)
{
    spin_until(FLAG(F_T2_WAITING), 1);
    delay();
    REG32(STREAM_REG(5, 29)) = 2;                   /* not yet */
    delay();
    REG32(STREAM_REG(5, 29)) = 3;                   /* releases TRISC2 */
    REG32(RESULT(R_NC_PCBUF)) = REG32(TT_PCBUF) + 1;    /* logged, 0 */
    REG32(FLAG(F_NC_DONE)) = 1;
}

static void brisc_pcbuf(void)
{
    /* TRISC1 must still be inside its TTSync load after a while */
    spin_until(FLAG(F_T1_SYNCING), 1);
    delay();
    REG32(RESULT(R_SYNC_EARLY)) = REG32(FLAG(F_T1_SYNCED));
    REG32(TT_PUSH(0)) = TT_SEMPOST(1u << 4);    /* thread 0 runs it */
    spin_until(FLAG(F_T1_SYNCED), 1);
    delay();                            /* TRISC1 waits on an empty buffer */
    REG32(TT_PCBUF_OF(1)) = 0xa0;
    REG32(TT_PCBUF_OF(1)) = 0xa1;
    REG32(TT_PCBUF_OF(1)) = 0xa2;
    spin_until(FLAG(F_T1_POPPED), 1);
    /* returns once the buffer is empty and TRISC1 waits on it again */
    REG32(RESULT(R_BARRIER)) = REG32(TT_PCBUF_OF(1)) + 0xb0;
    REG32(TT_PCBUF_OF(1)) = 1;          /* TRISC1's last pop */
}

static void brisc_report(void)
{
    tap_reporter = 1;
    ok(REG32(RESULT(R_PASSED)) == 0x1111 && REG32(RESULT(R_HELD)) == 0,
       "SEMWAIT holding math: SETDMAREG passes, INCRWC and what follows wait");
    ok(REG32(RESULT(R_AFTER_POST)) == 0x2222, "an MMIO SEMPOST opens the "
       "gate for the held instructions");
    ok(REG32(RESULT(R_STALLWAIT)) == 0x3333, "STALLWAIT on idle units "
       "releases at once");
    ok(REG32(RESULT(R_SUB)) == 0x0ef1ef10u, "SUBDMAREG 0x0ff0f00f - "
       "0x00ff00ff");
    ok(REG32(RESULT(R_AND)) == 0x00f0000fu && REG32(RESULT(R_OR)) ==
       0x0ffff0ffu && REG32(RESULT(R_XOR)) == 0x0f0ff0f0u,
       "BITWOPDMAREG AND, OR, XOR");
    ok(REG32(RESULT(R_SHL)) == 0xff0f00f0u && REG32(RESULT(R_SHR)) ==
       0x00ff0f00u, "SHIFTDMAREG left and right by GPR22 = 4");
    ok(REG32(RESULT(R_GT)) == 1 && REG32(RESULT(R_LT)) == 0 &&
       REG32(RESULT(R_EQ)) == 1, "CMPDMAREG >, <, ==");
    ok(REG32(RESULT(R_CSM_ADD)) == 0x23456789u, "CFGSHIFTMASK add: "
       "0x11111111 + 0x12345678");
    ok(REG32(RESULT(R_CSM_OR)) == 0x80000007u, "CFGSHIFTMASK or: mask 0xff "
       "and 0x78 rotated right by 4 into a zero word");
    ok(REG32(RESULT(R_STOREREG)) == 0x0ff0f00fu && REG32(RESULT(R_LOADREG))
       == 0x0ff0f00fu, "STOREREG to stream register 8 and LOADREG back");
    ok(REG32(RESULT(R_REG2FLOP)) == 0x00ff00ffu, "REG2FLOP writes THCON "
       "config word 69");
    ok(REG32(RESULT(R_SYNC_EARLY)) == 0 && REG32(RESULT(R_SYNC_GPR)) ==
       0x5a5a, "a TTSync load waits for its thread to drain");
    ok(REG32(RESULT(R_POP0)) == 0xa0 && REG32(RESULT(R_POP1)) == 0xa1 &&
       REG32(RESULT(R_POP2)) == 0xa2, "PC buffer: BRISC's words popped in "
       "order by a TRISC that waited on it");
    ok(REG32(RESULT(R_BARRIER)) == 0xb0 && REG32(FLAG(F_T1_DONE)) == 1,
       "PC buffer barrier read returns 0 once the TRISC waits again");
    ok(REG32(RESULT(R_T2_HELD)) == 0 && REG32(RESULT(R_T2_GPR)) == 0x7e7e,
       "STREAMWAIT holds until another core sets the stream's phase "
       "(after an unknown opcode was skipped)");
    ok(REG32(RESULT(R_NC_PCBUF)) == 1, "NCRISC has no PC buffer (reads 0)");
    tap_done();
}

static void brisc(void)
{
    for (int i = 0; i < 16; i++) {
        REG32(FLAG(i)) = 0;
    }
    for (int i = 0; i < R_NUM; i++) {
        REG32(RESULT(i)) = 0;
    }
    REG32(SOFT_RESET_0) = 0;
    brisc_pcbuf();
    spin_until(FLAG(F_T0_DONE), 1);
    spin_until(FLAG(F_T1_DONE), 1);
    spin_until(FLAG(F_T2_DONE), 1);
    spin_until(FLAG(F_NC_DONE), 1);
    brisc_report();
}

void core_main(int role, int kind)
{
    static const tt_role_fn fn[NCORES] = {
        brisc, ncrisc, trisc0, trisc1, trisc2,
    };

    tt_reporter_main(role, fn);
}
