#!/bin/sh
# Run the Blackhole fuzz targets of a --fuzz build (./configure --fuzz) for
# SECONDS each and print, per target, libFuzzer's executions, coverage and
# any crash, hang or sanitizer report.  Corpora persist in
# FUZZ_BUILD/corpus/TARGET (seeded from tests/fuzz/seeds/TARGET);
# crashing inputs land in FUZZ_BUILD/artifacts/ with a qtest trace
# (TARGET-crash-....qtest) that tests/fuzz/replay.py replays on any build.
#
#   tests/fuzz/run-fuzz.sh FUZZ_BUILD SECONDS [TARGET...]
#
# FUZZ_SEED=N gives libFuzzer -seed=N (CI does, so that a red run is one
# anyone can repeat); unset, every run draws its own.
#
# Targets: tt-niu-fuzz tt-tensix-fuzz tt-pcie-fuzz tt-eth-fuzz
# (tests/qtest/fuzz/tt-fuzz.c), tt-vfu-fuzz (tests/qtest/fuzz/
# tt-vfu-fuzz.c, a vfio-user client session per input) and generic-fuzz-tt, QEMU's generic-fuzz on
# every MMIO region of the first tile.
set -u
F=$(cd "$1" && pwd)
secs=$2
shift 2
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=$F/qemu/qemu-fuzz-riscv32
targets=${*:-tt-niu-fuzz tt-tensix-fuzz tt-pcie-fuzz tt-eth-fuzz tt-vfu-fuzz
generic-fuzz-tt}
machine="-M blackhole,harvested-tensix-cols=2:3:4:5:6:7:10:11:12:13:14:15:16"
machine="$machine,prealloc-l1=off"
mkdir -p "$F/artifacts" "$F/fuzz-logs"
[ -x "$bin" ] || { echo "run-fuzz: no $bin (make fuzz builds it)" >&2; exit 1; }

# A sanitizer report ends the run with a crash artifact; leak checking is
# off as in QEMU's OSS-Fuzz build (scripts/oss-fuzz/build.sh)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}"
# generic-fuzz: the machine, and every MMIO region of the first tile (its
# NIUs, NOC overlay, debug registers, PIC, Tensix push/PC buffer/GPR/
# configuration/MOP windows); the others are reached from there
export QEMU_FUZZ_ARGS="$machine"
export QEMU_FUZZ_OBJECTS='tt-* tensix-*'

total=0
bad=0
for t in $targets; do
    fz=$t
    [ "$t" = generic-fuzz-tt ] && fz=generic-fuzz
    corpus=$F/corpus/$t
    mkdir -p "$corpus"
    [ -d "$src/tests/fuzz/seeds/$t" ] && cp -n "$src/tests/fuzz/seeds/$t"/* "$corpus/" 2>/dev/null
    log=$F/fuzz-logs/$t.log
    touch "$F/artifacts/.start"
    # tt-vfu-fuzz's server warns once per client that comes and goes
    { "$bin" --fuzz-target="$fz" \
        ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
        -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -max_len=2048 \
        -print_final_stats=1 -artifact_prefix="$F/artifacts/$t-" \
        "$corpus" 2>&1; echo $? > "$log.rc"; } |
        grep -v -e '^riscv32: warning: tt-vfio-user: client on .* gone' \
                -e '^riscv32: warning: tt-vfio-user: a client failed to' \
        > "$log"
    rc=$(cat "$log.rc")
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" |
           awk '{s += $1} END {print s + 0}')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    total=$((total + runs))
    # a slow unit (over 10 s, under -timeout) is reported, not a finding:
    # on a loaded host it is the host that is slow
    new=$(find "$F/artifacts" -name "$t-*" ! -name "$t-slow-unit-*" \
          -newer "$F/artifacts/.start" | wc -l)
    slow=$(grep -a '^Slowest unit: ' "$log" | tail -1)
    if [ "$rc" != 0 ] || [ "$new" != 0 ]; then
        bad=$((bad + 1))
        echo "$t: FAIL: exit $rc after $runs executions; log $log"
        grep -E 'ERROR: |runtime error|Test unit written' "$log" | head -5 |
            sed "s|^|$t:   |"
        # the input as qtest commands, for tests/fuzz/replay.py (a
        # tt-vfu-fuzz input is socket traffic: re-run the input itself)
        [ "$t" = tt-vfu-fuzz ] && continue
        for a in $(find "$F/artifacts" -name "$t-*" ! -name '*.qtest' \
                   ! -name '*.trace' ! -name "$t-slow-unit-*" \
                   -newer "$F/artifacts/.start"); do
            FUZZ_SERIALIZE_QTEST=1 QTEST_LOG=1 "$bin" --fuzz-target="$fz" \
                "$a" > "$a.trace" 2>&1
            python3 "$src/tests/fuzz/replay.py" --from-trace "$a.trace" \
                --args "-accel qtest $machine" > "$a.qtest"
            echo "$t:   qtest trace: $a.qtest"
        done
    else
        echo "$t: ok: $runs executions in $secs s, $cov, corpus $(ls "$corpus" | wc -l)${slow:+; $slow}"
    fi
done
echo "fuzz: $total executions, $bad target(s) with findings${FUZZ_SEED:+ (seed $FUZZ_SEED)}"
[ "$bad" = 0 ]
