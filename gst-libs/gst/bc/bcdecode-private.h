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

/* Appends the low @n (0 to 32) bits of @v, least significant first */
static inline void
bc_bptc_bits_write (BcBptcBits * bits, guint32 v, guint n)
{
  guint64 x;

  if (n == 0)
    return;
  x = (guint64) v & ((G_GUINT64_CONSTANT (1) << n) - 1);
  if (bits->pos >= 64) {
    bits->hi |= x << (bits->pos - 64);
  } else {
    bits->lo |= x << bits->pos;
    if (bits->pos + n > 64)
      bits->hi |= x >> (64 - bits->pos);
  }
  bits->pos += n;
}

/* The 16 bytes of @bits, little-endian */
static inline void
bc_bptc_bits_store (const BcBptcBits * bits, guint8 * block)
{
  guint i;

  for (i = 0; i < 8; i++) {
    block[i] = (guint8) (bits->lo >> (8 * i));
    block[8 + i] = (guint8) (bits->hi >> (8 * i));
  }
}

/* BC6H's modes, for the decoder (bcdecode-bc6h.c) and the encoder
 * (bcencode-bc6h.c) */

/* the fields of a mode's header: endpoint component (endpoint * 3 +
 * channel: R0 G0 B0 R1 G1 B1 R2 G2 B2 R3 G3 B3) or the partition */
enum
{
  BC6H_R0, BC6H_G0, BC6H_B0,
  BC6H_R1, BC6H_G1, BC6H_B1,
  BC6H_R2, BC6H_G2, BC6H_B2,
  BC6H_R3, BC6H_G3, BC6H_B3,
  BC6H_PB,
  BC6H_END,                     /* the end of a layout */
};

/* "v^a..b" of the KDFS block descriptions: the next |a - b| + 1 bits of the
 * block go to bits b, then towards a, of field v (a < b: reversed) */
typedef struct
{
  guint8 field;
  guint8 a;
  guint8 b;
} Bc6hSegment;

typedef struct
{
  guint8 mode;                  /* the mode number */
  guint8 mode_bits;             /* 2 or 5 */
  guint8 regions;               /* 1 or 2 */
  guint8 transformed;           /* E1..E3 are deltas from E0 */
  guint8 epb;                   /* endpoint bits */
  guint8 delta[3];              /* delta bits of R, G, B when transformed */
  const Bc6hSegment *layout;    /* after the mode bits, in order */
} Bc6hMode;

/* Table "Endpoint and partition parameters for BPTC block modes" of the
 * KDFS, in Microsoft's order (modes 1 to 14): rows 0 to 9 have two
 * regions, 10 to 13 one (bcdecode-bc6h.c) */
G_GNUC_INTERNAL extern const Bc6hMode bc6h_modes[14];

/* bcdecode-bc6h.c */
G_GNUC_INTERNAL void bc_decode_bc6h_half (const guint8 * block,
    gboolean is_signed, guint16 rgba[64]);

/* bchdr.c: the PQ code of every half float's bits (65536 entries) */
G_GNUC_INTERNAL const guint16 *bc_hdr_get_pq_table (void);

/* BC6H: KDFS unquantization of an endpoint component of @epb bits to 16
 * bits (unsigned: 0..0xffff, signed: -0x7fff..0x7fff, or -0x8000 with 16
 * bits); the decoder's and the encoder's */
static inline gint
gst_bc6h_unquantize (gint x, guint epb, gboolean is_signed)
{
  gboolean negative = FALSE;
  gint unq;

  if (!is_signed) {
    if (epb >= 15)
      return x;
    if (x == 0)
      return 0;
    if (x == (1 << epb) - 1)
      return 0xffff;
    return ((x << 15) + 0x4000) >> (epb - 1);
  }

  if (epb >= 16)
    return x;
  if (x < 0) {
    negative = TRUE;
    x = -x;
  }
  if (x == 0)
    unq = 0;
  else if (x >= (1 << (epb - 1)) - 1)
    unq = 0x7fff;
  else
    unq = ((x << 15) + 0x4000) >> (epb - 1);
  return negative ? -unq : unq;
}

G_END_DECLS

#endif /* __GST_BC_DECODE_PRIVATE_H__ */
