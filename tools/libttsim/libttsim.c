/*
 * libttsim.so for the QEMU Blackhole machine: the libttsim C ABI that
 * tt-umd, tt-metal and blackhole-py load with dlopen(), implemented as a
 * vfio-user client of QEMU's tt-vfio-user object.
 *
 * The chip runs inside QEMU on its own threads; this library only
 * forwards PCIe accesses.  What it adds on top of the wire protocol:
 *  - ttsim's BAR "physical addresses" (ttsim docs/libttsim_api.md,
 *    "Memory (BAR) access"): hosts compute paddr = BAR base from config
 *    space + offset, so the BAR registers report ttsim's fixed bases and
 *    paddrs are decoded back to regions;
 *  - device-to-host DMA through the server's "host DMA mailbox" region,
 *    polled here so that the host's callbacks run on the thread that is
 *    inside a libttsim call, as ttsim guarantees (docs/libttsim_api.md,
 *    "DMA callbacks"); the region is mapped when the server shares its
 *    file, so that a poll is a memory read rather than a socket round
 *    trip;
 *  - tile_rd/wr_bytes through a BAR0 TLB window (ttsim aborts on BH);
 *  - several chips in one process, as tt-umd's multichip mode drives
 *    them (libttsim_create_device_by_id/select_device_by_id): one QEMU
 *    each, kept between sessions like the first (TT_EMU_WARM);
 *  - the mapped path (mapped.c): when the server shares the chip's RAM,
 *    accesses that a TLB window sends to L1 or GDDR are memcpy into that
 *    memory, and TLB configuration writes are kept here until something
 *    else has to go to the server.
 *
 * Environment:
 *   TT_EMU_SOCKET   connect to this vfio-user socket instead of starting
 *                   QEMU
 *   TT_EMU_QEMU     QEMU binary (default qemu-system-riscv32 on PATH)
 *   TT_EMU_ARGS     machine options, split on blanks (default -M blackhole)
 *   TT_EMU_TIMEOUT  seconds to wait for the server (default 30)
 *   TT_EMU_DMA_REGION  index of the mailbox region (default: region 8 or
 *                   9, whichever has the mailbox's size)
 *   TT_EMU_DEBUG    1: trace every vfio-user message on stderr
 *   TT_EMU_POLL_US  microseconds to poll for a reply before sleeping
 *                   (default 32; 0: always sleep)
 *   TT_EMU_SHM      0: do not map L1 and GDDR (every access by message)
 *   TT_EMU_WARM     0: stop QEMU at libttsim_exit() (default: keep it for
 *                   the next libttsim_init() of this process, which
 *                   power-cycles it instead of starting another)
 *   TT_EMU_POOL     seconds a QEMU waits for the next process of this user
 *                   once its session ended (default 10; 0: QEMU is this
 *                   process's child and ends with it, TT_EMU_WARM above)
 *
 * Threads: every exported function takes tts.lock for its whole duration
 * (tt-umd serialises calls too, but other hosts may not).  DMA callbacks
 * run with the lock held; a callback calling back into the library is
 * reported and aborts rather than deadlocking.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <time.h>

#include "hw/tenstorrent/dma-mailbox-abi.h"
#include "tt-pcie-host.h"       /* generated from data/pcie-host.yaml */
#include "emu-launch.h"
#include "libttsim.h"
#include "mapped.h"
#include "vfu-client.h"

#define TTS_EXPORT __attribute__((visibility("default")))

#define TTS_DEFAULT_TIMEOUT_S   30
#define TTS_DEFAULT_POOL_S      10

/* PCI config space (PCI Local Bus Specification 3.0, 6.2.5.1) */
#define PCI_BAR_FIRST           0x10
#define PCI_BAR_END             0x28    /* BAR0..BAR5 dwords */
#define PCI_BAR_MEM_TYPE_64     0x4     /* bits 2:1 = 10b: 64-bit memory */


/*
 * The BAR0 TLB window used by tile_rd/wr_bytes: 2 MiB windows
 * (tt-pcie-host.h).  Window 201 belongs to tt-kmd; 200 is the last one
 * left.
 */
#define TLB_CFG_BASE            TT_TLB_CFG_BASE
#define TLB_CFG_STRIDE          TT_TLB_CFG_STRIDE
#define TLB_2M_SHIFT            TT_TLB_2M_SHIFT
#define TLB_2M_SIZE             (1u << TLB_2M_SHIFT)
#define TLB_TILE_WINDOW         200
#define TLB_COORD_MAX           64      /* 6-bit x_end / y_end */
#define TLB_ORDERING_STRICT     (1u << 6)   /* high word bits 7:6 = 1 */

typedef struct TTSimBar {
    uint64_t base;              /* ttsim's BAR physical base */
    uint64_t size;
    uint32_t region;            /* vfio-user region index */
} TTSimBar;

/* ttsim docs/libttsim_api.md: BAR0, BAR2, BAR4, in config-space order */
static const TTSimBar tts_bars[] = {
    { LIBTTSIM_BAR0_BASE, LIBTTSIM_BAR0_SIZE, VFU_REGION_BAR0 },
    { LIBTTSIM_BAR2_BASE, LIBTTSIM_BAR2_SIZE, VFU_REGION_BAR2 },
    { LIBTTSIM_BAR4_BASE, LIBTTSIM_BAR4_SIZE, VFU_REGION_BAR4 },
};
#define TTS_NUM_BARS    (sizeof(tts_bars) / sizeof(tts_bars[0]))

/* One chip: its QEMU and what the library knows of its server */
typedef struct TTSimDev {
    uint32_t chip_id;           /* libttsim_create_device_by_id()'s */
    bool spawned;               /* we started QEMU (emu is valid) */
    bool warm;                  /* ... and kept it, connected, at exit */
    pid_t owner;                /* the process that started it */
    VfuClient vfu;
    EmuChild emu;

    int mbox_region;            /* -1: the server has no mailbox */
    bool mbox_on;
    uint8_t *mbox_map;          /* the region mapped, or NULL: by message */
    uint8_t mbox_buf[TT_MBOX_DATA_SIZE];

    uint32_t cfg_size;          /* config space region size */
    uint32_t bar_sizing;        /* BAR dwords last written with ~0 */

    bool tlb_valid;             /* tlb_cfg is what window 200 holds */
    uint32_t tlb_cfg[3];

    Mapped *map;                /* the mapped path, or NULL */
} TTSimDev;

/*
 * Devices of one process (tt-umd's multichip mode): libttsim_init()
 * starts device 0 (chip 0), libttsim_create_device_by_id() the others,
 * each a QEMU of its own; calls go to the one selected last.  Slots keep
 * their kept QEMU (TT_EMU_WARM) from one session to the next.
 */
#define TTS_MAX_DEVICES         32      /* a Galaxy */

typedef struct TTSim {
    pthread_mutex_t lock;
    bool initialised;           /* libttsim_init() has run, ever */
    bool running;               /* between libttsim_init() and _exit() */
    bool eth_noted;             /* the Ethernet-switch calls were reported */

    libttsim_dma_rd_fn dma_rd;
    libttsim_dma_wr_fn dma_wr;

    TTSimDev dev[TTS_MAX_DEVICES];
    int ndev;                   /* devices of this session */
    int nchips;                 /* PCI devices: the chips beside us */
    TTSimDev *cur;              /* the selected one */
} TTSim;

static TTSim tts = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .cur = &tts.dev[0],
};

/* Set while this thread is inside an exported function */
static _Thread_local bool tts_inside;

/* ------------------------------------------------------------ helpers -- */

static void tts_enter(const char *fn)
{
    if (tts_inside) {
        fprintf(stderr, "libttsim: %s() called from inside another libttsim "
                "call (from a DMA callback?); the library is not "
                "reentrant\n", fn);
        abort();
    }
    pthread_mutex_lock(&tts.lock);
    tts_inside = true;
}

static void tts_leave(void)
{
    tts_inside = false;
    pthread_mutex_unlock(&tts.lock);
}

/* The ABI has no error returns: like ttsim, stop the process loudly */
static void __attribute__((noreturn)) tts_fatal(void)
{
    TTSimDev *d = tts.cur;
    int status;

    if (d->spawned && d->owner == getpid() && emu_exited(&d->emu, &status)) {
        char why[64];

        if (d->emu.pooled) {
            fprintf(stderr, "libttsim: the emulator of chip %u has exited; "
                    "it said:\n", d->chip_id);
            emu_pool_report(&d->emu);
        } else {
            emu_describe_status(status, why, sizeof(why));
            fprintf(stderr, "libttsim: the emulator of chip %u has exited "
                    "(%s)\n", d->chip_id, why);
        }
    }
    for (int i = 0; i < TTS_MAX_DEVICES; i++) {
        if (tts.dev[i].spawned && tts.dev[i].owner == getpid()) {
            emu_pool_discard(&tts.dev[i].emu);     /* not to be reused */
            emu_abandon(&tts.dev[i].emu);
        }
    }
    fprintf(stderr, "libttsim: fatal error, aborting\n");
    abort();
}

/*
 * The ABI called out of order: ttsim's ConfigurationError (its message
 * on stdout, then _Exit(1)), after stopping our emulators
 */
static void __attribute__((noreturn)) tts_usage_error(const char *fn,
                                                      const char *why)
{
    for (int i = 0; i < TTS_MAX_DEVICES; i++) {
        if (tts.dev[i].spawned && tts.dev[i].owner == getpid()) {
            emu_kill(&tts.dev[i].emu);
            tts.dev[i].spawned = false;
        }
    }
    printf("ERROR: ConfigurationError: %s: %s\n", fn, why);
    fflush(stdout);
    fprintf(stderr, "libttsim: %s() called %s\n", fn, why);
    _Exit(1);
}

static void tts_require_running(const char *fn)
{
    if (!tts.running) {
        tts_usage_error(fn, tts.initialised ? "after libttsim_exit()"
                                            : "before libttsim_init()");
    }
}

/*
 * A vfio-user result: -EREMOTEIO (the server refused one access) is an
 * error of that access only; anything else means the emulator is gone.
 */
static bool tts_check(int ret, const char *what)
{
    if (ret == 0) {
        return true;
    }
    if (ret != -EREMOTEIO) {
        fprintf(stderr, "libttsim: lost the emulator during %s: %s\n", what,
                strerror(-ret));
        tts_fatal();
    }
    return false;
}

/* ------------------------------------------------------- DMA mailbox -- */

/* Mailbox accesses must succeed: a failure leaves the device waiting */
static void tts_mbox_rw(bool write, uint64_t off, void *buf, uint32_t len)
{
    int ret = write ?
        vfu_client_write(&tts.cur->vfu, tts.cur->mbox_region, off, buf, len) :
        vfu_client_read(&tts.cur->vfu, tts.cur->mbox_region, off, buf, len);

    if (ret < 0) {
        fprintf(stderr, "libttsim: host DMA mailbox %s at 0x%llx failed: "
                "%s\n", write ? "write" : "read", (unsigned long long)off,
                strerror(-ret));
        tts_fatal();
    }
}

static uint32_t tts_mbox_rd32(uint64_t off)
{
    uint32_t v;

    tts_mbox_rw(false, off, &v, sizeof(v));
    return v;
}

static void tts_mbox_wr32(uint64_t off, uint32_t v)
{
    tts_mbox_rw(true, off, &v, sizeof(v));
}

/*
 * A mailbox register: from the mapping when the server shared the region
 * (no round trip; STATUS with acquire order, since the server publishes it
 * last), else by message.
 */
static uint32_t tts_mbox_reg(uint64_t off)
{
    uint32_t v;

    if (!tts.cur->mbox_map) {
        return tts_mbox_rd32(off);
    }
    if (off == TT_MBOX_STATUS) {
        return __atomic_load_n((uint32_t *)(tts.cur->mbox_map + off),
                               __ATOMIC_ACQUIRE);
    }
    memcpy(&v, tts.cur->mbox_map + off, sizeof(v));
    return v;
}

/* DATA: moved through the mapping when there is one */
static void tts_mbox_data(bool write, uint32_t len)
{
    if (!tts.cur->mbox_map) {
        tts_mbox_rw(write, TT_MBOX_DATA, tts.cur->mbox_buf, len);
    } else if (write) {
        memcpy(tts.cur->mbox_map + TT_MBOX_DATA, tts.cur->mbox_buf, len);
    } else {
        memcpy(tts.cur->mbox_buf, tts.cur->mbox_map + TT_MBOX_DATA, len);
    }
}

/* Serve one pending request: move the data, then say DONE (by message) */
static void tts_dma_serve_one(void)
{
    uint32_t dir = tts_mbox_reg(TT_MBOX_DIR);
    uint32_t len = tts_mbox_reg(TT_MBOX_LEN);
    uint64_t addr;

    if (tts.cur->mbox_map) {
        memcpy(&addr, tts.cur->mbox_map + TT_MBOX_ADDR, sizeof(addr));
    } else {
        tts_mbox_rw(false, TT_MBOX_ADDR, &addr, sizeof(addr));   /* 8 bytes */
    }

    if (len > TT_MBOX_DATA_SIZE ||
        (dir != TT_MBOX_DIR_TO_DEVICE && dir != TT_MBOX_DIR_TO_HOST)) {
        fprintf(stderr, "libttsim: bad host DMA request from the emulator: "
                "dir %u len 0x%x addr 0x%llx\n", dir, len,
                (unsigned long long)addr);
        tts_fatal();
    }
    if (len > 0 && dir == TT_MBOX_DIR_TO_DEVICE) {
        tts.dma_rd(addr, tts.cur->mbox_buf, len);
        tts_mbox_data(true, len);
    } else if (len > 0) {
        tts_mbox_data(false, len);
        tts.dma_wr(addr, tts.cur->mbox_buf, len);
    }
    tts_mbox_wr32(TT_MBOX_DONE, 1);
}

/*
 * An inline request (dma-mailbox-abi.h): an access of ours reached host
 * memory, and the server thread waits inside it for us.  Served while
 * we wait for any reply (the client's wait hook), through the mapping
 * alone: no message can pass until our access completes.  Like ttsim,
 * the host's callbacks then run inside its own libttsim call.
 */
static void tts_mbox_inline(void *opaque)
{
    uint8_t *m = tts.cur->mbox_map;
    uint32_t dir, len;
    uint64_t addr;

    if (!__atomic_load_n((uint32_t *)(m + TT_MBOX_IN_STATUS),
                         __ATOMIC_ACQUIRE) ||
        __atomic_load_n((uint32_t *)(m + TT_MBOX_IN_DONE), __ATOMIC_RELAXED)) {
        return;
    }
    memcpy(&dir, m + TT_MBOX_IN_DIR, 4);
    memcpy(&len, m + TT_MBOX_IN_LEN, 4);
    memcpy(&addr, m + TT_MBOX_IN_ADDR, 8);
    if (len > TT_MBOX_IN_DATA_SIZE ||
        (dir != TT_MBOX_DIR_TO_DEVICE && dir != TT_MBOX_DIR_TO_HOST)) {
        fprintf(stderr, "libttsim: bad inline host DMA request from the "
                "emulator: dir %u len 0x%x addr 0x%llx\n", dir, len,
                (unsigned long long)addr);
        tts_fatal();
    }
    if (len > 0 && dir == TT_MBOX_DIR_TO_DEVICE) {
        tts.dma_rd(addr, m + TT_MBOX_IN_DATA, len);
    } else if (len > 0) {
        tts.dma_wr(addr, m + TT_MBOX_IN_DATA, len);
    }
    __atomic_store_n((uint32_t *)(m + TT_MBOX_IN_DONE), 1, __ATOMIC_RELEASE);
}

/*
 * Called at the end of every BAR access and in every clock: the only
 * moments the host's callbacks may run (on the caller's thread).  Once per
 * access is enough (a request posted between two calls is served at the
 * end of the next one).  With the region mapped a check is a memory read,
 * else a socket round trip.
 */
static void tts_dma_serve(void)
{
    if (!tts.cur->mbox_on) {
        return;
    }
    while (tts_mbox_reg(TT_MBOX_STATUS) != 0) {
        tts_dma_serve_one();
    }
}

/*
 * The mailbox is a device-specific region; libvfio-user reserves index 9
 * for migration, so the server uses 8 (the VGA index).  Accept either,
 * recognised by its exact size, unless TT_EMU_DMA_REGION names one.
 */
static int tts_find_mailbox(void)
{
    static const uint32_t candidates[] = { VFU_REGION_VGA,
                                           VFU_REGION_MIGRATION };
    const char *env = getenv("TT_EMU_DMA_REGION");
    uint32_t rw = VFU_REGION_FLAG_READ | VFU_REGION_FLAG_WRITE;

    if (env && *env) {
        unsigned idx = VFU_MAX_REGIONS;
        const VfuRegionInfo *r;

        sscanf(env, "%u", &idx);
        r = vfu_client_region(&tts.cur->vfu, idx);
        if (!r || r->size != TT_MBOX_SIZE || (r->flags & rw) != rw) {
            fprintf(stderr, "libttsim: TT_EMU_DMA_REGION=%s is not a host "
                    "DMA mailbox region\n", env);
            return -1;
        }
        return idx;
    }
    for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
        const VfuRegionInfo *r = vfu_client_region(&tts.cur->vfu, candidates[i]);

        if (r && r->size == TT_MBOX_SIZE && (r->flags & rw) == rw) {
            return candidates[i];
        }
    }
    return -1;
}

/* Map the mailbox if the server shares it whole; else stay with messages */
static void tts_mbox_map(void)
{
    const VfuRegionInfo *r = vfu_client_region(&tts.cur->vfu, tts.cur->mbox_region);
    void *p;

    if (!r || !r->mappable || r->map_start != 0 || r->map_size != TT_MBOX_SIZE) {
        return;
    }
    p = mmap(NULL, TT_MBOX_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, r->map_fd,
             r->map_offset);
    if (p == MAP_FAILED) {
        fprintf(stderr, "libttsim: warning: cannot map the host DMA mailbox "
                "(%s); serving it by message\n", strerror(errno));
        return;
    }
    tts.cur->mbox_map = p;
}

/* Route device-to-host traffic to us iff the host gave us callbacks */
static void tts_mbox_update(void)
{
    bool want = tts.dma_rd && tts.dma_wr;

    if (tts.cur->mbox_region < 0) {
        if (want) {
            fprintf(stderr, "libttsim: warning: the emulator has no host DMA "
                    "mailbox region; device-to-host DMA will fail\n");
        }
        return;
    }
    if (want != tts.cur->mbox_on) {
        /* with the region mapped, inline requests too */
        tts_mbox_wr32(TT_MBOX_CTRL, !want ? 0 : tts.cur->mbox_map
                      ? TT_MBOX_CTRL_ON | TT_MBOX_CTRL_INLINE
                      : TT_MBOX_CTRL_ON);
        tts.cur->mbox_on = want;
        tts.cur->vfu.wait_hook = want && tts.cur->mbox_map ? tts_mbox_inline : NULL;
    }
}

/* ------------------------------------------------------ config space -- */

/*
 * BAR dwords 0x10-0x27 report ttsim's fixed bases as 64-bit
 * non-prefetchable memory BARs, whatever the server says: hosts add
 * offsets to these bases and hand the sums back to pci_mem_rd/wr_bytes.
 * A dword written with all ones reads back the size mask, so that BAR
 * sizing works.  BAR1/3/5 are the upper halves of BAR0/2/4.
 */
static uint32_t tts_bar_reg(uint32_t offset, uint32_t device)
{
    uint32_t dword = (offset - PCI_BAR_FIRST) / 4;
    const TTSimBar *b = &tts_bars[dword / 2];
    uint64_t v;

    v = (tts.cur->bar_sizing & (1u << dword)) ? ~(b->size - 1) :
        b->base + device * LIBTTSIM_DEVICE_STRIDE;
    v |= PCI_BAR_MEM_TYPE_64;
    return (dword & 1) ? (uint32_t)(v >> 32) : (uint32_t)v;
}

static bool tts_config_offset_ok(uint32_t offset, const char *fn)
{
    if ((offset & 3) || offset >= tts.cur->cfg_size) {
        fprintf(stderr, "libttsim: %s: bad config offset 0x%x (4-byte "
                "aligned, below 0x%x)\n", fn, offset, tts.cur->cfg_size);
        return false;
    }
    return true;
}

static TTSimDev *tts_chip(uint32_t chip_id, const char *fn);

/*
 * The chip PCI device @device is: bus 0, function 0, device d < the
 * chips beside the library (ttsim's multi-MMIO builds; 1 unless a
 * cluster's directory), started on first use.  Device 0 is the chip
 * selected last (tt-umd's multichip mode selects, then reads "this
 * device"), chip 0 unless libttsim_select_device_by_id() said otherwise.
 */
static TTSimDev *tts_pci_device(uint32_t device, const char *fn)
{
    if (device == 0) {
        return tts.cur;
    }
    if (device >= (uint32_t)tts.nchips ||
        (getenv("TT_EMU_SOCKET") && *getenv("TT_EMU_SOCKET"))) {
        return NULL;
    }
    return tts_chip(device, fn);
}

/* No device answers: bus or function set, or past the last chip */
static TTSimDev *tts_bdf_device(uint32_t bdf, const char *fn)
{
    if (bdf >> 8 || bdf & 7) {
        return NULL;
    }
    return tts_pci_device(bdf >> 3, fn);
}

static uint32_t tts_config_read(uint32_t bdf, uint32_t offset)
{
    TTSimDev *d = tts_bdf_device(bdf, "libttsim_pci_config_rd32"), *was;
    uint32_t v = UINT32_MAX;

    if (!d) {
        return UINT32_MAX;
    }
    was = tts.cur;
    tts.cur = d;
    if (!tts_config_offset_ok(offset, "libttsim_pci_config_rd32")) {
        /* absent */
    } else if (offset >= PCI_BAR_FIRST && offset < PCI_BAR_END) {
        v = tts_bar_reg(offset, bdf >> 3);
    } else {
        if (tts.cur->map && !mapped_before_message(tts.cur->map)) {
            tts_fatal();
        }
        if (!tts_check(vfu_client_read32(&tts.cur->vfu, VFU_REGION_CONFIG,
                                         offset, &v), "a config read")) {
            v = UINT32_MAX;
        }
    }
    tts.cur = was;
    return v;
}

static void tts_config_write(uint32_t bdf, uint32_t offset, uint32_t data)
{
    TTSimDev *d = tts_bdf_device(bdf, "libttsim_pci_config_wr32"), *was;

    if (!d) {
        return;
    }
    was = tts.cur;
    tts.cur = d;
    if (!tts_config_offset_ok(offset, "libttsim_pci_config_wr32")) {
        /* dropped */
    } else if (offset >= PCI_BAR_FIRST && offset < PCI_BAR_END) {
        uint32_t bit = 1u << ((offset - PCI_BAR_FIRST) / 4);

        /* The bases are fixed by the ABI; only sizing is modelled */
        tts.cur->bar_sizing = data == UINT32_MAX ? tts.cur->bar_sizing | bit :
                                              tts.cur->bar_sizing & ~bit;
    } else {
        if (tts.cur->map && !mapped_before_message(tts.cur->map)) {
            tts_fatal();
        }
        tts_check(vfu_client_write32(&tts.cur->vfu, VFU_REGION_CONFIG, offset,
                                     data), "a config write");
    }
    tts.cur = was;
}

/* -------------------------------------------------------------- BARs -- */

/* paddr -> (region, offset), for an access entirely inside one BAR */
static bool tts_bar_decode(uint64_t paddr, uint32_t size, uint32_t *region,
                           uint64_t *offset)
{
    for (size_t i = 0; i < TTS_NUM_BARS; i++) {
        const TTSimBar *b = &tts_bars[i];
        const VfuRegionInfo *r;
        uint64_t off = paddr - b->base;

        if (paddr < b->base || off >= b->size || size > b->size - off) {
            continue;
        }
        r = vfu_client_region(&tts.cur->vfu, b->region);
        if (!r || off >= r->size || size > r->size - off) {
            fprintf(stderr, "libttsim: access at 0x%llx (+%u) is beyond the "
                    "0x%llx bytes the emulator has in BAR%u\n",
                    (unsigned long long)paddr, size,
                    (unsigned long long)(r ? r->size : 0), b->region);
            return false;
        }
        *region = b->region;
        *offset = off;
        return true;
    }
    fprintf(stderr, "libttsim: access at 0x%llx (+%u bytes) is outside "
            "BAR0 [0x%llx, +512 MiB), BAR2 [0x%llx, +1 MiB) and BAR4 [0x%llx, "
            "+32 GiB)\n", (unsigned long long)paddr, size,
            LIBTTSIM_BAR0_BASE, LIBTTSIM_BAR2_BASE, LIBTTSIM_BAR4_BASE);
    return false;
}

/* A host write over window 200's configuration invalidates our copy */
static void tts_note_bar0_write(uint64_t offset, uint32_t size)
{
    uint64_t cfg = TLB_CFG_BASE + TLB_TILE_WINDOW * TLB_CFG_STRIDE;

    if (offset < cfg + TLB_CFG_STRIDE && offset + size > cfg) {
        tts.cur->tlb_valid = false;
    }
}

/* One region access; a refused read returns all ones, as a bus would */
static bool tts_region_rw(uint32_t region, uint64_t offset, void *buf,
                          uint32_t size, bool write)
{
    bool ok;

    if (write) {
        ok = tts_check(vfu_client_write(&tts.cur->vfu, region, offset, buf, size),
                       "a BAR write");
    } else {
        ok = tts_check(vfu_client_read(&tts.cur->vfu, region, offset, buf, size),
                       "a BAR read");
        if (!ok) {
            memset(buf, 0xff, size);
        }
    }
    return ok;
}

/*
 * Through the server: first what the mapped path kept back (TLB
 * configuration writes, wake-ups), which the server then handles before
 * this request
 */
static bool tts_message_rw(uint32_t region, uint64_t offset, void *buf,
                           uint32_t size, bool write)
{
    if (tts.cur->map && !mapped_before_message(tts.cur->map)) {
        tts_fatal();
    }
    return tts_region_rw(region, offset, buf, size, write);
}

/* A mapped-path result: MAPPED_ERROR means the server is gone */
static int tts_mapped(uint32_t region, uint64_t offset, void *buf,
                      uint32_t size, bool write)
{
    int r = mapped_bar_access(tts.cur->map, region, offset, buf, size, write);

    if (r == MAPPED_ERROR) {
        tts_fatal();
    }
    return r;
}

/* A write the mapped path posts (mapped_post()): true once sent */
static bool tts_posted(uint32_t region, uint64_t offset, const void *buf,
                       uint32_t size)
{
    int r = mapped_post(tts.cur->map, region, offset, buf, size);

    if (r == MAPPED_ERROR) {
        tts_fatal();
    }
    return r == MAPPED_DONE;
}

/*
 * A BAR access: each window's piece from memory when the window targets
 * RAM, else by message
 */
static bool tts_bar_rw(uint32_t region, uint64_t offset, uint8_t *buf,
                       uint32_t size, bool write)
{
    bool ok = true;

    if (!tts.cur->map ||
        (region != VFU_REGION_BAR0 && region != VFU_REGION_BAR4)) {
        return tts_message_rw(region, offset, buf, size, write);
    }
    if (mapped_touches_tlb_config(region, offset, size)) {
        /* a 4-byte register is kept here; anything else goes through */
        if (tts_mapped(region, offset, buf, size, write) == MAPPED_DONE) {
            return true;
        }
        ok = tts_message_rw(region, offset, buf, size, write);
        if (!mapped_reload_tlbs(tts.cur->map)) {
            tts_fatal();
        }
        return ok;
    }
    while (size > 0) {
        uint32_t n = mapped_piece(region, offset, size);

        if (tts_mapped(region, offset, buf, n, write) == MAPPED_MESSAGE &&
            !(write && tts_posted(region, offset, buf, n)) &&
            !tts_message_rw(region, offset, buf, n, write)) {
            ok = false;
        }
        offset += n;
        buf += n;
        size -= n;
    }
    return ok;
}

/* @paddr in PCI device d's BARs goes to d (LIBTTSIM_DEVICE_STRIDE) */
static void tts_mem_access(uint64_t paddr, void *buf, uint32_t size,
                           bool write)
{
    uint64_t device = paddr / LIBTTSIM_DEVICE_STRIDE;
    TTSimDev *d = NULL, *was = tts.cur;
    uint32_t region;
    uint64_t offset;

    if (size == 0) {
        return;
    }
    if (device < LIBTTSIM_MAX_DEVICES) {
        d = tts_pci_device(device, write ? "libttsim_pci_mem_wr_bytes"
                                         : "libttsim_pci_mem_rd_bytes");
    }
    if (!d) {
        fprintf(stderr, "libttsim: access at 0x%llx (+%u bytes) is in the "
                "BARs of PCI device %llu; there %s\n",
                (unsigned long long)paddr, size, (unsigned long long)device,
                tts.nchips == 1 ? "is one, device 0"
                                : "are devices 0 to the last chip");
        if (!write) {
            memset(buf, 0xff, size);
        }
        return;
    }
    tts.cur = d;
    paddr -= device * LIBTTSIM_DEVICE_STRIDE;
    if (!tts_bar_decode(paddr, size, &region, &offset)) {
        if (!write) {
            memset(buf, 0xff, size);
        }
    } else {
        if (write && region == VFU_REGION_BAR0) {
            tts_note_bar0_write(offset, size);
        }
        tts_bar_rw(region, offset, buf, size, write);
    }
    tts_dma_serve();
    tts.cur = was;
}

/* ------------------------------------------------------ tile access -- */

/*
 * Point window 200 at the 2 MiB-aligned @addr of tile (x, y): unicast,
 * target in x_end/y_end with start = 0 (what ttsim requires), strict
 * ordering.  Word layout: tt-isa-documentation
 * BlackholeA0/PCIExpressTile/HostToDeviceTLBs.md (2 MiB windows).
 */
static bool tts_tlb_point(uint32_t x, uint32_t y, uint64_t addr)
{
    uint64_t local = addr >> TLB_2M_SHIFT;
    uint32_t cfg[3] = {
        (uint32_t)local,
        ((uint32_t)(local >> 32) & 0x7ff) | x << 11 | y << 17,
        TLB_ORDERING_STRICT,
    };
    uint64_t base = TLB_CFG_BASE + TLB_TILE_WINDOW * TLB_CFG_STRIDE;

    if (tts.cur->tlb_valid && !memcmp(cfg, tts.cur->tlb_cfg, sizeof(cfg))) {
        return true;
    }
    /* Three 4-byte writes, low word first: ttsim accepts nothing else */
    tts.cur->tlb_valid = false;
    for (int i = 0; i < 3; i++) {
        if (!tts_bar_rw(VFU_REGION_BAR0, base + 4 * i, (uint8_t *)&cfg[i], 4,
                        true)) {
            return false;
        }
    }
    memcpy(tts.cur->tlb_cfg, cfg, sizeof(cfg));
    tts.cur->tlb_valid = true;
    return true;
}

static void tts_tile_access(uint32_t x, uint32_t y, uint64_t addr,
                            uint8_t *buf, uint32_t size, bool write)
{
    bool ok = true;

    if (x >= TLB_COORD_MAX || y >= TLB_COORD_MAX) {
        fprintf(stderr, "libttsim: tile (%u, %u) is not a NOC coordinate\n",
                x, y);
        ok = false;
    }
    while (ok && size > 0) {
        uint32_t off = addr & (TLB_2M_SIZE - 1);
        uint32_t n = TLB_2M_SIZE - off < size ? TLB_2M_SIZE - off : size;

        ok = tts_tlb_point(x, y, addr) &&
             tts_bar_rw(VFU_REGION_BAR0,
                        (uint64_t)TLB_TILE_WINDOW * TLB_2M_SIZE + off, buf,
                        n, write);
        if (!ok) {
            break;
        }
        addr += n;
        buf += n;
        size -= n;
    }
    if (!ok && !write) {
        memset(buf, 0xff, size);
    }
    tts_dma_serve();
}

/* --------------------------------------------------------- lifecycle -- */

/* A 4-byte read: ~15 us on 2 host cores when both sides poll, ~30 if not */
#define TTS_DEFAULT_POLL_US     32

static unsigned tts_timeout(void)
{
    const char *env = getenv("TT_EMU_TIMEOUT");
    int v = env ? atoi(env) : 0;

    return v > 0 ? v : TTS_DEFAULT_TIMEOUT_S;
}

static double tts_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Connect, retrying while the server starts (no socket, or not listening) */
static void tts_connect(const char *path)
{
    unsigned timeout = tts_timeout();
    double deadline = tts_now() + timeout;
    /* a connect() is cheap: try every millisecond */
    struct timespec pause = { 0, 1000 * 1000 };
    int status, ret;

    for (;;) {
        ret = vfu_client_connect(&tts.cur->vfu, path);
        if (ret == 0) {
            return;
        }
        if (ret != -ENOENT && ret != -ECONNREFUSED) {
            fprintf(stderr, "libttsim: cannot connect to %s: %s\n", path,
                    strerror(-ret));
            tts_fatal();
        }
        if (tts.cur->spawned && emu_exited(&tts.cur->emu, &status)) {
            fprintf(stderr, "libttsim: the emulator stopped before serving "
                    "%s; its messages are %s\n", path,
                    tts.cur->emu.pooled ? "below" : "above");
            emu_pool_report(&tts.cur->emu);
            tts_fatal();
        }
        if (tts_now() > deadline) {
            fprintf(stderr, "libttsim: no vfio-user server on %s after %u "
                    "s\n", path, timeout);
            tts_fatal();
        }
        nanosleep(&pause, NULL);
    }
}

/* The server's regions: the DMA mailbox and the mapped path */
static void tts_discover(void)
{
    const char *shm = getenv("TT_EMU_SHM");

    tts.cur->mbox_region = tts_find_mailbox();
    if (tts.cur->mbox_region >= 0) {
        tts_mbox_map();
    }
    tts_mbox_update();
    if (!shm || strcmp(shm, "0") != 0) {
        tts.cur->map = mapped_attach(&tts.cur->vfu);
    }
}

static void tts_client_init(void)
{
    const char *dbg = getenv("TT_EMU_DEBUG");
    const char *poll_us = getenv("TT_EMU_POLL_US");
    int us = poll_us && *poll_us ? atoi(poll_us) : TTS_DEFAULT_POLL_US;

    vfu_client_init(&tts.cur->vfu);
    tts.cur->vfu.debug = dbg && *dbg && strcmp(dbg, "0") != 0;
    tts.cur->vfu.poll_ns = us > 0 ? us * 1000LL : 0;
}

static bool tts_handshake(void)
{
    return vfu_client_set_timeout(&tts.cur->vfu, tts_timeout()) == 0 &&
           vfu_client_handshake(&tts.cur->vfu) == 0 &&
           vfu_client_set_timeout(&tts.cur->vfu, 0) == 0;
}

/* TT_EMU_POOL: seconds a kept QEMU waits for the next process, or 0 */
static unsigned tts_pool_idle(void)
{
    const char *env = getenv("TT_EMU_POOL");

    return env && *env ? (unsigned)atoi(env) : TTS_DEFAULT_POOL_S;
}

/*
 * Start the current slot's QEMU: a kept one of the pool if one is free
 * (then connected and *@connected set), else a new one, in the pool or
 * as our child.  Returns its socket.
 */
static const char *tts_spawn(bool *connected)
{
    EmuChild *e = &tts.cur->emu;
    unsigned idle = tts_pool_idle();
    int r = idle ? emu_pool_start(e, tts.cur->chip_id, idle) : -1;

    tts.cur->spawned = true;
    tts.cur->owner = getpid();
    if (r == 1) {
        if (vfu_client_connect(&tts.cur->vfu, e->sock) == 0 &&
            tts_handshake()) {
            *connected = true;
            return e->sock;
        }
        /* it quit (idle) or is gone: another in its place */
        vfu_client_close(&tts.cur->vfu);
        tts_client_init();
        r = emu_pool_restart(e) < 0 ? -2 : 0;
    }
    if (r == -1) {
        r = emu_start(e, tts.cur->chip_id) < 0 ? -2 : 0;
    }
    if (r == -2) {
        emu_stop(e);
        tts.cur->spawned = false;
        tts_fatal();
    }
    return e->sock;
}

static void tts_attach(void)
{
    const char *sock = getenv("TT_EMU_SOCKET");
    const VfuRegionInfo *cfg;
    bool connected = false;

    tts_client_init();
    if (!sock || !*sock) {
        sock = tts_spawn(&connected);
    }
    if (!connected) {
        tts_connect(sock);
        if (tts.cur->spawned) {
            emu_remove_tmpdir(&tts.cur->emu);
        }
        if (!tts_handshake()) {
            fprintf(stderr, "libttsim: cannot talk vfio-user with %s\n",
                    sock);
            tts_fatal();
        }
    }
    cfg = vfu_client_region(&tts.cur->vfu, VFU_REGION_CONFIG);
    if (!cfg || cfg->size < 0x40) {
        fprintf(stderr, "libttsim: the device on %s has no PCI config "
                "space region\n", sock);
        tts_fatal();
    }
    tts.cur->cfg_size = cfg->size > 4096 ? 4096 : cfg->size;
}

/*
 * The QEMU the last session of this process kept, power-cycled when that
 * session ended: reused, it takes a millisecond where a start takes a
 * third of a second.  False if there is none (or it is gone; then it is
 * reaped).
 */
static bool tts_rewarm(void)
{
    int status;

    if (!tts.cur->warm) {
        return false;
    }
    tts.cur->warm = false;
    if (tts.cur->owner != getpid()) {
        /* a forked child: the emulator and its connection are the parent's */
        vfu_client_close(&tts.cur->vfu);
        tts.cur->spawned = false;
        return false;
    }
    if (!emu_exited(&tts.cur->emu, &status) &&
        (!tts.cur->emu.pooled || vfu_client_reset(&tts.cur->vfu) == 0)) {
        return true;
    }
    fprintf(stderr, "libttsim: the emulator kept from the last session has "
            "exited; starting another\n");
    vfu_client_close(&tts.cur->vfu);
    emu_stop(&tts.cur->emu);
    tts.cur->spawned = false;
    return false;
}

/* Is this copy of the library loaded from a file that stays (not a memfd)? */
static bool tts_loaded_from_file(void)
{
    Dl_info info;

    if (!dladdr((void *)tts_loaded_from_file, &info) || !info.dli_fname) {
        return false;
    }
    return strncmp(info.dli_fname, "/proc/", 6) != 0 &&
           strncmp(info.dli_fname, "/memfd:", 7) != 0;
}

/*
 * Keep our QEMU for the next session unless TT_EMU_WARM=0.  The library
 * is linked -z nodelete, so that a host's dlclose() does not end it
 * between sessions; a host that loads private copies of the library
 * (tt-umd's copy_sim_binary, from a memfd) would pile up emulators, so
 * those copies stop theirs, or give a pooled one back to the pool.  The
 * power cycle is done now, so that the emulator waits with its cores in
 * reset; a pooled QEMU is power-cycled by the next session of this
 * process instead, or by its server when this process ends and its
 * socket closes, so that each session costs one power cycle.
 */
static bool tts_keep_warm(void)
{
    const char *env = getenv("TT_EMU_WARM");

    if (!tts.cur->spawned || (env && strcmp(env, "0") == 0) ||
        !tts_loaded_from_file()) {
        return false;
    }
    return tts.cur->emu.pooled || vfu_client_reset(&tts.cur->vfu) == 0;
}

/* Open the current slot: its kept QEMU power-cycled, or a new one */
static void tts_open(uint32_t chip_id)
{
    TTSimDev *d = tts.cur;

    d->chip_id = chip_id;
    d->mbox_region = -1;
    d->mbox_on = false;
    d->bar_sizing = 0;
    d->tlb_valid = false;
    if (!tts_rewarm()) {
        tts_attach();
    }
    tts_discover();
}

/* End the current slot's session: keep its QEMU, or stop it */
static void tts_close(void)
{
    TTSimDev *d = tts.cur;

    /*
     * Best effort: the emulator may already be gone, and a request still
     * pending fails on its side once the mailbox is off.
     */
    if (d->mbox_on) {
        (void)vfu_client_write32(&d->vfu, d->mbox_region, TT_MBOX_CTRL, 0);
        d->mbox_on = false;
        d->vfu.wait_hook = NULL;
    }
    if (d->mbox_map) {
        munmap(d->mbox_map, TT_MBOX_SIZE);
        d->mbox_map = NULL;
    }
    /* sends the last wake-ups: cores may be waiting for a final write */
    mapped_detach(d->map);
    d->map = NULL;
    if (tts_keep_warm()) {
        d->warm = true;
    } else {
        vfu_client_close(&d->vfu);
        if (d->spawned) {
            emu_stop_detached(&d->emu);
            d->spawned = false;
        }
    }
}

TTS_EXPORT void libttsim_init(void)
{
    tts_enter(__func__);
    if (tts.running) {
        /* ttsim: "sim is already running" */
        tts_usage_error(__func__, "while the sim is already running "
                        "(libttsim_exit() first; more chips: "
                        "libttsim_create_device_by_id())");
    }
    /* a new session after libttsim_exit(): nothing of the last one */
    tts.initialised = true;
    tts.cur = &tts.dev[0];
    tts.ndev = 1;
    tts.nchips = emu_cluster_chips();
    tts_open(0);
    tts.running = true;
    tts_leave();
}

TTS_EXPORT void libttsim_exit(void)
{
    tts_enter(__func__);
    if (tts.running) {
        for (int i = 0; i < tts.ndev; i++) {
            tts.cur = &tts.dev[i];
            tts_close();
        }
        tts.cur = &tts.dev[0];
        tts.ndev = 0;
        tts.running = false;
    }
    tts_leave();
}

/* If the host never calls libttsim_exit(), do not leave QEMU behind */
static void __attribute__((destructor)) tts_unload(void)
{
    for (int i = 0; i < TTS_MAX_DEVICES; i++) {
        TTSimDev *d = &tts.dev[i];

        if (d->spawned && d->owner == getpid()) {
            if (d->warm) {
                emu_kill(&d->emu);
            } else {
                emu_abandon(&d->emu);
            }
        }
    }
    emu_links_cleanup();
}

static TTSimDev *tts_find(uint32_t chip_id)
{
    for (int i = 0; i < tts.ndev; i++) {
        if (tts.dev[i].chip_id == chip_id) {
            return &tts.dev[i];
        }
    }
    return NULL;
}

/*
 * tt-umd's multichip ABI (tt-umd device/simulation/tt_sim_communicator.cpp,
 * the pfn_libttsim_* of its multichip mode): after one libttsim_init(),
 * every chip is created by id and selected before each call.  Each chip
 * is a QEMU of its own; chip 0 is the one libttsim_init() started.  The
 * handle is opaque to the host.
 */
TTS_EXPORT void *libttsim_create_device_by_id(uint32_t chip_id, int chip_x,
                                              int chip_y)
{
    TTSimDev *d;

    (void)chip_x;
    (void)chip_y;
    tts_enter(__func__);
    tts_require_running(__func__);
    d = tts_chip(chip_id, __func__);
    tts_leave();
    return d;
}

/* Chip @chip_id's slot, its QEMU started (or, warm, reused) if new */
static TTSimDev *tts_chip(uint32_t chip_id, const char *fn)
{
    TTSimDev *d = tts_find(chip_id), *was;
    char why[96];

    if (d) {
        return d;
    }
    if (tts.ndev == TTS_MAX_DEVICES) {
        snprintf(why, sizeof(why), "for chip %u: %d chips are the "
                 "most one process may have", chip_id, TTS_MAX_DEVICES);
        tts_usage_error(fn, why);
    }
    if (getenv("TT_EMU_SOCKET") && *getenv("TT_EMU_SOCKET")) {
        snprintf(why, sizeof(why), "for chip %u while TT_EMU_SOCKET "
                 "names the one chip to attach to", chip_id);
        tts_usage_error(fn, why);
    }
    d = &tts.dev[tts.ndev++];
    was = tts.cur;
    tts.cur = d;
    tts_open(chip_id);
    tts.cur = was;
    return d;
}

TTS_EXPORT void libttsim_select_device_by_id(uint32_t chip_id)
{
    TTSimDev *d;
    char why[96];

    tts_enter(__func__);
    tts_require_running(__func__);
    d = tts_find(chip_id);
    if (!d) {
        snprintf(why, sizeof(why), "for chip %u, which "
                 "libttsim_create_device_by_id() did not create", chip_id);
        tts_usage_error(__func__, why);
    }
    tts.cur = d;
    tts_leave();
}

/*
 * ttsim's in-process Ethernet switch between the chips of one process.
 * Our chips are separate QEMU processes whose Ethernet tiles are linked by
 * QEMU's own networking, not by the library: the calls are accepted.  A
 * cluster library's chips are linked already (the emu-args beside it); a
 * one-chip library reports the calls once, so that a host building a
 * multichip cluster out of it learns that these links are not made.
 */
static void tts_eth_note(const char *fn)
{
    if (!tts.eth_noted && tts.nchips == 1) {
        tts.eth_noted = true;
        fprintf(stderr, "libttsim: %s(): Ethernet links between the chips "
                "of one process are not emulated by this library; each "
                "chip is a QEMU of its own\n", fn);
    }
}

TTS_EXPORT void libttsim_switch_reset(void)
{
    tts_enter(__func__);
    tts_eth_note(__func__);
    tts_leave();
}

TTS_EXPORT void libttsim_switch_drain(void)
{
    tts_enter(__func__);
    tts_leave();
}

TTS_EXPORT void libttsim_switch_register(void *dev, uint32_t tile_id,
                                         uint64_t mac)
{
    tts_enter(__func__);
    tts_eth_note(__func__);
    tts_leave();
}

TTS_EXPORT void libttsim_configure_eth_link_virtual(void *dev,
                                                    uint32_t tile_id,
                                                    uint64_t local_mac)
{
    tts_enter(__func__);
    tts_eth_note(__func__);
    tts_leave();
}

TTS_EXPORT void libttsim_switch_register_peer(void *dev, uint32_t tile_id,
                                              void *peer_dev,
                                              uint32_t peer_tile_id)
{
    tts_enter(__func__);
    tts_eth_note(__func__);
    tts_leave();
}

/* ------------------------------------------------------ exported ABI -- */

/*
 * ttsim wants the callbacks before libttsim_init(); later calls are
 * accepted too and switch the mailbox on or off.
 */
TTS_EXPORT void libttsim_set_pci_dma_mem_callbacks(libttsim_dma_rd_fn rd,
                                                   libttsim_dma_wr_fn wr)
{
    tts_enter(__func__);
    tts.dma_rd = rd;
    tts.dma_wr = wr;
    if (tts.running) {
        TTSimDev *was = tts.cur;

        for (int i = 0; i < tts.ndev; i++) {
            tts.cur = &tts.dev[i];
            tts_mbox_update();
        }
        tts.cur = was;
    }
    tts_leave();
}

TTS_EXPORT uint32_t libttsim_pci_config_rd32(uint32_t bdf, uint32_t offset)
{
    uint32_t v;

    tts_enter(__func__);
    tts_require_running(__func__);
    v = tts_config_read(bdf, offset);
    tts_leave();
    return v;
}

TTS_EXPORT void libttsim_pci_config_wr32(uint32_t bdf, uint32_t offset,
                                         uint32_t data)
{
    tts_enter(__func__);
    tts_require_running(__func__);
    tts_config_write(bdf, offset, data);
    tts_leave();
}

TTS_EXPORT void libttsim_pci_mem_rd_bytes(uint64_t paddr, void *dst,
                                          uint32_t size)
{
    tts_enter(__func__);
    tts_require_running(__func__);
    tts_mem_access(paddr, dst, size, false);
    tts_leave();
}

TTS_EXPORT void libttsim_pci_mem_wr_bytes(uint64_t paddr, const void *src,
                                          uint32_t size)
{
    tts_enter(__func__);
    tts_require_running(__func__);
    /* Only sent, never written to */
    tts_mem_access(paddr, (void *)src, size, true);
    tts_leave();
}

TTS_EXPORT void libttsim_tile_rd_bytes(uint32_t x, uint32_t y, uint64_t addr,
                                       void *dst, uint32_t size)
{
    tts_enter(__func__);
    tts_require_running(__func__);
    tts_tile_access(x, y, addr, dst, size, false);
    tts_leave();
}

TTS_EXPORT void libttsim_tile_wr_bytes(uint32_t x, uint32_t y, uint64_t addr,
                                       const void *src, uint32_t size)
{
    tts_enter(__func__);
    tts_require_running(__func__);
    tts_tile_access(x, y, addr, (void *)src, size, true);
    tts_leave();
}

/*
 * The emulated chip runs on its own threads: a clock only gives pending
 * device-to-host DMA its chance, wakes cores parked on L1 the host wrote
 * through the mapping, and lets the emulator's threads run.
 */
/*
 * Hosts clock after every access (tt-umd does): a yield each time cost
 * more than the access.  A host polling with clocks still yields often
 * enough for the emulator's threads to run on a busy machine.
 */
#define TTS_YIELD_EVERY 64

static void tts_clock_yield(void)
{
    static _Thread_local unsigned calls;

    if (++calls % TTS_YIELD_EVERY == 0) {
        sched_yield();
    }
}

/* Every chip: a host that names chips by PCI device selects none */
TTS_EXPORT void libttsim_clock(uint32_t n_clocks)
{
    TTSimDev *was;

    (void)n_clocks;
    tts_enter(__func__);
    tts_require_running(__func__);
    was = tts.cur;
    for (int i = 0; i < tts.ndev; i++) {
        tts.cur = &tts.dev[i];
        if (tts.cur->map && !mapped_kick(tts.cur->map)) {
            tts_fatal();
        }
        tts_dma_serve();
    }
    tts.cur = was;
    tts_leave();
    tts_clock_yield();
}

/* tt-umd's multichip mode: a clock for every chip, as libttsim_clock */
TTS_EXPORT void libttsim_clock_all_devices(uint32_t n_clocks)
{
    libttsim_clock(n_clocks);
}
