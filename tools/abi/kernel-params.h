/*
 * The contract between tt-kernels.bin (one Tensix tile's TRISC0-2
 * firmware) and the host programs that run it (tools/tt-kernel-run.c,
 * tools/tt-matmul-demo.c):
 * where the image and the parameter block sit in L1, what the block
 * holds, and how the cores report back.
 *
 * The host holds the TRISCs in reset, writes operands and the block,
 * releases them (SOFT_RESET_0) and polls done[]; each TRISC writes its
 * done word last, after its Tensix thread has drained.  One image serves
 * every operation: the block names it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_KERNEL_PARAMS_H
#define TT_KERNEL_PARAMS_H

#include <stdint.h>

/* L1 layout: the image lies below the block, operands above it */
#define TTK_IMAGE_MAX       0x1f000u
#define TTK_PARAMS_ADDR     0x1f000u
#define TTK_DATA_ADDR       0x20000u
#define TTK_DATA_END        0x180000u   /* 1.5 MiB of L1 */

#define TTK_MAGIC           0x314b5454u /* "TTK1" */
#define TTK_DONE            0x600dd00eu

enum {
    TTK_OP_DATACOPY = 1,    /* A -> Dst -> pack */
    TTK_OP_ELTWISE,         /* A (+ - *) B -> Dst -> pack */
    TTK_OP_MATMUL,          /* C = A x B, Dst accumulates over kt */
    TTK_OP_REDUCE,          /* GAPOOL / GMPOOL with a scaler tile in B */
    TTK_OP_TRANSPOSE,       /* unpacker haloize transpose + datacopy */
    TTK_OP_TILIZE,          /* row-major A (mt x nt tiles) -> tiles */
    TTK_OP_UNTILIZE,        /* tiles -> row-major (packer, strided Dst) */
    TTK_OP_SFPU,            /* A -> Dst (datacopy), vector unit op, pack */
};

/*
 * sub_op for TTK_OP_MATMUL: operands already in L1, or (TTK_MM_DRAM) one
 * tile's share of a larger product: NCRISC streams A and B from GDDR into
 * L1, BRISC writes C back (see TTKParams below)
 */
enum { TTK_MM_L1, TTK_MM_DRAM };
/* sub_op for TTK_OP_ELTWISE */
enum { TTK_ELW_ADD, TTK_ELW_SUB, TTK_ELW_MUL };
/* sub_op for TTK_OP_REDUCE: dimension | pool type */
#define TTK_REDUCE_ROW      0x00u
#define TTK_REDUCE_COL      0x01u
#define TTK_REDUCE_SUM      0x00u
#define TTK_REDUCE_MAX      0x10u

/*
 * sub_op for TTK_OP_SFPU: the tt-llk unary SFPU kernel run over each
 * tile in Dst (sfpu.c).  TTK_SFPU_MACRO selects the SFPLOADMACRO form of
 * the kernels that have one (exp, reciprocal, the int32 round trip).
 * sfpu_arg: relu thresholds and the leaky-relu slope (FP32 bits), the
 * last bitonic phase (topk).
 */
enum {
    TTK_SFPU_EXP,           /* approximate (Schraudolph), clamped at -88.5 */
    TTK_SFPU_EXP_PRECISE,   /* polynomial, squarings, reciprocal if x < 0 */
    TTK_SFPU_RECIP,         /* 8-bit (16-bit Dst) / 24-bit (FP32 Dst) */
    TTK_SFPU_SQRT,
    TTK_SFPU_GELU,          /* approximate: SFPLUTFP32 table 1 */
    TTK_SFPU_SIGMOID,       /* SFPLUTFP32 table 2, sign kept */
    TTK_SFPU_RELU_MIN,      /* x < arg ? arg : x (arg 0: ReLU) */
    TTK_SFPU_RELU_MAX,      /* min(max(x, 0), arg) */
    TTK_SFPU_LRELU,         /* x < 0 ? x * arg : x */
    TTK_SFPU_FP32_TO_INT32, /* truncating, two's complement; Int32 out */
    TTK_SFPU_INT32_ROUNDTRIP, /* fp32 -> int32, then int32 -> fp32 */
    TTK_SFPU_TOPK,          /* bitonic phases 0..arg over tiles 0-3 */
    TTK_SFPU_LAST = TTK_SFPU_TOPK,
};
#define TTK_SFPU_MACRO      0x100u

/* L1 data formats (tt-metal DataFormat codes) */
#define TTK_FMT_FLOAT32     0u
#define TTK_FMT_FLOAT16_B   5u
#define TTK_FMT_BFP8_B      6u
#define TTK_FMT_INT32       8u
#define TTK_FMT_INT8        14u     /* sign-magnitude */

/* error[] codes */
enum {
    TTK_ERR_NONE,
    TTK_ERR_MAGIC,          /* block not written for this image */
    TTK_ERR_OP,             /* unknown op or sub_op */
    TTK_ERR_FORMAT,         /* format the kernels do not handle */
    TTK_ERR_DIMS,           /* tile counts or block size out of range */
    TTK_ERR_LAYOUT,         /* TTK_MM_DRAM: L1 buffers or banks invalid */
};

#define TTK_MAX_BANKS       8       /* GDDR banks a product may span */
#define TTK_MAX_INJECT      4       /* words a TRISC adds (inject[]) */

typedef struct TTKParams {
    uint32_t magic;
    uint32_t run_id;        /* new per run: stale flags never match */
    uint32_t op;
    uint32_t sub_op;
    uint32_t dst_fp32;      /* Dst in 32-bit mode (ALU_ACC_CTRL_Fp32_enabled) */
    uint32_t fidelity;      /* 0 LoFi, 2/3/4 HiFi2..4 (multiplying ops) */
    uint32_t fmt_a;         /* formats of A and B in L1 */
    uint32_t fmt_b;
    uint32_t unpack_out_a;  /* unpacker output (Src) formats */
    uint32_t unpack_out_b;
    uint32_t pack_src;      /* packer input (Dst view) format */
    uint32_t fmt_out;       /* packer output format in L1 */
    uint32_t mt;            /* tiles: matmul M x K x N; others mt x nt */
    uint32_t kt;
    uint32_t nt;
    uint32_t block;         /* tiles per Dst section (half of Dst) */
    uint32_t addr_a;        /* byte addresses in L1, 16-byte aligned */
    uint32_t addr_b;
    uint32_t addr_c;
    uint32_t setup;         /* TRISC0: run_id once the device is set up */
    uint32_t done[3];       /* TRISC0-2: TTK_DONE when finished */
    uint32_t error[3];      /* TTK_ERR_* */
    uint32_t stage[3];      /* progress: tile << 8 | step, for timeouts */

    /*
     * TTK_MM_DRAM.  The whole product is C (MT x NT tiles) = A (MT x kt)
     * x B (kt x NT), each matrix a row-major sequence of tiles laid out
     * across the banks as tt-metal interleaves pages: tile i in bank
     * i % nbanks at dram_x + (i / nbanks) * tile size.  This tile computes
     * the mt * nt outputs from global index out_first on (mt = 1: math and
     * pack see a 1 x nt row); A's rows of them go to addr_a (row-major
     * strips of kt tiles), B's columns to addr_b (k-major, min(nt, NT) per
     * k), C to addr_c in output order.
     */
    uint32_t out_first;
    uint32_t n_total;       /* NT */
    uint32_t nbanks;
    uint32_t dram_a, dram_b, dram_c;
    uint32_t bank_xy[2][TTK_MAX_BANKS];   /* per NOC: y << 6 | x */
    uint32_t ready;         /* NCRISC: k steps of A and B now in L1 */
    uint32_t packed;        /* TRISC2: output tiles now in L1 */
    uint32_t dm_done[2];    /* BRISC, NCRISC: TTK_DONE when finished */
    uint32_t dm_error[2];
    uint32_t dm_stage[2];

    uint32_t sfpu_arg;      /* TTK_OP_SFPU: the operation's parameter */

    /*
     * 1: the template 1 MOPs are pushed as the words they expand to, one
     * store each (ttk.h mop_run()), so a thread's instructions reach the
     * coprocessor spread over time, as those of kernels that compute
     * their instructions do
     */
    uint32_t push_words;

    /*
     * Words each TRISC pushes once its part is pushed, before it drains:
     * instructions that are invalid but change nothing (tt-kernel-run
     * --fuzz-invalid), so the results stay those of the operation
     */
    uint32_t inject[3][TTK_MAX_INJECT];
    uint32_t ninject[3];
} TTKParams;

/* What TTK_MM_DRAM derives from the block, the same on every core */
typedef struct TTKMatmulShape {
    uint32_t ntot;          /* columns of the whole C */
    uint32_t n0, m0;        /* column and row of output 0 */
    uint32_t rows;          /* rows of A in L1 */
    uint32_t cols;          /* columns of B in L1 per k step */
} TTKMatmulShape;

/*
 * Output o of this tile is C(m0 + (n0 + o) / ntot, (n0 + o) % ntot): A
 * row (n0 + o) / ntot, B column o % ntot in L1.  An L1 matmul is the
 * special case out_first = 0, ntot = nt.
 */
static inline TTKMatmulShape ttk_matmul_shape(const TTKParams *p)
{
    uint32_t count = p->mt * p->nt;
    TTKMatmulShape s;

    s.ntot = p->sub_op == TTK_MM_DRAM ? p->n_total : p->nt;
    s.n0 = p->sub_op == TTK_MM_DRAM ? p->out_first % s.ntot : 0;
    s.m0 = p->sub_op == TTK_MM_DRAM ? p->out_first / s.ntot : 0;
    s.rows = (s.n0 + count - 1) / s.ntot + 1;
    s.cols = count < s.ntot ? count : s.ntot;
    return s;
}

#endif
