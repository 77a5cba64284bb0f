/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* YUV input into the bcNenc elements: every YUV format into every
 * encoder, odd sizes, v210's 128-byte rows, colorimetry from the caps,
 * video metas, short buffers, interlaced caps, and a YUV caps string
 * linked to bc1enc without videoconvert. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbctest.h"
#include "yuvtest.h"

#include <gst/app/gstappsrc.h>
#include <gst/check/gstharness.h>

static const struct
{
  const gchar *factory;
  GstBcFormat format;
} encoders[] = {
  {"bc1enc", GST_BC_FORMAT_BC1},
  {"bc3enc", GST_BC_FORMAT_YCOCG_BC3},
  {"bc4enc", GST_BC_FORMAT_BC4},
  {"bc5enc", GST_BC_FORMAT_BC5},
  {"bc7enc", GST_BC_FORMAT_BC7},
};

static const guint odd_sizes[][2] = {
  {1, 1}, {3, 5}, {17, 9}, {130, 66},
};

/* The default GstVideoInfo layout of @t, with the given colorimetry and
 * siting, and a buffer of it (padding bytes junk) */
static GstBuffer *
yuv_buffer (const TestYuv * t, GstVideoColorMatrix matrix, gboolean full,
    GstVideoChromaSite site, GstVideoInfo * vinfo)
{
  guint8 *planes[3] = { NULL, NULL, NULL };
  GstBuffer *buf;
  GstMapInfo map;
  guint p;

  fail_unless (gst_video_info_set_format (vinfo, t->format, t->width,
          t->height));
  vinfo->colorimetry.matrix = matrix;
  vinfo->colorimetry.range = full ? GST_VIDEO_COLOR_RANGE_0_255 :
      GST_VIDEO_COLOR_RANGE_16_235;
  vinfo->chroma_site = site;
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (vinfo), NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  memset (map.data, 0x5a, map.size);
  for (p = 0; p < test_yuv_n_planes (t); p++)
    planes[p] = map.data + GST_VIDEO_INFO_PLANE_OFFSET (vinfo, p);
  {
    gsize strides[3] = { GST_VIDEO_INFO_PLANE_STRIDE (vinfo, 0),
      GST_VIDEO_INFO_PLANE_STRIDE (vinfo, 1),
      GST_VIDEO_INFO_PLANE_STRIDE (vinfo, 2)
    };
    test_yuv_pack (t, planes, strides);
  }
  gst_buffer_unmap (buf, &map);
  return buf;
}

static GstHarness *
yuv_harness (const gchar * factory, const GstVideoInfo * vinfo)
{
  GstHarness *h = gst_harness_new (factory);

  g_object_set (h->element, "quality", GST_BC_QUALITY_FAST, NULL);
  gst_harness_set_src_caps (h, gst_video_info_to_caps (vinfo));
  return h;
}

/* The library's picture of @buf: gst_bc_yuv_convert_row () row by row */
static guint8 *
library_rgb (GstBuffer * buf, const GstVideoInfo * vinfo)
{
  GstBcYuvInfo yuv;
  GstVideoFrame frame;
  const guint8 *planes[3] = { NULL, NULL, NULL };
  gsize strides[3] = { 0, 0, 0 };
  guint8 *out;
  guint p, y;

  fail_unless (gst_bc_yuv_info_from_video_info (&yuv, vinfo));
  fail_unless (gst_video_frame_map (&frame, vinfo, buf, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    planes[p] = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
  }
  out = g_malloc ((gsize) vinfo->width * vinfo->height * 4);
  for (y = 0; y < (guint) vinfo->height; y++)
    gst_bc_yuv_convert_row (&yuv, planes, strides, y, 0, vinfo->width,
        out + (gsize) y * vinfo->width * 4);
  gst_video_frame_unmap (&frame);
  return out;
}

static guint8 *
encode_rgb (GstBcFormat format, const guint8 * rgb, guint w, guint h,
    GstBcInfo * info)
{
  return test_encode (format, GST_BC_QUALITY_FAST, rgb, &test_rgba_layout, w,
      h, info);
}

/* Every YUV format into every encoder at odd sizes: the output is the
 * encoding of the library's conversion, byte for byte; and decodes within
 * 0.1 dB of the encoding of the double-precision reference conversion
 * (whose rounding differs by up to a code: the blocks may differ) */
GST_START_TEST (test_formats_into_encoders)
{
  guint f, e, z;

  for (f = 0; f < G_N_ELEMENTS (test_yuv_formats); f++) {
    for (e = 0; e < G_N_ELEMENTS (encoders); e++) {
      gdouble sse_out = 0, sse_ref = 0;
      gsize n_values = 0;

      for (z = 0; z < G_N_ELEMENTS (odd_sizes); z++) {
        guint w = odd_sizes[z][0], hh = odd_sizes[z][1];
        guint8 *pic = test_picture (w, hh, 3 + z, 6, TEST_ALPHA_OPAQUE);
        TestYuv *t = test_yuv_new (test_yuv_formats[f], w, hh, pic, 0);
        /* a different colorimetry and siting for each size */
        GstVideoColorMatrix m = z % 3 == 0 ? GST_VIDEO_COLOR_MATRIX_BT601 :
            (z % 3 == 1 ? GST_VIDEO_COLOR_MATRIX_BT709 :
            GST_VIDEO_COLOR_MATRIX_BT2020);
        gboolean full = z == 3;
        GstVideoChromaSite site = z % 2 ? GST_VIDEO_CHROMA_SITE_MPEG2 :
            GST_VIDEO_CHROMA_SITE_JPEG;
        GstVideoInfo vinfo;
        GstBuffer *in = yuv_buffer (t, m, full, site, &vinfo), *out;
        GstHarness *h = yuv_harness (encoders[e].factory, &vinfo);
        guint8 *lib = library_rgb (in, &vinfo);
        guint8 *ref = test_yuv_reference (t, m, full,
            site == GST_VIDEO_CHROMA_SITE_MPEG2, FALSE);
        GstBcInfo info;
        guint8 *exp = encode_rgb (encoders[e].format, lib, w, hh, &info);
        guint8 *exp_ref = encode_rgb (encoders[e].format, ref, w, hh, &info);
        guint8 *dec_ref = test_decode (&info, exp_ref), *dec_out;
        GstMapInfo map;

        fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
        out = gst_harness_pull (h);
        fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
        fail_unless_equals_uint64 (map.size, info.size);
        fail_unless (memcmp (map.data, exp, info.size) == 0, "%s %ux%u into "
            "%s: not the encoding of the converted picture",
            gst_video_format_to_string (test_yuv_formats[f]), w, hh,
            encoders[e].factory);
        dec_out = test_decode (&info, map.data);
        gst_buffer_unmap (out, &map);
        /* against the reference picture (BC4: its luma in every channel) */
        if (encoders[e].format == GST_BC_FORMAT_BC4) {
          gsize i;

          for (i = 0; i < (gsize) w * hh; i++)
            ref[i * 4] = ref[i * 4 + 1] = ref[i * 4 + 2] =
                test_luma (ref + i * 4);
        }
        {
          guint nc = encoders[e].format == GST_BC_FORMAT_BC5 ? 2 : 3;

          sse_out += test_sse (dec_out, ref, 4, (gsize) w * hh, 0, nc);
          sse_ref += test_sse (dec_ref, ref, 4, (gsize) w * hh, 0, nc);
          n_values += (gsize) w *hh * nc;
        }
        gst_buffer_unref (out);
        gst_harness_teardown (h);
        g_free (dec_out);
        g_free (dec_ref);
        g_free (exp);
        g_free (exp_ref);
        g_free (lib);
        g_free (ref);
        test_yuv_free (t);
        g_free (pic);
      }
      GST_INFO ("%s into %s: %.2f dB, reference conversion %.2f dB",
          gst_video_format_to_string (test_yuv_formats[f]),
          encoders[e].factory, test_psnr (sse_out, n_values),
          test_psnr (sse_ref, n_values));
      fail_unless (test_psnr (sse_out, n_values) >=
          test_psnr (sse_ref, n_values) - 0.1, "%s into %s: %.2f dB, the "
          "reference conversion's encoding %.2f dB",
          gst_video_format_to_string (test_yuv_formats[f]),
          encoders[e].factory, test_psnr (sse_out, n_values),
          test_psnr (sse_ref, n_values));
    }
  }
}

GST_END_TEST;

/* v210 at every width 1 .. 49 in GStreamer's layout (rows padded to 128
 * bytes, the buffer no larger than the caps say) */
GST_START_TEST (test_v210_widths)
{
  guint w;

  for (w = 1; w <= 49; w++) {
    TestYuv *t = test_yuv_new (GST_VIDEO_FORMAT_v210, w, 5, NULL, w);
    GstVideoInfo vinfo;
    GstBuffer *in = yuv_buffer (t, GST_VIDEO_COLOR_MATRIX_BT709, FALSE,
        GST_VIDEO_CHROMA_SITE_MPEG2, &vinfo), *out;
    GstHarness *h = yuv_harness ("bc1enc", &vinfo);
    guint8 *lib = library_rgb (in, &vinfo);
    guint8 *ref = test_yuv_reference (t, GST_VIDEO_COLOR_MATRIX_BT709, FALSE,
        TRUE, FALSE);
    GstBcInfo info;
    guint8 *exp = encode_rgb (GST_BC_FORMAT_BC1, lib, w, 5, &info);
    GstMapInfo map;
    gsize i;

    fail_unless_equals_int (GST_VIDEO_INFO_PLANE_STRIDE (&vinfo, 0),
        (w + 47) / 48 * 128);
    for (i = 0; i < (gsize) w * 5 * 4; i++)
      fail_unless (ABS (lib[i] - ref[i]) <= 1, "v210 width %u", w);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    fail_unless (map.size == info.size && memcmp (map.data, exp,
            info.size) == 0, "v210 width %u", w);
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
    g_free (exp);
    g_free (lib);
    g_free (ref);
    test_yuv_free (t);
  }
}

GST_END_TEST;

/* Caps without colorimetry take GStreamer's defaults for the size
 * (BT.601 limited at SD): the same output as caps that say so */
GST_START_TEST (test_default_colorimetry)
{
  TestYuv *t = test_yuv_new (GST_VIDEO_FORMAT_NV12, 36, 20, NULL, 9);
  GstVideoInfo vinfo;
  GstBuffer *in = yuv_buffer (t, GST_VIDEO_COLOR_MATRIX_BT601, FALSE,
      GST_VIDEO_CHROMA_SITE_NONE, &vinfo), *a, *b;
  GstHarness *h = gst_harness_new ("bc1enc");
  GstHarness *h2 = yuv_harness ("bc1enc", &vinfo);

  g_object_set (h->element, "quality", GST_BC_QUALITY_FAST, NULL);
  gst_harness_set_src_caps_str (h, "video/x-raw, format=NV12, width=36, "
      "height=20, framerate=30/1");
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (h2, in), GST_FLOW_OK);
  a = gst_harness_pull (h);
  b = gst_harness_pull (h2);
  {
    GstMapInfo ma, mb;

    fail_unless (gst_buffer_map (a, &ma, GST_MAP_READ));
    fail_unless (gst_buffer_map (b, &mb, GST_MAP_READ));
    fail_unless (ma.size == mb.size && memcmp (ma.data, mb.data, ma.size) == 0);
    gst_buffer_unmap (a, &ma);
    gst_buffer_unmap (b, &mb);
  }
  /* and a different matrix gives different output */
  {
    GstBuffer *in2 = yuv_buffer (t, GST_VIDEO_COLOR_MATRIX_BT709, TRUE,
        GST_VIDEO_CHROMA_SITE_NONE, &vinfo), *c;
    GstHarness *h3 = yuv_harness ("bc1enc", &vinfo);

    fail_unless_equals_int (gst_harness_push (h3, in2), GST_FLOW_OK);
    c = gst_harness_pull (h3);
    {
      GstMapInfo ma, mc;

      fail_unless (gst_buffer_map (a, &ma, GST_MAP_READ));
      fail_unless (gst_buffer_map (c, &mc, GST_MAP_READ));
      fail_if (memcmp (ma.data, mc.data, ma.size) == 0);
      gst_buffer_unmap (a, &ma);
      gst_buffer_unmap (c, &mc);
    }
    gst_buffer_unref (c);
    gst_harness_teardown (h3);
  }
  gst_buffer_unref (a);
  gst_buffer_unref (b);
  gst_harness_teardown (h);
  gst_harness_teardown (h2);
  test_yuv_free (t);
}

GST_END_TEST;

/* A video meta with padded rows and planes at their own offsets; a buffer
 * one byte short of its last plane; a stride below a row's bytes */
GST_START_TEST (test_video_meta)
{
  const guint w = 37, hh = 11, cw = 19, ch = 6;
  const gint strides[GST_VIDEO_MAX_PLANES] = { 48, 40, };
  const gsize offsets[GST_VIDEO_MAX_PLANES] = { 16, 16 + 48 * 11 + 8, };
  const gsize needed = offsets[1] + 40 * (ch - 1) + 2 * cw;
  TestYuv *t = test_yuv_new (GST_VIDEO_FORMAT_NV12, w, hh, NULL, 4);
  GstVideoInfo vinfo;
  GstBuffer *ref_in = yuv_buffer (t, GST_VIDEO_COLOR_MATRIX_BT709, FALSE,
      GST_VIDEO_CHROMA_SITE_MPEG2, &vinfo), *out, *in;
  GstHarness *h = yuv_harness ("bc1enc", &vinfo);
  guint8 *lib = library_rgb (ref_in, &vinfo);
  GstBcInfo info;
  guint8 *exp = encode_rgb (GST_BC_FORMAT_BC1, lib, w, hh, &info);
  GstBus *bus = gst_bus_new ();
  gint bad_strides[GST_VIDEO_MAX_PLANES] = { 48, 36, };
  GstMapInfo map;
  guint sz;

  gst_element_set_bus (h->element, bus);
  for (sz = 0; sz < 3; sz++) {
    gsize size = sz == 1 ? needed - 1 : needed;
    guint8 *planes[3];
    gsize pstrides[3] = { strides[0], strides[1], 0 };
    guint8 *tmp = g_malloc0 (needed + 64);
    GstFlowReturn expect = sz == 0 ? GST_FLOW_OK : GST_FLOW_ERROR;

    planes[0] = tmp + offsets[0];
    planes[1] = tmp + offsets[1];
    planes[2] = NULL;
    test_yuv_pack (t, planes, pstrides);
    in = gst_buffer_new_memdup (tmp, size);
    g_free (tmp);
    gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_NV12, w, hh, 2, (gsize *) offsets,
        sz == 2 ? bad_strides : (gint *) strides);
    fail_unless_equals_int (gst_harness_push (h, in), expect);
    if (sz == 0) {
      out = gst_harness_pull (h);
      fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
      fail_unless (map.size == info.size && memcmp (map.data, exp,
              info.size) == 0);
      gst_buffer_unmap (out, &map);
      gst_buffer_unref (out);
      fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
    } else {
      gst_message_unref (check_error_message (bus, 0, 0,
              sz == 1 ? "needs" : "apart", NULL));
    }
  }
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  gst_buffer_unref (ref_in);
  g_free (exp);
  g_free (lib);
  test_yuv_free (t);
}

GST_END_TEST;

/* Interlaced 4:2:0 is refused (not-negotiated); interlaced 4:2:2 is
 * encoded as it is */
GST_START_TEST (test_interlaced)
{
  static const struct
  {
    const gchar *format;
    GstFlowReturn ret;
  } cases[] = {
    {"NV12", GST_FLOW_NOT_NEGOTIATED},
    {"I420", GST_FLOW_NOT_NEGOTIATED},
    {"P010_10LE", GST_FLOW_NOT_NEGOTIATED},
    {"UYVY", GST_FLOW_OK},
    {"v210", GST_FLOW_OK},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h = gst_harness_new ("bc1enc");
    gchar *str = g_strdup_printf ("video/x-raw, format=%s, width=16, "
        "height=16, framerate=30/1, interlace-mode=interleaved",
        cases[i].format);
    GstCaps *caps = gst_caps_from_string (str);
    GstVideoInfo vinfo;
    GstSegment segment;
    GstBuffer *buf;

    fail_unless (gst_video_info_from_caps (&vinfo, caps));
    gst_pad_push_event (h->srcpad, gst_event_new_stream_start ("s"));
    gst_pad_push_event (h->srcpad, gst_event_new_caps (caps));
    gst_caps_unref (caps);
    gst_segment_init (&segment, GST_FORMAT_TIME);
    gst_pad_push_event (h->srcpad, gst_event_new_segment (&segment));
    buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&vinfo), NULL);
    gst_buffer_memset (buf, 0, 0x80, GST_VIDEO_INFO_SIZE (&vinfo));
    fail_unless (gst_harness_push (h, buf) == cases[i].ret, "%s", str);
    if (cases[i].ret == GST_FLOW_OK)
      gst_buffer_unref (gst_harness_pull (h));
    g_free (str);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* A YUV caps string links to bc1enc without videoconvert (appsrc, as an
 * application would write it) and the frames come out as video/x-bc */
GST_START_TEST (test_pipeline_yuv_caps)
{
  static const gchar *formats[] = { "NV12", "UYVY", "P010_10LE", "v210" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    gchar *desc = g_strdup_printf ("appsrc name=src format=time caps="
        "\"video/x-raw,format=%s,width=33,height=17,framerate=30/1\" ! "
        "bc1enc quality=fast ! appsink name=sink", formats[i]);
    GstElement *pipeline = launch (desc);
    GstElement *src = get (pipeline, "src"), *sink = get (pipeline, "sink");
    GstVideoInfo vinfo;
    GstCaps *caps;
    GstSample *sample;
    GstBuffer *buf;

    g_object_get (src, "caps", &caps, NULL);
    fail_unless (gst_video_info_from_caps (&vinfo, caps));
    gst_caps_unref (caps);
    play (pipeline);
    buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&vinfo), NULL);
    gst_buffer_memset (buf, 0, 0x60, GST_VIDEO_INFO_SIZE (&vinfo));
    GST_BUFFER_PTS (buf) = 0;
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), buf),
        GST_FLOW_OK);
    sample = pull_sample (sink);
    fail_unless (sample != NULL, "%s: no frame", formats[i]);
    caps = gst_sample_get_caps (sample);
    fail_unless (gst_structure_has_name (gst_caps_get_structure (caps, 0),
            "video/x-bc"));
    fail_unless_equals_uint64 (gst_buffer_get_size (gst_sample_get_buffer
            (sample)), 9 * 5 * 8);
    gst_sample_unref (sample);
    gst_object_unref (src);
    gst_object_unref (sink);
    stop (pipeline);
    g_free (desc);
  }
}

GST_END_TEST;

static Suite *
bcencyuv_suite (void)
{
  Suite *s = suite_create ("bcencyuv");
  TCase *tc = test_suite_add_general (s, 300);

  tcase_add_test (tc, test_formats_into_encoders);
  tcase_add_test (tc, test_v210_widths);
  tcase_add_test (tc, test_default_colorimetry);
  tcase_add_test (tc, test_video_meta);
  tcase_add_test (tc, test_interlaced);
  tcase_add_test (tc, test_pipeline_yuv_caps);
  return s;
}

GST_CHECK_MAIN (bcencyuv);
