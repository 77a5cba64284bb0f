/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The HDR output of BC6H (bchdr.c): half floats, the PQ codes, the SDR tone
 * curve and tone map, the output colorimetry. The references are written
 * here again from the standards (SMPTE ST 2084, IEC 61966-2-1) and the
 * documented curve, in double precision; the literal values were worked out
 * by hand (the PQ code of 203 cd/m2 is BT.2408's "58 %"). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/bc/bc.h>

#include <math.h>

/* the half float of @bits, by its definition */
static gdouble
ref_half (guint bits)
{
  gint e = (bits >> 10) & 31;
  gdouble m = bits & 1023, v;

  if (e == 0)
    v = m / 1024.0 * pow (2.0, -14);
  else if (e == 31)
    v = m ? NAN : INFINITY;
  else
    v = (1.0 + m / 1024.0) * pow (2.0, e - 15);
  return (bits & 0x8000) ? -v : v;
}

/* the PQ signal (0..1) of @nits cd/m2 */
static gdouble
ref_pq (gdouble nits)
{
  const gdouble m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375,
      c2 = 18.8515625, c3 = 18.6875;
  gdouble y = nits / 10000.0, p;

  if (!(y > 0.0))
    return 0.0;
  if (y > 1.0)
    y = 1.0;
  p = pow (y, m1);
  return pow ((c1 + c2 * p) / (1.0 + c3 * p), m2);
}

static gdouble
ref_srgb (gdouble v)
{
  return v <= 0.0031308 ? 12.92 * v : 1.055 * pow (v, 1.0 / 2.4) - 0.055;
}

static gdouble
ref_curve (gdouble x)
{
  gdouble t;

  if (x <= 0.8)
    return x;
  t = (x - 0.8) / 0.2;
  return 0.8 + 0.2 * t / (1.0 + t);
}

GST_START_TEST (test_half_to_double)
{
  guint i;

  fail_unless (gst_bc_hdr_half_to_double (0x3c00) == 1.0);
  fail_unless (gst_bc_hdr_half_to_double (0xc000) == -2.0);
  fail_unless (gst_bc_hdr_half_to_double (0x7bff) == 65504.0);
  fail_unless (gst_bc_hdr_half_to_double (0x0001) == pow (2.0, -24));
  fail_unless (gst_bc_hdr_half_to_double (0x0400) == pow (2.0, -14));
  fail_unless (isinf (gst_bc_hdr_half_to_double (0x7c00)));
  fail_unless (isnan (gst_bc_hdr_half_to_double (0x7e00)));
  for (i = 0; i < 65536; i++) {
    gdouble a = gst_bc_hdr_half_to_double (i), b = ref_half (i);

    fail_unless (a == b || (isnan (a) && isnan (b)), "half 0x%04x", i);
  }
}

GST_END_TEST;

GST_START_TEST (test_pq)
{
  guint i, prev = 0;

  /* reference white, 203 cd/m2: PQ 0.58069, code 38055 */
  fail_unless_equals_int (gst_bc_hdr_pq_from_half (0x3c00), 38055);
  /* 0.5 (101.5 cd/m2): 0.50957 -> 33395 */
  fail_unless_equals_int (gst_bc_hdr_pq_from_half (0x3800), 33395);
  fail_unless_equals_int (gst_bc_hdr_pq_from_half (0x0000), 0);
  fail_unless_equals_int (gst_bc_hdr_pq_from_half (0x8000), 0);
  fail_unless_equals_int (gst_bc_hdr_pq_from_half (0xbc00), 0);
  fail_unless_equals_int (gst_bc_hdr_pq_from_half (0xfc00), 0);
  fail_unless_equals_int (gst_bc_hdr_pq_from_half (0x7e00), 0);
  /* 10000 cd/m2 and beyond, 65504 the largest half */
  fail_unless_equals_int (gst_bc_hdr_pq_from_half (0x7bff), 65535);
  fail_unless_equals_int (gst_bc_hdr_pq_from_half (0x7c00), 65535);

  /* every positive half: the formula, rounded, and monotonic */
  for (i = 0; i < 0x7c00; i++) {
    gdouble e = ref_pq (ref_half (i) * 203.0);
    guint code = gst_bc_hdr_pq_from_half (i);

    fail_unless_equals_int (code, (guint) floor (65535.0 * e + 0.5));
    fail_unless (code >= prev);
    prev = code;
  }
  /* 49.25 is 9997.75 cd/m2, the next half 49.28 past 10000 */
  fail_unless (gst_bc_hdr_pq_from_half (0x5228) < 65535);
  fail_unless_equals_int (gst_bc_hdr_pq_from_half (0x5229), 65535);
}

GST_END_TEST;

GST_START_TEST (test_tone_curve)
{
  const gdouble k = GST_BC_HDR_TONE_KNEE;
  gdouble x;

  fail_unless (gst_bc_hdr_tone_curve (0.0) == 0.0);
  fail_unless (gst_bc_hdr_tone_curve (-3.0) == 0.0);
  fail_unless (gst_bc_hdr_tone_curve (NAN) == 0.0);
  fail_unless (gst_bc_hdr_tone_curve (0.5) == 0.5);
  fail_unless (gst_bc_hdr_tone_curve (k) == k);
  fail_unless (fabs (gst_bc_hdr_tone_curve (1.0) - 0.9) < 1e-12);
  fail_unless (fabs (gst_bc_hdr_tone_curve (2.0) - (0.8 + 0.2 * 6.0 / 7.0))
      < 1e-12);
  fail_unless (gst_bc_hdr_tone_curve (INFINITY) == 1.0);
  /* continuous with slope 1 at the knee, increasing, below 1 */
  fail_unless (fabs ((gst_bc_hdr_tone_curve (k + 1e-6) - k) / 1e-6 - 1.0)
      < 1e-4);
  for (x = 0.01; x < 70000.0; x *= 1.1) {
    fail_unless (fabs (gst_bc_hdr_tone_curve (x) - ref_curve (x)) < 1e-12);
    fail_unless (gst_bc_hdr_tone_curve (x * 1.1) > gst_bc_hdr_tone_curve (x));
    fail_unless (gst_bc_hdr_tone_curve (x) < 1.0);
  }
}

GST_END_TEST;

static void
check_tone_map (guint r, guint g, guint b, guint er, guint eg, guint eb)
{
  const guint16 rgb[3] = { r, g, b };
  guint8 out[3];

  gst_bc_hdr_tone_map (rgb, out);
  fail_unless (out[0] == er && out[1] == eg && out[2] == eb,
      "(0x%04x, 0x%04x, 0x%04x) -> (%u, %u, %u), expected (%u, %u, %u)",
      r, g, b, out[0], out[1], out[2], er, eg, eb);
}

GST_START_TEST (test_tone_map_values)
{
  /* reference white: f (1) = 0.9, sRGB 0.9547 -> 243 */
  check_tone_map (0x3c00, 0x3c00, 0x3c00, 243, 243, 243);
  /* under the knee: 0.5 -> 187.52 -> 188, 0.25 -> 137 */
  check_tone_map (0x3800, 0x3400, 0, 188, 137, 0);
  /* 2.0 (406 cd/m2) with 1.0: both scaled by f (2) / 2 = 0.4857:
   * 0.9714 -> 252, 0.4857 -> 185 */
  check_tone_map (0x4000, 0x3c00, 0, 252, 185, 0);
  /* 65504 with 1.0: 65504 -> 255, 1.0 * f (65504) / 65504 -> 0 */
  check_tone_map (0x7bff, 0, 0x3c00, 255, 0, 0);
  /* negative values are 0 */
  check_tone_map (0xbc00, 0x3c00, 0, 0, 243, 0);
  check_tone_map (0xfc00, 0, 0, 0, 0, 0);
  /* +infinity (no BC6H block has it) is white where it is, NaN is 0 */
  check_tone_map (0x7c00, 0x3c00, 0x7e00, 255, 0, 0);
  check_tone_map (0, 0, 0, 0, 0, 0);
  /* the linear sRGB segment: 0.001 -> 12.92 * 0.001 * 255 = 3.29 -> 3 */
  check_tone_map (0x1419, 0, 0, 3, 0, 0);
}

GST_END_TEST;

/* random pixels against the formula in double precision; exact but where
 * the formula lands within 1e-6 of a rounding boundary */
GST_START_TEST (test_tone_map_formula)
{
  guint32 seed = 12345;
  guint n, c, checked = 0;

  for (n = 0; n < 200000; n++) {
    guint16 rgb[3];
    gdouble v[3], m = 0.0;
    guint8 out[3];

    for (c = 0; c < 3; c++) {
      seed = seed * 1664525u + 1013904223u;
      /* positive finite halves, a few negative ones */
      rgb[c] = (seed >> 16) % 0x7c00;
      if ((seed & 0xff) == 0)
        rgb[c] |= 0x8000;
      v[c] = MAX (ref_half (rgb[c]), 0.0);
      m = MAX (m, v[c]);
    }
    gst_bc_hdr_tone_map (rgb, out);
    for (c = 0; c < 3; c++) {
      gdouble x = m > 0.0 ? 255.0 * ref_srgb (v[c] * ref_curve (m) / m) : 0.0;
      gdouble frac = x - floor (x);

      if (fabs (frac - 0.5) < 1e-6)
        continue;
      fail_unless_equals_int (out[c], (guint) floor (x + 0.5));
      checked++;
    }
  }
  fail_unless (checked > 590000);
}

GST_END_TEST;

GST_START_TEST (test_colorimetry)
{
  GstVideoColorimetry cinfo;
  GstCaps *caps;
  gchar *str;

  caps = gst_caps_from_string ("video/x-bc, format=BC6H, width=4, height=4");
  fail_unless_equals_int (gst_bc_hdr_primaries_from_caps (caps),
      GST_VIDEO_COLOR_PRIMARIES_BT2020);
  gst_caps_unref (caps);
  caps = gst_caps_from_string ("video/x-bc, format=BC6H, width=4, height=4, "
      "colorimetry=bt709");
  fail_unless_equals_int (gst_bc_hdr_primaries_from_caps (caps),
      GST_VIDEO_COLOR_PRIMARIES_BT709);
  gst_caps_unref (caps);
  caps = gst_caps_from_string ("video/x-bc, format=BC6H, width=4, height=4, "
      "colorimetry=bt2100-pq");
  fail_unless_equals_int (gst_bc_hdr_primaries_from_caps (caps),
      GST_VIDEO_COLOR_PRIMARIES_BT2020);
  gst_caps_unref (caps);
  /* unknown primaries, or no colorimetry GStreamer can read: BT.2020 */
  caps = gst_caps_from_string ("video/x-bc, format=BC6H, width=4, height=4, "
      "colorimetry=(string)1:1:5:0");
  fail_unless_equals_int (gst_bc_hdr_primaries_from_caps (caps),
      GST_VIDEO_COLOR_PRIMARIES_BT2020);
  gst_caps_unref (caps);
  caps = gst_caps_from_string ("video/x-bc, format=BC6H, width=4, height=4, "
      "colorimetry=nonsense");
  fail_unless_equals_int (gst_bc_hdr_primaries_from_caps (caps),
      GST_VIDEO_COLOR_PRIMARIES_BT2020);
  gst_caps_unref (caps);

  gst_bc_hdr_output_colorimetry (GST_VIDEO_COLOR_PRIMARIES_BT2020, TRUE,
      &cinfo);
  fail_unless_equals_int (cinfo.range, GST_VIDEO_COLOR_RANGE_0_255);
  fail_unless_equals_int (cinfo.matrix, GST_VIDEO_COLOR_MATRIX_RGB);
  fail_unless_equals_int (cinfo.transfer, GST_VIDEO_TRANSFER_SMPTE2084);
  fail_unless_equals_int (cinfo.primaries, GST_VIDEO_COLOR_PRIMARIES_BT2020);
  str = gst_video_colorimetry_to_string (&cinfo);
  GST_INFO ("PQ output colorimetry %s", str);
  g_free (str);

  gst_bc_hdr_output_colorimetry (GST_VIDEO_COLOR_PRIMARIES_BT709, FALSE,
      &cinfo);
  fail_unless_equals_int (cinfo.transfer, GST_VIDEO_TRANSFER_SRGB);
  fail_unless_equals_int (cinfo.primaries, GST_VIDEO_COLOR_PRIMARIES_BT709);
  /* BT.709 primaries, sRGB, full-range RGB: GStreamer's "sRGB" */
  fail_unless (gst_video_colorimetry_matches (&cinfo,
          GST_VIDEO_COLORIMETRY_SRGB));
}

GST_END_TEST;

static Suite *
bchdr_suite (void)
{
  Suite *s = suite_create ("bchdr");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_half_to_double);
  tcase_add_test (tc, test_pq);
  tcase_add_test (tc, test_tone_curve);
  tcase_add_test (tc, test_tone_map_values);
  tcase_add_test (tc, test_tone_map_formula);
  tcase_add_test (tc, test_colorimetry);
  return s;
}

GST_CHECK_MAIN (bchdr);
