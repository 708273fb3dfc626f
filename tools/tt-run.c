/*
 * tt-run: run a tt-metal-shaped program on an emulated Blackhole (or any
 * library with the libttsim C ABI, such as Tenstorrent's ttsim) from a
 * small description file, without tt-metal:
 *
 *   tt-run [options] PROGRAM.tt
 *
 * The tool boots worker firmware on every Tensix tile as tt-metal's host
 * does, writes the program's inputs (L1 or GDDR), launches its kernels
 * through launch messages, either through TLB windows (slow dispatch) or
 * through the fast-dispatch command queue (--fast: prefetcher and
 * dispatcher kernels fed from host memory), waits for every core, reads
 * the outputs back and compares them with the expected files.  Exit
 * status 0 when everything matches, 1 otherwise (a message says why),
 * 2 for bad usage.
 *
 * The description format, one directive per line ('#' starts a comment;
 * core coordinates are translated NOC coordinates, X,Y):
 *
 *   cores RANGE...              a group of cores: X,Y | X0,Y0-X1,Y1 | all
 *   group NAME RANGE...         the same, named (for {xy:NAME} etc.)
 *   kernel ROLE FILE|NAME       the group's kernel for brisc, ncrisc,
 *                               trisc0, trisc1 or trisc2; a NAME is
 *                               KERNELS/NAME.ROLE.elf
 *   rta ROLE EXPR...            the group's runtime arguments for ROLE
 *   cb ID pages=N page=BYTES [addr=A]   a local circular buffer
 *   sem ID [init=V]             a semaphore (16 bytes apart, per core)
 *   input NAME l1|dram ADDR file=F [page=P] [per-core] [group=G]
 *   output NAME l1|dram ADDR size=S [page=P] [expect=F] [group=G]
 *   erisc CHANNEL|link:C FILE|NAME [EXPR...]
 *                               a bare ERISC kernel on E0 of Ethernet
 *                               channel CHANNEL (physical, 0-13) or of
 *                               this chip's first link to chip C, with
 *                               arguments (tools/abi/eth-kernel.h);
 *                               a NAME is KERNELS/NAME.erisc.elf
 *   chip N                      what follows is chip N's part of a
 *                               program that spans the chips of a
 *                               multi-chip library (before any: chip 0)
 *
 * Expressions: numbers, + - * / % << >> & | ^ ( ), and {i} {n} (this
 * core's index in the program, cores), {gi} {gn} (in its group), {x}
 * {y} {xy}, {nbanks}, {addr:BUF} {size:BUF} {page:BUF}, {cb:ID},
 * {xy:G} {ncores:G} {mcast:G} (G's bounding box, multicast encoding)
 * {mcastn:G} (tiles in it, less this core); {banks} alone expands to the
 * bank count and each GDDR bank's NOC 0 xy ({banks1}: NOC 1).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tt-runtime.h"

#define PROG        "tt-run"

typedef struct Opts {
    const char *lib, *board, *layout, *fw, *kernels, *dump;
    const char *program, *stream;
    bool fast, check, bench, verbose, stats;
    uint32_t launches;
    double timeout;
    uint32_t clocks;
    TTRCqOpts cq;
} Opts;

static void usage(FILE *f)
{
    fprintf(f,
"usage: tt-run [options] PROGRAM\n"
"  --lib PATH         libttsim library (default $TT_LIBTTSIM, else\n"
"                     libttsim/libttsim.so beside tt-run)\n"
"  --board NAME       p150 (default) or p100a\n"
"  --layout NAME      firmware L1 layout: %s\n"
"                     (default tt-metal-0079e94)\n"
"  --fw DIR           worker firmware ELFs (default: the project's, built\n"
"                     beside tt-run in dispatch/LAYOUT/fw)\n"
"  --kernels DIR      where kernel NAMEs are (dispatch/LAYOUT/kernels)\n"
"  --fast             fast dispatch (command queue) instead of slow\n"
"  --launches N       launch the program N times back to back\n"
"  --timeout S        seconds to wait for the cores (default 60)\n"
"  --clocks N         libttsim_clock() per poll (default 10000)\n"
"  --dump DIR         write each output to DIR/NAME.bin\n"
"  --check            check the description only (no device)\n"
"  --bench            print 'metric value unit' lines\n"
"  -v, --verbose\n"
"fast dispatch:\n"
"  --issue-size N     host issue ring bytes (default 64 MiB)\n"
"  --completion-size N  completion ring bytes (default 32 MiB)\n"
"  --dispatch-noc N   NOC of dispatch_d and dispatch_s (default 0)\n"
"  --go-via-dispatch-s  send go signals through dispatch_s\n"
"  --no-mcast         unicast kernel configuration and go signals\n"
"  --record-size N    at most N bytes per issue record (default 128K)\n"
"  --cq-stream FILE   send FILE's prefetcher commands as they are, then a\n"
"                     host event, instead of launching: PROGRAM's groups\n"
"                     and outputs say which cores to check\n"
"  --stats            print the queue's record and wrap counts\n",
            ttr_layout_names());
}

/* <directory of this executable>/@rel, for the default paths */
static char *beside_exe(const char *rel)
{
    char exe[PATH_MAX], *buf;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

    if (n <= 0) {
        snprintf(exe, sizeof(exe), ".");
    } else {
        exe[n] = 0;
        dirname(exe);
    }
    if (asprintf(&buf, "%s/%s", exe, rel) < 0) {
        tt_host_die(PROG, "out of memory");
    }
    return buf;
}

static uint32_t parse_num(const char *opt, const char *s)
{
    unsigned long long v = 0;
    const char *end = s;
    int n = 0;

    if (*s != '-' && sscanf(s, "%lli%n", (long long *)&v, &n) == 1) {
        end = s + n;
    }
    if (*end == 'K' || *end == 'k') {
        v <<= 10;
        end++;
    } else if (*end == 'M' || *end == 'm') {
        v <<= 20;
        end++;
    }
    if (end == s || *end || v > 0xffffffffull) {
        fprintf(stderr, "%s: %s: '%s' is not a number\n", PROG, opt, s);
        exit(2);
    }
    return v;
}

static void parse_opts(int argc, char **argv, Opts *o)
{
    enum { O_LIB = 256, O_BOARD, O_LAYOUT, O_FW, O_KERNELS, O_FAST,
           O_LAUNCHES, O_TIMEOUT, O_CLOCKS, O_DUMP, O_CHECK, O_BENCH,
           O_ISSUE, O_COMPL, O_DNOC, O_GOS, O_NOMCAST, O_RECORD, O_STREAM,
           O_STATS, O_HELP };
    static const struct option lo[] = {
        { "lib", 1, NULL, O_LIB }, { "board", 1, NULL, O_BOARD },
        { "layout", 1, NULL, O_LAYOUT }, { "fw", 1, NULL, O_FW },
        { "kernels", 1, NULL, O_KERNELS }, { "fast", 0, NULL, O_FAST },
        { "launches", 1, NULL, O_LAUNCHES },
        { "timeout", 1, NULL, O_TIMEOUT }, { "clocks", 1, NULL, O_CLOCKS },
        { "dump", 1, NULL, O_DUMP }, { "check", 0, NULL, O_CHECK },
        { "bench", 0, NULL, O_BENCH }, { "issue-size", 1, NULL, O_ISSUE },
        { "completion-size", 1, NULL, O_COMPL },
        { "dispatch-noc", 1, NULL, O_DNOC },
        { "go-via-dispatch-s", 0, NULL, O_GOS },
        { "no-mcast", 0, NULL, O_NOMCAST }, { "verbose", 0, NULL, 'v' },
        { "record-size", 1, NULL, O_RECORD },
        { "cq-stream", 1, NULL, O_STREAM }, { "stats", 0, NULL, O_STATS },
        { "help", 0, NULL, O_HELP }, { NULL },
    };
    int c;

    o->lib = getenv("TT_LIBTTSIM");
    o->board = "p150";
    o->layout = "tt-metal-0079e94";
    o->launches = 1;
    o->timeout = 60;
    o->clocks = 10000;
    o->cq.issue_size = 64u << 20;
    o->cq.completion_size = 32u << 20;
    while ((c = getopt_long(argc, argv, "v", lo, NULL)) != -1) {
        switch (c) {
        case O_LIB:
            o->lib = optarg;
            break;
        case O_BOARD:
            o->board = optarg;
            break;
        case O_LAYOUT:
            o->layout = optarg;
            break;
        case O_FW:
            o->fw = optarg;
            break;
        case O_KERNELS:
            o->kernels = optarg;
            break;
        case O_FAST:
            o->fast = true;
            break;
        case O_LAUNCHES:
            o->launches = parse_num("--launches", optarg);
            break;
        case O_TIMEOUT:
            o->timeout = atof(optarg);
            break;
        case O_CLOCKS:
            o->clocks = parse_num("--clocks", optarg);
            break;
        case O_DUMP:
            o->dump = optarg;
            break;
        case O_CHECK:
            o->check = true;
            break;
        case O_BENCH:
            o->bench = true;
            break;
        case O_ISSUE:
            o->cq.issue_size = parse_num("--issue-size", optarg);
            break;
        case O_COMPL:
            o->cq.completion_size = parse_num("--completion-size", optarg);
            break;
        case O_DNOC:
            o->cq.dispatch_noc = parse_num("--dispatch-noc", optarg);
            break;
        case O_GOS:
            o->cq.go_via_dispatch_s = true;
            break;
        case O_NOMCAST:
            o->cq.no_mcast = true;
            break;
        case O_RECORD:
            o->cq.record_max = parse_num("--record-size", optarg);
            break;
        case O_STREAM:
            o->stream = optarg;
            break;
        case O_STATS:
            o->stats = true;
            break;
        case 'v':
            o->verbose = true;
            break;
        case O_HELP:
            usage(stdout);
            exit(0);
        default:
            usage(stderr);
            exit(2);
        }
    }
    if (optind != argc - 1) {
        usage(stderr);
        exit(2);
    }
    o->program = argv[optind];
    if (o->cq.dispatch_noc > 1) {
        fprintf(stderr, "%s: --dispatch-noc is 0 or 1\n", PROG);
        exit(2);
    }
    if (o->cq.record_max && (o->cq.record_max < 64 ||
                             o->cq.record_max % 64)) {
        fprintf(stderr, "%s: --record-size is a multiple of 64\n", PROG);
        exit(2);
    }
    if (o->stream && !o->fast) {
        fprintf(stderr, "%s: --cq-stream needs --fast\n", PROG);
        exit(2);
    }
    if (!o->launches || o->timeout <= 0) {
        fprintf(stderr, "%s: --launches and --timeout must be positive\n",
                PROG);
        exit(2);
    }
}

static void metric(const char *name, double v, const char *unit)
{
    printf("%s %.6g %s\n", name, v, unit);
    fflush(stdout);
}

/* every chip's part of o->program, checked and laid out: the count */
static int load_programs(const Opts *o, const TTRBoard *b,
                         const TTRLayout *l, const bool *reserved,
                         TTRProgram **out)
{
    TTRProgram *p = tt_host_xcalloc(PROG, TTR_MAX_CHIPS * sizeof(*p));
    char err[1024];
    int n = 1;

    for (int c = 0; c < n; c++) {
        if (!ttr_prog_parse_chip(&p[c], o->program, o->kernels, b, c, err,
                                 sizeof(err))) {
            fprintf(stderr, "%s: %s\n", PROG, err);
            exit(1);
        }
        if (!c) {
            n = 32 - __builtin_clz(p[0].chips);
        }
        if (n > 1 && o->fast) {
            fprintf(stderr, "%s: --fast drives one chip; %s spans %d\n",
                    PROG, o->program, n);
            exit(2);
        }
        p[c].data_only = o->stream != NULL;
        if (!ttr_prog_layout(&p[c], b, l, reserved, err, sizeof(err))) {
            if (n > 1) {
                fprintf(stderr, "%s: chip %d: %s\n", PROG, c, err);
            } else {
                fprintf(stderr, "%s: %s\n", PROG, err);
            }
            exit(1);
        }
    }
    *out = p;
    return n;
}

int main(int argc, char **argv)
{
    Opts o = { 0 };
    TTRProgram *p;
    TTRDevice *d = tt_host_xcalloc(PROG, TTR_MAX_CHIPS * sizeof(*d));
    const TTRBoard *b;
    const TTRLayout *l;
    bool reserved[TTR_MAX_TILES] = { false };
    char err[1024], *rel;
    uint8_t *stream = NULL;
    size_t stream_len = 0;
    double t0, t_first = 0;
    int bad = 0, nchips, ncores = 0, opened = 0;
    bool defaults = false, spans;

    parse_opts(argc, argv, &o);
    b = ttr_board_find(o.board);
    l = ttr_layout_find(o.layout);
    if (!b || !l) {
        fprintf(stderr, "%s: unknown %s '%s' (%s)\n", PROG,
                b ? "layout" : "board", b ? o.layout : o.board,
                b ? ttr_layout_names() : "p150, p100a");
        return 2;
    }
    if (!o.kernels) {
        if (asprintf(&rel, "dispatch/%s/kernels", l->name) < 0) {
            return 1;
        }
        o.kernels = beside_exe(rel);
        defaults = true;
    }
    if (!o.fw) {
        if (asprintf(&rel, "dispatch/%s/fw", l->name) < 0) {
            return 1;
        }
        o.fw = beside_exe(rel);
        defaults = true;
    }
    /* the project's firmware and kernels are built by make, not make demo */
    if (defaults && (access(o.kernels, F_OK) || access(o.fw, F_OK))) {
        fprintf(stderr, "%s: %s or %s is not built: run 'make' (or 'make "
                "dispatch') first, or name others with --kernels and --fw\n",
                PROG, o.kernels, o.fw);
        return 1;
    }
    if (!o.lib) {
        o.lib = beside_exe("libttsim/libttsim.so");
    }
    o.cq.kdir = o.kernels;
    if (o.fast) {
        ttr_cq_reserved(b, reserved);
    }
    /* the whole description is checked before the device starts */
    nchips = load_programs(&o, b, l, reserved, &p);
    spans = nchips > 1 || p[0].neth;
    for (int c = 0; c < nchips; c++) {
        ncores += p[c].ncores;
    }
    if (o.stream) {
        stream = tt_host_read_file(o.stream, 1u << 28, &stream_len);
        if (!stream) {
            fprintf(stderr, "%s: %s: %s\n", PROG, o.stream, strerror(errno));
            return 1;
        }
    }
    if (o.verbose || o.check) {
        for (int c = 0; c < nchips; c++) {
            if (nchips > 1) {
                printf("chip %d: ", c);
            }
            printf("%s: %d cores in %d groups, kernel configuration %u "
                   "bytes at 0x%x", o.program, p[c].ncores, p[c].ngroups,
                   p[c].ngroups ? p[c].group[0].image_size : 0, l->kcb_base);
            if (p[c].neth) {
                printf(", %d ERISC kernels", p[c].neth);
            }
            printf("\n");
        }
    }
    if (o.check) {
        goto out;
    }
    d[0].timeout = o.timeout;
    d[0].clocks = o.clocks;
    d[0].verbose = o.verbose;
    t0 = tt_host_now();
    if (!ttr_open(&d[0], o.lib, b, l, err, sizeof(err))) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    for (opened = 1; opened < nchips; opened++) {
        if (!ttr_open_chip(&d[opened], &d[0], opened, err, sizeof(err))) {
            goto fail;
        }
    }
    if (o.bench) {
        metric("init", (tt_host_now() - t0) * 1e3, "ms");
    }
    t0 = tt_host_now();
    for (int c = 0; c < nchips; c++) {
        /* a chip whose part runs only ERISC kernels needs no workers */
        if ((p[c].ngroups || !spans) && !ttr_boot(&d[c], o.fw, err,
                                                  sizeof(err))) {
            goto fail;
        }
    }
    if (o.bench) {
        metric("boot", (tt_host_now() - t0) * 1e3, "ms");
    }
    if (spans) {
        ttr_eth_links(d, nchips);
    }
    if (o.fast && !ttr_cq_start(&d[0], &o.cq, err, sizeof(err))) {
        goto fail;
    }
    for (int c = 0; c < nchips; c++) {
        if (!ttr_write_inputs(&d[c], &p[c], err, sizeof(err))) {
            goto fail;
        }
    }
    t0 = tt_host_now();
    if (stream) {
        o.launches = 1;
        if (!ttr_cq_run_stream(&d[0], stream, stream_len, err,
                               sizeof(err))) {
            goto fail;
        }
    }
    for (uint32_t n = 0; n < o.launches && !stream; n++) {
        bool ok = spans ? ttr_run_chips(d, p, nchips, err, sizeof(err))
                  : o.fast ? ttr_run_fast(&d[0], &p[0], err, sizeof(err))
                  : ttr_run_slow(&d[0], &p[0], err, sizeof(err));

        if (!ok) {
            if (o.launches > 1) {
                fprintf(stderr, "%s: launch %u of %u failed\n", PROG, n + 1,
                        o.launches);
            }
            goto fail;
        }
        if (!n) {
            t_first = tt_host_now() - t0;
        }
    }
    t0 = tt_host_now() - t0;
    if (o.fast && o.stats) {
        uint64_t rec, bytes, compl;
        uint32_t iw, qw, cw;

        ttr_cq_stats(&d[0], &rec, &bytes, &compl, &iw, &qw, &cw);
        printf("%s: %" PRIu64 " records, %" PRIu64 " bytes, %" PRIu64
               " completions; issue ring wrapped %u times, prefetch_q %u, "
               "completion ring %u\n", PROG, rec, bytes, compl, iw, qw, cw);
    }
    if (o.fast && !ttr_cq_stop(&d[0], err, sizeof(err))) {
        goto fail;
    }
    for (int c = 0; c < nchips; c++) {
        bad += ttr_check_outputs(&d[c], &p[c], o.dump, stderr);
    }
    if (o.bench && stream) {
        metric("stream", t0 * 1e3, "ms");
    } else if (o.bench) {
        metric("launch_first", t_first * 1e6, "us");
        metric("launch_mean", t0 / o.launches * 1e6, "us");
        metric("launches_per_s", o.launches / t0, "1/s");
    } else if (stream) {
        printf("%s: command stream %s (%zu bytes) in %.3f s: %s\n",
               o.program, o.stream, stream_len, t0, bad ? "FAIL" : "PASS");
    } else {
        printf("%s: %d cores", o.program, ncores);
        if (spans) {
            int neth = 0;

            for (int c = 0; c < nchips; c++) {
                neth += p[c].neth;
            }
            printf(" and %d ERISC%s on %d chip%s", neth,
                   neth == 1 ? "" : "s", nchips, nchips == 1 ? "" : "s");
        }
        printf(", %s dispatch, %u launch%s in %.3f s: %s\n",
               o.fast ? "fast" : "slow", o.launches,
               o.launches == 1 ? "" : "es", t0, bad ? "FAIL" : "PASS");
    }
    goto out;

fail:
    fprintf(stderr, "%s: %s\n", PROG, err);
    bad = 1;
out:
    /* chip 0 last: closing it ends the library */
    for (int c = opened - 1; c >= 0; c--) {
        ttr_close(&d[c]);
    }
    for (int c = 0; c < nchips; c++) {
        ttr_prog_free(&p[c]);
    }
    free(p);
    free(d);
    free(stream);
    return bad ? 1 : 0;
}
