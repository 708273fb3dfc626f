/*
 * Blackhole PCIe endpoint as the host sees it: BAR decoding, TLB windows
 * in both register layouts (2 MiB in BAR0, 4 GiB in BAR4), unicast and
 * multicast, both NOCs, the PCIe tile's NIU registers, the outbound iATU
 * and DBI as the chip reaches them, the eDMA read channel, the ARC window
 * of PCIe 1, and bad input.  Register words are packed here by hand from
 * the layout in tt-isa-documentation PCIExpressTile/HostToDeviceTLBs.md,
 * independently of the model's decoder.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "tt-qtest-util.h"

#define TLB_CFG         TT_TLB_CFG_BASE
#define TLB_STRIDED     TT_TLB_STRIDED_BASE
#define NIU0_NODE_ID    0x1fd04044u
#define NIU0_CFG_0      0x1fd04100u
#define NIU1_CFG_0      0x1fd14100u
#define SOFT_RESET_0    0xffb121b0u
#define WIN_2M(n)       ((uint64_t)(n) << 21)

/* 4 GiB window 202 + @n */
static void tlb_4g(QTestState *q, int n, uint64_t addr, int xs, int ys,
                   int xe, int ye, int noc, int mcast)
{
    int r = TLB_CFG + 12 * (202 + n);

    tt_bar_writel(q, 0, r, addr >> 32);
    tt_bar_writel(q, 0, r + 4, xe | ye << 6 | xs << 12 | ys << 18 |
                  noc << 24 | mcast << 26);
    tt_bar_writel(q, 0, r + 8, 0);
}

static void test_identity_regs(void)
{
    QTestState *q = qtest_init("-M blackhole");

    /* tt-kmd: NODE_ID & 0x3f is the PCIe tile's x: 2 on a P150 */
    g_assert_cmphex(tt_bar_readl(q, 0, NIU0_NODE_ID) & 0x3f, ==, 2);
    /* tt-umd: NIU_CFG_0 bit 14, coordinate translation on */
    g_assert_cmphex(tt_bar_readl(q, 0, NIU0_CFG_0) >> 14 & 1, ==, 1);
    /* DBI DEVICE_CONTROL_DEVICE_STATUS reset value */
    g_assert_cmphex(tt_bar_readl(q, 2, 0x78), ==, 0x2810);
    /* ARC window is PCIe 1's only: reserved here */
    g_assert_cmphex(tt_bar_readl(q, 0, 0x1ff30408), ==, 0);
    qtest_quit(q);

    q = qtest_init("-M blackhole,board=p100a");
    g_assert_cmphex(tt_bar_readl(q, 0, NIU0_NODE_ID) & 0x3f, ==, 11);
    /* ARC reset unit SCRATCH_RAM_2: BAR0's ARC APB window + APB offset */
    g_assert_cmphex(tt_bar_readl(q, 0, 0x1ff30408) & 7, ==, 5);
    qtest_quit(q);
}

static void test_tlb_registers(void)
{
    QTestState *q = qtest_init("-M blackhole");

    /* 210 windows of three words, then 32 strided words, read back */
    for (int n = 0; n < 210; n += 19) {
        for (int w = 0; w < 3; w++) {
            tt_bar_writel(q, 0, TLB_CFG + 12 * n + 4 * w, n * 0x1001 + w);
        }
    }
    tt_bar_writel(q, 0, TLB_STRIDED + 4 * 31, 0xabcd);
    for (int n = 0; n < 210; n += 19) {
        for (int w = 0; w < 3; w++) {
            g_assert_cmphex(tt_bar_readl(q, 0, TLB_CFG + 12 * n + 4 * w), ==,
                            n * 0x1001 + w);
        }
    }
    g_assert_cmphex(tt_bar_readl(q, 0, TLB_STRIDED + 4 * 31), ==, 0xabcd);
    /* past the strided words: reserved, reads 0, writes ignored */
    tt_bar_writel(q, 0, TLB_STRIDED + 4 * 32, 0x1234);
    g_assert_cmphex(tt_bar_readl(q, 0, TLB_STRIDED + 4 * 32), ==, 0);
    qtest_quit(q);
}

static void test_unicast_2m(void)
{
    QTestState *q = qtest_init("-M blackhole");
    uint8_t buf[64], back[64];

    /* window 7 -> L1 of (1, 2) (translated = physical without harvesting) */
    tt_tlb_2m(q, 7, 0, 0, 0, 1, 2, 0, 0);
    tt_bar_writel(q, 0, WIN_2M(7) + 0x1000, 0xcafe0001);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x1000), ==, 0xcafe0001);
    g_assert_cmphex(tt_readl(q, 1, 3, "brisc", 0x1000), ==, 0);
    tt_writel(q, 1, 2, "ncrisc", 0x17fffc, 0x5555aaaa);
    g_assert_cmphex(tt_bar_readl(q, 0, WIN_2M(7) + 0x17fffc), ==, 0x5555aaaa);
    /* a bulk access */
    for (int i = 0; i < sizeof(buf); i++) {
        buf[i] = i * 7 + 1;
    }
    tt_bar_write(q, 0, WIN_2M(7) + 0x2000, buf, sizeof(buf));
    tt_read(q, 1, 2, "brisc", 0x2000, back, sizeof(back));
    g_assert_cmpmem(buf, sizeof(buf), back, sizeof(back));

    /* the MMIO page: 0xFFA00000 + 0x1121B0 is SOFT_RESET_0 */
    tt_tlb_2m(q, 8, 0xffa00000, 0, 0, 5, 7, 0, 0);
    g_assert_cmphex(tt_bar_readl(q, 0, WIN_2M(8) + 0x1121b0), ==, 0x47800);
    tt_bar_writel(q, 0, WIN_2M(8) + 0x1121b0, 0x47000);
    g_assert_cmphex(tt_readl(q, 5, 7, "brisc", SOFT_RESET_0), ==, 0x47000);
    qtest_quit(q);
}

static void test_noc1_and_translation(void)
{
    QTestState *q = qtest_init("-M blackhole");

    /* NOC1 with translation: the same translated coordinates */
    tt_tlb_2m(q, 3, 0, 0, 0, 3, 4, 1, 0);
    tt_bar_writel(q, 0, WIN_2M(3) + 0x100, 0x11110001);
    g_assert_cmphex(tt_readl(q, 3, 4, "brisc", 0x100), ==, 0x11110001);

    /* NOC1 without translation: NOC1 numbering, (3, 4) is (13, 7) */
    tt_bar_writel(q, 0, NIU1_CFG_0,
                  tt_bar_readl(q, 0, NIU1_CFG_0) & ~(1u << 14));
    tt_tlb_2m(q, 3, 0, 0, 0, 13, 7, 1, 0);
    tt_bar_writel(q, 0, WIN_2M(3) + 0x104, 0x11110002);
    g_assert_cmphex(tt_readl(q, 3, 4, "brisc", 0x104), ==, 0x11110002);
    /* NOC0 still translates */
    tt_tlb_2m(q, 4, 0, 0, 0, 16, 11, 0, 0);
    tt_bar_writel(q, 0, WIN_2M(4) + 0x108, 0x11110003);
    g_assert_cmphex(tt_readl(q, 16, 11, "brisc", 0x108), ==, 0x11110003);
    qtest_quit(q);
}

/* P150 with columns 3-7 harvested: translated x 1, 2, ... stay dense */
static void test_multicast(void)
{
    QTestState *q = qtest_init("-M blackhole,harvested-tensix-cols=3:4:5:6:7");
    int cols[] = { 1, 2, 10, 11 };

    /* translated x 1..3 -> physical columns 1, 2, 10; rows 2..4 */
    tt_tlb_2m(q, 0, 0, 1, 2, 3, 4, 0, 1);
    tt_bar_writel(q, 0, TLB_STRIDED, 0);
    tt_bar_writel(q, 0, WIN_2M(0) + 0x3000, 0x600d0001);
    for (int c = 0; c < 4; c++) {
        for (int y = 2; y <= 5; y++) {
            bool in = c < 3 && y <= 4;

            g_assert_cmphex(tt_readl(q, cols[c], y, "trisc1", 0x3000), ==,
                            in ? 0x600d0001 : 0);
        }
    }
    /* a multicast read is a unicast read of the end coordinate */
    tt_writel(q, 10, 4, "brisc", 0x3004, 0x77);
    g_assert_cmphex(tt_bar_readl(q, 0, WIN_2M(0) + 0x3004), ==, 0x77);
    qtest_quit(q);
}

static void test_bar4_4g(void)
{
    QTestState *q = qtest_init("-M blackhole");

    /* window 202: DRAM bank 0 (translated (17, 12)), low 4 GiB */
    tlb_4g(q, 0, 0, 0, 0, 17, 12, 0, 0);
    tt_bar_writel(q, 4, 0x10000000, 0xd0d0beef);
    /* every port of bank 0 reaches the same memory: physical (0, 11) */
    g_assert_cmphex(tt_readl(q, 0, 11, "-", 0x10000000), ==, 0xd0d0beef);
    /* window 209 at the top of BAR4: L1 of (2, 2) */
    tlb_4g(q, 7, 0, 0, 0, 2, 2, 0, 0);
    tt_bar_writel(q, 4, 7 * (4ull << 30) + 0x40, 0x20900040);
    g_assert_cmphex(tt_readl(q, 2, 2, "brisc", 0x40), ==, 0x20900040);
    /* and a 2 MiB window onto the same DRAM bytes */
    tt_tlb_2m(q, 9, 0x10000000, 0, 0, 17, 12, 0, 0);
    g_assert_cmphex(tt_bar_readl(q, 0, WIN_2M(9)), ==, 0xd0d0beef);
    qtest_quit(q);
}

#define IATU(r, reg)    (0x1000 + (r) * 0x200 + (reg))

/* Device-to-host traffic reaching the PCIe tile at physical (2, 0) */
static void test_iatu(void)
{
    QTestState *q = qtest_init("-M blackhole");
    uint64_t bit60 = 1ull << 60;

    /* region 3: [0x10000, 0x1ffff] -> host 0x200000, tt-umd's order */
    tt_bar_writel(q, 2, IATU(3, 0x04), 0);
    tt_bar_writel(q, 2, IATU(3, 0x00), 0);
    tt_bar_writel(q, 2, IATU(3, 0x08), 0x10000);
    tt_bar_writel(q, 2, IATU(3, 0x0c), 0);
    tt_bar_writel(q, 2, IATU(3, 0x10), 0x1ffff);
    tt_bar_writel(q, 2, IATU(3, 0x14), 0x200000);
    tt_bar_writel(q, 2, IATU(3, 0x18), 0);
    tt_bar_writel(q, 2, IATU(3, 0x04), 1u << 31);

    tt_writel(q, 2, 0, "-", bit60 | 0x10040, 0x1a7u);
    /* windows 0-3 address host memory directly */
    g_assert_cmphex(tt_readl(q, 2, 0, "-", 0x200040), ==, 0x1a7);
    g_assert_cmphex(tt_readl(q, 2, 0, "-", 0x10040), ==, 0);
    /* the relaxed-ordering variant of window 4 goes the same way */
    g_assert_cmphex(tt_readl(q, 2, 0, "-", (5ull << 58) | 0x10040), ==,
                    0x1a7);
    /* outside every region: untranslated */
    tt_writel(q, 2, 0, "-", bit60 | 0x20000, 0x2b8u);
    g_assert_cmphex(tt_readl(q, 2, 0, "-", 0x20000), ==, 0x2b8);
    /* region disabled: untranslated too */
    tt_bar_writel(q, 2, IATU(3, 0x04), 0);
    g_assert_cmphex(tt_readl(q, 2, 0, "-", bit60 | 0x10040), ==, 0);

    /* DBI through the NOC (tt-kmd reads DEVCTL at 0xF800000000000078) */
    g_assert_cmphex(tt_readl(q, 2, 0, "-", 0xf800000000000078ull), ==,
                    0x2810);
    /* the PCIe tile's NIU registers at the top of the NOC address space */
    g_assert_cmphex(tt_readl(q, 2, 0, "-", 0xffffffffff000044ull) & 0x3f, ==,
                    2);
    qtest_quit(q);
}

/*
 * eDMA read channel 0 (ttsim src/libttsim.cpp): host memory (the
 * stand-in, filled through the PCIe tile's NOC side) to an L1 behind a
 * BAR0 window; SIZE reads 0 once the data has landed.
 */
#define EDMA_DOORBELL   0x104
#define EDMA_SIZE       0x11c
#define EDMA_SAR_LO     0x120
#define EDMA_SAR_HI     0x124
#define EDMA_DAR_LO     0x128
#define EDMA_DAR_HI     0x12c

static bool edma_wait(QTestState *q)
{
    for (int i = 0; i < 5000; i++) {
        if (tt_bar_readl(q, 2, EDMA_SIZE) == 0) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

static void test_edma(void)
{
    QTestState *q = qtest_init("-M blackhole -d guest_errors,unimp");
    uint32_t words = 0x18000 / 4;       /* more than one 64 KiB piece */
    g_autofree uint32_t *in = g_new(uint32_t, words);
    g_autofree uint32_t *out = g_new(uint32_t, words + 1);

    for (uint32_t i = 0; i < words; i++) {
        in[i] = cpu_to_le32(0x5eed0000u + i * 7);
    }
    tt_write(q, 2, 0, "-", 0x40000, in, words * 4);
    tt_tlb_2m(q, 11, 0, 3, 4, 3, 4, 0, 0);
    tt_bar_writel(q, 2, EDMA_SAR_LO, 0x40000);
    tt_bar_writel(q, 2, EDMA_SAR_HI, 0);
    tt_bar_writel(q, 2, EDMA_DAR_LO, WIN_2M(11) + 0x8000);
    tt_bar_writel(q, 2, EDMA_DAR_HI, 0);
    tt_bar_writel(q, 2, EDMA_SIZE, words * 4);
    tt_bar_writel(q, 2, EDMA_DOORBELL, 1);
    g_assert_true(edma_wait(q));
    tt_read(q, 3, 4, "brisc", 0x8000, out, (words + 1) * 4);
    g_assert_true(memcmp(in, out, words * 4) == 0);
    g_assert_cmphex(out[words], ==, 0);

    /* bad transfers are logged and not started: SIZE keeps its value */
    tt_bar_writel(q, 2, EDMA_DAR_LO, WIN_2M(11) + 0x8002);
    tt_bar_writel(q, 2, EDMA_SIZE, 0x100);
    tt_bar_writel(q, 2, EDMA_DOORBELL, 1);
    g_assert_cmphex(tt_bar_readl(q, 2, EDMA_SIZE), ==, 0x100);
    tt_bar_writel(q, 2, EDMA_DAR_LO, 0x1ffffff0);
    tt_bar_writel(q, 2, EDMA_DOORBELL, 1);
    tt_bar_writel(q, 2, EDMA_DOORBELL, 0x80000000);
    g_assert_cmphex(tt_bar_readl(q, 2, EDMA_SIZE), ==, 0x100);
    /* host memory beyond the stand-in: the transfer stops, SIZE clears */
    tt_bar_writel(q, 2, EDMA_SAR_HI, 0x100);
    tt_bar_writel(q, 2, EDMA_DAR_LO, WIN_2M(11) + 0x20000);
    tt_bar_writel(q, 2, EDMA_DOORBELL, 1);
    g_assert_true(edma_wait(q));
    g_assert_cmphex(tt_readl(q, 3, 4, "brisc", 0x20000), ==, 0);
    qtest_quit(q);
}

/*
 * A system reset during a transfer ends it: the reset chip's TLB windows
 * point elsewhere, so the rest must not be written, and a transfer started
 * after the reset runs at once.  400 MiB through 200 windows onto GDDR
 * bank 0 keeps the first transfer busy well past the reset.
 */
static void test_edma_reset(void)
{
    QTestState *q = qtest_init("-M blackhole "
                               "-global tt-pcie.host-mem-size=512M");
    uint32_t in[4] = { 0x11111111, 0x22222222, 0x33333333, 0x44444444 };
    uint32_t out[4];

    for (int n = 0; n < 200; n++) {
        tt_tlb_2m(q, n, (uint64_t)n << 21, 17, 12, 17, 12, 0, 0);
    }
    tt_bar_writel(q, 2, EDMA_SAR_LO, 0);
    tt_bar_writel(q, 2, EDMA_SAR_HI, 0);
    tt_bar_writel(q, 2, EDMA_DAR_LO, 0);
    tt_bar_writel(q, 2, EDMA_DAR_HI, 0);
    tt_bar_writel(q, 2, EDMA_SIZE, 400 << 20);
    tt_bar_writel(q, 2, EDMA_DOORBELL, 1);
    qtest_system_reset(q);
    g_assert_cmphex(tt_bar_readl(q, 2, EDMA_SIZE), ==, 0);

    tt_write(q, 2, 0, "-", 0x40000, in, sizeof(in));
    tt_tlb_2m(q, 11, 0, 3, 4, 3, 4, 0, 0);
    tt_bar_writel(q, 2, EDMA_SAR_LO, 0x40000);
    tt_bar_writel(q, 2, EDMA_DAR_LO, WIN_2M(11) + 0x8000);
    tt_bar_writel(q, 2, EDMA_SIZE, sizeof(in));
    tt_bar_writel(q, 2, EDMA_DOORBELL, 1);
    g_assert_true(edma_wait(q));
    /* and nothing of the first transfer lands there later */
    g_usleep(300 * 1000);
    tt_read(q, 3, 4, "brisc", 0x8000, out, sizeof(out));
    g_assert_cmpmem(in, sizeof(in), out, sizeof(out));
    qtest_quit(q);
}

static void test_bad_input(void)
{
    QTestState *q = qtest_init("-M blackhole -d guest_errors,unimp");

    /* coordinates off the grid: reads are all-ones, writes dropped */
    tt_tlb_2m(q, 5, 0, 0, 0, 63, 63, 0, 0);
    g_assert_cmphex(tt_bar_readl(q, 0, WIN_2M(5)), ==, 0xffffffff);
    tt_bar_writel(q, 0, WIN_2M(5), 1);
    /* multicast rectangle with no Tensix tile in it */
    tt_tlb_2m(q, 5, 0, 0, 0, 0, 1, 0, 1);
    tt_bar_writel(q, 0, WIN_2M(5), 1);
    /* NOC select 2, linked, static VC: logged */
    tt_bar_writel(q, 0, TLB_CFG + 12 * 5 + 4, 1 << 11 | 2 << 17);
    tt_bar_writel(q, 0, TLB_CFG + 12 * 5 + 8, 1 << 4 | 1 << 8 | 1 << 9);
    tt_bar_writel(q, 0, WIN_2M(5) + 0x10, 0x42);
    g_assert_cmphex(tt_readl(q, 1, 2, "brisc", 0x10), ==, 0x42);
    /* reserved BAR0 space */
    g_assert_cmphex(tt_bar_readl(q, 0, 0x19400000), ==, 0);
    tt_bar_writel(q, 0, 0x1fb00000, 1);
    /* beyond the BARs */
    g_assert_true(tt_bar_readl_fails(q, 0, 0x20000000));
    g_assert_true(tt_bar_readl_fails(q, 2, 0x100000));
    g_assert_true(tt_bar_readl_fails(q, 4, 32ull << 30));
    /* an 8-byte read of tile MMIO: one word moves, the rest reads ones */
    tt_tlb_2m(q, 6, 0xffa00000, 0, 0, 1, 2, 0, 0);
    {
        uint8_t b[8];

        tt_bar_read(q, 0, WIN_2M(6) + 0x1121b0, b, 8);
        g_assert_cmphex((uint32_t)ldl_le_p(b), ==, 0x47800);
        g_assert_cmphex((uint32_t)ldl_le_p(b + 4), ==, 0xffffffff);
    }
    /* a NOC address of the PCIe tile that maps nothing */
    g_assert_true(tt_readl_fails(q, 2, 0, "-", 0x8000000000000000ull));
    /* host memory beyond what the stand-in holds */
    g_assert_true(tt_readl_fails(q, 2, 0, "-", 0x3ffffffffffull));
    /* the chip still answers */
    g_assert_cmphex(tt_bar_readl(q, 0, NIU0_NODE_ID) & 0x3f, ==, 2);
    qtest_quit(q);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/tt/pcie/identity-regs", test_identity_regs);
    qtest_add_func("/tt/pcie/tlb-registers", test_tlb_registers);
    qtest_add_func("/tt/pcie/unicast-2m", test_unicast_2m);
    qtest_add_func("/tt/pcie/noc1-translation", test_noc1_and_translation);
    qtest_add_func("/tt/pcie/multicast", test_multicast);
    qtest_add_func("/tt/pcie/bar4-4g", test_bar4_4g);
    qtest_add_func("/tt/pcie/iatu", test_iatu);
    qtest_add_func("/tt/pcie/edma", test_edma);
    qtest_add_func("/tt/pcie/edma-reset", test_edma_reset);
    qtest_add_func("/tt/pcie/bad-input", test_bad_input);
    return g_test_run();
}
