/*
 * Tenstorrent Blackhole: booting firmware without a host (the machine's
 * firmware= option, blackhole-boot.c).  The machine owns one TTFwBoot: its
 * fw-* properties are the options, blackhole_fw_prepare() loads and checks
 * the ELF files before the chip is created, and blackhole_fw_boot() lays
 * out L1 and releases BRISC on every reset.  Main thread, BQL held.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_BLACKHOLE_BOOT_H
#define HW_TENSTORRENT_BLACKHOLE_BOOT_H

#include "hw/tenstorrent/grid.h"

struct TTBlackholeSoC;

/* Firmware-defined L1 addresses of one build (tt-metal dev_mem_map.h) */
typedef struct TTFwLayout {
    const char *name;
    const char *desc;
    uint32_t bank_table;        /* MEM_BANK_TO_NOC_SCRATCH */
    uint32_t l2v_table;         /* MEM_LOGICAL_TO_VIRTUAL_SCRATCH, 0: none */
    uint32_t go_msg;            /* go_messages[0] */
    /* MEM_*_INIT_LOCAL_L1_BASE_SCRATCH */
    uint32_t ldm_image[TT_CORES_PER_TILE];
    uint32_t num_dram_banks;    /* 0: the board's */
    uint32_t num_l1_banks;      /* 0: the board's worker count */
} TTFwLayout;

#define TT_DEFAULT_FW_LAYOUT "tt-metal-0079e94"

typedef struct TTFwSegment {
    uint32_t dest;              /* L1 address */
    uint32_t filesz;
    uint32_t memsz;
    uint8_t *data;
} TTFwSegment;

typedef struct TTFwImage {
    uint32_t entry;
    int nseg;
    TTFwSegment *seg;
} TTFwImage;

typedef struct TTFwBoot {
    /* options (the machine's fw-* properties; -1: the layout's value) */
    const char *firmware;       /* an ELF file, or a directory of five */
    char *erisc_firmware;       /* an ELF file for every E0, or NULL */
    char *layout;
    char *ldm_images;
    int64_t bank_table;
    int64_t l2v_table;
    int64_t go_msg;
    int64_t num_dram_banks;
    int64_t num_l1_banks;

    struct TTBlackholeSoC *soc; /* the chip to boot */

    /* resolved by blackhole_fw_prepare() */
    TTFwLayout fw;              /* preset with overrides applied */
    TTFwImage *img[TT_CORES_PER_TILE];
    TTFwImage *erisc_img;
    int num_dram;               /* bank counts */
    int num_l1;
} TTFwBoot;

/* Names of the known layouts, ", "-separated (for help texts) */
char *blackhole_fw_layout_names(void);
const TTFwLayout *blackhole_fw_layout_lookup(const char *name, Error **errp);
/* fw-ldm-images: five L1 addresses, brisc:ncrisc:trisc0:trisc1:trisc2 */
bool blackhole_fw_parse_ldm_images(const char *spec, uint32_t *addr,
                                   Error **errp);

/*
 * Resolve the layout and load the ELF files named by the options;
 * everything is checked before the chip is created.
 */
bool blackhole_fw_prepare(TTFwBoot *b, int ntiles, int ndram, Error **errp);

/* Load and check erisc_firmware= before the chip is created */
bool blackhole_fw_prepare_erisc(TTFwBoot *b, Error **errp);

/*
 * Reset handler (@opaque: the TTFwBoot): lay out L1, release BRISC; with
 * erisc_firmware, load it into every Ethernet tile and release E0
 */
void blackhole_fw_boot(void *opaque);

#endif
