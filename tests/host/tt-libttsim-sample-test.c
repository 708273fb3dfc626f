/*
 * Protocol test of libttsim.so against libvfio-user's sample server
 * (samples/server.c: vendor 0xdead, device 0xbeef, an 8-byte BAR0 that
 * holds a time_t: a read returns now minus the value written; no BAR2 or
 * BAR4; region 9 is its migration region, not a DMA mailbox).
 *
 *   TT_EMU_SOCKET=<sample socket> tt-libttsim-sample-test <libttsim.so> \
 *       <vendor> <device>
 *
 * Output is TAP.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <time.h>

#include "tt-test.h"

static TTHostLib api;

static bool all_ff(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] != 0xff) {
            return false;
        }
    }
    return true;
}

static void do_read_before_init(void *opaque)
{
    uint32_t v;

    api.mem_rd(LIBTTSIM_BAR0_BASE, &v, 4);
}

static void do_init(void *opaque)
{
    api.init();
}

static void dma_rd(uint64_t paddr, void *dst, uint32_t size)
{
    printf("# unexpected DMA read callback\n");
}

static void dma_wr(uint64_t paddr, const void *src, uint32_t size)
{
    printf("# unexpected DMA write callback\n");
}

static void test_config(uint32_t vendor, uint32_t device)
{
    uint32_t id = api.cfg_rd(0, 0), line;

    tt_ok(id == (device << 16 | vendor), "config dword 0 is 0x%x (want "
          "device 0x%x vendor 0x%x)", id, device, vendor);
    tt_ok(api.cfg_rd(1 << 3, 0) == UINT32_MAX &&
          api.cfg_rd(1 << 8, 0) == UINT32_MAX &&
          api.cfg_rd(1, 0) == UINT32_MAX,
          "other device, bus and function numbers read all ones");
    tt_ok(api.cfg_rd(0, 0x10) == 0x00000004 &&
          api.cfg_rd(0, 0x14) == 0x00000001 &&
          api.cfg_rd(0, 0x18) == 0x20000004 &&
          api.cfg_rd(0, 0x1c) == 0x00000001 &&
          api.cfg_rd(0, 0x20) == 0x00000004 &&
          api.cfg_rd(0, 0x24) == 0x00000008,
          "BAR registers report ttsim's bases, 64-bit memory");
    tt_ok(api.cfg_rd(0, 2) == UINT32_MAX, "unaligned config read refused");

    if (!api.cfg_wr) {
        tt_ok(false, "libttsim_pci_config_wr32 exported");
        return;
    }
    api.cfg_wr(0, 0x10, UINT32_MAX);
    api.cfg_wr(0, 0x14, UINT32_MAX);
    api.cfg_wr(0, 0x24, UINT32_MAX);
    tt_ok(api.cfg_rd(0, 0x10) == 0xe0000004 &&
          api.cfg_rd(0, 0x14) == UINT32_MAX &&
          api.cfg_rd(0, 0x24) == 0xfffffff8,
          "BAR sizing: 512 MiB BAR0, 32 GiB BAR4");
    api.cfg_wr(0, 0x10, 0);
    api.cfg_wr(0, 0x14, 1);
    api.cfg_wr(0, 0x24, 8);
    tt_ok(api.cfg_rd(0, 0x10) == 0x00000004 &&
          api.cfg_rd(0, 0x24) == 0x00000008, "BAR bases back after sizing");

    /* Interrupt line (0x3C) is writable in libvfio-user's header */
    line = api.cfg_rd(0, 0x3c);
    api.cfg_wr(0, 0x3c, (line & ~0xffu) | 0x5a);
    tt_ok((api.cfg_rd(0, 0x3c) & 0xff) == 0x5a,
          "config write then read round trip (interrupt line)");
    api.cfg_wr(0, 0x3c, line);
}

static void test_bars(void)
{
    time_t t = time(NULL) + 3600, delta = 0;
    uint8_t buf[16];
    uint32_t short_read;

    /*
     * The sample arms a timer for the time written (in an hour: it will
     * not fire during the test) and reads back now - that time.
     */
    api.mem_wr(LIBTTSIM_BAR0_BASE, &t, sizeof(t));
    api.mem_rd(LIBTTSIM_BAR0_BASE, &delta, sizeof(delta));
    tt_ok(delta <= -3598 && delta >= -3600, "BAR0 write then read round "
          "trip (read %lld, want about -3600)", (long long)delta);

    memset(buf, 0, sizeof(buf));
    api.mem_rd(0x500000000ull, buf, sizeof(buf));
    tt_ok(all_ff(buf, sizeof(buf)), "a read outside every BAR gives 0xFF");

    memset(buf, 0, sizeof(buf));
    api.mem_rd(LIBTTSIM_BAR0_BASE + 0x100, buf, 4);
    tt_ok(all_ff(buf, 4), "a read beyond the server's BAR0 gives 0xFF");

    memset(buf, 0, sizeof(buf));
    api.mem_rd(LIBTTSIM_BAR2_BASE, buf, 4);
    api.mem_rd(LIBTTSIM_BAR4_BASE + 0x1000, buf + 4, 4);
    tt_ok(all_ff(buf, 8), "BAR2 and BAR4, absent on the sample, give 0xFF");

    /* The sample refuses BAR0 accesses other than 8 bytes at 0 */
    short_read = 0;
    api.mem_rd(LIBTTSIM_BAR0_BASE, &short_read, 4);
    tt_ok(short_read == UINT32_MAX, "a read the server refuses gives 0xFF");
    delta = 0;
    api.mem_rd(LIBTTSIM_BAR0_BASE, &delta, sizeof(delta));
    tt_ok(delta <= -3598 && delta >= -3600,
          "the connection survives a refused access");

    api.clock(1);
    api.clock(1000);
    tt_ok(true, "libttsim_clock without a mailbox returns");
}

int main(int argc, char **argv)
{
    int vendor, device;

    if (argc != 4) {
        fprintf(stderr, "usage: %s <libttsim.so> <vendor> <device>\n",
                argv[0]);
        return 2;
    }
    if (sscanf(argv[2], "%i", &vendor) != 1 ||
        sscanf(argv[3], "%i", &device) != 1) {
        fprintf(stderr, "%s: bad vendor or device id\n", argv[0]);
        return 2;
    }
    if (!tt_ok(tt_load(argv[1], &api) == 0,
               "all nine libttsim symbols resolve")) {
        return tt_done();
    }
    tt_ok(api.cfg_wr != NULL, "libttsim_pci_config_wr32 resolves");
    tt_ok(tt_aborts(do_read_before_init, NULL),
          "a BAR read before libttsim_init aborts");

    /* The sample has no mailbox: the library warns and goes on */
    api.set_dma(dma_rd, dma_wr);
    api.init();
    tt_ok(true, "libttsim_init connected to the sample server");

    test_config(vendor, device);
    test_bars();

    api.exit();
    tt_ok(true, "libttsim_exit returned");
    tt_ok(tt_aborts(do_init, NULL), "a second libttsim_init aborts");
    tt_ok(tt_aborts(do_read_before_init, NULL),
          "a BAR read after libttsim_exit aborts");
    return tt_done();
}
