/*
 * Ring pipeline through every Tensix tile of a P150 (bare image): the tile
 * at translated (1, 2) sends a 1 KiB buffer to the next tile in column-major
 * order of translated coordinates; each tile adds its own coordinates to
 * every word, writes the buffer on to the next tile (non-posted, waiting
 * for the ack counter as tt-metal's write barrier does) and increments the
 * next tile's flag with a NOC atomic.  Back at the start, the buffer must
 * hold the sum over all tiles.
 */
#include "tap.h"
#include "grid.h"

#define BUF         0x60000u
#define WORDS       256
#define FLAG        0x68000u
#define NTILES      140

static void send_to(int k, int noc)
{
    uint32_t xy = tensix_xy(k % NTILES);

    noc_write_acked(noc, BUF, xy, BUF, WORDS * 4);
    noc_atomic(noc, xy, FLAG, AT_INCR_GET(FLAG), 1, 0x100, 0);
}

void core_main(int role, int kind)
{
    uint32_t id = REG32(NOC_ID_LOGICAL(0)) & 0xfff;
    volatile uint32_t *flag = (volatile uint32_t *)FLAG;
    volatile uint32_t *buf = (volatile uint32_t *)BUF;
    uint32_t sum = 0;
    int k = 0, good = 1;

    if (role != BRISC) {
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    while (tensix_xy(k) != id) {
        k++;
    }
    if (k != 0) {
        while (*flag == 0) {
        }
        for (int i = 0; i < WORDS; i++) {
            buf[i] += id;
        }
        send_to(k + 1, k & 1);      /* alternate NOCs along the ring */
        for (;;) {
            __asm__ volatile("wfi");
        }
    }
    tap_reporter = 1;
    {
        uint32_t acks = NIU_STATUS(0, ST_WR_ACK_RECEIVED);
        int got = 1;

        for (int i = 0; i < 16; i++) {
            REG32(0x70000 + 4 * i) = 0x5a000000u + i;
        }
        noc_write(0, 0x70000, MCAST(1, 2, 16, 11), 0x70000, 64,
                  CMD_BRCST | CMD_PATH_RES | CMD_RESP_MARKED);
        ok(NIU_STATUS(0, ST_WR_ACK_RECEIVED) == acks + NTILES - 1,
           "multicast to the whole 14x10 grid: 139 acks");
        for (int j = 1; j < NTILES; j += 23) {
            noc_read(1, tensix_xy(j), 0x70000, 0x71000, 64);
            for (int i = 0; i < 16; i++) {
                got &= REG32(0x71000 + 4 * i) == 0x5a000000u + i;
            }
        }
        ok(got, "sampled tiles across the grid received the data");
    }
    for (int i = 0; i < WORDS; i++) {
        buf[i] = i;
    }
    send_to(1, 0);
    while (*flag == 0) {
    }
    for (int j = 1; j < NTILES; j++) {
        sum += tensix_xy(j);
    }
    for (int i = 0; i < WORDS; i++) {
        good &= buf[i] == i + sum;
    }
    ok(good, "a buffer passed through all 140 tiles carries every tile's "
       "contribution");
    tap_done();
}
