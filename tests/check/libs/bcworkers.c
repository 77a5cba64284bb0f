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

static Suite *
bcworkers_suite (void)
{
  Suite *s = suite_create ("bcworkers");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_workers_every_job_once);
  tcase_add_test (tc, test_workers_parallel);
  tcase_add_test (tc, test_workers_default_threads);
  return s;
}

GST_CHECK_MAIN (bcworkers);
