/*
 * Tensix instruction encoders for test firmware, written from the field
 * tables in tensix-coprocessor.md (tt-llk ckernel_ops.h layouts), not from
 * the emulator's generated table, so each checks the other.
 */
#ifndef TT_FW_TENSIX_H
#define TT_FW_TENSIX_H

#include "tt.h"

#define TT_OP(op, p)    (((uint32_t)(op) << 24) | (uint32_t)(p))
#define TT_NOP          TT_OP(0x02, 0)
#define TT_MOP(tpl, count, masklo) \
    TT_OP(0x01, (tpl) << 23 | (count) << 16 | (masklo))
#define TT_MOP_CFG(maskhi)  TT_OP(0x03, (maskhi))
#define TT_REPLAY(start, len, exec, load) \
    TT_OP(0x04, (start) << 14 | (len) << 4 | (exec) << 1 | (load))
/* SETASHRMV: a legacy instruction with no documented effect */
#define TT_SETASHRMV    TT_OP(0x1c, 0)
/* GPR half (2n: low, 2n + 1: high half of GPR n) = v16 */
#define TT_SETDMAREG16(half, v) \
    TT_OP(0x45, ((v) >> 14) << 22 | ((v) & 0x3fff) << 8 | (half))
/* GPR res = GPR a + imm6 */
#define TT_ADDDMAREG_IMM(res, imm, a) \
    TT_OP(0x58, 1u << 23 | (res) << 12 | (imm) << 6 | (a))
/* GPR res = low16(GPR a) * low16(GPR b) */
#define TT_MULDMAREG(res, b, a) \
    TT_OP(0x5a, (res) << 12 | (b) << 6 | (a))
#define TT_ATGETM(m)    TT_OP(0xa0, (m))
#define TT_ATRELM(m)    TT_OP(0xa1, (m))
#define TT_SEMINIT(max, init, sel) \
    TT_OP(0xa3, (max) << 20 | (init) << 16 | (sel) << 2)
#define TT_SEMPOST(sel) TT_OP(0xa4, (sel) << 2)
#define TT_SEMGET(sel)  TT_OP(0xa5, (sel) << 2)
/* stall every unit until no selected semaphore is zero */
#define TT_SEMWAIT_NZ(sel)  TT_OP(0xa6, 0x1ffu << 15 | (sel) << 2 | 1)
/* the wait gate: block mask [23:15] (B0 TDMA .. B8 SFPU) */
#define TT_STALLWAIT(block, cond)   TT_OP(0xa2, (block) << 15 | (cond))
#define TT_SEMWAIT(block, sel, cond) \
    TT_OP(0xa6, (block) << 15 | (sel) << 2 | (cond))
#define TT_STREAMWAIT(block, lo, msgs, sel) \
    TT_OP(0xa7, (block) << 15 | (lo) << 4 | (msgs) << 3 | (sel))
#define B_THCON     (1u << 5)
#define B_MATH      (1u << 6)
#define B_ALL       0x1ffu
#define TT_INCRWC(cr, d, b, a) \
    TT_OP(0x38, (cr) << 18 | (d) << 14 | (b) << 10 | (a) << 6)
/* address counters: mask bit 0 unpacker 0, 1 unpacker 1, 2 packers */
#define TT_SETADCXX(mask, x1, x0) TT_OP(0x5e, (mask) << 21 | (x1) << 10 | (x0))
#define TT_ADC_XYZW(op, mask, c1b, c1a, c0b, c0a, bits) \
    TT_OP(op, (mask) << 21 | (c1b) << 15 | (c1a) << 12 | (c0b) << 9 | \
          (c0a) << 6 | (bits))
#define TT_SETADCXY     0x51
#define TT_INCADCXY     0x52
#define TT_ADDRCRZW     0x56
#define TT_SETADC(mask, ch, dim, v) \
    TT_OP(0x50, (mask) << 21 | (ch) << 20 | (dim) << 18 | (v))
#define TT_SETRWC(cr, d, b, a, bits) \
    TT_OP(0x37, (cr) << 18 | (d) << 14 | (b) << 10 | (a) << 6 | (bits))
/* GPR res = GPR a OP GPR b; mode for BITWOP/SHIFT/CMP */
#define TT_DMAREG(op, mode, res, b, a) \
    TT_OP(op, (mode) << 18 | (res) << 12 | (b) << 6 | (a))
#define TT_SUBDMAREG    0x59
#define TT_BITWOPDMAREG 0x5b
#define TT_SHIFTDMAREG  0x5c
#define TT_CMPDMAREG    0x5d
#define TT_CFGSHIFTMASK(keep, op, width, rot, scratch, cfg) \
    TT_OP(0xb8, (keep) << 23 | (op) << 20 | (width) << 15 | (rot) << 10 | \
          (scratch) << 8 | (cfg))
/* the tile's registers at 0xFFB00000 + (addr_lo << 2) */
#define TT_STOREREG(gpr, addr)  TT_OP(0x67, (gpr) << 18 | \
                                      (((addr) - 0xffb00000u) >> 2))
#define TT_LOADREG(gpr, addr)   TT_OP(0x68, (gpr) << 18 | \
                                      (((addr) - 0xffb00000u) >> 2))
/* REG2FLOP, 32-bit configuration form: THCON config word 64 + idx */
#define TT_REG2FLOP32(idx, gpr) TT_OP(0x48, 1u << 22 | (idx) << 6 | (gpr))
#define TT_WRCFG(gpr, wide, cfg) TT_OP(0xb0, (gpr) << 16 | (wide) << 15 | (cfg))
#define TT_RDCFG(gpr, cfg)  TT_OP(0xb1, (gpr) << 16 | (cfg))
#define TT_SETC16(reg, v)   TT_OP(0xb2, (reg) << 16 | (v))
#define TT_RMWCIB(n, mask, data, cfg) \
    TT_OP(0xb3 + (n), (mask) << 16 | (data) << 8 | (cfg))

/* .ttinsn: the word rotated left by two, inline in the code */
#define TT_ROL2(w)      ((uint32_t)(((w) << 2) | ((w) >> 30)))
#define TT_INLINE(w)    __asm__ volatile(".word %0" : : "i"(TT_ROL2(w)) \
                                         : "memory")

#define TT_PUSH(t)          (0xffe40000u + 0x10000u * (t))
#define TT_GPR(t, n)        (0xffe00000u + 0x100u * (t) + 4u * (n))
#define TT_MY_GPR(n)        (0xffe00000u + 4u * (n))
#define TT_SEM(n)           (0xffe80020u + 4u * (n))
#define TT_PCBUF            0xffe80000u     /* TRISC: pop; BRISC: T0's */
#define TT_PCBUF_OF(t)      (0xffe80000u + 0x10000u * (t))  /* BRISC */
#define TT_SYNC             0xffe80004u     /* TRISC: TTSync */
#define STREAM_REG(s, r)    (0xffb40000u + 0x1000u * (s) + 4u * (r))
#define TT_CFG(w)           (0xffef0000u + 4u * (w))
#define TT_THREAD_CFG(t, r) (0xffef0a80u + 4u * ((t) * 68 + (r)))
#define TT_MOP_CFG_REG(k)   (0xffb80000u + 4u * (k))

#endif
