/*
 * Tenstorrent Blackhole Tensix tile: 1.5 MiB L1, five baby RISC-V cores each
 * with a private LDM at 0xFFB00000, and the tile's register blocks.
 *
 * Memory: @view holds what every core of the tile sees (L1 at 0, register
 * blocks, slow LDM aliases, and a background region that logs accesses to
 * unmodelled blocks).  Each core's @root holds its private LDM over an alias
 * of @view, and is that CPU's address space.  The layout never changes after
 * realize.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_TENSIX_TILE_H
#define HW_TENSTORRENT_TENSIX_TILE_H

#include "hw/qdev-core.h"
#include "target/riscv/cpu.h"
#include "hw/tenstorrent/grid.h"
#include "hw/tenstorrent/niu.h"
#include "hw/tenstorrent/noc.h"
#include "hw/tenstorrent/noc-overlay.h"
#include "hw/tenstorrent/riscv-debug-regs.h"
#include "hw/tenstorrent/spin-park.h"
#include "hw/tenstorrent/tensix.h"
#include "hw/tenstorrent/tt-tile-map.h"     /* generated from tile-map.yaml */
#include "qom/object.h"

/*
 * The background of a tile's view: the blocks of @map not modelled are
 * QEMU unimplemented devices (LOG_UNIMP, reads 0), and an access between
 * blocks is a guest error naming the tile and the core; it reads 0.
 */
typedef struct TTTileBackground {
    MemoryRegion mr;
    uint8_t x, y;
} TTTileBackground;

void tt_tile_background_init(TTTileBackground *b, Object *owner,
                             MemoryRegion *view, const TTTileRegion *map,
                             int nregions, int x, int y);

/*
 * A tile's L1 and LDMs, one RAM block of @size: anonymous RAM, or the
 * piece at @ram_offset of the chip's shared memory file @ram_fd (which a
 * vfio-user client may map, host-map.c)
 */
bool tt_tile_init_sram(MemoryRegion *mr, DeviceState *owner,
                       const char *name, uint64_t size, int ram_fd,
                       uint64_t ram_offset, Error **errp);

/*
 * A core's Tenstorrent additions to the RISC-V state (custom CSRs, park
 * state), which the CPU's own vmstate does not know; post_load checks
 * the park states of a tile's @n cores with tt_tile_check_park_states()
 */
extern const VMStateDescription vmstate_tt_tile_core;
int tt_tile_check_park_states(RISCVCPU *cores, int n, int x, int y);

#define TYPE_TT_TENSIX_TILE "tt-tensix-tile"
OBJECT_DECLARE_SIMPLE_TYPE(TTTensixTile, TT_TENSIX_TILE)

#define TT_L1_SIZE              TT_TILE_L1_SIZE
#define TT_LDM_BASE             TT_TILE_LDM_BASE
#define TT_LDM_SIZE_DM          0x2000u     /* BRISC, NCRISC */
#define TT_LDM_SIZE_TRISC       0x1000u     /* TRISC0-2 */
#define TT_SLOW_LDM_STRIDE      0x2000u

struct TTTensixTile {
    DeviceState parent_obj;

    /* storage only: each core's QOM parent is its role's CPU cluster */
    RISCVCPU core[TT_CORES_PER_TILE];

    MemoryRegion sram;          /* RAM: L1, then the LDMs */
    MemoryRegion l1;            /* aliases into @sram */
    MemoryRegion view;
    TTTileBackground unmapped;
    MemoryRegion root[TT_CORES_PER_TILE];
    MemoryRegion ldm[TT_CORES_PER_TILE];
    MemoryRegion view_alias[TT_CORES_PER_TILE];
    MemoryRegion slow_ldm[TT_CORES_PER_TILE];
    AddressSpace noc_as;        /* @view as the NOC and the host reach it */

    /* the only CPUs that can map this tile's RAM (RAMBlock.tlb_cpus) */
    CPUState *ram_cpus[TT_CORES_PER_TILE];

    TTRiscvDebugRegs dbg;
    TTNiu niu[TT_NUM_NOCS];
    TTNocOverlay overlay;
    TTTensix tensix;
    TTSpinTile spin;

    /* links */
    TTNoc *noc;                 /* "noc": the fabric, both NOCs */

    /* properties */
    uint8_t x, y;               /* physical NOC0 coordinates */
    uint8_t vx, vy;             /* translated coordinates */
    bool spin_park;             /* park cores that spin on memory */
    bool tb_share;              /* share translations with like tiles */
    bool one_thread;            /* the five cores on one host thread */
    int32_t ram_fd;             /* -1: anonymous RAM; else @sram's file */
    uint64_t ram_offset;        /* @sram's offset in @ram_fd */
};

/* Create the cores as children of @clusters (one per role); call first. */
void tt_tensix_tile_init_cores(TTTensixTile *t, Object *clusters[]);

static inline CPUState *tt_tile_cpu(TTTensixTile *t, TTCoreRole role)
{
    return CPU(&t->core[role]);
}

static inline uint32_t tt_ldm_size(TTCoreRole role)
{
    return role <= TT_NCRISC ? TT_LDM_SIZE_DM : TT_LDM_SIZE_TRISC;
}

#endif
