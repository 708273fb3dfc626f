/*
 * Tenstorrent Blackhole Tensix Vector Unit: the MAD sub-unit, SFPMAD and
 * its family (SFPADD, SFPMUL, SFPMULI, SFPADDI, SFPLUT, SFPLUTFP32,
 * SFPMUL24) on the FMA model of Miscellaneous/FMA/, vectorised for the
 * host in tensix-sfpu-vec.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/host-utils.h"
#include "tensix-sfpu-lanes.h"
#include "trace.h"

/* A vector of one value */
static void tt_sfp_splat(uint32_t *v, uint32_t x)
{
    for (unsigned l = 0; l < TT_LANES; l++) {
        v[l] = x;
    }
}

/* -------------------------------------------------- MAD sub-unit -- */

/* VD = ±(VA * VB) ± VC (SFPMAD.md); SFPADD and SFPMUL are the same */
void tensix_sfpmad(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpmad_instr_mod1(i->w);
    QEMU_UNINITIALIZED uint32_t a[TT_LANES], c[TT_LANES], d[TT_LANES];

    tt_sfp_get_va(s, i->va, mod & 4, a);
    tt_sfp_negate(a, a, mod & 1);
    tt_sfp_negate(c, s->lreg[i->vc], mod & 2);
    tt_sfp_fma(t->vec, d, a, s->lreg[i->vb], c);
    tt_sfp_put_vd(s, i->vd, mod & 8, d, tt_sfp_en(t, i));
}

void tensix_sfpadd(TTTensix *t, int thread, const TTSfpInsn *i)
{
    tensix_sfpmad(t, thread, i);
}

void tensix_sfpmul(TTTensix *t, int thread, const TTSfpInsn *i)
{
    tensix_sfpmad(t, thread, i);
}

/*
 * SFPMULI: VD = BF16(Imm16) * ±VD + 0; SFPADDI: VD = BF16(Imm16) * 1.0
 * ± VD (SFPMULI.md, SFPADDI.md; ttsim's operand order)
 */
static void tt_sfp_imm_op(TTTensix *t, const TTSfpInsn *i, bool add)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpmuli_instr_mod1(i->w);
    QEMU_UNINITIALIZED uint32_t imm[TT_LANES], k[TT_LANES];
    QEMU_UNINITIALIZED uint32_t c[TT_LANES], d[TT_LANES];

    tt_sfp_splat(imm, tt_sfpmuli_imm16_math(i->w) << 16);
    tt_sfp_splat(k, add ? TT_FP_ONE : 0);
    tt_sfp_negate(c, s->lreg[i->vc], mod & 2);
    if (add) {
        tt_sfp_fma(t->vec, d, imm, k, c);
    } else {
        tt_sfp_fma(t->vec, d, imm, c, k);
    }
    tt_sfp_put_vd(s, i->vd, mod & 8, d, tt_sfp_en(t, i));
}

void tensix_sfpmuli(TTTensix *t, int thread, const TTSfpInsn *i)
{
    tt_sfp_imm_op(t, i, false);
}

void tensix_sfpaddi(TTTensix *t, int thread, const TTSfpInsn *i)
{
    tt_sfp_imm_op(t, i, true);
}

/* Lut8ToFp32 (SFPLUT.md) */
static inline uint32_t tt_lut8(uint32_t x)
{
    return x == 0xff ? 0 : (x >> 7) << 31 | (127 - (x >> 4 & 7)) << 23 |
                           (x & 15) << 19;
}

/* Lut16ToFp32 (SFPLUTFP32.md): FP16 exponent 0 normal, 31 zero */
static inline uint32_t tt_lut16(uint32_t x)
{
    uint32_t e = x >> 10 & 31;

    return (x >> 15 & 1) << 31 | (e == 31 ? 0 : 112 + e) << 23 |
           (x & 0x3ff) << 13;
}

/* Copy LReg[3]'s sign into @d (SGN_RETAIN) */
static void tt_sfp_sign_of_l3(TTTensixSfpu *s, uint32_t *d)
{
    for (unsigned l = 0; l < TT_LANES; l++) {
        d[l] = (d[l] & ~TT_SIGN) | (s->lreg[3][l] & TT_SIGN);
    }
}

/* Which of three entries |LReg[3]| (raw bits @b) selects: < 1, < 2, >= 2 */
static inline unsigned tt_lut_entry(uint32_t b)
{
    return b < TT_FP_ONE ? 0 : b < 0x40000000 ? 1 : 2;
}

/* SFPLUT: a piecewise linear function of |LReg[3]| (SFPLUT.md) */
void tensix_sfplut(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfplut_instr_mod0(i->w);
    QEMU_UNINITIALIZED uint32_t a[TT_LANES], b[TT_LANES];
    QEMU_UNINITIALIZED uint32_t c[TT_LANES], d[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        uint32_t k;

        b[l] = s->lreg[3][l] & ~TT_SIGN;
        k = s->lreg[tt_lut_entry(b[l])][l];
        a[l] = tt_lut8(k >> 8 & 0xff);
        c[l] = tt_lut8(k & 0xff);
    }
    tt_sfp_fma(t->vec, d, a, b, c);
    if (mod & 4) {
        tt_sfp_sign_of_l3(s, d);
    }
    tt_sfp_put_vd(s, i->vd, mod & 8, d, tt_sfp_en(t, i));
}

/*
 * SFPLUTFP32: FP32 or FP16 coefficients chosen by |LReg[3]|
 * (SFPLUTFP32.md): Mod1 bit 1 FP16 tables, 10 the 3-entry one (whose VD
 * comes from LReg[7], a hardware bug), 3 the 4.0 split, 4 sign retain,
 * 8 indirect VD.  Breakpoints compare raw bits.
 */
void tensix_sfplutfp32(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfplutfp32_instr_mod1(i->w);
    uint32_t cut = (mod & 3) == 3 ? 0x40800000 : 0x40400000;
    QEMU_UNINITIALIZED uint32_t a[TT_LANES], b[TT_LANES];
    QEMU_UNINITIALIZED uint32_t c[TT_LANES], d[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        unsigned e, j;

        b[l] = s->lreg[3][l] & ~TT_SIGN;
        e = tt_lut_entry(b[l]);
        /* the upper halves: [0.5, 1), [1.5, 2), [cut, inf) */
        j = b[l] < 0x3f000000 ? 0 : b[l] < TT_FP_ONE ? 16 :
            b[l] < 0x3fc00000 ? 0 : b[l] < 0x40000000 ? 16 :
            b[l] < cut ? 0 : 16;
        if (!(mod & 2)) {
            a[l] = s->lreg[e][l];
            c[l] = s->lreg[4 + e][l];
        } else if ((mod & 10) == 10) {
            a[l] = tt_lut16(s->lreg[e][l] >> 16);
            c[l] = tt_lut16(s->lreg[e][l]);
        } else {
            a[l] = tt_lut16(s->lreg[e][l] >> j);
            c[l] = tt_lut16(s->lreg[4 + e][l] >> j);
        }
    }
    tt_sfp_fma(t->vec, d, a, b, c);
    if (mod & 4) {
        tt_sfp_sign_of_l3(s, d);
    }
    tt_sfp_put_vd(s, i->vd, mod & 8, d, tt_sfp_en(t, i));
}

/*
 * SFPMUL24: low or high 23 bits of a 23 x 23-bit product (SFPMUL24.md).
 * A non-zero VC adds a non-contractual shift/add: refused.
 */
void tensix_sfpmul24(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpmul24_instr_mod1(i->w);
    uint32_t en = tt_sfp_en(t, i);
    QEMU_UNINITIALIZED uint32_t a[TT_LANES], d[TT_LANES], nz[TT_LANES];
    const uint32_t *b = s->lreg[i->vb];

    for (unsigned l = 0; l < TT_LANES; l++) {
        nz[l] = s->lreg[i->vc][l] != 0;
    }
    if (tt_sfp_bits(nz) & en) {
        tt_tensix_error(t, thread, i->w, "VC (LReg%u) not zero: "
                        "non-contractual, ignored", i->vc);
        return;
    }
    tt_sfp_get_va(s, i->va, mod & 4, a);
    for (unsigned l = 0; l < TT_LANES; l++) {
        d[l] = mod & 1 ? (uint64_t)(a[l] & 0x7fffff) * (b[l] & 0x7fffff) >> 23
                       : (a[l] * b[l]) & 0x7fffff;
    }
    tt_sfp_put_vd(s, i->vd, mod & 8, d, en);
}
