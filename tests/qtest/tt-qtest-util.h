/*
 * Helpers for the Blackhole qtests: the machine's "tt" qtest command
 * (hw/tenstorrent/blackhole-qtest.c) and running QEMU to check errors.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef TT_QTEST_UTIL_H
#define TT_QTEST_UTIL_H

#include "libqtest.h"
#include "tt-pcie-host.h"       /* generated from data/pcie-host.yaml */

/* Physical Tensix columns (tt-umd soc descriptor) */
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
 * by hand from tt-isa-documentation PCIExpressTile/HostToDeviceTLBs.md.
 */
void tt_tlb_2m(QTestState *q, int n, uint64_t addr, int xs, int ys,
               int xe, int ye, int noc, int mcast);
#define TT_TLB_CFG      TT_TLB_CFG_BASE
#define TT_WIN_2M(n)    ((uint64_t)(n) << 21)

/*
 * Run QEMU with @args (no qtest), return its exit status and stderr in
 * @err (caller frees).
 */
int tt_run_qemu(const char *args, char **err);

/* Directory of the built test firmware ($TT_FIRMWARE_DIR or ../firmware) */
const char *tt_firmware_dir(void);

/*
 * The address of symbol @name in the RV32 ELF @elf of tt_firmware_dir(),
 * so that a test and its firmware share addresses without typing them
 * twice; fails the test when either is missing
 */
uint32_t tt_firmware_symbol(const char *elf, const char *name);

/*
 * The Tensix coprocessor of tile (@x, @y), through the "tt tensix" qtest
 * command (hw/tenstorrent/blackhole-qtest.c) and its push window.
 */

/* Push @insn into Tensix thread @thread (0xFFE40000 of TRISC@thread) */
void tt_tensix_push(QTestState *qts, int x, int y, int thread,
                    uint32_t insn);
/* DstBits[@row][0..15] into @v; returns the row's valid flag */
int tt_tensix_dst(QTestState *qts, int x, int y, int row, uint16_t v[16]);
/* 19-bit cells {sign, mantissa, exponent} of Src@ab[@bank][@row] */
void tt_tensix_src(QTestState *qts, int x, int y, char ab, int bank,
                   int row, uint32_t v[16]);
/*
 * SrcA valid mask, unpacker bank and matrix bank, then the same for SrcB,
 * one hex digit each: 0xAVAUAMBVBUBM reads "A valid, A unpack bank, A
 * matrix bank, B valid, ..." (e.g. 0x110000: SrcA bank 0 given to the
 * matrix unit, unpacker 0 now on bank 1).
 */
uint32_t tt_tensix_banks(QTestState *qts, int x, int y);
/* RWCs of @thread: SrcA, SrcB, Dst, fidelity phase */
void tt_tensix_rwc(QTestState *qts, int x, int y, int thread,
                   unsigned rwc[4]);
/* The 32 lanes of Vector Unit register LReg[@r] */
void tt_tensix_lreg(QTestState *qts, int x, int y, int r, uint32_t v[32]);
/* Vector Unit lane flags, flag enable (0/1), flag stack depth */
void tt_tensix_sfpu(QTestState *qts, int x, int y, unsigned st[3]);

/*
 * Shadow of the backend configuration (Config state 0, written through
 * 0xFFEF0000) and of each thread's ThreadConfig (written by SETC16 pushed
 * into that thread), so single fields can be changed.
 */
typedef struct TTTensixCfg {
    QTestState *qts;
    int x, y;
    uint32_t cfg[256];
    uint16_t thcfg[3][128];
} TTTensixCfg;

void tt_tensix_cfg(TTTensixCfg *c, int word, int shift, int width,
                   uint32_t val);
void tt_tensix_thcfg(TTTensixCfg *c, int thread, int word, int shift,
                     int width, uint32_t val);
/* Field NAME of tt-tensix-config.h; the _N forms index repeated fields */
#define TT_CFG_SET(c, name, val) \
    tt_tensix_cfg(c, TT_CFG_##name##_WORD, TT_CFG_##name##_SHIFT, \
                  TT_CFG_##name##_WIDTH, val)
#define TT_CFG_SET_N(c, name, n, val) \
    tt_tensix_cfg(c, TT_CFG_##name##_WORD + (n), TT_CFG_##name##_SHIFT, \
                  TT_CFG_##name##_WIDTH, val)
#define TT_THCFG_SET(c, th, name, val) \
    tt_tensix_thcfg(c, th, TT_THCFG_##name##_WORD, TT_THCFG_##name##_SHIFT, \
                    TT_THCFG_##name##_WIDTH, val)
#define TT_THCFG_SET_N(c, th, name, n, val) \
    tt_tensix_thcfg(c, th, TT_THCFG_##name##_WORD + (n), \
                    TT_THCFG_##name##_SHIFT, TT_THCFG_##name##_WIDTH, val)

/* A one-column machine (tiles x = 1, y = 2..11) and its tile (1, 2) */
#define TT_ONE_COL "-M blackhole,harvested-tensix-cols=" \
                   "2:3:4:5:6:7:10:11:12:13:14:15:16"
#define TT_TX 1
#define TT_TY 2

/*
 * Data format codes of the unpacker, matrix unit and packer format fields
 * (Unpackers/FormatConversion.md, "The encoding of type names").
 */
enum {
    TT_FMT_FP32 = 0, TT_FMT_FP16 = 1, TT_FMT_BFP8A = 2, TT_FMT_BFP4A = 3,
    TT_FMT_TF32 = 4, TT_FMT_BF16 = 5, TT_FMT_BFP8 = 6, TT_FMT_BFP4 = 7,
    TT_FMT_INT32 = 8, TT_FMT_INT16 = 9, TT_FMT_FP8 = 10, TT_FMT_BFP2A = 11,
    TT_FMT_INT8 = 14, TT_FMT_BFP2 = 15,
};

/*
 * Start TT_ONE_COL and return its tile (TT_TX, TT_TY) with a zeroed
 * configuration shadow; thread 0 gets SRCA_SET_SetOvrdWithAddr = 1 (SrcA
 * rows from the output address alone, tt-llk's setting for unpacks into
 * Src).  tt_tensix_end() quits QEMU and frees it.
 */
TTTensixCfg *tt_tensix_start(void);
/* The same, with @extra appended to QEMU's command line */
TTTensixCfg *tt_tensix_start_args(const char *extra);
void tt_tensix_end(TTTensixCfg *c);
/* Store @n 16- or 32-bit values little-endian into L1 of the tile */
void tt_tensix_l1_write16(TTTensixCfg *c, uint32_t addr, const uint16_t *v,
                          size_t n);
void tt_tensix_l1_write32(TTTensixCfg *c, uint32_t addr, const uint32_t *v,
                          size_t n);
/*
 * Configure unpacker @unp (0: SrcA/Dst, 1: SrcB) for an uncompressed
 * tile of format @in at L1 byte @addr, converted to @out, dimensions
 * @xdim x @ydim x @zdim, and push SETADCXX (thread 0) for @count datums
 * from X = 0.  Base_address holds addr / 16 - 1 (the unpacker skips one
 * 16-byte tile header, UNPACR_Regular.md InAddr); Dest_cntx0_address = 64
 * (the output starts 4 rows before SrcA row 0).
 */
void tt_tensix_unpack_setup(TTTensixCfg *c, int unp, int in, int out,
                            uint32_t addr, int xdim, int ydim, int zdim,
                            int count);
/*
 * The UNPACR form Blackhole supports: MultiContextMode (OvrdThreadId) with
 * context 0, own thread's ADCs, Last = 1.  AddrMode: Ch0ZInc [1:0], Ch0YInc
 * [3:2], Ch1ZInc [5:4], Ch1YInc [7:6] (UNPACR_Regular.md "Syntax").
 */
#define TT_UNPACR(unp, am, dvalid) \
    TT_ENC_UNPACR(unp, am, 0, 0, 0, 1, dvalid, 0, 0, 0, 0, 0, 1)
/* Compare @n values, printing both rows as a test message if any differ */
void tt_check_row(const char *what, const uint32_t *got, const uint32_t *exp,
                  int n);
/* Src@ab[@bank][@row] against 16 expected 19-bit cells */
void tt_tensix_check_src(TTTensixCfg *c, char ab, int bank, int row,
                         const uint32_t *exp);
/* DstBits[@row] against 16 expected raw values, and its valid flag */
void tt_tensix_check_dst16(TTTensixCfg *c, int row, const uint16_t *exp,
                           int valid);
/*
 * Dst32b row @r, i.e. DstBits[adj] << 16 | DstBits[adj + 8] with adj =
 * ((r & 0x1f8) << 1) | (r & 0x207) (BlackholeA0 Dst.md), valid
 * (DstRowValid[adj]), against 16 expected raw values.
 */
void tt_tensix_check_dst32(TTTensixCfg *c, int r, const uint32_t *exp);

#endif
