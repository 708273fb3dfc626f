/*
 * Tensix instruction words for test firmware: the generated
 * TT_ENC_<MNEMONIC>(fields, most significant first) of tt-tensix-enc.h
 * (gen-tensix-isa.py --encoders over hw/tenstorrent/data/tensix-isa.yaml,
 * the data the emulator decodes with), under the names and short operand
 * lists of tt-llk's ckernel_ops.h.  Configuration and ThreadConfig
 * fields come from tt-tensix-config.h.  The constants at the end check
 * the instructions only these tests use against words worked out by hand
 * from tt-llk's field layouts (tt_llk_blackhole/common/inc/ckernel_ops.h);
 * firmware/tensix/tt-insn.h checks more.
 */
#ifndef TT_FW_TENSIX_H
#define TT_FW_TENSIX_H

#include "tt.h"
#include "tt-tensix-config.h"
#include "tt-tile-map.h"         /* generated from data/tile-map.yaml */
#include "tt-tensix-enc.h"

#define TT_NOP          TT_ENC_NOP()
#define TT_MOP(tpl, count, masklo) TT_ENC_MOP(tpl, count, masklo)
#define TT_MOP_CFG(maskhi)  TT_ENC_MOP_CFG(maskhi)
#define TT_REPLAY(start, len, exec, load) \
    TT_ENC_REPLAY(start, len, exec, load)
/* SETASHRMV: a legacy instruction with no documented effect */
#define TT_SETASHRMV    TT_ENC_SETASHRMV(0)
/* GPR half (2n: low, 2n + 1: high half of GPR n) = v16 */
#define TT_SETDMAREG16(half, v) TT_ENC_SETDMAREG((v) >> 14, v, 0, half)
/* GPR res = GPR a + imm6 */
#define TT_ADDDMAREG_IMM(res, imm, a) TT_ENC_ADDDMAREG(1, res, imm, a)
/* GPR res = low16(GPR a) * low16(GPR b) */
#define TT_MULDMAREG(res, b, a) TT_ENC_MULDMAREG(0, res, b, a)
/* GPR res = GPR a - GPR b; GPR res = GPR a OP GPR b, OP from @mode */
#define TT_SUBDMAREG(res, b, a) TT_ENC_SUBDMAREG(0, res, b, a)
#define TT_DMAREG(op, mode, res, b, a) TT_ENC_##op(0, mode, res, b, a)
#define TT_ATGETM(m)    TT_ENC_ATGETM(m)
#define TT_ATRELM(m)    TT_ENC_ATRELM(m)
#define TT_SEMINIT(max, init, sel) TT_ENC_SEMINIT(max, init, sel)
#define TT_SEMPOST(sel) TT_ENC_SEMPOST(sel)
#define TT_SEMGET(sel)  TT_ENC_SEMGET(sel)
/* stall every unit until no selected semaphore is zero */
#define TT_SEMWAIT_NZ(sel)  TT_ENC_SEMWAIT(B_ALL, sel, 1)
/* the wait gate: block mask [23:15] (B0 TDMA .. B8 SFPU) */
#define TT_STALLWAIT(block, cond)   TT_ENC_STALLWAIT(block, cond)
#define TT_SEMWAIT(block, sel, cond) TT_ENC_SEMWAIT(block, sel, cond)
#define TT_STREAMWAIT(block, lo, msgs, sel) \
    TT_ENC_STREAMWAIT(block, lo, msgs, sel)
#define B_THCON     (1u << 5)
#define B_MATH      (1u << 6)
#define B_ALL       0x1ffu
#define TT_INCRWC(cr, d, b, a) TT_ENC_INCRWC(cr, d, b, a)
/*
 * address counters: mask bit 0 unpacker 0, 1 unpacker 1, 2 packers; the
 * counters of this thread (no thread override)
 */
#define TT_SETADCXX(mask, x1, x0) TT_ENC_SETADCXX(mask, x1, x0)
#define TT_SETADCXY(mask, c1y, c1x, c0y, c0x, bits) \
    TT_ENC_SETADCXY(mask, 0, c1y, c1x, c0y, c0x, bits)
#define TT_INCADCXY(mask, c1y, c1x, c0y, c0x) \
    TT_ENC_INCADCXY(mask, 0, c1y, c1x, c0y, c0x)
#define TT_ADDRCRZW(mask, c1w, c1z, c0w, c0z, bits) \
    TT_ENC_ADDRCRZW(mask, 0, c1w, c1z, c0w, c0z, bits)
#define TT_SETADC(mask, ch, dim, v) TT_ENC_SETADC(mask, ch, dim, v)
/* SETRWC without clearing the source valids */
#define TT_SETRWC(cr, d, b, a, bits) TT_ENC_SETRWC(0, cr, d, b, a, bits)
#define TT_CFGSHIFTMASK(keep, op, width, rot, scratch, cfg) \
    TT_ENC_CFGSHIFTMASK(keep, op, width, rot, scratch, cfg)
/* the tile's registers at 0xFFB00000 + (addr_lo << 2) */
#define TT_STOREREG(gpr, addr) \
    TT_ENC_STOREREG(gpr, ((addr) - TT_TILE_LDM_BASE) >> 2)
#define TT_LOADREG(gpr, addr) \
    TT_ENC_LOADREG(gpr, ((addr) - TT_TILE_LDM_BASE) >> 2)
/* REG2FLOP, 32-bit configuration form: THCON config word 64 + idx */
#define TT_REG2FLOP32(idx, gpr) TT_ENC_REG2FLOP(1, 0, 0, 0, idx, gpr)
#define TT_WRCFG(gpr, wide, cfg) TT_ENC_WRCFG(gpr, wide, cfg)
#define TT_RDCFG(gpr, cfg)  TT_ENC_RDCFG(gpr, cfg)
#define TT_SETC16(reg, v)   TT_ENC_SETC16(reg, v)
/* RMWCIB0-3 (@n a literal): byte n of @cfg = old & ~mask | data & mask */
#define TT_RMWCIB(n, mask, data, cfg) TT_ENC_RMWCIB##n(mask, data, cfg)

/* .ttinsn: the word rotated left by two, inline in the code */
#define TT_ROL2(w)      TT_ENC_INLINE(w)
#define TT_INLINE(w)    __asm__ volatile(".word %0" : : "i"(TT_ROL2(w)) \
                                         : "memory")

#define TT_PUSH(t)          (TT_TILE_INSTRN_BUF_BASE + 0x10000u * (t))
#define TT_GPR(t, n)        (TT_TILE_TENSIX_GPR_BASE + 0x100u * (t) + 4u * (n))
#define TT_MY_GPR(n)        (TT_TILE_TENSIX_GPR_BASE + 4u * (n))
#define TT_SEM(n)           (TT_TILE_PC_BUF_BASE + 0x20u + 4u * (n))
#define TT_PCBUF            TT_TILE_PC_BUF_BASE /* TRISC: pop; BRISC: T0's */
#define TT_PCBUF_OF(t)      (TT_TILE_PC_BUF_BASE + 0x10000u * (t))  /* BRISC */
#define TT_SYNC             (TT_TILE_PC_BUF_BASE + 4u)  /* TRISC: TTSync */
#define STREAM_REG(s, r) \
    (TT_TILE_NOC_OVERLAY_BASE + 0x1000u * (s) + 4u * (r))
#define TT_CFG(w)           (TT_TILE_TENSIX_CFG_BASE + 4u * (w))
#define TT_THREAD_CFG(t, r) \
    (TT_TILE_TENSIX_CFG_BASE + 0xa80u + 4u * ((t) * TT_THCFG_WORDS + (r)))
#define TT_MOP_CFG_REG(k)   (TT_TILE_MOP_CFG_BASE + 4u * (k))

/* hand-computed checks */
_Static_assert(TT_MOP(0, 9, 0x0005) == 0x01090005, "MOP");
_Static_assert(TT_REPLAY(4, 3, 1, 1) == 0x04010033, "REPLAY");
_Static_assert(TT_SETDMAREG16(11, 0xabcd) == 0x45abcd0b, "SETDMAREG");
_Static_assert(TT_ADDDMAREG_IMM(10, 1, 10) == 0x5880a04a, "ADDDMAREG");
_Static_assert(TT_SUBDMAREG(30, 21, 20) == 0x5901e554, "SUBDMAREG");
_Static_assert(TT_MULDMAREG(15, 5, 5) == 0x5a00f145, "MULDMAREG");
_Static_assert(TT_DMAREG(CMPDMAREG, 2, 38, 20, 20) == 0x5d0a6514,
               "CMPDMAREG");
_Static_assert(TT_SEMWAIT_NZ(1) == 0xa6ff8005, "SEMWAIT");
_Static_assert(TT_STREAMWAIT(B_ALL, 3, 0, 1) == 0xa7ff8031, "STREAMWAIT");
_Static_assert(TT_SETADCXY(4, 3, 2, 5, 6, 0xf) == 0x5181ab8f, "SETADCXY");
_Static_assert(TT_SETRWC(0, 5, 2, 3, 0x7) == 0x370148c7, "SETRWC");
_Static_assert(TT_INCRWC(4, 4, 1, 2) == 0x38110480, "INCRWC");
_Static_assert(TT_CFGSHIFTMASK(1, 3, 31, 0, 0, 20) == 0xb8bf8014,
               "CFGSHIFTMASK");
_Static_assert(TT_STOREREG(20, STREAM_REG(3, 8)) == 0x67510c08, "STOREREG");
_Static_assert(TT_REG2FLOP32(5, 21) == 0x48400155, "REG2FLOP");

#endif
