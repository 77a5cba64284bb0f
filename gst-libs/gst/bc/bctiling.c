/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstbctiling
 * @title: GstBcTiling
 * @short_description: split a frame into horizontal tiles
 *
 * A frame of `n_rows` rows of `row_bytes` bytes is cut into horizontal
 * tiles on row boundaries, so every tile is one contiguous byte range of the
 * frame. For `video/x-bc` a row is a block row; for raw video a pixel row.
 * Tile heights differ by at most one row. Asking for more tiles than there
 * are rows gives one tile per row; gst_bc_tiling_is_clamped() reports it.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bctiling.h"

#include <string.h>

/**
 * gst_bc_tiling_init:
 * @tiling: (out caller-allocates): the tiling to fill
 * @n_rows: rows in the frame, at least 1
 * @row_bytes: bytes per row, at least 1
 * @n_tiles: tiles wanted, 1 to %GST_BC_TILING_MAX_TILES
 *
 * Splits the frame. The first `n_rows % n_tiles` tiles get one row more
 * than the others.
 *
 * Returns: %FALSE when an argument is out of range or the frame size
 * overflows.
 */
gboolean
gst_bc_tiling_init (GstBcTiling * tiling, guint n_rows, gsize row_bytes,
    guint n_tiles)
{
  guint i, base, extra, row;

  g_return_val_if_fail (tiling != NULL, FALSE);

  memset (tiling, 0, sizeof (*tiling));
  if (n_rows == 0 || row_bytes == 0 || n_tiles == 0
      || n_tiles > GST_BC_TILING_MAX_TILES)
    return FALSE;
  if (row_bytes > G_MAXSIZE / n_rows)
    return FALSE;

  tiling->n_requested = n_tiles;
  tiling->n_rows = n_rows;
  tiling->row_bytes = row_bytes;
  tiling->n_tiles = MIN (n_tiles, n_rows);

  base = n_rows / tiling->n_tiles;
  extra = n_rows % tiling->n_tiles;
  row = 0;
  for (i = 0; i < tiling->n_tiles; i++) {
    GstBcTile *t = &tiling->tiles[i];

    t->index = i;
    t->first_row = row;
    t->n_rows = base + (i < extra ? 1 : 0);
    t->offset = (gsize) row *row_bytes;
    t->size = (gsize) t->n_rows * row_bytes;
    row += t->n_rows;
  }
  return TRUE;
}

/**
 * gst_bc_tiling_init_for_info:
 * @tiling: (out caller-allocates): the tiling to fill
 * @info: a block-compressed frame
 * @n_tiles: tiles wanted
 *
 * Splits a block-compressed frame on block-row boundaries.
 *
 * Returns: as gst_bc_tiling_init().
 */
gboolean
gst_bc_tiling_init_for_info (GstBcTiling * tiling, const GstBcInfo * info,
    guint n_tiles)
{
  g_return_val_if_fail (info != NULL, FALSE);

  return gst_bc_tiling_init (tiling, info->blocks_y, info->row_bytes, n_tiles);
}

/**
 * gst_bc_tiling_is_clamped:
 * @tiling: a #GstBcTiling
 *
 * Returns: %TRUE when fewer tiles were made than requested because the
 * frame has fewer rows.
 */
gboolean
gst_bc_tiling_is_clamped (const GstBcTiling * tiling)
{
  g_return_val_if_fail (tiling != NULL, FALSE);

  return tiling->n_tiles < tiling->n_requested;
}

/**
 * gst_bc_tiling_find_tile:
 * @tiling: a #GstBcTiling
 * @offset: a byte offset in the frame
 *
 * Returns: (nullable): the tile holding byte @offset, or NULL when @offset
 * is past the end of the frame.
 */
const GstBcTile *
gst_bc_tiling_find_tile (const GstBcTiling * tiling, gsize offset)
{
  guint lo, hi;

  g_return_val_if_fail (tiling != NULL, NULL);

  if (tiling->n_tiles == 0)
    return NULL;
  if (offset >= tiling->tiles[tiling->n_tiles - 1].offset +
      tiling->tiles[tiling->n_tiles - 1].size)
    return NULL;

  lo = 0;
  hi = tiling->n_tiles - 1;
  while (lo < hi) {
    guint mid = (lo + hi + 1) / 2;
    if (tiling->tiles[mid].offset <= offset)
      lo = mid;
    else
      hi = mid - 1;
  }
  return &tiling->tiles[lo];
}
