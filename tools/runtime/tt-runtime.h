/*
 * A small host runtime for tt-metal-shaped programs over the libttsim C
 * ABI alone (tt-host.h), so the same binary drives this emulator's
 * libttsim.so and Tenstorrent's ttsim: firmware boot as tt-metal's host
 * does it, programs (kernels per core role, runtime arguments,
 * semaphores, circular buffers, L1 and GDDR buffers) built into
 * tt-metal's kernel configuration and launch message, launched either
 * through TLB windows (slow dispatch) or through the fast-dispatch
 * command queue of firmware/dispatch (tt-cq.c).
 *
 * Device-side contract: tools/abi/layout.h (L1 layout and launch
 * message per tt-metal generation), tools/abi/cq.h (command queue).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_RUNTIME_H
#define TT_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tt-host.h"
#include "tt-grid.h"

#define TTR_MAX_TILES       140
#define TTR_MAX_BANKS       8
#define TTR_ROLES           5
#define TTR_MAX_GROUPS      16
#define TTR_MAX_CBS         64
#define TTR_MAX_SEMS        16
#define TTR_MAX_BUFS        32
#define TTR_MAX_ARGS        64
#define TTR_MAX_RECTS       32
#define TTR_MAX_CHIPS       LIBTTSIM_MAX_DEVICES
#define TTR_ETH_CHANNELS    TT_ETH_CHANNELS

enum { TTR_BRISC, TTR_NCRISC, TTR_TRISC0, TTR_TRISC1, TTR_TRISC2 };
extern const char *const ttr_role_name[TTR_ROLES];

/* One tt-metal generation's L1 layout (tools/abi/layout.h) */
typedef struct TTRLayout {
    const char *name;           /* the machine's fw-layout preset name */
    uint32_t launch_size;
    uint32_t go_msg, go_msg_index;
    int pct_count, num_cbs;
    int operand_start_stream;
    /* launch_msg_t offsets */
    uint32_t lm_kcb, lm_sem, lm_local_cb, lm_remote_cb, lm_rta, lm_mode;
    uint32_t lm_kto, lm_cb_mask, lm_cb_mask_bytes, lm_noc_id, lm_min_remote;
    uint32_t lm_enables, lm_preload;
    bool trisc_enable_per_core;     /* else one bit (2) for all three */
    uint32_t fw_base[TTR_ROLES], fw_end;
    uint32_t ldm_image[TTR_ROLES];
    uint32_t kcb_base, kcb_end;
    uint32_t bank_table;
    int table_dram_banks, table_l1_banks;   /* 0: the board's */
} TTRLayout;

/* A board: its Tensix tiles and GDDR banks, translated coordinates */
typedef struct TTRBoard {
    const char *name;
    int ntiles;
    uint8_t x[TTR_MAX_TILES], y[TTR_MAX_TILES];  /* column-major */
    uint32_t colmask;           /* bit x: a Tensix column */
    int nbanks;
    uint8_t bank_x[TTR_MAX_BANKS], bank_y[TTR_MAX_BANKS];  /* first port */
    uint8_t prefetch_x, prefetch_y, dispatch_x, dispatch_y;
} TTRBoard;

/* @fmt into @err (@errlen bytes); returns false, for "return ttr_fail()" */
bool ttr_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

const TTRLayout *ttr_layout_find(const char *name);
const char *ttr_layout_names(void);
const TTRBoard *ttr_board_find(const char *name);
/* tile index at translated (@x, @y), or -1 */
int ttr_board_tile(const TTRBoard *b, int x, int y);
/* GDDR bank @bank's port for @noc (blackhole-py DRAM_BANK_PORT) */
uint32_t ttr_bank_xy(const TTRBoard *b, int bank, int noc);

/* ---------------------------------------------------------- programs */

typedef struct TTRImage {
    char *path;
    uint8_t *data;
    uint32_t size;              /* bss included */
    bool has_data;              /* initialized writable data (.data) */
    uint32_t base, entry;       /* ERISC images: where data goes, entry */
} TTRImage;

typedef struct TTRArgs {
    int n;
    char *expr[TTR_MAX_ARGS];
} TTRArgs;

typedef struct TTRRect {
    uint8_t x0, y0, x1, y1;
    uint16_t n;                 /* Tensix tiles in it */
} TTRRect;

typedef struct TTRGroup {
    char *name;
    int ncores;
    uint8_t core[TTR_MAX_TILES];    /* tile indices, column-major */
    TTRImage kernel[TTR_ROLES];     /* data NULL: role not enabled */
    TTRArgs rta[TTR_ROLES];
    bool sem_set[TTR_MAX_SEMS];     /* this group's own initial values */
    uint32_t sem_val[TTR_MAX_SEMS];
    /* computed by ttr_prog_layout() */
    uint32_t text_off[TTR_ROLES];
    uint32_t image_size;            /* bytes from kcb_base */
    int nrects;
    TTRRect rect[TTR_MAX_RECTS];
} TTRGroup;

typedef struct TTRCb {
    bool used, placed;
    uint32_t addr, pages, page_size;
} TTRCb;

typedef enum { TTR_L1, TTR_DRAM } TTRMem;

typedef struct TTRBuffer {
    char *name;
    bool output;
    TTRMem mem;
    uint32_t addr, size;
    uint32_t page;              /* GDDR: interleaving page size */
    bool per_core;              /* L1 input: a slice of the file per core */
    char *group;                /* L1: only this group's cores */
    int gidx;                   /* its index; -1: every core */
    char *file, *expect;
    uint8_t *data;              /* input bytes or expected output */
    uint32_t data_size;
} TTRBuffer;

/*
 * An ERISC kernel ('erisc' line): a bare image on E0 of one Ethernet
 * channel of this chip (tools/abi/eth-kernel.h)
 */
typedef struct TTREth {
    int channel;                /* physical; -1 until a link:C resolves */
    int peer;                   /* link:C: chip C, else -1 */
    TTRImage image;
    TTRArgs args;
} TTREth;

typedef struct TTRProgram {
    char *path;                 /* the description file */
    int chip;                   /* the chip whose part this is */
    uint32_t chips;             /* bit c: the file has a 'chip c' part */
    int neth;
    TTREth eth[TTR_ETH_CHANNELS];
    int ngroups;
    TTRGroup group[TTR_MAX_GROUPS];
    TTRCb cb[TTR_MAX_CBS];
    int ncbs;                   /* highest used + 1 */
    bool sem_used[TTR_MAX_SEMS];
    uint32_t sem_init[TTR_MAX_SEMS];
    int nsems;
    int nbufs;
    TTRBuffer buf[TTR_MAX_BUFS];
    /* computed by ttr_prog_layout(): offsets from kcb_base */
    uint32_t rta_off[TTR_ROLES], rta_words[TTR_ROLES];
    uint32_t crta_off, sem_off, cb_off, remote_cb_off, text_off;
    int ncores;                 /* over all groups */
    /* set before ttr_prog_layout(): groups without kernels are fine */
    bool data_only;
} TTRProgram;

/*
 * Parse description file @path into @p (tools/tt-run.c documents the
 * format; docs/system/riscv/blackhole.rst too).  Kernel names without a
 * '/' resolve to @kdir/NAME.ROLE.elf; other paths are relative to the
 * file's directory.  Returns false with a message in @err.
 */
bool ttr_prog_parse(TTRProgram *p, const char *path, const char *kdir,
                    const TTRBoard *b, char *err, size_t errlen);
/*
 * The same for chip @chip's part of a description that spans chips
 * ('chip N' lines; what precedes the first is chip 0's).  p->chips says
 * which parts the file has.
 */
bool ttr_prog_parse_chip(TTRProgram *p, const char *path, const char *kdir,
                         const TTRBoard *b, int chip, char *err,
                         size_t errlen);

/*
 * Check @p against @b and @l and lay out its kernel configuration:
 * cores on the board and not reserved (@reserved, tile indices), no
 * overlapping L1 ranges (kernel configuration, CBs, buffers), images in
 * the configuration area, arguments that evaluate.  Loads kernel ELFs
 * and input files.  Nothing touches the device.
 */
bool ttr_prog_layout(TTRProgram *p, const TTRBoard *b, const TTRLayout *l,
                     const bool *reserved, char *err, size_t errlen);

/*
 * The kernel configuration image of core @ci (program-wide index) of
 * group @g: @out (image_size bytes) gets RTAs, semaphores, CB
 * configuration and kernel text.  The part from sem_off on is the same
 * for every core of the group.
 */
bool ttr_prog_image(const TTRProgram *p, const TTRBoard *b,
                    const TTRLayout *l, int g, int ci, uint8_t *out,
                    char *err, size_t errlen);
/* launch_msg_t of group @g (@dev_mode: DISPATCH_MODE_DEV) into @out */
void ttr_prog_launch_msg(const TTRProgram *p, const TTRLayout *l, int g,
                         bool dev_mode, uint8_t *out);
/* program-wide index of core @k of group @g */
int ttr_prog_core_index(const TTRProgram *p, int g, int k);

void ttr_prog_free(TTRProgram *p);

/* ------------------------------------------------------------ device */

typedef struct TTRCq TTRCq;

typedef struct TTRDevice {
    TTHostLib lib;
    const TTRBoard *board;
    const TTRLayout *layout;
    double timeout;             /* seconds per wait */
    uint32_t clocks;            /* libttsim_clock() per poll */
    bool verbose;
    bool ttsim;                 /* Tenstorrent's ttsim: no PC readback */
    /*
     * the program whose kernel text the workers hold from the last
     * launch: launching it again resends all but the text
     */
    const void *resident;
    TTRCq *cq;                  /* fast dispatch, when running */
    int chip;                   /* the PCI function (device) of the chip */
    /* Ethernet links (ttr_eth_links): peer chip and channel, -1 none */
    int8_t eth_peer[TTR_ETH_CHANNELS], eth_peer_ch[TTR_ETH_CHANNELS];
} TTRDevice;

/*
 * TLB windows: 32-39 scratch, 40 + tile: that tile's L1, then one per
 * Ethernet channel on its L1 (programs that span chips)
 */
#define TTR_WIN_UNICAST     32
#define TTR_WIN_MCAST       33
#define TTR_WIN_REG         34
#define TTR_WIN_DRAM        35
#define TTR_WIN_TILE0       40
#define TTR_WIN_ETH0        (TTR_WIN_TILE0 + TTR_MAX_TILES)

/*
 * Load @libpath and start the device (the libttsim C ABI of
 * tenstorrent/ttsim) with the host DMA callbacks of the fast-dispatch
 * host memory (tt-cq.c)
 */
bool ttr_open(TTRDevice *d, const char *libpath, const TTRBoard *b,
              const TTRLayout *l, char *err, size_t errlen);
void ttr_close(TTRDevice *d);
/*
 * Chip @chip of the library @first opened (a multi-chip library's PCI
 * device @chip): @d talks to it through its own BAR0 and TLB windows.
 * ttr_close() on it leaves the library open; close @first last.
 */
bool ttr_open_chip(TTRDevice *d, const TTRDevice *first, int chip,
                   char *err, size_t errlen);

/*
 * The Ethernet links among chips @d[0..@n): which channels are up and
 * where each leads, from the base firmware's results in each Ethernet
 * tile's L1 (port status, chip_info_t of both ends)
 */
void ttr_eth_links(TTRDevice *d, int n);
/*
 * Resolve @p's ERISC channels (link:C) on @d, hold their E0 cores, load
 * images and arguments and clear the mailboxes; then start them, and
 * wait for each to return.  ttr_eth_load every chip's part before
 * ttr_eth_start of any.
 */
bool ttr_eth_load(TTRDevice *d, TTRProgram *p, char *err, size_t errlen);
void ttr_eth_start(TTRDevice *d, const TTRProgram *p);
/* ERISC kernels of @p not done within @timeout s (reported), -1 failed */
int ttr_eth_wait(TTRDevice *d, const TTRProgram *p, double timeout,
                 char *err, size_t errlen);
/*
 * One launch of a program that spans chips: @p[c] on @d[c] for c < @n,
 * by slow dispatch, ERISC kernels started once every chip's Tensix
 * kernels are; waits for all of them
 */
bool ttr_run_chips(TTRDevice *d, TTRProgram *p, int n, char *err,
                   size_t errlen);

/* host memory of the command queue, as device DMA sees it (tt-cq.c) */
void ttr_dma_rd(uint64_t paddr, void *dst, uint32_t size);
void ttr_dma_wr(uint64_t paddr, const void *src, uint32_t size);

/* one poll of a wait loop: let the simulator run */
void ttr_poll(TTRDevice *d);

/* L1 of tile @t through its own window */
void ttr_l1_write(TTRDevice *d, int t, uint32_t addr, const void *buf,
                  uint32_t len);
void ttr_l1_read(TTRDevice *d, int t, uint32_t addr, void *buf,
                 uint32_t len);
uint32_t ttr_l1_rd32(TTRDevice *d, int t, uint32_t addr);
void ttr_l1_wr32(TTRDevice *d, int t, uint32_t addr, uint32_t v);
/* a register of tile @t */
uint32_t ttr_reg_rd32(TTRDevice *d, int t, uint32_t addr);
void ttr_reg_wr32(TTRDevice *d, int t, uint32_t addr, uint32_t v);
/* the same bytes to every Tensix tile in @r, by multicast */
void ttr_mcast_write(TTRDevice *d, const TTRRect *r, uint32_t addr,
                     const void *buf, uint32_t len);
/* a GDDR buffer interleaved in @page-byte pages from @addr */
void ttr_dram_write(TTRDevice *d, uint32_t addr, uint32_t page,
                    const void *buf, uint32_t len);
void ttr_dram_read(TTRDevice *d, uint32_t addr, uint32_t page, void *buf,
                   uint32_t len);

/*
 * Boot the firmware ELFs of directory @fwdir (brisc.elf ... trisc2.elf)
 * on every tile, as tt-metal's host does (tt-metal tt_metal/llrt/
 * llrt.cpp, blackhole-py device.py): cores held, segments and LDM
 * images, bank table, JAL, go = INIT, BRISC released; then wait until
 * every go message reads DONE.
 */
bool ttr_boot(TTRDevice *d, const char *fwdir, char *err, size_t errlen);

/* Inputs of @p to the device, outputs back and checked (TAP-less) */
bool ttr_write_inputs(TTRDevice *d, const TTRProgram *p, char *err,
                      size_t errlen);
/* returns the number of outputs that differ from their expect= file */
int ttr_check_outputs(TTRDevice *d, const TTRProgram *p, const char *dump,
                      FILE *log);

/*
 * Kernel configuration bytes of group @g to write for this launch, from
 * sem_off: all of it, or only up to the kernel text when @p's text is
 * resident from the previous launch and no kernel of the group has
 * initialized writable data (tt-metal keeps a program's binaries
 * resident likewise).  Launchers set d->resident = @p afterwards.
 */
uint32_t ttr_prog_config_len(const TTRDevice *d, const TTRProgram *p,
                             int g);

/*
 * Slow dispatch: kernel configuration, launch message and go message
 * through TLB windows (ttr_launch_slow), then every core polled until
 * DONE.  On timeout the cores still busy are named with their state
 * (ttr_report_busy).
 */
bool ttr_launch_slow(TTRDevice *d, const TTRProgram *p, char *err,
                     size_t errlen);
bool ttr_run_slow(TTRDevice *d, const TTRProgram *p, char *err,
                  size_t errlen);
/* poll tiles @tiles until their go messages read DONE; how many did not */
int ttr_wait_done(TTRDevice *d, const int *tiles, int n, double timeout);

/* cores of @p whose go message is not DONE, with their state, on @log */
int ttr_report_busy(TTRDevice *d, const TTRProgram *p, FILE *log);

/* ---------------------------------------------------- fast dispatch */

typedef struct TTRCqOpts {
    uint32_t issue_size, completion_size;
    int dispatch_noc;           /* dispatch_d and dispatch_s */
    bool go_via_dispatch_s;     /* tt-metal's BH path: dispatch_s sends go */
    bool no_mcast;              /* unicast every write and go signal */
    uint32_t record_max;        /* bytes per issue record (0: 128 KiB) */
    const char *kdir;           /* directory of the cq-*.elf kernels */
} TTRCqOpts;

/*
 * Start the prefetcher and dispatcher kernels (a slow-dispatch launch on
 * the board's two fast-dispatch cores) and the host side of the queue
 */
bool ttr_cq_start(TTRDevice *d, const TTRCqOpts *o, char *err,
                  size_t errlen);
/* TERMINATE the three kernels and wait for their cores' DONE */
bool ttr_cq_stop(TTRDevice *d, char *err, size_t errlen);
/* tile indices the fast-dispatch kernels occupy (for ttr_prog_layout) */
void ttr_cq_reserved(const TTRBoard *b, bool *reserved);

/* Launch @p through the queue and wait for its completion event */
bool ttr_run_fast(TTRDevice *d, const TTRProgram *p, char *err,
                  size_t errlen);

/*
 * Raw queue access for tests and benchmarks: append one prefetcher
 * record (commands, a multiple of 16 bytes) to the issue ring and its
 * size to prefetch_q; wait for the next completion-queue record and
 * return its first @len bytes after the 16-byte command header echo.
 */
bool ttr_cq_submit(TTRDevice *d, const void *rec, uint32_t len, char *err,
                   size_t errlen);
bool ttr_cq_wait_event(TTRDevice *d, void *buf, uint32_t len, char *err,
                       size_t errlen);
/* prefetch_q entries and issue bytes the host wrote, completion pages read */
void ttr_cq_stats(TTRDevice *d, uint64_t *records, uint64_t *issue_bytes,
                  uint64_t *completions, uint32_t *issue_wraps,
                  uint32_t *q_wraps, uint32_t *completion_wraps);
/*
 * Commands @cmds (prefetcher commands, RELAY_INLINE strides and other
 * commands 64 bytes each) through the queue as they are, then a host
 * event, waited for: what tests use to check the framing on their own
 */
bool ttr_cq_run_stream(TTRDevice *d, const uint8_t *cmds, uint32_t len,
                       char *err, size_t errlen);
/* error words of the three kernels: false and a message if one is set */
bool ttr_cq_check(TTRDevice *d, char *err, size_t errlen);

/*
 * Host-side encoders of the commands ttr_run_fast() emits, for tests:
 * each appends to @buf at *@len (capacity @cap) and returns false when
 * it does not fit
 */
typedef struct TTRCmdBuf {
    uint8_t *p;
    uint32_t len, cap;
} TTRCmdBuf;

#endif
