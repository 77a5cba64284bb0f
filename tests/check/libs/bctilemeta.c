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

static Suite *
bctilemeta_suite (void)
{
  Suite *s = suite_create ("bctilemeta");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_tile_meta_once_per_tile);
  tcase_add_test (tc, test_tile_meta_not_copied);
  tcase_add_test (tc, test_tile_meta_concurrent);
  return s;
}

GST_CHECK_MAIN (bctilemeta);
