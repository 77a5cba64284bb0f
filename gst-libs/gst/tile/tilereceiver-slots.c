/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The receiver's two frame slots, the same for both protocols: a slot gets
 * its frame's buffer from the element (the downstream pool), the units write
 * their tiles straight into it, and pull() takes the frame out, the oldest
 * first. Which slot a unit's tile or datagram goes to is each protocol's
 * (tilereceiver-tcp.c, tilereceiver-udp.c). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilereceiver-private.h"

#include <gst/bc/bctilemeta.h>

#include <string.h>

/* start(): every slot free. Lock held. */
void
gst_tile_receiver_slots_reset (GstTileReceiver * self)
{
  memset (self->slots, 0, sizeof (self->slots));
}

/* Gets the buffer of @slot's new frame from the element (the downstream
 * pool), checks its size and maps it: the slot is FILLING then, or FREE
 * again when there is no usable buffer (returns FALSE). Lock held; released
 * meanwhile. */
gboolean
gst_tile_receiver_slot_fill_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot)
{
  guint64 frame_size = self->config->frame_size;
  GstBcTileMeta *meta;
  GstBuffer *buf;

  g_mutex_unlock (&self->lock);
  buf = self->callbacks.acquire_buffer (self->user_data);
  if (buf && gst_buffer_get_size (buf) < frame_size) {
    GST_ERROR_OBJECT (self->log_object, "pool buffer of %" G_GSIZE_FORMAT
        " bytes for %" G_GUINT64_FORMAT " byte frames",
        gst_buffer_get_size (buf), frame_size);
    gst_clear_buffer (&buf);
  }
  /* a stepped consumer takes tiles as they complete (GstBcTileMeta) and
   * may read them while the others are written: that needs READWRITE */
  if (buf && !gst_buffer_map (buf, &slot->map,
          gst_buffer_get_bc_tile_meta (buf) ? GST_MAP_READWRITE :
          GST_MAP_WRITE))
    gst_clear_buffer (&buf);
  g_mutex_lock (&self->lock);
  if (buf && (meta = gst_buffer_get_bc_tile_meta (buf)))
    gst_bc_tile_meta_set_tiling (meta, &self->tiling);
  slot->buffer = buf;
  slot->state = buf ? SLOT_FILLING : SLOT_FREE;
  g_cond_broadcast (&self->cond);
  return buf != NULL;
}

/* Releases a slot's buffer (with @count, a frame still filling counts as
 * incomplete). Lock held; nobody may be writing into it. */
void
gst_tile_receiver_slot_release_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, gboolean count)
{
  g_assert (slot->writers == 0);
  if (slot->buffer) {
    if (slot->state == SLOT_FILLING)
      gst_buffer_unmap (slot->buffer, &slot->map);
    gst_buffer_unref (slot->buffer);
    slot->buffer = NULL;
  }
  if (count && slot->state == SLOT_FILLING)
    self->counters.frames_incomplete++;
  slot->state = SLOT_FREE;
  slot->discard = FALSE;
  slot->abandoned = FALSE;
  g_cond_broadcast (&self->cond);
}

/* The units have stopped: every frame goes, those still filling counted as
 * incomplete. Lock held. */
void
gst_tile_receiver_slots_release_locked (GstTileReceiver * self)
{
  guint i;

  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++)
    if (self->slots[i].state != SLOT_FREE)
      gst_tile_receiver_slot_release_locked (self, &self->slots[i],
          self->slots[i].state == SLOT_FILLING);
}

/* Drops every frame that can no longer complete. Lock held. */
void
gst_tile_receiver_slots_discard_incomplete_locked (GstTileReceiver * self)
{
  guint i;

  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
    GstTileReceiverSlot *slot = &self->slots[i];

    if (slot->state == SLOT_FILLING && slot->writers == 0)
      gst_tile_receiver_slot_release_locked (self, slot, TRUE);
  }
}

/* The slot of the oldest complete frame (with @filling, of the oldest
 * complete or filling one), or NULL. Lock held. */
GstTileReceiverSlot *
gst_tile_receiver_slots_oldest_locked (GstTileReceiver * self,
    gboolean filling)
{
  GstTileReceiverSlot *oldest = NULL;
  guint i;

  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
    GstTileReceiverSlot *s = &self->slots[i];

    if ((s->state == SLOT_COMPLETE || (filling && s->state == SLOT_FILLING))
        && (!oldest || s->frame < oldest->frame))
      oldest = s;
  }
  return oldest;
}

/* The clock of the time base now, and the frame's capture time on it
 * (GST_CLOCK_TIME_NONE when it has none). Lock held. */
static void
reference_times_locked (GstTileReceiver * self, GstTileReceiverSlot * slot,
    GstClockTime * now, GstClockTime * capture)
{
  switch (self->settings.time_base) {
    case GST_TILE_RECEIVER_TIME_SENDER:
      *now = gst_clock_get_time (self->clock.clock);
      /* before the sender's first answer the clock is not its time */
      *capture = self->clock.observations > 0 ? slot->capture :
          GST_CLOCK_TIME_NONE;
      break;
    case GST_TILE_RECEIVER_TIME_CLOCK:
      *now = gst_clock_get_time (self->settings.clock);
      *capture = slot->capture;
      break;
    default:
      *now = gst_tile_realtime_ns ();
      *capture = slot->sender_ts;
      break;
  }
}

/* The playout of a frame taken out at @now (the time base's clock): when
 * it was captured, whether it is late, and its delay into the latency
 * statistics. A capture time in the future, or further back than
 * GST_TILE_RECEIVER_MAX_DELAY, is not believed (the clocks are not in
 * step yet, or one jumped): the frame counts as captured now, and the
 * latency statistics take the wall clocks' delay. Lock held. */
static void
playout_locked (GstTileReceiver * self, GstTileReceiverFrame * out,
    GstClockTime now, GstClockTime capture)
{
  gboolean believed = GST_CLOCK_TIME_IS_VALID (capture) &&
      GST_CLOCK_TIME_IS_VALID (now) &&
      capture <= now + GST_TILE_RECEIVER_MAX_AHEAD &&
      now - MIN (now, capture) <= GST_TILE_RECEIVER_MAX_DELAY;
  GstClockTime delay = believed && now > capture ? now - capture : 0;

  if (believed) {
    gst_tile_latency_add (&self->counters.latency, delay);
  } else if (GST_CLOCK_TIME_IS_VALID (out->sender_time)) {
    /* before the clocks are in step: the wall clocks' */
    guint64 rt = gst_tile_realtime_ns ();

    gst_tile_latency_add (&self->counters.latency, rt > out->sender_time ?
        rt - out->sender_time : 0);
  }
  if (self->settings.time_base == GST_TILE_RECEIVER_TIME_NONE)
    return;
  out->reference_time = now;
  if (!believed) {
    self->counters.frames_retimed++;
    capture = now;
  }
  out->capture_time = capture;
  out->latency_changed = gst_tile_playout_frame (&self->playout, delay,
      g_get_monotonic_time (), &out->late);
  if (out->latency_changed)
    self->counters.latency_changes++;
  if (out->late) {
    self->counters.frames_late++;
    out->drop = self->settings.drop_late;
    if (out->drop)
      self->counters.frames_dropped_late++;
  }
}

/* The time, ns, until the frame of @slot is due (its capture time plus
 * the playout latency), less than 0 when past; G_MAXINT64 when unknown
 * (clock=none, no capture time yet, or one not believed). Lock held. */
gint64
gst_tile_receiver_slot_time_left_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot)
{
  GstClockTime now, capture, latency;

  if (self->settings.time_base == GST_TILE_RECEIVER_TIME_NONE)
    return G_MAXINT64;
  reference_times_locked (self, slot, &now, &capture);
  latency = gst_tile_playout_get_latency (&self->playout);
  if (!GST_CLOCK_TIME_IS_VALID (capture) || !GST_CLOCK_TIME_IS_VALID (now) ||
      !GST_CLOCK_TIME_IS_VALID (latency) ||
      capture > now + GST_TILE_RECEIVER_MAX_AHEAD ||
      now - MIN (now, capture) > GST_TILE_RECEIVER_MAX_DELAY)
    return G_MAXINT64;
  return (gint64) (capture + latency) - (gint64) now;
}

/* Takes the complete frame of @slot out into @out (but @out->udp), counts
 * it, its latency and its playout; the slot is free again. Lock held. */
void
gst_tile_receiver_slot_take_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, GstTileReceiverFrame * out)
{
  GstClockTime now, capture;

  reference_times_locked (self, slot, &now, &capture);
  memset (out, 0, sizeof (*out));
  out->buffer = slot->buffer;
  out->complete_time = slot->complete_time;
  out->frame = slot->frame;
  out->sender_time = slot->sender_ts;
  out->capture_time = out->reference_time = GST_CLOCK_TIME_NONE;
  slot->buffer = NULL;
  slot->state = SLOT_FREE;
  slot->sender_ts = slot->capture = GST_CLOCK_TIME_NONE;
  self->counters.frames_received++;
  playout_locked (self, out, now, capture);
}
