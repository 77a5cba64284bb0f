/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_DECODE_H__
#define __GST_BC_DECODE_H__

#include <gst/bc/bc-prelude.h>
#include <gst/bc/bcformat.h>

G_BEGIN_DECLS

GST_BC_API
gboolean gst_bc_decode_block (GstBcFormat format, const guint8 * block,
                              guint8 rgba[64]);

GST_BC_API
void gst_bc_decode_rows (GstBcFormat format, const guint8 * src,
                         guint width, guint height,
                         guint first_block_row, guint n_block_rows,
                         guint8 * dst, gsize dst_stride,
                         const GstBcPixelLayout * layout);

GST_BC_API
gboolean gst_bc_decode_block_half (GstBcFormat format, const guint8 * block,
                                   guint16 rgba[64]);

GST_BC_API
void gst_bc_decode_rows_half (GstBcFormat format, const guint8 * src,
                              guint width, guint height,
                              guint first_block_row, guint n_block_rows,
                              guint8 * dst, gsize dst_stride);

GST_BC_API
void gst_bc_decode_rows_pq (GstBcFormat format, const guint8 * src,
                            guint width, guint height,
                            guint first_block_row, guint n_block_rows,
                            guint8 * dst, gsize dst_stride);

G_END_DECLS

#endif /* __GST_BC_DECODE_H__ */
