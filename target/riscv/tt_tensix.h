/*
 * Tenstorrent TRISC cores: inline Tensix instruction words.
 *
 * A 32-bit word whose low two bits are not 11 is no RV32 instruction (the
 * TRISCs have no compressed ones): it is a Tensix instruction rotated left
 * by two (xtttensix.decode), which the core pushes to its Tensix thread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef TARGET_RISCV_TT_TENSIX_H
#define TARGET_RISCV_TT_TENSIX_H

#include "qemu/bitops.h"

static inline bool tt_insn_is_inline_word(uint32_t insn)
{
    return (insn & 3) != 3;
}

/* The Tensix instruction of inline word @insn */
static inline uint32_t tt_inline_word(uint32_t insn)
{
    return ror32(insn, 2);
}

#endif
