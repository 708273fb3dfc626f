/*
 * Bad vfio-user clients against the machine's tt-vfio-user server:
 *
 *   tt-vfu-badclient-test [qemu-system-riscv32]
 *
 * Starts QEMU (the argument, $TT_EMU_QEMU or qemu-system-riscv32 on PATH)
 * with -M blackhole, tt-vfio-user, a QMP socket and -d guest_errors,unimp
 * -D LOG.  A normal client (vfu-client.c) writes a pattern into a Tensix
 * L1 through a BAR0 TLB window; then one bad client after another, each on
 * a fresh connection, sends malformed messages, dies in the middle of one
 * or while the chip waits for it to serve a DMA.  After each: QEMU must
 * still run, have logged the bad input, and serve the next normal client;
 * at the end the pattern and the window must be intact.
 *
 * Clients that stop sending in the middle of a message, or stop reading
 * replies, must not hold up QEMU's main loop (QMP answers meanwhile) nor
 * its exit: the server has a thread of its own.
 *
 * The host map (regions 10 and 11, host-map-abi.h): its files cannot be
 * shrunk or grown, a hole punched in L1 reads as zeros, a client that
 * maps L1, writes and is killed leaves what it wrote, code overwritten
 * under a running core does not bring QEMU down, and malformed command
 * batches are logged and refused or their bad entries skipped.
 *
 * Output is TAP.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>

#include "hw/tenstorrent/dma-mailbox-abi.h"
#include "hw/tenstorrent/host-map-abi.h"
#include "tt-pcie-host.h"       /* generated from data/pcie-host.yaml */
#include "tt-test.h"
#include "vfu-client.h"
#include "vfu-proto.h"

#define BAD_ID              0x7bad

typedef struct DmaMap {
    uint32_t argsz;
    uint32_t flags;             /* 1 read, 2 write */
    uint64_t offset;
    uint64_t addr;
    uint64_t size;
} DmaMap;

typedef struct DmaUnmap {
    uint32_t argsz;
    uint32_t flags;
    uint64_t addr;
    uint64_t size;
} DmaUnmap;

/* The chip: tile (1, 2)'s L1 through BAR0 TLB window 7 (2 MiB windows) */
#define TILE_X              1
#define TILE_Y              2
#define L1_ADDR             0x10000
#define PATTERN_LEN         4096
#define WINDOW              7
#define WIN_BASE            ((uint64_t)WINDOW << 21)
#define TLB_CFG             (TT_TLB_CFG_BASE + TT_TLB_CFG_STRIDE * WINDOW)

/* BAR2: the PCIe controller's eDMA, read channel 0 (host to device) */
#define EDMA_DOORBELL       0x104
#define EDMA_SIZE           0x11c
#define EDMA_SAR            0x120
#define EDMA_DAR            0x128
#define EDMA_L1_DST         0x20000     /* not the pattern's */

/* The host map: tile (1, 2) is tile 0, (2, 2) tile 10 (column-major) */
#define HM_TILE             0
#define HM_RUN_TILE         10
#define HM_RUN_X            2
#define HM_RUN_Y            2
#define HM_L1_SIZE          0x180000u
#define HM_HOLE             0x40000u    /* punched in tile 0's L1 */
#define HM_DEAD             0x3000u     /* written by a client then killed */
#define HM_REMAP            0x48000u    /* written through a moved mapping */
#define SOFT_RESET_0        0xffb121b0u
#define SOFT_RESET_HOLD     0x47800u
#define SOFT_RESET_BRISC    (1u << 11)
#define REG_WINDOW          8           /* BAR0 window onto registers */

#define ARRAY_LEN(a)        (sizeof(a) / sizeof((a)[0]))

#define QEMU_START_S        60
#define REPLY_WAIT_S        5
#define DMA_RELEASE_S       2.0         /* the device's own timeout is 10 s */
#define QMP_WAIT_S          2

static struct {
    char dir[64];
    char sock[108];
    char qmp[108];
    char log[108];
    char err[108];
    pid_t qemu;
    bool exited;
    int status;
    long mark[2];               /* log and stderr sizes before a case */
    uint8_t pattern[PATTERN_LEN];
    uint32_t tlb[3];
} t;

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

    nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------ QEMU -- */

static bool qemu_alive(void)
{
    if (t.qemu <= 0) {
        return false;
    }
    if (!t.exited && waitpid(t.qemu, &t.status, WNOHANG) == t.qemu) {
        t.exited = true;
        printf("# QEMU exited: %s %d\n", WIFSIGNALED(t.status) ?
               "signal" : "status", WIFSIGNALED(t.status) ?
               WTERMSIG(t.status) : WEXITSTATUS(t.status));
    }
    return !t.exited;
}

static void qemu_exec(const char *bin)
{
    char obj[192], qmp[160];
    int fd = open(t.err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

    prctl(PR_SET_PDEATHSIG, SIGKILL);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    dup2(open("/dev/null", O_RDONLY), STDIN_FILENO);
    snprintf(obj, sizeof(obj), "tt-vfio-user,id=vfu0,socket=%s", t.sock);
    snprintf(qmp, sizeof(qmp), "unix:%s,server=on,wait=off", t.qmp);
    execlp(bin, bin, "-M", "blackhole,board=p100a", "-display", "none",
           "-monitor", "none", "-serial", "none", "-d", "guest_errors,unimp",
           "-D", t.log, "-qmp", qmp, "-object", obj, (char *)NULL);
    fprintf(stderr, "exec %s: %s\n", bin, strerror(errno));
    _exit(127);
}

static bool qemu_start(const char *bin)
{
    struct stat st;
    double end = now() + QEMU_START_S;
    const char *base = getenv("TMPDIR");

    /* $TMPDIR unless the sockets' paths would not fit */
    if (!base || !*base ||
        snprintf(t.dir, sizeof(t.dir), "%s/tt-vfu-bad.XXXXXX", base) >=
        (int)sizeof(t.dir)) {
        snprintf(t.dir, sizeof(t.dir), "%s/tt-vfu-bad.XXXXXX", P_tmpdir);
    }
    if (!mkdtemp(t.dir)) {
        perror("mkdtemp");
        return false;
    }
    snprintf(t.sock, sizeof(t.sock), "%s/bh.sock", t.dir);
    snprintf(t.qmp, sizeof(t.qmp), "%s/qmp.sock", t.dir);
    snprintf(t.log, sizeof(t.log), "%s/qemu.log", t.dir);
    snprintf(t.err, sizeof(t.err), "%s/qemu.err", t.dir);
    fflush(stdout);
    t.qemu = fork();
    if (t.qemu == 0) {
        qemu_exec(bin);
    }
    while (t.qemu > 0 && qemu_alive() && now() < end) {
        if (stat(t.sock, &st) == 0 && S_ISSOCK(st.st_mode)) {
            return true;
        }
        sleep_ms(20);
    }
    return false;
}

/* SIGTERM, and what became of it: true if QEMU exited normally */
static bool qemu_stop(void)
{
    double end = now() + 10;

    if (qemu_alive()) {
        kill(t.qemu, SIGTERM);
    }
    while (qemu_alive() && now() < end) {
        sleep_ms(20);
    }
    if (qemu_alive()) {
        kill(t.qemu, SIGKILL);
        waitpid(t.qemu, &t.status, 0);
        return false;
    }
    return WIFEXITED(t.status) && WEXITSTATUS(t.status) == 0;
}

static void cleanup(void)
{
    const char *keep = getenv("TT_VFU_TEST_KEEP");
    char path[160];

    if (keep && *keep == '1') {
        printf("# kept %s\n", t.dir);
        return;
    }
    for (const char *f = "bh.sock\0qmp.sock\0qemu.log\0qemu.err\0"; *f;
         f += strlen(f) + 1) {
        snprintf(path, sizeof(path), "%s/%s", t.dir, f);
        unlink(path);
    }
    rmdir(t.dir);
}

static int qemu_fds(void)
{
    char path[64];
    DIR *d;
    int n = 0;

    snprintf(path, sizeof(path), "/proc/%d/fd", (int)t.qemu);
    d = opendir(path);
    if (!d) {
        return -1;
    }
    while (readdir(d)) {
        n++;
    }
    closedir(d);
    return n;
}

/* ------------------------------------------------------------- logs -- */

static long file_size(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 ? st.st_size : 0;
}

static void log_mark(void)
{
    t.mark[0] = file_size(t.log);
    t.mark[1] = file_size(t.err);
}

/* Did QEMU write @what to the log or stderr since log_mark()? */
static bool logged(const char *what)
{
    const char *files[2] = { t.log, t.err };

    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(files[i], "r");
        char line[1024];
        bool found = false;

        if (!f) {
            continue;
        }
        fseek(f, t.mark[i], SEEK_SET);
        while (!found && fgets(line, sizeof(line), f)) {
            found = strstr(line, what) != NULL;
            if (found) {
                line[strcspn(line, "\n")] = '\0';
                printf("# %s: %s\n", i ? "stderr" : "log", line);
            }
        }
        fclose(f);
        if (found) {
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------------- QMP client -- */

static int unix_connect(const char *path, unsigned timeout_s)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    struct timeval tv = { .tv_sec = timeout_s };
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

    snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
    /* the send timeout bounds connect() too */
    if (fd < 0 ||
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
        connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    return fd;
}

/* Read until @word shows up (true) or the receive timeout expires */
static bool qmp_expect(int fd, const char *word)
{
    char buf[4096];
    size_t len = 0;

    while (len < sizeof(buf) - 1) {
        ssize_t n = recv(fd, buf + len, sizeof(buf) - 1 - len, 0);

        if (n <= 0) {
            return false;
        }
        len += n;
        buf[len] = '\0';
        if (strstr(buf, word)) {
            return true;
        }
    }
    return false;
}

static bool qmp_send(int fd, const char *cmd)
{
    return send(fd, cmd, strlen(cmd), MSG_NOSIGNAL) == (ssize_t)strlen(cmd);
}

/* Does QEMU's main loop answer a QMP query-status in time? */
static bool qmp_running(void)
{
    int fd = unix_connect(t.qmp, QMP_WAIT_S);
    bool ok;

    if (fd < 0) {
        return false;
    }
    ok = qmp_expect(fd, "\"QMP\"") &&
         qmp_send(fd, "{\"execute\":\"qmp_capabilities\"}\n") &&
         qmp_expect(fd, "\"return\"") &&
         qmp_send(fd, "{\"execute\":\"query-status\"}\n") &&
         qmp_expect(fd, "\"running\"");
    close(fd);
    return ok;
}

/* --------------------------------------------------- normal clients -- */

static bool client_open(VfuClient *c)
{
    double end = now() + REPLY_WAIT_S;
    int r;

    vfu_client_init(c);
    alarm(REPLY_WAIT_S);        /* connect() waits while QEMU does not accept */
    while ((r = vfu_client_connect(c, t.sock)) < 0 && now() < end) {
        sleep_ms(10);
    }
    alarm(0);
    if (r < 0) {
        printf("# connect: %s\n", strerror(-r));
        return false;
    }
    if (vfu_client_set_timeout(c, REPLY_WAIT_S) < 0 ||
        vfu_client_handshake(c) < 0) {
        vfu_client_close(c);
        return false;
    }
    return true;
}

static bool set_window(VfuClient *c)
{
    uint64_t local = L1_ADDR >> 21;

    t.tlb[0] = (uint32_t)local;
    t.tlb[1] = ((uint32_t)(local >> 32) & 0x7ff) | TILE_X << 11 |
               TILE_Y << 17;
    t.tlb[2] = 0;
    for (int i = 0; i < 3; i++) {
        if (vfu_client_write32(c, VFU_REGION_BAR0, TLB_CFG + 4 * i,
                               t.tlb[i]) < 0) {
            return false;
        }
    }
    return true;
}

/* Does the window still show the first @len bytes of the pattern? */
static bool pattern_intact(VfuClient *c, uint32_t len)
{
    uint8_t buf[PATTERN_LEN];
    uint32_t off = L1_ADDR & ((2u << 20) - 1);

    return vfu_client_read(c, VFU_REGION_BAR0, WIN_BASE + off, buf,
                           len) == 0 && !memcmp(buf, t.pattern, len);
}

static bool write_pattern(void)
{
    VfuClient c;
    uint32_t off = L1_ADDR & ((2u << 20) - 1);
    bool ok;

    tt_fill(t.pattern, sizeof(t.pattern), 0xbadc11e);
    if (!client_open(&c)) {
        return false;
    }
    ok = set_window(&c) &&
         vfu_client_write(&c, VFU_REGION_BAR0, WIN_BASE + off, t.pattern,
                          sizeof(t.pattern)) == 0 &&
         pattern_intact(&c, sizeof(t.pattern));
    vfu_client_close(&c);
    return ok;
}

/*
 * The mailbox region is offered for mmap (one area: all of it, with the
 * memfd): bytes stored through the mapping are what a REGION_READ returns
 * and a REGION_WRITE shows in the mapping.  STATUS reads 0 (no request).
 */
static bool mailbox_shared(void)
{
    VfuClient c;
    const VfuRegionInfo *r;
    uint8_t a[16], b[16], got[16];
    uint8_t *m = MAP_FAILED;
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    r = vfu_client_region(&c, VFU_REGION_VGA);
    ok = r && r->mappable && r->map_start == 0 && r->map_size == TT_MBOX_SIZE;
    printf("# region 8: %s, area [0x%llx, +0x%llx)\n",
           r && r->mappable ? "mappable" : "not mappable",
           r ? (unsigned long long)r->map_start : 0ull,
           r ? (unsigned long long)r->map_size : 0ull);
    if (ok) {
        m = mmap(NULL, TT_MBOX_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
                 r->map_fd, r->map_offset);
        ok = m != MAP_FAILED;
    }
    if (ok) {
        tt_fill(a, sizeof(a), 0x5a5a01);
        tt_fill(b, sizeof(b), 0x5a5a02);
        memcpy(m + TT_MBOX_DATA, a, sizeof(a));
        ok = vfu_client_read(&c, VFU_REGION_VGA, TT_MBOX_DATA, got,
                             sizeof(got)) == 0 && !memcmp(got, a, sizeof(a)) &&
             vfu_client_write(&c, VFU_REGION_VGA, TT_MBOX_DATA + 16, b,
                              sizeof(b)) == 0 &&
             !memcmp(m + TT_MBOX_DATA + 16, b, sizeof(b)) &&
             __atomic_load_n((uint32_t *)(m + TT_MBOX_STATUS),
                             __ATOMIC_ACQUIRE) == 0;
        munmap(m, TT_MBOX_SIZE);
    }
    vfu_client_close(&c);
    return ok;
}

/* The next client after a bad one: attaches and sees the chip's state */
static bool next_client_ok(void)
{
    VfuClient c;
    bool ok;

    if (!qemu_alive() || !client_open(&c)) {
        return false;
    }
    ok = pattern_intact(&c, 64);
    vfu_client_close(&c);
    return ok;
}

/* ------------------------------------------------------ raw clients -- */

static size_t put_msg(uint8_t *buf, uint16_t cmd, uint32_t size,
                      uint32_t flags, const void *body, size_t len)
{
    VfuHeader h = { BAD_ID, cmd, size, flags, 0 };

    memcpy(buf, &h, sizeof(h));
    if (len) {
        memcpy(buf + sizeof(h), body, len);
    }
    return sizeof(h) + len;
}

/* A message whose header tells the truth about its size */
static size_t put_cmd(uint8_t *buf, uint16_t cmd, const void *body,
                      size_t len)
{
    return put_msg(buf, cmd, sizeof(VfuHeader) + len, 0, body, len);
}

static size_t put_access(uint8_t *buf, uint16_t cmd, uint32_t region,
                         uint64_t offset, uint32_t count, uint32_t data_len)
{
    VfuRegionAccess a = { offset, region, count };
    uint8_t body[sizeof(a) + 256] = { 0 };

    memcpy(body, &a, sizeof(a));
    return put_cmd(buf, cmd, body, sizeof(a) + data_len);
}

static size_t put_version(uint8_t *buf, uint16_t major, const char *json,
                          size_t json_len)
{
    uint8_t body[256];
    uint16_t v[2] = { major, 0 };

    memcpy(body, v, sizeof(v));
    memcpy(body + sizeof(v), json, json_len);
    return put_cmd(buf, VFU_CMD_VERSION, body, sizeof(v) + json_len);
}

static bool raw_send(int fd, const void *buf, size_t len, const int *fds,
                     int nfds)
{
    char cbuf[CMSG_SPACE(64 * sizeof(int))] = { 0 };
    struct iovec iov = { (void *)buf, len };
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

    if (nfds > 0) {
        struct cmsghdr *cm;

        mh.msg_control = cbuf;
        mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
        cm = CMSG_FIRSTHDR(&mh);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(nfds * sizeof(int));
        memcpy(CMSG_DATA(cm), fds, nfds * sizeof(int));
    }
    return sendmsg(fd, &mh, MSG_NOSIGNAL) == (ssize_t)len;
}

static bool recv_all(int fd, void *buf, size_t len)
{
    uint8_t *p = buf;

    while (len > 0) {
        ssize_t n = recv(fd, p, len, 0);

        if (n <= 0) {
            return false;
        }
        p += n;
        len -= n;
    }
    return true;
}

enum { GOT_OK, GOT_ERROR, GOT_EOF, GOT_NOTHING };

/* What the server answered: a reply (payload dropped), EOF or nothing */
static int raw_answer(int fd, VfuHeader *h)
{
    static uint8_t junk[1u << 20];
    ssize_t n = recv(fd, h, sizeof(*h), MSG_WAITALL);

    if (n == 0 || (n < 0 && errno == ECONNRESET)) {
        return GOT_EOF;
    }
    if (n != sizeof(*h) || h->msg_size < sizeof(*h) ||
        h->msg_size - sizeof(*h) > sizeof(junk) ||
        !recv_all(fd, junk, h->msg_size - sizeof(*h))) {
        return GOT_NOTHING;
    }
    if (h->msg_id != BAD_ID ||
        (h->flags & VFU_FLAG_TYPE_MASK) != VFU_FLAG_TYPE_REPLY) {
        printf("# unexpected reply: id 0x%x flags 0x%x\n", h->msg_id, h->flags);
        return GOT_NOTHING;
    }
    if (h->flags & VFU_FLAG_ERROR) {
        printf("# server refused: %s\n", strerror(h->error_no));
        return GOT_ERROR;
    }
    return GOT_OK;
}

/* Before the handshake: the server must refuse (error reply or close) */
static bool refused_at_handshake(const void *msg, size_t len,
                                 const int *fds, int nfds)
{
    int fd = unix_connect(t.sock, REPLY_WAIT_S);
    VfuHeader h;
    int r;

    if (fd < 0) {
        return false;
    }
    r = raw_send(fd, msg, len, fds, nfds) ? raw_answer(fd, &h) : GOT_NOTHING;
    if (r == GOT_ERROR) {
        r = raw_answer(fd, &h);     /* then it hangs up */
    }
    close(fd);
    return r == GOT_EOF;
}

/*
 * After a normal handshake, send @msg: the server must answer @want, and
 * the connection must still be in step (a normal read works on it).
 */
static bool answered(const void *msg, size_t len, const int *fds, int nfds,
                     int want)
{
    VfuClient c;
    uint32_t v;
    VfuHeader h;
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    ok = raw_send(c.fd, msg, len, fds, nfds) && raw_answer(c.fd, &h) == want &&
         vfu_client_read32(&c, VFU_REGION_BAR2, EDMA_SIZE, &v) == 0;
    vfu_client_close(&c);
    return ok;
}

static bool refused(const void *msg, size_t len)
{
    return answered(msg, len, NULL, 0, GOT_ERROR);
}

/* ------------------------------------------- before the handshake -- */

static bool bad_garbage(void)
{
    static const char http[] = "GET / HTTP/1.1\r\nHost: bh\r\n\r\n";

    return refused_at_handshake(http, sizeof(http) - 1, NULL, 0);
}

static bool bad_short_then_close(void)
{
    int fd = unix_connect(t.sock, REPLY_WAIT_S);
    bool ok = fd >= 0 && raw_send(fd, "\x01\x00\x01\x00\x40", 5, NULL, 0);

    if (fd >= 0) {
        close(fd);
    }
    return ok;
}

static bool bad_version_size(uint32_t size)
{
    uint8_t m[64];
    size_t n = put_version(m, 0, "{}", 3);

    ((VfuHeader *)m)->msg_size = size;
    return refused_at_handshake(m, n, NULL, 0);
}

static bool bad_version_tiny(void)
{
    return bad_version_size(8);
}

static bool bad_version_huge(void)
{
    return bad_version_size(UINT32_MAX);
}

static bool bad_version_major(void)
{
    uint8_t m[64];

    return refused_at_handshake(m, put_version(m, 9, "{}", 3), NULL, 0);
}

static bool bad_version_json(const char *json, size_t len)
{
    uint8_t m[256];

    return refused_at_handshake(m, put_version(m, 0, json, len), NULL, 0);
}

static bool bad_json_unterminated(void)
{
    return bad_version_json("{\"capabilities\":{}}", 19);
}

static bool bad_json_syntax(void)
{
    return bad_version_json("{\"capabilities\":{,", 19);
}

static bool bad_json_fds(void)
{
    static const char j[] = "{\"capabilities\":{\"max_msg_fds\":100000}}";

    return bad_version_json(j, sizeof(j));
}

static bool bad_version_fds(void)
{
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    int fds[2] = { null, null };
    uint8_t m[64];
    bool ok;

    ok = null >= 0 &&
         refused_at_handshake(m, put_version(m, 0, "{}", 3), fds, 2);
    close(null);
    return ok;
}

static bool bad_no_version(void)
{
    uint8_t m[64];

    return refused_at_handshake(m, put_access(m, VFU_CMD_REGION_READ, 0, 0,
                                              4, 0), NULL, 0);
}

/* --------------------------------------------- malformed requests -- */

static bool bad_size(uint32_t size)
{
    uint8_t m[sizeof(VfuHeader)];

    return refused(m, put_msg(m, VFU_CMD_REGION_READ, size, 0, NULL, 0));
}

static bool bad_size_tiny(void)
{
    return bad_size(8);
}

static bool bad_size_huge(void)
{
    return bad_size(UINT32_MAX);
}

static bool bad_no_payload(void)
{
    return bad_size(sizeof(VfuHeader));
}

static bool bad_command(void)
{
    uint8_t m[64], body[16] = { 0 };

    return refused(m, put_cmd(m, 0x7777, body, sizeof(body)));
}

/*
 * Only a header: after refusing one, libvfio-user reads whatever follows
 * as the next header, so a body would bring more error replies.
 */
static bool bad_reply_type(void)
{
    uint8_t m[sizeof(VfuHeader)];

    return refused(m, put_msg(m, VFU_CMD_REGION_READ, sizeof(m),
                              VFU_FLAG_TYPE_REPLY, NULL, 0));
}

static bool bad_access(uint16_t cmd, uint32_t region, uint64_t offset,
                       uint32_t count, uint32_t data_len)
{
    uint8_t m[512];

    return refused(m, put_access(m, cmd, region, offset, count, data_len));
}

static bool bad_region_index(void)
{
    return bad_access(VFU_CMD_REGION_READ, 50, 0, 4, 0);
}

static bool bad_past_end(void)
{
    return bad_access(VFU_CMD_REGION_READ, VFU_REGION_BAR2, (1u << 20) - 4,
                      8, 0);
}

static bool bad_wrapping(void)
{
    return bad_access(VFU_CMD_REGION_WRITE, VFU_REGION_BAR0, UINT64_MAX - 3, 8,
                      8);
}

static bool bad_huge_count(void)
{
    return bad_access(VFU_CMD_REGION_READ, VFU_REGION_BAR0, 0, 0x80000000u, 0);
}

static bool bad_count_mismatch(void)
{
    return bad_access(VFU_CMD_REGION_WRITE, VFU_REGION_BAR0,
                      WIN_BASE + 0x100000, 64, 8);
}

static bool bad_short_access(void)
{
    uint8_t m[64], body[8] = { 0 };

    return refused(m, put_cmd(m, VFU_CMD_REGION_READ, body, sizeof(body)));
}

/* Accepted as a no-op: nothing to refuse, nothing changes */
static bool zero_count(void)
{
    uint8_t m[64];

    return answered(m, put_access(m, VFU_CMD_REGION_WRITE, VFU_REGION_BAR0,
                                  WIN_BASE, 0, 0), NULL, 0, GOT_OK);
}

static bool bad_mailbox_access(void)
{
    return bad_access(VFU_CMD_REGION_READ, VFU_REGION_VGA, TT_MBOX_STATUS, 2, 0);
}

/* No register starts at offset 1 */
static bool bad_config_write(void)
{
    return bad_access(VFU_CMD_REGION_WRITE, VFU_REGION_CONFIG, 1, 1, 1);
}

/* QEMU's open descriptors while a normal client is attached */
static int attached_fds(void)
{
    VfuClient c;
    int n;

    if (!client_open(&c)) {
        return -1;
    }
    n = qemu_fds();
    vfu_client_close(&c);
    return n;
}

/* 64 descriptors on a read: served, and every descriptor closed again */
static bool fds_attached(void)
{
    int fds[64], before = attached_fds(), after;
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    uint8_t m[64];
    bool ok;

    for (int i = 0; i < 64; i++) {
        fds[i] = null;
    }
    ok = null >= 0 &&
         answered(m, put_access(m, VFU_CMD_REGION_READ, VFU_REGION_BAR2,
                                EDMA_SIZE, 4, 0), fds, 64, GOT_OK);
    close(null);
    after = attached_fds();
    printf("# QEMU's descriptors with a client attached: %d before, %d "
           "after\n", before, after);
    return ok && before > 0 && after == before;
}

/*
 * SET_IRQS (INTx, action trigger, eventfd data: linux/vfio.h
 * VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER) with the
 * client's own socket as the eventfd.  Kept, that descriptor would hold
 * the client's end of the connection open inside QEMU: the client leaves,
 * the server never sees it go, and no later client is served.
 */
static bool bad_irq_socket(void)
{
    uint32_t set[5] = { sizeof(set), (1u << 2) | (1u << 5), 0, 0, 1 };
    uint8_t m[64];
    VfuClient c;
    VfuHeader h;
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    ok = raw_send(c.fd, m, put_cmd(m, VFU_CMD_DEVICE_SET_IRQS, set,
                                   sizeof(set)), &c.fd, 1) &&
         raw_answer(c.fd, &h) == GOT_ERROR;
    vfu_client_close(&c);
    return ok;
}

/* ------------------------------------------------------------- DMA -- */

static size_t put_dma_map(uint8_t *buf, uint32_t argsz, uint32_t flags,
                          uint64_t addr, uint64_t size)
{
    DmaMap d = { argsz, flags, 0, addr, size };

    return put_cmd(buf, VFU_CMD_DMA_MAP, &d, sizeof(d));
}

static bool bad_dma_argsz(void)
{
    uint8_t m[64];

    return refused(m, put_dma_map(m, 8, 3, 0x100000, 4096));
}

static bool bad_dma_flags(void)
{
    uint8_t m[64];

    return refused(m, put_dma_map(m, sizeof(DmaMap), 0x83, 0x100000, 4096));
}

static bool bad_dma_size(void)
{
    uint8_t m[64];

    return refused(m, put_dma_map(m, sizeof(DmaMap), 3, 0, 16ull << 40));
}

static bool bad_dma_fd(void)
{
    int p[2];
    uint8_t m[64];
    bool ok;

    if (pipe(p) < 0) {
        return false;
    }
    ok = answered(m, put_dma_map(m, sizeof(DmaMap), 3, 0x100000, 4096), p,
                  1, GOT_ERROR);
    close(p[0]);
    close(p[1]);
    return ok;
}

/* Send @n DMA maps on one connection; true if the last one is refused */
static bool dma_maps(const uint64_t *addr, const uint64_t *size, int n)
{
    VfuClient c;
    uint8_t m[64];
    VfuHeader h;
    int r = GOT_NOTHING;

    if (!client_open(&c)) {
        return false;
    }
    for (int i = 0; i < n; i++) {
        size_t len = put_dma_map(m, sizeof(DmaMap), 3, addr[i], size[i]);

        r = raw_send(c.fd, m, len, NULL, 0) ? raw_answer(c.fd, &h) :
            GOT_NOTHING;
        if (r != (i < n - 1 ? GOT_OK : GOT_ERROR)) {
            break;
        }
    }
    vfu_client_close(&c);
    return r == GOT_ERROR;
}

static bool bad_dma_overlap(void)
{
    static const uint64_t addr[] = { 0x100000, 0x101000 };
    static const uint64_t size[] = { 0x10000, 0x1000 };

    return dma_maps(addr, size, 2);
}

static bool bad_dma_many(void)
{
    uint64_t addr[17], size[17];

    for (int i = 0; i < 17; i++) {
        addr[i] = 0x100000 + i * 0x10000;
        size[i] = 0x1000;
    }
    return dma_maps(addr, size, 17);
}

static bool bad_dma_unmap(void)
{
    DmaUnmap d = { sizeof(d), 0, 0x700000, 0x1000 };
    uint8_t m[64];

    return refused(m, put_cmd(m, VFU_CMD_DMA_UNMAP, &d, sizeof(d)));
}

static bool edma_start(VfuClient *c, uint64_t host, uint32_t len)
{
    static const uint32_t regs[] = {
        EDMA_SAR, EDMA_SAR + 4, EDMA_DAR, EDMA_DAR + 4, EDMA_SIZE,
        EDMA_DOORBELL,
    };
    uint32_t val[] = {
        (uint32_t)host, host >> 32, WIN_BASE + EDMA_L1_DST, 0, len, 1,
    };

    for (int i = 0; i < 6; i++) {
        if (vfu_client_write32(c, VFU_REGION_BAR2, regs[i], val[i]) < 0) {
            return false;
        }
    }
    return true;
}

/* Wait for the eDMA engine to give up or finish: SIZE reads 0 */
static bool edma_wait(VfuClient *c, double timeout_s)
{
    double end = now() + timeout_s;
    uint32_t v = 1;

    while (vfu_client_read32(c, VFU_REGION_BAR2, EDMA_SIZE, &v) == 0 &&
           v != 0 && now() < end) {
        sleep_ms(5);
    }
    return v == 0;
}

/* Host memory mapped without a descriptor, no mailbox: the device fails */
static bool dma_unbacked(void)
{
    VfuClient c;
    uint8_t m[64];
    VfuHeader h;
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    ok = raw_send(c.fd, m, put_dma_map(m, sizeof(DmaMap), 3, 0x100000,
                                       0x10000), NULL, 0) &&
         raw_answer(c.fd, &h) == GOT_OK &&
         edma_start(&c, 0x100000, 0x1000) && edma_wait(&c, DMA_RELEASE_S);
    vfu_client_close(&c);
    return ok;
}

/* Enable the mailbox, start an eDMA read and wait until it is posted */
static bool dma_pending(VfuClient *c)
{
    double end = now() + REPLY_WAIT_S;
    uint32_t v = 0;

    if (vfu_client_write32(c, VFU_REGION_VGA, TT_MBOX_CTRL, 1) < 0 ||
        !edma_start(c, 0x200000, 0x20000)) {
        return false;
    }
    while (vfu_client_read32(c, VFU_REGION_VGA, TT_MBOX_STATUS, &v) == 0 &&
           v != 1 && now() < end) {
        sleep_ms(1);
    }
    return v == 1;
}

static bool mailbox_off_pending(void)
{
    VfuClient c;
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    ok = dma_pending(&c) &&
         vfu_client_write32(&c, VFU_REGION_VGA, TT_MBOX_CTRL, 0) == 0 &&
         edma_wait(&c, DMA_RELEASE_S);
    vfu_client_close(&c);
    return ok;
}

/* Tell the parent through @ready once the DMA is posted, then wait */
static void dma_child(int ready)
{
    VfuClient c;

    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (!client_open(&c) || !dma_pending(&c)) {
        _exit(1);               /* the parent reads EOF */
    }
    (void)!write(ready, "", 1);
    pause();
    _exit(0);
}

/* A client process killed while the chip waits for it to serve a DMA */
static bool killed_mid_dma(void)
{
    int p[2];
    pid_t pid;
    char b;
    bool posted;
    double t0;
    VfuClient c;
    uint32_t ctrl = 1;

    if (pipe(p) < 0) {
        return false;
    }
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        close(p[0]);
        dma_child(p[1]);
    }
    close(p[1]);
    posted = pid > 0 && read(p[0], &b, 1) == 1;
    close(p[0]);
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    t0 = now();
    if (!posted || !client_open(&c)) {
        return false;
    }
    posted = edma_wait(&c, DMA_RELEASE_S) &&
             vfu_client_read32(&c, VFU_REGION_VGA, TT_MBOX_CTRL, &ctrl) == 0;
    printf("# DMA released %.3f s after the client died; mailbox %s\n",
           now() - t0, ctrl ? "still on" : "off");
    vfu_client_close(&c);
    return posted && ctrl == 0;
}

/* ------------------------------------------------- dying mid-message -- */

/* After a handshake: send @len bytes of @msg, then hang up at once */
static bool send_and_close(const void *msg, size_t len)
{
    VfuClient c;
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    ok = raw_send(c.fd, msg, len, NULL, 0);
    vfu_client_close(&c);
    return ok;
}

/* 64 KiB announced, 100 bytes after the header sent */
static bool truncated_write(void)
{
    uint8_t m[sizeof(VfuHeader) + 100] = { 0 };
    VfuRegionAccess a = { WIN_BASE + 0x100000, VFU_REGION_BAR0, 64u << 10 };

    put_msg(m, VFU_CMD_REGION_WRITE, sizeof(VfuHeader) + sizeof(a) + a.count,
            0, &a, sizeof(a));
    return send_and_close(m, sizeof(m));
}

static bool header_only(void)
{
    uint8_t m[sizeof(VfuHeader)];

    put_msg(m, VFU_CMD_REGION_WRITE,
            sizeof(VfuHeader) + sizeof(VfuRegionAccess) + 64, 0, NULL, 0);
    return send_and_close(m, sizeof(m));
}

static bool half_header(void)
{
    uint8_t m[64];

    put_access(m, VFU_CMD_REGION_READ, VFU_REGION_BAR0, WIN_BASE, 4, 0);
    return send_and_close(m, sizeof(VfuHeader) / 2);
}

static bool close_before_reply(void)
{
    uint8_t m[64];

    return send_and_close(m, put_access(m, VFU_CMD_REGION_READ, VFU_REGION_BAR0,
                                        WIN_BASE, 1u << 20, 0));
}

/*
 * A request header alone, its body never sent, with the client's own
 * socket attached, then close: waiting for the body, the server must not
 * hold the socket, which would keep the connection open for good (found
 * by tt-vfu-fuzz)
 */
static bool socket_fd_in_header(void)
{
    uint8_t m[sizeof(VfuHeader)];
    VfuClient c;
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    put_msg(m, VFU_CMD_REGION_READ,
            sizeof(VfuHeader) + sizeof(VfuRegionAccess), 0, NULL, 0);
    ok = raw_send(c.fd, m, sizeof(m), &c.fd, 1);
    sleep_ms(200);              /* the server has the header: it waits */
    vfu_client_close(&c);
    return ok;
}

/* Four 1 MiB reads never read back: the server blocks in its reply */
static bool replies_unread(void)
{
    uint8_t m[4 * 64];
    size_t n = 0;

    for (int i = 0; i < 4; i++) {
        n += put_access(m + n, VFU_CMD_REGION_READ, VFU_REGION_BAR0, WIN_BASE,
                        1u << 20, 0);
    }
    return send_and_close(m, n);
}

/* -------------------------------------------------- stalled clients -- */

/* @len bytes of @msg on a raw connection, then wait: is QMP answered? */
static bool stall_after(const void *msg, size_t len, bool handshake)
{
    VfuClient c;
    bool ok;

    vfu_client_init(&c);
    if (handshake ? !client_open(&c) :
        vfu_client_connect(&c, t.sock) < 0) {
        return false;
    }
    ok = raw_send(c.fd, msg, len, NULL, 0);
    sleep_ms(100);
    ok = qmp_running() && ok;
    vfu_client_close(&c);
    return ok;
}

static bool stall_before_version(void)
{
    return stall_after("", 0, false);
}

static bool stall_after_header(void)
{
    uint8_t m[sizeof(VfuHeader)];

    put_msg(m, VFU_CMD_REGION_WRITE,
            sizeof(VfuHeader) + sizeof(VfuRegionAccess) + 64, 0, NULL, 0);
    return stall_after(m, sizeof(m), true);
}

static bool stall_unread_reply(void)
{
    uint8_t m[64];

    return stall_after(m, put_access(m, VFU_CMD_REGION_READ, VFU_REGION_BAR0,
                                     WIN_BASE, 1u << 20, 0), true);
}

/* A 4 KiB memfd mapped as 1 MiB; the eDMA engine reads at 64 KiB */
static bool dma_past_file_end(void)
{
    int fd = memfd_create("short", MFD_CLOEXEC);
    VfuClient c;
    uint8_t m[64];
    VfuHeader h;
    bool ok;

    if (fd < 0 || ftruncate(fd, 4096) < 0 || !client_open(&c)) {
        return false;
    }
    ok = raw_send(c.fd, m, put_dma_map(m, sizeof(DmaMap), 3, 0x400000,
                                       1u << 20), &fd, 1) &&
         raw_answer(c.fd, &h) == GOT_OK &&
         edma_start(&c, 0x410000, 0x1000) && edma_wait(&c, DMA_RELEASE_S);
    vfu_client_close(&c);
    close(fd);
    return ok && qemu_alive();
}


/*
 * The PCIe tile in translated coordinates (tt-umd blackhole_implementation.hpp:
 * PCIe at (19, 24)); a NOC write there below 1 << 60 lands in host memory
 */
#define PCIE_X              19
#define PCIE_Y              24
#define HOST_WINDOW         6
#define HOST_DMA            0x400000u   /* mapped client memory, 2 MiB */
#define HOST_WORDS          0x100000u   /* where the BAR0 writes land */

/* TLB window @n onto the PCIe tile at host address @host (2 MiB aligned) */
static bool set_host_window(VfuClient *c, uint32_t n, uint64_t host)
{
    uint32_t cfg[3] = {
        (uint32_t)(host >> 21), PCIE_X << 11 | PCIE_Y << 17, 0,
    };

    for (int i = 0; i < 3; i++) {
        if (vfu_client_write32(c, VFU_REGION_BAR0, TT_TLB_CFG_BASE +
                               TT_TLB_CFG_STRIDE * n + 4 * i, cfg[i]) < 0) {
            return false;
        }
    }
    return true;
}

/*
 * eDMA reads of mapped host memory while BAR0 writes reach host memory
 * through the PCIe tile: the copy (holding the PCIe DMA lock) and the
 * server thread (serving the BAR write) must not wait on each other.
 * This once stopped QEMU (found by tt-vfu-fuzz).
 */
static bool dma_while_bar_to_host(void)
{
    int fd = memfd_create("host", MFD_CLOEXEC);
    uint32_t *host = MAP_FAILED;
    VfuClient c;
    uint8_t m[64];
    VfuHeader h;
    bool ok;
    int i, bad = 0;

    if (fd < 0 || ftruncate(fd, 2u << 20) < 0 || !client_open(&c)) {
        return false;
    }
    host = mmap(NULL, 2u << 20, PROT_READ, MAP_SHARED, fd, 0);
    ok = host != MAP_FAILED &&
         raw_send(c.fd, m, put_dma_map(m, sizeof(DmaMap), 3, HOST_DMA,
                                       2u << 20), &fd, 1) &&
         raw_answer(c.fd, &h) == GOT_OK && set_window(&c) &&
         set_host_window(&c, HOST_WINDOW, HOST_DMA);
    for (i = 0; ok && i < 100; i++) {
        ok = edma_start(&c, HOST_DMA, 0x40000);
        for (int k = 0; ok && k < 16; k++) {
            uint32_t n = i * 16 + k;

            ok = vfu_client_write32(&c, VFU_REGION_BAR0,
                                    ((uint64_t)HOST_WINDOW << 21) +
                                    HOST_WORDS + 4 * n, 0xd0000000u | n) == 0;
        }
        ok = ok && edma_wait(&c, DMA_RELEASE_S);
    }
    for (int n = 0; ok && n < i * 16; n++) {
        bad += host[(HOST_WORDS >> 2) + n] != (0xd0000000u | n);
    }
    printf("# %d eDMA transfers, %d BAR0 writes to host memory, %d wrong\n",
           i, i * 16, bad);
    vfu_client_close(&c);
    if (host != MAP_FAILED) {
        munmap(host, 2u << 20);
    }
    close(fd);
    return ok && !bad && qemu_alive();
}

/*
 * A BAR0 write that reaches unmapped host memory while the eDMA engine
 * waits for the client to serve a mailbox request: the write is dropped
 * (only the client could serve it, and it waits for this reply), and its
 * reply must not wait for the mailbox's 10-second timeout.  This once held
 * the server thread, with the BQL, for those 10 s (found by tt-vfu-fuzz).
 */
static bool bar_to_host_during_mailbox_dma(void)
{
    VfuClient c;
    double t0, t;
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    ok = set_window(&c) && set_host_window(&c, HOST_WINDOW, 0x800000) &&
         dma_pending(&c);
    t0 = now();
    ok = ok && vfu_client_write32(&c, VFU_REGION_BAR0,
                                  (uint64_t)HOST_WINDOW << 21, 0xd00d) == 0;
    t = now() - t0;
    printf("# BAR0 write to host memory answered in %.3f s\n", t);
    ok = ok && t < DMA_RELEASE_S &&
         vfu_client_write32(&c, VFU_REGION_VGA, TT_MBOX_CTRL, 0) == 0 &&
         edma_wait(&c, DMA_RELEASE_S);
    vfu_client_close(&c);
    return ok && qemu_alive();
}

#define HOST_REMAP          0x600000u   /* mapped again and again */

/*
 * The same DMA region mapped 21 times, each time with its file: QEMU
 * keeps one descriptor for it, and after one DMA_UNMAP the chip no longer
 * reaches that memory.  libvfio-user once leaked a descriptor per repeat
 * (found by tt-vfu-fuzz: after 600,000 inputs no client could attach) and
 * told the device about the region again each time, so that the one
 * unmap left it copying from memory no longer mapped.
 */
static bool dma_map_repeated(void)
{
    int fd = memfd_create("host", MFD_CLOEXEC);
    DmaUnmap d = { sizeof(d), 0, HOST_REMAP, 1u << 20 };
    int once = -1, again = -1;
    VfuClient c;
    uint8_t m[64];
    VfuHeader h;
    bool ok = true;

    if (fd < 0 || ftruncate(fd, 1u << 20) < 0 || !client_open(&c)) {
        return false;
    }
    for (int i = 0; ok && i < 21; i++) {
        ok = raw_send(c.fd, m, put_dma_map(m, sizeof(DmaMap), 3, HOST_REMAP,
                                           1u << 20), &fd, 1) &&
             raw_answer(c.fd, &h) == GOT_OK;
        if (i == 0) {
            once = qemu_fds();
        }
    }
    again = qemu_fds();
    printf("# QEMU's descriptors after one map: %d, after 20 more: %d\n",
           once, again);
    ok = ok && once > 0 && again == once &&
         raw_send(c.fd, m, put_cmd(m, VFU_CMD_DMA_UNMAP, &d, sizeof(d)),
                  NULL, 0) &&
         raw_answer(c.fd, &h) == GOT_OK &&
         edma_start(&c, HOST_REMAP, 0x1000) && edma_wait(&c, DMA_RELEASE_S);
    vfu_client_close(&c);
    close(fd);
    return ok;
}

/* -------------------------------------------------------- host map -- */

/* Map area @i of region @idx (read-write), or NULL */
static uint8_t *hm_map(const VfuClient *c, uint32_t idx, uint32_t i,
                       uint64_t *size)
{
    const VfuRegionInfo *r = vfu_client_region(c, idx);
    void *p;

    if (!r || !r->mappable || i >= r->nareas) {
        return NULL;
    }
    *size = r->areas[i].size;
    /* the control region's tables are the server's: read-only */
    p = mmap(NULL, *size, idx == TT_HM_CTRL_REGION ? PROT_READ
                          : PROT_READ | PROT_WRITE, MAP_SHARED, r->map_fd,
             r->file_offset + r->areas[i].start);
    return p == MAP_FAILED ? NULL : p;
}

/*
 * Regions 10 and 11 are offered: one area per L1 and GDDR bank of the
 * P100A, and the shared tables; tile 0's area is the L1 the window shows
 */
static bool hostmap_shared(void)
{
    VfuClient c;
    const VfuRegionInfo *ram;
    const TTHmShared *sh = NULL;
    uint64_t ssize = 0, lsize = 0;
    uint8_t *l1 = NULL, b[16], got[16];
    uint32_t off = L1_ADDR & ((2u << 20) - 1);
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    ram = vfu_client_region(&c, TT_HM_RAM_REGION);
    sh = (const TTHmShared *)hm_map(&c, TT_HM_CTRL_REGION, 0, &ssize);
    l1 = hm_map(&c, TT_HM_RAM_REGION, HM_TILE, &lsize);
    printf("# region 10: %u areas; shared tables %s\n", ram ? ram->nareas : 0,
           sh ? "mapped" : "not mapped");
    ok = ram && ram->nareas == 120 + 7 && sh && l1 &&
         sh->magic == TT_HM_MAGIC && sh->ntiles == 120 &&
         lsize == HM_L1_SIZE && !memcmp(l1 + L1_ADDR, t.pattern, 64);
    if (ok) {
        tt_fill(b, sizeof(b), 0x4d4d01);
        memcpy(l1 + L1_ADDR + 0x2000, b, sizeof(b));
        ok = vfu_client_read(&c, VFU_REGION_BAR0, WIN_BASE + off + 0x2000,
                             got, sizeof(got)) == 0 &&
             !memcmp(got, b, sizeof(b));
    }
    if (l1) {
        munmap(l1, lsize);
    }
    if (sh) {
        munmap((void *)sh, ssize);
    }
    vfu_client_close(&c);
    return ok;
}

/* The memfd of region @idx can be neither shrunk nor grown */
static bool hm_sealed(uint32_t idx)
{
    VfuClient c;
    const VfuRegionInfo *r;
    struct stat st;
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    r = vfu_client_region(&c, idx);
    ok = r && r->mappable && fstat(r->map_fd, &st) == 0 &&
         ftruncate(r->map_fd, 0) < 0 && errno == EPERM &&
         ftruncate(r->map_fd, st.st_size + (1 << 20)) < 0 &&
         errno == EPERM && fcntl(r->map_fd, F_ADD_SEALS, F_SEAL_WRITE) < 0;
    vfu_client_close(&c);
    return ok && qemu_alive();
}

static bool hm_truncate_ram(void)
{
    return hm_sealed(TT_HM_RAM_REGION);
}

static bool hm_truncate_ctrl(void)
{
    return hm_sealed(TT_HM_CTRL_REGION) && hm_sealed(VFU_REGION_VGA);
}

/* A hole punched in L1: QEMU survives, the bytes read as zeros */
static bool hm_punch_hole(void)
{
    VfuClient c;
    const VfuRegionInfo *r;
    uint8_t buf[64], zero[64] = { 0 };
    uint32_t v = 0x12345678;
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    r = vfu_client_region(&c, TT_HM_RAM_REGION);
    ok = r && r->mappable &&
         vfu_client_write(&c, VFU_REGION_BAR0, WIN_BASE + HM_HOLE, &v,
                          sizeof(v)) == 0 &&
         fallocate(r->map_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                   r->file_offset + r->areas[HM_TILE].start + HM_HOLE,
                   4096) == 0 &&
         vfu_client_read(&c, VFU_REGION_BAR0, WIN_BASE + HM_HOLE, buf,
                         sizeof(buf)) == 0 && !memcmp(buf, zero, sizeof(buf));
    vfu_client_close(&c);
    return ok && qemu_alive();
}

/*
 * The shared tables are written by the server only: a writable mapping,
 * write() and mprotect() to writable are refused, a read-only mapping works
 */
static bool hm_ctrl_readonly(void)
{
    VfuClient c;
    const VfuRegionInfo *r;
    uint32_t zero = 0;
    void *p;
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    r = vfu_client_region(&c, TT_HM_CTRL_REGION);
    ok = r && r->mappable && r->nareas == 1;
    if (ok) {
        off_t off = r->file_offset + r->areas[0].start;
        size_t len = r->areas[0].size;

        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, r->map_fd,
                 off);
        ok = p == MAP_FAILED && errno == EPERM;
        if (p != MAP_FAILED) {
            munmap(p, len);
        }
        ok = ok && pwrite(r->map_fd, &zero, sizeof(zero), off) < 0 &&
             errno == EPERM;
        p = mmap(NULL, len, PROT_READ, MAP_SHARED, r->map_fd, off);
        ok = ok && p != MAP_FAILED &&
             ((const TTHmShared *)p)->magic == TT_HM_MAGIC &&
             mprotect(p, len, PROT_READ | PROT_WRITE) < 0;
        if (p != MAP_FAILED) {
            munmap(p, len);
        }
    }
    vfu_client_close(&c);
    return ok && qemu_alive();
}

/*
 * A client grows and moves its mapping of L1, and maps it privately: only
 * its own view changes.  QEMU sees what it wrote through the shared
 * mapping, not the private copy.
 */
static bool hm_remap(void)
{
    VfuClient c;
    const VfuRegionInfo *r;
    uint64_t size = 0, more = 4u << 20;
    uint8_t *l1, *big = MAP_FAILED, *priv = MAP_FAILED, got[8];
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    r = vfu_client_region(&c, TT_HM_RAM_REGION);
    l1 = hm_map(&c, TT_HM_RAM_REGION, HM_TILE, &size);
    if (l1) {
        big = mremap(l1, size, size + more, MREMAP_MAYMOVE);
        if (big == MAP_FAILED) {
            munmap(l1, size);
        } else {
            memcpy(big + HM_REMAP, "shared!", 8);
            munmap(big, size + more);
        }
        priv = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE,
                    r->map_fd, r->file_offset + r->areas[HM_TILE].start);
    }
    ok = big != MAP_FAILED && priv != MAP_FAILED &&
         !memcmp(priv + HM_REMAP, "shared!", 8);
    if (priv != MAP_FAILED) {
        memcpy(priv + HM_REMAP, "private", 8);
        munmap(priv, size);
    }
    ok = ok && vfu_client_read(&c, VFU_REGION_BAR0, WIN_BASE + HM_REMAP, got,
                               sizeof(got)) == 0 &&
         !memcmp(got, "shared!", 8);
    vfu_client_close(&c);
    return ok && qemu_alive();
}

static void hm_dying_child(int ready)
{
    VfuClient c;
    uint64_t size;
    uint8_t *l1;

    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (!client_open(&c)) {
        _exit(1);
    }
    l1 = hm_map(&c, TT_HM_RAM_REGION, HM_TILE, &size);
    if (!l1) {
        _exit(1);
    }
    memcpy(l1 + HM_DEAD, "still here", 11);
    (void)!write(ready, "", 1);
    for (;;) {
        l1[HM_DEAD + 64]++;     /* writing when it is killed */
    }
}

/* A client maps L1, writes, and is killed while writing */
static bool hm_killed_mapping(void)
{
    VfuClient c;
    char got[11] = "";
    int p[2];
    pid_t pid;
    bool ok;
    char b;

    if (pipe(p) < 0) {
        return false;
    }
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        close(p[0]);
        hm_dying_child(p[1]);
    }
    close(p[1]);
    ok = pid > 0 && read(p[0], &b, 1) == 1;
    close(p[0]);
    if (pid > 0) {
        sleep_ms(20);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    if (!ok || !client_open(&c)) {
        return false;
    }
    ok = vfu_client_read(&c, VFU_REGION_BAR0, WIN_BASE + HM_DEAD, got,
                         sizeof(got)) == 0 && !strcmp(got, "still here");
    vfu_client_close(&c);
    return ok;
}

/* SOFT_RESET_0 of tile (HM_RUN_X, HM_RUN_Y) through REG_WINDOW */
static bool hm_reset(VfuClient *c, uint32_t v)
{
    uint64_t local = 0xffa00000u >> 21;
    uint32_t cfg[3] = {
        (uint32_t)local,
        ((uint32_t)(local >> 32) & 0x7ff) | HM_RUN_X << 11 | HM_RUN_Y << 17,
        0,
    };

    for (int i = 0; i < 3; i++) {
        if (vfu_client_write32(c, VFU_REGION_BAR0, TT_TLB_CFG_BASE +
                               TT_TLB_CFG_STRIDE * REG_WINDOW + 4 * i,
                               cfg[i]) < 0) {
            return false;
        }
    }
    return vfu_client_write32(c, VFU_REGION_BAR0,
                              ((uint64_t)REG_WINDOW << 21) + 0x1121b0, v) ==
           0;
}

/*
 * A BRISC spins in L1 while a client scribbles over its code through the
 * mapping (no invalidation), then asks for it; QEMU must survive
 */
static bool hm_write_running_code(void)
{
    VfuClient c;
    uint64_t size;
    uint8_t *l1;
    TTHmCmd cmd = { .magic = TT_HM_CMD_MAGIC, .nranges = 1 };
    TTHmRange r = { HM_RUN_TILE, 64, 0 };
    uint8_t m[sizeof(cmd) + sizeof(r)];
    uint32_t spin = 0x6f;       /* jal x0, 0 */
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    l1 = hm_map(&c, TT_HM_RAM_REGION, HM_RUN_TILE, &size);
    if (!l1) {
        vfu_client_close(&c);
        return false;
    }
    memcpy(l1, &spin, 4);
    ok = hm_reset(&c, SOFT_RESET_HOLD & ~SOFT_RESET_BRISC);
    for (int i = 0; ok && i < 2000; i++) {
        uint32_t junk = i & 1 ? 0 : spin;

        memcpy(l1 + 4 * (i % 16), &junk, 4);
    }
    memcpy(m, &cmd, sizeof(cmd));
    memcpy(m + sizeof(cmd), &r, sizeof(r));
    ok = ok && vfu_client_write(&c, TT_HM_CTRL_REGION, TT_HM_CMD, m,
                                sizeof(m)) == 0;
    sleep_ms(20);
    ok = ok && hm_reset(&c, SOFT_RESET_HOLD);
    munmap(l1, size);
    vfu_client_close(&c);
    return ok && qemu_alive();
}

/* One command batch: its reply (0, or -EREMOTEIO if refused) */
static int hm_command(const TTHmCmd *cmd, const void *body, size_t len,
                      uint64_t offset)
{
    static uint8_t m[TT_HM_CMD_MAX + 4096];
    VfuClient c;
    int r;

    if (!client_open(&c)) {
        return -ENOTCONN;
    }
    memcpy(m, cmd, sizeof(*cmd));
    memcpy(m + sizeof(*cmd), body, len);
    r = vfu_client_write(&c, TT_HM_CTRL_REGION, offset, m,
                         sizeof(*cmd) + len);
    vfu_client_close(&c);
    return r;
}

static bool hm_bad_magic(void)
{
    TTHmCmd cmd = { .magic = 0x12345678 };

    return hm_command(&cmd, NULL, 0, TT_HM_CMD) == -EREMOTEIO;
}

static bool hm_bad_count(void)
{
    TTHmCmd cmd = { .magic = TT_HM_CMD_MAGIC, .ntlb = 5 };

    return hm_command(&cmd, NULL, 0, TT_HM_CMD) == -EREMOTEIO;
}

static bool hm_too_long(void)
{
    static uint8_t body[TT_HM_CMD_MAX];
    TTHmCmd cmd = { .magic = TT_HM_CMD_MAGIC };

    return hm_command(&cmd, body, sizeof(body), TT_HM_CMD) == -EREMOTEIO;
}

static bool hm_bad_offset(void)
{
    TTHmCmd cmd = { .magic = TT_HM_CMD_MAGIC };

    return hm_command(&cmd, NULL, 0, 8) == -EREMOTEIO;
}

/* Bad entries of a well-formed batch are skipped: accepted, logged */
static bool hm_bad_tlb(void)
{
    TTHmCmd cmd = { .magic = TT_HM_CMD_MAGIC, .ntlb = 2 };
    TTHmTlbWrite w[2] = { { 0x1000, 1 }, { 0x1fc00002, 1 } };

    return hm_command(&cmd, w, sizeof(w), TT_HM_CMD) == 0;
}

static bool hm_bad_range(void)
{
    TTHmCmd cmd = { .magic = TT_HM_CMD_MAGIC, .nranges = 3 };
    TTHmRange r[3] = {
        { 9999, 4, 0 }, { HM_TILE, 64, HM_L1_SIZE - 4 }, { HM_TILE, 0, 0 },
    };

    return hm_command(&cmd, r, sizeof(r), TT_HM_CMD) == 0;
}

static bool hm_bad_wake(void)
{
    TTHmCmd cmd = { .magic = TT_HM_CMD_MAGIC };

    cmd.wake[200 / 64] = 1ull << (200 % 64);
    return hm_command(&cmd, NULL, 0, TT_HM_CMD) == 0;
}

/* RAM by message: an access over two blocks is refused */
static bool hm_across_blocks(void)
{
    VfuClient c;
    const VfuRegionInfo *r;
    uint8_t buf[8];
    bool ok;

    if (!client_open(&c)) {
        return false;
    }
    r = vfu_client_region(&c, TT_HM_RAM_REGION);
    ok = r && r->nareas > 1 &&
         vfu_client_read(&c, TT_HM_RAM_REGION, r->areas[0].start +
                         r->areas[0].size - 4, buf, sizeof(buf)) ==
         -EREMOTEIO &&
         vfu_client_read(&c, TT_HM_RAM_REGION, r->areas[0].start + L1_ADDR,
                         buf, sizeof(buf)) == 0 &&
         !memcmp(buf, t.pattern, sizeof(buf));
    vfu_client_close(&c);
    return ok;
}

/* ----------------------------------------------------------- cases -- */

typedef struct Case {
    const char *name;
    bool (*run)(void);
    const char *expect;         /* what the bad client should see */
    const char *log;            /* in QEMU's log or stderr; NULL: none */
} Case;

#define REFUSED     "refused, connection still usable"
#define HUNG_UP     "refused, connection closed"

static const Case cases[] = {
    { "garbage instead of VERSION", bad_garbage, HUNG_UP,
      "failed to receive version" },
    { "5 bytes of a VERSION, then close", bad_short_then_close, "sent",
      "failed to receive version" },
    { "VERSION with msg_size 8", bad_version_tiny, HUNG_UP,
      "failed to receive version: Invalid argument" },
    { "VERSION with msg_size 4 GiB - 1", bad_version_huge, HUNG_UP,
      "failed to receive version: Invalid argument" },
    { "VERSION 9.0", bad_version_major, HUNG_UP,
      "unsupported client major 9" },
    { "VERSION with unterminated JSON", bad_json_unterminated, HUNG_UP,
      "invalid JSON" },
    { "VERSION with malformed JSON", bad_json_syntax, HUNG_UP,
      "failed to parse client JSON" },
    { "VERSION with max_msg_fds 100000", bad_json_fds, HUNG_UP,
      "refusing client max_msg_fds" },
    { "VERSION with 2 fds attached", bad_version_fds, HUNG_UP,
      "failed to receive version" },
    { "REGION_READ instead of VERSION", bad_no_version, HUNG_UP,
      "invalid cmd 9" },
    { "msg_size 8, below the header", bad_size_tiny, REFUSED,
      "bad size 8 in header" },
    { "msg_size 4 GiB - 1", bad_size_huge, REFUSED, "is too large" },
    { "REGION_READ without payload", bad_no_payload, REFUSED,
      "no payload for cmd9" },
    { "unknown command 0x7777", bad_command, REFUSED, "bad command 30583" },
    { "a reply sent as a request", bad_reply_type, REFUSED,
      "not a command req" },
    { "REGION_READ of region 50", bad_region_index, REFUSED,
      "bad region index 50" },
    { "REGION_READ past BAR2's end", bad_past_end, REFUSED,
      "out of bounds region access" },
    { "REGION_WRITE at offset 2^64 - 4", bad_wrapping, REFUSED,
      "out of bounds region access" },
    { "REGION_READ of 2 GiB", bad_huge_count, REFUSED,
      "region access count too large" },
    { "REGION_WRITE of 64 bytes carrying 8", bad_count_mismatch, REFUSED,
      "region write count too small" },
    { "REGION_READ with an 8-byte payload", bad_short_access, REFUSED,
      "message size too small (8)" },
    { "REGION_WRITE of 0 bytes", zero_count,
      "accepted as a no-op, connection still usable", NULL },
    { "2-byte read of a mailbox register", bad_mailbox_access, REFUSED,
      "cmd 9 failed: Invalid argument" },
    { "config write at offset 1", bad_config_write, REFUSED,
      "bad write to PCI config space" },
    { "REGION_READ with 64 fds attached", fds_attached,
      "served, every descriptor closed", NULL },
    { "SET_IRQS with the client's own socket as the eventfd",
      bad_irq_socket, "refused", "is a socket" },
    { "DMA_MAP with argsz 8", bad_dma_argsz, REFUSED,
      "bad DMA map region size" },
    { "DMA_MAP with unknown flags", bad_dma_flags, REFUSED, "bad flags=0x80" },
    { "DMA_MAP of 16 TiB", bad_dma_size, REFUSED, "> max" },
    { "DMA_MAP of a pipe", bad_dma_fd, REFUSED,
      "failed to memory map DMA region" },
    { "overlapping DMA_MAP", bad_dma_overlap, REFUSED,
      "failed to add DMA region" },
    { "17 DMA_MAPs", bad_dma_many, REFUSED, "hit max regions 16" },
    { "DMA_UNMAP of what was never mapped", bad_dma_unmap, REFUSED,
      "cmd 3 failed" },
    { "eDMA from host memory mapped without fd, no mailbox", dma_unbacked,
      "the transfer fails at once", "no host memory at 0x100000" },
    { "REGION_WRITE of 64 KiB sending 100 bytes, then close",
      truncated_write, "sent", "short read: expected=65552, actual=100" },
    { "REGION_WRITE header only, then close", header_only, "sent",
      "failed to reply" },
    { "half a header, then close", half_header, "sent", " gone; " },
    { "1 MiB REGION_READ, close before the reply", close_before_reply,
      "sent", "failed to reply" },
    { "REGION_READ header only, the client's socket attached, then close",
      socket_fd_in_header, "sent", "is a socket" },
    { "four 1 MiB REGION_READs, replies never read, close", replies_unread,
      "sent", "failed to reply" },
    { "mailbox disabled with a DMA pending", mailbox_off_pending,
      "the transfer fails at once", "did not serve a 65536-byte DMA read" },
    { "client killed (SIGKILL) with a DMA pending", killed_mid_dma,
      "the transfer fails at once, the mailbox is off",
      "did not serve a 65536-byte DMA read" },
    { "DMA_MAP of a 4 KiB memfd as 1 MiB, eDMA past its end",
      dma_past_file_end, "the transfer ends, QEMU survives",
      "is not all there" },
    { "eDMA from mapped host memory while BAR0 writes reach host memory",
      dma_while_bar_to_host, "both complete, the words land", NULL },
    { "the same DMA region mapped 21 times with its fd, unmapped once",
      dma_map_repeated, "one descriptor kept; unmapped memory not reached",
      "the client mapped none there" },
    { "BAR0 write to unmapped host memory while a mailbox DMA waits",
      bar_to_host_during_mailbox_dma, "answered at once, write dropped",
      "reached from a host access; dropped" },
    { "client silent after connecting", stall_before_version,
      "QMP answered meanwhile", NULL },
    { "client silent after a request header", stall_after_header,
      "QMP answered meanwhile", NULL },
    { "client not reading a 1 MiB reply", stall_unread_reply,
      "QMP answered meanwhile", NULL },
    { "host map: RAM file truncated and grown", hm_truncate_ram,
      "refused by the file's seals", NULL },
    { "host map: control and mailbox files truncated", hm_truncate_ctrl,
      "refused by the files' seals", NULL },
    { "host map: a hole punched in L1", hm_punch_hole,
      "QEMU survives, the bytes read as zeros", NULL },
    { "host map: the shared tables mapped writable, written, mprotect()ed",
      hm_ctrl_readonly, "refused: read-only for clients", NULL },
    { "host map: L1 mapping grown, moved, and mapped private", hm_remap,
      "QEMU sees the shared writes only", NULL },
    { "host map: client killed while writing its mapping of L1",
      hm_killed_mapping, "what it wrote stays", NULL },
    { "host map: code overwritten under a running core", hm_write_running_code,
      "QEMU survives, the core held again", NULL },
    { "host map: command with a bad magic", hm_bad_magic, REFUSED,
      "malformed command" },
    { "host map: command counting 5 TLB writes, carrying none", hm_bad_count,
      REFUSED, "malformed command" },
    { "host map: command over 16 KiB", hm_too_long, REFUSED,
      "at most 16384 bytes" },
    { "host map: command at offset 8", hm_bad_offset, REFUSED,
      "commands go to 0x0" },
    { "host map: TLB writes outside the TLB registers", hm_bad_tlb,
      "skipped, batch accepted", "is not a TLB configuration register" },
    { "host map: code ranges outside L1", hm_bad_range,
      "skipped, batch accepted", "are not in a tile's L1" },
    { "host map: wake-up of tile 200", hm_bad_wake, "skipped, batch accepted",
      "no tile 200 to wake" },
    { "host map: RAM read across two blocks", hm_across_blocks, REFUSED,
      "is not inside one RAM block" },
};


/* SIGALRM only interrupts a blocking call (no SA_RESTART) */
static void on_alarm(int sig)
{
}

/*
 * Host-side bad input: QEMU given "-object @obj" must exit with an error
 * that says @why (and not start serving).
 */
static bool option_refused(const char *bin, const char *obj, const char *why)
{
    char out[4096];
    size_t len = 0;
    ssize_t n;
    int pfd[2], status = 0;
    pid_t pid;

    if (pipe(pfd) < 0) {
        return false;
    }
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        dup2(pfd[1], STDOUT_FILENO);
        dup2(pfd[1], STDERR_FILENO);
        close(pfd[0]);
        execlp(bin, bin, "-M", "blackhole,board=p100a", "-display", "none",
               "-monitor", "none", "-serial", "none", "-object", obj,
               (char *)NULL);
        _exit(127);
    }
    close(pfd[1]);
    alarm(30);                  /* a QEMU that accepted it would not exit */
    while (len < sizeof(out) - 1 &&
           (n = read(pfd[0], out + len, sizeof(out) - 1 - len)) > 0) {
        len += n;
    }
    alarm(0);
    close(pfd[0]);
    out[len] = '\0';
    kill(pid, SIGKILL);         /* harmless if it has exited */
    waitpid(pid, &status, 0);
    out[strcspn(out, "\n")] = '\0';
    printf("# -object %s: %s\n", obj, out);
    return WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
           strstr(out, why) != NULL;
}

static void option_checks(const char *bin)
{
    char obj[192];

    tt_ok(option_refused(bin, "tt-vfio-user,id=v", "'socket'"),
          "tt-vfio-user without socket=: refused with a clear error");
    snprintf(obj, sizeof(obj), "tt-vfio-user,id=v,socket=%s", t.sock);
    tt_ok(option_refused(bin, obj, "already exists"),
          "tt-vfio-user on an existing socket path: refused");
    tt_ok(access(t.sock, F_OK) == 0, "the refused QEMU left the serving "
          "one's socket alone");
    snprintf(obj, sizeof(obj), "tt-vfio-user,id=v,socket=%s.2,"
             "poll-us=2000000", t.sock);
    tt_ok(option_refused(bin, obj, "more than a second"),
          "tt-vfio-user with poll-us=2000000: refused");
    snprintf(obj, sizeof(obj), "tt-vfio-user,id=v,socket=%s.2,"
             "poll-us=-1", t.sock);
    tt_ok(option_refused(bin, obj, "poll-us"),
          "tt-vfio-user with poll-us=-1: refused");
}

/* A client left hanging after half a REGION_WRITE: its socket, or -1 */
static int stalled_client(void)
{
    uint8_t m[sizeof(VfuHeader)];
    VfuClient c;
    int fd;

    if (!client_open(&c)) {
        return -1;
    }
    put_msg(m, VFU_CMD_REGION_WRITE,
            sizeof(VfuHeader) + sizeof(VfuRegionAccess) + 64, 0, NULL, 0);
    if (!raw_send(c.fd, m, sizeof(m), NULL, 0)) {
        vfu_client_close(&c);
        return -1;
    }
    sleep_ms(100);
    fd = c.fd;
    c.fd = -1;                  /* keep the socket, drop the rest */
    vfu_client_close(&c);
    return fd;
}

/* Returns false if QEMU no longer serves clients */
static bool run_case(const Case *c)
{
    bool ok, served;

    log_mark();
    ok = c->run();
    tt_ok(ok, "%s: %s", c->name, c->expect);
    served = tt_ok(next_client_ok(), "%s: QEMU runs and serves the next "
                   "client", c->name);
    if (c->log) {
        tt_ok(logged(c->log), "%s: logged \"%s\"", c->name, c->log);
    } else {
        printf("# %s: nothing logged at LOG_ERR\n", c->name);
    }
    return served;
}

/* Run @n cases while QEMU serves clients */
static bool run_cases(const Case *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!run_case(&c[i])) {
            printf("# QEMU serves no client any more: stopping\n");
            return false;
        }
    }
    return true;
}

/* The chip's state after every bad client */
static void final_checks(int fds0)
{
    VfuClient c;
    uint32_t w[3] = { 0 };
    bool ok = client_open(&c);
    int fds = qemu_fds();

    for (int i = 0; ok && i < 3; i++) {
        ok = vfu_client_read32(&c, VFU_REGION_BAR0, TLB_CFG + 4 * i,
                               &w[i]) == 0;
    }
    tt_ok(ok && !memcmp(w, t.tlb, sizeof(w)),
          "TLB window %d kept its configuration", WINDOW);
    tt_ok(ok && pattern_intact(&c, PATTERN_LEN),
          "the %d-byte L1 pattern of tile (%d, %d) is intact", PATTERN_LEN,
          TILE_X, TILE_Y);
    vfu_client_close(&c);
    tt_ok(fds == fds0, "no descriptor leaked (%d open, %d at the start)",
          fds, fds0);
    tt_ok(qmp_running(), "QMP answers query-status");
}

int main(int argc, char **argv)
{
    const char *bin = argc > 1 ? argv[1] : getenv("TT_EMU_QEMU");
    struct sigaction sa = { .sa_handler = on_alarm };
    double t0 = now();
    int fds0, stalled;

    signal(SIGPIPE, SIG_IGN);
    sigaction(SIGALRM, &sa, NULL);
    if (!tt_ok(qemu_start(bin ? bin : "qemu-system-riscv32"),
               "QEMU started with tt-vfio-user")) {
        qemu_stop();
        cleanup();
        return tt_done();
    }
    option_checks(bin ? bin : "qemu-system-riscv32");
    tt_ok(write_pattern(), "a normal client wrote a %d-byte pattern into "
          "L1 through TLB window %d", PATTERN_LEN, WINDOW);
    tt_ok(mailbox_shared(), "the host DMA mailbox region is shared: one "
          "mmap area with its file; data stored there reads back by "
          "message and the other way round");
    tt_ok(hostmap_shared(), "the host map is offered: one mmap area per L1 "
          "and GDDR bank and the shared tables; tile 0's area is the L1 "
          "window %d shows, both ways", WINDOW);
    fds0 = attached_fds();
    if (!run_cases(cases, ARRAY_LEN(cases))) {
        goto out;
    }
    final_checks(fds0);
out:
    stalled = stalled_client();
    tt_ok(stalled >= 0, "a client stalls in the middle of a request");
    tt_ok(qemu_stop(), "QEMU exits normally on SIGTERM meanwhile");
    if (stalled >= 0) {
        close(stalled);
    }
    printf("# %.1f s\n", now() - t0);
    cleanup();
    return tt_done();
}
