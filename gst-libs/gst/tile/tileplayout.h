/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_PLAYOUT_H__
#define __GST_TILE_PLAYOUT_H__

#include <gst/tile/tile-prelude.h>

G_BEGIN_DECLS

/**
 * GST_TILE_PLAYOUT_AUTO:
 *
 * The latency setting that chooses the latency from the measured delivery
 * delays (see gst_tile_playout_frame()).
 */
#define GST_TILE_PLAYOUT_AUTO (-1)

/**
 * GST_TILE_PLAYOUT_MAX_AUTO:
 *
 * The automatic latency goes no higher than this.
 */
#define GST_TILE_PLAYOUT_MAX_AUTO (1000 * GST_MSECOND)

/**
 * GST_TILE_PLAYOUT_WINDOW_US:
 *
 * The automatic latency comes down only when the delays of two windows of
 * this length (monotonic µs) allow a quarter less.
 */
#define GST_TILE_PLAYOUT_WINDOW_US (5 * G_USEC_PER_SEC)

/**
 * GstTilePlayout:
 *
 * A receiver's playout latency: every frame is presented that long after
 * its capture (on the shared clock). Fixed, or automatic: chosen from the
 * delays the frames arrive with (their capture to the moment they are
 * complete), raised at once when a frame comes too late for it, lowered
 * when two windows of GST_TILE_PLAYOUT_WINDOW_US show it could be a
 * quarter lower. Plain data, no locking of its own; the fields are
 * private.
 */
typedef struct
{
  gboolean automatic;
  GstClockTime latency;
  /* automatic: the longest delay of this window and of the last one */
  GstClockTime window_max;
  GstClockTime last_window_max;
  gint64 window_start_us;
  guint windows;
} GstTilePlayout;

void         gst_tile_playout_init (GstTilePlayout * playout, gint latency_ms,
                                    GstClockTime initial);

GstClockTime gst_tile_playout_get_latency (const GstTilePlayout * playout);

gboolean     gst_tile_playout_frame (GstTilePlayout * playout,
                                     GstClockTime delay, gint64 now_us,
                                     gboolean * late);

G_END_DECLS

#endif /* __GST_TILE_PLAYOUT_H__ */
