#!/bin/sh
# Kernel launches the tt-metal way through tools/tt-run (firmware/dispatch's
# worker firmware and kernels): launch latency, from the host's launch
# call to every core's DONE (slow dispatch) or to the completion event
# (fast dispatch), on 1 tile and on every tile of a P150 (140 slow, 138
# fast: the prefetcher and dispatcher take two), and commands per second
# through the fast-dispatch queue (a stream of 16-byte WRITE_LINEARs, one
# per record).  With TTSIM_LIB (a ttsim libttsim.so the user built) the
# same tt-run binary runs on ttsim too (which advances only inside
# libttsim_clock: tt-run gives it 100,000 clocks per poll there, so its
# latencies include that granularity).  Prints one table with the ratio
# (above 1: ours is faster); no pass/fail.
#   bench/dispatch-bench.sh [BUILD_DIR]      (make builds tt-run)
set -eu
B=$(cd "${1:-build}" && pwd)
run="$B/tt-run"
launches=${TT_BENCH_LAUNCHES:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TT_EMU_QEMU="$B/qemu/qemu-system-riscv32"
export TT_EMU_ARGS="-M blackhole,board=p150"

# a kernel that adds one to an L1 word: the launch is all there is
printf '\0\0\0\0' > "$tmp/zero.bin"
for cores in 1,2 all; do
    cat > "$tmp/count-$cores.tt" <<TT
cores $cores
kernel brisc count
rta brisc 0x20000
input zero l1 0x20000 file=zero.bin
TT
done
# 2,000 WRITE_LINEARs of 16 bytes to (1,2), each in its RELAY_INLINE
python3 - "$tmp/stream.bin" <<'PY'
import struct, sys
s = b""
for i in range(2000):
    cmd = struct.pack("<BBBBIQQ8x", 1, 0, 0, 0, 2 << 6 | 1,
                      0x30000 + 16 * i, 16) + struct.pack("<4I", i, i, i, i)
    s += struct.pack("<BBHIII", 5, 0, 0, len(cmd), 64, 0) + cmd
open(sys.argv[1], "wb").write(s)
PY
printf 'group a 1,2\n' > "$tmp/stream.tt"

# metric NAME LIB ARGS...: the tt-run --bench value of NAME, or "-"
metric() {
    name=$1 lib=$2
    shift 2
    "$run" --lib "$lib" --bench "$@" 2> "$tmp/err-$name" |
        awk -v n="$name" '$1 == n { print $2; found = 1 }
                          END { if (!found) print "-" }'
}

row() {     # row LABEL UNIT METRIC [tt-run args...]
    label=$1 unit=$2 m=$3
    shift 3
    ours=$(metric "$m" "$B/libttsim/libttsim.so" "$@")
    ttsim=-
    if [ -n "${TTSIM_LIB:-}" ]; then
        ttsim=$(metric "$m" "$TTSIM_LIB" --clocks 100000 "$@")
    fi
    printf '%-34s %-6s %12s %12s %8s\n' "$label" "$unit" "$ours" "$ttsim" \
        "$(ratio "$ttsim" "$ours")"
}

# ttsim's over ours for times, ours over ttsim's for rates: above 1, ours
# is faster
ratio() {
    if [ "$1" = - ] || [ "$2" = - ]; then
        echo -
    else
        awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'
    fi
}

printf '%-34s %-6s %12s %12s %8s\n' "dispatch ($launches launches)" unit \
    ours ttsim ratio
row "launch, slow dispatch, 1 tile" us launch_mean \
    --launches "$launches" "$tmp/count-1,2.tt"
row "launch, slow dispatch, 140 tiles" us launch_mean \
    --launches "$launches" "$tmp/count-all.tt"
row "launch, fast dispatch, 1 tile" us launch_mean \
    --fast --launches "$launches" "$tmp/count-1,2.tt"
row "launch, fast dispatch, 138 tiles" us launch_mean \
    --fast --launches "$launches" "$tmp/count-all.tt"
ms_ours=$(metric stream "$B/libttsim/libttsim.so" --fast --record-size 64 \
          --cq-stream "$tmp/stream.bin" "$tmp/stream.tt")
ms_ttsim=-
if [ -n "${TTSIM_LIB:-}" ]; then
    ms_ttsim=$(metric stream "$TTSIM_LIB" --clocks 100000 --fast \
               --record-size 64 --cq-stream "$tmp/stream.bin" "$tmp/stream.tt")
fi
rate() { [ "$1" = - ] && echo - || awk -v t="$1" 'BEGIN { printf "%.0f", 2001 / (t / 1e3) }'; }
printf '%-34s %-6s %12s %12s %8s\n' "fast-dispatch commands" 1/s \
    "$(rate "$ms_ours")" "$(rate "$ms_ttsim")" \
    "$(ratio "$(rate "$ms_ours")" "$(rate "$ms_ttsim")")"
