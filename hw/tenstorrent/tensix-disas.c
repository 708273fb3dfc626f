/*
 * Tenstorrent Blackhole Tensix disassembler: "NAME field=value,..." from
 * the generated instruction table, for -d in_asm, traces and "tt disas".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "tensix-common.h"

void tt_tensix_disas(uint32_t w, GString *out)
{
    const TTTensixOpInfo *op = &tt_tensix_isa[w >> 24];

    if (!op->name) {
        g_string_append_printf(out, ".ttinsn 0x%08x", w);
        return;
    }
    g_string_append(out, op->name);
    for (int i = 0; i < op->nfields; i++) {
        g_string_append_printf(out, "%s%s=%u", i ? "," : " ",
                               op->fields[i].name,
                               extract32(w, op->fields[i].lsb,
                                         op->fields[i].width));
    }
}
