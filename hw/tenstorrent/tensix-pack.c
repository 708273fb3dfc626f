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
#include "tensix-formats.h"
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

/* tt_pack_put of @len bytes from @addr on */
static void tt_pack_put_run(TTPackOut *o, uint32_t addr, const uint8_t *v,
                            unsigned len)
{
    if (!o->len) {
        o->start = addr;
    }
    if (addr - o->start == o->len && o->len + len <= sizeof(o->buf)) {
        memcpy(o->buf + o->len, v, len);    /* appended, as byte by byte */
        o->len += len;
        return;
    }
    for (unsigned i = 0; i < len; i++) {
        tt_pack_put(o, addr + i, v[i]);
    }
}

/* Everything one PACR needs */
typedef struct TTPack {
    TTTensix *t;
    int thread;
    uint32_t w;
    TTPackFormat f;
    TTPackRowFn *row_fn;        /* f's conversion, a row at a time */
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

/*
 * Formats (FormatConversion.md): In must be the IntermediateFormat, what
 * Dst accumulates
 */
static bool tt_pack_formats(TTPack *p, const uint32_t *c)
{
    TTPackFormat *f = &p->f;

    f->in = TT_CFG(c, THCON_SEC0_REG1_In_data_format);
    f->out = TT_CFG(c, THCON_SEC0_REG1_Out_data_format);
    f->dst32 = TT_CFG(c, PCK_DEST_RD_CTRL_Read_32b_data);
    f->read_unsigned = TT_CFG(c, PCK_DEST_RD_CTRL_Read_unsigned);
    f->read_raw = TT_CFG(c, PCK_DEST_RD_CTRL_Read_int8);
    f->int_shift = 0;
    if (TT_CFG(c, INT_DESCALE_Enable)) {
        /*
         * ShiftAmount: Mode 1 takes a byte of INT_DESCALE_VALUES_SEC
         * chosen by a value z FormatConversion.md leaves open; byte 0
         * here, as Mode 0 has it
         */
        if (TT_CFG(c, INT_DESCALE_Mode)) {
            qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: INT_DESCALE_Mode 1 "
                          "not modelled: SEC0's shift used\n",
                          p->t->tile_x, p->t->tile_y, p->thread);
        }
        f->int_shift = TT_CFG(c, INT_DESCALE_VALUES_SECn_Value) & 31;
    }
    f->round_10b = TT_CFG(c, PCK_DEST_RD_CTRL_Round_10b_mant);
    f->fp8_e4m3 = TT_CFG(c, THCON_SEC0_REG1_Pac_LF8_4b_exp);
    f->relu_mode = TT_CFG(c, STACC_RELU_ApplyRelu);
    f->relu_threshold = TT_CFG(c, STACC_RELU_ReluThreshold);
    /* IntermediateFormat: the override, else REG2_Dstacc */
    if (f->in != (TT_CFG(c, ALU_FORMAT_SPEC_REG_Dstacc_override)
                  ? TT_CFG(c, ALU_FORMAT_SPEC_REG_Dstacc_val)
                  : TT_CFG(c, ALU_FORMAT_SPEC_REG2_Dstacc))) {
        tt_pack_error(p, "In_data_format differs from the IntermediateFormat "
                      "(ALU_FORMAT_SPEC_REG2_Dstacc or its override; "
                      "undefined): nothing written");
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
    p->row_fn = tt_fmt_pack_row(f);
    if (!tt_fmt_pack_supported(f) || !p->out_bits) {
        qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: packer conversion "
                      "%s%u -> %u not modelled: nothing written\n",
                      p->t->tile_x, p->t->tile_y, p->thread,
                      f->dst32 ? "32-bit " : "", f->in, f->out);
        return false;
    }
    if (p->l1_acc && f->out != TT_FMT_FP32 && f->out != TT_FMT_FP16 &&
        f->out != TT_FMT_BF16 && f->out != TT_FMT_INT32) {
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

/* The Dst datum read interface @k (of those selected) reads @x-th */
static unsigned tt_pack_datum(TTPack *p, unsigned k, unsigned x)
{
    k = p->intf[k];
    return (p->start + (p->strided ? 256 * k : 16 * k) + x) &
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

/*
 * The edge masks of the next @n datums, from column @col within one row
 * of the edge-mask position (EdgeMasking.md); advances the position.
 */
static unsigned tt_pack_edge(TTPack *p, const uint32_t *c, unsigned col,
                             unsigned n)
{
    TTTensixPacker *pk = &p->t->packer;
    unsigned b = TT_CFG(c, PCK_EDGE_TILE_ROW_SET_SELECT_select) & 3;
    unsigned set = extract32(
        c[TT_CFG_TILE_ROW_SET_MAPPING_n_row_set_mapping_0_WORD + b],
        2 * (pk->tpg_y & 15), 2);
    unsigned mask = TT_CFG_AT(c, PCK_EDGE_OFFSET_SECn_mask, set);
    unsigned reads = TT_CFG(c, PACK_COUNTERS_SECn_pack_reads_per_xy_plane);

    pk->tpg_x += n;
    if (pk->tpg_x == 16) {
        pk->tpg_x = 0;
        if (++pk->tpg_y == reads) {
            pk->tpg_y = 0;
            pk->tpg_z++;
        }
    }
    return extract32(mask, col, n);
}

/* Store @n converted datums of whole bytes from L1 byte @byte on */
static void tt_pack_store(TTPack *p, TTPackOut *o, uint32_t byte,
                          const uint32_t *v, unsigned n)
{
    unsigned nb = p->out_bits / 8;
    QEMU_UNINITIALIZED uint8_t buf[TT_ROW_DATUMS * 4];

    if (!p->l1_acc) {
        /* one loop per width: this runs for every datum packed */
        if (nb == 2 && n == TT_ROW_DATUMS) {
            for (unsigned k = 0; k < TT_ROW_DATUMS; k++) {    /* vector */
                stw_le_p(buf + 2 * k, v[k]);
            }
            tt_pack_put_run(o, byte, buf, TT_ROW_DATUMS * 2);
            return;
        }
        switch (nb) {
        case 1:
            for (unsigned k = 0; k < n; k++) {
                buf[k] = v[k];
            }
            break;
        case 2:
            for (unsigned k = 0; k < n; k++) {
                stw_le_p(buf + 2 * k, v[k]);
            }
            break;
        case 4:
            for (unsigned k = 0; k < n; k++) {
                stl_le_p(buf + 4 * k, v[k]);
            }
            break;
        default:
            for (unsigned k = 0; k < n; k++) {
                stn_le_p(buf + k * nb, nb, v[k]);
            }
        }
        tt_pack_put_run(o, byte, buf, n * nb);
        return;
    }
    for (unsigned k = 0; k < n; k++, byte += nb) {
        uint32_t old = 0;

        for (unsigned i = 0; i < nb; i++) {
            old |= (uint32_t)tt_pack_peek(o, byte + i) << (8 * i);
        }
        stn_le_p(buf, nb, tt_fmt_l1_acc(p->f.out, old, v[k]));
        tt_pack_put_run(o, byte, buf, nb);
    }
}

/* A full BFP block: its exponent, then its codes */
static void tt_pack_block(TTPack *p, TTPackOut *o, uint64_t bit,
                          unsigned blk)
{
    TTTensixPacker *pk = &p->t->packer;
    uint8_t codes[16];          /* 16 datums of up to 8 bits */
    uint8_t e = tt_fmt_bfp_block(p->block, p->out_bits, codes);

    tt_pack_put(&o[1], pk->exp + blk, e);
    tt_pack_put_run(o, bit / 8, codes, p->out_bits * 2);
}

/* How many of @n datums from L1 bit @bit on lie inside L1 */
static unsigned tt_pack_fit(TTPack *p, uint64_t bit, unsigned n)
{
    while (n && bit + (uint64_t)n * p->out_bits > p->t->l1_size * 8ull) {
        n--;
    }
    return n;
}

/*
 * Datums @i.. (@n of them from Dst datum @d, within one Dst row, one
 * edge-mask row and one BFP block) converted, masked and stored
 * (PACR.md); false if they do not all fit in L1, having stored those
 * before the first that does not.
 */
static bool tt_pack_datums(TTPack *p, const uint32_t *c, TTPackOut *o,
                           unsigned i, unsigned d, unsigned n)
{
    TTTensix *t = p->t;
    uint64_t bit0 = (uint64_t)t->packer.data * 8;
    uint64_t bit = bit0 + (uint64_t)i * p->out_bits;
    unsigned fit = tt_pack_fit(p, bit, n), m = fit, mask;
    QEMU_UNINITIALIZED uint32_t raw[TT_ROW_DATUMS], v[TT_ROW_DATUMS];

    if (p->bfp && t->packer.exp + i / 16 >= t->l1_size) {
        m = 0;                  /* the exponent does not fit: no message */
    }
    /* the edge-mask position also counts the datum that stops the run */
    mask = tt_pack_edge(p, c, i % 16, MIN(m + 1, n));
    if (tt_pacr_zero_write(p->w)) {
        mask = 0;
    }
    if (p->f.dst32 && m == TT_ROW_DATUMS &&
        t->dst_valid[tt_dst_adj32(d / 16)]) {
        unsigned a = tt_dst_adj32(d / 16);
        uint16_t hi[TT_ROW_DATUMS], lo[TT_ROW_DATUMS];

        /* copies no pointer can alias: the loop becomes vector code */
        memcpy(hi, t->dst[a], sizeof(hi));
        memcpy(lo, t->dst[a + 8], sizeof(lo));
        for (unsigned j = 0; j < TT_ROW_DATUMS; j++) {
            raw[j] = (uint32_t)hi[j] << 16 | lo[j];
        }
    } else if (p->f.dst32) {
        for (unsigned j = 0; j < m; j++) {
            raw[j] = tt_dst_rd32(t, d / 16, d % 16 + j, 0);
        }
    } else if (t->dst_valid[d / 16] && m == TT_ROW_DATUMS) {
        uint16_t row[TT_ROW_DATUMS];

        memcpy(row, t->dst[d / 16], sizeof(row));
        for (unsigned j = 0; j < TT_ROW_DATUMS; j++) {
            raw[j] = row[j];
        }
    } else if (t->dst_valid[d / 16]) {  /* the run is within one row */
        for (unsigned j = 0; j < m; j++) {
            raw[j] = t->dst[d / 16][d % 16 + j];
        }
    } else {
        memset(raw, 0, m * sizeof(*raw));
    }
    p->row_fn(&p->f, raw, v, m);
    if (m && mask != MAKE_64BIT_MASK(0, m)) {   /* most runs mask nothing */
        for (unsigned j = 0; j < m; j++) {
            if (!(mask & BIT(j))) {
                v[j] = 0;
            }
        }
    }
    for (unsigned j = 0; j < m && p->bfp; j++) {
        p->block[(i + j) % 16] = v[j];
    }
    if (!p->bfp) {
        tt_pack_store(p, o, bit / 8, v, m);
    } else if (m && (i + m) % 16 == 0) {
        tt_pack_block(p, o, bit0 + (uint64_t)(i & ~15u) * p->out_bits,
                      i / 16);
    }
    if (m < n && m == fit) {
        tt_pack_error(p, "writes past L1: the rest is dropped");
    }
    return m == n;
}

/*
 * Move p->count datums (PACR.md) in runs sharing a Dst row, a row of the
 * edge-mask position and a BFP block.
 */
static void tt_pack_run(TTPack *p, const uint32_t *c, TTPackOut *o)
{
    TTTensixPacker *pk = &p->t->packer;
    unsigned i = 0, n;

    for (unsigned k = 0; k < p->nintf; k++) {
        for (unsigned x = 0; x < p->base && i < p->count; x += n, i += n) {
            unsigned d = tt_pack_datum(p, k, x);

            n = MIN(p->count - i, p->base - x);
            n = MIN(n, 16 - i % 16);
            n = MIN(n, 16 - pk->tpg_x);     /* tpg_x is below 16 */
            n = MIN(n, 16 - d % 16);
            if (!tt_pack_datums(p, c, o, i, d, n)) {
                return;
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
    TTPackOut o[2] QEMU_UNINITIALIZED;              /* data, exponents */
    bool last = tt_pacr_last(w) || tt_pacr_flush(w);

    for (unsigned i = 0; i < 2; i++) {
        o[i].t = t;             /* buffers left uninitialised: 1 KiB */
        o[i].start = o[i].len = 0;
    }
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
