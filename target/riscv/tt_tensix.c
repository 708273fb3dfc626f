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
#include "tt-tile-map.h"

void helper_tt_push(CPURISCVState *env, uint32_t word)
{
    CPUState *cs = env_cpu(env);

    if (env->tt_push_hook && QTAILQ_EMPTY(&cs->watchpoints)) {
        env->tt_push_hook(env, word, GETPC());
    } else {
        cpu_stl_le_data_ra(env, TT_TILE_INSTRN_BUF_BASE, word, GETPC());
    }
}
