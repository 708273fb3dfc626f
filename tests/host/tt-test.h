/*
 * Shared helpers of the libttsim test programs, on top of the host side of
 * tools/runtime/tt-host.c (the library loaded the way tt-umd loads it, TLB
 * windows, TAP output): loading by TT_TEST_MEMFD, abort checks, patterns.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_TEST_H
#define TT_TEST_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libttsim.h"
#include "tt-host.h"

/*
 * Loads @path into @lib; returns the number of the nine required symbols
 * that are missing, or -1 if it cannot be loaded.  TT_TEST_MEMFD=1 loads
 * a sealed memfd copy instead of the file, as tt-umd's copy_sim_binary
 * does.
 */
static inline int tt_load(const char *path, TTHostLib *lib)
{
    const char *memfd = getenv("TT_TEST_MEMFD");
    bool copy = memfd && *memfd == '1';

    if (copy) {
        printf("# loading %s from a sealed memfd copy\n", path);
    }
    return tt_host_lib_open(lib, path, copy, stdout, "# ");
}

/* Run @fn in a child process; false if it could not, else its status */
static inline bool tt_in_child(void (*fn)(void *), void *opaque,
                               int *status)
{
    pid_t pid;

    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        fn(opaque);
        _exit(0);
    }
    return pid > 0 && waitpid(pid, status, 0) == pid;
}

/* Does @fn (in a child) die of SIGABRT? */
static inline bool tt_aborts(void (*fn)(void *), void *opaque)
{
    int status;

    return tt_in_child(fn, opaque, &status) && WIFSIGNALED(status) &&
           WTERMSIG(status) == SIGABRT;
}

/*
 * Does @fn (in a child) end the process with exit status 1, as ttsim's
 * ConfigurationError does, rather than a signal or a return?
 */
static inline bool tt_exits_1(void (*fn)(void *), void *opaque)
{
    int status;

    return tt_in_child(fn, opaque, &status) && WIFEXITED(status) &&
           WEXITSTATUS(status) == 1;
}

static inline void tt_fill(uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = seed >> 16;
    }
}

#endif
