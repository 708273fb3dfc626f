/*
 * The mapped path (see mapped.h).
 *
 * TLB window layout: tt-isa-documentation
 * BlackholeA0/PCIExpressTile/HostToDeviceTLBs.md and tt-kmd blackhole.c.
 * Where a window's transaction goes is decided the way QEMU's NOC decides
 * it (hw/tenstorrent/noc.c tt_noc_host_rw): a unicast (and any read)
 * reaches the node at (x_end, y_end); a multicast write reaches the Tensix
 * tiles inside the rectangle that have not opted out; coordinates are in
 * the issuing NOC's numbering, or translated when the PCIe NIU translates.
 * The server computes the coordinate tables with the NOC's own functions,
 * so this file only looks them up.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "hw/tenstorrent/host-map-abi.h"
#include "tt-pcie-host.h"       /* generated from data/pcie-host.yaml */
#include "tt-tile-map.h"        /* generated from the tile map */
#define TT_PLAIN_REGS "riscv-debug-regmap.h"
#include "hw/tenstorrent/plain-regfields.h"
#include "mapped.h"

#define TLB_2M_COUNT            TT_TLB_2M_COUNT
#define TLB_COUNT               TT_TLB_COUNT    /* then 4 GiB windows */
#define TLB_STRIDED_COUNT       TT_TLB_STRIDED_COUNT
#define TLB_2M_SHIFT            TT_TLB_2M_SHIFT
#define TLB_4G_SHIFT            TT_TLB_4G_SHIFT
#define TLB_CFG_BASE            TT_TLB_CFG_BASE
#define TLB_STRIDED_DWORD       (TLB_COUNT * TT_TLB_CFG_STRIDE / 4)
#define TLB_CFG_DWORDS          (TLB_STRIDED_DWORD + TLB_STRIDED_COUNT)
#define TLB_CFG_END             (TLB_CFG_BASE + TLB_CFG_DWORDS * 4)
#define TLB_WINDOWS_END         ((uint64_t)TLB_2M_COUNT << TLB_2M_SHIFT)
#define TLB_ORDERING_COUNTED    3       /* ordering field: counted writes */
#define SOFT_RESET_0            (TT_TILE_DEBUG_REGS_BASE + A_SOFT_RESET_0)

#define MAX_BLOCKS              (TT_HM_MAX_TILES + 8)

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ      22      /* Linux 5.14 */
#endif
#define SEQLOCK_SPINS           (1u << 20)
#define RAM_COPY_MOVSB_MIN      4096
#define CPUID_7_EBX_ERMS        (1u << 9)   /* Intel SDM vol. 2A, CPUID */

/* Bit positions of the fields of a window's 96-bit configuration */
typedef struct Layout {
    uint8_t addr_len, shift;
    uint8_t x_end, y_end, x_start, y_start, noc, noc_hi, mcast, order;
    uint8_t linked, static_vc;
} Layout;

static const Layout layout_2m = {
    43, TLB_2M_SHIFT, 43, 49, 55, 61, 67, 68, 69, 70, 72, 73,
};
static const Layout layout_4g = {
    32, TLB_4G_SHIFT, 32, 38, 44, 50, 56, 57, 58, 59, 61, 62,
};

enum { WIN_MESSAGE, WIN_UNICAST, WIN_MCAST };

/* A window's decoded target, valid while stamp == Mapped.stamp */
typedef struct Window {
    uint32_t stamp;             /* 0: not decoded */
    uint8_t kind;               /* WIN_* */
    bool any_mcast;
    int16_t ucast;              /* block of a unicast or a read, -1: none */
    uint64_t base;              /* NOC address of the window's byte 0 */
    uint64_t mcast[TT_HM_TILE_WORDS];   /* tiles a multicast write reaches */
} Window;

typedef struct Block {
    uint8_t *map;
    uint64_t size;
    const uint64_t *code;       /* L1: the code-line bitmap, else NULL */
} Block;

struct Mapped {
    VfuClient *vfu;
    const uint8_t *shared;      /* the server's shared area, read-only */
    size_t shared_size;
    const TTHmShared *sh;
    uint32_t ntiles, nblocks;
    Block block[MAX_BLOCKS];
    const uint16_t *ucast;      /* [space][y][x]: block + 1 */
    const uint8_t *mcast;       /* [space][tile]: x, y */

    /* the routing state, as last read under the seqlock */
    uint32_t gen, epoch, xlate;
    uint64_t optout[2][TT_HM_TILE_WORDS];
    uint32_t stamp;             /* bumped whenever that changes */

    uint32_t tlb[TLB_CFG_DWORDS];       /* the TLB configuration */
    uint32_t dirty[(TLB_CFG_DWORDS + 31) / 32];     /* not sent yet */
    bool any_dirty;
    Window win[TLB_COUNT];

    uint64_t wake[TT_HM_TILE_WORDS];    /* tiles written, not woken yet */
    bool any_wake;
    TTHmRange ranges[MAX_BLOCKS];       /* code overwritten by one access */
    uint32_t nranges;
    uint8_t cmd[TT_HM_CMD_MAX];
    bool posted;                /* a write posted since the last sync */

    pthread_t populate;         /* fills the L1 page tables */
    bool populate_armed;        /* at the first L1 access */
    bool populating;
    pid_t pid;                  /* the process that has that thread */
    int stop;                   /* tells it to give up (detach) */
};

/* ------------------------------------------------------------ helpers -- */

/*
 * Copies of a page and more to or from the chip's RAM.  That RAM is shmem
 * in 4 KiB pages (shmem transparent huge pages are off by default), where
 * an x86-64 `rep movsb` (ERMS) moved a megabyte 15-30% faster than
 * glibc 2.36's memcpy on an AMD EPYC host
 * (docs/devel/tenstorrent-host-map.rst, "Copies"); smaller copies and
 * other hosts keep memcpy.
 */
static bool ram_copy_movsb;

static void ram_copy_init(void)
{
#if defined(__x86_64__)
    unsigned a, b, c, d;

    ram_copy_movsb = __get_cpuid_count(7, 0, &a, &b, &c, &d) &&
                     (b & CPUID_7_EBX_ERMS) && !getenv("TT_EMU_MEMCPY");
#endif
}

static void ram_copy(void *dst, const void *src, size_t len)
{
#if defined(__x86_64__)
    if (ram_copy_movsb && len >= RAM_COPY_MOVSB_MIN) {
        __asm__ volatile("rep movsb"
                         : "+D"(dst), "+S"(src), "+c"(len) : : "memory");
        return;
    }
#endif
    memcpy(dst, src, len);
}

/* Bits [pos, pos + len) of a window's 96-bit configuration, len < 64 */
static uint64_t cfg_bits(const uint32_t w[3], int pos, int len)
{
    uint64_t lo = (uint64_t)w[1] << 32 | w[0];
    uint64_t v;

    if (pos >= 64) {
        v = w[2] >> (pos - 64);
    } else if (pos == 0) {
        v = lo;
    } else {
        v = lo >> pos | (uint64_t)w[2] << (64 - pos);
    }
    return v & ((1ull << len) - 1);
}

/* hw/tenstorrent/niu.c tt_in_span(): a span may wrap around the grid */
static bool in_span(int v, int start, int end)
{
    return start <= end ? v >= start && v <= end : v <= end || v >= start;
}

static bool tile_bit(const uint64_t *set, uint32_t i)
{
    return set[i / 64] >> (i % 64) & 1;
}

/* -------------------------------------------------------- the server -- */

/* Send what is pending, with @nranges code ranges; wait if @sync */
static bool mapped_send(Mapped *m, bool sync)
{
    TTHmCmd *c = (TTHmCmd *)m->cmd;
    uint8_t *p = m->cmd + sizeof(*c);
    uint32_t ntlb = 0;
    int ret;

    if (!m->any_dirty && !m->any_wake && !m->nranges &&
        !(sync && m->posted)) {
        return true;
    }
    for (uint32_t d = 0; m->any_dirty && d < TLB_CFG_DWORDS; d++) {
        if (m->dirty[d / 32] >> (d % 32) & 1) {
            TTHmTlbWrite w = { TLB_CFG_BASE + 4 * d, m->tlb[d] };

            memcpy(p, &w, sizeof(w));
            p += sizeof(w);
            ntlb++;
        }
    }
    memcpy(p, m->ranges, m->nranges * sizeof(TTHmRange));
    p += m->nranges * sizeof(TTHmRange);
    c->magic = TT_HM_CMD_MAGIC;
    c->flags = sync && m->posted ? TT_HM_CMD_SYNC : 0;
    c->reserved = 0;
    c->ntlb = ntlb;
    c->nranges = m->nranges;
    memcpy(c->wake, m->wake, sizeof(c->wake));

    ret = sync ? vfu_client_write(m->vfu, TT_HM_CTRL_REGION, TT_HM_CMD,
                                  m->cmd, p - m->cmd)
               : vfu_client_post_write(m->vfu, TT_HM_CTRL_REGION, TT_HM_CMD,
                                       m->cmd, p - m->cmd);
    if (ret < 0 && ret != -EREMOTEIO) {
        fprintf(stderr, "libttsim: lost the emulator sending a host-map "
                "command: %s\n", strerror(-ret));
        return false;
    }
    /* a refused command was logged by the server: nothing to retry */
    m->posted &= !sync;
    memset(m->dirty, 0, sizeof(m->dirty));
    m->any_dirty = false;
    memset(m->wake, 0, sizeof(m->wake));
    m->any_wake = false;
    m->nranges = 0;
    return true;
}

bool mapped_before_message(Mapped *m)
{
    return mapped_send(m, false);
}

bool mapped_kick(Mapped *m)
{
    return !m->any_wake || mapped_send(m, false);
}

/* Every window to be decoded again */
static void mapped_forget_windows(Mapped *m)
{
    for (int n = 0; n < TLB_COUNT; n++) {
        m->win[n].stamp = 0;
    }
}

bool mapped_reload_tlbs(Mapped *m)
{
    int ret = vfu_client_read(m->vfu, 0, TLB_CFG_BASE, m->tlb,
                              sizeof(m->tlb));

    if (ret < 0) {
        fprintf(stderr, "libttsim: cannot read the TLB configuration: %s\n",
                strerror(-ret));
        return false;
    }
    memset(m->dirty, 0, sizeof(m->dirty));
    m->any_dirty = false;
    mapped_forget_windows(m);
    return true;
}

/*
 * Bring the routing state up to date: one load when nothing changed.  The
 * server holds the generation odd only while it rewrites a few words; a
 * generation that stays odd means a dead server, and the message path
 * (which will notice) is used.
 */
static bool mapped_routing(Mapped *m)
{
    const TTHmShared *sh = m->sh;
    uint32_t g = __atomic_load_n(&sh->gen, __ATOMIC_ACQUIRE);
    uint32_t epoch, xlate;
    uint64_t optout[2][TT_HM_TILE_WORDS];

    if (g == m->gen) {
        return true;
    }
    for (uint32_t spins = 0;; spins++) {
        if (spins == SEQLOCK_SPINS) {
            return false;
        }
        g = __atomic_load_n(&sh->gen, __ATOMIC_ACQUIRE);
        if (g & 1) {
            sched_yield();
            continue;
        }
        epoch = __atomic_load_n(&sh->epoch, __ATOMIC_RELAXED);
        xlate = __atomic_load_n(&sh->xlate, __ATOMIC_RELAXED);
        for (int n = 0; n < 2; n++) {
            for (int w = 0; w < TT_HM_TILE_WORDS; w++) {
                optout[n][w] = __atomic_load_n(&sh->optout[n][w],
                                               __ATOMIC_RELAXED);
            }
        }
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&sh->gen, __ATOMIC_RELAXED) == g) {
            break;
        }
    }
    m->gen = g;
    m->xlate = xlate;
    memcpy(m->optout, optout, sizeof(optout));
    m->stamp++;
    if (epoch != m->epoch) {
        /* the endpoint was reset: its TLB configuration is gone */
        m->epoch = epoch;
        return mapped_reload_tlbs(m);
    }
    return true;
}

/* ------------------------------------------------------------ windows -- */

static Window *mapped_decode(Mapped *m, int n)
{
    Window *w = &m->win[n];
    const Layout *l = n < TLB_2M_COUNT ? &layout_2m : &layout_4g;
    const uint32_t *r = &m->tlb[n * 3];
    int xe, ye, xs, ys, noc, space;
    bool mcast;

    if (w->stamp == m->stamp) {
        return w;
    }
    w->stamp = m->stamp;
    w->base = cfg_bits(r, 0, l->addr_len) << l->shift;
    xe = cfg_bits(r, l->x_end, 6);
    ye = cfg_bits(r, l->y_end, 6);
    xs = cfg_bits(r, l->x_start, 6);
    ys = cfg_bits(r, l->y_start, 6);
    noc = cfg_bits(r, l->noc, 1);
    mcast = cfg_bits(r, l->mcast, 1);

    /*
     * What QEMU logs or counts stays with QEMU: a NOC select beyond 1,
     * linked or static-VC windows, counted writes (the destination counts
     * them), strided multicast
     */
    if (cfg_bits(r, l->noc_hi, 1) || cfg_bits(r, l->linked, 1) ||
        cfg_bits(r, l->static_vc, 1) ||
        cfg_bits(r, l->order, 2) == TLB_ORDERING_COUNTED ||
        (mcast && n < TLB_STRIDED_COUNT && m->tlb[TLB_STRIDED_DWORD + n])) {
        w->kind = WIN_MESSAGE;
        return w;
    }
    space = (m->xlate >> noc & 1) ? TT_HM_SPACE_XLATE : noc;
    w->ucast = (int)m->ucast[(space * TT_HM_GRID + ye) * TT_HM_GRID + xe] -
               1;
    if (w->ucast >= (int)m->nblocks) {
        w->ucast = -1;
    }
    w->kind = mcast ? WIN_MCAST : WIN_UNICAST;
    if (mcast) {
        const uint8_t *xy = m->mcast + space * m->ntiles * 2;

        /* niu.c: a translated NOC1 rectangle runs from start down to end */
        if (space == TT_HM_SPACE_XLATE && noc) {
            int t = xs;

            xs = xe;
            xe = t;
            t = ys;
            ys = ye;
            ye = t;
        }
        memset(w->mcast, 0, sizeof(w->mcast));
        w->any_mcast = false;
        for (uint32_t i = 0; i < m->ntiles; i++) {
            if (in_span(xy[2 * i], xs, xe) && in_span(xy[2 * i + 1], ys, ye)
                && !tile_bit(m->optout[noc], i)) {
                w->mcast[i / 64] |= 1ull << (i % 64);
                w->any_mcast = true;
            }
        }
    }
    return w;
}

/* ----------------------------------------------------------- the data -- */

/*
 * After a write of [addr, addr + len) to tile @t's L1 (and a full fence):
 * if translated code covers a line of it, the server must invalidate it
 */
static void mapped_code_check(Mapped *m, uint32_t t, uint64_t addr,
                              uint32_t len)
{
    const uint64_t *code = m->block[t].code;
    uint64_t first = addr >> TT_HM_LINE_SHIFT;
    uint64_t last = (addr + len - 1) >> TT_HM_LINE_SHIFT;

    for (uint64_t w = first / 64; w <= last / 64; w++) {
        uint64_t bits = __atomic_load_n(&code[w], __ATOMIC_RELAXED);
        uint64_t lo = w == first / 64 ? first % 64 : 0;
        uint64_t hi = w == last / 64 ? last % 64 : 63;

        bits &= (hi == 63 ? ~0ull : (2ull << hi) - 1) & ~((1ull << lo) - 1);
        if (bits) {
            TTHmRange *r = &m->ranges[m->nranges++];

            r->block = t;
            r->len = len;
            r->offset = addr;
            return;
        }
    }
}

static void mapped_write_tile(Mapped *m, uint32_t t, uint64_t addr,
                              const void *buf, uint32_t len)
{
    ram_copy(m->block[t].map + addr, buf, len);
}

/*
 * After the write and a full fence: a tile with a core out of reset may
 * have one parked on what we wrote, and gets a wake-up with the next
 * message; the others' cores, once released, read what we wrote
 * (TTHmShared.live)
 */
static void mapped_wake_check(Mapped *m, uint32_t t)
{
    if (__atomic_load_n(&m->sh->live[t / 64], __ATOMIC_RELAXED) >> (t % 64)
        & 1) {
        m->wake[t / 64] |= 1ull << (t % 64);
        m->any_wake = true;
    }
}

/* The writes are done: code they covered goes, before anyone runs it */
static int mapped_finish_write(Mapped *m, const uint64_t *tiles, int one,
                               uint64_t addr, uint32_t len)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);    /* store, then load bits */
    if (one >= 0) {
        mapped_code_check(m, one, addr, len);
        mapped_wake_check(m, one);
    } else {
        for (uint32_t i = 0; i < m->ntiles; i++) {
            if (tile_bit(tiles, i)) {
                mapped_code_check(m, i, addr, len);
                mapped_wake_check(m, i);
            }
        }
    }
    if (m->nranges && !mapped_send(m, true)) {
        return MAPPED_ERROR;
    }
    return MAPPED_DONE;
}

static int mapped_tlb_access(Mapped *m, uint64_t offset, void *buf,
                             bool write)
{
    uint32_t d = (offset - TLB_CFG_BASE) / 4;

    if (!write) {
        memcpy(buf, &m->tlb[d], 4);
        return MAPPED_DONE;
    }
    memcpy(&m->tlb[d], buf, 4);
    m->dirty[d / 32] |= 1u << (d % 32);
    m->any_dirty = true;
    m->win[d < TLB_STRIDED_DWORD ? d / 3 : d - TLB_STRIDED_DWORD].stamp = 0;
    return MAPPED_DONE;
}

bool mapped_touches_tlb_config(uint32_t region, uint64_t offset,
                               uint32_t len)
{
    return region == VFU_REGION_BAR0 && offset < TLB_CFG_END &&
           offset + len > TLB_CFG_BASE;
}

uint32_t mapped_piece(uint32_t region, uint64_t offset, uint32_t len)
{
    uint64_t end = UINT64_MAX;

    if (region == VFU_REGION_BAR0 && offset < TLB_WINDOWS_END) {
        end = (offset | ((1ull << TLB_2M_SHIFT) - 1)) + 1;
    } else if (region == VFU_REGION_BAR4) {
        end = (offset | ((1ull << TLB_4G_SHIFT) - 1)) + 1;
    }
    return end - offset < len ? end - offset : len;
}

/*
 * The TLB window a BAR access at @region, *@offset goes through: its index
 * in *@n and *@offset made relative to it; NULL if no window the mapping
 * serves takes it (the message path does)
 */
static Window *mapped_window(Mapped *m, uint32_t region, uint64_t *offset,
                             int *n)
{
    Window *w;

    if (region == VFU_REGION_BAR0 && *offset < TLB_WINDOWS_END) {
        *n = *offset >> TLB_2M_SHIFT;
        *offset &= (1ull << TLB_2M_SHIFT) - 1;
    } else if (region == VFU_REGION_BAR4) {
        *n = TLB_2M_COUNT + (*offset >> TLB_4G_SHIFT);
        *offset &= (1ull << TLB_4G_SHIFT) - 1;
    } else {
        return NULL;
    }
    if (*n >= TLB_COUNT || !mapped_routing(m)) {
        return NULL;
    }
    w = mapped_decode(m, *n);
    return w->kind == WIN_MESSAGE ? NULL : w;
}

static void mapped_start_populate(Mapped *m);

/*
 * The session's first L1 access through the mapping starts filling the
 * L1 page tables: a session that never touches L1 (tt-umd opens and
 * closes clusters by the hundred) neither pays for it nor competes with
 * it for a host CPU, and unmapping unpopulated ranges is cheap
 */
static void mapped_l1_touched(Mapped *m)
{
    if (m->populate_armed) {
        m->populate_armed = false;
        mapped_start_populate(m);
    }
}

int mapped_bar_access(Mapped *m, uint32_t region, uint64_t offset,
                      void *buf, uint32_t len, bool write)
{
    const Block *b;
    Window *w;
    uint64_t addr;
    int n;

    if (mapped_touches_tlb_config(region, offset, len)) {
        return len == 4 && !(offset & 3) && offset >= TLB_CFG_BASE
               ? mapped_tlb_access(m, offset, buf, write) : MAPPED_MESSAGE;
    }
    w = mapped_window(m, region, &offset, &n);
    if (!w || w->base + offset < w->base) {
        return MAPPED_MESSAGE;
    }
    addr = w->base + offset;

    if (write && w->kind == WIN_MCAST) {
        /* Tensix tiles only, all with the same L1 */
        if (!w->any_mcast) {
            return MAPPED_DONE;         /* reaches no tile, as in the NIU */
        }
        if (addr >= m->block[0].size || len > m->block[0].size - addr) {
            return MAPPED_MESSAGE;
        }
        if (m->posted && !mapped_send(m, true)) {
            return MAPPED_ERROR;
        }
        mapped_l1_touched(m);
        for (uint32_t i = 0; i < m->ntiles; i++) {
            if (tile_bit(w->mcast, i)) {
                mapped_write_tile(m, i, addr, buf, len);
            }
        }
        return mapped_finish_write(m, w->mcast, -1, addr, len);
    }

    if (w->ucast < 0) {
        return MAPPED_MESSAGE;          /* not RAM: QEMU decides */
    }
    b = &m->block[w->ucast];
    if (addr >= b->size || len > b->size - addr) {
        return MAPPED_MESSAGE;
    }
    if (m->posted && !mapped_send(m, true)) {
        return MAPPED_ERROR;
    }
    if (b->code) {
        mapped_l1_touched(m);
    }
    if (!write) {
        if (!mapped_kick(m)) {
            return MAPPED_ERROR;
        }
        ram_copy(buf, b->map + addr, len);
        return MAPPED_DONE;
    }
    if (!b->code) {
        ram_copy(b->map + addr, buf, len);  /* GDDR: no code, no waiters */
        return MAPPED_DONE;
    }
    mapped_write_tile(m, w->ucast, addr, buf, len);
    return mapped_finish_write(m, NULL, w->ucast, addr, len);
}

/*
 * SOFT_RESET_0 is a posted write on PCIe: the host goes on at once, and
 * its next read finds the cores it released running (the server waits
 * there).  Here the write is sent without waiting for its reply, and the
 * next access through the mapping first syncs with the server, so that
 * it never overtakes the write (a hold before new code is loaded).
 * Other register writes may start work that needs the host's help
 * (device DMA to host memory is served while the host waits for a
 * reply), so they keep their reply.
 */
int mapped_post(Mapped *m, uint32_t region, uint64_t offset,
                const void *buf, uint32_t len)
{
    Window *w;
    int n, ret;

    if (region != VFU_REGION_BAR0 || len != 4 ||
        mapped_touches_tlb_config(region, offset, len)) {
        return MAPPED_MESSAGE;
    }
    w = mapped_window(m, region, &offset, &n);
    if (!w || w->base + offset != SOFT_RESET_0) {
        return MAPPED_MESSAGE;
    }
    if (!mapped_send(m, false)) {
        return MAPPED_ERROR;
    }
    ret = vfu_client_post_write(m->vfu, region, (uint64_t)n << TLB_2M_SHIFT |
                                offset, buf, len);
    if (ret < 0) {
        fprintf(stderr, "libttsim: lost the emulator posting a write: %s\n",
                strerror(-ret));
        return MAPPED_ERROR;
    }
    m->posted = true;
    return MAPPED_DONE;
}

/* ------------------------------------------------------------- attach -- */

static const VfuArea *mapped_area(const VfuRegionInfo *r, uint64_t start)
{
    for (uint32_t i = 0; i < r->nareas; i++) {
        if (r->areas[i].start == start) {
            return &r->areas[i];
        }
    }
    return NULL;
}

/* Is [off, off + len) inside the shared area? */
static bool mapped_in_shared(const Mapped *m, uint64_t off, uint64_t len)
{
    return off <= m->shared_size && len <= m->shared_size - off;
}

static bool mapped_check_shared(Mapped *m)
{
    const TTHmShared *sh = m->sh;

    if (sh->magic != TT_HM_MAGIC || sh->version != TT_HM_VERSION) {
        fprintf(stderr, "libttsim: the emulator's host map is version %u "
                "(magic 0x%x); this library speaks version %u\n",
                sh->version, sh->magic, TT_HM_VERSION);
        return false;
    }
    m->ntiles = sh->ntiles;
    m->nblocks = sh->nblocks;
    if (sh->size > m->shared_size || m->ntiles == 0 ||
        m->ntiles > TT_HM_MAX_TILES || m->nblocks < m->ntiles ||
        m->nblocks > MAX_BLOCKS || sh->line_shift != TT_HM_LINE_SHIFT ||
        !mapped_in_shared(m, sh->blocks,
                          (uint64_t)m->nblocks * sizeof(TTHmBlock)) ||
        !mapped_in_shared(m, sh->ucast, TT_HM_SPACES * TT_HM_GRID *
                          TT_HM_GRID * 2) ||
        !mapped_in_shared(m, sh->mcast, TT_HM_SPACES * m->ntiles * 2)) {
        fprintf(stderr, "libttsim: the emulator's host map is malformed\n");
        return false;
    }
    m->ucast = (const uint16_t *)(m->shared + sh->ucast);
    m->mcast = m->shared + sh->mcast;
    return true;
}

/* Map block @i, which is area @i of the RAM region */
static bool mapped_block(Mapped *m, const VfuRegionInfo *ram, uint32_t i)
{
    const TTHmBlock *d = (const TTHmBlock *)(m->shared + m->sh->blocks) + i;
    bool l1 = i < m->ntiles;
    void *p;

    if (i >= ram->nareas || ram->areas[i].start != d->offset ||
        ram->areas[i].size < d->size || d->size == 0 ||
        d->kind != (l1 ? TT_HM_BLOCK_L1 : TT_HM_BLOCK_GDDR) ||
        (l1 && (d->size != m->block[0].size && i > 0)) ||
        (l1 && !mapped_in_shared(m, d->code, (d->size >> TT_HM_LINE_SHIFT)
                                 / 8))) {
        fprintf(stderr, "libttsim: the emulator's block %u does not match "
                "its mmap area\n", i);
        return false;
    }
    p = mmap(NULL, d->size, PROT_READ | PROT_WRITE, MAP_SHARED, ram->map_fd,
             ram->file_offset + d->offset);
    if (p == MAP_FAILED) {
        fprintf(stderr, "libttsim: cannot map the emulator's block %u: %s\n",
                i, strerror(errno));
        return false;
    }
    m->block[i].map = p;
    m->block[i].size = d->size;
    m->block[i].code = l1 ? (const uint64_t *)(m->shared + d->code) : NULL;
    return true;
}

/*
 * Fill the page tables of the L1 mappings while the host does other
 * things (from the session's first L1 access on, mapped_l1_touched()).
 * A fresh mapping otherwise costs a page fault on the first access to
 * each 4 KiB (several microseconds in a VM: ten times the cost of
 * copying the page), which the first bulk write or a firmware upload
 * would pay.  Read population maps the pages the server already
 * allocated; a later write needs no more than a cheap permission upgrade.
 * GDDR is sparse and stays untouched.  Best effort: old kernels refuse
 * MADV_POPULATE_READ and the faults come on first use as before.
 */
static void *mapped_populate(void *opaque)
{
    Mapped *m = opaque;

    /* last tile first: a host writing tile by tile meets it half way */
    for (uint32_t i = m->ntiles; i-- > 0;) {
        if (__atomic_load_n(&m->stop, __ATOMIC_RELAXED) ||
            madvise(m->block[i].map, m->block[i].size, MADV_POPULATE_READ)) {
            break;
        }
    }
    return NULL;
}

static void mapped_start_populate(Mapped *m)
{
    sigset_t all, old;

    /* the host's signals stay with the host's threads */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    m->pid = getpid();
    m->populating = pthread_create(&m->populate, NULL, mapped_populate,
                                   m) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

Mapped *mapped_attach(VfuClient *vfu)
{
    const VfuRegionInfo *ram = vfu_client_region(vfu, TT_HM_RAM_REGION);
    const VfuRegionInfo *ctrl = vfu_client_region(vfu, TT_HM_CTRL_REGION);
    const VfuArea *area;
    Mapped *m;
    void *p;

    if (!ram || !ctrl || !ram->mappable || !ctrl->mappable) {
        return NULL;
    }
    area = mapped_area(ctrl, TT_HM_SHARED);
    if (!area || area->size < sizeof(TTHmShared)) {
        return NULL;
    }
    m = calloc(1, sizeof(*m));
    if (!m) {
        return NULL;
    }
    ram_copy_init();
    m->vfu = vfu;
    p = mmap(NULL, area->size, PROT_READ, MAP_SHARED, ctrl->map_fd,
             ctrl->file_offset + area->start);
    if (p == MAP_FAILED) {
        fprintf(stderr, "libttsim: warning: cannot map the host map (%s); "
                "L1 and GDDR by message\n", strerror(errno));
        free(m);
        return NULL;
    }
    m->shared = p;
    m->shared_size = area->size;
    m->sh = p;
    if (!mapped_check_shared(m)) {
        goto fail;
    }
    for (uint32_t i = 0; i < m->nblocks; i++) {
        if (!mapped_block(m, ram, i)) {
            goto fail;
        }
    }
    m->stamp = 1;
    m->gen = 1;                 /* odd: never a published generation */
    m->epoch = __atomic_load_n(&m->sh->epoch, __ATOMIC_RELAXED);
    if (!mapped_reload_tlbs(m) || !mapped_routing(m)) {
        goto fail;
    }
    m->populate_armed = true;
    return m;

fail:
    fprintf(stderr, "libttsim: warning: L1 and GDDR by message only\n");
    mapped_detach(m);
    return NULL;
}

void mapped_detach(Mapped *m)
{
    if (!m) {
        return;
    }
    /* a forked child has no such thread to join */
    if (m->populating && m->pid == getpid()) {
        __atomic_store_n(&m->stop, 1, __ATOMIC_RELAXED);
        pthread_join(m->populate, NULL);
    }
    if (m->vfu->fd >= 0) {
        (void)mapped_send(m, true);
    }
    for (uint32_t i = 0; i < MAX_BLOCKS; i++) {
        if (m->block[i].map) {
            munmap(m->block[i].map, m->block[i].size);
        }
    }
    if (m->shared) {
        munmap((void *)m->shared, m->shared_size);
    }
    free(m);
}
