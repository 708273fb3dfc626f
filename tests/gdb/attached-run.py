#!/usr/bin/env python3
"""Run a firmware test to its end with gdb attached to every core.

    python3 attached-run.py --qemu QEMU --elf ELF --attach GDBSCRIPT
                            [--opts ,NAME=VALUE...] [--gdb gdb-multiarch]
                            [--timeout SECONDS]

QEMU starts held (-S) under multi-threaded TCG with its gdb port on a
socket this driver listens on; gdb-multiarch attaches the core-role
inferiors with GDBSCRIPT (scripts/tenstorrent/blackhole-attach.gdb) and
continues all of them (schedule-multiple on) until the firmware ends the
machine through semihosting.  The firmware's TAP lines (QEMU's standard
output) are printed renumbered, followed by this driver's: gdb attached
every core role and saw the machine exit, and QEMU's exit status.  A run
that does not end within the timeout (a lost wake-up while the gdbstub
watches the cores) fails; exit status 0 only when everything passed.
"""

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts", "tenstorrent"))
import tttap  # noqa: E402
from ttchild import pdeathsig, kill_group  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--qemu", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--attach", required=True)
    ap.add_argument("--opts", default="",
                    help="appended to -M blackhole,firmware=ELF")
    ap.add_argument("--gdb", default=shutil.which("gdb-multiarch") or "gdb")
    ap.add_argument("--timeout", type=float, default=300)
    a = ap.parse_args()

    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(1)
    port = lsock.getsockname()[1]
    fd = lsock.fileno()
    qemu = gdb = None
    try:
        qemu = subprocess.Popen(
            [a.qemu, "-M", "blackhole,firmware=%s%s" % (a.elf, a.opts),
             "-semihosting-config", "enable=on,target=native",
             "-display", "none", "-monitor", "none", "-serial", "none",
             "-S", "-accel", "tcg,thread=multi",
             "-chardev", "socket,id=gdb0,fd=%d,server=on,wait=off,"
             "nodelay=on" % fd, "-gdb", "chardev:gdb0"],
            pass_fds=[fd], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=pdeathsig)
        lsock.close()
        gdb = subprocess.Popen(
            [a.gdb, "-batch", "-nx", "-ex", "set pagination off",
             "-ex", "target extended-remote 127.0.0.1:%d" % port,
             "-x", a.attach, "-ex", "info inferiors",
             "-ex", "set schedule-multiple on", "-ex", "continue"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=pdeathsig)
        try:
            qout = qemu.communicate(timeout=a.timeout)[0]
            gout = gdb.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            kill_group(qemu)
            kill_group(gdb)
            tttap.ok(False, "the run with gdb attached ended within %g s "
                     "(a lost wake-up?)" % a.timeout)
            return tttap.done()
    finally:
        kill_group(qemu)
        kill_group(gdb)
    qtext = qout.decode(errors="replace")
    gtext = gout.decode(errors="replace")
    for line in qtext.splitlines():     # the firmware's TAP, renumbered
        m = re.match(r"(not )?ok \d+ - (.*)", line)
        if m:
            tttap.ok(not m.group(1), m.group(2))
        elif not re.match(r"1\.\.\d+$", line):
            tttap.diag(line)
    attached = len(re.findall(r"^[* ]\s*\d+\s+process \d+", gtext, re.M))
    exited = re.search(r"exited|Remote connection closed|"
                       r"Remote communication error", gtext)
    if not tttap.ok(attached >= 5 and exited is not None,
                    "gdb attached %d core-role inferiors and saw the machine "
                    "end" % attached):
        tttap.diag("gdb: " + "\ngdb: ".join(gtext.splitlines()[-15:]))
    tttap.ok(qemu.returncode == 0, "the firmware's checks passed (QEMU "
             "exit %d)" % qemu.returncode)
    return tttap.done()


if __name__ == "__main__":
    sys.exit(main())
