/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GstTileSender's units: the frames queued to them, their threads (each
 * sends its tile of every frame: over TCP a tile header and the rows,
 * over UDP datagrams, see tilesender-udp.c) and their connections. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "tilesender-private.h"

/* One unit is done with @frame (sent its tile, or could not). Lock held.
 * The frame stops counting as in flight the moment its last tile is out.
 * Returns the frame when the caller must free it with
 * gst_tile_sender_frame_free() (after releasing the lock), NULL otherwise. */
static GstTileSenderFrame *
frame_done_locked (GstTileSender * self, GstTileSenderFrame * frame,
    gboolean ok)
{
  GstTileSenderSession *ss = frame->session;

  if (!ok)
    frame->failed = TRUE;
  if (--frame->remaining > 0)
    return NULL;
  if (!frame->failed) {
    /* for QoS: how long frames take from admission to done */
    gint64 took = g_get_monotonic_time () - frame->push_us;

    ss->send_avg_us = ss->send_avg_us ? (7 * ss->send_avg_us + took) / 8 : took;
    if (g_atomic_int_get (&frame->abandoned)) {
      ss->frames_abandoned++;
      self->frames_abandoned++;
    } else {
      ss->frames_sent++;
      self->frames_sent++;
    }
    gst_tile_sender_note_sent_locked (ss, frame);
  }
  ss->in_flight--;
  ss->progress_us = g_get_monotonic_time ();
  g_cond_broadcast (&self->cond);
  return frame;
}

/* The last session done with a frame unmaps and releases its buffer. */
void
gst_tile_sender_shared_unref (GstTileSenderShared * shared)
{
  if (!g_atomic_int_dec_and_test (&shared->ref))
    return;
  /* (gst_buffer_unmap () without the buffer: an early frame given up by
   * its producer never had it) */
  gst_memory_unmap (shared->map.memory, &shared->map);
  gst_memory_unref (shared->map.memory);
  if (shared->buffer)
    gst_buffer_unref (shared->buffer);
  g_free (shared);
}

void
gst_tile_sender_frame_free (GstTileSenderFrame * frame)
{
  if (!frame)
    return;
  gst_tile_sender_shared_unref (frame->shared);
  g_free (frame);
}

/* frame_done_locked() and, when that was the last unit,
 * gst_tile_sender_frame_free() outside the lock. Lock held, and held again
 * on return. */
void
gst_tile_sender_frame_release_locked (GstTileSender * self,
    GstTileSenderFrame * frame, gboolean ok)
{
  frame = frame_done_locked (self, frame, ok);
  if (!frame)
    return;
  g_mutex_unlock (&self->lock);
  gst_tile_sender_frame_free (frame);
  g_mutex_lock (&self->lock);
}

/* Closes the data connections of a session's current generation. Lock
 * held. A unit in the middle of a send() is woken by the shutdown() and
 * closes its own descriptor afterwards. */
void
gst_tile_sender_close_data_locked (GstTileSenderSession * ss)
{
  guint i;

  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    GstTileSenderUnit *u = &ss->units[i];

    if (u->fd < 0)
      continue;
    if (u->sending) {
      gst_tile_net_shutdown (u->fd);
      u->close_pending = TRUE;
      u->fd = -1;
    } else {
      gst_tile_net_close (&u->fd);
    }
  }
  ss->n_connected = 0;
}

/* Frames in flight in every session. Lock held. */
static guint
in_flight_locked (GstTileSender * self)
{
  GstTileSenderSession *ss;
  guint i, n = 0;

  for (i = 0; (ss = gst_tile_sender_session_at (self, i)); i++)
    n += ss->in_flight;
  return n;
}

/* Draining: a session with frames in flight and no frame done for
 * DRAIN_STALL_US (or three of its frame times) since @start has its data
 * connections closed: its frames fail at once, lost for it alone. Lock
 * held. */
static void
give_up_stalled_locked (GstTileSender * self, gint64 start, gint64 now)
{
  GstTileSenderSession *ss;
  guint i;

  for (i = 0; (ss = gst_tile_sender_session_at (self, i)); i++) {
    if (ss->in_flight == 0 || ss->n_connected == 0)
      continue;
    if (now - MAX (ss->progress_us, start) < MAX (DRAIN_STALL_US,
            3 * ss->send_avg_us))
      continue;
    GST_WARNING_OBJECT (self->log_object, "receiver %u: no frame done for "
        "%" G_GINT64_FORMAT " ms while draining: giving up its %u frames in "
        "flight", ss->id, (now - MAX (ss->progress_us, start)) / 1000,
        ss->in_flight);
    gst_tile_sender_close_data_locked (ss);
  }
}

/* Waits until every queued frame has been sent to every receiver (or the
 * sender stops); a receiver that is stalled has its frames given up
 * instead (see give_up_stalled_locked ()). Lock held. */
gboolean
gst_tile_sender_drain_locked (GstTileSender * self)
{
  gint64 start = g_get_monotonic_time (), end = start + DRAIN_TIMEOUT_US;

  while (in_flight_locked (self) > 0 && self->running) {
    gint64 now = g_get_monotonic_time ();

    if (now >= end) {
      GST_WARNING_OBJECT (self->log_object,
          "%u frames still in flight after %d s", in_flight_locked (self),
          (gint) (DRAIN_TIMEOUT_US / G_USEC_PER_SEC));
      return FALSE;
    }
    give_up_stalled_locked (self, start, now);
    g_cond_wait_until (&self->cond, &self->lock, MIN (end,
            now + DRAIN_STALL_US / 5));
  }
  return in_flight_locked (self) == 0;
}

/* max-latency: whether unit @u abandons @frame before sending @left more
 * bytes of it: its deadline has passed, another unit abandoned it, or a
 * newer frame waits for this unit and at @ns_per_byte (0: unknown) the
 * rest would leave after the deadline (so a unit behind skips the frames
 * it cannot deliver in time instead of spending the link on them; the
 * newest frame is always tried, so the rate is still measured). Then the
 * frame is abandoned. Unlocked. */
gboolean
gst_tile_sender_unit_abandons (GstTileSenderUnit * u,
    GstTileSenderFrame * frame, guint64 left, gdouble ns_per_byte)
{
  gint64 now;

  if (g_atomic_int_get (&frame->abandoned))
    return TRUE;
  if (frame->deadline_us == 0)
    return FALSE;
  now = g_get_monotonic_time ();
  if (now <= frame->deadline_us && (ns_per_byte <= 0 ||
          g_atomic_int_get (&u->queued) == 0 ||
          now + (gint64) (left * ns_per_byte / 1000) <= frame->deadline_us))
    return FALSE;
  g_atomic_int_set (&frame->abandoned, 1);
  return TRUE;
}

/* Writes a part of @frame's tile: its header @hdr and the @len bytes at
 * @data, @off bytes into the tile. In a session with a passphrase the
 * bytes are sealed a chunk at a time into scratch, under the header, and
 * the tag follows them. Returns the bytes written in @bytes. */
static gboolean
unit_write_part (GstTileSenderUnit * u, GstTileSenderScratch * sc, gint fd,
    GstTileSenderFrame * frame, const guint8 * hdr, guint64 off,
    const guint8 * data, gsize len, guint chunk, guint64 * bytes, GError ** err)
{
  guint8 iv[GST_TILE_SEAL_IV_SIZE], tag[GST_TILE_SEAL_TAG_SIZE];
  guint8 *sealed;
  gsize done, step;

  *bytes += GST_TILE_WIRE_TILE_HEADER_SIZE + len;
  if (!frame->sealed && len == 0)
    return gst_tile_net_write_all (fd, hdr, GST_TILE_WIRE_TILE_HEADER_SIZE, 0,
        err);
  if (!frame->sealed) {
    /* MSG_MORE: the header leaves in the same segment as the data */
    return gst_tile_net_write_more (fd, hdr, GST_TILE_WIRE_TILE_HEADER_SIZE,
        err) && gst_tile_net_write_all (fd, data, len, chunk, err);
  }
  sealed = gst_tile_sender_scratch_seal (sc, frame,
      MIN (len, GST_TILE_SENDER_SEAL_CHUNK));
  gst_tile_seal_iv (iv, TRUE, u->index, frame->number, off);
  gst_tile_seal_begin (sc->seal, iv, hdr, GST_TILE_WIRE_TILE_HEADER_SIZE);
  if (!gst_tile_net_write_more (fd, hdr, GST_TILE_WIRE_TILE_HEADER_SIZE, err))
    return FALSE;
  for (done = 0; done < len; done += step) {
    step = MIN (len - done, GST_TILE_SENDER_SEAL_CHUNK);
    gst_tile_seal_update (sc->seal, data + done, sealed, step);
    if (!gst_tile_net_write_all (fd, sealed, step, chunk, err))
      return FALSE;
  }
  gst_tile_seal_end (sc->seal, tag);
  *bytes += sizeof (tag);
  return gst_tile_net_write_all (fd, tag, sizeof (tag), 0, err);
}

/* Sends @frame's tile over TCP: a tile header and the rows, or with a
 * deadline parts of an eighth of the tile, each with its header; a part
 * that would start after the deadline is not sent: a header saying the
 * tile is abandoned takes its place. Unlocked. */
static gboolean
unit_send_tile_tcp (GstTileSenderUnit * u, GstTileSenderScratch * sc, gint fd,
    GstTileSenderFrame * frame, const GstTileWireTile * tile, guint64 * bytes,
    GError ** err)
{
  GstTileSender *self = u->sender;
  guint chunk = g_atomic_int_get (&self->settings.chunk_size);
  guint64 part = frame->deadline_us ? MAX (tile->size / 8,
      GST_TILE_SENDER_MIN_PART) : tile->size;
  GstTileWireTileHeader th;
  guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE];
  guint64 off = 0;

  th.generation = frame->generation;
  th.frame = frame->number;
  th.timestamp = frame->timestamp;
  *bytes = 0;
  while (off < tile->size) {
    if (gst_tile_sender_unit_abandons (u, frame, tile->size - off,
            u->ns_per_byte)) {
      th.size = 0;
      th.flags = GST_TILE_WIRE_TILE_FLAG_ABANDON;
      gst_tile_wire_tile_header_write (hdr, &th);
      GST_LOG_OBJECT (self->log_object, "unit %u: frame %" G_GUINT64_FORMAT
          " abandoned after %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
          " bytes", u->index, frame->number, off, tile->size);
      return unit_write_part (u, sc, fd, frame, hdr, off, NULL, 0, 0, bytes,
          err);
    }
    th.size = MIN (part, tile->size - off);
    th.flags = off + th.size < tile->size ? GST_TILE_WIRE_TILE_FLAG_MORE : 0;
    gst_tile_wire_tile_header_write (hdr, &th);
    if (!unit_write_part (u, sc, fd, frame, hdr, off,
            frame->data + tile->offset + off, th.size, chunk, bytes, err))
      return FALSE;
    off += th.size;
  }
  /* the tile counts as sent once the socket is writable again, that is
   * once at most a quarter of it is left in the host (its unsent limit,
   * TCP_NOTSENT_LOWAT): on a link slower than the stream the frames wait
   * in the sender, where tilesink drops the ones it cannot send, not for
   * seconds in a 16 MiB send buffer */
  return gst_tile_net_wait (fd, TRUE, -1, err);
}

/* Counts what a unit sent and settles the frame and the connection after
 * a send. Lock held. */
static void
unit_sent_locked (GstTileSenderUnit * u, GstTileSenderFrame * frame, gint fd,
    gboolean ok, guint64 bytes, guint64 n_packets, gint64 t0, GError * err)
{
  GstTileSender *self = u->sender;
  GstTileSenderSession *ss = u->session;
  gint64 now = g_get_monotonic_time ();

  u->sending = FALSE;
  u->busy_ns += (now - t0) * 1000;
  self->unit_busy_ns[u->index] += (now - t0) * 1000;
  /* TCP: how fast this unit's tiles leave, for the deadline */
  if (ok && self->settings.protocol == GST_TILE_WIRE_PROTOCOL_TCP &&
      bytes >= GST_TILE_SENDER_MIN_PART) {
    gdouble sample = (now - t0) * 1000.0 / bytes;

    u->ns_per_byte = u->ns_per_byte > 0 ?
        0.75 * u->ns_per_byte + 0.25 * sample : sample;
  }
  if (ok) {
    if (!frame->send_start_us || t0 < frame->send_start_us)
      frame->send_start_us = t0;
    frame->send_end_us = MAX (frame->send_end_us, now);
    frame->bytes += bytes;
    frame->packets += n_packets;
    u->bytes += bytes;
    u->frames++;
    u->packets += n_packets;
    self->unit_bytes[u->index] += bytes;
    ss->packets_sent += n_packets;
    ss->bytes_sent += bytes;
    self->packets_sent += n_packets;
    self->bytes_sent += bytes;
  }
  if (u->close_pending) {
    gst_tile_net_close (&fd);
    u->close_pending = FALSE;
  } else if (!ok) {
    GST_INFO_OBJECT (self->log_object, "receiver %u unit %u: %s", ss->id,
        u->index, err->message);
    gst_tile_sender_end_session_locked (ss, err->message);
  }
  gst_tile_sender_frame_release_locked (self, frame, ok);
}

gpointer
gst_tile_sender_unit_thread (gpointer data)
{
  GstTileSenderUnit *u = data;
  GstTileSender *self = u->sender;
  GstTileSenderSession *ss = u->session;
  GstTileSenderScratch sc = { 0 };

  g_mutex_lock (&self->lock);
  while (TRUE) {
    GstTileSenderFrame *frame;
    GstTileWireTile tile;
    guint64 rate, n_packets = 0, bytes = 0;
    guint ps;
    GError *err = NULL;
    gint fd;
    gint64 t0;
    gboolean ok;

    while (self->running && !ss->stopping && g_queue_is_empty (&u->queue))
      g_cond_wait (&u->cond, &self->lock);
    if (!self->running || ss->stopping)
      break;
    frame = g_queue_pop_head (&u->queue);
    g_atomic_int_add (&u->queued, -1);
    frame->started++;
    /* a frame still being written (gst_tile_sender_new_pool ()): this
     * unit's tile goes once it is */
    while (frame->shared->early && !frame->shared->ready[u->index] &&
        !frame->shared->aborted && self->running && !ss->stopping &&
        frame->generation == self->config.generation)
      g_cond_wait (&u->cond, &self->lock);
    fd = u->fd;
    if (fd < 0 || frame->generation != self->config.generation ||
        !self->running || ss->stopping) {
      gst_tile_sender_frame_release_locked (self, frame, FALSE);
      continue;
    }
    /* given up unwritten by its producer: TCP says the tile is abandoned,
     * UDP sends nothing of it */
    if (frame->shared->early && !frame->shared->ready[u->index])
      g_atomic_int_set (&frame->abandoned, 1);
    /* copies: a caps change may replace the config while we send */
    tile = self->config.tiles[u->index];
    ps = self->config.packet_size;
    rate = gst_tile_sender_session_rate_locked (ss) / self->config.n_tiles;
    u->sending = TRUE;
    g_mutex_unlock (&self->lock);

    t0 = g_get_monotonic_time ();
    if (self->settings.protocol == GST_TILE_WIRE_PROTOCOL_UDP) {
      ok = gst_tile_sender_send_tile_udp (u, &sc, fd, frame, &tile, ps, rate,
          &n_packets, &err);
      bytes = n_packets * (ps +
          GST_TILE_WIRE_DATAGRAM_OVERHEAD (frame->sealed));
    } else {
      ok = unit_send_tile_tcp (u, &sc, fd, frame, &tile, &bytes, &err);
    }

    g_mutex_lock (&self->lock);
    unit_sent_locked (u, frame, fd, ok, bytes, n_packets, t0, err);
    g_clear_error (&err);
  }
  g_mutex_unlock (&self->lock);
  gst_tile_sender_scratch_clear (&sc);
  return NULL;
}
