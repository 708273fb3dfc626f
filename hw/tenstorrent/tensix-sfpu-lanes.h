/*
 * The Tensix Vector Unit (SFPU) model's shared state helpers: lane
 * enables, LReg writes (deferred ones for SFPLOADMACRO), the lane flags
 * and the per-lane PRNG, for the unit's files: tensix-sfpu.c (issue,
 * SFPLOADMACRO's scheduling, reset) and one per sub-unit, as
 * SFPLOADMACRO.md divides the instructions: tensix-sfpu-load.c (load and
 * store), tensix-sfpu-simple.c, tensix-sfpu-mad.c, tensix-sfpu-round.c.
 * Inline so that each instruction's lane loops stay one piece of code.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_TENSIX_SFPU_LANES_H
#define HW_TENSTORRENT_TENSIX_SFPU_LANES_H

#include "tensix-common.h"

#define TT_LANES        TT_SFPU_LANES
#define TT_LREG_STAGE   16              /* LReg.md: SFPLOADMACRO only */
#define TT_SIGN         0x80000000u
#define TT_FP_ONE       0x3f800000u
#define TT_ALL          0xffffffffu

/* SFPLOAD/SFPSTORE Mod0 (SFPLOAD.md "Supporting definitions") */
enum {
    TT_SFMT_SRCB, TT_SFMT_FP16, TT_SFMT_BF16, TT_SFMT_FP32, TT_SFMT_INT32,
    TT_SFMT_INT8, TT_SFMT_UINT16, TT_SFMT_HI16, TT_SFMT_INT16, TT_SFMT_LO16,
    TT_SFMT_INT32_ALL, TT_SFMT_ZERO, TT_SFMT_INT32_SM, TT_SFMT_INT8_COMP,
    TT_SFMT_LO16_ONLY, TT_SFMT_HI16_ONLY,
};

/* LaneConfig bits (SFPCONFIG.md "LaneConfig") */
enum {
    TT_LC_FP16A_INF = BIT(0),
    TT_LC_NO_BACKDOOR = BIT(1),
    TT_LC_DEST_INDEX = BIT(2),
    TT_LC_CAPTURE_INDEX = BIT(3),
    TT_LC_BLOCK_DST_WR = BIT(4),
    TT_LC_BLOCK_DST_RD = BIT(5),
    TT_LC_RD_COL_EXCHANGE = BIT(6),
    TT_LC_WR_COL_EXCHANGE = BIT(7),
    TT_LC_EXCHANGE_SRCB_SRCC = BIT(8),
    TT_LC_ROW_MASK_SHIFT = 12,
    TT_LC_BITS = 0x3ffff,
};

/*
 * Lane vectors on the stack are QEMU_UNINITIALIZED: every instruction
 * fills them completely before use, and zeroing them (the build's
 * -ftrivial-auto-var-init) would cost as much as the work on small ones.
 */

/* ------------------------------------------------------------ lanes -- */

/* Every lane l: v[l] = expr (for loops the compiler can vectorise) */
#define TT_LANEWISE(v, expr) \
    for (unsigned l = 0; l < TT_LANES; l++) { \
        (v)[l] = (expr); \
    }

/*
 * The lanes whose column has LaneConfig bit @bit (one of TT_LC_*, below
 * the row mask) set; tt_sfpu_lane_config_changed() derives them
 */
static inline uint32_t tt_sfp_lc_lanes(TTTensixSfpu *s, uint32_t bit)
{
    return s->lc_lanes[ctz32(bit)];
}

/*
 * IsLaneEnabled() of VectorUnit.md "Lane Predication Masks": column c's
 * ROW_MASK bit r disables lane 8 r + c
 */
static inline uint32_t tt_sfp_enabled(TTTensixSfpu *s)
{
    return (s->use_flags ? s->flags : TT_ALL) & ~s->lc_rows_off;
}

/* The enabled lanes among those the instruction acts in */
static inline uint32_t tt_sfp_en(TTTensix *t, const TTSfpInsn *i)
{
    return i->lanes & tt_sfp_enabled(&t->sfpu);
}

/* Each lane's bit in a lane mask, as a vector */
static const uint32_t tt_lane_bit[TT_LANES] = {
    BIT(0), BIT(1), BIT(2), BIT(3), BIT(4), BIT(5), BIT(6), BIT(7),
    BIT(8), BIT(9), BIT(10), BIT(11), BIT(12), BIT(13), BIT(14), BIT(15),
    BIT(16), BIT(17), BIT(18), BIT(19), BIT(20), BIT(21), BIT(22), BIT(23),
    BIT(24), BIT(25), BIT(26), BIT(27), BIT(28), BIT(29), BIT(30), BIT(31),
};

/* Four lanes, for the masked merge (any host has 128-bit vectors) */
typedef uint32_t TTSfpQuad __attribute__((vector_size(16)));

/* A 32-bit lane mask from 32 truth values (0 or 1) */
static inline uint32_t tt_sfp_bits(const uint32_t *c)
{
    uint32_t m = 0;

    for (unsigned l = 0; l < TT_LANES; l++) {
        m |= -(c[l] & 1) & tt_lane_bit[l];
    }
    return m;
}

/* @d = @v in the lanes of @m */
static inline void tt_sfp_merge(uint32_t *d, const uint32_t *v, uint32_t m)
{
    if (m == TT_ALL) {
        memcpy(d, v, TT_LANES * sizeof(*d));
        return;
    }
    for (unsigned l = 0; l < TT_LANES; l += 4) {
        TTSfpQuad a, b, bit, k;

        memcpy(&a, &v[l], sizeof(a));
        memcpy(&b, &d[l], sizeof(b));
        memcpy(&bit, &tt_lane_bit[l], sizeof(bit));
        k = (TTSfpQuad)((bit & m) != 0);
        b = (a & k) | (b & ~k);
        memcpy(&d[l], &b, sizeof(b));
    }
}

/*
 * An instruction SFPLOADMACRO scheduled writes its LRegs at the end of
 * its last cycle (s->wb_lat cycles on), so the others of its cycle, and
 * of the next one for a two-cycle instruction, read the old values.
 */
static inline void tt_sfp_defer(TTTensixSfpu *s, unsigned vd, const uint32_t *v,
                                uint32_t m)
{
    TTTensixSfpWb *b;

    if (s->nwb == TT_SFPU_WB) {
        qemu_log_mask(LOG_UNIMP, "tensix SFPU: more than %d LReg writes in "
                      "flight, one written at once\n", TT_SFPU_WB);
        tt_sfp_merge(s->lreg[vd], v, m);
        return;
    }
    b = &s->wb[s->nwb++];
    memcpy(b->v, v, sizeof(b->v));
    b->mask = m;
    b->reg = vd;
    b->left = s->wb_lat;
}

/* LReg[@vd] = @v in the lanes of @m, if LReg[@vd] is writable */
static inline void tt_sfp_put(TTTensixSfpu *s, unsigned vd, const uint32_t *v,
                              uint32_t m)
{
    if ((vd >= 8 && vd != TT_LREG_STAGE) || !m) {
        return;                 /* constants: the write is dropped */
    }
    if (unlikely(s->wb_lat)) {
        tt_sfp_defer(s, vd, v, m);
        return;
    }
    tt_sfp_merge(s->lreg[vd], v, m);
}

/*
 * The same, with INDIRECT_VD: each lane's register is LReg[7] & 15 in
 * that lane (SFPMAD.md), read before any write
 */
static inline void tt_sfp_put_vd(TTTensixSfpu *s, unsigned vd, bool indirect,
                                 const uint32_t *v, uint32_t m)
{
    uint32_t sel[8] = { 0 };

    if (!indirect || vd == TT_LREG_STAGE) {
        tt_sfp_put(s, vd, v, m);
        return;
    }
    for (unsigned l = 0; l < TT_LANES; l++) {
        unsigned r = s->lreg[7][l] & 15;

        if (r < 8) {
            sel[r] |= BIT(l);
        }
    }
    for (unsigned r = 0; r < 8; r++) {
        tt_sfp_put(s, r, v, m & sel[r]);
    }
}

/* Operand @va, or with INDIRECT_VA LReg[LReg[7] & 15] per lane */
static inline void tt_sfp_get_va(TTTensixSfpu *s, unsigned va, bool indirect,
                                 uint32_t *a)
{
    if (!indirect) {
        memcpy(a, s->lreg[va], sizeof(s->lreg[va]));
        return;
    }
    for (unsigned l = 0; l < TT_LANES; l++) {
        a[l] = s->lreg[s->lreg[7][l] & 15][l];
    }
}

/* LaneFlags = @f in the lanes of @m */
static inline void tt_sfp_set_flags(TTTensixSfpu *s, uint32_t f, uint32_t m)
{
    s->flags = (s->flags & ~m) | (f & m);
}

/*
 * Flag-stack and flag-enable instructions act on the whole unit here
 * (one enable, one stack depth): they run when every lane acts, do
 * nothing when none does (a back-door template load), and a mix, which
 * only per-column DISABLE_BACKDOOR_LOAD can make, is logged.
 */
static inline bool tt_sfp_whole(TTTensix *t, int thread, const TTSfpInsn *i)
{
    if (i->lanes == TT_ALL) {
        return true;
    }
    if (i->lanes) {
        tt_tensix_error(t, thread, i->w, "flag stack instruction in some "
                        "lanes only (DISABLE_BACKDOOR_LOAD differs between "
                        "columns): not modelled, ignored");
    }
    return false;
}

/*
 * Sign-magnitude total order as two's complement (SFPSWAP.md
 * SignMagIsSmaller: -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN)
 */
static inline int32_t tt_sm_key(uint32_t x)
{
    return x & TT_SIGN ? x ^ 0x7fffffff : x;
}

/* ------------------------------------------------------------- PRNG -- */

/*
 * One step of a lane's LFSR (VectorUnit.md "PRNG"): taps 31, 21, 1, 0;
 * on a uint32_t or a vector of them
 */
#define TT_PRNG_STEP(r) \
    (((((r) >> 31 ^ (r) >> 21 ^ (r) >> 1 ^ (r)) & 1) ^ 1) << 31 | (r) >> 1)

static inline uint32_t tt_prng_step(uint32_t r)
{
    return TT_PRNG_STEP(r);
}

/*
 * AdvancePRNG() in the lanes of @m: @out gets the state before.  The step
 * shifts by constants only, so it runs four lanes per 128-bit vector on
 * any host (every SFP_STOCH_RND steps it).
 */
static inline void tt_sfp_prng(TTTensixSfpu *s, uint32_t m, uint32_t *out)
{
    QEMU_UNINITIALIZED uint32_t next[TT_LANES];

    memcpy(out, s->prng, sizeof(s->prng));
    for (unsigned l = 0; l < TT_LANES; l += 4) {
        TTSfpQuad r;

        memcpy(&r, &s->prng[l], sizeof(r));
        r = TT_PRNG_STEP(r);
        memcpy(&next[l], &r, sizeof(r));
    }
    tt_sfp_merge(s->prng, next, m);
}

/* A copy of @src with the sign flipped if @neg */
static inline void tt_sfp_negate(uint32_t *v, const uint32_t *src, bool neg)
{
    for (unsigned l = 0; l < TT_LANES; l++) {
        v[l] = src[l] ^ (neg ? TT_SIGN : 0);
    }
}

/*
 * The flag update of SFPEXEXP, SFPIADD, SFPLZ (only with VD < 8): flags
 * = @cond in the lanes of @set, then inverted in the lanes of @invert
 */
static inline void tt_sfp_cc(TTTensixSfpu *s, unsigned vd, uint32_t en,
                             const uint32_t *cond, bool set, bool invert)
{
    uint32_t f = set ? tt_sfp_bits(cond) : s->flags;

    if (vd < 8 && (set || invert)) {
        tt_sfp_set_flags(s, invert ? ~f : f, en);
    }
}

/* A shift left by @amt >= 0, right by -@amt (mod 32) otherwise */
static inline uint32_t tt_shift(uint32_t x, int32_t amt, bool arith)
{
    uint32_t r = (0u - (uint32_t)amt) & 31;

    if (amt >= 0) {
        return x << (amt & 31);
    }
    return arith ? (uint32_t)((int32_t)x >> r) : x >> r;
}

/*
 * The lane arithmetic vectorised for the host (tensix-sfpu-vec.c) with
 * the instructions @vec (TT_VEC_*): d = x * y + z by fma_model_bh()
 * (Miscellaneous/FMA/); d = SFP_STOCH_RND's rounding of x by the
 * comparison values p (and shifts sh), Mod1 & 7 = mod
 */
void tt_sfp_fma(unsigned vec, uint32_t *d, const uint32_t *x,
                const uint32_t *y, const uint32_t *z);
void tt_sfp_rnd(unsigned vec, uint32_t *d, const uint32_t *x,
                const uint32_t *p, const uint32_t *sh, unsigned mod);

/* The Dst address SFPLOAD/SFPSTORE @i reach for lane 0 (tensix-sfpu-load.c) */
unsigned tt_sfp_load_at(TTTensix *t, int thread, const TTSfpInsn *i);
/* The defaults SFPCONFIG writes into LReg11-14 (tensix-sfpu-simple.c) */
extern const uint32_t tt_lreg_default[4];

#endif
