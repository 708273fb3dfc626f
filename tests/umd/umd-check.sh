#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tenstorrent's own driver as the judge: runs a tt-umd build's api_tests
# (and its simulator microbenchmarks) against our libttsim.so and, with
# TTSIM_LIB, against Tenstorrent's ttsim, one test per process (ttsim
# ends the whole process on what it does not support, and a library may
# allow one device per process), and prints one line per test and the
# totals.  tt-umd is the user's own build (docs/system/riscv/blackhole.rst,
# "tt-umd and tt-metal"); without TT_UMD_BUILD this prints a skip.
#
#   TT_UMD_BUILD=<tt-umd build dir> [TTSIM_LIB=<libttsim.so>] \
#       [UMD_FILTER=<gtest filter>] [UMD_TIMEOUT=<s>] \
#       tests/umd/umd-check.sh [BUILD_DIR]
#
# A test counts as OFF (disabled in tt-umd's source: not run), PASS
# (gtest passed it), SKIP (gtest skipped it), FAIL
# (gtest failed it), or STOP (the process ended without a verdict: a
# simulator that exits on an unsupported feature, a crash, a timeout).
set -u
B=$(cd "${1:-build}" 2>/dev/null && pwd) || {
    echo "umd-check: SKIP: no build directory ${1:-build}"
    exit 0
}
if [ -z "${TT_UMD_BUILD:-}" ]; then
    echo "umd-check: SKIP: TT_UMD_BUILD (a tt-umd build with TT_UMD_BUILD_TESTS" \
         "and TT_UMD_BUILD_SIMULATION) not given"
    exit 0
fi
api=$TT_UMD_BUILD/test/umd/api/api_tests
bench=$(find "$TT_UMD_BUILD/test" -name umd_microbenchmark -type f 2>/dev/null |
        head -1)
if [ ! -x "$api" ]; then
    echo "umd-check: SKIP: no api_tests in $TT_UMD_BUILD/test/umd/api"
    exit 0
fi
filter=${UMD_FILTER:-*}
tmo=${UMD_TIMEOUT:-300}
work=$(mktemp -d "${TMPDIR:-/tmp}/umd-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Each library in a directory of its own, with the SoC descriptor tt-umd
# looks for beside it (ours installs one; ttsim gets the same P150 one)
mkdir -p "$work/ours" "$work/ttsim"
ln -s "$B/libttsim/libttsim.so" "$work/ours/libttsim.so"
cp "$B/libttsim/soc_descriptor.yaml" "$work/ours/"
libs="ours"
if [ -n "${TTSIM_LIB:-}" ]; then
    if [ ! -f "$TTSIM_LIB" ]; then
        echo "umd-check: TTSIM_LIB=$TTSIM_LIB: no such file" >&2
        exit 2
    fi
    ln -s "$TTSIM_LIB" "$work/ttsim/libttsim.so"
    cp "$B/libttsim/soc_descriptor.yaml" "$work/ttsim/"
    libs="ours ttsim"
fi
export TT_EMU_QEMU=${TT_EMU_QEMU:-$B/qemu/qemu-system-riscv32}

# gtest's list: "Suite." lines, then "  test" lines (comments after #)
list() {
    "$1" --gtest_list_tests --gtest_filter="$2" 2>/dev/null |
        awk '/^[^ ]/ { s = $1 } /^  / { print s $1 }'
}

# run BINARY TEST LIB: the verdict, and the test's time in ms
run() {
    local out t0 t1 v

    t0=$(date +%s%N)
    out=$(TT_UMD_SIMULATOR="$work/$3/libttsim.so" \
          TT_METAL_SIMULATOR="$work/$3/libttsim.so" \
          timeout "$tmo" "$1" --gtest_filter="$2" 2>&1)
    t1=$(date +%s%N)
    if grep -q '^\[  PASSED  \] 1 test' <<< "$out"; then
        v=PASS
    elif grep -q '^\[  SKIPPED \] 1 test' <<< "$out"; then
        v=SKIP
    elif grep -q '^\[  FAILED  \]' <<< "$out"; then
        v=FAIL
    else
        v=STOP
    fi
    echo "$v $(( (t1 - t0) / 1000000 ))"
    printf '%s\n' "$out" > "$work/$3.$(tr -c 'A-Za-z0-9.' _ <<< "$2").log"
}

printf '%-72s' "test"
for l in $libs; do printf ' %-12s' "$l"; done
echo
declare -A total
n=0
for bin in "$api" ${bench:+"$bench"}; do
    for t in $(list "$bin" "$filter"); do
        n=$((n + 1))
        printf '%-72s' "$t"
        # gtest lists them but runs none when asked for one by name
        if [[ $t == *DISABLED_* ]]; then
            for l in $libs; do
                total[$l.OFF]=$(( ${total[$l.OFF]:-0} + 1 ))
                printf ' %-12s' "OFF"
            done
            echo
            continue
        fi
        for l in $libs; do
            read -r v ms <<< "$(run "$bin" "$t" "$l")"
            total[$l.$v]=$(( ${total[$l.$v]:-0} + 1 ))
            printf ' %-12s' "$v $((ms))ms"
            if [ "$v" != PASS ] && [ "$v" != SKIP ]; then
                mkdir -p "${UMD_LOGS:-$work/keep}"
                cp "$work/$l.$(tr -c 'A-Za-z0-9.' _ <<< "$t").log" \
                   "${UMD_LOGS:-$work/keep}/" 2>/dev/null
            fi
        done
        echo
    done
done
echo
for l in $libs; do
    echo "umd-check: $l: $n tests: ${total[$l.PASS]:-0} pass," \
         "${total[$l.SKIP]:-0} skip, ${total[$l.FAIL]:-0} fail," \
         "${total[$l.STOP]:-0} stop, ${total[$l.OFF]:-0} disabled"
done
[ -n "${UMD_LOGS:-}" ] && echo "umd-check: logs of the others in $UMD_LOGS"
exit 0
