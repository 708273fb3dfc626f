/*
 * Tenstorrent Blackhole machine internals shared by blackhole.c,
 * blackhole-boot.c and blackhole-qtest.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_BLACKHOLE_INTERNAL_H
#define HW_TENSTORRENT_BLACKHOLE_INTERNAL_H

#include "hw/tenstorrent/blackhole.h"

typedef struct TTFwSegment {
    uint32_t dest;              /* L1 address */
    uint32_t filesz;
    uint32_t memsz;
    uint8_t *data;
} TTFwSegment;

typedef struct TTFwImage {
    uint32_t entry;
    int nseg;
    TTFwSegment *seg;
} TTFwImage;

const TTFwLayout *blackhole_fw_layout_lookup(const char *name, Error **errp);

/*
 * Resolve the layout and load the ELF files named by the machine's
 * firmware properties; everything is checked before the chip is created.
 */
bool blackhole_fw_prepare(TTBlackholeMachine *m, int ntiles, int ndram,
                          Error **errp);

/* Reset handler: lay out L1 on every tile and release BRISC. */
void blackhole_fw_boot(void *opaque);

/* "info tt" in the monitor, and the hang-report timer */
void blackhole_monitor_init(TTBlackholeMachine *m);

/* The "tt" qtest command: reach any core's view and any DRAM port. */
void blackhole_qtest_register(TTBlackholeSoC *s);

#endif
