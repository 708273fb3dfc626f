/*
 * NOC benchmark (BRISC of the tile at translated (1, 2); other tiles idle):
 * L1-to-L1 writes to a distant tile and DRAM-to-L1 reads, 16 KiB packets,
 * and the cost of one 4-byte write.  Times are wall-clock ticks (1.35 GHz
 * AICLK of QEMU's virtual clock, which follows host time without icount).
 */
#include "noc.h"

#define REPORTER_ID ((2u << 6) | 1u)    /* translated (1, 2) */

#define ROUNDS      2000u
#define PACKET      16384u
#define SMALL       100000u

static char *hex(char *p, uint32_t v)
{
    for (int i = 28; i >= 0; i -= 4) {
        *p++ = "0123456789abcdef"[(v >> i) & 15];
    }
    return p;
}

static void report(const char *name, uint32_t n, uint32_t bytes, uint32_t t)
{
    static char line[96];
    char *p = line;

    while (*name) {
        *p++ = *name++;
    }
    *p++ = ' ';
    p = hex(p, n);
    *p++ = ' ';
    p = hex(p, bytes);
    *p++ = ' ';
    p = hex(p, t);
    *p++ = '\n';
    *p = 0;
    sh_puts(line);
}

#ifdef ALL_TILES
/*
 * Every tile's BRISC at once (full P150): ALL_ROUNDS DRAM-to-L1 reads from
 * bank (tile % 8) on NOC1, then as many L1-to-L1 writes to the next tile in
 * its column on NOC0; each tile then bumps a counter at the reporter, which
 * times from its own start (all BRISCs leave reset together) to the last.
 */
#define ALL_ROUNDS  200u
#define NTILES      140u
#define DONE        0x100000u

void core_main(int role, int kind)
{
    uint32_t me = REG32(NOC_ID_LOGICAL(0)) & 0xfff, x = me & 63, y = me >> 6;
    uint32_t t0 = wall_clock(), bank = (x * 10 + y) % 8;

    if (role != BRISC) {
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    for (uint32_t i = 0; i < ALL_ROUNDS; i++) {
        noc_read(1, XY(17 + bank / 4, 12 + 3 * (bank % 4)),
                 0x1000000 + (i & 63) * PACKET, 0x80000, PACKET);
    }
    for (uint32_t i = 0; i < ALL_ROUNDS; i++) {
        noc_write(0, 0x80000, XY(x, y == 11 ? 2 : y + 1), 0xc0000, PACKET, 0);
    }
    noc_atomic(0, REPORTER_ID, DONE, AT_INCR_GET(DONE), 1, DONE + 16, 0);
    if (me != REPORTER_ID) {
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    while (REG32(DONE) != NTILES) {
    }
    report("all-tiles", NTILES * ALL_ROUNDS * 2, PACKET, wall_clock() - t0);
    sh_exit(0);
}
#else
void core_main(int role, int kind)
{
    uint32_t t0, acks;

    if (role != BRISC || REG32(NOC_ID_LOGICAL(0)) != REPORTER_ID) {
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    acks = NIU_STATUS(0, ST_WR_ACK_RECEIVED);
    t0 = wall_clock();
    for (uint32_t i = 0; i < ROUNDS; i++) {
        noc_write(0, 0x80000, XY(16, 11), 0x80000, PACKET, CMD_RESP_MARKED);
    }
    while (NIU_STATUS(0, ST_WR_ACK_RECEIVED) != acks + ROUNDS) {
    }
    report("l1-to-l1", ROUNDS, PACKET, wall_clock() - t0);
    t0 = wall_clock();
    for (uint32_t i = 0; i < ROUNDS; i++) {
        noc_read(1, XY(17, 12), 0x1000000 + (i & 63) * PACKET, 0x80000,
                 PACKET);
    }
    report("dram-to-l1", ROUNDS, PACKET, wall_clock() - t0);
    t0 = wall_clock();
    for (uint32_t i = 0; i < SMALL; i++) {
        noc_write(0, 0x80000, XY(16, 11), 0x90000, 4, 0);
    }
    report("write-4b", SMALL, 4, wall_clock() - t0);
    sh_exit(0);
}
#endif
