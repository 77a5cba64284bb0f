/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Element tests of bc6henc: RGBA64_LE PQ frames in, BC6H out (caps with
 * the colorimetry, size, timestamps), decoded again by bcdec to PQ codes
 * close to the input; RGB10A2_LE, HLG and linear input; caps without a
 * colorimetry; P010_10LE and v210 (every matrix, range and siting, the
 * caps' defaults, odd sizes, padded rows, interlaced caps); an unsupported
 * transfer refused; odd sizes;
 * BC6H-SF when downstream takes only that, BC6H otherwise. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbctest.h"
#include "hdrtest.h"
#include "yuvtest.h"
#include <gst/check/gstharness.h>

#include <string.h>

static GstHarness *
harness_new (const gchar * quality, guint threads)
{
  GstElement *element = gst_element_factory_make ("bc6henc", NULL);
  GstHarness *h;

  fail_unless (element != NULL);
  gst_util_set_object_arg (G_OBJECT (element), "quality", quality);
  g_object_set (element, "threads", threads, NULL);
  h = gst_harness_new_with_element (element, "sink", "src");
  gst_object_unref (element);
  return h;
}

/* A PQ RGBA64_LE frame of the synthetic HDR picture (hdrtest.h) */
static GstBuffer *
pq_frame (guint width, guint height, guint seed)
{
  guint16 *half = g_new (guint16, (gsize) width * height * 4);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, (gsize) width * height * 8,
      NULL);
  GstMapInfo map;
  gsize i;

  hdrtest_image (width, height, seed, half);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < (gsize) width * height; i++) {
    guint c;

    for (c = 0; c < 3; c++)
      GST_WRITE_UINT16_LE (map.data + i * 8 + c * 2,
          gst_bc_hdr_pq_from_half (half[i * 4 + c]));
    GST_WRITE_UINT16_LE (map.data + i * 8 + 6, 0xffff);
  }
  gst_buffer_unmap (buf, &map);
  g_free (half);
  return buf;
}

/* Decodes @blocks (BC6H of @width x @height) with bcdec to RGBA64_LE PQ:
 * a new buffer */
static GstBuffer *
decode_pq (GstBuffer * blocks, const GstCaps * caps)
{
  GstHarness *h = gst_harness_new ("bcdec");
  GstBuffer *out;

  gst_harness_set_src_caps (h, gst_caps_copy (caps));
  gst_harness_set_sink_caps_str (h, "video/x-raw, format=RGBA64_LE");
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (blocks)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  gst_harness_teardown (h);
  return out;
}

/* the largest difference of the PQ codes of the colour channels, and
 * their mean difference */
static guint
pq_difference (GstBuffer * a, GstBuffer * b, gsize n_pixels, gdouble * mean)
{
  GstMapInfo ma, mb;
  guint worst = 0;
  gdouble sum = 0.0;
  gsize i;

  fail_unless (gst_buffer_map (a, &ma, GST_MAP_READ));
  fail_unless (gst_buffer_map (b, &mb, GST_MAP_READ));
  fail_unless (ma.size >= n_pixels * 8 && mb.size >= n_pixels * 8);
  for (i = 0; i < n_pixels * 4; i++) {
    guint d;

    if (i % 4 == 3)
      continue;
    d = ABS ((gint) GST_READ_UINT16_LE (ma.data + 2 * i) -
        (gint) GST_READ_UINT16_LE (mb.data + 2 * i));
    worst = MAX (worst, d);
    sum += d;
  }
  gst_buffer_unmap (a, &ma);
  gst_buffer_unmap (b, &mb);
  *mean = sum / (n_pixels * 3);
  return worst;
}

/* PQ frames in: BC6H with the input's primaries and the linear transfer,
 * the right size and timestamps; bcdec gives the PQ codes back within a
 * tolerance: on this noisy picture (texture at a 2-pixel scale) at most
 * 1500 of 65535 (23 10-bit steps, measured up to 1125), 120 on average
 * (measured 57 to 85) */
GST_START_TEST (test_pq_round_trip)
{
  static const gchar *qualities[] = { "fast", "normal", "high" };
  const guint w = 128, h = 72;
  guint q, f;

  for (q = 0; q < G_N_ELEMENTS (qualities); q++) {
    GstHarness *hr = harness_new (qualities[q], 2);
    GstCaps *caps;
    GstStructure *s;
    GstVideoColorimetry cm;

    gst_harness_set_src_caps_str (hr, "video/x-raw, format=RGBA64_LE, "
        "width=128, height=72, framerate=50/1, colorimetry=bt2100-pq");
    for (f = 0; f < 3; f++) {
      GstBuffer *in = pq_frame (w, h, f), *out, *dec;
      gdouble mean;
      guint worst;

      GST_BUFFER_PTS (in) = f * GST_SECOND / 50;
      GST_BUFFER_DURATION (in) = GST_SECOND / 50;
      fail_unless_equals_int (gst_harness_push (hr, gst_buffer_ref (in)),
          GST_FLOW_OK);
      out = gst_harness_pull (hr);
      fail_unless (out != NULL);
      fail_unless_equals_int (gst_buffer_get_size (out), (w / 4) * (h / 4) *
          16);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out), f * GST_SECOND / 50);
      fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), GST_SECOND / 50);
      fail_if (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_DELTA_UNIT));

      caps = gst_pad_get_current_caps (hr->sinkpad);
      dec = decode_pq (out, caps);
      gst_caps_unref (caps);
      worst = pq_difference (in, dec, w * h, &mean);
      GST_INFO ("%s frame %u: PQ codes within %u, mean %.1f", qualities[q],
          f, worst, mean);
      fail_unless (worst <= 1500, "%s: %u", qualities[q], worst);
      fail_unless (mean <= 120.0, "%s: %f", qualities[q], mean);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      gst_buffer_unref (dec);
    }

    caps = gst_pad_get_current_caps (hr->sinkpad);
    s = gst_caps_get_structure (caps, 0);
    fail_unless (gst_structure_has_name (s, "video/x-bc"));
    fail_unless_equals_string (gst_structure_get_string (s, "format"), "BC6H");
    fail_unless (gst_video_colorimetry_from_string (&cm,
            gst_structure_get_string (s, "colorimetry")));
    fail_unless_equals_int (cm.transfer, GST_VIDEO_TRANSFER_GAMMA10);
    fail_unless_equals_int (cm.primaries, GST_VIDEO_COLOR_PRIMARIES_BT2020);
    fail_unless_equals_int (cm.matrix, GST_VIDEO_COLOR_MATRIX_RGB);
    gst_caps_unref (caps);
    gst_harness_teardown (hr);
  }
}

GST_END_TEST;

/* The BC6H of one frame of @caps_str from @bytes, decoded by the library
 * to the half float of pixel 0's red */
static guint16
encode_one (const gchar * caps_str, const guint8 * px, gsize bpp,
    gchar ** out_caps)
{
  GstHarness *h = harness_new ("fast", 1);
  GstBuffer *in = gst_buffer_new_allocate (NULL, 16 * bpp, NULL), *out;
  guint16 half[64];
  GstMapInfo map;
  GstCaps *caps;
  guint i;

  gst_harness_set_src_caps_str (h, caps_str);
  for (i = 0; i < 16; i++)
    gst_buffer_fill (in, i * bpp, px, bpp);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless (gst_bc_decode_block_half (GST_BC_FORMAT_BC6H, map.data, half));
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  caps = gst_pad_get_current_caps (h->sinkpad);
  *out_caps = gst_caps_to_string (caps);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  return half[0];
}

/* RGB10A2_LE HLG at 75 %, RGBA64_LE linear at 1.0 and PQ without a
 * colorimetry (taken as BT.2020 PQ) all give 1.0; BT.709 primaries are
 * carried over */
GST_START_TEST (test_transfers)
{
  guint8 px[8];
  gchar *caps;
  guint16 v;

  /* 75 % of 1023 is 767 */
  GST_WRITE_UINT32_LE (px, 767u | (767u << 10) | (767u << 20) | (3u << 30));
  v = encode_one ("video/x-raw, format=RGB10A2_LE, width=4, height=4, "
      "framerate=25/1, colorimetry=bt2100-hlg", px, 4, &caps);
  GST_INFO ("HLG 75%%: %f, %s", gst_bc_hdr_half_to_double (v), caps);
  fail_unless (ABS (gst_bc_hdr_half_to_double (v) - 1.0) < 0.01);
  fail_unless (strstr (caps, "colorimetry=(string)1:1:1:7") != NULL, caps);
  g_free (caps);

  GST_WRITE_UINT64_LE (px, G_GUINT64_CONSTANT (0xffffffffffffffff));
  v = encode_one ("video/x-raw, format=RGBA64_LE, width=4, height=4, "
      "framerate=25/1, colorimetry=1:1:1:1", px, 8, &caps);
  fail_unless_equals_int (v, 0x3c00);
  /* BT.709 primaries */
  fail_unless (strstr (caps, "colorimetry=(string)1:1:1:1") != NULL, caps);
  g_free (caps);

  GST_WRITE_UINT64_LE (px, G_GUINT64_CONSTANT (0xffff949794979497));
  v = encode_one ("video/x-raw, format=RGBA64_LE, width=4, height=4, "
      "framerate=25/1", px, 8, &caps);
  GST_INFO ("PQ 38039: %f", gst_bc_hdr_half_to_double (v));
  fail_unless (ABS (gst_bc_hdr_half_to_double (v) - 1.0) < 0.01);
  fail_unless (strstr (caps, "colorimetry=(string)1:1:1:7") != NULL, caps);
  g_free (caps);
}

GST_END_TEST;

/* P010_10LE (limited range, BT.2020 matrix) through the YUV conversion: a
 * grey of the PQ code of 1.0 gives 1.0 */
GST_START_TEST (test_p010)
{
  GstHarness *h = harness_new ("fast", 1);
  GstVideoInfo vinfo;
  GstVideoFrame vf;
  GstBuffer *in, *out;
  GstMapInfo map;
  guint16 half[64];
  guint x, y;

  gst_harness_set_src_caps_str (h, "video/x-raw, format=P010_10LE, "
      "width=8, height=4, framerate=25/1, colorimetry=bt2100-pq");
  gst_video_info_set_format (&vinfo, GST_VIDEO_FORMAT_P010_10LE, 8, 4);
  in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&vinfo), NULL);
  fail_unless (gst_video_frame_map (&vf, &vinfo, in, GST_MAP_WRITE));
  /* Y = 64 + 876 * 0.5807 = 573, chroma 512, in the high 10 bits */
  for (y = 0; y < 4; y++)
    for (x = 0; x < 8; x++)
      GST_WRITE_UINT16_LE ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vf, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 0) + x * 2, 573 << 6);
  for (y = 0; y < 2; y++)
    for (x = 0; x < 8; x++)
      GST_WRITE_UINT16_LE ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vf, 1) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 1) + x * 2, 512 << 6);
  gst_video_frame_unmap (&vf);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless_equals_int (gst_buffer_get_size (out), 2 * 16);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless (gst_bc_decode_block_half (GST_BC_FORMAT_BC6H, map.data, half));
  gst_buffer_unmap (out, &map);
  GST_INFO ("P010 grey: %f %f %f", gst_bc_hdr_half_to_double (half[0]),
      gst_bc_hdr_half_to_double (half[1]), gst_bc_hdr_half_to_double (half[2]));
  for (x = 0; x < 3; x++)
    fail_unless (ABS (gst_bc_hdr_half_to_double (half[x]) - 1.0) < 0.02);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* @caps refused: a frame of @size bytes is not accepted, an error is
 * posted */
static void
expect_refused (const gchar * caps, gsize size)
{
  GstHarness *h = harness_new ("fast", 1);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;

  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps_str (h, caps);
  fail_if (gst_harness_push (h, gst_buffer_new_allocate (NULL, size,
              NULL)) == GST_FLOW_OK, "%s", caps);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s", caps);
  gst_message_unref (msg);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

/* P010_10LE and v210 frames in GStreamer's default layout (v210 rows
 * padded to 128 bytes) of @vinfo, with @t's samples */
static GstBuffer *
yuv_frame (const TestYuv * t, const GstVideoInfo * vinfo)
{
  guint8 *planes[3] = { NULL, NULL, NULL };
  gsize strides[3];
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (vinfo),
      NULL);
  GstMapInfo map;
  guint p;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  memset (map.data, 0xa5, map.size);
  for (p = 0; p < 3; p++) {
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (vinfo, p);
    if (p < GST_VIDEO_INFO_N_PLANES (vinfo))
      planes[p] = map.data + GST_VIDEO_INFO_PLANE_OFFSET (vinfo, p);
  }
  test_yuv_pack (t, planes, strides);
  gst_buffer_unmap (buf, &map);
  return buf;
}

/* 10-bit YUV into bc6henc: the blocks are the library's of the frame
 * (gst_bc_encode_rows_hdr_yuv ()) with the caps' matrix, range and chroma
 * siting, or BT.2020, 16-235 where the caps name none; caps and
 * timestamps as for RGB input; decoded, as close to the independent
 * double-precision conversion (yuvtest.h) as its own blocks */
GST_START_TEST (test_yuv_input)
{
  static const struct
  {
    GstVideoFormat format;
    guint w, h;
    /* the caps' colorimetry and chroma-site (NULL: none) */
    const gchar *colorimetry, *site;
    GstVideoColorMatrix matrix;
    gboolean full;
    GstVideoTransferFunction transfer;
    const gchar *quality;
  } cases[] = {
    {GST_VIDEO_FORMAT_P010_10LE, 64, 32, "bt2100-pq", "mpeg2",
        GST_VIDEO_COLOR_MATRIX_BT2020, FALSE, GST_VIDEO_TRANSFER_SMPTE2084,
        "fast"},
    {GST_VIDEO_FORMAT_P010_10LE, 13, 7, NULL, NULL,
        GST_VIDEO_COLOR_MATRIX_BT2020, FALSE, GST_VIDEO_TRANSFER_SMPTE2084,
        "normal"},
    {GST_VIDEO_FORMAT_P010_10LE, 1, 1, "bt2100-hlg", "jpeg",
        GST_VIDEO_COLOR_MATRIX_BT2020, FALSE,
        GST_VIDEO_TRANSFER_ARIB_STD_B67, "high"},
    {GST_VIDEO_FORMAT_P010_10LE, 70, 9, "1:3:14:7", "dv",
        GST_VIDEO_COLOR_MATRIX_BT709, TRUE, GST_VIDEO_TRANSFER_SMPTE2084,
        "normal"},
    {GST_VIDEO_FORMAT_v210, 50, 6, "bt2100-pq", NULL,
        GST_VIDEO_COLOR_MATRIX_BT2020, FALSE, GST_VIDEO_TRANSFER_SMPTE2084,
        "fast"},
    {GST_VIDEO_FORMAT_v210, 7, 3, "2:4:15:7", "jpeg",
        GST_VIDEO_COLOR_MATRIX_BT601, FALSE, GST_VIDEO_TRANSFER_ARIB_STD_B67,
        "normal"},
    {GST_VIDEO_FORMAT_v210, 131, 5, "1:6:14:7", NULL,
        GST_VIDEO_COLOR_MATRIX_BT2020, TRUE, GST_VIDEO_TRANSFER_SMPTE2084,
        "fast"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    guint w = cases[i].w, hh = cases[i].h;
    GstHarness *h = harness_new (cases[i].quality, 2);
    guint8 *pic = test_picture (w, hh, 5 + i, 6, TEST_ALPHA_OPAQUE);
    TestYuv *t = test_yuv_new (cases[i].format, w, hh, pic, 0);
    GstVideoColorimetry rgb_cm = { GST_VIDEO_COLOR_RANGE_0_255,
      GST_VIDEO_COLOR_MATRIX_RGB, cases[i].transfer,
      GST_VIDEO_COLOR_PRIMARIES_BT2020
    };
    GstVideoChromaSite site = cases[i].site ?
        gst_video_chroma_site_from_string (cases[i].site) :
        GST_VIDEO_CHROMA_SITE_UNKNOWN;
    GstBcHdrInput *input = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE,
        &rgb_cm);
    GstBcQuality q = g_str_equal (cases[i].quality, "fast") ?
        GST_BC_QUALITY_FAST : (g_str_equal (cases[i].quality, "normal") ?
        GST_BC_QUALITY_NORMAL : GST_BC_QUALITY_HIGH);
    const guint8 *planes[3] = { NULL, NULL, NULL };
    gsize strides[3] = { 0, 0, 0 };
    GstBcYuvInfo yuv;
    GstVideoInfo vinfo;
    GstVideoFrame vf;
    GstBuffer *in, *out, *dec;
    GstBcInfo info;
    GstMapInfo map, dmap;
    GstCaps *caps;
    gchar *str;
    guint8 *expect;
    guint p, x, y, c;

    fail_unless (input != NULL);
    fail_unless (gst_video_info_set_format (&vinfo, cases[i].format, w, hh));
    in = yuv_frame (t, &vinfo);
    GST_BUFFER_PTS (in) = 40 * GST_MSECOND * (i + 1);
    GST_BUFFER_DURATION (in) = 40 * GST_MSECOND;
    str = g_strdup_printf ("video/x-raw, format=%s, width=%u, height=%u, "
        "framerate=25/1%s%s%s%s", gst_video_format_to_string (cases[i].format),
        w, hh, cases[i].colorimetry ? ", colorimetry=" : "",
        cases[i].colorimetry ? cases[i].colorimetry : "",
        cases[i].site ? ", chroma-site=" : "", cases[i].site ? cases[i].site :
        "");
    gst_harness_set_src_caps_str (h, str);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL, "%s", str);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in));
    caps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (gst_structure_has_field_typed (gst_caps_get_structure (caps,
                0), "colorimetry", G_TYPE_STRING));

    /* the library's blocks of the conversion the caps name */
    fail_unless (gst_bc_yuv_info_set (&yuv, cases[i].format, w, hh,
            cases[i].matrix, cases[i].full ? GST_VIDEO_COLOR_RANGE_0_255 :
            GST_VIDEO_COLOR_RANGE_16_235, site));
    fail_unless (gst_bc_yuv_info_set_depth (&yuv, 16));
    fail_unless (gst_video_frame_map (&vf, &vinfo, in, GST_MAP_READ));
    for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&vf); p++) {
      planes[p] = GST_VIDEO_FRAME_PLANE_DATA (&vf, p);
      strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE (&vf, p);
    }
    gst_bc_info_init (&info);
    fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC6H, w, hh));
    expect = g_malloc0 (info.size);
    gst_bc_encode_rows_hdr_yuv (input, GST_BC_FORMAT_BC6H, q, &yuv, planes,
        strides, 0, info.blocks_y, expect);
    gst_video_frame_unmap (&vf);
    fail_unless_equals_int (gst_buffer_get_size (out), info.size);
    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    fail_unless (memcmp (map.data, expect, info.size) == 0,
        "%s: not the library's blocks", str);
    gst_buffer_unmap (out, &map);

    /* decoded (PQ input: bcdec gives PQ codes back): as close to the
     * exact conversion (yuvtest.h, double precision) as the blocks of that
     * conversion itself are: the mean difference of the codes at most 5 %
     * (and 2 codes) above theirs */
    if (cases[i].transfer == GST_VIDEO_TRANSFER_SMPTE2084) {
      GstBuffer *ref = gst_buffer_new_allocate (NULL, (gsize) w * hh * 8,
          NULL), *ref_blocks, *ref_dec;
      gdouble mean, mean_ref;

      fail_unless (gst_buffer_map (ref, &dmap, GST_MAP_WRITE));
      for (y = 0; y < hh; y++) {
        for (x = 0; x < w; x++) {
          gdouble rgb[3];
          guint8 *px = dmap.data + ((gsize) y * w + x) * 8;

          test_yuv_reference_pixel (t, cases[i].matrix, cases[i].full,
              (site & GST_VIDEO_CHROMA_SITE_H_COSITED) != 0,
              (site & GST_VIDEO_CHROMA_SITE_V_COSITED) != 0, x, y, rgb);
          for (c = 0; c < 3; c++)
            GST_WRITE_UINT16_LE (px + 2 * c, CLAMP (lround (rgb[c] * 257.0),
                    0, 65535));
          GST_WRITE_UINT16_LE (px + 6, 0xffff);
        }
      }
      ref_blocks = gst_buffer_new_allocate (NULL, info.size, NULL);
      fail_unless (gst_buffer_map (ref_blocks, &map, GST_MAP_WRITE));
      gst_bc_encode_rows_hdr (input, GST_BC_FORMAT_BC6H, q, dmap.data,
          (gsize) w * 8, w, hh, 0, info.blocks_y, map.data);
      gst_buffer_unmap (ref_blocks, &map);
      gst_buffer_unmap (ref, &dmap);
      dec = decode_pq (out, caps);
      ref_dec = decode_pq (ref_blocks, caps);
      pq_difference (ref, dec, (gsize) w * hh, &mean);
      pq_difference (ref, ref_dec, (gsize) w * hh, &mean_ref);
      GST_INFO ("%s: mean PQ difference to the exact conversion %.2f, of "
          "its own blocks %.2f", str, mean, mean_ref);
      fail_unless (mean <= mean_ref * 1.05 + 2.0, "%s: %.2f against %.2f",
          str, mean, mean_ref);
      gst_buffer_unref (dec);
      gst_buffer_unref (ref_dec);
      gst_buffer_unref (ref_blocks);
      gst_buffer_unref (ref);
    }
    g_free (expect);
    g_free (str);
    gst_caps_unref (caps);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    gst_bc_hdr_input_free (input);
    test_yuv_free (t);
    g_free (pic);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Interlaced P010_10LE (its chroma rows belong to fields) is refused with
 * an error; interlaced v210 (4:2:2: each row its own chroma) is encoded */
GST_START_TEST (test_yuv_interlaced)
{
  GstVideoInfo vinfo;
  GstHarness *h;
  GstBuffer *in, *out;

  fail_unless (gst_video_info_set_format (&vinfo, GST_VIDEO_FORMAT_P010_10LE,
          8, 8));
  expect_refused ("video/x-raw, format=P010_10LE, width=8, height=8, "
      "framerate=25/1, interlace-mode=interleaved, colorimetry=bt2100-pq",
      GST_VIDEO_INFO_SIZE (&vinfo));

  h = harness_new ("fast", 1);
  gst_harness_set_src_caps_str (h, "video/x-raw, format=v210, width=8, "
      "height=8, framerate=25/1, interlace-mode=interleaved, "
      "colorimetry=bt2100-pq");
  fail_unless (gst_video_info_set_format (&vinfo, GST_VIDEO_FORMAT_v210, 8,
          8));
  in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&vinfo), NULL);
  gst_buffer_memset (in, 0, 0, GST_VIDEO_INFO_SIZE (&vinfo));
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless_equals_int (gst_buffer_get_size (out), 4 * 16);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* sRGB (or any other transfer) is refused: caps not accepted, an error */
GST_START_TEST (test_unknown_transfer_refused)
{
  expect_refused ("video/x-raw, format=RGBA64_LE, width=4, height=4, "
      "framerate=25/1, colorimetry=sRGB", 16 * 8);
}

GST_END_TEST;

/* odd sizes: the frame is padded to whole blocks */
GST_START_TEST (test_odd_size)
{
  GstHarness *h = harness_new ("normal", 0);
  GstBuffer *in = pq_frame (13, 7, 3), *out, *dec;
  GstCaps *caps;
  gdouble mean;

  gst_harness_set_src_caps_str (h, "video/x-raw, format=RGBA64_LE, "
      "width=13, height=7, framerate=25/1, colorimetry=bt2100-pq");
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless_equals_int (gst_buffer_get_size (out), 4 * 2 * 16);
  caps = gst_pad_get_current_caps (h->sinkpad);
  dec = decode_pq (out, caps);
  fail_unless (pq_difference (in, dec, 13 * 7, &mean) <= 1500);
  gst_caps_unref (caps);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_buffer_unref (dec);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Downstream that takes only BC6H-SF gets BC6H-SF at every quality (odd
 * size too): the library's signed blocks of the frame, which bcdec
 * decodes to PQ codes as close to the input as test_pq_round_trip's */
GST_START_TEST (test_signed)
{
  static const gchar *qualities[] = { "fast", "normal", "high" };
  static const GstBcQuality quality_values[] = {
    GST_BC_QUALITY_FAST, GST_BC_QUALITY_NORMAL, GST_BC_QUALITY_HIGH
  };
  static const guint sizes[][2] = { {128, 72}, {13, 7} };
  GstVideoColorimetry pq = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_RGB, GST_VIDEO_TRANSFER_SMPTE2084,
    GST_VIDEO_COLOR_PRIMARIES_BT2020
  };
  GstBcHdrInput *input = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE,
      &pq);
  guint q, s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    guint w = sizes[s][0], h = sizes[s][1];
    gsize size = (gsize) ((w + 3) / 4) * ((h + 3) / 4) * 16;

    for (q = 0; q < G_N_ELEMENTS (qualities); q++) {
      GstHarness *hr = harness_new (qualities[q], 2);
      GstBuffer *in = pq_frame (w, h, 5 + q), *out, *dec;
      guint8 *ref = g_malloc (size);
      GstMapInfo map, out_map;
      GstCaps *caps;
      gdouble mean;
      guint worst;
      gchar *str;

      gst_harness_set_sink_caps_str (hr, "video/x-bc, format=BC6H-SF");
      str = g_strdup_printf ("video/x-raw, format=RGBA64_LE, width=%u, "
          "height=%u, framerate=50/1, colorimetry=bt2100-pq", w, h);
      gst_harness_set_src_caps_str (hr, str);
      g_free (str);
      fail_unless_equals_int (gst_harness_push (hr, gst_buffer_ref (in)),
          GST_FLOW_OK);
      out = gst_harness_pull (hr);
      fail_unless (out != NULL);
      fail_unless_equals_int (gst_buffer_get_size (out), size);

      caps = gst_pad_get_current_caps (hr->sinkpad);
      fail_unless_equals_string (gst_structure_get_string
          (gst_caps_get_structure (caps, 0), "format"), "BC6H-SF");

      fail_unless (gst_buffer_map (in, &map, GST_MAP_READ));
      gst_bc_encode_rows_hdr (input, GST_BC_FORMAT_BC6H_SF, quality_values[q],
          map.data, (gsize) w * 8, w, h, 0, (h + 3) / 4, ref);
      gst_buffer_unmap (in, &map);
      fail_unless (gst_buffer_map (out, &out_map, GST_MAP_READ));
      fail_unless (memcmp (out_map.data, ref, size) == 0, "%s %ux%u",
          qualities[q], w, h);
      gst_buffer_unmap (out, &out_map);

      dec = decode_pq (out, caps);
      worst = pq_difference (in, dec, (gsize) w * h, &mean);
      GST_INFO ("BC6H-SF %s %ux%u: PQ codes within %u, mean %.1f",
          qualities[q], w, h, worst, mean);
      fail_unless (worst <= 1500, "%s: %u", qualities[q], worst);
      fail_unless (mean <= 120.0, "%s: %f", qualities[q], mean);

      gst_caps_unref (caps);
      g_free (ref);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      gst_buffer_unref (dec);
      gst_harness_teardown (hr);
    }
  }
  gst_bc_hdr_input_free (input);
}

GST_END_TEST;

/* The format by downstream's caps: BC6H when it takes both (in either
 * order); BC6H-SF when only that; not-negotiated when neither */
GST_START_TEST (test_format_choice)
{
  static const struct
  {
    const gchar *sink_caps;
    const gchar *format;
  } cases[] = {
    {"video/x-bc, format={BC6H-SF, BC6H}", "BC6H"},
    {"video/x-bc, format={BC6H, BC6H-SF}", "BC6H"},
    {"video/x-bc, format=BC6H", "BC6H"},
    {"video/x-bc, format=BC6H-SF", "BC6H-SF"},
    {"video/x-bc, format={BC7, BC6H-SF}", "BC6H-SF"},
    {"video/x-bc, format=BC7", NULL},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h = harness_new ("fast", 1);
    GstFlowReturn ret;

    gst_harness_set_sink_caps_str (h, cases[i].sink_caps);
    gst_harness_set_src_caps_str (h, "video/x-raw, format=RGBA64_LE, "
        "width=8, height=8, framerate=25/1, colorimetry=bt2100-pq");
    ret = gst_harness_push (h, pq_frame (8, 8, i));
    if (cases[i].format) {
      GstCaps *caps;
      GstBuffer *out;

      fail_unless_equals_int (ret, GST_FLOW_OK);
      out = gst_harness_pull (h);
      fail_unless (out != NULL);
      gst_buffer_unref (out);
      caps = gst_pad_get_current_caps (h->sinkpad);
      fail_unless_equals_string (gst_structure_get_string
          (gst_caps_get_structure (caps, 0), "format"), cases[i].format);
      gst_caps_unref (caps);
    } else {
      fail_unless (ret == GST_FLOW_NOT_NEGOTIATED, "%s: %s",
          cases[i].sink_caps, gst_flow_get_name (ret));
    }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

static Suite *
bc6henc_suite (void)
{
  Suite *s = suite_create ("bc6henc");
  TCase *tc = test_suite_add_general (s, 60);

  tcase_add_test (tc, test_pq_round_trip);
  tcase_add_test (tc, test_transfers);
  tcase_add_test (tc, test_p010);
  tcase_add_test (tc, test_yuv_input);
  tcase_add_test (tc, test_yuv_interlaced);
  tcase_add_test (tc, test_unknown_transfer_refused);
  tcase_add_test (tc, test_odd_size);
  tcase_add_test (tc, test_signed);
  tcase_add_test (tc, test_format_choice);
  return s;
}

GST_CHECK_MAIN (bc6henc);
