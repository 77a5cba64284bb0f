/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstbcworkers
 * @title: GstBcWorkers
 * @short_description: a persistent pool of worker threads
 *
 * The threads are created once by gst_bc_workers_new(). Each call of
 * gst_bc_workers_run() hands them a batch of numbered jobs; the caller's
 * thread takes jobs too, and the call returns when every job has run.
 * Jobs are taken from a shared atomic counter, so a batch costs one wake-up
 * of the pool and no allocation.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcworkers.h"

struct _GstBcWorkers
{
  guint n_threads;              /* including the caller's */
  GThread **threads;            /* n_threads - 1 helpers */

  GMutex lock;
  GCond wake_cond;
  GCond done_cond;
  guint64 generation;           /* bumped for every batch */
  gboolean quit;

  /* the current batch */
  GstBcWorkFunc func;
  gpointer user_data;
  guint n_jobs;
  gint next_job;                /* atomic */
  guint pending;                /* helpers yet to finish the batch, under lock */
};

static void
run_jobs (GstBcWorkers * w, GstBcWorkFunc func, gpointer user_data,
    guint n_jobs)
{
  for (;;) {
    guint job = (guint) g_atomic_int_add (&w->next_job, 1);
    if (job >= n_jobs)
      break;
    func (job, user_data);
  }
}

static gpointer
worker_main (gpointer data)
{
  GstBcWorkers *w = data;
  guint64 seen = 0;

  g_mutex_lock (&w->lock);
  for (;;) {
    GstBcWorkFunc func;
    gpointer user_data;
    guint n_jobs;

    while (!w->quit && w->generation == seen)
      g_cond_wait (&w->wake_cond, &w->lock);
    if (w->quit)
      break;
    seen = w->generation;
    func = w->func;
    user_data = w->user_data;
    n_jobs = w->n_jobs;
    g_mutex_unlock (&w->lock);

    run_jobs (w, func, user_data, n_jobs);

    g_mutex_lock (&w->lock);
    if (--w->pending == 0)
      g_cond_signal (&w->done_cond);
  }
  g_mutex_unlock (&w->lock);
  return NULL;
}

/**
 * gst_bc_workers_new:
 * @n_threads: threads to run jobs on, counting the caller's; 0 means one per
 *     processor
 *
 * Returns: (transfer full): a new pool with @n_threads - 1 helper threads.
 */
GstBcWorkers *
gst_bc_workers_new (guint n_threads)
{
  GstBcWorkers *w = g_new0 (GstBcWorkers, 1);
  guint i;

  if (n_threads == 0)
    n_threads = g_get_num_processors ();
  n_threads = CLAMP (n_threads, 1, 256);

  g_mutex_init (&w->lock);
  g_cond_init (&w->wake_cond);
  g_cond_init (&w->done_cond);
  w->n_threads = n_threads;
  w->threads = g_new0 (GThread *, n_threads);
  for (i = 0; i + 1 < n_threads; i++) {
    gchar name[16];

    g_snprintf (name, sizeof (name), "bcworker%u", i);
    w->threads[i] = g_thread_new (name, worker_main, w);
  }
  return w;
}

/**
 * gst_bc_workers_get_n_threads:
 * @workers: a #GstBcWorkers
 *
 * Returns: the number of threads that run jobs, the caller's included.
 */
guint
gst_bc_workers_get_n_threads (GstBcWorkers * workers)
{
  g_return_val_if_fail (workers != NULL, 0);
  return workers->n_threads;
}

/**
 * gst_bc_workers_run:
 * @workers: a #GstBcWorkers
 * @n_jobs: number of jobs
 * @func: called once for every job index in 0 .. @n_jobs - 1, on any thread
 * @user_data: passed to @func
 *
 * Runs the jobs on the pool and on the calling thread and returns when all
 * are done. Calls must not overlap; the element that owns the pool
 * serialises them.
 */
void
gst_bc_workers_run (GstBcWorkers * workers, guint n_jobs, GstBcWorkFunc func,
    gpointer user_data)
{
  GstBcWorkers *w = workers;

  g_return_if_fail (w != NULL);
  g_return_if_fail (func != NULL);

  if (n_jobs == 0)
    return;
  if (w->n_threads == 1 || n_jobs == 1) {
    guint i;
    for (i = 0; i < n_jobs; i++)
      func (i, user_data);
    return;
  }

  g_mutex_lock (&w->lock);
  w->func = func;
  w->user_data = user_data;
  w->n_jobs = n_jobs;
  g_atomic_int_set (&w->next_job, 0);
  /* every helper takes part in every batch, so none can still be inside
   * this one when the next starts */
  w->pending = w->n_threads - 1;
  w->generation++;
  g_cond_broadcast (&w->wake_cond);
  g_mutex_unlock (&w->lock);

  run_jobs (w, func, user_data, n_jobs);

  /* every job has been taken; wait for the helpers to leave the batch */
  g_mutex_lock (&w->lock);
  while (w->pending > 0)
    g_cond_wait (&w->done_cond, &w->lock);
  g_mutex_unlock (&w->lock);
}

/* gst_bc_workers_run_tiles(): job j is part (j - first_job[t]) of tile t,
 * for first_job[t] <= j < first_job[t + 1] */
typedef struct
{
  const GstBcTile *tiles;
  guint n_tiles;
  GstBcRowsFunc func;
  GstBcTileDoneFunc done;
  gpointer user_data;
  guint first_job[GST_BC_TILING_MAX_TILES + 1];
  gint remaining[GST_BC_TILING_MAX_TILES];      /* jobs not finished, atomic */
} TileRun;

static void
run_tile_job (guint job, gpointer user_data)
{
  TileRun *r = user_data;
  const GstBcTile *tile;
  guint lo = 0, hi = r->n_tiles, t, part, n_parts, from, to;

  /* the last tile whose first job is <= job */
  while (hi - lo > 1) {
    guint mid = (lo + hi) / 2;

    if (r->first_job[mid] <= job)
      lo = mid;
    else
      hi = mid;
  }
  t = lo;
  tile = &r->tiles[t];
  part = job - r->first_job[t];
  n_parts = r->first_job[t + 1] - r->first_job[t];
  from = (guint) ((guint64) tile->n_rows * part / n_parts);
  to = (guint) ((guint64) tile->n_rows * (part + 1) / n_parts);
  r->func (tile->first_row + from, to - from, r->user_data);
  if (g_atomic_int_dec_and_test (&r->remaining[t]) && r->done)
    r->done (t, r->user_data);
}

/**
 * gst_bc_workers_run_tiles:
 * @workers: a #GstBcWorkers
 * @tiles: (array length=n_tiles): the tiles, each of at least one block row
 * @n_tiles: how many, 0 (nothing runs) to %GST_BC_TILING_MAX_TILES
 * @func: runs some block rows of a tile
 * @done: (nullable): called as each tile's rows have all run
 * @user_data: passed to @func and @done
 *
 * Runs @func over every block row of @tiles, tile after tile: each tile's
 * rows are split into about four jobs a thread (at most one a row; one job
 * on one thread), and the jobs are taken in order, so the threads work on the first
 * tile together, then on the next, and the tiles complete about in order
 * (a thread still finishing a job of one tile may overlap the next). @done
 * runs once per tile, as soon as its last job has returned, on that job's
 * thread: a consumer of the tile can start on it while the later tiles run.
 * Returns when every job has run.
 */
void
gst_bc_workers_run_tiles (GstBcWorkers * workers, const GstBcTile * tiles,
    guint n_tiles, GstBcRowsFunc func, GstBcTileDoneFunc done,
    gpointer user_data)
{
  TileRun r;
  guint t;

  g_return_if_fail (workers != NULL);
  g_return_if_fail (tiles != NULL || n_tiles == 0);
  g_return_if_fail (n_tiles <= GST_BC_TILING_MAX_TILES);
  g_return_if_fail (func != NULL);

  r.tiles = tiles;
  r.n_tiles = n_tiles;
  r.func = func;
  r.done = done;
  r.user_data = user_data;
  r.first_job[0] = 0;
  for (t = 0; t < n_tiles; t++) {
    /* about four jobs a thread, as gst_bc_split_block_rows (): a thread
     * the others wait for at the end of a tile holds up its completion */
    guint n = workers->n_threads == 1 ? 1 :
        MIN (tiles[t].n_rows, 4 * workers->n_threads);

    g_return_if_fail (n > 0);
    r.first_job[t + 1] = r.first_job[t] + n;
    g_atomic_int_set (&r.remaining[t], (gint) n);
  }
  gst_bc_workers_run (workers, r.first_job[n_tiles], run_tile_job, &r);
}

/**
 * gst_bc_workers_free:
 * @workers: (transfer full) (nullable): a #GstBcWorkers
 *
 * Stops and joins the threads and frees the pool.
 */
void
gst_bc_workers_free (GstBcWorkers * workers)
{
  guint i;

  if (workers == NULL)
    return;

  g_mutex_lock (&workers->lock);
  workers->quit = TRUE;
  g_cond_broadcast (&workers->wake_cond);
  g_mutex_unlock (&workers->lock);
  for (i = 0; i + 1 < workers->n_threads; i++)
    g_thread_join (workers->threads[i]);

  g_free (workers->threads);
  g_mutex_clear (&workers->lock);
  g_cond_clear (&workers->wake_cond);
  g_cond_clear (&workers->done_cond);
  g_free (workers);
}
