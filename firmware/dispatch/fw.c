/*
 * The project's worker firmware: one source built for each core role
 * (-DROLE=0..4) and each L1 layout (layout.h), following tt-metal's
 * launch-message protocol as its firmware implements it (tt-metal
 * tt_metal/hw/firmware/src/tt-1xx/brisc.cc, ncrisc.cc, trisc.cc;
 * blackhole-py device.py; what the blackhole-py 5d08c23 ELFs do, read
 * from their code):
 *
 * Boot (host: ELFs in L1, LDM images, JAL at 0, go = INIT, BRISC out of
 * reset): BRISC sets the other cores' reset PCs, ungates the clocks
 * tt-metal's device_setup() ungates, invalidates the instruction caches,
 * releases the subordinates with subordinate_sync = 0x40404040 and waits
 * until each reports DONE; TRISC0 zeroes the CB counters; BRISC writes
 * go = DONE.
 *
 * Launch: BRISC waits for go = GO in go_messages[go_message_index] (a
 * RESET_READ_PTR[_FROM_HOST] meanwhile zeroes launch_msg_rd_ptr and is
 * answered with DONE, the dispatcher also notified for RESET_READ_PTR),
 * reads launch[launch_msg_rd_ptr], tells NCRISC to LOAD, the TRISCs to
 * GO, sets up its runtime-argument, semaphore and CB state from the
 * kernel configuration (kernel_config_base + the message's offsets), lets
 * NCRISC GO, calls its own kernel at kernel_config_base +
 * kernel_text_offset[], waits for the enabled subordinates, asks TRISC0
 * to clear the CB counters, and writes go = DONE.  In DEV mode (fast
 * dispatch) it also clears the message's enables, advances the read
 * pointer and adds one to the dispatcher's stream 48 + offset (register
 * 270 at go_msg's master x/y, an inline NOC write, NOC 0, command buffer
 * 3).  Kernels find their state in the globals below (kernel.h).
 *
 * Differences from tt-metal's firmware, all outside the protocol: no
 * bank-to-NOC or logical-to-virtual tables are copied (tt-run passes bank
 * coordinates as runtime arguments), no remote CBs, no watcher, profiler
 * or preloading, and the Tensix coprocessor is left as reset leaves it
 * beyond the clock and cache settings (compute kernels set up what they
 * use, as firmware/tensix does).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include "layout.h"
#include "cb.h"
#include "tt.h"
#include "noc.h"

#ifndef ROLE
#error "build with -DROLE=0..4"
#endif

#define MB8(a)      (*(volatile uint8_t *)(uintptr_t)(a))
#define MB16(a)     (*(volatile uint16_t *)(uintptr_t)(a))
#define MB32(a)     (*(volatile uint32_t *)(uintptr_t)(a))

#define DEST_CG_CTRL        0xffb12240u
#define TDMA_CLK_GATE_EN    0xffb11024u
#define RISCV_IC_INVALIDATE 0xffef02e4u     /* config word 185 */

/* What kernels read (kernel.h), under tt-metal's names */
volatile uint32_t *rta_l1_base;
volatile uint32_t *crta_l1_base;
uint32_t sem_l1_base[PCT_COUNT];
CBInterface cb_interface[NUM_CBS];

typedef uint32_t (*kernel_fn)(void);

static void fence(void)
{
    __asm__ volatile("fence" : : : "memory");
}

static uint32_t launch_addr(void)
{
    return MB_LAUNCH + MB32(MB_LAUNCH_RD_PTR) % MB_LAUNCH_ENTRIES *
           LAUNCH_SIZE;
}

/*
 * Runtime arguments and semaphores of processor @proc, then its local
 * CBs (TRISCs count in 16-byte units: tt-metal's
 * setup_local_cb_read_write_interfaces); returns kernel_config_base
 */
static uint32_t setup_kernel(uint32_t lm, int proc)
{
    uint32_t kcb = MB32(lm + LM_KERNEL_CONFIG_BASE);
    uint32_t rta = lm + LM_RTA_OFFSET + 4 * proc;
    uint32_t cfg = kcb + MB16(lm + LM_LOCAL_CB_OFFSET);
    uint32_t shift = proc >= PROC_TRISC(0) ? 4 : 0;
    uint64_t mask = MB32(lm + LM_LOCAL_CB_MASK);

    if (LM_LOCAL_CB_MASK_BYTES == 8) {
        mask |= (uint64_t)MB32(lm + LM_LOCAL_CB_MASK + 4) << 32;
    }
    rta_l1_base = (volatile uint32_t *)(kcb + MB16(rta));
    crta_l1_base = (volatile uint32_t *)(kcb + MB16(rta + 2));
    for (int i = 0; i < PCT_COUNT; i++) {
        sem_l1_base[i] = MB32(lm + LM_KERNEL_CONFIG_BASE + 4 * i) +
                         MB16(lm + LM_SEM_OFFSET + 2 * i);
    }
    for (int cb = 0; cb < NUM_CBS && mask; cb++, mask >>= 1) {
        volatile uint32_t *c = (volatile uint32_t *)(cfg + 16 * cb);
        CBInterface *f = &cb_interface[cb];

        if (!(mask & 1)) {
            continue;
        }
        f->fifo_size = c[1] >> shift;
        f->fifo_limit = (c[0] + c[1]) >> shift;
        f->fifo_num_pages = c[2];
        f->fifo_page_size = c[3] >> shift;
        f->fifo_rd_ptr = c[0] >> shift;
        f->fifo_wr_ptr = c[0] >> shift;
        f->tiles_acked_received_init = 0;
        f->fifo_wr_tile_ptr = 0;
    }
    return kcb;
}

static void run_kernel(uint32_t lm, uint32_t kcb, int proc)
{
    kernel_fn fn = (kernel_fn)(kcb + MB32(lm + LM_KERNEL_TEXT_OFFSET +
                                          4 * proc));

    fence();
    fn();
}

#if ROLE == 0
/* ------------------------------------------------------------ BRISC */

#define SYNC_ALL            MB32(MB_SUBORDINATE_SYNC)
#define SYNC_NCRISC         MB8(MB_SUBORDINATE_SYNC)
#define SYNC_TRISC(n)       MB8(MB_SUBORDINATE_SYNC + 1 + (n))

static void wait_subordinates(void)
{
    while (SYNC_ALL != 0) {
        fence();
    }
}

/*
 * +1 on the dispatcher's worker-completion stream: an inline write of
 * 1 << REMOTE_DEST_BUF_WORDS_FREE_INC to register 270 of stream 48 +
 * go_msg.dispatch_message_offset at (master_x, master_y) (tt-metal
 * notify_dispatch_core_done())
 */
static void notify_dispatcher(uint32_t go)
{
    uint32_t xy = XY((go >> 8) & 0xff, (go >> 16) & 0xff);
    uint32_t addr = DISPATCH_MESSAGE_ADDR + ((go & 0xff) << 12);

    noc_wait(0, 3);
    NIU_REG(0, 3, AT_DATA) = 1u << STREAM_WORDS_FREE_SHIFT;
    NIU_REG(0, 3, CTRL) = CMD_WR | CMD_WR_INLINE | CMD_RESP_MARKED;
    NIU_REG(0, 3, TARG_LO) = addr;
    NIU_REG(0, 3, TARG_MID) = 0;
    NIU_REG(0, 3, TARG_HI) = xy;
    /*
     * the return coordinates name this tile: ttsim checks them against the
     * issuing tile for inline writes (ttsim src/tile.cpp noc_cmd_ctrl)
     */
    NIU_REG(0, 3, RET_MID) = 0;
    NIU_REG(0, 3, RET_HI) = my_xy(0);
    NIU_REG(0, 3, AT_LEN_BE) = 0xfu << (addr & 0xc);
    NIU_REG(0, 3, CMD_CTRL) = 1;
    noc_wait(0, 3);
}

static void boot(void)
{
    static const uint32_t trisc_pc[3] = {
        FW_BASE_TRISC0, FW_BASE_TRISC1, FW_BASE_TRISC2,
    };

    /* tt-metal brisc.cc device_setup(), set_deassert_addresses() */
    REG32(DEST_CG_CTRL) = 0;
    REG32(TDMA_CLK_GATE_EN) = 0x3f;
    REG32(NCRISC_RESET_PC) = FW_BASE_NCRISC;
    REG32(NCRISC_RESET_PC_OVERRIDE) = 1;
    for (int t = 0; t < 3; t++) {
        REG32(TRISC_RESET_PC(t)) = trisc_pc[t];
    }
    REG32(TRISC_RESET_PC_OVERRIDE) = 7;
    REG32(RISCV_IC_INVALIDATE) = 0x1f;
    MB32(MB_LAUNCH_RD_PTR) = 0;
    SYNC_ALL = 0x40404040u;
    REG32(SOFT_RESET_0) = 0;
    wait_subordinates();
    SYNC_TRISC(0) = RUN_SYNC_MSG_INIT_SYNC_REGISTERS;
    MB8(MB_GO_MSG + 4 * MB32(MB_GO_MSG_INDEX) + 3) = RUN_MSG_DONE;
}

/* go_messages[go_message_index] once it reads GO */
static uint32_t wait_go(void)
{
    for (;;) {
        uint32_t go_addr = MB_GO_MSG + 4 * MB32(MB_GO_MSG_INDEX);
        uint32_t go = MB32(go_addr);
        uint32_t sig = go >> 24;

        if (sig == RUN_MSG_GO) {
            return go_addr;
        }
        if (sig == RUN_MSG_RESET_READ_PTR ||
            sig == RUN_MSG_RESET_READ_PTR_FROM_HOST ||
            sig == RUN_MSG_REPLAY_TRACE) {
            MB32(MB_LAUNCH_RD_PTR) = 0;
            MB8(go_addr + 3) = RUN_MSG_DONE;
            if (sig != RUN_MSG_RESET_READ_PTR_FROM_HOST) {
                notify_dispatcher(go);
            }
        }
        fence();
    }
}

int main(void)
{
    boot();
    for (;;) {
        uint32_t go_addr = wait_go();
        uint32_t lm = launch_addr();
        uint32_t enables = MB32(lm + LM_ENABLES);
        uint32_t kcb;

        /* TRISC0 may still be clearing the CB counters */
        wait_subordinates();
        if (enables & ENABLE_NCRISC) {
            SYNC_NCRISC = RUN_SYNC_MSG_LOAD;
        }
        REG32(RISCV_IC_INVALIDATE) = 0x1f;
        for (int t = 0; t < 3; t++) {
            if (enables & ENABLE_TRISC(t)) {
                SYNC_TRISC(t) = RUN_SYNC_MSG_GO;
            }
        }
        kcb = setup_kernel(lm, PROC_BRISC);
        if (enables & ENABLE_NCRISC) {
            SYNC_NCRISC = RUN_SYNC_MSG_GO;
        }
        if (enables & ENABLE_BRISC) {
            run_kernel(lm, kcb, PROC_BRISC);
        }
        wait_subordinates();
        SYNC_TRISC(0) = RUN_SYNC_MSG_INIT_SYNC_REGISTERS;
        MB8(go_addr + 3) = RUN_MSG_DONE;
        if (MB8(lm + LM_MODE) == DISPATCH_MODE_DEV) {
            MB32(lm + LM_ENABLES) = 0;
            MB8(lm + LM_PRELOAD) = 0;
            MB32(MB_LAUNCH_RD_PTR) = (MB32(MB_LAUNCH_RD_PTR) + 1) %
                                     MB_LAUNCH_ENTRIES;
            notify_dispatcher(MB32(go_addr));
        }
    }
}

#elif ROLE == 1
/* ----------------------------------------------------------- NCRISC */

#define SYNC                MB8(MB_SUBORDINATE_SYNC)

int main(void)
{
    SYNC = RUN_SYNC_MSG_DONE;
    for (;;) {
        uint32_t lm, kcb;

        while (SYNC != RUN_SYNC_MSG_GO && SYNC != RUN_SYNC_MSG_LOAD) {
            fence();
        }
        lm = launch_addr();
        kcb = setup_kernel(lm, PROC_NCRISC);
        while (SYNC != RUN_SYNC_MSG_GO) {
            fence();
        }
        run_kernel(lm, kcb, PROC_NCRISC);
        SYNC = RUN_SYNC_MSG_DONE;
    }
}

#else
/* ------------------------------------------------------------ TRISC */

#define THREAD              (ROLE - 2)
#define SYNC                MB8(MB_SUBORDINATE_SYNC + 1 + THREAD)
#define TT_GPR(n)           (TT_TILE_TENSIX_GPR_BASE + 4u * (n))

/* tt-metal trisc.cc init_sync_registers(): CB pages received/acked = 0 */
static void init_sync_registers(void)
{
    for (int cb = 0; cb < NUM_CBS; cb++) {
        int s = OPERAND_START_STREAM + cb;

        REG32(STREAM_ADDR(s, STREAM_BUF_SIZE_REG)) = 0;
        REG32(STREAM_ADDR(s, STREAM_BUF_START_REG)) = 0;
    }
}

int main(void)
{
    for (int i = 0; i < 64; i++) {
        REG32(TT_GPR(i)) = 0;
    }
    SYNC = RUN_SYNC_MSG_DONE;
    for (;;) {
        uint32_t lm, kcb, sync = SYNC;

        if (THREAD == 0 && sync == RUN_SYNC_MSG_INIT_SYNC_REGISTERS) {
            init_sync_registers();
            SYNC = RUN_SYNC_MSG_DONE;
            continue;
        }
        if (sync != RUN_SYNC_MSG_GO) {
            fence();
            continue;
        }
        lm = launch_addr();
        kcb = setup_kernel(lm, PROC_TRISC(THREAD));
        run_kernel(lm, kcb, PROC_TRISC(THREAD));
        SYNC = RUN_SYNC_MSG_DONE;
    }
}
#endif
