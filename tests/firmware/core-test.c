/*
 * Core test (bare image, firmware=FILE): every core type starting at its
 * reset PC, reset-PC overrides, soft reset, LDM privacy, slow LDM aliases,
 * L1 shared by the tile's cores but not between tiles, AMOs between cores,
 * the wall clock, custom CSRs, illegal instructions, and accesses that
 * alternate between pages of one TLB index.
 *
 * Every tile runs it; the tile at translated (1, 2) prints TAP lines through
 * semihosting and exits with the number of failures.
 */
#include "tap.h"
#include "../../include/hw/tenstorrent/noc-overlay-regs.h"

#define AMO_ROUNDS      1000
#define ALIAS_ROUNDS    3000
#define SECOND          1350000000ull       /* wall-clock ticks (AICLK) */

extern char entry_override[];

/* Shared through L1 by the five cores of this tile */
volatile uint32_t marker[NCORES];
volatile uint32_t ldm_written[NCORES];
volatile uint32_t ldm_read[NCORES];
volatile uint32_t trap_cause[NCORES];
volatile uint32_t heartbeat[NCORES];
volatile uint32_t done[NCORES];
volatile uint32_t go;
volatile uint32_t amo_counter;
volatile uint32_t tile_id;

static uint64_t wall64(void)
{
    uint32_t lo = REG32(WALL_CLOCK_L);

    return ((uint64_t)REG32(WALL_CLOCK_H) << 32) | lo;
}

static int wait_all(volatile uint32_t *a, uint32_t v, int first)
{
    uint64_t t0 = wall64();

    for (int r = first; r < NCORES; r++) {
        while (a[r] != v) {
            if (wall64() - t0 > 20 * SECOND) {
                return 0;
            }
        }
    }
    return 1;
}

static void subordinate(int role, int kind)
{
    volatile uint32_t *ldm = (volatile uint32_t *)(LDM_BASE + 0x100);

    marker[role] = kind;
    if (kind != 2) {
        for (;;) {
        }
    }
    *ldm = 0x1000 + role;
    ldm_written[role] = 1;
    while (!go) {
    }
    ldm_read[role] = *ldm;
    for (int i = 0; i < AMO_ROUNDS; i++) {
        __atomic_fetch_add(&amo_counter, 1, __ATOMIC_RELAXED);
    }
    /*
     * Illegal, so traps to mtvec: on BRISC/NCRISC a word with low bits
     * other than 0b11 (TRISCs would push it to the Tensix coprocessor),
     * on TRISCs an all-ones word.
     */
    if (role <= NCRISC) {
        __asm__ volatile(".word 0x00000000");
    } else {
        __asm__ volatile(".word 0xffffffff");
    }
    done[role] = 1;
    for (;;) {
        heartbeat[role]++;
    }
}

static void check_identity(void)
{
    uint32_t id = REG32(NOC_ID_LOGICAL(0));
    uint32_t n0 = REG32(NOC_NODE_ID(0)), n1 = REG32(NOC_NODE_ID(1));

    ok(REG32(SOFT_RESET_0) == (SOFT_RESET_ALL & ~SOFT_RESET_BRISC),
       "host released BRISC only: SOFT_RESET_0 = 0x47000");
    ok(REG32(NOC_ID_LOGICAL(1)) == id, "NOC_ID_LOGICAL equal on both NIUs");
    ok(((n0 >> 6) & 0x3f) == id >> 6 && ((n0 >> 12) & 0x7f) == 17 &&
       ((n0 >> 19) & 0x7f) == 12 && (n0 >> 28 & 1),
       "NOC0 NODE_ID: own row, 17x12 grid, X-first routing");
    ok((n1 & 0x3f) == 16 - (n0 & 0x3f) &&
       ((n1 >> 6) & 0x3f) == 11 - ((n0 >> 6) & 0x3f) && !(n1 >> 28 & 1),
       "NOC1 NODE_ID: NOC0 coordinates reflected, Y-first routing");
}

static void check_reset(void)
{
    REG32(SOFT_RESET_0) = 0;
    ok(wait_all(marker, 1, NCRISC),
       "NCRISC and TRISCs start at default reset PCs 0x12000/0x6000/0xa000/"
       "0xe000");
    REG32(SOFT_RESET_0) = SOFT_RESET_ALL & ~SOFT_RESET_BRISC;
    for (int r = NCRISC; r < NCORES; r++) {
        marker[r] = 0;
    }
    for (int t = 0; t < 3; t++) {
        REG32(TRISC_RESET_PC(t)) = (uint32_t)entry_override + 16 * (TRISC0 + t);
    }
    REG32(TRISC_RESET_PC_OVERRIDE) = 7;
    REG32(NCRISC_RESET_PC) = (uint32_t)entry_override + 16 * NCRISC;
    REG32(NCRISC_RESET_PC_OVERRIDE) = 1;
    ok(REG32(TRISC_RESET_PC(1)) == (uint32_t)entry_override + 48,
       "reset-PC registers read back");
    REG32(SOFT_RESET_0) = 0;
    ok(wait_all(marker, 2, NCRISC), "cores start at overridden reset PCs");
}

static void check_memory(void)
{
    volatile uint32_t *ldm = (volatile uint32_t *)(LDM_BASE + 0x100);
    int same = 1, slow = 1;

    ok(wait_all(ldm_written, 1, NCRISC), "subordinates wrote their LDM");
    *ldm = 0xb0b0;
    for (int i = 0; i < AMO_ROUNDS; i++) {
        __atomic_fetch_add(&amo_counter, 1, __ATOMIC_RELAXED);
    }
    go = 1;
    ok(wait_all(done, 1, NCRISC), "subordinates finished");
    for (int r = NCRISC; r < NCORES; r++) {
        same &= ldm_read[r] == 0x1000u + r;
        slow &= REG32(SLOW_LDM(r) + 0x100) == 0x1000u + r;
    }
    ok(same && *ldm == 0xb0b0, "each core reads back its own LDM word");
    ok(slow && REG32(SLOW_LDM(BRISC) + 0x100) == 0xb0b0,
       "slow LDM aliases show each core's LDM");
    ok(amo_counter == NCORES * AMO_ROUNDS, "amoadd.w on L1 is atomic "
       "across the five cores");
    same = 1;
    for (int r = NCRISC; r < NCORES; r++) {
        same &= trap_cause[r] == 2;
    }
    ok(same, "an illegal instruction traps to mtvec with mcause 2");
}

static void check_clock_csr(void)
{
    uint64_t a = wall64(), b;
    uint32_t cfg0;
    volatile int spin = 0;

    for (int i = 0; i < 10000; i++) {
        spin++;
    }
    b = wall64();
    ok(b > a, "wall clock advances");
    cfg0 = CSR_READ(0x7c0);
    __asm__ volatile("csrs 0x7c0, %0" : : "r"(1u << 18));
    ok(cfg0 == (16u << 13) && CSR_READ(0x7c0) == (cfg0 | 1u << 18),
       "cfg0 CSR resets to StMergeTimer=16 and holds written bits");
}

/* Wait until @p changes by at least @n (or 20 s pass) */
static int wait_advance(volatile uint32_t *p, uint32_t n)
{
    uint32_t v0 = *p;
    uint64_t t0 = wall64();

    while (*p - v0 < n) {
        if (wall64() - t0 > 20 * SECOND) {
            return 0;
        }
    }
    return 1;
}

static void check_hold(void)
{
    volatile uint32_t *nc_ldm = (volatile uint32_t *)(SLOW_LDM(NCRISC) +
                                                       0x100);
    uint32_t nc;
    uint64_t t0;
    int zeroed;

    REG32(SOFT_RESET_0) = SOFT_RESET_NCRISC;
    /* entering reset zeroes the core's LDM: the hold has taken effect */
    t0 = wall64();
    while (*nc_ldm != 0 && wall64() - t0 < 20 * SECOND) {
    }
    zeroed = *nc_ldm == 0;
    ok(zeroed, "entering reset zeroes the core's LDM (DISABLE_RESET clear)");
    nc = heartbeat[NCRISC];
    ok(wait_advance(&heartbeat[TRISC0], 1000) && heartbeat[NCRISC] == nc,
       "asserting soft reset stops that core only");
}

/*
 * Pages whose TLB entries take the same index in tables of up to 64
 * entries (their page numbers agree in the low six bits): LDM, the NOC
 * overlay (MMIO) and two L1 pages.  Each access evicts the last one to
 * the victim TLB, from which the next takes it back, flags (MMIO) and
 * target included: every value must land where it was stored, and each
 * SPACE_UPDATE write must reach the register that adds it up.
 */
static void check_tlb_alias(void)
{
    uint32_t ldm = LDM_BASE + 0x400, l1a = 0x80040, l1b = 0xc0080;
    uint32_t scratch = TT_TILE_NOC_OVERLAY_BASE + 4 * TT_STREAM_BUF_START;
    uint32_t update = TT_TILE_NOC_OVERLAY_BASE + 4 * TT_STREAM_SPACE_UPDATE;
    uint32_t avail = TT_TILE_NOC_OVERLAY_BASE + 4 * TT_STREAM_SPACE_AVAILABLE;
    uint32_t words0 = REG32(avail) & TT_STREAM_WORDS_MASK;
    int bad = 0;

    for (uint32_t i = 1; i <= ALIAS_ROUNDS; i++) {
        REG32(ldm) = i;
        REG32(scratch) = i ^ 0x5a5a0000u;
        REG32(l1a) = ~i;
        REG32(update) = 1u << TT_STREAM_WORDS_FREE_SHIFT;
        REG32(l1b) = i * 3;
        bad += REG32(ldm) != i;
        bad += REG32(scratch) != (i ^ 0x5a5a0000u);
        bad += REG32(l1a) != ~i;
        bad += REG32(l1b) != i * 3;
    }
    ok(!bad, "loads and stores alternating between pages of one TLB index "
       "reach their own page");
    ok((REG32(avail) & TT_STREAM_WORDS_MASK) ==
       ((words0 + ALIAS_ROUNDS) & TT_STREAM_WORDS_MASK),
       "every register write among them reaches the register");
}

void core_main(int role, int kind)
{
    if (role != BRISC) {
        subordinate(role, kind);
        return;
    }
    tile_id = REG32(NOC_ID_LOGICAL(0));
    tap_reporter = tile_id == REPORTER_ID;
    check_tlb_alias();      /* first: while the core's TLB is at its smallest */
    check_identity();
    check_reset();
    check_memory();
    check_clock_csr();
    check_hold();
    ok(tile_id == REG32(NOC_ID_LOGICAL(0)),
       "L1 is private to the tile (own id still in L1)");
    tap_done();
    for (;;) {
        tile_id = REG32(NOC_ID_LOGICAL(0));   /* would clobber a shared L1 */
    }
}
