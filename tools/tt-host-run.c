/*
 * Runs a flat RV32 program on every Tensix BRISC of a P150 Blackhole the
 * way tt-umd does, through nothing but the libttsim C ABI, so that the
 * same binary drives our libttsim.so and Tenstorrent's ttsim:
 *
 *   tt-host-run [--lib PATH] [--unicast] [--count N] [--w2] IMAGE
 *   tt-host-run --bench [--lib PATH] [--count N] [--count1 N] IMAGE
 *
 * IMAGE is bench/fw's bench.bin.  The program holds every BRISC in reset,
 * loads IMAGE at L1 0 with one multicast window write (--unicast: tile by
 * tile), writes each tile's parameter block, releases the BRISCs with one
 * multicast register write, polls the done flags (clocking the simulator
 * in between; gives up after 60 s) and checks every checksum against the
 * host reference.  Output is TAP.  --bench prints "metric value unit"
 * lines instead.  --lib defaults to $TT_LIBTTSIM.
 *
 * Host view: ttsim docs/libttsim_api.md (call sequence) and tt-umd
 * device/pcie/tt_sim_tlb_handle.cpp (TLB windows).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt-bench-kernels.h"
#include "tt-host.h"

/*
 * Windows from 32 up, which have no strided-multicast register to clear:
 * ttsim aborts on a write to one.  One per tile, then two more.
 */
#define WIN_TILE0           32
#define WIN_MCAST           (WIN_TILE0 + NTILES)
#define WIN_UNICAST         (WIN_MCAST + 1)

#define NTILES              TT_HOST_TENSIX_TILES

#define SOFT_RESET_0        TT_HOST_SOFT_RESET_0
#define HOLD_ALL            TT_HOST_HOLD_ALL
#define RELEASE_BRISC       TT_HOST_RELEASE_BRISC

#define SEED0               0x1000u
#define POLL_TIMEOUT_S      60.0

/* DRAM tile inside the multicast rectangle, which must not receive it */
#define DRAM_X              9
#define DRAM_Y              2
#define DRAM_MARK           0x5a5aa5a5u

typedef struct Opts {
    const char *lib;
    const char *image;
    bool unicast;
    bool bench;
    uint32_t workload;
    uint32_t count;
    uint32_t count1;
    uint32_t clocks;
} Opts;

static TTHostLib lib;
static uint8_t tile_x[NTILES], tile_y[NTILES];
static uint8_t *image;
static uint32_t image_size;

/* ---------------------------------------------------------- utilities -- */

static void *xmalloc(size_t n)
{
    return tt_host_xcalloc("tt-host-run", n);
}

static void init_grid(void)
{
    for (unsigned i = 0; i < NTILES; i++) {
        unsigned x, y;

        tt_host_tensix_xy(i, &x, &y);
        tile_x[i] = x;
        tile_y[i] = y;
    }
}

static void load_image(const char *path)
{
    size_t n;

    image = tt_host_read_file(path, TT_BENCH_PARAMS, &n);
    if (!image) {
        tt_host_die("tt-host-run", "%s: %s (a flat image of at most 0x%x "
                    "bytes)", path, strerror(errno), TT_BENCH_PARAMS);
    }
    image_size = n;
}

/* -------------------------------------------------------- the windows -- */

/* The whole grid (run_tests() checks that a DRAM word stays untouched) */
static uint64_t tlb_grid(uint64_t addr)
{
    return tt_host_tlb_grid(&lib, WIN_MCAST, addr);
}

/* @addr of tile @i through the window reprogrammed for each access */
static uint64_t tlb_tile(int i, uint64_t addr)
{
    return tt_host_tlb_unicast(&lib, WIN_UNICAST, tile_x[i], tile_y[i],
                               addr);
}

/* L1 of tile @i through its own window, programmed once */
static uint64_t tile_l1(int i, uint32_t addr)
{
    return tt_host_win(&lib, WIN_TILE0 + i, addr);
}

static void map_tiles(void)
{
    for (int i = 0; i < NTILES; i++) {
        tt_host_tlb_unicast(&lib, WIN_TILE0 + i, tile_x[i], tile_y[i], 0);
    }
}

/*
 * tt-umd's TTSimTTDevice order: DMA callbacks, init, config-space id, BAR0;
 * returns the PCI id
 */
static uint32_t start_device(void)
{
    return tt_host_start(&lib, tt_host_no_dma_rd, tt_host_no_dma_wr);
}

/* ------------------------------------------------------ the workload -- */

/* SOFT_RESET_0 of every tile: one multicast write, or one per tile */
static void set_reset(uint32_t val, bool unicast)
{
    if (!unicast) {
        tt_host_wr32(&lib, tlb_grid(SOFT_RESET_0), val);
        return;
    }
    for (int i = 0; i < NTILES; i++) {
        tt_host_wr32(&lib, tlb_tile(i, SOFT_RESET_0), val);
    }
}

/* IMAGE at L1 0: one multicast write, or a window and a write per tile */
static void upload(bool unicast)
{
    if (!unicast) {
        lib.mem_wr(tlb_grid(0), image, image_size);
        return;
    }
    for (int i = 0; i < NTILES; i++) {
        lib.mem_wr(tlb_tile(i, 0), image, image_size);
    }
}

static void write_params(int i, uint32_t workload, uint32_t count)
{
    uint32_t p[TT_BENCH_PARAMS_SIZE / 4] = { 0 };

    p[TT_BENCH_WORKLOAD / 4] = workload;
    p[TT_BENCH_COUNT / 4] = count;
    p[TT_BENCH_SEED / 4] = SEED0 + i;
    lib.mem_wr(tile_l1(i, TT_BENCH_PARAMS), p, sizeof(p));
}

static uint32_t reference(uint32_t workload, uint32_t count, int i)
{
    return workload == 2 ? tt_bench_w2(count, SEED0 + i)
                         : tt_bench_w1(count, SEED0 + i);
}

/*
 * Poll the done flags of tiles [0, @n) until all are set; ttsim runs only
 * inside libttsim_clock(), ours on its own.  Returns how many are not.
 */
static int wait_done(int n, uint32_t clocks)
{
    bool done[NTILES] = { false };
    double deadline = tt_host_now() + POLL_TIMEOUT_S;
    int left = n;

    while (left && tt_host_now() < deadline) {
        lib.clock(clocks);
        for (int i = 0; i < n; i++) {
            uint64_t flag = tile_l1(i, TT_BENCH_PARAMS + TT_BENCH_DONE);

            if (!done[i] && tt_host_rd32(&lib, flag) == TT_BENCH_DONE_MAGIC) {
                done[i] = true;
                left--;
            }
        }
    }
    return left;
}

/* Tiles [0, @n) whose checksum differs from the host's; prints the first */
static int check_sums(int n, uint32_t workload, uint32_t count)
{
    int bad = 0;

    for (int i = 0; i < n; i++) {
        uint64_t sum = tile_l1(i, TT_BENCH_PARAMS + TT_BENCH_CHECKSUM);
        uint32_t got = tt_host_rd32(&lib, sum);
        uint32_t want = reference(workload, count, i);

        if (got != want && !bad++) {
            printf("# tile (%d, %d): checksum 0x%08x, expected 0x%08x\n",
                   tile_x[i], tile_y[i], got, want);
        }
    }
    return bad;
}

/* ------------------------------------------------------ default mode -- */

static int count_held(void)
{
    int n = 0;

    for (int i = 0; i < NTILES; i++) {
        n += tt_host_rd32(&lib, tlb_tile(i, SOFT_RESET_0)) == HOLD_ALL;
    }
    return n;
}

static int count_loaded(void)
{
    uint8_t *buf = xmalloc(image_size);
    int n = 0;

    for (int i = 0; i < NTILES; i++) {
        lib.mem_rd(tile_l1(i, 0), buf, image_size);
        n += !memcmp(buf, image, image_size);
    }
    free(buf);
    return n;
}

/* A DRAM word at the image's address, set before the upload */
static uint64_t dram_word(void)
{
    return tt_host_tlb_unicast(&lib, WIN_UNICAST, DRAM_X, DRAM_Y, 0);
}

static int run_tests(const Opts *o)
{
    const char *how = o->unicast ? "tile by tile" : "by multicast";
    uint32_t id = start_device();
    uint32_t dram;
    double t0;
    int left, bad;

    printf("1..8\n");
    tt_ok(id == TT_HOST_BH_ID, "PCI id 1e52:b140 (read 0x%08x)", id);
    tt_ok((lib.cfg_rd(0, 0x10) & 0x7) == 0x4 && lib.bar0,
          "BAR0 is a 64-bit memory BAR at 0x%llx",
          (unsigned long long)lib.bar0);
    map_tiles();
    set_reset(HOLD_ALL, o->unicast);
    tt_ok(count_held() == NTILES, "every BRISC held in reset %s", how);
    tt_host_wr32(&lib, dram_word(), DRAM_MARK);
    upload(o->unicast);
    tt_ok(count_loaded() == NTILES, "%u-byte image in L1 of all %d tiles, "
          "loaded %s", image_size, NTILES, how);
    dram = tt_host_rd32(&lib, dram_word());
    tt_ok(dram == DRAM_MARK, "DRAM tile (%d, %d), inside the grid's "
          "rectangle, not written (0x%08x)", DRAM_X, DRAM_Y, dram);
    for (int i = 0; i < NTILES; i++) {
        write_params(i, o->workload, o->count);
    }
    t0 = tt_host_now();
    set_reset(RELEASE_BRISC, o->unicast);
    left = wait_done(NTILES, o->clocks);
    tt_ok(!left, "%d BRISCs released %s, all done in %.2f s (%d not)",
          NTILES, how, tt_host_now() - t0, left);
    bad = left ? NTILES : check_sums(NTILES, o->workload, o->count);
    tt_ok(!bad, "all checksums of W%u (%u iterations) match the host's (%d "
          "differ)", o->workload, o->count, bad);
    tt_ok(!tt_host_dma_calls(), "no device-to-host DMA (%u callbacks)",
          tt_host_dma_calls());
    lib.exit();
    return tt_status();
}

/* -------------------------------------------------------- bench mode -- */

#define BULK_SIZE           (1u << 20)
#define BULK_ADDR           0x40000u    /* above image, stack and params */
#define LAT_READS           10001
#define BULK_PASSES         5

static void metric(const char *name, double v, const char *unit)
{
    printf("%s %.6g %s\n", name, v, unit);
    fflush(stdout);
}

static bool bench_error(const char *what)
{
    fprintf(stderr, "tt-host-run: bench: %s\n", what);
    return false;
}

/* Firmware upload to all tiles, verified; zeroes the image area first */
static bool bench_upload(bool unicast)
{
    uint8_t *zero = calloc(1, image_size);
    double t;

    lib.mem_wr(tlb_grid(0), zero, image_size);
    free(zero);
    t = tt_host_now();
    upload(unicast);
    t = tt_host_now() - t;
    metric(unicast ? "upload_unicast" : "upload_mcast", t * 1e3, "ms");
    return count_loaded() == NTILES || bench_error("image not loaded");
}

/*
 * BULK_SIZE into and out of every tile, a different slice of one pattern.
 * The first write pass stands alone (it may pay the first touch of each
 * page); the read and the repeated write are the median of BULK_PASSES
 * passes each, as one pass of 140 MiB takes only a few milliseconds.
 */
static bool bench_bulk(void)
{
    uint8_t *pat = xmalloc(BULK_SIZE + NTILES), *buf = xmalloc(BULK_SIZE);
    double t, rd[BULK_PASSES], wr[BULK_PASSES];
    int bad = 0;

    for (uint32_t i = 0; i < BULK_SIZE + NTILES; i++) {
        pat[i] = i * 7 + (i >> 11);
    }
    t = tt_host_now();
    for (int i = 0; i < NTILES; i++) {
        lib.mem_wr(tile_l1(i, BULK_ADDR), pat + i, BULK_SIZE);
    }
    t = tt_host_now() - t;
    metric("bar0_write", (double)BULK_SIZE * NTILES / t / 1e6, "MB/s");
    for (int p = 0; p < BULK_PASSES; p++) {
        rd[p] = 0;
        for (int i = 0; i < NTILES; i++) {
            double t0 = tt_host_now();

            lib.mem_rd(tile_l1(i, BULK_ADDR), buf, BULK_SIZE);
            rd[p] += tt_host_now() - t0;
            bad += !!memcmp(buf, pat + i, BULK_SIZE);
        }
    }
    metric("bar0_read", (double)BULK_SIZE * NTILES /
           tt_host_median(rd, BULK_PASSES) / 1e6, "MB/s");
    /*
     * The same writes again: the first pass may pay the host's first touch
     * of each page (a page fault per 4 KiB of a shared mapping, several
     * microseconds in a VM), which a host writing L1 repeatedly pays once
     */
    for (int p = 0; p < BULK_PASSES; p++) {
        wr[p] = tt_host_now();
        for (int i = 0; i < NTILES; i++) {
            lib.mem_wr(tile_l1(i, BULK_ADDR), pat + NTILES - 1 - i, BULK_SIZE);
        }
        wr[p] = tt_host_now() - wr[p];
    }
    metric("bar0_write_again", (double)BULK_SIZE * NTILES /
           tt_host_median(wr, BULK_PASSES) / 1e6, "MB/s");
    for (int i = 0; i < NTILES; i++) {
        lib.mem_rd(tile_l1(i, BULK_ADDR), buf, BULK_SIZE);
        bad += !!memcmp(buf, pat + NTILES - 1 - i, BULK_SIZE);
    }
    free(pat);
    free(buf);
    return !bad || bench_error("bulk data read back differs");
}

/* Median time of one 4-byte read, then one 4-byte write, of tile 0's L1 */
static void bench_latency(void)
{
    static double t[LAT_READS];
    uint64_t a = tile_l1(0, TT_BENCH_PARAMS);
    uint64_t w = tile_l1(0, BULK_ADDR);

    for (int i = 0; i < LAT_READS; i++) {
        double t0 = tt_host_now();

        tt_host_rd32(&lib, a);
        t[i] = tt_host_now() - t0;
    }
    metric("bar0_rd32_latency", tt_host_median(t, LAT_READS) * 1e9, "ns");
    for (int i = 0; i < LAT_READS; i++) {
        double t0 = tt_host_now();

        tt_host_wr32(&lib, w, i);
        t[i] = tt_host_now() - t0;
    }
    metric("bar0_wr32_latency", tt_host_median(t, LAT_READS) * 1e9, "ns");
}

/*
 * Workload @workload (W1 or W2) on tiles [0, @n): wall time from the
 * release to the last done flag
 */
static bool bench_work(const char *name, uint32_t workload, int n,
                       uint32_t count, uint32_t clocks)
{
    double t;
    int left;

    for (int i = 0; i < n; i++) {
        write_params(i, workload, count);
    }
    t = tt_host_now();
    if (n == NTILES) {
        set_reset(RELEASE_BRISC, false);
    } else {
        for (int i = 0; i < n; i++) {
            tt_host_wr32(&lib, tlb_tile(i, SOFT_RESET_0), RELEASE_BRISC);
        }
    }
    left = wait_done(n, clocks);
    t = tt_host_now() - t;
    set_reset(HOLD_ALL, false);
    if (left || check_sums(n, workload, count)) {
        return bench_error("workload not done or wrong checksum");
    }
    metric(name, (workload == 2 ? tt_bench_w2_instr(count) :
                  tt_bench_w1_instr(count)) * n / t / 1e6, "MIPS");
    return true;
}

/*
 * A session ended and the next one begun, as a test suite does per test
 * (tt-umd's Cluster per test): libttsim_init, a config read, libttsim_exit
 */
#define RESTARTS 20

static bool bench_restart(void)
{
    double t[RESTARTS];
    bool good = true;

    for (int i = 0; i < RESTARTS; i++) {
        double t0 = tt_host_now();

        good &= start_device() == TT_HOST_BH_ID ||
                bench_error("not a BH after a restart");
        lib.exit();
        t[i] = tt_host_now() - t0;
    }
    metric("restart", tt_host_median(t, RESTARTS) * 1e3, "ms");
    return good;
}

static int run_bench(const Opts *o)
{
    double t = tt_host_now();
    bool good;

    good = start_device() == TT_HOST_BH_ID || bench_error("not a BH");
    metric("init", tt_host_now() - t, "s");
    map_tiles();
    set_reset(HOLD_ALL, false);
    good &= bench_upload(true);
    good &= bench_upload(false);
    good &= bench_bulk();
    bench_latency();
    good &= bench_work("w1_1core", 1, 1, o->count1, o->clocks);
    /* W2 (L1 copy) at about W1's instruction count: L1 stores stay fast */
    good &= bench_work("w2_1core", 2, 1, o->count1 / 18000 + 1,
                       o->clocks);
    good &= bench_work("w1_140cores", 1, NTILES, o->count, o->clocks);
    good &= !tt_host_dma_calls() ||
            bench_error("unexpected device-to-host DMA");
    lib.exit();
    good &= bench_restart();
    return good ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* -------------------------------------------------------------- main -- */

static void usage(int status)
{
    fprintf(status ? stderr : stdout,
            "usage: tt-host-run [--lib PATH] [--unicast] [--w2] [--count N] "
            "IMAGE\n"
            "       tt-host-run --bench [--lib PATH] [--count N] "
            "[--count1 N] IMAGE\n"
            "  --lib PATH   libttsim.so to load (default $TT_LIBTTSIM)\n"
            "  --unicast    load, hold and release tile by tile\n"
            "  --w2         run W2 (L1 copy) instead of W1\n"
            "  --count N    iterations per core (default 100000; "
            "--bench: 140-core W1, 2000000)\n"
            "  --count1 N   --bench: one-core W1 iterations (50000000)\n"
            "  --clocks N   libttsim_clock() argument between polls "
            "(10000)\n"
            "  --bench      print \"metric value unit\" lines\n");
    exit(status);
}

static uint32_t number(const char *s)
{
    char *end;
    unsigned long v = strtoul(s, &end, 0);

    if (!*s || *end || !v || v > UINT32_MAX) {
        fprintf(stderr, "tt-host-run: bad number '%s'\n", s);
        usage(EXIT_FAILURE);
    }
    return v;
}

static void parse_args(int argc, char **argv, Opts *o)
{
    static const struct option lopts[] = {
        { "lib", required_argument, NULL, 'l' },
        { "unicast", no_argument, NULL, 'u' },
        { "w2", no_argument, NULL, '2' },
        { "count", required_argument, NULL, 'n' },
        { "count1", required_argument, NULL, '1' },
        { "clocks", required_argument, NULL, 'c' },
        { "bench", no_argument, NULL, 'b' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;

    while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
        switch (c) {
        case 'l':
            o->lib = optarg;
            break;
        case 'u':
            o->unicast = true;
            break;
        case '2':
            o->workload = 2;
            break;
        case 'n':
            o->count = number(optarg);
            break;
        case '1':
            o->count1 = number(optarg);
            break;
        case 'c':
            o->clocks = number(optarg);
            break;
        case 'b':
            o->bench = true;
            break;
        case 'h':
            usage(EXIT_SUCCESS);
            break;
        default:
            usage(EXIT_FAILURE);
        }
    }
    if (optind != argc - 1 || !o->lib) {
        usage(EXIT_FAILURE);
    }
    o->image = argv[optind];
    if (!o->count) {
        o->count = o->bench ? 2000000 : 100000;
    }
}

int main(int argc, char **argv)
{
    Opts o = {
        .lib = getenv("TT_LIBTTSIM"), .workload = 1,
        .count1 = 50000000, .clocks = 10000,
    };

    parse_args(argc, argv, &o);
    init_grid();
    load_image(o.image);
    if (tt_host_lib_open(&lib, o.lib, false, stderr, "tt-host-run: ")) {
        return EXIT_FAILURE;
    }
    return o.bench ? run_bench(&o) : run_tests(&o);
}
