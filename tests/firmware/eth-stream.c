/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * TT-link data integrity and order between two chips (the cluster suite,
 * -M blackhole,erisc-firmware= on both): on channel 0, the chip at asic
 * location 0 sends, the one at location 1 checks.
 *
 * ROUNDS rounds: the sender fills SRC with the round's pattern, sends it
 * to DST as L1 writes of mixed sizes issued back to back (16 B to 4 KiB,
 * so that the model batches their frames), then the round number to
 * FLAG, and waits for the receiver's ACK.  The receiver waits for FLAG,
 * compares DST with the pattern (a FLAG that overtook data, lost or
 * repeated bytes show as mismatches) and acknowledges.
 *
 * RESULT: DONE | 1 on both ends when all rounds went through with every
 * word right, DONE | 0 on the receiver otherwise; MISMATCHES: the words
 * found wrong.
 */
#include "eth-tx.h"

#define RESULT      0x30010u
#define MISMATCHES  0x30014u
#define DONE        0x600d0000u
#define ROUNDS      64u
#define SRC         0x40000u
#define DST         0x50000u
#define BYTES       0x4000u     /* 16 KiB a round */
#define OUT         0x34000u
#define FLAG        0x34100u
#define ACK         0x34200u

/* a byte of chip_info_t, which the model writes into L1: volatile */
#define INFO(off)   (*(volatile uint8_t *)(uintptr_t)(TT_ETH_LOCAL_INFO + \
                                                      (off)))

/* command sizes, in turn, until the round's bytes are out */
static const uint32_t sizes[] = { 16, 1024, 48, 4096, 32, 2048, 16, 512 };

static uint32_t pattern(uint32_t round, uint32_t word)
{
    return (round + 1) * 0x9e3779b9u ^ word * 0x85ebca6bu;
}

/* 16 bytes of @v from OUT to the peer's @dst */
static void post(uint32_t dst, uint32_t v)
{
    eth_txq_wait(0);                /* the last post has left OUT */
    REG32(OUT) = v;
    eth_txq_l1_write(0, OUT, dst, 16);
}

static void wait_for(uint32_t addr, uint32_t v)
{
    while (REG32(addr) != v) {
        __asm__ volatile("fence");
    }
}

static uint32_t send(void)
{
    for (uint32_t r = 0; r < ROUNDS; r++) {
        uint32_t off = 0;

        eth_txq_wait(0);            /* the last round's data has left SRC */
        for (uint32_t w = 0; w < BYTES / 4; w++) {
            REG32(SRC + 4 * w) = pattern(r, w);
        }
        for (uint32_t i = 0; off < BYTES; i++) {
            uint32_t n = sizes[i % (sizeof(sizes) / sizeof(sizes[0]))];

            n = n < BYTES - off ? n : BYTES - off;
            eth_txq_l1_write(0, SRC + off, DST + off, n);
            off += n;
        }
        post(FLAG, r + 1);
        wait_for(ACK, r + 1);
    }
    return 1;
}

static uint32_t check(void)
{
    uint32_t bad = 0;

    for (uint32_t r = 0; r < ROUNDS; r++) {
        wait_for(FLAG, r + 1);
        for (uint32_t w = 0; w < BYTES / 4; w++) {
            bad += REG32(DST + 4 * w) != pattern(r, w);
        }
        post(ACK, r + 1);
    }
    REG32(MISMATCHES) = bad;
    return bad == 0;
}

void eth_main(void)
{
    if (INFO(2) == 0) {                 /* channel 0 only */
        while (REG32(TT_ETH_PORT_STATUS) != TT_ETH_PORT_UP) {
            __asm__ volatile("fence");
        }
        REG32(RESULT) = DONE | (INFO(1) == 0 ? send() : check());
    }
    for (;;) {
        __asm__ volatile("wfi");
    }
}
