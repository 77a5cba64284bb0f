/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The receiver's forward error correction (protocol=udp; the sender's
 * `fec`): the parity datagrams of a frame slot, and the data datagrams
 * they recover.
 *
 * - A parity datagram (checked like a data datagram, and opened when the
 *   session is sealed) is filed in its slot's parity store: per tile at
 *   most gst_tile_wire_parity_max () of them, the store allocated at the
 *   first parity datagram of a generation (never per datagram). The first
 *   parity datagram of a tile of a frame fixes the tile's layout (group
 *   span, parity per group); one that says otherwise is refused and
 *   counted as invalid, a second copy as a duplicate.
 * - As soon as a group misses no more data datagrams than it has parity
 *   datagrams (a unit thread, after its batch's copies: on the parity
 *   datagram, or the data datagram, that makes it so) its missing data
 *   datagrams are decoded (tilefec.c, without the lock: only the tile's
 *   unit writes its tile) into their place in the frame and marked in:
 *   a frame whose losses its parity covers is whole without waiting for
 *   its timer or a round trip. A recovered datagram did not arrive: it
 *   stays out of the ACK's feedback (the parity datagrams that arrived
 *   count in), and out of packets-received.
 * - With retransmit, a unit that gets parity lets its gaps wait for it
 *   (tilereceiver-nack.c): the frame's timer asks for what parity could
 *   not recover. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilereceiver-private.h"
#include "tilefec.h"

#include <string.h>

/* groups to look at after a batch, per unit; beyond, every group of the
 * tile is */
#define FEC_CANDIDATES 128

typedef struct
{
  guint8 span[GST_TILE_WIRE_MAX_UNITS]; /* 0: no parity of the tile yet */
  guint8 parity[GST_TILE_WIRE_MAX_UNITS];
  guint8 *got;                  /* a bit per parity datagram */
} FecSlot;

/* What a group needs to be decoded: its members' bytes (NULL: missing;
 * the tile's short last datagram is padded before decoding), its rows,
 * where the missing go. */
typedef struct
{
  guint span, parity, e;
  const guint8 *data[GST_TILE_WIRE_PARITY_MAX_SPAN];
  const guint8 *rows[256];
  guint8 *out[GST_TILE_WIRE_PARITY_MAX_SPAN];
  guint32 missing[GST_TILE_WIRE_PARITY_MAX_SPAN];       /* in the tile */
  gint short_member;            /* the short last datagram's member, -1 */
  gint short_out;               /* its place in out[] when missing, -1 */
  gsize short_len;
} FecJob;

typedef struct
{
  /* the unit thread's, made when first used: the coder, a group's job,
   * and ps bytes each for a short last datagram, padded or recovered */
  GstTileFec *coder;
  FecJob *job;
  guint8 *pad;
  guint8 *out;
  guint32 groups[FEC_CANDIDATES];
  guint8 slots[FEC_CANDIDATES];
  guint n;
  guint8 all;                   /* a bit per slot: look at every group */
} FecUnit;

struct _GstTileReceiverFec
{
  FecSlot slots[GST_TILE_RECEIVER_SLOTS];
  /* the first parity datagram of each tile in a slot's store */
  guint32 base[GST_TILE_WIRE_MAX_UNITS + 1];
  guint32 n_data[GST_TILE_WIRE_MAX_UNITS];
  guint ps;
  guint8 *store;                /* slot s: base[n_tiles] x ps bytes at s */
  FecUnit units[GST_TILE_WIRE_MAX_UNITS];
};

GstTileReceiverFec *
gst_tile_receiver_fec_new (void)
{
  return g_new0 (GstTileReceiverFec, 1);
}

static void
fec_free_store (GstTileReceiverFec * fec)
{
  guint i;

  g_clear_pointer (&fec->store, g_free);
  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++)
    g_clear_pointer (&fec->slots[i].got, g_free);
}

void
gst_tile_receiver_fec_free (GstTileReceiverFec * fec)
{
  guint i;

  fec_free_store (fec);
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    gst_tile_fec_free (fec->units[i].coder);
    g_free (fec->units[i].job);
    g_free (fec->units[i].pad);
    g_free (fec->units[i].out);
  }
  g_free (fec);
}

/* The units of a generation start: where each tile's parity goes in a
 * slot's store (allocated when the first parity datagram comes). Lock
 * held. */
void
gst_tile_receiver_fec_start_locked (GstTileReceiver * self)
{
  GstTileReceiverFec *fec = self->fec;
  guint32 total = 0;
  guint i;

  fec_free_store (fec);
  fec->ps = self->config->packet_size;
  for (i = 0; i < self->config->n_tiles; i++) {
    fec->base[i] = total;
    fec->n_data[i] =
        gst_tile_wire_packets_per_tile (self->config->tiles[i].size, fec->ps);
    if (gst_tile_receiver_uses (self, i))
      total += gst_tile_wire_parity_max (fec->n_data[i]);
  }
  fec->base[i] = total;
  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
    memset (fec->slots[i].span, 0, sizeof (fec->slots[i].span));
    memset (fec->slots[i].parity, 0, sizeof (fec->slots[i].parity));
  }
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    fec->units[i].n = 0;
    fec->units[i].all = 0;
  }
}

/* @slot holds a new frame: no parity of it yet. Lock held. */
void
gst_tile_receiver_fec_slot_reset_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot)
{
  GstTileReceiverFec *fec = self->fec;
  FecSlot *fs = &fec->slots[slot - self->slots];
  guint32 total = fec->base[self->config->n_tiles];

  memset (fs->span, 0, sizeof (fs->span));
  memset (fs->parity, 0, sizeof (fs->parity));
  if (fs->got)
    memset (fs->got, 0, (total + 7) / 8);
}

static void
fec_candidate (GstTileReceiverFec * fec, guint unit, guint slot, guint32 g)
{
  FecUnit *fu = &fec->units[unit];

  if (fu->n > 0 && fu->slots[fu->n - 1] == slot && fu->groups[fu->n - 1] == g)
    return;
  if (fu->n == FEC_CANDIDATES) {
    fu->all |= 1 << slot;
    return;
  }
  fu->slots[fu->n] = slot;
  fu->groups[fu->n] = g;
  fu->n++;
}

/* Parity datagram @h (checked: gst_tile_wire_packet_check ()) of unit
 * @u's tile came for @slot's frame: filed, its payload to go to *@dst,
 * unless it is a duplicate or contradicts the layout of the tile's parity
 * that came first. Lock held. */
GstTileReceiverFecResult
gst_tile_receiver_fec_parity_locked (GstTileReceiver * self,
    GstTileReceiverUnit * u, GstTileReceiverSlot * slot,
    const GstTileWirePacketHeader * h, guint8 ** dst)
{
  GstTileReceiverFec *fec = self->fec;
  guint si = slot - self->slots, t = u->index, span, parity, index;
  FecSlot *fs = &fec->slots[si];
  guint32 total = fec->base[self->config->n_tiles], bit;

  gst_tile_wire_parity_fields (h->offset, &span, &parity, &index);
  if (fs->span[t] == 0) {
    fs->span[t] = span;
    fs->parity[t] = parity;
  } else if (fs->span[t] != span || fs->parity[t] != parity) {
    return GST_TILE_RECEIVER_FEC_INVALID;
  }
  if (!fec->store) {
    guint i;

    /* the generation's first parity: room for it in every slot (the
     * checks bound a tile's parity to gst_tile_wire_parity_max ()) */
    fec->store = g_malloc ((gsize) total * fec->ps * GST_TILE_RECEIVER_SLOTS);
    for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++)
      fec->slots[i].got = g_malloc0 ((total + 7) / 8);
  }
  bit = fec->base[t] + index;
  if (fs->got[bit / 8] & (1 << (bit % 8)))
    return GST_TILE_RECEIVER_FEC_DUPLICATE;
  fs->got[bit / 8] |= 1 << (bit % 8);
  *dst = fec->store + ((gsize) si * total + bit) * fec->ps;
  fec_candidate (fec, t, si, index % gst_tile_wire_parity_groups (fec->n_data
          [t], span));
  u->nack.fec_seen = TRUE;
  u->nack.fec_frame = MAX (u->nack.fec_frame, slot->frame);
  return GST_TILE_RECEIVER_FEC_NEW;
}

/* Data datagram @index of unit @u's tile came for @slot's frame: its
 * group may be recoverable now, when parity of the tile came. Lock
 * held. */
void
gst_tile_receiver_fec_data_locked (GstTileReceiver * self,
    GstTileReceiverUnit * u, GstTileReceiverSlot * slot, guint32 index)
{
  GstTileReceiverFec *fec = self->fec;
  guint si = slot - self->slots, t = u->index;
  guint span = fec->slots[si].span[t];

  if (span)
    fec_candidate (fec, t, si, index % gst_tile_wire_parity_groups
        (fec->n_data[t], span));
}

/* Group @g of tile @t in slot @si into @job: FALSE unless it misses
 * datagrams and has at least as many parity datagrams. Lock held. */
static gboolean
fec_job_locked (GstTileReceiver * self, guint t, guint si, guint32 g,
    FecJob * job)
{
  GstTileReceiverFec *fec = self->fec;
  GstTileReceiverSlot *slot = &self->slots[si];
  FecSlot *fs = &fec->slots[si];
  guint32 n = fec->n_data[t], groups, pk_base, rows = 0;
  guint64 tile_off = self->config->tiles[t].offset;
  guint64 tile_size = self->config->tiles[t].size;
  guint8 *got = gst_tile_receiver_udp_got_locked (self, slot, t, &pk_base);
  guint32 total = fec->base[self->config->n_tiles];
  guint ps = fec->ps, c, j;

  job->span = fs->span[t];
  job->parity = fs->parity[t];
  job->e = 0;
  job->short_member = job->short_out = -1;
  if (!job->span || !got || !fec->store)
    return FALSE;
  groups = gst_tile_wire_parity_groups (n, job->span);
  for (j = 0; j < job->parity; j++) {
    guint32 bit = fec->base[t] + j * groups + g;

    job->rows[j] = NULL;
    if (fs->got[bit / 8] & (1 << (bit % 8))) {
      job->rows[j] = fec->store + ((gsize) si * total + bit) * ps;
      rows++;
    }
  }
  for (c = 0; c < job->span; c++) {
    guint64 i = (guint64) c * groups + g, off = i * ps;
    guint32 idx = pk_base + (guint32) i;
    guint8 *at = slot->map.data + tile_off + off;

    if (i >= n) {
      job->data[c] = gst_tile_fec_zeros ();
      continue;
    }
    if (off + ps > tile_size) {
      job->short_member = c;
      job->short_len = tile_size - off;
    }
    if (got[idx / 8] & (1 << (idx % 8))) {
      job->data[c] = at;
      continue;
    }
    if (job->short_member == (gint) c)
      job->short_out = job->e;
    job->data[c] = NULL;
    job->out[job->e] = at;
    job->missing[job->e++] = (guint32) i;
  }
  return job->e > 0 && job->e <= rows;
}

/* Decodes @job with unit @fu's coder; the lock not held (only the tile's
 * unit writes its tile). */
static void
fec_decode (FecUnit * fu, FecJob * job, guint ps)
{
  guint8 *short_at = NULL;

  if (job->short_member >= 0 && job->data[job->short_member]) {
    /* (zero-padded, as the sender encoded it) */
    memcpy (fu->pad, job->data[job->short_member], job->short_len);
    memset (fu->pad + job->short_len, 0, ps - job->short_len);
    job->data[job->short_member] = fu->pad;
  }
  if (job->short_out >= 0) {
    /* (decoded whole aside, then only its bytes into the tile) */
    short_at = job->out[job->short_out];
    job->out[job->short_out] = fu->out;
  }
  gst_tile_fec_decode (fu->coder, job->span, job->parity, ps, job->data,
      job->rows, job->out);
  if (short_at)
    memcpy (short_at, fu->out, job->short_len);
}

/* Group @g of unit @u's tile in slot @si: decoded when it misses no more
 * data datagrams than it has parity. Lock held; released while
 * decoding. */
static void
fec_try_locked (GstTileReceiver * self, GstTileReceiverUnit * u, guint si,
    guint32 g)
{
  GstTileReceiverFec *fec = self->fec;
  FecUnit *fu = &fec->units[u->index];
  GstTileReceiverSlot *slot = &self->slots[si];
  guint32 pk_base;
  guint8 *got;
  guint k;

  if (slot->state != SLOT_FILLING)
    return;
  if (!fu->coder) {
    fu->coder = gst_tile_fec_new ();
    fu->job = g_new (FecJob, 1);
    fu->pad = g_malloc (fec->ps);
    fu->out = g_malloc (fec->ps);
  }
  if (!fec_job_locked (self, u->index, si, g, fu->job))
    return;
  g_mutex_unlock (&self->lock);
  fec_decode (fu, fu->job, fec->ps);
  g_mutex_lock (&self->lock);
  got = gst_tile_receiver_udp_got_locked (self, slot, u->index, &pk_base);
  for (k = 0; k < fu->job->e; k++) {
    guint32 idx = pk_base + fu->job->missing[k];

    got[idx / 8] |= 1 << (idx % 8);
  }
  gst_tile_receiver_udp_recovered_locked (self, slot, u->index, fu->job->e);
  self->counters.fec_packets_recovered += fu->job->e;
  GST_LOG_OBJECT (self->log_object, "frame %" G_GUINT64_FORMAT " unit %u: "
      "%u datagrams of group %u recovered", slot->frame, u->index,
      fu->job->e, g);
}

/* After the copies of unit @u's batch: the groups its datagrams touched
 * that parity can now complete are decoded, the datagrams recovered
 * marked in. Their slots stay (the batch's writers hold them). Lock held;
 * released while decoding. */
void
gst_tile_receiver_fec_recover_locked (GstTileReceiver * self,
    GstTileReceiverUnit * u)
{
  GstTileReceiverFec *fec = self->fec;
  FecUnit *fu = &fec->units[u->index];
  guint i, si, all = fu->all, n = fu->n;

  fu->n = 0;
  fu->all = 0;
  for (i = 0; i < n; i++)
    if (!(all & (1 << fu->slots[i])))
      fec_try_locked (self, u, fu->slots[i], fu->groups[i]);
  /* (too many to list: every group of the slot) */
  for (si = 0; si < GST_TILE_RECEIVER_SLOTS; si++) {
    guint span = fec->slots[si].span[u->index];
    guint32 g, groups;

    if (!(all & (1 << si)) || !span)
      continue;
    groups = gst_tile_wire_parity_groups (fec->n_data[u->index], span);
    for (g = 0; g < groups; g++)
      fec_try_locked (self, u, si, g);
  }
}
