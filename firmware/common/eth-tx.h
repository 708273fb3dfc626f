/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * TT-link L1 writes from ERISC code: one TX queue's registers
 * (tt-isa-documentation BlackholeA0/EthernetTile/EthernetTxRx.md), as
 * tt-metal's eth_txq_is_busy() and eth_send_packet() use them.
 */
#ifndef TT_FW_ETH_TX_H
#define TT_FW_ETH_TX_H

#include "tt.h"
#include "../../include/hw/tenstorrent/ttlink.h"

#define ETH_TXQ(q, off)     REG32(TT_ETH_TXRX_BASE + TT_ETH_TXQ(q) + (off))

/* until queue @q takes a command (CMD read before STATUS: BH-55) */
static inline void eth_txq_wait(int q)
{
    do {
        (void)ETH_TXQ(q, TT_ETH_TXQ_CMD);
    } while (ETH_TXQ(q, TT_ETH_TXQ_STATUS) & TT_ETH_TXQ_STATUS_CMD_ONGOING);
}

/* @size bytes (a multiple of 16) of L1 at @src to the peer's L1 @dst */
static inline void eth_txq_l1_write(int q, uint32_t src, uint32_t dst,
                                    uint32_t size)
{
    eth_txq_wait(q);
    ETH_TXQ(q, TT_ETH_TXQ_TRANSFER_START_ADDR) = src;
    ETH_TXQ(q, TT_ETH_TXQ_DEST_ADDR) = dst;
    ETH_TXQ(q, TT_ETH_TXQ_TRANSFER_SIZE_BYTES) = size;
    ETH_TXQ(q, TT_ETH_TXQ_CMD) = TT_ETH_TXQ_CMD_L1_WRITE;
}

#endif
