#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Stands in for qemu-system-riscv32 in test-mock-server.sh: checks the
# command line libttsim builds, then becomes tt-mock-server on the socket
# named by -object tt-vfio-user,...,socket=PATH.
#
#   FAKE_QEMU_SERVER   tt-mock-server binary
#   FAKE_QEMU_PIDFILE  where to record our pid (the server keeps it)
#   FAKE_QEMU_ARGS     the TT_EMU_ARGS the test set, expected first
#   FAKE_QEMU_FAIL     if set, exit with status 3 at once

[ -n "${FAKE_QEMU_PIDFILE:-}" ] && echo $$ > "$FAKE_QEMU_PIDFILE"
[ -n "${FAKE_QEMU_FAIL:-}" ] && { echo "fake-qemu: failing on purpose" >&2; exit 3; }

expect="${FAKE_QEMU_ARGS:--M blackhole} -display none -monitor none -serial none -object"
case "$*" in
"$expect tt-vfio-user,id=vfu0,"*"socket="*) ;;
*)
    echo "fake-qemu: unexpected command line: $*" >&2
    echo "fake-qemu: expected: $expect tt-vfio-user,id=vfu0,socket=..." >&2
    exit 4
    ;;
esac

for arg; do :; done     # the last argument: the object
sock=${arg##*,socket=}
exec "$FAKE_QEMU_SERVER" "$sock"
