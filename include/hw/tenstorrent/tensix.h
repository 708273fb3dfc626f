/*
 * Tenstorrent Blackhole Tensix coprocessor: one device per Tensix tile with
 * three threads, each fed by its TRISC (and by BRISC), and the units they
 * share.  The state lives here; the units are one file each
 * (hw/tenstorrent/tensix-<unit>.c, sharing the private tensix-common.h):
 * tensix.c (device), tensix-frontend.c (pushes, MOP and replay expanders,
 * wait gate, dispatch), tensix-sync.c, tensix-config.c, tensix-thcon.c,
 * tensix-adc.c, tensix-unpack.c, tensix-fpu.c, tensix-sfpu.c,
 * tensix-pack.c.
 *
 * Source: tenstorrent/tt-isa-documentation
 * BlackholeA0/TensixTile/TensixCoprocessor/ (WormholeB0 pages where the
 * Blackhole page defers to them).
 *
 * Locking: everything below is protected by @lock, one per tile, taken by
 * the core that pushes or accesses a window; never the BQL.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_TENSIX_H
#define HW_TENSTORRENT_TENSIX_H

#include "hw/sysbus.h"
#include "qemu/thread.h"
#include "hw/tenstorrent/grid.h"
/* generated: the core-local windows (TT_TILE_INSTRN_BUF_BASE, ...) */
#include "hw/tenstorrent/tt-tile-map.h"
/* generated: the configuration spaces' sizes and fields */
#include "hw/tenstorrent/tt-tensix-config.h"
#include "qom/object.h"

#define TYPE_TT_TENSIX "tt-tensix"
OBJECT_DECLARE_SIMPLE_TYPE(TTTensix, TT_TENSIX)

#define TT_TENSIX_THREADS       3
#define TT_TENSIX_QUEUE         4096    /* expanded instructions at the gate */
#define TT_TENSIX_FIFO_SOFT     28      /* words queued before pushers stall */
#define TT_TENSIX_FIFO          64      /* pushed words before the MOP stage */
#define TT_TENSIX_SEMS          8
#define TT_TENSIX_MUTEXES       5       /* indices 0, 2, 3, 4 exist on BH */
#define TT_TENSIX_GPRS          64
#define TT_TENSIX_CFG_WORDS     TT_CFG_WORDS
#define TT_TENSIX_GLOBAL_CFG    TT_CFG_GLOBAL_WORD0
#define TT_TENSIX_THREAD_CFG    TT_THCFG_WORDS
#define TT_TENSIX_MOP_CFG       9
#define TT_TENSIX_REPLAY        32
#define TT_TENSIX_PCBUF_DEPTH   16      /* PCBufs.md: 16 words per buffer */
#define TT_TENSIX_FLIPS         4       /* hand-overs in flight: 2 per Src */
#define TT_SRC_ROWS             64      /* SrcASrcB.md: 2 banks of 64 x 16 */
#define TT_DST_ROWS             1024    /* Dst.md: 1024 x 16 16-bit cells */
#define TT_ROW_DATUMS           16

typedef struct TTTensix TTTensix;

/* One core's view of the windows: knows who is accessing */
typedef struct TTTensixPort {
    TTTensix *t;
    int role;
    MemoryRegion push, pcbuf, gpr, cfg, mopcfg;
} TTTensixPort;

typedef struct TTTensixQueued {
    uint32_t insn;
    bool ends_push;             /* last instruction from one pushed word */
} TTTensixQueued;

/* The wait gate's latched wait instruction (STALLWAIT.md) */
typedef struct TTTensixLatch {
    uint8_t op;                 /* 0: none, else the wait's opcode */
    uint16_t cond, block;
    uint8_t sems, stream;
    uint32_t target;
} TTTensixLatch;

/* Address counters of one unpacker or the packers (ADCs.md) */
typedef struct TTTensixAdc {
    uint32_t val[2][4], cr[2][4];   /* [channel][X, Y, Z, W] */
} TTTensixAdc;

/* Register window counters (RWCs.md) */
typedef struct TTTensixRwc {
    uint16_t dst, dst_cr;
    uint16_t sp;        /* SFPLOAD/SFPSTORE MOD0_FMT_INT32_ALL stack pointer */
    uint8_t srca, srca_cr, srcb, srcb_cr, fidelity;
} TTTensixRwc;

/*
 * SrcA or SrcB (SrcASrcB.md): two banks of 64 x 16 19-bit cells.  A cell
 * is kept in FP32 order (sign 31, exponent 30:23, mantissa 22:13, bits
 * 12:0 zero), as ttsim keeps it, rather than the documentation's shuffled
 * {sign, mantissa, exponent}: only a bit cast could tell them apart.
 */
typedef struct TTTensixSrc {
    uint32_t cell[2][TT_SRC_ROWS][TT_ROW_DATUMS];
    uint8_t valid;              /* bit b: bank b belongs to the matrix unit */
    uint8_t unpack_bank;        /* Unpackers[i].SrcBank */
    uint8_t matrix_bank;        /* MatrixUnit.SrcABank / SrcBBank */
    uint8_t format[2];          /* each bank's implied format (unpacker's) */
    uint8_t row[3];             /* Unpackers[i].SrcRow[thread] */
    uint8_t context[3];         /* Unpackers[i].ContextCounter[thread] */
} TTTensixSrc;

/* The packer's output state between PACRs (PACR.md, Packers/) */
typedef struct TTTensixPacker {
    bool open;                  /* a PACR without Last started a group */
    uint32_t data, exp;         /* L1 bytes of the next datum, exponent */
    uint8_t tpg_x, tpg_y, tpg_z;    /* edge-mask tile position */
} TTTensixPacker;

/*
 * A MOP expansion in progress (MOPExpander.md): it emits one instruction
 * at a time as the queue behind it has room, from the configuration it
 * started with.
 */
typedef struct TTTensixMop {
    bool active;
    uint8_t tmpl;               /* template 0 or 1 */
    uint32_t cfg[TT_TENSIX_MOP_CFG];
    uint32_t mask;              /* template 0: zmask */
    uint32_t outer, inner;      /* iterations */
    uint32_t i, j;              /* outer iteration, position in it */
} TTTensixMop;

/*
 * The Vector Unit (SFPU, VectorUnit.md, LReg.md): 32 lanes of 32 bits.
 * Lane flags and the flag stack are a bit per lane; the flag enable
 * (UseLaneFlagsForLaneEnable) is kept once, as every instruction that
 * changes it does so in all lanes alike.  SFPCONFIG takes LaneConfig and
 * LoadMacroConfig from lanes 0-7 and broadcasts them vertically, so they
 * are kept per column (lane & 7).
 */
#define TT_SFPU_LANES           32
#define TT_SFPU_LREGS           17      /* 16: SFPLOADMACRO's staging LReg */
#define TT_SFPU_STACK           8       /* SFPPUSHC.md: eight entries */
#define TT_SFPU_COLS            8
#define TT_SFPU_SCHED           40      /* 4 sub-units x 8 delays, spare */
#define TT_SFPU_WB              64      /* LReg writes in flight */

/*
 * An instruction SFPLOADMACRO scheduled on the simple (0), MAD (1),
 * round (2) or store (3) sub-unit: the template word with its register
 * indices overridden, due when @count reaches 0 (SFPLOADMACRO.md)
 */
typedef struct TTTensixSfpSched {
    uint32_t w;
    uint16_t addr;              /* SFPSTORE: the SFPLOADMACRO's Dst address */
    uint8_t va, vb, vc, vd;
    uint8_t unit, count;
    bool by_insn;               /* counts instructions, not cycles */
    uint8_t thread;
} TTTensixSfpSched;

/* A scheduled instruction's LReg write, landing after @left cycles */
typedef struct TTTensixSfpWb {
    uint32_t v[TT_SFPU_LANES];
    uint32_t mask;
    uint8_t reg, left;
} TTTensixSfpWb;

/* The host vector instructions the datapath runs on (property "vector") */
enum { TT_VEC_NONE, TT_VEC_AVX2, TT_VEC_AVX512 };

/* A prepared SrcA face of the MVMUL fast path (tensix-fpu.c) */
#define TT_DOT_A_WAYS   4
#define TT_DOT_A_BYTES  (3 * 16 * 64)   /* slices, exponents, signs */
typedef struct TTDotAWay {
    const void *rows;           /* the first of its 16 SrcA rows */
    uint32_t gen, keep;
    uint8_t phase;
    bool valid;
} TTDotAWay;

typedef struct TTTensixSfpu {
    uint32_t lreg[TT_SFPU_LREGS][TT_SFPU_LANES];
    uint32_t flags;                     /* LaneFlags */
    bool use_flags;                     /* UseLaneFlagsForLaneEnable */
    uint8_t sp;                         /* flag stack depth */
    uint32_t stack_flags[TT_SFPU_STACK];
    bool stack_use[TT_SFPU_STACK];
    uint32_t lane_config[TT_SFPU_COLS];         /* 18 bits each */
    /*
     * Derived from lane_config (tt_sfpu_lane_config_changed(), not
     * migrated): per LaneConfig flag bit the lanes whose column sets it,
     * and the lanes ROW_MASK disables
     */
    uint32_t lc_lanes[9];
    uint32_t lc_rows_off;
    uint32_t lm_template[TT_SFPU_COLS][4];      /* LoadMacroConfig */
    uint32_t lm_sequence[TT_SFPU_COLS][4];
    uint16_t lm_misc[TT_SFPU_COLS];             /* 12 bits */
    bool lm_mixed;      /* derived: the columns' LoadMacroConfig differ */
    uint32_t prng[TT_SFPU_LANES];       /* VectorUnit.md "PRNG" */
    /* SFPLOADMACRO's pipeline: scheduled instructions, pending writes */
    TTTensixSfpSched sched[TT_SFPU_SCHED];
    uint8_t nsched, nwb;
    TTTensixSfpWb wb[TT_SFPU_WB];
    uint8_t wb_lat;             /* running a scheduled one: its latency */
    uint8_t thread;             /* the latest SFP instruction's thread */
} TTTensixSfpu;

/* Why a core is halted by the coprocessor, released when it clears */
enum {
    TT_WAIT_FIFO,               /* its push found the FIFO full */
    TT_WAIT_SYNC,               /* TTSync load: the thread must drain */
    TT_WAIT_MOP,                /* MOP sync load: the expander must idle */
    TT_WAIT_PCBUF,              /* TRISC PC buffer pop: buffer empty */
    TT_WAIT_PCBUF_FULL,         /* BRISC PC buffer push: buffer full */
    TT_WAIT_BARRIER,            /* BRISC PC buffer read: barrier */
    TT_WAIT_KINDS,
};

typedef struct TTTensixThread {
    /* words pushed before the MOP expander, not yet taken by it */
    uint32_t fifo[TT_TENSIX_FIFO];
    uint32_t fifo_head, fifo_count;
    TTTensixMop mop;
    uint64_t mop_enq;           /* "enqueued" when the expansion began */
    /* instructions past the replay expander, waiting at the gate */
    TTTensixQueued queue[TT_TENSIX_QUEUE];
    uint32_t head, count;
    uint64_t enqueued, dequeued;    /* in all, to find a push's last one */
    uint32_t pushes;            /* pushed words not yet fully executed */
    TTTensixLatch latch;
    uint32_t pcbuf[TT_TENSIX_PCBUF_DEPTH];  /* BRISC -> TRISC PC buffer */
    uint32_t pcbuf_head, pcbuf_count;

    uint32_t mop_cfg[TT_TENSIX_MOP_CFG];
    uint32_t mop_mask_hi;
    uint32_t replay[TT_TENSIX_REPLAY];
    uint32_t replay_pos, replay_left;   /* recording */
    bool replay_exec;                   /* execute while loading */

    uint32_t gpr[TT_TENSIX_GPRS];
    uint16_t thread_cfg[TT_TENSIX_THREAD_CFG];
    TTTensixAdc adc[3];         /* unpacker 0, unpacker 1, packers */
    TTTensixRwc rwc;

    uint64_t executed;
    int8_t pusher;              /* core that pushed the latest word, or -1 */
} TTTensixThread;

struct TTTensix {
    SysBusDevice parent_obj;

    QemuMutex lock;             /* the whole coprocessor: one per tile */
    bool reference;             /* plain datapath, for differential tests */
    char *vector;               /* host vector unit: auto, avx512, avx2, none */
    uint8_t vec;                /* ... as used: TT_VEC_* */
    TTTensixPort port[TT_CORES_PER_TILE];
    TTTensixThread th[TT_TENSIX_THREADS];
    uint8_t sem_val[TT_TENSIX_SEMS], sem_max[TT_TENSIX_SEMS];
    uint8_t mutex_owner[TT_TENSIX_MUTEXES]; /* thread + 1, or 0 when free */
    int8_t wait_kind[TT_CORES_PER_TILE];    /* TT_WAIT_*, -1: not halted */
    uint8_t wait_thread[TT_CORES_PER_TILE];
    /* roles whose store into wait_thread's full FIFO is to be redone */
    uint8_t redo_push;
    uint32_t cfg[2][TT_TENSIX_CFG_WORDS];
    uint64_t unimp[256];        /* decoded but not executed, per opcode */

    /* the datapath's register files (MatrixUnit.md) */
    TTTensixSrc src[2];         /* SrcA, SrcB */
    /*
     * Src hand-overs in flight (tensix-frontend.c, tt_src_defer()): an
     * unpacker instruction that finishes while its thread holds nothing
     * behind it hands its bank to the matrix unit only once the pushing
     * core has moved on.  flips[] holds them in order (SrcB << 1 | bank),
     * all from thread flip_thread (-1: none).
     */
    uint8_t flips[TT_TENSIX_FLIPS];
    uint8_t nflips;
    int8_t flip_thread;
    /* completes them once their core halts with nothing else running */
    QEMUTimer *flip_watch;
    /*
     * Not migrated, derived: a count per Src bank of the writes to it
     * (tt_src_changed()), and MVMUL's SrcA operands as the AVX-512 fast
     * path prepares them (tensix-fpu.c), valid while their bank's count
     * stands.  A phase's MVMULs read each SrcA face four times.
     */
    uint32_t src_gen[2][2];
    TTDotAWay dot_a[TT_DOT_A_WAYS];
    uint8_t dot_a_next;
    uint8_t dot_a_buf[TT_DOT_A_WAYS * TT_DOT_A_BYTES + 64];
    uint16_t dst[TT_DST_ROWS][TT_ROW_DATUMS];   /* DstBits (Dst.md) */
    bool dst_valid[TT_DST_ROWS];                /* DstRowValid */
    TTTensixPacker packer;
    TTTensixSfpu sfpu;
    MemoryRegion *l1_mr;        /* link "l1": the tile's L1, RAM */
    uint8_t *l1;                /* its host memory (reads only) */
    uint32_t l1_size;

    /* links */
    struct TTSpinTile *spin;    /* "spin": wakes the tile's parked cores */
    struct TTNocOverlay *overlay;   /* "overlay": streams, for STREAMWAIT */
    MemoryRegion *view;         /* "view": the tile's MMIO and L1 */
    CPUState *cpu[TT_CORES_PER_TILE];   /* "cpu0".."cpu4", by role */

    AddressSpace view_as;       /* @view, for LOADREG/STOREREG */
    uint8_t tile_x, tile_y;
};

/* Monitor: append the coprocessor's state (semaphores, threads) */
void tt_tensix_dump(TTTensix *t, GString *out);
/* What core @role waits on in the coprocessor (and on which thread) */
const char *tt_tensix_core_wait(TTTensix *t, int role, int *thread);
/* True if some thread holds instructions at its gate */
bool tt_tensix_blocked(TTTensix *t);

/* Append "NAME field=value,..." for Tensix instruction @w to @out */
void tt_tensix_disas(uint32_t w, GString *out);

/* Map core @role's windows into its root region (before the tile view) */
void tt_tensix_map(TTTensix *t, int role, MemoryRegion *root);

#endif
