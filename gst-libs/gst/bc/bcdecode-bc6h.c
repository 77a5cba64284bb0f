/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The BC6H block decoder (BPTC float: DXGI's BC6H_UF16 and BC6H_SF16) and
 * the public functions that decode BC6H to half floats and to PQ codes,
 * written from the BC6H section of the Khronos Data Format Specification
 * 1.4 and Microsoft's "BC6H Format" page:
 *
 * 1. the mode: the low two bits when they are 0 or 1, the low five bits
 *    otherwise; 19, 23, 27 and 31 are reserved and decode to (0, 0, 0, 1);
 * 2. the endpoints and the partition, scattered over bits 2 or 5 .. 81 (two
 *    regions) or 5 .. 64 (one region) as the mode's row of bc6h_modes says;
 * 3. sign extension (E0 when signed; the others when signed or transformed,
 *    from their delta bits when transformed), the transform (E1..E3 += E0,
 *    wrapped at the endpoint bits, then sign-extended again when signed);
 * 4. unquantization of the endpoints to 16 bits, the BPTC interpolation
 *    ((64 - w) * a + w * b + 32) >> 6, and the final scaling by 31/64
 *    (unsigned) or of the magnitude by 31/32 (signed) to half floats (a
 *    magnitude scaled to 0 is +0.0, as in Direct3D, where the KDFS's
 *    formula has -0.0);
 * 5. indices as in BC7: 3 bits a pixel for two regions (partitions 0..31
 *    of BC7's two-subset table), 4 for one, one bit less at each anchor.
 *
 * The modes are named by their mode number as the KDFS does (0, 1, 2, 6,
 * ..., 15); Microsoft numbers them 1 to 14 in the same order.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcdecode.h"
#include "bcdecode-private.h"
#include "bcencode-private.h"

#include <string.h>

#define F(f, a, b) {BC6H_ ## f, a, b}
#define END {BC6H_END, 0, 0}

/* Table "Block descriptions for BC6H block modes" of the KDFS: each mode's
 * fields after its mode bits, named by Microsoft's mode numbers */

/* mode 1 (KDFS 0) */
static const Bc6hSegment bc6h_layout1[] = {
  F (G2, 4, 4), F (B2, 4, 4), F (B3, 4, 4), F (R0, 9, 0), F (G0, 9, 0),
  F (B0, 9, 0), F (R1, 4, 0), F (G3, 4, 4), F (G2, 3, 0), F (G1, 4, 0),
  F (B3, 0, 0), F (G3, 3, 0), F (B1, 4, 0), F (B3, 1, 1), F (B2, 3, 0),
  F (R2, 4, 0), F (B3, 2, 2), F (R3, 4, 0), F (B3, 3, 3), F (PB, 4, 0), END,
};

/* mode 2 (KDFS 1) */
static const Bc6hSegment bc6h_layout2[] = {
  F (G2, 5, 5), F (G3, 4, 4), F (G3, 5, 5), F (R0, 6, 0), F (B3, 0, 0),
  F (B3, 1, 1), F (B2, 4, 4), F (G0, 6, 0), F (B2, 5, 5), F (B3, 2, 2),
  F (G2, 4, 4), F (B0, 6, 0), F (B3, 3, 3), F (B3, 5, 5), F (B3, 4, 4),
  F (R1, 5, 0), F (G2, 3, 0), F (G1, 5, 0), F (G3, 3, 0), F (B1, 5, 0),
  F (B2, 3, 0), F (R2, 5, 0), F (R3, 5, 0), F (PB, 4, 0), END,
};

/* mode 3 (KDFS 2) */
static const Bc6hSegment bc6h_layout3[] = {
  F (R0, 9, 0), F (G0, 9, 0), F (B0, 9, 0), F (R1, 4, 0), F (R0, 10, 10),
  F (G2, 3, 0), F (G1, 3, 0), F (G0, 10, 10), F (B3, 0, 0), F (G3, 3, 0),
  F (B1, 3, 0), F (B0, 10, 10), F (B3, 1, 1), F (B2, 3, 0), F (R2, 4, 0),
  F (B3, 2, 2), F (R3, 4, 0), F (B3, 3, 3), F (PB, 4, 0), END,
};

/* mode 4 (KDFS 6) */
static const Bc6hSegment bc6h_layout4[] = {
  F (R0, 9, 0), F (G0, 9, 0), F (B0, 9, 0), F (R1, 3, 0), F (R0, 10, 10),
  F (G3, 4, 4), F (G2, 3, 0), F (G1, 4, 0), F (G0, 10, 10), F (G3, 3, 0),
  F (B1, 3, 0), F (B0, 10, 10), F (B3, 1, 1), F (B2, 3, 0), F (R2, 3, 0),
  F (B3, 0, 0), F (B3, 2, 2), F (R3, 3, 0), F (G2, 4, 4), F (B3, 3, 3),
  F (PB, 4, 0), END,
};

/* mode 5 (KDFS 10) */
static const Bc6hSegment bc6h_layout5[] = {
  F (R0, 9, 0), F (G0, 9, 0), F (B0, 9, 0), F (R1, 3, 0), F (R0, 10, 10),
  F (B2, 4, 4), F (G2, 3, 0), F (G1, 3, 0), F (G0, 10, 10), F (B3, 0, 0),
  F (G3, 3, 0), F (B1, 4, 0), F (B0, 10, 10), F (B2, 3, 0), F (R2, 3, 0),
  F (B3, 1, 1), F (B3, 2, 2), F (R3, 3, 0), F (B3, 4, 4), F (B3, 3, 3),
  F (PB, 4, 0), END,
};

/* mode 6 (KDFS 14) */
static const Bc6hSegment bc6h_layout6[] = {
  F (R0, 8, 0), F (B2, 4, 4), F (G0, 8, 0), F (G2, 4, 4), F (B0, 8, 0),
  F (B3, 4, 4), F (R1, 4, 0), F (G3, 4, 4), F (G2, 3, 0), F (G1, 4, 0),
  F (B3, 0, 0), F (G3, 3, 0), F (B1, 4, 0), F (B3, 1, 1), F (B2, 3, 0),
  F (R2, 4, 0), F (B3, 2, 2), F (R3, 4, 0), F (B3, 3, 3), F (PB, 4, 0), END,
};

/* mode 7 (KDFS 18) */
static const Bc6hSegment bc6h_layout7[] = {
  F (R0, 7, 0), F (G3, 4, 4), F (B2, 4, 4), F (G0, 7, 0), F (B3, 2, 2),
  F (G2, 4, 4), F (B0, 7, 0), F (B3, 3, 3), F (B3, 4, 4), F (R1, 5, 0),
  F (G2, 3, 0), F (G1, 4, 0), F (B3, 0, 0), F (G3, 3, 0), F (B1, 4, 0),
  F (B3, 1, 1), F (B2, 3, 0), F (R2, 5, 0), F (R3, 5, 0), F (PB, 4, 0), END,
};

/* mode 8 (KDFS 22) */
static const Bc6hSegment bc6h_layout8[] = {
  F (R0, 7, 0), F (B3, 0, 0), F (B2, 4, 4), F (G0, 7, 0), F (G2, 5, 5),
  F (G2, 4, 4), F (B0, 7, 0), F (G3, 5, 5), F (B3, 4, 4), F (R1, 4, 0),
  F (G3, 4, 4), F (G2, 3, 0), F (G1, 5, 0), F (G3, 3, 0), F (B1, 4, 0),
  F (B3, 1, 1), F (B2, 3, 0), F (R2, 4, 0), F (B3, 2, 2), F (R3, 4, 0),
  F (B3, 3, 3), F (PB, 4, 0), END,
};

/* mode 9 (KDFS 26) */
static const Bc6hSegment bc6h_layout9[] = {
  F (R0, 7, 0), F (B3, 1, 1), F (B2, 4, 4), F (G0, 7, 0), F (B2, 5, 5),
  F (G2, 4, 4), F (B0, 7, 0), F (B3, 5, 5), F (B3, 4, 4), F (R1, 4, 0),
  F (G3, 4, 4), F (G2, 3, 0), F (G1, 4, 0), F (B3, 0, 0), F (G3, 3, 0),
  F (B1, 5, 0), F (B2, 3, 0), F (R2, 4, 0), F (B3, 2, 2), F (R3, 4, 0),
  F (B3, 3, 3), F (PB, 4, 0), END,
};

/* mode 10 (KDFS 30) */
static const Bc6hSegment bc6h_layout10[] = {
  F (R0, 5, 0), F (G3, 4, 4), F (B3, 0, 0), F (B3, 1, 1), F (B2, 4, 4),
  F (G0, 5, 0), F (G2, 5, 5), F (B2, 5, 5), F (B3, 2, 2), F (G2, 4, 4),
  F (B0, 5, 0), F (G3, 5, 5), F (B3, 3, 3), F (B3, 5, 5), F (B3, 4, 4),
  F (R1, 5, 0), F (G2, 3, 0), F (G1, 5, 0), F (G3, 3, 0), F (B1, 5, 0),
  F (B2, 3, 0), F (R2, 5, 0), F (R3, 5, 0), F (PB, 4, 0), END,
};

/* mode 11 (KDFS 3) */
static const Bc6hSegment bc6h_layout11[] = {
  F (R0, 9, 0), F (G0, 9, 0), F (B0, 9, 0), F (R1, 9, 0), F (G1, 9, 0),
  F (B1, 9, 0), END,
};

/* mode 12 (KDFS 7) */
static const Bc6hSegment bc6h_layout12[] = {
  F (R0, 9, 0), F (G0, 9, 0), F (B0, 9, 0), F (R1, 8, 0), F (R0, 10, 10),
  F (G1, 8, 0), F (G0, 10, 10), F (B1, 8, 0), F (B0, 10, 10), END,
};

/* mode 13 (KDFS 11) */
static const Bc6hSegment bc6h_layout13[] = {
  F (R0, 9, 0), F (G0, 9, 0), F (B0, 9, 0), F (R1, 7, 0), F (R0, 10, 11),
  F (G1, 7, 0), F (G0, 10, 11), F (B1, 7, 0), F (B0, 10, 11), END,
};

/* mode 14 (KDFS 15) */
static const Bc6hSegment bc6h_layout14[] = {
  F (R0, 9, 0), F (G0, 9, 0), F (B0, 9, 0), F (R1, 3, 0), F (R0, 10, 15),
  F (G1, 3, 0), F (G0, 10, 15), F (B1, 3, 0), F (B0, 10, 15), END,
};

/* Table "Endpoint and partition parameters for BPTC block modes" of the
 * KDFS, in Microsoft's order (modes 1 to 14) */
const Bc6hMode bc6h_modes[14] = {
  {0, 2, 2, 1, 10, {5, 5, 5}, bc6h_layout1},
  {1, 2, 2, 1, 7, {6, 6, 6}, bc6h_layout2},
  {2, 5, 2, 1, 11, {5, 4, 4}, bc6h_layout3},
  {6, 5, 2, 1, 11, {4, 5, 4}, bc6h_layout4},
  {10, 5, 2, 1, 11, {4, 4, 5}, bc6h_layout5},
  {14, 5, 2, 1, 9, {5, 5, 5}, bc6h_layout6},
  {18, 5, 2, 1, 8, {6, 5, 5}, bc6h_layout7},
  {22, 5, 2, 1, 8, {5, 6, 5}, bc6h_layout8},
  {26, 5, 2, 1, 8, {5, 5, 6}, bc6h_layout9},
  {30, 5, 2, 0, 6, {6, 6, 6}, bc6h_layout10},
  {3, 5, 1, 0, 10, {10, 10, 10}, bc6h_layout11},
  {7, 5, 1, 1, 11, {9, 9, 9}, bc6h_layout12},
  {11, 5, 1, 1, 12, {8, 8, 8}, bc6h_layout13},
  {15, 5, 1, 1, 16, {4, 4, 4}, bc6h_layout14},
};

#undef F
#undef END

/* the row of bc6h_modes for each 5-bit value of the low bits (2-bit modes
 * repeat every 4 values), -1 for the reserved modes */
static const gint8 bc6h_mode_index[32] = {
  0, 1, 2, 10, 0, 1, 3, 11, 0, 1, 4, 12, 0, 1, 5, 13,
  0, 1, 6, -1, 0, 1, 7, -1, 0, 1, 8, -1, 0, 1, 9, -1,
};

static inline gint
sign_extend (guint v, guint n_bits)
{
  guint sign = 1u << (n_bits - 1);

  v &= (sign << 1) - 1;
  return (gint) (v ^ sign) - (gint) sign;
}

/* floor (@v / 64), for negative @v too */
static inline gint
floor_div64 (gint v)
{
  return v >= 0 ? v / 64 : -((-v + 63) / 64);
}

/* The interpolation and the final scaling to a half float's bits. A
 * negative value whose scaled magnitude is 0 (-1 only) is +0.0 as in
 * Direct3D's finish_unquantize(), which scales the signed value before it
 * takes the sign; the KDFS formula would give -0.0 (0x8000), the same
 * number. */
static inline guint16
finish (gint a, gint b, guint w, gboolean is_signed)
{
  gint i = floor_div64 (a * (64 - (gint) w) + b * (gint) w + 32);
  guint magnitude;

  if (!is_signed)
    return (guint16) ((i * 31) >> 6);
  if (i >= 0)
    return (guint16) ((i * 31) >> 5);
  magnitude = (guint) (((-i) * 31) >> 5);
  return (guint16) (magnitude ? magnitude | 0x8000 : 0);
}

/**
 * bc_decode_bc6h_half:
 * @block: one 16-byte BC6H block
 * @is_signed: %TRUE for BC6H_SF16, %FALSE for BC6H_UF16
 * @rgba: (out): the 16 pixels, row-major, each R, G, B as half floats and
 *     alpha 1.0 (0x3c00)
 */
void
bc_decode_bc6h_half (const guint8 * block, gboolean is_signed, guint16 rgba[64])
{
  const Bc6hMode *m;
  const guint8 *subsets;
  const guint8 *weights;
  BcBptcBits bits;
  guint fields[13] = { 0, };
  gint ep[12];
  guint mode, anchor, ib, i, c, s;
  gint index;
  guint64 w;

  bc_bptc_bits_init (&bits, block);

  mode = (guint) (bits.lo & 0x1f);
  index = bc6h_mode_index[mode];
  if (index < 0) {
    for (i = 0; i < 16; i++) {
      rgba[i * 4 + 0] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = 0;
      rgba[i * 4 + 3] = 0x3c00;
    }
    return;
  }
  m = &bc6h_modes[index];
  bits.pos = m->mode_bits;

  for (i = 0; m->layout[i].field != BC6H_END; i++) {
    const Bc6hSegment *sg = &m->layout[i];
    guint v, n;

    if (sg->a >= sg->b) {
      n = sg->a - sg->b + 1;
      fields[sg->field] |= bc_bptc_bits_read (&bits, n) << sg->b;
    } else {
      guint k;

      n = sg->b - sg->a + 1;
      v = bc_bptc_bits_read (&bits, n);
      for (k = 0; k < n; k++)
        fields[sg->field] |= ((v >> k) & 1u) << (sg->b - k);
    }
  }

  /* sign extension and the transform */
  for (c = 0; c < 3; c++) {
    guint n_ep = m->regions * 2;
    guint e;

    ep[c] = is_signed ? sign_extend (fields[c], m->epb) : (gint) fields[c];
    for (e = 1; e < n_ep; e++) {
      guint v = fields[e * 3 + c];
      gint x;

      if (m->transformed) {
        x = sign_extend (v, m->delta[c]);
        x = (ep[c] + x) & ((1 << m->epb) - 1);
        if (is_signed)
          x = sign_extend ((guint) x, m->epb);
      } else {
        x = is_signed ? sign_extend (v, m->epb) : (gint) v;
      }
      ep[e * 3 + c] = x;
    }
    for (e = 0; e < n_ep; e++)
      ep[e * 3 + c] = gst_bc6h_unquantize (ep[e * 3 + c], m->epb,
          is_signed);
  }

  if (m->regions == 2) {
    guint partition = fields[BC6H_PB];

    subsets = bc7_partitions2[partition];
    anchor = bc7_anchors2[partition];
    ib = 3;
    weights = bc_bptc_weights3;
  } else {
    static const guint8 one_region[16] = { 0, };

    subsets = one_region;
    anchor = 0;
    ib = 4;
    weights = bc_bptc_weights4;
  }

  /* the indices: the last 46 (from bit 82) or 63 (from bit 65) bits */
  w = bits.hi >> (m->regions == 2 ? 82 - 64 : 65 - 64);
  for (i = 0; i < 16; i++) {
    guint n = (i == 0 || i == anchor) ? ib - 1 : ib;
    guint idx = (guint) (w & ((1u << n) - 1));
    const gint *e0, *e1;

    w >>= n;
    s = subsets[i];
    e0 = ep + s * 6;
    e1 = e0 + 3;
    for (c = 0; c < 3; c++)
      rgba[i * 4 + c] = finish (e0[c], e1[c], weights[idx], is_signed);
    rgba[i * 4 + 3] = 0x3c00;
  }
}

/* ---------------------------------------------------------------------- */
/* Public API: half floats and PQ                                          */
/* ---------------------------------------------------------------------- */

/**
 * gst_bc_decode_block_half:
 * @format: %GST_BC_FORMAT_BC6H or %GST_BC_FORMAT_BC6H_SF
 * @block: (array fixed-size=16): one block
 * @rgba: (out caller-allocates) (array fixed-size=64): the 16 decoded
 *     pixels, row-major, each red, green, blue and alpha as the bits of a
 *     half float (alpha is always 1.0, 0x3c00)
 *
 * Decodes one BC6H block to half floats, bit-exactly as the BPTC float
 * decoding of the Khronos Data Format Specification.
 *
 * Returns: %FALSE (and leaves @rgba untouched) for other formats.
 */
gboolean
gst_bc_decode_block_half (GstBcFormat format, const guint8 * block,
    guint16 rgba[64])
{
  g_return_val_if_fail (block != NULL, FALSE);
  g_return_val_if_fail (rgba != NULL, FALSE);

  if (!gst_bc_format_is_float (format))
    return FALSE;
  bc_decode_bc6h_half (block, format == GST_BC_FORMAT_BC6H_SF, rgba);
  return TRUE;
}

static inline void
put_u16_le (guint8 * p, guint v)
{
  p[0] = (guint8) (v & 0xff);
  p[1] = (guint8) (v >> 8);
}

/* BC6H block rows into 8-byte pixels: the half floats as they are (@pq
 * NULL), or their PQ codes from the table @pq with alpha 65535 */
static void
decode_rows_16 (GstBcFormat format, const guint8 * src, guint width,
    guint height, guint first_block_row, guint n_block_rows, guint8 * dst,
    gsize dst_stride, const guint16 * pq)
{
  gboolean is_signed = format == GST_BC_FORMAT_BC6H_SF;
  guint blocks_x, blocks_y, by, bx, x, y, c;
  gsize row_bytes;
  guint16 half[64];

  g_return_if_fail (gst_bc_format_is_float (format));
  g_return_if_fail (src != NULL);
  g_return_if_fail (dst != NULL);
  g_return_if_fail (width > 0 && height > 0);
  g_return_if_fail (dst_stride >= (gsize) width * 8);

  blocks_x = (width + 3) / 4;
  blocks_y = (height + 3) / 4;
  g_return_if_fail (first_block_row <= blocks_y);
  g_return_if_fail (n_block_rows <= blocks_y - first_block_row);
  row_bytes = (gsize) blocks_x *16;

  for (by = first_block_row; by < first_block_row + n_block_rows; by++) {
    const guint8 *block = src + by * row_bytes;
    guint rows = MIN (4, height - by * 4);
    guint8 *out = dst + (gsize) by * 4 * dst_stride;

    for (bx = 0; bx < blocks_x; bx++, block += 16, out += 32) {
      guint cols = MIN (4, width - bx * 4);

      bc_decode_bc6h_half (block, is_signed, half);
      for (y = 0; y < rows; y++) {
        const guint16 *p = half + y * 16;
        guint8 *d = out + y * dst_stride;

        for (x = 0; x < cols; x++, p += 4, d += 8) {
          if (pq) {
            for (c = 0; c < 3; c++)
              put_u16_le (d + 2 * c, pq[p[c]]);
            put_u16_le (d + 6, 0xffff);
          } else {
            for (c = 0; c < 4; c++)
              put_u16_le (d + 2 * c, p[c]);
          }
        }
      }
    }
  }
}

/**
 * gst_bc_decode_rows_half:
 * @format: %GST_BC_FORMAT_BC6H or %GST_BC_FORMAT_BC6H_SF
 * @src: (array): the start of a whole frame: block rows of
 *     `ceil (@width / 4)` blocks each, top to bottom
 * @width: visible width of the frame in pixels
 * @height: visible height of the frame in pixels
 * @first_block_row: first block row to decode
 * @n_block_rows: number of block rows to decode
 * @dst: the start of the whole visible output picture
 * @dst_stride: bytes from one pixel row of @dst to the next
 *
 * Decodes block rows as gst_bc_decode_rows() does, into pixels of four
 * little-endian half floats (red, green, blue, alpha 1.0): 8 bytes a
 * pixel.
 */
void
gst_bc_decode_rows_half (GstBcFormat format, const guint8 * src,
    guint width, guint height, guint first_block_row, guint n_block_rows,
    guint8 * dst, gsize dst_stride)
{
  decode_rows_16 (format, src, width, height, first_block_row, n_block_rows,
      dst, dst_stride, NULL);
}

/**
 * gst_bc_decode_rows_pq:
 * @format: %GST_BC_FORMAT_BC6H or %GST_BC_FORMAT_BC6H_SF
 * @src: (array): the start of a whole frame: block rows of
 *     `ceil (@width / 4)` blocks each, top to bottom
 * @width: visible width of the frame in pixels
 * @height: visible height of the frame in pixels
 * @first_block_row: first block row to decode
 * @n_block_rows: number of block rows to decode
 * @dst: the start of the whole visible output picture
 * @dst_stride: bytes from one pixel row of @dst to the next
 *
 * Decodes block rows as gst_bc_decode_rows() does, into RGBA64_LE pixels
 * whose red, green and blue are full-range SMPTE ST 2084 (PQ) codes
 * (gst_bc_hdr_pq_from_half()) and alpha 65535.
 */
void
gst_bc_decode_rows_pq (GstBcFormat format, const guint8 * src,
    guint width, guint height, guint first_block_row, guint n_block_rows,
    guint8 * dst, gsize dst_stride)
{
  decode_rows_16 (format, src, width, height, first_block_row, n_block_rows,
      dst, dst_stride, bc_hdr_get_pq_table ());
}
