/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* YUV input (gst/bc/bcyuv.h): the conversion against a double-precision
 * reference for every format, matrix, range and chroma siting, to 8-bit
 * and 16-bit RGB; the encoded blocks (BC1..BC7, and BC6H at 16 bits)
 * against those of the converted RGB picture; odd sizes and
 * v210 strides on planes allocated to their last byte (run under ASan, a
 * read past a plane fails). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbctest.h"
#include "yuvtest.h"

static const GstVideoColorMatrix test_matrices[] = {
  GST_VIDEO_COLOR_MATRIX_BT601, GST_VIDEO_COLOR_MATRIX_BT709,
  GST_VIDEO_COLOR_MATRIX_BT2020,
};

/* centred; horizontally cosited (MPEG-2); cosited both ways (DV) */
static const GstVideoChromaSite test_sites[] = {
  GST_VIDEO_CHROMA_SITE_JPEG, GST_VIDEO_CHROMA_SITE_MPEG2,
  GST_VIDEO_CHROMA_SITE_DV,
};

static const guint test_sizes[][2] = {
  {1, 1}, {2, 2}, {3, 5}, {17, 9}, {130, 66}, {301, 7}, {520, 3},
};

static void
fill_info (GstBcYuvInfo * yuv, GstVideoFormat f, guint w, guint h,
    GstVideoColorMatrix m, gboolean full, GstVideoChromaSite site)
{
  fail_unless (gst_bc_yuv_info_set (yuv, f, w, h, m, full ?
          GST_VIDEO_COLOR_RANGE_0_255 : GST_VIDEO_COLOR_RANGE_16_235, site));
}

/* The whole picture through gst_bc_yuv_convert_row (), in strips of
 * varying widths: 4 bytes a pixel, 8 at a depth of 16 */
static guint8 *
convert_picture (const GstBcYuvInfo * yuv, const TestYuvFrame * fr)
{
  const gsize bpp = yuv->depth == 16 ? 8 : 4;
  guint8 *out = g_malloc ((gsize) yuv->width * yuv->height * bpp);
  guint y, x, n;

  for (y = 0; y < yuv->height; y++) {
    for (x = 0, n = 1 + y % 300; x < yuv->width; x += n, n = n * 3 % 301 + 1)
      gst_bc_yuv_convert_row (yuv, (const guint8 * const *) fr->planes,
          fr->strides, y, x, MIN (n, yuv->width - x),
          out + ((gsize) y * yuv->width + x) * bpp);
  }
  return out;
}

/* sample @c of pixel @i of a picture of convert_picture () */
static gint
sample_of (const guint8 * pic, guint depth, gsize i, guint c)
{
  if (depth == 16)
    return GST_READ_UINT16_LE (pic + i * 8 + c * 2);
  return pic[i * 4 + c];
}

/* Every output sample within one code of the exact value rounded (at a
 * depth of 16, of 257 times the 8-bit value, within two: see
 * test_conversion_precision), alpha opaque; returns the largest error */
static gint
check_against_reference (GstVideoFormat f, guint w, guint h,
    GstVideoColorMatrix m, gboolean full, GstVideoChromaSite site,
    guint depth, guint32 seed)
{
  TestYuv *t = test_yuv_new (f, w, h, NULL, seed);
  const gdouble scale = depth == 16 ? 257.0 : 1.0;
  const gint omax = depth == 16 ? 65535 : 255;
  TestYuvFrame fr;
  GstBcYuvInfo yuv;
  guint8 *out;
  gint worst = 0;
  guint x, y, c;

  fill_info (&yuv, f, w, h, m, full, site);
  fail_unless (gst_bc_yuv_info_set_depth (&yuv, depth));
  test_yuv_frame_init (&fr, t, seed % 3 * 7, FALSE);
  out = convert_picture (&yuv, &fr);
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      gsize i = (gsize) y * w + x;
      gdouble rgb[3];

      test_yuv_reference_pixel (t, m, full,
          (site & GST_VIDEO_CHROMA_SITE_H_COSITED) != 0,
          (site & GST_VIDEO_CHROMA_SITE_V_COSITED) != 0, x, y, rgb);
      for (c = 0; c < 3; c++) {
        gint ref = CLAMP (lround (rgb[c] * scale), 0, omax);
        gint v = sample_of (out, depth, i, c), d = ABS (v - ref);

        if (d > worst)
          worst = d;
        fail_unless (d <= (depth == 16 ? 2 : 1), "%s %ux%u depth %u matrix %d full %d site %d: "
            "pixel %" G_GSIZE_FORMAT " channel %u is %d, reference %d",
            gst_video_format_to_string (f), w, h, depth, m, full, site, i, c,
            v, ref);
      }
      fail_unless_equals_int (sample_of (out, depth, i, 3), omax);
    }
  }
  g_free (out);
  test_yuv_frame_clear (&fr);
  test_yuv_free (t);
  return worst;
}

/* 8-bit output (the GstBcEnc encoders) and 16-bit (bc6henc) */
GST_START_TEST (test_conversion_reference)
{
  guint f, m, full, s, z, d, exact = 0, total = 0;

  for (d = 8; d <= 16; d += 8)
    for (f = 0; f < G_N_ELEMENTS (test_yuv_formats); f++)
      for (m = 0; m < G_N_ELEMENTS (test_matrices); m++)
        for (full = 0; full < 2; full++)
          for (s = 0; s < G_N_ELEMENTS (test_sites); s++)
            for (z = 0; z < G_N_ELEMENTS (test_sizes); z++) {
              gint worst = check_against_reference (test_yuv_formats[f],
                  test_sizes[z][0], test_sizes[z][1], test_matrices[m], full,
                  test_sites[s], d, f * 1000 + m * 100 + full * 10 + s + z);

              exact += worst == 0;
              total++;
            }
  GST_INFO ("%u of %u conversions exact to the code", exact, total);
}

GST_END_TEST;

/* The exact value is never more than 0.5 + 1/64 code away: the fixed
 * point error is far below a code (checked over every luma code of the
 * depth with a few chroma values, BT.2020 limited, where the coefficients
 * are largest). The 10-bit formats are checked at every 10-bit code: a
 * conversion that dropped their two low bits before the matrix would be up
 * to 0.87 code further away (3 / 876 of 255), so this fails for it. */
static gdouble
conversion_precision (GstVideoFormat f, guint depth_out)
{
  const guint depth = test_yuv_depth (f), w = 1u << depth, h = 9;
  const guint cmax = w - 1;
  const gdouble scale = depth_out == 16 ? 257.0 : 1.0;
  TestYuv *t = test_yuv_new (f, w, h, NULL, 1);
  TestYuvFrame fr;
  GstBcYuvInfo yuv;
  guint8 *out;
  guint x, y, c;
  gdouble worst = 0;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      t->y[y * w + x] = x;
  /* 8-bit: the values this test always had; 10-bit: ones off the multiples
   * of 4 too */
  for (y = 0; y < t->ch; y++) {
    for (x = 0; x < t->cw; x++) {
      t->u[y * t->cw + x] = depth == 8 ? (y * 31 + 7) % 256 :
          (y * 127 + 29 + x % 3) & cmax;
      t->v[y * t->cw + x] = depth == 8 ? (y * 97 + 3) % 256 :
          (y * 389 + 11 + x % 5) & cmax;
    }
  }
  fill_info (&yuv, f, w, h, GST_VIDEO_COLOR_MATRIX_BT2020, FALSE,
      GST_VIDEO_CHROMA_SITE_JPEG);
  fail_unless (gst_bc_yuv_info_set_depth (&yuv, depth_out));
  test_yuv_frame_init (&fr, t, 0, FALSE);
  out = convert_picture (&yuv, &fr);
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      gdouble rgb[3];

      test_yuv_reference_pixel (t, GST_VIDEO_COLOR_MATRIX_BT2020, FALSE,
          FALSE, FALSE, x, y, rgb);
      for (c = 0; c < 3; c++) {
        gdouble e = rgb[c] * scale;

        if (e < 0 || e > 255 * scale)
          continue;
        e = fabs (sample_of (out, depth_out, (gsize) y * w + x, c) - e);
        worst = MAX (worst, e);
      }
    }
  }
  g_free (out);
  test_yuv_frame_clear (&fr);
  test_yuv_free (t);
  return worst;
}

/* at 16 bits too: the coefficients' fixed point (2^-13 of a 16-bit code;
 * each coefficient's rounding costs up to 0.5 / 2^13 code per sixteenth of
 * a chroma code, and 10-bit chroma reaches 8192 sixteenths from its
 * offset) keeps the result within 1.25 codes of the exact value: 2^-16 of
 * full scale, 1/50 of a 10-bit input's step */
GST_START_TEST (test_conversion_precision)
{
  static const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_v210,
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    gdouble worst = conversion_precision (formats[i], 8);
    gdouble worst16 = conversion_precision (formats[i], 16);

    GST_INFO ("%s: largest distance to the exact value: %.4f, at 16 bits "
        "%.4f", gst_video_format_to_string (formats[i]), worst, worst16);
    fail_unless (worst <= 0.5 + 1.0 / 64, "%s: %.4f",
        gst_video_format_to_string (formats[i]), worst);
    fail_unless (worst16 <= 1.25, "%s at 16 bits: %.4f",
        gst_video_format_to_string (formats[i]), worst16);
  }
}

GST_END_TEST;

static const GstBcFormat all_formats[] = {
  GST_BC_FORMAT_BC1, GST_BC_FORMAT_YCOCG_BC3, GST_BC_FORMAT_BC3,
  GST_BC_FORMAT_BC4, GST_BC_FORMAT_BC5, GST_BC_FORMAT_BC7,
};

/* gst_bc_encode_rows_yuv () writes the blocks gst_bc_encode_rows () does
 * for the converted picture, for every BC format, odd sizes and sizes
 * across the 256-pixel strips, in one call and in pieces */
GST_START_TEST (test_encode_equals_rgb)
{
  static const GstBcPixelLayout rgbx = { 4, 0, 1, 2, -1, 3 };
  static const guint sizes[][2] = {
    {1, 1}, {3, 5}, {17, 9}, {130, 66}, {300, 10}, {517, 7},
  };
  guint f, b, z, q;

  for (f = 0; f < G_N_ELEMENTS (test_yuv_formats); f++) {
    for (z = 0; z < G_N_ELEMENTS (sizes); z++) {
      guint w = sizes[z][0], h = sizes[z][1];
      guint8 *pic = test_picture (w, h, 7 + z, 8, TEST_ALPHA_OPAQUE);
      TestYuv *t = test_yuv_new (test_yuv_formats[f], w, h, pic, 0);
      TestYuvFrame fr;
      GstBcYuvInfo yuv;
      guint8 *rgb;

      fill_info (&yuv, test_yuv_formats[f], w, h,
          GST_VIDEO_COLOR_MATRIX_BT709, FALSE, GST_VIDEO_CHROMA_SITE_MPEG2);
      test_yuv_frame_init (&fr, t, 3, FALSE);
      rgb = convert_picture (&yuv, &fr);
      for (b = 0; b < G_N_ELEMENTS (all_formats); b++) {
        for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_NORMAL; q++) {
          GstBcInfo info;
          guint8 *a, *c;
          guint by;

          gst_bc_info_init (&info);
          fail_unless (gst_bc_info_set_format (&info, all_formats[b], w, h));
          a = g_malloc0 (info.size);
          c = g_malloc0 (info.size);
          gst_bc_encode_rows (all_formats[b], q, rgb, (gsize) w * 4, w, h,
              &rgbx, 0, info.blocks_y, a);
          /* block row by block row, last first */
          for (by = info.blocks_y; by-- > 0;)
            gst_bc_encode_rows_yuv (all_formats[b], q, &yuv,
                (const guint8 * const *) fr.planes, fr.strides, by, 1, c);
          fail_unless (memcmp (a, c, info.size) == 0, "%s %ux%u into %s "
              "quality %u differs from the converted picture's blocks",
              gst_video_format_to_string (test_yuv_formats[f]), w, h,
              gst_bc_format_to_string (all_formats[b]), q);
          g_free (a);
          g_free (c);
        }
      }
      g_free (rgb);
      test_yuv_frame_clear (&fr);
      test_yuv_free (t);
      g_free (pic);
    }
  }
}

GST_END_TEST;

/* Every instruction set converts to the same bytes, at both depths */
GST_START_TEST (test_simd_identical)
{
  GstBcSimd best = gst_bc_encode_get_simd ();
  guint f, d;

  for (d = 8; d <= 16; d += 8) {
    for (f = 0; f < G_N_ELEMENTS (test_yuv_formats); f++) {
      TestYuv *t = test_yuv_new (test_yuv_formats[f], 301, 9, NULL, f);
      TestYuvFrame fr;
      GstBcYuvInfo yuv;
      guint8 *ref;
      gint level;

      fill_info (&yuv, test_yuv_formats[f], 301, 9,
          GST_VIDEO_COLOR_MATRIX_BT2020, TRUE, GST_VIDEO_CHROMA_SITE_JPEG);
      fail_unless (gst_bc_yuv_info_set_depth (&yuv, d));
      test_yuv_frame_init (&fr, t, 0, FALSE);
      gst_bc_encode_set_simd (GST_BC_SIMD_NONE);
      ref = convert_picture (&yuv, &fr);
      for (level = GST_BC_SIMD_SSE2; level <= (gint) best; level++) {
        guint8 *out;

        gst_bc_encode_set_simd (level);
        out = convert_picture (&yuv, &fr);
        fail_unless (memcmp (ref, out, 301 * 9 * d / 2) == 0, "%s depth %u: "
            "level %d differs from portable C", gst_video_format_to_string
            (test_yuv_formats[f]), d, level);
        g_free (out);
      }
      gst_bc_encode_set_simd (GST_BC_SIMD_AVX512);
      g_free (ref);
      test_yuv_frame_clear (&fr);
      test_yuv_free (t);
    }
  }
}

GST_END_TEST;

/* gst_bc_encode_rows_hdr_yuv () writes the blocks gst_bc_encode_rows_hdr ()
 * does for the RGBA64_LE picture of gst_bc_yuv_convert_row () at 16 bits:
 * every format (the 10-bit ones are bc6henc's), odd sizes and sizes across
 * the strips of fast (64 pixels) and normal (1024), PQ and HLG, both
 * signs, block row by block row */
GST_START_TEST (test_encode_hdr_equals_rgb)
{
  static const guint sizes[][2] = {
    {1, 1}, {3, 5}, {67, 9}, {1030, 6},
  };
  static const GstVideoTransferFunction transfers[] = {
    GST_VIDEO_TRANSFER_SMPTE2084, GST_VIDEO_TRANSFER_ARIB_STD_B67,
  };
  guint f, z, q, tr, sgn;

  for (f = 0; f < G_N_ELEMENTS (test_yuv_formats); f++) {
    for (z = 0; z < G_N_ELEMENTS (sizes); z++) {
      guint w = sizes[z][0], h = sizes[z][1];
      guint8 *pic = test_picture (w, h, 11 + z, 8, TEST_ALPHA_OPAQUE);
      TestYuv *t = test_yuv_new (test_yuv_formats[f], w, h, pic, 0);
      TestYuvFrame fr;
      GstBcYuvInfo yuv;
      guint8 *rgb;

      fill_info (&yuv, test_yuv_formats[f], w, h,
          GST_VIDEO_COLOR_MATRIX_BT2020, FALSE, GST_VIDEO_CHROMA_SITE_MPEG2);
      fail_unless (gst_bc_yuv_info_set_depth (&yuv, 16));
      test_yuv_frame_init (&fr, t, 5, FALSE);
      rgb = convert_picture (&yuv, &fr);
      for (tr = 0; tr < G_N_ELEMENTS (transfers); tr++) {
        GstVideoColorimetry cm = { GST_VIDEO_COLOR_RANGE_0_255,
          GST_VIDEO_COLOR_MATRIX_RGB, transfers[tr],
          GST_VIDEO_COLOR_PRIMARIES_BT2020
        };
        GstBcHdrInput *input =
            gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE, &cm);

        fail_unless (input != NULL);
        for (sgn = 0; sgn < 2; sgn++) {
          GstBcFormat bf = sgn ? GST_BC_FORMAT_BC6H_SF : GST_BC_FORMAT_BC6H;

          for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
            GstBcInfo info;
            guint8 *a, *c;
            guint by;

            /* high is slow: the small pictures */
            if (q == GST_BC_QUALITY_HIGH && w * h > 1000)
              continue;
            gst_bc_info_init (&info);
            fail_unless (gst_bc_info_set_format (&info, bf, w, h));
            a = g_malloc0 (info.size);
            c = g_malloc0 (info.size);
            gst_bc_encode_rows_hdr (input, bf, q, rgb, (gsize) w * 8, w, h,
                0, info.blocks_y, a);
            /* block row by block row, last first */
            for (by = info.blocks_y; by-- > 0;)
              gst_bc_encode_rows_hdr_yuv (input, bf, q, &yuv,
                  (const guint8 * const *) fr.planes, fr.strides, by, 1, c);
            fail_unless (memcmp (a, c, info.size) == 0, "%s %ux%u into %s "
                "quality %u transfer %d differs from the converted "
                "picture's blocks", gst_video_format_to_string
                (test_yuv_formats[f]), w, h, gst_bc_format_to_string (bf), q,
                transfers[tr]);
            g_free (a);
            g_free (c);
          }
        }
        gst_bc_hdr_input_free (input);
      }
      g_free (rgb);
      test_yuv_frame_clear (&fr);
      test_yuv_free (t);
      g_free (pic);
    }
  }
}

GST_END_TEST;

/* v210 at every width 1 .. 49, rows at GStreamer's 128-byte stride and
 * at the tightest one (16 bytes per 6 pixels) */
GST_START_TEST (test_v210_widths)
{
  GstVideoColorimetry pq = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_RGB, GST_VIDEO_TRANSFER_SMPTE2084,
    GST_VIDEO_COLOR_PRIMARIES_BT2020
  };
  GstBcHdrInput *input = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE,
      &pq);
  guint w, align;

  for (w = 1; w <= 49; w++) {
    for (align = 0; align < 2; align++) {
      TestYuv *t = test_yuv_new (GST_VIDEO_FORMAT_v210, w, 3, NULL, w);
      TestYuvFrame fr;
      GstBcYuvInfo yuv;
      GstBcInfo info;
      guint8 *ref, *out, *enc;
      gsize i;

      fill_info (&yuv, GST_VIDEO_FORMAT_v210, w, 3,
          GST_VIDEO_COLOR_MATRIX_BT709, FALSE, GST_VIDEO_CHROMA_SITE_MPEG2);
      fail_unless_equals_int (gst_bc_yuv_info_row_bytes (&yuv, 0),
          (w + 5) / 6 * 16);
      test_yuv_frame_init (&fr, t, 0, align);
      ref = test_yuv_reference (t, GST_VIDEO_COLOR_MATRIX_BT709, FALSE, TRUE,
          FALSE);
      out = convert_picture (&yuv, &fr);
      for (i = 0; i < (gsize) w * 3 * 4; i++)
        fail_unless (ABS (out[i] - ref[i]) <= 1, "v210 width %u align %u: "
            "byte %" G_GSIZE_FORMAT " is %d, reference %d", w, align, i,
            out[i], ref[i]);
      gst_bc_info_init (&info);
      fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1, w, 3));
      enc = g_malloc (info.size);
      gst_bc_encode_rows_yuv (GST_BC_FORMAT_BC1, GST_BC_QUALITY_FAST, &yuv,
          (const guint8 * const *) fr.planes, fr.strides, 0, 1, enc);
      g_free (enc);
      /* and into BC6H, at 16 bits */
      fail_unless (gst_bc_yuv_info_set_depth (&yuv, 16));
      fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC6H, w, 3));
      enc = g_malloc (info.size);
      gst_bc_encode_rows_hdr_yuv (input, GST_BC_FORMAT_BC6H,
          GST_BC_QUALITY_NORMAL, &yuv, (const guint8 * const *) fr.planes,
          fr.strides, 0, 1, enc);
      g_free (enc);
      g_free (ref);
      g_free (out);
      test_yuv_frame_clear (&fr);
      test_yuv_free (t);
    }
  }
  gst_bc_hdr_input_free (input);
  /* a depth of neither 8 nor 16 is refused */
  {
    GstBcYuvInfo yuv;

    fill_info (&yuv, GST_VIDEO_FORMAT_v210, 6, 1,
        GST_VIDEO_COLOR_MATRIX_BT2020, FALSE, 0);
    fail_if (gst_bc_yuv_info_set_depth (&yuv, 10));
    fail_unless_equals_int (yuv.depth, 8);
  }
}

GST_END_TEST;

/* Row sizes and plane counts of every format, at odd widths */
GST_START_TEST (test_plane_geometry)
{
  GstBcYuvInfo yuv;
  guint f;

  for (f = 0; f < G_N_ELEMENTS (test_yuv_formats); f++) {
    TestYuv *t = test_yuv_new (test_yuv_formats[f], 7, 5, NULL, 1);
    guint p;

    fill_info (&yuv, test_yuv_formats[f], 7, 5, GST_VIDEO_COLOR_MATRIX_BT601,
        FALSE, 0);
    fail_unless_equals_int (gst_bc_yuv_info_n_planes (&yuv),
        test_yuv_n_planes (t));
    for (p = 0; p < 3; p++) {
      gsize expect = p < test_yuv_n_planes (t) ? test_yuv_row_bytes (t, p) : 0;

      fail_unless_equals_int (gst_bc_yuv_info_row_bytes (&yuv, p), expect);
      fail_unless_equals_int (gst_bc_yuv_info_plane_rows (&yuv, p),
          p < test_yuv_n_planes (t) ? test_yuv_plane_rows (t, p) : 0);
    }
    test_yuv_free (t);
  }
}

GST_END_TEST;

static gboolean
info_from_caps (GstBcYuvInfo * yuv, const gchar * str)
{
  GstCaps *caps = gst_caps_from_string (str);
  GstVideoInfo vinfo;
  gboolean ok;

  fail_unless (gst_video_info_from_caps (&vinfo, caps), "%s", str);
  ok = gst_bc_yuv_info_from_video_info (yuv, &vinfo);
  gst_caps_unref (caps);
  return ok;
}

/* Colorimetry from the caps; unknown parts take GStreamer's defaults;
 * interlaced 4:2:0 and the RGB matrix are refused */
GST_START_TEST (test_info_from_caps)
{
  GstBcYuvInfo yuv;

  fail_unless (info_from_caps (&yuv, "video/x-raw, format=NV12, width=64, "
          "height=48"));
  fail_unless_equals_int (yuv.matrix, GST_VIDEO_COLOR_MATRIX_BT601);
  fail_unless_equals_int (yuv.range, GST_VIDEO_COLOR_RANGE_16_235);
  fail_if (yuv.h_cosited || yuv.v_cosited);
  fail_unless (info_from_caps (&yuv, "video/x-raw, format=NV12, width=1920, "
          "height=1080"));
  fail_unless_equals_int (yuv.matrix, GST_VIDEO_COLOR_MATRIX_BT709);
  fail_unless (yuv.h_cosited && !yuv.v_cosited);
  fail_unless (info_from_caps (&yuv, "video/x-raw, format=P010_10LE, "
          "width=64, height=48, colorimetry=bt2020, chroma-site=dv"));
  fail_unless_equals_int (yuv.matrix, GST_VIDEO_COLOR_MATRIX_BT2020);
  fail_unless (yuv.h_cosited && yuv.v_cosited);
  fail_unless (info_from_caps (&yuv, "video/x-raw, format=UYVY, width=64, "
          "height=48, colorimetry=(string)1:3:5:1"));
  fail_unless_equals_int (yuv.matrix, GST_VIDEO_COLOR_MATRIX_BT709);
  fail_unless_equals_int (yuv.range, GST_VIDEO_COLOR_RANGE_0_255);
  /* unknown matrix and range: the defaults for the size */
  fail_unless (info_from_caps (&yuv, "video/x-raw, format=I420, width=64, "
          "height=48, colorimetry=(string)0:0:0:0"));
  fail_unless_equals_int (yuv.matrix, GST_VIDEO_COLOR_MATRIX_BT601);
  fail_unless_equals_int (yuv.range, GST_VIDEO_COLOR_RANGE_16_235);

  fail_if (info_from_caps (&yuv, "video/x-raw, format=NV12, width=64, "
          "height=48, interlace-mode=interleaved"));
  fail_unless (info_from_caps (&yuv, "video/x-raw, format=YUY2, width=64, "
          "height=48, interlace-mode=interleaved"));
  {
    GstVideoInfo vinfo;

    gst_video_info_set_interlaced_format (&vinfo, GST_VIDEO_FORMAT_UYVY,
        GST_VIDEO_INTERLACE_MODE_ALTERNATE, 64, 48);
    fail_if (gst_bc_yuv_info_from_video_info (&yuv, &vinfo));
  }
  /* (GstVideoInfo already replaces an RGB matrix on YUV caps by the
   * default) */
  fail_if (gst_bc_yuv_info_set (&yuv, GST_VIDEO_FORMAT_YUY2, 64, 48,
          GST_VIDEO_COLOR_MATRIX_RGB, GST_VIDEO_COLOR_RANGE_0_255, 0));
  fail_if (gst_bc_yuv_info_set (&yuv, GST_VIDEO_FORMAT_YUY2, 64, 48,
          GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_COLOR_RANGE_UNKNOWN, 0));
  fail_if (gst_bc_yuv_info_set (&yuv, GST_VIDEO_FORMAT_YUY2, 0, 48,
          GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_COLOR_RANGE_0_255, 0));
  fail_if (info_from_caps (&yuv, "video/x-raw, format=RGBA, width=64, "
          "height=48"));
  fail_unless (gst_bc_yuv_format_supported (GST_VIDEO_FORMAT_v210));
  fail_if (gst_bc_yuv_format_supported (GST_VIDEO_FORMAT_NV21));
}

GST_END_TEST;

static Suite *
bcyuv_suite (void)
{
  Suite *s = suite_create ("bcyuv");
  TCase *tc = test_suite_add_general (s, 300);

  tcase_add_test (tc, test_conversion_reference);
  tcase_add_test (tc, test_conversion_precision);
  tcase_add_test (tc, test_encode_equals_rgb);
  tcase_add_test (tc, test_simd_identical);
  tcase_add_test (tc, test_encode_hdr_equals_rgb);
  tcase_add_test (tc, test_v210_widths);
  tcase_add_test (tc, test_plane_geometry);
  tcase_add_test (tc, test_info_from_caps);
  return s;
}

GST_CHECK_MAIN (bcyuv);
