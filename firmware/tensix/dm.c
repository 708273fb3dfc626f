/*
 * tt-kernels: the two data-movement cores of a TTK_MM_DRAM matmul, in
 * the roles tt-metal's matmul programs give them (reader on RISCV_1, the
 * NCRISC; writer on RISCV_0, the BRISC).  Both use NOC0, each with its
 * own command buffer: tt-metal's default for RISCV_1 is NOC1, but ttsim
 * v1.10.0 stops on a read issued from NOC1 with translated coordinates
 * ("UnimplementedFunctionality: noc_cmd_ctrl: read"), and the demo is
 * meant to run there too.  Operands and results are tiles interleaved across
 * the GDDR banks as tt-metal's InterleavedAddrGen lays out pages: tile i
 * in bank i % nbanks, at (i / nbanks) tiles from the matrix's base
 * (tt-metal tt_metal/hw/inc/api/dataflow/dataflow_api_addrgen.h).
 *
 * NCRISC reads, k step by k step, this tile's rows of A and columns of B
 * into L1 and publishes each finished step in ready, which the unpacker
 * waits on; BRISC writes each output tile to GDDR once the packer has
 * published it in packed, and reports done once the writes are
 * acknowledged.  NOC commands go one at a time through a command buffer
 * (firmware/common/noc.h); completion is counted with the NIU's read
 * response and write acknowledgement counters, as tt-metal's
 * noc_async_read_barrier()/noc_async_write_barrier() do.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ttk.h"
#include "noc.h"

#define NOC_WRITER          0   /* BRISC: command buffer 0 */
#define NOC_READER          0   /* NCRISC: command buffer 1 */

static void dm_stage(uint32_t role, uint32_t v)
{
    PARAMS->dm_stage[role] = v;
}

/* A progress word of the block, which other cores poll: volatile */
static void publish(volatile uint32_t *word, uint32_t v)
{
    __asm__ volatile("fence" : : : "memory");
    *word = v;
}

/* Tile @i of the matrix at @base: its bank on @noc and its address there */
static uint32_t bank_xy(const TTKParams *p, int noc, uint32_t i)
{
    return p->bank_xy[noc][i % p->nbanks];
}

static uint32_t bank_addr(const TTKParams *p, uint32_t base, uint32_t i,
                          uint32_t bytes)
{
    return base + i / p->nbanks * bytes;
}

static void read_tile(const TTKParams *p, uint32_t base, uint32_t i,
                      uint32_t bytes, uint32_t l1)
{
    noc_read(NOC_READER, bank_xy(p, NOC_READER, i),
             bank_addr(p, base, i, bytes), l1, bytes);
}

/* Wait until @n commands have been answered since the counter read @base */
static void wait_count(int noc, int counter, uint32_t base, uint32_t n)
{
    while (NIU_STATUS(noc, counter) - base != n) {
        cpu_relax();
    }
}

/*
 * NCRISC: for each k, this tile's A tiles (row m0 + r, column k) to
 * addr_a + (r * kt + k) and its B tiles (row k, column n0 + j, wrapping
 * at NT) to addr_b + (k * cols + j), as the unpacker addresses them.
 */
static void dm_read(const TTKParams *p)
{
    TTKMatmulShape s = ttk_matmul_shape(p);
    uint32_t sa = tile_size16(p->fmt_a) * 16, sb = tile_size16(p->fmt_b) * 16;
    uint32_t base = NIU_STATUS(NOC_READER, ST_RD_RESP_RECEIVED), sent = 0;

    for (uint32_t k = 0; k < p->kt; k++) {
        dm_stage(1, k << 8 | 3);
        for (uint32_t r = 0; r < s.rows; r++) {
            read_tile(p, p->dram_a, (s.m0 + r) * p->kt + k, sa,
                      p->addr_a + (r * p->kt + k) * sa);
            sent++;
        }
        for (uint32_t j = 0; j < s.cols; j++) {
            read_tile(p, p->dram_b, k * s.ntot + (s.n0 + j) % s.ntot, sb,
                      p->addr_b + (k * s.cols + j) * sb);
            sent++;
        }
        wait_count(NOC_READER, ST_RD_RESP_RECEIVED, base, sent);
        publish(&PARAMS->ready, k + 1);
    }
}

/*
 * BRISC: output t (global tile out_first + t) from addr_c + t once the
 * packer has published it; non-posted writes, all acknowledged before
 * BRISC reports.  If the pack thread stops early, so does BRISC.
 */
static uint32_t dm_write(const TTKParams *p)
{
    uint32_t sc = tile_size16(p->fmt_out) * 16;
    uint32_t base = NIU_STATUS(NOC_WRITER, ST_WR_ACK_RECEIVED), sent = 0;

    for (uint32_t t = 0; t < p->nt; t++) {
        uint32_t i = p->out_first + t;

        dm_stage(0, t << 8 | 3);
        while (PARAMS->packed <= t) {
            if (PARAMS->done[2] == TTK_DONE && PARAMS->packed <= t) {
                return PARAMS->error[2] ? PARAMS->error[2] : TTK_ERR_OP;
            }
            cpu_relax();
        }
        noc_write(NOC_WRITER, p->addr_c + t * sc, bank_xy(p, NOC_WRITER, i),
                  bank_addr(p, p->dram_c, i, sc), sc, CMD_RESP_MARKED);
        sent++;
    }
    dm_stage(0, 4);
    wait_count(NOC_WRITER, ST_WR_ACK_RECEIVED, base, sent);
    return TTK_ERR_NONE;
}

/*
 * Both cores check the block as the TRISCs do; anything but a
 * TTK_MM_DRAM matmul leaves them nothing to do.
 */
void dm_main(uint32_t role)
{
    const TTKParams *p = (const TTKParams *)PARAMS;
    uint32_t err = ttk_check_params(p);

    dm_stage(role, 1);
    if (err == TTK_ERR_NONE && p->op == TTK_OP_MATMUL &&
        p->sub_op == TTK_MM_DRAM) {
        if (role) {
            dm_read(p);
        } else {
            err = dm_write(p);
        }
    }
    dm_stage(role, 0xff);
    PARAMS->dm_error[role] = err;
    publish(&PARAMS->dm_done[role], TTK_DONE);
}
