/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Element tests of bcdec with BC6H input: the output bytes of known blocks
 * to RGBA64_LE (PQ) and to RGBA (the tone curve), the negotiation
 * (RGBA64_LE preferred, only for BC6H), the colorimetry of the output caps
 * (the input's primaries carried), timestamps, BC6H-SF, and random frames
 * against the library on several threads. The known values are worked out
 * in tests/check/libs/bcdecode6h.c and bchdr.c. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbctest.h"
#include <gst/check/gstharness.h>

#include <string.h>

/* 1.0 (203 cd/m2) in PQ, and tone-mapped to sRGB (bchdr.c's tests) */
#define PQ_WHITE 38055
#define SDR_WHITE 243

static GstHarness *
harness_new (guint threads, const gchar * sink_caps)
{
  GstElement *element = gst_element_factory_make ("bcdec", NULL);
  GstHarness *h;

  fail_unless (element != NULL);
  g_object_set (element, "threads", threads, NULL);
  h = gst_harness_new_with_element (element, "sink", "src");
  gst_object_unref (element);
  if (sink_caps)
    gst_harness_set_sink_caps_str (h, sink_caps);
  return h;
}

static void
set_caps (GstHarness * h, const gchar * format, guint width, guint height,
    const gchar * extra)
{
  gchar *str = g_strdup_printf ("video/x-bc, format=%s, width=%u, "
      "height=%u, framerate=25/1%s%s", format, width, height,
      extra ? ", " : "", extra ? extra : "");

  gst_harness_set_src_caps_str (h, str);
  g_free (str);
}

static void
put_bits (guint8 * block, guint pos, guint value, guint n)
{
  guint i;

  for (i = 0; i < n; i++, pos++) {
    if ((value >> i) & 1)
      block[pos / 8] |= 1u << (pos % 8);
  }
}

/* Mode 11 (bits 00011): one region, explicit 10-bit endpoints; all indices
 * 0, so every pixel is E0: 495 is 1.0, 1023 is 65504 (0x7bff), 0 is 0 */
static void
make_solid (guint8 * block, guint r, guint g, guint b)
{
  memset (block, 0, 16);
  put_bits (block, 0, 3, 5);
  put_bits (block, 5, r, 10);
  put_bits (block, 15, g, 10);
  put_bits (block, 25, b, 10);
}

/* A 8x8 frame (2 x 2 blocks): white (1.0), (0, 0, 65504), a reserved mode
 * (0, 0, 0) and pseudo-random bytes */
static guint8 *
make_known_frame (void)
{
  guint8 *data = g_malloc0 (64);
  guint32 state = 99;
  guint i;

  make_solid (data, 495, 495, 495);
  make_solid (data + 16, 0, 0, 1023);
  memset (data + 32, 0xff, 16);
  data[32] = 0x13;              /* mode 19: reserved */
  for (i = 48; i < 64; i++)
    data[i] = test_lcg_next (&state) & 0xff;
  return data;
}

static guint
get_u16_le (const guint8 * p)
{
  return p[0] | (p[1] << 8);
}

/* the pixel (x, y) of a frame of @bpp bytes a pixel */
static const guint8 *
pixel (const GstMapInfo * map, guint stride, guint bpp, guint x, guint y)
{
  return map->data + y * stride + x * bpp;
}

static GstBuffer *
push_pull (GstHarness * h, const guint8 * data, gsize size, GstClockTime pts)
{
  GstBuffer *in = gst_buffer_new_memdup (data, size);

  GST_BUFFER_PTS (in) = pts;
  GST_BUFFER_DURATION (in) = GST_SECOND / 25;
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  return gst_harness_pull (h);
}

/* the current output caps: @format, 8x8, 25/1, and their colorimetry */
static void
check_caps (GstHarness * h, const gchar * format, guint width, guint height,
    GstVideoTransferFunction transfer, GstVideoColorPrimaries primaries)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GstStructure *s;
  GstVideoColorimetry cinfo;
  gint v, n, d;

  fail_unless (caps != NULL);
  GST_INFO ("output caps %" GST_PTR_FORMAT, caps);
  s = gst_caps_get_structure (caps, 0);
  fail_unless_equals_string (gst_structure_get_string (s, "format"), format);
  fail_unless (gst_structure_get_int (s, "width", &v));
  fail_unless_equals_int (v, width);
  fail_unless (gst_structure_get_int (s, "height", &v));
  fail_unless_equals_int (v, height);
  fail_unless (gst_structure_get_fraction (s, "framerate", &n, &d));
  fail_unless (n == 25 && d == 1);
  fail_unless (gst_video_colorimetry_from_string (&cinfo,
          gst_structure_get_string (s, "colorimetry")));
  fail_unless_equals_int (cinfo.range, GST_VIDEO_COLOR_RANGE_0_255);
  fail_unless_equals_int (cinfo.matrix, GST_VIDEO_COLOR_MATRIX_RGB);
  fail_unless_equals_int (cinfo.transfer, transfer);
  fail_unless_equals_int (cinfo.primaries, primaries);
  gst_caps_unref (caps);
}

static void
check_pq_pixel (const GstMapInfo * map, guint x, guint y, guint r, guint g,
    guint b)
{
  const guint8 *p = pixel (map, 8 * 8, 8, x, y);

  fail_unless (get_u16_le (p) == r && get_u16_le (p + 2) == g &&
      get_u16_le (p + 4) == b && get_u16_le (p + 6) == 0xffff,
      "pixel %u,%u is %u %u %u %u, expected %u %u %u 65535", x, y,
      get_u16_le (p), get_u16_le (p + 2), get_u16_le (p + 4),
      get_u16_le (p + 6), r, g, b);
}

/* By default (downstream takes anything) BC6H decodes to RGBA64_LE: PQ
 * codes, full range, the PQ transfer, BT.2020 primaries */
GST_START_TEST (test_pq_output)
{
  GstHarness *h = harness_new (0, NULL);
  guint8 *data = make_known_frame ();
  guint16 half[64];
  GstBuffer *out;
  GstMapInfo map;
  guint x, y, c;

  set_caps (h, "BC6H", 8, 8, NULL);
  out = push_pull (h, data, 64, 0);
  check_caps (h, "RGBA64_LE", 8, 8, GST_VIDEO_TRANSFER_SMPTE2084,
      GST_VIDEO_COLOR_PRIMARIES_BT2020);
  fail_unless_equals_int (gst_buffer_get_size (out), 8 * 8 * 8);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  for (y = 0; y < 4; y++) {
    for (x = 0; x < 4; x++) {
      check_pq_pixel (&map, x, y, PQ_WHITE, PQ_WHITE, PQ_WHITE);
      check_pq_pixel (&map, x + 4, y, 0, 0, 65535);
      check_pq_pixel (&map, x, y + 4, 0, 0, 0);
    }
  }
  /* the random block: the library's half floats, in PQ */
  fail_unless (gst_bc_decode_block_half (GST_BC_FORMAT_BC6H, data + 48, half));
  for (y = 0; y < 4; y++) {
    for (x = 0; x < 4; x++) {
      const guint8 *p = pixel (&map, 64, 8, x + 4, y + 4);

      for (c = 0; c < 3; c++)
        fail_unless_equals_int (get_u16_le (p + 2 * c),
            gst_bc_hdr_pq_from_half (half[(y * 4 + x) * 4 + c]));
    }
  }
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (data);
}

GST_END_TEST;

/* Downstream that takes only 8-bit RGBA gets the tone curve, with the sRGB
 * transfer and the input's primaries */
GST_START_TEST (test_sdr_output)
{
  GstHarness *h = harness_new (0, "video/x-raw, format=RGBA");
  guint8 *data = make_known_frame ();
  guint8 ref[64];
  GstBuffer *out;
  GstMapInfo map;
  guint x, y;

  set_caps (h, "BC6H", 8, 8, NULL);
  out = push_pull (h, data, 64, 0);
  check_caps (h, "RGBA", 8, 8, GST_VIDEO_TRANSFER_SRGB,
      GST_VIDEO_COLOR_PRIMARIES_BT2020);
  fail_unless_equals_int (gst_buffer_get_size (out), 8 * 8 * 4);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless (gst_bc_decode_block (GST_BC_FORMAT_BC6H, data + 48, ref));
  for (y = 0; y < 4; y++) {
    for (x = 0; x < 4; x++) {
      static const guint8 white[4] = { SDR_WHITE, SDR_WHITE, SDR_WHITE, 255 };
      static const guint8 blue[4] = { 0, 0, 255, 255 };
      static const guint8 black[4] = { 0, 0, 0, 255 };

      fail_unless (memcmp (pixel (&map, 32, 4, x, y), white, 4) == 0);
      fail_unless (memcmp (pixel (&map, 32, 4, x + 4, y), blue, 4) == 0);
      fail_unless (memcmp (pixel (&map, 32, 4, x, y + 4), black, 4) == 0);
      fail_unless (memcmp (pixel (&map, 32, 4, x + 4, y + 4),
              ref + (y * 4 + x) * 4, 4) == 0);
    }
  }
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (data);
}

GST_END_TEST;

static gchar *
negotiated_format (GstBcFormat format, const gchar * sink_caps)
{
  GstHarness *h = harness_new (0, sink_caps);
  GstBcInfo info;
  guint8 *data;
  GstCaps *caps;
  gchar *ret;

  fail_unless (gst_bc_info_set_format (&info, format, 8, 8));
  data = g_malloc0 (info.size);
  set_caps (h, gst_bc_format_to_string (format), 8, 8, NULL);
  gst_buffer_unref (push_pull (h, data, info.size, 0));
  caps = gst_pad_get_current_caps (h->sinkpad);
  ret = g_strdup (gst_structure_get_string (gst_caps_get_structure (caps, 0),
          "format"));
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  g_free (data);
  return ret;
}

static void
check_negotiated (GstBcFormat format, const gchar * sink_caps,
    const gchar * expected)
{
  gchar *got = negotiated_format (format, sink_caps);

  fail_unless_equals_string (got, expected);
  g_free (got);
}

GST_START_TEST (test_negotiation)
{
  GstHarness *h;
  GstBcInfo info;
  guint8 *data;

  /* RGBA64_LE is preferred for BC6H, wherever downstream lists it */
  check_negotiated (GST_BC_FORMAT_BC6H, NULL, "RGBA64_LE");
  check_negotiated (GST_BC_FORMAT_BC6H,
      "video/x-raw, format={ BGRx, RGBA, RGBA64_LE }", "RGBA64_LE");
  /* otherwise downstream's first 8-bit format */
  check_negotiated (GST_BC_FORMAT_BC6H, "video/x-raw, format={ I420, BGRx, "
      "RGBA }", "BGRx");
  check_negotiated (GST_BC_FORMAT_BC6H_SF, NULL, "RGBA64_LE");
  /* never for the 8-bit formats */
  check_negotiated (GST_BC_FORMAT_BC7, NULL, "RGBA");
  check_negotiated (GST_BC_FORMAT_BC1,
      "video/x-raw, format={ RGBA64_LE, BGRA }", "BGRA");

  /* BC1 to a downstream that takes RGBA64_LE only: not negotiated */
  h = harness_new (0, "video/x-raw, format=RGBA64_LE");
  fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1, 8, 8));
  data = g_malloc0 (info.size);
  set_caps (h, "BC1", 8, 8, NULL);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_memdup (data,
              info.size)), GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
  g_free (data);
}

GST_END_TEST;

/* The primaries of the input caps' colorimetry are kept */
GST_START_TEST (test_primaries_carried)
{
  GstHarness *h = harness_new (0, NULL);
  guint8 *data = make_known_frame ();
  GstVideoColorimetry cinfo;
  gchar *str, *extra;

  set_caps (h, "BC6H", 8, 8, "colorimetry=(string)bt709");
  gst_buffer_unref (push_pull (h, data, 64, 0));
  check_caps (h, "RGBA64_LE", 8, 8, GST_VIDEO_TRANSFER_SMPTE2084,
      GST_VIDEO_COLOR_PRIMARIES_BT709);
  gst_harness_teardown (h);

  /* Display P3's primaries, as numbers (no name has them) */
  cinfo.range = GST_VIDEO_COLOR_RANGE_0_255;
  cinfo.matrix = GST_VIDEO_COLOR_MATRIX_RGB;
  cinfo.transfer = GST_VIDEO_TRANSFER_GAMMA10;
  cinfo.primaries = GST_VIDEO_COLOR_PRIMARIES_SMPTEEG432;
  str = gst_video_colorimetry_to_string (&cinfo);
  extra = g_strdup_printf ("colorimetry=(string)%s", str);
  h = harness_new (0, "video/x-raw, format=RGBA");
  set_caps (h, "BC6H", 8, 8, extra);
  g_free (extra);
  g_free (str);
  gst_buffer_unref (push_pull (h, data, 64, 0));
  check_caps (h, "RGBA", 8, 8, GST_VIDEO_TRANSFER_SRGB,
      GST_VIDEO_COLOR_PRIMARIES_SMPTEEG432);
  gst_harness_teardown (h);
  g_free (data);
}

GST_END_TEST;

GST_START_TEST (test_timestamps)
{
  const GstClockTime dur = GST_SECOND / 25;
  GstHarness *h = harness_new (0, NULL);
  guint8 *data = make_known_frame ();
  guint i;

  set_caps (h, "BC6H", 8, 8, NULL);
  for (i = 0; i < 4; i++) {
    GstBuffer *out = push_pull (h, data, 64, GST_SECOND + i * dur);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_SECOND + i * dur);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), dur);
    fail_if (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_DELTA_UNIT));
    gst_buffer_unref (out);
  }
  /* a frame of the wrong size is an error */
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_memdup (data,
              48)), GST_FLOW_ERROR);
  gst_harness_teardown (h);
  g_free (data);
}

GST_END_TEST;

/* BC6H-SF: a negative value is 0 in both outputs */
GST_START_TEST (test_signed)
{
  GstHarness *h = harness_new (0, NULL);
  guint8 data[16];
  GstBuffer *out;
  GstMapInfo map;

  /* signed mode 11: R0 = 0x3ff is -1 (a tiny negative value), G0 = 511
   * the largest (65504), B0 = 100: unquantized 6432, 6432 * 31 >> 5 = 6231
   * (0x1857, 0.0021) */
  make_solid (data, 0x3ff, 511, 100);
  set_caps (h, "BC6H-SF", 3, 2, NULL);
  out = push_pull (h, data, 16, 0);
  check_caps (h, "RGBA64_LE", 3, 2, GST_VIDEO_TRANSFER_SMPTE2084,
      GST_VIDEO_COLOR_PRIMARIES_BT2020);
  fail_unless_equals_int (gst_buffer_get_size (out), 3 * 2 * 8);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless_equals_int (get_u16_le (map.data), 0);
  fail_unless_equals_int (get_u16_le (map.data + 2), 65535);
  fail_unless (get_u16_le (map.data + 4) > 0
      && get_u16_le (map.data + 4) < PQ_WHITE);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Random frames at an odd size: the element on 1 and 3 threads equals the
 * library, in both outputs */
GST_START_TEST (test_random_frames)
{
  const guint w = 37, hh = 23;
  static const gchar *outs[] = { NULL, "video/x-raw, format=RGBA" };
  GstBcPixelLayout layout;
  GstBcInfo info;
  guint32 state = 5;
  guint8 *data, *ref;
  guint t, o;
  gsize i;

  fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC6H, w, hh));
  fail_unless (gst_bc_pixel_layout_from_video_format (&layout,
          GST_VIDEO_FORMAT_RGBA));
  data = g_malloc (info.size);
  for (i = 0; i < info.size; i++)
    data[i] = test_lcg_next (&state) & 0xff;
  ref = g_malloc (w * hh * 8);

  for (o = 0; o < G_N_ELEMENTS (outs); o++) {
    guint bpp = o == 0 ? 8 : 4;

    if (o == 0)
      gst_bc_decode_rows_pq (GST_BC_FORMAT_BC6H, data, w, hh, 0,
          info.blocks_y, ref, w * 8);
    else
      gst_bc_decode_rows (GST_BC_FORMAT_BC6H, data, w, hh, 0, info.blocks_y,
          ref, w * 4, &layout);
    for (t = 1; t <= 3; t += 2) {
      GstHarness *h = harness_new (t, outs[o]);
      GstVideoFrame frame;
      GstVideoInfo vinfo;
      GstBuffer *out;
      GstCaps *caps;
      guint y;

      set_caps (h, "BC6H", w, hh, NULL);
      out = push_pull (h, data, info.size, 0);
      caps = gst_pad_get_current_caps (h->sinkpad);
      fail_unless (gst_video_info_from_caps (&vinfo, caps));
      fail_unless (gst_video_frame_map (&frame, &vinfo, out, GST_MAP_READ));
      for (y = 0; y < hh; y++) {
        const guint8 *row = (const guint8 *)
            GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

        fail_unless (memcmp (row, ref + y * w * bpp, w * bpp) == 0,
            "row %u differs (%s, %u threads)", y, o ? "RGBA" : "RGBA64_LE", t);
      }
      gst_video_frame_unmap (&frame);
      gst_caps_unref (caps);
      gst_buffer_unref (out);
      gst_harness_teardown (h);
    }
  }
  g_free (ref);
  g_free (data);
}

GST_END_TEST;

static Suite *
bcdechdr_suite (void)
{
  Suite *s = suite_create ("bcdechdr");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pq_output);
  tcase_add_test (tc, test_sdr_output);
  tcase_add_test (tc, test_negotiation);
  tcase_add_test (tc, test_primaries_carried);
  tcase_add_test (tc, test_timestamps);
  tcase_add_test (tc, test_signed);
  tcase_add_test (tc, test_random_frames);
  return s;
}

GST_CHECK_MAIN (bcdechdr);
