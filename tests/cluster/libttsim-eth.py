#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An ERISC program across the two chips of a libttsim library, through
the PCI functions alone:

    libttsim-eth.py LIB [REFERENCE_LIB]

The host finds a linked pair of Ethernet tiles from their base-firmware
results, loads tests/firmware/eth-bench.elf into both through TLB
windows, starts E0 through the tile's reset PC and soft-reset registers,
and waits for the measuring end's result: 1000 ping-pongs, then 64 MiB
of TT-link L1 writes at each of four sizes, each acknowledged by the
receiver (scripts/tenstorrent/ttchips.py).  With REFERENCE_LIB (ttsim's
bh_x2 build) the same program runs there, in a child process, and must
end the same way (its chips are wired on other channels).  Prints "ok
..." or "not ok ..." per check; exit 1 on a failure.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts", "tenstorrent"))
import ttchips  # noqa: E402
from tttap import ok, skip, done  # noqa: E402

FW = os.path.join(ROOT, "build", "firmware", "eth-bench.elf")


def check(ok, name, got):
    if not ok("error" not in got, "%s: the program ends (%s)" % (
            name, got.get("error", "%.2f s" % got.get("seconds", 0)))):
        return
    (c0, ch0), (c1, ch1) = got["pair"]
    res = got["results"]
    ok(c0 == 0 and c1 == 1, "%s: chip 0 channel %d and chip 1 channel %d "
       "are the two ends of one link" % (name, ch0, ch1))
    ok(res[5] == 1000 and res[6] == 64 << 20 and all(res[:5]),
       "%s: 1000 ping-pongs and 4 x 64 MiB of L1 writes, each phase timed "
       "(%s)" % (name, " ".join(str(v) for v in res)))


def main():
    fw = os.environ.get("TT_ETH_BENCH_ELF", FW)
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        print(json.dumps(ttchips.eth_bench(sys.argv[2], fw)))
        return 0
    for i, lib in enumerate(sys.argv[1:3]):
        # one library per process: the reference in a child, ours too
        r = subprocess.run([sys.executable, sys.argv[0], "--child", lib],
                           capture_output=True, text=True, timeout=900)
        try:
            got = json.loads(r.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            got = {"error": "exit %d: %s" % (r.returncode,
                                             r.stderr.strip()[-300:])}
        check(ok, "ours" if i == 0 else "reference", got)
    if len(sys.argv) < 3:
        skip("the same program on ttsim's bh_x2",
             "no reference library given (TTSIM_X2_LIB)")
    return done()


if __name__ == "__main__":
    sys.exit(main())
