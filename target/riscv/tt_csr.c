/*
 * Tenstorrent Blackhole baby RISC-V custom CSRs.
 *
 * Source: tt-isa-documentation BlackholeA0/TensixTile/BabyRISCV/CSRs.md.
 * The functional model stores the chicken bits and scratch registers; none of
 * them changes how the emulated core executes.  The Tensix front-end status
 * CSRs read 0 ("not busy") because the coprocessor model completes work
 * synchronously with respect to these reads.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "cpu.h"

/* cfg0 resets to StMergeTimer (bits 17:13) = 16, everything else 0. */
#define TT_CFG0_RESET (16u << 13)

typedef struct TTCsrInfo {
    uint16_t csrno;
    uint32_t reset;
    uint32_t wmask;     /* 0: read-only */
} TTCsrInfo;

/* Slot i of env->tt_csr holds tt_csr_info[i]. */
static const TTCsrInfo tt_csr_info[TT_CSR_SLOTS] = {
    { 0x7c0, TT_CFG0_RESET, 0xffffffff },   /* cfg0 */
    { 0x7c1, 0, 0x1 },                      /* pmacfg0: only bit 0 */
    { 0x7c2, 0, 0x1 },                      /* pmacfg1: only bit 0 */
    { 0x7c3, 0, 0xffffffff },               /* cfg1 */
    { 0x7c4, 0, 0xffffffff },               /* hwa_mask */
    { 0x7c5, 0, 0xffffffff },               /* hwa_cfg */
    { 0x7c6, 0, 0xffffffff },               /* vgsrc */
    { 0xbc2, 0, 0xffffffff },               /* tt_cfg_sstatus0..7 */
    { 0xbc3, 0, 0xffffffff },
    { 0xbc4, 0, 0xffffffff },
    { 0xbc5, 0, 0xffffffff },
    { 0xbc6, 0, 0xffffffff },
    { 0xbc7, 0, 0xffffffff },
    { 0xbc8, 0, 0xffffffff },
    { 0xbc9, 0, 0xffffffff },
    { 0xbca, 0, 0xffffffff },               /* intp_restore_pc */
};

static int tt_csr_slot(int csrno)
{
    for (int i = 0; i < TT_CSR_SLOTS; i++) {
        if (tt_csr_info[i].csrno == csrno) {
            return i;
        }
    }
    return -1;
}

void tt_csr_reset(CPURISCVState *env)
{
    for (int i = 0; i < TT_CSR_SLOTS; i++) {
        env->tt_csr[i] = tt_csr_info[i].reset;
    }
}

static RISCVException tt_mmode(CPURISCVState *env, int csrno)
{
    return env->priv == PRV_M ? RISCV_EXCP_NONE : RISCV_EXCP_ILLEGAL_INST;
}

static RISCVException tt_read_slot(CPURISCVState *env, int csrno,
                                   target_ulong *val)
{
    int i = tt_csr_slot(csrno);

    *val = i < 0 ? 0 : env->tt_csr[i];
    return RISCV_EXCP_NONE;
}

static RISCVException tt_write_slot(CPURISCVState *env, int csrno,
                                    target_ulong val, uintptr_t ra)
{
    int i = tt_csr_slot(csrno);

    if (i >= 0) {
        env->tt_csr[i] = (env->tt_csr[i] & ~tt_csr_info[i].wmask) |
                         (val & tt_csr_info[i].wmask);
    }
    return RISCV_EXCP_NONE;
}

/* tt_cfg_qstatus / tt_cfg_bstatus: Tensix front end idle. */
static RISCVException tt_read_zero(CPURISCVState *env, int csrno,
                                   target_ulong *val)
{
    *val = 0;
    return RISCV_EXCP_NONE;
}

#define TT_RW(no, name) \
    { .csrno = (no), .csr_ops = { name, tt_mmode, tt_read_slot, \
                                  tt_write_slot } }
#define TT_RO0(no, name) \
    { .csrno = (no), .csr_ops = { name, tt_mmode, tt_read_zero } }

const RISCVCSR tt_csr_list[] = {
    TT_RW(0x7c0, "tt.cfg0"),
    TT_RW(0x7c1, "tt.pmacfg0"),
    TT_RW(0x7c2, "tt.pmacfg1"),
    TT_RW(0x7c3, "tt.cfg1"),
    TT_RW(0x7c4, "tt.hwa_mask"),
    TT_RW(0x7c5, "tt.hwa_cfg"),
    TT_RW(0x7c6, "tt.vgsrc"),
    TT_RO0(0xbc0, "tt.cfg_qstatus"),
    TT_RO0(0xbc1, "tt.cfg_bstatus"),
    TT_RW(0xbc2, "tt.cfg_sstatus0"),
    TT_RW(0xbc3, "tt.cfg_sstatus1"),
    TT_RW(0xbc4, "tt.cfg_sstatus2"),
    TT_RW(0xbc5, "tt.cfg_sstatus3"),
    TT_RW(0xbc6, "tt.cfg_sstatus4"),
    TT_RW(0xbc7, "tt.cfg_sstatus5"),
    TT_RW(0xbc8, "tt.cfg_sstatus6"),
    TT_RW(0xbc9, "tt.cfg_sstatus7"),
    TT_RW(0xbca, "tt.intp_restore_pc"),
    { }
};
