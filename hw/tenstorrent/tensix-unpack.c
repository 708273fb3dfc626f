/*
 * Tenstorrent Blackhole Tensix unpackers: UNPACR moves datums from L1
 * into SrcA (unpacker 0, or Dst) or SrcB (unpacker 1), converting their
 * format; UNPACR_NOP clears a bank and/or hands it to the matrix unit.
 *
 * Source: tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/
 * UNPACR_Regular.md (functional model: configuration, addresses, the main
 * loop, counters, the bank flip; the Blackhole page defers to it),
 * UNPACR_NOP.md, SETDVALID.md, ADCs.md.  Blackhole specifics from
 * Tenstorrent's ttsim (src/tensix.cpp): tilize reads 32-datum L1 rows for
 * 16- and 32-bit data, SrcA rows wrap at 64, and a bank records its
 * unpacker's output format when handed over (the "implied" Src format).
 * Compressed data, row search and the context counters' blob metadata
 * are not modelled (logged).  Called with the tile's lock.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "hw/registerfields.h"
#include "tensix-formats.h"
#include "trace.h"

/* TileDescriptor, 128 bits at THCON_SEC[i]_REG0 (UNPACR_Regular.md) */
FIELD(TILE_DESC0, IN_DATA_FORMAT, 0, 4)
FIELD(TILE_DESC0, IS_UNCOMPRESSED, 4, 1)
FIELD(TILE_DESC0, NO_BFP_EXP_SECTION, 5, 1)
FIELD(TILE_DESC0, X_DIM, 16, 16)
FIELD(TILE_DESC1, Y_DIM, 0, 8)
FIELD(TILE_DESC1, Z_DIM, 16, 8)
FIELD(TILE_DESC2, W_DIM, 0, 8)
FIELD(TILE_DESC3, DIGEST_SIZE, 24, 8)

/* The THCON_SEC1 unpacker registers follow SEC0's at this distance */
#define TT_UNP_SEC_WORDS \
    (TT_CFG_THCON_SEC1_REG0_TileDescriptor_WORD - \
     TT_CFG_THCON_SEC0_REG0_TileDescriptor_WORD)
/* and UNP1's address generator registers follow UNP0's */
#define TT_UNP_ADC_WORDS \
    (TT_CFG_UNP1_ADDR_CTRL_XY_REG_1_Ystride_WORD - \
     TT_CFG_UNP0_ADDR_CTRL_XY_REG_1_Ystride_WORD)

/* Everything one UNPACR needs, gathered from its configuration */
typedef struct TTUnpack {
    TTTensix *t;
    int thread;
    uint32_t w;
    unsigned u;                 /* unpacker: 0 SrcA/Dst, 1 SrcB */
    unsigned ctx, adc;          /* config context, ADC thread */
    unsigned in, out, bits;
    unsigned xdim, ydim, zdim, wdim;
    uint64_t bit;               /* L1 bit address of the next datum */
    uint64_t exp;               /* L1 address of the first exponent x 16 */
    unsigned row_width, row_stride;  /* datums per L1 row, bytes apart */
    unsigned limit, fifo;       /* circular buffer, in 16-byte units */
    uint8_t forced_exp;
    bool force_exp, to_dst, dst32, transpose, int8_unsigned, fp8_e4m3;
    unsigned out_addr, col_shift, upsample, interleave;
    uint32_t count, first;
} TTUnpack;

static void tt_unpack_error(TTUnpack *p, const char *why)
{
    tt_tensix_error(p->t, p->thread, p->w, "unpacker %u: %s", p->u, why);
}

/* A 16-bit per-context field, two contexts to a word */
static unsigned tt_ctx16(const uint32_t *c, unsigned word, unsigned ctx)
{
    return extract32(c[word + (ctx & 3) / 2], 16 * (ctx & 1), 16);
}

/* WrapAddr: past Unpack_limit_address, back by Unpack_fifo_size */
static uint64_t tt_unpack_wrap(TTUnpack *p, uint64_t byte)
{
    return byte > p->limit * 16ull ? byte - p->fifo * 16ull : byte;
}

/* Context and ADC (UNPACR_Regular.md, "Start by reading...") */
static void tt_unpack_context(TTUnpack *p)
{
    const uint16_t *tc = p->t->th[p->thread].thread_cfg;
    TTTensixSrc *s = &p->t->src[p->u];

    p->ctx = 0;
    p->adc = p->thread;
    if (!tt_unpacr_ovrd_thread_id(p->w)) {      /* MultiContextMode */
        return;
    }
    p->ctx = tt_unpacr_auto_inc_context_id(p->w)
             ? s->context[p->thread] : tt_unpacr_cfg_context_id(p->w);
    p->ctx += p->u ? TT_THCFG(tc, UNPACK_MISC_CFG_CfgContextOffset_1)
                   : TT_THCFG(tc, UNPACK_MISC_CFG_CfgContextOffset_0);
    p->ctx &= 7;
    p->adc = tt_unpacr_addr_cnt_context_id(p->w);
    if ((p->u && p->ctx >= 2) || p->adc == 3) {
        tt_unpack_error(p, "context or ADC out of range (undefined): "
                        "wrapped");
        p->ctx &= p->u ? 1 : 7;
        p->adc = p->adc == 3 ? p->thread : p->adc;
    }
}

/* The tile descriptor and formats; false if the data cannot be read */
static bool tt_unpack_descriptor(TTUnpack *p, const uint32_t *c)
{
    unsigned sec = p->u * TT_UNP_SEC_WORDS, ctx = p->ctx;
    const uint32_t *td = &c[TT_CFG_THCON_SEC0_REG0_TileDescriptor_WORD + sec];
    bool multi = tt_unpacr_ovrd_thread_id(p->w);
    bool uncompressed = multi
        ? extract32(c[TT_CFG_THCON_SEC0_REG2_Disable_zero_compress_cntx0_WORD +
                      sec], ctx < 4 ? ctx : 12 + ctx, 1)
        : FIELD_EX32(td[0], TILE_DESC0, IS_UNCOMPRESSED);

    if (!uncompressed) {
        qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: compressed unpack not "
                      "modelled: read as uncompressed\n", p->t->tile_x,
                      p->t->tile_y, p->thread);
    }
    p->xdim = multi && !p->u
        ? tt_ctx16(c, TT_CFG_THCON_SEC0_REG5_Tile_x_dim_cntx0_WORD, ctx)
        : FIELD_EX32(td[0], TILE_DESC0, X_DIM);
    p->ydim = FIELD_EX32(td[1], TILE_DESC1, Y_DIM);
    p->zdim = FIELD_EX32(td[1], TILE_DESC1, Z_DIM) ?: 1;
    p->wdim = FIELD_EX32(td[2], TILE_DESC2, W_DIM) ?: 1;
    if (multi && TT_CFG_AT(c, THCON_SEC0_REG2_Ovrd_data_format, sec)) {
        uint32_t f = c[TT_CFG_THCON_SEC0_REG7_Offset_address_WORD + sec +
                       (ctx & 3)];

        p->in = extract32(f, ctx < 4 ? 16 : 24, 4);
        p->out = extract32(f, ctx < 4 ? 20 : 28, 4);
    } else {
        p->in = FIELD_EX32(td[0], TILE_DESC0, IN_DATA_FORMAT);
        p->out = TT_CFG_AT(c, THCON_SEC0_REG2_Out_data_format, sec);
    }
    p->bits = tt_fmt_bits(p->in);
    if (!p->bits || !tt_fmt_bits(p->out)) {
        tt_unpack_error(p, "undefined data format: not unpacked");
        return false;
    }
    return true;
}

/* Input addresses: data after the header and BFP exponents (16 B units) */
static void tt_unpack_input(TTUnpack *p, const uint32_t *c)
{
    TTTensixAdc *xy = &p->t->th[p->adc].adc[p->u];
    TTTensixAdc *zw = &p->t->th[p->thread].adc[p->u];
    unsigned sec = p->u * TT_UNP_SEC_WORDS;
    const uint32_t *td = &c[TT_CFG_THCON_SEC0_REG0_TileDescriptor_WORD + sec];
    uint64_t addr = c[TT_CFG_THCON_SEC0_REG3_Base_address_WORD + sec +
                      p->ctx] +
                    (c[TT_CFG_THCON_SEC0_REG7_Offset_address_WORD + sec +
                       (p->ctx & 3)] & 0xffff);

    addr = (addr + 1 + FIELD_EX32(td[3], TILE_DESC3, DIGEST_SIZE)) * 16;
    p->force_exp = TT_CFG_AT(c, THCON_SEC0_REG2_Force_shared_exp, sec);
    p->forced_exp = p->u ? TT_CFG(c, UNP1_FORCED_SHARED_EXP_shared_exp)
                         : TT_CFG(c, UNP0_FORCED_SHARED_EXP_shared_exp);
    p->exp = addr * 16;
    if (tt_fmt_is_bfp(p->in) && !p->force_exp &&
        (p->bits == 8 || !FIELD_EX32(td[0], TILE_DESC0, NO_BFP_EXP_SECTION))) {
        uint64_t n = (uint64_t)p->xdim * p->ydim * p->zdim * p->wdim;

        addr += DIV_ROUND_UP(DIV_ROUND_UP(n, 16), 16) * 16;
    }
    p->first = ((zw->val[0][3] * p->zdim + zw->val[0][2]) * p->ydim +
                xy->val[0][1]) * p->xdim + xy->val[0][0];
    p->count = xy->val[1][0] + 1 > xy->val[0][0]
               ? xy->val[1][0] + 1 - xy->val[0][0] : 0;
    p->exp += p->first;         /* one exponent byte per 16 datums */
    p->bit = addr * 8 + (uint64_t)p->first * p->bits;
    p->limit = TT_CFG_AT(c, THCON_SEC0_REG2_Unpack_limit_address, sec);
    p->fifo = TT_CFG_AT(c, THCON_SEC0_REG2_Unpack_fifo_size, sec);
}

/* Output address and modes */
static bool tt_unpack_output(TTUnpack *p, const uint32_t *c)
{
    TTTensixAdc *a = &p->t->th[p->thread].adc[p->u];
    unsigned sec = p->u * TT_UNP_SEC_WORDS, adc = p->u * TT_UNP_ADC_WORDS;
    bool multi = tt_unpacr_ovrd_thread_id(p->w);
    bool tileize = !p->u && TT_CFG(c, THCON_SEC0_REG2_Tileize_mode);
    unsigned ob = tt_fmt_bits(p->out), out;

    if (!p->u) {
        p->to_dst = multi
            ? extract32(c[TT_CFG_THCON_SEC0_REG2_Unpack_if_sel_cntx0_WORD],
                        p->ctx < 4 ? 4 + p->ctx : 16 + p->ctx, 1)
            : TT_CFG(c, THCON_SEC0_REG2_Unpack_If_Sel);
        p->dst32 = ob == 32;
        p->transpose = TT_CFG(c, THCON_SEC0_REG2_Haloize_mode);
    }
    out = TT_CFG_AT(c, UNP0_ADDR_BASE_REG_n_Base, adc + 1) +
          a->val[1][1] * TT_CFG_AT(c, UNP0_ADDR_CTRL_XY_REG_1_Ystride, adc) +
          a->val[1][2] * TT_CFG_AT(c, UNP0_ADDR_CTRL_ZW_REG_1_Zstride, adc) +
          a->val[1][3] * TT_CFG_AT(c, UNP0_ADDR_CTRL_ZW_REG_1_Wstride, adc);
    if (ob >= 16) {
        if (out % (ob / 8)) {
            tt_unpack_error(p, "output address not aligned to its datums "
                            "(undefined)");
        }
        out /= ob / 8;
    }
    if (multi && !p->u) {
        unsigned ctx_out = tt_ctx16(c,
            TT_CFG_THCON_SEC0_REG5_Dest_cntx0_address_WORD, p->ctx);

        out = p->to_dst || TT_CFG(c, UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr)
              ? out + ctx_out : ctx_out;
    }
    p->out_addr = out;
    p->upsample = (1u << TT_CFG_AT(c, THCON_SEC0_REG2_Upsample_rate, sec)) - 1;
    p->interleave = TT_CFG_AT(c, THCON_SEC0_REG2_Upsample_and_interleave, sec);
    p->col_shift = tileize || p->u ? 0 :
        extract32(c[TT_CFG_THCON_SEC0_REG2_Shift_amount_cntx0_WORD],
                  16 + 4 * (p->ctx & 3), 4);
    /* Blackhole tilize reads 32-datum rows of 16- and 32-bit data */
    p->row_width = tileize && p->bits >= 16 ? 32 : 16;
    p->row_stride = tileize
        ? extract32(c[TT_CFG_THCON_SEC0_REG2_Shift_amount_cntx0_WORD], 16, 12)
          << 4
        : p->bits * p->row_width / 8;
    p->int8_unsigned = p->u ? TT_CFG(c, ALU_FORMAT_SPEC_REG0_SrcBUnsigned)
                            : TT_CFG(c, ALU_FORMAT_SPEC_REG0_SrcAUnsigned);
    p->fp8_e4m3 = TT_CFG_AT(c, THCON_SEC0_REG1_Unp_LF8_4b_exp, sec);
    if (((p->transpose || tileize) && p->bit % 128) ||
        (p->to_dst && (p->col_shift || p->transpose))) {
        tt_unpack_error(p, "transpose/tilize/Dst with an unaligned start "
                        "or a column shift (undefined): not unpacked");
        return false;
    }
    return true;
}

/* ReadL1Bytes: @bits bits at L1 bit address @bit, little-endian */
static bool tt_unpack_read(TTUnpack *p, uint64_t bit, uint32_t *v)
{
    const uint8_t *l1 = p->t->l1;
    uint64_t byte = bit / 8;

    if (byte >= p->t->l1_size ||
        DIV_ROUND_UP(p->bits, 8) > p->t->l1_size - byte) {
        tt_unpack_error(p, "reads past L1: the rest is not unpacked");
        return false;
    }
    switch (p->bits) {
    case 32:
        *v = ldl_le_p(l1 + byte);
        break;
    case 16:
        *v = lduw_le_p(l1 + byte);
        break;
    case 8:
        *v = l1[byte];
        break;
    default:
        *v = extract32(l1[byte], bit % 8, p->bits);
    }
    return true;
}

/* Copy @n cells (a whole row, the common case, as a fixed-size copy) */
static void tt_unpack_cells(uint32_t *cell, const uint32_t *v, unsigned n)
{
    if (n == TT_ROW_DATUMS) {
        memcpy(cell, v, TT_ROW_DATUMS * 4);
    } else {
        memcpy(cell, v, n * 4);
    }
}

/* @n datums to Dst row @row from column @col */
static void tt_unpack_dst(TTTensix *t, unsigned row, unsigned col,
                          const uint32_t *v, unsigned n, bool dst32)
{
    for (unsigned k = 0; k < n; k++) {
        if (dst32) {
            tt_dst_wr32(t, row, col + k, v[k]);
        } else {
            tt_dst_wr16(t, row, col + k, v[k]);
        }
    }
    tt_dst_set_valid(t, row, dst32);
}

/*
 * The Src row of output row @row (below 4: SrcA's header, no row): SrcB
 * from the thread's row counter, SrcA after the header, wrapping on
 * Blackhole with SetOvrdWithAddr (ttsim), else from the counter
 */
static unsigned tt_unpack_src_row(TTUnpack *p, unsigned row, bool ovrd)
{
    unsigned base = p->t->src[p->u].row[p->thread];

    if (p->u) {
        return (row + base) & 0x3f;
    }
    row -= 4;
    return (ovrd ? row : (row & 15) + base) & 0x3f;
}

/* @n datums to SrcA, SrcB or Dst from output position @o, in one row */
static void tt_unpack_write(TTUnpack *p, unsigned o, const uint32_t *v,
                            unsigned n)
{
    TTTensix *t = p->t;
    TTTensixSrc *s = &t->src[p->u];
    uint32_t (*cell)[TT_ROW_DATUMS] = s->cell[s->unpack_bank];
    bool ovrd = TT_THCFG(t->th[p->thread].thread_cfg,
                         SRCA_SET_SetOvrdWithAddr);
    unsigned row = o / 16, col = o % 16;

    if (!p->u && p->to_dst) {
        tt_unpack_dst(t, (row - 4) & (ovrd ? 15 : 0x3ff), col, v, n,
                      p->dst32);
        return;
    }
    tt_src_changed(t, p->u, s->unpack_bank);   /* not for Dst: Src stays */
    if (p->u) {
        tt_unpack_cells(cell[tt_unpack_src_row(p, row, ovrd)] + col, v, n);
        return;
    }
    if (row < 4 || col + n <= p->col_shift) {
        return;                 /* the 4-row header, the column shift */
    }
    if (col < p->col_shift) {
        v += p->col_shift - col;
        n -= p->col_shift - col;
        col = p->col_shift;
    }
    col -= p->col_shift;
    row = tt_unpack_src_row(p, row, ovrd);
    if (!p->transpose) {
        tt_unpack_cells(&cell[row][col], v, n);
        return;
    }
    for (unsigned k = 0; k < n; k++) {
        cell[((row & ~15u) | (col + k)) & 0x3f][row & 15] = v[k];
    }
}

/* The shared exponent of datum @i */
static uint8_t tt_unpack_exp(TTUnpack *p, uint32_t i)
{
    uint64_t ea = tt_unpack_wrap(p, (p->exp + i) / 16);

    return p->force_exp ? p->forced_exp
           : ea < p->t->l1_size ? p->t->l1[ea] : 0;
}

/* Datum @i, @x-th of the L1 row at @rowbit, the general way; false stops */
static bool tt_unpack_datum(TTUnpack *p, uint32_t i, unsigned x,
                            uint64_t rowbit, unsigned *o, bool zero)
{
    uint64_t bit = rowbit + (uint64_t)x * p->bits;
    uint32_t raw, v;
    uint8_t e = 0;

    if (!tt_unpack_read(p, tt_unpack_wrap(p, bit / 8) * 8 + bit % 8, &raw)) {
        return false;
    }
    if (tt_fmt_is_bfp(p->in)) {
        e = tt_unpack_exp(p, i);
    }
    if (!tt_fmt_unpack(p->in, p->out, raw, e, p->to_dst, p->int8_unsigned,
                       p->fp8_e4m3, &v)) {
        tt_unpack_error(p, "undefined format conversion: not unpacked");
        return false;
    }
    for (unsigned k = 0; k <= p->upsample; k++, (*o)++) {
        if (!p->interleave || !k) {
            uint32_t cell = zero || k ? 0 : v;

            tt_unpack_write(p, *o, &cell, 1);
        }
    }
    return true;
}

/*
 * Datums @i.. (@n of them from the @x-th of the L1 row at @rowbit, in one
 * Src/Dst row, with one exponent) with a row converter; false (nothing
 * done) if they do not lie, wrapped alike, inside L1: the general path
 * then takes them.
 */
static bool tt_unpack_fast(TTUnpack *p, TTUnpackRowFn *fn, uint32_t i,
                           unsigned x, unsigned n, uint64_t rowbit,
                           unsigned o, bool zero)
{
    unsigned bytes = p->bits / 8;
    uint64_t a = rowbit / 8 + (uint64_t)x * bytes;
    uint64_t last = a + (n - 1) * bytes;
    QEMU_UNINITIALIZED uint32_t v[TT_ROW_DATUMS];

    if ((a > p->limit * 16ull) != (last > p->limit * 16ull)) {
        return false;
    }
    a = tt_unpack_wrap(p, a);
    if (a >= p->t->l1_size || n * bytes > p->t->l1_size - a) {
        return false;
    }
    if (zero) {
        memset(v, 0, n * 4);
    } else {
        fn(p->t->l1 + a, v, n,
           tt_fmt_is_bfp(p->in) ? tt_unpack_exp(p, i) : 0);
    }
    tt_unpack_write(p, o, v, n);
    return true;
}

/*
 * The common case of the loop below: whole rows of 16 datums of a
 * non-BFP format, contiguous in L1 on one side of the FIFO limit and
 * inside L1, into whole Src rows (no Dst, transpose or column shift),
 * each converted straight into its Src row.  False if it does not apply.
 */
static bool tt_unpack_rows(TTUnpack *p, TTUnpackRowFn *fn)
{
    TTTensixSrc *s = &p->t->src[p->u];
    bool ovrd = TT_THCFG(p->t->th[p->thread].thread_cfg,
                         SRCA_SET_SetOvrdWithAddr);
    unsigned bytes = p->bits / 8, o = p->out_addr;
    uint64_t a = p->bit / 8, end = a + (uint64_t)p->count * bytes;

    if (p->to_dst || p->transpose || p->col_shift || p->bit % 8 ||
        tt_fmt_is_bfp(p->in) || p->row_width != TT_ROW_DATUMS ||
        p->row_stride != TT_ROW_DATUMS * bytes || o % TT_ROW_DATUMS ||
        p->count % TT_ROW_DATUMS ||
        (a > p->limit * 16ull) != (end - 1 > p->limit * 16ull)) {
        return false;
    }
    a = tt_unpack_wrap(p, a);
    if (a >= p->t->l1_size || end - p->bit / 8 > p->t->l1_size - a) {
        return false;
    }
    tt_src_changed(p->t, p->u, s->unpack_bank);
    for (unsigned r = 0; r < p->count / TT_ROW_DATUMS; r++, o += 16) {
        if (p->u || o >= 4 * TT_ROW_DATUMS) {   /* SrcA: not the header */
            fn(p->t->l1 + a + r * TT_ROW_DATUMS * bytes,
               s->cell[s->unpack_bank][tt_unpack_src_row(p, o / 16, ovrd)],
               TT_ROW_DATUMS, 0);
        }
    }
    return true;
}

/*
 * The main loop of UNPACR_Regular.md (no decompression), in runs of
 * datums that share an L1 row, a Src/Dst row and a BFP exponent when a
 * row converter applies, else datum by datum.
 */
static void tt_unpack_loop(TTUnpack *p, bool zero)
{
    TTUnpackRowFn *fn = p->upsample ? NULL
                        : tt_fmt_unpack_row(p->in, p->out, p->to_dst);
    bool bfp = tt_fmt_is_bfp(p->in);
    unsigned o = p->out_addr, x = 0, n;     /* x: datum in the L1 row */
    uint64_t rowbit = p->bit;

    if (fn && !zero && tt_unpack_rows(p, fn)) {
        return;
    }

    for (uint32_t i = 0; i < p->count; i += n) {
        n = 1;
        if (fn) {
            n = MIN(p->count - i, p->row_width - x);
            n = MIN(n, 16 - o % 16);
            n = bfp ? MIN(n, 16 - (p->exp + i) % 16) : n;
        }
        if (fn && tt_unpack_fast(p, fn, i, x, n, rowbit, o, zero)) {
            o += n;
        } else {
            for (uint32_t j = 0; j < n; j++) {
                if (!tt_unpack_datum(p, i + j, x + j, rowbit, &o, zero)) {
                    return;
                }
            }
        }
        x += n;
        if (x == p->row_width) {
            x = 0;
            rowbit += (uint64_t)p->row_stride * 8;
        }
    }
}

/* Counters, then hand the bank over (UNPACR_Regular.md, the end) */
static void tt_unpack_finish(TTUnpack *p, const uint32_t *c)
{
    TTTensix *t = p->t;
    TTTensixSrc *s = &t->src[p->u];
    const uint16_t *tc = t->th[p->thread].thread_cfg;
    unsigned am = tt_unpacr_addr_mode(p->w), sec = p->u * TT_UNP_SEC_WORDS;
    unsigned base = (p->u ? TT_THCFG(tc, SRCB_SET_Base)
                          : TT_THCFG(tc, SRCA_SET_Base)) << 4;

    if (tt_unpacr_ovrd_thread_id(p->w) && tt_unpacr_auto_inc_context_id(p->w)) {
        unsigned n = p->ctx + 1;

        s->context[p->thread] =
            n >= 1u << TT_CFG_AT(c, THCON_SEC0_REG2_Context_count, sec) ? 0 : n;
    }
    for (int i = 0; i < TT_TENSIX_THREADS; i++) {
        TTTensixAdc *a = &t->th[i].adc[p->u];

        if (i != p->thread && i != (int)p->adc) {
            continue;
        }
        a->val[0][1] = (a->val[0][1] + extract32(am, 2, 2)) & tt_adc_mask[1];
        a->val[0][2] = (a->val[0][2] + extract32(am, 0, 2)) & tt_adc_mask[2];
        a->val[1][1] = (a->val[1][1] + extract32(am, 6, 2)) & tt_adc_mask[1];
        a->val[1][2] = (a->val[1][2] + extract32(am, 4, 2)) & tt_adc_mask[2];
    }
    if (tt_unpacr_set_dat_valid(p->w)) {
        tt_unpack_flip(t, p->thread, p->u, p->out);
        s->row[p->thread] = base;
    } else if (TT_CFG_AT(c, THCON_SEC0_REG2_Unpack_Src_Reg_Set_Upd, sec)) {
        s->row[p->thread] = (s->row[p->thread] + 16 + base) & 0x3f;
    }
}

/*
 * The unpacker's bank becomes the matrix unit's, with its format: at once,
 * or once @thread's pushing core has moved on (tt_src_defer())
 */
void tt_unpack_flip(TTTensix *t, int thread, unsigned which, unsigned fmt)
{
    TTTensixSrc *s = &t->src[which];

    if (!tt_src_defer(t, thread, which, s->unpack_bank)) {
        s->valid |= BIT(s->unpack_bank);
    }
    s->format[s->unpack_bank] = fmt;
    s->unpack_bank ^= 1;
}

/* A pending hand-over counts: the unpackers gave that bank away */
static bool tt_unpack_bank_free(TTTensix *t, int thread, unsigned which,
                                unsigned bank)
{
    if (!tt_src_handed(t, which, bank)) {
        return true;
    }
    trace_tt_tensix_stall(t->tile_x, t->tile_y, thread,
                          which ? "SrcB bank (unpacker 1)"
                                : "SrcA bank (unpacker 0)");
    return false;
}

/* UNPACR (UNPACR_Regular.md, UNPACR_FlushCache.md, ..._Increment...) */
bool tensix_unpacr(TTTensix *t, int thread, uint32_t w)
{
    const uint32_t *c = tt_cfgw(t, thread);
    TTUnpack p = {
        .t = t, .thread = thread, .w = w,
        .u = tt_unpacr_unpack_block_selection(w),
    };

    if (tt_unpacr_search_cache_flush(w)) {
        return true;            /* no row-start cache to flush */
    }
    if (!tt_unpack_bank_free(t, thread, p.u, t->src[p.u].unpack_bank)) {
        return false;
    }
    tt_unpack_context(&p);
    if (tt_unpacr_cfg_context_cnt_inc(w)) {
        t->src[p.u].context[thread] = (p.ctx + 1) & 7;
        return true;
    }
    if (tt_unpacr_row_search(w)) {
        qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: UNPACR row search not "
                      "modelled\n", t->tile_x, t->tile_y, thread);
    }
    if (tt_unpack_descriptor(&p, c)) {
        tt_unpack_input(&p, c);
        if (tt_unpack_output(&p, c)) {
            trace_tt_tensix_unpack(t->tile_x, t->tile_y, thread, p.u,
                                   p.bit / 8, p.in, p.out, p.count,
                                   p.out_addr, p.to_dst);
            tt_unpack_loop(&p, tt_unpacr_zero_write2(w));
        }
    }
    tt_unpack_finish(&p, c);
    return true;
}

/*
 * UNPACR_NOP (Blackhole encoding, UNPACR_NOP.md): wait for a bank, clear
 * the unpacker's bank (to 0 or, for SrcA, -inf; both banks with
 * Bank_Clr_Ctrl), then optionally hand it to the matrix unit.
 */
bool tensix_unpacr_nop(TTTensix *t, int thread, uint32_t w)
{
    unsigned u = tt_unpacr_nop_unpacker_select(w);
    unsigned op = tt_unpacr_nop_unpack_pop(w);
    TTTensixSrc *s = &t->src[u];
    unsigned unit = u * TT_UNP_SEC_WORDS;
    uint32_t fill = u == 0 && tt_unpacr_nop_src_clr_val_ctrl(w) == 1
                    ? 0xffffe000 : 0;

    if (!tt_unpack_bank_free(t, thread, u,
                             tt_unpacr_nop_stall_clr_cntrl(w)
                             ? s->unpack_bank : s->matrix_bank)) {
        return false;
    }
    if (op == 0 || op == 3) {
        qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: UNPACR_NOP stream pop "
                      "not modelled\n", t->tile_x, t->tile_y, thread);
    }
    if (op == 1) {
        for (unsigned b = 0; b < 2; b++) {
            if (b != s->unpack_bank && !tt_unpacr_nop_bank_clr_ctrl(w)) {
                continue;
            }
            for (unsigned r = 0; r < TT_SRC_ROWS; r++) {
                for (unsigned col = 0; col < TT_ROW_DATUMS; col++) {
                    s->cell[b][r][col] = fill;
                }
            }
            tt_src_changed(t, u, b);
        }
    }
    if (tt_unpacr_nop_set_dvalid(w)) {
        tt_unpack_flip(t, thread, u,
                       TT_CFG_AT(tt_cfgw(t, thread),
                                 THCON_SEC0_REG2_Out_data_format, unit));
    }
    return true;
}

/*
 * SETDVALID (SETDVALID.md): hand SrcA (bit 0) and/or SrcB (bit 1) to the
 * matrix unit.  Blackhole leaves the implied format unspecified; the
 * unpacker's output format is used.
 */
bool tensix_setdvalid(TTTensix *t, int thread, uint32_t w)
{
    const uint32_t *c = tt_cfgw(t, thread);

    tt_tensix_error(t, thread, w, "unsupported on Blackhole: banks handed "
                    "over with REG2_Out_data_format");
    for (unsigned u = 0; u < 2; u++) {
        if (tt_setdvalid_setvalid(w) & BIT(u)) {
            tt_unpack_flip(t, thread, u,
                           TT_CFG_AT(c, THCON_SEC0_REG2_Out_data_format,
                                     u * TT_UNP_SEC_WORDS));
        }
    }
    return true;
}
