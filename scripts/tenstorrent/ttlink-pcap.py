#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Decode the frames of a Blackhole Ethernet link from a pcap file.

    ttlink-pcap.py [--header TTLINK_H] FILE.pcap

A link's pcap comes from QEMU's filter-dump on the channel's netdev
(-object filter-dump,id=d,netdev=n0,file=FILE.pcap).  One line per frame:
its number, MACs, and for a TT-link frame the packet type, sending queue,
sequence and ack numbers, address, payload length (and an MMIO write's
value); other frames print as raw with their ethertype and length.

The TT-link layout (ethertype, header offsets, packet types) is read from
the emulator's include/hw/tenstorrent/ttlink.h, the one source the model
uses.  Exits 1 if a frame with the TT-link ethertype does not decode
(wrong magic, type or length), 2 on a file that is not a pcap.
"""
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_HEADER = os.path.join(HERE, "..", "..", "include", "hw",
                              "tenstorrent", "ttlink.h")


def load_layout(path):
    """The TT_LINK_* constants of ttlink.h, as a dict name -> int."""
    text = open(path).read()
    consts = {}
    num = r"(0x[0-9a-fA-F]+|\d+)"
    for name, val in re.findall(r"#define\s+(TT_LINK_\w+)\s+" + num, text):
        consts[name] = int(val, 0)
    for name, val in re.findall(r"(TT_LINK_\w+)\s*=\s*" + num + r"\s*,",
                                text):
        consts[name] = int(val, 0)
    need = ("TT_LINK_ETHERTYPE", "TT_LINK_ETH_HLEN", "TT_LINK_HLEN",
            "TT_LINK_MAGIC", "TT_LINK_OFF_TYPE", "TT_LINK_OFF_QUEUE",
            "TT_LINK_OFF_SEQ", "TT_LINK_OFF_ACK", "TT_LINK_OFF_ADDR",
            "TT_LINK_OFF_LEN", "TT_LINK_OFF_MMIO", "TT_LINK_OFF_DATA",
            "TT_LINK_SEQ_UPDATE", "TT_LINK_L1_WRITE", "TT_LINK_MMIO_WRITE",
            "TT_LINK_HELLO")
    missing = [n for n in need if n not in consts]
    if missing:
        sys.exit("ttlink-pcap: %s lacks %s" % (path, ", ".join(missing)))
    return consts


def frames(path):
    """(timestamp, bytes) of each frame of a little- or big-endian pcap."""
    data = open(path, "rb").read()
    if len(data) < 24:
        raise ValueError("too short for a pcap header")
    magic = struct.unpack("<I", data[:4])[0]
    if magic in (0xa1b2c3d4, 0xa1b23c4d):
        end = "<"
    elif magic in (0xd4c3b2a1, 0x4d3cb2a1):
        end = ">"
    else:
        raise ValueError("not a pcap file (magic 0x%08x)" % magic)
    linktype = struct.unpack(end + "I", data[20:24])[0]
    if linktype != 1:
        raise ValueError("link type %d, not Ethernet" % linktype)
    off = 24
    while off + 16 <= len(data):
        sec, usec, incl, _ = struct.unpack(end + "IIII", data[off:off + 16])
        off += 16
        if off + incl > len(data):
            raise ValueError("truncated record")
        yield sec + usec / 1e6, data[off:off + incl]
        off += incl


def mac(b):
    return ":".join("%02x" % x for x in b)


def decode(c, f):
    """One line for frame @f, and whether it decoded."""
    names = {c["TT_LINK_SEQ_UPDATE"]: "seq-update",
             c["TT_LINK_L1_WRITE"]: "l1-write",
             c["TT_LINK_MMIO_WRITE"]: "mmio-write",
             c["TT_LINK_HELLO"]: "hello"}
    if len(f) < c["TT_LINK_ETH_HLEN"]:
        return "runt %d bytes" % len(f), False
    head = "%s > %s" % (mac(f[6:12]), mac(f[0:6]))
    etype = struct.unpack(">H", f[12:14])[0]
    if etype != c["TT_LINK_ETHERTYPE"]:
        return "%s raw ethertype 0x%04x len %d" % (head, etype, len(f)), True
    h = f[c["TT_LINK_ETH_HLEN"]:]
    if len(h) < c["TT_LINK_HLEN"] or h[0] != c["TT_LINK_MAGIC"]:
        return "%s ttlink BAD header" % head, False
    kind = h[c["TT_LINK_OFF_TYPE"]]
    plen = struct.unpack("<H", h[c["TT_LINK_OFF_LEN"]:
                                 c["TT_LINK_OFF_LEN"] + 2])[0]
    addr = struct.unpack("<I", h[c["TT_LINK_OFF_ADDR"]:
                                 c["TT_LINK_OFF_ADDR"] + 4])[0]
    line = "%s ttlink %s q %d seq %d ack %d" % (
        head, names.get(kind, "type-%d" % kind), h[c["TT_LINK_OFF_QUEUE"]],
        h[c["TT_LINK_OFF_SEQ"]], h[c["TT_LINK_OFF_ACK"]])
    good = kind in names and plen == len(h) - c["TT_LINK_HLEN"]
    if kind == c["TT_LINK_L1_WRITE"]:
        line += " addr 0x%x len %d" % (addr, plen)
    elif kind == c["TT_LINK_MMIO_WRITE"]:
        data = struct.unpack("<I", h[c["TT_LINK_OFF_DATA"]:
                                     c["TT_LINK_OFF_DATA"] + 4])[0]
        line += " addr 0x%x data 0x%x" % (addr, data)
        good = good and h[c["TT_LINK_OFF_MMIO"]] & 1 == 1
    elif kind == c["TT_LINK_HELLO"]:
        line += " len %d" % plen
    if not good:
        line += " BAD"
    return line, good


def main(argv):
    header = DEFAULT_HEADER
    if len(argv) > 2 and argv[1] == "--header":
        header = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    c = load_layout(header)
    bad = 0
    try:
        for n, (ts, f) in enumerate(frames(argv[1])):
            line, good = decode(c, f)
            bad += not good
            print("%d %.6f %s" % (n, ts, line))
    except (OSError, ValueError) as e:
        print("ttlink-pcap: %s: %s" % (argv[1], e), file=sys.stderr)
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
