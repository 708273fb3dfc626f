/*
 * Tenstorrent Blackhole Tensix address counters (ADCs): the X/Y/Z/W
 * counters of each thread's unpackers and packers, and the instructions
 * that set and advance them.
 *
 * Source: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/
 * ADCs.md (Blackhole widths: X 18, Y/Z/W 13 bits), WormholeB0 SETADC.md,
 * SETADCXX.md, SETADCXY.md, SETADCZW.md, INCADCXY.md, INCADCZW.md,
 * ADDRCRXY.md, ADDRCRZW.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "tensix-common.h"

const uint32_t tt_adc_mask[4] = { 0x3ffff, 0x1fff, 0x1fff, 0x1fff };

static int tt_adc_thread(TTTensix *t, int thread, uint32_t over, uint32_t w)
{
    if (over) {
        /* ISA: "UnsupportedFunctionality, weak confidence" */
        qemu_log_mask(LOG_UNIMP, "x%dy%d tensix T%d: %s thread override %u "
                      "used\n", t->tile_x, t->tile_y, thread,
                      tt_tensix_isa[w >> 24].name, over);
        return over - 1 < TT_TENSIX_THREADS ? over - 1 : thread;
    }
    return thread;
}

/*
 * SETADCXY/ZW, INCADCXY/ZW, ADDRCRXY/ZW: the XY and ZW forms share one
 * layout (ch0 [8:6], ch0' [11:9], ch1 [14:12], ch1' [17:15]); @d0 is the
 * first dimension (0: X, 2: Z).
 */
static void tt_adc_xyzw(TTTensix *t, int thread, uint32_t w, int d0)
{
    uint32_t op = w >> 24, mask = tt_setadcxy_cnt_set_mask(w);
    uint32_t v[4] = { tt_setadcxy_ch0_x(w), tt_setadcxy_ch0_y(w),
                      tt_setadcxy_ch1_x(w), tt_setadcxy_ch1_y(w) };
    bool inc = op == TT_OP_INCADCXY || op == TT_OP_INCADCZW;
    uint32_t bits = inc ? 0xf : tt_setadcxy_bit_mask(w);
    int th = tt_adc_thread(t, thread, tt_setadcxy_thread_override(w), w);

    for (int u = 0; u < 3; u++) {
        TTTensixAdc *a = &t->th[th].adc[u];

        if (!(mask & BIT(u))) {
            continue;
        }
        for (int i = 0; i < 4; i++) {
            int ch = i / 2, d = d0 + (i & 1);
            uint32_t m = tt_adc_mask[d];

            if (!(bits & BIT(i))) {
                continue;
            }
            if (inc) {
                a->val[ch][d] = (a->val[ch][d] + v[i]) & m;
            } else if (op == TT_OP_ADDRCRXY || op == TT_OP_ADDRCRZW) {
                a->cr[ch][d] = (a->cr[ch][d] + v[i]) & m;
                a->val[ch][d] = a->cr[ch][d];
            } else {
                a->val[ch][d] = a->cr[ch][d] = v[i];
            }
        }
    }
}

static void tt_adc_set(TTTensix *t, int thread, uint32_t w)
{
    uint32_t mask = tt_setadcxx_cnt_set_mask(w);
    int th = thread;

    for (int u = 0; u < 3; u++) {
        TTTensixAdc *a;

        if (!(mask & BIT(u))) {
            continue;
        }
        if (w >> 24 == TT_OP_SETADCXX) {    /* both channels' X */
            a = &t->th[thread].adc[u];
            a->val[0][0] = a->cr[0][0] = tt_setadcxx_x_start(w);
            a->val[1][0] = a->cr[1][0] = tt_setadcxx_x_end2(w);
            continue;
        }
        /* SETADC: ISA takes a thread override from NewValue[17:16] */
        th = tt_adc_thread(t, thread, tt_setadc_value(w) >> 16, w);
        a = &t->th[th].adc[u];
        a->val[tt_setadc_channel_index(w)][tt_setadc_dimension_index(w)] =
        a->cr[tt_setadc_channel_index(w)][tt_setadc_dimension_index(w)] =
            tt_setadc_value(w) & tt_adc_mask[tt_setadc_dimension_index(w)];
    }
}

bool tensix_setadc(TTTensix *t, int thread, uint32_t w)
{
    tt_adc_set(t, thread, w);
    return true;
}

bool tensix_setadcxx(TTTensix *t, int thread, uint32_t w)
{
    tt_adc_set(t, thread, w);
    return true;
}

bool tensix_setadcxy(TTTensix *t, int thread, uint32_t w)
{
    tt_adc_xyzw(t, thread, w, 0);
    return true;
}

bool tensix_incadcxy(TTTensix *t, int thread, uint32_t w)
{
    tt_adc_xyzw(t, thread, w, 0);
    return true;
}

bool tensix_addrcrxy(TTTensix *t, int thread, uint32_t w)
{
    tt_adc_xyzw(t, thread, w, 0);
    return true;
}

bool tensix_setadczw(TTTensix *t, int thread, uint32_t w)
{
    tt_adc_xyzw(t, thread, w, 2);
    return true;
}

bool tensix_incadczw(TTTensix *t, int thread, uint32_t w)
{
    tt_adc_xyzw(t, thread, w, 2);
    return true;
}

bool tensix_addrcrzw(TTTensix *t, int thread, uint32_t w)
{
    tt_adc_xyzw(t, thread, w, 2);
    return true;
}
