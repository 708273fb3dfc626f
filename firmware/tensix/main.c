/*
 * tt-kernels: the common part of the three TRISCs.  Each clears its
 * thread's GPRs (as tt-metal's TRISC firmware does), checks the parameter
 * block, and waits for TRISC0's device setup; then it runs its half of
 * the operation (unpack.c, math.c, pack.c), waits for its Tensix thread
 * to drain, and reports.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ttk.h"

uint32_t ttk_mop_shadow[9];

/*
 * What tt-metal's BRISC (and tt-llk's TRISC-boot tests) do before any
 * kernel runs (tt-metal tt_metal/hw/firmware/src/tt-1xx/brisc.cc
 * device_setup(); tt-llk tests/helpers/include/boot.h): ungate the Dst
 * clock, invalidate all of Dst, and initialise the semaphores the LLK
 * handshakes use (MATH_PACK is set up by the math thread itself).  For
 * the vector-unit operations also boot.h's SFPU state: condition codes
 * enabled with every lane's flag set, LReg11 = -1.0 (SFPI's vConstNeg1).
 */
static void device_setup(const TTKParams *p)
{
    REG32(DEST_CG_CTRL) = 0;
    tt_push(TT_ZEROACC(ZEROACC_ALL, 0, 0, 1, 0));
    if (p->op == TTK_OP_SFPU) {
        tt_push(TT_SFPENCC(3, 0, 0, 10));
        tt_push(TT_NOP);
        tt_push(TT_SFPCONFIG(0, 11, 1));
    }
    tt_push(TT_SEMINIT(1, 0, SEM_BIT(SEM_UNPACK_TO_DEST)));
    tt_push(TT_SEMINIT(1, 0, SEM_BIT(SEM_MATH_DONE)));
    tt_push(TT_SEMINIT(1, 0, SEM_BIT(SEM_PACK_DONE)));
    tensix_sync();
}

/* L1 inputs: BF16, BFP8 and Int8 (unpacked as themselves) */
static int in_format_ok(uint32_t fmt)
{
    return fmt == TTK_FMT_FLOAT16_B || fmt == TTK_FMT_BFP8_B ||
           fmt == TTK_FMT_INT8;
}

/* Int32 from the fp32 -> int32 typecast (check_sfpu) or integer math */
static int out_format_ok(uint32_t fmt)
{
    return in_format_ok(fmt) || fmt == TTK_FMT_FLOAT32 ||
           fmt == TTK_FMT_INT32;
}

static int is_int(uint32_t fmt)
{
    return fmt == TTK_FMT_INT8 || fmt == TTK_FMT_INT32;
}

/*
 * Integer math (tt-llk enables it for Int8 or Int32 sources): Int8 in,
 * a 32-bit (INT32) Dst, packed as Int8 or Int32, for datacopy (ELWADD
 * with a zero SrcB, as tt-llk copies Int8) and eltwise
 */
static uint32_t check_int(const TTKParams *p)
{
    if (!is_int(p->fmt_a) && !is_int(p->fmt_b)) {
        return TTK_ERR_NONE;
    }
    if (p->op != TTK_OP_DATACOPY && p->op != TTK_OP_ELTWISE) {
        return TTK_ERR_OP;
    }
    if (p->fmt_a != TTK_FMT_INT8 || p->fmt_b != TTK_FMT_INT8 ||
        p->unpack_out_a != TTK_FMT_INT8 || p->unpack_out_b != TTK_FMT_INT8 ||
        !is_int(p->pack_src) || p->fmt_out != p->pack_src ||
        !p->dst_fp32) {
        return TTK_ERR_FORMAT;
    }
    return TTK_ERR_NONE;
}

/*
 * TTK_MM_DRAM: a 1 x nt row of outputs; A, B and C buffers in this order
 * in the data area, each large enough; banks and GDDR addresses usable
 * (64-byte aligned, as NOC reads from GDDR need: tt-metal
 * noc_parameters.h DRAM_ALIGNMENT).
 */
static uint32_t check_dram(const TTKParams *p)
{
    TTKMatmulShape s;
    uint64_t a_end, b_end, c_end;

    if (p->mt != 1 || !p->n_total) {
        return TTK_ERR_DIMS;
    }
    s = ttk_matmul_shape(p);
    /* 64-bit: tile counts from the host must not wrap the checks */
    a_end = p->addr_a + (uint64_t)s.rows * p->kt * tile_size16(p->fmt_a) * 16;
    b_end = p->addr_b + (uint64_t)s.cols * p->kt * tile_size16(p->fmt_b) * 16;
    c_end = p->addr_c + (uint64_t)p->nt * tile_size16(p->fmt_out) * 16;
    if (p->addr_a < TTK_DATA_ADDR || a_end > p->addr_b ||
        b_end > p->addr_c || c_end > TTK_DATA_END ||
        !p->nbanks || p->nbanks > TTK_MAX_BANKS ||
        ((p->dram_a | p->dram_b | p->dram_c) & 63)) {
        return TTK_ERR_LAYOUT;
    }
    return TTK_ERR_NONE;
}

/*
 * TTK_OP_SFPU: a known op, SFPLOADMACRO only where tt-llk has that form;
 * the typecasts need a 32-bit Dst, and only fp32 -> int32 writes Int32;
 * topk sorts the block of 4 tiles (values, then indices) up to phase 1.
 */
static uint32_t check_sfpu(const TTKParams *p)
{
    uint32_t op = p->sub_op & ~TTK_SFPU_MACRO;
    uint32_t int_out = p->fmt_out == TTK_FMT_INT32 ||
                       p->pack_src == TTK_FMT_INT32;

    if (op > TTK_SFPU_LAST ||
        ((p->sub_op & TTK_SFPU_MACRO) && op != TTK_SFPU_EXP &&
         op != TTK_SFPU_RECIP && op != TTK_SFPU_INT32_ROUNDTRIP)) {
        return TTK_ERR_OP;
    }
    if (((op == TTK_SFPU_FP32_TO_INT32 ||
          op == TTK_SFPU_INT32_ROUNDTRIP) && !p->dst_fp32) ||
        int_out != (op == TTK_SFPU_FP32_TO_INT32) ||
        (int_out && (p->fmt_out != TTK_FMT_INT32 ||
                     p->pack_src != TTK_FMT_INT32))) {
        return TTK_ERR_FORMAT;
    }
    if (op == TTK_SFPU_TOPK &&
        (p->mt * p->nt != 4 || p->block != 4 || p->sfpu_arg > 1)) {
        return TTK_ERR_DIMS;
    }
    return TTK_ERR_NONE;
}

/* The same checks on every core, so that all five agree to stop */
uint32_t ttk_check_params(const TTKParams *p)
{
    uint32_t ntiles = p->mt * p->nt;
    uint32_t max_block = p->dst_fp32 ? 4 : 8;
    uint32_t err;

    if (p->magic != TTK_MAGIC) {
        return TTK_ERR_MAGIC;
    }
    switch (p->op) {
    case TTK_OP_MATMUL:
        if (p->sub_op > TTK_MM_DRAM) {
            return TTK_ERR_OP;
        }
        break;
    case TTK_OP_DATACOPY:
    case TTK_OP_TRANSPOSE:
    case TTK_OP_TILIZE:
        break;
    case TTK_OP_UNTILIZE:
        /* one row of tiles per Dst section */
        if (p->block != p->nt) {
            return TTK_ERR_DIMS;
        }
        break;
    case TTK_OP_ELTWISE:
        if (p->sub_op > TTK_ELW_MUL ||
            (p->sub_op != TTK_ELW_MUL && p->fidelity)) {
            return TTK_ERR_OP;
        }
        break;
    case TTK_OP_REDUCE:
        if (p->sub_op & ~(TTK_REDUCE_COL | TTK_REDUCE_MAX)) {
            return TTK_ERR_OP;
        }
        break;
    case TTK_OP_SFPU:
        if (p->fidelity) {
            return TTK_ERR_OP;
        }
        break;
    default:
        return TTK_ERR_OP;
    }
    if (p->fidelity == 1 || p->fidelity > 4) {
        return TTK_ERR_OP;
    }
    if (!ntiles || (p->op == TTK_OP_MATMUL && !p->kt) ||
        !p->block || p->block > max_block) {
        return TTK_ERR_DIMS;
    }
    if ((p->addr_a | p->addr_b | p->addr_c) & 15) {
        return TTK_ERR_DIMS;
    }
    err = p->op == TTK_OP_SFPU ? check_sfpu(p) :
          is_int(p->fmt_a) ? check_int(p) :
          is_int(p->fmt_out) || is_int(p->pack_src) ? TTK_ERR_FORMAT
                                                    : TTK_ERR_NONE;
    if (err != TTK_ERR_NONE) {
        return err;
    }
    if (!in_format_ok(p->fmt_a) || !in_format_ok(p->fmt_b) ||
        !in_format_ok(p->unpack_out_a) || !in_format_ok(p->unpack_out_b) ||
        !out_format_ok(p->pack_src) || !out_format_ok(p->fmt_out)) {
        return TTK_ERR_FORMAT;
    }
    if (p->op == TTK_OP_MATMUL && p->sub_op == TTK_MM_DRAM) {
        return check_dram(p);
    }
    return TTK_ERR_NONE;
}

void core_main(uint32_t thread)
{
    volatile TTKParams *p = PARAMS;     /* shared with the host */
    uint32_t run = p->run_id;
    uint32_t err;

    for (int i = 0; i < 64; i++) {
        gpr_wr(i, 0);
    }
    gpr_sync(63);
    set_stage(thread, 1);
    err = ttk_check_params((const TTKParams *)p);
    if (err == TTK_ERR_NONE) {
        if (thread == 0) {
            device_setup((const TTKParams *)p);
            __asm__ volatile("fence" : : : "memory");
            p->setup = run;
        } else {
            while (p->setup != run) {
                cpu_relax();
            }
        }
        set_stage(thread, 2);
        /* the host leaves the block alone until the done words are set */
        switch (thread) {
        case 0:
            err = ttk_unpack((const TTKParams *)p);
            break;
        case 1:
            err = ttk_math((const TTKParams *)p);
            break;
        default:
            err = ttk_pack((const TTKParams *)p);
            break;
        }
        for (uint32_t i = 0; i < p->ninject[thread] && i < TTK_MAX_INJECT;
             i++) {
            tt_push(p->inject[thread][i]);
        }
        tensix_sync();
    }
    p->error[thread] = err;
    __asm__ volatile("fence" : : : "memory");
    p->done[thread] = TTK_DONE;
}
