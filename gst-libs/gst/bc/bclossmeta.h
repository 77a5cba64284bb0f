/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_LOSS_META_H__
#define __GST_BC_LOSS_META_H__

#include <gst/bc/bc-prelude.h>

G_BEGIN_DECLS

#define GST_BC_LOSS_META_API_TYPE (gst_bc_loss_meta_api_get_type ())
#define GST_BC_LOSS_META_INFO (gst_bc_loss_meta_get_info ())

typedef struct _GstBcLossMeta GstBcLossMeta;

/**
 * GstBcLossRange:
 * @offset: byte offset of the range in the frame
 * @size: bytes in the range
 *
 * A byte range of a frame that did not arrive.
 */
typedef struct
{
  guint64 offset;
  guint64 size;
} GstBcLossRange;

/**
 * GstBcLossMeta:
 * @meta: the parent #GstMeta
 * @n_ranges: number of entries in @ranges
 * @ranges: (array length=n_ranges): the byte ranges of the frame that did
 *     not arrive, in the order they were added
 * @lost_bytes: sum of the sizes of @ranges
 *
 * Attached by a receiver (tilesrc with protocol=udp) to a frame that is
 * incomplete. A frame carrying it also has %GST_BUFFER_FLAG_CORRUPTED; the
 * ranges keep the newest data the receiver had (older frames' bytes), not
 * zeros.
 *
 * The meta is copied with the buffer (a copy of a region keeps the parts
 * of the ranges inside it, relative to its start).
 */
struct _GstBcLossMeta
{
  GstMeta meta;

  guint n_ranges;
  GstBcLossRange *ranges;
  guint64 lost_bytes;

  /*< private > */
  guint allocated;
};

GST_BC_API
GType gst_bc_loss_meta_api_get_type (void);

GST_BC_API
const GstMetaInfo * gst_bc_loss_meta_get_info (void);

GST_BC_API
GstBcLossMeta * gst_buffer_add_bc_loss_meta (GstBuffer * buffer);

GST_BC_API
GstBcLossMeta * gst_buffer_get_bc_loss_meta (GstBuffer * buffer);

GST_BC_API
void gst_bc_loss_meta_add_range (GstBcLossMeta * meta, guint64 offset,
    guint64 size);

GST_BC_API
gboolean gst_bc_loss_meta_get_range (const GstBcLossMeta * meta, guint index,
    guint64 * offset, guint64 * size);

G_END_DECLS

#endif /* __GST_BC_LOSS_META_H__ */
