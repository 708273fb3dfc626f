#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the QEMU patch series one patch at a time (make check-series):
# every prefix of patches/qemu must apply and build.  In BUILDDIR (its
# own, e.g. build/series) ./configure unpacks and verifies QEMU, overlays
# the project's files and configures; this script then reverses the whole
# series, builds pristine QEMU with the project's files beside it, and
# re-applies the patches in order, building qemu-system-riscv32 after each
# and the Blackhole qtests once their build hook is in.  Prints TAP; the
# log of each build is BUILDDIR/series/NNNN.log.  An incremental build per
# patch: about 15 minutes on 2 cores, so it is not part of make check.
#
#   series-build.sh BUILDDIR
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# = 1 ] || { echo "usage: series-build.sh BUILDDIR" >&2; exit 2; }
b=$1
mkdir -p "$b"
b=$(cd "$b" && pwd)
q=$b/src
state=$q/.tt-patches
logs=$b/series
mkdir -p "$logs"

"$top/configure" --builddir="$b" >"$logs/configure.log" 2>&1 ||
    { tail -20 "$logs/configure.log" >&2; exit 1; }
patches=$(cd "$top/patches/qemu" && ls -- *.patch)
# back to pristine QEMU; the project's files stay linked beside it
for p in $(echo "$patches" | sort -r); do
    patch -p1 -R -s -f --no-backup-if-mismatch -d "$q" < "$state/$p"
    rm -f "$state/$p"
done

n=0
fails=0
total=$(($(echo "$patches" | wc -l) + 1))
echo "1..$total"
step() {    # step NAME TARGETS...: build, report
    name=$1
    shift
    n=$((n + 1))
    if ninja -C "$b/qemu" "$@" >"$logs/$name.log" 2>&1; then
        echo "ok $n - $name builds"
    else
        echo "not ok $n - $name does not build (log: $logs/$name.log)"
        fails=$((fails + 1))
    fi
}
step 0000-pristine qemu-system-riscv32
qtests=""
for p in $patches; do
    if ! patch -p1 -s -f --no-backup-if-mismatch -d "$q" \
            < "$top/patches/qemu/$p" >"$logs/${p%.patch}.log" 2>&1; then
        n=$((n + 1))
        echo "not ok $n - $p does not apply"
        exit 1
    fi
    cp "$top/patches/qemu/$p" "$state/$p"
    # the qtests, once a patch has put them in the build
    if [ -z "$qtests" ] &&
       grep -q tenstorrent "$q/tests/qtest/meson.build" 2>/dev/null; then
        qtests=$(sed -n 's/^\(tt-[a-z0-9-]*-test\).*/tests\/qtest\/\1/p' \
                 "$top/tests/qtest/tenstorrent/tests.list")
    fi
    # shellcheck disable=SC2086
    step "${p%.patch}" qemu-system-riscv32 $qtests
done
echo "# $fails of $total builds failed"
[ "$fails" = 0 ]
