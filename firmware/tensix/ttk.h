/*
 * What a TRISC needs to drive its Tensix thread: instruction pushes,
 * semaphores, TTSync, MOP configuration, GPRs and configuration space,
 * at the TRISC-view addresses of tt-metal's blackhole/tensix.h
 * (tenstorrent/tt-metal tt_metal/hw/inc/internal/tt-1xx/blackhole/
 * tensix.h) and tt-isa-documentation WormholeB0/TensixTile/BabyRISCV/
 * PushTensixInstruction.md and TTSync.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TTK_H
#define TTK_H

#include <stdint.h>

#include "kernel-params.h"
#include "tt-insn.h"
#include "tt-tile-map.h"         /* generated from data/tile-map.yaml */

/* MMIO registers and L1 shared with other cores: volatile accesses */
#define REG32(a)            (*(volatile uint32_t *)(uintptr_t)(a))

#define INSTRN_BUF          TT_TILE_INSTRN_BUF_BASE /* this TRISC's thread */
#define PC_BUF              TT_TILE_PC_BUF_BASE
#define TTSYNC_TENSIX       (PC_BUF + 4)    /* read: this thread is idle */
#define TTSYNC_MOP          (PC_BUF + 8)    /* read: no MOP in flight */
#define SEM_REG(n)          (PC_BUF + 0x20 + 4 * (n))
#define REGFILE(n)          (TT_TILE_TENSIX_GPR_BASE + 4 * (n))
#define CFG_REG(w)          (TT_TILE_TENSIX_CFG_BASE + 4 * (w))
#define MOP_CFG(k)          (TT_TILE_MOP_CFG_BASE + 4 * (k))
#define DEST_CG_CTRL        0xffb12240u

/* the host and the other TRISCs read and write it: volatile */
#define PARAMS              ((volatile TTKParams *)TTK_PARAMS_ADDR)

/* Spin-wait body: nothing, but the loop condition is re-read */
static inline void cpu_relax(void)
{
    __asm__ volatile("" : : : "memory");
}

/*
 * A word known when the kernel is compiled goes inline in the code, as
 * tt-llk's TTI_ macros push it; any other is stored to the buffer, as its
 * TT_ macros and ckernel's instrn_buffer do
 */
static inline __attribute__((always_inline)) void tt_push(uint32_t w)
{
    if (__builtin_constant_p(w) && TT_ENC_INLINE_OK(w)) {
        __asm__ volatile(".word %0" : : "i"(TT_ENC_INLINE(w)) : "memory");
    } else {
        REG32(INSTRN_BUF) = w;
    }
}

/*
 * Wait until this thread's coprocessor work has drained: a store then a
 * load of the TTSync register, whose value feeds a dummy use so the load
 * completes before anything after it (tt-llk ckernel.h tensix_sync()).
 */
static inline void tensix_sync(void)
{
    uint32_t v;

    REG32(TTSYNC_TENSIX) = 0;
    v = REG32(TTSYNC_TENSIX);
    __asm__ volatile("and x0, x0, %0" : : "r"(v) : "memory");
}

/* MopCfg must not change while an expansion reads it (MOPExpander.md) */
static inline void mop_sync(void)
{
    uint32_t v;

    REG32(TTSYNC_MOP) = 0;
    v = REG32(TTSYNC_MOP);
    __asm__ volatile("and x0, x0, %0" : : "r"(v) : "memory");
}

static inline uint32_t sem_read(int n)
{
    return REG32(SEM_REG(n));
}

/* A RISC store of 0 posts (+1), of 1 gets (-1) */
static inline void sem_post(int n)
{
    REG32(SEM_REG(n)) = 0;
}

static inline void cfg_wr(int word, uint32_t v)
{
    REG32(CFG_REG(word)) = v;
}

/*
 * Configuration fields by their generated TT_CFG_<f>_* names
 * (tt-tensix-config.h): the word of field @f, its mask, @v in its place
 * (@v must fit), and the mask of the fields @f to @l of one word.
 */
#define CFG_WORD(f)         TT_CFG_##f##_WORD
#define CFG_VAL(f, v)       ((uint32_t)(v) << TT_CFG_##f##_SHIFT)
#define CFG_SPAN(f, l) \
    ((uint32_t)((1ull << (TT_CFG_##l##_SHIFT + TT_CFG_##l##_WIDTH)) - \
                (1ull << TT_CFG_##f##_SHIFT)))
#define CFG_MASK(f)         CFG_SPAN(f, f)
/* the word of @f written whole: @f = @v, every other field 0 */
#define CFG_SET(f, v)       cfg_wr(CFG_WORD(f), CFG_VAL(f, v))

/* GPR write, then a read back so the write lands before later pushes */
static inline void gpr_wr(int n, uint32_t v)
{
    REG32(REGFILE(n)) = v;
}

static inline void gpr_sync(int n)
{
    uint32_t v = REG32(REGFILE(n));

    __asm__ volatile("and x0, x0, %0" : : "r"(v) : "memory");
}

/* What mop_program() wrote to this TRISC's MOP configuration */
extern uint32_t ttk_mop_shadow[9];

static inline void mop_cfg(int k, uint32_t w)
{
    REG32(MOP_CFG(k)) = w;
}

/*
 * Template 1 (double loop): outer, inner, start, end0, end1, loop0,
 * loop1, last instruction of the last outer pass, last of the others.
 */
static inline void mop_program(uint32_t outer, uint32_t inner,
                               uint32_t start, uint32_t end0, uint32_t end1,
                               uint32_t loop0, uint32_t loop1,
                               uint32_t last_outer, uint32_t last_inner)
{
    const uint32_t cfg[9] = {
        outer, inner, start, end0, end1, loop0, loop1, last_outer,
        last_inner,
    };

    mop_sync();
    for (int k = 0; k < 9; k++) {
        mop_cfg(k, cfg[k]);
        ttk_mop_shadow[k] = cfg[k];
    }
}

/*
 * Run the template 1 program: one MOP push, or (TTKParams.push_words)
 * the words the MOP expander would emit (MOPExpander.md), each pushed on
 * its own, as kernels that compute their instructions at run time do.
 */
static inline void mop_run(void)
{
    const uint32_t *c = ttk_mop_shadow;
    uint32_t inner = c[1] & 0x7f;

    if (!PARAMS->push_words) {
        tt_push(TT_MOP(1, 0, 0));
        return;
    }
    if (c[6] != TT_NOP) {
        inner *= 2;             /* LoopOp and LoopOp1 alternate */
    }
    for (uint32_t o = 0; o < (c[0] & 0x7f); o++) {
        if (c[2] != TT_NOP) {
            tt_push(c[2]);
        }
        for (uint32_t j = 0; j < inner; j++) {
            uint32_t w = c[6] != TT_NOP && (j & 1) ? c[6] : c[5];

            if (j == inner - 1) {
                w = o == (c[0] & 0x7f) - 1 ? c[7] : c[8];
            }
            tt_push(w);
        }
        for (int e = 3; e <= 4; e++) {
            if (c[e] != TT_NOP) {
                tt_push(c[e]);
            }
        }
    }
}

/*
 * A field update from the Tensix side, one RMWCIB per byte of the mask
 * that has bits set, low byte first (as tt-llk's cfg_reg_rmw_tensix).
 */
static inline void cfg_rmw(int word, uint32_t mask, uint32_t value)
{
    for (int i = 0; i < 4; i++) {
        uint32_t m = (mask >> (8 * i)) & 0xff;

        if (m) {
            tt_push(TT_RMWCIB(i, m, (value >> (8 * i)) & m, word));
        }
    }
}

/* @f = @v from the Tensix side, the rest of its word kept */
#define CFG_RMW(f, v)       cfg_rmw(CFG_WORD(f), CFG_MASK(f), CFG_VAL(f, v))

/* Address modifier n of this thread (ThreadConfig AB, DST and BIAS n) */
static inline void addr_mod(int n, uint32_t ab, uint32_t dst)
{
    tt_push(TT_SETC16(TC_ADDR_MOD_AB(n), ab));
    tt_push(TT_SETC16(TC_ADDR_MOD_DST(n), dst));
    tt_push(TT_SETC16(TC_ADDR_MOD_BIAS(n), 0));
}

/* Bytes per datum of a format in Src/Dst views, as tt-llk sizes strides */
static inline uint32_t datum_bytes(uint32_t fmt)
{
    return (fmt & 3) == 0 ? 4 : (fmt & 3) == 1 ? 2 : 1;
}

/* Size of a 32x32 tile in L1, in 16-byte units (no tile header) */
static inline uint32_t tile_size16(uint32_t fmt)
{
    switch (fmt) {
    case TTK_FMT_FLOAT32:
    case TTK_FMT_INT32:
        return 256;
    case TTK_FMT_BFP8_B:
        return 64 + 4;              /* 1024 data + 64 exponent bytes */
    case TTK_FMT_INT8:
        return 64;
    default:
        return 128;
    }
}

/* The unpacker and packer take L1 addresses as (byte >> 4) - 1 */
static inline uint32_t l1_addr16(uint32_t byte)
{
    return (byte >> 4) - 1;
}

static inline void set_stage(int thread, uint32_t v)
{
    PARAMS->stage[thread] = v;
}

/*
 * The three threads (unpack.c, math.c, pack.c), given the parameter
 * block, which does not change while they run; 0 or a TTK_ERR_* code.
 */
uint32_t ttk_unpack(const TTKParams *p);
uint32_t ttk_math(const TTKParams *p);
uint32_t ttk_pack(const TTKParams *p);

/*
 * The math thread's vector-unit part (sfpu.c): the op's init, and the op
 * over the tile at Dst row @dst_row (the block's tiles 0-3 for topk)
 */
void sfpu_init(const TTKParams *p);
void sfpu_tile(const TTKParams *p, uint32_t dst_row);

/* 0 or the TTK_ERR_* code that stops every core (main.c) */
uint32_t ttk_check_params(const TTKParams *p);

/* crt.S calls it with the thread number */
void core_main(uint32_t thread);

/* ... and this on BRISC (0) and NCRISC (1) (dm.c) */
void dm_main(uint32_t role);

#endif
