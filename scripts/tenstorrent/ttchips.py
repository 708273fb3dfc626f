# SPDX-License-Identifier: GPL-2.0-or-later
"""Two chips of a libttsim library, through its PCI functions alone (what
ttsim's multi-chip builds offer), and ERISC programs run on them: for
bench/eth-bench.py and tests/cluster/cluster-test.py.

    import ttchips
    ttchips.eth_bench(LIB, "build/firmware/eth-bench.elf")
"""
import ctypes
import os
import struct
import time

import yaml

import ttabi

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


class Chips:
    """The chips of a libttsim library, through its PCI functions alone:
    device d's BAR0 and one 2 MiB TLB window of it (ttsim's multi-chip
    builds have no libttsim_tile_rd/wr_bytes)"""
    WINDOW = 5

    def __init__(self, path):
        lib = self.lib = ctypes.CDLL(path)
        lib.libttsim_pci_config_rd32.restype = ctypes.c_uint32
        lib.libttsim_pci_config_rd32.argtypes = [ctypes.c_uint32,
                                                 ctypes.c_uint32]
        for f in ("libttsim_pci_mem_rd_bytes", "libttsim_pci_mem_wr_bytes"):
            getattr(lib, f).argtypes = [ctypes.c_uint64, ctypes.c_void_p,
                                        ctypes.c_uint32]
        lib.libttsim_clock.argtypes = [ctypes.c_uint32]
        pcie = ttabi.pcie()
        self.cfg_base = pcie["TT_TLB_CFG_BASE"]
        self.cfg_stride = pcie["TT_TLB_CFG_STRIDE"]
        lib.libttsim_init()
        self.bar0 = []
        for dev in (0, 1):
            cfg = lib.libttsim_pci_config_rd32
            self.bar0.append((cfg(dev << 3, 0x10) & ~0xF) |
                             cfg(dev << 3, 0x14) << 32)
        self.at = None

    def _paddr(self, dev, x, y, addr):
        """Window WINDOW of device @dev at tile (@x, @y)'s @addr"""
        key = (dev, x, y, addr >> 21)
        if self.at != key:
            words = [addr >> 21, x << 11 | y << 17, 1 << 6]
            for i, w in enumerate(words):
                b = ctypes.c_uint32(w)
                self.lib.libttsim_pci_mem_wr_bytes(
                    self.bar0[dev] + self.cfg_base +
                    self.cfg_stride * self.WINDOW + 4 * i, ctypes.byref(b), 4)
            self.at = key
        return self.bar0[dev] + (self.WINDOW << 21) + (addr & 0x1FFFFF)

    def rd(self, dev, x, y, addr, n):
        buf = ctypes.create_string_buffer(n)
        self.lib.libttsim_pci_mem_rd_bytes(self._paddr(dev, x, y, addr), buf,
                                           n)
        return buf.raw

    def rd32(self, dev, x, y, addr):
        return struct.unpack("<I", self.rd(dev, x, y, addr, 4))[0]

    def wr(self, dev, x, y, addr, data):
        buf = ctypes.create_string_buffer(bytes(data), len(data))
        self.lib.libttsim_pci_mem_wr_bytes(self._paddr(dev, x, y, addr), buf,
                                           len(data))

    def wr32(self, dev, x, y, addr, v):
        self.wr(dev, x, y, addr, struct.pack("<I", v))


def elf_segments(path):
    """(entry, [(address, bytes)]) of a little-endian ELF32's PT_LOADs"""
    data = open(path, "rb").read()
    entry, phoff = struct.unpack_from("<II", data, 24)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    segs = []
    for i in range(phnum):
        p_type, off, vaddr, _, filesz, memsz = struct.unpack_from(
            "<IIIIII", data, phoff + i * phentsize)
        if p_type == 1:
            segs.append((vaddr, data[off:off + filesz] +
                         bytes(memsz - filesz)))
    return entry, segs


def eth_bench(lib_path, fw):
    """tests/firmware/eth-bench.c on a linked pair of Ethernet tiles of
    the two chips of @lib_path (in this process, its only library): the
    host finds the pair (port status and the base firmware's chip_info),
    loads @fw into both through TLB windows, releases E0 (the answerer
    first) and waits for the measurer's result, calling libttsim_clock
    meanwhile.  {seconds: host time from release, pair: [[chip, channel]
    x 2], results: the firmware's RESULTS words} or {error}"""
    link = ttabi.load("ttlink.h")
    dbg = ttabi.load("riscv-debug-regmap.h")
    grid = yaml.safe_load(open(os.path.join(SRC, "hw", "tenstorrent", "data",
                                            "grid.yaml")))
    regions = {r["name"]: r["base"] for r in yaml.safe_load(open(
        os.path.join(SRC, "hw", "tenstorrent", "data",
                     "tile-map.yaml")))["eth_regions"]}
    c = Chips(lib_path)
    up = {}
    for dev in (0, 1):
        for ch, (x, y) in enumerate(grid["eth"]):
            if c.rd32(dev, x, y, link["TT_ETH_PORT_STATUS"]) == \
                    link["TT_ETH_PORT_UP"]:
                # chip_info_t: byte 2 is the channel (eth_id)
                up[dev, ch] = (c.rd(dev, x, y, link["TT_ETH_LOCAL_INFO"],
                                    4)[2],
                               c.rd(dev, x, y, link["TT_ETH_REMOTE_INFO"],
                                    4)[2])
    ends = sorted(k for k in up if k[0] == 0)
    if not ends:
        return {"error": "no linked Ethernet channel on chip 0"}
    a = ends[0]
    peer = [k for k in up if k[0] == 1 and up[k][1] == up[a][0]]
    if not peer:
        return {"error": "chip 1 has no end of chip 0 channel %d's link"
                % a[1]}
    b = peer[0]
    entry, segs = elf_segments(fw)
    eb = ttabi.load("tests/firmware/eth-bench.h")
    role, role_host = eb["ETH_BENCH_ROLE"], eb["ETH_BENCH_ROLE_HOST"]
    done, results = eb["ETH_BENCH_DONE"], eb["ETH_BENCH_RESULTS"]
    tiles = [(dev, ch, grid["eth"][ch]) for dev, ch in (b, a)]
    for dev, ch, (x, y) in tiles:
        for vaddr, blob in segs:
            c.wr(dev, x, y, vaddr, blob)
        c.wr32(dev, x, y, done, 0)
        c.wr32(dev, x, y, role, role_host | (1 if dev == 0 else 2))
        c.wr32(dev, x, y, regions["ERISC_CTRL"] + dbg["A_ERISC0_RESET_PC"],
               entry)
    t0 = time.time()
    for dev, ch, (x, y) in tiles:       # the answerer first
        c.wr32(dev, x, y, regions["DEBUG_REGS"] + dbg["A_SOFT_RESET_0"],
               dbg["TT_ERISC_SOFT_RESET_POWER_ON"] & ~(1 << 11))
    dev, ch, (x, y) = tiles[1]
    while c.rd32(dev, x, y, done) != eb["ETH_BENCH_DONE_VALUE"]:
        if time.time() - t0 > 600:
            return {"error": "no result after 600 s"}
        # ttsim advances only in libttsim_clock(); a library whose call
        # returns at once runs by itself, and polling it back to back
        # would only load its chips' main loops
        t = time.time()
        c.lib.libttsim_clock(20000)
        if time.time() - t < 0.001:
            time.sleep(0.001)
    secs = time.time() - t0
    res = [c.rd32(dev, x, y, results + 4 * i) for i in range(7)]
    c.lib.libttsim_exit()
    return {"seconds": secs, "pair": [list(a), list(b)], "results": res}
