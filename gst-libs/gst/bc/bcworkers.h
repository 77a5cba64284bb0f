/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_WORKERS_H__
#define __GST_BC_WORKERS_H__

#include <gst/bc/bc-prelude.h>

G_BEGIN_DECLS

/**
 * GstBcWorkFunc:
 * @job: index of the job, 0 to n_jobs - 1
 * @user_data: the data given to gst_bc_workers_run()
 *
 * One job of a parallel run.
 */
typedef void (*GstBcWorkFunc) (guint job, gpointer user_data);

typedef struct _GstBcWorkers GstBcWorkers;

GST_BC_API
GstBcWorkers * gst_bc_workers_new (guint n_threads);

GST_BC_API
guint          gst_bc_workers_get_n_threads (GstBcWorkers * workers);

GST_BC_API
void           gst_bc_workers_run (GstBcWorkers * workers, guint n_jobs,
                                   GstBcWorkFunc func, gpointer user_data);

GST_BC_API
void           gst_bc_workers_free (GstBcWorkers * workers);

G_END_DECLS

#endif /* __GST_BC_WORKERS_H__ */
