/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The sender's clock at the receiver: TIME queries over the control
 * connection (GstNetTimePacket's two times, sealed with a passphrase), and
 * a clock calibrated from the answers the way GstNetClientClock does it:
 * each answer is an observation of the sender's time at the middle of its
 * round trip, fed to gst_clock_add_observation () (GStreamer's regression
 * over a window of observations), answers that took much longer than the
 * shortest round trip left out. The clock is a GstSystemClock on the
 * monotonic time of this host: before the first answer it reads this
 * host's time, after it the sender's. A sender clock that jumps by more
 * than GST_TILE_RECEIVER_CLOCK_JUMP is followed at once (a resync,
 * counted), not averaged in. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilereceiver-private.h"

/* queries: a few in quick succession while the clock settles, then one a
 * second */
#define FAST_QUERIES 8
#define FAST_INTERVAL_US (100 * 1000)
#define SLOW_INTERVAL_US (1000 * 1000)
/* an answer that does not come within this is given up */
#define ANSWER_TIMEOUT_US (1000 * 1000)
/* observations before the clock counts as synchronised */
#define SYNCED_AFTER 4
/* an answer whose round trip is longer than twice the shortest one seen
 * lately, plus this, is left out (it waited somewhere on the way) */
#define RTT_SLACK (1 * GST_MSECOND)
#define RTT_WINDOW 16

static GstClock *
new_clock (void)
{
  GstClock *clock = g_object_new (GST_TYPE_SYSTEM_CLOCK, "name",
      "tilesrc-sender-clock", "clock-type", GST_CLOCK_TYPE_MONOTONIC, NULL);

  gst_object_ref_sink (clock);
  /* as GstNetClientClock and GstPtpClock: synced once answers came */
  GST_OBJECT_FLAG_SET (clock, GST_CLOCK_FLAG_NEEDS_STARTUP_SYNC);
  /* it starts at 0, as a GstNetClientClock of base time 0: until the first
   * answer it has given small times, and the sender's is almost never
   * behind them (when it is, another clock takes its place) */
  gst_clock_set_calibration (clock, gst_clock_get_internal_time (clock), 0, 1,
      1);
  return clock;
}

void
gst_tile_receiver_clock_init (GstTileReceiverClock * c)
{
  memset (c, 0, sizeof (*c));
  c->clock = new_clock ();
  c->pending = GST_CLOCK_TIME_NONE;
  c->rtt = GST_CLOCK_TIME_NONE;
}

/* GstClock restarts its regression window when the window size is set */
static void
restart_regression (GstTileReceiverClock * c)
{
  gint size;

  g_object_get (c->clock, "window-size", &size, NULL);
  g_object_set (c->clock, "window-size", size, NULL);
}


void
gst_tile_receiver_clock_clear (GstTileReceiverClock * c)
{
  gst_clear_object (&c->clock);
  gst_clear_object (&c->replaced);
}

/* A new control connection: its sender may have another clock, so the
 * calibration starts over at its first answer (the clock stays
 * monotonic for its readers: GstClock never goes back). Lock held. */
void
gst_tile_receiver_clock_reset_locked (GstTileReceiverClock * c)
{
  c->pending = GST_CLOCK_TIME_NONE;
  c->next_us = 0;
  c->queries = 0;
  c->observations = 0;
  c->n_rtt = 0;
  c->rtt = GST_CLOCK_TIME_NONE;
  restart_regression (c);
  gst_clock_set_synced (c->clock, FALSE);
}

/* When a query is due at @now_us (monotonic µs), fills @q and returns
 * TRUE: the control thread sends it. Lock held. */
gboolean
gst_tile_receiver_clock_query_locked (GstTileReceiverClock * c, gint64 now_us,
    GstTileWireTime * q)
{
  if (c->pending != GST_CLOCK_TIME_NONE && now_us - c->sent_us <
      ANSWER_TIMEOUT_US)
    return FALSE;
  if (c->pending != GST_CLOCK_TIME_NONE)
    c->lost++;
  if (now_us < c->next_us)
    return FALSE;
  c->pending = gst_clock_get_internal_time (c->clock);
  c->sent_us = now_us;
  c->next_us = now_us + (c->queries < FAST_QUERIES ? FAST_INTERVAL_US :
      SLOW_INTERVAL_US);
  c->queries++;
  q->local_time = c->pending;
  q->remote_time = GST_CLOCK_TIME_NONE;
  return TRUE;
}

static GstClockTime
shortest_rtt (const GstTileReceiverClock * c)
{
  GstClockTime m = GST_CLOCK_TIME_NONE;
  guint i, n = MIN (c->n_rtt, RTT_WINDOW);

  for (i = 0; i < n; i++)
    m = MIN (m, c->rtts[i]);
  return m;
}

/* The sender's answer @a, received now. An answer to no query of ours, or
 * to an older one, is ignored (counted). Lock held. */
void
gst_tile_receiver_clock_answer_locked (GstTileReceiverClock * c,
    const GstTileWireTime * a, GstObject * log_object)
{
  GstClockTime now, rtt, local, predicted, best;
  GstClockTimeDiff off;
  gdouble r_squared;

  if (a->local_time != c->pending || c->pending == GST_CLOCK_TIME_NONE) {
    c->ignored++;
    return;
  }
  c->pending = GST_CLOCK_TIME_NONE;
  GST_LOG_OBJECT (log_object, "TIME answer: local %" GST_TIME_FORMAT
      ", remote %" GST_TIME_FORMAT, GST_TIME_ARGS (a->local_time),
      GST_TIME_ARGS (a->remote_time));
  if (a->remote_time == GST_CLOCK_TIME_NONE)
    return;                     /* the sender has no clock yet */
  now = gst_clock_get_internal_time (c->clock);
  if (now < a->local_time) {
    c->ignored++;
    return;
  }
  rtt = now - a->local_time;
  c->rtts[c->n_rtt++ % RTT_WINDOW] = rtt;
  best = shortest_rtt (c);
  if (c->observations >= SYNCED_AFTER && rtt > 2 * best + RTT_SLACK) {
    c->filtered++;
    return;
  }
  local = a->local_time + rtt / 2;
  predicted = gst_clock_adjust_with_calibration (c->clock, local,
      c->cal_internal, c->cal_external, c->cal_num, c->cal_denom);
  off = GST_CLOCK_DIFF (predicted, a->remote_time);
  c->rtt = rtt;
  if (c->observations == 0 ||
      (GstClockTime) ABS (off) > MAX (GST_TILE_RECEIVER_CLOCK_JUMP, 2 * best)) {
    if (c->observations > 0) {
      c->resyncs++;
      GST_WARNING_OBJECT (log_object, "the sender's clock jumped by %"
          GST_STIME_FORMAT ": following it", GST_STIME_ARGS (off));
    }
    /* a GstClock never goes back: it stands still until the new time
     * catches up. For a step back of up to GST_TILE_RECEIVER_CLOCK_BACK
     * that is what it does (as the sender's own clock would); when the
     * sender's time is further behind what the clock has given (another
     * sender, or its pipeline took another clock), another clock takes its
     * place, and the element has its pipeline select it */
    if (a->remote_time + rtt + GST_TILE_RECEIVER_CLOCK_BACK <
        gst_clock_get_time (c->clock)) {
      GST_INFO_OBJECT (log_object, "the sender's time %" GST_TIME_FORMAT
          " is behind the clock's %" GST_TIME_FORMAT ": a new clock",
          GST_TIME_ARGS (a->remote_time),
          GST_TIME_ARGS (gst_clock_get_time (c->clock)));
      if (!c->replaced)
        c->replaced = c->clock;
      else
        gst_object_unref (c->clock);
      c->clock = new_clock ();
    }
    /* the sender's time now, at the rate of this host's clock; the
     * regression starts over from this observation */
    restart_regression (c);
    gst_clock_set_calibration (c->clock, local, a->remote_time, 1, 1);
    gst_clock_set_synced (c->clock, FALSE);
    c->cal_internal = local;
    c->cal_external = a->remote_time;
    c->cal_num = c->cal_denom = 1;
    c->observations = 1;
    c->offset = GST_CLOCK_DIFF (local, a->remote_time);
    return;
  }
  /* GStreamer's regression over the window; the calibration is applied
   * when it has enough observations */
  if (gst_clock_add_observation (c->clock, local, a->remote_time,
          &r_squared)) {
    gst_clock_get_calibration (c->clock, &c->cal_internal, &c->cal_external,
        &c->cal_num, &c->cal_denom);
  }
  c->offset = GST_CLOCK_DIFF (local, gst_clock_adjust_with_calibration
      (c->clock, local, c->cal_internal, c->cal_external, c->cal_num,
          c->cal_denom));
  if (++c->observations == SYNCED_AFTER) {
    GST_INFO_OBJECT (log_object, "following the sender's clock: offset %"
        GST_STIME_FORMAT ", round trip %" GST_TIME_FORMAT,
        GST_STIME_ARGS (c->offset), GST_TIME_ARGS (rtt));
    gst_clock_set_synced (c->clock, TRUE);
  }
}

/* The clock's statistics into @s. Lock held. */
void
gst_tile_receiver_clock_stats_locked (const GstTileReceiverClock * c,
    GstStructure * s)
{
  gst_structure_set (s,
      "clock-synced", G_TYPE_BOOLEAN, c->observations >= SYNCED_AFTER,
      "clock-offset", G_TYPE_INT64, (gint64) c->offset,
      "clock-rtt", G_TYPE_UINT64, c->rtt == GST_CLOCK_TIME_NONE ?
      (guint64) 0 : (guint64) c->rtt,
      "clock-resyncs", G_TYPE_UINT, c->resyncs,
      "clock-answers-ignored", G_TYPE_UINT, c->ignored + c->filtered,
      "clock-queries-lost", G_TYPE_UINT, c->lost, NULL);
}
