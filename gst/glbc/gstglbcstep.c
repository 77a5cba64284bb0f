/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Stepped uploads: every buffer of glbcupload's pool carries a
 * GstBcTileMeta. When its producer reports a tile complete (on the
 * producer's thread), the block rows of that tile are queued to the GL
 * thread with gst_gl_window_send_message_async () and uploaded there from
 * the mapped buffer (gst_gl_bc_ring_upload_rows ()) while the other tiles
 * still arrive. The producer's thread does not wait for the GL thread.
 *
 * A job records the fill of the slot it was queued in: a job that runs
 * after its frame has gone (the slot is in a later fill), or whose rows
 * the frame's own upload took already, does nothing. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstglbcpoolprivate.h"

#define GST_CAT_DEFAULT gst_gl_bc_upload_debug

typedef struct
{
  GstBcGLBufferRing *ring;
  guint slot;
  guint32 fill;
  guint first_row;
  guint n_rows;
} TileJob;

/* GL thread */
static void
tile_job_run (TileJob * job)
{
  GstGLBcSlot *s = &gst_gl_bc_ring_get_data (job->ring)->slots[job->slot];
  GstGLContext *context = gst_bc_gl_buffer_ring_get_context (job->ring);
  guint i;

  if ((guint32) g_atomic_int_get (&s->fill) != job->fill)
    return;                     /* the frame is gone already */
  for (i = 0; i < job->n_rows; i++)
    if (s->row_fill[job->first_row + i] == job->fill)
      return;                   /* uploaded with the frame already */
  for (i = 0; i < job->n_rows; i++)
    s->row_fill[job->first_row + i] = job->fill;

  gst_gl_bc_ring_upload_rows (job->ring, job->slot, job->first_row,
      job->n_rows);
  if (s->stepped_fill != (gint) job->fill) {
    s->stepped_fill = (gint) job->fill;
    s->stepped_count = 0;
    s->stepped_errors = 0;
  }
  s->stepped_count++;
  s->stepped_errors += gst_gl_bc_check_gl_error (context, NULL,
      "a stepped tile upload");
  GST_LOG ("slot %u fill %u: rows %u..%u uploaded stepped", job->slot,
      job->fill, job->first_row, job->first_row + job->n_rows - 1);
}

static void
tile_job_free (TileJob * job)
{
  gst_bc_gl_buffer_ring_unref (job->ring);
  g_free (job);
}

void
gst_gl_bc_step_tile_complete (GstBuffer * buffer, GstBcTileMeta * meta,
    const GstBcTile * tile, gpointer user_data)
{
  GstBcGLBufferRing *ring;
  GstGLBcRingData *data;
  TileJob *job;
  guint slot;

  ring = gst_gl_bc_ring_from_buffer (buffer, &slot);
  if (!ring)
    return;
  data = gst_gl_bc_ring_get_data (ring);
  if (!g_atomic_int_get (&data->stepped))
    return;
  if (tile->n_rows == 0 || tile->first_row >= data->info.blocks_y ||
      tile->n_rows > data->info.blocks_y - tile->first_row ||
      tile->offset != tile->first_row * data->info.row_bytes ||
      tile->size != tile->n_rows * data->info.row_bytes) {
    GST_WARNING ("tile %u (rows %u+%u, bytes %" G_GSIZE_FORMAT "+%"
        G_GSIZE_FORMAT ") is not whole block rows of a %ux%u %s frame",
        tile->index, tile->first_row, tile->n_rows, tile->offset, tile->size,
        data->info.width, data->info.height,
        gst_bc_format_to_string (data->info.format));
    return;
  }

  job = g_new (TileJob, 1);
  job->ring = gst_bc_gl_buffer_ring_ref (ring);
  job->slot = slot;
  job->fill = (guint32) g_atomic_int_get (&data->slots[slot].fill);
  job->first_row = tile->first_row;
  job->n_rows = tile->n_rows;
  gst_gl_window_send_message_async (data->window,
      (GstGLWindowCB) tile_job_run, job, (GDestroyNotify) tile_job_free);
}
