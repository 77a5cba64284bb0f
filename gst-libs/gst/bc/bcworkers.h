/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_WORKERS_H__
#define __GST_BC_WORKERS_H__

#include <gst/bc/bc-prelude.h>
#include <gst/bc/bctiling.h>

G_BEGIN_DECLS

/**
 * GstBcWorkFunc:
 * @job: index of the job, 0 to n_jobs - 1
 * @user_data: the data given to gst_bc_workers_run()
 *
 * One job of a parallel run.
 */
typedef void (*GstBcWorkFunc) (guint job, gpointer user_data);

/**
 * GstBcRowsFunc:
 * @first_row: the first block row of the job
 * @n_rows: its block rows, at least 1
 * @user_data: the data given to gst_bc_workers_run_tiles()
 *
 * One job of gst_bc_workers_run_tiles(): some block rows of one tile.
 */
typedef void (*GstBcRowsFunc) (guint first_row, guint n_rows,
    gpointer user_data);

/**
 * GstBcTileDoneFunc:
 * @tile: index of the tile whose rows have all run
 * @user_data: the data given to gst_bc_workers_run_tiles()
 *
 * Called once per tile, on the thread that ran its last job.
 */
typedef void (*GstBcTileDoneFunc) (guint tile, gpointer user_data);

typedef struct _GstBcWorkers GstBcWorkers;

GST_BC_API
GstBcWorkers * gst_bc_workers_new (guint n_threads);

GST_BC_API
guint          gst_bc_workers_get_n_threads (GstBcWorkers * workers);

GST_BC_API
void           gst_bc_workers_run (GstBcWorkers * workers, guint n_jobs,
                                   GstBcWorkFunc func, gpointer user_data);

GST_BC_API
void           gst_bc_workers_run_tiles (GstBcWorkers * workers,
                                         const GstBcTile * tiles,
                                         guint n_tiles,
                                         GstBcRowsFunc func,
                                         GstBcTileDoneFunc done,
                                         gpointer user_data);

GST_BC_API
void           gst_bc_workers_free (GstBcWorkers * workers);

G_END_DECLS

#endif /* __GST_BC_WORKERS_H__ */
