/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Stepped frames, encoding overlapped with sending: `appsrc ! bcNenc !
 * tilesink` (stepped on and off) -> `tilesrc ! appsink` over 127.0.0.1. The encoder fills
 * tilesink's pool tile by tile and tilesink's units send each tile as it
 * is completed; the frames must arrive byte-identical to the library's
 * encoding, with the capture time of the raw frame, over TCP and UDP, for
 * several formats, tilings (more units than block rows, a last block row
 * of partial blocks) and a caps change. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/app/app.h>
#include <gst/bc/bc.h>

#include <string.h>

#include "gstbctest.h"

typedef struct
{
  GstElement *tx, *rx;
  GstElement *appsrc, *enc, *tilesink, *tilesrc, *appsink;
} Link;

static GstStaticCaps unix_static = GST_STATIC_CAPS ("timestamp/x-unix");

static guint64
stat_u64 (GstElement * e, const gchar * field)
{
  return test_stat_u64 (e, "stats", field);
}

/* `appsrc ! @enc ! tilesink @props` -> `tilesrc ! appsink`, connected */
static void
link_start (Link * l, const gchar * enc, guint width, guint height,
    const gchar * props, gboolean udp)
{
  gchar *desc;
  guint port = 0;

  desc = g_strdup_printf ("appsrc name=src format=time caps=\"video/x-raw,"
      "format=RGBA,width=%u,height=%u,framerate=30/1\" ! %s name=enc "
      "quality=fast ! tilesink name=sink port=0 stats-interval=0 "
      "max-in-flight=64 %s", width, height, enc, props);
  l->tx = launch (desc);
  g_free (desc);
  l->appsrc = get (l->tx, "src");
  l->enc = get (l->tx, "enc");
  l->tilesink = get (l->tx, "sink");
  play (l->tx);
  g_object_get (l->tilesink, "bound-port", &port, NULL);
  fail_unless (port > 0);

  /* nothing is lost on loopback: a generous UDP timer, so that a unit
   * thread the scheduler delays does not make a partial frame */
  desc = g_strdup_printf ("tilesrc name=src port=%u timeout=5000 "
      "stats-interval=0 %s ! appsink name=sink sync=false", port,
      udp ? "timer-factor=1000" : "");
  l->rx = launch (desc);
  g_free (desc);
  l->tilesrc = get (l->rx, "src");
  l->appsink = get (l->rx, "sink");
  play (l->rx);
  test_wait_connected (l->tilesink);
}

static void
link_stop (Link * l)
{
  gst_element_set_state (l->rx, GST_STATE_NULL);
  gst_element_set_state (l->tx, GST_STATE_NULL);
  gst_object_unref (l->appsrc);
  gst_object_unref (l->enc);
  gst_object_unref (l->tilesink);
  gst_object_unref (l->tilesrc);
  gst_object_unref (l->appsink);
  gst_object_unref (l->rx);
  gst_object_unref (l->tx);
}

/* Pushes the picture of @seed (@width x @height RGBA) with a capture time
 * 20 ms ago (returned), and its library's fast @format encoding to @want
 * (of @info's size) when not NULL. */
static GstClockTime
push_picture (Link * l, GstBcFormat format, guint width, guint height,
    guint seed, guint8 ** want, GstBcInfo * info)
{
  GstCaps *unix_caps = gst_static_caps_get (&unix_static);
  guint8 *rgba = test_picture (width, height, seed, 3, TEST_ALPHA_WAVE);
  GstClockTime origin;
  GstBuffer *buf;

  if (want)
    *want = test_encode (format, GST_BC_QUALITY_FAST, rgba,
        &test_rgba_layout, width, height, info);
  buf = gst_buffer_new_wrapped (rgba, (gsize) width * height * 4);
  GST_BUFFER_PTS (buf) = seed * (GST_SECOND / 30);
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  origin = g_get_real_time () * 1000 - 20 * GST_MSECOND;
  gst_buffer_add_reference_timestamp_meta (buf, unix_caps, origin,
      GST_CLOCK_TIME_NONE);
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (l->appsrc),
          buf), GST_FLOW_OK);
  gst_caps_unref (unix_caps);
  return origin;
}

/* Pushes the picture of @seed and checks what tilesrc delivers: the
 * library's fast @format encoding of it, byte for byte, with its capture
 * time. */
static void
send_check (Link * l, GstBcFormat format, guint width, guint height, guint seed)
{
  GstCaps *unix_caps = gst_static_caps_get (&unix_static);
  GstReferenceTimestampMeta *meta;
  GstClockTime origin;
  GstSample *sample;
  GstBuffer *buf;
  GstBcInfo info;
  guint8 *want;

  origin = push_picture (l, format, width, height, seed, &want, &info);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (l->appsink),
      10 * GST_SECOND);
  fail_unless (sample != NULL, "no frame %u within 10 s", seed);
  buf = gst_sample_get_buffer (sample);
  fail_unless_equals_uint64 (gst_buffer_get_size (buf), info.size);
  fail_unless (gst_buffer_memcmp (buf, 0, want, info.size) == 0,
      "frame %u differs from the library's encoding", seed);
  meta = gst_buffer_get_reference_timestamp_meta (buf, unix_caps);
  fail_unless (meta != NULL);
  fail_unless_equals_uint64 (meta->timestamp, origin);
  gst_sample_unref (sample);
  g_free (want);
  gst_caps_unref (unix_caps);
}

/* @n frames of @enc (@format) at @width x @height through tilesink
 * @props; with @stepped, every frame went out while it was encoded. */
static void
check_stepped (const gchar * enc, GstBcFormat format, guint width,
    guint height, const gchar * props, gboolean stepped, guint n)
{
  gboolean udp = strstr (props, "protocol=udp") != NULL;
  gchar *all = g_strdup_printf ("stepped=%s %s", stepped ? "true" : "false",
      props);
  Link l = { 0 };
  guint i;

  link_start (&l, enc, width, height, all, udp);
  for (i = 0; i < n; i++)
    send_check (&l, format, width, height, i);
  test_tile_wait_u64 (l.tilesink, "frames-sent", n);
  fail_unless_equals_uint64 (stat_u64 (l.tilesink, "frames-stepped"),
      stepped ? n : 0);
  fail_unless_equals_uint64 (stat_u64 (l.tilesink, "frames-dropped"), 0);
  fail_unless_equals_uint64 (stat_u64 (l.tilesink, "frames-abandoned"), 0);
  fail_unless_equals_uint64 (stat_u64 (l.tilesrc, "frames-received"), n);
  fail_unless_equals_uint64 (stat_u64 (l.tilesrc, "frames-incomplete"), 0);
  link_stop (&l);
  g_free (all);
}

GST_START_TEST (test_stepped_tcp)
{
  /* 64 block rows in 4 tiles, encoded on 2 threads, and on 1 */
  check_stepped ("bc1enc threads=2", GST_BC_FORMAT_BC1, 320, 256,
      "units=4", TRUE, 6);
  check_stepped ("bc1enc threads=1", GST_BC_FORMAT_BC1, 320, 256,
      "units=4", TRUE, 3);
  /* the same frames whole, after the encoder */
  check_stepped ("bc1enc threads=2", GST_BC_FORMAT_BC1, 320, 256,
      "units=4", FALSE, 3);
}

GST_END_TEST;

GST_START_TEST (test_stepped_udp)
{
  check_stepped ("bc1enc threads=2", GST_BC_FORMAT_BC1, 320, 256,
      "units=4 protocol=udp", TRUE, 6);
  check_stepped ("bc7enc threads=2", GST_BC_FORMAT_BC7, 200, 90,
      "units=3 protocol=udp packet-size=1000", TRUE, 3);
}

GST_END_TEST;

/* Other formats and tilings: a last block row of partial blocks, more
 * units than block rows (one tile a row), one unit. */
GST_START_TEST (test_stepped_formats)
{
  check_stepped ("bc3enc", GST_BC_FORMAT_YCOCG_BC3, 202, 118, "units=3",
      TRUE, 3);
  check_stepped ("bc7enc threads=2", GST_BC_FORMAT_BC7, 64, 12, "units=8",
      TRUE, 3);
  check_stepped ("bc5enc", GST_BC_FORMAT_BC5, 128, 64, "units=1", TRUE, 3);
}

GST_END_TEST;

/* New caps: tilesink proposes a new pool for the new tiling, the encoder
 * takes it, and frames still go while they are encoded. */
GST_START_TEST (test_stepped_caps_change)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  GstSample *sample;
  GstBcInfo info;
  guint8 *want;
  Link l = { 0 };
  GstCaps *caps;
  guint i;

  link_start (&l, "bc1enc", 128, 64, "units=2", FALSE);
  for (i = 0; i < 3; i++)
    send_check (&l, GST_BC_FORMAT_BC1, 128, 64, i);
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "RGBA",
      "width", G_TYPE_INT, 96, "height", G_TYPE_INT, 40, "framerate",
      GST_TYPE_FRACTION, 30, 1, NULL);
  g_object_set (l.appsrc, "caps", caps, NULL);
  gst_caps_unref (caps);
  /* the first frame of the new caps goes before the receiver has its new
   * units connected: unsent (as without overlap), unless they connect
   * while it is encoded: then it arrives */
  push_picture (&l, GST_BC_FORMAT_BC1, 96, 40, 3, &want, &info);
  while (test_tile_stat_uint (l.tilesink, "generation") != 2)
    fail_unless (g_get_monotonic_time () < end), g_usleep (5000);
  test_wait_connected (l.tilesink);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (l.appsink),
      GST_SECOND / 2);
  if (sample) {
    fail_unless (gst_buffer_memcmp (gst_sample_get_buffer (sample), 0, want,
            info.size) == 0);
    gst_sample_unref (sample);
  }
  g_free (want);
  for (i = 4; i < 7; i++)
    send_check (&l, GST_BC_FORMAT_BC1, 96, 40, i);
  test_tile_wait_u64 (l.tilesink, "frames-sent", sample ? 7 : 6);
  fail_unless_equals_uint64 (stat_u64 (l.tilesink, "frames-stepped"),
      sample ? 7 : 6);
  fail_unless_equals_uint64 (stat_u64 (l.tilesink, "frames-unsent"),
      sample ? 0 : 1);
  link_stop (&l);
}

GST_END_TEST;

/* A relay, `tilesrc ! tilesink`: tilesrc fills the relay's pool and
 * completes the tiles of its own units as they arrive. With as many units
 * on both hops the tiles are the same and each goes on as it comes in;
 * with other units the relay sends each frame whole once it has it. */
static void
check_relay (guint relay_units, gboolean overlapped)
{
  gchar *desc;
  GstElement *tx, *relay, *rx, *appsrc, *tx_sink, *relay_sink, *appsink;
  guint port = 0, relay_port = 0, i;
  gsize size = 64 * 32 / 2;

  tx = launch ("appsrc name=src format=time caps=\"video/x-bc,format=BC1,"
      "width=64,height=32,framerate=30/1\" ! tilesink name=sink port=0 "
      "units=2 stats-interval=0 max-in-flight=64");
  appsrc = get (tx, "src");
  play (tx);
  tx_sink = get (tx, "sink");
  g_object_get (tx_sink, "bound-port", &port, NULL);
  desc = g_strdup_printf ("tilesrc port=%u timeout=5000 stats-interval=0 ! "
      "tilesink name=relay port=0 units=%u max-in-flight=64 "
      "stats-interval=0", port, relay_units);
  relay = launch (desc);
  g_free (desc);
  relay_sink = get (relay, "relay");
  play (relay);
  g_object_get (relay_sink, "bound-port", &relay_port, NULL);
  desc = g_strdup_printf ("tilesrc port=%u timeout=5000 stats-interval=0 ! "
      "appsink name=sink sync=false", relay_port);
  rx = launch (desc);
  g_free (desc);
  appsink = get (rx, "sink");
  play (rx);
  test_wait_connected (tx_sink);
  test_wait_connected (relay_sink);

  for (i = 0; i < 6; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
    GstSample *sample;
    guint8 *want = g_malloc (size);
    guint j;

    for (j = 0; j < size; j++)
      want[j] = (guint8) (j * 13 + i * 7 + (j >> 5));
    gst_buffer_fill (buf, 0, want, size);
    GST_BUFFER_PTS (buf) = i * (GST_SECOND / 30);
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (appsrc),
            buf), GST_FLOW_OK);
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (appsink),
        10 * GST_SECOND);
    fail_unless (sample != NULL, "no frame %u", i);
    {
      GstMapInfo m;
      gsize k, nd = 0, first = 0;

      gst_buffer_map (gst_sample_get_buffer (sample), &m, GST_MAP_READ);
      for (k = 0; k < size; k++)
        if (m.data[k] != want[k] && nd++ == 0)
          first = k;
      gst_buffer_unmap (gst_sample_get_buffer (sample), &m);
      fail_unless (nd == 0, "frame %u differs: %" G_GSIZE_FORMAT " bytes, "
          "first at %" G_GSIZE_FORMAT, i, nd, first);
    }
    gst_sample_unref (sample);
    g_free (want);
  }
  test_tile_wait_u64 (relay_sink, "frames-sent", 6);
  fail_unless_equals_uint64 (stat_u64 (relay_sink, "frames-stepped"),
      overlapped ? 6 : 0);

  gst_element_set_state (rx, GST_STATE_NULL);
  gst_element_set_state (relay, GST_STATE_NULL);
  gst_element_set_state (tx, GST_STATE_NULL);
  gst_object_unref (appsink);
  gst_object_unref (relay_sink);
  gst_object_unref (tx_sink);
  gst_object_unref (appsrc);
  gst_object_unref (rx);
  gst_object_unref (relay);
  gst_object_unref (tx);
}

GST_START_TEST (test_stepped_relay)
{
  check_relay (2, TRUE);
  check_relay (3, FALSE);
}

GST_END_TEST;

/* A receiver that stops reading, `max-in-flight=2 leaky=downstream`: the
 * frames waiting for the units are replaced by newer ones (or dropped) as
 * they are admitted at their first encoded tile, the encoder never waits
 * (nor deadlocks: a replaced frame may free a pool buffer), and what the
 * receiver gets afterwards is whole frames, in order, each byte-exact. */
GST_START_TEST (test_stepped_leaky)
{
  const guint w = 1024, h = 512, n = 24;
  guint8 *want[24];
  GstBcInfo info;
  guint64 last = 0, got = 0;
  GstSample *sample;
  Link l = { 0 };
  gchar *desc;
  guint i, port = 0;

  desc = g_strdup_printf ("appsrc name=src format=time caps=\"video/x-raw,"
      "format=RGBA,width=%u,height=%u,framerate=30/1\" ! bc1enc name=enc "
      "quality=fast ! tilesink name=sink port=0 stats-interval=0 units=2 "
      "max-in-flight=2 leaky=downstream send-buffer-size=65536", w, h);
  l.tx = launch (desc);
  g_free (desc);
  l.appsrc = get (l.tx, "src");
  l.enc = get (l.tx, "enc");
  l.tilesink = get (l.tx, "sink");
  play (l.tx);
  g_object_get (l.tilesink, "bound-port", &port, NULL);
  desc = g_strdup_printf ("tilesrc name=src port=%u timeout=5000 "
      "stats-interval=0 receive-buffer-size=65536 ! appsink name=sink "
      "sync=false max-buffers=1", port);
  l.rx = launch (desc);
  g_free (desc);
  l.tilesrc = get (l.rx, "src");
  l.appsink = get (l.rx, "sink");
  play (l.rx);
  test_wait_connected (l.tilesink);

  /* pushed while nobody pulls: the receiver fills, the units block */
  for (i = 0; i < n; i++) {
    want[i] = NULL;
    push_picture (&l, GST_BC_FORMAT_BC1, w, h, i, &want[i], &info);
  }
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (l.appsink),
              2 * GST_SECOND))) {
    GstBuffer *buf = gst_sample_get_buffer (sample);
    gboolean found = FALSE;

    for (i = 0; i < n && !found; i++)
      found = gst_buffer_memcmp (buf, 0, want[i], info.size) == 0;
    fail_unless (found, "frame %" G_GUINT64_FORMAT " received is none of "
        "the frames encoded", got);
    fail_unless (got == 0 || i > last, "frames out of order");
    last = i;
    got++;
    gst_sample_unref (sample);
  }
  fail_unless (got >= 2 && got < n, "%" G_GUINT64_FORMAT " frames", got);
  /* (dropped: replaced while waiting when a unit had not started on it
   * yet, else dropped at admission; which one is the scheduler's) */
  fail_unless (stat_u64 (l.tilesink, "frames-dropped") > 0);
  GST_INFO ("%" G_GUINT64_FORMAT " frames received, %" G_GUINT64_FORMAT
      " dropped, %" G_GUINT64_FORMAT " of them replaced", got,
      stat_u64 (l.tilesink, "frames-dropped"),
      stat_u64 (l.tilesink, "frames-replaced"));
  fail_unless (stat_u64 (l.tilesink, "frames-stepped") > 0);
  fail_unless_equals_uint64 (stat_u64 (l.tilesrc, "frames-incomplete"), 0);
  for (i = 0; i < n; i++)
    g_free (want[i]);
  link_stop (&l);
}

GST_END_TEST;

static Suite *
tilestepped_suite (void)
{
  Suite *s = suite_create ("tilestepped");
  TCase *tc = test_suite_add_general (s, 120);

  tcase_add_test (tc, test_stepped_tcp);
  tcase_add_test (tc, test_stepped_udp);
  tcase_add_test (tc, test_stepped_formats);
  tcase_add_test (tc, test_stepped_caps_change);
  tcase_add_test (tc, test_stepped_relay);
  tcase_add_test (tc, test_stepped_leaky);
  return s;
}

GST_CHECK_MAIN (tilestepped);
