#!/usr/bin/env python3
"""Generate the tile address-map header from hw/tenstorrent/data/tile-map.yaml.

    gen-tile-map.py INPUT.yaml OUTPUT.h

Two maps: the Tensix tile's (regions: TT_TILE_<NAME>_BASE/_SIZE and
tt_tile_map[]) and the Ethernet tile's (eth_regions: TT_ETH_<NAME>_BASE/_SIZE
and tt_eth_tile_map[]).

Fails on malformed data: missing fields, unknown models, misaligned or
overlapping regions, regions outside the 32-bit address space.
"""
import os
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttgen  # noqa: E402

MODELS = ("ram", "debug", "niu", "overlay", "tensix", "txrx", "none")


def fail(msg):
    sys.exit("gen-tile-map: error: " + msg)


def check(regions):
    seen = set()
    for r in regions:
        for k in ("name", "base", "size", "model", "noc"):
            if k not in r:
                fail("%s: missing '%s'" % (r.get("name", "?"), k))
        if r["model"] not in MODELS:
            fail("%s: unknown model '%s'" % (r["name"], r["model"]))
        if r["name"] in seen or not r["name"].isidentifier():
            fail("%s: duplicate or invalid name" % r["name"])
        seen.add(r["name"])
        if r["size"] <= 0 or r["base"] % 4 or r["size"] % 4 or \
           r["base"] + r["size"] > 1 << 32:
            fail("%s: bad base/size" % r["name"])
    ordered = sorted(regions, key=lambda r: r["base"])
    for a, b in zip(ordered, ordered[1:]):
        if a["base"] + a["size"] > b["base"]:
            fail("%s overlaps %s" % (a["name"], b["name"]))


def emit(out, regions, prefix, table):
    for r in regions:
        for field in ("base", "size"):
            out.append("#define %s_%s_%s 0x%08xu" % (
                prefix, r["name"], field.upper(), r[field]))
    out += ["", "static const TTTileRegion %s[] = {" % table]
    for r in regions:
        out.append('    { "%s", 0x%08xu, 0x%08xu, %s, %s },' % (
            r["name"], r["base"], r["size"],
            "false" if r["model"] == "none" else "true",
            "true" if r["noc"] else "false"))
    out += ["};", ""]


def main():
    src, dst = sys.argv[1], sys.argv[2]
    raw = open(src, "rb").read()
    data = yaml.safe_load(raw)
    regions = data.get("regions") or fail("no regions")
    eth = data.get("eth_regions") or fail("no eth_regions")
    check(regions)
    check(eth)
    out = ttgen.c_header_start(__file__, src, raw,
                               data.get("revision", "no revision"),
                               "TT_TILE_MAP_H") + [
        "#include <stdbool.h>",
        "#include <stdint.h>",
        "",
        "typedef struct TTTileRegion {",
        "    const char *name;",
        "    uint32_t base;",
        "    uint32_t size;",
        "    bool modelled;",
        "    bool noc;",
        "} TTTileRegion;",
        "",
    ]
    emit(out, regions, "TT_TILE", "tt_tile_map")
    emit(out, eth, "TT_ETH", "tt_eth_tile_map")
    out += ["#endif", ""]
    open(dst, "w").write("\n".join(out))


if __name__ == "__main__":
    main()
