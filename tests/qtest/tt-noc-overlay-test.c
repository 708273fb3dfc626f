/*
 * Blackhole NOC overlay stream registers, as tt-metal uses them
 * (blackhole/noc/noc_overlay_parameters.h, stream_interface.h and the
 * dispatch kernels): plain storage per stream and tile, the buffer size
 * that resets the space-available count, the write-only increment
 * register and its field wrap-around, the read-only count, registers past
 * the modelled ones, and reset.  Expected values are worked out by hand
 * from those field layouts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "hw/tenstorrent/noc-overlay-regs.h"
#include "tt-tile-map.h"        /* generated from data/tile-map.yaml */
#include "tt-qtest-util.h"

/* register @r of stream @s, in a core's view of its tile */
#define STREAM(s, r) \
    (TT_TILE_NOC_OVERLAY_BASE + (s) * TT_STREAM_STRIDE + (r) * 4)

static uint32_t rd(QTestState *q, int s, int r)
{
    return tt_readl(q, TT_TX, TT_TY, "brisc", STREAM(s, r));
}

static void wr(QTestState *q, int s, int r, uint32_t v)
{
    tt_writel(q, TT_TX, TT_TY, "brisc", STREAM(s, r), v);
}

/* SPACE_AVAILABLE_UPDATE: @words (17-bit field at 6) and @msgs (9 at 23) */
static void space_update(QTestState *q, int s, uint32_t words, uint32_t msgs)
{
    wr(q, s, TT_STREAM_SPACE_UPDATE,
       (words & 0x1ffff) << 6 | (msgs & 0x1ff) << 23);
}

static void test_storage(void)
{
    QTestState *q = qtest_init("-M blackhole");

    wr(q, 0, 0, 0xdeadbeef);
    wr(q, 5, 12, 0xa5a5a5a5);
    wr(q, 63, 303, 0x12345678);
    g_assert_cmphex(rd(q, 0, 0), ==, 0xdeadbeef);
    g_assert_cmphex(rd(q, 5, 12), ==, 0xa5a5a5a5);
    g_assert_cmphex(rd(q, 63, 303), ==, 0x12345678);
    /* neighbours untouched, in the stream and in the next stream */
    g_assert_cmphex(rd(q, 5, 11), ==, 0);
    g_assert_cmphex(rd(q, 5, 13), ==, 0);
    g_assert_cmphex(rd(q, 6, 12), ==, 0);
    g_assert_cmphex(rd(q, 4, 12), ==, 0);
    /* the tile's other cores see the same registers, other tiles not */
    g_assert_cmphex(tt_readl(q, TT_TX, TT_TY, "trisc1", STREAM(5, 12)), ==,
                    0xa5a5a5a5);
    g_assert_cmphex(tt_readl(q, TT_TX + 1, TT_TY, "brisc", STREAM(5, 12)),
                    ==, 0);
    g_assert_cmphex(tt_readl(q, TT_TX, TT_TY + 1, "brisc", STREAM(5, 12)),
                    ==, 0);

    /* a reset clears them */
    qtest_system_reset(q);
    g_assert_cmphex(rd(q, 0, 0), ==, 0);
    g_assert_cmphex(rd(q, 5, 12), ==, 0);
    g_assert_cmphex(rd(q, 63, 303), ==, 0);
    qtest_quit(q);
}

static void test_space_available(void)
{
    QTestState *q = qtest_init("-M blackhole");
    const int s = 9, avail = TT_STREAM_SPACE_AVAILABLE;

    /* the buffer size sets the free words, messages to 0; it is stored */
    wr(q, s, TT_STREAM_BUF_SIZE, 100);
    g_assert_cmphex(rd(q, s, TT_STREAM_BUF_SIZE), ==, 100);
    g_assert_cmphex(rd(q, s, avail), ==, 100);
    wr(q, s, TT_STREAM_BUF_SIZE, 0xffffffff);   /* only 17 bits count */
    g_assert_cmphex(rd(q, s, TT_STREAM_BUF_SIZE), ==, 0xffffffff);
    g_assert_cmphex(rd(q, s, avail), ==, 0x1ffff);
    wr(q, s, TT_STREAM_BUF_SIZE, 100);

    /* increments: words into bits 16:0, messages into 25:17 */
    space_update(q, s, 5, 3);
    g_assert_cmphex(rd(q, s, avail), ==, 105 | 3 << 17);
    space_update(q, s, -5, 0);                  /* two's complement */
    g_assert_cmphex(rd(q, s, avail), ==, 100 | 3 << 17);
    space_update(q, s, 0, -3);
    g_assert_cmphex(rd(q, s, avail), ==, 100);
    /* each field wraps on its own: no carry into messages or bit 26 */
    space_update(q, s, 0x1ffff - 100 + 1, 0x1ff);
    g_assert_cmphex(rd(q, s, avail), ==, 0 | 0x1ff << 17);
    space_update(q, s, 7, 2);
    g_assert_cmphex(rd(q, s, avail), ==, 7 | 1 << 17);
    /* bits 5:0 of the increment are no part of either field */
    wr(q, s, TT_STREAM_SPACE_UPDATE, 0x3f);
    g_assert_cmphex(rd(q, s, avail), ==, 7 | 1 << 17);

    /* the update register is write-only, the count read-only */
    g_assert_cmphex(rd(q, s, TT_STREAM_SPACE_UPDATE), ==, 0);
    wr(q, s, avail, 0x5555);
    g_assert_cmphex(rd(q, s, avail), ==, 7 | 1 << 17);

    /* other streams keep their own counts */
    g_assert_cmphex(rd(q, s + 1, avail), ==, 0);
    space_update(q, s + 1, 1, 0);
    g_assert_cmphex(rd(q, s + 1, avail), ==, 1);
    g_assert_cmphex(rd(q, s, avail), ==, 7 | 1 << 17);
    qtest_quit(q);
}

/* Registers past the modelled ones read 0 and keep nothing */
static void test_unmodelled(void)
{
    QTestState *q = qtest_init("-M blackhole -d unimp -D /dev/null");

    wr(q, 2, 0, 0x11111111);
    wr(q, 2, TT_STREAM_REGS - 1, 0x22222222);
    wr(q, 2, TT_STREAM_REGS, 0xffffffff);
    wr(q, 2, 1023, 0xffffffff);
    g_assert_cmphex(rd(q, 2, TT_STREAM_REGS), ==, 0);
    g_assert_cmphex(rd(q, 2, 1023), ==, 0);
    g_assert_cmphex(rd(q, 2, 0), ==, 0x11111111);
    g_assert_cmphex(rd(q, 2, TT_STREAM_REGS - 1), ==, 0x22222222);
    g_assert_cmphex(rd(q, 3, 0), ==, 0);
    qtest_quit(q);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/blackhole/noc-overlay/storage", test_storage);
    qtest_add_func("/blackhole/noc-overlay/space-available",
                   test_space_available);
    qtest_add_func("/blackhole/noc-overlay/unmodelled", test_unmodelled);
    return g_test_run();
}
