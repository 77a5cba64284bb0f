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

/* Takes the complete frame of @slot out into @out (but @out->udp), counts
 * it and its latency; the slot is free again. Lock held. */
void
gst_tile_receiver_slot_take_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, GstTileReceiverFrame * out)
{
  out->buffer = slot->buffer;
  out->complete_time = slot->complete_time;
  out->frame = slot->frame;
  out->sender_time = slot->sender_ts;
  slot->buffer = NULL;
  slot->state = SLOT_FREE;
  slot->sender_ts = GST_CLOCK_TIME_NONE;
  self->counters.frames_received++;
  if (GST_CLOCK_TIME_IS_VALID (out->sender_time)) {
    guint64 rt = gst_tile_realtime_ns ();

    gst_tile_latency_add (&self->counters.latency, rt > out->sender_time ?
        rt - out->sender_time : 0);
  }
}
