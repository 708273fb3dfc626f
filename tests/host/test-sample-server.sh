#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libttsim.so against libvfio-user's sample server (samples/server.c):
#
#   LVU_SAMPLE_SERVER=<libvfio-user build>/samples/server \
#       test-sample-server.sh <dir of the test programs> <libttsim.so>
#
# Exits 77 (skipped) when LVU_SAMPLE_SERVER is not an executable.

set -u
out=${1:?usage: $0 <test dir> <libttsim.so>}
lib=${2:?usage: $0 <test dir> <libttsim.so>}
server=${LVU_SAMPLE_SERVER:-}

if [ -z "$server" ] || [ ! -x "$server" ]; then
    echo "SKIP: LVU_SAMPLE_SERVER='$server' is not libvfio-user's" \
         "samples/server (build it with meson/ninja; see README.rst)"
    exit 77
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/libttsim-sample.XXXXXX") || exit 1
pid=
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT

# The sample serves one client, then exits; the library waits for the socket
"$server" "$dir/sock" 2>"$dir/server.log" &
pid=$!

TT_EMU_SOCKET="$dir/sock" TT_EMU_TIMEOUT=10 \
    "$out/tt-libttsim-sample-test" "$lib" 0xdead 0xbeef
rc=$?

# The sample logs errors for the accesses the test makes it refuse
wait "$pid" 2>/dev/null
pid=
if [ $rc -ne 0 ]; then
    echo "# sample server log:"
    sed 's/^/#   /' "$dir/server.log"
fi
exit $rc
