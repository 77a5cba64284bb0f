/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Balanced tiles: each frame's rows shared among the units in proportion
 * to their rates, so that all of them finish the frame at about the same
 * time (a 300 and a 700 Mbit/s path carry 0.3 and 0.7 of it). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilebalance.h"

#include <math.h>
#include <string.h>
#include <gst/gst.h>

/**
 * gst_tile_balance_split:
 * @n_rows: the rows of a frame
 * @n_units: the units, 1 to 64
 * @rates: (array length=n_units): each unit's measured rate (any unit:
 *     bytes per second, say: only their ratios count); 0: not measured
 *     yet; less than 0: the unit takes no rows (its path failed)
 * @backlog: (array length=n_units) (nullable): the rows each unit still has
 *     to send before this frame's (frames queued, bytes in its socket), or
 *     %NULL for none
 * @bounds: (out caller-allocates) (array fixed-size=65): unit *i* gets the
 *     rows from @bounds[*i*] to @bounds[*i* + 1]; @bounds[@n_units] is
 *     @n_rows
 *
 * Shares @n_rows among the units so that all of them would finish the
 * frame at the same time: in proportion to their rates when none has a
 * backlog, fewer rows to a unit that is behind (a unit not measured yet
 * counts as the mean of the others; none measured: equal rates), in unit
 * order, every row once. No unit gets less than an
 * eighth of an equal share (and one row, when there are as many rows as
 * units), so that its rate is still measured and it can win rows back;
 * the units above that get exactly their share of what the others leave.
 * A unit whose rate is less than 0 gets no rows, and the others share the
 * frame as if it were not there; when every unit's is, the rows are shared
 * equally (the caller sends no such frame).
 */
void
gst_tile_balance_split (guint32 n_rows, guint n_units, const gdouble * rates,
    const gdouble * backlog, guint32 * bounds)
{
  gdouble r[64], b[64], frac[64], total = 0, known = 0, left_rate;
  gdouble left_backlog = 0;
  guint32 rows[64], floor_rows, given = 0, left_rows;
  gboolean held[64], out[64];
  gboolean again = TRUE;
  guint i, n_known = 0, n_out = 0;

  g_return_if_fail (n_units >= 1 && n_units <= 64);

  for (i = 0; i < n_units; i++) {
    if (rates[i] > 0) {
      known += rates[i];
      n_known++;
    }
  }
  for (i = 0; i < n_units; i++)
    n_out += out[i] = rates[i] < 0;
  if (n_out == n_units)
    n_out = 0;
  for (i = 0; i < n_units; i++) {
    out[i] = out[i] && n_out > 0;
    r[i] = rates[i] > 0 ? rates[i] : n_known ? known / n_known : 1.0;
    b[i] = backlog && backlog[i] > 0 ? backlog[i] : 0;
    held[i] = FALSE;
    if (out[i])
      continue;
    total += r[i];
    left_backlog += b[i];
  }
  floor_rows = n_rows >= n_units - n_out ?
      MAX (1, n_rows / (8 * (n_units - n_out))) : 0;
  /* unit i finishes its backlog and x rows at (b[i] + x) / r[i]: all of
   * them at the same time T when x = T r[i] - b[i], with the x adding up
   * to the rows. A unit whose x would be under the floor is held at the
   * floor, and the others share the rest; until none is under it (the
   * floors take at most an eighth of the rows, so some unit is always
   * above) */
  left_rows = n_rows;
  left_rate = total;
  while (again) {
    again = FALSE;
    for (i = 0; i < n_units; i++) {
      if (out[i] || held[i] || left_rate <= 0 ||
          (left_rows + left_backlog) * r[i] / left_rate - b[i] >= floor_rows)
        continue;
      held[i] = TRUE;
      left_rows -= floor_rows;
      left_rate -= r[i];
      left_backlog -= b[i];
      again = TRUE;
    }
  }
  for (i = 0; i < n_units; i++) {
    gdouble share = out[i] || held[i] || left_rate <= 0 ? 0 :
        MAX (0, (left_rows + left_backlog) * r[i] / left_rate - b[i]);

    rows[i] = held[i] ? floor_rows : (guint32) share;
    frac[i] = held[i] || out[i] ? -1 : share - (guint32) share;
    given += rows[i];
  }
  /* the rows left by rounding down: to the largest remainders */
  while (given < n_rows) {
    guint best = G_MAXUINT;

    for (i = 0; i < n_units; i++)
      if (!out[i] && (best == G_MAXUINT || frac[i] > frac[best]))
        best = i;
    rows[best]++;
    frac[best] = -1;
    given++;
  }
  bounds[0] = 0;
  for (i = 0; i < n_units; i++)
    bounds[i + 1] = bounds[i] + rows[i];
}

/* the share of the datagrams a path keeps at least: a path that failed
 * is still tried (its datagrams come again once it is back) */
#define STRIPE_FLOOR 0.01
/* a path whose last datagram arrived a frame's send time later than the
 * other paths' keeps e^-GAIN of its share (0.61)... */
#define STRIPE_GAIN 0.5
/* ... but never less than three quarters of it at once */
#define STRIPE_MAX_CUT 0.25
/* waits shorter than this are not told apart from noise */
#define STRIPE_SLACK_NS (500 * 1000)
/* a path that lost more than this share of its datagrams is as late as a
 * whole frame's send time */
#define STRIPE_LOSS 0.1

/**
 * gst_tile_balance_stripe_init:
 * @st: the state
 *
 * No path has a share yet.
 */
void
gst_tile_balance_stripe_init (GstTileStripeState * st)
{
  memset (st, 0, sizeof (*st));
}

/**
 * gst_tile_balance_stripe:
 * @st: the paths' shares
 * @samples: (array fixed-size=8): what a frame did on each path (@sent 0:
 *     it did not carry the frame)
 * @send_ns: the frame's send time
 * @frame: its number
 * @next_frame: the number the next frame sent will have
 *
 * The shares of the paths that carried a frame learn from it, so that the
 * last datagrams of every path arrive together: a path whose last
 * datagram arrived later than the others' (it queued: it carried more
 * than its bottleneck passes) loses some of its share to them, the more
 * the later (by its @last_ns less the least of the paths'; a path longer
 * than the others by a few ms is taken as one that queues). A path that
 * lost more than 10 % of its datagrams counts as a frame's send time late;
 * one that lost them all goes down to its floor at once. Paths that keep
 * up keep their shares: only a path that queues hands over, so the shares
 * settle where the paths queue alike (their bottlenecks' ratio once the
 * pace fills them all). A path's share is cut by a quarter at most, and
 * once a round: the frames already sent when it was cut do not cut it
 * again. A new path starts with its share of the frame. Each keeps 1 % at
 * least.
 */
void
gst_tile_balance_stripe (GstTileStripeState * st,
    const GstTileStripeSample * samples, gint64 send_ns, guint64 frame,
    guint64 next_frame)
{
  gdouble late[GST_TILE_BALANCE_MAX_PATHS], share = 0, total = 0, floor;
  gdouble low = 0, high = 0;
  gdouble least = G_MAXDOUBLE, unit;
  guint64 all = 0;
  guint i, used = 0, n = 0;

  for (i = 0; i < GST_TILE_BALANCE_MAX_PATHS; i++) {
    if (samples[i].sent == 0)
      continue;
    used |= 1u << i;
    all += samples[i].sent;
    n++;
  }
  if (n < 2)
    return;                     /* (one path: nothing to share) */
  if ((st->have & used) != used) {
    /* a path new to the shares: they start as this frame was sent */
    for (i = 0; i < GST_TILE_BALANCE_MAX_PATHS; i++)
      if (used & (1u << i))
        st->weight[i] = (gdouble) samples[i].sent / all;
    st->have |= used;
    return;
  }
  unit = MAX (send_ns, (gint64) GST_MSECOND);
  for (i = 0; i < GST_TILE_BALANCE_MAX_PATHS; i++) {
    const GstTileStripeSample *s = &samples[i];

    if (!(used & (1u << i)))
      continue;
    share += st->weight[i];
    late[i] = s->last_ns;
    if (s->received == 0)
      continue;
    least = MIN (least, late[i]);
  }
  if (least == G_MAXDOUBLE)
    return;                     /* (nothing arrived: nothing learnt) */
  for (i = 0; i < GST_TILE_BALANCE_MAX_PATHS; i++) {
    const GstTileStripeSample *s = &samples[i];
    gdouble over;

    if (!(used & (1u << i)))
      continue;
    over = late[i] - least;
    if (s->received < s->sent * (1 - STRIPE_LOSS))
      over = MAX (over, unit);
    over -= STRIPE_SLACK_NS;
    if (s->received == 0) {
      /* nothing came over it: a link down, not a queue */
      st->weight[i] = 0;
      st->hold[i] = next_frame;
    } else if (over > 0 && frame >= st->hold[i]) {
      st->weight[i] *= MAX (exp (-STRIPE_GAIN * over / unit),
          1 - STRIPE_MAX_CUT);
      st->hold[i] = next_frame;
    }
    total += st->weight[i];
  }
  /* the shares sum to what they did, each path at its floor at least */
  floor = STRIPE_FLOOR * share;
  for (i = 0; i < GST_TILE_BALANCE_MAX_PATHS; i++) {
    if (!(used & (1u << i)))
      continue;
    st->weight[i] *= total > 0 ? share / total : 0;
    if (st->weight[i] < floor) {
      st->weight[i] = floor;
      low += floor;
    } else {
      high += st->weight[i];
    }
  }
  for (i = 0; i < GST_TILE_BALANCE_MAX_PATHS; i++)
    if ((used & (1u << i)) && st->weight[i] > floor && high > 0)
      st->weight[i] *= (share - low) / high;
}
