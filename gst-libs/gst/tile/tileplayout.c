/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The playout latency of a receiver (see GstTilePlayout). A frame that is
 * complete @delay after its capture is in time when @delay is at most the
 * latency: a sink presents it at capture + latency. The automatic latency
 * is the delay it would need with a margin: half as much again plus 2 ms,
 * in whole milliseconds (as tilesrc's property); raised by the first frame
 * that would be late, so that one late frame rarely follows another. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tileplayout.h"

#define MARGIN (2 * GST_MSECOND)

/* the latency that takes a frame of @delay in time, with the margin */
static GstClockTime
latency_for (GstClockTime delay)
{
  GstClockTime l = delay + delay / 2 + MARGIN;

  l = (l + GST_MSECOND - 1) / GST_MSECOND * GST_MSECOND;
  return MIN (l, GST_TILE_PLAYOUT_MAX_AUTO);
}

/**
 * gst_tile_playout_init:
 * @playout: the playout to set up
 * @latency_ms: the latency in milliseconds, or %GST_TILE_PLAYOUT_AUTO
 * @initial: automatic: the latency before any frame (a frame's duration,
 *     say); rounded up to a millisecond
 *
 * Sets @playout up for a new stream.
 */
void
gst_tile_playout_init (GstTilePlayout * playout, gint latency_ms,
    GstClockTime initial)
{
  memset (playout, 0, sizeof (*playout));
  playout->automatic = latency_ms < 0;
  if (playout->automatic)
    playout->latency = MIN ((initial + GST_MSECOND - 1) / GST_MSECOND *
        GST_MSECOND, GST_TILE_PLAYOUT_MAX_AUTO);
  else
    playout->latency = (GstClockTime) latency_ms *GST_MSECOND;
}

/**
 * gst_tile_playout_get_latency:
 * @playout: a playout
 *
 * Returns: the latency now
 */
GstClockTime
gst_tile_playout_get_latency (const GstTilePlayout * playout)
{
  return playout->latency;
}

/**
 * gst_tile_playout_frame:
 * @playout: a playout
 * @delay: how long after its capture the frame is complete
 * @now_us: monotonic time now, µs
 * @late: (out): whether the frame is late: @delay is over the latency it
 *     found (an automatic latency may be raised by it, for the next ones)
 *
 * Accounts one frame.
 *
 * Returns: %TRUE when the latency changed (the element tells its
 *     pipeline)
 */
gboolean
gst_tile_playout_frame (GstTilePlayout * playout, GstClockTime delay,
    gint64 now_us, gboolean * late)
{
  GstClockTime old = playout->latency, lower;

  *late = delay > playout->latency;
  if (!playout->automatic)
    return FALSE;
  if (*late)
    playout->latency = MAX (playout->latency, latency_for (delay));
  if (playout->window_start_us == 0)
    playout->window_start_us = now_us;
  playout->window_max = MAX (playout->window_max, delay);
  if (now_us - playout->window_start_us >= GST_TILE_PLAYOUT_WINDOW_US) {
    if (++playout->windows >= 2) {
      lower = latency_for (MAX (playout->window_max,
              playout->last_window_max));
      if (lower < playout->latency - playout->latency / 4)
        playout->latency = lower;
    }
    playout->last_window_max = playout->window_max;
    playout->window_max = 0;
    playout->window_start_us = now_us;
  }
  return playout->latency != old;
}
