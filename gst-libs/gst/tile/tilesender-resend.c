/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GstTileSender, protocol=udp: retransmission. A receiver's NACK (on its
 * control connection, so from the session's validated receiver only)
 * asks for datagrams of one tile of one frame again. The server thread
 * checks it against the session (generation, unit, a frame already sent,
 * datagrams inside the tile), takes what the peer's token bucket allows
 * and queues the asks to the unit; the unit thread sends them again from
 * the frames it still holds (GstTileSenderResend: the newest two frames, or
 * with max-latency the frames whose deadline has not passed, up to
 * RESEND_HOLD), between two batches of the tile it is sending, paced at
 * the unit's rate like every datagram (resends delay the datagrams after
 * them: they count against pacing-bitrate and the rate control). A
 * resend is the datagram sealed again under the same key and IV: the
 * same bytes. Over multicast the group's units send it to the group. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "tilesender-private.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>

/* frames a unit keeps for NACKs at most (with max-latency; without, the
 * newest RESEND_KEEP: the previous frame too, whose timer NACKs come
 * while the next one is being sent) */
#define RESEND_HOLD 4
#define RESEND_KEEP 2
/* datagram ranges asked and not sent yet, per unit: more are dropped
 * (counted in retransmits-limited) */
#define RESEND_ASKS 256
/* datagrams sent again per system call */
#define RESEND_BATCH 64
/* a frame's datagrams are sent again at most this many times its own */
#define RESEND_PER_FRAME 2
/* a peer's NACKs may have at most this share of its pacing rate sent
 * again (the datagrams' bytes), in bursts of RESEND_BURST_S of it; without
 * a pacing rate, of RESEND_UNPACED_RATE */
#define RESEND_SHARE 0.25
#define RESEND_BURST_S 0.1
#define RESEND_UNPACED_RATE (1000 * 1000 * 1000)
#define RESEND_MIN_BURST 64.0


typedef struct
{
  guint64 number;
  guint32 generation;
  guint32 first;
  guint32 count;
} ResendAsk;

typedef struct
{
  GstTileSenderFrame frame;     /* a copy; frame.shared: our reference */
  GstTileWireTile tile;
  guint ps;
  guint n;                      /* datagrams of the tile */
  guint64 resent;
} ResendHeld;

struct _GstTileSenderResend
{
  /* the asks: lock */
  ResendAsk asks[RESEND_ASKS];
  guint n_asks;
  /* the unit thread's */
  ResendAsk work[RESEND_ASKS];
  ResendHeld held[RESEND_HOLD];
  guint n_held;
  GstTileSenderScratch sc;      /* its own: the tile's sealed bytes stay */
  guint8 *headers;
  struct iovec *iov;
  struct mmsghdr *msgs;
};

/* The unit thread starts (protocol=udp with retransmit): it keeps frames
 * for NACKs from now on. Lock held. */
void
gst_tile_sender_resend_unit_start_locked (GstTileSenderUnit * u)
{
  GstTileSenderResend *rs;

  if (u->sender->settings.protocol != GST_TILE_WIRE_PROTOCOL_UDP ||
      !u->sender->settings.retransmit || u->resend)
    return;
  rs = g_new0 (GstTileSenderResend, 1);
  rs->headers = g_malloc ((gsize) RESEND_BATCH *
      GST_TILE_WIRE_DATAGRAM_OVERHEAD (TRUE));
  rs->iov = g_new (struct iovec, 3 * RESEND_BATCH);
  rs->msgs = g_new0 (struct mmsghdr, RESEND_BATCH);
  u->resend = rs;
}

static void
held_drop (ResendHeld * h)
{
  gst_tile_sender_shared_unref (h->frame.shared);
  h->frame.shared = NULL;
}

/* The unit thread ends: the frames it kept are let go. Lock not held. */
void
gst_tile_sender_resend_unit_stop (GstTileSenderUnit * u)
{
  GstTileSender *self = u->sender;
  GstTileSenderResend *rs;
  guint i;

  g_mutex_lock (&self->lock);
  rs = u->resend;
  u->resend = NULL;
  g_atomic_int_set (&u->resend_pending, 0);
  g_mutex_unlock (&self->lock);
  if (!rs)
    return;
  for (i = 0; i < rs->n_held; i++)
    held_drop (&rs->held[i]);
  gst_tile_sender_scratch_clear (&rs->sc);
  g_free (rs->headers);
  g_free (rs->iov);
  g_free (rs->msgs);
  g_free (rs);
}

/* Whether the unit still holds @h for NACKs at @now: with a deadline
 * (max-latency) until it, else while it is one of the unit's newest
 * RESEND_KEEP frames. */
static gboolean
held_alive (GstTileSenderResend * rs, guint i, gint64 now)
{
  ResendHeld *h = &rs->held[i];

  if (g_atomic_int_get (&h->frame.abandoned))
    return FALSE;
  if (h->frame.deadline_us)
    return now <= h->frame.deadline_us;
  return i + RESEND_KEEP >= rs->n_held;
}

/* Lets go of the frames no longer held. Unit thread, lock not held (the
 * last reference to a buffer may go back to a pool that takes locks). */
static void
held_expire (GstTileSenderResend * rs, gint64 now)
{
  guint i, k = 0;

  for (i = 0; i < rs->n_held; i++) {
    if (held_alive (rs, i, now))
      rs->held[k++] = rs->held[i];
    else
      held_drop (&rs->held[i]);
  }
  rs->n_held = k;
}

/* Unit @u is about to send its tile of @frame: it keeps it (a reference
 * to its bytes) for the NACKs to come, and lets go of those past their
 * time. Unit thread, lock not held. */
void
gst_tile_sender_resend_hold (GstTileSenderUnit * u,
    const GstTileSenderFrame * frame, const GstTileWireTile * tile, guint ps)
{
  GstTileSenderResend *rs = u->resend;
  ResendHeld *h;

  if (!rs)
    return;
  if (rs->n_held == RESEND_HOLD) {
    held_drop (&rs->held[0]);
    memmove (&rs->held[0], &rs->held[1], sizeof (ResendHeld) *
        (RESEND_HOLD - 1));
    rs->n_held--;
  }
  h = &rs->held[rs->n_held++];
  h->frame = *frame;
  g_atomic_int_inc (&frame->shared->ref);
  h->tile = *tile;
  h->ps = ps;
  h->n = gst_tile_wire_packets_per_tile (tile->size, ps);
  h->resent = 0;
  held_expire (rs, g_get_monotonic_time ());
}

/* The bucket of @peer's resends: refilled at RESEND_SHARE of its pacing
 * rate. Lock held. */
static guint64
peer_tokens_locked (GstTileSenderPeer * peer, guint seg, gint64 now)
{
  guint64 rate = gst_tile_rate_control_get_rate (&peer->flow.rate);
  gdouble per_s = RESEND_SHARE * (rate ? rate : RESEND_UNPACED_RATE) / 8.0 /
      seg;
  gdouble burst = MAX (RESEND_MIN_BURST, per_s * RESEND_BURST_S);

  if (peer->nack_refill_us == 0)
    peer->nack_tokens = burst;
  else
    peer->nack_tokens += per_s * (now - peer->nack_refill_us) / 1e6;
  peer->nack_tokens = MIN (peer->nack_tokens, burst);
  peer->nack_refill_us = now;
  return (guint64) peer->nack_tokens;
}

static void
count_locked (GstTileSender * self, GstTileSenderOwner * o, gsize field,
    guint64 n)
{
  *(guint64 *) ((guint8 *) & o->counters + field) += n;
  *(guint64 *) ((guint8 *) & self->totals.sum + field) += n;
}

#define COUNT(self, o, f, n) \
    count_locked (self, o, G_STRUCT_OFFSET (GstTileSenderCounters, f), n)

/* A NACK from @peer's receiver (its control connection: the session's
 * validated receiver). Refused (counted) unless for the current
 * generation, a unit of the peer's, a frame already sent and datagrams
 * inside the tile; the datagrams beyond the peer's token bucket or the
 * unit's queue are dropped (counted); the rest is queued to the unit.
 * Lock held. */
void
gst_tile_sender_resend_nack_locked (GstTileSenderPeer * peer,
    const GstTileWireNack * nack)
{
  GstTileSender *self = peer->owner.sender;
  GstTileSenderOwner *o = gst_tile_sender_peer_data_owner (peer);
  GstTileSenderOwner *po = &peer->owner;
  GstTileSenderUnit *u;
  GstTileSenderResend *rs;
  guint ps, seg, n, i;
  guint64 tokens, queued = 0, limited = 0;

  COUNT (self, po, nacks_received, 1);
  if (!self->settings.retransmit ||
      self->settings.protocol != GST_TILE_WIRE_PROTOCOL_UDP ||
      !self->have_config || nack->generation != self->config.generation ||
      !gst_tile_sender_owner_uses (o, nack->unit) ||
      !gst_tile_sender_owner_uses (po, nack->unit) ||
      nack->unit >= o->n_threads || !(rs = o->units[nack->unit].resend) ||
      nack->frame >= o->next_frame) {
    GST_LOG_OBJECT (self->log_object, "receiver %u: NACK of frame %"
        G_GUINT64_FORMAT " unit %u refused", po->id, nack->frame, nack->unit);
    COUNT (self, po, nacks_refused, 1);
    return;
  }
  u = &o->units[nack->unit];
  ps = self->config.packet_size;
  n = gst_tile_wire_packets_per_tile (self->config.tiles[nack->unit].size,
      ps);
  if ((guint64) nack->ranges[nack->n_ranges - 1].first +
      nack->ranges[nack->n_ranges - 1].count > n) {
    GST_LOG_OBJECT (self->log_object, "receiver %u: NACK past the %u "
        "datagrams of tile %u refused", po->id, n, nack->unit);
    COUNT (self, po, nacks_refused, 1);
    return;
  }
  seg = GST_TILE_WIRE_DATAGRAM_OVERHEAD (self->crypto.passphrase != NULL) +
      ps;
  tokens = peer_tokens_locked (peer, seg, g_get_monotonic_time ());
  for (i = 0; i < nack->n_ranges; i++) {
    guint32 count = nack->ranges[i].count;
    ResendAsk *a;

    if (count > tokens - queued || rs->n_asks == RESEND_ASKS) {
      guint32 take = rs->n_asks == RESEND_ASKS ? 0 :
          (guint32) (tokens - queued);

      limited += count - take;
      count = take;
    }
    if (count == 0)
      continue;
    a = &rs->asks[rs->n_asks++];
    a->number = nack->frame;
    a->generation = nack->generation;
    a->first = nack->ranges[i].first;
    a->count = count;
    queued += count;
  }
  peer->nack_tokens -= queued;
  if (limited)
    COUNT (self, po, retransmits_limited, limited);
  if (queued) {
    g_atomic_int_set (&u->resend_pending, 1);
    gst_tile_sender_owner_wake_locked (o, nack->unit);
  }
}

/* Sends datagrams @first .. @first + @count - 1 of @h again, a batch at a
 * time. Returns the datagrams sent. */
static guint64
resend_range (GstTileSenderUnit * u, GstTileSenderResend * rs,
    GstTileSenderScratch * sc, gint fd, ResendHeld * h, guint32 first,
    guint32 count, guint64 rate)
{
  GstTileSenderFrame *frame = &h->frame;
  const guint8 *data = frame->data + h->tile.offset;
  guint hl = GST_TILE_WIRE_DATAGRAM_OVERHEAD (frame->sealed);
  guint seg = hl + h->ps;
  GstTileWirePacketHeader ph;
  guint64 sent = 0;
  guint8 *sealed = NULL;

  if (frame->sealed)
    sealed = gst_tile_sender_scratch_seal (&rs->sc, frame,
        (gsize) RESEND_BATCH * h->ps);
  ph.unit = u->index;
  ph.generation = frame->generation;
  ph.frame = frame->number;
  ph.timestamp = frame->timestamp;
  ph.capture = frame->capture;
  ph.token = frame->token;
  ph.flags = 0;
  while (count > 0) {
    guint k, m = MIN (count, RESEND_BATCH);
    gint r;
    GError *err = NULL;

    for (k = 0; k < m; k++) {
      gsize off = (gsize) (first + k) * h->ps;
      struct iovec *iov = &rs->iov[3 * k];
      struct msghdr *msg = &rs->msgs[k].msg_hdr;

      gst_tile_sender_udp_data_datagram (sealed ? rs->sc.seal : NULL,
          u->index, &ph, rs->headers + (gsize) k * hl, hl, data, off,
          MIN (h->ps, h->tile.size - off), h->ps,
          sealed ? sealed + (gsize) k * h->ps : NULL, iov);
      memset (msg, 0, sizeof (*msg));
      msg->msg_iov = iov;
      msg->msg_iovlen = 3;
    }
    /* (a unit socket with UDP_SEGMENT set sends a lone datagram as is) */
    if (sc->n_copies > 0) {
      gst_tile_sender_udp_send_redundant (sc, fd, rs->msgs, m);
      r = m;
    } else if (sc->stripe) {
      r = gst_tile_sender_udp_send_resend (sc, fd, rs->msgs, m);
    } else {
      r = gst_tile_net_udp_send_batch (fd, rs->msgs, m, &err);
    }
    if (r <= 0) {
      GST_DEBUG_OBJECT (u->sender->log_object, "unit %u: resend failed: %s",
          u->index, err ? err->message : "nothing sent");
      g_clear_error (&err);
      break;
    }
    sent += r;
    if (rate)
      gst_tile_sender_udp_pace (sc, (gsize) r * (seg + 28), rate);
    first += r;
    count -= r;
  }
  return sent;
}

/* Sends again what the NACKs asked for, from the frames unit @u holds
 * (its thread, between two batches or two frames; lock not held), paced
 * with its tiles (@sc's pace, @rate). */
void
gst_tile_sender_resend_serve (GstTileSenderUnit * u,
    GstTileSenderScratch * sc, gint fd, guint64 rate)
{
  GstTileSender *self = u->sender;
  GstTileSenderResend *rs = u->resend;
  guint n_work, i, j;
  guint64 sent = 0, refused = 0, limited = 0, bytes = 0;

  if (!rs)
    return;
  g_mutex_lock (&self->lock);
  g_atomic_int_set (&u->resend_pending, 0);
  n_work = rs->n_asks;
  memcpy (rs->work, rs->asks, sizeof (ResendAsk) * n_work);
  rs->n_asks = 0;
  g_mutex_unlock (&self->lock);

  held_expire (rs, g_get_monotonic_time ());
  for (i = 0; i < n_work; i++) {
    ResendAsk *a = &rs->work[i];
    ResendHeld *h = NULL;
    guint32 count = a->count;
    guint64 n;

    for (j = 0; j < rs->n_held; j++)
      if (rs->held[j].frame.number == a->number &&
          rs->held[j].frame.generation == a->generation)
        h = &rs->held[j];
    /* (a frame no longer held, or a tile of another size: refused) */
    if (!h || (guint64) a->first + count > h->n) {
      refused++;
      continue;
    }
    if (h->resent + count > (guint64) RESEND_PER_FRAME * h->n) {
      guint64 take = (guint64) RESEND_PER_FRAME * h->n - MIN (h->resent,
          (guint64) RESEND_PER_FRAME * h->n);

      limited += count - take;
      count = take;
    }
    if (count == 0)
      continue;
    n = resend_range (u, rs, sc, fd, h, a->first, count, rate);
    h->resent += n;
    sent += n;
    bytes += n * (GST_TILE_WIRE_DATAGRAM_OVERHEAD (h->frame.sealed) + h->ps);
  }

  g_mutex_lock (&self->lock);
  {
    GstTileSenderOwner *o = u->owner;

    o->counters.packets_retransmitted += sent;
    self->totals.sum.packets_retransmitted += sent;
    o->counters.nacks_refused += refused;
    self->totals.sum.nacks_refused += refused;
    o->counters.retransmits_limited += limited;
    self->totals.sum.retransmits_limited += limited;
    o->counters.bytes_sent += bytes;
    self->totals.sum.bytes_sent += bytes;
    u->bytes += bytes;
    self->totals.unit_bytes[u->index] += bytes;
  }
  g_mutex_unlock (&self->lock);
}
