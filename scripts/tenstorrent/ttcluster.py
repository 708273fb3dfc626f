#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Multi-chip Blackhole topologies: the clusters of
hw/tenstorrent/data/clusters.yaml and tt-umd cluster descriptors, as a list
of chips (board id, asic location, ASIC id) and a list of Ethernet links
(chip, logical channel, chip, logical channel), checked.

tools/tt-cluster starts them; gen-cluster-files.py writes the files the
libttsim library reads beside itself for them.
"""
import os
import re

import yaml

import ttgrid

CLUSTERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "..", "hw", "tenstorrent", "data", "clusters.yaml")
BOARD = "p150"          # every chip of a cluster is P150-like (5, 8 fused)


class ClusterError(Exception):
    pass


def _int(v):
    return v if isinstance(v, int) else int(str(v), 0)


def parse_chip_links(chip, spec):
    """'0/1>8:0/1 ...' of chip @chip -> [(chip, a, peer, b), ...]"""
    links = []
    for part in spec.split():
        m = re.fullmatch(r"([\d/]+)>(\d+):([\d/]+)", part)
        if not m:
            raise ClusterError("chip %d: bad link list entry %r" %
                               (chip, part))
        local = [int(x) for x in m.group(1).split("/")]
        remote = [int(x) for x in m.group(3).split("/")]
        if len(local) != len(remote):
            raise ClusterError("chip %d: %r pairs %d channels with %d" %
                               (chip, part, len(local), len(remote)))
        peer = int(m.group(2))
        links += [(chip, a, peer, b) for a, b in zip(local, remote)]
    return links


def normalise(links):
    """Each link once, as (chip, chan, chip, chan) with the lower end first;
    a link given from both ends must agree."""
    seen = {}
    for a, ca, b, cb in links:
        key = tuple(sorted([(a, ca), (b, cb)]))
        seen[key] = True
    ends = {}
    for (x, y) in seen:
        for end, other in ((x, y), (y, x)):
            if end in ends and ends[end] != other:
                raise ClusterError(
                    "chip %d channel %d is linked to both chip %d channel "
                    "%d and chip %d channel %d" % (end + ends[end] + other))
            ends[end] = other
    return sorted((x[0], x[1], y[0], y[1]) for (x, y) in seen)


def load_named(name):
    data = yaml.safe_load(open(CLUSTERS))["clusters"]
    if name not in data:
        raise ClusterError("no cluster %r in clusters.yaml (have %s)" %
                           (name, ", ".join(sorted(data))))
    c = data[name]
    if "chips" in c:
        chips = [{"board_id": _int(ch["board_id"]),
                  "asic_location": ch["asic_location"]} for ch in c["chips"]]
        links = []
        for l in c["links"]:
            m = re.fullmatch(r"(\d+)\.(\d+)-(\d+)\.(\d+)", l)
            if not m:
                raise ClusterError("%s: bad link %r" % (name, l))
            links.append(tuple(int(x) for x in m.groups()))
    else:
        n = len(c["chip_links"])
        tray = c["tray_chips"]
        chips = [{"board_id": _int(c["board_id"]),
                  "asic_location": i % tray + 1} for i in range(n)]
        links = []
        raw = []
        for chip, spec in c["chip_links"].items():
            raw += parse_chip_links(int(chip), spec)
        # every link must be listed from both ends
        have = {(a, ca, b, cb) for a, ca, b, cb in raw}
        for a, ca, b, cb in raw:
            if (b, cb, a, ca) not in have:
                raise ClusterError(
                    "%s: chip %d channel %d lists chip %d channel %d, which "
                    "does not list it back" % (name, a, ca, b, cb))
        links = raw
    return chips, normalise(links)


def load_descriptor(path):
    d = yaml.safe_load(open(path))
    for key in ("arch", "ethernet_connections"):
        if key not in d:
            raise ClusterError("%s: not a cluster descriptor (no %s)" %
                               (path, key))
    ids = sorted(int(k) for k in d["arch"])
    if ids != list(range(len(ids))):
        raise ClusterError("%s: chip ids must be 0..N-1" % path)
    locs = d.get("asic_locations") or {}
    board_of = {}
    for b in d.get("boards") or []:
        entry = {}
        for item in b:
            entry.update(item)
        for chip in entry.get("chips", []):
            board_of[int(chip)] = _int(entry.get("board_id", 0))
    uids = d.get("chip_unique_ids") or {}
    chips = []
    for i in ids:
        chips.append({"board_id": board_of.get(i, 0),
                      "asic_location": int(locs.get(i, i)),
                      "asic_id": _int(uids[i]) if i in uids else 0})
    links = []
    for conn in d["ethernet_connections"]:
        a, b = conn[0], conn[1]
        links.append((int(a["chip"]), int(a["chan"]), int(b["chip"]),
                      int(b["chan"])))
    return chips, normalise(links)


def load_topology(name):
    if os.path.exists(name):
        return load_descriptor(name)
    return load_named(name)


def physical_channels():
    """logical channel -> physical channel of a P150"""
    g = ttgrid.load()
    off = set(g.board(BOARD)["harvested_eth"])
    return [c for c in range(len(g.eth)) if c not in off]


def check(chips, links):
    phys = physical_channels()
    for a, ca, b, cb in links:
        for chip, chan in ((a, ca), (b, cb)):
            if not 0 <= chip < len(chips):
                raise ClusterError("link %d.%d-%d.%d: no chip %d" %
                                   (a, ca, b, cb, chip))
            if not 0 <= chan < len(phys):
                raise ClusterError("chip %d channel %d: a Blackhole has "
                                   "logical channels 0-%d" %
                                   (chip, chan, len(phys) - 1))
        if a == b:
            raise ClusterError("chip %d: channel %d is linked to its own "
                               "channel %d" % (a, ca, cb))
    return phys



# tt-umd cluster_descriptor_types.hpp board_upi_map
BOARD_TYPES = [(range(0x36, 0x37), "p100"), (range(0x43, 0x44), "p100"),
               (range(0x40, 0x43), "p150"), (range(0x44, 0x47), "p300"),
               (range(0x47, 0x48), "ubb_blackhole")]


def board_type(board_id):
    upi = (board_id >> 36) & 0xfffff
    for r, name in BOARD_TYPES:
        if upi in r:
            return name
    raise ClusterError("board id 0x%x: UPI 0x%x is no Blackhole "
                                 "board tt-umd knows" % (board_id, upi))


def pcie_endpoint(chip):
    """The PCIe endpoint a chip serves the host from: a P300's chip at
    asic location 1 ("right") uses PCIe1, every other chip PCIe0 (tt-umd
    soc_descriptor.cpp checks this of P300 chips)"""
    if chip.get("board_id") and board_type(chip["board_id"]) == "p300" and \
            chip["asic_location"] == 1:
        return 1
    return 0


def machine_options(chips, links, n, netdev_addr):
    """Chip @n's -M options and -netdev arguments.  netdev_addr(k, server)
    gives link k's socket address (the stream netdev's addr.* options)."""
    phys = check(chips, links)
    chip = chips[n]
    m = ["asic-location=%d" % chip["asic_location"]]
    if chip.get("board_id"):
        m.append("board-id=0x%x" % chip["board_id"])
    m.append("asic-id=%d" % (chip.get("asic_id") or n + 1))
    if pcie_endpoint(chip):
        m.append("pcie-endpoint=1")
    netdevs = []
    for k, (a, ca, b, cb) in enumerate(links):
        if n not in (a, b):
            continue
        server = n == a
        m.append("eth%d=l%d" % (phys[ca if server else cb], k))
        netdevs += ["-netdev", "stream,id=l%d,server=%s,%s%s" % (
            k, "on" if server else "off", netdev_addr(k, server),
            "" if server else ",reconnect-ms=100")]
    return m, netdevs
