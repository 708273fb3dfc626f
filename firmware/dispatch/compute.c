/*
 * Compute kernel, built once per TRISC (KTHREAD 0 unpack, 1 math,
 * 2 pack): C = A + B element-wise, or C = A x B, on BF16 32x32 tiles,
 * A from CB 0, B from CB 1, C into CB 16, as a tt-metal compute kernel's
 * cb_wait_front / unpack / math / pack / cb_push_back sequence
 * (tt-metal tt_metal/programming_examples eltwise_binary and
 * matmul_single_core).  The Tensix work itself is the unpack, math and
 * pack code of firmware/tensix (tt-llk's Blackhole LLK shape), linked in
 * and handed a parameter block of this kernel's own, whose operand
 * addresses are the CBs'.  Their progress words (set_stage) land in
 * firmware/tensix's parameter area at L1 0x1F000, which tt-run leaves
 * unused (its CBs and buffers start at 0x20000).
 *
 * One pass over the whole operands: the CBs hold every tile.  FP32 Dst;
 * the matmul runs at LoFi, one multiplier pass on at most 5 bits of
 * SrcA's and 7 of SrcB's mantissa (tt-isa-documentation WormholeB0/
 * TensixTile/TensixCoprocessor/MVMUL.md): exact for operands without
 * low mantissa bits, such as the small integers of the tests, and the
 * form ttsim v1.10.0 runs without filling its instruction FIFO.
 *
 * Runtime arguments (the same for the three): 0 operation (0 add,
 * 1 matmul), 1 mt, 2 kt, 3 nt (tiles: the add uses mt x nt; the matmul
 * A is mt x kt, B kt x nt, row-major sequences of tiles), 4 the
 * semaphore TRISC0 sets once the matrix unit is set up.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "kernel.h"
#include "ttk.h"

#define CB_A    0
#define CB_B    1
#define CB_C    16

/* @p starts zeroed (bss, cleared per launch by kcrt.S) */
static void params(TTKParams *p)
{
    uint32_t mm = get_arg_val(0);

    p->magic = TTK_MAGIC;
    p->op = mm ? TTK_OP_MATMUL : TTK_OP_ELTWISE;
    p->sub_op = mm ? TTK_MM_L1 : TTK_ELW_ADD;
    p->dst_fp32 = 1;
    p->fidelity = 0;
    p->fmt_a = p->fmt_b = TTK_FMT_FLOAT16_B;
    p->unpack_out_a = p->unpack_out_b = TTK_FMT_FLOAT16_B;
    p->pack_src = p->fmt_out = TTK_FMT_FLOAT16_B;
    p->mt = get_arg_val(1);
    p->kt = mm ? get_arg_val(2) : 1;
    p->nt = get_arg_val(3);
    p->block = p->mt * p->nt % 2 ? 1 : 2;
    /* TRISCs see CB pointers in 16-byte units */
    p->addr_a = get_read_ptr(CB_A) << 4;
    p->addr_b = get_read_ptr(CB_B) << 4;
    p->addr_c = get_write_ptr(CB_C) << 4;
}

static uint32_t tiles_a(const TTKParams *p)
{
    return p->mt * p->kt;
}

static uint32_t tiles_b(const TTKParams *p)
{
    return p->op == TTK_OP_MATMUL ? p->kt * p->nt : p->mt * p->nt;
}

/*
 * tt-metal brisc.cc device_setup()'s matrix-unit part, which the worker
 * firmware leaves to the kernel: every Dst row invalidated, the LLK
 * hand-off semaphores initialised (tt-llk tests/helpers/include/boot.h)
 */
static void matrix_setup(void)
{
    tt_push(TT_ZEROACC(ZEROACC_ALL, 0, 0, 1, 0));
    tt_push(TT_SEMINIT(1, 0, SEM_BIT(SEM_UNPACK_TO_DEST)));
    tt_push(TT_SEMINIT(1, 0, SEM_BIT(SEM_MATH_DONE)));
    tt_push(TT_SEMINIT(1, 0, SEM_BIT(SEM_PACK_DONE)));
    tensix_sync();
}

/* @ready: L1 another TRISC writes */
static void wait_setup(volatile uint32_t *ready) /* shared L1 */
{
    while (!*ready) {
        invalidate_l1_cache();
    }
}

void kernel_main(void)
{
    /* the set-up flag, in L1 the three TRISCs share */
    volatile uint32_t *ready = /* shared L1 */
        (volatile uint32_t *)get_semaphore(get_arg_val(4)); /* shared */
    static TTKParams p;
    uint32_t ok;

    params(&p);
    ok = ttk_check_params(&p) == TTK_ERR_NONE;
    if (KTHREAD == 0) {
        if (ok) {
            matrix_setup();
        }
        *ready = 1;
        cb_wait_front(CB_A, tiles_a(&p));
        cb_wait_front(CB_B, tiles_b(&p));
        if (ok) {
            ttk_unpack(&p);
            tensix_sync();
        }
        cb_pop_front(CB_A, tiles_a(&p));
        cb_pop_front(CB_B, tiles_b(&p));
    } else if (KTHREAD == 1) {
        wait_setup(ready);
        if (ok) {
            ttk_math(&p);
            tensix_sync();
        }
    } else {
        wait_setup(ready);
        cb_reserve_back(CB_C, p.mt * p.nt);
        if (ok) {
            ttk_pack(&p);
            tensix_sync();
        }
        cb_push_back(CB_C, p.mt * p.nt);
        /* math has passed its wait: the packer took its last section */
        *ready = 0;
    }
}
