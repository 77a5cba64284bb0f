/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_REGION_H__
#define __GST_TILE_REGION_H__

#include <gst/tile/tile-prelude.h>
#include <gst/tile/tilewire.h>

G_BEGIN_DECLS

/**
 * GST_TILE_REGION_MAX_PLANES:
 *
 * Planes of a frame at most (those of #GstVideoInfo).
 */
#define GST_TILE_REGION_MAX_PLANES 4

/**
 * GstTileRegionPlane:
 * @offset: in the sender's frame, the first byte of the region in this
 *     plane
 * @stride: in the sender's frame, bytes from one row of the plane to the
 *     next
 * @bytes: bytes of each row inside the region
 * @rows: rows of the plane inside the region
 * @out_offset: in a frame of the region's caps, where the plane starts
 * @out_stride: in a frame of the region's caps, bytes from one row of the
 *     plane to the next
 *
 * Where one plane of a region lies, in the sender's frame and in a frame
 * of the region's own caps.
 */
typedef struct
{
  guint64 offset;
  guint64 stride;
  guint64 bytes;
  guint32 rows;
  guint64 out_offset;
  guint64 out_stride;
} GstTileRegionPlane;

/**
 * GstTileRegionLayout:
 * @n_planes: planes of the format
 * @planes: each plane's rows of the region
 * @frame_size: bytes of a sender's frame
 * @out_size: bytes of a frame of the region's caps
 *
 * The bytes of a region in the sender's frames (for
 * video/x-raw, by #GstVideoInfo; for video/x-bc, whole 4 x 4 blocks), and
 * where they go in a frame of the region's caps.
 */
typedef struct
{
  guint n_planes;
  GstTileRegionPlane planes[GST_TILE_REGION_MAX_PLANES];
  guint64 frame_size;
  guint64 out_size;
} GstTileRegionLayout;

GST_TILE_API
gboolean gst_tile_region_parse (const gchar * str, GstTileWireRegion * out,
                                GError ** error);

GST_TILE_API
gchar *  gst_tile_region_to_string (const GstTileWireRegion * region);

GST_TILE_API
gboolean gst_tile_region_layout (const GstTileWireRegion * region,
                                 const GstCaps * caps,
                                 GstTileRegionLayout * layout,
                                 GError ** error);

GST_TILE_API
GstCaps * gst_tile_region_caps (const GstTileWireRegion * region,
                                const GstCaps * caps);

GST_TILE_API
guint64  gst_tile_region_units (const GstTileRegionLayout * layout,
                                const GstTileWireConfig * config);

GST_TILE_API
gboolean gst_tile_region_config_units (const GstTileWireRegion * region,
                                       const GstTileWireConfig * config,
                                       guint64 * units, GError ** error);

GST_TILE_API
void     gst_tile_region_copy (const GstTileRegionLayout * layout,
                               const guint8 * frame, guint8 * out);

G_END_DECLS

#endif /* __GST_TILE_REGION_H__ */
