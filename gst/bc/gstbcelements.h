/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_ELEMENTS_H__
#define __GST_BC_ELEMENTS_H__

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

G_BEGIN_DECLS

G_GNUC_INTERNAL void bc_element_init (GstPlugin * plugin);

GST_ELEMENT_REGISTER_DECLARE (bc1enc);
GST_ELEMENT_REGISTER_DECLARE (bc3enc);
GST_ELEMENT_REGISTER_DECLARE (bc4enc);
GST_ELEMENT_REGISTER_DECLARE (bc5enc);
GST_ELEMENT_REGISTER_DECLARE (bc7enc);
GST_ELEMENT_REGISTER_DECLARE (bc6henc);
GST_ELEMENT_REGISTER_DECLARE (bcdec);

/**
 * gst_bc_split_block_rows:
 * @n_rows: block rows in a frame, at least 1
 * @n_threads: threads that will run the jobs
 * @rows_per_job: (out): block rows in every job but the last
 *
 * Splits a frame into jobs of whole block rows for a #GstBcWorkers: one job
 * for one thread, else about four jobs per thread so that threads finishing
 * early can take more work.
 *
 * Returns: the number of jobs
 */
static inline guint
gst_bc_split_block_rows (guint n_rows, guint n_threads, guint * rows_per_job)
{
  guint target, per;

  if (n_rows == 0) {
    *rows_per_job = 1;
    return 0;
  }
  if (n_threads <= 1) {
    *rows_per_job = n_rows;
    return 1;
  }
  target = n_threads * 4;
  per = (n_rows + target - 1) / target;
  *rows_per_job = per;
  return (n_rows + per - 1) / per;
}

G_END_DECLS

#endif /* __GST_BC_ELEMENTS_H__ */
