# SPDX-License-Identifier: GPL-2.0-or-later
"""The constants of the project's plain-C ABI headers for Python tools and
tests, read from the headers themselves (the one source):

    import ttabi
    regs = ttabi.load("riscv-debug-regmap.h")
    regs["A_SOFT_RESET_0"]

and the host-visible PCIe layout, by the names of the C header generated
from hw/tenstorrent/data/pcie-host.yaml:

    ttabi.pcie()["TT_TLB_CFG_BASE"]

Handles "#define NAME VALUE" where VALUE is a number (C suffixes u, ull
allowed), an earlier NAME, or an expression of those with + - * << >> and
parentheses, and QEMU's "REG32(NAME, OFFSET)" as A_NAME, as
hw/registerfields.h names it.
"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
INCLUDE = os.path.join(ROOT, "include", "hw", "tenstorrent")


def load(header):
    """
    {NAME: int}: the numeric #defines of include/hw/tenstorrent/@header, or
    of @header relative to the project's top directory if it has a '/'
    """
    path = os.path.join(ROOT if "/" in header else INCLUDE, header)
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = text.replace("\\\n", " ")
    consts = {}
    for name, value in re.findall(r"^#define[ \t]+(\w+)[ \t]+(.+)$", text,
                                  re.M):
        expr = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)[uUlL]*\b", r"\1", value)
        expr = re.sub(r"\b[A-Z_][A-Z0-9_]*\b",
                      lambda m: str(consts.get(m.group(0), m.group(0))), expr)
        if re.fullmatch(r"[0-9a-fA-Fx+\-*<>() \t]+", expr):
            consts[name] = int(eval(expr, {"__builtins__": {}}))
    for name, value in re.findall(r"^REG32\((\w+),\s*(0x[0-9a-fA-F]+|\d+)\)",
                                  text, re.M):
        consts["A_" + name] = int(value, 0)
    return consts


def pcie():
    """{NAME: int}: tt-pcie-host.h's constants, from pcie-host.yaml"""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "gen_pcie_host", os.path.join(HERE, "gen-pcie-host.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen.load(os.path.join(ROOT, "hw", "tenstorrent", "data",
                                 "pcie-host.yaml"))
