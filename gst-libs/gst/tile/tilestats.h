/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_STATS_H__
#define __GST_TILE_STATS_H__

#include <gst/tile/tile-prelude.h>

G_BEGIN_DECLS

/* Delivery latencies over a sliding window, for the stats of both ends. */
#define GST_TILE_LATENCY_WINDOW 1024

typedef struct
{
  guint64 samples[GST_TILE_LATENCY_WINDOW];
  guint n;                      /* valid samples, <= window */
  guint next;
  guint64 total;                /* samples ever added */
  guint64 last;
  gdouble sum;                  /* of the window */
} GstTileLatency;

GST_TILE_API
void     gst_tile_latency_reset (GstTileLatency * lat);

GST_TILE_API
void     gst_tile_latency_add (GstTileLatency * lat, guint64 ns);

GST_TILE_API
guint64  gst_tile_latency_percentile (const GstTileLatency * lat,
                                      gdouble p);

GST_TILE_API
void     gst_tile_latency_to_structure (const GstTileLatency * lat,
                                        GstStructure * s);

GST_TILE_API
void     gst_tile_register_stats_names (void);

GST_TILE_API
gboolean gst_tile_stats_name_is_registered (const gchar * name);

GST_TILE_API
guint64  gst_tile_realtime_ns (void);

G_END_DECLS

#endif /* __GST_TILE_STATS_H__ */
