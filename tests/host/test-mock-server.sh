#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libttsim.so against tt-mock-server (built with make LVU=...):
#  1. tt-libttsim-mock-test over TT_EMU_SOCKET (DMA mailbox, TLB words,
#     splitting);
#  2. tt-libttsim-test with the library starting "QEMU" itself
#     (fake-qemu.sh), then checks that it is stopped and its directory gone;
#  3. the host killed with SIGKILL: the emulator must die with it;
#  4. an emulator that exits at once: libttsim_init must abort quickly.
#
#   test-mock-server.sh <dir of tt-mock-server and the tests> <libttsim.so>
#
# Exits 77 (skipped) when tt-mock-server was not built.

set -u
out=${1:?usage: $0 <test dir> <libttsim.so>}
lib=${2:?usage: $0 <test dir> <libttsim.so>}
src=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$out/tt-mock-server" ]; then
    echo "SKIP: $out/tt-mock-server not built (make LVU=<libvfio-user build>)"
    exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/libttsim-mock.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
n=0
tap() {     # tap <0 if ok> <description>
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        fail=1
    fi
}
alive() { kill -0 "$1" 2>/dev/null; }

# run <log> <cmd...>: show the output indented, return the status
# (environment through env(1): assignments before a shell function may
# outlive the call in some shells)
run() {
    log=$1
    shift
    "$@" >"$log" 2>"$log.err"
    rc=$?
    sed 's/^/#   /' "$log"
    [ $rc -eq 0 ] || sed 's/^/#   stderr: /' "$log.err"
    return $rc
}

echo "# 1: mock test over TT_EMU_SOCKET"
"$out/tt-mock-server" "$work/sock" 2>"$work/mock.log" &
mock=$!
run "$work/t1" env TT_EMU_SOCKET="$work/sock" TT_EMU_TIMEOUT=10 \
    "$out/tt-libttsim-mock-test" "$lib"
tap $? "tt-libttsim-mock-test passes (see above)"
wait $mock
tap $? "the mock server exited cleanly after the client left"

echo "# 1b: the same, loaded from a sealed memfd as tt-umd may do"
"$out/tt-mock-server" "$work/sock1b" 2>>"$work/mock.log" &
mock=$!
run "$work/t1b" env TT_TEST_MEMFD=1 TT_EMU_SOCKET="$work/sock1b" \
    TT_EMU_TIMEOUT=10 "$out/tt-libttsim-mock-test" "$lib"
tap $? "tt-libttsim-mock-test passes with the library in a memfd"
wait $mock

echo "# 2: the library starts the emulator (fake-qemu.sh) itself"
mkdir "$work/tmp"
export FAKE_QEMU_SERVER="$out/tt-mock-server"
export FAKE_QEMU_PIDFILE="$work/pid"
export FAKE_QEMU_ARGS="-M blackhole,board=p150 -accel tcg"
run "$work/t2" env TMPDIR="$work/tmp" TT_EMU_QEMU="$src/fake-qemu.sh" \
    TT_EMU_ARGS="$FAKE_QEMU_ARGS" TT_TEST_NO_CORES=1 \
    "$out/tt-libttsim-test" "$lib"
tap $? "tt-libttsim-test passes against the launched mock"
pid=$(cat "$work/pid" 2>/dev/null)
sleep 0.2
[ -n "$pid" ] && ! alive "$pid"
tap $? "the emulator ($pid) is gone after libttsim_exit"
[ -z "$(ls -A "$work/tmp")" ]
tap $? "its temporary directory is removed"

echo "# 3: the host dies"
rm -f "$work/pid"
TMPDIR="$work/tmp" TT_EMU_QEMU="$src/fake-qemu.sh" TT_EMU_ARGS="$FAKE_QEMU_ARGS" \
    "$out/tt-libttsim-mock-test" "$lib" orphan >"$work/t3" 2>&1
status=$?
pid=$(cat "$work/pid" 2>/dev/null)
[ $status -eq 137 ] && grep -q '^ok 2 ' "$work/t3"
tap $? "host connected, then killed by SIGKILL (status $status)"
i=0
while [ -n "$pid" ] && alive "$pid" && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
[ -n "$pid" ] && ! alive "$pid"
tap $? "the orphaned emulator ($pid) died with its host"
[ -z "$(ls -A "$work/tmp")" ]
tap $? "and left no temporary directory"

echo "# 4: an emulator that fails to start"
start=$(date +%s)
FAKE_QEMU_FAIL=1 TMPDIR="$work/tmp" TT_EMU_QEMU="$src/fake-qemu.sh" \
    TT_EMU_ARGS="$FAKE_QEMU_ARGS" \
    "$out/tt-libttsim-mock-test" "$lib" init >"$work/t4" 2>&1
status=$?
elapsed=$(( $(date +%s) - start ))
sed 's/^/#   /' "$work/t4"
[ $status -eq 134 ] && grep -q 'has exited (exit code 3)' "$work/t4" &&
    [ $elapsed -lt 10 ]
tap $? "libttsim_init aborts at once with the exit status ($elapsed s)"
[ -z "$(ls -A "$work/tmp")" ]
tap $? "no temporary directory left behind"

TT_EMU_QEMU=/nonexistent/qemu "$out/tt-libttsim-mock-test" "$lib" init \
    >"$work/t5" 2>&1
status=$?
sed 's/^/#   /' "$work/t5"
[ $status -eq 134 ] && grep -q "cannot find the emulator" "$work/t5"
tap $? "a missing QEMU binary is reported"

echo "1..$n"
exit $fail
