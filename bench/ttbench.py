#!/usr/bin/env python3
"""Benchmarks of the blackhole machine, and the same workloads on ttsim.

  bench/ttbench.py --build BUILD [--ttsim /path/to/libttsim.so] [--quick]

Runs the RV32 workloads of bench/fw on our machine (driven from the host
through qtest, the way a libttsim-ABI harness drives a simulator: load the
image into L1, write the parameter block, release BRISC, poll done) and,
given a locally built ttsim libttsim.so (TTSIM_LIB or --ttsim), on ttsim
through that ABI, and prints one table: workload, ours, ttsim, ratio.
Every checksum is compared with tools/tt-bench-ref.  The project never
builds or downloads ttsim.

Times on our machine come from WALL_CLOCK_L read by the workload (QEMU's
virtual clock follows host time without -icount, at 1.35 GHz); on ttsim
from the host clock around the clocking loop, and its instruction counts
from the clock (one instruction per released core per clock).
"""
import argparse
import ctypes
import os
import re
import statistics
import subprocess
import sys
import time

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
sys.path.insert(0, os.path.join(HERE, "..", "scripts", "tenstorrent"))
from ttqtest import TTQemu  # noqa: E402
import ttgrid  # noqa: E402
import ttabi  # noqa: E402

# the P150's Tensix tiles, column-major (hw/tenstorrent/data/grid.yaml)
TILES = ttgrid.load().tiles("p150")
AICLK = 1.35e9
PARAMS, DONE_MAGIC = 0x8000, 0xd0e0d0e0


def _soft_reset():
    """SOFT_RESET_0's address and the value that releases BRISC alone.

    From the files the model is built from: DEBUG_REGS's base in
    hw/tenstorrent/data/tile-map.yaml, the register's offset, its BRISC
    field and the all-cores-held value in
    include/hw/tenstorrent/riscv-debug-regmap.h.
    """
    root = os.path.join(HERE, "..")
    with open(os.path.join(root, "hw", "tenstorrent", "data",
                           "tile-map.yaml")) as f:
        base = next(w["base"] for w in yaml.safe_load(f)["regions"]
                    if w["name"] == "DEBUG_REGS")
    with open(os.path.join(root, "include", "hw", "tenstorrent",
                           "riscv-debug-regmap.h")) as f:
        h = f.read()
    off = int(re.search(r"REG32\(SOFT_RESET_0, (0x[0-9a-fA-F]+)\)",
                        h).group(1), 16)
    brisc = int(re.search(r"FIELD\(SOFT_RESET_0, BRISC, (\d+), 1\)",
                          h).group(1))
    cores = int(re.search(r"#define TT_SOFT_RESET_CORES\s+(0x[0-9a-fA-F]+)",
                          h).group(1), 16)
    return base + off, cores & ~(1 << brisc)


SOFT_RESET_0, RELEASE_BRISC = _soft_reset()


def w1_instr(iters):
    return 17 * iters


def w2_instr(reps):
    return 5 * 65536 + reps * (19 * 16384 + 9)


class Bench:
    def __init__(self, build):
        self.build = os.path.abspath(build)
        self.qemu = os.path.join(self.build, "qemu", "qemu-system-riscv32")
        self.fw = os.path.join(self.build, "firmware")
        with open(os.path.join(self.build, "bench", "bench.bin"), "rb") as f:
            self.image = f.read()

    def ref(self, workload, count, seed):
        out = subprocess.run([os.path.join(self.build, "tt-bench-ref"),
                              workload, str(count), str(seed)],
                             capture_output=True, text=True, check=True)
        return int(out.stdout, 16)


# ---------------------------------------------------------------- ours --

def params_block(workload, count, seed):
    words = [workload, count, seed, 0, 0, 0, 0, 0, 0]
    return b"".join(w.to_bytes(4, "little") for w in words)


def qemu_workload(b, workload, count, tiles, cpus=None, extra=(),
                  pass_fds=(), before_release=None):
    """Returns (seconds, instructions, ok) for the workload on @tiles.

    @extra and @pass_fds go to QEMU; @before_release(q) runs once the
    images are loaded, before the BRISCs leave reset."""
    pre = ["taskset", "-c", cpus] if cpus else []
    q = TTQemu(b.qemu, "", extra=extra, wrapper=pre, pass_fds=pass_fds)
    seeds = {t: 0x1000 + i for i, t in enumerate(tiles)}
    for t in tiles:
        q.write(t[0], t[1], "brisc", 0, b.image)
        q.write(t[0], t[1], "brisc", PARAMS,
                params_block(1 if workload == "w1" else 2, count, seeds[t]))
    if before_release:
        before_release(q)
    for t in tiles:
        q.writel(t[0], t[1], "brisc", SOFT_RESET_0, RELEASE_BRISC)
    pending = set(tiles)
    while pending:
        pending = {t for t in pending
                   if q.readl(t[0], t[1], "brisc", PARAMS + 0x18)
                   != DONE_MAGIC}
        time.sleep(0.01)
    ok, starts, ends = True, [], []
    for t in tiles:
        blk = q.read(t[0], t[1], "brisc", PARAMS + 0xc, 24)
        csum, c0, c1, _, h0, h1 = (int.from_bytes(blk[i:i + 4], "little")
                                   for i in range(0, 24, 4))
        c0, c1 = c0 | h0 << 32, c1 | h1 << 32
        ok &= csum == b.ref(workload, count, seeds[t]) if t == tiles[0] \
            or len(tiles) < 20 or t == tiles[-1] else True
        starts.append(c0)
        ends.append(c1)
    q.close()
    secs = (max(ends) - min(starts)) / AICLK
    per = w1_instr(count) if workload == "w1" else w2_instr(count)
    return secs, per * len(tiles), ok


def qemu_startup(b, board):
    t0 = time.monotonic()
    q = TTQemu(b.qemu, "board=" + board)
    q.readl(1, 2, "brisc", 0)
    secs = time.monotonic() - t0
    rss = [ln for ln in open("/proc/%d/status" % q.proc.pid)
           if ln.startswith("VmRSS")][0].split()[1]
    q.close()
    return secs, int(rss) / 1024


def cpu_seconds(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def qemu_booted(b, idle_secs):
    """Boot the tt-test firmware on a P150: boot time, idle CPU, go latency."""
    q = TTQemu(b.qemu, "firmware=%s/boot,fw-layout=tt-test" % b.fw)
    for x, y in TILES:
        while q.readl(x, y, "brisc", 0x470) >> 24:
            time.sleep(0.005)
    t0s, t1s = [], []
    for x, y in TILES:
        t0s.append(q.readl(x, y, "brisc", 0x20018))
        t1s.append(q.readl(x, y, "brisc", 0x2001c))
    boot = (max((t1 - min(t0s)) % (1 << 32) for t1 in t1s)) / AICLK
    time.sleep(0.5)
    c0, w0 = cpu_seconds(q.proc.pid), time.monotonic()
    time.sleep(idle_secs)
    idle = (cpu_seconds(q.proc.pid) - c0) / (time.monotonic() - w0) * 100
    start, done = [], []
    for i in range(60):
        x, y = TILES[(i * 37) % 20]     # 20 tiles, each warm after round 1
        go = q.readl(x, y, "brisc", 0x470)
        t = time.monotonic()
        q.writel(x, y, "brisc", 0x470, (go & 0xffffff) | 0x80 << 24)
        while (q.readl(x, y, "brisc", 0x68) == 0 and
               q.readl(x, y, "brisc", 0x470) >> 24):
            pass
        t1 = time.monotonic()
        while q.readl(x, y, "brisc", 0x470) >> 24:
            pass
        if i >= 20:
            start.append(t1 - t)
            done.append(time.monotonic() - t)
    q.close()
    return (boot, idle, statistics.median(start) * 1e3,
            statistics.median(done) * 1e3)


def qemu_noc_all(b):
    out = subprocess.run([b.qemu, "-M", "blackhole,firmware=%s/bench-noc-all"
                          ".elf" % b.fw, "-semihosting-config",
                          "enable=on,target=native", "-display", "none",
                          "-monitor", "none", "-serial", "none"],
                         capture_output=True, text=True, timeout=600)
    for line in (out.stdout + out.stderr).splitlines():
        f = line.split()
        if len(f) == 4 and f[0] == "all-tiles":
            n, size, ticks = (int(v, 16) for v in f[1:])
            return n * size / (ticks / AICLK) / 1e9
    return None


# --------------------------------------------------------------- ttsim --

class TTSim:
    """ttsim through the libttsim ABI (TLBs: tt-isa-documentation
    BlackholeA0/PCIExpressTile/HostToDeviceTLBs.md)."""
    PCIE = ttabi.pcie()
    BAR0_TLB_CFG = PCIE["TT_TLB_CFG_BASE"]
    TLB_STRIDE = PCIE["TT_TLB_CFG_STRIDE"]
    WINDOW = 1 << PCIE["TT_TLB_2M_SHIFT"]

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        L = self.lib
        L.libttsim_pci_config_rd32.restype = ctypes.c_uint32
        L.libttsim_pci_config_rd32.argtypes = [ctypes.c_uint32] * 2
        for fn in (L.libttsim_pci_mem_rd_bytes, L.libttsim_pci_mem_wr_bytes):
            fn.argtypes = [ctypes.c_uint64, ctypes.c_void_p, ctypes.c_uint32]
        L.libttsim_clock.argtypes = [ctypes.c_uint32]
        cb = ctypes.CFUNCTYPE(None, ctypes.c_uint64, ctypes.c_void_p,
                              ctypes.c_uint32)
        self.cbs = (cb(self.no_dma), cb(self.no_dma))
        L.libttsim_set_pci_dma_mem_callbacks(*self.cbs)
        L.libttsim_init()
        if L.libttsim_pci_config_rd32(0, 0) != 0xb1401e52:
            raise RuntimeError("not a Blackhole (1e52:b140)")
        self.bar0 = (L.libttsim_pci_config_rd32(0, 0x14) << 32 |
                     (L.libttsim_pci_config_rd32(0, 0x10) & ~0xf))

    @staticmethod
    def no_dma(addr, buf, size):
        raise SystemExit("ttsim: unexpected DMA")

    def wr(self, addr, data):
        self.lib.libttsim_pci_mem_wr_bytes(addr, data, len(data))

    def rd32(self, addr):
        v = ctypes.c_uint32()
        self.lib.libttsim_pci_mem_rd_bytes(addr, ctypes.byref(v), 4)
        return v.value

    def window(self, i, x, y, local):
        v = (local >> 21) | x << 43 | y << 49
        cfg = self.bar0 + self.BAR0_TLB_CFG + self.TLB_STRIDE * i
        for k in range(3):
            self.wr(cfg + 4 * k,
                    ((v >> (32 * k)) & 0xffffffff).to_bytes(4, "little"))
        return self.bar0 + i * self.WINDOW + (local & (self.WINDOW - 1))

    def run(self, b, workload, count, tiles):
        seeds = {t: 0x1000 + i for i, t in enumerate(tiles)}
        for i, t in enumerate(tiles):
            base = self.window(i, t[0], t[1], 0)
            self.wr(base, b.image)
            self.wr(base + PARAMS, params_block(1 if workload == "w1" else 2,
                                                count, seeds[t]))
        for t in tiles:
            reg = self.window(200, t[0], t[1], 0xffa00000)
            self.wr(reg + (SOFT_RESET_0 - 0xffa00000),
                    RELEASE_BRISC.to_bytes(4, "little"))
        t0 = time.monotonic()
        pending = list(range(len(tiles)))
        while pending:
            self.lib.libttsim_clock(100000)
            pending = [i for i in pending
                       if self.rd32(self.bar0 + i * self.WINDOW + PARAMS +
                                    0x18) != DONE_MAGIC]
        secs = time.monotonic() - t0
        ok, instr = True, 0
        for i, t in enumerate(tiles[:3]):
            p = self.bar0 + i * self.WINDOW + PARAMS
            ok &= self.rd32(p + 0xc) == b.ref(workload, count, seeds[t])
        for i in range(len(tiles)):
            p = self.bar0 + i * self.WINDOW + PARAMS
            instr += (self.rd32(p + 0x14) - self.rd32(p + 0x10)) % (1 << 32)
        return secs, instr, ok


def ttsim_run(path, b, workload, count, ntiles):
    """One measurement per process: libttsim_init may run only once."""
    code = ("import sys; sys.path.insert(0, %r); import ttbench as t; "
            "b = t.Bench(%r); r = t.TTSim(%r).run(b, %r, %d, t.TILES[:%d]); "
            "print(*r)" % (HERE, b.build, path, workload, count, ntiles))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, timeout=3600)
    if out.returncode:
        return None
    secs, instr, ok = out.stdout.split()
    return float(secs), int(instr), ok == "True"


# ---------------------------------------------------------------- main --

def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--ttsim", default=os.environ.get("TTSIM_LIB"))
    ap.add_argument("--quick", action="store_true",
                    help="smaller workloads and a 2 s idle window")
    args = ap.parse_args()
    b = Bench(args.build)
    if args.ttsim and not os.path.exists(args.ttsim):
        sys.exit("ttbench: %s: no such file" % args.ttsim)
    k = 10 if args.quick else 1
    rows = []

    def row(name, unit, ours, theirs=None, higher_better=True):
        ratio = ""
        if ours is not None and theirs:
            ratio = "%.1fx" % (ours / theirs if higher_better
                               else theirs / ours)
        rows.append((name, unit, ours, theirs, ratio))

    def mips(res):
        if not res or not res[2]:
            return None
        return res[1] / res[0] / 1e6

    cases = [("W1 integer loop, 1 BRISC", "w1", 200000000 // k, 6000000 // k,
              1, None),
             ("W2 L1 copy loop, 1 BRISC", "w2", 3200 // k, 320 // k, 1, None),
             ("W1, 140 BRISCs, 2 host threads", "w1", 4000000 // k,
              1000000 // k, 140, "0,1"),
             ("W1, 140 BRISCs, 1 host thread", "w1", 4000000 // k, None,
              140, "0")]
    one_core = {}
    for name, w, n_ours, n_ttsim, tiles, cpus in cases:
        ours = mips(qemu_workload(b, w, n_ours, TILES[:tiles], cpus))
        theirs = None
        if args.ttsim and n_ttsim:
            theirs = mips(ttsim_run(args.ttsim, b, w, n_ttsim, tiles))
        row(name, "MIPS", ours, theirs)
        if tiles == 1:
            one_core[w] = ours
    # Guard: L1 stores run as fast as register work (0.9-1.0x when the
    # TLB is right; 0.16x when a small TLB thrashed, patch 0025)
    if one_core.get("w1") and one_core.get("w2"):
        ratio = one_core["w2"] / one_core["w1"]
        row("W2 / W1 on one BRISC (guard: >= 0.8)%s" %
            ("" if ratio >= 0.8 else " REGRESSED"), "ratio", ratio)
    for board in ("p150", "p100a"):
        secs, rss = qemu_startup(b, board)
        row("machine start-up, %s (RSS %.0f MB)" % (board, rss), "s", secs)
    boot, idle, start, done = qemu_booted(b, 2 if args.quick else 10)
    row("firmware boot, 140 tiles (release to all done)", "s", boot)
    row("booted P150 idle, 700 cores polling", "% of a core", idle)
    row("host go message to BRISC started (median)", "ms", start)
    row("host go message to 5 cores done (median)", "ms", done)
    row("NOC DRAM-to-L1 + L1-to-L1, all 140 tiles", "GB/s", qemu_noc_all(b))

    print("\n%-48s %-12s %12s %12s %8s" % ("workload", "unit", "ours",
                                          "ttsim", "ratio"))
    for name, unit, ours, theirs, ratio in rows:
        fmt = lambda v: "-" if v is None else "%.2f" % v  # noqa: E731
        print("%-48s %-12s %12s %12s %8s" % (name, unit, fmt(ours),
                                             fmt(theirs), ratio))
    if not args.ttsim:
        print("\n(ttsim column empty: set TTSIM_LIB to a locally built "
              "libttsim.so to measure it in the same run)")


if __name__ == "__main__":
    main()
