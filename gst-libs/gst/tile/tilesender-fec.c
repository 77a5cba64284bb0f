/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GstTileSender, protocol=udp: forward error correction (tilesink's
 * `fec`). Each frame gets its overhead at admission (a fixed percentage,
 * or with `auto` one from the loss its peer's ACKs report); each unit then
 * encodes its tile's parity datagrams (tilefec.c: Reed-Solomon over
 * interleaved groups, ISA-L) after building its data datagrams, into its
 * scratch (grown per generation, never per datagram), and sends them after
 * the data, paced like it: parity counts against pacing-bitrate and the
 * rate control's pace like any datagram, so no overhead, whatever a
 * receiver reports, makes the units send faster; it makes them send less
 * data in the same time. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilesender-private.h"

#include <string.h>

/* fec=auto: below this smoothed loss no parity is sent */
#define FEC_AUTO_MIN_LOSS 0.002
/* fec=auto: the overhead covers this many times the smoothed loss, plus
 * FEC_AUTO_MARGIN percent (losses come in bursts and groups are small) */
#define FEC_AUTO_FACTOR 3.0
#define FEC_AUTO_MARGIN 2.0
/* fec=auto: the weight of a frame's loss in the smoothed loss */
#define FEC_AUTO_WEIGHT 0.125

/* The parity overhead of @o's next frame in percent, 0 for none: the
 * setting, or with `auto` its peer's (the multicast group's: the highest
 * of its members'). Lock held. */
guint
gst_tile_sender_owner_fec_locked (GstTileSenderOwner * o)
{
  GstTileSender *self = o->sender;
  guint most = 0, i;

  if (self->settings.fec != GST_TILE_SENDER_FEC_AUTO)
    return (guint) CLAMP (self->settings.fec, 0, GST_TILE_FEC_MAX_PERCENT);
  if (o->peer)
    return o->peer->flow.fec_percent;
  for (i = 0; i < self->peers->len; i++) {
    GstTileSenderPeer *m = g_ptr_array_index (self->peers, i);

    if (m->group == o->group && gst_tile_sender_peer_heard (m))
      most = MAX (most, m->flow.fec_percent);
  }
  return most;
}

/* A frame's feedback from @peer's ACK: @sent datagrams (parity included)
 * went, @received arrived (the first sendings: neither resends nor what
 * parity recovered). fec=auto follows the smoothed loss. Lock held. */
void
gst_tile_sender_fec_feedback_locked (GstTileSenderPeer * peer, guint64 sent,
    guint64 received)
{
  GstTileSenderFlow *flow = &peer->flow;
  gdouble loss, pct;

  if (peer->owner.sender->settings.fec != GST_TILE_SENDER_FEC_AUTO || sent == 0)
    return;
  loss = 1.0 - (gdouble) MIN (received, sent) / sent;
  flow->fec_loss += FEC_AUTO_WEIGHT * (loss - flow->fec_loss);
  if (flow->fec_loss < FEC_AUTO_MIN_LOSS) {
    flow->fec_percent = 0;
    return;
  }
  pct = FEC_AUTO_FACTOR * 100.0 * flow->fec_loss + FEC_AUTO_MARGIN;
  flow->fec_percent = (guint) MIN (pct + 0.999, GST_TILE_FEC_MAX_PERCENT);
}

/* The parity datagrams of unit @u's @tile of @frame (@ps bytes each),
 * encoded into @sc->parity; their layout in @layout. Returns how many, 0
 * when the frame has no overhead or the tile no room for parity. Unit
 * thread, lock not held. */
guint32
gst_tile_sender_fec_build (GstTileSenderScratch * sc,
    const GstTileSenderUnit * u, const GstTileSenderFrame * frame,
    const GstTileWireTile * tile, guint ps, GstTileFecLayout * layout)
{
  guint32 n = gst_tile_wire_packets_per_tile (tile->size, ps);
  gsize need;

  if (frame->fec == 0 || !gst_tile_fec_layout_for (layout, n, frame->fec))
    return 0;
  if (!sc->fec)
    sc->fec = gst_tile_fec_new ();
  need = (gsize) layout->n_parity * ps;
  if (need > sc->parity_alloc) {
    g_free (sc->parity);
    sc->parity = g_malloc (need);
    sc->parity_alloc = need;
  }
  gst_tile_fec_encode (sc->fec, layout, frame->data + tile->offset,
      tile->size, ps, sc->parity);
  return layout->n_parity;
}

/* A unit thread's scratch is cleared. */
void
gst_tile_sender_fec_clear (GstTileSenderScratch * sc)
{
  gst_tile_fec_free (sc->fec);
  sc->fec = NULL;
  g_free (sc->parity);
  sc->parity = NULL;
  sc->parity_alloc = 0;
}
