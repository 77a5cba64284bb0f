/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Element tests of bc1enc and bc3enc: caps, sizes, timestamps, key frames,
 * the produced bytes against the library encoder, every input format,
 * quality levels, threads, property changes while playing, bad input and
 * caps changes; and of bc4enc, bc5enc and bc7enc: caps, bytes against the
 * library for their input formats and qualities, threads, decoding by
 * bcdec, accepted caps and documentation; and of bc1enc and bc7enc filling
 * a downstream pool tile by tile (GstBcTileMeta tiled by the consumer, as
 * tilesink offers it) and falling back when they cannot. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstbctest.h"
#include <gst/check/gstharness.h>

/* ---- pictures ---------------------------------------------------------- */

/* A picture with smooth gradients, a few hard edges, fine texture and a
 * little noise, like camera content; alpha is 255 unless @with_alpha. */
static guint8 *
make_picture (guint width, guint height, guint32 seed, gboolean with_alpha)
{
  guint8 *p = g_malloc ((gsize) width * height * 4);
  guint32 state = seed;
  guint x, y;

  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      guint8 *px = p + ((gsize) y * width + x) * 4;
      gdouble fx = (gdouble) x / MAX (width, 1);
      gdouble fy = (gdouble) y / MAX (height, 1);
      gdouble r, g, b;
      gint noise = (gint) (test_lcg_next (&state) % 9) - 4;

      r = 40 + 170 * fx + 30 * sin (fy * 9.0 + fx * 3.0);
      g = 60 + 120 * fy + 40 * cos (fx * 7.0);
      b = 120 + 90 * sin ((fx + fy) * 5.0);
      /* a bright disc with a hard edge */
      if ((fx - 0.6) * (fx - 0.6) + (fy - 0.4) * (fy - 0.4) < 0.04) {
        r = 240 - 30 * fy;
        g = 200;
        b = 40;
      }
      /* a dark stripe */
      if (x % 23 < 3)
        g *= 0.4;
      px[0] = CLAMP ((gint) r + noise, 0, 255);
      px[1] = CLAMP ((gint) g + noise, 0, 255);
      px[2] = CLAMP ((gint) b - noise, 0, 255);
      px[3] = with_alpha ? (guint8) ((x * 255) / MAX (width - 1, 1)) : 255;
    }
  }
  return p;
}

/* Copies an RGBA picture into a buffer of raw @format with the default
 * GstVideoInfo layout; padding bytes (the x of RGBx and the row padding)
 * get junk, which the encoder must ignore. */
static GstBuffer *
picture_to_buffer (const guint8 * rgba, guint width, guint height,
    GstVideoFormat format)
{
  GstVideoInfo info;
  GstBcPixelLayout layout;
  GstBuffer *buf;
  GstMapInfo map;

  fail_unless (gst_video_info_set_format (&info, format, width, height));
  fail_unless (gst_bc_pixel_layout_from_video_format (&layout, format));
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  memset (map.data, 0x5a, map.size);
  test_picture_to_layout (rgba, width, height, &layout,
      map.data + GST_VIDEO_INFO_PLANE_OFFSET (&info, 0),
      GST_VIDEO_INFO_PLANE_STRIDE (&info, 0));
  gst_buffer_unmap (buf, &map);
  return buf;
}

/* The library encoder called directly on the RGBA picture */
static guint8 *
encode_direct (GstBcFormat format, GstBcQuality quality, const guint8 * rgba,
    guint width, guint height, gsize * size)
{
  GstBcInfo info;
  guint8 *out = test_encode (format, quality, rgba, &test_rgba_layout, width,
      height, &info);

  *size = info.size;
  return out;
}

/* ---- harness helpers --------------------------------------------------- */

/* takes a string to free: the tests build their caps with g_strdup_printf */
#define set_src_caps_str(h, str) G_STMT_START { \
    gchar *_s = (str); \
    gst_harness_set_src_caps (h, gst_caps_from_string (_s)); \
    g_free (_s); \
  } G_STMT_END

/* A harness around a new @factory element with the properties @args */
static GstHarness *
harness_new_valist (const gchar * factory, const gchar * first_prop,
    va_list args)
{
  GstElement *element = gst_element_factory_make (factory, NULL);
  GstHarness *h;

  fail_unless (element != NULL, "no element %s", factory);
  if (first_prop)
    g_object_set_valist (G_OBJECT (element), first_prop, args);
  h = gst_harness_new_with_element (element, "sink", "src");
  gst_object_unref (element);
  return h;
}

static GstHarness *
harness_new (const gchar * factory, const gchar * first_prop, ...)
{
  GstHarness *h;
  va_list args;

  va_start (args, first_prop);
  h = harness_new_valist (factory, first_prop, args);
  va_end (args);
  return h;
}

static void
harness_set_raw_caps (GstHarness * h, const gchar * format, guint width,
    guint height)
{
  set_src_caps_str (h, g_strdup_printf ("video/x-raw, "
          "format=%s, width=%u, height=%u, framerate=30/1", format, width,
          height));
}

static GstBuffer *
push_and_pull (GstHarness * h, GstBuffer * in)
{
  GstBuffer *out;

  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  out = gst_harness_try_pull (h);
  fail_unless (out != NULL, "no output buffer");
  return out;
}

static void
check_buffer_equals (GstBuffer * buf, const guint8 * expected, gsize size,
    const gchar * what)
{
  GstMapInfo map;
  gsize i;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_unless_equals_uint64 (map.size, size);
  for (i = 0; i < size; i++) {
    if (map.data[i] != expected[i])
      break;
  }
  fail_unless (i == size, "%s: first difference at byte %" G_GSIZE_FORMAT
      " (block %" G_GSIZE_FORMAT "): got 0x%02x, expected 0x%02x", what, i,
      i / 8, map.data[i], expected[i]);
  gst_buffer_unmap (buf, &map);
}

/* Encodes @rgba with @factory (extra properties as varargs) as RGBA and
 * returns the output bytes */
static guint8 *
encode_with_element (const gchar * factory, const guint8 * rgba,
    guint width, guint height, gsize * size, const gchar * first_prop, ...)
{
  GstHarness *h;
  GstBuffer *out;
  GstMapInfo map;
  guint8 *data;
  va_list args;

  va_start (args, first_prop);
  h = harness_new_valist (factory, first_prop, args);
  va_end (args);

  harness_set_raw_caps (h, "RGBA", width, height);
  out = push_and_pull (h, picture_to_buffer (rgba, width, height,
          GST_VIDEO_FORMAT_RGBA));
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  data = g_memdup2 (map.data, map.size);
  *size = map.size;
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  return data;
}

static void
check_output_caps (GstHarness * h, const gchar * format, gint width,
    gint height, gint fps_n, gint fps_d, gint par_n, gint par_d)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GstStructure *s;
  gint v, n, d;
  GstBcInfo info;

  fail_unless (caps != NULL);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "video/x-bc"),
      "caps %" GST_PTR_FORMAT, caps);
  fail_unless_equals_string (gst_structure_get_string (s, "format"), format);
  fail_unless (gst_structure_get_int (s, "width", &v));
  fail_unless_equals_int (v, width);
  fail_unless (gst_structure_get_int (s, "height", &v));
  fail_unless_equals_int (v, height);
  fail_unless (gst_structure_get_fraction (s, "framerate", &n, &d));
  fail_unless_equals_int (n, fps_n);
  fail_unless_equals_int (d, fps_d);
  fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &n, &d));
  fail_unless_equals_int (n, par_n);
  fail_unless_equals_int (d, par_d);
  /* and the library can read them */
  fail_unless (gst_bc_info_from_caps (&info, caps));
  fail_unless_equals_int (info.width, width);
  fail_unless_equals_int (info.height, height);
  gst_caps_unref (caps);
}

/* ---- tests ------------------------------------------------------------- */

GST_START_TEST (test_caps)
{
  static const struct
  {
    const gchar *factory;
    gint ycocg;                 /* -1: no property */
    const gchar *format;
  } cases[] = {
    {"bc1enc", -1, "BC1"},
    {"bc3enc", -1, "YCoCg-BC3"},        /* the default */
    {"bc3enc", TRUE, "YCoCg-BC3"},
    {"bc3enc", FALSE, "BC3"},
  };
  static const guint sizes[][2] = { {30, 26}, {1, 1}, {7, 3}, {64, 64} };
  guint c, s;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      guint w = sizes[s][0], hh = sizes[s][1];
      GstHarness *h;
      guint8 *pic = make_picture (w, hh, 1, FALSE);

      if (cases[c].ycocg >= 0)
        h = harness_new (cases[c].factory, "ycocg", cases[c].ycocg, NULL);
      else
        h = harness_new (cases[c].factory, NULL);

      set_src_caps_str (h, g_strdup_printf ("video/x-raw, "
              "format=RGBx, width=%u, height=%u, framerate=25/2, "
              "pixel-aspect-ratio=4/3", w, hh));
      gst_buffer_unref (push_and_pull (h, picture_to_buffer (pic, w, hh,
                  GST_VIDEO_FORMAT_RGBx)));
      check_output_caps (h, cases[c].format, w, hh, 25, 2, 4, 3);

      gst_harness_teardown (h);
      g_free (pic);
    }
  }
}

GST_END_TEST;

/* The latency the element of @h reports downstream: the harness upstream's
 * (live, 0 unless set) plus the encoder's */
static GstClockTime
query_latency (GstHarness * h, GstClockTime * max)
{
  GstClockTime min = GST_CLOCK_TIME_NONE;
  gboolean live = FALSE;
  GstQuery *q = gst_query_new_latency ();

  *max = GST_CLOCK_TIME_NONE;
  fail_unless (gst_pad_peer_query (h->sinkpad, q));
  gst_query_parse_latency (q, &live, &min, max);
  gst_query_unref (q);
  fail_unless (live);
  return min;
}

static GstClockTime
min_latency (GstHarness * h)
{
  GstClockTime max;

  return query_latency (h, &max);
}

GST_START_TEST (test_caps_variable_framerate)
{
  GstHarness *h = harness_new ("bc1enc", NULL);
  guint8 *pic = make_picture (8, 8, 1, FALSE);

  set_src_caps_str (h, g_strdup ("video/x-raw, format=RGBA, "
          "width=8, height=8, framerate=0/1"));
  gst_buffer_unref (push_and_pull (h, picture_to_buffer (pic, 8, 8,
              GST_VIDEO_FORMAT_RGBA)));
  check_output_caps (h, "BC1", 8, 8, 0, 1, 1, 1);

  /* no framerate: no latency to report */
  fail_unless_equals_uint64 (min_latency (h), 0);

  gst_harness_teardown (h);
  g_free (pic);
}

GST_END_TEST;

/* The CPU path encodes synchronously (each frame leaves in the chain call
 * that brought it): the encoder adds no latency to upstream's, minimum or
 * maximum, at any framerate */
GST_START_TEST (test_latency)
{
  static const gchar *const encs[] = { "bc1enc", "bc3enc", "bc4enc",
    "bc5enc", "bc7enc"
  };
  const GstClockTime up_min = 5 * GST_MSECOND;
  guint8 *pic = make_picture (8, 8, 1, FALSE);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (encs); i++) {
    GstHarness *h = harness_new (encs[i], NULL);
    GstClockTime min, max;
    GstBuffer *out;

    harness_set_raw_caps (h, "RGBA", 8, 8);
    fail_unless_equals_int (gst_harness_push (h, picture_to_buffer (pic, 8,
                8, GST_VIDEO_FORMAT_RGBA)), GST_FLOW_OK);
    /* out before the next frame came: nothing held */
    fail_unless_equals_int (gst_harness_buffers_received (h), 1);
    out = gst_harness_pull (h);
    gst_buffer_unref (out);

    gst_video_encoder_get_latency (GST_VIDEO_ENCODER (h->element), &min,
        &max);
    fail_unless_equals_uint64 (min, 0);
    fail_unless_equals_uint64 (max, 0);

    /* the LATENCY query gives upstream's latency unchanged (the harness
     * says live, its minimum, no maximum) */
    fail_unless_equals_uint64 (query_latency (h, &max), 0);
    fail_unless_equals_uint64 (max, GST_CLOCK_TIME_NONE);
    gst_harness_set_upstream_latency (h, up_min);
    fail_unless_equals_uint64 (query_latency (h, &max), up_min);
    fail_unless_equals_uint64 (max, GST_CLOCK_TIME_NONE);
    gst_harness_teardown (h);

    /* and at another framerate, in a playing pipeline whose live source
     * reports one frame (videotestsrc): the encoder adds nothing */
    {
      gchar *desc = g_strdup_printf ("videotestsrc is-live=true ! "
          "video/x-raw,format=RGBA,width=16,height=16,framerate=25/1 ! "
          "%s name=enc ! fakesink", encs[i]);
      GstElement *p = gst_parse_launch (desc, NULL);
      GstElement *enc = gst_bin_get_by_name (GST_BIN (p), "enc");
      GstQuery *q = gst_query_new_latency ();
      gboolean live = FALSE;

      fail_unless (p != NULL);
      fail_unless_equals_int (gst_element_set_state (p, GST_STATE_PLAYING),
          GST_STATE_CHANGE_ASYNC);
      fail_unless_equals_int (gst_element_get_state (p, NULL, NULL,
              10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
      fail_unless (gst_element_query (enc, q));
      gst_query_parse_latency (q, &live, &min, &max);
      fail_unless (live);
      fail_unless_equals_uint64 (min, GST_SECOND / 25);
      gst_query_unref (q);
      gst_video_encoder_get_latency (GST_VIDEO_ENCODER (enc), &min, &max);
      fail_unless_equals_uint64 (min, 0);
      fail_unless_equals_uint64 (max, 0);
      gst_object_unref (enc);
      gst_element_set_state (p, GST_STATE_NULL);
      gst_object_unref (p);
      g_free (desc);
    }
  }
  g_free (pic);
}

GST_END_TEST;

GST_START_TEST (test_output_size)
{
  static const guint sizes[][2] = {
    {1, 1}, {2, 3}, {4, 4}, {5, 5}, {30, 26}, {33, 17}, {64, 64}, {127, 3},
  };
  static const struct
  {
    const gchar *factory;
    gboolean ycocg;
    guint block_bytes;
  } encs[] = {
    {"bc1enc", FALSE, 8}, {"bc3enc", TRUE, 16}, {"bc3enc", FALSE, 16},
  };
  guint e, s;

  for (e = 0; e < G_N_ELEMENTS (encs); e++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      guint w = sizes[s][0], hh = sizes[s][1];
      gsize expected = (gsize) ((w + 3) / 4) * ((hh + 3) / 4) *
          encs[e].block_bytes;
      guint8 *pic = make_picture (w, hh, 2, FALSE);
      GstHarness *h;
      GstBuffer *out;

      if (g_str_equal (encs[e].factory, "bc3enc"))
        h = harness_new (encs[e].factory, "ycocg", encs[e].ycocg, NULL);
      else
        h = harness_new (encs[e].factory, NULL);
      harness_set_raw_caps (h, "BGR", w, hh);
      out = push_and_pull (h, picture_to_buffer (pic, w, hh,
              GST_VIDEO_FORMAT_BGR));
      fail_unless_equals_uint64 (gst_buffer_get_size (out), expected);
      gst_buffer_unref (out);
      gst_harness_teardown (h);
      g_free (pic);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_timestamps_and_keyframes)
{
  const GstClockTime dur = GST_SECOND / 30;
  const GstClockTime base = 10 * GST_SECOND;
  guint8 *pic = make_picture (30, 26, 3, FALSE);
  GstHarness *h = harness_new ("bc1enc", NULL);
  guint i;

  harness_set_raw_caps (h, "RGBA", 30, 26);
  for (i = 0; i < 6; i++) {
    GstBuffer *in = picture_to_buffer (pic, 30, 26, GST_VIDEO_FORMAT_RGBA);
    GstBuffer *out;

    GST_BUFFER_PTS (in) = base + i * dur;
    /* raw video often has no DTS: the encoder then uses the PTS */
    GST_BUFFER_DTS (in) = (i % 2) ? base + i * dur : GST_CLOCK_TIME_NONE;
    GST_BUFFER_DURATION (in) = dur;
    /* upstream flags must not turn a frame into a delta unit */
    if (i == 3)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DELTA_UNIT);

    out = push_and_pull (h, in);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), base + i * dur);
    fail_unless_equals_uint64 (GST_BUFFER_DTS (out), base + i * dur);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), dur);
    fail_if (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_DELTA_UNIT),
        "output buffer %u is a delta unit", i);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
  g_free (pic);
}

GST_END_TEST;

/* A capture time upstream (a GstReferenceTimestampMeta, e.g.
 * timestamp/x-unix) stays on the encoded frame, for every encoder: tilesink
 * sends it as the frame's origin, so tilesrc's latency is from capture */
GST_START_TEST (test_reference_timestamp_kept)
{
  static const gchar *encoders[] = { "bc1enc", "bc3enc", "bc4enc", "bc5enc",
    "bc7enc"
  };
  GstCaps *unix_caps = gst_caps_from_string ("timestamp/x-unix");
  guint8 *pic = make_picture (16, 8, 4, FALSE);
  guint e;

  for (e = 0; e < G_N_ELEMENTS (encoders); e++) {
    GstHarness *h = harness_new (encoders[e], NULL);
    GstBuffer *in, *out;
    GstReferenceTimestampMeta *meta;

    harness_set_raw_caps (h, "RGBA", 16, 8);
    in = picture_to_buffer (pic, 16, 8, GST_VIDEO_FORMAT_RGBA);
    GST_BUFFER_PTS (in) = 0;
    GST_BUFFER_DURATION (in) = GST_SECOND / 30;
    gst_buffer_add_reference_timestamp_meta (in, unix_caps,
        1764000000 * GST_SECOND + 123, 40 * GST_MSECOND);
    out = push_and_pull (h, in);
    meta = gst_buffer_get_reference_timestamp_meta (out, unix_caps);
    fail_unless (meta != NULL, "%s lost the reference timestamp", encoders[e]);
    fail_unless_equals_uint64 (meta->timestamp, 1764000000 * GST_SECOND + 123);
    fail_unless_equals_uint64 (meta->duration, 40 * GST_MSECOND);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
  gst_caps_unref (unix_caps);
  g_free (pic);
}

GST_END_TEST;

/* qos=true: frames before the point a downstream QoS event names are
 * dropped unencoded (and counted in a QoS message); later ones are
 * encoded. Without qos (the default) nothing is dropped. */
GST_START_TEST (test_qos_drops_late_frames)
{
  const GstClockTime dur = GST_SECOND / 30;
  guint8 *pic = make_picture (30, 26, 3, FALSE);
  gboolean qos;

  for (qos = FALSE; qos <= TRUE; qos++) {
    GstHarness *h = harness_new ("bc1enc", "qos", qos, NULL);
    GstMessage *msg;
    GstBus *bus = gst_bus_new ();
    guint i, dropped = 0;

    gst_element_set_bus (h->element, bus);
    harness_set_raw_caps (h, "RGBA", 30, 26);
    /* as tilesink sends it: the frame at 0 was dropped, the sender takes
     * one again in 3.5 frames: frames before 3.5 x dur are late */
    fail_unless (gst_harness_push_upstream_event (h,
            gst_event_new_qos (GST_QOS_TYPE_OVERFLOW, 2.0,
                (GstClockTimeDiff) (7 * dur / 2 - dur) / 2, 0)));
    for (i = 1; i < 6; i++) {
      GstBuffer *in = picture_to_buffer (pic, 30, 26, GST_VIDEO_FORMAT_RGBA);

      GST_BUFFER_PTS (in) = i * dur;
      GST_BUFFER_DURATION (in) = dur;
      fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    }
    /* qos: frames 1-3 dropped, 4 and 5 out */
    for (i = qos ? 4 : 1; i < 6; i++) {
      GstBuffer *out = gst_harness_pull (h);

      fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * dur);
      gst_buffer_unref (out);
    }
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_QOS))) {
      dropped++;
      gst_message_unref (msg);
    }
    fail_unless_equals_int (dropped, qos ? 3 : 0);
    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    gst_harness_teardown (h);
  }
  g_free (pic);
}

GST_END_TEST;

/* bc1enc and bc3enc, and the format each writes (ycocg -1: no such
 * property) */
static const struct
{
  const gchar *factory;
  gint ycocg;
  GstBcFormat format;
} bc13_encs[] = {
  {"bc1enc", -1, GST_BC_FORMAT_BC1},
  {"bc3enc", TRUE, GST_BC_FORMAT_YCOCG_BC3},
  {"bc3enc", FALSE, GST_BC_FORMAT_BC3},
};

/* A harness around bc13_encs[@e] */
static GstHarness *
bc13_harness_new (guint e)
{
  if (bc13_encs[e].ycocg >= 0)
    return harness_new (bc13_encs[e].factory, "ycocg", bc13_encs[e].ycocg,
        NULL);
  return harness_new (bc13_encs[e].factory, NULL);
}

GST_START_TEST (test_bytes_match_library)
{
  static const guint sizes[][2] = { {30, 26}, {1, 1}, {67, 45} };
  guint e, s;

  for (e = 0; e < G_N_ELEMENTS (bc13_encs); e++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      guint w = sizes[s][0], hh = sizes[s][1];
      guint8 *pic = make_picture (w, hh, 4 + s, TRUE);
      gsize exp_size, size;
      guint8 *expected, *got;

      expected = encode_direct (bc13_encs[e].format, GST_BC_QUALITY_NORMAL, pic,
          w, hh, &exp_size);
      if (bc13_encs[e].ycocg >= 0)
        got = encode_with_element (bc13_encs[e].factory, pic, w, hh, &size,
            "ycocg", bc13_encs[e].ycocg, NULL);
      else
        got =
            encode_with_element (bc13_encs[e].factory, pic, w, hh, &size, NULL);

      fail_unless_equals_uint64 (size, exp_size);
      fail_unless (memcmp (got, expected, size) == 0,
          "%s output differs from gst_bc_encode_rows (%ux%u)",
          gst_bc_format_to_string (bc13_encs[e].format), w, hh);
      g_free (expected);
      g_free (got);
      g_free (pic);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_all_input_formats)
{
  static const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
    GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR,
    GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_RGB,
    GST_VIDEO_FORMAT_BGR,
  };
  /* 30 pixels of RGB is 90 bytes: rows are padded to 92 */
  const guint w = 30, hh = 26;
  guint8 *pic = make_picture (w, hh, 5, FALSE);
  guint e, f;

  for (e = 0; e < G_N_ELEMENTS (bc13_encs); e++) {
    gsize exp_size;
    guint8 *expected =
        encode_direct (bc13_encs[e].format, GST_BC_QUALITY_NORMAL,
        pic, w, hh, &exp_size);

    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      const gchar *name = gst_video_format_to_string (formats[f]);
      GstHarness *h;
      GstBuffer *out;
      gchar *what;

      h = bc13_harness_new (e);
      harness_set_raw_caps (h, name, w, hh);
      out = push_and_pull (h, picture_to_buffer (pic, w, hh, formats[f]));
      what = g_strdup_printf ("%s from %s",
          gst_bc_format_to_string (bc13_encs[e].format), name);
      check_buffer_equals (out, expected, exp_size, what);
      g_free (what);
      gst_buffer_unref (out);
      gst_harness_teardown (h);
    }
    g_free (expected);
  }
  g_free (pic);
}

GST_END_TEST;

GST_START_TEST (test_quality_levels)
{
  static const struct
  {
    const gchar *factory;
    GstBcFormat format;
    gdouble min_psnr;
  } encs[] = {
    {"bc1enc", GST_BC_FORMAT_BC1, 28.0},
    {"bc3enc", GST_BC_FORMAT_YCOCG_BC3, 30.0},
  };
  const guint w = 96, hh = 64;
  guint8 *pic = make_picture (w, hh, 6, FALSE);
  guint8 *decoded = g_malloc ((gsize) w * hh * 4);
  guint e, q;

  for (e = 0; e < G_N_ELEMENTS (encs); e++) {
    gdouble psnr[3];

    for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
      gsize size, exp_size;
      guint8 *got = encode_with_element (encs[e].factory, pic, w, hh, &size,
          "quality", q, NULL);
      guint8 *expected = encode_direct (encs[e].format, q, pic, w, hh,
          &exp_size);

      /* the property reaches the library */
      fail_unless_equals_uint64 (size, exp_size);
      fail_unless (memcmp (got, expected, size) == 0,
          "%s quality %u differs from the library", encs[e].factory, q);

      gst_bc_decode_rows (encs[e].format, got, w, hh, 0, (hh + 3) / 4,
          decoded, (gsize) w * 4, &test_rgba_layout);
      psnr[q] = test_psnr_rgb (pic, decoded, (gsize) w * hh);
      GST_INFO ("%s quality %u: PSNR %.2f dB", encs[e].factory, q, psnr[q]);
      fail_unless (psnr[q] >= encs[e].min_psnr,
          "%s quality %u: PSNR %.2f dB is below %.1f", encs[e].factory, q,
          psnr[q], encs[e].min_psnr);
      g_free (got);
      g_free (expected);
    }
    fail_unless (psnr[GST_BC_QUALITY_HIGH] >= psnr[GST_BC_QUALITY_NORMAL],
        "%s: high %.3f dB < normal %.3f dB", encs[e].factory,
        psnr[GST_BC_QUALITY_HIGH], psnr[GST_BC_QUALITY_NORMAL]);
    fail_unless (psnr[GST_BC_QUALITY_NORMAL] >=
        psnr[GST_BC_QUALITY_FAST] - 0.5,
        "%s: normal %.3f dB < fast %.3f dB - 0.5", encs[e].factory,
        psnr[GST_BC_QUALITY_NORMAL], psnr[GST_BC_QUALITY_FAST]);
  }
  g_free (decoded);
  g_free (pic);
}

GST_END_TEST;

/* Every thread count of @threads (n of them, 0: one per core) gives
 * @factory's output with threads=1, on a picture of 47 block rows: uneven
 * splits for every thread count */
static void
check_threads_identical (const gchar * factory, const guint * threads, guint n)
{
  const guint w = 130, hh = 185;
  guint8 *pic = make_picture (w, hh, 7, FALSE);
  gsize ref_size, size;
  guint8 *ref = encode_with_element (factory, pic, w, hh, &ref_size,
      "threads", 1, NULL);
  guint t;

  for (t = 0; t < n; t++) {
    guint8 *got = encode_with_element (factory, pic, w, hh, &size,
        "threads", threads[t], NULL);

    fail_unless_equals_uint64 (size, ref_size);
    fail_unless (memcmp (got, ref, size) == 0,
        "%s: threads=%u differs from threads=1", factory, threads[t]);
    g_free (got);
  }
  g_free (ref);
  g_free (pic);
}

GST_START_TEST (test_threads_identical)
{
  static const guint threads[] = { 2, 3, 8, 0 };

  check_threads_identical ("bc1enc", threads, G_N_ELEMENTS (threads));
  check_threads_identical ("bc3enc", threads, G_N_ELEMENTS (threads));
}

GST_END_TEST;

GST_START_TEST (test_quality_change_while_playing)
{
  const guint w = 64, hh = 48;
  guint8 *pic = make_picture (w, hh, 8, FALSE);
  GstHarness *h = harness_new ("bc1enc", "quality", GST_BC_QUALITY_FAST,
      NULL);
  guint8 *fast, *high;
  gsize size;
  GstBuffer *out;
  GstState state;

  fast = encode_direct (GST_BC_FORMAT_BC1, GST_BC_QUALITY_FAST, pic, w, hh,
      &size);
  high = encode_direct (GST_BC_FORMAT_BC1, GST_BC_QUALITY_HIGH, pic, w, hh,
      &size);
  /* otherwise this test could not tell the two apart */
  fail_if (memcmp (fast, high, size) == 0,
      "fast and high give the same blocks for the test picture");

  harness_set_raw_caps (h, "RGBA", w, hh);
  fail_unless_equals_int (gst_element_get_state (h->element, &state, NULL, 0),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (state, GST_STATE_PLAYING);

  out = push_and_pull (h, picture_to_buffer (pic, w, hh,
          GST_VIDEO_FORMAT_RGBA));
  check_buffer_equals (out, fast, size, "quality=fast");
  gst_buffer_unref (out);

  g_object_set (h->element, "quality", GST_BC_QUALITY_HIGH, NULL);
  out = push_and_pull (h, picture_to_buffer (pic, w, hh,
          GST_VIDEO_FORMAT_RGBA));
  check_buffer_equals (out, high, size, "quality=high after change");
  gst_buffer_unref (out);

  g_object_set (h->element, "quality", GST_BC_QUALITY_FAST, NULL);
  out = push_and_pull (h, picture_to_buffer (pic, w, hh,
          GST_VIDEO_FORMAT_RGBA));
  check_buffer_equals (out, fast, size, "quality=fast after change");
  gst_buffer_unref (out);

  g_free (fast);
  g_free (high);
  g_free (pic);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_short_buffer)
{
  static const gchar *factories[] = { "bc1enc", "bc3enc" };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (factories); f++) {
    GstHarness *h = harness_new (factories[f], NULL);
    GstBus *bus = gst_bus_new ();
    GstBuffer *in;

    gst_element_set_bus (h->element, bus);
    /* 30x26 RGBA is 3120 bytes */
    harness_set_raw_caps (h, "RGBA", 30, 26);
    in = gst_buffer_new_allocate (NULL, 1000, NULL);
    gst_buffer_memset (in, 0, 0x80, 1000);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);
    fail_unless (gst_harness_try_pull (h) == NULL);

    /* the actual and the expected size */
    gst_message_unref (check_error_message (bus, GST_STREAM_ERROR,
            GST_STREAM_ERROR_FORMAT, "1000", "3120", NULL));

    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* A buffer with a video meta: rows padded and the picture at an offset */
static GstBuffer *
picture_to_buffer_with_meta (const guint8 * rgba, guint width, guint height,
    gsize offset, gint stride, gsize size)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  gsize offsets[GST_VIDEO_MAX_PLANES] = { offset, };
  gint strides[GST_VIDEO_MAX_PLANES] = { stride, };
  GstMapInfo map;
  guint y;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  memset (map.data, 0xa5, map.size);
  for (y = 0; y < height && offset + (gsize) y * stride + width * 4 <= size;
      y++)
    memcpy (map.data + offset + (gsize) y * stride,
        rgba + (gsize) y * width * 4, (gsize) width * 4);
  gst_buffer_unmap (buf, &map);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_RGBA, width, height, 1, offsets, strides);
  return buf;
}

GST_START_TEST (test_input_video_meta)
{
  const guint w = 30, hh = 26;
  const gint stride = w * 4 + 24;
  const gsize offset = 64;
  /* the end of the last row, not a whole padded row */
  const gsize needed = offset + (gsize) stride * (hh - 1) + w * 4;
  guint8 *pic = make_picture (w, hh, 12, TRUE);
  gsize exp_size;
  guint8 *expected = encode_direct (GST_BC_FORMAT_BC3, GST_BC_QUALITY_NORMAL,
      pic, w, hh, &exp_size);
  GstHarness *h = harness_new ("bc3enc", "ycocg", FALSE, NULL);
  GstBus *bus = gst_bus_new ();
  GstBuffer *out;
  gchar *num;
  GstQuery *query;
  GstCaps *caps;

  gst_element_set_bus (h->element, bus);
  harness_set_raw_caps (h, "RGBA", w, hh);

  /* the encoder tells upstream it reads video metas */
  caps = gst_caps_from_string ("video/x-raw, format=RGBA, width=30, "
      "height=26, framerate=30/1");
  query = gst_query_new_allocation (caps, TRUE);
  fail_unless (gst_pad_peer_query (h->srcpad, query));
  fail_unless (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          NULL));
  gst_query_unref (query);
  gst_caps_unref (caps);

  out = push_and_pull (h, picture_to_buffer_with_meta (pic, w, hh, offset,
          stride, needed));
  check_buffer_equals (out, expected, exp_size, "input with video meta");
  gst_buffer_unref (out);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);

  /* one byte short of what its meta describes */
  fail_unless_equals_int (gst_harness_push (h,
          picture_to_buffer_with_meta (pic, w, hh, offset, stride,
              needed - 1)), GST_FLOW_ERROR);
  num = g_strdup_printf ("%" G_GSIZE_FORMAT, needed);
  gst_message_unref (check_error_message (bus, 0, 0, num, NULL));
  g_free (num);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  g_free (expected);
  g_free (pic);
}

GST_END_TEST;

GST_START_TEST (test_caps_change)
{
  static const guint sizes[][2] = { {30, 26}, {64, 48}, {1, 1}, {30, 26} };
  GstHarness *h = harness_new ("bc3enc", "ycocg", FALSE, NULL);
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    guint w = sizes[s][0], hh = sizes[s][1];
    guint8 *pic = make_picture (w, hh, 9 + s, TRUE);
    gsize exp_size;
    guint8 *expected = encode_direct (GST_BC_FORMAT_BC3,
        GST_BC_QUALITY_NORMAL, pic, w, hh, &exp_size);
    GstBuffer *out;

    set_src_caps_str (h, g_strdup_printf ("video/x-raw, "
            "format=ARGB, width=%u, height=%u, framerate=%u/1", w, hh, 10 + s));
    out = push_and_pull (h, picture_to_buffer (pic, w, hh,
            GST_VIDEO_FORMAT_ARGB));
    check_output_caps (h, "BC3", w, hh, 10 + s, 1, 1, 1);
    check_buffer_equals (out, expected, exp_size, "after caps change");
    gst_buffer_unref (out);
    g_free (expected);
    g_free (pic);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Sends caps the element should refuse, then a buffer, which must fail
 * with not-negotiated. (gst_harness_set_src_caps() would assert.) */
static GstFlowReturn
push_caps_and_buffer (GstHarness * h, const gchar * str)
{
  GstCaps *caps = gst_caps_from_string (str);
  GstSegment segment;
  GstBuffer *buf;

  /* a sticky event is stored even when the peer refuses it; the refusal
   * shows when data flows */
  gst_pad_push_event (h->srcpad, gst_event_new_caps (caps));
  gst_caps_unref (caps);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_pad_push_event (h->srcpad, gst_event_new_segment (&segment));

  buf = gst_buffer_new_allocate (NULL, 32 * 32 * 4, NULL);
  gst_buffer_memset (buf, 0, 0x40, 32 * 32 * 4);
  return gst_harness_push (h, buf);
}

GST_START_TEST (test_unsupported_caps)
{
  static const gchar *bad[] = {
    "video/x-raw, format=NV21, width=32, height=32, framerate=30/1",
    "video/x-raw, format=GRAY8, width=32, height=32, framerate=30/1",
    "video/x-raw, format=NV12, width=32, height=32, framerate=30/1, "
        "interlace-mode=interleaved",
    "video/x-raw, format=RGB16, width=32, height=32, framerate=30/1",
    "video/x-raw, format=RGBA, width=0, height=32, framerate=30/1",
  };
  static const gchar *factories[] = { "bc1enc", "bc3enc" };
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (factories); f++) {
    for (i = 0; i < G_N_ELEMENTS (bad); i++) {
      GstHarness *h = harness_new (factories[f], NULL);
      GstPad *sinkpad = gst_element_get_static_pad (h->element, "sink");
      GstCaps *caps = gst_caps_from_string (bad[i]);

      /* (interlaced 4:2:0 is in the template: refused when set) */
      fail_if (!strstr (bad[i], "interlace") &&
          gst_pad_query_accept_caps (sinkpad, caps),
          "%s accepts %s", factories[f], bad[i]);
      gst_caps_unref (caps);
      gst_object_unref (sinkpad);

      fail_unless_equals_int (push_caps_and_buffer (h, bad[i]),
          GST_FLOW_NOT_NEGOTIATED);
      fail_unless (gst_harness_try_pull (h) == NULL);
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_downstream_refuses_format)
{
  const gchar *raw = "video/x-raw, format=RGBA, width=32, height=32, "
      "framerate=30/1";
  GstHarness *h;
  GstBuffer *out;

  /* bc3enc with ycocg=true cannot feed a BC3-only peer */
  h = harness_new ("bc3enc", NULL);
  gst_harness_set_sink_caps_str (h, "video/x-bc, format=BC3");
  fail_unless_equals_int (push_caps_and_buffer (h, raw),
      GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);

  /* with ycocg=false it can */
  h = harness_new ("bc3enc", "ycocg", FALSE, NULL);
  gst_harness_set_sink_caps_str (h, "video/x-bc, format=BC3");
  fail_unless_equals_int (push_caps_and_buffer (h, raw), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless_equals_uint64 (gst_buffer_get_size (out), 8 * 8 * 16);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_pipeline_not_negotiated)
{
  GstElement *pipeline, *src, *filter, *enc, *sink;
  GstBus *bus;
  GstCaps *caps;

  /* GRAY8 forced before bc1enc, linked without caps checks so that
   * negotiation itself must fail (videotestsrc, not appsrc: GStreamer
   * 1.22's appsrc leaks the buffer it could not push) */
  pipeline = gst_pipeline_new (NULL);
  src = gst_element_factory_make ("videotestsrc", NULL);
  filter = gst_element_factory_make ("capsfilter", NULL);
  enc = gst_element_factory_make ("bc1enc", NULL);
  sink = gst_element_factory_make ("fakesink", NULL);
  fail_unless (pipeline && src && filter && enc && sink);
  caps = gst_caps_from_string ("video/x-raw, format=GRAY8, width=16, "
      "height=16, framerate=30/1");
  g_object_set (filter, "caps", caps, NULL);
  gst_caps_unref (caps);
  g_object_set (src, "num-buffers", 1, NULL);
  gst_bin_add_many (GST_BIN (pipeline), src, filter, enc, sink, NULL);
  fail_unless (gst_element_link (src, filter));
  fail_unless (gst_element_link_pads_full (filter, "src", enc, "sink",
          GST_PAD_LINK_CHECK_NOTHING));
  fail_unless (gst_element_link (enc, sink));

  play (pipeline);
  bus = gst_element_get_bus (pipeline);
  gst_message_unref (check_error_message (bus, 0, 0, "not-negotiated", NULL));
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* ---- bc4enc, bc5enc, bc7enc -------------------------------------------- */

/* A raw buffer of @format (any format gst_bc_encode_layout_from_video_format
 * knows) from an RGBA picture: grey formats get the picture's luma (16-bit:
 * luma * 257 plus a varying low byte); the unpadded copy in @packed (width
 * * bpp bytes per row) is what the library encodes */
static GstBuffer *
raw_buffer (const guint8 * rgba, guint width, guint height,
    GstVideoFormat format, guint8 ** packed, GstBcPixelLayout * layout)
{
  GstVideoInfo info;
  GstBuffer *buf;
  GstMapInfo map;
  gsize row_bytes;
  guint x, y;

  fail_unless (gst_video_info_set_format (&info, format, width, height));
  fail_unless (gst_bc_encode_layout_from_video_format (layout, format));
  row_bytes = (gsize) width *layout->bpp;
  *packed = g_malloc (row_bytes * height);
  if (layout->bpp >= 3) {
    test_picture_to_layout (rgba, width, height, layout, *packed, row_bytes);
  } else {
    for (y = 0; y < height; y++) {
      for (x = 0; x < width; x++) {
        guint luma = test_luma (rgba + ((gsize) y * width + x) * 4);
        guint8 *d = *packed + y * row_bytes + (gsize) x * layout->bpp;

        if (layout->bpp == 1)
          d[0] = luma;
        else
          GST_WRITE_UINT16_LE (d, luma * 257 + ((x * 7 + y) & 0xff) % 200);
      }
    }
  }

  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  memset (map.data, 0x5a, map.size);
  for (y = 0; y < height; y++)
    memcpy (map.data + GST_VIDEO_INFO_PLANE_OFFSET (&info, 0) +
        (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (&info, 0),
        *packed + y * row_bytes, row_bytes);
  gst_buffer_unmap (buf, &map);
  return buf;
}

static const struct
{
  const gchar *factory;
  GstBcFormat format;
  const gchar *inputs[4];
} new_encs[] = {
  {"bc4enc", GST_BC_FORMAT_BC4, {"GRAY8", "GRAY16_LE", "RGBA", "BGR"}},
  {"bc5enc", GST_BC_FORMAT_BC5, {"RGBx", "BGR", "ARGB", "RGBA"}},
  {"bc7enc", GST_BC_FORMAT_BC7, {"RGBA", "BGRx", "RGB", "ABGR"}},
};

/* caps, frame size and the bytes of every input format against the
 * library, at every quality */
GST_START_TEST (test_bc457_bytes_match_library)
{
  static const guint sizes[][2] = { {30, 26}, {1, 1}, {67, 45} };
  guint e, s, f, q;

  for (e = 0; e < G_N_ELEMENTS (new_encs); e++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      guint w = sizes[s][0], hh = sizes[s][1];
      guint8 *pic = make_picture (w, hh, 40 + s, TRUE);

      for (f = 0; f < G_N_ELEMENTS (new_encs[e].inputs); f++) {
        const gchar *name = new_encs[e].inputs[f];
        GstVideoFormat vf = gst_video_format_from_string (name);

        for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
          GstHarness *h = harness_new (new_encs[e].factory, "quality", q,
              NULL);
          GstBcPixelLayout layout;
          guint8 *packed, *expected;
          GstBcInfo info;
          GstBuffer *out;
          gchar *what;

          harness_set_raw_caps (h, name, w, hh);
          out = push_and_pull (h, raw_buffer (pic, w, hh, vf, &packed,
                  &layout));
          check_output_caps (h, gst_bc_format_to_string (new_encs[e].format),
              w, hh, 30, 1, 1, 1);
          fail_unless (gst_bc_info_set_format (&info, new_encs[e].format, w,
                  hh));
          expected = g_malloc0 (info.size);
          gst_bc_encode_rows (new_encs[e].format, q, packed,
              (gsize) w * layout.bpp, w, hh, &layout, 0, info.blocks_y,
              expected);
          what = g_strdup_printf ("%s from %s %ux%u quality %u",
              new_encs[e].factory, name, w, hh, q);
          check_buffer_equals (out, expected, info.size, what);
          g_free (what);
          g_free (expected);
          g_free (packed);
          gst_buffer_unref (out);
          gst_harness_teardown (h);
        }
      }
      g_free (pic);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_bc457_threads_identical)
{
  static const guint threads[] = { 2, 3, 0 };

  check_threads_identical ("bc4enc", threads, G_N_ELEMENTS (threads));
  check_threads_identical ("bc5enc", threads, G_N_ELEMENTS (threads));
  check_threads_identical ("bc7enc", threads, G_N_ELEMENTS (threads));
}

GST_END_TEST;

/* The encoders feed bcdec: the decoded picture is near the source (BC4:
 * its luma, BC5: red and green, BC7: RGB) */
GST_START_TEST (test_bc457_decode_pipeline)
{
  static const struct
  {
    const gchar *launch;
    gint channels;              /* 1: luma, 2: red and green, 3: RGB */
    gdouble min_psnr;
  } cases[] = {
    {"bc4enc ! bcdec", 1, 40.0},
    {"bc5enc ! bcdec", 2, 40.0},
    /* mode 6 alone: the picture has blocks of three colours */
    {"bc7enc quality=fast ! bcdec", 3, 31.0},
    {"bc7enc ! bcdec", 3, 40.0},
  };
  const guint w = 62, hh = 38;
  guint8 *pic = make_picture (w, hh, 13, FALSE);
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    GstHarness *h = gst_harness_new_parse (cases[c].launch);
    GstBuffer *out;
    GstMapInfo map;
    gdouble se = 0, psnr;
    gsize i, n = (gsize) w * hh;
    gint ch;

    gst_harness_set_src_caps_str (h, "video/x-raw, format=RGBA, width=62, "
        "height=38, framerate=30/1");
    gst_harness_set_sink_caps_str (h, "video/x-raw, format=RGBA");
    out = push_and_pull (h, picture_to_buffer (pic, w, hh,
            GST_VIDEO_FORMAT_RGBA));
    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    fail_unless_equals_uint64 (map.size, n * 4);
    for (i = 0; i < n; i++) {
      const guint8 *s = pic + i * 4, *d = map.data + i * 4;

      if (cases[c].channels == 1) {
        gint luma = test_luma (s);
        /* grey out */
        fail_unless (d[0] == d[1] && d[1] == d[2]);
        se += (gdouble) (d[0] - luma) * (d[0] - luma);
      } else {
        for (ch = 0; ch < cases[c].channels; ch++)
          se += (gdouble) (d[ch] - s[ch]) * (d[ch] - s[ch]);
        if (cases[c].channels == 2)
          fail_unless_equals_int (d[2], 0);
      }
      fail_unless_equals_int (d[3], 255);
    }
    psnr = test_psnr (se, n * cases[c].channels);
    GST_INFO ("%s: %.2f dB", cases[c].launch, psnr);
    fail_unless (psnr >= cases[c].min_psnr, "%s", cases[c].launch);
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
  g_free (pic);
}

GST_END_TEST;

GST_START_TEST (test_bc457_unsupported_caps)
{
  static const struct
  {
    const gchar *factory;
    const gchar *caps;
    gboolean accepted;
  } cases[] = {
    {"bc4enc", "video/x-raw, format=GRAY8, width=32, height=32, "
          "framerate=30/1", TRUE},
    {"bc4enc",
          "video/x-raw, format=GRAY16_LE, width=32, height=32, framerate=30/1",
        TRUE},
    {"bc4enc",
          "video/x-raw, format=GRAY16_BE, width=32, height=32, framerate=30/1",
        FALSE},
    {"bc4enc", "video/x-raw, format=I420, width=32, height=32, "
          "framerate=30/1", TRUE},
    {"bc4enc", "video/x-raw, format=Y444, width=32, height=32, "
          "framerate=30/1", FALSE},
    {"bc5enc", "video/x-raw, format=GRAY8, width=32, height=32, "
          "framerate=30/1", FALSE},
    {"bc5enc", "video/x-raw, format=RGBx, width=32, height=32, framerate=30/1",
        TRUE},
    {"bc7enc", "video/x-raw, format=GRAY8, width=32, height=32, "
          "framerate=30/1", FALSE},
    {"bc7enc", "video/x-raw, format=NV12, width=32, height=32, "
          "framerate=30/1", TRUE},
    {"bc7enc", "video/x-raw, format=UYVY, width=32, height=32, "
          "framerate=30/1, interlace-mode=interleaved", TRUE},
    {"bc7enc", "video/x-raw, format=ARGB, width=32, height=32, "
          "framerate=30/1", TRUE},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstElement *el = gst_element_factory_make (cases[i].factory, NULL);
    GstPad *sinkpad = gst_element_get_static_pad (el, "sink");
    GstCaps *caps = gst_caps_from_string (cases[i].caps);

    fail_unless (gst_pad_query_accept_caps (sinkpad, caps) ==
        cases[i].accepted, "%s: %s accepted %d", cases[i].factory,
        cases[i].caps, !cases[i].accepted);
    gst_caps_unref (caps);
    gst_object_unref (sinkpad);
    gst_object_unref (el);
  }
}

GST_END_TEST;

/* ---- downstream's tile pool (tilesink stepped=true) -------------------- */

/* A consumer that tiles the frames of the pool it offers (as tilesink
 * does): how it answers the allocation query, and what it saw */
typedef struct
{
  /* the answer */
  guint n_tiles;                /* asked of gst_bc_tiling_init_for_info () */
  gboolean tiled;               /* offered stepped */
  gboolean no_pool;             /* the meta offered, no pool */
  guint tiling_height;          /* 0: the frame's; else the tiling's */
  /* what to expect */
  gboolean in_order;            /* tiles complete in order (threads=1) */
  guint n_expected;             /* tiles complete in each frame, 0: none */
  const guint8 *expected;       /* the bytes of the frame being encoded */
  GstCaps *ref_caps;            /* its reference timestamp, when not NULL */
  GstClockTime ref_ts;

  /* what happened */
  GstBufferPool *pool;          /* the last one offered */
  guint queries;
  guint pushed;
  gint completions;             /* atomic, all frames */
  gint frame_tiles[GST_BC_TILING_MAX_TILES];    /* atomic, this frame */
  guint next_tile;
  gint order_errors;            /* atomic */
  gint byte_errors;             /* atomic: a tile not final as it completed */
  gint later_errors;            /* a later tile written already (in order) */
  gint ts_errors;               /* atomic: no reference timestamp then */
} TileConsumer;

static void
tile_consumer_init (TileConsumer * c, guint n_tiles, gboolean tiled,
    guint tiling_height, guint threads)
{
  memset (c, 0, sizeof (*c));
  c->n_tiles = n_tiles;
  c->tiled = tiled;
  c->tiling_height = tiling_height;
  c->in_order = threads == 1;
}

static void
tile_consumer_clear (TileConsumer * c)
{
  gst_clear_object (&c->pool);
  gst_clear_caps (&c->ref_caps);
}

/* The reference timestamps of @buf for @caps, @n_at_ts of them at @ts */
static guint
count_reference_timestamps (GstBuffer * buf, GstCaps * caps, GstClockTime ts,
    guint * n_at_ts)
{
  gpointer state = NULL;
  GstMeta *m;
  guint n = 0;

  *n_at_ts = 0;
  while ((m = gst_buffer_iterate_meta_filtered (buf, &state,
              GST_REFERENCE_TIMESTAMP_META_API_TYPE))) {
    GstReferenceTimestampMeta *r = (GstReferenceTimestampMeta *) m;

    if (gst_caps_is_equal (r->reference, caps)) {
      n++;
      *n_at_ts += r->timestamp == ts;
    }
  }
  return n;
}

/* The consumer's callback, on the encoder's threads: counts, and checks
 * what it can without failing off the test's thread */
static void
consumer_tile_done (GstBuffer * buffer, GstBcTileMeta * meta,
    const GstBcTile * tile, gpointer user_data)
{
  TileConsumer *c = user_data;
  GstMapInfo map;
  guint n_at_ts;

  g_atomic_int_inc (&c->completions);
  g_atomic_int_inc (&c->frame_tiles[tile->index]);
  /* (threads=1: one caller at a time) */
  if (c->in_order && tile->index != c->next_tile++)
    g_atomic_int_inc (&c->order_errors);
  /* the tile's bytes are final; the consumer can read them while the
   * encoder writes the others */
  if (gst_buffer_map (buffer, &map, GST_MAP_READ)) {
    if (tile->offset + tile->size > map.size ||
        memcmp (map.data + tile->offset, c->expected + tile->offset,
            tile->size) != 0)
      g_atomic_int_inc (&c->byte_errors);
    /* one thread: completed as soon as written, the next tiles still the
     * pool's junk */
    if (c->in_order && tile->offset + tile->size < map.size) {
      gsize i;

      for (i = tile->offset + tile->size; i < map.size; i++) {
        if (map.data[i] != 0xcd) {
          c->later_errors++;
          break;
        }
      }
    }
    gst_buffer_unmap (buffer, &map);
  } else {
    g_atomic_int_inc (&c->byte_errors);
  }
  /* the capture time is there from the first tile on, once */
  if (c->ref_caps && (count_reference_timestamps (buffer, c->ref_caps,
              c->ref_ts, &n_at_ts) != 1 || n_at_ts != 1))
    g_atomic_int_inc (&c->ts_errors);
}

/* The consumer's pool: every buffer has a GstBcTileMeta with the tiling,
 * and 0xcd junk until it is written */
typedef struct
{
  GstBufferPool parent;
  TileConsumer *consumer;
  GstBcTiling tiling;
} TileTestPool;
typedef struct
{
  GstBufferPoolClass parent_class;
} TileTestPoolClass;

static GType tile_test_pool_get_type (void);
G_DEFINE_TYPE (TileTestPool, tile_test_pool, GST_TYPE_BUFFER_POOL);

static void
fill_junk (GstBuffer * buf)
{
  GstMapInfo map;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  memset (map.data, 0xcd, map.size);
  gst_buffer_unmap (buf, &map);
}

static GstFlowReturn
tile_test_pool_alloc (GstBufferPool * pool, GstBuffer ** buf,
    GstBufferPoolAcquireParams * params)
{
  TileTestPool *self = (TileTestPool *) pool;
  GstBcTileMeta *meta;
  GstFlowReturn ret;

  ret = GST_BUFFER_POOL_CLASS (tile_test_pool_parent_class)->alloc_buffer
      (pool, buf, params);
  if (ret != GST_FLOW_OK)
    return ret;
  meta = gst_buffer_add_bc_tile_meta (*buf, consumer_tile_done,
      self->consumer, NULL);
  fail_unless (gst_bc_tile_meta_set_tiling (meta, &self->tiling));
  GST_META_FLAG_SET (meta, GST_META_FLAG_POOLED);
  fill_junk (*buf);
  return GST_FLOW_OK;
}

/* back in the pool: the tiles start over, the bytes are junk again */
static void
tile_test_pool_reset (GstBufferPool * pool, GstBuffer * buf)
{
  TileTestPool *self = (TileTestPool *) pool;
  GstBcTileMeta *meta = gst_buffer_get_bc_tile_meta (buf);

  if (meta)
    gst_bc_tile_meta_set_tiling (meta, &self->tiling);
  fill_junk (buf);
  GST_BUFFER_POOL_CLASS (tile_test_pool_parent_class)->reset_buffer (pool, buf);
}

static void
tile_test_pool_class_init (TileTestPoolClass * klass)
{
  GST_BUFFER_POOL_CLASS (klass)->alloc_buffer = tile_test_pool_alloc;
  GST_BUFFER_POOL_CLASS (klass)->reset_buffer = tile_test_pool_reset;
}

static void
tile_test_pool_init (TileTestPool * pool)
{
}

/* The consumer answers the encoder's allocation query */
static GstPadProbeReturn
answer_tile_allocation (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  TileConsumer *c = data;
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  TileTestPool *pool;
  GstStructure *config;
  GstCaps *caps;
  GstBcInfo bcinfo, tinfo;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (query, &caps, NULL);
  fail_unless (caps != NULL);
  fail_unless (gst_bc_info_from_caps (&bcinfo, caps));
  c->queries++;
  gst_bc_tile_meta_offer (query, c->tiled);
  if (c->no_pool)
    return GST_PAD_PROBE_HANDLED;

  tinfo = bcinfo;
  if (c->tiling_height)
    fail_unless (gst_bc_info_set_format (&tinfo, bcinfo.format, bcinfo.width,
            c->tiling_height));
  pool = gst_object_ref_sink (g_object_new (tile_test_pool_get_type (), NULL));
  pool->consumer = c;
  fail_unless (gst_bc_tiling_init_for_info (&pool->tiling, &tinfo, c->n_tiles));
  config = gst_buffer_pool_get_config (GST_BUFFER_POOL (pool));
  gst_buffer_pool_config_set_params (config, caps, bcinfo.size, 2, 0);
  fail_unless (gst_buffer_pool_set_config (GST_BUFFER_POOL (pool), config));
  gst_query_add_allocation_pool (query, GST_BUFFER_POOL (pool), bcinfo.size,
      2, 0);
  gst_clear_object (&c->pool);
  c->pool = GST_BUFFER_POOL (pool);
  return GST_PAD_PROBE_HANDLED;
}

/* A frame the encoder pushes: all its tiles completed already, once each
 * (or none, when it did not take the consumer's buffers) */
static GstPadProbeReturn
check_tile_push (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  TileConsumer *c = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstBcTileMeta *meta = gst_buffer_get_bc_tile_meta (buf);
  guint i;

  c->pushed++;
  if (c->n_expected > 0) {
    fail_unless (meta != NULL, "frame %u is not in the consumer's buffer",
        c->pushed);
    fail_unless_equals_int (gst_bc_tile_meta_get_n_tiles (meta), c->n_expected);
    fail_unless_equals_int (gst_bc_tile_meta_get_n_complete (meta),
        c->n_expected);
  } else {
    fail_unless (meta == NULL, "frame %u is in the consumer's buffer",
        c->pushed);
  }
  for (i = 0; i < GST_BC_TILING_MAX_TILES; i++) {
    gint n = g_atomic_int_get (&c->frame_tiles[i]);

    fail_unless (n == (i < c->n_expected), "frame %u: tile %u completed %d "
        "times", c->pushed, i, n);
    g_atomic_int_set (&c->frame_tiles[i], 0);
  }
  c->next_tile = 0;
  return GST_PAD_PROBE_OK;
}

/* Encodes 3 frames of 64x40 (10 block rows) with @factory, @threads, its
 * src pad answered by @c: the bytes of a plain encoder, in the consumer's
 * buffers when @c expects tiles; @with_ts: with a capture time, which
 * comes out once */
static void
run_tile_pool (const gchar * factory, guint threads, TileConsumer * c,
    gboolean with_ts)
{
  const guint w = 64, hh = 40;
  GstHarness *h = harness_new (factory, "threads", threads, NULL);
  GstPad *pad = gst_element_get_static_pad (h->element, "src");
  guint frame, n_at_ts;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
      answer_tile_allocation, c, NULL);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, check_tile_push, c, NULL);
  gst_object_unref (pad);
  if (with_ts)
    c->ref_caps = gst_caps_from_string ("timestamp/x-unix");
  harness_set_raw_caps (h, "RGBA", w, hh);
  fail_unless (c->queries > 0, "no allocation query");

  for (frame = 0; frame < 3; frame++) {
    guint8 *pic = make_picture (w, hh, 30 + frame, TRUE);
    GstBuffer *in = picture_to_buffer (pic, w, hh, GST_VIDEO_FORMAT_RGBA);
    GstBuffer *out;
    gsize size;
    guint8 *expected = encode_with_element (factory, pic, w, hh, &size,
        NULL);
    gchar *what = g_strdup_printf ("%s threads=%u, %u tiles, frame %u",
        factory, threads, c->n_tiles, frame);

    GST_BUFFER_PTS (in) = frame * GST_SECOND / 30;
    GST_BUFFER_DURATION (in) = GST_SECOND / 30;
    c->ref_ts = 1764000000 * GST_SECOND + frame;
    if (with_ts)
      gst_buffer_add_reference_timestamp_meta (in, c->ref_caps, c->ref_ts,
          GST_SECOND / 30);
    c->expected = expected;
    out = push_and_pull (h, in);
    check_buffer_equals (out, expected, size, what);
    if (c->n_expected > 0) {
      fail_unless (gst_buffer_get_bc_tile_meta (out) != NULL, "%s", what);
      fail_unless (out->pool == c->pool, "%s: not the pool's buffer", what);
    } else {
      fail_unless (gst_buffer_get_bc_tile_meta (out) == NULL, "%s", what);
    }
    if (with_ts)
      fail_unless (count_reference_timestamps (out, c->ref_caps, c->ref_ts,
              &n_at_ts) == 1 && n_at_ts == 1, "%s: not one reference "
          "timestamp", what);
    /* (back to the pool for the next frame) */
    gst_buffer_unref (out);
    c->expected = NULL;
    g_free (what);
    g_free (expected);
    g_free (pic);
  }
  gst_harness_teardown (h);

  fail_unless_equals_int (c->pushed, 3);
  fail_unless_equals_int (g_atomic_int_get (&c->completions),
      3 * c->n_expected);
  fail_unless_equals_int (g_atomic_int_get (&c->order_errors), 0);
  fail_unless (c->later_errors == 0, "%s: %d tiles completed after a later "
      "one was written", factory, c->later_errors);
  fail_unless (g_atomic_int_get (&c->byte_errors) == 0, "%s threads=%u, %u "
      "tiles: %d tiles not final as they completed", factory, threads,
      c->n_tiles, g_atomic_int_get (&c->byte_errors));
  fail_unless (g_atomic_int_get (&c->ts_errors) == 0, "%s threads=%u: %d "
      "tiles completed without the one reference timestamp", factory,
      threads, g_atomic_int_get (&c->ts_errors));
}

static const gchar *tile_pool_encoders[] = { "bc1enc", "bc7enc" };

/* Downstream's pool tiled by the consumer: the encoder fills its buffers
 * and completes each tile, once, before it pushes the frame (in order on
 * one thread), the bytes those of a plain encoder */
GST_START_TEST (test_tile_pool_completes_tiles)
{
  /* 10 block rows: 4 tiles of 3, 3, 2, 2; one tile; 16 clamped to 10 */
  static const guint n_tiles[] = { 4, 1, 16 };
  guint e, threads, n;

  for (e = 0; e < G_N_ELEMENTS (tile_pool_encoders); e++) {
    for (threads = 1; threads <= 2; threads++) {
      for (n = 0; n < G_N_ELEMENTS (n_tiles); n++) {
        TileConsumer c;

        tile_consumer_init (&c, n_tiles[n], TRUE, 0, threads);
        c.n_expected = MIN (n_tiles[n], 10);
        run_tile_pool (tile_pool_encoders[e], threads, &c, FALSE);
        tile_consumer_clear (&c);
      }
    }
  }
}

GST_END_TEST;

/* A capture time on the input is on the consumer's buffer when the first
 * tile completes, and once on the output */
GST_START_TEST (test_tile_pool_reference_timestamp)
{
  guint e, threads;

  for (e = 0; e < G_N_ELEMENTS (tile_pool_encoders); e++) {
    for (threads = 1; threads <= 2; threads++) {
      TileConsumer c;

      tile_consumer_init (&c, 4, TRUE, 0, threads);
      c.n_expected = 4;
      run_tile_pool (tile_pool_encoders[e], threads, &c, TRUE);
      tile_consumer_clear (&c);
    }
  }
}

GST_END_TEST;

/* A pool the encoder cannot fill tile by tile: its tiling is for another
 * frame, it is not tiled by the consumer, or there is no pool. The encoder
 * allocates its own buffers: the same bytes, no completions. */
GST_START_TEST (test_tile_pool_fallback)
{
  guint e, threads, f;

  for (e = 0; e < G_N_ELEMENTS (tile_pool_encoders); e++) {
    for (threads = 1; threads <= 2; threads++) {
      for (f = 0; f < 4; f++) {
        TileConsumer c;

        if (f == 0)             /* 12 block rows, not 10 */
          tile_consumer_init (&c, 4, TRUE, 48, threads);
        else if (f == 1)        /* ... or 9 */
          tile_consumer_init (&c, 1, TRUE, 36, threads);
        else
          tile_consumer_init (&c, 4, f == 3, 0, threads);
        c.no_pool = f == 3;
        run_tile_pool (tile_pool_encoders[e], threads, &c, f < 2);
        tile_consumer_clear (&c);
      }
    }
  }
}

GST_END_TEST;

static Suite *
bcenc_suite (void)
{
  Suite *s = suite_create ("bcenc");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_caps);
  tcase_add_test (tc, test_caps_variable_framerate);
  tcase_add_test (tc, test_latency);
  tcase_add_test (tc, test_output_size);
  tcase_add_test (tc, test_timestamps_and_keyframes);
  tcase_add_test (tc, test_reference_timestamp_kept);
  tcase_add_test (tc, test_qos_drops_late_frames);
  tcase_add_test (tc, test_bytes_match_library);
  tcase_add_test (tc, test_all_input_formats);
  tcase_add_test (tc, test_quality_levels);
  tcase_add_test (tc, test_threads_identical);
  tcase_add_test (tc, test_quality_change_while_playing);
  tcase_add_test (tc, test_short_buffer);
  tcase_add_test (tc, test_input_video_meta);
  tcase_add_test (tc, test_caps_change);
  tcase_add_test (tc, test_unsupported_caps);
  tcase_add_test (tc, test_downstream_refuses_format);
  tcase_add_test (tc, test_pipeline_not_negotiated);
  tcase_add_test (tc, test_bc457_bytes_match_library);
  tcase_add_test (tc, test_bc457_threads_identical);
  tcase_add_test (tc, test_bc457_decode_pipeline);
  tcase_add_test (tc, test_bc457_unsupported_caps);
  tcase_add_test (tc, test_tile_pool_completes_tiles);
  tcase_add_test (tc, test_tile_pool_reference_timestamp);
  tcase_add_test (tc, test_tile_pool_fallback);

  return s;
}

GST_CHECK_MAIN (bcenc);
