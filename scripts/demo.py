#!/usr/bin/env python3
"""Demo: boot a full P150 with the project's demo firmware and verify it.

Every core of every Tensix tile computes a checksum (1,000,000 rounds of
xorshift32, seeded by its tile's NOC coordinates and its role) and BRISC
reports the tile done through the tt-metal go message.  This script starts
the machine, waits for all 140 tiles, recomputes all 700 checksums itself
and compares them.
"""
import argparse
import subprocess
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from ttqtest import TTQemu  # noqa: E402

ROLES = ["brisc", "ncrisc", "trisc0", "trisc1", "trisc2"]
COLS = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16]
GO_MSG, RESULT, RESULT_TILE = 0x470, 0x20000, 0x20014
WORK = 1000000


def checksums(checker, pairs):
    """Reference checksums from tools/tt-demo-checksum.c (same algorithm)."""
    inp = "".join("%d %d %d\n" % (i, r, WORK) for i, r in pairs)
    out = subprocess.run([checker], input=inp, capture_output=True,
                         text=True, check=True).stdout.split()
    return [int(v, 16) for v in out]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--qemu", required=True)
    ap.add_argument("--firmware", required=True, help="demo firmware dir")
    ap.add_argument("--checker", required=True,
                    help="tt-demo-checksum binary (tools/)")
    args = ap.parse_args()

    print("Booting a P150 (140 Tensix tiles, 700 RISC-V cores) with %s"
          % args.firmware)
    t0 = time.monotonic()
    q = TTQemu(args.qemu, "firmware=%s,fw-layout=tt-test" % args.firmware)
    pending = {(x, y) for x in COLS for y in range(2, 12)}
    while pending:
        pending = {t for t in pending
                   if q.readl(t[0], t[1], "brisc", GO_MSG) >> 24 != 0}
        if time.monotonic() - t0 > 900:
            print("FAIL: %d tiles never reported done" % len(pending))
            q.close()
            return 1
        time.sleep(0.05)
    elapsed = time.monotonic() - t0
    results = {}
    for x in COLS:
        for y in range(2, 12):
            tile_id = q.readl(x, y, "brisc", RESULT_TILE)
            results[(x, y)] = (tile_id, [q.readl(x, y, r, RESULT + 4 * i)
                                         for i, r in enumerate(ROLES)])
    q.close()
    print("All 140 tiles reported RUN_MSG_DONE after %.2f s of host time "
          "(%.1f G instructions of work)." % (elapsed, 700 * WORK * 8 / 1e9))
    print("Verifying 700 checksums on the host ...")
    bad = 0
    tiles = sorted(results)
    want = checksums(args.checker, [((y << 6) | x, i) for x, y in tiles
                                    for i in range(5)])
    for n, (x, y) in enumerate(tiles):
        tile_id, got = results[(x, y)]
        if tile_id != (y << 6) | x:
            print("x%dy%d: reported tile id 0x%x" % (x, y, tile_id))
            bad += 1
            continue
        for i, r in enumerate(ROLES):
            if got[i] != want[n * 5 + i]:
                print("x%dy%d-%s: wrong checksum 0x%08x" % (x, y, r, got[i]))
                bad += 1
    if bad:
        print("FAIL: %d wrong results" % bad)
        return 1
    print("PASS: 700 of 700 cores computed the right checksum; "
          "e.g. x1y2-brisc = 0x%08x" % results[(1, 2)][1][0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
