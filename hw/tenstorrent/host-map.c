/*
 * Tenstorrent Blackhole: the host map (host-map.h), the server side of a
 * vfio-user client that reaches L1 and GDDR through shared memory.
 * Design: docs/devel/tenstorrent-host-map.rst; wire format: host-map-abi.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/lockable.h"
#include "qemu/main-loop.h"
#include "qemu/memfd.h"
#include "qapi/error.h"
#include "system/ramblock.h"
#include "system/reset.h"
#include "system/tcg.h"
#include "exec/translation-block.h"
#include "hw/tenstorrent/host-map.h"
#include "hw/tenstorrent/noc.h"
#include "hw/tenstorrent/tt-tile-map.h"     /* generated */
#include "trace.h"

QEMU_BUILD_BUG_ON(sizeof(TTHmBlock) != 40);
QEMU_BUILD_BUG_ON(sizeof(TTHmCmd) != 48);
QEMU_BUILD_BUG_ON(sizeof(TTHmTlbWrite) != 8);
QEMU_BUILD_BUG_ON(sizeof(TTHmRange) != 16);
QEMU_BUILD_BUG_ON(TT_MAX_TILES > TT_HM_MAX_TILES);
QEMU_BUILD_BUG_ON(TT_GRID_W > TT_HM_GRID || TT_GRID_H > TT_HM_GRID);

/*
 * TLB configuration dwords a command may write (tt-isa-documentation
 * BlackholeA0/PCIExpressTile/HostToDeviceTLBs.md; tt-kmd blackhole.c)
 */
#define TT_HM_TLB_END   (TT_TLB_CFG_BASE + TT_TLB_COUNT * 12 + \
                         TT_TLB_STRIDED_COUNT * 4)

typedef struct TTHostMapTile {
    TTHostMap *hm;
    TTTensixTile *tile;
    int index;
    uint64_t *code;             /* its code-line bitmap, in the shared area */
} TTHostMapTile;

struct TTHostMap {
    TTBlackholeSoC *soc;
    TTPcie *pcie;
    TTHostMapRam ram;
    TTHmBlock *blocks;          /* in the shared area */

    int ctrl_fd;
    uint64_t ctrl_size;
    uint8_t *ctrl;              /* the control region, mapped */
    TTHmShared *sh;

    QemuMutex lock;             /* writers of the seqlock */
    Notifier routing;
    int ntiles;
    TTHostMapTile tile[TT_MAX_TILES];
    int nbanks;
    TTDramBank *bank[TT_DRAM_BANKS];    /* block ntiles + i */
};

/* ---------------------------------------------------- code-line bitmaps -- */

/* Set or clear bits [first, last] of @map, atomically per word */
static void tt_host_map_bits(uint64_t *map, uint64_t first, uint64_t last,
                             bool set)
{
    while (first <= last) {
        uint64_t w = first / 64, lo = first % 64;
        uint64_t hi = MIN(last - w * 64, 63);
        uint64_t mask = (hi == 63 ? ~0ull : (2ull << hi) - 1) &
                        ~((1ull << lo) - 1);

        if (set) {
            qatomic_or(&map[w], mask);
        } else {
            qatomic_and(&map[w], ~mask);
        }
        first = w * 64 + hi + 1;
    }
}

/*
 * RAMBlock code_notify of a tile's L1 and LDMs (patch 0015): a TB now
 * covers [offset, offset + len), or no TB overlaps it any more.  Marks
 * every line a TB touches; clears only lines wholly inside a range known
 * to be free of code, since a TB may still cover the rest of a line.
 */
static void tt_host_map_code(void *opaque, ram_addr_t offset, ram_addr_t len,
                             bool code)
{
    TTHostMapTile *t = opaque;
    uint64_t end;

    if (offset >= TT_L1_SIZE || !len) {
        return;                 /* the LDMs are not mapped */
    }
    end = MIN(offset + len, TT_L1_SIZE);
    if (code) {
        tt_host_map_bits(t->code, offset >> TT_HM_LINE_SHIFT,
                         (end - 1) >> TT_HM_LINE_SHIFT, true);
    } else {
        uint64_t first = DIV_ROUND_UP(offset, 1u << TT_HM_LINE_SHIFT);
        uint64_t stop = end >> TT_HM_LINE_SHIFT;

        if (first < stop) {
            tt_host_map_bits(t->code, first, stop - 1, false);
        }
    }
}

/* ------------------------------------------------------- routing state -- */

/*
 * Recompute what decides where a host transaction goes and publish it
 * under the seqlock if it changed (or on @reset, with a new epoch).
 */
static void tt_host_map_update(TTHostMap *hm, bool reset)
{
    TTHmShared *sh = hm->sh;
    uint64_t optout[2][TT_HM_TILE_WORDS] = { };
    uint32_t xlate = 0;

    QEMU_LOCK_GUARD(&hm->lock);
    for (int n = 0; n < TT_NUM_NOCS; n++) {
        if (FIELD_EX32(qatomic_read(&hm->pcie->niu[n].port.cfg[0]), NIU_CFG_0,
                       COORD_TRANSLATE_EN)) {
            xlate |= BIT(n);
        }
        for (int i = 0; i < hm->ntiles; i++) {
            if (tt_noc_mcast_opted_out(&hm->soc->noc, n, hm->tile[i].tile->x,
                                       hm->tile[i].tile->y)) {
                optout[n][i / 64] |= BIT_ULL(i % 64);
            }
        }
    }
    if (!reset && xlate == sh->xlate &&
        !memcmp(optout, sh->optout, sizeof(optout))) {
        return;
    }
    qatomic_set(&sh->gen, sh->gen + 1);
    smp_wmb();      /* odd generation before the fields change */
    sh->xlate = xlate;
    memcpy(sh->optout, optout, sizeof(optout));
    if (reset) {
        sh->epoch++;
    }
    smp_wmb();      /* the fields before the even generation */
    qatomic_set(&sh->gen, sh->gen + 1);
    trace_tt_host_map_routing(sh->gen, sh->epoch, xlate);
}

static void tt_host_map_routing_changed(Notifier *n, void *data)
{
    tt_host_map_update(container_of(n, TTHostMap, routing), false);
}

/* The endpoint reset its TLB configuration: tell the client to reread it */
static void tt_host_map_reset(void *opaque)
{
    tt_host_map_update(opaque, true);
}

/* ----------------------------------------------------- the shared area -- */

static uint32_t tt_host_map_block_of(TTHostMap *hm, int px, int py)
{
    TTTensixTile *t = tt_soc_tile_at(hm->soc, px, py);
    TTDramBank *d = tt_soc_dram_at(hm->soc, px, py);

    if (t) {
        return t - hm->soc->tile + 1;
    }
    for (int b = 0; d && b < hm->nbanks; b++) {
        if (hm->bank[b] == d) {
            return hm->ntiles + b + 1;
        }
    }
    return 0;
}

static uint16_t tt_host_map_ucast_block(TTHostMap *hm, int noc,
                                        bool translate, int x, int y)
{
    int px, py;

    if (!tt_noc_resolve(&hm->soc->noc, noc, translate, x, y, &px, &py)) {
        return 0;
    }
    return tt_host_map_block_of(hm, px, py);
}

/*
 * Which block a unicast to (x, y) reaches, in each coordinate space.
 * Translated coordinates are one space for both NOCs, except where NOC1
 * reaches another node (router-only tiles, noc.c tt_noc_resolve): there
 * no block, so that the client asks the server, which knows the NOC.
 */
static void tt_host_map_fill_ucast(TTHostMap *hm, uint16_t *ucast)
{
    for (int space = 0; space < TT_HM_SPACES; space++) {
        for (int y = 0; y < TT_HM_GRID; y++) {
            for (int x = 0; x < TT_HM_GRID; x++) {
                bool xlate = space == TT_HM_SPACE_XLATE;
                uint16_t b = tt_host_map_ucast_block(
                    hm, space == TT_HM_SPACE_NOC1, xlate, x, y);

                if (xlate && b != tt_host_map_ucast_block(hm, 1, true, x, y)) {
                    b = 0;
                }
                ucast[(space * TT_HM_GRID + y) * TT_HM_GRID + x] =
                    cpu_to_le16(b);
            }
        }
    }
}

/* Each tile's coordinates as a multicast rectangle sees them (noc.c) */
static void tt_host_map_fill_mcast(TTHostMap *hm, uint8_t *mcast)
{
    for (int space = 0; space < TT_HM_SPACES; space++) {
        for (int i = 0; i < hm->ntiles; i++) {
            int x, y;

            tt_noc_mcast_xy(&hm->soc->grid, space == TT_HM_SPACE_NOC1,
                            space == TT_HM_SPACE_XLATE, i, &x, &y);
            mcast[(space * hm->ntiles + i) * 2] = x;
            mcast[(space * hm->ntiles + i) * 2 + 1] = y;
        }
    }
}

static void tt_host_map_add_block(TTHostMap *hm, TTHmBlock *b, uint64_t off,
                                  uint64_t size, uint32_t kind, uint32_t id,
                                  int x, int y)
{
    struct iovec *a = &hm->ram.areas[hm->ram.nareas++];

    b->offset = cpu_to_le64(off);
    b->size = cpu_to_le64(size);
    b->kind = cpu_to_le32(kind);
    b->id = cpu_to_le32(id);
    b->x = cpu_to_le32(x);
    b->y = cpu_to_le32(y);
    a->iov_base = (void *)(uintptr_t)off;
    a->iov_len = size;
}

/* Lay the shared area out, fill what never changes */
static bool tt_host_map_build(TTHostMap *hm, Error **errp)
{
    uint32_t nblocks = hm->ntiles + hm->nbanks;
    uint32_t code_words = DIV_ROUND_UP(TT_L1_SIZE >> TT_HM_LINE_SHIFT, 64);
    uint32_t blocks = ROUND_UP(sizeof(TTHmShared), 64);
    uint32_t ucast = ROUND_UP(blocks + nblocks * sizeof(TTHmBlock), 64);
    uint32_t mcast = ucast + TT_HM_SPACES * TT_HM_GRID * TT_HM_GRID * 2;
    uint32_t code = ROUND_UP(mcast + TT_HM_SPACES * hm->ntiles * 2, 64);
    uint32_t size = ROUND_UP(code + hm->ntiles * code_words * 8,
                             qemu_real_host_page_size());
    TTHmShared *sh;

    hm->ctrl_size = TT_HM_SHARED + size;
    hm->ctrl_fd = qemu_memfd_create("tt-host-map", hm->ctrl_size, false, 0,
                                    F_SEAL_GROW | F_SEAL_SHRINK, errp);
    if (hm->ctrl_fd < 0) {
        return false;
    }
    hm->ctrl = mmap(NULL, hm->ctrl_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                    hm->ctrl_fd, 0);
    if (hm->ctrl == MAP_FAILED) {
        error_setg_errno(errp, errno, "tt-host-map: mmap");
        hm->ctrl = NULL;
        return false;
    }
    /*
     * Only this mapping may write the tables: a client gets read-only
     * mappings (a later client must not find tables an earlier one
     * scribbled on).  Kernels before 5.1 lack the seal; the tables are
     * then writable by a client: at worst accesses reach the wrong block
     * of this chip's RAM.
     */
    if (fcntl(hm->ctrl_fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE | F_SEAL_SEAL) &&
        fcntl(hm->ctrl_fd, F_ADD_SEALS, F_SEAL_SEAL)) {
        error_setg_errno(errp, errno, "tt-host-map: seals");
        return false;
    }
    sh = hm->sh = (TTHmShared *)(hm->ctrl + TT_HM_SHARED);
    sh->size = cpu_to_le32(size);
    sh->nblocks = cpu_to_le32(nblocks);
    sh->ntiles = cpu_to_le32(hm->ntiles);
    sh->line_shift = cpu_to_le32(TT_HM_LINE_SHIFT);
    sh->blocks = cpu_to_le32(blocks);
    sh->ucast = cpu_to_le32(ucast);
    sh->mcast = cpu_to_le32(mcast);
    sh->code_words = cpu_to_le32(code_words);

    hm->blocks = (TTHmBlock *)((uint8_t *)sh + blocks);
    hm->ram.areas = g_new0(struct iovec, nblocks);
    for (int i = 0; i < hm->ntiles; i++) {
        TTTensixTile *t = hm->tile[i].tile;

        tt_host_map_add_block(hm, &hm->blocks[i], t->ram_offset, TT_L1_SIZE,
                              TT_HM_BLOCK_L1, i, t->x, t->y);
        hm->blocks[i].code = cpu_to_le32(code + i * code_words * 8);
        hm->tile[i].code = (uint64_t *)((uint8_t *)sh + code +
                                        i * code_words * 8);
    }
    for (int b = 0; b < hm->nbanks; b++) {
        TTDramBank *d = hm->bank[b];
        int x, y;

        tt_grid_dram_port_xy(d->bank, 0, &x, &y);
        /* a DRAM tile's NIU registers shadow the top of its bank (noc.c) */
        tt_host_map_add_block(hm, &hm->blocks[hm->ntiles + b], d->ram_offset,
                              MIN(d->size, TT_TILE_NIU0_BASE),
                              TT_HM_BLOCK_GDDR, d->bank, x, y);
    }
    tt_host_map_fill_ucast(hm, (uint16_t *)((uint8_t *)sh + ucast));
    tt_host_map_fill_mcast(hm, (uint8_t *)sh + mcast);
    tt_host_map_update(hm, true);
    sh->version = cpu_to_le32(TT_HM_VERSION);
    smp_wmb();      /* the tables before the magic that validates them */
    sh->magic = cpu_to_le32(TT_HM_MAGIC);
    return true;
}

TTHostMap *tt_host_map_new(TTBlackholeSoC *soc, TTPcie *pcie, Error **errp)
{
    TTHostMap *hm;

    if (soc->ram_fd < 0) {
        error_setg(errp, "tt-host-map: the chip's RAM is not in a shareable "
                   "file");
        return NULL;
    }
    hm = g_new0(TTHostMap, 1);
    hm->soc = soc;
    hm->pcie = pcie;
    hm->ctrl_fd = -1;
    hm->ram.fd = soc->ram_fd;
    hm->ram.size = soc->ram_size;
    qemu_mutex_init(&hm->lock);
    hm->ntiles = soc->grid.ntiles;
    for (int i = 0; i < hm->ntiles; i++) {
        hm->tile[i] = (TTHostMapTile) { hm, &soc->tile[i], i, NULL };
    }
    for (int b = 0; b < TT_DRAM_BANKS; b++) {
        if (b != soc->grid.harvested_dram_bank) {
            hm->bank[hm->nbanks++] = &soc->dram[b];
        }
    }
    if (!tt_host_map_build(hm, errp)) {
        tt_host_map_free(hm);
        return NULL;
    }
    for (int i = 0; i < hm->ntiles; i++) {
        qemu_ram_block_set_code_notify(soc->tile[i].sram.ram_block,
                                       tt_host_map_code, &hm->tile[i]);
        tt_debug_regs_set_live_flag(&soc->tile[i].dbg,
                                    &hm->sh->live[i / 64], BIT_ULL(i % 64));
    }
    hm->routing.notify = tt_host_map_routing_changed;
    tt_noc_add_routing_notifier(&soc->noc, &hm->routing);
    qemu_register_reset(tt_host_map_reset, hm);
    return hm;
}

void tt_host_map_free(TTHostMap *hm)
{
    if (hm->routing.notify) {
        qemu_unregister_reset(tt_host_map_reset, hm);
        notifier_remove(&hm->routing);
        for (int i = 0; i < hm->ntiles; i++) {
            qemu_ram_block_set_code_notify(hm->soc->tile[i].sram.ram_block,
                                           NULL, NULL);
            tt_debug_regs_set_live_flag(&hm->soc->tile[i].dbg, NULL, 0);
        }
    }
    if (hm->ctrl) {
        munmap(hm->ctrl, hm->ctrl_size);
    }
    if (hm->ctrl_fd >= 0) {
        close(hm->ctrl_fd);
    }
    qemu_mutex_destroy(&hm->lock);
    g_free(hm->ram.areas);
    g_free(hm);
}

const TTHostMapRam *tt_host_map_ram(TTHostMap *hm)
{
    return &hm->ram;
}

int tt_host_map_ctrl_fd(TTHostMap *hm)
{
    return hm->ctrl_fd;
}

uint64_t tt_host_map_ctrl_size(TTHostMap *hm)
{
    return hm->ctrl_size;
}

const TTHmShared *tt_host_map_shared(TTHostMap *hm)
{
    return hm->sh;
}

/* ------------------------------------------------------------ commands -- */

/* Deferred TLB configuration writes, as 4-byte BAR0 writes */
static void tt_host_map_tlb_writes(TTHostMap *hm, const TTHmTlbWrite *w,
                                   unsigned n)
{
    BQL_LOCK_GUARD();
    for (unsigned i = 0; i < n; i++) {
        uint32_t off = le32_to_cpu(w[i].offset);
        uint32_t v = w[i].value;

        if (off < TT_TLB_CFG_BASE || off >= TT_HM_TLB_END || (off & 3)) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: BAR0 0x%x is not a TLB "
                          "configuration register; write ignored\n",
                          __func__, off);
            continue;
        }
        tt_pcie_bar_rw(hm->pcie, 0, off, &v, 4, true);
    }
}

/* The client wrote these L1 bytes over translated code: drop that code */
static void tt_host_map_invalidate(TTHostMap *hm, const TTHmRange *r,
                                   unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint32_t b = le32_to_cpu(r[i].block), len = le32_to_cpu(r[i].len);
        uint64_t off = le64_to_cpu(r[i].offset);
        ram_addr_t start;

        if (b >= hm->ntiles || !len || off >= TT_L1_SIZE ||
            len > TT_L1_SIZE - off) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: block %u bytes 0x%" PRIx64
                          " + 0x%x are not in a tile's L1; ignored\n",
                          __func__, b, off, len);
            continue;
        }
        trace_tt_host_map_invalidate(b, off, len);
        if (tcg_enabled()) {
            start = memory_region_get_ram_addr(&hm->tile[b].tile->sram) + off;
            tb_invalidate_phys_range(NULL, start, start + len - 1);
        }
    }
}

bool tt_host_map_command(TTHostMap *hm, const void *buf, size_t len)
{
    const uint8_t *p = buf;
    TTHmCmd cmd;
    unsigned ntlb, nranges, nwake = 0;

    if (len < sizeof(cmd)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %zu-byte command is too short\n",
                      __func__, len);
        return false;
    }
    memcpy(&cmd, p, sizeof(cmd));
    ntlb = le16_to_cpu(cmd.ntlb);
    nranges = le16_to_cpu(cmd.nranges);
    if (le32_to_cpu(cmd.magic) != TT_HM_CMD_MAGIC ||
        len != sizeof(cmd) + ntlb * sizeof(TTHmTlbWrite) +
               nranges * sizeof(TTHmRange)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: malformed command (magic 0x%x, "
                      "%u TLB writes, %u ranges, %zu bytes); ignored\n",
                      __func__, le32_to_cpu(cmd.magic), ntlb, nranges, len);
        return false;
    }
    p += sizeof(cmd);
    if (le32_to_cpu(cmd.flags) & TT_HM_CMD_SYNC) {
        tt_noc_host_sync();
    }
    if (ntlb) {
        g_autofree TTHmTlbWrite *w = g_memdup2(p, ntlb * sizeof(*w));

        tt_host_map_tlb_writes(hm, w, ntlb);
        p += ntlb * sizeof(*w);
    }
    if (nranges) {
        g_autofree TTHmRange *r = g_memdup2(p, nranges * sizeof(*r));

        tt_host_map_invalidate(hm, r, nranges);
    }
    for (int w = 0; w < TT_HM_TILE_WORDS; w++) {
        uint64_t bits = le64_to_cpu(cmd.wake[w]);

        while (bits) {
            int i = w * 64 + ctz64(bits);

            bits &= bits - 1;
            if (i >= hm->ntiles) {
                qemu_log_mask(LOG_GUEST_ERROR, "%s: no tile %d to wake\n",
                              __func__, i);
                continue;
            }
            tt_spin_wake(&hm->tile[i].tile->spin);
            nwake++;
        }
    }
    trace_tt_host_map_command(ntlb, nranges, nwake);
    return true;
}

/* ------------------------------------------------- the RAM by message -- */

bool tt_host_map_ram_rw(TTHostMap *hm, uint64_t offset, void *buf,
                        uint64_t len, bool write)
{
    for (uint32_t b = 0; b < hm->ram.nareas; b++) {
        uint64_t start = (uintptr_t)hm->ram.areas[b].iov_base;
        uint64_t size = hm->ram.areas[b].iov_len;
        AddressSpace *as;
        MemTxResult r;

        if (offset < start || offset - start >= size ||
            len > size - (offset - start)) {
            continue;
        }
        as = b < hm->ntiles ? &hm->tile[b].tile->noc_as
                            : &hm->bank[b - hm->ntiles]->as;
        trace_tt_host_map_ram(b, offset - start, len, write);
        if (!write) {
            tt_noc_host_sync();
        }
        r = address_space_rw(as, offset - start, MEMTXATTRS_UNSPECIFIED, buf,
                             len, write);
        if (write && b < hm->ntiles) {
            tt_spin_wake(&hm->tile[b].tile->spin);
        }
        return r == MEMTX_OK;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "%s: 0x%" PRIx64 " + 0x%" PRIx64 " is not "
                  "inside one RAM block\n", __func__, offset, len);
    return false;
}
