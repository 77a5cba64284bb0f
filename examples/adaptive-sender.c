/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* adaptive-sender: live test video served by tilesink, made smaller when
 * the link cannot carry it and bigger again when it can.
 *
 *   videotestsrc is-live=true ! video/x-raw,width=W,height=H,framerate=F/1
 *     ! videoscale ! capsfilter name=size ! bc1enc qos=true
 *     ! tilesink name=sink protocol=P
 *
 * Three sizes: W x H, half and a quarter of it. Once a second, from
 * tilesink's "tilesink-stats" message, it compares what the link carries
 * (TCP: delivery-rate, what the connections delivered while they had data;
 * UDP: estimated-bitrate, from the receiver's feedback) with what the
 * current size needs (a BC1 frame is half a byte per pixel), and counts the
 * frames tilesink dropped for the network:
 *
 *   - down one size when the link carries less than 1.1x what the stream
 *     needs, or more than 20 % of the frames were dropped or abandoned;
 *   - up one size, as a trial, after a quiet spell (under 5 % dropped, and
 *     no measurement saying the link carries less than 1.1x what the
 *     bigger size needs) of 3 s; a trial that ends with a step down within
 *     10 s doubles the spell before the next (up to 60 s), one that holds
 *     for 10 s brings it back to 3 s. Trials, because what a link carries
 *     cannot be measured while the stream uses only part of it: a small
 *     frame goes through a bottleneck's burst allowance at once, and
 *     delivery-rate then reads far above the link's rate;
 *   - no new decision for 2 s after a change (the caps change makes a new
 *     generation of the session; the first measurements after it are thin).
 *
 * The caps change goes through the pipeline like any other: tilesink sends
 * a new CONFIG, tilesrc renegotiates downstream. With qos=true the encoder
 * does not encode the frames tilesink's QoS events say it would drop.
 *
 * Uninstalled use, with build/examples/receiver on the other end:
 *   GST_PLUGIN_PATH=build/gst build/examples/adaptive-sender --port 7000
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "example.h"

#define N_SIZES 3
#define DOWN_MARGIN 1.1
#define DOWN_DROPPED 0.20
#define UP_DROPPED 0.05
#define UP_FIRST 3
#define UP_MAX 60
#define HOLD_US (2 * G_USEC_PER_SEC)
#define TRIAL_US (10 * G_USEC_PER_SEC)

typedef struct
{
  ExampleApp app;               /* first: the handlers see an ExampleApp */

  GstElement *size_filter;
  gboolean udp;
  gint width, height, fps;
  guint size;                   /* 0 = full size, 1 = half, 2 = quarter */
  guint good;                   /* intervals in a row that allow a step up */
  guint up_after;               /* how many it takes */
  gboolean trial;               /* the last change was a step up, < 10 s ago */
  gint64 changed_us;
  guint64 prev_sent, prev_dropped, prev_abandoned;
  guint changes;
} Adaptive;

/* bits/s the stream needs at size @size: BC1, 8 bytes per 4x4 block */
static gdouble
needed_bps (Adaptive * a, guint size)
{
  gint w = a->width >> size, h = a->height >> size;

  return ((w + 3) / 4) * ((h + 3) / 4) * 8.0 * 8.0 * a->fps;
}

static void
set_size (Adaptive * a, guint size)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw",
      "width", G_TYPE_INT, a->width >> size,
      "height", G_TYPE_INT, a->height >> size, NULL);

  g_object_set (a->size_filter, "caps", caps, NULL);
  gst_caps_unref (caps);
  a->size = size;
  a->good = 0;
  a->changed_us = g_get_monotonic_time ();
}

static void
on_stats (ExampleApp * app, const GstStructure * s)
{
  Adaptive *a = (Adaptive *) app;
  guint64 sent = example_get_u64 (s, "frames-sent");
  guint64 dropped = example_get_u64 (s, "frames-dropped");
  guint64 abandoned = example_get_u64 (s, "frames-abandoned");
  guint64 link = example_get_u64 (s, a->udp ? "estimated-bitrate" :
      "delivery-rate");
  guint64 d_sent = sent - a->prev_sent;
  guint64 d_lost = dropped - a->prev_dropped + abandoned - a->prev_abandoned;
  gdouble lost = d_sent + d_lost ? (gdouble) d_lost / (d_sent + d_lost) : 0;
  gdouble need = needed_bps (a, a->size);
  gint64 now = g_get_monotonic_time ();
  gboolean connected = FALSE;
  const gchar *what = "";
  guint size = a->size;

  a->prev_sent = sent;
  a->prev_dropped = dropped;
  a->prev_abandoned = abandoned;
  gst_structure_get_boolean (s, "connected", &connected);

  if (a->trial && now - a->changed_us >= TRIAL_US) {
    a->trial = FALSE;           /* the step up held */
    a->up_after = UP_FIRST;
  }
  if (connected && d_sent + d_lost > 0 && now - a->changed_us >= HOLD_US) {
    if (size + 1 < N_SIZES && ((link > 0 && link < DOWN_MARGIN * need)
            || lost > DOWN_DROPPED)) {
      if (a->trial)
        a->up_after = MIN (2 * a->up_after, UP_MAX);
      a->trial = FALSE;
      set_size (a, size + 1);
      what = "  -> smaller";
    } else if (size > 0 && lost < UP_DROPPED && (link == 0 ||
            link >= DOWN_MARGIN * needed_bps (a, size - 1))) {
      if (++a->good >= a->up_after) {
        set_size (a, size - 1);
        a->trial = TRUE;
        what = "  -> bigger (a trial)";
      }
    } else {
      a->good = 0;
    }
  }
  if (*what)
    a->changes++;

  g_print ("adaptive-sender: %dx%d needs %.0f Mbit/s, the link carries "
      "%.0f Mbit/s; %" G_GUINT64_FORMAT " frames sent, %" G_GUINT64_FORMAT
      " dropped or abandoned (%.0f %%)%s\n", a->width >> size,
      a->height >> size, need / 1e6, link / 1e6, d_sent, d_lost, 100 * lost,
      what);
}

int
main (int argc, char **argv)
{
  Adaptive a = { {0} };
  gchar *protocol = NULL, *address = NULL, *desc;
  gint port = 7000, units = 4, num_frames = 0;
  GOptionEntry entries[] = {
    {"address", 'a', 0, G_OPTION_ARG_STRING, &address,
        "Address to listen on (default 0.0.0.0)", "ADDR"},
    {"port", 'p', 0, G_OPTION_ARG_INT, &port,
        "TCP port to listen on (default 7000)", "PORT"},
    {"units", 'u', 0, G_OPTION_ARG_INT, &units,
        "Tiles per frame = parallel connections (default 4)", "N"},
    {"width", 'W', 0, G_OPTION_ARG_INT, &a.width,
        "Full frame width (default 1920)", "W"},
    {"height", 'H', 0, G_OPTION_ARG_INT, &a.height,
        "Full frame height (default 1080)", "H"},
    {"fps", 'r', 0, G_OPTION_ARG_INT, &a.fps,
        "Frames per second (default 60)", "F"},
    {"protocol", 0, 0, G_OPTION_ARG_STRING, &protocol,
        "tcp (default) or udp", "PROTO"},
    {"num-frames", 'n', 0, G_OPTION_ARG_INT, &num_frames,
          "Frames to produce before EOS, 0 = until interrupted (default 0)",
        "N"},
    {NULL}
  };

  a.width = 1920;
  a.height = 1080;
  a.fps = 60;
  if (!example_parse_options (&argc, &argv, entries,
          "- serve live test video, smaller when the link cannot carry it",
          "videotestsrc ! videoscale ! bc1enc qos=true ! tilesink, the size "
          "chosen once a second\nfrom what tilesink measures of the link."))
    return 2;
  if (a.width < 16 || a.height < 16 || a.fps < 1 || units < 1) {
    g_printerr ("adaptive-sender: --width and --height must be at least 16, "
        "--fps and --units at least 1\n");
    return 2;
  }
  a.udp = protocol && g_ascii_strcasecmp (protocol, "udp") == 0;
  if (!example_check_element ("adaptive-sender", "tilesink",
          "set GST_PLUGIN_PATH to the build directory's gst/"))
    return 1;

  desc = g_strdup_printf ("videotestsrc is-live=true num-buffers=%d ! "
      "video/x-raw,format=RGBA,width=%d,height=%d,framerate=%d/1 ! "
      "videoscale ! capsfilter name=size ! bc1enc qos=true ! "
      "tilesink name=sink host=%s port=%d units=%d protocol=%s",
      num_frames > 0 ? num_frames : -1, a.width, a.height, a.fps,
      address ? address : "0.0.0.0", port, units, a.udp ? "udp" : "tcp");
  a.app.pipeline = example_parse_launch ("adaptive-sender", desc);
  g_free (desc);
  g_free (protocol);
  g_free (address);
  if (!a.app.pipeline)
    return 1;
  a.size_filter = gst_bin_get_by_name (GST_BIN (a.app.pipeline), "size");
  set_size (&a, 0);
  a.up_after = UP_FIRST;

  a.app.prog = "adaptive-sender";
  a.app.eos_timeout_s = 5;
  a.app.stats_name = "tilesink-stats";
  a.app.on_stats = on_stats;
  if (example_start (&a.app))
    g_main_loop_run (a.app.loop);
  example_stop (&a.app);
  g_print ("adaptive-sender: %u size changes\n", a.changes);
  gst_object_unref (a.size_filter);
  gst_object_unref (a.app.pipeline);
  return a.app.ret;
}
