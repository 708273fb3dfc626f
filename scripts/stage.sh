#!/bin/sh
# Copy build outputs to where the tests, benchmarks and documentation name
# them (build/firmware, build/libttsim, build/tt-run, ...), for the meson
# build's stage targets (meson.build).  Copies only files that changed,
# each through a temporary file and a rename, so a program running from
# the old copy keeps running.  Copies, not symbolic links: tools find their
# firmware beside /proc/self/exe.
#
#   stage.sh STAMP DIR FILE...
set -eu
stamp=$1
dir=$2
shift 2
mkdir -p "$dir"
for f in "$@"; do
    t=$dir/$(basename "$f")
    cmp -s "$f" "$t" && continue
    cp -p "$f" "$t.tmp$$"
    mv -f "$t.tmp$$" "$t"
done
touch "$stamp"
