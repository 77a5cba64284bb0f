/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_SRC_REGION_H__
#define __GST_TILE_SRC_REGION_H__

#include <gst/gst.h>
#include <gst/tile/tilereceiver.h>
#include <gst/tile/tileregion.h>

G_BEGIN_DECLS

struct _GstTileSrc;

/* tilesrc's region (gsttilesrc-region.c): the part of the sender's frames
 * it receives and outputs. */
typedef struct
{
  /* object lock: the property, and what the units' buffers come from */
  gboolean set;                 /* a region was given */
  GstTileWireRegion region;
  gboolean active;              /* the caps negotiated are the region's */
  GstBufferPool *pool;          /* whole frames of the sender's caps */
  /* the streaming thread's: where the region is in a frame */
  GstTileRegionLayout layout;
  GstCaps *frame_caps;          /* the sender's */
} GstTileSrcRegion;

G_GNUC_INTERNAL void gst_tile_src_region_set (struct _GstTileSrc * self,
    const gchar * str);
G_GNUC_INTERNAL gchar *gst_tile_src_region_get (struct _GstTileSrc * self);
G_GNUC_INTERNAL void gst_tile_src_region_start (struct _GstTileSrc * self);
G_GNUC_INTERNAL void gst_tile_src_region_stop (struct _GstTileSrc * self);
G_GNUC_INTERNAL gboolean gst_tile_src_region_negotiate (struct _GstTileSrc * self,
    GstCaps ** caps);
G_GNUC_INTERNAL gboolean gst_tile_src_region_acquire (struct _GstTileSrc * self,
    GstBuffer ** buffer);
G_GNUC_INTERNAL GstFlowReturn gst_tile_src_region_crop (struct _GstTileSrc * self,
    GstTileReceiverFrame * frame);

G_END_DECLS

#endif /* __GST_TILE_SRC_REGION_H__ */
