/*
 * The L1 layout the project's worker firmware (fw.c), its kernels and
 * tools/tt-run agree on, for the two tt-metal generations the machine has
 * presets for (fw-layout=, hw/tenstorrent/blackhole.c):
 *
 *   TT_LAYOUT_TT_METAL   tt-metal 0079e94: 128-byte launch message,
 *                        ProgrammableCoreType::COUNT = 4, 64 CBs on
 *                        streams 0-63 (tt-metal tt_metal/hw/inc/hostdev/
 *                        dev_msgs.h, .../blackhole/dev_mem_map.h,
 *                        stream_io_map.h OPERAND_START_STREAM = 0)
 *   TT_LAYOUT_BH_5D08C23 the firmware blackhole-py 5d08c23 ships
 *                        (riscv-firmware/p100a): 96-byte launch message,
 *                        COUNT = 3, 32 CBs on streams 8-39, one enable bit
 *                        for all three TRISCs (blackhole-py abi.py,
 *                        configs.py; the ELFs' own code)
 *
 * Both keep mailboxes_t at 0x60: ncrisc_halt, subordinate_sync (one byte
 * per subordinate core), launch_msg_rd_ptr, launch[8], go_messages[9],
 * go_message_index.  Offsets inside launch_msg_t are listed per layout;
 * a 128-byte message needs COUNT = 4 to satisfy dev_msgs.h's alignment
 * asserts (our reading; the header does not say).  Host and device code
 * include this file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_DISPATCH_LAYOUT_H
#define TT_DISPATCH_LAYOUT_H

#define TT_LAYOUT_TT_METAL      1
#define TT_LAYOUT_BH_5D08C23    2

#define TT_L1_SIZE              0x180000

/* mailboxes_t (dev_msgs.h), the same in both layouts */
#define MB_SUBORDINATE_SYNC     0x68u   /* u8 per core: NCRISC, TRISC0-2 */
#define MB_LAUNCH_RD_PTR        0x6cu
#define MB_LAUNCH               0x70u
#define MB_LAUNCH_ENTRIES       8

/* go_msg_t: offset, master x, master y, signal (byte 3) */
#define RUN_MSG_DONE            0x00u
#define RUN_MSG_INIT            0x40u
#define RUN_MSG_GO              0x80u
#define RUN_MSG_RESET_READ_PTR  0xc0u
#define RUN_MSG_RESET_READ_PTR_FROM_HOST 0xe0u
#define RUN_MSG_REPLAY_TRACE    0xf0u

/* subordinate_sync bytes */
#define RUN_SYNC_MSG_DONE       0x00u
#define RUN_SYNC_MSG_LOAD       0x01u
#define RUN_SYNC_MSG_INIT_SYNC_REGISTERS 0x03u
#define RUN_SYNC_MSG_INIT       0x40u
#define RUN_SYNC_MSG_GO         0x80u

#define DISPATCH_MODE_DEV       0u
#define DISPATCH_MODE_HOST      1u

/*
 * Worker completions: stream 48 + go_msg.dispatch_message_offset, reg 270.
 * The overlay's base is the tile map's (tt-tile-map.h, which every user of
 * STREAM_ADDR includes; this header stays free of C types for fw.ld.S).
 */
#define FIRST_STREAM_USED       48
#define STREAM_ADDR(s, r)       (TT_TILE_NOC_OVERLAY_BASE + 0x1000u * (s) + \
                                 4u * (r))
#define STREAM_BUF_START_REG    8       /* CB tiles_acked */
#define STREAM_BUF_SIZE_REG     10      /* CB tiles_received */
#define STREAM_SPACE_UPDATE_REG 270     /* write-only */
#define STREAM_SPACE_REG        297     /* read-only */
#define STREAM_WORDS_FREE_SHIFT 6       /* REMOTE_DEST_BUF_WORDS_FREE_INC */
#define STREAM_WORD_BITS        17      /* MEM_WORD_ADDR_WIDTH */
#define DISPATCH_MESSAGE_ADDR   STREAM_ADDR(FIRST_STREAM_USED, \
                                            STREAM_SPACE_UPDATE_REG)

/* Processor indices of launch_msg_t's per-processor arrays */
#define PROC_BRISC              0
#define PROC_NCRISC             1
#define PROC_TRISC(n)           (2 + (n))
#define PROC_COUNT              5

/* A local CB's configuration in L1: 4 words, bytes */
#define CB_CONFIG_WORDS         4

/*
 * LocalCBInterface of the firmware (32 bytes; TRISCs hold addresses and
 * sizes in 16-byte units).  Kernels read it from the firmware's
 * cb_interface[] symbol.
 */
#define CB_IFACE_SIZE           32

/* Host code includes this with TT_LAYOUT 0: only the common part */
#ifndef TT_LAYOUT
#define TT_LAYOUT               TT_LAYOUT_TT_METAL
#endif

#if TT_LAYOUT == TT_LAYOUT_TT_METAL
#define LAUNCH_SIZE             128u
#define MB_GO_MSG               0x470u
#define MB_GO_MSG_INDEX         0x4a0u
#define PCT_COUNT               4
#define NUM_CBS                 64
#define OPERAND_START_STREAM    0
/* launch_msg_t.kernel_config field offsets */
#define LM_KERNEL_CONFIG_BASE   0       /* u32[PCT_COUNT] */
#define LM_SEM_OFFSET           16      /* u16[PCT_COUNT] */
#define LM_LOCAL_CB_OFFSET      24      /* u16 */
#define LM_REMOTE_CB_OFFSET     26      /* u16 */
#define LM_RTA_OFFSET           28      /* {u16 rta, u16 crta}[5] */
#define LM_MODE                 48      /* u8 */
#define LM_KERNEL_TEXT_OFFSET   52      /* u32[5] */
#define LM_LOCAL_CB_MASK        72      /* u64 */
#define LM_LOCAL_CB_MASK_BYTES  8
#define LM_BRISC_NOC_ID         80
#define LM_BRISC_NOC_MODE       81
#define LM_MIN_REMOTE_CB_START  82
#define LM_HOST_ASSIGNED_ID     84
#define LM_ENABLES              88      /* u32: bit per processor */
#define LM_PRELOAD              127
#define ENABLE_TRISC(n)         (1u << PROC_TRISC(n))
/* firmware bases and LDM images (dev_mem_map.h at 0079e94) */
#define FW_BASE_BRISC           0x39e0
#define FW_BASE_NCRISC          0x5be0
#define FW_BASE_TRISC0          0x65e0
#define FW_BASE_TRISC1          0x6fe0
#define FW_BASE_TRISC2          0x79e0
#define FW_END                  0x83e0
#define LDM_IMAGE_BRISC         0x9f00
#define LDM_IMAGE_NCRISC        0xbf00
#define LDM_IMAGE_TRISC0        0xdf00
#define LDM_IMAGE_TRISC1        0xef00
#define LDM_IMAGE_TRISC2        0xff00
/*
 * Kernel configuration (RTAs, semaphores, CBs, kernel text) from
 * MEM_MAP_END up to the bank-to-NOC scratch (our choice: no public
 * source we read gives KERNEL_CONFIG_BASE for this layout)
 */
#define KERNEL_CONFIG_BASE      0x9f00
#define KERNEL_CONFIG_END       0x12f00
#define BANK_TABLE_ADDR         0x12f00
#elif TT_LAYOUT == TT_LAYOUT_BH_5D08C23
#define LAUNCH_SIZE             96u
#define MB_GO_MSG               0x370u
#define MB_GO_MSG_INDEX         0x3a0u
#define PCT_COUNT               3
#define NUM_CBS                 32
#define OPERAND_START_STREAM    8
#define LM_KERNEL_CONFIG_BASE   0
#define LM_SEM_OFFSET           12
#define LM_LOCAL_CB_OFFSET      18
#define LM_REMOTE_CB_OFFSET     20
#define LM_RTA_OFFSET           22
#define LM_MODE                 42
#define LM_KERNEL_TEXT_OFFSET   44
#define LM_LOCAL_CB_MASK        64      /* u32 */
#define LM_LOCAL_CB_MASK_BYTES  4
#define LM_BRISC_NOC_ID         68
#define LM_BRISC_NOC_MODE       69
#define LM_MIN_REMOTE_CB_START  70
#define LM_HOST_ASSIGNED_ID     72
#define LM_ENABLES              76      /* bit 0 BRISC, 1 NCRISC, 2 TRISCs */
#define LM_PRELOAD              95
#define ENABLE_TRISC(n)         (1u << 2)
#define FW_BASE_BRISC           0x3840
#define FW_BASE_NCRISC          0x5440
#define FW_BASE_TRISC0          0x5a40
#define FW_BASE_TRISC1          0x6040
#define FW_BASE_TRISC2          0x6640
#define FW_END                  0x6c40
#define LDM_IMAGE_BRISC         0x82b0
#define LDM_IMAGE_NCRISC        0xa2b0
#define LDM_IMAGE_TRISC0        0xc2b0
#define LDM_IMAGE_TRISC1        0xd2b0
#define LDM_IMAGE_TRISC2        0xe2b0
#define KERNEL_CONFIG_BASE      0x82b0     /* blackhole-py configs.py */
#define KERNEL_CONFIG_END       0x112b0
#define BANK_TABLE_ADDR         0x112b0
#endif

#define ENABLE_BRISC            (1u << PROC_BRISC)
#define ENABLE_NCRISC           (1u << PROC_NCRISC)

/* L1 for CBs and buffers of tt-run programs, in both layouts */
#define USER_L1_BASE            0x20000

#endif
