/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* sender: live test video, BC-encoded, served to one receiver by tilesink.
 *
 *   videotestsrc is-live=true pattern=P ! video/x-raw,width=W,height=H,framerate=F/1
 *     ! bc1enc (or bc3enc ycocg=true) ! tilesink address=A port=P units=N
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
#include <glib-unix.h>
#include <signal.h>
#include <string.h>

#include "tile-example.h"

typedef struct
{
  ExampleApp app;               /* first: the handlers see an ExampleApp */

  /* previous stats message, or the start */
  gint64 prev_us;
  guint64 prev_bytes;
  guint64 prev_sent;
} Sender;

static void
print_stats (Sender * sender, const GstStructure * s)
{
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

static gboolean
on_bus_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  Sender *sender = user_data;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:{
      const GstStructure *s = gst_message_get_structure (msg);

      if (s && gst_structure_has_name (s, "tilesink-stats"))
        print_stats (sender, s);
      break;
    }
    case GST_MESSAGE_WARNING:{
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_warning (msg, &err, &dbg);
      g_printerr ("sender: warning from %s: %s\n%s%s", GST_OBJECT_NAME
          (msg->src), err->message, dbg ? dbg : "", dbg ? "\n" : "");
      g_clear_error (&err);
      g_free (dbg);
      break;
    }
    case GST_MESSAGE_ERROR:{
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      g_printerr ("sender: error from %s: %s\n%s%s", GST_OBJECT_NAME
          (msg->src), err->message, dbg ? dbg : "", dbg ? "\n" : "");
      g_clear_error (&err);
      g_free (dbg);
      sender->app.ret = 1;
      g_main_loop_quit (sender->app.loop);
      break;
    }
    case GST_MESSAGE_EOS:
      g_print ("sender: EOS\n");
      g_main_loop_quit (sender->app.loop);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

static void
print_summary (GstElement * sink)
{
  GstStructure *s = NULL, *receiver = NULL;
  gchar *p50, *p99;
  guint clients = 0, disconnects = 0;

  g_object_get (sink, "tile-stats", &s, NULL);
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

int
main (int argc, char **argv)
{
  gchar *address = NULL, *format = NULL, *pattern = NULL, *quality = NULL;
  gint port = 7000, units = 4, width = 1920, height = 1080, fps = 30;
  gint num_frames = 0, chunk_size = 0, packet_size = 0;
  gchar *protocol = NULL;
  GOptionEntry entries[] = {
    {"address", 'a', 0, G_OPTION_ARG_STRING, &address,
        "Address to listen on (default 0.0.0.0)", "ADDR"},
    {"port", 'p', 0, G_OPTION_ARG_INT, &port,
        "TCP port to listen on, 0 = any free port (default 7000)", "PORT"},
    {"units", 'u', 0, G_OPTION_ARG_INT, &units,
        "Tiles per frame = parallel connections (default 4)", "N"},
    {"width", 'W', 0, G_OPTION_ARG_INT, &width,
        "Frame width (default 1920)", "W"},
    {"height", 'H', 0, G_OPTION_ARG_INT, &height,
        "Frame height (default 1080)", "H"},
    {"fps", 'r', 0, G_OPTION_ARG_INT, &fps,
        "Frames per second (default 30)", "F"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &format,
        "bc1 (bc1enc) or ycocg (bc3enc ycocg=true) (default bc1)", "FMT"},
    {"quality", 'q', 0, G_OPTION_ARG_STRING, &quality,
        "Encoder quality: fast, normal or high (default normal)", "Q"},
    {"pattern", 0, 0, G_OPTION_ARG_STRING, &pattern,
        "videotestsrc pattern (default smpte)", "PATTERN"},
    {"num-frames", 'n', 0, G_OPTION_ARG_INT, &num_frames,
          "Frames to produce before EOS, 0 = until interrupted (default 0)",
        "N"},
    {"chunk-size", 0, 0, G_OPTION_ARG_INT, &chunk_size,
        "Bytes per send() call, 0 = tilesink's default", "BYTES"},
    {"protocol", 0, 0, G_OPTION_ARG_STRING, &protocol,
        "tcp (default) or udp", "PROTO"},
    {"packet-size", 0, 0, G_OPTION_ARG_INT, &packet_size,
          "udp: payload bytes per datagram, 0 = tilesink's default (1408)",
        "BYTES"},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GstElement *pipeline = NULL, *sink = NULL;
  GstBus *bus;
  Sender sender;
  const gchar *encoder, *label;
  gchar *desc;
  guint bound_port = 0, sig_int, sig_term;

  ctx = g_option_context_new ("- serve live BC-encoded test video with "
      "tilesink");
  g_option_context_set_summary (ctx,
      "videotestsrc ! bc1enc (or bc3enc ycocg=true) ! tilesink. Prints the "
      "sender's statistics,\nand the latency the receiver reports, once a "
      "second. Ctrl-C sends EOS to the receiver\nand exits.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    g_clear_error (&err);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);

  memset (&sender, 0, sizeof (sender));
  sender.app.prog = "sender";
  sender.app.eos_timeout_s = 10;
  if (address == NULL)
    address = g_strdup ("0.0.0.0");
  if (format == NULL)
    format = g_strdup ("bc1");
  if (pattern == NULL)
    pattern = g_strdup ("smpte");
  if (quality == NULL)
    quality = g_strdup ("normal");

  if (g_ascii_strcasecmp (format, "bc1") == 0) {
    encoder = "bc1enc";
    label = "BC1";
  } else if (g_ascii_strcasecmp (format, "ycocg") == 0) {
    encoder = "bc3enc ycocg=true";
    label = "YCoCg-BC3";
  } else {
    g_printerr ("sender: unknown format '%s': use bc1 or ycocg\n", format);
    sender.app.ret = 2;
    goto done;
  }
  if (port < 0 || port > 65535 || units < 1 || units > 64 || width < 1 ||
      height < 1 || fps < 1 || num_frames < 0 || chunk_size < 0) {
    g_printerr ("sender: out of range: --port 0-65535, --units 1-64, "
        "--width, --height, --fps at least 1, --num-frames and --chunk-size "
        "at least 0\n");
    sender.app.ret = 2;
    goto done;
  }

  if (!example_check_element ("sender", "tilesink",
          "set GST_PLUGIN_PATH to the build " "directory")
      || !example_check_element ("sender", "bc1enc",
          "set GST_PLUGIN_PATH " "to the build directory")
      || !example_check_element ("sender", "videotestsrc",
          "install gstreamer1.0-plugins-base")) {
    sender.app.ret = 1;
    goto done;
  }

  desc = g_strdup_printf ("videotestsrc is-live=true pattern=%s num-buffers=%d"
      " ! video/x-raw,width=%d,height=%d,framerate=%d/1 ! %s quality=%s "
      "! tilesink name=sink address=\"%s\" port=%d units=%d protocol=%s",
      pattern, num_frames > 0 ? num_frames : -1, width, height, fps, encoder,
      quality, address, port, units, protocol ? protocol : "tcp");
  pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (pipeline == NULL || err != NULL) {
    g_printerr ("sender: could not build the pipeline: %s\n",
        err ? err->message : "unknown error");
    g_clear_error (&err);
    sender.app.ret = 1;
    goto done;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  if (packet_size > 0)
    g_object_set (sink, "packet-size", packet_size, NULL);
  if (chunk_size > 0)
    g_object_set (sink, "chunk-size", (guint) chunk_size, NULL);

  sender.app.loop = g_main_loop_new (NULL, FALSE);
  sender.app.pipeline = pipeline;
  bus = gst_element_get_bus (pipeline);
  gst_bus_add_watch (bus, on_bus_message, &sender);
  gst_object_unref (bus);
  sig_int = g_unix_signal_add (SIGINT, example_on_signal, &sender.app);
  sig_term = g_unix_signal_add (SIGTERM, example_on_signal, &sender.app);

  sender.prev_us = g_get_monotonic_time ();
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* the error message (port in use, ...) is on the bus */
    GstMessage *msg;

    bus = gst_element_get_bus (pipeline);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg) {
      on_bus_message (bus, msg, &sender);
      gst_message_unref (msg);
    } else {
      g_printerr ("sender: could not start the pipeline\n");
    }
    gst_object_unref (bus);
    sender.app.ret = 1;
  } else {
    /* tilesink listens from the moment it is started */
    g_object_get (sink, "bound-port", &bound_port, NULL);
    g_print ("sender: listening on %s port %u: %dx%d %d fps %s, %d units\n",
        address, bound_port, width, height, fps, label, units);
    g_main_loop_run (sender.app.loop);
    print_summary (sink);
  }

  g_source_remove (sig_int);
  g_source_remove (sig_term);
  if (sender.app.eos_timeout_id)
    g_source_remove (sender.app.eos_timeout_id);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  bus = gst_element_get_bus (pipeline);
  gst_bus_remove_watch (bus);
  gst_object_unref (bus);
  g_main_loop_unref (sender.app.loop);

done:
  if (sink)
    gst_object_unref (sink);
  if (pipeline)
    gst_object_unref (pipeline);
  g_free (address);
  g_free (format);
  g_free (pattern);
  g_free (protocol);
  g_free (quality);
  gst_deinit ();
  return sender.app.ret;
}
