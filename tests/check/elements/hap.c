/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* hapenc and hapdec: caps both ways (qtdemux's video/x-gst-fourcc-Hap*,
 * qtmux's video/x-qt-part), output bytes, timestamps, frames passed on
 * without a copy, damaged frames (warnings, then an error), and a .mov file
 * written by qtmux and read back by qtdemux and decodebin; Hap HDR (BC6H
 * and BC6H-SF under one code, HapH: the frames say which; colorimetry
 * carried in the caps). The interop with
 * ffmpeg (files it writes, files it reads) is tests/hap. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/app.h>
#include <gst/bc/bc.h>
#include <gst/bc/bchap.h>
#include <glib/gstdio.h>

#include "gstbctest.h"

#define FPS 30

static GstBuffer *
texture_buffer (const GstBcInfo * info, const guint8 * tex, guint i)
{
  GstBuffer *buf = gst_buffer_new_memdup (tex, info->size);

  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (i, GST_SECOND, FPS);
  GST_BUFFER_DURATION (buf) = GST_SECOND / FPS;
  return buf;
}

static gchar *
bc_caps_string (GstBcFormat format, guint width, guint height)
{
  return g_strdup_printf ("video/x-bc, format=%s, width=%u, height=%u, "
      "framerate=%d/1, pixel-aspect-ratio=1/1",
      gst_bc_format_to_string (format), width, height, FPS);
}

static GstHarness *
enc_harness (GstBcFormat format, guint width, guint height,
    const gchar * sink_caps)
{
  GstHarness *h = gst_harness_new ("hapenc");
  gchar *caps = bc_caps_string (format, width, height);

  gst_harness_set_src_caps_str (h, caps);
  if (sink_caps)
    gst_harness_set_sink_caps_str (h, sink_caps);
  g_free (caps);
  return h;
}

/* the texture of the Hap frame @buf, checked against @info */
static void
check_hap_buffer (GstBuffer * buf, const GstBcInfo * info,
    const guint8 * tex, guint expect_chunks)
{
  GstBcHapFrame frame;
  GstMapInfo map;
  GError *err = NULL;
  guint8 *out = g_malloc (info->size);

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_unless (gst_bc_hap_frame_parse (&frame, map.data, map.size, &err),
      "%s", err ? err->message : "");
  fail_unless_equals_int (frame.format, info->format);
  fail_unless_equals_int (frame.n_chunks, expect_chunks);
  fail_unless (gst_bc_hap_frame_decode (&frame, out, info->size, NULL, &err),
      "%s", err ? err->message : "");
  fail_unless (memcmp (out, tex, info->size) == 0);
  gst_buffer_unmap (buf, &map);
  g_free (out);
}

GST_START_TEST (test_enc)
{
  static const struct
  {
    GstBcFormat format;
    const gchar *name;
  } formats[] = {
    {GST_BC_FORMAT_BC1, "video/x-gst-fourcc-Hap1"},
    {GST_BC_FORMAT_BC3, "video/x-gst-fourcc-Hap5"},
    {GST_BC_FORMAT_YCOCG_BC3, "video/x-gst-fourcc-HapY"},
    {GST_BC_FORMAT_BC4, "video/x-gst-fourcc-HapA"},
    {GST_BC_FORMAT_BC7, "video/x-gst-fourcc-Hap7"},
  };
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstBcInfo info;
    guint8 *tex = test_encode_picture (formats[f].format, 70, 42, f, &info);
    GstHarness *h = enc_harness (formats[f].format, 70, 42, NULL);
    GstStructure *s;
    GstCaps *caps;
    gint v = 0, d = 0;

    gst_harness_set (h, "hapenc", "chunks", 3, NULL);
    for (i = 0; i < 3; i++) {
      GstBuffer *out;

      fail_unless_equals_int (gst_harness_push (h, texture_buffer (&info, tex,
                  i)), GST_FLOW_OK);
      out = gst_harness_pull (h);
      check_hap_buffer (out, &info, tex, 3);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
          gst_util_uint64_scale (i, GST_SECOND, FPS));
      /* qtmux wants a decode time: Hap frames are all key frames */
      fail_unless_equals_uint64 (GST_BUFFER_DTS (out), GST_BUFFER_PTS (out));
      fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), GST_SECOND / FPS);
      fail_if (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_DELTA_UNIT));
      gst_buffer_unref (out);
    }
    /* a peer taking anything gets qtdemux's name of the Hap variant */
    caps = gst_pad_get_current_caps (h->sinkpad);
    s = gst_caps_get_structure (caps, 0);
    fail_unless (gst_structure_has_name (s, formats[f].name), "%"
        GST_PTR_FORMAT, caps);
    fail_unless (gst_structure_get_int (s, "width", &v) && v == 70);
    fail_unless (gst_structure_get_int (s, "height", &v) && v == 42);
    fail_unless (gst_structure_get_fraction (s, "framerate", &v, &d) &&
        v == FPS && d == 1);
    gst_caps_unref (caps);
    gst_harness_teardown (h);
    g_free (tex);
  }
}

GST_END_TEST;

/* hapenc of @tex (@format, @width x @height) for qtmux: video/x-qt-part
 * with the QuickTime code @fourcc; frees @tex */
static void
check_qt_part (GstBcFormat format, guint width, guint height, guint8 * tex,
    const GstBcInfo * info, guint32 want)
{
  GstHarness *h = enc_harness (format, width, height, "video/x-qt-part");
  GstCaps *caps;
  guint fourcc = 0;

  fail_unless_equals_int (gst_harness_push (h, texture_buffer (info, tex,
              0)), GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_structure_has_name (gst_caps_get_structure (caps, 0),
          "video/x-qt-part"));
  fail_unless (gst_structure_get_uint (gst_caps_get_structure (caps, 0),
          "format", &fourcc));
  fail_unless_equals_int (fourcc, want);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  g_free (tex);
}

/* qtmux's caps: video/x-qt-part with the QuickTime code */
GST_START_TEST (test_enc_qt_part)
{
  GstBcInfo info;
  guint8 *tex = test_encode_picture (GST_BC_FORMAT_YCOCG_BC3, 64, 32, 4, &info);

  check_qt_part (GST_BC_FORMAT_YCOCG_BC3, 64, 32, tex, &info,
      GST_MAKE_FOURCC ('H', 'a', 'p', 'Y'));
}

GST_END_TEST;

/* compressor=none, one chunk: a header, then the input's own memory */
GST_START_TEST (test_enc_stored_no_copy)
{
  GstBcInfo info;
  guint8 *tex = test_encode_picture (GST_BC_FORMAT_BC1, 64, 64, 5, &info);
  GstHarness *h = enc_harness (GST_BC_FORMAT_BC1, 64, 64, NULL);
  GstBuffer *in, *out;

  gst_harness_set (h, "hapenc", "compressor", GST_BC_HAP_COMPRESSOR_NONE, NULL);
  in = texture_buffer (&info, tex, 0);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless_equals_int (gst_buffer_get_size (out), 4 + info.size);
  fail_unless_equals_int (gst_buffer_n_memory (out), 2);
  fail_unless (gst_buffer_peek_memory (out, 1) ==
      gst_buffer_peek_memory (in, 0));
  check_hap_buffer (out, &info, tex, 1);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* snappy: smaller, in one piece (a picture without noise, whose blocks
   * repeat: the noisy one's blocks are all different, which Snappy cannot
   * make smaller) */
  g_free (tex);
  {
    guint8 *rgba = test_picture (64, 64, 5, 0, TEST_ALPHA_OPAQUE);

    tex = test_encode (GST_BC_FORMAT_BC1, GST_BC_QUALITY_FAST, rgba,
        &test_rgba_layout, 64, 64, &info);
    g_free (rgba);
  }
  gst_harness_set (h, "hapenc", "compressor", GST_BC_HAP_COMPRESSOR_SNAPPY,
      NULL);
  fail_unless_equals_int (gst_harness_push (h, texture_buffer (&info, tex,
              1)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (gst_buffer_get_size (out) < info.size, "%" G_GSIZE_FORMAT
      " bytes from %u", gst_buffer_get_size (out), info.size);
  check_hap_buffer (out, &info, tex, 1);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (tex);
}

GST_END_TEST;

/* BC5 has no Hap variant */
GST_START_TEST (test_enc_refuses_bc5)
{
  GstHarness *h = gst_harness_new ("hapenc");
  GstCaps *caps = gst_caps_from_string ("video/x-bc, format=BC5, width=8, "
      "height=8, framerate=30/1");

  fail_if (gst_pad_query_accept_caps (h->srcpad->peer, caps));
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

static GstHarness *
dec_harness (const gchar * fourcc, guint width, guint height)
{
  GstHarness *h = gst_harness_new ("hapdec");
  gchar *caps = g_strdup_printf ("video/x-gst-fourcc-%s, width=%u, "
      "height=%u, framerate=%d/1, pixel-aspect-ratio=1/1", fourcc, width,
      height, FPS);

  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
  return h;
}

static GstBuffer *
hap_buffer (const GstBcInfo * info, const guint8 * tex,
    GstBcHapCompressor compressor, guint chunks, guint i)
{
  gsize max = gst_bc_hap_frame_max_size (info, chunks), offset = 0, len;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, max, NULL);
  GstMapInfo map;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  len = gst_bc_hap_frame_compose (info, tex, compressor, chunks, NULL, map.data,
      max, &offset);
  gst_buffer_unmap (buf, &map);
  fail_unless (len > 0);
  gst_buffer_resize (buf, offset, len);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (i, GST_SECOND, FPS);
  GST_BUFFER_DURATION (buf) = GST_SECOND / FPS;
  return buf;
}

/* @buf is the texture of frame @i; its times within @slack (a file's
 * time scale rounds them) */
static void
check_texture_buffer (GstBuffer * buf, const GstBcInfo * info,
    const guint8 * tex, guint i, GstClockTime slack)
{
  GstClockTime pts = gst_util_uint64_scale (i, GST_SECOND, FPS);

  fail_unless_equals_int (gst_buffer_get_size (buf), info->size);
  fail_unless (gst_buffer_memcmp (buf, 0, tex, info->size) == 0);
  fail_unless (GST_CLOCK_TIME_IS_VALID (GST_BUFFER_PTS (buf)));
  fail_unless (GST_CLOCK_DIFF (GST_BUFFER_PTS (buf), pts) <= (gint64) slack
      && GST_CLOCK_DIFF (pts, GST_BUFFER_PTS (buf)) <= (gint64) slack,
      "frame %u at %" GST_TIME_FORMAT, i, GST_TIME_ARGS (GST_BUFFER_PTS (buf)));
  fail_unless (ABS ((gint64) GST_BUFFER_DURATION (buf) - GST_SECOND / FPS)
      <= (gint64) slack);
}

GST_START_TEST (test_dec)
{
  GstBcInfo info;
  guint8 *tex = test_encode_picture (GST_BC_FORMAT_YCOCG_BC3, 90, 50, 6, &info);
  GstHarness *h = dec_harness ("HapY", 90, 50);
  GstBuffer *in, *out;
  GstCaps *caps, *expect;
  GstMapInfo a, b;
  gchar *str;
  guint i;

  for (i = 0; i < 4; i++) {
    fail_unless_equals_int (gst_harness_push (h, hap_buffer (&info, tex,
                GST_BC_HAP_COMPRESSOR_SNAPPY, 1 + i, i)), GST_FLOW_OK);
    out = gst_harness_pull (h);
    check_texture_buffer (out, &info, tex, i, 0);
    gst_buffer_unref (out);
  }
  caps = gst_pad_get_current_caps (h->sinkpad);
  str = bc_caps_string (GST_BC_FORMAT_YCOCG_BC3, 90, 50);
  expect = gst_caps_from_string (str);
  fail_unless (gst_caps_is_equal (caps, expect), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (expect);
  gst_caps_unref (caps);
  g_free (str);

  /* stored as it is: the output is the input's memory, no copy */
  in = hap_buffer (&info, tex, GST_BC_HAP_COMPRESSOR_NONE, 1, 4);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  check_texture_buffer (out, &info, tex, 4, 0);
  fail_unless (gst_buffer_map (in, &a, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &b, GST_MAP_READ));
  fail_unless (b.data == a.data + 4);
  gst_buffer_unmap (out, &b);
  gst_buffer_unmap (in, &a);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  gst_harness_teardown (h);
  g_free (tex);
}

GST_END_TEST;

/* The largest difference between the RGBA-like frame @buf of @vinfo and
 * the library's decoding @ref (packed RGBA), over the colour channels and
 * alpha (not the padding byte of x formats) */
static guint
frame_max_diff (GstBuffer * buf, GstVideoInfo * vinfo, const guint8 * ref)
{
  const GstVideoFormatInfo *finfo = vinfo->finfo;
  guint w = GST_VIDEO_INFO_WIDTH (vinfo), h = GST_VIDEO_INFO_HEIGHT (vinfo);
  guint n_comp = GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo);
  GstVideoFrame frame;
  guint x, y, c, maxdiff = 0;

  fail_unless (gst_video_frame_map (&frame, vinfo, buf, GST_MAP_READ));
  for (y = 0; y < h; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    for (x = 0; x < w; x++)
      for (c = 0; c < n_comp; c++) {
        guint8 got = row[x * 4 + GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c)];
        guint8 want = ref[(y * w + x) * 4 + c];

        maxdiff = MAX (maxdiff, (guint) ABS (got - want));
      }
  }
  gst_video_frame_unmap (&frame);
  return maxdiff;
}

/* hapdec is a video decoder: with downstream that takes only raw video it
 * decodes the texture itself, as the library (and bcdec) does, from
 * Snappy, chunked and stored frames, in the format downstream asks for */
GST_START_TEST (test_dec_raw)
{
  static const struct
  {
    const gchar *fourcc;
    GstBcFormat format;
    const gchar *raw;
  } cases[] = {
    {"Hap1", GST_BC_FORMAT_BC1, "RGBA"},
    {"HapY", GST_BC_FORMAT_YCOCG_BC3, "BGRx"},
    {"Hap5", GST_BC_FORMAT_BC3, "BGRA"},
    {"HapA", GST_BC_FORMAT_BC4, "RGBx"},
    {"Hap7", GST_BC_FORMAT_BC7, "RGBA"},
  };
  static const struct
  {
    GstBcHapCompressor compressor;
    guint chunks;
  } frames[] = {
    {GST_BC_HAP_COMPRESSOR_SNAPPY, 1}, {GST_BC_HAP_COMPRESSOR_SNAPPY, 3},
    {GST_BC_HAP_COMPRESSOR_NONE, 1}, {GST_BC_HAP_COMPRESSOR_NONE, 2},
  };
  guint c, i;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    GstBcInfo info;
    guint8 *tex = test_encode_picture (cases[c].format, 90, 50, 3 + c, &info);
    guint8 *ref = test_decode (&info, tex);
    GstHarness *h = dec_harness (cases[c].fourcc, 90, 50);
    gchar *raw = g_strdup_printf ("video/x-raw, format=%s", cases[c].raw);
    GstVideoInfo vinfo;
    GstCaps *caps;

    gst_harness_set_sink_caps_str (h, raw);
    g_object_set (h->element, "threads", 3, NULL);
    for (i = 0; i < G_N_ELEMENTS (frames); i++) {
      GstBuffer *out;
      guint diff;

      fail_unless_equals_int (gst_harness_push (h, hap_buffer (&info, tex,
                  frames[i].compressor, frames[i].chunks, i)), GST_FLOW_OK);
      out = gst_harness_pull (h);
      caps = gst_pad_get_current_caps (h->sinkpad);
      fail_unless (gst_video_info_from_caps (&vinfo, caps),
          "%" GST_PTR_FORMAT, caps);
      gst_caps_unref (caps);
      fail_unless_equals_string (GST_VIDEO_INFO_NAME (&vinfo), cases[c].raw);
      fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&vinfo), 90);
      fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&vinfo), 50);
      fail_unless_equals_int (GST_VIDEO_INFO_FPS_N (&vinfo), FPS);
      diff = frame_max_diff (out, &vinfo, ref);
      fail_unless (diff == 0, "%s to %s, frame %u: differs by %u",
          cases[c].fourcc, cases[c].raw, i, diff);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
          gst_util_uint64_scale (i, GST_SECOND, FPS));
      gst_buffer_unref (out);
    }
    gst_harness_teardown (h);
    g_free (raw);
    g_free (ref);
    g_free (tex);
  }
}

GST_END_TEST;

/* a decoder, for decodebin, playbin and their 3 versions; the texture
 * first among its outputs */
GST_START_TEST (test_dec_klass)
{
  GstElementFactory *f = gst_element_factory_find ("hapdec");
  GstHarness *h;
  GstCaps *caps;

  fail_unless (f != NULL);
  fail_unless_equals_string (gst_element_factory_get_metadata (f,
          GST_ELEMENT_METADATA_KLASS), "Codec/Decoder/Video");
  fail_unless (gst_element_factory_list_is_type (f,
          GST_ELEMENT_FACTORY_TYPE_DECODER |
          GST_ELEMENT_FACTORY_TYPE_MEDIA_VIDEO));
  fail_if (gst_element_factory_list_is_type (f,
          GST_ELEMENT_FACTORY_TYPE_PARSER));
  gst_object_unref (f);

  /* downstream that takes anything gets the texture */
  h = dec_harness ("Hap1", 16, 16);
  {
    GstBcInfo info;
    guint8 *tex = test_encode_picture (GST_BC_FORMAT_BC1, 16, 16, 1, &info);

    fail_unless_equals_int (gst_harness_push (h, hap_buffer (&info, tex,
                GST_BC_HAP_COMPRESSOR_SNAPPY, 1, 0)), GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (h));
    g_free (tex);
  }
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_structure_has_name (gst_caps_get_structure (caps, 0),
          "video/x-bc"), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

static guint
count_messages (GstHarness * h, GstMessageType type)
{
  GstBus *bus = GST_ELEMENT_BUS (h->element);
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop_filtered (bus, type))) {
    n++;
    gst_message_unref (msg);
  }
  return n;
}

/* damaged frames are dropped with a warning; more than max-errors in a row
 * are an error */
GST_START_TEST (test_dec_damaged)
{
  GstBcInfo info;
  guint8 *tex = test_encode_picture (GST_BC_FORMAT_BC1, 32, 32, 7, &info);
  GstHarness *h = dec_harness ("Hap1", 32, 32);
  GstBus *bus = gst_bus_new ();
  GstBuffer *bad, *other;
  GstBcInfo info3;
  guint8 *tex3 = test_encode_picture (GST_BC_FORMAT_BC3, 32, 32, 7, &info3);
  guint i;

  gst_element_set_bus (h->element, bus);
  g_object_set (h->element, "max-errors", 2, NULL);

  /* a truncated frame, a frame of another texture format */
  bad = hap_buffer (&info, tex, GST_BC_HAP_COMPRESSOR_SNAPPY, 2, 0);
  gst_buffer_resize (bad, 0, gst_buffer_get_size (bad) - 9);
  other = hap_buffer (&info3, tex3, GST_BC_HAP_COMPRESSOR_SNAPPY, 1, 1);

  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (bad)),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (other)),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  fail_unless_equals_int (count_messages (h, GST_MESSAGE_WARNING), 2);
  /* a good frame resets the count */
  fail_unless_equals_int (gst_harness_push (h, hap_buffer (&info, tex,
              GST_BC_HAP_COMPRESSOR_SNAPPY, 1, 2)), GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));
  for (i = 0; i < 2; i++)
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (bad)),
        GST_FLOW_OK);
  fail_unless_equals_int (count_messages (h, GST_MESSAGE_ERROR), 0);
  /* the third in a row */
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (bad)),
      GST_FLOW_ERROR);
  fail_unless_equals_int (count_messages (h, GST_MESSAGE_ERROR), 1);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);

  gst_buffer_unref (bad);
  gst_buffer_unref (other);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  g_free (tex);
  g_free (tex3);
}

GST_END_TEST;

/* Hap Q Alpha is not taken, Hap HDR is */
GST_START_TEST (test_dec_caps)
{
  GstHarness *h = gst_harness_new ("hapdec");
  GstPad *sink = h->srcpad->peer;
  const gchar *refused[] = { "video/x-gst-fourcc-HapM, width=8, height=8",
    "video/x-gst-fourcc-Hap1, width=0, height=8",
  };
  GstCaps *caps;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (refused); i++) {
    caps = gst_caps_from_string (refused[i]);
    fail_if (gst_pad_query_accept_caps (sink, caps), "%s", refused[i]);
    gst_caps_unref (caps);
  }
  caps = gst_caps_from_string ("video/x-gst-fourcc-HapH, width=8, height=8");
  fail_unless (gst_pad_query_accept_caps (sink, caps));
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The sink of @p called "sink", wherever it is (playbin's video-sink is
 * its property until it is playing) */
static GstElement *
get_sink (GstElement * p)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");

  if (!sink && g_object_class_find_property (G_OBJECT_GET_CLASS (p),
          "video-sink")) {
    GstElement *bin = NULL;

    g_object_get (p, "video-sink", &bin, NULL);
    fail_unless (bin != NULL);
    sink = gst_bin_get_by_name (GST_BIN (bin), "sink");
    gst_object_unref (bin);
  }
  fail_unless (sink != NULL, "no sink");
  return sink;
}

/* @desc, a pipeline that decodes the .mov file into RGBA frames in the
 * appsink "sink", gives the @n textures of @tex (alternately) decoded as
 * the library does, at their times; its element "dec" holds the elements
 * of @decoders (space separated), and no other decoder of ours */
static void
check_decoded_file (const gchar * desc, const GstBcInfo * info, guint8 ** tex,
    guint n, const gchar * decoders)
{
  static const gchar *const ours[] = { "hapdec", "bcdec", "glbcupload" };
  GstElement *p = launch (desc), *sink, *dec;
  gchar **want = g_strsplit (decoders, " ", -1);
  GString *found = g_string_new (" ");
  GstIterator *it;
  GValue v = G_VALUE_INIT;
  guint i;

  sink = get_sink (p);
  play (p);
  /* playbin3 adds its video sink once the stream is there (under
   * AddressSanitizer on a loaded machine decodebin's typefinding and
   * plugging take several seconds: a hang guard, not a speed bound) */
  fail_unless_equals_int (gst_element_get_state (p, NULL, NULL,
          3 * PULL_TIMEOUT), GST_STATE_CHANGE_SUCCESS);
  for (i = 0; i < n; i++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        PULL_TIMEOUT);
    guint8 *ref = test_decode (info, tex[i % 2]);
    GstVideoInfo vinfo;
    GstBuffer *buf;
    guint maxdiff;

    fail_unless (sample != NULL, "%s: frame %u of %u", desc, i, n);
    buf = gst_sample_get_buffer (sample);
    fail_unless (gst_video_info_from_caps (&vinfo,
            gst_sample_get_caps (sample)));
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&vinfo), info->width);
    fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&vinfo), info->height);
    maxdiff = frame_max_diff (buf, &vinfo, ref);
    /* bcdec and hapdec give the library's decoding */
    fail_unless (maxdiff == 0, "%s: frame %u differs by %u", desc, i,
        maxdiff);
    fail_unless (ABS ((gint64) GST_BUFFER_PTS (buf) -
            (gint64) gst_util_uint64_scale (i, GST_SECOND, FPS)) <=
        GST_USECOND);
    gst_sample_unref (sample);
    g_free (ref);
  }

  /* (playbin3 on its own is the pipeline) */
  dec = g_str_equal (GST_OBJECT_NAME (p), "dec") ? gst_object_ref (p) :
      get (p, "dec");
  it = gst_bin_iterate_recurse (GST_BIN (dec));
  while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElementFactory *f = gst_element_get_factory (g_value_get_object (&v));

    for (i = 0; f && i < G_N_ELEMENTS (ours); i++)
      if (g_str_equal (GST_OBJECT_NAME (f), ours[i]))
        g_string_append_printf (found, "%s ", ours[i]);
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);
  for (i = 0; i < G_N_ELEMENTS (ours); i++) {
    gchar *needle = g_strdup_printf (" %s ", ours[i]);

    fail_unless ((strstr (found->str, needle) != NULL) ==
        g_strv_contains ((const gchar * const *) want, ours[i]),
        "%s: want%s%s, found%s", desc, *decoders ? " " : "", decoders,
        found->str);
    g_free (needle);
  }
  gst_object_unref (dec);
  gst_object_unref (sink);
  stop (p);
  g_string_free (found, TRUE);
  g_strfreev (want);
}

/* appsrc of @caps ! hapenc chunks=@chunks ! qtmux ! filesink: @n frames,
 * the two textures @tex in turn, into a temporary .mov file, whose path is
 * returned */
static gchar *
write_mov (const gchar * caps, guint chunks, const GstBcInfo * info,
    guint8 * const *tex, guint n)
{
  GstElement *p, *src;
  gchar *path, *desc;
  guint i;
  gint fd;

  fd = g_file_open_tmp ("gst-bc-hap-XXXXXX.mov", &path, NULL);
  fail_unless (fd >= 0);
  close (fd);
  desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" ! "
      "hapenc chunks=%u ! qtmux ! filesink location=%s", caps, chunks, path);
  p = launch (desc);
  src = get (p, "src");
  play (p);
  for (i = 0; i < n; i++)
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
            texture_buffer (info, tex[i % 2], i)), GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  wait_eos (p);
  stop (p);
  gst_object_unref (src);
  g_free (desc);
  return path;
}

/* appsrc ! hapenc ! qtmux ! filesink, then filesrc ! qtdemux ! hapdec,
 * filesrc ! decodebin, filesrc ! decodebin3 and playbin3: the same textures
 * and times come back */
GST_START_TEST (test_mov_round_trip)
{
  const guint n = 12;
  GstBcInfo info;
  guint8 *tex[2];
  gchar *path, *desc, *caps;
  GstElement *p, *sink;
  guint i;

  tex[0] = test_encode_picture (GST_BC_FORMAT_BC1, 200, 120, 1, &info);
  tex[1] = test_encode_picture (GST_BC_FORMAT_BC1, 200, 120, 2, &info);
  caps = bc_caps_string (GST_BC_FORMAT_BC1, 200, 120);
  path = write_mov (caps, 4, &info, tex, n);

  /* the textures, byte for byte, at their times */
  desc = g_strdup_printf ("filesrc location=%s ! qtdemux ! hapdec ! "
      "appsink name=sink sync=false", path);
  p = launch (desc);
  sink = get (p, "sink");
  play (p);
  for (i = 0; i < n; i++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        PULL_TIMEOUT);
    GstBuffer *buf;
    GstCaps *got, *expect = gst_caps_from_string (caps);

    fail_unless (sample != NULL, "frame %u of %u", i, n);
    buf = gst_sample_get_buffer (sample);
    check_texture_buffer (buf, &info, tex[i % 2], i, GST_USECOND);
    got = gst_sample_get_caps (sample);
    fail_unless (gst_caps_is_subset (got, expect) ||
        gst_caps_can_intersect (got, expect), "%" GST_PTR_FORMAT, got);
    gst_caps_unref (expect);
    gst_sample_unref (sample);
  }
  fail_unless (gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
          PULL_TIMEOUT) == NULL);
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)));
  stop (p);
  gst_object_unref (sink);
  g_free (desc);

  /* decodebin picks hapdec, then a decoder of video/x-bc: bcdec here
   * (force-sw-decoders: the GPU's decoding through decodebin is tested in
   * elements_glbcupload and, for Hap files, in tests/hap) */
  desc = g_strdup_printf ("filesrc location=%s ! decodebin name=dec "
      "force-sw-decoders=true ! videoconvert ! "
      "video/x-raw, format=RGBA ! appsink name=sink sync=false", path);
  check_decoded_file (desc, &info, tex, n, "hapdec bcdec");
  g_free (desc);

  /* decodebin3 ends the stream at its decoder, hapdec, which decodes the
   * texture itself (without GL, or with: the same) */
  desc = g_strdup_printf ("filesrc location=%s ! decodebin3 name=dec ! "
      "videoconvert ! video/x-raw, format=RGBA ! appsink name=sink "
      "sync=false", path);
  check_decoded_file (desc, &info, tex, n, "hapdec");
  g_free (desc);

  /* and so playbin3 with a video sink of raw video */
  desc = g_strdup_printf ("playbin3 name=dec uri=file://%s flags=video "
      "video-sink=\"videoconvert ! video/x-raw, format=RGBA ! appsink "
      "name=sink sync=false\"", path);
  check_decoded_file (desc, &info, tex, n, "hapdec");
  g_free (desc);

  g_unlink (path);
  g_free (path);
  g_free (caps);
  g_free (tex[0]);
  g_free (tex[1]);
}

GST_END_TEST;

/* linear light with DCI-P3 primaries (bc6henc's output colorimetry for a
 * P3 input): not what caps without one would say */
static gchar *
hdr_colorimetry (void)
{
  GstVideoColorimetry cm = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_RGB, GST_VIDEO_TRANSFER_GAMMA10,
    GST_VIDEO_COLOR_PRIMARIES_SMPTERP431
  };

  return gst_video_colorimetry_to_string (&cm);
}

/* caps of @format (a string), @width x @height, with @colorimetry */
static gchar *
hdr_caps_string (const gchar * media, const gchar * format, guint width,
    guint height, const gchar * colorimetry)
{
  return g_strdup_printf ("%s, %s%s%swidth=%u, height=%u, framerate=%d/1, "
      "pixel-aspect-ratio=1/1, colorimetry=%s", media,
      format ? "format=" : "", format ? format : "", format ? ", " : "",
      width, height, FPS, colorimetry);
}

/* @pad's current caps: @name, @format (if not NULL) and @colorimetry */
static void
check_caps (GstPad * pad, const gchar * name, const gchar * format,
    const gchar * colorimetry)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstStructure *s;

  fail_unless (caps != NULL);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_caps_is_fixed (caps), "%" GST_PTR_FORMAT, caps);
  fail_unless (gst_structure_has_name (s, name), "%" GST_PTR_FORMAT, caps);
  if (format)
    fail_unless_equals_string (gst_structure_get_string (s, "format"),
        format);
  fail_unless_equals_string (gst_structure_get_string (s, "colorimetry"),
      colorimetry);
  gst_caps_unref (caps);
}

/* hapenc writes BC6H and BC6H-SF as HapH (section types 0x_2, 0x_3), the
 * caps' colorimetry kept; hapdec gives back the blocks, in the caps of
 * their format, with the colorimetry */
GST_START_TEST (test_hdr)
{
  static const GstBcFormat formats[] = {
    GST_BC_FORMAT_BC6H, GST_BC_FORMAT_BC6H_SF
  };
  static const struct
  {
    GstBcHapCompressor compressor;
    guint chunks;
    guint8 store;
  } frames[] = {
    {GST_BC_HAP_COMPRESSOR_SNAPPY, 1, 0xB}, {GST_BC_HAP_COMPRESSOR_NONE, 1,
        0xA}, {GST_BC_HAP_COMPRESSOR_SNAPPY, 4, 0xC},
  };
  gchar *cm = hdr_colorimetry ();
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    const gchar *fmt = gst_bc_format_to_string (formats[f]);
    GstBcInfo info;
    guint8 *tex = test_bc6h_blocks (formats[f], 96, 40, f, &info);
    gchar *caps = hdr_caps_string ("video/x-bc", fmt, 96, 40, cm);
    GstHarness *enc = gst_harness_new ("hapenc");
    GstHarness *dec = gst_harness_new ("hapdec");
    GstCaps *hap_caps;

    gst_harness_set_src_caps_str (enc, caps);
    for (i = 0; i < G_N_ELEMENTS (frames); i++) {
      GstBcHapFrame frame;
      GstBuffer *hap, *out;
      GstMapInfo map;

      gst_harness_set (enc, "hapenc", "compressor", frames[i].compressor,
          "chunks", frames[i].chunks, NULL);
      fail_unless_equals_int (gst_harness_push (enc, texture_buffer (&info,
                  tex, i)), GST_FLOW_OK);
      hap = gst_harness_pull (enc);
      check_hap_buffer (hap, &info, tex, frames[i].chunks);
      fail_unless (gst_buffer_map (hap, &map, GST_MAP_READ));
      fail_unless (gst_bc_hap_frame_parse (&frame, map.data, map.size, NULL));
      fail_unless_equals_int (frame.type, frames[i].store << 4 |
          (formats[f] == GST_BC_FORMAT_BC6H ? 0x2 : 0x3));
      gst_buffer_unmap (hap, &map);
      check_caps (enc->sinkpad, "video/x-gst-fourcc-HapH", NULL, cm);

      /* hapdec, with the caps hapenc gave */
      if (i == 0) {
        hap_caps = gst_pad_get_current_caps (enc->sinkpad);
        gst_harness_set_src_caps (dec, hap_caps);
      }
      fail_unless_equals_int (gst_harness_push (dec, hap), GST_FLOW_OK);
      out = gst_harness_pull (dec);
      check_texture_buffer (out, &info, tex, i, 0);
      check_caps (dec->sinkpad, "video/x-bc", fmt, cm);
      gst_buffer_unref (out);
    }
    gst_harness_teardown (dec);
    gst_harness_teardown (enc);
    g_free (caps);
    g_free (tex);
  }
  g_free (cm);
}

GST_END_TEST;

/* qtmux's caps for Hap HDR: video/x-qt-part, format HapH */
GST_START_TEST (test_hdr_enc_qt_part)
{
  GstBcInfo info;
  guint8 *tex = test_bc6h_blocks (GST_BC_FORMAT_BC6H_SF, 16, 8, 3, &info);

  check_qt_part (GST_BC_FORMAT_BC6H_SF, 16, 8, tex, &info,
      GST_BC_HAP_FOURCC_HAPH);
}

GST_END_TEST;

/* HapH caps say BC6H or BC6H-SF, the frames which: a frame of the other
 * format renegotiates the texture's caps before it is passed on (stored
 * frames too, without a copy) */
GST_START_TEST (test_hdr_dec_switch)
{
  static const GstBcFormat order[] = {
    GST_BC_FORMAT_BC6H_SF, GST_BC_FORMAT_BC6H_SF, GST_BC_FORMAT_BC6H,
    GST_BC_FORMAT_BC6H_SF,
  };
  gchar *cm = hdr_colorimetry ();
  gchar *caps = hdr_caps_string ("video/x-gst-fourcc-HapH", NULL, 64, 24, cm);
  GstHarness *h = gst_harness_new ("hapdec");
  GstBus *bus = gst_bus_new ();
  GstBcInfo info[2];
  guint8 *tex[2];
  guint i;

  gst_element_set_bus (h->element, bus);
  tex[0] = test_bc6h_blocks (GST_BC_FORMAT_BC6H, 64, 24, 10, &info[0]);
  tex[1] = test_bc6h_blocks (GST_BC_FORMAT_BC6H_SF, 64, 24, 11, &info[1]);
  gst_harness_set_src_caps_str (h, caps);
  for (i = 0; i < G_N_ELEMENTS (order); i++) {
    guint t = order[i] == GST_BC_FORMAT_BC6H ? 0 : 1;
    GstBuffer *out;

    fail_unless_equals_int (gst_harness_push (h, hap_buffer (&info[t], tex[t],
                i % 2 ? GST_BC_HAP_COMPRESSOR_NONE :
                GST_BC_HAP_COMPRESSOR_SNAPPY, 1 + i, i)), GST_FLOW_OK);
    out = gst_harness_pull (h);
    check_texture_buffer (out, &info[t], tex[t], i, 0);
    check_caps (h->sinkpad, "video/x-bc", gst_bc_format_to_string (order[i]),
        cm);
    gst_buffer_unref (out);
  }
  fail_unless_equals_int (count_messages (h, GST_MESSAGE_WARNING |
          GST_MESSAGE_ERROR), 0);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  g_free (tex[0]);
  g_free (tex[1]);
  g_free (caps);
  g_free (cm);
}

GST_END_TEST;

/* downstream that takes BC6H only (a capsfilter of it): a BC6H-SF frame
 * is an error naming the format */
GST_START_TEST (test_hdr_dec_refused)
{
  GstHarness *h = gst_harness_new ("hapdec");
  GstBus *bus = gst_bus_new ();
  GstBcInfo info;
  guint8 *tex = test_bc6h_blocks (GST_BC_FORMAT_BC6H_SF, 16, 16, 12, &info);
  GstMessage *msg;

  gst_element_set_bus (h->element, bus);
  gst_harness_set_sink_caps_str (h, "video/x-bc, format=BC6H");
  gst_harness_set_src_caps_str (h, "video/x-gst-fourcc-HapH, width=16, "
      "height=16, framerate=30/1");
  fail_unless_equals_int (gst_harness_push (h, hap_buffer (&info, tex,
              GST_BC_HAP_COMPRESSOR_SNAPPY, 1, 0)), GST_FLOW_NOT_NEGOTIATED);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  msg = check_error_message (bus, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "BC6H-SF", NULL);
  gst_message_unref (msg);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  g_free (tex);
}

GST_END_TEST;

/* raw output: BC6H and BC6H-SF frames tone-mapped as the library (and
 * bcdec) does, with bcdec's colorimetry: sRGB, the texture's primaries */
GST_START_TEST (test_hdr_dec_raw)
{
  gchar *cm = hdr_colorimetry ();
  gchar *caps = hdr_caps_string ("video/x-gst-fourcc-HapH", NULL, 40, 20, cm);
  GstVideoColorimetry want = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_RGB, GST_VIDEO_TRANSFER_SRGB,
    GST_VIDEO_COLOR_PRIMARIES_SMPTERP431
  };
  gchar *want_cm = gst_video_colorimetry_to_string (&want);
  GstHarness *h = gst_harness_new ("hapdec");
  GstBcInfo info[2];
  guint8 *tex[2], *ref[2];
  guint i;

  tex[0] = test_bc6h_blocks (GST_BC_FORMAT_BC6H, 40, 20, 20, &info[0]);
  tex[1] = test_bc6h_blocks (GST_BC_FORMAT_BC6H_SF, 40, 20, 20, &info[1]);
  ref[0] = test_decode (&info[0], tex[0]);
  ref[1] = test_decode (&info[1], tex[1]);
  /* the same bits, read signed or unsigned, are other pictures */
  fail_unless (memcmp (ref[0], ref[1], 40 * 20 * 4) != 0);
  gst_harness_set_sink_caps_str (h, "video/x-raw, format=RGBA");
  gst_harness_set_src_caps_str (h, caps);
  for (i = 0; i < 4; i++) {
    guint t = i == 1 || i == 2;
    GstVideoInfo vinfo;
    GstCaps *out_caps;
    GstBuffer *out;
    guint diff;

    fail_unless_equals_int (gst_harness_push (h, hap_buffer (&info[t], tex[t],
                i == 2 ? GST_BC_HAP_COMPRESSOR_NONE :
                GST_BC_HAP_COMPRESSOR_SNAPPY, 1 + i, i)), GST_FLOW_OK);
    out = gst_harness_pull (h);
    check_caps (h->sinkpad, "video/x-raw", "RGBA", want_cm);
    out_caps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (gst_video_info_from_caps (&vinfo, out_caps));
    gst_caps_unref (out_caps);
    diff = frame_max_diff (out, &vinfo, ref[t]);
    fail_unless (diff == 0, "frame %u (%s) differs by %u", i,
        gst_bc_format_to_string (info[t].format), diff);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
  for (i = 0; i < 2; i++) {
    g_free (tex[i]);
    g_free (ref[i]);
  }
  g_free (want_cm);
  g_free (caps);
  g_free (cm);
}

GST_END_TEST;

/* bc6henc ! hapenc ! hapdec gives bc6henc's blocks and caps (colorimetry
 * included); appsrc of BC6H-SF blocks ! hapenc ! qtmux, read back by
 * qtdemux ! hapdec, gives the blocks as BC6H-SF */
GST_START_TEST (test_hdr_pipeline)
{
  static const gchar *const fields[] = { "format", "width", "height",
    "framerate", "colorimetry"
  };
  const guint n = 6;
  GstElement *p, *direct, *sink;
  GstBcInfo info;
  guint8 *tex[2];
  gchar *path, *desc, *caps;
  guint i;

  p = launch ("videotestsrc num-buffers=3 pattern=smpte ! "
      "video/x-raw, format=RGBA64_LE, width=64, height=32, framerate=30/1, "
      "colorimetry=bt2100-pq ! bc6henc quality=fast ! tee name=t ! queue ! "
      "appsink name=direct sync=false  t. ! queue ! hapenc chunks=2 ! "
      "hapdec ! appsink name=sink sync=false");
  direct = get (p, "direct");
  sink = get (p, "sink");
  play (p);
  for (i = 0; i < 3; i++) {
    GstSample *a = gst_app_sink_try_pull_sample (GST_APP_SINK (direct),
        PULL_TIMEOUT);
    GstSample *b = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        PULL_TIMEOUT);
    const GstStructure *sa, *sb;
    GstMapInfo map;
    guint f;

    fail_unless (a != NULL && b != NULL, "frame %u", i);
    sa = gst_caps_get_structure (gst_sample_get_caps (a), 0);
    sb = gst_caps_get_structure (gst_sample_get_caps (b), 0);
    for (f = 0; f < G_N_ELEMENTS (fields); f++) {
      fail_unless (gst_structure_has_field (sa, fields[f]), "%s", fields[f]);
      fail_unless (gst_value_compare (gst_structure_get_value (sa, fields[f]),
              gst_structure_get_value (sb, fields[f])) == GST_VALUE_EQUAL,
          "%s", fields[f]);
    }
    fail_unless (gst_buffer_map (gst_sample_get_buffer (a), &map,
            GST_MAP_READ));
    fail_unless_equals_int (gst_buffer_get_size (gst_sample_get_buffer (b)),
        map.size);
    fail_unless (gst_buffer_memcmp (gst_sample_get_buffer (b), 0, map.data,
            map.size) == 0);
    gst_buffer_unmap (gst_sample_get_buffer (a), &map);
    gst_sample_unref (a);
    gst_sample_unref (b);
  }
  wait_eos (p);
  gst_object_unref (direct);
  gst_object_unref (sink);
  stop (p);

  /* the .mov file */
  tex[0] = test_bc6h_blocks (GST_BC_FORMAT_BC6H_SF, 80, 48, 30, &info);
  tex[1] = test_bc6h_blocks (GST_BC_FORMAT_BC6H_SF, 80, 48, 31, &info);
  caps = bc_caps_string (GST_BC_FORMAT_BC6H_SF, 80, 48);
  path = write_mov (caps, 3, &info, tex, n);

  desc = g_strdup_printf ("filesrc location=%s ! qtdemux ! hapdec ! "
      "appsink name=sink sync=false", path);
  p = launch (desc);
  sink = get (p, "sink");
  play (p);
  for (i = 0; i < n; i++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        PULL_TIMEOUT);
    GstStructure *s;

    fail_unless (sample != NULL, "frame %u of %u", i, n);
    check_texture_buffer (gst_sample_get_buffer (sample), &info, tex[i % 2],
        i, GST_USECOND);
    s = gst_caps_get_structure (gst_sample_get_caps (sample), 0);
    fail_unless_equals_string (gst_structure_get_string (s, "format"),
        "BC6H-SF");
    gst_sample_unref (sample);
  }
  fail_unless (gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
          PULL_TIMEOUT) == NULL);
  stop (p);
  gst_object_unref (sink);
  g_free (desc);
  g_unlink (path);
  g_free (path);
  g_free (caps);
  g_free (tex[0]);
  g_free (tex[1]);
}

GST_END_TEST;

static Suite *
hap_suite (void)
{
  Suite *s = suite_create ("hap");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_enc);
  tcase_add_test (tc, test_enc_qt_part);
  tcase_add_test (tc, test_enc_stored_no_copy);
  tcase_add_test (tc, test_enc_refuses_bc5);
  tcase_add_test (tc, test_dec);
  tcase_add_test (tc, test_dec_raw);
  tcase_add_test (tc, test_dec_klass);
  tcase_add_test (tc, test_dec_damaged);
  tcase_add_test (tc, test_dec_caps);
  tcase_add_test (tc, test_mov_round_trip);
  tcase_add_test (tc, test_hdr);
  tcase_add_test (tc, test_hdr_enc_qt_part);
  tcase_add_test (tc, test_hdr_dec_switch);
  tcase_add_test (tc, test_hdr_dec_refused);
  tcase_add_test (tc, test_hdr_dec_raw);
  tcase_add_test (tc, test_hdr_pipeline);
  return s;
}

GST_CHECK_MAIN (hap);
