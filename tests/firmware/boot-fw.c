/*
 * Minimal firmware set following tt-metal's boot protocol (fw-layout=tt-test):
 * the host writes a JAL at L1 0 and RUN_MSG_INIT into the go message and
 * releases BRISC; BRISC sets the subordinates' reset PCs, releases them and
 * waits for each to report DONE in mailboxes_t.subordinate_sync; then it
 * writes RUN_MSG_DONE into the go message.  Every core first computes a
 * checksum (WORK rounds of xorshift32) seeded by its tile and role and
 * stores it at RESULT(role), so a host can verify real work was done.
 * Then, as tt-metal firmware does, every core polls its mailbox: a host
 * RUN_MSG_GO starts one more round (LAUNCH_RESULT) on all five cores.
 */
#include "tt.h"

#define SUBORDINATE_SYNC    0x68u       /* mailboxes_t at 0x60, + 8 */
#define GO_MSG              0x470u      /* go_messages[0] */
#define RUN_MSG_INIT        0x40u
#define RUN_MSG_DONE        0x00u
#define RESULT(role)        (0x20000u + 4 * (role))
#define RESULT_TILE         0x20014u

/* Role numbers as in tt.h; plain numbers so #if can test them */
#if defined(ROLE_brisc)
#define ROLE 0
#elif defined(ROLE_ncrisc)
#define ROLE 1
#elif defined(ROLE_trisc0)
#define ROLE 2
#elif defined(ROLE_trisc1)
#define ROLE 3
#elif defined(ROLE_trisc2)
#define ROLE 4
#else
#error "build with -DROLE_<core>"
#endif

/* In LDM .data: only right if the LDM image was placed and copied. */
uint32_t salt = 0x9e3779b9u;

static uint32_t work(uint32_t id)
{
    uint32_t x = (id * 5 + ROLE) ^ salt, acc = 0;

    for (uint32_t i = 0; i < WORK; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        acc = acc * 31 + x;
    }
    return acc;
}

/* Host clock at boot and at DONE (BRISC), for the boot-time benchmark */
#define BOOT_T0             0x20018u
#define BOOT_T1             0x2001cu
#define LAUNCHES            0x20020u
#define LAUNCH_RESULT(role) (0x20024u + 4 * (role))
#define RUN_MSG_GO          0x80u
#define RUN_SYNC_MSG_GO     0x80u

int main(void)
{
    uint32_t id = REG32(NOC_ID_LOGICAL(0));
#if ROLE == 0
    volatile uint8_t *go = (volatile uint8_t *)(GO_MSG + 3);

    REG32(BOOT_T0) = wall_clock();
    /* tt-metal brisc.cc: set_deassert_addresses(), deassert_all_reset() */
    REG32(SUBORDINATE_SYNC) = 0x40404040u;
    REG32(NCRISC_RESET_PC) = 0x5800;
    REG32(NCRISC_RESET_PC_OVERRIDE) = 1;
    for (int t = 0; t < 3; t++) {
        REG32(TRISC_RESET_PC(t)) = 0x6000 + 0x800 * t;
    }
    REG32(TRISC_RESET_PC_OVERRIDE) = 7;
    REG32(SOFT_RESET_0) = 0;
    REG32(RESULT_TILE) = id;
    REG32(RESULT(BRISC)) = work(id);
    while (REG32(SUBORDINATE_SYNC) != 0) {
    }
    REG32(BOOT_T1) = wall_clock();
    *go = RUN_MSG_DONE;
    /*
     * Then, like tt-metal's brisc.cc, poll the go message forever; on
     * RUN_MSG_GO run one more round on every core and report DONE again.
     */
    for (uint32_t n = 1;; n++) {
        while (*go != RUN_MSG_GO) {
            __asm__ volatile("fence");  /* invalidate_l1_cache() */
        }
        REG32(SUBORDINATE_SYNC) = 0x80808080u;
        REG32(LAUNCH_RESULT(BRISC)) = work(id ^ n);
        while (REG32(SUBORDINATE_SYNC) != 0) {
            __asm__ volatile("fence");
        }
        REG32(LAUNCHES) = n;
        *go = RUN_MSG_DONE;
    }
#else
    volatile uint8_t *sync = (volatile uint8_t *)(SUBORDINATE_SYNC + ROLE - 1);

    REG32(RESULT(ROLE)) = work(id);
    *sync = 0;
    /* tt-metal's subordinate firmware: wait for RUN_SYNC_MSG_GO */
    for (uint32_t n = 1;; n++) {
        while (*sync != RUN_SYNC_MSG_GO) {
            __asm__ volatile("fence");
        }
        REG32(LAUNCH_RESULT(ROLE)) = work(id ^ n);
        *sync = 0;
    }
#endif
}
