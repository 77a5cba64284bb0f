/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstbctilemeta
 * @title: GstBcTileMeta
 * @short_description: per-tile completion of a buffer being received
 *
 * A consumer that can use parts of a frame early (for instance to upload
 * the rows of a compressed texture tile by tile) offers upstream a buffer
 * pool whose buffers carry a #GstBcTileMeta with its callback:
 *
 * |[<!-- language="C" -->
 * static void
 * tile_done (GstBuffer * buffer, GstBcTileMeta * meta, const GstBcTile * tile,
 *     gpointer user_data)
 * {
 *   // bytes tile->offset .. tile->offset + tile->size of buffer are final
 * }
 *
 * gst_buffer_add_bc_tile_meta (buffer, tile_done, consumer, NULL);
 * ]|
 *
 * The producer looks for the meta on every buffer it fills; when present,
 * it describes its tiles with gst_bc_tile_meta_set_tiling() before writing,
 * and calls gst_bc_tile_meta_complete() as each tile lands. A tile
 * completes once per filling; setting the tiling again starts over.
 *
 * The other way round, a consumer that sends a frame in tiles (tilesink:
 * one tile per unit) sets the tiling itself on the buffers of its pool and
 * says so in the allocation query with gst_bc_tile_meta_offer()
 * (@stepped %TRUE). A producer that can fill a frame tile by tile
 * (bcNenc) then takes its buffers from that pool, writes the tiles in
 * their order and completes each as soon as it is written: the consumer
 * starts on the first tile while the others are still being made.
 *
 * While the producer fills the buffer, the consumer may read the tiles
 * that are complete. For that the producer maps the buffer with
 * %GST_MAP_READWRITE (a consumer's %GST_MAP_READ mapping of memory mapped
 * for writing only would fail) and takes no other reference to it until it
 * pushes it.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bctilemeta.h"

#include <string.h>

static void
clear_tiles (GstBcTileMeta * meta)
{
  g_free (meta->tiles);
  g_free (meta->done);
  meta->tiles = NULL;
  meta->done = NULL;
  meta->n_tiles = 0;
  g_atomic_int_set (&meta->n_done, 0);
}

static gboolean
gst_bc_tile_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstBcTileMeta *m = (GstBcTileMeta *) meta;

  m->func = NULL;
  m->user_data = NULL;
  m->notify = NULL;
  m->tiles = NULL;
  m->done = NULL;
  m->n_tiles = 0;
  m->n_done = 0;
  return TRUE;
}

static void
gst_bc_tile_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  GstBcTileMeta *m = (GstBcTileMeta *) meta;

  if (m->notify)
    m->notify (m->user_data);
  clear_tiles (m);
}

GType
gst_bc_tile_meta_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { GST_META_TAG_MEMORY_STR, NULL };

  if (g_once_init_enter (&type)) {
    GType tmp = gst_meta_api_type_register ("GstBcTileMetaAPI", tags);
    g_once_init_leave (&type, tmp);
  }
  return type;
}

/**
 * gst_bc_tile_meta_get_info:
 *
 * Returns: the #GstMetaInfo of #GstBcTileMeta. It has no transform
 * function: copies of a buffer do not carry the meta.
 */
const GstMetaInfo *
gst_bc_tile_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *tmp = gst_meta_register (GST_BC_TILE_META_API_TYPE,
        "GstBcTileMeta", sizeof (GstBcTileMeta), gst_bc_tile_meta_init,
        gst_bc_tile_meta_free, NULL);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) tmp);
  }
  return info;
}

/**
 * gst_buffer_add_bc_tile_meta:
 * @buffer: a writable buffer
 * @func: called as each tile completes
 * @user_data: passed to @func
 * @notify: (nullable): frees @user_data with the meta
 *
 * Returns: (transfer none): the new meta, with no tiling yet.
 */
GstBcTileMeta *
gst_buffer_add_bc_tile_meta (GstBuffer * buffer, GstBcTileCompleteFunc func,
    gpointer user_data, GDestroyNotify notify)
{
  GstBcTileMeta *meta;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (gst_buffer_is_writable (buffer), NULL);
  g_return_val_if_fail (func != NULL, NULL);

  meta = (GstBcTileMeta *) gst_buffer_add_meta (buffer,
      GST_BC_TILE_META_INFO, NULL);
  meta->func = func;
  meta->user_data = user_data;
  meta->notify = notify;
  return meta;
}

/**
 * gst_buffer_get_bc_tile_meta:
 * @buffer: a buffer
 *
 * Returns: (transfer none) (nullable): the #GstBcTileMeta of @buffer.
 */
GstBcTileMeta *
gst_buffer_get_bc_tile_meta (GstBuffer * buffer)
{
  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);

  return (GstBcTileMeta *) gst_buffer_get_meta (buffer,
      GST_BC_TILE_META_API_TYPE);
}

/**
 * gst_bc_tile_meta_set_tiling:
 * @meta: a #GstBcTileMeta
 * @tiling: the tiles the producer will fill
 *
 * Describes the tiles of the next filling of the buffer and marks them all
 * incomplete. Call it before the first gst_bc_tile_meta_complete() of a
 * filling, never while completions are running.
 *
 * Returns: %FALSE when @tiling is empty.
 */
gboolean
gst_bc_tile_meta_set_tiling (GstBcTileMeta * meta, const GstBcTiling * tiling)
{
  g_return_val_if_fail (meta != NULL, FALSE);
  g_return_val_if_fail (tiling != NULL, FALSE);

  if (tiling->n_tiles == 0 || tiling->n_tiles > GST_BC_TILING_MAX_TILES)
    return FALSE;

  if (meta->n_tiles != tiling->n_tiles) {
    clear_tiles (meta);
    meta->tiles = g_new (GstBcTile, tiling->n_tiles);
    meta->done = g_new (gint, tiling->n_tiles);
    meta->n_tiles = tiling->n_tiles;
  }
  memcpy (meta->tiles, tiling->tiles, sizeof (GstBcTile) * tiling->n_tiles);
  memset (meta->done, 0, sizeof (gint) * tiling->n_tiles);
  g_atomic_int_set (&meta->n_done, 0);
  return TRUE;
}

/**
 * gst_bc_tile_meta_get_n_tiles:
 * @meta: a #GstBcTileMeta
 *
 * Returns: the number of tiles set by gst_bc_tile_meta_set_tiling(), 0
 * before.
 */
guint
gst_bc_tile_meta_get_n_tiles (GstBcTileMeta * meta)
{
  g_return_val_if_fail (meta != NULL, 0);
  return meta->n_tiles;
}

/**
 * gst_bc_tile_meta_get_tile:
 * @meta: a #GstBcTileMeta
 * @tile: a tile index
 *
 * Returns: (transfer none) (nullable): the tile's rows and bytes, %NULL
 * when @tile is out of range (or no tiling is set).
 */
const GstBcTile *
gst_bc_tile_meta_get_tile (GstBcTileMeta * meta, guint tile)
{
  g_return_val_if_fail (meta != NULL, NULL);

  return tile < meta->n_tiles ? &meta->tiles[tile] : NULL;
}

/**
 * gst_bc_tile_meta_tiles_rows:
 * @meta: a #GstBcTileMeta
 * @n_rows: block rows of the frame the producer writes
 * @row_bytes: bytes of each
 *
 * Whether the tiling set on @meta is @n_rows rows of @row_bytes cut in
 * order: tile i starts where tile i - 1 ends, at byte first_row *
 * @row_bytes, every tile has at least one row and the last ends with the
 * frame. A producer checks this before it fills the tiles a consumer set.
 *
 * Returns: %TRUE when it is
 */
gboolean
gst_bc_tile_meta_tiles_rows (GstBcTileMeta * meta, guint n_rows,
    gsize row_bytes)
{
  guint i, next = 0;

  g_return_val_if_fail (meta != NULL, FALSE);

  if (meta->n_tiles == 0)
    return FALSE;
  for (i = 0; i < meta->n_tiles; i++) {
    const GstBcTile *t = &meta->tiles[i];

    if (t->index != i || t->first_row != next || t->n_rows == 0 ||
        t->n_rows > n_rows - next || t->offset != next * row_bytes ||
        t->size != t->n_rows * row_bytes)
      return FALSE;
    next += t->n_rows;
  }
  return next == n_rows;
}

/**
 * gst_bc_tile_meta_offer:
 * @query: an allocation query being answered
 * @stepped: %TRUE when the buffers of the pool in @query come with their
 *   tiling set, to be filled tile by tile (stepped) in that order
 *
 * Adds #GstBcTileMeta to @query's metas, with a `GstBcTileMeta` structure
 * saying @stepped (its field `stepped`).
 */
void
gst_bc_tile_meta_offer (GstQuery * query, gboolean stepped)
{
  GstStructure *params;

  g_return_if_fail (GST_IS_QUERY (query));

  params = gst_structure_new ("GstBcTileMeta", "stepped", G_TYPE_BOOLEAN,
      stepped, NULL);
  gst_query_add_allocation_meta (query, GST_BC_TILE_META_API_TYPE, params);
  gst_structure_free (params);
}

/**
 * gst_bc_tile_meta_query_stepped:
 * @query: an allocation query answered downstream
 *
 * Returns: whether downstream offered #GstBcTileMeta with
 * gst_bc_tile_meta_offer() and @stepped %TRUE: the buffers of the pool it
 * proposes want to be filled tile by tile. (The field's former name,
 * `tiled-by-consumer`, is read too.)
 */
gboolean
gst_bc_tile_meta_query_stepped (GstQuery * query)
{
  const GstStructure *params = NULL;
  gboolean tiled = FALSE;
  guint index;

  g_return_val_if_fail (GST_IS_QUERY (query), FALSE);

  if (!gst_query_find_allocation_meta (query, GST_BC_TILE_META_API_TYPE,
          &index))
    return FALSE;
  gst_query_parse_nth_allocation_meta (query, index, &params);
  if (params == NULL)
    return FALSE;
  if (!gst_structure_get_boolean (params, "stepped", &tiled) &&
      !gst_structure_get_boolean (params, "tiled-by-consumer", &tiled))
    return FALSE;
  return tiled;
}

/**
 * gst_bc_tile_meta_complete:
 * @meta: a #GstBcTileMeta
 * @buffer: the buffer @meta is on
 * @tile: index of the tile whose bytes are all written
 *
 * Marks @tile complete and calls the consumer's callback, once per tile
 * and filling. Thread-safe for different tiles.
 *
 * Returns: %TRUE when the callback ran; %FALSE for a tile out of range or
 * already complete.
 */
gboolean
gst_bc_tile_meta_complete (GstBcTileMeta * meta, GstBuffer * buffer, guint tile)
{
  g_return_val_if_fail (meta != NULL, FALSE);
  g_return_val_if_fail (GST_IS_BUFFER (buffer), FALSE);

  if (tile >= meta->n_tiles)
    return FALSE;
  if (!g_atomic_int_compare_and_exchange (&meta->done[tile], 0, 1))
    return FALSE;
  g_atomic_int_inc (&meta->n_done);
  meta->func (buffer, meta, &meta->tiles[tile], meta->user_data);
  return TRUE;
}

/**
 * gst_bc_tile_meta_is_complete:
 * @meta: a #GstBcTileMeta
 * @tile: a tile index
 *
 * Returns: %TRUE when @tile was completed since the tiling was last set.
 */
gboolean
gst_bc_tile_meta_is_complete (GstBcTileMeta * meta, guint tile)
{
  g_return_val_if_fail (meta != NULL, FALSE);

  if (tile >= meta->n_tiles)
    return FALSE;
  return g_atomic_int_get (&meta->done[tile]) != 0;
}

/**
 * gst_bc_tile_meta_get_n_complete:
 * @meta: a #GstBcTileMeta
 *
 * Returns: how many tiles are complete in the current filling.
 */
guint
gst_bc_tile_meta_get_n_complete (GstBcTileMeta * meta)
{
  g_return_val_if_fail (meta != NULL, 0);
  return (guint) g_atomic_int_get (&meta->n_done);
}
