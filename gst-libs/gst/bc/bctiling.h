/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_BC_TILING_H__
#define __GST_BC_TILING_H__

#include <gst/bc/bc-prelude.h>
#include <gst/bc/bcformat.h>

G_BEGIN_DECLS

/**
 * GST_BC_TILING_MAX_TILES:
 *
 * The largest number of tiles a #GstBcTiling holds.
 */
#define GST_BC_TILING_MAX_TILES 256

/**
 * GstBcTile:
 * @index: position of the tile, 0 at the top
 * @first_row: first row of the tile (block row for `video/x-bc`, pixel row
 *     for raw video)
 * @n_rows: number of rows in the tile, at least 1
 * @offset: byte offset of the tile in the frame
 * @size: byte size of the tile
 *
 * One horizontal tile of a frame: a contiguous byte range.
 */
typedef struct
{
  guint index;
  guint first_row;
  guint n_rows;
  gsize offset;
  gsize size;
} GstBcTile;

/**
 * GstBcTiling:
 * @n_requested: the number of tiles asked for
 * @n_tiles: the number of tiles made: @n_requested clamped to the number of
 *     rows (and to %GST_BC_TILING_MAX_TILES)
 * @n_rows: rows in the frame
 * @row_bytes: bytes per row
 * @tiles: the tiles, top to bottom; tile sizes differ by at most one row and
 *     the larger tiles come first
 *
 * A frame split into horizontal tiles on row boundaries.
 */
typedef struct
{
  guint n_requested;
  guint n_tiles;
  guint n_rows;
  gsize row_bytes;
  GstBcTile tiles[GST_BC_TILING_MAX_TILES];
} GstBcTiling;

GST_BC_API
gboolean gst_bc_tiling_init (GstBcTiling * tiling, guint n_rows,
                             gsize row_bytes, guint n_tiles);

GST_BC_API
gboolean gst_bc_tiling_init_for_info (GstBcTiling * tiling,
                                      const GstBcInfo * info, guint n_tiles);

GST_BC_API
gboolean gst_bc_tiling_is_clamped (const GstBcTiling * tiling);

GST_BC_API
const GstBcTile * gst_bc_tiling_find_tile (const GstBcTiling * tiling,
                                           gsize offset);

G_END_DECLS

#endif /* __GST_BC_TILING_H__ */
