/*
 * A BF16 matrix multiplication on every Tensix tile of an emulated
 * Blackhole, through nothing but the libttsim C ABI:
 *
 *   tt-matmul-demo [--lib PATH] [--fw IMAGE] [--size M,K,N]
 *                  [--fidelity lofi|hifi2|hifi3|hifi4] [--seed N]
 *                  [--tiles N] [--verify full|sample] [--timeout S]
 *                  [--dump FILE] [--corrupt T]
 *
 * The host writes A (M x K) and B (K x N) to GDDR as 32x32 tiles
 * interleaved across the banks, loads firmware/tensix's image into each
 * Tensix tile with a parameter block naming its share of C's tiles
 * (TTK_MM_DRAM, kernel-params.h) and releases all five cores: NCRISC
 * streams the operands in over the NOC, TRISC0-2 unpack, multiply (MVMUL,
 * FP32 Dst) and pack, BRISC writes C back.  The host then reads C from
 * GDDR and checks it twice: against tools/runtime/tt-ref.c's model of the
 * documented hardware arithmetic (bit for bit wherever the model fixes
 * the bits, within its bound elsewhere) and against an FP64 product with
 * a tolerance derived from the fidelity (tt-matmul-check.c).
 *
 * Host view as tools/tt-kernel-run.c: tt-umd's call sequence and TLB
 * windows (tools/runtime/tt-host.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tt-host.h"
#include "tt-matmul-check.h"
#include "kernel-params.h"

#define WIN                 32      /* the one TLB window this program uses */

#define SOFT_RESET_0        TT_HOST_SOFT_RESET_0
#define TRISC_RESET_PC_OVERRIDE TT_HOST_TRISC_RESET_PC_OVERRIDE
#define NCRISC_RESET_PC_OVERRIDE TT_HOST_NCRISC_RESET_PC_OVERRIDE
#define HOLD_ALL            TT_HOST_HOLD_ALL
#define RUN_ALL             0u

#define TILE_BYTES          2048u       /* a BF16 32x32 tile */
#define POISON              0xa5

/*
 * P150: the Tensix tiles of tt_host_tensix_xy(); 8 GDDR banks at
 * translated x = 17 (banks 0-3) and 18 (4-7), y = 12 + 3 * (b % 4) for
 * each bank's first port (tt-umd device/coordinates/
 * blackhole_coordinate_manager.cpp).
 */
#define MAX_TENSIX          TT_HOST_TENSIX_TILES
#define NBANKS              8

/* Where A, B and C start in every bank: 1 MiB in, 1 MiB aligned */
#define DRAM_BASE           0x100000u
#define DRAM_ALIGN          0x100000u

typedef struct Opts {
    const char *lib;
    const char *fw;
    uint32_t m, k, n;
    int fidelity;
    uint64_t seed;
    int tiles;
    bool sample;
    double timeout;
    int corrupt;        /* test hook: damage this C tile after reading */
    const char *dump;
} Opts;

typedef struct Tile {
    uint8_t x, y;
    TTKParams p;
    bool done;
} Tile;

typedef struct Demo {
    TTHostLib lib;
    Opts o;
    uint32_t mt, kt, nt;
    Tile tile[MAX_TENSIX];
    int ntiles;
    uint32_t bank_x[NBANKS], bank_y[NBANKS];
    uint32_t dram_a, dram_b, dram_c;
    uint16_t *a, *b, *c;    /* tiles, row-major by tile */
} Demo;

#define PROG                "tt-matmul-demo"
#define die(...)            tt_host_die(PROG, __VA_ARGS__)
#define xmalloc(n)          tt_host_xcalloc(PROG, n)

static uint32_t align_up(uint32_t v, uint32_t a)
{
    return (v + a - 1) & ~(a - 1);
}

/* ---------------------------------------------------- the tiles -- */

static void grid_init(Demo *d)
{
    for (int i = 0; i < MAX_TENSIX; i++) {
        unsigned x, y;

        tt_host_tensix_xy(i, &x, &y);
        d->tile[i].x = x;
        d->tile[i].y = y;
    }
    for (int b = 0; b < NBANKS; b++) {
        d->bank_x[b] = 17 + b / 4;
        d->bank_y[b] = 12 + 3 * (b % 4);
    }
}

static void reg_write(Demo *d, const Tile *t, uint32_t addr, uint32_t v)
{
    tt_host_noc_write(&d->lib, WIN, t->x, t->y, addr, &v, 4);
}

static uint32_t reg_read(Demo *d, const Tile *t, uint32_t addr)
{
    uint32_t v;

    tt_host_noc_read(&d->lib, WIN, t->x, t->y, addr, &v, 4);
    return v;
}

/*
 * Output tiles [first, first + count) of tile @i: an even split, the
 * first tiles taking one fewer where it does not divide.
 */
static void share(const Demo *d, int i, uint32_t *first, uint32_t *count)
{
    uint64_t total = (uint64_t)d->mt * d->nt;

    *first = total * i / d->ntiles;
    *count = total * (i + 1) / d->ntiles - *first;
}

/* The parameter block of tile @i, with its L1 buffers laid out */
static void tile_params(Demo *d, int i)
{
    Tile *t = &d->tile[i];
    TTKParams *p = &t->p;
    TTKMatmulShape s;
    uint64_t end;

    memset(p, 0, sizeof(*p));
    p->magic = TTK_MAGIC;
    p->run_id = 1;
    p->op = TTK_OP_MATMUL;
    p->sub_op = TTK_MM_DRAM;
    p->dst_fp32 = 1;
    p->fidelity = d->o.fidelity;
    p->fmt_a = p->fmt_b = p->unpack_out_a = p->unpack_out_b =
        TTK_FMT_FLOAT16_B;
    p->pack_src = p->fmt_out = TTK_FMT_FLOAT16_B;
    p->mt = 1;
    p->kt = d->kt;
    share(d, i, &p->out_first, &p->nt);
    p->block = 4;                   /* half of a 32-bit Dst */
    p->n_total = d->nt;
    p->nbanks = NBANKS;
    p->dram_a = d->dram_a;
    p->dram_b = d->dram_b;
    p->dram_c = d->dram_c;
    for (int b = 0; b < NBANKS; b++) {
        p->bank_xy[0][b] = p->bank_xy[1][b] = d->bank_y[b] << 6 |
                                              d->bank_x[b];
    }
    s = ttk_matmul_shape(p);
    p->addr_a = TTK_DATA_ADDR;
    p->addr_b = p->addr_a + s.rows * d->kt * TILE_BYTES;
    p->addr_c = p->addr_b + s.cols * d->kt * TILE_BYTES;
    end = (uint64_t)p->addr_c + p->nt * TILE_BYTES;
    if (end > TTK_DATA_END) {
        die("tile (%d, %d) would need %" PRIu64 " KiB of L1 for its %u "
            "output tiles (%u rows of A, %u columns of B, %u deep); it has "
            "%u KiB: use more tiles or a smaller size", t->x, t->y,
            (end - TTK_DATA_ADDR) / 1024, p->nt, s.rows, s.cols, d->kt,
            (TTK_DATA_END - TTK_DATA_ADDR) / 1024);
    }
}

/* ---------------------------------------------------- GDDR -------- */

/*
 * Matrix @m (@count tiles) to or from GDDR at @base: tile i in bank
 * i % NBANKS at base + (i / NBANKS) tiles, one transfer per bank.
 */
static void dram_xfer(Demo *d, uint16_t *m, uint32_t count, uint32_t base,
                      bool write)
{
    uint32_t per = (count + NBANKS - 1) / NBANKS;
    uint8_t *buf = xmalloc((size_t)per * TILE_BYTES);

    for (uint32_t b = 0; b < NBANKS && b < count; b++) {
        uint32_t n = (count - b + NBANKS - 1) / NBANKS;
        size_t len = (size_t)n * TILE_BYTES;

        if (write) {
            for (uint32_t j = 0; j < n; j++) {
                memcpy(buf + (size_t)j * TILE_BYTES,
                       m + (size_t)(b + j * NBANKS) * TT_REF_TILE,
                       TILE_BYTES);
            }
            tt_host_noc_write(&d->lib, WIN, d->bank_x[b], d->bank_y[b],
                              base, buf, len);
            continue;
        }
        tt_host_noc_read(&d->lib, WIN, d->bank_x[b], d->bank_y[b], base,
                         buf, len);
        for (uint32_t j = 0; j < n; j++) {
            memcpy(m + (size_t)(b + j * NBANKS) * TT_REF_TILE,
                   buf + (size_t)j * TILE_BYTES, TILE_BYTES);
        }
    }
    free(buf);
}

static uint32_t dram_span(uint32_t count)
{
    return align_up((count + NBANKS - 1) / NBANKS * TILE_BYTES, DRAM_ALIGN);
}

/* Where A, B and C go in each bank */
static void dram_layout(Demo *d)
{
    uint64_t end;

    d->dram_a = DRAM_BASE;
    d->dram_b = d->dram_a + dram_span(d->mt * d->kt);
    d->dram_c = d->dram_b + dram_span(d->kt * d->nt);
    end = (uint64_t)d->dram_c + dram_span(d->mt * d->nt);
    if (end > UINT32_MAX) {
        die("the matrices need %" PRIu64 " MiB of each GDDR bank; the "
            "firmware addresses 4 GiB", end >> 20);
    }
}

/* A and B in, C poisoned so that a tile never written cannot pass */
static void dram_load(Demo *d)
{
    uint32_t na = d->mt * d->kt, nb = d->kt * d->nt, nc = d->mt * d->nt;

    dram_xfer(d, d->a, na, d->dram_a, true);
    dram_xfer(d, d->b, nb, d->dram_b, true);
    memset(d->c, POISON, (size_t)nc * TILE_BYTES);
    dram_xfer(d, d->c, nc, d->dram_c, true);
}

/* ------------------------------------------------- the run -------- */

/* Hold every core, default reset PCs, the image at L1 0, the block */
static void tile_load(Demo *d, Tile *t, const uint8_t *fw, size_t fwn)
{
    reg_write(d, t, SOFT_RESET_0, HOLD_ALL);
    if (reg_read(d, t, SOFT_RESET_0) != HOLD_ALL) {
        die("tile (%d, %d) does not answer as a Tensix tile (SOFT_RESET_0 "
            "reads 0x%x): is the machine a P150?", t->x, t->y,
            reg_read(d, t, SOFT_RESET_0));
    }
    reg_write(d, t, TRISC_RESET_PC_OVERRIDE, 0);
    reg_write(d, t, NCRISC_RESET_PC_OVERRIDE, 0);
    tt_host_noc_write(&d->lib, WIN, t->x, t->y, 0, fw, fwn);
    tt_host_noc_write(&d->lib, WIN, t->x, t->y, TTK_PARAMS_ADDR, &t->p,
                      sizeof(t->p));
}

static bool all_done(const TTKParams *p)
{
    return p->done[0] == TTK_DONE && p->done[1] == TTK_DONE &&
           p->done[2] == TTK_DONE && p->dm_done[0] == TTK_DONE &&
           p->dm_done[1] == TTK_DONE;
}

/* One pass over the tiles still running; how many are */
static int poll_tiles(Demo *d)
{
    int busy = 0;

    for (int i = 0; i < d->ntiles; i++) {
        Tile *t = &d->tile[i];

        if (!t->done) {
            tt_host_noc_read(&d->lib, WIN, t->x, t->y, TTK_PARAMS_ADDR,
                             &t->p, sizeof(t->p));
            t->done = all_done(&t->p);
            busy += !t->done;
        }
    }
    return busy;
}

static const char *core_name[5] = {
    "BRISC", "NCRISC", "TRISC0", "TRISC1", "TRISC2",
};

/* Core @c's done, error and stage words (BRISC, NCRISC, TRISC0-2) */
static void core_words(const TTKParams *p, int c, uint32_t *done,
                       uint32_t *err, uint32_t *stage)
{
    *done = c < 2 ? p->dm_done[c] : p->done[c - 2];
    *err = c < 2 ? p->dm_error[c] : p->error[c - 2];
    *stage = c < 2 ? p->dm_stage[c] : p->stage[c - 2];
}

/* Name the tiles that are not done and where their cores are */
static void report_stuck(const Demo *d)
{
    int shown = 0, stuck = 0;

    for (int i = 0; i < d->ntiles; i++) {
        const Tile *t = &d->tile[i];

        if (t->done) {
            continue;
        }
        if (stuck++ >= 8) {
            continue;
        }
        fprintf(stderr, "  tile (%d, %d), outputs %u-%u: k steps in L1 %u, "
                "tiles packed %u;", t->x, t->y, t->p.out_first,
                t->p.out_first + t->p.nt - 1, t->p.ready, t->p.packed);
        for (int c = 0; c < 5; c++) {
            uint32_t done, err, stage;

            core_words(&t->p, c, &done, &err, &stage);
            if (done != TTK_DONE) {
                fprintf(stderr, " %s busy at stage 0x%x", core_name[c],
                        stage);
            }
        }
        fprintf(stderr, "\n");
        shown++;
    }
    if (stuck > shown) {
        fprintf(stderr, "  ... and %d more\n", stuck - shown);
    }
}

/* Release every tile, wait for all; seconds from release to the last */
static double run(Demo *d)
{
    double t0 = tt_host_now(), t1;
    int busy = d->ntiles;

    for (int i = 0; i < d->ntiles; i++) {
        reg_write(d, &d->tile[i], SOFT_RESET_0, RUN_ALL);
    }
    while (busy && tt_host_now() - t0 < d->o.timeout) {
        d->lib.clock(2000);
        busy = poll_tiles(d);
    }
    t1 = tt_host_now();
    for (int i = 0; i < d->ntiles; i++) {
        reg_write(d, &d->tile[i], SOFT_RESET_0, HOLD_ALL);
    }
    if (busy) {
        busy = poll_tiles(d);   /* where each core got to */
        fprintf(stderr, PROG ": %d of %d tiles not done after "
                "%.1f s:\n", busy, d->ntiles, d->o.timeout);
        report_stuck(d);
        exit(EXIT_FAILURE);
    }
    return t1 - t0;
}

/* Every core's error word; false (and a line each) if any is set */
static bool errors_ok(const Demo *d)
{
    bool ok = true;

    for (int i = 0; i < d->ntiles; i++) {
        for (int c = 0; c < 5; c++) {
            uint32_t done, err, stage;

            core_words(&d->tile[i].p, c, &done, &err, &stage);
            if (err) {
                fprintf(stderr, PROG ": tile (%d, %d) %s reports "
                        "error %u\n", d->tile[i].x, d->tile[i].y,
                        core_name[c], err);
                ok = false;
            }
        }
    }
    return ok;
}

/* Test hook: C tile @t gets its neighbour's data (its transpose if alone) */
static void corrupt(Demo *d, uint32_t t)
{
    uint32_t total = d->mt * d->nt;
    uint16_t *dst = d->c + (size_t)t * TT_REF_TILE;
    uint16_t tmp[TT_REF_TILE];

    memcpy(tmp, d->c + (size_t)((t + 1) % total) * TT_REF_TILE, sizeof(tmp));
    for (int r = 0; r < 32 && total == 1; r++) {
        for (int c = 0; c < 32; c++) {
            tmp[tt_ref_tile_pos(r, c)] = dst[tt_ref_tile_pos(c, r)];
        }
    }
    memcpy(dst, tmp, sizeof(tmp));
}

/* C's tiles as read, for cmp against another library's */
static void dump(const Demo *d)
{
    FILE *f = fopen(d->o.dump, "wb");
    size_t n = (size_t)d->mt * d->nt * TILE_BYTES;

    if (!f || fwrite(d->c, 1, n, f) != n || fclose(f)) {
        die("%s: %s", d->o.dump, strerror(errno));
    }
}

/* ------------------------------------------------------ verification -- */

/* full: every output tile; sample: each Tensix tile's first and last */
static uint32_t *pick_tiles(const Demo *d, uint32_t *n)
{
    uint32_t total = d->mt * d->nt, *v = xmalloc(total * sizeof(*v));

    *n = 0;
    for (int i = 0; i < d->ntiles; i++) {
        const TTKParams *p = &d->tile[i].p;

        for (uint32_t j = 0; j < p->nt; j++) {
            if (!d->o.sample || j == 0 || j == p->nt - 1) {
                v[(*n)++] = p->out_first + j;
            }
        }
    }
    return v;
}

static bool verify(Demo *d)
{
    TTMMCheck c = {
        .a = d->a, .b = d->b, .c = d->c, .mt = d->mt, .kt = d->kt,
        .nt = d->nt, .fidelity = d->o.fidelity,
    };
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t total = (uint64_t)d->mt * d->nt * TT_REF_TILE;
    bool ok;

    c.threads = cpus > 0 ? cpus : 1;
    c.tiles = pick_tiles(d, &c.ntiles);
    ok = tt_mm_check(&c);
    printf("verify:    tt-ref (documented matrix-unit and packer arithmetic)"
           " on %u of %u output tiles%s:\n"
           "           %" PRIu64 " elements, %" PRIu64 " bit-exact as the "
           "model fixes them, %" PRIu64 " where it gives a bound (max %.2f "
           "of it); %" PRIu64 " wrong (%.1f s)\n", c.ntiles, d->mt * d->nt,
           d->o.sample ? " (each Tensix tile's first and last)" : "",
           c.ref_count, c.ref_exact, c.ref_count - c.ref_exact,
           c.ref_max_ratio, c.ref_bad,
           c.ref_seconds);
    if (c.ref_bad) {
        printf("           first wrong: C[%" PRId64 "][%" PRId64 "] = 0x%04x,"
               " model 0x%04x\n", c.ref_first_bad / (d->nt * 32),
               c.ref_first_bad % (d->nt * 32), c.ref_got, c.ref_want);
    }
    printf("           FP64 product of the same BF16 inputs, all %" PRIu64
           " elements: max error %.2f BF16 ULP (tolerance there %.2f), max "
           "relative %.2g, %" PRIu64 " outside (%.1f s)\n", total,
           c.f64_max_ulp, c.f64_tol_ulp, c.f64_max_rel, c.f64_bad,
           c.f64_seconds);
    if (c.f64_bad) {
        printf("           first outside: C[%" PRId64 "][%" PRId64 "] = %.9g,"
               " exact %.9g, tolerance %.3g\n",
               c.f64_first_bad / (d->nt * 32), c.f64_first_bad % (d->nt * 32),
               c.f64_got, c.f64_want, c.f64_tol);
    }
    free((void *)c.tiles);
    return ok;
}

/* -------------------------------------------------------------- main -- */

static void usage(int status)
{
    fprintf(status ? stderr : stdout,
            "usage: tt-matmul-demo [--lib PATH] [--fw IMAGE] [--size M,K,N]"
            " [--fidelity F]\n"
            "                      [--seed N] [--tiles N] [--verify "
            "full|sample] [--timeout S]\n"
            "                      [--dump FILE] [--corrupt T]\n"
            "  --lib PATH       libttsim.so (default $TT_LIBTTSIM)\n"
            "  --fw IMAGE       tt-kernels.bin (default "
            "tensix-fw/tt-kernels.bin beside the program)\n"
            "  --size M,K,N     C = A (M x K) x B (K x N), multiples of 32 "
            "(1024,1024,1024)\n"
            "  --fidelity F     lofi, hifi2, hifi3 or hifi4 (hifi4)\n"
            "  --seed N         operand seed (1)\n"
            "  --tiles N        Tensix tiles to use, 1-140 (140)\n"
            "  --verify V       tt-ref on every output tile (full, default) "
            "or on\n"
            "                   each Tensix tile's first and last (sample);"
            " FP64 on all\n"
            "  --timeout S      seconds for the compute (600)\n"
            "  --dump FILE      C's tiles as read back, for cmp\n"
            "  --corrupt T      test hook: damage C tile T before checking\n");
    exit(status);
}

static void parse_size(Opts *o, const char *s)
{
    char junk;

    if (sscanf(s, "%" SCNu32 ",%" SCNu32 ",%" SCNu32 "%c", &o->m, &o->k,
               &o->n, &junk) != 3 || !o->m || !o->k || !o->n ||
        (o->m | o->k | o->n) % 32 || o->m > 16384 || o->k > 16384 ||
        o->n > 16384) {
        die("bad size '%s': want M,K,N, multiples of 32 up to 16384", s);
    }
}

static int parse_fidelity(const char *s)
{
    static const char *const names[5] = {
        "lofi", NULL, "hifi2", "hifi3", "hifi4",
    };

    for (int i = 0; i < 5; i++) {
        if (names[i] && !strcmp(s, names[i])) {
            return i;
        }
    }
    die("bad fidelity '%s': want lofi, hifi2, hifi3 or hifi4", s);
}

static void parse_args(int argc, char **argv, Opts *o)
{
    static const struct option lopts[] = {
        { "lib", required_argument, NULL, 'l' },
        { "fw", required_argument, NULL, 'f' },
        { "size", required_argument, NULL, 's' },
        { "fidelity", required_argument, NULL, 'F' },
        { "seed", required_argument, NULL, 'S' },
        { "tiles", required_argument, NULL, 't' },
        { "verify", required_argument, NULL, 'v' },
        { "timeout", required_argument, NULL, 'T' },
        { "corrupt", required_argument, NULL, 'C' },
        { "dump", required_argument, NULL, 'd' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    char junk;

    while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
        switch (c) {
        case 'l':
            o->lib = optarg;
            break;
        case 'f':
            o->fw = optarg;
            break;
        case 's':
            parse_size(o, optarg);
            break;
        case 'F':
            o->fidelity = parse_fidelity(optarg);
            break;
        case 'S':
            if (sscanf(optarg, "%" SCNu64 "%c", &o->seed, &junk) != 1) {
                die("bad seed '%s'", optarg);
            }
            break;
        case 't':
            if (sscanf(optarg, "%d%c", &o->tiles, &junk) != 1 ||
                o->tiles < 1 || o->tiles > MAX_TENSIX) {
                die("bad tile count '%s': want 1-%d", optarg, MAX_TENSIX);
            }
            break;
        case 'v':
            if (strcmp(optarg, "full") && strcmp(optarg, "sample")) {
                die("bad --verify '%s': want full or sample", optarg);
            }
            o->sample = !strcmp(optarg, "sample");
            break;
        case 'T':
            if (sscanf(optarg, "%lf%c", &o->timeout, &junk) != 1 ||
                !(o->timeout > 0)) {
                die("bad timeout '%s'", optarg);
            }
            break;
        case 'C':
            if (sscanf(optarg, "%d%c", &o->corrupt, &junk) != 1 ||
                o->corrupt < 0) {
                die("bad --corrupt '%s'", optarg);
            }
            break;
        case 'd':
            o->dump = optarg;
            break;
        case 'h':
            usage(EXIT_SUCCESS);
            break;
        default:
            usage(EXIT_FAILURE);
        }
    }
    if (optind != argc) {
        usage(EXIT_FAILURE);
    }
    if (!o->lib) {
        die("no library: give --lib PATH or set TT_LIBTTSIM");
    }
}

static const char *default_fw(void)
{
    static char path[PATH_MAX + 32];
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

    if (n <= 0) {
        die("cannot find this program's directory: give --fw");
    }
    self[n] = 0;
    snprintf(path, sizeof(path), "%s/tensix-fw/tt-kernels.bin",
             dirname(self));
    return path;
}

static void start(Demo *d)
{
    uint32_t id;

    if (tt_host_lib_open(&d->lib, d->o.lib, false, stderr, PROG ": ")) {
        exit(EXIT_FAILURE);
    }
    id = tt_host_start(&d->lib, tt_host_no_dma_rd, tt_host_no_dma_wr);
    if (id != TT_HOST_BH_ID || !d->lib.bar0) {
        die("%s: not a Blackhole (PCI id 0x%08x)", d->o.lib, id);
    }
}

static const char *fid_name(int f)
{
    static const char *const names[5] = {
        "LoFi", "?", "HiFi2", "HiFi3", "HiFi4",
    };

    return names[f];
}

/* What the run is, before it starts */
static void describe(const Demo *d)
{
    uint32_t total = d->mt * d->nt, lo = total / d->ntiles;

    printf("tt-matmul-demo: C = A x B, BF16, M=%u K=%u N=%u on %s\n",
           d->o.m, d->o.k, d->o.n, d->o.lib);
    printf("tiles:     %d Tensix tiles x 5 cores; %u output tiles of 32x32,"
           " %u", d->ntiles, total, lo);
    if (total % d->ntiles) {
        printf("-%u", lo + 1);
    }
    printf(" per Tensix tile; %u k steps each\n", d->kt);
    printf("data:      A and B in %d GDDR banks, tiles interleaved; NCRISC "
           "reads them over NOC0, BRISC writes C back\n", NBANKS);
    printf("math:      %s fidelity (%d MVMUL phase%s), FP32 Dst, BF16 out; "
           "operands in [1/16, 1), seed %" PRIu64 "\n",
           fid_name(d->o.fidelity), d->o.fidelity ? d->o.fidelity : 1,
           d->o.fidelity > 1 ? "s" : "", d->o.seed);
    fflush(stdout);
}

/* Sizes, operands, layouts and parameter blocks: all before the chip */
static uint8_t *prepare(Demo *d, size_t *fwn)
{
    uint8_t *fw;

    d->mt = d->o.m / 32;
    d->kt = d->o.k / 32;
    d->nt = d->o.n / 32;
    d->ntiles = d->o.tiles < (int)(d->mt * d->nt) ? d->o.tiles
                                                   : (int)(d->mt * d->nt);
    if (d->o.corrupt >= (int)(d->mt * d->nt)) {
        die("--corrupt %d: C has %u tiles", d->o.corrupt, d->mt * d->nt);
    }
    fw = tt_host_read_file(d->o.fw ? d->o.fw : default_fw(), TTK_IMAGE_MAX,
                           fwn);
    if (!fw) {
        die("%s: %s", d->o.fw ? d->o.fw : default_fw(),
            errno == EFBIG ? "larger than a kernel image" : strerror(errno));
    }
    grid_init(d);
    d->a = xmalloc((size_t)d->mt * d->kt * TILE_BYTES);
    d->b = xmalloc((size_t)d->kt * d->nt * TILE_BYTES);
    d->c = xmalloc((size_t)d->mt * d->nt * TILE_BYTES);
    tt_mm_gen(d->a, (size_t)d->mt * d->kt, d->o.seed, 0xa);
    tt_mm_gen(d->b, (size_t)d->kt * d->nt, d->o.seed, 0xb);
    dram_layout(d);
    for (int i = 0; i < d->ntiles; i++) {
        tile_params(d, i);
    }
    return fw;
}

static void print_times(const Demo *d, double t_load, double t_run)
{
    double flop = 2.0 * d->o.m * d->o.n * d->o.k;

    printf("load:      %.2f s (A, B to GDDR; image and parameters to %d "
           "tiles)\n", t_load, d->ntiles);
    printf("compute:   %.3f s from release to the last tile done\n", t_run);
    printf("speed:     %.3g TFLOP/s emulated (%.3g GFLOP/s; 2*M*N*K = %.4g "
           "FLOP)\n", flop / t_run / 1e12, flop / t_run / 1e9, flop);
}

int main(int argc, char **argv)
{
    static Demo d;
    double t_start = tt_host_now(), t_load, t_run;
    size_t fwn;
    uint8_t *fw;
    bool ok;

    d.o = (Opts){
        .lib = getenv("TT_LIBTTSIM"), .m = 1024, .k = 1024, .n = 1024,
        .fidelity = 4, .seed = 1, .tiles = MAX_TENSIX, .timeout = 600,
        .corrupt = -1,
    };
    parse_args(argc, argv, &d.o);
    fw = prepare(&d, &fwn);
    describe(&d);

    start(&d);
    t_load = tt_host_now();
    dram_load(&d);
    for (int i = 0; i < d.ntiles; i++) {
        tile_load(&d, &d.tile[i], fw, fwn);
    }
    t_load = tt_host_now() - t_load;
    t_run = run(&d);
    ok = errors_ok(&d);
    dram_xfer(&d, d.c, d.mt * d.nt, d.dram_c, false);
    d.lib.exit();
    if (d.o.dump) {
        dump(&d);
    }
    if (d.o.corrupt >= 0) {
        corrupt(&d, d.o.corrupt);
        printf("corrupt:   C tile %d replaced by a neighbour (test hook)\n",
               d.o.corrupt);
    }
    print_times(&d, t_load, t_run);
    ok = verify(&d) && ok;
    printf("total:     %.1f s\n", tt_host_now() - t_start);
    printf("%s\n", ok ? "PASS" : "FAIL");
    free(fw);
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
