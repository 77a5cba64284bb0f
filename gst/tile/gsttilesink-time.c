/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* tilesink's time: the capture time of each frame on its pipeline clock
 * (the clock its receivers follow: gst_tile_element_clock_time () answers
 * their TIME queries), and the QoS it posts when a frame is dropped for
 * the network. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttilesink.h"

GST_DEBUG_CATEGORY_EXTERN (gst_tile_sink_debug);
#define GST_CAT_DEFAULT gst_tile_sink_debug

/* A frame's capture time on the pipeline clock: from a live upstream, its
 * running time (a live source's timestamp is its capture) plus the base
 * time, when that is not in the future nor further back than 10 s; else
 * none (the sender takes the clock's time at admission, the render time). */
GstClockTime
gst_tile_sink_capture_time (gpointer user_data, GstBuffer * buffer)
{
  GstTileSink *self = user_data;
  GstClockTime pts = GST_BUFFER_PTS (buffer), running, capture, now;
  GstClock *clock;

  if (g_atomic_int_get (&self->upstream_live) != 1 ||
      !GST_CLOCK_TIME_IS_VALID (pts))
    return GST_CLOCK_TIME_NONE;
  GST_OBJECT_LOCK (self);
  running = gst_segment_to_running_time (&GST_BASE_SINK (self)->segment,
      GST_FORMAT_TIME, pts);
  capture = running + GST_ELEMENT_CAST (self)->base_time;
  clock = GST_ELEMENT_CLOCK (self) ? gst_object_ref (GST_ELEMENT_CLOCK (self))
      : NULL;
  GST_OBJECT_UNLOCK (self);
  if (!clock || !GST_CLOCK_TIME_IS_VALID (running))
    capture = GST_CLOCK_TIME_NONE;
  if (clock) {
    now = gst_clock_get_time (clock);
    if (GST_CLOCK_TIME_IS_VALID (capture) && (capture > now ||
            now - capture > 10 * GST_SECOND))
      capture = GST_CLOCK_TIME_NONE;
    gst_object_unref (clock);
  }
  return capture;
}

/* A frame was dropped for the network: a QoS message, and a QoS event
 * upstream (OVERFLOW: the path cannot carry what comes) that lets an
 * encoder with QoS on skip the frames that would arrive before the sender
 * can take one. GstVideoEncoder drops frames up to timestamp + 2 x diff +
 * a frame (diff > 0) or timestamp + diff (diff <= 0): diff is chosen so
 * that this ends where the sender's estimated wait does. The proportion is
 * how long a frame takes to send over how often frames come. */
void
gst_tile_sink_post_qos (GstTileSink * self, GstBuffer * buffer)
{
  GstBaseSink *bsink = GST_BASE_SINK (self);
  GstClockTime pts = GST_BUFFER_PTS (buffer);
  GstClockTime dur = GST_BUFFER_DURATION (buffer);
  GstClockTime running, wait, send_time;
  GstClockTimeDiff diff;
  GstMessage *msg;
  guint64 sent, dropped;
  gdouble proportion = 1.0;

  running = gst_segment_to_running_time (&bsink->segment, GST_FORMAT_TIME, pts);
  gst_tile_sender_get_frame_counts (self->sender, &sent, &dropped);
  msg = gst_message_new_qos (GST_OBJECT (self), TRUE, running,
      gst_segment_to_stream_time (&bsink->segment, GST_FORMAT_TIME, pts),
      pts, dur);
  gst_message_set_qos_stats (msg, GST_FORMAT_BUFFERS, sent, dropped);
  gst_element_post_message (GST_ELEMENT (self), msg);

  if (!GST_CLOCK_TIME_IS_VALID (running))
    return;
  wait = gst_tile_sender_estimate_wait (self->sender, &send_time);
  if (GST_CLOCK_TIME_IS_VALID (dur) && dur > 0) {
    diff = wait > dur ? (GstClockTimeDiff) (wait - dur) / 2 :
        GST_CLOCK_DIFF (dur, wait);
    if (send_time > 0)
      proportion = (gdouble) send_time / dur;
  } else {
    diff = wait / 2;
  }
  GST_LOG_OBJECT (self, "QoS upstream: frame at %" GST_TIME_FORMAT
      " dropped, the sender takes one in %" GST_TIME_FORMAT ", proportion %g",
      GST_TIME_ARGS (running), GST_TIME_ARGS (wait), proportion);
  gst_pad_push_event (GST_BASE_SINK_PAD (bsink),
      gst_event_new_qos (GST_QOS_TYPE_OVERFLOW, proportion, diff, running));
}
