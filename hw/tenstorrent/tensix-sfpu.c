/*
 * Tenstorrent Blackhole Tensix Vector Unit (SFPU): the SFP* instructions
 * on 32 lanes of 32 bits, lane predication and the flag stack,
 * LaneConfig, LoadMacroConfig and SFPLOADMACRO's scheduling of the
 * simple, MAD, round and store sub-units, and the per-lane PRNG.
 *
 * Source: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/
 * VectorUnit.md, LReg.md and the page of each instruction (WormholeB0
 * pages where the Blackhole page defers to them), Miscellaneous/FMA/
 * (the FMA model).  Where Tenstorrent's simulator ttsim implements an
 * instruction or mode, the results agree with its, bit for bit, as
 * differential tests against a ttsim the user built check (no ttsim code
 * is used); where ttsim stops (stochastic rounding, SFPCAST's
 * stochastic mode, the wider SFPCONFIG and LaneConfig, indirect VA/VD,
 * the SFPLOAD/SFPSTORE formats and stack addressing it lacks, odd Dst
 * rows, ...) the documentation's functional model is implemented.  What
 * the documentation calls undefined, reserved or non-contractual is
 * logged with -d guest_errors and the instruction does nothing.
 *
 * Every instruction is plain data-parallel code over the 32 lanes (loops
 * the compiler vectorises; the FMA of SFPMAD and its family in
 * tensix-sfpu-vec.c.inc, built for the host's vector unit); LaneEnabled
 * and the lane flags are 32-bit masks.  Called with the tile's lock; the
 * unit is functional and synchronous, so it never holds a thread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/host-utils.h"
#include "tensix-common.h"
#include "trace.h"

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

/* The lanes whose column has LaneConfig bit(s) @bit set */
static uint32_t tt_sfp_lc_lanes(TTTensixSfpu *s, uint32_t bit)
{
    uint32_t m = 0;

    for (unsigned c = 0; c < TT_SFPU_COLS; c++) {
        m |= (s->lane_config[c] & bit ? 0x01010101u : 0) << c;
    }
    return m;
}

/*
 * IsLaneEnabled() of VectorUnit.md "Lane Predication Masks": column c's
 * ROW_MASK bit r disables lane 8 r + c
 */
static uint32_t tt_sfp_enabled(TTTensixSfpu *s)
{
    uint32_t rows = 0;

    for (unsigned c = 0; c < TT_SFPU_COLS; c++) {
        uint32_t m = s->lane_config[c] >> TT_LC_ROW_MASK_SHIFT & 15;

        rows |= ((m & 1) | (m & 2) << 7 | (m & 4) << 14 | (m & 8) << 21) << c;
    }
    return (s->use_flags ? s->flags : TT_ALL) & ~rows;
}

/* The enabled lanes among those the instruction acts in */
static uint32_t tt_sfp_en(TTTensix *t, const TTSfpInsn *i)
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
static uint32_t tt_sfp_bits(const uint32_t *c)
{
    uint32_t m = 0;

    for (unsigned l = 0; l < TT_LANES; l++) {
        m |= -(c[l] & 1) & tt_lane_bit[l];
    }
    return m;
}

/* @d = @v in the lanes of @m */
static void tt_sfp_merge(uint32_t *d, const uint32_t *v, uint32_t m)
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
static void tt_sfp_defer(TTTensixSfpu *s, unsigned vd, const uint32_t *v,
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
static void tt_sfp_put(TTTensixSfpu *s, unsigned vd, const uint32_t *v,
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
static void tt_sfp_put_vd(TTTensixSfpu *s, unsigned vd, bool indirect,
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
static void tt_sfp_get_va(TTTensixSfpu *s, unsigned va, bool indirect,
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
static void tt_sfp_set_flags(TTTensixSfpu *s, uint32_t f, uint32_t m)
{
    s->flags = (s->flags & ~m) | (f & m);
}

/*
 * Flag-stack and flag-enable instructions act on the whole unit here
 * (one enable, one stack depth): they run when every lane acts, do
 * nothing when none does (a back-door template load), and a mix, which
 * only per-column DISABLE_BACKDOOR_LOAD can make, is logged.
 */
static bool tt_sfp_whole(TTTensix *t, int thread, const TTSfpInsn *i)
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

/* One step of a lane's LFSR (VectorUnit.md "PRNG"): taps 31, 21, 1, 0 */
static inline uint32_t tt_prng_step(uint32_t r)
{
    uint32_t taps = (r >> 31 ^ r >> 21 ^ r >> 1 ^ r) & 1;

    return (taps ^ 1) << 31 | r >> 1;
}

/* AdvancePRNG() in the lanes of @m: @out gets the state before */
static void tt_sfp_prng(TTTensixSfpu *s, uint32_t m, uint32_t *out)
{
    for (unsigned l = 0; l < TT_LANES; l++) {
        uint32_t r = s->prng[l];

        out[l] = r;
        s->prng[l] = m >> l & 1 ? tt_prng_step(r) : r;
    }
}

/*
 * Writing PRNG_SEED_Seed_Val reseeds every lane.  The documentation does
 * not describe seeding; this is ttsim's (src/tensix.cpp seed_prng()): 32
 * steps of the seed, then lane 31 - i gets the state after 2 (i + 1) more.
 */
void tt_sfpu_seed(TTTensix *t, uint32_t seed)
{
    for (unsigned i = 0; i < 32; i++) {
        seed = tt_prng_step(seed);
    }
    for (unsigned i = 0; i < TT_LANES; i++) {
        seed = tt_prng_step(tt_prng_step(seed));
        t->sfpu.prng[TT_LANES - 1 - i] = seed;
    }
}

/* -------------------------------------------------------------- FMA -- */

/* Four lanes a vector (128 bits): any host; built again below for AVX2 */
#define TT_VL 4
#define TT_V(name) glue(name, 4)
#define TT_VTARGET
#include "tensix-sfpu-vec.c.inc"

static void tt_sfp_fma_generic(uint32_t *d, const uint32_t *x,
                               const uint32_t *y, const uint32_t *z)
{
    tt_sfp_fma_body4(d, x, y, z);
}

#if defined(CONFIG_AVX2_OPT) || defined(CONFIG_AVX512BW_OPT)
#include "host/cpuinfo.h"
#endif

/* Eight lanes with AVX2 (which has per-lane shifts) */
#ifdef CONFIG_AVX2_OPT
#define TT_VL 8
#define TT_V(name) glue(name, 8)
#define TT_VTARGET __attribute__((target("avx2")))
#include "tensix-sfpu-vec.c.inc"

static void __attribute__((target("avx2")))
tt_sfp_fma_avx2(uint32_t *d, const uint32_t *x, const uint32_t *y,
                const uint32_t *z)
{
    tt_sfp_fma_body8(d, x, y, z);
}
#endif

#ifdef CONFIG_AVX512BW_OPT
#define TT_VL 16
#define TT_V(name) glue(name, 16)
#define TT_VTARGET __attribute__((target("avx512f,avx512bw")))
#include "tensix-sfpu-vec.c.inc"

static void __attribute__((target("avx512f,avx512bw")))
tt_sfp_fma_avx512(uint32_t *d, const uint32_t *x, const uint32_t *y,
                  const uint32_t *z)
{
    tt_sfp_fma_body16(d, x, y, z);
}

#define TT_CPU_AVX512   (CPUINFO_AVX512F | CPUINFO_AVX512BW)
#endif

/* d = x * y + z on all 32 lanes, fma_model_bh() (Miscellaneous/FMA/) */
static void tt_sfp_fma(uint32_t *d, const uint32_t *x, const uint32_t *y,
                       const uint32_t *z)
{
#ifdef CONFIG_AVX512BW_OPT
    if ((cpuinfo & TT_CPU_AVX512) == TT_CPU_AVX512) {
        tt_sfp_fma_avx512(d, x, y, z);
        return;
    }
#endif
#ifdef CONFIG_AVX2_OPT
    if (cpuinfo & CPUINFO_AVX2) {
        tt_sfp_fma_avx2(d, x, y, z);
        return;
    }
#endif
    tt_sfp_fma_generic(d, x, y, z);
}

/* A vector of one value */
static void tt_sfp_splat(uint32_t *v, uint32_t x)
{
    for (unsigned l = 0; l < TT_LANES; l++) {
        v[l] = x;
    }
}

/* A copy of @src with the sign flipped if @neg */
static void tt_sfp_negate(uint32_t *v, const uint32_t *src, bool neg)
{
    for (unsigned l = 0; l < TT_LANES; l++) {
        v[l] = src[l] ^ (neg ? TT_SIGN : 0);
    }
}

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

/* Every lane l: v[l] = expr (for loops the compiler can vectorise) */
#define TT_LANEWISE(v, expr) \
    for (unsigned l = 0; l < TT_LANES; l++) { \
        (v)[l] = (expr); \
    }

/* SFPLOAD's datum conversion of Dst values @x into @v */
static void tt_sfp_from_dst(TTTensixSfpu *s, unsigned fmt,
                            const uint32_t *x, const uint32_t *old,
                            uint32_t *v)
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
static unsigned tt_sfp_load_at(TTTensix *t, int thread, const TTSfpInsn *i)
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
        for (unsigned l = 0; l < TT_LANES; l++) {
            unsigned row = tt_sfp_row(addr, l), col = tt_sfp_col(odd, l);

            raw[l] = d32 ? tt_dst_dec_fp32(tt_dst_rd32(t, row, col, 0))
                         : tt_dst_rd16(t, row, col, 0);
        }
        tt_sfp_from_dst(s, fmt, raw, s->lreg[i->vd], v);
        tt_sfp_put(s, i->vd, v, en);
        if (i->vd < 4) {
            /* CAPTURE_DEFAULT_DEST_INDEX: (Row << 4) | Column too */
            for (unsigned l = 0; l < TT_LANES; l++) {
                v[l] = tt_sfp_row(addr, l) << 4 | tt_sfp_col(odd, l);
            }
            tt_sfp_put(s, i->vd + 4, v, en &
                       tt_sfp_lc_lanes(s, TT_LC_DEST_INDEX) &
                       tt_sfp_lc_lanes(s, TT_LC_CAPTURE_INDEX));
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
    tt_sfp_fma(d, a, s->lreg[i->vb], c);
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
        tt_sfp_fma(d, imm, k, c);
    } else {
        tt_sfp_fma(d, imm, c, k);
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
    tt_sfp_fma(d, a, b, c);
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
    tt_sfp_fma(d, a, b, c);
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

/*
 * The flag update of SFPEXEXP, SFPIADD, SFPLZ (only with VD < 8): flags
 * = @cond in the lanes of @set, then inverted in the lanes of @invert
 */
static void tt_sfp_cc(TTTensixSfpu *s, unsigned vd, uint32_t en,
                      const uint32_t *cond, bool set, bool invert)
{
    uint32_t f = set ? tt_sfp_bits(cond) : s->flags;

    if (vd < 8 && (set || invert)) {
        tt_sfp_set_flags(s, invert ? ~f : f, en);
    }
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
static uint32_t tt_rnd_intint(uint32_t x, uint32_t p, unsigned shift,
                              bool int8)
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
 * tt-llk's 14 is FP32_TO_UINT16.
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

    tt_sfp_prng(s, en, rnd);
    TT_LANEWISE(p, rmode == 0 ? 0x400000 : rmode == 2 ? 0x7fffff
                                         : rnd[l] & 0x7fffff);
    switch (mod & 7) {
    case 0:
    case 1:
        TT_LANEWISE(v, tt_rnd_float(x[l], p[l], (mod & 7) == 0));
        break;
    case 4:
    case 5:
        TT_LANEWISE(v, tt_rnd_intint(x[l], p[l], mod & 8 ? imm5 : b[l] & 31,
                                     mod & 1));
        break;
    default:
        TT_LANEWISE(v, tt_rnd_int(x[l], p[l], mod & 7));
        break;
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

/* The defaults SFPCONFIG writes into LReg11-14 with IMM16_IS_VALUE */
static const uint32_t tt_lreg_default[4] = {
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
}

/* SFPNOP: nothing (bits 7:4 >= 12 still make a back-door load, as ttsim) */
void tensix_sfpnop(TTTensix *t, int thread, const TTSfpInsn *i)
{
}

/* ---------------------------------------------------- decode, issue -- */

/*
 * The register fields share their places: VA 19:16, VB 15:12, VC 11:8,
 * VD 7:4 (23:20 for SFPLOAD, SFPLOADI, SFPSTORE, SFPLUT), Mod1 3:0; each
 * opcode's layout is its "sfpu: operands" in tensix-isa.yaml
 */
bool tt_sfpu_decode(uint32_t w, TTSfpInsn *i)
{
    const TTSfpuOpInfo *op = tt_sfpu_op(w >> 24);

    if (!op) {
        return false;
    }
    i->w = w;
    i->va = extract32(w, 16, 4);
    i->vb = extract32(w, 12, 4);
    i->vc = extract32(w, 8, 4);
    i->vd = extract32(w, op->operands & TT_SFP_VD_HI ? 20 : 4, 4);
    if ((op->operands & TT_SFP_VB_VD) ||
        ((op->operands & TT_SFP_VB_USE) && !(w & 1))) {
        i->vb = i->vd;
    }
    if (op->operands & TT_SFP_VC_VD) {
        i->vc = i->vd;
    }
    i->lanes = TT_ALL;
    i->macro = false;
    i->addr = 0;
    return true;
}

void tt_sfpu_exec(TTTensix *t, int thread, const TTSfpInsn *i)
{
    tt_sfpu_op(i->w >> 24)->run(t, thread, i);
}

/* ----------------------------------------------------- SFPLOADMACRO -- */

/*
 * SFPLOADMACRO.md: the SFPLOAD, then up to one instruction for each of
 * the simple, MAD, round and store sub-units, from Sequence[MacroIndex]
 * (a byte per sub-unit: bits 2:0 what, 5:3 the delay, 6 VD = 16, 7 the
 * loaded LReg as VB rather than VC) and InstructionTemplate[].
 *
 * The model counts time in Vector Unit cycles, one per SFP instruction
 * issued, as if back to back.  A cycle runs the scheduled instructions
 * due (store, round, MAD, then simple) before the instruction issued in
 * it, all reading the state the cycle starts with: a scheduled
 * instruction's LReg writes land at the end of its last cycle (two for
 * the MAD sub-unit, SFPSWAP and SFPSHFT2's lane moves, one for the
 * rest, VectorUnit.md's latencies), and the issued instruction uses the
 * lane flags from before a scheduled simple one in its cycle changed
 * them.  An issued instruction meeting a scheduled one on its sub-unit
 * is discarded.  Instructions that count elapsed cycles also move on a
 * cycle per other instruction of the issuing thread and all at once when
 * that thread has nothing to run (the cycles pass on silicon too, and
 * tt-llk's kernels give them no meaning beyond that); while any counts
 * instructions, nothing moves but with SFP instructions (tt-llk's
 * "UnitDelayKind prevents pipeline advancement when not seeing new
 * instructions", ckernel_sfpu_exp.h).
 */
#define TT_SFP_NOP_WORD     ((uint32_t)TT_OP_SFPNOP << 24)
#define TT_SFP_STORE_WORD   ((uint32_t)TT_OP_SFPSTORE << 24)

/* Whether sub-unit @u can run word @w (SFPNOP: all but the store one) */
static bool tt_sfp_unit_runs(unsigned u, uint32_t w)
{
    if (!tt_sfpu_op(w >> 24)) {
        return false;
    }
    return tt_sfpu_op(w >> 24)->subunit == u ||
           (w >> 24 == TT_OP_SFPNOP && u != TT_SFP_U_STORE);
}

/* Cycles until a scheduled instruction's LReg writes land */
static unsigned tt_sfp_latency(const TTTensixSfpSched *op)
{
    unsigned mod = extract32(op->w, 0, 4);

    if (op->unit == TT_SFP_U_MAD || op->w >> 24 == TT_OP_SFPSWAP ||
        (op->w >> 24 == TT_OP_SFPSHFT2 && mod >= 2 && mod <= 4)) {
        return 2;
    }
    return 1;
}

/* Some scheduled instruction counts instructions, not cycles */
static bool tt_sfp_counts_insns(TTTensixSfpu *s)
{
    for (unsigned j = 0; j < s->nsched; j++) {
        if (s->sched[j].by_insn) {
            return true;
        }
    }
    return false;
}

static void tt_sfp_run_sched(TTTensix *t, const TTTensixSfpSched *op)
{
    TTTensixSfpu *s = &t->sfpu;
    TTSfpInsn i = {
        .w = op->w, .va = op->va, .vb = op->vb, .vc = op->vc, .vd = op->vd,
        .lanes = TT_ALL, .macro = true, .addr = op->addr,
    };

    trace_tt_tensix_sfpu_sched(t->tile_x, t->tile_y, op->thread, op->unit,
                               tt_op_name(op->w), op->vd);
    s->wb_lat = tt_sfp_latency(op);
    tt_sfpu_op(op->w >> 24)->run(t, op->thread, &i);
    s->wb_lat = 0;
}

/*
 * The start of a cycle: the scheduled instructions due run, the others
 * count down.  Returns the sub-units that had one.
 */
static unsigned tt_sfp_run_due(TTTensix *t)
{
    TTTensixSfpu *s = &t->sfpu;
    TTTensixSfpSched due[TT_SFPU_SCHED];
    unsigned n = 0, k = 0, busy = 0, sr = 0, sr16 = 0;

    for (unsigned j = 0; j < s->nsched; j++) {
        if (s->sched[j].count == 0) {
            due[n++] = s->sched[j];
        } else {
            s->sched[j].count--;
            s->sched[k++] = s->sched[j];
        }
    }
    s->nsched = k;
    for (int u = TT_SFP_U_STORE; u >= TT_SFP_U_SIMPLE; u--) {
        for (unsigned j = 0; j < n; j++) {
            if (due[j].unit != u) {
                continue;
            }
            if ((u == TT_SFP_U_SIMPLE || u == TT_SFP_U_ROUND) &&
                due[j].w >> 24 != TT_OP_SFPNOP) {
                sr++;
                sr16 += due[j].vd == TT_LREG_STAGE;
            }
            busy |= BIT(u);
            tt_sfp_run_sched(t, &due[j]);
        }
    }
    /* SFPLOADMACRO.md: simple and round together, exactly one to LReg16 */
    if (sr > 1 && (sr != 2 || sr16 != 1)) {
        tt_tensix_error(t, s->thread, due[0].w, "SFPLOADMACRO: simple and "
                        "round instructions in one cycle need exactly one "
                        "VD of 16 (undefined)");
    }
    return busy;
}

/* The end of a cycle: LReg writes whose time has come land */
static void tt_sfp_wb_tick(TTTensixSfpu *s)
{
    unsigned k = 0;

    for (unsigned j = 0; j < s->nwb; j++) {
        TTTensixSfpWb *b = &s->wb[j];

        if (--b->left == 0) {
            tt_sfp_merge(s->lreg[b->reg], b->v, b->mask);
        } else {
            if (k != j) {
                s->wb[k] = *b;
            }
            k++;
        }
    }
    s->nwb = k;
}

void tt_sfpu_cycle(TTTensix *t, int thread)
{
    TTTensixSfpu *s = &t->sfpu;

    if (thread == s->thread && !tt_sfp_counts_insns(s)) {
        tt_sfp_run_due(t);
        tt_sfp_wb_tick(s);
    }
}

void tt_sfpu_settle(TTTensix *t)
{
    TTTensixSfpu *s = &t->sfpu;

    while (tt_sfpu_busy(t) && !tt_sfp_counts_insns(s)) {
        tt_sfp_run_due(t);
        tt_sfp_wb_tick(s);
    }
}

void tt_sfpu_idle(TTTensix *t, int thread)
{
    if (thread == t->sfpu.thread) {
        tt_sfpu_settle(t);
    }
}

/*
 * The VB/VC/VD overrides of a simple, MAD or round template
 * (SFPLOADMACRO.md): the loaded LReg @vd becomes VB (bit 7) or VC, the
 * template's VD filling whichever field the instruction lacks; VD is
 * @vd or, with bit 6, LReg16.
 */
static void tt_sfp_override(TTTensixSfpSched *op, unsigned bits,
                            unsigned vd)
{
    unsigned f = tt_sfpu_op(op->w >> 24)->operands;
    unsigned tvd = extract32(op->w, f & TT_SFP_VD_HI ? 20 : 4, 4);

    op->va = extract32(op->w, 16, 4);
    op->vb = extract32(op->w, 12, 4);
    op->vc = extract32(op->w, 8, 4);
    if (bits & 0x80) {
        op->vb = vd;
        if (f & TT_SFP_NO_VC) {
            op->vc = tvd;
        }
    } else {
        op->vc = vd;
        if (!(f & TT_SFP_HAS_VB)) {
            op->vb = tvd;
        }
    }
    op->vd = bits & 0x40 ? TT_LREG_STAGE : vd;
}

/*
 * LoadMacroConfig is per lane but SFPCONFIG writes it by column; the
 * model runs column 0's and says so if the others differ
 */
static void tt_sfp_lm_columns(TTTensix *t, int thread, uint32_t w,
                              unsigned macro)
{
    TTTensixSfpu *s = &t->sfpu;

    for (unsigned c = 1; c < TT_SFPU_COLS; c++) {
        if (s->lm_sequence[c][macro] != s->lm_sequence[0][macro] ||
            s->lm_misc[c] != s->lm_misc[0] ||
            memcmp(s->lm_template[c], s->lm_template[0],
                   sizeof(s->lm_template[0]))) {
            qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: %s (0x%08x): "
                          "LoadMacroConfig differs between lane columns; "
                          "column 0's runs in all\n", t->tile_x, t->tile_y,
                          thread, tt_op_name(w), w);
            return;
        }
    }
}

static void tt_sfp_schedule(TTTensix *t, int thread, uint32_t w,
                            const TTTensixSfpSched *op)
{
    TTTensixSfpu *s = &t->sfpu;

    if (s->nsched == TT_SFPU_SCHED) {
        tt_tensix_error(t, thread, w, "SFPLOADMACRO: more than %d "
                        "instructions scheduled, one dropped",
                        TT_SFPU_SCHED);
        return;
    }
    s->sched[s->nsched++] = *op;
}

/*
 * SFPLOADMACRO: SFPLOAD of LReg VDHi << 2 | VDLo at Imm9 << 1 | VDHi,
 * then the sequence's instructions scheduled, each replacing one already
 * due on its sub-unit at the same time (unless its delay is 7).  A byte
 * scheduling nothing replaces nothing: the page's pseudocode forgets
 * before it looks at the byte, but tt-llk's BF16 reciprocal (ckernel_
 * sfpu_recip.h _calculate_reciprocal_fast_8b_3c_) issues a macro with an
 * empty simple byte in the cycle before its SFPIADD, scheduled five
 * instructions earlier, runs (the comment's table), so silicon keeps it.  A
 * scheduled SFPSTORE uses this load's Dst address, Misc's StoreMod0 or
 * (UsesLoadMod0ForStore) this Mod0, and no AddrMod.
 */
void tensix_sfploadmacro(TTTensix *t, int thread, const TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;
    unsigned ind = tt_sfploadmacro_lreg_ind(i->w), macro = ind >> 2;
    unsigned imm10 = tt_sfploadmacro_dest_reg_addr(i->w);
    unsigned mod0 = tt_sfploadmacro_instr_mod0(i->w);
    unsigned vd = (imm10 & 1) << 2 | (ind & 3);
    TTSfpInsn ld = {
        .w = (uint32_t)TT_OP_SFPLOAD << 24 | vd << 20 | mod0 << 16 |
             tt_sfploadmacro_sfpu_addr_mode(i->w) << 13 | imm10,
        .vd = vd, .lanes = TT_ALL,
    };
    uint32_t seq = s->lm_sequence[0][macro], misc = s->lm_misc[0];
    unsigned addr;

    tt_sfp_lm_columns(t, thread, i->w, macro);
    addr = tt_sfp_load_at(t, thread, &ld);
    for (unsigned u = TT_SFP_U_SIMPLE; u <= TT_SFP_U_STORE; u++) {
        unsigned bits = seq >> (8 * u) & 0xff, sel = bits & 7;
        TTTensixSfpSched op = {
            .unit = u, .count = bits >> 3 & 7, .addr = addr,
            .by_insn = misc >> (8 + u) & 1, .thread = thread,
        };

        if (sel == 0) {
            continue;
        }
        if (op.count != 7) {
            unsigned k = 0;

            for (unsigned j = 0; j < s->nsched; j++) {
                if (s->sched[j].unit != u || s->sched[j].count != op.count) {
                    s->sched[k++] = s->sched[j];
                }
            }
            s->nsched = k;
        }
        if (sel == 1) {
            tt_tensix_error(t, thread, i->w, "sequence %u sub-unit %u "
                            "selects 1 (undefined): nothing scheduled",
                            macro, u);
            continue;
        }
        op.w = sel == 2 ? TT_SFP_NOP_WORD : sel == 3 ? TT_SFP_STORE_WORD
                        : s->lm_template[0][sel - 4];
        if (!tt_sfp_unit_runs(u, op.w)) {
            if (u == TT_SFP_U_STORE) {
                tt_tensix_error(t, thread, i->w, "store sub-unit given "
                                "0x%08x (undefined): nothing scheduled",
                                op.w);
                continue;
            }
            op.w = TT_SFP_NOP_WORD;
        }
        if (u == TT_SFP_U_STORE) {
            op.vd = bits & 0x40 ? TT_LREG_STAGE
                  : bits & 0x80 ? extract32(op.w, 20, 4) : vd;
            op.w = deposit32(op.w, 16, 4,
                             misc >> (4 + macro) & 1 ? mod0 : misc & 15);
            op.w = deposit32(op.w, 0, 10, imm10);
        } else {
            tt_sfp_override(&op, bits, vd);
        }
        tt_sfp_schedule(t, thread, i->w, &op);
    }
}

/*
 * Execute an issued SFP instruction.  With VD >= 12, columns whose
 * LaneConfig DISABLE_BACKDOOR_LOAD is clear store the word into their
 * InstructionTemplate[VD - 12] instead of executing it (SFPCONFIG.md
 * "LaneConfig"; ttsim's decoder does the same, for all lanes at once).
 */
static void tt_sfp_exec_issued(TTTensix *t, int thread, TTSfpInsn *i)
{
    TTTensixSfpu *s = &t->sfpu;

    if (i->vd >= 12 &&
        !(tt_sfpu_op(i->w >> 24)->operands & TT_SFP_NO_DOOR)) {
        uint32_t door = ~tt_sfp_lc_lanes(s, TT_LC_NO_BACKDOOR);

        for (unsigned c = 0; c < TT_SFPU_COLS; c++) {
            if (door >> c & 1) {
                s->lm_template[c][i->vd - 12] = i->w;
            }
        }
        i->lanes = ~door;
    }
    tt_sfpu_exec(t, thread, i);
}

/* Issue an SFP instruction: one Vector Unit cycle */
bool tt_sfpu_issue(TTTensix *t, int thread, uint32_t w)
{
    TTTensixSfpu *s = &t->sfpu;
    uint32_t flags, new_flags;
    bool use, new_use;
    unsigned busy;
    TTSfpInsn i;

    tt_sfpu_decode(w, &i);
    s->thread = thread;
    if (likely(!tt_sfpu_busy(t))) {
        tt_sfp_exec_issued(t, thread, &i);
        return true;
    }
    flags = s->flags;
    use = s->use_flags;
    busy = tt_sfp_run_due(t);
    new_flags = s->flags;
    new_use = s->use_flags;
    if (busy & BIT(tt_sfpu_op(w >> 24)->subunit)) {
        tt_tensix_error(t, thread, w, "meets an instruction SFPLOADMACRO "
                        "scheduled on its sub-unit: discarded");
    } else {
        s->flags = flags;
        s->use_flags = use;
        tt_sfp_exec_issued(t, thread, &i);
        if (new_flags != flags || new_use != use) {
            s->flags = new_flags;
            s->use_flags = new_use;
        }
    }
    tt_sfp_wb_tick(s);
    return true;
}

/* ---------------------------------------------------- reset, monitor -- */

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

/*
 * Power-on state as ttsim's tensix_init(): the constant LRegs (LReg.md,
 * LReg11-14 SFPCONFIG's defaults), flags in use and all set (the state
 * firmware's boot SFPENCC gives), empty stack, LaneConfig and PRNG 0
 */
void tt_sfpu_reset(TTTensix *t)
{
    TTTensixSfpu *s = &t->sfpu;

    memset(s, 0, sizeof(*s));
    for (unsigned l = 0; l < TT_LANES; l++) {
        s->lreg[8][l] = 0x3f56594b;     /* 0.8373 */
        s->lreg[10][l] = TT_FP_ONE;
        for (unsigned r = 11; r <= 14; r++) {
            s->lreg[r][l] = tt_lreg_default[r - 11];
        }
        s->lreg[15][l] = 2 * l;
    }
    s->flags = TT_ALL;
    s->use_flags = true;
}

void tt_sfpu_dump(TTTensix *t, GString *out)
{
    TTTensixSfpu *s = &t->sfpu;

    g_string_append_printf(out, "  SFPU: lane flags 0x%08x (%s), flag stack "
                           "depth %u, LaneConfig", s->flags,
                           s->use_flags ? "in use" : "not in use", s->sp);
    for (unsigned c = 0; c < TT_SFPU_COLS; c++) {
        g_string_append_printf(out, " 0x%x", s->lane_config[c]);
    }
    g_string_append_printf(out, "\n  SFPU SFPLOADMACRO: %u scheduled, %u "
                           "LReg writes in flight", s->nsched, s->nwb);
    g_string_append(out, "\n  SFPU LReg0-7 lane 0:");
    for (unsigned r = 0; r < 8; r++) {
        g_string_append_printf(out, " 0x%08x", s->lreg[r][0]);
    }
    g_string_append_c(out, '\n');
}
