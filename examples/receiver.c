/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* receiver: receives the frames of a tilesink (examples/sender), decodes
 * them on the CPU (or, with --gl, uploads them to the GPU, which decodes
 * them) and shows them, or throws them away when there is no display.
 *
 *   tilesrc host=H port=P [reconnect=true] ! bcdec ! videoconvert
 *     ! autovideosink sync=false     (with a display)
 *     ! fakesink sync=false          (without)
 *
 *   --gl:
 *   tilesrc host=H port=P ! glbcupload name=up
 *     ! glimagesink sync=false       (with a display)
 *     ! fakesink sync=false          (without: the frames stay GL textures;
 *                                    headless GL through EGL on the render
 *                                    node, GST_GL_PLATFORM=egl
 *                                    GST_GL_WINDOW=egl-device, is selected
 *                                    when no display is set)
 *
 * Prints one line per second from tilesrc's "tilesrc-stats" messages:
 * frames/s, Gbit/s and the delivery latency percentiles over the last 1024
 * frames (from the sender's wall-clock time when tilesink got the frame to
 * the receiver's when tilesrc pushes it, complete; both ends on one
 * machine, or clocks synchronised with PTP/NTP). With --gl the line adds
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
#include <glib-unix.h>
#include <signal.h>
#include <string.h>

#include "tile-example.h"

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

static void
print_stats (Receiver * receiver, const GstStructure * s)
{
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

static gboolean
on_bus_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  Receiver *receiver = user_data;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:{
      const GstStructure *s = gst_message_get_structure (msg);

      if (s && gst_structure_has_name (s, "tilesrc-stats"))
        print_stats (receiver, s);
      break;
    }
    case GST_MESSAGE_WARNING:{
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_warning (msg, &err, &dbg);
      g_printerr ("receiver: warning from %s: %s\n%s%s",
          GST_OBJECT_NAME (msg->src), err->message, dbg ? dbg : "",
          dbg ? "\n" : "");
      g_clear_error (&err);
      g_free (dbg);
      break;
    }
    case GST_MESSAGE_ERROR:{
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      g_printerr ("receiver: error from %s: %s\n%s%s",
          GST_OBJECT_NAME (msg->src), err->message, dbg ? dbg : "",
          dbg ? "\n" : "");
      g_clear_error (&err);
      g_free (dbg);
      receiver->app.ret = 1;
      g_main_loop_quit (receiver->app.loop);
      break;
    }
    case GST_MESSAGE_EOS:
      g_print ("receiver: EOS\n");
      g_main_loop_quit (receiver->app.loop);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
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

int
main (int argc, char **argv)
{
  gchar *host = NULL;
  gint port = 7000, num_frames = 0;
  gboolean reconnect = FALSE, display = FALSE, no_display = FALSE;
  gboolean gl = FALSE, stepped = TRUE, no_stepped = FALSE;
  GOptionEntry entries[] = {
    {"host", 0, 0, G_OPTION_ARG_STRING, &host,
        "Host name or address of the sender (default 127.0.0.1)", "HOST"},
    {"port", 'p', 0, G_OPTION_ARG_INT, &port,
        "Port of the sender (default 7000)", "PORT"},
    {"reconnect", 'r', 0, G_OPTION_ARG_NONE, &reconnect,
        "Wait for the sender, and reconnect when it goes away", NULL},
    {"display", 'd', 0, G_OPTION_ARG_NONE, &display,
        "Show the video (autovideosink, glimagesink with --gl); the "
          "default when DISPLAY or " "WAYLAND_DISPLAY is set", NULL},
    {"no-display", 0, 0, G_OPTION_ARG_NONE, &no_display,
        "Do not show the video (fakesink)", NULL},
    {"gl", 'g', 0, G_OPTION_ARG_NONE, &gl,
        "Upload the frames to the GPU, which decodes them (glbcupload ! "
          "glimagesink, or fakesink without a display)", NULL},
    {"no-stepped", 0, 0, G_OPTION_ARG_NONE, &no_stepped,
          "With --gl: upload whole frames, not each tile as it arrives",
        NULL},
    {"num-frames", 'n', 0, G_OPTION_ARG_INT, &num_frames,
          "Stop after this many frames, 0 = at the sender's EOS (default 0)",
        "N"},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GstElement *pipeline = NULL, *src = NULL, *upload = NULL;
  GstBus *bus;
  Receiver receiver;
  gchar *desc;
  const gchar *sink, *decode;
  guint sig_int, sig_term;

  ctx = g_option_context_new ("- receive, decode and show the frames of a "
      "tilesink");
  g_option_context_set_summary (ctx,
      "tilesrc ! bcdec ! videoconvert ! autovideosink (or fakesink), or with "
      "--gl\ntilesrc ! glbcupload ! glimagesink (or fakesink). Prints "
      "frames/s, Gbit/s\nand the delivery latency percentiles once a "
      "second (with --gl also the\nupload statistics).");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    g_clear_error (&err);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);

  memset (&receiver, 0, sizeof (receiver));
  receiver.app.prog = "receiver";
  receiver.app.eos_timeout_s = 5;
  if (host == NULL)
    host = g_strdup ("127.0.0.1");
  if (port < 1 || port > 65535 || num_frames < 0) {
    g_printerr ("receiver: out of range: --port 1-65535, --num-frames at "
        "least 0\n");
    receiver.app.ret = 2;
    goto done;
  }
  if (display && no_display) {
    g_printerr ("receiver: --display and --no-display together\n");
    receiver.app.ret = 2;
    goto done;
  }
  if (no_stepped && !gl) {
    g_printerr ("receiver: --no-stepped needs --gl\n");
    receiver.app.ret = 2;
    goto done;
  }
  stepped = !no_stepped;
  if (!display && !no_display)
    display = g_getenv ("DISPLAY") != NULL ||
        g_getenv ("WAYLAND_DISPLAY") != NULL;
  if (gl) {
    sink = display ? "glimagesink" : "fakesink";
    decode = stepped ? "glbcupload name=up stepped=true" :
        "glbcupload name=up stepped=false";
    /* without a display, GL can only run on EGL's device platform (Mesa
     * llvmpipe or a GPU's render node); what the user set wins */
    if (!display) {
      g_setenv ("GST_GL_PLATFORM", "egl", FALSE);
      g_setenv ("GST_GL_WINDOW", "egl-device", FALSE);
    }
  } else {
    sink = display ? "autovideosink" : "fakesink";
    decode = "bcdec ! videoconvert";
  }

  if (!example_check_element ("receiver", "tilesrc",
          "set GST_PLUGIN_PATH to the build " "directory")
      || !example_check_element ("receiver", gl ? "glbcupload" : "bcdec",
          gl ? "set GST_PLUGIN_PATH to the build directory (the glbc plugin "
          "needs the GStreamer GL library: libgstreamer-gl1.0-0)" :
          "set GST_PLUGIN_PATH to the build directory")
      || (!gl && !example_check_element ("receiver", "videoconvert",
              "install gstreamer1.0-plugins-base"))
      || !example_check_element ("receiver", sink,
          gl ? (display ? "install gstreamer1.0-gl" :
              "GStreamer core elements are missing") :
          display ? "install gstreamer1.0-plugins-good" :
          "GStreamer core elements are missing")) {
    receiver.app.ret = 1;
    goto done;
  }

  /* frames are shown as soon as they are decoded: no clock wait */
  desc = g_strdup_printf ("tilesrc name=src host=\"%s\" port=%d reconnect=%s "
      "num-buffers=%d ! %s ! %s sync=false", host, port,
      reconnect ? "true" : "false", num_frames > 0 ? num_frames : -1, decode,
      sink);
  pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (pipeline == NULL || err != NULL) {
    g_printerr ("receiver: could not build the pipeline: %s\n",
        err ? err->message : "unknown error");
    g_clear_error (&err);
    receiver.app.ret = 1;
    goto done;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  if (gl)
    upload = gst_bin_get_by_name (GST_BIN (pipeline), "up");

  receiver.app.loop = g_main_loop_new (NULL, FALSE);
  receiver.app.pipeline = pipeline;
  receiver.upload = upload;
  bus = gst_element_get_bus (pipeline);
  gst_bus_add_watch (bus, on_bus_message, &receiver);
  gst_object_unref (bus);
  sig_int = g_unix_signal_add (SIGINT, example_on_signal, &receiver.app);
  sig_term = g_unix_signal_add (SIGTERM, example_on_signal, &receiver.app);

  g_print ("receiver: connecting to %s port %d%s, %s, output to %s\n", host,
      port, reconnect ? " (reconnecting)" : "", gl ? (stepped ?
          "GPU decoding (glbcupload, stepped upload)" :
          "GPU decoding (glbcupload, whole-frame upload)") :
      "CPU decoding (bcdec)", sink);
  receiver.prev_us = g_get_monotonic_time ();
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    GstMessage *msg;

    bus = gst_element_get_bus (pipeline);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg) {
      on_bus_message (bus, msg, &receiver);
      gst_message_unref (msg);
    } else {
      g_printerr ("receiver: could not start the pipeline\n");
    }
    gst_object_unref (bus);
    receiver.app.ret = 1;
  } else {
    g_main_loop_run (receiver.app.loop);
    print_summary (src, upload);
  }

  g_source_remove (sig_int);
  g_source_remove (sig_term);
  if (receiver.app.eos_timeout_id)
    g_source_remove (receiver.app.eos_timeout_id);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  bus = gst_element_get_bus (pipeline);
  gst_bus_remove_watch (bus);
  gst_object_unref (bus);
  g_main_loop_unref (receiver.app.loop);

done:
  if (upload)
    gst_object_unref (upload);
  if (src)
    gst_object_unref (src);
  if (pipeline)
    gst_object_unref (pipeline);
  g_free (host);
  gst_deinit ();
  return receiver.app.ret;
}
