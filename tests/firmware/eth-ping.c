/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every Ethernet channel of a cluster (-M blackhole,erisc-firmware=): E0
 * waits for its link, sends a stamp (its chip's asic location and ASIC
 * id, its channel) to the same L1 address on the peer, and waits for the
 * peer's stamp, which must match the peer the base-firmware results name
 * (remote_info).  So each link carries a packet both ways.
 *
 * RESULT: DONE | 1 when the stamps match, DONE | 2 on a channel without a
 * link (port_status UNUSED), DONE | 0 on a mismatch.
 */
#include "eth-tx.h"

#define RESULT      0x30010u
#define DONE        0x600d0000u
#define OUT         0x30040u
#define IN          0x30080u
#define STAMP       0x504e4721u

/* a byte of chip_info_t in L1, which the model rewrites: volatile */
#define INFO(base, off) (*(volatile uint8_t *)(uintptr_t)((base) + (off)))

static uint32_t ping(void)
{
    uint32_t port;

    while ((port = REG32(TT_ETH_PORT_STATUS)) != TT_ETH_PORT_UP) {
        if (port == TT_ETH_PORT_UNUSED) {
            return 2;
        }
    }
    REG32(OUT) = STAMP;
    REG32(OUT + 4) = INFO(TT_ETH_LOCAL_INFO, 1);        /* asic location */
    REG32(OUT + 8) = REG32(TT_ETH_LOCAL_INFO + 24);     /* ASIC id low */
    REG32(OUT + 12) = INFO(TT_ETH_LOCAL_INFO, 2);       /* channel */
    eth_txq_l1_write(0, OUT, IN, 16);
    while (REG32(IN) != STAMP) {
        __asm__ volatile("fence");
    }
    return REG32(IN + 4) == INFO(TT_ETH_REMOTE_INFO, 1) &&
           REG32(IN + 8) == REG32(TT_ETH_REMOTE_INFO + 24) &&
           REG32(IN + 12) == INFO(TT_ETH_REMOTE_INFO, 2);
}

void eth_main(void)
{
    REG32(RESULT) = DONE | ping();
    for (;;) {
        __asm__ volatile("wfi");
    }
}
