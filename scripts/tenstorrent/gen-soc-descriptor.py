#!/usr/bin/env python3
"""Write a board's SoC descriptor, the YAML file tt-umd and tt-metal read
beside a simulator library (TT_UMD_SIMULATOR, TT_METAL_SIMULATOR), from
hw/tenstorrent/data/grid.yaml: the same grid the machine is built from.

    gen-soc-descriptor.py BOARD OUT [ARGS_OUT]

writes OUT for board BOARD (a grid.yaml board name) and, with ARGS_OUT,
the machine options that select that board (the library reads them when
TT_EMU_ARGS is unset).  Keys and their layout follow tt-umd's Blackhole
descriptors (tests/soc_descs/blackhole_140_arch.yaml): cores as "x-y" in
physical NOC0 coordinates; a harvested Tensix column and a harvested
GDDR bank are left out of the lists.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttgrid  # noqa: E402


def xy(p):
    return "%d-%d" % p


def flow(items, per_line=14, indent="   "):
    lines = []
    for i in range(0, len(items), per_line):
        lines.append(indent + ", ".join(items[i:i + per_line]) + ",")
    return "\n".join(lines)


def descriptor(g, name):
    b = g.board(name)
    off = b["harvested_columns"]
    workers = [(x, y) for y in g.tensix_rows for x in g.tensix_cols
               if x not in off]
    harvested = [(x, y) for y in g.tensix_rows for x in g.tensix_cols
                 if x in off]
    banks = [bank for i, bank in enumerate(g.dram_ports)
             if i != b["harvested_dram_bank"]]
    used = set(workers) | set(harvested) | set(g.eth) | {g.arc} | \
        {g.security} | set(g.l2cpu) | set(g.pcie)
    for bank in g.dram_ports:
        used |= set(bank)
    router = [(x, y) for y in range(g.height) for x in range(g.width)
              if (x, y) not in used]
    s = g.soc
    out = ["# Generated from hw/tenstorrent/data/grid.yaml (%s) by "
           "gen-soc-descriptor.py" % g.revision,
           "# for board=%s: do not edit." % name,
           "grid:", "  x_size: %d" % g.width, "  y_size: %d" % g.height, "",
           "arc:", "  [ %s ]" % xy(g.arc), "",
           "pcie:", "  [ %s ]" % xy(g.pcie[b["pcie"]]), "",
           "dram:", "  ["]
    for bank in banks:
        out.append("    [%s]," % ", ".join(xy(p) for p in bank))
    out += ["  ]", "",
            "eth:", "  [", flow([xy(p) for p in g.eth]), "  ]", "",
            "functional_workers:", "  [", flow([xy(p) for p in workers]),
            "  ]", "",
            "harvested_workers:", "  [" +
            ("" if not harvested else "\n" + flow([xy(p) for p in harvested]) +
             "\n ") + "]", "",
            "router_only:", "  [", flow([xy(p) for p in router]), "  ]", "",
            "security:", "  [ %s ]" % xy(g.security), "",
            "l2cpu:", "  [ %s ]" % ", ".join(xy(p) for p in g.l2cpu), "",
            "noc0_x_to_noc1_x:", "  [ %s ]" %
            ", ".join(str(g.width - 1 - x) for x in range(g.width)), "",
            "noc0_y_to_noc1_y:", "  [ %s ]" %
            ", ".join(str(g.height - 1 - y) for y in range(g.height)), "",
            "worker_l1_size:", "  %d" % s["worker_l1_size"], "",
            "dram_bank_size:", "  %d" % s["dram_bank_size"], "",
            "eth_l1_size:", "  %d" % s["eth_l1_size"], "",
            "arch_name: BLACKHOLE", "",
            "features:",
            "  unpacker:", "    version: 2",
            "    inline_srca_trans_without_srca_trans_instr: True",
            "  math:", "    dst_size_alignment: %d" % s["dst_size_alignment"],
            "  packer:", "    version: 2",
            "  overlay:", "    version: 2", ""]
    return "\n".join(out)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    g = ttgrid.load()
    name = sys.argv[1]
    with open(sys.argv[2], "w") as f:
        f.write(descriptor(g, name))
    if len(sys.argv) == 4:
        with open(sys.argv[3], "w") as f:
            f.write("-M blackhole,board=%s\n" % name)


if __name__ == "__main__":
    main()
