/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The receiver's NACKs (protocol=udp, settings.retransmit): it asks the
 * sender for the datagrams that did not arrive, on the control
 * connection (sealed like every control message), so that a frame with
 * gaps can still become whole in time.
 *
 * - As datagrams arrive (a unit thread, in its batch's pass under the
 *   lock): a datagram beyond the next one expected of its tile opens a
 *   gap, asked for once; a unit's first datagram of a newer frame closes
 *   the older frame's tile (its tail) and asks for what it lacks. The
 *   NACKs are packed under the lock and sent after it.
 * - When a frame's timer comes with datagrams still missing (the tail of
 *   the last frame, or resends lost too), pull() asks for every missing
 *   datagram of it and holds the frame for them, only as long as it pays:
 *   the hold is twice the round trip (the TIME round trip,
 *   tilereceiver-clock.c; 2-100 ms), extended only by a datagram that
 *   fills a gap (NACK_FILL_WAIT after it), and all in all at most
 *   NACK_HOLD_SHARE of a frame's duration and never past the frame's
 *   presentation time (capture + playout latency, when known). A hold in
 *   which resends came may ask again (NACK_TIMER_ASKS times in all); one
 *   in which none came ends the frame's hold (the sender no longer holds
 *   it, or its budget is spent), and after NACK_FUTILE such holds in a row
 *   frames are no longer held (nor asked for by their timer), but for one
 *   in NACK_PROBE that finds out whether resends come again.
 *
 * With forward error correction, a unit that gets parity datagrams asks
 * for no gap as it sees it (parity may recover it, tilereceiver-fec.c):
 * the frame's timer asks for what is still missing then.
 *
 * The datagrams sent again are the same datagrams: they fill the slot as
 * the first ones would (a second copy counts as a duplicate). A frame
 * that had a NACK and became whole counts in frames-recovered. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilereceiver-private.h"

#include <string.h>

/* times a frame's timer asks for its missing datagrams at most */
#define NACK_TIMER_ASKS 2
/* NACK messages per unit a timer sends at most (64 ranges each) */
#define NACK_TIMER_MESSAGES 4
/* the round trip before one was measured */
#define NACK_DEFAULT_RTT (10 * GST_MSECOND)
/* a frame is held for a resend at least this long, at most this long */
#define NACK_MIN_HOLD (2 * GST_MSECOND)
#define NACK_MAX_HOLD (100 * GST_MSECOND)
/* a datagram that fills a gap of a held frame holds it this long more */
#define NACK_FILL_WAIT (2 * GST_MSECOND)
/* a frame's holds together take at most this share of its duration
 * (without a duration: NACK_MAX_HOLD) */
#define NACK_HOLD_SHARE 0.5
/* holds in a row without a resend after which frames are held no more,
 * but one timer in NACK_PROBE */
#define NACK_FUTILE 2
#define NACK_PROBE 8
/* a unit that got parity of a frame lets the gaps of the frames after it
 * wait for theirs, up to this many frames later (tilereceiver-fec.c) */
#define NACK_FEC_FRAMES 4

void
gst_tile_receiver_nack_init (GstTileReceiver * self)
{
  guint i;

  self->nack_out = g_byte_array_new ();
  self->nack_sending = g_byte_array_new ();
  self->nack_msg = g_byte_array_new ();
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    GstTileReceiverNackUnit *nk = &self->units[i].nack;

    nk->out = g_byte_array_new ();
    nk->sending = g_byte_array_new ();
    nk->msg = g_byte_array_new ();
  }
}

void
gst_tile_receiver_nack_clear (GstTileReceiver * self)
{
  guint i;

  g_byte_array_unref (self->nack_out);
  g_byte_array_unref (self->nack_sending);
  g_byte_array_unref (self->nack_msg);
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    GstTileReceiverNackUnit *nk = &self->units[i].nack;

    g_byte_array_unref (nk->out);
    g_byte_array_unref (nk->sending);
    g_byte_array_unref (nk->msg);
  }
}

/* A unit starts: no frame seen, nothing to ask. Lock held. */
void
gst_tile_receiver_nack_unit_reset_locked (GstTileReceiverUnit * u)
{
  GstTileReceiverNackUnit *nk = &u->nack;

  nk->have = FALSE;
  nk->path_have = 0;
  nk->fec_seen = FALSE;
  nk->fec_frame = 0;
  nk->pending.n_ranges = 0;
  g_byte_array_set_size (nk->out, 0);
}

/* The slot filling @frame, or NULL. Lock held. */
static GstTileReceiverSlot *
filling_slot (GstTileReceiver * self, guint64 frame)
{
  guint i;

  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++)
    if ((self->slots[i].state == SLOT_FILLING ||
            self->slots[i].state == SLOT_ALLOCATING) &&
        self->slots[i].frame == frame)
      return &self->slots[i];
  return NULL;
}

/* Packs @nack (if it has ranges) into @out and empties it. Lock held. */
static void
pack_pending (GstTileReceiver * self, GstTileWireNack * nack, GByteArray * out)
{
  GstTileReceiverSlot *slot;

  if (nack->n_ranges == 0)
    return;
  if (gst_tile_wire_nack_pack (nack, out, NULL)) {
    self->counters.nacks_sent++;
    if ((slot = filling_slot (self, nack->frame)))
      slot->nacked = TRUE;
  }
  nack->n_ranges = 0;
}

/* Adds datagrams @first .. @first + @count - 1 to @nack (of its frame),
 * packing it into @out whenever it is full. Lock held. */
static void
add_range (GstTileReceiver * self, GstTileWireNack * nack, GByteArray * out,
    guint32 first, guint32 count)
{
  while (count > 0) {
    guint32 take = MIN (count, GST_TILE_WIRE_NACK_MAX_COUNT);

    if (nack->n_ranges == GST_TILE_WIRE_NACK_MAX_RANGES)
      pack_pending (self, nack, out);
    nack->ranges[nack->n_ranges].first = first;
    nack->ranges[nack->n_ranges].count = take;
    nack->n_ranges++;
    first += take;
    count -= take;
  }
}

/* Datagram @index (of @n in its tile) of @frame came to unit @u over path
 * @path (its number on the wire) and is filed: a gap before it, or the end
 * of the unit's previous frame with datagrams missing, is asked for.
 * Returns TRUE when it fills a gap (a resend, or a datagram overtaken on
 * the way): behind what the unit got already, so its arrival says nothing
 * of the path's rate. With striped datagrams the paths overtake each
 * other all the time: a gap waits for the frame's timer, and a datagram
 * fills one when it is behind what came over its own path. Unit thread,
 * lock held. */
gboolean
gst_tile_receiver_nack_note_locked (GstTileReceiver * self,
    GstTileReceiverUnit * u, guint64 frame, guint32 index, guint32 n,
    guint path)
{
  GstTileReceiverNackUnit *nk = &u->nack;
  /* parity comes to this unit (forward error correction): its gaps wait
   * for it, and the frame's timer asks for what it did not recover */
  gboolean fec = nk->fec_seen && frame <= nk->fec_frame + NACK_FEC_FRAMES;

  if (!self->settings.retransmit)
    return FALSE;
  if (self->stripe) {
    guint bit = 1u << path;

    if ((nk->path_have & bit) && (frame < nk->path_frame[path] ||
            (frame == nk->path_frame[path] && index < nk->path_next[path])))
      return TRUE;
    nk->path_have |= bit;
    nk->path_frame[path] = frame;
    nk->path_next[path] = index + 1;
    return FALSE;
  }
  if (nk->have && frame == nk->frame) {
    if (index < nk->next)
      return TRUE;
    if (index > nk->next && !fec)
      add_range (self, &nk->pending, nk->out, nk->next, index - nk->next);
    nk->next = index + 1;
    return FALSE;
  }
  if (nk->have && frame < nk->frame)
    return TRUE;                /* a resend, or late: nothing new */
  /* a newer frame: the older one's tile is over, its tail missing when
   * its datagrams did not all come (and it is still being filled) */
  if (nk->have && nk->next < nk->n && filling_slot (self, nk->frame) && !fec)
    add_range (self, &nk->pending, nk->out, nk->next, nk->n - nk->next);
  pack_pending (self, &nk->pending, nk->out);
  nk->have = TRUE;
  nk->frame = frame;
  nk->n = n;
  nk->next = index + 1;
  nk->pending.generation = self->config->generation;
  nk->pending.frame = frame;
  nk->pending.unit = u - self->units;
  nk->pending.n_ranges = 0;
  if (index > 0 && index < n && !fec)
    add_range (self, &nk->pending, nk->out, 0, index);
  return FALSE;
}

/* Sends the packed NACKs of @from, each sealed on its own (in @msg). The
 * control connection's send_lock; the receiver's lock not held. */
static void
send_packed (GstTileReceiver * self, GByteArray * from, GByteArray * msg)
{
  gsize off = 0;

  g_mutex_lock (&self->control.send_lock);
  while (off + GST_TILE_WIRE_HEADER_SIZE <= from->len) {
    guint32 payload_len;
    gsize len;

    /* the messages follow each other at any offset: no unaligned load
     * (GST_READ_UINT32_BE () dereferences one) */
    memcpy (&payload_len, from->data + off + 8, 4);
    len = GST_TILE_WIRE_HEADER_SIZE + GUINT32_FROM_BE (payload_len);

    if (off + len > from->len)
      break;
    g_byte_array_set_size (msg, 0);
    g_byte_array_append (msg, from->data + off, len);
    off += len;
    if (self->control.ack_fd >= 0 &&
        gst_tile_receiver_control_room_locked (self, self->control.ack_fd) &&
        (!self->control.records_out ||
            gst_tile_records_seal (self->control.records_out, msg)))
      gst_tile_net_send_packed (self->control.ack_fd, msg, NULL);
  }
  g_mutex_unlock (&self->control.send_lock);
  g_byte_array_set_size (from, 0);
}

/* After a batch: the NACKs its datagrams made go out (gathered ranges of
 * the frame still arriving wait for its gap to close or the frame to
 * end). Unit thread, lock not held. */
void
gst_tile_receiver_nack_unit_flush (GstTileReceiver * self,
    GstTileReceiverUnit * u)
{
  GstTileReceiverNackUnit *nk = &u->nack;
  GByteArray *tmp;

  if (!self->settings.retransmit)
    return;
  g_mutex_lock (&self->lock);
  /* the gaps seen so far of the current frame go now too: the sooner
   * asked, the sooner they come */
  pack_pending (self, &nk->pending, nk->out);
  tmp = nk->sending;
  nk->sending = nk->out;
  nk->out = tmp;
  g_mutex_unlock (&self->lock);
  if (nk->sending->len > 0)
    send_packed (self, nk->sending, nk->msg);
}

/* The timer of @slot's frame came with datagrams missing (@got: its bit
 * per datagram, from @pk_base[unit]; @fills: its datagrams that filled a
 * gap so far). A hold that ends with resends come, or a first timer with
 * time for one (see the top of this file), asks for every missing
 * datagram of the units used (pull() sends it, see
 * gst_tile_receiver_nack_flush_locked ()) and sets *@deadline to the end
 * of the hold. Returns whether it did (FALSE: the frame leaves with its
 * gaps). Lock held. */
gboolean
gst_tile_receiver_nack_timer_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, const guint8 * got, const guint32 * pk_base,
    guint fills, gint64 * deadline)
{
  GstTileWireNack nack;
  GstClockTime rtt = self->clock.rtt;
  gboolean asked = FALSE;
  gint64 now = (gint64) gst_util_get_timestamp (), hold;
  guint t, k;

  if (!self->settings.retransmit || !self->config ||
      self->units_running == 0)
    return FALSE;
  if (slot->nack_asks > 0) {
    /* a hold ends: go on only while the resends come */
    if (fills == slot->fills_at_ask) {
      self->nack_futile++;
      GST_DEBUG_OBJECT (self->log_object, "frame %" G_GUINT64_FORMAT
          ": no resend in its hold (%u in a row)", slot->frame,
          self->nack_futile);
      return FALSE;
    }
    self->nack_futile = 0;
    if (slot->nack_asks >= NACK_TIMER_ASKS ||
        now + (gint64) NACK_MIN_HOLD > slot->hold_end)
      return FALSE;
  } else {
    /* a first timer: held only when there is time for it, and while the
     * sender answers (or to probe whether it does again) */
    gint64 cap = GST_CLOCK_TIME_IS_VALID (self->duration) ?
        (gint64) (NACK_HOLD_SHARE * self->duration) : NACK_MAX_HOLD;

    cap = MIN (cap, gst_tile_receiver_slot_time_left_locked (self, slot));
    if (cap < (gint64) NACK_MIN_HOLD)
      return FALSE;
    if (self->nack_futile >= NACK_FUTILE &&
        ++self->nack_probe % NACK_PROBE != 0)
      return FALSE;
    slot->hold_end = now + cap;
  }
  nack.generation = self->config->generation;
  nack.frame = slot->frame;
  for (t = 0; t < self->config->n_tiles; t++) {
    guint32 n = pk_base[t + 1] - pk_base[t], j, start = 0;
    gboolean in_gap = FALSE;
    guint before = self->nack_out->len;

    if (!gst_tile_receiver_uses (self, t))
      continue;
    /* the unit's tile of it is over: what comes now fills its gaps */
    if (self->units[t].nack.have && self->units[t].nack.frame == slot->frame)
      self->units[t].nack.next = self->units[t].nack.n;
    for (k = 0; k < GST_TILE_WIRE_MAX_PATHS; k++)
      if (self->units[t].nack.path_frame[k] == slot->frame)
        self->units[t].nack.path_next[k] = n;
    nack.unit = t;
    nack.n_ranges = 0;
    for (j = 0; j <= n; j++) {
      guint idx = pk_base[t] + j;
      gboolean missing = j < n && !(got[idx / 8] & (1 << (idx % 8)));

      if (missing && !in_gap) {
        in_gap = TRUE;
        start = j;
      } else if (!missing && in_gap) {
        in_gap = FALSE;
        if (nack.n_ranges == GST_TILE_WIRE_NACK_MAX_RANGES &&
            self->nack_out->len - before >= (NACK_TIMER_MESSAGES - 1) *
            (GST_TILE_WIRE_HEADER_SIZE + 16 + 6 *
                GST_TILE_WIRE_NACK_MAX_RANGES))
          break;
        add_range (self, &nack, self->nack_out, start, j - start);
      }
    }
    if (nack.n_ranges > 0) {
      pack_pending (self, &nack, self->nack_out);
      asked = TRUE;
    }
  }
  if (!asked)
    return FALSE;
  slot->nacked = TRUE;
  slot->nack_asks++;
  slot->fills_at_ask = fills;
  if (!GST_CLOCK_TIME_IS_VALID (rtt) || rtt == 0)
    rtt = NACK_DEFAULT_RTT;
  hold = CLAMP ((gint64) (2 * rtt), NACK_MIN_HOLD, NACK_MAX_HOLD);
  *deadline = MIN (now + hold, slot->hold_end);
  GST_DEBUG_OBJECT (self->log_object, "frame %" G_GUINT64_FORMAT ": timer "
      "NACK %u, held %" G_GINT64_FORMAT " us more (%" G_GINT64_FORMAT
      " us at most)", slot->frame, slot->nack_asks, (*deadline - now) / 1000,
      (slot->hold_end - now) / 1000);
  return TRUE;
}

/* A datagram that fills a gap of @slot's frame came at @now: while its
 * timer holds it, the hold lasts NACK_FILL_WAIT after it at least (more
 * resends may follow), within the hold's end. Lock held. */
void
gst_tile_receiver_nack_fill_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, gint64 now, gint64 * deadline)
{
  if (slot->nack_asks == 0)
    return;
  *deadline = MIN (slot->hold_end, MAX (*deadline,
          now + (gint64) NACK_FILL_WAIT));
}

/* pull(): the timers' NACKs go out, the lock released meanwhile. Returns
 * whether there were any (the caller looks at the slots again). Lock
 * held. */
gboolean
gst_tile_receiver_nack_flush_locked (GstTileReceiver * self)
{
  GByteArray *tmp;

  if (self->nack_out->len == 0)
    return FALSE;
  tmp = self->nack_sending;
  self->nack_sending = self->nack_out;
  self->nack_out = tmp;
  g_mutex_unlock (&self->lock);
  send_packed (self, self->nack_sending, self->nack_msg);
  g_mutex_lock (&self->lock);
  return TRUE;
}
