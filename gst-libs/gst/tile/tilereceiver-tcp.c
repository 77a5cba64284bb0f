/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The receiver's TCP units: one data connection and thread per tile, each
 * reading its tile of every frame straight into the buffer of the frame's
 * slot; a frame is complete when every tile is in. With balanced tiles, a
 * frame is complete when its rows are: a unit whose path failed sends
 * nothing of the frames the others carry meanwhile, and what it held
 * arrives late, once its path is back, and is read past. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilereceiver-private.h"

#include <netdb.h>

#include <gst/bc/bctilemeta.h>

/* Balanced tiles: whether a tile of @frame comes after its frame was
 * complete or dropped (its path failed meanwhile). Lock held. */
static gboolean
tcp_tile_late_locked (GstTileReceiver * self, guint64 frame, guint64 run)
{
  return self->balance && self->balance_have_done &&
      self->balance_done_run == run && frame <= self->balance_done;
}

/* Balanced tiles: frame @frame of run @run is complete, or given up: it
 * and every older frame are done, those still filling dropped (once
 * nobody writes into them), and a tile of them that comes later is late.
 * Lock held. */
static void
tcp_balance_done_locked (GstTileReceiver * self, guint64 frame, guint64 run)
{
  guint i;

  if (self->balance_have_done && self->balance_done_run == run &&
      self->balance_done >= frame)
    return;
  self->balance_have_done = TRUE;
  self->balance_done_run = run;
  self->balance_done = frame;
  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
    GstTileReceiverSlot *s = &self->slots[i];

    if (s->state != SLOT_FILLING || s->run != run || s->frame > frame)
      continue;
    if (s->writers == 0)
      gst_tile_receiver_slot_release_locked (self, s, TRUE);
    else
      s->discard = TRUE;
  }
}

/* Balanced tiles: how long a unit waits for a slot while both hold older
 * frames it is done with before it gives the older one up (its rows are
 * on a path that failed: see tcp_slot_locked ()), us */
#define BALANCE_SLOT_WAIT_US (100 * 1000)

/* Whether every unit that has not brought its tile of @slot has been
 * silent (no tile begun or ended) for BALANCE_SLOT_WAIT_US at @now: the
 * frame waits on units whose paths failed, not on slower ones. Lock
 * held. */
static gboolean
tcp_slot_waits_on_silent_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, gint64 now)
{
  guint j;

  for (j = 0; j < self->config->n_tiles; j++) {
    if (!(self->units_used & (G_GUINT64_CONSTANT (1) << j)) ||
        (slot->done_mask & (G_GUINT64_CONSTANT (1) << j)))
      continue;
    if (now - self->units[j].tile_us < BALANCE_SLOT_WAIT_US)
      return FALSE;
  }
  return TRUE;
}

/* Balanced tiles: unit @unit needs a slot for @frame and has waited
 * BALANCE_SLOT_WAIT_US: the oldest frame filling that nobody writes into,
 * that it is done with and that waits only on units silent that long is
 * given up (their paths failed with rows of it: a unit that is only
 * slower still brings tiles). Lock held. */
static void
tcp_balance_give_up_locked (GstTileReceiver * self, guint unit,
    guint64 frame, guint64 run)
{
  GstTileReceiverSlot *oldest = NULL;
  gint64 now = g_get_monotonic_time ();
  guint i;

  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
    GstTileReceiverSlot *s = &self->slots[i];

    if (s->state == SLOT_FILLING && s->run == run && s->frame < frame &&
        s->writers == 0 && (s->done_mask & (G_GUINT64_CONSTANT (1) << unit))
        && tcp_slot_waits_on_silent_locked (self, s, now)
        && (!oldest || s->frame < oldest->frame))
      oldest = s;
  }
  if (oldest) {
    GST_DEBUG_OBJECT (self->log_object, "unit %u: frame %" G_GUINT64_FORMAT
        " waits for rows that do not come, giving it up", unit,
        oldest->frame);
    tcp_balance_done_locked (self, oldest->frame, run);
  }
}

/* Finds or starts the slot of @frame for unit @unit, waiting for a free
 * slot when both are taken. Returns NULL when stopping, or with @late set
 * when the tile is late (tcp_tile_late_locked ()). Lock held. */
static GstTileReceiverSlot *
tcp_slot_locked (GstTileReceiver * self, guint unit, guint64 frame,
    guint64 run, gboolean * late)
{
  GstTileReceiverSlot *slot;
  guint64 bit = G_GUINT64_CONSTANT (1) << unit;
  guint i;

  gint64 give_up = g_get_monotonic_time () + BALANCE_SLOT_WAIT_US;

  *late = FALSE;
  while (self->running && self->run == run) {
    GstTileReceiverSlot *free_slot = NULL;

    if ((*late = tcp_tile_late_locked (self, frame, run)))
      return NULL;
    /* redundant paths: another connection of the unit took the tile (while
     * this one waited) */
    if (self->units[unit].have_taken && frame <= self->units[unit].taken_frame)
      return NULL;
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
      } else if (!self->balance && s->frame < frame &&
          s->state == SLOT_FILLING && !(s->done_mask & bit)) {
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
      slot->rows_done = 0;
      slot->n_done = 0;
      slot->writers = 0;
      slot->discard = FALSE;
      slot->abandoned = FALSE;
      return gst_tile_receiver_slot_fill_locked (self, slot) ? slot : NULL;
    }
    if (!self->balance) {
      g_cond_wait (&self->cond, &self->lock);
    } else if (!g_cond_wait_until (&self->cond, &self->lock, give_up)) {
      tcp_balance_give_up_locked (self, unit, frame, run);
      give_up = g_get_monotonic_time () + BALANCE_SLOT_WAIT_US;
    }
  }
  return NULL;
}

/* The frame that leaves next over TCP: the oldest complete. With
 * redundant paths, only when no older frame is still filling: a unit's
 * connections take their tiles independently, and the one that took a
 * tile of an older frame may still be copying it when another completes a
 * newer one. Lock held. */
GstTileReceiverSlot *
gst_tile_receiver_tcp_next_locked (GstTileReceiver * self)
{
  GstTileReceiverSlot *oldest = NULL;
  guint i;

  if (!self->redundant)
    return gst_tile_receiver_slots_oldest_locked (self, FALSE);
  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
    GstTileReceiverSlot *s = &self->slots[i];

    if (s->state != SLOT_FREE && (!oldest || s->frame < oldest->frame))
      oldest = s;
  }
  return oldest && oldest->state == SLOT_COMPLETE ? oldest : NULL;
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

/* The numeric address unit @u's connection goes to: its path's (with
 * redundant paths, connection u->leg's: the leg-th path up after the
 * unit's own), NULL when that path is not up. Lock held. */
static gchar *
tcp_leg_host_locked (GstTileReceiver * self, GstTileReceiverUnit * u)
{
  struct sockaddr_storage addrs[GST_TILE_WIRE_MAX_PATHS];
  guint lens[GST_TILE_WIRE_MAX_PATHS], paths[GST_TILE_WIRE_MAX_PATHS], n;
  gchar buf[NI_MAXHOST];

  if (u->leg == 0)
    return g_strdup (gst_tile_receiver_paths_unit_host_locked (self,
            u->index, buf, sizeof (buf)));
  n = gst_tile_receiver_paths_unit_servers_locked (self, u->index, addrs,
      lens, paths);
  if (u->leg >= n || getnameinfo ((struct sockaddr *) &addrs[u->leg],
          lens[u->leg], buf, sizeof (buf), NULL, 0, NI_NUMERICHOST) != 0)
    return NULL;
  return g_strdup (buf);
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

  gchar *host;

  /* over its path: a numeric address (the path's own, as it answered) */
  g_mutex_lock (&self->lock);
  host = tcp_leg_host_locked (self, u);
  g_mutex_unlock (&self->lock);
  if (!host) {
    g_set_error (err, G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE,
        "unit %u: path %u after its own is no longer up", u->index, u->leg);
    return -1;
  }
  fd = gst_tile_net_connect (host, self->settings.port,
      self->settings.timeout, rcvbuf, &granted, err);
  g_free (host);
  if (fd < 0)
    return -1;
  /* tile data must keep coming once a tile has started (a quiet sender
   * between frames is fine: see gst_tile_net_read_until_eof()) */
  gst_tile_net_set_receive_timeout (fd, gst_tile_receiver_data_timeout (self));
  g_mutex_lock (&self->lock);
  u->fd = fd;
  u->tile_us = g_get_monotonic_time ();
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
        ": no data for %u ms", frame, gst_tile_receiver_data_timeout (u->rx));
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
 * into it). With balanced tiles, every unit's tile in and the rows short
 * of the frame is the sender's error: FALSE with @err set. Lock held. */
static gboolean
tcp_unit_tile_done_locked (GstTileReceiver * self, GstTileReceiverSlot * slot,
    guint unit, gboolean ok, gboolean abandoned, gsize bytes, GError ** err)
{
  gboolean whole, ret = TRUE;

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
      return TRUE;
    }
    /* balanced tiles: when its rows are all in (units whose paths failed
     * send nothing of it); the older frames are done then */
    if (self->balance && !abandoned)
      slot->rows_done += slot->rows_end[unit] - slot->rows_first[unit];
    whole = self->balance ? slot->rows_done == self->config->n_rows &&
        !slot->abandoned : slot->n_done == self->n_used;
    if (self->balance && !whole && !slot->abandoned &&
        slot->n_done == self->n_used) {
      g_set_error (err, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "the tiles of frame %" G_GUINT64_FORMAT " are in, and their rows "
          "add up to %u of the frame's %u: they do not cover it",
          slot->frame, slot->rows_done, self->config->n_rows);
      slot->discard = TRUE;
      ret = FALSE;
    }
    if (whole && !slot->discard) {
      self->counters.tile_spread_sum +=
          g_get_monotonic_time () - slot->first_done;
      slot->complete_time = gst_tile_receiver_clock_time (self);
      gst_buffer_unmap (slot->buffer, &slot->map);
      slot->state = SLOT_COMPLETE;
      if (self->balance)
        tcp_balance_done_locked (self, slot->frame, slot->run);
      g_cond_broadcast (&self->cond);
    }
  }
  if (slot->discard && slot->writers == 0)
    gst_tile_receiver_slot_release_locked (self, slot, TRUE);
  return ret;
}

/* Reads the @part.size bytes of a part @have bytes into its tile, to
 * @dest (NULL: a late tile, read past, a piece at a time); in a sealed
 * session a step at a time, each opened in place right away, then the
 * tag, which must check. */
static gboolean
tcp_unit_read_part (GstTileReceiverUnit * u, gint fd,
    const GstTileWireTileHeader * part, gsize have, guint8 * dest,
    gsize * bytes, GError ** err)
{
  guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED];
  guint8 iv[GST_TILE_SEAL_IV_SIZE], tag[GST_TILE_SEAL_TAG_SIZE];
  guint8 past[16384];
  gsize done, step, len = u->rx->balance ?
      GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED : GST_TILE_WIRE_TILE_HEADER_SIZE;
  gsize chunk = dest ? GST_TILE_RECEIVER_SEAL_CHUNK : sizeof (past);

  *bytes += len + part->size;
  if (!u->seal && dest)
    return tcp_unit_read_inside (u, fd, dest, part->size, part->frame, err);
  for (done = 0; !u->seal && done < part->size; done += step) {
    step = MIN (part->size - done, chunk);
    if (!tcp_unit_read_inside (u, fd, past, step, part->frame, err))
      return FALSE;
  }
  if (!u->seal)
    return TRUE;
  /* the header as it came (the parser accepts one encoding of each) */
  if (u->rx->balance)
    gst_tile_wire_tile_header_write_balanced (hdr, part);
  else
    gst_tile_wire_tile_header_write (hdr, part);
  gst_tile_receiver_unit_key (u, part->generation, part->frame);
  gst_tile_seal_iv (iv, TRUE, u->index, part->frame, have);
  gst_tile_seal_begin (u->seal, iv, hdr, len);
  for (done = 0; done < part->size; done += step) {
    guint8 *to = dest ? dest + done : past;

    step = MIN (part->size - done, chunk);
    if (!tcp_unit_read_inside (u, fd, to, step, part->frame, err))
      return FALSE;
    gst_tile_seal_update (u->seal, to, to, step);
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
    if (!tcp_unit_read_part (u, fd, &part, have, dest ? dest + have : NULL,
            bytes, err))
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
 * they must come after the rows of every unit before it that are known
 * and before those of every unit after it, so that rows that add up to
 * the frame's cover it exactly (a unit whose path failed sends nothing of
 * the frame). FALSE with @err set when they do not. Lock held. */
static gboolean
tcp_slot_rows_locked (GstTileReceiver * self, GstTileReceiverSlot * slot,
    guint unit, const GstTileWireTileHeader * th, GError ** err)
{
  guint32 end = th->first_row + th->rows;
  guint j;

  if (slot->rows_known & (G_GUINT64_CONSTANT (1) << unit)) {
    g_set_error (err, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "unit %u: a second tile of frame %" G_GUINT64_FORMAT, unit,
        th->frame);
    return FALSE;
  }
  for (j = 0; j < self->config->n_tiles; j++) {
    if (j == unit || !(slot->rows_known & (G_GUINT64_CONSTANT (1) << j)))
      continue;
    if (j < unit ? slot->rows_end[j] > th->first_row :
        slot->rows_first[j] < end) {
      g_set_error (err, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "unit %u: rows %u to %u of frame %" G_GUINT64_FORMAT ": they "
          "overlap unit %u's or come %s them (rows %u to %u)", unit,
          th->first_row, end, th->frame, j, j < unit ? "before" : "after",
          slot->rows_first[j], slot->rows_end[j]);
      return FALSE;
    }
  }
  slot->rows_first[unit] = th->first_row;
  slot->rows_end[unit] = end;
  slot->rows_known |= G_GUINT64_CONSTANT (1) << unit;
  return TRUE;
}

/* Redundant paths: the tile of @th came over connection @u, into its
 * staging (@bytes on the wire). The first copy of each tile goes into its
 * frame; a later one, or one of a frame the unit is past, is counted as a
 * duplicate. FALSE with @err set when no buffer can be had. Lock held,
 * released while copying. */
static gboolean
tcp_leg_tile_locked (GstTileReceiverUnit * u, guint64 run,
    const GstTileWireTileHeader * th, gsize tile_offset, gsize tile_size,
    GError ** err)
{
  GstTileReceiver *self = u->rx;
  GstTileReceiverUnit *unit = &self->units[u->index];
  GstTileReceiverSlot *slot;
  GstBcTileMeta *meta;
  gboolean late, stepped;

  GST_LOG_OBJECT (self->log_object, "unit %u: a copy of its tile of frame %"
      G_GUINT64_FORMAT " over path %u", u->index, th->frame, u->leg);
  if (unit->have_taken && th->frame <= unit->taken_frame) {
    self->counters.tiles_duplicate++;
    return TRUE;
  }
  slot = tcp_slot_locked (self, u->index, th->frame, run, &late);
  if (!slot) {
    /* (while it waited for a slot, another connection brought the tile) */
    if (unit->have_taken && th->frame <= unit->taken_frame) {
      self->counters.tiles_duplicate++;
      return TRUE;
    }
    if (self->running && self->run == run)
      g_set_error (err, G_IO_ERROR, G_IO_ERROR_FAILED,
          "unit %u: no buffer for frame %" G_GUINT64_FORMAT, u->index,
          th->frame);
    return !(self->running && self->run == run);
  }
  /* the tile is this connection's: the others' copies are duplicates, and
   * the unit has it (no frame is dropped for a unit past it meanwhile,
   * see tcp_slot_locked ()) */
  unit->taken_frame = unit->have_taken ? MAX (unit->taken_frame, th->frame) :
      th->frame;
  unit->have_taken = TRUE;
  slot->done_mask |= G_GUINT64_CONSTANT (1) << u->index;
  slot->writers++;
  slot->sender_ts = th->timestamp;
  slot->capture = th->capture;
  g_mutex_unlock (&self->lock);

  memcpy (slot->map.data + tile_offset, u->staging, tile_size);
  stepped = g_atomic_int_get (&self->stepped)
      && (meta = gst_buffer_get_bc_tile_meta (slot->buffer))
      && gst_bc_tile_meta_complete (meta, slot->buffer, u->index);

  g_mutex_lock (&self->lock);
  if (stepped)
    self->counters.tiles_stepped++;
  return tcp_unit_tile_done_locked (self, slot, u->index, TRUE, FALSE, 0,
      err);
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
    gboolean ok, stepped, abandoned, late;
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

    if (self->redundant) {
      /* redundant paths: the whole tile first (each connection has its
       * own copy, and a sealed one is opened in place) */
      if (!u->staging)
        u->staging = g_malloc (tile_size);
      if (!tcp_unit_read_tile (u, fd, &th, u->staging, tile_size,
              &abandoned, &bytes, err)) {
        g_prefix_error (err, "unit %u: ", u->index);
        return;
      }
      g_mutex_lock (&self->lock);
      self->counters.bytes_received += bytes;
      /* (an abandoned copy is this path's: the others may bring it) */
      ok = abandoned || tcp_leg_tile_locked (u, run, &th, tile_offset,
          tile_size, err);
      g_mutex_unlock (&self->lock);
      if (!ok) {
        g_prefix_error (err, "unit %u: ", u->index);
        return;
      }
      continue;
    }

    g_mutex_lock (&self->lock);
    slot = tcp_slot_locked (self, u->index, th.frame, run, &late);
    if (late) {
      /* balanced tiles: what a unit held while its path failed, for a
       * frame done since: read past */
      g_mutex_unlock (&self->lock);
      if (!tcp_unit_read_tile (u, fd, &th, NULL,
              (gsize) th.rows * self->config->row_bytes, &abandoned, &bytes,
              err)) {
        g_prefix_error (err, "unit %u: ", u->index);
        return;
      }
      g_mutex_lock (&self->lock);
      u->tile_us = g_get_monotonic_time ();
      self->counters.tiles_late++;
      self->counters.bytes_received += bytes;
      g_mutex_unlock (&self->lock);
      continue;
    }
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
    u->tile_us = g_get_monotonic_time ();
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
    u->tile_us = g_get_monotonic_time ();
    if (stepped)
      self->counters.tiles_stepped++;
    if (!tcp_unit_tile_done_locked (self, slot, u->index, ok, abandoned,
            bytes, err))
      ok = FALSE;
    g_mutex_unlock (&self->lock);
    if (!ok) {
      g_prefix_error (err, "unit %u: ", u->index);
      return;
    }
  }
}

/* Redundant paths: connection @c of unit @unit ended, cleanly (the
 * generation's end) or with @err (its path failed, while the others may
 * carry on: counted, said). A clean end ends the unit's other connections
 * too: their paths may be down, and would keep the unit waiting for an end
 * that does not come. Lock held. */
static void
tcp_leg_ended_locked (GstTileReceiverUnit * unit, GstTileReceiverUnit * c,
    guint64 run, const GError * err)
{
  GstTileReceiver *self = unit->rx;
  guint k;

  if (!self->running || self->run != run)
    return;
  if (err) {
    self->counters.tcp_path_errors++;
    GST_WARNING_OBJECT (self->log_object, "unit %u: its connection over "
        "path %u%s failed: %s", unit->index, c->leg, c->leg ? " after its "
        "own" : " (its own)", err->message);
    return;
  }
  if (unit->fd >= 0)
    gst_tile_net_shutdown (unit->fd);
  for (k = 0; k < unit->n_legs; k++)
    if (unit->legs[k] && unit->legs[k]->c.fd >= 0)
      gst_tile_net_shutdown (unit->legs[k]->c.fd);
}

/* Connects connection @c of a unit and receives its tiles until the
 * generation ends, or an error in @err. */
static void
tcp_unit_run (GstTileReceiverUnit * c, guint64 run,
    const GstTileWireUnitHello * uh, GError ** err)
{
  gint fd = tcp_unit_connect (c, run, uh, err);

  if (fd >= 0)
    tcp_unit_receive (c, fd, run, uh->generation, err);
  g_clear_pointer (&c->staging, g_free);
}

/* Redundant paths: a unit's connection on another path. */
static gpointer
tcp_leg_thread (gpointer data)
{
  GstTileReceiverLeg *leg = data;
  GstTileReceiver *self = leg->c.rx;

  tcp_unit_run (&leg->c, leg->run, &leg->hello, &leg->error);
  g_mutex_lock (&self->lock);
  tcp_leg_ended_locked (&self->units[leg->c.index], &leg->c, leg->run,
      leg->error);
  g_mutex_unlock (&self->lock);
  return NULL;
}

/* Redundant paths: unit @u's connections on the paths up after its own,
 * started (their UNIT_HELLO @uh). Lock held. */
static void
tcp_legs_start_locked (GstTileReceiverUnit * u, guint64 run,
    const GstTileWireUnitHello * uh)
{
  GstTileReceiver *self = u->rx;
  guint k;

  u->n_legs = 0;
  if (!self->redundant)
    return;
  for (k = 1; k < self->paths.n_up && k < GST_TILE_WIRE_MAX_PATHS; k++) {
    GstTileReceiverLeg *leg = g_new0 (GstTileReceiverLeg, 1);
    gchar *name = g_strdup_printf ("tilesrc-unit%up%u", u->index, k);

    leg->c.rx = self;
    leg->c.index = u->index;
    leg->c.fd = -1;
    leg->c.leg = k;
    leg->run = run;
    leg->hello = *uh;
    gst_tile_receiver_unit_seal (&leg->c);
    u->legs[u->n_legs++] = leg;
    leg->thread = g_thread_new (name, tcp_leg_thread, leg);
    g_free (name);
  }
}

/* Redundant paths: waits for unit @u's other connections to end, and
 * frees them (NULL in u->legs once freed: the lock is released while
 * waiting). The unit's error (@err) stands only when every connection
 * ended with one: else it is cleared. Lock held. */
static void
tcp_legs_join_locked (GstTileReceiverUnit * u, GError ** err)
{
  GstTileReceiver *self = u->rx;
  gboolean clean = *err == NULL;
  guint k;

  for (k = 0; k < u->n_legs; k++) {
    GstTileReceiverLeg *leg = u->legs[k];

    g_mutex_unlock (&self->lock);
    g_thread_join (leg->thread);
    g_mutex_lock (&self->lock);
    clean |= leg->error == NULL;
    g_clear_error (&leg->error);
    gst_tile_net_close (&leg->c.fd);
    gst_tile_receiver_unit_unseal (&leg->c);
    g_free (leg);
    u->legs[k] = NULL;
  }
  if (u->n_legs > 0 && clean)
    g_clear_error (err);
  u->n_legs = 0;
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

  g_mutex_lock (&self->lock);
  run = self->run;
  uh.token = self->config->token;
  uh.generation = self->config->generation;
  uh.unit = u->index;
  u->leg = 0;
  u->have_taken = FALSE;
  gst_tile_receiver_unit_seal (u);
  /* sealed: the MAC that shows the sender this connection is its
   * receiver's (the token alone travels in the clear) */
  if (u->seal)
    gst_tile_keys_unit_mac (u->unit_c2s, &uh, GST_TILE_KEYS_UNIT_HELLO,
        uh.mac);
  /* redundant paths: a connection on every other path too */
  tcp_legs_start_locked (u, run, &uh);
  g_mutex_unlock (&self->lock);

  tcp_unit_run (u, run, &uh, &err);

  g_mutex_lock (&self->lock);
  if (u->n_legs > 0) {
    tcp_leg_ended_locked (u, u, run, err);
    tcp_legs_join_locked (u, &err);
  }
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
