/*
 * Tenstorrent Blackhole Tensix Vector Unit: the round sub-unit,
 * SFP_STOCH_RND (SFPSTOCHRND.md) and SFPSHFT2 (SFPSHFT2.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/host-utils.h"
#include "tensix-sfpu-lanes.h"
#include "trace.h"

/* ----------------------------------------------------- SFPSTOCHRND -- */

/* Float -> float (SFPSTOCHRND_FloatFloat.md): keep 10 or 7 mantissa bits */
static uint32_t tt_rnd_float(uint32_t x, uint32_t p, bool fp16a)
{
    unsigned cut = fp16a ? 13 : 16;
    uint32_t e = x >> 23 & 0xff, low = x & ((1u << cut) - 1);

    if (e == 0) {
        return 0;
    } else if (e == 255) {
        return x & 0xff800000;
    }
    return x - low + (low >= p >> (23 - cut) ? 1u << cut : 0);
}

/* Float -> bounded sign-magnitude integer (SFPSTOCHRND_FloatInt.md) */
static uint32_t tt_rnd_int(uint32_t x, uint32_t p, unsigned mod)
{
    uint32_t max = mod == 2 ? 255 : mod == 3 ? 127 : mod == 6 ? 65535 : 32767;
    uint32_t sign = mod & 1 ? x & TT_SIGN : 0;
    int e = (int)(x >> 23 & 0xff) - 127;
    uint64_t m = 0x800000 | (x & 0x7fffff);

    if (e < -1) {
        return 0;
    } else if (e >= 16) {
        return sign | max;
    }
    m = e >= 0 ? m << e : m >> 1;
    m = MIN((m >> 23) + ((m & 0x7fffff) >= p), max);
    return m ? sign | m : 0;
}

/* Sign-magnitude descaled and bounded (SFPSTOCHRND_IntInt.md) */
static uint32_t tt_rnd_intint(uint32_t x, uint32_t p, unsigned shift, bool int8)
{
    uint64_t m = (uint64_t)(x & ~TT_SIGN) << 23 >> shift;

    m = MIN((m >> 23) + ((m & 0x7fffff) >= p), int8 ? 127 : 255);
    return int8 && m ? (x & TT_SIGN) | m : m;
}

/*
 * SFP_STOCH_RND: every enabled lane advances its PRNG in every mode;
 * rounding compares the discarded bits with 0x400000 (nearest, ties
 * away), 0x7fffff (toward zero) or 23 PRNG bits (stochastic, also mode 3)
 * with >=, the documented hardware bias.  Mod1 is the flavour in bits
 * 2:0 and UseImm5 in bit 3, which only the integer one reads
 * (SFPSTOCHRND_IntInt.md's syntax; the float pages give a u3 Mod1), so
 * tt-llk's 14 is FP32_TO_UINT16.  The functions above are the reference
 * path (-global tt-tensix.reference=on); tt_sfp_rnd() computes the same
 * on host vectors.
 */
void tensix_sfp_stoch_rnd(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfp_stoch_rnd_instr_mod1(i->w);
    unsigned rmode = tt_sfp_stoch_rnd_rnd_mode(i->w);
    unsigned imm5 = tt_sfp_stoch_rnd_imm8_math(i->w);
    const uint32_t *x = s->lreg[i->vc], *b = s->lreg[i->vb];
    uint32_t en = tt_sfp_en(t, i);
    QEMU_UNINITIALIZED uint32_t rnd[TT_LANES], p[TT_LANES], v[TT_LANES];
    QEMU_UNINITIALIZED uint32_t sh[TT_LANES];

    tt_sfp_prng(s, en, rnd);
    if (rmode == 0 || rmode == 2) {
        uint32_t c = rmode == 0 ? 0x400000 : 0x7fffff;

        TT_LANEWISE(p, c);
    } else {
        TT_LANEWISE(p, rnd[l] & 0x7fffff);
    }
    TT_LANEWISE(sh, mod & 8 ? imm5 & 31 : b[l] & 31);
    if (!t->reference) {
        tt_sfp_rnd(t->vec, v, x, p, sh, mod & 7);
        tt_sfp_put(s, i->vd, v, en);
        return;
    }
    switch (mod & 7) {
    case 0:
    case 1:
        TT_LANEWISE(v, tt_rnd_float(x[l], p[l], (mod & 7) == 0));
        break;
    case 4:
    case 5:
        TT_LANEWISE(v, tt_rnd_intint(x[l], p[l], sh[l], mod & 1));
        break;
    default:
        TT_LANEWISE(v, tt_rnd_int(x[l], p[l], mod & 7));
        break;
    }
    tt_sfp_put(s, i->vd, v, en);
}

/* --------------------------------------------------------- SFPSHFT2 -- */

/* Lane @l's left neighbour in its row of eight, for rotates and shifts */
static inline unsigned tt_ror1(unsigned l)
{
    return l & 7 ? l - 1 : l + 7;
}

/* SFPSHFT2 modes 0-2: LReg0 = LReg1, LReg1 = LReg2, LReg2 = LReg3, @l3 */
static void tt_sfp_copy4(TTTensixSfpu *s, uint32_t en, const uint32_t *l3)
{
    QEMU_UNINITIALIZED uint32_t v[4][TT_LANES];

    memcpy(v, s->lreg[1], 3 * sizeof(v[0]));
    memcpy(v[3], l3, sizeof(v[3]));
    for (unsigned r = 0; r < 4; r++) {
        tt_sfp_put(s, r, v[r], en);
    }
}

/*
 * SFPSHFT2 (SFPSHFT2.md, the Blackhole page): the COPY4 shuffles (0-2),
 * rotate (3) or shift (4) lanes right within each row of eight, or a
 * bitwise shift of VB by VC (5) or Imm12 (6)
 */
void tensix_sfpshft2(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpshft2_instr_mod1(i->w);
    int32_t imm = sextract32(tt_sfpshft2_imm12_math(i->w), 0, 12);
    uint32_t en = tt_sfp_en(t, i);
    QEMU_UNINITIALIZED uint32_t vc[TT_LANES], v[TT_LANES];

    if (mod > 6) {
        tt_tensix_error(t, thread, i->w, "undefined Mod1 %u, ignored", mod);
        return;
    }
    memcpy(vc, s->lreg[i->vc], sizeof(vc));
    for (unsigned l = 0; l < TT_LANES; l++) {
        uint32_t b = s->lreg[i->vb][l];

        switch (mod) {
        case 0:
            v[l] = 0;
            break;
        case 1:
            v[l] = l < 24 ? s->lreg[0][l + 8] : 0;
            break;
        case 2:
        case 3:
            v[l] = vc[tt_ror1(l)];
            break;
        case 4:
            v[l] = l & 7 ? vc[l - 1] : 0;
            break;
        default:
            v[l] = tt_shift(b, mod == 5 ? (int32_t)vc[l] : imm, false);
            break;
        }
    }
    if (mod <= 2) {
        tt_sfp_copy4(s, en, v);
    } else {
        tt_sfp_put(s, i->vd, v, en);
    }
}
