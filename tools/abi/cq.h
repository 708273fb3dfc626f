/*
 * Fast dispatch: the command queue's wire format and fixed L1 layout,
 * shared by the project's prefetch/dispatch kernels (cq-prefetch.c,
 * cq-dispatch.c, cq-dispatch-s.c) and the host (tools/runtime/tt-runtime.c).
 *
 * Command layout follows tt-metal tt_metal/impl/dispatch/kernels/
 * cq_commands.hpp (the generation with RELAY_LINEAR_H = 2,
 * multicast_go_offset and length_minus1, which its cq_dispatch.cpp reads
 * and blackhole-py's firmware/cq copies): every command is a 16-byte
 * header (WRITE_LINEAR's is 32) followed by an L1-aligned payload; all
 * fields little-endian, packed.  TIMESTAMP (18) is blackhole-py's
 * addition, not tt-metal's.
 *
 * L1 addresses are blackhole-py's firmware/cq/cq_fixed_config.hpp
 * (d570394): prefetch_q, cmddat_q and scratch_db on the prefetch core,
 * the dispatch CB and dispatch_s buffer on the dispatch core.  What
 * depends on the board or on host memory (coordinates, ring sizes, the
 * worker go-message address) comes as runtime arguments instead of
 * compile-time defines, so one build serves P150 and P100A and both
 * worker layouts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TT_DISPATCH_CQ_H
#define TT_DISPATCH_CQ_H

#include <stdint.h>

#define CQ_CMD_SIZE             16      /* CQ_DISPATCH_CMD_SIZE */
#define CQ_PCIE_ALIGN           64      /* PCIE_ALIGNMENT */
#define CQ_L1_ALIGN             16      /* L1_ALIGNMENT */

/* Prefetcher commands (CQPrefetchCmdId) */
enum {
    CQ_PREFETCH_CMD_ILLEGAL = 0,
    CQ_PREFETCH_CMD_RELAY_LINEAR = 1,
    CQ_PREFETCH_CMD_RELAY_LINEAR_H = 2,
    CQ_PREFETCH_CMD_RELAY_PAGED = 3,
    CQ_PREFETCH_CMD_RELAY_PAGED_PACKED = 4,
    CQ_PREFETCH_CMD_RELAY_INLINE = 5,
    CQ_PREFETCH_CMD_RELAY_INLINE_NOFLUSH = 6,
    CQ_PREFETCH_CMD_EXEC_BUF = 7,
    CQ_PREFETCH_CMD_EXEC_BUF_END = 8,
    CQ_PREFETCH_CMD_STALL = 9,
    CQ_PREFETCH_CMD_DEBUG = 10,
    CQ_PREFETCH_CMD_TERMINATE = 11,
    CQ_PREFETCH_CMD_PAGED_TO_RINGBUFFER = 12,
    CQ_PREFETCH_CMD_SET_RINGBUFFER_OFFSET = 13,
    CQ_PREFETCH_CMD_RELAY_RINGBUFFER = 14,
    CQ_PREFETCH_CMD_MAX_COUNT
};

/* Dispatcher commands (CQDispatchCmdId) */
enum {
    CQ_DISPATCH_CMD_ILLEGAL = 0,
    CQ_DISPATCH_CMD_WRITE_LINEAR = 1,
    CQ_DISPATCH_CMD_WRITE_LINEAR_H = 2,
    CQ_DISPATCH_CMD_WRITE_LINEAR_H_HOST = 3,
    CQ_DISPATCH_CMD_WRITE_PAGED = 4,
    CQ_DISPATCH_CMD_WRITE_PACKED = 5,
    CQ_DISPATCH_CMD_WRITE_PACKED_LARGE = 6,
    CQ_DISPATCH_CMD_WAIT = 7,
    CQ_DISPATCH_CMD_SINK = 8,
    CQ_DISPATCH_CMD_DEBUG = 9,
    CQ_DISPATCH_CMD_DELAY = 10,
    CQ_DISPATCH_CMD_EXEC_BUF_END = 11,
    CQ_DISPATCH_CMD_SET_WRITE_OFFSET = 12,
    CQ_DISPATCH_CMD_TERMINATE = 13,
    CQ_DISPATCH_CMD_SEND_GO_SIGNAL = 14,
    CQ_DISPATCH_NOTIFY_SUBORDINATE_GO_SIGNAL = 15,
    CQ_DISPATCH_SET_NUM_WORKER_SEMS = 16,
    CQ_DISPATCH_SET_GO_SIGNAL_NOC_DATA = 17,
    CQ_DISPATCH_CMD_TIMESTAMP = 18,     /* blackhole-py only */
    CQ_DISPATCH_CMD_MAX_COUNT
};

/* RELAY_INLINE dispatcher_type */
#define CQ_DISPATCH_MASTER      0
#define CQ_DISPATCH_SUBORDINATE 1

#define CQ_RELAY_PAGED_START_PAGE_MASK  0xffu
#define CQ_RELAY_PAGED_IS_DRAM_SHIFT    15
#define CQ_RELAY_PAGED_ADJUST_MASK      0x7fffu

#define CQ_PACKED_FLAG_MCAST            0x01u
#define CQ_PACKED_FLAG_NO_STRIDE        0x02u
#define CQ_PACKED_FLAG_TYPE_SHIFT       4
#define CQ_PACKED_LARGE_FLAG_UNLINK     0x01u
#define CQ_PACKED_LARGE_MAX_SUB_CMDS    35

#define CQ_WAIT_FLAG_BARRIER            0x01u
#define CQ_WAIT_FLAG_NOTIFY_PREFETCH    0x02u
#define CQ_WAIT_FLAG_WAIT_MEMORY        0x04u
#define CQ_WAIT_FLAG_WAIT_STREAM        0x08u
#define CQ_WAIT_FLAG_CLEAR_STREAM       0x10u

#define CQ_GO_NO_MULTICAST_OFFSET       0xffu
#define CQ_MAX_WRITE_OFFSETS            4

/* the 16-byte prefetcher command header */
typedef struct __attribute__((packed)) CQPrefetchRelayInline {
    uint8_t cmd_id;
    uint8_t dispatcher_type;
    uint16_t pad;
    uint32_t length;            /* payload bytes after the header */
    uint32_t stride;            /* header + payload, to the next command */
    uint32_t pad2;
} CQPrefetchRelayInline;

/* 32 bytes */
typedef struct __attribute__((packed)) CQPrefetchRelayLinear {
    uint8_t cmd_id;
    uint8_t pad1;
    uint16_t pad2;
    uint64_t length;
    uint32_t noc_xy_addr;
    uint64_t addr;
    uint8_t pad3[8];
} CQPrefetchRelayLinear;

typedef struct __attribute__((packed)) CQPrefetchRelayPaged {
    uint8_t cmd_id;
    uint8_t start_page;
    uint16_t is_dram_and_length_adjust;
    uint32_t base_addr;
    uint32_t page_size;
    uint32_t pages;
} CQPrefetchRelayPaged;

typedef struct __attribute__((packed)) CQPrefetchGeneric {
    uint8_t cmd_id;
    uint8_t pad;
    uint16_t key;
    uint32_t size;
    uint32_t stride;            /* DEBUG: to the next command */
    uint32_t pad2;
} CQPrefetchGeneric;

/* WRITE_LINEAR(_H): the only 32-byte dispatcher header */
typedef struct __attribute__((packed)) CQDispatchWriteLinear {
    uint8_t cmd_id;
    uint8_t num_mcast_dests;    /* 0: unicast */
    uint8_t write_offset_index;
    uint8_t pad1;
    uint32_t noc_xy_addr;
    uint64_t addr;
    uint64_t length;
    uint8_t pad2[8];
} CQDispatchWriteLinear;

typedef struct __attribute__((packed)) CQDispatchWriteHost {
    uint8_t cmd_id;
    uint8_t is_event;
    uint16_t pad1;
    uint32_t pad2;
    uint64_t length;            /* including this header */
} CQDispatchWriteHost;

typedef struct __attribute__((packed)) CQDispatchWritePaged {
    uint8_t cmd_id;
    uint8_t is_dram;
    uint16_t start_page;
    uint32_t base_addr;
    uint32_t page_size;
    uint32_t pages;
} CQDispatchWritePaged;

typedef struct __attribute__((packed)) CQDispatchWritePacked {
    uint8_t cmd_id;
    uint8_t flags;
    uint16_t count;
    uint16_t write_offset_index;
    uint16_t size;              /* bytes per destination */
    uint32_t addr;
    uint32_t pad;
} CQDispatchWritePacked;

/* sub-commands: unicast {noc_xy}, multicast {noc_xy, num_dests} */
typedef struct __attribute__((packed)) CQWritePackedMcastSub {
    uint32_t noc_xy_addr;
    uint32_t num_mcast_dests;
} CQWritePackedMcastSub;

typedef struct __attribute__((packed)) CQDispatchWritePackedLarge {
    uint8_t cmd_id;
    uint8_t type;
    uint16_t count;
    uint16_t alignment;
    uint16_t write_offset_index;
    uint8_t pad[8];
} CQDispatchWritePackedLarge;

typedef struct __attribute__((packed)) CQWritePackedLargeSub {
    uint32_t noc_xy_addr;
    uint32_t addr;
    uint16_t length_minus1;
    uint8_t num_mcast_dests;
    uint8_t flags;
} CQWritePackedLargeSub;

typedef struct __attribute__((packed)) CQDispatchWait {
    uint8_t cmd_id;
    uint8_t flags;
    uint16_t stream;
    uint32_t addr;
    uint32_t count;
    uint32_t pad;
} CQDispatchWait;

typedef struct __attribute__((packed)) CQDispatchDelay {
    uint8_t cmd_id;
    uint8_t pad1;
    uint16_t pad2;
    uint32_t delay;
    uint8_t pad3[8];
} CQDispatchDelay;

typedef struct __attribute__((packed)) CQDispatchSetWriteOffset {
    uint8_t cmd_id;
    uint8_t offset_count;       /* u32 offsets follow the header */
    uint16_t program_host_id;
    uint8_t pad[12];
} CQDispatchSetWriteOffset;

typedef struct __attribute__((packed)) CQDispatchGoSignal {
    uint8_t cmd_id;
    uint32_t go_signal;
    uint8_t multicast_go_offset;    /* CQ_GO_NO_MULTICAST_OFFSET: none */
    uint8_t num_unicast_txns;
    uint8_t noc_data_start_index;
    uint32_t wait_count;
    uint32_t wait_stream;
} CQDispatchGoSignal;

typedef struct __attribute__((packed)) CQDispatchNotifySub {
    uint8_t cmd_id;
    uint8_t wait;               /* write barrier first */
    uint16_t index_bitmask;
    uint32_t pad3;
    uint8_t pad[8];
} CQDispatchNotifySub;

typedef struct __attribute__((packed)) CQDispatchSetCount {
    uint8_t cmd_id;
    uint8_t pad1;
    uint16_t pad2;
    uint32_t value;             /* num_worker_sems / num_words */
    uint8_t pad[8];
} CQDispatchSetCount;

typedef struct __attribute__((packed)) CQDispatchTimestamp {
    uint8_t cmd_id;
    uint8_t pad1;
    uint16_t pad2;
    uint32_t noc_xy_addr;
    uint32_t addr;
    uint32_t pad3;
} CQDispatchTimestamp;

_Static_assert(sizeof(CQPrefetchRelayInline) == 16, "RELAY_INLINE");
_Static_assert(sizeof(CQPrefetchRelayLinear) == 32, "RELAY_LINEAR");
_Static_assert(sizeof(CQPrefetchRelayPaged) == 16, "RELAY_PAGED");
_Static_assert(sizeof(CQDispatchWriteLinear) == 32, "WRITE_LINEAR");
_Static_assert(sizeof(CQDispatchWriteHost) == 16, "WRITE_LINEAR_H_HOST");
_Static_assert(sizeof(CQDispatchWritePaged) == 16, "WRITE_PAGED");
_Static_assert(sizeof(CQDispatchWritePacked) == 16, "WRITE_PACKED");
_Static_assert(sizeof(CQDispatchWritePackedLarge) == 16, "PACKED_LARGE");
_Static_assert(sizeof(CQWritePackedLargeSub) == 12, "PACKED_LARGE sub");
_Static_assert(sizeof(CQDispatchWait) == 16, "WAIT");
_Static_assert(sizeof(CQDispatchGoSignal) == 16, "SEND_GO_SIGNAL");

/*
 * Host memory ("sysmem", blackhole-py d570394 cq.py): the dispatcher's
 * completion write pointer at +128, the host's read pointer at +192, the
 * issue region from +256, the completion region after it.  Device NOC addresses of sysmem
 * are CQ_SYSMEM_NOC + offset at the PCIe tile with NOC address bit 60
 * (the iATU window; unprogrammed regions map to the same host address).
 */
#define CQ_SYSMEM_NOC           0x40000000u
#define CQ_HOST_CQ_WR_OFF       (2 * CQ_PCIE_ALIGN)
#define CQ_HOST_CQ_RD_OFF       (3 * CQ_PCIE_ALIGN)
#define CQ_HOST_ISSUE_OFF       (4 * CQ_PCIE_ALIGN)
#define CQ_NOC_PCIE_MID         0x10000000u     /* bit 60 in TARG_MID */
#define CQ_PCIE_X               19              /* translated */
#define CQ_PCIE_Y               24

/* prefetch core */
#define CQ_PREFETCH_Q_RD_PTR    0x196c0u
#define CQ_PREFETCH_Q_PCIE_RD_PTR 0x196c4u
#define CQ_PREFETCH_Q_BASE      0x19840u
#define CQ_PREFETCH_Q_ENTRIES   1534        /* 0xbfc bytes of u16 */
#define CQ_PREFETCH_Q_STALL     0x8000u     /* entry flag: exec_buf stall */
#define CQ_CMDDAT_Q_BASE        0x1a440u
#define CQ_CMDDAT_Q_SIZE        (256u * 1024)
#define CQ_SCRATCH_DB_BASE      0x5a440u
#define CQ_SCRATCH_DB_SIZE      (128u * 1024)

/* dispatch core */
#define CQ_DEV_COMPLETION_WR_PTR 0x196d0u
#define CQ_DEV_COMPLETION_RD_PTR 0x196e0u
#define CQ_DISPATCH_S_SYNC_SEM  0x19710u    /* 16 bytes apart */
#define CQ_MAX_WORKER_SEMS      8
#define CQ_DISPATCH_CB_BASE     0x1a000u
#define CQ_DISPATCH_CB_LOG_PAGE 12
#define CQ_DISPATCH_CB_PAGES    128
#define CQ_DISPATCH_CB_BLOCKS   4
#define CQ_DISPATCH_S_CB_BASE   0x9a000u
#define CQ_DISPATCH_S_CB_LOG_PAGE 8
#define CQ_DISPATCH_S_CB_SIZE   (32u * 1024)
#define CQ_MAX_GO_NOC_DATA      256
#define CQ_PACKED_MAX_UNICAST   1020        /* sub-commands in one page */

/*
 * Semaphores, in the kernel configuration of each fast-dispatch core (16
 * bytes apart from sem_l1_base): on the prefetch core
 */
#define CQ_SEM_DOWNSTREAM_CB    0   /* dispatch_d CB pages free */
#define CQ_SEM_DISPATCH_S_CB    1   /* dispatch_s buffer pages free */
#define CQ_SEM_DOWNSTREAM_SYNC  2   /* dispatch_d's NOTIFY_PREFETCH count */
#define CQ_SEM_UPSTREAM_CB      3   /* split variants only */
/*
 * ... on the dispatch core.  blackhole-py's cq_fixed_config.hpp gives
 * dispatch_s semaphore 0 too; tt-metal creates one semaphore per kernel
 * on the shared core, so dispatch_s owns the next one.
 */
#define CQ_SEM_DISPATCH_CB      0   /* pages the prefetcher filled */
#define CQ_SEM_DISPATCH_S_PAGES 1
#define CQ_NUM_SEMS             4

/*
 * Status words of each fast-dispatch kernel (ours; tt-metal reports
 * through its watcher instead): on the prefetch core for the prefetcher,
 * on the dispatch core for dispatch_d and dispatch_s.
 */
#define CQ_STATUS_BASE          0x19600u
#define CQ_STATUS(role)         (CQ_STATUS_BASE + 16u * (role))
enum { CQ_ROLE_PREFETCH, CQ_ROLE_DISPATCH, CQ_ROLE_DISPATCH_S };
/* +0 error code, +4 argument, +8 command pointer, +12 commands done */
#define CQ_ST_ERROR             0
#define CQ_ST_ARG               4
#define CQ_ST_WHERE             8
#define CQ_ST_COUNT             12

/* +0 CQ_ST_ERROR: what a kernel stopped on; it processes nothing after */
enum {
    CQ_OK = 0,
    CQ_ERR_BAD_CMD,         /* unknown or unsupported command id (arg) */
    CQ_ERR_BAD_FETCH,       /* prefetch_q entry past cmddat_q/issue ring */
    CQ_ERR_BAD_STRIDE,      /* stride/length outside the fetched record */
    CQ_ERR_TOO_LONG,        /* payload larger than the ring it crosses */
    CQ_ERR_BAD_DEST,        /* NOC destination outside the grid (arg xy) */
    CQ_ERR_BAD_COUNT,       /* sub-command or word count past its limit */
    CQ_ERR_BAD_STREAM,      /* WAIT on a stream outside 48..55 */
    CQ_ERR_BAD_SIZE,        /* zero or misaligned size */
    CQ_ERR_COUNT
};

/* Runtime arguments of the three kernels (tools/runtime/tt-runtime.c) */
enum {
    CQ_RTA_MY_XY,           /* translated y << 6 | x */
    CQ_RTA_PEER_XY,         /* prefetch: dispatch core; dispatch: prefetch */
    CQ_RTA_PCIE_XY,
    CQ_RTA_NOC,             /* NOC this kernel uses */
    CQ_RTA_SYSMEM_NOC,      /* CQ_SYSMEM_NOC */
    CQ_RTA_ISSUE_SIZE,      /* issue region bytes (prefetch) */
    CQ_RTA_COMPLETION_SIZE, /* completion region bytes (dispatch) */
    CQ_RTA_GO_ADDR,         /* workers' go_messages[0] */
    CQ_RTA_MCAST_GRID,      /* workers' rectangle, this NOC's encoding */
    CQ_RTA_MCAST_DESTS,     /* tiles in it */
    CQ_RTA_COL_MASK,        /* translated Tensix columns (bit x) */
    CQ_RTA_NBANKS,          /* GDDR banks, their xy on this NOC follow */
    CQ_RTA_BANK_XY,
    CQ_RTA_COUNT = CQ_RTA_BANK_XY + 8
};

#endif
