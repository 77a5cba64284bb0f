/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_ENCODE_H__
#define __GST_BC_ENCODE_H__

#include <gst/bc/bc-prelude.h>
#include <gst/bc/bcformat.h>
#include <gst/bc/bchdr.h>

G_BEGIN_DECLS

/**
 * GstBcQuality:
 * @GST_BC_QUALITY_FAST: fastest, lowest quality
 * @GST_BC_QUALITY_NORMAL: balanced
 * @GST_BC_QUALITY_HIGH: best quality, slowest
 *
 * Encoder speed/quality trade-off.
 */
typedef enum
{
  GST_BC_QUALITY_FAST = 0,
  GST_BC_QUALITY_NORMAL = 1,
  GST_BC_QUALITY_HIGH = 2,
} GstBcQuality;

GST_BC_API
GType gst_bc_quality_get_type (void);
#define GST_TYPE_BC_QUALITY (gst_bc_quality_get_type ())

/**
 * GstBcSimd:
 * @GST_BC_SIMD_NONE: portable C
 * @GST_BC_SIMD_SSE2: SSE2 kernels
 * @GST_BC_SIMD_AVX2: AVX2 kernels
 * @GST_BC_SIMD_AVX512: AVX-512 kernels (F, VL, BW and DQ; 512-bit vectors)
 *
 * Instruction set used by the block encoders. Every level produces the same
 * blocks.
 */
typedef enum
{
  GST_BC_SIMD_NONE = 0,
  GST_BC_SIMD_SSE2 = 1,
  GST_BC_SIMD_AVX2 = 2,
  GST_BC_SIMD_AVX512 = 3,
} GstBcSimd;

GST_BC_API
GstBcSimd gst_bc_encode_get_simd (void);

GST_BC_API
GstBcSimd gst_bc_encode_set_simd (GstBcSimd max_level);

GST_BC_API
gboolean gst_bc_encode_format_supported (GstBcFormat format);

GST_BC_API
gboolean gst_bc_encode_layout_from_video_format (GstBcPixelLayout * layout,
                                                 GstVideoFormat format);

GST_BC_API
void gst_bc_encode_block (GstBcFormat format, GstBcQuality quality,
                          const guint8 rgba[64], guint8 * out);

GST_BC_API
void gst_bc_encode_rows (GstBcFormat format, GstBcQuality quality,
                         const guint8 * src, gsize src_stride,
                         guint width, guint height,
                         const GstBcPixelLayout * layout,
                         guint first_block_row, guint n_block_rows,
                         guint8 * dst);

GST_BC_API
void gst_bc_encode_block_half (GstBcFormat format, GstBcQuality quality,
                               const guint16 rgba[64], guint8 * out);

GST_BC_API
void gst_bc_encode_rows_half (GstBcFormat format, GstBcQuality quality,
                              const guint8 * src, gsize src_stride,
                              guint width, guint height,
                              guint first_block_row, guint n_block_rows,
                              guint8 * dst);

GST_BC_API
void gst_bc_encode_rows_hdr (const GstBcHdrInput * input,
                             GstBcFormat format, GstBcQuality quality,
                             const guint8 * src, gsize src_stride,
                             guint width, guint height,
                             guint first_block_row, guint n_block_rows,
                             guint8 * dst);

GST_BC_API
const guint8 * gst_bc_encode_single_color_table (guint bits);

GST_BC_API
const gfloat * gst_bc_encode_bc6h_weights (void);

GST_BC_API
const guint8 * gst_bc_encode_bc6h_header_bits (void);

GST_BC_API
void gst_bc_encode_bc7_tables (const guint8 ** partitions2,
                               const guint8 ** partitions3,
                               const guint8 ** anchors2,
                               const guint8 ** anchors3a,
                               const guint8 ** anchors3b,
                               const guint8 ** solid);

G_END_DECLS

#endif /* __GST_BC_ENCODE_H__ */
