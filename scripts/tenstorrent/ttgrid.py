#!/usr/bin/env python3
"""Read and check hw/tenstorrent/data/grid.yaml, the Blackhole NOC grid.

The one reader of the grid data: gen-grid.py turns it into C for the
emulator, and the benchmarks (bench/ttbench.py) import it for the tile
list.  load() fails (GridError) on malformed data: coordinates outside
the grid, two nodes on one coordinate, Tensix rows that are not
consecutive, a harvesting order that is not a permutation of the
columns, a board naming a PCIe endpoint or a column or bank that does
not exist.
"""
import os

import yaml

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                    "hw", "tenstorrent", "data", "grid.yaml")


class GridError(Exception):
    pass


class Grid:
    """The grid's facts, as plain lists and tuples."""

    def __init__(self, data, raw):
        self.raw = raw
        self.revision = data.get("revision", "no revision")
        self.width, self.height = data["size"]
        t = data["tensix"]
        self.tensix_cols = list(t["columns"])
        self.tensix_rows = list(t["rows"])
        self.harvest_order = list(t["harvest_order"])
        d = data["dram"]
        self.dram_ports = [[tuple(p) for p in b] for b in d["ports"]]
        self.dram_bank_port = [tuple(p) for p in d["bank_port"]]
        self.eth = [tuple(p) for p in data["eth"]]
        self.arc = tuple(data["arc"])
        self.security = tuple(data["security"])
        self.l2cpu = [tuple(p) for p in data["l2cpu"]]
        self.pcie = [tuple(p) for p in data["pcie"]]
        self.virt_dram = tuple(data["translated"]["dram"])
        self.virt_pcie = tuple(data["translated"]["pcie"])
        self.virt_eth = tuple(data["translated"]["eth"])
        # sizes for the SoC descriptors (gen-soc-descriptor.py)
        self.soc = dict(data.get("soc_descriptor", {}))
        self.boards = []
        for b in data["boards"]:
            bank = b["harvested_dram_bank"]
            self.boards.append({
                "name": b["name"], "pcie": b["pcie"],
                "harvested_columns": list(b["harvested_columns"]),
                "harvested_dram_bank": None if bank == "none" else bank,
                "harvested_eth": list(b.get("harvested_eth", []))})

    def board(self, name):
        for b in self.boards:
            if b["name"] == name:
                return b
        raise GridError("no board %r" % name)

    def tiles(self, board="p150"):
        """Physical (x, y) of the board's Tensix tiles, column-major."""
        off = self.board(board)["harvested_columns"]
        return [(x, y) for x in self.tensix_cols if x not in off
                for y in self.tensix_rows]


def _fail(msg):
    raise GridError("grid.yaml: " + msg)


def _check(g):
    if not (0 < g.width <= 64 and 0 < g.height <= 64):
        _fail("grid size outside the 6-bit NOC coordinates")
    used = {}

    def place(what, xy):
        x, y = xy
        if not (0 <= x < g.width and 0 <= y < g.height):
            _fail("%s at (%d, %d) is outside the grid" % (what, x, y))
        if xy in used:
            _fail("%s and %s both at (%d, %d)" % (used[xy], what, x, y))
        used[xy] = what

    if sorted(set(g.tensix_cols)) != g.tensix_cols:
        _fail("Tensix columns must ascend without repeats")
    if g.tensix_rows != list(range(g.tensix_rows[0],
                                   g.tensix_rows[0] + len(g.tensix_rows))):
        _fail("Tensix rows must be consecutive")
    if sorted(g.harvest_order) != g.tensix_cols:
        _fail("harvest_order must list each Tensix column once")
    for x in g.tensix_cols:
        for y in g.tensix_rows:
            place("Tensix", (x, y))
    nports = len(g.dram_ports[0])
    for i, ports in enumerate(g.dram_ports):
        if len(ports) != nports:
            _fail("DRAM bank %d has %d ports, bank 0 %d" % (i, len(ports),
                                                             nports))
        if len({p[0] for p in ports}) != 1:
            _fail("DRAM bank %d's ports are not in one column" % i)
        for j, p in enumerate(ports):
            place("DRAM bank %d port %d" % (i, j), p)
    if len(g.dram_bank_port) != len(g.dram_ports) or \
       any(len(p) != 2 or not all(0 <= n < nports for n in p)
           for p in g.dram_bank_port):
        _fail("bank_port needs [NOC0, NOC1] ports for every bank")
    for i, p in enumerate(g.eth):
        place("ETH %d" % i, p)
    place("ARC", g.arc)
    place("security", g.security)
    for i, p in enumerate(g.l2cpu):
        place("L2CPU %d" % i, p)
    for i, p in enumerate(g.pcie):
        place("PCIe %d" % i, p)
    names = set()
    for b in g.boards:
        if b["name"] in names or not b["name"].isidentifier():
            _fail("board %r: duplicate or invalid name" % b["name"])
        names.add(b["name"])
        if not 0 <= b["pcie"] < len(g.pcie):
            _fail("board %s: no PCIe endpoint %d" % (b["name"], b["pcie"]))
        if any(x not in g.tensix_cols for x in b["harvested_columns"]) or \
           len(b["harvested_columns"]) >= len(g.tensix_cols):
            _fail("board %s: bad harvested columns" % b["name"])
        bank = b["harvested_dram_bank"]
        if bank is not None and not 0 <= bank < len(g.dram_ports):
            _fail("board %s: no DRAM bank %s" % (b["name"], bank))
        if any(not 0 <= c < len(g.eth) for c in b["harvested_eth"]):
            _fail("board %s: no such Ethernet channel" % b["name"])
    if not g.boards:
        _fail("no boards")


def load(path=DATA):
    raw = open(path, "rb").read()
    try:
        g = Grid(yaml.safe_load(raw), raw)
    except (KeyError, TypeError, ValueError) as e:
        _fail("malformed: %r" % e)
    _check(g)
    return g
