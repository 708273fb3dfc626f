/*
 * One core's worker firmware (fw.c), preprocessed with layout.h for a
 * layout and a role: text in L1 at the layout's firmware base for the
 * role, up to the next role's; data and bss in the core's LDM at
 * 0xFFB00000, loaded by the host at the layout's LDM image address, from
 * where firmware/common/boot-crt.S copies it (tt-metal do_crt1()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "layout.h"

#if ROLE == 0
#define TEXT_BASE   FW_BASE_BRISC
#define TEXT_END    FW_BASE_NCRISC
#define LDM_SIZE    0x2000
#elif ROLE == 1
#define TEXT_BASE   FW_BASE_NCRISC
#define TEXT_END    FW_BASE_TRISC0
#define LDM_SIZE    0x2000
#elif ROLE == 2
#define TEXT_BASE   FW_BASE_TRISC0
#define TEXT_END    FW_BASE_TRISC1
#define LDM_SIZE    0x1000
#elif ROLE == 3
#define TEXT_BASE   FW_BASE_TRISC1
#define TEXT_END    FW_BASE_TRISC2
#define LDM_SIZE    0x1000
#else
#define TEXT_BASE   FW_BASE_TRISC2
#define TEXT_END    FW_END
#define LDM_SIZE    0x1000
#endif

OUTPUT_ARCH(riscv)
ENTRY(_start)
SECTIONS
{
    .text TEXT_BASE : {
        *(.text.start) *(.text .text.*) *(.rodata .rodata.* .srodata*)
    }
    ASSERT(. <= TEXT_END, "firmware text overlaps the next core's")
    .ldm 0xffb00000 : {
        __ldm_data_start = .;
        *(.data .data.* .sdata*)
        __ldm_data_end = .;
        *(.sbss* .bss .bss.* COMMON)
        __ldm_bss_end = .;
    }
    ASSERT(__ldm_bss_end <= 0xffb00000 + LDM_SIZE - 512,
           "LDM data leaves under 512 bytes of stack")
    /DISCARD/ : { *(.comment) *(.riscv.attributes) *(.note*) *(.eh_frame*) }
}
