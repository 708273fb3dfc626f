#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Two chips of one process as two PCI devices, through the ten libttsim_*
functions alone (ttsim's multi-MMIO builds, tt-umd's BDF mode):

    libttsim-bdf.py LIB [REFERENCE_LIB]

LIB is a two-chip library (build/libttsim/p300/libttsim.so).  Device d of
bus 0 is chip d, its BARs at the single-chip bases plus d * 64 GiB; a
third device, or a function other than 0, is absent (all-ones); each
chip's TLB windows reach its own tiles.  With REFERENCE_LIB (ttsim's
bh_x2 build) the same program runs on it, in a child process, and every
value must be the same (but for libttsim_tile_rd_bytes, which ttsim's
multi-chip builds do not have).  Prints one line per check, "ok ..." or
"not ok ...", and exits 1 on a failure.
"""
import ctypes
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts", "tenstorrent"))
import ttabi  # noqa: E402
from tttap import ok, skip, done  # noqa: E402

# ttsim's ABI: device d's BARs at the bases + d * 64 GiB
ABI = ttabi.load("tools/libttsim/libttsim.h")
STRIDE = ABI["LIBTTSIM_DEVICE_STRIDE"]
BAR0, BAR2, BAR4 = (ABI["LIBTTSIM_BAR%d_BASE" % n] for n in (0, 2, 4))
PCIE = ttabi.pcie()
TLB_CFG = PCIE["TT_TLB_CFG_BASE"]       # window n's words at + stride n
TLB_STRIDE = PCIE["TT_TLB_CFG_STRIDE"]
WINDOW = 3                      # a 2 MiB window the test owns
TILE = (1, 2)
L1 = 0x30000


def stderr_of(fn):
    """what @fn() writes to file descriptor 2"""
    sys.stderr.flush()
    saved = os.dup(2)
    r, w = os.pipe()
    os.dup2(w, 2)
    os.close(w)
    try:
        fn()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
    out = b""
    os.set_blocking(r, False)
    try:
        out = os.read(r, 65536)
    except BlockingIOError:
        pass
    os.close(r)
    return out.decode(errors="replace")


def run(path, tile_rd=True):
    """
    The program on library @path: its observations, in order.  ttsim's
    multi-chip builds stop on libttsim_tile_rd_bytes (unsupported there):
    @tile_rd says whether to try it.
    """
    lib = ctypes.CDLL(path)
    lib.libttsim_pci_config_rd32.restype = ctypes.c_uint32
    lib.libttsim_pci_config_rd32.argtypes = [ctypes.c_uint32, ctypes.c_uint32]
    lib.libttsim_pci_config_wr32.argtypes = [ctypes.c_uint32, ctypes.c_uint32,
                                             ctypes.c_uint32]
    for f in ("libttsim_pci_mem_rd_bytes", "libttsim_pci_mem_wr_bytes"):
        getattr(lib, f).argtypes = [ctypes.c_uint64, ctypes.c_void_p,
                                    ctypes.c_uint32]
    lib.libttsim_tile_rd_bytes.argtypes = [ctypes.c_uint32, ctypes.c_uint32,
                                           ctypes.c_uint64, ctypes.c_void_p,
                                           ctypes.c_uint32]
    seen = []

    def cfg(bdf, off):
        return lib.libttsim_pci_config_rd32(bdf, off)

    def wr32(paddr, v):
        b = ctypes.c_uint32(v)
        lib.libttsim_pci_mem_wr_bytes(paddr, ctypes.byref(b), 4)

    def rd32(paddr):
        b = ctypes.c_uint32(0)
        lib.libttsim_pci_mem_rd_bytes(paddr, ctypes.byref(b), 4)
        return b.value

    lib.libttsim_init()
    for dev in (0, 1, 2, 31):
        seen.append(("id", dev, cfg(dev << 3, 0)))
    for dev in (0, 1):
        for off in range(0x10, 0x28, 4):
            seen.append(("bar", dev, off, cfg(dev << 3, off)))
        # BAR sizing on BAR0's low dword, then the base back
        base = cfg(dev << 3, 0x10)
        lib.libttsim_pci_config_wr32(dev << 3, 0x10, 0xFFFFFFFF)
        seen.append(("size", dev, cfg(dev << 3, 0x10)))
        lib.libttsim_pci_config_wr32(dev << 3, 0x10, base)
        seen.append(("restored", dev, cfg(dev << 3, 0x10)))
    # Each device's window WINDOW at TILE's L1, then a word per device
    for dev in (0, 1):
        bar0 = (cfg(dev << 3, 0x10) & ~0xF) | cfg(dev << 3, 0x14) << 32
        words = [L1 >> 21, TILE[0] << 11 | TILE[1] << 17, 1 << 6]
        for i, w in enumerate(words):
            wr32(bar0 + TLB_CFG + TLB_STRIDE * WINDOW + 4 * i, w)
        wr32(bar0 + (WINDOW << 21) + (L1 & 0x1FFFFF), 0xC0DE0000 | dev)
    for dev in (0, 1):
        bar0 = (cfg(dev << 3, 0x10) & ~0xF) | cfg(dev << 3, 0x14) << 32
        seen.append(("word", dev,
                     rd32(bar0 + (WINDOW << 21) + (L1 & 0x1FFFFF))))
    # libttsim_tile_rd_bytes: the first chip (none selected)
    if tile_rd:
        b = ctypes.c_uint32(0)
        lib.libttsim_tile_rd_bytes(TILE[0], TILE[1], L1, ctypes.byref(b), 4)
        seen.append(("tile_rd", b.value))
        # tt-umd resets ttsim's in-process switch when it opens a cluster:
        # the chips here are linked already, nothing to say on stderr
        seen.append(("switch_reset", stderr_of(lib.libttsim_switch_reset)))
    lib.libttsim_exit()
    return seen


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        print(json.dumps(run(sys.argv[2], tile_rd=False)))
        return 0
    ours = run(sys.argv[1])
    got = {tuple(v[:-1]): v[-1] for v in ours}
    ok(got[("id", 0)] == got[("id", 1)] == 0xB1401E52,
       "devices 0 and 1 are Blackhole functions (0x%08x, 0x%08x)"
       % (got[("id", 0)], got[("id", 1)]))
    ok(got[("id", 2)] == got[("id", 31)] == 0xFFFFFFFF,
       "devices 2 and 31 are absent (0x%08x, 0x%08x)"
       % (got[("id", 2)], got[("id", 31)]))
    for dev in (0, 1):
        bars = [got[("bar", dev, off)] for off in range(0x10, 0x28, 4)]
        want = []
        for base in (BAR0, BAR2, BAR4):
            base += dev * STRIDE
            want += [(base & 0xFFFFFFFF) | 4, base >> 32]
        ok(bars == want, "device %d's BARs at the bases + %d x 64 GiB, "
           "64-bit memory (%s)" % (dev, dev, " ".join("%08x" % v
                                                      for v in bars)))
        ok(got[("size", dev)] == 0xE0000004 and
           got[("restored", dev)] == want[0],
           "device %d: BAR0 sizes as 512 MiB (0x%08x) and its base comes "
           "back" % (dev, got[("size", dev)]))
    ok(got[("word", 0)] == 0xC0DE0000 and got[("word", 1)] == 0xC0DE0001,
       "each device's TLB window reaches its own chip's L1 (0x%08x, 0x%08x)"
       % (got[("word", 0)], got[("word", 1)]))
    ok(got[("tile_rd",)] == 0xC0DE0000,
       "libttsim_tile_rd_bytes reads the first chip (0x%08x)"
       % got[("tile_rd",)])
    ok(got[("switch_reset",)] == "",
       "libttsim_switch_reset() is silent on a cluster library (%r)"
       % got[("switch_reset",)][:80])
    if len(sys.argv) >= 3:
        # the reference in a process of its own: one library per process
        ref = subprocess.run([sys.executable, sys.argv[0], "--child",
                              sys.argv[2]], capture_output=True, text=True,
                             timeout=600)
        try:
            theirs = [tuple(v) for v in json.loads(
                ref.stdout.strip().splitlines()[-1])]
        except (ValueError, IndexError):
            theirs = None
            print("# reference output: %r %r" % (ref.stdout[-500:],
                                                 ref.stderr[-500:]))
        ours_t = [tuple(v) for v in ours
                  if v[0] not in ("tile_rd", "switch_reset")]
        diff = [(a, b) for a, b in zip(ours_t, theirs or [])
                if a != b]
        ok(theirs is not None and len(theirs) == len(ours_t) and not diff,
           "the reference library gives the same %d values%s"
           % (len(ours_t), "" if not diff else ": first difference %r"
              % (diff[0],)))
    else:
        skip("the same program on ttsim's bh_x2",
             "no reference library given (TTSIM_X2_LIB)")
    return done()


if __name__ == "__main__":
    sys.exit(main())
