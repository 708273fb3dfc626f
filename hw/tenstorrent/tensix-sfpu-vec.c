/*
 * Tenstorrent Blackhole Tensix Vector Unit: the lane arithmetic built for
 * the host's vector unit (tensix-sfpu-vec.c.inc), four lanes a vector on
 * any host, eight with AVX2 (which has per-lane shifts), sixteen with
 * AVX-512, chosen at run time: the FMA of SFPMAD and its family
 * (tensix-sfpu-mad.c) and SFP_STOCH_RND's rounding (tensix-sfpu-round.c,
 * which keeps the scalar functions as the reference path).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "tensix-sfpu-lanes.h"

#define TT_VL 4
#define TT_V(name) glue(name, 4)
#define TT_VTARGET
#include "tensix-sfpu-vec.c.inc"

#if defined(CONFIG_AVX2_OPT) || defined(CONFIG_AVX512BW_OPT)
#include "host/cpuinfo.h"
#endif

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

static void __attribute__((target("avx2")))
tt_sfp_rnd_avx2(uint32_t *d, const uint32_t *x, const uint32_t *p,
                const uint32_t *sh, unsigned mod)
{
    tt_sfp_rnd_body8(d, x, p, sh, mod);
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

static void __attribute__((target("avx512f,avx512bw")))
tt_sfp_rnd_avx512(uint32_t *d, const uint32_t *x, const uint32_t *p,
                  const uint32_t *sh, unsigned mod)
{
    tt_sfp_rnd_body16(d, x, p, sh, mod);
}

#define TT_CPU_AVX512   (CPUINFO_AVX512F | CPUINFO_AVX512BW)
#endif

/* The widest vector instructions this host has and QEMU was built for */
unsigned tt_vec_host(void)
{
#ifdef CONFIG_AVX512BW_OPT
    if ((cpuinfo & TT_CPU_AVX512) == TT_CPU_AVX512) {
        return TT_VEC_AVX512;
    }
#endif
#ifdef CONFIG_AVX2_OPT
    if (cpuinfo & CPUINFO_AVX2) {
        return TT_VEC_AVX2;
    }
#endif
    return TT_VEC_NONE;
}

void tt_sfp_fma(unsigned vec, uint32_t *d, const uint32_t *x,
                const uint32_t *y, const uint32_t *z)
{
    switch (vec) {
#ifdef CONFIG_AVX512BW_OPT
    case TT_VEC_AVX512:
        tt_sfp_fma_avx512(d, x, y, z);
        return;
#endif
#ifdef CONFIG_AVX2_OPT
    case TT_VEC_AVX2:
        tt_sfp_fma_avx2(d, x, y, z);
        return;
#endif
    default:
        tt_sfp_fma_body4(d, x, y, z);
    }
}

void tt_sfp_rnd(unsigned vec, uint32_t *d, const uint32_t *x,
                const uint32_t *p, const uint32_t *sh, unsigned mod)
{
    switch (vec) {
#ifdef CONFIG_AVX512BW_OPT
    case TT_VEC_AVX512:
        tt_sfp_rnd_avx512(d, x, p, sh, mod);
        return;
#endif
#ifdef CONFIG_AVX2_OPT
    case TT_VEC_AVX2:
        tt_sfp_rnd_avx2(d, x, p, sh, mod);
        return;
#endif
    default:
        tt_sfp_rnd_body4(d, x, p, sh, mod);
    }
}
