/*
 * The stream protocol of firmware/dispatch's ERISC kernels (eth-send.c,
 * eth-recv.c): chunks of a buffer through two slots of the Ethernet
 * tiles' L1, each followed by a count of chunks sent; the receiver
 * answers with the count it has delivered, which frees the slot.  Both
 * counts land in the peer's mailbox (eth-kernel.h), which tt-run clears
 * before either kernel starts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_DISPATCH_ETH_LINK_H
#define TT_DISPATCH_ETH_LINK_H

#include "eth-kernel.h"
#include "eth-tx.h"
#include "noc.h"

#define LINK_SENT       (ETH_K_MBOX + 0x00)    /* receiver's: chunks sent */
#define LINK_DONE       (ETH_K_MBOX + 0x10)    /* sender's: chunks delivered */
#define LINK_OUT        (ETH_K_MBOX + 0x20)    /* 16 bytes to send from */
#define LINK_SLOTS      2
#define LINK_MAX_CHUNK  0x4000                 /* a NOC transfer's worth */
#define LINK_SLOT(i, chunk) (ETH_K_FREE + ((i) % LINK_SLOTS) * (chunk))

/* kernel arguments: tt-run wrote them before the core started */
#define ARG(i)          REG32(ETH_K_ARGS + 4 + 4 * (i))
#define NARGS           REG32(ETH_K_ARGS)

/* until the count at @addr (written by the peer) reaches @v */
static inline void link_wait(uint32_t addr, uint32_t v)
{
    while (REG32(addr) < v) {
        __asm__ volatile("fence");
    }
}

/* @v in the peer's mailbox word @dst */
static inline void link_post(uint32_t dst, uint32_t v)
{
    eth_txq_wait(0);            /* the last post has left LINK_OUT */
    REG32(LINK_OUT) = v;
    eth_txq_l1_write(0, LINK_OUT, dst, 16);
}

/* Both kernels' arguments: a Tensix tile's buffer, its size, the chunk */
typedef struct LinkArgs {
    uint32_t xy, addr, bytes, chunk;
    uint32_t n;                 /* chunks */
} LinkArgs;

/* @a from the arguments, once the link is up; 1 if they make no sense */
static inline int link_args(LinkArgs *a)
{
    a->xy = ARG(0);
    a->addr = ARG(1);
    a->bytes = ARG(2);
    a->chunk = ARG(3);
    if (NARGS != 4 || !a->chunk || a->chunk % 16 ||
        a->chunk > LINK_MAX_CHUNK || a->bytes % 16) {
        return 1;
    }
    a->n = (a->bytes + a->chunk - 1) / a->chunk;
    while (REG32(TT_ETH_PORT_STATUS) != TT_ETH_PORT_UP) {
        __asm__ volatile("fence");
    }
    return 0;
}

/* chunk @i's length: the last may be short */
static inline uint32_t link_len(const LinkArgs *a, uint32_t i)
{
    uint32_t off = i * a->chunk;

    return a->bytes - off < a->chunk ? a->bytes - off : a->chunk;
}

#endif
