/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstbcformat
 * @title: GstBcFormat
 * @short_description: block-compressed formats and frame geometry
 *
 * #GstBcFormat names the texture formats carried as `video/x-bc` and
 * #GstBcInfo describes one frame of them: visible size, padding to whole
 * 4x4 blocks, block rows and byte sizes. gst_bc_info_from_caps() and
 * gst_bc_info_to_caps() convert between caps and #GstBcInfo.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcformat.h"

#include <string.h>

static const struct
{
  GstBcFormat format;
  const gchar *name;
  guint block_bytes;
} formats[] = {
  {GST_BC_FORMAT_UNKNOWN, "UNKNOWN", 0},
  {GST_BC_FORMAT_BC1, "BC1", 8},
  {GST_BC_FORMAT_BC3, "BC3", 16},
  {GST_BC_FORMAT_YCOCG_BC3, "YCoCg-BC3", 16},
  {GST_BC_FORMAT_BC4, "BC4", 8},
  {GST_BC_FORMAT_BC5, "BC5", 16},
  {GST_BC_FORMAT_BC7, "BC7", 16},
  {GST_BC_FORMAT_BC6H, "BC6H", 16},
  {GST_BC_FORMAT_BC6H_SF, "BC6H-SF", 16},
};

G_STATIC_ASSERT (G_N_ELEMENTS (formats) == GST_BC_FORMAT_LAST);

/**
 * gst_bc_format_to_string:
 * @format: a #GstBcFormat
 *
 * Returns: the caps string of @format ("BC1", "YCoCg-BC3", ...), or NULL
 * for %GST_BC_FORMAT_UNKNOWN and invalid values.
 */
const gchar *
gst_bc_format_to_string (GstBcFormat format)
{
  if ((guint) format == 0 || (guint) format >= GST_BC_FORMAT_LAST)
    return NULL;
  return formats[format].name;
}

/**
 * gst_bc_format_from_string:
 * @str: (nullable): a format string as in caps
 *
 * Returns: the #GstBcFormat for @str, or %GST_BC_FORMAT_UNKNOWN.
 */
GstBcFormat
gst_bc_format_from_string (const gchar * str)
{
  guint i;

  if (str == NULL)
    return GST_BC_FORMAT_UNKNOWN;
  for (i = 1; i < G_N_ELEMENTS (formats); i++) {
    if (strcmp (formats[i].name, str) == 0)
      return formats[i].format;
  }
  return GST_BC_FORMAT_UNKNOWN;
}

/**
 * gst_bc_format_get_block_bytes:
 * @format: a #GstBcFormat
 *
 * Returns: bytes per 4x4 block (8 or 16), or 0 for an unknown format.
 */
guint
gst_bc_format_get_block_bytes (GstBcFormat format)
{
  if ((guint) format >= GST_BC_FORMAT_LAST)
    return 0;
  return formats[format].block_bytes;
}

/**
 * gst_bc_format_is_float:
 * @format: a #GstBcFormat
 *
 * Returns: %TRUE for the formats that hold half floats (%GST_BC_FORMAT_BC6H
 * and %GST_BC_FORMAT_BC6H_SF), %FALSE for the others.
 */
gboolean
gst_bc_format_is_float (GstBcFormat format)
{
  return format == GST_BC_FORMAT_BC6H || format == GST_BC_FORMAT_BC6H_SF;
}

GType
gst_bc_format_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_BC_FORMAT_UNKNOWN, "Unknown", "unknown"},
    {GST_BC_FORMAT_BC1, "BC1 (DXT1), RGB, 4 bits per pixel", "bc1"},
    {GST_BC_FORMAT_BC3, "BC3 (DXT5), RGBA, 8 bits per pixel", "bc3"},
    {GST_BC_FORMAT_YCOCG_BC3, "YCoCg in BC3, 8 bits per pixel", "ycocg-bc3"},
    {GST_BC_FORMAT_BC4, "BC4 (RGTC1), one channel, 4 bits per pixel", "bc4"},
    {GST_BC_FORMAT_BC5, "BC5 (RGTC2), two channels, 8 bits per pixel", "bc5"},
    {GST_BC_FORMAT_BC7, "BC7 (BPTC), RGBA, 8 bits per pixel", "bc7"},
    {GST_BC_FORMAT_BC6H, "BC6H (BPTC float), unsigned half-float RGB, "
          "8 bits per pixel", "bc6h"},
    {GST_BC_FORMAT_BC6H_SF, "BC6H (BPTC float), signed half-float RGB, "
          "8 bits per pixel", "bc6h-sf"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType tmp = g_enum_register_static ("GstBcFormat", values);
    g_once_init_leave (&type, tmp);
  }
  return type;
}

/**
 * gst_bc_info_init:
 * @info: a #GstBcInfo
 *
 * Resets @info to an unknown format of size 0x0.
 */
void
gst_bc_info_init (GstBcInfo * info)
{
  g_return_if_fail (info != NULL);

  memset (info, 0, sizeof (*info));
  info->fps_n = 0;
  info->fps_d = 1;
  info->par_n = 1;
  info->par_d = 1;
}

/**
 * gst_bc_info_set_format:
 * @info: a #GstBcInfo
 * @format: the block format
 * @width: visible width in pixels, at least 1
 * @height: visible height in pixels, at least 1
 *
 * Sets the format and size of @info and computes its geometry, keeping the
 * framerate and pixel-aspect-ratio.
 *
 * Returns: %FALSE when the format is unknown, a size is 0, or the frame
 * would not fit in memory.
 */
gboolean
gst_bc_info_set_format (GstBcInfo * info, GstBcFormat format, guint width,
    guint height)
{
  guint block_bytes;
  guint64 row_bytes, size;

  g_return_val_if_fail (info != NULL, FALSE);

  block_bytes = gst_bc_format_get_block_bytes (format);
  if (block_bytes == 0 || width == 0 || height == 0)
    return FALSE;
  if (width > G_MAXINT || height > G_MAXINT)
    return FALSE;

  row_bytes = (guint64) ((width + 3) / 4) * block_bytes;
  size = row_bytes * ((height + 3) / 4);
  if (size > G_MAXSIZE / 2)
    return FALSE;

  info->format = format;
  info->width = width;
  info->height = height;
  info->blocks_x = (width + 3) / 4;
  info->blocks_y = (height + 3) / 4;
  info->padded_width = info->blocks_x * 4;
  info->padded_height = info->blocks_y * 4;
  info->block_bytes = block_bytes;
  info->row_bytes = (gsize) row_bytes;
  info->size = (gsize) size;
  return TRUE;
}

/**
 * gst_bc_info_from_caps:
 * @info: (out caller-allocates): a #GstBcInfo
 * @caps: fixed `video/x-bc` caps
 *
 * Parses @caps into @info. Framerate defaults to 0/1 and pixel-aspect-ratio
 * to 1/1 when absent.
 *
 * Returns: %TRUE when @caps are fixed, of type `video/x-bc`, with a known
 * format and a width and height of at least 1.
 */
gboolean
gst_bc_info_from_caps (GstBcInfo * info, const GstCaps * caps)
{
  const GstStructure *s;
  const gchar *fmt;
  GstBcFormat format;
  gint width = 0, height = 0;

  g_return_val_if_fail (info != NULL, FALSE);
  g_return_val_if_fail (GST_IS_CAPS (caps), FALSE);

  if (!gst_caps_is_fixed (caps) || gst_caps_get_size (caps) != 1)
    return FALSE;

  s = gst_caps_get_structure (caps, 0);
  if (!gst_structure_has_name (s, GST_BC_MEDIA_TYPE))
    return FALSE;

  fmt = gst_structure_get_string (s, "format");
  format = gst_bc_format_from_string (fmt);
  if (format == GST_BC_FORMAT_UNKNOWN)
    return FALSE;
  if (!gst_structure_get_int (s, "width", &width) ||
      !gst_structure_get_int (s, "height", &height) || width < 1 || height < 1)
    return FALSE;

  gst_bc_info_init (info);
  if (!gst_structure_get_fraction (s, "framerate", &info->fps_n, &info->fps_d)
      || info->fps_d == 0) {
    info->fps_n = 0;
    info->fps_d = 1;
  }
  if (!gst_structure_get_fraction (s, "pixel-aspect-ratio", &info->par_n,
          &info->par_d) || info->par_n <= 0 || info->par_d <= 0) {
    info->par_n = 1;
    info->par_d = 1;
  }
  return gst_bc_info_set_format (info, format, width, height);
}

/**
 * gst_bc_info_to_caps:
 * @info: a #GstBcInfo with a known format
 *
 * Returns: (transfer full) (nullable): fixed `video/x-bc` caps for @info.
 */
GstCaps *
gst_bc_info_to_caps (const GstBcInfo * info)
{
  const gchar *fmt;

  g_return_val_if_fail (info != NULL, NULL);

  fmt = gst_bc_format_to_string (info->format);
  g_return_val_if_fail (fmt != NULL, NULL);

  return gst_caps_new_simple (GST_BC_MEDIA_TYPE,
      "format", G_TYPE_STRING, fmt,
      "width", G_TYPE_INT, (gint) info->width,
      "height", G_TYPE_INT, (gint) info->height,
      "framerate", GST_TYPE_FRACTION, info->fps_n, info->fps_d,
      "pixel-aspect-ratio", GST_TYPE_FRACTION, info->par_n, info->par_d, NULL);
}

/**
 * gst_bc_info_is_equal:
 * @a: a #GstBcInfo
 * @b: a #GstBcInfo
 *
 * Returns: %TRUE when @a and @b describe the same format, size, framerate
 * and pixel-aspect-ratio.
 */
gboolean
gst_bc_info_is_equal (const GstBcInfo * a, const GstBcInfo * b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return a->format == b->format && a->width == b->width &&
      a->height == b->height && a->fps_n == b->fps_n && a->fps_d == b->fps_d
      && a->par_n == b->par_n && a->par_d == b->par_d;
}

/**
 * gst_bc_pixel_layout_from_video_format:
 * @layout: (out caller-allocates): a #GstBcPixelLayout
 * @format: a packed 8-bit RGB video format
 *
 * Fills @layout for RGBA, BGRA, RGBx, BGRx, xRGB, xBGR, ARGB, ABGR, RGB and
 * BGR.
 *
 * Returns: %FALSE for any other format.
 */
gboolean
gst_bc_pixel_layout_from_video_format (GstBcPixelLayout * layout,
    GstVideoFormat format)
{
  /* bpp, r, g, b, a, x */
  static const struct
  {
    GstVideoFormat format;
    GstBcPixelLayout layout;
  } table[] = {
    {GST_VIDEO_FORMAT_RGBA, {4, 0, 1, 2, 3, -1}},
    {GST_VIDEO_FORMAT_BGRA, {4, 2, 1, 0, 3, -1}},
    {GST_VIDEO_FORMAT_ARGB, {4, 1, 2, 3, 0, -1}},
    {GST_VIDEO_FORMAT_ABGR, {4, 3, 2, 1, 0, -1}},
    {GST_VIDEO_FORMAT_RGBx, {4, 0, 1, 2, -1, 3}},
    {GST_VIDEO_FORMAT_BGRx, {4, 2, 1, 0, -1, 3}},
    {GST_VIDEO_FORMAT_xRGB, {4, 1, 2, 3, -1, 0}},
    {GST_VIDEO_FORMAT_xBGR, {4, 3, 2, 1, -1, 0}},
    {GST_VIDEO_FORMAT_RGB, {3, 0, 1, 2, -1, -1}},
    {GST_VIDEO_FORMAT_BGR, {3, 2, 1, 0, -1, -1}},
  };
  guint i;

  g_return_val_if_fail (layout != NULL, FALSE);

  for (i = 0; i < G_N_ELEMENTS (table); i++) {
    if (table[i].format == format) {
      *layout = table[i].layout;
      return TRUE;
    }
  }
  return FALSE;
}
