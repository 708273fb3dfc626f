#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generate the host-visible PCIe layout header from
hw/tenstorrent/data/pcie-host.yaml.

    gen-pcie-host.py INPUT.yaml OUTPUT.h

As a module, constants(path) gives Python the same names and values
(scripts/tenstorrent/ttabi.py: ttabi.pcie()).

Fails on malformed data: missing fields, windows that do not fill or
overflow their BAR, register blocks outside BAR0 or over the windows or
each other.
"""
import os
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttgen  # noqa: E402


def fail(msg):
    sys.exit("gen-pcie-host: error: " + msg)


def need(d, *keys):
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            fail("missing '%s'" % k)
        d = d[k]
    return d


def constants(data):
    """[(NAME, value, comment)] in header order, checked"""
    bars = need(data, "bars")
    if sorted(bars) != [0, 2, 4]:
        fail("bars must be 0, 2 and 4")
    c = [("TT_PCI_VENDOR_ID", need(data, "id", "vendor"), None),
         ("TT_PCI_DEVICE_ID", need(data, "id", "device"), None),
         ("TT_PCI_CLASS", need(data, "id", "class"), None)]
    for b in (0, 2, 4):
        c.append(("TT_PCIE_BAR%d_SIZE" % b, bars[b], None))
    used = {0: 0, 2: 0, 4: 0}
    total = 0
    for w in need(data, "tlb"):
        name, bar = need(w, "name"), need(w, "bar")
        count, shift = need(w, "count"), need(w, "shift")
        if bar not in used or used[bar]:
            fail("TLB %s: BAR %s taken or absent" % (name, bar))
        used[bar] = count << shift
        c += [("TT_TLB_%s_COUNT" % name, count, "BAR%d" % bar),
              ("TT_TLB_%s_SHIFT" % name, shift, None)]
        total += count
    c.append(("TT_TLB_COUNT", total, "window numbers, BAR0's first"))
    if used[4] != bars[4]:
        fail("the BAR4 windows do not fill BAR4")
    cfg = need(data, "bar0", "tlb_cfg")
    base, stride = need(cfg, "base"), need(cfg, "stride")
    strided = need(cfg, "strided_count")
    if total * stride + strided * 4 > need(cfg, "size"):
        fail("the TLB configuration registers overflow their block")
    c += [("TT_TLB_CFG_BASE", base, "window n: three words at base + 12 n"),
          ("TT_TLB_CFG_SIZE", cfg["size"], None),
          ("TT_TLB_CFG_STRIDE", stride, None),
          ("TT_TLB_STRIDED_COUNT", strided, None),
          ("TT_TLB_STRIDED_BASE", base + total * stride,
           "a strided-multicast word per window of the first 32")]
    niu = need(data, "bar0", "noc2axi")
    c += [("TT_NOC2AXI_BASE", need(niu, "base"), "the PCIe tile's NIUs"),
          ("TT_NOC2AXI_NIU0", niu["base"] + need(niu, "niu"), None),
          ("TT_NOC2AXI_NIU_STRIDE", need(niu, "niu_stride"), None),
          ("TT_NOC2AXI_NIU_SIZE", need(niu, "niu_size"), None)]
    arc = need(data, "bar0", "arc_apb")
    c += [("TT_PCIE_ARC_APB_BASE", need(arc, "base"), "PCIe 1 only"),
          ("TT_PCIE_ARC_APB_NOC", need(arc, "noc"), None)]
    # BAR0: the windows, then the blocks in order, none past the BAR
    blocks = [("2 MiB windows", 0, used[0]),
              ("TLB configuration", base, cfg["size"]),
              ("NOC2AXI", niu["base"], niu["niu"] + 2 * niu["niu_stride"]),
              ("ARC APB", arc["base"], bars[0] - arc["base"])]
    for (an, ab, asz), (bn, bb, _) in zip(blocks, blocks[1:]):
        if ab + asz > bb:
            fail("BAR0: %s overlaps %s" % (an, bn))
    if blocks[-1][1] >= bars[0]:
        fail("BAR0: ARC APB outside the BAR")
    dev = need(data, "bar2", "devctl")
    iatu = need(data, "bar2", "iatu")
    c += [("TT_DBI_DEVCTL", need(dev, "offset"), "BAR2: the DBI"),
          ("TT_DBI_DEVCTL_RESET", need(dev, "reset"), None),
          ("TT_IATU_BASE", need(iatu, "base"), "outbound iATU"),
          ("TT_IATU_STRIDE", need(iatu, "stride"), None),
          ("TT_IATU_REGIONS", need(iatu, "regions"), None),
          ("TT_IATU_REGS", need(iatu, "regs"), None)]
    if iatu["base"] + iatu["regions"] * iatu["stride"] > bars[2]:
        fail("the iATU overflows BAR2")
    edma = need(data, "bar2", "edma_rd")
    for i, reg in enumerate(("doorbell", "size", "sar_lo", "sar_hi",
                             "dar_lo", "dar_hi")):
        c.append(("TT_EDMA_RD_" + reg.upper(), need(edma, reg),
                  "eDMA read channel 0" if not i else None))
    return c


def load(path):
    """{NAME: value} of the data file at @path"""
    return {n: v for n, v, _ in constants(yaml.safe_load(open(path)))}


def main():
    src, dst = sys.argv[1], sys.argv[2]
    raw = open(src, "rb").read()
    data = yaml.safe_load(raw)
    out = ttgen.c_header_start(__file__, src, raw,
                               data.get("revision", "no revision"),
                               "TT_PCIE_HOST_H")
    for name, value, comment in constants(data):
        if comment:
            out.append("/* %s */" % comment)
        if name.endswith(("_COUNT", "_SHIFT", "_STRIDE", "_REGIONS",
                          "_REGS")) and value < 256:
            text = "%du" % value
        else:
            text = "0x%x%s" % (value, "ull" if value >= 1 << 32 or
                               name.startswith("TT_PCIE_BAR") else "u")
        out.append("#define %-24s %s" % (name, text))
    out += ["#define TT_NOC2AXI_NIU(n)        (TT_NOC2AXI_NIU0 + "
            "(n) * TT_NOC2AXI_NIU_STRIDE)",
            "", "#endif", ""]
    open(dst, "w").write("\n".join(out))


if __name__ == "__main__":
    main()
