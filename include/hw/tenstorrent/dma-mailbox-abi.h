/*
 * Tenstorrent Blackhole: the host DMA mailbox, the part of the
 * tt-vfio-user protocol through which the chip reaches host memory the
 * client did not map (device-to-host traffic a libttsim host serves with
 * its DMA callbacks, as ttsim calls them).
 *
 * Included by the server (hw/tenstorrent/vfio-user.c) and by the libttsim
 * library (tools/libttsim/libttsim.c), so it uses plain C types only.
 * Words are little-endian 32-bit, like the rest of vfio-user.
 *
 * One device-specific region of TT_MBOX_SIZE bytes (index 8, the VGA
 * index; a client recognises it by its size), whole in one memfd the
 * client may map:
 *
 *  - Requests from the chip's threads (cores, eDMA): the server sets DIR,
 *    LEN, ADDR (and DATA for a write to host memory), then STATUS = 1; the
 *    client, at the end of any access of its own or a clock, moves DATA,
 *    then writes DONE = 1 by message; the server clears STATUS.
 *  - Inline requests, for a host access that loops back to host memory
 *    (a TLB window onto the PCIe tile's host range): the server thread is
 *    inside the client's own access, which the client waits for, so no
 *    message can pass.  A client that maps the region and sets
 *    TT_MBOX_CTRL_INLINE serves them while it waits for any reply: the
 *    server writes the IN_* words (IN_DATA for a write) and IN_STATUS = 1
 *    in the shared memory, the client moves IN_DATA and writes IN_DONE = 1
 *    there, and the server, polling IN_DONE, clears IN_STATUS.  Pieces are
 *    at most TT_MBOX_IN_DATA_SIZE bytes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_DMA_MAILBOX_ABI_H
#define HW_TENSTORRENT_DMA_MAILBOX_ABI_H

#define TT_MBOX_REGION_INDEX    8

#define TT_MBOX_CTRL            0x00    /* W: TT_MBOX_CTRL_* */
#define TT_MBOX_STATUS          0x04    /* R: 1 while a request is pending */
#define TT_MBOX_DIR             0x08    /* R: TT_MBOX_DIR_* */
#define TT_MBOX_LEN             0x0c    /* R: bytes, <= TT_MBOX_DATA_SIZE */
#define TT_MBOX_ADDR            0x10    /* R: 64-bit host address */
#define TT_MBOX_DONE            0x18    /* W: 1 when served */

#define TT_MBOX_CTRL_ON         0x1     /* the client serves requests */
#define TT_MBOX_CTRL_INLINE     0x2     /* ... and inline ones (mapped) */

/* inline requests: shared memory only */
#define TT_MBOX_IN_STATUS       0x100
#define TT_MBOX_IN_DIR          0x104
#define TT_MBOX_IN_LEN          0x108
#define TT_MBOX_IN_ADDR         0x10c   /* 64-bit, two words */
#define TT_MBOX_IN_DONE         0x114
#define TT_MBOX_IN_DATA         0x800
#define TT_MBOX_IN_DATA_SIZE    0x800

#define TT_MBOX_DATA            0x1000
#define TT_MBOX_DATA_SIZE       0x10000
#define TT_MBOX_SIZE            (TT_MBOX_DATA + TT_MBOX_DATA_SIZE)

#define TT_MBOX_DIR_TO_DEVICE   0       /* copy host memory into DATA */
#define TT_MBOX_DIR_TO_HOST     1       /* copy DATA into host memory */

#endif
