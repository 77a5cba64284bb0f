/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* av-sync: audio beside the video. The video goes over tilesink/tilesrc,
 * the audio with GStreamer's own RTP elements (Opus over RTP, with RTCP);
 * the receiving pipeline runs on tilesrc's clock, which follows the
 * sender's pipeline clock, and rtpbin maps the audio's RTP times to that
 * clock through the sender's RTCP sender reports (its NTP times are the
 * pipeline clock's: ntp-time-source=clock-time on both ends, ntp-sync),
 * so both streams are presented a fixed latency after their capture, on
 * one time base.
 *
 * Sender (--send):
 *   videotestsrc is-live=true pattern=black ! GRAY8 320x240 30/1
 *     ! tilesink port=P
 *   audiotestsrc is-live=true wave=ticks ! opusenc ! rtpopuspay
 *     ! rtpbin (ntp-time-source=clock-time rtcp-sync-send-time=false)
 *     ! udpsink port=A    (RTCP: udpsink port=A+1, udpsrc port=A+5)
 * Every second of the sender's running time the video has a white frame
 * and the audio a tick (a burst of sine), both at the same capture time.
 *
 * Receiver (--receive), on tilesrc's clock (gst_pipeline_use_clock (): the
 * jitterbuffers in rtpbin provide the system clock, and a pipeline picks
 * theirs over tilesrc's):
 *   tilesrc host=H port=P latency=L ! fakesink sync=true
 *   udpsrc port=A ! rtpbin (ntp-sync=true ntp-time-source=clock-time
 *     buffer-mode=synced latency=L) ! rtpopusdepay ! opusdec
 *     ! fakesink sync=true
 * Both sinks have processing-deadline=0 and note when they present a
 * white frame and a tick (its first loud sample: the buffer's
 * presentation plus its offset), measured on what is presented, not on
 * timestamps. A real audio sink would add its own output latency (the
 * pipeline's latency is shared, so both streams wait for it).
 *
 * --measure runs both in this process (two pipelines; the receiver's on
 * tilesrc's clock, the sender's time) for --seconds, notes the capture
 * times of the markers at the sender too (a white frame's timestamp; the
 * first loud sample of a tick before the encoder), and prints for every
 * marker how long after its capture each stream presented it; the skew
 * is the difference (a frame starts every 33 ms and a tick every second,
 * so the markers are not captured at the same instant). Then a JSON line:
 * {"markers": N, "from_capture": true, "skew_p50_ms": ..., "skew_max_ms":
 * ..., "frame_ms": 33.3}. Exits 0 when every pair is within one video
 * frame, else 1. --receive alone prints how far apart the markers were
 * presented (within a frame of the capture times' difference).
 *
 * Uninstalled use:
 *   GST_PLUGIN_PATH=build/gst build/examples/av-sync --measure
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "example.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 320
#define HEIGHT 240
#define FPS 30
#define RATE 48000

static gboolean opt_send, opt_receive, opt_measure;
static gchar *opt_host;
static gint opt_port = 7100, opt_audio_port = 7200, opt_latency = 150;
static gint opt_seconds = 10;

static const GOptionEntry entries[] = {
  {"send", 0, 0, G_OPTION_ARG_NONE, &opt_send, "Send video and audio", NULL},
  {"receive", 0, 0, G_OPTION_ARG_NONE, &opt_receive,
      "Receive and present them, measuring the skew", NULL},
  {"measure", 0, 0, G_OPTION_ARG_NONE, &opt_measure,
      "Both, in this process", NULL},
  {"host", 0, 0, G_OPTION_ARG_STRING, &opt_host,
      "The sender's address (receive; default 127.0.0.1)", "HOST"},
  {"port", 0, 0, G_OPTION_ARG_INT, &opt_port, "tilesink's port", "P"},
  {"audio-port", 0, 0, G_OPTION_ARG_INT, &opt_audio_port,
      "RTP port of the audio (RTCP: +1 to the receiver, +5 back)", "A"},
  {"latency", 0, 0, G_OPTION_ARG_INT, &opt_latency,
      "Playout latency of both streams, ms", "MS"},
  {"seconds", 0, 0, G_OPTION_ARG_INT, &opt_seconds,
      "How long to receive", "S"},
  {NULL}
};

/* What the receiver and, with --measure, the sender saw of the markers */
typedef struct
{
  GMutex lock;
  GstElement *pipeline;
  /* presentation times of the markers, on the receiver's pipeline clock
   * (the sender's time) */
  GArray *video;
  GArray *audio;
  /* --measure: their capture times, on the sender's pipeline clock */
  GArray *video_captured;
  GArray *audio_captured;
  GstElement *sender;
  gboolean sent_white;
  GstClockTime sent_quiet_until;
  gboolean white;               /* the last frame was white */
  GstClockTime quiet_until;     /* a tick lasts; the next starts after */
} Receiver;

/* ---- the sender ---- */

/* Every frame whose running time starts a second is white, the others
 * black: the video's marker, at the capture time of the audio's tick */
static GstPadProbeReturn
mark_frames (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Receiver *r = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstClockTime pts = GST_BUFFER_PTS (buf);
  gboolean white;
  GstMapInfo map;

  if (!GST_CLOCK_TIME_IS_VALID (pts))
    return GST_PAD_PROBE_OK;
  white = pts % GST_SECOND < GST_SECOND / FPS;
  buf = gst_buffer_make_writable (buf);
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  if (gst_buffer_map (buf, &map, GST_MAP_WRITE)) {
    memset (map.data, white ? 0xff : 0x00, map.size);
    gst_buffer_unmap (buf, &map);
  }
  /* the capture time: a live source's timestamp, on the pipeline clock */
  g_mutex_lock (&r->lock);
  if (white && !r->sent_white) {
    GstClockTime t = pts + gst_element_get_base_time (r->sender);

    g_array_append_val (r->video_captured, t);
  }
  r->sent_white = white;
  g_mutex_unlock (&r->lock);
  return GST_PAD_PROBE_OK;
}

/* The first loud sample of a tick in @buf (F32 mono) at @t0, the time of
 * its first sample: appended to @times unless *@quiet_until says the tick
 * is still going on. */
static void
find_tick (GstBuffer * buf, GstClockTime t0, GArray * times,
    GstClockTime * quiet_until)
{
  GstMapInfo map;
  gsize i, n;

  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return;
  n = map.size / sizeof (gfloat);
  for (i = 0; i < n; i++) {
    GstClockTime t = t0 + gst_util_uint64_scale_int (i, GST_SECOND, RATE);

    if (fabsf (((const gfloat *) map.data)[i]) > 0.2f &&
        (!GST_CLOCK_TIME_IS_VALID (*quiet_until) || t > *quiet_until)) {
      g_array_append_val (times, t);
      *quiet_until = t + GST_SECOND / 2;
      break;
    }
  }
  gst_buffer_unmap (buf, &map);
}

static GstPadProbeReturn
mark_ticks (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Receiver *r = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  if (!GST_CLOCK_TIME_IS_VALID (GST_BUFFER_PTS (buf)))
    return GST_PAD_PROBE_OK;
  g_mutex_lock (&r->lock);
  find_tick (buf, GST_BUFFER_PTS (buf) + gst_element_get_base_time
      (r->sender), r->audio_captured, &r->sent_quiet_until);
  g_mutex_unlock (&r->lock);
  return GST_PAD_PROBE_OK;
}

static GstElement *
make_sender (const gchar * prog, Receiver * r)
{
  gchar *desc = g_strdup_printf ("videotestsrc name=v is-live=true "
      "pattern=black ! video/x-raw,format=GRAY8,width=%d,height=%d,"
      "framerate=%d/1 ! tilesink port=%d "
      "audiotestsrc is-live=true wave=ticks tick-interval=1000000000 "
      "volume=0.8 samplesperbuffer=240 ! audio/x-raw,format=F32LE,rate=%d,"
      "channels=1 ! identity name=a ! audioconvert ! opusenc frame-size=10 ! rtpopuspay ! rtpbin.send_rtp_sink_0 "
      "rtpbin name=rtpbin ntp-time-source=clock-time "
      "rtcp-sync-send-time=false "
      "rtpbin.send_rtp_src_0 ! udpsink host=%s port=%d "
      "rtpbin.send_rtcp_src_0 ! udpsink host=%s port=%d sync=false "
      "async=false udpsrc port=%d ! rtpbin.recv_rtcp_sink_0",
      WIDTH, HEIGHT, FPS, opt_port, RATE, opt_host, opt_audio_port,
      opt_host, opt_audio_port + 1, opt_audio_port + 5);
  GstElement *pipeline = example_parse_launch (prog, desc);
  GstElement *e;
  GstPad *pad;

  g_free (desc);
  if (!pipeline)
    return NULL;
  r->sender = pipeline;
  e = gst_bin_get_by_name (GST_BIN (pipeline), "v");
  pad = gst_element_get_static_pad (e, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, mark_frames, r, NULL);
  gst_object_unref (pad);
  gst_object_unref (e);
  e = gst_bin_get_by_name (GST_BIN (pipeline), "a");
  pad = gst_element_get_static_pad (e, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, mark_ticks, r, NULL);
  gst_object_unref (pad);
  gst_object_unref (e);
  return pipeline;
}

/* ---- the receiver ---- */


static GstClockTime
clock_now (Receiver * r)
{
  GstClock *clock = gst_pipeline_get_clock (GST_PIPELINE (r->pipeline));
  GstClockTime t = gst_clock_get_time (clock);

  gst_object_unref (clock);
  return t;
}

/* fakesink's handoff comes after its clock wait: the frame is presented
 * now */
static void
on_video (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  Receiver *r = data;
  GstMapInfo map;
  gboolean white;

  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return;
  white = map.size > 0 && map.data[map.size / 2] > 0x80;
  gst_buffer_unmap (buf, &map);
  g_mutex_lock (&r->lock);
  if (white && !r->white) {
    GstClockTime t = clock_now (r);

    g_array_append_val (r->video, t);
  }
  r->white = white;
  g_mutex_unlock (&r->lock);
}

/* The first loud sample of a tick: presented its offset after the
 * buffer's start, which is presented now */
static void
on_audio (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  Receiver *r = data;
  GstClockTime now = clock_now (r);

  g_mutex_lock (&r->lock);
  find_tick (buf, now, r->audio, &r->quiet_until);
  g_mutex_unlock (&r->lock);
}

static void
on_pad_added (GstElement * rtpbin, GstPad * pad, gpointer data)
{
  GstElement *depay = data;
  GstPad *sinkpad;

  if (!g_str_has_prefix (GST_PAD_NAME (pad), "recv_rtp_src_"))
    return;
  sinkpad = gst_element_get_static_pad (depay, "sink");
  if (!gst_pad_is_linked (sinkpad))
    gst_pad_link (pad, sinkpad);
  gst_object_unref (sinkpad);
}

static GstElement *
make_receiver (const gchar * prog, Receiver * r)
{
  gchar *desc = g_strdup_printf ("tilesrc name=src host=%s port=%d latency=%d "
      "reconnect=true ! fakesink name=vsink sync=true processing-deadline=0 "
      "signal-handoffs=true "
      "udpsrc port=%d caps=\"application/x-rtp,media=audio,clock-rate=48000,"
      "encoding-name=OPUS,payload=96\" ! rtpbin.recv_rtp_sink_0 "
      "udpsrc port=%d ! rtpbin.recv_rtcp_sink_0 "
      "rtpbin name=rtpbin latency=%d ntp-sync=true "
      "ntp-time-source=clock-time buffer-mode=synced "
      "rtpbin.send_rtcp_src_0 ! udpsink host=%s port=%d sync=false "
      "async=false "
      "rtpopusdepay name=depay ! opusdec ! audioconvert "
      "! audio/x-raw,format=F32LE,channels=1 ! fakesink name=asink "
      "sync=true processing-deadline=0 signal-handoffs=true",
      opt_host, opt_port, opt_latency, opt_audio_port, opt_audio_port + 1,
      opt_latency, opt_host, opt_audio_port + 5);
  GstElement *pipeline = example_parse_launch (prog, desc);
  GstElement *e;

  g_free (desc);
  if (!pipeline)
    return NULL;
  r->pipeline = pipeline;
  e = gst_bin_get_by_name (GST_BIN (pipeline), "vsink");
  g_signal_connect (e, "handoff", G_CALLBACK (on_video), r);
  gst_object_unref (e);
  e = gst_bin_get_by_name (GST_BIN (pipeline), "asink");
  g_signal_connect (e, "handoff", G_CALLBACK (on_audio), r);
  gst_object_unref (e);
  /* rtpbin's jitterbuffers provide a clock too (the system clock), and
   * the pipeline would pick theirs: tilesrc's is the one to run on */
  {
    GstElement *src;
    GstClock *clock;

    src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
    clock = gst_element_provide_clock (src);
    gst_pipeline_use_clock (GST_PIPELINE (pipeline), clock);
    gst_object_unref (clock);
    gst_object_unref (src);
  }
  {
    GstElement *rtpbin = gst_bin_get_by_name (GST_BIN (pipeline), "rtpbin");
    GstElement *depay = gst_bin_get_by_name (GST_BIN (pipeline), "depay");

    g_signal_connect (rtpbin, "pad-added", G_CALLBACK (on_pad_added), depay);
    gst_object_unref (rtpbin);
    gst_object_unref (depay);
  }
  return pipeline;
}

static gint
cmp_diff (gconstpointer a, gconstpointer b)
{
  gint64 x = ABS (*(const gint64 *) a), y = ABS (*(const gint64 *) b);

  return x < y ? -1 : x > y;
}

/* The time in @times nearest to @t, within half a second, or
 * GST_CLOCK_TIME_NONE */
static GstClockTime
nearest (GArray * times, GstClockTime t)
{
  GstClockTime best = GST_CLOCK_TIME_NONE;
  guint i;

  for (i = 0; i < times->len; i++) {
    GstClockTime x = g_array_index (times, GstClockTime, i);

    if (!GST_CLOCK_TIME_IS_VALID (best) ||
        ABS (GST_CLOCK_DIFF (t, x)) < ABS (GST_CLOCK_DIFF (t, best)))
      best = x;
  }
  if (GST_CLOCK_TIME_IS_VALID (best) &&
      ABS (GST_CLOCK_DIFF (t, best)) >= GST_SECOND / 2)
    best = GST_CLOCK_TIME_NONE;
  return best;
}

/* The latest capture time in @captured up to @t (a marker presented at @t
 * was captured before it, within a second) */
static GstClockTime
captured_before (GArray * captured, GstClockTime t)
{
  GstClockTime best = GST_CLOCK_TIME_NONE;
  guint i;

  for (i = 0; i < captured->len; i++) {
    GstClockTime c = g_array_index (captured, GstClockTime, i);

    if (c <= t && t - c < GST_SECOND)
      best = c;
  }
  return best;
}

/* Pairs every presented video marker with the audio marker presented
 * nearest to it (the first four left out: rtpbin lines the audio up from
 * the sender's first RTCP sender reports, which come a few seconds in) and
 * prints how far apart they were presented.
 * With the capture times (--measure), the skew is the difference of the
 * two streams' delays from capture to presentation, so the markers need
 * not be captured at the same instant (a frame starts every 33 ms, a tick
 * every second); without, the difference of the presentation times.
 * Returns whether every pair was within a video frame. */
static gboolean
report (Receiver * r)
{
  GArray *skews = g_array_new (FALSE, FALSE, sizeof (gint64));
  gboolean measured = r->video_captured->len > 0;
  gboolean ok;
  guint i;
  gint64 p50 = 0, max = 0;

  g_mutex_lock (&r->lock);
  for (i = 4; i < r->video->len; i++) {
    GstClockTime v = g_array_index (r->video, GstClockTime, i);
    GstClockTime a = nearest (r->audio, v), cv, ca;
    gint64 skew;

    if (!GST_CLOCK_TIME_IS_VALID (a))
      continue;
    if (measured) {
      cv = captured_before (r->video_captured, v);
      ca = captured_before (r->audio_captured, a);
      if (!GST_CLOCK_TIME_IS_VALID (cv) || !GST_CLOCK_TIME_IS_VALID (ca))
        continue;
      skew = GST_CLOCK_DIFF (v - cv, a - ca);
      g_print ("marker %u: video presented %.2f ms after its capture, "
          "audio %.2f ms: skew %+.2f ms\n", i, (v - cv) / 1e6,
          (a - ca) / 1e6, skew / 1e6);
    } else {
      skew = GST_CLOCK_DIFF (v, a);
      g_print ("marker %u: audio presented %+.2f ms after the video\n", i,
          skew / 1e6);
    }
    g_array_append_val (skews, skew);
  }
  g_mutex_unlock (&r->lock);
  g_array_sort (skews, cmp_diff);
  if (skews->len > 0) {
    p50 = ABS (g_array_index (skews, gint64, (skews->len - 1) / 2));
    max = ABS (g_array_index (skews, gint64, skews->len - 1));
  }
  ok = skews->len >= 3 && max <= GST_SECOND / FPS;
  g_print ("{\"markers\": %u, \"from_capture\": %s, \"skew_p50_ms\": %.2f, "
      "\"skew_max_ms\": %.2f, \"frame_ms\": %.1f}\n", skews->len,
      measured ? "true" : "false", p50 / 1e6, max / 1e6, 1000.0 / FPS);
  g_array_unref (skews);
  return ok;
}

/* Runs the main loop until @seconds have passed (0: for ever), an error or
 * EOS on one of the pipelines' buses. Returns FALSE on an error. */
static gboolean
run (GstElement * a, GstElement * b, gint seconds)
{
  GstElement *p[2] = { a, b };
  gint64 end = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;
  gboolean ok = TRUE, done = FALSE;
  guint i;

  while (!done && (seconds == 0 || g_get_monotonic_time () < end)) {
    for (i = 0; i < 2 && p[i]; i++) {
      GstBus *bus = gst_element_get_bus (p[i]);
      GstMessage *msg = gst_bus_timed_pop (bus, 50 * GST_MSECOND);

      gst_object_unref (bus);
      if (!msg)
        continue;
      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
        GError *err = NULL;

        gst_message_parse_error (msg, &err, NULL);
        g_printerr ("error from %s: %s\n", GST_OBJECT_NAME (msg->src),
            err->message);
        g_clear_error (&err);
        ok = FALSE;
        done = TRUE;
      } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
        done = TRUE;
      } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_LATENCY) {
        /* as gst-launch-1.0 does */
        gst_bin_recalculate_latency (GST_BIN (p[i]));
      }
      gst_message_unref (msg);
    }
  }
  return ok;
}

int
main (int argc, char **argv)
{
  const gchar *prog = "av-sync";
  GstElement *sender = NULL, *receiver = NULL;
  Receiver r = { 0 };
  gboolean ok;
  gint ret = 1;

  if (!example_parse_options (&argc, &argv, entries, NULL,
          "Video over tilesink/tilesrc and audio over RTP, presented in "
          "sync on the sender's clock"))
    return 2;
  if (!opt_host)
    opt_host = g_strdup ("127.0.0.1");
  if (opt_measure)
    opt_send = opt_receive = TRUE;
  else
    opt_measure = FALSE;
  if (!opt_send && !opt_receive) {
    g_printerr ("%s: --send, --receive or --measure\n", prog);
    return 2;
  }
  if (!example_check_element (prog, "tilesink", "set GST_PLUGIN_PATH to the "
          "build directory") || !example_check_element (prog, "opusenc",
          "install gstreamer1.0-plugins-base"))
    return 1;

  g_mutex_init (&r.lock);
  r.video = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  r.audio = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  r.video_captured = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  r.audio_captured = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  r.quiet_until = r.sent_quiet_until = GST_CLOCK_TIME_NONE;
  if (opt_send && !(sender = make_sender (prog, &r)))
    goto out;
  if (opt_receive && !(receiver = make_receiver (prog, &r)))
    goto out;
  if (sender)
    gst_element_set_state (sender, GST_STATE_PLAYING);
  if (receiver)
    gst_element_set_state (receiver, GST_STATE_PLAYING);
  ok = run (sender ? sender : receiver, sender ? receiver : NULL,
      opt_receive ? opt_seconds : 0);
  if (receiver) {
    GstClock *clock = gst_pipeline_get_clock (GST_PIPELINE (receiver));

    g_print ("receiver clock: %s\n", clock ? GST_OBJECT_NAME (clock) : "none");
    gst_clear_object (&clock);
    ok = report (&r) && ok;
  }
  ret = ok ? 0 : 1;

out:
  if (receiver) {
    gst_element_set_state (receiver, GST_STATE_NULL);
    gst_object_unref (receiver);
  }
  if (sender) {
    gst_element_set_state (sender, GST_STATE_NULL);
    gst_object_unref (sender);
  }
  g_array_unref (r.video);
  g_array_unref (r.audio);
  g_array_unref (r.video_captured);
  g_array_unref (r.audio_captured);
  g_mutex_clear (&r.lock);
  g_free (opt_host);
  return ret;
}
