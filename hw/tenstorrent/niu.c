/*
 * Tenstorrent Blackhole NOC interface unit registers.
 *
 * Register map: tt-isa-documentation BlackholeA0/NoC/MemoryMap.md and
 * Counters.md, tt-metal noc_parameters.h.
 * NOC_ID_LOGICAL holds the tile's translated coordinates from power-on, as
 * ARC firmware leaves it before the cores start (tt-metal's firmware reads
 * its coordinates there at start-up).
 * A write of NOC_CMD_CTRL runs the command to completion before returning
 * (tt_niu_issue), so command buffers always read back as available.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/lockable.h"
#include "qemu/bswap.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "fpu/softfloat.h"
#include "hw/tenstorrent/niu.h"
#include "hw/tenstorrent/noc.h"
#include "hw/tenstorrent/spin-park.h"
#include "trace.h"

/* Atomic opcodes, NOC_AT_LEN_BE[14:12] (tt-metal noc_parameters.h) */
enum {
    TT_AT_NOP = 0,
    TT_AT_INCR_GET = 1,
    TT_AT_INCR_GET_PTR = 2,
    TT_AT_SWAP = 3,
    TT_AT_CAS = 4,
    TT_AT_GET_TILE_MAP = 5,
    TT_AT_STORE_IND = 6,
    TT_AT_SWAP_4B = 7,
    TT_AT_ACC = 9,
};

void tt_niu_count(TTNiu *s, int counter, uint32_t n)
{
    qatomic_add(&s->counter[counter], n);
}

void tt_niu_connect(TTNiu *s, TTNoc *noc, AddressSpace *local)
{
    s->fabric = noc;
    s->local = local;
}

uint32_t tt_niu_node_id(int noc, int x, int y)
{
    /* NOC1 counts from the opposite corner (tt-umd NOC0_X_TO_NOC1_X) */
    uint32_t id = FIELD_DP32(0, NOC_NODE_ID, X, noc ? TT_GRID_W - 1 - x : x);

    id = FIELD_DP32(id, NOC_NODE_ID, Y, noc ? TT_GRID_H - 1 - y : y);
    id = FIELD_DP32(id, NOC_NODE_ID, WIDTH, TT_GRID_W);
    id = FIELD_DP32(id, NOC_NODE_ID, HEIGHT, TT_GRID_H);
    return FIELD_DP32(id, NOC_NODE_ID, X_FIRST, noc == 0);
}

/* One command buffer's registers, as latched at NOC_CMD_CTRL time */
typedef struct TTNiuCmd {
    TTNiu *niu;
    int buf;
    uint32_t ctrl;
    uint64_t targ, ret;
    uint32_t targ_hi, ret_hi;
    uint32_t len_be, data;
    int txn;
} TTNiuCmd;

static void tt_niu_cmd_error(TTNiuCmd *c, const char *what)
{
    qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d NOC%d buf %d: %s\n", c->niu->x,
                  c->niu->y, c->niu->noc, c->buf, what);
}

/* Node at a unicast coordinate field ([5:0] x, [11:6] y) */
static const TTNocNode *tt_niu_node(TTNiuCmd *c, uint32_t hi)
{
    TTNiu *s = c->niu;
    bool xlate = FIELD_EX32(s->cfg[0], NIU_CFG_0, COORD_TRANSLATE_EN);
    int px, py;
    const TTNocNode *n = NULL;

    if (tt_noc_resolve(s->fabric, s->noc, xlate, hi & 0x3f, (hi >> 6) & 0x3f,
                       &px, &py)) {
        n = tt_noc_node(s->fabric, px, py);
    }
    if (!n) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d NOC%d: no node at (%u, %u)"
                      "%s\n", s->x, s->y, s->noc, hi & 0x3f,
                      (hi >> 6) & 0x3f, xlate ? " (translated)" : "");
    }
    return n;
}

/* A write reached a Tensix tile: its parked cores may be waiting for it */
static void tt_niu_wake(const TTNocNode *n)
{
    if (n->niu[0] && n->niu[0]->spin) {
        tt_spin_wake(n->niu[0]->spin);
    }
}

static MemTxResult tt_niu_rw(TTNoc *noc, const TTNocNode *n, uint64_t addr,
                             void *buf, uint32_t len, bool write)
{
    MemTxResult r = tt_noc_node_rw(n, addr, buf, len, write);

    if (write) {
        tt_niu_wake(n);
    }
    return r;
}

static uint32_t tt_niu_len(TTNiuCmd *c, bool l1_to_l1)
{
    uint32_t len = c->len_be;

    if (len > TT_NOC_MAX_PACKET && !l1_to_l1) {
        tt_niu_cmd_error(c, "transfer over 16 KiB to or from a non-L1 "
                         "target: truncated to one packet");
        len = TT_NOC_MAX_PACKET;
    }
    return len;
}

/*
 * Only 4-byte accesses reach a tile's MMIO: anything else
 * is logged and moves the one aligned word holding the address.
 */
static uint32_t tt_niu_mmio_len(TTNiuCmd *c, const TTNocNode *n,
                                uint64_t *addr, uint32_t len)
{
    if (!n || !n->l1 || *addr < memory_region_size(n->l1) ||
        (len == 4 && !(*addr & 3))) {
        return len;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d NOC%d buf %d: %u-byte access to "
                  "MMIO 0x%" PRIx64 ": only 4-byte accesses reach MMIO; one "
                  "word moved\n", c->niu->x, c->niu->y, c->niu->noc, c->buf,
                  len, *addr);
    *addr &= ~3ull;
    return 4;
}

static uint32_t tt_flits(uint32_t len)
{
    return DIV_ROUND_UP(len, TT_NOC_FLIT);
}

/* Copy @len bytes in packet-sized pieces; hardware splits L1 transfers */
static bool tt_niu_copy(TTNiuCmd *c, const TTNocNode *src, uint64_t saddr,
                        const TTNocNode *const *dst, int ndst, uint64_t daddr,
                        uint32_t len)
{
    TTNiu *s = c->niu;

    /*
     * Bytes with no destination, or past the end of the destinations' L1
     * (every multicast destination is a Tensix L1 of the same size), reach
     * nothing: stop there.  The length field has 32 bits, and moving the
     * rest packet by packet would hold the NIU for minutes.
     */
    if (!ndst) {
        return true;
    }
    if (dst[0]->l1 && daddr < memory_region_size(dst[0]->l1) &&
        len > memory_region_size(dst[0]->l1) - daddr) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d NOC%d buf %d: %u-byte "
                      "transfer to L1 0x%" PRIx64 " runs past the end of "
                      "L1; the rest is dropped\n", s->x, s->y, s->noc,
                      c->buf, len, daddr);
        len = memory_region_size(dst[0]->l1) - daddr;
    }
    for (uint32_t done = 0; done < len; done += TT_NOC_MAX_PACKET) {
        uint32_t n = MIN(len - done, TT_NOC_MAX_PACKET);

        if (!src || tt_niu_rw(s->fabric, src, saddr + done, s->buf, n,
                              false)) {
            if (src) {
                tt_niu_cmd_error(c, "read from the source failed");
            }
            memset(s->buf, 0xff, n);    /* unmapped reads return ones */
        }
        for (int i = 0; i < ndst; i++) {
            if (tt_niu_rw(s->fabric, dst[i], daddr + done, s->buf, n, true)) {
                tt_niu_cmd_error(c, "write to the destination failed");
            }
        }
    }
    return true;
}

static uint32_t *tt_niu_reg(TTNiu *s, hwaddr addr, bool *ro)
{
    *ro = false;
    /* Buffer i's registers sit at i * 0x800; the NIU's own follow buf 0's */
    if (addr < TT_NIU_CMD_BUFS * TT_NIU_CMD_BUF_STRIDE &&
        addr % TT_NIU_CMD_BUF_STRIDE < TT_NIU_CMD_BUF_REGS * 4) {
        hwaddr off = addr % TT_NIU_CMD_BUF_STRIDE;

        *ro = off == A_NOC_NODE_ID || off == A_NOC_ENDPOINT_ID;
        return &s->cmd[addr / TT_NIU_CMD_BUF_STRIDE][off / 4];
    }
    if (addr >= A_NIU_CFG_0 && addr < A_NIU_CFG_0 + TT_NIU_CFG_REGS * 4) {
        return &s->cfg[(addr - A_NIU_CFG_0) / 4];
    }
    if (addr >= A_NIU_MST_ATOMIC_RESP_RECEIVED &&
        addr < A_NIU_MST_ATOMIC_RESP_RECEIVED + TT_NIU_COUNTERS * 4) {
        *ro = true;
        return &s->counter[(addr - A_NIU_MST_ATOMIC_RESP_RECEIVED) / 4];
    }
    return NULL;
}

static bool tt_in_span(int v, int start, int end)
{
    return start <= end ? v >= start && v <= end : v <= end || v >= start;
}

/*
 * Broadcast opt-out (MemoryMap.md: ROUTER_CFG_1 one bit per column,
 * ROUTER_CFG_3 one per row, in this NOC's physical coordinates): a router
 * whose own column or row bit is set does not deliver multicasts locally.
 */
bool tt_niu_mcast_opted_out(const TTNiu *d)
{
    int x = d->noc ? TT_GRID_W - 1 - d->x : d->x;
    int y = d->noc ? TT_GRID_H - 1 - d->y : d->y;

    return extract32(d->cfg[A_ROUTER_CFG_1 / 4 - A_NIU_CFG_0 / 4], x, 1) ||
           extract32(d->cfg[A_ROUTER_CFG_3 / 4 - A_NIU_CFG_0 / 4], y, 1);
}

void tt_niu_mcast_xy(const TTGrid *g, int noc, bool xlate, int i, int *x,
                     int *y)
{
    *x = xlate ? g->tile_vx[i] : g->tile_x[i];
    *y = g->tile_y[i];
    if (!xlate && noc) {
        *x = TT_GRID_W - 1 - *x;
        *y = TT_GRID_H - 1 - *y;
    }
}

/*
 * Tensix tiles in a multicast rectangle (end_x [5:0], end_y [11:6],
 * start_x [17:12], start_y [23:18]) in the issuing NOC's coordinates,
 * less those that opted out; other nodes never receive multicasts.
 */
static int tt_niu_mcast_nodes(TTNiuCmd *c, uint32_t hi,
                              const TTNocNode **out)
{
    TTNiu *s = c->niu;
    const TTGrid *g = s->fabric->grid;
    bool xlate = FIELD_EX32(s->cfg[0], NIU_CFG_0, COORD_TRANSLATE_EN);
    bool self = FIELD_EX32(c->ctrl, NOC_CTRL, BRCST_SRC_INCLUDE);
    int ex = hi & 0x3f, ey = (hi >> 6) & 0x3f;
    int sx = (hi >> 12) & 0x3f, sy = (hi >> 18) & 0x3f;
    int n = 0;

    /*
     * The span runs from start to end in the direction of this NOC's data
     * flow, wrapping past the grid's edge when start is beyond end (each
     * NOC is a torus, tt-isa-documentation BlackholeA0/NoC/README.md).
     * Translated coordinates are NOC 0's for both NOCs but do not change
     * NOC 1's direction, leftwards and upwards: software swaps
     * StartX with EndX and StartY with EndY for a NOC 1 broadcast
     * (WormholeB0/NoC/Coordinates.md, "Coordinate Translation"; ttsim
     * src/tile.cpp checks start >= end on NOC 1 and swaps).  So on NOC 1
     * with translation the span runs downwards from start to end.
     */
    if (xlate && s->noc) {
        int t = sx;

        sx = ex;
        ex = t;
        t = sy;
        sy = ey;
        ey = t;
    }

    for (int i = 0; i < g->ntiles; i++) {
        int x, y;

        tt_niu_mcast_xy(g, s->noc, xlate, i, &x, &y);
        if (!tt_in_span(x, sx, ex) || !tt_in_span(y, sy, ey) ||
            (!self && g->tile_x[i] == s->x && g->tile_y[i] == s->y)) {
            continue;
        }
        out[n] = tt_noc_node(s->fabric, g->tile_x[i], g->tile_y[i]);
        if (!tt_niu_mcast_opted_out(out[n]->niu[s->noc])) {
            n++;
        }
    }
    return n;
}

static void tt_niu_do_read(TTNiuCmd *c, const TTNocNode *self)
{
    TTNiu *s = c->niu;
    const TTNocNode *src = tt_niu_node(c, c->targ_hi);
    const TTNocNode *dst = tt_niu_node(c, c->ret_hi);
    uint32_t len;

    tt_niu_count(s, TT_MST_RD_REQ_STARTED, 1);
    tt_niu_count(s, TT_MST_RD_REQ_SENT, 1);
    if (dst) {
        uint64_t saddr = c->targ, daddr = c->ret;

        len = tt_niu_len(c, (!src || src->l1) && dst->l1);
        len = tt_niu_mmio_len(c, src, &saddr, len);
        len = tt_niu_mmio_len(c, dst, &daddr, len);
        /* a read from no node returns all-ones (tt_niu_copy) */
        tt_niu_copy(c, src, saddr, &dst, 1, daddr, len);
        if (src && src->niu[s->noc]) {
            tt_niu_count(src->niu[s->noc], TT_SLV_RD_REQ_RECEIVED, 1);
            tt_niu_count(src->niu[s->noc], TT_SLV_RD_RESP_SENT, 1);
        }
        tt_niu_count(s, TT_MST_RD_DATA_WORD_RECEIVED, tt_flits(len));
    }
    /* the response completes even when nothing answered */
    tt_niu_count(s, TT_MST_RD_RESP_RECEIVED, 1);
}

static void tt_niu_do_write(TTNiuCmd *c, const TTNocNode *self)
{
    TTNiu *s = c->niu;
    bool posted = !FIELD_EX32(c->ctrl, NOC_CTRL, RESP_MARKED);
    const TTNocNode *dst[TT_MAX_TILES];
    uint32_t len = c->len_be;
    uint64_t saddr = c->targ, daddr = c->ret;
    int n;

    if (FIELD_EX32(c->ctrl, NOC_CTRL, BRCST_PACKET)) {
        n = tt_niu_mcast_nodes(c, c->ret_hi, dst);
        if (n) {
            /* every destination is a Tensix tile: the same address map */
            len = tt_niu_mmio_len(c, dst[0], &daddr, len);
        }
    } else {
        dst[0] = tt_niu_node(c, c->ret_hi);
        n = dst[0] != NULL;
        if (n) {
            len = tt_niu_len(c, dst[0]->l1 != NULL);
            len = tt_niu_mmio_len(c, dst[0], &daddr, len);
        }
    }
    len = tt_niu_mmio_len(c, self, &saddr, len);
    tt_niu_count(s, posted ? TT_MST_POSTED_WR_REQ_STARTED
                           : TT_MST_NONPOSTED_WR_REQ_STARTED, 1);
    tt_niu_copy(c, self, saddr, dst, n, daddr, len);
    for (int i = 0; i < n; i++) {
        if (dst[i]->niu[s->noc]) {
            tt_niu_count(dst[i]->niu[s->noc], posted
                         ? TT_SLV_POSTED_WR_REQ_RECEIVED
                         : TT_SLV_NONPOSTED_WR_REQ_RECEIVED, 1);
        }
    }
    tt_niu_count(s, posted ? TT_MST_POSTED_WR_REQ_SENT
                           : TT_MST_NONPOSTED_WR_REQ_SENT, 1);
    tt_niu_count(s, posted ? TT_MST_POSTED_WR_DATA_WORD_SENT
                           : TT_MST_NONPOSTED_WR_DATA_WORD_SENT,
                 tt_flits(len));
    if (!posted) {
        /* one acknowledgement per destination, even a failed one */
        tt_niu_count(s, TT_MST_WR_ACK_RECEIVED, MAX(n, 1));
    }
}

/*
 * Inline write of AT_DATA to TARG (tt-isa-documentation NoC/MemoryMap.md):
 * to MMIO the byte enables are ignored and 32 bits are stored; to L1 (a
 * Blackhole hazard tt-metal avoids) AT_LEN_BE enables bytes of the 64-byte
 * word holding the address, the value repeating in each 4-byte lane.
 */
static void tt_niu_do_inline(TTNiuCmd *c)
{
    TTNiu *s = c->niu;
    const TTNocNode *dst = tt_niu_node(c, c->targ_hi);
    bool posted = !FIELD_EX32(c->ctrl, NOC_CTRL, RESP_MARKED);
    uint8_t data[4];

    stl_le_p(data, c->data);
    if (dst && dst->l1 && c->targ < TT_TILE_L1_SIZE) {
        qemu_log_mask(LOG_GUEST_ERROR, "x%dy%d NOC%d: inline write to L1 "
                      "0x%" PRIx64 " (unsafe on Blackhole hardware)\n",
                      s->x, s->y, s->noc, c->targ);
        for (int i = 0; i < 32; i++) {
            if (c->len_be & BIT(i)) {
                tt_niu_rw(s->fabric, dst, (c->targ & ~63ull) + i,
                          &data[i & 3], 1, true);
            }
        }
    } else if (dst && tt_niu_rw(s->fabric, dst, c->targ & ~3ull, data, 4,
                                true)) {
        tt_niu_cmd_error(c, "inline write failed");
    }
    tt_niu_count(s, posted ? TT_MST_POSTED_WR_REQ_STARTED
                           : TT_MST_NONPOSTED_WR_REQ_STARTED, 1);
    tt_niu_count(s, posted ? TT_MST_POSTED_WR_REQ_SENT
                           : TT_MST_NONPOSTED_WR_REQ_SENT, 1);
    if (!posted) {
        tt_niu_count(s, TT_MST_WR_ACK_RECEIVED, 1);
    }
}

/*
 * Byte-enable write (MemoryMap.md): AT_LEN_BE_1:AT_LEN_BE is a 64-bit mask
 * over the 64 bytes from RET & ~0xF, taken from TARG & ~0xF; to MMIO the
 * mask is ignored and one 32-bit word is stored.
 */
static void tt_niu_do_write_be(TTNiuCmd *c, const TTNocNode *self)
{
    TTNiu *s = c->niu;
    bool posted = !FIELD_EX32(c->ctrl, NOC_CTRL, RESP_MARKED);
    const TTNocNode *dst = tt_niu_node(c, c->ret_hi);
    uint64_t mask = deposit64(c->len_be, 32, 32,
                              s->cmd[c->buf][A_NOC_AT_LEN_BE_1 / 4]);
    uint64_t src = c->targ & ~15ull, ret = c->ret & ~15ull;

    if (dst && tt_niu_rw(s->fabric, self, src, s->buf, 64, false)) {
        tt_niu_cmd_error(c, "byte-enable write: local read failed");
    } else if (dst && !dst->l1) {
        tt_niu_rw(s->fabric, dst, c->ret & ~3ull, s->buf + (c->targ & 12), 4,
                  true);
    } else if (dst) {
        for (int i = 0; i < 64; i++) {
            if (mask & BIT_ULL(i)) {
                tt_niu_rw(s->fabric, dst, ret + i, s->buf + i, 1, true);
            }
        }
    }
    tt_niu_count(s, posted ? TT_MST_POSTED_WR_REQ_SENT
                           : TT_MST_NONPOSTED_WR_REQ_SENT, 1);
    if (!posted) {
        tt_niu_count(s, TT_MST_WR_ACK_RECEIVED, 1);
    }
}

/* Add @add into the 32-bit word at @p modulo 2^(width + 1), atomically */
static uint32_t tt_atomic_add_masked(uint32_t *p, uint32_t add,
                                     uint32_t width)
{
    uint32_t mask = width == 31 ? UINT32_MAX : (2u << width) - 1;
    uint32_t old, new;

    do {
        old = qatomic_read(p);
        new = (old & ~mask) | ((old + add) & mask);
    } while (qatomic_cmpxchg(p, old, new) != old);
    return old;
}

/* ACC formats, NOC_AT_LEN_BE[2:0]; bit 3 disables saturation */
enum {
    TT_ACC_FP32, TT_ACC_FP16_A, TT_ACC_FP16_B, TT_ACC_INT32,
    TT_ACC_INT32_COMPL, TT_ACC_INT32_UNS, TT_ACC_INT8, TT_ACC_UINT8,
};

/* Tensix integers are sign-magnitude (tt-isa-doc TensixCoprocessor/Dst.md) */
static int64_t tt_sm_to_int(uint32_t v, int bits)
{
    int64_t mag = v & ((1ull << (bits - 1)) - 1);

    return v >> (bits - 1) & 1 ? -mag : mag;
}

static uint32_t tt_int_to_sm(int64_t v, int bits, bool sat)
{
    uint64_t max = (1ull << (bits - 1)) - 1;
    uint64_t mag = v < 0 ? -v : v;

    mag = sat ? MIN(mag, max) : mag & max;
    return (v < 0 ? 1u << (bits - 1) : 0) | mag;
}

static uint32_t tt_acc_lane(int fmt, bool sat, uint32_t a, uint32_t b,
                            float_status *st)
{
    uint64_t sum;

    switch (fmt) {
    case TT_ACC_FP32:
        return float32_val(float32_add(make_float32(a), make_float32(b), st));
    case TT_ACC_FP16_A:
        return float16_val(float16_add(make_float16(a), make_float16(b), st));
    case TT_ACC_FP16_B:
        return bfloat16_add(a, b, st);
    case TT_ACC_INT32:
        return tt_int_to_sm(tt_sm_to_int(a, 32) + tt_sm_to_int(b, 32), 32,
                            sat);
    case TT_ACC_INT8:
        return tt_int_to_sm(tt_sm_to_int(a, 8) + tt_sm_to_int(b, 8), 8, sat);
    case TT_ACC_INT32_UNS:
        sum = (uint64_t)a + b;
        return sat && sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
    case TT_ACC_UINT8:
        sum = (uint64_t)a + b;
        return sat && sum > UINT8_MAX ? UINT8_MAX : (uint8_t)sum;
    default:                    /* INT32_COMPL: two's complement, wraps */
        return a + b;
    }
}

/*
 * ACC: element-wise accumulate of AT_DATA, repeated across the 16-byte
 * block, into the block (tenstorrent-docs hardware/blackhole-emulator-specs/
 * noc-atomics.md): FP32/INT32 x4, FP16/BF16 x8
 * (AT_DATA's two halves alternate), INT8/UINT8 x16.  Denormals flush to zero;
 * rounding is to nearest even (that page is silent, like the ISA pages).
 * Lanes never cross a word, so each word is updated atomically on its own.
 */
static void tt_atomic_acc(TTNiuCmd *c, uint32_t *blk, uint32_t instrn)
{
    int fmt = instrn & 7, bits = fmt <= TT_ACC_FP16_B
        ? (fmt == TT_ACC_FP32 ? 32 : 16)
        : (fmt >= TT_ACC_INT8 ? 8 : 32);
    bool sat = !(instrn & 8);
    float_status st = { };

    set_float_rounding_mode(float_round_nearest_even, &st);
    set_flush_to_zero(true, &st);
    set_flush_inputs_to_zero(true, &st);
    set_default_nan_mode(true, &st);
    set_float_default_nan_pattern(0b01000000, &st);
    set_float_2nan_prop_rule(float_2nan_prop_s_ab, &st);
    for (int i = 0; i < 4; i++) {
        uint32_t old, new;

        do {
            old = qatomic_read(&blk[i]);
            new = 0;
            for (int sh = 0; sh < 32; sh += bits) {
                uint32_t m = bits == 32 ? UINT32_MAX : (1u << bits) - 1;

                new |= (tt_acc_lane(fmt, sat, (old >> sh) & m,
                                    (c->data >> sh) & m, &st) & m) << sh;
            }
        } while (qatomic_cmpxchg(&blk[i], old, new) != old);
    }
}

/*
 * INCR_GET_PTR (tenstorrent-docs hardware/blackhole-emulator-specs/
 * noc-atomics.md): the word advances by INCR [9:6] (0 means 1) and
 * returns to 0 when a WRAP [5:2] is set and the new value reaches it.
 */
static uint32_t tt_atomic_incr_ptr(uint32_t *p, uint32_t len_be)
{
    uint32_t incr = extract32(len_be, 6, 4) ?: 1, wrap = extract32(len_be, 2,
                                                                   4);
    uint32_t old, new;

    do {
        old = qatomic_read(p);
        new = old + incr;
        if (wrap && new >= wrap) {
            new = 0;
        }
    } while (qatomic_cmpxchg(p, old, new) != old);
    return old;
}

/*
 * One atomic on the 16-byte L1 block holding TARG (tt-isa-documentation
 * WormholeB0/NoC/Atomics.md; the Blackhole page is the same per its
 * README).  Returns the 32-bit word at TARG as it was before.
 */
static uint32_t tt_niu_atomic_block(TTNiuCmd *c, uint32_t *blk)
{
    uint32_t len_be = c->len_be, op = FIELD_EX32(len_be, NOC_AT_LEN_BE, INS);
    uint32_t *targ = &blk[(c->targ >> 2) & 3];
    uint32_t *word = &blk[FIELD_EX32(len_be, NOC_AT_LEN_BE, IND_32)];
    uint32_t result = qatomic_read(targ), old;
    uint16_t *half = (uint16_t *)blk;

    switch (op) {
    case TT_AT_INCR_GET:
        old = tt_atomic_add_masked(word, c->data,
                                   FIELD_EX32(len_be, NOC_AT_LEN_BE,
                                              INT_WIDTH));
        break;
    case TT_AT_INCR_GET_PTR:
        old = tt_atomic_incr_ptr(word, len_be);
        break;
    case TT_AT_CAS:
        old = qatomic_cmpxchg(word,
                              FIELD_EX32(len_be, NOC_AT_LEN_BE, CAS_CMP),
                              FIELD_EX32(len_be, NOC_AT_LEN_BE, CAS_SET));
        break;
    case TT_AT_SWAP:
        /* Mask [9:2]: 16-bit lanes, even lanes AT_DATA[15:0], odd [31:16] */
        for (int i = 0; i < 8; i++) {
            if (len_be & BIT(2 + i)) {
                qatomic_set(&half[i], (uint16_t)(c->data >> (16 * (i & 1))));
            }
        }
        return result;
    case TT_AT_STORE_IND:       /* swap, index variant: Ofs [1:0] */
        old = qatomic_xchg(word, c->data);
        break;
    case TT_AT_SWAP_4B:         /* swap, index variant: Ofs [3:2] */
        word = &blk[(len_be >> 2) & 3];
        old = qatomic_xchg(word, c->data);
        break;
    case TT_AT_ACC:
        tt_atomic_acc(c, blk, len_be);
        return result;
    case TT_AT_GET_TILE_MAP:
        qemu_log_mask(LOG_UNIMP, "x%dy%d NOC%d: GET_TILE_MAP is not "
                      "documented; memory unchanged\n", c->niu->x, c->niu->y,
                      c->niu->noc);
        return result;
    default:
        qemu_log_mask(LOG_UNIMP, "x%dy%d NOC%d: atomic opcode %u is not "
                      "documented; memory unchanged\n", c->niu->x,
                      c->niu->y, c->niu->noc, op);
        return result;
    }
    return word == targ ? old : result;
}

static void tt_niu_do_atomic(TTNiuCmd *c, const TTNocNode *self)
{
    TTNiu *s = c->niu;
    bool posted = !FIELD_EX32(c->ctrl, NOC_CTRL, RESP_MARKED);
    const TTNocNode *dst[TT_MAX_TILES];
    uint64_t block = c->targ & ~15ull;
    uint32_t old = 0;
    uint8_t ret[4];
    int n;

    if (FIELD_EX32(c->ctrl, NOC_CTRL, BRCST_PACKET)) {
        n = tt_niu_mcast_nodes(c, c->targ_hi, dst);
    } else {
        dst[0] = tt_niu_node(c, c->targ_hi);
        n = dst[0] != NULL;
    }
    for (int i = 0; i < n; i++) {
        /* TARG has 64 bits: block + 16 could wrap around to a small value */
        if (!dst[i]->l1 || block >= memory_region_size(dst[i]->l1) ||
            memory_region_size(dst[i]->l1) - block < 16) {
            tt_niu_cmd_error(c, "atomic target is not Tensix L1: dropped");
            continue;
        }
        old = tt_niu_atomic_block(c, (uint32_t *)
                                  ((uint8_t *)memory_region_get_ram_ptr(
                                      dst[i]->l1) + block));
        tt_niu_wake(dst[i]);
        tt_niu_count(dst[i]->niu[s->noc], posted
                     ? TT_SLV_POSTED_ATOMIC_RECEIVED
                     : TT_SLV_NONPOSTED_ATOMIC_RECEIVED, 1);
    }
    if (posted) {
        tt_niu_count(s, TT_MST_POSTED_ATOMIC_SENT, 1);
        return;
    }
    tt_niu_count(s, TT_MST_NONPOSTED_ATOMIC_STARTED, 1);
    tt_niu_count(s, TT_MST_NONPOSTED_ATOMIC_SENT, 1);
    stl_le_p(ret, old);
    if (tt_niu_rw(s->fabric, self, c->ret, ret, 4, true)) {
        tt_niu_cmd_error(c, "atomic return write failed");
    }
    tt_niu_count(s, TT_MST_ATOMIC_RESP_RECEIVED, 1);
}

/* NOC_CMD_CTRL written: run the command to completion (called locked) */
static void tt_niu_issue(TTNiu *s, int buf)
{
    uint32_t *r = s->cmd[buf];
    TTNiuCmd c = {
        .niu = s, .buf = buf,
        .ctrl = r[A_NOC_CTRL / 4],
        .targ = deposit64(r[A_NOC_TARG_ADDR_LO / 4], 32, 32,
                          r[A_NOC_TARG_ADDR_MID / 4]),
        .ret = deposit64(r[A_NOC_RET_ADDR_LO / 4], 32, 32,
                         r[A_NOC_RET_ADDR_MID / 4]),
        .targ_hi = r[A_NOC_TARG_ADDR_HI / 4],
        .ret_hi = r[A_NOC_RET_ADDR_HI / 4],
        .len_be = r[A_NOC_AT_LEN_BE / 4],
        .data = r[A_NOC_AT_DATA / 4],
        .txn = FIELD_EX32(r[A_NOC_PACKET_TAG / 4], NOC_PACKET_TAG, TXN_ID),
    };
    const TTNocNode *self = tt_noc_node(s->fabric, s->x, s->y);

    trace_tt_niu_cmd(s->x, s->y, s->noc, buf, c.ctrl, c.targ_hi, c.targ,
                     c.ret_hi, c.ret, c.len_be);
    tt_niu_count(s, TT_MST_CMD_ACCEPTED, 1);
    if (FIELD_EX32(c.ctrl, NOC_CTRL, L1_ACC_AT_EN)) {
        if (FIELD_EX32(c.ctrl, NOC_CTRL, AT)) {
            /* the atomic's opcode and operands come from L1_ACC_AT_INSTRN */
            c.len_be = r[A_NOC_L1_ACC_AT_INSTRN / 4];
        } else {
            qemu_log_mask(LOG_UNIMP, "x%dy%d NOC%d: L1-accumulate write (a "
                          "Blackhole hardware bug): done as a plain write\n",
                          s->x, s->y, s->noc);
        }
    }
    if (FIELD_EX32(c.ctrl, NOC_CTRL, AT)) {
        tt_niu_do_atomic(&c, self);
    } else if (!FIELD_EX32(c.ctrl, NOC_CTRL, WR)) {
        tt_niu_do_read(&c, self);
    } else if (FIELD_EX32(c.ctrl, NOC_CTRL, WR_INLINE)) {
        tt_niu_do_inline(&c);
    } else if (FIELD_EX32(c.ctrl, NOC_CTRL, WR_BE)) {
        tt_niu_do_write_be(&c, self);
    } else {
        tt_niu_do_write(&c, self);
    }
    trace_tt_niu_cmd_done(s->x, s->y, s->noc, buf);
}

/*
 * A host access through a PCIe TLB window, issued by this NIU (the PCIe
 * tile's).  Only writes multicast; a read from no node returns all-ones,
 * as the host sees an unanswered read.
 */
void tt_niu_host_rw(TTNiu *s, uint32_t rect, bool mcast, uint64_t addr,
                    void *buf, uint32_t len, bool write)
{
    TTNiuCmd c = { .niu = s, .buf = -1 };
    const TTNocNode *dst[TT_MAX_TILES];
    int n;

    QEMU_LOCK_GUARD(&s->lock);
    tt_niu_count(s, TT_MST_CMD_ACCEPTED, 1);
    if (mcast && write) {
        n = tt_niu_mcast_nodes(&c, rect, dst);
    } else {
        dst[0] = tt_niu_node(&c, rect);
        n = dst[0] != NULL;
    }
    if (!n) {
        if (!write) {
            memset(buf, 0xff, len);
        }
        return;
    }
    if (!mcast) {
        uint32_t l = tt_niu_mmio_len(&c, dst[0], &addr, len);

        if (l < len && !write) {
            memset(buf, 0xff, len);
        }
        len = l;
    }
    for (int i = 0; i < n; i++) {
        if (tt_niu_rw(s->fabric, dst[i], addr, buf, len, write)) {
            tt_niu_cmd_error(&c, write ? "host write failed"
                                       : "host read failed");
            if (!write) {
                memset(buf, 0xff, len);
            }
        }
        if (dst[i]->niu[s->noc]) {
            tt_niu_count(dst[i]->niu[s->noc], write
                         ? TT_SLV_POSTED_WR_REQ_RECEIVED
                         : TT_SLV_RD_REQ_RECEIVED, 1);
        }
    }
    tt_niu_count(s, write ? TT_MST_POSTED_WR_REQ_SENT : TT_MST_RD_REQ_SENT, 1);
}

static uint64_t tt_niu_read(void *opaque, hwaddr addr, unsigned size)
{
    TTNiu *s = opaque;
    uint32_t *reg, val = 0;
    bool ro;

    switch (addr) {
    case A_CMD_BUF_AVAIL:
        val = TT_NIU_CMD_BUF_ALL_FREE;
        break;
    case A_NOC_CLEAR_OUTSTANDING_REQ_CNT:
    case A_CMD_BUF_OVFL:
        break;
    default:
        reg = tt_niu_reg(s, addr, &ro);
        if (reg) {
            val = qatomic_read(reg);
        } else {
            qemu_log_mask(LOG_UNIMP, "%s: NOC%d: unimplemented register "
                          "0x%" HWADDR_PRIx "\n", __func__, s->noc, addr);
        }
    }
    trace_tt_niu_read(s->node_id, s->noc, addr, val);
    return val;
}

static void tt_niu_write(void *opaque, hwaddr addr, uint64_t val,
                         unsigned size)
{
    TTNiu *s = opaque;
    uint32_t *reg;
    bool ro;

    trace_tt_niu_write(s->node_id, s->noc, addr, val);
    if (addr < TT_NIU_CMD_BUFS * TT_NIU_CMD_BUF_STRIDE &&
        addr % TT_NIU_CMD_BUF_STRIDE == A_NOC_CMD_CTRL) {
        /* transfers complete synchronously: CMD_CTRL reads back 0 */
        if (val & 1) {
            WITH_QEMU_LOCK_GUARD(&s->lock) {
                tt_niu_issue(s, addr / TT_NIU_CMD_BUF_STRIDE);
            }
            tt_spin_wake(s->spin);      /* the counters moved */
        }
        return;
    }
    if (addr == A_NOC_CLEAR_OUTSTANDING_REQ_CNT) {
        return;     /* nothing is ever outstanding: transfers are synchronous */
    }
    reg = tt_niu_reg(s, addr, &ro);
    if (!reg) {
        qemu_log_mask(LOG_UNIMP, "%s: NOC%d: unimplemented register "
                      "0x%" HWADDR_PRIx "\n", __func__, s->noc, addr);
        return;
    }
    if (ro) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: NOC%d: write to read-only "
                      "register 0x%" HWADDR_PRIx " ignored\n", __func__,
                      s->noc, addr);
        return;
    }
    qatomic_set(reg, val);
    if (addr >= A_NIU_CFG_0) {
        tt_spin_wake(s->spin);
        if (addr == A_NIU_CFG_0 || addr == A_ROUTER_CFG_1 ||
            addr == A_ROUTER_CFG_3) {
            tt_noc_routing_changed(s->fabric);
        }
    }
}

static const MemoryRegionOps tt_niu_ops = {
    .read = tt_niu_read,
    .write = tt_niu_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

static void tt_niu_reset_hold(Object *obj, ResetType type)
{
    TTNiu *s = TT_NIU(obj);

    memset(s->cmd, 0, sizeof(s->cmd));
    memset(s->cfg, 0, sizeof(s->cfg));
    memset(s->counter, 0, sizeof(s->counter));
    for (int b = 0; b < TT_NIU_CMD_BUFS; b++) {
        s->cmd[b][A_NOC_NODE_ID / 4] = s->node_id;
        s->cmd[b][A_NOC_ENDPOINT_ID / 4] = s->endpoint_id;
    }
    s->cfg[(A_NOC_ID_LOGICAL - A_NIU_CFG_0) / 4] = s->logical_id;
    /* ARC firmware enables coordinate translation before the cores run */
    s->cfg[0] = FIELD_DP32(0, NIU_CFG_0, COORD_TRANSLATE_EN, 1);
    /*
     * ...and the broadcast opt-out of the non-Tensix columns (x = 0, 8, 9)
     * and rows (y = 0, 1), as ttsim's NONTENSIX_COL/ROW_MASK (src/sim.h),
     * mirrored on NOC1.
     */
    s->cfg[A_ROUTER_CFG_1 / 4 - A_NIU_CFG_0 / 4] =
        s->noc ? BIT(16) | BIT(8) | BIT(7) : BIT(0) | BIT(8) | BIT(9);
    s->cfg[A_ROUTER_CFG_3 / 4 - A_NIU_CFG_0 / 4] =
        s->noc ? BIT(11) | BIT(10) : BIT(0) | BIT(1);
    if (s->fabric) {
        tt_noc_routing_changed(s->fabric);
    }
}

static void tt_niu_realize(DeviceState *dev, Error **errp)
{
    TTNiu *s = TT_NIU(dev);

    if (s->noc > 1) {
        error_setg(errp, "tt-niu: noc must be 0 or 1");
        return;
    }
    qemu_mutex_init(&s->lock);
    memory_region_init_io(&s->mmio, OBJECT(s), &tt_niu_ops, s,
                          s->noc ? "tt-niu1" : "tt-niu0", TT_TILE_NIU0_SIZE);
    memory_region_enable_lockless_io(&s->mmio);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->mmio);
}

/*
 * Every transaction completes inside the NOC_CMD_CTRL write that issues it
 * (@buf is scratch under @lock), so a stopped machine has none in flight:
 * the command buffers, configuration and counters are the whole state.
 * The routing configuration (NIU_CFG_0, ROUTER_CFG_1/3) is cached by the
 * fabric's listeners (host-map.c), which must see the loaded values.
 */
static int tt_niu_post_load(void *opaque, int version_id)
{
    TTNiu *s = opaque;

    if (s->fabric) {
        tt_noc_routing_changed(s->fabric);
    }
    return 0;
}

static const VMStateDescription vmstate_tt_niu = {
    .name = TYPE_TT_NIU,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = tt_niu_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_2DARRAY(cmd, TTNiu, TT_NIU_CMD_BUFS,
                               TT_NIU_CMD_BUF_REGS),
        VMSTATE_UINT32_ARRAY(cfg, TTNiu, TT_NIU_CFG_REGS),
        VMSTATE_UINT32_ARRAY(counter, TTNiu, TT_NIU_COUNTERS),
        VMSTATE_END_OF_LIST()
    },
};

static const Property tt_niu_props[] = {
    DEFINE_PROP_UINT8("noc", TTNiu, noc, 0),
    DEFINE_PROP_UINT8("x", TTNiu, x, 0),
    DEFINE_PROP_UINT8("y", TTNiu, y, 0),
    DEFINE_PROP_UINT32("node-id", TTNiu, node_id, 0),
    DEFINE_PROP_UINT32("logical-id", TTNiu, logical_id, 0),
    DEFINE_PROP_UINT32("endpoint-id", TTNiu, endpoint_id, 0),
};

static void tt_niu_class_init(ObjectClass *klass, const void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "Tenstorrent Blackhole NOC interface unit";
    dc->realize = tt_niu_realize;
    dc->vmsd = &vmstate_tt_niu;
    dc->user_creatable = false;
    rc->phases.hold = tt_niu_reset_hold;
    device_class_set_props(dc, tt_niu_props);
}

static const TypeInfo tt_niu_types[] = {
    {
        .name = TYPE_TT_NIU,
        .parent = TYPE_SYS_BUS_DEVICE,
        .instance_size = sizeof(TTNiu),
        .class_init = tt_niu_class_init,
    },
};

DEFINE_TYPES(tt_niu_types)
