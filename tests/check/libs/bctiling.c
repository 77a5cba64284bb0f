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

/* Checks the invariants of any tiling. */
static void
check_tiling (const GstBcTiling * t, guint n_rows, gsize row_bytes,
    guint n_tiles)
{
  guint i, min_rows = G_MAXUINT, max_rows = 0, row = 0;
  gsize offset = 0;

  fail_unless_equals_int (t->n_requested, n_tiles);
  fail_unless_equals_int (t->n_tiles, MIN (n_tiles, n_rows));
  fail_unless_equals_int (gst_bc_tiling_is_clamped (t), n_tiles > n_rows);
  for (i = 0; i < t->n_tiles; i++) {
    const GstBcTile *tile = &t->tiles[i];

    fail_unless_equals_int (tile->index, i);
    fail_unless_equals_int (tile->first_row, row);
    fail_unless (tile->n_rows >= 1);
    fail_unless_equals_uint64 (tile->offset, offset);
    fail_unless_equals_uint64 (tile->size, tile->n_rows * row_bytes);
    /* larger tiles first */
    if (i > 0)
      fail_unless (tile->n_rows <= t->tiles[i - 1].n_rows);
    min_rows = MIN (min_rows, tile->n_rows);
    max_rows = MAX (max_rows, tile->n_rows);
    row += tile->n_rows;
    offset += tile->size;
    fail_unless (gst_bc_tiling_find_tile (t, tile->offset) == tile);
    fail_unless (gst_bc_tiling_find_tile (t, tile->offset + tile->size - 1) ==
        tile);
  }
  fail_unless (max_rows - min_rows <= 1);
  fail_unless_equals_int (row, n_rows);
  fail_unless_equals_uint64 (offset, (guint64) n_rows * row_bytes);
  fail_unless (gst_bc_tiling_find_tile (t, offset) == NULL);
}

GST_START_TEST (test_tiling_figure_4_5)
{
  GstBcInfo info;
  GstBcTiling t;

  /* 30x26 padded to 32x28: 7 block rows in 3 tiles of 3, 2, 2 */
  fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1, 30, 26));
  fail_unless (gst_bc_tiling_init_for_info (&t, &info, 3));
  check_tiling (&t, 7, 64, 3);
  fail_unless_equals_int (t.tiles[0].n_rows, 3);
  fail_unless_equals_int (t.tiles[1].n_rows, 2);
  fail_unless_equals_int (t.tiles[2].n_rows, 2);
  fail_unless_equals_int (t.tiles[1].offset, 192);
  fail_unless_equals_int (t.tiles[2].offset, 320);
}

GST_END_TEST;

GST_START_TEST (test_tiling_sizes)
{
  GstBcTiling t;
  guint rows, n;

  for (rows = 1; rows <= 70; rows++) {
    for (n = 1; n <= 80; n++) {
      fail_unless (gst_bc_tiling_init (&t, rows, 1920 * 2, n));
      check_tiling (&t, rows, 1920 * 2, n);
    }
  }
  /* 2160p BC1 in 8 units: 540 block rows -> 68,68,68,68,67,67,67,67 */
  fail_unless (gst_bc_tiling_init (&t, 540, 960 * 8, 8));
  check_tiling (&t, 540, 960 * 8, 8);
  fail_unless_equals_int (t.tiles[3].n_rows, 68);
  fail_unless_equals_int (t.tiles[4].n_rows, 67);
}

GST_END_TEST;

GST_START_TEST (test_tiling_clamped)
{
  GstBcTiling t;

  /* 1x1 frame: a single block row, 64 units asked */
  fail_unless (gst_bc_tiling_init (&t, 1, 8, 64));
  check_tiling (&t, 1, 8, 64);
  fail_unless (gst_bc_tiling_is_clamped (&t));
  fail_unless_equals_int (t.n_tiles, 1);
}

GST_END_TEST;

GST_START_TEST (test_tiling_invalid)
{
  GstBcTiling t;

  fail_if (gst_bc_tiling_init (&t, 0, 8, 1));
  fail_if (gst_bc_tiling_init (&t, 8, 0, 1));
  fail_if (gst_bc_tiling_init (&t, 8, 8, 0));
  fail_if (gst_bc_tiling_init (&t, 8, 8, GST_BC_TILING_MAX_TILES + 1));
  fail_if (gst_bc_tiling_init (&t, G_MAXUINT, G_MAXSIZE / 2, 4));
  fail_unless (gst_bc_tiling_init (&t, 8, 8, GST_BC_TILING_MAX_TILES));
}

GST_END_TEST;

static Suite *
bctiling_suite (void)
{
  Suite *s = suite_create ("bctiling");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_tiling_figure_4_5);
  tcase_add_test (tc, test_tiling_sizes);
  tcase_add_test (tc, test_tiling_clamped);
  tcase_add_test (tc, test_tiling_invalid);
  return s;
}

GST_CHECK_MAIN (bctiling);
