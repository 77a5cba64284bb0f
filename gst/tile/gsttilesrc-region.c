/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* tilesrc's `region` ("x,y,width,height" in pixels): the receiver asks
 * the sender for that part of the frame only (libgsttile: its HELLO, and
 * only the units of the tiles that hold the region's rows), and tilesrc
 * outputs the region: caps of its size, and buffers that hold it alone,
 * copied out of the frame the units received into. Those frames come
 * from a pool of tilesrc's own (whole frames of the sender's caps: the
 * downstream pool has buffers of the region's size). Without a region,
 * none of this runs: the units receive straight into the output buffer.
 *
 * This file: the property, the check of the region against the sender's
 * caps (an error at negotiation), the region's caps, the frames' pool and
 * the copy. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsttilesrc.h"

#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (gst_tile_src_debug);
#define GST_CAT_DEFAULT gst_tile_src_debug

/* the receiver's two slots, the frame kept for UDP concealment, and one
 * being copied */
#define REGION_POOL_MIN (GST_TILE_SRC_FRAMES_HELD + 2)

/* The property (object lock held): "x,y,width,height", or NULL or "" for
 * the whole frame. A string that is not four numbers is refused with a
 * warning, as GObject refuses a value out of a property's range; whether
 * the region fits the sender's frames is known once its caps come. */
void
gst_tile_src_region_set (GstTileSrc * self, const gchar * str)
{
  GstTileSrcRegion *r = &self->region;
  GstTileWireRegion region;
  GError *err = NULL;

  if (!str || !*str) {
    r->set = FALSE;
    memset (&r->region, 0, sizeof (r->region));
    return;
  }
  if (!gst_tile_region_parse (str, &region, &err)) {
    g_warning ("%s: %s: region is unchanged", GST_OBJECT_NAME (self),
        err->message);
    g_error_free (err);
    return;
  }
  r->set = TRUE;
  r->region = region;
}

/* The property (object lock held). */
gchar *
gst_tile_src_region_get (GstTileSrc * self)
{
  return self->region.set ? gst_tile_region_to_string (&self->region.region)
      : NULL;
}

/* start(): the receiver asks for the region in its HELLO. */
void
gst_tile_src_region_start (GstTileSrc * self)
{
  GstTileWireRegion region;
  gboolean set;

  GST_OBJECT_LOCK (self);
  set = self->region.set;
  region = self->region.region;
  GST_OBJECT_UNLOCK (self);
  gst_tile_receiver_set_region (self->rx, set ? &region : NULL);
}

static void
drop_pool (GstTileSrc * self)
{
  GstBufferPool *pool;

  GST_OBJECT_LOCK (self);
  pool = self->region.pool;
  self->region.pool = NULL;
  self->region.active = FALSE;
  GST_OBJECT_UNLOCK (self);
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
}

/* stop(): the receiver's units are gone. */
void
gst_tile_src_region_stop (GstTileSrc * self)
{
  drop_pool (self);
  gst_caps_replace (&self->region.frame_caps, NULL);
}

/* A pool of whole frames of @caps (@size bytes), active. */
static GstBufferPool *
new_frame_pool (GstCaps * caps, guint64 size)
{
  GstBufferPool *pool = gst_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, (guint) size,
      REGION_POOL_MIN, 0);
  if (!gst_buffer_pool_set_config (pool, config) ||
      !gst_buffer_pool_set_active (pool, TRUE)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* The sender's new caps (the streaming thread, before the units of their
 * generation start): with a region, *@caps become the region's, once it is
 * checked against the frames of the sender's caps (inside, not empty,
 * aligned as the format needs); a region that does not fit them is an
 * error (posted here). Without a region *@caps stay. */
gboolean
gst_tile_src_region_negotiate (GstTileSrc * self, GstCaps ** caps)
{
  GstTileSrcRegion *r = &self->region;
  GstTileWireRegion region;
  GstTileRegionLayout layout;
  GstBufferPool *pool = NULL;
  GError *err = NULL;
  gboolean set;
  gchar *str;
  gint width = 0, height = 0;

  GST_OBJECT_LOCK (self);
  set = r->set;
  region = r->region;
  GST_OBJECT_UNLOCK (self);
  if (!set) {
    drop_pool (self);
    return TRUE;
  }

  if (!gst_tile_region_layout (&region, *caps, &layout, &err)) {
    GstStructure *s = gst_caps_get_structure (*caps, 0);

    gst_structure_get_int (s, "width", &width);
    gst_structure_get_int (s, "height", &height);
    str = gst_tile_region_to_string (&region);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Cannot receive region %s "
            "(x,y,width,height) of the sender's %dx%d frames", str, width,
            height), ("%s; the sender's caps: %" GST_PTR_FORMAT, err->message,
            *caps));
    g_free (str);
    g_error_free (err);
    drop_pool (self);
    return FALSE;
  }
  /* the same frames: the pool stays */
  if (!r->pool || !r->frame_caps || !gst_caps_is_equal (r->frame_caps, *caps)) {
    drop_pool (self);
    pool = new_frame_pool (*caps, layout.frame_size);
    if (!pool) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("Could not configure a "
              "buffer pool for %" G_GUINT64_FORMAT " byte frames",
              layout.frame_size), (NULL));
      return FALSE;
    }
    gst_caps_replace (&r->frame_caps, *caps);
    GST_OBJECT_LOCK (self);
    r->pool = pool;
    GST_OBJECT_UNLOCK (self);
  }
  r->layout = layout;
  GST_OBJECT_LOCK (self);
  r->active = TRUE;
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "region %u,%u,%u,%u: %" G_GUINT64_FORMAT " of %"
      G_GUINT64_FORMAT " bytes a frame", region.x, region.y, region.width,
      region.height, layout.out_size, layout.frame_size);
  gst_caps_take (caps, gst_tile_region_caps (&region, *caps));
  return TRUE;
}

/* The receiver wants a frame's buffer (a unit thread): with a region one
 * of the whole frames of our pool (returns TRUE, *@buffer NULL when there
 * is none); without, FALSE (the downstream pool's). */
gboolean
gst_tile_src_region_acquire (GstTileSrc * self, GstBuffer ** buffer)
{
  GstBufferPool *pool = NULL;
  gboolean active;

  GST_OBJECT_LOCK (self);
  active = self->region.active;
  if (self->region.pool)
    pool = gst_object_ref (self->region.pool);
  GST_OBJECT_UNLOCK (self);
  if (!active) {
    g_clear_object (&pool);
    return FALSE;
  }
  *buffer = NULL;
  if (pool && gst_buffer_pool_acquire_buffer (pool, buffer, NULL) !=
      GST_FLOW_OK)
    *buffer = NULL;
  g_clear_object (&pool);
  return TRUE;
}

/* A frame pulled (the streaming thread): with a region, its buffer becomes
 * one of the region's size (from the downstream pool) holding the region,
 * copied out of the frame; the frame itself is kept for the concealment of
 * the next one (UDP), which then is not done again for the output. */
GstFlowReturn
gst_tile_src_region_crop (GstTileSrc * self, GstTileReceiverFrame * frame)
{
  GstTileRegionLayout *l = &self->region.layout;
  GstBufferPool *pool;
  GstBuffer *out = NULL;
  GstMapInfo in_map, out_map;
  gboolean active;

  GST_OBJECT_LOCK (self);
  active = self->region.active;
  GST_OBJECT_UNLOCK (self);
  if (!active)
    return GST_FLOW_OK;

  pool = gst_base_src_get_buffer_pool (GST_BASE_SRC (self));
  if (pool) {
    if (gst_buffer_pool_acquire_buffer (pool, &out, NULL) != GST_FLOW_OK)
      out = NULL;
    gst_object_unref (pool);
  }
  if (out && gst_buffer_get_size (out) < l->out_size)
    gst_clear_buffer (&out);
  if (!out)
    out = gst_buffer_new_allocate (NULL, l->out_size, NULL);
  if (!gst_buffer_map (frame->buffer, &in_map, GST_MAP_READ)) {
    gst_buffer_unref (out);
    gst_clear_buffer (&frame->buffer);
    GST_ELEMENT_ERROR (self, RESOURCE, READ, ("Could not map a frame"), (NULL));
    return GST_FLOW_ERROR;
  }
  if (in_map.size < l->frame_size || !gst_buffer_map (out, &out_map,
          GST_MAP_WRITE)) {
    gst_buffer_unmap (frame->buffer, &in_map);
    gst_buffer_unref (out);
    gst_clear_buffer (&frame->buffer);
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, ("Could not write the region "
            "of a frame"), (NULL));
    return GST_FLOW_ERROR;
  }
  gst_tile_region_copy (l, in_map.data, out_map.data);
  gst_buffer_unmap (out, &out_map);
  gst_buffer_unmap (frame->buffer, &in_map);
  gst_buffer_set_size (out, l->out_size);
  /* (its GstBcLossMeta's ranges are the frame's: only the flag goes) */
  if (GST_BUFFER_FLAG_IS_SET (frame->buffer, GST_BUFFER_FLAG_CORRUPTED))
    GST_BUFFER_FLAG_SET (out, GST_BUFFER_FLAG_CORRUPTED);
  if (frame->udp)
    gst_tile_receiver_keep_last (self->rx, frame->buffer);
  frame->udp = FALSE;
  gst_buffer_unref (frame->buffer);
  frame->buffer = out;
  return GST_FLOW_OK;
}
