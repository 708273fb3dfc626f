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
 * This file: the issue path every SFP instruction takes (tt_sfpu_issue,
 * from tt_tensix_isa[]; the mnemonic's handler from tt_sfpu_isa[], both
 * generated from tensix-isa.yaml), SFPLOADMACRO's scheduling, the PRNG's
 * seed, reset and the monitor's dump.  The handlers are in a file per
 * sub-unit (tensix-sfpu-load.c, -simple.c, -mad.c, -round.c), their
 * shared lane helpers in tensix-sfpu-lanes.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */


#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/host-utils.h"
#include "tensix-sfpu-lanes.h"
#include "trace.h"

/* ------------------------------------------------------------- PRNG -- */

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

/* ------------------------------------------------------- LaneConfig -- */

/*
 * The lane masks of LaneConfig, derived once per write rather than per
 * instruction: column c is lanes c, c + 8, c + 16 and c + 24
 */
void tt_sfpu_lane_config_changed(TTTensix *t)
{
    TTTensixSfpu *s = &t->sfpu;

    QEMU_BUILD_BUG_ON(TT_LC_EXCHANGE_SRCB_SRCC >=
                      BIT(ARRAY_SIZE(s->lc_lanes)));
    memset(s->lc_lanes, 0, sizeof(s->lc_lanes));
    s->lc_rows_off = 0;
    for (unsigned c = 0; c < TT_SFPU_COLS; c++) {
        uint32_t lc = s->lane_config[c];
        uint32_t m = lc >> TT_LC_ROW_MASK_SHIFT & 15;

        for (unsigned b = 0; b < ARRAY_SIZE(s->lc_lanes); b++) {
            s->lc_lanes[b] |= (lc >> b & 1 ? 0x01010101u : 0) << c;
        }
        s->lc_rows_off |= ((m & 1) | (m & 2) << 7 | (m & 4) << 14 |
                           (m & 8) << 21) << c;
    }
}

/*
 * Whether LoadMacroConfig differs between the columns, derived once per
 * write rather than compared at every SFPLOADMACRO
 */
void tt_sfpu_lm_changed(TTTensix *t)
{
    TTTensixSfpu *s = &t->sfpu;

    /* each column equal to the one before: all equal (the usual case) */
    s->lm_mixed =
        memcmp(s->lm_template[1], s->lm_template[0],
               sizeof(s->lm_template) - sizeof(s->lm_template[0])) ||
        memcmp(s->lm_sequence[1], s->lm_sequence[0],
               sizeof(s->lm_sequence) - sizeof(s->lm_sequence[0])) ||
        memcmp(&s->lm_misc[1], &s->lm_misc[0],
               sizeof(s->lm_misc) - sizeof(s->lm_misc[0]));
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
    QEMU_UNINITIALIZED TTTensixSfpSched due[TT_SFPU_SCHED];
    unsigned n = 0, k = 0, busy = 0, sr = 0, sr16 = 0;

    /*
     * An entry moves before its count byte is written: a whole-entry
     * load right after that store waits for the store to retire
     */
    for (unsigned j = 0; j < s->nsched; j++) {
        if (s->sched[j].count == 0) {
            due[n++] = s->sched[j];
            continue;
        }
        if (k != j) {
            s->sched[k] = s->sched[j];
        }
        s->sched[k++].count--;
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
static void tt_sfp_override(TTTensixSfpSched *op, unsigned bits, unsigned vd)
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

    if (!s->lm_mixed) {
        return;
    }
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
                if (s->sched[j].unit == u && s->sched[j].count == op.count) {
                    continue;
                }
                if (k != j) {
                    s->sched[k] = s->sched[j];
                }
                k++;
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
        tt_sfpu_lm_changed(t);
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
    tt_sfpu_lane_config_changed(t);
    tt_sfpu_lm_changed(t);
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
