/*
 * Tenstorrent Blackhole Tensix packer: PACR moves rows of Dst to L1,
 * converting their format (BFP with shared exponents included), applying
 * ReLU, edge masks and optionally accumulating onto L1.  Blackhole has one
 * packer with four Dst read interfaces.
 *
 * Source: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/
 * PACR.md, WormholeB0/.../Packers/InputAddressGenerator.md,
 * OutputAddressGenerator.md (Blackhole: Y offsets in bytes),
 * EdgeMasking.md, ReLU.md, FormatConversion.md, L1.md.  Where the
 * documentation leaves Blackhole open (interface rows relative to the
 * start row, the edge-mask position advancing per datum, Dst rows wrapping
 * at 1024), Tenstorrent's ttsim (src/tensix.cpp) is followed.
 * Compression, downsampling, exponent thresholding, row padding and
 * configuration contexts are not modelled (logged).  Called with the
 * tile's lock.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/bswap.h"
#include "tensix-internal.h"
#include "trace.h"

/* L1 output staged and written in runs (so translated code stays valid) */
typedef struct TTPackOut {
    TTTensix *t;
    uint32_t start, len;
    uint8_t buf[512];
} TTPackOut;

static void tt_pack_flush(TTPackOut *o)
{
    if (o->len) {
        tt_tensix_l1_write(o->t, o->start, o->buf, o->len);
        o->len = 0;
    }
}

/* The byte at L1 @addr as written so far by this PACR */
static uint8_t tt_pack_peek(TTPackOut *o, uint32_t addr)
{
    if (addr - o->start < o->len) {
        return o->buf[addr - o->start];
    }
    return o->t->l1[addr];
}

static void tt_pack_put(TTPackOut *o, uint32_t addr, uint8_t v)
{
    if (addr - o->start != o->len || o->len == sizeof(o->buf)) {
        if (o->len && addr - o->start < o->len) {
            o->buf[addr - o->start] = v;     /* a byte rewritten */
            return;
        }
        tt_pack_flush(o);
        o->start = addr;
    }
    o->buf[o->len++] = v;
}

/* Everything one PACR needs */
typedef struct TTPack {
    TTTensix *t;
    int thread;
    uint32_t w;
    TTPackFormat f;
    unsigned in_bits, out_bits;
    bool l1_acc, bfp;
    unsigned start;             /* first Dst datum (row * 16 + column) */
    unsigned base, count;       /* datums per interface, in all */
    uint8_t intf[4];
    unsigned nintf;
    bool strided;
    uint16_t block[16];         /* BFP block being assembled */
} TTPack;

static void tt_pack_error(TTPack *p, const char *why)
{
    tt_tensix_error(p->t, p->thread, p->w, "%s", why);
}

/* Formats (FormatConversion.md): In must be what Dst accumulates */
static bool tt_pack_formats(TTPack *p, const uint32_t *c)
{
    TTPackFormat *f = &p->f;

    f->in = TT_CFG(c, THCON_SEC0_REG1_In_data_format);
    f->out = TT_CFG(c, THCON_SEC0_REG1_Out_data_format);
    f->dst32 = TT_CFG(c, PCK_DEST_RD_CTRL_Read_32b_data);
    f->read_unsigned = TT_CFG(c, PCK_DEST_RD_CTRL_Read_unsigned);
    f->round_10b = TT_CFG(c, PCK_DEST_RD_CTRL_Round_10b_mant);
    f->fp8_e4m3 = TT_CFG(c, THCON_SEC0_REG1_Pac_LF8_4b_exp);
    f->relu_mode = TT_CFG(c, STACC_RELU_ApplyRelu);
    f->relu_threshold = TT_CFG(c, STACC_RELU_ReluThreshold);
    if (f->in != TT_CFG(c, ALU_FORMAT_SPEC_REG2_Dstacc)) {
        tt_pack_error(p, "In_data_format differs from ALU_FORMAT_SPEC_REG2_"
                      "Dstacc (undefined): nothing written");
        return false;
    }
    if (f->relu_mode > 3 || (f->relu_mode && f->relu_threshold & 0x8000)) {
        tt_pack_error(p, "ReLU mode above 3 or a negative threshold: no "
                      "ReLU");
        f->relu_mode = 0;
    }
    p->in_bits = tt_fmt_bits(f->in);
    p->out_bits = tt_fmt_bits(f->out);
    p->bfp = tt_fmt_is_bfp(f->out);
    p->l1_acc = TT_CFG(c, THCON_SEC0_REG1_Pack_L1_Acc);
    if (!tt_fmt_pack_supported(f) || !p->out_bits) {
        qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: packer conversion "
                      "%s%u -> %u not modelled: nothing written\n",
                      p->t->tile_x, p->t->tile_y, p->thread,
                      f->dst32 ? "32-bit " : "", f->in, f->out);
        return false;
    }
    if (p->l1_acc && f->out != TT_FMT_FP32 && f->out != TT_FMT_FP16 &&
        f->out != TT_FMT_BF16) {
        tt_pack_error(p, "L1 accumulation of this format is undefined: "
                      "plain writes");
        p->l1_acc = false;
    }
    return true;
}

/* Input address (InputAddressGenerator.md) and the read interfaces */
static void tt_pack_input(TTPack *p, const uint32_t *c)
{
    TTTensixAdc *a = &p->t->th[p->thread].adc[2];
    unsigned sel = tt_pacr_read_intf_sel(p->w) ?: 0xf;
    unsigned bpd = DIV_ROUND_UP(p->in_bits, 8);
    unsigned xmask = bpd == 4 ? 3 : bpd == 2 ? 7 : 15;
    uint32_t addr = TT_CFG(c, PCK0_ADDR_BASE_REG_n_Base) +
        a->val[0][0] * (TT_CFG(c, PCK0_ADDR_CTRL_XY_REG_0_Xstride) & 0xf) +
        a->val[0][1] * TT_CFG(c, PCK0_ADDR_CTRL_XY_REG_0_Ystride) +
        a->val[0][2] * TT_CFG(c, PCK0_ADDR_CTRL_ZW_REG_0_Zstride) +
        a->val[0][3] * TT_CFG(c, PCK0_ADDR_CTRL_ZW_REG_0_Wstride);

    p->start = (((addr / bpd) & ~xmask) + (a->val[0][0] & xmask) +
                (TT_CFG(c, DEST_TARGET_REG_CFG_PACK_SECn_Offset) << 4)) &
               (TT_DST_ROWS * TT_ROW_DATUMS - 1);
    p->nintf = 0;
    for (unsigned i = 0; i < 4; i++) {
        if (sel & BIT(i)) {
            p->intf[p->nintf++] = i;
        }
    }
    p->base = tt_pacr_flush(p->w) || a->val[1][0] + 1 < a->val[0][0] ? 0
              : a->val[1][0] + 1 - a->val[0][0];
    p->count = p->base * p->nintf;
    p->strided = tt_pacr_dst_access_mode(p->w);
}

/* Dst datum @i of this PACR through its read interface */
static unsigned tt_pack_datum(TTPack *p, unsigned i)
{
    unsigned k = p->intf[i / p->base];

    return (p->start + (p->strided ? 256 * k : 16 * k) + i % p->base) &
           (TT_DST_ROWS * TT_ROW_DATUMS - 1);
}

/* A new output group: where its data and BFP exponents go in L1 */
static void tt_pack_open(TTPack *p, const uint32_t *c)
{
    TTTensixPacker *pk = &p->t->packer;
    TTTensixAdc *a = &p->t->th[p->thread].adc[2];
    uint32_t addr;

    pk->tpg_x = pk->tpg_y = pk->tpg_z = 0;
    /* the "+ 1" skips the tile header slot tt-llk pre-subtracts */
    addr = TT_CFG(c, THCON_SEC0_REG1_L1_Dest_addr) + 1 +
           ((a->val[1][1] * TT_CFG(c, PCK0_ADDR_CTRL_XY_REG_1_Ystride)) >> 4);
    pk->exp = addr << 4;
    if (p->out_bits <= 8) {
        addr += TT_CFG(c, THCON_SEC0_REG1_Exp_section_size);
    }
    pk->data = addr << 4;
    pk->open = true;
}

/* The edge mask of the next datum (EdgeMasking.md); advances position */
static bool tt_pack_edge(TTPack *p, const uint32_t *c, unsigned col)
{
    TTTensixPacker *pk = &p->t->packer;
    unsigned b = TT_CFG(c, PCK_EDGE_TILE_ROW_SET_SELECT_select) & 3;
    unsigned set = extract32(
        c[TT_CFG_TILE_ROW_SET_MAPPING_n_row_set_mapping_0_WORD + b],
        2 * (pk->tpg_y & 15), 2);
    unsigned mask = TT_CFG_AT(c, PCK_EDGE_OFFSET_SECn_mask, set);
    unsigned reads = TT_CFG(c, PACK_COUNTERS_SECn_pack_reads_per_xy_plane);

    if (++pk->tpg_x == 16) {
        pk->tpg_x = 0;
        if (++pk->tpg_y == reads) {
            pk->tpg_y = 0;
            pk->tpg_z++;
        }
    }
    return mask & BIT(col);
}

/* Store one converted datum (bits at L1 bit address @bit) */
static void tt_pack_store(TTPack *p, TTPackOut *o, uint64_t bit, uint32_t v)
{
    uint32_t byte = bit / 8;
    unsigned n = p->out_bits / 8;

    if (p->l1_acc) {
        uint32_t old = 0;

        for (unsigned i = 0; i < n; i++) {
            old |= (uint32_t)tt_pack_peek(o, byte + i) << (8 * i);
        }
        v = tt_fmt_l1_acc(p->f.out, old, v);
    }
    for (unsigned i = 0; i < n; i++) {
        tt_pack_put(o, byte + i, v >> (8 * i));
    }
}

/* A full BFP block: its exponent, then its codes */
static void tt_pack_block(TTPack *p, TTPackOut *o, uint64_t bit,
                          unsigned blk)
{
    TTTensixPacker *pk = &p->t->packer;
    uint8_t codes[16];          /* 16 datums of up to 8 bits */
    uint8_t e = tt_fmt_bfp_block(p->block, p->out_bits, codes);
    uint32_t byte = bit / 8;

    tt_pack_put(&o[1], pk->exp + blk, e);
    for (unsigned i = 0; i < p->out_bits * 2; i++) {
        tt_pack_put(o, byte + i, codes[i]);
    }
}

static bool tt_pack_in_l1(TTPack *p, uint64_t bit, unsigned bits)
{
    if (bit + bits <= (uint64_t)p->t->l1_size * 8) {
        return true;
    }
    tt_pack_error(p, "writes past L1: the rest is dropped");
    return false;
}

/* Move p->count datums (PACR.md, one datum at a time) */
static void tt_pack_run(TTPack *p, const uint32_t *c, TTPackOut *o)
{
    TTTensixPacker *pk = &p->t->packer;
    bool zero = tt_pacr_zero_write(p->w);
    uint64_t bit0 = (uint64_t)pk->data * 8;

    for (unsigned i = 0; i < p->count; i++) {
        unsigned d = tt_pack_datum(p, i), row = d / 16, col = d % 16;
        uint64_t bit = bit0 + (uint64_t)i * p->out_bits;
        uint32_t v = 0;

        if (tt_pack_edge(p, c, i % 16) && !zero) {
            v = tt_fmt_pack(&p->f, p->f.dst32
                            ? tt_dst_rd32(p->t, row, col, 0)
                            : tt_dst_rd16(p->t, row, col, 0));
        }
        if (!tt_pack_in_l1(p, bit, p->out_bits) ||
            (p->bfp && pk->exp + i / 16 >= p->t->l1_size)) {
            return;
        }
        if (!p->bfp) {
            tt_pack_store(p, o, bit, v);
        } else {
            p->block[i % 16] = v;
            if (i % 16 == 15) {
                tt_pack_block(p, o, bit - 15 * p->out_bits, i / 16);
            }
        }
    }
}

/* Zero the rest of the last 16-byte word of a stream (Last) */
static void tt_pack_pad(TTPack *p, TTPackOut *o, uint32_t addr)
{
    for (; addr % 16 && addr < p->t->l1_size; addr++) {
        tt_pack_put(o, addr, 0);
    }
}

/* PACR_Regular ADC update (InputAddressGenerator.md, Output...) */
static void tt_pack_adc(TTPack *p)
{
    const uint16_t *tc = p->t->th[p->thread].thread_cfg;
    TTTensixAdc *a = &p->t->th[p->thread].adc[2];
    unsigned n = tt_pacr_addr_mode(p->w);

    if (TT_THCFG_N(tc, ADDR_MOD_PACK_SECn_YsrcClear, n)) {
        a->val[0][1] = a->cr[0][1] = 0;
    } else if (TT_THCFG_N(tc, ADDR_MOD_PACK_SECn_YsrcCR, n)) {
        a->cr[0][1] = (a->cr[0][1] +
                       TT_THCFG_N(tc, ADDR_MOD_PACK_SECn_YsrcIncr, n)) &
                      tt_adc_mask[1];
        a->val[0][1] = a->cr[0][1];
    } else {
        a->val[0][1] = (a->val[0][1] +
                        TT_THCFG_N(tc, ADDR_MOD_PACK_SECn_YsrcIncr, n)) &
                       tt_adc_mask[1];
    }
    if (TT_THCFG_N(tc, ADDR_MOD_PACK_SECn_ZsrcClear, n)) {
        a->val[0][2] = a->cr[0][2] = 0;
    } else {
        a->val[0][2] = (a->val[0][2] +
                        TT_THCFG_N(tc, ADDR_MOD_PACK_SECn_ZsrcIncr, n)) &
                       tt_adc_mask[2];
    }
    if (TT_THCFG_N(tc, ADDR_MOD_PACK_SECn_YdstClear, n)) {
        a->val[1][1] = a->cr[1][1] = 0;
    } else if (TT_THCFG_N(tc, ADDR_MOD_PACK_SECn_YdstCR, n)) {
        a->cr[1][1] = (a->cr[1][1] +
                       TT_THCFG_N(tc, ADDR_MOD_PACK_SECn_YdstIncr, n)) &
                      tt_adc_mask[1];
        a->val[1][1] = a->cr[1][1];
    } else {
        a->val[1][1] = (a->val[1][1] +
                        TT_THCFG_N(tc, ADDR_MOD_PACK_SECn_YdstIncr, n)) &
                       tt_adc_mask[1];
    }
    if (TT_THCFG_N(tc, ADDR_MOD_PACK_SECn_ZdstClear, n)) {
        a->val[1][2] = a->cr[1][2] = 0;
    } else {
        a->val[1][2] = (a->val[1][2] +
                        TT_THCFG_N(tc, ADDR_MOD_PACK_SECn_ZdstIncr, n)) &
                       tt_adc_mask[2];
    }
}

static void tt_pack_unmodelled(TTPack *p, const uint32_t *c)
{
    uint32_t w = p->w;

    if (tt_pacr_ctxt_ctrl(w) || tt_pacr_cfg_context(w) ||
        tt_pacr_ovrd_thread_id(w) || tt_pacr_addr_cnt_context(w) ||
        tt_pacr_row_pad_zero(w) ||
        TT_CFG(c, THCON_SEC0_REG1_Downsample_rate) ||
        TT_CFG(c, THCON_SEC0_REG1_Exp_threshold_en) ||
        TT_CFG(c, THCON_SEC0_REG1_Source_interface_selection)) {
        qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: PACR contexts, row "
                      "padding, downsampling, exponent thresholding or L1 "
                      "input not modelled: ignored\n", p->t->tile_x,
                      p->t->tile_y, p->thread);
    }
}

/* PACR (PACR.md) */
bool tensix_pacr(TTTensix *t, int thread, uint32_t w)
{
    const uint32_t *c = tt_cfgw(t, thread);
    TTTensixPacker *pk = &t->packer;
    TTPack p = { .t = t, .thread = thread, .w = w };
    TTPackOut o[2] = { { .t = t }, { .t = t } };    /* data, exponents */
    bool last = tt_pacr_last(w) || tt_pacr_flush(w);

    tt_pack_unmodelled(&p, c);
    if (tt_pack_formats(&p, c)) {
        tt_pack_input(&p, c);
        if (!pk->open) {
            tt_pack_open(&p, c);
        }
        trace_tt_tensix_pack(t->tile_x, t->tile_y, thread, p.start / 16,
                             pk->data, p.f.in, p.f.out, p.count, last);
        if (p.bfp && p.count % 16) {
            tt_pack_error(&p, "BFP output of a partial block: truncated to "
                          "whole blocks");
            p.count &= ~15u;
        }
        tt_pack_run(&p, c, o);
        pk->data += p.out_bits * p.count / 8;
        if (p.bfp) {
            pk->exp += p.count / 16;
        }
        if (last) {
            tt_pack_pad(&p, &o[0], pk->data);
            if (p.bfp) {
                tt_pack_pad(&p, &o[1], pk->exp);
            }
        }
        tt_pack_flush(&o[0]);
        tt_pack_flush(&o[1]);
    }
    pk->open = !last && pk->open;
    tt_pack_adc(&p);
    return true;
}

/* PACR_SETREG: a register write in the packer's order, not modelled */
bool tensix_pacr_setreg(TTTensix *t, int thread, uint32_t w)
{
    qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: PACR_SETREG not "
                  "modelled: ignored\n", t->tile_x, t->tile_y, thread);
    return true;
}
