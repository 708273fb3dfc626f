/*
 * Tenstorrent Blackhole machine internals: what blackhole.c calls in
 * blackhole-monitor.c and blackhole-qtest.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_BLACKHOLE_INTERNAL_H
#define HW_TENSTORRENT_BLACKHOLE_INTERNAL_H

#include "hw/tenstorrent/blackhole.h"

/* "info tt" in the monitor, and the hang-report timer */
void blackhole_monitor_init(TTBlackholeMachine *m);

/* The "tt" qtest command: reach any core's view and any DRAM port. */
void blackhole_qtest_register(TTBlackholeSoC *s);

#endif
