/*
 * The contract between tt-kernels.bin (one Tensix tile's TRISC0-2
 * firmware) and the host program that runs it (tools/tt-kernel-run.c):
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
};

/* sub_op for TTK_OP_ELTWISE */
enum { TTK_ELW_ADD, TTK_ELW_SUB, TTK_ELW_MUL };
/* sub_op for TTK_OP_REDUCE: dimension | pool type */
#define TTK_REDUCE_ROW      0x00u
#define TTK_REDUCE_COL      0x01u
#define TTK_REDUCE_SUM      0x00u
#define TTK_REDUCE_MAX      0x10u

/* L1 data formats (tt-metal DataFormat codes) */
#define TTK_FMT_FLOAT32     0u
#define TTK_FMT_FLOAT16_B   5u
#define TTK_FMT_BFP8_B      6u

/* error[] codes */
enum {
    TTK_ERR_NONE,
    TTK_ERR_MAGIC,          /* block not written for this image */
    TTK_ERR_OP,             /* unknown op or sub_op */
    TTK_ERR_FORMAT,         /* format the kernels do not handle */
    TTK_ERR_DIMS,           /* tile counts or block size out of range */
};

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
} TTKParams;

#endif
