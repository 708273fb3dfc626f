/*
 * RV32I instruction words for the tiny programs the libttsim tests run on
 * a Tensix core (RISC-V unprivileged ISA, chapter 2 "RV32I Base Integer
 * Instruction Set": R/I/S/B/U/J formats).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_RV32_H
#define TT_RV32_H

#include <stdint.h>

enum {
    RV_ZERO = 0, RV_RA = 1, RV_T0 = 5, RV_T1 = 6, RV_T2 = 7, RV_S0 = 8,
    RV_S1 = 9, RV_A0 = 10, RV_A1 = 11, RV_A2 = 12,
};

static inline uint32_t rv_i(uint32_t op, uint32_t f3, int rd, int rs1,
                            int32_t imm)
{
    return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 |
           op;
}

static inline uint32_t rv_lui(int rd, uint32_t imm20)
{
    return (imm20 & 0xfffff) << 12 | rd << 7 | 0x37;
}

static inline uint32_t rv_addi(int rd, int rs1, int32_t imm)
{
    return rv_i(0x13, 0, rd, rs1, imm);
}

static inline uint32_t rv_xori(int rd, int rs1, int32_t imm)
{
    return rv_i(0x13, 4, rd, rs1, imm);
}

static inline uint32_t rv_lw(int rd, int rs1, int32_t imm)
{
    return rv_i(0x03, 2, rd, rs1, imm);
}

static inline uint32_t rv_jalr(int rd, int rs1, int32_t imm)
{
    return rv_i(0x67, 0, rd, rs1, imm);
}

static inline uint32_t rv_sw(int rs2, int rs1, int32_t imm)
{
    return ((uint32_t)imm >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 |
           2 << 12 | ((uint32_t)imm & 0x1f) << 7 | 0x23;
}

/* beq (@f3 0) / bne (@f3 1) to @off bytes from this instruction */
static inline uint32_t rv_branch(uint32_t f3, int rs1, int rs2, int32_t off)
{
    uint32_t o = off;

    return (o >> 12 & 1) << 31 | (o >> 5 & 0x3f) << 25 | rs2 << 20 |
           rs1 << 15 | f3 << 12 | (o >> 1 & 0xf) << 8 | (o >> 11 & 1) << 7 |
           0x63;
}

static inline uint32_t rv_jal(int rd, int32_t off)
{
    uint32_t o = off;

    return (o >> 20 & 1) << 31 | (o >> 1 & 0x3ff) << 21 |
           (o >> 11 & 1) << 20 | (o >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}

/* A program being assembled, with backward and forward branch targets */
typedef struct RvProg {
    uint32_t insn[256];
    int n;
} RvProg;

static inline int rv_emit(RvProg *p, uint32_t insn)
{
    p->insn[p->n] = insn;
    return p->n++;
}

static inline void rv_li(RvProg *p, int rd, uint32_t v)
{
    uint32_t hi = (v + 0x800) >> 12;

    rv_emit(p, rv_lui(rd, hi));
    rv_emit(p, rv_addi(rd, rd, (int32_t)(v - (hi << 12))));
}

/* Branch at index @at to index @to (either direction) */
static inline void rv_fix_branch(RvProg *p, int at, uint32_t f3, int rs1,
                                 int rs2, int to)
{
    p->insn[at] = rv_branch(f3, rs1, rs2, (to - at) * 4);
}

static inline void rv_fix_jal(RvProg *p, int at, int to)
{
    p->insn[at] = rv_jal(RV_ZERO, (to - at) * 4);
}

#endif
