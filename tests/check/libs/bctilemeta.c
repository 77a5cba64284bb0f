/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/bc/bc.h>

#include "gstbctest.h"

typedef struct
{
  gint calls[GST_BC_TILING_MAX_TILES];  /* atomic */
  gsize offsets[GST_BC_TILING_MAX_TILES];
  gsize sizes[GST_BC_TILING_MAX_TILES];
  GstBuffer *buffer;
  gint freed;
} Consumer;

static void
tile_done (GstBuffer * buffer, GstBcTileMeta * meta, const GstBcTile * tile,
    gpointer user_data)
{
  Consumer *c = user_data;

  fail_unless (buffer == c->buffer);
  fail_unless (gst_buffer_get_bc_tile_meta (buffer) == meta);
  c->offsets[tile->index] = tile->offset;
  c->sizes[tile->index] = tile->size;
  g_atomic_int_inc (&c->calls[tile->index]);
}

static void
consumer_free (gpointer data)
{
  Consumer *c = data;
  c->freed++;
}

GST_START_TEST (test_tile_meta_once_per_tile)
{
  Consumer c = { {0}, };
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 448, NULL);
  GstBcTileMeta *meta;
  GstBcInfo info;
  GstBcTiling tiling;
  guint i;

  c.buffer = buf;
  meta = gst_buffer_add_bc_tile_meta (buf, tile_done, &c, consumer_free);
  fail_unless (meta != NULL);
  fail_unless (gst_buffer_get_bc_tile_meta (buf) == meta);
  fail_unless_equals_int (gst_bc_tile_meta_get_n_tiles (meta), 0);
  /* no tiling yet: nothing to complete */
  fail_if (gst_bc_tile_meta_complete (meta, buf, 0));

  /* the thesis' Figure 4.5 frame, 3 tiles */
  fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1, 30, 26));
  fail_unless (gst_bc_tiling_init_for_info (&tiling, &info, 3));
  fail_unless (gst_bc_tile_meta_set_tiling (meta, &tiling));
  fail_unless_equals_int (gst_bc_tile_meta_get_n_tiles (meta), 3);

  /* out of order, each once */
  fail_unless (gst_bc_tile_meta_complete (meta, buf, 2));
  fail_unless (gst_bc_tile_meta_is_complete (meta, 2));
  fail_if (gst_bc_tile_meta_is_complete (meta, 0));
  fail_if (gst_bc_tile_meta_complete (meta, buf, 2));
  fail_unless (gst_bc_tile_meta_complete (meta, buf, 0));
  fail_unless (gst_bc_tile_meta_complete (meta, buf, 1));
  fail_if (gst_bc_tile_meta_complete (meta, buf, 3));
  fail_unless_equals_int (gst_bc_tile_meta_get_n_complete (meta), 3);
  for (i = 0; i < 3; i++) {
    fail_unless_equals_int (c.calls[i], 1);
    fail_unless_equals_uint64 (c.offsets[i], tiling.tiles[i].offset);
    fail_unless_equals_uint64 (c.sizes[i], tiling.tiles[i].size);
  }
  fail_unless_equals_uint64 (c.offsets[1], 192);

  /* reuse of the buffer: setting the tiling again starts over, also with
   * another tile count */
  fail_unless (gst_bc_tiling_init_for_info (&tiling, &info, 5));
  fail_unless (gst_bc_tile_meta_set_tiling (meta, &tiling));
  fail_unless_equals_int (gst_bc_tile_meta_get_n_complete (meta), 0);
  fail_if (gst_bc_tile_meta_is_complete (meta, 0));
  fail_unless (gst_bc_tile_meta_complete (meta, buf, 4));
  fail_unless_equals_int (c.calls[4], 1);
  fail_unless_equals_int (c.calls[0], 1);

  fail_unless_equals_int (c.freed, 0);
  gst_buffer_unref (buf);
  fail_unless_equals_int (c.freed, 1);
}

GST_END_TEST;

GST_START_TEST (test_tile_meta_not_copied)
{
  Consumer c = { {0}, };
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 64, NULL), *copy;

  c.buffer = buf;
  gst_buffer_add_bc_tile_meta (buf, tile_done, &c, consumer_free);
  copy = gst_buffer_copy (buf);
  /* the callback belongs to the consumer's memory, not to copies */
  fail_unless (gst_buffer_get_bc_tile_meta (copy) == NULL);
  gst_buffer_unref (copy);
  gst_buffer_unref (buf);
  fail_unless_equals_int (c.freed, 1);
}

GST_END_TEST;

typedef struct
{
  GstBcTileMeta *meta;
  GstBuffer *buffer;
  guint first, step, n;
} Unit;

static gpointer
unit_thread (gpointer data)
{
  Unit *u = data;
  guint t;

  /* every unit tries every tile of its share twice */
  for (t = u->first; t < u->n; t += u->step) {
    gst_bc_tile_meta_complete (u->meta, u->buffer, t);
    gst_bc_tile_meta_complete (u->meta, u->buffer, t);
  }
  return NULL;
}

/* Units complete their tiles concurrently; overlapping shares race for the
 * same tiles: each callback still runs exactly once per tile. */
GST_START_TEST (test_tile_meta_concurrent)
{
  Consumer c = { {0}, };
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 64 * 1024, NULL);
  GstBcTileMeta *meta;
  GstBcTiling tiling;
  GThread *threads[8];
  Unit units[8];
  guint i, round;

  c.buffer = buf;
  meta = gst_buffer_add_bc_tile_meta (buf, tile_done, &c, NULL);
  fail_unless (gst_bc_tiling_init (&tiling, 256, 256, 64));
  for (round = 0; round < 50; round++) {
    memset (c.calls, 0, sizeof (c.calls));
    fail_unless (gst_bc_tile_meta_set_tiling (meta, &tiling));
    for (i = 0; i < 8; i++) {
      units[i].meta = meta;
      units[i].buffer = buf;
      units[i].first = i % 4;   /* two threads per share */
      units[i].step = 4;
      units[i].n = 64;
      threads[i] = g_thread_new ("unit", unit_thread, &units[i]);
    }
    for (i = 0; i < 8; i++)
      g_thread_join (threads[i]);
    fail_unless_equals_int (gst_bc_tile_meta_get_n_complete (meta), 64);
    for (i = 0; i < 64; i++)
      fail_unless_equals_int (g_atomic_int_get (&c.calls[i]), 1);
  }
  gst_buffer_unref (buf);
}

GST_END_TEST;

static void
tile_ignored (GstBuffer * buffer, GstBcTileMeta * meta, const GstBcTile * tile,
    gpointer user_data)
{
}

GST_START_TEST (test_tile_meta_get_tile)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 448, NULL);
  GstBcTileMeta *meta;
  GstBcTiling tiling;
  const GstBcTile *tile;
  guint i;

  meta = gst_buffer_add_bc_tile_meta (buf, tile_ignored, NULL, NULL);
  /* no tiling yet */
  fail_unless (gst_bc_tile_meta_get_tile (meta, 0) == NULL);

  /* 7 block rows of 64 bytes in 3 tiles: 3, 2, 2 */
  fail_unless (gst_bc_tiling_init (&tiling, 7, 64, 3));
  fail_unless (gst_bc_tile_meta_set_tiling (meta, &tiling));
  for (i = 0; i < 3; i++) {
    tile = gst_bc_tile_meta_get_tile (meta, i);
    fail_unless (tile != NULL);
    fail_unless_equals_int (tile->index, i);
    fail_unless_equals_int (tile->first_row, tiling.tiles[i].first_row);
    fail_unless_equals_int (tile->n_rows, tiling.tiles[i].n_rows);
    fail_unless_equals_uint64 (tile->offset, tiling.tiles[i].offset);
    fail_unless_equals_uint64 (tile->size, tiling.tiles[i].size);
  }
  fail_unless_equals_int (gst_bc_tile_meta_get_tile (meta, 2)->first_row, 5);
  fail_unless_equals_uint64 (gst_bc_tile_meta_get_tile (meta, 1)->offset, 192);
  fail_unless (gst_bc_tile_meta_get_tile (meta, 3) == NULL);
  fail_unless (gst_bc_tile_meta_get_tile (meta, G_MAXUINT) == NULL);
  /* the tiles are one array, in order (gst_bc_workers_run_tiles ()) */
  fail_unless (gst_bc_tile_meta_get_tile (meta, 1) ==
      gst_bc_tile_meta_get_tile (meta, 0) + 1);

  /* another tiling replaces it */
  fail_unless (gst_bc_tiling_init (&tiling, 7, 64, 1));
  fail_unless (gst_bc_tile_meta_set_tiling (meta, &tiling));
  tile = gst_bc_tile_meta_get_tile (meta, 0);
  fail_unless (tile != NULL);
  fail_unless_equals_int (tile->n_rows, 7);
  fail_unless_equals_uint64 (tile->size, 448);
  fail_unless (gst_bc_tile_meta_get_tile (meta, 1) == NULL);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* gst_bc_tile_meta_tiles_rows () of @tiling set on @meta */
static gboolean
tiles_rows (GstBcTileMeta * meta, const GstBcTiling * tiling, guint n_rows,
    gsize row_bytes)
{
  fail_unless (gst_bc_tile_meta_set_tiling (meta, tiling));
  return gst_bc_tile_meta_tiles_rows (meta, n_rows, row_bytes);
}

GST_START_TEST (test_tile_meta_tiles_rows)
{
  static const guint cases[][2] = {
    /* block rows, tiles */
    {7, 3}, {7, 1}, {7, 7}, {7, 20}, {1, 1}, {47, 6}, {300, 256},
  };
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 64, NULL);
  GstBcTileMeta *meta;
  GstBcTiling tiling, t;
  guint c;

  meta = gst_buffer_add_bc_tile_meta (buf, tile_ignored, NULL, NULL);
  /* no tiling yet */
  fail_if (gst_bc_tile_meta_tiles_rows (meta, 7, 64));

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    guint n_rows = cases[c][0];

    fail_unless (gst_bc_tiling_init (&tiling, n_rows, 64, cases[c][1]));
    /* as made: the frame's rows */
    fail_unless (tiles_rows (meta, &tiling, n_rows, 64), "%u rows in %u "
        "tiles", n_rows, cases[c][1]);
    /* another frame: more rows, fewer rows, other row bytes */
    fail_if (tiles_rows (meta, &tiling, n_rows + 1, 64));
    fail_if (tiles_rows (meta, &tiling, n_rows - 1, 64));
    fail_if (tiles_rows (meta, &tiling, n_rows, 128));
    fail_if (tiles_rows (meta, &tiling, n_rows, 32));
    fail_if (tiles_rows (meta, &tiling, 0, 64));
  }

  /* a frame of 10 rows in 4 tiles (3, 3, 2, 2), edited */
  fail_unless (gst_bc_tiling_init (&tiling, 10, 64, 4));
  fail_unless (tiles_rows (meta, &tiling, 10, 64));
  /* a gap between tiles 1 and 2 (the bytes and rows agree) */
  t = tiling;
  t.tiles[2].first_row++;
  t.tiles[2].n_rows--;
  t.tiles[2].offset += 64;
  t.tiles[2].size -= 64;
  fail_if (tiles_rows (meta, &t, 10, 64));
  /* an overlap */
  t = tiling;
  t.tiles[2].first_row--;
  t.tiles[2].n_rows++;
  t.tiles[2].offset -= 64;
  t.tiles[2].size += 64;
  fail_if (tiles_rows (meta, &t, 10, 64));
  /* the rows right, the bytes off */
  t = tiling;
  t.tiles[1].offset += 8;
  fail_if (tiles_rows (meta, &t, 10, 64));
  t = tiling;
  t.tiles[3].size -= 1;
  fail_if (tiles_rows (meta, &t, 10, 64));
  /* the last tile short of the frame's end */
  t = tiling;
  t.tiles[3].n_rows--;
  t.tiles[3].size -= 64;
  fail_if (tiles_rows (meta, &t, 10, 64));
  fail_unless (tiles_rows (meta, &t, 9, 64));
  /* an empty last tile at the frame's end, the rows all in tile 2 */
  t = tiling;
  t.tiles[2].n_rows += 2;
  t.tiles[2].size += 128;
  t.tiles[3].first_row = 10;
  t.tiles[3].n_rows = 0;
  t.tiles[3].offset = 640;
  t.tiles[3].size = 0;
  fail_if (tiles_rows (meta, &t, 10, 64));
  /* out of order, with their indices, or renumbered */
  t = tiling;
  t.tiles[0] = tiling.tiles[1];
  t.tiles[1] = tiling.tiles[0];
  fail_if (tiles_rows (meta, &t, 10, 64));
  t.tiles[0].index = 0;
  t.tiles[1].index = 1;
  fail_if (tiles_rows (meta, &t, 10, 64));
  /* a wrong index */
  t = tiling;
  t.tiles[3].index = 2;
  fail_if (tiles_rows (meta, &t, 10, 64));
  /* the original again */
  fail_unless (tiles_rows (meta, &tiling, 10, 64));
  gst_buffer_unref (buf);
}

GST_END_TEST;

GST_START_TEST (test_tile_meta_offer)
{
  GstCaps *caps = gst_caps_from_string ("video/x-bc, format=BC1, "
      "width=64, height=40");
  GstQuery *query;
  const GstStructure *params = NULL;
  gboolean tiled = FALSE;
  guint index;

  /* no meta in the query */
  query = gst_query_new_allocation (caps, TRUE);
  fail_if (gst_bc_tile_meta_query_stepped (query));
  /* other metas only */
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  fail_if (gst_bc_tile_meta_query_stepped (query));
  gst_query_unref (query);

  /* tiled by the consumer */
  query = gst_query_new_allocation (caps, TRUE);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_bc_tile_meta_offer (query, TRUE);
  fail_unless (gst_bc_tile_meta_query_stepped (query));
  fail_unless (gst_query_find_allocation_meta (query,
          GST_BC_TILE_META_API_TYPE, &index));
  fail_unless_equals_int (index, 1);
  gst_query_parse_nth_allocation_meta (query, index, &params);
  fail_unless (params != NULL);
  fail_unless (gst_structure_has_name (params, "GstBcTileMeta"));
  fail_unless (gst_structure_get_boolean (params, "stepped", &tiled));
  fail_unless (tiled);
  gst_query_unref (query);

  /* the field's former name */
  query = gst_query_new_allocation (caps, TRUE);
  params = gst_structure_new ("GstBcTileMeta", "tiled-by-consumer",
      G_TYPE_BOOLEAN, TRUE, NULL);
  gst_query_add_allocation_meta (query, GST_BC_TILE_META_API_TYPE, params);
  gst_structure_free ((GstStructure *) params);
  fail_unless (gst_bc_tile_meta_query_stepped (query));
  gst_query_unref (query);

  /* offered, not tiled by the consumer */
  query = gst_query_new_allocation (caps, TRUE);
  gst_bc_tile_meta_offer (query, FALSE);
  fail_unless (gst_query_find_allocation_meta (query,
          GST_BC_TILE_META_API_TYPE, NULL));
  fail_if (gst_bc_tile_meta_query_stepped (query));
  gst_query_unref (query);

  /* offered without parameters (as before the stepped field existed) */
  query = gst_query_new_allocation (caps, TRUE);
  gst_query_add_allocation_meta (query, GST_BC_TILE_META_API_TYPE, NULL);
  fail_if (gst_bc_tile_meta_query_stepped (query));
  gst_query_unref (query);

  /* a query without caps */
  query = gst_query_new_allocation (NULL, FALSE);
  fail_if (gst_bc_tile_meta_query_stepped (query));
  gst_bc_tile_meta_offer (query, TRUE);
  fail_unless (gst_bc_tile_meta_query_stepped (query));
  gst_query_unref (query);
  gst_caps_unref (caps);
}

GST_END_TEST;

static Suite *
bctilemeta_suite (void)
{
  Suite *s = suite_create ("bctilemeta");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_tile_meta_once_per_tile);
  tcase_add_test (tc, test_tile_meta_not_copied);
  tcase_add_test (tc, test_tile_meta_concurrent);
  tcase_add_test (tc, test_tile_meta_get_tile);
  tcase_add_test (tc, test_tile_meta_tiles_rows);
  tcase_add_test (tc, test_tile_meta_offer);
  return s;
}

GST_CHECK_MAIN (bctilemeta);
