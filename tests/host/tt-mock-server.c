/*
 * A test double of QEMU's tt-vfio-user server, built on libvfio-user, for
 * testing libttsim.so where running the emulator is not wanted or cannot
 * show the behaviour (device-to-host DMA needs firmware on the chip).
 *
 *   tt-mock-server <socket path>
 *
 * Serves one client, then exits.  What it models:
 *  - config space: vendor 0x1E52, device 0xB140, class 0x12;
 *  - BAR0 (512 MiB): TLB configuration words at TT_TLB_CFG_BASE (4-byte writes
 *    only, as ttsim), 202 2 MiB windows onto a sparse per-tile memory in
 *    which ARC's boot status (8,0) 0x80030408 reads 5;
 *  - BAR2 (1 MiB): plain memory, plus a fake DMA engine at 0xF0000 that
 *    moves MOCK_DMA_BUF <-> host memory through the mailbox;
 *  - BAR4 (32 GiB): sparse memory;
 *  - region 8: the host DMA mailbox, as in hw/tenstorrent/vfio-user.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "libvfio-user.h"
#include "tt-pcie-host.h"       /* generated from data/pcie-host.yaml */

#define MiB                 (1ull << 20)
#define PAGE_SIZE_MOCK      0x10000u

#define BAR0_SIZE           (512 * MiB)
#define BAR2_SIZE           (1 * MiB)
#define BAR4_SIZE           (32ull << 30)
#define TLB_CFG_BASE        TT_TLB_CFG_BASE
#define TLB_COUNT           210
#define TLB_2M_COUNT        202
#define TLB_2M_SIZE         (2 * MiB)

/* The fake DMA engine in BAR2 (test-only, not a Blackhole register) */
#define MOCK_DMA_ADDR_LO    0xf0000
#define MOCK_DMA_ADDR_HI    0xf0004
#define MOCK_DMA_LEN        0xf0008
#define MOCK_DMA_GO         0xf000c     /* bit 0 dir, bits 15:8 delay */
#define MOCK_MAX_READ       0xf0010     /* RO: largest read seen */
#define MOCK_DROPPED        0xf0014     /* RO: DMA started, mailbox off */
#define MOCK_MAX_WRITE      0xf0018     /* RO: largest write seen */
#define MOCK_DMA_BUF        0x80000
#define MOCK_DMA_BUF_SIZE   0x70000

/* Mailbox registers (hw/tenstorrent/vfio-user.c) */
#define MBOX_REGION         VFU_PCI_DEV_VGA_REGION_IDX
#define MBOX_CTRL           0x00
#define MBOX_STATUS         0x04
#define MBOX_DIR            0x08
#define MBOX_LEN            0x0c
#define MBOX_ADDR           0x10
#define MBOX_DONE           0x18
#define MBOX_DATA           0x1000
#define MBOX_DATA_SIZE      0x10000

/* Sparse memory: 64 KiB pages keyed by (x, y, address) */
typedef struct Page {
    uint32_t x, y;
    uint64_t addr;
    struct Page *next;
    uint8_t data[PAGE_SIZE_MOCK];
} Page;

/* One device-to-host transfer, cut into mailbox pieces */
typedef struct Dma {
    bool active;
    uint32_t dir;               /* 0: device reads host, 1: writes */
    uint64_t addr;              /* host address of the whole transfer */
    uint32_t len, done;         /* bytes in all, bytes completed */
    uint32_t piece;             /* bytes of the piece posted */
    uint32_t delay;             /* STATUS reads that still report 0 */
} Dma;

static Page *pages;
static uint32_t tlb_cfg[TLB_COUNT * 3];
static uint8_t bar2[BAR2_SIZE];
static uint32_t max_read, max_write;
static uint32_t dropped;
static bool mbox_on;
static uint8_t mbox_data[MBOX_DATA_SIZE];
static Dma dma;

static uint8_t *page_at(uint32_t x, uint32_t y, uint64_t addr)
{
    uint64_t base = addr & ~(uint64_t)(PAGE_SIZE_MOCK - 1);
    Page *p;

    for (p = pages; p; p = p->next) {
        if (p->x == x && p->y == y && p->addr == base) {
            return p->data + (addr - base);
        }
    }
    p = calloc(1, sizeof(*p));
    if (!p) {
        abort();
    }
    p->x = x;
    p->y = y;
    p->addr = base;
    p->next = pages;
    pages = p;
    return p->data + (addr - base);
}

static void mem_rw(uint32_t x, uint32_t y, uint64_t addr, char *buf,
                   size_t count, bool is_write)
{
    while (count > 0) {
        size_t in_page = PAGE_SIZE_MOCK - (addr & (PAGE_SIZE_MOCK - 1));
        size_t n = count < in_page ? count : in_page;
        uint8_t *p = page_at(x, y, addr);

        if (is_write) {
            memcpy(p, buf, n);
        } else {
            memcpy(buf, p, n);
        }
        addr += n;
        buf += n;
        count -= n;
    }
}

static void note_access(size_t count, bool is_write)
{
    uint32_t *max = is_write ? &max_write : &max_read;

    if (count > *max) {
        *max = count;
    }
}

static ssize_t refuse(const char *what, loff_t off, size_t count)
{
    fprintf(stderr, "tt-mock-server: refused %s at 0x%llx (+%zu)\n", what,
            (unsigned long long)off, count);
    errno = EINVAL;
    return -1;
}

/* -------------------------------------------------------------- BAR0 -- */

static ssize_t bar0_tlb_cfg(char *buf, size_t count, loff_t off,
                            bool is_write)
{
    size_t i = (off - TLB_CFG_BASE);

    if (i + count > sizeof(tlb_cfg)) {
        return refuse("TLB config access", off, count);
    }
    if (is_write) {
        if (count != 4 || (off & 3)) {
            return refuse("TLB config write other than 4 bytes", off,
                          count);
        }
        memcpy((char *)tlb_cfg + i, buf, 4);
    } else {
        memcpy(buf, (char *)tlb_cfg + i, count);
    }
    return count;
}

/*
 * Decode a 2 MiB window like the chip (tt-isa-documentation
 * BlackholeA0/PCIExpressTile/HostToDeviceTLBs.md)
 */
static ssize_t bar0_window(char *buf, size_t count, loff_t off,
                           bool is_write)
{
    uint32_t w = off / TLB_2M_SIZE, in = off % TLB_2M_SIZE;
    const uint32_t *cfg = &tlb_cfg[w * 3];
    uint64_t local = (uint64_t)(cfg[1] & 0x7ff) << 32 | cfg[0];
    uint32_t x = (cfg[1] >> 11) & 0x3f, y = (cfg[1] >> 17) & 0x3f;

    if (in + count > TLB_2M_SIZE) {
        return refuse("access across a TLB window", off, count);
    }
    mem_rw(x, y, local * TLB_2M_SIZE + in, buf, count, is_write);
    return count;
}

static ssize_t bar0_access(vfu_ctx_t *ctx, char *buf, size_t count,
                           loff_t off, bool is_write)
{
    note_access(count, is_write);
    if (off >= TLB_CFG_BASE && off < TLB_CFG_BASE + sizeof(tlb_cfg)) {
        return bar0_tlb_cfg(buf, count, off, is_write);
    }
    if (off < (loff_t)TLB_2M_COUNT * TLB_2M_SIZE) {
        return bar0_window(buf, count, off, is_write);
    }
    return refuse("BAR0 access", off, count);
}

/* ------------------------------------------------- BAR2 and mailbox -- */

static uint32_t bar2_rd32(uint32_t off)
{
    uint32_t v;

    memcpy(&v, bar2 + off, 4);
    return v;
}

static void dma_post_piece(void)
{
    uint32_t left = dma.len - dma.done;

    dma.piece = left < MBOX_DATA_SIZE ? left : MBOX_DATA_SIZE;
    if (dma.dir == 1) {
        memcpy(mbox_data, bar2 + MOCK_DMA_BUF + dma.done, dma.piece);
    }
}

static void dma_start(uint32_t go)
{
    dma.dir = go & 1;
    dma.delay = (go >> 8) & 0xff;
    dma.addr = (uint64_t)bar2_rd32(MOCK_DMA_ADDR_HI) << 32 |
               bar2_rd32(MOCK_DMA_ADDR_LO);
    dma.len = bar2_rd32(MOCK_DMA_LEN);
    dma.done = 0;
    if (!mbox_on || dma.len == 0 || dma.len > MOCK_DMA_BUF_SIZE) {
        dropped++;
        return;
    }
    dma.active = true;
    dma_post_piece();
}

static void dma_piece_done(void)
{
    if (dma.dir == 0) {
        memcpy(bar2 + MOCK_DMA_BUF + dma.done, mbox_data, dma.piece);
    }
    dma.done += dma.piece;
    if (dma.done < dma.len) {
        dma_post_piece();       /* STATUS stays 1: the client loops */
    } else {
        dma.active = false;
    }
}

static ssize_t bar2_access(vfu_ctx_t *ctx, char *buf, size_t count,
                           loff_t off, bool is_write)
{
    uint32_t v;

    note_access(count, is_write);
    if (is_write && off == MOCK_DMA_GO && count == 4) {
        memcpy(&v, buf, 4);
        dma_start(v);
        return count;
    }
    if (!is_write && off == MOCK_MAX_READ && count == 4) {
        memcpy(buf, &max_read, 4);
        return count;
    }
    if (!is_write && off == MOCK_MAX_WRITE && count == 4) {
        memcpy(buf, &max_write, 4);
        return count;
    }
    if (!is_write && off == MOCK_DROPPED && count == 4) {
        memcpy(buf, &dropped, 4);
        return count;
    }
    if (is_write) {
        memcpy(bar2 + off, buf, count);
    } else {
        memcpy(buf, bar2 + off, count);
    }
    return count;
}

static ssize_t bar4_access(vfu_ctx_t *ctx, char *buf, size_t count,
                           loff_t off, bool is_write)
{
    note_access(count, is_write);
    mem_rw(0xff, 0xff, off, buf, count, is_write);
    return count;
}

static uint32_t mbox_reg(loff_t off)
{
    switch (off) {
    case MBOX_CTRL:
        return mbox_on;
    case MBOX_STATUS:
        if (dma.active && dma.delay > 0) {
            dma.delay--;
            return 0;
        }
        return dma.active;
    case MBOX_DIR:
        return dma.dir;
    case MBOX_LEN:
        return dma.piece;
    default:
        return 0;
    }
}

/* Same access rules as the real server: 4-byte registers, 8-byte ADDR */
static ssize_t mbox_access(vfu_ctx_t *ctx, char *buf, size_t count,
                           loff_t off, bool is_write)
{
    uint32_t v = 0;

    if (off >= MBOX_DATA) {
        if (off + count > MBOX_DATA + MBOX_DATA_SIZE) {
            return refuse("mailbox data access", off, count);
        }
        if (is_write) {
            memcpy(mbox_data + off - MBOX_DATA, buf, count);
        } else {
            memcpy(buf, mbox_data + off - MBOX_DATA, count);
        }
        return count;
    }
    if (off == MBOX_ADDR && count == 8 && !is_write) {
        uint64_t a = dma.addr + dma.done;

        memcpy(buf, &a, 8);
        return count;
    }
    if (count != 4) {
        return refuse("mailbox register access", off, count);
    }
    if (!is_write) {
        v = mbox_reg(off);
        memcpy(buf, &v, 4);
        return count;
    }
    memcpy(&v, buf, 4);
    if (off == MBOX_CTRL) {
        mbox_on = v & 1;
    } else if (off == MBOX_DONE && v == 1 && dma.active) {
        dma_piece_done();
    } else {
        return refuse("mailbox write", off, count);
    }
    return count;
}

/* ------------------------------------------------------------- setup -- */

static void mock_log(vfu_ctx_t *ctx, int level, const char *msg)
{
    fprintf(stderr, "tt-mock-server: %s\n", msg);
}

static int setup(vfu_ctx_t *ctx)
{
    int mem = VFU_REGION_FLAG_RW | VFU_REGION_FLAG_MEM;
    uint32_t ready = 5;

    /* ARC RESET_SCRATCH(2): boot status "ready" (tt-kmd blackhole.c) */
    mem_rw(8, 0, 0x80030408, (char *)&ready, 4, true);

    if (vfu_setup_log(ctx, mock_log, LOG_ERR) ||
        vfu_pci_init(ctx, VFU_PCI_TYPE_EXPRESS, PCI_HEADER_TYPE_NORMAL, 0)) {
        return -1;
    }
    vfu_pci_set_id(ctx, 0x1e52, 0xb140, 0x1e52, 0x0040);
    vfu_pci_set_class(ctx, 0x12, 0, 0);
    return vfu_setup_region(ctx, VFU_PCI_DEV_BAR0_REGION_IDX, BAR0_SIZE,
                            bar0_access, mem, NULL, 0, -1, 0) ||
           vfu_setup_region(ctx, VFU_PCI_DEV_BAR2_REGION_IDX, BAR2_SIZE,
                            bar2_access, mem, NULL, 0, -1, 0) ||
           vfu_setup_region(ctx, VFU_PCI_DEV_BAR4_REGION_IDX, BAR4_SIZE,
                            bar4_access, mem, NULL, 0, -1, 0) ||
           vfu_setup_region(ctx, MBOX_REGION, MBOX_DATA + MBOX_DATA_SIZE,
                            mbox_access, VFU_REGION_FLAG_RW, NULL, 0, -1,
                            0) ||
           vfu_realize_ctx(ctx) ? -1 : 0;
}

int main(int argc, char **argv)
{
    vfu_ctx_t *ctx;
    int ret;

    if (argc != 2) {
        fprintf(stderr, "usage: %s <socket path>\n", argv[0]);
        return 2;
    }
    ctx = vfu_create_ctx(VFU_TRANS_SOCK, argv[1], 0, NULL, VFU_DEV_TYPE_PCI);
    if (!ctx || setup(ctx) < 0) {
        perror("tt-mock-server: setup");
        return 1;
    }
    if (vfu_attach_ctx(ctx) < 0) {
        perror("tt-mock-server: attach");
        return 1;
    }
    do {
        ret = vfu_run_ctx(ctx);
    } while (ret >= 0 || errno == EINTR);
    ret = errno == ENOTCONN || errno == ESHUTDOWN ? 0 : 1;
    if (ret) {
        perror("tt-mock-server: run");
    }
    vfu_destroy_ctx(ctx);
    return ret;
}
