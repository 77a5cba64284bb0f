/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Element tests of bcdec: output against the library decoder for every
 * format, odd size and output format, caps, timestamps, wrong-size input,
 * threads, and an encode/decode pipeline. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbctest.h"
#include <gst/check/gstharness.h>

static const GstBcFormat all_formats[] = {
  GST_BC_FORMAT_BC1, GST_BC_FORMAT_YCOCG_BC3, GST_BC_FORMAT_BC3,
  GST_BC_FORMAT_BC4, GST_BC_FORMAT_BC5, GST_BC_FORMAT_BC7,
};

/* A frame of @format: blocks from the library encoder when it has one,
 * random bytes otherwise (every bit pattern is a block). */
static guint8 *
make_frame (GstBcFormat format, guint width, guint height, guint32 seed,
    GstBcInfo * info)
{
  guint32 state = seed;
  guint8 *data;
  gsize i;

  if (gst_bc_encode_format_supported (format)) {
    guint8 *pic = g_malloc ((gsize) width * height * 4);
    guint x, y;

    for (y = 0; y < height; y++) {
      for (x = 0; x < width; x++) {
        guint8 *px = pic + ((gsize) y * width + x) * 4;
        px[0] = (x * 255) / MAX (width - 1, 1);
        px[1] = (y * 255) / MAX (height - 1, 1);
        px[2] = test_lcg_next (&state) & 0xff;
        px[3] = ((x + y) * 40) & 0xff;
      }
    }
    data = test_encode (format, GST_BC_QUALITY_NORMAL, pic, &test_rgba_layout,
        width, height, info);
    g_free (pic);
  } else {
    gst_bc_info_init (info);
    fail_unless (gst_bc_info_set_format (info, format, width, height));
    data = g_malloc (info->size);
    for (i = 0; i < info->size; i++)
      data[i] = test_lcg_next (&state) & 0xff;
  }
  return data;
}

static GstHarness *
harness_new (guint threads)
{
  GstElement *element = gst_element_factory_make ("bcdec", NULL);
  GstHarness *h;

  fail_unless (element != NULL);
  g_object_set (element, "threads", threads, NULL);
  h = gst_harness_new_with_element (element, "sink", "src");
  gst_object_unref (element);
  return h;
}

static void
set_bc_caps (GstHarness * h, GstBcFormat format, guint width, guint height)
{
  gchar *str = g_strdup_printf ("video/x-bc, format=%s, width=%u, "
      "height=%u, framerate=25/1, pixel-aspect-ratio=16/15",
      gst_bc_format_to_string (format), width, height);

  gst_harness_set_src_caps (h, gst_caps_from_string (str));
  g_free (str);
}

static GstBuffer *
wrap (const guint8 * data, gsize size)
{
  if (size == 0)
    return gst_buffer_new ();
  return gst_buffer_new_memdup (data, size);
}

/* Compares a decoded raw frame with the RGBA reference channel by channel;
 * padding bytes of RGBx/BGRx must be 255. */
static void
check_frame (GstBuffer * buf, GstCaps * caps, const guint8 * ref,
    guint width, guint height, const gchar * what)
{
  GstVideoInfo vinfo;
  GstVideoFrame frame;
  GstBcPixelLayout layout;
  guint x, y;

  fail_unless (gst_video_info_from_caps (&vinfo, caps));
  fail_unless (gst_bc_pixel_layout_from_video_format (&layout,
          GST_VIDEO_INFO_FORMAT (&vinfo)));
  fail_unless (gst_video_frame_map (&frame, &vinfo, buf, GST_MAP_READ));

  for (y = 0; y < height; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        0) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    for (x = 0; x < width; x++) {
      const guint8 *p = row + (gsize) x * 4;
      const guint8 *r = ref + ((gsize) y * width + x) * 4;

      fail_unless (p[layout.r] == r[0] && p[layout.g] == r[1] &&
          p[layout.b] == r[2], "%s: pixel %u,%u is %u,%u,%u, expected "
          "%u,%u,%u", what, x, y, p[layout.r], p[layout.g], p[layout.b],
          r[0], r[1], r[2]);
      if (layout.a >= 0)
        fail_unless_equals_int (p[layout.a], r[3]);
      if (layout.x >= 0)
        fail_unless_equals_int (p[layout.x], 255);
    }
  }
  gst_video_frame_unmap (&frame);
}

static void
check_output_caps (GstCaps * caps, const gchar * format, gint width,
    gint height)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  gint v, n, d;

  fail_unless (gst_structure_has_name (s, "video/x-raw"));
  fail_unless_equals_string (gst_structure_get_string (s, "format"), format);
  fail_unless (gst_structure_get_int (s, "width", &v));
  fail_unless_equals_int (v, width);
  fail_unless (gst_structure_get_int (s, "height", &v));
  fail_unless_equals_int (v, height);
  fail_unless (gst_structure_get_fraction (s, "framerate", &n, &d));
  fail_unless_equals_int (n, 25);
  fail_unless_equals_int (d, 1);
  fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &n, &d));
  fail_unless_equals_int (n, 16);
  fail_unless_equals_int (d, 15);
}

/* Pushes the frame @data of @info into @h and pulls the decoded frame,
 * which must be @ref, with caps of the raw @format (unless NULL) */
static GstBuffer *
push_and_check (GstHarness * h, const GstBcInfo * info, const guint8 * data,
    const guint8 * ref, const gchar * format, const gchar * what)
{
  GstBuffer *out;
  GstCaps *caps;

  fail_unless_equals_int (gst_harness_push (h, wrap (data, info->size)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps != NULL);
  if (format)
    check_output_caps (caps, format, info->width, info->height);
  check_frame (out, caps, ref, info->width, info->height, what);
  gst_caps_unref (caps);
  return out;
}

GST_START_TEST (test_decode_matches_library)
{
  static const guint sizes[][2] = { {1, 1}, {3, 5}, {30, 26} };
  static const gchar *out_formats[] = { "RGBA", "BGRA", "RGBx", "BGRx" };
  guint f, s, o;

  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      guint w = sizes[s][0], hh = sizes[s][1];
      GstBcInfo info;
      guint8 *data = make_frame (all_formats[f], w, hh, 17 * f + s, &info);
      guint8 *ref = test_decode (&info, data);

      for (o = 0; o < G_N_ELEMENTS (out_formats); o++) {
        GstHarness *h = harness_new (0);
        gchar *sink_caps = g_strdup_printf ("video/x-raw, format=%s",
            out_formats[o]);
        gchar *what = g_strdup_printf ("%s %ux%u to %s",
            gst_bc_format_to_string (all_formats[f]), w, hh, out_formats[o]);

        gst_harness_set_sink_caps (h, gst_caps_from_string (sink_caps));
        set_bc_caps (h, all_formats[f], w, hh);
        gst_buffer_unref (push_and_check (h, &info, data, ref,
                out_formats[o], what));
        g_free (what);
        g_free (sink_caps);
        gst_harness_teardown (h);
      }
      g_free (ref);
      g_free (data);
    }
  }
}

GST_END_TEST;

/* bcdec decodes a BC1 frame into @format when downstream takes @sink_caps
 * (NULL: anything) */
static void
check_output_format (const gchar * sink_caps, const gchar * format)
{
  GstHarness *h = harness_new (0);
  GstBcInfo info;
  guint8 *data = make_frame (GST_BC_FORMAT_BC1, 8, 8, 1, &info);
  GstCaps *caps;

  if (sink_caps)
    gst_harness_set_sink_caps (h, gst_caps_from_string (sink_caps));
  set_bc_caps (h, GST_BC_FORMAT_BC1, 8, 8);
  fail_unless_equals_int (gst_harness_push (h, wrap (data, info.size)),
      GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));
  caps = gst_pad_get_current_caps (h->sinkpad);
  check_output_caps (caps, format, 8, 8);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  g_free (data);
}

GST_START_TEST (test_default_output_format)
{
  /* a peer that takes anything gets RGBA */
  check_output_format (NULL, "RGBA");
  /* downstream's order of preference wins */
  check_output_format ("video/x-raw, format={ I420, BGRx, RGBA }", "BGRx");
}

GST_END_TEST;

GST_START_TEST (test_timestamps)
{
  const GstClockTime dur = GST_SECOND / 25;
  GstHarness *h = harness_new (0);
  GstBcInfo info;
  guint8 *data = make_frame (GST_BC_FORMAT_BC7, 30, 26, 3, &info);
  guint i;

  set_bc_caps (h, GST_BC_FORMAT_BC7, 30, 26);
  for (i = 0; i < 5; i++) {
    GstBuffer *in = wrap (data, info.size);
    GstBuffer *out;

    GST_BUFFER_PTS (in) = GST_SECOND + i * dur;
    GST_BUFFER_DTS (in) = GST_SECOND + i * dur;
    GST_BUFFER_DURATION (in) = dur;
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_SECOND + i * dur);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), dur);
    fail_if (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_DELTA_UNIT));
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
  g_free (data);
}

GST_END_TEST;

static void
check_wrong_size (gsize size, GstBcFormat format, guint width, guint height)
{
  GstHarness *h = harness_new (0);
  GstBus *bus = gst_bus_new ();
  GstBcInfo info;
  guint8 *data = make_frame (format, width, height, 5, &info);
  guint8 *bad = g_malloc0 (MAX (size, 1));
  gchar *actual, *expected;

  memcpy (bad, data, MIN (size, info.size));
  gst_element_set_bus (h->element, bus);
  set_bc_caps (h, format, width, height);

  fail_unless_equals_int (gst_harness_push (h, wrap (bad, size)),
      GST_FLOW_ERROR);
  fail_unless (gst_harness_try_pull (h) == NULL);

  /* the actual and the expected size */
  actual = g_strdup_printf (" %" G_GSIZE_FORMAT " ", size);
  expected = g_strdup_printf (" %" G_GSIZE_FORMAT " ", info.size);
  gst_message_unref (check_error_message (bus, GST_STREAM_ERROR,
          GST_STREAM_ERROR_DECODE, actual, expected, NULL));
  g_free (actual);
  g_free (expected);

  /* the element is still usable afterwards */
  fail_unless_equals_int (gst_harness_push (h, wrap (data, info.size)),
      GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  g_free (bad);
  g_free (data);
}

GST_START_TEST (test_wrong_size)
{
  /* 30x26 BC1 is 8 x 7 blocks of 8 bytes = 448 bytes */
  check_wrong_size (447, GST_BC_FORMAT_BC1, 30, 26);
  check_wrong_size (100, GST_BC_FORMAT_BC1, 30, 26);
  check_wrong_size (449, GST_BC_FORMAT_BC1, 30, 26);
  check_wrong_size (4480, GST_BC_FORMAT_BC1, 30, 26);
  /* 1x1 BC7 is one 16 byte block */
  check_wrong_size (8, GST_BC_FORMAT_BC7, 1, 1);
  check_wrong_size (17, GST_BC_FORMAT_BC7, 1, 1);
  check_wrong_size (1, GST_BC_FORMAT_YCOCG_BC3, 3, 5);
}

GST_END_TEST;

GST_START_TEST (test_empty_buffer)
{
  check_wrong_size (0, GST_BC_FORMAT_BC5, 30, 26);
}

GST_END_TEST;

static guint8 *
decode_with_element (GstBcFormat format, const guint8 * data, gsize size,
    guint width, guint height, guint threads)
{
  GstHarness *h = harness_new (threads);
  GstBuffer *out;
  GstMapInfo map;
  guint8 *copy;

  gst_harness_set_sink_caps (h,
      gst_caps_from_string ("video/x-raw, format=BGRx"));
  set_bc_caps (h, format, width, height);
  fail_unless_equals_int (gst_harness_push (h, wrap (data, size)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  copy = g_memdup2 (map.data, map.size);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  return copy;
}

GST_START_TEST (test_threads_identical)
{
  static const guint threads[] = { 2, 3, 8, 0 };
  /* 45 block rows */
  const guint w = 203, hh = 178;
  guint f, t;

  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    GstBcInfo info;
    guint8 *data = make_frame (all_formats[f], w, hh, 99 + f, &info);
    guint8 *ref = decode_with_element (all_formats[f], data, info.size, w, hh,
        1);
    guint8 *direct = test_decode (&info, data);
    GstVideoInfo vinfo;
    guint y, x;

    /* threads=1 is right, */
    gst_video_info_set_format (&vinfo, GST_VIDEO_FORMAT_BGRx, w, hh);
    for (y = 0; y < hh; y++) {
      for (x = 0; x < w; x++) {
        const guint8 *p = ref + (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE
            (&vinfo, 0) + x * 4;
        const guint8 *r = direct + ((gsize) y * w + x) * 4;
        fail_unless (p[2] == r[0] && p[1] == r[1] && p[0] == r[2],
            "%s: pixel %u,%u differs", gst_bc_format_to_string
            (all_formats[f]), x, y);
      }
    }
    /* and every other thread count gives the same */
    for (t = 0; t < G_N_ELEMENTS (threads); t++) {
      guint8 *got = decode_with_element (all_formats[f], data, info.size, w,
          hh, threads[t]);

      fail_unless (memcmp (got, ref, GST_VIDEO_INFO_SIZE (&vinfo)) == 0,
          "%s: threads=%u differs from threads=1",
          gst_bc_format_to_string (all_formats[f]), threads[t]);
      g_free (got);
    }
    g_free (direct);
    g_free (ref);
    g_free (data);
  }
}

GST_END_TEST;

/* Answers the allocation query with a video pool whose rows are padded, so
 * the decoder must write with the stride of the buffers it gets. */
static GstPadQueryFunction harness_sink_query;

static gboolean
padded_pool_query (GstPad * pad, GstObject * parent, GstQuery * query)
{
  GstCaps *caps;
  GstVideoInfo vinfo;
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoAlignment align;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return harness_sink_query (pad, parent, query);

  gst_query_parse_allocation (query, &caps, NULL);
  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (&vinfo, caps));

  gst_video_alignment_reset (&align);
  align.padding_right = 13;
  align.padding_bottom = 3;
  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, vinfo.size, 0, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
  gst_buffer_pool_config_set_video_alignment (config, &align);
  fail_unless (gst_buffer_pool_set_config (pool, config));

  gst_query_add_allocation_pool (query, pool, vinfo.size, 0, 0);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_object_unref (pool);
  return TRUE;
}

GST_START_TEST (test_output_stride)
{
  static const guint sizes[][2] = { {30, 26}, {1, 1}, {3, 5} };
  guint s, f;

  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      guint w = sizes[s][0], hh = sizes[s][1];
      GstHarness *h = harness_new (0);
      GstBcInfo info;
      guint8 *data = make_frame (all_formats[f], w, hh, 31 + s, &info);
      guint8 *ref = test_decode (&info, data);
      GstVideoMeta *meta;
      GstBuffer *out;

      harness_sink_query = GST_PAD_QUERYFUNC (h->sinkpad);
      gst_pad_set_query_function (h->sinkpad, padded_pool_query);
      gst_harness_set_sink_caps (h,
          gst_caps_from_string ("video/x-raw, format=BGRA"));
      set_bc_caps (h, all_formats[f], w, hh);
      out = push_and_check (h, &info, data, ref, NULL, "padded rows");
      meta = gst_buffer_get_video_meta (out);
      fail_unless (meta != NULL, "the padded pool was not used");
      fail_unless (meta->stride[0] > (gint) w * 4, "stride %d is not padded",
          meta->stride[0]);
      gst_buffer_unref (out);
      g_free (ref);
      g_free (data);
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_caps_change)
{
  static const struct
  {
    GstBcFormat format;
    guint w, h;
  } steps[] = {
    {GST_BC_FORMAT_BC1, 30, 26}, {GST_BC_FORMAT_BC7, 1, 1},
    {GST_BC_FORMAT_BC5, 64, 36}, {GST_BC_FORMAT_BC1, 30, 26},
  };
  GstHarness *h = harness_new (0);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    GstBcInfo info;
    guint8 *data = make_frame (steps[i].format, steps[i].w, steps[i].h, i,
        &info);
    guint8 *ref = test_decode (&info, data);

    set_bc_caps (h, steps[i].format, steps[i].w, steps[i].h);
    gst_buffer_unref (push_and_check (h, &info, data, ref, "RGBA",
            "after caps change"));
    g_free (ref);
    g_free (data);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_invalid_caps)
{
  static const gchar *bad[] = {
    "video/x-bc, format=DXT9, width=8, height=8, framerate=25/1",
    "video/x-bc, format=BC1, width=0, height=8, framerate=25/1",
    "video/x-raw, format=RGBA, width=8, height=8, framerate=25/1",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GstHarness *h = harness_new (0);
    GstCaps *caps = gst_caps_from_string (bad[i]);
    GstSegment segment;

    /* the refusal of a sticky event shows when data flows */
    gst_pad_push_event (h->srcpad, gst_event_new_caps (caps));
    gst_caps_unref (caps);
    gst_segment_init (&segment, GST_FORMAT_TIME);
    gst_pad_push_event (h->srcpad, gst_event_new_segment (&segment));
    fail_unless_equals_int (gst_harness_push (h,
            gst_buffer_new_allocate (NULL, 32, NULL)), GST_FLOW_NOT_NEGOTIATED);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* A frame too large for GStreamer to describe decoded (a hostile
 * sender's caps, through tilesrc) is a clear error, not a crash. */
GST_START_TEST (test_huge_caps)
{
  GstHarness *h = harness_new (0);
  GstCaps *caps = gst_caps_from_string ("video/x-bc, format=BC1, "
      "width=65536, height=32768, framerate=25/1");
  GstBus *bus = gst_bus_new ();
  GstSegment segment;
  GstMessage *msg;
  GError *err = NULL;

  gst_element_set_bus (h->element, bus);
  gst_pad_push_event (h->srcpad, gst_event_new_caps (caps));
  gst_caps_unref (caps);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_pad_push_event (h->srcpad, gst_event_new_segment (&segment));
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, 32, NULL)), GST_FLOW_NOT_NEGOTIATED);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, GST_STREAM_ERROR,
          GST_STREAM_ERROR_FORMAT));
  fail_unless (strstr (err->message, "65536x32768") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_pipeline)
{
  GstElement *pipeline;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;

  pipeline = gst_parse_launch ("videotestsrc num-buffers=5 ! "
      "video/x-raw,width=1918,height=1078 ! bc1enc ! bcdec ! videoconvert ! "
      "fakesink", &err);
  fail_unless (pipeline != NULL, "%s", err ? err->message : "");
  fail_unless (err == NULL, "%s", err ? err->message : "");

  play (pipeline);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL, "no EOS within 60 s");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *debug = NULL;
    gst_message_parse_error (msg, &err, &debug);
    fail ("error: %s (%s)", err->message, GST_STR_NULL (debug));
  }
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_object_unref (bus);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static Suite *
bcdec_suite (void)
{
  Suite *s = suite_create ("bcdec");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_decode_matches_library);
  tcase_add_test (tc, test_default_output_format);
  tcase_add_test (tc, test_timestamps);
  tcase_add_test (tc, test_wrong_size);
  tcase_add_test (tc, test_empty_buffer);
  tcase_add_test (tc, test_threads_identical);
  tcase_add_test (tc, test_output_stride);
  tcase_add_test (tc, test_caps_change);
  tcase_add_test (tc, test_invalid_caps);
  tcase_add_test (tc, test_huge_caps);
  tcase_add_test (tc, test_pipeline);

  return s;
}

GST_CHECK_MAIN (bcdec);
