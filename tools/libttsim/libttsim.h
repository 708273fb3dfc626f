/*
 * The libttsim C ABI (Tenstorrent ttsim's docs/libttsim_api.md), as
 * tt-umd's TTSimCommunicator and ttsim-qemu resolve it with dlsym().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_LIBTTSIM_H
#define TT_LIBTTSIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*libttsim_dma_rd_fn)(uint64_t paddr, void *dst, uint32_t size);
typedef void (*libttsim_dma_wr_fn)(uint64_t paddr, const void *src,
                                   uint32_t size);

void libttsim_init(void);
void libttsim_exit(void);
void libttsim_set_pci_dma_mem_callbacks(libttsim_dma_rd_fn rd,
                                        libttsim_dma_wr_fn wr);
uint32_t libttsim_pci_config_rd32(uint32_t bdf, uint32_t offset);
void libttsim_pci_config_wr32(uint32_t bdf, uint32_t offset, uint32_t data);
void libttsim_pci_mem_rd_bytes(uint64_t paddr, void *dst, uint32_t size);
void libttsim_pci_mem_wr_bytes(uint64_t paddr, const void *src,
                               uint32_t size);
void libttsim_tile_rd_bytes(uint32_t x, uint32_t y, uint64_t addr, void *dst,
                            uint32_t size);
void libttsim_tile_wr_bytes(uint32_t x, uint32_t y, uint64_t addr,
                            const void *src, uint32_t size);
void libttsim_clock(uint32_t n_clocks);

/* ttsim's internal BAR physical bases (ttsim src/libttsim.cpp) */
#define LIBTTSIM_BAR0_BASE  0x100000000ull
#define LIBTTSIM_BAR0_SIZE  (512ull << 20)
#define LIBTTSIM_BAR2_BASE  0x120000000ull
#define LIBTTSIM_BAR2_SIZE  (1ull << 20)
#define LIBTTSIM_BAR4_BASE  0x800000000ull
#define LIBTTSIM_BAR4_SIZE  (32ull << 30)

#ifdef __cplusplus
}
#endif

#endif
