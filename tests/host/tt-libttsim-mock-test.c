/*
 * libttsim.so against tt-mock-server: the parts the real chip cannot
 * show without firmware (device-to-host DMA through the mailbox), and
 * exact checks of what the library sends (TLB words, transfer splitting).
 *
 *   TT_EMU_SOCKET=<mock socket> tt-libttsim-mock-test <libttsim.so>
 *   tt-libttsim-mock-test <libttsim.so> orphan    init, then SIGKILL self
 *   tt-libttsim-mock-test <libttsim.so> init      init and exit only
 *
 * Output is TAP.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>

#include "tt-test.h"

/* Host memory the mock's DMA engine targets */
#define HOST_BASE           0x40000000ull
#define HOST_SIZE           (1u << 20)

/* tt-mock-server.c's fake DMA engine in BAR2 */
#define MOCK_DMA_ADDR_LO    0xf0000
#define MOCK_DMA_ADDR_HI    0xf0004
#define MOCK_DMA_LEN        0xf0008
#define MOCK_DMA_GO         0xf000c
#define MOCK_MAX_READ       0xf0010
#define MOCK_DROPPED        0xf0014
#define MOCK_MAX_WRITE      0xf0018
#define MOCK_DMA_BUF        0x80000

#define TILE_WINDOW_CFG     (LIBTTSIM_BAR0_BASE + TT_TLB_CFG_BASE + \
                             200 * TT_TLB_CFG_STRIDE)

static TTHostLib api;
static uint8_t host_mem[HOST_SIZE];
static pthread_t main_thread;
static unsigned dma_calls, dma_bad, dma_wrong_thread;

static bool host_range(uint64_t paddr, uint32_t size)
{
    if (!pthread_equal(pthread_self(), main_thread)) {
        dma_wrong_thread++;
    }
    dma_calls++;
    if (paddr < HOST_BASE || paddr - HOST_BASE + size > HOST_SIZE) {
        dma_bad++;
        return false;
    }
    return true;
}

static void dma_rd(uint64_t paddr, void *dst, uint32_t size)
{
    if (host_range(paddr, size)) {
        memcpy(dst, host_mem + (paddr - HOST_BASE), size);
    }
}

static void dma_wr(uint64_t paddr, const void *src, uint32_t size)
{
    if (host_range(paddr, size)) {
        memcpy(host_mem + (paddr - HOST_BASE), src, size);
    }
}

static uint32_t bar2_rd32(uint32_t off)
{
    return tt_host_rd32(&api, LIBTTSIM_BAR2_BASE + off);
}

static void bar2_wr32(uint32_t off, uint32_t v)
{
    tt_host_wr32(&api, LIBTTSIM_BAR2_BASE + off, v);
}

/* dir 1: device writes host memory, 0: reads it; delay: STATUS polls */
static void mock_dma(uint32_t dir, uint64_t host, uint32_t len,
                     uint32_t delay)
{
    bar2_wr32(MOCK_DMA_ADDR_LO, (uint32_t)host);
    bar2_wr32(MOCK_DMA_ADDR_HI, host >> 32);
    bar2_wr32(MOCK_DMA_LEN, len);
    bar2_wr32(MOCK_DMA_GO, dir | delay << 8);
}

static void test_tile(void)
{
    static uint8_t out[0x30000], in[0x30000];
    uint32_t cfg[3], v;
    uint64_t high = 0xffb0000000010000ull, at;

    /* 0x1F0000 + 0x30000 crosses the 2 MiB boundary at 0x200000 */
    tt_fill(out, sizeof(out), 7);
    api.tile_wr(3, 4, 0x1f0000, out, sizeof(out));
    api.tile_rd(3, 4, 0x1f0000, in, sizeof(in));
    tt_ok(!memcmp(in, out, sizeof(in)), "tile write/read across a 2 MiB "
          "boundary round trip");

    api.mem_rd(TILE_WINDOW_CFG, cfg, sizeof(cfg));
    tt_ok(cfg[0] == 1 && cfg[1] == (3u << 11 | 4u << 17) && cfg[2] == 0x40,
          "window 200 holds {0x%x, 0x%x, 0x%x}: 0x200000 >> 21, x_end 3, y_end "
          "4, strict ordering", cfg[0], cfg[1], cfg[2]);

    at = tt_host_tlb_unicast(&api, 7, 3, 4, 0x200000);
    memset(in, 0, sizeof(in));
    api.mem_rd(at, in, 0x20000);
    tt_ok(!memcmp(in, out + 0x10000, 0x20000), "the second part landed at "
          "(3,4) 0x200000 (seen through window 7)");

    /* The host repoints window 200: the library must notice */
    tt_host_tlb_unicast(&api, 200, 5, 5, 0);
    memset(in, 0, sizeof(in));
    api.tile_rd(3, 4, 0x200000, in, 0x1000);
    tt_ok(!memcmp(in, out + 0x10000, 0x1000), "tile access after the host "
          "rewrote window 200 still reaches (3,4)");

    api.tile_wr(6, 7, high, out, 64);
    memset(in, 0, 64);
    api.tile_rd(6, 7, high, in, 64);
    api.mem_rd(TILE_WINDOW_CFG, cfg, sizeof(cfg));
    tt_ok(!memcmp(in, out, 64) && cfg[0] == 0x80000000 &&
          cfg[1] == (0x7fdu | 6u << 11 | 7u << 17),
          "64-bit tile address 0x%llx: words {0x%x, 0x%x}",
          (unsigned long long)high, cfg[0], cfg[1]);

    v = 0;
    api.tile_rd(64, 0, 0, &v, 4);
    tt_ok(v == UINT32_MAX, "a tile outside the 6-bit NOC grid reads 0xFF");

    api.tile_rd(8, 0, 0x80030408, &v, 4);
    tt_ok(v == 5, "ARC boot status through tile_rd_bytes");
}

static void test_split(void)
{
    static uint8_t out[3 << 20], in[3 << 20];
    uint64_t at = LIBTTSIM_BAR4_BASE + (4ull << 30) - (1 << 20) + 12;
    uint32_t max_rd, max_wr;

    tt_fill(out, sizeof(out), 9);
    api.mem_wr(at, out, sizeof(out));
    api.mem_rd(at, in, sizeof(in));
    max_rd = bar2_rd32(MOCK_MAX_READ);
    max_wr = bar2_rd32(MOCK_MAX_WRITE);
    tt_ok(!memcmp(in, out, sizeof(in)), "3 MiB BAR4 write/read round trip");
    tt_ok(max_rd == 1 << 20, "reads split at max_data_xfer_size (largest "
          "0x%x)", max_rd);
    tt_ok(max_wr == 32 << 10, "writes split at 32 KiB (largest 0x%x)",
          max_wr);
}

static void test_dma(void)
{
    static uint8_t out[0x10064], in[0x18000];
    uint8_t before[16];

    /* Device -> host, two mailbox pieces, served before mem_wr returns */
    tt_fill(out, sizeof(out), 11);
    api.mem_wr(LIBTTSIM_BAR2_BASE + MOCK_DMA_BUF, out, sizeof(out));
    mock_dma(1, HOST_BASE + 0x100, sizeof(out), 0);
    tt_ok(!memcmp(host_mem + 0x100, out, sizeof(out)),
          "device-to-host write of 0x%zx bytes done when the call returns",
          sizeof(out));
    tt_ok(dma_calls == 2 && dma_wrong_thread == 0 && dma_bad == 0,
          "in 2 callbacks (%u), on the calling thread", dma_calls);

    /* Host -> device */
    tt_fill(host_mem + 0x20000, sizeof(in), 12);
    mock_dma(0, HOST_BASE + 0x20000, sizeof(in), 0);
    api.mem_rd(LIBTTSIM_BAR2_BASE + MOCK_DMA_BUF, in, sizeof(in));
    tt_ok(!memcmp(in, host_mem + 0x20000, sizeof(in)),
          "device read of 0x%zx bytes of host memory", sizeof(in));

    /* A request that shows up late is served by libttsim_clock */
    api.mem_wr(LIBTTSIM_BAR2_BASE + MOCK_DMA_BUF, out, 16);
    memcpy(before, host_mem + 0x80000, sizeof(before));
    mock_dma(1, HOST_BASE + 0x80000, 16, 1);
    tt_ok(!memcmp(before, host_mem + 0x80000, 16),
          "a delayed request is still pending after the call");
    api.clock(1);
    tt_ok(!memcmp(host_mem + 0x80000, out, 16),
          "libttsim_clock served it");

    /* Without callbacks the mailbox is off and the device's DMA fails */
    api.set_dma(NULL, NULL);
    mock_dma(1, HOST_BASE, 16, 0);
    tt_ok(bar2_rd32(MOCK_DROPPED) == 1, "no callbacks: mailbox disabled");
    api.set_dma(dma_rd, dma_wr);
    mock_dma(1, HOST_BASE + 0x90000, 16, 0);
    tt_ok(!memcmp(host_mem + 0x90000, out, 16) &&
          bar2_rd32(MOCK_DROPPED) == 1, "callbacks again: mailbox enabled");
}

/* Threads hammering different tiles: the library's lock keeps them apart */
#define THREADS         4
#define THREAD_ROUNDS   200

static void *thread_body(void *opaque)
{
    uintptr_t id = (uintptr_t)opaque;
    uint8_t out[256], in[256];
    uintptr_t bad = 0;

    for (int i = 0; i < THREAD_ROUNDS; i++) {
        tt_fill(out, sizeof(out), id * 1000 + i);
        api.tile_wr(10 + id, 2, 0x1000 * i, out, sizeof(out));
        api.tile_rd(10 + id, 2, 0x1000 * i, in, sizeof(in));
        api.clock(1);
        bad += memcmp(in, out, sizeof(in)) != 0;
    }
    return (void *)bad;
}

static void test_threads(void)
{
    pthread_t t[THREADS];
    uintptr_t bad = 0;

    for (uintptr_t i = 0; i < THREADS; i++) {
        pthread_create(&t[i], NULL, thread_body, (void *)i);
    }
    for (int i = 0; i < THREADS; i++) {
        void *r;

        pthread_join(t[i], &r);
        bad += (uintptr_t)r;
    }
    tt_ok(bad == 0, "%d threads x %d tile round trips, %u mismatches",
          THREADS, THREAD_ROUNDS, (unsigned)bad);
}

/* A callback that calls back into the library must abort, not hang */
static void reentrant_rd(uint64_t paddr, void *dst, uint32_t size)
{
    uint32_t v;

    api.mem_rd(LIBTTSIM_BAR2_BASE, &v, 4);
}

static void do_reentrant_dma(void *opaque)
{
    api.set_dma(reentrant_rd, dma_wr);
    mock_dma(0, HOST_BASE, 16, 0);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 2 ? argv[2] : "full";

    if (argc < 2) {
        fprintf(stderr, "usage: %s <libttsim.so> [full|init|orphan]\n",
                argv[0]);
        return 2;
    }
    main_thread = pthread_self();
    if (!tt_ok(tt_load(argv[1], &api) == 0,
               "all nine libttsim symbols resolve")) {
        return tt_done();
    }
    api.set_dma(dma_rd, dma_wr);
    api.init();
    tt_ok(api.cfg_rd(0, 0) == 0xb1401e52, "config id of the mock");
    if (!strcmp(mode, "orphan")) {
        fflush(stdout);
        raise(SIGKILL);
    }
    if (!strcmp(mode, "full")) {
        test_tile();
        test_split();
        test_dma();
        test_threads();
        tt_ok(tt_aborts(do_reentrant_dma, NULL),
              "a DMA callback calling into the library aborts");
    }
    api.exit();
    tt_ok(true, "libttsim_exit returned");
    return tt_done();
}
