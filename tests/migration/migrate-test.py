#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Stop a busy Blackhole machine, migrate it to a file, resume it elsewhere.

    migrate-test.py BUILD_DIR

tests/firmware/migrate-test.c keeps every Tensix tile of a P150 busy: a
buffer goes 400 times round a ring through all 140 tiles over both NOCs
(NOC writes, acks, atomics) while the three TRISCs of every tile push MOP
expansions, replays and FIFO-filling pushes.  The firmware checks its own
results against closed forms and reports TAP through semihosting.

1. An uninterrupted run gives the reference output.
2. A second run is stopped over QMP once the firmware has reported its
   first lap check (mid-run), migrated to a file ("migrate file:") and
   killed.
3. A fresh QEMU loads the file (-incoming file:), is resumed and must
   print exactly the rest of the reference output: the lines before the
   stop plus the restored run's lines equal the uninterrupted run's.
4. The same with deterministic=on on one Tensix column, with the NIU
   command and Tensix instruction traces: the trace of the stopped run
   followed by the restored run's must equal the uninterrupted run's,
   event for event.
5. make demo's matmul (tools/tt-matmul-demo over libttsim, checked on
   the host against tt-ref and FP64) is stopped once 40 Tensix tiles are
   released, migrated to a file and resumed: the host program must still
   pass with the same C.  A fresh QEMU (no host program) loads the file
   and resumes: the output tiles it writes in GDDR must equal the
   uninterrupted run's.  Skipped when the demo or libttsim is not built.
6. A damaged stream is refused: a Tensix thread's queue index out of
   range makes -incoming fail with a clear error, not a crash.
7. savevm in the monitor (no disk for snapshots) is refused with a clear
   error, and the machine keeps running.

Prints TAP.
"""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts", "tenstorrent"))
import tttap  # noqa: E402

ONE_COLUMN = "2:3:4:5:6:7:10:11:12:13:14:15:16"
TRACE = ["-trace", "tt_niu_cmd", "-trace", "tt_tensix_exec"]


def check(cond, desc, detail=""):
    if not tttap.ok(cond, desc) and detail:
        tttap.diag(str(detail)[:3000])


class QMP:
    def __init__(self, path, timeout=60):
        end = time.time() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.time() > end:
                    raise
                time.sleep(0.05)
        self.f = self.sock.makefile("rw")
        json.loads(self.f.readline())
        self.cmd("qmp_capabilities")

    def cmd(self, name, **args):
        self.f.write(json.dumps({"execute": name, "arguments": args}) + "\n")
        self.f.flush()
        while True:
            r = json.loads(self.f.readline())
            if "event" not in r:
                return r

    def wait_migration(self, timeout=120):
        end = time.time() + timeout
        while time.time() < end:
            r = self.cmd("query-migrate")["return"]
            if r.get("status") not in (None, "setup", "active", "device"):
                return r
            time.sleep(0.05)
        return {"status": "timeout"}


class Qemu:
    """A QEMU whose semihosting output goes to a file, read line by line"""

    def __init__(self, build, tmp, name, machine, extra):
        self.qmp_path = os.path.join(tmp, name + ".qmp")
        self.log = os.path.join(tmp, name + ".trace")
        self.out = os.path.join(tmp, name + ".out")
        self.err = open(os.path.join(tmp, name + ".err"), "w+")
        cmd = [os.path.join(build, "qemu", "qemu-system-riscv32"),
               "-M", machine,
               "-chardev", "file,id=shout,path=" + self.out,
               "-semihosting-config", "enable=on,target=native,chardev=shout",
               "-display", "none", "-monitor", "none", "-serial", "none",
               "-qmp", "unix:%s,server=on,wait=off" % self.qmp_path,
               "-D", self.log] + extra
        self.proc = subprocess.Popen(cmd, stdout=self.err, stderr=self.err,
                                     text=True)

    @property
    def lines(self):
        try:
            with open(self.out) as f:
                return [l.rstrip("\n") for l in f if l.endswith("\n")]
        except FileNotFoundError:
            return []

    def qmp(self):
        return QMP(self.qmp_path)

    def wait_lines(self, count, timeout):
        end = time.time() + timeout
        while len(self.lines) < count and time.time() < end:
            if self.proc.poll() is not None:
                break
            time.sleep(0.005)
        return len(self.lines) >= count

    def finish(self, timeout=300):
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return self.proc.returncode

    def stderr(self):
        self.err.seek(0)
        return self.err.read()

    def trace(self):
        with open(self.log) as f:
            return [l.rstrip("\n") for l in f if l.startswith("tt_")]


def tap_ok(lines):
    return (bool(lines) and re.match(r"^1\.\.\d+$", lines[-1]) is not None
            and all(l.startswith("ok ") for l in lines[:-1]))


def migrate_case(build, tmp, name, machine, extra, stop_after):
    """Reference run, stopped run, restored run: their outputs"""
    ref = Qemu(build, tmp, name + "-ref", machine, extra)
    rc = ref.finish()
    check(rc == 0 and tap_ok(ref.lines), "%s: the uninterrupted run passes"
          % name, "\n".join(ref.lines) + ref.stderr())

    src = Qemu(build, tmp, name + "-src", machine, extra)
    mid = src.wait_lines(stop_after, 300)
    q = src.qmp()
    q.cmd("stop")
    before = list(src.lines)
    state = os.path.join(tmp, name + ".state")
    t0 = time.time()
    r = q.cmd("migrate", uri="file:" + state)
    m = q.wait_migration()
    save_s = time.time() - t0
    q.cmd("quit")
    src.finish(30)
    check(mid and "return" in r and m.get("status") == "completed" and
          len(before) < len(ref.lines),
          "%s: stopped mid-run after %d of %d output lines, migrated to a "
          "file (%.1f MB, %.1f s)" % (name, len(before), len(ref.lines),
                                      os.path.getsize(state) / 1e6
                                      if os.path.exists(state) else 0,
                                      save_s),
          "%r %r %s" % (r, m, src.stderr()))

    dst = Qemu(build, tmp, name + "-dst", machine,
               extra + ["-S", "-incoming", "file:" + state])
    q = dst.qmp()
    m = q.wait_migration()
    r = q.cmd("cont")
    rc = dst.finish()
    after = list(dst.lines)
    check(m.get("status") == "completed" and "return" in r and rc == 0 and
          before + after == ref.lines and len(after) > 0,
          "%s: the restored run resumes and ends with the uninterrupted "
          "run's results" % name,
          "%r %r rc=%s\nbefore: %s\nafter: %s\nref: %s\n%s" %
          (m, r, rc, before, after, ref.lines, dst.stderr()))
    return ref, src, dst


def damaged_stream(build, tmp, machine, state):
    """Overwrite a Tensix thread's queue head in @state: load must fail"""
    with open(state, "rb") as f:
        data = bytearray(f.read())
    # the section of the first tt-tensix device: thread 0 starts with its
    # 64 FIFO words, head, count, then the MOP state (1 + 1 + 9 x 4 + 5 x 4
    # bytes), mop_enq (8), then 4096 queue entries of 5 bytes: head follows
    name = b"tt-tensix"
    at = data.find(bytes([len(name)]) + name + b"\0\0\0\0")
    if at < 0:
        return False, "no tt-tensix section in the stream"
    # section header: idstr, instance id (4), version id (4)
    fields = at + 1 + len(name) + 8
    head = fields + 64 * 4 + 8 + (1 + 1 + 9 * 4 + 5 * 4) + 8 + 4096 * 5
    data[head:head + 4] = (0x7fffffff).to_bytes(4, "big")
    bad = os.path.join(tmp, "damaged.state")
    with open(bad, "wb") as f:
        f.write(data)
    dst = Qemu(build, tmp, "damaged", machine,
               ["-S", "-incoming", "file:" + bad])
    rc = dst.finish(120)
    err = dst.stderr()
    good = (rc not in (0, None) and rc > 0 and
            "queue head[0] = 2147483647" in err and
            "load of migration failed" in err)
    return good, "rc=%s\n%s" % (rc, err)


def savevm(build, tmp):
    qemu = Qemu(build, tmp, "savevm",
                "blackhole,board=p150,firmware=%s" %
                os.path.join(build, "firmware", "bench-w1.elf"), [])
    q = qemu.qmp()
    out = q.cmd("human-monitor-command", **{"command-line": "savevm snap"})
    st = q.cmd("query-status")["return"]
    load = q.cmd("human-monitor-command", **{"command-line": "loadvm snap"})
    q.cmd("quit")
    qemu.finish(30)
    text = out.get("return", "") + " / " + load.get("return", "")
    good = ("no block device can store vmstate" in out.get("return", "")
            and st.get("running") is True)
    return good, text


class QTest:
    """The machine's "tt" qtest command over a socket QEMU connects to"""

    def __init__(self, path):
        self.srv = socket.socket(socket.AF_UNIX)
        self.srv.bind(path)
        self.srv.listen(1)
        self.srv.settimeout(60)

    def accept(self):
        self.conn, _ = self.srv.accept()
        self.conn.settimeout(60)
        self.f = self.conn.makefile("rw")

    def cmd(self, line):
        self.f.write(line + "\n")
        self.f.flush()
        while True:
            r = self.f.readline()
            if not r:
                return "FAIL closed"
            if r.startswith("OK") or r.startswith("FAIL"):
                return r.strip()


# tools/tt-matmul-demo: GDDR layout (dram_layout(), dram_xfer()) and the
# P150 bank b's first port in physical NOC0 coordinates (data/grid.yaml)
DEMO_SIZE = (512, 1024, 512)
DEMO_BANK_XY = [(0, 0), (0, 2), (0, 9), (0, 5), (9, 0), (9, 2), (9, 9),
                (9, 5)]


def demo_c_addr():
    def span(count):
        return (count + 7) // 8 * 2048 + 0xfffff & ~0xfffff
    mt, kt, nt = (d // 32 for d in DEMO_SIZE)
    return 0x100000 + span(mt * kt) + span(kt * nt), mt * nt


def demo_read_c(qt):
    """C's tiles in GDDR, in tile order, as the demo dumps them"""
    base, count = demo_c_addr()
    tiles = [None] * count
    for b, (x, y) in enumerate(DEMO_BANK_XY):
        n = (count - b + 7) // 8
        r = qt.cmd("tt read %d %d - 0x%x %d" % (x, y, base, n * 2048))
        if not r.startswith("OK 0x"):
            return None
        data = bytes.fromhex(r[5:])
        for j in range(n):
            tiles[b + j * 8] = data[j * 2048:(j + 1) * 2048]
    return b"".join(tiles)


def demo_case(build, tmp):
    """make demo's matmul over libttsim, stopped mid-compute and migrated"""
    demo = os.path.join(build, "tt-matmul-demo")
    lib = os.path.join(build, "libttsim", "libttsim.so")
    qemu = os.path.join(build, "qemu", "qemu-system-riscv32")
    if not (os.path.exists(demo) and os.path.exists(lib) and
            os.path.exists(os.path.join(build, "tensix-fw",
                                        "tt-kernels.bin"))):
        print("# SKIP demo case: tt-matmul-demo, libttsim.so or the kernel "
              "firmware not built (make matmul-demo libttsim)")
        return
    args = [demo, "--lib", lib, "--size", "%d,%d,%d" % DEMO_SIZE,
            "--tiles", "140", "--fidelity", "lofi", "--verify", "sample"]
    env = dict(os.environ, TT_EMU_QEMU=qemu,
               TT_EMU_ARGS="-M blackhole,board=p150")
    ref_c = os.path.join(tmp, "demo-ref.bin")
    ref = subprocess.run(args + ["--dump", ref_c], env=env, text=True,
                         capture_output=True, timeout=300)
    check(ref.returncode == 0 and "\nPASS" in ref.stdout,
          "demo: the uninterrupted 512x1024x512 matmul on 140 tiles passes "
          "(checked against tt-ref and FP64)", ref.stdout + ref.stderr)

    # the same run, stopped during the compute phase and saved to a file
    qmp_path = os.path.join(tmp, "demo.qmp")
    state = os.path.join(tmp, "demo.state")
    src_c = os.path.join(tmp, "demo-src.bin")
    env["TT_EMU_ARGS"] += " -qmp unix:%s,server=on,wait=off" % qmp_path
    src = subprocess.Popen(args + ["--dump", src_c], env=env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    # stop once a third of the tiles are released and computing (the host
    # releases them one by one; QMP is up before the host connects)
    q = None
    released = 0
    end = time.time() + 120
    while released < 40 and time.time() < end and src.poll() is None:
        try:
            q = q or QMP(qmp_path, 10)
            info = q.cmd("human-monitor-command",
                         **{"command-line": "info tt"})["return"]
        except (OSError, ValueError):
            q = None
            time.sleep(0.02)
            continue
        m = re.search(r"(\d+) in reset", info)
        released = 140 - int(m.group(1)) if m else 0
        time.sleep(0.01)
    q.cmd("stop")
    r = q.cmd("migrate", uri="file:" + state)
    m = q.wait_migration()
    q.cmd("cont")
    out, _ = src.communicate(timeout=300)
    same = (os.path.exists(src_c) and
            open(src_c, "rb").read() == open(ref_c, "rb").read())
    check(released >= 40 and "return" in r and
          m.get("status") == "completed" and src.returncode == 0 and
          "\nPASS" in out and same,
          "demo: stopped with %d of 140 tiles released, migrated to a file, "
          "resumed: the host program still passes with the same C" % released,
          "%r %r rc=%s same=%s\n%s" % (r, m, src.returncode, same, out))

    # A fresh QEMU loads the file.  No host program is attached there to
    # release the remaining tiles: the released ones must finish their
    # output tiles exactly as in the uninterrupted run, the others keep
    # theirs as they were at the stop.
    qt_path = os.path.join(tmp, "demo.qtest")
    qt = QTest(qt_path)
    dst = Qemu(build, tmp, "demo-dst", "blackhole,board=p150",
               ["-accel", "tcg", "-qtest", "unix:" + qt_path,
                "-qtest-log", "/dev/null", "-S",
                "-incoming", "file:" + state])
    qt.accept()
    q = dst.qmp()
    m = q.wait_migration()
    want = open(ref_c, "rb").read()
    before = demo_read_c(qt)
    q.cmd("cont")
    after, stable = None, 0
    end = time.time() + 120
    while time.time() < end and stable < 4:
        got = demo_read_c(qt)
        stable = stable + 1 if got == after else 0
        after = got
        time.sleep(0.5)
    # stopped, no NOC write is half done: judge every tile as it is now
    q.cmd("stop")
    after = demo_read_c(qt)
    q.cmd("quit")
    dst.finish(30)
    tiles = len(want) // 2048
    t = [lambda c, i=i: c[i * 2048:(i + 1) * 2048] for i in range(tiles)]
    finished = wrong = 0
    if before is not None and after is not None:
        for f in t:
            if f(after) != f(before):
                finished += f(after) == f(want) and f(before) != f(want)
                wrong += f(after) != f(want)
    check(m.get("status") == "completed" and finished > 0 and wrong == 0,
          "demo: a fresh QEMU loading the file finishes %d output tiles the "
          "stopped run had not written, each equal to the uninterrupted "
          "run's" % finished,
          "%r stable=%d finished=%d wrong=%d\n%s" %
          (m, stable, finished, wrong, dst.stderr()))


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    fw = os.path.join(build, "firmware")
    if not (os.path.exists(os.path.join(fw, "migrate-test.elf")) and
            os.path.exists(os.path.join(fw, "migrate-test-1col.elf"))):
        return tttap.skip_all("migrate-test firmware not built "
                              "(make firmware)")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.time()
        p150 = "blackhole,board=p150,firmware=%s" % \
            os.path.join(fw, "migrate-test.elf")
        migrate_case(build, tmp, "p150", p150, [], 1)
        print("# P150 case: %.1f s" % (time.time() - t0))

        t0 = time.time()
        det = "blackhole,firmware=%s,harvested-tensix-cols=%s," \
              "deterministic=on" % (os.path.join(fw, "migrate-test-1col.elf"),
                                    ONE_COLUMN)
        ref, src, dst = migrate_case(build, tmp, "1col-deterministic", det,
                                     TRACE, 3)
        rt, st, dt = ref.trace(), src.trace(), dst.trace()
        first = next((i for i, (a, b) in enumerate(zip(st + dt, rt))
                      if a != b), min(len(st + dt), len(rt)))
        check(len(st) > 0 and len(dt) > 0 and st + dt == rt,
              "deterministic=on: stopped + restored trace equals the "
              "uninterrupted trace (%d + %d = %d events)" %
              (len(st), len(dt), len(rt)),
              "first difference at event %d: %s / %s" %
              (first, (st + dt)[first:first + 3], rt[first:first + 3]))
        print("# deterministic case: %.1f s" % (time.time() - t0))

        t0 = time.time()
        demo_case(build, tmp)
        print("# demo case: %.1f s" % (time.time() - t0))

        good, why = damaged_stream(build, tmp, det,
                                   os.path.join(tmp,
                                                "1col-deterministic.state"))
        check(good, "a Tensix queue index out of range in the stream fails "
              "the load with an error naming it", why)

        good, why = savevm(build, tmp)
        check(good, "savevm without a snapshot-capable disk is refused and "
              "the machine keeps running", why)
    return tttap.done()


if __name__ == "__main__":
    sys.exit(main())
