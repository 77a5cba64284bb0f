/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* tilesrc's `region`: a receiver gets caps of the region's size and
 * buffers that hold the region cut from the sent frame (video/x-bc and
 * video/x-raw), over TCP, UDP unicast and multicast; the sender sends it
 * only the tiles it needs (a half-frame region costs at most 0.6x the
 * bytes of the whole frame); four quarter receivers of one sender each get
 * their quarter; a region that does not fit the frames is an error at
 * negotiation. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/app/app.h>

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include "gstbctest.h"

#define PULL_TIMEOUT (10 * GST_SECOND)
#define MAX_RX 5

/* A frame format as the test cuts it: units of @unit x @unit pixels of
 * @unit_bytes bytes (a 4x4 block of BC1, a pixel of BGRx), rows of whole
 * units, unpadded (what tilesink sends for these caps). */
typedef struct
{
  const gchar *caps;
  guint width, height;
  guint unit, unit_bytes;
} Format;

static const Format bc1_1080 = {
  "video/x-bc,format=BC1,width=1920,height=1080,framerate=30/1",
  1920, 1080, 4, 8
};

static const Format bgrx_360 = {
  "video/x-raw,format=BGRx,width=640,height=360,framerate=30/1",
  640, 360, 1, 4
};

static gsize
format_size (const Format * f, guint w, guint h)
{
  return (gsize) ((w + f->unit - 1) / f->unit) * f->unit_bytes *
      ((h + f->unit - 1) / f->unit);
}

typedef struct
{
  GstElement *pipe, *appsrc, *sink;
  guint port;
  GArray *seeds;                /* the frames pushed */
} Tx;

typedef struct
{
  GstElement *pipe, *src, *appsink;
  guint x, y, w, h;             /* the region; w == 0: none */
  guint frames;                 /* pulled and checked */
  guint last;                   /* the seed of the last one */
  GstClockTime sender_time[64]; /* of each seed, as received */
} Rx;

static void
tx_start (Tx * t, const Format * f, const gchar * props)
{
  /* (multicast: from the wildcard address, the group's datagrams leave
   * from the route's, not 127.0.0.1) */
  gchar *desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" ! "
      "tilesink name=sink %s port=0 stats-interval=0 max-in-flight=64 %s",
      f->caps, strstr (props, "multicast") ? "" : "host=127.0.0.1", props);

  memset (t, 0, sizeof (*t));
  t->pipe = launch (desc);
  g_free (desc);
  t->appsrc = get (t->pipe, "src");
  t->sink = get (t->pipe, "sink");
  t->seeds = g_array_new (FALSE, FALSE, sizeof (guint));
  play (t->pipe);
  g_object_get (t->sink, "bound-port", &t->port, NULL);
  fail_unless (t->port > 0);
}

static void
tx_stop (Tx * t)
{
  gst_element_set_state (t->pipe, GST_STATE_NULL);
  gst_object_unref (t->appsrc);
  gst_object_unref (t->sink);
  gst_object_unref (t->pipe);
  g_array_unref (t->seeds);
}

/* A receiver of @region ("x,y,w,h", NULL: the whole frame). */
static void
rx_start (Rx * r, guint port, const gchar * region, const gchar * props)
{
  gchar *desc = g_strdup_printf ("tilesrc name=src host=127.0.0.1 port=%u "
      "timeout=5000 stats-interval=0 timer-factor=1000 %s%s%s %s ! "
      "appsink name=sink sync=false", port, region ? "region=\"" : "",
      region ? region : "", region ? "\"" : "", props ? props : "");

  memset (r, 0, sizeof (*r));
  if (region)
    fail_unless (sscanf (region, "%u,%u,%u,%u", &r->x, &r->y, &r->w,
            &r->h) == 4);
  r->pipe = launch (desc);
  g_free (desc);
  r->src = get (r->pipe, "src");
  r->appsink = get (r->pipe, "sink");
  play (r->pipe);
}

static void
rx_stop (Rx * r)
{
  gst_element_set_state (r->pipe, GST_STATE_NULL);
  gst_object_unref (r->src);
  gst_object_unref (r->appsink);
  gst_object_unref (r->pipe);
}

/* The receivers' entries in tilesink's statistics (free it). */
static const GValue *
receivers_of (GstStructure * s)
{
  const GValue *list = gst_structure_get_value (s, "receivers");

  fail_unless (list != NULL);
  return list;
}

/* Waits up to 10 s for @n receivers, all connected (their units up). */
static void
wait_receivers (Tx * t, guint n)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (TRUE) {
    GstStructure *s = test_get_stats (t->sink, "stats");
    const GValue *list = receivers_of (s);
    guint i, ready = 0;

    for (i = 0; i < gst_value_array_get_size (list); i++) {
      const GstStructure *e =
          gst_value_get_structure (gst_value_array_get_value (list, i));
      gboolean connected = FALSE;

      gst_structure_get_boolean (e, "connected", &connected);
      ready += connected;
    }
    gst_structure_free (s);
    if (ready >= n)
      return;
    fail_unless (g_get_monotonic_time () < end, "%u of %u receivers "
        "connected within 10 s", ready, n);
    g_usleep (5000);
  }
}

/* bytes-sent of tilesink's receiver entry with @region (NULL: the one
 * without a region) */
static guint64
sent_to (Tx * t, const gchar * region)
{
  GstStructure *s = test_get_stats (t->sink, "stats");
  const GValue *list = receivers_of (s);
  guint64 bytes = 0;
  gboolean found = FALSE;
  guint i;

  for (i = 0; i < gst_value_array_get_size (list); i++) {
    const GstStructure *e =
        gst_value_get_structure (gst_value_array_get_value (list, i));
    const gchar *r = gst_structure_get_string (e, "region");

    if (g_strcmp0 (r, region) == 0) {
      fail_unless (gst_structure_get_uint64 (e, "bytes-sent", &bytes));
      found = TRUE;
    }
  }
  fail_unless (found, "no receiver with region %s in %" GST_PTR_FORMAT,
      region, s);
  gst_structure_free (s);
  return bytes;
}

static void
push_frame (Tx * t, const Format * f, guint seed)
{
  gsize size = format_size (f, f->width, f->height);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  test_fill_frame (map.data, size, seed);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = seed * (GST_SECOND / 30);
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (t->appsrc),
          buf), GST_FLOW_OK);
  g_array_append_val (t->seeds, seed);
}

/* The region of frame @seed, cut here from the whole frame: rows of whole
 * units, without padding. */
static guint8 *
cut (const Format * f, guint seed, const Rx * r, gsize * out_size)
{
  gsize size = format_size (f, f->width, f->height);
  guint8 *frame = g_malloc (size), *out;
  gsize stride = (gsize) ((f->width + f->unit - 1) / f->unit) * f->unit_bytes;
  gsize out_stride = (gsize) ((r->w + f->unit - 1) / f->unit) * f->unit_bytes;
  guint rows = (r->h + f->unit - 1) / f->unit, i;

  test_fill_frame (frame, size, seed);
  *out_size = out_stride * rows;
  out = g_malloc (*out_size);
  for (i = 0; i < rows; i++)
    memcpy (out + i * out_stride, frame + (r->y / f->unit + i) * stride +
        (r->x / f->unit) * f->unit_bytes, out_stride);
  g_free (frame);
  return out;
}

/* Pulls a frame from @r and checks it: caps of the region's size, and the
 * bytes of the region of one of the frames pushed after the last one it
 * pulled. @all: that is the very next frame pushed (TCP and UDP unicast on
 * the loopback lose none). */
static void
pull_region (Tx * t, Rx * r, const Format * f, gboolean all)
{
  static GstStaticCaps unix_static = GST_STATIC_CAPS ("timestamp/x-unix");
  GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (r->appsink),
      PULL_TIMEOUT);
  GstStructure *s;
  GstBuffer *buf;
  GstMapInfo map;
  GstCaps *ts_caps;
  GstReferenceTimestampMeta *meta;
  gint w = 0, h = 0;
  guint i, seed = 0;
  gboolean found = FALSE;

  fail_unless (sample != NULL, "no frame within 10 s (region %u,%u,%u,%u)",
      r->x, r->y, r->w, r->h);
  s = gst_caps_get_structure (gst_sample_get_caps (sample), 0);
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  fail_unless_equals_int (w, r->w);
  fail_unless_equals_int (h, r->h);
  fail_unless (gst_structure_has_field (s, "framerate"));
  buf = gst_sample_get_buffer (sample);
  fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  gst_buffer_map (buf, &map, GST_MAP_READ);
  for (i = 0; i < t->seeds->len && !found; i++) {
    gsize size;
    guint8 *want;

    seed = g_array_index (t->seeds, guint, i);
    if (seed <= r->last)
      continue;
    want = cut (f, seed, r, &size);
    fail_unless_equals_uint64 (map.size, size);
    found = memcmp (map.data, want, size) == 0;
    g_free (want);
    if (all && !found)
      break;
  }
  gst_buffer_unmap (buf, &map);
  fail_unless (found, "region %u,%u,%u,%u: the frame after %u is none of "
      "the frames sent%s", r->x, r->y, r->w, r->h, r->last,
      all ? " (the next one)" : "");
  r->last = seed;
  r->frames++;
  ts_caps = gst_static_caps_get (&unix_static);
  meta = gst_buffer_get_reference_timestamp_meta (buf, ts_caps);
  gst_caps_unref (ts_caps);
  fail_unless (meta != NULL);
  if (seed < G_N_ELEMENTS (r->sender_time))
    r->sender_time[seed] = meta->timestamp;
  gst_sample_unref (sample);
}

/* A region receiver and a whole-frame one on one sender: the region's
 * receiver gets the region of every frame (bytes and caps), and costs at
 * most @max_ratio of the bytes of the whole one: at the sender (its
 * bytes-sent, unicast) or as received (multicast, where the sender sends
 * every unit once to the group). */
static void
check_region (const Format * f, const gchar * tx_props, const gchar * region,
    gdouble max_ratio)
{
  gboolean mcast = strstr (tx_props, "multicast-group") != NULL;
  gboolean udp = strstr (tx_props, "protocol=udp") != NULL;
  Tx t;
  Rx whole, part;
  guint seed, n = 20;
  guint64 a, b;

  tx_start (&t, f, tx_props);
  rx_start (&whole, t.port, NULL, NULL);
  rx_start (&part, t.port, region, NULL);
  wait_receivers (&t, 2);
  for (seed = 1; seed <= n; seed += 2) {
    push_frame (&t, f, seed);
    push_frame (&t, f, seed + 1);
    pull_region (&t, &part, f, !mcast);
    pull_region (&t, &part, f, !mcast);
  }
  /* the whole frame's receiver is a region receiver of the whole frame */
  whole.w = f->width;
  whole.h = f->height;
  for (seed = 0; seed < part.frames; seed++)
    pull_region (&t, &whole, f, !mcast);
  if (!mcast)
    fail_unless_equals_int (part.frames, n);
  fail_unless (part.frames >= n / 2, "%u of %u frames", part.frames, n);

  if (mcast) {
    a = test_stat_u64 (part.src, "stats", "bytes-received");
    b = test_stat_u64 (whole.src, "stats", "bytes-received");
    /* per frame: the members may have taken different frames */
    a /= test_stat_u64 (part.src, "stats", "frames-received");
    b /= test_stat_u64 (whole.src, "stats", "frames-received");
  } else {
    test_tile_wait_u64 (t.sink, "frames-sent", 2 * n);
    a = sent_to (&t, region);
    b = sent_to (&t, NULL);
  }
  GST_INFO ("%s %s region %s: %" G_GUINT64_FORMAT " bytes, whole frame %"
      G_GUINT64_FORMAT ": %.3f", f->caps, tx_props, region, a, b,
      (gdouble) a / b);
  fail_unless (a > 0 && a <= max_ratio * b, "region %s: %" G_GUINT64_FORMAT
      " bytes, the whole frame %" G_GUINT64_FORMAT " (%.3f > %.2f)", region,
      a, b, (gdouble) a / b, max_ratio);
  fail_unless_equals_int (test_tile_stat_uint (part.src, "region-units") <
      test_tile_stat_uint (part.src, "units"), TRUE);
  if (udp)
    fail_unless_equals_uint64 (test_stat_u64 (part.src, "stats",
            "packets-invalid"), 0);
  rx_stop (&part);
  rx_stop (&whole);
  tx_stop (&t);
}

GST_START_TEST (test_region_tcp)
{
  /* the top half: 2 of 4 tiles */
  check_region (&bc1_1080, "units=4", "0,0,1920,540", 0.6);
  check_region (&bgrx_360, "units=4", "320,0,320,180", 0.6);
  /* a region whose edges are not the tiles' */
  check_region (&bc1_1080, "units=8", "100,300,1000,400", 0.6);
}

GST_END_TEST;

GST_START_TEST (test_region_udp)
{
  check_region (&bc1_1080, "units=4 protocol=udp", "960,0,960,540", 0.6);
  check_region (&bgrx_360, "units=4 protocol=udp", "0,0,640,180", 0.6);
}

GST_END_TEST;

GST_START_TEST (test_region_multicast)
{
  if (!test_have_multicast_route ("test_region_multicast"))
    return;
  check_region (&bc1_1080, "units=4 protocol=udp packet-size=1200 "
      "multicast-group=239.255.77.20", "0,0,1920,540", 0.6);
  check_region (&bgrx_360, "units=4 protocol=udp packet-size=1200 "
      "multicast-group=239.255.77.21", "320,180,320,180", 0.6);
}

GST_END_TEST;

/* The video wall: four receivers of one 1920x1080 sender, each a quarter:
 * each gets its quarter of every frame (the same frames: the sender's
 * time on them is the same at all four). */
static void
check_wall (const gchar * tx_props, gboolean all)
{
  static const gchar *const quarters[] = { "0,0,960,540", "960,0,960,540",
    "0,540,960,540", "960,540,960,540"
  };
  Tx t;
  Rx r[4];
  guint i, seed, n = 12;

  tx_start (&t, &bc1_1080, tx_props);
  for (i = 0; i < 4; i++)
    rx_start (&r[i], t.port, quarters[i], NULL);
  wait_receivers (&t, 4);
  for (seed = 1; seed <= n; seed += 2) {
    push_frame (&t, &bc1_1080, seed);
    push_frame (&t, &bc1_1080, seed + 1);
    for (i = 0; i < 4; i++) {
      pull_region (&t, &r[i], &bc1_1080, all);
      pull_region (&t, &r[i], &bc1_1080, all);
    }
  }
  for (seed = 1; seed <= n; seed++) {
    GstClockTime when = GST_CLOCK_TIME_NONE;

    for (i = 0; i < 4; i++) {
      if (!GST_CLOCK_TIME_IS_VALID (r[i].sender_time[seed]))
        continue;
      if (!GST_CLOCK_TIME_IS_VALID (when))
        when = r[i].sender_time[seed];
      fail_unless_equals_uint64 (r[i].sender_time[seed], when);
    }
  }
  for (i = 0; i < 4; i++) {
    fail_unless (!all || r[i].frames == n);
    rx_stop (&r[i]);
  }
  tx_stop (&t);
}

GST_START_TEST (test_region_wall)
{
  check_wall ("units=8", TRUE);
  check_wall ("units=8 protocol=udp", TRUE);
  if (test_have_multicast_route ("test_region_wall"))
    check_wall ("units=8 protocol=udp packet-size=1200 "
        "multicast-group=239.255.77.22", FALSE);
}

GST_END_TEST;

/* A region that does not fit the sender's frames: a CORE/NEGOTIATION
 * error that names the region and the frame size, never a crash. */
static void
check_bad_region (const Format * f, const gchar * tx_props,
    const gchar * region, const gchar * why)
{
  Tx t;
  Rx r;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;
  gchar *size = g_strdup_printf ("%ux%u frame", f->width, f->height);

  tx_start (&t, f, tx_props);
  rx_start (&r, t.port, region, NULL);
  bus = gst_element_get_bus (r.pipe);
  msg = check_error_message (bus, GST_CORE_ERROR,
      GST_CORE_ERROR_NEGOTIATION, region, size, why, NULL);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "Cannot receive region") &&
      strstr (err->message, region) && strstr (err->message, size),
      "error '%s'", err->message);
  g_error_free (err);
  gst_message_unref (msg);
  gst_object_unref (bus);
  rx_stop (&r);
  tx_stop (&t);
  g_free (size);
}

GST_START_TEST (test_region_bad)
{
  static const Format i420 = {
    "video/x-raw,format=I420,width=64,height=48,framerate=30/1", 64, 48, 1, 1
  };

  check_bad_region (&bc1_1080, "units=4", "1000,0,960,540",
      "outside the frame");
  check_bad_region (&bc1_1080, "units=4 protocol=udp", "0,0,1920,1084",
      "outside the frame");
  check_bad_region (&bc1_1080, "units=4", "0,0,0,540", "empty");
  check_bad_region (&bc1_1080, "units=4", "4,4,4294967295,4", "outside");
  check_bad_region (&bc1_1080, "units=4", "2,0,960,540",
      "needs x and width multiples of 4");
  check_bad_region (&bc1_1080, "units=4 protocol=udp", "0,0,962,540",
      "needs x and width multiples of 4");
  check_bad_region (&i420, "units=4", "1,0,32,24",
      "I420 needs x and width multiples of 2");
  check_bad_region (&bgrx_360, "units=4", "0,0,641,8", "outside");
}

GST_END_TEST;

/* The property: four numbers, or nothing (the whole frame); anything else
 * is refused with a warning and leaves it as it was. */
GST_START_TEST (test_region_property)
{
  GstElement *src = gst_element_factory_make ("tilesrc", NULL);
  gchar *v = NULL;

  g_object_get (src, "region", &v, NULL);
  fail_unless (v == NULL);
  g_object_set (src, "region", " 8, 4 ,16,12", NULL);
  g_object_get (src, "region", &v, NULL);
  fail_unless_equals_string (v, "8,4,16,12");
  g_free (v);
  ASSERT_WARNING (g_object_set (src, "region", "8,4,16", NULL));
  ASSERT_WARNING (g_object_set (src, "region", "a,b,c,d", NULL));
  ASSERT_WARNING (g_object_set (src, "region", "-8,4,16,12", NULL));
  g_object_get (src, "region", &v, NULL);
  fail_unless_equals_string (v, "8,4,16,12");
  g_free (v);
  g_object_set (src, "region", NULL, NULL);
  g_object_get (src, "region", &v, NULL);
  fail_unless (v == NULL);
  g_object_set (src, "region", "", NULL);
  g_object_get (src, "region", &v, NULL);
  fail_unless (v == NULL);
  gst_object_unref (src);
}

GST_END_TEST;

static Suite *
tileregion_suite (void)
{
  Suite *s = suite_create ("tileregion");
  TCase *tc = test_suite_add_general (s, 120);

  tcase_add_test (tc, test_region_property);
  tcase_add_test (tc, test_region_tcp);
  tcase_add_test (tc, test_region_udp);
  tcase_add_test (tc, test_region_multicast);
  tcase_add_test (tc, test_region_wall);
  tcase_add_test (tc, test_region_bad);
  return s;
}

GST_CHECK_MAIN (tileregion);
