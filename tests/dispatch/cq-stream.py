#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Fast-dispatch command streams encoded here, for tt-run --cq-stream.

    cq-stream.py OUTDIR

The encoder below is this test's own: it packs tt-metal's prefetcher and
dispatcher command headers field by field (tt-metal
tt_metal/impl/dispatch/kernels/cq_commands.hpp: every command a 16-byte
header, WRITE_LINEAR's 32; prefetcher commands other than RELAY_INLINE
take CQ_PREFETCH_CMD_BARE_MIN_SIZE = 64 bytes; each dispatcher command
rides in a RELAY_INLINE whose stride is padded to 64 bytes as blackhole-py
d570394 cq.py pads it) with Python's struct module, not with the C
structures of tools/abi/cq.h that tt-run and the firmware share.

OUTDIR gets, for a P150 (fast-dispatch cores (16,2) and (16,3)):

  good.bin, good.tt   every write command and relay path (WRITE_LINEAR
                      unicast and multicast, WRITE_PACKED with and without
                      stride, unicast and multicast, WRITE_PACKED_LARGE,
                      SET_WRITE_OFFSET, WRITE_PAGED to GDDR,
                      RELAY_INLINE_NOFLUSH + RELAY_PAGED and + RELAY_LINEAR
                      from GDDR, WAIT with NOTIFY_PREFETCH + STALL), with
                      the bytes each must leave in L1 or GDDR as expect=
                      files: tt-run compares them byte for byte
  many.bin, many.tt   5,000 WRITE_LINEARs of 16 bytes in a row
  bad-NAME.bin        one malformed command each; bad.list gives the
                      message tt-run must print for it
"""
import os
import random
import struct
import sys

PCIE_ALIGN = 64

# prefetcher command ids
RELAY_LINEAR, RELAY_PAGED, RELAY_INLINE, RELAY_INLINE_NOFLUSH = 1, 3, 5, 6
STALL = 9
# dispatcher command ids
WRITE_LINEAR, WRITE_PAGED, WRITE_PACKED, WRITE_PACKED_LARGE = 1, 4, 5, 6
WAIT, SET_WRITE_OFFSET = 7, 12
WAIT_BARRIER, WAIT_NOTIFY_PREFETCH = 0x01, 0x02
PACKED_MCAST, PACKED_NO_STRIDE = 0x01, 0x02


def align(n, a):
    return (n + a - 1) // a * a


def pad(b, n):
    return b + bytes(n - len(b))


def xy(x, y):
    return y << 6 | x


def mcast(x0, y0, x1, y1):      # NOC 0: start in bits 12-23, end in 0-11
    return y0 << 18 | x0 << 12 | y1 << 6 | x1


# ------------------------------------------------------ prefetcher commands

def relay_inline(payload, noflush=False):
    stride = align(16 + len(payload), PCIE_ALIGN)
    hdr = struct.pack("<BBHIII", RELAY_INLINE_NOFLUSH if noflush
                      else RELAY_INLINE, 0, 0, len(payload), stride, 0)
    return pad(hdr + payload, stride)


def relay_paged(base, page, pages, start=0):
    return pad(struct.pack("<BBHIII", RELAY_PAGED, start, 1 << 15, base,
                           page, pages), 64)


def relay_linear(noc_xy, addr, length):
    return pad(struct.pack("<BBHQIQ", RELAY_LINEAR, 0, 0, length, noc_xy,
                           addr), 64)


def stall():
    return pad(struct.pack("<B", STALL), 64)


# ------------------------------------------------------ dispatcher commands

def write_linear(noc_xy, addr, length, ndests=0, offset_index=0):
    return struct.pack("<BBBBIQQ8x", WRITE_LINEAR, ndests, offset_index, 0,
                       noc_xy, addr, length)


def write_packed(dests, addr, datas, mcast_dests=None):
    """one payload per destination, or one for all (len(datas) == 1)"""
    size = len(datas[0])
    flags = (PACKED_NO_STRIDE if len(datas) == 1 else 0) | \
        (PACKED_MCAST if mcast_dests else 0)
    hdr = struct.pack("<BBHHHII", WRITE_PACKED, flags, len(dests), 0, size,
                      addr, 0)
    subs = b""
    for i, d in enumerate(dests):
        subs += struct.pack("<I", d)
        if mcast_dests:
            subs += struct.pack("<I", mcast_dests[i])
    body = pad(subs, align(len(subs), 16))
    for d in datas:
        body += pad(d, align(size, 16))
    return hdr + body


def write_packed_large(subs, alignment=16):
    """subs: (noc_xy, addr, data, num_mcast_dests)"""
    hdr = struct.pack("<BBHHH8x", WRITE_PACKED_LARGE, 0, len(subs),
                      alignment, 0)
    s = b"".join(struct.pack("<IIHBB", n, a, len(d) - 1, m, 0)
                 for n, a, d, m in subs)
    body = pad(s, align(len(s), 16))
    for _, _, d, _ in subs:
        body += pad(d, align(len(d), alignment))
    return hdr + body


def write_paged(base, page, data, start=0):
    return struct.pack("<BBHIII", WRITE_PAGED, 1, start, base, page,
                       len(data) // page) + data


def wait(flags, stream=48, count=0, addr=0):
    return struct.pack("<BBHIII", WAIT, flags, stream, addr, count, 0)


def set_write_offset(offsets):
    return struct.pack("<BBH12x", SET_WRITE_OFFSET, len(offsets), 0) + \
        b"".join(struct.pack("<I", o) for o in offsets)


# -------------------------------------------------------------- programs

def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rnd = random.Random(0xc0de)

    def data(n):
        return bytes(rnd.getrandbits(8) for _ in range(n))

    def write(name, b):
        with open(os.path.join(out, name), "wb") as f:
            f.write(b)

    a, b = xy(1, 2), xy(2, 2)
    rect = mcast(3, 2, 4, 3)
    bank0 = xy(17, 14)          # GDDR bank 0, NOC 0 port
    page = 1024
    src = data(16 * page)       # interleaved over 8 banks from 0x100000
    outs = []                   # (name, mem, addr, group, bytes)
    s = b""

    d = data(200)
    s += relay_inline(write_linear(a, 0x30000, len(d)) + d)
    outs.append(("a_linear", "l1", 0x30000, "a", d))
    d = data(5000)              # more than a dispatch CB page
    s += relay_inline(write_linear(rect, 0x30800, len(d), ndests=4) + d)
    outs.append(("r_linear", "l1", 0x30800, "r", d))
    da, db = data(64), data(64)
    s += relay_inline(write_packed([a, b], 0x32000, [da, db]))
    outs += [("a_packed", "l1", 0x32000, "a", da),
             ("b_packed", "l1", 0x32000, "b", db)]
    d = data(32)
    s += relay_inline(write_packed([rect], 0x32800, [d], mcast_dests=[4]))
    outs.append(("r_packed", "l1", 0x32800, "r", d))
    db, dr = data(100), data(300)
    s += relay_inline(write_packed_large([(b, 0x33000, db, 0),
                                          (rect, 0x33800, dr, 4)]))
    outs += [("b_large", "l1", 0x33000, "b", db),
             ("r_large", "l1", 0x33800, "r", dr)]
    d = data(256)
    s += relay_inline(set_write_offset([0x1000]))
    s += relay_inline(write_linear(b, 0x34000, len(d)) + d)
    s += relay_inline(set_write_offset([0]))
    outs.append(("b_offset", "l1", 0x35000, "b", d))
    d = data(10 * page)
    s += relay_inline(write_paged(0x200000, page, d))
    outs.append(("dram_paged", "dram", 0x200000, None, d))
    # a dispatcher header, then its payload relayed from GDDR
    s += relay_inline(write_linear(a, 0x36000, 4 * page), noflush=True)
    s += relay_paged(0x100000, page, 4)
    outs.append(("a_relay_paged", "l1", 0x36000, "a", src[:4 * page]))
    s += relay_inline(write_linear(b, 0x37000, 2 * page), noflush=True)
    s += relay_linear(bank0, 0x100000, 2 * page)
    outs.append(("b_relay_linear", "l1", 0x37000, "b",
                 src[:page] + src[8 * page:9 * page]))
    # the dispatcher lets the stalled prefetcher go on
    s += relay_inline(wait(WAIT_BARRIER | WAIT_NOTIFY_PREFETCH))
    s += stall()
    d = data(48)
    s += relay_inline(write_linear(a, 0x38000, len(d)) + d)
    outs.append(("a_after_stall", "l1", 0x38000, "a", d))
    write("good.bin", s)
    write("src.bin", src)

    tt = ["# written by cq-stream.py: no kernels, only what the stream "
          "leaves",
          "group a 1,2", "group b 2,2", "group r 3,2-4,3",
          "input src dram 0x100000 file=src.bin page=%d" % page]
    for name, mem, addr, grp, d in outs:
        write(name + ".bin", d)
        line = "output %s %s 0x%x size=%d expect=%s.bin" % (
            name, mem, addr, len(d), name)
        line += " page=%d" % page if mem == "dram" else " group=" + grp
        tt.append(line)
    with open(os.path.join(out, "good.tt"), "w") as f:
        f.write("\n".join(tt) + "\n")

    # 5,000 16-byte writes, one per record when split finely: the host
    # fills prefetch_q faster than the prefetcher drains it
    many = b""
    words = b""
    for i in range(5000):
        w = struct.pack("<4I", i, i ^ 0x5a5a5a5a, ~i & 0xffffffff, i * 7)
        many += relay_inline(write_linear(a, 0x30000 + 16 * i, 16) + w)
        words += w
    write("many.bin", many)
    write("many-out.bin", words)
    with open(os.path.join(out, "many.tt"), "w") as f:
        f.write("group a 1,2\noutput w l1 0x30000 size=%d expect=many-out.bin "
                "group=a\n" % len(words))

    bad = [
        ("dispatch-id", relay_inline(struct.pack("<B15x", 0x55)),
         "dispatcher stopped: unknown or unsupported command (error 1, "
         "argument 0x55"),
        ("prefetch-id", pad(struct.pack("<B", 0x77), 64),
         "prefetcher stopped: unknown or unsupported command (error 1, "
         "argument 0x77"),
        ("dest", relay_inline(write_linear(xy(8, 2), 0x30000, 16) +
                              bytes(16)),
         "dispatcher stopped: NOC destination outside the grid (error 5, "
         "argument 0x88"),
        ("stride", pad(struct.pack("<BBHIII", RELAY_INLINE, 0, 0, 200, 64,
                                   0), 64),
         "prefetcher stopped: stride or length outside the fetched record "
         "(error 3"),
        ("stream", relay_inline(wait(0x08, stream=60, count=1)),
         "dispatcher stopped: WAIT on a stream outside 48-55 (error 7, "
         "argument 0x3c"),
        ("count", relay_inline(write_packed([a] * 1100, 0x30000,
                                            [bytes(16)])),
         "dispatcher stopped: sub-command or word count past its limit "
         "(error 6, argument 0x44c"),
    ]
    with open(os.path.join(out, "bad.list"), "w") as f:
        for name, stream, msg in bad:
            write("bad-%s.bin" % name, stream)
            f.write("%s\t%s\n" % (name, msg))


if __name__ == "__main__":
    main()
