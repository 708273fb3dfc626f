#!/bin/sh
# Benchmarks of the blackhole machine (no pass/fail; numbers for the notes).
#   bench/run.sh [BUILD_DIR]          (make bench builds what it needs)
#
# bench/ttbench.py runs the workloads of bench/fw on our machine and, with
# TTSIM_LIB=/path/to/libttsim.so (a ttsim the user built), on ttsim through
# the libttsim ABI, and prints workload, ours, ttsim, ratio.  host-bench.sh
# then measures both libraries from a C host program (tools/tt-host-run:
# start-up, firmware upload, BAR0 bandwidth and latency, W1), tensix-bench.py
# the Tensix matrix datapath (tile matmuls and eltwise tiles on one tile and
# on 140, the same kernels on ttsim), gdb-bench.py
# times gdb-multiarch on a full P150 (attach, info threads, slowdown),
# eth-bench.py TT-link between two chips in two processes (ping-pong
# latency, L1-write throughput) and a 32-chip Galaxy's start-up, link
# bring-up and memory, dispatch-bench.sh kernel launches through
# tools/tt-run (slow and fast dispatch, 1 and 140 tiles, commands per
# second), and last comes the NOC benchmark of one tile
# (tests/firmware/bench-noc.c).
set -eu
B=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
python3 "$here/ttbench.py" --build "$B" ${TTSIM_LIB:+--ttsim "$TTSIM_LIB"} \
    ${TTBENCH_ARGS:-}
sh "$here/host-bench.sh" "$B"
python3 "$here/tensix-bench.py" --build "$B" ${TTSIM_LIB:+--ttsim "$TTSIM_LIB"}
python3 "$here/gdb-bench.py" --build "$B"
python3 "$here/eth-bench.py" --build "$B"
sh "$here/dispatch-bench.sh" "$B"

out=$("$B/qemu/qemu-system-riscv32" -M "blackhole,firmware=$B/firmware/bench-noc.elf" \
      -semihosting-config enable=on,target=native -display none \
      -monitor none -serial none 2>&1)
python3 - "$out" <<'PY'
import sys
for line in sys.argv[1].splitlines():
    f = line.split()
    if len(f) != 4 or f[0] not in ("l1-to-l1", "dram-to-l1", "write-4b"):
        continue
    n, size, ticks = (int(v, 16) for v in f[1:])
    secs = ticks / 1.35e9
    if size == 4:
        print("noc %-10s %d writes: %.0f ns of host time each" %
              (f[0], n, secs / n * 1e9))
    else:
        print("noc %-10s %d x %d B, one tile: %.2f GB/s of emulated data "
              "per host second" % (f[0], n, size, n * size / secs / 1e9))
PY
