/*
 * Tenstorrent Blackhole: booting firmware without a host.
 *
 * With firmware=DIR the machine does what tt-metal's host does before it
 * releases BRISC (tt-metal tt_metal/llrt/llrt.cpp and hal.cpp, memory map
 * from tt_metal/hw/inc/blackhole/dev_mem_map.h): it writes each ELF's L1
 * segments to L1 and its LDM segments to the layout's L1 scratch area (the
 * firmware's crt copies them into LDM), the bank-to-NOC and
 * logical-to-virtual tables, the NCRISC/TRISC reset PCs, a
 * JAL to BRISC's firmware at L1 address 0 and RUN_MSG_INIT in the go
 * message, then releases BRISC on every tile.  With firmware=FILE a single
 * bare ELF is written into every tile's L1 and BRISC is released.
 *
 * This runs as a reset handler, so a system reset boots the firmware again.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qapi/error.h"
#include "system/address-spaces.h"
#include "elf.h"
#include "hw/tenstorrent/blackhole-boot.h"
#include "hw/tenstorrent/blackhole-soc.h"
#include "trace.h"

#define TT_RUN_MSG_INIT             0x40    /* go_msg_t.signal, dev_msgs.h */
#define TT_GO_MSG_SIGNAL_OFFSET     3
#define TT_SOFT_RESET_BRISC_ONLY    0x47000u
#define TT_L2V_COLS                 20      /* NOC width 17, padded to 4n */
#define TT_L2V_ROWS                 12

/*
 * L1 addresses per firmware build: tt-metal's blackhole/dev_mem_map.h and
 * hostdev/dev_msgs.h at 0079e94, blackhole-py's emu/ and its p100a firmware.
 */
static const TTFwLayout tt_fw_layouts[] = {
    {
        .name = "tt-metal-0079e94",
        .desc = "tt-metal at 0079e94 (128-byte launch message)",
        .bank_table = 0x12f00, .l2v_table = 0x13700, .go_msg = 0x470,
        .ldm_image = { 0x9f00, 0xbf00, 0xdf00, 0xef00, 0xff00 },
    }, {
        .name = "blackhole-py-emu",
        .desc = "blackhole-py emu/ layout (112-byte launch message)",
        .bank_table = 0x116b0, .l2v_table = 0x11eb0, .go_msg = 0x3f0,
        .ldm_image = { 0x86b0, 0xa6b0, 0xc6b0, 0xd6b0, 0xe6b0 },
    }, {
        .name = "blackhole-py-5d08c23",
        .desc = "blackhole-py 5d08c23 p100a firmware (96-byte launch "
                "message, 7 DRAM / 110 L1 banks)",
        .bank_table = 0x112b0, .go_msg = 0x370,
        .ldm_image = { 0x82b0, 0xa2b0, 0xc2b0, 0xd2b0, 0xe2b0 },
        .num_dram_banks = 7, .num_l1_banks = 110,
    }, {
        .name = "tt-test",
        .desc = "the project's own test firmware (tests/firmware)",
        .bank_table = 0x12f00, .l2v_table = 0x13700, .go_msg = 0x470,
        .ldm_image = { 0x9f00, 0xbf00, 0xdf00, 0xef00, 0xff00 },
    },
};

static const TTFwLayout *tt_fw_layout_find(const char *name)
{
    for (int i = 0; i < ARRAY_SIZE(tt_fw_layouts); i++) {
        if (!strcmp(tt_fw_layouts[i].name, name)) {
            return &tt_fw_layouts[i];
        }
    }
    return NULL;
}

char *blackhole_fw_layout_names(void)
{
    GString *s = g_string_new("");

    for (int i = 0; i < ARRAY_SIZE(tt_fw_layouts); i++) {
        g_string_append_printf(s, "%s%s", i ? ", " : "",
                               tt_fw_layouts[i].name);
    }
    return g_string_free(s, false);
}

bool blackhole_fw_parse_ldm_images(const char *spec, uint32_t *addr,
                                   Error **errp)
{
    g_auto(GStrv) v = g_strsplit_set(spec, ":,", -1);
    uint64_t a;

    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        if (!v[r] || qemu_strtou64(v[r], NULL, 0, &a) || a >= TT_L1_SIZE) {
            error_setg(errp, "fw-ldm-images: '%s': expected five L1 "
                       "addresses brisc:ncrisc:trisc0:trisc1:trisc2", spec);
            return false;
        }
        addr[r] = a;
    }
    if (v[TT_CORES_PER_TILE]) {
        error_setg(errp, "fw-ldm-images: '%s': more than five addresses",
                   spec);
        return false;
    }
    return true;
}

const TTFwLayout *blackhole_fw_layout_lookup(const char *name, Error **errp)
{
    const TTFwLayout *l = tt_fw_layout_find(name);

    if (!l) {
        g_autofree char *names = blackhole_fw_layout_names();

        error_setg(errp, "fw-layout: unknown layout '%s' (known: %s)", name,
                   names);
    }
    return l;
}

static void tt_fw_image_free(TTFwImage *img)
{
    if (img) {
        for (int i = 0; i < img->nseg; i++) {
            g_free(img->seg[i].data);
        }
        g_free(img->seg);
        g_free(img);
    }
}

/*
 * Where segment bytes at @vaddr go: L1 itself, or the LDM image in L1.
 * Role -1: an ERISC image, in an Ethernet tile's L1 only.
 */
static bool tt_fw_dest(TTFwBoot *b, int role, bool bare,
                       uint32_t vaddr, uint32_t size, uint32_t *dest)
{
    uint32_t ldm;

    if (role < 0) {
        *dest = vaddr;
        return vaddr < TT_ETH_L1_SIZE && size <= TT_ETH_L1_SIZE - vaddr;
    }
    ldm = tt_ldm_size(role);

    if (vaddr < TT_L1_SIZE && size <= TT_L1_SIZE - vaddr) {
        *dest = vaddr;
        return true;
    }
    if (!bare && vaddr >= TT_LDM_BASE && vaddr - TT_LDM_BASE < ldm &&
        size <= ldm - (vaddr - TT_LDM_BASE)) {
        *dest = b->fw.ldm_image[role] + (vaddr - TT_LDM_BASE);
        return true;
    }
    return false;
}

static bool tt_fw_load_segments(TTFwBoot *b, int role, bool bare,
                                const char *path, const uint8_t *buf,
                                size_t len, TTFwImage *img, Error **errp)
{
    const Elf32_Ehdr *eh = (const Elf32_Ehdr *)buf;
    uint32_t phoff = le32_to_cpu(eh->e_phoff);
    uint16_t phnum = le16_to_cpu(eh->e_phnum);

    if (phoff > len || (uint64_t)phnum * sizeof(Elf32_Phdr) > len - phoff) {
        error_setg(errp, "%s: program headers outside the file", path);
        return false;
    }
    img->seg = g_new0(TTFwSegment, phnum);
    for (int i = 0; i < phnum; i++) {
        const Elf32_Phdr *ph = (const Elf32_Phdr *)(buf + phoff) + i;
        uint32_t off = le32_to_cpu(ph->p_offset);
        uint32_t vaddr = le32_to_cpu(ph->p_vaddr);
        uint32_t filesz = le32_to_cpu(ph->p_filesz);
        uint32_t memsz = le32_to_cpu(ph->p_memsz);
        TTFwSegment *seg = &img->seg[img->nseg];

        if (le32_to_cpu(ph->p_type) != PT_LOAD || memsz == 0) {
            continue;
        }
        if (filesz > memsz || off > len || filesz > len - off) {
            error_setg(errp, "%s: malformed segment %d", path, i);
            return false;
        }
        if (!tt_fw_dest(b, role, bare, vaddr, memsz, &seg->dest)) {
            error_setg(errp, "%s: segment at 0x%08x (0x%x bytes) is outside "
                       "the %s's memory (L1 0x0-0x%x%s)", path, vaddr, memsz,
                       role < 0 ? "ERISC" : tt_core_role_name[role],
                       (role < 0 ? TT_ETH_L1_SIZE : TT_L1_SIZE) - 1,
                       bare || role < 0 ? "" : ", LDM at 0xffb00000");
            return false;
        }
        seg->filesz = filesz;
        seg->memsz = memsz;
        seg->data = g_memdup2(buf + off, filesz);
        img->nseg++;
    }
    return true;
}

static TTFwImage *tt_fw_load_elf(TTFwBoot *b, int role, bool bare,
                                 const char *path, Error **errp)
{
    g_autofree gchar *buf = NULL;
    g_autoptr(GError) gerr = NULL;
    const Elf32_Ehdr *eh;
    TTFwImage *img;
    gsize len;

    /* role -1: the Ethernet tiles' image (erisc-firmware=) */
    const char *opt = role < 0 ? "erisc-firmware" : "firmware";

    if (!g_file_get_contents(path, &buf, &len, &gerr)) {
        error_setg(errp, "%s: %s", opt, gerr->message);
        return NULL;
    }
    eh = (const Elf32_Ehdr *)buf;
    if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_ident[EI_CLASS] != ELFCLASS32 ||
        eh->e_ident[EI_DATA] != ELFDATA2LSB ||
        le16_to_cpu(eh->e_machine) != EM_RISCV) {
        error_setg(errp, "%s: %s is not a 32-bit little-endian RISC-V "
                   "ELF file", opt, path);
        return NULL;
    }
    img = g_new0(TTFwImage, 1);
    img->entry = le32_to_cpu(eh->e_entry);
    if (!tt_fw_load_segments(b, role, bare, path, (uint8_t *)buf, len, img,
                             errp)) {
        tt_fw_image_free(img);
        return NULL;
    }
    return img;
}

/* Preset, then the per-address override properties (-1: not given). */
static bool tt_fw_resolve_layout(TTFwBoot *b, int ntiles,
                                 int ndram, Error **errp)
{
    const TTFwLayout *l = blackhole_fw_layout_lookup(b->layout, errp);

    if (!l) {
        return false;
    }
    b->fw = *l;
    if (b->bank_table >= 0) {
        b->fw.bank_table = b->bank_table;
    }
    if (b->l2v_table >= 0) {
        b->fw.l2v_table = b->l2v_table;
    }
    if (b->go_msg >= 0) {
        b->fw.go_msg = b->go_msg;
    }
    if (b->ldm_images &&
        !blackhole_fw_parse_ldm_images(b->ldm_images, b->fw.ldm_image, errp)) {
        return false;
    }
    b->num_dram = b->num_dram_banks >= 0 ? b->num_dram_banks
                     : b->fw.num_dram_banks ? b->fw.num_dram_banks : ndram;
    b->num_l1 = b->num_l1_banks >= 0 ? b->num_l1_banks
                   : b->fw.num_l1_banks ? b->fw.num_l1_banks : ntiles;
    return true;
}

static bool tt_fw_check_range(const char *what, uint64_t addr, uint64_t len,
                              Error **errp)
{
    if (addr >= TT_L1_SIZE || len > TT_L1_SIZE - addr) {
        error_setg(errp, "fw-layout: %s at 0x%" PRIx64 " (0x%" PRIx64
                   " bytes) does not fit in L1", what, addr, len);
        return false;
    }
    return true;
}

static bool tt_fw_check_layout(TTFwBoot *b, Error **errp)
{
    if (b->num_dram < 1 || b->num_dram > TT_DRAM_BANKS ||
        b->num_l1 < 1 || b->num_l1 > 1024) {
        error_setg(errp, "fw-num-dram-banks must be 1-8 and fw-num-l1-banks "
                   "1-1024");
        return false;
    }
    for (int r = 0; r < TT_CORES_PER_TILE; r++) {
        if (!tt_fw_check_range("an LDM image", b->fw.ldm_image[r],
                               tt_ldm_size(r), errp)) {
            return false;
        }
    }
    return tt_fw_check_range("the bank table", b->fw.bank_table,
                             tt_grid_bank_table_size(b->num_dram,
                                                     b->num_l1), errp) &&
           tt_fw_check_range("the go message", b->fw.go_msg, 4, errp) &&
           (!b->fw.l2v_table ||
            tt_fw_check_range("the logical-to-virtual tables",
                              b->fw.l2v_table, TT_L2V_COLS + TT_L2V_ROWS,
                              errp));
}

bool blackhole_fw_prepare(TTFwBoot *b, int ntiles, int ndram,
                          Error **errp)
{
    bool bare = !g_file_test(b->firmware, G_FILE_TEST_IS_DIR);

    if (!tt_fw_resolve_layout(b, ntiles, ndram, errp) ||
        !tt_fw_check_layout(b, errp)) {
        return false;
    }
    for (int r = 0; r < (bare ? 1 : TT_CORES_PER_TILE); r++) {
        const char *fw = b->firmware;
        g_autofree char *path = bare ? g_strdup(fw) :
            g_strdup_printf("%s/%s.elf", fw, tt_core_role_name[r]);

        b->img[r] = tt_fw_load_elf(b, r, bare, path, errp);
        if (!b->img[r]) {
            return false;
        }
    }
    if (!bare && b->img[TT_BRISC]->entry >= 0x100000) {
        error_setg(errp, "firmware: brisc.elf entry 0x%x is beyond the reach "
                   "of the boot JAL at L1 address 0",
                   b->img[TT_BRISC]->entry);
        return false;
    }
    return true;
}

/* RV32 "jal x0, target" at address 0 (tt-metal hal.cpp) */
static uint32_t tt_boot_jal(uint32_t target)
{
    return ((target & 0x7fe) << 20) | ((target & 0x800) << 9) |
           (target & 0xff000) | ((target & 0x100000) << 11) | 0x6f;
}

static void tt_fw_write(AddressSpace *as, hwaddr addr, const void *buf,
                        hwaddr len)
{
    address_space_write(as, addr, MEMTXATTRS_UNSPECIFIED, buf, len);
}

static void tt_fw_write_images(TTFwBoot *b, AddressSpace *as)
{
    for (int r = 0; r < TT_CORES_PER_TILE && b->img[r]; r++) {
        TTFwImage *img = b->img[r];

        for (int i = 0; i < img->nseg; i++) {
            TTFwSegment *seg = &img->seg[i];

            tt_fw_write(as, seg->dest, seg->data, seg->filesz);
            address_space_set(as, seg->dest + seg->filesz, 0,
                              seg->memsz - seg->filesz,
                              MEMTXATTRS_UNSPECIFIED);
        }
    }
}

static void tt_fw_l2v_tables(TTGrid *g, uint8_t *buf)
{
    memset(buf, 0, TT_L2V_COLS + TT_L2V_ROWS);
    for (int i = 0; i < g->ntiles / TT_TENSIX_ROWS; i++) {
        buf[i] = g->tile_vx[i * TT_TENSIX_ROWS];
    }
    for (int j = 0; j < TT_TENSIX_ROWS; j++) {
        buf[TT_L2V_COLS + j] = TT_TENSIX_Y0 + j;
    }
}

static void tt_fw_boot_tile(TTFwBoot *b, TTTensixTile *t,
                            const uint8_t *bank, size_t bank_len,
                            const uint8_t *l2v)
{
    AddressSpace *as = tt_tile_cpu(t, TT_BRISC)->as;
    uint8_t signal = TT_RUN_MSG_INIT;
    uint32_t jal;

    tt_fw_write_images(b, as);
    if (b->img[TT_NCRISC]) {
        tt_fw_write(as, b->fw.bank_table, bank, bank_len);
        if (b->fw.l2v_table) {
            tt_fw_write(as, b->fw.l2v_table, l2v, TT_L2V_COLS + TT_L2V_ROWS);
        }
        for (int r = TT_NCRISC; r < TT_CORES_PER_TILE; r++) {
            tt_debug_regs_set_reset_pc(&t->dbg, r, b->img[r]->entry);
        }
        jal = cpu_to_le32(tt_boot_jal(b->img[TT_BRISC]->entry));
        tt_fw_write(as, 0, &jal, 4);
        tt_fw_write(as, b->fw.go_msg + TT_GO_MSG_SIGNAL_OFFSET, &signal, 1);
    }
    trace_tt_fw_boot_tile(t->x, t->y);
    tt_debug_regs_set_soft_reset(&t->dbg, TT_SOFT_RESET_BRISC_ONLY);
}

bool blackhole_fw_prepare_erisc(TTFwBoot *b, Error **errp)
{
    b->erisc_img = tt_fw_load_elf(b, -1, true, b->erisc_firmware, errp);
    return b->erisc_img != NULL;
}

/* The ERISC image into every Ethernet tile's L1; E0 starts at its entry */
static void tt_fw_boot_erisc(TTFwBoot *b, TTBlackholeSoC *s)
{
    for (int c = 0; c < TT_ETH_CHANNELS; c++) {
        TTEthTile *t = tt_soc_eth(s, c);

        if (!t) {
            continue;
        }
        for (int i = 0; i < b->erisc_img->nseg; i++) {
            TTFwSegment *seg = &b->erisc_img->seg[i];

            tt_fw_write(&t->noc_as, seg->dest, seg->data, seg->filesz);
            address_space_set(&t->noc_as, seg->dest + seg->filesz, 0,
                              seg->memsz - seg->filesz,
                              MEMTXATTRS_UNSPECIFIED);
        }
        tt_debug_regs_set_reset_pc(&t->dbg, 0, b->erisc_img->entry);
        tt_debug_regs_set_soft_reset(&t->dbg, TT_ERISC_SOFT_RESET_POWER_ON &
                                              ~R_SOFT_RESET_0_BRISC_MASK);
        trace_tt_fw_boot_erisc(t->x, t->y);
    }
}

void blackhole_fw_boot(void *opaque)
{
    TTFwBoot *b = opaque;
    TTBlackholeSoC *s = b->soc;
    size_t bank_len = tt_grid_bank_table_size(b->num_dram, b->num_l1);
    g_autofree uint8_t *bank = g_malloc(bank_len);
    uint8_t l2v[TT_L2V_COLS + TT_L2V_ROWS];

    if (b->erisc_img) {
        tt_fw_boot_erisc(b, s);
    }
    if (!b->img[TT_BRISC]) {
        return;
    }

    tt_grid_bank_table(&s->grid, b->num_dram, b->num_l1, bank);
    tt_fw_l2v_tables(&s->grid, l2v);
    for (int i = 0; i < s->grid.ntiles; i++) {
        tt_fw_boot_tile(b, &s->tile[i], bank, bank_len, l2v);
    }
}
