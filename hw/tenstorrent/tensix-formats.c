/*
 * Tenstorrent Blackhole Tensix number formats: the conversions the
 * unpackers apply on the way from L1 into SrcA/SrcB/Dst, the packers' on
 * the way from Dst to L1 (including shared-exponent BFP blocks, ReLU and
 * L1 accumulation).  Pure functions of their arguments.
 *
 * Source: tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/
 * UNPACR_Regular.md (FormatConversion, BFP8ToBF16, BFP8aToFP16),
 * Packers/FormatConversion.md, Packers/ReLU.md, FloatBitPatterns.md,
 * L1.md; where the Blackhole behaviour is narrower or differs (FP8 as
 * E4M3, rounding of the packer's intermediates, the FP16 L1-accumulate
 * saturation), Tenstorrent's ttsim (src/tensix.cpp) is the reference.
 * Nothing here rounds unless the documentation says so: the hardware
 * truncates in most places.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "fpu/softfloat.h"
#include "tensix-formats.h"

static inline QEMU_ALWAYS_INLINE unsigned tt_bits(unsigned fmt)
{
    switch (fmt) {
    case TT_FMT_FP32: case TT_FMT_TF32: case TT_FMT_INT32:
        return 32;
    case TT_FMT_FP16: case TT_FMT_BF16: case TT_FMT_INT16:
        return 16;
    case TT_FMT_BFP8: case TT_FMT_BFP8A: case TT_FMT_FP8: case TT_FMT_INT8:
        return 8;
    case TT_FMT_BFP4: case TT_FMT_BFP4A:
        return 4;
    case TT_FMT_BFP2: case TT_FMT_BFP2A:
        return 2;
    default:
        return 0;
    }
}

unsigned tt_fmt_bits(unsigned fmt)
{
    return tt_bits(fmt);
}

bool tt_fmt_is_bfp(unsigned fmt)
{
    return fmt == TT_FMT_BFP8 || fmt == TT_FMT_BFP8A || fmt == TT_FMT_BFP4 ||
           fmt == TT_FMT_BFP4A || fmt == TT_FMT_BFP2 || fmt == TT_FMT_BFP2A;
}

/* ---------------------------------------------------------- unpacking -- */

/* BFP8ToBF16 (UNPACR_Regular.md): normalise the shared-exponent datum */
static uint16_t tt_bfp8_to_bf16(uint8_t d, uint8_t e)
{
    uint8_t sign = d >> 7, mag = d << 1;
    unsigned lz;

    if (!mag) {
        return sign ? 0xff80 : 0;   /* "-0" is the -inf pattern */
    }
    lz = clz32(mag) - 24;
    mag <<= lz;
    e -= lz;                        /* wraps, as the hardware does */
    return sign << 15 | e << 7 | (mag & 0x7e);
}

/* BFP8aToFP16: false when the exponent does not fit FP16's five bits */
static bool tt_bfp8a_to_fp16(uint8_t d, uint8_t e, uint16_t *h)
{
    uint8_t sign = d >> 7, mag = d << 1;
    unsigned lz;

    if (!mag) {
        *h = sign ? 0xfc00 : 0;
        return true;
    }
    lz = clz32(mag) - 24;
    mag <<= lz;
    e -= lz;
    *h = sign << 15 | (e & 0x1f) << 10 | (mag & 0x7e) << 3;
    return !(e & 0xe0);
}

/*
 * FP32 to the coprocessor's FP16, whose exponent 31 is an ordinary one:
 * out-of-range magnitudes saturate, small ones flush, the mantissa is
 * truncated (FloatBitPatterns.md; ttsim src/tensix.cpp).
 */
static uint16_t tt_fp32_to_fp16(uint32_t x)
{
    int e = (int)(x >> 23 & 0xff) - 112;
    uint16_t sign = x >> 16 & 0x8000;

    if (e < 0) {
        return sign;
    }
    if (e > 31) {
        return sign | 0x7fff;
    }
    return sign | e << 10 | (x >> 13 & 0x3ff);
}

/* A Src cell holding 16-bit FP16-shaped bits (WriteSrcFP16) */
static uint32_t tt_src_fp16(uint16_t h)
{
    return (uint32_t)(h & 0x8000) << 16 | (uint32_t)(h & 0x7fff) << 13;
}

/*
 * FP8 to FP16 bits.  E5M2 is FP16's top byte; Blackhole keeps the
 * all-ones mantissa of 0x7f/0xff all ones.  E4M3 (Unp_LF8_4b_exp) is
 * rebiased by 8 and keeps 0x7f/0xff as the largest value (ttsim).
 */
static uint16_t tt_fp8_to_fp16(uint8_t raw, bool e4m3)
{
    unsigned s = raw >> 7, e = raw >> 3 & 0xf, m = raw & 7;

    if (!e4m3) {
        return (raw & 0x7f) == 0x7f ? raw << 8 | 0xff : raw << 8;
    }
    return s << 15 | (e ? e + 8 : 0) << 10 | m << 7 |
           (e == 15 && m == 7 ? 0x7f : 0);
}

/* INT8 (sign-magnitude, or unsigned) as "integer 8" on the FP16 overlay */
static uint16_t tt_int8_to_fp16(uint8_t raw, bool is_unsigned)
{
    unsigned sign = is_unsigned ? 0 : raw & 0x80, mag = raw - sign;

    return sign << 8 | (mag ? mag | 16 << 10 : 0);
}

/* Normalise a datum to BF16/FP16/FP32/INT bits (first half of the doc's) */
static inline QEMU_ALWAYS_INLINE bool
tt_unpack_widen(unsigned *in, uint32_t *raw, uint8_t exp, bool int8_unsigned,
                bool fp8_e4m3)
{
    uint16_t h;

    switch (*in) {
    case TT_FMT_FP8:
        *raw = tt_fp8_to_fp16(*raw, fp8_e4m3);
        *in = TT_FMT_FP16;
        return true;
    case TT_FMT_BFP8: case TT_FMT_BFP4: case TT_FMT_BFP2:
        *raw = tt_bfp8_to_bf16(*raw << (8 - tt_fmt_bits(*in)), exp);
        *in = TT_FMT_BF16;
        return true;
    case TT_FMT_BFP8A: case TT_FMT_BFP4A: case TT_FMT_BFP2A:
        if (!tt_bfp8a_to_fp16(*raw << (8 - tt_fmt_bits(*in)), exp, &h)) {
            return false;
        }
        *raw = h;
        *in = TT_FMT_FP16;
        return true;
    case TT_FMT_INT8:
        *raw = tt_int8_to_fp16(*raw, int8_unsigned);
        *in = TT_FMT_FP16;
        return true;
    default:
        return true;
    }
}

static inline QEMU_ALWAYS_INLINE bool
tt_unpack_one(unsigned in, unsigned out, uint32_t raw, uint8_t exp,
              bool to_dst, bool int8_unsigned, bool fp8_e4m3, uint32_t *val)
{
    if (in == TT_FMT_FP32) {
        switch (out) {
        case TT_FMT_FP32:
            break;
        case TT_FMT_TF32:
            *val = to_dst ? tt_dst_enc_fp32(raw) : raw & 0xffffe000;
            return true;
        case TT_FMT_BF16:
            if (!(raw & 0x7f800000)) {
                raw &= 0x80000000;  /* denormals flush to signed zero */
            }
            raw >>= 16;
            in = TT_FMT_BF16;
            break;
        case TT_FMT_FP16:
            raw = tt_fp32_to_fp16(raw);
            in = TT_FMT_FP16;
            break;
        default:
            return false;
        }
    } else if (in != out ||
               !tt_unpack_widen(&in, &raw, exp, int8_unsigned, fp8_e4m3)) {
        return false;               /* one conversion per input format */
    }
    switch (in) {
    case TT_FMT_INT16:              /* opaque 16 bits */
        *val = to_dst ? raw : (raw & 0x8000) << 16 | (raw & 0xff) << 23 |
                              (raw & 0x7f00) << 8;
        return true;
    case TT_FMT_TF32:               /* TF32 means FP32 in Dst */
    case TT_FMT_INT32:
    case TT_FMT_FP32:
        *val = tt_dst_enc_fp32(raw);
        return to_dst;
    case TT_FMT_BF16:
        *val = to_dst ? tt_dst_enc_bf16(raw) : raw << 16;
        return true;
    case TT_FMT_FP16:
        *val = to_dst ? tt_dst_enc_fp16(raw) : tt_src_fp16(raw);
        return true;
    default:
        return false;
    }
}

bool tt_fmt_unpack(unsigned in, unsigned out, uint32_t raw, uint8_t exp,
                   bool to_dst, bool int8_unsigned, bool fp8_e4m3,
                   uint32_t *val)
{
    return tt_unpack_one(in, out, raw, exp, to_dst, int8_unsigned, fp8_e4m3,
                         val);
}

/*
 * Row converters: tt_unpack_one on a run of datums, compiled once per
 * common conversion so the format decisions fold away.  Only pairs whose
 * acceptance does not depend on the datum are listed (not BFPnA, whose
 * exponent may not fit FP16, nor the flag-dependent FP8 and INT8).
 */
static inline QEMU_ALWAYS_INLINE void
tt_unpack_row(const uint8_t *restrict l1, uint32_t *restrict val, unsigned n,
              uint8_t exp, unsigned in, unsigned out, bool to_dst)
{
    unsigned bytes = tt_bits(in) / 8;

    for (unsigned i = 0; i < n; i++) {
        uint32_t raw = bytes == 4 ? ldl_le_p(l1 + 4 * i)
                     : bytes == 2 ? lduw_le_p(l1 + 2 * i) : l1[i];

        tt_unpack_one(in, out, raw, exp, to_dst, false, false, &val[i]);
    }
}

/*
 * A whole row, the common case, as a fixed count, which the compiler
 * turns into vector code (the pointers are restrict for that)
 */
static inline QEMU_ALWAYS_INLINE void
tt_unpack_row_n(const uint8_t *restrict l1, uint32_t *restrict val,
                unsigned n, uint8_t exp, unsigned in, unsigned out,
                bool to_dst)
{
    if (n == TT_ROW_DATUMS) {
        tt_unpack_row(l1, val, TT_ROW_DATUMS, exp, in, out, to_dst);
    } else {
        tt_unpack_row(l1, val, n, exp, in, out, to_dst);
    }
}

#define TT_UNPACK_ROWS(X) \
    X(FP32, FP32) X(FP32, TF32) X(FP32, BF16) X(FP32, FP16) \
    X(TF32, TF32) X(INT32, INT32) X(BF16, BF16) X(FP16, FP16) \
    X(INT16, INT16) X(BFP8, BFP8)

#define TT_UNPACK_ROW_FNS(IN, OUT) \
    static void tt_unpack_row_##IN##_##OUT##_src(const uint8_t *restrict l1, \
            uint32_t *restrict val, unsigned n, uint8_t exp) \
    { \
        tt_unpack_row_n(l1, val, n, exp, TT_FMT_##IN, TT_FMT_##OUT, false); \
    } \
    static void tt_unpack_row_##IN##_##OUT##_dst(const uint8_t *restrict l1, \
            uint32_t *restrict val, unsigned n, uint8_t exp) \
    { \
        tt_unpack_row_n(l1, val, n, exp, TT_FMT_##IN, TT_FMT_##OUT, true); \
    }
TT_UNPACK_ROWS(TT_UNPACK_ROW_FNS)

/* Indexed by the formats (4 bits each) and the destination */
#define TT_UNPACK_ROW_ENTRY(IN, OUT) \
    [TT_FMT_##IN << 4 | TT_FMT_##OUT] = \
      { tt_unpack_row_##IN##_##OUT##_src, tt_unpack_row_##IN##_##OUT##_dst },

static TTUnpackRowFn *const tt_unpack_rows[256][2] = {
    TT_UNPACK_ROWS(TT_UNPACK_ROW_ENTRY)
};

TTUnpackRowFn *tt_fmt_unpack_row(unsigned in, unsigned out, bool to_dst)
{
    uint32_t v;

    if (in > 15 || out > 15 || !tt_unpack_rows[in << 4 | out][to_dst]) {
        return NULL;
    }
    /* any datum decides whether the pair is accepted */
    return tt_unpack_one(in, out, 0, 0, to_dst, false, false, &v)
           ? tt_unpack_rows[in << 4 | out][to_dst] : NULL;
}

/* ------------------------------------------------------------ packing -- */

/*
 * The packer converts in two steps around ReLU: an early conversion of
 * the Dst value into the intermediate format In_data_format (which must
 * equal ALU_FORMAT_SPEC_REG2_Dstacc), then a late one into
 * Out_data_format.  Rounding is half away from zero on the magnitude.
 * Modes: Read_32b_data << 8 | In << 4 | Out, the combinations Blackhole
 * supports (Packers/FormatConversion.md; ttsim's list).
 */
#define TT_PACK_MODES(X) \
    X(0x010) X(0x011) X(0x015) X(0x01a) X(0x026) X(0x050) X(0x055) \
    X(0x056) X(0x057) X(0x05f) X(0x060) X(0x065) X(0x066) X(0x067) \
    X(0x099) X(0x100) X(0x101) X(0x106) X(0x107) X(0x10f) X(0x111) \
    X(0x11a) X(0x155) X(0x166) X(0x167) X(0x188) X(0x199) X(0x1ee)

static unsigned tt_pack_mode(const TTPackFormat *f)
{
    return f->dst32 << 8 | f->in << 4 | f->out;
}

static uint32_t tt_nan_to_inf32(uint32_t v)
{
    return (v & 0x7fffffff) > 0x7f800000 ? (v & 0x80000000) | 0x7f800000 : v;
}

/* Early conversion of a Dst32b value */
static inline QEMU_ALWAYS_INLINE uint32_t
tt_pack_early32(const TTPackFormat *f, uint32_t x)
{
    uint32_t v = tt_dst_dec_fp32(x), mag = v & 0x7fffffff;

    switch (f->in) {
    case TT_FMT_INT16:              /* raw high half */
        return x >> 16;
    case TT_FMT_BF16:
        v = (tt_nan_to_inf32(v) + 0x8000) >> 16;
        return (v & 0x7fff) < 0x80 ? 0 : v;
    case TT_FMT_BFP8:               /* E8M6: truncate to BF16, round bit 0 */
        v = ((tt_nan_to_inf32(v) >> 16) + 1) & ~1u;
        return (v & 0x7fff) < 0x80 ? 0 : v;
    case TT_FMT_INT8:
        /* sign-magnitude INT32: the low bits, or shift, round, saturate */
        if (f->read_raw) {
            return f->read_unsigned ? mag & 0xff
                                    : (v & 0x80000000) >> 24 | (mag & 0x7f);
        }
        if (f->int_shift) {
            /* to nearest, ties away from zero, on the magnitude */
            mag = (mag >> f->int_shift) + (mag >> (f->int_shift - 1) & 1);
        }
        if (f->read_unsigned) {
            return v >> 31 ? 0 : MIN(mag, 255);
        }
        return (v & 0x80000000) >> 24 | MIN(mag, 127);
    case TT_FMT_FP16:               /* TF32, rounded, as 19 bits */
        v = (tt_nan_to_inf32(v) + 0x1000) >> 13;
        return (v & 0x3ffff) < 0x400 ? 0 : v;
    default:                        /* FP32, INT32 */
        return v;
    }
}

/* Early conversion of a Dst16b value */
static inline QEMU_ALWAYS_INLINE uint32_t
tt_pack_early16(const TTPackFormat *f, uint16_t x)
{
    uint32_t v, e;

    if (f->in == TT_FMT_INT16) {
        return x;
    }
    if (f->in == TT_FMT_FP16 && f->round_10b) {
        /* Dst holds BF16 read through the FP16 path (FP8 output) */
        v = tt_dst_dec_bf16(x);
        e = v >> 7 & 0xff;
        if (e < 112) {
            return v & 0x8000;
        }
        return e - 112 > 31 ? (v & 0x8000) | 0x7fff
                            : (v & 0x8000) | (e - 112) << 10 | (v & 0x7f) << 3;
    }
    if (f->in == TT_FMT_FP16 || f->in == TT_FMT_BFP8A) {
        v = tt_dst_dec_fp16(x);
        if (f->in == TT_FMT_BFP8A) {        /* E5M6 */
            if ((v & 0x7fff) > 0x7ff7) {
                v = (v & 0x8000) | 0x7ff0;
            }
            v = (v + 8) & ~15u;
        }
        return (v & 0x7fff) < 0x400 ? 0 : v;
    }
    v = tt_dst_dec_bf16(x);                 /* BF16 or E8M6 */
    if ((v & 0x7fff) > 0x7f80) {
        v = (v & 0x8000) | 0x7f80;
    } else if ((v & 0x7fff) < 0x80) {
        v = 0;
    }
    return f->in == TT_FMT_BFP8 ? (v + 1) & ~1u : v;
}

/* ReLU on the intermediate value (Packers/ReLU.md; modes 0-3) */
static inline QEMU_ALWAYS_INLINE uint32_t
tt_pack_relu(const TTPackFormat *f, uint32_t v)
{
    unsigned mode = f->relu_mode, thr = f->relu_threshold;
    uint32_t sign, t;

    if (!mode) {
        return v;
    }
    if (f->in == TT_FMT_FP32 || f->in == TT_FMT_INT32) {
        sign = v >> 31;
        t = thr << 16;              /* the threshold is BF16 */
    } else if (f->in == TT_FMT_FP16 && f->dst32) {
        sign = v >> 18 & 1;         /* 19-bit TF32 */
        t = thr << 3;
    } else if (f->in == TT_FMT_INT8) {
        sign = f->read_unsigned ? 0 : v >> 7 & 1;   /* sign-magnitude INT8 */
        t = thr;
    } else {
        sign = v >> 15 & 1;
        t = thr;
    }
    if (sign) {
        return 0;
    }
    if (mode == 2 && v <= t) {
        return 0;
    }
    if (mode == 3 && f->in == TT_FMT_FP32) {
        return (v >> 13) > (t >> 13) ? t : v;   /* compared at TF32 */
    }
    return mode == 3 && v > t ? t : v;
}

/* 19-bit TF32 (sign 18, exponent 17:10) to FP16 bits */
static uint32_t tt_tf19_to_fp16(uint32_t v)
{
    int e = (int)(v >> 10 & 0xff) - 112;
    uint32_t sign = (v >> 18 & 1) << 15;

    if (e < 0) {
        return sign;
    }
    return e > 31 ? sign | 0x7fff : sign | e << 10 | (v & 0x3ff);
}

/* FP16 (5-bit exponent, 31 ordinary) to E4M3 with saturation */
static uint32_t tt_fp16_to_e4m3(uint32_t v)
{
    unsigned e = v >> 10 & 0x1f;
    uint32_t sign = (v >> 8) & 0x80;

    if (e <= 8) {
        return sign;
    }
    return e >= 24 ? sign | 0x7f : sign | (e - 8) << 3 | (v >> 7 & 7);
}

/* Late conversion of the intermediate value into Out_data_format */
static inline QEMU_ALWAYS_INLINE uint32_t
tt_pack_late(const TTPackFormat *f, uint32_t v)
{
    unsigned e;

    switch (tt_pack_mode(f) & 0xff) {
    case 0x10:                      /* FP16 -> FP32: rebias, 31 is finite */
        e = v >> 10 & 0x1f;
        return (v & 0x8000) << 16 |
               (e ? ((v & 0x7fff) + (112 << 10)) << 13 : (v & 0x3ff) << 13);
    case 0x15:                      /* FP16 -> BF16, E5M6 -> BFP8 input */
    case 0x26:
        e = v >> 10 & 0x1f;
        return e ? (v & 0x8000) | (e + 112) << 7 | (v >> 3 & 0x7f) : 0;
    case 0x1a:
        return tt_fp16_to_e4m3(v);
    case 0x01:                      /* FP32 -> FP16 (truncating) */
        return tt_fp32_to_fp16(v);
    case 0x06: case 0x07: case 0x0f:    /* FP32 -> BFP: truncate to BF16 */
        v >>= 16;
        return (v & 0x7f80) ? v : 0;
    case 0x50: case 0x60:           /* BF16 / E8M6 -> FP32 */
        return v << 16;
    default:
        return v;
    }
}

static inline QEMU_ALWAYS_INLINE uint32_t
tt_pack_one(const TTPackFormat *f, uint32_t raw)
{
    uint32_t v = f->dst32 ? tt_pack_early32(f, raw) : tt_pack_early16(f, raw);

    v = tt_pack_relu(f, v);
    if (f->dst32 && f->in == TT_FMT_FP16) {
        v = tt_tf19_to_fp16(v);
    }
    return tt_pack_late(f, v);
}

uint32_t tt_fmt_pack(const TTPackFormat *f, uint32_t raw)
{
    return tt_pack_one(f, raw);
}

static inline QEMU_ALWAYS_INLINE void
tt_pack_row_n(const TTPackFormat *k, const uint32_t *restrict raw,
              uint32_t *restrict val, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        val[i] = tt_pack_one(k, raw[i]);
    }
}

/*
 * Row converters: tt_pack_one compiled once per mode (flags stay live),
 * and once more for the common whole row without ReLU, a fixed-count
 * loop the compiler turns into vector code
 */
static inline QEMU_ALWAYS_INLINE void
tt_pack_row(const TTPackFormat *f, const uint32_t *restrict raw,
            uint32_t *restrict val, unsigned n, unsigned mode)
{
    TTPackFormat k = *f;

    k.dst32 = mode >> 8;
    k.in = mode >> 4 & 15;
    k.out = mode & 15;
    if (n == TT_ROW_DATUMS && !k.relu_mode) {
        k.relu_mode = 0;
        tt_pack_row_n(&k, raw, val, TT_ROW_DATUMS);
    } else {
        tt_pack_row_n(&k, raw, val, n);
    }
}

#define TT_PACK_ROW_FN(m) \
    static void tt_pack_row_##m(const TTPackFormat *f, \
                                const uint32_t *restrict raw, \
                                uint32_t *restrict val, unsigned n) \
    { \
        tt_pack_row(f, raw, val, n, m); \
    }
TT_PACK_MODES(TT_PACK_ROW_FN)

/* Indexed by the mode (Read_32b_data << 8 | In << 4 | Out) */
#define TT_PACK_ROW_ENTRY(m) [m] = { tt_pack_row_##m },

static const struct {
    TTPackRowFn *fn;
} tt_pack_rows[512] = { TT_PACK_MODES(TT_PACK_ROW_ENTRY) };

TTPackRowFn *tt_fmt_pack_row(const TTPackFormat *f)
{
    unsigned mode = tt_pack_mode(f);

    return mode < ARRAY_SIZE(tt_pack_rows) ? tt_pack_rows[mode].fn : NULL;
}

bool tt_fmt_pack_supported(const TTPackFormat *f)
{
    unsigned mode = tt_pack_mode(f);

    /* FP8 output is E4M3 on Blackhole */
    return tt_fmt_pack_row(f) &&
           (f->out != TT_FMT_FP8 || f->fp8_e4m3) &&
           (f->round_10b == (mode == 0x111 || mode == 0x11a) ||
            mode == 0x01a);
}

/*
 * A shared-exponent block of 16 BF16 patterns (FloatBitPatterns.md):
 * the largest exponent, each significand aligned to it and rounded half
 * up to 7 bits (saturating), then truncated to BFP4/BFP2's width; a zero
 * magnitude is +0, never the "-0" that means -inf.  Codes are packed
 * little-endian (BFP4: element 2n in the low nibble of byte n).
 */
uint8_t tt_fmt_bfp_block(const uint16_t v[16], unsigned bits, uint8_t *out)
{
    unsigned emax = 0;

    for (int j = 0; j < 16; j++) {
        emax = MAX(emax, v[j] >> 7 & 0xff);
    }
    memset(out, 0, bits * 2);
    for (int j = 0; j < 16; j++) {
        unsigned e = v[j] >> 7 & 0xff, sh = emax - e;
        unsigned m = (v[j] & 0x7f) | (e ? 0x80 : 0), mag = 0;

        if (sh < 8) {
            mag = MIN((m + (1u << sh)) >> (sh + 1), 127u);
        }
        mag >>= 8 - bits;
        if (mag) {
            mag |= (v[j] >> 15) << (bits - 1);
        }
        out[j * bits / 8] |= mag << (j * bits % 8);
    }
    return emax;
}

/* ------------------------------------------------- L1 accumulation -- */

/* L1.md near-memory accumulation; exact rounding from ttsim */
static const float_status tt_rne = {
    .float_rounding_mode = float_round_nearest_even,
    .float_2nan_prop_rule = float_2nan_prop_s_ab,
    .default_nan_pattern = 0x40,    /* NaN results are canonicalised */
};

static uint32_t tt_daz32(uint32_t u)
{
    return (u & 0x7fffffff) < 0x00800000 ? u & 0x80000000 : u;
}

static uint32_t tt_acc_fp32(uint32_t old, uint32_t new)
{
    float_status st = tt_rne;
    uint32_t r = float32_val(float32_add(make_float32(tt_daz32(old)),
                                         make_float32(tt_daz32(new)), &st));

    return (r & 0x7fffffff) > 0x7f800000 ? 0x7fc00000 : tt_daz32(r);
}

/*
 * BF16 as a double: denormals are zero, a NaN is a huge number (the
 * largest double in L1, 2^128 with its mantissa when arriving), as
 * ttsim computes it.
 */
static float64 tt_bf16_as_f64(uint16_t x, bool in_l1)
{
    uint64_t sign = (uint64_t)(x >> 15) << 63;
    float_status st = tt_rne;

    if ((x & 0x7f80) == 0) {
        return make_float64(sign);
    }
    if ((x & 0x7fff) > 0x7f80) {
        return make_float64(sign | (in_l1 ? 0x7fefffffffffffffull :
                                    (uint64_t)(1023 + 128) << 52 |
                                    (uint64_t)(x & 0x7f) << 45));
    }
    return float32_to_float64(make_float32((uint32_t)x << 16), &st);
}

static uint32_t tt_acc_bf16(uint16_t old, uint16_t new)
{
    float_status st = tt_rne;
    uint64_t r, sign, m;
    int e;

    if ((old == 0x7f80 && new == 0xff80) || (old == 0xff80 && new == 0x7f80)) {
        return 0x7fc0;
    }
    r = float64_val(float64_add(tt_bf16_as_f64(old, true),
                                tt_bf16_as_f64(new, false), &st));
    sign = r >> 63 << 15;
    e = (int)(r >> 52 & 0x7ff) - 1023 + 127;
    if (e <= 0) {
        return sign;
    }
    if (e >= 255) {
        return sign | 0x7f80;
    }
    /* 52 mantissa bits to 7, nearest even; a carry may reach infinity */
    m = r & ((1ull << 52) - 1);
    m = (m + (1ull << 44) - 1 + (m >> 45 & 1)) >> 45;
    return sign | (((uint32_t)e << 7) + m);
}

/* FP16 with exponent 31 finite: underflow and big cancellations saturate */
static uint32_t tt_fp16_widen(uint16_t h)
{
    return (uint32_t)(h & 0x8000) << 16 |
           ((h & 0x7fff) >= 0x400 ? ((h & 0x7fffu) << 13) + (112u << 23) : 0);
}

static uint32_t tt_acc_fp16(uint16_t old, uint16_t new)
{
    float_status st = tt_rne;
    uint32_t r = float32_val(float32_add(make_float32(tt_fp16_widen(old)),
                                         make_float32(tt_fp16_widen(new)),
                                         &st));
    uint32_t s = r >> 16 & 0x8000, m, p;
    int e;

    if (!(r & 0x7fffffff)) {
        return s | ((old >> 10 & 0x1f) >= 30 ? 0x7fff : 0);
    }
    e = (int)(r >> 23 & 0xff) - 112;
    if (e < 0) {
        return s | 0x7fff;
    }
    if (e == 0) {
        return s;
    }
    m = r & 0x7fffff;
    p = ((uint32_t)e << 10) + ((m + 0xfff + (m >> 13 & 1)) >> 13);
    return s | (p < 0x8000 ? p : 0x7fff);
}

/* INT32 in L1 and Dst is sign-magnitude; the sum saturates (L1.md) */
static uint32_t tt_acc_int32(uint32_t old, uint32_t new)
{
    int64_t a = old & 0x7fffffff, b = new & 0x7fffffff, sum;

    sum = (old >> 31 ? -a : a) + (new >> 31 ? -b : b);
    sum = MIN(MAX(sum, -(int64_t)INT32_MAX), INT32_MAX);
    return sum < 0 ? 0x80000000u | (uint32_t)-sum : (uint32_t)sum;
}

uint32_t tt_fmt_l1_acc(unsigned fmt, uint32_t old, uint32_t new)
{
    switch (fmt) {
    case TT_FMT_INT32:
        return tt_acc_int32(old, new);
    case TT_FMT_FP32:
        return tt_acc_fp32(old, new);
    case TT_FMT_BF16:
        return tt_acc_bf16(old, new);
    default:
        return tt_acc_fp16(old, new);
    }
}
