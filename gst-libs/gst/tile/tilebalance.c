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
