/*
 * TRISC2: the pack thread.  Configuration, the standard tile MOP, the
 * Dst hand-off and the reduce edge masks follow tt-llk's Blackhole pack
 * kernels (tenstorrent/tt-llk tt_llk_blackhole/llk_lib/llk_pack.h,
 * llk_pack_common.h; common/inc/cpack_common.h), written out as
 * instruction words for 32x32 tiles in SyncHalf mode.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ttk.h"

/* GPRs of the pack thread (tt-llk ckernel_structs.h p_gpr_pack) */
#define GPR_DEST_OFFSET_LO  4   /* 4-7: 0, 0, 0, 0 */
#define GPR_DEST_OFFSET_HI  8   /* 8-11: 512, 0, 0, 0 */
#define GPR_OUTPUT_ADDR     12
#define GPR_TILE_HEADER     16
#define GPR_TMP0            28
#define GPR_TMP1            29
#define GPR_TMP_LO          30
#define GPR_OUTPUT_ADDR_OFFSET 50
#define GPR_EXP0_SEC_SIZE   52

/* Configuration words, named after their first field */
#define CFG_PCK0_XY_REG_0   CFG_WORD(PCK0_ADDR_CTRL_XY_REG_0_Xstride)
#define CFG_PCK0_ZW_REG_0   CFG_WORD(PCK0_ADDR_CTRL_ZW_REG_0_Zstride)
#define CFG_PCK0_ZW_REG_1   CFG_WORD(PCK0_ADDR_CTRL_ZW_REG_1_Zstride)
#define CFG_TILE_ROW_SET_MAP(n) \
    (CFG_WORD(TILE_ROW_SET_MAPPING_n_row_set_mapping_0) + (n))
#define CFG_PCK_EDGE_OFFSET(n)  (CFG_WORD(PCK_EDGE_OFFSET_SECn_mask) + (n))
#define CFG_L1_DEST_ADDR    CFG_WORD(THCON_SEC0_REG1_L1_Dest_addr)
#define CFG_DEST_TARGET_PACK CFG_WORD(DEST_TARGET_REG_CFG_PACK_SECn_Offset)

#define PACK_REPLAY_BASE        16  /* slots 16-31 belong to math/pack */
#define INTF_ONE                0x1
#define INTF_TWO                0x3 /* interfaces 0 and 1 */
#define INTF_EVEN               0x5 /* interfaces 0 and 2 */
#define INTF_ODD                0xa /* interfaces 1 and 3 */

static uint32_t dest_half;      /* half of Dst the next section reads */

/*
 * set_packer_strides: a row of 16 datums, a face (two faces when
 * tilizing or untilizing, whose Dst rows interleave), a 32x32 tile.
 */
static void set_packer_strides(uint32_t src_fmt, uint32_t two_faces)
{
    uint32_t x = datum_bytes(src_fmt);
    uint32_t y = 16 * x, z = (two_faces ? 32 : 16) * y, w = 4 * 16 * 16 * x;

    tt_push(TT_SETDMAREG(GPR_LO(GPR_TMP0), 0));       /* Xstride unused */
    tt_push(TT_SETDMAREG(GPR_HI(GPR_TMP0), y));
    tt_push(TT_SETDMAREG(GPR_LO(GPR_TMP1), z));
    tt_push(TT_SETDMAREG(GPR_HI(GPR_TMP1), w));
    tt_push(TT_STALLWAIT(STALL_CFG, WAIT_THCON));
    tt_push(TT_WRCFG(GPR_TMP0, 0, CFG_PCK0_XY_REG_0));
    tt_push(TT_WRCFG(GPR_TMP1, 0, CFG_PCK0_ZW_REG_0));
    tt_push(TT_NOP);
    tt_push(TT_NOP);
}

/* configure_pack -> set_packer_config: formats, no ReLU, no L1 acc */
static void pack_hw_configure(uint32_t src, uint32_t dst, uint32_t fp32,
                              uint32_t untilize)
{
    uint32_t exp_sec = dst == TTK_FMT_INT8 ? 0 : 4;

    set_packer_strides(src, untilize);

    tt_push(TT_ATGETM(0));
    CFG_RMW(THCON_SEC0_REG1_Pac_LF8_4b_exp, 0);
    CFG_RMW(ALU_FORMAT_SPEC_REG2_Dstacc, src & 0xf);
    cfg_rmw(CFG_WORD(STACC_RELU_ApplyRelu),
            CFG_SPAN(STACC_RELU_ApplyRelu, STACC_RELU_ReluThreshold), 0);
    tt_push(TT_ATRELM(0));

    /* exponent thresholding off */
    cfg_rmw(CFG_WORD(THCON_SEC0_REG1_Exp_threshold),
            CFG_MASK(THCON_SEC0_REG1_Exp_threshold_en) |
            CFG_MASK(THCON_SEC0_REG1_Exp_threshold), 0);
    /*
     * Exp_section_size = 4 faces (0 for Int8, whose output address would
     * skip it too: OutputAddressGenerator.md); uncompressed, output and
     * input format
     */
    CFG_SET(THCON_SEC0_REG1_Exp_section_size, exp_sec);
    cfg_wr(CFG_WORD(THCON_SEC0_REG1_Disable_zero_compress),
           CFG_VAL(THCON_SEC0_REG1_Disable_zero_compress, 1) |
           CFG_VAL(THCON_SEC0_REG1_Out_data_format, dst & 0xf) |
           CFG_VAL(THCON_SEC0_REG1_In_data_format, src & 0xf));
    /* reconfigure_packer_l1_acc(0) */
    tt_push(TT_STALLWAIT(STALL_CFG, WAIT_PACK));
    CFG_RMW(THCON_SEC0_REG1_Disable_pack_zero_flags, 0);
    CFG_RMW(THCON_SEC0_REG1_Pack_L1_Acc, 0);
    /*
     * Read_32b_data for a 32-bit Dst or a 32-bit packer input (and signed
     * Int8 by rounding and saturating: INT_DESCALE stays off, as tt-llk
     * leaves it)
     */
    CFG_SET(PCK_DEST_RD_CTRL_Read_32b_data, fp32 || src == TTK_FMT_FLOAT32);
    gpr_wr(GPR_EXP0_SEC_SIZE,
           CFG_VAL(THCON_SEC0_REG1_Exp_section_size, exp_sec));
    gpr_sync(GPR_EXP0_SEC_SIZE);

    /* 16 rows per face; all columns pass; every row in row set 0 */
    CFG_SET(PACK_COUNTERS_SECn_pack_reads_per_xy_plane, 16);
    CFG_SET(PCK_EDGE_OFFSET_SECn_mask, 0xffff);
    cfg_wr(CFG_TILE_ROW_SET_MAP(0), 0);

    gpr_wr(GPR_TILE_HEADER, tile_size16(dst));
    gpr_wr(GPR_TILE_HEADER + 1, 0);
    gpr_wr(GPR_TILE_HEADER + 2, 0);
    gpr_wr(GPR_TILE_HEADER + 3, 0);
    gpr_sync(GPR_TILE_HEADER + 3);

    tt_push(TT_SETADCXX(ADC_PAC, 16 - 1, 0));
}

/*
 * _llk_pack_init_: a PACR moves four Dst rows (one per read interface);
 * four per face, the last of a face steps Z to the next face, the last
 * of the tile closes the output (Last) and rewinds.
 */
static void pack_init(void)
{
    tt_push(TT_SETC16(TC_ADDR_MOD_PACK(0), AM_PACK(4, 0, 4, 0, 0, 0)));
    tt_push(TT_SETC16(TC_ADDR_MOD_PACK(1), AM_PACK(0, 1, 0, 1, 0, 1)));
    tt_push(TT_SETC16(TC_ADDR_MOD_PACK(2), AM_PACK(0, 1, 4, 0, 1, 0)));
    mop_program(4, 4, TT_NOP, TT_NOP, TT_NOP, TT_PACR(0, 0, 0), TT_NOP,
                TT_PACR(1, 0, 1), TT_PACR(2, 0, 0));
}

/*
 * _llk_pack_init_ for tilize (the Blackhole workaround): Dst holds each
 * tile with its rows interleaved (tile row r, columns 0-15 in row 2r,
 * 16-31 in row 2r + 1).  Reading interfaces 0 and 2 (rows y, y + 2) then
 * 1 and 3 takes face 0 and face 1 out of the first 32 rows in order;
 * Z = 1 moves on to rows 32-63 for faces 2 and 3.
 */
static void pack_tilize_init(uint32_t src_fmt)
{
    uint32_t y = 16 * datum_bytes(src_fmt);
    uint32_t odd_last = TT_PACR(2, INTF_ODD, 0);

    tt_push(TT_SETC16(TC_ADDR_MOD_PACK(0), AM_PACK(4, 0, 2, 0, 0, 0)));
    tt_push(TT_SETC16(TC_ADDR_MOD_PACK(1), AM_PACK(0, 1, 0, 1, 0, 0)));
    tt_push(TT_SETC16(TC_ADDR_MOD_PACK(2), AM_PACK(0, 1, 0, 1, 1, 0)));
    tt_push(TT_REPLAY(0, 15, 0, 1));
    for (int i = 0; i < 7; i++) {
        tt_push(TT_PACR_X(0, 0, INTF_EVEN, 1, 0));
    }
    tt_push(TT_PACR_X(0, 1, INTF_EVEN, 1, 0));
    for (int i = 0; i < 7; i++) {
        tt_push(TT_PACR_X(0, 0, INTF_ODD, 1, 0));
    }
    mop_program(2, 1, TT_NOP, TT_SETADCZW(ADC_PAC, 0, 2, 0, 0, 0x4), TT_NOP,
                TT_REPLAY(0, 15, 0, 0), odd_last, TT_PACR(2, INTF_ODD, 1),
                odd_last);
    set_packer_strides(src_fmt, 1);
    /* L1 side: a face apart (not used by the packer on Blackhole) */
    tt_push(TT_SETDMAREG(GPR_LO(GPR_TMP1), 16 * y));
    tt_push(TT_SETDMAREG(GPR_HI(GPR_TMP1), 0));
    tt_push(TT_STALLWAIT(STALL_CFG, WAIT_THCON));
    tt_push(TT_WRCFG(GPR_TMP1, 0, CFG_PCK0_ZW_REG_1));
    tt_push(TT_NOP);
    tt_push(TT_NOP);
    tt_push(TT_SETADCXX(ADC_PAC, 16 - 1, 0));
}

/*
 * _llk_pack_untilize_init_ (block_ct_dim = full_ct_dim = @ct): for each of
 * the 16 rows of a face pair, for each tile of the block row, one strided
 * PACR reads the row of face 0 and the row 16 below it (face 1): one
 * 32-datum row of the tile.  W counts tiles (restored from its CR shadow
 * per row); the row ends with Last and the output address steps by a full
 * row of the block.
 */
static void pack_untilize_init(uint32_t src_fmt, uint32_t dst_fmt,
                               uint32_t ct)
{
    uint32_t row = TT_PACR_X(1, 0, INTF_TWO, 0, 0);
    uint32_t row_last = TT_PACR_X(1, 0, INTF_TWO, 0, 1);
    uint32_t pitch16 = ct * 2 * 16 * datum_bytes(dst_fmt) / 16;

    tt_push(TT_SETC16(TC_ADDR_MOD_PACK(0), AM_PACK(0, 0, 0, 0, 0, 0)));
    tt_push(TT_REPLAY(PACK_REPLAY_BASE, 4, 0, 1));
    tt_push(TT_ADDDMAREG(0, GPR_OUTPUT_ADDR, GPR_OUTPUT_ADDR,
                         GPR_OUTPUT_ADDR_OFFSET));
    tt_push(TT_STALLWAIT(STALL_CFG, WAIT_THCON));
    tt_push(TT_WRCFG(GPR_OUTPUT_ADDR, 0, CFG_L1_DEST_ADDR));
    tt_push(TT_NOP);
    mop_program(16, ct, TT_ADDRCRZW(ADC_PAC, 0, 0, 0, 0, 0x2),
                TT_INCADCXY(ADC_PAC, 0, 0, 1, 0),
                TT_REPLAY(PACK_REPLAY_BASE, 4, 0, 0),
                TT_INCADCZW(ADC_PAC, 0, 0, 1, 0), row, row_last, row_last);
    CFG_RMW(PCK0_ADDR_CTRL_ZW_REG_0_Zstride,
            2 * 16 * 16 * datum_bytes(src_fmt));
    tt_push(TT_SETDMAREG(GPR_LO(GPR_OUTPUT_ADDR_OFFSET), pitch16));
    tt_push(TT_SETADCXX(ADC_PAC, 16 - 1, 0));
}

/* _llk_pack_untilize_uninit_: Z steps one face again */
static void pack_untilize_uninit(uint32_t src_fmt)
{
    tt_push(TT_STALLWAIT(STALL_CFG, WAIT_PACK));
    CFG_RMW(PCK0_ADDR_CTRL_ZW_REG_0_Zstride, 16 * 16 * datum_bytes(src_fmt));
}

/* select_packer_dest_registers: Dst half from GPRs 4-7 or 8-11 */
static void select_dest_half(void)
{
    tt_push(TT_WRCFG(dest_half ? GPR_DEST_OFFSET_HI : GPR_DEST_OFFSET_LO, 1,
                     CFG_DEST_TARGET_PACK));
    tt_push(TT_DMANOP);
    tt_push(TT_DMANOP);
}

/* _llk_pack_dest_init_ (SyncHalf) */
static void pack_dest_init(void)
{
    tensix_sync();
    dest_half = 0;
    tt_push(TT_STALLWAIT(STALL_TDMA | STALL_THCON, WAIT_PACK));
    tt_push(TT_SETDMAREG(GPR_LO(GPR_DEST_OFFSET_LO), 0));
    tt_push(TT_SETDMAREG(GPR_LO(GPR_DEST_OFFSET_HI), 512));
    tt_push(TT_STALLWAIT(STALL_CFG, WAIT_THCON));
    select_dest_half();
    tt_push(TT_SETADCXY(ADC_PAC, 0, 0, 0, 0, 0xb));
    tt_push(TT_SETADCZW(ADC_PAC, 0, 0, 0, 0, 0xf));
}

/* _llk_pack_reduce_mask_config_: only row 0 / column 0 of each face */
static void pack_reduce_mask_config(uint32_t col)
{
    uint32_t edge0 = CFG_VAL(PCK_EDGE_TILE_ROW_SET_SELECT_select,
                             col ? 0x05 : 0x55);    /* packers: set 1 */
    uint32_t sec1_mask = col ? 0xffff : 0x0001;
    uint32_t map1 = col ? 0x00000001 : 0x55555555;

    tt_push(TT_SETDMAREG(GPR_LO(GPR_TMP0), edge0 & 0xffff));
    tt_push(TT_SETDMAREG(GPR_HI(GPR_TMP0), edge0 >> 16));
    tt_push(TT_SETDMAREG(GPR_LO(GPR_TMP_LO), sec1_mask));
    tt_push(TT_SETDMAREG(GPR_LO(GPR_TMP1), map1 & 0xffff));
    tt_push(TT_SETDMAREG(GPR_HI(GPR_TMP1), map1 >> 16));
    tt_push(TT_STALLWAIT(STALL_CFG, WAIT_PACK));
    tt_push(TT_WRCFG(GPR_TMP0, 0, CFG_PCK_EDGE_OFFSET(0)));
    tt_push(TT_WRCFG(GPR_TMP_LO, 0, CFG_PCK_EDGE_OFFSET(1)));
    tt_push(TT_WRCFG(GPR_TMP1, 0, CFG_TILE_ROW_SET_MAP(1)));
    tt_push(TT_NOP);
    tt_push(TT_NOP);
}

/* _llk_pack_reduce_mask_clear_ */
static void pack_reduce_mask_clear(void)
{
    tt_push(TT_SETDMAREG(GPR_LO(GPR_TMP0), 0xffff));
    tt_push(TT_SETDMAREG(GPR_HI(GPR_TMP0), 0));
    tt_push(TT_STALLWAIT(STALL_CFG, WAIT_PACK));
    tt_push(TT_WRCFG(GPR_TMP0, 0, CFG_PCK_EDGE_OFFSET(0)));
    tt_push(TT_WRCFG(GPR_TMP0, 0, CFG_PCK_EDGE_OFFSET(1)));
    tt_push(TT_WRCFG(0, 0, CFG_TILE_ROW_SET_MAP(0)));
    tt_push(TT_WRCFG(0, 0, CFG_TILE_ROW_SET_MAP(1)));
    tt_push(TT_NOP);
    tt_push(TT_NOP);
}

/*
 * program_packer_destination: L1_Dest_addr from GPR 12, with bit 31 set
 * as tt-llk does (only Wormhole's multi-packer offsets look at it).
 */
static void program_packer_destination(uint32_t byte)
{
    uint32_t addr = l1_addr16(byte), tagged = 1u << 31 | addr;

    tt_push(TT_SETDMAREG(GPR_LO(GPR_OUTPUT_ADDR), addr & 0xffff));
    tt_push(TT_SETDMAREG(GPR_HI(GPR_OUTPUT_ADDR), tagged >> 16));
    tt_push(TT_STALLWAIT(STALL_CFG, WAIT_THCON));
    tt_push(TT_WRCFG(GPR_OUTPUT_ADDR, 0, CFG_L1_DEST_ADDR));
    tt_push(TT_SETDMAREG(GPR_HI(GPR_OUTPUT_ADDR), addr >> 16));
    tt_push(TT_DMANOP);
}

/* _llk_pack_: Dst tile @t of the current half to L1 @byte */
static void pack_tile(uint32_t t, uint32_t byte)
{
    tt_push(TT_SETADC(ADC_PAC, 0, ADC_DIM_W, t));
    program_packer_destination(byte);
    mop_run();
    tt_push(TT_SETADCZW(ADC_PAC, 0, 0, 0, 0, 0x5));
}

/*
 * _llk_pack_untilize_: the block row in Dst to L1 @byte, row-major.  W
 * starts at 15 so that the first increment (16) wraps the Dst row
 * address to tile 0.
 */
static void pack_untilize_block(uint32_t byte)
{
    program_packer_destination(byte);
    tt_push(TT_SETADCZW(ADC_PAC, 0, 0, 0, 0, 0x1));
    tt_push(TT_SETADC(ADC_PAC, 0, ADC_DIM_W, 15));
    tt_push(TT_SETADCXY(ADC_PAC, 0, 0, 0, 0, 0x3));
    for (int face = 0; face < 2; face++) {
        mop_run();
        tt_push(TT_INCADCZW(ADC_PAC, 0, 0, 0, 1));
        tt_push(TT_SETADCXY(ADC_PAC, 0, 0, 0, 0, 0x2));
    }
    tt_push(TT_SETADCZW(ADC_PAC, 0, 0, 0, 0, 0x5));
    tt_push(TT_SETADC(ADC_PAC, 0, ADC_DIM_W, 0));
}

/*
 * _llk_pack_dest_section_done_: once the packer has read the half,
 * invalidate it (ZEROACC is a math-unit instruction, hence the wait on
 * the packer), give it back to math, and read the other half next.
 */
static void pack_dest_section_done(uint32_t fp32)
{
    tt_push(TT_STALLWAIT(STALL_MATH, WAIT_PACK));
    tt_push(TT_ZEROACC(ZEROACC_HALF, fp32, 0, 1, dest_half));
    tt_push(TT_SEMGET(SEM_BIT(SEM_MATH_PACK)));
    dest_half ^= 1;
    select_dest_half();
}

uint32_t ttk_pack(const TTKParams *p)
{
    uint32_t ntiles = p->mt * p->nt, block = p->block;
    uint32_t out_bytes = tile_size16(p->fmt_out) * 16;
    uint32_t reduce = p->op == TTK_OP_REDUCE;
    uint32_t untilize = p->op == TTK_OP_UNTILIZE;

    pack_hw_configure(p->pack_src, p->fmt_out, p->dst_fp32, untilize);
    if (p->op == TTK_OP_TILIZE) {
        pack_tilize_init(p->pack_src);
    } else if (!untilize) {
        pack_init();
    }
    if (reduce) {
        pack_reduce_mask_config(p->sub_op & TTK_REDUCE_COL);
    }
    pack_dest_init();
    if (untilize) {
        pack_untilize_init(p->pack_src, p->fmt_out, p->nt);
    }

    for (uint32_t t0 = 0; t0 < ntiles; t0 += block) {
        uint32_t n = ntiles - t0 < block ? ntiles - t0 : block;

        set_stage(2, t0 << 8 | 3);
        /* _llk_packer_wait_for_math_done_ */
        tt_push(TT_SEMWAIT(STALL_TDMA, SEM_BIT(SEM_MATH_PACK),
                           SEM_WAIT_ZERO));
        if (untilize) {
            /* the block is one row of tiles: 32 rows of the output */
            set_stage(2, t0 << 8 | 5);
            pack_untilize_block(p->addr_c + t0 * out_bytes);
        }
        for (uint32_t i = 0; !untilize && i < n; i++) {
            set_stage(2, (t0 + i) << 8 | 4);
            pack_tile(i, p->addr_c + (t0 + i) * out_bytes);
        }
        pack_dest_section_done(p->dst_fp32);
        if (p->op == TTK_OP_MATMUL && p->sub_op == TTK_MM_DRAM) {
            /* the section is in L1 once the thread drains: BRISC's turn */
            tensix_sync();
            __asm__ volatile("fence" : : : "memory");
            PARAMS->packed = t0 + n;
        }
        if (untilize || p->op == TTK_OP_SFPU) {
            /*
             * Not in tt-llk: an untilize block expands to ~300
             * instructions (a block of 8 packed tiles to ~250), and
             * ttsim v1.10.0 neither stalls a TRISC on a full instruction
             * FIFO nor grows it beyond 512 entries (src/tile.cpp
             * tensix_inst_wr32), so a third block queued behind the
             * SEMWAIT (while the SFPU is still on the first) overflows
             * it.  Draining here changes nothing in the instruction
             * stream.
             */
            tensix_sync();
        }
    }
    if (reduce) {
        pack_reduce_mask_clear();
    }
    if (untilize) {
        pack_untilize_uninit(p->pack_src);
    }
    set_stage(2, 0xff);
    return TTK_ERR_NONE;
}
