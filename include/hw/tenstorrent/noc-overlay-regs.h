/*
 * Tenstorrent Blackhole NOC overlay stream registers: the layout the model
 * (noc-overlay.c), the qtests and the test firmware share.  Plain C.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_NOC_OVERLAY_REGS_H
#define HW_TENSTORRENT_NOC_OVERLAY_REGS_H

/* tt-metal blackhole/noc/noc_overlay_parameters.h, stream_interface.h */
#define TT_STREAMS                  64
#define TT_STREAM_STRIDE            0x1000
#define TT_STREAM_REGS              304     /* indexes 0..303 stored */
#define TT_STREAM_BUF_START         8       /* CB tiles_acked */
#define TT_STREAM_BUF_SIZE          10      /* CB tiles_received */
#define TT_STREAM_SPACE_UPDATE      270     /* write-only */
#define TT_STREAM_SPACE_AVAILABLE   297     /* read-only */
#define TT_STREAM_WORDS_FREE_SHIFT  6       /* REMOTE_DEST_BUF_WORDS_FREE_INC */
#define TT_STREAM_WORDS_MASK        0x1ffffu
#define TT_STREAM_MSG_SHIFT         23      /* ..._MSG_INFO_..._FREE_INC */
#define TT_STREAM_MSG_MASK          0x1ffu
#define TT_STREAM_AVAIL_MSG_SHIFT   17

#endif
