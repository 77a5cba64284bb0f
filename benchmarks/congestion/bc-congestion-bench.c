/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* bc-congestion-bench: one end of a transport (sender or receiver) for the
 * congestion benchmark (benchmarks/congestion/run.sh), which runs the two
 * ends in two network namespaces joined by a veth pair with a tbf
 * bottleneck on the sender's side.
 *
 *   bc-congestion-bench --role send --transport tile-tcp --address A \
 *       --port P --start T0 --frames N --end TEND [-W 1920 -H 1080 --fps 60]
 *       [--format bc1|gray8]
 *   bc-congestion-bench --role receive --transport tile-tcp --peer A \
 *       --port P --start T0 --end TEND [-W 1920 -H 1080] [--format ...]
 *
 * --format: the frames' caps and size, bc1 (video/x-bc BC1, W x H / 2
 * bytes, the default) or gray8 (video/x-raw GRAY8, W x H bytes).
 *
 * Transports (sender pipeline / receiver pipeline):
 *
 *   tile-tcp  appsrc ! tilesink host=A port=P units=U protocol=tcp
 *               /  tilesrc host=A port=P ! appsink
 *   tile-udp  the same with protocol=udp (rate-control on: the default)
 *   tcp-gdp   appsrc ! gdppay ! tcpserversink host=A port=P sync=false
 *               /  tcpclientsrc host=A port=P ! gdpdepay ! appsink
 *   rtp       appsrc ! rtpvrawpay mtu=1440 pt=96 ! udpsink host=PEER port=P
 *                 sync=false
 *               /  udpsrc address=A port=P buffer-size=16777216
 *                  caps=application/x-rtp,...RAW... ! rtpvrawdepay ! appsink
 *             (RFC 4175; a BC1 frame of W x H goes as UYVY of W/2 x H/2, the
 *             same byte count, as in benchmarks/transport; a GRAY8 frame
 *             as UYVY of W/2 x H)
 *   srt       appsrc ! srtsink uri=srt://PEER:P (caller) sync=false
 *                 [latency=L]
 *               /  srtsrc uri=srt://A:P?mode=listener [latency=L] ! appsink
 *             (srtsink cuts every buffer into messages of its payload size,
 *             1316 bytes in live mode; the receiver puts them together, see
 *             below)
 *
 * Every other property is the element's default.
 *
 * The frames: pseudo-random bytes copied from a template into a buffer of
 * a pool (so that a frame a sender still holds is never rewritten), then
 * stamped: every CHUNK (1316) bytes, at the start of chunk i, a 16-byte
 * header (magic, i, frame number), the sender's CLOCK_REALTIME (ns) after
 * the first header, and the frame number in the last 8 bytes. The time is
 * written last, right before gst_app_src_push_buffer (). When the appsrc
 * still holds APPSRC_QUEUE (2) frames the sender element has not taken,
 * the frame is dropped instead (counted in appsrc_dropped): a live source
 * whose sender blocks loses frames rather than queue them.
 * Frame k is pushed at T0 + k / fps (CLOCK_REALTIME, absolute), for
 * --frames frames; then the sender waits until --end before it stops, so
 * that what is still queued can arrive.
 *
 * The receiver checks every header of every frame at the appsink (frame
 * number, chunk index, magic) and the last 8 bytes: a frame is whole when
 * all agree and the buffer is not flagged GST_BUFFER_FLAG_CORRUPTED (a
 * datagram lost anywhere but in the frame's last packet wipes at least one
 * header: RTP packets of mtu 1440 carry >= 1414 payload bytes). With srt
 * each appsink buffer is one SRT message, and so one chunk: a frame is
 * delivered whole when its last missing chunk arrives, partial when a chunk
 * of a newer frame comes first. Latency = CLOCK_REALTIME at the appsink
 * callback - the time stamped by the sender (the two namespaces share the
 * machine's clock).
 *
 * Each end prints one JSON object on stdout: the sender its pushes and its
 * sink's statistics, the receiver one record per frame it saw, [frame
 * number, send time, receive time (us after --start; send -1 when the
 * frame's first header was lost), 1 whole / 0 partial], its source's
 * statistics and what it could not parse. Then it tears its pipeline down
 * (a watchdog exits after 5 s if that hangs). Exit status: 0, 1 on a
 * pipeline error, 2 on bad options.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

/* GValueArray: the srt elements' "callers" statistics */
#define GLIB_DISABLE_DEPRECATION_WARNINGS

#include <gst/gst.h>
#include <gst/app/app.h>

#include "../benchlib.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define MAGIC 0x47434342u       /* "BCCG" little endian */
#define CHUNK 1316              /* SRT's live-mode payload size */
#define HDR 16                  /* magic, chunk index, frame number */
#define APPSRC_QUEUE 2          /* frames */
#define SENDER_LINGER (300 * GST_MSECOND)

static gchar *opt_role = NULL;
static gchar *opt_transport = NULL;
static gchar *opt_address = NULL;
static gchar *opt_peer = NULL;
static gint opt_port = 0;
static gint opt_width = 1920;
static gint opt_height = 1080;
static gchar *opt_format = NULL;
static gboolean gray8;
static gdouble opt_fps = 60.0;
static gint64 opt_start = 0;
static gint64 opt_end = 0;
static gint opt_frames = 600;
static gint opt_units = 4;
static gint opt_srt_latency = -1;
static gint opt_rcvbuf = 16 << 20;
static gchar *opt_sink_props = NULL;

static GOptionEntry entries[] = {
  {"role", 0, 0, G_OPTION_ARG_STRING, &opt_role, "send or receive", "ROLE"},
  {"transport", 'T', 0, G_OPTION_ARG_STRING, &opt_transport,
      "tile-tcp, tile-udp, tcp-gdp, rtp or srt", "NAME"},
  {"address", 0, 0, G_OPTION_ARG_STRING, &opt_address,
      "This end's address (the sender listens on it; the rtp and srt "
        "receivers bind it)", "A"},
  {"peer", 0, 0, G_OPTION_ARG_STRING, &opt_peer,
      "The other end's address (the receiver connects to it; the rtp and "
        "srt senders send to it)", "A"},
  {"port", 'p', 0, G_OPTION_ARG_INT, &opt_port, "Port", "P"},
  {"width", 'W', 0, G_OPTION_ARG_INT, &opt_width,
      "Width of the frame (default 1920)", "PIXELS"},
  {"height", 'H', 0, G_OPTION_ARG_INT, &opt_height,
      "Height of the frame (default 1080)", "PIXELS"},
  {"format", 0, 0, G_OPTION_ARG_STRING, &opt_format,
      "bc1 (video/x-bc BC1, the default) or gray8 (video/x-raw GRAY8)",
      "bc1|gray8"},
  {"fps", 0, 0, G_OPTION_ARG_DOUBLE, &opt_fps,
      "Frames pushed per second (default 60)", "FPS"},
  {"start", 0, 0, G_OPTION_ARG_INT64, &opt_start,
      "CLOCK_REALTIME ns of the first push (T0)", "NS"},
  {"end", 0, 0, G_OPTION_ARG_INT64, &opt_end,
      "CLOCK_REALTIME ns at which to stop", "NS"},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt_frames,
      "Sender: frames to push (default 600)", "N"},
  {"units", 'u', 0, G_OPTION_ARG_INT, &opt_units,
      "tilesink units (default 4)", "N"},
  {"srt-latency", 0, 0, G_OPTION_ARG_INT, &opt_srt_latency,
      "srtsink and srtsrc latency in ms (default: the elements' own)", "MS"},
  {"rtp-receive-buffer", 0, 0, G_OPTION_ARG_INT, &opt_rcvbuf,
      "udpsrc buffer-size (default 16 MiB)", "BYTES"},
  {"sink-props", 0, 0, G_OPTION_ARG_STRING, &opt_sink_props,
      "tile-*: more tilesink properties, as on a gst-launch line", "PROPS"},
  {NULL}
};

/* --transport: run_sender () and run_receiver () know these */
static const gchar *const transports[] = {
  "tile-tcp", "tile-udp", "tcp-gdp", "rtp", "srt", NULL
};

static gsize frame_size;
static guint n_chunks;

/* ------------------------------------------------------------------ */
/* JSON */

static void json_structure (GString * s, const GstStructure * st);
static void json_value (GString * s, const GValue * v);

static void
json_value_array (GString * s, const GValueArray * a)
{
  guint i;

  g_string_append_c (s, '[');
  for (i = 0; a && i < a->n_values; i++) {
    if (i)
      g_string_append_c (s, ',');
    json_value (s, g_value_array_get_nth ((GValueArray *) a, i));
  }
  g_string_append_c (s, ']');
}

static void
json_value (GString * s, const GValue * v)
{
  GType t = G_VALUE_TYPE (v);

  if (t == G_TYPE_UINT64)
    g_string_append_printf (s, "%" G_GUINT64_FORMAT, g_value_get_uint64 (v));
  else if (t == G_TYPE_INT64)
    g_string_append_printf (s, "%" G_GINT64_FORMAT, g_value_get_int64 (v));
  else if (t == G_TYPE_UINT)
    g_string_append_printf (s, "%u", g_value_get_uint (v));
  else if (t == G_TYPE_INT)
    g_string_append_printf (s, "%d", g_value_get_int (v));
  else if (t == G_TYPE_BOOLEAN)
    g_string_append (s, g_value_get_boolean (v) ? "true" : "false");
  else if (t == G_TYPE_DOUBLE || t == G_TYPE_FLOAT) {
    gdouble d = t == G_TYPE_DOUBLE ? g_value_get_double (v) :
        g_value_get_float (v);

    if (isfinite (d))
      g_string_append_printf (s, "%.6g", d);
    else
      g_string_append (s, "null");
  } else if (t == G_TYPE_STRING)
    bench_json_string (s, g_value_get_string (v));
  else if (t == GST_TYPE_STRUCTURE)
    json_structure (s, gst_value_get_structure (v));
  else if (t == GST_TYPE_ARRAY || t == GST_TYPE_LIST) {
    guint i, n = t == GST_TYPE_ARRAY ? gst_value_array_get_size (v) :
        gst_value_list_get_size (v);

    g_string_append_c (s, '[');
    for (i = 0; i < n; i++) {
      if (i)
        g_string_append_c (s, ',');
      json_value (s, t == GST_TYPE_ARRAY ? gst_value_array_get_value (v, i)
          : gst_value_list_get_value (v, i));
    }
    g_string_append_c (s, ']');
  } else if (t == G_TYPE_VALUE_ARRAY) {
    /* srtsink/srtsrc "callers" */
    json_value_array (s, g_value_get_boxed (v));
  } else if (G_TYPE_IS_ENUM (t)) {
    GEnumValue *ev = g_enum_get_value (g_type_class_peek (t),
        g_value_get_enum (v));

    bench_json_string (s, ev ? ev->value_nick : "?");
  } else {
    gchar *str = gst_value_serialize (v);

    bench_json_string (s, str ? str : G_VALUE_TYPE_NAME (v));
    g_free (str);
  }
}

static gboolean
json_field (GQuark field, const GValue * v, gpointer data)
{
  GString *s = data;

  if (s->str[s->len - 1] != '{')
    g_string_append_c (s, ',');
  bench_json_string (s, g_quark_to_string (field));
  g_string_append_c (s, ':');
  json_value (s, v);
  return TRUE;
}

static void
json_structure (GString * s, const GstStructure * st)
{
  if (!st) {
    g_string_append (s, "null");
    return;
  }
  g_string_append_c (s, '{');
  gst_structure_foreach (st, json_field, s);
  g_string_append_c (s, '}');
}

static void
json_key (GString * s, const gchar * key)
{
  if (s->str[s->len - 1] != '{')
    g_string_append_c (s, ',');
  bench_json_string (s, key);
  g_string_append_c (s, ':');
}

static void
json_int (GString * s, const gchar * key, gint64 v)
{
  json_key (s, key);
  g_string_append_printf (s, "%" G_GINT64_FORMAT, v);
}

static void
json_dbl (GString * s, const gchar * key, gdouble v)
{
  json_key (s, key);
  if (isfinite (v))
    g_string_append_printf (s, "%.6g", v);
  else
    g_string_append (s, "null");
}

static void
json_str (GString * s, const gchar * key, const gchar * v)
{
  json_key (s, key);
  bench_json_string (s, v);
}

/* The element's statistics ("stats") */
static void
json_stats (GString * s, const gchar * key, GstElement * e)
{
  GstStructure *st = bench_get_stats (e);

  json_key (s, key);
  json_structure (s, st);
  if (st)
    gst_structure_free (st);
}

static void
json_rusage (GString * s)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  json_dbl (s, "cpu_user_s", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6);
  json_dbl (s, "cpu_sys_s", ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
  json_int (s, "max_rss_kb", ru.ru_maxrss);
}

/* ------------------------------------------------------------------ */
/* Common */

static gchar *first_error = NULL;
static gchar *first_warning = NULL;
static guint n_warnings = 0;

static void
poll_bus (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus,
              GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    GError *err = NULL;
    gchar *dbg = NULL, *text;
    gboolean error = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR;

    if (error)
      gst_message_parse_error (msg, &err, &dbg);
    else
      gst_message_parse_warning (msg, &err, &dbg);
    text = g_strdup_printf ("%s: %s", GST_OBJECT_NAME (msg->src), err->message);
    g_printerr ("bc-congestion-bench %s: %s %s%s%s\n", opt_role,
        error ? "error" : "warning", text, dbg ? " -- " : "", dbg ? dbg : "");
    if (error && !first_error)
      first_error = text;
    else if (!error && !first_warning)
      first_warning = text;
    else
      g_free (text);
    if (!error)
      n_warnings++;
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
}

static void
sleep_until_rt (gint64 t)
{
  struct timespec ts;

  if (t <= 0)
    return;
  ts.tv_sec = t / GST_SECOND;
  ts.tv_nsec = t % GST_SECOND;
  while (clock_nanosleep (CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR);
}

/* " latency=L" for srtsink and srtsrc with --srt-latency, else "" */
static gchar *
srt_latency (void)
{
  return opt_srt_latency >= 0 ?
      g_strdup_printf (" latency=%d", opt_srt_latency) : g_strdup ("");
}

/* The pipeline @desc (freed here) and its elements "src" and "sink"; NULL,
 * with first_error set, when it cannot be made */
static GstElement *
launch (gchar * desc, GstElement ** src, GstElement ** sink)
{
  GError *error = NULL;
  GstElement *p = gst_parse_launch_full (desc, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, &error);

  if (!p) {
    g_printerr ("bc-congestion-bench %s: cannot make '%s': %s\n", opt_role,
        desc, error->message);
    first_error = g_strdup (error->message);
    g_clear_error (&error);
  } else {
    *src = gst_bin_get_by_name (GST_BIN (p), "src");
    *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  }
  g_free (desc);
  return p;
}

/* Sets @pipeline playing; FALSE, with first_error set (@failure when the
 * bus does not say why), when it does not start */
static gboolean
start_pipeline (GstElement * pipeline, const gchar * failure)
{
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE)
    return TRUE;
  poll_bus (pipeline);
  if (!first_error)
    first_error = g_strdup (failure);
  return FALSE;
}

/* Watches the bus of @pipeline until CLOCK_REALTIME @end (ns) or an
 * error */
static void
run_until (GstElement * pipeline, guint64 end)
{
  while (!first_error && bench_realtime_ns () < end) {
    g_usleep (20000);
    poll_bus (pipeline);
  }
}

/* Tears @pipeline down; exits the process if that takes over 5 s (the JSON
 * is out already) */
static gpointer
watchdog (gpointer data)
{
  g_usleep (5 * G_USEC_PER_SEC);
  g_printerr ("bc-congestion-bench %s: teardown hangs, exiting\n", opt_role);
  _exit (GPOINTER_TO_INT (data));
}

static void
teardown (GstElement * pipeline, gint status)
{
  g_thread_unref (g_thread_new ("watchdog", watchdog,
          GINT_TO_POINTER (status)));
  gst_element_set_state (pipeline, GST_STATE_NULL);
}

/* The JSON object an end prints, begun with @role and the stream */
static GString *
report_begin (const gchar * role)
{
  GString *out = g_string_new ("{");

  json_str (out, "role", role);
  json_str (out, "transport", opt_transport);
  json_int (out, "frame_bytes", frame_size);
  json_int (out, "start", opt_start);
  return out;
}

/* Ends @out with the statistics of @element (as @stats_key), the CPU time
 * and the bus's errors, prints it and frees it, then tears @pipeline down.
 * Returns the exit status. */
static gint
report_end (GString * out, const gchar * stats_key, GstElement * element,
    GstElement * pipeline)
{
  gint status;

  json_stats (out, stats_key, element);
  json_rusage (out);
  json_str (out, "error", first_error);
  json_str (out, "warning", first_warning);
  json_int (out, "warnings", n_warnings);
  g_string_append_c (out, '}');
  g_print ("%s\n", out->str);
  fflush (stdout);
  g_string_free (out, TRUE);
  status = first_error ? 1 : 0;

  teardown (pipeline, status);
  return status;
}

/* rtp: the height of the UYVY frame of the same byte count (the width is
 * W / 2) */
static gint
rtp_height (void)
{
  return gray8 ? opt_height : opt_height / 2;
}

/* ------------------------------------------------------------------ */
/* Sender */

/* The headers of frame @seq, then its time, which it returns */
static gint64
stamp_frame (guint8 * data, guint64 seq)
{
  guint i;
  gint64 t;

  for (i = 0; i < n_chunks; i++) {
    guint8 *h = data + (gsize) i * CHUNK;

    GST_WRITE_UINT32_LE (h, MAGIC);
    GST_WRITE_UINT32_LE (h + 4, i);
    GST_WRITE_UINT64_LE (h + 8, seq);
  }
  GST_WRITE_UINT64_LE (data + frame_size - 8, seq);
  t = (gint64) bench_realtime_ns ();
  GST_WRITE_UINT64_LE (data + HDR, (guint64) t);
  return t;
}

static gboolean
sender_ready (const gchar * transport, GstElement * sink)
{
  if (g_str_has_prefix (transport, "tile-")) {
    GstStructure *st = NULL;
    gboolean connected = FALSE;

    g_object_get (sink, "stats", &st, NULL);
    if (st) {
      gst_structure_get_boolean (st, "connected", &connected);
      gst_structure_free (st);
    }
    return connected;
  } else if (!strcmp (transport, "tcp-gdp")) {
    gint handles = 0;

    g_object_get (sink, "num-handles", &handles, NULL);
    return handles > 0;
  } else if (!strcmp (transport, "srt")) {
    GstStructure *st = NULL;
    gboolean ok;

    /* a connected caller socket has statistics */
    g_object_get (sink, "stats", &st, NULL);
    ok = st && gst_structure_has_field (st, "rtt-ms");
    if (st)
      gst_structure_free (st);
    return ok;
  }
  return TRUE;                  /* rtp: nothing to wait for */
}

static gint
run_sender (void)
{
  const gchar *t = opt_transport;
  gchar *desc, *caps_str;
  GstElement *pipeline, *src, *sink;
  GstBufferPool *pool;
  GstStructure *config;
  GstCaps *caps;
  guint8 *tmpl;
  GString *out;
  gint64 ready_rt = -1, first_push = -1, last_push = -1, max_late = 0;
  guint64 pushed = 0, queue_full = 0, late = 0, k;
  gint64 period = (gint64) (GST_SECOND / opt_fps);
  gint status = 0;

  if (!strcmp (t, "rtp"))
    caps_str = g_strdup_printf ("video/x-raw,format=UYVY,width=%d,height=%d,"
        "framerate=%d/1000,pixel-aspect-ratio=1/1,colorimetry=bt601,"
        "interlace-mode=progressive", opt_width / 2, rtp_height (),
        (gint) (opt_fps * 1000 + 0.5));
  else if (gray8)
    caps_str = g_strdup_printf ("video/x-raw,format=GRAY8,width=%d,height=%d,"
        "framerate=%d/1000,pixel-aspect-ratio=1/1,"
        "interlace-mode=progressive", opt_width, opt_height,
        (gint) (opt_fps * 1000 + 0.5));
  else
    caps_str = g_strdup_printf ("video/x-bc,format=BC1,width=%d,height=%d,"
        "framerate=%d/1000,pixel-aspect-ratio=1/1", opt_width, opt_height,
        (gint) (opt_fps * 1000 + 0.5));

  if (!strcmp (t, "tile-tcp") || !strcmp (t, "tile-udp"))
    desc = g_strdup_printf ("appsrc name=src ! tilesink name=sink host=%s "
        "port=%d units=%d protocol=%s %s", opt_address, opt_port, opt_units,
        t + 5, opt_sink_props ? opt_sink_props : "");
  else if (!strcmp (t, "tcp-gdp"))
    desc = g_strdup_printf ("appsrc name=src ! gdppay ! tcpserversink "
        "name=sink host=%s port=%d sync=false", opt_address, opt_port);
  else if (!strcmp (t, "rtp"))
    desc = g_strdup_printf ("appsrc name=src ! rtpvrawpay mtu=1440 pt=96 ! "
        "udpsink name=sink host=%s port=%d sync=false", opt_peer, opt_port);
  else {
    gchar *lat = srt_latency ();

    desc = g_strdup_printf ("appsrc name=src ! srtsink name=sink "
        "uri=srt://%s:%d sync=false%s", opt_peer, opt_port, lat);
    g_free (lat);
  }
  pipeline = launch (desc, &src, &sink);
  if (!pipeline)
    return 1;
  caps = gst_caps_from_string (caps_str);
  g_object_set (src, "caps", caps, "is-live", TRUE, "format",
      GST_FORMAT_TIME, "block", FALSE, "max-bytes", (guint64) 0, NULL);
  gst_caps_unref (caps);

  tmpl = g_malloc (frame_size);
  bench_fill_random (tmpl, frame_size, 0x9E3779B97F4A7C15ull);
  pool = gst_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, NULL, frame_size, 4, 0);
  gst_buffer_pool_set_config (pool, config);
  gst_buffer_pool_set_active (pool, TRUE);

  if (!start_pipeline (pipeline, "the sender does not start"))
    goto report;
  /* wait for the receiver until T0 (the frames are pushed from T0 on
   * whether it came or not: the warm-up takes the rest) */
  while (bench_realtime_ns () < (guint64) opt_start) {
    poll_bus (pipeline);
    if (first_error)
      goto report;
    if (ready_rt < 0 && sender_ready (t, sink))
      ready_rt = (gint64) bench_realtime_ns ();
    g_usleep (2000);
  }

  for (k = 0; k < (guint64) opt_frames; k++) {
    gint64 due = opt_start + (gint64) gst_util_uint64_scale (k, GST_SECOND *
        1000, (guint64) (opt_fps * 1000 + 0.5)), now;
    GstBuffer *buf = NULL;
    GstMapInfo map;
    guint64 level = 0;

    sleep_until_rt (due);
    now = (gint64) bench_realtime_ns ();
    if (now - due > period)
      late++;
    max_late = MAX (max_late, now - due);
    if (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) != GST_FLOW_OK) {
      first_error = g_strdup ("cannot get a buffer");
      break;
    }
    g_object_get (src, "current-level-buffers", &level, NULL);
    if (level >= APPSRC_QUEUE) {
      /* the sender element has not taken the frames before: a live
       * source drops this one rather than queue it */
      queue_full++;
      gst_buffer_unref (buf);
      continue;
    }
    gst_buffer_map (buf, &map, GST_MAP_WRITE);
    memcpy (map.data, tmpl, frame_size);
    last_push = stamp_frame (map.data, k);
    gst_buffer_unmap (buf, &map);
    if (first_push < 0)
      first_push = last_push;
    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (k, GST_SECOND * 1000,
        (guint64) (opt_fps * 1000 + 0.5));
    GST_BUFFER_DURATION (buf) = period;
    if (gst_app_src_push_buffer (GST_APP_SRC (src), buf) != GST_FLOW_OK) {
      first_error = g_strdup ("appsrc refused a buffer");
      break;
    }
    pushed++;
    if (ready_rt < 0 && (k % 8) == 0 && sender_ready (t, sink))
      ready_rt = (gint64) bench_realtime_ns ();
    poll_bus (pipeline);
    if (first_error)
      break;
  }
  /* what is queued may still arrive; a little past the receiver's end,
   * so that it does not see the sender go */
  run_until (pipeline, (guint64) opt_end + SENDER_LINGER);

report:
  out = report_begin ("sender");
  json_int (out, "pushed", pushed);
  json_int (out, "appsrc_dropped", queue_full);
  json_int (out, "late_pushes", late);
  json_dbl (out, "max_push_late_ms", max_late / 1e6);
  json_dbl (out, "ready_s", ready_rt < 0 ? NAN : (ready_rt - opt_start) / 1e9);
  json_dbl (out, "first_push_s", first_push < 0 ? NAN :
      (first_push - opt_start) / 1e9);
  json_dbl (out, "last_push_s", last_push < 0 ? NAN :
      (last_push - opt_start) / 1e9);
  status = report_end (out, "sink_stats", sink, pipeline);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (tmpl);
  g_free (caps_str);
  return status;
}

/* ------------------------------------------------------------------ */
/* Receiver */

typedef struct
{
  gint64 seq, send_us, recv_us;
  gint whole;
} Record;

static struct
{
  GMutex lock;
  GArray *records;              /* Record */
  guint64 buffers, foreign, bytes;
  guint64 stale;                /* srt: chunks of a frame already passed */
  /* srt: the frame being put together */
  gint64 cur_seq;
  guint8 *got;                  /* per chunk */
  guint n_got;
  gint64 cur_send;
  /* rtp: packets at udpsrc and the gaps in their sequence numbers */
  guint64 rtp_packets, rtp_gaps, rtp_reordered;
  guint16 rtp_last;
  gboolean rtp_have;
} rx;

static void
add_record (gint64 seq, gint64 send_ns, gint64 recv_ns, gboolean whole)
{
  Record r;

  r.seq = seq;
  r.send_us = send_ns > 0 ? (send_ns - opt_start) / 1000 : -1;
  r.recv_us = (recv_ns - opt_start) / 1000;
  r.whole = whole;
  g_array_append_val (rx.records, r);
}

/* A frame buffer: its number (the highest in its headers: bytes of an
 * older frame, where datagrams were lost, can only carry an older one),
 * the sender's time when the first header is that frame's, and whether it
 * is whole: every header and the last 8 bytes agree, no CORRUPTED flag */
static void
check_frame (GstBuffer * buf, gint64 now)
{
  GstMapInfo map;
  gboolean whole, have = FALSE;
  guint64 seq = 0, hseq, send = 0;
  guint i;

  if (gst_buffer_get_size (buf) != frame_size ||
      !gst_buffer_map (buf, &map, GST_MAP_READ)) {
    rx.foreign++;
    return;
  }
  whole = !GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED);
  for (i = 0; i < n_chunks; i++) {
    const guint8 *h = map.data + (gsize) i * CHUNK;

    if (GST_READ_UINT32_LE (h) != MAGIC || GST_READ_UINT32_LE (h + 4) != i) {
      whole = FALSE;
      continue;
    }
    hseq = GST_READ_UINT64_LE (h + 8);
    if (have && hseq != seq)
      whole = FALSE;
    if (!have || hseq > seq) {
      seq = hseq;
      have = TRUE;
    }
  }
  if (have && GST_READ_UINT32_LE (map.data) == MAGIC &&
      GST_READ_UINT32_LE (map.data + 4) == 0 &&
      GST_READ_UINT64_LE (map.data + 8) == seq)
    send = GST_READ_UINT64_LE (map.data + HDR);
  if (GST_READ_UINT64_LE (map.data + frame_size - 8) != seq)
    whole = FALSE;
  gst_buffer_unmap (buf, &map);
  if (!have) {
    rx.foreign++;
    return;
  }
  add_record ((gint64) seq, (gint64) send, now, whole && send != 0);
}

/* srt: one message, one chunk */
static void
srt_finish (gint64 now, gboolean whole)
{
  if (rx.cur_seq < 0)
    return;
  add_record (rx.cur_seq, rx.got[0] ? rx.cur_send : -1, now, whole);
  rx.cur_seq = -1;
}

static void
srt_chunk (GstBuffer * buf, gint64 now)
{
  guint8 h[HDR + 8];
  gsize size = gst_buffer_get_size (buf), want;
  guint idx;
  gint64 seq;

  if (size < HDR || gst_buffer_extract (buf, 0, h, MIN (size,
              sizeof (h))) < HDR || GST_READ_UINT32_LE (h) != MAGIC) {
    rx.foreign++;
    return;
  }
  idx = GST_READ_UINT32_LE (h + 4);
  seq = (gint64) GST_READ_UINT64_LE (h + 8);
  want = idx + 1 < n_chunks ? CHUNK : frame_size - (gsize) idx *CHUNK;
  if (idx >= n_chunks || size != want) {
    rx.foreign++;
    return;
  }
  if (seq < rx.cur_seq || (rx.cur_seq < 0 && rx.records->len > 0 &&
          seq <= g_array_index (rx.records, Record, rx.records->len - 1).seq)) {
    rx.stale++;
    return;
  }
  if (seq > rx.cur_seq) {
    /* a newer frame: the one before is as complete as it will be */
    srt_finish (now, FALSE);
    rx.cur_seq = seq;
    memset (rx.got, 0, n_chunks);
    rx.n_got = 0;
    rx.cur_send = 0;
  }
  if (rx.got[idx])
    return;
  rx.got[idx] = 1;
  rx.n_got++;
  if (idx == 0 && size >= HDR + 8)
    rx.cur_send = (gint64) GST_READ_UINT64_LE (h + HDR);
  if (rx.n_got == n_chunks)
    srt_finish (now, TRUE);
}

static gboolean is_srt;

static GstFlowReturn
new_sample (GstAppSink * sink, gpointer user_data)
{
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buf;
  gint64 now = (gint64) bench_realtime_ns ();

  if (!sample)
    return GST_FLOW_EOS;
  buf = gst_sample_get_buffer (sample);
  g_mutex_lock (&rx.lock);
  rx.buffers++;
  rx.bytes += gst_buffer_get_size (buf);
  if (is_srt)
    srt_chunk (buf, now);
  else
    check_frame (buf, now);
  g_mutex_unlock (&rx.lock);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static GstPadProbeReturn
rtp_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  guint8 h[4];

  if (gst_buffer_extract (buf, 0, h, 4) == 4 && (h[0] >> 6) == 2) {
    guint16 sn = GST_READ_UINT16_BE (h + 2);

    g_mutex_lock (&rx.lock);
    rx.rtp_packets++;
    if (rx.rtp_have) {
      guint16 d = (guint16) (sn - rx.rtp_last);

      if (d == 0 || d >= 0x8000) {
        rx.rtp_reordered++;
        g_mutex_unlock (&rx.lock);
        return GST_PAD_PROBE_OK;
      }
      rx.rtp_gaps += d - 1;
    }
    rx.rtp_last = sn;
    rx.rtp_have = TRUE;
    g_mutex_unlock (&rx.lock);
  }
  return GST_PAD_PROBE_OK;
}

static gint
run_receiver (void)
{
  const gchar *t = opt_transport;
  GstAppSinkCallbacks cb = { 0, };
  GstElement *pipeline, *src, *sink;
  gchar *desc;
  GString *out;
  guint i;
  gint status;

  if (!strcmp (t, "tile-tcp") || !strcmp (t, "tile-udp"))
    desc = g_strdup_printf ("tilesrc name=src host=%s port=%d ! appsink "
        "name=sink", opt_peer, opt_port);
  else if (!strcmp (t, "tcp-gdp"))
    desc = g_strdup_printf ("tcpclientsrc name=src host=%s port=%d ! "
        "gdpdepay ! appsink name=sink", opt_peer, opt_port);
  else if (!strcmp (t, "rtp"))
    desc = g_strdup_printf ("udpsrc name=src address=%s port=%d "
        "buffer-size=%d caps=\"application/x-rtp, media=(string)video, "
        "clock-rate=(int)90000, encoding-name=(string)RAW, "
        "sampling=(string)YCbCr-4:2:2, depth=(string)8, width=(string)%d, "
        "height=(string)%d, colorimetry=(string)BT601-5, payload=(int)96\" "
        "! rtpvrawdepay ! appsink name=sink", opt_address, opt_port,
        opt_rcvbuf, opt_width / 2, rtp_height ());
  else {
    gchar *lat = srt_latency ();

    desc = g_strdup_printf ("srtsrc name=src uri=srt://%s:%d?mode=listener"
        "%s ! appsink name=sink", opt_address, opt_port, lat);
    g_free (lat);
  }
  is_srt = !strcmp (t, "srt");
  g_mutex_init (&rx.lock);
  rx.records = g_array_new (FALSE, FALSE, sizeof (Record));
  rx.cur_seq = -1;
  rx.got = g_malloc0 (n_chunks);

  pipeline = launch (desc, &src, &sink);
  if (!pipeline)
    return 1;
  g_object_set (sink, "sync", FALSE, "enable-last-sample", FALSE, NULL);
  cb.new_sample = new_sample;
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, NULL, NULL);
  if (!strcmp (t, "rtp")) {
    GstPad *pad = gst_element_get_static_pad (src, "src");

    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, rtp_probe, NULL, NULL);
    gst_object_unref (pad);
  }

  if (start_pipeline (pipeline, "the receiver does not start"))
    run_until (pipeline, (guint64) opt_end);

  g_mutex_lock (&rx.lock);
  out = report_begin ("receiver");
  json_int (out, "buffers", rx.buffers);
  json_int (out, "bytes", rx.bytes);
  json_int (out, "foreign", rx.foreign);
  if (is_srt) {
    json_int (out, "stale_chunks", rx.stale);
    json_int (out, "incomplete_at_end", rx.cur_seq >= 0 ? 1 : 0);
  }
  if (!strcmp (t, "rtp")) {
    json_int (out, "rtp_packets", rx.rtp_packets);
    json_int (out, "rtp_gaps", rx.rtp_gaps);
    json_int (out, "rtp_reordered", rx.rtp_reordered);
  }
  json_key (out, "frames");
  g_string_append_c (out, '[');
  for (i = 0; i < rx.records->len; i++) {
    Record *r = &g_array_index (rx.records, Record, i);

    g_string_append_printf (out, "%s[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
        ",%" G_GINT64_FORMAT ",%d]", i ? "," : "", r->seq, r->send_us,
        r->recv_us, r->whole);
  }
  g_string_append_c (out, ']');
  g_mutex_unlock (&rx.lock);
  status = report_end (out, "src_stats", src, pipeline);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return status;
}

int
main (int argc, char **argv)
{
  if (!bench_parse_options (&argc, &argv, entries, "- one end of the "
          "congestion benchmark (tilesink/tilesrc, tcpserversink, "
          "rtpvrawpay, srtsink through a bottleneck)", "bc-congestion-bench"))
    return 2;
  if (!opt_role || !opt_transport || opt_port <= 0 || opt_port > 65535 ||
      opt_start <= 0 || opt_end <= opt_start || opt_width < 16 ||
      opt_height < 16 || opt_width % 4 || opt_fps <= 0 ||
      opt_frames < 1 || opt_units < 1) {
    g_printerr ("bc-congestion-bench: --role, --transport, --port, --start "
        "and --end are needed (width a multiple of 4)\n");
    return 2;
  }
  if (!g_strv_contains (transports, opt_transport)) {
    g_printerr ("unknown transport %s\n", opt_transport);
    return 2;
  }
  if (opt_format && strcmp (opt_format, "bc1") && strcmp (opt_format,
          "gray8")) {
    g_printerr ("unknown format %s (bc1 or gray8)\n", opt_format);
    return 2;
  }
  gray8 = opt_format && !strcmp (opt_format, "gray8");
  if (gray8 ? opt_height % 2 : opt_height % 8) {
    g_printerr ("bc-congestion-bench: the height must be a multiple of %d\n",
        gray8 ? 2 : 8);
    return 2;
  }
  frame_size = (gsize) opt_width *opt_height / (gray8 ? 1 : 2);
  n_chunks = (frame_size + CHUNK - 1) / CHUNK;
  if (frame_size - (gsize) (n_chunks - 1) * CHUNK < HDR + 8) {
    g_printerr ("bc-congestion-bench: the last chunk of a %" G_GSIZE_FORMAT
        "-byte frame is too short for its header\n", frame_size);
    return 2;
  }
  if (!strcmp (opt_role, "send")) {
    if (!opt_address || (!opt_peer && (!strcmp (opt_transport, "rtp") ||
                !strcmp (opt_transport, "srt")))) {
      g_printerr ("bc-congestion-bench: the sender needs --address (and "
          "--peer for rtp and srt)\n");
      return 2;
    }
    return run_sender ();
  } else if (!strcmp (opt_role, "receive")) {
    if (!opt_address || !opt_peer) {
      g_printerr ("bc-congestion-bench: the receiver needs --address and "
          "--peer\n");
      return 2;
    }
    return run_receiver ();
  }
  g_printerr ("bc-congestion-bench: --role send or receive\n");
  return 2;
}
