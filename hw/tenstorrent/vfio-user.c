/*
 * Tenstorrent Blackhole: the PCIe endpoint served over vfio-user.
 *
 *   -object tt-vfio-user,id=vfu0,socket=PATH[,device=QOM-PATH][,poll-us=N]
 *           [,share-ram=on|off]
 *
 * serves the machine's tt-pcie device (config space, BAR0/2/4, INTx) on a
 * UNIX socket with the bundled libvfio-user, for QEMU's vfio-user-pci in
 * another QEMU (a guest Linux with tt-kmd) or for the project's libttsim
 * library.  BARs are trapped (no mmap areas; the chip's RAM is offered
 * separately, see below), BAR4 is 32 GiB (patch 0006 makes libvfio-user's
 * region sizes 64-bit), INTx only.
 *
 * Device-to-host DMA: host memory a client registers with a file
 * descriptor (a guest's shared RAM) is accessed directly.  Other host
 * memory goes through the "host DMA mailbox", region 8 (the VGA region
 * index, unused by a non-VGA device), which a client that cannot share its
 * memory (the libttsim library) polls: vfio-user's own DMA_READ/WRITE
 * messages would travel on the socket the client sends its requests on,
 * and libvfio-user cannot tell a request from the reply it waits for.
 * Mailbox layout, little-endian:
 *   0x00 CTRL  client writes 1 to route such traffic here, 0 to stop
 *   0x04 STATUS 1 while a request is pending
 *   0x08 DIR   0: the device reads host memory, 1: it writes
 *   0x0C LEN   bytes (at most 64 KiB)
 *   0x10 ADDR  host address, 64-bit
 *   0x18 DONE  client writes 1 when it has served the request
 *   0x1000 DATA, 64 KiB
 *
 * The region is backed by a memfd the client may map (libvfio-user sends
 * it with GET_REGION_INFO's sparse-mmap capability): STATUS, DIR, LEN and
 * ADDR are mirrored there and DATA lives there, so the client learns of a
 * request and moves its data without a socket round trip.  CTRL and DONE
 * must still be written by message; the server never reads the mirror.
 *
 * The host map (host-map.c, docs/devel/tenstorrent-host-map.rst): with
 * share-ram=on (the default) the server also offers two device-specific
 * regions, 10 (the chip's RAM, one sparse-mmap area per L1 and GDDR bank)
 * and 11 (control: command batches, and the shared tables a client needs
 * to decode TLB windows itself), so that the libttsim library copies
 * host accesses to RAM with memcpy.  Standard clients (QEMU's
 * vfio-user-pci) do not look at either.  Every memfd the server hands out
 * is sealed against shrinking and growing: a client cannot make QEMU's own
 * mappings fault.
 *
 * The socket is served by a thread of its own ("tt-vfio-user"), so that a
 * client that stalls in the middle of a message (libvfio-user reads and
 * writes it with blocking calls) holds up only that thread, not QEMU's
 * main loop; BAR accesses take the BQL like any device access.  After a
 * request it polls the socket for poll-us microseconds before sleeping:
 * clients send requests back to back, and on a 2-core host a sleep and
 * wake-up on each side cost about half of a 4-byte read's ~30 us.  A client
 * that disconnects or breaks the protocol is logged and the next one may
 * attach, the chip keeping its state.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include <poll.h>
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/lockable.h"
#include "qemu/memfd.h"
#include "qemu/timer.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qom/object_interfaces.h"
#include "system/runstate.h"
#include "system/system.h"
#include "hw/tenstorrent/blackhole-soc.h"
#include "hw/tenstorrent/dma-mailbox-abi.h"
#include "hw/tenstorrent/host-map.h"
#include "hw/tenstorrent/pcie.h"
#include "libvfio-user.h"
#include "trace.h"

#define TYPE_TT_VFIO_USER "tt-vfio-user"
OBJECT_DECLARE_SIMPLE_TYPE(TTVfioUser, TT_VFIO_USER)

#define TT_MBOX_TIMEOUT_MS  10000
#define TT_VFU_MAX_DMA      16          /* libvfio-user's MAX_DMA_REGIONS */

/* A DMA region the client mapped with a file: our mapping of it */
typedef struct TTVfuDmaMap {
    uint64_t iova, len;
    uint8_t *vaddr;
    uint32_t prot;
} TTVfuDmaMap;

QEMU_BUILD_BUG_ON(TT_MBOX_REGION_INDEX != VFU_PCI_DEV_VGA_REGION_IDX);

struct TTVfioUser {
    Object parent_obj;

    char *socket;
    bool own_socket;            /* we created it: unlink it at the end */
    char *device;
    TTPcie *pcie;
    TTBlackholeSoC *soc;        /* @pcie's chip, or NULL */
    vfu_ctx_t *ctx;
    int poll_fd;                /* listener or client socket (server thread) */
    bool connected;
    QemuThread thread;
    bool thread_started;
    int wake[2];                /* a byte in wake[1] stops the thread */
    uint32_t poll_us;           /* busy-poll after a request (property) */
    uint32_t idle_exit;         /* s without a client before quitting, or 0 */
    bool detach_reset;          /* power-cycle when a client goes (prop.) */
    bool exit_on_detach;        /* quit when a client goes (property) */
    int64_t idle_since;         /* no client since (ns, realtime), or 0 */
    bool share_ram;             /* offer the host map (property) */
    TTHostMap *hm;              /* regions 10 and 11, or NULL */
    QemuSemaphore thread_done;
    Notifier machine_done;
    QemuRecMutex ctx_lock;      /* libvfio-user is not thread-safe */

    /*
     * The client's mapped DMA regions, for device-to-host copies: kept
     * here rather than looked up in libvfio-user, because the server
     * thread holds ctx_lock while a BAR access runs, and that access may
     * reach host memory while another thread copies
     */
    QemuMutex map_lock;
    TTVfuDmaMap maps[TT_VFU_MAX_DMA];
    int nmaps;

    /*
     * The host DMA mailbox: one request at a time (mbox_serial, held by
     * the device thread whose request it is, never by the server thread)
     */
    QemuMutex mbox_serial;
    QemuMutex mbox_lock;
    QemuCond mbox_cond;
    bool mbox_on, pending, done;
    bool mbox_inline;           /* the client serves inline requests */
    uint32_t dir, len;
    uint64_t addr;
    uint8_t *shm;               /* the region: mirror page, then DATA */
    uint8_t *hm_shared;         /* the host map's shared area */
    uint8_t *data;
    int shm_fd;                 /* -1: no memfd, the region is message-only */
};

/* --------------------------------------------------------- host memory -- */

/*
 * Copy to or from the client's mapping without trusting it: the file
 * behind a DMA region may be shorter than the region, or shrink later,
 * and touching such a page raises SIGBUS.  process_vm_readv/writev on our
 * own process copy the same bytes but report EFAULT instead.
 */
static bool tt_vfu_copy(void *client, void *buf, size_t len, bool write)
{
    struct iovec local = { buf, len }, remote = { client, len };
    ssize_t n = write ? process_vm_writev(getpid(), &local, 1, &remote, 1, 0)
                      : process_vm_readv(getpid(), &local, 1, &remote, 1, 0);

    if (n == (ssize_t)len) {
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "tt-vfio-user: client memory at %p "
                  "(%zu bytes) is not all there (%s): the file behind the "
                  "DMA region is shorter than the region\n", client, len,
                  n < 0 ? strerror(errno) : "short copy");
    return false;
}

/*
 * Host memory the client mapped with an fd: copied directly.  map_lock
 * keeps the region mapped while the copy runs (the server thread takes it
 * before it unmaps one) and is never held around device code.
 */
static bool tt_vfu_dma_direct(TTVfioUser *o, uint64_t addr, void *buf,
                              uint64_t len, bool write)
{
    QEMU_LOCK_GUARD(&o->map_lock);
    for (int i = 0; i < o->nmaps; i++) {
        TTVfuDmaMap *m = &o->maps[i];

        if (addr >= m->iova && addr - m->iova < m->len &&
            len <= m->len - (addr - m->iova) &&
            (m->prot & (write ? PROT_WRITE : PROT_READ))) {
            return tt_vfu_copy(m->vaddr + (addr - m->iova), buf, len, write);
        }
    }
    return false;
}

/* STATUS, DIR, LEN, ADDR as a client mapping the region reads them */
static void tt_vfu_mbox_mirror(TTVfioUser *o, uint32_t status)
{
    uint32_t *w = (uint32_t *)o->shm;

    if (status) {
        w[TT_MBOX_DIR / 4] = cpu_to_le32(o->dir);
        w[TT_MBOX_LEN / 4] = cpu_to_le32(o->len);
        w[TT_MBOX_ADDR / 4] = cpu_to_le32(o->addr);
        w[TT_MBOX_ADDR / 4 + 1] = cpu_to_le32(o->addr >> 32);
    }
    /* the client reads STATUS first: everything before it must be there */
    qatomic_store_release(&w[TT_MBOX_STATUS / 4], cpu_to_le32(status));
}

/* Post one piece to the mailbox and wait until the client served it */
static bool tt_vfu_mbox_piece(TTVfioUser *o, uint64_t addr, uint8_t *buf,
                              uint32_t len, bool write)
{
    bool ok;
    int64_t deadline = qemu_clock_get_ms(QEMU_CLOCK_REALTIME) +
                       TT_MBOX_TIMEOUT_MS;

    qemu_mutex_lock(&o->mbox_lock);
    o->dir = write;
    o->len = len;
    o->addr = addr;
    if (write) {
        memcpy(o->data, buf, len);
    }
    o->done = false;
    o->pending = true;
    tt_vfu_mbox_mirror(o, 1);
    trace_tt_vfu_mbox_post(addr, len, write);
    while (!o->done && o->mbox_on &&
           qemu_clock_get_ms(QEMU_CLOCK_REALTIME) < deadline) {
        qemu_cond_timedwait(&o->mbox_cond, &o->mbox_lock, 100);
    }
    ok = o->done;
    if (ok && !write) {
        memcpy(buf, o->data, len);
    }
    o->pending = false;
    tt_vfu_mbox_mirror(o, 0);
    qemu_mutex_unlock(&o->mbox_lock);
    if (!ok) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-vfio-user: the client did not "
                      "serve a %u-byte DMA %s at 0x%" PRIx64 "\n", len,
                      write ? "write" : "read", addr);
    }
    return ok;
}

/*
 * An inline request (dma-mailbox-abi.h), from the server thread inside a
 * client access that reached host memory: posted in the shared memory,
 * served by the client while it waits for that access's reply
 */
static bool tt_vfu_mbox_inline(TTVfioUser *o, uint64_t addr, uint8_t *buf,
                               uint32_t len, bool write)
{
    uint32_t *w = (uint32_t *)o->shm;
    int64_t deadline = qemu_clock_get_ms(QEMU_CLOCK_REALTIME) +
                       TT_MBOX_TIMEOUT_MS;
    unsigned spins = 0;
    bool ok;

    w[TT_MBOX_IN_DIR / 4] = cpu_to_le32(write ? TT_MBOX_DIR_TO_HOST
                                              : TT_MBOX_DIR_TO_DEVICE);
    w[TT_MBOX_IN_LEN / 4] = cpu_to_le32(len);
    w[TT_MBOX_IN_ADDR / 4] = cpu_to_le32(addr);
    w[TT_MBOX_IN_ADDR / 4 + 1] = cpu_to_le32(addr >> 32);
    if (write) {
        memcpy(o->shm + TT_MBOX_IN_DATA, buf, len);
    }
    qatomic_set(&w[TT_MBOX_IN_DONE / 4], 0);
    trace_tt_vfu_mbox_post(addr, len, write);
    /* the client reads IN_STATUS first: the rest must be there before it */
    qatomic_store_release(&w[TT_MBOX_IN_STATUS / 4], cpu_to_le32(1));
    while (!(ok = qatomic_load_acquire(&w[TT_MBOX_IN_DONE / 4]) != 0) &&
           qatomic_read(&o->mbox_on)) {
        /* the client answers within microseconds, or a poll period */
        if (++spins < 1000) {
            cpu_relax();
        } else if (qemu_clock_get_ms(QEMU_CLOCK_REALTIME) > deadline) {
            break;
        } else {
            g_usleep(20);
        }
    }
    qatomic_store_release(&w[TT_MBOX_IN_STATUS / 4], 0);
    if (ok && !write) {
        memcpy(buf, o->shm + TT_MBOX_IN_DATA, len);
    }
    if (!ok) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-vfio-user: the client did not "
                      "serve a %u-byte DMA %s at 0x%" PRIx64 " inside its "
                      "own access\n", len, write ? "write" : "read", addr);
    }
    return ok;
}

static MemTxResult tt_vfu_dma_unlocked(TTVfioUser *o, uint64_t addr,
                                       uint8_t *p, uint64_t len, bool write)
{
    if (tt_vfu_dma_direct(o, addr, p, len, write)) {
        return MEMTX_OK;
    }
    if (!qatomic_read(&o->mbox_on)) {
        qemu_log_mask(LOG_GUEST_ERROR, "tt-vfio-user: no host memory at 0x%"
                      PRIx64 " (%" PRIu64 " bytes): the client mapped none "
                      "there\n", addr, len);
        return MEMTX_DECODE_ERROR;
    }
    if (qemu_thread_is_self(&o->thread)) {
        /*
         * A host access looped back to host memory: only a client that
         * serves inline requests can answer before its access completes
         */
        if (!qatomic_read(&o->mbox_inline)) {
            qemu_log_mask(LOG_GUEST_ERROR, "tt-vfio-user: host memory at 0x%"
                          PRIx64 " reached from a host access; dropped (the "
                          "client serves no inline requests)\n", addr);
            return MEMTX_ERROR;
        }
        for (uint64_t done = 0; done < len; done += TT_MBOX_IN_DATA_SIZE) {
            uint32_t n = MIN(len - done, TT_MBOX_IN_DATA_SIZE);

            if (!tt_vfu_mbox_inline(o, addr + done, p + done, n, write)) {
                return MEMTX_ERROR;
            }
        }
        return MEMTX_OK;
    }
    QEMU_LOCK_GUARD(&o->mbox_serial);
    for (uint64_t done = 0; done < len; done += TT_MBOX_DATA_SIZE) {
        uint32_t n = MIN(len - done, TT_MBOX_DATA_SIZE);

        if (!tt_vfu_mbox_piece(o, addr + done, p + done, n, write)) {
            return MEMTX_ERROR;
        }
    }
    return MEMTX_OK;
}

/*
 * Device-to-host traffic, from a core's thread, the eDMA worker or (a host
 * access that loops back) the server thread.  A core's thread that holds
 * the BQL (single-threaded TCG) lets go of it: the server thread takes the
 * BQL for BAR accesses while it holds ctx_lock, and a mailbox request
 * waits for the client's next access.
 */
static MemTxResult tt_vfu_dma(void *opaque, uint64_t addr, void *buf,
                              uint64_t len, bool write)
{
    TTVfioUser *o = opaque;
    bool bql = !qemu_thread_is_self(&o->thread) && bql_locked();
    MemTxResult r;

    if (bql) {
        bql_unlock();
    }
    r = tt_vfu_dma_unlocked(o, addr, buf, len, write);
    if (bql) {
        bql_lock();
    }
    return r;
}

/* Region 8: the mailbox, as the client sees it (server thread) */
static ssize_t tt_vfu_mbox_access(vfu_ctx_t *ctx, char *buf, size_t count,
                                  loff_t off, bool is_write)
{
    TTVfioUser *o = vfu_get_private(ctx);
    uint32_t v = 0;

    QEMU_LOCK_GUARD(&o->mbox_lock);
    if (off >= TT_MBOX_DATA) {
        if (off + count > TT_MBOX_SIZE) {
            return -1;
        }
        if (is_write) {
            memcpy(o->data + off - TT_MBOX_DATA, buf, count);
        } else {
            memcpy(buf, o->data + off - TT_MBOX_DATA, count);
        }
        return count;
    }
    if (count != 4 && !(off == TT_MBOX_ADDR && count == 8)) {
        errno = EINVAL;
        return -1;
    }
    if (is_write) {
        memcpy(&v, buf, 4);
        v = le32_to_cpu(v);
        if (off == TT_MBOX_CTRL) {
            qatomic_set(&o->mbox_on, v & TT_MBOX_CTRL_ON);
            /* inline requests live in shared memory: a mapped region */
            qatomic_set(&o->mbox_inline, (v & TT_MBOX_CTRL_INLINE) &&
                        (v & TT_MBOX_CTRL_ON) && o->shm_fd >= 0);
            trace_tt_vfu_mbox_ctrl(v);
        } else if (off == TT_MBOX_DONE && v == 1 && o->pending) {
            o->done = true;
            tt_vfu_mbox_mirror(o, 0);
        }
        qemu_cond_broadcast(&o->mbox_cond);
        return count;
    }
    if (off == TT_MBOX_ADDR) {
        uint64_t a = cpu_to_le64(o->addr);

        memcpy(buf, &a, count);
        return count;
    }
    v = off == TT_MBOX_CTRL ? o->mbox_on | o->mbox_inline << 1 :
        off == TT_MBOX_STATUS ? o->pending && !o->done :
        off == TT_MBOX_DIR ? o->dir : off == TT_MBOX_LEN ? o->len :
        off == TT_MBOX_ADDR + 4 ? o->addr >> 32 : 0;
    v = cpu_to_le32(v);
    memcpy(buf, &v, 4);
    return count;
}

/* ----------------------------------------------------------------- BARs -- */

static ssize_t tt_vfu_bar(vfu_ctx_t *ctx, int bar, char *buf, size_t count,
                          loff_t off, bool is_write)
{
    TTVfioUser *o = vfu_get_private(ctx);

    trace_tt_vfu_bar(bar, off, count, is_write);
    BQL_LOCK_GUARD();
    tt_pcie_bar_rw(o->pcie, bar, off, buf, count, is_write);
    return count;
}

static ssize_t tt_vfu_bar0(vfu_ctx_t *ctx, char *buf, size_t count,
                           loff_t off, bool is_write)
{
    return tt_vfu_bar(ctx, 0, buf, count, off, is_write);
}

static ssize_t tt_vfu_bar2(vfu_ctx_t *ctx, char *buf, size_t count,
                           loff_t off, bool is_write)
{
    return tt_vfu_bar(ctx, 2, buf, count, off, is_write);
}

static ssize_t tt_vfu_bar4(vfu_ctx_t *ctx, char *buf, size_t count,
                           loff_t off, bool is_write)
{
    return tt_vfu_bar(ctx, 4, buf, count, off, is_write);
}

/* ------------------------------------------------------ the host map -- */

/* Region 10: the chip's RAM by message (a client that does not map it) */
static ssize_t tt_vfu_ram_access(vfu_ctx_t *ctx, char *buf, size_t count,
                                 loff_t off, bool is_write)
{
    TTVfioUser *o = vfu_get_private(ctx);

    if (!tt_host_map_ram_rw(o->hm, off, buf, count, is_write)) {
        errno = EINVAL;
        return -1;
    }
    return count;
}

/*
 * Region 11: command batches at TT_HM_CMD; reads return the shared area as
 * a client that maps it sees it.  Server thread, no BQL.
 */
static ssize_t tt_vfu_ctrl_access(vfu_ctx_t *ctx, char *buf, size_t count,
                                  loff_t off, bool is_write)
{
    TTVfioUser *o = vfu_get_private(ctx);
    uint64_t size = tt_host_map_ctrl_size(o->hm);

    if (is_write) {
        if (off != TT_HM_CMD || count > TT_HM_CMD_MAX) {
            qemu_log_mask(LOG_GUEST_ERROR, "tt-vfio-user: %zu-byte write at "
                          "0x%" PRIx64 " of the host-map control region: "
                          "commands go to 0x%x, at most %u bytes\n", count,
                          (uint64_t)off, TT_HM_CMD, TT_HM_CMD_MAX);
            errno = EINVAL;
            return -1;
        }
        if (!tt_host_map_command(o->hm, buf, count)) {
            errno = EINVAL;
            return -1;
        }
        return count;
    }
    if (off < TT_HM_SHARED || off >= size || count > size - off) {
        memset(buf, 0, count);
        return count;
    }
    memcpy(buf, o->hm_shared + off - TT_HM_SHARED, count);
    return count;
}

/*
 * Regions 10 and 11 (host-map-abi.h).  libvfio-user sends the RAM region's
 * file once per area, so a client takes as many descriptors per message
 * as there are blocks (it says so in VERSION's max_msg_fds); QEMU's
 * vfio-user-pci never asks for these regions.
 */
static bool tt_vfu_setup_host_map(TTVfioUser *o, Error **errp)
{
    const TTHostMapRam *ram = tt_host_map_ram(o->hm);
    struct iovec shared = {
        .iov_base = (void *)(uintptr_t)TT_HM_SHARED,
        .iov_len = tt_host_map_ctrl_size(o->hm) - TT_HM_SHARED,
    };

    if (vfu_setup_device_nr_regions(o->ctx, TT_HM_NUM_REGIONS) ||
        vfu_setup_region(o->ctx, TT_HM_RAM_REGION, ram->size,
                         tt_vfu_ram_access, VFU_REGION_FLAG_RW, ram->areas,
                         ram->nareas, ram->fd, 0) ||
        vfu_setup_region(o->ctx, TT_HM_CTRL_REGION,
                         tt_host_map_ctrl_size(o->hm), tt_vfu_ctrl_access,
                         VFU_REGION_FLAG_RW, &shared, 1,
                         tt_host_map_ctrl_fd(o->hm), 0)) {
        error_setg_errno(errp, errno, "tt-vfio-user: host-map regions");
        return false;
    }
    return true;
}

static void tt_vfu_dma_register(vfu_ctx_t *ctx, vfu_dma_info_t *info)
{
    TTVfioUser *o = vfu_get_private(ctx);

    trace_tt_vfu_dma_map((uintptr_t)info->iova.iov_base, info->iova.iov_len,
                         info->vaddr != NULL);
    QEMU_LOCK_GUARD(&o->map_lock);
    if (info->vaddr && o->nmaps < TT_VFU_MAX_DMA) {
        o->maps[o->nmaps++] = (TTVfuDmaMap) {
            (uintptr_t)info->iova.iov_base, info->iova.iov_len,
            info->vaddr, info->prot,
        };
    }
}

/* Before libvfio-user unmaps the region: no copy may be using it */
static void tt_vfu_dma_unregister(vfu_ctx_t *ctx, vfu_dma_info_t *info)
{
    TTVfioUser *o = vfu_get_private(ctx);

    trace_tt_vfu_dma_unmap((uintptr_t)info->iova.iov_base,
                           info->iova.iov_len);
    QEMU_LOCK_GUARD(&o->map_lock);
    for (int i = 0; i < o->nmaps; i++) {
        if (o->maps[i].iova == (uintptr_t)info->iova.iov_base &&
            o->maps[i].len == info->iova.iov_len) {
            o->maps[i] = o->maps[--o->nmaps];
            break;
        }
    }
}

/*
 * A client's DEVICE_RESET power-cycles the chip (libttsim's warm restart;
 * QEMU's vfio-user-pci sends it when its guest resets the device); a lost
 * connection leaves the chip as it is for the next client.
 */
static int tt_vfu_reset(vfu_ctx_t *ctx, vfu_reset_type_t type)
{
    TTVfioUser *o = vfu_get_private(ctx);

    trace_tt_vfu_reset(type);
    if (type == VFU_RESET_DEVICE && o->soc) {
        tt_soc_power_cycle(o->soc);
    }
    return 0;
}

static void tt_vfu_log(vfu_ctx_t *ctx, int level, const char *msg)
{
    qemu_log_mask(LOG_GUEST_ERROR, "tt-vfio-user: %s\n", msg);
}

/* ------------------------------------------------------ config space -- */

/* PCI power management (ID 1, version 3) and PCI Express endpoint caps */
static bool tt_vfu_add_caps(vfu_ctx_t *ctx)
{
    uint8_t pm[8] = { 0x01, 0, 0x03, 0x00 };
    uint8_t exp[0x3c] = {
        0x10, 0, 0x02, 0x00,            /* version 2, endpoint */
        0x01, 0x80, 0x00, 0x00,         /* DEVCAP: 256-byte MPS, RBER */
        0x10, 0x28, 0x00, 0x00,         /* DEVCTL: PCIe reset value 0x2810 */
    };

    return vfu_pci_add_capability(ctx, 0, 0, pm) > 0 &&
           vfu_pci_add_capability(ctx, 0, 0, exp) > 0;
}

static bool tt_vfu_setup_pci(TTVfioUser *o, Error **errp)
{
    vfu_ctx_t *ctx = o->ctx;
    vfu_pci_config_space_t *cfg;
    static vfu_region_access_cb_t *const bar_cb[] = {
        tt_vfu_bar0, tt_vfu_bar2, tt_vfu_bar4,
    };
    static const uint64_t bar_size[] = {
        TT_PCIE_BAR0_SIZE, TT_PCIE_BAR2_SIZE, TT_PCIE_BAR4_SIZE,
    };
    /* 64-bit memory BARs; the TLB window BARs (0 and 4) prefetchable */
    static const uint32_t bar_type[] = { 0xc, 0x4, 0xc };

    if (vfu_pci_init(ctx, VFU_PCI_TYPE_EXPRESS, PCI_HEADER_TYPE_NORMAL, 0)) {
        error_setg_errno(errp, errno, "tt-vfio-user: vfu_pci_init failed");
        return false;
    }
    vfu_pci_set_id(ctx, TT_PCI_VENDOR_ID, TT_PCI_DEVICE_ID, TT_PCI_VENDOR_ID,
                   o->pcie->x == 2 ? 0x0040 : 0x0043);
    vfu_pci_set_class(ctx, TT_PCI_CLASS >> 16, (TT_PCI_CLASS >> 8) & 0xff,
                      TT_PCI_CLASS & 0xff);
    cfg = vfu_pci_get_config_space(ctx);
    cfg->hdr.intr.ipin = 1;                     /* INTA */
    for (int i = 0; i < TT_PCIE_NUM_BARS; i++) {
        cfg->hdr.bars[2 * i].raw = cpu_to_le32(bar_type[i]);
        if (vfu_setup_region(ctx, VFU_PCI_DEV_BAR0_REGION_IDX + 2 * i,
                             bar_size[i], bar_cb[i],
                             VFU_REGION_FLAG_RW | VFU_REGION_FLAG_MEM, NULL,
                             0, -1, 0)) {
            error_setg_errno(errp, errno, "tt-vfio-user: BAR%d", 2 * i);
            return false;
        }
    }
    if (o->hm && !tt_vfu_setup_host_map(o, errp)) {
        return false;
    }
    if (vfu_setup_region(ctx, TT_MBOX_REGION_INDEX, TT_MBOX_SIZE,
                         tt_vfu_mbox_access, VFU_REGION_FLAG_RW, NULL, 0,
                         o->shm_fd, 0) ||
        !tt_vfu_add_caps(ctx) ||
        vfu_setup_device_nr_irqs(ctx, VFU_DEV_INTX_IRQ, 1) ||
        vfu_setup_device_dma(ctx, tt_vfu_dma_register,
                             tt_vfu_dma_unregister) ||
        vfu_setup_device_reset_cb(ctx, tt_vfu_reset)) {
        error_setg_errno(errp, errno, "tt-vfio-user: device setup failed");
        return false;
    }
    return true;
}

/* ---------------------------------------------------- the socket loop -- */

/*
 * libvfio-user closes the socket of a client it loses, but vfu_run_ctx()
 * does not always fail then: if the client hangs up before the error
 * reply to a request it refused, it returns 0.  The poll fd turning back
 * into the listening socket is what tells that the client is gone.
 */
static void tt_vfu_run(TTVfioUser *o)
{
    bool gone = false;
    int r, err = 0;

    do {
        WITH_QEMU_LOCK_GUARD(&o->ctx_lock) {
            r = vfu_run_ctx(o->ctx);
            err = errno;
            gone = vfu_get_poll_fd(o->ctx) != o->poll_fd;
        }
    } while (r > 0 && !gone);
    if (!gone && r < 0 && err != EAGAIN && err != EBUSY) {
        /* still attached: libvfio-user logged why; serve what comes next */
        warn_report("tt-vfio-user: client on %s: %s", o->socket,
                    strerror(err));
    }
    if (gone) {
        trace_tt_vfu_detached(o->socket, o->detach_reset);
        if (o->exit_on_detach) {
            /* the client that started us is done with us */
            qemu_system_shutdown_request(SHUTDOWN_CAUSE_HOST_QMP_QUIT);
        } else if (!o->detach_reset && !o->idle_exit) {
            warn_report("tt-vfio-user: client on %s gone; the chip keeps its "
                        "state for the next one", o->socket);
        }
        qemu_mutex_lock(&o->mbox_lock);
        o->mbox_on = false;
        o->mbox_inline = false;
        qemu_cond_broadcast(&o->mbox_cond);
        qemu_mutex_unlock(&o->mbox_lock);
        WITH_QEMU_LOCK_GUARD(&o->ctx_lock) {
            qatomic_set(&o->connected, false);
            o->poll_fd = vfu_get_poll_fd(o->ctx);
        }
        /* before the next client can attach: nothing of this one leaks */
        if (o->detach_reset && o->soc) {
            tt_soc_power_cycle(o->soc);
        }
        o->idle_since = get_clock_realtime();
    }
}

static void tt_vfu_attach(TTVfioUser *o)
{
    int r;

    WITH_QEMU_LOCK_GUARD(&o->ctx_lock) {
        r = vfu_attach_ctx(o->ctx);
        if (r == 0) {
            o->poll_fd = vfu_get_poll_fd(o->ctx);
            qatomic_set(&o->connected, true);
        }
    }
    if (r < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            warn_report("tt-vfio-user: a client failed to attach on %s: %s",
                        o->socket, strerror(errno));
        }
        return;
    }
    o->idle_since = 0;
    trace_tt_vfu_attached(o->socket);
}

/*
 * How long poll() may sleep: not at all while busy-polling after a
 * request, until the idle deadline (idle-exit) without a client, else
 * until something comes.  True once the idle deadline has passed.
 */
static bool tt_vfu_poll_timeout(TTVfioUser *o, int64_t poll_until, int *ms)
{
    int64_t left;

    *ms = -1;
    if (get_clock() < poll_until) {
        *ms = 0;
    } else if (o->idle_exit && o->idle_since) {
        left = o->idle_since + o->idle_exit * NANOSECONDS_PER_SECOND -
               get_clock_realtime();
        if (left <= 0) {
            return true;
        }
        *ms = MAX(1, left / SCALE_MS);
    }
    return false;
}

/* The server thread: wait for the socket, attach or serve, until told */
static void *tt_vfu_thread(void *opaque)
{
    TTVfioUser *o = opaque;
    int64_t poll_until = 0;

    for (;;) {
        struct pollfd p[2] = {
            { .fd = o->poll_fd, .events = POLLIN },
            { .fd = o->wake[0], .events = POLLIN },
        };
        int ms, n;

        if (tt_vfu_poll_timeout(o, poll_until, &ms)) {
            /*
             * A kept emulator nobody came back for (libttsim's pool).  The
             * path goes now: a client arriving while QEMU winds down finds
             * none and starts another emulator there, which our exit must
             * not unlink.
             */
            trace_tt_vfu_idle_exit(o->socket, o->idle_exit);
            if (qatomic_xchg(&o->own_socket, false)) {
                unlink(o->socket);
            }
            qemu_system_shutdown_request(SHUTDOWN_CAUSE_HOST_QMP_QUIT);
            o->idle_since = 0;
            continue;
        }
        n = poll(p, 2, ms);
        if (n == 0) {
            continue;           /* polling, or the idle deadline: re-check */
        }
        if (n < 0 && errno != EINTR) {
            error_report("tt-vfio-user: poll: %s; no longer serving %s",
                         strerror(errno), o->socket);
            break;
        }
        if (p[1].revents) {
            break;
        }
        if (!p[0].revents) {
            continue;
        }
        if (o->connected) {
            tt_vfu_run(o);
            poll_until = get_clock() + o->poll_us * SCALE_US;
        } else {
            tt_vfu_attach(o);
        }
    }
    qemu_sem_post(&o->thread_done);
    return NULL;
}

/*
 * Stop the server thread.  It may be blocked on a stalled client or on
 * the BQL (our caller holds it): give up the BQL while waiting, and leave
 * a thread that does not finish within a second (then the context is not
 * destroyed under it).
 */
static bool tt_vfu_stop(TTVfioUser *o)
{
    bool bql = bql_locked(), done;

    if (!o->thread_started) {
        return true;
    }
    if (write(o->wake[1], "", 1) != 1) {
        return false;
    }
    if (bql) {
        bql_unlock();
    }
    done = qemu_sem_timedwait(&o->thread_done, 1000) == 0;
    if (bql) {
        bql_lock();
    }
    if (done) {
        qemu_thread_join(&o->thread);
    } else {
        warn_report("tt-vfio-user: the client on %s does not let go; not "
                    "waiting for it", o->socket);
    }
    return done;
}

static TTPcie *tt_vfu_find_pcie(TTVfioUser *o, Error **errp)
{
    Object *obj;
    bool ambiguous = false;

    /*
     * Where -M blackhole puts it: resolving a path is cheap, while a search
     * by type walks every object (seven hundred CPUs with their properties)
     */
    obj = o->device ? NULL : object_resolve_path_type("/machine/soc/pcie",
                                                      TYPE_TT_PCIE, NULL);
    if (obj) {
        return TT_PCIE(obj);
    }
    if (o->device) {
        obj = object_resolve_path_type(o->device, TYPE_TT_PCIE, NULL);
        if (!obj) {
            error_setg(errp, "tt-vfio-user: '%s' is not a tt-pcie device",
                       o->device);
        }
    } else {
        obj = object_resolve_path_type("", TYPE_TT_PCIE, &ambiguous);
        if (!obj) {
            error_setg(errp, "tt-vfio-user: no tt-pcie device: use it with "
                       "-M blackhole%s", ambiguous ? " (or name one with "
                       "device=)" : "");
        }
    }
    return obj ? TT_PCIE(obj) : NULL;
}

/* Once the machine exists: create the server and listen */
static void tt_vfu_start(TTVfioUser *o, Error **errp)
{
    Object *soc;

    o->pcie = tt_vfu_find_pcie(o, errp);
    if (!o->pcie) {
        return;
    }
    soc = object_dynamic_cast(OBJECT(o->pcie)->parent, TYPE_TT_BLACKHOLE_SOC);
    o->soc = soc ? TT_BLACKHOLE_SOC(soc) : NULL;
    if (o->share_ram && soc) {
        Error *err = NULL;

        o->hm = tt_host_map_new(TT_BLACKHOLE_SOC(soc), o->pcie, &err);
        if (!o->hm) {
            warn_report_err(err);
            warn_report("tt-vfio-user: L1 and GDDR are reached by message "
                        "only");
        } else {
            o->hm_shared = (uint8_t *)tt_host_map_shared(o->hm);
        }
    }
    o->ctx = vfu_create_ctx(VFU_TRANS_SOCK, o->socket,
                            LIBVFIO_USER_FLAG_ATTACH_NB, o, VFU_DEV_TYPE_PCI);
    if (!o->ctx) {
        error_setg_errno(errp, errno, "tt-vfio-user: cannot serve on '%s'",
                         o->socket);
        return;
    }
    o->own_socket = true;
    vfu_setup_log(o->ctx, tt_vfu_log, LOG_ERR);
    if (!tt_vfu_setup_pci(o, errp)) {
        return;
    }
    if (vfu_realize_ctx(o->ctx)) {
        error_setg_errno(errp, errno, "tt-vfio-user: vfu_realize_ctx");
        return;
    }
    /*
     * ENOENT: a client (the libttsim library polls for the socket) has
     * already connected and removed the path, so nobody else can reach it.
     */
    if (chmod(o->socket, 0600) && errno != ENOENT) {
        error_setg_errno(errp, errno, "tt-vfio-user: chmod %s", o->socket);
        return;
    }
    if (!g_unix_open_pipe(o->wake, FD_CLOEXEC, NULL)) {
        error_setg_errno(errp, errno, "tt-vfio-user: pipe");
        return;
    }
    o->poll_fd = vfu_get_poll_fd(o->ctx);
    o->idle_since = get_clock_realtime();
    qemu_thread_create(&o->thread, "tt-vfio-user", tt_vfu_thread, o,
                       QEMU_THREAD_JOINABLE);
    o->thread_started = true;
    tt_pcie_set_dma(o->pcie, tt_vfu_dma, o);
}

static void tt_vfu_machine_done(Notifier *n, void *data)
{
    TTVfioUser *o = container_of(n, TTVfioUser, machine_done);

    tt_vfu_start(o, &error_fatal);
}

static void tt_vfu_complete(UserCreatable *uc, Error **errp)
{
    TTVfioUser *o = TT_VFIO_USER(uc);

    if (!o->socket || !*o->socket) {
        error_setg(errp, "tt-vfio-user: socket=PATH is required");
        return;
    }
    if (access(o->socket, F_OK) == 0) {
        error_setg(errp, "tt-vfio-user: %s already exists; remove it or "
                   "choose another socket path", o->socket);
        return;
    }
    o->machine_done.notify = tt_vfu_machine_done;
    qemu_add_machine_init_done_notifier(&o->machine_done);
}

static char *tt_vfu_get_socket(Object *obj, Error **errp)
{
    return g_strdup(TT_VFIO_USER(obj)->socket);
}

static void tt_vfu_set_socket(Object *obj, const char *v, Error **errp)
{
    TTVfioUser *o = TT_VFIO_USER(obj);

    g_free(o->socket);
    o->socket = g_strdup(v);
}

static char *tt_vfu_get_device(Object *obj, Error **errp)
{
    return g_strdup(TT_VFIO_USER(obj)->device);
}

static void tt_vfu_set_device(Object *obj, const char *v, Error **errp)
{
    TTVfioUser *o = TT_VFIO_USER(obj);

    g_free(o->device);
    o->device = g_strdup(v);
}

static void tt_vfu_get_poll_us(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    visit_type_uint32(v, name, &TT_VFIO_USER(obj)->poll_us, errp);
}

static void tt_vfu_set_poll_us(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    uint32_t us;

    if (!visit_type_uint32(v, name, &us, errp)) {
        return;
    }
    if (us > 1000000) {
        error_setg(errp, "tt-vfio-user: poll-us=%u is more than a second",
                   us);
        return;
    }
    TT_VFIO_USER(obj)->poll_us = us;
}

static void tt_vfu_get_idle_exit(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    visit_type_uint32(v, name, &TT_VFIO_USER(obj)->idle_exit, errp);
}

static void tt_vfu_set_idle_exit(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    uint32_t sec;

    if (!visit_type_uint32(v, name, &sec, errp)) {
        return;
    }
    if (sec > 7 * 24 * 3600) {
        error_setg(errp, "tt-vfio-user: idle-exit=%u is more than a week",
                   sec);
        return;
    }
    TT_VFIO_USER(obj)->idle_exit = sec;
}

static bool tt_vfu_get_detach_reset(Object *obj, Error **errp)
{
    return TT_VFIO_USER(obj)->detach_reset;
}

static void tt_vfu_set_detach_reset(Object *obj, bool v, Error **errp)
{
    TT_VFIO_USER(obj)->detach_reset = v;
}

static bool tt_vfu_get_exit_on_detach(Object *obj, Error **errp)
{
    return TT_VFIO_USER(obj)->exit_on_detach;
}

static void tt_vfu_set_exit_on_detach(Object *obj, bool v, Error **errp)
{
    TT_VFIO_USER(obj)->exit_on_detach = v;
}

static bool tt_vfu_get_share_ram(Object *obj, Error **errp)
{
    return TT_VFIO_USER(obj)->share_ram;
}

static void tt_vfu_set_share_ram(Object *obj, bool v, Error **errp)
{
    TT_VFIO_USER(obj)->share_ram = v;
}

static void tt_vfu_init(Object *obj)
{
    TTVfioUser *o = TT_VFIO_USER(obj);

    o->poll_fd = -1;
    o->wake[0] = o->wake[1] = -1;
    o->poll_us = 32;
    o->share_ram = true;
    qemu_sem_init(&o->thread_done, 0);
    /* sealed: a client must not be able to shrink it under the mirror */
    o->shm = qemu_memfd_alloc("tt-vfio-user-mailbox", TT_MBOX_SIZE,
                              F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL,
                              &o->shm_fd, NULL);
    if (!o->shm) {
        /* no memfd: clients serve the mailbox by message only */
        o->shm = g_malloc0(TT_MBOX_SIZE);
        o->shm_fd = -1;
    }
    o->data = o->shm + TT_MBOX_DATA;
    qemu_rec_mutex_init(&o->ctx_lock);
    qemu_mutex_init(&o->map_lock);
    qemu_mutex_init(&o->mbox_serial);
    qemu_mutex_init(&o->mbox_lock);
    qemu_cond_init(&o->mbox_cond);
}

static void tt_vfu_finalize(Object *obj)
{
    TTVfioUser *o = TT_VFIO_USER(obj);

    qemu_mutex_lock(&o->mbox_lock);
    o->mbox_on = false;                 /* release cores waiting on it */
    qemu_cond_broadcast(&o->mbox_cond);
    qemu_mutex_unlock(&o->mbox_lock);
    if (o->pcie) {
        tt_pcie_set_dma(o->pcie, NULL, NULL);   /* once they have left */
    }
    if (qatomic_xchg(&o->own_socket, false)) {
        unlink(o->socket);      /* not another server's, refused above */
    }
    if (!tt_vfu_stop(o)) {
        return;     /* the thread still uses the rest: leave it (exiting) */
    }
    if (o->ctx) {
        vfu_destroy_ctx(o->ctx);
    }
    if (o->hm) {
        tt_host_map_free(o->hm);
    }
    for (int i = 0; i < 2; i++) {
        if (o->wake[i] >= 0) {
            close(o->wake[i]);
        }
    }
    qemu_sem_destroy(&o->thread_done);
    g_free(o->socket);
    g_free(o->device);
    if (o->shm_fd >= 0) {
        qemu_memfd_free(o->shm, TT_MBOX_SIZE, o->shm_fd);
    } else {
        g_free(o->shm);
    }
}

static void tt_vfu_class_init(ObjectClass *klass, const void *data)
{
    UserCreatableClass *ucc = USER_CREATABLE_CLASS(klass);

    ucc->complete = tt_vfu_complete;
    object_class_property_add_str(klass, "socket", tt_vfu_get_socket,
                                  tt_vfu_set_socket);
    object_class_property_set_description(klass, "socket",
        "UNIX socket path the vfio-user server listens on (created 0600)");
    object_class_property_add_str(klass, "device", tt_vfu_get_device,
                                  tt_vfu_set_device);
    object_class_property_set_description(klass, "device",
        "QOM path of the tt-pcie device (default: the machine's)");
    object_class_property_add(klass, "poll-us", "uint32",
                              tt_vfu_get_poll_us, tt_vfu_set_poll_us,
                              NULL, NULL);
    object_class_property_set_description(klass, "poll-us",
        "microseconds to keep polling the socket after a request before "
        "sleeping (0: never; default 32)");
    object_class_property_add(klass, "idle-exit", "uint32",
                              tt_vfu_get_idle_exit, tt_vfu_set_idle_exit,
                              NULL, NULL);
    object_class_property_set_description(klass, "idle-exit",
        "quit after this many seconds without a client (0: never; "
        "default 0)");
    object_class_property_add_bool(klass, "detach-reset",
                                   tt_vfu_get_detach_reset,
                                   tt_vfu_set_detach_reset);
    object_class_property_set_description(klass, "detach-reset",
        "power-cycle the chip when a client goes, before the next one "
        "attaches (default off: the chip keeps its state)");
    object_class_property_add_bool(klass, "exit-on-detach",
                                   tt_vfu_get_exit_on_detach,
                                   tt_vfu_set_exit_on_detach);
    object_class_property_set_description(klass, "exit-on-detach",
        "quit when the client goes (default off)");
    object_class_property_add_bool(klass, "share-ram", tt_vfu_get_share_ram,
                                   tt_vfu_set_share_ram);
    object_class_property_set_description(klass, "share-ram",
        "offer L1 and GDDR as shared memory to clients that map them "
        "(regions 10 and 11; default on)");
}

static const TypeInfo tt_vfu_types[] = {
    {
        .name = TYPE_TT_VFIO_USER,
        .parent = TYPE_OBJECT,
        .instance_size = sizeof(TTVfioUser),
        .instance_init = tt_vfu_init,
        .instance_finalize = tt_vfu_finalize,
        .class_init = tt_vfu_class_init,
        .interfaces = (const InterfaceInfo[]) {
            { TYPE_USER_CREATABLE },
            { }
        },
    },
};

DEFINE_TYPES(tt_vfu_types)
