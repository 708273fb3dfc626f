# Attach gdb to every core of a blackhole machine: one inferior per core
# role (the machine's five CPU clusters), one thread per tile.
#
#   qemu-system-riscv32 -M blackhole,... -s -S &
#   gdb-multiarch -ex 'target extended-remote localhost:1234' \
#       -x scripts/tenstorrent/blackhole-attach.gdb
#
# Inferior 1 is BRISC, 2 NCRISC, 3-5 TRISC0-2, and on a board with
# Ethernet 6-7 the ERISC cores E0 and E1; "info threads" names each thread
# after its tile and role (x1y2-brisc, x1y1-erisc0).  On a P100A, which
# has no Ethernet, the last two attaches fail and end the script.
set pagination off
add-inferior
inferior 2
attach 2
add-inferior
inferior 3
attach 3
add-inferior
inferior 4
attach 4
add-inferior
inferior 5
attach 5
inferior 1
add-inferior
inferior 6
attach 6
add-inferior
inferior 7
attach 7
inferior 1
