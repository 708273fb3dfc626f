#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tools/tt-run end to end: tt-metal-shaped programs (tests/dispatch's
# kernels, data movement and compute (BF16 eltwise add and matmul),
# descriptions and data from gen-programs.py, results computed
# there) launched through launch messages on worker firmware, on one
# tile, the 14x10 grid of a P150 and the 12x10 grid of a P100A, for both
# firmware layouts, by slow dispatch (TLB windows) and fast dispatch (the
# command queue: 1,000 back-to-back launches with every ring wrapping;
# command streams encoded by cq-stream.py checked byte for byte;
# malformed commands); bad descriptions and a kernel that never
# finishes.  Prints TAP.
#
#   tests/dispatch/dispatch-test.sh [BUILD_DIR [LIB]]
#
# LIB defaults to BUILD_DIR/libttsim/libttsim.so (which starts
# BUILD_DIR/qemu/qemu-system-riscv32 unless TT_EMU_QEMU names another).
# Optional parts, each skipped with a message when its variable is unset:
#
#   TT_STOCK_FW   a directory of stock tt-metal firmware ELFs
#                 (brisc.elf ... trisc2.elf, e.g. blackhole-py 5d08c23's
#                 riscv-firmware/p100a): the same programs on that
#                 unmodified firmware, kernels built against its symbols
#   TTSIM_LIB     Tenstorrent's ttsim (libttsim.so): the same tt-run
#                 binary and programs on it
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "${1:-build}" 2>/dev/null && pwd) || {
    echo "1..0 # SKIP no build directory ${1:-build}"
    exit 0
}
lib=${2:-$B/libttsim/libttsim.so}
run=$B/tt-run
if [ ! -f "$lib" ] || [ ! -x "$run" ] ||
   [ ! -f "$B/dispatch/tt-metal-0079e94/fw/brisc.elf" ]; then
    echo "1..0 # SKIP $lib, $run or $B/dispatch not built (make dispatch)"
    exit 0
fi
if [ -z "${TT_EMU_QEMU:-}" ] && [ -x "$B/qemu/qemu-system-riscv32" ]; then
    export TT_EMU_QEMU=$B/qemu/qemu-system-riscv32
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

ok() {      # ok DESCRIPTION: the last command's status 0 is a pass
    local rc=$1
    shift
    n=$((n + 1))
    if [ "$rc" = 0 ]; then
        echo "ok $n - $*"
    else
        echo "not ok $n - $*"
        failed=1
    fi
}

# run NAME BOARD LAYOUT LIB [tt-run options...] PROGRAM: PASS expected
run_prog() {
    local name=$1 board=$2 layout=$3 l=$4 out rc
    shift 4
    out=$(TT_EMU_ARGS="-M blackhole,board=$board" timeout 600 \
          "$run" --lib "$l" --board "$board" --layout "$layout" "$@" 2>&1)
    rc=$?
    echo "$out" | grep -v '^qemu-system-riscv32: ' | sed 's/^/# /'
    echo "$out" | grep -q ': PASS$' || rc=1
    ok $rc "$name"
}

for board in p150 p100a; do
    python3 "$src/tests/dispatch/gen-programs.py" "$tmp/$board" "$board"
    python3 "$src/tests/dispatch/gen-programs.py" "$tmp/$board-fast" \
        "$board" --fast
done
python3 "$src/tests/dispatch/cq-stream.py" "$tmp/stream"

for layout in tt-metal-0079e94 blackhole-py-5d08c23; do
    for board in p150 p100a; do
        d=$tmp/$board
        for prog in rw-1 rw-grid mcast add-1 add-grid matmul-1 \
                    matmul-grid; do
            run_prog "slow dispatch, $layout firmware, $board: $prog" \
                "$board" "$layout" "$lib" "$d/$prog.tt"
        done
    done
done

# Fast dispatch: the same programs through the command queue (prefetcher
# and dispatcher kernels on the two rightmost cores of rows 2 and 3)
for args in "p150 tt-metal-0079e94 rw-1" "p150 tt-metal-0079e94 rw-grid" \
            "p150 tt-metal-0079e94 mcast" "p100a tt-metal-0079e94 rw-grid" \
            "p100a tt-metal-0079e94 mcast" \
            "p150 blackhole-py-5d08c23 rw-grid" \
            "p100a blackhole-py-5d08c23 mcast" \
            "p150 tt-metal-0079e94 rw-grid --go-via-dispatch-s" \
            "p150 tt-metal-0079e94 mcast --no-mcast" \
            "p150 tt-metal-0079e94 mcast --dispatch-noc 1" \
            "p100a blackhole-py-5d08c23 rw-grid --dispatch-noc 1" \
            "p150 tt-metal-0079e94 mcast --dispatch-noc 1 --go-via-dispatch-s" \
            "p150 tt-metal-0079e94 add-1" "p150 tt-metal-0079e94 matmul-1" \
            "p150 tt-metal-0079e94 add-grid" \
            "p150 tt-metal-0079e94 matmul-grid" \
            "p100a blackhole-py-5d08c23 matmul-grid" \
            "p100a tt-metal-0079e94 add-grid --dispatch-noc 1"; do
    set -- $args
    board=$1 layout=$2 prog=$3
    shift 3
    run_prog "fast dispatch, $layout firmware, $board: $prog${*:+ $*}" \
        "$board" "$layout" "$lib" --fast "$@" "$tmp/$board-fast/$prog.tt"
done

# 1,000 back-to-back launches, one command per issue record (about 8,000
# records: prefetch_q's 1,534 entries wrap), 64 KiB issue and completion
# rings (they wrap too); the counter must read 1,000 and every completion
# event must come back in order (tt-run checks each)
out=$(TT_EMU_ARGS="-M blackhole,board=p150" timeout 900 "$run" --lib "$lib" \
      --fast --launches 1000 --record-size 64 --issue-size 64K \
      --completion-size 64K --stats "$tmp/p150-fast/count.tt" 2>&1)
rc=$?
echo "$out" | grep -v '^qemu-system-riscv32: ' | sed 's/^/# /'
echo "$out" | grep -q ': PASS$' || rc=1
ok $rc "fast dispatch: 1000 launches back to back, counter reads 1000"
echo "$out" | grep -q "issue ring wrapped [1-9][0-9]* times, prefetch_q [1-9][0-9]*, completion ring [1-9][0-9]*$"
ok $? "fast dispatch: the issue ring, prefetch_q and the completion ring wrapped"

# Command streams encoded by cq-stream.py: what reached L1 and GDDR, byte
# for byte; a wrong expectation must fail; malformed commands stop the
# kernel that reads them with an error word tt-run prints
stream() {  # stream LIB STREAM [tt-run options...]
    local l=$1 f=$2
    shift 2
    TT_EMU_ARGS="-M blackhole,board=p150" timeout 300 "$run" --lib "$l" \
        --fast --timeout 20 "$@" --cq-stream "$tmp/stream/$f" \
        "$tmp/stream/good.tt" 2>&1 | grep -v '^qemu-system-riscv32: '
}
out=$(stream "$lib" good.bin)
echo "$out" | sed 's/^/# /'
echo "$out" | grep -q ': PASS$'
ok $? "command stream framing: every write and relay command, byte for byte"
# one command per record, sent without waiting: prefetch_q fills up and
# wraps, the 64 KiB issue ring wraps
out=$(TT_EMU_ARGS="-M blackhole,board=p150" timeout 300 "$run" --lib "$lib" \
      --fast --timeout 20 --record-size 64 --issue-size 64K --stats \
      --cq-stream "$tmp/stream/many.bin" "$tmp/stream/many.tt" 2>&1 |
      grep -v '^qemu-system-riscv32: ')
echo "$out" | sed 's/^/# /'
echo "$out" | grep -q ': PASS$' &&
    echo "$out" | grep -q "5001 records.*issue ring wrapped [1-9][0-9]* times, prefetch_q [1-9]"
ok $? "command stream: 5000 records in a row, prefetch_q full and wrapping"
cp "$tmp/stream/a_linear.bin" "$tmp/a_linear.bin"
printf '\377' | dd of="$tmp/stream/a_linear.bin" bs=1 seek=100 conv=notrunc \
    2>/dev/null
out=$(stream "$lib" good.bin)
echo "$out" | sed 's/^/# /'
echo "$out" | grep -q "output a_linear differs on core (1,2) at byte 0x64"
ok $? "command stream framing: a wrong expected byte is caught"
cp "$tmp/a_linear.bin" "$tmp/stream/a_linear.bin"
while IFS="$(printf '\t')" read -r name msg; do
    out=$(stream "$lib" "bad-$name.bin" --timeout 10)
    echo "$out" | sed 's/^/# /'
    echo "$out" | grep -qF "tt-run: $msg"
    ok $? "malformed command ($name): the error word is reported"
done < "$tmp/stream/bad.list"

# Bad descriptions: refused with a clear message before the device is
# touched (--lib names no library: reaching it would be another error)
bad() {     # bad PROGRAM PATTERN DESCRIPTION
    local out rc
    out=$("$run" --lib /nonexistent/libttsim.so "$tmp/p150/$1" 2>&1)
    rc=$?
    echo "$out" | sed 's/^/# /'
    [ "$rc" = 1 ] && echo "$out" | grep -q -- "$2"
    ok $? "bad input refused before the device starts: $3"
}
bad bad-core.tt "core (8,2) is outside the p150's Tensix grid" \
    "a core outside the grid"
bad bad-core2.tt "core (17,11) is outside" "a core range past the grid"
bad bad-elf.tt "no-such-kernel.brisc.elf: No such file" "a missing kernel ELF"
bad bad-elf2.tt "not-an-elf.bin: not a 32-bit little-endian RISC-V ELF" \
    "a file that is not an ELF"
bad bad-overlap.tt "CB 0 \[0x40000, 0x41000) overlaps L1 input a" \
    "a buffer overlapping a CB"
bad bad-overlap2.tt "L1 input a \[0x40000, 0x40400) overlaps L1 input b" \
    "two overlapping L1 buffers"

bad bad-span.tt \
    "eth-send.erisc.elf: argument '{i}': {i} is not defined for an ERISC" \
    "an ERISC kernel argument naming a Tensix core's variable"
bad bad-chip.tt "bad-chip.tt:1: chip N, 0-31" "a chip past the last PCI device"

# Programs that span chips, on the P300 library (one QEMU per chip): a
# sender ERISC kernel on chip 0 reading a Tensix tile's L1 over the NOC
# and streaming it over TT-link, a receiver on chip 1 writing it into a
# Tensix tile's L1 there
p300=$B/libttsim/p300/libttsim.so
if [ -f "$p300" ]; then
    run_prog "two chips: 448 KiB chip 0 tile -> link:1 -> chip 1 tile, x5" \
        p150 tt-metal-0079e94 "$p300" --launches 5 "$tmp/p150/span.tt"
    run_prog "two chips: both links at once, channels named, 4 KiB chunks" \
        p150 blackhole-py-5d08c23 "$p300" "$tmp/p150/span-4k.tt"
    out=$(timeout 300 "$run" --lib "$p300" --timeout 20 \
          "$tmp/p150/span-badarg.tt" 2>&1)
    rc=$?
    echo "$out" | grep -v '^qemu-system-riscv32: ' | sed 's/^/# /'
    [ "$rc" = 1 ] &&
        echo "$out" | grep -q "chip 0 channel 2: .*eth-send.erisc.elf returned 1$"
    ok $? "two chips: an ERISC kernel's error, with its chip and channel"
    out=$(TT_EMU_ARGS="-M blackhole,board=p150" timeout 300 "$run" \
          --lib "$lib" "$tmp/p150/span.tt" 2>&1)
    rc=$?
    echo "$out" | grep -v '^qemu-system-riscv32: ' | sed 's/^/# /'
    [ "$rc" = 1 ] &&
        echo "$out" | grep -q "no chip 1 (PCI device 1 reads 0xffffffff)"
    ok $? "two chips: a one-chip library is refused, naming the missing chip"
    out=$(timeout 300 "$run" --lib "$p300" "$tmp/p150/span-3chips.tt" 2>&1)
    rc=$?
    echo "$out" | grep -v '^qemu-system-riscv32: ' | sed 's/^/# /'
    [ "$rc" = 1 ] &&
        echo "$out" | grep -q "no chip 2 (PCI device 2 reads 0xffffffff)"
    ok $? "a link:2 in chip 1's part makes a program of three chips"
    if [ -n "${TTSIM_X2_LIB:-}" ]; then
        run_prog "two chips on ttsim's bh_x2 ($TTSIM_X2_LIB): span.tt" \
            p150 tt-metal-0079e94 "$TTSIM_X2_LIB" "$tmp/p150/span.tt"
    else
        echo "# two-chip ttsim part skipped: TTSIM_X2_LIB (ttsim's bh_x2" \
             "libttsim.so, built from tenstorrent/ttsim) not given"
    fi
else
    echo "# two-chip part skipped: $p300 not built"
fi

# A kernel that never finishes: the timeout names every busy core and
# where its BRISC is
out=$(TT_EMU_ARGS="-M blackhole,board=p150" timeout 300 "$run" --lib "$lib" \
      --timeout 3 "$tmp/p150/hang.tt" 2>&1)
rc=$?
echo "$out" | grep -v '^qemu-system-riscv32: ' | sed 's/^/# /'
busy=$(echo "$out" | grep -c "^  core ([12],[23]): go 0x80000000 (GO), still running: brisc (pc 0x[0-9a-f]*, in its kernel)")
[ "$rc" = 1 ] && [ "$busy" = 4 ] &&
    echo "$out" | grep -q "4 of 4 cores not done after 3 s"
ok $? "a hanging kernel: timeout message naming the 4 busy cores"

# ... and through the command queue: the dispatcher's worker count and the
# same busy cores
out=$(TT_EMU_ARGS="-M blackhole,board=p150" timeout 300 "$run" --lib "$lib" \
      --fast --timeout 3 "$tmp/p150/hang.tt" 2>&1)
rc=$?
echo "$out" | grep -v '^qemu-system-riscv32: ' | sed 's/^/# /'
busy=$(echo "$out" | grep -c "^  core ([12],[23]): go 0x80031000 (GO), still running: brisc (pc 0x[0-9a-f]*, in its kernel)")
[ "$rc" = 1 ] && [ "$busy" = 4 ] &&
    echo "$out" | grep -q "launch 1 not complete; dispatcher stream 48 at 0 of 4"
ok $? "a hanging kernel, fast dispatch: the dispatcher's count and the 4 busy cores"

# Stock tt-metal firmware (never part of the project)
if [ -n "${TT_STOCK_FW:-}" ]; then
    if make -s -C "$src/tests/dispatch" O="$B/dispatch" stock \
        FW_DIR="$(cd "$TT_STOCK_FW" && pwd)" > "$tmp/stock.log" 2>&1; then
        for board in p100a p150; do
            for prog in rw-1 rw-grid mcast; do
                run_prog "slow dispatch, stock firmware of $TT_STOCK_FW, $board: $prog" \
                    "$board" blackhole-py-5d08c23 "$lib" \
                    --fw "$TT_STOCK_FW" --kernels "$B/dispatch/stock/kernels" \
                    "$tmp/$board/$prog.tt"
            done
        done
    else
        sed 's/^/# /' "$tmp/stock.log"
        ok 1 "kernels built against the stock firmware in $TT_STOCK_FW"
    fi
else
    echo "# stock-firmware part skipped: TT_STOCK_FW (a directory of tt-metal" \
         "firmware ELFs such as blackhole-py's riscv-firmware/p100a) not given"
fi

# The same binary on Tenstorrent's ttsim
if [ -n "${TTSIM_LIB:-}" ]; then
    for prog in rw-1 rw-grid mcast add-1 matmul-1 matmul-grid; do
        run_prog "slow dispatch on ttsim ($TTSIM_LIB), p150: $prog" \
            p150 tt-metal-0079e94 "$TTSIM_LIB" "$tmp/p150/$prog.tt"
    done
    for prog in rw-1 rw-grid mcast add-1 matmul-1; do
        run_prog "fast dispatch on ttsim ($TTSIM_LIB), p150: $prog" \
            p150 tt-metal-0079e94 "$TTSIM_LIB" --fast --clocks 100000 \
            "$tmp/p150-fast/$prog.tt"
    done
    out=$(stream "$TTSIM_LIB" good.bin --clocks 100000)
    echo "$out" | sed 's/^/# /'
    echo "$out" | grep -q ': PASS$'
    ok $? "command stream framing on ttsim, byte for byte"
else
    echo "# ttsim part skipped: TTSIM_LIB (a libttsim.so built from" \
         "tenstorrent/ttsim) not given"
fi

echo "1..$n"
exit $failed
