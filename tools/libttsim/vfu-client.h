/*
 * A minimal vfio-user client: one UNIX socket, requests sent one at a time
 * and answered in order.  Only what libttsim needs: the version handshake,
 * device and region information, and region reads and writes.
 *
 * Protocol: docs/interop/vfio-user.rst of the QEMU tree (version 0.x).
 *
 * Not thread-safe: the caller serialises (libttsim holds its own lock).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_VFU_CLIENT_H
#define TT_VFU_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

/* VFIO PCI region indices (linux/vfio.h VFIO_PCI_*_REGION_INDEX) */
enum {
    VFU_REGION_BAR0 = 0,
    VFU_REGION_BAR2 = 2,
    VFU_REGION_BAR4 = 4,
    VFU_REGION_CONFIG = 7,
    VFU_REGION_VGA = 8,
    VFU_REGION_MIGRATION = 9,
    VFU_MAX_REGIONS = 16,       /* more than any server we talk to has */
};

/* linux/vfio.h VFIO_REGION_INFO_FLAG_* */
#define VFU_REGION_FLAG_READ    (1u << 0)
#define VFU_REGION_FLAG_WRITE   (1u << 1)
#define VFU_REGION_FLAG_MMAP    (1u << 2)

/* linux/vfio.h VFIO_DEVICE_FLAGS_PCI */
#define VFU_DEVICE_FLAG_PCI     (1u << 1)

/* What we ask for; the server's answer may lower it (vfio-user.rst Version) */
#define VFU_CLIENT_MAX_XFER     (1u << 20)

/* One area of a region's sparse-mmap capability */
typedef struct VfuArea {
    uint64_t start, size;       /* in the region */
} VfuArea;

typedef struct VfuRegionInfo {
    bool present;               /* the server answered GET_REGION_INFO */
    uint32_t flags;             /* VFU_REGION_FLAG_* */
    uint64_t size;
    /*
     * The region's sparse-mmap capability, when the server sent one with
     * a file descriptor: bytes [map_start, map_start + map_size) of the
     * region (the first area) are at file offset map_offset of map_fd;
     * area i of @areas at file offset file_offset + areas[i].start.  The
     * client owns map_fd and @areas (freed by vfu_client_close).
     */
    bool mappable;
    int map_fd;
    uint64_t map_start, map_size, map_offset;
    uint64_t file_offset;       /* the region's offset in map_fd */
    uint32_t nareas;
    VfuArea *areas;
} VfuRegionInfo;

typedef struct VfuClient {
    int fd;                     /* -1 when not connected */
    uint16_t next_msg_id;
    uint16_t server_minor;
    uint32_t max_xfer;          /* negotiated max_data_xfer_size */
    uint32_t dev_flags;         /* VFU_DEVICE_FLAG_* */
    uint32_t num_regions;
    VfuRegionInfo region[VFU_MAX_REGIONS];
    bool debug;                 /* TT_EMU_DEBUG: trace every message */
    int64_t poll_ns;            /* poll this long for a reply, then sleep */
    /*
     * Called again and again while a reply is awaited (at least every
     * millisecond): work the server needs done before it can answer
     */
    void (*wait_hook)(void *opaque);
    void *wait_opaque;
    bool keep_fd;               /* keep the next descriptor received */
    int rx_fd;                  /* the one kept, or -1 */
} VfuClient;

void vfu_client_init(VfuClient *c);

/*
 * Connect to a listening server at @path.  Returns 0, or a negative errno
 * (without printing: the caller retries while the server starts).
 */
int vfu_client_connect(VfuClient *c, const char *path);

/*
 * VERSION, DEVICE_GET_INFO, then GET_REGION_INFO (with capabilities, so
 * that a server may offer a mapping) for the regions libttsim uses.
 * Returns 0 or a negative errno; prints why on failure.
 */
int vfu_client_handshake(VfuClient *c);

/* Region info of @index as recorded by the handshake (NULL if unknown) */
const VfuRegionInfo *vfu_client_region(const VfuClient *c, uint32_t index);

/*
 * Region accesses, split into pieces of at most max_xfer bytes (writes:
 * 32 KiB, see VFU_WRITE_CHUNK).
 * Return 0, -EREMOTEIO when the server refused the access (the connection
 * is still usable), or another negative errno when the connection is
 * broken.  Both kinds of failure are printed.
 */
int vfu_client_read(VfuClient *c, uint32_t region, uint64_t offset,
                    void *buf, uint32_t len);
int vfu_client_write(VfuClient *c, uint32_t region, uint64_t offset,
                     const void *buf, uint32_t len);

/* 32- and 64-bit little-endian register helpers (same return values) */
int vfu_client_read32(VfuClient *c, uint32_t region, uint64_t offset,
                      uint32_t *val);
int vfu_client_write32(VfuClient *c, uint32_t region, uint64_t offset,
                       uint32_t val);
int vfu_client_read64(VfuClient *c, uint32_t region, uint64_t offset,
                      uint64_t *val);

/*
 * A write the server does not answer (the header's no_reply flag, as
 * QEMU's x-post-writes uses it): sent, not waited for.  The server handles
 * it before any later request, so a request that follows is ordered after
 * it.  At most 32 KiB.  Returns 0 or a negative errno (-EMSGSIZE if too
 * long); a refusal by the server goes unnoticed.
 */
int vfu_client_post_write(VfuClient *c, uint32_t region, uint64_t offset,
                          const void *buf, uint32_t len);

/*
 * DEVICE_RESET: the QEMU server power-cycles the chip (every RAM zeroed,
 * every block in its power-on state) before it answers.  Returns 0 or a
 * negative errno.
 */
int vfu_client_reset(VfuClient *c);

/*
 * Give up waiting for a reply after @seconds (0: wait forever).  Used for
 * the handshake, when a stuck server should not hang the host.
 */
int vfu_client_set_timeout(VfuClient *c, unsigned seconds);

void vfu_client_close(VfuClient *c);

#endif
