/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Internal to libgstbc: the BC6H block decoder (bcdecode-bc6h.c) and the
 * HDR tables (bchdr.c) that bcdecode.c puts together, and what the BPTC
 * decoders of BC7 (bcdecode.c) and BC6H share: the interpolation weights
 * and the reader of a block's bits. */

#ifndef __GST_BC_DECODE_PRIVATE_H__
#define __GST_BC_DECODE_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

/* BPTC interpolation weights of 2-, 3- and 4-bit indices (BC7 and BC6H):
 * a pixel is ((64 - w) * e0 + w * e1 + 32) >> 6 */
static const guint8 bc_bptc_weights2[4] = { 0, 21, 43, 64 };
static const guint8 bc_bptc_weights3[8] = { 0, 9, 18, 27, 37, 46, 55, 64 };

static const guint8 bc_bptc_weights4[16] = {
  0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64
};

/* A 128-bit block read from its least significant bit on */
typedef struct
{
  guint64 lo, hi;
  guint pos;
} BcBptcBits;

/* Starts reading the 16-byte @block at bit 0 */
static inline void
bc_bptc_bits_init (BcBptcBits * bits, const guint8 * block)
{
  guint i;

  bits->lo = bits->hi = 0;
  for (i = 0; i < 8; i++) {
    bits->lo |= (guint64) block[i] << (8 * i);
    bits->hi |= (guint64) block[8 + i] << (8 * i);
  }
  bits->pos = 0;
}

/* Reads the next @n (0 to 16) bits, least significant first */
static inline guint
bc_bptc_bits_read (BcBptcBits * bits, guint n)
{
  guint64 v;
  guint pos = bits->pos;

  if (n == 0)
    return 0;
  if (pos >= 64)
    v = bits->hi >> (pos - 64);
  else if (pos + n <= 64)
    v = bits->lo >> pos;
  else
    v = (bits->lo >> pos) | (bits->hi << (64 - pos));
  bits->pos = pos + n;
  return (guint) (v & ((1u << n) - 1));
}

/* The 64 bits from bit @pos on (zero-filled past the end) */
static inline guint64
bc_bptc_bits_window (const BcBptcBits * bits, guint pos)
{
  if (pos == 0)
    return bits->lo;
  if (pos >= 64)
    return bits->hi >> (pos - 64);
  return (bits->lo >> pos) | (bits->hi << (64 - pos));
}

/* bcdecode-bc6h.c */
G_GNUC_INTERNAL void bc_decode_bc6h_half (const guint8 * block,
    gboolean is_signed, guint16 rgba[64]);

/* bchdr.c: the PQ code of every half float's bits (65536 entries) */
G_GNUC_INTERNAL const guint16 *bc_hdr_get_pq_table (void);

G_END_DECLS

#endif /* __GST_BC_DECODE_PRIVATE_H__ */
