/*
 * Tenstorrent baby-RISC-V cores: the spin-loop sampling helper.
 *
 * Translated code counts down env->tt_spin_count on every backward jump and
 * calls this helper when it goes negative; the machine's hook
 * (hw/tenstorrent/spin-park.c) decides whether the core is polling and may
 * park it.  Without a hook the count is set so high it never runs again.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "cpu.h"
#include "exec/helper-proto.h"

void helper_tt_spin_sample(CPURISCVState *env, target_ulong pc)
{
    if (env->tt_spin_hook) {
        env->tt_spin_hook(env, pc);
    } else {
        env->tt_spin_count = INT32_MAX;
    }
}
