/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The playout latency (tileplayout.c): a fixed one only judges frames; the
 * automatic one starts where it is told, goes up at once for a frame that
 * would be late (with its margin, in whole ms, never above its ceiling)
 * and comes down only after two windows of frames allow a quarter less. */

#include <gst/check/gstcheck.h>

#include <gst/tile/tileplayout.h>

#define MS GST_MSECOND
#define S_US G_USEC_PER_SEC

GST_START_TEST (test_fixed)
{
  GstTilePlayout p;
  gboolean late;

  gst_tile_playout_init (&p, 80, 33 * MS);
  fail_unless_equals_uint64 (gst_tile_playout_get_latency (&p), 80 * MS);
  fail_if (gst_tile_playout_frame (&p, 79 * MS, 1, &late));
  fail_if (late);
  fail_if (gst_tile_playout_frame (&p, 80 * MS, 2, &late));
  fail_if (late);
  fail_if (gst_tile_playout_frame (&p, 80 * MS + 1, 3, &late));
  fail_unless (late);
  /* a fixed latency never moves, whatever comes */
  fail_if (gst_tile_playout_frame (&p, 5 * GST_SECOND, 4, &late));
  fail_unless (late);
  fail_if (gst_tile_playout_frame (&p, 0, 30 * S_US, &late));
  fail_if (gst_tile_playout_frame (&p, 0, 60 * S_US, &late));
  fail_unless_equals_uint64 (gst_tile_playout_get_latency (&p), 80 * MS);

  gst_tile_playout_init (&p, 0, 33 * MS);
  fail_unless_equals_uint64 (gst_tile_playout_get_latency (&p), 0);
  gst_tile_playout_frame (&p, 1, 1, &late);
  fail_unless (late);
}

GST_END_TEST;

GST_START_TEST (test_auto_raise)
{
  GstTilePlayout p;
  gboolean late;

  gst_tile_playout_init (&p, -1, 33 * MS + 1);
  /* the start, rounded up to a millisecond */
  fail_unless_equals_uint64 (gst_tile_playout_get_latency (&p), 34 * MS);
  fail_if (gst_tile_playout_frame (&p, 10 * MS, 1, &late));
  fail_if (late);
  /* 40 ms is late for 34: the frame is late, the next ones get
   * 40 x 1.5 + 2 = 62 ms */
  fail_unless (gst_tile_playout_frame (&p, 40 * MS, 2, &late));
  fail_unless (late);
  fail_unless_equals_uint64 (gst_tile_playout_get_latency (&p), 62 * MS);
  fail_if (gst_tile_playout_frame (&p, 60 * MS, 3, &late));
  fail_if (late);
  /* whole milliseconds: 10.1 ms -> 17.15 -> 18 ms */
  gst_tile_playout_init (&p, -1, 0);
  fail_unless (gst_tile_playout_frame (&p, 10 * MS + 100 * GST_USECOND, 1,
          &late));
  fail_unless_equals_uint64 (gst_tile_playout_get_latency (&p), 18 * MS);
  /* never above the ceiling */
  fail_unless (gst_tile_playout_frame (&p, 30 * GST_SECOND, 2, &late));
  fail_unless_equals_uint64 (gst_tile_playout_get_latency (&p),
      GST_TILE_PLAYOUT_MAX_AUTO);
}

GST_END_TEST;

GST_START_TEST (test_auto_lower)
{
  GstTilePlayout p;
  gboolean late, changed = FALSE;
  gint64 t;

  gst_tile_playout_init (&p, -1, 0);
  /* a slow first frame: 100 ms -> 152 ms */
  fail_unless (gst_tile_playout_frame (&p, 100 * MS, 1, &late));
  fail_unless_equals_uint64 (gst_tile_playout_get_latency (&p), 152 * MS);
  /* then 10 ms frames, 60 a second: the latency stays for the first
   * window (it holds the slow frame) and the second, then comes down to
   * what the last two windows needed: 10 x 1.5 + 2 = 17 ms */
  for (t = 1; t <= 2 * GST_TILE_PLAYOUT_WINDOW_US; t += S_US / 60) {
    changed = gst_tile_playout_frame (&p, 10 * MS, t, &late);
    fail_if (late);
    if (changed)
      break;
  }
  fail_if (changed, "came down within two windows of the slow frame");
  for (; t <= 4 * GST_TILE_PLAYOUT_WINDOW_US && !changed;
      t += S_US / 60)
    changed = gst_tile_playout_frame (&p, 10 * MS, t, &late);
  fail_unless (changed);
  fail_unless_equals_uint64 (gst_tile_playout_get_latency (&p), 17 * MS);

  /* not for less than a quarter: 14 ms frames would need 23 ms, more than
   * three quarters of 17 */
  changed = FALSE;
  for (; t <= 10 * GST_TILE_PLAYOUT_WINDOW_US; t += S_US / 60) {
    changed |= gst_tile_playout_frame (&p, 12 * MS, t, &late);
    fail_if (late);
  }
  fail_if (changed);
  fail_unless_equals_uint64 (gst_tile_playout_get_latency (&p), 17 * MS);
}

GST_END_TEST;

static Suite *
tileplayout_suite (void)
{
  Suite *s = suite_create ("tileplayout");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_fixed);
  tcase_add_test (tc, test_auto_raise);
  tcase_add_test (tc, test_auto_lower);
  return s;
}

GST_CHECK_MAIN (tileplayout);
