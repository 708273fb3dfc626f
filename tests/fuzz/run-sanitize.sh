#!/bin/sh
# make sanitize: a representative part of make check on the ASan + UBSan
# build of ./configure --fuzz: the Blackhole qtests that start small
# machines, the firmware tests on one- and two-column grids (TCG, NOC,
# Tensix, debug, spin-park, deterministic mode) and the replays of the
# fuzzers' findings.  Any sanitizer report fails the run: the sanitizers
# abort QEMU, and each log is searched for reports as well.
#
#   tests/fuzz/run-sanitize.sh BUILD FUZZ_BUILD
#
# TT_SANITIZE_QTESTS overrides the list of qtests.
set -u
B=$(cd "$1" && pwd)
F=$(cd "$2" && pwd)
Q=$F/qemu
src=$(cd "$(dirname "$0")/../.." && pwd)
log=$F/sanitize-logs
mkdir -p "$log"
pass=0
fail=0

# Leaks at exit are not checked (QEMU does not free everything when it
# quits); the fuzzers look for leaks per input when asked to
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1

count() {   # count TAP lines of file $1 for test $2, exit status $3
    p=$(grep -c '^ok ' "$1")
    f=$(grep -c '^not ok ' "$1")
    grep -E '^(not )?ok ' "$1" | sed "s|^|$2: |"
    if grep -qE 'ERROR: AddressSanitizer|runtime error:' "$1"; then
        echo "$2: sanitizer report (log: $1)"
        grep -E -m3 'ERROR: AddressSanitizer|runtime error:' "$1" |
            sed "s|^|$2: |"
        f=$((f + 1))
    fi
    pass=$((pass + p))
    fail=$((fail + f))
    if [ "$3" != 0 ] && [ "$f" = 0 ]; then
        echo "$2: exited with status $3 (log: $1)"
        fail=$((fail + 1))
    fi
    if [ "$p" = 0 ] && [ "$f" = 0 ] && [ "$3" = 0 ]; then
        echo "$2: ran no test (log: $1)"
        fail=$((fail + 1))
    fi
}

qtests=${TT_SANITIZE_QTESTS:-$(awk '!/^#/ && NF && !/no-sanitize/ { print $1 }' \
    "$src/tests/qtest/tenstorrent/tests.list")}
for t in $qtests; do
    (cd "$Q" && QTEST_QEMU_BINARY=./qemu-system-riscv32 \
        TT_FIRMWARE_DIR=$B/firmware timeout 1800 \
        "tests/qtest/$t" --tap -k) > "$log/$t.log" 2>&1
    count "$log/$t.log" "$t" $?
done

# Firmware tests of tests/firmware/tests.list on small grids
while read -r name elf opts; do
    case "$name" in
    core-p150-2col|noc-p150-2col|spin-2tile|tensix-1col|tensix-sync-1col|\
    tensix-sync-det|debug-core-1col) ;;
    *) continue ;;
    esac
    timeout 1200 "$Q/qemu-system-riscv32" \
        -M "blackhole,firmware=$B/firmware/$elf$opts" \
        -semihosting-config enable=on,target=native -display none \
        -monitor none -serial none > "$log/$name.log" 2>&1
    count "$log/$name.log" "$name" $?
done < "$src/tests/firmware/tests.list"

# The host side: libttsim.so end to end, the shared-memory host map on a
# harvested P150, and the bad vfio-user clients (malformed, truncated,
# oversized messages, bad fds, clients dying mid-message).  The last
# test's refusal checks compare QEMU's first line of stderr, which under
# ASan is the runtime's warning about swapcontext; there only the absence
# of a sanitizer report counts.
TT_EMU_QEMU="$Q/qemu-system-riscv32" timeout 600 \
    "$B/host/tt-libttsim-test" "$B/libttsim/libttsim.so" \
    > "$log/libttsim.log" 2>&1
count "$log/libttsim.log" libttsim $?
TT_EMU_QEMU="$Q/qemu-system-riscv32" \
    TT_EMU_ARGS="-M blackhole,harvested-tensix-cols=2:15" TT_EMU_SHM=1 \
    timeout 600 "$B/host/tt-hostmap-test" "$B/libttsim/libttsim.so" \
    > "$log/hostmap.log" 2>&1
count "$log/hostmap.log" hostmap $?
timeout 600 "$B/host/tt-vfu-badclient-test" "$Q/qemu-system-riscv32" \
    > "$log/vfu-badclient.log" 2>&1
if grep -qE 'ERROR: AddressSanitizer|runtime error:' "$log/vfu-badclient.log"; then
    echo "not ok - vfu-badclient: no sanitizer report" > "$log/vfu-badclient.tap"
else
    echo "ok - vfu-badclient: no sanitizer report" > "$log/vfu-badclient.tap"
fi
grep -c '^ok ' "$log/vfu-badclient.log" |
    sed 's/^/# checks passed (log vfu-badclient.log): /' >> "$log/vfu-badclient.tap"
count "$log/vfu-badclient.tap" vfu-badclient 0

# The fuzzers' findings
python3 "$src/tests/fuzz/replay.py" "$Q/qemu-system-riscv32" \
    "$src"/tests/fuzz/regress/*.qtest > "$log/fuzz-regress.log" 2>&1
count "$log/fuzz-regress.log" fuzz-regress $?

echo "sanitize: $pass passed, $fail failed"
[ "$fail" = 0 ]
