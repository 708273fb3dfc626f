#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A P300 through the libttsim ABI, as tt-umd's multichip mode drives it:

    libttsim-cluster.py BUILD_DIR/libttsim/p300/libttsim.so

libttsim_init() starts chip 0, libttsim_create_device_by_id(1) chip 1,
each a QEMU with the identity and Ethernet links the emu-args beside the
library give it; then both ends of both links must come up, each naming
the other chip (base-firmware results read with libttsim_tile_rd_bytes
at the Ethernet tiles' translated coordinates).  Prints one line per
check, "ok ..." or "not ok ...", and exits 1 on a failure.
"""
import ctypes
import os
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts", "tenstorrent"))
from tttap import ok, done  # noqa: E402

PORT_STATUS, REMOTE_INFO = 0x7cc04, 0x7cfe0
# (chip, logical channel) -> translated x (20 + logical), y 25
LINKS = [((0, 2), (1, 9)), ((0, 3), (1, 8))]

lib = ctypes.CDLL(sys.argv[1])
lib.libttsim_create_device_by_id.restype = ctypes.c_void_p
lib.libttsim_create_device_by_id.argtypes = [ctypes.c_uint32, ctypes.c_int,
                                             ctypes.c_int]
lib.libttsim_tile_rd_bytes.argtypes = [ctypes.c_uint32, ctypes.c_uint32,
                                       ctypes.c_uint64, ctypes.c_void_p,
                                       ctypes.c_uint32]


def read(chip, logical, addr, n):
    buf = ctypes.create_string_buffer(n)
    lib.libttsim_select_device_by_id(chip)
    lib.libttsim_tile_rd_bytes(20 + logical, 25, addr, buf, n)
    return buf.raw


lib.libttsim_init()
h0 = lib.libttsim_create_device_by_id(0, 0, 0)
h1 = lib.libttsim_create_device_by_id(1, 1, 0)
ok(h0 and h1 and h0 != h1, "two chips, one QEMU each")
deadline = time.time() + 60
ends = [e for link in LINKS for e in link]
while time.time() < deadline:
    up = [struct.unpack("<I", read(c, ch, PORT_STATUS, 4))[0] == 1
          for c, ch in ends]
    if all(up):
        break
    time.sleep(0.1)
ok(all(up), "both links up at both ends (port_status 1)")
for a, b in LINKS:
    for (c, ch), (pc, pch) in ((a, b), (b, a)):
        info = read(c, ch, REMOTE_INFO, 32)
        ok(info[1] == pc and info[3] == pch,
           "chip %d channel %d: remote_info names chip %d logical channel "
           "%d (asic location %d, logical %d)" % (c, ch, pc, pch, info[1],
                                                  info[3]))
lib.libttsim_exit()
ok(True, "libttsim_exit")
sys.exit(done())
