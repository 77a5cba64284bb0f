/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GstTileSender's units, as their owner (GstTileSenderOwner: a unicast
 * peer or the multicast group) holds them: made, started, woken, joined;
 * the frames queued to them and done; their threads (each sends its tile
 * of every frame: over TCP a tile header and the rows, here, over UDP
 * datagrams, see tilesender-udp.c); their data connections; draining. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "tilesender-private.h"

/* @o's units, not started: the caller sets o->peer or o->group. Lock
 * held, or @o not shared yet. */
void
gst_tile_sender_owner_init (GstTileSenderOwner * o, GstTileSender * self,
    guint id)
{
  guint i;

  o->sender = self;
  o->id = id;
  if (!gst_tile_seal_random ((guint8 *) & o->token, sizeof (o->token)))
    o->token = ((guint64) g_random_int () << 32) | g_random_int ();
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    GstTileSenderUnit *u = &o->units[i];

    u->sender = self;
    u->owner = o;
    u->index = i;
    u->fd = -1;
    u->rate_sample.fd = u->bal_sample.fd = -1;
    g_queue_init (&u->queue);
    g_cond_init (&u->cond);
  }
}

/* The units that carry @o's frames from now on (the current CONFIG's
 * tiles among @units). Lock held. */
void
gst_tile_sender_owner_use_units_locked (GstTileSenderOwner * o,
    guint64 units)
{
  guint n = o->sender->config.n_tiles;

  if (n < GST_TILE_WIRE_MAX_UNITS)
    units &= (G_GUINT64_CONSTANT (1) << n) - 1;
  o->units_used = units;
  o->n_used = __builtin_popcountll (units);
}

/* Starts a thread per unit of the sender. Lock held. */
void
gst_tile_sender_owner_start_locked (GstTileSenderOwner * o)
{
  guint i;

  o->n_threads = o->sender->settings.n_units;
  for (i = 0; i < o->n_threads; i++) {
    gchar *name = g_strdup_printf ("tilesink-r%uu%u", o->id, i);

    o->units[i].thread =
        g_thread_new (name, gst_tile_sender_unit_thread, &o->units[i]);
    g_free (name);
  }
}

/* Wakes unit @tile of @o, or every unit (@tile G_MAXUINT), with the
 * connections that copy it. Lock held. */
void
gst_tile_sender_owner_wake_locked (GstTileSenderOwner * o, guint tile)
{
  guint i, k;

  for (i = 0; i < o->n_threads; i++) {
    if (tile != G_MAXUINT && i != tile)
      continue;
    g_cond_broadcast (&o->units[i].cond);
    for (k = 0; k < o->units[i].n_tcp_copies; k++)
      g_cond_broadcast (&o->units[i].tcp_copy[k]->cond);
  }
}

/* TCP, redundant paths: a connection of unit @u from another path of its
 * receiver (@path: its number on the wire) carries a copy of each of its
 * tiles, with a thread and a queue of its own (a copy made for an earlier
 * connection, closed since, is used again). NULL when the unit has
 * GST_TILE_WIRE_MAX_PATHS - 1 copies connected already. Lock held. */
GstTileSenderUnit *
gst_tile_sender_unit_copy_locked (GstTileSenderUnit * u, gint fd, guint path)
{
  GstTileSenderUnit *c = NULL;
  gchar *name;
  guint k;

  for (k = 0; k < u->n_tcp_copies && !c; k++)
    if (u->tcp_copy[k]->fd < 0 && !u->tcp_copy[k]->close_pending)
      c = u->tcp_copy[k];
  if (!c && u->n_tcp_copies >= G_N_ELEMENTS (u->tcp_copy))
    return NULL;
  if (!c) {
    c = g_new0 (GstTileSenderUnit, 1);
    c->sender = u->sender;
    c->owner = u->owner;
    c->index = u->index;
    c->primary = u;
    c->rate_sample.fd = c->bal_sample.fd = -1;
    g_queue_init (&c->queue);
    g_cond_init (&c->cond);
    u->tcp_copy[u->n_tcp_copies++] = c;
    name = g_strdup_printf ("tilesink-r%uu%uc%u", u->owner->id, u->index,
        u->n_tcp_copies);
    c->thread = g_thread_new (name, gst_tile_sender_unit_thread, c);
    g_free (name);
  }
  c->fd = fd;
  c->path = path;
  c->ns_per_byte = 0;
  return c;
}

/* Unit @u's connection, or with redundant paths any of its copies', is
 * up, other than @but's. Lock held. */
static gboolean
unit_other_connected (GstTileSenderUnit * u, GstTileSenderUnit * but)
{
  GstTileSenderUnit *p = u->primary ? u->primary : u;
  guint k;

  if (p != but && p->fd >= 0)
    return TRUE;
  for (k = 0; k < p->n_tcp_copies; k++)
    if (p->tcp_copy[k] != but && p->tcp_copy[k]->fd >= 0)
      return TRUE;
  return FALSE;
}

/* Stops the unit threads of @o (an ended peer out of the sender's list,
 * or the group at the stop) and drops the frames still queued to them.
 * Lock not held. */
void
gst_tile_sender_owner_join (GstTileSenderOwner * o)
{
  GstTileSender *self = o->sender;
  GstTileSenderFrame *frame;
  guint i, k;

  g_mutex_lock (&self->lock);
  o->stopping = TRUE;
  gst_tile_sender_owner_close_data_locked (o);
  gst_tile_sender_owner_wake_locked (o, G_MAXUINT);
  g_mutex_unlock (&self->lock);
  for (i = 0; i < o->n_threads; i++) {
    GstTileSenderUnit *u = &o->units[i];

    g_thread_join (u->thread);
    u->thread = NULL;
    /* (no copy is made once stopping: n_tcp_copies stays) */
    for (k = 0; k < u->n_tcp_copies; k++) {
      g_thread_join (u->tcp_copy[k]->thread);
      u->tcp_copy[k]->thread = NULL;
    }
  }
  g_mutex_lock (&self->lock);
  for (i = 0; i < o->n_threads; i++) {
    GstTileSenderUnit *u = &o->units[i];

    while ((frame = g_queue_pop_head (&u->queue)))
      gst_tile_sender_frame_release_locked (self, frame, i, FALSE);
    for (k = 0; k < u->n_tcp_copies; k++) {
      GstTileSenderUnit *c = u->tcp_copy[k];

      while ((frame = g_queue_pop_head (&c->queue)))
        gst_tile_sender_frame_release_locked (self, frame, i, FALSE);
      g_cond_clear (&c->cond);
      g_free (c);
      u->tcp_copy[k] = NULL;
    }
    u->n_tcp_copies = 0;
  }
  o->n_threads = 0;
  g_mutex_unlock (&self->lock);
}

/* Frees what a joined owner holds. */
void
gst_tile_sender_owner_clear (GstTileSenderOwner * o)
{
  guint i;

  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++)
    g_cond_clear (&o->units[i].cond);
}

/* The pacing rate of @o's units: its peer's rate control's, or the
 * group's (see gst_tile_sender_group_rate_locked ()). Lock held. */
guint64
gst_tile_sender_owner_rate_locked (GstTileSenderOwner * o)
{
  if (o->group)
    return gst_tile_sender_group_rate_locked (o->group);
  return gst_tile_rate_control_get_rate (&o->peer->flow.rate);
}

/* Settles @frame once no unit that can still send it has it: every unit
 * is done, or the ones left are stuck on a failed path (balanced tiles,
 * see gst_tile_sender_balance_paths_locked ()). It stops counting as in
 * flight then, and is counted. Lock held. */
static void
frame_settle_locked (GstTileSender * self, GstTileSenderFrame * frame)
{
  GstTileSenderOwner *o = frame->owner;

  if (frame->settled || (frame->redundant ? frame->units_left > 0 :
          frame->remaining > frame->stuck))
    return;
  frame->settled = TRUE;
  if (frame->path_failed) {
    o->counters.frames_path_failed++;
    self->totals.sum.frames_path_failed++;
  } else if (!frame->failed) {
    /* for QoS: how long frames take from admission to done */
    gint64 took = g_get_monotonic_time () - frame->push_us;

    o->send_avg_us = o->send_avg_us ? (7 * o->send_avg_us + took) / 8 : took;
    if (g_atomic_int_get (&frame->abandoned)) {
      o->counters.frames_abandoned++;
      self->totals.sum.frames_abandoned++;
    } else {
      o->counters.frames_sent++;
      self->totals.sum.frames_sent++;
    }
    gst_tile_sender_note_sent_locked (o, frame);
  }
  o->in_flight--;
  o->progress_us = g_get_monotonic_time ();
  g_cond_broadcast (&self->cond);
}

/* One unit (@unit) is done with @frame (sent its tile, or could not); with
 * redundant paths one of its connections: the unit is done once one of
 * them sent it, or none that holds it is left. Lock held. The frame stops
 * counting as in flight the moment its last tile is out (see
 * frame_settle_locked ()). Returns the frame when the caller must free it
 * with gst_tile_sender_frame_free() (after releasing the lock), NULL
 * otherwise. */
GstTileSenderFrame *
gst_tile_sender_frame_done_locked (GstTileSender * self,
    GstTileSenderFrame * frame, guint unit, gboolean ok)
{
  if (frame->redundant) {
    guint64 bit = G_GUINT64_CONSTANT (1) << unit;

    frame->holders[unit]--;
    if (!(frame->units_done & bit) && (ok || frame->holders[unit] == 0)) {
      frame->units_done |= bit;
      frame->units_left--;
      if (!ok)
        frame->failed = TRUE;
    }
  } else if (!ok) {
    frame->failed = TRUE;
  }
  frame->remaining--;
  frame_settle_locked (self, frame);
  return frame->remaining == 0 ? frame : NULL;
}

/* The last owner done with a frame unmaps and releases its buffer. */
void
gst_tile_sender_shared_unref (GstTileSenderShared * shared)
{
  if (!g_atomic_int_dec_and_test (&shared->ref))
    return;
  /* (gst_buffer_unmap () without the buffer: a stepped frame given up by
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

/* gst_tile_sender_frame_done_locked() and, when that was the last unit,
 * gst_tile_sender_frame_free() outside the lock. Lock held, and held again
 * on return. */
void
gst_tile_sender_frame_release_locked (GstTileSender * self,
    GstTileSenderFrame * frame, guint unit, gboolean ok)
{
  frame = gst_tile_sender_frame_done_locked (self, frame, unit, ok);
  if (!frame)
    return;
  g_mutex_unlock (&self->lock);
  gst_tile_sender_frame_free (frame);
  g_mutex_lock (&self->lock);
}

/* Unit @u is done with @frame, the frame it took from its queue (sent its
 * tile, or could not). Lock held. */
static void
unit_release_current_locked (GstTileSenderUnit * u, GstTileSenderFrame * frame,
    gboolean ok)
{
  if (u->current_stuck)
    frame->stuck--;
  u->current = NULL;
  u->current_stuck = FALSE;
  gst_tile_sender_frame_release_locked (u->sender, frame, u->index, ok);
}

/* Balanced tiles: how long a connection may have data to deliver and no
 * acknowledgement before its path counts as failed, ms (at least four
 * round trips) */
#define PATH_FAIL_MS 50

/* Balanced tiles: whether unit @u's connection (TCP_INFO @st) has failed
 * to deliver for @limit_ms: it has data in flight, or is sending and has
 * data the kernel could not send (a link down on our side), the
 * receiver's window is open (a receiver that does not read is not a
 * failed path), and nothing was acknowledged for @limit_ms since it last
 * began to send. Lock held. */
static gboolean
unit_path_stalled (GstTileSenderUnit * u, const GstTileNetTcpState * st,
    guint limit_ms, gint64 now)
{
  return (st->unacked > 0 || (u->sending && st->unsent > 0)) &&
      st->send_window > 0 && st->last_ack_ms >= limit_ms &&
      now - u->send_begin_us >= (gint64) limit_ms * 1000;
}

/* Rows of @frame on unit @u: whether it has any. */
static gboolean
unit_has_rows (GstTileSenderUnit * u, GstTileSenderFrame * frame)
{
  return frame->balanced && frame->bounds[u->index + 1] >
      frame->bounds[u->index];
}

/* Balanced tiles: unit @u's path failed. The frames in its queue go
 * without it (those with rows on it are lost: their receiver never
 * completes them), the frame its thread has counts it as stuck (it is
 * settled once the other units are done with it), and no frame goes to it
 * until it has delivered what it holds. Frames to free go to @freed.
 * Lock held. */
static void
unit_path_failed_locked (GstTileSenderUnit * u, GPtrArray ** freed)
{
  GstTileSender *self = u->sender;
  GstTileSenderFrame *f;

  GST_WARNING_OBJECT (self->log_object, "receiver %u unit %u: nothing "
      "acknowledged for %u ms with data to deliver: its path failed, its "
      "rows go to the other units", u->owner->id, u->index,
      u->bal_st.last_ack_ms);
  u->path_failed = TRUE;
  while ((f = g_queue_pop_head (&u->queue))) {
    g_atomic_int_add (&u->queued, -1);
    if (unit_has_rows (u, f))
      f->path_failed = TRUE;
    if ((f = gst_tile_sender_frame_done_locked (self, f, u->index, TRUE))) {
      if (!*freed)
        *freed = g_ptr_array_new ();
      g_ptr_array_add (*freed, f);
    }
  }
  if ((f = u->current) && !u->current_stuck) {
    u->current_stuck = TRUE;
    f->stuck++;
    if (unit_has_rows (u, f))
      f->path_failed = TRUE;
    frame_settle_locked (self, f);
  }
}

/**
 * gst_tile_sender_balance_paths_locked:
 * @o: an owner with balanced tiles (a peer with several paths, TCP)
 * @freed: (inout): where frames to free go (see
 *     gst_tile_sender_free_replaced ())
 *
 * Before a frame of @o is shared out: which of its units' paths have
 * failed, from TCP_INFO (kept for the rates, see
 * tilesender.c's unit_balance_rate_locked ()). A connection that has had
 * no acknowledgement for PATH_FAIL_MS (or four round trips) with data to
 * deliver (see unit_path_stalled ()) has failed (see
 * unit_path_failed_locked ()). The kernel goes on retransmitting; once the
 * unit has delivered everything (its thread idle, nothing unsent or
 * unacknowledged) it takes rows again. Lock held.
 *
 * Returns: the units used whose paths work
 */
guint
gst_tile_sender_balance_paths_locked (GstTileSenderOwner * o,
    GPtrArray ** freed)
{
  GstTileSender *self = o->sender;
  gint64 now = g_get_monotonic_time ();
  guint i, live = 0;

  for (i = 0; i < self->config.n_tiles; i++) {
    GstTileSenderUnit *u = &o->units[i];
    GstTileNetTcpState *st = &u->bal_st;
    guint limit_ms;

    if (!gst_tile_sender_owner_uses (o, i))
      continue;
    u->bal_st_ok = u->fd >= 0 && gst_tile_net_tcp_state (u->fd, st);
    if (u->bal_st_ok) {
      limit_ms = MAX (PATH_FAIL_MS, 4 * st->rtt_us / 1000);
      GST_LOG_OBJECT (self->log_object, "receiver %u unit %u: %u unacked, "
          "last ACK %u ms ago, %" G_GUINT64_FORMAT " unsent, window %u, "
          "rtt %u us, send began %" G_GINT64_FORMAT " us ago%s%s", o->id,
          u->index, st->unacked, st->last_ack_ms, st->unsent,
          st->send_window, st->rtt_us, now - u->send_begin_us,
          u->sending ? ", sending" : "", u->path_failed ? ", failed" : "");
      if (!u->path_failed && unit_path_stalled (u, st, limit_ms, now)) {
        unit_path_failed_locked (u, freed);
      } else if (u->path_failed && !u->current &&
          g_queue_is_empty (&u->queue) && st->unacked == 0 &&
          st->unsent == 0) {
        GST_WARNING_OBJECT (self->log_object, "receiver %u unit %u: "
            "everything it had delivered, its path works again", o->id,
            u->index);
        u->path_failed = FALSE;
        u->bal_resample = TRUE;
      }
    }
    live += !u->path_failed;
  }
  return live;
}

/* Closes the connection of unit (or copy) @u. Lock held. In the middle of
 * a send() its thread is woken by the shutdown() and closes the
 * descriptor afterwards. */
static void
unit_close_locked (GstTileSenderUnit * u)
{
  if (u->fd < 0)
    return;
  if (u->sending) {
    gst_tile_net_shutdown (u->fd);
    u->close_pending = TRUE;
    u->fd = -1;
  } else {
    gst_tile_net_close (&u->fd);
  }
}

/* Closes the data connections of @o's current generation. Lock held. */
void
gst_tile_sender_owner_close_data_locked (GstTileSenderOwner * o)
{
  guint i;

  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    GstTileSenderUnit *u = &o->units[i];
    guint k;

    for (k = 0; k < u->n_tcp_copies; k++)
      unit_close_locked (u->tcp_copy[k]);

    for (k = 0; k < u->n_copies; k++) {
      if (u->sending) {
        gst_tile_net_shutdown (u->copy_fd[k]);
        u->copy_closing[u->n_copy_closing++] = u->copy_fd[k];
      } else {
        gst_tile_net_close (&u->copy_fd[k]);
      }
    }
    u->n_copies = 0;
    unit_close_locked (u);
  }
  o->n_connected = 0;
}

/* Frames in flight to every owner. Lock held. */
static guint
in_flight_locked (GstTileSender * self)
{
  GstTileSenderOwner *o;
  guint i, n = 0;

  for (i = 0; (o = gst_tile_sender_owner_at (self, i)); i++)
    n += o->in_flight;
  return n;
}

/* Draining: an owner with frames in flight and no frame done for
 * DRAIN_STALL_US (or three of its frame times) since @start has its data
 * connections closed: its frames fail at once, lost for its receivers
 * alone. Lock held. */
static void
give_up_stalled_locked (GstTileSender * self, gint64 start, gint64 now)
{
  GstTileSenderOwner *o;
  guint i;

  for (i = 0; (o = gst_tile_sender_owner_at (self, i)); i++) {
    if (o->in_flight == 0 || o->n_connected == 0)
      continue;
    if (now - MAX (o->progress_us, start) < MAX (DRAIN_STALL_US,
            3 * o->send_avg_us))
      continue;
    GST_WARNING_OBJECT (self->log_object, "receiver %u: no frame done for "
        "%" G_GINT64_FORMAT " ms while draining: giving up its %u frames in "
        "flight", o->id, (now - MAX (o->progress_us, start)) / 1000,
        o->in_flight);
    gst_tile_sender_owner_close_data_locked (o);
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
  /* (redundant paths: a connection behind gives up its copy alone, the
   * others may still deliver the tile) */
  if (!frame->redundant)
    g_atomic_int_set (&frame->abandoned, 1);
  return TRUE;
}

/* Writes a part of @frame's tile: its header @hdr and the @len bytes at
 * @data, @off bytes into the tile. In a sealed session the
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
  const gsize hdr_len = frame->balanced ?
      GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED :
      GST_TILE_WIRE_TILE_HEADER_SIZE;

  *bytes += hdr_len + len;
  if (!frame->sealed && len == 0)
    return gst_tile_net_write_all (fd, hdr, hdr_len, 0,
        err);
  if (!frame->sealed) {
    /* MSG_MORE: the header leaves in the same segment as the data */
    return gst_tile_net_write_more (fd, hdr, hdr_len,
        err) && gst_tile_net_write_all (fd, data, len, chunk, err);
  }
  sealed = gst_tile_sender_scratch_seal (sc, frame,
      MIN (len, GST_TILE_SENDER_SEAL_CHUNK));
  gst_tile_seal_iv (iv, TRUE, u->index, frame->number, off);
  gst_tile_seal_begin (sc->seal, iv, hdr, hdr_len);
  if (!gst_tile_net_write_more (fd, hdr, hdr_len, err))
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

/* A tile header of @frame's session: with balanced tiles, the rows too */
static void
write_header (GstTileSenderFrame * frame, guint8 * hdr,
    const GstTileWireTileHeader * th)
{
  if (frame->balanced)
    gst_tile_wire_tile_header_write_balanced (hdr, th);
  else
    gst_tile_wire_tile_header_write (hdr, th);
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
  guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED];
  guint64 off = 0;

  th.generation = frame->generation;
  th.frame = frame->number;
  th.timestamp = frame->timestamp;
  th.capture = frame->capture;
  th.first_row = frame->balanced ? frame->bounds[u->index] : 0;
  th.rows = frame->balanced ? frame->bounds[u->index + 1] -
      frame->bounds[u->index] : 0;
  *bytes = 0;
  if (frame->balanced && th.rows == 0) {
    /* no rows of this frame on this unit: an empty part says so */
    th.size = th.flags = 0;
    gst_tile_wire_tile_header_write_balanced (hdr, &th);
    return unit_write_part (u, sc, fd, frame, hdr, 0, NULL, 0, 0, bytes,
        err);
  }
  while (off < tile->size) {
    if (gst_tile_sender_unit_abandons (u, frame, tile->size - off,
            u->ns_per_byte)) {
      th.size = 0;
      th.flags = GST_TILE_WIRE_TILE_FLAG_ABANDON;
      write_header (frame, hdr, &th);
      GST_LOG_OBJECT (self->log_object, "unit %u: frame %" G_GUINT64_FORMAT
          " abandoned after %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
          " bytes", u->index, frame->number, off, tile->size);
      return unit_write_part (u, sc, fd, frame, hdr, off, NULL, 0, 0, bytes,
          err);
    }
    th.size = MIN (part, tile->size - off);
    th.flags = off + th.size < tile->size ? GST_TILE_WIRE_TILE_FLAG_MORE : 0;
    write_header (frame, hdr, &th);
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

/* A send begins: the unit's copy sockets (redundant paths) or its sockets
 * on each path with their shares (striped datagrams,
 * gst_tile_sender_peer_stripe_locked ()) into @sc, for the unit thread to
 * use unlocked. Returns the unit's pace, bits/s (0: none). Lock held. */
static guint64
unit_send_begin_locked (GstTileSenderUnit * u, GstTileSenderScratch * sc)
{
  GstTileSenderOwner *o = u->owner;
  guint64 rate;

  sc->n_copies = u->n_copies;
  memcpy (sc->copy_fd, u->copy_fd, sizeof (gint) * u->n_copies);
  sc->copies_sent = sc->copies_dropped = sc->primary_failed = 0;
  memset (sc->path_packets, 0, sizeof (sc->path_packets));
  sc->stripe = FALSE;
  sc->stripe_failed = 0;
  u->sending = TRUE;
  u->send_begin_us = g_get_monotonic_time ();
  rate = gst_tile_sender_owner_rate_locked (o) / MAX (o->n_used, 1);
  if (o->peer && o->peer->striped && u->n_copies > 0) {
    sc->n_copies = 0;           /* (no copies: the sockets take turns) */
    gst_tile_sender_peer_stripe_locked (o->peer, u, sc);
  }
  return rate;
}

/* A send ended: what went over the copies counted, and the copy sockets
 * closed during it closed now. Lock held. */
static void
unit_send_end_locked (GstTileSenderUnit * u, GstTileSenderScratch * sc)
{
  GstTileSenderCounters *c = &u->owner->counters;

  u->sending = FALSE;
  c->copies_sent += sc->copies_sent;
  c->copies_dropped += sc->copies_dropped;
  c->primary_failed += sc->primary_failed;
  sc->copies_sent = sc->copies_dropped = sc->primary_failed = 0;
  while (u->n_copy_closing > 0)
    gst_tile_net_close (&u->copy_closing[--u->n_copy_closing]);
}

/* Counts what a unit sent and settles the frame and the connection after
 * a send. Lock held. */
static void
unit_sent_locked (GstTileSenderUnit * u, GstTileSenderScratch * sc,
    GstTileSenderFrame * frame, gint fd, gboolean ok, guint64 bytes,
    guint64 n_packets, guint64 n_parity, gint64 t0, GError * err)
{
  GstTileSender *self = u->sender;
  GstTileSenderOwner *o = u->owner;
  gint64 now = g_get_monotonic_time ();
  guint k;

  unit_send_end_locked (u, sc);
  u->busy_ns += (now - t0) * 1000;
  self->totals.unit_busy_ns[u->index] += (now - t0) * 1000;
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
    /* the frame's data datagrams, what the receiver's ACK counts (parity,
     * the same size, is not in it) */
    frame->bytes += n_packets ? bytes / n_packets * (n_packets - n_parity) :
        bytes;
    frame->packets += n_packets - n_parity;
    /* striped datagrams: over which path they went (a unit with one
     * socket: all over its own) */
    if (sc->stripe) {
      for (k = 0; k < GST_TILE_WIRE_MAX_PATHS; k++) {
        frame->path_packets[k] += sc->path_packets[k];
        o->counters.path_packets[k] += sc->path_packets[k];
      }
    } else if (u->path < GST_TILE_WIRE_MAX_PATHS) {
      frame->path_packets[u->path] += n_packets - n_parity;
      o->counters.path_packets[u->path] += n_packets - n_parity;
    }
    o->counters.stripe_failed += sc->stripe_failed;
    u->bytes += bytes;
    u->frames++;
    u->packets += n_packets;
    self->totals.unit_bytes[u->index] += bytes;
    o->counters.packets_sent += n_packets;
    o->counters.bytes_sent += bytes;
    o->counters.fec_packets_sent += n_parity;
    self->totals.sum.fec_packets_sent += n_parity;
    self->totals.sum.packets_sent += n_packets;
    self->totals.sum.bytes_sent += bytes;
  }
  if (ok && u->primary)
    o->counters.copies_sent++;
  if (u->close_pending) {
    gst_tile_net_close (&fd);
    u->close_pending = FALSE;
  } else if (!ok && frame->redundant && unit_other_connected (u, u)) {
    /* redundant paths: this path's connection is lost (its user timeout
     * passed), the unit's others go on */
    GST_WARNING_OBJECT (self->log_object, "receiver %u unit %u: the "
        "connection over path %u failed (%s), going on over the others",
        o->id, u->index, u->path, err->message);
    o->counters.copies_dropped++;
    unit_close_locked (u);
  } else if (!ok) {
    GST_INFO_OBJECT (self->log_object, "receiver %u unit %u: %s", o->id,
        u->index, err->message);
    /* (a unit of the multicast group that fails ends no session) */
    if (o->peer)
      gst_tile_sender_peer_end_locked (o->peer, err->message);
  }
  unit_release_current_locked (u, frame, ok);
}

/* protocol=udp: NACKs wait and no frame does: the datagrams asked for
 * are sent again now (tilesender-resend.c). Lock held, released while
 * sending. */
static void
unit_resend_locked (GstTileSenderUnit * u, GstTileSenderScratch * sc)
{
  GstTileSender *self = u->sender;
  gint fd = u->fd;
  guint64 rate;

  if (fd < 0) {
    g_atomic_int_set (&u->resend_pending, 0);
    return;
  }
  rate = unit_send_begin_locked (u, sc);
  g_mutex_unlock (&self->lock);
  gst_tile_sender_resend_serve (u, sc, fd, rate);
  g_mutex_lock (&self->lock);
  unit_send_end_locked (u, sc);
  if (u->close_pending) {
    gst_tile_net_close (&fd);
    u->close_pending = FALSE;
  }
}

/* Whether the rows @u sends of a stepped @frame are written: its tile, or
 * with balanced tiles (rows that do not follow the producer's tiles) the
 * whole frame. Lock held. */
static gboolean
rows_ready_locked (GstTileSenderUnit * u, GstTileSenderFrame * frame)
{
  guint i;

  if (!frame->balanced)
    return frame->shared->ready[u->index];
  for (i = 0; i < u->sender->config.n_tiles; i++)
    if (!frame->shared->ready[i])
      return FALSE;
  return TRUE;
}

gpointer
gst_tile_sender_unit_thread (gpointer data)
{
  GstTileSenderUnit *u = data;
  GstTileSender *self = u->sender;
  GstTileSenderOwner *o = u->owner;
  GstTileSenderScratch sc = { 0 };

  g_mutex_lock (&self->lock);
  gst_tile_sender_resend_unit_start_locked (u);
  while (TRUE) {
    GstTileSenderFrame *frame;
    GstTileWireTile tile;
    guint64 rate, n_packets = 0, n_parity = 0, bytes = 0;
    guint ps;
    GError *err = NULL;
    gint fd;
    gint64 t0;
    gboolean ok;

    while (self->running && !o->stopping && g_queue_is_empty (&u->queue)
        && !gst_tile_sender_resend_waiting (u))
      g_cond_wait (&u->cond, &self->lock);
    if (!self->running || o->stopping)
      break;
    if (g_queue_is_empty (&u->queue)) {
      unit_resend_locked (u, &sc);
      continue;
    }
    frame = g_queue_pop_head (&u->queue);
    g_atomic_int_add (&u->queued, -1);
    frame->started++;
    u->current = frame;
    /* a stepped frame, still being written (gst_tile_sender_new_pool ()):
     * this unit's tile goes once it is */
    while (frame->shared->stepped && !rows_ready_locked (u, frame) &&
        !frame->shared->aborted && self->running && !o->stopping &&
        frame->generation == self->config.generation)
      g_cond_wait (&u->cond, &self->lock);
    fd = u->fd;
    if (fd < 0 || frame->generation != self->config.generation ||
        !self->running || o->stopping) {
      unit_release_current_locked (u, frame, FALSE);
      continue;
    }
    /* given up unwritten by its producer: TCP says the tile is abandoned,
     * UDP sends nothing of it */
    if (frame->shared->stepped && !rows_ready_locked (u, frame))
      g_atomic_int_set (&frame->abandoned, 1);
    /* copies: a caps change may replace the config while we send */
    tile = self->config.tiles[u->index];
    if (frame->balanced) {
      tile.offset = frame->bounds[u->index] * self->config.row_bytes;
      tile.size = (frame->bounds[u->index + 1] - frame->bounds[u->index]) *
          self->config.row_bytes;
    }
    ps = self->config.packet_size;
    rate = unit_send_begin_locked (u, &sc);
    g_mutex_unlock (&self->lock);

    t0 = g_get_monotonic_time ();
    if (self->settings.protocol == GST_TILE_WIRE_PROTOCOL_UDP) {
      gst_tile_sender_resend_hold (u, frame, &tile, ps);
      ok = gst_tile_sender_send_tile_udp (u, &sc, fd, frame, &tile, ps, rate,
          &n_packets, &n_parity, &err);
      bytes = n_packets * (ps +
          GST_TILE_WIRE_DATAGRAM_OVERHEAD (frame->sealed));
    } else {
      ok = unit_send_tile_tcp (u, &sc, fd, frame, &tile, &bytes, &err);
    }

    g_mutex_lock (&self->lock);
    unit_sent_locked (u, &sc, frame, fd, ok, bytes, n_packets, n_parity, t0,
        err);
    g_clear_error (&err);
  }
  g_mutex_unlock (&self->lock);
  gst_tile_sender_resend_unit_stop (u);
  gst_tile_sender_scratch_clear (&sc);
  return NULL;
}
