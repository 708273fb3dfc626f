/*
 * Runs the Tensix kernels of firmware/tensix (tt-kernels.bin) on one
 * Tensix tile through nothing but the libttsim C ABI, and checks every
 * result against the host reference tools/runtime/tt-ref.c:
 *
 *   tt-kernel-run [--lib PATH] [--fw IMAGE] [--case NAMES] [--seed N]
 *                 [--tile X,Y] [--dump FILE] [--compare-lib PATH2]
 *                 [--timeout S] [--list] [--sfpu] [--sfpu-macro]
 *
 * The image goes to L1 0 of the tile (default (1, 2)) with its TRISCs
 * held in reset.  For each case the program writes seeded random
 * operands and the parameter block (tools/abi/kernel-params.h),
 * releases the three TRISCs through SOFT_RESET_0, clocks the simulator
 * while polling their done words, holds them again and reads the result
 * back.  Output is TAP, one line per check, with error figures as
 * diagnostics.  --dump writes the raw result bytes of every run, in case
 * order, so that two libraries' outputs can be compared with cmp;
 * --compare-lib runs every case on a second library too (in the same
 * process; a private copy if it is the same file) and reports whether
 * the two results are bit-for-bit identical.  --lib defaults to
 * $TT_LIBTTSIM, --fw to tensix-fw/tt-kernels.bin beside the program.
 *
 * The vector-unit (SFPU) cases run only with --sfpu (their SFPLOADMACRO
 * forms with --sfpu-macro), or when named with --case.  Cases that
 * Tenstorrent's ttsim v1.10.0 stops on (it exits the process) are
 * skipped, with the reason, on a library that is ttsim: the file
 * $TTSIM_LIB names, or one that carries ttsim's error categories.
 *
 * Host view as tools/tt-host-run.c: the call sequence of tt-umd's
 * TTSimTTDevice (tenstorrent/tt-umd device/tt_device/tt_sim_tt_device.cpp,
 * ttsim docs/libttsim_api.md) and its 2 MiB TLB windows
 * (tt-umd device/pcie/tt_sim_tlb_handle.cpp).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "tt-host.h"
#include "tt-ref.h"
#include "kernel-params.h"
#include "tt-tensix-config.h"   /* generated: TT_CFG_WORDS, TT_THCFG_WORDS */
#include "tt-tensix-enc.h"      /* generated: TT_ENC_<MNEMONIC>() */

#define WIN_L1              32      /* windows >= 32: no strided multicast */
#define WIN_REGS            33

#define SOFT_RESET_0        TT_HOST_SOFT_RESET_0
#define TRISC_RESET_PC_OVERRIDE TT_HOST_TRISC_RESET_PC_OVERRIDE
#define HOLD_ALL            TT_HOST_HOLD_ALL
#define RUN_TRISCS          TT_HOST_RELEASE_TRISCS  /* BRISC, NCRISC held */

#define POISON              0xa5
#ifndef MIN
#define MIN(a, b)           ((a) < (b) ? (a) : (b))
#endif
#define MAX_TILES           16

typedef struct Lib {
    TTHostLib h;
    uint32_t run_id;
    bool wedged;        /* a run timed out: its Tensix state is unknown */
    bool ttsim;         /* Tenstorrent's ttsim: skip what it stops on */
} Lib;

typedef struct Opts {
    const char *lib;
    const char *lib2;
    const char *args2;          /* --compare-args: lib2's TT_EMU_ARGS */
    const char *fw;
    const char *dump;
    const char *only;
    uint64_t seed;
    int tile_x, tile_y;
    double timeout;
    uint32_t clocks;
    bool list;
    bool sfpu;              /* --sfpu: the vector-unit cases too */
    bool sfpu_macro;        /* --sfpu-macro: their SFPLOADMACRO forms */
    /* --bench */
    bool bench;
    int tiles;
    int repeat;
    int dims[3];            /* mt, kt, nt; 0: the case's own */
    unsigned poll_us;
    int stress;             /* --stress: runs per case, 0: off */
    bool fuzz_invalid;      /* --fuzz-invalid: add invalid words */
    int fuzz;               /* --fuzz: programs, 0: off */
    const char *replay;     /* --replay: one fuzz program */
} Opts;

/* How operands are drawn */
enum {
    DATA_NORMAL,        /* both signs, exponents 2^-3..2^3, a few zeros */
    DATA_SPECIAL,       /* NORMAL plus Inf, NaN, +-0, denormals, extremes */
    DATA_POSITIVE,      /* positive NORMAL without zeros */
    DATA_NONZERO,       /* NORMAL without zeros (max reduce) */
    DATA_WIDE,          /* exponents 2^-12..2^4 within every row (BFP8) */
    DATA_RANGE,         /* uniform in [lo, hi], to BF16 */
    DATA_RANGE_SPECIAL, /* RANGE plus +-0, +-Inf, NaN, denormals, extremes */
    DATA_RANGE_NONAN,   /* RANGE plus the specials other than NaN */
    DATA_INT,           /* both signs, 2^-2..2^33, some Inf and NaN */
    DATA_ZERO_INF_NAN,  /* NONZERO plus +-0, +-Inf, NaN */
    DATA_TOPK,          /* tiles 0-1 NONZERO, tiles 2-3 distinct indices */
    DATA_INT8,          /* sign-magnitude Int8 bytes, -0, +-127 among them */
};

enum {
    CASE_NEGATIVE = 1,  /* the check must FAIL: a LoFi result is not HiFi4 */
    CASE_ROUNDTRIP = 2, /* pack to Bfp8_b, then unpack that again */
    CASE_SFPU = 4,      /* vector unit: run with --sfpu */
    CASE_MACRO = 8,     /* an SFPLOADMACRO form: run with --sfpu-macro */
    CASE_WORDS = 16,    /* MOPs pushed word by word (TTKParams.push_words) */
};

typedef struct Case {
    const char *name;
    int op, sub_op;
    int dst_fp32, fidelity;
    int fmt_in, pack_src, fmt_out;
    int mt, kt, nt, block;
    int data;
    int flags;
    int ref_fidelity;   /* CASE_NEGATIVE: fidelity the reference uses */
    const char *what;
    /* TTK_OP_SFPU */
    uint32_t arg;       /* sfpu_arg */
    double lo, hi;      /* DATA_RANGE* */
    int ref_sub;        /* CASE_NEGATIVE: REF(reference op), 0: own */
    uint32_t ref_arg;   /* ... and its parameter */
    int perturb;        /* CASE_NEGATIVE: add this to each output datum */
    const char *ttsim_aborts;   /* why ttsim v1.10.0 cannot run it */
    /* words each TRISC adds after its part (TTKParams.inject) */
    uint32_t inject[3][TTK_MAX_INJECT];
    uint32_t ninject[3];
} Case;

#define REF(op)         ((op) + 1)

#define BF16 TTK_FMT_FLOAT16_B
#define FP32 TTK_FMT_FLOAT32
#define BFP8 TTK_FMT_BFP8_B
#define DC TTK_OP_DATACOPY
#define EW TTK_OP_ELTWISE
#define MM TTK_OP_MATMUL
#define RD TTK_OP_REDUCE
#define TR TTK_OP_TRANSPOSE
#define TZ TTK_OP_TILIZE
#define UZ TTK_OP_UNTILIZE
#define INT32 TTK_FMT_INT32
#define INT8 TTK_FMT_INT8
#define F32_5 0x40a00000u           /* 5.0f: tt-llk's test threshold */
#define F32_0_01 0x3c23d70au        /* 0.01f */

/*
 * A vector-unit case: BF16 in, the packer input as the Dst width
 * dictates (see below), @n tiles in one block
 */
#define SFPU(nm, sub, fp32, out, n, dat, l, h, a, fl, w, ...) \
    { .name = nm, .op = TTK_OP_SFPU, .sub_op = sub, .dst_fp32 = fp32, \
      .fmt_in = BF16, .pack_src = (fp32) ? (out) : BF16, .fmt_out = out, \
      .mt = 1, .kt = 1, .nt = n, .block = n, .data = dat, \
      .flags = CASE_SFPU | (fl), .what = w, .arg = a, .lo = l, .hi = h, \
      __VA_ARGS__ }
#define SFPLUTFP32_7 "SFPLUTFP32 Mod1 7 (table 2, sign kept): ttsim v1.10.0 " \
    "implements only Mod1 2"
#define LOADMACRO "SFPLOADMACRO: ttsim v1.10.0 leaves it out"
#define WORDS_TTSIM "ttsim v1.10.0 executes an UNPACR at its push, so the " \
    "math thread's SETRWC releases SrcB before the UNPACR_NOP pushed a few " \
    "instructions later (it stops: NonContractualBehavior)"

/*
 * Formats follow tt-llk's test harness (tests/python_tests/helpers/
 * data_format_inference.py): the unpacker keeps the L1 format; the packer
 * input is the unpacker output with a 16-bit Dst, the output format with
 * a 32-bit Dst.
 */
static const Case cases[] = {
    { "datacopy-dst16", DC, 0, 0, 0, BF16, BF16, BF16, 2, 1, 2, 2,
      DATA_SPECIAL, 0, 0, "BF16 A -> MOVA2D -> 16-bit Dst -> BF16" },
    { "datacopy-dst32", DC, 0, 1, 0, BF16, BF16, BF16, 2, 1, 2, 2,
      DATA_SPECIAL, 0, 0, "BF16 A -> ELWADD(A, 0) -> FP32 Dst -> BF16" },
    { "datacopy-dst32-fp32out", DC, 0, 1, 0, BF16, FP32, FP32, 2, 1, 2, 2,
      DATA_SPECIAL, 0, 0, "BF16 A -> FP32 Dst -> Float32 (pack FP32)" },
    { "add-dst16", EW, TTK_ELW_ADD, 0, 0, BF16, BF16, BF16, 2, 1, 2, 2,
      DATA_NORMAL, 0, 0, "ELWADD, 16-bit Dst" },
    { "add-dst32", EW, TTK_ELW_ADD, 1, 0, BF16, BF16, BF16, 2, 1, 2, 2,
      DATA_NORMAL, 0, 0, "ELWADD, FP32 Dst" },
    { "add-dst32-fp32out", EW, TTK_ELW_ADD, 1, 0, BF16, FP32, FP32,
      1, 1, 2, 1, DATA_NORMAL, 0, 0, "ELWADD, FP32 Dst, Float32 out" },
    { "sub-dst16", EW, TTK_ELW_SUB, 0, 0, BF16, BF16, BF16, 2, 1, 2, 2,
      DATA_NORMAL, 0, 0, "ELWSUB, 16-bit Dst" },
    { "sub-dst32", EW, TTK_ELW_SUB, 1, 0, BF16, BF16, BF16, 2, 1, 2, 2,
      DATA_NORMAL, 0, 0, "ELWSUB, FP32 Dst" },
    { "mul-lofi-dst16", EW, TTK_ELW_MUL, 0, 0, BF16, BF16, BF16,
      2, 1, 2, 2, DATA_NORMAL, 0, 0, "ELWMUL LoFi, 16-bit Dst" },
    { "mul-lofi-dst32", EW, TTK_ELW_MUL, 1, 0, BF16, BF16, BF16,
      2, 1, 2, 2, DATA_NORMAL, 0, 0, "ELWMUL LoFi, FP32 Dst" },
    { "mul-hifi4-dst16", EW, TTK_ELW_MUL, 0, 4, BF16, BF16, BF16,
      2, 1, 2, 2, DATA_NORMAL, 0, 0, "ELWMUL HiFi4, 16-bit Dst" },
    { "mul-hifi4-dst32", EW, TTK_ELW_MUL, 1, 4, BF16, FP32, FP32,
      2, 1, 2, 2, DATA_NORMAL, 0, 0, "ELWMUL HiFi4, FP32 Dst, Float32" },
    { "mul-hifi4-dst32-bf16out", EW, TTK_ELW_MUL, 1, 4, BF16, BF16, BF16,
      2, 1, 2, 2, DATA_NORMAL, 0, 0,
      "ELWMUL HiFi4, FP32 Dst, packer rounds to BF16 (ties away)" },
    { "mul-lofi-vs-hifi4", EW, TTK_ELW_MUL, 1, 0, BF16, FP32, FP32,
      1, 1, 2, 1, DATA_NORMAL, CASE_NEGATIVE, 4,
      "ELWMUL LoFi result against the HiFi4 reference: must fail" },
    { "matmul-lofi-dst16", MM, 0, 0, 0, BF16, BF16, BF16, 2, 2, 2, 1,
      DATA_NORMAL, 0, 0, "64x64x64 matmul LoFi, 16-bit Dst" },
    { "matmul-hifi4-dst16", MM, 0, 0, 4, BF16, BF16, BF16, 2, 2, 2, 2,
      DATA_NORMAL, 0, 0, "64x64x64 matmul HiFi4, 16-bit Dst" },
    { "matmul-lofi-dst32", MM, 0, 1, 0, BF16, FP32, FP32, 2, 2, 2, 1,
      DATA_NORMAL, 0, 0, "64x64x64 matmul LoFi, FP32 Dst, Float32" },
    { "matmul-hifi4-dst32", MM, 0, 1, 4, BF16, FP32, FP32, 2, 2, 2, 2,
      DATA_NORMAL, 0, 0, "64x64x64 matmul HiFi4, FP32 Dst, Float32" },
    { "matmul-hifi2-dst32-bf16out", MM, 0, 1, 2, BF16, BF16, BF16,
      1, 3, 2, 2, DATA_NORMAL, 0, 0, "32x96x64 matmul HiFi2, FP32 Dst" },
    { "matmul-lofi-vs-hifi4", MM, 0, 1, 0, BF16, FP32, FP32, 2, 2, 2, 1,
      DATA_NORMAL, CASE_NEGATIVE, 4,
      "matmul LoFi result against the HiFi4 reference: must fail" },
    { "reduce-row-sum-dst16", RD, TTK_REDUCE_ROW | TTK_REDUCE_SUM, 0, 4,
      BF16, BF16, BF16, 1, 1, 2, 1, DATA_NORMAL, 0, 0,
      "row sums (GAPOOL HiFi4 on haloized faces), 16-bit Dst" },
    { "reduce-row-sum-dst32", RD, TTK_REDUCE_ROW | TTK_REDUCE_SUM, 1, 4,
      BF16, BF16, BF16, 1, 1, 2, 2, DATA_NORMAL, 0, 0,
      "row sums, FP32 Dst" },
    { "reduce-col-sum-dst16", RD, TTK_REDUCE_COL | TTK_REDUCE_SUM, 0, 4,
      BF16, BF16, BF16, 1, 1, 2, 2, DATA_NORMAL, 0, 0,
      "column sums (GAPOOL HiFi4), 16-bit Dst" },
    { "reduce-col-sum-lofi-dst32", RD, TTK_REDUCE_COL | TTK_REDUCE_SUM, 1,
      0, BF16, FP32, FP32, 1, 1, 2, 1, DATA_NORMAL, 0, 0,
      "column sums (GAPOOL LoFi), FP32 Dst, Float32" },
    { "reduce-col-max-dst16", RD, TTK_REDUCE_COL | TTK_REDUCE_MAX, 0, 0,
      BF16, BF16, BF16, 1, 1, 2, 2, DATA_NONZERO, 0, 0,
      "column maxima (GMPOOL), 16-bit Dst" },
    { "reduce-col-max-dst32", RD, TTK_REDUCE_COL | TTK_REDUCE_MAX, 1, 0,
      BF16, BF16, BF16, 1, 1, 2, 1, DATA_NONZERO, 0, 0,
      "column maxima (GMPOOL), FP32 Dst" },
    { "reduce-row-max-dst16", RD, TTK_REDUCE_ROW | TTK_REDUCE_MAX, 0, 0,
      BF16, BF16, BF16, 1, 1, 2, 2, DATA_NONZERO, 0, 0,
      "row maxima (GMPOOL on haloized faces), 16-bit Dst" },
    { "transpose-dst16", TR, 0, 0, 0, BF16, BF16, BF16, 2, 1, 2, 2,
      DATA_SPECIAL, 0, 0, "haloize transpose + datacopy, 16-bit Dst" },
    { "transpose-dst32", TR, 0, 1, 0, BF16, BF16, BF16, 1, 1, 2, 2,
      DATA_NORMAL, 0, 0, "haloize transpose + datacopy, FP32 Dst" },
    { "tilize-dst16", TZ, 0, 0, 0, BF16, BF16, BF16, 2, 1, 3, 2,
      DATA_SPECIAL, 0, 0, "row-major 64x96 -> tiles (tileize unpack, "
      "interleaved pack), 16-bit Dst" },
    { "tilize-dst32", TZ, 0, 1, 0, BF16, BF16, BF16, 2, 1, 2, 2,
      DATA_NORMAL, 0, 0, "row-major 64x64 -> tiles, FP32 Dst" },
    { "untilize-dst16", UZ, 0, 0, 0, BF16, BF16, BF16, 3, 1, 3, 3,
      DATA_SPECIAL, 0, 0, "tiles -> row-major 96x96 (strided pack), "
      "16-bit Dst" },
    { "untilize-dst32-fp32out", UZ, 0, 1, 0, BF16, FP32, FP32, 2, 1, 2, 2,
      DATA_NORMAL, 0, 0, "tiles -> row-major 64x64 Float32, FP32 Dst" },
    { "bfp8-roundtrip", DC, 0, 0, 0, BF16, BF16, BFP8, 2, 1, 2, 2,
      DATA_WIDE, CASE_ROUNDTRIP, 0,
      "BF16 -> Bfp8_b (pack), Bfp8_b -> BF16 (unpack)" },
    { "pack-fp32-dst32", EW, TTK_ELW_ADD, 1, 0, BF16, FP32, FP32,
      2, 1, 2, 2, DATA_SPECIAL, 0, 0,
      "Float32 out from FP32 Dst (ELWADD, special values)" },

    /* integer math: Int8 in, INT32 Dst, Int8 or Int32 out (tt-ref exact) */
    { "int8-copy-int32", DC, 0, 1, 0, INT8, INT32, INT32, 1, 1, 2, 2,
      DATA_INT8, 0, 0, "Int8 -> ELWADD(A, 0) -> INT32 Dst -> Int32" },
    { "int8-copy-int8", DC, 0, 1, 0, INT8, INT8, INT8, 1, 1, 2, 2,
      DATA_INT8, 0, 0, "Int8 -> INT32 Dst -> Int8" },
    { "int8-add-int8", EW, TTK_ELW_ADD, 1, 0, INT8, INT8, INT8, 1, 1, 2, 2,
      DATA_INT8, 0, 0, "Int8 ELWADD, INT32 Dst, Int8 out (saturating)" },
    { "int8-add-int32", EW, TTK_ELW_ADD, 1, 0, INT8, INT32, INT32,
      1, 1, 2, 2, DATA_INT8, 0, 0, "Int8 ELWADD, INT32 Dst, Int32 out" },
    { "int8-sub-int8", EW, TTK_ELW_SUB, 1, 0, INT8, INT8, INT8, 1, 1, 2, 2,
      DATA_INT8, 0, 0, "Int8 ELWSUB, INT32 Dst, Int8 out" },
    { "int8-mul-lofi-int32", EW, TTK_ELW_MUL, 1, 0, INT8, INT32, INT32,
      1, 1, 2, 2, DATA_INT8, 0, 0,
      "Int8 ELWMUL LoFi (phase 0 slices only), Int32 out" },
    { "int8-mul-hifi4-int32", EW, TTK_ELW_MUL, 1, 4, INT8, INT32, INT32,
      1, 1, 2, 2, DATA_INT8, 0, 0, "Int8 ELWMUL HiFi4 (exact), Int32 out" },
    { "int8-mul-hifi4-int8", EW, TTK_ELW_MUL, 1, 4, INT8, INT8, INT8,
      1, 1, 2, 2, DATA_INT8, 0, 0, "Int8 ELWMUL HiFi4, Int8 out" },

    /*
     * The Src data-valid hand-off with the instructions arriving one store
     * at a time: SrcA by UNPACR, SrcB zeroed and handed over by UNPACR_NOP,
     * released together by the math thread's SETRWC (--stress runs them
     * many times)
     */
    { "datacopy-words-dst16", DC, 0, 0, 0, BF16, BF16, BF16, 1, 1, 4, 4,
      DATA_NORMAL, CASE_WORDS, 0,
      "datacopy, every MOP pushed word by word, 16-bit Dst",
      .ttsim_aborts = WORDS_TTSIM },
    { "transpose-words-dst16", TR, 0, 0, 0, BF16, BF16, BF16, 1, 1, 4, 4,
      DATA_NORMAL, CASE_WORDS, 0,
      "transpose + datacopy, MOPs pushed word by word, 16-bit Dst",
      .ttsim_aborts = WORDS_TTSIM },
    { "add-words-dst32", EW, TTK_ELW_ADD, 1, 0, BF16, BF16, BF16, 1, 1, 4, 4,
      DATA_NORMAL, CASE_WORDS, 0,
      "ELWADD, MOPs pushed word by word, FP32 Dst",
      .ttsim_aborts = WORDS_TTSIM },

    /* vector unit: tt-llk's eltwise unary SFPU kernels after datacopy */
    SFPU("exp-dst16", TTK_SFPU_EXP, 0, BF16, 2, DATA_RANGE, -8, 8, 0, 0,
         "exp, approximate (Schraudolph), x in [-8, 8], 16-bit Dst"),
    SFPU("exp-dst32", TTK_SFPU_EXP, 1, BF16, 2, DATA_RANGE, -8, 8, 0, 0,
         "exp, approximate, FP32 Dst, packed to BF16"),
    SFPU("exp-dst32-fp32out", TTK_SFPU_EXP, 1, FP32, 1, DATA_RANGE, -8, 8,
         0, 0, "exp, approximate, FP32 Dst, Float32 out"),
    SFPU("exp-words-dst16", TTK_SFPU_EXP, 0, BF16, 4, DATA_RANGE, -8, 8, 0,
         CASE_WORDS, "exp after datacopy, MOPs pushed word by word, 16-bit "
         "Dst",
         .ttsim_aborts = WORDS_TTSIM),
    SFPU("exp-perturbed", TTK_SFPU_EXP, 1, BF16, 1, DATA_RANGE, -8, 8, 0,
         CASE_NEGATIVE, "exp, every output 8 BF16 units up: must fail",
         .perturb = 8),
    SFPU("exp-macro-dst16", TTK_SFPU_EXP | TTK_SFPU_MACRO, 0, BF16, 2,
         DATA_RANGE, -8, 8, 0, CASE_MACRO,
         "exp, approximate, SFPLOADMACRO form (tt-llk's default)",
         .ttsim_aborts = LOADMACRO),
    SFPU("exp-macro-dst32", TTK_SFPU_EXP | TTK_SFPU_MACRO, 1, FP32, 1,
         DATA_RANGE, -8, 8, 0, CASE_MACRO,
         "exp, approximate, SFPLOADMACRO form, FP32 Dst, Float32 out",
         .ttsim_aborts = LOADMACRO),
    SFPU("exp-precise-dst16", TTK_SFPU_EXP_PRECISE, 0, BF16, 1, DATA_RANGE,
         -8, 8, 0, 0, "exp, APPROXIMATION_MODE=false (polynomial, "
         "squarings, reciprocal), 16-bit Dst"),
    SFPU("exp-precise-dst32", TTK_SFPU_EXP_PRECISE, 1, FP32, 1, DATA_RANGE,
         -8, 8, 0, 0, "exp, APPROXIMATION_MODE=false, FP32 Dst, Float32"),
    SFPU("recip-dst16", TTK_SFPU_RECIP, 0, BF16, 2, DATA_NONZERO, 0, 0, 0,
         0, "reciprocal, 8-bit (SFPARECIP + rounding fix), 16-bit Dst"),
    SFPU("recip-dst16-special", TTK_SFPU_RECIP, 0, BF16, 1,
         DATA_ZERO_INF_NAN, 0, 0, 0, 0,
         "reciprocal, 16-bit Dst, with +-0, +-Inf and NaN"),
    SFPU("recip-dst32", TTK_SFPU_RECIP, 1, FP32, 2, DATA_NONZERO, 0, 0, 0,
         0, "reciprocal, 24-bit (SFPARECIP + e^3 + e^2 + e), FP32 Dst"),
    SFPU("recip-vs-exp", TTK_SFPU_RECIP, 1, FP32, 1, DATA_NONZERO, 0, 0, 0,
         CASE_NEGATIVE, "reciprocal against exp's reference: must fail",
         .ref_sub = REF(TTK_SFPU_EXP)),
    SFPU("recip-macro-dst16", TTK_SFPU_RECIP | TTK_SFPU_MACRO, 0, BF16, 2,
         DATA_NONZERO, 0, 0, 0, CASE_MACRO,
         "reciprocal, 8-bit, SFPLOADMACRO form (tt-llk's default)",
         .ttsim_aborts = LOADMACRO),
    SFPU("recip-macro-dst32", TTK_SFPU_RECIP | TTK_SFPU_MACRO, 1, FP32, 2,
         DATA_NONZERO, 0, 0, 0, CASE_MACRO,
         "reciprocal, 24-bit, SFPLOADMACRO form with its replay",
         .ttsim_aborts = LOADMACRO),
    SFPU("sqrt-dst16", TTK_SFPU_SQRT, 0, BF16, 2, DATA_POSITIVE, 0, 0, 0, 0,
         "sqrt (SQRT_23-bits), rounded to BF16, 16-bit Dst"),
    SFPU("sqrt-dst32", TTK_SFPU_SQRT, 1, FP32, 2, DATA_POSITIVE, 0, 0, 0, 0,
         "sqrt, FP32 Dst, Float32 out"),
    SFPU("sqrt-perturbed", TTK_SFPU_SQRT, 1, FP32, 1, DATA_POSITIVE, 0, 0, 0,
         CASE_NEGATIVE, "sqrt, every output 4 FP32 units up: must fail",
         .perturb = 4),
    SFPU("gelu-dst16", TTK_SFPU_GELU, 0, BF16, 2, DATA_RANGE, -5, 5, 0, 0,
         "gelu, approximate (SFPLUTFP32 table 1), 16-bit Dst"),
    SFPU("gelu-dst32", TTK_SFPU_GELU, 1, FP32, 2, DATA_RANGE, -5, 5, 0, 0,
         "gelu, approximate, FP32 Dst, Float32 out"),
    SFPU("sigmoid-dst16", TTK_SFPU_SIGMOID, 0, BF16, 2, DATA_RANGE, -6, 6,
         0, 0, "sigmoid (SFPLUTFP32 table 2, sign kept), 16-bit Dst",
         .ttsim_aborts = SFPLUTFP32_7),
    SFPU("sigmoid-dst32", TTK_SFPU_SIGMOID, 1, FP32, 2, DATA_RANGE, -6, 6,
         0, 0, "sigmoid, FP32 Dst, Float32 out",
         .ttsim_aborts = SFPLUTFP32_7),
    SFPU("relu-dst16", TTK_SFPU_RELU_MIN, 0, BF16, 2, DATA_RANGE_SPECIAL,
         -8, 8, 0, 0, "relu = relu_min(0), specials, 16-bit Dst"),
    SFPU("relu-dst32", TTK_SFPU_RELU_MIN, 1, FP32, 2, DATA_RANGE_SPECIAL,
         -8, 8, 0, 0, "relu = relu_min(0), specials, FP32 Dst, Float32"),
    SFPU("relu-min-dst16", TTK_SFPU_RELU_MIN, 0, BF16, 2, DATA_RANGE_SPECIAL,
         -8, 8, F32_5, 0, "relu_min(5.0), specials, 16-bit Dst"),
    SFPU("relu-max-dst16", TTK_SFPU_RELU_MAX, 0, BF16, 2, DATA_RANGE_NONAN,
         -8, 8, F32_5, 0, "relu_max(5.0), specials, 16-bit Dst"),
    SFPU("relu-max-dst32", TTK_SFPU_RELU_MAX, 1, FP32, 2, DATA_RANGE_NONAN,
         -8, 8, F32_5, 0, "relu_max(5.0), specials, FP32 Dst, Float32"),
    SFPU("lrelu-dst16", TTK_SFPU_LRELU, 0, BF16, 2, DATA_RANGE_SPECIAL,
         -8, 8, F32_0_01, 0, "leaky relu (slope 0.01), specials, 16-bit Dst"),
    SFPU("lrelu-dst32", TTK_SFPU_LRELU, 1, FP32, 2, DATA_RANGE_SPECIAL,
         -8, 8, F32_0_01, 0, "leaky relu (slope 0.01), FP32 Dst, Float32"),
    SFPU("fp32-to-int32", TTK_SFPU_FP32_TO_INT32, 1, INT32, 2, DATA_INT,
         0, 0, 0, 0, "typecast fp32 -> int32 (two's complement), Int32 out"),
    SFPU("fp32-to-int32-vs-sm", TTK_SFPU_FP32_TO_INT32, 1, INT32, 1,
         DATA_INT, 0, 0, 0, CASE_NEGATIVE,
         "fp32 -> int32 against a sign-magnitude reference: must fail",
         .ref_sub = REF(TT_REF_SFPU_FP32_TO_SM32)),
    SFPU("int32-roundtrip", TTK_SFPU_INT32_ROUNDTRIP, 1, FP32, 2, DATA_INT,
         0, 0, 0, 0, "typecast fp32 -> int32 -> fp32, Float32 out"),
    SFPU("int32-roundtrip-bf16out", TTK_SFPU_INT32_ROUNDTRIP, 1, BF16, 2,
         DATA_INT, 0, 0, 0, 0, "typecast fp32 -> int32 -> fp32, BF16 out"),
    SFPU("int32-roundtrip-macro", TTK_SFPU_INT32_ROUNDTRIP | TTK_SFPU_MACRO,
         1, FP32, 2, DATA_INT, 0, 0, 0, CASE_MACRO,
         "fp32 -> int32, then the SFPLOADMACRO int32 -> fp32",
         .ttsim_aborts = LOADMACRO),
    SFPU("topk-ph0-dst16", TTK_SFPU_TOPK, 0, BF16, 4, DATA_TOPK, 0, 0, 0, 0,
         "bitonic topk phase 0 (SFPSWAP, indices), 16-bit Dst"),
    SFPU("topk-ph01-dst16", TTK_SFPU_TOPK, 0, BF16, 4, DATA_TOPK, 0, 0, 1, 0,
         "bitonic topk phases 0-1, 16-bit Dst"),
    SFPU("topk-ph01-dst32", TTK_SFPU_TOPK, 1, BF16, 4, DATA_TOPK, 0, 0, 1, 0,
         "bitonic topk phases 0-1, FP32 Dst (INT32 indices)"),
    SFPU("topk-ph01-vs-ph0", TTK_SFPU_TOPK, 0, BF16, 4, DATA_TOPK, 0, 0, 1,
         CASE_NEGATIVE, "phases 0-1 against the phase 0 reference: must "
         "fail", .ref_sub = REF(TTK_SFPU_TOPK), .ref_arg = 0),
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

_Static_assert((int)TTK_SFPU_EXP == (int)TT_REF_SFPU_EXP &&
               (int)TTK_SFPU_RECIP == (int)TT_REF_SFPU_RECIP &&
               (int)TTK_SFPU_RELU_MIN == (int)TT_REF_SFPU_RELU_MIN &&
               (int)TTK_SFPU_TOPK == (int)TT_REF_SFPU_TOPK &&
               TTK_FMT_INT32 == TT_REF_INT32,
               "tt-ref numbers the SFPU operations as the firmware does");

static FILE *dump_file;

/* Is case @name in the comma-separated list @only (all when NULL)? */
static bool case_named(const char *only, const char *name)
{
    size_t n = strlen(name);

    for (const char *p = only; p; p = strchr(p, ',') ? strchr(p, ',') + 1
                                                      : NULL) {
        if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == 0)) {
            return true;
        }
    }
    return !only;
}

/*
 * Does case @c run: named with --case, or (without --case) not an SFPU
 * case, or an SFPU case with --sfpu (an SFPLOADMACRO one with
 * --sfpu-macro)
 */
static bool case_selected(const Opts *o, const Case *c)
{
    if (o->only) {
        return case_named(o->only, c->name);
    }
    if (!(c->flags & CASE_SFPU)) {
        return true;
    }
    return c->flags & CASE_MACRO ? o->sfpu_macro : o->sfpu;
}

/* ---------------------------------------------------------- utilities -- */

#define die(...)    tt_host_die("tt-kernel-run", __VA_ARGS__)

static void *xmalloc(size_t n)
{
    return tt_host_xcalloc("tt-kernel-run", n);
}

/* xorshift64*: operands depend only on --seed and the case name */
static uint64_t rng_state;

static uint32_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (rng_state * 0x2545f4914f6cdd1dull) >> 32;
}

static void rng_seed(uint64_t seed, const char *name)
{
    rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
    for (const char *s = name; *s; s++) {
        rng_state = (rng_state ^ (uint8_t)*s) * 0x100000001b3ull;
    }
    if (!rng_state) {
        rng_state = 1;
    }
}

/* ------------------------------------------------------- operands -- */

static uint16_t rand_bf16(int emin, int emax, bool neg)
{
    int e = 127 + emin + (int)(rng() % (unsigned)(emax - emin + 1));

    return (neg && (rng() & 1)) << 15 | e << 7 | (rng() & 0x7f);
}

static uint16_t rand_special(void)
{
    static const uint16_t sp[] = {
        0x7f80, 0xff80,         /* +-Inf */
        0x7fc0, 0xffc1,         /* NaN */
        0x0000, 0x8000,         /* +-0 */
        0x0001, 0x807f,         /* denormals */
        0x7f7f, 0xff7f,         /* largest finite */
        0x0080, 0x8080,         /* smallest normal */
    };

    return sp[rng() % (sizeof(sp) / sizeof(sp[0]))];
}

/* Uniform in [@lo, @hi], rounded to BF16 */
static uint16_t rand_range(double lo, double hi)
{
    return tt_ref_bf16_round_even(lo + (hi - lo) * (rng() / 4294967296.0));
}

static uint16_t rand_special_nonan(void)
{
    uint16_t h;

    do {
        h = rand_special();
    } while ((h & 0x7fff) > 0x7f80);
    return h;
}

static void gen_tiles(uint16_t *v, int ntiles, int kind, double lo,
                      double hi)
{
    static const uint16_t zero_inf_nan[] = {
        0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc1,
    };

    for (int i = 0; i < ntiles * TT_REF_TILE; i++) {
        uint32_t r = rng() % 64;

        switch (kind) {
        case DATA_RANGE:
            v[i] = rand_range(lo, hi);
            break;
        case DATA_RANGE_SPECIAL:
            v[i] = r < 6 ? rand_special() : rand_range(lo, hi);
            break;
        case DATA_RANGE_NONAN:
            v[i] = r < 6 ? rand_special_nonan() : rand_range(lo, hi);
            break;
        case DATA_INT:
            v[i] = r < 3 ? zero_inf_nan[2 + r] : rand_bf16(-2, 33, true);
            break;
        case DATA_ZERO_INF_NAN:
            v[i] = r < 12 ? zero_inf_nan[r % 6] : rand_bf16(-3, 3, true);
            break;
        case DATA_TOPK:
            /* two tiles of values, then two of distinct normal "indices" */
            v[i] = i < 2 * TT_REF_TILE ? rand_bf16(-3, 3, true)
                                       : 0x3f80 + i - 2 * TT_REF_TILE;
            break;
        case DATA_SPECIAL:
            v[i] = r < 6 ? rand_special() : rand_bf16(-3, 3, true);
            break;
        case DATA_POSITIVE:
            v[i] = rand_bf16(-3, 3, false);
            break;
        case DATA_NONZERO:
            v[i] = rand_bf16(-3, 3, true);
            break;
        case DATA_WIDE:
            v[i] = r == 0 ? 0 : rand_bf16(-12, 4, true);
            break;
        case DATA_INT8:
            /* the edges often: 0, -0, +-127, +-1 */
            v[i] = r < 6 ? (const uint8_t[]){ 0, 0x80, 0x7f, 0xff, 1,
                                              0x81 }[r] : rng() & 0xff;
            break;
        default:
            v[i] = r == 0 ? 0 : rand_bf16(-3, 3, true);
            break;
        }
    }
}

/*
 * The reduce scaler tile: row 0 of every face, the rest 0, as tt-metal
 * builds it.  Maxima need 1.0 there (ttsim accepts nothing else); sums
 * get a different weight per datum, so that the reference also checks
 * which scaler datum meets which input datum.
 */
static void gen_scaler(uint16_t *v, bool max)
{
    for (int i = 0; i < TT_REF_TILE; i++) {
        v[i] = (i % 256) >= 16 ? 0 : max ? 0x3f80 : rand_bf16(-1, 0, false);
    }
}

static uint32_t tile_bytes(int fmt)
{
    return fmt == FP32 || fmt == INT32 ? 4096 :
           fmt == BFP8 ? TT_REF_BFP8_TILE : fmt == INT8 ? 1024 : 2048;
}

/* Bytes of one output datum (BFP8: the datum byte) */
static uint32_t datum_size(int fmt)
{
    return fmt == FP32 || fmt == INT32 ? 4 : fmt == BFP8 || fmt == INT8 ? 1
                                                                       : 2;
}

/* ------------------------------------------------------- the library -- */

/*
 * dlopen @path; with @copy, from an anonymous copy, so that a second
 * instance of the same library keeps its own state (as tt-umd's
 * copy_sim_binary does).
 */
static bool same_file(const char *a, const char *b);

/*
 * Is @path Tenstorrent's ttsim?  The file $TTSIM_LIB names, or a library
 * that carries ttsim's error categories (src/common.h TTSimErrorCategory:
 * it prints them as it exits on what it does not implement).
 */
static bool lib_is_ttsim(const char *path)
{
    static const char mark[] = "UnimplementedFunctionality";
    const char *env = getenv("TTSIM_LIB");
    size_t n;
    uint8_t *p;
    bool found;

    if (env && *env && same_file(env, path)) {
        return true;
    }
    p = tt_host_read_file(path, 1u << 30, &n);
    found = p && memmem(p, n, mark, sizeof(mark) - 1);
    free(p);
    return found;
}

static void lib_open(Lib *l, const char *path, bool copy)
{
    if (tt_host_lib_open(&l->h, path, copy, stderr, "tt-kernel-run: ")) {
        exit(EXIT_FAILURE);
    }
    l->ttsim = lib_is_ttsim(path);
}

static void l1_write(Lib *l, uint32_t addr, const void *p, uint32_t n)
{
    l->h.mem_wr(tt_host_win(&l->h, WIN_L1, addr), p, n);
}

static void l1_read(Lib *l, uint32_t addr, void *p, uint32_t n)
{
    l->h.mem_rd(tt_host_win(&l->h, WIN_L1, addr), p, n);
}

static void reg_write(Lib *l, uint32_t addr, uint32_t v)
{
    tt_host_wr32(&l->h, tt_host_win(&l->h, WIN_REGS, addr), v);
}

static uint32_t reg_read(Lib *l, uint32_t addr)
{
    return tt_host_rd32(&l->h, tt_host_win(&l->h, WIN_REGS, addr));
}

/*
 * Callbacks, init, PCI id and BAR0 (tt-umd TTSimTTDevice's order); the
 * tile's windows; the image loaded with every core held.
 */
static bool lib_start(Lib *l, const Opts *o, const uint8_t *fw, size_t fwn)
{
    uint32_t id = tt_host_start(&l->h, tt_host_no_dma_rd, tt_host_no_dma_wr);
    uint8_t *back;
    bool same;

    if (!tt_ok(id == TT_HOST_BH_ID && l->h.bar0, "%s: Blackhole 1e52:b140 "
               "(id 0x%08x), BAR0 at 0x%llx", l->h.path, id,
               (unsigned long long)l->h.bar0)) {
        return false;
    }
    tt_host_tlb_unicast(&l->h, WIN_L1, o->tile_x, o->tile_y, 0);
    tt_host_tlb_unicast(&l->h, WIN_REGS, o->tile_x, o->tile_y, SOFT_RESET_0);
    reg_write(l, SOFT_RESET_0, HOLD_ALL);
    reg_write(l, TRISC_RESET_PC_OVERRIDE, 0);
    l1_write(l, 0, fw, fwn);
    back = xmalloc(fwn);
    l1_read(l, 0, back, fwn);
    same = !memcmp(back, fw, fwn);
    free(back);
    return tt_ok(same && reg_read(l, SOFT_RESET_0) == HOLD_ALL,
                 "%s: %zu-byte kernel image in L1 of tile (%d, %d), cores "
                 "held", l->h.path, fwn, o->tile_x, o->tile_y);
}

/* ------------------------------------------------------ one kernel -- */

typedef struct Run {
    TTKParams p;
    const uint16_t *a;          /* BF16 operands, or raw L1 bytes (BFP8) */
    const uint8_t *a_raw, *b_raw;   /* L1 bytes, if not BF16 */
    const uint16_t *b;
    uint8_t *bytes;             /* case_operands(): Int8 operands, owned */
    uint32_t a_bytes, b_bytes, c_bytes;
    uint8_t *out;               /* c_bytes read back */
    double seconds;
    char why[160];
} Run;

static const char *core_name[3] = { "TRISC0 (unpack)", "TRISC1 (math)",
                                    "TRISC2 (pack)" };

/*
 * The parameter block's operand and result addresses, packed in L1 (page
 * aligned); false if they do not fit
 */
static bool run_layout(Run *r)
{
    r->p.magic = TTK_MAGIC;
    r->p.addr_a = TTK_DATA_ADDR;
    r->p.addr_b = r->p.addr_a + ((r->a_bytes + 0xfff) & ~0xfffu);
    r->p.addr_c = r->p.addr_b + ((r->b_bytes + 0xfff) & ~0xfffu);
    return r->p.addr_c + r->c_bytes <= TTK_DATA_END;
}

/*
 * Load operands and block, release the TRISCs, poll until all three are
 * done (or the timeout names the busy ones), hold them, read C back.
 */
static bool run_kernel(Lib *l, const Opts *o, Run *r)
{
    TTKParams st;
    uint8_t *poison;
    double t0, deadline;
    bool done = false;

    r->p.run_id = ++l->run_id;
    if (!run_layout(r)) {
        snprintf(r->why, sizeof(r->why), "operands do not fit in L1");
        return false;
    }
    reg_write(l, SOFT_RESET_0, HOLD_ALL);
    if (r->a_raw) {
        l1_write(l, r->p.addr_a, r->a_raw, r->a_bytes);
    } else {
        l1_write(l, r->p.addr_a, r->a, r->a_bytes);
    }
    if (r->b_bytes) {
        l1_write(l, r->p.addr_b, r->b_raw ? (const void *)r->b_raw : r->b,
                 r->b_bytes);
    }
    poison = xmalloc(r->c_bytes);
    memset(poison, POISON, r->c_bytes);
    l1_write(l, r->p.addr_c, poison, r->c_bytes);
    free(poison);
    l1_write(l, TTK_PARAMS_ADDR, &r->p, sizeof(r->p));

    t0 = tt_host_now();
    deadline = t0 + o->timeout;
    reg_write(l, SOFT_RESET_0, RUN_TRISCS);
    while (!done && tt_host_now() < deadline) {
        l->h.clock(o->clocks);
        l1_read(l, TTK_PARAMS_ADDR, &st, sizeof(st));
        done = st.done[0] == TTK_DONE && st.done[1] == TTK_DONE &&
               st.done[2] == TTK_DONE;
    }
    r->seconds = tt_host_now() - t0;
    reg_write(l, SOFT_RESET_0, HOLD_ALL);
    l->wedged |= !done;
    l1_read(l, TTK_PARAMS_ADDR, &st, sizeof(st));
    l1_read(l, r->p.addr_c, r->out, r->c_bytes);
    if (!done) {
        int n = snprintf(r->why, sizeof(r->why), "timeout after %.0f s; busy:",
                         o->timeout);

        for (int i = 0; i < 3; i++) {
            if (st.done[i] != TTK_DONE && n < (int)sizeof(r->why)) {
                n += snprintf(r->why + n, sizeof(r->why) - n,
                              " %s at stage 0x%x (error 0x%x)", core_name[i],
                              st.stage[i], st.error[i]);
            }
        }
        return false;
    }
    for (int i = 0; i < 3; i++) {
        if (st.error[i]) {
            snprintf(r->why, sizeof(r->why), "%s reports error 0x%x",
                     core_name[i], st.error[i]);
            return false;
        }
    }
    if (dump_file) {
        fwrite(r->out, 1, r->c_bytes, dump_file);
    }
    return true;
}

/* ------------------------------------------------------- the cases -- */

static void fill_params(const Case *c, TTKParams *p, int fmt_in)
{
    memset(p, 0, sizeof(*p));
    p->op = c->op;
    p->sub_op = c->sub_op;
    p->dst_fp32 = c->dst_fp32;
    p->fidelity = c->fidelity;
    p->fmt_a = p->fmt_b = fmt_in;
    p->unpack_out_a = p->unpack_out_b = fmt_in;
    p->pack_src = c->pack_src;
    p->fmt_out = c->fmt_out;
    p->mt = c->mt;
    p->kt = c->kt;
    p->nt = c->nt;
    p->block = c->block;
    p->sfpu_arg = c->arg;
    p->push_words = !!(c->flags & CASE_WORDS);
    memcpy(p->inject, c->inject, sizeof(p->inject));
    memcpy(p->ninject, c->ninject, sizeof(p->ninject));
}

/* The reference for @c on BF16 operands @a, @b (with @pp's formats) */
static void reference(const Case *c, const TTRefPipe *pp, const uint16_t *a,
                      const uint16_t *b, TTRefExpect *exp)
{
    int ntiles = c->mt * c->nt;

    if (c->fmt_in == INT8) {
        tt_ref_int(pp, c->op == TTK_OP_ELTWISE ? c->sub_op : -1, a, b, ntiles,
                   exp);
        return;
    }
    switch (c->op) {
    case TTK_OP_DATACOPY:
        tt_ref_datacopy(pp, a, ntiles, exp);
        break;
    case TTK_OP_TRANSPOSE:
        tt_ref_transpose(pp, a, ntiles, exp);
        break;
    case TTK_OP_TILIZE:
        tt_ref_tilize(pp, a, c->mt, c->nt, exp);
        break;
    case TTK_OP_UNTILIZE:
        tt_ref_untilize(pp, a, c->mt, c->nt, exp);
        break;
    case TTK_OP_ELTWISE:
        tt_ref_eltwise(pp, c->sub_op, a, b, ntiles, exp);
        break;
    case TTK_OP_MATMUL:
        tt_ref_matmul(pp, a, b, c->mt, c->kt, c->nt, exp);
        break;
    case TTK_OP_SFPU: {
        /* a negative case may check against another op's reference */
        bool other = (c->flags & CASE_NEGATIVE) && c->ref_sub;

        tt_ref_sfpu(pp, other ? c->ref_sub - 1 : c->sub_op & ~TTK_SFPU_MACRO,
                    other ? c->ref_arg : c->arg, a, ntiles, exp);
        break;
    }
    default:
        tt_ref_reduce(pp, c->sub_op & TTK_REDUCE_COL,
                      c->sub_op & TTK_REDUCE_MAX, a, b, ntiles, exp);
        break;
    }
}

static const char *fmt_name(int f)
{
    return f == FP32 ? "Float32" : f == BFP8 ? "Bfp8_b" :
           f == INT32 ? "Int32" : f == INT8 ? "Int8" : "Float16_b";
}

/* Tile, row and column of datum @i of a tiled output (L1 face order) */
static void tile_rc(int i, int *t, int *r, int *col)
{
    int pos = i % TT_REF_TILE, face = pos / 256;

    *t = i / TT_REF_TILE;
    *r = (face / 2) * 16 + pos % 256 / 16;
    *col = (face % 2) * 16 + pos % 16;
}

/* One TAP line for a result checked against the reference */
static bool report(const Case *c, const char *label, const TTRefPipe *pp,
                   const TTRefExpect *exp, int ntiles, const uint8_t *out,
                   bool negative, const uint16_t *a)
{
    TTRefStats st;
    bool all_exact = true, bounded = false;

    for (int i = 0; i < ntiles * TT_REF_TILE; i++) {
        all_exact &= exp[i].exact;
        bounded |= !exp[i].exact && exp[i].bound > 0;
    }
    tt_ref_check(pp, exp, ntiles, out, &st);
    if (negative) {
        tt_ok(st.bad > 0, "%s: %s (%d of %d datums outside the bound)",
              c->name, label, st.bad, st.count);
    } else {
        tt_ok(!st.bad, "%s: %s %s (%d datums, %s)", c->name, label,
              all_exact ? "bit-exact" : bounded ? "within bound"
                                                : "exact up to the sign of 0",
              st.count, fmt_name(pp->out_fmt));
    }
    if (!bounded) {
        tt_diag("%s: max error %.3g ULP (reference exact)", c->name,
                st.max_ulp);
    } else {
        tt_diag("%s: max error %.3g ULP, max error/bound %.3g", c->name,
                st.max_ulp, st.max_ratio);
    }
    if (st.bad && !negative && c->op == TTK_OP_UNTILIZE) {
        int i = st.first_bad;

        tt_diag("%s: %d bad; first at row %d column %d: got 0x%x, expected "
                "0x%x (%.9g +- %.3g)", c->name, st.bad, i / (32 * c->nt),
                i % (32 * c->nt), st.bad_got, st.bad_want, exp[i].val,
                exp[i].bound);
    } else if (st.bad && !negative) {
        int i = st.first_bad, t, rr, cc;

        tile_rc(i, &t, &rr, &cc);
        tt_diag("%s: %d bad; first at tile %d (%d, %d): got 0x%x, expected "
                "0x%x (%.9g +- %.3g)", c->name, st.bad, t, rr, cc, st.bad_got,
                st.bad_want, exp[i].val, exp[i].bound);
        if (c->op == TTK_OP_SFPU && c->sub_op != TTK_SFPU_TOPK) {
            tt_diag("%s: its input: BF16 0x%04x (%.9g)", c->name, a[i],
                    tt_ref_bf16_value(a[i]));
        }
    }
    return negative ? st.bad > 0 : !st.bad;
}

/* Everything a case produced on one library, for --compare-lib */
typedef struct Outcome {
    uint8_t *bytes;
    size_t n;
    bool ran;
} Outcome;

static void outcome_add(Outcome *oc, const Run *r)
{
    oc->bytes = realloc(oc->bytes, oc->n + r->c_bytes);
    if (!oc->bytes) {
        die("out of memory");
    }
    memcpy(oc->bytes + oc->n, r->out, r->c_bytes);
    oc->n += r->c_bytes;
}

/*
 * @c's seeded operands as BF16 tiles into *@pa and *@pb (the caller's to
 * free), and @r's parameters, sizes and result buffer
 */
static void case_operands(const Case *c, const Opts *o, Run *r,
                          uint16_t **pa, uint16_t **pb)
{
    int ntiles = c->mt * c->nt;
    int na = c->op == TTK_OP_MATMUL ? c->mt * c->kt : ntiles;
    int nb = c->op == TTK_OP_MATMUL ? c->kt * c->nt :
             c->op == TTK_OP_REDUCE ? 1 : ntiles;
    bool uses_b = c->op == TTK_OP_ELTWISE || c->op == TTK_OP_MATMUL ||
                  c->op == TTK_OP_REDUCE;
    uint16_t *a = xmalloc(na * TT_REF_TILE * 2);
    uint16_t *b = xmalloc(nb * TT_REF_TILE * 2);

    rng_seed(o->seed, c->name);
    gen_tiles(a, na, c->data, c->lo, c->hi);
    if (c->op == TTK_OP_REDUCE) {
        gen_scaler(b, c->sub_op & TTK_REDUCE_MAX);
    } else {
        gen_tiles(b, nb, c->data, c->lo, c->hi);
    }
    fill_params(c, &r->p, c->fmt_in);
    r->a = a;
    r->b = b;
    r->a_bytes = na * tile_bytes(c->fmt_in);
    r->b_bytes = uses_b ? nb * tile_bytes(c->fmt_in) : 0;
    if (c->fmt_in == INT8) {
        /* one byte per datum in L1 */
        r->bytes = xmalloc((na + nb) * TT_REF_TILE);
        for (int i = 0; i < (na + nb) * TT_REF_TILE; i++) {
            r->bytes[i] = i < na * TT_REF_TILE ? a[i] : b[i - na * TT_REF_TILE];
        }
        r->a_raw = r->bytes;
        r->b_raw = r->bytes + na * TT_REF_TILE;
    }
    r->c_bytes = ntiles * tile_bytes(c->fmt_out);
    r->out = xmalloc(r->c_bytes);
    *pa = a;
    *pb = b;
}

static void run_case(Lib *l, const Opts *o, const Case *c, const char *tag,
                     Outcome *oc)
{
    int ntiles = c->mt * c->nt;
    TTRefExpect *exp = xmalloc(ntiles * TT_REF_TILE * sizeof(*exp));
    TTRefPipe pp = {
        .dst_fp32 = c->dst_fp32, .fidelity = c->fidelity,
        .pack_src = c->pack_src, .out_fmt = c->fmt_out,
    };
    char label[96];
    Run r = { 0 };
    uint16_t *a, *b;
    bool ran;

    case_operands(c, o, &r, &a, &b);

    if (l->wedged) {
        tt_ok(false, "%s: %snot run: an earlier run on %s timed out and left "
              "its Tensix threads blocked", c->name, tag, l->h.path);
        goto out;
    }
    ran = run_kernel(l, o, &r);
    if (!tt_ok(ran, "%s: %s%s on %s (%.2f s)%s%s", c->name, tag, c->what,
               l->h.path, r.seconds, r.why[0] ? ": " : "", r.why)) {
        goto out;
    }
    oc->ran = true;
    outcome_add(oc, &r);
    if (c->flags & CASE_NEGATIVE) {
        pp.fidelity = c->ref_fidelity;
    }
    reference(c, &pp, a, b, exp);
    snprintf(label, sizeof(label), "%s%s", tag,
             !(c->flags & CASE_NEGATIVE) ? "matches tt-ref" :
             c->perturb ? "perturbed output rejected by tt-ref" :
             c->op == TTK_OP_SFPU ? "rejected by the other op's reference" :
             "rejected by the HiFi4 bound");
    if (c->perturb) {
        /* every datum @perturb units of its last place up */
        uint32_t ds = datum_size(c->fmt_out);
        uint8_t *bad = xmalloc(r.c_bytes);

        for (uint32_t i = 0; i < r.c_bytes; i += ds) {
            uint32_t v = 0;

            memcpy(&v, r.out + i, ds);
            v += c->perturb;
            memcpy(bad + i, &v, ds);
        }
        report(c, label, &pp, exp, ntiles, bad, true, a);
        free(bad);
    } else {
        report(c, label, &pp, exp, ntiles, r.out, c->flags & CASE_NEGATIVE,
               a);
    }

    if (c->flags & CASE_ROUNDTRIP) {
        /* unpack the packed Bfp8_b tiles, from where they are, to BF16 */
        uint16_t *dec = xmalloc(ntiles * TT_REF_TILE * 2);
        Run r2 = { 0 };
        TTRefPipe pp2 = {
            .pack_src = BFP8, .out_fmt = BF16,
        };
        TTRefStats st;

        for (int t = 0; t < ntiles; t++) {
            tt_ref_bfp8_decode_tile(r.out + t * TT_REF_BFP8_TILE,
                                    dec + t * TT_REF_TILE);
        }
        fill_params(c, &r2.p, BFP8);
        r2.p.pack_src = BFP8;
        r2.p.fmt_out = BF16;
        r2.a_raw = r.out;
        r2.a_bytes = r.c_bytes;
        r2.c_bytes = ntiles * tile_bytes(BF16);
        r2.out = xmalloc(r2.c_bytes);
        ran = run_kernel(l, o, &r2);
        if (tt_ok(ran, "%s: %sunpack Bfp8_b -> Dst -> Float16_b (%.2f s)%s%s",
                  c->name, tag, r2.seconds, r2.why[0] ? ": " : "", r2.why)) {
            outcome_add(oc, &r2);
            tt_ref_datacopy(&pp2, dec, ntiles, exp);
            snprintf(label, sizeof(label), "%sunpacked Bfp8_b matches "
                     "tt-ref", tag);
            report(c, label, &pp2, exp, ntiles, r2.out, false, dec);
            /* and the whole trip stays within BFP8's precision */
            for (int i = 0; i < ntiles * TT_REF_TILE; i++) {
                exp[i].exact = false;
                exp[i].val = tt_ref_bf16_value(a[i]);
                exp[i].bound = 0;
            }
            for (int blk = 0; blk < ntiles * 64; blk++) {
                double m = 0;

                for (int i = 0; i < 16; i++) {
                    m = fmax(m, fabs(exp[blk * 16 + i].val));
                }
                for (int i = 0; i < 16; i++) {
                    /* half a unit of Mag/64 at the block's exponent */
                    exp[blk * 16 + i].bound = tt_ref_ulp(m, 6) / 2;
                }
            }
            tt_ref_check(&pp2, exp, ntiles, r2.out, &st);
            tt_ok(!st.bad, "%s: %sround trip within half a BFP8 unit of the "
                  "input (%d of %d outside)", c->name, tag, st.bad, st.count);
        }
        free(r2.out);
        free(dec);
    }
out:
    free(r.out);
    free(r.bytes);
    free(exp);
    free(a);
    free(b);
}

/* ---------------------------------------------------------- --fuzz -- */

/*
 * A differential fuzzer over programs of the tt-llk shape: each program
 * is a case of the table (its operation, formats and operand kind) with
 * new tile counts, block size, fidelity, Dst width, output format, push
 * mode and operands, all drawn from one 64-bit program seed.  Every
 * program runs on --lib and must finish, log no guest error and match
 * tt-ref; with --compare-lib it also runs there, in a child process
 * (ttsim exits the whole process on what it does not support: such a
 * program is counted and skipped), and the outputs must be identical.
 * A failing program is shrunk (fewer tiles, smaller blocks, MOP pushes,
 * LoFi) while it still fails, and printed as a --replay line.
 */

/* What a program is: a Case without its strings, plus its name */
typedef struct FuzzProg {
    int op, sub_op, dst_fp32, fidelity, fmt_in, pack_src, fmt_out;
    int mt, kt, nt, block, data, flags;
    uint32_t arg;
    double lo, hi;
    char name[40];
    uint32_t inject[3][TTK_MAX_INJECT];     /* --fuzz-invalid */
    uint32_t ninject[3];
} FuzzProg;

static uint64_t fuzz_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

static void fuzz_to_case(const FuzzProg *f, Case *c)
{
    memset(c, 0, sizeof(*c));
    c->name = f->name;
    c->what = "fuzz";
    c->op = f->op;
    c->sub_op = f->sub_op;
    c->dst_fp32 = f->dst_fp32;
    c->fidelity = f->fidelity;
    c->fmt_in = f->fmt_in;
    c->pack_src = f->pack_src;
    c->fmt_out = f->fmt_out;
    c->mt = f->mt;
    c->kt = f->kt;
    c->nt = f->nt;
    c->block = f->block;
    c->data = f->data;
    c->flags = f->flags;
    c->arg = f->arg;
    c->lo = f->lo;
    c->hi = f->hi;
    memcpy(c->inject, f->inject, sizeof(c->inject));
    memcpy(c->ninject, f->ninject, sizeof(c->ninject));
}

/* Cases a program may start from: positive, and runnable as asked */
static bool fuzz_template_ok(const Opts *o, const Case *c, bool ttsim)
{
    return !(c->flags & (CASE_NEGATIVE | CASE_ROUNDTRIP)) &&
           (!(c->flags & CASE_SFPU) || o->sfpu) &&
           (!(c->flags & CASE_MACRO) || o->sfpu_macro) &&
           !(ttsim && c->ttsim_aborts);
}

/* A valid program from @seed (the firmware's ttk_check_params rules) */
static void fuzz_make(const Opts *o, uint64_t seed, bool ttsim, FuzzProg *f)
{
    const Case *t;
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    int n = 0, pick, max_block, ntiles;
    bool topk, copy;

    for (size_t i = 0; i < NCASES; i++) {
        n += fuzz_template_ok(o, &cases[i], ttsim);
    }
    pick = fuzz_next(&s) % n;
    for (t = cases; !fuzz_template_ok(o, t, ttsim) || pick--; t++) {
        continue;
    }
    memset(f, 0, sizeof(*f));
    f->op = t->op;
    f->sub_op = t->sub_op;
    f->dst_fp32 = t->dst_fp32;
    f->fidelity = t->fidelity;
    f->fmt_in = t->fmt_in;
    f->pack_src = t->pack_src;
    f->fmt_out = t->fmt_out;
    f->data = t->data;
    f->flags = t->flags & (CASE_SFPU | CASE_MACRO);
    f->arg = t->arg;
    f->lo = t->lo;
    f->hi = t->hi;
    snprintf(f->name, sizeof(f->name), "fuzz-%" PRIu64, seed);
    topk = t->op == TTK_OP_SFPU && t->sub_op == TTK_SFPU_TOPK;
    copy = t->op == DC || t->op == TR || t->op == TZ || t->op == UZ;

    /* the Dst width, where the formats allow (BF16 out) */
    if (t->fmt_out == BF16 && t->fmt_in == BF16 && t->op != TTK_OP_SFPU &&
        fuzz_next(&s) % 2) {
        f->dst_fp32 ^= 1;
        f->pack_src = BF16;
    }
    /* Bfp8_b out for the copies into tiles, whose reference is exact */
    if (copy && t->op != UZ && t->fmt_out == BF16 &&
        fuzz_next(&s) % 4 == 0) {
        f->fmt_out = BFP8;
        f->pack_src = f->dst_fp32 ? BFP8 : BF16;
    }
    if (((t->op == EW && t->sub_op == TTK_ELW_MUL) || t->op == MM)) {
        static const int fid[4] = { 0, 2, 3, 4 };

        f->fidelity = fid[fuzz_next(&s) % 4];
    }
    f->mt = 1 + fuzz_next(&s) % 2;
    f->kt = t->op == MM ? 1 + fuzz_next(&s) % 3 : 1;
    f->nt = 1 + fuzz_next(&s) % (t->op == MM ? 2 : t->op == DC ? 4 : 3);
    if (topk) {
        f->mt = 1;
        f->nt = 4;
    } else if (t->op == TTK_OP_SFPU) {
        f->mt = 1;
    }
    max_block = f->dst_fp32 ? 4 : 8;
    ntiles = f->mt * f->nt;
    f->block = topk ? 4 : t->op == UZ ? f->nt :
               1 + fuzz_next(&s) % MIN(max_block, ntiles);
    if (fuzz_next(&s) % 4 == 0 && !ttsim) {
        f->flags |= CASE_WORDS;     /* WORDS_TTSIM */
    }
    /*
     * Matrix-unit operands now and then 2^-12..2^4: products of one group
     * then lie up to 32 binades apart, and those 12 to 15 below the
     * group's largest decide whether a last unit is kept (MVMUL.md)
     */
    if ((t->op == MM || t->op == EW) && f->data == DATA_NORMAL &&
        fuzz_next(&s) % 4 == 0) {
        f->data = DATA_WIDE;
    }
}

/*
 * An instruction that is invalid but changes nothing: the model must log
 * it (a guest error) and go on as if it were not there.  Reserved modes,
 * out-of-range registers and addresses, an opcode no unit has, a mutex
 * Blackhole lacks, a wait with no condition.
 */
static uint32_t fuzz_invalid_word(uint64_t *s)
{
    uint32_t r = fuzz_next(s);

    switch (fuzz_next(s) % 8) {
    case 0:                     /* no instruction has opcode 0x06 or 0x07 */
        return (0x06u + (r & 1)) << 24 | (r >> 8 & 0xffffff);
    case 1:                     /* mutex 1 does not exist (SyncUnit.md) */
        return TT_ENC_ATGETM(1);
    case 2:                     /* registers below 0xFFB11000: undefined */
        return TT_ENC_STOREREG(r & 63, (r >> 8) % 0x4400);
    case 3:
        return TT_ENC_SETC16(TT_THCFG_WORDS + r % (256 - TT_THCFG_WORDS),
                             r >> 16);
    case 4:
        return TT_ENC_WRCFG(r & 63, 0, TT_CFG_WORDS +
                            (r >> 8) % (0x800 - TT_CFG_WORDS));
    case 5:                     /* SFPCAST Mod1 4-15 are reserved */
        return TT_ENC_SFPCAST(r & 7, r >> 4 & 7, 4 + (r >> 8) % 12);
    case 6:                     /* SFPSHFT2 Mod1 7-15: undefined */
        return TT_ENC_SFPSHFT2(r >> 12, r & 7, r >> 4 & 7, 7 + (r >> 8) % 9);
    default:                    /* SEMWAIT without a condition */
        return TT_ENC_SEMWAIT(r & 0x1ff, r >> 9 & 0xff, 0);
    }
}

/* --fuzz-invalid: 1-3 such words on random threads */
static void fuzz_add_invalid(uint64_t seed, FuzzProg *f)
{
    uint64_t s = seed * 0xbf58476d1ce4e5b9ull + 7;
    int n = 1 + fuzz_next(&s) % 3;

    for (int i = 0; i < n; i++) {
        int th = fuzz_next(&s) % 3;

        if (f->ninject[th] < TTK_MAX_INJECT) {
            f->inject[th][f->ninject[th]++] = fuzz_invalid_word(&s);
        }
    }
}

static int fuzz_ninject(const FuzzProg *f)
{
    return f->ninject[0] + f->ninject[1] + f->ninject[2];
}

/* One program's outcome */
typedef struct FuzzRun {
    bool ran;                   /* finished: out is valid */
    bool hung;
    int bad;                    /* datums off the reference */
    char why[200];
    uint8_t *out;
    uint32_t n;
} FuzzRun;

/* Run @f on @l: finished, and checked against tt-ref unless @noref */
static void fuzz_run(Lib *l, const Opts *o, const FuzzProg *f, bool noref,
                     FuzzRun *fr)
{
    Case c;
    Run r = { 0 };
    uint16_t *a, *b;

    fuzz_to_case(f, &c);
    memset(fr, 0, sizeof(*fr));
    case_operands(&c, o, &r, &a, &b);
    fr->ran = run_kernel(l, o, &r);
    fr->hung = !fr->ran && l->wedged;
    if (!fr->ran) {
        snprintf(fr->why, sizeof(fr->why), "%s", r.why);
    } else if (!noref) {
        int ntiles = c.mt * c.nt;
        TTRefExpect *exp = xmalloc(ntiles * TT_REF_TILE * sizeof(*exp));
        TTRefPipe pp = {
            .dst_fp32 = c.dst_fp32, .fidelity = c.fidelity,
            .pack_src = c.pack_src, .out_fmt = c.fmt_out,
        };
        TTRefStats st;

        reference(&c, &pp, a, b, exp);
        tt_ref_check(&pp, exp, ntiles, r.out, &st);
        fr->bad = st.bad;
        if (st.bad) {
            int t, rr, cc;

            tile_rc(st.first_bad, &t, &rr, &cc);
            snprintf(fr->why, sizeof(fr->why), "%d datums off tt-ref, first "
                     "at tile %d (%d, %d): 0x%x, expected 0x%x", st.bad, t,
                     rr, cc, st.bad_got, st.bad_want);
        }
        free(exp);
    }
    fr->out = r.out;
    fr->n = r.c_bytes;
    free(r.bytes);
    free(a);
    free(b);
}

/*
 * --compare-lib's library lives in a child: programs go down a pipe, the
 * outcome (ran, byte count, bytes) comes back; the child dying is
 * ttsim stopping on something it does not support.
 */
typedef struct FuzzPeer {
    pid_t pid;
    int to, from;
    int starts;
    char err[PATH_MAX + 8];     /* the child's stdout and stderr */
} FuzzPeer;

static bool fuzz_io(int fd, void *p, size_t n, bool wr)
{
    uint8_t *c = p;

    while (n) {
        ssize_t k = wr ? write(fd, c, n) : read(fd, c, n);

        if (k <= 0) {
            if (k < 0 && errno == EINTR) {
                continue;
            }
            return false;
        }
        c += k;
        n -= k;
    }
    return true;
}

static void fuzz_peer_main(const Opts *o, const uint8_t *fw, size_t fwn,
                           int in, int outfd)
{
    Lib l = { 0 };
    FuzzProg f;

    if (o->args2) {
        setenv("TT_EMU_ARGS", o->args2, 1);     /* our library's machine */
    }
    lib_open(&l, o->lib2, same_file(o->lib, o->lib2));
    if (!lib_start(&l, o, fw, fwn)) {
        _exit(2);
    }
    while (fuzz_io(in, &f, sizeof(f), false)) {
        FuzzRun fr;
        uint32_t ran;

        fuzz_run(&l, o, &f, true, &fr);
        ran = fr.ran;
        if (!fuzz_io(outfd, &ran, 4, true) ||
            !fuzz_io(outfd, &fr.n, 4, true) ||
            (ran && !fuzz_io(outfd, fr.out, fr.n, true))) {
            _exit(1);
        }
        free(fr.out);
        if (l.wedged) {
            _exit(3);           /* a hang: start afresh */
        }
    }
    l.h.exit();
    _exit(0);
}

static bool fuzz_peer_start(FuzzPeer *p, const Opts *o, const uint8_t *fw,
                            size_t fwn)
{
    int down[2], up[2];

    if (pipe(down) || pipe(up)) {
        die("pipe: %s", strerror(errno));
    }
    fflush(NULL);
    p->pid = fork();
    if (p->pid < 0) {
        die("fork: %s", strerror(errno));
    }
    if (!p->pid) {
        close(down[1]);
        close(up[0]);
        /* TAP is the parent's; ttsim says why it stops on stdout */
        if (!freopen(p->err, "w", stdout) || dup2(1, 2) < 0) {
            _exit(2);
        }
        fuzz_peer_main(o, fw, fwn, down[0], up[1]);
    }
    close(down[0]);
    close(up[1]);
    p->to = down[1];
    p->from = up[0];
    p->starts++;
    return true;
}

static void fuzz_peer_stop(FuzzPeer *p)
{
    int st;

    if (p->pid > 0) {
        close(p->to);
        close(p->from);
        waitpid(p->pid, &st, 0);
        p->pid = 0;
    }
}

/* The last line the dead child wrote to stderr: why it stopped */
static void fuzz_peer_why(FuzzPeer *p, char *why, size_t n)
{
    FILE *fp = fopen(p->err, "r");
    char line[256];

    snprintf(why, n, "(no message)");
    while (fp && fgets(line, sizeof(line), fp)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0]) {
            snprintf(why, n, "%s", line);
        }
    }
    if (fp) {
        fclose(fp);
    }
}

/* @f on the peer: 1 ran (bytes in *out), 0 failed, -1 the peer died */
static int fuzz_peer_run(FuzzPeer *p, const Opts *o, const uint8_t *fw,
                         size_t fwn, const FuzzProg *f, uint8_t **out,
                         uint32_t *n)
{
    uint32_t ran = 0;

    if (!p->pid) {
        fuzz_peer_start(p, o, fw, fwn);
    }
    *out = NULL;
    if (!fuzz_io(p->to, (void *)f, sizeof(*f), true) ||
        !fuzz_io(p->from, &ran, 4, false) || !fuzz_io(p->from, n, 4, false)) {
        fuzz_peer_stop(p);
        return -1;
    }
    if (!ran) {
        return 0;
    }
    *out = xmalloc(*n);
    if (!fuzz_io(p->from, *out, *n, false)) {
        free(*out);
        *out = NULL;
        fuzz_peer_stop(p);
        return -1;
    }
    return 1;
}

/* New lines of QEMU's log since @pos (guest errors, unmodelled paths) */
static bool fuzz_log_news(const char *path, long *pos, char *buf, size_t n)
{
    FILE *fp = path ? fopen(path, "r") : NULL;
    size_t k;

    buf[0] = 0;
    if (!fp) {
        return false;
    }
    fseek(fp, 0, SEEK_END);
    if (ftell(fp) <= *pos) {
        fclose(fp);
        return false;
    }
    fseek(fp, *pos, SEEK_SET);
    k = fread(buf, 1, n - 1, fp);
    buf[k] = 0;
    fseek(fp, 0, SEEK_END);
    *pos = ftell(fp);
    fclose(fp);
    return true;
}

/*
 * Our QEMU logs guest errors and unmodelled paths to a file of its own
 * (TT_EMU_ARGS gains -d/-D unless it has -D already): on a valid program
 * nothing may appear there
 */
/* A new empty file $TMPDIR/@stem.XXXXXX (P_tmpdir without TMPDIR) */
static void fuzz_tmpfile(char *path, size_t size, const char *stem)
{
    const char *tmp = getenv("TMPDIR");
    int fd;

    snprintf(path, size, "%s/%s.XXXXXX", tmp && *tmp ? tmp : P_tmpdir,
             stem);
    fd = mkstemp(path);
    if (fd < 0) {
        die("%s: %s", path, strerror(errno));
    }
    close(fd);
}

static const char *fuzz_qemu_log(void)
{
    static char path[PATH_MAX];
    const char *args = getenv("TT_EMU_ARGS");
    char *all;

    if (args && strstr(args, "-D")) {
        return NULL;
    }
    fuzz_tmpfile(path, sizeof(path), "tt-fuzz-qemu");
    if (asprintf(&all, "%s -d guest_errors,unimp -D %s",
                 args ? args : "-M blackhole", path) < 0) {
        die("out of memory");
    }
    setenv("TT_EMU_ARGS", all, 1);
    free(all);
    return path;
}

/* Lines about the Tensix in a log excerpt */
static int fuzz_log_lines(const char *news)
{
    int k = 0;

    for (const char *p = news; (p = strstr(p, " tensix T")); p++) {
        k++;
    }
    return k;
}

typedef struct FuzzCtx {
    Lib *l;
    const Opts *o;
    const uint8_t *fw;
    size_t fwn;
    FuzzPeer peer;
    const char *log;            /* QEMU's -D file, ours */
    long log_pos;
    int peer_stops;             /* programs --compare-lib stopped on */
    char stop_why[8][120];      /* ... the distinct reasons, and counts */
    int stop_count[8];
} FuzzCtx;

/* Count a stop of the peer under its message (numbers masked) */
static void fuzz_note_stop(FuzzCtx *x, const FuzzProg *f)
{
    char why[256];
    int i;

    fuzz_peer_why(&x->peer, why, sizeof(why));
    /* ttsim prefixes its clock count: "[12345] ERROR: ..." */
    memmove(why, why + (why[0] == '[' ? strcspn(why, "]") + 2 : 0),
            strlen(why) + 1);
    for (i = 0; i < 8 && x->stop_count[i]; i++) {
        if (!strncmp(x->stop_why[i], why, sizeof(x->stop_why[i]) - 1)) {
            break;
        }
    }
    if (i == 8) {
        i = 7;
    } else if (!x->stop_count[i]) {
        snprintf(x->stop_why[i], sizeof(x->stop_why[i]), "%s", why);
        tt_diag("%s stopped on %s (first of its kind): %s", x->o->lib2,
                f->name, why);
    }
    x->stop_count[i]++;
    x->peer_stops++;
}

/*
 * Does @f fail: on ours (no finish, a guest error, off tt-ref) or
 * against the peer (a different output)?  @why says how.
 */
static bool fuzz_fails(FuzzCtx *x, const FuzzProg *f, char *why, size_t n)
{
    FuzzRun fr;
    char news[512];
    bool fail = false;

    fuzz_run(x->l, x->o, f, false, &fr);
    if (!fr.ran) {
        snprintf(why, n, "%s", fr.why);
        fail = true;
    } else if (fuzz_log_news(x->log, &x->log_pos, news, sizeof(news)) !=
               (fuzz_ninject(f) > 0) ||
               fuzz_log_lines(news) < fuzz_ninject(f)) {
        if (fuzz_ninject(f)) {
            snprintf(why, n, "%d invalid word(s), %d logged", fuzz_ninject(f),
                     fuzz_log_lines(news));
        } else {
            snprintf(why, n, "QEMU logged: %.*s", (int)strcspn(news, "\n"),
                     news);
        }
        fail = true;
    } else if (fr.bad) {
        snprintf(why, n, "%s", fr.why);
        fail = true;
    } else if (x->o->lib2 && !fuzz_ninject(f)) {
        uint8_t *out2;
        uint32_t n2;
        int k = fuzz_peer_run(&x->peer, x->o, x->fw, x->fwn, f, &out2, &n2);

        if (k < 0) {
            fuzz_note_stop(x, f);
        } else if (k == 0) {
            snprintf(why, n, "%s did not finish it", x->o->lib2);
            fail = true;
        } else if (n2 != fr.n || memcmp(out2, fr.out, n2)) {
            uint32_t i = 0;

            while (i < fr.n && i < n2 && out2[i] == fr.out[i]) {
                i++;
            }
            snprintf(why, n, "differs from %s from byte %u on", x->o->lib2,
                     i);
            fail = true;
        }
        free(out2);
    }
    free(fr.out);
    return fail;
}

/* A program as one line: its fields, then each thread's injected words */
static void fuzz_print(const FuzzProg *f, const char *prefix)
{
    printf("%s--replay '%s %d %d %d %d %d %d %d %d %d %d %d %d %d %u "
           "%.17g %.17g", prefix, f->name, f->op, f->sub_op, f->dst_fp32,
           f->fidelity, f->fmt_in, f->pack_src, f->fmt_out, f->mt, f->kt,
           f->nt, f->block, f->data, f->flags, f->arg, f->lo, f->hi);
    for (int t = 0; t < 3; t++) {
        printf(" %u", f->ninject[t]);
        for (uint32_t i = 0; i < f->ninject[t]; i++) {
            printf(" 0x%08x", f->inject[t][i]);
        }
    }
    printf("'\n");
}

static bool fuzz_parse(const char *s, FuzzProg *f)
{
    int used;

    memset(f, 0, sizeof(*f));
    if (sscanf(s, "%39s %d %d %d %d %d %d %d %d %d %d %d %d %d %u %lf %lf"
               "%n", f->name, &f->op, &f->sub_op, &f->dst_fp32,
               &f->fidelity, &f->fmt_in, &f->pack_src, &f->fmt_out,
               &f->mt, &f->kt, &f->nt, &f->block, &f->data, &f->flags,
               &f->arg, &f->lo, &f->hi, &used) != 17) {
        return false;
    }
    s += used;
    for (int t = 0; t < 3 && *s; t++) {
        if (sscanf(s, "%u%n", &f->ninject[t], &used) != 1 ||
            f->ninject[t] > TTK_MAX_INJECT) {
            return false;
        }
        s += used;
        for (uint32_t i = 0; i < f->ninject[t]; i++) {
            if (sscanf(s, "%x%n", &f->inject[t][i], &used) != 1) {
                return false;
            }
            s += used;
        }
    }
    return !*s || strspn(s, " ") == strlen(s);
}

/* Smaller and simpler programs that still fail, as long as one does */
static void fuzz_shrink(FuzzCtx *x, FuzzProg *f, char *why, size_t n)
{
    bool smaller = true;
    char w[200];

    while (smaller && !x->l->wedged) {
        FuzzProg c[6];
        int k = 0;

        smaller = false;
        for (int i = 0; i < 6; i++) {
            c[i] = *f;
        }
        c[k].flags &= ~CASE_WORDS;
        k += f->flags & CASE_WORDS ? 1 : 0;
        c[k].fidelity = 0;
        k += f->fidelity ? 1 : 0;
        if (f->nt > 1 && f->op != UZ &&
            !(f->op == TTK_OP_SFPU && f->sub_op == TTK_SFPU_TOPK)) {
            c[k].nt--;
            c[k].block = MIN(c[k].block, c[k].mt * c[k].nt);
            k++;
        }
        if (f->mt > 1) {
            c[k].mt--;
            c[k].block = MIN(c[k].block, c[k].mt * c[k].nt);
            k++;
        }
        if (f->kt > 1) {
            c[k++].kt--;
        }
        if (f->block > 1 && f->op != UZ &&
            !(f->op == TTK_OP_SFPU && f->sub_op == TTK_SFPU_TOPK)) {
            c[k++].block--;
        }
        for (int i = 0; i < k && !smaller; i++) {
            if (fuzz_fails(x, &c[i], w, sizeof(w))) {
                *f = c[i];
                snprintf(why, n, "%s", w);
                smaller = true;
            }
        }
    }
}

static int fuzz(Opts *o, const uint8_t *fw, size_t fwn)
{
    Lib l = { 0 };
    FuzzCtx x = { .l = &l, .o = o, .fw = fw, .fwn = fwn };
    int fails = 0, runs = 0;
    char why[200];

    x.log = fuzz_qemu_log();
    if (x.log) {
        snprintf(x.peer.err, sizeof(x.peer.err), "%s.peer", x.log);
    } else {
        fuzz_tmpfile(x.peer.err, sizeof(x.peer.err), "tt-fuzz-peer");
    }
    lib_open(&l, o->lib, false);
    if (!lib_start(&l, o, fw, fwn)) {
        return tt_done();
    }
    fuzz_log_news(x.log, &x.log_pos, why, sizeof(why));    /* start-up */
    for (int i = 0; (o->replay || i < o->fuzz) && !l.wedged; i++) {
        FuzzProg f;

        if (o->replay) {
            if (!fuzz_parse(o->replay, &f)) {
                die("bad --replay '%s'", o->replay);
            }
        } else {
            fuzz_make(o, o->seed + i, o->lib2 && lib_is_ttsim(o->lib2), &f);
            if (o->fuzz_invalid) {
                fuzz_add_invalid(o->seed + i, &f);
            }
        }
        runs++;
        if (fuzz_fails(&x, &f, why, sizeof(why))) {
            fails++;
            tt_diag("%s fails: %s", f.name, why);
            fuzz_shrink(&x, &f, why, sizeof(why));
            tt_diag("shrunk: %s", why);
            fuzz_print(&f, "# ");
            tt_ok(false, "%s: %s", f.name, why);
        }
        if (o->replay) {
            break;
        }
        if ((i + 1) % 1000 == 0) {
            tt_diag("%d programs, %d failed, %d stopped %s", i + 1, fails,
                    x.peer_stops, o->lib2 ? o->lib2 : "");
        }
    }
    fuzz_peer_stop(&x.peer);
    for (int i = 0; i < 8 && x.stop_count[i]; i++) {
        tt_diag("%s stopped %d time(s): %s", o->lib2, x.stop_count[i],
                x.stop_why[i]);
    }
    unlink(x.peer.err);
    tt_ok(!fails && !l.wedged, "%d program(s) from seed %" PRIu64 " on %s%s%s: "
          "%d failed%s; %d stopped %s", runs, o->seed, o->lib,
          o->lib2 ? " and " : "", o->lib2 ? o->lib2 : "", fails,
          l.wedged ? " (one hung: stopped)" : "", x.peer_stops,
          o->lib2 ? o->lib2 : "(no --compare-lib)");
    l.h.exit();
    if (x.log) {
        unlink(x.log);
    }
    return tt_done();
}

/* --------------------------------------------------------- --bench -- */

/*
 * The same case on @o->tiles tiles at once, timed from the release to
 * the last done word, repeated; tile 0's result is checked against
 * tt-ref and every other tile's against tile 0's.  Prints metric lines
 * "name value unit" for bench/tensix-bench.sh.
 */

#define WIN_BENCH0          40      /* one window per tile: 40..179 */
#define WIN_BENCH_MCAST     (WIN_BENCH0 + TT_HOST_TENSIX_TILES)

/* Busy time of all host CPUs so far, in core-seconds (/proc/stat) */
static double host_busy_seconds(void)
{
    unsigned long long v[8] = { 0 };
    FILE *f = fopen("/proc/stat", "r");
    int n = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
                       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                       &v[7]) : 0;

    if (f) {
        fclose(f);
    }
    if (n < 8) {
        return 0;
    }
    /* user nice system (idle iowait) irq softirq steal */
    return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) /
           sysconf(_SC_CLK_TCK);
}

/* Every tile's window; SOFT_RESET_0 goes through WIN_REGS per tile */
static void bench_map(Lib *l, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned x, y;

        tt_host_tensix_xy(i, &x, &y);
        tt_host_tlb_unicast(&l->h, WIN_BENCH0 + i, x, y, 0);
    }
}

/* Register @addr of tiles [0, @n), by multicast on the whole grid */
static void bench_reg(Lib *l, int n, uint32_t addr, uint32_t v)
{
    if (n == TT_HOST_TENSIX_TILES) {
        tt_host_wr32(&l->h, tt_host_tlb_grid(&l->h, WIN_BENCH_MCAST, addr),
                     v);
        return;
    }
    for (int i = 0; i < n; i++) {
        unsigned x, y;

        tt_host_tensix_xy(i, &x, &y);
        tt_host_wr32(&l->h, tt_host_tlb_unicast(&l->h, WIN_REGS, x, y, addr),
                     v);
    }
}

static void bench_reset(Lib *l, int n, uint32_t v)
{
    bench_reg(l, n, SOFT_RESET_0, v);
}

/* The same bytes at @addr of every tile: by multicast on the whole grid */
static void bench_write(Lib *l, int n, uint32_t addr, const void *p,
                        uint32_t size)
{
    if (n == TT_HOST_TENSIX_TILES) {
        l->h.mem_wr(tt_host_tlb_grid(&l->h, WIN_BENCH_MCAST, addr), p, size);
        return;
    }
    for (int i = 0; i < n; i++) {
        l->h.mem_wr(tt_host_win(&l->h, WIN_BENCH0 + i, addr), p, size);
    }
}

/*
 * The host's nap between two polls of a run: --poll-us, but at most 1/16
 * of the previous run (@prev seconds, 0 for none), so that a short run is
 * not measured in units of the nap
 */
static unsigned bench_nap_us(const Opts *o, double prev)
{
    double cap = prev * 1e6 / 16;

    return prev > 0 && cap < o->poll_us ? (unsigned)cap : o->poll_us;
}

/*
 * One timed run on tiles [0, @n): wall seconds, or < 0 on a timeout;
 * @prev is the previous run's (bench_nap_us())
 */
static double bench_once(Lib *l, const Opts *o, int n, Run *r, double *busy,
                         double prev)
{
    bool done[TT_HOST_TENSIX_TILES] = { false };
    uint32_t d[3];
    int left = n;
    unsigned nap = bench_nap_us(o, prev);
    double t0, b0, deadline;

    r->p.run_id = ++l->run_id;
    bench_reset(l, n, HOLD_ALL);
    bench_write(l, n, TTK_PARAMS_ADDR, &r->p, sizeof(r->p));
    b0 = host_busy_seconds();
    t0 = tt_host_now();
    deadline = t0 + o->timeout;
    bench_reset(l, n, RUN_TRISCS);
    while (left && tt_host_now() < deadline) {
        l->h.clock(o->clocks);
        if (o->poll_us) {
            usleep(nap);
        }
        for (int i = 0; i < n; i++) {
            if (done[i]) {
                continue;
            }
            l->h.mem_rd(tt_host_win(&l->h, WIN_BENCH0 + i, TTK_PARAMS_ADDR +
                                    offsetof(TTKParams, done)), d,
                        sizeof(d));
            done[i] = d[0] == TTK_DONE && d[1] == TTK_DONE &&
                      d[2] == TTK_DONE;
            left -= done[i];
        }
    }
    t0 = tt_host_now() - t0;
    *busy = host_busy_seconds() - b0;
    bench_reset(l, n, HOLD_ALL);
    l->wedged |= left;
    return left ? -1 : t0;
}

/* Tile 0 against tt-ref, the others against tile 0 */
static bool bench_verify(Lib *l, const Case *c, int n, const Run *r,
                         const uint16_t *a, const uint16_t *b)
{
    TTRefPipe pp = {
        .dst_fp32 = c->dst_fp32, .fidelity = c->fidelity,
        .pack_src = c->pack_src, .out_fmt = c->fmt_out,
    };
    int ntiles = c->mt * c->nt, differ = 0;
    TTRefExpect *exp = xmalloc(ntiles * TT_REF_TILE * sizeof(*exp));
    uint8_t *other = xmalloc(r->c_bytes);
    bool ok;

    l->h.mem_rd(tt_host_win(&l->h, WIN_BENCH0, r->p.addr_c), r->out,
                r->c_bytes);
    reference(c, &pp, a, b, exp);
    ok = report(c, "tile 0 matches tt-ref", &pp, exp, ntiles, r->out, false,
                a);
    for (int i = 1; i < n; i++) {
        l->h.mem_rd(tt_host_win(&l->h, WIN_BENCH0 + i, r->p.addr_c), other,
                    r->c_bytes);
        differ += memcmp(other, r->out, r->c_bytes) != 0;
    }
    ok &= tt_ok(!differ, "%s: every tile's result equals tile 0's (%d of %d "
                "differ)", c->name, differ, n);
    free(other);
    free(exp);
    return ok;
}

/* Floating-point operations of one run, for emulated GFLOP/s */
static double case_flops(const Case *c)
{
    double datums = (double)c->mt * c->nt * TT_REF_TILE;

    return c->op == TTK_OP_MATMUL ? 2.0 * datums * 32 * c->kt : datums;
}

/* --dims: @c's tile counts replaced by the option's */
static void case_dims(Case *c, const Opts *o)
{
    if (o->dims[0]) {
        c->mt = o->dims[0];
        c->kt = o->dims[1];
        c->nt = o->dims[2];
        c->block = c->dst_fp32 ? 4 : 8;
    }
}

/* run_layout() for --bench and --stress, which give up on a misfit */
static void case_layout(const Case *c, Run *r)
{
    if (!run_layout(r)) {
        die("%dx%dx%d tiles do not fit in L1", c->mt, c->kt, c->nt);
    }
}

static void bench_case(Lib *l, const Opts *o, const Case *base)
{
    Case c = *base;
    Run r = { 0 };
    uint16_t *a, *b;
    double t[64], busy[64], flops, run, cpu;
    int n = o->tiles, reps = o->repeat;
    char name[80];

    if (c.ttsim_aborts && l->ttsim) {
        tt_skip(c.ttsim_aborts, "bench %s on %s", c.name, l->h.path);
        return;
    }
    case_dims(&c, o);
    case_operands(&c, o, &r, &a, &b);
    case_layout(&c, &r);
    bench_map(l, n);
    bench_reset(l, n, HOLD_ALL);
    bench_write(l, n, r.p.addr_a, r.a_raw ? (const void *)r.a_raw : a,
                r.a_bytes);
    if (r.b_bytes) {
        bench_write(l, n, r.p.addr_b, r.b_raw ? (const void *)r.b_raw : b,
                    r.b_bytes);
    }
    tt_diag("bench %s on %s: %d tile(s), mt %d kt %d nt %d, %d runs",
            c.name, l->h.path, n, c.mt, c.kt, c.nt, reps);
    for (int i = 0; i < reps; i++) {
        t[i] = bench_once(l, o, n, &r, &busy[i], i ? t[i - 1] : 0);
        if (!tt_ok(t[i] >= 0, "%s: run %d on %d tile(s) of %s (%.3f s)",
                   c.name, i, n, l->h.path, t[i])) {
            goto out;
        }
    }
    if (!bench_verify(l, &c, n, &r, a, b)) {
        goto out;
    }
    run = tt_host_median(t, reps);
    cpu = tt_host_median(busy, reps);
    flops = case_flops(&c) * n;
    snprintf(name, sizeof(name), "%s/%dt", c.name, n);
    printf("%s.run %.6g s\n", name, run);
    printf("%s.tiles %.6g tile/s\n", name,
           (double)c.mt * c.nt * (c.op == TTK_OP_MATMUL ? c.kt : 1) * n / run);
    printf("%s.gflops %.6g GFLOP/s\n", name, flops / run / 1e9);
    if (cpu > 0) {
        printf("%s.gflops-core %.6g GFLOP/s\n", name, flops / cpu / 1e9);
    }
out:
    free(r.out);
    free(r.bytes);
    free(a);
    free(b);
}

/*
 * --stress: @o->stress runs of @base on --tiles tiles at once.  The first
 * run is checked against tt-ref; every later run must finish and give
 * every tile the bytes of the first (the operands never change), so a
 * lost hand-off shows as a timeout and a race as a difference.
 */
static void stress_case(Lib *l, const Opts *o, const Case *base)
{
    Case c = *base;
    Run r = { 0 };
    uint16_t *a, *b;
    uint8_t *first, *other;
    int n = o->tiles, runs = 0, differ = 0, first_differ = -1;
    double busy, t = 0, tmax = 0, total = 0;

    if (c.ttsim_aborts && l->ttsim) {
        tt_skip(c.ttsim_aborts, "stress %s on %s", c.name, l->h.path);
        return;
    }
    case_dims(&c, o);
    case_operands(&c, o, &r, &a, &b);
    case_layout(&c, &r);
    first = xmalloc(r.c_bytes);
    other = xmalloc(r.c_bytes);
    bench_map(l, n);
    bench_reset(l, n, HOLD_ALL);
    bench_write(l, n, r.p.addr_a, r.a_raw ? (const void *)r.a_raw : a,
                r.a_bytes);
    if (r.b_bytes) {
        bench_write(l, n, r.p.addr_b, r.b_raw ? (const void *)r.b_raw : b,
                    r.b_bytes);
    }
    for (runs = 0; runs < o->stress; runs++) {
        /* poison the result so a run that writes nothing shows */
        memset(other, POISON, r.c_bytes);
        bench_write(l, n, r.p.addr_c, other, r.c_bytes);
        t = bench_once(l, o, n, &r, &busy, t);
        if (t < 0) {
            break;
        }
        total += t;
        tmax = fmax(tmax, t);
        if (runs == 0) {
            if (!bench_verify(l, &c, n, &r, a, b)) {
                goto out;
            }
            memcpy(first, r.out, r.c_bytes);
            continue;
        }
        for (int i = 0; i < n; i++) {
            l->h.mem_rd(tt_host_win(&l->h, WIN_BENCH0 + i, r.p.addr_c),
                        other, r.c_bytes);
            if (memcmp(other, first, r.c_bytes)) {
                differ++;
                first_differ = first_differ < 0 ? runs : first_differ;
            }
        }
    }
    tt_ok(runs == o->stress, "%s: %d of %d runs on %d tile(s) finished "
          "(timeout %.0f s; mean %.3f s, max %.3f s)", c.name, runs,
          o->stress, n, o->timeout, runs ? total / runs : 0.0, tmax);
    tt_ok(!differ, "%s: every run gave every tile the first run's result "
          "(%d tile results differ, first in run %d)", c.name, differ,
          first_differ);
out:
    free(first);
    free(other);
    free(r.out);
    free(r.bytes);
    free(a);
    free(b);
}

/* --bench: the library started, the image in every tile, one case */
static int bench(const Opts *o, const uint8_t *fw, size_t fwn)
{
    Lib l = { 0 };
    uint32_t id;
    uint8_t *back = xmalloc(fwn);
    bool same = true;

    lib_open(&l, o->lib, false);
    id = tt_host_start(&l.h, tt_host_no_dma_rd, tt_host_no_dma_wr);
    if (!tt_ok(id == TT_HOST_BH_ID, "%s: Blackhole 1e52:b140", o->lib)) {
        return tt_status();
    }
    bench_map(&l, o->tiles);
    bench_reset(&l, o->tiles, HOLD_ALL);
    bench_reg(&l, o->tiles, TRISC_RESET_PC_OVERRIDE, 0);
    bench_write(&l, o->tiles, 0, fw, fwn);
    for (int i = 0; i < o->tiles; i++) {
        l.h.mem_rd(tt_host_win(&l.h, WIN_BENCH0 + i, 0), back, fwn);
        same &= !memcmp(back, fw, fwn);
    }
    free(back);
    /*
     * Naps of this thread end within a microsecond, not Linux's default
     * 50 us slack, which on short runs would be most of the polling's
     * error (set after the start: the emulator does not inherit it)
     */
    prctl(PR_SET_TIMERSLACK, 1000UL);
    if (tt_ok(same, "%zu-byte kernel image in L1 of %d tile(s)", fwn,
              o->tiles)) {
        for (size_t i = 0; i < NCASES; i++) {
            if (!case_selected(o, &cases[i])) {
                continue;
            }
            if (cases[i].flags & CASE_NEGATIVE) {
                /* tile 0 is checked against the case's own reference */
                tt_skip("a must-fail case: only the plain run checks it",
                        "%s %s", o->stress ? "stress" : "bench",
                        cases[i].name);
            } else if (l.wedged) {
                tt_ok(false, "%s: not run: an earlier run timed out",
                      cases[i].name);
            } else if (o->stress) {
                stress_case(&l, o, &cases[i]);
            } else {
                bench_case(&l, o, &cases[i]);
            }
        }
    }
    l.h.exit();
    return tt_status();
}

/* -------------------------------------------------------------- main -- */

static void usage(int status)
{
    fprintf(status ? stderr : stdout,
            "usage: tt-kernel-run [--lib PATH] [--fw IMAGE] [--case NAMES] "
            "[--seed N]\n"
            "                     [--tile X,Y] [--dump FILE] "
            "[--compare-lib PATH2]\n"
            "                     [--timeout S] [--clocks N] [--list] "
            "[--sfpu] [--sfpu-macro]\n"
            "       tt-kernel-run --bench --case NAMES [--tiles N] "
            "[--dims MT,KT,NT]\n"
            "                     [--repeat R] [--poll-us U] [--lib PATH] "
            "[--fw IMAGE]\n"
            "       tt-kernel-run --stress N --case NAMES [--tiles N] "
            "[--timeout S] [--lib PATH]\n"
            "       tt-kernel-run --fuzz N [--seed S] [--sfpu] "
            "[--compare-lib PATH2] [--compare-args ARGS] [--lib PATH]\n"
            "  --lib PATH          libttsim.so (default $TT_LIBTTSIM)\n"
            "  --fw IMAGE          tt-kernels.bin (default "
            "tensix-fw/tt-kernels.bin beside the program)\n"
            "  --case NAMES        run only these cases, comma-separated (see --list)\n"
            "  --seed N            operand seed (default 1)\n"
            "  --tile X,Y          Tensix tile, NOC0 coordinates (1,2)\n"
            "  --dump FILE         raw result bytes of every run, in order\n"
            "  --compare-lib PATH2 also run on PATH2, compare bit for bit\n"
            "  --compare-args ARGS with --fuzz: PATH2's QEMU options\n"
            "                      (TT_EMU_ARGS), e.g. a reference datapath\n"
            "  --timeout S         per kernel run (60)\n"
            "  --clocks N          libttsim_clock() between polls (2000)\n"
            "  --list              print the cases\n"
            "  --sfpu              also the vector-unit (SFPU) cases\n"
            "  --sfpu-macro        also their SFPLOADMACRO forms\n"
            "  --bench             time the cases on --tiles tiles at once,\n"
            "                      print 'name value unit' metric lines\n"
            "  --tiles N           tiles for --bench, 1-140 (1)\n"
            "  --dims MT,KT,NT     tile counts for --bench (the case's)\n"
            "  --repeat R          timed runs per case, median kept (3)\n"
            "  --poll-us U         sleep between polls (0), at most\n"
            "                      1/16 of the previous run\n"
            "  --stress N          run each case N times on --tiles tiles:\n"
            "                      the first checked against tt-ref, the\n"
            "                      others against the first, no timeout\n"
            "                      (--bench and --stress skip the\n"
            "                      must-fail cases)\n"
            "  --fuzz N            N random programs from --seed (each a\n"
            "                      table case with new sizes, fidelity, Dst\n"
            "                      width, formats, push mode and operands)\n"
            "                      against tt-ref, no hang, no QEMU log\n"
            "                      line; with --compare-lib bit for bit\n"
            "                      (that library in a child process);\n"
            "                      failures are shrunk and printed\n"
            "  --replay 'SPEC'     one program --fuzz printed\n"
            "  --fuzz-invalid      each program also pushes 1-3 invalid\n"
            "                      words that change nothing: each must\n"
            "                      be logged, the results stay right\n");
    exit(status);
}

/* A whole decimal option value in [@lo, @hi], or die naming @what */
static int opt_int(const char *arg, int lo, int hi, const char *what)
{
    int v;
    char junk;

    if (sscanf(arg, "%d%c", &v, &junk) != 1 || v < lo || v > hi) {
        die("bad %s '%s' (%d-%d)", what, arg, lo, hi);
    }
    return v;
}

static void parse_args(int argc, char **argv, Opts *o)
{
    static const struct option lopts[] = {
        { "lib", required_argument, NULL, 'l' },
        { "fw", required_argument, NULL, 'f' },
        { "case", required_argument, NULL, 'c' },
        { "seed", required_argument, NULL, 's' },
        { "tile", required_argument, NULL, 't' },
        { "dump", required_argument, NULL, 'd' },
        { "compare-lib", required_argument, NULL, 'L' },
        { "compare-args", required_argument, NULL, 'A' },
        { "timeout", required_argument, NULL, 'T' },
        { "clocks", required_argument, NULL, 'k' },
        { "list", no_argument, NULL, 'i' },
        { "sfpu", no_argument, NULL, 'S' },
        { "sfpu-macro", no_argument, NULL, 'M' },
        { "bench", no_argument, NULL, 'b' },
        { "tiles", required_argument, NULL, 'n' },
        { "dims", required_argument, NULL, 'D' },
        { "repeat", required_argument, NULL, 'r' },
        { "poll-us", required_argument, NULL, 'p' },
        { "stress", required_argument, NULL, 'R' },
        { "fuzz", required_argument, NULL, 'F' },
        { "replay", required_argument, NULL, 'P' },
        { "fuzz-invalid", no_argument, NULL, 'V' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    char *end, junk;

    while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
        switch (c) {
        case 'l':
            o->lib = optarg;
            break;
        case 'f':
            o->fw = optarg;
            break;
        case 'c':
            o->only = optarg;
            break;
        case 's':
            if (sscanf(optarg, "%" SCNu64 "%c", &o->seed, &junk) != 1) {
                die("bad seed '%s'", optarg);
            }
            break;
        case 't':
            if (sscanf(optarg, "%d,%d", &o->tile_x, &o->tile_y) != 2) {
                die("bad tile '%s' (want X,Y)", optarg);
            }
            break;
        case 'd':
            o->dump = optarg;
            break;
        case 'L':
            o->lib2 = optarg;
            break;
        case 'A':
            o->args2 = optarg;
            break;
        case 'T':
            o->timeout = strtod(optarg, &end);
            if (*end || o->timeout <= 0) {
                die("bad timeout '%s'", optarg);
            }
            break;
        case 'k':
            if (sscanf(optarg, "%" SCNu32 "%c", &o->clocks, &junk) != 1 ||
                !o->clocks) {
                die("bad clock count '%s'", optarg);
            }
            break;
        case 'i':
            o->list = true;
            break;
        case 'S':
            o->sfpu = true;
            break;
        case 'M':
            o->sfpu_macro = true;
            break;
        case 'b':
            o->bench = true;
            break;
        case 'n':
            o->tiles = opt_int(optarg, 1, TT_HOST_TENSIX_TILES, "tile count");
            break;
        case 'D':
            if (sscanf(optarg, "%d,%d,%d%c", &o->dims[0], &o->dims[1],
                       &o->dims[2], &junk) != 3 || o->dims[0] < 1 ||
                o->dims[1] < 1 || o->dims[2] < 1 || o->dims[0] > 64 ||
                o->dims[1] > 64 || o->dims[2] > 64) {
                die("bad dims '%s' (want MT,KT,NT, each 1-64)", optarg);
            }
            break;
        case 'r':
            o->repeat = opt_int(optarg, 1, 64, "repeat count");
            break;
        case 'p':
            if (sscanf(optarg, "%u%c", &o->poll_us, &junk) != 1 ||
                o->poll_us > 1000000) {
                die("bad poll interval '%s' (0-1000000 us)", optarg);
            }
            break;
        case 'F':
            o->fuzz = opt_int(optarg, 1, INT_MAX, "program count");
            break;
        case 'P':
            o->replay = optarg;
            break;
        case 'V':
            o->fuzz_invalid = true;
            break;
        case 'R':
            o->stress = opt_int(optarg, 1, INT_MAX, "stress run count");
            break;
        case 'h':
            usage(EXIT_SUCCESS);
            break;
        default:
            usage(EXIT_FAILURE);
        }
    }
    if (optind != argc || (!o->lib && !o->list)) {
        usage(EXIT_FAILURE);
    }
}

static uint8_t *load_fw(const char *path, size_t *n)
{
    uint8_t *p = tt_host_read_file(path, TTK_IMAGE_MAX, n);

    if (!p) {
        die("%s: %s (a kernel image of at most 0x%x bytes)", path,
            strerror(errno), TTK_IMAGE_MAX);
    }
    return p;
}

static const char *default_fw(const char *argv0)
{
    static char path[PATH_MAX];
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

    if (n <= 0) {
        snprintf(self, sizeof(self), "%s", argv0);
    } else {
        self[n] = 0;
    }
    snprintf(path, sizeof(path), "%s/tensix-fw/tt-kernels.bin",
             dirname(self));
    return path;
}

/*
 * The first datum where two libraries' results differ (from result byte
 * @k): where it is, both values, and its input for the vector-unit ops
 */
static void compare_diag(const Case *c, const Opts *o, const Outcome *o1,
                         const Outcome *o2, size_t k)
{
    uint32_t ds = datum_size(c->fmt_out), v1 = 0, v2 = 0;
    size_t i = k / ds, diff = 0;
    int t, r, col;
    Run run = { 0 };
    uint16_t *a, *b;

    for (size_t j = 0; j + ds <= o1->n; j += ds) {
        diff += memcmp(o1->bytes + j, o2->bytes + j, ds) != 0;
    }
    memcpy(&v1, o1->bytes + i * ds, ds);
    memcpy(&v2, o2->bytes + i * ds, ds);
    tile_rc(i, &t, &r, &col);
    tt_diag("%s: %zu of %zu datums differ; first: datum %zu (tile %d, row %d,"
            " column %d): 0x%0*x vs 0x%0*x", c->name, diff, o1->n / ds, i, t,
            r, col, (int)(2 * ds), v1, (int)(2 * ds), v2);
    if (c->op == TTK_OP_SFPU && c->sub_op != TTK_SFPU_TOPK) {
        case_operands(c, o, &run, &a, &b);
        tt_diag("%s: its input: BF16 0x%04x (%.9g)", c->name, a[i],
                tt_ref_bf16_value(a[i]));
        free(run.out);
        free(a);
        free(b);
    }
}

static bool same_file(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];

    return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

int main(int argc, char **argv)
{
    Opts o = {
        .lib = getenv("TT_LIBTTSIM"), .seed = 1, .tile_x = 1, .tile_y = 2,
        .timeout = 60, .clocks = 2000, .tiles = 1, .repeat = 3,
    };
    Lib lib1 = { 0 }, lib2 = { 0 };
    uint8_t *fw;
    size_t fwn;
    int selected = 0;

    parse_args(argc, argv, &o);
    if (o.list) {
        for (size_t i = 0; i < NCASES; i++) {
            const Case *c = &cases[i];

            printf("%-28s %s%s%s\n", c->name, c->what,
                   c->flags & CASE_MACRO ? " [--sfpu-macro]" :
                   c->flags & CASE_SFPU ? " [--sfpu]" : "",
                   c->ttsim_aborts ? " [not on ttsim]" : "");
        }
        return EXIT_SUCCESS;
    }
    for (size_t i = 0; i < NCASES; i++) {
        selected += case_selected(&o, &cases[i]);
    }
    if (!selected) {
        die("no case '%s' (see --list)", o.only);
    }
    if (!o.fw) {
        o.fw = default_fw(argv[0]);
    }
    fw = load_fw(o.fw, &fwn);
    if (o.fuzz || o.replay) {
        int status = fuzz(&o, fw, fwn);

        free(fw);
        return status;
    }
    if (o.bench || o.stress) {
        int status = bench(&o, fw, fwn);

        free(fw);
        return status;
    }
    if (o.dump) {
        dump_file = fopen(o.dump, "wb");
        if (!dump_file) {
            die("%s: %s", o.dump, strerror(errno));
        }
    }

    lib_open(&lib1, o.lib, false);
    if (!lib_start(&lib1, &o, fw, fwn)) {
        goto done;
    }
    if (o.lib2) {
        lib_open(&lib2, o.lib2, same_file(o.lib, o.lib2));
        if (!lib_start(&lib2, &o, fw, fwn)) {
            goto done;
        }
    }
    for (size_t i = 0; i < NCASES; i++) {
        const Case *c = &cases[i];
        Outcome oc1 = { 0 }, oc2 = { 0 };

        if (!case_selected(&o, c)) {
            continue;
        }
        if (c->ttsim_aborts && lib1.ttsim) {
            tt_skip(c->ttsim_aborts, "%s: not run on %s", c->name,
                    lib1.h.path);
            continue;
        }
        run_case(&lib1, &o, c, "", &oc1);
        if (o.lib2 && c->ttsim_aborts && lib2.ttsim) {
            tt_skip(c->ttsim_aborts, "%s: not compared with %s", c->name,
                    lib2.h.path);
        } else if (o.lib2) {
            run_case(&lib2, &o, c, "lib2: ", &oc2);
            if (oc1.ran && oc2.ran && oc1.n == oc2.n) {
                size_t k = 0;

                while (k < oc1.n && oc1.bytes[k] == oc2.bytes[k]) {
                    k++;
                }
                tt_ok(k == oc1.n, "%s: %s and %s bit-identical (%zu bytes%s)",
                      c->name, lib1.h.path, lib2.h.path, oc1.n,
                      k == oc1.n ? "" : ", they differ");
                if (k != oc1.n) {
                    compare_diag(c, &o, &oc1, &oc2, k);
                }
            } else {
                tt_ok(false, "%s: %s and %s bit-identical (a run failed)",
                      c->name, lib1.h.path, lib2.h.path);
            }
        }
        free(oc1.bytes);
        free(oc2.bytes);
    }
    tt_ok(!tt_host_dma_calls(), "no device-to-host DMA (%u callbacks)",
          tt_host_dma_calls());
    lib1.h.exit();
    if (o.lib2) {
        lib2.h.exit();
    }
done:
    if (dump_file) {
        fclose(dump_file);
    }
    free(fw);
    return tt_done();
}
