/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The receiver's UDP units: one socket and thread per tile. Datagrams are
 * received in batches (recvmmsg, GRO) straight into the frame where the
 * next one of the tile is expected, filed into the frame slots with one
 * lock per batch, and a frame is complete when every datagram is in or its
 * timer fires; its gaps then keep the previous frame's bytes (the
 * concealment). The state of all that, the receive window and the timers,
 * is this file's own (GstTileReceiverUdp); the rest of the receiver asks it
 * through the gst_tile_receiver_udp_*() functions. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "tilereceiver-private.h"

#include <gst/bc/bctilemeta.h>
#include <gst/bc/bclossmeta.h>

#include <string.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* the timer before any frame arrived whole */
#define UDP_FIRST_TIMER_NS (50 * GST_MSECOND)
/* The timer of an incomplete frame lasts timer-factor x the average time
 * a frame takes to arrive (longer for a frame that arrives slower, see
 * udp_extend_deadline_locked ()), and at least the floor: 2 ms to start with,
 * doubled (up to 32 ms) whenever datagrams of a frame pushed by its timer
 * turn up afterwards (the timer was too short for this machine: a unit
 * thread was off the CPU), and lowered by 1/64 per frame that arrives
 * whole once a second has passed without that. */
#define UDP_MIN_TIMER_NS (2 * GST_MSECOND)
#define UDP_MAX_TIMER_FLOOR_NS (32 * GST_MSECOND)
#define UDP_FRAME_WINDOW 64     /* frames ahead of the last pushed one */

/* Striped datagrams: what of a frame came over one path, for the ACK's
 * feedback per path (first sendings of data datagrams, as the ACK's). */
typedef struct
{
  guint received;
  guint64 arrive_first;         /* CLOCK_REALTIME, 0: none yet */
  guint64 arrive_last;
  guint n_at_last;
} UdpPathFeedback;

/* A slot's datagrams: those in, and when they came. */
typedef struct
{
  guint8 *got;                  /* a bit per datagram of the frame */
  guint n_got;
  guint32 tile_copied[GST_TILE_WIRE_MAX_UNITS];   /* datagrams in place */
  gint64 first_ns;              /* monotonic, first datagram */
  gint64 last_ns;               /* monotonic, last datagram filed */
  guint64 first_real_ns;        /* CLOCK_REALTIME, first datagram */
  /* the kernel's arrival times (CLOCK_REALTIME) of the first and last
   * datagram, 0 without */
  guint64 arrive_first;
  guint64 arrive_last;
  guint n_at_last;              /* datagrams that arrived at arrive_last */
  /* datagrams that filled a gap (resent for a NACK, or overtaken): not in
   * the arrival times, nor in the ACK's feedback, which is the path's */
  guint n_fills;
  /* forward error correction (tilereceiver-fec.c): parity datagrams that
   * arrived (in the ACK's feedback: they are the path's), data datagrams
   * they recovered (not in it) */
  guint n_parity;
  guint n_recovered;
  guint64 tile_reported;        /* stepped: a bit per tile reported whole */
  /* striped datagrams: what came over each path (by its number on the
   * wire), a bit per path in @paths_seen */
  UdpPathFeedback paths[GST_TILE_WIRE_MAX_PATHS];
  guint paths_seen;
  gint64 deadline;              /* monotonic: pushed with its gaps then */
  gint64 timer_ns;              /* its timer from the average, at first */
} UdpSlot;

/* The receiver's protocol=udp state: GstTileReceiver.lock, but
 * unit_drops. */
struct _GstTileReceiverUdp
{
  UdpSlot slots[GST_TILE_RECEIVER_SLOTS];       /* GstTileReceiver.slots' */
  guint32 pk_base[GST_TILE_WIRE_MAX_UNITS + 1]; /* first datagram of a tile */
  guint32 total;                /* datagrams of a frame on the units used */
  gboolean drain;               /* a CONFIG or EOS came: finish the units */
  /* the receive window: the frames the unit sockets can hold, from the
   * last one pushed */
  guint window;
  guint windows;                /* units that have set it */
  guint64 last_pushed;
  gboolean have_pushed;
  /* the timers */
  gint64 avg_receive_ns;        /* frames that arrived whole */
  gint64 timer_floor_ns;        /* the shortest timer, adapted */
  gint64 timer_raised_ns;       /* when late datagrams last raised it */
  guint64 timer_frame;          /* the newest frame pushed by its timer */
  gboolean have_timer_frame;
  gboolean timer_frame_raised;  /* its late datagrams raised the floor */
  gboolean timer_frame_filled;  /* resends came: late ones may be too */
  /* the ACK of the oldest frame, given up as not credible when its timer
   * came: what arrived of it is the path's, for the sender's rate control
   * (without it a path that carries less than a quarter of each frame
   * would never slow the sender down) */
  GstTileWireAck discard_ack;
  gboolean have_discard_ack;
  /* the concealment */
  GstBuffer *last_buffer;       /* newest pushed frame */
  gboolean keep_last;           /* FALSE when GstBaseSrc will mark DISCONT */
  /* each unit socket's kernel drops (a unit has one per path with
   * redundant paths): atomic, the unit threads write them without the
   * lock */
  guint32 unit_drops[GST_TILE_WIRE_MAX_UNITS][GST_TILE_WIRE_MAX_PATHS];
  /* redundant paths: receive errors of a path's socket (atomic) */
  guint path_errors;
};

GstTileReceiverUdp *
gst_tile_receiver_udp_new (void)
{
  GstTileReceiverUdp *udp = g_new0 (GstTileReceiverUdp, 1);

  udp->timer_floor_ns = UDP_MIN_TIMER_NS;
  return udp;
}

void
gst_tile_receiver_udp_free (GstTileReceiverUdp * udp)
{
  guint i;

  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++)
    g_free (udp->slots[i].got);
  gst_clear_buffer (&udp->last_buffer);
  g_free (udp);
}

/* start() and stop(): no frame kept, the timers and the statistics from
 * scratch. Lock held. */
void
gst_tile_receiver_udp_reset_locked (GstTileReceiverUdp * udp)
{
  guint i;

  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++)
    g_clear_pointer (&udp->slots[i].got, g_free);
  gst_clear_buffer (&udp->last_buffer);
  udp->keep_last = FALSE;
  udp->have_pushed = FALSE;
  udp->avg_receive_ns = 0;
  udp->timer_floor_ns = UDP_MIN_TIMER_NS;
  udp->timer_raised_ns = 0;
  udp->have_timer_frame = FALSE;
  memset (udp->unit_drops, 0, sizeof (udp->unit_drops));
}

/* The units of a generation start: where each tile's datagrams begin, a
 * bit for each in the slots, how many a frame has on the units used (a
 * region's), and a window again. Lock held. */
void
gst_tile_receiver_udp_start_locked (GstTileReceiver * self)
{
  GstTileReceiverUdp *udp = self->udp;
  guint total = 0, i, n;

  udp->drain = FALSE;
  udp->total = 0;
  for (i = 0; i < self->config->n_tiles; i++) {
    udp->pk_base[i] = total;
    n = gst_tile_wire_packets_per_tile (self->config->tiles[i].size,
        self->config->packet_size);
    total += n;
    if (gst_tile_receiver_uses (self, i))
      udp->total += n;
  }
  udp->pk_base[i] = total;
  gst_tile_receiver_fec_start_locked (self);
  udp->window = G_MAXUINT;      /* each unit lowers it */
  udp->windows = 0;
  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
    g_free (udp->slots[i].got);
    udp->slots[i].got = g_malloc0 ((total + 7) / 8);
  }
}

/* A CONFIG or EOS came (UDP has no end of connection to mark the end of a
 * generation: the sender sent everything before it): the units finish
 * what their sockets hold. Lock held. */
void
gst_tile_receiver_udp_drain_locked (GstTileReceiverUdp * udp)
{
  udp->drain = TRUE;
}

/* A new session: its sender may count its frames from anywhere (a sender
 * started again counts from 0). Lock held. */
void
gst_tile_receiver_udp_new_session_locked (GstTileReceiverUdp * udp)
{
  udp->have_pushed = FALSE;
}

/* The kernel drops of the unit sockets and the timer floor, for the
 * statistics. Lock held. */
void
gst_tile_receiver_udp_gauges_locked (GstTileReceiverUdp * udp,
    guint64 * kernel_drops, gint64 * timer_floor_ns, guint64 * path_errors)
{
  guint i, k;

  *kernel_drops = 0;
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++)
    for (k = 0; k < GST_TILE_WIRE_MAX_PATHS; k++)
      *kernel_drops += (guint32) g_atomic_int_get ((gint *) &
          udp->unit_drops[i][k]);
  *timer_floor_ns = udp->timer_floor_ns;
  *path_errors = (guint) g_atomic_int_get ((gint *) & udp->path_errors);
}

/* The datagrams of @slot. */
static inline UdpSlot *
udp_slot (GstTileReceiver * self, GstTileReceiverSlot * slot)
{
  return &self->udp->slots[slot - self->slots];
}

/* For tilereceiver-fec.c: @slot's bit per datagram in (NULL before a
 * generation), and in @pk_base the bit of the first datagram of unit
 * @unit's tile. Lock held. */
guint8 *
gst_tile_receiver_udp_got_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, guint unit, guint32 * pk_base)
{
  *pk_base = self->udp->pk_base[unit];
  return udp_slot (self, slot)->got;
}

/* For tilereceiver-fec.c: @n datagrams of unit @unit's tile in @slot were
 * recovered (their bits are set): they count as in, but not as arrived.
 * Lock held. */
void
gst_tile_receiver_udp_recovered_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, guint unit, guint n)
{
  UdpSlot *us = udp_slot (self, slot);

  us->n_got += n;
  us->n_recovered += n;
  us->tile_copied[unit] += n;
}

#define UDP_VLEN_GRO 8
#define UDP_VLEN 64
#define UDP_GRO_BUF 65536
#define UDP_CMSG 128
/* room past a message's last slot during the handshake: the answers to
 * our UNIT_HELLO (62 bytes, more for a REFUSE) may be longer than a
 * datagram of a small packet-size (after the last slot, not the first: a
 * message of datagrams that comes before the answer, over a unit's second
 * path, must find each of them in its slot) */
#define UDP_CTL_TAIL 128

typedef struct
{
  GstTileReceiverSlot *slot;
  guint8 *dst;
  const guint8 *src;
  guint len;
  gboolean parity;              /* into the slot's parity store */
} UdpCopy;

/* A UDP unit's receive layout. Every datagram of a batch gets three
 * iovecs: its header into @hdrs, and its payload straight into the frame
 * where the next datagram of this tile is expected (the rest, or all of it
 * when there is no prediction, into the staging area @bufs). With GRO one
 * message carries up to @per_msg datagrams. */
typedef struct
{
  guint vlen, per_msg, max_pk;
  guint8 *hdrs, *bufs, *cmsgs, *ctl_tail;
  guint64 *pred;
  struct mmsghdr *msgs;
  struct iovec *iovs;
  struct sockaddr_storage *names;       /* not connected: the sources */
  GstTileWirePacketHeader *hs;
  const guint8 **payloads;
  guint64 *arrivals;            /* the kernel's, per datagram; 0 without */
  UdpCopy *copies;
} UdpBatch;

/* How long a frame may take from its first datagram on before it is
 * pushed with its gaps: timer-factor x the average receive time (before the
 * first frame was measured: a frame duration from the caps), and at least
 * the adapted floor (the scheduling granularity of a busy machine). Lock
 * held. */
static gint64
udp_timer_locked (GstTileReceiver * self)
{
  gint64 avg = self->udp->avg_receive_ns;

  if (avg == 0)
    avg = GST_CLOCK_TIME_IS_VALID (self->duration) ? self->duration :
        UDP_FIRST_TIMER_NS;
  return MAX (self->udp->timer_floor_ns, (gint64) (self->timer_factor * avg));
}

/* A frame that arrives slower than the average (sent at a lower pace: the
 * rate control's decrease after its probe; or a sending thread off the
 * CPU) gets a timer of its own pace: timer-factor x the time its datagrams
 * so far took, scaled to the whole frame; at least the average's timer (as
 * it was at its first datagram), at most a frame duration (the next frame
 * does not wait for a slot), or the first frame's timer when no duration
 * is known. Called as each datagram is filed, @now its time. Lock held. */
static void
udp_extend_deadline_locked (GstTileReceiver * self, UdpSlot * us, gint64 now)
{
  gint64 base = us->timer_ns, cap, own;

  if (us->n_got == 0 || now <= us->first_ns)
    return;
  cap = MAX (base, GST_CLOCK_TIME_IS_VALID (self->duration) ?
      (gint64) self->duration : UDP_FIRST_TIMER_NS);
  own = (gint64) (self->timer_factor * (now - us->first_ns) *
      self->udp->total / us->n_got);
  /* from the newest estimate: an early one, from the few datagrams of
   * the units that ran first, would overshoot */
  us->deadline = us->first_ns + MAX (base, MIN (own, cap));
}

/* The receive time of a frame, whole or not (first to last datagram), for
 * the timers. Lock held. */
static void
udp_note_receive_time_locked (GstTileReceiverUdp * udp, UdpSlot * us)
{
  gint64 took = us->last_ns - us->first_ns;

  if (took <= 0)
    return;
  udp->avg_receive_ns = udp->avg_receive_ns ?
      (udp->avg_receive_ns * 7 + took) / 8 : took;
}

/* Whether an incomplete frame may leave (with its gaps): when more than a
 * quarter of its datagrams came. A frame with fewer may be stray or forged
 * (one datagram each is all it takes): pushing it would move the receive
 * window past every frame before it and make them late; and it would show
 * mostly the previous frame anyway. Lock held. */
static gboolean
udp_credible_locked (GstTileReceiver * self, GstTileReceiverSlot * slot)
{
  return (guint64) udp_slot (self, slot)->n_got * 4 > self->udp->total;
}

static void udp_feedback_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, guint64 number, GstClockTime sender_time,
    GstTileWireAck * ack);

/* Gives up an incomplete frame that is not credible: dropped and counted,
 * not acknowledged, and the receive window stays where it is. Lock
 * held. */
static void
udp_discard_locked (GstTileReceiver * self, GstTileReceiverSlot * slot)
{
  guint n_got = udp_slot (self, slot)->n_got;

  GST_DEBUG_OBJECT (self->log_object, "frame %" G_GUINT64_FORMAT " given up "
      "with %u of %u datagrams", slot->frame, n_got, self->udp->total);
  self->counters.frames_discarded++;
  self->counters.packets_discarded += n_got;
  gst_tile_receiver_slot_release_locked (self, slot, FALSE);
}

/* A claimed slot for @frame, allocating its buffer when new. NULL when the
 * datagram is to be dropped (late, too far ahead, no slot free: the oldest
 * frame is then pushed with its gaps right away). Lock held; may release
 * it while acquiring a buffer. */
static GstTileReceiverSlot *
udp_slot_locked (GstTileReceiver * self, guint64 frame, guint64 run,
    gboolean * late, gboolean * full)
{
  GstTileReceiverUdp *udp = self->udp;
  GstTileReceiverSlot *slot, *free_slot;
  UdpSlot *us;
  guint i, total = udp->pk_base[self->config->n_tiles];

  *late = FALSE;
  *full = FALSE;
  if (udp->have_pushed && frame <= udp->last_pushed) {
    *late = TRUE;
    return NULL;
  }
  while (self->running && self->run == run) {
    guint64 held_min = G_MAXUINT64;

    free_slot = NULL;
    for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
      slot = &self->slots[i];
      if (slot->state == SLOT_FREE) {
        free_slot = free_slot ? free_slot : slot;
        continue;
      }
      held_min = MIN (held_min, slot->frame);
      if (slot->frame == frame) {
        if (slot->state == SLOT_FILLING)
          return slot;
        if (slot->state == SLOT_COMPLETE) {
          *late = TRUE;         /* the frame is complete already */
          return NULL;
        }
        goto wait;              /* being allocated by another unit */
      }
    }
    if (free_slot && self->stripe && udp->have_pushed &&
        frame > udp->last_pushed + GST_TILE_RECEIVER_SLOTS &&
        held_min != G_MAXUINT64 && frame > held_min) {
      /* striped datagrams: a frame further ahead than the slots reach
       * waits (its socket is not read on) while the slot may still go to
       * an older one, whose datagrams may wait in the unit's other
       * sockets: the slots are the next frames' to leave, in order (with
       * none held, or older than all held, nothing older can be
       * starved) */
      *full = TRUE;
      return NULL;
    }
    if (!free_slot) {
      /* a newer frame with too few datagrams to leave (a stray or forged
       * datagram far ahead, say) gives its slot to ours: frames leave in
       * order, ours first (with striped datagrams, the next frames' first
       * datagrams come before ours all the time: only one further
       * ahead) */
      for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
        slot = &self->slots[i];
        if (slot->state == SLOT_FILLING && slot->frame > frame &&
            (!self->stripe || slot->frame > frame + GST_TILE_RECEIVER_SLOTS)
            && slot->writers == 0 && !udp_credible_locked (self, slot)) {
          udp_discard_locked (self, slot);
          free_slot = slot;
          break;
        }
      }
    }
    if (!free_slot) {
      /* both slots hold older frames: wait until create() takes one (the
       * oldest leaves when whole or when its timer fires). Meanwhile our
       * datagrams wait in the socket buffer; the other units go on filling
       * the older frames. */
      *full = TRUE;
      return NULL;
    }
    slot = free_slot;
    us = udp_slot (self, slot);
    slot->state = SLOT_ALLOCATING;
    slot->frame = frame;
    slot->run = run;
    slot->writers = 0;
    slot->sender_ts = slot->capture = GST_CLOCK_TIME_NONE;
    slot->nacked = FALSE;
    slot->nack_asks = 0;
    slot->hold_end = 0;
    slot->fills_at_ask = 0;
    us->n_got = 0;
    us->n_fills = 0;
    us->n_parity = 0;
    us->n_recovered = 0;
    us->tile_reported = 0;
    memset (us->tile_copied, 0, sizeof (us->tile_copied));
    gst_tile_receiver_fec_slot_reset_locked (self, slot);
    us->first_ns = us->last_ns = (gint64) gst_util_get_timestamp ();
    us->first_real_ns = gst_tile_realtime_ns ();
    us->arrive_first = us->arrive_last = 0;
    us->n_at_last = 0;
    if (us->paths_seen)
      memset (us->paths, 0, sizeof (us->paths));
    us->paths_seen = 0;
    /* the timer runs from the frame's own first datagram: no frame waits
     * for the next one to start (with the sender waiting for the window
     * that this frame holds, that could be forever) */
    us->timer_ns = udp_timer_locked (self);
    us->deadline = us->first_ns + us->timer_ns;
    memset (us->got, 0, (total + 7) / 8);
    if (!gst_tile_receiver_slot_fill_locked (self, slot))
      return NULL;
    return slot;
  wait:
    g_cond_wait (&self->cond, &self->lock);
  }
  return NULL;
}

/* Copies the claimed datagrams, recovers what parity can, and completes
 * frames. Called with the lock held; releases it for the copies and the
 * decoding. */
static void
udp_commit_locked (GstTileReceiver * self, GstTileReceiverUnit * u,
    UdpCopy * copies, guint n_copies)
{
  GstTileReceiverUdp *udp = self->udp;
  guint unit = u->index, total = udp->total, i, n_done = 0;
  guint tile_packets = udp->pk_base[unit + 1] - udp->pk_base[unit];
  GstTileReceiverSlot *done[GST_TILE_RECEIVER_SLOTS];

  if (n_copies == 0)
    return;
  g_mutex_unlock (&self->lock);
  for (i = 0; i < n_copies; i++)
    if (copies[i].src != copies[i].dst)
      memcpy (copies[i].dst, copies[i].src, copies[i].len);
  g_mutex_lock (&self->lock);

  for (i = 0; i < n_copies; i++)
    if (copies[i].len > 0 && !copies[i].parity)
      udp_slot (self, copies[i].slot)->tile_copied[unit]++;
  /* what parity recovers counts as in place (tilereceiver-fec.c) */
  gst_tile_receiver_fec_recover_locked (self, u);

  /* stepped: a tile whose datagrams are all in place is reported
   * before our writes are released, so before its frame can be pushed
   * (a pin of a prediction, without a datagram, holds its slot too) */
  for (i = 0; i < n_copies; i++) {
    GstTileReceiverSlot *slot = copies[i].slot;
    UdpSlot *us = udp_slot (self, slot);

    if (us->tile_copied[unit] == tile_packets &&
        !(us->tile_reported & (G_GUINT64_CONSTANT (1) << unit)) &&
        n_done < GST_TILE_RECEIVER_SLOTS) {
      us->tile_reported |= G_GUINT64_CONSTANT (1) << unit;
      done[n_done++] = slot;
    }
  }
  if (n_done > 0 && g_atomic_int_get (&self->stepped)) {
    guint stepped = 0;

    g_mutex_unlock (&self->lock);
    for (i = 0; i < n_done; i++) {
      GstBcTileMeta *meta = gst_buffer_get_bc_tile_meta (done[i]->buffer);

      if (meta && gst_bc_tile_meta_complete (meta, done[i]->buffer, unit))
        stepped++;
    }
    g_mutex_lock (&self->lock);
    self->counters.tiles_stepped += stepped;
  }

  for (i = 0; i < n_copies; i++) {
    GstTileReceiverSlot *slot = copies[i].slot;
    UdpSlot *us = udp_slot (self, slot);

    slot->writers--;
    if (slot->writers == 0 && us->n_got == total &&
        slot->state == SLOT_FILLING) {
      /* (completed by a datagram that filled a gap: its receive time, for
       * the timers, ends at the last first sending; the wait for the
       * resends is no time the frame takes to arrive) */
      if (us->n_fills == 0)
        us->last_ns = (gint64) gst_util_get_timestamp ();
      udp_note_receive_time_locked (udp, us);
      if (us->last_ns - udp->timer_raised_ns > GST_SECOND)
        udp->timer_floor_ns = MAX (UDP_MIN_TIMER_NS,
            udp->timer_floor_ns - udp->timer_floor_ns / 64);
      slot->complete_time = gst_tile_receiver_clock_time (self);
      gst_buffer_unmap (slot->buffer, &slot->map);
      slot->state = SLOT_COMPLETE;
      if (slot->nacked)
        self->counters.frames_recovered++;
      if (us->n_recovered > 0)
        self->counters.fec_frames_recovered++;
    }
  }
  g_cond_broadcast (&self->cond);
}

/* An arrival at @t (CLOCK_REALTIME) of a frame's data datagram, into its
 * first and last arrivals. */
static inline void
udp_note_arrival (guint64 t, guint64 * first, guint64 * last, guint * at_last)
{
  if (!*first || t < *first)
    *first = t;
  if (t > *last) {
    *last = t;
    *at_last = 0;
  }
  if (t == *last)
    (*at_last)++;
}

/* Files datagrams @first to @n of a receive batch (that came over path
 * @path): one pass under the lock claims them, the copies run unlocked, a
 * short second pass completes frames. Never a lock per datagram. When a
 * datagram needs a slot and both hold older frames, what was claimed so
 * far is committed first (an older frame can only leave once nobody
 * writes into it), then we wait; with @stall we return instead (striped
 * datagrams: the older frames' datagrams may wait in the unit's other
 * sockets). Returns the first datagram not filed, @n when all were. */
static guint
udp_file_batch (GstTileReceiver * self, GstTileReceiverUnit * u,
    guint64 run, UdpBatch * b, guint first, guint n, guint invalid,
    guint tampered, GstTileReceiverSlot * pinned, guint path, gboolean stall)
{
  GstTileWirePacketHeader *hs = b->hs;
  const guint64 *arrivals = b->arrivals;
  const guint8 **payloads = b->payloads;
  UdpCopy *copies = b->copies;
  GstTileReceiverUdp *udp = self->udp;
  GstTileReceiverCounters *counters = &self->counters;
  GstTileWireConfig *config = self->config;
  guint ps = config->packet_size, i, n_copies = 0;
  guint tile_packets = udp->pk_base[u->index + 1] - udp->pk_base[u->index];
  guint64 tile_off = config->tiles[u->index].offset;
  guint64 tile_size = config->tiles[u->index].size;
  GstTileReceiverSlot *slot = NULL;
  UdpSlot *us = NULL;
  gboolean late, full, stalled = FALSE;
  gint64 now;
  /* striped datagrams: a batch's arrival when the kernel gives none */
  guint64 now_real = self->stripe ? gst_tile_realtime_ns () : 0;

  g_mutex_lock (&self->lock);
  counters->packets_invalid += invalid;
  counters->packets_tampered += tampered;
  now = (gint64) gst_util_get_timestamp ();
  if (pinned) {
    /* the slot received into in place: released with the copies */
    copies[n_copies].slot = pinned;
    copies[n_copies].dst = NULL;
    copies[n_copies].src = NULL;
    copies[n_copies].len = 0;
    copies[n_copies].parity = FALSE;
    n_copies++;
  }
  for (i = first; i < n; i++) {
    GstTileWirePacketHeader *h = &hs[i];
    guint idx;

    if (udp->have_pushed && h->frame > udp->last_pushed + UDP_FRAME_WINDOW) {
      /* valid, but further ahead than we can hold */
      counters->packets_dropped++;
      continue;
    }
    if (!slot || slot->frame != h->frame || slot->state != SLOT_FILLING) {
      while (TRUE) {
        slot = udp_slot_locked (self, h->frame, run, &late, &full);
        if (slot || !full || !self->running || self->run != run
            || udp->drain)
          break;
        udp_commit_locked (self, u, copies, n_copies);
        n_copies = 0;
        if ((stalled = stall))
          break;
        g_cond_wait (&self->cond, &self->lock);
      }
      if (stalled)
        break;
    }
    if (!slot || self->run != run) {
      /* (not for a frame whose resends came: those may be more of
       * them) */
      if (late && udp->have_timer_frame && h->frame == udp->timer_frame
          && !udp->timer_frame_raised && !udp->timer_frame_filled) {
        udp->timer_frame_raised = TRUE;
        udp->timer_floor_ns = MIN (2 * udp->timer_floor_ns,
            UDP_MAX_TIMER_FLOOR_NS);
        udp->timer_raised_ns = (gint64) gst_util_get_timestamp ();
        GST_DEBUG_OBJECT (self->log_object,
            "datagrams of frame %" G_GUINT64_FORMAT
            " came after its timer: timers last %" G_GINT64_FORMAT " us at "
            "least", h->frame, udp->timer_floor_ns / 1000);
      }
      /* (parity for a frame whole already: it was not needed) */
      if (late && (h->flags & GST_TILE_WIRE_PACKET_FLAG_PARITY))
        counters->fec_packets_unused++;
      else if (late)
        counters->packets_late++;
      else
        counters->packets_dropped++;
      slot = NULL;
      continue;
    }
    us = udp_slot (self, slot);
    copies[n_copies].parity = FALSE;
    if (h->flags & GST_TILE_WIRE_PACKET_FLAG_PARITY) {
      /* parity (tilereceiver-fec.c): into the slot's parity store */
      switch (gst_tile_receiver_fec_parity_locked (self, u, slot, h,
              &copies[n_copies].dst)) {
        case GST_TILE_RECEIVER_FEC_DUPLICATE:
          counters->packets_duplicate++;
          continue;
        case GST_TILE_RECEIVER_FEC_INVALID:
          counters->packets_invalid++;
          continue;
        case GST_TILE_RECEIVER_FEC_NEW:
          break;
      }
      us->n_parity++;
      counters->fec_packets_received++;
      copies[n_copies].parity = TRUE;
    } else {
      idx = udp->pk_base[u->index] + h->offset / ps;
      if (us->got[idx / 8] & (1 << (idx % 8))) {
        counters->packets_duplicate++;
        continue;
      }
      us->got[idx / 8] |= 1 << (idx % 8);
      us->n_got++;
      counters->packets_received++;
      gst_tile_receiver_fec_data_locked (self, u, slot, h->offset / ps);
    }
    slot->writers++;
    slot->sender_ts = h->timestamp;
    slot->capture = h->capture;
    counters->bytes_received += GST_TILE_WIRE_DATAGRAM_OVERHEAD (u->seal) + ps;
    /* a gap before it: asked for again (tilereceiver-nack.c); a datagram
     * that fills one came a round trip late: not the path's pace */
    if (!copies[n_copies].parity &&
        gst_tile_receiver_nack_note_locked (self, u, h->frame,
            h->offset / ps, tile_packets, path)) {
      us->n_fills++;
      /* (a held frame waits on while its resends come) */
      gst_tile_receiver_nack_fill_locked (self, slot, now, &us->deadline);
    } else {
      us->last_ns = now;
      udp_extend_deadline_locked (self, us, now);
      /* (the feedback's times are the data datagrams', as its counts) */
      if (arrivals[i] && !copies[n_copies].parity)
        udp_note_arrival (arrivals[i], &us->arrive_first, &us->arrive_last,
            &us->n_at_last);
      if (self->stripe && !copies[n_copies].parity) {
        UdpPathFeedback *pf = &us->paths[path];

        pf->received++;
        udp_note_arrival (arrivals[i] ? arrivals[i] : now_real,
            &pf->arrive_first, &pf->arrive_last, &pf->n_at_last);
        us->paths_seen |= 1u << path;
      }
    }
    copies[n_copies].slot = slot;
    copies[n_copies].src = payloads[i];
    if (copies[n_copies].parity) {
      copies[n_copies].len = ps;
    } else {
      copies[n_copies].dst = slot->map.data + tile_off + h->offset;
      copies[n_copies].len = MIN (ps, tile_size - h->offset);
    }
    if (copies[n_copies].src == copies[n_copies].dst)
      counters->packets_in_place++;
    n_copies++;
  }
  udp_commit_locked (self, u, copies, n_copies);
  g_mutex_unlock (&self->lock);
  gst_tile_receiver_nack_unit_flush (self, u);
  return i;
}

/* One socket of a UDP unit, on one network path: its handshake with the
 * sender's address there. A unit has one; with redundant paths one per
 * path up, and each datagram comes over each. */
typedef struct
{
  gint fd;
  /* the handshake: UNIT_HELLO until the sender answers (with the cookie
   * of its first answer, which proves that we receive at our address) */
  struct sockaddr_storage server;
  guint server_len;
  GstTileWireUnitHello uh;
  GByteArray *hello;
  gboolean acked;
  guint path;                   /* the path's number on the wire */
  /* what its last receive got; with striped datagrams, those from
   * @pend_from to @pend_n wait for a slot (see udp_unit_refile ()) */
  UdpBatch batch;
  guint pend_from, pend_n;
  /* the socket is connected to where the sender's datagrams for this unit
   * come from (its echo, or its first datagram): the kernel drops
   * datagrams from anywhere else; until then the sources of a batch are
   * in @batch.names and only the sender's host is heard */
  gboolean connected;
  gint64 next_hello;
} UdpLeg;

/* A UDP unit's state: its sockets, their handshakes, what it expects next,
 * and its receive layout. */
typedef struct
{
  GstTileReceiver *self;
  GstTileReceiverUnit *u;
  GstTileWireConfig *config;
  guint64 run;
  gboolean gro;
  guint hl, ps, seg;            /* header (with the tag when sealed),
                                 * payload and datagram size */
  guint64 tile_off, tile_size;
  UdpLeg legs[GST_TILE_WIRE_MAX_PATHS];
  guint n_legs;
  UdpLeg *l;                    /* the socket being read */
  /* multicast from a sender on this host: its datagrams may come from any
   * of this host's addresses (the route's), so all of them are heard */
  struct sockaddr_storage *local;
  guint n_local;
  struct sockaddr_storage local_heard;  /* the one of them last heard from */
  /* the sender sends to a multicast group: the socket is a member, it
   * sends no UNIT_HELLO and is never connected (the group's datagrams come
   * from the sender's host only) */
  gboolean multicast;
  gint64 hello_end;
  /* the prediction */
  gboolean have_exp;
  guint64 exp_frame, exp_off;
} UdpUnit;

/* Opens the unit's socket, sizes its buffer for at least four tiles, and
 * sets the receiver's window; the last unit up sends it in the first ACK. */
static gboolean
udp_unit_open (UdpUnit * c, GError ** err)
{
  GstTileReceiver *self = c->self;
  GstTileReceiverUdp *udp = self->udp;
  GstTileReceiverUnit *u = c->u;
  GstTileWireAck first_ack;
  gint rcvbuf = self->settings.receive_buffer_size, granted;
  gboolean last_window;
  guint64 wire;
  UdpLeg *l = &c->legs[0];
  guint k;

  if (c->multicast) {
    l->fd = gst_tile_net_udp_multicast_receiver (c->config->mcast_family,
        c->config->mcast_addr, c->config->mcast_port + u->index,
        self->settings.multicast_iface, err);
    if (l->fd < 0) {
      g_prefix_error (err, "unit %u: ", u->index);
      return FALSE;
    }
    l->acked = TRUE;            /* nothing to introduce: we are a member */
  } else {
    l->fd = gst_tile_net_udp_bind_any (l->server.ss_family, err);
  }
  if (l->fd < 0)
    return FALSE;
  /* room for four tiles at least: the sender keeps up to the window below
   * in flight; it must let a newer frame in to complete a frame with gaps
   * (2), and a window of 2 leaves the receiver idle while its ACK travels,
   * 4 does not */
  wire = (guint64) (udp->pk_base[u->index + 1] - udp->pk_base[u->index]) *
      c->seg;
  if (rcvbuf > 0 && (guint64) rcvbuf < 4 * wire)
    rcvbuf = (gint) MIN (4 * wire, G_MAXINT / 2);
  granted = gst_tile_net_set_buffer_size (l->fd, FALSE, rcvbuf);
  if (self->settings.gro)
    c->gro = gst_tile_net_set_gro (l->fd);
  if (!c->gro && self->settings.gro_required) {
    g_set_error (err, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
        "This kernel has no UDP generic receive offload (UDP_GRO), and "
        "gso=on");
    gst_tile_net_close (&l->fd);
    return FALSE;
  }
  /* redundant paths: a socket on each other path, the same (a path whose
   * socket cannot be made is left out) */
  for (k = 1; k < c->n_legs; k++) {
    GError *e = NULL;
    UdpLeg *x = &c->legs[k];

    x->fd = gst_tile_net_udp_bind_any (x->server.ss_family, &e);
    if (x->fd >= 0) {
      gst_tile_net_set_buffer_size (x->fd, FALSE, rcvbuf);
      if (c->gro && !gst_tile_net_set_gro (x->fd)) {
        g_set_error (&e, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
            "no UDP_GRO on its socket");
        gst_tile_net_close (&x->fd);
      }
    }
    if (x->fd < 0) {
      GST_WARNING_OBJECT (self->log_object, "unit %u: no socket on path "
          "%u: %s", u->index, k, e->message);
      g_clear_error (&e);
      g_byte_array_unref (x->hello);
      c->legs[k] = c->legs[--c->n_legs];
      c->legs[c->n_legs].hello = NULL;
      k--;
    }
  }

  g_mutex_lock (&self->lock);
  u->fd = l->fd;
  self->counters.granted_rcvbuf = granted;
  /* Linux reports twice the size asked for and counts the kernel's
   * overhead of every datagram against it: half of it holds payload; one
   * tile of it is kept free, so that a unit thread that is late emptying
   * its socket (off the CPU for a while) does not lose datagrams of frames
   * inside the window */
  udp->window = MIN (udp->window,
      (guint) (MAX (3, MIN ((guint64) granted / 2 / MAX (wire, 1), 4097)) - 1));
  memset (&first_ack, 0, sizeof (first_ack));
  first_ack.generation = c->config->generation;
  first_ack.window = udp->window;
  first_ack.has_frame = FALSE;
  first_ack.frame = 0;
  last_window = ++udp->windows == self->n_used;
  if (!self->running || self->run != c->run)
    gst_tile_net_shutdown (l->fd);
  g_mutex_unlock (&self->lock);
  if (last_window)
    gst_tile_receiver_send_ack (self, &first_ack);
  return TRUE;
}

/* The layout's buffers, for datagrams of @hl + @ps bytes. */
static void
udp_batch_alloc (UdpBatch * b, gboolean gro, guint hl, guint ps)
{
  b->vlen = gro ? UDP_VLEN_GRO : UDP_VLEN;
  b->per_msg = gro ? CLAMP (UDP_GRO_BUF / (hl + ps), 1, 300) : 1;
  b->max_pk = b->vlen * b->per_msg;
  b->hdrs = g_malloc ((gsize) b->max_pk * hl);
  b->bufs = g_malloc ((gsize) b->max_pk * ps);
  b->pred = g_new (guint64, b->max_pk);
  b->cmsgs = g_malloc0 ((gsize) b->vlen * UDP_CMSG);
  b->ctl_tail = g_malloc ((gsize) b->vlen * UDP_CTL_TAIL);
  b->msgs = g_new0 (struct mmsghdr, b->vlen);
  b->iovs = g_new (struct iovec, (gsize) b->max_pk * 3);
  b->names = g_new0 (struct sockaddr_storage, b->vlen);
  b->hs = g_new (GstTileWirePacketHeader, b->max_pk);
  b->payloads = g_new (const guint8 *, b->max_pk);
  b->arrivals = g_new (guint64, b->max_pk);
  b->copies = g_new (UdpCopy, b->max_pk + 1);
}

static void
udp_batch_free (UdpBatch * b)
{
  g_free (b->hdrs);
  g_free (b->bufs);
  g_free (b->pred);
  g_free (b->cmsgs);
  g_free (b->ctl_tail);
  g_free (b->msgs);
  g_free (b->iovs);
  g_free (b->names);
  g_free (b->hs);
  g_free (b->payloads);
  g_free (b->arrivals);
  g_free (b->copies);
}

static void
udp_unit_free (UdpUnit * c)
{
  guint k;

  /* (the first socket is the unit's, closed with it) */
  for (k = 0; k < c->n_legs; k++) {
    if (k > 0)
      gst_tile_net_close (&c->legs[k].fd);
    g_clear_pointer (&c->legs[k].hello, g_byte_array_unref);
    udp_batch_free (&c->legs[k].batch);
  }
  g_free (c->local);
}

/* Sends UNIT_HELLO on each socket every 100 ms until the sender answers
 * there. FALSE when it has answered on none within the timeout (with
 * redundant paths, a path that has not answered yet is asked on: it may
 * come up later). */
static gboolean
udp_unit_hello (UdpUnit * c, GError ** err)
{
  gboolean any = FALSE;
  gint64 now = 0;
  guint k;

  for (k = 0; k < c->n_legs; k++) {
    UdpLeg *l = &c->legs[k];

    if (l->acked) {
      any = TRUE;
      continue;
    }
    if (!now)
      now = (gint64) gst_util_get_timestamp ();
    if (now >= l->next_hello) {
      gst_tile_net_udp_send_to (l->fd, l->hello->data, l->hello->len,
          (struct sockaddr *) &l->server, l->server_len);
      l->next_hello = now + 100 * GST_MSECOND;
    }
  }
  if (!any && now > c->hello_end) {
    g_set_error (err, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
        "unit %u: no answer to UNIT_HELLO within %u ms", c->u->index,
        c->self->settings.timeout);
    return FALSE;
  }
  return TRUE;
}

/* The slot of the frame we expect, pinned (a writer) so that it cannot
 * leave while we receive into it; NULL without a prediction. */
static GstTileReceiverSlot *
udp_unit_pin (UdpUnit * c)
{
  GstTileReceiver *self = c->self;
  GstTileReceiverSlot *pinned = NULL;
  guint i;

  /* (with redundant paths the datagrams come twice, not in one order:
   * all of them through staging, copied once under the claim) */
  if (c->n_legs > 1)
    return NULL;
  g_mutex_lock (&self->lock);
  if (c->have_exp && self->run == c->run) {
    for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
      GstTileReceiverSlot *sl = &self->slots[i];

      if (sl->state == SLOT_FILLING && sl->run == c->run &&
          sl->frame == c->exp_frame) {
        pinned = sl;
        pinned->writers++;
        break;
      }
    }
  }
  g_mutex_unlock (&self->lock);
  return pinned;
}

/* Points the batch's iovecs at the frame where the datagrams we expect go
 * (the frame continues where the last datagram ended), and the rest at
 * staging. */
static void
udp_unit_layout (UdpUnit * c, GstTileReceiverSlot * pinned)
{
  UdpBatch *b = &c->l->batch;
  guint base = c->self->udp->pk_base[c->u->index], ps = c->ps, i;
  const guint8 *got = pinned ? udp_slot (c->self, pinned)->got : NULL;
  guint64 pos = c->exp_off;

  for (i = 0; i < b->max_pk; i++) {
    struct iovec *iov = &b->iovs[3 * i];
    guint8 *stage = b->bufs + (gsize) i * ps;

    iov[0].iov_base = b->hdrs + (gsize) i *c->hl;
    iov[0].iov_len = c->hl;
    b->pred[i] = G_MAXUINT64;
    /* (not in place during the handshake: an answer longer than a slot
     * goes on into the next one) */
    if (pinned && c->l->acked && pos < c->tile_size) {
      guint idx = base + pos / ps;
      gsize len = MIN (ps, c->tile_size - pos);

      /* only this unit's thread sets the bits of its tile */
      if (!(got[idx / 8] & (1 << (idx % 8)))) {
        b->pred[i] = pos;
        iov[1].iov_base = pinned->map.data + c->tile_off + pos;
        iov[1].iov_len = len;
        iov[2].iov_base = stage + len;
        iov[2].iov_len = ps - len;
      }
      pos += ps;
    }
    if (b->pred[i] == G_MAXUINT64) {
      iov[1].iov_base = stage;
      iov[1].iov_len = ps;
      iov[2].iov_base = NULL;
      iov[2].iov_len = 0;
      if (!c->l->acked && i % b->per_msg == b->per_msg - 1) {
        iov[2].iov_base = b->ctl_tail + (gsize) (i / b->per_msg) *
            UDP_CTL_TAIL;
        iov[2].iov_len = UDP_CTL_TAIL;
      }
    }
  }
  for (i = 0; i < b->vlen; i++) {
    struct msghdr *m = &b->msgs[i].msg_hdr;

    memset (m, 0, sizeof (struct msghdr));
    m->msg_iov = &b->iovs[3 * i * b->per_msg];
    m->msg_iovlen = 3 * b->per_msg;
    m->msg_control = b->cmsgs + (gsize) i *UDP_CMSG;
    m->msg_controllen = UDP_CMSG;
    if (!c->l->connected) {
      m->msg_name = &b->names[i];
      m->msg_namelen = sizeof (struct sockaddr_storage);
    }
  }
}

#define UDP_MAX_LOCAL_ADDRESSES 32

/* Multicast: when the sender is on this host (its control connection
 * goes to one of our addresses), its datagrams leave from whichever of
 * our addresses the route to the group picks, not necessarily the one we
 * connected to: every address of this host is the sender's host then. */
static void
udp_unit_local_sender (UdpUnit * c)
{
  guint i, n;

  c->local = g_new0 (struct sockaddr_storage, UDP_MAX_LOCAL_ADDRESSES);
  n = gst_tile_net_local_addresses (c->local, UDP_MAX_LOCAL_ADDRESSES);
  for (i = 0; i < n; i++)
    if (gst_tile_net_same_host (&c->local[i], &c->legs[0].server))
      break;
  c->n_local = i < n ? n : 0;
}

/* Whether a datagram from @a may be the sender's: from its host (per
 * datagram: the local address last heard from is tried first). */
static gboolean
udp_unit_from_sender_host (UdpUnit * c, const struct sockaddr_storage *a)
{
  guint i;

  if (gst_tile_net_same_host (a, &c->l->server) ||
      (c->n_local && gst_tile_net_same_host (a, &c->local_heard)))
    return TRUE;
  for (i = 0; i < c->n_local; i++) {
    if (gst_tile_net_same_host (a, &c->local[i])) {
      c->local_heard = c->local[i];
      return TRUE;
    }
  }
  return FALSE;
}

/* Message @k came from the sender's socket for this unit: connect to it,
 * so that the kernel drops datagrams from anywhere else. */
static void
udp_unit_connect (UdpUnit * c, guint k)
{
  struct msghdr *m = &c->l->batch.msgs[k].msg_hdr;

  if (c->l->connected || c->multicast || m->msg_namelen == 0)
    return;
  if (connect (c->l->fd, (struct sockaddr *) m->msg_name,
          m->msg_namelen) == 0)
    c->l->connected = TRUE;
  else
    GST_WARNING_OBJECT (c->self->log_object, "unit %u: cannot connect to "
        "the sender's unit socket: %s", c->u->index, g_strerror (errno));
}

/* Our UNIT_HELLO on socket @l, with our MAC when sealed, into l->hello. */
static void
udp_unit_pack_hello (UdpUnit * c, UdpLeg * l)
{
  if (c->u->seal)
    gst_tile_keys_unit_mac (c->u->unit_c2s, &l->uh, GST_TILE_KEYS_UNIT_HELLO,
        l->uh.mac);
  g_byte_array_set_size (l->hello, 0);
  gst_tile_wire_unit_hello_pack (&l->uh, l->hello, NULL);
}

/* A control message on a unit socket during its handshake (@n bytes in
 * @buf, from @from on the sender's host): the sender's answer to our
 * UNIT_HELLO, or a REFUSE. An answer counts only when it is for this unit
 * of this session and generation. The challenge (a cookie to send back)
 * comes from the sender's control port, the acceptance from the socket
 * that will send the unit's datagrams, with our cookie; sealed, their MACs
 * say which they are, so a challenge repeated (a lost answer, a round trip
 * over 100 ms, someone on the path) never passes for the acceptance.
 * Returns TRUE when accepted, FALSE with @err set on a refusal, FALSE alone
 * for anything else (ignored). */
static gboolean
udp_unit_answer (UdpUnit * c, const guint8 * buf, gsize n,
    const struct sockaddr_storage *from, GError ** err)
{
  GstTileWireUnitHello uh;
  GstTileWireHeader h;
  UdpLeg *l = c->l;
  gboolean control_port = from && gst_tile_net_same_address (from,
      &l->server);

  if (gst_tile_wire_header_parse (buf, n, &h, NULL) != GST_TILE_WIRE_PARSE_OK)
    return FALSE;
  if (h.type == GST_TILE_WIRE_TYPE_REFUSE && c->u->seal) {
    /* sealed: a refusal on a unit socket carries no MAC, anyone who can
     * forge the sender's address could send it; the unit's timeout says
     * whether the sender really refused */
    GST_DEBUG_OBJECT (c->self->log_object, "unit %u: ignoring a REFUSE "
        "datagram (not authenticated)", c->u->index);
    return FALSE;
  }
  if (h.type == GST_TILE_WIRE_TYPE_REFUSE && n >= GST_TILE_WIRE_HEADER_SIZE + 4
      && n < GST_TILE_WIRE_HEADER_SIZE + (gsize) h.payload_len) {
    /* a refusal longer than a datagram of this session (a small
     * packet-size): its code, without the end of its reason */
    GstTileWireRefuse refuse;
    guint32 code = GST_READ_UINT32_BE (buf + GST_TILE_WIRE_HEADER_SIZE);

    refuse.code = code <= GST_TILE_WIRE_REFUSE_UNAUTHORIZED ? code :
        GST_TILE_WIRE_REFUSE_OTHER;
    g_strlcpy (refuse.reason, "(the reason did not fit in a datagram of "
        "this session)", sizeof (refuse.reason));
    gst_tile_receiver_refuse_error (err, &refuse, "refused the connection");
    return FALSE;
  }
  if (h.type != GST_TILE_WIRE_TYPE_UNIT_HELLO) {
    gst_tile_receiver_refusal (buf, n, err);
    return FALSE;
  }
  if (h.payload_len != n - GST_TILE_WIRE_HEADER_SIZE ||
      !gst_tile_wire_unit_hello_parse (buf + GST_TILE_WIRE_HEADER_SIZE,
          h.payload_len, &uh, NULL) || uh.token != l->uh.token ||
      uh.generation != l->uh.generation || uh.unit != l->uh.unit) {
    GST_DEBUG_OBJECT (c->self->log_object, "unit %u: ignoring an answer "
        "that is not for this unit", c->u->index);
    return FALSE;
  }
  if (c->u->seal) {
    /* sealed: only the sender has the key of its answers' MACs */
    if (!control_port && gst_tile_keys_unit_mac_check (c->u->unit_s2c,
            GST_TILE_KEYS_UNIT_ACCEPT, &uh))
      return TRUE;
    if (!control_port || !gst_tile_keys_unit_mac_check (c->u->unit_s2c,
            GST_TILE_KEYS_UNIT_CHALLENGE, &uh)) {
      GST_DEBUG_OBJECT (c->self->log_object, "unit %u: ignoring an answer "
          "that fails its MAC", c->u->index);
      return FALSE;
    }
  } else if (!control_port) {
    /* the acceptance, of the cookie we send now (of an older one: the
     * sender echoes again when our next UNIT_HELLO comes) */
    return memcmp (uh.cookie, l->uh.cookie, sizeof (uh.cookie)) == 0;
  }
  /* the challenge: our UNIT_HELLO again, with its cookie, right away (the
   * same cookie again: a repeated challenge, nothing to do) */
  if (memcmp (uh.cookie, l->uh.cookie, sizeof (uh.cookie)) != 0) {
    memcpy (l->uh.cookie, uh.cookie, sizeof (uh.cookie));
    udp_unit_pack_hello (c, l);
    l->next_hello = 0;
  }
  return FALSE;
}

/* Message @k of the batch is a control message (the sender's answer to
 * our UNIT_HELLO, or a REFUSE): gathers its bytes back into one buffer.
 * Returns FALSE with @err set on a refusal. */
static gboolean
udp_unit_control (UdpUnit * c, guint k, guint len, GError ** err)
{
  UdpBatch *b = &c->l->batch;
  struct iovec *iov = &b->iovs[3 * k * b->per_msg];
  guint8 ctl[GST_TILE_WIRE_PACKET_HEADER_SIZE + GST_TILE_SEAL_TAG_SIZE + 2048];
  gsize want = MIN (len, sizeof (ctl)), got = 0, step;
  guint i;

  /* the message's bytes are spread over its iovecs, in order */
  for (i = 0; i < 3 * b->per_msg && got < want; i++) {
    step = MIN (want - got, iov[i].iov_len);
    if (step > 0)
      memcpy (ctl + got, iov[i].iov_base, step);
    got += step;
  }
  c->l->acked = udp_unit_answer (c, ctl, got,
      b->msgs[k].msg_hdr.msg_namelen ? &b->names[k] : NULL, err);
  /* the acceptance comes from the socket that sends this unit's
   * datagrams */
  if (c->l->acked)
    udp_unit_connect (c, k);
  return *err == NULL;
}

/* A sealed datagram's payload, opened in place: its header is
 * authenticated with it, its tag follows the header. FALSE when the tag
 * does not check. */
static gboolean
udp_unit_unseal (UdpUnit * c, const GstTileWirePacketHeader * h, guint8 * hdr,
    guint8 * payload)
{
  guint8 iv[GST_TILE_SEAL_IV_SIZE];

  gboolean parity = (h->flags & GST_TILE_WIRE_PACKET_FLAG_PARITY) != 0;

  gst_tile_receiver_unit_key (c->u, h->generation, h->frame);
  /* (a parity datagram: a nonce of its own kind, every byte sealed) */
  gst_tile_seal_iv (iv, FALSE, c->u->index | (parity ?
          GST_TILE_SEAL_IV_PARITY : 0), h->frame, h->offset);
  return gst_tile_seal_once (c->u->seal, iv, hdr,
      GST_TILE_WIRE_PACKET_HEADER_SIZE, payload, payload, parity ? c->ps :
      MIN (c->ps, c->tile_size - h->offset),
      hdr + GST_TILE_WIRE_PACKET_HEADER_SIZE);
}

/* Parses the @r messages received: valid datagrams of this unit into the
 * batch's @hs and @payloads (in place, or gathered into staging when
 * mispredicted; opened when sealed). Returns how many, -1 with @err set on
 * a refusal. */
static gint
udp_unit_parse (UdpUnit * c, gint r, guint * invalid, guint * tampered,
    GError ** err)
{
  UdpBatch *b = &c->l->batch;
  GstTileReceiver *self = c->self;
  guint n = 0, k;

  for (k = 0; k < (guint) r; k++) {
    guint len = b->msgs[k].msg_len, step = len, off, j;
    guint32 drops = G_MAXUINT32;
    guint64 arrival = 0;

    gst_tile_net_udp_message_info (&b->msgs[k].msg_hdr, &step, &drops,
        &arrival);
    /* read by the stats under the lock, which is not held here */
    if (drops != G_MAXUINT32)
      g_atomic_int_set ((gint *) &
          self->udp->unit_drops[c->u->index][c->l - c->legs], drops);
    /* not connected yet: only the sender's host is heard */
    if (!c->l->connected && b->msgs[k].msg_hdr.msg_namelen > 0 &&
        !udp_unit_from_sender_host (c, &b->names[k])) {
      *invalid += 1;
      continue;
    }
    /* (control messages start with "GSBC", datagrams with "GSBU") */
    if (!c->l->acked && len >= GST_TILE_WIRE_HEADER_SIZE &&
        GST_READ_UINT32_BE (b->iovs[3 * k * b->per_msg].iov_base) ==
        GST_TILE_WIRE_MAGIC) {
      if (!udp_unit_control (c, k, len, err))
        return -1;
      continue;
    }
    /* every datagram of a message must be a whole one, or the layout
     * does not hold: all of it is invalid then */
    if (step != c->seg || len % c->seg != 0 || len / c->seg > b->per_msg) {
      *invalid += MAX (1, len / MAX (step, 1));
      continue;
    }
    for (off = 0, j = 0; off < len; off += c->seg, j++) {
      guint idx = k * b->per_msg + j;
      GstTileWirePacketHeader *h = &b->hs[n];
      guint8 *stage = b->bufs + (gsize) idx * c->ps;
      struct iovec *iov = &b->iovs[3 * idx];

      if (gst_tile_wire_packet_header_parse (iov[0].iov_base,
              GST_TILE_WIRE_PACKET_HEADER_SIZE, h,
              NULL) != GST_TILE_WIRE_PARSE_OK
          || !gst_tile_wire_packet_check (h, c->config, NULL)
          || h->unit != c->u->index) {
        (*invalid)++;
        continue;
      }
      if (b->pred[idx] != G_MAXUINT64 && h->frame == c->exp_frame &&
          h->offset == b->pred[idx] && h->flags == 0) {
        b->payloads[n] = iov[1].iov_base;       /* in place */
      } else {
        /* mispredicted: gather the payload into staging now, before any
         * datagram of this batch is moved into the frame */
        if (b->pred[idx] != G_MAXUINT64)
          memcpy (stage, iov[1].iov_base, iov[1].iov_len);
        b->payloads[n] = stage;
      }
      if (c->u->seal && !udp_unit_unseal (c, h, iov[0].iov_base,
              (guint8 *) b->payloads[n])) {
        /* (opened in place, what it left in the frame is not marked as
         * received: the datagram that belongs there overwrites it, or the
         * previous frame's bytes do) */
        (*tampered)++;
        continue;
      }
      b->arrivals[n] = arrival;
      n++;
      /* a datagram of this unit before the echo: from the same socket */
      if (!c->l->connected)
        udp_unit_connect (c, k);
    }
  }
  return n;
}

/* The datagram after the last one received is the next one expected. */
static void
udp_unit_predict (UdpUnit * c, guint n)
{
  GstTileWirePacketHeader *last = &c->l->batch.hs[n - 1];

  c->l->acked = TRUE;           /* data flows: our hello was heard */
  c->have_exp = TRUE;
  c->exp_frame = last->frame;
  c->exp_off = last->offset + c->ps;
  /* (parity comes after the tile's data: the next frame's is next) */
  if (c->exp_off >= c->tile_size ||
      (last->flags & GST_TILE_WIRE_PACKET_FLAG_PARITY)) {
    c->exp_frame++;
    c->exp_off = 0;
  }
}

/* Waits up to @timeout_ms for datagrams on any of the unit's sockets;
 * @ready says which have some. FALSE when none has. */
static gboolean
udp_unit_wait (UdpUnit * c, gint timeout_ms, gboolean * ready)
{
  gint fds[GST_TILE_WIRE_MAX_PATHS];
  guint k;

  /* (not those whose batch waits for a slot: poll () skips -1) */
  for (k = 0; k < c->n_legs; k++)
    fds[k] = c->legs[k].pend_from < c->legs[k].pend_n ? -1 : c->legs[k].fd;
  return gst_tile_net_wait_any (fds, c->n_legs, timeout_ms, ready);
}

/* One batch from socket c->l into the frames. Returns what
 * gst_tile_net_udp_recv_batch () did, -1 also on a refusal (@err set). */
static gint
udp_unit_receive_batch (UdpUnit * c, GError ** err)
{
  GstTileReceiver *self = c->self;
  GstTileReceiverSlot *pinned;
  guint invalid = 0, tampered = 0;
  gint r, n;
  guint stop;

  pinned = udp_unit_pin (c);
  udp_unit_layout (c, pinned);
  r = gst_tile_net_udp_recv_batch (c->l->fd, c->l->batch.msgs, c->l->batch.vlen,
      err);
  n = r > 0 ? udp_unit_parse (c, r, &invalid, &tampered, err) : 0;
  if (n > 0)
    udp_unit_predict (c, n);
  if (n > 0 || invalid > 0 || tampered > 0 || pinned) {
    stop = udp_file_batch (self, c->u, c->run, &c->l->batch, 0, MAX (n, 0),
        invalid, tampered, pinned, c->l->path, self->stripe && c->n_legs > 1);
    c->l->pend_from = stop;
    c->l->pend_n = MAX (n, 0);
  }
  return n < 0 ? -1 : r;
}

/* Striped datagrams: the sockets whose last batch waits for a slot (it
 * holds a newer frame than the two filling) file it on as far as they
 * can; the others are read meanwhile, for the older frames' datagrams.
 * Returns how many still wait; with all of them waiting, waits for a slot
 * (10 ms at most). */
static guint
udp_unit_refile (UdpUnit * c)
{
  GstTileReceiver *self = c->self;
  guint k, waiting = 0;

  for (k = 0; k < c->n_legs; k++) {
    UdpLeg *l = &c->legs[k];

    if (l->pend_from >= l->pend_n)
      continue;
    l->pend_from = udp_file_batch (self, c->u, c->run, &l->batch,
        l->pend_from, l->pend_n, 0, 0, NULL, l->path, TRUE);
    waiting += l->pend_from < l->pend_n;
  }
  if (waiting > 0 && waiting == c->n_legs) {
    g_mutex_lock (&self->lock);
    if (self->running && self->run == c->run)
      g_cond_wait_until (&self->cond, &self->lock, g_get_monotonic_time () +
          10 * G_TIME_SPAN_MILLISECOND);
    g_mutex_unlock (&self->lock);
  }
  return waiting;
}

/* Receives batches until the generation is over (a CONFIG or EOS came and
 * the sockets are empty) or an error. With redundant paths a socket's
 * receive error (an ICMP error of a path that went down, reported once)
 * is counted and the others go on. */
static void
udp_unit_receive (UdpUnit * c, GError ** err)
{
  GstTileReceiver *self = c->self;
  gboolean ready[GST_TILE_WIRE_MAX_PATHS];

  while (udp_unit_hello (c, err)) {
    gboolean drain, unacked = FALSE, any = FALSE;
    guint k, waiting;

    g_mutex_lock (&self->lock);
    drain = self->udp->drain || !self->running || self->run != c->run;
    g_mutex_unlock (&self->lock);
    for (k = 0; k < c->n_legs; k++)
      unacked |= !c->legs[k].acked;
    if ((waiting = udp_unit_refile (c)) == c->n_legs)
      continue;
    /* (while a batch waits for a slot, it is tried again soon) */
    if (!drain && !udp_unit_wait (c, waiting ? 2 : unacked ? 20 : 100, ready))
      continue;
    for (k = 0; k < c->n_legs; k++) {
      gint r;

      /* (a socket whose batch waits for a slot is not read on) */
      if ((!drain && !ready[k]) || c->legs[k].pend_from < c->legs[k].pend_n)
        continue;
      c->l = &c->legs[k];
      r = udp_unit_receive_batch (c, err);
      if (r < 0 && c->n_legs > 1 && *err &&
          (*err)->domain == G_IO_ERROR) {
        GST_DEBUG_OBJECT (self->log_object, "unit %u path %u: %s",
            c->u->index, k, (*err)->message);
        g_clear_error (err);
        g_atomic_int_inc ((gint *) & self->udp->path_errors);
        continue;
      }
      if (r < 0) {
        if (*err)
          g_prefix_error (err, "unit %u: ", c->u->index);
        return;
      }
      any |= r > 0;
    }
    if (drain && !any && waiting == 0)
      return;                   /* (empty sockets when draining: done) */
  }
}

gpointer
gst_tile_receiver_udp_unit (gpointer data)
{
  GstTileReceiverUnit *u = data;
  GstTileReceiver *self = u->rx;
  GError *err = NULL;
  UdpUnit c = { 0 };

  struct sockaddr_storage servers[GST_TILE_WIRE_MAX_PATHS];
  guint lens[GST_TILE_WIRE_MAX_PATHS], paths[GST_TILE_WIRE_MAX_PATHS], k;

  c.self = self;
  c.u = u;
  g_mutex_lock (&self->lock);
  c.config = self->config;
  c.run = self->run;
  c.n_legs = gst_tile_receiver_paths_unit_servers_locked (self, u->index,
      servers, lens, paths);
  for (k = 0; k < c.n_legs; k++) {
    c.legs[k].fd = -1;
    c.legs[k].hello = g_byte_array_new ();
    c.legs[k].uh.token = c.config->token;
    c.legs[k].uh.generation = c.config->generation;
    c.legs[k].uh.unit = u->index;
    c.legs[k].server = servers[k];
    c.legs[k].server_len = lens[k];
    c.legs[k].path = MIN (paths[k], GST_TILE_WIRE_MAX_PATHS - 1);
  }
  c.l = &c.legs[0];
  gst_tile_receiver_unit_seal (u);
  gst_tile_receiver_nack_unit_reset_locked (u);
  g_mutex_unlock (&self->lock);
  c.ps = c.config->packet_size;
  c.hl = GST_TILE_WIRE_DATAGRAM_OVERHEAD (u->seal);
  c.seg = c.hl + c.ps;
  c.multicast = c.config->mcast_family != 0;
  if (c.multicast)
    udp_unit_local_sender (&c);
  c.tile_off = c.config->tiles[u->index].offset;
  c.tile_size = c.config->tiles[u->index].size;

  if (udp_unit_open (&c, &err)) {
    for (k = 0; k < c.n_legs; k++)
      udp_batch_alloc (&c.legs[k].batch, c.gro, c.hl, c.ps);
    for (k = 0; k < c.n_legs; k++)
      udp_unit_pack_hello (&c, &c.legs[k]);
    c.hello_end = (gint64) gst_util_get_timestamp () +
        (gint64) self->settings.timeout * GST_MSECOND;
    udp_unit_receive (&c, &err);
  }

  g_mutex_lock (&self->lock);
  if (err && self->running && self->run == c.run) {
    GST_WARNING_OBJECT (self->log_object, "%s", err->message);
    gst_tile_receiver_set_error_locked (self, err);
  }
  g_clear_error (&err);
  gst_tile_receiver_unit_unseal (u);
  self->units_running--;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  udp_unit_free (&c);
  return NULL;
}

/* Turns an incomplete frame into an output buffer (@by_timer: its timer
 * fired, else the units are gone): marks it corrupted and lists the
 * missing datagrams' byte ranges in a GstBcLossMeta. The buffer stays
 * mapped in @map for gst_tile_receiver_udp_conceal(). Lock held. */
static void
udp_take_partial_locked (GstTileReceiver * self, GstTileReceiverSlot * slot,
    gboolean by_timer, GstMapInfo * map)
{
  GstTileReceiverUdp *udp = self->udp;
  UdpSlot *us = udp_slot (self, slot);
  GstTileWireConfig *config = self->config;
  GstBcLossMeta *meta;
  guint ps = config->packet_size, t, j, missing = 0;

  meta = gst_buffer_add_bc_loss_meta (slot->buffer);
  for (t = 0; t < config->n_tiles; t++) {
    guint n = udp->pk_base[t + 1] - udp->pk_base[t];

    /* (the tiles outside a region are not ours to lose) */
    for (j = 0; gst_tile_receiver_uses (self, t) && j < n; j++) {
      guint idx = udp->pk_base[t] + j;
      guint64 off = (guint64) j * ps;

      if (us->got[idx / 8] & (1 << (idx % 8)))
        continue;
      missing++;
      gst_bc_loss_meta_add_range (meta, config->tiles[t].offset + off,
          MIN (ps, config->tiles[t].size - off));
    }
  }
  GST_BUFFER_FLAG_SET (slot->buffer, GST_BUFFER_FLAG_CORRUPTED);
  udp_note_receive_time_locked (udp, us);
  if (us->n_parity > 0)
    self->counters.fec_frames_unrecoverable++;
  self->counters.packets_lost += missing;
  self->counters.frames_partial++;
  if (by_timer) {
    self->counters.frames_timer++;
    udp->timer_frame = slot->frame;
    udp->have_timer_frame = TRUE;
    udp->timer_frame_raised = FALSE;
    udp->timer_frame_filled = us->n_fills > 0;
  }
  GST_DEBUG_OBJECT (self->log_object,
      "frame %" G_GUINT64_FORMAT " pushed with %u of %u " "datagrams missing",
      slot->frame, missing, udp->total);
  *map = slot->map;
  slot->complete_time = gst_tile_receiver_clock_time (self);
  slot->state = SLOT_COMPLETE;
}

/* The frame that leaves next, or NULL: the oldest, whole or out of time
 * (then taken with its gaps: @partial, mapped in @map). *@wait_until: its
 * timer, to wake up for. Lock held. */
GstTileReceiverSlot *
gst_tile_receiver_udp_next_locked (GstTileReceiver * self,
    gboolean * partial, GstMapInfo * map, gint64 * wait_until)
{
  /* frames leave in order: the oldest, whole or out of time */
  GstTileReceiverSlot *low = gst_tile_receiver_slots_oldest_locked (self,
      TRUE);

  *wait_until = 0;
  if (low && low->state == SLOT_COMPLETE && self->stripe &&
      self->paths.n_up > 1 && self->udp->have_pushed &&
      low->frame > self->udp->last_pushed + 1 && self->units_running > 0) {
    /* striped datagrams: the paths overtake each other, so a whole frame
     * may come before an older one has begun to (its datagrams still on
     * the slower path): it waits for it, until its own timer */
    UdpSlot *us = udp_slot (self, low);
    gint64 until = MAX (us->deadline, us->last_ns +
        self->udp->timer_floor_ns);

    if ((gint64) gst_util_get_timestamp () < until) {
      *wait_until = until;
      return NULL;
    }
  }
  if (low && low->state == SLOT_COMPLETE)
    return low;
  if (low && low->writers == 0) {
    /* out of time: past its timer, and no datagram of it for the timer
     * floor (a frame whose datagrams still come, on a link slower than
     * measured so far, is not cut) */
    UdpSlot *us = udp_slot (self, low);
    gint64 now = (gint64) gst_util_get_timestamp ();
    gint64 until = MAX (us->deadline,
        us->last_ns + self->udp->timer_floor_ns);

    if (self->units_running == 0 || now >= until) {
      /* retransmit: its missing datagrams are asked for, and it waits a
       * round trip more for them (tilereceiver-nack.c) */
      if (udp_credible_locked (self, low) &&
          gst_tile_receiver_nack_timer_locked (self, low, us->got,
              self->udp->pk_base, us->n_fills, &us->deadline)) {
        *wait_until = us->deadline;
        return NULL;
      }
      if (!udp_credible_locked (self, low)) {
        /* given up without moving the receive window, and acknowledged
         * (the oldest frame: the sender knows it, or ignores the ACK); the
         * next oldest frame may leave now */
        udp_feedback_locked (self, low, low->frame, low->sender_ts,
            &self->udp->discard_ack);
        self->udp->have_discard_ack = TRUE;
        udp_discard_locked (self, low);
        return gst_tile_receiver_udp_next_locked (self, partial, map,
            wait_until);
      }
      udp_take_partial_locked (self, low, self->units_running > 0, map);
      *partial = TRUE;
      return low;
    }
    /* (with writers, the last of them broadcasts: a timed wait on a
     * deadline already past would spin and starve them of the lock) */
    *wait_until = until;
  }
  return NULL;
}

/* The one-way delay of a datagram that arrived at @arrival (realtime) of
 * a frame sent at @sender_time, plus the offset between the clocks; 0
 * when unknown. */
static gint64
udp_delay (guint64 arrival, GstClockTime sender_time)
{
  gint64 d;

  if (!GST_CLOCK_TIME_IS_VALID (sender_time))
    return 0;
  d = (gint64) (arrival - sender_time);
  return d == 0 ? 1 : d;        /* 0 means unknown */
}

/* @ack for the frame @number of @slot, sent at @sender_time: the window,
 * and what the sender's rate control needs to know of the frame. Lock
 * held. */
static void
udp_feedback_locked (GstTileReceiver * self, GstTileReceiverSlot * slot,
    guint64 number, GstClockTime sender_time, GstTileWireAck * ack)
{
  GstTileReceiverUdp *udp = self->udp;
  UdpSlot *us = udp_slot (self, slot);
  guint64 first;
  guint i, sum = 0;

  memset (ack, 0, sizeof (*ack));
  ack->generation = self->config->generation;
  ack->window = udp->window == G_MAXUINT ? 2 : udp->window;
  ack->has_frame = TRUE;
  ack->frame = number;
  /* from the kernel's arrival times when there are (our own clock
   * readings would count the time our threads were off the CPU as the
   * path's) */
  /* (the datagrams resent for NACKs are not the path's pace: their time
   * is a round trip after their frame's, and the path lost their first
   * sending; the sender counts only first sendings too) */
  /* (nor what parity recovered: it did not arrive; nor parity, which
   * comes after the tile's data and may come after the frame was whole:
   * the sender compares this with the data datagrams it sent) */
  /* (striped datagrams: the paths overtake each other, and parity over one
   * path recovers data still on its way over another, which then comes:
   * what parity recovered is not taken as lost, or fec=auto would keep
   * adding parity for it) */
  ack->received = us->n_got - MIN (us->n_fills + (self->stripe ? 0 :
          us->n_recovered), us->n_got);
  ack->has_feedback = ack->received > 0;
  if (us->arrive_first) {
    first = us->arrive_first;
    ack->receive_ns = us->arrive_last - us->arrive_first;
    /* those of the last arrival (a GRO batch) came after it */
    ack->spanned = ack->received - MIN (us->n_at_last, ack->received);
  } else {
    first = us->first_real_ns;
    ack->receive_ns = MAX (us->last_ns - us->first_ns, 0);
    ack->spanned = ack->received ? ack->received - 1 : 0;
  }
  ack->receive_ns = MIN (ack->receive_ns, GST_SECOND);
  ack->delay_ns = udp_delay (first, sender_time);
  /* striped datagrams: the same of each path they came over */
  if (!ack->has_feedback)
    return;
  for (i = 0; i < GST_TILE_WIRE_MAX_PATHS; i++) {
    UdpPathFeedback *pf = &us->paths[i];
    GstTileWireAckPath *p = &ack->paths[ack->n_paths];

    if (!(us->paths_seen & (1u << i)))
      continue;
    p->path = i;
    p->received = MIN (pf->received, ack->received - sum);
    sum += p->received;
    p->spanned = p->received - MIN (pf->n_at_last, p->received);
    p->receive_ns = MIN (pf->arrive_last - pf->arrive_first, GST_SECOND);
    p->delay_ns = udp_delay (pf->arrive_first, sender_time);
    ack->n_paths++;
  }
}

/* The frame of @slot, just taken out into @frame, leaves: the receive
 * window moves past it, and @ack is its ACK to send. Lock held. */
void
gst_tile_receiver_udp_take_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, const GstTileReceiverFrame * frame,
    GstTileWireAck * ack)
{
  GstTileReceiverUdp *udp = self->udp;

  if (udp->have_pushed && frame->frame > udp->last_pushed + 1)
    self->counters.frames_skipped += frame->frame - udp->last_pushed - 1;
  udp->last_pushed = frame->frame;
  udp->have_pushed = TRUE;
  udp_feedback_locked (self, slot, frame->frame, frame->sender_time, ack);
}

/* The ACK of a frame given up since the last call, if any, into @ack.
 * Lock held. */
gboolean
gst_tile_receiver_udp_discard_ack_locked (GstTileReceiver * self,
    GstTileWireAck * ack)
{
  if (!self->udp || !self->udp->have_discard_ack)
    return FALSE;
  *ack = self->udp->discard_ack;
  self->udp->have_discard_ack = FALSE;
  return TRUE;
}

/* The concealment: the missing ranges of @buf (mapped in @map) keep the
 * newest data we have for them, the previous frame's (only those ranges
 * are copied). */
void
gst_tile_receiver_udp_conceal (GstTileReceiver * self, GstBuffer * buf,
    GstMapInfo * map)
{
  GstBcLossMeta *meta = gst_buffer_get_bc_loss_meta (buf);
  GstMapInfo lmap = GST_MAP_INFO_INIT;
  GstBuffer *last = NULL;
  gboolean have_last;
  guint i;

  if (!meta)
    return;
  g_mutex_lock (&self->lock);
  if (self->udp->last_buffer)
    last = gst_buffer_ref (self->udp->last_buffer);
  g_mutex_unlock (&self->lock);
  have_last = last && gst_buffer_map (last, &lmap, GST_MAP_READ);
  for (i = 0; i < meta->n_ranges; i++) {
    const GstBcLossRange *r = &meta->ranges[i];

    if (r->offset + r->size > map->size)
      continue;
    /* (without a previous frame: zeros, never what a datagram that failed
     * its checks left there, nor an old buffer's bytes) */
    if (have_last && r->offset + r->size <= lmap.size)
      memcpy (map->data + r->offset, lmap.data + r->offset, r->size);
    else
      memset (map->data + r->offset, 0, r->size);
  }
  if (have_last)
    gst_buffer_unmap (last, &lmap);
  if (last)
    gst_buffer_unref (last);
}

/* gst_tile_receiver_keep_last(): @buffer is the newest frame pushed, the
 * one that conceals the gaps of the next; the first after a start or a
 * flush is copied, the others are kept by reference. */
void
gst_tile_receiver_udp_keep_last (GstTileReceiver * self, GstBuffer * buffer)
{
  GstBuffer *keep;
  gboolean by_ref;

  g_mutex_lock (&self->lock);
  by_ref = self->udp->keep_last;
  g_mutex_unlock (&self->lock);
  keep = by_ref ? gst_buffer_ref (buffer) : gst_buffer_copy_deep (buffer);
  g_mutex_lock (&self->lock);
  gst_buffer_replace (&self->udp->last_buffer, NULL);
  self->udp->last_buffer = keep;
  self->udp->keep_last = TRUE;
  g_mutex_unlock (&self->lock);
}

/* A flush is over: GstBaseSrc marks the next buffer DISCONT, a copy is
 * kept of it. Lock held. */
void
gst_tile_receiver_udp_flushed_locked (GstTileReceiverUdp * udp)
{
  udp->keep_last = FALSE;
}
