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
 *     bytes per second, say); 0 or less: not measured yet
 * @bounds: (out caller-allocates) (array fixed-size=65): unit *i* gets the
 *     rows from @bounds[*i*] to @bounds[*i* + 1]; @bounds[@n_units] is
 *     @n_rows
 *
 * Shares @n_rows among the units in proportion to their rates (a unit not
 * measured yet counts as the mean of the others; none measured: equal
 * shares), in unit order, every row once. Each unit keeps at least an
 * eighth of an equal share (and one row, when there are as many rows as
 * units), so that its rate is still measured and it can win rows back.
 */
void
gst_tile_balance_split (guint32 n_rows, guint n_units, const gdouble * rates,
    guint32 * bounds)
{
  gdouble r[64], frac[64], total = 0, known = 0;
  guint32 rows[64], floor_rows, given = 0;
  guint i, n_known = 0;

  g_return_if_fail (n_units >= 1 && n_units <= 64);

  for (i = 0; i < n_units; i++) {
    if (rates[i] > 0) {
      known += rates[i];
      n_known++;
    }
  }
  for (i = 0; i < n_units; i++) {
    r[i] = rates[i] > 0 ? rates[i] : n_known ? known / n_known : 1.0;
    total += r[i];
  }
  floor_rows = n_rows >= n_units ? MAX (1, n_rows / (8 * n_units)) : 0;
  for (i = 0; i < n_units; i++) {
    gdouble share = (gdouble) (n_rows - floor_rows * n_units) * r[i] / total;

    rows[i] = floor_rows + (guint32) share;
    frac[i] = share - (guint32) share;
    given += rows[i];
  }
  /* the rows left by rounding down: to the largest remainders */
  while (given < n_rows) {
    guint best = 0;

    for (i = 1; i < n_units; i++)
      if (frac[i] > frac[best])
        best = i;
    rows[best]++;
    frac[best] = -1;
    given++;
  }
  bounds[0] = 0;
  for (i = 0; i < n_units; i++)
    bounds[i + 1] = bounds[i] + rows[i];
}
