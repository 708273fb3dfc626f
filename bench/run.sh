#!/bin/sh
# Benchmarks of the blackhole machine (no pass/fail; numbers for the notes).
#   bench/run.sh [BUILD_DIR]
#
#  startup   time from exec to the QMP greeting (machine fully created) and
#            resident memory of an idle P150 with every core held in reset
#  noc       L1-to-L1 and DRAM-to-L1 throughput of one tile (16 KiB
#            packets) and the cost of one posted 4-byte write
#  noc-all   the same DRAM-to-L1 reads and L1-to-L1 writes from every
#            tile of a P150 at once (aggregate)
#  w1-1core  MIPS of one BRISC running the W1 integer loop
#            (tests/firmware/bench-w1.c; 17 or 18 instructions/iteration
#            depending on the branch, counted as 17.5)
set -eu
B=$(cd "${1:-build}" && pwd)
QEMU=$B/qemu/qemu-system-riscv32

startup() {   # board
    python3 - "$QEMU" "$1" <<'PY'
import socket, subprocess, sys, time, os
qemu, board = sys.argv[1:3]
t0 = time.monotonic()
p = subprocess.Popen([qemu, "-M", "blackhole,board=" + board, "-display",
                      "none", "-monitor", "none", "-serial", "none", "-qmp",
                      "stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
p.stdin.write(b'{"execute":"qmp_capabilities"}\n'); p.stdin.flush()
p.stdout.readline()                      # greeting
p.stdout.readline()                      # reply: the main loop is running
t = time.monotonic() - t0
time.sleep(1)
rss = [l for l in open("/proc/%d/status" % p.pid) if l.startswith("VmRSS")]
cpu = sum(int(v) for v in open("/proc/%d/stat" % p.pid).read().split()[13:15])
time.sleep(2)
cpu2 = sum(int(v) for v in open("/proc/%d/stat" % p.pid).read().split()[13:15])
p.stdin.write(b'{"execute":"quit"}\n'); p.stdin.flush(); p.wait()
print("startup %-6s %.2f s to QMP, %s, idle CPU %.1f%% of one core"
      % (board, t, rss[0].split(":")[1].strip(),
         (cpu2 - cpu) / os.sysconf("SC_CLK_TCK") / 2 * 100))
PY
}

startup p150
startup p100a

out=$("$QEMU" -M "blackhole,firmware=$B/firmware/bench-w1.elf,harvested-tensix-cols=2:3:4:5:6:7:10:11:12:13:14:15:16" \
      -semihosting-config enable=on,target=native -display none \
      -monitor none -serial none 2>&1)
python3 - "$out" <<'PY'
import sys
line = [l for l in sys.argv[1].splitlines() if l.startswith("W1 ")][0]
f = dict(kv.split("=") for kv in line.split()[1:])
iters, ticks = int(f["iters"][2:], 16), int(f["t"], 16)
secs = ticks / 1.35e9
print("w1-1core %d iterations in %.3f s: %.0f MIPS" %
      (iters, secs, iters * 17.5 / secs / 1e6))
PY

out=$(for fw in bench-noc bench-noc-all; do
      "$QEMU" -M "blackhole,firmware=$B/firmware/$fw.elf" \
          -semihosting-config enable=on,target=native -display none \
          -monitor none -serial none 2>&1; done)
python3 - "$out" <<'PY'
import sys
for line in sys.argv[1].splitlines():
    f = line.split()
    if len(f) != 4 or f[0] not in ("l1-to-l1", "dram-to-l1", "write-4b",
                                   "all-tiles"):
        continue
    n, size, ticks = (int(v, 16) for v in f[1:])
    secs = ticks / 1.35e9
    if size == 4:
        print("noc %-10s %d writes: %.0f ns of host time each" %
              (f[0], n, secs / n * 1e9))
    else:
        print("noc %-10s %d x %d B: %.2f GB/s of emulated data per host "
              "second" % (f[0], n, size, n * size / secs / 1e9))
PY
