/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* BC6H block decoder tests. The blocks are written bit by bit from the
 * "Interpretation of bits for BC6H block modes" tables of the Khronos Data
 * Format Specification (the decoder reads the other form of the same
 * layout, the "Block descriptions"), and every expected half float was
 * worked out by hand from the specification's formulas, as the comments
 * show:
 *
 *   unquantize (unsigned, EPB < 15): 0 -> 0, 2^EPB - 1 -> 0xffff, else
 *     ((x << 16) + 0x8000) >> EPB (= 64 x + 32 for EPB = 10)
 *   interpolate: ((64 - w) a + w b + 32) >> 6
 *   finish (unsigned): (i * 31) >> 6; (signed): the magnitude * 31 >> 5
 *
 * Modes are named as Microsoft numbers them (1..14) with the KDFS mode
 * number after. tests/interop/bc6h.py compares random blocks of every mode
 * with an independent decoder. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/bc/bc.h>

#include <string.h>

typedef struct
{
  guint8 data[16];
} Block;

static void
set_bit (Block * b, guint pos, guint bit)
{
  fail_unless (pos < 128);
  if (bit)
    b->data[pos / 8] |= 1u << (pos % 8);
  else
    b->data[pos / 8] &= ~(1u << (pos % 8));
}

/* @n bits of @value at @pos, least significant first */
static void
put_bits (Block * b, guint pos, guint value, guint n)
{
  guint i;

  fail_unless (n == 32 || value < (1u << n));
  for (i = 0; i < n; i++)
    set_bit (b, pos + i, (value >> i) & 1);
}

/* the indices from bit @pos: @n_bits each, one less for pixel 0 and the
 * anchor pixel @anchor */
static void
put_indices (Block * b, guint pos, const guint8 idx[16], guint n_bits,
    guint anchor)
{
  guint i;

  for (i = 0; i < 16; i++) {
    guint n = (i == 0 || i == anchor) ? n_bits - 1 : n_bits;

    put_bits (b, pos, idx[i], n);
    pos += n;
  }
  fail_unless_equals_int (pos, 128);
}

static void
decode_half (GstBcFormat format, const Block * b, guint16 out[64])
{
  memset (out, 0x5a, 64 * sizeof (guint16));
  fail_unless (gst_bc_decode_block_half (format, b->data, out));
}

static void
assert_half (const guint16 * out, guint i, guint r, guint g, guint b)
{
  const guint16 *p = out + i * 4;

  fail_unless (p[0] == r && p[1] == g && p[2] == b && p[3] == 0x3c00,
      "pixel %u is (0x%04x, 0x%04x, 0x%04x, 0x%04x), expected (0x%04x, "
      "0x%04x, 0x%04x, 0x3c00)", i, p[0], p[1], p[2], p[3], r, g, b);
}

/* Mode 11 (KDFS 3, mode bits 00011): one region, two explicit 10-bit
 * endpoints, 4-bit indices. Bits: M 0-4, R0 5-14, G0 15-24, B0 25-34, R1
 * 35-44, G1 45-54, B1 55-64, indices 65-127. */
static void
make_mode11 (Block * b, const guint e[6], const guint8 idx[16])
{
  guint i;

  memset (b, 0, sizeof (*b));
  put_bits (b, 0, 3, 5);
  for (i = 0; i < 6; i++)
    put_bits (b, 5 + 10 * i, e[i], 10);
  put_indices (b, 65, idx, 4, 0);
}

GST_START_TEST (test_mode11_explicit)
{
  /* E0 = (495, 0, 1023), E1 = (0, 1023, 512): unquantized
   * E0 = (31712, 0, 0xffff), E1 = (0, 0xffff, 32800) */
  static const guint e[6] = { 495, 0, 1023, 0, 1023, 512 };
  guint8 idx[16] = { 0, 15, 8, 4, 0, };
  guint16 out[64];
  Block b;
  guint i;

  make_mode11 (&b, e, idx);
  decode_half (GST_BC_FORMAT_BC6H, &b, out);

  /* w = 0: R 31712 * 31 >> 6 = 15360 (1.0), G 0, B 0xffff * 31 >> 6 =
   * 31743 (0x7bff, 65504) */
  assert_half (out, 0, 0x3c00, 0, 0x7bff);
  /* index 15, w = 64: R 0, G 0x7bff, B 32800 * 31 >> 6 = 15887 */
  assert_half (out, 1, 0, 0x7bff, 0x3e0f);
  /* index 8, w = 34: R (31712 * 30 + 32) >> 6 = 14865, * 31 >> 6 = 7200;
   * G (65535 * 34 + 32) >> 6 = 34815, -> 16863;
   * B (65535 * 30 + 32800 * 34 + 32) >> 6 = 48145, -> 23320 */
  assert_half (out, 2, 0x1c20, 0x41df, 0x5b18);
  /* index 4, w = 17: R (31712 * 47 + 32) >> 6 = 23289, -> 11280;
   * G (65535 * 17 + 32) >> 6 = 17408, -> 8432;
   * B (65535 * 47 + 32800 * 17 + 32) >> 6 = 56840, -> 27531 */
  assert_half (out, 3, 0x2c10, 0x20f0, 0x6b8b);
  for (i = 4; i < 16; i++)
    assert_half (out, i, 0x3c00, 0, 0x7bff);
}

GST_END_TEST;

/* Mode 1 (KDFS 0, mode bits 00): two regions, a 10-bit base and 5-bit
 * deltas. Its bits, from the KDFS table: */
static void
make_mode1 (Block * b, const guint r[4], const guint g[4], const guint bl[4],
    guint partition, const guint8 idx[16])
{
  guint i;

  memset (b, 0, sizeof (*b));
  put_bits (b, 0, 0, 2);
  set_bit (b, 2, (g[2] >> 4) & 1);
  set_bit (b, 3, (bl[2] >> 4) & 1);
  set_bit (b, 4, (bl[3] >> 4) & 1);
  put_bits (b, 5, r[0], 10);
  put_bits (b, 15, g[0], 10);
  put_bits (b, 25, bl[0], 10);
  put_bits (b, 35, r[1], 5);
  set_bit (b, 40, (g[3] >> 4) & 1);
  put_bits (b, 41, g[2] & 0xf, 4);
  put_bits (b, 45, g[1], 5);
  set_bit (b, 50, bl[3] & 1);
  put_bits (b, 51, g[3] & 0xf, 4);
  put_bits (b, 55, bl[1], 5);
  set_bit (b, 60, (bl[3] >> 1) & 1);
  put_bits (b, 61, bl[2] & 0xf, 4);
  put_bits (b, 65, r[2], 5);
  set_bit (b, 70, (bl[3] >> 2) & 1);
  put_bits (b, 71, r[3], 5);
  set_bit (b, 76, (bl[3] >> 3) & 1);
  put_bits (b, 77, partition, 5);
  /* partition 13's second region starts at pixel 8, anchor 15 */
  for (i = 0; i < 16; i++)
    fail_unless (idx[i] < 8);
  put_indices (b, 82, idx, 3, 15);
}

GST_START_TEST (test_mode1_delta)
{
  /* E0 = (512, 100, 1020); deltas, 5-bit two's complement:
   * E1 = E0 + (3, -2, 15), E2 = E0 + (-16, 0, -1), E3 = E0 + (5, 7, -8),
   * wrapped at 10 bits: E1 = (515, 98, 11) (1035 wraps to 11),
   * E2 = (496, 100, 1019), E3 = (517, 107, 1012). Unquantized (64 x + 32):
   * E0 = (32800, 6432, 65312), E1 = (32992, 6304, 736),
   * E2 = (31776, 6432, 65248), E3 = (33120, 6880, 64800). */
  static const guint r[4] = { 512, 3, 16, 5 };
  static const guint g[4] = { 100, 30, 0, 7 };
  static const guint bl[4] = { 1020, 15, 31, 24 };
  guint8 idx[16] = { 0, };
  guint16 out[64];
  Block b;
  guint i;

  idx[1] = 7;
  idx[8] = 7;
  idx[15] = 3;
  make_mode1 (&b, r, g, bl, 13, idx);
  decode_half (GST_BC_FORMAT_BC6H, &b, out);

  /* region 0, w = 0: E0 * 31 >> 6 = (15887, 3115, 31635) */
  assert_half (out, 0, 0x3e0f, 0x0c2b, 0x7b93);
  /* region 0, index 7 (w = 64): E1 -> (15980, 3053, 356) */
  assert_half (out, 1, 0x3e6c, 0x0bed, 0x0164);
  /* region 1, index 7: E3 -> (16042, 3332, 31387) */
  assert_half (out, 8, 0x3eaa, 0x0d04, 0x7a9b);
  /* region 1's anchor, index 3 (w = 27): R (31776 * 37 + 33120 * 27 + 32)
   * >> 6 = 32343 -> 15666; G (6432 * 37 + 6880 * 27 + 32) >> 6 = 6621 ->
   * 3207; B (65248 * 37 + 64800 * 27 + 32) >> 6 = 65059 -> 31512 */
  assert_half (out, 15, 0x3d32, 0x0c87, 0x7b18);
  for (i = 2; i < 8; i++)
    assert_half (out, i, 0x3e0f, 0x0c2b, 0x7b93);
  /* region 1, w = 0: E2 -> (15391, 3115, 31604) */
  for (i = 9; i < 15; i++)
    assert_half (out, i, 0x3c1f, 0x0c2b, 0x7b74);
}

GST_END_TEST;

/* Mode 14 (KDFS 15, mode bits 01111): one region, a 16-bit base and 4-bit
 * deltas. Bits: M 0-4, R0 bits 0-9 at 5-14, G0 15-24, B0 25-34; then for
 * each channel the delta (4 bits) and the base's bits 15, 14, ..., 10 in
 * that order (R at 35-44, G at 45-54, B at 55-64); indices 65-127. */
static void
make_mode14 (Block * b, const guint e0[3], const guint delta[3],
    const guint8 idx[16])
{
  guint c, k;

  memset (b, 0, sizeof (*b));
  put_bits (b, 0, 15, 5);
  for (c = 0; c < 3; c++)
    put_bits (b, 5 + 10 * c, e0[c] & 0x3ff, 10);
  for (c = 0; c < 3; c++) {
    put_bits (b, 35 + 10 * c, delta[c], 4);
    for (k = 0; k < 6; k++)
      set_bit (b, 39 + 10 * c + k, (e0[c] >> (15 - k)) & 1);
  }
  put_indices (b, 65, idx, 4, 0);
}

GST_START_TEST (test_mode14_16bit)
{
  /* E0 = (31711, 0x8421, 0xffff), deltas (7, -8, 1):
   * E1 = (31718, 33817, 0x10000 wrapped to 0); 16-bit endpoints are not
   * unquantized */
  static const guint e0[3] = { 31711, 0x8421, 0xffff };
  static const guint delta[3] = { 7, 8, 1 };
  guint8 idx[16] = { 0, 15, 8, 0, };
  guint16 out[64];
  Block b;
  guint i;

  make_mode14 (&b, e0, delta, idx);
  decode_half (GST_BC_FORMAT_BC6H, &b, out);

  /* w = 0: 31711 * 31 >> 6 = 15360 (1.0); 33825 * 31 >> 6 = 16383;
   * 0xffff -> 0x7bff */
  assert_half (out, 0, 0x3c00, 0x3fff, 0x7bff);
  /* w = 64: 31718 -> 15363; 33817 -> 16380; 0 */
  assert_half (out, 1, 0x3c03, 0x3ffc, 0);
  /* w = 34: (31711 * 30 + 31718 * 34 + 32) >> 6 = 31715 -> 15361;
   * (33825 * 30 + 33817 * 34 + 32) >> 6 = 33821 -> 16382;
   * (65535 * 30 + 32) >> 6 = 30720 -> 14880 */
  assert_half (out, 2, 0x3c01, 0x3ffe, 0x3a20);
  for (i = 3; i < 16; i++)
    assert_half (out, i, 0x3c00, 0x3fff, 0x7bff);
}

GST_END_TEST;

GST_START_TEST (test_signed)
{
  static const guint e[6] = { 0x3ff, 511, 512, 0, 0, 0 };
  static const guint e0[3] = { 0x8000, 0, 0 };
  static const guint e0_minus[3] = { 0xffff, 0xfffe, 0xffdf };
  static const guint delta[3] = { 0, 0, 0 };
  guint8 idx[16] = { 0, };
  guint16 out[64];
  Block b;
  guint i;

  /* mode 11 signed: R0 = 0x3ff is -1: unquantized -(((1 << 15) + 0x4000)
   * >> 9) = -96, interpolated floor ((-96 * 64 + 32) / 64) = -96, finished
   * -(96 * 31 >> 5) = -93: 0x805d. G0 = 511 >= 2^9 - 1: 0x7fff ->
   * 32767 * 31 >> 5 = 31743 (0x7bff). B0 = 512 is -512: -0x7fff -> 0xfbff
   * (-65504) */
  make_mode11 (&b, e, idx);
  decode_half (GST_BC_FORMAT_BC6H_SF, &b, out);
  for (i = 0; i < 16; i++)
    assert_half (out, i, 0x805d, 0x7bff, 0xfbff);

  /* the same bits unsigned: 1023 -> 0xffff -> 0x7bff, 511 -> 32736 ->
   * 15856 (0x3df0), 512 -> 32800 -> 15887 (0x3e0f) */
  decode_half (GST_BC_FORMAT_BC6H, &b, out);
  for (i = 0; i < 16; i++)
    assert_half (out, i, 0x7bff, 0x3df0, 0x3e0f);

  /* mode 14 signed, R0 = 0x8000 = -32768: not unquantized (16 bits),
   * finished -(32768 * 31 >> 5) = -31744: 0xfc00, minus infinity, the
   * "accidental" value the KDFS describes */
  make_mode14 (&b, e0, delta, idx);
  decode_half (GST_BC_FORMAT_BC6H_SF, &b, out);
  for (i = 0; i < 16; i++)
    assert_half (out, i, 0xfc00, 0, 0);

  /* mode 14 signed, E0 = (-1, -2, -33): interpolated floor (-0.5) = -1,
   * floor (-1.5) = -2, floor (-32.5) = -33; magnitudes 31 >> 5 = 0 (+0.0
   * as Direct3D has it, not the KDFS formula's -0.0), 62 >> 5 = 1
   * (0x8001), 1023 >> 5 = 31 (0x801f) */
  make_mode14 (&b, e0_minus, delta, idx);
  decode_half (GST_BC_FORMAT_BC6H_SF, &b, out);
  for (i = 0; i < 16; i++)
    assert_half (out, i, 0, 0x8001, 0x801f);
}

GST_END_TEST;

GST_START_TEST (test_reserved_modes)
{
  static const guint reserved[] = { 19, 23, 27, 31 };
  guint16 out[64];
  guint8 rgba[64];
  Block b;
  guint i, j;

  for (j = 0; j < G_N_ELEMENTS (reserved); j++) {
    /* every other bit set: a block that would not decode to 0 */
    memset (&b, 0xff, sizeof (b));
    put_bits (&b, 0, reserved[j], 5);
    decode_half (GST_BC_FORMAT_BC6H, &b, out);
    for (i = 0; i < 16; i++)
      assert_half (out, i, 0, 0, 0);
    decode_half (GST_BC_FORMAT_BC6H_SF, &b, out);
    for (i = 0; i < 16; i++)
      assert_half (out, i, 0, 0, 0);
    fail_unless (gst_bc_decode_block (GST_BC_FORMAT_BC6H, b.data, rgba));
    for (i = 0; i < 16; i++) {
      fail_unless (rgba[i * 4] == 0 && rgba[i * 4 + 1] == 0 &&
          rgba[i * 4 + 2] == 0 && rgba[i * 4 + 3] == 255);
    }
  }
}

GST_END_TEST;

/* Every mode value: the decoder reads all of them (a 2-bit mode ignores
 * bits 2-4, which are endpoint bits), so no 5-bit value but the reserved
 * ones decodes to all zeros from a block of all ones */
GST_START_TEST (test_every_mode_value)
{
  guint16 out[64];
  Block b;
  guint m, i;

  for (m = 0; m < 32; m++) {
    gboolean reserved = m == 19 || m == 23 || m == 27 || m == 31;
    gboolean zero = TRUE;

    memset (&b, 0xff, sizeof (b));
    put_bits (&b, 0, m, 5);
    decode_half (GST_BC_FORMAT_BC6H, &b, out);
    for (i = 0; i < 16; i++) {
      fail_unless_equals_int (out[i * 4 + 3], 0x3c00);
      if (out[i * 4] || out[i * 4 + 1] || out[i * 4 + 2])
        zero = FALSE;
      /* unsigned: never above 65504, never negative */
      fail_unless (out[i * 4] <= 0x7bff && out[i * 4 + 1] <= 0x7bff
          && out[i * 4 + 2] <= 0x7bff);
    }
    fail_unless (zero == reserved, "mode value %u: all zero %d", m, zero);
  }
}

GST_END_TEST;

GST_START_TEST (test_other_formats_refused)
{
  guint16 out[64];
  guint8 block[16] = { 0, };

  memset (out, 0x11, sizeof (out));
  fail_if (gst_bc_decode_block_half (GST_BC_FORMAT_BC7, block, out));
  fail_if (gst_bc_decode_block_half (GST_BC_FORMAT_UNKNOWN, block, out));
  fail_unless_equals_int (out[0], 0x1111);
}

GST_END_TEST;

/* A frame of pseudo-random blocks (every 16 bytes are a BC6H block) */
static guint8 *
random_frame (guint width, guint height, guint32 seed, gsize * size)
{
  GstBcInfo info;
  guint8 *data;
  gsize i;

  gst_bc_info_init (&info);
  fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC6H, width,
          height));
  data = g_malloc (info.size);
  for (i = 0; i < info.size; i++) {
    seed = seed * 1664525u + 1013904223u;
    data[i] = seed >> 24;
  }
  *size = info.size;
  return data;
}

static guint
get_u16_le (const guint8 * p)
{
  return p[0] | (p[1] << 8);
}

/* The three row decoders against the block decoder, cropped at an odd size,
 * and in pieces of block rows */
GST_START_TEST (test_rows)
{
  const guint w = 23, h = 13, bx_n = 6, by_n = 4;
  const gsize stride16 = w * 8 + 24, stride8 = w * 4 + 12;
  GstBcPixelLayout rgba_layout;
  guint8 *frame, *half, *pq, *sdr;
  gsize size;
  guint x, y, c, by;

  fail_unless (gst_bc_pixel_layout_from_video_format (&rgba_layout,
          GST_VIDEO_FORMAT_RGBA));
  frame = random_frame (w, h, 7, &size);
  fail_unless_equals_int (size, bx_n * by_n * 16);
  half = g_malloc0 (stride16 * h);
  pq = g_malloc0 (stride16 * h);
  sdr = g_malloc0 (stride8 * h);
  /* the bytes past the visible width must stay untouched */
  memset (half, 0xee, stride16 * h);
  memset (sdr, 0xee, stride8 * h);

  for (by = 0; by < by_n; by += 3) {
    guint n = MIN (3, by_n - by);

    gst_bc_decode_rows_half (GST_BC_FORMAT_BC6H, frame, w, h, by, n, half,
        stride16);
    gst_bc_decode_rows_pq (GST_BC_FORMAT_BC6H, frame, w, h, by, n, pq,
        stride16);
    gst_bc_decode_rows (GST_BC_FORMAT_BC6H, frame, w, h, by, n, sdr, stride8,
        &rgba_layout);
  }

  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      const guint8 *block = frame + ((y / 4) * bx_n + x / 4) * 16;
      guint16 ref[64];
      guint8 ref8[64];
      const guint16 *p;
      const guint8 *hp = half + y * stride16 + x * 8;
      const guint8 *pp = pq + y * stride16 + x * 8;
      const guint8 *sp = sdr + y * stride8 + x * 4;

      fail_unless (gst_bc_decode_block_half (GST_BC_FORMAT_BC6H, block, ref));
      fail_unless (gst_bc_decode_block (GST_BC_FORMAT_BC6H, block, ref8));
      p = ref + ((y % 4) * 4 + x % 4) * 4;
      for (c = 0; c < 4; c++)
        fail_unless_equals_int (get_u16_le (hp + 2 * c), p[c]);
      for (c = 0; c < 3; c++)
        fail_unless_equals_int (get_u16_le (pp + 2 * c),
            gst_bc_hdr_pq_from_half (p[c]));
      fail_unless_equals_int (get_u16_le (pp + 6), 0xffff);
      fail_unless (memcmp (sp, ref8 + ((y % 4) * 4 + x % 4) * 4, 4) == 0);
    }
    for (x = w * 8; x < stride16; x++)
      fail_unless_equals_int (half[y * stride16 + x], 0xee);
    for (x = w * 4; x < stride8; x++)
      fail_unless_equals_int (sdr[y * stride8 + x], 0xee);
  }

  g_free (frame);
  g_free (half);
  g_free (pq);
  g_free (sdr);
}

GST_END_TEST;

GST_START_TEST (test_format)
{
  fail_unless_equals_int (gst_bc_format_from_string ("BC6H"),
      GST_BC_FORMAT_BC6H);
  fail_unless_equals_int (gst_bc_format_from_string ("BC6H-SF"),
      GST_BC_FORMAT_BC6H_SF);
  fail_unless_equals_string (gst_bc_format_to_string (GST_BC_FORMAT_BC6H),
      "BC6H");
  fail_unless_equals_int (gst_bc_format_get_block_bytes (GST_BC_FORMAT_BC6H),
      16);
  fail_unless_equals_int (gst_bc_format_get_block_bytes
      (GST_BC_FORMAT_BC6H_SF), 16);
  fail_unless (gst_bc_format_is_float (GST_BC_FORMAT_BC6H));
  fail_unless (gst_bc_format_is_float (GST_BC_FORMAT_BC6H_SF));
  fail_if (gst_bc_format_is_float (GST_BC_FORMAT_BC7));
  fail_if (gst_bc_format_is_float (GST_BC_FORMAT_UNKNOWN));
  /* no CPU encoder for BC6H in libgstbc */
  fail_if (gst_bc_encode_format_supported (GST_BC_FORMAT_BC6H));
}

GST_END_TEST;

static Suite *
bcdecode6h_suite (void)
{
  Suite *s = suite_create ("bcdecode6h");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_mode11_explicit);
  tcase_add_test (tc, test_mode1_delta);
  tcase_add_test (tc, test_mode14_16bit);
  tcase_add_test (tc, test_signed);
  tcase_add_test (tc, test_reserved_modes);
  tcase_add_test (tc, test_every_mode_value);
  tcase_add_test (tc, test_other_formats_refused);
  tcase_add_test (tc, test_rows);
  tcase_add_test (tc, test_format);
  return s;
}

GST_CHECK_MAIN (bcdecode6h);
