/*
 * What every host program and test of the libttsim C ABI shares: the
 * library loaded the way tt-umd loads it (dlopen() by path, every
 * libttsim_* function through dlsym()), the start-up call sequence, BAR0
 * reads and writes, the 2 MiB TLB windows, and TAP output.
 *
 * Host view: ttsim docs/libttsim_api.md (symbols, call sequence); tt-umd
 * device/tt_device/tt_sim_tt_device.cpp and
 * device/pcie/tt_sim_tlb_handle.cpp.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_HOST_H
#define TT_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../libttsim/libttsim.h"
#include "tt-pcie-host.h"       /* generated from data/pcie-host.yaml */
#include "tt-tile-map.h"        /* generated from the tile map */
#define TT_PLAIN_REGS "riscv-debug-regmap.h"
#include "../../include/hw/tenstorrent/plain-regfields.h"

/*
 * A Tensix tile's reset and debug registers where a NOC access (a TLB
 * window) reaches them: the tile map's blocks plus the model's offsets
 */
#define TT_HOST_SOFT_RESET_0    (TT_TILE_DEBUG_REGS_BASE + A_SOFT_RESET_0)
#define TT_HOST_TRISC_RESET_PC(n) \
    (TT_TILE_DEBUG_REGS_BASE + A_TRISC0_RESET_PC + 4 * (n))
#define TT_HOST_TRISC_RESET_PC_OVERRIDE \
    (TT_TILE_DEBUG_REGS_BASE + A_TRISC_RESET_PC_OVERRIDE)
#define TT_HOST_NCRISC_RESET_PC (TT_TILE_DEBUG_REGS_BASE + A_NCRISC_RESET_PC)
#define TT_HOST_NCRISC_RESET_PC_OVERRIDE \
    (TT_TILE_DEBUG_REGS_BASE + A_NCRISC_RESET_PC_OVERRIDE)
#define TT_HOST_PC_READBACK(role) \
    (TT_TILE_PIC_BASE + A_PC_READBACK_BRISC + 4 * (role))
/* SOFT_RESET_0 values: all five cores held (power-on); all but BRISC */
#define TT_HOST_HOLD_ALL        TT_SOFT_RESET_POWER_ON
#define TT_HOST_RELEASE_BRISC \
    (TT_SOFT_RESET_POWER_ON & ~(uint32_t)R_SOFT_RESET_0_BRISC_MASK)
#define TT_HOST_RELEASE_TRISCS \
    (TT_SOFT_RESET_POWER_ON & ~(uint32_t)R_SOFT_RESET_0_TRISCS_MASK)

/* PCI function 1e52:b140, as config space dword 0 reads it */
#define TT_HOST_BH_ID           0xb1401e52u

/* BAR0: 2 MiB windows, their 12-byte configuration registers */
#define TT_HOST_WIN_SHIFT       TT_TLB_2M_SHIFT
#define TT_HOST_WIN_SIZE        (1u << TT_HOST_WIN_SHIFT)
#define TT_HOST_TLB_CFG         TT_TLB_CFG_BASE
#define TT_HOST_TLB_CFG_STRIDE  TT_TLB_CFG_STRIDE

/* One loaded libttsim library */
typedef struct TTHostLib {
    const char *path;
    void *handle;
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
    /* Not resolved by tt-umd: NULL when the library lacks it */
    void (*cfg_wr)(uint32_t bdf, uint32_t offset, uint32_t data);
    /*
     * BAR0's base: ttsim's fixed LIBTTSIM_BAR0_BASE until tt_host_start()
     * reads it from configuration space
     */
    uint64_t bar0;
    /*
     * The PCI function this view of the library talks to: 0 for the
     * first chip, device d (d << 3) for chip d of a multi-chip library
     */
    uint32_t bdf;
} TTHostLib;

/*
 * dlopen() @path and resolve the nine libttsim_* functions tt-umd
 * resolves, and libttsim_pci_config_wr32 if present, into @lib.  With
 * @copy, the library is loaded from a sealed anonymous copy, as
 * tt-umd's copy_sim_binary does: a second copy of the same library then
 * keeps its own state, and the library cannot know its own path.  Each
 * problem is printed to @log as one line starting with @prefix, naming
 * the library and the missing symbol.  Returns the number of required
 * functions missing (0: all there), or -1 if the library cannot be
 * loaded at all.
 */
int tt_host_lib_open(TTHostLib *lib, const char *path, bool copy,
                     FILE *log, const char *prefix);

/*
 * Start-up as tt-umd's tt_sim_tt_device.cpp does it: the DMA callbacks @rd
 * and @wr, init, the PCI id (returned) and BAR0's base (into lib->bar0).
 */
uint32_t tt_host_start(TTHostLib *lib, libttsim_dma_rd_fn rd,
                       libttsim_dma_wr_fn wr);

/*
 * The base of the 64-bit memory BAR at configuration offset @reg of
 * lib->bdf
 */
uint64_t tt_host_bar_base(const TTHostLib *lib, uint32_t reg);

/*
 * DMA callbacks for programs that expect no device-to-host DMA: reads
 * return zeros; tt_host_dma_calls() counts both, to fail on them.
 */
void tt_host_no_dma_rd(uint64_t paddr, void *dst, uint32_t size);
void tt_host_no_dma_wr(uint64_t paddr, const void *src, uint32_t size);
unsigned tt_host_dma_calls(void);

void tt_host_wr32(const TTHostLib *lib, uint64_t paddr, uint32_t v);
uint32_t tt_host_rd32(const TTHostLib *lib, uint64_t paddr);

/* A TLB target: unicast to (x1, y1), or the rectangle by multicast */
typedef struct TTHostTarget {
    uint8_t x0, y0, x1, y1;
    bool mcast;
    uint8_t noc;                /* the NOC the window's requests take */
} TTHostTarget;

/*
 * Point 2 MiB window @n at @addr of @t (register layout: tt-umd
 * blackhole_implementation.hpp, TLB_2M_OFFSET).
 * Returns the BAR address of @addr.
 */
uint64_t tt_host_tlb_set(const TTHostLib *lib, unsigned n,
                         const TTHostTarget *t, uint64_t addr);

/* The same, unicast to tile (@x, @y) */
uint64_t tt_host_tlb_unicast(const TTHostLib *lib, unsigned n, unsigned x,
                             unsigned y, uint64_t addr);

/* The BAR address of @addr through window @n, as last programmed */
uint64_t tt_host_win(const TTHostLib *lib, unsigned n, uint64_t addr);

/*
 * The P150's Tensix tiles in column-major order, as tt-metal and the
 * machine number them: columns 1-7 and 10-16 (8 and 9 hold ARC, L2CPU,
 * PCIe and DRAM), rows 2-11; translated coordinates are the physical
 * ones on an unharvested chip (tt-umd blackhole_implementation.hpp,
 * tests/soc_descs/blackhole_140_arch.yaml).
 */
#define TT_HOST_TENSIX_TILES    140
#define TT_HOST_GRID_X0         1
#define TT_HOST_GRID_X1         16
#define TT_HOST_GRID_Y0         2
#define TT_HOST_GRID_Y1         11

/* NOC0 coordinates of Tensix tile @i, 0 <= @i < TT_HOST_TENSIX_TILES */
void tt_host_tensix_xy(unsigned i, unsigned *x, unsigned *y);

/*
 * Point window @n at @addr of every Tensix tile by multicast: the
 * rectangle takes in columns 8 and 9, but multicast reaches only Tensix
 * tiles (in our NIU and in ttsim).
 */
uint64_t tt_host_tlb_grid(const TTHostLib *lib, unsigned n, uint64_t addr);

/*
 * @len bytes at @addr of tile (@x, @y), unicast through 2 MiB window @n,
 * which is re-pointed wherever the transfer crosses into the next 2 MiB.
 */
void tt_host_noc_write(const TTHostLib *lib, unsigned n, unsigned x,
                       unsigned y, uint64_t addr, const void *buf,
                       size_t len);
void tt_host_noc_read(const TTHostLib *lib, unsigned n, unsigned x,
                      unsigned y, uint64_t addr, void *buf, size_t len);

/*
 * The whole of file @path in a malloc()ed buffer and its size in @n;
 * NULL with errno set if it cannot be read, is empty (EINVAL) or larger
 * than @max (EFBIG).
 */
uint8_t *tt_host_read_file(const char *path, size_t max, size_t *n);

/*
 * Is the library at @path Tenstorrent's ttsim?  The file $TTSIM_LIB
 * names, or one carrying ttsim's error category names (it prints them as
 * it exits on what it does not implement): callers avoid what it stops on.
 */
bool tt_host_is_ttsim(const char *path);

/* "@prog: <message>" on stderr, then exit(EXIT_FAILURE) */
void tt_host_die(const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/* calloc(1, @n), or tt_host_die(@prog, ...) */
void *tt_host_xcalloc(const char *prog, size_t n);

/* CLOCK_MONOTONIC in seconds */
double tt_host_now(void);

/* The median of @v[0..@n) (sorts @v in place) */
double tt_host_median(double *v, int n);

/*
 * TAP: one "ok N - ..." or "not ok N - ..." line per check (returns
 * @cond), skipped checks, "# ..." diagnostics, and the plan "1..N"
 * printed at the end by tt_done(), which returns the exit status;
 * tt_status() returns it without a plan.
 */
bool tt_ok(bool cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "ok N - ... # SKIP @why": a check that cannot run here */
void tt_skip(const char *why, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void tt_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tt_done(void);
int tt_status(void);

#endif
