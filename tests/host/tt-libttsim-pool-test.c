/*
 * The pool of kept emulators (TT_EMU_POOL): a QEMU started by one process
 * serves the next process of the same user and command line, in its
 * power-on state whatever the last one did (even killed mid-session),
 * concurrent processes get one each, a dead or stale one is replaced, and
 * an unused one quits by itself.  Sessions run in forked children, each
 * with the library as a fresh process has it; the pool lives in a
 * private XDG_RUNTIME_DIR.
 *
 *   tt-libttsim-pool-test LIBTTSIM.so
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tt-host.h"
#include "tt-test.h"

#define IDLE_S          8
#define IDLE_ARG        "8"
#define TILE_X          1
#define TILE_Y          2
#define ADDR            0x20000u
#define MAX_SOCKS       8

static TTHostLib api;
static char pool[512];

/* What the sessions in children saw, shared with the parent */
typedef struct Shared {
    uint32_t before[2];     /* the word at ADDR when the session began */
    uint32_t after[2];      /* ... and after this session wrote its own */
    volatile int started;   /* sessions that have initialised */
} Shared;
static Shared *sh;

typedef struct Session {
    int slot;               /* where in @sh it reports */
    uint32_t pattern;       /* written to ADDR */
    enum { END_EXIT, END_KILLED, END_WAIT_PEER } end;
    const char *pool_env;   /* TT_EMU_POOL for this session, or NULL */
    const char *args;       /* TT_EMU_ARGS for this session, or NULL */
} Session;

static void session(void *opaque)
{
    Session *s = opaque;
    uint32_t v = 0;

    setenv("TT_EMU_POOL", s->pool_env ? s->pool_env : IDLE_ARG, 1);
    if (s->args) {
        setenv("TT_EMU_ARGS", s->args, 1);
    }
    tt_host_start(&api, tt_host_no_dma_rd, tt_host_no_dma_wr);
    api.tile_rd(TILE_X, TILE_Y, ADDR, &v, 4);
    sh->before[s->slot] = v;
    api.tile_wr(TILE_X, TILE_Y, ADDR, &s->pattern, 4);
    api.tile_rd(TILE_X, TILE_Y, ADDR, &v, 4);
    sh->after[s->slot] = v;
    __atomic_add_fetch(&sh->started, 1, __ATOMIC_SEQ_CST);
    if (s->end == END_KILLED) {
        raise(SIGKILL);
    }
    if (s->end == END_WAIT_PEER) {
        /* both sessions open at once */
        for (int i = 0; i < 60000 && __atomic_load_n(&sh->started,
                                                     __ATOMIC_SEQ_CST) < 2;
             i++) {
            usleep(1000);
        }
    }
    api.exit();
}

static void run(Session *s)
{
    int status;

    if (!tt_in_child(session, s, &status)) {
        tt_diag("cannot fork a session");
    }
}

/* The pool's sockets, sorted by name */
static int sockets(char names[MAX_SOCKS][64])
{
    DIR *d = opendir(pool);
    struct dirent *e;
    int n = 0;

    while (d && (e = readdir(d)) && n < MAX_SOCKS) {
        size_t len = strlen(e->d_name);

        if (len > 5 && len < 64 && !strcmp(e->d_name + len - 5, ".sock")) {
            strcpy(names[n++], e->d_name);
        }
    }
    if (d) {
        closedir(d);
    }
    for (int i = 1; i < n; i++) {
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char t[64];

            strcpy(t, names[j]);
            strcpy(names[j], names[j - 1]);
            strcpy(names[j - 1], t);
        }
    }
    return n;
}

/* /proc/@pid/@file, NUL bytes as blanks; "" if unreadable */
static void proc_read(const char *pid, const char *file, char *buf,
                      size_t size)
{
    char path[300];
    ssize_t n;
    int fd;

    snprintf(path, sizeof(path), "/proc/%s/%s", pid, file);
    fd = open(path, O_RDONLY);
    n = fd < 0 ? 0 : read(fd, buf, size - 1);
    if (fd >= 0) {
        close(fd);
    }
    for (ssize_t i = 0; i < n; i++) {
        buf[i] = buf[i] ? buf[i] : ' ';
    }
    buf[n > 0 ? n : 0] = '\0';
}

/*
 * Live (not zombie) emulators of the pool whose command line names @name
 * ("" for any): how many, and the first one's pid in *@first
 */
static int servers(const char *name, pid_t *first)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;

    *first = 0;
    while (d && (e = readdir(d))) {
        char buf[8192];
        const char *state;

        if (e->d_name[0] < '1' || e->d_name[0] > '9') {
            continue;
        }
        proc_read(e->d_name, "cmdline", buf, sizeof(buf));
        if (!strstr(buf, "tt-vfio-user") || !strstr(buf, pool) ||
            !strstr(buf, name)) {
            continue;
        }
        proc_read(e->d_name, "stat", buf, sizeof(buf));
        state = strrchr(buf, ')');
        if (state && state[1] && state[2] != 'Z') {
            *first = *first ? *first : atoi(e->d_name);
            n++;
        }
    }
    if (d) {
        closedir(d);
    }
    return n;
}

static pid_t server_of(const char *name)
{
    pid_t pid;

    servers(name, &pid);
    return pid;
}

static int live_servers(void)
{
    pid_t pid;

    return servers("", &pid);
}

/* A socket file nobody listens on, where slot @name's would be */
static void stale_socket(const char *name)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);

    if (strlen(pool) + strlen(name) + 2 > sizeof(sa.sun_path)) {
        return;
    }
    strcpy(sa.sun_path, pool);
    strcat(sa.sun_path, "/");
    strcat(sa.sun_path, name);
    unlink(sa.sun_path);
    if (fd >= 0) {
        if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
            tt_diag("bind %s: %s", sa.sun_path, strerror(errno));
        }
        close(fd);
    }
}

int main(int argc, char **argv)
{
    const char *tmp = getenv("TMPDIR");
    char tmpl[256];
    char names[MAX_SOCKS][64], first[64] = "";
    Session s = { 0 };
    pid_t pid, pid2;
    int n;

    if (argc != 2) {
        fprintf(stderr, "usage: %s LIBTTSIM.so\n", argv[0]);
        return 2;
    }
    if (tt_load(argv[1], &api) != 0) {
        tt_ok(false, "load %s", argv[1]);
        return tt_done();
    }
    /* short: the pool's socket paths must fit sockaddr_un */
    snprintf(tmpl, sizeof(tmpl), "%s/tt-pool-test.XXXXXX",
             tmp && tmp[0] == '/' && strlen(tmp) < 48 ? tmp : P_tmpdir);
    if (!mkdtemp(tmpl)) {
        perror("mkdtemp");
        return 2;
    }
    setenv("XDG_RUNTIME_DIR", tmpl, 1);
    snprintf(pool, sizeof(pool), "%s/libttsim-pool", tmpl);
    sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
              MAP_SHARED | MAP_ANONYMOUS, -1, 0);

    /* 1: a session leaves its emulator in the pool */
    s = (Session) { .slot = 0, .pattern = 0x5a5a1111, .end = END_EXIT };
    run(&s);
    n = sockets(names);
    pid = n == 1 ? server_of(names[0]) : 0;
    if (n == 1) {
        strcpy(first, names[0]);
    }
    tt_ok(sh->after[0] == 0x5a5a1111, "a pooled session reads back what "
          "it wrote (0x%x)", sh->after[0]);
    tt_ok(n == 1 && pid > 0, "after the process ended, its emulator waits "
          "in the pool (%d socket(s), pid %d)", n, (int)pid);

    /* 2: the next process gets it, power-cycled */
    s = (Session) { .slot = 0, .pattern = 0x5a5a2222, .end = END_EXIT };
    run(&s);
    n = sockets(names);
    tt_ok(sh->before[0] == 0 && sh->after[0] == 0x5a5a2222, "the next "
          "process finds L1 in its power-on state (0x%x), not the last "
          "one's 0x5a5a1111", sh->before[0]);
    tt_ok(n == 1 && server_of(names[0]) == pid, "... served by the same "
          "emulator (pid %d, %d socket(s))", (int)server_of(first), n);

    /* 3: a process killed mid-session leaves nothing behind */
    s = (Session) { .slot = 0, .pattern = 0x5a5a3333, .end = END_KILLED };
    run(&s);
    s = (Session) { .slot = 1, .pattern = 0x5a5a4444, .end = END_EXIT };
    run(&s);
    n = sockets(names);
    tt_ok(sh->after[0] == 0x5a5a3333 && sh->before[1] == 0 &&
          sh->after[1] == 0x5a5a4444, "after a process killed mid-session "
          "(it wrote 0x%x) the next one reads 0x%x", sh->after[0],
          sh->before[1]);
    tt_ok(n == 1 && server_of(names[0]) == pid, "... on the same emulator, "
          "which outlived the killed client");

    /* 4: two processes at once: one emulator each */
    sh->started = 0;
    {
        Session a = { .slot = 0, .pattern = 0xa0a0a0a0, .end = END_WAIT_PEER };
        Session b = { .slot = 1, .pattern = 0xb0b0b0b0, .end = END_WAIT_PEER };
        pid_t ca, cb;
        int st;

        fflush(stdout);
        ca = fork();
        if (ca == 0) {
            session(&a);
            _exit(0);
        }
        cb = fork();
        if (cb == 0) {
            session(&b);
            _exit(0);
        }
        waitpid(ca, &st, 0);
        waitpid(cb, &st, 0);
    }
    n = sockets(names);
    pid2 = n == 2 ? server_of(names[1]) : 0;
    tt_ok(sh->started == 2 && sh->before[0] == 0 && sh->before[1] == 0 &&
          sh->after[0] == 0xa0a0a0a0 && sh->after[1] == 0xb0b0b0b0,
          "two concurrent sessions each see only their own writes");
    tt_ok(n == 2 && server_of(names[0]) == pid && pid2 > 0 && pid2 != pid,
          "... on two emulators (pids %d and %d)", (int)pid, (int)pid2);

    /* 5: a dead emulator's socket is replaced */
    if (pid > 0) {
        kill(pid, SIGKILL);
        for (int i = 0; i < 5000 && server_of(first); i++) {
            usleep(1000);
        }
        stale_socket(first);
    }
    s = (Session) { .slot = 0, .pattern = 0x5a5a5555, .end = END_EXIT };
    run(&s);
    tt_ok(sh->after[0] == 0x5a5a5555 && server_of(first) > 0 &&
          server_of(first) != pid, "a stale socket of a killed emulator "
          "is replaced by a new emulator (pid %d)", (int)server_of(first));

    /* 6: another command line has a slot of its own */
    s = (Session) { .slot = 0, .pattern = 0x5a5a6666, .end = END_EXIT,
                    .args = "-M blackhole,board=p100a" };
    run(&s);
    n = sockets(names);
    tt_ok(sh->after[0] == 0x5a5a6666 && n == 3, "another machine (P100A) "
          "gets an emulator of its own (%d sockets)", n);

    /*
     * 7: TT_EMU_POOL=0 keeps nothing: every socket afterwards was there
     * before, served by the same emulator.  (Counting them is not enough:
     * on a loaded host the pooled ones may reach their idle exit
     * meanwhile.)
     */
    {
        char before[MAX_SOCKS][64];
        pid_t served[MAX_SOCKS];
        int nb = sockets(before), na;
        bool kept = true;

        for (int i = 0; i < nb; i++) {
            served[i] = server_of(before[i]);
        }
        s = (Session) { .slot = 0, .pattern = 0x5a5a7777, .end = END_EXIT,
                        .pool_env = "0" };
        run(&s);
        na = sockets(names);
        for (int i = 0; i < na; i++) {
            bool old = false;

            for (int j = 0; j < nb; j++) {
                old |= !strcmp(names[i], before[j]) &&
                       server_of(names[i]) == served[j];
            }
            kept &= old;
        }
        tt_ok(sh->after[0] == 0x5a5a7777 && kept,
              "TT_EMU_POOL=0: the session's emulator is not pooled (%d "
              "socket(s) before, %d after, none new)", nb, na);
    }

    /* 8: unused, they quit by themselves and remove their sockets */
    for (int i = 0; i < (IDLE_S + 20) * 10 &&
         (live_servers() || sockets(names)); i++) {
        usleep(100 * 1000);
    }
    tt_ok(live_servers() == 0 && sockets(names) == 0, "%d s after the last "
          "session every pooled emulator has quit (%d live, %d sockets)",
          IDLE_S, live_servers(), sockets(names));

    /* the pool's lock and log files, then the directory */
    {
        DIR *d = opendir(pool);
        struct dirent *e;
        char path[1024];

        while (d && (e = readdir(d))) {
            if (e->d_name[0] != '.') {
                snprintf(path, sizeof(path), "%s/%s", pool, e->d_name);
                unlink(path);
            }
        }
        if (d) {
            closedir(d);
        }
        rmdir(pool);
        rmdir(tmpl);
    }
    return tt_done();
}
