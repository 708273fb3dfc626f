#!/usr/bin/env python3
"""The machine's trace events through QEMU's log and simple backends.

    trace-test.py BUILD_DIR SOURCE_DIR

Runs tests/firmware/tensix-test.c on one Tensix column twice: with the log
backend (-trace, stderr) and with the simple backend (a binary file, read
back with QEMU's scripts/simpletrace.py).  That firmware takes mutex 0 in
thread 0 and posts semaphore 0 through a TRISC's MMIO view, so both runs
must show those events with those values.

Then counts translations (QEMU's translate_block) of spin-test.c, which
runs the same code on the five cores of all 140 tiles, with tb-share on
and off: shared, the tiles translate one copy (tb_share_join shows a
group of all 140), unshared each its own.  share-test.c on two tiles,
which rewrites its code, must dissolve groups (tb_share_dissolve).
Prints TAP.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts", "tenstorrent"))
import tttap  # noqa: E402

ONE_COLUMN = "2:3:4:5:6:7:10:11:12:13:14:15:16"
EVENTS = ["tt_tensix_mutex", "tt_tensix_sem", "tt_tensix_exec"]


def run_qemu(build, extra, cwd=None, fw="tensix-test.elf",
             opts=",harvested-tensix-cols=" + ONE_COLUMN):
    cmd = [os.path.join(build, "qemu", "qemu-system-riscv32"), "-M",
           "blackhole,firmware=%s%s" %
           (os.path.join(build, "firmware", fw), opts),
           "-semihosting-config", "enable=on,target=native", "-display",
           "none", "-monitor", "none", "-serial", "none"] + extra
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                           cwd=cwd)


def check(cond, desc, detail=""):
    if not tttap.ok(cond, desc) and detail:
        tttap.diag(detail[:2000])


def main():
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        log = run_qemu(build, ["-trace", "tt_tensix_mutex", "-trace",
                               "tt_tensix_sem"], cwd=tmp)
        check(log.returncode == 0 and "tt_tensix_mutex x1y2 T0 mutex 0 "
              "taken 1" in log.stderr, "log backend: thread 0 takes mutex 0",
              log.stderr[-1500:])
        check("tt_tensix_sem x1y2 semaphore 0 = 1" in log.stderr,
              "log backend: the MMIO post sets semaphore 0 to 1")
        check(not [f for f in os.listdir(tmp) if f.startswith("trace-")],
              "log-only tracing leaves no simple-backend trace-PID file")
        events = os.path.join(tmp, "events")
        out = os.path.join(tmp, "trace.bin")
        with open(events, "w") as f:
            f.write("\n".join(EVENTS) + "\n")
        simple = run_qemu(build, ["-trace", "events=%s,file=%s" %
                                  (events, out)])
        check(simple.returncode == 0 and os.path.getsize(out) > 0,
              "simple backend writes a trace file", simple.stderr[-1500:])
        dec = subprocess.run(
            [sys.executable, os.path.join(build, "src", "scripts",
                                          "simpletrace.py"),
             os.path.join(src, "hw", "tenstorrent", "trace-events"), out],
            capture_output=True, text=True, timeout=300)
        lines = dec.stdout.splitlines()
        mutex = [l for l in lines if l.startswith("tt_tensix_mutex ")]
        check(dec.returncode == 0 and any(
            "thread=0x0 mutex=0x0 taken=0x1" in l for l in mutex),
              "simpletrace.py decodes the mutex event",
              dec.stderr[-800:] + "\n".join(mutex[:5]))
        execs = [l for l in lines if l.startswith("tt_tensix_exec ")]
        check(any("SETDMAREG" in l for l in execs) and
              any("ATGETM" in l for l in execs), "simpletrace.py decodes executed "
              "instructions (%d)" % len(execs), "\n".join(lines[:10]))
    check_tb_share(build)
    return tttap.done()


def check_tb_share(build):
    """translate_block and tb_share_* with shared translations on and off"""
    runs = {}
    for ts in ("on", "off"):
        r = run_qemu(build, ["-trace", "translate_block", "-trace",
                             "tb_share_*"], fw="spin-test.elf",
                     opts=",tb-share=" + ts)
        lines = r.stderr.splitlines()
        runs[ts] = (r.returncode,
                    sum(l.startswith("translate_block ") for l in lines),
                    [l for l in lines if l.startswith("tb_share_")])
    on, off = runs["on"], runs["off"]
    check(on[0] == 0 and off[0] == 0, "spin-test passes on 140 tiles with "
          "tb-share on and off")
    check(on[1] * 20 < off[1], "shared, 140 tiles translate at least 20 "
          "times fewer blocks (%d vs %d)" % (on[1], off[1]))
    check(any(l.endswith(" members 140") for l in on[2]) and not off[2],
          "a group of all 140 tiles' copies of a page; none with "
          "tb-share=off", "\n".join(on[2][-5:]))
    check(not [l for l in on[2] if l.startswith("tb_share_dissolve ")],
          "code nobody rewrites keeps its groups")
    r = run_qemu(build, ["-trace", "tb_share_dissolve"],
                 fw="share-test-2.elf",
                 opts=",harvested-tensix-cols=" + ONE_COLUMN)
    check(r.returncode == 0 and "tb_share_dissolve " in r.stderr,
          "code rewritten on two tiles dissolves their groups",
          r.stdout[-500:] + r.stderr[-500:])
    # a code buffer that fills during share-test.c on 140 tiles: the
    # flush ends every group and group keys start over
    r = run_qemu(build, ["-accel", "tcg,tb-size=8", "-trace", "tb_flush"],
                 fw="share-test.elf", opts="")
    check(r.returncode == 0 and "\ntb_flush" in "\n" + r.stderr,
          "share-test on 140 tiles passes across a tb_flush",
          r.stderr[-800:])


if __name__ == "__main__":
    sys.exit(main())
