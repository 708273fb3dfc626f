/*
 * Tenstorrent Blackhole: the host map, which lets a vfio-user client reach
 * L1 and GDDR through shared memory (docs/devel/tenstorrent-host-map.rst,
 * wire format in host-map-abi.h).
 *
 * The tt-vfio-user object creates one for its chip and offers the two
 * regions it describes.  What it keeps up to date, for a client that
 * decodes TLB windows itself:
 *  - which RAM block a unicast to each coordinate reaches and where each
 *    tile sits in each multicast coordinate space (fixed);
 *  - the PCIe NIUs' coordinate translation and the tiles' multicast
 *    opt-outs (a seqlock, rewritten when an NIU's configuration changes);
 *  - per tile, which 64-byte lines of L1 hold translated code (set when a
 *    TB is linked, cleared when it is invalidated).
 * What it does for the client: apply deferred TLB configuration writes,
 * invalidate translated code the client overwrote, wake parked cores of
 * the tiles it wrote (tt_host_map_command()).
 *
 * Threads: the code-line bitmaps are updated by the translating and
 * invalidating threads (atomics); the routing state by whoever writes an
 * NIU (under @lock); commands run on the vfio-user server thread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_HOST_MAP_H
#define HW_TENSTORRENT_HOST_MAP_H

#include "hw/tenstorrent/blackhole-soc.h"
#include "hw/tenstorrent/host-map-abi.h"

typedef struct TTHostMap TTHostMap;

/* The chip's sealed RAM file and one area per block (NULL if none) */
typedef struct TTHostMapRam {
    int fd;
    uint64_t size;
    struct iovec *areas;        /* offset in iov_base, size in iov_len */
    uint32_t nareas;
} TTHostMapRam;

/*
 * Build the host map of @soc, reached through @pcie.  NULL (and @errp
 * set) if the chip's RAM is not in a shareable file.
 */
TTHostMap *tt_host_map_new(TTBlackholeSoC *soc, TTPcie *pcie, Error **errp);
void tt_host_map_free(TTHostMap *hm);

const TTHostMapRam *tt_host_map_ram(TTHostMap *hm);

/* The control region: its file (shared area at TT_HM_SHARED) and size */
int tt_host_map_ctrl_fd(TTHostMap *hm);
uint64_t tt_host_map_ctrl_size(TTHostMap *hm);
/* The shared area as mapped by the server */
const TTHmShared *tt_host_map_shared(TTHostMap *hm);

/*
 * A command batch (TTHmCmd) a client wrote.  Malformed entries are logged
 * and skipped.  Returns false if the batch as a whole is unusable.
 * Called on the server thread without the BQL.
 */
bool tt_host_map_command(TTHostMap *hm, const void *buf, size_t len);

/*
 * @len bytes at @offset of the RAM region, by message: inside one block's
 * area, through the block's address space (code invalidated, parked cores
 * woken as for any write).  False if the range is not in one area.
 */
bool tt_host_map_ram_rw(TTHostMap *hm, uint64_t offset, void *buf,
                        uint64_t len, bool write);

#endif
