#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tensix kernel tests: tools/tt-kernel-run runs the unpack/math/pack
# kernels of firmware/tensix on one Tensix tile of a libttsim-ABI library
# and checks every result against the host reference (tools/runtime/tt-ref.c).
# Prints TAP; skips (1..0 # SKIP) when the library or the programs are
# missing.
#
#   tests/tensix/kernel-test.sh [BUILD_DIR [LIB [tt-kernel-run options]]]
#
# LIB defaults to $TT_LIBTTSIM, else BUILD_DIR/libttsim/libttsim.so (our
# library, which starts BUILD_DIR/qemu/qemu-system-riscv32 unless
# TT_EMU_QEMU names another).  E.g. against Tenstorrent's ttsim, and our
# library compared with it bit for bit:
#
#   tests/tensix/kernel-test.sh build /opt/ttsim/libttsim.so
#   tests/tensix/kernel-test.sh build build/libttsim/libttsim.so \
#       --compare-lib /opt/ttsim/libttsim.so
#
# The vector-unit (SFPU) cases and their SFPLOADMACRO forms run by
# default (tt-kernel-run --sfpu --sfpu-macro); TT_SFPU_CASES=1 leaves the
# SFPLOADMACRO forms out, TT_SFPU_CASES=0 all of them.  Cases ttsim stops
# on are skipped on ttsim.
set -u
B=$(cd "${1:-build}" 2>/dev/null && pwd) || {
    echo "1..0 # SKIP no build directory ${1:-build}"
    exit 0
}
shift $(($# > 0 ? 1 : 0))
lib=${1:-${TT_LIBTTSIM:-$B/libttsim/libttsim.so}}
shift $(($# > 0 ? 1 : 0))
run=$B/tt-kernel-run
fw=$B/tensix-fw/tt-kernels.bin

if [ ! -f "$lib" ]; then
    echo "1..0 # SKIP no libttsim library at $lib"
    exit 0
fi
if [ ! -x "$run" ] || [ ! -f "$fw" ]; then
    echo "1..0 # SKIP $run or $fw not built (make kernel-run)"
    exit 0
fi
if [ -z "${TT_EMU_QEMU:-}" ] && [ -x "$B/qemu/qemu-system-riscv32" ]; then
    export TT_EMU_QEMU=$B/qemu/qemu-system-riscv32
fi

sfpu=()
case "${TT_SFPU_CASES:-all}" in
0) ;;
1) sfpu=(--sfpu) ;;
*) sfpu=(--sfpu --sfpu-macro) ;;
esac

# ttsim prints a "[clocks] seconds (rate)" line on exit: keep it as a
# TAP comment
"$run" --lib "$lib" --fw "$fw" "${sfpu[@]}" "$@" 2>&1 |
    sed -e 's/^\(\[[0-9]*\] \)/# \1/'
exit "${PIPESTATUS[0]}"
