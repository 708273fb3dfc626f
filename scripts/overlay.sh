#!/bin/sh
# Overlay the project's files onto an unpacked QEMU tree and bring its hook
# patches up to date.  Usage: overlay.sh PROJECT_DIR QEMU_SRC_DIR
#
# Directories the project owns are symlinked whole; project files inside
# upstream directories are symlinked one by one, so edits rebuild
# incrementally.  An upstream file is never replaced.  Patches are applied in
# order; when the series changes, the changed tail is reversed and re-applied
# so untouched files keep their timestamps.
set -eu
src=$1
q=$2

die() { echo "overlay: error: $*" >&2; exit 1; }

link() {   # link PROJECT_RELATIVE_PATH
    t=$q/$1
    if [ -L "$t" ]; then
        [ "$(readlink "$t")" = "$src/$1" ] && return 0
        rm -f "$t"
    elif [ -e "$t" ]; then
        die "$1 exists upstream; the project must patch it, not overlay it"
    fi
    mkdir -p "$(dirname "$t")"
    ln -s "$src/$1" "$t"
}

for d in hw/tenstorrent include/hw/tenstorrent scripts/tenstorrent \
         tests/qtest/tenstorrent; do
    [ -d "$src/$d" ] && link "$d"
done
for d in target/riscv tests/qtest docs; do
    [ -d "$src/$d" ] || continue
    (cd "$src" && find "$d" -type f ! -path 'tests/qtest/tenstorrent/*') |
    while read -r f; do
        link "$f"
    done
done
# Drop links whose project file is gone.
find "$q/target/riscv" "$q/tests/qtest" "$q/docs" -type l 2>/dev/null |
while read -r l; do
    [ -e "$l" ] || rm -f "$l"
done

# Patch series.
state=$q/.tt-patches
mkdir -p "$state"
wanted=$(cd "$src/patches/qemu" && ls -- *.patch 2>/dev/null || true)
applied=$(cd "$state" && ls -- *.patch 2>/dev/null || true)
# Keep the longest common prefix of the applied and wanted series.
keep=""
set -- $wanted
for p in $applied; do
    [ $# -gt 0 ] && [ "$1" = "$p" ] &&
        cmp -s "$state/$p" "$src/patches/qemu/$p" || break
    keep="$keep$p "
    shift
done
# Reverse the applied patches that are not kept, newest first.
for p in $(echo "$applied" | sort -r); do
    case " $keep" in *" $p "*) continue ;; esac
    patch -p1 -R -s -f --no-backup-if-mismatch -d "$q" < "$state/$p" ||
        die "cannot reverse $p; remove $q and re-run configure"
    rm -f "$state/$p"
done
for p in $wanted; do
    case " $keep" in *" $p "*) continue ;; esac
    if ! patch -p1 -s -f --dry-run -d "$q" < "$src/patches/qemu/$p" >/dev/null; then
        patch -p1 -f --dry-run -d "$q" < "$src/patches/qemu/$p" >&2 || true
        die "patch patches/qemu/$p does not apply to QEMU in $q"
    fi
    patch -p1 -s -f --no-backup-if-mismatch -d "$q" < "$src/patches/qemu/$p"
    cp "$src/patches/qemu/$p" "$state/$p"
    echo "overlay: applied $p"
done
