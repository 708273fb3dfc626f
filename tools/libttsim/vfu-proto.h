/*
 * The vfio-user wire format the project's clients speak: command numbers,
 * header flags, the message header and the region-access payload.  Shared
 * by libttsim's client (vfu-client.c) and the bad-client test, which
 * crafts malformed messages from the same definitions.
 *
 * Protocol: docs/interop/vfio-user.rst of the QEMU tree (version 0.x),
 * sections "Header", "Commands" and "VFIO_USER_REGION_READ".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_VFU_PROTO_H
#define TT_VFU_PROTO_H

#include <stdint.h>

/* Command numbers (vfio-user.rst "Commands") */
enum {
    VFU_CMD_VERSION = 1,
    VFU_CMD_DMA_MAP = 2,
    VFU_CMD_DMA_UNMAP = 3,
    VFU_CMD_DEVICE_GET_INFO = 4,
    VFU_CMD_DEVICE_GET_REGION_INFO = 5,
    VFU_CMD_DEVICE_SET_IRQS = 8,
    VFU_CMD_REGION_READ = 9,
    VFU_CMD_REGION_WRITE = 10,
    VFU_CMD_DEVICE_RESET = 13,
};

/* Header flags: bits 0-3 type, bit 4 no_reply, bit 5 error */
#define VFU_FLAG_TYPE_MASK      0xfu
#define VFU_FLAG_TYPE_COMMAND   0x0u
#define VFU_FLAG_TYPE_REPLY     0x1u
#define VFU_FLAG_NO_REPLY       (1u << 4)
#define VFU_FLAG_ERROR          (1u << 5)

typedef struct VfuHeader {
    uint16_t msg_id;
    uint16_t cmd;
    uint32_t msg_size;          /* including this header */
    uint32_t flags;
    uint32_t error_no;
} VfuHeader;

/* VFIO_USER_REGION_READ / _WRITE request and reply payload */
typedef struct VfuRegionAccess {
    uint64_t offset;
    uint32_t region;
    uint32_t count;
    /* followed by the data of a write request or a read reply */
} VfuRegionAccess;

_Static_assert(sizeof(VfuHeader) == 16, "vfio-user header is 16 bytes");
_Static_assert(sizeof(VfuRegionAccess) == 16, "region access is 16 bytes");

#endif
