/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gsttileregion
 * @title: Regions
 * @short_description: the part of the frame a receiver asks for
 *
 * A receiver may ask for a rectangle of the sender's frames only (tilesrc's
 * `region`, the HELLO's #GstTileWireRegion). Both ends work out from the
 * CONFIG which tiles hold its bytes with the same function,
 * gst_tile_region_config_units(): the sender sends that receiver only
 * those tiles, the receiver runs only their units. The region's bytes in
 * the frame and in a frame of its own size come from
 * gst_tile_region_layout(), and gst_tile_region_copy() cuts them out.
 *
 * A region must lie inside the frame, not be empty, and be aligned as the
 * format needs: for video/x-bc on the 4 x 4 blocks, for video/x-raw on the
 * chroma subsampling (with interlaced frames, twice that vertically); its
 * right and bottom edges may also be the frame's. Raw formats without a
 * whole number of bytes per pixel group (palettes, tiled and packed
 * formats such as v210) have no regions.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tileregion.h"

#include <gst/video/video.h>
#include <gst/bc/bcformat.h>

#include <string.h>

static gboolean
region_error (GError ** error, const GstTileWireRegion * r, guint width,
    guint height, const gchar * why)
{
  g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
      "region %u,%u,%u,%u (x,y,width,height) of the %ux%u frame: %s", r->x,
      r->y, r->width, r->height, width, height, why);
  return FALSE;
}

/* Inside the frame, not empty, and x, y, width and height multiples of
 * @xa and @ya, but a width or height that ends at the frame's edge. */
static gboolean
region_check (const GstTileWireRegion * r, guint width, guint height,
    guint xa, guint ya, const gchar * what, GError ** error)
{
  gchar *why;
  gboolean ok;

  if (r->width == 0 || r->height == 0)
    return region_error (error, r, width, height, "the region is empty");
  if ((guint64) r->x + r->width > width || (guint64) r->y + r->height > height)
    return region_error (error, r, width, height, "the region is outside "
        "the frame");
  ok = r->x % xa == 0 && r->y % ya == 0 &&
      (r->width % xa == 0 || r->x + r->width == width) &&
      (r->height % ya == 0 || r->y + r->height == height);
  if (ok)
    return TRUE;
  why = g_strdup_printf ("%s needs x and width multiples of %u, y and "
      "height multiples of %u (or width and height that end at the frame's "
      "edge)", what, xa, ya);
  region_error (error, r, width, height, why);
  g_free (why);
  return FALSE;
}

/* video/x-bc: whole blocks, one plane. */
static gboolean
layout_bc (const GstTileWireRegion * r, const GstCaps * caps,
    GstTileRegionLayout * l, GError ** error)
{
  GstBcInfo info, out;
  GstTileRegionPlane *p = &l->planes[0];
  guint bx0, bx1, by0, by1;

  if (!gst_bc_info_from_caps (&info, caps)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "region: caps without a BC frame layout");
    return FALSE;
  }
  if (!region_check (r, info.width, info.height, 4, 4,
          "video/x-bc (4x4 blocks)", error))
    return FALSE;
  if (!gst_bc_info_set_format (&out, info.format, r->width, r->height)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "region %ux%u: not a BC frame size", r->width, r->height);
    return FALSE;
  }
  bx0 = r->x / 4;
  bx1 = (r->x + r->width + 3) / 4;
  by0 = r->y / 4;
  by1 = (r->y + r->height + 3) / 4;
  l->n_planes = 1;
  l->frame_size = info.size;
  l->out_size = out.size;
  p->stride = info.row_bytes;
  p->offset = (guint64) by0 *info.row_bytes + (guint64) bx0 *info.block_bytes;
  p->bytes = (guint64) (bx1 - bx0) * info.block_bytes;
  p->rows = by1 - by0;
  p->out_offset = 0;
  p->out_stride = out.row_bytes;
  return TRUE;
}

/* The component of plane @plane with the least horizontal subsampling,
 * or -1. */
static gint
plane_component (const GstVideoFormatInfo * finfo, guint plane)
{
  gint best = -1;
  guint c;

  for (c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == plane &&
        (best < 0 || finfo->w_sub[c] < finfo->w_sub[best]))
      best = c;
  return best;
}

/* video/x-raw: per plane, by GstVideoInfo (the layout tilesink's frames
 * have: one frame is one buffer of the caps' size). */
static gboolean
layout_raw (const GstTileWireRegion * r, const GstCaps * caps,
    GstTileRegionLayout * l, GError ** error)
{
  const GstVideoFormatInfo *finfo;
  GstVideoInfo info, out;
  GstCaps *out_caps;
  guint xa = 1, ya = 1, c, i;
  gchar *what;
  gboolean ok;

  if (!gst_video_info_from_caps (&info, caps)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "region: caps without a raw video layout");
    return FALSE;
  }
  finfo = info.finfo;
  if (GST_VIDEO_FORMAT_INFO_HAS_PALETTE (finfo) ||
      GST_VIDEO_FORMAT_INFO_IS_TILED (finfo) ||
      GST_VIDEO_FORMAT_INFO_IS_COMPLEX (finfo) ||
      GST_VIDEO_INFO_INTERLACE_MODE (&info) ==
      GST_VIDEO_INTERLACE_MODE_ALTERNATE) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "region: format %s%s has no regions (a palette, tiles, a complex "
        "or field-alternate layout)", GST_VIDEO_INFO_NAME (&info),
        GST_VIDEO_INFO_IS_INTERLACED (&info) ? " (interlaced)" : "");
    return FALSE;
  }
  for (c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    if (GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c) <= 0) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "region: format %s has no whole bytes per pixel",
          GST_VIDEO_INFO_NAME (&info));
      return FALSE;
    }
    xa = MAX (xa, 1u << finfo->w_sub[c]);
    ya = MAX (ya, 1u << finfo->h_sub[c]);
  }
  /* interleaved fields: a chroma row belongs to one field */
  if (ya > 1 && GST_VIDEO_INFO_IS_INTERLACED (&info))
    ya *= 2;
  what = g_strdup_printf ("%s%s", GST_VIDEO_INFO_NAME (&info),
      GST_VIDEO_INFO_IS_INTERLACED (&info) ? " (interlaced)" : "");
  ok = region_check (r, GST_VIDEO_INFO_WIDTH (&info),
      GST_VIDEO_INFO_HEIGHT (&info), xa, ya, what, error);
  g_free (what);
  if (!ok)
    return FALSE;

  out_caps = gst_tile_region_caps (r, caps);
  ok = gst_video_info_from_caps (&out, out_caps);
  gst_caps_unref (out_caps);
  if (!ok) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "region %ux%u: not a frame size of %s", r->width, r->height,
        GST_VIDEO_INFO_NAME (&info));
    return FALSE;
  }
  l->n_planes = GST_VIDEO_INFO_N_PLANES (&info);
  l->frame_size = info.size;
  l->out_size = out.size;
  for (i = 0; i < l->n_planes; i++) {
    GstTileRegionPlane *p = &l->planes[i];
    gint k = plane_component (finfo, i);
    guint x0, x1, y0, y1, ps;

    g_assert (k >= 0);
    ps = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, k);
    x0 = GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, k, r->x);
    x1 = GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, k, r->x + r->width);
    y0 = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, k, r->y);
    y1 = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, k, r->y + r->height);
    p->stride = GST_VIDEO_INFO_PLANE_STRIDE (&info, i);
    p->offset = GST_VIDEO_INFO_PLANE_OFFSET (&info, i);
    p->offset += (guint64) y0 *p->stride + (guint64) x0 *ps;
    p->bytes = (guint64) (x1 - x0) * ps;
    p->rows = y1 - y0;
    p->out_offset = GST_VIDEO_INFO_PLANE_OFFSET (&out, i);
    p->out_stride = GST_VIDEO_INFO_PLANE_STRIDE (&out, i);
  }
  return TRUE;
}

/* Every plane's rows inside both frames. */
static gboolean
layout_fits (const GstTileRegionLayout * l)
{
  guint i;

  for (i = 0; i < l->n_planes; i++) {
    const GstTileRegionPlane *p = &l->planes[i];

    if (p->rows == 0 || p->bytes == 0 || p->bytes > p->stride ||
        p->bytes > p->out_stride ||
        p->offset + (p->rows - 1) * p->stride + p->bytes > l->frame_size ||
        p->out_offset + (p->rows - 1) * p->out_stride + p->bytes > l->out_size)
      return FALSE;
  }
  return TRUE;
}

/**
 * gst_tile_region_layout:
 * @region: the region, in pixels
 * @caps: fixed caps of the sender's frames (video/x-bc or video/x-raw)
 * @layout: (out caller-allocates): where the region's bytes are
 * @error: return location for a %GST_TILE_WIRE_ERROR; its message names
 *     the region, the frame's size and what is wrong
 *
 * Checks @region against frames of @caps (inside the frame, not empty,
 * aligned as the format needs: see the section's description) and works
 * out where its bytes are.
 *
 * Returns: %FALSE with @error set when the region does not fit @caps
 */
gboolean
gst_tile_region_layout (const GstTileWireRegion * region,
    const GstCaps * caps, GstTileRegionLayout * layout, GError ** error)
{
  GstStructure *s;
  gboolean ok;

  g_return_val_if_fail (region != NULL && layout != NULL, FALSE);

  memset (layout, 0, sizeof (*layout));
  if (!caps || !gst_caps_is_fixed (caps)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "region: the caps are not fixed");
    return FALSE;
  }
  s = gst_caps_get_structure (caps, 0);
  if (gst_structure_has_name (s, "video/x-bc")) {
    ok = layout_bc (region, caps, layout, error);
  } else if (gst_structure_has_name (s, "video/x-raw")) {
    ok = layout_raw (region, caps, layout, error);
  } else {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "region: %s has no regions", gst_structure_get_name (s));
    return FALSE;
  }
  if (ok && !layout_fits (layout)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "region %u,%u,%u,%u: its rows do not fit the frame's layout",
        region->x, region->y, region->width, region->height);
    ok = FALSE;
  }
  return ok;
}

/**
 * gst_tile_region_caps:
 * @region: a region that fits @caps (gst_tile_region_layout())
 * @caps: fixed caps of the sender's frames
 *
 * Returns: (transfer full): @caps with the region's width and height
 */
GstCaps *
gst_tile_region_caps (const GstTileWireRegion * region, const GstCaps * caps)
{
  GstCaps *out;

  g_return_val_if_fail (region != NULL && caps != NULL, NULL);

  out = gst_caps_copy (caps);
  gst_caps_set_simple (out, "width", G_TYPE_INT, (gint) MIN (region->width,
          G_MAXINT), "height", G_TYPE_INT, (gint) MIN (region->height,
          G_MAXINT), NULL);
  return out;
}

/**
 * gst_tile_region_units:
 * @layout: a region's layout in frames of @config's caps
 * @config: a CONFIG whose frames @layout describes
 *
 * Returns: the tiles of @config that hold a byte of the region, a bit per
 * tile (bit k: tile k)
 */
guint64
gst_tile_region_units (const GstTileRegionLayout * layout,
    const GstTileWireConfig * config)
{
  guint64 units = 0, all;
  guint n, i, t;
  guint32 row;

  g_return_val_if_fail (layout != NULL && config != NULL, 0);

  n = MIN (config->n_tiles, GST_TILE_WIRE_MAX_UNITS);
  all = n == 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << n) - 1;
  for (i = 0; i < layout->n_planes && units != all; i++) {
    const GstTileRegionPlane *p = &layout->planes[i];

    /* a plane's rows go forward through the frame, and so through the
     * tiles */
    t = 0;
    for (row = 0; row < p->rows && units != all; row++) {
      guint64 start = p->offset + (guint64) row * p->stride;
      guint64 end = start + p->bytes;
      guint k;

      while (t < n && config->tiles[t].offset + config->tiles[t].size <= start)
        t++;
      for (k = t; k < n && config->tiles[k].offset < end; k++)
        units |= G_GUINT64_CONSTANT (1) << k;
    }
  }
  return units;
}

/**
 * gst_tile_region_config_units:
 * @region: (nullable): the region a receiver asked for, or %NULL for the
 *     whole frame
 * @config: a CONFIG (its caps, its tiling)
 * @units: (out): the tiles the receiver of @region gets, a bit per tile
 *     (bit k: tile k); every tile of @config when there is no region, or
 *     it does not fit the CONFIG's caps
 * @error: return location for a %GST_TILE_WIRE_ERROR when @region does not
 *     fit the caps
 *
 * The one function both ends use to tell which tiles of a CONFIG a
 * receiver with @region gets: the sender sends it only those, the
 * receiver runs only their units.
 *
 * Returns: %FALSE with @error set (and @units every tile) when @region
 *     does not fit the CONFIG's caps
 */
gboolean
gst_tile_region_config_units (const GstTileWireRegion * region,
    const GstTileWireConfig * config, guint64 * units, GError ** error)
{
  GstTileRegionLayout layout;
  GstCaps *caps;
  gboolean ok;
  guint n;

  g_return_val_if_fail (config != NULL && units != NULL, FALSE);

  n = MIN (config->n_tiles, GST_TILE_WIRE_MAX_UNITS);
  *units = n == 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << n) - 1;
  if (!region)
    return TRUE;
  caps = gst_caps_from_string (config->caps);
  ok = gst_tile_region_layout (region, caps, &layout, error);
  if (caps)
    gst_caps_unref (caps);
  if (ok && layout.frame_size != config->frame_size) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "region: the caps \"%s\" have %" G_GUINT64_FORMAT " byte frames, "
        "the CONFIG %" G_GUINT64_FORMAT, config->caps, layout.frame_size,
        config->frame_size);
    ok = FALSE;
  }
  if (ok)
    *units = gst_tile_region_units (&layout, config);
  return ok;
}

/**
 * gst_tile_region_copy:
 * @layout: a region's layout
 * @frame: (array): a frame of the sender's caps, @layout's frame_size bytes
 * @out: (array): a frame of the region's caps, @layout's out_size bytes
 *
 * Copies the region's rows out of @frame into @out.
 */
void
gst_tile_region_copy (const GstTileRegionLayout * layout,
    const guint8 * frame, guint8 * out)
{
  guint i;
  guint32 row;

  g_return_if_fail (layout != NULL && frame != NULL && out != NULL);

  for (i = 0; i < layout->n_planes; i++) {
    const GstTileRegionPlane *p = &layout->planes[i];

    for (row = 0; row < p->rows; row++)
      memcpy (out + p->out_offset + (gsize) row * p->out_stride,
          frame + p->offset + (gsize) row * p->stride, p->bytes);
  }
}

/**
 * gst_tile_region_parse:
 * @str: (nullable): "x,y,width,height", four decimal numbers of pixels
 * @out: (out caller-allocates): the region
 * @error: return location for a %GST_TILE_WIRE_ERROR
 *
 * Parses a region as tilesrc's `region` property writes it. Whether it
 * fits the frames is gst_tile_region_layout()'s to say.
 *
 * Returns: %FALSE with @error set when @str is not four numbers
 */
gboolean
gst_tile_region_parse (const gchar * str, GstTileWireRegion * out,
    GError ** error)
{
  gchar **parts;
  guint64 v[4];
  gboolean ok;
  guint i;

  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof (*out));
  parts = g_strsplit (str ? str : "", ",", -1);
  ok = g_strv_length (parts) == 4;
  for (i = 0; ok && i < 4; i++) {
    gchar *part = g_strstrip (parts[i]);

    ok = g_ascii_string_to_unsigned (part, 10, 0, G_MAXUINT32, &v[i], NULL);
  }
  g_strfreev (parts);
  if (!ok) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "region \"%s\" is not four numbers of pixels \"x,y,width,height\"",
        str ? str : "");
    return FALSE;
  }
  out->x = v[0];
  out->y = v[1];
  out->width = v[2];
  out->height = v[3];
  return TRUE;
}

/**
 * gst_tile_region_to_string:
 * @region: a region
 *
 * Returns: (transfer full): "x,y,width,height"
 */
gchar *
gst_tile_region_to_string (const GstTileWireRegion * region)
{
  g_return_val_if_fail (region != NULL, NULL);

  return g_strdup_printf ("%u,%u,%u,%u", region->x, region->y,
      region->width, region->height);
}
