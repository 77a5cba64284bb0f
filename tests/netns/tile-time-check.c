/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The two ends of the time measurements (tests/netns/time.sh, the `netns`
 * suite's time scenarios, and benchmarks/time/run.py):
 *
 *   --send     appsrc is-live=true ! tilesink: pushes --fps frames a
 *              second of --width x --height BC1's size (pseudo-random
 *              bytes) for --seconds, each stamped (below) at its capture
 *   --receive  runs --pipeline (gst_parse_launch), in which the tilesrc is
 *              named `src` and the sink, a fakesink, `sink`; for --seconds
 *              after its first frame, records for every frame the moment
 *              the sink renders it (fakesink's `handoff`, emitted in
 *              render (), after its clock wait when sync=true) and the
 *              moment it leaves tilesrc (a buffer probe on tilesrc's src
 *              pad), then prints tilesrc's and fakesink's `stats`
 *
 * The stamp, at the start of each frame (--send; --stamped at the
 * receiver reads it): bytes 0-7 "TIMEBNCH", 8-15 the frame number k,
 * 16-23 the capture time: the sender pipeline clock's time when the frame
 * is made (a GstSystemClock: CLOCK_MONOTONIC, the same in every network
 * namespace of the host), 24-31 CLOCK_REALTIME then; all little endian.
 * The frame's PTS is that capture time less the base time, so tilesink
 * (its upstream is live) puts that same instant on the wire as the
 * capture. Frame k is made at T0 + k / fps (CLOCK_MONOTONIC, absolute);
 * when the appsrc still holds 2 frames it is dropped (a live source).
 *
 * The receiver's times are CLOCK_MONOTONIC (and CLOCK_REALTIME at the
 * render), read in the callbacks; without --stamped, frames are told apart
 * by their PTS. The pipeline takes LATENCY messages
 * (gst_bin_recalculate_latency ()) and a lost clock (PAUSED, PLAYING) as
 * gst-launch-1.0 does.
 *
 * Output: one JSON object on stdout (or --out FILE): "frames": [[k or -1,
 * capture, arrival, render, render_realtime, pts], ...] (ns; -1 unknown),
 * "src_stats", "sink_stats", the pipeline's latency, the LATENCY messages.
 * Exit status: 0, 1 failure (error, no frame), 2 bad arguments. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/app/app.h>

#include "netns-json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAGIC "TIMEBNCH"
#define STAMP_SIZE 32

static gboolean opt_send, opt_receive, opt_stamped, opt_key_capture;
static gchar *opt_address = NULL, *opt_pipeline = NULL, *opt_out = NULL;
static gint opt_port = 7000, opt_units = 4, opt_width = 1280,
    opt_height = 720, opt_fps = 30;
static gdouble opt_seconds = 10.0, opt_wait = 20.0;
static gchar **opt_sink_props = NULL;

static GOptionEntry entries[] = {
  {"send", 0, 0, G_OPTION_ARG_NONE, &opt_send, "Be the sender", NULL},
  {"receive", 0, 0, G_OPTION_ARG_NONE, &opt_receive, "Be the receiver",
      NULL},
  {"address", 0, 0, G_OPTION_ARG_STRING, &opt_address,
      "Sender: address to listen on (default 0.0.0.0)", "A"},
  {"port", 0, 0, G_OPTION_ARG_INT, &opt_port, "Sender: control port", "P"},
  {"units", 0, 0, G_OPTION_ARG_INT, &opt_units, "Sender: units (4)", "U"},
  {"width", 'W', 0, G_OPTION_ARG_INT, &opt_width, "Sender: width", "W"},
  {"height", 'H', 0, G_OPTION_ARG_INT, &opt_height, "Sender: height", "H"},
  {"fps", 0, 0, G_OPTION_ARG_INT, &opt_fps, "Sender: frames a second", "F"},
  {"sink-prop", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_sink_props,
      "Sender: set this tilesink property (repeatable)", "NAME=VALUE"},
  {"pipeline", 0, 0, G_OPTION_ARG_STRING, &opt_pipeline,
      "Receiver: the pipeline (tilesrc name=src ... ! fakesink name=sink)",
      "DESC"},
  {"key-capture", 0, 0, G_OPTION_ARG_NONE, &opt_key_capture,
      "Receiver, without --stamped: a frame is its PTS plus the base time "
      "(its capture on the shared clock: the same at every receiver), which "
      "is also its capture time (CLOCK_MONOTONIC: the sender's clock)", NULL},
  {"stamped", 0, 0, G_OPTION_ARG_NONE, &opt_stamped,
      "Receiver: the frames carry the sender's stamp", NULL},
  {"seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt_seconds,
      "Sender: how long to push; receiver: how long to record after the "
        "first frame", "S"},
  {"wait", 0, 0, G_OPTION_ARG_DOUBLE, &opt_wait,
      "Receiver: the longest wait for the first frame (20)", "S"},
  {"out", 'o', 0, G_OPTION_ARG_STRING, &opt_out,
      "Write the JSON here (default stdout)", "FILE"},
  {NULL}
};

static gint64
now_ns (clockid_t id)
{
  struct timespec ts;

  clock_gettime (id, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- JSON (the values: netns-json.h) ---- */

static void
json_stats (GString * out, const gchar * key, GstElement * e)
{
  GstStructure *s = NULL;

  g_string_append_printf (out, ",\"%s\":", key);
  if (e && g_object_class_find_property (G_OBJECT_GET_CLASS (e), "stats"))
    g_object_get (e, "stats", &s, NULL);
  if (s) {
    json_structure (out, s);
    gst_structure_free (s);
  } else
    g_string_append (out, "null");
}

static gboolean
write_out (GString * out)
{
  g_string_append_c (out, '\n');
  if (opt_out) {
    GError *err = NULL;

    if (!g_file_set_contents (opt_out, out->str, out->len, &err)) {
      g_printerr ("tile-time-check: %s\n", err->message);
      g_error_free (err);
      return FALSE;
    }
  } else {
    fwrite (out->str, 1, out->len, stdout);
    fflush (stdout);
  }
  return TRUE;
}

/* Ends the JSON object @out with @err (when not NULL: printed too) and
 * writes it out; frees @out. Returns FALSE when there was an error or it
 * could not be written. */
static gboolean
finish_report (GString * out, const gchar * err)
{
  gboolean ok = err == NULL;

  if (err) {
    g_string_append (out, ",\"error\":");
    json_string (out, err);
    g_printerr ("tile-time-check: %s\n", err);
  }
  g_string_append_c (out, '}');
  if (!write_out (out))
    ok = FALSE;
  g_string_free (out, TRUE);
  return ok;
}

/* The first error on @bus, if any (a string to free). */
static gchar *
bus_error (GstMessage * m)
{
  GError *err = NULL;
  gchar *dbg = NULL, *s;

  gst_message_parse_error (m, &err, &dbg);
  s = g_strdup_printf ("%s: %s (%s)", GST_OBJECT_NAME (m->src), err->message,
      dbg ? dbg : "");
  g_error_free (err);
  g_free (dbg);
  return s;
}

/* ---- sender ---- */

static void
put_u64 (guint8 * p, guint64 v)
{
  gint i;

  for (i = 0; i < 8; i++)
    p[i] = (guint8) (v >> (8 * i));
}

static guint64
get_u64 (const guint8 * p)
{
  guint64 v = 0;
  gint i;

  for (i = 7; i >= 0; i--)
    v = (v << 8) | p[i];
  return v;
}

static int
run_send (void)
{
  GstElement *pipe, *src, *sink;
  GstCaps *caps;
  GstClock *clock;
  GstClockTime base;
  GstBus *bus;
  gsize size = (gsize) ((opt_width + 3) / 4) * ((opt_height + 3) / 4) * 8;
  guint8 *tmpl;
  guint64 k, frames = (guint64) (opt_seconds * opt_fps), dropped = 0, x = 88172645463325252ull;
  gint64 t0, period = 1000000000 / opt_fps;
  gint64 offset_min = G_MAXINT64, offset_max = G_MININT64;
  gsize i;
  GString *out;
  gchar *err = NULL;
  int rc = 0;

  tmpl = g_malloc (size);
  for (i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    tmpl[i] = (guint8) x;
  }

  pipe = gst_pipeline_new ("send");
  src = gst_element_factory_make ("appsrc", "src");
  sink = gst_element_factory_make ("tilesink", "sink");
  if (!src || !sink) {
    g_printerr ("tile-time-check: no appsrc or tilesink\n");
    return 1;
  }
  caps = gst_caps_new_simple ("video/x-bc", "format", G_TYPE_STRING, "BC1",
      "width", G_TYPE_INT, opt_width, "height", G_TYPE_INT, opt_height,
      "framerate", GST_TYPE_FRACTION, opt_fps, 1, NULL);
  g_object_set (src, "is-live", TRUE, "format", GST_FORMAT_TIME, "caps", caps,
      "do-timestamp", FALSE, NULL);
  gst_caps_unref (caps);
  g_object_set (sink, "host", opt_address ? opt_address : "0.0.0.0", "port",
      opt_port, "units", opt_units, NULL);
  for (i = 0; opt_sink_props && opt_sink_props[i]; i++) {
    gchar **kv = g_strsplit (opt_sink_props[i], "=", 2);

    if (kv[0] && kv[1])
      gst_util_set_object_arg (G_OBJECT (sink), kv[0], kv[1]);
    g_strfreev (kv);
  }
  gst_bin_add_many (GST_BIN (pipe), src, sink, NULL);
  gst_element_link (src, sink);
  bus = gst_element_get_bus (pipe);
  if (gst_element_set_state (pipe, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    g_printerr ("tile-time-check: the sender does not start\n");
    return 1;
  }
  gst_element_get_state (pipe, NULL, NULL, 5 * GST_SECOND);
  clock = gst_pipeline_get_clock (GST_PIPELINE (pipe));
  base = gst_element_get_base_time (pipe);
  g_printerr ("tile-time-check: sending %" G_GUINT64_FORMAT " frames of %"
      G_GSIZE_FORMAT " bytes at %d/s on port %d\n", frames, size, opt_fps,
      opt_port);

  t0 = now_ns (CLOCK_MONOTONIC) + period;
  for (k = 0; k < frames && !err; k++) {
    gint64 due = t0 + (gint64) k * period;
    struct timespec ts = { due / 1000000000, due % 1000000000 };
    GstMessage *m;
    GstBuffer *buf;
    GstMapInfo map;
    GstClockTime cap;
    gint64 mono;

    while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
        EINTR);
    while ((m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
      err = bus_error (m);
      gst_message_unref (m);
    }
    if (gst_app_src_get_current_level_buffers (GST_APP_SRC (src)) >= 2) {
      dropped++;
      continue;
    }
    buf = gst_buffer_new_allocate (NULL, size, NULL);
    gst_buffer_map (buf, &map, GST_MAP_WRITE);
    memcpy (map.data, tmpl, size);
    cap = gst_clock_get_time (clock);
    mono = now_ns (CLOCK_MONOTONIC);
    offset_min = MIN (offset_min, mono - (gint64) cap);
    offset_max = MAX (offset_max, mono - (gint64) cap);
    memcpy (map.data, MAGIC, 8);
    put_u64 (map.data + 8, k);
    put_u64 (map.data + 16, cap);
    put_u64 (map.data + 24, now_ns (CLOCK_REALTIME));
    gst_buffer_unmap (buf, &map);
    GST_BUFFER_PTS (buf) = cap > base ? cap - base : 0;
    GST_BUFFER_DURATION (buf) = period;
    gst_app_src_push_buffer (GST_APP_SRC (src), buf);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  {
    GstMessage *m = gst_bus_timed_pop_filtered (bus, 3 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

    if (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR && !err)
      err = bus_error (m);
    gst_clear_message (&m);
  }

  out = g_string_new ("{");
  g_string_append_printf (out, "\"role\":\"send\",\"frames\":%"
      G_GUINT64_FORMAT ",\"appsrc_dropped\":%" G_GUINT64_FORMAT
      ",\"frame_size\":%" G_GSIZE_FORMAT ",\"clock_is_monotonic\":%s"
      ",\"monotonic_minus_clock_ns\":[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
      "]", frames, dropped, size,
      offset_max - offset_min < 1000000 && llabs (offset_min) < 1000000 ?
      "true" : "false", offset_min, offset_max);
  json_stats (out, "sink_stats", sink);
  gst_element_set_state (pipe, GST_STATE_NULL);
  if (!finish_report (out, err))
    rc = 1;
  gst_object_unref (clock);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (tmpl);
  g_free (err);
  return rc;
}

/* ---- receiver ---- */

typedef struct
{
  gint64 frame, capture, arrival, render, render_real, pts;
} Record;

static GMutex lock;
static GArray *records;         /* Record */
static GHashTable *arrivals;    /* key (frame or PTS) -> arrival */
static gint64 first_render = -1;

/* The frame's key and capture (stamped), or its PTS as the key (with
 * --key-capture, PTS + @base_time, the capture too). */
static void
frame_key (GstBuffer * buf, GstClockTime base_time, gint64 * key,
    gint64 * capture)
{
  guint8 stamp[STAMP_SIZE];

  *key = GST_BUFFER_PTS_IS_VALID (buf) ? (gint64) GST_BUFFER_PTS (buf) : -1;
  *capture = -1;
  if (opt_key_capture && *key >= 0)
    *key = *capture = *key + (gint64) base_time;
  if (opt_stamped && gst_buffer_extract (buf, 0, stamp, STAMP_SIZE) ==
      STAMP_SIZE && memcmp (stamp, MAGIC, 8) == 0) {
    *key = (gint64) get_u64 (stamp + 8);
    *capture = (gint64) get_u64 (stamp + 16);
  }
}

static GstPadProbeReturn
on_src_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  gint64 t = now_ns (CLOCK_MONOTONIC), key, capture;

  GstElement *parent = GST_ELEMENT (gst_pad_get_parent (pad));

  frame_key (GST_PAD_PROBE_INFO_BUFFER (info),
      parent ? gst_element_get_base_time (parent) : 0, &key, &capture);
  gst_clear_object (&parent);
  g_mutex_lock (&lock);
  g_hash_table_insert (arrivals, g_memdup2 (&key, sizeof key),
      g_memdup2 (&t, sizeof t));
  g_mutex_unlock (&lock);
  return GST_PAD_PROBE_OK;
}

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  Record r;
  gint64 *arrival;

  r.render = now_ns (CLOCK_MONOTONIC);
  r.render_real = now_ns (CLOCK_REALTIME);
  frame_key (buf, gst_element_get_base_time (sink), &r.frame, &r.capture);
  r.pts = GST_BUFFER_PTS_IS_VALID (buf) ? (gint64) GST_BUFFER_PTS (buf) : -1;
  g_mutex_lock (&lock);
  arrival = g_hash_table_lookup (arrivals, &r.frame);
  r.arrival = arrival ? *arrival : -1;
  if (arrival)
    g_hash_table_remove (arrivals, &r.frame);
  if (!opt_stamped && !opt_key_capture)
    r.frame = -1;
  g_array_append_val (records, r);
  if (first_render < 0)
    first_render = r.render;
  g_mutex_unlock (&lock);
}

static int
run_receive (void)
{
  GstElement *pipe, *src, *sink;
  GstPad *pad;
  GstBus *bus;
  GError *perr = NULL;
  GString *out;
  gchar *err = NULL;
  gint64 start = now_ns (CLOCK_MONOTONIC), end = -1;
  guint latency_msgs = 0, clock_lost = 0;
  GstQuery *q;
  gboolean live = FALSE;
  GstClockTime min_lat = GST_CLOCK_TIME_NONE, max_lat = GST_CLOCK_TIME_NONE;
  guint i;
  int rc = 0;

  if (!opt_pipeline) {
    g_printerr ("tile-time-check: --receive needs --pipeline\n");
    return 2;
  }
  pipe = gst_parse_launch (opt_pipeline, &perr);
  if (!pipe) {
    g_printerr ("tile-time-check: %s\n", perr->message);
    return 2;
  }
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  if (!src || !sink || !g_object_class_find_property (G_OBJECT_GET_CLASS
          (sink), "signal-handoffs")) {
    g_printerr ("tile-time-check: the pipeline needs a `src` and a fakesink "
        "`sink`\n");
    return 2;
  }
  records = g_array_new (FALSE, FALSE, sizeof (Record));
  arrivals = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      g_free);
  g_object_set (sink, "signal-handoffs", TRUE, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), NULL);
  pad = gst_element_get_static_pad (src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_src_buffer, NULL,
      NULL);
  gst_object_unref (pad);

  bus = gst_element_get_bus (pipe);
  if (gst_element_set_state (pipe, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    err = g_strdup ("the pipeline does not start");
  while (!err) {
    GstMessage *m;
    gint64 now = now_ns (CLOCK_MONOTONIC), first;

    g_mutex_lock (&lock);
    first = first_render;
    g_mutex_unlock (&lock);
    if (first < 0 && now - start > (gint64) (opt_wait * 1e9)) {
      err = g_strdup_printf ("no frame rendered in %.0f s", opt_wait);
      break;
    }
    if (first >= 0 && end < 0)
      end = first + (gint64) (opt_seconds * 1e9);
    if (end >= 0 && now >= end)
      break;
    m = gst_bus_timed_pop (bus, 20 * GST_MSECOND);
    if (!m)
      continue;
    switch (GST_MESSAGE_TYPE (m)) {
      case GST_MESSAGE_ERROR:
        err = bus_error (m);
        break;
      case GST_MESSAGE_EOS:
        err = g_strdup ("EOS before the end of the recording");
        break;
      case GST_MESSAGE_LATENCY:
        latency_msgs++;
        gst_bin_recalculate_latency (GST_BIN (pipe));
        break;
      case GST_MESSAGE_CLOCK_LOST:
        clock_lost++;
        gst_element_set_state (pipe, GST_STATE_PAUSED);
        gst_element_set_state (pipe, GST_STATE_PLAYING);
        break;
      default:
        break;
    }
    gst_message_unref (m);
  }

  q = gst_query_new_latency ();
  if (gst_element_query (pipe, q))
    gst_query_parse_latency (q, &live, &min_lat, &max_lat);
  gst_query_unref (q);

  out = g_string_new ("{\"role\":\"receive\",\"pipeline\":");
  json_string (out, opt_pipeline);
  g_string_append_printf (out, ",\"latency_messages\":%u,\"clock_lost\":%u"
      ",\"pipeline_latency_ns\":%" G_GINT64_FORMAT, latency_msgs, clock_lost,
      GST_CLOCK_TIME_IS_VALID (min_lat) ? (gint64) min_lat : (gint64) - 1);
  json_stats (out, "src_stats", src);
  json_stats (out, "sink_stats", sink);
  g_string_append (out, ",\"frames\":[");
  g_mutex_lock (&lock);
  for (i = 0; i < records->len; i++) {
    Record *r = &g_array_index (records, Record, i);

    g_string_append_printf (out, "%s[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
        ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%"
        G_GINT64_FORMAT "]", i ? "," : "", r->frame, r->capture, r->arrival,
        r->render, r->render_real, r->pts);
  }
  g_mutex_unlock (&lock);
  g_string_append_c (out, ']');
  gst_element_set_state (pipe, GST_STATE_NULL);
  if (!finish_report (out, err))
    rc = 1;
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_free (err);
  return rc;
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx;
  GError *err = NULL;

  ctx = g_option_context_new ("- the ends of the time measurements");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("tile-time-check: %s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (opt_send == opt_receive || opt_fps <= 0 || opt_seconds <= 0) {
    g_printerr ("tile-time-check: --send or --receive\n");
    return 2;
  }
  return opt_send ? run_send () : run_receive ();
}
