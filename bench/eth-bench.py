#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Ethernet and cluster benchmarks (no pass/fail; numbers for the notes).

    bench/eth-bench.py [--build BUILD] [--full-galaxy] [--ttsim-x2 LIB]

1. TT-link between two chips, two QEMU processes on this host, linked on
   channel 0 by a UNIX stream socket: tests/firmware/eth-bench.c on E0 of
   both measures a 16-byte ping-pong round trip and the L1-write
   throughput for 1 KiB to 1 MiB transfers (64 MiB each, ending when the
   receiver acknowledges the last byte).
2. A 32-chip Galaxy (tools/tt-cluster, one Tensix column per chip unless
   --full-galaxy): start-up time, time until all 140 links are up and have
   each carried a packet both ways (tests/firmware/eth-ping.c), resident
   memory per chip.

3. The same two-chip program through the libttsim ABI alone, given
   ttsim's two-chip build (--ttsim-x2, or TTSIM_X2_LIB): on ours
   (build/libttsim/p300, one QEMU per chip) and on ttsim, each in a
   process of its own, the host finds a linked pair of Ethernet tiles
   (port status and the base firmware's chip_info), loads eth-bench.elf
   into both through TLB windows, releases E0 and waits for the result;
   host time from release to the end, and ttsim's over ours.  ttsim
   links its chips by a memcpy in one process, stepping the two cores in
   turn; it knows no host time, so only host times compare.
4. A tt-run program that spans the two chips (tests/dispatch span.tt:
   448 KiB from a Tensix tile of chip 0 through ERISC kernels at both
   ends of a link to a tile of chip 1), 10 launches on ours and, with
   --ttsim-x2, on ttsim: mean host time per launch and ttsim's over ours.
"""
import argparse
import importlib.machinery
import importlib.util
import json
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

sys.path.insert(0, os.path.join(SRC, "scripts", "tenstorrent"))
import ttabi  # noqa: E402
import ttchips  # noqa: E402

EB = ttabi.load("tests/firmware/eth-bench.h")

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
    d = tempfile.mkdtemp(prefix="tt-eth-bench-")
    fw = os.path.join(build, "firmware", "eth-bench.elf")
    tool(build, d, "start", ttc.pair_descriptor(d),
         qemu_args=["-M", "blackhole,%s,erisc-firmware=%s" % (ONE_COL, fw)])
    cpu = 50                    # E0 of channel 0 after 10 tiles' cores
    deadline = time.time() + 600
    while ttc.hmp_word(d, 0, cpu, EB["ETH_BENCH_DONE"]) != \
            EB["ETH_BENCH_DONE_VALUE"]:
        if time.time() > deadline:
            sys.exit("eth-bench: the two-chip run did not finish")
        time.sleep(0.2)
    res = [ttc.hmp_word(d, 0, cpu, EB["ETH_BENCH_RESULTS"] + 4 * i)
           for i in range(7)]
    pings, total = res[5], res[6]       # the firmware's counts
    tool(build, d, "stop")
    shutil.rmtree(d, ignore_errors=True)
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


def abi_bench(build, x2):
    """Section 3: ours and ttsim's bh_x2 on the same program"""
    fw = os.path.join(build, "firmware", "eth-bench.elf")
    ours = os.path.join(build, "libttsim", "p300", "libttsim.so")
    env = dict(os.environ, TT_EMU_POOL="0",
               TT_EMU_QEMU=os.path.join(build, "qemu", "qemu-system-riscv32"))
    got = {}
    for name, lib in (("ours", ours), ("ttsim bh_x2", x2)):
        r = subprocess.run([sys.executable, __file__, "--abi-child", lib, fw],
                           capture_output=True, text=True, timeout=900,
                           env=env)
        try:
            got[name] = json.loads(r.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            got[name] = {"error": "exit %d: %s" % (r.returncode,
                                                   r.stderr.strip()[-300:])}
        g = got[name]
        if "error" in g:
            print("eth abi %s: %s" % (name, g["error"]))
            continue
        print("eth abi %-11s: chip 0 channel %d <-> chip 1 channel %d, "
              "%d pings and 4 x %d MiB in %.3f s of host time" %
              (name, g["pair"][0][1], g["pair"][1][1], g["results"][5],
               g["results"][6] >> 20, g["seconds"]))
    if all("seconds" in g for g in got.values()):
        print("eth ttsim ratio (ttsim's time / ours, same program): %.2fx" %
              (got["ttsim bh_x2"]["seconds"] / got["ours"]["seconds"]))


def span_bench(build, x2):
    """Section 4: tt-run's span.tt on ours and on ttsim's bh_x2"""
    env = dict(os.environ, TT_EMU_POOL="0",
               TT_EMU_QEMU=os.path.join(build, "qemu", "qemu-system-riscv32"))
    libs = [("ours", os.path.join(build, "libttsim", "p300", "libttsim.so"))]
    if x2:
        libs.append(("ttsim bh_x2", x2))
    got = {}
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([sys.executable, os.path.join(SRC, "tests", "dispatch",
                                                     "gen-programs.py"),
                        d, "p150"], check=True)
        for name, lib in libs:
            r = subprocess.run([os.path.join(build, "tt-run"), "--lib", lib,
                                "--bench", "--launches", "10",
                                os.path.join(d, "span.tt")],
                               capture_output=True, text=True, timeout=900,
                               env=env)
            m = dict((w[0], float(w[1])) for w in
                     (line.split() for line in r.stdout.splitlines())
                     if len(w) == 3)
            if r.returncode or "launch_mean" not in m:
                print("eth span %s: exit %d: %s" % (name, r.returncode,
                                                    r.stderr.strip()[-300:]))
                continue
            got[name] = m["launch_mean"]
            print("eth span %-11s: 448 KiB chip 0 tile -> ERISC -> TT-link "
                  "-> ERISC -> chip 1 tile: %.1f ms per launch (mean of 10)"
                  % (name, got[name] / 1e3))
    if len(got) == 2:
        print("eth span ttsim ratio (ttsim's time / ours, same program): "
              "%.2fx" % (got["ttsim bh_x2"] / got["ours"]))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--abi-child":
        print(json.dumps(ttchips.eth_bench(sys.argv[2], sys.argv[3])))
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default=os.path.join(SRC, "build"))
    p.add_argument("--full-galaxy", action="store_true",
                   help="32 chips of 140 Tensix tiles each")
    p.add_argument("--ttsim-x2", default=os.environ.get("TTSIM_X2_LIB", ""),
                   help="ttsim's two-chip libttsim.so (default: "
                   "$TTSIM_X2_LIB)")
    opts = p.parse_args()
    build = os.path.abspath(opts.build)
    print("# load average before: %s" % open("/proc/loadavg").read().split()[0])
    two_chips(build)
    galaxy(build, opts.full_galaxy)
    span_bench(build, opts.ttsim_x2)
    if opts.ttsim_x2:
        abi_bench(build, opts.ttsim_x2)
    else:
        print("eth ttsim ratio: not measured (no --ttsim-x2 or TTSIM_X2_LIB: "
              "ttsim's two-chip build, built by the user)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
