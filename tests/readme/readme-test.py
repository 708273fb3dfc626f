#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""README.rst's commands, run as written, in README order.

    readme-test.py PROJECT_DIR

Every literal block of README.rst (a paragraph ending in "::", then
indented lines) is a shell script run from the project directory with
"sh -e", after the project is built, with TMPDIR pointing to a directory
of the test's own (tools/tt-cluster keeps its state there).  A block must
exit 0 within its time limit; what it prints must show that it did its
work (CHECKS below, by the block's first command).  Left out, saying why:
"make demo" and "make check" (the demo suite runs the first, and this test
runs inside the second), and blocks that name a path only the user has
(DIR).  The gdb block attaches to a machine started as the README says
(-s -S); its input is closed, so gdb ends after its commands.  Files a
block writes into the project directory (in.bin, prog.tt) are removed
afterwards.  Prints TAP.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "tenstorrent"))
import tttap  # noqa: E402

# the block's first command -> what its output must show (every pattern)
CHECKS = [
    ("build/qemu/qemu-system-riscv32", [r"^ok \d+ ", r"^1\.\.\d+$"],
     "the firmware's TAP"),
    ("tools/tt-cluster start", [r"^all \d+ links up$",
                                r"^total \d+ MiB resident$"],
     "every link up and the chips' memory"),
    ("make", [r"slow dispatch.*: PASS$", r"fast dispatch.*: PASS$"],
     "PASS for both dispatch paths"),
    ("python3 tests/dispatch/gen-programs.py",
     [r"span\.tt: 2 cores and 2 ERISCs on 2 chips, .*: PASS$"],
     "PASS for the program across two chips"),
    ("gdb-multiarch", [r"x\d+y\d+-brisc", r"x\d+y\d+-trisc2"],
     "threads named after their tile and role"),
]
SKIP = [
    (r"^make (demo|check)$", "the suites run it (this test runs inside "
     "make check)"),
    (r"\bDIR\b", "needs a path only the user has (DIR)"),
]
LEFT_BEHIND = ["in.bin", "prog.tt"]


def blocks(text):
    """(line number, script) of each literal block"""
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        if lines[i].rstrip().endswith("::") and not lines[i].startswith(".."):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            body = []
            while j < len(lines) and (not lines[j].strip() or
                                      lines[j].startswith("  ")):
                body.append(lines[j][2:])
                j += 1
            script = "\n".join(body).strip("\n")
            if script:
                out.append((i + 2, script))
            i = j
        else:
            i += 1
    return out


def mem_gib():
    for line in open("/proc/meminfo"):
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) / (1 << 20)
    return 0


def run_gdb_block(script, env):
    """The machine the README's prose starts, then the block"""
    qemu = subprocess.Popen(
        [os.path.join(ROOT, "build", "qemu", "qemu-system-riscv32"), "-M",
         "blackhole,harvested-tensix-cols=2:3:4:5:6:7:10:11:12:13:14:15:16",
         "-display", "none", "-monitor", "none", "-serial", "none",
         "-s", "-S"], cwd=ROOT, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        return subprocess.run(["sh", "-e", "-c", script], cwd=ROOT, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=60)
    finally:
        qemu.kill()
        qemu.wait()


def main():
    if not os.path.exists(os.path.join(ROOT, "build", "qemu",
                                       "qemu-system-riscv32")):
        return tttap.skip_all("the README's build/ is not built here")
    text = open(os.path.join(ROOT, "README.rst")).read()
    tmp = tempfile.mkdtemp(prefix="readme-test-")
    env = dict(os.environ, TMPDIR=tmp)
    before = {f for f in LEFT_BEHIND if os.path.exists(os.path.join(ROOT, f))}
    try:
        for line, script in blocks(text):
            first = script.splitlines()[0]
            why = next((w for pat, w in SKIP if re.search(pat, script)), None)
            what = "README.rst:%d: %s" % (line, first)
            if why:
                tttap.skip(what, why)
                continue
            check = next((c for c in CHECKS if first.startswith(c[0])), None)
            if (first.startswith("gdb-multiarch") and
                    not shutil.which("gdb-multiarch")):
                tttap.skip(what, "gdb-multiarch not installed "
                           "(scripts/install-deps.sh)")
                continue
            if first.startswith("tools/tt-cluster") and mem_gib() < 6:
                tttap.skip(what, "a Galaxy wants 6 GiB of free memory, "
                           "%.1f GiB here" % mem_gib())
                continue
            if not check:
                tttap.ok(False, what + " (no check known for this block)")
                continue
            try:
                if first.startswith("gdb-multiarch"):
                    r = run_gdb_block(script, env)
                else:
                    r = subprocess.run(["sh", "-e", "-c", script], cwd=ROOT,
                                       env=env, stdin=subprocess.DEVNULL,
                                       capture_output=True, text=True,
                                       timeout=600)
            except subprocess.TimeoutExpired:
                tttap.ok(False, what + " (timed out)")
                continue
            out = r.stdout + r.stderr
            if not tttap.ok(r.returncode == 0 and
                            all(re.search(p, out, re.M) for p in check[1]),
                            "%s: exits 0 and shows %s" % (what, check[2])):
                tttap.diag("exit %d; last lines:\n%s" % (
                    r.returncode, "\n".join(out.splitlines()[-12:])))
    finally:
        for f in LEFT_BEHIND:
            if f not in before and os.path.exists(os.path.join(ROOT, f)):
                os.unlink(os.path.join(ROOT, f))
        # a cluster block that failed half-way leaves its QEMUs: stop them
        if os.path.isdir(os.path.join(tmp, "tt-cluster-" +
                                      os.environ.get("USER", "root"))):
            subprocess.run([os.path.join(ROOT, "tools", "tt-cluster"),
                            "stop"], cwd=ROOT, env=env,
                           capture_output=True, timeout=120)
        shutil.rmtree(tmp, ignore_errors=True)
    return tttap.done()


if __name__ == "__main__":
    sys.exit(main())
