/*
 * Runs inside the Linux guest of tests/guest/guest-test.sh: finds the
 * Blackhole PCI function (1e52:b140, served by tt-vfio-user), checks its
 * BARs, and reaches the chip through sysfs mmaps of BAR0 and BAR4 the way
 * a user-space driver without tt-kmd does: TLB window registers, 2 MiB and
 * 4 GiB windows onto tile L1, DRAM and the ARC tile.  Prints TAP.
 * Built static with the host compiler.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tt-pcie-host.h"       /* generated from data/pcie-host.yaml */

#define TLB_CFG         TT_TLB_CFG_BASE
#define NIU0_NODE_ID    0x1fd04044u
#define WIN2M(n)        ((uint64_t)(n) << 21)

static int n_test;

static void ok(int cond, const char *what)
{
    printf("%s %d - %s\n", cond ? "ok" : "not ok", ++n_test, what);
    fflush(stdout);
}

static int read_hex(const char *dir, const char *file, unsigned long *v)
{
    char path[600];
    FILE *f;
    int r;

    snprintf(path, sizeof(path), "%s/%s", dir, file);
    f = fopen(path, "r");
    if (!f) {
        return -1;
    }
    r = fscanf(f, "%lx", v) == 1 ? 0 : -1;
    fclose(f);
    return r;
}

/* The device's sysfs directory, or NULL */
static char *find_device(void)
{
    static char path[300];
    DIR *d = opendir("/sys/bus/pci/devices");
    struct dirent *e;

    while (d && (e = readdir(d))) {
        unsigned long ven, dev;

        snprintf(path, sizeof(path), "/sys/bus/pci/devices/%.256s",
                 e->d_name);
        if (!read_hex(path, "vendor", &ven) &&
            !read_hex(path, "device", &dev) &&
            ven == 0x1e52 && dev == 0xb140) {
            closedir(d);
            return path;
        }
    }
    if (d) {
        closedir(d);
    }
    return NULL;
}

/* Sizes of BARs 0-5 from the "resource" file */
static void bar_sizes(const char *dir, uint64_t size[6])
{
    char path[600];
    FILE *f;

    snprintf(path, sizeof(path), "%s/resource", dir);
    f = fopen(path, "r");
    for (int i = 0; i < 6; i++) {
        uint64_t start = 0, end = 0, flags = 0;

        size[i] = 0;
        if (f && fscanf(f, "%" SCNx64 " %" SCNx64 " %" SCNx64, &start, &end,
                        &flags) == 3 && end > start) {
            size[i] = end - start + 1;
        }
    }
    if (f) {
        fclose(f);
    }
}

static volatile uint32_t *map(const char *dir, int bar, uint64_t off,
                              size_t len)
{
    char path[600];
    void *p;
    int fd;

    snprintf(path, sizeof(path), "%s/resource%d", dir, bar);
    fd = open(path, O_RDWR | O_SYNC);
    if (fd < 0) {
        return NULL;
    }
    p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
    close(fd);
    return p == MAP_FAILED ? NULL : p;
}

/* 2 MiB window @n onto @addr of tile (x, y): three 32-bit writes */
static void tlb_2m(volatile uint32_t *cfg, int n, uint64_t addr, int x, int y)
{
    uint64_t o = addr >> 21;

    cfg[n * 3] = (uint32_t)o;
    cfg[n * 3 + 1] = (uint32_t)(o >> 32 & 0x7ff) | x << 11 | y << 17;
    cfg[n * 3 + 2] = 1u << 6;       /* strict ordering */
}

/*
 * tt-kmd's ioctl ABI (tenstorrent/tt-kmd ioctl.h, driver version 2):
 * _IO(0xFA, n), one in/out buffer each.
 */
#define TT_IOCTL(n)     (((0xfa) << 8) | (n))
struct tt_dev_info {
    uint32_t in_size;
    uint32_t out_size;
    uint16_t vendor, device, sub_vendor, sub_id, bdf, dma_log2, domain, r;
};
struct tt_alloc_tlb {
    uint64_t size, reserved;
    uint32_t id, reserved0;
    uint64_t mmap_uc, mmap_wc, reserved1;
};
struct tt_config_tlb {
    uint32_t id, reserved;
    uint64_t addr;
    uint16_t x_end, y_end, x_start, y_start;
    uint8_t noc, mcast, ordering, linked, static_vc, reserved0[3];
    uint32_t reserved1[2];
    uint64_t out_reserved;
};

/* With tt-kmd loaded: device info, and a TLB window it hands out */
static void kmd_round_trip(void)
{
    struct tt_dev_info info = { .in_size = sizeof(info) - 4 };
    struct tt_alloc_tlb tlb = { .size = 2 << 20 };
    struct tt_config_tlb c = { 0 };
    uint32_t free_id;
    volatile uint32_t *w;
    int fd = open("/dev/tenstorrent/0", O_RDWR);

    ok(fd >= 0 && ioctl(fd, TT_IOCTL(0), &info) == 0 &&
       info.vendor == 0x1e52 && info.device == 0xb140,
       "tt-kmd GET_DEVICE_INFO: 1e52:b140");
    ok(fd >= 0 && ioctl(fd, TT_IOCTL(11), &tlb) == 0,
       "tt-kmd ALLOCATE_TLB of 2 MiB");
    c.id = tlb.id;
    c.addr = 0;
    c.x_end = 1;
    c.y_end = 2;
    c.ordering = 1;
    w = MAP_FAILED;
    if (fd >= 0 && ioctl(fd, TT_IOCTL(13), &c) == 0) {
        w = mmap(NULL, 2 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                 tlb.mmap_uc);
    }
    if (w != MAP_FAILED) {
        w[0x20000 / 4] = 0x6b6d6401;
    }
    ok(w != MAP_FAILED && w[0x20000 / 4] == 0x6b6d6401,
       "CONFIGURE_TLB to tile (1, 2) and a write/read through its mmap");
    free_id = tlb.id;
    if (w != MAP_FAILED) {
        munmap((void *)w, 2 << 20);
    }
    ok(fd >= 0 && ioctl(fd, TT_IOCTL(12), &free_id) == 0,
       "tt-kmd FREE_TLB");
    if (fd >= 0) {
        close(fd);
    }
}

int main(int argc, char **argv)
{
    char *dir;

    if (argc > 1 && !strcmp(argv[1], "kmd")) {
        kmd_round_trip();
        printf("1..%d\n", n_test);
        return 0;
    }
    dir = find_device();
    uint64_t size[6];
    volatile uint32_t *cfg, *niu, *win, *arc, *b4;
    int good = 1;

    ok(dir != NULL, "the guest sees a 1e52:b140 PCI function");
    if (!dir) {
        printf("1..1\n");
        return 1;
    }
    bar_sizes(dir, size);
    ok(size[0] == 512ull << 20 && size[2] == 1ull << 20,
       "BAR0 is 512 MiB and BAR2 1 MiB");
    ok(size[4] == 32ull << 30, "BAR4 is 32 GiB");
    cfg = map(dir, 0, TLB_CFG, 4096);
    niu = map(dir, 0, NIU0_NODE_ID & ~0xfffu, 4096);
    win = map(dir, 0, WIN2M(5), 2 << 20);
    arc = map(dir, 0, WIN2M(6), 2 << 20);
    ok(cfg && niu && win && arc, "BAR0 maps through sysfs resource0");
    if (!cfg || !niu || !win || !arc) {
        printf("1..%d\n", n_test);
        return 1;
    }
    ok((niu[(NIU0_NODE_ID & 0xfff) / 4] & 0x3f) == 2,
       "NOC2AXI NODE_ID names PCIe tile x = 2 (P150)");
    tlb_2m(cfg, 5, 0, 1, 2);
    ok(cfg[15] == 0 && cfg[16] == (1u << 11 | 2u << 17),
       "TLB window 5 registers read back");
    for (int i = 0; i < 256; i++) {
        win[0x10000 / 4 + i] = 0x5a000000u + i * 0x1001u;
    }
    for (int i = 0; i < 256; i++) {
        good &= win[0x10000 / 4 + i] == 0x5a000000u + i * 0x1001u;
    }
    ok(good, "1 KiB written to tile (1, 2) L1 through window 5 reads back");
    tlb_2m(cfg, 6, 0x80000000u, 8, 0);
    ok((arc[0x30408 / 4] & 7) == 5, "ARC boot status through window 6");
    /* window 202 (4 GiB, BAR4 offset 0): DRAM bank 0, translated (17, 12) */
    cfg[202 * 3] = 0;
    cfg[202 * 3 + 1] = 17 | 12 << 6;
    cfg[202 * 3 + 2] = 0;
    b4 = size[4] ? map(dir, 4, 0, 4096) : NULL;
    if (b4) {
        b4[0x100 / 4] = 0xd0d0cafe;
        tlb_2m(cfg, 7, 0, 17, 12);
    }
    ok(b4 && b4[0x100 / 4] == 0xd0d0cafe &&
       map(dir, 0, WIN2M(7), 4096)[0x100 / 4] == 0xd0d0cafe,
       "BAR4 window 202 writes GDDR; a 2 MiB window reads it back");
    printf("1..%d\n", n_test);
    return 0;
}
