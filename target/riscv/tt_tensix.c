/*
 * Tenstorrent TRISC cores: inline Tensix instruction words.
 *
 * A TRISC pushes an inline word (xtttensix.decode) to its Tensix thread as
 * if it stored the word to the thread's instruction buffer.  The machine
 * installs env->tt_push_hook, which hands the word to the coprocessor
 * directly: the store would go through the TLB and the MMIO dispatch for
 * every instruction of a compute kernel.  Without a hook, or while gdb
 * watches memory, the word takes the store path (watchpoints see it).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "cpu.h"
#include "exec/helper-proto.h"
#include "accel/tcg/cpu-ldst.h"
#include "accel/tcg/probe.h"
#include "exec/target_page.h"
#include "tt-tile-map.h"
#include "tt_tensix.h"

/* Most words of one run (a tt-llk vector-unit loop body is 4-12) */
#define TT_PUSH_RUN_MAX 16

void helper_tt_push(CPURISCVState *env, uint32_t word)
{
    CPUState *cs = env_cpu(env);

    if (env->tt_push_hook && QTAILQ_EMPTY(&cs->watchpoints)) {
        env->tt_push_hook(env, word, GETPC());
    } else {
        cpu_stl_le_data_ra(env, TT_TILE_INSTRN_BUF_BASE, word, GETPC());
    }
}

/*
 * A run of inline words from @pc on (trans_xtttensix.c.inc): read from the
 * code as the core would fetch it, up to the first other instruction or
 * the end of the page, and pushed at once.  Returns how many went; the
 * translated code continues after them, or with the single push of the
 * word at @pc if none did (no hook, gdb watches memory, the code is not
 * RAM, or the FIFO is full: that push may wait).
 */
uint32_t helper_tt_push_run(CPURISCVState *env, target_ulong pc)
{
    CPUState *cs = env_cpu(env);
    uint32_t w[TT_PUSH_RUN_MAX];
    uint32_t n = 0, room;
    uint8_t *host;

    if (!env->tt_push_run_hook || !QTAILQ_EMPTY(&cs->watchpoints)) {
        return 0;
    }
    host = tlb_vaddr_to_host(env, pc, MMU_INST_FETCH,
                             cpu_mmu_index(cs, true));
    if (!host) {
        return 0;
    }
    room = (TARGET_PAGE_SIZE - (pc & ~TARGET_PAGE_MASK)) / 4;
    room = MIN(room, TT_PUSH_RUN_MAX);
    for (; n < room; n++) {
        uint32_t insn = ldl_le_p(host + 4 * n);

        if (!tt_insn_is_inline_word(insn)) {
            break;
        }
        w[n] = tt_inline_word(insn);
    }
    return n ? env->tt_push_run_hook(env, w, n) : 0;
}
