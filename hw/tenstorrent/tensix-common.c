/*
 * Tenstorrent Blackhole Tensix coprocessor: what the device file and the
 * unit files share, below both of them: the one definition of the opcode
 * table, the guest-error log of an instruction, and the packers' path to
 * L1.  The inline helpers are in tensix-common.h.  tensix.c (the device)
 * sits on top of the units and of this file; nothing here calls a unit.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "system/memory.h"
#define TT_TENSIX_ISA_TABLE     /* the one definition of tt_tensix_isa[] */
#include "tensix-common.h"

void tt_tensix_error(TTTensix *t, int thread, uint32_t w, const char *fmt,
                     ...)
{
    g_autofree char *why = NULL;
    va_list ap;

    if (!qemu_loglevel_mask(LOG_GUEST_ERROR)) {
        return;
    }
    va_start(ap, fmt);
    why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    qemu_log("x%dy%d tensix T%d: %s (0x%08x): %s\n", t->tile_x, t->tile_y,
             thread, tt_op_name(w), w, why);
}

bool tt_tensix_l1_write(TTTensix *t, uint32_t addr, const void *buf,
                        uint32_t len)
{
    /* through the tile's address space: stores onto code invalidate it */
    return address_space_write(&t->view_as, addr, MEMTXATTRS_UNSPECIFIED, buf,
                               len) == MEMTX_OK;
}
