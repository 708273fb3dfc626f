#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every option `-M blackhole,help` lists refuses a bad value:

    options-test.py QEMU_BINARY

For each option the help lists, QEMU is started with a value that option
cannot take (by its type, or one this machine has no use for) and must
exit with an error, naming the option, before the machine runs; a few
good values must be accepted (QEMU still running after a while), so that
the test tells the two apart.  The same for tt-tensix.vector and a small
-accel tcg,tb-size.  Prints TAP.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts", "tenstorrent"))
from tttap import ok, done  # noqa: E402

QEMU = sys.argv[1]
BASE = ["-display", "none", "-monitor", "none", "-serial", "none", "-S"]

# a bad value by the option's type
BY_TYPE = {
    "bool": "maybe",
    "int": "x",
    "uint8": "256",
    "uint64": "x",
    "string": None,         # per option, below
    "str": None,
}
# options with a value that type alone does not make bad
BAD = {
    "board": "bogus",
    "pcie-endpoint": "2",
    "harvested-tensix-cols": "8",       # column 8 holds no Tensix tiles
    "harvested-dram-bank": "9",
    "asic-location": "32",
    "fw-layout": "bogus",
    "fw-ldm-images": "0x100:0x200",
    "fw-bank-table": "-2",
    "fw-go-msg": "-1",
    "fw-l2v-table": "-1",
    "fw-num-dram-banks": "-1",
    "fw-num-l1-banks": "-1",
    "hang-report": "-1",
    "erisc-firmware": "/nonexistent/erisc.elf",
    "firmware": "/nonexistent/fw.elf",
    "kernel": "/nonexistent/Image",
    "initrd": "/nonexistent/initrd",
    "append": "console=ttyS0",
    "shim": "/nonexistent/shim.efi",
    "dtb": "/nonexistent/x.dtb",
    "dumpdtb": "/nonexistent/x.dtb",
    "dt-compatible": "foo,bar",
    "phandle-start": "5",
    "usb": "on",
    "memory-backend": "nosuch",
    "memory-encryption": "nosuch",
    "confidential-guest-support": "nosuch",
    "memory": "nosuch",
    "smp": "nosuch",
    "smp-cache": "nosuch",
    "boot": "nosuch",
}
# messages that are QEMU's own and do not name the option
GENERIC = {
    "dumpdtb": "doesn't have an FDT",
    "memory-encryption": "memory encryption object",
    "append": "-append",
    "initrd": "-initrd",
    "shim": "-shim",
    "memory-backend": "'nosuch' not found",
    "confidential-guest-support": "'nosuch' not found",
}
# good values: QEMU must start with these
GOOD = ["board=p100a", "fw-layout=tt-test", "hang-report=5",
        "fw-ldm-images=0x100:0x200:0x300:0x400:0x500", "asic-location=31",
        "pcie-endpoint=1", "eth0=n0"]


def start(opt, extra=(), wait=8):
    try:
        p = subprocess.run([QEMU, "-M", "blackhole," + opt] + list(extra) +
                           BASE, capture_output=True, text=True, timeout=wait)
        return p.returncode, p.stderr.strip()
    except subprocess.TimeoutExpired:
        return None, ""         # still running: accepted


helptext = subprocess.run([QEMU, "-M", "blackhole,help"],
                          capture_output=True, text=True).stdout
opts = re.findall(r"^\s+([a-z0-9-]+)=<([^>]+)>", helptext, re.M)
ok(len(opts) > 40, "-M blackhole,help lists %d options" % len(opts))
for name, typ in opts:
    bad = BAD.get(name)
    if bad is None and re.fullmatch(r"eth\d+", name):
        bad = "nosuchnetdev"
    if bad is None:
        bad = BY_TYPE.get(typ)
    if bad is None:
        ok(False, "%s (%s): no bad value known to the test" % (name, typ))
        continue
    rc, err = start("%s=%s" % (name, bad))
    first = err.splitlines()[0] if err else ""
    named = name in first or GENERIC.get(name, "\0") in first
    ok(rc not in (None, 0) and named,
       "%s=%s is refused naming it (exit %s: %s)" % (name, bad, rc, first))
for opt in GOOD:
    extra = ("-netdev", "dgram,id=n0,local.type=inet,local.host=127.0.0.1,"
             "local.port=0,remote.type=inet,remote.host=127.0.0.1,"
             "remote.port=9") if opt == "eth0=n0" else ()
    rc, err = start(opt, extra, wait=3)
    ok(rc is None, "%s is accepted (%s)" % (opt, err.splitlines()[0]
                                             if err else "still running"))
# the datapath's vector instructions (a device option), and a code buffer
# too small for 700 vCPU threads' regions of two pages (QEMU asserted)
flags = open("/proc/cpuinfo").read().split()
for vec, have in (("bogus", False), ("avx512", "avx512bw" in flags),
                  ("avx2", "avx2" in flags), ("none", True)):
    rc, err = start("board=p150", ["-global", "tt-tensix.vector=" + vec],
                    wait=3)
    first = err.splitlines()[0] if err else "still running"
    if have:
        ok(rc is None, "tt-tensix.vector=%s is accepted (%s)" % (vec, first))
    else:
        ok(rc not in (None, 0) and "vector=" + vec in first,
           "tt-tensix.vector=%s is refused naming it (exit %s: %s)" %
           (vec, rc, first))
rc, err = start("board=p150", ["-accel", "tcg,tb-size=4"])
first = err.splitlines()[0] if err else ""
ok(rc == 1 and "tb-size=4" in first and "at least 6" in first,
   "-accel tcg,tb-size=4 is refused naming it and the least size (exit "
   "%s: %s)" % (rc, first))
rc, err = start("board=p150", ["-accel", "tcg,tb-size=6"], wait=3)
ok(rc is None, "-accel tcg,tb-size=6 is accepted (%s)" %
   (err.splitlines()[0] if err else "still running"))
sys.exit(done())
