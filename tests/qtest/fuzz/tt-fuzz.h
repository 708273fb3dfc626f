/*
 * Shared by the Blackhole fuzz targets (tt-fuzz.c, tt-vfu-fuzz.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_FUZZ_H
#define TT_FUZZ_H

#include <signal.h>

/*
 * libFuzzer's -timeout is a SIGALRM.  QEMU blocks that signal in every
 * thread and reads it from its main loop (util/main-loop.c), so an input
 * that never returns there (a device model looping, a thread waiting on a
 * lock) would never be reported.  Take it in the fuzzing thread instead:
 * QEMU itself does not use SIGALRM.
 */
static inline void tt_fuzz_take_sigalrm(void)
{
    sigset_t alrm;

    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);
}

#endif
