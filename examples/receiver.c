/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* receiver: receives the frames of a tilesink (examples/sender), decodes
 * them on the CPU (or, with --gl, uploads them to the GPU, which decodes
 * them) and shows them, or throws them away when there is no display.
 *
 *   tilesrc host=H port=P [reconnect=true] ! bcdec ! videoconvert
 *     ! autovideosink                (with a display)
 *     ! fakesink                     (without)
 *
 *   --gl:
 *   tilesrc host=H port=P ! glbcupload name=up
 *     ! glimagesink                  (with a display)
 *     ! fakesink                     (without: the frames stay GL textures;
 *                                    headless GL through EGL on the render
 *                                    node, GST_GL_PLATFORM=egl
 *                                    GST_GL_WINDOW=egl-device, is selected
 *                                    when no display is set)
 *
 * Prints one line per second from tilesrc's "tilesrc-stats" messages:
 * frames/s, Gbit/s and the delivery latency percentiles over the last 1024
 * frames (from a frame's capture to the moment it is complete, on the
 * sender's clock, which tilesrc follows). The sink presents every frame
 * tilesrc's playout latency after its capture (sync=true, the default:
 * the pipeline runs on tilesrc's clock). With --gl the line adds
 * glbcupload's statistics: frames that came straight from its GL buffer
 * (zero-copy), frames it had to copy in, and tiles uploaded as they
 * arrived (stepped). Exits with 0 on the
 * sender's EOS or after --num-frames frames, with 1 on an error.
 *
 * Uninstalled use:
 *   GST_PLUGIN_PATH=build/gst build/examples/receiver --host 127.0.0.1 --port 7000
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <string.h>

#include "example.h"

typedef struct
{
  ExampleApp app;               /* first: the handlers see an ExampleApp */
  GstElement *upload;           /* glbcupload with --gl, else NULL */

  /* previous stats message, or the start */
  gint64 prev_us;
  guint64 prev_bytes;
  guint64 prev_frames;
} Receiver;

/* " | upload: ..." from glbcupload's statistics, or "" without --gl */
static gchar *
format_upload_stats (GstElement * upload)
{
  GstStructure *s = NULL;
  gchar *ret;

  if (upload == NULL)
    return g_strdup ("");
  g_object_get (upload, "stats", &s, NULL);
  if (s == NULL)
    return g_strdup ("");
  ret = g_strdup_printf ("  | upload: zero-copy %" G_GUINT64_FORMAT
      ", copied %" G_GUINT64_FORMAT ", stepped uploads %" G_GUINT64_FORMAT
      ", frame uploads %" G_GUINT64_FORMAT, example_get_u64 (s,
          "zero-copy-frames"), example_get_u64 (s, "copied-frames"),
      example_get_u64 (s, "stepped-uploads"), example_get_u64 (s,
          "frame-uploads"));
  gst_structure_free (s);
  return ret;
}

/* the element's statistics message, once a second */
static void
print_stats (ExampleApp * app, const GstStructure * s)
{
  Receiver *receiver = (Receiver *) app;
  gint64 now = g_get_monotonic_time ();
  guint64 frames = example_get_u64 (s, "frames-received");
  guint64 bytes = example_get_u64 (s, "bytes-received");
  gdouble fps = 0.0, gbps = 0.0;
  gchar *p50, *p95, *p99, *upload;

  /* the first interval starts with the pipeline */
  if (now > receiver->prev_us) {
    gdouble secs = (now - receiver->prev_us) / 1e6;

    fps = (frames - receiver->prev_frames) / secs;
    gbps = (bytes - receiver->prev_bytes) * 8.0 / secs / 1e9;
  }
  receiver->prev_us = now;
  receiver->prev_frames = frames;
  receiver->prev_bytes = bytes;

  p50 = example_format_ms (s, "latency-p50");
  p95 = example_format_ms (s, "latency-p95");
  p99 = example_format_ms (s, "latency-p99");
  upload = format_upload_stats (receiver->upload);
  g_print ("receiver: %5.1f frames/s  %.3f Gbit/s  latency p50 %s ms  "
      "p95 %s ms  p99 %s ms  (frames %" G_GUINT64_FORMAT ", incomplete %"
      G_GUINT64_FORMAT ")%s\n", fps, gbps, p50, p95, p99, frames,
      example_get_u64 (s, "frames-incomplete"), upload);
  g_free (upload);
  g_free (p50);
  g_free (p95);
  g_free (p99);
}

static void
print_summary (GstElement * src, GstElement * upload)
{
  GstStructure *s = NULL;
  gchar *p50, *p95, *p99, *up;

  g_object_get (src, "stats", &s, NULL);
  if (s == NULL)
    return;
  if (example_get_u64 (s, "frames-received") == 0) {
    gst_structure_free (s);
    return;
  }
  p50 = example_format_ms (s, "latency-p50");
  p95 = example_format_ms (s, "latency-p95");
  p99 = example_format_ms (s, "latency-p99");
  up = format_upload_stats (upload);
  g_print ("receiver: total: %" G_GUINT64_FORMAT " frames (%.1f MB), %"
      G_GUINT64_FORMAT " incomplete; latency over the last %u frames: "
      "p50 %s ms, p95 %s ms, p99 %s ms%s\n", example_get_u64 (s,
          "frames-received"), example_get_u64 (s, "bytes-received") / 1e6,
      example_get_u64 (s, "frames-incomplete"), (guint) MIN (example_get_u64 (s,
              "latency-samples"), 1024), p50, p95, p99, up);
  g_free (up);
  g_free (p50);
  g_free (p95);
  g_free (p99);
  gst_structure_free (s);
}

/* The command line */
typedef struct
{
  gchar *host;
  gint port, num_frames;
  gboolean reconnect, display, no_display;
  gboolean gl, stepped, no_stepped;
  /* from --gl, --display and --no-stepped */
  const gchar *sink, *decode;
} Options;

/* 0, or the exit status (2) on a bad command line */
static gint
parse_options (Options * o, int *argc, char ***argv)
{
  GOptionEntry entries[] = {
    {"host", 0, 0, G_OPTION_ARG_STRING, &o->host,
        "Host name or address of the sender (default 127.0.0.1)", "HOST"},
    {"port", 'p', 0, G_OPTION_ARG_INT, &o->port,
        "Port of the sender (default 7000)", "PORT"},
    {"reconnect", 'r', 0, G_OPTION_ARG_NONE, &o->reconnect,
        "Wait for the sender, and reconnect when it goes away", NULL},
    {"display", 'd', 0, G_OPTION_ARG_NONE, &o->display,
        "Show the video (autovideosink, glimagesink with --gl); the "
          "default when DISPLAY or " "WAYLAND_DISPLAY is set", NULL},
    {"no-display", 0, 0, G_OPTION_ARG_NONE, &o->no_display,
        "Do not show the video (fakesink)", NULL},
    {"gl", 'g', 0, G_OPTION_ARG_NONE, &o->gl,
        "Upload the frames to the GPU, which decodes them (glbcupload ! "
          "glimagesink, or fakesink without a display)", NULL},
    {"no-stepped", 0, 0, G_OPTION_ARG_NONE, &o->no_stepped,
          "With --gl: upload whole frames, not each tile as it arrives",
        NULL},
    {"num-frames", 'n', 0, G_OPTION_ARG_INT, &o->num_frames,
          "Stop after this many frames, 0 = at the sender's EOS (default 0)",
        "N"},
    {NULL}
  };

  o->port = 7000;
  if (!example_parse_options (argc, argv, entries,
          "- receive, decode and show the frames of a tilesink",
          "tilesrc ! bcdec ! videoconvert ! autovideosink (or fakesink), or "
          "with --gl\ntilesrc ! glbcupload ! glimagesink (or fakesink). "
          "Prints frames/s, Gbit/s\nand the delivery latency percentiles "
          "once a second (with --gl also the\nupload statistics)."))
    return 2;

  if (o->host == NULL)
    o->host = g_strdup ("127.0.0.1");
  if (o->port < 1 || o->port > 65535 || o->num_frames < 0) {
    g_printerr ("receiver: out of range: --port 1-65535, --num-frames at "
        "least 0\n");
    return 2;
  }
  if (o->display && o->no_display) {
    g_printerr ("receiver: --display and --no-display together\n");
    return 2;
  }
  if (o->no_stepped && !o->gl) {
    g_printerr ("receiver: --no-stepped needs --gl\n");
    return 2;
  }
  o->stepped = !o->no_stepped;
  if (!o->display && !o->no_display)
    o->display = g_getenv ("DISPLAY") != NULL ||
        g_getenv ("WAYLAND_DISPLAY") != NULL;
  if (o->gl) {
    o->sink = o->display ? "glimagesink" : "fakesink";
    o->decode = o->stepped ? "glbcupload name=up stepped=true" :
        "glbcupload name=up stepped=false";
    /* without a display, GL can only run on EGL's device platform (Mesa
     * llvmpipe or a GPU's render node); what the user set wins */
    if (!o->display) {
      g_setenv ("GST_GL_PLATFORM", "egl", FALSE);
      g_setenv ("GST_GL_WINDOW", "egl-device", FALSE);
    }
  } else {
    o->sink = o->display ? "autovideosink" : "fakesink";
    o->decode = "bcdec ! videoconvert";
  }
  return 0;
}

/* FALSE, with a message, when an element of the pipeline is missing */
static gboolean
check_elements (const Options * o)
{
  gboolean gl = o->gl, display = o->display;

  return example_check_element ("receiver", "tilesrc",
      "set GST_PLUGIN_PATH to the build " "directory")
      && example_check_element ("receiver", gl ? "glbcupload" : "bcdec",
      gl ? "set GST_PLUGIN_PATH to the build directory (the glbc plugin "
      "needs the GStreamer GL library: libgstreamer-gl1.0-0)" :
      "set GST_PLUGIN_PATH to the build directory")
      && (gl || example_check_element ("receiver", "videoconvert",
          "install gstreamer1.0-plugins-base"))
      && example_check_element ("receiver", o->sink,
      gl ? (display ? "install gstreamer1.0-gl" :
          "GStreamer core elements are missing") :
      display ? "install gstreamer1.0-plugins-good" :
      "GStreamer core elements are missing");
}

/* tilesrc name=src ! decoding ! sink, or NULL (message printed) */
static GstElement *
build_pipeline (const Options * o)
{
  GstElement *pipeline;
  gchar *desc;

  if (!check_elements (o))
    return NULL;

  /* frames are shown at the sender's cadence, tilesrc's latency after
   * their capture */
  desc = g_strdup_printf ("tilesrc name=src host=\"%s\" port=%d reconnect=%s "
      "num-buffers=%d ! %s ! %s", o->host, o->port,
      o->reconnect ? "true" : "false", o->num_frames > 0 ? o->num_frames : -1,
      o->decode, o->sink);
  pipeline = example_parse_launch ("receiver", desc);
  g_free (desc);
  return pipeline;
}

/* Receives until EOS, --num-frames, an error or a second signal, then
 * prints the totals; returns the exit status */
static gint
receive (Receiver * receiver, const Options * o)
{
  GstElement *src;

  receiver->app.pipeline = build_pipeline (o);
  if (receiver->app.pipeline == NULL)
    return 1;
  src = gst_bin_get_by_name (GST_BIN (receiver->app.pipeline), "src");
  if (o->gl)
    receiver->upload = gst_bin_get_by_name (GST_BIN (receiver->app.pipeline),
        "up");
  g_print ("receiver: connecting to %s port %d%s, %s, output to %s\n",
      o->host, o->port, o->reconnect ? " (reconnecting)" : "",
      o->gl ? (o->stepped ? "GPU decoding (glbcupload, stepped upload)" :
          "GPU decoding (glbcupload, whole-frame upload)") :
      "CPU decoding (bcdec)", o->sink);
  receiver->prev_us = g_get_monotonic_time ();
  if (example_start (&receiver->app)) {
    g_main_loop_run (receiver->app.loop);
    print_summary (src, receiver->upload);
  }
  example_stop (&receiver->app);
  if (receiver->upload)
    gst_object_unref (receiver->upload);
  gst_object_unref (src);
  gst_object_unref (receiver->app.pipeline);
  return receiver->app.ret;
}

int
main (int argc, char **argv)
{
  Options options = { NULL, };
  /* name, seconds EOS may take, statistics message and their printer */
  Receiver receiver = { {"receiver", 5, "tilesrc-stats", print_stats}, };

  receiver.app.ret = parse_options (&options, &argc, &argv);
  if (receiver.app.ret == 0)
    receiver.app.ret = receive (&receiver, &options);
  g_free (options.host);
  gst_deinit ();
  return receiver.app.ret;
}
