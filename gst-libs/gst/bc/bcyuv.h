/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_YUV_H__
#define __GST_BC_YUV_H__

#include <gst/bc/bc-prelude.h>
#include <gst/bc/bcformat.h>
#include <gst/bc/bcencode.h>

G_BEGIN_DECLS

/**
 * GST_BC_YUV_FORMATS:
 *
 * The YUV video formats the block encoders read directly (caps list):
 * converted to RGB while the blocks are gathered.
 */
#define GST_BC_YUV_FORMATS "{ NV12, I420, YUY2, UYVY, P010_10LE, v210 }"

/**
 * GST_BC_YUV_420_FORMATS:
 *
 * The formats of %GST_BC_YUV_FORMATS whose chroma is subsampled
 * vertically (4:2:0): they are read as progressive frames only.
 */
#define GST_BC_YUV_420_FORMATS "{ NV12, I420, P010_10LE }"

/**
 * GST_BC_YUV_422_FORMATS:
 *
 * The 4:2:2 formats of %GST_BC_YUV_FORMATS: every picture row has its own
 * chroma, so interlaced frames convert as they are.
 */
#define GST_BC_YUV_422_FORMATS "{ YUY2, UYVY, v210 }"

/**
 * GstBcYuvInfo:
 * @format: the YUV format
 * @width: picture width in pixels, at least 1
 * @height: picture height in pixels, at least 1
 * @matrix: the colour matrix the conversion uses (never unknown)
 * @range: the range the conversion uses (never unknown)
 * @h_cosited: chroma samples sit on the even luma columns (else halfway
 *     between two columns)
 * @v_cosited: (4:2:0) chroma samples sit on the even luma rows (else
 *     halfway between two rows)
 * @depth: the bits of each RGB sample the conversion writes: 8, or 16
 *     for HDR input (gst_bc_yuv_info_set_depth())
 *
 * How a YUV picture converts to RGB (see
 * gst_bc_yuv_info_from_video_info()).
 */
typedef struct
{
  GstVideoFormat format;
  guint width;
  guint height;
  GstVideoColorMatrix matrix;
  GstVideoColorRange range;
  gboolean h_cosited;
  gboolean v_cosited;
  guint depth;

  /*< private >*/
  /* what the kernels (bcyuv-kernels.c) read: the layout (BcYuvLayout),
   * luma offset, chroma offset in 1/16, and the coefficients of luma and
   * 1/16 chroma in 2^-BC_YUV_SHIFT output codes: Y, R from V, G from U,
   * G from V, B from U */
  gint32 layout;
  gint32 y_offset;
  gint32 c_offset16;
  gint32 k[5];
  gpointer _gst_reserved[GST_PADDING];
} GstBcYuvInfo;

GST_BC_API
gboolean gst_bc_yuv_format_supported (GstVideoFormat format);

GST_BC_API
gboolean gst_bc_yuv_info_from_video_info (GstBcYuvInfo * yuv,
                                          const GstVideoInfo * vinfo);

GST_BC_API
gboolean gst_bc_yuv_info_set (GstBcYuvInfo * yuv, GstVideoFormat format,
                              guint width, guint height,
                              GstVideoColorMatrix matrix,
                              GstVideoColorRange range,
                              GstVideoChromaSite chroma_site);

GST_BC_API
gboolean gst_bc_yuv_info_set_depth (GstBcYuvInfo * yuv, guint depth);

GST_BC_API
guint gst_bc_yuv_info_get_coefficients (const GstBcYuvInfo * yuv,
                                        gint32 * y_offset,
                                        gint32 * c_offset16,
                                        gint32 k[5]);

GST_BC_API
guint gst_bc_yuv_info_n_planes (const GstBcYuvInfo * yuv);

GST_BC_API
gsize gst_bc_yuv_info_row_bytes (const GstBcYuvInfo * yuv, guint plane);

GST_BC_API
guint gst_bc_yuv_info_plane_rows (const GstBcYuvInfo * yuv, guint plane);

GST_BC_API
void gst_bc_yuv_convert_row (const GstBcYuvInfo * yuv,
                             const guint8 * const planes[3],
                             const gsize strides[3], guint y,
                             guint x, guint n, guint8 * rgba);

GST_BC_API
void gst_bc_encode_rows_yuv (GstBcFormat format, GstBcQuality quality,
                             const GstBcYuvInfo * yuv,
                             const guint8 * const planes[3],
                             const gsize strides[3],
                             guint first_block_row, guint n_block_rows,
                             guint8 * dst);

GST_BC_API
void gst_bc_encode_rows_hdr_yuv (const GstBcHdrInput * input,
                                 GstBcFormat format, GstBcQuality quality,
                                 const GstBcYuvInfo * yuv,
                                 const guint8 * const planes[3],
                                 const gsize strides[3],
                                 guint first_block_row, guint n_block_rows,
                                 guint8 * dst);

G_END_DECLS

#endif /* __GST_BC_YUV_H__ */
