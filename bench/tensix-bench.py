#!/usr/bin/env python3
"""Tensix throughput: tile matmuls, eltwise tiles and an SFPU exp.

  bench/tensix-bench.py --build BUILD [--ttsim /path/to/libttsim.so]

Runs the Tensix kernels of firmware/tensix (unpack, math and pack on the
three TRISCs, as tt-metal's compute kernels do) through
tools/tt-kernel-run --bench: the same kernel on one Tensix tile and on all
140 at once, each run timed from the release of the TRISCs to the last
done flag and checked (tile 0 against tools/tt-ref, every other tile
against tile 0).  Prints one table: workload, tiles, tile counts, seconds
per run (median), tile operations per host second, emulated GFLOP/s, and
GFLOP/s per busy host core (host CPU time from /proc/stat during the run;
other load on the machine inflates it).

With a ttsim libttsim.so the user built (TTSIM_LIB or --ttsim), the 'same
kernel' rows also run on ttsim in the same invocation and the ratio is
ttsim's time over ours.  Each row runs --rounds times (3), ours and ttsim
alternating, and keeps each side's fastest round (a round being the
median of --repeat runs): on a small shared host either side's runs
sometimes take twice as long for seconds at a time, and a single round of
one side landing in such a spell moved a ratio by 2x.  ttsim aborts
("inst fifo full") when a TRISC pushes into a full instruction FIFO,
which these kernels do beyond 2 x 2 x 2 matmul tiles or 32 eltwise tiles,
so those rows use sizes it can run.  A 32x32x32 matmul tile is 65536
flops, an eltwise tile 1024.

The vector-unit (SFPU) rows run tt-llk's fast exp (ckernel_sfpu_exp.h,
Schraudolph with the -88.5 clamp) over 32x32 tiles after a datacopy:
exp-dst16, the DISABLE_SFPLOADMACRO body, on both libraries, and
exp-macro-dst16, tt-llk's default SFPLOADMACRO body, on ours only (ttsim
leaves SFPLOADMACRO out); their tile/s is exp tiles per host second.
"""
import argparse
import os
import re
import subprocess
import sys

# (case, tile counts mt,kt,nt on one tile, on 140): our throughput rows
THROUGHPUT = [
    ("matmul-hifi4-dst16", "8,16,8", "2,8,4"),
    ("matmul-lofi-dst16", "8,16,8", "2,8,4"),
    ("add-dst16", "8,1,16", "4,1,8"),
    ("mul-hifi4-dst16", "8,1,16", "4,1,8"),
    ("exp-macro-dst16", "4,1,8", "4,1,8"),
]
# the same kernels at sizes ttsim runs, on both
SAME = [
    ("matmul-hifi4-dst16", "2,2,2"),
    ("matmul-lofi-dst16", "2,2,2"),
    ("add-dst16", "4,1,8"),
    ("mul-hifi4-dst16", "4,1,8"),
    ("exp-dst16", "4,1,8"),
]


def run(build, lib, case, dims, tiles, repeat, ours, fw=None):
    """Metrics of one --bench run: {metric: value}, or None on failure."""
    cmd = [os.path.join(build, "tt-kernel-run"), "--bench", "--lib", lib,
           "--case", case, "--dims", dims, "--tiles", str(tiles),
           "--repeat", str(repeat), "--timeout", "600"]
    if fw:
        cmd += ["--fw", fw]
    if ours:
        # our library runs the chip on its own threads: poll gently
        # (naps of 200 us, or 1/16 of the previous run if less)
        cmd += ["--poll-us", "200"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    m = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and "/" in f[0] and "." in f[0]:
            m[f[0].rsplit(".", 1)[1]] = float(f[1])
    if p.returncode or "run" not in m:
        bad = [l for l in p.stdout.splitlines() if l.startswith("not ok")]
        sys.stderr.write("tensix-bench: %s %s on %d tile(s) of %s failed: "
                         "%s\n" % (case, dims, tiles, lib,
                                   (bad or p.stderr.splitlines() or
                                    ["exit %d" % p.returncode])[-1]))
        return None
    return m


def fastest(a, b):
    """The round of the two (metrics of run(), or None) that ran fastest"""
    if a is None or (b is not None and b["run"] < a["run"]):
        return b
    return a


def fmt(v, spec="%.4g"):
    return "-" if v is None else spec % v


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.
                                 RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--ttsim", default=os.environ.get("TTSIM_LIB"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds per row, ours and ttsim alternating; "
                    "each side's fastest is kept (3)")
    ap.add_argument("--fw", help="kernel image (default: tt-kernel-run's)")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    ours = os.path.join(build, "libttsim", "libttsim.so")
    os.environ.setdefault("TT_EMU_QEMU", os.path.join(
        build, "qemu", "qemu-system-riscv32"))
    os.environ.setdefault("TT_EMU_ARGS", "-M blackhole,board=p150")

    print("\n%-20s %5s %-7s %10s %10s %8s %9s %10s %8s" %
          ("tensix workload", "tiles", "tiles", "run s", "tile/s",
           "GFLOP/s", "GF/s/core", "ttsim s", "ratio"))
    rows = [(c, d1, 1, False) for c, d1, d140 in THROUGHPUT]
    rows += [(c, d140, 140, False) for c, d1, d140 in THROUGHPUT]
    rows += [(c, d, t, True) for c, d in SAME for t in (1, 140)]
    for case, dims, tiles, same in rows:
        m = t = None
        for _ in range(max(1, args.rounds)):
            m = fastest(m, run(build, ours, case, dims, tiles, args.repeat,
                               True, args.fw))
            if same and args.ttsim:
                t = fastest(t, run(build, args.ttsim, case, dims, tiles,
                                   args.repeat, False, args.fw))
        ratio = None
        if m and t:
            ratio = t["run"] / m["run"]
        m = m or {}
        print("%-20s %5d %-7s %10s %10s %8s %9s %10s %8s" %
              (case, tiles, dims, fmt(m.get("run")), fmt(m.get("tiles")),
               fmt(m.get("gflops"), "%.3f"), fmt(m.get("gflops-core"),
                                                  "%.3f"),
               fmt(t and t["run"]), fmt(ratio, "%.2fx")))
    print("(run s: the fastest of %d rounds, each the median of %d runs; "
          "ours and ttsim alternate)" % (max(1, args.rounds), args.repeat))
    if not args.ttsim:
        print("(ttsim columns empty: set TTSIM_LIB to a locally built "
              "libttsim.so)")
    demo(build, ours)


def demo(build, lib):
    """make demo's matmul: its compute time against its checks' time."""
    out = subprocess.run([os.path.join(build, "tt-matmul-demo"), "--lib",
                          lib], capture_output=True, text=True).stdout
    compute = re.search(r"^compute: +([0-9.]+) s", out, re.M)
    checks = [float(x) for x in re.findall(r"\(([0-9.]+) s\)$", out, re.M)]
    if not compute or len(checks) != 2 or "PASS" not in out:
        print("\nmake demo: did not PASS")
        return
    c = float(compute.group(1))
    print("\nmake demo (1024^3 BF16 HiFi4, 140 tiles): compute %.2f s, "
          "checks %.2f s (tt-ref %.2f, FP64 %.2f): checks/compute %.2f "
          "(goal < 1)" % (c, sum(checks), checks[0], checks[1],
                         sum(checks) / c))


if __name__ == "__main__":
    main()
