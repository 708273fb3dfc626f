#!/bin/sh
# The host's view of the chip through the libttsim ABI: tools/tt-host-run
# --bench against our build/libttsim/libttsim.so and, with TTSIM_LIB set (a
# ttsim libttsim.so the user built), against ttsim.  Prints one table:
# metric, unit, ours, ttsim, ratio (above 1: ours is faster).
#   bench/host-bench.sh [BUILD_DIR]        (make bench builds tt-host-run)
set -eu
B=$(cd "${1:-build}" && pwd)
run="$B/tt-host-run"
img="$B/bench/bench.bin"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# bench NAME LIB [ARGS]: metric lines into $tmp/NAME, stderr shown on failure
bench() {
    name=$1 lib=$2
    shift 2
    if ! "$run" --bench --lib "$lib" "$@" "$img" > "$tmp/$name" \
         2> "$tmp/$name.err"; then
        echo "host-bench: tt-host-run --bench on $lib failed:" >&2
        tail -5 "$tmp/$name.err" >&2
    fi
}

# Our library starts QEMU itself (tools/libttsim/README.rst): a P150
export TT_EMU_QEMU="$B/qemu/qemu-system-riscv32"
export TT_EMU_ARGS="-M blackhole,board=p150"
bench ours "$B/libttsim/libttsim.so"

# ttsim steps about 6 M instructions a second on one core, 150 M on 140:
# shorter W1 runs, still a few seconds each
: > "$tmp/ttsim"
if [ -n "${TTSIM_LIB:-}" ]; then
    bench ttsim "$TTSIM_LIB" --count1 2000000 --count 200000
fi

# Metric lines are "name value unit"; anything else (ttsim's exit banner)
# is skipped.  Times are better lower, rates higher.  The goal column
# checks the targets of the shared-memory host path
# (docs/devel/tenstorrent-host-map.rst): absolute for start-up and 4-byte
# latency, a ratio to ttsim (same run) for the rest; a restart (exit, then
# init and a first access: the library's warm start) in 20 ms.
awk '
BEGIN {
    # metric: "abs LIMIT" (ours at most LIMIT) or "ratio MIN" (ratio >= MIN)
    goal["init"] = "abs 0.3"
    goal["restart"] = "abs 20"
    goal["bar0_rd32_latency"] = "abs 200"
    goal["bar0_wr32_latency"] = "abs 200"
    goal["bar0_write"] = "ratio 1"
    goal["bar0_write_again"] = "ratio 1"
    goal["bar0_read"] = "ratio 1"
    goal["upload_unicast"] = "ratio 0.1"
    goal["w1_1core"] = "ratio 300"
    goal["w1_140cores"] = "ratio 20"
    goal["w2_1core"] = "ratio 300"
}
NF != 3 || $2 !~ /^[0-9.e+-]+$/ { next }
FILENAME ~ /ours$/ { n++; name[n] = $1; unit[n] = $3; ours[$1] = $2; next }
{ ttsim[$1] = $2 }
END {
    printf "\n%-20s %-6s %14s %14s %10s  %s\n", "host metric", "unit",
           "ours", "ttsim", "ratio", "goal"
    for (i = 1; i <= n; i++) {
        k = name[i]; t = "-"; r = ""; ratio = -1; g = ""
        if (k in ttsim && ttsim[k] > 0 && ours[k] > 0) {
            t = sprintf("%.4g", ttsim[k])
            if (unit[i] ~ /^(s|ms|us|ns)$/)
                ratio = ttsim[k] / ours[k]
            else
                ratio = ours[k] / ttsim[k]
            r = sprintf("%.3gx", ratio)
        }
        if (k in goal) {
            split(goal[k], f, " ")
            if (f[1] == "abs")
                g = sprintf("<= %s %s: %s", f[2], unit[i],
                            ours[k] <= f[2] ? "met" : "MISSED")
            else if (ratio < 0)
                g = sprintf(">= %sx: no ttsim", f[2])
            else
                g = sprintf(">= %sx: %s", f[2],
                            ratio >= f[2] ? "met" : "MISSED")
        }
        printf "%-20s %-6s %14.4g %14s %10s  %s\n", k, unit[i], ours[k], t,
               r, g
    }
    # guard: L1 stores (W2) as fast as register work (W1) on one core
    if (ours["w1_1core"] > 0 && ours["w2_1core"] > 0) {
        w = ours["w2_1core"] / ours["w1_1core"]
        printf "%-20s %-6s %14.3g %14s %10s  >= 0.8: %s\n", "w2/w1_1core",
               "ratio", w, "-", "", (w >= 0.8 ? "met" : "MISSED")
    }
}' "$tmp/ours" "$tmp/ttsim"
[ -n "${TTSIM_LIB:-}" ] || echo "(ttsim column empty: set TTSIM_LIB to a" \
    "locally built libttsim.so)"
