/*
 * Tenstorrent Blackhole Tensix coprocessor: what the unit files and the
 * device file (tensix.c) share; private, beside the sources.  Its
 * out-of-line part is tensix-common.c.
 *
 * Every instruction has one handler, tensix_<mnemonic>(), in the file of
 * its unit; the generated table tt_tensix_isa[] (tt-tensix-isa.h, from
 * data/tensix-isa.yaml) maps opcodes to handlers.  Handlers run with the
 * tile's coprocessor lock held, on the host thread of the core whose push
 * made the instruction executable.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_TENSIX_COMMON_H
#define HW_TENSTORRENT_TENSIX_COMMON_H

#include "target/riscv/cpu.h"
#include "hw/tenstorrent/tensix.h"
#include "tt-tensix-isa.h"      /* generated from data/tensix-isa.yaml */
#include "tt-tensix-config.h"   /* generated from data/tensix-config.yaml */

/*
 * Configuration fields by their cfg_defines.h names: TT_CFG(c, F) reads
 * field F of config words @c (Config[state]); TT_THCFG(tc, F) and
 * TT_THCFG_N(tc, F, n) of ThreadConfig words @tc (F with "n" for {n}).
 */
#define TT_CFG(c, F) \
    extract32((c)[TT_CFG_##F##_WORD], TT_CFG_##F##_SHIFT, TT_CFG_##F##_WIDTH)
#define TT_CFG_AT(c, F, off) \
    extract32((c)[TT_CFG_##F##_WORD + (off)], TT_CFG_##F##_SHIFT, \
              TT_CFG_##F##_WIDTH)
#define TT_THCFG(tc, F) \
    extract32((tc)[TT_THCFG_##F##_WORD], TT_THCFG_##F##_SHIFT, \
              TT_THCFG_##F##_WIDTH)
#define TT_THCFG_N(tc, F, n) \
    extract32((tc)[TT_THCFG_##F##_WORD + (n)], TT_THCFG_##F##_SHIFT, \
              TT_THCFG_##F##_WIDTH)

static inline const char *tt_op_name(uint32_t w)
{
    const char *n = tt_tensix_isa[w >> 24].name;

    return n ? n : "(unknown)";
}

/*
 * tensix-common.c: log a guest error about instruction @w of @thread;
 * the caller stops it
 */
void G_GNUC_PRINTF(4, 5) tt_tensix_error(TTTensix *t, int thread, uint32_t w,
                                          const char *fmt, ...);

/* The configuration state (0 or 1) @thread's instructions use */
static inline int tt_cfg_state(TTTensix *t, int thread)
{
    return TT_THCFG(t->th[thread].thread_cfg, CFG_STATE_ID_StateID);
}

/* The config words @thread's instructions read */
static inline const uint32_t *tt_cfgw(TTTensix *t, int thread)
{
    return t->cfg[tt_cfg_state(t, thread)];
}

/* ------------------------------------------------------ data formats -- */

/* Format codes (tt-metal tensix_types.h DataFormat, low 4 bits) */
enum {
    TT_FMT_FP32 = 0, TT_FMT_FP16 = 1, TT_FMT_BFP8A = 2, TT_FMT_BFP4A = 3,
    TT_FMT_TF32 = 4, TT_FMT_BF16 = 5, TT_FMT_BFP8 = 6, TT_FMT_BFP4 = 7,
    TT_FMT_INT32 = 8, TT_FMT_INT16 = 9, TT_FMT_FP8 = 10, TT_FMT_BFP2A = 11,
    TT_FMT_INT8 = 14, TT_FMT_BFP2 = 15,
};

/* Bits per datum in L1, or 0 for a code that is no format */
unsigned tt_fmt_bits(unsigned fmt);
bool tt_fmt_is_bfp(unsigned fmt);

/*
 * Dst holds 16-bit values shuffled to {sign, mantissa, exponent} and
 * 32-bit ones as the shuffled high half over the low mantissa bits
 * (Dst.md "Data type bit layout").
 */
static inline uint16_t tt_dst_enc_bf16(uint16_t x)
{
    return (x & 0x8000) | (x & 0x7f) << 8 | (x >> 7 & 0xff);
}

static inline uint16_t tt_dst_dec_bf16(uint16_t r)
{
    return (r & 0x8000) | (r & 0xff) << 7 | (r >> 8 & 0x7f);
}

static inline uint16_t tt_dst_enc_fp16(uint16_t x)
{
    return (x & 0x8000) | (x & 0x3ff) << 5 | (x >> 10 & 0x1f);
}

static inline uint16_t tt_dst_dec_fp16(uint16_t r)
{
    return (r & 0x8000) | (r & 0x1f) << 10 | (r >> 5 & 0x3ff);
}

static inline uint32_t tt_dst_enc_fp32(uint32_t x)
{
    return (uint32_t)tt_dst_enc_bf16(x >> 16) << 16 | (x & 0xffff);
}

static inline uint32_t tt_dst_dec_fp32(uint32_t r)
{
    return (uint32_t)tt_dst_dec_bf16(r >> 16) << 16 | (r & 0xffff);
}

/* Dst32b row @row lives in DstBits rows adj and adj + 8 (Dst.md) */
static inline unsigned tt_dst_adj32(unsigned row)
{
    return ((row & 0x1f8) << 1) | (row & 0x207);
}

/* Raw Dst accesses; an invalid row reads as @inval */
static inline uint16_t tt_dst_rd16(TTTensix *t, unsigned row, unsigned col,
                                   uint16_t inval)
{
    return t->dst_valid[row] ? t->dst[row][col] : inval;
}

static inline uint32_t tt_dst_rd32(TTTensix *t, unsigned row, unsigned col,
                                   uint32_t inval)
{
    unsigned a = tt_dst_adj32(row);

    return t->dst_valid[a] ? (uint32_t)t->dst[a][col] << 16 | t->dst[a + 8][col]
                           : inval;
}

static inline void tt_dst_wr16(TTTensix *t, unsigned row, unsigned col,
                               uint16_t v)
{
    t->dst[row][col] = v;
}

static inline void tt_dst_wr32(TTTensix *t, unsigned row, unsigned col,
                               uint32_t v)
{
    unsigned a = tt_dst_adj32(row);

    t->dst[a][col] = v >> 16;
    t->dst[a + 8][col] = v;
}

/* A written Dst row becomes valid (32-bit: the high half's flag only) */
static inline void tt_dst_set_valid(TTTensix *t, unsigned row, bool dst32)
{
    t->dst_valid[dst32 ? tt_dst_adj32(row) : row] = true;
}

/*
 * Unpacker conversion (UNPACR_Regular.md FormatConversion) of datum @raw
 * with shared exponent @exp, into a Src cell or (@to_dst) a raw Dst
 * value; false if the combination is undefined.
 */
bool tt_fmt_unpack(unsigned in, unsigned out, uint32_t raw, uint8_t exp,
                   bool to_dst, bool int8_unsigned, bool fp8_e4m3,
                   uint32_t *val);

/* Packer conversions (Packers/FormatConversion.md), see tensix-formats.c */
typedef struct TTPackFormat {
    unsigned in, out;           /* In_data_format (= Dstacc), Out */
    bool dst32;                 /* Read_32b_data */
    bool read_unsigned, round_10b, fp8_e4m3;
    bool read_raw;              /* Read_int8: INT8 takes the low bits */
    unsigned int_shift;         /* INT8: ShiftAmount, 0-31 */
    unsigned relu_mode, relu_threshold;
} TTPackFormat;

bool tt_fmt_pack_supported(const TTPackFormat *f);
uint32_t tt_fmt_pack(const TTPackFormat *f, uint32_t raw);
/* One BFP block: 16 BF16 patterns -> @bits-bit codes at @out, exponent */
uint8_t tt_fmt_bfp_block(const uint16_t v[16], unsigned bits, uint8_t *out);
/* L1 accumulation of @new onto @old in @fmt (FP32, FP16, BF16, INT32) */
uint32_t tt_fmt_l1_acc(unsigned fmt, uint32_t old, uint32_t new);

/* ------------------------------------------------------- unit glue -- */

/* tensix-config.c: write config word @reg of @state (globals: both) */
void tt_cfg_write(TTTensix *t, int state, uint32_t reg, uint32_t val);

/* tensix-adc.c: ADC counter widths, X Y Z W (Blackhole ADCs.md) */
extern const uint32_t tt_adc_mask[4];

/* tensix-sync.c: true while the latched wait keeps the gate closed */
bool tt_sync_latch_holds(TTTensix *t, TTTensixLatch *l);
/* tensix-sync.c: add @delta to each semaphore in mask @sems (0..15) */
void tt_sync_sem_update(TTTensix *t, uint32_t sems, int delta);

/* tensix-frontend.c: run every thread as far as it can go; wake cores */
/* The widest TT_VEC_* this host has (tensix-sfpu-vec.c) */
unsigned tt_vec_host(void);

bool tt_tensix_run(TTTensix *t);
void tt_tensix_release_waiters(TTTensix *t);
/* GPIO in "stream-changed": re-run a thread held by STREAMWAIT */
void tt_tensix_stream_changed(void *opaque, int n, int level);

/* The per-core windows, one set of callbacks per block */
extern const MemoryRegionOps tt_tensix_push_ops;    /* tensix-frontend.c */
void tt_tensix_push_inline(CPURISCVState *env, uint32_t w, uintptr_t ra);
uint32_t tt_tensix_push_run(CPURISCVState *env, const uint32_t *w,
                            uint32_t n);
extern const MemoryRegionOps tt_tensix_pcbuf_ops;   /* tensix-frontend.c */
extern const MemoryRegionOps tt_tensix_mopcfg_ops;  /* tensix-frontend.c */
extern const MemoryRegionOps tt_tensix_gpr_ops;     /* tensix-thcon.c */
extern const MemoryRegionOps tt_tensix_cfg_ops;     /* tensix-config.c */

/* The RWCs' widths: SrcA/SrcB row counters, the Dst row counter */
#define TT_RWC_SRC_MASK 0x3f
#define TT_RWC_DST_MASK 0x3ff

/*
 * Apply address modifier @n (ApplyAddrMod, RWCs.md) to @thread's RWCs;
 * @fidelity false is ApplyPartialAddrMod (SFPLOAD/STORE).  Shared by the
 * matrix and vector units (tensix-common.c).
 */
void tt_addr_mod(TTTensix *t, int thread, unsigned n, bool fidelity);
/* tensix-fpu.c: hand Src @which (0 A, 1 B) bank back to the unpackers */
void tt_fpu_release(TTTensix *t, int thread, unsigned which);
/*
 * tensix-unpack.c: @thread hands the unpackers' bank of Src @which to the
 * FPU, with its format
 */
void tt_unpack_flip(TTTensix *t, int thread, unsigned which, unsigned fmt);

/*
 * tensix-frontend.c: Src hand-overs in flight (TTTensix.flips).
 * tt_src_defer(): @thread hands bank @bank of Src @which (0 A, 1 B) over
 * once its pushing core has moved on: true if it is now in flight, false
 * if it must happen at once.  tt_src_publish(): every hand-over in flight
 * reaches the matrix unit; false if there was none.
 * tt_src_publish_through(): those up to the one of @which/@bank, if it is
 * in flight.
 */
bool tt_src_defer(TTTensix *t, int thread, unsigned which, unsigned bank);
/* the TTTensix.flip_watch timer's callback, and its arming */
void tt_src_watch_expired(void *opaque);
void tt_src_watch(TTTensix *t);
bool tt_src_publish(TTTensix *t);
void tt_src_publish_through(TTTensix *t, unsigned which, unsigned bank);

static inline bool tt_src_in_flight(const TTTensix *t, unsigned which,
                                    unsigned bank)
{
    for (unsigned i = 0; i < t->nflips; i++) {
        if (t->flips[i] == (which << 1 | bank)) {
            return true;
        }
    }
    return false;
}
/* The spin-park "quiesce" callback: core @role has moved on */
void tt_tensix_quiesce(void *opaque, int role);

/*
 * Src @which's bank @bank was written (or all banks, at reset and
 * migration): operands prepared from it before are stale
 */
static inline void tt_src_changed(TTTensix *t, unsigned which, unsigned bank)
{
    t->src_gen[which][bank]++;
}

static inline void tt_src_changed_all(TTTensix *t)
{
    for (unsigned i = 0; i < 4; i++) {
        tt_src_changed(t, i >> 1, i & 1);
    }
}

/*
 * Bank @bank of Src @which belongs to the matrix unit, as the unpackers
 * see it: handed over, maybe still in flight
 */
static inline bool tt_src_handed(const TTTensix *t, unsigned which,
                                 unsigned bank)
{
    return (t->src[which].valid & BIT(bank)) ||
           tt_src_in_flight(t, which, bank);
}

/*
 * tensix-sfpu.c: tables built once (class init), power-on state, and
 * the reseed on a write of PRNG_SEED_Seed_Val
 */
void tt_sfpu_class_init(void);
void tt_sfpu_reset(TTTensix *t);
void tt_sfpu_seed(TTTensix *t, uint32_t seed);
/* LaneConfig was written (SFPCONFIG, reset, migration): refresh its masks */
void tt_sfpu_lane_config_changed(TTTensix *t);
void tt_sfpu_lm_changed(TTTensix *t);

/*
 * An SFP instruction as the Vector Unit runs it.  The handlers decode
 * the word with tt_sfpu_decode(); SFPLOADMACRO can instead override the
 * register indices of a template (vd may then be 16) and set @macro
 * (SFPLOADMACRO.md: no back-door template load, no AddrMod for stores).
 */
typedef struct TTSfpInsn {
    uint32_t w;                 /* the instruction word */
    uint8_t va, vb, vc, vd;     /* LReg indices after the usual defaults */
    uint32_t lanes;             /* lanes the instruction may act in */
    bool macro;                 /* scheduled by SFPLOADMACRO */
    uint16_t addr;              /* with @macro, SFPSTORE's Dst address */
} TTSfpInsn;

/* Decode SFP word @w (opcode 0x70-0x99); false if not one */
bool tt_sfpu_decode(uint32_t w, TTSfpInsn *i);
/* Execute a decoded SFP instruction for @thread */
void tt_sfpu_exec(TTTensix *t, int thread, const TTSfpInsn *i);

/*
 * SFPLOADMACRO's pipeline as time passes without an SFP instruction:
 * @thread ran a non-SFP instruction (one cycle), had nothing to run
 * (tt_sfpu_idle), or waits for the Vector Unit (STALLWAIT C11,
 * tt_sfpu_settle).  Only instructions scheduled to count cycles move;
 * see tensix-sfpu.c.
 */
void tt_sfpu_cycle(TTTensix *t, int thread);
void tt_sfpu_idle(TTTensix *t, int thread);
void tt_sfpu_settle(TTTensix *t);

static inline bool tt_sfpu_busy(TTTensix *t)
{
    return t->sfpu.nsched | t->sfpu.nwb;
}

/* tensix-common.c: write @len bytes of L1 from the coprocessor (packers) */
bool tt_tensix_l1_write(TTTensix *t, uint32_t addr, const void *buf,
                        uint32_t len);

/* Monitor: a thread's front-end state, the datapath's state */
void tt_tensix_frontend_dump(TTTensix *t, int thread, GString *out);
void tt_fpu_dump(TTTensix *t, GString *out);
void tt_sfpu_dump(TTTensix *t, GString *out);

#endif
