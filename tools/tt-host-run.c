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
 * Host view: ../shared/specs/libttsim-abi.md 7 (call sequence) and
 * host-pcie-and-arc.md 7 (TLB windows).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libttsim/libttsim.h"
#include "tt-bench-kernels.h"

#define BH_VENDOR_DEVICE    0xb1401e52u

/* BAR0: 2 MiB windows, their 12-byte configuration registers */
#define WIN_SHIFT           21
#define WIN_SIZE            (1u << WIN_SHIFT)
#define TLB_CFG             0x1fc00000u

/*
 * Windows from 32 up, which have no strided-multicast register to clear:
 * ttsim aborts on a write to one.  One per tile, then two more.
 */
#define WIN_TILE0           32
#define WIN_MCAST           (WIN_TILE0 + NTILES)
#define WIN_UNICAST         (WIN_MCAST + 1)

/* P150 Tensix grid, translated = physical coordinates */
#define NTILES              140
#define GRID_X0             1
#define GRID_X1             16
#define GRID_Y0             2
#define GRID_Y1             11

#define SOFT_RESET_0        0xffb121b0u
#define HOLD_ALL            0x47800u    /* power-on value: all five held */
#define RELEASE_BRISC       0x47000u

#define SEED0               0x1000u
#define POLL_TIMEOUT_S      60.0

/* DRAM tile inside the multicast rectangle, which must not receive it */
#define DRAM_X              9
#define DRAM_Y              2
#define DRAM_MARK           0x5a5aa5a5u

typedef struct Lib {
    void (*init)(void);
    void (*exit)(void);
    void (*set_dma)(libttsim_dma_rd_fn rd, libttsim_dma_wr_fn wr);
    uint32_t (*cfg_rd)(uint32_t bdf, uint32_t offset);
    void (*mem_rd)(uint64_t paddr, void *dst, uint32_t size);
    void (*mem_wr)(uint64_t paddr, const void *src, uint32_t size);
    void (*tile_rd)(uint32_t x, uint32_t y, uint64_t addr, void *dst,
                    uint32_t size);
    void (*tile_wr)(uint32_t x, uint32_t y, uint64_t addr, const void *src,
                    uint32_t size);
    void (*clock)(uint32_t n);
} Lib;

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

/* A TLB target: unicast to (x1, y1), or a multicast rectangle */
typedef struct Target {
    uint8_t x0, y0, x1, y1;
    bool mcast;
} Target;

static Lib lib;
static uint64_t bar0;
static uint8_t tile_x[NTILES], tile_y[NTILES];
static uint8_t *image;
static uint32_t image_size;
static unsigned dma_calls;
static int tap_n, tap_failed;

/* ---------------------------------------------------------- utilities -- */

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool ok(bool cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool ok(bool cond, const char *fmt, ...)
{
    va_list ap;

    printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    tap_failed += !cond;
    return cond;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);

    if (!p) {
        fprintf(stderr, "tt-host-run: out of memory\n");
        exit(EXIT_FAILURE);
    }
    return p;
}

/* Column-major, as tt-metal and the machine number the tiles */
static void init_grid(void)
{
    int n = 0;

    for (int x = GRID_X0; x <= GRID_X1; x++) {
        if (x == 8 || x == 9) {         /* ARC/L2CPU and DRAM columns */
            continue;
        }
        for (int y = GRID_Y0; y <= GRID_Y1; y++) {
            tile_x[n] = x;
            tile_y[n++] = y;
        }
    }
}

static void load_image(const char *path)
{
    FILE *f = fopen(path, "rb");
    long n = f && !fseek(f, 0, SEEK_END) ? ftell(f) : -1;

    if (n <= 0 || n > TT_BENCH_PARAMS || fseek(f, 0, SEEK_SET)) {
        fprintf(stderr, "tt-host-run: %s: not a flat image below 0x%x\n",
                path, TT_BENCH_PARAMS);
        exit(EXIT_FAILURE);
    }
    image_size = n;
    image = xmalloc(n);
    if (fread(image, 1, n, f) != (size_t)n) {
        fprintf(stderr, "tt-host-run: %s: short read\n", path);
        exit(EXIT_FAILURE);
    }
    fclose(f);
}

/* ------------------------------------------------------- the library -- */

/* The program expects no device-to-host DMA; count any, to fail on it */
static void dma_rd(uint64_t paddr, void *dst, uint32_t size)
{
    dma_calls++;
    memset(dst, 0, size);
}

static void dma_wr(uint64_t paddr, const void *src, uint32_t size)
{
    dma_calls++;
}

/* All nine symbols tt-umd resolves, even the two unused on Blackhole */
static void open_lib(const char *path)
{
    static const struct {
        const char *name;
        size_t off;
    } syms[] = {
        { "libttsim_init", offsetof(Lib, init) },
        { "libttsim_exit", offsetof(Lib, exit) },
        { "libttsim_set_pci_dma_mem_callbacks", offsetof(Lib, set_dma) },
        { "libttsim_pci_config_rd32", offsetof(Lib, cfg_rd) },
        { "libttsim_pci_mem_rd_bytes", offsetof(Lib, mem_rd) },
        { "libttsim_pci_mem_wr_bytes", offsetof(Lib, mem_wr) },
        { "libttsim_tile_rd_bytes", offsetof(Lib, tile_rd) },
        { "libttsim_tile_wr_bytes", offsetof(Lib, tile_wr) },
        { "libttsim_clock", offsetof(Lib, clock) },
    };
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

    if (!h) {
        fprintf(stderr, "tt-host-run: %s\n", dlerror());
        exit(EXIT_FAILURE);
    }
    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
        void *p = dlsym(h, syms[i].name);

        if (!p) {
            fprintf(stderr, "tt-host-run: %s: no %s\n", path, syms[i].name);
            exit(EXIT_FAILURE);
        }
        /* POSIX: a function pointer travels through dlsym()'s void * */
        memcpy((char *)&lib + syms[i].off, &p, sizeof(p));
    }
}

static void wr32(uint64_t paddr, uint32_t v)
{
    lib.mem_wr(paddr, &v, 4);
}

static uint32_t rd32(uint64_t paddr)
{
    uint32_t v;

    lib.mem_rd(paddr, &v, 4);
    return v;
}

/*
 * Point 2 MiB window @n at @addr of @t (host-pcie-and-arc.md 7.2): three
 * 32-bit writes, low word first; ordering, NOC 0 and the static VC bits
 * stay 0, and a unicast target leaves start at 0, as ttsim requires.
 * Returns the BAR address of @addr.
 */
static uint64_t tlb_set(int n, const Target *t, uint64_t addr)
{
    uint64_t lo = addr >> WIN_SHIFT | (uint64_t)t->x1 << 43 |
                  (uint64_t)t->y1 << 49 | (uint64_t)t->x0 << 55 |
                  (uint64_t)t->y0 << 61;
    uint32_t hi = t->y0 >> 3 | t->mcast << 5;
    uint64_t cfg = bar0 + TLB_CFG + 12 * n;

    wr32(cfg, lo);
    wr32(cfg + 4, lo >> 32);
    wr32(cfg + 8, hi);
    return bar0 + (uint64_t)n * WIN_SIZE + (addr & (WIN_SIZE - 1));
}

static uint64_t tlb_unicast(int n, int x, int y, uint64_t addr)
{
    Target t = { .x1 = x, .y1 = y };

    return tlb_set(n, &t, addr);
}

/*
 * The whole grid in one rectangle: x 1-16 includes the ARC/L2CPU and
 * DRAM columns 8 and 9, but multicast reaches only Tensix tiles, in our
 * NIU and in ttsim (run_tests() checks a DRAM word).
 */
static uint64_t tlb_grid(uint64_t addr)
{
    Target t = { GRID_X0, GRID_Y0, GRID_X1, GRID_Y1, true };

    return tlb_set(WIN_MCAST, &t, addr);
}

/* L1 of tile @i through its own window, programmed once */
static uint64_t tile_l1(int i, uint32_t addr)
{
    return bar0 + (uint64_t)(WIN_TILE0 + i) * WIN_SIZE + addr;
}

static void map_tiles(void)
{
    for (int i = 0; i < NTILES; i++) {
        tlb_unicast(WIN_TILE0 + i, tile_x[i], tile_y[i], 0);
    }
}

static uint64_t bar_base(uint32_t reg)
{
    uint32_t lo = lib.cfg_rd(0, reg);

    return (uint64_t)lib.cfg_rd(0, reg + 4) << 32 | (lo & ~0xfu);
}

/* libttsim-abi.md 7, steps 2-5; returns the PCI id */
static uint32_t start_device(void)
{
    uint32_t id;

    lib.set_dma(dma_rd, dma_wr);
    lib.init();
    id = lib.cfg_rd(0, 0);
    bar0 = bar_base(0x10);
    return id;
}

/* ------------------------------------------------------ the workload -- */

/* SOFT_RESET_0 of every tile: one multicast write, or one per tile */
static void set_reset(uint32_t val, bool unicast)
{
    if (!unicast) {
        wr32(tlb_grid(SOFT_RESET_0), val);
        return;
    }
    for (int i = 0; i < NTILES; i++) {
        wr32(tlb_unicast(WIN_UNICAST, tile_x[i], tile_y[i], SOFT_RESET_0),
             val);
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
        lib.mem_wr(tlb_unicast(WIN_UNICAST, tile_x[i], tile_y[i], 0),
                   image, image_size);
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
    double deadline = now() + POLL_TIMEOUT_S;
    int left = n;

    while (left && now() < deadline) {
        lib.clock(clocks);
        for (int i = 0; i < n; i++) {
            if (!done[i] && rd32(tile_l1(i, TT_BENCH_PARAMS + TT_BENCH_DONE))
                            == TT_BENCH_DONE_MAGIC) {
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
        uint32_t got = rd32(tile_l1(i, TT_BENCH_PARAMS + TT_BENCH_CHECKSUM));
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
        uint64_t r = tlb_unicast(WIN_UNICAST, tile_x[i], tile_y[i],
                                 SOFT_RESET_0);

        n += rd32(r) == HOLD_ALL;
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
    return tlb_unicast(WIN_UNICAST, DRAM_X, DRAM_Y, 0);
}

static int run_tests(const Opts *o)
{
    const char *how = o->unicast ? "tile by tile" : "by multicast";
    uint32_t id = start_device();
    uint32_t dram;
    double t0;
    int left, bad;

    printf("1..8\n");
    ok(id == BH_VENDOR_DEVICE, "PCI id 1e52:b140 (read 0x%08x)", id);
    ok((lib.cfg_rd(0, 0x10) & 0x7) == 0x4 && bar0,
       "BAR0 is a 64-bit memory BAR at 0x%llx", (unsigned long long)bar0);
    map_tiles();
    set_reset(HOLD_ALL, o->unicast);
    ok(count_held() == NTILES, "every BRISC held in reset %s", how);
    wr32(dram_word(), DRAM_MARK);
    upload(o->unicast);
    ok(count_loaded() == NTILES, "%u-byte image in L1 of all %d tiles, "
       "loaded %s", image_size, NTILES, how);
    dram = rd32(dram_word());
    ok(dram == DRAM_MARK, "DRAM tile (%d, %d), inside the grid's rectangle, "
       "not written (0x%08x)", DRAM_X, DRAM_Y, dram);
    for (int i = 0; i < NTILES; i++) {
        write_params(i, o->workload, o->count);
    }
    t0 = now();
    set_reset(RELEASE_BRISC, o->unicast);
    left = wait_done(NTILES, o->clocks);
    ok(!left, "%d BRISCs released %s, all done in %.2f s (%d not)",
       NTILES, how, now() - t0, left);
    bad = left ? NTILES : check_sums(NTILES, o->workload, o->count);
    ok(!bad, "all checksums of W%u (%u iterations) match the host's (%d "
       "differ)", o->workload, o->count, bad);
    ok(!dma_calls, "no device-to-host DMA (%u callbacks)", dma_calls);
    lib.exit();
    return tap_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* -------------------------------------------------------- bench mode -- */

#define BULK_SIZE           (1u << 20)
#define BULK_ADDR           0x40000u    /* above image, stack and params */
#define LAT_READS           10001

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
    t = now();
    upload(unicast);
    t = now() - t;
    metric(unicast ? "upload_unicast" : "upload_mcast", t * 1e3, "ms");
    return count_loaded() == NTILES || bench_error("image not loaded");
}

/* BULK_SIZE into and out of every tile, a different slice of one pattern */
static bool bench_bulk(void)
{
    uint8_t *pat = xmalloc(BULK_SIZE + NTILES), *buf = xmalloc(BULK_SIZE);
    double t, rd = 0;
    int bad = 0;

    for (uint32_t i = 0; i < BULK_SIZE + NTILES; i++) {
        pat[i] = i * 7 + (i >> 11);
    }
    t = now();
    for (int i = 0; i < NTILES; i++) {
        lib.mem_wr(tile_l1(i, BULK_ADDR), pat + i, BULK_SIZE);
    }
    t = now() - t;
    for (int i = 0; i < NTILES; i++) {
        double t0 = now();

        lib.mem_rd(tile_l1(i, BULK_ADDR), buf, BULK_SIZE);
        rd += now() - t0;
        bad += !!memcmp(buf, pat + i, BULK_SIZE);
    }
    metric("bar0_write", (double)BULK_SIZE * NTILES / t / 1e6, "MB/s");
    metric("bar0_read", (double)BULK_SIZE * NTILES / rd / 1e6, "MB/s");
    free(pat);
    free(buf);
    return !bad || bench_error("bulk data read back differs");
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

static void bench_latency(void)
{
    static double t[LAT_READS];
    uint64_t a = tile_l1(0, TT_BENCH_PARAMS);

    for (int i = 0; i < LAT_READS; i++) {
        double t0 = now();

        rd32(a);
        t[i] = now() - t0;
    }
    qsort(t, LAT_READS, sizeof(t[0]), cmp_double);
    metric("bar0_rd32_latency", t[LAT_READS / 2] * 1e9, "ns");
}

/* W1 on tiles [0, @n): wall time from the release to the last done flag */
static bool bench_w1(const char *name, int n, uint32_t count,
                     uint32_t clocks)
{
    double t;
    int left;

    for (int i = 0; i < n; i++) {
        write_params(i, 1, count);
    }
    t = now();
    if (n == NTILES) {
        set_reset(RELEASE_BRISC, false);
    } else {
        for (int i = 0; i < n; i++) {
            wr32(tlb_unicast(WIN_UNICAST, tile_x[i], tile_y[i],
                             SOFT_RESET_0), RELEASE_BRISC);
        }
    }
    left = wait_done(n, clocks);
    t = now() - t;
    set_reset(HOLD_ALL, false);
    if (left || check_sums(n, 1, count)) {
        return bench_error("W1 not done or wrong checksum");
    }
    metric(name, tt_bench_w1_instr(count) * n / t / 1e6, "MIPS");
    return true;
}

static int run_bench(const Opts *o)
{
    double t = now();
    bool good;

    good = start_device() == BH_VENDOR_DEVICE || bench_error("not a BH");
    metric("init", now() - t, "s");
    map_tiles();
    set_reset(HOLD_ALL, false);
    good &= bench_upload(true);
    good &= bench_upload(false);
    good &= bench_bulk();
    bench_latency();
    good &= bench_w1("w1_1core", 1, o->count1, o->clocks);
    good &= bench_w1("w1_140cores", NTILES, o->count, o->clocks);
    good &= !dma_calls || bench_error("unexpected device-to-host DMA");
    lib.exit();
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
    open_lib(o.lib);
    return o.bench ? run_bench(&o) : run_tests(&o);
}
