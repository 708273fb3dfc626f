/*
 * An ERISC kernel image (tools/tt-run 'erisc' lines): linked where it
 * runs, in the kernel area of the Ethernet tile's L1 (eth-kernel.h)
 */
#include "eth-kernel.h"
OUTPUT_ARCH(riscv)
ENTRY(_start)
SECTIONS
{
    .text ETH_K_BASE : { KEEP(*(.text.start)) *(.text .text.*)
                         *(.rodata .rodata.* .srodata*) }
    .data : { *(.data .data.* .sdata*) *(.sbss* .bss .bss.* COMMON) }
    /DISCARD/ : { *(.comment) *(.riscv.attributes) *(.note*) }
}
