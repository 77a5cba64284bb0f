/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbctest.h"

static const GstBcFormat enc_formats[] = {
  GST_BC_FORMAT_BC1, GST_BC_FORMAT_BC3, GST_BC_FORMAT_YCOCG_BC3
};

static inline gint
expand5 (gint q)
{
  return (q << 3) | (q >> 2);
}

static inline gint
expand6 (gint q)
{
  return (q << 2) | (q >> 4);
}

static gchar *
test_hex (const guint8 * b, guint n)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < n; i++)
    g_string_append_printf (s, "%02x", b[i]);
  return g_string_free (s, FALSE);
}

/* Every block of every format decodes within a PSNR bound, and better
 * quality levels are never worse. */
GST_START_TEST (test_round_trip_quality)
{
  const guint w = 256, h = 192;
  guint8 *pic = test_picture (w, h, 1, 6, TEST_ALPHA_WAVE);
  guint f, q;
  /* lower bounds measured on this picture, minus a margin */
  const gdouble min_psnr[] = { 34.0, 34.0, 38.0 };

  for (f = 0; f < G_N_ELEMENTS (enc_formats); f++) {
    gdouble prev_sse = G_MAXDOUBLE;

    for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
      GstBcInfo info;
      guint8 *enc =
          test_encode (enc_formats[f], q, pic, &test_rgba_layout, w, h, &info);
      guint8 *dec = test_decode (&info, enc);
      gdouble sse = test_sse (dec, pic, 4, w * h, 0, 3);
      gdouble psnr = test_psnr (sse, 3 * w * h);

      GST_INFO ("%s quality %u: %.2f dB",
          gst_bc_format_to_string (enc_formats[f]), q, psnr);
      fail_unless (psnr >= min_psnr[f], "%s quality %u: %.2f dB",
          gst_bc_format_to_string (enc_formats[f]), q, psnr);
      fail_unless (sse <= prev_sse * 1.0001, "%s quality %u worse than %u",
          gst_bc_format_to_string (enc_formats[f]), q, q - 1);
      prev_sse = sse;

      if (enc_formats[f] == GST_BC_FORMAT_BC3) {
        /* alpha is coded too */
        fail_unless (test_psnr (test_sse (dec, pic, 4, w * h, 3, 1),
                w * h) > 40.0);
      } else {
        guint i;
        for (i = 0; i < w * h; i++)
          fail_unless_equals_int (dec[i * 4 + 3], 255);
      }
      g_free (enc);
      g_free (dec);
    }
  }
  g_free (pic);
}

GST_END_TEST;

/* The best any BC1 block can do for one channel value v, by brute force
 * over every endpoint pair and palette entry. */
static gint
best_single_error (gint v, gint bits)
{
  gint n = 1 << bits, a, b, best = 255;

  for (a = 0; a < n; a++) {
    for (b = 0; b < n; b++) {
      gint ea = bits == 5 ? expand5 (a) : expand6 (a);
      gint eb = bits == 5 ? expand5 (b) : expand6 (b);
      gint pal[4] = { ea, eb, (2 * ea + eb) / 3, (ea + 2 * eb) / 3 };
      gint i;
      for (i = 0; i < 4; i++)
        best = MIN (best, ABS (pal[i] - v));
    }
  }
  return best;
}

GST_START_TEST (test_solid_blocks_optimal)
{
  gint best5[256], best6[256];
  gint v, c, q;

  for (v = 0; v < 256; v++) {
    best5[v] = best_single_error (v, 5);
    best6[v] = best_single_error (v, 6);
  }
  /* values with an exact 565 representation are reproduced exactly */
  fail_unless_equals_int (best5[expand5 (13)], 0);

  for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
    for (c = 0; c < 3; c++) {
      for (v = 0; v < 256; v++) {
        guint8 px[64], blk[16], dec[64];
        gint i;

        for (i = 0; i < 16; i++) {
          px[i * 4 + 0] = c == 0 ? v : 77;
          px[i * 4 + 1] = c == 1 ? v : 130;
          px[i * 4 + 2] = c == 2 ? v : 255 - v;
          px[i * 4 + 3] = 255;
        }
        gst_bc_encode_block (GST_BC_FORMAT_BC1, q, px, blk);
        fail_unless (GST_READ_UINT16_LE (blk) > GST_READ_UINT16_LE (blk + 2));
        fail_unless (gst_bc_decode_block (GST_BC_FORMAT_BC1, blk, dec));
        for (i = 0; i < 16; i++) {
          gint ch;
          /* every pixel decodes to the same colour */
          fail_unless (memcmp (dec, dec + i * 4, 4) == 0);
          for (ch = 0; ch < 3; ch++) {
            gint want = ch == 1 ? best6[px[ch]] : best5[px[ch]];
            fail_unless_equals_int (ABS (dec[ch] - px[ch]), want);
          }
        }
      }
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_solid_blocks_bc3_ycocg)
{
  GRand *rand = g_rand_new_with_seed (7);
  guint n;

  for (n = 0; n < 5000; n++) {
    guint8 px[64], blk[16], dec[64];
    guint32 rgba = g_rand_int (rand);
    gint i, c;

    if (n < 256)                /* all greys */
      rgba = n * 0x01010100u | 0xff;
    for (i = 0; i < 16; i++)
      GST_WRITE_UINT32_BE (px + i * 4, rgba);

    /* BC3: alpha exact, colour as good as BC1 */
    gst_bc_encode_block (GST_BC_FORMAT_BC3, GST_BC_QUALITY_NORMAL, px, blk);
    fail_unless (gst_bc_decode_block (GST_BC_FORMAT_BC3, blk, dec));
    for (i = 0; i < 16; i++) {
      fail_unless_equals_int (dec[i * 4 + 3], px[3]);
      for (c = 0; c < 3; c++)
        fail_unless (ABS (dec[i * 4 + c] - px[c]) <= 3);
    }

    /* YCoCg-BC3: Y exact, so greys are exact and colours close */
    gst_bc_encode_block (GST_BC_FORMAT_YCOCG_BC3, GST_BC_QUALITY_NORMAL, px,
        blk);
    fail_unless (gst_bc_decode_block (GST_BC_FORMAT_YCOCG_BC3, blk, dec));
    for (i = 0; i < 16; i++) {
      fail_unless (memcmp (dec, dec + i * 4, 4) == 0);
      for (c = 0; c < 3; c++) {
        if (n < 256) {
          fail_unless_equals_int (dec[c], px[c]);
        } else {
          fail_unless (ABS (dec[c] - px[c]) <= 6, "%08x: %d vs %d",
              rgba, dec[c], px[c]);
        }
      }
    }
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* c0 > c1 (4-colour mode) on every BC1 block of a large random corpus:
 * noise, solid colours, two-colour blocks, gradients and near-solid
 * blocks, at every quality. */
GST_START_TEST (test_bc1_four_colour_invariant)
{
  GRand *rand = g_rand_new_with_seed (42);
  guint n, q, blocks = 0;

  for (n = 0; n < 20000; n++) {
    guint8 px[64];
    guint kind = n % 5, i;
    guint32 c0 = g_rand_int (rand), c1 = g_rand_int (rand);

    for (i = 0; i < 16; i++) {
      guint32 c;
      switch (kind) {
        case 0:
          c = g_rand_int (rand);
          break;
        case 1:
          c = c0;
          break;
        case 2:
          c = g_rand_boolean (rand) ? c0 : c1;
          break;
        case 3:{
          guint8 a[4], b[4], o[4];
          gint ch;
          GST_WRITE_UINT32_BE (a, c0);
          GST_WRITE_UINT32_BE (b, c1);
          for (ch = 0; ch < 4; ch++)
            o[ch] = (a[ch] * (15 - i) + b[ch] * i) / 15;
          c = GST_READ_UINT32_BE (o);
          break;
        }
        default:
          c = c0 ^ (g_rand_int (rand) & 0x01010100);
          break;
      }
      GST_WRITE_UINT32_BE (px + i * 4, c);
    }
    for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
      guint8 blk[8];
      gst_bc_encode_block (GST_BC_FORMAT_BC1, q, px, blk);
      fail_unless (GST_READ_UINT16_LE (blk) > GST_READ_UINT16_LE (blk + 2),
          "block %u kind %u quality %u: c0 %04x c1 %04x", n, kind, q,
          GST_READ_UINT16_LE (blk), GST_READ_UINT16_LE (blk + 2));
      blocks++;
    }
  }
  /* and on whole encoded pictures */
  {
    guint8 *pic = test_picture (300, 200, 3, 6, TEST_ALPHA_WAVE);
    GstBcInfo info;
    for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
      guint8 *enc =
          test_encode (GST_BC_FORMAT_BC1, q, pic, &test_rgba_layout, 300, 200,
          &info);
      gsize i;
      for (i = 0; i < info.size; i += 8, blocks++)
        fail_unless (GST_READ_UINT16_LE (enc + i) >
            GST_READ_UINT16_LE (enc + i + 2));
      g_free (enc);
    }
    g_free (pic);
  }
  GST_INFO ("checked %u blocks", blocks);
  g_rand_free (rand);
}

GST_END_TEST;

/* Sizes that are not multiples of 4 are padded by repeating the last
 * column and row: the result equals encoding an explicitly padded copy. */
GST_START_TEST (test_odd_sizes_padding)
{
  const guint sizes[][2] = { {1, 1}, {3, 5}, {30, 26}, {5, 3}, {33, 1},
  {1, 33}, {67, 9}
  };
  guint s, f;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    guint w = sizes[s][0], h = sizes[s][1];
    guint pw = (w + 3) & ~3u, ph = (h + 3) & ~3u;
    guint8 *pic = test_picture (w, h, 100 + s, 6, TEST_ALPHA_WAVE);
    guint8 *padded = test_pad_to_blocks (pic, w, h);

    for (f = 0; f < G_N_ELEMENTS (enc_formats); f++) {
      GstBcInfo info, pinfo;
      guint8 *a = test_encode (enc_formats[f], GST_BC_QUALITY_NORMAL, pic,
          &test_rgba_layout, w, h, &info);
      guint8 *b = test_encode (enc_formats[f], GST_BC_QUALITY_NORMAL,
          padded, &test_rgba_layout, pw, ph, &pinfo);
      guint8 *dec;

      fail_unless_equals_int (info.size, pinfo.size);
      fail_unless (memcmp (a, b, info.size) == 0, "%ux%u %s", w, h,
          gst_bc_format_to_string (enc_formats[f]));
      dec = test_decode (&info, a);
      fail_unless (test_psnr_rgb (pic, dec, (gsize) w * h) > 30.0);
      g_free (dec);
      g_free (a);
      g_free (b);
    }
    g_free (padded);
    g_free (pic);
  }
}

GST_END_TEST;

/* Encoding the frame in pieces of block rows, with any stride and any
 * input layout, gives the same bytes as one call; gst_bc_encode_block()
 * agrees with gst_bc_encode_rows(). */
GST_START_TEST (test_rows_layouts_and_blocks)
{
  const guint w = 70, h = 42;
  guint8 *pic = test_picture (w, h, 9, 6, TEST_ALPHA_WAVE);
  static const GstVideoFormat fmts[] = {
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
    GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR,
    GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_RGB,
    GST_VIDEO_FORMAT_BGR
  };
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (enc_formats); f++) {
    GstBcInfo info;
    guint8 *ref = test_encode (enc_formats[f], GST_BC_QUALITY_NORMAL, pic,
        &test_rgba_layout, w, h, &info);
    guint by;

    test_check_pieces (&info, GST_BC_QUALITY_NORMAL, pic, 3, ref);

    /* every input layout, with a padded stride */
    for (i = 0; i < G_N_ELEMENTS (fmts); i++) {
      GstBcPixelLayout lo;
      guint8 *out;
      gboolean has_alpha;

      fail_unless (gst_bc_pixel_layout_from_video_format (&lo, fmts[i]));
      has_alpha = lo.a >= 0;
      /* padding bytes (junk) must be ignored */
      out = test_encode_layout (&info, GST_BC_QUALITY_NORMAL, pic, &lo, 13);
      if (has_alpha || enc_formats[f] != GST_BC_FORMAT_BC3) {
        fail_unless (memcmp (ref, out, info.size) == 0, "%s from %s",
            gst_bc_format_to_string (enc_formats[f]),
            gst_video_format_to_string (fmts[i]));
      } else {
        /* no alpha in the input: BC3 alpha blocks say 255 */
        for (by = 0; by < info.size; by += 16) {
          fail_unless_equals_int (out[by], 255);
          fail_unless (memcmp (ref + by + 8, out + by + 8, 8) == 0);
        }
      }
      g_free (out);
    }

    test_check_blocks (&info, GST_BC_QUALITY_NORMAL, pic, ref);
    g_free (ref);
  }
  g_free (pic);
}

GST_END_TEST;

/* BC1 and YCoCg-BC3 at quality=fast, block by block against a plain
 * 32-bit rewrite of the algorithms in bcencode-fast.c (the kernels run
 * them in 16-bit lanes): endpoints quantised by a search of every code, the
 * index thresholds as exact sums, Y's levels as exact fractions. On a
 * photograph-like picture, pure noise and blocks of extremes (0 and 255 in
 * every channel: the largest axis and projections the 16-bit arithmetic
 * has to hold). */
/* The colour block of 16 pixels' channels @px (0..255); @blue >= 0:
 * two channels, blue fixed (YCoCg) */
static void
fast_colour_reference (const gint px[16][3], gint blue, gboolean bc1,
    guint8 out[8])
{
  const guint8 *single[3] = { gst_bc_encode_single_color_table (5),
    gst_bc_encode_single_color_table (6), gst_bc_encode_single_color_table (5)
  };
  gint lo[3] = { 255, 255, 255 }, hi[3] = { 0, 0, 0 }, sum[3] = { 0, 0, 0 };
  gint q[2][3], e[2][3], d[3], s[4] = { 0, 0, 0, 0 }, l1 = 0, shift, i, c, j;
  gint n_ch = blue >= 0 ? 2 : 3;
  guint32 idx = 0, c0, c1;

  for (i = 0; i < 16; i++)
    for (c = 0; c < 3; c++) {
      lo[c] = MIN (lo[c], px[i][c]);
      hi[c] = MAX (hi[c], px[i][c]);
      sum[c] += px[i][c];
    }
  if (blue >= 0) {
    gdouble m0 = sum[0] / 16.0, m1 = sum[1] / 16.0, cov = 0;

    /* the sign of the covariance, one factor taken by its sign (and the
     * other rounded down to a multiple of 1/16, as the kernel does) */
    for (i = 0; i < 16; i++) {
      gdouble d0 = floor (px[i][0] - m0), d1 = px[i][1] - m1;

      cov += d1 > 0 ? d0 : (d1 < 0 ? -d0 : 0);
    }
    if (cov < 0) {
      gint t = lo[0];

      lo[0] = hi[0];
      hi[0] = t;
    }
  }
  for (c = 0; c < 3; c++) {
    gint bits = c == 1 ? 6 : 5;
    gint inset = (gint) floor ((hi[c] - lo[c]) / 16.0);
    gint v[2] = { hi[c] - inset, lo[c] + inset };

    for (j = 0; j < 2; j++) {
      gint code, best = 1000;

      /* the nearest expansion, the smaller code on a tie */
      for (code = 0; code < (1 << bits); code++) {
        gint x = bits == 6 ? expand6 (code) : expand5 (code);

        if (ABS (x - v[j]) < best) {
          best = ABS (x - v[j]);
          q[j][c] = code;
        }
      }
      if (c == 2 && blue >= 0)
        q[j][c] = blue;
      e[j][c] = bits == 6 ? expand6 (q[j][c]) : expand5 (q[j][c]);
    }
    d[c] = e[0][c] - e[1][c];
    l1 += ABS (d[c]);
  }
  shift = l1 > 496 ? 3 : (l1 > 248 ? 2 : (l1 > 124 ? 1 : 0));
  for (c = 0; c < 3; c++) {
    gint a = e[0][c], b = e[1][c];

    d[c] = (gint) floor (d[c] / (gdouble) (1 << shift));
    s[0] += a * d[c];
    s[1] += b * d[c];
    s[2] += (2 * a + b) / 3 * d[c];
    s[3] += (a + 2 * b) / 3 * d[c];
  }
  for (i = 0; i < 16; i++) {
    gint p = 2 * (px[i][0] * d[0] + px[i][1] * d[1] + px[i][2] * d[2]);
    /* the nearest of c1, (c0 + 2 c1) / 3, (2 c0 + c1) / 3, c0 along d */
    guint code = p > s[2] + s[0] ? 0 : (p > s[3] + s[2] ? 2 :
        (p > s[1] + s[3] ? 3 : 1));

    idx |= code << (2 * i);
  }
  if (q[0][0] == q[1][0] && q[0][1] == q[1][1] && q[0][2] == q[1][2]) {
    for (c = 0; c < n_ch; c++) {
      gint m = (sum[c] + 8) / 16;

      q[0][c] = single[c][m * 2];
      q[1][c] = single[c][m * 2 + 1];
    }
    idx = 0xAAAAAAAAu;
  }
  c0 = (q[0][0] << 11) | (q[0][1] << 5) | q[0][2];
  c1 = (q[1][0] << 11) | (q[1][1] << 5) | q[1][2];
  if (c0 < c1) {
    guint32 t = c0;

    c0 = c1;
    c1 = t;
    idx ^= 0x55555555u;
  } else if (c0 == c1) {
    idx = bc1 && c0 == 0 ? 0x55555555u : 0;
    if (bc1) {
      c1 = c0 == 0 ? 0 : c0 - 1;
      c0 = c0 == 0 ? 1 : c0;
    }
  }
  GST_WRITE_UINT16_LE (out, c0);
  GST_WRITE_UINT16_LE (out + 2, c1);
  GST_WRITE_UINT32_LE (out + 4, idx);
}

static void
bc1_fast_reference (const guint8 rgba[64], guint8 out[8])
{
  gint px[16][3], i, c;

  for (i = 0; i < 16; i++)
    for (c = 0; c < 3; c++)
      px[i][c] = rgba[i * 4 + c];
  fast_colour_reference (px, -1, TRUE, out);
}

/* YCoCg: Y = (R + 2G + B) / 4 coded from its rounded minimum and maximum,
 * each pixel at the nearest level; Co = (R - B) / 2, Cg = (2G - R - B) / 4
 * scaled by 4, 2 or 1, offset by 128, rounded (halves up) */
static void
ycocg_fast_reference (const guint8 rgba[64], guint8 out[16])
{
  gdouble y[16], co[16], cg[16], ymin = 255, ymax = 0, m = 0, lvl[8];
  gint px[16][3], i, j, scale, a0, a1;
  guint64 codes = 0;

  for (i = 0; i < 16; i++) {
    const guint8 *p = rgba + i * 4;

    y[i] = (p[0] + 2 * p[1] + p[2]) / 4.0;
    co[i] = (p[0] - p[2]) / 2.0;
    cg[i] = (2 * p[1] - p[0] - p[2]) / 4.0;
    ymin = MIN (ymin, y[i]);
    ymax = MAX (ymax, y[i]);
    m = MAX (m, MAX (fabs (co[i]), fabs (cg[i])));
  }
  scale = m < 31.875 ? 4 : (m < 63.75 ? 2 : 1);
  for (i = 0; i < 16; i++) {
    px[i][0] = CLAMP ((gint) floor (co[i] * scale + 128.5), 0, 255);
    px[i][1] = CLAMP ((gint) floor (cg[i] * scale + 128.5), 0, 255);
    px[i][2] = 0;
  }
  a0 = (gint) floor (ymax + 0.5);
  a1 = (gint) floor (ymin + 0.5);
  for (j = 0; j < 8; j++)
    lvl[j] = (j * a0 + (7 - j) * a1) / 7;
  for (i = 0; i < 16 && a0 != a1; i++) {
    gint best = 0;

    /* the nearest level: the number of midpoints below the value (a tie
     * goes to the lower level; of two equal levels, the upper one is
     * taken when the value is above them) */
    for (j = 0; j < 7; j++)
      best += y[i] > (lvl[j] + lvl[j + 1]) / 2;
    codes |= (guint64) (best == 7 ? 0 : (best == 0 ? 1 : 8 - best)) << (3 * i);
  }
  out[0] = a0;
  out[1] = a1;
  for (i = 0; i < 6; i++)
    out[2 + i] = codes >> (8 * i);
  fast_colour_reference (px, scale - 1, FALSE, out + 8);
}

GST_START_TEST (test_fast_reference)
{
  const guint w = 96, h = 64;
  guint8 *pics[3];
  GRand *rand = g_rand_new_with_seed (5);
  guint p, i;

  pics[0] = test_picture (w, h, 3, 4, TEST_ALPHA_OPAQUE);
  pics[1] = g_malloc (w * h * 4);
  pics[2] = g_malloc (w * h * 4);
  for (i = 0; i < w * h * 4; i++) {
    pics[1][i] = g_rand_int (rand);
    pics[2][i] = g_rand_boolean (rand) ? 255 : 0;
  }

  for (p = 0; p < 2 * G_N_ELEMENTS (pics); p++) {
    const gboolean ycocg = p >= G_N_ELEMENTS (pics);
    const guint8 *pic = pics[p % G_N_ELEMENTS (pics)];
    const guint bb = ycocg ? 16 : 8;
    GstBcInfo info;
    guint8 *enc = test_encode (ycocg ? GST_BC_FORMAT_YCOCG_BC3 :
        GST_BC_FORMAT_BC1, GST_BC_QUALITY_FAST, pic, &test_rgba_layout, w, h,
        &info);
    guint bx, by, x, y;

    for (by = 0; by < h / 4; by++) {
      for (bx = 0; bx < w / 4; bx++) {
        guint8 px[64], want[16];
        const guint8 *got = enc + (by * (w / 4) + bx) * bb;
        gchar *g, *e;

        for (y = 0; y < 4; y++)
          for (x = 0; x < 4; x++)
            memcpy (px + (y * 4 + x) * 4,
                pic + ((by * 4 + y) * w + bx * 4 + x) * 4, 4);
        if (ycocg)
          ycocg_fast_reference (px, want);
        else
          bc1_fast_reference (px, want);
        if (memcmp (got, want, bb) == 0)
          continue;
        g = test_hex (got, bb);
        e = test_hex (want, bb);
        fail ("%s, picture %u, block (%u, %u): %s, want %s", ycocg ?
            "YCoCg-BC3" : "BC1", p % 3, bx, by, g, e);
      }
    }
    g_free (enc);
  }
  for (p = 0; p < G_N_ELEMENTS (pics); p++)
    g_free (pics[p]);
  g_rand_free (rand);
}

GST_END_TEST;

/* The portable C, SSE2 and AVX2 builds of the kernels give identical
 * blocks (only the levels this CPU has are compared). */
GST_START_TEST (test_simd_identical)
{
  const guint w = 203, h = 61;
  guint8 *pic = test_picture (w, h, 5, 6, TEST_ALPHA_WAVE);
  GRand *rand = g_rand_new_with_seed (11);
  guint f, q, i;

  /* some pure noise too */
  for (i = 0; i < w * 10 * 4; i++)
    pic[i] = g_rand_int (rand);

  for (f = 0; f < G_N_ELEMENTS (enc_formats); f++)
    for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++)
      test_check_simd_identical (enc_formats[f], q, pic, &test_rgba_layout, w,
          h, "RGBA");
  g_rand_free (rand);
  g_free (pic);
}

GST_END_TEST;

GST_START_TEST (test_format_support)
{
  fail_unless (gst_bc_encode_format_supported (GST_BC_FORMAT_BC1));
  fail_unless (gst_bc_encode_format_supported (GST_BC_FORMAT_BC3));
  fail_unless (gst_bc_encode_format_supported (GST_BC_FORMAT_YCOCG_BC3));
  /* BC4, BC5 and BC7: tests/check/libs/bcencode457.c */
  fail_unless (gst_bc_encode_format_supported (GST_BC_FORMAT_BC7));
  fail_if (gst_bc_encode_format_supported (GST_BC_FORMAT_UNKNOWN));
}

GST_END_TEST;

static Suite *
bcencode_suite (void)
{
  Suite *s = suite_create ("bcencode");
  TCase *tc = test_suite_add_general (s, 300);

  tcase_add_test (tc, test_round_trip_quality);
  tcase_add_test (tc, test_solid_blocks_optimal);
  tcase_add_test (tc, test_solid_blocks_bc3_ycocg);
  tcase_add_test (tc, test_bc1_four_colour_invariant);
  tcase_add_test (tc, test_odd_sizes_padding);
  tcase_add_test (tc, test_rows_layouts_and_blocks);
  tcase_add_test (tc, test_fast_reference);
  tcase_add_test (tc, test_simd_identical);
  tcase_add_test (tc, test_format_support);
  return s;
}

GST_CHECK_MAIN (bcencode);
