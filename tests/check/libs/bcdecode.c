/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Block decoder tests. Every expected value was computed by hand from the
 * format specifications (S3TC/D3D for BC1-BC5, BPTC for BC7), not taken
 * from the decoder. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/bc/bc.h>

#include <string.h>

#include "gstbctest.h"

/* ---------------------------------------------------------------------- */
/* helpers                                                                 */
/* ---------------------------------------------------------------------- */

static void
put_u16 (guint8 * p, guint v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
}

/* BC1 colour block: endpoints and 16 2-bit indices (pixel 0 first) */
static void
make_bc1 (guint8 * block, guint c0, guint c1, const guint8 idx[16])
{
  guint32 bits = 0;
  guint i;

  put_u16 (block, c0);
  put_u16 (block + 2, c1);
  for (i = 0; i < 16; i++)
    bits |= (guint32) (idx[i] & 3) << (2 * i);
  block[4] = bits & 0xff;
  block[5] = (bits >> 8) & 0xff;
  block[6] = (bits >> 16) & 0xff;
  block[7] = (bits >> 24) & 0xff;
}

/* BC4 / BC3-alpha block: endpoints and 16 3-bit codes */
static void
make_bc4 (guint8 * block, guint a0, guint a1, const guint8 idx[16])
{
  guint64 bits = 0;
  guint i;

  block[0] = a0;
  block[1] = a1;
  for (i = 0; i < 16; i++)
    bits |= (guint64) (idx[i] & 7) << (3 * i);
  for (i = 0; i < 6; i++)
    block[2 + i] = (bits >> (8 * i)) & 0xff;
}

static void
fill_idx (guint8 idx[16], guint v)
{
  memset (idx, v, 16);
}

#define PX(rgba, i) (rgba + (i) * 4)

static void
assert_pixel (const guint8 * rgba, guint i, guint r, guint g, guint b, guint a)
{
  const guint8 *p = PX (rgba, i);

  fail_unless (p[0] == r && p[1] == g && p[2] == b && p[3] == a,
      "pixel %u is (%u, %u, %u, %u), expected (%u, %u, %u, %u)", i,
      p[0], p[1], p[2], p[3], r, g, b, a);
}

/* Writes bits least significant first, as BC7 stores them */
typedef struct
{
  guint8 data[16];
  guint pos;
} BitWriter;

static void
bw_init (BitWriter * bw)
{
  memset (bw->data, 0, sizeof (bw->data));
  bw->pos = 0;
}

static void
bw_put (BitWriter * bw, guint value, guint n_bits)
{
  guint i;

  fail_unless (bw->pos + n_bits <= 128);
  fail_unless (n_bits == 32 || value < (1u << n_bits),
      "value %u does not fit %u bits", value, n_bits);
  for (i = 0; i < n_bits; i++, bw->pos++) {
    if (value & (1u << i))
      bw->data[bw->pos / 8] |= 1 << (bw->pos % 8);
  }
}

/* @n values of @n_bits each: a BC7 endpoint channel, or the p-bits */
static void
bw_put_each (BitWriter * bw, const guint * values, guint n, guint n_bits)
{
  guint i;

  for (i = 0; i < n; i++)
    bw_put (bw, values[i], n_bits);
}

static void
bw_put_mode (BitWriter * bw, guint mode)
{
  bw_put (bw, 1u << mode, mode + 1);
}

static void
bw_finish (BitWriter * bw)
{
  fail_unless_equals_int (bw->pos, 128);
}

static void
decode (GstBcFormat format, const guint8 * block, guint8 rgba[64])
{
  memset (rgba, 0x5a, 64);
  fail_unless (gst_bc_decode_block (format, block, rgba));
}

/* ---------------------------------------------------------------------- */
/* BC1                                                                     */
/* ---------------------------------------------------------------------- */

GST_START_TEST (test_bc1_four_colour)
{
  static const guint8 idx[16] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3,
    0, 1, 2, 3
  };
  guint8 block[8], rgba[64];
  guint i;

  /* red 31 and red 1: 255, 8, (2*255+8)/3 = 172, (255+2*8)/3 = 90 */
  make_bc1 (block, 0xF800, 0x0800, idx);
  decode (GST_BC_FORMAT_BC1, block, rgba);
  for (i = 0; i < 16; i += 4) {
    assert_pixel (rgba, i + 0, 255, 0, 0, 255);
    assert_pixel (rgba, i + 1, 8, 0, 0, 255);
    assert_pixel (rgba, i + 2, 172, 0, 0, 255);
    assert_pixel (rgba, i + 3, 90, 0, 0, 255);
  }

  /* bit replication of all three channels: r5 = 16, g6 = 32, b5 = 16 give
   * (132, 130, 132); g6 = 1 gives 4; mixed endpoint (r5 = 16, g6 = 1,
   * b5 = 1) = (132, 4, 8) */
  make_bc1 (block, 0x8410, 0x8021, idx);
  decode (GST_BC_FORMAT_BC1, block, rgba);
  assert_pixel (rgba, 0, 132, 130, 132, 255);
  assert_pixel (rgba, 1, 132, 4, 8, 255);
  /* (2*130+4)/3 = 88, (2*132+8)/3 = 90; (130+8)/3 = 46, (132+16)/3 = 49 */
  assert_pixel (rgba, 2, 132, 88, 90, 255);
  assert_pixel (rgba, 3, 132, 46, 49, 255);

  /* pure green and blue */
  make_bc1 (block, 0x07E0, 0x001F, idx);
  decode (GST_BC_FORMAT_BC1, block, rgba);
  assert_pixel (rgba, 0, 0, 255, 0, 255);
  assert_pixel (rgba, 1, 0, 0, 255, 255);
  assert_pixel (rgba, 2, 0, 170, 85, 255);
  assert_pixel (rgba, 3, 0, 85, 170, 255);
}

GST_END_TEST;

GST_START_TEST (test_bc1_three_colour)
{
  static const guint8 idx[16] = { 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 3
  };
  guint8 block[8], rgba[64];

  /* c0 < c1: 8, 255, (8+255)/2 = 131, black; alpha stays 255 */
  make_bc1 (block, 0x0800, 0xF800, idx);
  decode (GST_BC_FORMAT_BC1, block, rgba);
  assert_pixel (rgba, 0, 0, 0, 0, 255);
  assert_pixel (rgba, 1, 131, 0, 0, 255);
  assert_pixel (rgba, 2, 255, 0, 0, 255);
  assert_pixel (rgba, 3, 8, 0, 0, 255);
  assert_pixel (rgba, 15, 0, 0, 0, 255);

  /* c0 == c1 is 3-colour mode too: white, white, white, black */
  make_bc1 (block, 0xFFFF, 0xFFFF, idx);
  decode (GST_BC_FORMAT_BC1, block, rgba);
  assert_pixel (rgba, 0, 0, 0, 0, 255);
  assert_pixel (rgba, 1, 255, 255, 255, 255);
  assert_pixel (rgba, 3, 255, 255, 255, 255);

  /* (132+8)/2 = 70, (130+4)/2 = 67, (132+8)/2 = 70 */
  make_bc1 (block, 0x0021 | 0x8000, 0x8410, idx);
  decode (GST_BC_FORMAT_BC1, block, rgba);
  assert_pixel (rgba, 1, 132, 67, 70, 255);
  assert_pixel (rgba, 3, 132, 4, 8, 255);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* BC3                                                                     */
/* ---------------------------------------------------------------------- */

static const guint8 idx_mod8[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3,
  4, 5, 6, 7
};

GST_START_TEST (test_bc3_alpha_eight)
{
  static const guint8 expected[8] = { 255, 1, 218, 182, 146, 109, 73, 37 };
  guint8 block[16], rgba[64], zero[16] = { 0, };
  guint i;

  make_bc4 (block, 255, 1, idx_mod8);
  make_bc1 (block + 8, 0xFFFF, 0x0000, zero);
  decode (GST_BC_FORMAT_BC3, block, rgba);
  for (i = 0; i < 16; i++)
    assert_pixel (rgba, i, 255, 255, 255, expected[i % 8]);
}

GST_END_TEST;

GST_START_TEST (test_bc3_alpha_six)
{
  static const guint8 expected[8] = { 1, 255, 51, 102, 153, 204, 0, 255 };
  guint8 block[16], rgba[64], zero[16] = { 0, };
  guint i;

  make_bc4 (block, 1, 255, idx_mod8);
  make_bc1 (block + 8, 0x001F, 0x0000, zero);
  decode (GST_BC_FORMAT_BC3, block, rgba);
  for (i = 0; i < 16; i++)
    assert_pixel (rgba, i, 0, 0, 255, expected[i % 8]);

  /* a0 == a1 is the 6-value mode: codes 2-5 are a0, 6 is 0, 7 is 255 */
  make_bc4 (block, 100, 100, idx_mod8);
  decode (GST_BC_FORMAT_BC3, block, rgba);
  for (i = 0; i < 6; i++)
    fail_unless_equals_int (PX (rgba, i)[3], 100);
  fail_unless_equals_int (PX (rgba, 6)[3], 0);
  fail_unless_equals_int (PX (rgba, 7)[3], 255);
}

GST_END_TEST;

GST_START_TEST (test_bc3_colour_always_four)
{
  static const guint8 idx[16] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3,
    0, 1, 2, 3
  };
  guint8 block[16], rgba[64], a_idx[16];
  guint i;

  /* c0 < c1 would be 3-colour mode in BC1; in BC3 it is 4-colour:
   * 8, 255, (2*8+255)/3 = 90, (8+2*255)/3 = 172, never black */
  fill_idx (a_idx, 0);
  make_bc4 (block, 200, 10, a_idx);
  make_bc1 (block + 8, 0x0800, 0xF800, idx);
  decode (GST_BC_FORMAT_BC3, block, rgba);
  for (i = 0; i < 16; i += 4) {
    assert_pixel (rgba, i + 0, 8, 0, 0, 200);
    assert_pixel (rgba, i + 1, 255, 0, 0, 200);
    assert_pixel (rgba, i + 2, 90, 0, 0, 200);
    assert_pixel (rgba, i + 3, 172, 0, 0, 200);
  }

  /* c0 == c1 as well: index 3 is c0, not black */
  make_bc1 (block + 8, 0xFFFF, 0xFFFF, idx);
  decode (GST_BC_FORMAT_BC3, block, rgba);
  for (i = 0; i < 16; i++)
    assert_pixel (rgba, i, 255, 255, 255, 200);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* YCoCg-BC3                                                               */
/* ---------------------------------------------------------------------- */

GST_START_TEST (test_ycocg_grey)
{
  guint8 block[16], rgba[64], idx[16];
  guint i;

  /* Co = Cg = 128 needs interpolation. At index 2, (2 * c0 + c1) / 3:
   * red 15 (123) and 17 (140) give (246 + 140) / 3 = 128, green 32 (130)
   * and 31 (125) give (260 + 125) / 3 = 128. Blue 0: scale 1. Y = 77 from
   * the alpha block. c0 < c1 here, so this also needs the 4-colour rule
   * (3-colour mode would give red (123 + 140) / 2 = 131 at index 2). */
  fill_idx (idx, 0);
  make_bc4 (block, 77, 77, idx);
  fill_idx (idx, 2);
  make_bc1 (block + 8, (15 << 11) | (32 << 5), (17 << 11) | (31 << 5), idx);
  decode (GST_BC_FORMAT_YCOCG_BC3, block, rgba);
  for (i = 0; i < 16; i++)
    assert_pixel (rgba, i, 77, 77, 77, 255);

  /* the same as plain BC3, for reference */
  decode (GST_BC_FORMAT_BC3, block, rgba);
  assert_pixel (rgba, 0, 128, 128, 0, 77);
}

GST_END_TEST;

static void
make_ycocg_colour (guint8 * block, guint y, guint b5)
{
  guint8 idx[16];

  /* Co = red 20 -> 165 -> +37; Cg = green 20 -> 81 -> -47; the scale in
   * blue; all pixels index 0. Y in the alpha block, code 0. */
  fill_idx (idx, 0);
  make_bc4 (block, y, y, idx);
  make_bc1 (block + 8, (20 << 11) | (20 << 5) | b5, 0, idx);
}

GST_START_TEST (test_ycocg_colour)
{
  guint8 block[16], rgba[64];

  /* scale 1: R = Y + Co - Cg = 100 + 84 = 184, G = 100 - 47 = 53,
   * B = Y - Co - Cg = 100 + 10 = 110 */
  make_ycocg_colour (block, 100, 0);
  decode (GST_BC_FORMAT_YCOCG_BC3, block, rgba);
  assert_pixel (rgba, 0, 184, 53, 110, 255);
  assert_pixel (rgba, 15, 184, 53, 110, 255);

  /* scale 2 (blue 1 -> 8): R = 100 + 42 = 142, G = 100 - 23.5 = 76.5 -> 77
   * (half up), B = 100 + 5 = 105 */
  make_ycocg_colour (block, 100, 1);
  decode (GST_BC_FORMAT_YCOCG_BC3, block, rgba);
  assert_pixel (rgba, 0, 142, 77, 105, 255);

  /* scale 4 (blue 3 -> 24): R = 100 + 21 = 121, G = 100 - 11.75 -> 88,
   * B = 100 + 2.5 -> 103 (half up) */
  make_ycocg_colour (block, 100, 3);
  decode (GST_BC_FORMAT_YCOCG_BC3, block, rgba);
  assert_pixel (rgba, 0, 121, 88, 103, 255);

  /* clamping: Y = 250, scale 1: R = 334 -> 255, G = 203, B = 260 -> 255 */
  make_ycocg_colour (block, 250, 0);
  decode (GST_BC_FORMAT_YCOCG_BC3, block, rgba);
  assert_pixel (rgba, 0, 255, 203, 255, 255);

  /* Y = 10, scale 1: R = 94, G = -37 -> 0, B = 20 */
  make_ycocg_colour (block, 10, 0);
  decode (GST_BC_FORMAT_YCOCG_BC3, block, rgba);
  assert_pixel (rgba, 0, 94, 0, 20, 255);

  /* Y = 1, scale 4: R = 1 + 21 = 22, G = 1 - 11.75 = -10.75 -> 0,
   * B = 1 + 2.5 = 3.5 -> 4 (half up) */
  make_ycocg_colour (block, 1, 3);
  decode (GST_BC_FORMAT_YCOCG_BC3, block, rgba);
  assert_pixel (rgba, 0, 22, 0, 4, 255);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* BC4 / BC5                                                               */
/* ---------------------------------------------------------------------- */

GST_START_TEST (test_bc4)
{
  static const guint8 idx[16] = { 0, 1, 2, 7, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 6
  };
  guint8 block[8], rgba[64];

  /* 8-value: 200, 100, (6*200+100)/7 = 185, (200+6*100)/7 = 114 */
  make_bc4 (block, 200, 100, idx);
  decode (GST_BC_FORMAT_BC4, block, rgba);
  assert_pixel (rgba, 0, 200, 200, 200, 255);
  assert_pixel (rgba, 1, 100, 100, 100, 255);
  assert_pixel (rgba, 2, 185, 185, 185, 255);
  assert_pixel (rgba, 3, 114, 114, 114, 255);
  assert_pixel (rgba, 15, 128, 128, 128, 255);

  /* 6-value: 100, 200, (4*100+200)/5 = 120, ..., 0 and 255 */
  make_bc4 (block, 100, 200, idx);
  decode (GST_BC_FORMAT_BC4, block, rgba);
  assert_pixel (rgba, 2, 120, 120, 120, 255);
  assert_pixel (rgba, 3, 255, 255, 255, 255);
  assert_pixel (rgba, 15, 0, 0, 0, 255);
}

GST_END_TEST;

GST_START_TEST (test_bc5)
{
  static const guint8 red[8] = { 255, 1, 218, 182, 146, 109, 73, 37 };
  static const guint8 green[8] = { 1, 255, 51, 102, 153, 204, 0, 255 };
  guint8 block[16], rgba[64];
  guint i;

  make_bc4 (block, 255, 1, idx_mod8);
  make_bc4 (block + 8, 1, 255, idx_mod8);
  decode (GST_BC_FORMAT_BC5, block, rgba);
  for (i = 0; i < 16; i++)
    assert_pixel (rgba, i, red[i % 8], green[i % 8], 0, 255);
}

GST_END_TEST;

GST_START_TEST (test_unknown_format)
{
  guint8 block[16] = { 0, }, rgba[64];

  memset (rgba, 0x5a, sizeof (rgba));
  fail_if (gst_bc_decode_block (GST_BC_FORMAT_UNKNOWN, block, rgba));
  fail_if (gst_bc_decode_block (GST_BC_FORMAT_LAST, block, rgba));
  fail_unless_equals_int (rgba[0], 0x5a);
  fail_unless_equals_int (rgba[63], 0x5a);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* BC7                                                                     */
/* ---------------------------------------------------------------------- */

GST_START_TEST (test_bc7_mode6_solid)
{
  BitWriter bw;
  guint8 rgba[64];
  guint i;

  /* mode 6: 7-bit endpoints + a p-bit per endpoint = 8 bits exactly.
   * (100, 50, 25, 127) with p = 1 is (201, 101, 51, 255) */
  bw_init (&bw);
  bw_put_mode (&bw, 6);
  for (i = 0; i < 2; i++)
    bw_put (&bw, 100, 7);
  for (i = 0; i < 2; i++)
    bw_put (&bw, 50, 7);
  for (i = 0; i < 2; i++)
    bw_put (&bw, 25, 7);
  for (i = 0; i < 2; i++)
    bw_put (&bw, 127, 7);
  bw_put (&bw, 1, 1);
  bw_put (&bw, 1, 1);
  bw_put (&bw, 0, 3);
  for (i = 1; i < 16; i++)
    bw_put (&bw, i == 9 ? 15 : 0, 4);
  bw_finish (&bw);

  decode (GST_BC_FORMAT_BC7, bw.data, rgba);
  for (i = 0; i < 16; i++)
    assert_pixel (rgba, i, 201, 101, 51, 255);
}

GST_END_TEST;

GST_START_TEST (test_bc7_mode6_gradient)
{
  BitWriter bw;
  guint8 rgba[64];
  guint i;

  /* e0 = 0 (p 0), e1 = (127 << 1) | 1 = 255 in all four channels */
  bw_init (&bw);
  bw_put_mode (&bw, 6);
  for (i = 0; i < 4; i++) {
    bw_put (&bw, 0, 7);
    bw_put (&bw, 127, 7);
  }
  bw_put (&bw, 0, 1);
  bw_put (&bw, 1, 1);
  /* pixel 0: 3 bits, code 5 (weight 21): (21*255 + 32) >> 6 = 84 */
  bw_put (&bw, 5, 3);
  /* pixel 1: code 15 (64) = 255; pixel 2: code 8 (34):
   * (34*255 + 32) >> 6 = 135; pixel 3: code 1 (4): (4*255+32) >> 6 = 16 */
  bw_put (&bw, 15, 4);
  bw_put (&bw, 8, 4);
  bw_put (&bw, 1, 4);
  for (i = 4; i < 16; i++)
    bw_put (&bw, 0, 4);
  bw_finish (&bw);

  decode (GST_BC_FORMAT_BC7, bw.data, rgba);
  assert_pixel (rgba, 0, 84, 84, 84, 84);
  assert_pixel (rgba, 1, 255, 255, 255, 255);
  assert_pixel (rgba, 2, 135, 135, 135, 135);
  assert_pixel (rgba, 3, 16, 16, 16, 16);
  assert_pixel (rgba, 4, 0, 0, 0, 0);
}

GST_END_TEST;

GST_START_TEST (test_bc7_mode0)
{
  /* endpoints per channel, subset-major: s0e0, s0e1, s1e0, s1e1, s2e0, s2e1 */
  static const guint r[6] = { 15, 0, 0, 0, 0, 0 };
  static const guint g[6] = { 0, 0, 8, 8, 0, 0 };
  static const guint b[6] = { 0, 0, 0, 0, 3, 12 };
  static const guint p[6] = { 1, 0, 0, 1, 0, 1 };
  BitWriter bw;
  guint8 rgba[64];
  guint i;

  /* 3 subsets, partition 0: 0011 0011 0221 2222; anchors 3 (subset 1) and
   * 15 (subset 2). 4-bit endpoints + p-bit -> 5 bits -> 8 bits:
   * s0e0 (255, 8, 8), s0e1 0, s1e0 (0, 132, 0), s1e1 (8, 140, 8),
   * s2e0 (0, 0, 49), s2e1 (8, 8, 206) */
  bw_init (&bw);
  bw_put_mode (&bw, 0);
  bw_put (&bw, 0, 4);
  bw_put_each (&bw, r, 6, 4);
  bw_put_each (&bw, g, 6, 4);
  bw_put_each (&bw, b, 6, 4);
  bw_put_each (&bw, p, 6, 1);
  bw_put (&bw, 3, 2);           /* pixel 0 (anchor), weight 27 */
  bw_put (&bw, 5, 3);           /* pixel 1, weight 46 */
  bw_put (&bw, 3, 3);           /* pixel 2, subset 1, weight 27 */
  bw_put (&bw, 0, 2);           /* pixel 3, anchor of subset 1 */
  for (i = 4; i < 15; i++)
    bw_put (&bw, i == 9 ? 2 : 0, 3);    /* pixel 9, subset 2, weight 18 */
  bw_put (&bw, 3, 2);           /* pixel 15, anchor of subset 2, weight 27 */
  bw_finish (&bw);

  decode (GST_BC_FORMAT_BC7, bw.data, rgba);
  /* (37*255 + 32) >> 6 = 147, (37*8 + 32) >> 6 = 5 */
  assert_pixel (rgba, 0, 147, 5, 5, 255);
  /* (18*255 + 32) >> 6 = 72, (18*8 + 32) >> 6 = 2 */
  assert_pixel (rgba, 1, 72, 2, 2, 255);
  /* (27*8 + 32) >> 6 = 3, (37*132 + 27*140 + 32) >> 6 = 135 */
  assert_pixel (rgba, 2, 3, 135, 3, 255);
  assert_pixel (rgba, 3, 0, 132, 0, 255);
  assert_pixel (rgba, 4, 255, 8, 8, 255);
  /* (18*8 + 32) >> 6 = 2, (46*49 + 18*206 + 32) >> 6 = 93 */
  assert_pixel (rgba, 9, 2, 2, 93, 255);
  /* (27*8 + 32) >> 6 = 3, (37*49 + 27*206 + 32) >> 6 = 115 */
  assert_pixel (rgba, 15, 3, 3, 115, 255);
}

GST_END_TEST;

GST_START_TEST (test_bc7_mode1)
{
  static const guint r[4] = { 63, 0, 0, 0 };
  static const guint g[4] = { 0, 0, 63, 0 };
  static const guint b[4] = { 0, 63, 0, 0 };
  BitWriter bw;
  guint8 rgba[64];
  guint i;

  /* 2 subsets, partition 17: 0111 0001 0000 0000, anchor 2. 6-bit
   * endpoints + a p-bit shared per subset -> 7 bits -> 8 bits:
   * subset 0 (p 1): e0 (255, 2, 2), e1 (2, 2, 255);
   * subset 1 (p 0): e0 (0, 253, 0), e1 (0, 0, 0) */
  bw_init (&bw);
  bw_put_mode (&bw, 1);
  bw_put (&bw, 17, 6);
  bw_put_each (&bw, r, 4, 6);
  bw_put_each (&bw, g, 4, 6);
  bw_put_each (&bw, b, 4, 6);
  bw_put (&bw, 1, 1);
  bw_put (&bw, 0, 1);
  bw_put (&bw, 3, 2);           /* pixel 0: weight 27 */
  bw_put (&bw, 6, 3);           /* pixel 1, subset 1: weight 55 */
  bw_put (&bw, 2, 2);           /* pixel 2, anchor of subset 1: weight 18 */
  for (i = 3; i < 15; i++)
    bw_put (&bw, 0, 3);
  bw_put (&bw, 7, 3);           /* pixel 15, subset 0: weight 64 */
  bw_finish (&bw);

  decode (GST_BC_FORMAT_BC7, bw.data, rgba);
  /* (37*255 + 27*2 + 32) >> 6 = 148, 2, (37*2 + 27*255 + 32) >> 6 = 109 */
  assert_pixel (rgba, 0, 148, 2, 109, 255);
  /* (9*253 + 32) >> 6 = 36 */
  assert_pixel (rgba, 1, 0, 36, 0, 255);
  /* (46*253 + 32) >> 6 = 182 */
  assert_pixel (rgba, 2, 0, 182, 0, 255);
  assert_pixel (rgba, 3, 0, 253, 0, 255);
  assert_pixel (rgba, 4, 255, 2, 2, 255);
  assert_pixel (rgba, 15, 2, 2, 255, 255);
}

GST_END_TEST;

GST_START_TEST (test_bc7_mode2)
{
  static const guint r[6] = { 31, 0, 0, 0, 0, 0 };
  static const guint g[6] = { 0, 0, 31, 10, 0, 0 };
  static const guint b[6] = { 0, 0, 0, 0, 31, 1 };
  BitWriter bw;
  guint8 rgba[64];
  guint i;

  /* 3 subsets, partition 15: 0011 2001 2200 2220; anchors 3 and 8.
   * 5-bit endpoints, no p-bits: s0 (255, 0, 0)-(0, 0, 0),
   * s1 (0, 255, 0)-(0, 82, 0), s2 (0, 0, 255)-(0, 0, 8) */
  bw_init (&bw);
  bw_put_mode (&bw, 2);
  bw_put (&bw, 15, 6);
  bw_put_each (&bw, r, 6, 5);
  bw_put_each (&bw, g, 6, 5);
  bw_put_each (&bw, b, 6, 5);
  for (i = 0; i < 16; i++) {
    guint n = (i == 0 || i == 3 || i == 8) ? 1 : 2;
    guint v = 0;

    if (i == 0 || i == 3 || i == 8)
      v = 1;                    /* weight 21 */
    else if (i == 15)
      v = 2;                    /* weight 43 */
    else if (i == 4)
      v = 3;                    /* weight 64 */
    bw_put (&bw, v, n);
  }
  bw_finish (&bw);

  decode (GST_BC_FORMAT_BC7, bw.data, rgba);
  /* (43*255 + 32) >> 6 = 171 */
  assert_pixel (rgba, 0, 171, 0, 0, 255);
  /* (43*255 + 21*82 + 32) >> 6 = 198 */
  assert_pixel (rgba, 3, 0, 198, 0, 255);
  /* (43*255 + 21*8 + 32) >> 6 = 174 */
  assert_pixel (rgba, 8, 0, 0, 174, 255);
  /* (21*255 + 32) >> 6 = 84 */
  assert_pixel (rgba, 15, 84, 0, 0, 255);
  assert_pixel (rgba, 4, 0, 0, 8, 255);
  assert_pixel (rgba, 7, 0, 255, 0, 255);
}

GST_END_TEST;

GST_START_TEST (test_bc7_mode3)
{
  static const guint r[4] = { 100, 0, 10, 127 };
  static const guint g[4] = { 20, 0, 127, 0 };
  static const guint b[4] = { 3, 0, 64, 0 };
  static const guint p[4] = { 1, 0, 0, 1 };
  BitWriter bw;
  guint8 rgba[64];
  guint i;

  /* 2 subsets, partition 13: rows 0-1 subset 0, rows 2-3 subset 1, anchor
   * 15. 7-bit endpoints + p-bit: s0 (201, 41, 7)-(0, 0, 0),
   * s1 (20, 254, 128)-(255, 1, 1) */
  bw_init (&bw);
  bw_put_mode (&bw, 3);
  bw_put (&bw, 13, 6);
  bw_put_each (&bw, r, 4, 7);
  bw_put_each (&bw, g, 4, 7);
  bw_put_each (&bw, b, 4, 7);
  bw_put_each (&bw, p, 4, 1);
  bw_put (&bw, 1, 1);           /* pixel 0: weight 21 */
  for (i = 1; i < 15; i++)
    bw_put (&bw, i == 8 ? 2 : (i == 7 ? 3 : 0), 2);
  bw_put (&bw, 1, 1);           /* pixel 15, anchor: weight 21 */
  bw_finish (&bw);

  decode (GST_BC_FORMAT_BC7, bw.data, rgba);
  /* (43*201 + 32) >> 6 = 135, (43*41 + 32) >> 6 = 28, (43*7+32) >> 6 = 5 */
  assert_pixel (rgba, 0, 135, 28, 5, 255);
  assert_pixel (rgba, 7, 0, 0, 0, 255);
  /* weight 43: (21*20 + 43*255 + 32) >> 6 = 178, (21*254 + 43 + 32) >> 6
   * = 84, (21*128 + 43 + 32) >> 6 = 43 */
  assert_pixel (rgba, 8, 178, 84, 43, 255);
  assert_pixel (rgba, 9, 20, 254, 128, 255);
  /* weight 21: (43*20 + 21*255 + 32) >> 6 = 97, (43*254 + 21 + 32) >> 6
   * = 171, (43*128 + 21 + 32) >> 6 = 86 */
  assert_pixel (rgba, 15, 97, 171, 86, 255);
}

GST_END_TEST;

static void
make_bc7_mode4 (BitWriter * bw, guint rotation, guint isb)
{
  guint i;

  /* e0 = (31, 0, 16 | 63), e1 = (0, 31, 0 | 0): (255, 0, 132, 255) and
   * (0, 255, 0, 0) */
  bw_init (bw);
  bw_put_mode (bw, 4);
  bw_put (bw, rotation, 2);
  bw_put (bw, isb, 1);
  bw_put (bw, 31, 5);
  bw_put (bw, 0, 5);
  bw_put (bw, 0, 5);
  bw_put (bw, 31, 5);
  bw_put (bw, 16, 5);
  bw_put (bw, 0, 5);
  bw_put (bw, 63, 6);
  bw_put (bw, 0, 6);
  /* 2-bit indices: pixel 0 = 1, pixel 1 = 2 */
  bw_put (bw, 1, 1);
  bw_put (bw, 2, 2);
  for (i = 2; i < 16; i++)
    bw_put (bw, 0, 2);
  /* 3-bit indices: pixel 0 = 3, pixel 1 = 7 */
  bw_put (bw, 3, 2);
  bw_put (bw, 7, 3);
  for (i = 2; i < 16; i++)
    bw_put (bw, 0, 3);
  bw_finish (bw);
}

GST_START_TEST (test_bc7_mode4)
{
  BitWriter bw;
  guint8 rgba[64];

  /* no rotation, index selection 0: colour from the 2-bit indices, alpha
   * from the 3-bit ones */
  make_bc7_mode4 (&bw, 0, 0);
  decode (GST_BC_FORMAT_BC7, bw.data, rgba);
  /* colour weight 21: 171, 84, (43*132 + 32) >> 6 = 89;
   * alpha weight 27: (37*255 + 32) >> 6 = 147 */
  assert_pixel (rgba, 0, 171, 84, 89, 147);
  /* colour weight 43: 84, 171, (21*132 + 32) >> 6 = 43; alpha weight 64 */
  assert_pixel (rgba, 1, 84, 171, 43, 0);
  assert_pixel (rgba, 2, 255, 0, 132, 255);

  /* rotation 2 (swap alpha and green), index selection 1: colour from the
   * 3-bit indices, alpha from the 2-bit ones */
  make_bc7_mode4 (&bw, 2, 1);
  decode (GST_BC_FORMAT_BC7, bw.data, rgba);
  /* colour weight 27: 147, (27*255 + 32) >> 6 = 108,
   * (37*132 + 32) >> 6 = 76; alpha weight 21: 171; then swap */
  assert_pixel (rgba, 0, 147, 171, 76, 108);
  /* colour weight 64: (0, 255, 0); alpha weight 43: 84; swap */
  assert_pixel (rgba, 1, 0, 84, 0, 255);
  assert_pixel (rgba, 2, 255, 255, 132, 0);
}

GST_END_TEST;

GST_START_TEST (test_bc7_mode5)
{
  BitWriter bw;
  guint8 rgba[64];
  guint i;

  /* rotation 1 (swap alpha and red); e0 = (127, 64, 0 | 200),
   * e1 = (0, 0, 127 | 10): (255, 129, 0, 200) and (0, 0, 255, 10) */
  bw_init (&bw);
  bw_put_mode (&bw, 5);
  bw_put (&bw, 1, 2);
  bw_put (&bw, 127, 7);
  bw_put (&bw, 0, 7);
  bw_put (&bw, 64, 7);
  bw_put (&bw, 0, 7);
  bw_put (&bw, 0, 7);
  bw_put (&bw, 127, 7);
  bw_put (&bw, 200, 8);
  bw_put (&bw, 10, 8);
  /* colour indices: pixel 0 = 1, pixel 5 = 3 */
  bw_put (&bw, 1, 1);
  for (i = 1; i < 16; i++)
    bw_put (&bw, i == 5 ? 3 : 0, 2);
  /* alpha indices: pixel 0 = 0, pixel 5 = 2 */
  bw_put (&bw, 0, 1);
  for (i = 1; i < 16; i++)
    bw_put (&bw, i == 5 ? 2 : 0, 2);
  bw_finish (&bw);

  decode (GST_BC_FORMAT_BC7, bw.data, rgba);
  /* colour weight 21: 171, (43*129 + 32) >> 6 = 87, 84; alpha 200; swap */
  assert_pixel (rgba, 0, 200, 87, 84, 171);
  /* colour (0, 0, 255); alpha weight 43: (21*200 + 43*10 + 32) >> 6 = 72 */
  assert_pixel (rgba, 5, 72, 0, 255, 0);
  assert_pixel (rgba, 1, 200, 129, 0, 255);
}

GST_END_TEST;

GST_START_TEST (test_bc7_mode7)
{
  static const guint r[4] = { 31, 0, 0, 0 };
  static const guint g[4] = { 0, 0, 16, 31 };
  static const guint b[4] = { 0, 0, 0, 31 };
  static const guint a[4] = { 31, 0, 8, 31 };
  static const guint p[4] = { 1, 0, 0, 1 };
  BitWriter bw;
  guint8 rgba[64];
  guint i;

  /* 2 subsets, partition 36: 0011 1100 0011 1100, anchor 2. 5-bit
   * endpoints + p-bit -> 6 bits -> 8 bits: s0 (255, 4, 4, 255)-(0, 0, 0, 0),
   * s1 (0, 130, 0, 65)-(4, 255, 255, 255) */
  bw_init (&bw);
  bw_put_mode (&bw, 7);
  bw_put (&bw, 36, 6);
  bw_put_each (&bw, r, 4, 5);
  bw_put_each (&bw, g, 4, 5);
  bw_put_each (&bw, b, 4, 5);
  bw_put_each (&bw, a, 4, 5);
  bw_put_each (&bw, p, 4, 1);
  bw_put (&bw, 1, 1);           /* pixel 0: weight 21 */
  bw_put (&bw, 0, 2);           /* pixel 1 */
  bw_put (&bw, 1, 1);           /* pixel 2, anchor of subset 1: weight 21 */
  for (i = 3; i < 16; i++)
    bw_put (&bw, i == 3 ? 3 : (i == 6 ? 2 : 0), 2);
  bw_finish (&bw);

  decode (GST_BC_FORMAT_BC7, bw.data, rgba);
  /* 171, (43*4 + 32) >> 6 = 3 */
  assert_pixel (rgba, 0, 171, 3, 3, 171);
  assert_pixel (rgba, 1, 255, 4, 4, 255);
  /* (21*4 + 32) >> 6 = 1, (43*130 + 21*255 + 32) >> 6 = 171, 84,
   * (43*65 + 21*255 + 32) >> 6 = 127 */
  assert_pixel (rgba, 2, 1, 171, 84, 127);
  assert_pixel (rgba, 3, 4, 255, 255, 255);
  assert_pixel (rgba, 4, 0, 130, 0, 65);
  /* weight 43: 84, (21*4 + 32) >> 6 = 1 */
  assert_pixel (rgba, 6, 84, 1, 1, 84);
}

GST_END_TEST;

GST_START_TEST (test_bc7_reserved)
{
  guint8 block[16], rgba[64];
  guint i;

  memset (block, 0xff, sizeof (block));
  block[0] = 0;
  decode (GST_BC_FORMAT_BC7, block, rgba);
  for (i = 0; i < 16; i++)
    assert_pixel (rgba, i, 0, 0, 0, 0);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* gst_bc_decode_rows                                                      */
/* ---------------------------------------------------------------------- */

#define SENTINEL 0xA7

/* A frame of pseudo-random blocks (fixed seed). For BC7 the mode byte is
 * kept valid in most blocks so real pixels come out. */
static guint8 *
make_frame (GstBcFormat format, guint width, guint height, gsize * size)
{
  GstBcInfo info;
  GRand *rand;
  guint8 *frame;
  gsize i;

  fail_unless (gst_bc_info_set_format (&info, format, width, height));
  frame = g_malloc (info.size);
  rand = g_rand_new_with_seed (1234 + format * 7 + width * 31 + height);
  for (i = 0; i < info.size; i++)
    frame[i] = g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);
  *size = info.size;
  return frame;
}

/* Decodes @frame with gst_bc_decode_rows() for block rows
 * [first, first + n) into a buffer with margins, then checks every byte:
 * decoded rows against gst_bc_decode_block(), everything else untouched. */
static void
check_rows (GstBcFormat format, guint width, guint height,
    GstVideoFormat vformat, guint first, guint n)
{
  GstBcPixelLayout layout;
  guint8 *frame, *buf;
  gsize frame_size, stride, buf_size;
  guint blocks_x = (width + 3) / 4;
  guint block_bytes = gst_bc_format_get_block_bytes (format);
  guint x, y, k;
  const guint extra_rows = 3;

  fail_unless (gst_bc_pixel_layout_from_video_format (&layout, vformat));
  frame = make_frame (format, width, height, &frame_size);

  /* stride with 5 spare pixels and 3 spare rows below the picture */
  stride = (gsize) (width + 5) * layout.bpp;
  buf_size = stride * (height + extra_rows);
  buf = g_malloc (buf_size);
  memset (buf, SENTINEL, buf_size);

  gst_bc_decode_rows (format, frame, width, height, first, n, buf, stride,
      &layout);

  for (y = 0; y < height + extra_rows; y++) {
    gboolean in_rows = y < height && y / 4 >= first && y / 4 < first + n;

    for (x = 0; x < stride; x++) {
      guint px = x / layout.bpp, byte = x % layout.bpp;
      guint8 got = buf[y * stride + x];
      guint8 want = SENTINEL;

      if (in_rows && px < width) {
        guint8 rgba[64];
        const guint8 *block = frame +
            ((gsize) (y / 4) * blocks_x + px / 4) * block_bytes;
        const guint8 *p;

        fail_unless (gst_bc_decode_block (format, block, rgba));
        p = rgba + ((y % 4) * 4 + px % 4) * 4;
        if ((gint) byte == layout.r)
          want = p[0];
        else if ((gint) byte == layout.g)
          want = p[1];
        else if ((gint) byte == layout.b)
          want = p[2];
        else if ((gint) byte == layout.a)
          want = p[3];
        else if ((gint) byte == layout.x)
          want = 255;
        else
          fail ("byte %u of the layout is nothing", byte);
      }
      if (got != want) {
        fail ("%s %ux%u as %s, block rows %u+%u: byte %u of pixel (%u, %u) "
            "is 0x%02x, expected 0x%02x", gst_bc_format_to_string (format),
            width, height, gst_video_format_to_string (vformat), first, n,
            byte, px, y, got, want);
      }
    }
  }

  /* sanity: at least one written byte differs from the sentinel */
  if (n > 0) {
    gboolean changed = FALSE;

    for (k = 0; k < buf_size && !changed; k++)
      changed = buf[k] != SENTINEL;
    fail_unless (changed);
  }

  g_free (buf);
  g_free (frame);
}

static const GstBcFormat all_formats[] = {
  GST_BC_FORMAT_BC1, GST_BC_FORMAT_BC3, GST_BC_FORMAT_YCOCG_BC3,
  GST_BC_FORMAT_BC4, GST_BC_FORMAT_BC5, GST_BC_FORMAT_BC7,
};

static const GstVideoFormat out_formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_RGB,
  GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_BGR,
};

GST_START_TEST (test_rows_crop)
{
  static const guint sizes[][2] = {
    {30, 26}, {1, 1}, {3, 5}, {4, 4}, {8, 3}, {17, 9},
  };
  guint f, o, s;

  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    for (o = 0; o < G_N_ELEMENTS (out_formats); o++) {
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        guint w = sizes[s][0], h = sizes[s][1];

        check_rows (all_formats[f], w, h, out_formats[o], 0, (h + 3) / 4);
      }
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_rows_subrange)
{
  guint f;

  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    /* 30x26 has 7 block rows, the last one 2 pixels high */
    check_rows (all_formats[f], 30, 26, GST_VIDEO_FORMAT_RGBA, 2, 2);
    check_rows (all_formats[f], 30, 26, GST_VIDEO_FORMAT_BGRx, 0, 1);
    check_rows (all_formats[f], 30, 26, GST_VIDEO_FORMAT_RGB, 6, 1);
    check_rows (all_formats[f], 30, 26, GST_VIDEO_FORMAT_RGBA, 3, 4);
    check_rows (all_formats[f], 30, 26, GST_VIDEO_FORMAT_RGBA, 7, 0);
  }
}

GST_END_TEST;

/* Known pixels through the whole path: a 3x5 BC1 frame (1x2 blocks) into
 * BGRx and RGB, checked against hand-computed bytes. */
GST_START_TEST (test_rows_known_pixels)
{
  static const guint8 idx[16] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3,
    0, 1, 2, 3
  };
  GstBcPixelLayout layout;
  guint8 frame[16], buf[2 * 8 * 5 + 8];
  guint y;

  /* block row 0: red 255, 8, 172, 90; block row 1: green 255 / blue 255 */
  make_bc1 (frame, 0xF800, 0x0800, idx);
  make_bc1 (frame + 8, 0x07E0, 0x001F, idx);

  fail_unless (gst_bc_pixel_layout_from_video_format (&layout,
          GST_VIDEO_FORMAT_BGRx));
  memset (buf, SENTINEL, sizeof (buf));
  gst_bc_decode_rows (GST_BC_FORMAT_BC1, frame, 3, 5, 0, 2, buf, 16, &layout);
  for (y = 0; y < 4; y++) {
    static const guint8 row[16] = { 0, 0, 255, 255, 0, 0, 8, 255,
      0, 0, 172, 255, SENTINEL, SENTINEL, SENTINEL, SENTINEL
    };
    fail_unless (memcmp (buf + y * 16, row, 16) == 0, "row %u", y);
  }
  {
    static const guint8 row[16] = { 0, 255, 0, 255, 255, 0, 0, 255,
      85, 170, 0, 255, SENTINEL, SENTINEL, SENTINEL, SENTINEL
    };
    fail_unless (memcmp (buf + 4 * 16, row, 16) == 0);
  }
  for (y = 5 * 16; y < sizeof (buf); y++)
    fail_unless_equals_int (buf[y], SENTINEL);

  fail_unless (gst_bc_pixel_layout_from_video_format (&layout,
          GST_VIDEO_FORMAT_RGB));
  memset (buf, SENTINEL, sizeof (buf));
  /* only the second block row: pixel row 4 */
  gst_bc_decode_rows (GST_BC_FORMAT_BC1, frame, 3, 5, 1, 1, buf, 9, &layout);
  for (y = 0; y < 4 * 9; y++)
    fail_unless_equals_int (buf[y], SENTINEL);
  {
    static const guint8 row[9] = { 0, 255, 0, 0, 0, 255, 0, 170, 85 };
    fail_unless (memcmp (buf + 4 * 9, row, 9) == 0);
  }
  for (y = 5 * 9; y < sizeof (buf); y++)
    fail_unless_equals_int (buf[y], SENTINEL);
}

GST_END_TEST;

GST_START_TEST (test_rows_bad_args)
{
  GstBcPixelLayout layout, bad;
  guint8 frame[8 * 8 * 2] = { 0, }, buf[30 * 26 * 4];

  fail_unless (gst_bc_pixel_layout_from_video_format (&layout,
          GST_VIDEO_FORMAT_RGBA));
  memset (buf, SENTINEL, sizeof (buf));

  /* 30x26 BC1 has 7 block rows */
  ASSERT_CRITICAL (gst_bc_decode_rows (GST_BC_FORMAT_BC1, frame, 30, 26,
          6, 2, buf, 30 * 4, &layout));
  ASSERT_CRITICAL (gst_bc_decode_rows (GST_BC_FORMAT_BC1, frame, 30, 26,
          8, 0, buf, 30 * 4, &layout));
  ASSERT_CRITICAL (gst_bc_decode_rows (GST_BC_FORMAT_BC1, frame, 30, 26,
          1, G_MAXUINT, buf, 30 * 4, &layout));
  ASSERT_CRITICAL (gst_bc_decode_rows (GST_BC_FORMAT_UNKNOWN, frame, 30, 26,
          0, 1, buf, 30 * 4, &layout));
  ASSERT_CRITICAL (gst_bc_decode_rows (GST_BC_FORMAT_BC1, NULL, 30, 26,
          0, 1, buf, 30 * 4, &layout));
  ASSERT_CRITICAL (gst_bc_decode_rows (GST_BC_FORMAT_BC1, frame, 30, 26,
          0, 1, NULL, 30 * 4, &layout));
  ASSERT_CRITICAL (gst_bc_decode_rows (GST_BC_FORMAT_BC1, frame, 30, 26,
          0, 1, buf, 30 * 4, NULL));
  ASSERT_CRITICAL (gst_bc_decode_rows (GST_BC_FORMAT_BC1, frame, 0, 26,
          0, 1, buf, 30 * 4, &layout));
  /* stride too small */
  ASSERT_CRITICAL (gst_bc_decode_rows (GST_BC_FORMAT_BC1, frame, 30, 26,
          0, 1, buf, 30 * 4 - 1, &layout));
  bad = layout;
  bad.bpp = 2;
  ASSERT_CRITICAL (gst_bc_decode_rows (GST_BC_FORMAT_BC1, frame, 30, 26,
          0, 1, buf, 30 * 4, &bad));
  bad = layout;
  bad.a = 4;
  ASSERT_CRITICAL (gst_bc_decode_rows (GST_BC_FORMAT_BC1, frame, 30, 26,
          0, 1, buf, 30 * 4, &bad));

  /* nothing was written */
  {
    guint i;

    for (i = 0; i < sizeof (buf); i++)
      fail_unless_equals_int (buf[i], SENTINEL);
  }
}

GST_END_TEST;

typedef struct
{
  GstBcFormat format;
  const guint8 *frame;
  guint width, height;
  guint8 *dst;
  gsize stride;
  GstBcPixelLayout layout;
  guint first, n;
} RowsJob;

static gpointer
rows_thread (gpointer data)
{
  RowsJob *job = data;

  gst_bc_decode_rows (job->format, job->frame, job->width, job->height,
      job->first, job->n, job->dst, job->stride, &job->layout);
  return NULL;
}

GST_START_TEST (test_rows_threads)
{
  const guint w = 250, h = 130, n_threads = 5;
  guint blocks_y = (h + 3) / 4;
  GstBcPixelLayout layout;
  RowsJob jobs[5];
  GThread *threads[5];
  guint8 *frame, *one, *many;
  gsize size, stride = w * 4;
  guint i, row = 0;

  fail_unless (gst_bc_pixel_layout_from_video_format (&layout,
          GST_VIDEO_FORMAT_RGBA));
  frame = make_frame (GST_BC_FORMAT_BC7, w, h, &size);
  one = g_malloc0 (stride * h);
  many = g_malloc0 (stride * h);

  gst_bc_decode_rows (GST_BC_FORMAT_BC7, frame, w, h, 0, blocks_y, one,
      stride, &layout);

  for (i = 0; i < n_threads; i++) {
    guint n = blocks_y / n_threads + (i < blocks_y % n_threads ? 1 : 0);

    jobs[i].format = GST_BC_FORMAT_BC7;
    jobs[i].frame = frame;
    jobs[i].width = w;
    jobs[i].height = h;
    jobs[i].dst = many;
    jobs[i].stride = stride;
    jobs[i].layout = layout;
    jobs[i].first = row;
    jobs[i].n = n;
    row += n;
    threads[i] = g_thread_new ("bcdecode", rows_thread, &jobs[i]);
  }
  fail_unless_equals_int (row, blocks_y);
  for (i = 0; i < n_threads; i++)
    g_thread_join (threads[i]);

  fail_unless (memcmp (one, many, stride * h) == 0);

  g_free (one);
  g_free (many);
  g_free (frame);
}

GST_END_TEST;

static Suite *
bcdecode_suite (void)
{
  Suite *s = suite_create ("bcdecode");
  TCase *tc = test_suite_add_general (s, 0);

  test_watch_log_domain ("GStreamer-BC");
  tcase_add_test (tc, test_bc1_four_colour);
  tcase_add_test (tc, test_bc1_three_colour);
  tcase_add_test (tc, test_bc3_alpha_eight);
  tcase_add_test (tc, test_bc3_alpha_six);
  tcase_add_test (tc, test_bc3_colour_always_four);
  tcase_add_test (tc, test_ycocg_grey);
  tcase_add_test (tc, test_ycocg_colour);
  tcase_add_test (tc, test_bc4);
  tcase_add_test (tc, test_bc5);
  tcase_add_test (tc, test_unknown_format);
  tcase_add_test (tc, test_bc7_mode6_solid);
  tcase_add_test (tc, test_bc7_mode6_gradient);
  tcase_add_test (tc, test_bc7_mode0);
  tcase_add_test (tc, test_bc7_mode1);
  tcase_add_test (tc, test_bc7_mode2);
  tcase_add_test (tc, test_bc7_mode3);
  tcase_add_test (tc, test_bc7_mode4);
  tcase_add_test (tc, test_bc7_mode5);
  tcase_add_test (tc, test_bc7_mode7);
  tcase_add_test (tc, test_bc7_reserved);
  tcase_add_test (tc, test_rows_crop);
  tcase_add_test (tc, test_rows_subrange);
  tcase_add_test (tc, test_rows_known_pixels);
  tcase_add_test (tc, test_rows_bad_args);
  tcase_add_test (tc, test_rows_threads);

  return s;
}

GST_CHECK_MAIN (bcdecode);
