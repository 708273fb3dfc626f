/*
 * TRISC1: the math thread.  Dst hand-off, configuration and the
 * per-operation sequences follow tt-llk's Blackhole math kernels
 * (tenstorrent/tt-llk tt_llk_blackhole/llk_lib/llk_math_common.h,
 * llk_math_eltwise_unary_datacopy.h, llk_math_eltwise_binary.h,
 * llk_math_matmul.h, llk_math_reduce.h; common/inc/cmath_common.h),
 * written out as instruction words for 32x32 tiles in SyncHalf mode.
 * The vector-unit operations that follow a datacopy are in sfpu.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ttk.h"

#define DST_HALF_ROWS       512
#define DST_TILE_ROWS       64
#define MATH_REPLAY_BASE    16      /* slots 16-31 belong to math/pack */

static uint32_t dest_half;      /* half of Dst the next section writes */

/* --------------------------------------------------- Dst hand-off -- */

/* _llk_math_pack_sync_init_ (SyncHalf: two sections in flight) */
static void math_pack_sync_init(void)
{
    tensix_sync();
    while (sem_read(SEM_MATH_PACK) != 0) {
        cpu_relax();
    }
    tt_push(TT_SEMINIT(2, 0, SEM_BIT(SEM_MATH_PACK)));
    dest_half = 0;
    tt_push(TT_SETC16(TC_DEST_TARGET_MATH, 0));
}

/* _llk_math_hw_configure_: Dst width, integer math for Int8 sources */
static void math_hw_configure(uint32_t fp32, uint32_t int8)
{
    CFG_RMW(DEST_ACCESS_CFG_zeroacc_absolute_tile_mode, 0);
    tt_push(TT_STALLWAIT(STALL_CFG, WAIT_MATH));
    CFG_RMW(ALU_ACC_CTRL_INT8_math_enabled, int8 ? 1 : 0);
    CFG_RMW(ALU_ACC_CTRL_Fp32_enabled, fp32 ? 1 : 0);
    CFG_RMW(ALU_ACC_CTRL_SFPU_Fp32_enabled, fp32 ? 1 : 0);
}

/* _llk_math_wait_for_dest_available_: a free half (MATH_PACK < 2) */
static void math_wait_for_dest(void)
{
    tt_push(TT_SEMWAIT(STALL_MATH | STALL_SFPU | STALL_SYNC,
                       SEM_BIT(SEM_MATH_PACK), SEM_WAIT_MAX));
}

/* _llk_math_dest_section_done_: hand the half to the packer, flip */
static void math_dest_section_done(void)
{
    tt_push(TT_STALLWAIT(STALL_SYNC, WAIT_MATH | WAIT_SFPU));
    tt_push(TT_SEMPOST(SEM_BIT(SEM_MATH_PACK)));
    dest_half ^= 1;
    tt_push(TT_STALLWAIT(STALL_CFG, WAIT_MATH | WAIT_SFPU));
    tt_push(TT_SETC16(TC_DEST_TARGET_MATH, dest_half * DST_HALF_ROWS));
}

/* math::set_dst_write_addr: tile @t of the current half */
static void math_set_dst(uint32_t t)
{
    tt_push(TT_SETC16(TC_DEST_TARGET_MATH,
                      dest_half * DST_HALF_ROWS + t * DST_TILE_ROWS));
}

static void reset_counters(void)
{
    tt_push(TT_SETRWC(CLR_NONE, 0, 0, 0, 0, SET_ABD_F));
}

/* ------------------------------------------------------ datacopy -- */

/*
 * _llk_math_eltwise_unary_datacopy_init_<A2D>: per face two 8-row moves,
 * then hand both Src banks back.  With a 32-bit Dst the move is an
 * ELWADD of SrcA and the zeroed SrcB, which writes FP32.
 */
static void datacopy_init(uint32_t fp32, uint32_t tilize)
{
    uint32_t mov = fp32 ? TT_ELWADD(CLR_NONE, 0, 0, 2, 0)
                        : TT_MOVA2D(0, 0, 2, MOV_8_ROWS, 0);
    uint32_t clr = TT_SETRWC(CLR_AB, 0, 0, 0, 0, SET_AB);

    addr_mod(3, 0, 0);
    addr_mod(0, AM_AB(AM_SRC(1, 0, 0), 0), AM_DST(1, 0, 0, 0, 0, 0));
    addr_mod(2, AM_AB(AM_SRC(8, 0, 0), 0), AM_DST(8, 0, 0, 0, 0, 0));
    if (tilize) {
        /* the tileize unpack fills all 64 SrcA rows at once */
        mop_program(1, 8, TT_NOP, clr, TT_NOP, mov, TT_NOP, mov, mov);
    } else {
        mop_program(4, 2, TT_NOP, clr, TT_NOP, mov, TT_NOP, mov, mov);
    }
    tt_push(TT_SETC16(TC_CLR_DVALID, 0));
    reset_counters();
}

static void datacopy_tile(uint32_t t)
{
    math_set_dst(t);
    mop_run();
    tt_push(TT_SETRWC(CLR_NONE, 0, 0, 0, 0, SET_D));
}

/*
 * _llk_math_reconfig_remap_: the packer's strided Dst reads (untilize)
 * need DEST_ACCESS_CFG remap_addrs and swizzle_32b; change them only
 * while no section is with the packer.
 */
static void math_reconfig_remap(uint32_t on)
{
    tensix_sync();
    while (sem_read(SEM_MATH_PACK) > 0) {
        cpu_relax();
    }
    CFG_RMW(DEST_ACCESS_CFG_remap_addrs, on ? 1 : 0);
    CFG_RMW(DEST_ACCESS_CFG_swizzle_32b, on ? 1 : 0);
}

/* ------------------------------------------------ eltwise binary -- */

/*
 * _llk_math_eltwise_binary_init_: per face two 8-row operations, then
 * SrcA/SrcB counters back to their CR values and both banks released.
 * HiFi ELWMUL runs one face per MOP with the fidelity phases as the
 * outer loop: ADDR_MOD_2 rewinds the face and steps the phase, ADDR_MOD_3
 * moves on to the next face and clears the phase.
 */
/* ELWADD, ELWSUB or ELWMUL (TTK_ELW_*), no accumulation or broadcast */
static uint32_t elw(uint32_t sub_op, uint32_t clr, uint32_t am)
{
    switch (sub_op) {
    case TTK_ELW_SUB:
        return TT_ELWSUB(clr, 0, 0, am, 0);
    case TTK_ELW_MUL:
        return TT_ELWMUL(clr, 0, 0, am, 0);
    default:
        return TT_ELWADD(clr, 0, 0, am, 0);
    }
}

static void eltwise_init(uint32_t sub_op, uint32_t fidelity)
{
    uint32_t hifi = sub_op == TTK_ELW_MUL && fidelity;
    uint32_t clr = AM_SRC(0, 0, 1);

    addr_mod(0, AM_AB(AM_SRC(8, 0, 0), AM_SRC(8, 0, 0)),
             AM_DST(8, 0, 0, 0, 0, 0));
    addr_mod(1, 0, 0);
    addr_mod(2, AM_AB(clr, clr), AM_DST(0, 1, 0, 0, hifi, 0));
    addr_mod(3, AM_AB(clr, clr), AM_DST(8, 0, 0, 1, 0, 1));
    if (hifi) {
        mop_program(fidelity, 2, TT_NOP, TT_NOP, TT_NOP,
                    elw(sub_op, CLR_NONE, 0), TT_NOP,
                    elw(sub_op, CLR_AB, 3), elw(sub_op, CLR_NONE, 2));
    } else {
        uint32_t w = elw(sub_op, CLR_NONE, 0);

        mop_program(4, 2, TT_NOP, TT_SETRWC(CLR_AB, 3, 0, 0, 0, SET_AB),
                    TT_NOP, w, TT_NOP, w, w);
    }
    tt_push(TT_SETC16(TC_CLR_DVALID, 0));
    reset_counters();
}

static void eltwise_tile(uint32_t t, uint32_t hifi)
{
    math_set_dst(t);
    for (int f = 0; f < (hifi ? 4 : 1); f++) {
        mop_run();
    }
    tt_push(TT_SETRWC(CLR_NONE, 0, 0, 0, 0, SET_D));
}

/* -------------------------------------------------------- matmul -- */

/*
 * _llk_math_matmul_init_ (32x32 by 32x32, ct = rt = 1, no transpose).
 * MVMUL: Dst[8 rows] += SrcB[8 rows] x SrcA[16x16].  The sixteen MVMULs
 * of one fidelity phase walk in0 faces (SrcB rows) and in1 faces (SrcA
 * rows) so that every output face gets both of its products; the last
 * one (ADDR_MOD_5) rewinds everything and steps the phase.
 */
static void matmul_init(uint32_t fidelity)
{
    static const uint8_t am_seq[16] = {
        0, 1, 0, 2, 0, 1, 0, 4, 0, 1, 0, 2, 0, 1, 0, 5,
    };
    uint32_t replay = TT_REPLAY(MATH_REPLAY_BASE, 16, 0, 0);
    uint32_t all = AM_SRC(0, 1, 1);

    addr_mod(0, AM_AB(0, AM_SRC(8, 0, 0)), AM_DST(8, 0, 0, 0, 0, 0));
    addr_mod(5, AM_AB(all, all), AM_DST(0, 1, 1, 0, fidelity ? 1 : 0, 0));
    addr_mod(1, AM_AB(AM_SRC(16, 0, 0), AM_SRC(0, 1, 0)),
             AM_DST(8, 0, 0, 0, 0, 0));
    addr_mod(2, AM_AB(AM_SRC(0, 1, 0), AM_SRC(32, 1, 0)),
             AM_DST(8, 0, 0, 0, 0, 0));
    addr_mod(4, AM_AB(AM_SRC(32, 1, 0), AM_SRC(48, 1, 0)),
             AM_DST(0, 1, 0, 0, 0, 0));

    tt_push(TT_REPLAY(MATH_REPLAY_BASE, 16, 0, 1));
    for (int i = 0; i < 15; i++) {
        tt_push(TT_MVMUL(CLR_NONE, 0, am_seq[i], 0));
    }
    /* LoFi: the single pass also hands SrcA back */
    tt_push(TT_MVMUL(fidelity ? CLR_NONE : CLR_A, 0, 5, 0));

    if (fidelity) {
        mop_program(1, fidelity, TT_NOP,
                    TT_SETRWC(CLR_A, 0, 0, 0, 0, SET_ABD_F), TT_NOP,
                    replay, TT_NOP, replay, replay);
    } else {
        mop_program(1, 1, TT_NOP, TT_NOP, TT_NOP, replay, TT_NOP, replay,
                    replay);
    }
    reset_counters();
}

/* _llk_math_matmul_: one in0/in1 tile pair into Dst tile @t */
static void matmul_tile(uint32_t t)
{
    math_set_dst(t);
    mop_run();
    tt_push(TT_SETRWC(CLR_B, 0, 0, 0, 0, SET_ABD_F));
}

/* -------------------------------------------------------- reduce -- */

/*
 * _llk_math_reduce_init_: GAPOOL/GMPOOL over 16x16 faces, SrcB row 0 is
 * the scaler.  HiFi sums run the phases through a MOP (ADDR_MOD_3 steps
 * the phase, ADDR_MOD_0 clears it).
 */
static void reduce_init(uint32_t fidelity)
{
    addr_mod(0, 0, AM_DST(0, 0, 0, 0, 0, 1));
    addr_mod(1, AM_AB(0, AM_SRC(1, 0, 0)), AM_DST(1, 0, 0, 0, 0, 0));
    addr_mod(2, AM_AB(0, AM_SRC(8, 0, 0)), AM_DST(8, 0, 0, 0, 0, 0));
    if (fidelity) {
        uint32_t last = TT_GAPOOL(CLR_NONE, POOL_16X16, 0, 0, 0);

        addr_mod(3, 0, AM_DST(0, 0, 0, 0, 1, 0));
        mop_program(1, fidelity, TT_NOP, TT_NOP, TT_NOP,
                    TT_GAPOOL(CLR_NONE, POOL_16X16, 3, 0, 0), TT_NOP,
                    last, last);
    }
    tt_push(TT_SETC16(TC_CLR_DVALID, 0));
    reset_counters();
}

/* reduce_pool_op: one face into Dst (4 rows), optionally releasing Src */
static void pool_op(uint32_t max, uint32_t hifi, uint32_t clr)
{
    if (max) {
        tt_push(TT_GMPOOL(clr, POOL_16X16, 0, 0, 0));
    } else if (hifi) {
        mop_run();
        if (clr) {
            tt_push(TT_CLEARDVALID(clr, 0));
        }
    } else {
        tt_push(TT_GAPOOL(clr, POOL_16X16, 0, 0, 0));
    }
}

/*
 * reduce_row_perform_transpose (16-bit path): the pooled Dst row goes to
 * SrcB row 16, is transposed there into a column, and comes back to Dst
 * rows 0-15 as SrcB + zeroed SrcA.
 */
static void reduce_row_transpose(void)
{
    tt_push(TT_SETRWC(CLR_NONE, RWC_CR_D, 0, 0, 0, SET_AB));
    tt_push(TT_MOVD2B(0, 16, 0, MOV_1_ROW, 0));
    tt_push(TT_TRNSPSRCB);
    tt_push(TT_MOVD2B(0, 16, 0, MOV_1_ROW, 0));
    tt_push(TT_SETRWC(CLR_NONE, RWC_CR_B, 0, 8, 0, SET_B));
    tt_push(TT_SETRWC(CLR_NONE, RWC_CR_B, 0, 8, 0, SET_B));
    tt_push(TT_ZEROSRC(0, 1, 0, 1));
    tt_push(TT_ELWADD(CLR_NONE, 0, 0, 2, 0));
    tt_push(TT_ELWADD(CLR_NONE, 0, 0, 2, 0));
}

static void reduce_tile(uint32_t t, uint32_t sub_op, uint32_t hifi)
{
    uint32_t max = sub_op & TTK_REDUCE_MAX;

    math_set_dst(t);
    if (sub_op & TTK_REDUCE_COL) {
        /* faces 0/1 into Dst rows 0 and 16; faces 2/3 on top of them */
        for (int r = 0; r < 2; r++) {
            pool_op(max, hifi, CLR_NONE);
            tt_push(TT_SETRWC(CLR_NONE, RWC_CR_D, 8, 0, 0, SET_D));
            tt_push(TT_SETRWC(CLR_AB, RWC_CR_D, 8, 0, 0, SET_D));
            pool_op(max, hifi, CLR_NONE);
            tt_push(TT_SETRWC(CLR_AB, 0, 0, 0, 0, SET_AD));
        }
        return;
    }
    /* faces 0+1 into Dst rows 0-15 (column 0), faces 2+3 into 32-47 */
    for (int r = 0; r < 2; r++) {
        pool_op(max, hifi, CLR_AB);
        pool_op(max, hifi, CLR_NONE);
        reduce_row_transpose();
        if (r == 0) {
            for (int i = 0; i < 3; i++) {
                tt_push(TT_SETRWC(CLR_NONE, RWC_CR_D, 8, 0, 0, SET_D));
            }
            tt_push(TT_SETRWC(CLR_AB, RWC_CR_D, 8, 0, 0, SET_BD));
        }
    }
    tt_push(TT_SETRWC(CLR_AB, 0, 0, 0, 0, SET_BD));
}

/* ---------------------------------------------------------- main -- */

uint32_t ttk_math(const TTKParams *p)
{
    uint32_t op = p->op, sub_op = p->sub_op, fid = p->fidelity;
    uint32_t ntiles = p->mt * p->nt, block = p->block;
    uint32_t hifi = fid != 0;

    math_pack_sync_init();
    math_hw_configure(p->dst_fp32, p->fmt_a == TTK_FMT_INT8);
    switch (op) {
    case TTK_OP_DATACOPY:
    case TTK_OP_TRANSPOSE:
    case TTK_OP_TILIZE:
        datacopy_init(p->dst_fp32, op == TTK_OP_TILIZE);
        break;
    case TTK_OP_UNTILIZE:
        datacopy_init(p->dst_fp32, 0);
        math_reconfig_remap(1);
        break;
    case TTK_OP_ELTWISE:
        eltwise_init(sub_op, fid);
        hifi = sub_op == TTK_ELW_MUL && fid;
        break;
    case TTK_OP_MATMUL:
        matmul_init(fid);
        break;
    case TTK_OP_REDUCE:
        reduce_init(fid);
        break;
    case TTK_OP_SFPU:
        datacopy_init(p->dst_fp32, 0);
        sfpu_init(p);
        break;
    default:
        return TTK_ERR_OP;
    }

    for (uint32_t t0 = 0; t0 < ntiles; t0 += block) {
        uint32_t n = ntiles - t0 < block ? ntiles - t0 : block;

        set_stage(1, t0 << 8 | 3);
        math_wait_for_dest();
        for (uint32_t i = 0; i < n; i++) {
            set_stage(1, (t0 + i) << 8 | 4);
            switch (op) {
            case TTK_OP_DATACOPY:
            case TTK_OP_TRANSPOSE:
            case TTK_OP_TILIZE:
            case TTK_OP_UNTILIZE:
                datacopy_tile(i);
                break;
            case TTK_OP_ELTWISE:
                eltwise_tile(i, hifi);
                break;
            case TTK_OP_MATMUL:
                for (uint32_t k = 0; k < p->kt; k++) {
                    matmul_tile(i);
                }
                break;
            case TTK_OP_SFPU:
                datacopy_tile(i);
                if (sub_op == TTK_SFPU_TOPK && i + 1 < n) {
                    break;          /* once the block's 4 tiles are in */
                }
                /*
                 * Not in tt-llk: wait for the datacopy (and the unpacker
                 * behind it) before pushing the SFPU stream, up to ~1400
                 * words a tile.  ttsim v1.10.0 does not stall a TRISC on
                 * a full instruction FIFO (see pack.c); the stream is
                 * unchanged.
                 */
                tensix_sync();
                sfpu_tile(p, dest_half * DST_HALF_ROWS +
                          (sub_op == TTK_SFPU_TOPK ? 0 : i) * DST_TILE_ROWS);
                break;
            default:
                reduce_tile(i, sub_op, hifi);
                break;
            }
        }
        math_dest_section_done();
    }
    if (op == TTK_OP_UNTILIZE) {
        /* leave Dst addressing as the other operations expect it */
        math_reconfig_remap(0);
    }
    set_stage(1, 0xff);
    return TTK_ERR_NONE;
}
