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

/*
 * tt-umd's multichip ABI (tt-umd device/simulation/tt_sim_communicator.cpp,
 * whose multichip mode wants all eight): chips created by id after one
 * libttsim_init(), the one to talk to selected before each call.  The
 * Ethernet-switch calls are accepted and do nothing here.
 */
void *libttsim_create_device_by_id(uint32_t chip_id, int chip_x, int chip_y);
void libttsim_select_device_by_id(uint32_t chip_id);
void libttsim_clock_all_devices(uint32_t n_clocks);
void libttsim_switch_reset(void);
void libttsim_switch_drain(void);
void libttsim_switch_register(void *dev, uint32_t tile_id, uint64_t mac);
void libttsim_configure_eth_link_virtual(void *dev, uint32_t tile_id,
                                         uint64_t local_mac);
void libttsim_switch_register_peer(void *dev, uint32_t tile_id,
                                   void *peer_dev, uint32_t peer_tile_id);

/* ttsim's internal BAR physical bases (ttsim src/libttsim.cpp) */
#define LIBTTSIM_BAR0_BASE  0x100000000ull
#define LIBTTSIM_BAR0_SIZE  (512ull << 20)
#define LIBTTSIM_BAR2_BASE  0x120000000ull
#define LIBTTSIM_BAR2_SIZE  (1ull << 20)
#define LIBTTSIM_BAR4_BASE  0x800000000ull
#define LIBTTSIM_BAR4_SIZE  (32ull << 30)
/*
 * Several chips of one process as PCI devices (ttsim's multi-MMIO builds,
 * tt-umd's BDF mode): device d of bus 0 is chip d, its BARs at the bases
 * above plus d times this stride
 */
#define LIBTTSIM_DEVICE_STRIDE  (64ull << 30)
#define LIBTTSIM_MAX_DEVICES    32      /* the BDF's 5-bit device field */

#ifdef __cplusplus
}
#endif

#endif
