#!/bin/sh
# Assemble the Linux guest of tests/guest/guest-test.sh from Debian 12
# packages: the kernel of
# linux-image-amd64, busybox-static for the initramfs, SeaBIOS and QEMU's
# option ROMs.  Downloads once into BUILD/guest/debs (apt-get download,
# no installation) and rebuilds the initramfs when the test program or
# the module given in $TT_KMD_KO changes.
#
#   guest-linux.sh SOURCE_DIR BUILD_DIR     -> BUILD_DIR/guest/{vmlinuz,
#                                              initrd.gz,fw/}
set -eu
src=$1
g=$2/guest
die() { echo "guest-linux: error: $*" >&2; exit 1; }

mkdir -p "$g/debs" "$g/pkgs" "$g/fw"
if [ ! -f "$g/pkgs/.done" ]; then
    kver=$(apt-cache depends linux-image-amd64 |
           sed -n 's/^ *Depends: linux-image-\(.*\)$/\1/p' | head -1)
    [ -n "$kver" ] || die "cannot resolve linux-image-amd64 (apt-get update?)"
    (cd "$g/debs" && apt-get download "linux-image-$kver" busybox-static \
        seabios qemu-system-data >/dev/null 2>&1) ||
        die "apt-get download failed (network, or run apt-get update)"
    for d in "$g"/debs/*.deb; do
        dpkg-deb -x "$d" "$g/pkgs"
    done
    touch "$g/pkgs/.done"
fi
cp "$g"/pkgs/boot/vmlinuz-* "$g/vmlinuz"
cp "$g"/pkgs/usr/share/seabios/*.bin "$g/fw/"
for f in kvmvapic.bin linuxboot.bin linuxboot_dma.bin multiboot_dma.bin \
         pvh.bin; do
    cp "$g/pkgs/usr/share/qemu/$f" "$g/fw/"
done

command -v cpio >/dev/null || die "cpio is not installed (scripts/install-deps.sh)"

# The initramfs: busybox, /init, the test program (and tt-kmd if given)
r=$g/root
rm -rf "$r"
mkdir -p "$r/bin" "$r/proc" "$r/sys" "$r/dev" "$r/lib/modules"
cp "$g/pkgs/bin/busybox" "$r/bin/busybox"
mkdir -p "$g/include"
python3 "$src/scripts/tenstorrent/gen-pcie-host.py" \
    "$src/hw/tenstorrent/data/pcie-host.yaml" "$g/include/tt-pcie-host.h"
${CC:-cc} -static -O2 -Wall -Werror -I"$g/include" -o "$r/tt-guest-test" \
    "$src/tests/guest/tt-guest-test.c"
if [ -n "${TT_KMD_KO:-}" ]; then
    [ -f "$TT_KMD_KO" ] || die "TT_KMD_KO=$TT_KMD_KO: no such file"
    cp "$TT_KMD_KO" "$r/lib/modules/tenstorrent.ko"
fi
cat > "$r/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "guest: up"
/tt-guest-test
if [ -f /lib/modules/tenstorrent.ko ]; then
    if insmod /lib/modules/tenstorrent.ko; then
        echo "ok 100 - tt-kmd loads"
    else
        echo "not ok 100 - tt-kmd loads"
    fi
    dmesg | grep -i tenstorrent | sed 's/^/# /'
    if dmesg | grep -q "Found a Tenstorrent Blackhole device"; then
        echo "ok 101 - tt-kmd probes the Blackhole function"
    else
        echo "not ok 101 - tt-kmd probes the Blackhole function"
    fi
    if [ -c /dev/tenstorrent/0 ]; then
        echo "ok 102 - /dev/tenstorrent/0 exists"
    else
        echo "not ok 102 - /dev/tenstorrent/0 exists"
    fi
    /tt-guest-test kmd | grep -v "^1\.\." | sed 's/^\(not \)\{0,1\}ok \([0-9]*\)/\1ok 11\2/'
    cat /sys/class/tenstorrent/tenstorrent!0/tt_aiclk 2>/dev/null |
        sed 's/^/# tt_aiclk (telemetry through tt-kmd): /'

else
    echo "# tt-kmd part skipped: set TT_KMD_KO to a tenstorrent.ko built for the guest kernel"
fi
echo "guest: done"
poweroff -f
INIT
chmod +x "$r/init"
(cd "$r" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$g/initrd.gz"
