/*
 * Tensix coprocessor front end (bare image; the tile at translated (1, 2)
 * reports, other tiles idle).  BRISC starts the TRISCs, which push
 * instructions inline (.ttinsn words) and by MMIO and check what they can
 * see; BRISC then checks every thread's GPRs and the results in L1.
 * Cores hand off through L1 flags.
 */
#include "tap.h"
#include "tensix.h"

#define FLAG(n)     (0x60000u + 4u * (n))
#define RESULT(n)   (0x60100u + 4u * (n))
#define PROGRESS    0x60200u

enum {      /* flags */
    F_T0_DONE, F_T1_DONE, F_T2_DONE, F_SEM_READY, F_MUTEX_HELD,
    F_T1_WAITING, F_NC_DONE,
};
enum {      /* results */
    R_GPR5, R_CFG10, R_GPR6, R_TCFG3, R_RMW, R_GPR7, R_BLOCKED11,
    R_GPR11, R_BLOCKED14, R_GPR14, R_STALLED_AT, R_GPR8, R_GPR9, R_GPR10,
    R_GPR16,
    R_GPR15,
    R_NUM
};

static void trisc0(void)
{
    /* GPR5 = 0xabcd1234 through two inline SETDMAREG halves */
    TT_INLINE(TT_SETDMAREG16(10, 0x1234));
    TT_INLINE(TT_SETDMAREG16(11, 0xabcd));
    REG32(RESULT(R_GPR5)) = REG32(TT_MY_GPR(5));
    TT_INLINE(TT_WRCFG(5, 0, 10));
    REG32(RESULT(R_CFG10)) = REG32(TT_CFG(10));
    TT_INLINE(TT_RDCFG(6, 10));
    REG32(RESULT(R_GPR6)) = REG32(TT_MY_GPR(6));
    TT_INLINE(TT_SETC16(3, 0x5a5a));
    REG32(RESULT(R_TCFG3)) = REG32(TT_THREAD_CFG(0, 3));
    /* RMWCIB1: bits 4-7 of byte 1 of word 10 become 3 */
    TT_INLINE(TT_RMWCIB(1, 0xf0, 0x30, 10));
    REG32(RESULT(R_RMW)) = REG32(TT_CFG(10));
    /* the same instruction path by MMIO store */
    REG32(TT_PUSH(0)) = TT_SETDMAREG16(14, 0x7777);
    REG32(RESULT(R_GPR7)) = REG32(TT_MY_GPR(7));
    /* GPR15 = 0x1234 * 0x1234 (the low halves of GPR5 and of GPR5) */
    TT_INLINE(TT_MULDMAREG(15, 5, 5));
    REG32(RESULT(R_GPR15)) = REG32(TT_MY_GPR(15));
    /* an instruction without a model: decoded, skipped, no harm */
    TT_INLINE(TT_SETASHRMV);

    /* MOP template 0: 10 iterations, mask bits 0 and 2 take the skip */
    REG32(TT_MOP_CFG_REG(1)) = 0;                   /* A0 only */
    REG32(TT_MOP_CFG_REG(3)) = TT_ADDDMAREG_IMM(8, 1, 8);
    REG32(TT_MOP_CFG_REG(7)) = TT_ADDDMAREG_IMM(8, 16, 8);
    TT_INLINE(TT_MOP_CFG(0));
    TT_INLINE(TT_MOP(0, 9, 0x0005));
    /* MOP template 1: 2 outer x 3 inner, last ops replaced */
    REG32(TT_MOP_CFG_REG(0)) = 2;
    REG32(TT_MOP_CFG_REG(1)) = 3;
    REG32(TT_MOP_CFG_REG(2)) = TT_ADDDMAREG_IMM(9, 1, 9);    /* start */
    REG32(TT_MOP_CFG_REG(3)) = TT_NOP;                       /* end 0 */
    REG32(TT_MOP_CFG_REG(4)) = TT_NOP;                       /* end 1 */
    REG32(TT_MOP_CFG_REG(5)) = TT_ADDDMAREG_IMM(9, 2, 9);    /* loop */
    REG32(TT_MOP_CFG_REG(6)) = TT_NOP;                       /* loop 1 */
    REG32(TT_MOP_CFG_REG(7)) = TT_ADDDMAREG_IMM(9, 5, 9);    /* last */
    REG32(TT_MOP_CFG_REG(8)) = TT_ADDDMAREG_IMM(9, 7, 9);    /* others */
    TT_INLINE(TT_MOP(1, 0, 0));
    /* replay: record three increments while running them, play twice */
    TT_INLINE(TT_REPLAY(4, 3, 1, 1));
    TT_INLINE(TT_ADDDMAREG_IMM(10, 1, 10));
    TT_INLINE(TT_ADDDMAREG_IMM(10, 1, 10));
    TT_INLINE(TT_ADDDMAREG_IMM(10, 1, 10));
    TT_INLINE(TT_REPLAY(4, 3, 0, 0));
    TT_INLINE(TT_REPLAY(4, 3, 0, 0));
    /* the largest template 1 expansion: 127 x 127, more than the queue */
    REG32(TT_MOP_CFG_REG(0)) = 127;
    REG32(TT_MOP_CFG_REG(1)) = 127;
    REG32(TT_MOP_CFG_REG(2)) = TT_NOP;
    REG32(TT_MOP_CFG_REG(5)) = TT_ADDDMAREG_IMM(16, 1, 16);
    REG32(TT_MOP_CFG_REG(7)) = TT_ADDDMAREG_IMM(16, 1, 16);
    REG32(TT_MOP_CFG_REG(8)) = TT_ADDDMAREG_IMM(16, 1, 16);
    TT_INLINE(TT_MOP(1, 0, 0));
    (void)REG32(TT_SYNC);
    REG32(RESULT(R_GPR16)) = REG32(TT_MY_GPR(16));

    /* SEMWAIT holds the thread until TRISC1 posts semaphore 0 */
    TT_INLINE(TT_SEMINIT(15, 0, 1));
    TT_INLINE(TT_SEMWAIT_NZ(1));
    TT_INLINE(TT_SETDMAREG16(22, 0x4242));
    REG32(RESULT(R_BLOCKED11)) = REG32(TT_MY_GPR(11));
    REG32(FLAG(F_SEM_READY)) = 1;
    spin_until(TT_MY_GPR(11), 0x4242);
    REG32(RESULT(R_GPR11)) = REG32(TT_MY_GPR(11));

    /* mutex 0: held here until TRISC1 is seen waiting for it */
    TT_INLINE(TT_ATGETM(0));
    REG32(FLAG(F_MUTEX_HELD)) = 1;
    spin_until(FLAG(F_T1_WAITING), 1);
    TT_INLINE(TT_ATRELM(0));
    REG32(FLAG(F_T0_DONE)) = 1;
}

/*
 * Runs of inline words, which the translator pushes many at a time (at
 * most 16, never past the end of the code's page): every word must run
 * once and in order.  GPR20: a 42-word run (two halves set, then 40
 * increments); GPR21 and GPR22: six-word runs that cross a page end
 * 3 + 3 and 2 + 4; GPR23: a run in L1 rewritten between two calls.
 */
#define W_SET(h, v)     TT_ROL2(TT_SETDMAREG16(h, v))
#define W_INC(n, i)     TT_ROL2(TT_ADDDMAREG_IMM(n, i, n))

static uint32_t run_buf[9];     /* 8 words and a ret, executed from L1 */

static void runs(void)
{
    void (*fn)(void) = (void (*)(void))run_buf;

    __asm__ volatile(".word %0\n.word %1\n.rept 40\n.word %2\n.endr"
                     : : "i"(W_SET(40, 7)), "i"(W_SET(41, 0)),
                         "i"(W_INC(20, 1)) : "memory");
    /* jumps over the padding: its zero words would be Tensix NOPs */
    __asm__ volatile("j 1f\n.balign 4096\n.skip 4084\n1:\n.word %0\n"
                     ".rept 5\n.word %1\n.endr"
                     : : "i"(W_SET(42, 100)), "i"(W_INC(21, 1)) : "memory");
    __asm__ volatile("j 1f\n.balign 4096\n.skip 4088\n1:\n.word %0\n"
                     ".rept 5\n.word %1\n.endr"
                     : : "i"(W_SET(44, 100)), "i"(W_INC(22, 1)) : "memory");
    for (int i = 0; i < 8; i++) {
        run_buf[i] = W_INC(23, 1);
    }
    run_buf[8] = 0x00008067;                /* ret */
    fn();
    for (int i = 2; i < 8; i++) {
        run_buf[i] = W_INC(23, 16);         /* the code changes */
    }
    fn();
}

static void trisc1(void)
{
    spin_until(FLAG(F_SEM_READY), 1);
    REG32(TT_SEM(0)) = 0;                   /* SEMPOST through MMIO */
    spin_until(FLAG(F_MUTEX_HELD), 1);
    TT_INLINE(TT_ATGETM(0));
    TT_INLINE(TT_SETDMAREG16(28, 1));       /* GPR14 = 1 once it has it */
    REG32(RESULT(R_BLOCKED14)) = REG32(TT_MY_GPR(14));
    REG32(FLAG(F_T1_WAITING)) = 1;
    spin_until(TT_MY_GPR(14), 1);
    REG32(RESULT(R_GPR14)) = REG32(TT_MY_GPR(14));
    runs();
    (void)REG32(TT_SYNC);
    TT_INLINE(TT_ATRELM(0));
    REG32(FLAG(F_T1_DONE)) = 1;
}

/*
 * 40 pushes behind a closed gate: with SEMWAIT and 27 more words waiting
 * (the FIFO's 28), the next push holds the core.
 */
static void trisc2(void)
{
    TT_INLINE(TT_SEMINIT(15, 0, 2));
    TT_INLINE(TT_SEMWAIT_NZ(2));
    for (uint32_t i = 1; i <= 40; i++) {
        REG32(TT_PUSH(0)) = TT_ADDDMAREG_IMM(12, 1, 12);
        REG32(PROGRESS) = i;
    }
    REG32(FLAG(F_T2_DONE)) = 1;
}

static void ncrisc(void)
{
    REG32(TT_PUSH(0)) = TT_SETDMAREG16(26, 0xdead);     /* dropped */
    REG32(FLAG(F_NC_DONE)) = 1;
}

static void brisc(void)
{
    uint32_t last = 0, same = 0;

    for (int i = 0; i < 16; i++) {
        REG32(FLAG(i)) = 0;
    }
    for (int i = 0; i < R_NUM; i++) {
        REG32(RESULT(i)) = 0;
    }
    REG32(PROGRESS) = 0;
    REG32(SOFT_RESET_0) = 0;
    spin_until(FLAG(F_T0_DONE), 1);     /* threads 0 and 1 are free now */
    spin_until(FLAG(F_T1_DONE), 1);
    /*
     * Slow consumer: once TRISC2 has pushed the FIFO's worth, wait until
     * it makes no more progress (it must stop short of 40).
     */
    while (REG32(PROGRESS) < 27) {
    }
    while (same < 2000000) {
        uint32_t p = REG32(PROGRESS);

        same = p == last ? same + 1 : 0;
        last = p;
    }
    REG32(RESULT(R_STALLED_AT)) = last;
    REG32(TT_PUSH(0)) = TT_SEMPOST(2);  /* thread 0 runs it: T2 goes on */
    spin_until(FLAG(F_T2_DONE), 1);
    spin_until(FLAG(F_NC_DONE), 1);

    tap_reporter = 1;       /* .data is L1, shared: only BRISC writes it */
    ok(REG32(RESULT(R_GPR5)) == 0xabcd1234u, "inline SETDMAREG halves "
       "build GPR5, read back through the TRISC's GPR window");
    ok(REG32(RESULT(R_CFG10)) == 0xabcd1234u, "WRCFG GPR5 -> config word "
       "10, read through the config window");
    ok(REG32(RESULT(R_GPR6)) == 0xabcd1234u, "RDCFG config word 10 -> GPR6");
    ok(REG32(RESULT(R_TCFG3)) == 0x5a5a, "SETC16 writes ThreadConfig");
    ok(REG32(RESULT(R_RMW)) == 0xabcd3234u, "RMWCIB1 rewrites masked bits "
       "of byte 1");
    ok(REG32(RESULT(R_GPR7)) == 0x7777, "an MMIO push runs like an inline "
       "one");
    ok(REG32(RESULT(R_GPR15)) == 0x14b5a90u, "MULDMAREG multiplies the low "
       "halves: 0x1234 * 0x1234");
    ok(REG32(TT_GPR(0, 8)) == 8 + 2 * 16, "MOP template 0: 8 A0s and 2 "
       "skips from the mask");
    ok(REG32(TT_GPR(0, 9)) == (1 + 2 + 2 + 7) + (1 + 2 + 2 + 5),
       "MOP template 1: start, loop and both last-op replacements");
    ok(REG32(TT_GPR(0, 10)) == 9, "replay: 3 recorded while executing, "
       "played back twice");
    ok(REG32(RESULT(R_GPR16)) == 127 * 127, "a 127 x 127 MOP expands all "
       "16129 instructions (more than wait at the gate at once)");
    ok(REG32(RESULT(R_BLOCKED11)) == 0 && REG32(RESULT(R_GPR11)) == 0x4242,
       "SEMWAIT holds the thread until a TRISC's MMIO SEMPOST");
    ok(REG32(RESULT(R_BLOCKED14)) == 0 && REG32(RESULT(R_GPR14)) == 1,
       "ATGETM waits while another thread holds the mutex");
    ok(REG32(RESULT(R_STALLED_AT)) >= 27 && REG32(RESULT(R_STALLED_AT)) < 40,
       "a core pushing behind a closed gate stalls when the FIFO is full");
    ok(REG32(TT_GPR(2, 12)) == 40 && REG32(PROGRESS) == 40,
       "after the slow consumer posts, all 40 pushes ran in order");
    ok(REG32(TT_GPR(0, 13)) == 0, "NCRISC pushes are dropped");
    ok(REG32(TT_GPR(1, 20)) == 47, "a run of 42 inline words: each runs "
       "once, in order");
    ok(REG32(TT_GPR(1, 21)) == 105 && REG32(TT_GPR(1, 22)) == 105,
       "runs across a page end, 3 + 3 and 2 + 4 words: each word once");
    ok(REG32(TT_GPR(1, 23)) == 8 + 2 + 6 * 16, "a run in L1 rewritten "
       "between two calls runs the new words");
    tap_done();
}

void core_main(int role, int kind)
{
    static const tt_role_fn fn[NCORES] = {
        brisc, ncrisc, trisc0, trisc1, trisc2,
    };

    tt_reporter_main(role, fn);
}
