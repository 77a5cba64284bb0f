/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The two ends of the network-namespace test (tests/netns/run.sh):
 *
 *   --send    appsrc ! tilesink: waits for a receiver (--receivers N: for
 *             N, e.g. the members of a multicast group), then pushes
 *             --frames deterministic pseudo-random frames at --fps, then EOS
 *   --receive tilesrc ! appsink: checks every frame byte for byte outside
 *             the lost ranges of its GstBcLossMeta, checks frame order,
 *             counts partial frames and lost bytes
 *   --probe   does tilesink start with these settings (--protocol udp, ...)?
 *             exit 0 if it does, 77 if not
 *
 * Each end prints one JSON line on stdout when it is done (with the
 * element's final `stats`); messages go to stderr. Exit status: 0 good,
 * 1 failure (byte mismatch, reordering, duplicate, pipeline error), 2 bad
 * arguments, 3 no receiver came (sender) / timeout.
 *
 * Frame k (k = 0, 1, ... in push order) is: bytes 0-7 = k, little endian;
 * byte i >= 8 = pool[off(k) + i], where pool is a fixed xorshift stream of
 * a power-of-two length P > frame size (repeated so that a frame is one
 * memcpy) and off(k) = k * odd mod P, distinct for every k < P. A tile
 * that lands in the wrong frame or at the wrong place cannot match. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/app/app.h>

#include "netns-json.h"
#include <gst/video/video.h>
#include <gst/bc/bcformat.h>
#include <gst/bc/bctiling.h>

#include <gst/bc/bclossmeta.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_FAIL 1
#define EXIT_USAGE 2
#define EXIT_NO_PEER 3
#define EXIT_SKIP 77

/* ---- options ---- */

static gboolean opt_send, opt_receive, opt_probe;
static gchar *opt_address = NULL, *opt_host = NULL, *opt_protocol = NULL;
static gchar *opt_format = NULL, *opt_gso = NULL;
static gint opt_port = 7000, opt_units = 4, opt_frames = 120;
static gdouble opt_fps = 60.0, opt_timer_factor = -1.0;
static gint opt_width = 1920, opt_height = 1080;
static gint64 opt_max_bitrate = -1, opt_packet_size = -1;
static gint opt_max_in_flight = -1;
static gint opt_count_from = -1;
static gchar **opt_step_frames = NULL, **opt_step_cmds = NULL;
static guint n_steps = 0;
static gint64 *step_frames = NULL;
static gint opt_wait = 30, opt_timeout = 120, opt_receivers = 1;
static gchar **opt_sink_props = NULL, **opt_src_props = NULL;

static GOptionEntry entries[] = {
  {"send", 0, 0, G_OPTION_ARG_NONE, &opt_send, "Be the sender (tilesink)",
      NULL},
  {"receive", 0, 0, G_OPTION_ARG_NONE, &opt_receive,
      "Be the receiver (tilesrc)", NULL},
  {"probe", 0, 0, G_OPTION_ARG_NONE, &opt_probe,
      "Only check that tilesink starts with these settings (exit 77 if "
        "not)", NULL},
  {"address", 0, 0, G_OPTION_ARG_STRING, &opt_address,
      "Sender: address to listen on (default 0.0.0.0)", "A"},
  {"host", 0, 0, G_OPTION_ARG_STRING, &opt_host,
      "Receiver: the sender's address", "A"},
  {"port", 0, 0, G_OPTION_ARG_INT, &opt_port, "Control port (default 7000)",
      "P"},
  {"protocol", 0, 0, G_OPTION_ARG_STRING, &opt_protocol,
      "tcp or udp (default tcp)", "tcp|udp"},
  {"units", 0, 0, G_OPTION_ARG_INT, &opt_units, "tilesink units (default 4)",
      "N"},
  {"frames", 0, 0, G_OPTION_ARG_INT, &opt_frames,
      "Frames to send; the receiver needs it too (default 120)", "F"},
  {"fps", 0, 0, G_OPTION_ARG_DOUBLE, &opt_fps,
      "Frames per second to push (default 60)", "R"},
  {"width", 0, 0, G_OPTION_ARG_INT, &opt_width, "Width (default 1920)", "W"},
  {"height", 0, 0, G_OPTION_ARG_INT, &opt_height, "Height (default 1080)",
      "H"},
  {"format", 0, 0, G_OPTION_ARG_STRING, &opt_format,
        "bc1 (video/x-bc BC1) or gray8 (video/x-raw GRAY8); default bc1",
      "bc1|gray8"},
  {"max-bitrate", 0, 0, G_OPTION_ARG_INT64, &opt_max_bitrate,
      "tilesink pacing-bitrate, bits/s", "B"},
  {"packet-size", 0, 0, G_OPTION_ARG_INT64, &opt_packet_size,
      "tilesink packet-size, payload bytes per datagram", "S"},
  {"gso", 0, 0, G_OPTION_ARG_STRING, &opt_gso,
      "tilesink/tilesrc gso (auto, on, off)", "MODE"},
  {"timer-factor", 0, 0, G_OPTION_ARG_DOUBLE, &opt_timer_factor,
      "tilesrc timer-factor", "X"},
  {"max-in-flight", 0, 0, G_OPTION_ARG_INT, &opt_max_in_flight,
      "tilesink max-in-flight", "M"},
  {"step-frame", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_step_frames,
      "Sender: run the --step-cmd of the same rank just after pushing this "
        "frame (repeatable: the first --step-frame with the first "
        "--step-cmd, ...); its time goes into the JSON's 'steps'", "K"},
  {"step-cmd", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_step_cmds,
      "Sender: the command (e.g. a tc qdisc change), waited for", "CMD"},
  {"count-from", 0, 0, G_OPTION_ARG_INT, &opt_count_from,
      "Receiver: also count the frames numbered K and later "
        "(frames_from, partial_from)", "K"},
  {"sink-prop", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_sink_props,
      "Any other tilesink property (repeatable)", "NAME=VALUE"},
  {"src-prop", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_src_props,
      "Any other tilesrc property (repeatable)", "NAME=VALUE"},
  {"wait", 0, 0, G_OPTION_ARG_INT, &opt_wait,
      "Sender: seconds to wait for the receiver (default 30)", "S"},
  {"receivers", 0, 0, G_OPTION_ARG_INT, &opt_receivers,
      "Sender: wait until N receivers take frames (N entries of stats "
        "'receivers' with connected=TRUE) before pushing, and add the "
        "stats taken after the last push as 'stats_pushed' (default 1: "
        "stats 'connected')", "N"},
  {"timeout", 0, 0, G_OPTION_ARG_INT, &opt_timeout,
      "Give up after this many seconds (default 120)", "S"},
  {NULL, 0, 0, G_OPTION_ARG_NONE, NULL, NULL, NULL}
};

/* ---- the frame pattern ---- */

typedef struct
{
  gsize size;                   /* frame size */
  guint64 mask;                 /* P - 1 */
  guint8 *pool;                 /* P + size bytes */
} Pattern;

static void
pattern_init (Pattern * p, gsize size)
{
  guint64 len = 4096, x = G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  gsize i;

  while (len <= size)
    len <<= 1;
  p->size = size;
  p->mask = len - 1;
  p->pool = g_malloc (len + size);
  for (i = 0; i < len; i += 8) {
    /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    GST_WRITE_UINT64_LE (p->pool + i, x * G_GUINT64_CONSTANT
        (0x2545F4914F6CDD1D));
  }
  memcpy (p->pool + len, p->pool, size);
}

static void
pattern_clear (Pattern * p)
{
  g_clear_pointer (&p->pool, g_free);
}

/* where frame @k's bytes start in the pool: distinct for every k < P */
static inline const guint8 *
pattern_frame (const Pattern * p, guint64 k)
{
  return p->pool + ((k * G_GUINT64_CONSTANT (2654435761)) & p->mask);
}

static void
pattern_fill (const Pattern * p, guint64 k, guint8 * dst)
{
  memcpy (dst, pattern_frame (p, k), p->size);
  GST_WRITE_UINT64_LE (dst, k);
}

/* the expected byte @i of frame @k */
static inline guint8
pattern_byte (const Pattern * p, guint64 k, gsize i)
{
  return i < 8 ? (guint8) (k >> (8 * i)) : pattern_frame (p, k)[i];
}

/* ---- JSON (the values: netns-json.h) ---- */

static void
json_key (GString * out, const gchar * key)
{
  if (out->str[out->len - 1] != '{')
    g_string_append_c (out, ',');
  json_string (out, key);
  g_string_append_c (out, ':');
}

static void
json_u64 (GString * out, const gchar * key, guint64 v)
{
  json_key (out, key);
  g_string_append_printf (out, "%" G_GUINT64_FORMAT, v);
}

static void
json_dbl (GString * out, const gchar * key, gdouble v)
{
  json_key (out, key);
  g_string_append_printf (out, "%.6g", v);
}

static void
json_str (GString * out, const gchar * key, const gchar * v)
{
  json_key (out, key);
  if (v)
    json_string (out, v);
  else
    g_string_append (out, "null");
}

static void
json_bool (GString * out, const gchar * key, gboolean v)
{
  json_key (out, key);
  g_string_append (out, v ? "true" : "false");
}

/* ---- common ---- */

static gchar *
caps_string (void)
{
  if (g_ascii_strcasecmp (opt_format, "gray8") == 0)
    return g_strdup_printf ("video/x-raw,format=GRAY8,width=%d,height=%d,"
        "framerate=%d/1000", opt_width, opt_height,
        (gint) (opt_fps * 1000 + 0.5));
  return g_strdup_printf ("video/x-bc,format=BC1,width=%d,height=%d,"
      "framerate=%d/1000", opt_width, opt_height,
      (gint) (opt_fps * 1000 + 0.5));
}

static gsize
frame_size_of_caps (GstCaps * caps)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);

  if (gst_structure_has_name (s, "video/x-bc")) {
    GstBcInfo info;

    return gst_bc_info_from_caps (&info, caps) ? info.size : 0;
  } else {
    GstVideoInfo info;

    return gst_video_info_from_caps (&info, caps) ? info.size : 0;
  }
}

static gboolean
set_prop (GstElement * e, const gchar * name, const gchar * value)
{
  if (!g_object_class_find_property (G_OBJECT_GET_CLASS (e), name)) {
    g_printerr ("%s has no property '%s' (yet)\n", GST_OBJECT_NAME (e), name);
    return FALSE;
  }
  gst_util_set_object_arg (G_OBJECT (e), name, value);
  return TRUE;
}

static gboolean
set_props (GstElement * e, gchar ** props)
{
  for (; props && *props; props++) {
    gchar **kv = g_strsplit (*props, "=", 2);
    gboolean ok = kv[0] && kv[1] && set_prop (e, kv[0], kv[1]);

    if (!kv[0] || !kv[1])
      g_printerr ("bad property setting '%s' (want NAME=VALUE)\n", *props);
    g_strfreev (kv);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

static gboolean
set_num_prop (GstElement * e, const gchar * name, gint64 v)
{
  gchar *s = g_strdup_printf ("%" G_GINT64_FORMAT, v);
  gboolean ok = set_prop (e, name, s);

  g_free (s);
  return ok;
}

static gboolean
set_dbl_prop (GstElement * e, const gchar * name, gdouble v)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  return set_prop (e, name, g_ascii_dtostr (buf, sizeof (buf), v));
}

/* Returns the text of the first error on the bus, or NULL. */
static gchar *
bus_error (GstBus * bus, GstClockTime wait, gboolean * eos)
{
  GstMessage *m;
  gchar *ret = NULL;

  while ((m = gst_bus_timed_pop_filtered (bus, wait, GST_MESSAGE_ERROR |
              GST_MESSAGE_WARNING | GST_MESSAGE_EOS))) {
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS) {
      if (eos)
        *eos = TRUE;
      gst_message_unref (m);
      break;
    } else {
      GError *err = NULL;
      gchar *dbg = NULL;
      gboolean error = GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR;

      if (error)
        gst_message_parse_error (m, &err, &dbg);
      else
        gst_message_parse_warning (m, &err, &dbg);
      g_printerr ("%s from %s: %s%s%s\n", error ? "ERROR" : "WARNING",
          GST_MESSAGE_SRC_NAME (m), err->message, dbg ? " -- " : "",
          dbg ? dbg : "");
      if (error)
        ret = g_strdup (err->message);
      g_clear_error (&err);
      g_free (dbg);
      gst_message_unref (m);
      if (error)
        break;
    }
    wait = 0;
  }
  return ret;
}


static GstStructure *
get_stats (GstElement * e)
{
  GstStructure *s = NULL;

  g_object_get (e, "stats", &s, NULL);
  return s;
}

/* ---- sender ---- */

/* UDP: the datagrams of one frame of @caps (video/x-bc), from its tiling
 * into @units tiles and tilesink's packet-size; 0 when not known. */
static guint64
datagrams_per_frame (GstCaps * caps, GstElement * sink)
{
  GstBcInfo info;
  GstBcTiling *tiling;
  guint packet_size = 0, i;
  guint64 n = 0;

  if (!gst_structure_has_name (gst_caps_get_structure (caps, 0), "video/x-bc")
      || !gst_bc_info_from_caps (&info, caps))
    return 0;
  g_object_get (sink, "packet-size", &packet_size, NULL);
  tiling = g_new (GstBcTiling, 1);
  if (packet_size && gst_bc_tiling_init_for_info (tiling, &info, opt_units))
    for (i = 0; i < tiling->n_tiles; i++)
      n += (tiling->tiles[i].size + packet_size - 1) / packet_size;
  g_free (tiling);
  return n;
}

/* The receivers tilesink sends frames to now: the entries of its
 * stats `receivers` with connected=TRUE. */
static guint
receivers_connected (const GstStructure * s)
{
  const GValue *list = gst_structure_get_value (s, "receivers");
  guint i, n = 0;

  if (!list || !GST_VALUE_HOLDS_ARRAY (list))
    return 0;
  for (i = 0; i < gst_value_array_get_size (list); i++) {
    const GValue *v = gst_value_array_get_value (list, i);
    gboolean connected = FALSE;

    if (GST_VALUE_HOLDS_STRUCTURE (v) &&
        gst_structure_get_boolean (gst_value_get_structure (v), "connected",
            &connected) && connected)
      n++;
  }
  return n;
}

static GstElement *
make_sender (const gchar * address, guint port, GstElement ** src,
    GstElement ** sink)
{
  gchar *caps = caps_string ();
  gchar *desc = g_strdup_printf ("appsrc name=src is-live=true format=time "
      "max-bytes=0 block=false caps=\"%s\" ! tilesink name=sink", caps);
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);

  g_free (desc);
  g_free (caps);
  if (!p || err) {
    g_printerr ("cannot make the sender: %s\n", err ? err->message : "?");
    g_clear_error (&err);
    if (p)
      gst_object_unref (p);
    return NULL;
  }
  *src = gst_bin_get_by_name (GST_BIN (p), "src");
  *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  if (!set_prop (*sink, "host", address) ||
      !set_num_prop (*sink, "port", port) ||
      !set_num_prop (*sink, "units", opt_units) ||
      !set_prop (*sink, "protocol", opt_protocol) ||
      (opt_max_bitrate >= 0 && !set_num_prop (*sink, "pacing-bitrate",
              opt_max_bitrate)) ||
      (opt_packet_size >= 0 && !set_num_prop (*sink, "packet-size",
              opt_packet_size)) ||
      (opt_max_in_flight >= 0 && !set_num_prop (*sink, "max-in-flight",
              opt_max_in_flight)) ||
      (opt_gso && !set_prop (*sink, "gso", opt_gso)) ||
      !set_props (*sink, opt_sink_props)) {
    gst_object_unref (*src);
    gst_object_unref (*sink);
    gst_object_unref (p);
    return NULL;
  }
  return p;
}

static int
run_probe (void)
{
  GstElement *p, *src = NULL, *sink = NULL;
  GstBus *bus;
  gchar *error;
  GstStateChangeReturn r;

  p = make_sender (opt_address ? opt_address : "127.0.0.1", 0, &src, &sink);
  if (!p) {
    g_print ("tilesink cannot be set up with these settings\n");
    return EXIT_SKIP;
  }
  bus = gst_element_get_bus (p);
  r = gst_element_set_state (p, GST_STATE_PLAYING);
  if (r != GST_STATE_CHANGE_FAILURE)
    r = gst_element_get_state (p, NULL, NULL, 5 * GST_SECOND);
  error = bus_error (bus, 0, NULL);
  gst_element_set_state (p, GST_STATE_NULL);
  if (r == GST_STATE_CHANGE_FAILURE || error) {
    g_print ("tilesink protocol=%s does not start: %s\n", opt_protocol,
        error ? error : "state change failed");
    g_free (error);
    r = GST_STATE_CHANGE_FAILURE;
  } else {
    g_print ("tilesink protocol=%s starts\n", opt_protocol);
  }
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (p);
  return r == GST_STATE_CHANGE_FAILURE ? EXIT_SKIP : 0;
}

static int
run_sender (void)
{
  GstElement *p, *src = NULL, *sink = NULL;
  GstBufferPool *pool = NULL;
  GstStructure *config, *stats = NULL, *stats_pushed = NULL;
  GstCaps *caps;
  GstBus *bus;
  Pattern pat = { 0 };
  GString *out;
  gchar *error = NULL, *caps_str;
  gsize size;
  gint64 start, end, t0 = 0, t1 = 0, period;
  guint64 late = 0, pushed = 0, k, rate_mid = 0, dpf = 0;
  guint n_connected = 0, n_shown = 0, i;
  gboolean connected = FALSE, eos = FALSE;
  gdouble *step_at = g_new0 (gdouble, n_steps + 1);
  gdouble *step_took = g_new0 (gdouble, n_steps + 1);
  int ret = 0;

  for (i = 0; i < n_steps; i++)
    step_at[i] = -1.0;

  p = make_sender (opt_address ? opt_address : "0.0.0.0", opt_port, &src,
      &sink);
  if (!p)
    return EXIT_FAIL;
  caps_str = caps_string ();
  caps = gst_caps_from_string (caps_str);
  size = frame_size_of_caps (caps);
  if (g_ascii_strcasecmp (opt_protocol, "udp") == 0)
    dpf = datagrams_per_frame (caps, sink);
  gst_caps_unref (caps);
  if (size < 16) {
    g_printerr ("frames of %" G_GSIZE_FORMAT " bytes are too small\n", size);
    return EXIT_USAGE;
  }
  bus = gst_element_get_bus (p);
  start = g_get_monotonic_time ();
  end = start + (gint64) opt_timeout *G_USEC_PER_SEC;

  if (gst_element_set_state (p, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    error = bus_error (bus, 0, NULL);
    if (!error)
      error = g_strdup ("the sender does not start");
    goto done;
  }
  g_printerr ("sender: %s on %s port %d, %s, %u units, waiting for %d "
      "receiver%s\n", caps_str, opt_address ? opt_address : "0.0.0.0",
      opt_port, opt_protocol, opt_units, MAX (opt_receivers, 1),
      opt_receivers > 1 ? "s" : "");

  /* a receiver: its data connections (or sockets) are all there; with
   * --receivers N, N receivers that take frames */
  while (g_get_monotonic_time () < start + (gint64) opt_wait * G_USEC_PER_SEC) {
    GstStructure *s = get_stats (sink);

    connected = FALSE;
    if (s && opt_receivers <= 1) {
      gst_structure_get_boolean (s, "connected", &connected);
    } else if (s) {
      n_connected = receivers_connected (s);
      connected = n_connected >= (guint) opt_receivers;
      if (n_connected != n_shown) {
        g_printerr ("sender: %u of %d receivers connected\n", n_connected,
            opt_receivers);
        n_shown = n_connected;
      }
    }
    if (s)
      gst_structure_free (s);
    if (connected || (error = bus_error (bus, 0, NULL)))
      break;
    g_usleep (5000);
  }
  if (!connected) {
    if (!error && opt_receivers > 1)
      error = g_strdup_printf ("%u of %d receivers within %d s", n_connected,
          opt_receivers, opt_wait);
    else if (!error)
      error = g_strdup_printf ("no receiver within %d s", opt_wait);
    ret = EXIT_NO_PEER;
    goto done;
  }

  pattern_init (&pat, size);
  pool = gst_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, NULL, size, 4, 0);
  gst_buffer_pool_set_config (pool, config);
  gst_buffer_pool_set_active (pool, TRUE);

  period = (gint64) (G_USEC_PER_SEC / opt_fps);
  t0 = g_get_monotonic_time ();
  for (k = 0; k < (guint64) opt_frames; k++) {
    gint64 due = t0 + (gint64) (k * G_USEC_PER_SEC / opt_fps), now;
    GstBuffer *buf = NULL;
    GstMapInfo map;

    now = g_get_monotonic_time ();
    if (now < due)
      g_usleep (due - now);
    else if (now - due > period)
      late++;
    if (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) != GST_FLOW_OK) {
      error = g_strdup ("cannot get a buffer");
      break;
    }
    gst_buffer_map (buf, &map, GST_MAP_WRITE);
    pattern_fill (&pat, k, map.data);
    gst_buffer_unmap (buf, &map);
    /* a live source's timestamp: the running time of the capture (now),
     * which tilesink sends as the frame's capture time */
    {
      GstClock *clock = gst_element_get_clock (p);

      GST_BUFFER_PTS (buf) = clock ? gst_clock_get_time (clock) -
          gst_element_get_base_time (p) : GST_CLOCK_TIME_NONE;
      gst_clear_object (&clock);
    }
    GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (GST_SECOND, 1000,
        (guint64) (opt_fps * 1000 + 0.5));
    if (gst_app_src_push_buffer (GST_APP_SRC (src), buf) != GST_FLOW_OK) {
      error = g_strdup ("appsrc refused a buffer");
      break;
    }
    pushed++;
    for (i = 0; i < n_steps && !error; i++) {
      GError *err = NULL;
      gint status = 0;
      gint64 ts;

      if ((guint64) step_frames[i] != k)
        continue;
      /* the path changes mid-stream */
      ts = g_get_monotonic_time ();
      if (!g_spawn_command_line_sync (opt_step_cmds[i], NULL, NULL, &status,
              &err) || !g_spawn_check_wait_status (status, &err)) {
        error = g_strdup_printf ("--step-cmd failed: %s", err->message);
        g_clear_error (&err);
      }
      step_at[i] = (ts - t0) / 1e6;
      step_took[i] = (g_get_monotonic_time () - ts) / 1e6;
      g_printerr ("sender: step %u after frame %" G_GUINT64_FORMAT " at "
          "%.3f s (took %.3f s): %s\n", i, k, step_at[i], step_took[i],
          opt_step_cmds[i]);
    }
    if (error)
      break;
    if (k == (guint64) opt_frames * 3 / 4) {
      /* well into the run: the rate the kernel measures (TCP), the rate
       * control's estimate (UDP) */
      GstStructure *mid = get_stats (sink);

      if (!gst_structure_get_uint64 (mid, "delivery-rate", &rate_mid))
        gst_structure_get_uint64 (mid, "estimated-bitrate", &rate_mid);
      gst_structure_free (mid);
    }
    if ((error = bus_error (bus, 0, NULL)))
      break;
  }
  t1 = g_get_monotonic_time ();
  /* every receiver's counters and rate control before they go at EOS */
  if (opt_receivers > 1)
    stats_pushed = get_stats (sink);
  if (!error) {
    gst_app_src_end_of_stream (GST_APP_SRC (src));
    /* tilesink drains (at most 5 s) and tells the receiver */
    while (!eos && !error && g_get_monotonic_time () < end)
      error = bus_error (bus, 100 * GST_MSECOND, &eos);
    if (!eos && !error)
      error = g_strdup ("no EOS from the sender pipeline");
  }
  gst_buffer_pool_set_active (pool, FALSE);

done:
  stats = get_stats (sink);
  out = g_string_new ("{");
  json_str (out, "role", "sender");
  json_str (out, "protocol", opt_protocol);
  json_str (out, "caps", caps_str);
  json_u64 (out, "frame_size", size);
  json_u64 (out, "frames_pushed", pushed);
  json_u64 (out, "late_pushes", late);
  json_dbl (out, "fps", opt_fps);
  json_dbl (out, "push_seconds", (t1 - t0) / 1e6);
  json_dbl (out, "offered_bps", opt_fps * size * 8);
  json_bool (out, "eos", eos);
  json_str (out, "error", error);
  json_u64 (out, "rate_mid", rate_mid);
  if (dpf)
    json_u64 (out, "datagrams_per_frame", dpf);
  if (n_steps) {
    /* when each --step-cmd ran, seconds from the first push (-1: not) */
    json_key (out, "steps");
    g_string_append_c (out, '[');
    for (i = 0; i < n_steps; i++) {
      if (i)
        g_string_append_c (out, ',');
      g_string_append_c (out, '{');
      json_u64 (out, "frame", step_frames[i]);
      json_dbl (out, "seconds", step_at[i]);
      json_dbl (out, "took", step_took[i]);
      json_str (out, "cmd", opt_step_cmds[i]);
      g_string_append_c (out, '}');
    }
    g_string_append_c (out, ']');
  }
  json_key (out, "stats");
  json_structure (out, stats);
  if (stats_pushed) {
    json_key (out, "stats_pushed");
    json_structure (out, stats_pushed);
  }
  g_string_append_c (out, '}');
  g_print ("%s\n", out->str);
  g_string_free (out, TRUE);
  if (stats)
    gst_structure_free (stats);
  if (stats_pushed)
    gst_structure_free (stats_pushed);

  gst_element_set_state (p, GST_STATE_NULL);
  if (pool)
    gst_object_unref (pool);
  pattern_clear (&pat);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (p);
  if (error && !ret)
    ret = EXIT_FAIL;
  g_free (error);
  g_free (caps_str);
  g_free (step_at);
  g_free (step_took);
  return ret;
}

/* ---- receiver ---- */

typedef struct
{
  guint64 offset, size;
} Range;

typedef struct
{
  Pattern pat;
  gsize size;
  gchar *caps;
  guint8 *seen;                 /* per frame number */
  gboolean have_last;
  guint64 last;
  guint64 first;

  guint64 frames, partial, lost_bytes, inferred, unverifiable;
  guint64 mismatch_frames, mismatch_bytes, reordered, duplicates;
  guint64 out_of_range, meta_inconsistent, meta_overlaps, bad_size;
  guint64 gaps;                 /* frame numbers skipped (not received) */
  guint64 frames_from, partial_from;    /* numbered --count-from or later */
  gint64 first_time, last_time;
  gint64 max_interval;          /* the longest time between two frames, us */
  guint64 max_interval_frame;   /* the frame (count) that ended it */
  gboolean caps_bad;
} Checker;

static gint
range_cmp (gconstpointer a, gconstpointer b)
{
  const Range *ra = a, *rb = b;

  return ra->offset < rb->offset ? -1 : ra->offset > rb->offset;
}

/* The lost ranges of @buf, sorted, merged and clipped to the frame; their
 * number in *n. Counts what is wrong with the meta. */
static Range *
lost_ranges (Checker * c, GstBuffer * buf, guint * n)
{
  Range *r = NULL;
  guint m = 0;
  gboolean corrupted = GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED);
  GstBcLossMeta *meta = gst_buffer_get_bc_loss_meta (buf);
  guint i;

  if (meta && meta->n_ranges > 0) {
    guint64 sum = 0;

    r = g_new (Range, meta->n_ranges);
    for (i = 0; i < meta->n_ranges; i++) {
      guint64 o = meta->ranges[i].offset, s = meta->ranges[i].size;

      sum += s;
      if (o >= c->size || s > c->size - o) {
        g_printerr ("frame %" G_GUINT64_FORMAT ": lost range %" G_GUINT64_FORMAT
            "+%" G_GUINT64_FORMAT " outside the %" G_GSIZE_FORMAT
            " byte frame\n", c->frames, o, s, c->size);
        c->meta_inconsistent++;
        if (o >= c->size)
          continue;
        s = c->size - o;
      }
      if (s == 0)
        continue;
      r[m].offset = o;
      r[m].size = s;
      m++;
    }
    if (sum != meta->lost_bytes) {
      g_printerr ("frame %" G_GUINT64_FORMAT ": lost_bytes %" G_GUINT64_FORMAT
          " but the ranges add up to %" G_GUINT64_FORMAT "\n", c->frames,
          meta->lost_bytes, sum);
      c->meta_inconsistent++;
    }
    qsort (r, m, sizeof (Range), range_cmp);
    if (m > 1) {
      guint j = 0;

      for (i = 1; i < m; i++) {
        if (r[i].offset < r[j].offset + r[j].size) {
          c->meta_overlaps++;
          r[j].size = MAX (r[j].offset + r[j].size, r[i].offset + r[i].size)
              - r[j].offset;
        } else if (r[i].offset == r[j].offset + r[j].size) {
          r[j].size += r[i].size;
        } else {
          r[++j] = r[i];
        }
      }
      m = j + 1;
    }
  }
  if (corrupted != (m > 0)) {
    g_printerr ("frame %" G_GUINT64_FORMAT ": CORRUPTED flag %s, %u lost "
        "ranges\n", c->frames, corrupted ? "set" : "not set", m);
    c->meta_inconsistent++;
  }
  *n = m;
  return r;
}

/* Is [a, b) free of lost ranges? */
static gboolean
range_received (const Range * r, guint n, guint64 a, guint64 b)
{
  guint i;

  for (i = 0; i < n; i++)
    if (r[i].offset < b && a < r[i].offset + r[i].size)
      return FALSE;
  return TRUE;
}

/* The frame number when bytes 0-7 were lost: the candidate whose pattern
 * matches the first received stretch. Tries the frames after the last one
 * first, then all. Returns FALSE when nothing was received to tell. */
static gboolean
infer_number (Checker * c, const guint8 * data, const Range * r, guint n,
    guint64 * k, gboolean * found)
{
  guint64 a = 8, b, cand, len;
  guint i;
  gint pass;

  /* the first received stretch at or after byte 8 */
  for (i = 0; i <= n; i++) {
    b = i < n ? r[i].offset : c->size;
    if (b > a && b - a >= 16)
      break;
    if (i < n)
      a = MAX (a, r[i].offset + r[i].size);
  }
  if (i > n)
    return FALSE;
  len = MIN (b - a, 256);
  *found = FALSE;
  for (pass = 0; pass < 2 && !*found; pass++) {
    guint64 from = pass == 0 && c->have_last ? c->last + 1 : 0;

    for (cand = from; cand < (guint64) opt_frames; cand++) {
      if (memcmp (data + a, pattern_frame (&c->pat, cand) + a, len) == 0) {
        *k = cand;
        *found = TRUE;
        break;
      }
    }
  }
  return TRUE;
}

/* Compares [a, b) of frame @k; returns the mismatching bytes. */
static guint64
compare (Checker * c, const guint8 * data, guint64 k, guint64 a, guint64 b,
    guint64 * first_bad)
{
  const guint8 *want = pattern_frame (&c->pat, k);
  guint64 bad = 0, i;

  for (i = a; i < MIN (b, 8); i++)
    if (data[i] != pattern_byte (&c->pat, k, i)) {
      if (!bad++)
        *first_bad = i;
    }
  a = MAX (a, 8);
  if (a >= b || memcmp (data + a, want + a, b - a) == 0)
    return bad;
  for (i = a; i < b; i++)
    if (data[i] != want[i]) {
      if (!bad++)
        *first_bad = i;
    }
  return bad;
}

static GstFlowReturn
on_sample (GstAppSink * sink, gpointer user_data)
{
  Checker *c = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buf;
  GstMapInfo map;
  Range *r;
  guint n, i;
  guint64 k = 0, bad = 0, first_bad = 0, a, lost = 0;
  gboolean known;

  if (!sample)
    return GST_FLOW_EOS;
  buf = gst_sample_get_buffer (sample);
  if (!c->caps) {
    GstCaps *caps = gst_sample_get_caps (sample);
    GstStructure *s = gst_caps_get_structure (caps, 0);
    gint w = 0, h = 0;

    c->caps = gst_caps_to_string (caps);
    c->size = frame_size_of_caps (caps);
    gst_structure_get_int (s, "width", &w);
    gst_structure_get_int (s, "height", &h);
    if (c->size < 16 || w != opt_width || h != opt_height) {
      g_printerr ("receiver: unexpected caps %s (want %dx%d)\n", c->caps,
          opt_width, opt_height);
      c->caps_bad = TRUE;
      gst_sample_unref (sample);
      return GST_FLOW_ERROR;
    }
    pattern_init (&c->pat, c->size);
    c->seen = g_new0 (guint8, opt_frames);
    c->first_time = g_get_monotonic_time ();
  }
  {
    gint64 now = g_get_monotonic_time ();

    if (c->frames > 0 && now - c->last_time > c->max_interval) {
      c->max_interval = now - c->last_time;
      c->max_interval_frame = c->frames;
    }
    c->last_time = now;
  }
  c->frames++;
  if (gst_buffer_get_size (buf) != c->size) {
    g_printerr ("frame %" G_GUINT64_FORMAT ": %" G_GSIZE_FORMAT " bytes, "
        "want %" G_GSIZE_FORMAT "\n", c->frames - 1, gst_buffer_get_size (buf),
        c->size);
    c->bad_size++;
    gst_sample_unref (sample);
    return GST_FLOW_OK;
  }
  if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED))
    c->partial++;

  r = lost_ranges (c, buf, &n);
  for (i = 0; i < n; i++)
    lost += r[i].size;
  c->lost_bytes += lost;
  gst_buffer_map (buf, &map, GST_MAP_READ);

  /* which frame is it? */
  known = TRUE;
  if (range_received (r, n, 0, 8)) {
    k = GST_READ_UINT64_LE (map.data);
  } else {
    gboolean found = FALSE;

    c->inferred++;
    if (!infer_number (c, map.data, r, n, &k, &found)) {
      c->unverifiable++;
      known = FALSE;
    } else if (!found) {
      g_printerr ("frame %" G_GUINT64_FORMAT " (header lost): its received "
          "bytes match no frame number\n", c->frames - 1);
      c->mismatch_frames++;
      known = FALSE;
    }
  }
  if (known && k >= (guint64) opt_frames) {
    g_printerr ("frame %" G_GUINT64_FORMAT ": number %" G_GUINT64_FORMAT
        " out of range\n", c->frames - 1, k);
    c->out_of_range++;
    c->mismatch_frames++;
    known = FALSE;
  }

  if (known) {
    /* every received byte */
    a = 0;
    for (i = 0; i <= n; i++) {
      guint64 b = i < n ? r[i].offset : c->size;

      if (b > a)
        bad += compare (c, map.data, k, a, b, &first_bad);
      if (i < n)
        a = MAX (a, r[i].offset + r[i].size);
    }
    if (bad) {
      g_printerr ("frame number %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT
          " received bytes differ, the first at %" G_GUINT64_FORMAT
          " (%u lost ranges, %" G_GUINT64_FORMAT " bytes lost)\n", k, bad,
          first_bad, n, lost);
      c->mismatch_frames++;
      c->mismatch_bytes += bad;
    }
    /* order */
    if (c->seen[k]) {
      g_printerr ("frame number %" G_GUINT64_FORMAT " received again\n", k);
      c->duplicates++;
    } else if (c->have_last && k < c->last) {
      g_printerr ("frame number %" G_GUINT64_FORMAT " after %" G_GUINT64_FORMAT
          "\n", k, c->last);
      c->reordered++;
    } else {
      if (!c->have_last)
        c->first = k;
      else
        c->gaps += k - c->last - 1;
      c->have_last = TRUE;
      c->last = k;
    }
    if (!c->seen[k] && opt_count_from >= 0 && k >= (guint64) opt_count_from) {
      c->frames_from++;
      if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED))
        c->partial_from++;
    }
    c->seen[k] = 1;
  }
  gst_buffer_unmap (buf, &map);
  g_free (r);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static int
run_receiver (void)
{
  GstElement *p, *src, *sink;
  GstAppSinkCallbacks cb = { 0 };
  GstStructure *stats = NULL;
  Checker c = { 0 };
  GString *out;
  GstBus *bus;
  GError *err = NULL;
  gchar *error = NULL;
  gboolean eos = FALSE, failed;
  gint64 start = g_get_monotonic_time (), end;
  int ret;

  p = gst_parse_launch ("tilesrc name=src ! appsink name=sink sync=false "
      "max-buffers=0", &err);
  if (!p || err) {
    g_printerr ("cannot make the receiver: %s\n", err ? err->message : "?");
    return EXIT_FAIL;
  }
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  if (!set_prop (src, "host", opt_host) ||
      !set_num_prop (src, "port", opt_port) ||
      (opt_timer_factor >= 0 && !set_dbl_prop (src, "timer-factor",
              opt_timer_factor)) ||
      (opt_gso && !set_prop (src, "gro", opt_gso)) ||
      !set_props (src, opt_src_props))
    return EXIT_USAGE;
  cb.new_sample = on_sample;
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, &c, NULL);
  bus = gst_element_get_bus (p);

  end = start + (gint64) opt_timeout *G_USEC_PER_SEC;
  if (gst_element_set_state (p, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    error = bus_error (bus, 0, NULL);
    if (!error)
      error = g_strdup ("the receiver does not start");
  }
  while (!error && !eos && g_get_monotonic_time () < end)
    error = bus_error (bus, 100 * GST_MSECOND, &eos);
  if (!error && !eos)
    error = g_strdup_printf ("no EOS within %d s", opt_timeout);
  stats = get_stats (src);

  out = g_string_new ("{");
  json_str (out, "role", "receiver");
  json_str (out, "protocol", opt_protocol);
  json_str (out, "caps", c.caps);
  json_u64 (out, "frame_size", c.size);
  json_bool (out, "loss_meta", TRUE);
  json_u64 (out, "frames", c.frames);
  json_u64 (out, "frames_partial", c.partial);
  json_u64 (out, "lost_bytes", c.lost_bytes);
  json_dbl (out, "lost_fraction", c.frames && c.size ?
      (gdouble) c.lost_bytes / ((gdouble) c.frames * c.size) : 0.0);
  json_u64 (out, "first_frame", c.first);
  json_u64 (out, "last_frame", c.last);
  json_u64 (out, "frame_gaps", c.gaps);
  if (opt_count_from >= 0) {
    json_u64 (out, "frames_from", c.frames_from);
    json_u64 (out, "partial_from", c.partial_from);
  }
  json_u64 (out, "numbers_inferred", c.inferred);
  json_u64 (out, "frames_unverifiable", c.unverifiable);
  json_u64 (out, "mismatch_frames", c.mismatch_frames);
  json_u64 (out, "mismatch_bytes", c.mismatch_bytes);
  json_u64 (out, "reordered", c.reordered);
  json_u64 (out, "duplicates", c.duplicates);
  json_u64 (out, "out_of_range", c.out_of_range);
  json_u64 (out, "bad_size", c.bad_size);
  json_u64 (out, "meta_inconsistent", c.meta_inconsistent);
  json_u64 (out, "meta_overlaps", c.meta_overlaps);
  json_dbl (out, "receive_seconds", (c.last_time - c.first_time) / 1e6);
  json_dbl (out, "max_interval_ms", c.max_interval / 1e3);
  json_u64 (out, "max_interval_frame", c.max_interval_frame);
  json_bool (out, "eos", eos);
  json_str (out, "error", error);
  json_key (out, "stats");
  json_structure (out, stats);
  g_string_append_c (out, '}');
  g_print ("%s\n", out->str);
  g_string_free (out, TRUE);
  if (stats)
    gst_structure_free (stats);

  gst_element_set_state (p, GST_STATE_NULL);
  failed = error || c.caps_bad || c.mismatch_frames || c.reordered ||
      c.duplicates || c.bad_size || c.meta_inconsistent;
  ret = failed ? EXIT_FAIL : 0;
  if (error && c.frames == 0 && strstr (error, "no EOS"))
    ret = EXIT_NO_PEER;
  pattern_clear (&c.pat);
  g_free (c.seen);
  g_free (c.caps);
  g_free (error);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (p);
  return ret;
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx;
  GError *err = NULL;
  guint i;
  int ret;

  ctx = g_option_context_new ("--send|--receive|--probe - tilesink/tilesrc "
      "end of the network namespace test");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return EXIT_USAGE;
  }
  g_option_context_free (ctx);
  if (!opt_protocol)
    opt_protocol = g_strdup ("tcp");
  if (!opt_format)
    opt_format = g_strdup ("bc1");
  if ((opt_send + opt_receive + opt_probe) != 1 || opt_frames < 1 ||
      opt_fps <= 0 || opt_port < 0 || opt_port > 65535 || opt_width < 1 ||
      opt_height < 1 || opt_receivers < 1 || (opt_receive && !opt_host) ||
      (g_ascii_strcasecmp (opt_format, "bc1") != 0 &&
          g_ascii_strcasecmp (opt_format, "gray8") != 0)) {
    g_printerr ("usage: %s --send|--receive|--probe [options] (see --help); "
        "--receive needs --host\n", argv[0]);
    return EXIT_USAGE;
  }

  n_steps = opt_step_frames ? g_strv_length (opt_step_frames) : 0;
  if (n_steps != (opt_step_cmds ? g_strv_length (opt_step_cmds) : 0)) {
    g_printerr ("as many --step-frame as --step-cmd, please\n");
    return EXIT_USAGE;
  }
  step_frames = g_new0 (gint64, n_steps + 1);
  for (i = 0; i < n_steps; i++) {
    gchar *end = NULL;

    step_frames[i] = g_ascii_strtoll (opt_step_frames[i], &end, 10);
    if (!end || *end || end == opt_step_frames[i] || step_frames[i] < 0) {
      g_printerr ("bad --step-frame '%s'\n", opt_step_frames[i]);
      return EXIT_USAGE;
    }
  }

  if (opt_probe)
    ret = run_probe ();
  else if (opt_send)
    ret = run_sender ();
  else
    ret = run_receiver ();
  gst_deinit ();
  return ret;
}
