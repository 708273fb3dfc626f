/*
 * The mapped path: host accesses that a TLB window sends to L1 or GDDR,
 * served with memcpy into the server's shared memory instead of a
 * vfio-user message (the server side is QEMU's hw/tenstorrent/host-map.c;
 * design in docs/devel/tenstorrent-host-map.rst, wire format in
 * include/hw/tenstorrent/host-map-abi.h).
 *
 * What the library keeps here:
 *  - the chip's RAM blocks, mapped, and the server's shared tables (which
 *    block a coordinate reaches, where each tile sits in a multicast
 *    rectangle, the NOC routing state, the code-line bitmaps);
 *  - a shadow of every TLB configuration register.  Configuration writes
 *    are deferred: they reach the server, in one command batch, before
 *    anything else goes down the message path (the server needs them only
 *    for accesses it serves itself);
 *  - for each window, its decoded target, valid while its configuration
 *    and the routing state are unchanged;
 *  - the tiles written since the server last woke their parked cores.
 *
 * Ordering: a mapped write is complete in memory when the call returns,
 * and every message is sent after it, so a register write through the
 * message path never overtakes data written through the mapping.
 * Coherence: after a mapped write to L1 the library reads that tile's
 * code-line bitmap (after a full fence); if translated code covers a line
 * it wrote, it has the server invalidate the range, and waits, before the
 * call returns.
 *
 * Not thread-safe: libttsim.c calls it under its lock.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_MAPPED_H
#define TT_MAPPED_H

#include <stdbool.h>
#include <stdint.h>

#include "vfu-client.h"

typedef struct Mapped Mapped;

/*
 * Map what the server offers (regions 10 and 11) if it offers them;
 * NULL if not (the library then uses the message path for everything).
 * Reads the TLB configuration once, by message.
 */
Mapped *mapped_attach(VfuClient *vfu);

/* Unmap; send what is still pending first (best effort) */
void mapped_detach(Mapped *m);

/* Results of mapped_bar_access() */
enum {
    MAPPED_DONE,                /* served from memory (or absorbed) */
    MAPPED_MESSAGE,             /* take the message path for this piece */
    MAPPED_ERROR,               /* the server was lost (already printed) */
};

/*
 * A host access of @len bytes at @offset of BAR @region (VFU_REGION_BAR0
 * or VFU_REGION_BAR4), not crossing a window or the TLB configuration
 * area's end: served if the window targets RAM (or it is a 4-byte TLB
 * configuration access), else MAPPED_MESSAGE.  Split accesses with
 * mapped_piece() first.
 */
int mapped_bar_access(Mapped *m, uint32_t region, uint64_t offset,
                      void *buf, uint32_t len, bool write);

/*
 * How many bytes from @offset of BAR @region the next piece may have: up
 * to the end of the window or of the TLB configuration area
 */
uint32_t mapped_piece(uint32_t region, uint64_t offset, uint32_t len);

/*
 * Before an access through the message path: send the pending TLB
 * configuration writes and wake-ups (not waited for; the request that
 * follows on the socket is ordered after them).  After a message access
 * that overlapped the TLB configuration area, call mapped_reload_tlbs().
 * Returns false if the server was lost.
 */
bool mapped_before_message(Mapped *m);
bool mapped_reload_tlbs(Mapped *m);

/* Does [offset, offset + len) of BAR0 touch the TLB configuration? */
bool mapped_touches_tlb_config(uint32_t region, uint64_t offset,
                               uint32_t len);

/*
 * A register write through the message path that needs no reply
 * (SOFT_RESET_0 of a tile, by a decoded window): sent without waiting,
 * MAPPED_DONE; the next mapped access syncs with the server first.
 * MAPPED_MESSAGE for any other write.
 */
int mapped_post(Mapped *m, uint32_t region, uint64_t offset,
                const void *buf, uint32_t len);

/*
 * libttsim_clock(), and reads after writes: have the server wake the
 * cores of the tiles written through the mapping (not waited for)
 */
bool mapped_kick(Mapped *m);

#endif
