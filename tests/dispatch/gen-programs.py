#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write tools/tt-run test programs and their data for one board.

    gen-programs.py OUTDIR BOARD [--fast]

OUTDIR gets, for BOARD (p150 or p100a):

  rw-1.tt      the reader/writer pair on one tile: 16 GDDR pages through
               a 2-page CB (it wraps 8 times)
  rw-grid.tt   the same pair on every tile of the board (less the two
               fast-dispatch cores with --fast), 4 pages per tile
  mcast.tt     two multicast senders in row 2, each feeding the rest of
               its half of the grid over 4 rounds with ready/valid
               semaphores; the receivers sum the chunks
  add-1.tt, add-grid.tt
               compute kernels (TRISC0-2) adding two BF16 tile streams
               that reader-ab feeds from GDDR through CBs 0 and 1;
               writer-c takes the sums from CB 16 to GDDR: 4 tiles on
               one tile, 2 per tile on every tile
  matmul-1.tt, matmul-grid.tt
               the same pipeline with a matmul: 64x64 by 64x64 on one
               tile, 32x64 by 64x32 on every tile (each its own operands)
  count.tt     a counter kernel on four tiles, expected to read 1000 after
               1000 launches
  hang.tt      a kernel that never returns, on four tiles
  span.tt      a program across the two chips of a P300 library: 448 KiB
               from a Tensix tile's L1 on chip 0, read by the eth-send
               ERISC kernel on chip 0's end of the first link, sent in
               16 KiB chunks over TT-link to eth-recv on chip 1, which
               writes them to a Tensix tile's L1 there; span-4k.tt the
               same with 4 KiB chunks into two tiles' worth of buffers
               (chip 1's result on another tile and a second channel's
               kernel pair on the second link); span-badarg.tt an ERISC
               kernel refusing its arguments, span-3chips.tt a link to a
               chip a P300 lacks
  bad-*.tt     descriptions tt-run must refuse before touching the device

and the .bin files they name.  Every expected result is computed here,
from the inputs, in Python: nothing of tt-run's own arithmetic.
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts", "tenstorrent"))
import ttgrid  # noqa: E402

PAGE = 1024
WORDS = PAGE // 4


def cols(board):
    """
    the board's translated Tensix columns: the first of the grid's, as
    many as the board has unharvested (translation moves harvested ones to
    the end)
    """
    g = ttgrid.load()
    return g.tensix_cols[:len(g.tensix_cols) -
                         len(g.board(board)["harvested_columns"])]


def pack(words):
    return struct.pack("<%dI" % len(words), *words)


def main():
    out, board = sys.argv[1], sys.argv[2]
    fast = "--fast" in sys.argv[3:]
    rnd = random.Random(0x5eed + (board == "p100a"))
    os.makedirs(out, exist_ok=True)
    cl = cols(board)
    last = cl[-1]
    ntiles = 10 * len(cl) - (2 if fast else 0)

    def write(name, data):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)

    def text(name, s):
        with open(os.path.join(out, name), "w") as f:
            f.write(s)

    # reader (NCRISC) / writer (BRISC): page p of core i gets i + 0x100
    # added to each word
    def rw(name, cores, ncores, pages_per_core, cb_pages):
        npages = ncores * pages_per_core
        src = [rnd.getrandbits(32) for _ in range(npages * WORDS)]
        dst = []
        for p in range(npages):
            add = p // pages_per_core + 0x100
            dst += [(w + add) & 0xffffffff
                    for w in src[p * WORDS:(p + 1) * WORDS]]
        write(name + "-in.bin", pack(src))
        write(name + "-out.bin", pack(dst))
        text(name + ".tt", f"""# GDDR -> NCRISC reader -> CB 0 -> BRISC writer (+ i + 0x100) -> GDDR
cores {cores}
kernel ncrisc reader
kernel brisc writer
cb 0 pages={cb_pages} page={PAGE}
rta ncrisc {{addr:in}} {PAGE} {{i}}*{pages_per_core} {pages_per_core} {{banks}}
rta brisc {{addr:out}} {PAGE} {{i}}*{pages_per_core} {pages_per_core} {{i}}+0x100 {{banks}}
input in dram 0x100000 file={name}-in.bin page={PAGE}
output out dram 0x2000000 size={npages * PAGE} page={PAGE} expect={name}-out.bin
""")

    rw("rw-1", "5,6", 1, 16, 2)
    rw("rw-grid", "all", ntiles, 4, 2)

    # compute: BF16 tiles (32x32, four 16x16 faces, face-major) of small
    # integers, so that every sum and product is exact in BF16 and in the
    # FP32 Dst: the expected bytes need no tolerance
    def bf16(v):
        return struct.unpack("<I", struct.pack("<f", float(v)))[0] >> 16

    def tile_bytes(m):
        order = [(f // 2 * 16 + r, f % 2 * 16 + c)
                 for f in range(4) for r in range(16) for c in range(16)]
        return struct.pack("<1024H", *[bf16(m[r][c]) for r, c in order])

    def rand_tile(lo, hi):
        return [[rnd.randint(lo, hi) for _ in range(32)] for _ in range(32)]

    TILE = 2048

    def compute(name, cores, ncores, mm, mt, kt, nt):
        """per core: A mt x kt tiles, B kt x nt (matmul) or mt x nt (add)"""
        ta = mt * kt if mm else mt * nt
        tb = kt * nt if mm else mt * nt
        tc = mt * nt
        a, b, c = [], [], []
        for _ in range(ncores):
            # |a| <= 2, |b| <= 1: a 64-deep dot product stays within 128
            at = [rand_tile(-2, 2) if mm else rand_tile(-8, 8)
                  for _ in range(ta)]
            bt = [rand_tile(-1, 1) if mm else rand_tile(-8, 8)
                  for _ in range(tb)]
            for t in range(tc):
                if mm:
                    m, n = divmod(t, nt)
                    ct = [[sum(at[m * kt + k][r][j] * bt[k * nt + n][j][col]
                               for k in range(kt) for j in range(32))
                           for col in range(32)] for r in range(32)]
                else:
                    ct = [[at[t][r][col] + bt[t][r][col]
                           for col in range(32)] for r in range(32)]
                c.append(tile_bytes(ct))
            a += [tile_bytes(t) for t in at]
            b += [tile_bytes(t) for t in bt]
        write(name + "-a.bin", b"".join(a))
        write(name + "-b.bin", b"".join(b))
        write(name + "-c.bin", b"".join(c))
        what = f"{mt}x{kt} by {kt}x{nt} tile matmul" if mm else \
            f"add of {tc} tiles"
        text(name + ".tt", f"""# BF16 {what} per core: GDDR -> reader-ab -> CBs 0, 1 ->
# TRISC0-2 compute -> CB 16 -> writer-c -> GDDR
cores {cores}
kernel ncrisc reader-ab
kernel brisc writer-c
kernel trisc0 compute
kernel trisc1 compute
kernel trisc2 compute
cb 0 pages={ta} page={TILE}
cb 1 pages={tb} page={TILE}
cb 16 pages={tc} page={TILE}
sem 0
rta ncrisc {{addr:a}} {{addr:b}} {TILE} {{i}}*{ta} {ta} {{i}}*{tb} {tb} {{banks}}
rta brisc {{addr:c}} {TILE} {{i}}*{tc} {tc} {{banks}}
rta trisc0 {int(mm)} {mt} {kt} {nt} 0
rta trisc1 {int(mm)} {mt} {kt} {nt} 0
rta trisc2 {int(mm)} {mt} {kt} {nt} 0
input a dram 0x100000 file={name}-a.bin page={TILE}
input b dram 0x1000000 file={name}-b.bin page={TILE}
output c dram 0x2000000 size={ncores * tc * TILE} page={TILE} expect={name}-c.bin
""")

    compute("add-1", "5,6", 1, False, 1, 1, 4)
    compute("add-grid", "all", ntiles, False, 1, 1, 2)
    compute("matmul-1", "5,6", 1, True, 2, 2, 2)
    compute("matmul-grid", "all", ntiles, True, 1, 2, 1)

    # multicast: senders (1,2) and (10,2); receivers below them
    rounds = 4
    chunks = [rnd.getrandbits(32) for _ in range(rounds * WORDS)]
    total = [sum(chunks[r * WORDS + i] for r in range(rounds)) & 0xffffffff
             for i in range(WORDS)]
    write("mcast-chunks.bin", pack(chunks))
    write("mcast-sum.bin", pack(total))
    rb_x1 = last - 1 if fast else last
    text("mcast.tt", f"""# multicast sender/receiver pairs with ready/valid semaphores
group sa 1,2
kernel brisc mcast-sender
rta brisc {{addr:chunks_a}} {PAGE} {rounds} 0x30000 {{mcast:ra}} {{mcastn:ra}} 0 1
group sb 10,2
kernel brisc mcast-sender
rta brisc {{addr:chunks_b}} {PAGE} {rounds} 0x30000 {{mcast:rb}} {{mcastn:rb}} 0 1
group ra 1,3-7,11
kernel ncrisc mcast-receiver
rta ncrisc {{xy:sa}} 0x30000 {PAGE} {rounds} {{addr:sum_a}} 0 1
group rb 10,3-{rb_x1},11
kernel ncrisc mcast-receiver
rta ncrisc {{xy:sb}} 0x30000 {PAGE} {rounds} {{addr:sum_b}} 0 1
sem 0
sem 1
input chunks_a l1 0x20000 file=mcast-chunks.bin group=sa
input chunks_b l1 0x20000 file=mcast-chunks.bin group=sb
output land_a l1 0x30000 size={PAGE} group=ra
output land_b l1 0x30000 size={PAGE} group=rb
output sum_a l1 0x34000 size={PAGE} expect=mcast-sum.bin group=ra
output sum_b l1 0x34000 size={PAGE} expect=mcast-sum.bin group=rb
""")

    # back-to-back launches: each adds one to a counter on four cores
    launches = 1000
    write("zero.bin", bytes(4))
    write("count.bin", pack([launches]))
    text("count.tt", """# one more per launch: the host expects {0}
cores 1,2-2,3
kernel brisc count
rta brisc {{addr:counter}}
input zero l1 0x20000 file=zero.bin
output counter l1 0x20000 size=4 expect=count.bin
""".format(launches))

    text("hang.tt", """# never finishes
cores 1,2-2,3
kernel brisc hang
""")
    # programs that span the two chips of a P300
    span = rnd.randbytes(448 << 10)
    write("span-in.bin", span)
    text("span.tt", """# chip 0 tile (1,2) -> E0 of chip 0's first link to chip 1
# -> TT-link -> chip 1's end -> chip 1 tile (16,11)
group src 1,2
input in l1 0x100000 file=span-in.bin group=src
erisc link:1 eth-send {xy:src} {addr:in} {size:in} 16384
chip 1
group dst 16,11
output out l1 0x100000 size=458752 expect=span-in.bin group=dst
erisc link:0 eth-recv {xy:dst} {addr:out} {size:out} 16384
""")
    half = len(span) // 2
    write("span-lo.bin", span[:half])
    write("span-hi.bin", span[half:])
    # physical channels: the P300's links join chip 0's 2 and 3 (logical
    # 2, 3) with chip 1's 11 and 10 (logical 9, 8; 5 and 8 are fused off)
    text("span-4k.tt", f"""# both links of a P300, half the data each, 4 KiB chunks
group src 1,2
input lo l1 0x100000 file=span-lo.bin group=src
input hi l1 0x140000 file=span-hi.bin group=src
erisc 2 eth-send {{xy:src}} {{addr:lo}} {{size:lo}} 4096
erisc 3 eth-send {{xy:src}} {{addr:hi}} {{size:hi}} 4096
chip 1
group a 2,3
group b 3,4
output lo l1 0x100000 size={half} expect=span-lo.bin group=a
output hi l1 0x100000 size={half} expect=span-hi.bin group=b
erisc 11 eth-recv {{xy:a}} {{addr:lo}} {{size:lo}} 4096
erisc 10 eth-recv {{xy:b}} {{addr:hi}} {{size:hi}} 4096
""")
    text("span-badarg.tt", """# a chunk the kernels refuse: the kernel's error comes back
group src 1,2
input in l1 0x100000 file=span-in.bin group=src
erisc link:1 eth-send {xy:src} {addr:in} {size:in} 100000
""")
    text("bad-span.tt", """group src 1,2
input in l1 0x100000 file=span-in.bin group=src
erisc link:1 eth-send {i}
""")
    text("bad-chip.tt", """chip 40
""")
    text("span-3chips.tt", """# chip 1's part links to chip 2: the program needs three chips
group src 1,2
input in l1 0x100000 file=span-in.bin group=src
chip 1
erisc link:2 eth-recv 0x81 0x100000 16 16
""")
    # bad input
    text("bad-core.tt", """cores 8,2
kernel brisc hang
""")
    text("bad-core2.tt", f"""cores 1,2-{last + 1},11
kernel brisc hang
""")
    text("bad-elf.tt", """cores 1,2
kernel brisc no-such-kernel
""")
    write("not-an-elf.bin", b"this is not an ELF file\n" * 4)
    text("bad-elf2.tt", """cores 1,2
kernel brisc ./not-an-elf.bin
""")
    text("bad-overlap.tt", """cores 1,2
kernel brisc hang
cb 0 pages=4 page=1024 addr=0x40000
input a l1 0x40800 file=mcast-sum.bin
""")
    text("bad-overlap2.tt", """cores 1,2
kernel brisc hang
input a l1 0x40000 file=mcast-sum.bin
input b l1 0x40200 file=mcast-sum.bin
""")


if __name__ == "__main__":
    main()
