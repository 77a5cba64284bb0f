/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GstTileSender, protocol=udp: a tile as a batch of datagrams (a 48-byte
 * header and packet_size payload bytes each, gathered from the frame
 * without a copy), sent with sendmmsg() and UDP GSO, paced to a bitrate
 * (the unit's owner's, see gst_tile_sender_owner_rate_locked ()); and a
 * unit thread's scratch (GstTileSenderScratch: the datagrams' headers and
 * messages, and in a sealed session the cipher keyed per generation and
 * epoch, and the sealed bytes, also for TCP). */

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

static const guint8 udp_zeros[GST_TILE_WIRE_MAX_PACKET_PAYLOAD];

void
gst_tile_sender_scratch_clear (GstTileSenderScratch * sc)
{
  g_free (sc->headers);
  g_free (sc->iov);
  g_free (sc->msgs);
  gst_tile_seal_free (sc->seal);
  g_free (sc->sealed);
  gst_tile_sender_fec_clear (sc);
  memset (sc, 0, sizeof (*sc));
}

/* The cipher keyed for @frame (its session's or the multicast group's
 * data key of its generation and epoch of frames, derived here, in the
 * unit's thread, when they change), and room for @size sealed bytes
 * (returned). */
guint8 *
gst_tile_sender_scratch_seal (GstTileSenderScratch * sc,
    const GstTileSenderFrame * frame, gsize size)
{
  guint64 epoch = frame->number / GST_TILE_KEYS_EPOCH_FRAMES;

  if (!sc->seal)
    sc->seal = gst_tile_seal_new (TRUE);
  if (!sc->have_key || sc->key_secret != frame->secret ||
      sc->key_generation != frame->generation || sc->key_epoch != epoch) {
    guint8 key[GST_TILE_SEAL_KEY_SIZE];

    gst_tile_keys_data_key (frame->secret, frame->generation, frame->number,
        key);
    gst_tile_seal_set_key (sc->seal, key);
    gst_tile_seal_wipe (key, sizeof (key));
    sc->have_key = TRUE;
    sc->key_secret = frame->secret;
    sc->key_generation = frame->generation;
    sc->key_epoch = epoch;
  }
  if (size > sc->sealed_alloc) {
    g_free (sc->sealed);
    sc->sealed = g_malloc (size);
    sc->sealed_alloc = size;
  }
  return sc->sealed;
}

/* Sleeps until @bytes more may leave at @rate bits/s: the unit's pace
 * (@sc's), shared by its tiles and its resends. */
void
gst_tile_sender_udp_pace (GstTileSenderScratch * sc, gsize bytes,
    guint64 rate)
{
  gint64 now = (gint64) gst_util_get_timestamp ();

  if (sc->pace_next < now - 1000000)
    sc->pace_next = now;        /* no credit for idle time beyond 1 ms */
  sc->pace_next += gst_util_uint64_scale (bytes * 8, GST_SECOND, rate);
  if (sc->pace_next > now) {
    struct timespec ts;

    ts.tv_sec = sc->pace_next / GST_SECOND;
    ts.tv_nsec = sc->pace_next % GST_SECOND;
    while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
        EINTR);
  }
}

/* Parity datagram @p of @l, its payload at @payload, into datagram @i of
 * @sc (after the tile's data datagrams); sealed in place with a
 * passphrase, with a nonce of its own kind (GST_TILE_SEAL_IV_PARITY). */
static void
udp_parity_datagram (GstTileSenderScratch * sc, const GstTileSenderUnit * u,
    const GstTileSenderFrame * frame, GstTileWirePacketHeader * ph,
    const GstTileFecLayout * l, guint ps, guint hl, guint i, guint32 p)
{
  guint8 *h = sc->headers + (gsize) i * hl;
  guint8 *payload = sc->parity + (gsize) p * ps;
  struct iovec *iov = &sc->iov[3 * i];

  ph->flags = GST_TILE_WIRE_PACKET_FLAG_PARITY;
  ph->offset = gst_tile_wire_parity_offset (l->span, l->parity, p);
  gst_tile_wire_packet_header_write (h, ph);
  if (frame->sealed) {
    guint8 iv[GST_TILE_SEAL_IV_SIZE];

    gst_tile_seal_iv (iv, FALSE, u->index | GST_TILE_SEAL_IV_PARITY,
        frame->number, ph->offset);
    gst_tile_seal_once (sc->seal, iv, h, GST_TILE_WIRE_PACKET_HEADER_SIZE,
        payload, payload, ps, h + GST_TILE_WIRE_PACKET_HEADER_SIZE);
  }
  iov[0].iov_base = h;
  iov[0].iov_len = hl;
  iov[1].iov_base = payload;
  iov[1].iov_len = ps;
  iov[2].iov_base = (guint8 *) udp_zeros;
  iov[2].iov_len = 0;
}

/* Data datagram @off of a tile whose bytes are @data (@len of them in it,
 * padded to @ps): its header written to @h (@hl bytes: with a tag when
 * @seal) from @ph, and its three iovecs @iov: the header, the payload
 * straight from the frame or, with @seal, sealed into @dst (under the
 * header; the tag after the header), the zeros of the padding. For the
 * tile's sending and its resends. */
void
gst_tile_sender_udp_data_datagram (GstTileSeal * seal, guint unit,
    GstTileWirePacketHeader * ph, guint8 * h, guint hl, const guint8 * data,
    gsize off, gsize len, guint ps, guint8 * dst, struct iovec *iov)
{
  ph->offset = off;
  gst_tile_wire_packet_header_write (h, ph);
  iov[0].iov_base = h;
  iov[0].iov_len = hl;
  iov[1].iov_base = (guint8 *) data + off;
  iov[1].iov_len = len;
  if (seal) {
    guint8 iv[GST_TILE_SEAL_IV_SIZE];

    gst_tile_seal_iv (iv, FALSE, unit, ph->frame, off);
    gst_tile_seal_once (seal, iv, h, GST_TILE_WIRE_PACKET_HEADER_SIZE,
        data + off, dst, len, h + GST_TILE_WIRE_PACKET_HEADER_SIZE);
    iov[1].iov_base = dst;
  }
  iov[2].iov_base = (guint8 *) udp_zeros;
  iov[2].iov_len = ps - len;
}

/* Fills @sc with the @n datagrams of a tile and its @n_parity parity
 * datagrams (in @sc->parity, laid out as @l), @per_msg to a message (GSO),
 * and returns the number of messages. In a session with a passphrase each
 * datagram's payload is sealed (into scratch) and its tag follows the
 * header. */
static guint
udp_build_messages (GstTileSenderScratch * sc, const GstTileSenderUnit * u,
    const GstTileSenderFrame * frame, const GstTileWireTile * tile, guint ps,
    guint n, guint n_parity, const GstTileFecLayout * l, guint per_msg)
{
  GstTileWirePacketHeader ph;
  const guint8 *data = frame->data + tile->offset;
  guint hl = GST_TILE_WIRE_DATAGRAM_OVERHEAD (frame->sealed);
  guint8 *sealed = NULL;
  guint n_msgs, i, j;

  if (frame->sealed)
    sealed = gst_tile_sender_scratch_seal (sc, frame, tile->size);
  n += n_parity;
  if (n > sc->alloc) {
    sc->headers = g_realloc (sc->headers, (gsize) n *
        GST_TILE_WIRE_DATAGRAM_OVERHEAD (TRUE));
    sc->iov = g_realloc (sc->iov, sizeof (struct iovec) * 3 * n);
    sc->msgs = g_realloc (sc->msgs, sizeof (struct mmsghdr) * n);
    sc->alloc = n;
  }

  ph.unit = u->index;
  ph.generation = frame->generation;
  ph.frame = frame->number;
  ph.timestamp = frame->timestamp;
  ph.capture = frame->capture;
  ph.token = frame->token;
  ph.flags = 0;
  for (i = 0; i < n; i++) {
    guint8 *h = sc->headers + (gsize) i * hl;
    gsize off = (gsize) i * ps, len = off < tile->size ?
        MIN (ps, tile->size - off) : 0;
    struct iovec *iov = &sc->iov[3 * i];

    if (i >= n - n_parity) {
      udp_parity_datagram (sc, u, frame, &ph, l, ps, hl, i, i - (n - n_parity));
      continue;
    }
    gst_tile_sender_udp_data_datagram (sealed ? sc->seal : NULL, u->index,
        &ph, h, hl, data, off, len, ps, sealed ? sealed + off : NULL, iov);
  }
  n_msgs = (n + per_msg - 1) / per_msg;
  for (j = 0; j < n_msgs; j++) {
    struct msghdr *m = &sc->msgs[j].msg_hdr;

    memset (m, 0, sizeof (*m));
    m->msg_iov = &sc->iov[3 * j * per_msg];
    m->msg_iovlen = 3 * MIN (per_msg, n - j * per_msg);
  }
  return n_msgs;
}

/* The datagrams of messages @msgs (3 iovecs each). */
static guint64
udp_datagrams (const struct mmsghdr *msgs, guint n)
{
  guint64 pk = 0;
  guint k;

  for (k = 0; k < n; k++)
    pk += msgs[k].msg_hdr.msg_iovlen / 3;
  return pk;
}

/**
 * gst_tile_sender_udp_send_redundant:
 * @sc: the unit thread's scratch, with its copy sockets
 * @fd: the unit's socket
 * @msgs: (array length=n): the messages
 * @n: how many
 *
 * Redundant paths: sends @msgs over the unit's socket and each copy
 * socket, without waiting on any: a path whose socket is full or failing
 * (a link down: ENETUNREACH, an ICMP error) loses them there, counted in
 * @sc, and the others carry them. The pace holds the rate.
 */
void
gst_tile_sender_udp_send_redundant (GstTileSenderScratch * sc, gint fd,
    struct mmsghdr *msgs, guint n)
{
  guint64 all = udp_datagrams (msgs, n);
  guint k, r;

  r = gst_tile_net_udp_send_batch_nowait (fd, msgs, n);
  sc->primary_failed += all - udp_datagrams (msgs, r);
  for (k = 0; k < sc->n_copies; k++) {
    guint64 sent;

    r = gst_tile_net_udp_send_batch_nowait (sc->copy_fd[k], msgs, n);
    sent = udp_datagrams (msgs, r);
    sc->copies_sent += sent;
    sc->copies_dropped += all - sent;
  }
}

/* Striped datagrams: the data datagrams (not parity: the first @n_data of
 * the tile's) of messages @first .. @first + @n - 1, @per_msg datagrams to
 * a message, counted as sent over socket @k. */
static void
udp_stripe_count (GstTileSenderScratch * sc, guint k, guint first,
    guint n, guint per_msg, guint n_data)
{
  guint m, path = sc->stripe_path[k];

  if (path >= GST_TILE_WIRE_MAX_PATHS)
    return;
  for (m = first; m < first + n; m++) {
    guint base = m * per_msg, cnt = sc->msgs[m].msg_hdr.msg_iovlen / 3;

    sc->path_packets[path] += base < n_data ? MIN (cnt, n_data - base) : 0;
  }
}

/* Striped datagrams: the socket owed most datagrams of those not in
 * @tried (each is owed its share of every message), G_MAXUINT when all
 * are. */
static guint
udp_stripe_pick (const GstTileSenderScratch * sc, const gboolean * tried)
{
  guint k, best = G_MAXUINT;

  for (k = 0; k < sc->n_stripes; k++)
    if (!tried[k] && (best == G_MAXUINT ||
            sc->stripe_credit[k] > sc->stripe_credit[best]))
      best = k;
  return best;
}

/* Striped datagrams: each socket is owed its share of the datagrams of
 * message @m. */
static inline void
udp_stripe_owe (GstTileSenderScratch * sc, const struct mmsghdr *m)
{
  guint64 pk = m->msg_hdr.msg_iovlen / 3;
  guint k;

  for (k = 0; k < sc->n_stripes; k++)
    sc->stripe_credit[k] += sc->stripe_weight[k] * pk;
}

/* Striped datagrams: sends messages @j .. @j + @n - 1 of @sc, each over one
 * of the unit's sockets, the one whose path is owed most datagrams (a run
 * of messages for the same socket in one call); what a socket fails to
 * send goes over the one owed most next, and what every socket fails is
 * lost (counted in @sc). */
static void
udp_send_striped (GstTileSenderScratch * sc, guint j, guint n, guint per_msg,
    guint n_data)
{
  guint k, done = 0;
  gboolean owed = FALSE;        /* msgs[j + done]'s shares are in the credits */

  while (done < n) {
    gboolean tried[GST_TILE_WIRE_MAX_PATHS] = { FALSE };
    guint best, run = 0, r = 0;

    /* the run of messages the socket owed most gets */
    if (!owed)
      udp_stripe_owe (sc, &sc->msgs[j + done]);
    best = udp_stripe_pick (sc, tried);
    while (TRUE) {
      sc->stripe_credit[best] -= udp_datagrams (&sc->msgs[j + done + run], 1);
      run++;
      owed = FALSE;
      if (done + run >= n)
        break;
      udp_stripe_owe (sc, &sc->msgs[j + done + run]);
      owed = TRUE;
      if (udp_stripe_pick (sc, tried) != best)
        break;
    }
    /* (a full socket is waited for: its path's queue is full, and the
     * others have their own share; a failing one, a link down, hands the
     * run on, with the credits of the run taken) */
    while (best != G_MAXUINT && r < run) {
      gint got = gst_tile_net_udp_send_batch (sc->stripe_fd[best],
          &sc->msgs[j + done + r], run - r, NULL);

      if (got > 0) {
        udp_stripe_count (sc, best, j + done + r, got, per_msg, n_data);
        r += got;
        continue;
      }
      tried[best] = TRUE;
      best = udp_stripe_pick (sc, tried);
    }
    sc->stripe_failed += udp_datagrams (&sc->msgs[j + done + r], run - r);
    done += run;
  }
  /* (a path that fails keeps its credit from growing without end) */
  for (k = 0; k < sc->n_stripes; k++)
    sc->stripe_credit[k] = CLAMP (sc->stripe_credit[k], -4096.0, 4096.0);
}

/**
 * gst_tile_sender_udp_send_resend:
 * @sc: the unit thread's scratch
 * @fd: the unit's socket
 * @msgs: (array length=n): the messages
 * @n: how many
 *
 * Resends: sends @msgs over @fd, or with striped datagrams over the path
 * of the largest share, then the next largest where that fails (a link
 * down).
 *
 * Returns: how many messages left (at least 1), 0 when none did.
 */
gint
gst_tile_sender_udp_send_resend (GstTileSenderScratch * sc, gint fd,
    struct mmsghdr *msgs, guint n)
{
  gboolean tried[GST_TILE_WIRE_MAX_PATHS] = { FALSE };
  guint t, k;

  if (!sc->stripe)
    return MAX (gst_tile_net_udp_send_batch (fd, msgs, n, NULL), 0);
  for (t = 0; t < sc->n_stripes; t++) {
    guint best = G_MAXUINT;
    gint r;

    for (k = 0; k < sc->n_stripes; k++)
      if (!tried[k] && (best == G_MAXUINT ||
              sc->stripe_weight[k] > sc->stripe_weight[best]))
        best = k;
    tried[best] = TRUE;
    r = gst_tile_net_udp_send_batch (sc->stripe_fd[best], msgs, n, NULL);
    if (r > 0)
      return r;
  }
  return 0;
}

/* Sends one tile as datagrams of a 48-byte header (with a passphrase, and
 * a 16-byte tag) and @ps payload bytes, the last one padded. The payload is
 * gathered straight from the frame (iovecs, no copy; with a passphrase from
 * the sealed copy in scratch); with GSO one message carries up to 64
 * datagrams, and sendmmsg() sends up to 64 messages per system call. Past
 * the frame's deadline (max-latency) the rest is not sent, and a tile
 * abandoned before it starts not at all. With forward error correction the
 * tile's parity datagrams follow its data (tilesender-fec.c), paced the
 * same. @n_packets: the datagrams sent; @n_parity: of them, parity. */
gboolean
gst_tile_sender_send_tile_udp (GstTileSenderUnit * u,
    GstTileSenderScratch * sc, gint fd, GstTileSenderFrame * frame,
    const GstTileWireTile * tile, guint ps, guint64 rate, guint64 * n_packets,
    guint64 * n_parity, GError ** error)
{
  guint seg = GST_TILE_WIRE_DATAGRAM_OVERHEAD (frame->sealed) + ps;
  guint n_data = gst_tile_wire_packets_per_tile (tile->size, ps), n;
  guint per_msg = 1, n_msgs, batch, j, sent = 0, n_fec;
  GstTileFecLayout layout;

  *n_packets = 0;
  *n_parity = 0;
  /* abandoned before this unit started (another unit past the deadline,
   * or its producer gave the frame up unwritten): nothing of it is built,
   * sealed or sent */
  if (g_atomic_int_get (&frame->abandoned))
    return TRUE;
  if (u->gso)
    per_msg = CLAMP (65000 / seg, 1, 64);
  batch = 64;
  if (rate) {
    /* paced: bursts of 2 ms at the unit's rate, at most 64 KiB: a slow
     * bottleneck's queue may hold less than a 64 KiB burst from every unit
     * at once (100 Mbit/s with a 20 ms queue: 250 KB) */
    guint burst = MAX (1, MIN (65536, rate / 4000) / (seg + 28));

    per_msg = MIN (per_msg, burst);
    /* (striped: a burst in four messages, each over its own path: a tile's
     * datagrams shared finely) */
    if (sc->stripe)
      per_msg = MAX (1, MIN (per_msg, burst / 4));
    batch = MAX (1, burst / per_msg);
  }
  n_fec = gst_tile_sender_fec_build (sc, u, frame, tile, ps, &layout);
  n = n_data + n_fec;
  n_msgs = udp_build_messages (sc, u, frame, tile, ps, n_data, n_fec,
      &layout, per_msg);

  for (j = 0; j < n_msgs;) {
    gint r;
    guint k, pk = 0;

    if (frame->deadline_us && gst_tile_sender_unit_abandons (u, frame,
            (guint64) (n - sent) * (seg + 28), rate ? 8e9 / rate : 0)) {
      GST_LOG_OBJECT (u->sender->log_object, "unit %u: frame %"
          G_GUINT64_FORMAT " abandoned after %u of %u datagrams", u->index,
          frame->number, sent, n);
      break;
    }
    /* NACKs: what they ask for goes first (tilesender-resend.c) */
    if (gst_tile_sender_resend_waiting (u))
      gst_tile_sender_resend_serve (u, sc, fd, rate);
    if (sc->stripe) {
      r = MIN (batch, n_msgs - j);
      udp_send_striped (sc, j, r, per_msg, n_data);
    } else if (sc->n_copies > 0) {
      r = MIN (batch, n_msgs - j);
      gst_tile_sender_udp_send_redundant (sc, fd, &sc->msgs[j], r);
    } else {
      r = gst_tile_net_udp_send_batch (fd, &sc->msgs[j], MIN (batch,
              n_msgs - j), error);
    }
    if (r < 0)
      return FALSE;
    for (k = j; k < j + r; k++)
      pk += sc->msgs[k].msg_hdr.msg_iovlen / 3;
    sent += pk;
    *n_packets = sent;
    *n_parity = sent > n_data ? sent - n_data : 0;
    if (rate)
      gst_tile_sender_udp_pace (sc, (gsize) pk * (seg + 28), rate);
    j += r;
  }
  return TRUE;
}
