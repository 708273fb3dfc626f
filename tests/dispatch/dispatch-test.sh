#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tools/tt-run end to end: tt-metal-shaped programs (tests/dispatch's
# kernels, descriptions and data from gen-programs.py, results computed
# there) launched through launch messages on worker firmware, on one
# tile, the 14x10 grid of a P150 and the 12x10 grid of a P100A, for both
# firmware layouts; bad descriptions and a kernel that never finishes.
# Prints TAP.
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
done

for layout in tt-metal-0079e94 blackhole-py-5d08c23; do
    for board in p150 p100a; do
        d=$tmp/$board
        for prog in rw-1 rw-grid mcast; do
            run_prog "slow dispatch, $layout firmware, $board: $prog" \
                "$board" "$layout" "$lib" "$d/$prog.tt"
        done
    done
done

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
    for prog in rw-1 rw-grid mcast; do
        run_prog "slow dispatch on ttsim ($TTSIM_LIB), p150: $prog" \
            p150 tt-metal-0079e94 "$TTSIM_LIB" "$tmp/p150/$prog.tt"
    done
else
    echo "# ttsim part skipped: TTSIM_LIB (a libttsim.so built from" \
         "tenstorrent/ttsim) not given"
fi

echo "1..$n"
exit $failed
