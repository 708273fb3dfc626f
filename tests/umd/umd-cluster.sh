#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tt-umd opening every chip of our multi-chip libraries: builds
# tests/umd/umd-cluster.cpp against the user's tt-umd build (its headers,
# compile flags from its compile_commands.json, libtt-umd.so) in a
# temporary directory and runs it on build/libttsim/{p300,qb2,galaxy}
# (2, 4 and 32 chips, one QEMU each).  Prints TAP; without TT_UMD_BUILD it
# prints a skip.
#
#   TT_UMD_BUILD=<tt-umd build dir> tests/umd/umd-cluster.sh [BUILD_DIR]
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "${1:-build}" 2>/dev/null && pwd) || {
    echo "1..0 # SKIP no build directory ${1:-build}"
    exit 0
}
U=${TT_UMD_BUILD:-}
if [ -z "$U" ]; then
    echo "1..0 # SKIP TT_UMD_BUILD (a tt-umd build with" \
         "TT_UMD_BUILD_SIMULATION) not given"
    exit 0
fi
if [ ! -f "$U/compile_commands.json" ] || [ ! -f "$U/lib/libtt-umd.so" ]; then
    echo "1..0 # SKIP $U has no compile_commands.json or lib/libtt-umd.so"
    exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/umd-cluster.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TT_EMU_QEMU=${TT_EMU_QEMU:-$B/qemu/qemu-system-riscv32}
export TT_EMU_POOL=0

# the include paths and defines tt-umd compiled its api_tests with
flags=$(python3 - "$U/compile_commands.json" <<'PY'
import json
import shlex
import sys

for e in json.load(open(sys.argv[1])):
    if not e["file"].endswith("/tests/api/test_cluster.cpp"):
        continue
    args = shlex.split(e["command"])
    keep = []
    i = 1
    while i < len(args):
        if args[i] in ("-isystem", "-I"):
            keep += args[i:i + 2]
            i += 2
            continue
        if args[i].startswith(("-I", "-D", "-std=")):
            keep.append(args[i])
        i += 1
    print(" ".join(shlex.quote(k) for k in keep))
    break
PY
)
if [ -z "$flags" ]; then
    echo "1..0 # SKIP $U/compile_commands.json has no api_tests entry"
    exit 0
fi
if ! eval c++ "$flags" -O1 -o "$work/umd-cluster" \
        "$src/tests/umd/umd-cluster.cpp" -L"$U/lib" -ltt-umd \
        -Wl,-rpath,"$U/lib" > "$work/cc.log" 2>&1; then
    sed 's/^/# /' "$work/cc.log"
    echo "not ok 1 - umd-cluster.cpp builds against $U"
    echo "1..1"
    exit 1
fi

n=0
failed=0
for board in p300:2 qb2:4 galaxy:32; do
    name=${board%:*}
    chips=${board#*:}
    lib=$B/libttsim/$name/libttsim.so
    t0=$(date +%s.%N)
    out=$(timeout 900 "$work/umd-cluster" "$lib" "$chips" 2>&1)
    rc=$?
    t1=$(date +%s.%N)
    echo "$out" | grep -v '^ok \|^not ok \|^1\.\.' | grep -v '| info ' |
        grep -v 'inconsistent Tensix harvesting' | sed 's/^/# /'
    # renumber the program's checks into this script's plan
    while read -r line; do
        case $line in
        "ok "*|"not ok "*)
            n=$((n + 1))
            case $line in "not ok "*) failed=1 ;; esac
            echo "$line" | sed "s/^\(not \)\{0,1\}ok [0-9]* - /\1ok $n - $name: /"
            ;;
        esac
    done <<< "$out"
    if [ "$rc" != 0 ] && ! echo "$out" | grep -q '^not ok'; then
        n=$((n + 1))
        failed=1
        echo "not ok $n - $name: umd-cluster exited with $rc"
    fi
    echo "# $name: $chips chips through tt-umd in $(echo "$t1 - $t0" | bc) s"
done
echo "1..$n"
exit $failed
