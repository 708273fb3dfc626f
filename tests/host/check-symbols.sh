#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libttsim.so exports exactly the ten libttsim_* functions of ttsim's ABI
# and the eight of tt-umd's multichip mode (libttsim.map, libttsim.h),
# nothing else.
#
#   check-symbols.sh <libttsim.so>
set -eu
lib=${1:?usage: $0 <libttsim.so>}
syms=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort)
echo "$syms"
if echo "$syms" | grep -v '^libttsim_'; then
    echo "$lib exports symbols outside the libttsim_* ABI" >&2
    exit 1
fi
n=$(echo "$syms" | grep -c '^libttsim_')
[ "$n" -eq 18 ] || { echo "$lib exports $n libttsim_* symbols, not 18" >&2; exit 1; }
