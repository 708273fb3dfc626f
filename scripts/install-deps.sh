#!/bin/sh
# Install the Debian 12 packages the build, the tests and the demo need.
# Re-running it is harmless: when everything is present it does nothing.
# TT_DEP_CACHE names a directory holding checksum-verified meson and pycotap
# .debs (SHA256SUMS), used before the network.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
cache=${TT_DEP_CACHE:-$here/../shared/cache}

pkgs="build-essential xz-utils python3 libglib2.0-dev libfdt-dev
device-tree-compiler libjson-c-dev libcmocka-dev ninja-build pkg-config
python3-venv python3-setuptools python3-yaml gcc-riscv64-unknown-elf
binutils-riscv64-unknown-elf gdb-multiarch cpio clang libclang-rt-14-dev"

missing=""
for p in $pkgs; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
        missing="$missing $p"
    fi
done

# QEMU 10.2 needs meson >= 1.5 and pycotap; Debian 12 ships meson 1.0.
need_meson=0
v=$(dpkg-query -W -f='${Version}' meson 2>/dev/null || true)
case "$v" in
    1.[5-9]*|1.[1-9][0-9]*|[2-9]*) ;;
    *) need_meson=1 ;;
esac
dpkg-query -W -f='${Status}' python3-pycotap 2>/dev/null | grep -q 'ok installed' ||
    need_meson=1

if [ -z "$missing" ] && [ $need_meson = 0 ]; then
    exit 0
fi

if [ "$(id -u)" != 0 ]; then
    echo "install-deps: missing packages:$missing" >&2
    [ $need_meson = 1 ] && echo "install-deps: also meson >= 1.5, python3-pycotap" >&2
    echo "install-deps: run this script as root" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null

if [ $need_meson = 1 ]; then
    debs="meson_1.7.0-1~bpo12+1_all.deb python3-pycotap_1.3.1-2~bpo12+1_all.deb"
    ok=1
    for d in $debs; do
        [ -f "$cache/$d" ] || ok=0
    done
    if [ $ok = 1 ] && (cd "$cache" && grep -E 'meson_|pycotap_' SHA256SUMS |
                       sha256sum -c --quiet -); then
        (cd "$cache" && dpkg -i $debs >/dev/null)
    else
        echo "install-deps: no verified meson/pycotap .debs in $cache;" \
             "using bookworm-backports" >&2
        echo "deb http://deb.debian.org/debian bookworm-backports main" \
            > /etc/apt/sources.list.d/tt-bpo.list
        apt-get update -qq
        apt-get install -y -qq -t bookworm-backports meson python3-pycotap >/dev/null
    fi
fi
echo "install-deps: done"
