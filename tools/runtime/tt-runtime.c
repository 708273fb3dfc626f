/*
 * Host runtime for tt-metal-shaped programs over the libttsim ABI: see
 * tt-runtime.h.  Boards, layouts, program descriptions, kernel
 * configuration images, firmware boot and slow dispatch; the command
 * queue is in tt-cq.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt-runtime.h"
#define TT_LAYOUT 0             /* only the layout-independent part */
#include "layout.h"
#include "eth-kernel.h"
#include "../../include/hw/tenstorrent/ttlink.h"
#include "tt-grid.h"

#define XY(x, y)            ((uint32_t)(y) << 6 | (x))
#define SOFT_RESET_0        TT_HOST_SOFT_RESET_0
#define HOLD_ALL            TT_HOST_HOLD_ALL
#define RELEASE_BRISC       TT_HOST_RELEASE_BRISC
#define TRISC_RESET_PC(n)   TT_HOST_TRISC_RESET_PC(n)
#define NCRISC_RESET_PC     TT_HOST_NCRISC_RESET_PC
#define PC_READBACK(role)   TT_HOST_PC_READBACK(role)
#define LDM_BASE            TT_TILE_LDM_BASE

const char *const ttr_role_name[TTR_ROLES] = {
    "brisc", "ncrisc", "trisc0", "trisc1", "trisc2",
};

bool ttr_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
    return (v + a - 1) & ~(a - 1);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = v >> (8 * i);
    }
}

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

/* ------------------------------------------------- layouts and boards */

/*
 * tools/abi/layout.h, per generation (tt-metal dev_msgs.h and
 * dev_mem_map.h at 0079e94; blackhole-py 5d08c23 abi.py and configs.py)
 */
static const TTRLayout ttr_layouts[] = {
    {
        .name = "tt-metal-0079e94",
        .launch_size = 128, .go_msg = 0x470, .go_msg_index = 0x4a0,
        .pct_count = 4, .num_cbs = 64, .operand_start_stream = 0,
        .lm_kcb = 0, .lm_sem = 16, .lm_local_cb = 24, .lm_remote_cb = 26,
        .lm_rta = 28, .lm_mode = 48, .lm_kto = 52, .lm_cb_mask = 72,
        .lm_cb_mask_bytes = 8, .lm_noc_id = 80, .lm_min_remote = 82,
        .lm_enables = 88, .lm_preload = 127,
        .trisc_enable_per_core = true,
        .fw_base = { 0x39e0, 0x5be0, 0x65e0, 0x6fe0, 0x79e0 },
        .fw_end = 0x83e0,
        .ldm_image = { 0x9f00, 0xbf00, 0xdf00, 0xef00, 0xff00 },
        .kcb_base = 0x9f00, .kcb_end = 0x12f00,
        .bank_table = 0x12f00,
    }, {
        .name = "blackhole-py-5d08c23",
        .launch_size = 96, .go_msg = 0x370, .go_msg_index = 0x3a0,
        .pct_count = 3, .num_cbs = 32, .operand_start_stream = 8,
        .lm_kcb = 0, .lm_sem = 12, .lm_local_cb = 18, .lm_remote_cb = 20,
        .lm_rta = 22, .lm_mode = 42, .lm_kto = 44, .lm_cb_mask = 64,
        .lm_cb_mask_bytes = 4, .lm_noc_id = 68, .lm_min_remote = 70,
        .lm_enables = 76, .lm_preload = 95,
        .trisc_enable_per_core = false,
        .fw_base = { 0x3840, 0x5440, 0x5a40, 0x6040, 0x6640 },
        .fw_end = 0x6c40,
        .ldm_image = { 0x82b0, 0xa2b0, 0xc2b0, 0xd2b0, 0xe2b0 },
        .kcb_base = 0x82b0, .kcb_end = 0x112b0,
        .bank_table = 0x112b0,
        .table_dram_banks = 7, .table_l1_banks = 110,
    },
};

const TTRLayout *ttr_layout_find(const char *name)
{
    for (size_t i = 0; i < sizeof(ttr_layouts) / sizeof(ttr_layouts[0]);
         i++) {
        if (!strcmp(ttr_layouts[i].name, name)) {
            return &ttr_layouts[i];
        }
    }
    return NULL;
}

const char *ttr_layout_names(void)
{
    return "tt-metal-0079e94, blackhole-py-5d08c23";
}

/*
 * The boards of hw/tenstorrent/data/grid.yaml (generated tt-grid.h):
 * Tensix columns in translated coordinates (harvested columns move to the
 * end and drop off: the P100A keeps 12), the fast-dispatch cores
 * blackhole-py's device.py places (rightmost column, rows 2 and 3: (14,2)
 * and (14,3) on a P100A, (16,2) and (16,3) on a P150) and the GDDR banks:
 * translated x = 17 (banks 0-3) or 18 (4-7), first port y = 12 + 3 *
 * (bank % 4), a harvested bank dropping off the end
 * (docs/system/riscv/blackhole.rst, the machine's bank table)
 */
typedef struct TTRGridBoard {
    const char *name;
    int pcie;
    uint32_t harvested_cols;
    int harvested_dram_bank;
    uint32_t harvested_eth;     /* not used here */
} TTRGridBoard;

static const uint8_t tensix_cols[] = TT_GRID_TENSIX_COLS_INIT;
static const TTRGridBoard grid_boards[] = TT_GRID_BOARDS_INIT;
static TTRBoard ttr_boards[TT_GRID_BOARDS];

static void board_init(TTRBoard *b, const TTRGridBoard *g)
{
    int ncols = TT_TENSIX_COLS - __builtin_popcount(g->harvested_cols);
    int nbanks = TT_DRAM_BANKS - (g->harvested_dram_bank >= 0);

    b->name = g->name;
    b->ntiles = 0;
    for (int c = 0; c < ncols; c++) {
        b->colmask |= 1u << tensix_cols[c];
        for (int y = TT_TENSIX_Y0; y < TT_TENSIX_Y0 + TT_TENSIX_ROWS; y++) {
            b->x[b->ntiles] = tensix_cols[c];
            b->y[b->ntiles++] = y;
        }
    }
    b->nbanks = nbanks;
    for (int k = 0; k < nbanks; k++) {
        b->bank_x[k] = TT_VIRT_DRAM_X0 + k / (TT_DRAM_BANKS / 2);
        b->bank_y[k] = TT_VIRT_DRAM_Y0 +
                       TT_DRAM_PORTS * (k % (TT_DRAM_BANKS / 2));
    }
    b->prefetch_x = b->dispatch_x = tensix_cols[ncols - 1];
    b->prefetch_y = TT_TENSIX_Y0;
    b->dispatch_y = TT_TENSIX_Y0 + 1;
}

const TTRBoard *ttr_board_find(const char *name)
{
    if (!ttr_boards[0].name) {
        for (int i = 0; i < TT_GRID_BOARDS; i++) {
            board_init(&ttr_boards[i], &grid_boards[i]);
        }
    }
    for (int i = 0; i < TT_GRID_BOARDS; i++) {
        if (!strcmp(ttr_boards[i].name, name)) {
            return &ttr_boards[i];
        }
    }
    return NULL;
}

int ttr_board_tile(const TTRBoard *b, int x, int y)
{
    for (int i = 0; i < b->ntiles; i++) {
        if (b->x[i] == x && b->y[i] == y) {
            return i;
        }
    }
    return -1;
}

/* NOC port per software bank (blackhole-py DRAM_BANK_PORT) */
static const uint8_t bank_port[TTR_MAX_BANKS][2] = {
    { 2, 1 }, { 0, 1 }, { 0, 1 }, { 0, 1 },
    { 2, 1 }, { 2, 1 }, { 2, 1 }, { 2, 1 },
};

uint32_t ttr_bank_xy(const TTRBoard *b, int bank, int noc)
{
    return XY(b->bank_x[bank], b->bank_y[bank] + bank_port[bank][noc]);
}

/* ---------------------------------------------------------------- ELF */

typedef struct TTRSeg {
    uint32_t addr, filesz, memsz;
    const uint8_t *data;
} TTRSeg;

#define TTR_MAX_SEGS        16

static uint32_t get32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t get16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

/*
 * The PT_LOAD segments of RV32 little-endian ELF @path; *@file holds
 * the bytes they point into (free it)
 */
static bool elf_load(const char *path, uint8_t **file, size_t *fsize,
                     TTRSeg *seg, int *nseg, uint32_t *entry, char *err,
                     size_t errlen)
{
    size_t n;
    uint8_t *f = tt_host_read_file(path, 64u << 20, &n);
    uint32_t phoff, phnum;

    if (!f) {
        return ttr_fail(err, errlen, "%s: %s", path, strerror(errno));
    }
    if (n < 52 || memcmp(f, "\177ELF", 4) || f[4] != 1 || f[5] != 1 ||
        get16(f + 18) != 243) {
        free(f);
        return ttr_fail(err, errlen, "%s: not a 32-bit little-endian RISC-V "
                        "ELF file", path);
    }
    phoff = get32(f + 28);
    phnum = get16(f + 44);
    if (get16(f + 42) != 32 || phoff > n || phnum > (n - phoff) / 32) {
        free(f);
        return ttr_fail(err, errlen, "%s: program headers past the end of the "
                        "file", path);
    }
    *entry = get32(f + 24);
    *nseg = 0;
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *ph = f + phoff + 32 * i;
        uint32_t off = get32(ph + 4), fsz = get32(ph + 16);
        uint32_t msz = get32(ph + 20);

        if (get32(ph) != 1 || !msz) {   /* PT_LOAD with memory */
            continue;
        }
        if (off > n || fsz > n - off || fsz > msz) {
            free(f);
            return ttr_fail(err, errlen, "%s: segment %u past the end of the "
                            "file", path, i);
        }
        if (*nseg == TTR_MAX_SEGS) {
            free(f);
            return ttr_fail(err, errlen, "%s: more than %d segments", path,
                            TTR_MAX_SEGS);
        }
        seg[(*nseg)++] = (TTRSeg) {
            .addr = get32(ph + 12), .filesz = fsz, .memsz = msz,
            .data = f + off,
        };
    }
    if (!*nseg) {
        free(f);
        return ttr_fail(err, errlen, "%s: no loadable segment", path);
    }
    *file = f;
    *fsize = n;
    return true;
}

/*
 * Does the ELF image @f (@n bytes, checked by elf_load) have initialized
 * writable data: an allocated, writable PROGBITS section that is not
 * empty?  Without section headers, assume it does.
 */
static bool elf_has_data(const uint8_t *f, size_t n)
{
    uint32_t shoff = get32(f + 32), shnum = get16(f + 48);

    if (!shoff || get16(f + 46) != 40 || shoff > n ||
        shnum > (n - shoff) / 40) {
        return true;
    }
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *sh = f + shoff + 40 * i;

        if (get32(sh + 4) == 1 && (get32(sh + 8) & 3) == 3 &&
            get32(sh + 20)) {
            return true;
        }
    }
    return false;
}

/*
 * A kernel: one image of L1 segments from its entry, which must be the
 * lowest address (position-independent kernels are linked at 0)
 */
static bool kernel_load(TTRImage *k, uint32_t max, char *err,
                        size_t errlen)
{
    TTRSeg seg[TTR_MAX_SEGS];
    uint8_t *file;
    size_t fsize;
    uint32_t entry, lo = UINT32_MAX, hi = 0;
    int nseg;

    if (!elf_load(k->path, &file, &fsize, seg, &nseg, &entry, err,
                  errlen)) {
        return false;
    }
    for (int i = 0; i < nseg; i++) {
        if (seg[i].addr >= TT_L1_SIZE ||
            seg[i].memsz > TT_L1_SIZE - seg[i].addr) {
            free(file);
            return ttr_fail(err, errlen, "%s: segment at 0x%x is not in L1 (a "
                            "kernel keeps everything in its image)", k->path,
                            seg[i].addr);
        }
        lo = seg[i].addr < lo ? seg[i].addr : lo;
        hi = seg[i].addr + seg[i].memsz > hi ? seg[i].addr + seg[i].memsz
                                             : hi;
    }
    if (entry != lo) {
        free(file);
        return ttr_fail(err, errlen, "%s: entry 0x%x is not the image's first "
                        "byte 0x%x", k->path, entry, lo);
    }
    if (hi - lo > max) {
        free(file);
        return ttr_fail(err, errlen, "%s: %u-byte image, the kernel "
                        "configuration area holds %u", k->path, hi - lo, max);
    }
    k->size = align_up(hi - lo, 16);
    k->data = tt_host_xcalloc("tt-run", k->size);
    for (int i = 0; i < nseg; i++) {
        memcpy(k->data + seg[i].addr - lo, seg[i].data, seg[i].filesz);
    }
    /* initialized data a launch may change: resend it every time */
    k->has_data = elf_has_data(file, fsize);
    free(file);
    return true;
}

/*
 * An ERISC kernel: its segments, linked where they run, inside
 * [ETH_K_BASE, ETH_K_END) (tools/abi/eth-kernel.h)
 */
static bool eth_image_load(TTRImage *k, char *err, size_t errlen)
{
    TTRSeg seg[TTR_MAX_SEGS];
    uint8_t *file;
    size_t fsize;
    uint32_t lo = UINT32_MAX, hi = 0;
    int nseg;

    if (!elf_load(k->path, &file, &fsize, seg, &nseg, &k->entry, err,
                  errlen)) {
        return false;
    }
    for (int i = 0; i < nseg; i++) {
        if (seg[i].addr < ETH_K_BASE || seg[i].addr >= ETH_K_END ||
            seg[i].memsz > ETH_K_END - seg[i].addr) {
            free(file);
            return ttr_fail(err, errlen, "%s: segment at 0x%x is outside the "
                            "ERISC kernel area 0x%x-0x%x", k->path, seg[i].addr,
                            ETH_K_BASE, ETH_K_END - 1);
        }
        lo = seg[i].addr < lo ? seg[i].addr : lo;
        hi = seg[i].addr + seg[i].memsz > hi ? seg[i].addr + seg[i].memsz
                                             : hi;
    }
    if (k->entry < lo || k->entry >= hi) {
        free(file);
        return ttr_fail(err, errlen, "%s: entry 0x%x is outside the image",
                        k->path, k->entry);
    }
    k->base = lo;
    k->size = align_up(hi - lo, 4);
    k->data = tt_host_xcalloc("tt-run", k->size);
    for (int i = 0; i < nseg; i++) {
        memcpy(k->data + seg[i].addr - lo, seg[i].data, seg[i].filesz);
    }
    free(file);
    return true;
}

/* Does group @gr run anything?  (Else it only holds buffers.) */
static bool group_runs(const TTRGroup *gr)
{
    for (int ro = 0; ro < TTR_ROLES; ro++) {
        if (gr->kernel[ro].path) {
            return true;
        }
    }
    return false;
}

/* -------------------------------------------------------- expressions */

typedef struct TTRCtx {
    const TTRProgram *p;
    const TTRBoard *b;
    int g, k;                   /* group, core in the group */
    int ci;                     /* core in the program */
    int ex, ey;                 /* an ERISC kernel's tile (g < 0) */
    const char *s;              /* parse position */
    const char *expr;
    char *err;
    size_t errlen;
    bool bad;
} TTRCtx;

static int64_t ctx_fail(TTRCtx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int64_t ctx_fail(TTRCtx *c, const char *fmt, ...)
{
    char msg[256];
    va_list ap;

    if (!c->bad) {
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        snprintf(c->err, c->errlen, "argument '%s': %s", c->expr, msg);
    }
    c->bad = true;
    return 0;
}

static int group_find(const TTRProgram *p, const char *name)
{
    for (int g = 0; g < p->ngroups; g++) {
        if (!strcmp(p->group[g].name, name)) {
            return g;
        }
    }
    return -1;
}

static int buf_find(const TTRProgram *p, const char *name)
{
    for (int i = 0; i < p->nbufs; i++) {
        if (!strcmp(p->buf[i].name, name)) {
            return i;
        }
    }
    return -1;
}

/* bounding box of group @g (translated coordinates) */
static void group_box(const TTRProgram *p, const TTRBoard *b, int g,
                      TTRRect *r)
{
    const TTRGroup *gr = &p->group[g];

    r->x0 = r->y0 = 0xff;
    r->x1 = r->y1 = 0;
    for (int k = 0; k < gr->ncores; k++) {
        int t = gr->core[k];

        r->x0 = b->x[t] < r->x0 ? b->x[t] : r->x0;
        r->y0 = b->y[t] < r->y0 ? b->y[t] : r->y0;
        r->x1 = b->x[t] > r->x1 ? b->x[t] : r->x1;
        r->y1 = b->y[t] > r->y1 ? b->y[t] : r->y1;
    }
}

/* Tensix tiles in @r, less the one at @self */
static int rect_tiles(const TTRBoard *b, const TTRRect *r, int self)
{
    int n = 0;

    for (int t = 0; t < b->ntiles; t++) {
        n += b->x[t] >= r->x0 && b->x[t] <= r->x1 && b->y[t] >= r->y0 &&
             b->y[t] <= r->y1 && t != self;
    }
    return n;
}

static uint32_t mcast_enc(const TTRRect *r)
{
    return (uint32_t)r->y0 << 18 | (uint32_t)r->x0 << 12 |
           (uint32_t)r->y1 << 6 | r->x1;
}

/* {name} or {name:arg} */
static int64_t ctx_var(TTRCtx *c, const char *name, const char *arg)
{
    const TTRProgram *p = c->p;
    const TTRGroup *gr = c->g < 0 ? NULL : &p->group[c->g];
    int t = gr ? gr->core[c->k] : -1, i;
    TTRRect r;

    if (!arg && !gr) {
        /* an ERISC kernel: its own tile, nothing of a Tensix core */
        if (!strcmp(name, "x") || !strcmp(name, "y") ||
            !strcmp(name, "xy")) {
            return name[1] ? XY(c->ex, c->ey) : name[0] == 'x' ? c->ex
                                                               : c->ey;
        } else if (!strcmp(name, "nbanks")) {
            return c->b->nbanks;
        }
        return ctx_fail(c, "{%s} is not defined for an ERISC kernel", name);
    }
    if (!arg) {
        if (!strcmp(name, "i")) {
            return c->ci;
        } else if (!strcmp(name, "n")) {
            return p->ncores;
        } else if (!strcmp(name, "gi")) {
            return c->k;
        } else if (!strcmp(name, "gn")) {
            return gr->ncores;
        } else if (!strcmp(name, "x")) {
            return c->b->x[t];
        } else if (!strcmp(name, "y")) {
            return c->b->y[t];
        } else if (!strcmp(name, "xy")) {
            return XY(c->b->x[t], c->b->y[t]);
        } else if (!strcmp(name, "nbanks")) {
            return c->b->nbanks;
        }
        return ctx_fail(c, "unknown variable {%s}", name);
    }
    if (!strcmp(name, "addr") || !strcmp(name, "size") ||
        !strcmp(name, "page")) {
        i = buf_find(p, arg);
        if (i < 0) {
            return ctx_fail(c, "no buffer '%s'", arg);
        }
        return name[0] == 'a' ? p->buf[i].addr :
               name[0] == 's' ? p->buf[i].size : p->buf[i].page;
    }
    if (!strcmp(name, "cb")) {
        i = atoi(arg);
        if (i < 0 || i >= TTR_MAX_CBS || !p->cb[i].used) {
            return ctx_fail(c, "no CB %s", arg);
        }
        return p->cb[i].addr;
    }
    i = group_find(p, arg);
    if (i < 0) {
        return ctx_fail(c, "no group '%s'", arg);
    }
    if (!p->group[i].ncores) {
        return ctx_fail(c, "group '%s' has no cores", arg);
    }
    group_box(p, c->b, i, &r);
    if (!strcmp(name, "xy")) {
        t = p->group[i].core[0];
        return XY(c->b->x[t], c->b->y[t]);
    } else if (!strcmp(name, "ncores")) {
        return p->group[i].ncores;
    } else if (!strcmp(name, "mcast")) {
        return mcast_enc(&r);
    } else if (!strcmp(name, "mcastn")) {
        return rect_tiles(c->b, &r, t);
    }
    return ctx_fail(c, "unknown variable {%s:%s}", name, arg);
}

static void skip_ws(TTRCtx *c)
{
    while (isspace((unsigned char)*c->s)) {
        c->s++;
    }
}

static int64_t ctx_expr(TTRCtx *c, int level);

static int64_t ctx_primary(TTRCtx *c)
{
    int64_t v;

    skip_ws(c);
    if (*c->s == '-') {
        c->s++;
        return -ctx_primary(c);
    }
    if (*c->s == '~') {
        c->s++;
        return ~ctx_primary(c);
    }
    if (*c->s == '(') {
        c->s++;
        v = ctx_expr(c, 0);
        skip_ws(c);
        if (*c->s != ')') {
            return ctx_fail(c, "')' expected");
        }
        c->s++;
        return v;
    }
    if (*c->s == '{') {
        char name[64], *colon;
        const char *end = strchr(c->s, '}');

        if (!end || end - c->s - 1 >= (int)sizeof(name)) {
            return ctx_fail(c, "unterminated {variable}");
        }
        memcpy(name, c->s + 1, end - c->s - 1);
        name[end - c->s - 1] = 0;
        c->s = end + 1;
        colon = strchr(name, ':');
        if (colon) {
            *colon++ = 0;
        }
        return ctx_var(c, name, colon);
    }
    if (isdigit((unsigned char)*c->s)) {
        unsigned long long u;
        int n = 0;

        if (sscanf(c->s, "%lli%n", (long long *)&u, &n) != 1 ||
            u > 0xffffffffull) {
            return ctx_fail(c, "number out of range");
        }
        c->s += n;
        return u;
    }
    return ctx_fail(c, "number, {variable} or '(' expected at '%s'", c->s);
}

/* C precedence, lowest first: | ^ & << >> + - * / % */
static int64_t ctx_expr(TTRCtx *c, int level)
{
    static const char *const ops[][3] = {
        { "|" }, { "^" }, { "&" }, { "<<", ">>" }, { "+", "-" },
        { "*", "/", "%" },
    };
    int64_t v, w;

    if (level == 6) {
        return ctx_primary(c);
    }
    v = ctx_expr(c, level + 1);
    for (;;) {
        const char *op = NULL;

        skip_ws(c);
        for (int i = 0; i < 3 && ops[level][i]; i++) {
            size_t n = strlen(ops[level][i]);

            if (!strncmp(c->s, ops[level][i], n) &&
                (n == 2 || (c->s[1] != '<' && c->s[1] != '>'))) {
                op = ops[level][i];
            }
        }
        if (!op || c->bad) {
            return v;
        }
        c->s += strlen(op);
        w = ctx_expr(c, level + 1);
        switch (op[0]) {
        case '|':
            v |= w;
            break;
        case '^':
            v ^= w;
            break;
        case '&':
            v &= w;
            break;
        case '<':
            v = w < 0 || w > 63 ? ctx_fail(c, "shift out of range") : v << w;
            break;
        case '>':
            v = w < 0 || w > 63 ? ctx_fail(c, "shift out of range") : v >> w;
            break;
        case '+':
            v += w;
            break;
        case '-':
            v -= w;
            break;
        case '*':
            v *= w;
            break;
        default:
            if (!w) {
                return ctx_fail(c, "division by zero");
            }
            v = op[0] == '/' ? v / w : v % w;
        }
    }
}

/* words the arguments @a expand to ({banks}: the count, then each bank) */
static int args_words(const TTRBoard *b, const TTRArgs *a)
{
    int n = 0;

    for (int i = 0; i < a->n; i++) {
        n += strcmp(a->expr[i], "{banks}") && strcmp(a->expr[i], "{banks1}")
             ? 1 : 1 + b->nbanks;
    }
    return n;
}

/*
 * The runtime arguments @a of core @k of group @g (@g < 0: of an ERISC
 * kernel on the Ethernet tile at (@ex, @ey)) into @out (at most
 * TTR_MAX_ARGS words); returns how many, or -1 with a message in @err
 */
static int args_eval(const TTRProgram *p, const TTRBoard *b, int g, int k,
                     int ci, int ex, int ey, const TTRArgs *a, uint32_t *out,
                     char *err, size_t errlen)
{
    int n = 0;

    if (args_words(b, a) > TTR_MAX_ARGS) {
        ttr_fail(err, errlen, "more than %d runtime argument words",
                 TTR_MAX_ARGS);
        return -1;
    }
    for (int i = 0; i < a->n; i++) {
        TTRCtx c = {
            .p = p, .b = b, .g = g, .k = k, .ci = ci, .ex = ex, .ey = ey,
            .s = a->expr[i],
            .expr = a->expr[i], .err = err, .errlen = errlen,
        };
        int64_t v;

        if (!strcmp(a->expr[i], "{banks}") ||
            !strcmp(a->expr[i], "{banks1}")) {
            out[n++] = b->nbanks;
            for (int j = 0; j < b->nbanks; j++) {
                out[n++] = ttr_bank_xy(b, j, a->expr[i][6] == '1');
            }
            continue;
        }
        v = ctx_expr(&c, 0);
        skip_ws(&c);
        if (!c.bad && *c.s) {
            ctx_fail(&c, "unexpected '%s'", c.s);
        }
        if (c.bad) {
            return -1;
        }
        if (v < -0x80000000ll || v > 0xffffffffll) {
            ttr_fail(err, errlen, "argument '%s' = %" PRId64 " does not fit in "
                     "32 bits", a->expr[i], v);
            return -1;
        }
        out[n++] = v;
    }
    return n;
}

/* ----------------------------------------------- description parsing */

typedef struct TTRParse {
    TTRProgram *p;
    const TTRBoard *b;
    const char *kdir;
    char dir[PATH_MAX];
    int line;
    int want, cur;              /* the chip parsed, the part read */
    char *err;
    size_t errlen;
} TTRParse;

static bool perr(TTRParse *ps, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool perr(TTRParse *ps, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(ps->err, ps->errlen, "%s:%d: %s", ps->p->path, ps->line, msg);
    return false;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);

    if (!d) {
        tt_host_die("tt-run", "out of memory");
    }
    return d;
}

/* @name relative to the description's directory, unless absolute */
static char *path_rel(TTRParse *ps, const char *name)
{
    char *buf;

    if (name[0] == '/') {
        return xstrdup(name);
    }
    if (asprintf(&buf, "%s/%s", ps->dir, name) < 0) {
        tt_host_die("tt-run", "out of memory");
    }
    return buf;
}

static bool parse_u32(TTRParse *ps, const char *what, const char *s,
                      uint32_t *v)
{
    unsigned long long n;
    int len = -1;

    if (*s == '-' || sscanf(s, "%lli%n", (long long *)&n, &len) != 1 ||
        s[len] || n > 0xffffffffull) {
        return perr(ps, "%s: '%s' is not a 32-bit number", what, s);
    }
    *v = n;
    return true;
}

static int parse_role(TTRParse *ps, const char *s)
{
    for (int r = 0; r < TTR_ROLES; r++) {
        if (!strcmp(s, ttr_role_name[r])) {
            return r;
        }
    }
    perr(ps, "'%s' is not a core role (brisc, ncrisc, trisc0, trisc1, "
         "trisc2)", s);
    return -1;
}

/* "X,Y" into translated coordinates that must hold a Tensix tile */
static int parse_tile(TTRParse *ps, const char *s)
{
    int x, y, n, t;

    if (sscanf(s, "%d,%d%n", &x, &y, &n) != 2 || s[n]) {
        perr(ps, "'%s' is not a core X,Y", s);
        return -1;
    }
    t = ttr_board_tile(ps->b, x, y);
    if (t < 0) {
        perr(ps, "core (%d,%d) is outside the %s's Tensix grid (x %s, y "
             "2-11)", x, y, ps->b->name,
             ps->b->ntiles == 140 ? "1-7 and 10-16" : "1-7 and 10-14");
    }
    return t;
}

/* a core range: X,Y | X0,Y0-X1,Y1 | all */
static bool parse_range(TTRParse *ps, TTRGroup *g, bool *sel,
                        const char *s)
{
    char a[32];
    const char *dash = strchr(s, '-');
    int t0, t1;

    if (!strcmp(s, "all")) {
        g->ncores = -1;     /* resolved by ttr_prog_layout() */
        return true;
    }
    if (!dash) {
        t0 = t1 = parse_tile(ps, s);
    } else {
        if (dash - s >= (int)sizeof(a)) {
            return perr(ps, "bad core range '%s'", s);
        }
        memcpy(a, s, dash - s);
        a[dash - s] = 0;
        t0 = parse_tile(ps, a);
        t1 = t0 < 0 ? -1 : parse_tile(ps, dash + 1);
    }
    if (t0 < 0 || t1 < 0) {
        return false;
    }
    for (int t = 0; t < ps->b->ntiles; t++) {
        int x = ps->b->x[t], y = ps->b->y[t];

        if (x >= ps->b->x[t0] && x <= ps->b->x[t1] && y >= ps->b->y[t0] &&
            y <= ps->b->y[t1]) {
            sel[t] = true;
        }
    }
    if (ps->b->x[t0] > ps->b->x[t1] || ps->b->y[t0] > ps->b->y[t1]) {
        return perr(ps, "core range '%s' is empty (corners in the wrong "
                    "order)", s);
    }
    return true;
}

static bool parse_group(TTRParse *ps, char **tok, int ntok, bool named)
{
    TTRProgram *p = ps->p;
    TTRGroup *g;
    bool sel[TTR_MAX_TILES] = { false };
    int first = named ? 2 : 1;

    if (p->ngroups == TTR_MAX_GROUPS) {
        return perr(ps, "more than %d groups", TTR_MAX_GROUPS);
    }
    if (ntok <= first) {
        return perr(ps, "%s: no core range", tok[0]);
    }
    g = &p->group[p->ngroups];
    if (named) {
        if (group_find(p, tok[1]) >= 0) {
            return perr(ps, "group '%s' defined twice", tok[1]);
        }
        g->name = xstrdup(tok[1]);
    } else if (asprintf(&g->name, "group%d", p->ngroups) < 0) {
        tt_host_die("tt-run", "out of memory");
    }
    for (int i = first; i < ntok; i++) {
        if (!parse_range(ps, g, sel, tok[i])) {
            return false;
        }
    }
    if (g->ncores == 0) {
        for (int t = 0; t < ps->b->ntiles; t++) {
            if (sel[t]) {
                g->core[g->ncores++] = t;
            }
        }
    } else if (ntok - first > 1) {
        return perr(ps, "'all' takes no other core range");
    }
    p->ngroups++;
    return true;
}

/* key=value options of input/output/cb/sem lines */
static const char *opt_val(char **tok, int ntok, int first, const char *key)
{
    size_t n = strlen(key);

    for (int i = first; i < ntok; i++) {
        if (!strncmp(tok[i], key, n) && tok[i][n] == '=') {
            return tok[i] + n + 1;
        }
    }
    return NULL;
}

static bool opts_known(TTRParse *ps, char **tok, int ntok, int first,
                       const char *const *keys)
{
    for (int i = first; i < ntok; i++) {
        bool ok = false;

        for (int k = 0; keys[k]; k++) {
            size_t n = strlen(keys[k]);

            ok |= !strncmp(tok[i], keys[k], n) &&
                  (tok[i][n] == '=' || (!tok[i][n] && keys[k][n - 1] != '='));
        }
        if (!ok) {
            return perr(ps, "%s: unknown option '%s'", tok[0], tok[i]);
        }
    }
    return true;
}

static bool parse_cb(TTRParse *ps, char **tok, int ntok)
{
    static const char *const keys[] = { "pages", "page", "addr", NULL };
    TTRProgram *p = ps->p;
    const char *v, *w;
    uint32_t id;
    TTRCb *cb;

    if (ntok < 2 || !parse_u32(ps, "cb", tok[1], &id)) {
        return ntok < 2 ? perr(ps, "cb: index expected") : false;
    }
    if (id >= TTR_MAX_CBS) {
        return perr(ps, "cb %u: CB indices are 0-%d", id, TTR_MAX_CBS - 1);
    }
    cb = &p->cb[id];
    if (cb->used) {
        return perr(ps, "cb %u defined twice", id);
    }
    if (!opts_known(ps, tok, ntok, 2, keys)) {
        return false;
    }
    v = opt_val(tok, ntok, 2, "pages");
    w = opt_val(tok, ntok, 2, "page");
    if (!v || !w) {
        return perr(ps, "cb %u: pages= and page= required", id);
    }
    if (!parse_u32(ps, "pages", v, &cb->pages) ||
        !parse_u32(ps, "page", w, &cb->page_size)) {
        return false;
    }
    if (!cb->pages || !cb->page_size || cb->page_size % 16 ||
        (uint64_t)cb->pages * cb->page_size > TT_L1_SIZE) {
        return perr(ps, "cb %u: %u pages of %u bytes (pages and page size "
                    "non-zero, page size a multiple of 16, within L1)", id,
                    cb->pages, cb->page_size);
    }
    v = opt_val(tok, ntok, 2, "addr");
    if (v) {
        if (!parse_u32(ps, "addr", v, &cb->addr)) {
            return false;
        }
        if (cb->addr % 16) {
            return perr(ps, "cb %u: address 0x%x not 16-byte aligned", id,
                        cb->addr);
        }
        cb->placed = true;
    }
    cb->used = true;
    p->ncbs = id + 1 > (uint32_t)p->ncbs ? (int)id + 1 : p->ncbs;
    return true;
}

static bool parse_sem(TTRParse *ps, char **tok, int ntok)
{
    static const char *const keys[] = { "init", "group", NULL };
    TTRProgram *p = ps->p;
    const char *v;
    uint32_t id, init = 0;
    int g;

    if (ntok < 2 || !parse_u32(ps, "sem", tok[1], &id)) {
        return ntok < 2 ? perr(ps, "sem: id expected") : false;
    }
    if (id >= TTR_MAX_SEMS) {
        return perr(ps, "sem %u: semaphore ids are 0-%d", id,
                    TTR_MAX_SEMS - 1);
    }
    if (!opts_known(ps, tok, ntok, 2, keys)) {
        return false;
    }
    v = opt_val(tok, ntok, 2, "init");
    if (v && !parse_u32(ps, "init", v, &init)) {
        return false;
    }
    v = opt_val(tok, ntok, 2, "group");
    if (v) {
        /* that group's cores start with their own value */
        g = group_find(p, v);
        if (g < 0) {
            return perr(ps, "sem %u: no group '%s' (yet)", id, v);
        }
        if (p->group[g].sem_set[id]) {
            return perr(ps, "sem %u of group %s defined twice", id, v);
        }
        p->group[g].sem_set[id] = true;
        p->group[g].sem_val[id] = init;
    } else {
        if (p->sem_used[id]) {
            return perr(ps, "sem %u defined twice", id);
        }
        p->sem_init[id] = init;
    }
    p->sem_used[id] = true;
    p->nsems = id + 1 > (uint32_t)p->nsems ? (int)id + 1 : p->nsems;
    return true;
}

static bool parse_buffer(TTRParse *ps, char **tok, int ntok, bool output)
{
    static const char *const keys[] = {
        "file", "expect", "size", "page", "per-core", "group", NULL,
    };
    TTRProgram *p = ps->p;
    TTRBuffer *bf;
    const char *v;

    if (ntok < 4) {
        return perr(ps, "%s NAME l1|dram ADDR [options]", tok[0]);
    }
    if (p->nbufs == TTR_MAX_BUFS) {
        return perr(ps, "more than %d buffers", TTR_MAX_BUFS);
    }
    if (buf_find(p, tok[1]) >= 0) {
        return perr(ps, "buffer '%s' defined twice", tok[1]);
    }
    bf = &p->buf[p->nbufs];
    bf->name = xstrdup(tok[1]);
    bf->output = output;
    if (!strcmp(tok[2], "l1")) {
        bf->mem = TTR_L1;
    } else if (!strcmp(tok[2], "dram")) {
        bf->mem = TTR_DRAM;
    } else {
        return perr(ps, "%s: memory '%s' is not l1 or dram", tok[1], tok[2]);
    }
    if (!parse_u32(ps, "address", tok[3], &bf->addr) ||
        !opts_known(ps, tok, ntok, 4, keys)) {
        return false;
    }
    for (int i = 4; i < ntok; i++) {
        bf->per_core |= !strcmp(tok[i], "per-core");
    }
    v = opt_val(tok, ntok, 4, "group");
    if (v) {
        bf->group = xstrdup(v);     /* resolved by ttr_prog_layout() */
    }
    if (bf->mem == TTR_DRAM && bf->group) {
        return perr(ps, "%s: group= is for L1 buffers", bf->name);
    }
    if (bf->mem == TTR_DRAM) {
        v = opt_val(tok, ntok, 4, "page");
        if (!v) {
            return perr(ps, "%s: a GDDR buffer needs page=", bf->name);
        }
        if (!parse_u32(ps, "page", v, &bf->page)) {
            return false;
        }
        if (!bf->page || bf->page % 64 || bf->addr % 64) {
            return perr(ps, "%s: GDDR address 0x%x and page size %u must be "
                        "multiples of 64 (DRAM_ALIGNMENT)", bf->name,
                        bf->addr, bf->page);
        }
        if (bf->per_core) {
            return perr(ps, "%s: per-core is for L1 inputs", bf->name);
        }
    } else if (opt_val(tok, ntok, 4, "page")) {
        return perr(ps, "%s: page= is for GDDR buffers", bf->name);
    }
    if (output && bf->per_core) {
        return perr(ps, "%s: per-core is for inputs (an output's expect= "
                    "file holds one slice, or one per core)", bf->name);
    }
    if (output) {
        v = opt_val(tok, ntok, 4, "size");
        if (!v) {
            return perr(ps, "%s: an output needs size=", bf->name);
        }
        if (!parse_u32(ps, "size", v, &bf->size)) {
            return false;
        }
        v = opt_val(tok, ntok, 4, "expect");
        if (v) {
            bf->expect = path_rel(ps, v);
        }
        if (opt_val(tok, ntok, 4, "file")) {
            return perr(ps, "%s: an output takes expect=, not file=",
                        bf->name);
        }
    } else {
        v = opt_val(tok, ntok, 4, "file");
        if (!v) {
            return perr(ps, "%s: an input needs file=", bf->name);
        }
        bf->file = path_rel(ps, v);
        if (opt_val(tok, ntok, 4, "size") || opt_val(tok, ntok, 4,
                                                     "expect")) {
            return perr(ps, "%s: an input's size is its file's", bf->name);
        }
    }
    p->nbufs++;
    return true;
}

/* a number in [0, @max), or -1 */
static int parse_index(const char *s, int max)
{
    char *end;
    long v;

    if (!isdigit((unsigned char)*s)) {
        return -1;
    }
    v = strtol(s, &end, 0);
    return *end || v >= max ? -1 : (int)v;
}

/* erisc CHANNEL|link:CHIP FILE|NAME [EXPR...] */
static bool parse_erisc(TTRParse *ps, char **tok, int ntok)
{
    TTRProgram *p = ps->p;
    TTREth *e = &p->eth[p->neth];

    if (ntok < 3) {
        return perr(ps, "erisc CHANNEL|link:CHIP FILE|NAME [EXPR...]");
    }
    if (p->neth == TTR_ETH_CHANNELS) {
        return perr(ps, "more than %d ERISC kernels on one chip",
                    TTR_ETH_CHANNELS);
    }
    e->channel = e->peer = -1;
    if (!strncmp(tok[1], "link:", 5)) {
        e->peer = parse_index(tok[1] + 5, TTR_MAX_CHIPS);
        if (e->peer < 0 || e->peer == ps->want) {
            return perr(ps, "%s: link:CHIP names another chip, 0-%d",
                        tok[1], TTR_MAX_CHIPS - 1);
        }
        p->chips |= 1u << e->peer;      /* the program needs that chip */
    } else {
        e->channel = parse_index(tok[1], TTR_ETH_CHANNELS);
        if (e->channel < 0) {
            return perr(ps, "%s: an Ethernet channel 0-%d or link:CHIP",
                        tok[1], TTR_ETH_CHANNELS - 1);
        }
    }
    if (strchr(tok[2], '/') || strstr(tok[2], ".elf")) {
        e->image.path = path_rel(ps, tok[2]);
    } else if (asprintf(&e->image.path, "%s/%s.erisc.elf", ps->kdir,
                        tok[2]) < 0) {
        tt_host_die("tt-run", "out of memory");
    }
    if (ntok - 3 > ETH_K_MAX_ARGS) {
        return perr(ps, "more than %d ERISC kernel arguments",
                    ETH_K_MAX_ARGS);
    }
    for (int i = 3; i < ntok; i++) {
        e->args.expr[e->args.n++] = xstrdup(tok[i]);
    }
    p->neth++;
    return true;
}

static bool parse_line(TTRParse *ps, char **tok, int ntok)
{
    TTRProgram *p = ps->p;
    TTRGroup *g = p->ngroups ? &p->group[p->ngroups - 1] : NULL;
    int r;

    if (!strcmp(tok[0], "chip")) {
        ps->cur = ntok == 2 ? parse_index(tok[1], TTR_MAX_CHIPS) : -1;
        if (ps->cur < 0) {
            return perr(ps, "chip N, 0-%d", TTR_MAX_CHIPS - 1);
        }
        p->chips |= 1u << ps->cur;
        return true;
    }
    if (ps->cur != ps->want) {
        /* another chip's part; the chips it links to are the program's */
        r = ntok > 1 && !strcmp(tok[0], "erisc") &&
            !strncmp(tok[1], "link:", 5) ?
            parse_index(tok[1] + 5, TTR_MAX_CHIPS) : -1;
        if (r >= 0) {
            p->chips |= 1u << r;
        }
        return true;
    }
    if (!strcmp(tok[0], "erisc")) {
        return parse_erisc(ps, tok, ntok);
    }
    if (!strcmp(tok[0], "group")) {
        return ntok < 2 ? perr(ps, "group NAME RANGE...")
                        : parse_group(ps, tok, ntok, true);
    } else if (!strcmp(tok[0], "cores")) {
        return parse_group(ps, tok, ntok, false);
    } else if (!strcmp(tok[0], "cb")) {
        return parse_cb(ps, tok, ntok);
    } else if (!strcmp(tok[0], "sem")) {
        return parse_sem(ps, tok, ntok);
    } else if (!strcmp(tok[0], "input") || !strcmp(tok[0], "output")) {
        return parse_buffer(ps, tok, ntok, tok[0][0] == 'o');
    } else if (strcmp(tok[0], "kernel") && strcmp(tok[0], "rta")) {
        return perr(ps, "unknown directive '%s'", tok[0]);
    }
    if (!g) {
        return perr(ps, "%s before any 'cores' or 'group' line", tok[0]);
    }
    if (ntok < 2) {
        return perr(ps, "%s: core role expected", tok[0]);
    }
    r = parse_role(ps, tok[1]);
    if (r < 0) {
        return false;
    }
    if (!strcmp(tok[0], "kernel")) {
        if (ntok != 3) {
            return perr(ps, "kernel ROLE FILE|NAME");
        }
        if (g->kernel[r].path) {
            return perr(ps, "group '%s' has a %s kernel already", g->name,
                        tok[1]);
        }
        if (strchr(tok[2], '/') || strstr(tok[2], ".elf")) {
            g->kernel[r].path = path_rel(ps, tok[2]);
        } else if (asprintf(&g->kernel[r].path, "%s/%s.%s.elf", ps->kdir,
                            tok[2], tok[1]) < 0) {
            tt_host_die("tt-run", "out of memory");
        }
        return true;
    }
    for (int i = 2; i < ntok; i++) {
        if (g->rta[r].n == TTR_MAX_ARGS) {
            return perr(ps, "more than %d runtime arguments", TTR_MAX_ARGS);
        }
        g->rta[r].expr[g->rta[r].n++] = xstrdup(tok[i]);
    }
    return true;
}

bool ttr_prog_parse(TTRProgram *p, const char *path, const char *kdir,
                    const TTRBoard *b, char *err, size_t errlen)
{
    return ttr_prog_parse_chip(p, path, kdir, b, 0, err, errlen);
}

bool ttr_prog_parse_chip(TTRProgram *p, const char *path, const char *kdir,
                         const TTRBoard *b, int chip, char *err,
                         size_t errlen)
{
    TTRParse ps = {
        .p = p, .b = b, .kdir = kdir, .err = err, .errlen = errlen,
        .want = chip,
    };
    char *dup, *line = NULL;
    size_t cap = 0;
    FILE *f;
    bool ok = true;

    memset(p, 0, sizeof(*p));
    p->path = xstrdup(path);
    p->chip = chip;
    p->chips = 1;           /* what precedes any 'chip' line: chip 0's */
    dup = xstrdup(path);
    snprintf(ps.dir, sizeof(ps.dir), "%s", dirname(dup));
    free(dup);
    f = fopen(path, "r");
    if (!f) {
        return ttr_fail(err, errlen, "%s: %s", path, strerror(errno));
    }
    while (ok && getline(&line, &cap, f) >= 0) {
        char *tok[TTR_MAX_ARGS + 4], *save, *t;
        int ntok = 0;

        ps.line++;
        t = strchr(line, '#');
        if (t) {
            *t = 0;
        }
        for (t = strtok_r(line, " \t\r\n", &save); t;
             t = strtok_r(NULL, " \t\r\n", &save)) {
            if (ntok == TTR_MAX_ARGS + 4) {
                ok = perr(&ps, "too many words");
                break;
            }
            tok[ntok++] = t;
        }
        if (ok && ntok) {
            ok = parse_line(&ps, tok, ntok);
        }
    }
    free(line);
    fclose(f);
    /* a part of a program that spans chips may leave a chip idle */
    if (ok && !p->ngroups && !p->neth && p->chips == 1 && !chip) {
        ps.line = 0;
        ok = perr(&ps, "no 'cores' or 'group' line: the program runs "
                  "nowhere");
    }
    return ok;
}

/* ------------------------------------------------ layout and images */

/* Tensix-tile rectangles covering group @g's cores, each column's runs */
static void group_rects(TTRGroup *g, const TTRBoard *b)
{
    bool in[32][12] = { { false } };

    g->nrects = 0;
    for (int k = 0; k < g->ncores; k++) {
        in[b->x[g->core[k]]][b->y[g->core[k]]] = true;
    }
    for (int k = 0; k < g->ncores; k++) {
        int x = b->x[g->core[k]], y = b->y[g->core[k]], y1 = y, x1 = x;
        TTRRect *r;
        bool grow = true;

        if (!in[x][y]) {
            continue;       /* already covered */
        }
        while (y1 + 1 <= 11 && in[x][y1 + 1]) {
            y1++;
        }
        /* extend right over columns with the same run, skipping gaps */
        while (grow) {
            int nx = x1 + 1;

            while (nx < 32 && !(b->colmask & (1u << nx))) {
                nx++;
            }
            grow = nx < 32;
            for (int yy = y; grow && yy <= y1; yy++) {
                grow = in[nx][yy];
            }
            if (grow) {
                x1 = nx;
            }
        }
        r = &g->rect[g->nrects];
        *r = (TTRRect) { .x0 = x, .y0 = y, .x1 = x1, .y1 = y1 };
        r->n = rect_tiles(b, r, -1);
        for (int xx = x; xx <= x1; xx++) {
            for (int yy = y; yy <= y1; yy++) {
                in[xx][yy] = false;
            }
        }
        if (++g->nrects == TTR_MAX_RECTS) {
            /* the rest as single tiles would overflow: merge no further */
            break;
        }
    }
}

typedef struct TTRRange {
    uint32_t lo, hi;
    char what[80];
    int kind;                   /* 0 reserved, 1 CB, 2 input, 3 output */
    int gidx;                   /* L1 buffers: on this group only; else -1 */
} TTRRange;

static bool ranges_check(TTRRange *r, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            bool in_place = (r[i].kind == 2 && r[j].kind == 3) ||
                            (r[i].kind == 3 && r[j].kind == 2);
            /* buffers of two different groups are on different cores */
            bool apart = r[i].gidx >= 0 && r[j].gidx >= 0 &&
                         r[i].gidx != r[j].gidx;

            if (r[i].lo < r[j].hi && r[j].lo < r[i].hi && !in_place &&
                !apart) {
                return ttr_fail(err, errlen, "%s [0x%x, 0x%x) overlaps %s "
                                "[0x%x, 0x%x)", r[i].what, r[i].lo, r[i].hi,
                                r[j].what, r[j].lo, r[j].hi);
            }
        }
    }
    return true;
}

static int buf_cores(const TTRProgram *p, const TTRBuffer *bf)
{
    return bf->gidx < 0 ? p->ncores : p->group[bf->gidx].ncores;
}

static bool load_buffers(TTRProgram *p, const TTRBoard *b, char *err,
                         size_t errlen)
{
    for (int i = 0; i < p->nbufs; i++) {
        TTRBuffer *bf = &p->buf[i];
        const char *file = bf->output ? bf->expect : bf->file;
        int n;
        size_t sz;

        bf->gidx = bf->group ? group_find(p, bf->group) : -1;
        if (bf->group && bf->gidx < 0) {
            return ttr_fail(err, errlen, "buffer %s: no group '%s'", bf->name,
                            bf->group);
        }
        n = buf_cores(p, bf);
        if (file) {
            bf->data = tt_host_read_file(file, 1u << 30, &sz);
            if (!bf->data) {
                return ttr_fail(err, errlen, "buffer %s: %s: %s", bf->name,
                                file, strerror(errno));
            }
            bf->data_size = sz;
        }
        if (!bf->output) {
            bf->size = bf->data_size;
            if (bf->per_core) {
                if (bf->data_size % n) {
                    return ttr_fail(err, errlen, "buffer %s: %u bytes do not "
                                    "split into %d per-core slices", bf->name,
                                    bf->data_size, n);
                }
                bf->size = bf->data_size / n;
            }
        } else if (file && bf->data_size != bf->size &&
                   (bf->mem == TTR_DRAM ||
                    bf->data_size != (uint64_t)bf->size * n)) {
            return ttr_fail(err, errlen, "buffer %s: %s has %u bytes, expected "
                            "%u%s", bf->name, file, bf->data_size, bf->size,
                            bf->mem == TTR_L1 ? " (or that per core)" : "");
        }
        if (!bf->size) {
            return ttr_fail(err, errlen, "buffer %s is empty", bf->name);
        }
        if (bf->mem == TTR_L1 &&
            (bf->addr < USER_L1_BASE || bf->addr >= TT_L1_SIZE ||
             bf->size > TT_L1_SIZE - bf->addr)) {
            return ttr_fail(err, errlen, "buffer %s [0x%x, +0x%x) is not in "
                            "the program L1 area [0x%x, 0x%x)", bf->name,
                            bf->addr, bf->size, USER_L1_BASE, TT_L1_SIZE);
        }
        if (bf->mem == TTR_DRAM) {
            uint64_t pages = (bf->size + bf->page - 1) / bf->page;
            uint64_t end = bf->addr +
                           (pages + b->nbanks - 1) / b->nbanks * bf->page;

            if (end > 0xffffffffull) {
                return ttr_fail(err, errlen, "buffer %s: past 4 GiB in its "
                                "banks", bf->name);
            }
        }
    }
    return true;
}

/* GDDR buffers: per-bank ranges must not overlap (in place excepted) */
static bool dram_check(const TTRProgram *p, const TTRBoard *b, char *err,
                       size_t errlen)
{
    TTRRange r[TTR_MAX_BUFS];
    int n = 0;

    for (int i = 0; i < p->nbufs; i++) {
        const TTRBuffer *bf = &p->buf[i];
        uint32_t pages;

        if (bf->mem != TTR_DRAM) {
            continue;
        }
        pages = (bf->size + bf->page - 1) / bf->page;
        r[n].lo = bf->addr;
        r[n].hi = bf->addr + (pages + b->nbanks - 1) / b->nbanks * bf->page;
        r[n].kind = bf->output ? 3 : 2;
        r[n].gidx = -1;
        snprintf(r[n++].what, sizeof(r[0].what), "GDDR buffer %s (in "
                 "each bank)", bf->name);
    }
    return ranges_check(r, n, err, errlen);
}

bool ttr_prog_layout(TTRProgram *p, const TTRBoard *b, const TTRLayout *l,
                     const bool *reserved, char *err, size_t errlen)
{
    int owner[TTR_MAX_TILES];
    uint32_t args[TTR_MAX_ARGS], off, cursor = USER_L1_BASE, kmax = 0;
    TTRRange r[2 + TTR_MAX_CBS + TTR_MAX_BUFS];
    int nr = 0, all = -1;

    for (int t = 0; t < b->ntiles; t++) {
        owner[t] = -1;
    }
    /* cores: on the board, not reserved, in one group only */
    for (int g = 0; g < p->ngroups; g++) {
        TTRGroup *gr = &p->group[g];

        if (gr->ncores < 0) {
            if (all >= 0) {
                return ttr_fail(err, errlen, "groups %s and %s both take 'all' "
                                "cores", p->group[all].name, gr->name);
            }
            all = g;
            continue;
        }
        for (int k = 0; k < gr->ncores; k++) {
            int t = gr->core[k];

            if (reserved && reserved[t]) {
                return ttr_fail(err, errlen, "group %s: core (%d,%d) runs the "
                                "fast-dispatch prefetcher or dispatcher "
                                "(%d,%d)/(%d,%d)", gr->name, b->x[t], b->y[t],
                                b->prefetch_x, b->prefetch_y, b->dispatch_x,
                                b->dispatch_y);
            }
            if (owner[t] >= 0) {
                return ttr_fail(err, errlen, "core (%d,%d) is in groups %s and "
                                "%s", b->x[t], b->y[t], p->group[owner[t]].name,
                                gr->name);
            }
            owner[t] = g;
        }
    }
    if (all >= 0) {
        TTRGroup *gr = &p->group[all];

        gr->ncores = 0;
        for (int t = 0; t < b->ntiles; t++) {
            if (owner[t] < 0 && !(reserved && reserved[t])) {
                gr->core[gr->ncores++] = t;
            }
        }
        if (!gr->ncores) {
            return ttr_fail(err, errlen, "group %s: 'all' leaves no core",
                            gr->name);
        }
    }
    p->ncores = 0;
    for (int g = 0; g < p->ngroups; g++) {
        TTRGroup *gr = &p->group[g];
        bool any = false, trisc = false, alltrisc = true;

        p->ncores += gr->ncores;
        group_rects(gr, b);
        for (int ro = 0; ro < TTR_ROLES; ro++) {
            any |= gr->kernel[ro].path != NULL;
            if (ro >= TTR_TRISC0) {
                trisc |= gr->kernel[ro].path != NULL;
                alltrisc &= gr->kernel[ro].path != NULL;
            }
            if (gr->kernel[ro].path &&
                !kernel_load(&gr->kernel[ro], l->kcb_end - l->kcb_base, err,
                             errlen)) {
                return false;
            }
        }
        /* in a program that spans chips, a group may only hold buffers */
        if (!any && !p->data_only && p->chips == 1 && !p->neth) {
            return ttr_fail(err, errlen, "group %s runs no kernel", gr->name);
        }
        if (trisc && !alltrisc && !l->trisc_enable_per_core) {
            return ttr_fail(err, errlen, "group %s: the %s layout enables the "
                            "three TRISCs together; give all three kernels",
                            gr->name, l->name);
        }
    }
    for (int i = 0; i < p->neth; i++) {
        uint32_t words[ETH_K_MAX_ARGS];
        char msg[512];

        if (!eth_image_load(&p->eth[i].image, err, errlen)) {
            return false;
        }
        /* arguments checked now; the tile's {x} {y} are known later */
        if (args_eval(p, b, -1, 0, 0, 0, 0, &p->eth[i].args, words, msg,
                      sizeof(msg)) < 0) {
            return ttr_fail(err, errlen, "%s: %s", p->eth[i].image.path, msg);
        }
    }
    if (!load_buffers(p, b, err, errlen) || !dram_check(p, b, err, errlen)) {
        return false;
    }
    if (p->ncbs > l->num_cbs) {
        return ttr_fail(err, errlen, "CB %d: the %s layout has CBs 0-%d",
                        p->ncbs - 1, l->name, l->num_cbs - 1);
    }
    /* runtime argument space: the largest count per role, all cores */
    for (int g = 0; g < p->ngroups; g++) {
        for (int k = 0; k < p->group[g].ncores; k++) {
            for (int ro = 0; ro < TTR_ROLES; ro++) {
                int n = args_eval(p, b, g, k, ttr_prog_core_index(p, g, k),
                                  -1, -1,
                                  &p->group[g].rta[ro], args, err, errlen);
                char msg[512];

                if (n < 0) {
                    snprintf(msg, sizeof(msg), "group %s, %s: %s",
                             p->group[g].name, ttr_role_name[ro], err);
                    return ttr_fail(err, errlen, "%s", msg);
                }
                p->rta_words[ro] = (uint32_t)n > p->rta_words[ro]
                                   ? (uint32_t)n : p->rta_words[ro];
            }
        }
    }
    off = 0;
    for (int ro = 0; ro < TTR_ROLES; ro++) {
        p->rta_off[ro] = off;
        off = align_up(off + 4 * p->rta_words[ro], 16);
    }
    p->crta_off = off;
    p->sem_off = off;
    p->cb_off = p->sem_off + 16 * p->nsems;
    p->remote_cb_off = p->cb_off + 16 * p->ncbs;
    /*
     * kernel text from a page of its own: rewriting arguments, semaphores
     * and CBs for the next launch does not touch pages holding code (an
     * emulator invalidates what it translated from a page written to)
     */
    p->text_off = align_up(l->kcb_base + p->remote_cb_off, 4096) -
                  l->kcb_base;
    for (int g = 0; g < p->ngroups; g++) {
        TTRGroup *gr = &p->group[g];

        off = p->text_off;
        for (int ro = 0; ro < TTR_ROLES; ro++) {
            if (gr->kernel[ro].data) {
                gr->text_off[ro] = off;
                off += gr->kernel[ro].size;
            }
        }
        gr->image_size = off;
        if (l->kcb_base + off > l->kcb_end) {
            return ttr_fail(err, errlen, "group %s: kernel configuration of %u "
                            "bytes (arguments, semaphores, CBs, kernels) "
                            "exceeds the %u-byte area at 0x%x", gr->name, off,
                            l->kcb_end - l->kcb_base, l->kcb_base);
        }
        kmax = off > kmax ? off : kmax;
    }
    /* L1: kernel configuration, CBs (placed or allocated), buffers */
    r[nr++] = (TTRRange) { l->kcb_base, l->kcb_base + kmax,
                           "the kernel configuration", 0, -1 };
    for (int i = 0; i < p->ncbs; i++) {
        TTRCb *cb = &p->cb[i];

        if (cb->used && cb->placed) {
            uint32_t end = cb->addr + cb->pages * cb->page_size;

            cursor = end > cursor ? align_up(end, 64) : cursor;
        }
    }
    for (int i = 0; i < p->ncbs; i++) {
        TTRCb *cb = &p->cb[i];

        if (!cb->used) {
            continue;
        }
        if (!cb->placed) {
            for (int j = 0; j < p->nbufs; j++) {
                const TTRBuffer *bf = &p->buf[j];

                if (bf->mem == TTR_L1 && bf->addr < cursor + cb->pages *
                    cb->page_size && cursor < bf->addr + bf->size) {
                    cursor = align_up(bf->addr + bf->size, 64);
                    j = -1;     /* again from the first buffer */
                }
            }
            cb->addr = cursor;
            cursor = align_up(cursor + cb->pages * cb->page_size, 64);
        }
        if (cb->addr < USER_L1_BASE ||
            (uint64_t)cb->addr + cb->pages * cb->page_size > TT_L1_SIZE) {
            return ttr_fail(err, errlen, "CB %d [0x%x, +0x%x) is not in the "
                            "program L1 area [0x%x, 0x%x)", i, cb->addr,
                            cb->pages * cb->page_size, USER_L1_BASE,
                            TT_L1_SIZE);
        }
        r[nr] = (TTRRange) { cb->addr, cb->addr + cb->pages * cb->page_size,
                             "", 1, -1 };
        snprintf(r[nr++].what, sizeof(r[0].what), "CB %d", i);
    }
    for (int i = 0; i < p->nbufs; i++) {
        const TTRBuffer *bf = &p->buf[i];

        if (bf->mem != TTR_L1) {
            continue;
        }
        r[nr] = (TTRRange) { bf->addr, bf->addr + bf->size, "",
                             bf->output ? 3 : 2, bf->gidx };
        snprintf(r[nr++].what, sizeof(r[0].what), "L1 %s %s",
                 bf->output ? "output" : "input", bf->name);
    }
    return ranges_check(r, nr, err, errlen);
}

int ttr_prog_core_index(const TTRProgram *p, int g, int k)
{
    int ci = k;

    for (int i = 0; i < g; i++) {
        ci += p->group[i].ncores;
    }
    return ci;
}

bool ttr_prog_image(const TTRProgram *p, const TTRBoard *b,
                    const TTRLayout *l, int g, int ci, uint8_t *out,
                    char *err, size_t errlen)
{
    const TTRGroup *gr = &p->group[g];
    int k = ci - ttr_prog_core_index(p, g, 0);
    uint32_t args[TTR_MAX_ARGS];

    memset(out, 0, gr->image_size);
    for (int ro = 0; ro < TTR_ROLES; ro++) {
        int n = args_eval(p, b, g, k, ci, -1, -1, &gr->rta[ro], args, err,
                          errlen);

        if (n < 0) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            put32(out + p->rta_off[ro] + 4 * i, args[i]);
        }
        if (gr->kernel[ro].data) {
            memcpy(out + gr->text_off[ro], gr->kernel[ro].data,
                   gr->kernel[ro].size);
        }
    }
    for (int s = 0; s < p->nsems; s++) {
        put32(out + p->sem_off + 16 * s,
              gr->sem_set[s] ? gr->sem_val[s] : p->sem_init[s]);
    }
    for (int i = 0; i < p->ncbs; i++) {
        const TTRCb *cb = &p->cb[i];
        uint8_t *c = out + p->cb_off + 16 * i;

        if (cb->used) {
            put32(c, cb->addr);
            put32(c + 4, cb->pages * cb->page_size);
            put32(c + 8, cb->pages);
            put32(c + 12, cb->page_size);
        }
    }
    return true;
}

void ttr_prog_launch_msg(const TTRProgram *p, const TTRLayout *l, int g,
                         bool dev_mode, uint8_t *out)
{
    const TTRGroup *gr = &p->group[g];
    uint64_t mask = 0;
    uint32_t enables = 0;

    memset(out, 0, l->launch_size);
    for (int i = 0; i < l->pct_count; i++) {
        put32(out + l->lm_kcb + 4 * i, l->kcb_base);
        put16(out + l->lm_sem + 2 * i, p->sem_off);
    }
    put16(out + l->lm_local_cb, p->cb_off);
    put16(out + l->lm_remote_cb, p->remote_cb_off);
    for (int ro = 0; ro < TTR_ROLES; ro++) {
        put16(out + l->lm_rta + 4 * ro, p->rta_off[ro]);
        put16(out + l->lm_rta + 4 * ro + 2, p->crta_off);
        if (gr->kernel[ro].data) {
            put32(out + l->lm_kto + 4 * ro, gr->text_off[ro]);
            enables |= ro < TTR_TRISC0 || l->trisc_enable_per_core
                       ? 1u << ro : 1u << 2;
        }
    }
    out[l->lm_mode] = dev_mode ? DISPATCH_MODE_DEV : DISPATCH_MODE_HOST;
    for (int i = 0; i < p->ncbs; i++) {
        mask |= (uint64_t)p->cb[i].used << i;
    }
    put32(out + l->lm_cb_mask, mask);
    if (l->lm_cb_mask_bytes == 8) {
        put32(out + l->lm_cb_mask + 4, mask >> 32);
    }
    out[l->lm_noc_id] = 0;
    out[l->lm_min_remote] = l->num_cbs;
    put32(out + l->lm_enables, enables);
}

void ttr_prog_free(TTRProgram *p)
{
    for (int g = 0; g < p->ngroups; g++) {
        TTRGroup *gr = &p->group[g];

        free(gr->name);
        for (int ro = 0; ro < TTR_ROLES; ro++) {
            free(gr->kernel[ro].path);
            free(gr->kernel[ro].data);
            for (int i = 0; i < gr->rta[ro].n; i++) {
                free(gr->rta[ro].expr[i]);
            }
        }
    }
    for (int i = 0; i < p->nbufs; i++) {
        free(p->buf[i].name);
        free(p->buf[i].file);
        free(p->buf[i].expect);
        free(p->buf[i].group);
        free(p->buf[i].data);
    }
    for (int i = 0; i < p->neth; i++) {
        free(p->eth[i].image.path);
        free(p->eth[i].image.data);
        for (int j = 0; j < p->eth[i].args.n; j++) {
            free(p->eth[i].args.expr[j]);
        }
    }
    free(p->path);
    memset(p, 0, sizeof(*p));
}

/* ------------------------------------------------------------ device */

bool ttr_open(TTRDevice *d, const char *libpath, const TTRBoard *b,
              const TTRLayout *l, char *err, size_t errlen)
{
    uint32_t id;
    char msg[256];
    FILE *log = fmemopen(msg, sizeof(msg), "w");
    int missing = tt_host_lib_open(&d->lib, libpath, false, log, "");

    fclose(log);
    if (missing) {
        return ttr_fail(err, errlen, "%s", msg);
    }
    d->board = b;
    d->layout = l;
    d->ttsim = tt_host_is_ttsim(libpath);
    if (!d->timeout) {
        d->timeout = 60;
    }
    if (!d->clocks) {
        d->clocks = 10000;
    }
    id = tt_host_start(&d->lib, ttr_dma_rd, ttr_dma_wr);
    if (id != TT_HOST_BH_ID) {
        return ttr_fail(err, errlen, "%s: PCI id 0x%08x is not a Blackhole "
                        "(1e52:b140)", libpath, id);
    }
    for (int t = 0; t < b->ntiles; t++) {
        tt_host_tlb_unicast(&d->lib, TTR_WIN_TILE0 + t, b->x[t], b->y[t], 0);
    }
    return true;
}

void ttr_close(TTRDevice *d)
{
    if (d->lib.handle && !d->chip) {
        d->lib.exit();
    }
}

bool ttr_open_chip(TTRDevice *d, const TTRDevice *first, int chip,
                   char *err, size_t errlen)
{
    uint32_t id;

    *d = *first;
    d->cq = NULL;
    d->resident = NULL;
    d->chip = chip;
    d->lib.bdf = chip << 3;
    id = d->lib.cfg_rd(d->lib.bdf, 0);
    if (id != TT_HOST_BH_ID) {
        d->lib.handle = NULL;
        return ttr_fail(err, errlen, "%s: no chip %d (PCI device %d reads "
                        "0x%08x): the program needs a library with %d chips",
                        first->lib.path, chip, chip, id, chip + 1);
    }
    d->lib.bar0 = tt_host_bar_base(&d->lib, 0x10);
    for (int t = 0; t < d->board->ntiles; t++) {
        tt_host_tlb_unicast(&d->lib, TTR_WIN_TILE0 + t, d->board->x[t],
                            d->board->y[t], 0);
    }
    return true;
}

void ttr_poll(TTRDevice *d)
{
    d->lib.clock(d->clocks);
}

void ttr_l1_write(TTRDevice *d, int t, uint32_t addr, const void *buf,
                  uint32_t len)
{
    d->lib.mem_wr(tt_host_win(&d->lib, TTR_WIN_TILE0 + t, addr), buf, len);
}

void ttr_l1_read(TTRDevice *d, int t, uint32_t addr, void *buf, uint32_t len)
{
    d->lib.mem_rd(tt_host_win(&d->lib, TTR_WIN_TILE0 + t, addr), buf, len);
}

uint32_t ttr_l1_rd32(TTRDevice *d, int t, uint32_t addr)
{
    return tt_host_rd32(&d->lib, tt_host_win(&d->lib, TTR_WIN_TILE0 + t,
                                             addr));
}

void ttr_l1_wr32(TTRDevice *d, int t, uint32_t addr, uint32_t v)
{
    tt_host_wr32(&d->lib, tt_host_win(&d->lib, TTR_WIN_TILE0 + t, addr), v);
}

uint32_t ttr_reg_rd32(TTRDevice *d, int t, uint32_t addr)
{
    return tt_host_rd32(&d->lib, tt_host_tlb_unicast(&d->lib, TTR_WIN_REG,
                                                     d->board->x[t],
                                                     d->board->y[t], addr));
}

void ttr_reg_wr32(TTRDevice *d, int t, uint32_t addr, uint32_t v)
{
    tt_host_wr32(&d->lib, tt_host_tlb_unicast(&d->lib, TTR_WIN_REG,
                                              d->board->x[t],
                                              d->board->y[t], addr), v);
}

void ttr_mcast_write(TTRDevice *d, const TTRRect *r, uint32_t addr,
                     const void *buf, uint32_t len)
{
    TTHostTarget tg = { r->x0, r->y0, r->x1, r->y1, true };
    const uint8_t *p = buf;

    if (r->n == 1 || (r->x0 == r->x1 && r->y0 == r->y1)) {
        /* one tile: unicast (ttsim wants no start coordinates there) */
        tg = (TTHostTarget) { .x1 = r->x1, .y1 = r->y1 };
    }
    while (len) {
        uint32_t room = TT_HOST_WIN_SIZE - (addr & (TT_HOST_WIN_SIZE - 1));
        uint32_t n = len < room ? len : room;

        d->lib.mem_wr(tt_host_tlb_set(&d->lib, TTR_WIN_MCAST, &tg, addr), p,
                      n);
        p += n;
        addr += n;
        len -= n;
    }
}

static void board_rect(const TTRBoard *b, TTRRect *r)
{
    *r = (TTRRect) { 1, 2, b->x[b->ntiles - 1], 11, b->ntiles };
}

static void dram_xfer(TTRDevice *d, uint32_t addr, uint32_t page, uint8_t *buf,
                      uint32_t len, bool write)
{
    const TTRBoard *b = d->board;

    for (uint32_t pg = 0; pg * page < len; pg++) {
        int bank = pg % b->nbanks;
        uint32_t xy = ttr_bank_xy(b, bank, 0);
        uint32_t a = addr + pg / b->nbanks * page;
        uint32_t n = len - pg * page < page ? len - pg * page : page;

        if (write) {
            tt_host_noc_write(&d->lib, TTR_WIN_DRAM, xy & 63, xy >> 6, a,
                              buf + pg * page, n);
        } else {
            tt_host_noc_read(&d->lib, TTR_WIN_DRAM, xy & 63, xy >> 6, a,
                             buf + pg * page, n);
        }
    }
}

void ttr_dram_write(TTRDevice *d, uint32_t addr, uint32_t page,
                    const void *buf, uint32_t len)
{
    dram_xfer(d, addr, page, (uint8_t *)buf, len, true);
}

void ttr_dram_read(TTRDevice *d, uint32_t addr, uint32_t page, void *buf,
                   uint32_t len)
{
    dram_xfer(d, addr, page, buf, len, false);
}

/* -------------------------------------------------------------- boot */

/*
 * The bank-to-NOC table tt-metal's noc_bank_table_init() copies: DRAM
 * and L1 bank coordinates for both NOCs, then the two offset arrays
 * (zero), as the machine's firmware= boot writes it
 */
static uint8_t *bank_table(const TTRBoard *b, const TTRLayout *l,
                           uint32_t *size)
{
    int nd = l->table_dram_banks ? l->table_dram_banks : b->nbanks;
    int nl = l->table_l1_banks ? l->table_l1_banks : b->ntiles;
    int ncols = b->ntiles / 10;
    uint8_t *t, *p;

    *size = (2 * 2 + 4) * (nd + nl);
    t = p = tt_host_xcalloc("tt-run", *size);
    for (int noc = 0; noc < 2; noc++) {
        for (int k = 0; k < nd; k++, p += 2) {
            put16(p, ttr_bank_xy(b, k % b->nbanks, noc));
        }
    }
    for (int noc = 0; noc < 2; noc++) {
        for (int i = 0; i < nl; i++, p += 2) {
            put16(p, XY(b->x[10 * (i % ncols)], 2 + (i / ncols) % 10));
        }
    }
    return t;
}

/* JAL x0 to @fw at L1 0 (tt-metal hal.cpp generate_risc_startup_addr) */
static uint32_t jal_to(uint32_t fw)
{
    return ((fw & 0x7fe) << 20) | ((fw & 0x800) << 9) | (fw & 0xff000) |
           0x6f;
}

static int go_signal(TTRDevice *d, int t)
{
    return ttr_l1_rd32(d, t, d->layout->go_msg) >> 24;
}

/* Poll tiles @tiles until every go message reads DONE; those left */
int ttr_wait_done(TTRDevice *d, const int *tiles, int n, double timeout)
{
    bool done[TTR_MAX_TILES] = { false };
    double deadline = tt_host_now() + timeout;
    int left = n;

    for (;;) {
        for (int i = 0; i < n; i++) {
            if (!done[i] && go_signal(d, tiles[i]) == RUN_MSG_DONE) {
                done[i] = true;
                left--;
            }
        }
        if (!left || tt_host_now() > deadline) {
            return left;
        }
        ttr_poll(d);
    }
}

bool ttr_boot(TTRDevice *d, const char *fwdir, char *err, size_t errlen)
{
    const TTRBoard *b = d->board;
    const TTRLayout *l = d->layout;
    uint8_t *file[TTR_ROLES] = { NULL }, *table, zero[0x500] = { 0 };
    TTRSeg seg[TTR_ROLES][TTR_MAX_SEGS];
    int nseg[TTR_ROLES], tiles[TTR_MAX_TILES], left;
    uint32_t entry, size;
    double boot_timeout;
    size_t fsize;
    TTRRect all;
    bool ok = true;

    /* every ELF checked before anything is written */
    for (int ro = 0; ro < TTR_ROLES && ok; ro++) {
        uint32_t ldm = ro < TTR_TRISC0 ? 0x2000 : 0x1000;
        char path[PATH_MAX];

        snprintf(path, sizeof(path), "%s/%s.elf", fwdir, ttr_role_name[ro]);
        ok = elf_load(path, &file[ro], &fsize, seg[ro], &nseg[ro], &entry,
                      err, errlen);
        if (ok && entry != l->fw_base[ro]) {
            ok = ttr_fail(err, errlen, "%s: entry 0x%x, but the %s layout "
                          "puts %s firmware at 0x%x (another --layout?)",
                          path, entry, l->name, ttr_role_name[ro],
                          l->fw_base[ro]);
        }
        for (int i = 0; ok && i < nseg[ro]; i++) {
            TTRSeg *s = &seg[ro][i];
            bool in_l1 = s->addr < TT_L1_SIZE &&
                         s->memsz <= TT_L1_SIZE - s->addr;
            bool in_ldm = s->addr >= LDM_BASE &&
                          s->memsz <= LDM_BASE + ldm - s->addr;

            if (!in_l1 && !in_ldm) {
                ok = ttr_fail(err, errlen, "%s: segment at 0x%x (%u bytes) is "
                              "neither in L1 nor in the core's %u-byte LDM",
                              path, s->addr, s->memsz, ldm);
            }
        }
    }
    if (!ok) {
        goto out;
    }
    board_rect(b, &all);
    ttr_mcast_write(d, &all, SOFT_RESET_0, &(uint32_t) { HOLD_ALL }, 4);
    /* mailboxes_t from subordinate_sync to go_message_index */
    ttr_mcast_write(d, &all, MB_SUBORDINATE_SYNC, zero,
                    l->go_msg_index + 4 - MB_SUBORDINATE_SYNC);
    for (int ro = 0; ro < TTR_ROLES; ro++) {
        for (int i = 0; i < nseg[ro]; i++) {
            TTRSeg *s = &seg[ro][i];
            uint32_t a = s->addr >= LDM_BASE
                         ? l->ldm_image[ro] + s->addr - LDM_BASE : s->addr;
            uint8_t *img = tt_host_xcalloc("tt-run", s->memsz);

            memcpy(img, s->data, s->filesz);
            ttr_mcast_write(d, &all, a, img, s->memsz);
            free(img);
        }
    }
    table = bank_table(b, l, &size);
    ttr_mcast_write(d, &all, l->bank_table, table, size);
    free(table);
    ttr_mcast_write(d, &all, 0, &(uint32_t) { jal_to(l->fw_base[0]) }, 4);
    ttr_mcast_write(d, &all, l->go_msg,
                    &(uint32_t) { RUN_MSG_INIT << 24 }, 4);
    /* reset PCs as blackhole-py's host writes them; firmware does too */
    for (int k = 0; k < 3; k++) {
        ttr_mcast_write(d, &all, TRISC_RESET_PC(k),
                        &l->fw_base[TTR_TRISC0 + k], 4);
    }
    ttr_mcast_write(d, &all, NCRISC_RESET_PC, &l->fw_base[TTR_NCRISC], 4);
    ttr_mcast_write(d, &all, SOFT_RESET_0, &(uint32_t) { RELEASE_BRISC },
                    4);
    for (int t = 0; t < b->ntiles; t++) {
        tiles[t] = t;
    }
    /* --timeout is for kernels: booting gets at least a minute */
    boot_timeout = d->timeout > 60 ? d->timeout : 60;
    left = ttr_wait_done(d, tiles, b->ntiles, boot_timeout);
    if (left) {
        ok = ttr_fail(err, errlen, "firmware of %s did not boot on %d of %d "
                      "tiles within %.0f s (go message not DONE)", fwdir, left,
                      b->ntiles, boot_timeout);
    }
out:
    for (int ro = 0; ro < TTR_ROLES; ro++) {
        free(file[ro]);
    }
    return ok;
}

/* ----------------------------------------------------- inputs, outputs */

static int buf_tile(const TTRProgram *p, const TTRBuffer *bf, int i)
{
    if (bf->gidx >= 0) {
        return p->group[bf->gidx].core[i];
    }
    for (int g = 0; g < p->ngroups; g++) {
        if (i < p->group[g].ncores) {
            return p->group[g].core[i];
        }
        i -= p->group[g].ncores;
    }
    return -1;
}

bool ttr_write_inputs(TTRDevice *d, const TTRProgram *p, char *err,
                      size_t errlen)
{
    for (int i = 0; i < p->nbufs; i++) {
        const TTRBuffer *bf = &p->buf[i];

        if (bf->output) {
            continue;
        }
        if (bf->mem == TTR_DRAM) {
            ttr_dram_write(d, bf->addr, bf->page, bf->data, bf->size);
        } else if (bf->per_core) {
            for (int k = 0; k < buf_cores(p, bf); k++) {
                ttr_l1_write(d, buf_tile(p, bf, k), bf->addr,
                             bf->data + (size_t)k * bf->size, bf->size);
            }
        } else {
            for (int g = 0; g < p->ngroups; g++) {
                if (bf->gidx >= 0 && bf->gidx != g) {
                    continue;
                }
                for (int r = 0; r < p->group[g].nrects; r++) {
                    ttr_mcast_write(d, &p->group[g].rect[r], bf->addr,
                                    bf->data, bf->size);
                }
            }
        }
    }
    return true;
}

static bool dump_file(const char *dir, const char *name, const void *buf,
                      size_t len, FILE *log)
{
    char path[PATH_MAX];
    FILE *f;
    bool ok;

    snprintf(path, sizeof(path), "%s/%s.bin", dir, name);
    f = fopen(path, "wb");
    ok = f && fwrite(buf, 1, len, f) == len;
    if (f) {
        ok &= !fclose(f);
    }
    if (!ok) {
        fprintf(log, "tt-run: %s: %s\n", path, strerror(errno));
    }
    return ok;
}

/* first differing byte of @got and @want, reported as a 32-bit word */
static bool compare(const char *name, int tile, const TTRBoard *b,
                    const uint8_t *got, const uint8_t *want, uint32_t len,
                    FILE *log)
{
    for (uint32_t i = 0; i < len; i++) {
        if (got[i] != want[i]) {
            uint32_t w = i & ~3u, n = len - w < 4 ? len - w : 4, g = 0, e = 0;

            memcpy(&g, got + w, n);
            memcpy(&e, want + w, n);
            if (tile >= 0) {
                fprintf(log, "tt-run: output %s differs on core (%d,%d) at "
                        "byte 0x%x: 0x%08x, expected 0x%08x\n", name,
                        b->x[tile], b->y[tile], w, g, e);
            } else {
                fprintf(log, "tt-run: output %s differs at byte 0x%x: "
                        "0x%08x, expected 0x%08x\n", name, w, g, e);
            }
            return false;
        }
    }
    return true;
}

int ttr_check_outputs(TTRDevice *d, const TTRProgram *p, const char *dump,
                      FILE *log)
{
    int bad = 0;

    for (int i = 0; i < p->nbufs; i++) {
        const TTRBuffer *bf = &p->buf[i];
        int n = bf->mem == TTR_L1 ? buf_cores(p, bf) : 1;
        uint8_t *got = tt_host_xcalloc("tt-run", (size_t)bf->size * n);
        bool ok = true;

        if (!bf->output) {
            free(got);
            continue;
        }
        if (bf->mem == TTR_DRAM) {
            ttr_dram_read(d, bf->addr, bf->page, got, bf->size);
        } else {
            for (int k = 0; k < n; k++) {
                ttr_l1_read(d, buf_tile(p, bf, k), bf->addr,
                            got + (size_t)k * bf->size, bf->size);
            }
        }
        if (dump) {
            dump_file(dump, bf->name, got, (size_t)bf->size * n, log);
        }
        for (int k = 0; bf->data && ok && k < n; k++) {
            bool each = bf->data_size == bf->size;

            ok = compare(bf->name, bf->mem == TTR_L1 ? buf_tile(p, bf, k) : -1,
                         d->board, got + (size_t)k * bf->size,
                         bf->data + (each ? 0 : (size_t)k * bf->size),
                         bf->size, log);
        }
        bad += !ok;
        free(got);
    }
    return bad;
}

/* ------------------------------------------------------ slow dispatch */

static const char *go_name(uint32_t sig)
{
    switch (sig) {
    case RUN_MSG_DONE:
        return "DONE";
    case RUN_MSG_INIT:
        return "INIT";
    case RUN_MSG_GO:
        return "GO";
    case RUN_MSG_RESET_READ_PTR:
        return "RESET_READ_PTR";
    case RUN_MSG_RESET_READ_PTR_FROM_HOST:
        return "RESET_READ_PTR_FROM_HOST";
    default:
        return "?";
    }
}

/*
 * One line per busy tile, as "info tt" would tell: the go signal, which
 * cores have not reported (subordinate_sync), each core's PC (the PC
 * readback registers; ttsim does not model them) and where it is
 */
static bool report_tile(TTRDevice *d, int t, FILE *log)
{
    const TTRLayout *l = d->layout;
    uint32_t go = ttr_l1_rd32(d, t, l->go_msg);
    uint32_t sync = ttr_l1_rd32(d, t, MB_SUBORDINATE_SYNC);
    char line[512];
    int n;

    if (go >> 24 == RUN_MSG_DONE) {
        return false;
    }
    n = snprintf(line, sizeof(line), "  core (%d,%d): go 0x%08x (%s), "
                 "still running:", d->board->x[t], d->board->y[t], go,
                 go_name(go >> 24));
    for (int ro = 0; ro < TTR_ROLES && n < (int)sizeof(line); ro++) {
        bool busy = ro == TTR_BRISC || ((sync >> (8 * (ro - 1))) & 0xff);
        uint32_t pc;

        if (!busy) {
            continue;
        }
        n += snprintf(line + n, sizeof(line) - n, " %s", ttr_role_name[ro]);
        if (d->ttsim || n >= (int)sizeof(line)) {
            continue;
        }
        pc = ttr_reg_rd32(d, t, PC_READBACK(ro));
        n += snprintf(line + n, sizeof(line) - n, " (pc 0x%x%s)", pc,
                      pc >= l->kcb_base && pc < l->kcb_end ? ", in its kernel"
                      : pc >= l->fw_base[0] && pc < l->fw_end
                      ? ", in firmware" : "");
    }
    fprintf(log, "%s\n", line);
    return true;
}

int ttr_report_busy(TTRDevice *d, const TTRProgram *p, FILE *log)
{
    int busy = 0;

    for (int g = 0; g < p->ngroups; g++) {
        for (int k = 0; k < p->group[g].ncores; k++) {
            if (busy >= 16) {
                busy += go_signal(d, p->group[g].core[k]) != RUN_MSG_DONE;
            } else {
                busy += report_tile(d, p->group[g].core[k], log);
            }
        }
    }
    if (busy > 16) {
        fprintf(log, "  ... and %d more\n", busy - 16);
    }
    return busy;
}

uint32_t ttr_prog_config_len(const TTRDevice *d, const TTRProgram *p,
                             int g)
{
    const TTRGroup *gr = &p->group[g];
    bool data = false;

    for (int ro = 0; ro < TTR_ROLES; ro++) {
        data |= gr->kernel[ro].data && gr->kernel[ro].has_data;
    }
    if (d->resident == p && !data) {
        return p->text_off - p->sem_off;
    }
    return gr->image_size - p->sem_off;
}

bool ttr_launch_slow(TTRDevice *d, const TTRProgram *p, char *err,
                     size_t errlen)
{
    const TTRLayout *l = d->layout;
    uint8_t lm[128];

    for (int g = 0; g < p->ngroups; g++) {
        const TTRGroup *gr = &p->group[g];
        uint8_t *img;
        int ci0 = ttr_prog_core_index(p, g, 0);

        if (!group_runs(gr)) {
            continue;
        }
        img = tt_host_xcalloc("tt-run", gr->image_size);
        /* the part every core of the group shares, by multicast */
        if (!ttr_prog_image(p, d->board, l, g, ci0, img, err, errlen)) {
            free(img);
            return false;
        }
        ttr_prog_launch_msg(p, l, g, false, lm);
        for (int r = 0; r < gr->nrects; r++) {
            const TTRRect *rc = &gr->rect[r];

            ttr_mcast_write(d, rc, l->kcb_base + p->sem_off,
                            img + p->sem_off, ttr_prog_config_len(d, p, g));
            ttr_mcast_write(d, rc, MB_LAUNCH_RD_PTR, &(uint32_t) { 0 }, 4);
            ttr_mcast_write(d, rc, l->go_msg_index, &(uint32_t) { 0 }, 4);
            ttr_mcast_write(d, rc, MB_LAUNCH, lm, l->launch_size);
        }
        /* runtime arguments, per core */
        for (int k = 0; k < gr->ncores && p->sem_off; k++) {
            if (!ttr_prog_image(p, d->board, l, g, ci0 + k, img, err,
                                errlen)) {
                free(img);
                return false;
            }
            ttr_l1_write(d, gr->core[k], l->kcb_base, img, p->sem_off);
        }
        free(img);
    }
    for (int g = 0; g < p->ngroups; g++) {
        const TTRGroup *gr = &p->group[g];

        for (int r = 0; r < gr->nrects && group_runs(gr); r++) {
            ttr_mcast_write(d, &gr->rect[r], l->go_msg,
                            &(uint32_t) { RUN_MSG_GO << 24 }, 4);
        }
    }
    d->resident = p;
    return true;
}

/* wait for the Tensix cores @p launched; false with a report if not */
static bool wait_prog(TTRDevice *d, const TTRProgram *p, char *err,
                      size_t errlen)
{
    int tiles[TTR_MAX_TILES], n = 0, left;

    for (int g = 0; g < p->ngroups; g++) {
        for (int k = 0; k < p->group[g].ncores && group_runs(&p->group[g]);
             k++) {
            tiles[n++] = p->group[g].core[k];
        }
    }
    left = ttr_wait_done(d, tiles, n, d->timeout);
    if (left) {
        if (p->chips != 1) {
            fprintf(stderr, "tt-run: chip %d: ", p->chip);
        } else {
            fprintf(stderr, "tt-run: ");
        }
        fprintf(stderr, "%d of %d cores not done after %.0f s:\n", left, n,
                d->timeout);
        ttr_report_busy(d, p, stderr);
        return ttr_fail(err, errlen, "timeout: %d cores still busy", left);
    }
    return true;
}

bool ttr_run_slow(TTRDevice *d, const TTRProgram *p, char *err,
                  size_t errlen)
{
    return ttr_launch_slow(d, p, err, errlen) &&
           wait_prog(d, p, err, errlen);
}

bool ttr_run_chips(TTRDevice *d, TTRProgram *p, int n, char *err,
                   size_t errlen)
{
    char msg[512];
    int left;

    /* every image in place (and every mailbox clear) before any starts */
    for (int c = 0; c < n; c++) {
        if (!ttr_eth_load(&d[c], &p[c], err, errlen)) {
            return false;
        }
    }
    for (int c = 0; c < n; c++) {
        if (!ttr_launch_slow(&d[c], &p[c], err, errlen)) {
            return false;
        }
    }
    for (int c = 0; c < n; c++) {
        ttr_eth_start(&d[c], &p[c]);
    }
    for (int c = 0; c < n; c++) {
        if (!wait_prog(&d[c], &p[c], msg, sizeof(msg))) {
            return ttr_fail(err, errlen, "chip %d: %s", c, msg);
        }
    }
    for (int c = 0; c < n; c++) {
        left = ttr_eth_wait(&d[c], &p[c], d[c].timeout, err, errlen);
        if (left) {
            return left < 0 ? false
                   : ttr_fail(err, errlen, "timeout: chip %d: %d ERISC kernels "
                              "still running", c, left);
        }
    }
    return true;
}

/* ----------------------------------------------------------- Ethernet */

static const struct { uint8_t x, y; } eth_xy[TTR_ETH_CHANNELS] =
    TT_GRID_ETH_INIT;

/* an ERISC kernel's arguments (at most TTR_MAX_ARGS words) fit its area */
_Static_assert(ETH_K_MAX_ARGS >= TTR_MAX_ARGS, "ERISC argument words");
_Static_assert(TTR_WIN_ETH0 + TTR_ETH_CHANNELS <= TT_TLB_2M_COUNT,
               "a 2 MiB window per Tensix tile and Ethernet channel");

/*
 * Ethernet channel @ch's @addr: L1 through the channel's own window
 * (ttr_eth_links points them), registers through the scratch one
 */
static uint64_t eth_addr(TTRDevice *d, int ch, uint32_t addr)
{
    if (addr < TT_ETH_L1_SIZE) {
        return tt_host_win(&d->lib, TTR_WIN_ETH0 + ch, addr);
    }
    return tt_host_tlb_unicast(&d->lib, TTR_WIN_REG, eth_xy[ch].x,
                               eth_xy[ch].y, addr);
}

static uint32_t eth_rd32(TTRDevice *d, int ch, uint32_t addr)
{
    return tt_host_rd32(&d->lib, eth_addr(d, ch, addr));
}

static void eth_wr32(TTRDevice *d, int ch, uint32_t addr, uint32_t v)
{
    tt_host_wr32(&d->lib, eth_addr(d, ch, addr), v);
}

/* chip_info_t (tt-metal eth_fw_api.h), as the base firmware leaves it */
typedef struct TTREthInfo {
    uint8_t pcb_type, asic_location, eth_id, logical_eth_id;
    uint32_t board_hi, board_lo, mac_org, mac_id, asic_hi, asic_lo;
    uint32_t req_ack;
} TTREthInfo;

static void eth_info(TTRDevice *d, int ch, uint32_t addr, TTREthInfo *i)
{
    d->lib.mem_rd(eth_addr(d, ch, addr), i, sizeof(*i));
}

static bool eth_same_chip(const TTREthInfo *a, const TTREthInfo *b)
{
    return a->asic_location == b->asic_location &&
           a->board_hi == b->board_hi && a->board_lo == b->board_lo &&
           a->asic_hi == b->asic_hi && a->asic_lo == b->asic_lo;
}

void ttr_eth_links(TTRDevice *d, int n)
{
    TTREthInfo self[TTR_MAX_CHIPS], remote;
    bool known[TTR_MAX_CHIPS] = { false }, up[TTR_MAX_CHIPS][TTR_ETH_CHANNELS];

    for (int c = 0; c < n; c++) {
        for (int ch = 0; ch < TTR_ETH_CHANNELS; ch++) {
            tt_host_tlb_unicast(&d[c].lib, TTR_WIN_ETH0 + ch, eth_xy[ch].x,
                                eth_xy[ch].y, 0);
            d[c].eth_peer[ch] = d[c].eth_peer_ch[ch] = -1;
            up[c][ch] = eth_rd32(&d[c], ch, TT_ETH_PORT_STATUS) ==
                        TT_ETH_PORT_UP;
            if (up[c][ch] && !known[c]) {
                eth_info(&d[c], ch, TT_ETH_LOCAL_INFO, &self[c]);
                known[c] = true;
            }
        }
    }
    for (int c = 0; c < n; c++) {
        for (int ch = 0; ch < TTR_ETH_CHANNELS; ch++) {
            int peer = -1, matches = 0;

            if (!up[c][ch]) {
                continue;
            }
            eth_info(&d[c], ch, TT_ETH_REMOTE_INFO, &remote);
            for (int o = 0; o < n; o++) {
                if (o != c && known[o] && eth_same_chip(&self[o], &remote)) {
                    peer = o;
                    matches++;
                }
            }
            /*
             * chips that do not tell themselves apart (ttsim's fill the
             * identity alike): with two, the other one
             */
            if (matches != 1) {
                peer = n == 2 ? !c : -1;
            }
            if (peer < 0 || remote.eth_id >= TTR_ETH_CHANNELS ||
                !up[peer][remote.eth_id]) {
                continue;
            }
            d[c].eth_peer[ch] = peer;
            d[c].eth_peer_ch[ch] = remote.eth_id;
        }
    }
}

/*
 * Chip @c's end of its first link to chip @peer: links ordered by the
 * channel on the lower-numbered chip, so both ends pick the same one
 */
static int eth_link_channel(const TTRDevice *d, int peer)
{
    int best = -1, key = TTR_ETH_CHANNELS;

    for (int ch = 0; ch < TTR_ETH_CHANNELS; ch++) {
        int k = d->chip < peer ? ch : d->eth_peer_ch[ch];

        if (d->eth_peer[ch] == peer && k < key) {
            key = k;
            best = ch;
        }
    }
    return best;
}

bool ttr_eth_load(TTRDevice *d, TTRProgram *p, char *err, size_t errlen)
{
    static const uint8_t zero[ETH_K_MBOX_SIZE];
    uint32_t args[1 + ETH_K_MAX_ARGS];
    bool taken[TTR_ETH_CHANNELS] = { false };

    for (int i = 0; i < p->neth; i++) {
        TTREth *e = &p->eth[i];
        int ch = e->peer < 0 ? e->channel : eth_link_channel(d, e->peer);
        int n;

        if (ch < 0) {
            return ttr_fail(err, errlen, "chip %d: no Ethernet link to chip %d "
                            "is up", p->chip, e->peer);
        }
        if (taken[ch]) {
            return ttr_fail(err, errlen, "chip %d: two ERISC kernels on "
                            "channel %d", p->chip, ch);
        }
        taken[ch] = true;
        e->channel = ch;
        n = args_eval(p, d->board, -1, 0, 0, eth_xy[ch].x, eth_xy[ch].y,
                      &e->args, args + 1, err, errlen);
        if (n < 0) {
            return false;
        }
        args[0] = n;
        /* E0 held while its image changes (a pooled chip may run one) */
        eth_wr32(d, ch, TT_ETH_DEBUG_REGS_BASE + A_SOFT_RESET_0,
                 TT_ERISC_SOFT_RESET_POWER_ON);
        d->lib.mem_wr(eth_addr(d, ch, e->image.base), e->image.data,
                      e->image.size);
        d->lib.mem_wr(eth_addr(d, ch, ETH_K_MBOX), zero, sizeof(zero));
        d->lib.mem_wr(eth_addr(d, ch, ETH_K_ARGS), args, 4 * (n + 1));
        eth_wr32(d, ch, ETH_K_DONE, 0);
        eth_wr32(d, ch, ETH_K_RESULT, 0);
        eth_wr32(d, ch, TT_ETH_ERISC_CTRL_BASE + A_ERISC0_RESET_PC,
                 e->image.entry);
    }
    return true;
}

void ttr_eth_start(TTRDevice *d, const TTRProgram *p)
{
    for (int i = 0; i < p->neth; i++) {
        eth_wr32(d, p->eth[i].channel, TT_ETH_DEBUG_REGS_BASE +
                 A_SOFT_RESET_0, TT_ERISC_SOFT_RESET_POWER_ON &
                 ~(uint32_t)R_SOFT_RESET_0_BRISC_MASK);  /* E0: bit 11 */
    }
}

int ttr_eth_wait(TTRDevice *d, const TTRProgram *p, double timeout,
                 char *err, size_t errlen)
{
    double deadline = tt_host_now() + timeout;
    int left;

    for (;;) {
        left = 0;
        for (int i = 0; i < p->neth; i++) {
            int ch = p->eth[i].channel;
            uint32_t rc;

            if (eth_rd32(d, ch, ETH_K_DONE) != ETH_K_DONE_VALUE) {
                left++;
                continue;
            }
            rc = eth_rd32(d, ch, ETH_K_RESULT);
            if (rc) {
                ttr_fail(err, errlen, "chip %d channel %d: %s returned %u",
                         p->chip, ch, p->eth[i].image.path, rc);
                return -1;
            }
        }
        if (!left || tt_host_now() > deadline) {
            break;
        }
        ttr_poll(d);
    }
    for (int i = 0; i < p->neth && left; i++) {
        int ch = p->eth[i].channel;

        if (eth_rd32(d, ch, ETH_K_DONE) != ETH_K_DONE_VALUE) {
            fprintf(stderr, "  chip %d channel %d (%u,%u): %s still "
                    "running\n", p->chip, ch, eth_xy[ch].x, eth_xy[ch].y,
                    p->eth[i].image.path);
        }
    }
    return left;
}
