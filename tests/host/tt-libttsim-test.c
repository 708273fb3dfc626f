/*
 * End-to-end test of libttsim.so against the emulated Blackhole chip:
 *
 *   tt-libttsim-test <path to libttsim.so>
 *
 * Loads the library like tt-umd (dlopen, nine dlsym() lookups, DMA
 * callbacks, init), then checks the PCI identity and BAR bases, a TLB
 * window onto a Tensix L1, ARC's boot status, the tile access calls and
 * device-to-host DMA started by a tiny BRISC program and host-to-device
 * DMA by the eDMA engine, host memory through a TLB window, the NOC
 * identity registers and a warm restart's power cycle (skipped with
 * TT_TEST_NO_CORES=1, for servers that are not the Blackhole machine).
 * The library starts QEMU itself unless TT_EMU_SOCKET names a running
 * server (TT_EMU_QEMU, TT_EMU_ARGS: see libttsim.c).  Output is TAP.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <time.h>

#include "tt-test.h"

#define HOST_MEM_SIZE       (64u << 20)

/* Tensix tile and L1 offset used for the window test */
#define TEST_TILE_X         1
#define TEST_TILE_Y         2
#define TEST_L1_ADDR        0x10000
#define TEST_L1_ADDR2       0x20000
#define TEST_WINDOW         5
#define ARC_WINDOW          6

/* ARC tile, boot status in RESET_SCRATCH(2) (tt-kmd blackhole.c) */
#define ARC_X               8
#define ARC_Y               0
#define ARC_BOOT_STATUS     0x80030408u
#define ARC_BOOT_READY      5
#define ARC_BOOT_WAIT_S     20

/*
 * Device-to-host DMA, driven by a few instructions on tile (1,2)'s BRISC:
 * one NOC write from L1 to the PCIe tile and one NOC read back, through
 * the outbound iATU (tt-kmd blackhole.c, IATU_*).
 */
#define NIU0                0xffb20000u     /* NOC0 NIU, command buffers */
#define NIU_BUF(n)          ((n) << 11)
#define NIU_TARG_LO         0x00
#define NIU_TARG_MID        0x04
#define NIU_TARG_HI         0x08
#define NIU_RET_LO          0x0c
#define NIU_RET_MID         0x10
#define NIU_RET_HI          0x14
#define NIU_CTRL            0x1c
#define NIU_AT_LEN_BE       0x20
#define NIU_CMD_CTRL        0x40
#define NIU_CMD_WR          (1u << 1)
#define NIU_CMD_RESP_MARKED (1u << 4)
#define NOC_XY(x, y)        ((y) << 6 | (x))
#define PCIE_XY             NOC_XY(19, 24)  /* translated PCIe tile */
#define NOC_PCIE_IATU_MID   0x10000000u     /* address bit 60, high word */
#define SOFT_RESET_0        0xffb121b0u
#define SOFT_RESET_BRISC    (1u << 11)
#define IATU_REGION0        0x1000          /* BAR2, tt-umd's layout */
#define IATU_HOST_BASE      0x100000u       /* NOC 0 -> host 1 MiB */
#define IATU_LIMIT          0xffffffu
#define DMA_SRC_L1          0x40000         /* payload to the host */
#define DMA_DST_L1          0x60000         /* what the core reads back */
#define DMA_WR_LEN          0x4000          /* one NOC packet at most */
#define DMA_WR_NOC          0x3000
#define DMA_RD_LEN          0x1000
#define DMA_RD_NOC          0x100000
#define DMA_WAIT_S          20

static uint8_t *host_mem;
static unsigned dma_bad;
static unsigned dma_calls;

/* Host memory as the device sees it: addresses 0 .. 64 MiB */
static void dma_rd(uint64_t paddr, void *dst, uint32_t size)
{
    dma_calls++;
    if (paddr >= HOST_MEM_SIZE || size > HOST_MEM_SIZE - paddr) {
        printf("# DMA read outside host memory: 0x%llx +%u\n",
               (unsigned long long)paddr, size);
        dma_bad++;
        memset(dst, 0, size);
        return;
    }
    memcpy(dst, host_mem + paddr, size);
}

static void dma_wr(uint64_t paddr, const void *src, uint32_t size)
{
    dma_calls++;
    if (paddr >= HOST_MEM_SIZE || size > HOST_MEM_SIZE - paddr) {
        printf("# DMA write outside host memory: 0x%llx +%u\n",
               (unsigned long long)paddr, size);
        dma_bad++;
        return;
    }
    memcpy(host_mem + paddr, src, size);
}

static void init_twice(void *opaque)
{
    ((const TTHostLib *)opaque)->init();
    ((const TTHostLib *)opaque)->init();
}

static void read_after_exit(void *opaque)
{
    uint32_t v;

    ((const TTHostLib *)opaque)->mem_rd(LIBTTSIM_BAR0_BASE, &v, 4);
}

static void test_config(const TTHostLib *api)
{
    uint32_t id = api->cfg_rd(0, 0x00);
    uint32_t cls = api->cfg_rd(0, 0x08);

    tt_ok((id & 0xffff) == 0x1e52, "vendor id 0x1E52 (got 0x%x)", id & 0xffff);
    tt_ok((id >> 16) == 0xb140, "device id 0xB140 (got 0x%x)", id >> 16);
    tt_ok((cls >> 24) == 0x12, "class 0x12, processing accelerator (got "
          "0x%x)", cls >> 24);
    tt_ok(api->cfg_rd(1 << 3, 0) == UINT32_MAX,
          "no device at bus 0 device 1");
    tt_ok(api->cfg_rd(0, 0x10) == 0x00000004 &&
          api->cfg_rd(0, 0x14) == 0x00000001,
          "BAR0 is 64-bit memory at 0x1_0000_0000");
    tt_ok(api->cfg_rd(0, 0x18) == 0x20000004 &&
          api->cfg_rd(0, 0x1c) == 0x00000001,
          "BAR2 is 64-bit memory at 0x1_2000_0000");
    tt_ok(api->cfg_rd(0, 0x20) == 0x00000004 &&
          api->cfg_rd(0, 0x24) == 0x00000008,
          "BAR4 is 64-bit memory at 0x8_0000_0000");
    tt_ok(tt_host_bar_base(api, 0x10) == LIBTTSIM_BAR0_BASE &&
          tt_host_bar_base(api, 0x18) == LIBTTSIM_BAR2_BASE &&
          tt_host_bar_base(api, 0x20) == LIBTTSIM_BAR4_BASE,
          "BAR bases decode as tt-umd decodes them");
}

static void test_window(const TTHostLib *api)
{
    static uint8_t out[4096], in[4096];
    uint64_t at = tt_host_tlb_unicast(api, TEST_WINDOW, TEST_TILE_X,
                                      TEST_TILE_Y, TEST_L1_ADDR);

    tt_fill(out, sizeof(out), 1);
    api->mem_wr(at, out, sizeof(out));
    memset(in, 0, sizeof(in));
    api->mem_rd(at, in, sizeof(in));
    api->clock(1);
    tt_ok(!memcmp(in, out, sizeof(in)), "4 KiB through TLB window %d to "
          "L1 0x%x of tile (%d,%d) reads back", TEST_WINDOW, TEST_L1_ADDR,
          TEST_TILE_X, TEST_TILE_Y);
}

/* ARC firmware may still be booting: poll like tt-umd, clocking */
static void test_arc(const TTHostLib *api)
{
    time_t until = time(NULL) + ARC_BOOT_WAIT_S;
    uint64_t at = tt_host_tlb_unicast(api, ARC_WINDOW, ARC_X, ARC_Y,
                                      ARC_BOOT_STATUS);
    uint32_t v;

    do {
        v = tt_host_rd32(api, at);
        api->clock(1);
    } while ((v & 7) != ARC_BOOT_READY && time(NULL) < until);
    tt_ok((v & 7) == ARC_BOOT_READY, "ARC boot status (8,0) 0x%x reads 0x%x, "
          "(v & 7) == 5", ARC_BOOT_STATUS, v);
}

static void test_tile_calls(const TTHostLib *api)
{
    static uint8_t out[8192], in[8192], first[4096];
    static uint8_t via_window[8192];
    uint32_t v = 0;

    /* What test_window wrote, now through the tile call */
    tt_fill(first, sizeof(first), 1);
    memset(in, 0, sizeof(in));
    api->tile_rd(TEST_TILE_X, TEST_TILE_Y, TEST_L1_ADDR, in, sizeof(first));
    tt_ok(!memcmp(in, first, sizeof(first)),
          "tile_rd_bytes sees what window %d wrote", TEST_WINDOW);

    tt_fill(out, sizeof(out), 2);
    api->tile_wr(TEST_TILE_X, TEST_TILE_Y, TEST_L1_ADDR2, out, sizeof(out));
    memset(in, 0, sizeof(in));
    api->tile_rd(TEST_TILE_X, TEST_TILE_Y, TEST_L1_ADDR2, in, sizeof(in));
    tt_ok(!memcmp(in, out, sizeof(in)), "tile_wr_bytes then tile_rd_bytes: "
          "8 KiB at L1 0x%x round trip", TEST_L1_ADDR2);

    /* The same bytes through the host's own window prove the target */
    api->mem_rd(tt_host_win(api, TEST_WINDOW, TEST_L1_ADDR2), via_window,
                sizeof(via_window));
    tt_ok(!memcmp(via_window, out, sizeof(out)),
          "tile_wr_bytes landed in tile (%d,%d) L1 (seen through window "
          "%d)", TEST_TILE_X, TEST_TILE_Y, TEST_WINDOW);

    api->tile_rd(ARC_X, ARC_Y, ARC_BOOT_STATUS, &v, sizeof(v));
    tt_ok((v & 7) == ARC_BOOT_READY, "tile_rd_bytes of ARC boot status "
          "reads 0x%x", v);
}

/* RV32I encodings (RISC-V unprivileged ISA, chapter 2) */
enum { X0 = 0, T0 = 5, T1 = 6 };

static uint32_t rv_lui(int rd, uint32_t imm20)
{
    return imm20 << 12 | rd << 7 | 0x37;
}

static uint32_t rv_addi(int rd, int rs1, int32_t imm)
{
    return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | rd << 7 | 0x13;
}

static uint32_t rv_sw(int rs2, int rs1, int32_t imm)
{
    return ((uint32_t)imm >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 |
           2 << 12 | ((uint32_t)imm & 0x1f) << 7 | 0x23;
}

typedef struct Prog {
    uint32_t insn[64];
    int n;
} Prog;

static void emit_li(Prog *p, int rd, uint32_t v)
{
    uint32_t hi = (v + 0x800) >> 12;

    p->insn[p->n++] = rv_lui(rd, hi & 0xfffff);
    p->insn[p->n++] = rv_addi(rd, rd, (int32_t)(v - (hi << 12)));
}

/* *(T0 + off) = v; off must fit sw's signed 12-bit immediate */
static void emit_store(Prog *p, uint32_t off, uint32_t v)
{
    emit_li(p, T1, v);
    p->insn[p->n++] = rv_sw(T1, T0, off);
}

static void emit_noc_cmd(Prog *p, int buf, uint32_t ctrl, uint32_t targ_lo,
                         uint32_t targ_mid, uint32_t targ_hi, uint32_t ret_lo,
                         uint32_t ret_mid, uint32_t ret_hi, uint32_t len)
{
    emit_li(p, T0, NIU0 + NIU_BUF(buf));
    emit_store(p, NIU_CTRL, ctrl);
    emit_store(p, NIU_TARG_LO, targ_lo);
    emit_store(p, NIU_TARG_MID, targ_mid);
    emit_store(p, NIU_TARG_HI, targ_hi);
    emit_store(p, NIU_RET_LO, ret_lo);
    emit_store(p, NIU_RET_MID, ret_mid);
    emit_store(p, NIU_RET_HI, ret_hi);
    emit_store(p, NIU_AT_LEN_BE, len);
    emit_store(p, NIU_CMD_CTRL, 1);
}

/* Write L1 -> host, then read host -> L1, then spin (jal x0, 0) */
static void build_dma_program(Prog *p)
{
    uint32_t me = NOC_XY(TEST_TILE_X, TEST_TILE_Y);

    p->n = 0;
    emit_noc_cmd(p, 0, NIU_CMD_WR, DMA_SRC_L1, 0, me, DMA_WR_NOC,
                 NOC_PCIE_IATU_MID, PCIE_XY, DMA_WR_LEN);
    emit_noc_cmd(p, 1, NIU_CMD_RESP_MARKED, DMA_RD_NOC, NOC_PCIE_IATU_MID,
                 PCIE_XY, DMA_DST_L1, 0, me, DMA_RD_LEN);
    p->insn[p->n++] = 0x6f;
}

/* jal rd, off: imm[20|10:1|11|19:12] */
static uint32_t rv_jal(int rd, int32_t off)
{
    uint32_t i = (uint32_t)off;

    return (i >> 20 & 1) << 31 | (i >> 1 & 0x3ff) << 21 |
           (i >> 11 & 1) << 20 | (i >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}

/*
 * On silicon a core has run a thousand cycles by the time a host's next
 * access arrives: a host that releases BRISC and at once reads what BRISC
 * stores first finds the value (tt-umd's DeassertResetBrisc), on every
 * tile, every time.
 */
#define FIRST_STEP_VAR      0x10000u
#define FIRST_STEP_ROUNDS   3

static void test_first_steps(const TTHostLib *api)
{
    unsigned missed = 0, first_x = 0, first_y = 0;
    uint32_t reset, zero = 0;
    Prog prog;

    for (int round = 0; round < FIRST_STEP_ROUNDS; round++) {
        for (unsigned i = 0; i < TT_HOST_TENSIX_TILES; i++) {
            uint32_t want = 0x87650000u | round << 8 | i, got = 0;
            unsigned x, y;

            tt_host_tensix_xy(i, &x, &y);
            api->tile_rd(x, y, SOFT_RESET_0, &reset, 4);
            reset |= SOFT_RESET_BRISC;
            api->tile_wr(x, y, SOFT_RESET_0, &reset, 4);
            prog.n = 0;
            emit_li(&prog, T0, FIRST_STEP_VAR);
            emit_store(&prog, 0, want);
            prog.insn[prog.n++] = rv_jal(X0, 0);
            api->tile_wr(x, y, FIRST_STEP_VAR, &zero, 4);
            api->tile_wr(x, y, 0, prog.insn, prog.n * 4);
            reset &= ~SOFT_RESET_BRISC;
            api->tile_wr(x, y, SOFT_RESET_0, &reset, 4);
            api->tile_rd(x, y, FIRST_STEP_VAR, &got, 4);
            if (got != want && !missed++) {
                first_x = x;
                first_y = y;
                tt_diag("round %d tile (%u,%u): read 0x%x", round, x, y, got);
            }
            reset |= SOFT_RESET_BRISC;
            api->tile_wr(x, y, SOFT_RESET_0, &reset, 4);
        }
    }
    tt_ok(missed == 0, "BRISC's first store is in L1 when the host reads "
          "right after releasing it: %u of %d releases missed it (first "
          "at (%u,%u))", missed, FIRST_STEP_ROUNDS * TT_HOST_TENSIX_TILES,
          first_x, first_y);

    /*
     * The same by multicast: one write holds every tile's BRISC, one loads
     * the program, one releases them all; then the host reads each tile.
     * The reset value is tile 0's, with only BRISC's bit changing.
     */
    missed = 0;
    tt_host_tensix_xy(0, &first_x, &first_y);
    api->tile_rd(first_x, first_y, SOFT_RESET_0, &reset, 4);
    for (int round = 0; round < FIRST_STEP_ROUNDS; round++) {
        uint32_t want = 0x8765f000u | round, v;

        v = reset | SOFT_RESET_BRISC;
        api->mem_wr(tt_host_tlb_grid(api, TEST_WINDOW, SOFT_RESET_0), &v, 4);
        prog.n = 0;
        emit_li(&prog, T0, FIRST_STEP_VAR);
        emit_store(&prog, 0, want);
        prog.insn[prog.n++] = rv_jal(X0, 0);
        api->mem_wr(tt_host_tlb_grid(api, TEST_WINDOW, FIRST_STEP_VAR), &zero,
                    4);
        api->mem_wr(tt_host_tlb_grid(api, TEST_WINDOW, 0), prog.insn,
                    prog.n * 4);
        v = reset & ~SOFT_RESET_BRISC;
        api->mem_wr(tt_host_tlb_grid(api, TEST_WINDOW, SOFT_RESET_0), &v, 4);
        for (unsigned i = 0; i < TT_HOST_TENSIX_TILES; i++) {
            uint32_t got = 0;
            unsigned x, y;

            tt_host_tensix_xy(i, &x, &y);
            api->tile_rd(x, y, FIRST_STEP_VAR, &got, 4);
            if (got != want && !missed++) {
                tt_diag("multicast round %d tile (%u,%u): read 0x%x", round,
                        x, y, got);
            }
        }
    }
    reset |= SOFT_RESET_BRISC;
    api->mem_wr(tt_host_tlb_grid(api, TEST_WINDOW, SOFT_RESET_0), &reset, 4);
    tt_ok(missed == 0, "after one multicast release, every tile's BRISC "
          "store is in L1 when the host reads it: %u of %d reads missed it",
          missed, FIRST_STEP_ROUNDS * TT_HOST_TENSIX_TILES);
}

/*
 * The Ethernet base firmware's mailbox, as tt-metal's 2-ERISC mode uses it:
 * a program put in an Ethernet tile's L1 and a RELEASE_CORE message with
 * its address start E0 there, its stack pointer the firmware's.
 */
#define ETH_X               20          /* translated: logical channel 0 */
#define ETH_Y               25
#define ETH_PROG            0x20000u
#define ETH_OUT             0x21000u
#define ETH_MAILBOX         0x7d000u
#define ETH_MSG_RELEASE     0xca110002u
#define ETH_MSG_RELEASED    0xd0e50002u

static void test_eth_release(const TTHostLib *api)
{
    uint32_t out[2] = { 0, 0 }, msg = 0, arg = ETH_PROG;
    time_t until = time(NULL) + DMA_WAIT_S;
    Prog prog = { .n = 0 };

    emit_li(&prog, T0, ETH_OUT);
    prog.insn[prog.n++] = rv_sw(2, T0, 0);              /* sw sp, 0(t0) */
    emit_store(&prog, 4, 0x600d);
    prog.insn[prog.n++] = rv_jal(X0, 0);
    api->tile_wr(ETH_X, ETH_Y, ETH_OUT, out, sizeof(out));
    api->tile_wr(ETH_X, ETH_Y, ETH_PROG, prog.insn, prog.n * 4);
    api->tile_wr(ETH_X, ETH_Y, ETH_MAILBOX + 4, &arg, 4);
    msg = ETH_MSG_RELEASE;
    api->tile_wr(ETH_X, ETH_Y, ETH_MAILBOX, &msg, 4);
    do {
        api->clock(100);
        api->tile_rd(ETH_X, ETH_Y, ETH_MAILBOX, &msg, 4);
        api->tile_rd(ETH_X, ETH_Y, ETH_OUT, out, sizeof(out));
    } while ((msg != ETH_MSG_RELEASED || out[1] != 0x600d) &&
             time(NULL) < until);
    tt_ok(msg == ETH_MSG_RELEASED && out[1] == 0x600d &&
          out[0] == 0xffb02000u, "Ethernet mailbox RELEASE_CORE: answered "
          "(0x%08x), E0 ran the program (0x%x) with sp 0x%08x", msg, out[1],
          out[0]);
}

static void iatu_wr(const TTHostLib *api, uint32_t reg, uint32_t v)
{
    tt_host_wr32(api, LIBTTSIM_BAR2_BASE + IATU_REGION0 + reg, v);
}

/* Region 0: NOC [0, 16 MiB) at bit 60 -> host 1 MiB; tt-umd's order */
static void iatu_setup(const TTHostLib *api)
{
    iatu_wr(api, 0x04, 0);
    iatu_wr(api, 0x00, 0);
    iatu_wr(api, 0x08, 0);
    iatu_wr(api, 0x0c, 0);
    iatu_wr(api, 0x10, IATU_LIMIT);
    iatu_wr(api, 0x14, IATU_HOST_BASE);
    iatu_wr(api, 0x18, 0);
    iatu_wr(api, 0x04, 1u << 31);
}

static void test_dma(const TTHostLib *api)
{
    static uint8_t payload[DMA_WR_LEN], back[DMA_RD_LEN];
    uint8_t *to_host = host_mem + IATU_HOST_BASE + DMA_WR_NOC;
    uint8_t *from_host = host_mem + IATU_HOST_BASE + DMA_RD_NOC;
    time_t until = time(NULL) + DMA_WAIT_S;
    const char *no_cores = getenv("TT_TEST_NO_CORES");
    uint32_t reset;
    Prog prog;

    if (no_cores && *no_cores == '1') {
        tt_ok(true, "device-to-host DMA # SKIP no RISC-V cores");
        tt_ok(true, "device reads host memory # SKIP no RISC-V cores");
        return;
    }
    tt_fill(payload, sizeof(payload), 3);
    tt_fill(from_host, DMA_RD_LEN, 4);
    build_dma_program(&prog);
    api->tile_wr(TEST_TILE_X, TEST_TILE_Y, DMA_SRC_L1, payload,
                 sizeof(payload));
    api->tile_wr(TEST_TILE_X, TEST_TILE_Y, 0, prog.insn, prog.n * 4);
    iatu_setup(api);

    /* Release BRISC only, as tt-umd's deassert_risc_reset does */
    api->tile_rd(TEST_TILE_X, TEST_TILE_Y, SOFT_RESET_0, &reset, 4);
    reset &= ~SOFT_RESET_BRISC;
    api->tile_wr(TEST_TILE_X, TEST_TILE_Y, SOFT_RESET_0, &reset, 4);

    /* The DMA reaches host memory only inside libttsim calls */
    while (memcmp(to_host, payload, sizeof(payload)) && time(NULL) < until) {
        api->clock(1);
    }
    tt_ok(!memcmp(to_host, payload, sizeof(payload)), "BRISC's 16 KiB NOC "
          "write to the PCIe tile reached host memory through the "
          "callbacks (%u calls)", dma_calls);
    do {
        api->clock(1);
        api->tile_rd(TEST_TILE_X, TEST_TILE_Y, DMA_DST_L1, back,
                     sizeof(back));
    } while (memcmp(back, from_host, sizeof(back)) && time(NULL) < until);
    tt_ok(!memcmp(back, from_host, sizeof(back)),
          "BRISC's NOC read of host memory got the host's bytes");

    reset |= SOFT_RESET_BRISC;
    api->tile_wr(TEST_TILE_X, TEST_TILE_Y, SOFT_RESET_0, &reset, 4);
}

/*
 * Host memory reached from a host access (tt-umd's sysmem path,
 * TestDeviceIOFixture.SysmemReadWrite): a TLB window onto the PCIe tile's
 * host range (NOC address bit 60) through the outbound iATU.  The server
 * answers the access only once the host's callbacks ran, inside the same
 * libttsim call; 4 bytes, then 40 KiB (several mailbox pieces).
 */
#define SYSMEM_NOC          0x2000          /* -> host 1 MiB + 8 KiB */
#define SYSMEM_LEN          0xa000

static void test_sysmem_loopback(const TTHostLib *api)
{
    static uint8_t out[SYSMEM_LEN], in[SYSMEM_LEN];
    uint8_t *host = host_mem + IATU_HOST_BASE + SYSMEM_NOC;
    uint64_t at;
    uint32_t v = 0xdeadbeef, back = 0;
    unsigned calls = dma_calls;

    iatu_setup(api);
    at = tt_host_tlb_unicast(api, TEST_WINDOW, 19, 24,
                             (uint64_t)NOC_PCIE_IATU_MID << 32 | SYSMEM_NOC);
    api->mem_wr(at, &v, 4);
    tt_ok(!memcmp(host, &v, 4) && dma_calls > calls,
          "a 4-byte write through a window onto the PCIe tile reached host "
          "memory through the callbacks, inside the call");
    memcpy(host, "\x78\x56\x34\x12", 4);
    api->mem_rd(at, &back, 4);
    tt_ok(back == 0x12345678, "a 4-byte read through it got host memory "
          "(0x%08x)", back);
    tt_fill(out, sizeof(out), 7);
    api->mem_wr(at, out, sizeof(out));
    tt_ok(!memcmp(host, out, sizeof(out)), "a %u-byte write reached host "
          "memory", SYSMEM_LEN);
    tt_fill(host, sizeof(out), 8);
    api->mem_rd(at, in, sizeof(in));
    tt_ok(!memcmp(host, in, sizeof(in)), "a %u-byte read got host memory",
          SYSMEM_LEN);
}

/*
 * NIU identity registers of the tiles without a Tensix NIU, where tt-umd
 * reads them (blackhole_implementation.hpp *_CONTROL_REG_ADDR_BASE_MAP,
 * tests/api/test_noc.cpp): NOC_NODE_ID is x | y << 6 | 17 << 12 |
 * 12 << 19 | X-first (NOC0) << 28, in the coordinates of the NOC whose
 * NIU answers; NOC_ID_LOGICAL the translated coordinates x | y << 6.
 */
#define ID_NOC0(x, y)       ((x) | (y) << 6 | 17 << 12 | 12 << 19 | 1 << 28)
#define ID_NOC1(x, y)       ((16 - (x)) | (11 - (y)) << 6 | 17 << 12 | \
                             12 << 19)

/*
 * libttsim_exit() then libttsim_init() must give a chip as at power-on,
 * although the library keeps its emulator between the two (a warm
 * restart, TT_EMU_WARM): what the first session leaves behind - L1 and
 * GDDR contents, a running core, TLB windows - is gone in the second,
 * and a core released there runs the new code at an address where the
 * first session's core ran other code.
 */
#define PC_TILE_X           2
#define PC_TILE_Y           2
#define PC_L1               0x30000         /* the counter at +4 */
#define PC_JUNK             0x30100
#define PC_DRAM_X           0
#define PC_DRAM_Y           0
#define PC_DRAM_ADDR        0x1000
#define PC_WINDOW           7
#define PC_NEW_VALUE        0x600d
#define PC_WAIT_S           20

static uint32_t pc_counter(const TTHostLib *api)
{
    uint32_t v = 0;

    api->tile_rd(PC_TILE_X, PC_TILE_Y, PC_L1 + 4, &v, 4);
    return v;
}

static void pc_release_brisc(const TTHostLib *api, const Prog *prog)
{
    uint32_t reset;

    api->tile_wr(PC_TILE_X, PC_TILE_Y, 0, prog->insn, prog->n * 4);
    api->tile_rd(PC_TILE_X, PC_TILE_Y, SOFT_RESET_0, &reset, 4);
    reset &= ~SOFT_RESET_BRISC;
    api->tile_wr(PC_TILE_X, PC_TILE_Y, SOFT_RESET_0, &reset, 4);
}

/* First session: leave things behind, a core counting in L1 among them */
static void power_cycle_leave(const TTHostLib *api)
{
    static const uint8_t junk[16] = "left behind....";
    time_t until = time(NULL) + PC_WAIT_S;
    Prog prog = { .n = 0 };
    uint32_t v;

    /* t1 = 0; loop: t1 += 1; sw t1, 4(t0); j loop */
    emit_li(&prog, T0, PC_L1);
    prog.insn[prog.n++] = rv_addi(T1, X0, 0);
    prog.insn[prog.n++] = rv_addi(T1, T1, 1);
    prog.insn[prog.n++] = rv_sw(T1, T0, 4);
    prog.insn[prog.n++] = rv_jal(X0, -8);
    api->tile_wr(PC_TILE_X, PC_TILE_Y, PC_JUNK, junk, sizeof(junk));
    api->tile_wr(PC_DRAM_X, PC_DRAM_Y, PC_DRAM_ADDR, junk, sizeof(junk));
    tt_host_tlb_unicast(api, PC_WINDOW, PC_TILE_X, PC_TILE_Y, PC_L1);
    pc_release_brisc(api, &prog);
    do {
        api->clock(1);
        v = pc_counter(api);
    } while ((v < 1000 || v > 1000000000) && time(NULL) < until);
    tt_ok(v >= 1000 && v <= 1000000000, "first session: BRISC of (%d,%d) "
          "counts in L1 (%u)",
          PC_TILE_X, PC_TILE_Y, v);
}

/* Second session, right after libttsim_init() */
static void power_cycle_check(const TTHostLib *api)
{
    time_t until = time(NULL) + PC_WAIT_S;
    Prog prog = { .n = 0 };
    uint32_t l1[4], dram[4], reset = 0, tlb[3], v;

    api->tile_rd(PC_TILE_X, PC_TILE_Y, PC_JUNK, l1, sizeof(l1));
    api->tile_rd(PC_DRAM_X, PC_DRAM_Y, PC_DRAM_ADDR, dram, sizeof(dram));
    tt_ok(!l1[0] && !l1[1] && !l1[2] && !l1[3], "after exit and init: the "
          "L1 bytes the first session wrote read 0");
    tt_ok(!dram[0] && !dram[1] && !dram[2] && !dram[3], "after exit and "
          "init: the GDDR bytes the first session wrote read 0");
    api->tile_rd(PC_TILE_X, PC_TILE_Y, SOFT_RESET_0, &reset, 4);
    tt_ok(reset == 0x47800, "after exit and init: SOFT_RESET_0 of (%d,%d) "
          "is at its power-on value 0x47800 (0x%x)", PC_TILE_X, PC_TILE_Y,
          reset);
    for (int i = 0; i < 3; i++) {
        tlb[i] = tt_host_rd32(api, api->bar0 + TT_HOST_TLB_CFG +
                              TT_HOST_TLB_CFG_STRIDE * PC_WINDOW + 4 * i);
    }
    tt_ok(!tlb[0] && !tlb[1] && !tlb[2], "after exit and init: TLB window "
          "%d's configuration reads 0", PC_WINDOW);
    for (int i = 0; i < 20; i++) {
        api->clock(1);
    }
    tt_ok(pc_counter(api) == 0, "after exit and init: the first session's "
          "core no longer counts");

    /* released onto wiped L1, it must not find the old loop translated */
    api->tile_rd(PC_TILE_X, PC_TILE_Y, SOFT_RESET_0, &reset, 4);
    reset &= ~SOFT_RESET_BRISC;
    api->tile_wr(PC_TILE_X, PC_TILE_Y, SOFT_RESET_0, &reset, 4);
    for (int i = 0; i < 20; i++) {
        api->clock(1);
    }
    tt_ok(pc_counter(api) == 0, "after exit and init: a BRISC released "
          "onto zeros does not run the first session's code");
    reset = 0x47800;
    api->tile_wr(PC_TILE_X, PC_TILE_Y, SOFT_RESET_0, &reset, 4);

    /* new code where the old loop was: sw of a constant, then spin */
    emit_li(&prog, T0, PC_L1);
    emit_li(&prog, T1, PC_NEW_VALUE);
    prog.insn[prog.n++] = rv_sw(T1, T0, 4);
    prog.insn[prog.n++] = rv_jal(X0, 0);
    pc_release_brisc(api, &prog);
    do {
        api->clock(1);
        v = pc_counter(api);
    } while (v != PC_NEW_VALUE && time(NULL) < until);
    tt_ok(v == PC_NEW_VALUE, "after exit and init: a released BRISC runs "
          "the new code at the old code's address (0x%x)", v);
    reset = 0x47800;
    api->tile_wr(PC_TILE_X, PC_TILE_Y, SOFT_RESET_0, &reset, 4);
}

/*
 * tt-umd's multichip mode (TTSimCommunicatorTest.TwoDevicesIndependentIO):
 * chips created by id after one libttsim_init(), each selected before it
 * is used, hold their own memory
 */
#define TWO_ADDR            0x50000

typedef void *(*create_fn)(uint32_t, int, int);
typedef void (*select_fn)(uint32_t);

static void select_unknown(void *opaque)
{
    ((select_fn)opaque)(7);
}

static void test_two_devices(const TTHostLib *api)
{
    create_fn create = (create_fn)dlsym(api->handle,
                                        "libttsim_create_device_by_id");
    select_fn select = (select_fn)dlsym(api->handle,
                                        "libttsim_select_device_by_id");
    uint32_t a = 0xdead0000, b = 0xbeef0001, back_a = 0, back_b = 0;
    void *h0, *h1;

    if (!tt_ok(create && select, "the multichip symbols resolve")) {
        return;
    }
    if (getenv("TT_EMU_SOCKET") && *getenv("TT_EMU_SOCKET")) {
        tt_ok(true, "two chips # SKIP TT_EMU_SOCKET names one server");
        return;
    }
    h0 = create(0, 0, 0);
    h1 = create(1, 1, 0);
    tt_ok(h0 && h1 && h0 != h1 && create(1, 1, 0) == h1, "chips 0 and 1 "
          "have handles of their own, and creating chip 1 again returns "
          "its handle");
    select(0);
    api->tile_wr(TEST_TILE_X, TEST_TILE_Y, TWO_ADDR, &a, 4);
    select(1);
    tt_ok(api->cfg_rd(0, 0) == TT_HOST_BH_ID, "chip 1 answers config "
          "reads");
    api->tile_wr(TEST_TILE_X, TEST_TILE_Y, TWO_ADDR, &b, 4);
    select(0);
    api->tile_rd(TEST_TILE_X, TEST_TILE_Y, TWO_ADDR, &back_a, 4);
    select(1);
    api->tile_rd(TEST_TILE_X, TEST_TILE_Y, TWO_ADDR, &back_b, 4);
    tt_ok(back_a == a && back_b == b, "the same L1 address holds 0x%x on "
          "chip 0 and 0x%x on chip 1", back_a, back_b);
    select(0);
    tt_ok(tt_exits_1(select_unknown, (void *)select), "selecting a chip "
          "never created: ConfigurationError, exit status 1");
}

static void test_identity(const TTHostLib *api)
{
    static const struct {
        const char *what;
        uint8_t x, y, noc;          /* NOC0 coordinates, carrying NOC */
        uint64_t addr;
        uint32_t want;
    } c[] = {
        { "ARC NODE_ID via NOC0", 8, 0, 0, 0xffffffffff000044ull,
          ID_NOC0(8, 0) },
        { "ARC NODE_ID via NOC1", 8, 0, 1, 0xffffffffff000044ull,
          ID_NOC1(8, 0) },
        { "PCIe 0 NOC_ID_LOGICAL (19, 24)", 2, 0, 0, 0xffffffffff000148ull,
          19 | 24 << 6 },
        { "security NODE_ID", 8, 2, 0, 0xffffffffff000044ull,
          ID_NOC0(8, 2) },
        { "L2CPU NODE_ID via NOC1", 8, 3, 1, 0xffffffffff000044ull,
          ID_NOC1(8, 3) },
        { "DRAM (0, 0) NIU 0 NODE_ID", 0, 0, 0, 0xffb20044, ID_NOC0(0, 0) },
        { "DRAM (0, 0) NIU 1 NODE_ID, via NOC0", 0, 0, 0, 0xffb30044,
          ID_NOC1(0, 0) },
        { "DRAM bank 1 port 2 NOC_ID_LOGICAL (17, 17)", 0, 3, 0, 0xffb20148,
          17 | 17 << 6 },
        { "Ethernet channel 0 NODE_ID", 1, 1, 0, 0xffb20044, ID_NOC0(1, 1) },
        { "Ethernet channel 1 NOC_ID_LOGICAL (21, 25)", 16, 1, 0, 0xffb20148,
          21 | 25 << 6 },
        /* tt-umd's simulated Blackhole has channels 5 and 8 fused off */
        { "Ethernet channel 6 NOC_ID_LOGICAL (25, 25), after channel 5",
          4, 1, 0, 0xffb20148, 25 | 25 << 6 },
        { "Ethernet channel 5 (off) NOC_ID_LOGICAL its own (14, 1)", 14, 1,
          0, 0xffb20148, 14 | 1 << 6 },
        /* tt-umd flips a fused-off channel's x for NOC1: (2, 1) */
        { "Ethernet channel 5 (off) NIU 1 NODE_ID at translated (2, 1) via "
          "NOC1", 2, 1, 1, 0xffb30044, ID_NOC1(14, 1) },
        { "router-only (1, 0) NODE_ID", 1, 0, 0, 0xff000044, ID_NOC0(1, 0) },
        { "router-only (8, 1) NODE_ID via NOC1", 8, 1, 1, 0xff000044,
          ID_NOC1(8, 1) },
        /* tt-umd: translated (15, 0) over NOC1 is NOC1 (15, 11) */
        { "router-only translated (15, 0) NODE_ID via NOC1", 15, 0, 1,
          0xff000044, ID_NOC1(1, 0) },
        { "router-only translated (9, 0), a DRAM tile's place, NODE_ID via "
          "NOC1", 9, 0, 1, 0xff000044, ID_NOC1(7, 0) },
    };

    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        /*
         * The PCIe tile's NIUs translate: the windows name translated
         * coordinates, the same on both NOCs (NOC0's for these tiles)
         */
        TTHostTarget t = { .x1 = c[i].x, .y1 = c[i].y, .noc = c[i].noc };
        uint32_t v = 0;

        api->mem_rd(tt_host_tlb_set(api, TEST_WINDOW, &t, c[i].addr), &v, 4);
        tt_ok(v == c[i].want, "%s: 0x%08x (want 0x%08x)", c[i].what, v,
              c[i].want);
    }
}

/*
 * Host-to-device DMA with the PCIe controller's eDMA read channel,
 * as tt-umd programs it: host memory through the callbacks into an L1
 * behind a TLB window (DAR is a BAR0 offset); the transfer size reads 0
 * when it is done.
 */
#define EDMA_DOORBELL       0x104
#define EDMA_SIZE           0x11c
#define EDMA_SAR_LO         0x120
#define EDMA_DAR_LO         0x128
#define EDMA_HOST_SRC       0x200000u
#define EDMA_L1_DST         0x80000u
#define EDMA_LEN            0x20000u

static void edma_wr(const TTHostLib *api, uint32_t reg, uint32_t v)
{
    tt_host_wr32(api, LIBTTSIM_BAR2_BASE + reg, v);
}

static void test_edma(const TTHostLib *api)
{
    static uint8_t back[EDMA_LEN];
    time_t until = time(NULL) + DMA_WAIT_S;
    const char *no_cores = getenv("TT_TEST_NO_CORES");
    uint32_t size;

    if (no_cores && *no_cores == '1') {
        tt_ok(true, "eDMA host to L1 # SKIP not a blackhole machine");
        return;
    }
    tt_fill(host_mem + EDMA_HOST_SRC, EDMA_LEN, 5);
    tt_host_tlb_unicast(api, TEST_WINDOW, TEST_TILE_X, TEST_TILE_Y, 0);
    edma_wr(api, EDMA_SAR_LO, EDMA_HOST_SRC);
    edma_wr(api, EDMA_SAR_LO + 4, 0);
    edma_wr(api, EDMA_DAR_LO, (TEST_WINDOW << 21) + EDMA_L1_DST);
    edma_wr(api, EDMA_DAR_LO + 4, 0);
    edma_wr(api, EDMA_SIZE, EDMA_LEN);
    edma_wr(api, EDMA_DOORBELL, 1);
    do {
        api->mem_rd(LIBTTSIM_BAR2_BASE + EDMA_SIZE, &size, 4);
    } while (size && time(NULL) < until);
    api->tile_rd(TEST_TILE_X, TEST_TILE_Y, EDMA_L1_DST, back, sizeof(back));
    tt_ok(size == 0 && !memcmp(back, host_mem + EDMA_HOST_SRC, EDMA_LEN),
          "eDMA read channel moved 128 KiB of host memory into L1 of tile "
          "(%d,%d) (size register 0x%x)", TEST_TILE_X, TEST_TILE_Y, size);
}

int main(int argc, char **argv)
{
    TTHostLib api;
    const char *env = getenv("TT_TEST_NO_CORES");
    bool no_cores = env && *env == '1';
    int missing;

    if (argc != 2) {
        fprintf(stderr, "usage: %s <path to libttsim.so>\n", argv[0]);
        return 2;
    }
    missing = tt_load(argv[1], &api);
    if (!tt_ok(missing == 0, "all nine libttsim symbols resolve")) {
        return tt_done();
    }
    host_mem = calloc(1, HOST_MEM_SIZE);
    if (!host_mem) {
        perror("calloc");
        return 2;
    }

    api.set_dma(dma_rd, dma_wr);
    printf("# libttsim_init (aborts, with a message, if the emulator cannot "
           "be reached)\n");
    fflush(stdout);
    api.init();
    tt_ok(true, "libttsim_init connected");

    test_config(&api);
    test_window(&api);
    test_arc(&api);
    test_tile_calls(&api);
    test_dma(&api);
    if (no_cores) {
        tt_ok(true, "host memory through a TLB window # SKIP not a "
              "blackhole machine");
        tt_ok(true, "NOC identity registers # SKIP not a blackhole "
              "machine");
        tt_ok(true, "a released core's first store # SKIP not a blackhole "
              "machine");
        tt_ok(true, "Ethernet mailbox # SKIP not a blackhole machine");
    } else {
        test_sysmem_loopback(&api);
        test_identity(&api);
        test_first_steps(&api);
        test_eth_release(&api);
    }
    test_edma(&api);

    api.clock(10);
    tt_ok(dma_bad == 0, "no DMA outside host memory (%u callbacks)",
          dma_calls);
    if (!no_cores) {
        power_cycle_leave(&api);
    }
    api.exit();
    tt_ok(true, "libttsim_exit returned");

    /* a second session in the same process, then calls out of order */
    api.init();
    tt_ok(api.cfg_rd(0, 0) == 0xb1401e52, "libttsim_init after "
          "libttsim_exit: a new session answers (id 0x%08x)",
          api.cfg_rd(0, 0));
    if (!no_cores) {
        power_cycle_check(&api);
        test_arc(&api);
    }
    test_two_devices(&api);
    api.exit();
    /* in children, which start (and must stop) emulators of their own */
    tt_ok(tt_exits_1(init_twice, &api), "libttsim_init while running: "
          "ConfigurationError, exit status 1 (no abort)");
    tt_ok(tt_exits_1(read_after_exit, &api), "a read after libttsim_exit: "
          "ConfigurationError, exit status 1");
    free(host_mem);
    return tt_done();
}
