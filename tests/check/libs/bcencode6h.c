/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* BC6H encoder tests: synthetic HDR blocks encoded at every quality and
 * decoded again by the library's decoder (bcdecode-bc6h.c), with error
 * bounds in half-float steps (1024 a factor of two, so 10 steps is about
 * 0.7 %); the modes written; the rows functions on odd sizes against the
 * block function; the HDR input conversions; the mPSNR of a synthetic
 * picture per quality. Signed BC6H (BC6H-SF) the same way, with negative
 * values too. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/bc/bc.h>

#include <string.h>

#include "hdrtest.h"

static const GstBcQuality qualities[] = {
  GST_BC_QUALITY_FAST, GST_BC_QUALITY_NORMAL, GST_BC_QUALITY_HIGH
};

/* the mode value of @block (2 or 5 low bits), -1 when reserved */
static gint
block_mode (const guint8 * block)
{
  guint m = block[0] & 0x1f;

  if ((m & 3) < 2)
    return m & 3;
  if (m == 19 || m == 23 || m == 27 || m == 31)
    return -1;
  return m;
}

static gboolean
mode_is_one_region (gint mode)
{
  return mode == 3 || mode == 7 || mode == 11 || mode == 15;
}

/* h of a half: its bits, negative values 0 */
static gint
h_of (guint16 v)
{
  return (v & 0x8000) ? 0 : v;
}

/* h of a half for signed BC6H: -m for a negative value of magnitude m
 * (-0 is 0) */
static gint
h_of_signed (guint16 v)
{
  return (v & 0x8000) ? -(gint) (v & 0x7fff) : v;
}

/* Encodes @rgba as @format at @quality, decodes it; returns the largest
 * difference of a channel in half-float steps and checks the mode */
static gint
round_trip_format (GstBcFormat format, const guint16 rgba[64],
    GstBcQuality quality, guint16 out[64])
{
  gint (*h) (guint16) = format == GST_BC_FORMAT_BC6H_SF ? h_of_signed : h_of;
  guint8 block[16];
  gint i, c, worst = 0, mode;

  gst_bc_encode_block_half (format, quality, rgba, block);
  mode = block_mode (block);
  fail_unless (mode >= 0, "reserved mode %d written", block[0] & 0x1f);
  if (quality == GST_BC_QUALITY_FAST)
    fail_unless (mode_is_one_region (mode), "fast wrote mode %d", mode);
  fail_unless (gst_bc_decode_block_half (format, block, out));
  for (i = 0; i < 16; i++) {
    for (c = 0; c < 3; c++)
      worst = MAX (worst, ABS (h (out[i * 4 + c]) - h (rgba[i * 4 + c])));
    fail_unless_equals_int (out[i * 4 + 3], 0x3c00);
  }
  return worst;
}

static gint
round_trip (const guint16 rgba[64], GstBcQuality quality, guint16 out[64])
{
  return round_trip_format (GST_BC_FORMAT_BC6H, rgba, quality, out);
}

static void
fill (guint16 rgba[64], gdouble (*f) (guint i, guint c, gpointer),
    gpointer data)
{
  guint i, c;

  for (i = 0; i < 16; i++) {
    for (c = 0; c < 3; c++)
      rgba[i * 4 + c] = gst_bc_hdr_half_from_float ((gfloat) f (i, c, data));
    rgba[i * 4 + 3] = 0x3c00;
  }
}

static gdouble
flat (guint i, guint c, gpointer data)
{
  const gdouble *v = data;

  return v[c];
}

/* a block of one colour comes back exactly (mode 14's 16-bit endpoints) */
GST_START_TEST (test_flat)
{
  static const gdouble colours[][3] = {
    {0.0, 0.0, 0.0}, {1.0, 1.0, 1.0}, {0.5, 0.25, 0.125},
    {49.5, 30.0, 0.001}, {1e-5, 3e-6, 6e-8}, {65504.0, 1.0, 0.0},
    {203.0 / 203.0, 0.75, 12.0},
  };
  guint16 rgba[64], out[64];
  guint k, q;

  for (k = 0; k < G_N_ELEMENTS (colours); k++) {
    fill (rgba, flat, (gpointer) colours[k]);
    for (q = 0; q < G_N_ELEMENTS (qualities); q++)
      fail_unless_equals_int (round_trip (rgba, qualities[q], out), 0);
  }
}

GST_END_TEST;

typedef struct
{
  gdouble lo, hi;
  gboolean vertical;
} Gradient;

/* a geometric gradient across the block, greyish */
static gdouble
gradient (guint i, guint c, gpointer data)
{
  const Gradient *g = data;
  guint t = g->vertical ? i / 4 : i % 4;
  gdouble v = g->lo * pow (g->hi / g->lo, t / 3.0);

  return v * (1.0 - 0.1 * c);
}

/* gradients within one octave to across a factor of 1000, from near 0
 * to 50: the worst channel error of each quality stays within a bound
 * that grows with the range */
GST_START_TEST (test_gradients)
{
  static const Gradient grads[] = {
    {1.0, 1.5, FALSE}, {0.01, 0.02, TRUE}, {0.5, 4.0, FALSE},
    {1.0, 50.0, TRUE}, {0.05, 50.0, FALSE}, {1e-4, 1e-3, FALSE},
  };
  /* bounds in half steps [gradient][quality]: the channels' values are
   * not on a line in half-float steps, whose size doubles every octave,
   * and values above 8 weigh little in the encoder's error (bcencode-bc6h.c)
   */
  static const gint bounds[][3] = {
    {52, 40, 40}, {80, 64, 80}, {24, 24, 24}, {100, 100, 100},
    {110, 110, 110}, {32, 32, 32},
  };
  guint16 rgba[64], out[64];
  guint k, q;

  for (k = 0; k < G_N_ELEMENTS (grads); k++) {
    for (q = 0; q < G_N_ELEMENTS (qualities); q++) {
      gint e;

      fill (rgba, gradient, (gpointer) & grads[k]);
      e = round_trip (rgba, qualities[q], out);
      GST_INFO ("gradient %u quality %u: %d steps", k, q, e);
      fail_unless (e <= bounds[k][q], "gradient %u quality %u: %d > %d",
          k, q, e, bounds[k][q]);
    }
  }
}

GST_END_TEST;

/* an edge between two gradients of different colours: normal and high do
 * better than fast, with two regions */
GST_START_TEST (test_edge)
{
  guint16 rgba[64], out[64];
  guint i, c;
  gint e[3];
  guint8 block[16];

  for (i = 0; i < 16; i++) {
    gboolean right = i % 4 >= 2;
    gfloat t = 1.0f + (i / 4) / 3.0f;

    for (c = 0; c < 3; c++)
      rgba[i * 4 + c] = gst_bc_hdr_half_from_float (right ?
          (c == 0 ? 2.0f : 1.0f) * t : (c == 2 ? 1.5f : 0.7f / t));
    rgba[i * 4 + 3] = 0x3c00;
  }
  for (i = 0; i < 3; i++)
    e[i] = round_trip (rgba, qualities[i], out);
  GST_INFO ("edge: fast %d, normal %d, high %d steps", e[0], e[1], e[2]);
  fail_unless (e[1] <= e[0]);
  fail_unless (e[2] <= e[1]);
  fail_unless (e[1] <= 100, "normal: %d steps", e[1]);
  gst_bc_encode_block_half (GST_BC_FORMAT_BC6H, GST_BC_QUALITY_NORMAL, rgba,
      block);
  fail_if (mode_is_one_region (block_mode (block)));
}

GST_END_TEST;

/* Random block @n into @rgba: a base and a spread in octaves (0, flat, to
 * 10 for every third block, else to 2), each value's sign by @signs (0:
 * positive, 1: negative, 2: either), alpha 1.0. Returns the spread. */
static gdouble
random_block (GRand * rand, guint n, guint signs, guint16 * rgba)
{
  gdouble base = pow (2.0, g_rand_double_range (rand, -16.0, 5.6));
  gdouble spread = g_rand_double_range (rand, 0.0, n % 3 == 0 ? 10.0 : 2.0);
  guint i, c;

  for (i = 0; i < 16; i++) {
    for (c = 0; c < 3; c++) {
      gdouble v = base * pow (2.0, g_rand_double_range (rand, 0.0, spread));
      gboolean negative = signs == 1 || (signs == 2 && g_rand_boolean (rand));

      rgba[i * 4 + c] = gst_bc_hdr_half_from_float ((gfloat) v) |
          (negative ? 0x8000 : 0);
    }
    rgba[i * 4 + 3] = 0x3c00;
  }
  return spread;
}

/* random blocks: values of every magnitude, negative values and NaN
 * (decoded as 0); every block decodes in a valid mode and, blocks of
 * moderate range, within a bound */
GST_START_TEST (test_random)
{
  GRand *rand = g_rand_new_with_seed (6);
  guint16 rgba[64], out[64];
  gint worst[3] = { 0, 0, 0 };
  guint n, q;

  for (n = 0; n < 3000; n++) {
    gdouble spread = random_block (rand, n, 0, rgba);

    if (n % 97 == 0)
      rgba[5 * 4 + 1] = 0xbc00; /* -1.0 */
    if (n % 89 == 0)
      rgba[9 * 4 + 2] = 0x7e00; /* NaN */
    for (q = 0; q < G_N_ELEMENTS (qualities); q++) {
      gint e = round_trip (rgba, qualities[q], out);

      if (spread <= 1.0 && n % 97 != 0 && n % 89 != 0)
        worst[q] = MAX (worst[q], e);
    }
  }
  /* independent noise of up to one octave (1024 steps) in each channel:
   * no line through the colour space comes near every pixel */
  for (q = 0; q < G_N_ELEMENTS (qualities); q++) {
    GST_INFO ("random, quality %u: worst %d steps", q, worst[q]);
    fail_unless (worst[q] <= 1000);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* gst_bc_encode_rows_half() on odd sizes, BC6H and BC6H-SF: the blocks of
 * gst_bc_encode_block_half() of the picture padded by repeating its last
 * column and row, also when encoded a block row at a time (1029 pixels:
 * more than the encoder takes of a row at a time, and a part block; for
 * BC6H-SF some values negative) */
GST_START_TEST (test_rows_odd_sizes)
{
  static const guint sizes[][2] = {
    {1, 1}, {3, 5}, {7, 9}, {13, 7}, {67, 6}, {130, 3}, {1029, 5},
  };
  guint s, q;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    guint w = sizes[s][0], h = sizes[s][1];
    guint bw = (w + 3) / 4, bh = (h + 3) / 4;
    gsize stride = (gsize) w * 8 + 8;
    guint8 *src = g_malloc0 (stride * h);
    guint16 *pic = g_new (guint16, (gsize) w * h * 4);
    guint8 *dst = g_malloc ((gsize) bw * bh * 16);
    guint8 *dst2 = g_malloc ((gsize) bw * bh * 16);
    guint x, y, c, bx, by;

    hdrtest_image (w, h, s, pic);
    /* green negative in every third pixel: BC6H reads 0, BC6H-SF -green */
    for (x = 0; x < w * h; x += 3)
      pic[x * 4 + 1] |= 0x8000;
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        for (c = 0; c < 4; c++)
          GST_WRITE_UINT16_LE (src + y * stride + x * 8 + c * 2,
              pic[((gsize) y * w + x) * 4 + c]);

    for (q = 0; q < 2 * G_N_ELEMENTS (qualities); q++) {
      GstBcFormat f = q < G_N_ELEMENTS (qualities) ? GST_BC_FORMAT_BC6H :
          GST_BC_FORMAT_BC6H_SF;
      GstBcQuality quality = qualities[q % G_N_ELEMENTS (qualities)];

      gst_bc_encode_rows_half (f, quality, src, stride, w, h, 0, bh, dst);
      for (by = 0; by < bh; by++)
        gst_bc_encode_rows_half (f, quality, src, stride, w, h, by, 1, dst2);
      fail_unless (memcmp (dst, dst2, (gsize) bw * bh * 16) == 0);
      for (by = 0; by < bh; by++) {
        for (bx = 0; bx < bw; bx++) {
          guint16 blk[64];
          guint8 ref[16];

          for (y = 0; y < 4; y++)
            for (x = 0; x < 4; x++)
              for (c = 0; c < 4; c++)
                blk[(y * 4 + x) * 4 + c] =
                    pic[((gsize) MIN (by * 4 + y, h - 1) * w +
                        MIN (bx * 4 + x, w - 1)) * 4 + c];
          gst_bc_encode_block_half (f, quality, blk, ref);
          fail_unless (memcmp (ref, dst + (by * bw + bx) * 16, 16) == 0,
              "%ux%u %s quality %u: block %u,%u differs", w, h,
              gst_bc_format_to_string (f), quality, bx, by);
        }
      }
    }
    g_free (src);
    g_free (pic);
    g_free (dst);
    g_free (dst2);
  }
}

GST_END_TEST;

/* every SIMD level writes the same blocks, BC6H and BC6H-SF (of a
 * picture with negative values, NaN and infinities of both signs) */
GST_START_TEST (test_simd_levels_agree)
{
  const guint w = 96, h = 16;
  guint16 *pic = g_new (guint16, w * h * 4);
  guint8 ref[(96 / 4) * (16 / 4) * 16], out[sizeof (ref)];
  GstBcSimd best = gst_bc_encode_get_simd (), level;
  guint q, i;

  hdrtest_image (w, h, 3, pic);
  for (i = 0; i < w * h; i += 5)
    pic[i * 4 + i % 3] |= 0x8000;
  pic[7 * 4] = 0x7c00;
  pic[8 * 4 + 1] = 0xfc00;
  pic[9 * 4 + 2] = 0xfe00;
  for (q = 0; q < 2 * G_N_ELEMENTS (qualities); q++) {
    GstBcFormat f = q < G_N_ELEMENTS (qualities) ? GST_BC_FORMAT_BC6H :
        GST_BC_FORMAT_BC6H_SF;
    GstBcQuality quality = qualities[q % G_N_ELEMENTS (qualities)];

    gst_bc_encode_set_simd (GST_BC_SIMD_NONE);
    gst_bc_encode_rows_half (f, quality, (const guint8 *) pic, w * 8, w, h, 0,
        h / 4, ref);
    for (level = GST_BC_SIMD_SSE2; level <= best; level++) {
      gst_bc_encode_set_simd (level);
      gst_bc_encode_rows_half (f, quality, (const guint8 *) pic, w * 8, w, h,
          0, h / 4, out);
      fail_unless (memcmp (ref, out, sizeof (ref)) == 0,
          "%s quality %u, level %d", gst_bc_format_to_string (f), quality,
          level);
    }
  }
  gst_bc_encode_set_simd (GST_BC_SIMD_AVX512);
  g_free (pic);
}

GST_END_TEST;

/* In a row of blocks alternating between nearly flat ones (a gradient of
 * k half steps, k = 0 .. 15) and steep ones, fast and normal give each
 * block the most precise one-region mode its differences fit, whatever
 * its neighbours in the SIMD lanes need: mode 15 (16-bit endpoints, 4-bit
 * differences) for k <= 2, a less precise one from k = 5 (beyond its
 * differences) and for the steep blocks */
GST_START_TEST (test_row_per_block)
{
  const guint w = 128, h = 4, n = w / 4;
  guint16 pic[128 * 4 * 4];
  guint8 out[(128 / 4) * 16];
  guint16 dec[64];
  guint q, x, y, c, blk, i;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      guint k = (x / 4) / 2, xi = x % 4;

      for (c = 0; c < 3; c++)
        pic[(y * w + x) * 4 + c] = (x / 4) % 2 ?
            0x3000 + c * 100 + xi * 700 : 0x3c00 + c * 100 + (xi * k) / 3;
      pic[(y * w + x) * 4 + 3] = 0x3c00;
    }
  for (q = 0; q < 2; q++) {
    gst_bc_encode_rows_half (GST_BC_FORMAT_BC6H, qualities[q],
        (const guint8 *) pic, w * 8, w, h, 0, 1, out);
    for (blk = 0; blk < n; blk++) {
      gint mode = block_mode (out + 16 * blk);
      guint k = blk / 2;

      if (blk % 2 == 0 && k <= 2) {
        fail_unless_equals_int (mode, 15);
        fail_unless (gst_bc_decode_block_half (GST_BC_FORMAT_BC6H,
                out + 16 * blk, dec));
        for (i = 0; i < 16; i++)
          for (c = 0; c < 3; c++)
            fail_unless (ABS ((gint) dec[i * 4 + c] -
                    (gint) pic[((i / 4) * w + blk * 4 + i % 4) * 4 + c]) <= 1,
                "quality %u, block %u, pixel %u", q, blk, i);
      } else if (blk % 2 == 1 || k >= 5) {
        fail_unless (mode != 15, "quality %u, block %u: mode 15", q, blk);
      }
    }
  }
}

GST_END_TEST;

/* the mPSNR of a synthetic picture: normal and high at least as good as
 * fast, and above fixed floors */
/* The mPSNR of the @w x @h picture @pic encoded as @format at each quality
 * and decoded, into @psnr */
static void
picture_mpsnr (GstBcFormat format, const guint16 * pic, guint w, guint h,
    gdouble * psnr)
{
  guint16 *dec = g_new (guint16, w * h * 4);
  guint8 *blocks = g_malloc ((w / 4) * (h / 4) * 16);
  guint q;

  for (q = 0; q < G_N_ELEMENTS (qualities); q++) {
    gst_bc_encode_rows_half (format, qualities[q], (const guint8 *) pic,
        w * 8, w, h, 0, h / 4, blocks);
    gst_bc_decode_rows_half (format, blocks, w, h, 0, h / 4, (guint8 *) dec,
        w * 8);
    psnr[q] = hdrtest_mpsnr (pic, dec, w * h);
    GST_INFO ("%s quality %u: mPSNR %.2f dB", gst_bc_format_to_string
        (format), q, psnr[q]);
  }
  g_free (dec);
  g_free (blocks);
}

GST_START_TEST (test_mpsnr)
{
  const guint w = 256, h = 128;
  guint16 *pic = g_new (guint16, w * h * 4);
  static const gdouble floors[] = { 40.0, 42.0, 42.0 };
  gdouble psnr[3];
  guint q;

  hdrtest_image (w, h, 11, pic);
  fail_unless (isinf (hdrtest_mpsnr (pic, pic, w * h)));
  picture_mpsnr (GST_BC_FORMAT_BC6H, pic, w, h, psnr);
  for (q = 0; q < G_N_ELEMENTS (qualities); q++)
    fail_unless (psnr[q] >= floors[q], "quality %u: mPSNR %.2f dB", q, psnr[q]);
  fail_unless (psnr[1] >= psnr[0]);
  fail_unless (psnr[2] >= psnr[1] - 0.05);
  g_free (pic);
}

GST_END_TEST;

/* A picture of hard edges between unrelated HDR colours (0.03 to 16, an
 * edge of random angle in each 7x5 cell, so most blocks hold parts of two
 * or more cells), with mild noise: what one region cannot encode. normal
 * must find the two-region blocks on it (31.8 dB; fast, one region, 20.2).
 * (high, 31.1 dB, is not asked to beat normal here: where three cells
 * meet in a block its smaller threshold and wider search do not win.) */
GST_START_TEST (test_mpsnr_edges)
{
  const guint w = 256, h = 128;
  guint16 *pic = g_new (guint16, w * h * 4);
  static const gdouble floors[] = { 19.0, 30.5, 30.0 };
  gdouble psnr[3];
  guint q, x, y, c;

  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      guint cx = x / 7, cy = y / 5;
      double a = 6.283 * hdrtest_hash (cx, cy, 3);
      double side = (x - cx * 7.0 - 3.0) * cos (a) +
          (y - cy * 5.0 - 2.0) * sin (a);
      guint seed = side > 0.0 ? 5 : 7;

      for (c = 0; c < 3; c++) {
        double v = 0.03 * pow (2.0, 9.0 * hdrtest_hash (cx, cy, seed + c * 11));

        v *= 1.0 + 0.02 * (hdrtest_hash (x, y, 40 + c) - 0.5);
        pic[((gsize) y * w + x) * 4 + c] = gst_bc_hdr_half_from_float (v);
      }
      pic[((gsize) y * w + x) * 4 + 3] = 0x3c00;
    }
  }
  picture_mpsnr (GST_BC_FORMAT_BC6H, pic, w, h, psnr);
  for (q = 0; q < G_N_ELEMENTS (qualities); q++)
    fail_unless (psnr[q] >= floors[q], "edges, quality %u: mPSNR %.2f dB", q,
        psnr[q]);
  fail_unless (psnr[1] >= psnr[0] + 8.0, "edges: normal %.2f, fast %.2f dB",
      psnr[1], psnr[0]);
  g_free (pic);
}

GST_END_TEST;

/* the input conversions of known codes */
GST_START_TEST (test_hdr_input)
{
  GstVideoColorimetry cm = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_RGB, GST_VIDEO_TRANSFER_SMPTE2084,
    GST_VIDEO_COLOR_PRIMARIES_BT2020
  };
  GstBcHdrInput *in;
  guint8 px[8];
  guint16 out[4];
  guint c;

  /* PQ: the code of 203 cd/m2 is 1.0 (within a half step), 0 is 0 */
  in = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE, &cm);
  fail_unless (in != NULL);
  fail_unless_equals_int (gst_bc_hdr_input_get_bpp (in), 8);
  for (c = 0; c < 3; c++)
    GST_WRITE_UINT16_LE (px + 2 * c, c == 2 ? 0 : (c == 0 ? 38055 : 65535));
  GST_WRITE_UINT16_LE (px + 6, 0);
  gst_bc_hdr_input_convert (in, px, 1, out);
  GST_INFO ("PQ 38055 -> %04x", out[0]);
  fail_unless (ABS ((gint) out[0] - 0x3c00) <= 2);
  /* 10000 cd/m2 */
  fail_unless (ABS (gst_bc_hdr_half_to_double (out[1]) - 10000.0 / 203.0) <
      0.05);
  fail_unless_equals_int (out[2], 0);
  fail_unless_equals_int (out[3], 0x3c00);
  /* the encoder's input conversion gives the PQ code back */
  fail_unless (ABS ((gint) gst_bc_hdr_pq_from_half (out[0]) - 38055) < 40);
  gst_bc_hdr_input_free (in);

  /* linear: the largest code is 1.0 */
  cm.transfer = GST_VIDEO_TRANSFER_GAMMA10;
  in = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGB10A2_LE, &cm);
  fail_unless (in != NULL);
  fail_unless_equals_int (gst_bc_hdr_input_get_bpp (in), 4);
  GST_WRITE_UINT32_LE (px, 0x3ffu | (0u << 10) | (512u << 20));
  gst_bc_hdr_input_convert (in, px, 1, out);
  fail_unless_equals_int (out[0], 0x3c00);
  fail_unless_equals_int (out[1], 0);
  fail_unless (ABS (gst_bc_hdr_half_to_double (out[2]) - 512.0 / 1023.0) <
      1e-3);
  gst_bc_hdr_input_free (in);

  /* HLG: 75 % grey is the reference white, 100 % the 1000 cd/m2 peak */
  cm.transfer = GST_VIDEO_TRANSFER_ARIB_STD_B67;
  in = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE, &cm);
  fail_unless (in != NULL);
  for (c = 0; c < 3; c++)
    GST_WRITE_UINT16_LE (px + 2 * c, 49151);
  gst_bc_hdr_input_convert (in, px, 1, out);
  GST_INFO ("HLG 75%% -> %f", gst_bc_hdr_half_to_double (out[0]));
  fail_unless (ABS (gst_bc_hdr_half_to_double (out[0]) - 1.0) < 0.01);
  for (c = 0; c < 3; c++)
    GST_WRITE_UINT16_LE (px + 2 * c, 65535);
  gst_bc_hdr_input_convert (in, px, 1, out);
  fail_unless (ABS (gst_bc_hdr_half_to_double (out[1]) * 203.0 - 1000.0) < 2.0);
  gst_bc_hdr_input_free (in);

  /* others are refused */
  cm.transfer = GST_VIDEO_TRANSFER_SRGB;
  fail_unless (gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE, &cm) == NULL);
  cm.transfer = GST_VIDEO_TRANSFER_SMPTE2084;
  fail_unless (gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA, &cm) == NULL);
}

GST_END_TEST;

/* gst_bc_hdr_half_from_float(): every finite half comes back from its
 * value, halfway values round to even, large values and infinity saturate,
 * NaN is 0 */
GST_START_TEST (test_half_from_float)
{
  guint v;

  for (v = 0; v < 0x10000; v++) {
    if ((v & 0x7c00) == 0x7c00)
      continue;
    fail_unless_equals_int (gst_bc_hdr_half_from_float ((gfloat)
            gst_bc_hdr_half_to_double (v)), v);
  }
  /* 1 + 2^-11 is halfway between 0x3c00 and 0x3c01: even */
  fail_unless_equals_int (gst_bc_hdr_half_from_float (1.0f + 1.0f / 2048),
      0x3c00);
  fail_unless_equals_int (gst_bc_hdr_half_from_float (1.0f + 3.0f / 2048),
      0x3c02);
  fail_unless_equals_int (gst_bc_hdr_half_from_float (1e9f), 0x7bff);
  fail_unless_equals_int (gst_bc_hdr_half_from_float (-INFINITY), 0xfbff);
  fail_unless_equals_int (gst_bc_hdr_half_from_float (NAN), 0);
}

GST_END_TEST;

/* gst_bc_hdr_input_get_tables(): the tables reproduce
 * gst_bc_hdr_input_convert() as documented, for every transfer and both
 * formats, on every code of a channel (PQ, linear) or a spread of
 * pixels (HLG) */
GST_START_TEST (test_hdr_input_tables)
{
  static const GstVideoTransferFunction transfers[] = {
    GST_VIDEO_TRANSFER_SMPTE2084, GST_VIDEO_TRANSFER_ARIB_STD_B67,
    GST_VIDEO_TRANSFER_GAMMA10
  };
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_RGBA64_LE,
    GST_VIDEO_FORMAT_RGB10A2_LE
  };
  GstVideoColorimetry cm = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_RGB, GST_VIDEO_TRANSFER_SMPTE2084,
    GST_VIDEO_COLOR_PRIMARIES_BT2020
  };
  guint t, f;

  for (t = 0; t < G_N_ELEMENTS (transfers); t++) {
    for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
      gboolean hlg = transfers[t] == GST_VIDEO_TRANSFER_ARIB_STD_B67;
      GstBcHdrInput *in;
      const guint16 *half;
      const gfloat *scene, *ootf;
      guint n_codes, ootf_first, n_ootf, i, c;
      guint32 state = 3 + t;
      gfloat ys[3];

      cm.transfer = transfers[t];
      in = gst_bc_hdr_input_new (fmts[f], &cm);
      fail_unless (in != NULL);
      gst_bc_hdr_input_get_tables (in, &n_codes, &half, &scene, &ootf,
          &ootf_first, &n_ootf, ys);
      fail_unless_equals_int (n_codes, f == 0 ? 65536 : 1024);
      fail_unless ((half == NULL) == hlg);
      fail_unless ((scene != NULL) == hlg && (ootf != NULL) == hlg);
      fail_unless ((n_ootf > 0) == hlg);

      for (i = 0; i < n_codes; i++) {
        guint code[3], out_bits;
        guint8 px[8];
        guint16 out[4];

        /* PQ, linear: every code in red, two others in green and blue;
         * HLG: random codes */
        for (c = 0; c < 3; c++) {
          state = state * 1664525u + 1013904223u;
          code[c] = hlg ? (state >> 8) % n_codes : (c == 0 ? i : (c == 1 ?
                  (i * 7) % n_codes : n_codes - 1 - i));
        }
        if (f == 0) {
          for (c = 0; c < 3; c++)
            GST_WRITE_UINT16_LE (px + 2 * c, code[c]);
          GST_WRITE_UINT16_LE (px + 6, 0xffff);
        } else {
          GST_WRITE_UINT32_LE (px, code[0] | code[1] << 10 | code[2] << 20);
        }
        gst_bc_hdr_input_convert (in, px, 1, out);
        if (!hlg) {
          for (c = 0; c < 3; c++)
            fail_unless_equals_int (out[c], half[code[c]]);
        } else {
          gfloat e[3], y, k;

          for (c = 0; c < 3; c++)
            e[c] = scene[code[c]];
          y = ys[0] * e[0];
          y += ys[1] * e[1];
          y += ys[2] * e[2];
          memcpy (&out_bits, &y, 4);
          k = (out_bits >> 13) < ootf_first ? 0.0f :
              ootf[MIN ((out_bits >> 13) - ootf_first, n_ootf - 1)];
          for (c = 0; c < 3; c++)
            fail_unless_equals_int (out[c],
                gst_bc_hdr_half_from_float (k * e[c]));
        }
        fail_unless_equals_int (out[3], 0x3c00);
      }
      gst_bc_hdr_input_free (in);
    }
  }
}

GST_END_TEST;

/* gst_bc_encode_bc6h_weights(): the table of the top of bcencode-bc6h.c:
 * largest (1.0) at the octave of 2^-4 (half bits 0x2c00, where a
 * mid-grey is at the largest exposure, 2^3), falling to either side,
 * 0.02 where every exposure clips */
GST_START_TEST (test_bc6h_weights)
{
  const gfloat *w = gst_bc_encode_bc6h_weights ();
  guint e;

  fail_unless (w != NULL);
  fail_unless_equals_float (w[0x2c00 >> 10], 1.0f);
  for (e = 0; e < 32; e++)
    fail_unless (w[e] >= 0.0157f && w[e] <= 1.0f, "weight %u: %f", e, w[e]);
  for (e = 5; e <= 0x2c00 >> 10; e++)
    fail_unless (w[e] > w[e - 1]);
  for (e = (0x2c00 >> 10) + 1; e < 19; e++)
    fail_unless (w[e] < w[e - 1]);
  fail_unless_equals_float (w[31], 0.02f);
}

GST_END_TEST;

/* gst_bc_encode_rows_hdr() is the half-float encoder of the converted
 * picture (converted a part of a row at a time: 1100 pixels are more than
 * one part) */
GST_START_TEST (test_rows_hdr)
{
  GstVideoColorimetry cm = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_RGB, GST_VIDEO_TRANSFER_SMPTE2084,
    GST_VIDEO_COLOR_PRIMARIES_BT2020
  };
  const guint w = 1100, h = 9, bw = (w + 3) / 4, bh = (h + 3) / 4;
  GstBcHdrInput *in = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE, &cm);
  guint8 *src = g_malloc (w * h * 8);
  guint16 *half = g_new (guint16, w * h * 4);
  guint8 *a = g_malloc (bw * bh * 16), *b = g_malloc (bw * bh * 16);
  guint i;

  for (i = 0; i < w * h * 4; i++)
    GST_WRITE_UINT16_LE (src + 2 * i, (i * 7919u) & 0xffff);
  gst_bc_hdr_input_convert (in, src, w * h, half);
  gst_bc_encode_rows_hdr (in, GST_BC_FORMAT_BC6H, GST_BC_QUALITY_NORMAL, src,
      w * 8, w, h, 0, bh, a);
  gst_bc_encode_rows_half (GST_BC_FORMAT_BC6H, GST_BC_QUALITY_NORMAL,
      (const guint8 *) half, w * 8, w, h, 0, bh, b);
  fail_unless (memcmp (a, b, bw * bh * 16) == 0);
  gst_bc_hdr_input_free (in);
  g_free (src);
  g_free (half);
  g_free (a);
  g_free (b);
}

GST_END_TEST;

/* BC6H-SF: a block of one colour of either sign comes back exactly (mode
 * 14's 16-bit endpoints are the signed values themselves); NaN is 0, an
 * infinity the largest half of its sign */
GST_START_TEST (test_signed_flat)
{
  static const gdouble colours[][3] = {
    {0.0, 0.0, 0.0}, {1.0, 1.0, 1.0}, {-1.0, -1.0, -1.0},
    {0.5, -0.25, 0.125}, {-49.5, 30.0, -0.001}, {1e-5, -3e-6, 6e-8},
    {-65504.0, 65504.0, 0.0}, {-2.0, 0.75, -12.0},
  };
  static const guint16 specials[][3] = {
    {0x7c00, 0xfc00, 0x7e00}, {0xfc00, 0x0000, 0xfe01},
  };
  static const guint16 expected[][3] = {
    {0x7bff, 0xfbff, 0x0000}, {0xfbff, 0x0000, 0x0000},
  };
  guint16 rgba[64], out[64];
  guint k, q, i, c;

  for (k = 0; k < G_N_ELEMENTS (colours); k++) {
    fill (rgba, flat, (gpointer) colours[k]);
    for (q = 0; q < G_N_ELEMENTS (qualities); q++)
      fail_unless_equals_int (round_trip_format (GST_BC_FORMAT_BC6H_SF, rgba,
              qualities[q], out), 0);
  }
  for (k = 0; k < G_N_ELEMENTS (specials); k++) {
    for (i = 0; i < 16; i++) {
      for (c = 0; c < 3; c++)
        rgba[i * 4 + c] = specials[k][c];
      rgba[i * 4 + 3] = 0x3c00;
    }
    for (q = 0; q < G_N_ELEMENTS (qualities); q++) {
      guint8 block[16];

      gst_bc_encode_block_half (GST_BC_FORMAT_BC6H_SF, qualities[q], rgba,
          block);
      fail_unless (gst_bc_decode_block_half (GST_BC_FORMAT_BC6H_SF, block,
              out));
      for (i = 0; i < 16; i++)
        for (c = 0; c < 3; c++)
          fail_unless_equals_int (out[i * 4 + c], expected[k][c]);
    }
  }
}

GST_END_TEST;

/* BC6H-SF of the gradients of test_gradients, positive and negated: the
 * worst channel error stays within the bounds of BC6H's (a signed
 * endpoint has one bit of magnitude less, but these errors come from the
 * indices' palette, not the endpoints' precision) */
GST_START_TEST (test_signed_gradients)
{
  static const Gradient grads[] = {
    {1.0, 1.5, FALSE}, {0.01, 0.02, TRUE}, {0.5, 4.0, FALSE},
    {1.0, 50.0, TRUE}, {0.05, 50.0, FALSE}, {1e-4, 1e-3, FALSE},
  };
  static const gint bounds[][3] = {
    {52, 40, 40}, {80, 64, 80}, {24, 24, 24}, {100, 100, 100},
    {110, 110, 110}, {32, 32, 32},
  };
  guint16 rgba[64], out[64];
  guint k, q, neg, i;

  for (k = 0; k < G_N_ELEMENTS (grads); k++) {
    for (neg = 0; neg < 2; neg++) {
      for (q = 0; q < G_N_ELEMENTS (qualities); q++) {
        gint e;

        fill (rgba, gradient, (gpointer) & grads[k]);
        for (i = 0; i < 64; i++)
          rgba[i] |= neg && i % 4 != 3 ? 0x8000 : 0;
        e = round_trip_format (GST_BC_FORMAT_BC6H_SF, rgba, qualities[q], out);
        GST_INFO ("signed gradient %u%s quality %u: %d steps", k,
            neg ? " negated" : "", q, e);
        fail_unless (e <= bounds[k][q], "gradient %u%s quality %u: %d > %d",
            k, neg ? " negated" : "", q, e, bounds[k][q]);
      }
    }
  }
}

GST_END_TEST;

/* BC6H-SF of random blocks whose values have random signs: every block
 * decodes in a valid mode (one region at fast); blocks of one sign and a
 * moderate range within a bound; blocks of both signs closer (summed
 * squared error in h) than a block of zeros; negative values come back
 * negative or within 1024 steps (2^-14) of 0 */
GST_START_TEST (test_signed_random)
{
  GRand *rand = g_rand_new_with_seed (16);
  guint16 rgba[64], out[64];
  gint worst[3] = { 0, 0, 0 };
  guint n, i, c, q;

  for (n = 0; n < 3000; n++) {
    /* 0: positive, 1: negative, 2: either */
    guint signs = n % 3;
    gdouble spread = random_block (rand, n, signs, rgba);

    for (q = 0; q < G_N_ELEMENTS (qualities); q++) {
      gint e = round_trip_format (GST_BC_FORMAT_BC6H_SF, rgba, qualities[q],
          out);

      if (spread <= 1.0 && signs != 2)
        worst[q] = MAX (worst[q], e);
      if (signs == 2) {
        gdouble err = 0.0, zero = 0.0;

        for (i = 0; i < 16; i++)
          for (c = 0; c < 3; c++) {
            gdouble d = h_of_signed (out[i * 4 + c]) -
                h_of_signed (rgba[i * 4 + c]);

            err += d * d;
            zero += (gdouble) h_of_signed (rgba[i * 4 + c]) *
                h_of_signed (rgba[i * 4 + c]);
          }
        fail_unless (err < zero, "quality %u: %g, zeros %g", q, err, zero);
      }
      if (signs == 1)
        for (i = 0; i < 16; i++)
          for (c = 0; c < 3; c++)
            fail_unless ((out[i * 4 + c] & 0x8000) ||
                out[i * 4 + c] <= 0x0400, "quality %u: %04x of %04x", q,
                out[i * 4 + c], rgba[i * 4 + c]);
    }
  }
  for (q = 0; q < G_N_ELEMENTS (qualities); q++) {
    GST_INFO ("signed random, quality %u: worst %d steps", q, worst[q]);
    fail_unless (worst[q] <= 1000);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* the mPSNR of the synthetic picture (no negative values) as BC6H-SF, by
 * quality: above fixed floors, normal and high at least as good as fast,
 * and within 0.5 dB of BC6H's (the endpoints' bit less) */
GST_START_TEST (test_signed_mpsnr)
{
  const guint w = 256, h = 128;
  guint16 *pic = g_new (guint16, w * h * 4);
  static const gdouble floors[] = { 40.0, 42.0, 42.0 };
  gdouble psnr[2][3];
  guint q;

  hdrtest_image (w, h, 11, pic);
  picture_mpsnr (GST_BC_FORMAT_BC6H, pic, w, h, psnr[0]);
  picture_mpsnr (GST_BC_FORMAT_BC6H_SF, pic, w, h, psnr[1]);
  for (q = 0; q < G_N_ELEMENTS (qualities); q++) {
    fail_unless (psnr[1][q] >= floors[q], "quality %u: mPSNR %.2f dB", q,
        psnr[1][q]);
    fail_unless (psnr[1][q] >= psnr[0][q] - 0.5, "quality %u: %.2f dB, "
        "unsigned %.2f dB", q, psnr[1][q], psnr[0][q]);
  }
  fail_unless (psnr[1][1] >= psnr[1][0]);
  fail_unless (psnr[1][2] >= psnr[1][1] - 0.05);
  g_free (pic);
}

GST_END_TEST;

/* A block's bytes at quality=normal are its own: a picture's blocks are
 * those of each block encoded alone (the blocks that share the lanes of a
 * batch do not change one another's mode), BC6H and BC6H-SF, on blocks of
 * two levels a channel whose blue is 0 at one (BC6H-SF: endpoints fitted
 * across 0, where a mode's differences can hold more than their spread
 * says) */
GST_START_TEST (test_normal_blocks_independent)
{
  const guint w = 256, h = 64, bw = w / 4, bh = h / 4;
  guint16 *pic = g_new (guint16, w * h * 4);
  guint8 *blocks = g_malloc (bw * bh * 16);
  guint32 state = 77;
  guint s, bx, by, x, y, c, differ = 0;

  for (by = 0; by < bh; by++)
    for (bx = 0; bx < bw; bx++) {
      gint base[3], amp[3];

      for (c = 0; c < 3; c++) {
        base[c] = c == 2 ? 0 : 0x2800 + (gint) (hdrtest_lcg (&state) % 0x1400);
        amp[c] = (gint) (hdrtest_lcg (&state) % (c == 2 ? 0x4400 : 0x800));
      }
      for (y = 0; y < 4; y++)
        for (x = 0; x < 4; x++) {
          guint16 *p = pic + ((by * 4 + y) * w + bx * 4 + x) * 4;

          for (c = 0; c < 3; c++)
            p[c] = (guint16) (base[c] + (hdrtest_lcg (&state) & 1 ?
                    amp[c] : 0));
          p[3] = 0x3c00;
        }
    }
  for (s = 0; s < 2; s++) {
    GstBcFormat format = s ? GST_BC_FORMAT_BC6H_SF : GST_BC_FORMAT_BC6H;

    gst_bc_encode_rows_half (format, GST_BC_QUALITY_NORMAL,
        (const guint8 *) pic, w * 8, w, h, 0, bh, blocks);
    for (by = 0; by < bh; by++)
      for (bx = 0; bx < bw; bx++) {
        guint8 alone[16];

        gst_bc_encode_rows_half (format, GST_BC_QUALITY_NORMAL,
            (const guint8 *) (pic + (by * 4 * w + bx * 4) * 4), w * 8, 4, 4,
            0, 1, alone);
        if (memcmp (alone, blocks + (by * bw + bx) * 16, 16) != 0)
          differ++;
      }
    fail_unless (differ == 0, "%s: %u of %u blocks differ when encoded alone",
        gst_bc_format_to_string (format), differ, bw * bh);
  }
  g_free (blocks);
  g_free (pic);
}

GST_END_TEST;

/* The blocks of a picture at every quality, BC6H and BC6H-SF, as SHA-256
 * digests: the smooth synthetic picture with speckles (two-region
 * blocks, the per-block fallbacks) and, for BC6H-SF, a third of its pixels
 * negated (so both signs meet in a block). The digests are the blocks of
 * the encoder of commit b8490a2, the same at every SIMD level
 * (test_simd_levels_agree): a change that means to change the blocks
 * updates them, any other must keep them. */
static void
stable_picture (guint w, guint h, gboolean negatives, guint16 * pic)
{
  guint x, y, c;

  hdrtest_image (w, h, 23, pic);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      guint16 *p = pic + (y * w + x) * 4;

      if (hdrtest_hash (x, y, 61) < 0.08)
        for (c = 0; c < 3; c++)
          p[c] = gst_bc_hdr_half_from_float ((gfloat) (40.0 *
                  hdrtest_hash (x, y, 70 + c)));
      if (negatives && hdrtest_hash (x / 3, y / 2, 80) < 0.33)
        for (c = 0; c < 3; c++)
          p[c] ^= 0x8000;
    }
}

GST_START_TEST (test_blocks_stable)
{
  static const gchar *const digests[2][3] = {
    {
          "35aac90b7f0ac52e76aaeb4d1a4fd3576507a2d271ee57171b8b95857845a1c5",
          "2dc1fac9073e9e6ce30a12342a23ed94e732a3a37fc13b41fc7ebfa6b4baccd3",
          "c3809bdfc0de7691ea110ea2564351a2723dacb30a3f3a473013550faa799e5d",
        },
    {
          "5db0d9d8380dec4248d4fe662ad6c4d748fe0c21eb04725d961071f2554b5040",
          "3cc16f15a446080b4ee2ee344c3b6505e76f10bc6204a6a0c9e8b2ebaeb2a7c6",
          "53a38c5ad6898ce238b47d86def8c5ee2749bbe8e772cd63bc07723a670d5b6e",
        },
  };
  const guint w = 90, h = 46, bw = (w + 3) / 4, bh = (h + 3) / 4;
  guint16 *pic = g_new (guint16, w * h * 4);
  guint8 *blocks = g_malloc (bw * bh * 16);
  guint s, q;

  for (s = 0; s < 2; s++) {
    GstBcFormat format = s ? GST_BC_FORMAT_BC6H_SF : GST_BC_FORMAT_BC6H;

    stable_picture (w, h, s == 1, pic);
    for (q = 0; q < G_N_ELEMENTS (qualities); q++) {
      gchar *digest;

      gst_bc_encode_rows_half (format, qualities[q], (const guint8 *) pic,
          w * 8, w, h, 0, bh, blocks);
      digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, blocks,
          bw * bh * 16);
      fail_unless_equals_string (digest, digests[s][q]);
      g_free (digest);
    }
  }
  g_free (blocks);
  g_free (pic);
}

GST_END_TEST;

static Suite *
bcencode6h_suite (void)
{
  Suite *s = suite_create ("bcencode6h");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_flat);
  tcase_add_test (tc, test_gradients);
  tcase_add_test (tc, test_edge);
  tcase_add_test (tc, test_random);
  tcase_add_test (tc, test_rows_odd_sizes);
  tcase_add_test (tc, test_simd_levels_agree);
  tcase_add_test (tc, test_row_per_block);
  tcase_add_test (tc, test_mpsnr);
  tcase_add_test (tc, test_mpsnr_edges);
  tcase_add_test (tc, test_hdr_input);
  tcase_add_test (tc, test_half_from_float);
  tcase_add_test (tc, test_rows_hdr);
  tcase_add_test (tc, test_hdr_input_tables);
  tcase_add_test (tc, test_bc6h_weights);
  tcase_add_test (tc, test_signed_flat);
  tcase_add_test (tc, test_signed_gradients);
  tcase_add_test (tc, test_signed_random);
  tcase_add_test (tc, test_signed_mpsnr);
  tcase_add_test (tc, test_blocks_stable);
  tcase_add_test (tc, test_normal_blocks_independent);
  return s;
}

GST_CHECK_MAIN (bcencode6h);
