/*
 * TRISC0: the unpack thread.  Configuration, per-operation MOPs and the
 * per-tile sequence follow tt-llk's Blackhole unpack kernels
 * (tenstorrent/tt-llk tt_llk_blackhole/llk_lib/llk_unpack_common.h,
 * llk_unpack_A.h, llk_unpack_AB.h, llk_unpack_AB_matmul.h,
 * llk_unpack_AB_reduce.h; common/inc/cunpack_common.h), written out as
 * the instruction words they produce for 32x32 tiles of four 16x16
 * faces.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ttk.h"

/* GPRs of the unpack thread (tt-llk ckernel_structs.h p_gpr_unpack) */
#define GPR_TMP0            12
#define GPR_TILE_SIZE_A     36
#define GPR_TILE_SIZE_B     37
#define GPR_KT_DIM          38
#define GPR_FACE_DIM_16x16  40

/*
 * Configuration words, named after their first field; a TileDescriptor
 * (four words) holds format [3:0], uncompressed [4] and X [31:16], then
 * Y [7:0] and Z [23:16] (UNPACR_Regular.md; not in tensix-config.yaml)
 */
#define CFG_SEC0_TILE_DESC  CFG_WORD(THCON_SEC0_REG0_TileDescriptor)
#define CFG_SEC0_REG2       CFG_WORD(THCON_SEC0_REG2_Out_data_format)
#define CFG_SEC0_BASE       CFG_WORD(THCON_SEC0_REG3_Base_address)
#define CFG_SEC0_TILE_X_DIM CFG_WORD(THCON_SEC0_REG5_Tile_x_dim_cntx0)
#define CFG_SEC1_TILE_DESC  CFG_WORD(THCON_SEC1_REG0_TileDescriptor)
#define CFG_SEC1_BASE       CFG_WORD(THCON_SEC1_REG3_Base_address)
/* unpacker 1's THCON_SEC1 words: unpacker 0's THCON_SEC0 ones, moved */
#define CFG_SEC_STRIDE      (CFG_SEC1_TILE_DESC - CFG_SEC0_TILE_DESC)

_Static_assert(CFG_SEC0_REG2 + CFG_SEC_STRIDE ==
               CFG_WORD(THCON_SEC1_REG2_Out_data_format) &&
               CFG_WORD(THCON_SEC0_REG2_Disable_zero_compress_cntx0) +
               CFG_SEC_STRIDE ==
               CFG_WORD(THCON_SEC1_REG2_Disable_zero_compress_cntx0),
               "THCON_SEC1_REG2 is THCON_SEC0_REG2, moved");

#define UNP_SYNC_CONTEXTS   2   /* double-buffered unpacker config */

static uint32_t unp_ctx;        /* context the next tile is set up in */

/*
 * Unpacker @u's output format @fmt, throttle mode 2, zero compression
 * off in all contexts
 */
static void unpack_out_config(int u, uint32_t fmt)
{
    uint32_t sec = u * CFG_SEC_STRIDE;

    cfg_wr(CFG_SEC0_REG2 + sec,
           CFG_VAL(THCON_SEC0_REG2_Out_data_format, fmt & 0xf) |
           CFG_VAL(THCON_SEC0_REG2_Throttle_mode, 2));
    cfg_wr(CFG_WORD(THCON_SEC0_REG2_Disable_zero_compress_cntx0) + sec,
           CFG_SPAN(THCON_SEC0_REG2_Disable_zero_compress_cntx0,
                    THCON_SEC0_REG2_Disable_zero_compress_cntx3) |
           CFG_SPAN(THCON_SEC0_REG2_Disable_zero_compress_cntx4,
                    THCON_SEC0_REG2_Disable_zero_compress_cntx7));
}

/*
 * _llk_unpack_hw_configure_ -> configure_unpack_AB: formats @f0/@o0 of
 * unpacker 0 (L1 in, Src out) and @f1/@o1 of unpacker 1.
 */
static void unpack_hw_configure(uint32_t f0, uint32_t o0, uint32_t f1,
                                uint32_t o1)
{
    static const uint32_t face_dims[5] = {
        0x01000100, 0x00800080, 0x00400040, 0x00200020, 0x00100010,
    };

    /* no unpack may still be using a context */
    while (sem_read(SEM_UNPACK_SYNC) != 0) {
        cpu_relax();
    }
    tt_push(TT_SETADCXY(ADC_UNP_A | ADC_UNP_B, 0, 0, 0, 0, 0xb));
    tt_push(TT_SETADCZW(ADC_UNP_A | ADC_UNP_B, 0, 0, 0, 0, 0xf));

    /* a face of output datums per Z step */
    CFG_SET(UNP0_ADDR_CTRL_ZW_REG_1_Zstride, 16 * 16 * datum_bytes(o0));
    CFG_SET(UNP1_ADDR_CTRL_ZW_REG_1_Zstride, 16 * 16 * datum_bytes(o1));

    tt_push(TT_ATGETM(0));
    /* no format overrides, no stochastic rounding */
    cfg_rmw(CFG_WORD(ALU_FORMAT_SPEC_REG_SrcA_val),
            CFG_SPAN(ALU_FORMAT_SPEC_REG_SrcA_val,
                     ALU_FORMAT_SPEC_REG_Dstacc_override), 0);
    cfg_rmw(CFG_WORD(ALU_ROUNDING_MODE_Fpu_srnd_en),
            CFG_SPAN(ALU_ROUNDING_MODE_Fpu_srnd_en,
                     ALU_ROUNDING_MODE_Packer_srnd_en), 0);
    CFG_RMW(ALU_FORMAT_SPEC_REG0_SrcAUnsigned, 0);
    CFG_RMW(ALU_FORMAT_SPEC_REG0_SrcBUnsigned, 0);
    CFG_RMW(ALU_ACC_CTRL_Zero_Flag_disabled_src, 0);
    CFG_RMW(THCON_SEC0_REG1_Unp_LF8_4b_exp, 0);     /* FP8 is e5m2 */
    CFG_RMW(THCON_SEC1_REG1_Unp_LF8_4b_exp, 0);
    tt_push(TT_ATRELM(0));

    /*
     * Tile descriptors: format, uncompressed, X (unpacker 1 only: a
     * face; unpacker 0 takes Tile_x_dim_cntx), Y = 1, Z = 4 faces.
     */
    cfg_wr(CFG_SEC0_TILE_DESC, (f0 & 0xf) | 1u << 4);
    cfg_wr(CFG_SEC0_TILE_DESC + 1, 1 | 4u << 16);
    cfg_wr(CFG_SEC1_TILE_DESC, (f1 & 0xf) | 1u << 4 | 256u << 16);
    cfg_wr(CFG_SEC1_TILE_DESC + 1, 1 | 4u << 16);
    unpack_out_config(0, o0);
    unpack_out_config(1, o1);

    tt_push(TT_SETADCXX(ADC_UNP_A, 16 * 16 - 1, 0));
    tt_push(TT_SETADCXX(ADC_UNP_B, 16 * 16 - 1, 0));

    /* SrcA writes start 4 rows (64 datums) in; one face per context */
    cfg_wr(CFG_WORD(THCON_SEC0_REG5_Dest_cntx0_address),
           CFG_VAL(THCON_SEC0_REG5_Dest_cntx0_address, 64) |
           CFG_VAL(THCON_SEC0_REG5_Dest_cntx1_address, 64));
    cfg_wr(CFG_SEC0_TILE_X_DIM,
           CFG_VAL(THCON_SEC0_REG5_Tile_x_dim_cntx0, 256) |
           CFG_VAL(THCON_SEC0_REG5_Tile_x_dim_cntx1, 256));

    for (int i = 0; i < 5; i++) {
        gpr_wr(GPR_FACE_DIM_16x16 + i, face_dims[i]);
    }
    gpr_sync(GPR_FACE_DIM_16x16 + 4);

    /* SRCA_SET: row from the address, bank base 0 */
    tt_push(TT_SETC16(TC_SRCA_SET, THCFG(SRCA_SET_SetOvrdWithAddr, 1)));
    CFG_SET(UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr, 1);

    unp_ctx = 0;
    tt_push(TT_SETC16(TC_UNPACK_MISC, 0));

    tt_push(TT_SETDMAREG(GPR_LO(GPR_TILE_SIZE_A), tile_size16(f0)));
    tt_push(TT_SETDMAREG(GPR_LO(GPR_TILE_SIZE_B), tile_size16(f1)));
}

/* ------------------------------------------------- per-op inits -- */

/* _llk_unpack_A_init_: one face to SrcA, a zeroed valid SrcB with it */
static void unpack_a_init(void)
{
    uint32_t a = TT_UNPACR(0, 1, 1, 1, 1);
    uint32_t b_zero = TT_UNPACR_NOP(1, 1, 0, UNP_CLR_SRC);

    CFG_RMW(THCON_SEC0_REG2_Haloize_mode, 0);
    tt_push(TT_SETADCXX(ADC_UNP_A, 16 * 16 - 1, 0));
    mop_program(4, 1, a, TT_NOP, TT_NOP, b_zero, TT_NOP, b_zero, b_zero);
}

/*
 * Transpose: haloize (each face transposed on its way into SrcA), faces
 * in the order 0, 2, 1, 3 (Z += 2, then Z = 1).
 */
static void unpack_a_transpose_init(void)
{
    uint32_t replay = TT_REPLAY(0, 2, 0, 0);

    CFG_RMW(THCON_SEC0_REG2_Haloize_mode, 1);
    tt_push(TT_SETADCXX(ADC_UNP_A, 16 * 16 - 1, 0));
    tt_push(TT_REPLAY(0, 2, 0, 1));
    tt_push(TT_UNPACR_NOP(1, 1, 0, UNP_CLR_SRC));
    tt_push(TT_UNPACR(0, 2, 1, 1, 1));
    mop_program(2, 2, TT_NOP, TT_SETADCZW(ADC_UNP_A, 0, 0, 0, 1, 0x1),
                TT_NOP, replay, TT_NOP, replay, replay);
}

/* _llk_unpack_AB_init_: faces of A and B alternately */
static void unpack_ab_init(void)
{
    uint32_t a = TT_UNPACR(0, 1, 1, 1, 1);
    uint32_t b = TT_UNPACR(1, 1, 1, 1, 1);

    CFG_RMW(THCON_SEC0_REG2_Haloize_mode, 0);
    tt_push(TT_SETADCXX(ADC_UNP_A | ADC_UNP_B, 16 * 16 - 1, 0));
    mop_program(2, 2, TT_NOP, TT_NOP, TT_NOP, a, b, b, b);
}

/*
 * _llk_unpack_AB_matmul_init_ (ct = rt = 1): whole tiles per UNPACR;
 * in1 to SrcA by a replay that also steps the context's base address,
 * in0 to SrcB by the per-tile code.
 */
static void unpack_matmul_init(uint32_t kt)
{
    static const uint8_t base[2] = {
        CFG_SEC0_BASE, CFG_WORD(THCON_SEC0_REG3_Base_cntx1_address),
    };

    CFG_RMW(THCON_SEC0_REG2_Haloize_mode, 0);
    tt_push(TT_SETADCZW(ADC_UNP_A | ADC_UNP_B, 0, 0, 0, 0, 0xf));
    tt_push(TT_SETADCXX(ADC_UNP_A, 4 * 16 * 16 - 1, 0));
    tt_push(TT_SETADCXX(ADC_UNP_B, 4 * 16 * 16 - 1, 0));
    tt_push(TT_SETDMAREG(GPR_LO(GPR_KT_DIM), kt));

    tt_push(TT_REPLAY(0, 12, 0, 1));
    for (int c = 0; c < 2; c++) {
        tt_push(TT_UNPACR(0, 0, 1, 1, 1));
        tt_push(TT_RDCFG(GPR_TMP0, base[c]));
        tt_push(TT_ADDDMAREG(0, GPR_TMP0, GPR_TMP0, GPR_TILE_SIZE_A));
        tt_push(TT_STALLWAIT(STALL_CFG, WAIT_THCON));
        tt_push(TT_WRCFG(GPR_TMP0, 0, base[c]));
        tt_push(TT_NOP);
    }
    /* template 0: context 0 runs replay 0-5, context 1 (skip) 6-11 */
    mop_sync();
    mop_cfg(1, 0);
    mop_cfg(2, 0);
    mop_cfg(3, TT_REPLAY(0, 6, 0, 0));
    mop_cfg(4, 0);
    mop_cfg(5, 0);
    mop_cfg(6, 0);
    mop_cfg(7, TT_REPLAY(6, 6, 0, 0));
    mop_cfg(8, 0);
}

/*
 * _llk_unpack_AB_reduce_init_: each face of A with the first row of the
 * matching face of the scaler in B; haloize for row reductions.
 */
static void unpack_reduce_init(int row)
{
    uint32_t replay = TT_REPLAY(0, 2, 0, 0);

    CFG_RMW(THCON_SEC0_REG2_Haloize_mode, row ? 1 : 0);
    tt_push(TT_SETADCXX(ADC_UNP_A, 16 * 16 - 1, 0));
    tt_push(TT_SETADCXX(ADC_UNP_B, 16 - 1, 0));
    tt_push(TT_REPLAY(0, 2, 0, 1));
    tt_push(TT_UNPACR(0, 1, 1, 1, 1));
    tt_push(TT_UNPACR(1, 1, 1, 1, 1));
    mop_program(1, 4, TT_NOP, TT_NOP, TT_NOP, replay, TT_NOP, replay,
                replay);
}

/*
 * _llk_unpack_tilize_init_, 16-bit formats (the Blackhole workaround):
 * tileize mode reads a whole 32x32 tile out of a row-major block whose
 * rows are @ct tiles wide, 32 datums per row of the tile, so SrcA row 2r
 * gets columns 0-15 and row 2r + 1 columns 16-31 of tile row r; the
 * packer undoes the interleave.  SrcB gets a zeroed valid bank.
 */
static void unpack_tilize_init(uint32_t out_fmt, uint32_t ct)
{
    uint32_t row16 = ct * 32 * datum_bytes(out_fmt) / 16;
    uint32_t reg2 = CFG_VAL(THCON_SEC0_REG2_Out_data_format, out_fmt & 0xf) |
                    CFG_VAL(THCON_SEC0_REG2_Throttle_mode, 2) |
                    CFG_VAL(THCON_SEC0_REG2_Tileize_mode, 1) |
                    CFG_VAL(THCON_SEC0_REG2_Shift_amount_cntx0, row16);
    uint32_t x_dim = 4 * 16 * 16;

    CFG_RMW(THCON_SEC0_REG2_Haloize_mode, 0);
    tt_push(TT_SETADCXX(ADC_UNP_A, 16 * 16 - 1, 0));
    tt_push(TT_SETDMAREG(GPR_LO(GPR_TMP0), reg2 & 0xffff));
    tt_push(TT_SETDMAREG(GPR_HI(GPR_TMP0), reg2 >> 16));
    tt_push(TT_STALLWAIT(STALL_CFG, WAIT_THCON));
    tt_push(TT_WRCFG(GPR_TMP0, 0, CFG_SEC0_REG2));
    cfg_rmw(CFG_SEC0_TILE_X_DIM,
            CFG_SPAN(THCON_SEC0_REG5_Tile_x_dim_cntx0,
                     THCON_SEC0_REG5_Tile_x_dim_cntx1),
            CFG_VAL(THCON_SEC0_REG5_Tile_x_dim_cntx0, x_dim) |
            CFG_VAL(THCON_SEC0_REG5_Tile_x_dim_cntx1, x_dim));
    cfg_rmw(CFG_SEC0_TILE_DESC, 0xffff0000, x_dim << 16);
    cfg_rmw(CFG_SEC0_TILE_DESC + 1, 0xffff0000, 1u << 16);  /* Z = 1 */
    tt_push(TT_SETADCXX(ADC_UNP_A, x_dim - 1, 0));
    mop_program(1, 1, TT_UNPACR(0, 1, 1, 1, 1), TT_NOP, TT_NOP,
                TT_UNPACR_NOP(1, 1, 0, UNP_CLR_SRC), TT_NOP,
                TT_UNPACR_NOP(1, 1, 0, UNP_CLR_SRC),
                TT_UNPACR_NOP(1, 1, 0, UNP_CLR_SRC));
}

/* ------------------------------------------------- per tile -------- */

/*
 * The per-tile frame shared by unpack_A/AB/reduce/tilize/matmul: clear
 * the Z/W counters of the unpackers in @reset_zw (an ADC mask, 0: none),
 * claim a config context (at most two in flight, counted by
 * UNPACK_SYNC), point it at the tiles (@addr1 only if @use1), run the
 * MOP (matmul: @matmul_b, then template 0), release the context from
 * the Tensix side behind the UNPACRs, switch contexts.
 */
static void unpack_tile(uint32_t addr0, uint32_t addr1, int use1,
                        int reset_zw, uint32_t matmul_b)
{
    if (reset_zw) {
        tt_push(TT_SETADCZW(reset_zw, 0, 0, 0, 0, 0xf));
    }
    while (sem_read(SEM_UNPACK_SYNC) >= UNP_SYNC_CONTEXTS) {
        cpu_relax();
    }
    cfg_wr(CFG_SEC0_BASE + unp_ctx, l1_addr16(addr0));
    if (use1) {
        cfg_wr(CFG_SEC1_BASE + unp_ctx, l1_addr16(addr1));
    }
    sem_post(SEM_UNPACK_SYNC);
    tt_push(TT_STALLWAIT(STALL_UNPACK, WAIT_TRISC_CFG));
    if (matmul_b) {
        /* in0 to SrcB, then template 0 with the context as its mask */
        tt_push(matmul_b);
        tt_push(TT_MOP(0, 0, unp_ctx ? 0xff : 0));
    } else {
        mop_run();
    }
    tt_push(TT_SEMGET(SEM_BIT(SEM_UNPACK_SYNC)));
    unp_ctx ^= 1;
    tt_push(TT_SETC16(TC_UNPACK_MISC,
                      THCFG(UNPACK_MISC_CFG_CfgContextOffset_0, unp_ctx) |
                      THCFG(UNPACK_MISC_CFG_CfgContextOffset_1, unp_ctx)));
}

/*
 * TTK_MM_DRAM: NCRISC publishes how many k steps of A and B have reached
 * L1; the UNPACRs of step @k are pushed only after that.
 */
static void wait_operands(uint32_t k)
{
    while (PARAMS->ready <= k) {
        cpu_relax();
    }
}

uint32_t ttk_unpack(const TTKParams *p)
{
    uint32_t op = p->op;
    uint32_t ntiles = p->mt * p->nt;
    uint32_t sa = tile_size16(p->fmt_a) * 16;
    uint32_t sb = tile_size16(p->fmt_b) * 16;

    switch (op) {
    case TTK_OP_TILIZE: {
        /* tile (r, c) of a row-major block starts 32 datums per c in */
        uint32_t tile_row = 32 * p->nt * 32 * datum_bytes(p->fmt_a);

        unpack_hw_configure(p->fmt_a, p->unpack_out_a, p->fmt_a,
                            p->unpack_out_a);
        unpack_tilize_init(p->unpack_out_a, p->nt);
        for (uint32_t t = 0; t < ntiles; t++) {
            uint32_t r = t / p->nt, c = t % p->nt;

            set_stage(0, t << 8 | 3);
            unpack_tile(p->addr_a + r * tile_row +
                        c * 32 * datum_bytes(p->fmt_a), 0, 0, ADC_UNP_A, 0);
        }
        break;
    }
    case TTK_OP_DATACOPY:
    case TTK_OP_TRANSPOSE:
    case TTK_OP_UNTILIZE:
    case TTK_OP_SFPU:
        unpack_hw_configure(p->fmt_a, p->unpack_out_a, p->fmt_a,
                            p->unpack_out_a);
        if (op == TTK_OP_TRANSPOSE) {
            unpack_a_transpose_init();
        } else {
            unpack_a_init();
        }
        for (uint32_t t = 0; t < ntiles; t++) {
            set_stage(0, t << 8 | 3);
            unpack_tile(p->addr_a + t * sa, 0, 0, ADC_UNP_A | ADC_UNP_B, 0);
        }
        break;
    case TTK_OP_ELTWISE:
        unpack_hw_configure(p->fmt_a, p->unpack_out_a, p->fmt_b,
                            p->unpack_out_b);
        unpack_ab_init();
        for (uint32_t t = 0; t < ntiles; t++) {
            set_stage(0, t << 8 | 3);
            unpack_tile(p->addr_a + t * sa, p->addr_b + t * sb, 1,
                        ADC_UNP_A | ADC_UNP_B, 0);
        }
        break;
    case TTK_OP_REDUCE:
        unpack_hw_configure(p->fmt_a, p->unpack_out_a, p->fmt_b,
                            p->unpack_out_b);
        unpack_reduce_init(!(p->sub_op & TTK_REDUCE_COL));
        for (uint32_t t = 0; t < ntiles; t++) {
            set_stage(0, t << 8 | 3);
            unpack_tile(p->addr_a + t * sa, p->addr_b, 1,
                        ADC_UNP_A | ADC_UNP_B, 0);
        }
        break;
    case TTK_OP_MATMUL: {
        /* in1 = B goes to unpacker 0 (SrcA), in0 = A to unpacker 1 */
        uint32_t in0_to_b = TT_UNPACR(1, 0, 1, 1, 1);
        TTKMatmulShape sh = ttk_matmul_shape(p);

        unpack_hw_configure(p->fmt_b, p->unpack_out_b, p->fmt_a,
                            p->unpack_out_a);
        unpack_matmul_init(p->kt);
        for (uint32_t o = 0; o < ntiles; o++) {
            uint32_t m = (sh.n0 + o) / sh.ntot, n = o % sh.ntot;

            for (uint32_t k = 0; k < p->kt; k++) {
                set_stage(0, (o * p->kt + k) << 8 | 3);
                if (p->sub_op == TTK_MM_DRAM) {
                    wait_operands(k);
                }
                unpack_tile(p->addr_b + (k * sh.cols + n) * sb,
                            p->addr_a + (m * p->kt + k) * sa, 1, 0,
                            in0_to_b);
            }
        }
        break;
    }
    default:
        return TTK_ERR_OP;
    }
    set_stage(0, 0xff);
    return TTK_ERR_NONE;
}
