/*
 * Tenstorrent Blackhole Tensix Vector Unit: the load and store sub-units,
 * SFPLOAD, SFPLOADI and SFPSTORE between LRegs and Dst in every format
 * (SFPLOAD.md, SFPLOADI.md, SFPSTORE.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/host-utils.h"
#include "tensix-sfpu-lanes.h"
#include "trace.h"

/* ----------------------------------------------- Dst: SFPLOAD/STORE -- */

#define TT_DST_RD_BF16  (BIT(TT_FMT_FP32) | BIT(TT_FMT_TF32) | \
                         BIT(TT_FMT_BF16) | BIT(TT_FMT_BFP8) | \
                         BIT(TT_FMT_BFP4) | BIT(TT_FMT_BFP2) | \
                         BIT(TT_FMT_INT32) | BIT(TT_FMT_INT16))

/*
 * Resolve MOD0_FMT_SRCB (SFPLOAD.md): FP32 with SFPU_Fp32_enabled, else
 * BF16 or FP16 by the SrcB format (override, then SFPU_DEST_FMT)
 */
static unsigned tt_sfp_fmt(TTTensix *t, int thread, unsigned mod0)
{
    const uint32_t *c = tt_cfgw(t, thread);
    const uint16_t *tc = t->th[thread].thread_cfg;
    unsigned f;

    if (mod0 != TT_SFMT_SRCB) {
        return mod0;
    }
    if (TT_CFG(c, ALU_ACC_CTRL_SFPU_Fp32_enabled)) {
        return TT_SFMT_FP32;
    }
    f = TT_CFG(c, ALU_FORMAT_SPEC_REG_SrcB_override) ?
        TT_CFG(c, ALU_FORMAT_SPEC_REG_SrcB_val) :
        TT_CFG(c, ALU_FORMAT_SPEC_REG1_SrcB);
    if (TT_THCFG(tc, SFPU_DEST_FMT_Enable)) {
        f = TT_THCFG(tc, SFPU_DEST_FMT_Base);
    }
    return TT_DST_RD_BF16 & BIT(f) ? TT_SFMT_BF16 : TT_SFMT_FP16;
}

static bool tt_sfp_fmt32(unsigned fmt)
{
    return fmt == TT_SFMT_FP32 || fmt == TT_SFMT_INT32 ||
           fmt == TT_SFMT_INT32_ALL || fmt == TT_SFMT_INT32_SM;
}

/*
 * The Dst address of SFPLOAD/SFPSTORE (SFPLOAD.md, SFPSTORE.md): bits 9:2
 * pick four rows, bit 1 odd columns.  MOD0_FMT_INT32_ALL addresses
 * through the stack pointer RWC, which it moves by SFPU_STACK_Incr
 * (down before a load, up after a store).
 */
static unsigned tt_sfp_dst_addr(TTTensix *t, int thread, unsigned imm10,
                                bool int32_all, bool store)
{
    TTTensixThread *th = &t->th[thread];
    const uint32_t *c = tt_cfgw(t, thread);
    unsigned incr = TT_THCFG(th->thread_cfg, SFPU_STACK_Incr);
    unsigned addr = imm10 + TT_THCFG(th->thread_cfg,
                                     DEST_TARGET_REG_CFG_MATH_Offset);
    unsigned dst = th->rwc.dst + TT_CFG(c, DEST_REGW_BASE_Base);
    unsigned sp;

    if (int32_all && !store && th->rwc.sp) {
        th->rwc.sp = (th->rwc.sp - incr) & 0x3ff;
    }
    sp = th->rwc.sp + TT_CFG(c, DEST_SP_BASE_Base);
    if (int32_all) {
        addr += sp + (dst & 3);
        if (store) {
            th->rwc.sp = (th->rwc.sp + incr) & 0x3ff;
        }
    } else {
        addr += dst + (sp & 3);
    }
    return addr & 0x3ff;
}

/* Lane @l's Dst row and column at address @addr */
static inline unsigned tt_sfp_row(unsigned addr, unsigned l)
{
    return (addr & ~3u) + l / 8;
}

static inline unsigned tt_sfp_col(uint32_t odd, unsigned l)
{
    return 2 * (l & 7) + (odd >> l & 1);
}

/*
 * The 16-bit Dst values of the four rows at @addr, even (@o 0) or odd
 * columns in every lane: lane l reads row l / 8, column 2 (l % 8) + @o,
 * as tt_sfp_row() and tt_sfp_col() place it, a row at a time, as the
 * halves of 32-bit words (plain loops the compiler vectorises)
 */
static void tt_sfp_gather16(TTTensix *t, unsigned addr, unsigned o,
                            uint32_t *raw)
{
    unsigned sh = 16 * (o ^ HOST_BIG_ENDIAN);

    for (unsigned r = 0; r < 4; r++) {
        unsigned row = (addr & ~3u) + r;
        uint32_t *v = &raw[8 * r];

        if (!t->dst_valid[row]) {
            memset(v, 0, 8 * sizeof(*v));
            continue;
        }
        memcpy(v, t->dst[row], 8 * sizeof(*v));
        for (unsigned c = 0; c < 8; c++) {
            v[c] = v[c] >> sh & 0xffff;
        }
    }
}

typedef uint32_t TTSfpOct __attribute__((vector_size(32)));

static const TTSfpOct tt_col_bit = { 1, 2, 4, 8, 16, 32, 64, 128 };

/* The same, stored: @v into the lanes of @en, rows written become valid */
static void tt_sfp_scatter16(TTTensix *t, unsigned addr, unsigned o,
                             const uint32_t *v, uint32_t en)
{
    unsigned sh = 16 * (o ^ HOST_BIG_ENDIAN);

    for (unsigned r = 0; r < 4; r++) {
        unsigned row = (addr & ~3u) + r;
        uint32_t m = en >> (8 * r) & 0xff;
        TTSfpOct w, val, k;

        if (!m) {
            continue;
        }
        memcpy(&w, t->dst[row], sizeof(w));
        memcpy(&val, &v[8 * r], sizeof(val));
        k = (TTSfpOct)((tt_col_bit & m) != 0) & (0xffffu << sh);
        w = (w & ~k) | (val << sh & k);
        memcpy(t->dst[row], &w, sizeof(w));
        tt_dst_set_valid(t, row, false);
    }
}

/* ReadFP16 (SFPLOAD.md): Dst {sign, man10, exp5} to FP32 */
static inline uint32_t tt_sfp_read_fp16(uint32_t x, bool inf)
{
    uint32_t man = x >> 5 & 0x3ff, exp = x & 0x1f;

    if (inf && exp == 0x1f && man == 0x3ff) {
        exp = 255;
        man = 0;
    } else if (exp) {
        exp += 112;
    }
    return (x >> 15) << 31 | exp << 23 | man << 13;
}

/* SFPLOAD's datum conversion of Dst values @x into @v */
static void tt_sfp_from_dst(TTTensixSfpu *s, unsigned fmt, const uint32_t *x,
                            const uint32_t *old, uint32_t *v)
{
    uint32_t inf = tt_sfp_lc_lanes(s, TT_LC_FP16A_INF);

    switch (fmt) {
    case TT_SFMT_FP16:
        TT_LANEWISE(v, tt_sfp_read_fp16(x[l], inf >> l & 1));
        break;
    case TT_SFMT_BF16:
        TT_LANEWISE(v, (uint32_t)tt_dst_dec_bf16(x[l]) << 16);
        break;
    case TT_SFMT_INT8:                  /* SignMag9ToSignMag32 */
        TT_LANEWISE(v, (x[l] >> 15) << 31 | (x[l] >> 5 & 0xff));
        break;
    case TT_SFMT_INT8_COMP:             /* SignMag11ToSignMag32 */
        TT_LANEWISE(v, (x[l] >> 15) << 31 | (x[l] >> 5 & 0x3ff));
        break;
    case TT_SFMT_INT16:
        TT_LANEWISE(v, (x[l] >> 15) << 31 | (x[l] & 0x7fff));
        break;
    case TT_SFMT_HI16:
        TT_LANEWISE(v, x[l] << 16);
        break;
    case TT_SFMT_LO16_ONLY:
        TT_LANEWISE(v, (old[l] & 0xffff0000) | x[l]);
        break;
    case TT_SFMT_HI16_ONLY:
        TT_LANEWISE(v, x[l] << 16 | (old[l] & 0xffff));
        break;
    case TT_SFMT_ZERO:
        TT_LANEWISE(v, 0);
        break;
    default:                    /* 32-bit modes, UINT16, LO16: as read */
        memcpy(v, x, TT_LANES * sizeof(*v));
        break;
    }
}

/* ToFP16 (SFPSTORE.md): exponent rebiased, truncated, saturated */
static inline uint32_t tt_sfp_to_fp16(uint32_t d)
{
    int e = (d >> 23 & 0xff) - 112;

    return (d & TT_SIGN) >> 16 | (e <= 0 ? 0 : e > 31 ? 0x7fff
                                  : e << 10 | (d >> 13 & 0x3ff));
}

/* ToFP32 (SFPSTORE.md): denormals flushed to signed zero */
static inline uint32_t tt_sfp_daz(uint32_t d)
{
    return d & 0x7f800000 ? d : d & TT_SIGN;
}

/*
 * SFPSTORE's conversion of LReg values @x into Dst values @v; true if
 * they are 32-bit (SFPSTORE.md ToFP16, ToBF16, ToFP32, SignMag11ToFP16)
 */
static bool tt_sfp_to_dst(unsigned fmt, const uint32_t *x, uint32_t *v)
{
    switch (fmt) {
    case TT_SFMT_FP16:
        TT_LANEWISE(v, tt_dst_enc_fp16(tt_sfp_to_fp16(x[l])));
        return false;
    case TT_SFMT_BF16:
        TT_LANEWISE(v, tt_dst_enc_bf16(tt_sfp_daz(x[l]) >> 16));
        return false;
    case TT_SFMT_FP32:
        TT_LANEWISE(v, tt_dst_enc_fp32(tt_sfp_daz(x[l])));
        return true;
    case TT_SFMT_INT32:
    case TT_SFMT_INT32_ALL:
    case TT_SFMT_INT32_SM:
        TT_LANEWISE(v, tt_dst_enc_fp32(x[l]));
        return true;
    case TT_SFMT_INT8:
    case TT_SFMT_INT8_COMP:
        TT_LANEWISE(v, tt_dst_enc_fp16((x[l] & TT_SIGN) >> 16 | 16 << 10 |
                                       (x[l] & 0x3ff)));
        return false;
    case TT_SFMT_UINT16:
    case TT_SFMT_LO16_ONLY:
        TT_LANEWISE(v, x[l] & 0xffff);
        return false;
    case TT_SFMT_HI16_ONLY:
        TT_LANEWISE(v, x[l] >> 16);
        return false;
    case TT_SFMT_INT16:
        TT_LANEWISE(v, (x[l] & TT_SIGN) >> 16 | (x[l] & 0x7fff));
        return false;
    case TT_SFMT_LO16:                  /* raw, rotated */
        TT_LANEWISE(v, ror32(x[l], 16));
        return true;
    case TT_SFMT_HI16:                  /* raw */
        memcpy(v, x, TT_LANES * sizeof(*v));
        return true;
    default:                            /* TT_SFMT_ZERO */
        TT_LANEWISE(v, 0);
        return false;
    }
}

/*
 * SFPLOAD: four rows of even or odd Dst columns into LReg[VD], converted
 * (SFPLOAD.md).  Rows whose valid bit is clear read as 0, as in ttsim.
 * Returns the Dst address (SFPLOADMACRO's store uses it).
 */
unsigned tt_sfp_load_at(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned fmt = tt_sfp_fmt(t, thread, tt_sfpload_instr_mod0(i->w));
    bool all = fmt == TT_SFMT_INT32_ALL, d32 = tt_sfp_fmt32(fmt);
    unsigned addr = tt_sfp_dst_addr(t, thread,
                                    tt_sfpload_dest_reg_addr(i->w), all,
                                    false);
    uint32_t odd = addr & 2 ? TT_ALL
                            : tt_sfp_lc_lanes(s, TT_LC_RD_COL_EXCHANGE);
    uint32_t en = (all ? TT_ALL : tt_sfp_enabled(s)) &
                  ~tt_sfp_lc_lanes(s, TT_LC_BLOCK_DST_RD);
    QEMU_UNINITIALIZED uint32_t raw[TT_LANES], v[TT_LANES];

    trace_tt_tensix_sfpu_load(t->tile_x, t->tile_y, thread, i->vd,
                              addr & ~3u, addr >> 1 & 1, fmt);
    if (i->vd < 8) {
        uint32_t capture;

        if (!d32 && (odd == 0 || odd == TT_ALL)) {
            tt_sfp_gather16(t, addr, odd & 1, raw);
        } else {
            for (unsigned l = 0; l < TT_LANES; l++) {
                unsigned row = tt_sfp_row(addr, l), col = tt_sfp_col(odd, l);

                raw[l] = d32 ? tt_dst_dec_fp32(tt_dst_rd32(t, row, col, 0))
                             : tt_dst_rd16(t, row, col, 0);
            }
        }
        tt_sfp_from_dst(s, fmt, raw, s->lreg[i->vd], v);
        tt_sfp_put(s, i->vd, v, en);
        /* CAPTURE_DEFAULT_DEST_INDEX: (Row << 4) | Column too */
        capture = i->vd < 4 ? en & tt_sfp_lc_lanes(s, TT_LC_DEST_INDEX) &
                              tt_sfp_lc_lanes(s, TT_LC_CAPTURE_INDEX) : 0;
        if (capture) {
            for (unsigned l = 0; l < TT_LANES; l++) {
                v[l] = tt_sfp_row(addr, l) << 4 | tt_sfp_col(odd, l);
            }
            tt_sfp_put(s, i->vd + 4, v, capture);
        }
    }
    tt_addr_mod(t, thread, tt_sfpload_sfpu_addr_mode(i->w), false);
    return addr;
}

void tensix_sfpload(TTTensix *t, int thread, const TTSfpInsn *i)
{
    tt_sfp_load_at(t, thread, i);
}

/*
 * SFPSTORE: LReg[VD] into four rows of even or odd Dst columns,
 * converted (SFPSTORE.md); every row written becomes valid (ttsim).  One
 * SFPLOADMACRO scheduled stores where its load read and leaves the RWCs.
 */
void tensix_sfpstore(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned fmt = tt_sfp_fmt(t, thread, tt_sfpstore_instr_mod0(i->w));
    bool all = fmt == TT_SFMT_INT32_ALL, d32;
    unsigned addr = i->macro ? i->addr :
                    tt_sfp_dst_addr(t, thread,
                                    tt_sfpstore_dest_reg_addr(i->w), all,
                                    true);
    uint32_t odd = addr & 2 ? TT_ALL
                            : tt_sfp_lc_lanes(s, TT_LC_WR_COL_EXCHANGE);
    uint32_t en = i->lanes & (all ? TT_ALL : tt_sfp_enabled(s)) &
                  ~tt_sfp_lc_lanes(s, TT_LC_BLOCK_DST_WR);
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    trace_tt_tensix_sfpu_store(t->tile_x, t->tile_y, thread, i->vd,
                               addr & ~3u, addr >> 1 & 1, fmt);
    d32 = tt_sfp_to_dst(fmt, s->lreg[i->vd], v);
    if (!d32 && (odd == 0 || odd == TT_ALL)) {
        tt_sfp_scatter16(t, addr, odd & 1, v, en);
    } else {
        for (unsigned l = 0; l < TT_LANES; l++) {
            unsigned row = tt_sfp_row(addr, l), col = tt_sfp_col(odd, l);

            if (!(en >> l & 1)) {
                continue;
            }
            if (d32) {
                tt_dst_wr32(t, row, col, v[l]);
            } else {
                tt_dst_wr16(t, row, col, v[l]);
            }
            tt_dst_set_valid(t, row, d32);
        }
    }
    if (!i->macro) {
        tt_addr_mod(t, thread, tt_sfpstore_sfpu_addr_mode(i->w), false);
    }
}

/* SFPLOADI: an immediate, whole or in one half (SFPLOADI.md) */
void tensix_sfploadi(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    uint32_t imm = tt_sfploadi_imm16(i->w), keep = 0, val;
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    switch (tt_sfploadi_instr_mod0(i->w)) {
    case 0:                     /* FLOATB: BF16 */
        val = imm << 16;
        break;
    case 1:                     /* FLOATA: FP16 rebiased, no specials */
        val = (imm & 0x8000) << 16 | ((imm & 0x7fff) + (112 << 10)) << 13;
        break;
    case 2:                     /* USHORT */
        val = imm;
        break;
    case 4:                     /* SHORT */
        val = (int16_t)imm;
        break;
    case 8:                     /* UPPER */
        val = imm << 16;
        keep = 0xffff;
        break;
    case 10:                    /* LOWER */
        val = imm;
        keep = 0xffff0000;
        break;
    default:
        tt_tensix_error(t, thread, i->w, "undefined Mod0 %u, ignored",
                        tt_sfploadi_instr_mod0(i->w));
        return;
    }
    if (i->vd >= 8) {
        return;                 /* LReg[8..] cannot be loaded */
    }
    for (unsigned l = 0; l < TT_LANES; l++) {
        v[l] = val | (s->lreg[i->vd][l] & keep);
    }
    tt_sfp_put(s, i->vd, v, tt_sfp_en(t, i));
}
