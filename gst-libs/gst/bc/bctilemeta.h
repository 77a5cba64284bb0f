/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_TILE_META_H__
#define __GST_BC_TILE_META_H__

#include <gst/bc/bc-prelude.h>
#include <gst/bc/bctiling.h>

G_BEGIN_DECLS

#define GST_BC_TILE_META_API_TYPE (gst_bc_tile_meta_api_get_type ())
#define GST_BC_TILE_META_INFO (gst_bc_tile_meta_get_info ())

typedef struct _GstBcTileMeta GstBcTileMeta;

/**
 * GstBcTileCompleteFunc:
 * @buffer: the buffer being filled
 * @meta: its #GstBcTileMeta
 * @tile: the tile that is now complete, with its byte range in @buffer
 * @user_data: the data given to gst_buffer_add_bc_tile_meta()
 *
 * Called once per tile, as soon as the producer has written all of it,
 * on the producer's thread; tiles of one buffer can complete concurrently
 * on different threads, so the function must be thread-safe. It must not
 * block for long: the producer's next tile waits for it.
 */
typedef void (*GstBcTileCompleteFunc) (GstBuffer * buffer,
    GstBcTileMeta * meta, const GstBcTile * tile, gpointer user_data);

/**
 * GstBcTileMeta:
 * @meta: the parent #GstMeta
 *
 * Lets the producer of a buffer (tilesrc) tell its consumer (a downstream
 * buffer pool, such as glbcupload's) that a horizontal tile of the frame is
 * complete, before the whole frame is: the consumer can start using that
 * tile while the rest is still arriving ("stepped flush").
 *
 * The consumer attaches the meta to the buffers of its pool with a
 * callback; the producer, which knows the tile layout, sets it with
 * gst_bc_tile_meta_set_tiling() when it starts filling a buffer and calls
 * gst_bc_tile_meta_complete() for each tile. The meta is not copied with
 * the buffer: it belongs to the memory the consumer gave out.
 */
struct _GstBcTileMeta
{
  GstMeta meta;

  /*< private > */
  GstBcTileCompleteFunc func;
  gpointer user_data;
  GDestroyNotify notify;
  GstBcTile *tiles;
  guint n_tiles;
  gint *done;                   /* atomic, one per tile */
  gint n_done;                  /* atomic */
};

GST_BC_API
GType gst_bc_tile_meta_api_get_type (void);

GST_BC_API
const GstMetaInfo * gst_bc_tile_meta_get_info (void);

GST_BC_API
GstBcTileMeta * gst_buffer_add_bc_tile_meta (GstBuffer * buffer,
    GstBcTileCompleteFunc func, gpointer user_data, GDestroyNotify notify);

GST_BC_API
GstBcTileMeta * gst_buffer_get_bc_tile_meta (GstBuffer * buffer);

GST_BC_API
gboolean gst_bc_tile_meta_set_tiling (GstBcTileMeta * meta,
    const GstBcTiling * tiling);

GST_BC_API
guint gst_bc_tile_meta_get_n_tiles (GstBcTileMeta * meta);

GST_BC_API
const GstBcTile * gst_bc_tile_meta_get_tile (GstBcTileMeta * meta,
    guint tile);

GST_BC_API
gboolean gst_bc_tile_meta_tiles_rows (GstBcTileMeta * meta, guint n_rows,
    gsize row_bytes);

GST_BC_API
void gst_bc_tile_meta_offer (GstQuery * query, gboolean stepped);

GST_BC_API
gboolean gst_bc_tile_meta_query_stepped (GstQuery * query);

GST_BC_API
gboolean gst_bc_tile_meta_complete (GstBcTileMeta * meta, GstBuffer * buffer,
    guint tile);

GST_BC_API
gboolean gst_bc_tile_meta_is_complete (GstBcTileMeta * meta, guint tile);

GST_BC_API
guint gst_bc_tile_meta_get_n_complete (GstBcTileMeta * meta);

G_END_DECLS

#endif /* __GST_BC_TILE_META_H__ */
