#!/bin/sh
# The Blackhole as a PCIe device of a Linux guest: a blackhole QEMU serves
# its endpoint with -object tt-vfio-user; a second QEMU of the pinned
# version (x86_64, q35, shared memfd RAM) boots Debian's kernel with
# vfio-user-pci behind a root port; tests/guest/tt-guest-test.c reaches
# the chip through sysfs BAR mmaps, and with $TT_KMD_KO tt-kmd is loaded
# and its probe checked.
# Prints the guest's TAP lines.
#
#   guest-test.sh SOURCE_DIR BUILD_DIR
set -u
src=$1
b=$(cd "$2" && pwd)
g=$b/guest
x86=$b/qemu-x86/qemu-system-x86_64
bh=$b/qemu/qemu-system-riscv32

if [ ! -x "$x86" ]; then
    echo "1..0 # SKIP no $x86 (configure --with-x86-client builds it)"
    exit 0
fi
sh "$src/scripts/tenstorrent/guest-linux.sh" "$src" "$b" || exit 1
tmp=$(mktemp -d)
sock=$tmp/bh.sock
trap 'kill $bhpid 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

"$bh" -M blackhole -display none -monitor none -serial none \
    -trace tt_arc_message -object tt-vfio-user,id=vfu0,socket="$sock" \
    > "$tmp/bh.log" 2>&1 &
bhpid=$!
for i in $(seq 600); do      # 60 s: a loaded host starts QEMU slowly
    [ -S "$sock" ] && break
    sleep 0.1
done
[ -S "$sock" ] || { echo "not ok 1 - blackhole QEMU serves $sock"; \
                    cat "$tmp/bh.log"; exit 1; }

# no_timer_check: a TCG guest on a loaded host can fail the kernel's
# IO-APIC timer check and panic ("IO-APIC + timer doesn't work!"); the
# option "disables the code which tests for broken timer IRQ sources"
# (Linux Documentation/admin-guide/kernel-parameters.txt)
timeout 300 "$x86" -accel tcg -m 512 -display none -nodefaults \
    -serial stdio -no-reboot -L "$g/fw" -bios "$g/fw/bios-256k.bin" \
    -object memory-backend-memfd,id=m,size=512M,share=on \
    -machine q35,memory-backend=m \
    -kernel "$g/vmlinuz" -initrd "$g/initrd.gz" \
    -append "console=ttyS0 panic=-1 quiet no_timer_check" \
    -device pcie-root-port,id=rp0,chassis=1,slot=1 \
    -device "{\"driver\":\"vfio-user-pci\",\"bus\":\"rp0\",\"socket\":{\"path\":\"$sock\",\"type\":\"unix\"}}" \
    > "$tmp/guest.log" 2>&1
rc=$?
grep -E '^(not )?ok |^1\.\.|^# ' "$tmp/guest.log"
if [ -n "${TT_KMD_KO:-}" ]; then
    # tt-kmd's probe: ASIC_STATE0, SET_WDT_TIMEOUT and the power message
    for m in 0xa0 0xc1 0xf21; do
        if grep -q "tt_arc_message queue 0 message $m " "$tmp/bh.log"; then
            echo "ok - ARC queue 0 got tt-kmd's message $m"
        else
            echo "not ok - ARC queue 0 got tt-kmd's message $m"
        fi
    done
fi
if ! grep -q "guest: done" "$tmp/guest.log"; then
    echo "not ok 99 - the guest ran to the end (exit $rc)"
    tail -30 "$tmp/guest.log" | sed 's/^/# /'
    exit 1
fi
kill $bhpid 2>/dev/null
wait $bhpid 2>/dev/null
exit 0
