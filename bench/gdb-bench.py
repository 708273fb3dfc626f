#!/usr/bin/env python3
"""gdb on a full P150: attach time, "info threads" time, and the slowdown
of a running workload while gdb is attached but idle.

  bench/gdb-bench.py --build BUILD [--gdb gdb-multiarch] [--quick]

One QEMU per measurement pair, driven through qtest like bench/ttbench.py:
bench/fw's W1 integer loop is loaded into every BRISC, then gdb-multiarch
connects (through a listening socket this driver opens and hands to QEMU,
nodelay=on), attaches the seven core-role inferiors (five Tensix, two
ERISC) with scripts/tenstorrent/blackhole-attach.gdb, lists the 724
threads twice and
continues every inferior (schedule-multiple on, no breakpoints).  The
BRISCs are then released and the workload's MIPS (from the cores' own
WALL_CLOCK readings) is compared with the same workload in a QEMU without
gdb, measured in the same run.  Times inside gdb come from gdb's Python
clock around each command.
"""
import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ttbench import Bench, TILES, qemu_workload  # noqa: E402

MARK = "@@GDBBENCH"

# Runs inside gdb-multiarch (-x FILE); prints one MARK line, then continues.
SESSION = r'''
import gdb, os, sys, time
def timed(cmd):
    t = time.monotonic()
    out = gdb.execute(cmd, to_string=True)
    return time.monotonic() - t, out
gdb.execute("set pagination off")
gdb.execute("set confirm off")
t_conn, _ = timed("target extended-remote 127.0.0.1:" + os.environ["GB_PORT"])
t_att, _ = timed("source " + os.environ["GB_ATTACH"])
t_info1, out = timed("info threads")
t_info2, _ = timed("info threads")
n = sum(1 for ln in out.splitlines() if "Thread " in ln)
print("%s %.4f %.4f %.4f %.4f %d" % ("@@GDBBENCH", t_conn, t_att, t_info1,
                                     t_info2, n))
sys.stdout.flush()
gdb.execute("set schedule-multiple on")
gdb.execute("continue")
'''


class Gdb:
    """gdb-multiarch attached to the QEMU that owns @port's listener."""

    def __init__(self, gdb, port, attach, timeout):
        self.dir = tempfile.mkdtemp(prefix="gdbbench-")
        script = os.path.join(self.dir, "session.py")
        with open(script, "w") as f:
            f.write(SESSION)
        env = dict(os.environ, GB_PORT=str(port), GB_ATTACH=attach)
        self.proc = subprocess.Popen([gdb, "-batch", "-nx", "-x", script],
                                     stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True,
                                     env=env, start_new_session=True)
        self.times = None
        deadline = time.monotonic() + timeout
        lines = []
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith(MARK):
                f = line.split()[1:]
                self.times = [float(v) for v in f[:4]] + [int(f[4])]
                return
        self.close()
        raise RuntimeError("gdb did not attach:\n" + "".join(lines[-20:]))

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def listener():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    return s


def with_gdb(b, gdb, attach, count, tiles):
    """W1 on @tiles with gdb attached and idle: (workload result, times)."""
    srv = listener()
    port, fd = srv.getsockname()[1], srv.fileno()
    extra = ["-chardev", "socket,id=gdb0,fd=%d,server=on,wait=off,"
             "nodelay=on" % fd, "-gdb", "chardev:gdb0"]
    box = {}

    def attach_gdb(q):
        box["gdb"] = Gdb(gdb, port, attach, 120)

    try:
        res = qemu_workload(b, "w1", count, tiles, "0,1", extra=extra,
                            pass_fds=[fd], before_release=attach_gdb)
    finally:
        srv.close()
        if "gdb" in box:
            box["gdb"].close()
    return res, box["gdb"].times


def mips(res):
    secs, instr, ok = res
    if not ok:
        sys.exit("gdb-bench: a workload checksum was wrong")
    return instr / secs / 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--gdb", default=shutil.which("gdb-multiarch"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    if not args.gdb:
        print("gdb-bench: skipped: no gdb-multiarch on PATH (--gdb names one)")
        return
    b = Bench(args.build)
    attach = os.path.join(HERE, "..", "scripts", "tenstorrent",
                          "blackhole-attach.gdb")
    k = 10 if args.quick else 1
    cases = [("W1, 1 BRISC", 200000000 // k, TILES[:1]),
             ("W1, 140 BRISCs, 2 host threads", 4000000 // k, TILES)]
    times, rows = [], []
    for name, count, tiles in cases:
        plain, attached = [], []
        for _ in range(args.rounds):    # interleaved: drift hits both
            plain.append(mips(qemu_workload(b, "w1", count, tiles, "0,1")))
            res, t = with_gdb(b, args.gdb, attach, count, tiles)
            attached.append(mips(res))
            times.append(t)
        rows.append((name, max(plain), max(attached)))

    print("\ngdb-multiarch on a full P150 (140 tiles and 12 Ethernet "
          "channels, 724 threads; best and "
          "worst of %d)" % len(times))
    for i, what in enumerate(["connect (target extended-remote)",
                              "attach seven inferiors",
                              "first info threads", "second info threads"]):
        v = [t[i] for t in times]
        print("  %-36s %8.3f s %8.3f s" % (what, min(v), max(v)))
    print("  threads listed: %s" % sorted({t[4] for t in times}))
    print("\n%-36s %14s %14s %10s" % ("workload (best of %d)" % args.rounds,
                                      "no gdb MIPS", "gdb idle MIPS",
                                      "slowdown"))
    for name, plain, attached in rows:
        print("%-36s %14.1f %14.1f %9.3fx" % (name, plain, attached,
                                              plain / attached))


if __name__ == "__main__":
    main()
