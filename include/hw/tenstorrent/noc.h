/*
 * Tenstorrent Blackhole NOC fabric: one object serving NOC0 and NOC1.
 *
 * The fabric carries a transaction from the NIU that issues it to the node
 * it names: it resolves coordinates (translated or per-NOC), selects the
 * tiles of a multicast rectangle, moves the data between the nodes' address
 * spaces, performs atomics at the target, updates the receiving NIU's
 * counters and wakes the target tile's parked cores.  The issuing NIU
 * (niu.c) latches the command, counts on its own side and hands the
 * transaction over with tt_noc_read(), tt_noc_write() and friends.
 *
 * Threads: transactions complete synchronously in the issuing thread (a
 * core's, with or without the BQL, or the host's).  Nothing here takes a
 * global lock: the data path is address_space_*() on the target, atomics on
 * L1 are host atomics on its RAM, counters are atomics.  The bounce buffer
 * belongs to the issuing NIU and is under that NIU's lock.  The node table
 * is filled at realize and read-only afterwards.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_NOC_H
#define HW_TENSTORRENT_NOC_H

#include "hw/qdev-core.h"
#include "hw/registerfields.h"
#include "hw/tenstorrent/niu-regs.h"     /* the NIU registers it reads */
#include "qemu/notify.h"
#include "system/memory.h"
#include "hw/tenstorrent/grid.h"
#include "qom/object.h"

#define TYPE_TT_NOC "tt-noc"
OBJECT_DECLARE_SIMPLE_TYPE(TTNoc, TT_NOC)

struct TTSpinTile;

/*
 * One NIU's configuration and counter registers: part of the NIU's state
 * (and its VMState), registered with the fabric so that a transaction
 * reaching the tile counts at the receiving end and multicasts honour the
 * router's opt-out.  Written with atomics.
 */
typedef struct TTNocPort {
    uint32_t cfg[TT_NIU_CFG_REGS];
    uint32_t counter[TT_NIU_COUNTERS];
} TTNocPort;

/* A node that serves transactions itself (the PCIe tile), any length */
typedef MemTxResult (*TTNocNodeRw)(void *opaque, uint64_t addr, void *buf,
                                   uint32_t len, bool write);

/* What a transaction reaches at one physical coordinate */
typedef struct TTNocNode {
    AddressSpace *as;           /* NULL: no node */
    MemoryRegion *l1;           /* Tensix L1 RAM, for atomics */
    TTNocPort *port[TT_NUM_NOCS];   /* the receiving NIUs' registers */
    struct TTSpinTile *spin;    /* parked cores to wake on a write */
    TTNocNodeRw rw;             /* if set, used instead of @as */
    void *rw_opaque;
} TTNocNode;

struct TTNoc {
    DeviceState parent_obj;

    TTGrid grid;
    TTNocNode node[TT_GRID_W][TT_GRID_H];
    /* filled before the machine runs; notified from any thread */
    NotifierList routing_notifiers;
    /* a power cycle holds the notifications (tt_noc_routing_hold) */
    bool routing_held, routing_pending;

    /* properties: the grid, as the chip's */
    uint32_t board;
    uint32_t harvested_cols;
    int32_t harvested_dram_bank;
    int32_t pcie;               /* PCIe endpoint in use, -1: the board's */
};

/*
 * Who issues a transaction, as the issuing NIU hands it to the fabric:
 * its NOC, tile and command buffer (for logs; -1 for the host), whether
 * its coordinates are translated (NIU_CFG_0), and its packet buffer
 * (TT_NOC_MAX_PACKET bytes, under the NIU's lock).
 */
typedef struct TTNocReq {
    uint8_t noc;
    uint8_t x, y;               /* physical NOC0 coordinates */
    int buf;
    bool xlate;
    bool posted;                /* no acknowledgement asked */
    uint8_t *data;
} TTNocReq;

/* Fabric wiring, at realize (the chip and the blocks that own a node) */
void tt_noc_add_node(TTNoc *noc, int x, int y, AddressSpace *as,
                     MemoryRegion *l1, struct TTSpinTile *spin);
void tt_noc_set_node_rw(TTNoc *noc, int x, int y, TTNocNodeRw rw,
                        void *opaque);
/* The NIU of NOC @noc_id at physical (x, y) receives with @port */
void tt_noc_attach_port(TTNoc *noc, int noc_id, int x, int y,
                        TTNocPort *port);

/* NOC_NODE_ID of the NIU of NOC @noc at physical NOC0 (x, y) */
uint32_t tt_noc_node_id(int noc, int x, int y);

/*
 * Physical NOC0 coordinates of (x, y) as given to NOC @noc: translated
 * coordinates when @translate (NIU_CFG_0 bit 14), else that NOC's own
 * numbering (NOC1 is reflected).  False if the result is off the grid.
 */
bool tt_noc_resolve(TTNoc *noc, int noc_id, bool translate, int x, int y,
                    int *px, int *py);

/* Node at physical (x, y), or NULL */
const TTNocNode *tt_noc_node(TTNoc *noc, int x, int y);

/* A transaction of @len bytes at @addr of node @n */
MemTxResult tt_noc_node_rw(const TTNocNode *n, uint64_t addr, void *buf,
                           uint32_t len, bool write);

/*
 * Where a multicast rectangle issued on NOC @noc sees Tensix tile @i of
 * @g: its translated column when @xlate, else its physical coordinates
 * in that NOC's numbering
 */
void tt_noc_mcast_xy(const TTGrid *g, int noc, bool xlate, int i, int *x,
                     int *y);
/* Does the router of NOC @noc_id at physical (x, y) refuse multicasts? */
bool tt_noc_mcast_opted_out(TTNoc *noc, int noc_id, int x, int y);

/*
 * Transactions.  Coordinates are as the NIU's registers hold them: a
 * unicast @hi has x in [5:0] and y in [11:6]; a multicast rectangle packs
 * end_x [5:0], end_y [11:6], start_x [17:12], start_y [23:18].  Each
 * counts at the receiving NIUs; the issuer counts on its own side.
 */

/*
 * Read @len bytes at @saddr of node @src_hi into @daddr of node @dst_hi.
 * Returns the number of bytes moved (0: no destination).
 */
uint32_t tt_noc_read(TTNoc *noc, const TTNocReq *r, uint32_t src_hi,
                     uint64_t saddr, uint32_t dst_hi, uint64_t daddr,
                     uint32_t len);
/*
 * Write @len bytes at @saddr of the issuer's tile to @daddr of node
 * @dst_hi, or of every Tensix tile of rectangle @dst_hi when @mcast
 * (the issuer's own only with @self).  Returns the number of
 * destinations and sets *@len to the bytes moved.
 */
int tt_noc_write(TTNoc *noc, const TTNocReq *r, uint64_t saddr,
                 uint32_t dst_hi, bool mcast, bool self, uint64_t daddr,
                 uint32_t *len);
/* Inline write of @data to @addr of node @hi; @be enables L1 bytes */
void tt_noc_write_inline(TTNoc *noc, const TTNocReq *r, uint32_t hi,
                         uint64_t addr, uint32_t data, uint32_t be);
/* Byte-enable write of the 64 bytes at @saddr & ~0xF to @daddr & ~0xF */
void tt_noc_write_be(TTNoc *noc, const TTNocReq *r, uint64_t saddr,
                     uint32_t dst_hi, uint64_t daddr, uint64_t mask);
/*
 * Atomic @len_be (NOC_AT_LEN_BE) with operand @data on the L1 word at
 * @addr of node @hi, or of every Tensix tile of rectangle @hi when @mcast;
 * unless posted, the old value goes back to @ret of the issuer's tile.
 */
void tt_noc_atomic(TTNoc *noc, const TTNocReq *r, uint32_t hi, bool mcast,
                   bool self, uint64_t addr, uint32_t len_be, uint32_t data,
                   uint64_t ret);
/*
 * What a host write started, waited for later (riscv-debug-regs.c).
 * Inside a host access (tt_noc_host_rw) this thread is delivering, have
 * @fn run once: tt_noc_host_at_end(), at the access's end, after it has
 * reached every node (so that a multicast holds its 140 tiles in
 * parallel); tt_noc_host_before_read(), before this thread's next host
 * read or tt_noc_host_sync() (where a host can tell whether a released
 * core has run).  Both return false outside a host access, or with every
 * slot taken: the caller then waits at once, or not at all.
 */
typedef void TTNocHostFn(void);
bool tt_noc_host_at_end(TTNocHostFn *fn);
bool tt_noc_host_before_read(TTNocHostFn *fn);
/* A host read is about to be served some other way: run those now */
void tt_noc_host_sync(void);

/*
 * A host access through a PCIe TLB window: @len bytes between @buf and
 * @addr of node @rect (only writes multicast).  A read from no node
 * returns all-ones, as the host sees an unanswered read.  Returns the
 * number of nodes reached.
 */
int tt_noc_host_rw(TTNoc *noc, const TTNocReq *r, uint32_t rect, bool mcast,
                   uint64_t addr, void *buf, uint32_t len, bool write);

/*
 * Routing state changed: an NIU's coordinate translation or multicast
 * opt-out (NIU_CFG_0, ROUTER_CFG_1/3) was written or reset.  Runs the
 * notifiers on the calling thread (a core's, with or without the BQL).
 */
void tt_noc_routing_changed(TTNoc *noc);
/* Call @n on every routing change; before the machine runs */
void tt_noc_add_routing_notifier(TTNoc *noc, Notifier *n);
/*
 * While @hold (a device reset of the chip, with the BQL and every core
 * held), changes are noted, not notified; releasing notifies once if any
 * came: each of the chip's ~350 NIUs resets its routing registers
 */
void tt_noc_routing_hold(TTNoc *noc, bool hold);

#endif
