#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One source per constant: the values of the shared ABI headers and data
files below are typed there and nowhere else in the project's code (C,
Python, shell, assembler); every other file includes the header or reads it
(scripts/tenstorrent/ttabi.py).  Prints TAP; a constant typed again fails
with the files that have it.  Likewise the TAP output of the Python tests:
scripts/tenstorrent/tttap.py defines ok(), no test its own.

    one-source-test.py [PROJECT_DIR]
"""
import os
import re
import sys

import yaml

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "tenstorrent"))
import ttabi  # noqa: E402
import tttap  # noqa: E402

# (header, constant): distinctive values only; small numbers are not
# searchable
CHECKED = [
    ("pcie-host.yaml", "TT_TLB_CFG_BASE"),
    ("pcie-host.yaml", "TT_NOC2AXI_BASE"),
    ("pcie-host.yaml", "TT_PCIE_ARC_APB_BASE"),
    ("tools/libttsim/libttsim.h", "LIBTTSIM_BAR0_BASE"),
    ("tools/libttsim/libttsim.h", "LIBTTSIM_BAR2_BASE"),
    ("tools/libttsim/libttsim.h", "LIBTTSIM_BAR4_BASE"),
    ("tools/libttsim/libttsim.h", "LIBTTSIM_DEVICE_STRIDE"),
]
DIRS = ("hw", "include", "target", "tools", "firmware", "tests", "bench",
        "scripts")
EXTS = (".c", ".h", ".py", ".sh", ".S", ".inc")


def files():
    for d in DIRS:
        for top, _, names in os.walk(os.path.join(ROOT, d)):
            for n in names:
                if n.endswith(EXTS):
                    yield os.path.join(top, n)


def header_path(h):
    if h.endswith(".yaml"):
        return os.path.join(ROOT, "hw", "tenstorrent", "data", h)
    return os.path.normpath(os.path.join(
        ROOT, h if "/" in h else os.path.join("include", "hw", "tenstorrent",
                                              h)))


sources = {p: open(p, errors="replace").read() for p in files()}
for header, name in CHECKED:
    value = (ttabi.pcie() if header.endswith(".yaml") else
             ttabi.load(header))[name]
    lit = re.compile(r"\b0x0*%x(?:[uU]?[lL]{0,2})?\b" % value, re.I)
    home = header_path(header)
    typed = sorted(os.path.relpath(p, ROOT) for p, text in sources.items()
                   if os.path.normpath(p) != home and lit.search(text))
    tttap.ok(not typed, "%s (0x%x) is typed only in %s%s" % (
        name, value, header, "; also in " + ", ".join(typed) if typed else ""))
# A Tensix tile's reset and debug registers as a NOC access reaches them:
# the tile map's block (tile-map.yaml) plus the model's offset
# (riscv-debug-regmap.h).  Host tools take them from tt-host.h; tests
# may type the documented values they expect, so test sources are left
# out here.
blocks = {r["name"]: r["base"] for r in yaml.safe_load(open(os.path.join(
    ROOT, "hw", "tenstorrent", "data", "tile-map.yaml")))["regions"]}
regs = ttabi.load("riscv-debug-regmap.h")
TILE_REGS = [("DEBUG_REGS", r) for r in (
    "SOFT_RESET_0", "TRISC0_RESET_PC", "TRISC_RESET_PC_OVERRIDE",
    "NCRISC_RESET_PC", "NCRISC_RESET_PC_OVERRIDE")] + [
    ("PIC", "PC_READBACK_BRISC")]
not_tests = {p: t for p, t in sources.items()
             if not os.path.relpath(p, ROOT).startswith("tests/") and
             not re.search(r"-test\.\w+$", p)}
for block, reg in TILE_REGS:
    value = blocks[block] + regs["A_" + reg]
    lit = re.compile(r"\b0x0*%x(?:[uU]?[lL]{0,2})?\b" % value, re.I)
    typed = sorted(os.path.relpath(p, ROOT) for p, text in not_tests.items()
                   if lit.search(text))
    tttap.ok(not typed, "%s (0x%x, %s + A_%s) is typed in no tool or model "
             "source%s" % (reg, value, block, reg,
                           "; typed in " + ", ".join(typed) if typed else ""))
# The Tensix tile's register blocks (tile-map.yaml): tools, firmware,
# benchmarks and scripts take them from tt-tile-map.h.  The model's
# comments cite them as documentation, so hw/ and include/ are left out;
# so is the LDM, whose linker scripts and start-up code cannot include C.
TILE_BLOCKS = ("NIU0", "NIU1", "NOC_OVERLAY", "MOP_CFG", "TENSIX_GPR",
               "INSTRN_BUF", "PC_BUF", "TENSIX_CFG")
users = {p: t for p, t in not_tests.items()
         if os.path.relpath(p, ROOT).split(os.sep)[0] in
         ("tools", "firmware", "bench", "scripts")}
for block in TILE_BLOCKS:
    lit = re.compile(r"\b0x0*%x(?:[uU]?[lL]{0,2})?\b" % blocks[block], re.I)
    typed = sorted(os.path.relpath(p, ROOT) for p, text in users.items()
                   if lit.search(text))
    tttap.ok(not typed, "the tile's %s block (0x%x) is typed in no tool, "
             "firmware, benchmark or script%s" % (
                 block, blocks[block],
                 "; typed in " + ", ".join(typed) if typed else ""))
tap_home = os.path.join(ROOT, "scripts", "tenstorrent", "tttap.py")
own_ok = sorted(os.path.relpath(p, ROOT) for p, text in sources.items()
                if p.endswith(".py") and os.path.normpath(p) != tap_home and
                re.search(r"^\s*def ok\(|print\(\s*\"%s ?(ok|%d)", text,
                          re.M))
tttap.ok(not own_ok, "the Python tests print TAP through tttap.py%s" % (
    "; their own ok() in " + ", ".join(own_ok) if own_ok else ""))
sys.exit(tttap.done())
