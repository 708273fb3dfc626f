/*
 * Tenstorrent Blackhole Tensix Vector Unit: the simple sub-unit, every SFP
 * instruction SFPLOADMACRO.md does not give to another: exponent,
 * mantissa and sign fields, integer and bitwise operations, SFPARECIP,
 * predication and the flag stack, lane moves, SFPCONFIG and SFPNOP.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/host-utils.h"
#include "tensix-sfpu-lanes.h"
#include "trace.h"

/* ---------------------------------------- field manipulation (simple) -- */

/* SFPDIVP2: set, or add to (not Inf/NaN, wrapping), the exponent */
void tensix_sfpdivp2(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    bool add = tt_sfpdivp2_instr_mod1(i->w) & 1;
    uint32_t imm = tt_sfpdivp2_imm12_math(i->w);
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        uint32_t c = s->lreg[i->vc][l], e = c >> 23 & 0xff;

        e = !add ? imm : e == 255 ? e : (e + imm) & 0xff;
        v[l] = (c & 0x807fffff) | e << 23;
    }
    tt_sfp_put(s, i->vd, v, tt_sfp_en(t, i));
}

/* SFPEXEXP: the exponent, unbiased or not; flags = (exp < 0) [inverted] */
void tensix_sfpexexp(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpexexp_instr_mod1(i->w);
    uint32_t en = tt_sfp_en(t, i);
    QEMU_UNINITIALIZED uint32_t v[TT_LANES], neg[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        v[l] = (s->lreg[i->vc][l] >> 23 & 0xff) - (mod & 1 ? 0 : 127);
        neg[l] = v[l] >> 31;
    }
    tt_sfp_put(s, i->vd, v, en);
    tt_sfp_cc(s, i->vd, en, neg, mod & 2, mod & 8);
}

/* SFPEXMAN: the mantissa, with the hidden bit unless PAD9 */
void tensix_sfpexman(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    uint32_t hid = tt_sfpexman_instr_mod1(i->w) & 1 ? 0 : 0x800000;
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        v[l] = (s->lreg[i->vc][l] & 0x7fffff) | hid;
    }
    tt_sfp_put(s, i->vd, v, tt_sfp_en(t, i));
}

/* SFPSETEXP: exponent from Imm8, VD's exponent or VD's low 8 bits */
void tensix_sfpsetexp(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpsetexp_instr_mod1(i->w);
    uint32_t imm = tt_sfpsetexp_imm12_math(i->w);
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        uint32_t b = s->lreg[i->vb][l];
        uint32_t e = mod & 1 ? imm : mod & 2 ? b >> 23 & 0xff : b & 0xff;

        v[l] = (s->lreg[i->vc][l] & 0x807fffff) | e << 23;
    }
    tt_sfp_put(s, i->vd, v, tt_sfp_en(t, i));
}

/* SFPSETMAN: mantissa from Imm12 << 11 or VD */
void tensix_sfpsetman(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    bool use_imm = tt_sfpsetman_instr_mod1(i->w) & 1;
    uint32_t imm = tt_sfpsetman_imm12_math(i->w) << 11;
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        v[l] = (s->lreg[i->vc][l] & 0xff800000) |
               (use_imm ? imm : s->lreg[i->vb][l] & 0x7fffff);
    }
    tt_sfp_put(s, i->vd, v, tt_sfp_en(t, i));
}

/* SFPSETSGN: sign from Imm1 or VD */
void tensix_sfpsetsgn(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    bool use_imm = tt_sfpsetsgn_instr_mod1(i->w) & 1;
    uint32_t imm = tt_sfpsetsgn_imm12_math(i->w) << 31;
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        v[l] = (s->lreg[i->vc][l] & ~TT_SIGN) |
               (use_imm ? imm : s->lreg[i->vb][l] & TT_SIGN);
    }
    tt_sfp_put(s, i->vd, v, tt_sfp_en(t, i));
}

/*
 * SFPABS: FP32 (Mod1 bit 0: the sign cleared except on -NaN, the newer
 * Blackhole SFPABS.md and ttsim) or two's complement
 */
void tensix_sfpabs(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    bool fp = tt_sfpabs_instr_mod1(i->w) & 1;
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        uint32_t x = s->lreg[i->vc][l];

        v[l] = fp ? (x > 0xff800000 ? x : x & ~TT_SIGN)
                  : (x & TT_SIGN ? -x : x);
    }
    tt_sfp_put(s, i->vd, v, tt_sfp_en(t, i));
}

/* ------------------------------------------------ integer and bitwise -- */

/* SFPAND, SFPOR, SFPXOR, SFPNOT: bitwise on VB (or VD) and VC */
static void tt_sfp_bitwise(TTTensix *t, const TTSfpInsn *i, char op)
{
    TTTensixSfpu *s = &t->sfpu;
    const uint32_t *b = s->lreg[i->vb], *c = s->lreg[i->vc];
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        v[l] = op == '&' ? b[l] & c[l] : op == '|' ? b[l] | c[l]
             : op == '^' ? b[l] ^ c[l] : ~c[l];
    }
    tt_sfp_put(s, i->vd, v, tt_sfp_en(t, i));
}

void tensix_sfpand(TTTensix *t, int thread, const TTSfpInsn *i)
{
    tt_sfp_bitwise(t, i, '&');
}

void tensix_sfpor(TTTensix *t, int thread, const TTSfpInsn *i)
{
    tt_sfp_bitwise(t, i, '|');
}

void tensix_sfpxor(TTTensix *t, int thread, const TTSfpInsn *i)
{
    tt_sfp_bitwise(t, i, '^');
}

void tensix_sfpnot(TTTensix *t, int thread, const TTSfpInsn *i)
{
    tt_sfp_bitwise(t, i, '~');
}

/*
 * SFPIADD: VC + VD, VC - VD or VC + Imm12 (two's complement); flags =
 * (result < 0) unless CC_NONE, then inverted with CC_GTE0 (SFPIADD.md)
 */
void tensix_sfpiadd(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpiadd_instr_mod1(i->w);
    uint32_t imm = sextract32(tt_sfpiadd_imm12_math(i->w), 0, 12);
    uint32_t en = tt_sfp_en(t, i);
    QEMU_UNINITIALIZED uint32_t v[TT_LANES], neg[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        uint32_t c = s->lreg[i->vc][l], b = s->lreg[i->vb][l];

        v[l] = mod & 1 ? c + imm : mod & 2 ? c - b : c + b;
        neg[l] = v[l] >> 31;
    }
    tt_sfp_put(s, i->vd, v, en);
    tt_sfp_cc(s, i->vd, en, neg, !(mod & 4), mod & 8);
}

/*
 * SFPSHFT: VD shifted by VC, or (ARG_IMM) VD or VC (ARG_IMM_USE_VC)
 * shifted by Imm12; right shifts arithmetic with Mod1 bit 1 (SFPSHFT.md)
 */
void tensix_sfpshft(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpshft_instr_mod1(i->w);
    int32_t imm = sextract32(tt_sfpshft_imm12_math(i->w), 0, 12);
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    if (mod > 7 || mod == 4 || mod == 6) {
        tt_tensix_error(t, thread, i->w, "reserved Mod1 %u, ignored", mod);
        return;
    }
    for (unsigned l = 0; l < TT_LANES; l++) {
        uint32_t x = s->lreg[i->vb][l];
        int32_t amt = s->lreg[i->vc][l];

        if (mod & 1) {
            x = mod & 4 ? (uint32_t)amt : x;
            amt = imm;
        }
        v[l] = tt_shift(x, amt, mod & 2);
    }
    tt_sfp_put(s, i->vd, v, tt_sfp_en(t, i));
}

/* SFPLZ: leading zeros (32 for 0); flags = (VC != 0) [inverted] */
void tensix_sfplz(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfplz_instr_mod1(i->w);
    uint32_t en = tt_sfp_en(t, i);
    QEMU_UNINITIALIZED uint32_t v[TT_LANES], nz[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        uint32_t c = s->lreg[i->vc][l] & (mod & 4 ? ~TT_SIGN : TT_ALL);

        v[l] = clz32(c);
        nz[l] = c != 0;
    }
    tt_sfp_put(s, i->vd, v, en);
    tt_sfp_cc(s, i->vd, en, nz, mod & 2, mod & 8);
}

/*
 * SFPCAST (SFPCAST_IntFloat.md, _IntAbs.md, _IntInt.md): sign-magnitude
 * to FP32 rounding to nearest even (0) or stochastically with seven PRNG
 * bits (1), two's complement abs (2), two's complement <-> sign-magnitude
 * (3)
 */
void tensix_sfpcast(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpcast_instr_mod1(i->w);
    uint32_t en = tt_sfp_en(t, i);
    QEMU_UNINITIALIZED uint32_t rnd[TT_LANES], v[TT_LANES];

    if (mod > 3) {
        tt_tensix_error(t, thread, i->w, "reserved Mod1 %u, ignored", mod);
        return;
    }
    if (mod == 1) {
        tt_sfp_prng(s, en, rnd);
    }
    for (unsigned l = 0; l < TT_LANES; l++) {
        uint32_t c = s->lreg[i->vc][l], sign = c & TT_SIGN;
        uint32_t mag = c & ~TT_SIGN, lz = mag ? clz32(mag) : 157;
        uint32_t norm = mag << (lz & 31);
        uint32_t d = sign + ((157 - lz) << 23) + (norm >> 8);

        if (mod == 0) {
            d += (norm & 0x80) && (norm & 0x17f);
        } else if (mod == 1) {
            d += (norm & 0xfe) > (rnd[l] >> 9 & 0xfe);
        } else if (mod == 2) {
            d = sign ? -c : c;
        } else {
            d = sign | (sign ? -c : c);
        }
        v[l] = d;
    }
    tt_sfp_put(s, i->vd, v, en);
}

/* ------------------------------------------------------- SFPARECIP -- */

/* ApproxRecip's 7-bit mantissa table (SFPARECIP.md), see class init */
static uint8_t tt_arecip_lut[128];

/*
 * ApproxExp's table, as SFPARECIP.md gives it: mantissa bits for
 * BF16 inputs 0x3c80 (2^-6) up to 0x3fff (just below 2)
 */
static const uint8_t tt_aexp_lut[896] = {
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
    4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8,
    8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10,
    10, 10, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 12,
    12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 13, 13, 13, 13,
    13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 14, 14, 14, 14, 14, 14, 14, 14,
    14, 14, 14, 14, 14, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 17,
    17, 17, 17, 17, 17, 17, 18, 18, 18, 18, 18, 18, 18, 19, 19, 19, 19, 19,
    19, 19, 20, 20, 20, 20, 20, 20, 20, 21, 21, 21, 21, 21, 21, 21, 22, 22,
    22, 22, 22, 22, 22, 23, 23, 23, 23, 23, 23, 24, 24, 24, 24, 24, 24, 24,
    25, 25, 25, 25, 25, 25, 25, 26, 26, 26, 26, 26, 26, 27, 27, 27, 27, 27,
    27, 27, 28, 28, 28, 28, 28, 28, 28, 29, 29, 29, 29, 29, 29, 30, 30, 30,
    30, 30, 30, 30, 31, 31, 31, 31, 31, 31, 32, 32, 32, 32, 32, 32, 33, 33,
    33, 33, 33, 33, 33, 34, 34, 34, 34, 34, 34, 35, 35, 35, 35, 35, 35, 36,
    36, 36, 36, 36, 37, 37, 37, 38, 38, 38, 39, 39, 39, 40, 40, 40, 41, 41,
    41, 42, 42, 42, 43, 43, 43, 44, 44, 44, 45, 45, 45, 46, 46, 46, 47, 47,
    47, 48, 48, 49, 49, 49, 50, 50, 50, 51, 51, 51, 52, 52, 52, 53, 53, 53,
    54, 54, 54, 55, 55, 56, 56, 56, 57, 57, 57, 58, 58, 58, 59, 59, 60, 60,
    60, 61, 61, 61, 62, 62, 63, 63, 63, 64, 64, 64, 65, 65, 66, 66, 66, 67,
    67, 67, 68, 68, 69, 69, 69, 70, 70, 71, 71, 71, 72, 72, 72, 73, 73, 74,
    74, 74, 75, 75, 76, 76, 76, 77, 77, 78, 78, 78, 79, 79, 80, 80, 80, 81,
    81, 82, 82, 83, 83, 84, 85, 86, 87, 88, 88, 89, 90, 91, 92, 93, 94, 94,
    95, 96, 97, 98, 99, 100, 101, 101, 102, 103, 104, 105, 106, 107, 108, 109,
    110, 111, 112, 113, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123,
    124, 125, 126, 127, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 8, 9,
    9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 15, 15, 16, 16, 17, 17, 18, 19, 19,
    20, 20, 21, 21, 22, 23, 23, 24, 24, 25, 26, 26, 27, 27, 28, 29, 29, 30,
    31, 31, 32, 32, 33, 34, 34, 35, 36, 36, 37, 38, 38, 39, 39, 40, 41, 41,
    42, 43, 43, 44, 45, 45, 47, 48, 50, 51, 52, 54, 55, 57, 58, 60, 61, 63,
    64, 66, 67, 69, 70, 72, 73, 75, 76, 78, 80, 81, 83, 85, 86, 88, 90, 91,
    93, 95, 97, 98, 100, 102, 104, 106, 107, 109, 111, 113, 115, 117, 119,
    121, 123, 125, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 139,
    140, 141, 142, 143, 144, 145, 146, 147, 149, 150, 151, 152, 153, 155, 156,
    157, 158, 159, 161, 162, 163, 165, 166, 167, 168, 170, 171, 172, 174, 175,
    177, 178, 179, 181, 182, 184, 185, 187, 188, 189, 191, 192, 194, 196, 197,
    199, 200, 202, 203, 205, 207, 208, 210, 211, 213, 215, 216, 218, 220, 222,
    223, 225, 227, 229, 230, 232, 234,
};

/* ApproxRecip of a magnitude (SFPARECIP.md): 7 mantissa bits */
static inline uint32_t tt_approx_recip(uint32_t x)
{
    if (x < 0x00800000) {
        return 0x7f800000;
    } else if (x < 0x7e800000) {
        return (253 - (x >> 23)) << 23 | tt_arecip_lut[x >> 16 & 0x7f] << 16;
    }
    return 0;
}

/* ApproxExp of a magnitude (SFPARECIP.md): low 16 bits pass through */
static inline uint32_t tt_approx_exp(uint32_t x)
{
    uint32_t lo = x & 0xffff;

    if (x < 0x00800000) {
        return TT_FP_ONE;
    } else if (x < 0x3c800000) {
        return 0x3f810000 | lo;
    } else if (x < 0x40000000) {
        return (x < 0x3f320000 ? TT_FP_ONE : 0x40000000) |
               tt_aexp_lut[(x >> 16) - 0x3c80] << 16 | lo;
    }
    return 0x40800000 | lo;
}

/* SFPARECIP: approximate 1/x (0), 1/|x| where VB < 0 (1), e^|x| (2+) */
void tensix_sfparecip(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfparecip_instr_mod1(i->w);
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        uint32_t x = s->lreg[i->vc][l], sign = x & TT_SIGN, m = x ^ sign;

        if (mod == 0) {
            v[l] = sign | tt_approx_recip(m);
        } else if (mod == 1) {
            v[l] = s->lreg[i->vb][l] & TT_SIGN ? tt_approx_recip(m) : x;
        } else {
            v[l] = sign | tt_approx_exp(m);
        }
    }
    tt_sfp_put(s, i->vd, v, tt_sfp_en(t, i));
}

/*
 * ApproxRecip's table in closed form (it equals SFPARECIP.md's LUT):
 * round(32768 / (128.5 + i)) - 128, in integers
 */
void tt_sfpu_class_init(void)
{
    for (unsigned i = 0; i < ARRAY_SIZE(tt_arecip_lut); i++) {
        unsigned d = 257 + 2 * i;

        tt_arecip_lut[i] = (131072 + d) / (2 * d) - 128;
    }
}

/* ------------------------------------------------------ predication -- */

/*
 * SFPSETCC: in enabled lanes, flags = VC < 0, != 0, >= 0, == 0 (two's
 * complement), Imm1 (Mod1 bit 0) or false (bit 3, or flags not in use)
 */
void tensix_sfpsetcc(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpsetcc_instr_mod1(i->w);
    QEMU_UNINITIALIZED uint32_t neg[TT_LANES], zero[TT_LANES], f;

    for (unsigned l = 0; l < TT_LANES; l++) {
        neg[l] = s->lreg[i->vc][l] >> 31;
        zero[l] = s->lreg[i->vc][l] == 0;
    }
    if (!s->use_flags || (mod & 8)) {
        f = 0;
    } else if (mod & 1) {
        f = tt_sfpsetcc_imm12_math(i->w) ? TT_ALL : 0;
    } else {
        f = mod == 0 ? tt_sfp_bits(neg) : mod == 2 ? ~tt_sfp_bits(zero)
          : mod == 4 ? ~tt_sfp_bits(neg) : tt_sfp_bits(zero);
    }
    tt_sfp_set_flags(s, f, tt_sfp_en(t, i));
}

/*
 * SFPENCC: the flag enable set (Mod1 bit 1, from Imm2 bit 0), inverted
 * (bit 0) or kept; flags = Imm2 bit 1 (Mod1 bit 3) or all set
 */
void tensix_sfpencc(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpencc_instr_mod1(i->w);
    unsigned imm = tt_sfpencc_imm12_math(i->w);

    if (!tt_sfp_whole(t, thread, i)) {
        return;
    }
    if (mod & 2) {
        s->use_flags = imm & 1;
    } else if (mod & 1) {
        s->use_flags = !s->use_flags;
    }
    s->flags = !(mod & 8) || (imm & 2) ? TT_ALL : 0;
}

/*
 * BooleanOp(Mod1, A, B) of SFPPUSHC.md on lane masks: the truth table of
 * each Mod1 1-12, bit (A << 1 | B)
 */
static uint32_t tt_bool_op(unsigned mod, uint32_t a, uint32_t b)
{
    static const uint8_t table[13] = {
        0, 0xa, 0x5, 0x8, 0xe, 0x4, 0xd, 0x2, 0xb, 0x1, 0x7, 0x6, 0x9,
    };
    unsigned tt = table[mod];

    return (tt & 1 ? ~a & ~b : 0) | (tt & 2 ? ~a & b : 0) |
           (tt & 4 ? a & ~b : 0) | (tt & 8 ? a & b : 0);
}

/*
 * SFPPUSHC: push {flags, enable} (Mod1 0, at most eight deep), or change
 * the top entry (SFPPUSHC.md)
 */
void tensix_sfppushc(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfppushc_instr_mod1(i->w), top = s->sp - 1;

    if (!tt_sfp_whole(t, thread, i)) {
        return;
    }
    if (mod == 0 ? s->sp >= TT_SFPU_STACK : s->sp == 0) {
        tt_tensix_error(t, thread, i->w, "flag stack %s: undefined, ignored",
                        mod ? "empty" : "full");
        return;
    }
    if (mod == 0) {
        s->stack_flags[s->sp] = s->flags;
        s->stack_use[s->sp++] = s->use_flags;
        return;
    }
    if (mod == 13) {
        s->flags = ~s->flags;
    }
    s->stack_use[top] = mod < 14 ? s->use_flags : true;
    s->stack_flags[top] = mod <= 12 ? tt_bool_op(mod, s->stack_flags[top],
                                                 s->flags)
                        : mod == 13 ? s->flags : mod == 14 ? TT_ALL : 0;
}

/*
 * SFPPOPC: pop {flags, enable} (Mod1 0), or combine the top entry into
 * the current state without popping (SFPPOPC.md)
 */
void tensix_sfppopc(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfppopc_instr_mod1(i->w);
    uint32_t top = s->sp ? s->stack_flags[s->sp - 1] : 0;
    bool top_use = s->sp ? s->stack_use[s->sp - 1] : false;

    if (!tt_sfp_whole(t, thread, i)) {
        return;
    }
    if (mod == 0) {
        if (!s->sp) {
            tt_tensix_error(t, thread, i->w, "flag stack empty: undefined, "
                            "ignored");
            return;
        }
        s->sp--;
        s->flags = top;
        s->use_flags = top_use;
    } else if (mod <= 12) {
        s->use_flags = top_use;
        s->flags = tt_bool_op(mod, s->flags, top);
    } else {
        s->use_flags = mod == 13 ? s->use_flags : true;
        s->flags = mod == 13 ? ~s->flags : mod == 14 ? TT_ALL : 0;
    }
}

/* SFPCOMPC: "else": flags = top & ~flags (SFPCOMPC.md) */
void tensix_sfpcompc(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    uint32_t top = s->sp ? s->stack_flags[s->sp - 1] : TT_ALL;
    bool top_use = s->sp ? s->stack_use[s->sp - 1] : true;

    if (tt_sfp_whole(t, thread, i)) {
        s->flags = top_use && s->use_flags ? top & ~s->flags : 0;
    }
}

/*
 * SFPGT / SFPLE: VD > VC / VD <= VC in the total order; into VD as -1/0
 * (Mod1 bit 3), the flags (bit 0), and ANDed or ORed (bit 2) into the top
 * of the stack in every acting lane (bit 1) (SFPGT.md, SFPLE.md)
 */
static void tt_sfp_compare(TTTensix *t, const TTSfpInsn *i, bool le)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpgt_instr_mod1(i->w);
    uint32_t en = tt_sfp_en(t, i), cond;
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    for (unsigned l = 0; l < TT_LANES; l++) {
        v[l] = (tt_sm_key(s->lreg[i->vc][l]) < tt_sm_key(s->lreg[i->vb][l]))
               ^ le;
    }
    cond = tt_sfp_bits(v);
    if (mod & 1) {
        tt_sfp_set_flags(s, cond, en);
    }
    if ((mod & 2) && s->sp) {
        uint32_t *top = &s->stack_flags[s->sp - 1];

        *top = mod & 4 ? *top | (cond & i->lanes) : *top & (cond | ~i->lanes);
    }
    if (mod & 8) {
        for (unsigned l = 0; l < TT_LANES; l++) {
            v[l] = -v[l];
        }
        tt_sfp_put(s, i->vd, v, en);
    }
}

void tensix_sfpgt(TTTensix *t, int thread, const TTSfpInsn *i)
{
    tt_sfp_compare(t, i, false);
}

void tensix_sfple(TTTensix *t, int thread, const TTSfpInsn *i)
{
    tt_sfp_compare(t, i, true);
}

/* --------------------------------------------------- data movement -- */

/*
 * SFPMOV: VC, negated (Mod1 bit 0), in all acting lanes (Mod1 2), or
 * (Mod1 bit 3) configuration by VC: templates 0-3, sequences 4-7, misc 8,
 * the PRNG 9, LaneConfig 15, else 0 (SFPMOV.md)
 */
void tensix_sfpmov(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpmov_instr_mod1(i->w), vc = i->vc;
    uint32_t m = mod == 2 ? i->lanes : tt_sfp_en(t, i);
    QEMU_UNINITIALIZED uint32_t v[TT_LANES];

    if (!(mod & 8)) {
        tt_sfp_negate(v, s->lreg[vc], mod & 1);
    } else if (vc == 9) {
        tt_sfp_prng(s, m, v);
    } else {
        for (unsigned l = 0; l < TT_LANES; l++) {
            unsigned c = l & 7;

            v[l] = vc < 4 ? s->lm_template[c][vc]
                 : vc < 8 ? s->lm_sequence[c][vc - 4]
                 : vc == 8 ? s->lm_misc[c]
                 : vc == 15 ? s->lane_config[c] : 0;
        }
    }
    tt_sfp_put(s, i->vd, v, m);
}

/*
 * SFPSWAP (SFPSWAP.md): swap (Mod1 0), or min into VD and max into VC in
 * the lanes of VDGetsMin[Mod1], max/min elsewhere (Mod1 10-15, non-
 * contractual: as 9, the silicon behaviour the page gives), inverted by
 * EXCHANGE_SRCB_SRCC; with ENABLE_DEST_INDEX only LReg0-3 take values and
 * LReg[4 + (VC & 3)] / LReg[4 + (VD & 3)] are swapped alongside.
 *
 * The VD operand is read through VB, which is VD except where
 * SFPLOADMACRO sets it (the simple sub-unit's "VB = VD" is skipped), and
 * when VC and VD name one register VC's value lands last: tt-llk's
 * clamped exp feeds the loaded value to VC and LReg14 (-88.5) to VB and
 * keeps the maximum in the loaded register (tenstorrent/tt-llk
 * tt_llk_blackhole/common/inc/sfpu/ckernel_sfpu_exp.h _init_exponential_).
 */
void tensix_sfpswap(TTTensix *t, int thread, const TTSfpInsn *i)
{
    static const uint32_t vd_gets_min[10] = {
        0, TT_ALL, 0x0000ffff, 0x00ff00ff, 0xff0000ff, 0x000000ff,
        0x0000ff00, 0x00ff0000, 0xff000000, 0,
    };
    TTTensixSfpu *s = &t->sfpu;
    unsigned mod = tt_sfpswap_instr_mod1(i->w), vc = i->vc, vd = i->vd;
    unsigned ia = 4 + (vc & 3), ib = 4 + (vd & 3);
    uint32_t idx = tt_sfp_lc_lanes(s, TT_LC_DEST_INDEX), swap = TT_ALL;
    QEMU_UNINITIALIZED uint32_t c[TT_LANES], d[TT_LANES], lt[TT_LANES];
    QEMU_UNINITIALIZED uint32_t a[TT_LANES], b[TT_LANES];

    if (mod > 9) {
        /* tt-llk's typecasts to uint16 use 15 as "VD = max" */
        tt_tensix_error(t, thread, i->w, "Mod1 %u: non-contractual, as 9",
                        mod);
        mod = 9;
    }
    memcpy(c, s->lreg[vc], sizeof(c));
    memcpy(d, s->lreg[i->vb], sizeof(d));
    memcpy(a, s->lreg[ia], sizeof(a));
    memcpy(b, s->lreg[ib], sizeof(b));
    if (mod) {
        for (unsigned l = 0; l < TT_LANES; l++) {
            lt[l] = tt_sm_key(c[l]) < tt_sm_key(d[l]);
        }
        swap = ~(tt_sfp_bits(lt) ^ vd_gets_min[mod]) ^
               tt_sfp_lc_lanes(s, TT_LC_EXCHANGE_SRCB_SRCC);
    }
    swap &= tt_sfp_en(t, i);
    if (vd < 8 || vd == TT_LREG_STAGE) {
        tt_sfp_put(s, vd, c, swap & (vd < 4 ? TT_ALL : ~idx));
    }
    if (vc < 8) {
        tt_sfp_put(s, vc, d, swap & (vc < 4 ? TT_ALL : ~idx));
    }
    tt_sfp_put(s, ia, b, swap & idx);
    tt_sfp_put(s, ib, a, swap & idx);
}

/*
 * SFPTRANSP: within each column, LReg[0..3] and LReg[4..7] viewed as 4 x
 * 4 (register, row) are transposed, each lane written if enabled
 */
void tensix_sfptransp(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    uint32_t en = tt_sfp_en(t, i);
    QEMU_UNINITIALIZED uint32_t old[4][TT_LANES], v[TT_LANES];

    for (unsigned base = 0; base < 8; base += 4) {
        memcpy(old, s->lreg[base], sizeof(old));
        for (unsigned r = 0; r < 4; r++) {
            /* row j of register r is row r of register j */
            for (unsigned j = 0; j < 4; j++) {
                memcpy(&v[8 * j], &old[j][8 * r], 8 * sizeof(v[0]));
            }
            tt_sfp_put(s, base + r, v, en);
        }
    }
}

/* The defaults SFPCONFIG writes into LReg11-14 with IMM16_IS_VALUE */
const uint32_t tt_lreg_default[4] = {
    0xbf800000,     /* -1.0 */
    0x3b000000,     /* 1/512: the reset value (one SFPCONFIG.md says 2^-16) */
    0xbf2cc4c7,     /* -0.67487759 */
    0xbeb08ff9,     /* -0.34484843 */
};

/* @old combined with @val by SFPCONFIG's Mod1 bits 2:1: =, |, &, ^ */
static uint32_t tt_config_op(unsigned mod, uint32_t old, uint32_t val)
{
    switch (mod & 6) {
    case 2:
        return old | val;
    case 4:
        return old & val;
    case 6:
        return old ^ val;
    default:
        return val;
    }
}

/* One column's part of SFPCONFIG */
static void tt_sfp_config_col(TTTensixSfpu *s, unsigned c, unsigned vd,
                              unsigned mod, uint32_t imm)
{
    uint32_t val = mod & 1 ? imm : s->lreg[0][c];

    if (vd < 4) {
        s->lm_template[c][vd] = s->lreg[0][c];
    } else if (vd < 8) {
        s->lm_sequence[c][vd - 4] = val;
    } else if (vd == 8) {
        s->lm_misc[c] = tt_config_op(mod, s->lm_misc[c], val & 0xfff);
    } else if (vd == 15) {
        uint32_t old = s->lane_config[c];

        s->lane_config[c] = (tt_config_op(mod, old, val & TT_LC_BITS) |
                             (mod & 1 ? old & ~0xffff : 0)) & TT_LC_BITS;
    } else {
        val = mod & 1 ? tt_lreg_default[vd - 11] : s->lreg[0][c];
        for (unsigned l = c; l < TT_LANES; l += TT_SFPU_COLS) {
            s->lreg[vd][l] = val;
        }
    }
}

/*
 * SFPCONFIG (SFPCONFIG.md): from LReg0's lanes 0-7 or Imm16 (Mod1 bit 0)
 * into LoadMacroConfig (VD 0-8), LReg11-14 or LaneConfig (VD 15), column
 * by column, skipping columns masked by Imm16 (Mod1 bit 3) or whose lane
 * 0-7 flag is clear while flags are in use.
 */
void tensix_sfpconfig(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned vd = i->vd;        /* the config dest; SFPLOADMACRO sets it */
    unsigned mod = tt_sfpconfig_instr_mod1(i->w);
    uint32_t imm = tt_sfpconfig_imm16_math(i->w);

    if (vd == 9 || vd == 10 || vd > 15) {
        tt_tensix_error(t, thread, i->w, "VD %u: non-contractual, ignored",
                        vd);
        return;
    }
    for (unsigned c = 0; c < TT_SFPU_COLS; c++) {
        if (((mod & 8) && !(imm >> (2 * c) & 1)) ||
            (s->use_flags && !(s->flags >> c & 1))) {
            continue;
        }
        tt_sfp_config_col(s, c, vd, mod, imm);
    }
    if (vd == 15) {
        tt_sfpu_lane_config_changed(t);
    } else if (vd <= 8) {
        tt_sfpu_lm_changed(t);
    }
}

/* SFPNOP: nothing (bits 7:4 >= 12 still make a back-door load, as ttsim) */
void tensix_sfpnop(TTTensix *t, int thread, const TTSfpInsn *i)
{
}
