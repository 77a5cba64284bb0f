/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* tilesrc's time: the clock it provides (clock=sender|ptp|system), the
 * time base its receiver reads the frames' capture times against, the
 * frames' timestamps (their capture, in running time: a sink presents
 * them `latency` later), and the playout queue: a thread takes every frame
 * out of the receiver as soon as it is complete and holds it until the
 * streaming thread pushes it, so that the frames waiting for their
 * presentation time wait here, not in the receiver's two slots (where
 * they would hold back the next ones). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttilesrc.h"

#include <gst/net/gstptpclock.h>

GST_DEBUG_CATEGORY_EXTERN (gst_tile_src_debug);
#define GST_CAT_DEFAULT gst_tile_src_debug

/* the reference timestamp tilesrc puts on every frame: the sender's wall
 * clock when it got it */
static GstStaticCaps unix_ts_caps = GST_STATIC_CAPS ("timestamp/x-unix");

/* ---- the clock ---- */

/* The clock of clock=ptp, or NULL (with a warning) where PTP cannot run:
 * GStreamer's PTP needs its helper (gst-ptp-helper) with the rights to
 * use the PTP ports. */
static GstClock *
new_ptp_clock (GstTileSrc * self, guint domain)
{
  GstClock *clock;

  if (!gst_ptp_is_initialized () &&
      !gst_ptp_init (GST_PTP_CLOCK_ID_NONE, NULL)) {
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS, ("PTP is not available "
            "here: tilesrc provides no clock (clock=ptp)"), ("gst_ptp_init () "
            "failed: is gst-ptp-helper installed with CAP_NET_BIND_SERVICE?"));
    return NULL;
  }
  clock = gst_ptp_clock_new ("tilesrc-ptp-clock", domain);
  if (clock)
    gst_object_ref_sink (clock);
  return clock;
}

GstClock *
gst_tile_src_provide_clock (GstElement * element)
{
  GstTileSrc *self = GST_TILE_SRC (element);
  GstTileClock mode;
  GstClock *clock = NULL;
  guint domain;

  GST_OBJECT_LOCK (self);
  mode = self->clock_mode;
  domain = self->ptp_domain;
  if (self->clock)
    clock = gst_object_ref (self->clock);
  GST_OBJECT_UNLOCK (self);
  if (clock || mode == GST_TILE_CLOCK_NONE)
    return clock;
  switch (mode) {
    case GST_TILE_CLOCK_SENDER:
      return gst_tile_receiver_get_clock (self->rx);
    case GST_TILE_CLOCK_SYSTEM:
      clock = g_object_new (GST_TYPE_SYSTEM_CLOCK, "name",
          "tilesrc-system-clock", "clock-type", GST_CLOCK_TYPE_REALTIME,
          NULL);
      gst_object_ref_sink (clock);
      break;
    case GST_TILE_CLOCK_PTP:
      clock = new_ptp_clock (self, domain);
      break;
    default:
      break;
  }
  if (!clock)
    return NULL;
  GST_OBJECT_LOCK (self);
  if (!self->clock && self->clock_mode == mode)
    self->clock = gst_object_ref (clock);
  GST_OBJECT_UNLOCK (self);
  return clock;
}

/* The receiver's clock stepped back (another sender, or its clock jumped
 * back): a new clock object follows it. The pipeline hears that its clock
 * is lost and that another is there, and selects it again (gst-launch-1.0
 * and applications do that on clock-lost: PAUSED, then PLAYING). */
void
gst_tile_src_clock_replaced (gpointer user_data, GstClock * old)
{
  GstElement *element = GST_ELEMENT (user_data);
  GstTileSrc *self = GST_TILE_SRC (user_data);
  GstClock *clock;
  gboolean sender;

  GST_OBJECT_LOCK (self);
  sender = self->clock_mode == GST_TILE_CLOCK_SENDER;
  GST_OBJECT_UNLOCK (self);
  if (!sender)
    return;
  clock = gst_tile_receiver_get_clock (self->rx);
  GST_INFO_OBJECT (self, "the sender's time stepped back: clock %"
      GST_PTR_FORMAT " instead of %" GST_PTR_FORMAT, clock, old);
  gst_element_post_message (element,
      gst_message_new_clock_lost (GST_OBJECT_CAST (element), old));
  gst_element_post_message (element,
      gst_message_new_clock_provide (GST_OBJECT_CAST (element), clock, TRUE));
  gst_object_unref (clock);
}

/* As GStreamer's audio sources do: the pipeline hears that a clock is
 * there (READY -> PAUSED) and that it is gone (PAUSED -> READY), and
 * selects its clock again. */
GstStateChangeReturn
gst_tile_src_change_state (GstElement * element, GstStateChange transition)
{
  GstTileSrc *self = GST_TILE_SRC (element);
  GstStateChangeReturn ret;
  GstClock *clock;

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED &&
      GST_OBJECT_FLAG_IS_SET (self, GST_ELEMENT_FLAG_PROVIDE_CLOCK)) {
    clock = gst_tile_src_provide_clock (element);
    if (clock) {
      gst_element_post_message (element,
          gst_message_new_clock_provide (GST_OBJECT_CAST (element), clock,
              TRUE));
      gst_object_unref (clock);
    }
  }
  ret = GST_ELEMENT_CLASS (g_type_class_peek (GST_TYPE_PUSH_SRC))->change_state
      (element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY &&
      GST_OBJECT_FLAG_IS_SET (self, GST_ELEMENT_FLAG_PROVIDE_CLOCK)) {
    clock = gst_tile_src_provide_clock (element);
    if (clock) {
      gst_element_post_message (element,
          gst_message_new_clock_lost (GST_OBJECT_CAST (element), clock));
      gst_object_unref (clock);
    }
  }
  return ret;
}

/* The time base of the receiver's playout for the clock setting, and its
 * latency settings, into @s (at start). */
void
gst_tile_src_time_settings (GstTileSrc * self, GstTileReceiverSettings * s)
{
  GstTileClock mode;

  GST_OBJECT_LOCK (self);
  mode = self->clock_mode;
  s->latency_ms = self->latency;
  s->drop_late = self->drop_late;
  GST_OBJECT_UNLOCK (self);
  s->clock = NULL;
  switch (mode) {
    case GST_TILE_CLOCK_SENDER:
      s->time_base = GST_TILE_RECEIVER_TIME_SENDER;
      break;
    case GST_TILE_CLOCK_SYSTEM:
      s->time_base = GST_TILE_RECEIVER_TIME_REALTIME;
      break;
    case GST_TILE_CLOCK_PTP:
      /* the capture times are the sender's pipeline clock's: a PTP clock
       * when that pipeline runs on one of the same domain */
      s->clock = gst_tile_src_provide_clock (GST_ELEMENT (self));
      s->time_base = s->clock ? GST_TILE_RECEIVER_TIME_CLOCK :
          GST_TILE_RECEIVER_TIME_NONE;
      break;
    default:
      s->time_base = GST_TILE_RECEIVER_TIME_NONE;
      break;
  }
}

/* The clock @frame's capture and reference times are on. */
static GstClock *
time_base_clock (GstTileSrc * self)
{
  GstClock *clock = NULL;

  GST_OBJECT_LOCK (self);
  if (self->clock_mode == GST_TILE_CLOCK_SENDER) {
    GST_OBJECT_UNLOCK (self);
    return gst_tile_receiver_get_clock (self->rx);
  }
  if (self->clock)
    clock = gst_object_ref (self->clock);
  GST_OBJECT_UNLOCK (self);
  return clock;
}

/* The running time of @frame's capture, its PTS: its capture time on the
 * time base's clock, moved to the pipeline clock when that is another one
 * (the capture as long before that clock's now as before the time base's
 * now), less the base time. Without a time base: the running time at which
 * its last byte was in. A frame captured before the pipeline started has
 * PTS 0. */
static GstClockTime
frame_pts (GstTileSrc * self, const GstTileReceiverFrame * frame)
{
  GstElement *element = GST_ELEMENT (self);
  GstClockTime base_time = gst_element_get_base_time (element);
  GstClockTime t = frame->complete_time;

  if (GST_CLOCK_TIME_IS_VALID (frame->capture_time)) {
    GstClock *clock = gst_element_get_clock (element);
    GstClock *ref = time_base_clock (self);

    t = frame->capture_time;
    if (clock && clock != ref) {
      GstClockTimeDiff age = GST_CLOCK_DIFF (frame->capture_time,
          frame->reference_time);
      GstClockTime now = gst_clock_get_time (clock);

      t = age > 0 && (GstClockTime) age > now ? 0 : now - age;
    }
    gst_clear_object (&clock);
    gst_clear_object (&ref);
  }
  if (!GST_CLOCK_TIME_IS_VALID (t))
    return GST_CLOCK_TIME_NONE;
  return t >= base_time ? t - base_time : 0;
}

/* The buffer of a frame the receiver gave out: timestamped (frame_pts ()),
 * with the sender's wall clock as a reference timestamp. */
static GstBuffer *
finish_buffer (GstTileSrc * self, GstTileReceiverFrame * frame)
{
  GstBuffer *buf = frame->buffer;

  GST_BUFFER_PTS (buf) = frame_pts (self, frame);
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  GST_OBJECT_LOCK (self);
  GST_BUFFER_DURATION (buf) = self->duration;
  GST_OBJECT_UNLOCK (self);
  if (GST_CLOCK_TIME_IS_VALID (frame->sender_time)) {
    GstCaps *ts_caps = gst_static_caps_get (&unix_ts_caps);

    gst_buffer_add_reference_timestamp_meta (buf, ts_caps, frame->sender_time,
        GST_CLOCK_TIME_NONE);
    gst_caps_unref (ts_caps);
  }
  /* over UDP its bytes fill the gaps of the next frame; from here on the
   * buffer is shared, so this comes after its metas */
  if (frame->udp)
    gst_tile_receiver_keep_last (self->rx, buf);
  return buf;
}

/* ---- the playout queue ---- */

/* frames the queue holds at most: those of the latency, two more, and no
 * more than this */
#define QUEUE_MAX 32

typedef struct
{
  GstTileReceiverResult result;
  GstBuffer *buffer;            /* FRAME */
  gchar *caps;                  /* NEW_CAPS */
  GError *error;                /* ERROR */
} QueueItem;

static void
queue_item_free (QueueItem * item)
{
  gst_clear_buffer (&item->buffer);
  g_free (item->caps);
  g_clear_error (&item->error);
  g_free (item);
}

/* How many frames the queue may hold: the latency's worth and two. Queue
 * lock held. */
static guint
queue_capacity (GstTileSrc * self)
{
  GstClockTime latency = gst_tile_receiver_get_latency (self->rx);
  GstClockTime duration;
  guint n = 2;

  GST_OBJECT_LOCK (self);
  duration = self->duration;
  GST_OBJECT_UNLOCK (self);
  if (GST_CLOCK_TIME_IS_VALID (latency) && GST_CLOCK_TIME_IS_VALID (duration)
      && duration > 0)
    n += (guint) MIN (latency / duration + 1, QUEUE_MAX);
  return MIN (n, QUEUE_MAX);
}

/* The thread that takes the frames out of the receiver. After NEW_CAPS it
 * waits for the streaming thread to negotiate them (the receiver starts
 * the new units then); after EOS or an error, for a flush or the end. */
static gpointer
puller (gpointer data)
{
  GstTileSrc *self = data;
  GstTileSrcQueue *q = &self->queue;

  g_mutex_lock (&q->lock);
  while (q->running) {
    GstTileReceiverFrame frame;
    GstTileReceiverResult r;
    QueueItem *item;
    gchar *caps = NULL;
    GError *err = NULL;

    while (q->running && (q->flushing || q->blocked ||
            q->items.length >= queue_capacity (self)))
      g_cond_wait (&q->cond, &q->lock);
    if (!q->running)
      break;
    g_mutex_unlock (&q->lock);
    r = gst_tile_receiver_pull (self->rx, &frame, &caps, &err);
    if (r == GST_TILE_RECEIVER_FRAME && frame.latency_changed) {
      GST_INFO_OBJECT (self, "playout latency now %" GST_TIME_FORMAT,
          GST_TIME_ARGS (gst_tile_receiver_get_latency (self->rx)));
      gst_element_post_message (GST_ELEMENT (self),
          gst_message_new_latency (GST_OBJECT (self)));
    }
    if (r == GST_TILE_RECEIVER_FRAME && frame.drop) {
      GST_DEBUG_OBJECT (self, "frame %" G_GUINT64_FORMAT " late: dropped",
          frame.frame);
      if (frame.udp)
        gst_tile_receiver_keep_last (self->rx, frame.buffer);
      gst_buffer_unref (frame.buffer);
      g_mutex_lock (&q->lock);
      continue;
    }
    /* with a region, the frame becomes the region (or, when it cannot be
     * copied out, an error, already posted) */
    if (r == GST_TILE_RECEIVER_FRAME &&
        gst_tile_src_region_crop (self, &frame) != GST_FLOW_OK)
      r = GST_TILE_RECEIVER_ERROR;
    item = g_new0 (QueueItem, 1);
    item->result = r;
    item->caps = caps;
    item->error = err;
    if (r == GST_TILE_RECEIVER_FRAME)
      item->buffer = finish_buffer (self, &frame);
    g_mutex_lock (&q->lock);
    if (r == GST_TILE_RECEIVER_FLUSHING) {
      /* the receiver is flushing: wait for the end of the flush */
      queue_item_free (item);
      while (q->running && q->flushing)
        g_cond_wait (&q->cond, &q->lock);
      continue;
    }
    if (q->flushing) {
      queue_item_free (item);
      continue;
    }
    g_queue_push_tail (&q->items, item);
    /* the streaming thread's turn: the caps, or the end */
    q->blocked = r != GST_TILE_RECEIVER_FRAME;
    g_cond_broadcast (&q->cond);
  }
  g_mutex_unlock (&q->lock);
  return NULL;
}

void
gst_tile_src_queue_init (GstTileSrc * self)
{
  g_mutex_init (&self->queue.lock);
  g_cond_init (&self->queue.cond);
  g_queue_init (&self->queue.items);
}

void
gst_tile_src_queue_clear (GstTileSrc * self)
{
  g_mutex_clear (&self->queue.lock);
  g_cond_clear (&self->queue.cond);
}

/* After the receiver started. */
void
gst_tile_src_queue_start (GstTileSrc * self)
{
  GstTileSrcQueue *q = &self->queue;

  g_mutex_lock (&q->lock);
  q->running = TRUE;
  q->flushing = FALSE;
  q->blocked = FALSE;
  g_mutex_unlock (&q->lock);
  q->thread = g_thread_new ("tilesrc-playout", puller, self);
}

/* Before the receiver stops: the receiver must be flushing (its pull ()
 * returns). */
void
gst_tile_src_queue_stop (GstTileSrc * self)
{
  GstTileSrcQueue *q = &self->queue;

  g_mutex_lock (&q->lock);
  q->running = FALSE;
  g_cond_broadcast (&q->cond);
  g_mutex_unlock (&q->lock);
  if (q->thread)
    g_thread_join (q->thread);
  q->thread = NULL;
  g_queue_clear_full (&q->items, (GDestroyNotify) queue_item_free);
}

/* unlock (@flushing) and unlock_stop: the frames held go (a seek, or
 * PAUSED, drops them as GstBaseSrc does its own) */
void
gst_tile_src_queue_set_flushing (GstTileSrc * self, gboolean flushing)
{
  GstTileSrcQueue *q = &self->queue;

  g_mutex_lock (&q->lock);
  q->flushing = flushing;
  if (flushing) {
    g_queue_clear_full (&q->items, (GDestroyNotify) queue_item_free);
    q->blocked = FALSE;
  }
  g_cond_broadcast (&q->cond);
  g_mutex_unlock (&q->lock);
}

/* The next item for the streaming thread: a frame (@buffer), new caps
 * (@caps: the caller negotiates them, then calls
 * gst_tile_src_queue_resume ()), EOS, an error (@error) or FLUSHING. */
GstTileReceiverResult
gst_tile_src_queue_pop (GstTileSrc * self, GstBuffer ** buffer,
    gchar ** caps, GError ** error)
{
  GstTileSrcQueue *q = &self->queue;
  GstTileReceiverResult r;
  QueueItem *item;

  g_mutex_lock (&q->lock);
  while (!q->flushing && q->items.length == 0)
    g_cond_wait (&q->cond, &q->lock);
  if (q->flushing) {
    g_mutex_unlock (&q->lock);
    return GST_TILE_RECEIVER_FLUSHING;
  }
  item = g_queue_pop_head (&q->items);
  if (item->result == GST_TILE_RECEIVER_EOS
      || item->result == GST_TILE_RECEIVER_ERROR) {
    /* it stays the answer until a flush */
    QueueItem *again = g_new0 (QueueItem, 1);

    again->result = item->result;
    if (item->error)
      again->error = g_error_copy (item->error);
    g_queue_push_head (&q->items, again);
  }
  g_cond_broadcast (&q->cond);
  g_mutex_unlock (&q->lock);
  r = item->result;
  *buffer = g_steal_pointer (&item->buffer);
  *caps = g_steal_pointer (&item->caps);
  if (item->error)
    g_propagate_error (error, g_steal_pointer (&item->error));
  queue_item_free (item);
  return r;
}

/* The caps of NEW_CAPS are negotiated (and the receiver's new units
 * started): the thread pulls again. */
void
gst_tile_src_queue_resume (GstTileSrc * self)
{
  GstTileSrcQueue *q = &self->queue;

  g_mutex_lock (&q->lock);
  q->blocked = FALSE;
  g_cond_broadcast (&q->cond);
  g_mutex_unlock (&q->lock);
}
