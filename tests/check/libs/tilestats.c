/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The statistics helpers of libgsttile: the latency window, the names a
 * receiver's STATS may use, the wall clock. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/tile/tilestats.h>

#include "gstbctest.h"

GST_START_TEST (test_latency_window)
{
  GstTileLatency *lat = g_new0 (GstTileLatency, 1);
  GstStructure *s;
  guint64 v;
  guint i;

  gst_tile_latency_reset (lat);
  s = gst_structure_new_empty ("t");
  gst_tile_latency_to_structure (lat, s);
  fail_unless (gst_structure_get_uint64 (s, "latency-samples", &v));
  fail_unless_equals_uint64 (v, 0);
  fail_if (gst_structure_has_field (s, "latency-p50"));
  gst_structure_free (s);

  /* 1..100 in a shuffled order */
  for (i = 0; i < 100; i++)
    gst_tile_latency_add (lat, (i * 37) % 100 + 1);
  fail_unless_equals_uint64 (gst_tile_latency_percentile (lat, 50), 50);
  fail_unless_equals_uint64 (gst_tile_latency_percentile (lat, 99), 99);
  fail_unless_equals_uint64 (gst_tile_latency_percentile (lat, 100), 100);
  fail_unless_equals_uint64 (gst_tile_latency_percentile (lat, 0), 1);
  fail_unless_equals_uint64 (gst_tile_latency_percentile (lat, 5), 5);
  s = gst_structure_new_empty ("t");
  gst_tile_latency_to_structure (lat, s);
  fail_unless (gst_structure_get_uint64 (s, "latency-mean", &v));
  fail_unless_equals_uint64 (v, 50);
  fail_unless (gst_structure_get_uint64 (s, "latency-last", &v));
  fail_unless_equals_uint64 (v, (99 * 37) % 100 + 1);
  gst_structure_free (s);

  /* the window slides: old samples leave the mean and percentiles */
  for (i = 0; i < GST_TILE_LATENCY_WINDOW; i++)
    gst_tile_latency_add (lat, 1000);
  fail_unless_equals_uint64 (gst_tile_latency_percentile (lat, 1), 1000);
  fail_unless_equals_uint64 (lat->total, 100 + GST_TILE_LATENCY_WINDOW);
  fail_unless (lat->sum == 1000.0 * GST_TILE_LATENCY_WINDOW);
  g_free (lat);
}

GST_END_TEST;

GST_START_TEST (test_stats_names)
{
  /* the names of tilesrc's stats, which STATS parsing accepts once they
   * are known (they may be already: gst_init () can load the tile plugin,
   * which registers them, when it rebuilds the registry in-process) */
  gst_tile_register_stats_names ();
  fail_unless (g_quark_try_string ("tilesrc-stats"));
  fail_unless (g_quark_try_string ("frames-received"));
  fail_unless (g_quark_try_string ("latency-p99"));
  fail_unless (g_quark_try_string ("timer-floor-us"));
}

GST_END_TEST;

GST_START_TEST (test_realtime)
{
  guint64 a = (guint64) g_get_real_time () * 1000;
  guint64 t = gst_tile_realtime_ns ();
  guint64 b = (guint64) g_get_real_time () * 1000;

  /* the same clock as GLib's, in ns */
  fail_unless (t + 1000 >= a && t <= b + 1000);
}

GST_END_TEST;

static Suite *
tilestats_suite (void)
{
  Suite *s = suite_create ("tilestats");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_latency_window);
  tcase_add_test (tc, test_stats_names);
  tcase_add_test (tc, test_realtime);
  return s;
}

GST_CHECK_MAIN (tilestats);
