#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tools/tt-matmul-demo (make demo) at small sizes, so that it cannot rot:
# a few tiles and all 140 tiles must compute a matmul the host checks,
# a damaged result and bad input must be refused.  With TTSIM_LIB (a
# ttsim the user built) the same LoFi product is also computed there and
# compared with ours bit for bit.  Prints TAP; skips when the program or
# the library is missing.
#
#   tests/tensix/matmul-demo-test.sh [BUILD_DIR [LIB]]
set -u
B=$(cd "${1:-build}" 2>/dev/null && pwd) || {
    echo "1..0 # SKIP no build directory ${1:-build}"
    exit 0
}
lib=${2:-$B/libttsim/libttsim.so}
run=$B/tt-matmul-demo
if [ ! -x "$run" ] || [ ! -f "$B/tensix-fw/tt-kernels.bin" ] ||
   [ ! -f "$lib" ]; then
    echo "1..0 # SKIP $run, its firmware or $lib not built (make matmul-demo)"
    exit 0
fi
if [ -z "${TT_EMU_QEMU:-}" ] && [ -x "$B/qemu/qemu-system-riscv32" ]; then
    export TT_EMU_QEMU=$B/qemu/qemu-system-riscv32
fi
export TT_EMU_ARGS="-M blackhole,board=p150"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

# check DESCRIPTION CONDITION...: one TAP line, the log as comments
check() {
    local what=$1
    shift
    n=$((n + 1))
    if "$@"; then
        echo "ok $n - $what"
    else
        echo "not ok $n - $what"
        sed 's/^/# /' "$tmp/out"
        fails=$((fails + 1))
    fi
}

# demo ARGS...: run it, output in $tmp/out, status in $rc
demo() {
    timeout 300 "$run" --lib "$lib" "$@" > "$tmp/out" 2>&1
    rc=$?
}

passes() { [ "$rc" = 0 ] && grep -q '^PASS$' "$tmp/out"; }
refused() { [ "$rc" = 1 ] && grep -q "$1" "$tmp/out"; }

demo --size 128,256,128 --tiles 4 --dump "$tmp/c.bin"
check "128x256x128 HiFi4 on 4 tiles matches tt-ref and FP64" passes
grep -E '^(compute|verify|  )' "$tmp/out" | sed 's/^/# /'

demo --size 384,64,416 --fidelity lofi --verify sample
check "384x64x416 LoFi on all 140 tiles (1-2 outputs each) matches" passes
grep -E '^(tiles|compute)' "$tmp/out" | sed 's/^/# /'

demo --size 128,256,128 --tiles 4 --corrupt 5
check "a damaged C tile fails both checks" \
    bash -c "[ $rc = 1 ] && grep -q '^FAIL$' '$tmp/out' &&
             grep -q 'first wrong' '$tmp/out' &&
             grep -q 'first outside' '$tmp/out'"

demo --size 100,64,64
check "a size that is not a multiple of 32 is refused" refused "bad size"

demo --size 1024,1024,1024 --tiles 1
check "a share larger than L1 is refused before anything runs" \
    refused "KiB of L1"

if [ -n "${TTSIM_LIB:-}" ] && [ -f "$TTSIM_LIB" ]; then
    demo --size 128,256,128 --tiles 4 --fidelity lofi --dump "$tmp/ours.bin"
    timeout 300 "$run" --lib "$TTSIM_LIB" --size 128,256,128 --tiles 4 \
        --fidelity lofi --dump "$tmp/ttsim.bin" > "$tmp/out" 2>&1
    check "128x256x128 LoFi: ttsim gives the same C, bit for bit" \
        cmp -s "$tmp/ours.bin" "$tmp/ttsim.bin"
else
    echo "# ttsim comparison skipped: TTSIM_LIB not given"
fi
echo "1..$n"
[ "$fails" = 0 ]
