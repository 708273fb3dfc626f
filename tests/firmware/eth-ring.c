/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A token around the ring of a QuietBox 2 (-M blackhole,erisc-firmware=
 * on every chip, tools/tt-cluster's qb2), LAPS times: chip c's E0 on its
 * ring-out channel sends the token over TT-link to the next chip's
 * ring-in channel; that channel's E0 adds one and hands it, by a NOC
 * write, to its own chip's ring-out channel.  Chip 0 starts it with 1 and
 * ends it, so the token comes back as 1 + 4 * LAPS.
 *
 * Chips are told apart by their ASIC id (tt-cluster's 1 + chip index), in
 * the base-firmware results' local_info; channels are logical.
 * RESULT: DONE | the last token this channel handled, or DONE | 0xfff on
 * a channel outside the ring.
 */
#include "noc.h"
#include "eth-tx.h"
#include "tt-grid.h"         /* generated: TT_VIRT_ETH_X0, _Y */

#define LAPS        3
#define RESULT      0x30010u
#define DONE        0x600d0000u
#define TOKEN       0x30040u    /* from the previous chip, over TT-link */
#define FWD         0x30050u    /* from this chip's ring-in channel */
#define OUT         0x30060u

/* bytes of chip_info_t, which the model writes into L1: volatile */
#define INFO(off)   (*(volatile uint8_t *)(uintptr_t)(TT_ETH_LOCAL_INFO + \
                                                      (off)))

/* Ring channels per chip (hw/tenstorrent/data/clusters.yaml, qb2) */
static const uint8_t ring_in[4] = { 2, 3, 4, 3 };
static const uint8_t ring_out[4] = { 8, 4, 8, 5 };

static void wait_for(uint32_t addr, uint32_t v)
{
    while (REG32(addr) != v) {
        __asm__ volatile("fence");
    }
}

/* The 8 bytes {token, lap} at OUT to the peer's @dst over TT-link */
static void send(uint32_t token, uint32_t lap, uint32_t dst)
{
    eth_txq_wait(0);                /* the last send has left OUT */
    REG32(OUT) = token;
    REG32(OUT + 4) = lap;
    eth_txq_l1_write(0, OUT, dst, 16);
}

static uint32_t ring_out_tile(uint32_t chip)
{
    uint32_t token = 0;

    while (REG32(TT_ETH_PORT_STATUS) != TT_ETH_PORT_UP) {
        __asm__ volatile("fence");
    }
    for (uint32_t lap = 1; lap <= LAPS; lap++) {
        if (chip == 0 && lap == 1) {
            token = 1;
        } else {
            wait_for(FWD + 4, lap);
            token = REG32(FWD);
        }
        send(token, lap, TOKEN);
    }
    return token;
}

static uint32_t ring_in_tile(uint32_t chip)
{
    uint32_t token = 0;

    for (uint32_t lap = 1; lap <= LAPS; lap++) {
        uint32_t next = chip == 0 ? lap + 1 : lap;

        wait_for(TOKEN + 4, lap);
        token = REG32(TOKEN) + 1;
        if (chip == 0 && lap == LAPS) {
            break;
        }
        REG32(OUT) = token;
        REG32(OUT + 4) = next;
        noc_write_acked(0, OUT, XY(TT_VIRT_ETH_X0 + ring_out[chip],
                                   TT_VIRT_ETH_Y), FWD, 16);
    }
    return token;
}

void eth_main(void)
{
    uint32_t chip = REG32(TT_ETH_LOCAL_INFO + 24) - 1, ch = INFO(3);
    uint32_t r = 0xfff;

    if (chip < 4 && ch == ring_out[chip]) {
        r = ring_out_tile(chip);
    } else if (chip < 4 && ch == ring_in[chip]) {
        r = ring_in_tile(chip);
    }
    REG32(RESULT) = DONE | r;
    for (;;) {
        __asm__ volatile("wfi");
    }
}
