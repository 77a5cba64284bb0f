/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/bc/bc.h>

#include "gstbctest.h"

typedef struct
{
  gint *hits;
  GThread **threads;
  guint n_jobs;
} Run;

static void
count_job (guint job, gpointer user_data)
{
  Run *run = user_data;

  fail_unless (job < run->n_jobs);
  g_atomic_int_inc (&run->hits[job]);
  run->threads[job] = g_thread_self ();
}

GST_START_TEST (test_workers_every_job_once)
{
  guint n_threads, batch, i;

  for (n_threads = 1; n_threads <= 5; n_threads++) {
    GstBcWorkers *w = gst_bc_workers_new (n_threads);

    fail_unless_equals_int (gst_bc_workers_get_n_threads (w), n_threads);
    /* many batches back to back: no job lost, none run twice, and a batch
     * is complete when run() returns */
    for (batch = 0; batch < 300; batch++) {
      Run run;
      guint n_jobs = batch % 37;

      run.n_jobs = n_jobs;
      run.hits = g_new0 (gint, MAX (n_jobs, 1));
      run.threads = g_new0 (GThread *, MAX (n_jobs, 1));
      gst_bc_workers_run (w, n_jobs, count_job, &run);
      for (i = 0; i < n_jobs; i++)
        fail_unless_equals_int (g_atomic_int_get (&run.hits[i]), 1);
      g_free (run.hits);
      g_free (run.threads);
    }
    gst_bc_workers_free (w);
  }
}

GST_END_TEST;

static void
slow_job (guint job, gpointer user_data)
{
  Run *run = user_data;

  g_usleep (2000);
  run->threads[job] = g_thread_self ();
}

GST_START_TEST (test_workers_parallel)
{
  GstBcWorkers *w = gst_bc_workers_new (3);
  GThread *threads[12] = { NULL, };
  Run run = { NULL, threads, 12 };
  guint i, j, distinct = 0;

  gst_bc_workers_run (w, 12, slow_job, &run);
  for (i = 0; i < 12; i++) {
    gboolean seen = FALSE;
    fail_unless (threads[i] != NULL);
    for (j = 0; j < i; j++)
      seen |= threads[j] == threads[i];
    distinct += !seen;
  }
  /* sleeping jobs are spread over more than one thread */
  fail_unless (distinct >= 2, "only %u thread(s) ran jobs", distinct);
  gst_bc_workers_free (w);
}

GST_END_TEST;

GST_START_TEST (test_workers_default_threads)
{
  GstBcWorkers *w = gst_bc_workers_new (0);

  fail_unless_equals_int (gst_bc_workers_get_n_threads (w),
      g_get_num_processors ());
  gst_bc_workers_free (w);
  gst_bc_workers_free (NULL);
}

GST_END_TEST;

/* gst_bc_workers_run_tiles (): what the rows and done functions saw */
typedef struct
{
  const GstBcTile *tiles;
  guint n_tiles;
  guint n_rows;
  gint *row_hits;               /* atomic, per row */
  gint *done_calls;             /* atomic, per tile */
  gint early_done;              /* atomic: done before all its rows ran */
  gint bad_rows;                /* atomic: a job outside its tile */
  gint order_errors;            /* with 1 thread: done out of order */
  guint next_done;
  gboolean in_order;
} TileRun;

static void
tile_rows (guint first_row, guint n_rows, gpointer user_data)
{
  TileRun *r = user_data;
  guint i, t;

  /* the job lies within one tile */
  for (t = 0; t < r->n_tiles; t++) {
    if (first_row >= r->tiles[t].first_row &&
        first_row < r->tiles[t].first_row + r->tiles[t].n_rows)
      break;
  }
  if (n_rows == 0 || t == r->n_tiles ||
      first_row + n_rows > r->tiles[t].first_row + r->tiles[t].n_rows) {
    g_atomic_int_inc (&r->bad_rows);
    return;
  }
  /* slow enough for the jobs of a batch to spread over the threads */
  if ((first_row & 3) == 0)
    g_usleep (50);
  for (i = first_row; i < first_row + n_rows; i++)
    g_atomic_int_inc (&r->row_hits[i]);
}

static void
tile_done (guint tile, gpointer user_data)
{
  TileRun *r = user_data;
  guint i;

  if (tile >= r->n_tiles) {
    g_atomic_int_inc (&r->bad_rows);
    return;
  }
  for (i = r->tiles[tile].first_row;
      i < r->tiles[tile].first_row + r->tiles[tile].n_rows; i++) {
    if (g_atomic_int_get (&r->row_hits[i]) != 1)
      g_atomic_int_inc (&r->early_done);
  }
  if (r->in_order && tile != r->next_done++)
    r->order_errors++;
  g_atomic_int_inc (&r->done_calls[tile]);
}

/* Every row of every tile runs once, in jobs within a tile; each tile's
 * done comes once, after all its rows and before run_tiles returns; with
 * one thread, in tile order */
GST_START_TEST (test_workers_run_tiles)
{
  static const guint tilings[][2] = {
    /* block rows, tiles */
    {10, 4}, {10, 1}, {10, 10}, {10, 40}, {1, 1}, {7, 3}, {47, 6},
    {300, 256}, {5, 2},
  };
  guint n_threads, c, i, round;

  for (n_threads = 1; n_threads <= 5; n_threads++) {
    GstBcWorkers *w = gst_bc_workers_new (n_threads);

    for (c = 0; c < G_N_ELEMENTS (tilings); c++) {
      GstBcTiling tiling;
      TileRun r = { 0, };

      fail_unless (gst_bc_tiling_init (&tiling, tilings[c][0], 8,
              tilings[c][1]));
      r.tiles = tiling.tiles;
      r.n_tiles = tiling.n_tiles;
      r.n_rows = tiling.n_rows;
      r.row_hits = g_new0 (gint, r.n_rows);
      r.done_calls = g_new0 (gint, r.n_tiles);
      r.in_order = n_threads == 1;
      /* batches back to back on the same pool */
      for (round = 0; round < 20; round++) {
        memset (r.row_hits, 0, sizeof (gint) * r.n_rows);
        memset (r.done_calls, 0, sizeof (gint) * r.n_tiles);
        r.next_done = 0;
        gst_bc_workers_run_tiles (w, tiling.tiles, tiling.n_tiles, tile_rows,
            tile_done, &r);
        for (i = 0; i < r.n_rows; i++)
          fail_unless_equals_int (g_atomic_int_get (&r.row_hits[i]), 1);
        for (i = 0; i < r.n_tiles; i++)
          fail_unless (g_atomic_int_get (&r.done_calls[i]) == 1,
              "%u threads, %u rows in %u tiles: tile %u done %d times",
              n_threads, r.n_rows, r.n_tiles, i,
              g_atomic_int_get (&r.done_calls[i]));
      }
      fail_unless_equals_int (g_atomic_int_get (&r.bad_rows), 0);
      fail_unless (g_atomic_int_get (&r.early_done) == 0, "%u threads, %u "
          "rows in %u tiles: a tile was done before all its rows ran",
          n_threads, r.n_rows, r.n_tiles);
      fail_unless_equals_int (r.order_errors, 0);

      /* without a done function */
      memset (r.row_hits, 0, sizeof (gint) * r.n_rows);
      gst_bc_workers_run_tiles (w, tiling.tiles, tiling.n_tiles, tile_rows,
          NULL, &r);
      for (i = 0; i < r.n_rows; i++)
        fail_unless_equals_int (g_atomic_int_get (&r.row_hits[i]), 1);
      g_free (r.row_hits);
      g_free (r.done_calls);
    }
    gst_bc_workers_free (w);
  }
}

GST_END_TEST;

static void
tile_rows_never (guint first_row, guint n_rows, gpointer user_data)
{
  fail ("rows %u + %u run for no tiles", first_row, n_rows);
}

static void
tile_done_never (guint tile, gpointer user_data)
{
  fail ("tile %u done for no tiles", tile);
}

/* No tiles: nothing runs */
GST_START_TEST (test_workers_run_no_tiles)
{
  GstBcTiling tiling;
  guint n_threads;

  fail_unless (gst_bc_tiling_init (&tiling, 4, 8, 2));
  for (n_threads = 1; n_threads <= 3; n_threads++) {
    GstBcWorkers *w = gst_bc_workers_new (n_threads);

    gst_bc_workers_run_tiles (w, tiling.tiles, 0, tile_rows_never,
        tile_done_never, NULL);
    gst_bc_workers_run_tiles (w, NULL, 0, tile_rows_never, tile_done_never,
        NULL);
    gst_bc_workers_free (w);
  }
}

GST_END_TEST;

static Suite *
bcworkers_suite (void)
{
  Suite *s = suite_create ("bcworkers");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_workers_every_job_once);
  tcase_add_test (tc, test_workers_parallel);
  tcase_add_test (tc, test_workers_default_threads);
  tcase_add_test (tc, test_workers_run_tiles);
  tcase_add_test (tc, test_workers_run_no_tiles);
  return s;
}

GST_CHECK_MAIN (bcworkers);
