/*
 * Tenstorrent Blackhole: the host map, the part of the tt-vfio-user
 * protocol that lets a client reach the chip's RAM through shared memory
 * (docs/devel/tenstorrent-host-map.rst).
 *
 * Included by the server (hw/tenstorrent/host-map.c) and by the libttsim
 * library (tools/libttsim/libttsim.c), so it uses plain C types only.
 * Everything is little-endian, like the rest of vfio-user.
 *
 * Two device-specific vfio-user regions, found by index:
 *
 *  - TT_HM_RAM_REGION, the chip's RAM: one sparse-mmap area per block, in
 *    the order of TTHmShared.blocks (each tile's L1, then each GDDR bank),
 *    all in one sealed memfd.  REGION_READ/WRITE inside an area reach the
 *    same bytes by message.
 *  - TT_HM_CTRL_REGION, control: the first page takes command batches
 *    (REGION_WRITE of a TTHmCmd at TT_HM_CMD); the rest, one sparse-mmap
 *    area at TT_HM_SHARED, is written by the server only: TTHmShared, the
 *    block table, the coordinate tables and the code-line bitmaps.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_HOST_MAP_ABI_H
#define HW_TENSTORRENT_HOST_MAP_ABI_H

#include <stdint.h>

#define TT_HM_RAM_REGION        10
#define TT_HM_CTRL_REGION       11
#define TT_HM_NUM_REGIONS       12

/* Control region: command page, then the shared area */
#define TT_HM_CMD               0x0
#define TT_HM_SHARED            0x1000

#define TT_HM_MAGIC             0x4d485454u     /* "TTHM" */
#define TT_HM_VERSION           3

/* Code-line bitmaps: one bit per 64 bytes of L1 */
#define TT_HM_LINE_SHIFT        6

/* Tile bitmaps (wake sets, multicast opt-out) */
#define TT_HM_MAX_TILES         256
#define TT_HM_TILE_WORDS        (TT_HM_MAX_TILES / 64)

/* Coordinate tables cover every 6-bit NOC coordinate */
#define TT_HM_GRID              64

/*
 * Coordinate spaces of a host transaction (issued by the PCIe tile's NIU):
 * NOC0's or NOC1's own numbering, or translated coordinates (the same on
 * both NOCs) when that NIU's NIU_CFG_0 bit 14 is set.
 */
enum {
    TT_HM_SPACE_NOC0,
    TT_HM_SPACE_NOC1,
    TT_HM_SPACE_XLATE,
    TT_HM_SPACES,
};

enum {
    TT_HM_BLOCK_L1 = 1,
    TT_HM_BLOCK_GDDR = 2,
};

/* One RAM block: its mmap area in the RAM region */
typedef struct TTHmBlock {
    uint64_t offset;            /* in the RAM region */
    uint64_t size;              /* bytes a window reaches from address 0 */
    uint32_t kind;              /* TT_HM_BLOCK_* */
    uint32_t id;                /* tile index or physical bank */
    uint32_t x, y;              /* NOC0 coordinates (a bank: its port 0) */
    uint32_t code;              /* L1: offset of its code-line bitmap */
    uint32_t reserved;
} TTHmBlock;

/* At TT_HM_SHARED in the control region */
typedef struct TTHmShared {
    /* set once, before the region is offered */
    uint32_t magic;
    uint32_t version;
    uint32_t size;              /* bytes of the shared area */
    uint32_t nblocks;           /* tile i's L1 is block i; then GDDR */
    uint32_t ntiles;
    uint32_t line_shift;        /* TT_HM_LINE_SHIFT */
    uint32_t blocks;            /* offset of TTHmBlock[nblocks] */
    /*
     * Offset of uint16_t[TT_HM_SPACES][TT_HM_GRID][TT_HM_GRID], indexed
     * [space][y][x]: the RAM block + 1 a unicast to (x, y) reaches, 0 if
     * none (no node, or a node without RAM)
     */
    uint32_t ucast;
    /*
     * Offset of uint8_t[TT_HM_SPACES][ntiles][2]: tile i's (x, y) in that
     * space, what a multicast rectangle is compared with
     */
    uint32_t mcast;
    uint32_t code_words;        /* uint64_t words per code-line bitmap */
    uint32_t reserved0[6];

    /*
     * Changed while the chip runs: a seqlock.  @gen is odd while the server
     * updates the fields after it; a reader retries if @gen was odd or
     * changed.
     */
    uint32_t gen;
    uint32_t epoch;             /* bumped when the endpoint resets */
    uint32_t xlate;             /* bit n: NOC n's PCIe NIU translates */
    uint32_t reserved1;
    /* [n]: tiles that opted out of NOC n's multicast */
    uint64_t optout[2][TT_HM_TILE_WORDS];

    /*
     * Not under the seqlock, atomic per word: tiles with a core out of
     * reset.  Only their cores can be parked on L1, so a client wakes a
     * tile it wrote only if its bit is set, read after the write and a
     * full fence; the server sets a bit before it releases a core, which
     * then sees the write.
     */
    uint64_t live[TT_HM_TILE_WORDS];
} TTHmShared;

/*
 * A command batch, written at TT_HM_CMD (at most TT_HM_CMD_MAX bytes),
 * applied in order: with TT_HM_CMD_SYNC, first the wait for the cores the
 * client's posted SOFT_RESET_0 writes released (it reads or writes the
 * RAM next, as a host read would wait); the TLB configuration writes,
 * then the invalidation of translated code in the ranges, then the
 * wake-ups.
 */
#define TT_HM_CMD_MAGIC         0x444d4354u     /* "TCMD" */
#define TT_HM_CMD_MAX           (16u << 10)
#define TT_HM_CMD_SYNC          1u              /* TTHmCmd.flags */

typedef struct TTHmCmd {
    uint32_t magic;
    uint16_t ntlb;              /* TTHmTlbWrite entries that follow */
    uint16_t nranges;           /* then TTHmRange entries */
    uint32_t flags;             /* TT_HM_CMD_* */
    uint32_t reserved;
    uint64_t wake[TT_HM_TILE_WORDS];        /* tiles whose cores to wake */
} TTHmCmd;

/* A 4-byte BAR0 write to the TLB configuration registers */
typedef struct TTHmTlbWrite {
    uint32_t offset;            /* in BAR0 */
    uint32_t value;
} TTHmTlbWrite;

/* L1 bytes the client wrote over translated code */
typedef struct TTHmRange {
    uint32_t block;
    uint32_t len;
    uint64_t offset;
} TTHmRange;

#endif
