/*
 * Helpers for the Blackhole qtests: the machine's "tt" qtest command
 * (hw/tenstorrent/blackhole-qtest.c) and running QEMU to check errors.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef TT_QTEST_UTIL_H
#define TT_QTEST_UTIL_H

#include "libqtest.h"

/* Physical Tensix columns (noc-and-niu.md 8.1) */
extern const int tt_tensix_cols[14];

/*
 * Translated x of the Tensix tile at physical column @x when @harvested
 * (bit x: column disabled) columns are harvested: enabled columns keep the
 * dense translated columns 1-7, 10-16 in order.  -1 if @x is harvested.
 */
int tt_translated_x(uint32_t harvested, int x);

uint32_t tt_readl(QTestState *qts, int x, int y, const char *role,
                  uint64_t addr);
void tt_writel(QTestState *qts, int x, int y, const char *role,
               uint64_t addr, uint32_t val);
void tt_read(QTestState *qts, int x, int y, const char *role, uint64_t addr,
             void *buf, size_t len);
void tt_write(QTestState *qts, int x, int y, const char *role, uint64_t addr,
              const void *buf, size_t len);
/* false if the machine answers FAIL (no such core) */
bool tt_cpu(QTestState *qts, int x, int y, const char *role, int *index,
            int *halted, uint64_t *pc);
/* true if "tt readl" at that target fails */
bool tt_readl_fails(QTestState *qts, int x, int y, const char *role,
                    uint64_t addr);

/* The same through BAR @bar (0, 2, 4) of the PCIe endpoint, as the host */
uint32_t tt_bar_readl(QTestState *qts, int bar, uint64_t off);
bool tt_bar_readl_fails(QTestState *qts, int bar, uint64_t off);
void tt_bar_writel(QTestState *qts, int bar, uint64_t off, uint32_t val);
void tt_bar_read(QTestState *qts, int bar, uint64_t off, void *buf,
                 size_t len);
void tt_bar_write(QTestState *qts, int bar, uint64_t off, const void *buf,
                  size_t len);

/*
 * Program 2 MiB TLB window @n of BAR0 onto @addr (2 MiB aligned) of the
 * rectangle (@xs, @ys)-(@xe, @ye) on NOC @noc, strict ordering; packed
 * by hand from host-pcie-and-arc.md 7.2.
 */
void tt_tlb_2m(QTestState *q, int n, uint64_t addr, int xs, int ys,
               int xe, int ye, int noc, int mcast);
#define TT_TLB_CFG      0x1fc00000u
#define TT_WIN_2M(n)    ((uint64_t)(n) << 21)

/*
 * Run QEMU with @args (no qtest), return its exit status and stderr in
 * @err (caller frees).
 */
int tt_run_qemu(const char *args, char **err);

/* Directory of the built test firmware ($TT_FIRMWARE_DIR or ../firmware) */
const char *tt_firmware_dir(void);

#endif
