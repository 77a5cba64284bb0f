/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstbcyuv
 * @title: YUV input
 * @short_description: YUV pictures converted to RGB as blocks are encoded
 *
 * gst_bc_encode_rows_yuv() encodes block rows of a YUV picture (the
 * formats of %GST_BC_YUV_FORMATS) as gst_bc_encode_rows() encodes RGB: it
 * converts a strip of four picture rows at a time (at most 256 pixels
 * wide, in cache) to RGB and encodes the strip's blocks from there, so no
 * RGB frame is ever written. The blocks are those gst_bc_encode_rows()
 * writes for the picture gst_bc_yuv_convert_row() gives.
 *
 * The conversion, in exact integer arithmetic (2^-20 of an output code;
 * the result is within one code of the exact value, rounded to the
 * nearest code and clamped to 0..255):
 *
 * - Luma and chroma are normalised with the offsets and scales of the
 *   range (gst_video_color_range_offsets(): limited 8-bit luma 16..235,
 *   chroma 16..240 about 128; full 0..255; 10-bit: the same times 4 for
 *   limited, 0..1023 about 512 for full), and
 *   R = Y' + 2 (1 - Kr) Cr', B = Y' + 2 (1 - Kb) Cb',
 *   G = (Y' - Kr R - Kb B) / (1 - Kr - Kb), times 255, with Kr and Kb of
 *   the matrix (gst_video_color_matrix_get_Kr_Kb(): BT.601, BT.709,
 *   BT.2020, SMPTE 240M, FCC).
 * - Chroma is upsampled bilinearly at its siting: each missing sample is
 *   the 3/4 : 1/4 mix of the two nearest (centred chroma, as
 *   GST_VIDEO_CHROMA_SITE_JPEG and an unknown siting) or the mean of its
 *   two neighbours (cosited chroma, GST_VIDEO_CHROMA_SITE_H_COSITED and
 *   GST_VIDEO_CHROMA_SITE_V_COSITED), vertically for 4:2:0 and
 *   horizontally for both; samples past the picture's edge repeat the
 *   edge's.
 *
 * Every instruction set (gst_bc_encode_set_simd()) gives the same bytes.
 * Odd widths and heights read the chroma of the last, partial pair; v210
 * rows may be padded (GStreamer aligns them to 128 bytes) and are read up
 * to the 16-byte group of their last pixel only.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcyuv.h"
#include "bcencode-private.h"

#include <math.h>

static gboolean
layout_of (GstVideoFormat format, BcYuvLayout * layout)
{
  switch (format) {
    case GST_VIDEO_FORMAT_I420:
      *layout = BC_YUV_I420;
      return TRUE;
    case GST_VIDEO_FORMAT_NV12:
      *layout = BC_YUV_NV12;
      return TRUE;
    case GST_VIDEO_FORMAT_P010_10LE:
      *layout = BC_YUV_P010;
      return TRUE;
    case GST_VIDEO_FORMAT_YUY2:
      *layout = BC_YUV_YUY2;
      return TRUE;
    case GST_VIDEO_FORMAT_UYVY:
      *layout = BC_YUV_UYVY;
      return TRUE;
    case GST_VIDEO_FORMAT_v210:
      *layout = BC_YUV_V210;
      return TRUE;
    default:
      return FALSE;
  }
}

static gboolean
is_420 (BcYuvLayout layout)
{
  return layout == BC_YUV_I420 || layout == BC_YUV_NV12 ||
      layout == BC_YUV_P010;
}

/**
 * gst_bc_yuv_format_supported:
 * @format: a raw video format
 *
 * Returns: %TRUE when @format is one of %GST_BC_YUV_FORMATS.
 */
gboolean
gst_bc_yuv_format_supported (GstVideoFormat format)
{
  BcYuvLayout layout;

  return layout_of (format, &layout);
}

/**
 * gst_bc_yuv_info_set:
 * @yuv: (out caller-allocates): the #GstBcYuvInfo to fill
 * @format: one of %GST_BC_YUV_FORMATS
 * @width: picture width, at least 1
 * @height: picture height, at least 1
 * @matrix: a YUV colour matrix (not %GST_VIDEO_COLOR_MATRIX_RGB nor
 *     unknown)
 * @range: %GST_VIDEO_COLOR_RANGE_0_255 or %GST_VIDEO_COLOR_RANGE_16_235
 * @chroma_site: where the chroma samples sit: the
 *     %GST_VIDEO_CHROMA_SITE_H_COSITED and %GST_VIDEO_CHROMA_SITE_V_COSITED
 *     flags are read, anything else is centred
 *
 * Fills @yuv with the conversion of a picture of these properties.
 *
 * Returns: %FALSE (and @yuv unusable) when one of them is not supported.
 */
gboolean
gst_bc_yuv_info_set (GstBcYuvInfo * yuv, GstVideoFormat format, guint width,
    guint height, GstVideoColorMatrix matrix, GstVideoColorRange range,
    GstVideoChromaSite chroma_site)
{
  BcYuvLayout layout;
  gdouble kr, kb;

  g_return_val_if_fail (yuv != NULL, FALSE);
  memset (yuv, 0, sizeof (*yuv));
  if (!layout_of (format, &layout) || width == 0 || height == 0 ||
      width > G_MAXINT / 4 || height > G_MAXINT / 4)
    return FALSE;
  if (range != GST_VIDEO_COLOR_RANGE_0_255 &&
      range != GST_VIDEO_COLOR_RANGE_16_235)
    return FALSE;
  if (matrix == GST_VIDEO_COLOR_MATRIX_RGB ||
      !gst_video_color_matrix_get_Kr_Kb (matrix, &kr, &kb))
    return FALSE;

  yuv->format = format;
  yuv->width = width;
  yuv->height = height;
  yuv->matrix = matrix;
  yuv->range = range;
  yuv->h_cosited = (chroma_site & GST_VIDEO_CHROMA_SITE_H_COSITED) != 0;
  yuv->v_cosited = (chroma_site & GST_VIDEO_CHROMA_SITE_V_COSITED) != 0;
  yuv->layout = layout;
  return gst_bc_yuv_info_set_depth (yuv, 8);
}

/**
 * gst_bc_yuv_info_set_depth:
 * @yuv: a filled #GstBcYuvInfo
 * @depth: the bits of each output sample: 8 (RGBA, what
 *     gst_bc_yuv_info_set() sets) or 16 (RGBA64_LE)
 *
 * Sets the depth of the RGB the conversion writes. At 16 bits every code
 * is 257 times the 8-bit code of the same value (65535 the largest), the
 * coefficients in 2^-13 of a code (the most that keeps the sums in 32
 * bits): the result, rounded to the nearest code and clamped to
 * 0..65535, is within 1.25 codes of the exact value (2^-16 of full scale,
 * 1/50 of a 10-bit input's step).
 * gst_bc_encode_rows_hdr_yuv() reads this depth, gst_bc_encode_rows_yuv()
 * the 8-bit one.
 *
 * Returns: %FALSE when @depth is neither 8 nor 16 (@yuv is unchanged).
 */
gboolean
gst_bc_yuv_info_set_depth (GstBcYuvInfo * yuv, guint depth)
{
  const GstVideoFormatInfo *finfo;
  gdouble kr, kb, kg, sy, sc, omax, one;
  gint offset[4], scale[4];

  g_return_val_if_fail (yuv != NULL && yuv->width > 0, FALSE);
  if (depth != 8 && depth != 16)
    return FALSE;
  if (!gst_video_color_matrix_get_Kr_Kb (yuv->matrix, &kr, &kb))
    return FALSE;

  finfo = gst_video_format_get_info (yuv->format);
  gst_video_color_range_offsets (yuv->range, finfo, offset, scale);
  omax = depth == 16 ? 65535.0 : 255.0;
  one = (gdouble) (1 << (depth == 16 ? BC_YUV_SHIFT16 : BC_YUV_SHIFT));
  kg = 1.0 - kr - kb;
  sy = omax / scale[0];
  /* chroma in 1/16 of a code */
  sc = omax / (scale[1] * 16.0);

  yuv->depth = depth;
  yuv->y_offset = offset[0];
  yuv->c_offset16 = offset[1] * 16;
  yuv->k[0] = (gint32) lround (sy * one);
  yuv->k[1] = (gint32) lround (2.0 * (1.0 - kr) * sc * one);
  yuv->k[2] = (gint32) lround (2.0 * kb * (1.0 - kb) / kg * sc * one);
  yuv->k[3] = (gint32) lround (2.0 * kr * (1.0 - kr) / kg * sc * one);
  yuv->k[4] = (gint32) lround (2.0 * (1.0 - kb) * sc * one);
  return TRUE;
}

/**
 * gst_bc_yuv_info_from_video_info:
 * @yuv: (out caller-allocates): the #GstBcYuvInfo to fill
 * @vinfo: the input's #GstVideoInfo
 *
 * Fills @yuv from a YUV format's video info: matrix, range and chroma
 * siting from its colorimetry and chroma-site. An unknown matrix or range
 * takes GStreamer's default for the format and size (as
 * gst_video_info_set_format() gives: BT.601 up to 576 rows, BT.709 above;
 * limited range); an unknown siting is centred.
 *
 * Returns: %FALSE when @vinfo is not one of %GST_BC_YUV_FORMATS, is an
 * interlaced 4:2:0 format (its chroma rows belong to fields), has one
 * field a buffer (interlace-mode alternate), or has the RGB matrix.
 */
gboolean
gst_bc_yuv_info_from_video_info (GstBcYuvInfo * yuv, const GstVideoInfo * vinfo)
{
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (vinfo);
  GstVideoColorMatrix matrix = vinfo->colorimetry.matrix;
  GstVideoColorRange range = vinfo->colorimetry.range;
  BcYuvLayout layout;

  g_return_val_if_fail (yuv != NULL && vinfo != NULL, FALSE);
  if (!layout_of (format, &layout))
    return FALSE;
  if (GST_VIDEO_INFO_IS_INTERLACED (vinfo) && is_420 (layout))
    return FALSE;
  /* one field a buffer: not a picture of the caps' height */
  if (GST_VIDEO_INFO_INTERLACE_MODE (vinfo) ==
      GST_VIDEO_INTERLACE_MODE_ALTERNATE)
    return FALSE;
  if (matrix == GST_VIDEO_COLOR_MATRIX_UNKNOWN ||
      range == GST_VIDEO_COLOR_RANGE_UNKNOWN) {
    GstVideoInfo def;

    if (!gst_video_info_set_format (&def, format, GST_VIDEO_INFO_WIDTH (vinfo),
            GST_VIDEO_INFO_HEIGHT (vinfo)))
      return FALSE;
    if (matrix == GST_VIDEO_COLOR_MATRIX_UNKNOWN)
      matrix = def.colorimetry.matrix;
    if (range == GST_VIDEO_COLOR_RANGE_UNKNOWN)
      range = def.colorimetry.range;
  }
  return gst_bc_yuv_info_set (yuv, format, GST_VIDEO_INFO_WIDTH (vinfo),
      GST_VIDEO_INFO_HEIGHT (vinfo), matrix, range, vinfo->chroma_site);
}

/**
 * gst_bc_yuv_info_get_coefficients:
 * @yuv: a filled #GstBcYuvInfo
 * @y_offset: (out): the luma offset of the range, in codes of the format
 * @c_offset16: (out): the chroma offset of the range, in 1/16 of a code
 * @k: (out caller-allocates) (array fixed-size=5): the coefficients of
 *     luma and of chroma in 1/16, in 2^-shift output codes: Y, R from V,
 *     G from U, G from V, B from U
 *
 * The fixed-point conversion the encoders run, for another implementation
 * of it (the GL compute path's shader) to compute the same codes: with Y
 * the luma and U, V the chroma upsampled (see gst_bc_encode_rows_yuv()) in
 * 1/16 of a code, minus @c_offset16, and l = k[0] (Y - @y_offset) +
 * 2^(shift - 1), R = (l + k[1] V) >> shift, G = (l - k[2] U - k[3] V) >>
 * shift, B = (l + k[4] U) >> shift (arithmetic shifts of 32-bit integers,
 * which never overflow), each clamped to 0..255, or at a depth of 16
 * (gst_bc_yuv_info_set_depth()) to 0..65535.
 *
 * Returns: the shift (20; 13 at a depth of 16).
 */
guint
gst_bc_yuv_info_get_coefficients (const GstBcYuvInfo * yuv,
    gint32 * y_offset, gint32 * c_offset16, gint32 k[5])
{
  g_return_val_if_fail (yuv != NULL && y_offset != NULL &&
      c_offset16 != NULL && k != NULL, 0);

  *y_offset = yuv->y_offset;
  *c_offset16 = yuv->c_offset16;
  memcpy (k, yuv->k, sizeof (yuv->k));
  return yuv->depth == 16 ? BC_YUV_SHIFT16 : BC_YUV_SHIFT;
}

/**
 * gst_bc_yuv_info_n_planes:
 * @yuv: a filled #GstBcYuvInfo
 *
 * Returns: the planes of the format: I420 3 (Y, U, V), NV12 and
 * P010_10LE 2 (Y, UV), the packed formats 1.
 */
guint
gst_bc_yuv_info_n_planes (const GstBcYuvInfo * yuv)
{
  g_return_val_if_fail (yuv != NULL, 0);

  switch ((BcYuvLayout) yuv->layout) {
    case BC_YUV_I420:
      return 3;
    case BC_YUV_NV12:
    case BC_YUV_P010:
      return 2;
    default:
      return 1;
  }
}

/**
 * gst_bc_yuv_info_row_bytes:
 * @yuv: a filled #GstBcYuvInfo
 * @plane: a plane index
 *
 * Returns: the bytes of each row of @plane the encoder reads: the
 * smallest stride it accepts (v210: up to the 16-byte group of the last
 * pixel; YUY2 and UYVY of odd width: the last pixel's whole 4-byte
 * pair), 0 for a plane the format does not have.
 */
gsize
gst_bc_yuv_info_row_bytes (const GstBcYuvInfo * yuv, guint plane)
{
  gsize w, cw;

  g_return_val_if_fail (yuv != NULL, 0);
  if (plane >= gst_bc_yuv_info_n_planes (yuv))
    return 0;
  w = yuv->width;
  cw = (w + 1) / 2;
  switch ((BcYuvLayout) yuv->layout) {
    case BC_YUV_I420:
      return plane == 0 ? w : cw;
    case BC_YUV_NV12:
      return plane == 0 ? w : 2 * cw;
    case BC_YUV_P010:
      return plane == 0 ? 2 * w : 4 * cw;
    case BC_YUV_YUY2:
    case BC_YUV_UYVY:
      return 4 * cw;
    case BC_YUV_V210:
      return 16 * ((w + 5) / 6);
  }
  return 0;
}

/**
 * gst_bc_yuv_info_plane_rows:
 * @yuv: a filled #GstBcYuvInfo
 * @plane: a plane index
 *
 * Returns: the rows of @plane: the height, or for the chroma planes of
 * 4:2:0 formats half of it rounded up; 0 for a plane the format does not
 * have.
 */
guint
gst_bc_yuv_info_plane_rows (const GstBcYuvInfo * yuv, guint plane)
{
  g_return_val_if_fail (yuv != NULL, 0);
  if (plane >= gst_bc_yuv_info_n_planes (yuv))
    return 0;
  if (plane > 0 && is_420 ((BcYuvLayout) yuv->layout))
    return (yuv->height + 1) / 2;
  return yuv->height;
}

static void
params_of (const GstBcYuvInfo * yuv, BcYuvParams * p)
{
  p->layout = (BcYuvLayout) yuv->layout;
  p->width = yuv->width;
  p->height = yuv->height;
  p->h_cosited = yuv->h_cosited;
  p->v_cosited = yuv->v_cosited;
  p->y_offset = yuv->y_offset;
  p->c_offset16 = yuv->c_offset16;
  memcpy (p->k, yuv->k, sizeof (p->k));
  p->out16 = yuv->depth == 16;
}

static gboolean
planes_valid (const GstBcYuvInfo * yuv, const guint8 * const planes[3],
    const gsize strides[3])
{
  guint i, n = gst_bc_yuv_info_n_planes (yuv);

  if (n == 0 || planes == NULL || strides == NULL)
    return FALSE;
  for (i = 0; i < n; i++)
    if (planes[i] == NULL || strides[i] < gst_bc_yuv_info_row_bytes (yuv, i))
      return FALSE;
  return TRUE;
}

/**
 * gst_bc_yuv_convert_row:
 * @yuv: a filled #GstBcYuvInfo
 * @planes: (array fixed-size=3): the first byte of each plane
 *     (gst_bc_yuv_info_n_planes())
 * @strides: (array fixed-size=3): the bytes from one row of each plane to
 *     the next, each at least gst_bc_yuv_info_row_bytes()
 * @y: the picture row
 * @x: the first pixel
 * @n: how many pixels (@x + @n at most the width)
 * @rgba: (out caller-allocates): per pixel R, G, B and an opaque alpha:
 *     4 * @n bytes (255), or at a depth of 16 (gst_bc_yuv_info_set_depth())
 *     8 * @n bytes of little-endian 16-bit samples (65535)
 *
 * Converts pixels of one picture row to RGB as the encoders do.
 */
void
gst_bc_yuv_convert_row (const GstBcYuvInfo * yuv,
    const guint8 * const planes[3], const gsize strides[3], guint y, guint x,
    guint n, guint8 * rgba)
{
  const BcKernels *kernels;
  BcYuvParams p;
  guint done;

  g_return_if_fail (yuv != NULL && rgba != NULL);
  g_return_if_fail (planes_valid (yuv, planes, strides));
  g_return_if_fail (y < yuv->height && x <= yuv->width && n <= yuv->width - x);

  kernels = bc_encode_get_kernels ();
  params_of (yuv, &p);
  for (done = 0; done < n; done += BC_YUV_CHUNK)
    kernels->yuv_rows (&p, planes, strides, y, 1, x + done,
        MIN (BC_YUV_CHUNK, n - done), rgba + (gsize) done * (p.out16 ? 8 :
            4), 0);
}

/**
 * gst_bc_encode_rows_yuv:
 * @format: a #GstBcFormat gst_bc_encode_format_supported() accepts
 * @quality: speed/quality trade-off
 * @yuv: the picture's #GstBcYuvInfo
 * @planes: (array fixed-size=3): the first byte of each plane
 *     (gst_bc_yuv_info_n_planes())
 * @strides: (array fixed-size=3): the bytes from one row of each plane to
 *     the next, each at least gst_bc_yuv_info_row_bytes()
 * @first_block_row: first block row to encode
 * @n_block_rows: block rows to encode
 * @dst: the start of the whole encoded frame
 *
 * Encodes block rows of a YUV picture: the same blocks as
 * gst_bc_encode_rows() writes for the opaque RGB picture of
 * gst_bc_yuv_convert_row() (BC4: its luma, BC5: its red and green). No
 * allocation; thread-safe for disjoint block rows.
 */
void
gst_bc_encode_rows_yuv (GstBcFormat format, GstBcQuality quality,
    const GstBcYuvInfo * yuv, const guint8 * const planes[3],
    const gsize strides[3], guint first_block_row, guint n_block_rows,
    guint8 * dst)
{
  /* RGBx: opaque */
  static const GstBcPixelLayout rgbx = { 4, 0, 1, 2, -1, 3 };
  const BcKernels *kernels;
  guint32 strip[4][BC_YUV_CHUNK];
  guint blocks_y, block_bytes, by, x0, y;
  gsize row_bytes;
  BcYuvParams p;

  g_return_if_fail (yuv != NULL && dst != NULL);
  g_return_if_fail (yuv->depth == 8);
  g_return_if_fail (planes_valid (yuv, planes, strides));
  g_return_if_fail (gst_bc_encode_format_supported (format));
  blocks_y = (yuv->height + 3) / 4;
  g_return_if_fail (first_block_row <= blocks_y);
  g_return_if_fail (n_block_rows <= blocks_y - first_block_row);

  kernels = bc_encode_get_kernels ();
  params_of (yuv, &p);
  block_bytes = gst_bc_format_get_block_bytes (format);
  row_bytes = (gsize) ((yuv->width + 3) / 4) * block_bytes;

  for (by = first_block_row; by < first_block_row + n_block_rows; by++) {
    for (x0 = 0; x0 < yuv->width; x0 += BC_YUV_CHUNK) {
      guint n = MIN (BC_YUV_CHUNK, yuv->width - x0);

      guint rows = MIN (4, yuv->height - by * 4);

      kernels->yuv_rows (&p, planes, strides, by * 4, rows, x0, n,
          (guint8 *) strip[0], sizeof (strip[0]));
      for (y = rows; y < 4; y++)
        memcpy (strip[y], strip[y - 1], (gsize) n * 4);
      bc_encode_rows_unchecked (kernels, format, quality,
          (const guint8 *) strip, sizeof (strip[0]), n, 4, &rgbx, 0, 1,
          dst + by * row_bytes + (gsize) (x0 / 4) * block_bytes);
    }
  }
}

/**
 * gst_bc_encode_rows_hdr_yuv: (skip)
 * @input: the conversion to linear light of the RGB the YUV becomes: a
 *     #GstBcHdrInput of %GST_VIDEO_FORMAT_RGBA64_LE (the transfer of the
 *     input's colorimetry)
 * @format: %GST_BC_FORMAT_BC6H or %GST_BC_FORMAT_BC6H_SF
 * @quality: speed/quality trade-off
 * @yuv: the picture's #GstBcYuvInfo, at a depth of 16
 *     (gst_bc_yuv_info_set_depth())
 * @planes: (array fixed-size=3): the first byte of each plane
 *     (gst_bc_yuv_info_n_planes())
 * @strides: (array fixed-size=3): the bytes from one row of each plane to
 *     the next, each at least gst_bc_yuv_info_row_bytes()
 * @first_block_row: first block row to encode
 * @n_block_rows: block rows to encode
 * @dst: the start of the whole encoded frame
 *
 * Encodes block rows of a YUV picture into BC6H: the same blocks as
 * gst_bc_encode_rows_hdr() writes for the RGBA64_LE picture of
 * gst_bc_yuv_convert_row(), converted a strip of four rows at a time (no
 * RGB frame is written, no allocation but one strip per call).
 * Thread-safe for disjoint block rows.
 */
void
gst_bc_encode_rows_hdr_yuv (const GstBcHdrInput * input, GstBcFormat format,
    GstBcQuality quality, const GstBcYuvInfo * yuv,
    const guint8 * const planes[3], const gsize strides[3],
    guint first_block_row, guint n_block_rows, guint8 * dst)
{
  guint blocks_y;
  BcYuvParams p;

  g_return_if_fail (input != NULL && yuv != NULL && dst != NULL);
  g_return_if_fail (gst_bc_hdr_input_get_bpp (input) == 8);
  g_return_if_fail (yuv->depth == 16);
  g_return_if_fail (planes_valid (yuv, planes, strides));
  g_return_if_fail (gst_bc_format_is_float (format));
  blocks_y = (yuv->height + 3) / 4;
  g_return_if_fail (first_block_row <= blocks_y);
  g_return_if_fail (n_block_rows <= blocks_y - first_block_row);

  params_of (yuv, &p);
  bc_encode_rows_bc6h (bc_encode_get_kernels (), input, &p, planes, strides,
      format, quality, NULL, 0, yuv->width, yuv->height, first_block_row,
      n_block_rows, dst);
}
