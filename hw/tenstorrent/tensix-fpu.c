/*
 * Tenstorrent Blackhole Tensix Matrix Unit (FPU): arithmetic on SrcA and
 * SrcB accumulated into Dst (MVMUL, DOTPV, GAPOOL, GMPOOL, ELWADD, ELWSUB,
 * ELWMUL), the moves between the register files, ZEROACC/ZEROSRC, the
 * Src bank hand-back, and the RWC counters with their address modifiers.
 *
 * Source: tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/
 * MatrixUnit.md and the page of each instruction (the Blackhole
 * MatrixUnit.md defers to them), SrcASrcB.md (fidelity phases), Dst.md,
 * RWCs.md.  The documentation calls its floating-point model "a rough
 * guide"; where it leaves the bits open, the datapath below gives the
 * results Tenstorrent's simulator ttsim gives, established by differential
 * tests against a ttsim the user built (tests/tensix, TTSIM_LIB), not
 * taken from its code: products of 5 x 7-bit mantissa slices, summed in
 * two groups of eight, every alignment rounded half up, no infinities or
 * NaNs (exponent 255 is a number), Blackhole's 3-bit address-modifier
 * index.
 *
 * Src cells are in FP32 order (tensix.h); "v19" below is a cell >> 13:
 * sign 18, exponent 17:10, mantissa 9:0.  Called with the tile's lock.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/host-utils.h"
#include "tensix-common.h"
#include "trace.h"

enum { TT_SRCA, TT_SRCB };

/* ---------------------------------------------------- Src ownership -- */

static bool tt_bank_ready(TTTensix *t, unsigned which)
{
    TTTensixSrc *s = &t->src[which];

    return s->valid & BIT(s->matrix_bank);
}

/*
 * Give the matrix unit's current bank of Src @which back to the
 * unpackers (unless CLR_DVALID_Src?_Disable) and move to the other bank
 * (MVMUL.md "Possibly flip source banks").
 */
void tt_fpu_release(TTTensix *t, int thread, unsigned which)
{
    const uint16_t *tc = t->th[thread].thread_cfg;
    TTTensixSrc *s = &t->src[which];
    bool keep = which ? TT_THCFG(tc, CLR_DVALID_SrcB_Disable)
                      : TT_THCFG(tc, CLR_DVALID_SrcA_Disable);

    /* a bank still in flight to the matrix unit arrives first */
    tt_src_publish_through(t, which, s->matrix_bank);
    if (!keep) {
        s->valid &= ~BIT(s->matrix_bank);
    }
    s->matrix_bank ^= 1;
}

static void tt_fpu_clear_dvalid(TTTensix *t, int thread, unsigned mask)
{
    if (mask & 1) {
        tt_fpu_release(t, thread, TT_SRCA);
    }
    if (mask & 2) {
        tt_fpu_release(t, thread, TT_SRCB);
    }
}

/* ------------------------------------------------ operand formatting -- */

/* What an instruction computes with (MVMUL.md "Determine the data formats") */
typedef struct TTFpuOp {
    unsigned fmt_a, fmt_b;
    bool int8, dst32, e8, flush_src;
    unsigned phase;
    int expadj, zexp;           /* product exponent rebias; zero's exponent */
    uint32_t (*a)[TT_ROW_DATUMS], (*b)[TT_ROW_DATUMS];  /* matrix banks */
    unsigned ra, rb, drow;
} TTFpuOp;

/*
 * Blackhole takes the Src formats from the unpacker that filled each bank
 * unless DISABLE_IMPLIED_SRC?_FMT; MOVB2D and MOVD2B take "SrcA's" from
 * SrcB's bank (ttsim).
 */
static void tt_fpu_formats(TTTensix *t, int thread, TTFpuOp *op,
                           bool a_from_b)
{
    const uint32_t *c = tt_cfgw(t, thread);
    const uint16_t *tc = t->th[thread].thread_cfg;
    TTTensixSrc *sa = &t->src[a_from_b ? TT_SRCB : TT_SRCA];

    op->fmt_a = TT_CFG(c, ALU_FORMAT_SPEC_REG_SrcA_override)
                ? TT_CFG(c, ALU_FORMAT_SPEC_REG_SrcA_val)
                : TT_CFG(c, ALU_FORMAT_SPEC_REG0_SrcA);
    op->fmt_b = TT_CFG(c, ALU_FORMAT_SPEC_REG1_SrcB);
    if (!TT_THCFG(tc, DISABLE_IMPLIED_SRCA_FMT_Base)) {
        op->fmt_a = sa->format[sa->matrix_bank];
    }
    if (!TT_THCFG(tc, DISABLE_IMPLIED_SRCB_FMT_Base)) {
        op->fmt_b = t->src[TT_SRCB].format[t->src[TT_SRCB].matrix_bank];
    }
    op->int8 = TT_CFG(c, ALU_ACC_CTRL_INT8_math_enabled);
    op->dst32 = op->int8 || TT_CFG(c, ALU_ACC_CTRL_Fp32_enabled);
    op->e8 = op->fmt_a != TT_FMT_FP16 && op->fmt_a != TT_FMT_FP8 &&
             op->fmt_a != TT_FMT_BFP8A && op->fmt_a != TT_FMT_BFP4A &&
             op->fmt_a != TT_FMT_BFP2A && !op->int8;
    op->flush_src = !TT_CFG(c, ALU_ACC_CTRL_Zero_Flag_disabled_src);
    op->phase = (t->th[thread].rwc.fidelity +
                 TT_THCFG(tc, FIDELITY_BASE_Phase)) & 3;
    /* product exponent: FP32 bias, FP16 into FP32 Dst, or FP16 bias */
    op->expadj = (op->e8 ? -127 : op->dst32 ? 97 : -15) -
                 (op->phase & 1 ? 5 : 0) - (op->phase & 2 ? 7 : 0);
    op->zexp = MAX(op->expadj, 0);
}

/* The Dst row of an instruction's dst field, aligned to @align rows */
static unsigned tt_fpu_dst_row(TTTensix *t, int thread, unsigned field,
                               unsigned align)
{
    TTTensixThread *th = &t->th[thread];
    const uint32_t *c = tt_cfgw(t, thread);

    return (field + th->rwc.dst +
            TT_THCFG(th->thread_cfg, DEST_TARGET_REG_CFG_MATH_Offset) +
            TT_CFG(c, DEST_REGW_BASE_Base)) & (TT_RWC_DST_MASK & ~(align - 1));
}

static void tt_fpu_setup(TTTensix *t, int thread, TTFpuOp *op, unsigned dst,
                         unsigned align)
{
    TTTensixThread *th = &t->th[thread];

    tt_fpu_formats(t, thread, op, false);
    op->a = t->src[TT_SRCA].cell[t->src[TT_SRCA].matrix_bank];
    op->b = t->src[TT_SRCB].cell[t->src[TT_SRCB].matrix_bank];
    op->ra = th->rwc.srca & 0x38;
    op->rb = th->rwc.srcb & 0x38;
    op->drow = tt_fpu_dst_row(t, thread, dst, align);
}

/*
 * MVMUL, DOTPV, GAPOOL and GMPOOL read 16 SrcA rows from the RWC's row
 * (a multiple of 8); from row 56 they would pass the bank's end, which
 * MVMUL.md leaves undefined (ttsim requires a multiple of 16).  Those
 * rows wrap to the bank's start here, with a guest error, read from the
 * caller's @wrap (uninitialised: QEMU's builds zero every local, and a
 * 1 KiB buffer cleared per instruction showed in profiles).
 */
static void tt_fpu_srca16(TTTensix *t, int thread, uint32_t w, TTFpuOp *op,
                          uint32_t (*wrap)[TT_ROW_DATUMS])
{
    if (op->ra + 16 <= TT_SRC_ROWS) {
        return;
    }
    tt_tensix_error(t, thread, w, "SrcA rows %u-%u pass the bank's end: "
                    "rows 0-%u read instead", op->ra, op->ra + 15,
                    op->ra + 15 - TT_SRC_ROWS);
    for (unsigned i = 0; i < 16; i++) {
        memcpy(wrap[i], op->a[(op->ra + i) % TT_SRC_ROWS], sizeof(wrap[i]));
    }
    op->a = wrap;
    op->ra = 0;
}

/* -------------------------------------------------- Dst in its styles -- */

/* Integer Dst: sign-magnitude INT32 under the FP32 shuffle */
static int32_t tt_fpu_dst_int(TTTensix *t, unsigned row, unsigned col)
{
    uint32_t v = tt_dst_dec_fp32(tt_dst_rd32(t, row, col, 0));

    return v >> 31 ? -(int32_t)(v & 0x7fffffff) : (int32_t)v;
}

static void tt_fpu_dst_int_write(TTTensix *t, unsigned row, unsigned col,
                                 int64_t x)
{
    x = MIN(MAX(x, -INT32_MAX), INT32_MAX);
    tt_dst_wr32(t, row, col, tt_dst_enc_fp32(x < 0 ? 0x80000000u | -x : x));
}

/* Rows written by one instruction become valid after it (read old first) */
static void tt_fpu_rows_valid(TTTensix *t, TTFpuOp *op, unsigned row,
                              unsigned n)
{
    for (unsigned r = 0; r < n; r++) {
        tt_dst_set_valid(t, row + r, op->dst32);
    }
}

/*
 * ReadSrcInt8 (ELWMUL.md) of the bits of @cell kept by @mask: sign and
 * 10-bit magnitude; exponent 0 reads as zero
 */
static int32_t tt_int8_read(uint32_t cell, uint32_t mask)
{
    uint32_t x = cell & mask, m = x >> 13 & 0x3ff;

    if (!(cell >> 23 & 0xff)) {
        return 0;               /* exponent 0: zero */
    }
    return x >> 31 ? -(int32_t)m : (int32_t)m;
}

/* "Integer 8" slices per phase (SrcASrcB.md "Fidelity phases (integer)") */
static int32_t tt_int8_slice(uint32_t cell, bool is_a, unsigned phase)
{
    return tt_int8_read(cell, is_a ? (phase & 1 ? 0x8003e000 : 0x801c0000)
                                   : (phase & 2 ? 0x8001e000 : 0x807e0000));
}

/* ----------------------------------------------- matrix multiplication -- */

/*
 * Matrix multiplication, Dst[r][c] += sum_k SrcB[r][k] * SrcA[k][c]: per
 * output the sixteen products are summed as two groups of eight, each in
 * units of its largest product's last bit (every product rounded half up
 * to them), and the two sums are then added to Dst.  The vector code of
 * tensix-fpu-vec.c.inc computes a row's sixteen columns at once.
 */

/* What MVMUL needs of the instruction, for the vector code */
typedef struct TTDotOp {
    uint32_t keep;              /* the bits of a cell its style uses */
    unsigned phase;
    int expadj, zexp;
    bool dst32, e8;
} TTDotOp;

/* A zero operand's exponent in the vector code: far below any product */
#define TT_DOT_ZERO_E   (-1024)

typedef enum { TT_ELWADD, TT_ELWSUB, TT_ELWMUL } TTElwOp;

/* What ELWADD/ELWSUB/ELWMUL need, for the vector code */
typedef struct TTElwCfg {
    TTDotOp d;
    TTElwOp kind;
    unsigned bcast;
    bool add_dst, flush;
} TTElwCfg;

/*
 * The fast paths keep SrcA's prepared fields per face in TTTensix.dot_a
 * while the bank's write count (tt_src_changed()) stands: a phase's
 * MVMULs read each face four times.  The buffer of @a's way for @op
 * (aligned to 64 bytes, TT_DOT_A_BYTES), with @hit telling whether it
 * holds them already, else the caller fills it; NULL for rows outside the
 * banks (tt_fpu_srca16's copy).
 */
static void *tt_dot_a_cached(TTTensix *t, const uint32_t (*a)[TT_ROW_DATUMS],
                             const TTDotOp *op, bool *hit)
{
    size_t off = (const uint8_t *)a - (const uint8_t *)t->src[0].cell;
    uint8_t *buf = QEMU_ALIGN_PTR_UP(&t->dot_a_buf[0], 64);
    uint32_t gen;
    unsigned i;

    *hit = false;
    if (off >= sizeof(t->src[0].cell)) {
        return NULL;
    }
    gen = t->src_gen[0][off >= sizeof(t->src[0].cell[0])];
    for (i = 0; i < TT_DOT_A_WAYS; i++) {
        TTDotAWay *w = &t->dot_a[i];

        if (w->rows == a && w->gen == gen && w->keep == op->keep &&
            w->phase == op->phase && w->valid) {
            *hit = true;
            return buf + i * TT_DOT_A_BYTES;
        }
    }
    i = t->dot_a_next++ % TT_DOT_A_WAYS;
    t->dot_a[i] = (TTDotAWay) {
        .rows = a, .gen = gen, .keep = op->keep, .phase = op->phase,
        .valid = true,
    };
    return buf + i * TT_DOT_A_BYTES;
}

/* Eight lanes: any host; built again below for AVX2 */
#define TT_VL 8
#define TT_V(name) glue(name, 8)
#define TT_VTARGET
#include "tensix-fpu-vec.c.inc"

static void tt_dot_generic(TTTensix *t, const uint32_t (*a)[TT_ROW_DATUMS],
                           const uint32_t (*b)[TT_ROW_DATUMS], unsigned drow,
                           unsigned n, bool bcast, const TTDotOp *op)
{
    tt_dot_body8(t, a, b, drow, n, bcast, op);
}

static void tt_velw_generic(TTTensix *t, const uint32_t (*a)[TT_ROW_DATUMS],
                            const uint32_t (*b)[TT_ROW_DATUMS], unsigned drow,
                            const TTElwCfg *e)
{
    tt_velw_body8(t, a, b, drow, e, false);
}

#ifdef CONFIG_AVX2_OPT
#include <immintrin.h>
#define TT_VL 8
#define TT_V(name) glue(name, 8a)
#define TT_VTARGET __attribute__((target("avx2")))
#define TT_VAVX2
#include "tensix-fpu-vec.c.inc"

static void __attribute__((target("avx2")))
tt_dot_avx2(TTTensix *t, const uint32_t (*a)[TT_ROW_DATUMS],
            const uint32_t (*b)[TT_ROW_DATUMS], unsigned drow, unsigned n,
            bool bcast, const TTDotOp *op)
{
    if (t->reference) {
        tt_dot_body8a(t, a, b, drow, n, bcast, op);
    } else {
        tt_dot_body_avx2(t, a, b, drow, n, bcast, op);
    }
}

static void __attribute__((target("avx2")))
tt_velw_avx2(TTTensix *t, const uint32_t (*a)[TT_ROW_DATUMS],
             const uint32_t (*b)[TT_ROW_DATUMS], unsigned drow,
             const TTElwCfg *e)
{
    if (t->reference) {
        tt_velw_body8a(t, a, b, drow, e, false);
    } else {
        tt_velw_body_avx2(t, a, b, drow, e);
    }
}
#endif

/* Sixteen lanes, a whole row per vector, on AVX-512 hosts */
#ifdef CONFIG_AVX512BW_OPT
#include <immintrin.h>
#define TT_VL 16
#define TT_V(name) glue(name, 16)
#define TT_VTARGET __attribute__((target("avx512f,avx512bw")))
#include "tensix-fpu-vec.c.inc"

static void __attribute__((target("avx512f,avx512bw")))
tt_dot_avx512(TTTensix *t, const uint32_t (*a)[TT_ROW_DATUMS],
              const uint32_t (*b)[TT_ROW_DATUMS], unsigned drow, unsigned n,
              bool bcast, const TTDotOp *op)
{
    if (t->reference) {
        tt_dot_body16(t, a, b, drow, n, bcast, op);
    } else {
        tt_dot_body_fast16(t, a, b, drow, n, bcast, op);
    }
}

static void __attribute__((target("avx512f,avx512bw")))
tt_velw_avx512(TTTensix *t, const uint32_t (*a)[TT_ROW_DATUMS],
               const uint32_t (*b)[TT_ROW_DATUMS], unsigned drow,
               const TTElwCfg *e)
{
    tt_velw_body16(t, a, b, drow, e, !t->reference);
}
#endif

static void tt_dot(TTTensix *t, const uint32_t (*a)[TT_ROW_DATUMS],
                   const uint32_t (*b)[TT_ROW_DATUMS], unsigned drow,
                   unsigned n, bool bcast, const TTDotOp *op)
{
    switch (t->vec) {
#ifdef CONFIG_AVX512BW_OPT
    case TT_VEC_AVX512:
        tt_dot_avx512(t, a, b, drow, n, bcast, op);
        return;
#endif
#ifdef CONFIG_AVX2_OPT
    case TT_VEC_AVX2:
        tt_dot_avx2(t, a, b, drow, n, bcast, op);
        return;
#endif
    default:
        tt_dot_generic(t, a, b, drow, n, bcast, op);
    }
}

static void tt_velw(TTTensix *t, const uint32_t (*a)[TT_ROW_DATUMS],
                    const uint32_t (*b)[TT_ROW_DATUMS], unsigned drow,
                    const TTElwCfg *e)
{
    switch (t->vec) {
#ifdef CONFIG_AVX512BW_OPT
    case TT_VEC_AVX512:
        tt_velw_avx512(t, a, b, drow, e);
        return;
#endif
#ifdef CONFIG_AVX2_OPT
    case TT_VEC_AVX2:
        tt_velw_avx2(t, a, b, drow, e);
        return;
#endif
    default:
        tt_velw_generic(t, a, b, drow, e);
    }
}

/* The integer datapath: exact sums of fidelity-sliced products */
static void tt_matmul_int(TTTensix *t, TTFpuOp *op, unsigned r,
                          const uint32_t *brow)
{
    for (unsigned c = 0; c < 16; c++) {
        int64_t x = tt_fpu_dst_int(t, op->drow + r, c);

        for (unsigned k = 0; k < 16; k++) {
            x += tt_int8_slice(op->a[op->ra + k][c], true, op->phase) *
                 tt_int8_slice(brow[k], false, op->phase);
        }
        tt_fpu_dst_int_write(t, op->drow + r, c, x);
    }
}

/* MVMUL / DOTPV / GAPOOL on @n rows: the float and the integer datapath */
static void tt_matmul(TTTensix *t, TTFpuOp *op, unsigned n, bool bcast_row)
{
    TTDotOp dop = {
        .keep = !op->e8 ? 0x8fffe000 : op->fmt_a == TT_FMT_TF32 ? ~0u
                                                               : 0xffff0000,
        .phase = op->phase, .expadj = op->expadj, .zexp = op->zexp,
        .dst32 = op->dst32, .e8 = op->e8,
    };

    if (op->int8) {
        for (unsigned r = 0; r < n; r += bcast_row ? 2 : 1) {
            tt_matmul_int(t, op, r, op->b[op->rb + (bcast_row ? 0 : r)]);
        }
    } else {
        tt_dot(t, &op->a[op->ra], &op->b[op->rb], op->drow, n, bcast_row,
               &dop);
    }
    tt_fpu_rows_valid(t, op, op->drow, n);
}

/* Common tail: advance the RWCs, then hand Src banks back */
static bool tt_fpu_done(TTTensix *t, int thread, unsigned addr_mode,
                        unsigned clear_dvalid)
{
    tt_addr_mod(t, thread, addr_mode, true);
    tt_fpu_clear_dvalid(t, thread, clear_dvalid);
    return true;
}

static bool tt_fpu_both_ready(TTTensix *t, int thread)
{
    if (tt_bank_ready(t, TT_SRCA) && tt_bank_ready(t, TT_SRCB)) {
        return true;
    }
    trace_tt_tensix_stall(t->tile_x, t->tile_y, thread, "Src data valid");
    return false;
}

static void tt_fpu_trace(TTTensix *t, int thread, uint32_t w, TTFpuOp *op)
{
    trace_tt_tensix_fpu(t->tile_x, t->tile_y, thread, tt_op_name(w),
                        op->drow, op->ra, op->rb, op->fmt_a, op->phase);
}

/* MVMUL (MVMUL.md): Dst[8 x 16] += SrcB[8 x 16] @ SrcA[16 x 16] */
bool tensix_mvmul(TTTensix *t, int thread, uint32_t w)
{
    bool bcast = tt_mvmul_instr_mod19(w);
    TTFpuOp op;
    QEMU_UNINITIALIZED uint32_t wrap[16][TT_ROW_DATUMS];

    if (!tt_fpu_both_ready(t, thread)) {
        return false;
    }
    /* BroadcastSrcBRow: 7 rows, every other one written */
    tt_fpu_setup(t, thread, &op, tt_mvmul_dst(w), 8);
    tt_fpu_srca16(t, thread, w, &op, wrap);
    if (bcast) {
        op.rb = t->th[thread].rwc.srcb & 0x3f;
    }
    tt_fpu_trace(t, thread, w, &op);
    tt_matmul(t, &op, bcast ? 7 : 8, bcast);
    return tt_fpu_done(t, thread, tt_mvmul_addr_mode(w),
                       tt_mvmul_clear_dvalid(w));
}

/* DOTPV (DOTPV.md): MVMUL without the row broadcast */
bool tensix_dotpv(TTTensix *t, int thread, uint32_t w)
{
    TTFpuOp op;
    QEMU_UNINITIALIZED uint32_t wrap[16][TT_ROW_DATUMS];

    if (!tt_fpu_both_ready(t, thread)) {
        return false;
    }
    tt_fpu_setup(t, thread, &op, tt_dotpv_dst(w), 8);
    tt_fpu_srca16(t, thread, w, &op, wrap);
    tt_fpu_trace(t, thread, w, &op);
    tt_matmul(t, &op, 8, false);
    return tt_fpu_done(t, thread, tt_dotpv_addr_mode(w),
                       tt_dotpv_clear_dvalid(w));
}

/* GAPOOL (GAPOOL.md): MVMUL on the top four rows of SrcB's block */
bool tensix_gapool(TTTensix *t, int thread, uint32_t w)
{
    TTFpuOp op;
    QEMU_UNINITIALIZED uint32_t wrap[16][TT_ROW_DATUMS];

    if (!tt_fpu_both_ready(t, thread)) {
        return false;
    }
    if (tt_gapool_max_pool_index_en(w)) {
        tt_tensix_error(t, thread, w, "GAPOOL has no ArgMax: index "
                        "ignored");
    }
    tt_fpu_setup(t, thread, &op, tt_gapool_dst(w), 4);
    tt_fpu_srca16(t, thread, w, &op, wrap);
    tt_fpu_trace(t, thread, w, &op);
    tt_matmul(t, &op, 4, false);
    return tt_fpu_done(t, thread, tt_gapool_pool_addr_mode(w),
                       tt_gapool_clear_dvalid(w));
}

/* ------------------------------------------------- element-wise ops -- */

/* SrcB's element for output (r, c) under the broadcast bits */
static uint32_t tt_elw_b(TTFpuOp *op, unsigned bcast, unsigned r,
                         unsigned c)
{
    return op->b[op->rb + (bcast & 2 ? 0 : r)][bcast & 1 ? 0 : c];
}

/*
 * The integer datapath of ELW* (ELWADD.md, ELWMUL.md with INT8): only
 * ELWMUL slices its operands by fidelity phase; ELWADD/ELWSUB add the
 * whole 10-bit magnitudes (ReadSrcInt8 without a mask)
 */
static void tt_elw_int(TTTensix *t, TTFpuOp *op, TTElwCfg *e)
{
    for (unsigned r = 0; r < 8; r++) {
        for (unsigned c = 0; c < 16; c++) {
            uint32_t a = op->a[op->ra + r][c], b = tt_elw_b(op, e->bcast, r, c);
            unsigned row = op->drow + r;
            int64_t x;

            if (e->kind == TT_ELWSUB) {
                b ^= 0x80000000;
            }
            x = e->kind == TT_ELWMUL
                ? tt_int8_slice(a, true, op->phase) *
                  tt_int8_slice(b, false, op->phase)
                : tt_int8_read(a, 0x807fe000) + tt_int8_read(b, 0x807fe000);
            tt_fpu_dst_int_write(t, row, c, x + (e->add_dst ?
                                 tt_fpu_dst_int(t, row, c) : 0));
        }
    }
}

/* ELWADD/ELWSUB/ELWMUL on 8 x 16 (ELWADD.md, ELWMUL.md) */
static bool tt_elw(TTTensix *t, int thread, uint32_t w, TTElwOp kind)
{
    TTFpuOp op;
    TTElwCfg e = {
        .kind = kind, .bcast = tt_elwadd_instr_mod19(w),
        .add_dst = kind == TT_ELWMUL || tt_elwadd_dest_accum_en(w),
    };

    if (!tt_fpu_both_ready(t, thread)) {
        return false;
    }
    tt_fpu_setup(t, thread, &op, tt_elwadd_dst(w), 8);
    if (e.bcast & 2) {
        op.rb = t->th[thread].rwc.srcb & 0x3f;
    }
    tt_fpu_trace(t, thread, w, &op);
    e.flush = op.flush_src;
    e.d = (TTDotOp) {
        .keep = !op.e8 ? 0x8fffe000 : op.fmt_a == TT_FMT_TF32 ? ~0u
                                                             : 0xffff0000,
        .phase = op.phase, .expadj = op.expadj, .zexp = op.zexp,
        .dst32 = op.dst32, .e8 = op.e8,
    };
    if (op.int8) {
        tt_elw_int(t, &op, &e);
    } else {
        tt_velw(t, &op.a[op.ra], &op.b[op.rb], op.drow, &e);
    }
    tt_fpu_rows_valid(t, &op, op.drow, 8);
    return tt_fpu_done(t, thread, tt_elwadd_addr_mode(w),
                       tt_elwadd_clear_dvalid(w));
}

bool tensix_elwadd(TTTensix *t, int thread, uint32_t w)
{
    return tt_elw(t, thread, w, TT_ELWADD);
}

bool tensix_elwsub(TTTensix *t, int thread, uint32_t w)
{
    return tt_elw(t, thread, w, TT_ELWSUB);
}

/* ELWMUL always accumulates onto Dst (ttsim; the page's AddDst is 1) */
bool tensix_elwmul(TTTensix *t, int thread, uint32_t w)
{
    return tt_elw(t, thread, w, TT_ELWMUL);
}

/* -------------------------------------------------------- max pool -- */

/*
 * GMPOOL's datum (GMPOOL.md "Supporting definitions"): a sign, a 9-bit
 * exponent (a sum of SrcA's and SrcB's) and 10 bits of mantissa or
 * magnitude, ordered as sign * (exponent << 10 | mantissa).
 */
typedef struct TTPoolDatum {
    bool sign;
    uint32_t exp, man;
} TTPoolDatum;

/* The styles GMPOOL.md computes in */
typedef enum {
    TT_POOL_BF16, TT_POOL_TF32, TT_POOL_FP16, TT_POOL_INT8, TT_POOL_INT32,
} TTPoolStyle;

static int32_t tt_pool_key(TTPoolDatum d)
{
    int32_t k = (int32_t)((d.exp << 10) + d.man);

    return d.sign ? -k : k;
}

/* ReadDst: a raw Dst32b word (Dst16b in its high half) */
static TTPoolDatum tt_pool_read_dst(uint32_t v, TTPoolStyle st)
{
    TTPoolDatum d = { .sign = v >> 31 };

    switch (st) {
    case TT_POOL_INT32:         /* Sign,MagMiddle(7),MagHi(8),MagLo(16) */
        d.man = v & 0x3ff;
        d.exp = (v >> 10 & 0x3f) | (v >> 24 & 7) << 6;
        break;
    case TT_POOL_FP16:          /* Sign,Man(10),Exp(5) */
        d.exp = (v >> 16 & 0x1f) + 15;
        d.man = v >> 21 & 0x3ff;
        break;
    default:                    /* Sign,Man(7),Exp(8), TF32 3 more bits */
        d.exp = (v >> 16 & 0xff) + 127;
        d.man = (v >> 24 & 0x7f) << 3;
        if (st == TT_POOL_TF32) {
            d.man += v >> 13 & 7;
        }
    }
    return d;
}

/* WriteDst (an unscaled exponent wraps, as on the hardware) */
static uint32_t tt_pool_write_dst(TTPoolDatum d, TTPoolStyle st)
{
    uint32_t x;

    switch (st) {
    case TT_POOL_INT32:         /* sign and 13 bits of magnitude */
        return (uint32_t)d.sign << 31 | (d.exp & 7) << 10 | d.man;
    case TT_POOL_FP16:
        if (!(d.exp & 0x3f)) {
            return 0;
        }
        return (uint32_t)d.sign << 31 | d.man << 21 |
               ((d.exp - 15) & 0x1f) << 16;
    default:
        if (!d.exp) {
            return 0;
        }
        x = (uint32_t)d.sign << 31 | (d.man & 0x3f8) << 21 |
            ((d.exp - 127) & 0xff) << 16;
        return st == TT_POOL_TF32 ? x + ((d.man & 7) << 13) : x;
    }
}

/*
 * ReadAndScaleSrc: SrcA's cell scaled by the exponent of SrcB's (a zero
 * SrcB exponent gives minus infinity, a zero SrcA exponent +0)
 */
static TTPoolDatum tt_pool_src(uint32_t a, TTPoolStyle st, uint32_t b)
{
    uint32_t ea = a >> 23 & 0xff, eb = b >> 23 & 0xff;
    TTPoolDatum d = { .sign = a >> 31, .man = a >> 13 & 0x3ff };

    if (!eb) {
        return (TTPoolDatum) { .sign = true, .exp = 0x1ff, .man = 0x3ff };
    }
    if (!ea) {
        return (TTPoolDatum) { 0 };
    }
    switch (st) {
    case TT_POOL_INT8:
        d.exp = 0;
        break;
    case TT_POOL_FP16:
        d.exp = (ea & 0x1f) + (eb & 0x1f);
        break;
    case TT_POOL_BF16:
        d.man &= 0x3f8;
        /* fall through */
    default:
        d.exp = ea + eb;
    }
    return d;
}

/* GMPOOL.md "Determine the data formats": SrcA's style and Dst's */
static void tt_pool_styles(TTTensix *t, int thread, const TTFpuOp *op,
                           bool argmax, TTPoolStyle *sa, TTPoolStyle *sd)
{
    bool fp16 = op->fmt_a == TT_FMT_FP16 || op->fmt_a == TT_FMT_FP8 ||
                op->fmt_a == TT_FMT_BFP8A || op->fmt_a == TT_FMT_BFP4A ||
                op->fmt_a == TT_FMT_BFP2A || op->fmt_a == TT_FMT_INT8;

    if (TT_THCFG(t->th[thread].thread_cfg, FP16A_FORCE_Enable)) {
        *sa = *sd = TT_POOL_FP16;
    } else if (op->int8) {
        *sa = TT_POOL_INT8;
        *sd = TT_POOL_INT32;
    } else if (op->fmt_a == TT_FMT_TF32) {
        *sa = TT_POOL_TF32;
        *sd = argmax ? TT_POOL_INT32 : op->dst32 ? TT_POOL_TF32
                                                 : TT_POOL_BF16;
    } else {
        *sa = fp16 ? TT_POOL_FP16 : TT_POOL_BF16;
        *sd = op->dst32 && !argmax ? TT_POOL_TF32 : *sa;
    }
}

/*
 * One column: the maximum of Dst's datum and 16 scaled SrcA rows, and
 * with ArgMax the index among the first eight (GMPOOL.md's visitation
 * order and index transform, ties to the later row)
 */
static uint32_t tt_pool_column(const TTFpuOp *op, unsigned c, uint32_t dv,
                               TTPoolStyle sa, TTPoolStyle sd, bool argmax)
{
    static const uint8_t nonlinear[8] = { 0, 3, 6, 1, 4, 7, 2, 5 };
    TTPoolDatum max = tt_pool_read_dst(dv, sd);
    uint32_t index = dv & 0xff, phase = (dv + 0x100) & 0xf00;

    for (unsigned n = 0; n < 16; n++) {
        unsigned i = n < 8 ? n ^ 4 : n;
        TTPoolDatum x = tt_pool_src(op->a[op->ra + i][c], sa,
                                    op->b[op->rb][i]);

        if (tt_pool_key(x) >= tt_pool_key(max)) {
            max = x;
            if (i < 8) {
                index = (phase >> 4) + nonlinear[i];
            }
        }
    }
    if (!argmax) {
        return tt_pool_write_dst(max, sd);
    }
    index = phase | (index & 0xff);
    return sd == TT_POOL_INT32 ? index : tt_pool_write_dst(max, sd) | index;
}

/*
 * GMPOOL (GMPOOL.md): per column, the maximum of a Dst row and a 16x16
 * SrcA block scaled by the exponents of a SrcB row; an invalid Dst row
 * counts as minus infinity (all bits set); the next three rows become
 * zero (with ArgMax in 32-bit Dst: their index phase, advanced).
 */
bool tensix_gmpool(TTTensix *t, int thread, uint32_t w)
{
    bool argmax = tt_gmpool_max_pool_index_en(w);
    TTPoolStyle sa, sd;
    TTFpuOp op;
    QEMU_UNINITIALIZED uint32_t wrap[16][TT_ROW_DATUMS];

    if (!tt_fpu_both_ready(t, thread)) {
        return false;
    }
    tt_fpu_setup(t, thread, &op, tt_gmpool_dst(w), 4);
    tt_fpu_srca16(t, thread, w, &op, wrap);
    op.ra = t->th[thread].rwc.srca & 0x30;
    tt_pool_styles(t, thread, &op, argmax, &sa, &sd);
    tt_fpu_trace(t, thread, w, &op);
    for (unsigned c = 0; c < 16; c++) {
        uint32_t dv = op.dst32 ? tt_dst_rd32(t, op.drow, c, ~0u)
                               : (uint32_t)tt_dst_rd16(t, op.drow, c,
                                                       0xffff) << 16;

        dv = tt_pool_column(&op, c, dv, sa, sd, argmax);
        for (unsigned r = 1; r < 4; r++) {
            if (op.dst32) {
                tt_dst_wr32(t, op.drow + r, c, argmax
                            ? (tt_dst_rd32(t, op.drow + r, c, ~0u) + 0x100) &
                              0xf00 : 0);
            } else {
                tt_dst_wr16(t, op.drow + r, c, 0);
            }
        }
        if (op.dst32) {
            tt_dst_wr32(t, op.drow, c, dv);
        } else {
            tt_dst_wr16(t, op.drow, c, dv >> 16);
        }
    }
    tt_fpu_rows_valid(t, &op, op.drow, 4);
    return tt_fpu_done(t, thread, tt_gmpool_pool_addr_mode(w),
                       tt_gmpool_clear_dvalid(w));
}

/* ------------------------------------------------------------ moves -- */

/*
 * A Src value written to Dst (MOVA2D.md): exponent-0 values flush to
 * zero, BF16-style keeps 7 mantissa bits, FP16-style five exponent bits;
 * TF32 fills a Dst32b word, dest_32b_lo only its low half.
 */
static inline uint16_t tt_mov_enc(const TTFpuOp *op, uint32_t *v)
{
    if (op->flush_src && !(*v >> 23 & 0xff)) {
        *v = 0;
    }
    return op->e8 ? tt_dst_enc_bf16(*v >> 16)
                  : tt_dst_enc_fp16((*v >> 16 & 0x8000) | (*v >> 13 & 0x7fff));
}

static void tt_mov_to_dst(TTTensix *t, TTFpuOp *op, unsigned row,
                          unsigned col, uint32_t v, bool lo)
{
    uint16_t h = tt_mov_enc(op, &v);

    if (op->fmt_a == TT_FMT_TF32) {
        tt_dst_wr32(t, row, col, (uint32_t)h << 16 | (v & 0xe000) |
                    (lo ? h : 0));
    } else if (lo) {
        tt_dst_wr32(t, row, col, (tt_dst_rd32(t, row, col, 0) & 0xffff0000) |
                    h);
    } else {
        tt_dst_wr16(t, row, col, h);
    }
    tt_dst_set_valid(t, row, op->fmt_a == TT_FMT_TF32 || lo);
}

/*
 * A row of Src values (@src[0..15], or @src[0] in every column with
 * @col0) to Dst row @row; 16-bit Dst a row at a time, its valid bit once
 */
static void tt_mov_row(TTTensix *t, TTFpuOp *op, unsigned row,
                       const uint32_t *src, bool col0, bool lo)
{
    if (op->fmt_a == TT_FMT_TF32 || lo) {
        for (unsigned c = 0; c < 16; c++) {
            tt_mov_to_dst(t, op, row, c, src[col0 ? 0 : c], lo);
        }
        return;
    }
    for (unsigned c = 0; c < 16; c++) {
        uint32_t v = src[col0 ? 0 : c];

        tt_dst_wr16(t, row, c, tt_mov_enc(op, &v));
    }
    tt_dst_set_valid(t, row, false);
}

static void tt_mov_formats(TTTensix *t, int thread, TTFpuOp *op,
                           bool a_from_b)
{
    tt_fpu_formats(t, thread, op, a_from_b);
    /* MOVA2D.md: the 8-bit exponent style unless FP16-like */
    op->e8 = op->fmt_a != TT_FMT_FP16 && op->fmt_a != TT_FMT_FP8 &&
             op->fmt_a != TT_FMT_BFP8A && op->fmt_a != TT_FMT_BFP4A &&
             op->fmt_a != TT_FMT_BFP2A && op->fmt_a != TT_FMT_INT8;
}

static bool tt_mova2d(TTTensix *t, int thread, uint32_t w, bool wait)
{
    TTTensixThread *th = &t->th[thread];
    unsigned n = tt_mova2d_instr_mod(w) & 2 ? 8 : 1;
    unsigned srow = (tt_mova2d_src(w) + th->rwc.srca) & (0x40 - n);
    TTFpuOp op;

    if (wait && !tt_bank_ready(t, TT_SRCA)) {
        trace_tt_tensix_stall(t->tile_x, t->tile_y, thread, "SrcA valid");
        return false;
    }
    tt_mov_formats(t, thread, &op, false);
    op.drow = tt_fpu_dst_row(t, thread, tt_mova2d_dst(w), n);
    for (unsigned r = 0; r < n; r++) {
        tt_mov_row(t, &op, op.drow + r,
                   t->src[TT_SRCA].cell[t->src[TT_SRCA].matrix_bank][srow + r],
                   false, tt_mova2d_dest_32b_lo(w));
    }
    tt_addr_mod(t, thread, tt_mova2d_addr_mode(w), true);
    return true;
}

/* MOVA2D (MOVA2D.md): SrcA to Dst, 1 or 8 rows */
bool tensix_mova2d(TTTensix *t, int thread, uint32_t w)
{
    return tt_mova2d(t, thread, w, true);
}

/* MOVDBGA2D (MOVDBGA2D.md): MOVA2D without waiting for SrcA */
bool tensix_movdbga2d(TTTensix *t, int thread, uint32_t w)
{
    return tt_mova2d(t, thread, w, false);
}

static bool tt_movb2d(TTTensix *t, int thread, uint32_t w, bool wait)
{
    TTTensixThread *th = &t->th[thread];
    unsigned mod = tt_movb2d_movb2d_instr_mod(w);
    bool col0 = mod & 1, bcast8 = mod & 2;
    unsigned n = bcast8 ? 8 : mod & 4 ? 4 : 1;
    unsigned srow = (tt_movb2d_src(w) + th->rwc.srcb) & (bcast8 ? 0x3f :
                                                         0x40 - n);
    TTTensixSrc *sb = &t->src[TT_SRCB];
    TTFpuOp op;

    if (wait && !tt_bank_ready(t, TT_SRCB)) {
        trace_tt_tensix_stall(t->tile_x, t->tile_y, thread, "SrcB valid");
        return false;
    }
    tt_mov_formats(t, thread, &op, true);
    op.drow = tt_fpu_dst_row(t, thread, tt_movb2d_dst(w), n);
    for (unsigned r = 0; r < n; r++, srow += !bcast8) {
        tt_mov_row(t, &op, op.drow + r, sb->cell[sb->matrix_bank][srow],
                   col0, tt_movb2d_dest_32b_lo(w));
    }
    tt_addr_mod(t, thread, tt_movb2d_addr_mode(w), true);
    return true;
}

/* MOVB2D (MOVB2D.md): SrcB to Dst, 1 or 4 rows or one row to 8 */
bool tensix_movb2d(TTTensix *t, int thread, uint32_t w)
{
    return tt_movb2d(t, thread, w, true);
}

bool tensix_movdbgb2d(TTTensix *t, int thread, uint32_t w)
{
    return tt_movb2d(t, thread, w, false);
}

/* Dst16 FP16 bits as a Src cell (ShuffleFP16) */
static uint32_t tt_dst16_fp16_cell(uint16_t raw)
{
    uint32_t d = tt_dst_dec_fp16(raw);

    return (d & 0x8000) << 16 | (d & 0x7fff) << 13;
}

/*
 * A Dst value as a Src cell (MOVD2A.md): 32-bit Dst truncates FP32 to
 * TF32 or BF16, or, for an FP16-like format, gives its high half as FP16
 * bits; 16-bit Dst holds BF16 or FP16; nothing rounds.
 */
static uint32_t tt_dst_to_src(TTTensix *t, TTFpuOp *op, unsigned row,
                              unsigned col, bool lo)
{
    uint32_t d;

    if (op->dst32) {
        d = tt_dst_rd32(t, row, col, 0);
        if (lo) {
            d = d << 16 | (d & 0xffff);
        }
        if (!op->e8) {
            return tt_dst16_fp16_cell(d >> 16);
        }
        d = tt_dst_dec_fp32(d);
        return op->fmt_a == TT_FMT_TF32 ? d & 0xffffe000 : d & 0xffff0000;
    }
    d = tt_dst_rd16(t, row, col, 0);
    if (op->e8) {
        return (uint32_t)tt_dst_dec_bf16(d) << 16;
    }
    return tt_dst16_fp16_cell(d);
}

/* MOVD2A / MOVD2B: 1 or 4 Dst rows into the matrix unit's Src bank */
static bool tt_movd2src(TTTensix *t, int thread, uint32_t w, unsigned which)
{
    TTTensixThread *th = &t->th[thread];
    TTTensixSrc *s = &t->src[which];
    unsigned n = tt_movd2a_instr_mod(w) & 2 ? 4 : 1;
    unsigned srow = (tt_movd2a_src(w) + (which ? th->rwc.srcb
                                               : th->rwc.srca)) & (0x40 - n);
    TTFpuOp op;

    /* SrcAStyle: FP16 for FP16, FP8, BFP8a-2a and INT8, as MOVA2D's */
    tt_mov_formats(t, thread, &op, which == TT_SRCB);
    op.drow = tt_fpu_dst_row(t, thread, tt_movd2a_dst(w), n);
    tt_src_changed(t, which, s->matrix_bank);
    for (unsigned r = 0; r < n; r++) {
        for (unsigned c = 0; c < 16; c++) {
            s->cell[s->matrix_bank][srow + r][c] =
                tt_dst_to_src(t, &op, op.drow + r, c,
                              tt_movd2a_dest_32b_lo(w));
        }
    }
    tt_addr_mod(t, thread, tt_movd2a_addr_mode(w), true);
    return true;
}

/* MOVD2A (MOVD2A.md): Dst to SrcA; it does not wait for the bank */
bool tensix_movd2a(TTTensix *t, int thread, uint32_t w)
{
    return tt_movd2src(t, thread, w, TT_SRCA);
}

/* MOVD2B (MOVD2B.md): Dst to SrcB */
bool tensix_movd2b(TTTensix *t, int thread, uint32_t w)
{
    return tt_movd2src(t, thread, w, TT_SRCB);
}

/* MOVB2A: 1 or 4 SrcB rows into SrcA, flushing exponent-0 values */
bool tensix_movb2a(TTTensix *t, int thread, uint32_t w)
{
    TTTensixThread *th = &t->th[thread];
    TTTensixSrc *sa = &t->src[TT_SRCA], *sb = &t->src[TT_SRCB];
    unsigned n = tt_movb2a_instr_mod(w) & 2 ? 4 : 1;
    unsigned ra = (tt_movb2a_srca(w) + th->rwc.srca) & (0x40 - n);
    unsigned rb = (tt_movb2a_srcb(w) + th->rwc.srcb) & (0x40 - n);
    bool flush = !TT_CFG(tt_cfgw(t, thread),
                         ALU_ACC_CTRL_Zero_Flag_disabled_src);

    if (!tt_bank_ready(t, TT_SRCB)) {
        trace_tt_tensix_stall(t->tile_x, t->tile_y, thread, "SrcB valid");
        return false;
    }
    tt_src_changed(t, TT_SRCA, sa->matrix_bank);
    for (unsigned r = 0; r < n; r++) {
        for (unsigned c = 0; c < 16; c++) {
            uint32_t v = sb->cell[sb->matrix_bank][rb + r][c];

            sa->cell[sa->matrix_bank][ra + r][c] =
                flush && !(v >> 23 & 0xff) ? 0 : v;
        }
    }
    tt_addr_mod(t, thread, tt_movb2a_addr_mode(w), true);
    return true;
}

/* TRNSPSRCB (TRNSPSRCB.md): transpose rows 16-31 of SrcB's bank */
bool tensix_trnspsrcb(TTTensix *t, int thread, uint32_t w)
{
    TTTensixSrc *sb = &t->src[TT_SRCB];
    uint32_t (*m)[TT_ROW_DATUMS] = sb->cell[sb->matrix_bank] + 16;

    if (!tt_bank_ready(t, TT_SRCB)) {
        trace_tt_tensix_stall(t->tile_x, t->tile_y, thread, "SrcB valid");
        return false;
    }
    tt_src_changed(t, TT_SRCB, sb->matrix_bank);
    for (unsigned i = 0; i < 16; i++) {
        for (unsigned j = i + 1; j < 16; j++) {
            uint32_t x = m[i][j];

            m[i][j] = m[j][i];
            m[j][i] = x;
        }
    }
    return true;
}

/*
 * SHIFTXB (SHIFTXB.md): shift one SrcB row by one column, left or
 * rotating.  SHIFTXA (SHIFTXA.md): shift 16 SrcA rows one column in the
 * direction of ShiftMode; bit 1 set shifts left.
 */
bool tensix_shiftxb(TTTensix *t, int thread, uint32_t w)
{
    TTTensixSrc *sb = &t->src[TT_SRCB];
    unsigned row = (tt_shiftxb_shift_row(w) + t->th[thread].rwc.srcb) & 0x3f;
    uint32_t *r = sb->cell[sb->matrix_bank][row], first = r[0];

    if (!tt_bank_ready(t, TT_SRCB)) {
        return false;
    }
    tt_src_changed(t, TT_SRCB, sb->matrix_bank);
    memmove(r, r + 1, 15 * sizeof(*r));
    r[15] = tt_shiftxb_rot_shift(w) ? first : 0;
    tt_addr_mod(t, thread, tt_shiftxb_addr_mode(w), true);
    return true;
}

bool tensix_shiftxa(TTTensix *t, int thread, uint32_t w)
{
    TTTensixSrc *sa = &t->src[TT_SRCA];
    unsigned base = t->th[thread].rwc.srca & 0x30;

    if (!tt_bank_ready(t, TT_SRCA)) {
        return false;
    }
    tt_src_changed(t, TT_SRCA, sa->matrix_bank);
    for (unsigned i = 0; i < 16; i++) {
        uint32_t *r = sa->cell[sa->matrix_bank][base + i];

        if (tt_shiftxa_shift_mode(w) & 2) {
            memmove(r, r + 1, 15 * sizeof(*r));
            r[15] = 0;
        } else {
            memmove(r + 1, r, 15 * sizeof(*r));
            r[0] = 0;
        }
    }
    return true;
}

/* ----------------------------------------------------------- clears -- */

/*
 * ZEROACC (ZEROACC.md): clear Dst rows' valid bits (the data stays): one
 * row, 16 rows (a face; Blackhole picks the thread's Dst half unless
 * zeroacc_absolute_tile_mode), half or all of Dst.  The 32-bit 16-row
 * mode with clear_zero_flags sets the rows valid instead.
 */
bool tensix_zeroacc(TTTensix *t, int thread, uint32_t w)
{
    TTTensixThread *th = &t->th[thread];
    const uint32_t *c = tt_cfgw(t, thread);
    unsigned mode = tt_zeroacc_clear_mode(w), where = tt_zeroacc_where(w);
    bool b32 = tt_zeroacc_use_32_bit_mode(w);
    unsigned off = th->rwc.dst +
                   TT_THCFG(th->thread_cfg, DEST_TARGET_REG_CFG_MATH_Offset);
    bool absolute = TT_CFG(t->cfg[0],
                           DEST_ACCESS_CFG_zeroacc_absolute_tile_mode);
    unsigned row, f;

    switch (mode) {
    case 0:
        row = (where + off) & TT_RWC_DST_MASK;
        t->dst_valid[b32 || TT_CFG(c, ALU_ACC_CTRL_Fp32_enabled)
                     ? tt_dst_adj32(row) : row] = false;
        break;
    case 1:
        if (!b32) {
            f = where + (!absolute && (off & 512) ? 32 : 0);
            if (f < 64) {
                memset(&t->dst_valid[16 * f], 0, 16);
            }
            break;
        }
        f = where + (!absolute && (off & 0x300) ? 16 : 0);
        for (unsigned r = 0; r < 16 && f < 32; r++) {
            t->dst_valid[tt_dst_adj32(16 * f + r)] =
                tt_zeroacc_clear_zero_flags(w);
        }
        break;
    case 2:
        memset(&t->dst_valid[512 * (where & 1)], 0, 512);
        return true;
    default:
        memset(t->dst_valid, 0, sizeof(t->dst_valid));
        return true;
    }
    tt_addr_mod(t, thread, tt_zeroacc_addr_mode(w), true);
    return true;
}

/* ZEROSRC (ZEROSRC.md): zero Src banks (SrcA can be filled with -inf) */
bool tensix_zerosrc(TTTensix *t, int thread, uint32_t w)
{
    unsigned mask = tt_zerosrc_src_mask(w);
    uint32_t fill = tt_zerosrc_zero_val(w) ? 0xffffe000 : 0;

    for (unsigned which = 0; which < 2; which++) {
        TTTensixSrc *s = &t->src[which];

        if (!(mask & BIT(which))) {
            continue;
        }
        for (unsigned b = 0; b < 2; b++) {
            bool cur = b == (tt_zerosrc_write_mode(w) ? s->matrix_bank
                                                      : s->unpack_bank);
            uint32_t v = which == TT_SRCA ? fill : 0;

            if (!tt_zerosrc_bank_mask(w) && !cur) {
                continue;
            }
            tt_src_changed(t, which, b);
            for (unsigned r = 0; r < TT_SRC_ROWS; r++) {
                for (unsigned col = 0; col < TT_ROW_DATUMS; col++) {
                    s->cell[b][r][col] = v;
                }
            }
        }
    }
    return true;
}

/*
 * CLEARDVALID (CLEARDVALID.md): hand banks back to the unpackers.  Reset
 * returns both registers to their power-on ownership.
 */
bool tensix_cleardvalid(TTTensix *t, int thread, uint32_t w)
{
    unsigned mask = tt_cleardvalid_cleardvalid(w);

    if (tt_cleardvalid_reset(w) & 1) {
        for (unsigned which = 0; which < 2; which++) {
            t->src[which].valid = 0;
            t->src[which].unpack_bank = t->src[which].matrix_bank = 0;
        }
        t->nflips = 0;
        t->flip_thread = -1;
        return true;
    }
    for (unsigned which = 0; which < 2; which++) {
        TTTensixSrc *s = &t->src[which];

        if (mask & BIT(which)) {
            tt_src_publish_through(t, which, s->matrix_bank);
            s->valid &= ~BIT(s->matrix_bank);
            if (!(tt_cleardvalid_reset(w) & 2)) {   /* KeepReadingSameSrc */
                s->matrix_bank ^= 1;
            }
        }
    }
    return true;
}

/* GATESRCRST: resets an operand cache the model does not have */
bool tensix_gatesrcrst(TTTensix *t, int thread, uint32_t w)
{
    return true;
}

/* CLREXPHIST: clears the packers' exponent histogram, not modelled */
bool tensix_clrexphist(TTTensix *t, int thread, uint32_t w)
{
    return true;
}

/*
 * The neutered convolution and pooling instructions (MatrixUnit.md
 * "Legacy instructions") compute Dst += 0 (MPOOL*: GMPOOL over zeros,
 * which leaves what Dst holds) but still advance the RWCs.
 */
static bool tt_legacy(TTTensix *t, int thread, unsigned addr_mode,
                      unsigned clear_dvalid)
{
    if (!tt_fpu_both_ready(t, thread)) {
        return false;
    }
    return tt_fpu_done(t, thread, addr_mode, clear_dvalid);
}

bool tensix_conv3s1(TTTensix *t, int thread, uint32_t w)
{
    return tt_legacy(t, thread, tt_conv3s1_addr_mode(w),
                     tt_conv3s1_clear_dvalid(w));
}

bool tensix_conv3s2(TTTensix *t, int thread, uint32_t w)
{
    return tt_legacy(t, thread, tt_conv3s2_addr_mode(w),
                     tt_conv3s2_clear_dvalid(w));
}

bool tensix_mfconv3s1(TTTensix *t, int thread, uint32_t w)
{
    return tt_legacy(t, thread, tt_mfconv3s1_addr_mode(w),
                     tt_mfconv3s1_clear_dvalid(w));
}

bool tensix_apool3s1(TTTensix *t, int thread, uint32_t w)
{
    return tt_legacy(t, thread, tt_apool3s1_pool_addr_mode(w),
                     tt_apool3s1_clear_dvalid(w));
}

bool tensix_apool3s2(TTTensix *t, int thread, uint32_t w)
{
    return tt_legacy(t, thread, tt_apool3s2_pool_addr_mode(w),
                     tt_apool3s2_clear_dvalid(w));
}

bool tensix_mpool3s1(TTTensix *t, int thread, uint32_t w)
{
    return tt_legacy(t, thread, tt_mpool3s1_pool_addr_mode(w),
                     tt_mpool3s1_clear_dvalid(w));
}

bool tensix_mpool3s2(TTTensix *t, int thread, uint32_t w)
{
    return tt_legacy(t, thread, tt_mpool3s2_pool_addr_mode(w),
                     tt_mpool3s2_clear_dvalid(w));
}

/* ------------------------------------------------------------- RWCs -- */

/* SETRWC (SETRWC.md): set counters, optionally relative to Cr or Dst */
bool tensix_setrwc(TTTensix *t, int thread, uint32_t w)
{
    TTTensixRwc *r = &t->th[thread].rwc;
    uint32_t bits = tt_setrwc_bit_mask(w), cr = tt_setrwc_rwc_cr(w);
    uint32_t v;

    if (bits & 1) {
        v = tt_setrwc_rwc_a(w) + (cr & 1 ? r->srca_cr : 0);
        r->srca = r->srca_cr = v & TT_RWC_SRC_MASK;
    }
    if (bits & 2) {
        v = tt_setrwc_rwc_b(w) + (cr & 2 ? r->srcb_cr : 0);
        r->srcb = r->srcb_cr = v & TT_RWC_SRC_MASK;
    }
    if ((bits & 4) || (cr & 8)) {
        v = tt_setrwc_rwc_d(w) + (cr & 8 ? r->dst : cr & 4 ? r->dst_cr : 0);
        r->dst = r->dst_cr = v & TT_RWC_DST_MASK;
    }
    if (bits & 8) {
        r->fidelity = 0;
    }
    tt_fpu_clear_dvalid(t, thread, tt_setrwc_clear_ab_vld(w));
    return true;
}

/* INCRWC (INCRWC.md): increment, or increment Cr and copy it */
bool tensix_incrwc(TTTensix *t, int thread, uint32_t w)
{
    TTTensixRwc *r = &t->th[thread].rwc;
    uint32_t cr = tt_incrwc_rwc_cr(w);

    if (cr & 1) {
        r->srca = r->srca_cr = (r->srca_cr + tt_incrwc_rwc_a(w)) &
                               TT_RWC_SRC_MASK;
    } else {
        r->srca = (r->srca + tt_incrwc_rwc_a(w)) & TT_RWC_SRC_MASK;
    }
    if (cr & 2) {
        r->srcb = r->srcb_cr = (r->srcb_cr + tt_incrwc_rwc_b(w)) &
                               TT_RWC_SRC_MASK;
    } else {
        r->srcb = (r->srcb + tt_incrwc_rwc_b(w)) & TT_RWC_SRC_MASK;
    }
    if (cr & 4) {
        r->dst = r->dst_cr = (r->dst_cr + tt_incrwc_rwc_d(w)) &
                             TT_RWC_DST_MASK;
    } else {
        r->dst = (r->dst + tt_incrwc_rwc_d(w)) & TT_RWC_DST_MASK;
    }
    return true;
}

/* ---------------------------------------------------------- monitor -- */

void tt_fpu_dump(TTTensix *t, GString *out)
{
    static const char *const name[2] = { "SrcA", "SrcB" };
    static const char *const owner[3] = {
        "unpackers", "matrix unit", "matrix unit (in flight)",
    };
    unsigned valid = 0;

    for (unsigned i = 0; i < TT_DST_ROWS; i++) {
        valid += t->dst_valid[i];
    }
    for (unsigned which = 0; which < 2; which++) {
        TTTensixSrc *s = &t->src[which];

        g_string_append_printf(out, "  %s: bank 0 %s, bank 1 %s; unpacker "
                               "fills bank %u, matrix unit reads bank %u; "
                               "formats %u/%u\n", name[which],
                               owner[tt_src_in_flight(t, which, 0) ? 2 :
                                     s->valid & 1],
                               owner[tt_src_in_flight(t, which, 1) ? 2 :
                                     s->valid >> 1 & 1],
                               s->unpack_bank, s->matrix_bank,
                               s->format[0], s->format[1]);
    }
    g_string_append_printf(out, "  Dst: %u of %u rows valid; packer %s "
                           "(next datum 0x%x, exponent 0x%x)\n", valid,
                           TT_DST_ROWS, t->packer.open ? "mid-group" : "idle",
                           t->packer.data, t->packer.exp);
}
