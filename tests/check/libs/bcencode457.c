/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Unit tests of the BC4, BC5 and BC7 encoders of libgstbc: round trips,
 * solid blocks, the BC4 8-value / 6-value choice, the BC7 modes of each
 * quality, odd sizes, input layouts (grey, 16-bit grey, RGB luma) and the
 * portable C / SSE2 / AVX2 / AVX-512 builds. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbctest.h"

static const GstBcPixelLayout gray8_layout = { 1, 0, 0, 0, -1, -1 };

/* one channel of an RGBA picture as GRAY8 */
static guint8 *
channel_of (const guint8 * rgba, gsize n, gint c)
{
  guint8 *g = g_malloc (n);
  gsize i;

  for (i = 0; i < n; i++)
    g[i] = rgba[i * 4 + c];
  return g;
}

static gint
bc7_mode (const guint8 * block)
{
  gint m;

  for (m = 0; m < 8; m++)
    if (block[0] & (1 << m))
      return m;
  return 8;
}

/* ---- BC4 / BC5 --------------------------------------------------------- */

/* The fast BC4 encoding by definition: a0 = max, a1 = min, every pixel the
 * nearest of the eight values (the lower one on a tie) */
static void
reference_bc4_fast (const guint8 v[16], guint8 out[8])
{
  gint lo = 255, hi = 0, i, j;
  gint lvl[8];
  guint64 bits = 0;

  for (i = 0; i < 16; i++) {
    lo = MIN (lo, v[i]);
    hi = MAX (hi, v[i]);
  }
  for (j = 0; j < 8; j++)
    lvl[j] = (j * hi + (7 - j) * lo) / 7;
  for (i = 0; i < 16; i++) {
    gint best = 0, code;

    for (j = 1; j < 8; j++)
      if (ABS (lvl[j] - v[i]) < ABS (lvl[best] - v[i]))
        best = j;
    code = best == 7 ? 0 : (best == 0 ? 1 : 8 - best);
    bits |= (guint64) code << (3 * i);
  }
  if (hi == lo)
    bits = 0;
  out[0] = hi;
  out[1] = lo;
  for (i = 0; i < 6; i++)
    out[2 + i] = (guint8) (bits >> (8 * i));
}

static gdouble
block_sse (const guint8 * block, const guint8 v[16])
{
  guint8 dec[64];
  gdouble s = 0;
  gint i;

  fail_unless (gst_bc_decode_block (GST_BC_FORMAT_BC4, block, dec));
  for (i = 0; i < 16; i++)
    s += (gdouble) (dec[i * 4] - v[i]) * (dec[i * 4] - v[i]);
  return s;
}

GST_START_TEST (test_bc4_round_trip)
{
  const guint w = 256, h = 192;
  const gsize n = (gsize) w * h;
  guint8 *pic = test_picture (w, h, 1, 4, TEST_ALPHA_OPAQUE);
  guint8 *gray = channel_of (pic, n, 0);
  /* lower bounds measured on this picture, minus a margin */
  const gdouble floor_db[] = { 46.8, 47.6, 48.6 };
  gdouble prev = G_MAXDOUBLE;
  guint q;

  for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
    GstBcInfo info;
    guint8 *enc =
        test_encode (GST_BC_FORMAT_BC4, q, gray, &gray8_layout, w, h, &info);
    guint8 *dec = test_decode (&info, enc);
    gdouble s = test_sse (dec, gray, 1, n, 0, 1);
    gsize i;

    GST_INFO ("BC4 quality %u: %.2f dB", q, test_psnr (s, n));
    fail_unless (test_psnr (s, n) >= floor_db[q], "quality %u: %.2f dB", q,
        test_psnr (s, n));
    /* every quality keeps the best of a superset of the lower one's
     * candidates */
    fail_unless (s <= prev, "quality %u worse than %u", q, q - 1);
    prev = s;
    /* grey out, opaque */
    for (i = 0; i < n; i++) {
      fail_unless (dec[i * 4] == dec[i * 4 + 1] && dec[i * 4] ==
          dec[i * 4 + 2]);
      fail_unless_equals_int (dec[i * 4 + 3], 255);
    }
    g_free (enc);
    g_free (dec);
  }
  g_free (gray);
  g_free (pic);
}

GST_END_TEST;

/* GRAY16_LE is the value / 257; RGB input is its BT.601 luma; BC5 is the
 * BC4 blocks of red and green */
GST_START_TEST (test_bc45_input_channels)
{
  const guint w = 70, h = 42;
  const gsize n = (gsize) w * h;
  guint8 *pic = test_picture (w, h, 3, 4, TEST_ALPHA_WAVE);
  guint8 *luma = g_malloc (n), *red = channel_of (pic, n, 0);
  guint8 *green = channel_of (pic, n, 1);
  guint16 *g16 = g_malloc (n * 2);
  GstBcPixelLayout lo16;
  gsize i;
  guint q;

  fail_unless (gst_bc_encode_layout_from_video_format (&lo16,
          GST_VIDEO_FORMAT_GRAY16_LE));
  fail_unless_equals_int (lo16.bpp, 2);
  for (i = 0; i < n; i++) {
    const guint8 *p = pic + i * 4;

    luma[i] = test_luma (p);
    GST_WRITE_UINT16_LE (g16 + i, luma[i] * 257);
  }

  for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
    GstBcInfo info;
    guint8 *from_gray =
        test_encode (GST_BC_FORMAT_BC4, q, luma, &gray8_layout, w, h, &info);
    guint8 *from_rgb =
        test_encode (GST_BC_FORMAT_BC4, q, pic, &test_rgba_layout, w, h, &info);
    guint8 *from_16 =
        test_encode (GST_BC_FORMAT_BC4, q, (guint8 *) g16, &lo16, w, h, &info);
    guint8 *bc4r =
        test_encode (GST_BC_FORMAT_BC4, q, red, &gray8_layout, w, h, &info);
    guint8 *bc4g =
        test_encode (GST_BC_FORMAT_BC4, q, green, &gray8_layout, w, h, &info);
    guint8 *bc5 =
        test_encode (GST_BC_FORMAT_BC5, q, pic, &test_rgba_layout, w, h, &info);

    fail_unless (memcmp (from_gray, from_rgb, info.blocks_x * info.blocks_y *
            8) == 0, "BC4 of RGB is not BC4 of its luma");
    fail_unless (memcmp (from_gray, from_16, info.blocks_x * info.blocks_y *
            8) == 0, "BC4 of GRAY16 v * 257 is not BC4 of GRAY8 v");
    for (i = 0; i < (gsize) info.blocks_x * info.blocks_y; i++) {
      fail_unless (memcmp (bc5 + i * 16, bc4r + i * 8, 8) == 0);
      fail_unless (memcmp (bc5 + i * 16 + 8, bc4g + i * 8, 8) == 0);
    }
    g_free (from_gray);
    g_free (from_rgb);
    g_free (from_16);
    g_free (bc4r);
    g_free (bc4g);
    g_free (bc5);
  }

  /* 16-bit values between the 8-bit steps: the encoder codes value / 257
   * rounded to the nearest integer, and the decoded picture stays near the
   * 16-bit source */
  {
    GRand *rand = g_rand_new_with_seed (5);
    guint8 *trunc = g_malloc (n);
    GstBcInfo info;
    guint8 *enc, *dec;
    gdouble s16 = 0, s8 = 0;

    for (i = 0; i < n; i++) {
      guint v = CLAMP (luma[i] * 257 + g_rand_int_range (rand, 0, 257), 0,
          65535);
      GST_WRITE_UINT16_LE (g16 + i, v);
      trunc[i] = v >> 8;
    }
    enc =
        test_encode (GST_BC_FORMAT_BC4, GST_BC_QUALITY_NORMAL, (guint8 *) g16,
        &lo16, w, h, &info);
    dec = test_decode (&info, enc);
    for (i = 0; i < n; i++) {
      gdouble v = GST_READ_UINT16_LE (g16 + i) / 257.0;
      s16 += (dec[i * 4] - v) * (dec[i * 4] - v);
      s8 += (trunc[i] - v) * (trunc[i] - v);
    }
    GST_INFO ("GRAY16: error %.1f, truncation alone %.1f", s16, s8);
    fail_unless (test_psnr (s16, n) > 40.0);
    g_free (enc);
    g_free (dec);
    g_free (trunc);
    g_rand_free (rand);
  }
  g_free (g16);
  g_free (luma);
  g_free (red);
  g_free (green);
  g_free (pic);
}

GST_END_TEST;

/* BC5 of 4-byte pixels is read in place for whole batches, from the
 * layout's red and green bytes: every layout gives the BC4 blocks of its
 * red and green channels, in the batches read in place (the first 256
 * pixels of each row) and in the converted rest */
GST_START_TEST (test_bc5_pixel_layouts)
{
  const guint w = 300, h = 10;
  const gsize n = (gsize) w * h;
  const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_ARGB,
    GST_VIDEO_FORMAT_ABGR
  };
  guint8 *pic = test_picture (w, h, 7, 4, TEST_ALPHA_WAVE);
  guint8 *red = channel_of (pic, n, 0), *green = channel_of (pic, n, 1);
  guint8 *packed = g_malloc (n * 4);
  guint f, q;
  gsize i;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstBcPixelLayout lo;

    fail_unless (gst_bc_encode_layout_from_video_format (&lo, formats[f]));
    fail_unless_equals_int (lo.bpp, 4);
    for (i = 0; i < n; i++) {
      packed[i * 4 + lo.r] = pic[i * 4];
      packed[i * 4 + lo.g] = pic[i * 4 + 1];
      packed[i * 4 + lo.b] = pic[i * 4 + 2];
      packed[i * 4 + lo.a] = pic[i * 4 + 3];
    }
    for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
      GstBcInfo info;
      guint8 *bc5 = test_encode (GST_BC_FORMAT_BC5, q, packed, &lo, w, h,
          &info);
      guint8 *bc4r = test_encode (GST_BC_FORMAT_BC4, q, red, &gray8_layout,
          w, h, &info);
      guint8 *bc4g = test_encode (GST_BC_FORMAT_BC4, q, green, &gray8_layout,
          w, h, &info);

      for (i = 0; i < (gsize) info.blocks_x * info.blocks_y; i++) {
        fail_unless (memcmp (bc5 + i * 16, bc4r + i * 8, 8) == 0,
            "%s quality %u: block %" G_GSIZE_FORMAT " red",
            gst_video_format_to_string (formats[f]), q, i);
        fail_unless (memcmp (bc5 + i * 16 + 8, bc4g + i * 8, 8) == 0,
            "%s quality %u: block %" G_GSIZE_FORMAT " green",
            gst_video_format_to_string (formats[f]), q, i);
      }
      g_free (bc5);
      g_free (bc4r);
      g_free (bc4g);
    }
  }
  g_free (packed);
  g_free (red);
  g_free (green);
  g_free (pic);
}

GST_END_TEST;

GST_START_TEST (test_bc5_round_trip)
{
  const guint w = 256, h = 192;
  const gsize n = (gsize) w * h;
  guint8 *pic = test_picture (w, h, 2, 4, TEST_ALPHA_OPAQUE);
  const gdouble floor_db[] = { 49.2, 49.9, 50.9 };
  gdouble prev = G_MAXDOUBLE;
  guint q;

  for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
    GstBcInfo info;
    guint8 *enc =
        test_encode (GST_BC_FORMAT_BC5, q, pic, &test_rgba_layout, w, h, &info);
    guint8 *dec = test_decode (&info, enc);
    gdouble s = test_sse (dec, pic, 4, n, 0, 2);
    gsize i;

    GST_INFO ("BC5 quality %u: %.2f dB (red, green)", q, test_psnr (s, 2 * n));
    fail_unless (test_psnr (s, 2 * n) >= floor_db[q], "quality %u: %.2f dB", q,
        test_psnr (s, 2 * n));
    fail_unless (s <= prev);
    prev = s;
    for (i = 0; i < n; i++) {
      fail_unless_equals_int (dec[i * 4 + 2], 0);
      fail_unless_equals_int (dec[i * 4 + 3], 255);
    }
    g_free (enc);
    g_free (dec);
  }
  g_free (pic);
}

GST_END_TEST;

GST_START_TEST (test_bc45_solid_exact)
{
  guint q, v;

  for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
    for (v = 0; v < 256; v++) {
      guint8 px[64], blk[16], dec[64];
      gint i;

      for (i = 0; i < 16; i++) {
        px[i * 4 + 0] = v;
        px[i * 4 + 1] = 255 - v;
        px[i * 4 + 2] = v / 2;
        px[i * 4 + 3] = 255;
      }
      /* BC4 of RGBA is the luma: make it v */
      for (i = 0; i < 16; i++)
        px[i * 4 + 1] = px[i * 4 + 2] = px[i * 4];
      gst_bc_encode_block (GST_BC_FORMAT_BC4, q, px, blk);
      fail_unless_equals_int (blk[0], v);
      fail_unless_equals_int (blk[1], v);
      for (i = 2; i < 8; i++)
        fail_unless_equals_int (blk[i], 0);
      fail_unless (gst_bc_decode_block (GST_BC_FORMAT_BC4, blk, dec));
      for (i = 0; i < 16; i++)
        fail_unless_equals_int (dec[i * 4], v);

      for (i = 0; i < 16; i++)
        px[i * 4 + 1] = 255 - v;
      gst_bc_encode_block (GST_BC_FORMAT_BC5, q, px, blk);
      fail_unless (gst_bc_decode_block (GST_BC_FORMAT_BC5, blk, dec));
      for (i = 0; i < 16; i++) {
        fail_unless_equals_int (dec[i * 4], v);
        fail_unless_equals_int (dec[i * 4 + 1], 255 - v);
      }
    }
  }
}

GST_END_TEST;

/* The 8-value / 6-value choice: fast is min/max 8-value exactly; normal
 * and high never do worse than it, use 6-value mode only when strictly
 * better, and pick it for blocks whose extremes are 0 and 255 */
GST_START_TEST (test_bc4_mode_selection)
{
  GRand *rand = g_rand_new_with_seed (17);
  guint n, q, n6[3] = { 0, 0, 0 };

  for (n = 0; n < 6000; n++) {
    guint8 v[16], px[64];
    guint kind = n % 4, i;
    gint base = g_rand_int_range (rand, 0, 256);

    for (i = 0; i < 16; i++) {
      /* drawn once: CLAMP evaluates its argument more than once */
      gint r = g_rand_int_range (rand, -6, 7);
      gint step = g_rand_int_range (rand, -8, 9);

      switch (kind) {
        case 0:                /* noise */
          v[i] = g_rand_int_range (rand, 0, 256);
          break;
        case 1:                /* a narrow range with 0 / 255 outliers */
          v[i] = i % 5 == 0 ? 0 : (i % 7 == 0 ? 255 : CLAMP (base + r, 1, 254));
          break;
        case 2:                /* a gradient */
          v[i] = CLAMP (base + (gint) i * step, 0, 255);
          break;
        default:               /* near-solid */
          v[i] = CLAMP (base + r / 4, 0, 255);
          break;
      }
      px[i * 4] = px[i * 4 + 1] = px[i * 4 + 2] = v[i];
      px[i * 4 + 3] = 255;
    }
    for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
      guint8 blk[8], ref[8];
      gdouble s, sref;

      gst_bc_encode_block (GST_BC_FORMAT_BC4, q, px, blk);
      reference_bc4_fast (v, ref);
      s = block_sse (blk, v);
      sref = block_sse (ref, v);
      if (q == GST_BC_QUALITY_FAST) {
        fail_unless (memcmp (blk, ref, 8) == 0, "block %u: fast is not "
            "min/max with nearest codes", n);
        continue;
      }
      fail_unless (s <= sref, "block %u quality %u: %.0f > min/max %.0f", n,
          q, s, sref);
      if (blk[0] <= blk[1] && !(blk[0] == blk[1] && s == 0)) {
        /* 6-value mode: only when strictly better than 8-value min/max */
        n6[q]++;
        fail_unless (s < sref, "block %u quality %u: 6-value mode %.0f not "
            "better than 8-value %.0f", n, q, s, sref);
      }
      if (kind == 1) {
        guint8 dec[64];

        /* the outliers are kept exactly by the fixed values */
        fail_unless (blk[0] <= blk[1], "block %u quality %u: 8-value mode "
            "for a block with 0 and 255 outliers", n, q);
        fail_unless (gst_bc_decode_block (GST_BC_FORMAT_BC4, blk, dec));
        for (i = 0; i < 16; i++)
          if (v[i] == 0 || v[i] == 255)
            fail_unless_equals_int (dec[i * 4], v[i]);
      }
    }
  }
  GST_INFO ("6-value blocks: normal %u, high %u", n6[1], n6[2]);
  fail_unless (n6[1] >= 1500 && n6[2] >= 1500);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- BC7 --------------------------------------------------------------- */

/* the modes each quality may write (mode 5 only for solid blocks) */
static const guint bc7_allowed[3] = {
  (1 << 5) | (1 << 6),
  (1 << 1) | (1 << 3) | (1 << 5) | (1 << 6),
  (1 << 0) | (1 << 1) | (1 << 2) | (1 << 3) | (1 << 5) | (1 << 6),
};

GST_START_TEST (test_bc7_round_trip)
{
  const guint w = 96, h = 64;
  const gsize n = (gsize) w * h;
  guint8 *pic = test_picture (w, h, 4, 4, TEST_ALPHA_OPAQUE);
  guint8 *apic = test_picture (w, h, 4, 4, TEST_ALPHA_WAVE);
  const gdouble floor_db[] = { 44.2, 47.7, 48.0 };
  /* modes 0 to 3 have no alpha: blocks with alpha are mode 6 */
  const gdouble floor_alpha_db[] = { 44.3, 44.4, 44.8 };
  gdouble prev = G_MAXDOUBLE;
  guint q;

  for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
    GstBcInfo info;
    guint8 *enc =
        test_encode (GST_BC_FORMAT_BC7, q, pic, &test_rgba_layout, w, h, &info);
    guint8 *dec = test_decode (&info, enc);
    gdouble s = test_sse (dec, pic, 4, n, 0, 3), sa;
    gsize i;

    GST_INFO ("BC7 quality %u: %.2f dB", q, test_psnr (s, 3 * n));
    fail_unless (test_psnr (s, 3 * n) >= floor_db[q], "quality %u: %.2f dB", q,
        test_psnr (s, 3 * n));
    /* normal adds candidates to fast's; high refines differently */
    fail_unless (s <= prev * (q == GST_BC_QUALITY_HIGH ? 1.01 : 1.0),
        "quality %u worse than %u", q, q - 1);
    prev = s;
    /* opaque input decodes opaque */
    for (i = 0; i < n; i++)
      fail_unless_equals_int (dec[i * 4 + 3], 255);
    g_free (enc);
    g_free (dec);

    /* with alpha: alpha is coded too */
    enc =
        test_encode (GST_BC_FORMAT_BC7, q, apic, &test_rgba_layout, w, h,
        &info);
    dec = test_decode (&info, enc);
    s = test_sse (dec, apic, 4, n, 0, 3);
    sa = test_sse (dec, apic, 4, n, 3, 1);
    GST_INFO ("BC7 quality %u with alpha: RGB %.2f dB, alpha %.2f dB", q,
        test_psnr (s, 3 * n), test_psnr (sa, n));
    fail_unless (test_psnr (s, 3 * n) >= floor_alpha_db[q],
        "quality %u with " "alpha: %.2f dB", q, test_psnr (s, 3 * n));
    fail_unless (test_psnr (sa, n) >= 40.0);
    g_free (enc);
    g_free (dec);
  }
  g_free (apic);
  g_free (pic);
}

GST_END_TEST;

/* Every block uses a mode its quality allows, never the reserved mode 8;
 * each quality's extra modes do get used; solid blocks are mode 5 */
GST_START_TEST (test_bc7_modes)
{
  const guint w = 128, h = 64;
  guint8 *pic = test_picture (w, h, 6, 4, TEST_ALPHA_OPAQUE);
  GRand *rand = g_rand_new_with_seed (23);
  guint q, x, y;

  /* some noise, some two-colour blocks, some solid blocks, some alpha */
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      guint8 *p = pic + ((gsize) y * w + x) * 4;
      guint bx = x / 4, by = y / 4;

      if (by % 4 == 1 && bx % 3 == 0)
        GST_WRITE_UINT32_BE (p, g_rand_int (rand) | 0xff);
      else if (by % 4 == 2 && bx % 2 == 0)
        GST_WRITE_UINT32_BE (p, (x + y) % 3 ? 0x204060ff : 0xe0c0a0ff);
      else if (by % 4 == 3 && bx % 4 == 0)
        GST_WRITE_UINT32_BE (p, 0x00ff00ff + bx * 0x01000000);
      else if (by % 4 == 3 && bx % 4 == 1)
        p[3] = (x * 37 + y * 11) & 0xff;
    }
  }

  for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
    GstBcInfo info;
    guint8 *enc =
        test_encode (GST_BC_FORMAT_BC7, q, pic, &test_rgba_layout, w, h, &info);
    guint used = 0, bxi, byi;

    for (byi = 0; byi < info.blocks_y; byi++) {
      for (bxi = 0; bxi < info.blocks_x; bxi++) {
        const guint8 *blk = enc + (byi * info.blocks_x + bxi) * 16;
        gint m = bc7_mode (blk);
        gboolean solid = TRUE;
        guint i;

        fail_unless (m < 8, "reserved mode at block %u,%u", bxi, byi);
        fail_unless (bc7_allowed[q] & (1 << m), "quality %u: mode %d at "
            "block %u,%u", q, m, bxi, byi);
        for (i = 1; i < 16; i++)
          solid = solid && memcmp (pic + ((gsize) (byi * 4 + i / 4) * w +
                  bxi * 4 + i % 4) * 4, pic + ((gsize) byi * 4 * w +
                  bxi * 4) * 4, 4) == 0;
        fail_unless ((m == 5) == solid, "quality %u block %u,%u: mode %d, "
            "solid %d", q, bxi, byi, m, solid);
        used |= 1 << m;
      }
    }
    GST_INFO ("quality %u: modes used 0x%02x", q, used);
    /* the quality reaches the encoder: its own modes are used */
    fail_unless (used & (1 << 5));
    fail_unless (used & (1 << 6));
    if (q >= GST_BC_QUALITY_NORMAL)
      fail_unless (used & ((1 << 1) | (1 << 3)), "quality %u: no two-subset "
          "mode used (0x%02x)", q, used);
    if (q >= GST_BC_QUALITY_HIGH)
      fail_unless (used & ((1 << 0) | (1 << 2)), "quality %u: no "
          "three-subset mode used (0x%02x)", q, used);
    g_free (enc);
  }
  g_rand_free (rand);
  g_free (pic);
}

GST_END_TEST;

GST_START_TEST (test_bc7_solid_exact)
{
  GRand *rand = g_rand_new_with_seed (29);
  guint n, q;

  for (n = 0; n < 3000; n++) {
    guint8 px[64], blk[16], dec[64];
    guint32 c = g_rand_int (rand);
    gint i;

    if (n < 256)
      c = n * 0x01010100u | 0xff;       /* greys, black and white */
    else if (n < 512)
      c = (n & 0xff) * 0x01010101u;     /* with alpha */
    for (i = 0; i < 16; i++)
      GST_WRITE_UINT32_BE (px + i * 4, c);
    for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
      gst_bc_encode_block (GST_BC_FORMAT_BC7, q, px, blk);
      fail_unless_equals_int (bc7_mode (blk), 5);
      fail_unless (gst_bc_decode_block (GST_BC_FORMAT_BC7, blk, dec));
      for (i = 0; i < 16; i++)
        fail_unless (memcmp (dec + i * 4, px, 4) == 0, "%08x decodes to "
            "%02x%02x%02x%02x", c, dec[i * 4], dec[i * 4 + 1],
            dec[i * 4 + 2], dec[i * 4 + 3]);
    }
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- all three --------------------------------------------------------- */

GST_START_TEST (test_odd_sizes_padding)
{
  const guint sizes[][2] = { {1, 1}, {3, 5}, {30, 26}, {33, 1}, {1, 33},
  {67, 9}
  };
  const GstBcFormat formats[] = {
    GST_BC_FORMAT_BC4, GST_BC_FORMAT_BC5, GST_BC_FORMAT_BC7
  };
  guint s, f;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    guint w = sizes[s][0], h = sizes[s][1];
    guint pw = (w + 3) & ~3u, ph = (h + 3) & ~3u;
    guint8 *pic = test_picture (w, h, 100 + s, 4, TEST_ALPHA_WAVE);
    guint8 *padded = test_pad_to_blocks (pic, w, h);

    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      GstBcInfo info, pinfo;
      guint8 *a = test_encode (formats[f], GST_BC_QUALITY_NORMAL, pic,
          &test_rgba_layout, w, h, &info);
      guint8 *b = test_encode (formats[f], GST_BC_QUALITY_NORMAL, padded,
          &test_rgba_layout, pw, ph, &pinfo);
      guint8 *ga = channel_of (pic, (gsize) w * h, 1);
      guint8 *gb = channel_of (padded, (gsize) pw * ph, 1);
      guint8 *c, *d;

      fail_unless_equals_int (info.size, pinfo.size);
      fail_unless (memcmp (a, b, info.size) == 0, "%ux%u %s", w, h,
          gst_bc_format_to_string (formats[f]));
      /* grey input too */
      c = test_encode (formats[f], GST_BC_QUALITY_NORMAL, ga, &gray8_layout, w,
          h, &info);
      d = test_encode (formats[f], GST_BC_QUALITY_NORMAL, gb, &gray8_layout, pw,
          ph, &pinfo);
      fail_unless (memcmp (c, d, info.size) == 0, "grey %ux%u %s", w, h,
          gst_bc_format_to_string (formats[f]));
      g_free (a);
      g_free (b);
      g_free (c);
      g_free (d);
      g_free (ga);
      g_free (gb);
    }
    g_free (padded);
    g_free (pic);
  }
}

GST_END_TEST;

/* gst_bc_encode_block() agrees with gst_bc_encode_rows(); encoding in
 * pieces of block rows and from every packed layout gives the same bytes */
GST_START_TEST (test_rows_layouts_and_blocks)
{
  const guint w = 38, h = 22;
  const GstBcFormat formats[] = {
    GST_BC_FORMAT_BC4, GST_BC_FORMAT_BC5, GST_BC_FORMAT_BC7
  };
  static const GstVideoFormat vfmts[] = {
    GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_RGB,
    GST_VIDEO_FORMAT_ABGR,
  };
  guint8 *pic = test_picture (w, h, 9, 4, TEST_ALPHA_WAVE);
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstBcInfo info;
    guint8 *ref =
        test_encode (formats[f], GST_BC_QUALITY_NORMAL, pic, &test_rgba_layout,
        w, h, &info);
    test_check_pieces (&info, GST_BC_QUALITY_NORMAL, pic, 2, ref);

    for (i = 0; i < G_N_ELEMENTS (vfmts); i++) {
      GstBcPixelLayout lo;
      guint8 *out;

      fail_unless (gst_bc_encode_layout_from_video_format (&lo, vfmts[i]));
      out = test_encode_layout (&info, GST_BC_QUALITY_NORMAL, pic, &lo, 7);
      /* BC7 of a layout without alpha is opaque: not the same blocks */
      if (formats[f] != GST_BC_FORMAT_BC7 || lo.a >= 0)
        fail_unless (memcmp (ref, out, info.size) == 0, "%s from %s",
            gst_bc_format_to_string (formats[f]),
            gst_video_format_to_string (vfmts[i]));
      g_free (out);
    }

    test_check_blocks (&info, GST_BC_QUALITY_NORMAL, pic, ref);
    g_free (ref);
  }
  g_free (pic);
}

GST_END_TEST;

/* The portable C, SSE2, AVX2 and AVX-512 builds (those this CPU runs) write
 * identical blocks */
GST_START_TEST (test_simd_identical)
{
  const guint w = 203, h = 45;
  const gsize n = (gsize) w * h;
  const GstBcFormat formats[] = {
    GST_BC_FORMAT_BC4, GST_BC_FORMAT_BC5, GST_BC_FORMAT_BC7
  };
  guint8 *pic = test_picture (w, h, 5, 4, TEST_ALPHA_WAVE);
  guint8 *gray;
  GRand *rand = g_rand_new_with_seed (11);
  guint f, q, i;

  for (i = 0; i < w * 8 * 4; i++)
    pic[i] = g_rand_int (rand);
  gray = channel_of (pic, n, 1);

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
      test_check_simd_identical (formats[f], q, pic, &test_rgba_layout, w, h,
          "RGBA");
      test_check_simd_identical (formats[f], q, gray, &gray8_layout, w, h,
          "grey");
    }
  }
  g_rand_free (rand);
  g_free (gray);
  g_free (pic);
}

GST_END_TEST;

GST_START_TEST (test_layouts)
{
  /* grey: every channel at offset 0 (GRAY16_LE: one 16-bit value) */
  static const TestLayout layouts[] = {
    {GST_VIDEO_FORMAT_GRAY8, {1, 0, 0, 0, -1, -1}},
    {GST_VIDEO_FORMAT_GRAY16_LE, {2, 0, 0, 0, -1, -1}},
    {GST_VIDEO_FORMAT_BGRx, {4, 2, 1, 0, -1, 3}},
  };
  GstBcPixelLayout lo;

  test_check_layouts (gst_bc_encode_layout_from_video_format, layouts,
      G_N_ELEMENTS (layouts));
  fail_if (gst_bc_encode_layout_from_video_format (&lo,
          GST_VIDEO_FORMAT_GRAY16_BE));
  fail_if (gst_bc_encode_layout_from_video_format (&lo, GST_VIDEO_FORMAT_I420));
  fail_unless (gst_bc_encode_format_supported (GST_BC_FORMAT_BC4));
  fail_unless (gst_bc_encode_format_supported (GST_BC_FORMAT_BC5));
  fail_unless (gst_bc_encode_format_supported (GST_BC_FORMAT_BC7));
}

GST_END_TEST;

static Suite *
bcencode457_suite (void)
{
  Suite *s = suite_create ("bcencode457");
  TCase *tc = test_suite_add_general (s, 600);

  tcase_add_test (tc, test_bc4_round_trip);
  tcase_add_test (tc, test_bc45_input_channels);
  tcase_add_test (tc, test_bc5_pixel_layouts);
  tcase_add_test (tc, test_bc5_round_trip);
  tcase_add_test (tc, test_bc45_solid_exact);
  tcase_add_test (tc, test_bc4_mode_selection);
  tcase_add_test (tc, test_bc7_round_trip);
  tcase_add_test (tc, test_bc7_modes);
  tcase_add_test (tc, test_bc7_solid_exact);
  tcase_add_test (tc, test_odd_sizes_padding);
  tcase_add_test (tc, test_rows_layouts_and_blocks);
  tcase_add_test (tc, test_simd_identical);
  tcase_add_test (tc, test_layouts);
  return s;
}

GST_CHECK_MAIN (bcencode457);
