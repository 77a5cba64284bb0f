/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The receiver's TCP units: one data connection and thread per tile, each
 * reading its tile of every frame straight into the buffer of the frame's
 * slot; a frame is complete when every tile is in. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilereceiver-private.h"

#include <netdb.h>

#include <gst/bc/bctilemeta.h>

/* Finds or starts the slot of @frame for unit @unit, waiting for a free
 * slot when both are taken. Returns NULL when stopping. Lock held. */
static GstTileReceiverSlot *
tcp_slot_locked (GstTileReceiver * self, guint unit, guint64 frame,
    guint64 run)
{
  GstTileReceiverSlot *slot;
  guint64 bit = G_GUINT64_CONSTANT (1) << unit;
  guint i;

  while (self->running && self->run == run) {
    GstTileReceiverSlot *free_slot = NULL;

    slot = NULL;
    for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
      GstTileReceiverSlot *s = &self->slots[i];

      if (s->state == SLOT_FREE) {
        free_slot = free_slot ? free_slot : s;
        continue;
      }
      if (s->run != run)
        continue;
      if (s->frame == frame) {
        slot = s;
      } else if (s->frame < frame && s->state == SLOT_FILLING &&
          !(s->done_mask & bit)) {
        /* this unit has moved past that frame without its tile: it can
         * never complete (only a broken sender does this) */
        GST_WARNING_OBJECT (self->log_object,
            "unit %u skipped frame %" G_GUINT64_FORMAT ", dropping it", unit,
            s->frame);
        if (s->writers == 0)
          gst_tile_receiver_slot_release_locked (self, s, TRUE);
        else
          s->discard = TRUE;
      }
    }
    if (slot && slot->state == SLOT_FILLING && !slot->discard) {
      if (slot->done_mask & bit)
        return NULL;            /* a repeated frame number */
      return slot;
    }
    if (!slot && free_slot) {
      slot = free_slot;
      slot->state = SLOT_ALLOCATING;
      slot->frame = frame;
      slot->run = run;
      slot->done_mask = 0;
      slot->rows_known = 0;
      slot->n_done = 0;
      slot->writers = 0;
      slot->discard = FALSE;
      slot->abandoned = FALSE;
      return gst_tile_receiver_slot_fill_locked (self, slot) ? slot : NULL;
    }
    g_cond_wait (&self->cond, &self->lock);
  }
  return NULL;
}

/* A control message where a tile header was expected: a REFUSE, maybe
 * longer than the tile header read so far (then the rest is read). */
static gboolean
is_refuse (gint fd, const guint8 * hdr, gsize hdr_len, GError ** error)
{
  GstTileWireHeader h;
  GByteArray *msg;
  gboolean ret;

  if (GST_READ_UINT32_BE (hdr) != GST_TILE_WIRE_MAGIC
      || gst_tile_wire_header_parse (hdr, GST_TILE_WIRE_HEADER_SIZE, &h,
          NULL) != GST_TILE_WIRE_PARSE_OK
      || h.type != GST_TILE_WIRE_TYPE_REFUSE)
    return FALSE;
  msg = g_byte_array_sized_new (GST_TILE_WIRE_HEADER_SIZE + h.payload_len);
  g_byte_array_append (msg, hdr, MIN (hdr_len,
          GST_TILE_WIRE_HEADER_SIZE + h.payload_len));
  if (msg->len < GST_TILE_WIRE_HEADER_SIZE + h.payload_len) {
    guint have = msg->len;

    g_byte_array_set_size (msg, GST_TILE_WIRE_HEADER_SIZE + h.payload_len);
    if (!gst_tile_net_read_all (fd, msg->data + have, msg->len - have, 1000,
            NULL)) {
      g_byte_array_unref (msg);
      return FALSE;
    }
  }
  ret = gst_tile_receiver_refusal (msg->data, msg->len, error);
  g_byte_array_unref (msg);
  return ret;
}

/* Connects unit @u's data connection and introduces it with UNIT_HELLO.
 * Returns the descriptor, -1 with @err set. */
static gint
tcp_unit_connect (GstTileReceiverUnit * u, guint64 run,
    const GstTileWireUnitHello * uh, GError ** err)
{
  GstTileReceiver *self = u->rx;
  gint rcvbuf = self->settings.receive_buffer_size, granted = 0, fd;
  gboolean warn = FALSE;
  GByteArray *p;

  gchar buf[NI_MAXHOST];
  const gchar *host;

  /* over its path: a numeric address (the path's own, as it answered) */
  g_mutex_lock (&self->lock);
  host = gst_tile_receiver_paths_unit_host_locked (self, u->index, buf,
      sizeof (buf));
  host = g_strdup (host);
  g_mutex_unlock (&self->lock);
  fd = gst_tile_net_connect (host, self->settings.port,
      self->settings.timeout, rcvbuf, &granted, err);
  g_free ((gchar *) host);
  if (fd < 0)
    return -1;
  /* tile data must keep coming once a tile has started (a quiet sender
   * between frames is fine: see gst_tile_net_read_until_eof()) */
  gst_tile_net_set_receive_timeout (fd, self->settings.timeout);
  g_mutex_lock (&self->lock);
  u->fd = fd;
  self->counters.granted_rcvbuf = granted;
  if (!self->running || self->run != run)
    gst_tile_net_shutdown (fd);
  if (rcvbuf > 0 && !gst_tile_net_buffer_is_enough (granted, rcvbuf)
      && !self->warned_rcvbuf)
    warn = self->warned_rcvbuf = TRUE;
  g_mutex_unlock (&self->lock);
  if (warn)
    self->callbacks.buffer_warning (self->user_data, granted, rcvbuf);

  p = g_byte_array_new ();
  if (!gst_tile_wire_unit_hello_pack (uh, p, err) ||
      !gst_tile_net_send_packed (fd, p, err))
    fd = -1;                    /* closed with the unit */
  g_byte_array_unref (p);
  return fd;
}

/* Reads @len bytes inside the tile of @frame. The data connection's
 * receive timeout firing means the sender stopped inside it (while its
 * keep-alives may go on): the error says so. */
static gboolean
tcp_unit_read_inside (GstTileReceiverUnit * u, gint fd, guint8 * data,
    gsize len, guint64 frame, GError ** err)
{
  if (gst_tile_net_read_all (fd, data, len, -1, err))
    return TRUE;
  if (g_error_matches (*err, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK)) {
    g_clear_error (err);
    g_set_error (err, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
        "the sender stopped inside the tile of frame %" G_GUINT64_FORMAT
        ": no data for %u ms", frame, u->rx->settings.timeout);
  }
  return FALSE;
}

/* Reads the next tile header, @remaining bytes of its tile to come; with
 * @inside, the header of the next part of a tile already started (then
 * the receive timeout applies from the first byte on). Returns 1 when
 * there is one, 0 at the end of the generation (the sender closed), -1
 * with @err set (a REFUSE comes as its reason). */
static gint
tcp_unit_read_header (GstTileReceiverUnit * u, gint fd, gsize remaining,
    gboolean inside, GstTileWireTileHeader * th, GError ** err)
{
  guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED];
  const GstTileWireConfig *config = u->rx->config;
  gboolean balanced = u->rx->balance;
  gsize len = balanced ? GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED :
      GST_TILE_WIRE_TILE_HEADER_SIZE;
  GstTileWireTileHeader first = { 0 };
  GError *refused = NULL;
  gssize got;

  if (inside) {
    first = *th;
    if (!tcp_unit_read_inside (u, fd, hdr, len, th->frame, err))
      return -1;
    got = len;
  } else {
    got = gst_tile_net_read_until_eof (fd, hdr, len);
  }

  if (got == 0)
    return 0;
  if (got < (gssize) len) {
    if (got < 0 || !gst_tile_receiver_refusal (hdr, got, err))
      g_set_error (err, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
          "unit %u: connection lost inside a tile header", u->index);
    return -1;
  }
  /* balanced tiles: the first header of a tile says its rows in the
   * frame, a later part repeats them */
  if (balanced ? gst_tile_wire_tile_header_parse_balanced (hdr, len,
          config->n_rows, config->row_bytes, inside ? &first : NULL,
          remaining, th, err) == GST_TILE_WIRE_PARSE_OK :
      gst_tile_wire_tile_header_parse (hdr, len, remaining, th,
          err) == GST_TILE_WIRE_PARSE_OK)
    return 1;
  if (is_refuse (fd, hdr, len, &refused)) {
    g_clear_error (err);
    g_propagate_error (err, refused);
  }
  return -1;
}

/* Unit @unit's tile of @slot is in (@ok), abandoned by the sender (@ok
 * and @abandoned) or failed. A frame with an abandoned tile is dropped
 * once every unit is past it (until then its other tiles still arrive
 * into it). Lock held. */
static void
tcp_unit_tile_done_locked (GstTileReceiver * self, GstTileReceiverSlot * slot,
    guint unit, gboolean ok, gboolean abandoned, gsize bytes)
{
  slot->writers--;
  if (ok) {
    self->counters.bytes_received += bytes;
    slot->done_mask |= G_GUINT64_CONSTANT (1) << unit;
    if (abandoned && !slot->abandoned) {
      slot->abandoned = TRUE;
      GST_DEBUG_OBJECT (self->log_object, "unit %u: the sender abandoned "
          "frame %" G_GUINT64_FORMAT, unit, slot->frame);
    }
    if (slot->n_done++ == 0)
      slot->first_done = g_get_monotonic_time ();
    if (slot->n_done == self->n_used && slot->abandoned &&
        !slot->discard) {
      self->counters.frames_abandoned++;
      gst_tile_receiver_slot_release_locked (self, slot, FALSE);
      return;
    }
    if (slot->n_done == self->n_used && !slot->discard) {
      self->counters.tile_spread_sum +=
          g_get_monotonic_time () - slot->first_done;
      slot->complete_time = gst_tile_receiver_clock_time (self);
      gst_buffer_unmap (slot->buffer, &slot->map);
      slot->state = SLOT_COMPLETE;
      g_cond_broadcast (&self->cond);
    }
  }
  if (slot->discard && slot->writers == 0)
    gst_tile_receiver_slot_release_locked (self, slot, TRUE);
}

/* Reads the @part.size bytes of a part @have bytes into its tile, to
 * @dest; in a sealed session a step at a time, each opened in place right
 * away, then the tag, which must check. */
static gboolean
tcp_unit_read_part (GstTileReceiverUnit * u, gint fd,
    const GstTileWireTileHeader * part, gsize have, guint8 * dest,
    gsize * bytes, GError ** err)
{
  guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED];
  guint8 iv[GST_TILE_SEAL_IV_SIZE], tag[GST_TILE_SEAL_TAG_SIZE];
  gsize done, step, len = u->rx->balance ?
      GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED : GST_TILE_WIRE_TILE_HEADER_SIZE;

  *bytes += len + part->size;
  if (!u->seal)
    return tcp_unit_read_inside (u, fd, dest, part->size, part->frame, err);
  /* the header as it came (the parser accepts one encoding of each) */
  if (u->rx->balance)
    gst_tile_wire_tile_header_write_balanced (hdr, part);
  else
    gst_tile_wire_tile_header_write (hdr, part);
  gst_tile_receiver_unit_key (u, part->generation, part->frame);
  gst_tile_seal_iv (iv, TRUE, u->index, part->frame, have);
  gst_tile_seal_begin (u->seal, iv, hdr, len);
  for (done = 0; done < part->size; done += step) {
    step = MIN (part->size - done, GST_TILE_RECEIVER_SEAL_CHUNK);
    if (!tcp_unit_read_inside (u, fd, dest + done, step, part->frame, err))
      return FALSE;
    gst_tile_seal_update (u->seal, dest + done, dest + done, step);
  }
  if (!tcp_unit_read_inside (u, fd, tag, sizeof (tag), part->frame, err))
    return FALSE;
  *bytes += sizeof (tag);
  if (!gst_tile_seal_end (u->seal, tag)) {
    g_set_error (err, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_TAMPERED,
        "the tile of frame %" G_GUINT64_FORMAT " (%u bytes at %"
        G_GSIZE_FORMAT ") failed authentication: changed on the way",
        part->frame, part->size, have);
    return FALSE;
  }
  return TRUE;
}

/* Reads the parts of a tile, the first one (@th) already parsed, straight
 * into the frame at @dest, until its last part or an abandon (then
 * @abandoned is set). Every header must be of the same generation and
 * frame. Returns FALSE with @err set when the connection fails or the
 * sender breaks the rules. */
static gboolean
tcp_unit_read_tile (GstTileReceiverUnit * u, gint fd,
    const GstTileWireTileHeader * th, guint8 * dest, gsize tile_size,
    gboolean * abandoned, gsize * bytes, GError ** err)
{
  GstTileWireTileHeader part = *th;
  gsize have = 0;

  *abandoned = FALSE;
  *bytes = 0;
  while (TRUE) {
    /* (an abandon is a part of no bytes: sealed, it has a tag too) */
    if (!tcp_unit_read_part (u, fd, &part, have, dest + have, bytes, err))
      return FALSE;
    if (part.flags & GST_TILE_WIRE_TILE_FLAG_ABANDON) {
      *abandoned = TRUE;
      return TRUE;
    }
    have += part.size;
    if (!(part.flags & GST_TILE_WIRE_TILE_FLAG_MORE))
      return TRUE;
    /* inside a tile: the header comes whole, or an error says why */
    if (tcp_unit_read_header (u, fd, tile_size - have, TRUE, &part, err) < 0)
      return FALSE;
    if (part.generation != th->generation || part.frame != th->frame) {
      g_set_error (err, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "part of generation %u frame %" G_GUINT64_FORMAT
          " inside the tile of generation %u frame %" G_GUINT64_FORMAT,
          part.generation, part.frame, th->generation, th->frame);
      return FALSE;
    }
  }
}

/* Balanced tiles: unit @unit's rows of @slot's frame (@th) are noted;
 * they must follow the rows of the units before and after it that are
 * known, start at 0 for the first unit and end with the frame for the
 * last, so that once every unit's are in they cover the frame exactly.
 * FALSE with @err set when they do not. Lock held. */
static gboolean
tcp_slot_rows_locked (GstTileReceiver * self, GstTileReceiverSlot * slot,
    guint unit, const GstTileWireTileHeader * th, GError ** err)
{
  guint n = self->config->n_tiles;
  guint32 end = th->first_row + th->rows;
  const gchar *why = NULL;

  if (unit == 0 && th->first_row != 0)
    why = "the first unit's rows must start at row 0";
  else if (unit == n - 1 && end != self->config->n_rows)
    why = "the last unit's rows must end with the frame";
  else if (unit > 0 && (slot->rows_known & (G_GUINT64_CONSTANT (1) <<
              (unit - 1))) && slot->rows_end[unit - 1] != th->first_row)
    why = "they do not start where the previous unit's end";
  else if (unit + 1 < n && (slot->rows_known & (G_GUINT64_CONSTANT (1) <<
              (unit + 1))) && slot->rows_first[unit + 1] != end)
    why = "they do not end where the next unit's start";
  if (why) {
    g_set_error (err, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "unit %u: rows %u to %u of frame %" G_GUINT64_FORMAT ": %s", unit,
        th->first_row, end, th->frame, why);
    return FALSE;
  }
  slot->rows_first[unit] = th->first_row;
  slot->rows_end[unit] = end;
  slot->rows_known |= G_GUINT64_CONSTANT (1) << unit;
  return TRUE;
}

/* Receives tiles until the generation ends or an error. */
static void
tcp_unit_receive (GstTileReceiverUnit * u, gint fd, guint64 run,
    guint32 generation, GError ** err)
{
  GstTileReceiver *self = u->rx;
  gsize tile_offset = self->config->tiles[u->index].offset;
  gsize tile_size = self->config->tiles[u->index].size;
  guint64 last_frame = 0;
  gboolean first = TRUE;

  while (TRUE) {
    GstTileWireTileHeader th;
    GstTileReceiverSlot *slot;
    GstBcTileMeta *meta;
    gboolean ok, stepped, abandoned;
    gsize bytes;

    if (tcp_unit_read_header (u, fd, tile_size, FALSE, &th, err) <= 0)
      return;
    if (th.generation != generation || (!first && th.frame <= last_frame)) {
      g_set_error (err, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "unit %u: tile of generation %u frame %" G_GUINT64_FORMAT
          " after generation %u frame %" G_GUINT64_FORMAT, u->index,
          th.generation, th.frame, generation, last_frame);
      return;
    }
    first = FALSE;
    last_frame = th.frame;

    g_mutex_lock (&self->lock);
    slot = tcp_slot_locked (self, u->index, th.frame, run);
    if (!slot) {
      g_mutex_unlock (&self->lock);
      if (self->running)
        g_set_error (err, G_IO_ERROR, G_IO_ERROR_FAILED,
            "unit %u: no buffer for frame %" G_GUINT64_FORMAT, u->index,
            th.frame);
      return;
    }
    if (self->balance) {
      /* this frame's rows of the unit: they must follow its neighbours' */
      if (!tcp_slot_rows_locked (self, slot, u->index, &th, err)) {
        g_mutex_unlock (&self->lock);
        return;
      }
      tile_offset = th.first_row * self->config->row_bytes;
      tile_size = th.rows * self->config->row_bytes;
    }
    slot->writers++;
    slot->sender_ts = th.timestamp;
    slot->capture = th.capture;
    g_mutex_unlock (&self->lock);

    /* straight into the frame */
    ok = tcp_unit_read_tile (u, fd, &th, slot->map.data + tile_offset,
        tile_size, &abandoned, &bytes, err);
    /* (balanced rows are not the tiles the meta describes) */
    stepped = ok && !abandoned && !self->balance &&
        g_atomic_int_get (&self->stepped)
        && (meta = gst_buffer_get_bc_tile_meta (slot->buffer))
        && gst_bc_tile_meta_complete (meta, slot->buffer, u->index);

    g_mutex_lock (&self->lock);
    if (stepped)
      self->counters.tiles_stepped++;
    tcp_unit_tile_done_locked (self, slot, u->index, ok, abandoned, bytes);
    g_mutex_unlock (&self->lock);
    if (!ok) {
      g_prefix_error (err, "unit %u: ", u->index);
      return;
    }
  }
}

/* A TCP unit: one data connection, one tile of every frame. */
gpointer
gst_tile_receiver_tcp_unit (gpointer data)
{
  GstTileReceiverUnit *u = data;
  GstTileReceiver *self = u->rx;
  GstTileWireUnitHello uh = { 0 };
  GError *err = NULL;
  guint64 run;
  gint fd;

  g_mutex_lock (&self->lock);
  run = self->run;
  uh.token = self->config->token;
  uh.generation = self->config->generation;
  uh.unit = u->index;
  gst_tile_receiver_unit_seal (u);
  g_mutex_unlock (&self->lock);
  /* sealed: the MAC that shows the sender this connection is its
   * receiver's (the token alone travels in the clear) */
  if (u->seal)
    gst_tile_keys_unit_mac (u->unit_c2s, &uh, GST_TILE_KEYS_UNIT_HELLO,
        uh.mac);

  fd = tcp_unit_connect (u, run, &uh, &err);
  if (fd >= 0)
    tcp_unit_receive (u, fd, run, uh.generation, &err);

  g_mutex_lock (&self->lock);
  if (err && self->running && self->run == run) {
    gboolean newer = self->pending != NULL
        && err->domain == GST_TILE_WIRE_ERROR;

    /* a refusal because a newer CONFIG already replaced ours is not an
     * error: that generation starts next */
    if (!newer) {
      GST_WARNING_OBJECT (self->log_object, "%s", err->message);
      if (g_atomic_int_get (&self->reconnect) &&
          err->domain != GST_TILE_WIRE_ERROR) {
        gst_tile_receiver_control_shutdown_locked (self, TRUE);
      } else {
        gst_tile_receiver_set_error_locked (self, err);
      }
    }
  }
  g_clear_error (&err);
  gst_tile_receiver_unit_unseal (u);
  self->units_running--;
  if (self->units_running == 0)
    gst_tile_receiver_slots_discard_incomplete_locked (self);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return NULL;
}
