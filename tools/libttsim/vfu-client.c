/*
 * A minimal vfio-user client (see vfu-client.h).
 *
 * Wire format: docs/interop/vfio-user.rst, sections "Header",
 * "VFIO_USER_VERSION", "VFIO_USER_DEVICE_GET_INFO",
 * "VFIO_USER_DEVICE_GET_REGION_INFO", "VFIO_USER_REGION_READ" and
 * "VFIO_USER_REGION_WRITE".  All fields are in host byte order, which the
 * protocol defines as the byte order of both ends.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "vfu-client.h"
#include "vfu-proto.h"

/* We propose protocol 0.0: nothing we use needs a later minor version */
#define VFU_VERSION_MAJOR       0
#define VFU_VERSION_MINOR       0

/* Upper bound on message sizes we accept from the server */
#define VFU_MAX_MSG             (VFU_CLIENT_MAX_XFER + 4096)

/*
 * Largest REGION_WRITE payload we send in one message.  libvfio-user's
 * server reads a request body with a single recv() without MSG_WAITALL
 * (lib/tran_sock.c tran_sock_recv_body), so a message must be queued on
 * the socket in one piece.  Linux queues an AF_UNIX stream send in pieces
 * of at most 32 KiB of page fragments plus a small linear head
 * (net/unix/af_unix.c, UNIX_SKB_FRAGS_SZ), so a 32 KiB payload plus our
 * 32 bytes of headers arrives whole; larger writes would be misread.
 */
#define VFU_WRITE_CHUNK         (32u << 10)

/*
 * Most file descriptors a message may carry (our max_msg_fds): Linux's
 * SCM_MAX_FD.  libvfio-user sends a region's file once per sparse-mmap
 * area, and the host map's RAM region has one area per L1 and GDDR bank.
 */
#define VFU_MAX_FDS             253

typedef struct VfuVersion {
    uint16_t major;
    uint16_t minor;
    /* followed by NUL-terminated JSON */
} VfuVersion;

typedef struct VfuDeviceInfo {
    uint32_t argsz;
    uint32_t flags;
    uint32_t num_regions;
    uint32_t num_irqs;
} VfuDeviceInfo;

typedef struct VfuRegionInfoMsg {
    uint32_t argsz;
    uint32_t flags;
    uint32_t index;
    uint32_t cap_offset;
    uint64_t size;
    uint64_t offset;
} VfuRegionInfoMsg;

_Static_assert(sizeof(VfuVersion) == 4, "version payload is 4 bytes");
_Static_assert(sizeof(VfuDeviceInfo) == 16, "device info is 16 bytes");
_Static_assert(sizeof(VfuRegionInfoMsg) == 32, "region info is 32 bytes");
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "libttsim assumes a little-endian host (as ttsim does)"
#endif

static const char *vfu_cmd_name(uint16_t cmd)
{
    switch (cmd) {
    case VFU_CMD_VERSION:
        return "VERSION";
    case VFU_CMD_DEVICE_GET_INFO:
        return "DEVICE_GET_INFO";
    case VFU_CMD_DEVICE_GET_REGION_INFO:
        return "DEVICE_GET_REGION_INFO";
    case VFU_CMD_REGION_READ:
        return "REGION_READ";
    case VFU_CMD_REGION_WRITE:
        return "REGION_WRITE";
    case VFU_CMD_DEVICE_RESET:
        return "DEVICE_RESET";
    default:
        return "?";
    }
}

void vfu_client_init(VfuClient *c)
{
    memset(c, 0, sizeof(*c));
    c->fd = -1;
    c->rx_fd = -1;
    c->max_xfer = VFU_CLIENT_MAX_XFER;
}

int vfu_client_connect(VfuClient *c, const char *path)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    int fd;

    if (strlen(path) >= sizeof(sa.sun_path)) {
        return -ENAMETOOLONG;
    }
    strcpy(sa.sun_path, path);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -errno;
    }
    if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
        int err = errno;

        close(fd);
        return -err;
    }
    c->fd = fd;
    return 0;
}

int vfu_client_set_timeout(VfuClient *c, unsigned seconds)
{
    struct timeval tv = { .tv_sec = seconds };

    if (setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
        return -errno;
    }
    return 0;
}

void vfu_client_close(VfuClient *c)
{
    if (c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
    for (int i = 0; i < VFU_MAX_REGIONS; i++) {
        if (c->region[i].mappable) {
            close(c->region[i].map_fd);
            c->region[i].mappable = false;
        }
        free(c->region[i].areas);
        c->region[i].areas = NULL;
        c->region[i].nareas = 0;
    }
}

/* ---------------------------------------------------------- transport -- */

/*
 * Descriptors the server attached: the first one is kept in rx_fd when a
 * GET_REGION_INFO reply is expected (its mmap area), the rest are closed.
 */
static void vfu_take_fds(VfuClient *c, struct msghdr *mh)
{
    struct cmsghdr *cm;

    for (cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
        if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
            size_t n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            int fds[VFU_MAX_FDS];

            n = n < VFU_MAX_FDS ? n : VFU_MAX_FDS;
            /* the same file every time: keep one, close the copies */
            memcpy(fds, CMSG_DATA(cm), n * sizeof(int));
            for (size_t i = 0; i < n; i++) {
                if (c->keep_fd && c->rx_fd < 0) {
                    c->rx_fd = fds[i];
                } else {
                    close(fds[i]);
                }
            }
        }
    }
}

/* Advance an iovec array past @n bytes already transferred */
static void vfu_iov_skip(struct iovec **iov, int *cnt, size_t n)
{
    while (*cnt > 0 && n >= (*iov)->iov_len) {
        n -= (*iov)->iov_len;
        (*iov)++;
        (*cnt)--;
    }
    if (*cnt > 0) {
        (*iov)->iov_base = (char *)(*iov)->iov_base + n;
        (*iov)->iov_len -= n;
    }
}

static size_t vfu_iov_len(const struct iovec *iov, int cnt)
{
    size_t n = 0;

    for (int i = 0; i < cnt; i++) {
        n += iov[i].iov_len;
    }
    return n;
}

static int64_t vfu_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * recvmsg(), polling without sleeping for up to poll_ns first: a reply
 * usually comes within microseconds, and a sleep and wake-up cost more
 * than that on a small host.
 */
static ssize_t vfu_recvmsg(VfuClient *c, struct msghdr *mh)
{
    int64_t end = vfu_now_ns() + c->poll_ns;
    struct pollfd pfd = { .fd = c->fd, .events = POLLIN };

    if (c->poll_ns > 0 || c->wait_hook) {
        do {
            ssize_t n = recvmsg(c->fd, mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);

            if (n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                return n;
            }
            if (c->wait_hook) {
                c->wait_hook(c->wait_opaque);
            }
        } while (vfu_now_ns() < end);
    }
    /* then sleep, waking each millisecond for the hook */
    while (c->wait_hook && poll(&pfd, 1, 1) == 0) {
        c->wait_hook(c->wait_opaque);
    }
    return recvmsg(c->fd, mh, MSG_CMSG_CLOEXEC);
}

/*
 * Receive exactly the bytes @iov describes.  Uses recvmsg() with room for
 * ancillary data so that descriptors a server sends are closed, not leaked.
 */
static int vfu_recv_iov(VfuClient *c, struct iovec *iov, int cnt)
{
    char cbuf[CMSG_SPACE(VFU_MAX_FDS * sizeof(int))];

    while (vfu_iov_len(iov, cnt) > 0) {
        struct msghdr mh = {
            .msg_iov = iov, .msg_iovlen = cnt,
            .msg_control = cbuf, .msg_controllen = sizeof(cbuf),
        };
        ssize_t n = vfu_recvmsg(c, &mh);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return -ETIMEDOUT;  /* SO_RCVTIMEO expired */
        }
        if (n < 0) {
            return -errno;
        }
        if (n == 0) {
            return -ECONNRESET;
        }
        vfu_take_fds(c, &mh);
        vfu_iov_skip(&iov, &cnt, n);
    }
    return 0;
}

/* Read and throw away @n payload bytes we have no use for */
static int vfu_discard(VfuClient *c, size_t n)
{
    char junk[256];

    while (n > 0) {
        struct iovec iov = { junk, n < sizeof(junk) ? n : sizeof(junk) };
        int r = vfu_recv_iov(c, &iov, 1);

        if (r < 0) {
            return r;
        }
        n -= sizeof(junk) < n ? sizeof(junk) : n;
    }
    return 0;
}

/* MSG_NOSIGNAL: a dead server must give EPIPE, not kill the host process */
static int vfu_send_iov(VfuClient *c, struct iovec *iov, int cnt)
{
    while (vfu_iov_len(iov, cnt) > 0) {
        struct msghdr mh = { .msg_iov = iov, .msg_iovlen = cnt };
        ssize_t n = sendmsg(c->fd, &mh, MSG_NOSIGNAL);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return -errno;
        }
        vfu_iov_skip(&iov, &cnt, n);
    }
    return 0;
}

/*
 * A server-to-client command (DMA_READ/WRITE would be one) is not part of
 * the libttsim contract: the server reaches host memory through the
 * mailbox region instead.  Refuse it so that the server does not wait.
 */
static int vfu_refuse_command(VfuClient *c, const VfuHeader *h)
{
    VfuHeader r = {
        .msg_id = h->msg_id, .cmd = h->cmd, .msg_size = sizeof(r),
        .flags = VFU_FLAG_TYPE_REPLY | VFU_FLAG_ERROR, .error_no = ENOTSUP,
    };
    struct iovec iov = { &r, sizeof(r) };
    int ret = vfu_discard(c, h->msg_size - sizeof(*h));

    fprintf(stderr, "libttsim: the server sent command %u; refused (host "
            "memory is served through the mailbox region only)\n", h->cmd);
    if (ret < 0 || (h->flags & VFU_FLAG_NO_REPLY)) {
        return ret;
    }
    return vfu_send_iov(c, &iov, 1);
}

/*
 * Send one command (@req: payload pieces, header prepended here) and wait
 * for its reply, whose payload lands in @rep.  *@rep_len receives the reply
 * payload size (which may be shorter than @rep; a longer one is truncated).
 * Returns 0, -EREMOTEIO if the server answered with an error, or another
 * negative errno if the connection is broken.
 */
static int vfu_transact(VfuClient *c, uint16_t cmd,
                        const struct iovec *req, int req_cnt,
                        struct iovec *rep, int rep_cnt, size_t *rep_len)
{
    struct iovec out[4];
    VfuHeader h = {
        .msg_id = c->next_msg_id++, .cmd = cmd,
        .msg_size = sizeof(h) + vfu_iov_len(req, req_cnt),
        .flags = VFU_FLAG_TYPE_COMMAND,
    };
    VfuHeader r;
    int ret;

    if (c->fd < 0) {
        return -ENOTCONN;
    }
    out[0] = (struct iovec){ &h, sizeof(h) };
    memcpy(&out[1], req, req_cnt * sizeof(*req));
    if (c->debug) {
        fprintf(stderr, "libttsim: vfio-user -> %s id %u size %u\n",
                vfu_cmd_name(cmd), h.msg_id, h.msg_size);
    }
    ret = vfu_send_iov(c, out, req_cnt + 1);
    if (ret < 0) {
        return ret;
    }

    for (;;) {
        struct iovec hv = { &r, sizeof(r) };

        ret = vfu_recv_iov(c, &hv, 1);
        if (ret < 0) {
            return ret;
        }
        if (r.msg_size < sizeof(r) || r.msg_size > VFU_MAX_MSG) {
            fprintf(stderr, "libttsim: vfio-user message of bad size %u\n",
                    r.msg_size);
            return -EPROTO;
        }
        if ((r.flags & VFU_FLAG_TYPE_MASK) != VFU_FLAG_TYPE_COMMAND) {
            break;
        }
        ret = vfu_refuse_command(c, &r);
        if (ret < 0) {
            return ret;
        }
    }

    if ((r.flags & VFU_FLAG_TYPE_MASK) != VFU_FLAG_TYPE_REPLY ||
        r.msg_id != h.msg_id || r.cmd != cmd) {
        fprintf(stderr, "libttsim: vfio-user reply id %u cmd %u flags 0x%x "
                "does not answer request id %u cmd %u\n",
                r.msg_id, r.cmd, r.flags, h.msg_id, cmd);
        return -EPROTO;
    }
    if (c->debug) {
        fprintf(stderr, "libttsim: vfio-user <- %s id %u size %u%s\n",
                vfu_cmd_name(cmd), r.msg_id, r.msg_size,
                (r.flags & VFU_FLAG_ERROR) ? " ERROR" : "");
    }
    if (r.flags & VFU_FLAG_ERROR) {
        ret = vfu_discard(c, r.msg_size - sizeof(r));
        if (ret < 0) {
            return ret;
        }
        fprintf(stderr, "libttsim: vfio-user %s failed on the server: %s\n",
                vfu_cmd_name(cmd), r.error_no ? strerror(r.error_no) :
                "no reason given");
        return -EREMOTEIO;
    }

    *rep_len = r.msg_size - sizeof(r);
    if (*rep_len <= vfu_iov_len(rep, rep_cnt)) {
        /* Trim the receive vector to what the server actually sent */
        size_t left = *rep_len;
        int n = 0;

        while (n < rep_cnt && left > 0) {
            if (rep[n].iov_len > left) {
                rep[n].iov_len = left;
            }
            left -= rep[n].iov_len;
            n++;
        }
        return vfu_recv_iov(c, rep, n);
    }
    ret = vfu_recv_iov(c, rep, rep_cnt);
    if (ret < 0) {
        return ret;
    }
    return vfu_discard(c, *rep_len - vfu_iov_len(rep, rep_cnt));
}

/* --------------------------------------------------------- handshake -- */

/*
 * Minimal reading of the server's capabilities JSON: we only care about
 * max_data_xfer_size, the largest REGION_READ/WRITE count it accepts.
 */
static void vfu_parse_caps(VfuClient *c, const char *json)
{
    static const char key[] = "\"max_data_xfer_size\"";
    const char *p = strstr(json, key);
    unsigned long long v;

    if (!p) {
        return;                 /* absent: the 1 MiB default applies */
    }
    p += strlen(key);
    p += strspn(p, " \t\r\n");
    if (*p++ != ':') {
        goto bad;
    }
    p += strspn(p, " \t\r\n");
    if (sscanf(p, "%llu", &v) != 1 || v == 0) {
        goto bad;
    }
    if (v < c->max_xfer) {
        c->max_xfer = v;
    }
    return;

bad:
    fprintf(stderr, "libttsim: ignoring unreadable max_data_xfer_size in "
            "the server's capabilities: %s\n", json);
}

static int vfu_version(VfuClient *c)
{
    char caps[128];
    char reply[1024];
    VfuVersion v = { VFU_VERSION_MAJOR, VFU_VERSION_MINOR };
    VfuVersion sv;
    struct iovec req[2], rep[2];
    size_t len;
    int n, ret;

    /* max_msg_fds: we accept (and close) descriptors, so 8 is harmless */
    n = snprintf(caps, sizeof(caps),
                 "{\"capabilities\":{\"max_msg_fds\":%d,"
                 "\"max_data_xfer_size\":%u}}", VFU_MAX_FDS,
                 VFU_CLIENT_MAX_XFER);
    req[0] = (struct iovec){ &v, sizeof(v) };
    req[1] = (struct iovec){ caps, n + 1 };        /* with its NUL */
    rep[0] = (struct iovec){ &sv, sizeof(sv) };
    rep[1] = (struct iovec){ reply, sizeof(reply) - 1 };
    ret = vfu_transact(c, VFU_CMD_VERSION, req, 2, rep, 2, &len);
    if (ret < 0) {
        return ret;
    }
    if (len < sizeof(sv)) {
        fprintf(stderr, "libttsim: short VERSION reply (%zu bytes)\n", len);
        return -EPROTO;
    }
    if (sv.major != VFU_VERSION_MAJOR || sv.minor > VFU_VERSION_MINOR) {
        fprintf(stderr, "libttsim: the server answered protocol %u.%u to "
                "our %u.%u\n", sv.major, sv.minor, VFU_VERSION_MAJOR,
                VFU_VERSION_MINOR);
        return -EPROTO;
    }
    c->server_minor = sv.minor;
    len -= sizeof(sv);
    len = len < sizeof(reply) - 1 ? len : sizeof(reply) - 1;
    reply[len] = '\0';
    vfu_parse_caps(c, reply);
    return 0;
}

static int vfu_device_info(VfuClient *c)
{
    VfuDeviceInfo in = { .argsz = sizeof(in) }, out = { 0 };
    struct iovec req = { &in, sizeof(in) }, rep = { &out, sizeof(out) };
    size_t len;
    int ret;

    ret = vfu_transact(c, VFU_CMD_DEVICE_GET_INFO, &req, 1, &rep, 1, &len);
    if (ret < 0) {
        return ret;
    }
    if (len < sizeof(out)) {
        fprintf(stderr, "libttsim: short DEVICE_GET_INFO reply\n");
        return -EPROTO;
    }
    if (!(out.flags & VFU_DEVICE_FLAG_PCI)) {
        fprintf(stderr, "libttsim: the vfio-user device is not PCI\n");
        return -ENODEV;
    }
    c->dev_flags = out.flags;
    c->num_regions = out.num_regions;
    return 0;
}

int vfu_client_reset(VfuClient *c)
{
    struct iovec none = { NULL, 0 };
    size_t len;

    /* no payload either way (vfio-user protocol, VFIO_USER_DEVICE_RESET) */
    return vfu_transact(c, VFU_CMD_DEVICE_RESET, &none, 0, &none, 0, &len);
}

/* linux/vfio.h: VFIO_REGION_INFO_FLAG_CAPS, VFIO_REGION_INFO_CAP_SPARSE_MMAP */
#define VFU_REGION_FLAG_CAPS    (1u << 3)
#define VFU_CAP_SPARSE_MMAP     1
#define VFU_CAPS_ROOM           8192    /* up to ~500 sparse-mmap areas */

static uint32_t vfu_le32(const uint8_t *p)
{
    uint32_t v;

    memcpy(&v, p, sizeof(v));
    return v;
}

static uint64_t vfu_le64(const uint8_t *p)
{
    uint64_t v;

    memcpy(&v, p, sizeof(v));
    return v;
}

/*
 * The areas of a sparse-mmap capability in a GET_REGION_INFO reply of
 * @len bytes (capability offsets count from the start of the reply), each
 * inside a region of @size bytes, into a malloc()ed array.  Returns how
 * many (0: none, or a malformed capability).
 */
static uint32_t vfu_sparse_areas(const uint8_t *rep, size_t len,
                                 uint64_t size, VfuArea **areas)
{
    uint32_t off = ((const VfuRegionInfoMsg *)rep)->cap_offset;

    for (int hops = 0; hops < 8 && off >= sizeof(VfuRegionInfoMsg) &&
         off + 8 <= len; hops++) {
        uint16_t id = rep[off] | rep[off + 1] << 8;
        uint32_t n;

        if (id != VFU_CAP_SPARSE_MMAP || off + 16 > len) {
            off = vfu_le32(rep + off + 4);
            continue;
        }
        /* header (8), nr_areas and reserved (8), then 16 bytes per area */
        n = vfu_le32(rep + off + 8);
        if (n == 0 || n > (len - off - 16) / 16) {
            return 0;
        }
        *areas = calloc(n, sizeof(**areas));
        if (!*areas) {
            return 0;
        }
        for (uint32_t i = 0; i < n; i++) {
            VfuArea *a = &(*areas)[i];

            a->start = vfu_le64(rep + off + 16 + 16 * i);
            a->size = vfu_le64(rep + off + 24 + 16 * i);
            if (a->size > size || a->start > size - a->size) {
                free(*areas);
                *areas = NULL;
                return 0;
            }
        }
        return n;
    }
    return 0;
}

/*
 * argsz leaves room for a capability chain: a server that backs a region
 * with a file sends its sparse-mmap areas and the descriptor.  Only the
 * first area is recorded; BARs come without (every access is a message).
 */
static int vfu_region_info(VfuClient *c, uint32_t index)
{
    VfuRegionInfoMsg in = {
        .argsz = sizeof(in) + VFU_CAPS_ROOM, .index = index,
    };
    static union {
        VfuRegionInfoMsg info;
        uint8_t bytes[sizeof(VfuRegionInfoMsg) + VFU_CAPS_ROOM];
    } out;
    struct iovec req = { &in, sizeof(in) }, rep = { &out, sizeof(out) };
    VfuRegionInfo *r = &c->region[index];
    VfuArea *areas = NULL;
    uint32_t nareas = 0;
    size_t len;
    int ret;

    memset(&out, 0, sizeof(out));

    c->keep_fd = true;
    ret = vfu_transact(c, VFU_CMD_DEVICE_GET_REGION_INFO, &req, 1, &rep, 1,
                       &len);
    c->keep_fd = false;
    if (ret == 0 && (len < sizeof(out.info) || out.info.index != index)) {
        fprintf(stderr, "libttsim: bad GET_REGION_INFO reply for region "
                "%u\n", index);
        ret = -EPROTO;
    }
    if (ret == 0 && c->rx_fd >= 0 && (out.info.flags & VFU_REGION_FLAG_CAPS)) {
        nareas = vfu_sparse_areas(out.bytes, len, out.info.size, &areas);
    }
    if (nareas > 0) {
        r->mappable = true;
        r->map_fd = c->rx_fd;
        r->map_start = areas[0].start;
        r->map_size = areas[0].size;
        r->map_offset = out.info.offset + areas[0].start;
        r->file_offset = out.info.offset;
        r->areas = areas;
        r->nareas = nareas;
        c->rx_fd = -1;
    }
    if (c->rx_fd >= 0) {
        close(c->rx_fd);
        c->rx_fd = -1;
    }
    if (ret == -EREMOTEIO) {
        return 0;               /* the server has no such region */
    }
    if (ret < 0) {
        return ret;
    }
    r->present = true;
    r->flags = out.info.flags;
    r->size = out.info.size;
    if (c->debug) {
        fprintf(stderr, "libttsim: region %u: size 0x%llx flags 0x%x%s, %u "
                "areas\n", index, (unsigned long long)out.info.size,
                out.info.flags, r->mappable ? " (mappable)" : "", r->nareas);
    }
    return 0;
}

int vfu_client_handshake(VfuClient *c)
{
    uint32_t n;
    int ret;

    ret = vfu_version(c);
    if (ret == 0) {
        ret = vfu_device_info(c);
    }
    n = c->num_regions < VFU_MAX_REGIONS ? c->num_regions : VFU_MAX_REGIONS;
    for (uint32_t i = 0; ret == 0 && i < n; i++) {
        ret = vfu_region_info(c, i);
    }
    if (ret < 0) {
        fprintf(stderr, "libttsim: vfio-user handshake failed: %s\n",
                strerror(-ret));
    }
    return ret;
}

const VfuRegionInfo *vfu_client_region(const VfuClient *c, uint32_t index)
{
    if (index >= VFU_MAX_REGIONS || !c->region[index].present) {
        return NULL;
    }
    return &c->region[index];
}

/* ------------------------------------------------------ region access -- */

static int vfu_access_piece(VfuClient *c, uint16_t cmd, uint32_t region,
                            uint64_t offset, void *buf, uint32_t len)
{
    VfuRegionAccess a = { .offset = offset, .region = region, .count = len };
    VfuRegionAccess r = { 0 };
    struct iovec req[2] = { { &a, sizeof(a) }, { buf, len } };
    struct iovec rep[2] = { { &r, sizeof(r) }, { buf, len } };
    bool wr = cmd == VFU_CMD_REGION_WRITE;
    size_t got;
    int ret;

    if (c->debug) {
        fprintf(stderr, "libttsim: %s region %u offset 0x%llx count %u\n",
                vfu_cmd_name(cmd), region, (unsigned long long)offset, len);
    }
    ret = vfu_transact(c, cmd, req, wr ? 2 : 1, rep, wr ? 1 : 2, &got);
    if (ret < 0) {
        return ret;
    }
    if (got != sizeof(r) + (wr ? 0 : len) || r.count != len ||
        r.region != region || r.offset != offset) {
        fprintf(stderr, "libttsim: %s reply (region %u offset 0x%llx count "
                "%u, %zu bytes) does not match the request\n",
                vfu_cmd_name(cmd), r.region, (unsigned long long)r.offset,
                r.count, got);
        /*
         * The stream is still in step (the whole reply was consumed), but
         * the data is not what was asked for: report a device error.
         */
        return -EREMOTEIO;
    }
    return 0;
}

static int vfu_access(VfuClient *c, uint16_t cmd, uint32_t region,
                      uint64_t offset, void *buf, uint32_t len)
{
    uint32_t max = c->max_xfer;
    uint8_t *p = buf;

    if (cmd == VFU_CMD_REGION_WRITE && max > VFU_WRITE_CHUNK) {
        max = VFU_WRITE_CHUNK;
    }
    while (len > 0) {
        uint32_t n = len < max ? len : max;
        int ret = vfu_access_piece(c, cmd, region, offset, p, n);

        if (ret < 0) {
            return ret;
        }
        offset += n;
        p += n;
        len -= n;
    }
    return 0;
}

int vfu_client_post_write(VfuClient *c, uint32_t region, uint64_t offset,
                          const void *buf, uint32_t len)
{
    VfuRegionAccess a = { .offset = offset, .region = region, .count = len };
    VfuHeader h = {
        .msg_id = c->next_msg_id++, .cmd = VFU_CMD_REGION_WRITE,
        .msg_size = sizeof(h) + sizeof(a) + len,
        .flags = VFU_FLAG_TYPE_COMMAND | VFU_FLAG_NO_REPLY,
    };
    struct iovec out[3] = {
        { &h, sizeof(h) }, { &a, sizeof(a) }, { (void *)buf, len },
    };

    if (c->fd < 0) {
        return -ENOTCONN;
    }
    if (len > VFU_WRITE_CHUNK) {
        return -EMSGSIZE;
    }
    if (c->debug) {
        fprintf(stderr, "libttsim: vfio-user -> REGION_WRITE id %u region %u "
                "offset 0x%llx count %u (no reply)\n", h.msg_id, region,
                (unsigned long long)offset, len);
    }
    return vfu_send_iov(c, out, 3);
}

int vfu_client_read(VfuClient *c, uint32_t region, uint64_t offset,
                    void *buf, uint32_t len)
{
    return vfu_access(c, VFU_CMD_REGION_READ, region, offset, buf, len);
}

int vfu_client_write(VfuClient *c, uint32_t region, uint64_t offset,
                     const void *buf, uint32_t len)
{
    /* The data is only sent, never written: the cast is safe */
    return vfu_access(c, VFU_CMD_REGION_WRITE, region, offset, (void *)buf,
                      len);
}

int vfu_client_read32(VfuClient *c, uint32_t region, uint64_t offset,
                      uint32_t *val)
{
    return vfu_client_read(c, region, offset, val, sizeof(*val));
}

int vfu_client_write32(VfuClient *c, uint32_t region, uint64_t offset,
                       uint32_t val)
{
    return vfu_client_write(c, region, offset, &val, sizeof(val));
}

int vfu_client_read64(VfuClient *c, uint32_t region, uint64_t offset,
                      uint64_t *val)
{
    return vfu_client_read(c, region, offset, val, sizeof(*val));
}
