#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One source per constant: the values of the shared ABI headers below are
typed there and nowhere else in the project's code (C, Python, shell,
assembler); every other file includes the header or reads it
(scripts/tenstorrent/ttabi.py).  Prints TAP; a constant typed again fails
with the files that have it.

    one-source-test.py [PROJECT_DIR]
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "tenstorrent"))
import ttabi  # noqa: E402

# (header, constant): distinctive values only; small numbers are not
# searchable
CHECKED = [
    ("pcie-host-abi.h", "TT_TLB_CFG_BASE"),
    ("tools/libttsim/libttsim.h", "LIBTTSIM_BAR0_BASE"),
    ("tools/libttsim/libttsim.h", "LIBTTSIM_BAR2_BASE"),
    ("tools/libttsim/libttsim.h", "LIBTTSIM_BAR4_BASE"),
    ("tools/libttsim/libttsim.h", "LIBTTSIM_DEVICE_STRIDE"),
]
DIRS = ("hw", "include", "target", "tools", "tests", "bench", "scripts")
EXTS = (".c", ".h", ".py", ".sh", ".S", ".inc")


def files():
    for d in DIRS:
        for top, _, names in os.walk(os.path.join(ROOT, d)):
            for n in names:
                if n.endswith(EXTS):
                    yield os.path.join(top, n)


def header_path(h):
    return os.path.normpath(os.path.join(
        ROOT, h if "/" in h else os.path.join("include", "hw", "tenstorrent",
                                              h)))


n = failed = 0
sources = {p: open(p, errors="replace").read() for p in files()}
for header, name in CHECKED:
    value = ttabi.load(header)[name]
    lit = re.compile(r"\b0x0*%x(?:[uU]?[lL]{0,2})?\b" % value, re.I)
    home = header_path(header)
    typed = sorted(os.path.relpath(p, ROOT) for p, text in sources.items()
                   if os.path.normpath(p) != home and lit.search(text))
    n += 1
    failed += bool(typed)
    print("%sok %d - %s (0x%x) is typed only in %s%s" % (
        "not " if typed else "", n, name, value, header,
        "; also in " + ", ".join(typed) if typed else ""))
print("1..%d" % n)
sys.exit(1 if failed else 0)
