/*
 * Tenstorrent Blackhole Tensix number formats: row converters, the
 * per-datum conversions of tensix-formats.c applied to a run of datums
 * with the format decisions taken once (the unpackers' and packer's fast
 * paths).  The per-datum interface is in tensix-common.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_TENSTORRENT_TENSIX_FORMATS_H
#define HW_TENSTORRENT_TENSIX_FORMATS_H

#include "tensix-common.h"

/* tt_fmt_unpack of @n datums of whole bytes at @l1, all with @exp */
typedef void TTUnpackRowFn(const uint8_t *l1, uint32_t *val, unsigned n,
                           uint8_t exp);

/*
 * The row converter of @in -> @out, or NULL where there is none (formats
 * under a byte, flag-dependent ones, or where tt_fmt_unpack may refuse).
 */
TTUnpackRowFn *tt_fmt_unpack_row(unsigned in, unsigned out, bool to_dst);

/* tt_fmt_pack of @n Dst values */
typedef void TTPackRowFn(const TTPackFormat *f, const uint32_t *raw,
                         uint32_t *val, unsigned n);

/*
 * The row converter of @f's mode (Read_32b_data, In, Out), or NULL if
 * Blackhole has no such mode; tt_fmt_pack_supported also checks flags.
 */
TTPackRowFn *tt_fmt_pack_row(const TTPackFormat *f);

#endif
