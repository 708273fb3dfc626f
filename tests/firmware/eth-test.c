/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Two chips, one ERISC program (E0 of channel 0 on each): the host writes
 * the role at ROLE before releasing E0.
 *
 * Sender: waits for the link, sends BYTES of a pattern as a TT-link L1
 * write on TXQ 0, then a TT-link MMIO write adding CREDITS words to the
 * peer's stream 2 (the fabric's credit update), then a 16-byte flag; it
 * checks CMD_ONGOING between commands as tt-metal's eth_txq_is_busy()
 * does (CMD read first, BH-55).
 * Receiver: polls its L1 for the flag (so it parks until the frame
 * lands), then checks the data and the credits.
 *
 * Both write RESULT: DONE | (1 if every check passed).
 * Registers: tt-isa-documentation BlackholeA0/EthernetTile/EthernetTxRx.md.
 */
#include "eth-tx.h"
#include "../../include/hw/tenstorrent/noc-overlay-regs.h"

#define ROLE        0x30000u    /* 1: sender, 2: receiver */
#define RESULT      0x30010u
#define DONE        0x600d0000u
#define SRC         0x31000u
#define DST         0x32000u
#define FLAG        0x34000u
#define FLAG_VALUE  0xf1a90001u
#define BYTES       2048u
#define CREDITS     5u

#define TXRX(off)   (TT_ETH_TXRX_BASE + (off))
#define STREAM2(r)  (TT_ETH_NOC_OVERLAY_BASE + 2 * TT_STREAM_STRIDE + 4 * (r))

static uint32_t pattern(uint32_t i)
{
    return i * 0x9e3779b1u ^ 0x5a5a0000u;
}

static void send_reg(uint32_t addr, uint32_t val)
{
    eth_txq_wait(0);
    ETH_TXQ(0, TT_ETH_TXQ_DEST_ADDR) = addr;
    ETH_TXQ(0, TT_ETH_TXQ_REMOTE_REG_DATA) = val;
    ETH_TXQ(0, TT_ETH_TXQ_CMD) = TT_ETH_TXQ_CMD_MMIO_WRITE;
}

static uint32_t sender(void)
{
    while (REG32(TXRX(TT_ETH_CTRL + TT_ETH_CTRL_PCS_STATUS)) != 1) {
        __asm__ volatile("fence");
    }
    for (uint32_t i = 0; i < BYTES / 4; i++) {
        REG32(SRC + 4 * i) = pattern(i);
    }
    eth_txq_l1_write(0, SRC, DST, BYTES);
    send_reg(STREAM2(TT_STREAM_SPACE_UPDATE),
             CREDITS << TT_STREAM_WORDS_FREE_SHIFT);
    REG32(SRC + BYTES) = FLAG_VALUE;
    eth_txq_l1_write(0, SRC + BYTES, FLAG, 16);
    eth_txq_wait(0);
    return ETH_TXQ(0, TT_ETH_TXQ_TRANSFER_CNT) == 3;
}

static uint32_t receiver(void)
{
    uint32_t good = 1;

    while (REG32(FLAG) != FLAG_VALUE) {
        __asm__ volatile("fence");
    }
    for (uint32_t i = 0; i < BYTES / 4; i++) {
        good &= REG32(DST + 4 * i) == pattern(i);
    }
    good &= REG32(STREAM2(TT_STREAM_SPACE_AVAILABLE)) == CREDITS;
    good &= REG32(TXRX(TT_ETH_RXQ(0) + TT_ETH_RXQ_PKT_END_CNT)) == 3;
    return good;
}

void eth_main(void)
{
    uint32_t role = REG32(ROLE);

    REG32(RESULT) = DONE | (role == 1 ? sender() : role == 2 ? receiver()
                                                              : 0);
    for (;;) {
        __asm__ volatile("wfi");
    }
}
