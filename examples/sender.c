/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* sender: live test video, BC-encoded, served to one receiver by tilesink.
 *
 *   videotestsrc is-live=true pattern=P ! video/x-raw,width=W,height=H,framerate=F/1
 *     ! bc1enc (or bc3enc ycocg=true) ! tilesink host=A port=P units=N
 *
 * Prints one line per second from tilesink's "tilesink-stats" messages:
 * frames sent, dropped (more than max-in-flight frames on their way) and
 * unsent (no receiver), the throughput, and the delivery latency the
 * receiver reports back. Runs until --num-frames frames have been produced,
 * or until SIGINT/SIGTERM, then sends EOS (which tilesink passes on to the
 * receiver) and exits when it has gone through.
 *
 * Uninstalled use, with build/examples/receiver on the other end:
 *   GST_PLUGIN_PATH=build/gst build/examples/sender --port 7000
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

  /* previous stats message, or the start */
  gint64 prev_us;
  guint64 prev_bytes;
  guint64 prev_sent;
} Sender;

/* the element's statistics message, once a second */
static void
print_stats (ExampleApp * app, const GstStructure * s)
{
  Sender *sender = (Sender *) app;
  GstStructure *receiver = NULL;
  gint64 now = g_get_monotonic_time ();
  guint64 sent = example_get_u64 (s, "frames-sent");
  guint64 bytes = example_get_u64 (s, "bytes-sent");
  gboolean connected = FALSE;
  gdouble gbps = 0.0, fps = 0.0;
  gchar *p50, *p99;

  gst_structure_get_boolean (s, "connected", &connected);
  /* the first interval starts with the pipeline */
  if (now > sender->prev_us) {
    gdouble secs = (now - sender->prev_us) / 1e6;

    gbps = (bytes - sender->prev_bytes) * 8.0 / secs / 1e9;
    fps = (sent - sender->prev_sent) / secs;
  }
  sender->prev_us = now;
  sender->prev_bytes = bytes;
  sender->prev_sent = sent;

  /* the receiver's last report, when one has come */
  if (gst_structure_has_field_typed (s, "receiver", GST_TYPE_STRUCTURE))
    gst_structure_get (s, "receiver", GST_TYPE_STRUCTURE, &receiver, NULL);
  p50 = example_format_ms (receiver, "latency-p50");
  p99 = example_format_ms (receiver, "latency-p99");

  g_print ("sender: %s  sent %" G_GUINT64_FORMAT " (%.1f/s)  dropped %"
      G_GUINT64_FORMAT "  unsent %" G_GUINT64_FORMAT "  %.3f Gbit/s  "
      "receiver latency p50 %s ms  p99 %s ms\n",
      connected ? "connected   " : "no receiver ", sent, fps,
      example_get_u64 (s, "frames-dropped"), example_get_u64 (s,
          "frames-unsent"), gbps, p50, p99);
  g_free (p50);
  g_free (p99);
  if (receiver)
    gst_structure_free (receiver);
}

static void
print_summary (GstElement * sink)
{
  GstStructure *s = NULL, *receiver = NULL;
  gchar *p50, *p99;
  guint clients = 0, disconnects = 0;

  g_object_get (sink, "stats", &s, NULL);
  if (s == NULL)
    return;
  gst_structure_get_uint (s, "clients", &clients);
  gst_structure_get_uint (s, "disconnects", &disconnects);
  if (gst_structure_has_field_typed (s, "receiver", GST_TYPE_STRUCTURE))
    gst_structure_get (s, "receiver", GST_TYPE_STRUCTURE, &receiver, NULL);
  p50 = example_format_ms (receiver, "latency-p50");
  p99 = example_format_ms (receiver, "latency-p99");
  g_print ("sender: total: sent %" G_GUINT64_FORMAT " frames (%.1f MB), "
      "dropped %" G_GUINT64_FORMAT ", unsent %" G_GUINT64_FORMAT ", "
      "%u receiver(s), %u disconnect(s); receiver latency p50 %s ms, "
      "p99 %s ms\n", example_get_u64 (s, "frames-sent"),
      example_get_u64 (s, "bytes-sent") / 1e6, example_get_u64 (s,
          "frames-dropped"), example_get_u64 (s, "frames-unsent"), clients,
      disconnects, p50, p99);
  g_free (p50);
  g_free (p99);
  if (receiver)
    gst_structure_free (receiver);
  gst_structure_free (s);
}

/* The command line */
typedef struct
{
  gchar *address, *format, *pattern, *quality, *protocol;
  gint port, units, width, height, fps;
  gint num_frames, chunk_size, packet_size;
  /* from --format */
  const gchar *encoder, *label;
} Options;

static void
options_clear (Options * o)
{
  g_free (o->address);
  g_free (o->format);
  g_free (o->pattern);
  g_free (o->protocol);
  g_free (o->quality);
}

/* 0, or the exit status (2) on a bad command line */
static gint
parse_options (Options * o, int *argc, char ***argv)
{
  GOptionEntry entries[] = {
    {"address", 'a', 0, G_OPTION_ARG_STRING, &o->address,
        "Address to listen on (default 0.0.0.0)", "ADDR"},
    {"port", 'p', 0, G_OPTION_ARG_INT, &o->port,
        "TCP port to listen on, 0 = any free port (default 7000)", "PORT"},
    {"units", 'u', 0, G_OPTION_ARG_INT, &o->units,
        "Tiles per frame = parallel connections (default 4)", "N"},
    {"width", 'W', 0, G_OPTION_ARG_INT, &o->width,
        "Frame width (default 1920)", "W"},
    {"height", 'H', 0, G_OPTION_ARG_INT, &o->height,
        "Frame height (default 1080)", "H"},
    {"fps", 'r', 0, G_OPTION_ARG_INT, &o->fps,
        "Frames per second (default 30)", "F"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &o->format,
        "bc1 (bc1enc) or ycocg (bc3enc ycocg=true) (default bc1)", "FMT"},
    {"quality", 'q', 0, G_OPTION_ARG_STRING, &o->quality,
        "Encoder quality: fast, normal or high (default normal)", "Q"},
    {"pattern", 0, 0, G_OPTION_ARG_STRING, &o->pattern,
        "videotestsrc pattern (default smpte)", "PATTERN"},
    {"num-frames", 'n', 0, G_OPTION_ARG_INT, &o->num_frames,
          "Frames to produce before EOS, 0 = until interrupted (default 0)",
        "N"},
    {"chunk-size", 0, 0, G_OPTION_ARG_INT, &o->chunk_size,
        "Bytes per send() call, 0 = tilesink's default", "BYTES"},
    {"protocol", 0, 0, G_OPTION_ARG_STRING, &o->protocol,
        "tcp (default) or udp", "PROTO"},
    {"packet-size", 0, 0, G_OPTION_ARG_INT, &o->packet_size,
          "udp: payload bytes per datagram, 0 = tilesink's default (1388)",
        "BYTES"},
    {NULL}
  };

  o->port = 7000;
  o->units = 4;
  o->width = 1920;
  o->height = 1080;
  o->fps = 30;
  if (!example_parse_options (argc, argv, entries,
          "- serve live BC-encoded test video with tilesink",
          "videotestsrc ! bc1enc (or bc3enc ycocg=true) ! tilesink. Prints "
          "the sender's statistics,\nand the latency the receiver reports, "
          "once a second. Ctrl-C sends EOS to the receiver\nand exits."))
    return 2;

  if (o->address == NULL)
    o->address = g_strdup ("0.0.0.0");
  if (o->format == NULL)
    o->format = g_strdup ("bc1");
  if (o->pattern == NULL)
    o->pattern = g_strdup ("smpte");
  if (o->quality == NULL)
    o->quality = g_strdup ("normal");

  if (g_ascii_strcasecmp (o->format, "bc1") == 0) {
    o->encoder = "bc1enc";
    o->label = "BC1";
  } else if (g_ascii_strcasecmp (o->format, "ycocg") == 0) {
    o->encoder = "bc3enc ycocg=true";
    o->label = "YCoCg-BC3";
  } else {
    g_printerr ("sender: unknown format '%s': use bc1 or ycocg\n", o->format);
    return 2;
  }
  if (o->port < 0 || o->port > 65535 || o->units < 1 || o->units > 64 ||
      o->width < 1 || o->height < 1 || o->fps < 1 || o->num_frames < 0 ||
      o->chunk_size < 0) {
    g_printerr ("sender: out of range: --port 0-65535, --units 1-64, "
        "--width, --height, --fps at least 1, --num-frames and --chunk-size "
        "at least 0\n");
    return 2;
  }
  return 0;
}

/* videotestsrc ! encoder ! tilesink name=sink, or NULL (message printed) */
static GstElement *
build_pipeline (const Options * o)
{
  GstElement *pipeline, *sink;
  gchar *desc;

  if (!example_check_element ("sender", "tilesink",
          "set GST_PLUGIN_PATH to the build " "directory")
      || !example_check_element ("sender", "bc1enc",
          "set GST_PLUGIN_PATH " "to the build directory")
      || !example_check_element ("sender", "videotestsrc",
          "install gstreamer1.0-plugins-base"))
    return NULL;

  desc = g_strdup_printf ("videotestsrc is-live=true pattern=%s num-buffers=%d"
      " ! video/x-raw,width=%d,height=%d,framerate=%d/1 ! %s quality=%s "
      "! tilesink name=sink host=\"%s\" port=%d units=%d protocol=%s",
      o->pattern, o->num_frames > 0 ? o->num_frames : -1, o->width,
      o->height, o->fps, o->encoder, o->quality, o->address, o->port,
      o->units, o->protocol ? o->protocol : "tcp");
  pipeline = example_parse_launch ("sender", desc);
  g_free (desc);
  if (pipeline == NULL)
    return NULL;

  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  if (o->packet_size > 0)
    g_object_set (sink, "packet-size", o->packet_size, NULL);
  if (o->chunk_size > 0)
    g_object_set (sink, "chunk-size", (guint) o->chunk_size, NULL);
  gst_object_unref (sink);
  return pipeline;
}

/* Serves until EOS, an error or a second signal, then prints the totals;
 * returns the exit status */
static gint
serve (Sender * sender, const Options * o)
{
  GstElement *sink;
  guint bound_port = 0;

  sender->app.pipeline = build_pipeline (o);
  if (sender->app.pipeline == NULL)
    return 1;
  sink = gst_bin_get_by_name (GST_BIN (sender->app.pipeline), "sink");
  sender->prev_us = g_get_monotonic_time ();
  if (example_start (&sender->app)) {
    /* tilesink listens from the moment it is started */
    g_object_get (sink, "bound-port", &bound_port, NULL);
    g_print ("sender: listening on %s port %u: %dx%d %d fps %s, %d units\n",
        o->address, bound_port, o->width, o->height, o->fps, o->label,
        o->units);
    g_main_loop_run (sender->app.loop);
    print_summary (sink);
  }
  example_stop (&sender->app);
  gst_object_unref (sink);
  gst_object_unref (sender->app.pipeline);
  return sender->app.ret;
}

int
main (int argc, char **argv)
{
  Options options = { NULL, };
  /* name, seconds EOS may take, statistics message and their printer */
  Sender sender = { {"sender", 10, "tilesink-stats", print_stats}, };

  sender.app.ret = parse_options (&options, &argc, &argv);
  if (sender.app.ret == 0)
    sender.app.ret = serve (&sender, &options);
  options_clear (&options);
  gst_deinit ();
  return sender.app.ret;
}
