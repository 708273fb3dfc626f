/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * TT-link benchmark between two chips (bench/eth-bench.py), the image of
 * -M blackhole,erisc-firmware= on both: on channel 0, the chip at asic
 * location 0 measures, the one at location 1 answers.
 *
 * Ping-pong: PINGS round trips of a 16-byte L1 write each way.
 * Throughput: for each size, 64 MiB in L1 writes of that size from one
 * 256 KiB buffer (a 1 MiB transfer is four), then a flag the receiver
 * acknowledges, so the time covers the data's arrival.
 * A host that loads the image itself (bench/eth-bench.py through the
 * libttsim ABI, on any linked channel) writes ROLE first.
 * Times are wall-clock cycles (AICLK 1.35 GHz of QEMU's virtual clock,
 * host time when not under icount), at RESULTS: the ping-pong total, then
 * one per size; then PINGS and TOTAL, for the script.
 */
#include "eth-tx.h"
#include "eth-bench.h"

#define PINGS       1000
#define TOTAL       (64u << 20)
#define BUF         0x38000u    /* 256 KiB, below the base-firmware area */
#define BUF_SIZE    0x40000u
#define OUT         0x34000u
#define PING_IN     0x34100u
#define PONG_IN     0x34200u
#define FLAG_IN     0x34300u
#define ACK_IN      0x34400u
#define RESULTS     ETH_BENCH_RESULTS
#define DONE        ETH_BENCH_DONE
#define ROLE        ETH_BENCH_ROLE
#define ROLE_HOST   ETH_BENCH_ROLE_HOST

/* a byte of chip_info_t, which the model writes into L1: volatile */
#define INFO(off)   (*(volatile uint8_t *)(uintptr_t)(TT_ETH_LOCAL_INFO + \
                                                      (off)))

static const uint32_t sizes[] = { 1024, 16384, 262144, 1048576 };

static uint64_t now(void)
{
    uint32_t lo = REG32(WALL_CLOCK_L);

    return (uint64_t)REG32(WALL_CLOCK_H) << 32 | lo;
}

static void send(uint32_t src, uint32_t dst, uint32_t size)
{
    eth_txq_l1_write(0, src, dst, size);
}

/* 16 bytes of @v from OUT to the peer's @dst */
static void post(uint32_t dst, uint32_t v)
{
    eth_txq_wait(0);                /* the last post has left OUT */
    REG32(OUT) = v;
    send(OUT, dst, 16);
}

static void wait_for(uint32_t addr, uint32_t v)
{
    while (REG32(addr) != v) {
        __asm__ volatile("fence");
    }
}

static void measure(void)
{
    uint64_t t0 = now();

    for (uint32_t i = 1; i <= PINGS; i++) {
        post(PING_IN, i);
        wait_for(PONG_IN, i);
    }
    REG32(RESULTS) = now() - t0;
    REG32(RESULTS + 20) = PINGS;
    REG32(RESULTS + 24) = TOTAL;
    for (uint32_t s = 0; s < 4; s++) {
        uint32_t chunk = sizes[s] < BUF_SIZE ? sizes[s] : BUF_SIZE;

        t0 = now();
        for (uint32_t done = 0; done < TOTAL; done += chunk) {
            send(BUF, BUF, chunk);
        }
        post(FLAG_IN, s + 1);
        wait_for(ACK_IN, s + 1);
        REG32(RESULTS + 4 + 4 * s) = now() - t0;
    }
}

static void answer(void)
{
    for (uint32_t i = 1; i <= PINGS; i++) {
        wait_for(PING_IN, i);
        post(PONG_IN, i);
    }
    for (uint32_t s = 1; s <= 4; s++) {
        wait_for(FLAG_IN, s);
        post(ACK_IN, s);
    }
}

void eth_main(void)
{
    uint32_t role = REG32(ROLE);
    int host = (role & 0xffff0000u) == ROLE_HOST;

    if (host || INFO(2) == 0) {         /* else channel 0 only */
        while (REG32(TT_ETH_PORT_STATUS) != TT_ETH_PORT_UP) {
            __asm__ volatile("fence");
        }
        if (host ? role & 1 : INFO(1) == 0) {
            measure();
        } else {
            answer();
        }
        REG32(DONE) = ETH_BENCH_DONE_VALUE;
    }
    for (;;) {
        if (host) {
            __asm__ volatile("fence");  /* ttsim's ERISCs stop at a WFI */
        } else {
            __asm__ volatile("wfi");
        }
    }
}
