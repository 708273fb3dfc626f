/*
 * Tenstorrent Blackhole fuzz target: the vfio-user server
 *
 *   tt-vfu-fuzz     one vfio-user client session per input, on the socket
 *                   of the machine's tt-vfio-user object
 *                   (hw/tenstorrent/vfio-user.c over the bundled
 *                   libvfio-user)
 *
 * The machine runs with -object tt-vfio-user on a socket of its own; the
 * target connects to it like any client and sends what the input says,
 * through the same socket, the same server thread and the same message
 * parsing and dispatch a real client meets:
 *
 *  - VERSION negotiation (capabilities JSON built from the input, or raw
 *    bytes), then requests built from the input: REGION_READ/WRITE of
 *    BAR0/2/4 (TLB windows and configuration, NOC2AXI, ARC, iATU, eDMA),
 *    configuration space, the host DMA mailbox (region 8), the host map's
 *    RAM (region 10) and its command batches (region 11); DMA_MAP and
 *    DMA_UNMAP of host memory the target owns; the device queries, SET_IRQS,
 *    DEVICE_RESET, DIRTY_PAGES;
 *  - eDMA transfers from that host memory, so that the device reaches it
 *    through the server (directly, or through the mailbox the target then
 *    serves);
 *  - bad input: headers whose size lies (truncated messages, oversized
 *    ones), unknown commands and flags, replies sent as requests, messages
 *    with descriptors that are not what they claim (/dev/null, a
 *    directory, a pipe, an eventfd, a sealed or shrunk memfd, the client's
 *    own socket), host memory shrunk under the server's mapping, clients
 *    that die mid-message and the next client.
 *
 * Every reply is read (and any descriptors in it closed) before the next
 * request goes out, so an input is one deterministic conversation; the
 * socket closes at the end of each input and the machine is reset.  The
 * target itself holds no BQL while it talks: the server thread takes it
 * for BAR accesses.
 *
 * Message layout: QEMU's hw/vfio-user/protocol.h and docs/interop/
 * vfio-user.rst; the mailbox and host-map regions: hw/tenstorrent/
 * vfio-user.c and include/hw/tenstorrent/host-map-abi.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/eventfd.h>
#include "qemu/cutils.h"
#include "qemu/main-loop.h"
#include "qemu/memfd.h"
#include "qemu/units.h"
#include "hw/tenstorrent/dma-mailbox-abi.h"
#include "hw/tenstorrent/dram.h"
#include "hw/tenstorrent/host-map-abi.h"
#include "hw/tenstorrent/pcie.h"
#include "hw/vfio-user/protocol.h"
#include "tests/qtest/libqtest.h"
#include "fuzz.h"
#include "tt-fuzz.h"

/* A P150 with only Tensix column 1, as the other Blackhole targets */
#define TT_VFU_MACHINE  "-accel qtest -M blackhole,harvested-tensix-cols=" \
                        "2:3:4:5:6:7:10:11:12:13:14:15:16,prealloc-l1=off"
#define TT_VFU_TILES    10

/*
 * The chip's RAM file, which region 10 offers (blackhole.h, built for the
 * target only): tile i's 1.5 MiB L1 at i * 2 MiB, the GDDR banks from
 * 512 MiB
 */
#define TT_VFU_L1_SIZE      0x180000u
#define TT_VFU_TILE_STRIDE  (2 * MiB)
#define TT_VFU_DRAM_BASE    (512 * MiB)

/* libvfio-user's region indices (vfio's VFIO_PCI_*_REGION_INDEX) */
#define TT_VFU_CFG_REGION   7

/* DesignWare eDMA read channel 0 in BAR2 (as hw/tenstorrent/pcie.c) */
#define TT_VFU_EDMA_DOORBELL 0x104u
#define TT_VFU_EDMA_SIZE     0x11cu
#define TT_VFU_EDMA_SAR_LO   0x120u

/* Host memory the client offers, at this IOVA unless the input says */
#define TT_VFU_HOST_IOVA    0x10000000ull
#define TT_VFU_HOST_SIZE    (1 * MiB)

/*
 * A reply that takes longer ends the session: the conversation is out of
 * step (a lying header makes the server read payload as the next header
 * and wait for bytes that never come), which is the client's loss only.
 * A server that neither answers nor refuses a new client's VERSION within
 * TT_VFU_STUCK_MS is stuck, whatever the last client did: a finding,
 * reported before run-fuzz.sh's -timeout=20 with the input.  Sends wait
 * as long (a server that does not read).
 */
#define TT_VFU_REPLY_MS     5000
#define TT_VFU_STUCK_MS     15000
#define TT_VFU_MAX_FDS      8
#define TT_VFU_FD_CHECK_EVERY 256
#define TT_VFU_FD_MARGIN    64
#define TT_VFU_MAX_DATA     (64 * KiB)

typedef struct TTVfuFuzz {
    const uint8_t *p;
    size_t left;
    int sock;                   /* the client's end; -1 once gone */
    bool timed_out;             /* the last read gave up waiting */
    uint16_t id;
    int mem_fd;                 /* host memory; -1 until first used */
    uint8_t *mem;
    uint64_t mem_size;
    int fds[TT_VFU_MAX_FDS];    /* to send with the next message */
    bool fd_own[TT_VFU_MAX_FDS];    /* closed once sent */
    int nfds;
} TTVfuFuzz;

static char *tt_vfu_dir, *tt_vfu_path;
/* Descriptors of this process (QEMU and the target) before the first input */
static int tt_vfu_fds_at_start;
static unsigned tt_vfu_inputs;
/* Descriptors a bad client may send; opened once */
static int tt_vfu_devnull = -1, tt_vfu_dirfd = -1, tt_vfu_pipe[2] = {-1, -1};
static int tt_vfu_evfd = -1, tt_vfu_sealed = -1;

static uint8_t in8(TTVfuFuzz *f)
{
    if (!f->left) {
        return 0;
    }
    f->left--;
    return *f->p++;
}

static uint16_t in16(TTVfuFuzz *f)
{
    return in8(f) | in8(f) << 8;
}

static uint32_t in32(TTVfuFuzz *f)
{
    return in16(f) | (uint32_t)in16(f) << 16;
}

static uint64_t in64(TTVfuFuzz *f)
{
    return in32(f) | (uint64_t)in32(f) << 32;
}

/* @len bytes: what the input still has, then a pattern */
static void in_bytes(TTVfuFuzz *f, uint8_t *buf, size_t len)
{
    size_t n = MIN(len, f->left);

    if (n) {
        memcpy(buf, f->p, n);
        f->p += n;
        f->left -= n;
    }
    for (size_t i = n; i < len; i++) {
        buf[i] = i * 0x9d;
    }
}

/* ------------------------------------------------------- the socket -- */

/* A finding: abort, so that libFuzzer keeps the input */
static void G_GNUC_PRINTF(1, 2) G_NORETURN tt_vfu_fail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fprintf(stderr, "tt-vfu-fuzz: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

static void tt_vfu_drop_fds(TTVfuFuzz *f)
{
    for (int i = 0; i < f->nfds; i++) {
        if (f->fd_own[i]) {
            close(f->fds[i]);
        }
    }
    f->nfds = 0;
}

static void tt_vfu_hangup(TTVfuFuzz *f)
{
    if (f->sock >= 0) {
        close(f->sock);
        f->sock = -1;
    }
}

/*
 * One message: @hdr_size is what the header claims, @len what is sent;
 * any descriptors queued go with it
 */
static bool tt_vfu_send(TTVfuFuzz *f, uint16_t cmd, uint32_t flags,
                        const void *payload, size_t len, uint32_t hdr_size)
{
    VFIOUserHdr hdr = {
        .id = ++f->id, .command = cmd, .size = hdr_size, .flags = flags,
    };
    struct iovec iov[2] = {
        { &hdr, sizeof(hdr) }, { (void *)payload, len },
    };
    union {
        char buf[CMSG_SPACE(sizeof(int) * TT_VFU_MAX_FDS)];
        struct cmsghdr align;
    } c;
    struct msghdr m = { .msg_iov = iov, .msg_iovlen = len ? 2 : 1 };
    ssize_t n;

    if (f->nfds) {
        struct cmsghdr *cm;

        memset(&c, 0, sizeof(c));
        m.msg_control = c.buf;
        m.msg_controllen = CMSG_SPACE(sizeof(int) * f->nfds);
        cm = CMSG_FIRSTHDR(&m);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int) * f->nfds);
        memcpy(CMSG_DATA(cm), f->fds, sizeof(int) * f->nfds);
    }
    do {
        n = sendmsg(f->sock, &m, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);     /* libFuzzer's SIGALRM */
    tt_vfu_drop_fds(f);
    if (n != sizeof(hdr) + len) {
        tt_vfu_hangup(f);       /* the server is gone, or stalls */
        return false;
    }
    return true;
}

/* Read exactly @len bytes or give up (the socket has a receive timeout) */
static bool tt_vfu_read(TTVfuFuzz *f, void *buf, size_t len)
{
    union {
        char buf[CMSG_SPACE(sizeof(int) * 64)];
        struct cmsghdr align;
    } c;
    size_t done = 0;

    while (done < len) {
        struct iovec iov = { (uint8_t *)buf + done, len - done };
        struct msghdr m = {
            .msg_iov = &iov, .msg_iovlen = 1,
            .msg_control = c.buf, .msg_controllen = sizeof(c.buf),
        };
        ssize_t n = recvmsg(f->sock, &m, MSG_CMSG_CLOEXEC);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            f->timed_out = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
            return false;
        }
        /* descriptors the server sends (region files): not kept */
        for (struct cmsghdr *cm = CMSG_FIRSTHDR(&m); cm;
             cm = CMSG_NXTHDR(&m, cm)) {
            if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
                int *fd = (int *)CMSG_DATA(cm);
                size_t nfd = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);

                for (size_t i = 0; i < nfd; i++) {
                    close(fd[i]);
                }
            }
        }
        done += n;
    }
    return true;
}

/*
 * The reply to the last request: its error number (0 for success), or -1
 * when the server hung up.  Up to @max bytes of its payload go to @buf.
 */
static int tt_vfu_reply(TTVfuFuzz *f, void *buf, size_t max)
{
    VFIOUserHdr hdr;
    uint8_t sink[4096];
    size_t body, n;

    if (f->sock < 0) {
        return -1;
    }
    if (!tt_vfu_read(f, &hdr, sizeof(hdr)) || hdr.size < sizeof(hdr)) {
        tt_vfu_hangup(f);
        return -1;
    }
    for (body = hdr.size - sizeof(hdr); body; body -= n) {
        bool to_buf = max > 0;

        n = MIN(body, to_buf ? max : sizeof(sink));
        if (!tt_vfu_read(f, to_buf ? buf : sink, n)) {
            tt_vfu_hangup(f);
            return -1;
        }
        if (to_buf) {
            buf = (uint8_t *)buf + n;
            max -= n;
        }
    }
    if (!(hdr.flags & VFIO_USER_REPLY)) {
        /* the server sends no requests: a protocol error on its side */
        tt_vfu_fail("message %u (command %u) from the server is not a "
                    "reply", hdr.id, hdr.command);
    }
    return hdr.flags & VFIO_USER_ERROR ? MAX(hdr.error_reply, 1) : 0;
}

/* A well-formed request and its reply */
static int tt_vfu_req(TTVfuFuzz *f, uint16_t cmd, const void *payload,
                      size_t len, void *reply, size_t max)
{
    if (f->sock < 0 ||
        !tt_vfu_send(f, cmd, VFIO_USER_REQUEST, payload, len,
                     sizeof(VFIOUserHdr) + len)) {
        return -1;
    }
    return tt_vfu_reply(f, reply, max);
}

/* VERSION, as the input has it: a session starts with it */
static bool tt_vfu_version(TTVfuFuzz *f)
{
    static const uint64_t xfer[] = {
        1 * MiB, 0, 4, 64 * MiB, UINT64_MAX,
    };
    uint8_t sel = in8(f);
    g_autofree char *json = NULL;
    g_autofree uint8_t *msg = NULL;
    size_t jlen;
    uint8_t reply[256];

    if (sel & 0x80) {
        /* raw capabilities, NUL-terminated or not */
        jlen = in8(f) % 96;
        json = g_malloc0(jlen + 1);
        in_bytes(f, (uint8_t *)json, jlen);
        jlen += !(sel & 0x40);
    } else {
        json = g_strdup_printf("{\"capabilities\":{\"max_msg_fds\":%d,"
                               "\"max_data_xfer_size\":%" PRIu64 "%s}}",
                               sel & 4 ? (int8_t)in8(f) : 64,
                               sel & 8 ? xfer[in8(f) % ARRAY_SIZE(xfer)]
                                       : 1 * MiB,
                               sel & 16 ? ",\"pgsizes\":4096" : "");
        jlen = strlen(json) + 1;
    }
    msg = g_malloc0(4 + jlen);
    stw_le_p(msg, sel & 1 ? in16(f) : 0);           /* major */
    stw_le_p(msg + 2, sel & 2 ? in16(f) : 0);       /* minor */
    memcpy(msg + 4, json, jlen);
    return tt_vfu_req(f, VFIO_USER_VERSION, msg, 4 + jlen, reply,
                      sizeof(reply)) == 0;
}

static void tt_vfu_timeout(TTVfuFuzz *f, int opt, unsigned ms)
{
    struct timeval tv = { ms / 1000, ms % 1000 * 1000 };

    setsockopt(f->sock, SOL_SOCKET, opt, &tv, sizeof(tv));
}

static bool tt_vfu_connect(TTVfuFuzz *f)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    bool ok;

    f->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    g_assert(f->sock >= 0);
    pstrcpy(sa.sun_path, sizeof(sa.sun_path), tt_vfu_path);
    tt_vfu_timeout(f, SO_RCVTIMEO, TT_VFU_STUCK_MS);
    tt_vfu_timeout(f, SO_SNDTIMEO, TT_VFU_STUCK_MS);
    while (connect(f->sock, (struct sockaddr *)&sa, sizeof(sa)) &&
           errno != EISCONN) {
        if (errno != EINTR) {
            tt_vfu_fail("connect %s: %s", tt_vfu_path, strerror(errno));
        }
    }
    f->timed_out = false;
    ok = tt_vfu_version(f);
    if (f->timed_out) {
        tt_vfu_fail("the server neither answered nor refused a new "
                    "client's VERSION within %u s: it is stuck",
                    TT_VFU_STUCK_MS / 1000);
    }
    if (ok) {
        tt_vfu_timeout(f, SO_RCVTIMEO, TT_VFU_REPLY_MS);
    }
    return ok;
}

/* -------------------------------------------------------- host memory -- */

static bool tt_vfu_mem(TTVfuFuzz *f)
{
    if (f->mem_fd < 0) {
        f->mem = qemu_memfd_alloc("tt-vfu-fuzz-host", TT_VFU_HOST_SIZE, 0,
                                  &f->mem_fd, NULL);
        if (!f->mem) {
            f->mem_fd = -1;
            return false;
        }
        f->mem_size = TT_VFU_HOST_SIZE;
    }
    return true;
}

static void tt_vfu_mem_free(TTVfuFuzz *f)
{
    if (f->mem_fd >= 0) {
        munmap(f->mem, TT_VFU_HOST_SIZE);
        close(f->mem_fd);
        f->mem_fd = -1;
    }
}

/* Queue a descriptor of the kind @sel for the next message */
static void tt_vfu_queue_fd(TTVfuFuzz *f, uint8_t sel)
{
    int fd = -1;
    bool own = false;

    if (f->nfds == TT_VFU_MAX_FDS) {
        return;
    }
    switch (sel % 9) {
    case 0:
    case 1:
        if (tt_vfu_mem(f)) {
            fd = f->mem_fd;
        }
        break;
    case 2:             /* a file much shorter than any region */
        fd = qemu_memfd_create("tt-vfu-fuzz-short", 4096, false, 0, 0,
                               NULL);
        own = true;
        break;
    case 3:
        fd = tt_vfu_devnull;
        break;
    case 4:
        fd = tt_vfu_dirfd;
        break;
    case 5:
        fd = tt_vfu_pipe[sel & 0x80 ? 1 : 0];
        break;
    case 6:
        fd = tt_vfu_evfd;
        break;
    case 7:             /* sealed against writes: no shared writable map */
        fd = tt_vfu_sealed;
        break;
    case 8:
        fd = f->sock;
        break;
    }
    if (fd >= 0) {
        f->fds[f->nfds] = fd;
        f->fd_own[f->nfds++] = own;
    }
}

/* -------------------------------------------------- region accesses -- */

/* An offset in region @region, biased towards what is behind it */
static uint64_t tt_vfu_offset(TTVfuFuzz *f, uint32_t region)
{
    uint8_t sel = in8(f);
    uint64_t v = in64(f);

    if (sel & 0x80) {
        return v;                       /* anywhere, also past the end */
    }
    switch (region) {
    case 0:
        switch (sel % 5) {
        case 0:
            return TT_TLB_CFG_BASE + v % TT_TLB_CFG_SIZE;
        case 1:
            return v % (16u << TT_TLB_2M_SHIFT);
        case 2:
            return TT_NOC2AXI_BASE + v % 0x40000;
        case 3:
            return TT_PCIE_ARC_APB_BASE + v % 0x100000;
        default:
            return v % TT_PCIE_BAR0_SIZE;
        }
    case 2:
        return sel & 1 ? v % 0x3000 : v % TT_PCIE_BAR2_SIZE;
    case 4:
        return sel & 1 ? (v & 7) << TT_TLB_4G_SHIFT | (v >> 32) % 0x2000
                       : v % TT_PCIE_BAR4_SIZE;
    case TT_VFU_CFG_REGION:
        return v % 0x1000;
    case TT_MBOX_REGION_INDEX:
        return sel & 1 ? v % 0x20 : TT_MBOX_DATA + v % (64 * KiB);
    case TT_HM_RAM_REGION:
        if (sel & 1) {
            return (uint64_t)(sel >> 1) % TT_VFU_TILES *
                   TT_VFU_TILE_STRIDE + v % TT_VFU_L1_SIZE;
        }
        return TT_VFU_DRAM_BASE + (sel >> 1) % TT_DRAM_BANKS *
               TT_DRAM_BANK_SIZE + v % (64 * KiB);
    case TT_HM_CTRL_REGION:
        return sel & 1 ? TT_HM_CMD : TT_HM_SHARED + v % (1 * MiB);
    default:
        return v % 0x10000;
    }
}

static uint32_t tt_vfu_region(TTVfuFuzz *f)
{
    static const uint8_t regions[] = {
        0, 0, 0, 2, 2, 4, TT_VFU_CFG_REGION, TT_MBOX_REGION_INDEX,
        TT_HM_RAM_REGION, TT_HM_CTRL_REGION,
    };
    uint8_t sel = in8(f);

    return sel & 0x80 ? sel & 0x7f : regions[sel % ARRAY_SIZE(regions)];
}

static uint32_t tt_vfu_count(TTVfuFuzz *f)
{
    static const uint32_t counts[] = { 4, 4, 4, 1, 2, 8 };
    uint8_t sel = in8(f);

    switch (sel >> 6) {
    case 0:
    case 1:
        return counts[sel % ARRAY_SIZE(counts)];
    case 2:
        return sel % 65;
    default:
        return in16(f) % TT_VFU_MAX_DATA + 1;
    }
}

/* REGION_READ or REGION_WRITE; returns the reply's error (or -1) */
static int tt_vfu_access(TTVfuFuzz *f, uint32_t region, uint64_t off,
                         uint32_t count, bool write, const void *data,
                         void *out)
{
    g_autofree uint8_t *msg = g_malloc(16 + (write ? count : 0));

    stq_le_p(msg, off);
    stl_le_p(msg + 8, region);
    stl_le_p(msg + 12, count);
    if (write && count) {
        memcpy(msg + 16, data, count);
    }
    return write ? tt_vfu_req(f, VFIO_USER_REGION_WRITE, msg, 16 + count,
                              NULL, 0)
                 : tt_vfu_req(f, VFIO_USER_REGION_READ, msg, 16, out,
                              out ? 16 + count : 0);
}

static void tt_vfu_writel(TTVfuFuzz *f, uint32_t region, uint64_t off,
                          uint32_t v)
{
    uint8_t b[4];

    stl_le_p(b, v);
    tt_vfu_access(f, region, off, 4, true, b, NULL);
}

static uint32_t tt_vfu_readl(TTVfuFuzz *f, uint32_t region, uint64_t off)
{
    uint8_t b[20] = { 0 };

    if (tt_vfu_access(f, region, off, 4, false, NULL, b)) {
        return 0;
    }
    return ldl_le_p(b + 16);
}

/* A command batch for the host map (region 11) */
static void tt_vfu_hm_cmd(TTVfuFuzz *f)
{
    uint8_t sel = in8(f);
    unsigned ntlb = in8(f) % 8, nranges = in8(f) % 4;
    size_t len = sizeof(TTHmCmd) + ntlb * sizeof(TTHmTlbWrite) +
                 nranges * sizeof(TTHmRange);
    g_autofree uint8_t *b = g_malloc0(len + 16);
    uint8_t *p = b + sizeof(TTHmCmd);

    stl_le_p(b, sel & 1 ? in32(f) : TT_HM_CMD_MAGIC);
    stw_le_p(b + 4, sel & 2 ? in16(f) : ntlb);
    stw_le_p(b + 6, sel & 4 ? in16(f) : nranges);
    for (int i = 0; i < TT_HM_TILE_WORDS; i++) {
        stq_le_p(b + 8 + i * 8, sel & 8 ? in64(f) : 0);
    }
    for (unsigned i = 0; i < ntlb; i++, p += sizeof(TTHmTlbWrite)) {
        uint32_t off = in32(f);

        stl_le_p(p, sel & 16 ? off : TT_TLB_CFG_BASE +
                 off % TT_TLB_CFG_SIZE);
        stl_le_p(p + 4, in32(f));
    }
    for (unsigned i = 0; i < nranges; i++, p += sizeof(TTHmRange)) {
        stl_le_p(p, sel & 32 ? in32(f) : in8(f) % (TT_VFU_TILES + 8));
        stl_le_p(p + 4, sel & 64 ? in32(f) : in16(f));
        stq_le_p(p + 8, sel & 64 ? in64(f) : in32(f) % TT_VFU_L1_SIZE);
    }
    if (sel & 0x80) {
        len += in8(f) % 16 - 8;     /* a batch with a wrong length */
    }
    tt_vfu_access(f, TT_HM_CTRL_REGION, TT_HM_CMD, len, true, b, NULL);
}

/* ----------------------------------------------------------- DMA map -- */

static uint64_t tt_vfu_iova(TTVfuFuzz *f, uint8_t sel)
{
    switch (sel % 6) {
    case 0:
    case 1:
        return TT_VFU_HOST_IOVA;
    case 2:
        return TT_VFU_HOST_IOVA + (in8(f) << 12);
    case 3:
        return 0;
    case 4:
        return in64(f) & ~0xfffull;
    default:
        return in64(f);
    }
}

static uint64_t tt_vfu_size(TTVfuFuzz *f, uint8_t sel)
{
    switch (sel % 5) {
    case 0:
    case 1:
        return TT_VFU_HOST_SIZE;
    case 2:
        return 4096;
    case 3:
        return (uint64_t)in16(f) << 12;
    default:
        return in64(f);
    }
}

static void tt_vfu_dma_map(TTVfuFuzz *f)
{
    uint8_t sel = in8(f);
    uint8_t b[32];

    stl_le_p(b, sel & 0x80 ? in32(f) : sizeof(b));
    stl_le_p(b + 4, sel & 0x40 ? in32(f) : 3);    /* read and write */
    stq_le_p(b + 8, sel & 0x20 ? in64(f) : 0);    /* offset in the file */
    stq_le_p(b + 16, tt_vfu_iova(f, in8(f)));
    stq_le_p(b + 24, tt_vfu_size(f, in8(f)));
    if (!(sel & 1) && !f->nfds) {
        /* mostly host memory the server can map; else a message-only map */
        tt_vfu_queue_fd(f, 0);
    }
    tt_vfu_req(f, VFIO_USER_DMA_MAP, b, sizeof(b), NULL, 0);
}

static void tt_vfu_dma_unmap(TTVfuFuzz *f)
{
    uint8_t sel = in8(f);
    uint8_t b[24 + 16] = { 0 };
    size_t len = 24;

    stl_le_p(b + 4, sel & 0x40 ? in32(f) : sel & 1 ? 2 : 0);    /* ALL */
    stq_le_p(b + 8, tt_vfu_iova(f, in8(f)));
    stq_le_p(b + 16, tt_vfu_size(f, in8(f)));
    if (sel & 0x20) {           /* a dirty bitmap nobody asked for */
        stq_le_p(b + 24, 4096);
        stq_le_p(b + 32, in16(f));
        len += 16;
    }
    stl_le_p(b, sel & 0x80 ? in32(f) : len);
    tt_vfu_req(f, VFIO_USER_DMA_UNMAP, b, len, NULL, 0);
}

/* -------------------------------------------------------------- eDMA -- */

/*
 * An eDMA transfer from host memory to BAR0, waited for; host memory
 * the server has no mapping of goes through the mailbox, which the
 * client serves when the input says
 */
static void tt_vfu_edma(TTVfuFuzz *f)
{
    uint8_t sel = in8(f);
    uint64_t sar = sel & 1 ? in64(f) : TT_VFU_HOST_IOVA +
                                       in32(f) % TT_VFU_HOST_SIZE;
    uint32_t dar = sel & 2 ? in32(f) : in32(f) % TT_PCIE_BAR0_SIZE & ~3u;
    uint32_t size = sel & 4 ? in32(f) : (in16(f) & ~3u) + 4;
    bool serve = sel & 8;
    /* the controller refuses (and leaves SIZE) what does not fit BAR0 */
    bool starts = size && !((size | dar) & 3) &&
                  (uint64_t)dar + size <= TT_PCIE_BAR0_SIZE;

    tt_vfu_writel(f, 2, TT_VFU_EDMA_SAR_LO, sar);
    tt_vfu_writel(f, 2, TT_VFU_EDMA_SAR_LO + 4, sar >> 32);
    tt_vfu_writel(f, 2, TT_VFU_EDMA_SAR_LO + 8, dar);
    tt_vfu_writel(f, 2, TT_VFU_EDMA_SAR_LO + 12, 0);
    tt_vfu_writel(f, 2, TT_VFU_EDMA_SIZE, size);
    if (serve) {
        tt_vfu_writel(f, TT_MBOX_REGION_INDEX, TT_MBOX_CTRL, TT_MBOX_CTRL_ON);
    }
    tt_vfu_writel(f, 2, TT_VFU_EDMA_DOORBELL, 1);
    for (int i = 0; starts && i < 100 && f->sock >= 0; i++) {
        if (!tt_vfu_readl(f, 2, TT_VFU_EDMA_SIZE)) {
            break;
        }
        if (serve && tt_vfu_readl(f, TT_MBOX_REGION_INDEX, TT_MBOX_STATUS)) {
            uint8_t data[64];

            in_bytes(f, data, sizeof(data));
            tt_vfu_access(f, TT_MBOX_REGION_INDEX, TT_MBOX_DATA,
                          sizeof(data), true, data, NULL);
            tt_vfu_writel(f, TT_MBOX_REGION_INDEX, TT_MBOX_DONE, 1);
            continue;
        }
        g_usleep(200);
    }
}

/* ---------------------------------------------- the other requests -- */

static void tt_vfu_query(TTVfuFuzz *f)
{
    uint8_t sel = in8(f);
    uint8_t b[32] = { 0 }, reply[512];
    uint16_t cmd;
    size_t len;

    switch (sel % 7) {
    case 0:
        cmd = VFIO_USER_DEVICE_GET_INFO;
        stl_le_p(b, sel & 0x80 ? in32(f) : 16);
        len = 16;
        break;
    case 1:         /* with room for the sparse-mmap capability, or not */
        cmd = VFIO_USER_DEVICE_GET_REGION_INFO;
        stl_le_p(b, sel & 0x80 ? in16(f) : 32 + (sel & 8) * 64);
        stl_le_p(b + 8, tt_vfu_region(f));
        len = 32;
        break;
    case 2:
        cmd = VFIO_USER_DEVICE_GET_IRQ_INFO;
        stl_le_p(b, sel & 0x80 ? in32(f) : 16);
        stl_le_p(b + 8, in8(f) % 8);
        len = 16;
        break;
    case 3:
        cmd = VFIO_USER_DEVICE_GET_REGION_IO_FDS;
        stl_le_p(b, sel & 0x80 ? in32(f) : 16 + (sel & 8) * 32);
        stl_le_p(b + 8, tt_vfu_region(f));
        stl_le_p(b + 12, in8(f));
        len = 16;
        break;
    case 4:         /* data none/bool/eventfd; mask, unmask or trigger */
        cmd = VFIO_USER_DEVICE_SET_IRQS;
        stl_le_p(b + 4, sel & 0x40 ? in32(f) : 1u << (in8(f) % 3) |
                 8u << (in8(f) % 3));
        stl_le_p(b + 8, in8(f) % 8);
        stl_le_p(b + 12, in8(f) % 4);
        stl_le_p(b + 16, in8(f) % 4);
        len = 20 + (sel & 8 ? 4 : 0);
        stl_le_p(b, sel & 0x80 ? in32(f) : len);
        if (sel & 0x20) {
            tt_vfu_queue_fd(f, 6);      /* an eventfd to signal */
        }
        break;
    case 5:
        cmd = VFIO_USER_DEVICE_RESET;
        len = 0;
        break;
    default:        /* dirty tracking: start, stop or get */
        cmd = VFIO_USER_DIRTY_PAGES;
        stl_le_p(b, sel & 0x80 ? in32(f) : 8);
        stl_le_p(b + 4, 1u << (in8(f) % 3));
        len = 8 + (sel & 8 ? 24 : 0);
        stq_le_p(b + 8, TT_VFU_HOST_IOVA);
        stq_le_p(b + 16, TT_VFU_HOST_SIZE);
        break;
    }
    tt_vfu_req(f, cmd, b, len, reply, sizeof(reply));
}

/*
 * A header and payload from the input, its size field possibly a lie, its
 * flags anything (a reply where a request belongs, no-reply).  A message
 * whose length does not match its header ends the session: the server
 * either waits for bytes that never come or reads the rest as the next
 * header.
 */
static void tt_vfu_raw(TTVfuFuzz *f)
{
    uint8_t sel = in8(f);
    uint16_t cmd = sel & 0x80 ? in16(f) : in8(f) % (VFIO_USER_MAX + 2);
    uint32_t flags = sel & 0x40 ? in32(f) : sel & 0x20 ? VFIO_USER_NO_REPLY
                                                         : VFIO_USER_REQUEST;
    size_t len = in8(f) % 80;
    uint32_t hdr_size = sizeof(VFIOUserHdr) + len;
    uint8_t payload[80], reply[64];
    bool honest = true;

    in_bytes(f, payload, len);
    /* a header libvfio-user refuses: it does not read the payload */
    if ((flags & VFIO_USER_TYPE) != VFIO_USER_REQUEST && len) {
        honest = false;
    }
    switch (sel & 0x18) {
    case 0x08:                  /* claims more than comes: truncated */
        hdr_size += 1 + in16(f);
        honest = false;
        break;
    case 0x10:                  /* anything: too short, oversized */
        hdr_size = in32(f);
        honest &= hdr_size == sizeof(VFIOUserHdr) + len;
        break;
    }
    if (!tt_vfu_send(f, cmd, flags, payload, len, hdr_size)) {
        return;
    }
    if (!honest) {
        tt_vfu_hangup(f);
        return;
    }
    if (!(flags & VFIO_USER_NO_REPLY)) {
        tt_vfu_reply(f, reply, sizeof(reply));
    }
}

/*
 * The client dies: in the middle of a message or between two; then the
 * next one connects, and finds the chip as the last one left it
 */
static void tt_vfu_die(TTVfuFuzz *f)
{
    uint8_t sel = in8(f);

    if (sel & 1 && f->sock >= 0) {
        VFIOUserHdr hdr = {
            .id = ++f->id, .command = VFIO_USER_REGION_WRITE,
            .size = sizeof(hdr) + 16 + 4 + (sel >> 1),
        };
        uint8_t b[sizeof(hdr) + 8];
        size_t n = sizeof(hdr) + (sel >> 1) % 9;

        memcpy(b, &hdr, sizeof(hdr));
        stq_le_p(b + sizeof(hdr), TT_TLB_CFG_BASE);
        if (send(f->sock, b, n, MSG_NOSIGNAL) < 0) {
            /* already gone */
        }
    }
    tt_vfu_hangup(f);
    tt_vfu_connect(f);
}

/* ------------------------------------------------------------------- */

enum {
    VFU_OP_REGION_WRITE,
    VFU_OP_REGION_READ,
    VFU_OP_HM_CMD,
    VFU_OP_DMA_MAP,
    VFU_OP_DMA_UNMAP,
    VFU_OP_HOST_MEM,        /* host memory contents */
    VFU_OP_EDMA,
    VFU_OP_QUERY,
    VFU_OP_FDS,             /* descriptors for the next message */
    VFU_OP_RAW,
    VFU_OP_SHRINK,          /* the host memory file, under the server */
    VFU_OP_DIE,
    VFU_OP_COUNT,
};

static void tt_vfu_op(TTVfuFuzz *f)
{
    uint8_t op = in8(f) % VFU_OP_COUNT;
    uint32_t region, count;
    uint64_t off;

    switch (op) {
    case VFU_OP_REGION_WRITE: {
        g_autofree uint8_t *data = NULL;

        region = tt_vfu_region(f);
        off = tt_vfu_offset(f, region);
        count = tt_vfu_count(f);
        data = g_malloc(count);
        in_bytes(f, data, count);
        tt_vfu_access(f, region, off, count, true, data, NULL);
        break;
    }
    case VFU_OP_REGION_READ: {
        g_autofree uint8_t *out = NULL;

        region = tt_vfu_region(f);
        off = tt_vfu_offset(f, region);
        count = tt_vfu_count(f);
        out = g_malloc(16 + count);
        tt_vfu_access(f, region, off, count, false, NULL, out);
        break;
    }
    case VFU_OP_HM_CMD:
        tt_vfu_hm_cmd(f);
        break;
    case VFU_OP_DMA_MAP:
        tt_vfu_dma_map(f);
        break;
    case VFU_OP_DMA_UNMAP:
        tt_vfu_dma_unmap(f);
        break;
    case VFU_OP_HOST_MEM:
        if (tt_vfu_mem(f) && f->mem_size) {
            off = in32(f) % f->mem_size;
            in_bytes(f, f->mem + off, MIN(in8(f) % 65, f->mem_size - off));
        }
        break;
    case VFU_OP_EDMA:
        tt_vfu_edma(f);
        break;
    case VFU_OP_QUERY:
        tt_vfu_query(f);
        break;
    case VFU_OP_FDS:
        for (int n = 1 + in8(f) % 4; n; n--) {
            tt_vfu_queue_fd(f, in8(f));
        }
        break;
    case VFU_OP_RAW:
        tt_vfu_raw(f);
        break;
    case VFU_OP_SHRINK:
        /*
         * The file behind a mapped region shrinks: the server's copies
         * must fail, not fault (our own mapping is not touched again)
         */
        if (f->mem_fd >= 0) {
            uint64_t n = in16(f) & ~0xfffu;

            if (!ftruncate(f->mem_fd, n)) {
                f->mem_size = n;
            }
        }
        break;
    case VFU_OP_DIE:
        tt_vfu_die(f);
        break;
    }
}

static int tt_vfu_count_fds(void)
{
    g_autoptr(GDir) d = g_dir_open("/proc/self/fd", 0, NULL);
    int n = 0;

    while (d && g_dir_read_name(d)) {
        n++;
    }
    return n;
}

/*
 * A descriptor the server (or libvfio-user) keeps per client or per
 * request runs QEMU out of them after enough inputs; report the growth
 * as a finding long before that.  A session's own descriptors may still
 * be closing when this runs: hence the margin.
 */
static void tt_vfu_check_fds(void)
{
    int n;

    if (++tt_vfu_inputs % TT_VFU_FD_CHECK_EVERY) {
        return;
    }
    n = tt_vfu_count_fds();
    if (n > tt_vfu_fds_at_start + TT_VFU_FD_MARGIN) {
        tt_vfu_fail("%d descriptors open after %u inputs, %d before the "
                    "first: a descriptor leak", n, tt_vfu_inputs,
                    tt_vfu_fds_at_start);
    }
}

static void tt_vfu_fuzz(QTestState *s, const unsigned char *data,
                        size_t size)
{
    TTVfuFuzz f = { .p = data, .left = size, .sock = -1, .mem_fd = -1 };

    /* the server thread takes the BQL for device accesses */
    bql_unlock();
    if (tt_vfu_connect(&f)) {
        while (f.left && f.sock >= 0) {
            tt_vfu_op(&f);
        }
    }
    tt_vfu_drop_fds(&f);
    tt_vfu_hangup(&f);
    tt_vfu_mem_free(&f);
    bql_lock();
    flush_events(s);
    fuzz_reset(s);
    tt_vfu_check_fds();
}

static void tt_vfu_cleanup(void)
{
    unlink(tt_vfu_path);
    rmdir(tt_vfu_dir);
}

static GString *tt_vfu_cmdline(FuzzTarget *t)
{
    g_autoptr(GError) err = NULL;

    /* under $TMPDIR (g_get_tmp_dir), short enough for a socket's path */
    tt_vfu_dir = g_dir_make_tmp("tt-vfu-fuzz-XXXXXX", &err);
    if (!tt_vfu_dir) {
        g_error("tt-vfu-fuzz: %s", err->message);
    }
    tt_vfu_path = g_strdup_printf("%s/s", tt_vfu_dir);
    if (strlen(tt_vfu_path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
        g_error("tt-vfu-fuzz: socket path %s is too long; set TMPDIR to a "
                "shorter directory", tt_vfu_path);
    }
    atexit(tt_vfu_cleanup);
    /* poll-us=0: the server sleeps between requests, leaving us the CPU */
    return g_string_append(g_string_new(TARGET_NAME " " TT_VFU_MACHINE
                                        " -display none -object tt-vfio-user,"
                                        "id=vfu,poll-us=0,socket="),
                           tt_vfu_path);
}

static void tt_vfu_pre_fuzz(QTestState *s)
{
    int fd;

    /* this thread waits for the server (or the BQL) outside the main loop */
    tt_fuzz_take_sigalrm();

    tt_vfu_devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    tt_vfu_dirfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    g_assert(g_unix_open_pipe(tt_vfu_pipe, FD_CLOEXEC, NULL));
    tt_vfu_evfd = eventfd(0, EFD_CLOEXEC);
    fd = qemu_memfd_create("tt-vfu-fuzz-sealed", 64 * KiB, false, 0,
                           F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW |
                           F_SEAL_SEAL, NULL);
    tt_vfu_sealed = fd;
    tt_vfu_fds_at_start = tt_vfu_count_fds();
}

static void tt_vfu_register(void)
{
    fuzz_add_target(&(FuzzTarget){
        .name = "tt-vfu-fuzz",
        .description = "Blackhole vfio-user server: one client session "
                       "per input",
        .get_init_cmdline = tt_vfu_cmdline,
        .pre_fuzz = tt_vfu_pre_fuzz,
        .fuzz = tt_vfu_fuzz,
    });
}

fuzz_target_init(tt_vfu_register);
