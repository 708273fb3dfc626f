#!/bin/sh
# Run every test of the project: the Blackhole qtests (tests/qtest/tt-*) and
# the self-checking firmware tests (tests/firmware), which report TAP through
# semihosting, and the system and host-side suites below.  Prints each
# result and ends with "N passed, N failed".
#
#   tests/run-tests.sh [BUILD_DIR [SUITE]]   every suite, or only SUITE
#   tests/run-tests.sh --list                "KIND SUITE" per line, in order
#
# `meson test` (tests/meson.build) runs one suite per test from the list,
# so it shows each suite's name and time.
set -u
if [ "${1:-}" = --list ]; then
    list=1
    B=
else
    list=0
    B=$(cd "${1:-build}" && pwd)
fi
only=${2:-}
Q=$B/qemu
src=$(cd "$(dirname "$0")/.." && pwd)
pass=0
fail=0
ran=0
log=$B/test-logs
[ $list = 1 ] || mkdir -p "$log"
# QEMU started by the libttsim library may take long to serve its socket on
# a loaded host (30 s were once not enough at a load average of 124): the
# suites wait longer, each still under its own timeout
export TT_EMU_TIMEOUT="${TT_EMU_TIMEOUT:-120}"
# QEMU started by the library is its child and ends with it (not kept in
# the per-user pool, where its output would go to the pool's log rather
# than to the suite's); the libttsim-pool suite tests the pool
export TT_EMU_POOL="${TT_EMU_POOL:-0}"

# suite KIND NAME COMMAND...: run COMMAND for the suite NAME (all of them,
# or only the one asked for), or list it
suite() {
    if [ $list = 1 ]; then
        echo "$1 $2"
        return 0
    fi
    [ -z "$only" ] || [ "$only" = "$2" ] || return 0
    ran=$((ran + 1))
    shift 2
    "$@"
}

count() {   # count TAP lines of file $1 for test $2
    p=$(grep -c '^ok ' "$1")
    f=$(grep -c '^not ok ' "$1")
    grep -E '^(not )?ok ' "$1" | sed "s|^|$2: |"
    pass=$((pass + p))
    fail=$((fail + f))
    if [ "$3" != 0 ] && [ "$f" = 0 ]; then
        echo "$2: exited with status $3 (log: $1)"
        tail -5 "$1" | sed "s|^|$2: |"
        fail=$((fail + 1))
    fi
    if [ "$p" = 0 ] && [ "$f" = 0 ] && [ "$3" = 0 ]; then
        echo "$2: ran no test (log: $1)"
        fail=$((fail + 1))
    fi
}

qtest() {     # qtest NAME
    (cd "$Q" && QTEST_QEMU_BINARY=./qemu-system-riscv32 \
        TT_FIRMWARE_DIR=$B/firmware timeout 1200 \
        "tests/qtest/$1" --tap -k) > "$log/$1.log" 2>&1
    count "$log/$1.log" "$1" $?
}
for t in $(awk '!/^#/ && NF { print $1 }' \
           "$src/tests/qtest/tenstorrent/tests.list"); do
    suite qtest "$t" qtest "$t"
done

# Firmware tests: the machine options each one needs, one per line.
firmware() {  # firmware NAME ELF OPTIONS
    timeout 600 "$Q/qemu-system-riscv32" -M "blackhole,firmware=$B/firmware/$2$3" \
        -semihosting-config enable=on,target=native -display none \
        -monitor none -serial none > "$log/$1.log" 2>&1
    count "$log/$1.log" "$1" $?
}
while read -r name elf opts; do
    case "$name" in ''|'#'*) continue ;; esac
    suite firmware "$name" firmware "$name" "$elf" "$opts"
done < "$src/tests/firmware/tests.list"

# A scripted gdb-multiarch session on one Tensix column
gdb_session() {
    if command -v gdb-multiarch >/dev/null; then
        python3 "$src/tests/gdb/gdb-test.py" --qemu "$Q/qemu-system-riscv32" \
            --elf "$B/firmware/gdb-test.elf" \
            --attach "$src/scripts/tenstorrent/blackhole-attach.gdb" \
            > "$log/gdb.log" 2>&1
        count "$log/gdb.log" gdb $?
    else
        echo "gdb: SKIP: gdb-multiarch not installed (scripts/install-deps.sh)"
    fi
}
suite system gdb gdb_session

# Hand-offs with gdb attached to every core (under MTTCG, unlike the
# session above): 100,000 on one tile (its cores on one host thread, on
# their own threads, without parking) and 5,000 on each of 140 tiles
gdb_handoff() {  # gdb_handoff NAME ELF OPTIONS
    if command -v gdb-multiarch >/dev/null; then
        python3 "$src/tests/gdb/attached-run.py" \
            --qemu "$Q/qemu-system-riscv32" --elf "$B/firmware/$2" \
            --opts "$3" --attach "$src/scripts/tenstorrent/blackhole-attach.gdb" \
            > "$log/$1.log" 2>&1
        count "$log/$1.log" "$1" $?
    else
        echo "$1: SKIP: gdb-multiarch not installed (scripts/install-deps.sh)"
    fi
}
suite system gdb-handoff-1tile gdb_handoff gdb-handoff-1tile handoff-test-1.elf ""
suite system gdb-handoff-1tile-percore gdb_handoff gdb-handoff-1tile-percore \
    handoff-test-1.elf ,tile-threads=off
suite system gdb-handoff-1tile-nopark gdb_handoff gdb-handoff-1tile-nopark \
    handoff-test-1.elf ,spin-park=off
suite system gdb-handoff-p150 gdb_handoff gdb-handoff-p150 handoff-test.elf ""

# The chip as a PCIe function of a Linux guest, over vfio-user
guest() {
    sh "$src/tests/guest/guest-test.sh" "$src" "$B" > "$log/guest.log" 2>&1
    rc=$?
    if grep -q '^1\.\.0 # SKIP' "$log/guest.log"; then
        echo "guest: $(head -1 "$log/guest.log")"
    else
        count "$log/guest.log" guest $rc
    fi
    grep '^# tt-kmd part skipped' "$log/guest.log" | sed 's/^# /guest: /'
}
suite system guest guest

# libttsim.so: the ABI tt-umd loads, end to end against this machine
libttsim() {
    (sh "$src/tests/host/check-symbols.sh" "$B/libttsim/libttsim.so" &&
     echo "ok - libttsim.so exports exactly the ten libttsim_* functions" ||
     echo "not ok - libttsim.so exports exactly the ten libttsim_* functions"
     TT_EMU_QEMU="$Q/qemu-system-riscv32" timeout 300 \
         "$B/host/tt-libttsim-test" "$B/libttsim/libttsim.so"
     # again by message only: the server, not the library, then orders a
     # read after a release
     echo "# TT_EMU_SHM=0"
     TT_EMU_SHM=0 TT_EMU_QEMU="$Q/qemu-system-riscv32" timeout 300 \
         "$B/host/tt-libttsim-test" "$B/libttsim/libttsim.so") \
        > "$log/libttsim.log" 2>&1
    count "$log/libttsim.log" libttsim $?
}
suite host libttsim libttsim

# The pool of kept emulators: reuse by the next process in power-on state,
# a killed client, concurrent clients, stale sockets, quitting when idle
libttsim_pool() {
    TT_EMU_QEMU="$Q/qemu-system-riscv32" timeout 300 \
        "$B/host/tt-libttsim-pool-test" "$B/libttsim/libttsim.so" \
        > "$log/libttsim-pool.log" 2>&1
    count "$log/libttsim-pool.log" libttsim-pool $?
}
suite host libttsim-pool libttsim_pool

# The host map: L1 and GDDR through shared memory against QEMU's own path
# (random unicast and multicast writes on NOC0/NOC1, translated and raw,
# GDDR ports, odd lengths), ordering of mapped data and a doorbell, cores
# woken by mapped writes, kernels rewritten between launches; on a P150, a
# harvested P150, a P100A, and with the mapping off (TT_EMU_SHM=0)
hostmap() {   # hostmap NAME MACHINE_ARGS SHM
    TT_EMU_QEMU="$Q/qemu-system-riscv32" TT_EMU_ARGS="$2" TT_EMU_SHM=$3 \
        timeout 300 "$B/host/tt-hostmap-test" "$B/libttsim/libttsim.so" \
        > "$log/hostmap-$1.log" 2>&1
    count "$log/hostmap-$1.log" "hostmap-$1" $?
}
for cfg in "p150:-M blackhole,board=p150" \
           "p150-harvested:-M blackhole,harvested-tensix-cols=2:15" \
           "p100a:-M blackhole,board=p100a" \
           "p150-no-shm:-M blackhole,board=p150:0"; do
    name=${cfg%%:*}
    rest=${cfg#*:}
    args=${rest%%:*}
    shm=1
    [ "$rest" = "$args" ] || shm=${rest##*:}
    suite host "hostmap-$name" hostmap "$name" "$args" "$shm"
done

# libttsim.so against a second server, tests/host/tt-mock-server, built
# on QEMU's own libvfio-user: the mailbox served by messages (no shared
# memory), DMA pieces, the library starting and losing its "emulator".
# The meson build makes the server only on request, once QEMU is built.
libttsim_mock() {
    (ninja -C "$B/meson" tests/host/tt-mock-server >/dev/null &&
     sh "$src/tests/host/test-mock-server.sh" "$B/meson/tests/host" \
         "$B/libttsim/libttsim.so") \
        > "$log/libttsim-mock.log" 2>&1
    count "$log/libttsim-mock.log" libttsim-mock $?
}
suite host libttsim-mock libttsim_mock

# Bad vfio-user clients (malformed messages, clients dying mid-message or
# mid-DMA): QEMU logs them, survives and keeps the chip's state
vfu_badclient() {
    timeout 120 "$B/host/tt-vfu-badclient-test" "$Q/qemu-system-riscv32" \
        > "$log/vfu-badclient.log" 2>&1
    count "$log/vfu-badclient.log" vfu-badclient $?
}
suite host vfu-badclient vfu_badclient

# tt-host-run: bench/fw's W1 on all 140 BRISCs through libttsim.so alone,
# loaded and released by multicast, as a host program would
host_run() {
    TT_EMU_QEMU="$Q/qemu-system-riscv32" TT_EMU_ARGS="-M blackhole,board=p150" \
        timeout 120 "$B/tt-host-run" --lib "$B/libttsim/libttsim.so" \
        --count 20000 "$B/bench/bench.bin" > "$log/host-run.log" 2>&1
    count "$log/host-run.log" host-run $?
}
suite host host-run host_run

# The Tensix datapath end to end: firmware/tensix's unpack/math/pack
# kernels (copy, eltwise, matmul, reduce, transpose, tilize, BFP8, FP32)
# through libttsim.so, checked against the host reference
# tools/runtime/tt-ref.c;
# with TTSIM_LIB (a ttsim the user built) also run there and compared
# with ours bit for bit
tensix_kernels() {
    if [ -n "${TTSIM_LIB:-}" ]; then
        TT_EMU_QEMU="$Q/qemu-system-riscv32" bash "$src/tests/tensix/kernel-test.sh" \
            "$B" "$B/libttsim/libttsim.so" --compare-lib "$TTSIM_LIB" \
            > "$log/tensix-kernels.log" 2>&1
    else
        TT_EMU_QEMU="$Q/qemu-system-riscv32" bash "$src/tests/tensix/kernel-test.sh" \
            "$B" "$B/libttsim/libttsim.so" > "$log/tensix-kernels.log" 2>&1
        echo "tensix-kernels: differential part skipped: TTSIM_LIB (a libttsim.so" \
             "built from tenstorrent/ttsim) not given"
    fi
    count "$log/tensix-kernels.log" tensix-kernels $?
}
suite host tensix-kernels tensix_kernels

# The Src data-valid hand-off under pressure: the kernels with their MOPs
# pushed word by word, 500 runs each on one tile and 20 on 140 tiles
# (TT_STRESS_RUNS; make check-full runs 1000 and 100): no run may hang or
# differ from the first
tensix_stress() {
    TT_EMU_QEMU="$Q/qemu-system-riscv32" timeout 1200 \
        bash "$src/tests/tensix/stress-test.sh" "$B" "$B/libttsim/libttsim.so" \
        > "$log/tensix-stress.log" 2>&1
    count "$log/tensix-stress.log" tensix-stress $?
}
suite host tensix-stress tensix_stress

# The differential fuzzer's smoke: 500 random programs of the tt-llk shape
# from seed 1 (tt-kernel-run --fuzz), each against tt-ref, with no hang
# and no line in QEMU's guest-error log; with TTSIM_LIB also bit for bit
# against ttsim; then 300 with invalid words added, each of which must be
# logged while the results stay right (make fuzz-tensix runs more)
tensix_fuzz() {
    (TT_EMU_QEMU="$Q/qemu-system-riscv32" timeout 1200 \
        "$B/tt-kernel-run" --lib "$B/libttsim/libttsim.so" --sfpu \
        --sfpu-macro --fuzz 500 --seed 1 --timeout 30 \
        ${TTSIM_LIB:+--compare-lib "$TTSIM_LIB"} &&
     TT_EMU_QEMU="$Q/qemu-system-riscv32" timeout 1200 \
        "$B/tt-kernel-run" --lib "$B/libttsim/libttsim.so" --sfpu \
        --sfpu-macro --fuzz 300 --seed 2 --timeout 30 --fuzz-invalid) \
        > "$log/tensix-fuzz.log" 2>&1
    count "$log/tensix-fuzz.log" tensix-fuzz $?
    [ -n "${TTSIM_LIB:-}" ] ||
        echo "tensix-fuzz: differential part skipped: TTSIM_LIB not given"
}
suite host tensix-fuzz tensix_fuzz

# The Tensix vector datapath (16-bit lanes for MVMUL on AVX-512 and on
# AVX2 hosts) against the plain reference one (-global
# tt-tensix.reference=on): 3000 random programs over the table's kernels,
# fidelity phases, Dst widths, formats and special operands, bit for bit,
# each side in its own QEMU; once per vector instruction set the host has
# (-global tt-tensix.vector=...), so an AVX-512 host checks the AVX2 path
# too
tensix_datapath() {
    local v rc=0 sets=""

    grep -qw avx512bw /proc/cpuinfo 2>/dev/null && sets="avx512"
    grep -qw avx2 /proc/cpuinfo 2>/dev/null && sets="$sets avx2"
    : > "$log/tensix-datapath.log"
    for v in $sets none; do
        echo "# vector=$v" >> "$log/tensix-datapath.log"
        TT_EMU_QEMU="$Q/qemu-system-riscv32" \
        TT_EMU_ARGS="-M blackhole -global tt-tensix.vector=$v" timeout 1200 \
            "$B/tt-kernel-run" --lib "$B/libttsim/libttsim.so" --sfpu \
            --fuzz 3000 --seed 11 --timeout 30 \
            --compare-lib "$B/libttsim/libttsim.so" \
            --compare-args "-M blackhole -global tt-tensix.reference=on" \
            >> "$log/tensix-datapath.log" 2>&1 || rc=1
    done
    count "$log/tensix-datapath.log" tensix-datapath $rc
    [ -n "$sets" ] ||
        echo "tensix-datapath: this host has neither AVX2 nor AVX-512: only" \
             "the generic path was compared"
}
suite host tensix-datapath tensix_datapath

# make demo's program at small sizes: GDDR -> NCRISC -> unpack/MVMUL/pack
# -> BRISC -> GDDR on 4 and on all 140 tiles, checked against tt-ref and
# FP64; a damaged result and bad input must fail (with TTSIM_LIB also
# compared with ttsim bit for bit)
matmul_demo() {
    TT_EMU_QEMU="$Q/qemu-system-riscv32" bash "$src/tests/tensix/matmul-demo-test.sh" \
        "$B" "$B/libttsim/libttsim.so" > "$log/matmul-demo.log" 2>&1
    count "$log/matmul-demo.log" matmul-demo $?
}
suite host matmul-demo matmul_demo

# Snapshots: a busy P150 (tests/firmware/migrate-test.c, a NOC ring and
# Tensix pushes on every tile, and make demo's matmul over libttsim)
# stopped, migrated to a file and resumed in a fresh QEMU with the same
# results; with deterministic=on the same trace; a damaged stream refused
migration() {
    python3 "$src/tests/migration/migrate-test.py" "$B" > "$log/migration.log" 2>&1
    count "$log/migration.log" migration $?
}
suite system migration migration

# tt-run: tt-metal-shaped programs (reader/writer through CBs, multicast
# with semaphores) launched through launch messages on one tile, a P150
# and a P100A grid, both firmware layouts; bad descriptions and a hanging
# kernel.  TT_STOCK_FW (stock tt-metal firmware ELFs) and TTSIM_LIB add
# the same programs on that firmware and on ttsim.
dispatch() {
    TT_EMU_QEMU="$Q/qemu-system-riscv32" bash "$src/tests/dispatch/dispatch-test.sh" \
        "$B" "$B/libttsim/libttsim.so" > "$log/dispatch.log" 2>&1
    count "$log/dispatch.log" dispatch $?
    grep '^# .* part skipped' "$log/dispatch.log" | sed 's/^# /dispatch: /'
}
suite host dispatch dispatch

# Clusters through tools/tt-cluster: P300, QuietBox 2 (also over TCP), a
# P300 across two network namespaces and a 32-chip Galaxy of one-column
# chips, every link pinging both ways from ERISC firmware; a token around
# the QuietBox 2 ring; a chip killed under its peer; a P300 through
# libttsim; bad topologies
cluster() {
    timeout 1200 python3 "$src/tests/cluster/cluster-test.py" "$B" \
        > "$log/cluster.log" 2>&1
    count "$log/cluster.log" cluster $?
    grep '^# ' "$log/cluster.log" | grep -e 'started in' -e skipped |
        sed 's/^# /cluster: /'
}
suite system cluster cluster

# Trace events through the log and simple backends
tracing() {
    python3 "$src/tests/tracing/trace-test.py" "$B" "$src" > "$log/tracing.log" 2>&1
    count "$log/tracing.log" tracing $?
}
suite system tracing tracing

# Every option -M blackhole,help lists refuses a bad value, naming it
machine_options() {
    timeout 600 python3 "$src/tests/machine/options-test.py" \
        "$Q/qemu-system-riscv32" > "$log/machine-options.log" 2>&1
    count "$log/machine-options.log" machine-options $?
}
suite system machine-options machine_options

# README.rst's commands as written, from the project directory
readme() {
    timeout 1200 python3 "$src/tests/readme/readme-test.py" "$src" \
        > "$log/readme.log" 2>&1
    count "$log/readme.log" readme $?
}
suite system readme readme

# Tensix decoder against the ISA data file, through "tt disas"
tensix_decode() {
    python3 "$src/tests/tensix/decode-test.py" "$B" "$src" \
        > "$log/tensix-decode.log" 2>&1
    count "$log/tensix-decode.log" tensix-decode $?
}
suite system tensix-decode tensix_decode

# Inputs the fuzzers found (tests/fuzz/regress, make fuzz): QEMU answers
# every command of each and still works afterwards
fuzz_regress() {
    python3 "$src/tests/fuzz/replay.py" "$Q/qemu-system-riscv32" \
        "$src"/tests/fuzz/regress/*.qtest > "$log/fuzz-regress.log" 2>&1
    count "$log/fuzz-regress.log" fuzz-regress $?
}
suite system fuzz-regress fuzz_regress

# Cross-check of the project's data files against ttsim's (when present)
check_reference() {
    python3 "$src/scripts/tenstorrent/check-reference.py" "$src" \
        > "$log/check-reference.log" 2>&1
    rc=$?
    if grep -q '^1\.\.0 # SKIP' "$log/check-reference.log"; then
        echo "check-reference: $(head -1 "$log/check-reference.log")"
    else
        count "$log/check-reference.log" check-reference $rc
    fi
}
suite data check-reference check_reference

# One source per constant: the shared ABI headers' values typed nowhere else
one_source() {
    python3 "$src/tests/data/one-source-test.py" "$src" \
        > "$log/one-source.log" 2>&1
    count "$log/one-source.log" one-source $?
}
suite data one-source one_source

# The QEMU patch series in format-patch form, and listed in docs/devel
patch_series() {
    python3 "$src/tests/data/patch-series-test.py" "$src" \
        > "$log/patch-series.log" 2>&1
    count "$log/patch-series.log" patch-series $?
}
suite data patch-series patch_series

[ $list = 1 ] && exit 0
if [ "$ran" = 0 ]; then
    echo "run-tests: no suite named '$only' (see --list)" >&2
    exit 2
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
