/*
 * The libttsim host side shared by tt-host-run, tt-kernel-run and the
 * tests of tools/libttsim: see tt-host.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tt-host.h"

/* Every libttsim_* function of the ABI (ttsim docs/libttsim_api.md) */
static const struct {
    const char *name;
    size_t offset;
    bool optional;
} tt_host_syms[] = {
    { "libttsim_init", offsetof(TTHostLib, init) },
    { "libttsim_exit", offsetof(TTHostLib, exit) },
    { "libttsim_set_pci_dma_mem_callbacks", offsetof(TTHostLib, set_dma) },
    { "libttsim_pci_config_rd32", offsetof(TTHostLib, cfg_rd) },
    { "libttsim_pci_mem_rd_bytes", offsetof(TTHostLib, mem_rd) },
    { "libttsim_pci_mem_wr_bytes", offsetof(TTHostLib, mem_wr) },
    { "libttsim_tile_rd_bytes", offsetof(TTHostLib, tile_rd) },
    { "libttsim_tile_wr_bytes", offsetof(TTHostLib, tile_wr) },
    { "libttsim_clock", offsetof(TTHostLib, clock) },
    { "libttsim_pci_config_wr32", offsetof(TTHostLib, cfg_wr), true },
};

static unsigned tt_host_dma_count;
static int tt_tap_count, tt_tap_failed;

static void tt_host_report(FILE *log, const char *prefix, const char *fmt,
                           ...) __attribute__((format(printf, 3, 4)));

static void tt_host_report(FILE *log, const char *prefix, const char *fmt,
                           ...)
{
    va_list ap;

    fputs(prefix, log);
    va_start(ap, fmt);
    vfprintf(log, fmt, ap);
    va_end(ap);
    fputc('\n', log);
    fflush(log);
}

/*
 * A sealed memfd copy of @path; its /proc/self/fd name in @buf.  The
 * descriptor stays open: dlopen() needs the name, the library the pages.
 */
static bool tt_host_copy(const char *path, char *buf, size_t len)
{
    char data[65536];
    FILE *in = fopen(path, "rb");
    int fd = memfd_create("libttsim-copy", MFD_ALLOW_SEALING);
    size_t n;

    if (!in || fd < 0) {
        goto fail;
    }
    while ((n = fread(data, 1, sizeof(data), in)) > 0) {
        if (write(fd, data, n) != (ssize_t)n) {
            goto fail;
        }
    }
    fclose(in);
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE);
    snprintf(buf, len, "/proc/self/fd/%d", fd);
    return true;

fail:
    if (in) {
        fclose(in);
    }
    if (fd >= 0) {
        close(fd);
    }
    return false;
}

int tt_host_lib_open(TTHostLib *lib, const char *path, bool copy,
                     FILE *log, const char *prefix)
{
    char proc[64];
    int missing = 0;

    memset(lib, 0, sizeof(*lib));
    lib->path = path;
    lib->bar0 = LIBTTSIM_BAR0_BASE;
    if (copy && !tt_host_copy(path, proc, sizeof(proc))) {
        tt_host_report(log, prefix, "%s: cannot copy: %s", path,
                       strerror(errno));
        return -1;
    }
    lib->handle = dlopen(copy ? proc : path, RTLD_NOW | RTLD_LOCAL);
    if (!lib->handle) {
        tt_host_report(log, prefix, "%s", dlerror());
        return -1;
    }
    for (size_t i = 0; i < sizeof(tt_host_syms) / sizeof(tt_host_syms[0]);
         i++) {
        void *p = dlsym(lib->handle, tt_host_syms[i].name);

        if (!p && !tt_host_syms[i].optional) {
            tt_host_report(log, prefix, "%s: no %s", path,
                           tt_host_syms[i].name);
            missing++;
        }
        /* POSIX: a function pointer travels through dlsym()'s void * */
        memcpy((char *)lib + tt_host_syms[i].offset, &p, sizeof(p));
    }
    return missing;
}

uint64_t tt_host_bar_base(const TTHostLib *lib, uint32_t reg)
{
    uint64_t lo = lib->cfg_rd(lib->bdf, reg);
    uint64_t hi = lib->cfg_rd(lib->bdf, reg + 4);

    return (hi << 32 | lo) & ~0xfull;
}

uint32_t tt_host_start(TTHostLib *lib, libttsim_dma_rd_fn rd,
                       libttsim_dma_wr_fn wr)
{
    uint32_t id;

    lib->set_dma(rd, wr);
    lib->init();
    id = lib->cfg_rd(0, 0);
    lib->bar0 = tt_host_bar_base(lib, 0x10);
    return id;
}

void tt_host_no_dma_rd(uint64_t paddr, void *dst, uint32_t size)
{
    tt_host_dma_count++;
    memset(dst, 0, size);
}

void tt_host_no_dma_wr(uint64_t paddr, const void *src, uint32_t size)
{
    tt_host_dma_count++;
}

unsigned tt_host_dma_calls(void)
{
    return tt_host_dma_count;
}

void tt_host_wr32(const TTHostLib *lib, uint64_t paddr, uint32_t v)
{
    lib->mem_wr(paddr, &v, 4);
}

uint32_t tt_host_rd32(const TTHostLib *lib, uint64_t paddr)
{
    uint32_t v;

    lib->mem_rd(paddr, &v, 4);
    return v;
}

/*
 * Three 32-bit writes, low word first, as tt-umd makes them: address >>
 * 21 at bit 0, x_end at 43, y_end at 49, x_start at 55, y_start at 61,
 * multicast at 69; ordering, NOC 0 and the static VC bits stay 0, and a
 * unicast target leaves start at 0, as ttsim requires.
 */
uint64_t tt_host_tlb_set(const TTHostLib *lib, unsigned n,
                         const TTHostTarget *t, uint64_t addr)
{
    uint64_t lo = addr >> TT_HOST_WIN_SHIFT | (uint64_t)t->x1 << 43 |
                  (uint64_t)t->y1 << 49 | (uint64_t)t->x0 << 55 |
                  (uint64_t)t->y0 << 61;
    uint32_t hi = t->y0 >> 3 | (t->noc & 1) << 3 | t->mcast << 5;
    uint64_t cfg = lib->bar0 + TT_HOST_TLB_CFG + TT_HOST_TLB_CFG_STRIDE * n;

    tt_host_wr32(lib, cfg, lo);
    tt_host_wr32(lib, cfg + 4, lo >> 32);
    tt_host_wr32(lib, cfg + 8, hi);
    return tt_host_win(lib, n, addr);
}

uint64_t tt_host_tlb_unicast(const TTHostLib *lib, unsigned n, unsigned x,
                             unsigned y, uint64_t addr)
{
    TTHostTarget t = { .x1 = x, .y1 = y };

    return tt_host_tlb_set(lib, n, &t, addr);
}

uint64_t tt_host_win(const TTHostLib *lib, unsigned n, uint64_t addr)
{
    return lib->bar0 + (uint64_t)n * TT_HOST_WIN_SIZE +
           (addr & (TT_HOST_WIN_SIZE - 1));
}

void tt_host_tensix_xy(unsigned i, unsigned *x, unsigned *y)
{
    unsigned rows = TT_HOST_GRID_Y1 - TT_HOST_GRID_Y0 + 1;
    unsigned col = i / rows;

    *x = TT_HOST_GRID_X0 + col + (col >= 8 - TT_HOST_GRID_X0 ? 2 : 0);
    *y = TT_HOST_GRID_Y0 + i % rows;
}

uint64_t tt_host_tlb_grid(const TTHostLib *lib, unsigned n, uint64_t addr)
{
    TTHostTarget t = { TT_HOST_GRID_X0, TT_HOST_GRID_Y0, TT_HOST_GRID_X1,
                       TT_HOST_GRID_Y1, true };

    return tt_host_tlb_set(lib, n, &t, addr);
}

/*
 * [@addr, @addr + @len) of tile (@x, @y) through window @n, re-pointed
 * for each 2 MiB piece
 */
static void tt_host_noc_xfer(const TTHostLib *lib, unsigned n, unsigned x,
                             unsigned y, uint64_t addr, uint8_t *buf,
                             size_t len, bool write)
{
    while (len) {
        size_t room = TT_HOST_WIN_SIZE - (addr & (TT_HOST_WIN_SIZE - 1));
        size_t k = len < room ? len : room;
        uint64_t bar = tt_host_tlb_unicast(lib, n, x, y, addr);

        if (write) {
            lib->mem_wr(bar, buf, k);
        } else {
            lib->mem_rd(bar, buf, k);
        }
        buf += k;
        addr += k;
        len -= k;
    }
}

void tt_host_noc_write(const TTHostLib *lib, unsigned n, unsigned x,
                       unsigned y, uint64_t addr, const void *buf,
                       size_t len)
{
    /* not written through: only mem_wr() sees the buffer */
    tt_host_noc_xfer(lib, n, x, y, addr, (uint8_t *)buf, len, true);
}

void tt_host_noc_read(const TTHostLib *lib, unsigned n, unsigned x,
                      unsigned y, uint64_t addr, void *buf, size_t len)
{
    tt_host_noc_xfer(lib, n, x, y, addr, buf, len, false);
}

uint8_t *tt_host_read_file(const char *path, size_t max, size_t *n)
{
    FILE *f = fopen(path, "rb");
    long size = f && !fseek(f, 0, SEEK_END) ? ftell(f) : -1;
    uint8_t *p = NULL;
    int err = EINVAL;

    if (!f) {
        return NULL;
    }
    if (size > 0 && (size_t)size > max) {
        err = EFBIG;
    } else if (size > 0 && !fseek(f, 0, SEEK_SET)) {
        p = malloc(size);
        err = p ? EIO : ENOMEM;
        if (p && fread(p, 1, size, f) != (size_t)size) {
            free(p);
            p = NULL;
        }
    }
    fclose(f);
    if (!p) {
        errno = err;
        return NULL;
    }
    *n = size;
    return p;
}

bool tt_host_is_ttsim(const char *path)
{
    static const char mark[] = "UnimplementedFunctionality";
    const char *env = getenv("TTSIM_LIB");
    char ra[PATH_MAX], rb[PATH_MAX];
    size_t n;
    uint8_t *p;
    bool found;

    if (env && *env && realpath(env, ra) && realpath(path, rb) &&
        !strcmp(ra, rb)) {
        return true;
    }
    p = tt_host_read_file(path, 1u << 30, &n);
    found = p && memmem(p, n, mark, sizeof(mark) - 1);
    free(p);
    return found;
}

void tt_host_die(const char *prog, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    exit(EXIT_FAILURE);
}

void *tt_host_xcalloc(const char *prog, size_t n)
{
    void *p = calloc(1, n);

    if (!p) {
        tt_host_die(prog, "out of memory (%zu bytes)", n);
    }
    return p;
}

double tt_host_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

double tt_host_median(double *v, int n)
{
    qsort(v, n, sizeof(v[0]), cmp_double);
    return v[n / 2];
}

bool tt_ok(bool cond, const char *fmt, ...)
{
    va_list ap;

    printf("%s %d - ", cond ? "ok" : "not ok", ++tt_tap_count);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    tt_tap_failed += !cond;
    return cond;
}

void tt_skip(const char *why, const char *fmt, ...)
{
    va_list ap;

    printf("ok %d - ", ++tt_tap_count);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf(" # SKIP %s\n", why);
    fflush(stdout);
}

void tt_diag(const char *fmt, ...)
{
    va_list ap;

    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

int tt_status(void)
{
    return tt_tap_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int tt_done(void)
{
    printf("1..%d\n", tt_tap_count);
    return tt_status();
}
