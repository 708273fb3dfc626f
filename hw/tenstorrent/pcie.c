/*
 * Tenstorrent Blackhole PCIe endpoint: BARs, TLB windows, outbound iATU.
 *
 * Sources: tt-isa-documentation BlackholeA0/PCIExpressTile (README.md: BAR
 * map; HostToDeviceTLBs.md: TLB register layout), tt-kmd
 * blackhole.c (register offsets, window numbering, iATU programming),
 * tt-umd blackhole_implementation.hpp (ARC APB window on PCIe 1).
 *
 * TLB configuration: 96 bits per window at TT_TLB_CFG_BASE + 12 n, written as
 * three 32-bit words.  Window accesses are complete when the BAR access
 * returns, which satisfies every ordering mode; "linked" and static VCs
 * only shape traffic on silicon and are ignored (logged).
 *
 * Outbound iATU (DesignWare "unrolled" layout, tt-kmd's offsets): a NOC
 * address in windows 4-7 ((1 << 60) + a) matching an enabled region
 * [base, limit] reaches host address target + (a - base); one matching no
 * region passes through untranslated, as the DesignWare iATU does.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/lockable.h"
#include "qemu/bswap.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "hw/tenstorrent/pcie.h"
#include "hw/tenstorrent/noc.h"
#include "hw/tenstorrent/arc.h"
#include "trace.h"

/* Bit positions of the TLB fields, 2 MiB and 4 GiB (HostToDeviceTLBs.md) */
typedef struct TTTlbLayout {
    uint8_t addr_len, shift;
    uint8_t x_end, y_end, x_start, y_start, noc, noc_hi, mcast, order;
    uint8_t linked, static_vc;
} TTTlbLayout;

static const TTTlbLayout tt_tlb_2m = {
    43, TT_TLB_2M_SHIFT, 43, 49, 55, 61, 67, 68, 69, 70, 72, 73,
};
static const TTTlbLayout tt_tlb_4g = {
    32, TT_TLB_4G_SHIFT, 32, 38, 44, 50, 56, 57, 58, 59, 61, 62,
};

/* iATU register indices, region r at TT_IATU_BASE + r * TT_IATU_STRIDE */
enum {
    IATU_CTRL_1, IATU_CTRL_2, IATU_LWR_BASE, IATU_UPR_BASE, IATU_LWR_LIMIT,
    IATU_LWR_TARGET, IATU_UPR_TARGET, IATU_CTRL_3, IATU_UPR_LIMIT,
};
#define IATU_CTRL_1_INCREASE_REGION_SIZE    (1u << 13)
#define IATU_CTRL_2_REGION_EN               (1u << 31)

/*
 * The DBI's DEVICE_CONTROL_DEVICE_STATUS (read by tt-kmd at probe to save
 * MPS) and the eDMA read channel are in tt-pcie-host.h; a transfer moves
 * in chunks of this size.
 */
#define TT_EDMA_CHUNK           (64 * KiB)

static const uint64_t tt_pcie_bar_size[TT_PCIE_NUM_BARS] = {
    TT_PCIE_BAR0_SIZE, TT_PCIE_BAR2_SIZE, TT_PCIE_BAR4_SIZE,
};

int tt_pcie_bar_index(int bar)
{
    return bar == 0 ? 0 : bar == 2 ? 1 : bar == 4 ? 2 : -1;
}

/* Bits [pos, pos + len) of a 96-bit register, len <= 64 */
static uint64_t tt_tlb_bits(const uint32_t w[3], int pos, int len)
{
    uint64_t v = 0;

    for (int i = 0; i < len; i++) {
        int b = pos + i;

        v |= (uint64_t)((qatomic_read(&w[b / 32]) >> (b % 32)) & 1) << i;
    }
    return v;
}

/* A decoded window, for one access */
typedef struct TTTlbWindow {
    uint64_t base;              /* NOC address of the window's first byte */
    uint32_t rect;              /* NOC_RET_ADDR_HI-style coordinates */
    bool mcast;
    int noc;
} TTTlbWindow;

static void tt_tlb_decode(TTPcie *s, int n, TTTlbWindow *w)
{
    const TTTlbLayout *l = n < TT_TLB_2M_COUNT ? &tt_tlb_2m : &tt_tlb_4g;
    const uint32_t *r = s->tlb[n];

    w->base = tt_tlb_bits(r, 0, l->addr_len) << l->shift;
    w->rect = tt_tlb_bits(r, l->x_end, 6) | tt_tlb_bits(r, l->y_end, 6) << 6 |
              tt_tlb_bits(r, l->x_start, 6) << 12 |
              tt_tlb_bits(r, l->y_start, 6) << 18;
    w->mcast = tt_tlb_bits(r, l->mcast, 1);
    w->noc = tt_tlb_bits(r, l->noc, 1);
    if (tt_tlb_bits(r, l->noc_hi, 1)) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-pcie: TLB %d: NOC select %d is "
                      "not 0 or 1; using NOC%d\n", n,
                      (int)tt_tlb_bits(r, l->noc, 2), w->noc);
    }
    if (tt_tlb_bits(r, l->linked, 1) || tt_tlb_bits(r, l->static_vc, 1)) {
        qemu_log_mask(LOG_UNIMP, "tt-pcie: TLB %d: linked/static VC bits "
                      "ignored\n", n);
    }
    if (w->mcast && n < TT_TLB_STRIDED_COUNT &&
        qatomic_read(&s->strided[n])) {
        qemu_log_mask(LOG_UNIMP, "tt-pcie: TLB %d: strided multicast 0x%x "
                      "not modelled; the whole rectangle is written\n", n,
                      qatomic_read(&s->strided[n]));
    }
}

/* Access [offset, offset + len) of one window, not crossing its end */
static void tt_pcie_window_rw(TTPcie *s, int n, uint64_t offset, void *buf,
                              uint64_t len, bool write)
{
    TTTlbWindow w;

    tt_tlb_decode(s, n, &w);
    trace_tt_pcie_window(n, w.noc, w.rect, w.base + offset, len, write,
                         w.mcast);
    while (len) {
        /* NOC transactions carry at most 4 GiB; keep each piece sane */
        uint32_t piece = MIN(len, 16 * MiB);

        tt_niu_host_rw(&s->niu[w.noc], w.rect, w.mcast, w.base + offset,
                       buf, piece, write);
        offset += piece;
        buf = (uint8_t *)buf + piece;
        len -= piece;
    }
}

/* BAR0 [0, 202 * 2 MiB) or all of BAR4, split at window boundaries */
static void tt_pcie_windows_rw(TTPcie *s, int first, int shift,
                               uint64_t offset, void *buf, uint64_t len,
                               bool write)
{
    while (len) {
        uint64_t in = offset & ((1ull << shift) - 1);
        uint64_t piece = MIN(len, (1ull << shift) - in);

        tt_pcie_window_rw(s, first + (offset >> shift), in, buf, piece,
                          write);
        offset += piece;
        buf = (uint8_t *)buf + piece;
        len -= piece;
    }
}

static uint64_t tt_pcie_win_read(void *opaque, hwaddr addr, unsigned size)
{
    TTPcie *s = opaque;
    uint64_t v = 0;

    tt_pcie_windows_rw(s, 0, TT_TLB_2M_SHIFT, addr, &v, size, false);
    return le64_to_cpu(v);
}

static void tt_pcie_win_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    TTPcie *s = opaque;
    uint64_t v = cpu_to_le64(val);

    tt_pcie_windows_rw(s, 0, TT_TLB_2M_SHIFT, addr, &v, size, true);
}

static uint64_t tt_pcie_win4g_read(void *opaque, hwaddr addr, unsigned size)
{
    TTPcie *s = opaque;
    uint64_t v = 0;

    tt_pcie_windows_rw(s, TT_TLB_2M_COUNT, TT_TLB_4G_SHIFT, addr, &v, size,
                       false);
    return le64_to_cpu(v);
}

static void tt_pcie_win4g_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size)
{
    TTPcie *s = opaque;
    uint64_t v = cpu_to_le64(val);

    tt_pcie_windows_rw(s, TT_TLB_2M_COUNT, TT_TLB_4G_SHIFT, addr, &v, size,
                       true);
}

static const MemoryRegionOps tt_pcie_win_ops = {
    .read = tt_pcie_win_read,
    .write = tt_pcie_win_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

static const MemoryRegionOps tt_pcie_win4g_ops = {
    .read = tt_pcie_win4g_read,
    .write = tt_pcie_win4g_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

/* TLB configuration registers: 32-bit accesses only (ttsim, tt-kmd) */
static uint32_t *tt_pcie_tlb_reg(TTPcie *s, hwaddr addr)
{
    if (addr < TT_TLB_COUNT * TT_TLB_CFG_STRIDE) {
        return &s->tlb[addr / 12][addr % 12 / 4];
    }
    addr -= TT_TLB_COUNT * TT_TLB_CFG_STRIDE;
    return addr < sizeof(s->strided) ? &s->strided[addr / 4] : NULL;
}

static uint64_t tt_pcie_tlb_read(void *opaque, hwaddr addr, unsigned size)
{
    uint32_t *r = tt_pcie_tlb_reg(opaque, addr);

    if (!r) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-pcie: read of reserved TLB "
                      "register 0x%" HWADDR_PRIx "\n", TT_TLB_CFG_BASE + addr);
        return 0;
    }
    return qatomic_read(r);
}

static void tt_pcie_tlb_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    uint32_t *r = tt_pcie_tlb_reg(opaque, addr);

    if (!r) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-pcie: write to reserved TLB "
                      "register 0x%" HWADDR_PRIx " ignored\n",
                      TT_TLB_CFG_BASE + addr);
        return;
    }
    trace_tt_pcie_tlb_write(addr / 12, addr, val);
    qatomic_set(r, val);
}

static const MemoryRegionOps tt_pcie_tlb_ops = {
    .read = tt_pcie_tlb_read,
    .write = tt_pcie_tlb_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
};

/* BAR0 outside the decoded ranges: reserved */
static uint64_t tt_pcie_bg_read(void *opaque, hwaddr addr, unsigned size)
{
    qemu_log_mask(LOG_GUEST_ERROR, "tt-pcie: BAR0 read of reserved offset "
                  "0x%" HWADDR_PRIx "\n", addr);
    return 0;
}

static void tt_pcie_bg_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    qemu_log_mask(LOG_GUEST_ERROR, "tt-pcie: BAR0 write to reserved offset "
                  "0x%" HWADDR_PRIx " ignored\n", addr);
}

static const MemoryRegionOps tt_pcie_bg_ops = {
    .read = tt_pcie_bg_read,
    .write = tt_pcie_bg_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
};

/* PCIe 1: BAR0's ARC APB window reaches the ARC tile's APB space (tt-umd) */
static MemTxResult tt_pcie_arc_rw(TTPcie *s, hwaddr addr, uint64_t *val,
                                  unsigned size, bool write)
{
    const TTNocNode *n = tt_noc_node(s->noc, TT_ARC_X, TT_ARC_Y);

    return n ? tt_noc_node_rw(n, TT_PCIE_ARC_APB_NOC + addr, val, size, write)
             : MEMTX_DECODE_ERROR;
}

static uint64_t tt_pcie_arc_read(void *opaque, hwaddr addr, unsigned size)
{
    uint64_t v = 0;

    tt_pcie_arc_rw(opaque, addr, &v, size, false);
    return le64_to_cpu(v);
}

static void tt_pcie_arc_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    uint64_t v = cpu_to_le64(val);

    tt_pcie_arc_rw(opaque, addr, &v, size, true);
}

static const MemoryRegionOps tt_pcie_arc_ops = {
    .read = tt_pcie_arc_read,
    .write = tt_pcie_arc_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
};

static MemTxResult tt_pcie_host_rw(TTPcie *s, uint64_t addr, void *buf,
                                   uint32_t len, bool write);

/*
 * eDMA read channel 0, host to device, in the DBI as ttsim models it
 * (ttsim src/libttsim.cpp): ringing the doorbell
 * copies SIZE bytes from host address SAR to BAR0 offset DAR (the
 * controller's AXI side is BAR0's address space, TLB windows included);
 * SIZE reads 0 when the transfer is over.  A worker thread moves the data:
 * host memory may be the vfio-user client's, reached through a mailbox the
 * client serves only between its own BAR accesses, so the BAR access that
 * rang the doorbell must return first.
 */
typedef struct TTPcieEdma {
    TTPcie *s;
    uint64_t src;
    uint32_t dst, size;
    uint32_t gen;       /* the device's reset generation at the doorbell */
} TTPcieEdma;

static void *tt_pcie_edma_thread(void *opaque)
{
    g_autofree TTPcieEdma *e = opaque;
    TTPcie *s = e->s;
    g_autofree uint8_t *buf = g_malloc(TT_EDMA_CHUNK);
    uint32_t done = 0;
    bool reset = false;

    while (done < e->size && !reset) {
        uint32_t n = MIN(e->size - done, TT_EDMA_CHUNK);

        if (tt_pcie_host_rw(s, e->src + done, buf, n, false) != MEMTX_OK) {
            break;          /* logged; the transfer stops there */
        }
        bql_lock();         /* tile registers behind a window expect it */
        /* a reset (under the BQL) ended the transfer: write nothing more */
        reset = qatomic_read(&s->edma_gen) != e->gen;
        if (!reset) {
            tt_pcie_bar_rw(s, 0, e->dst + done, buf, n, true);
            done += n;
        }
        bql_unlock();
    }
    trace_tt_pcie_edma(e->src, e->dst, e->size, done);
    bql_lock();
    if (qatomic_read(&s->edma_gen) == e->gen) {
        qatomic_set(&s->dbi[TT_EDMA_RD_SIZE / 4], 0);
        qatomic_set(&s->edma_busy, false);
    }
    bql_unlock();
    return NULL;
}

static void tt_pcie_edma_doorbell(TTPcie *s, uint32_t val)
{
    uint32_t size = qatomic_read(&s->dbi[TT_EDMA_RD_SIZE / 4]);
    uint32_t dst = qatomic_read(&s->dbi[TT_EDMA_RD_DAR_LO / 4]);
    QemuThread thread;
    TTPcieEdma *e;

    if (val != 1) {
        qemu_log_mask(LOG_UNIMP, "tt-pcie: eDMA doorbell 0x%x: only "
                      "starting read channel 0 (1) is modelled\n", val);
        return;
    }
    if (!size || (size | dst) & 3 ||
        qatomic_read(&s->dbi[TT_EDMA_RD_DAR_HI / 4]) ||
        (uint64_t)dst + size > TT_PCIE_BAR0_SIZE) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-pcie: eDMA of %u bytes to BAR0 "
                      "offset 0x%x: size and address must be 4-byte "
                      "aligned, nonzero and inside BAR0; not started\n",
                      size, dst);
        return;
    }
    if (qatomic_xchg(&s->edma_busy, true)) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-pcie: eDMA doorbell during a "
                      "transfer; ignored\n");
        return;
    }
    e = g_new(TTPcieEdma, 1);
    *e = (TTPcieEdma) {
        .s = s, .dst = dst, .size = size,
        .src = deposit64(qatomic_read(&s->dbi[TT_EDMA_RD_SAR_LO / 4]), 32, 32,
                         qatomic_read(&s->dbi[TT_EDMA_RD_SAR_HI / 4])),
        .gen = qatomic_read(&s->edma_gen),
    };
    qemu_thread_create(&thread, "tt-pcie-edma", tt_pcie_edma_thread, e,
                       QEMU_THREAD_DETACHED);
}

/* BAR2: DBI registers read back what was written; the iATU is decoded */
static uint64_t tt_pcie_dbi_read(void *opaque, hwaddr addr, unsigned size)
{
    TTPcie *s = opaque;

    return qatomic_read(&s->dbi[addr / 4]);
}

static void tt_pcie_dbi_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    TTPcie *s = opaque;

    trace_tt_pcie_dbi_write(addr, val);
    if (addr == TT_EDMA_RD_SIZE && qatomic_read(&s->edma_busy)) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-pcie: eDMA transfer size written "
                      "during a transfer; ignored\n");
        return;
    }
    qatomic_set(&s->dbi[addr / 4], val);
    if (addr == TT_EDMA_RD_DOORBELL) {
        tt_pcie_edma_doorbell(s, val);
    } else if (addr > TT_EDMA_RD_DAR_HI && addr < 0x1ac) {
        qemu_log_mask(LOG_UNIMP, "tt-pcie: eDMA register 0x%" HWADDR_PRIx
                      " stored; interrupts are not modelled\n", addr);
    }
}

static const MemoryRegionOps tt_pcie_dbi_ops = {
    .read = tt_pcie_dbi_read,
    .write = tt_pcie_dbi_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
};

static uint32_t tt_iatu(TTPcie *s, int r, int reg)
{
    return qatomic_read(&s->dbi[(TT_IATU_BASE + r * TT_IATU_STRIDE) / 4 +
                                reg]);
}

/* Outbound iATU: host address of NOC window offset @a */
static uint64_t tt_pcie_iatu_translate(TTPcie *s, uint64_t a)
{
    for (int r = 0; r < TT_IATU_REGIONS; r++) {
        uint64_t base, limit;

        if (!(tt_iatu(s, r, IATU_CTRL_2) & IATU_CTRL_2_REGION_EN)) {
            continue;
        }
        base = deposit64(tt_iatu(s, r, IATU_LWR_BASE), 32, 32,
                         tt_iatu(s, r, IATU_UPR_BASE));
        limit = deposit64(tt_iatu(s, r, IATU_LWR_LIMIT), 32, 32,
                          tt_iatu(s, r, IATU_CTRL_1) &
                          IATU_CTRL_1_INCREASE_REGION_SIZE
                          ? tt_iatu(s, r, IATU_UPR_LIMIT)
                          : tt_iatu(s, r, IATU_UPR_BASE));
        if (a >= base && a <= limit) {
            uint64_t host = deposit64(tt_iatu(s, r, IATU_LWR_TARGET), 32, 32,
                                      tt_iatu(s, r, IATU_UPR_TARGET)) +
                            (a - base);

            trace_tt_pcie_iatu(r, a, host);
            return host;
        }
    }
    trace_tt_pcie_iatu(-1, a, a);
    return a;
}

static MemTxResult tt_pcie_host_rw(TTPcie *s, uint64_t addr, void *buf,
                                   uint32_t len, bool write)
{
    TTPcieDmaFn fn;
    void *opaque;
    MemTxResult r;

    WITH_QEMU_LOCK_GUARD(&s->dma_lock) {
        fn = s->dma_fn;
        opaque = s->dma_opaque;
        s->dma_users += !!fn;
    }
    if (fn) {
        /* unlocked: it may wait for a host that needs it meanwhile */
        r = fn(opaque, addr, buf, len, write);
        WITH_QEMU_LOCK_GUARD(&s->dma_lock) {
            if (!--s->dma_users) {
                qemu_cond_broadcast(&s->dma_idle);
            }
        }
    } else {
        r = address_space_rw(&s->host_mem_as, addr, MEMTXATTRS_UNSPECIFIED,
                             buf, len, write);
    }
    if (r != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-pcie: %u-byte %s host memory at "
                      "0x%" PRIx64 " failed: nothing mapped there\n", len,
                      write ? "write to" : "read of", addr);
    }
    return r;
}

/* A NOC transaction that reached the PCIe tile (PCIExpressTile/README.md) */
static MemTxResult tt_pcie_noc_rw(void *opaque, uint64_t addr, void *buf,
                                  uint32_t len, bool write)
{
    TTPcie *s = opaque;
    uint64_t a = addr & TT_PCIE_WIN_MASK;
    int win = addr >> TT_PCIE_WIN_SHIFT;

    if (win < 4) {              /* host address, ordering variants */
        return tt_pcie_host_rw(s, a, buf, len, write);
    }
    if (win < 8) {              /* through the outbound iATU */
        return tt_pcie_host_rw(s, tt_pcie_iatu_translate(s, a), buf, len,
                               write);
    }
    if (win == 0x3e && a < TT_PCIE_BAR2_SIZE && len == 4 && !(a & 3)) {
        /* DBI, 32-bit registers (called directly: same device as BAR2) */
        if (write) {
            tt_pcie_dbi_write(s, a, ldl_le_p(buf), 4);
        } else {
            stl_le_p(buf, tt_pcie_dbi_read(s, a, 4));
        }
        return MEMTX_OK;
    }
    if (addr >= TT_PCIE_NIU_NOC_ADDR && len == 4) {
        /* the NIUs' own registers, NOC0's then NOC1's (tt-umd) */
        hwaddr off = addr - TT_PCIE_NIU_NOC_ADDR;
        int noc = off >= 0x10000;

        if (off < 0x20000) {
            uint64_t v = ldl_le_p(buf);
            MemTxResult r;

            off &= 0xffff;
            if (write) {
                return memory_region_dispatch_write(&s->niu[noc].mmio, off,
                                                    v, MO_32,
                                                    MEMTXATTRS_UNSPECIFIED);
            }
            r = memory_region_dispatch_read(&s->niu[noc].mmio, off, &v,
                                            MO_32, MEMTXATTRS_UNSPECIFIED);
            stl_le_p(buf, v);
            return r;
        }
    }
    qemu_log_mask(LOG_GUEST_ERROR, "tt-pcie: NOC %s at 0x%" PRIx64 " of the "
                  "PCIe tile reaches nothing\n", write ? "write" : "read",
                  addr);
    return MEMTX_DECODE_ERROR;
}

/* The same, for qtest and the monitor through the node's address space */
static MemTxResult tt_pcie_noc_as_read(void *opaque, hwaddr addr,
                                       uint64_t *data, unsigned size,
                                       MemTxAttrs attrs)
{
    uint64_t v = 0;
    MemTxResult r = tt_pcie_noc_rw(opaque, addr, &v, size, false);

    *data = le64_to_cpu(v);
    return r;
}

static MemTxResult tt_pcie_noc_as_write(void *opaque, hwaddr addr,
                                        uint64_t data, unsigned size,
                                        MemTxAttrs attrs)
{
    uint64_t v = cpu_to_le64(data);

    return tt_pcie_noc_rw(opaque, addr, &v, size, true);
}

static const MemoryRegionOps tt_pcie_noc_ops = {
    .read_with_attrs = tt_pcie_noc_as_read,
    .write_with_attrs = tt_pcie_noc_as_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

MemTxResult tt_pcie_bar_rw(TTPcie *s, int bar, uint64_t offset, void *buf,
                           uint64_t len, bool write)
{
    int i = tt_pcie_bar_index(bar);
    uint64_t win_end = i == 0 ? (uint64_t)TT_TLB_2M_COUNT << TT_TLB_2M_SHIFT
                              : i == 2 ? TT_PCIE_BAR4_SIZE : 0;

    if (i < 0 || offset >= tt_pcie_bar_size[i] ||
        len > tt_pcie_bar_size[i] - offset) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-pcie: %" PRIu64 "-byte access "
                      "at 0x%" PRIx64 " is outside BAR%d\n", len, offset, bar);
        if (!write) {
            memset(buf, 0xff, len);
        }
        return MEMTX_DECODE_ERROR;
    }
    if (offset + len <= win_end) {
        tt_pcie_windows_rw(s, i ? TT_TLB_2M_COUNT : 0,
                           i ? TT_TLB_4G_SHIFT : TT_TLB_2M_SHIFT, offset, buf,
                           len, write);
        return MEMTX_OK;
    }
    return address_space_rw(&s->bar_as[i], offset, MEMTXATTRS_UNSPECIFIED,
                            buf, len, write);
}

void tt_pcie_set_dma(TTPcie *s, TTPcieDmaFn fn, void *opaque)
{
    bool bql = bql_locked();

    qemu_mutex_lock(&s->dma_lock);
    while (s->dma_users) {
        /* the BQL comes before dma_lock: let go of both, retake in order */
        if (bql) {
            bql_unlock();
        }
        qemu_cond_wait(&s->dma_idle, &s->dma_lock);
        if (bql) {
            qemu_mutex_unlock(&s->dma_lock);
            bql_lock();
            qemu_mutex_lock(&s->dma_lock);
        }
    }
    s->dma_fn = fn;
    s->dma_opaque = opaque;
    qemu_mutex_unlock(&s->dma_lock);
}

static void tt_pcie_init_bar0(TTPcie *s)
{
    Object *o = OBJECT(s);
    MemoryRegion *b = &s->bar[0];

    memory_region_init(b, o, "tt-pcie-bar0", TT_PCIE_BAR0_SIZE);
    memory_region_init_io(&s->bar0_bg, o, &tt_pcie_bg_ops, s,
                          "tt-pcie-bar0-reserved", TT_PCIE_BAR0_SIZE);
    memory_region_add_subregion_overlap(b, 0, &s->bar0_bg, -1);
    memory_region_init_io(&s->bar0_win, o, &tt_pcie_win_ops, s,
                          "tt-pcie-tlb-2m",
                          (uint64_t)TT_TLB_2M_COUNT << TT_TLB_2M_SHIFT);
    memory_region_add_subregion(b, 0, &s->bar0_win);
    memory_region_init_io(&s->bar0_tlb, o, &tt_pcie_tlb_ops, s,
                          "tt-pcie-tlb-cfg", TT_TLB_CFG_SIZE);
    memory_region_add_subregion(b, TT_TLB_CFG_BASE, &s->bar0_tlb);
    for (int n = 0; n < TT_NUM_NOCS; n++) {
        memory_region_init_alias(&s->bar0_niu[n], o, "tt-pcie-noc2axi-niu",
                                 &s->niu[n].mmio, 0, TT_NOC2AXI_NIU_SIZE);
        memory_region_add_subregion(b, TT_NOC2AXI_NIU(n), &s->bar0_niu[n]);
    }
    if (s->x == 11) {
        memory_region_init_io(&s->bar0_arc, o, &tt_pcie_arc_ops, s,
                              "tt-pcie-arc-apb",
                              TT_PCIE_BAR0_SIZE - TT_PCIE_ARC_APB_BASE);
        memory_region_add_subregion(b, TT_PCIE_ARC_APB_BASE, &s->bar0_arc);
    }
}

static bool tt_pcie_init_nius(TTPcie *s, Error **errp)
{
    for (int n = 0; n < TT_NUM_NOCS; n++) {
        DeviceState *d = DEVICE(&s->niu[n]);

        qdev_prop_set_uint8(d, "noc", n);
        qdev_prop_set_uint8(d, "x", s->x);
        qdev_prop_set_uint8(d, "y", 0);
        qdev_prop_set_uint32(d, "node-id", tt_noc_node_id(n, s->x, 0));
        qdev_prop_set_uint32(d, "logical-id",
                             TT_NOC_XY(TT_VIRT_PCIE_X, TT_VIRT_PCIE_Y));
        object_property_set_link(OBJECT(d), "fabric", OBJECT(s->noc),
                                 &error_abort);
        if (!sysbus_realize(SYS_BUS_DEVICE(d), errp)) {
            return false;
        }
    }
    return true;
}

static void tt_pcie_realize(DeviceState *dev, Error **errp)
{
    TTPcie *s = TT_PCIE(dev);
    Object *o = OBJECT(s);
    static const char *const names[] = { "tt-pcie-bar0", "tt-pcie-bar2",
                                         "tt-pcie-bar4" };

    if (s->x != 2 && s->x != 11) {
        error_setg(errp, "tt-pcie: x must be 2 (PCIe 0) or 11 (PCIe 1)");
        return;
    }
    if (!s->noc) {
        error_setg(errp, "tt-pcie: 'noc' link not set");
        return;
    }
    if (!tt_pcie_init_nius(s, errp) ||
        !memory_region_init_ram(&s->host_mem, o, "tt-pcie-host-mem",
                                s->host_mem_size, errp)) {
        return;
    }
    qemu_mutex_init(&s->dma_lock);
    qemu_cond_init(&s->dma_idle);
    address_space_init(&s->host_mem_as, &s->host_mem, "tt-pcie-host-mem");
    s->dbi = g_new0(uint32_t, TT_PCIE_BAR2_SIZE / 4);

    tt_pcie_init_bar0(s);
    memory_region_init(&s->bar[1], o, names[1], TT_PCIE_BAR2_SIZE);
    memory_region_init_io(&s->bar2_dbi, o, &tt_pcie_dbi_ops, s, "tt-pcie-dbi",
                          TT_PCIE_BAR2_SIZE);
    memory_region_add_subregion(&s->bar[1], 0, &s->bar2_dbi);
    memory_region_init(&s->bar[2], o, names[2], TT_PCIE_BAR4_SIZE);
    memory_region_init_io(&s->bar4_win, o, &tt_pcie_win4g_ops, s,
                          "tt-pcie-tlb-4g", TT_PCIE_BAR4_SIZE);
    memory_region_add_subregion(&s->bar[2], 0, &s->bar4_win);
    for (int i = 0; i < TT_PCIE_NUM_BARS; i++) {
        address_space_init(&s->bar_as[i], &s->bar[i], names[i]);
    }
    memory_region_init_io(&s->noc_side, o, &tt_pcie_noc_ops, s, "tt-pcie-noc",
                          UINT64_MAX);
    address_space_init(&s->noc_as, &s->noc_side, "tt-pcie-noc");
    /* what the NOC reaches at (x, 0): this endpoint, any length */
    tt_noc_add_node(s->noc, s->x, 0, &s->noc_as, NULL, NULL);
    tt_noc_set_node_rw(s->noc, s->x, 0, tt_pcie_noc_rw, s);
}

static void tt_pcie_reset_hold(Object *obj, ResetType type)
{
    TTPcie *s = TT_PCIE(obj);

    memset(s->tlb, 0, sizeof(s->tlb));
    memset(s->strided, 0, sizeof(s->strided));
    /* a transfer under way stops before its next chunk */
    qatomic_inc(&s->edma_gen);
    qatomic_set(&s->edma_busy, false);
    if (s->dbi) {
        memset(s->dbi, 0, TT_PCIE_BAR2_SIZE);
        s->dbi[TT_DBI_DEVCTL / 4] = TT_DBI_DEVCTL_RESET;
    }
}

static void tt_pcie_init(Object *obj)
{
    TTPcie *s = TT_PCIE(obj);

    object_initialize_child(obj, "niu0", &s->niu[0], TYPE_TT_NIU);
    object_initialize_child(obj, "niu1", &s->niu[1], TYPE_TT_NIU);
}

/*
 * An eDMA transfer runs in a thread of its own (tt_pcie_edma_thread()),
 * which a stopped machine does not stop: its progress is not state the
 * stream could carry.  Saving is refused until it is done.  The TLB and
 * iATU configuration (in the DBI space) is plain data, validated where
 * each access translates it.
 */
static int tt_pcie_pre_save(void *opaque)
{
    TTPcie *s = opaque;

    if (qatomic_read(&s->edma_busy)) {
        error_report("tt-pcie: cannot save while an eDMA transfer is under "
                     "way; retry once it has completed");
        return -EBUSY;
    }
    return 0;
}

static const VMStateDescription vmstate_tt_pcie = {
    .name = TYPE_TT_PCIE,
    .version_id = 1,
    .minimum_version_id = 1,
    .pre_save = tt_pcie_pre_save,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_2DARRAY(tlb, TTPcie, TT_TLB_COUNT, 3),
        VMSTATE_UINT32_ARRAY(strided, TTPcie, TT_TLB_STRIDED_COUNT),
        VMSTATE_BUFFER_POINTER_UNSAFE(dbi, TTPcie, 0, TT_PCIE_BAR2_SIZE),
        VMSTATE_END_OF_LIST()
    },
};

static const Property tt_pcie_props[] = {
    DEFINE_PROP_UINT8("x", TTPcie, x, 2),
    DEFINE_PROP_LINK("noc", TTPcie, noc, TYPE_TT_NOC, TTNoc *),
    DEFINE_PROP_SIZE("host-mem-size", TTPcie, host_mem_size, 64 * MiB),
};

static void tt_pcie_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole PCIe endpoint";
    dc->realize = tt_pcie_realize;
    dc->vmsd = &vmstate_tt_pcie;
    dc->user_creatable = false;
    rc->phases.hold = tt_pcie_reset_hold;
    device_class_set_props(dc, tt_pcie_props);
}

static const TypeInfo tt_pcie_types[] = {
    {
        .name = TYPE_TT_PCIE,
        .parent = TYPE_SYS_BUS_DEVICE,
        .instance_size = sizeof(TTPcie),
        .instance_init = tt_pcie_init,
        .class_init = tt_pcie_class_init,
    },
};

DEFINE_TYPES(tt_pcie_types)
