/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstbcdecode
 * @title: Block decoding
 * @short_description: decode block-compressed frames to packed RGB(A)
 *
 * gst_bc_decode_block() expands one 4x4 block of any #GstBcFormat into 16
 * RGBA pixels; gst_bc_decode_rows() decodes a range of block rows of a whole
 * frame straight into a packed 8-bit RGB(A) picture, cropping the padding
 * of the last block column and row. BC6H (%GST_BC_FORMAT_BC6H,
 * %GST_BC_FORMAT_BC6H_SF) holds half floats: gst_bc_decode_block_half()
 * and gst_bc_decode_rows_half() give them as they are,
 * gst_bc_decode_rows_pq() as 16-bit PQ codes (RGBA64_LE), and the 8-bit
 * functions through the SDR tone curve of gst_bc_hdr_tone_map().
 *
 * The decoders use exact integer arithmetic, so every decoder following
 * the same rules gives the same bytes:
 *
 * - BC1 endpoints expand from RGB565 by bit replication; the two
 *   interpolated colours are `(2 * c0 + c1) / 3` and `(c0 + 2 * c1) / 3`
 *   (truncated) when `c0 > c1`, otherwise the block is in 3-colour mode with
 *   `(c0 + c1) / 2` and black. BC1 is opaque RGB: alpha is always 255.
 * - The colour half of BC3 is always decoded in 4-colour mode (the
 *   Direct3D rule), whatever the order of its endpoints.
 * - BC3 alpha, BC4 and BC5 use the 8-value (`a0 > a1`) or 6-value plus 0
 *   and 255 interpolation, truncated.
 * - YCoCg-BC3 carries Co in red, Cg in green, the chroma scale in blue
 *   (`scale = (blue >> 3) + 1`) and Y in alpha. With `co = red - 128` and
 *   `cg = green - 128`, the result is R = Y + (co - cg) / scale,
 *   G = Y + cg / scale, B = Y - (co + cg) / scale, rounded half up and
 *   clamped to 0..255, alpha 255.
 * - BC7 implements all eight modes of BPTC; a block whose first byte is 0
 *   (a reserved mode) decodes to transparent black.
 * - BC6H implements all 14 modes of BPTC float, unsigned and signed, as the
 *   Khronos Data Format Specification defines them (bcdecode-bc6h.c); a
 *   reserved mode decodes to (0, 0, 0) and alpha 1.0. Alpha is always 1.0
 *   (255, 65535).
 *
 * All functions are thread-safe: different block rows of one frame can be
 * decoded concurrently.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcdecode.h"
#include "bcdecode-private.h"
#include "bcencode-private.h"
#include "bchdr.h"

#include <string.h>

/* ---------------------------------------------------------------------- */
/* BC1 / BC3 / BC4 / BC5                                                   */
/* ---------------------------------------------------------------------- */

static inline guint
read_u16_le (const guint8 * p)
{
  return (guint) p[0] | ((guint) p[1] << 8);
}

static inline guint32
read_u32_le (const guint8 * p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) |
      ((guint32) p[3] << 24);
}

static inline void
unpack_565 (guint c, guint8 rgb[3])
{
  guint r = (c >> 11) & 0x1f, g = (c >> 5) & 0x3f, b = c & 0x1f;

  rgb[0] = (guint8) ((r << 3) | (r >> 2));
  rgb[1] = (guint8) ((g << 2) | (g >> 4));
  rgb[2] = (guint8) ((b << 3) | (b >> 2));
}

/* Decodes the 8-byte BC1 colour block at @block. With @four_colour the
 * block is decoded in 4-colour mode whatever the order of its endpoints (the
 * rule for the colour half of BC2/BC3). Alpha is set to 255. */
static void
decode_colour_block (const guint8 * block, gboolean four_colour,
    guint8 rgba[64])
{
  guint8 pal[4][4];
  guint c0 = read_u16_le (block), c1 = read_u16_le (block + 2);
  guint32 indices = read_u32_le (block + 4);
  guint i;

  unpack_565 (c0, pal[0]);
  unpack_565 (c1, pal[1]);
  if (four_colour || c0 > c1) {
    for (i = 0; i < 3; i++) {
      pal[2][i] = (guint8) ((2 * pal[0][i] + pal[1][i]) / 3);
      pal[3][i] = (guint8) ((pal[0][i] + 2 * pal[1][i]) / 3);
    }
  } else {
    for (i = 0; i < 3; i++) {
      pal[2][i] = (guint8) ((pal[0][i] + pal[1][i]) / 2);
      pal[3][i] = 0;
    }
  }
  pal[0][3] = pal[1][3] = pal[2][3] = pal[3][3] = 255;

  for (i = 0; i < 16; i++) {
    memcpy (rgba + i * 4, pal[indices & 3], 4);
    indices >>= 2;
  }
}

/* Decodes the 8-byte BC4 / BC3-alpha block at @block into byte @channel of
 * every pixel of @rgba. */
static void
decode_alpha_block (const guint8 * block, guint8 rgba[64], guint channel)
{
  guint8 pal[8];
  guint a0 = block[0], a1 = block[1];
  guint64 indices;
  guint i;

  pal[0] = (guint8) a0;
  pal[1] = (guint8) a1;
  if (a0 > a1) {
    for (i = 2; i < 8; i++)
      pal[i] = (guint8) (((8 - i) * a0 + (i - 1) * a1) / 7);
  } else {
    for (i = 2; i < 6; i++)
      pal[i] = (guint8) (((6 - i) * a0 + (i - 1) * a1) / 5);
    pal[6] = 0;
    pal[7] = 255;
  }

  indices = (guint64) block[2] | ((guint64) block[3] << 8) |
      ((guint64) block[4] << 16) | ((guint64) block[5] << 24) |
      ((guint64) block[6] << 32) | ((guint64) block[7] << 40);
  for (i = 0; i < 16; i++) {
    rgba[i * 4 + channel] = pal[indices & 7];
    indices >>= 3;
  }
}

static void
decode_bc1 (const guint8 * block, guint8 rgba[64])
{
  decode_colour_block (block, FALSE, rgba);
}

static void
decode_bc3 (const guint8 * block, guint8 rgba[64])
{
  decode_colour_block (block + 8, TRUE, rgba);
  decode_alpha_block (block, rgba, 3);
}

/* floor (num / den) for den > 0, right for negative @num as well */
static inline gint
floor_div (gint num, gint den)
{
  return num >= 0 ? num / den : -((-num + den - 1) / den);
}

static inline guint8
clamp_u8 (gint v)
{
  return (guint8) CLAMP (v, 0, 255);
}

/* log2 (scale) for scale = (blue >> 3) + 1 when that is a power of two,
 * else -1 */
static const gint8 ycocg_log2_scale[32] = {
  0, 1, -1, 2, -1, -1, -1, 3, -1, -1, -1, -1, -1, -1, -1, 4,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 5,
};

static void
decode_ycocg_bc3 (const guint8 * block, guint8 rgba[64])
{
  guint i;

  decode_bc3 (block, rgba);
  for (i = 0; i < 16; i++) {
    guint8 *p = rgba + i * 4;
    gint co = (gint) p[0] - 128;
    gint cg = (gint) p[1] - 128;
    gint y = p[3];
    gint k = ycocg_log2_scale[p[2] >> 3];
    gint dr = co - cg, dg = cg, db = -(co + cg);
    gint qr, qg, qb;

    /* channel = Y + d / scale rounded half up = Y + q with
     * q = floor ((2 * d + scale) / (2 * scale)); for the scales 1, 2 and 4
     * an encoder writes this is exactly the quarter-unit computation
     * floor ((4 * Y + d * (4 / scale) + 2) / 4). */
    if (k >= 0) {
      /* q = floor ((d + scale / 2) / scale), a shift; 1024 is a multiple of
       * every scale and makes the shifted values non-negative (|d| <= 510) */
      gint half = (1 << k) >> 1;

      qr = ((dr + half + 1024) >> k) - (1024 >> k);
      qg = ((dg + half + 1024) >> k) - (1024 >> k);
      qb = ((db + half + 1024) >> k) - (1024 >> k);
    } else {
      gint scale = (p[2] >> 3) + 1;

      qr = floor_div (2 * dr + scale, 2 * scale);
      qg = floor_div (2 * dg + scale, 2 * scale);
      qb = floor_div (2 * db + scale, 2 * scale);
    }
    p[0] = clamp_u8 (y + qr);
    p[1] = clamp_u8 (y + qg);
    p[2] = clamp_u8 (y + qb);
    p[3] = 255;
  }
}

static void
decode_bc4 (const guint8 * block, guint8 rgba[64])
{
  guint i;

  decode_alpha_block (block, rgba, 0);
  for (i = 0; i < 16; i++) {
    rgba[i * 4 + 1] = rgba[i * 4 + 2] = rgba[i * 4];
    rgba[i * 4 + 3] = 255;
  }
}

static void
decode_bc5 (const guint8 * block, guint8 rgba[64])
{
  guint i;

  decode_alpha_block (block, rgba, 0);
  decode_alpha_block (block + 8, rgba, 1);
  for (i = 0; i < 16; i++) {
    rgba[i * 4 + 2] = 0;
    rgba[i * 4 + 3] = 255;
  }
}

/* ---------------------------------------------------------------------- */
/* BC7                                                                     */
/* ---------------------------------------------------------------------- */

/* Table.M of the BPTC specification */
typedef struct
{
  guint8 ns;                    /* subsets */
  guint8 pb;                    /* partition bits */
  guint8 rb;                    /* rotation bits */
  guint8 isb;                   /* index selection bits */
  guint8 cb;                    /* colour bits */
  guint8 ab;                    /* alpha bits */
  guint8 epb;                   /* one p-bit per endpoint */
  guint8 spb;                   /* one p-bit per subset */
  guint8 ib;                    /* primary index bits */
  guint8 ib2;                   /* secondary index bits */
} Bc7Mode;

static const Bc7Mode bc7_modes[8] = {
  {3, 4, 0, 0, 4, 0, 1, 0, 3, 0},
  {2, 6, 0, 0, 6, 0, 0, 1, 3, 0},
  {3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
  {2, 6, 0, 0, 7, 0, 1, 0, 2, 0},
  {1, 0, 2, 1, 5, 6, 0, 0, 2, 3},
  {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
  {1, 0, 0, 0, 7, 7, 1, 0, 4, 0},
  {2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
};

/* Table.P2: subset of each pixel (x-major, pixel 0 first) for the 64
 * two-subset partitions */
const guint8 bc7_partitions2[64][16] = {
  {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1},
  {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1},
  {0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1},
  {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1},
  {0, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1},
  {0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1},
  {0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1},
  {0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0},
  {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0},
  {0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0},
  {0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0},
  {0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0},
  {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0},
  {0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1},
  {0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0},
  {0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0},
  {0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0},
  {0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 0, 0},
  {0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 0},
  {0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
  {0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0},
  {0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0},
  {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1},
  {0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0},
  {0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0},
  {0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0},
  {0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0},
  {0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1},
  {0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1},
  {0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 0},
  {0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0},
  {0, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0},
  {0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0},
  {0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0},
  {0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1},
  {0, 1, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1},
  {0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0},
  {0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0},
  {0, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0},
  {0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 0},
  {0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 0, 0},
  {0, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1},
  {0, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1},
  {0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0},
  {0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0},
  {0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 1},
  {0, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0, 1},
  {0, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1},
  {0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1},
  {0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1},
  {0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
  {0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0},
  {0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1},
};

/* Table.P3: the 64 three-subset partitions */
const guint8 bc7_partitions3[64][16] = {
  {0, 0, 1, 1, 0, 0, 1, 1, 0, 2, 2, 1, 2, 2, 2, 2},
  {0, 0, 0, 1, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2, 2, 1},
  {0, 0, 0, 0, 2, 0, 0, 1, 2, 2, 1, 1, 2, 2, 1, 1},
  {0, 2, 2, 2, 0, 0, 2, 2, 0, 0, 1, 1, 0, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2},
  {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 2, 2},
  {0, 0, 2, 2, 0, 0, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2},
  {0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2},
  {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2},
  {0, 0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 2},
  {0, 1, 1, 2, 0, 1, 1, 2, 0, 1, 1, 2, 0, 1, 1, 2},
  {0, 1, 2, 2, 0, 1, 2, 2, 0, 1, 2, 2, 0, 1, 2, 2},
  {0, 0, 1, 1, 0, 1, 1, 2, 1, 1, 2, 2, 1, 2, 2, 2},
  {0, 0, 1, 1, 2, 0, 0, 1, 2, 2, 0, 0, 2, 2, 2, 0},
  {0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 1, 2, 1, 1, 2, 2},
  {0, 1, 1, 1, 0, 0, 1, 1, 2, 0, 0, 1, 2, 2, 0, 0},
  {0, 0, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2},
  {0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 2, 1, 1, 1, 1},
  {0, 1, 1, 1, 0, 1, 1, 1, 0, 2, 2, 2, 0, 2, 2, 2},
  {0, 0, 0, 1, 0, 0, 0, 1, 2, 2, 2, 1, 2, 2, 2, 1},
  {0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 2, 2, 0, 1, 2, 2},
  {0, 0, 0, 0, 1, 1, 0, 0, 2, 2, 1, 0, 2, 2, 1, 0},
  {0, 1, 2, 2, 0, 1, 2, 2, 0, 0, 1, 1, 0, 0, 0, 0},
  {0, 0, 1, 2, 0, 0, 1, 2, 1, 1, 2, 2, 2, 2, 2, 2},
  {0, 1, 1, 0, 1, 2, 2, 1, 1, 2, 2, 1, 0, 1, 1, 0},
  {0, 0, 0, 0, 0, 1, 1, 0, 1, 2, 2, 1, 1, 2, 2, 1},
  {0, 0, 2, 2, 1, 1, 0, 2, 1, 1, 0, 2, 0, 0, 2, 2},
  {0, 1, 1, 0, 0, 1, 1, 0, 2, 0, 0, 2, 2, 2, 2, 2},
  {0, 0, 1, 1, 0, 1, 2, 2, 0, 1, 2, 2, 0, 0, 1, 1},
  {0, 0, 0, 0, 2, 0, 0, 0, 2, 2, 1, 1, 2, 2, 2, 1},
  {0, 0, 0, 0, 0, 0, 0, 2, 1, 1, 2, 2, 1, 2, 2, 2},
  {0, 2, 2, 2, 0, 0, 2, 2, 0, 0, 1, 2, 0, 0, 1, 1},
  {0, 0, 1, 1, 0, 0, 1, 2, 0, 0, 2, 2, 0, 2, 2, 2},
  {0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 2, 0},
  {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0},
  {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0},
  {0, 1, 2, 0, 2, 0, 1, 2, 1, 2, 0, 1, 0, 1, 2, 0},
  {0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1},
  {0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1},
  {0, 1, 0, 1, 0, 1, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2},
  {0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 2, 1, 2, 1, 2, 1},
  {0, 0, 2, 2, 1, 1, 2, 2, 0, 0, 2, 2, 1, 1, 2, 2},
  {0, 0, 2, 2, 0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 1, 1},
  {0, 2, 2, 0, 1, 2, 2, 1, 0, 2, 2, 0, 1, 2, 2, 1},
  {0, 1, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 0, 1, 0, 1},
  {0, 0, 0, 0, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1},
  {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 2, 2, 2},
  {0, 2, 2, 2, 0, 1, 1, 1, 0, 2, 2, 2, 0, 1, 1, 1},
  {0, 0, 0, 2, 1, 1, 1, 2, 0, 0, 0, 2, 1, 1, 1, 2},
  {0, 0, 0, 0, 2, 1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2},
  {0, 2, 2, 2, 0, 1, 1, 1, 0, 1, 1, 1, 0, 2, 2, 2},
  {0, 0, 0, 2, 1, 1, 1, 2, 1, 1, 1, 2, 0, 0, 0, 2},
  {0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 2, 2, 2, 2},
  {0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 1, 2, 2, 1, 1, 2},
  {0, 1, 1, 0, 0, 1, 1, 0, 2, 2, 2, 2, 2, 2, 2, 2},
  {0, 0, 2, 2, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 2, 2},
  {0, 0, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2, 0, 0, 2, 2},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 1, 2},
  {0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1},
  {0, 2, 2, 2, 1, 2, 2, 2, 0, 2, 2, 2, 1, 2, 2, 2},
  {0, 1, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2},
  {0, 1, 1, 1, 2, 0, 1, 1, 2, 2, 0, 1, 2, 2, 2, 0},
};

/* Table.A2: anchor index of the second subset of two-subset partitions */
const guint8 bc7_anchors2[64] = {
  15, 15, 15, 15, 15, 15, 15, 15,
  15, 15, 15, 15, 15, 15, 15, 15,
  15, 2, 8, 2, 2, 8, 8, 15,
  2, 8, 2, 2, 8, 8, 2, 2,
  15, 15, 6, 8, 2, 8, 15, 15,
  2, 8, 2, 2, 2, 15, 15, 6,
  6, 2, 6, 8, 15, 15, 2, 2,
  15, 15, 15, 15, 15, 2, 2, 15,
};

/* Table.A3a: anchor index of the second subset of three-subset partitions */
const guint8 bc7_anchors3a[64] = {
  3, 3, 15, 15, 8, 3, 15, 15,
  8, 8, 6, 6, 6, 5, 3, 3,
  3, 3, 8, 15, 3, 3, 6, 10,
  5, 8, 8, 6, 8, 5, 15, 15,
  8, 15, 3, 5, 6, 10, 8, 15,
  15, 3, 15, 5, 15, 15, 15, 15,
  3, 15, 5, 5, 5, 8, 5, 10,
  5, 10, 8, 13, 15, 12, 3, 3,
};

/* Table.A3b: anchor index of the third subset of three-subset partitions */
const guint8 bc7_anchors3b[64] = {
  15, 8, 8, 3, 15, 15, 3, 8,
  15, 15, 15, 15, 15, 15, 15, 8,
  15, 8, 15, 3, 15, 8, 15, 8,
  3, 15, 6, 10, 15, 15, 10, 8,
  15, 3, 15, 10, 10, 8, 9, 10,
  6, 15, 8, 15, 3, 6, 6, 8,
  15, 3, 15, 15, 15, 15, 15, 15,
  15, 15, 15, 15, 3, 15, 15, 8,
};

/* Reads the 16 indices of @n_bits each (one bit less for pixel 0 and the
 * two anchors) starting at the current position */
static inline void
bc7_read_indices (BcBptcBits * bits, guint n_bits, guint anchor1,
    guint anchor2, guint8 idx[16])
{
  guint64 w = bc_bptc_bits_window (bits, bits->pos);
  guint64 mask = (1u << n_bits) - 1;
  guint i, total = 0;

  for (i = 0; i < 16; i++) {
    guint n = n_bits;

    if (i == 0 || i == anchor1 || i == anchor2)
      n--;
    idx[i] = (guint8) (w & (mask >> (n_bits - n)));
    w >>= n;
    total += n;
  }
  bits->pos += total;
}

static inline const guint8 *
bc7_weights (guint n_bits)
{
  switch (n_bits) {
    case 2:
      return bc_bptc_weights2;
    case 3:
      return bc_bptc_weights3;
    default:
      return bc_bptc_weights4;
  }
}

static inline guint8
bc7_interpolate (guint e0, guint e1, guint w)
{
  return (guint8) (((64 - w) * e0 + w * e1 + 32) >> 6);
}

static void
decode_bc7 (const guint8 * block, guint8 rgba[64])
{
  const Bc7Mode *m;
  const guint8 *subsets = NULL;
  const guint8 *cw, *aw;
  BcBptcBits bits;
  guint mode, partition, rotation, isb;
  guint anchor1 = 16, anchor2 = 16;
  /* endpoints [subset][endpoint][channel] */
  guint ep[3][2][4];
  guint8 idx[16], idx2[16];
  guint s, e, c, i, cbits, abits;

  if (block[0] == 0) {
    memset (rgba, 0, 64);
    return;
  }
  /* the mode is the number of zero bits below the first one bit */
  mode = 0;
  while ((block[0] & (1u << mode)) == 0)
    mode++;
  m = &bc7_modes[mode];

  bc_bptc_bits_init (&bits, block);
  bits.pos = mode + 1;

  partition = bc_bptc_bits_read (&bits, m->pb);
  rotation = bc_bptc_bits_read (&bits, m->rb);
  isb = bc_bptc_bits_read (&bits, m->isb);

  if (m->ns == 2) {
    subsets = bc7_partitions2[partition];
    anchor1 = bc7_anchors2[partition];
  } else if (m->ns == 3) {
    subsets = bc7_partitions3[partition];
    anchor1 = bc7_anchors3a[partition];
    anchor2 = bc7_anchors3b[partition];
  }

  /* colour: all red values, then green, then blue; endpoint-major within a
   * subset */
  for (c = 0; c < 3; c++)
    for (s = 0; s < m->ns; s++)
      for (e = 0; e < 2; e++)
        ep[s][e][c] = bc_bptc_bits_read (&bits, m->cb);
  for (s = 0; s < m->ns; s++)
    for (e = 0; e < 2; e++)
      ep[s][e][3] = bc_bptc_bits_read (&bits, m->ab);

  /* p-bits go below the stored bits of every channel */
  cbits = m->cb;
  abits = m->ab;
  if (m->epb || m->spb) {
    for (s = 0; s < m->ns; s++) {
      guint p = 0;

      for (e = 0; e < 2; e++) {
        /* one bit per endpoint, or one shared by both endpoints */
        if (m->epb || e == 0)
          p = bc_bptc_bits_read (&bits, 1);
        for (c = 0; c < 4; c++)
          ep[s][e][c] = (ep[s][e][c] << 1) | p;
      }
    }
    cbits++;
    if (abits)
      abits++;
  }

  /* expand to 8 bits by replicating the top bits */
  for (s = 0; s < m->ns; s++) {
    for (e = 0; e < 2; e++) {
      for (c = 0; c < 3; c++) {
        guint v = ep[s][e][c];

        ep[s][e][c] = ((v << (8 - cbits)) | (v >> (2 * cbits - 8))) & 0xff;
      }
      if (abits) {
        guint v = ep[s][e][3];

        ep[s][e][3] = ((v << (8 - abits)) | (v >> (2 * abits - 8))) & 0xff;
      } else {
        ep[s][e][3] = 255;
      }
    }
  }

  /* indices: pixel 0 and the anchors of the other subsets have one bit less */
  bc7_read_indices (&bits, m->ib, anchor1, anchor2, idx);
  if (m->ib2)
    bc7_read_indices (&bits, m->ib2, 16, 16, idx2);

  if (m->ib2 == 0) {
    cw = aw = bc7_weights (m->ib);
  } else if (isb == 0) {
    cw = bc7_weights (m->ib);
    aw = bc7_weights (m->ib2);
  } else {
    cw = bc7_weights (m->ib2);
    aw = bc7_weights (m->ib);
  }

  for (i = 0; i < 16; i++) {
    guint8 *p = rgba + i * 4;
    guint ci, ai;

    s = subsets ? subsets[i] : 0;
    if (m->ib2 == 0) {
      ci = ai = idx[i];
    } else if (isb == 0) {
      ci = idx[i];
      ai = idx2[i];
    } else {
      ci = idx2[i];
      ai = idx[i];
    }
    for (c = 0; c < 3; c++)
      p[c] = bc7_interpolate (ep[s][0][c], ep[s][1][c], cw[ci]);
    p[3] = bc7_interpolate (ep[s][0][3], ep[s][1][3], aw[ai]);

    if (rotation) {
      guint8 t = p[3];

      p[3] = p[rotation - 1];
      p[rotation - 1] = t;
    }
  }
}

/* ---------------------------------------------------------------------- */
/* BC6H to 8 bits: the tone curve                                          */
/* ---------------------------------------------------------------------- */

static void
decode_bc6h_sdr (const guint8 * block, gboolean is_signed, guint8 rgba[64])
{
  guint16 half[64];
  guint i;

  bc_decode_bc6h_half (block, is_signed, half);
  for (i = 0; i < 16; i++) {
    gst_bc_hdr_tone_map (half + i * 4, rgba + i * 4);
    rgba[i * 4 + 3] = 255;
  }
}

static void
decode_bc6h_uf (const guint8 * block, guint8 rgba[64])
{
  decode_bc6h_sdr (block, FALSE, rgba);
}

static void
decode_bc6h_sf (const guint8 * block, guint8 rgba[64])
{
  decode_bc6h_sdr (block, TRUE, rgba);
}

/* ---------------------------------------------------------------------- */
/* Public API                                                              */
/* ---------------------------------------------------------------------- */

typedef void (*BlockDecodeFunc) (const guint8 * block, guint8 rgba[64]);

static BlockDecodeFunc
get_block_decoder (GstBcFormat format)
{
  switch (format) {
    case GST_BC_FORMAT_BC1:
      return decode_bc1;
    case GST_BC_FORMAT_BC3:
      return decode_bc3;
    case GST_BC_FORMAT_YCOCG_BC3:
      return decode_ycocg_bc3;
    case GST_BC_FORMAT_BC4:
      return decode_bc4;
    case GST_BC_FORMAT_BC5:
      return decode_bc5;
    case GST_BC_FORMAT_BC7:
      return decode_bc7;
    case GST_BC_FORMAT_BC6H:
      return decode_bc6h_uf;
    case GST_BC_FORMAT_BC6H_SF:
      return decode_bc6h_sf;
    default:
      return NULL;
  }
}

/**
 * gst_bc_decode_block:
 * @format: the #GstBcFormat of @block
 * @block: (array): one block, gst_bc_format_get_block_bytes() bytes
 * @rgba: (out caller-allocates) (array fixed-size=64): the 16 decoded
 *     pixels, RGBA, row-major: pixel (x, y) at `rgba[(y * 4 + x) * 4]`
 *
 * Decodes one 4x4 block. Formats without alpha (BC1, YCoCg-BC3, BC4, BC5,
 * BC6H) give alpha 255; BC4 gives grey (v, v, v), BC5 gives (r, g, 0); BC6H
 * goes through the SDR tone curve (gst_bc_hdr_tone_map()).
 *
 * Returns: %FALSE (and leaves @rgba untouched) for an unknown @format.
 */
gboolean
gst_bc_decode_block (GstBcFormat format, const guint8 * block, guint8 rgba[64])
{
  BlockDecodeFunc decode;

  g_return_val_if_fail (block != NULL, FALSE);
  g_return_val_if_fail (rgba != NULL, FALSE);

  decode = get_block_decoder (format);
  if (decode == NULL)
    return FALSE;
  decode (block, rgba);
  return TRUE;
}

static inline gboolean
layout_offset_ok (gint off, guint bpp)
{
  return off >= -1 && off < (gint) bpp;
}

typedef enum
{
  OUTPUT_COPY,                  /* RGBA: the decoded block as it is */
  OUTPUT_SWIZZLE,               /* other 4-byte layouts */
  OUTPUT_GENERIC,               /* 3-byte and unusual layouts */
} OutputMode;

/* the shift that puts a byte at memory offset @offset of a guint32 */
static inline guint
byte_shift (gint offset)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  return 8 * offset;
#else
  return 24 - 8 * offset;
#endif
}

/**
 * gst_bc_decode_rows:
 * @format: the #GstBcFormat of @src
 * @src: (array): the start of a whole frame: block rows of
 *     `ceil (@width / 4)` blocks each, top to bottom
 * @width: visible width of the frame in pixels
 * @height: visible height of the frame in pixels
 * @first_block_row: first block row to decode
 * @n_block_rows: number of block rows to decode
 * @dst: the start of the whole visible output picture
 * @dst_stride: bytes from one pixel row of @dst to the next
 * @layout: the packed pixel layout of @dst
 *
 * Decodes block rows [@first_block_row, @first_block_row + @n_block_rows)
 * of @src into pixel rows `4 * @first_block_row` and below of @dst. Only
 * visible pixels are written: the padding columns and rows of the last
 * block column and row are cropped, and no byte of @dst outside the visible
 * pixels of these rows is touched. Alpha is dropped when @layout has none;
 * the padding byte of RGBx-like layouts is set to 255.
 *
 * Different block rows of one frame may be decoded concurrently from
 * several threads.
 */
void
gst_bc_decode_rows (GstBcFormat format, const guint8 * src,
    guint width, guint height, guint first_block_row, guint n_block_rows,
    guint8 * dst, gsize dst_stride, const GstBcPixelLayout * layout)
{
  BlockDecodeFunc decode;
  guint blocks_x, blocks_y, block_bytes, bpp;
  guint by, bx, y, x, i;
  gsize row_bytes;
  OutputMode mode;
  gint ro, go, bo, ao, xo;
  guint sr = 0, sg = 0, sb = 0, sa = 0;
  guint32 amask = 0, fill = 0;
  guint8 rgba[64];

  decode = get_block_decoder (format);
  g_return_if_fail (decode != NULL);
  g_return_if_fail (src != NULL);
  g_return_if_fail (dst != NULL);
  g_return_if_fail (layout != NULL);
  g_return_if_fail (layout->bpp == 3 || layout->bpp == 4);
  g_return_if_fail (layout->r >= 0 && layout->r < (gint) layout->bpp);
  g_return_if_fail (layout->g >= 0 && layout->g < (gint) layout->bpp);
  g_return_if_fail (layout->b >= 0 && layout->b < (gint) layout->bpp);
  g_return_if_fail (layout_offset_ok (layout->a, layout->bpp));
  g_return_if_fail (layout_offset_ok (layout->x, layout->bpp));
  g_return_if_fail (width > 0 && height > 0);
  g_return_if_fail (dst_stride >= (gsize) width * layout->bpp);

  blocks_x = (width + 3) / 4;
  blocks_y = (height + 3) / 4;
  g_return_if_fail (first_block_row <= blocks_y);
  g_return_if_fail (n_block_rows <= blocks_y - first_block_row);

  block_bytes = gst_bc_format_get_block_bytes (format);
  row_bytes = (gsize) blocks_x *block_bytes;
  bpp = layout->bpp;
  ro = layout->r;
  go = layout->g;
  bo = layout->b;
  ao = layout->a;
  xo = layout->x;

  if (bpp == 4 && ro == 0 && go == 1 && bo == 2 && ao == 3) {
    mode = OUTPUT_COPY;
  } else if (bpp == 4 && (ao < 0) != (xo < 0) &&
      (1u << ro | 1u << go | 1u << bo | 1u << MAX (ao, xo)) == 0xf) {
    /* every byte of the pixel is r, g, b, and a or x: build each pixel as
     * one 32-bit word */
    mode = OUTPUT_SWIZZLE;
    sr = byte_shift (ro);
    sg = byte_shift (go);
    sb = byte_shift (bo);
    if (ao >= 0) {
      sa = byte_shift (ao);
      amask = 0xff;
    } else {
      fill = (guint32) 0xff << byte_shift (xo);
    }
  } else {
    mode = OUTPUT_GENERIC;
  }

  for (by = first_block_row; by < first_block_row + n_block_rows; by++) {
    const guint8 *block = src + by * row_bytes;
    guint rows = MIN (4, height - by * 4);
    guint8 *out = dst + (gsize) by * 4 * dst_stride;

    for (bx = 0; bx < blocks_x; bx++, block += block_bytes, out += 4 * bpp) {
      guint cols = MIN (4, width - bx * 4);

      decode (block, rgba);

      if (mode == OUTPUT_SWIZZLE) {
        for (i = 0; i < 16; i++) {
          const guint8 *p = rgba + i * 4;
          guint32 v = ((guint32) p[0] << sr) | ((guint32) p[1] << sg) |
              ((guint32) p[2] << sb) | (((guint32) p[3] & amask) << sa) | fill;

          memcpy (rgba + i * 4, &v, 4);
        }
      }

      if (mode != OUTPUT_GENERIC) {
        if (cols == 4) {
          for (y = 0; y < rows; y++)
            memcpy (out + y * dst_stride, rgba + y * 16, 16);
        } else {
          for (y = 0; y < rows; y++)
            memcpy (out + y * dst_stride, rgba + y * 16, cols * 4);
        }
        continue;
      }

      for (y = 0; y < rows; y++) {
        const guint8 *p = rgba + y * 16;
        guint8 *d = out + y * dst_stride;

        for (x = 0; x < cols; x++, p += 4, d += bpp) {
          d[ro] = p[0];
          d[go] = p[1];
          d[bo] = p[2];
          if (ao >= 0)
            d[ao] = p[3];
          if (xo >= 0)
            d[xo] = 255;
        }
      }
    }
  }
}
