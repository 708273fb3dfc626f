/*
 * Shared helpers of the libttsim test programs: load the library the way
 * tt-umd does (dlopen() by path, every symbol through dlsym()) and report
 * results as TAP.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_TEST_H
#define TT_TEST_H

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libttsim.h"

typedef struct TTSimApi {
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
    /* Not resolved by tt-umd; optional here */
    void (*cfg_wr)(uint32_t bdf, uint32_t offset, uint32_t data);
} TTSimApi;

static int tt_test_count;
static int tt_test_failures;

static inline bool tt_ok(bool cond, const char *fmt, ...)
{
    va_list ap;

    printf("%s %d - ", cond ? "ok" : "not ok", ++tt_test_count);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    tt_test_failures += !cond;
    return cond;
}

/* Print the plan and return the exit status */
static inline int tt_done(void)
{
    printf("1..%d\n", tt_test_count);
    return tt_test_failures ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* POSIX: a void * from dlsym() is converted through the pointer's bytes */
#define TT_SYM(handle, ptr, name, missing)                                   \
    do {                                                                     \
        void *sym_ = dlsym(handle, name);                                    \
        memcpy(&(ptr), &sym_, sizeof(sym_));                                 \
        if (!sym_) {                                                         \
            printf("# missing symbol %s\n", name);                           \
            (missing)++;                                                     \
        }                                                                    \
    } while (0)

/*
 * tt-umd's copy_sim_binary mode: load a sealed memfd copy through
 * /proc/self/fd, so the library cannot know its own path.
 */
static inline void *tt_dlopen_memfd(const char *path)
{
    static char proc[64];
    char buf[65536];
    FILE *in = fopen(path, "rb");
    int fd = memfd_create("libttsim-copy", MFD_ALLOW_SEALING);
    size_t n;

    if (!in || fd < 0) {
        return NULL;
    }
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
        if (write(fd, buf, n) != (ssize_t)n) {
            fclose(in);
            return NULL;
        }
    }
    fclose(in);
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE);
    snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
    printf("# loading %s as %s\n", path, proc);
    return dlopen(proc, RTLD_NOW | RTLD_LOCAL);
}

/*
 * Returns the number of the nine required symbols that are missing.
 * TT_TEST_MEMFD=1 loads a memfd copy instead of the file.
 */
static inline int tt_load(const char *path, TTSimApi *api)
{
    const char *memfd = getenv("TT_TEST_MEMFD");
    void *h = memfd && *memfd == '1' ? tt_dlopen_memfd(path) :
              dlopen(path, RTLD_NOW | RTLD_LOCAL);
    int missing = 0, ignored = 0;

    memset(api, 0, sizeof(*api));
    if (!h) {
        printf("# dlopen(%s): %s\n", path, dlerror());
        return 9;
    }
    TT_SYM(h, api->init, "libttsim_init", missing);
    TT_SYM(h, api->exit, "libttsim_exit", missing);
    TT_SYM(h, api->set_dma, "libttsim_set_pci_dma_mem_callbacks", missing);
    TT_SYM(h, api->cfg_rd, "libttsim_pci_config_rd32", missing);
    TT_SYM(h, api->mem_rd, "libttsim_pci_mem_rd_bytes", missing);
    TT_SYM(h, api->mem_wr, "libttsim_pci_mem_wr_bytes", missing);
    TT_SYM(h, api->tile_rd, "libttsim_tile_rd_bytes", missing);
    TT_SYM(h, api->tile_wr, "libttsim_tile_wr_bytes", missing);
    TT_SYM(h, api->clock, "libttsim_clock", missing);
    TT_SYM(h, api->cfg_wr, "libttsim_pci_config_wr32", ignored);
    return missing;
}

/* Run @fn in a child process; true if it died of SIGABRT */
static inline bool tt_aborts(void (*fn)(void *), void *opaque)
{
    pid_t pid;
    int status;

    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        fn(opaque);
        _exit(0);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        return false;
    }
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static inline void tt_fill(uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = seed >> 16;
    }
}

/* A TLB window's three configuration words (host-pcie-and-arc.md 7.2) */
static inline void tt_tlb_2m(const TTSimApi *api, unsigned window,
                             uint32_t x, uint32_t y, uint64_t addr)
{
    uint64_t local = addr >> 21;
    uint32_t w[3] = {
        (uint32_t)local,
        ((uint32_t)(local >> 32) & 0x7ff) | x << 11 | y << 17,
        0,
    };

    for (int i = 0; i < 3; i++) {
        api->mem_wr(LIBTTSIM_BAR0_BASE + 0x1fc00000 + window * 12 + 4 * i,
                    &w[i], 4);
    }
}

#define TT_WINDOW(n)    (LIBTTSIM_BAR0_BASE + (uint64_t)(n) * (2u << 20))

#endif
