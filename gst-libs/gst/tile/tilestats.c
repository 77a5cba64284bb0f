/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gsttilestats
 * @title: GstTileLatency
 * @short_description: delivery latency statistics of tilesink and tilesrc
 *
 * A sliding window of the last %GST_TILE_LATENCY_WINDOW delivery latencies
 * with its percentiles, the statistics names a receiver sends to its sender,
 * and the wall clock both ends stamp frames with.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilestats.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

void
gst_tile_latency_reset (GstTileLatency * lat)
{
  memset (lat, 0, sizeof (*lat));
}

void
gst_tile_latency_add (GstTileLatency * lat, guint64 ns)
{
  if (lat->n == GST_TILE_LATENCY_WINDOW)
    lat->sum -= lat->samples[lat->next];
  else
    lat->n++;
  lat->samples[lat->next] = ns;
  lat->next = (lat->next + 1) % GST_TILE_LATENCY_WINDOW;
  lat->sum += ns;
  lat->last = ns;
  lat->total++;
}

static gint
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of the window, @p in [0, 100]. */
guint64
gst_tile_latency_percentile (const GstTileLatency * lat, gdouble p)
{
  guint64 sorted[GST_TILE_LATENCY_WINDOW];
  guint rank;

  if (lat->n == 0)
    return 0;
  memcpy (sorted, lat->samples, lat->n * sizeof (guint64));
  qsort (sorted, lat->n, sizeof (guint64), cmp_u64);
  rank = (guint) (p / 100.0 * lat->n + 0.999999);
  rank = CLAMP (rank, 1, lat->n);
  return sorted[rank - 1];
}

void
gst_tile_latency_to_structure (const GstTileLatency * lat, GstStructure * s)
{
  gst_structure_set (s, "latency-samples", G_TYPE_UINT64, lat->total, NULL);
  if (lat->n == 0)
    return;
  gst_structure_set (s,
      "latency-last", G_TYPE_UINT64, lat->last,
      "latency-mean", G_TYPE_UINT64, (guint64) (lat->sum / lat->n),
      "latency-p5", G_TYPE_UINT64, gst_tile_latency_percentile (lat, 5),
      "latency-p50", G_TYPE_UINT64, gst_tile_latency_percentile (lat, 50),
      "latency-p95", G_TYPE_UINT64, gst_tile_latency_percentile (lat, 95),
      "latency-p99", G_TYPE_UINT64, gst_tile_latency_percentile (lat, 99),
      NULL);
}

/* The names the receiver puts in the STATS it sends. The wire parser only
 * accepts names this process already knows (see tilewire.c), so the sender
 * registers them up front. */
static const gchar *const stats_names[] = {
  "tilesrc-stats", "frames-received", "frames-incomplete", "frames-abandoned",
  "bytes-received",
  "latency-samples", "latency-last", "latency-mean", "latency-p5",
  "latency-p50", "latency-p95", "latency-p99", "receive-buffer-size",
  "receive-buffer-granted", "units", "region-units", "generation",
  "connects",
  "tiles-stepped", "tile-spread-mean", "packets-received", "packets-lost",
  "packets-late", "packets-invalid", "packets-duplicate",
  "frames-recovered", "nacks-sent", "frames-partial",
  "frames-timer", "kernel-drops", "frames-skipped", "packets-dropped",
  "packets-in-place", "timer-floor-us", "frames-discarded", "sealed",
  "packets-tampered", "packets-discarded", "clock-synced", "clock-offset",
  "clock-rtt", "clock-resyncs", "clock-answers-ignored", "clock-queries-lost",
  "frames-late", "frames-dropped-late", "frames-retimed", "latency-changes",
  "playout-latency", "fec-packets-received", "fec-packets-recovered",
  "fec-frames-recovered", "fec-frames-unrecoverable", "fec-packets-unused",
};

/* Whether @name is one of the names registered above: every field of the
 * STATS a receiver sends must be (a test checks). */
gboolean
gst_tile_stats_name_is_registered (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (stats_names); i++)
    if (strcmp (stats_names[i], name) == 0)
      return TRUE;
  return FALSE;
}

void
gst_tile_register_stats_names (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (stats_names); i++)
    g_quark_from_static_string (stats_names[i]);
}

guint64
gst_tile_realtime_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_REALTIME, &ts);
  return (guint64) ts.tv_sec * GST_SECOND + ts.tv_nsec;
}
