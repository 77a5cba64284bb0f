/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gsttilerate
 * @title: GstTileRateControl
 * @short_description: the pacing rate of protocol=udp, from the receiver's
 *     feedback
 *
 * UDP has no congestion control of its own: a sender faster than the path
 * fills the bottleneck's queue (latency) and then loses datagrams (frames
 * with gaps). tilesink paces its datagrams, and this is what sets the pace
 * when `pacing-bitrate` is not set by hand, from what the receiver reports of
 * every frame in its ACK (docs/wire-protocol.md).
 *
 * A frame is a train of datagrams sent back to back at the pacing rate,
 * so one frame is a measurement of the path (the packet-train dispersion
 * of Keshav's packet pair, Jacobson's and BBR's delivery rate): when the
 * pacing rate is above the bottleneck's, the train arrives spread out to
 * the bottleneck's rate (its receive time is longer than its send time),
 * its first datagram waits behind the queue of the frames before it (the
 * one-way delay grows above its minimum, as in LEDBAT and WebRTC's GCC) or,
 * once the queue is full, datagrams are lost. Each of the three signals
 * means overuse:
 *
 * - the frame arrived spread out: receive time > 1.04 x send time + 1 ms
 *   (the receiver reports the kernel's arrival times, so this does not
 *   depend on when its threads ran; the 4 % catches a pace just above a
 *   slow link's rate, where a frame takes tens of ms, before the queue it
 *   builds overflows, and the 1 ms a sending thread's hiccup on a short
 *   frame);
 * - queueing: the first datagram's one-way delay is more than
 *   max(2 ms, a quarter of the frame's send time) above the least of the
 *   last 5 to 10 s;
 * - loss: 2 % with a queue of 1 ms (a short queue overflowing), or more
 *   than 10 % with the rest delivered slower than it was sent (a policer,
 *   or nothing arrived). Random loss below 10 % is not taken as
 *   congestion, nor datagrams that arrived after the receiver had given
 *   up on the frame (its thread off the CPU): those that did arrive came
 *   as fast as they were sent.
 *
 * On overuse in two frames in a row (one alone is as likely the
 * receiving or sending thread kept off the CPU on a busy machine), or in
 * one frame that took 10 ms or more to send (a slow link: waiting for a
 * second frame lets the pace grow far past the link's rate), the
 * rate goes to 0.9 x the frame's delivery rate (what the bottleneck
 * passed), once per round: frames sent before the decrease do not
 * decrease it again. Otherwise, while less than 2 % is lost, the rate
 * grows by 2x per second (a step from 300 to 800 Mbit/s is followed in
 * 1.5 s), up to `pacing-bitrate` when set. Once it reaches twice the best
 * delivery rate seen lately without a sign of congestion, something else
 * limits the sending (the CPU, a receiver slower than the path, or the
 * signal was spurious: a receiving thread off the CPU until a frame's
 * timer fired), and pacing stops. Before the first overuse the sender is
 * not paced at all (or paced at `pacing-bitrate`): an idle loopback or LAN
 * keeps its full speed.
 *
 * The stream's own pace. Beside a loss-based TCP flow the queue never
 * empties and the trains are delayed, spread and clipped by that flow's
 * traffic, so the signals above say overuse whatever the pace, and the
 * rate would go down until the frames no longer fit between one another:
 * a frame paced at what the stream needs on average takes its whole frame
 * interval to leave, and the next one finds it in flight and is dropped.
 * So while the sender tells the stream's need (the frames' bytes over the
 * time between the frames offered) the rate does not go below the pace
 * that sends a frame within 0.7 of that interval, as long as the path
 * delivers that pace (the best delivery rate seen lately is at least 0.8 x
 * it: a link slower than the stream is never pushed) and loses less than
 * 10 % (smoothed; above it the floor is off for 5 s). The stream then
 * takes its need, and no more, from a flow that would take everything: a
 * stream that needs less than the link keeps its frames; one that needs
 * more than the path delivers gets no floor and the rate control above.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilerate.h"

#include <stdlib.h>

#include <string.h>

/* the most rate control paces at, bits/s */
#define RATE_CEIL (G_GUINT64_CONSTANT (400000000000))
#define BETA 0.9
#define LOSS_HIGH 0.10
/* frames in a row that must show overuse */
#define OVERUSE_FRAMES 2
#define LOSS_LOW 0.02
#define SQUEEZE_SLACK_NS (GST_MSECOND)
/* a frame that took this long to send is a sample no thread's hiccup
 * spoils: its overuse alone counts */
#define LONG_FRAME_NS (10 * GST_MSECOND)
#define QUEUE_MIN_NS (2 * GST_MSECOND)
#define QUEUE_LOSS_NS (GST_MSECOND)
#define WINDOW_NS (5 * GST_SECOND)
/* the most time one update may grow the rate for */
#define MAX_STEP_NS (250 * GST_MSECOND)
/* the stream's own pace: a frame leaves within this share of its interval */
#define FLOOR_SHARE 0.7
/* ... while the path delivered at least this share of that pace */
#define FLOOR_DELIVERED 0.8
/* shorter receive times are not measured well enough for a rate */
#define MIN_SPAN_NS (100 * GST_USECOND)

/**
 * gst_tile_rate_control_init:
 * @rc: the state
 * @max_rate: bits/s never to exceed, 0 for no bound
 *
 * Starts unpaced, or at @max_rate when set.
 */
void
gst_tile_rate_control_init (GstTileRateControl * rc, guint64 max_rate)
{
  g_return_if_fail (rc != NULL);

  memset (rc, 0, sizeof (*rc));
  rc->max_rate = max_rate;
  rc->rate = max_rate;
}

/**
 * gst_tile_rate_control_set_max:
 * @rc: the state
 * @max_rate: bits/s never to exceed, 0 for no bound
 *
 * A lower bound applies at once; without one the rate grows from where it
 * is.
 */
void
gst_tile_rate_control_set_max (GstTileRateControl * rc, guint64 max_rate)
{
  g_return_if_fail (rc != NULL);

  rc->max_rate = max_rate;
  if (max_rate && (rc->rate == 0 || rc->rate > max_rate))
    rc->rate = max_rate;
}

/**
 * gst_tile_rate_control_get_rate:
 * @rc: the state
 *
 * Returns: the pacing rate of all units together, bits/s; 0: not paced
 */
guint64
gst_tile_rate_control_get_rate (const GstTileRateControl * rc)
{
  g_return_val_if_fail (rc != NULL, 0);

  return rc->rate;
}

/**
 * gst_tile_rate_control_get_delivered:
 * @rc: the state
 *
 * Returns: the best rate the path delivered a frame at in the last 5 to
 * 10 s, bits/s; 0 before the first measurement
 */
guint64
gst_tile_rate_control_get_delivered (const GstTileRateControl * rc)
{
  g_return_val_if_fail (rc != NULL, 0);

  return MAX (rc->recv_max[0], rc->recv_max[1]);
}

/* Every WINDOW_NS the newer window becomes the older one: the minimum and
 * maximum are of the last 5 to 10 s. */
static void
roll_windows (GstTileRateControl * rc, gint64 now_ns)
{
  if (rc->window_start_ns && now_ns - rc->window_start_ns < WINDOW_NS)
    return;
  rc->window_start_ns = now_ns;
  rc->delay_min[1] = rc->delay_min[0];
  rc->have_delay[1] = rc->have_delay[0];
  rc->recv_max[1] = rc->recv_max[0];
  rc->have_delay[0] = FALSE;
  rc->recv_max[0] = 0;
}

/* The delivery rate of the frame, bits/s, 0 when it cannot be told: the
 * bytes the path delivered within the receive time over that time. */
static guint64
delivery_rate (const GstTileRateSample * s, guint received)
{
  guint64 bytes;
  guint spanned = MIN (s->packets_spanned, received);

  if (s->delivered)
    return s->delivered;
  if (spanned < 1 || s->receive_ns < (gint64) MIN_SPAN_NS)
    return 0;
  bytes = gst_util_uint64_scale (s->bytes, spanned, s->packets_sent);
  return gst_util_uint64_scale (bytes * 8, GST_SECOND, s->receive_ns);
}

/* The one-way delay above the least of the windows, 0 while unknown. */
static gint64
note_delay (GstTileRateControl * rc, const GstTileRateSample * s)
{
  gint64 base;

  if (!s->has_delay)
    return 0;
  if (!rc->have_delay[0] || s->delay_ns < rc->delay_min[0]) {
    rc->delay_min[0] = s->delay_ns;
    rc->have_delay[0] = TRUE;
  }
  base = rc->delay_min[0];
  if (rc->have_delay[1] && rc->delay_min[1] < base)
    base = rc->delay_min[1];
  return s->delay_ns - base;
}

/* Multiplies @rate by 2^(@dt_ns / 1 s), @dt_ns at most MAX_STEP_NS (the
 * series to the third power is exact to 0.2 % there). */
static guint64
grow (guint64 rate, gint64 dt_ns)
{
  gdouble x = 0.69314718 * dt_ns / GST_SECOND;

  return (guint64) (rate * (1.0 + x + x * x / 2 + x * x * x / 6));
}

static guint64
clamp_rate (const GstTileRateControl * rc, guint64 rate)
{
  rate = CLAMP (rate, GST_TILE_RATE_MIN, RATE_CEIL);
  if (rc->max_rate)
    rate = MIN (rate, rc->max_rate);
  return rate;
}

/* The stream's own pace (see the section description), 0 when it does not
 * apply. */
static guint64
floor_rate (const GstTileRateControl * rc, gint64 now_ns)
{
  guint64 floor, best = MAX (rc->recv_max[0], rc->recv_max[1]);

  if (!rc->need || now_ns < rc->floor_off_ns || rc->loss >= LOSS_HIGH)
    return 0;
  floor = rc->need / FLOOR_SHARE;
  if (best < FLOOR_DELIVERED * floor)
    return 0;
  return floor;
}

/**
 * gst_tile_rate_control_update:
 * @rc: the state
 * @sample: what is known of a frame once its ACK is in
 * @next_frame: the number the next frame admitted will have: a decrease
 *     holds until the frames sent after it report
 * @now_ns: a monotonic clock, ns
 *
 * Feeds one frame's measurements in (see the section description).
 *
 * Returns: %TRUE when the pacing rate changed
 */
gboolean
gst_tile_rate_control_update (GstTileRateControl * rc,
    const GstTileRateSample * sample, guint64 next_frame, gint64 now_ns)
{
  const GstTileRateSample *s = sample;
  guint received;
  guint64 recv_rate, send_rate, old = rc->rate, cap, from;
  gdouble loss;
  gint64 dt = 0;
  gboolean squeezed, overuse;

  g_return_val_if_fail (rc != NULL && sample != NULL, FALSE);

  if (s->packets_sent == 0)
    return FALSE;
  roll_windows (rc, now_ns);
  received = MIN (s->packets_received, s->packets_sent);
  loss = 1.0 - (gdouble) received / s->packets_sent;
  rc->loss = rc->have_sample ? 0.8 * rc->loss + 0.2 * loss : loss;

  if (s->interval_ns > 0)
    rc->need = gst_util_uint64_scale (s->bytes * 8, GST_SECOND,
        s->interval_ns);
  recv_rate = delivery_rate (s, received);
  if (recv_rate) {
    rc->recv_max[0] = MAX (rc->recv_max[0], recv_rate);
    rc->recv_avg = rc->recv_avg > 0 ? 0.8 * rc->recv_avg + 0.2 * recv_rate :
        recv_rate;
  }
  /* heavy loss, or a path that loses and delivers less than the floor
   * (it got slower): the floor is off for a while */
  if (rc->loss >= LOSS_HIGH || (loss >= LOSS_LOW && recv_rate &&
          recv_rate < FLOOR_DELIVERED * floor_rate (rc, now_ns)))
    rc->floor_off_ns = now_ns + WINDOW_NS;
  rc->queue_ns = note_delay (rc, s);
  if (rc->have_sample)
    dt = CLAMP (now_ns - rc->last_ns, 0, (gint64) MAX_STEP_NS);
  rc->last_ns = now_ns;
  rc->have_sample = TRUE;

  if (s->frame < rc->hold_frame)
    return FALSE;               /* sent before the last decrease */

  squeezed = recv_rate && s->receive_ns > s->send_ns + s->send_ns / 25 +
      (gint64) SQUEEZE_SLACK_NS;
  /* Loss with a queue is the queue overflowing. Heavy loss is overuse when
   * the path delivered less than was sent (a policer, a queue that
   * overflowed before it delayed much, or nothing arrived); not when what
   * arrived came as fast as it was sent: the rest came after the
   * receiver's timer had pushed the frame (its thread off the CPU), which
   * a lower rate does not cure, nor the path's own random loss. */
  send_rate = s->send_ns > 0 ?
      gst_util_uint64_scale (s->bytes * 8, GST_SECOND, s->send_ns) : 0;
  overuse = squeezed ||
      rc->queue_ns > MAX ((gint64) QUEUE_MIN_NS, s->send_ns / 4) ||
      (loss >= LOSS_LOW && rc->queue_ns > (gint64) QUEUE_LOSS_NS) ||
      (loss > LOSS_HIGH && (!recv_rate || recv_rate < 0.9 * send_rate));
  if (overuse && ++rc->overuse_streak < OVERUSE_FRAMES &&
      s->send_ns < (gint64) LONG_FRAME_NS)
    return FALSE;               /* one frame may be the receiver's hiccup */
  if (overuse) {
    rc->overuse_streak = 0;
    from = recv_rate;
    if (!from || (rc->rate && rc->rate < from))
      from = rc->rate;
    if (!from)
      from = send_rate;
    if (!from)
      return FALSE;
    rc->rate = clamp_rate (rc, MAX (from * BETA, floor_rate (rc, now_ns)));
    rc->hold_frame = next_frame;
    rc->congestion_events++;
    return rc->rate != old;
  }
  rc->overuse_streak = 0;
  if (rc->rate && rc->rate < floor_rate (rc, now_ns)) {
    rc->rate = clamp_rate (rc, floor_rate (rc, now_ns));
    return rc->rate != old;
  }
  if (rc->rate == 0 || loss >= LOSS_LOW)
    return FALSE;
  cap = 2 * MAX (rc->recv_max[0], rc->recv_max[1]);
  rc->rate = grow (rc->rate, dt);
  if (cap && rc->rate >= cap) {
    /* twice what the path delivered and still no sign of congestion: the
     * pace is not what limits the sending (the CPU, a receiver slower than
     * the path, a spurious signal earlier), so stop pacing */
    rc->rate = rc->max_rate;
    return rc->rate != old;
  }
  rc->rate = clamp_rate (rc, rc->rate);
  return rc->rate != old;
}

/**
 * gst_tile_rate_control_to_structure:
 * @rc: the state
 * @s: where to set the fields
 *
 * Sets `pacing-bitrate` (bits/s, 0 when not paced), `estimated-bitrate`
 * (the rate the path delivered the last frames at, their datagrams over
 * the time they took to arrive, smoothed over about 5 frames: what the
 * path carries while the pace is above it, the pace otherwise; 0 before
 * the first measurement), `frame-loss` (share
 * of the datagrams lost, smoothed over about 5 frames), `queue-delay-ms`
 * (the last frame's one-way delay above the least) and
 * `congestion-events` (decreases).
 */
void
gst_tile_rate_control_to_structure (const GstTileRateControl * rc,
    GstStructure * s)
{
  g_return_if_fail (rc != NULL && s != NULL);

  gst_structure_set (s, "pacing-bitrate", G_TYPE_UINT64, rc->rate,
      "estimated-bitrate", G_TYPE_UINT64, (guint64) rc->recv_avg,
      "frame-loss", G_TYPE_DOUBLE, rc->loss,
      "queue-delay-ms", G_TYPE_DOUBLE, rc->queue_ns / 1e6,
      "congestion-events", G_TYPE_UINT64, rc->congestion_events, NULL);
}

static gint
compare_rate (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/**
 * gst_tile_rate_median:
 * @rates: (array length=n_rates): measured rates, bits/s (0: none measured)
 * @n_rates: how many, at most 64
 *
 * Returns: the lower median of the rates that are not 0, 0 when none is
 */
guint64
gst_tile_rate_median (const guint64 * rates, guint n_rates)
{
  guint64 sorted[64];
  guint i, n = 0;

  g_return_val_if_fail (rates != NULL || n_rates == 0, 0);

  for (i = 0; i < n_rates && n < G_N_ELEMENTS (sorted); i++)
    if (rates[i] > 0)
      sorted[n++] = rates[i];
  if (n == 0)
    return 0;
  qsort (sorted, n, sizeof (sorted[0]), compare_rate);
  return sorted[(n - 1) / 2];
}

/**
 * gst_tile_rate_behind:
 * @rate: a member's measured rate (0: none)
 * @median: gst_tile_rate_median() of the group
 *
 * Returns: whether the member is behind: its path carries less than a
 *     %GST_TILE_RATE_BEHIND_FACTOR-th of the median member's
 */
gboolean
gst_tile_rate_behind (guint64 rate, guint64 median)
{
  return rate > 0 && rate < median / GST_TILE_RATE_BEHIND_FACTOR;
}

/**
 * gst_tile_rate_group:
 * @rates: (array length=n_rates): the members' measured rates, bits/s
 *     (0: none measured)
 * @n_rates: how many, at most 64
 *
 * The pace of a multicast group: the slowest rate of the members that are
 * not behind. From the median, not the fastest member: a member that lies
 * about its path (claims everything arrived at once) can neither make the
 * honest members look behind nor unpace the group; one that claims a
 * crawl is behind and paces nobody.
 *
 * Returns: the group's rate, 0 when no member has measured one
 */
guint64
gst_tile_rate_group (const guint64 * rates, guint n_rates)
{
  guint64 median = gst_tile_rate_median (rates, n_rates), rate = 0;
  guint i;

  for (i = 0; i < n_rates; i++) {
    if (rates[i] == 0 || gst_tile_rate_behind (rates[i], median))
      continue;
    rate = rate ? MIN (rate, rates[i]) : rates[i];
  }
  return rate;
}
