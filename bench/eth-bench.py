#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Ethernet and cluster benchmarks (no pass/fail; numbers for the notes).

    bench/eth-bench.py [--build BUILD] [--full-galaxy]

1. TT-link between two chips, two QEMU processes on this host, linked on
   channel 0 by a UNIX stream socket: tests/firmware/eth-bench.c on E0 of
   both measures a 16-byte ping-pong round trip and the L1-write
   throughput for 1 KiB to 1 MiB transfers (64 MiB each, ending when the
   receiver acknowledges the last byte).
2. A 32-chip Galaxy (tools/tt-cluster, one Tensix column per chip unless
   --full-galaxy): start-up time, time until all 140 links are up and have
   each carried a packet both ways (tests/firmware/eth-ping.c), resident
   memory per chip.

ttsim runs its chips in one process with memcpy links; the same two-chip
program through its libttsim ABI needs our library's multi-chip mode,
which does not exist yet, so no ttsim ratio is measured here.
"""
import argparse
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..")
TOOL = os.path.join(SRC, "tools", "tt-cluster")
ONE_COL = "harvested-tensix-cols=2:3:4:5:6:7:10:11:12:13:14:15:16"
AICLK = 1.35e9
SIZES = ["1 KiB", "16 KiB", "256 KiB", "1 MiB"]

loader = importlib.machinery.SourceFileLoader("tt_cluster", TOOL)
spec = importlib.util.spec_from_loader("tt_cluster", loader)
ttc = importlib.util.module_from_spec(spec)
loader.exec_module(ttc)


def tool(build, d, *args, qemu_args=()):
    cmd = [sys.executable, TOOL] + list(args) + [
        "--dir", d, "--qemu", os.path.join(build, "qemu",
                                           "qemu-system-riscv32")]
    if qemu_args:
        cmd += ["--"] + list(qemu_args)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if r.returncode:
        sys.exit("eth-bench: tt-cluster %s: %s" % (args[0], r.stderr))
    return r.stdout


def two_chips(build):
    desc = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
    desc.write("arch: {0: blackhole, 1: blackhole}\n"
               "ethernet_connections:\n"
               "  - [{chip: 0, chan: 0}, {chip: 1, chan: 0}]\n"
               "asic_locations: {0: 0, 1: 1}\n")
    desc.close()
    d = tempfile.mkdtemp(prefix="tt-eth-bench-")
    fw = os.path.join(build, "firmware", "eth-bench.elf")
    tool(build, d, "start", desc.name,
         qemu_args=["-M", "blackhole,%s,erisc-firmware=%s" % (ONE_COL, fw)])
    cpu = 50                    # E0 of channel 0 after 10 tiles' cores
    deadline = time.time() + 600
    while ttc.hmp_word(d, 0, cpu, 0x30010) != 0x600d0001:
        if time.time() > deadline:
            sys.exit("eth-bench: the two-chip run did not finish")
        time.sleep(0.2)
    res = [ttc.hmp_word(d, 0, cpu, 0x30100 + 4 * i) for i in range(7)]
    pings, total = res[5], res[6]       # the firmware's counts
    tool(build, d, "stop")
    shutil.rmtree(d, ignore_errors=True)
    os.unlink(desc.name)
    rtt = res[0] / AICLK / pings
    print("eth ping-pong (16 B each way, two processes): %.1f us round trip"
          % (rtt * 1e6))
    for name, cycles in zip(SIZES, res[1:5]):
        secs = cycles / AICLK
        print("eth L1 write %-8s: %.2f GB/s (%d MiB in %.3f s)" %
              (name, total / secs / 1e9, total >> 20, secs))


def galaxy(build, full):
    d = tempfile.mkdtemp(prefix="tt-eth-bench-")
    fw = os.path.join(build, "firmware", "eth-ping.elf")
    m = "blackhole,%serisc-firmware=%s" % ("prealloc-l1=off," if full else
                                           ONE_COL + ",", fw)
    t0 = time.time()
    tool(build, d, "start", "galaxy", "--timeout", "600",
         qemu_args=["-M", m])
    started = time.time() - t0
    tool(build, d, "wait", "--timeout", "600")
    up = time.time() - t0
    ncores = (140 if full else 10) * 5
    st = ttc.load_state(d)
    linked = {(a, ca) for a, ca, b, cb in st["links"]} | \
             {(b, cb) for a, ca, b, cb in st["links"]}
    for chip, ch in sorted(linked):
        while ttc.hmp_word(d, chip, ncores + 2 * ch, 0x30010) != 0x600d0001:
            if time.time() - t0 > 900:
                sys.exit("eth-bench: galaxy chip %d channel %d did not "
                         "ping" % (chip, ch))
            time.sleep(0.05)
    pinged = time.time() - t0
    rss = [ttc.rss_kib(p) for p in st["pids"]]
    tool(build, d, "stop")
    shutil.rmtree(d, ignore_errors=True)
    print("galaxy (32 chips of %s): started in %.2f s, 140 links up at "
          "%.2f s, every link pinged both ways at %.2f s" %
          ("140 tiles" if full else "10 tiles", started, up, pinged))
    print("galaxy resident memory: %.0f MiB per chip (max %.0f), %.1f GiB "
          "in all" % (sum(rss) / len(rss) / 1024, max(rss) / 1024,
                      sum(rss) / (1 << 20)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default=os.path.join(SRC, "build"))
    p.add_argument("--full-galaxy", action="store_true",
                   help="32 chips of 140 Tensix tiles each")
    opts = p.parse_args()
    build = os.path.abspath(opts.build)
    print("# load average before: %s" % open("/proc/loadavg").read().split()[0])
    two_chips(build)
    galaxy(build, opts.full_galaxy)
    print("eth ttsim ratio: not measured (ttsim's bh_x2 needs the libttsim "
          "multi-chip mode, not built yet)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
