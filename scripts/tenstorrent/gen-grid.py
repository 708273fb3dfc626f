#!/usr/bin/env python3
"""Generate the NOC grid header from hw/tenstorrent/data/grid.yaml.

    gen-grid.py INPUT.yaml OUTPUT.h

Sizes as macros (TT_GRID_W, TT_TENSIX_COLS, TT_DRAM_PORTS, ...) and each
table as an initializer macro (TT_GRID_<TABLE>_INIT) that grid.c and the
qtest helpers define their arrays with, so the header holds no objects.
The data is read and checked by ttgrid.py; malformed data fails the
build.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttgen  # noqa: E402
import ttgrid  # noqa: E402


def xy(p):
    return "{ %d, %d }" % p


def init(name, items):
    return "#define TT_GRID_%s_INIT { %s }" % (name, ", ".join(items))


def main():
    src, dst = sys.argv[1], sys.argv[2]
    try:
        g = ttgrid.load(src)
    except ttgrid.GridError as e:
        sys.exit("gen-grid: error: %s" % e)
    out = ttgen.c_header_start(__file__, src, g.raw, g.revision,
                               "TT_GRID_DATA_H") + [
        "#define TT_GRID_W %d" % g.width,
        "#define TT_GRID_H %d" % g.height,
        "#define TT_TENSIX_COLS %d" % len(g.tensix_cols),
        "#define TT_TENSIX_ROWS %d" % len(g.tensix_rows),
        "#define TT_TENSIX_Y0 %d" % g.tensix_rows[0],
        "#define TT_DRAM_BANKS %d" % len(g.dram_ports),
        "#define TT_DRAM_PORTS %d" % len(g.dram_ports[0]),
        "#define TT_GRID_DRAM_BANK_SIZE 0x%xull" % g.soc["dram_bank_size"],
        "#define TT_ETH_CHANNELS %d" % len(g.eth),
        "#define TT_L2CPUS %d" % len(g.l2cpu),
        "#define TT_PCIE_TILES %d" % len(g.pcie),
        "#define TT_GRID_BOARDS %d" % len(g.boards),
        "#define TT_GRID_ARC_X %d" % g.arc[0],
        "#define TT_GRID_ARC_Y %d" % g.arc[1],
        "#define TT_GRID_SECURITY_X %d" % g.security[0],
        "#define TT_GRID_SECURITY_Y %d" % g.security[1],
        "#define TT_VIRT_DRAM_X0 %d" % g.virt_dram[0],
        "#define TT_VIRT_DRAM_Y0 %d" % g.virt_dram[1],
        "#define TT_VIRT_PCIE_X %d" % g.virt_pcie[0],
        "#define TT_VIRT_PCIE_Y %d" % g.virt_pcie[1],
        "#define TT_VIRT_ETH_X0 %d" % g.virt_eth[0],
        "#define TT_VIRT_ETH_Y %d" % g.virt_eth[1],
        "",
        "/* uint8_t [TT_TENSIX_COLS] */",
        init("TENSIX_COLS", ["%d" % x for x in g.tensix_cols]),
        init("HARVEST_ORDER", ["%d" % x for x in g.harvest_order]),
        "/* TTGridXY [TT_DRAM_BANKS][TT_DRAM_PORTS] */",
        init("DRAM_PORTS", ["{ %s }" % ", ".join(xy(p) for p in b)
                            for b in g.dram_ports]),
        "/* uint8_t [TT_DRAM_BANKS][2] */",
        init("DRAM_BANK_PORT", ["{ %d, %d }" % p for p in g.dram_bank_port]),
        "/* TTGridXY [TT_ETH_CHANNELS], [TT_L2CPUS], [TT_PCIE_TILES] */",
        init("ETH", [xy(p) for p in g.eth]),
        init("L2CPU", [xy(p) for p in g.l2cpu]),
        init("PCIE", [xy(p) for p in g.pcie]),
        "",
        "/* boards, in data order; TTGridBoard [TT_GRID_BOARDS] */",
    ]
    for i, b in enumerate(g.boards):
        out.append("#define TT_GRID_BOARD_%s %d" % (b["name"].upper(), i))
    boards = []
    for b in g.boards:
        mask = 0
        for x in b["harvested_columns"]:
            mask |= 1 << x
        bank = b["harvested_dram_bank"]
        eth = 0
        for c in b["harvested_eth"]:
            eth |= 1 << c
        boards.append('{ "%s", %d, 0x%xu, %d, 0x%xu }' % (
            b["name"], b["pcie"], mask, -1 if bank is None else bank, eth))
    out += [init("BOARDS", boards), "", "#endif", ""]
    with open(dst, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
