/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* bc-upload-bench: BC1 frames from tilesink to tilesrc over 127.0.0.1, up
 * to a GL texture through glbcupload, in one process, for the upload
 * benchmark (benchmarks/upload/run.sh).
 *
 *   bc-upload-bench -W 3840 -H 2160 -u 4 --rate 30 --seconds 5
 *       [--stepped | --frame] [--copy] [--gpu-timing] [--warmup 1]
 *
 *   sender:   appsrc (pre-filled BC1 frames, --rate per second)
 *               ! tilesink host=127.0.0.1 port=0 units=U
 *   receiver: tilesrc stepped=true ! identity drop-allocation=C
 *               ! glbcupload stepped=S ! fakesink sync=false
 *
 * --copy sets identity's drop-allocation: glbcupload's pool does not reach
 * tilesrc, which receives into its own system memory, and glbcupload
 * copies every frame into its GL buffer (the copy path). Without it tilesrc
 * receives into glbcupload's persistent mapped GL buffer (zero copy), and
 * with --stepped (the default) each tile is uploaded as soon as it is in.
 *
 * Per frame, after --warmup seconds:
 *   transform   wall time from the buffer entering glbcupload's sink pad to
 *               the output leaving its src pad (the upload of what is left
 *               and the draw, submitted on the GL thread and waited for by
 *               the streaming thread)
 *   ready       wall time from the buffer entering glbcupload to its output
 *               texture being ready (gst_gl_sync_meta_wait_cpu () on the
 *               output's GstGLSyncMeta, a GL fence, returns)
 *   delivery    end to end: the sender's CLOCK_REALTIME when tilesink got
 *               the frame (tilesrc's GstReferenceTimestampMeta,
 *               timestamp/x-unix) to CLOCK_REALTIME when the texture is
 *               ready; this is the receiver's "frame on the GPU" latency
 *   tilesrc     the same start to tilesrc pushing the frame (its own stats)
 *
 * Prints one JSON object: the configuration, the percentiles (p5, p50,
 * p95, p99, mean; ms) of each, glbcupload's statistics, frames sent,
 * delivered and dropped. Exits 0, or 1 when the pipelines fail or no frame
 * was measured, 77 when no GL context can be made.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/gl/gl.h>

#include "../benchlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SAMPLES 100000
#define WINDOW 4

typedef struct
{
  gdouble *v;
  guint n;
} Samples;

typedef struct
{
  GstElement *upload;
  GstGLContext *context;
  GstCaps *unix_caps;

  gint64 warmup_end_us;
  gint64 t_in_us;               /* streaming thread only */
  gint64 t_in_real_ns;

  Samples transform, ready, delivery;
  guint64 frames_out;
} Bench;

static void
add_sample (Samples * s, gdouble ms)
{
  if (s->n < MAX_SAMPLES)
    s->v[s->n++] = ms;
}

static int
cmp_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

static void
print_samples (const gchar * name, Samples * s, gboolean last)
{
  gdouble sum = 0.0;
  guint i;

  qsort (s->v, s->n, sizeof (gdouble), cmp_double);
  for (i = 0; i < s->n; i++)
    sum += s->v[i];
#define PCT(p) (s->n ? s->v[MIN (s->n - 1, (guint) ((p) / 100.0 * s->n))] : 0.0)
  printf ("  \"%s\": {\"n\": %u, \"p5\": %.3f, \"p50\": %.3f, \"p95\": %.3f, "
      "\"p99\": %.3f, \"mean\": %.3f}%s\n", name, s->n, PCT (5), PCT (50),
      PCT (95), PCT (99), s->n ? sum / s->n : 0.0, last ? "" : ",");
#undef PCT
}

static GstPadProbeReturn
upload_sink_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Bench *b = user_data;

  b->t_in_us = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
upload_src_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Bench *b = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gint64 t_out = g_get_monotonic_time (), t_ready, now_real;
  GstGLSyncMeta *sync = gst_buffer_get_gl_sync_meta (buf);
  GstReferenceTimestampMeta *rmeta;

  if (b->context == NULL)
    g_object_get (b->upload, "context", &b->context, NULL);
  /* the texture is ready when the GPU has passed the draw's fence */
  if (sync && b->context)
    gst_gl_sync_meta_wait_cpu (sync, b->context);
  t_ready = g_get_monotonic_time ();
  now_real = (gint64) bench_realtime_ns ();
  b->frames_out++;
  if (t_out < b->warmup_end_us)
    return GST_PAD_PROBE_OK;

  add_sample (&b->transform, (t_out - b->t_in_us) / 1e3);
  add_sample (&b->ready, (t_ready - b->t_in_us) / 1e3);
  rmeta = gst_buffer_get_reference_timestamp_meta (buf, b->unix_caps);
  if (rmeta)
    add_sample (&b->delivery, (now_real - (gint64) rmeta->timestamp) / 1e6);
  return GST_PAD_PROBE_OK;
}

static gboolean
check_bus (GstElement * pipeline, const gchar * what, gboolean * no_gl)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  gboolean ok = TRUE;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    g_printerr ("%s: error from %s: %s (%s)\n", what,
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message, dbg ? dbg : "");
    if (no_gl && err->domain == GST_RESOURCE_ERROR &&
        g_str_has_prefix (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), "up"))
      *no_gl = TRUE;
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
    ok = FALSE;
  }
  gst_object_unref (bus);
  return ok;
}

static guint64
get_u64 (const GstStructure * s, const gchar * field)
{
  guint64 v = 0;

  if (s == NULL || !gst_structure_get_uint64 (s, field, &v))
    v = 0;
  return v;
}

static void
noop_free (gpointer data)
{
}

/* The command line */
typedef struct
{
  gint width, height, units, rate;
  gdouble seconds, warmup;
  gboolean frame, stepped, copy, gpu_timing;
} Options;

/* 0, or 2 on a bad command line */
static gint
parse_options (gint * argc, gchar *** argv, Options * o)
{
  GOptionEntry entries[] = {
    {"width", 'W', 0, G_OPTION_ARG_INT, &o->width, "Frame width", "W"},
    {"height", 'H', 0, G_OPTION_ARG_INT, &o->height, "Frame height", "H"},
    {"units", 'u', 0, G_OPTION_ARG_INT, &o->units, "tilesink units", "N"},
    {"rate", 'r', 0, G_OPTION_ARG_INT, &o->rate, "Frames per second", "R"},
    {"seconds", 's', 0, G_OPTION_ARG_DOUBLE, &o->seconds,
        "Seconds measured", "S"},
    {"warmup", 0, 0, G_OPTION_ARG_DOUBLE, &o->warmup,
        "Seconds not measured first", "S"},
    {"gpu-timing", 0, 0, G_OPTION_ARG_NONE, &o->gpu_timing,
        "glbcupload gpu-timing=true (GL_TIME_ELAPSED per frame)", NULL},
    {"stepped", 0, 0, G_OPTION_ARG_NONE, &o->stepped,
        "glbcupload stepped=true (the default)", NULL},
    {"frame", 0, 0, G_OPTION_ARG_NONE, &o->frame,
        "glbcupload stepped=false: whole-frame upload", NULL},
    {"copy", 0, 0, G_OPTION_ARG_NONE, &o->copy,
        "Keep glbcupload's pool from tilesrc: the copy path", NULL},
    {NULL}
  };

  /* width, height, units, rate, seconds, warmup */
  static const Options defaults = { 1920, 1080, 4, 30, 5.0, 1.0, };

  *o = defaults;
  if (!bench_parse_options (argc, argv, entries,
          "- tilesink -> tilesrc -> glbcupload latency", NULL))
    return 2;
  if (o->frame && o->stepped) {
    g_printerr ("--stepped and --frame together\n");
    return 2;
  }
  if (o->width < 4 || o->height < 4 || o->units < 1 || o->rate < 1 ||
      o->seconds <= 0) {
    g_printerr ("out of range\n");
    return 2;
  }
  o->stepped = !o->frame;
  return 0;
}

/* The pipelines and what goes through them */
typedef struct
{
  GstElement *sender, *receiver, *appsrc, *sink, *rsrc;
  guint8 *frames;               /* WINDOW frames */
  gsize frame_size;
  guint64 pushed;
  gboolean no_gl;
} Run;

/* WINDOW BC1 frames of pseudo-random bytes: 8 bytes per 4x4 block; any
 * bytes are valid blocks */
static void
fill_frames (Run * r, const Options * o)
{
  guint32 x = 0x12345678;
  gsize i;

  r->frame_size = (gsize) ((o->width + 3) / 4) * ((o->height + 3) / 4) * 8;
  r->frames = g_malloc (r->frame_size * WINDOW);
  for (i = 0; i < r->frame_size * WINDOW / 4; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    memcpy (r->frames + 4 * i, &x, 4);
  }
}

/* The pipeline of @desc (freed), or NULL */
static GstElement *
launch (gchar * desc)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);

  g_free (desc);
  if (!pipeline) {
    g_printerr ("cannot build a pipeline: %s\n", error->message);
    g_clear_error (&error);
  }
  return pipeline;
}

/* appsrc ! tilesink, playing; its port, or 0 */
static guint
start_sender (Run * r, const Options * o)
{
  GstCaps *caps;
  guint port = 0;

  r->sender = launch (g_strdup_printf ("appsrc name=src is-live=true "
          "do-timestamp=true format=time ! tilesink name=sink "
          "host=127.0.0.1 port=0 units=%d", o->units));
  if (!r->sender)
    return 0;
  r->appsrc = gst_bin_get_by_name (GST_BIN (r->sender), "src");
  r->sink = gst_bin_get_by_name (GST_BIN (r->sender), "sink");
  caps = gst_caps_new_simple ("video/x-bc", "format", G_TYPE_STRING, "BC1",
      "width", G_TYPE_INT, o->width, "height", G_TYPE_INT, o->height,
      "framerate", GST_TYPE_FRACTION, o->rate, 1, "pixel-aspect-ratio",
      GST_TYPE_FRACTION, 1, 1, NULL);
  g_object_set (r->appsrc, "caps", caps, "max-bytes",
      (guint64) r->frame_size * WINDOW, NULL);
  gst_caps_unref (caps);
  if (gst_element_set_state (r->sender, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    check_bus (r->sender, "sender", NULL);
    return 0;
  }
  g_object_get (r->sink, "bound-port", &port, NULL);
  if (port == 0)
    g_printerr ("the sender has no port\n");
  return port;
}

/* tilesrc ! identity ! glbcupload ! fakesink from @port, glbcupload's pads
 * timed into @b, playing */
static gboolean
start_receiver (Run * r, const Options * o, Bench * b, guint port)
{
  GstPad *pad;

  r->receiver = launch (g_strdup_printf ("tilesrc name=rsrc host=127.0.0.1 "
          "port=%u stepped=true ! identity drop-allocation=%s ! glbcupload "
          "name=up stepped=%s gpu-timing=%s ! fakesink sync=false", port,
          o->copy ? "true" : "false", o->stepped ? "true" : "false",
          o->gpu_timing ? "true" : "false"));
  if (!r->receiver)
    return FALSE;
  r->rsrc = gst_bin_get_by_name (GST_BIN (r->receiver), "rsrc");
  b->upload = gst_bin_get_by_name (GST_BIN (r->receiver), "up");
  pad = gst_element_get_static_pad (b->upload, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, upload_sink_probe, b,
      NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (b->upload, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, upload_src_probe, b, NULL);
  gst_object_unref (pad);
  if (gst_element_set_state (r->receiver, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    check_bus (r->receiver, "receiver", &r->no_gl);
    return FALSE;
  }
  return TRUE;
}

/* Pushes at --rate for --warmup and --seconds (tilesink drops frames it
 * cannot send in time); FALSE on a pipeline error */
static gboolean
push_frames (Run * r, const Options * o, Bench * b)
{
  gint64 start_us = g_get_monotonic_time (), next_us = start_us, end_us;

  b->warmup_end_us = start_us + (gint64) (o->warmup * G_USEC_PER_SEC);
  end_us = b->warmup_end_us + (gint64) (o->seconds * G_USEC_PER_SEC);
  while (g_get_monotonic_time () < end_us) {
    GstBuffer *buf;
    guint8 *data = r->frames + (r->pushed % WINDOW) * r->frame_size;
    gint64 now;

    buf = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, data,
        r->frame_size, 0, r->frame_size, NULL, noop_free);
    if (gst_app_src_push_buffer (GST_APP_SRC (r->appsrc), buf) != GST_FLOW_OK)
      break;
    r->pushed++;
    if (!check_bus (r->sender, "sender", NULL) ||
        !check_bus (r->receiver, "receiver", &r->no_gl))
      return FALSE;
    next_us += G_USEC_PER_SEC / o->rate;
    now = g_get_monotonic_time ();
    if (next_us > now)
      g_usleep (next_us - now);
  }
  return TRUE;
}

/* The JSON object of the header comment */
static void
print_report (Run * r, const Options * o, Bench * b,
    const GstStructure * up_stats, const GstStructure * src_stats,
    const GstStructure * sink_stats)
{
  printf ("{\n  \"width\": %d, \"height\": %d, \"units\": %d, \"rate\": %d,"
      " \"frame_bytes\": %" G_GSIZE_FORMAT ",\n  \"stepped\": %s, "
      "\"copy\": %s, \"seconds\": %.1f,\n  \"frames_pushed\": %"
      G_GUINT64_FORMAT ", \"frames_sent\": %" G_GUINT64_FORMAT
      ", \"frames_dropped\": %" G_GUINT64_FORMAT ", \"frames_received\": %"
      G_GUINT64_FORMAT ", \"frames_out\": %" G_GUINT64_FORMAT ",\n"
      "  \"tilesrc_latency_ms\": {\"p50\": %.3f, \"p99\": %.3f},\n",
      o->width, o->height, o->units, o->rate, r->frame_size,
      o->stepped ? "true" : "false", o->copy ? "true" : "false", o->seconds,
      r->pushed, get_u64 (sink_stats, "frames-sent"), get_u64 (sink_stats,
          "frames-dropped"), get_u64 (src_stats, "frames-received"),
      b->frames_out, get_u64 (src_stats, "latency-p50") / 1e6,
      get_u64 (src_stats, "latency-p99") / 1e6);
  printf ("  \"glbcupload_stats\": {\"zero_copy_frames\": %" G_GUINT64_FORMAT
      ", \"copied_frames\": %" G_GUINT64_FORMAT ", \"copied_bytes\": %"
      G_GUINT64_FORMAT ", \"stepped_uploads\": %" G_GUINT64_FORMAT
      ", \"frame_uploads\": %" G_GUINT64_FORMAT ", \"frames_stepped\": %"
      G_GUINT64_FORMAT ", \"fence_waits\": %" G_GUINT64_FORMAT
      ", \"gpu_timed_frames\": %" G_GUINT64_FORMAT ", \"gpu_time_ns\": %"
      G_GUINT64_FORMAT "},\n",
      get_u64 (up_stats, "zero-copy-frames"), get_u64 (up_stats,
          "copied-frames"), get_u64 (up_stats, "copied-bytes"),
      get_u64 (up_stats, "stepped-uploads"), get_u64 (up_stats,
          "frame-uploads"), get_u64 (up_stats, "frames-stepped"),
      get_u64 (up_stats, "fence-waits"), get_u64 (up_stats,
          "gpu-timed-frames"), get_u64 (up_stats, "gpu-time-ns"));
  print_samples ("transform_ms", &b->transform, FALSE);
  print_samples ("ready_ms", &b->ready, FALSE);
  print_samples ("delivery_ms", &b->delivery, TRUE);
  printf ("}\n");
}

/* Runs the pipelines, stops them and prints the report: the exit status
 * (1 on a failure) */
static gint
run (Run * r, const Options * o, Bench * b)
{
  GstStructure *up_stats = NULL, *src_stats = NULL, *sink_stats = NULL;
  gint ret = 1;
  guint port;

  fill_frames (r, o);
  port = start_sender (r, o);
  if (port == 0 || !start_receiver (r, o, b, port) || !push_frames (r, o, b))
    return 1;

  g_object_get (b->upload, "stats", &up_stats, NULL);
  g_object_get (r->rsrc, "stats", &src_stats, NULL);
  g_object_get (r->sink, "stats", &sink_stats, NULL);
  gst_element_set_state (r->receiver, GST_STATE_NULL);
  gst_element_set_state (r->sender, GST_STATE_NULL);

  if (b->delivery.n == 0) {
    g_printerr ("no frame measured\n");
  } else {
    print_report (r, o, b, up_stats, src_stats, sink_stats);
    ret = 0;
  }
  if (up_stats)
    gst_structure_free (up_stats);
  if (src_stats)
    gst_structure_free (src_stats);
  if (sink_stats)
    gst_structure_free (sink_stats);
  return ret;
}

int
main (int argc, char **argv)
{
  Options o = { 0, };
  Run r = { NULL, };
  Bench b;
  int ret;

  ret = parse_options (&argc, &argv, &o);
  if (ret != 0)
    return ret;
  g_setenv ("GST_GL_PLATFORM", "egl", FALSE);
  g_setenv ("GST_GL_WINDOW", "egl-device", FALSE);

  memset (&b, 0, sizeof (b));
  b.transform.v = g_new (gdouble, MAX_SAMPLES);
  b.ready.v = g_new (gdouble, MAX_SAMPLES);
  b.delivery.v = g_new (gdouble, MAX_SAMPLES);
  b.unix_caps = gst_caps_new_empty_simple ("timestamp/x-unix");

  ret = run (&r, &o, &b);
  if (ret != 0 && r.no_gl)
    ret = 77;

  if (r.receiver) {
    gst_element_set_state (r.receiver, GST_STATE_NULL);
    gst_object_unref (r.receiver);
  }
  if (r.sender) {
    gst_element_set_state (r.sender, GST_STATE_NULL);
    gst_object_unref (r.sender);
  }
  gst_clear_object (&r.appsrc);
  gst_clear_object (&r.sink);
  gst_clear_object (&r.rsrc);
  gst_clear_object (&b.upload);
  gst_clear_object (&b.context);
  gst_caps_unref (b.unix_caps);
  g_free (b.transform.v);
  g_free (b.ready.v);
  g_free (b.delivery.v);
  g_free (r.frames);
  return ret;
}
