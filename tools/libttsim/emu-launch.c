/*
 * Starting and stopping the emulator child process (see emu-launch.h).
 *
 * Why a launcher thread: PR_SET_PDEATHSIG fires when the *thread* that
 * forked the child exits, not the process.  Hosts may call libttsim_init()
 * from a short-lived thread, so the fork happens on a thread of our own
 * that lives exactly as long as the child (it blocks in waitpid()).  When
 * the host process dies, that thread dies with it and the kernel kills
 * the emulator.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emu-launch.h"

#define EMU_DEFAULT_QEMU    "qemu-system-riscv32"
#define EMU_DEFAULT_ARGS    "-M blackhole"
#define EMU_SOCK_NAME       "bh.sock"
#define EMU_TERM_GRACE_MS   5000
#define EMU_DETACH_GRACE_MS 3000    /* to quit by itself once we hang up */
#define EMU_POOL_SLOTS      8       /* kept emulators per command line */

/* Options we always add: no display, monitor or serial on our stdio */
static const char *const emu_fixed_args[] = {
    "-display", "none", "-monitor", "none", "-serial", "none", "-object",
};

/* ------------------------------------------------------ command line -- */

/* Find @name on PATH, as execvp() would, but before fork() */
static char *emu_find_binary(const char *name)
{
    const char *path = getenv("PATH");
    char *copy, *dir, *save = NULL;

    if (strchr(name, '/')) {
        return access(name, X_OK) == 0 ? strdup(name) : NULL;
    }
    copy = strdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
    for (dir = strtok_r(copy, ":", &save); dir;
         dir = strtok_r(NULL, ":", &save)) {
        char *full;
        struct stat st;

        if (asprintf(&full, "%s/%s", *dir ? dir : ".", name) < 0) {
            break;
        }
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode) &&
            access(full, X_OK) == 0) {
            free(copy);
            return full;
        }
        free(full);
    }
    free(copy);
    return NULL;
}

/*
 * QEMU option values separate keys with ','; a literal ',' is ",,".  A
 * pooled emulator (@idle_s > 0) quits after that long without a client
 * and power-cycles the chip whenever one goes; our own child quits when
 * we hang up.  The socket comes last.
 */
static char *emu_object_arg(const char *sock, unsigned idle_s)
{
    char *s = malloc(96 + 2 * strlen(sock));
    char *p;

    if (!s) {
        return NULL;
    }
    p = s + (idle_s ? sprintf(s, "tt-vfio-user,id=vfu0,idle-exit=%u,"
                              "detach-reset=on,socket=", idle_s)
                    : sprintf(s, "tt-vfio-user,id=vfu0,exit-on-detach=on,"
                              "socket="));
    for (; *sock; sock++) {
        *p++ = *sock;
        if (*sock == ',') {
            *p++ = ',';
        }
    }
    *p = '\0';
    return s;
}

static void emu_free_argv(char **argv)
{
    if (argv) {
        for (char **a = argv; *a; a++) {
            free(*a);
        }
        free(argv);
    }
}

/* Free an argv that may have holes (failed allocations) in its n slots */
static void emu_free_argv_n(char **argv, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(argv[i]);
    }
    free(argv);
}

/* "emu-args" beside this library, or NULL */
static FILE *emu_args_file(void)
{
    Dl_info info;
    char path[PATH_MAX];

    if (dladdr((void *)emu_args_file, &info) && info.dli_fname &&
        strchr(info.dli_fname, '/') &&
        strlen(info.dli_fname) < sizeof(path) - 16) {
        strcpy(path, info.dli_fname);
        strcpy(strrchr(path, '/'), "/emu-args");
        return fopen(path, "r");
    }
    return NULL;
}

/*
 * Without TT_EMU_ARGS: the first line of "emu-args" beside this library
 * (the board directories the build installs, e.g. libttsim/p100a), else
 * the default machine.  Returns a string to free.
 */
static char *emu_default_args(void)
{
    char line[512];
    FILE *f = emu_args_file();

    if (f && fgets(line, sizeof(line), f)) {
        fclose(f);
        line[strcspn(line, "\n")] = 0;
        return strdup(line);
    }
    if (f) {
        fclose(f);
    }
    return strdup(EMU_DEFAULT_ARGS);
}

/* Where the chips of this process put their link sockets (@LINKS@) */
static char emu_links_dir[PATH_MAX];
static pid_t emu_links_owner;

static const char *emu_links(void)
{
    const char *tmp = getenv("TMPDIR");

    if (emu_links_owner != getpid()) {
        snprintf(emu_links_dir, sizeof(emu_links_dir), "%s/libttsim-links."
                 "XXXXXX", tmp && *tmp && strlen(tmp) < 60 ? tmp : P_tmpdir);
        if (!mkdtemp(emu_links_dir)) {
            return NULL;
        }
        emu_links_owner = getpid();
    }
    return emu_links_dir;
}

void emu_links_cleanup(void)
{
    char path[PATH_MAX + 32];

    if (emu_links_owner != getpid()) {
        return;
    }
    for (int k = 0; k < 1024; k++) {
        snprintf(path, sizeof(path), "%s/link%d.sock", emu_links_dir, k);
        unlink(path);
    }
    rmdir(emu_links_dir);
    emu_links_owner = 0;
}

int emu_cluster_chips(void)
{
    char line[4096];
    FILE *f = emu_args_file();
    int n = 0;

    while (f && fgets(line, sizeof(line), f)) {
        n += !strncmp(line, "chip ", 5);
    }
    if (f) {
        fclose(f);
    }
    return n > 0 ? n : 1;
}

/*
 * Chip @chip's line of a cluster's "emu-args" ("chip N OPTIONS": its
 * identity and Ethernet links, gen-cluster-files.py) with @LINKS@ made
 * this process's link directory; NULL if there is none.  To free.
 */
static char *emu_chip_args(uint32_t chip)
{
    char line[4096], tag[32];
    FILE *f = emu_args_file();
    char *out = NULL;

    snprintf(tag, sizeof(tag), "chip %u ", chip);
    while (f && !out && fgets(line, sizeof(line), f)) {
        const char *links, *p;

        if (strncmp(line, tag, strlen(tag))) {
            continue;
        }
        line[strcspn(line, "\n")] = 0;
        links = emu_links();
        if (!links) {
            break;
        }
        /* every @LINKS@ becomes the directory: at most 2 KiB more */
        out = calloc(1, strlen(line) + 2048 + 1);
        for (p = line + strlen(tag); out && *p;) {
            if (!strncmp(p, "@LINKS@", 7) &&
                strlen(out) + strlen(links) < strlen(line) + 2048) {
                strcat(out, links);
                p += 7;
            } else {
                strncat(out, p++, 1);
            }
        }
    }
    if (f) {
        fclose(f);
    }
    return out;
}

/*
 * <qemu> <TT_EMU_ARGS split on blanks> <the chip's cluster options>
 * <fixed options> <object>
 */
static char **emu_build_argv(const char *qemu, const char *sock,
                             uint32_t chip, unsigned idle_s)
{
    const char *args = getenv("TT_EMU_ARGS");
    size_t nfixed = sizeof(emu_fixed_args) / sizeof(emu_fixed_args[0]);
    char *copy, *tok, *save = NULL, *chip_args = emu_chip_args(chip);
    char **argv;
    size_t n = 0;

    if (chip_args) {
        char *both = NULL;

        if (asprintf(&both, "%s %s", args ? args : "-M blackhole",
                     chip_args) < 0) {
            both = NULL;
        }
        free(chip_args);
        copy = both;
    } else {
        copy = args ? strdup(args) : emu_default_args();
    }
    /* At most one word per two characters, plus the rest */
    argv = calloc(strlen(copy) / 2 + nfixed + 4, sizeof(*argv));
    if (!copy || !argv) {
        goto fail;
    }
    argv[n++] = strdup(qemu);
    for (tok = strtok_r(copy, " \t\n", &save); tok;
         tok = strtok_r(NULL, " \t\n", &save)) {
        argv[n++] = strdup(tok);
    }
    for (size_t i = 0; i < nfixed; i++) {
        argv[n++] = strdup(emu_fixed_args[i]);
    }
    argv[n++] = emu_object_arg(sock, idle_s);
    /* A NULL from any allocation shows up as a hole before the end */
    for (size_t i = 0; i < n; i++) {
        if (!argv[i]) {
            goto fail;
        }
    }
    free(copy);
    return argv;

fail:
    free(copy);
    if (argv) {
        emu_free_argv_n(argv, n);
    }
    return NULL;
}

/* $TMPDIR/libttsim.XXXXXX, or /tmp if that would make the socket too long */
static int emu_make_tmpdir(EmuChild *e)
{
    const char *base = getenv("TMPDIR");
    size_t need = strlen("/libttsim.XXXXXX/" EMU_SOCK_NAME) + 1;

    if (!base || !*base || strlen(base) + need > sizeof(e->sock)) {
        base = "/tmp";
    }
    snprintf(e->tmpdir, sizeof(e->tmpdir), "%s/libttsim.XXXXXX", base);
    if (!mkdtemp(e->tmpdir)) {
        fprintf(stderr, "libttsim: cannot create a directory %s: %s\n",
                e->tmpdir, strerror(errno));
        e->tmpdir[0] = '\0';
        return -1;
    }
    /* Cannot overflow: base was checked above */
    if (snprintf(e->sock, sizeof(e->sock), "%s/%s", e->tmpdir,
                 EMU_SOCK_NAME) >= (int)sizeof(e->sock)) {
        rmdir(e->tmpdir);
        e->tmpdir[0] = '\0';
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------- child -- */

/*
 * Runs in the forked child of a possibly multi-threaded process: only
 * async-signal-safe calls until execv().
 */
static void emu_child(EmuChild *e, int err_fd)
{
    sigset_t none;
    int fd, err;

    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    /* Own process group: libttsim_exit() signals QEMU and its children */
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != e->parent) {
        _exit(127);             /* the host died before prctl() took */
    }

    /* QEMU's stdout would mix with the host's (a TAP stream, say) */
    dup2(STDERR_FILENO, STDOUT_FILENO);
    fd = open("/dev/null", O_RDONLY);
    if (fd >= 0) {
        dup2(fd, STDIN_FILENO);
        if (fd != STDIN_FILENO) {
            close(fd);
        }
    }

    execv(e->argv[0], e->argv);
    err = errno;
    if (write(err_fd, &err, sizeof(err)) < 0) {
        /* nothing more we can do; the parent sees a bare exit */
    }
    _exit(127);
}

static void *emu_launcher(void *opaque)
{
    EmuChild *e = opaque;
    int pipefd[2], err = 0, status = 0;
    pid_t pid = -1;

    /* CLOEXEC pipe: EOF on it means execv() succeeded */
    if (pipe2(pipefd, O_CLOEXEC) == 0) {
        pid = fork();
        if (pid == 0) {
            emu_child(e, pipefd[1]);
        }
        err = errno;
        close(pipefd[1]);
        if (pid > 0 && read(pipefd[0], &err, sizeof(err)) != sizeof(err)) {
            err = 0;
        }
        close(pipefd[0]);
    } else {
        err = errno;
    }

    pthread_mutex_lock(&e->lock);
    e->pid = pid;
    e->exec_errno = err;
    e->forked = true;
    e->exited = pid < 0;
    pthread_cond_broadcast(&e->cond);
    pthread_mutex_unlock(&e->lock);
    if (pid < 0) {
        return NULL;
    }

    /*
     * ECHILD: the host has SIGCHLD ignored (or reaped for us); either way
     * the child is gone.
     */
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        continue;
    }

    pthread_mutex_lock(&e->lock);
    e->exited = true;
    e->status = status;
    pthread_cond_broadcast(&e->cond);
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

/* -------------------------------------------------------------- API -- */

static void emu_init(EmuChild *e)
{
    memset(e, 0, sizeof(*e));
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->cond, NULL);
    e->parent = getpid();
    e->pool_fd = -1;
}

/* TT_EMU_QEMU or qemu-system-riscv32 on PATH, to free; NULL if none */
static char *emu_qemu(bool quiet)
{
    const char *name = getenv("TT_EMU_QEMU");
    char *qemu;

    if (!name || !*name) {
        name = EMU_DEFAULT_QEMU;
    }
    qemu = emu_find_binary(name);
    if (!qemu && !quiet) {
        fprintf(stderr, "libttsim: cannot find the emulator '%s' (set "
                "TT_EMU_QEMU to its path, or TT_EMU_SOCKET to the socket "
                "of a running one)\n", name);
    }
    return qemu;
}

int emu_start(EmuChild *e, uint32_t chip)
{
    char *qemu;
    sigset_t all, old;
    int ret;

    emu_init(e);
    qemu = emu_qemu(false);
    if (!qemu) {
        return -1;
    }
    if (emu_make_tmpdir(e) < 0) {
        free(qemu);
        return -1;
    }
    e->argv = emu_build_argv(qemu, e->sock, chip, 0);
    free(qemu);
    if (!e->argv) {
        fprintf(stderr, "libttsim: out of memory\n");
        return -1;
    }

    /* The launcher thread must not take the host's signals */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    ret = pthread_create(&e->thread, NULL, emu_launcher, e);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (ret) {
        fprintf(stderr, "libttsim: cannot create a thread: %s\n",
                strerror(ret));
        return -1;
    }
    e->have_thread = true;

    pthread_mutex_lock(&e->lock);
    while (!e->forked) {
        pthread_cond_wait(&e->cond, &e->lock);
    }
    ret = e->exec_errno;
    pthread_mutex_unlock(&e->lock);
    if (ret) {
        fprintf(stderr, "libttsim: cannot start %s: %s\n", e->argv[0],
                strerror(ret));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------- pool -- */

/* The user's pool directory, made private; -1 if there is none to use */
static int emu_pool_dir(char *dir, size_t len)
{
    const char *rt = getenv("XDG_RUNTIME_DIR");
    const char *tmp = getenv("TMPDIR");
    struct stat st;

    if (rt && rt[0] == '/' && strlen(rt) < 48) {
        snprintf(dir, len, "%s/libttsim-pool", rt);
    } else {
        /* the temporary directory, shared: a name of the user's own */
        snprintf(dir, len, "%s/libttsim-pool-%u",
                 tmp && tmp[0] == '/' && strlen(tmp) < 48 ? tmp : P_tmpdir,
                 (unsigned)getuid());
    }
    if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
        return -1;
    }
    /* not followed if a link: another user's directory is no pool */
    if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != getuid() || (st.st_mode & 077)) {
        fprintf(stderr, "libttsim: %s is not a private directory of this "
                "user; emulators are not kept between processes\n", dir);
        return -1;
    }
    return 0;
}

/* FNV-1a, 64 bits (Fowler, Noll, Vo): a name, not a safeguard */
static uint64_t emu_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;

    for (size_t i = 0; i < n; i++) {
        h = (h ^ b[i]) * 0x100000001b3ull;
    }
    return h;
}

/*
 * The slot name of a command line: every word but the last (the object
 * and its socket), and the binary's identity, so that a rebuilt QEMU is
 * not confused with the one kept
 */
static uint64_t emu_pool_key(char **argv)
{
    uint64_t h = 0xcbf29ce484222325ull;
    struct stat st;

    for (size_t i = 0; argv[i] && argv[i + 1]; i++) {
        h = emu_fnv(h, argv[i], strlen(argv[i]) + 1);
    }
    if (stat(argv[0], &st) == 0) {
        uint64_t id[5] = { st.st_dev, st.st_ino, st.st_size,
                           st.st_mtim.tv_sec, st.st_mtim.tv_nsec };

        h = emu_fnv(h, id, sizeof(id));
    }
    return h;
}

/*
 * The forked child of emu_pool_spawn(): forks the emulator and exits, so
 * that the emulator belongs to nobody here (the system reaps it).  It gets
 * a process group of its own, the log for its output, and none of our
 * descriptors: a host's pipe kept open by it would hold up whoever reads
 * the host's output.  Not a session of its own: with the kernel's
 * autogroup scheduling a session is a group that gets a fair share of
 * the CPUs, and a host polling on one core would leave 140 busy cores
 * only the other (half the speed on two).  Async-signal-safe calls only.
 */
static void emu_pool_child(EmuChild *e, int log_fd, int err_fd, int pid_fd)
{
    sigset_t none;
    pid_t pid;
    int fd, err;

    pid = fork();
    if (pid != 0) {
        if (write(pid_fd, &pid, sizeof(pid)) < 0) {
            /* the parent sees no pid */
        }
        _exit(0);
    }
    setpgid(0, 0);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    dup2(log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    fd = open("/dev/null", O_RDONLY);
    if (fd >= 0 && fd != STDIN_FILENO) {
        dup2(fd, STDIN_FILENO);
    }
    if (err_fd != 3) {
        dup2(err_fd, 3);
    }
    fcntl(3, F_SETFD, FD_CLOEXEC);
    close_range(4, ~0u, 0);
    execv(e->argv[0], e->argv);
    err = errno;
    if (write(3, &err, sizeof(err)) < 0) {
        /* the parent sees a bare exit */
    }
    _exit(127);
}

static int emu_pool_spawn(EmuChild *e)
{
    int err_pipe[2] = { -1, -1 }, pid_pipe[2] = { -1, -1 };
    int log_fd, err = 0, status;
    pid_t mid, pid = 0;
    sigset_t all, old;

    unlink(e->sock);
    e->pool_pid = 0;
    log_fd = open(e->pool_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                  0600);
    if (log_fd < 0 || pipe2(err_pipe, O_CLOEXEC) < 0 ||
        pipe2(pid_pipe, O_CLOEXEC) < 0) {
        err = errno;
        fprintf(stderr, "libttsim: cannot start an emulator for the pool: "
                "%s\n", strerror(err));
        goto out;
    }
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    mid = fork();
    if (mid == 0) {
        emu_pool_child(e, log_fd, err_pipe[1], pid_pipe[1]);
    }
    err = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(err_pipe[1]);
    close(pid_pipe[1]);
    err_pipe[1] = pid_pipe[1] = -1;
    if (mid < 0) {
        fprintf(stderr, "libttsim: fork: %s\n", strerror(err));
        goto out;
    }
    while (waitpid(mid, &status, 0) < 0 && errno == EINTR) {
        continue;
    }
    err = 0;
    if (read(pid_pipe[0], &pid, sizeof(pid)) != sizeof(pid) || pid <= 0) {
        fprintf(stderr, "libttsim: cannot start %s\n", e->argv[0]);
        err = -1;
        goto out;
    }
    /* EOF: execv() succeeded and closed the pipe */
    if (read(err_pipe[0], &err, sizeof(err)) == sizeof(err)) {
        fprintf(stderr, "libttsim: cannot start %s: %s\n", e->argv[0],
                strerror(err));
        goto out;
    }
    err = 0;
    e->pool_pid = pid;
out:
    for (int i = 0; i < 2; i++) {
        if (err_pipe[i] >= 0) {
            close(err_pipe[i]);
        }
        if (pid_pipe[i] >= 0) {
            close(pid_pipe[i]);
        }
    }
    if (log_fd >= 0) {
        close(log_fd);
    }
    return err ? -1 : 0;
}

int emu_pool_start(EmuChild *e, uint32_t chip, unsigned idle_s)
{
    char dir[PATH_MAX], *qemu, *chip_args;
    unsigned long long key;

    emu_init(e);
    /* a cluster's chips link through sockets of this process */
    chip_args = emu_chip_args(chip);
    if (chip_args) {
        free(chip_args);
        return -1;
    }
    qemu = emu_qemu(true);
    if (!qemu || emu_pool_dir(dir, sizeof(dir)) < 0 ||
        strlen(dir) + 32 > sizeof(e->sock)) {
        free(qemu);
        return -1;
    }
    e->argv = emu_build_argv(qemu, "", chip, idle_s);
    free(qemu);
    if (!e->argv) {
        return -1;
    }
    key = emu_pool_key(e->argv);
    for (int n = 0; n < EMU_POOL_SLOTS && e->pool_fd < 0; n++) {
        char lock[PATH_MAX + 32];
        int fd;

        snprintf(lock, sizeof(lock), "%s/%016llx-%d.lock", dir, key, n);
        fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0) {
            break;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
            close(fd);
            continue;           /* another process's session */
        }
        e->pool_fd = fd;
        snprintf(e->sock, sizeof(e->sock), "%s/%016llx-%d.sock", dir, key,
                 n);
        snprintf(e->pool_log, sizeof(e->pool_log), "%s/%016llx-%d.log", dir,
                 key, n);
    }
    if (e->pool_fd < 0) {
        emu_free_argv(e->argv);
        e->argv = NULL;
        return -1;
    }
    for (size_t i = 0; e->argv[i]; i++) {
        if (!e->argv[i + 1]) {
            free(e->argv[i]);
            e->argv[i] = emu_object_arg(e->sock, idle_s);
            if (!e->argv[i]) {
                emu_stop(e);
                return -1;
            }
        }
    }
    e->pooled = true;
    if (access(e->sock, F_OK) == 0) {
        return 1;
    }
    return emu_pool_spawn(e) < 0 ? -2 : 0;
}

int emu_pool_restart(EmuChild *e)
{
    return emu_pool_spawn(e);
}

void emu_pool_report(EmuChild *e)
{
    char buf[4096];
    ssize_t n;
    int fd;

    if (!e->pooled || !e->pool_log[0]) {
        return;
    }
    fd = open(e->pool_log, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        if (write(STDERR_FILENO, buf, n) < 0) {
            break;
        }
    }
    close(fd);
}

/* Give the slot back; the emulator stays for the next process */
static void emu_pool_release(EmuChild *e)
{
    if (e->pool_fd >= 0) {
        close(e->pool_fd);
        e->pool_fd = -1;
    }
    emu_free_argv(e->argv);
    e->argv = NULL;
    e->pooled = false;
}

void emu_pool_discard(EmuChild *e)
{
    if (!e->pooled) {
        return;
    }
    unlink(e->sock);
    if (e->pool_pid > 0) {
        kill(-e->pool_pid, SIGKILL);    /* a process group of its own */
    }
    emu_pool_release(e);
}

/* Is the pooled emulator we started gone?  (Not our child: ask /proc.) */
static bool emu_pool_gone(EmuChild *e)
{
    char path[64], stat[256], *p;
    ssize_t n;
    int fd;

    if (e->pool_pid <= 0) {
        return false;
    }
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)e->pool_pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return errno == ENOENT;
    }
    n = read(fd, stat, sizeof(stat) - 1);
    close(fd);
    if (n <= 0) {
        return true;
    }
    stat[n] = '\0';
    /* "pid (comm) S ...": the state after the last ')' */
    p = strrchr(stat, ')');
    return p && p[1] && (p[2] == 'Z' || p[2] == 'X');
}

bool emu_exited(EmuChild *e, int *status)
{
    bool gone;

    if (e->pooled) {
        *status = 0;
        return emu_pool_gone(e);
    }
    pthread_mutex_lock(&e->lock);
    gone = e->exited;
    *status = e->status;
    pthread_mutex_unlock(&e->lock);
    return gone;
}

void emu_describe_status(int status, char *buf, size_t len)
{
    if (WIFEXITED(status)) {
        snprintf(buf, len, "exit code %d", WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        snprintf(buf, len, "signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    } else {
        snprintf(buf, len, "wait status 0x%x", status);
    }
}

/* The group may not exist yet if the child has not run setpgid() */
static void emu_signal(EmuChild *e, int sig)
{
    if (kill(-e->pid, sig) < 0) {
        kill(e->pid, sig);
    }
}

/* Wait until the launcher reaped the child, at most @ms milliseconds */
static bool emu_wait_exit(EmuChild *e, int ms)
{
    struct timespec until;
    bool gone;

    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&e->lock);
    while (!e->exited &&
           pthread_cond_timedwait(&e->cond, &e->lock, &until) == 0) {
        continue;
    }
    gone = e->exited;
    pthread_mutex_unlock(&e->lock);
    return gone;
}

void emu_remove_tmpdir(EmuChild *e)
{
    if (e->tmpdir[0]) {
        unlink(e->sock);
        if (rmdir(e->tmpdir) < 0 && errno != ENOENT) {
            fprintf(stderr, "libttsim: cannot remove %s: %s\n", e->tmpdir,
                    strerror(errno));
        }
        e->tmpdir[0] = '\0';
    }
}

void emu_stop_detached(EmuChild *e)
{
    /* it quits by itself once it sees us hang up (exit-on-detach) */
    if (!e->pooled && e->have_thread && e->pid > 0) {
        (void)emu_wait_exit(e, EMU_DETACH_GRACE_MS);
    }
    emu_stop(e);
}

void emu_stop(EmuChild *e)
{
    if (e->pooled) {
        emu_pool_release(e);
        return;
    }
    if (e->have_thread) {
        if (e->pid > 0 && !emu_wait_exit(e, 0)) {
            emu_signal(e, SIGTERM);
            if (!emu_wait_exit(e, EMU_TERM_GRACE_MS)) {
                fprintf(stderr, "libttsim: the emulator ignored SIGTERM; "
                        "killing it\n");
                emu_signal(e, SIGKILL);
            }
        }
        pthread_join(e->thread, NULL);
        e->have_thread = false;
    }
    emu_remove_tmpdir(e);
    emu_free_argv(e->argv);
    e->argv = NULL;
}

void emu_kill(EmuChild *e)
{
    if (e->pooled) {
        emu_pool_release(e);
        return;
    }
    if (e->have_thread) {
        if (e->pid > 0 && !emu_wait_exit(e, 0)) {
            emu_signal(e, SIGKILL);
            (void)emu_wait_exit(e, EMU_TERM_GRACE_MS);
        }
    }
    emu_remove_tmpdir(e);
}

void emu_abandon(EmuChild *e)
{
    /* Unlocked: we may be on our way out with the lock held elsewhere */
    if (e->pooled) {
        return;         /* its socket and lock close as we exit */
    }
    if (e->have_thread && e->pid > 0 && !e->exited) {
        emu_signal(e, SIGKILL);
    }
    emu_remove_tmpdir(e);
}
