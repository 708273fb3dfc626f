/*
 * Starting and stopping the emulator (QEMU with -M blackhole and a
 * tt-vfio-user object) as a child of the process that loaded libttsim.
 *
 * Threads: emu_start() and emu_stop() are called under libttsim's lock; a
 * private "launcher" thread forks the child and waits for it.  The fields
 * the launcher thread writes are protected by EmuChild.lock.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_EMU_LAUNCH_H
#define TT_EMU_LAUNCH_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct EmuChild {
    char **argv;                /* NULL-terminated, argv[0] a full path */
    char tmpdir[PATH_MAX];      /* private directory for the socket */
    char sock[108];             /* sizeof(sockaddr_un.sun_path) */
    pid_t parent;               /* our pid, for the child's orphan check */
    pthread_t thread;
    bool have_thread;

    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool forked;                /* the launcher has forked (or failed to) */
    pid_t pid;                  /* child pid, 0 before, -1 if fork failed */
    int exec_errno;             /* why execv() failed, 0 if it did not */
    bool exited;                /* the child has been reaped */
    int status;                 /* its wait status */

    /*
     * A pooled emulator (emu_pool_start): not our child, it outlives us
     * and quits by itself after its idle time; we hold its slot's lock
     * while connected.  No launcher thread then.
     */
    bool pooled;
    int pool_fd;                /* the slot's lock file, or -1 */
    pid_t pool_pid;             /* the emulator we started, 0 if reused */
    char pool_log[PATH_MAX];    /* its stdout and stderr */
} EmuChild;

/*
 * Create the temporary directory, resolve the QEMU binary (TT_EMU_QEMU or
 * qemu-system-riscv32 on PATH), build its command line (TT_EMU_ARGS, chip
 * @chip's options when an "emu-args" beside the library describes a
 * cluster, then the fixed options and the tt-vfio-user object) and start
 * it.  Returns 0, or -1 after printing why.
 */
int emu_start(EmuChild *e, uint32_t chip);

/*
 * The pool of kept emulators (TT_EMU_POOL): one directory per user
 * ($XDG_RUNTIME_DIR/libttsim-pool, else libttsim-pool-UID in $TMPDIR or
 * the system's temporary directory, mode
 * 0700), slots named by a hash of the command line and of the QEMU binary.
 * Take the first free slot for this command line: 1 if its emulator is
 * there (connect to e->sock; power-on state, since the server resets the
 * chip when a client goes), 0 if one was started in it, -1 if there is no
 * pool for this chip (a cluster chip, no usable directory, every slot
 * taken): use emu_start() then.  The started emulator quits after
 * @idle_s seconds without a client.
 */
int emu_pool_start(EmuChild *e, uint32_t chip, unsigned idle_s);

/*
 * The slot's emulator did not answer: start another in the same slot.
 * Returns 0, or -1 after printing why.
 */
int emu_pool_restart(EmuChild *e);

/* Print what a pooled emulator that stopped said (its log), if anything */
void emu_pool_report(EmuChild *e);

/* A pooled emulator that failed us: nobody is to reuse it */
void emu_pool_discard(EmuChild *e);

/*
 * How many chips the "emu-args" beside the library describes ("chip N"
 * lines of a cluster's), 1 if none
 */
int emu_cluster_chips(void);

/* Remove the cluster's link-socket directory if this process made it */
void emu_links_cleanup(void);

/*
 * Remove the socket and its directory once connected: the connection
 * stays up, and nothing is left behind even if the host is killed.
 */
void emu_remove_tmpdir(EmuChild *e);

/* Has the child exited?  Fills *@status with its wait status if so. */
bool emu_exited(EmuChild *e, int *status);

/* Describe a wait status for an error message ("exit code 1", ...) */
void emu_describe_status(int status, char *buf, size_t len);

/*
 * Stop the child if it still runs (SIGTERM to its process group, SIGKILL
 * after a grace period), reap it and remove the temporary directory.  A
 * pooled emulator is left running and its slot given back.
 */
void emu_stop(EmuChild *e);

/*
 * emu_stop() once we have hung up on it: our child quits by itself then
 * (exit-on-detach), quietly; it is signalled only if it has not within a
 * few seconds.
 */
void emu_stop_detached(EmuChild *e);

/*
 * Stop the child when nothing of it is to be saved (a kept emulator at
 * the host's exit, a host about to exit on a usage error): SIGKILL, then
 * wait a moment until it is reaped, so that no zombie is left to a parent
 * that may never reap it.
 */
void emu_kill(EmuChild *e);

/*
 * Last-resort cleanup when the library is unloaded or the process exits
 * without libttsim_exit(): kill the child's group and remove the
 * directory, without waiting or locking.
 */
void emu_abandon(EmuChild *e);

#endif
