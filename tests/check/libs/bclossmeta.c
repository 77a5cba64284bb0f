/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <gst/bc/bc.h>

#include "gstbctest.h"

/* @meta has @n_ranges ranges, @lost_bytes bytes in all */
static void
check_meta (GstBcLossMeta * meta, guint n_ranges, guint64 lost_bytes)
{
  fail_unless_equals_int (meta->n_ranges, n_ranges);
  fail_unless_equals_uint64 (meta->lost_bytes, lost_bytes);
}

/* Adds the range @offset, @size to @meta, which then has @n_ranges ranges,
 * @lost_bytes bytes in all */
static void
add_range (GstBcLossMeta * meta, guint64 offset, guint64 size,
    guint n_ranges, guint64 lost_bytes)
{
  gst_bc_loss_meta_add_range (meta, offset, size);
  check_meta (meta, n_ranges, lost_bytes);
}

static void
check_range (GstBcLossMeta * meta, guint i, guint64 offset, guint64 size)
{
  fail_unless (i < meta->n_ranges, "range %u of %u", i, meta->n_ranges);
  fail_unless_equals_uint64 (meta->ranges[i].offset, offset);
  fail_unless_equals_uint64 (meta->ranges[i].size, size);
}

/* The loss meta of a copy of @size bytes of @buf from @offset: @n_ranges
 * ranges, @lost_bytes bytes; the copy goes to @copy */
static GstBcLossMeta *
check_region (GstBuffer * buf, gsize offset, gsize size, guint n_ranges,
    guint64 lost_bytes, GstBuffer ** copy)
{
  GstBcLossMeta *meta;

  *copy = gst_buffer_copy_region (buf, GST_BUFFER_COPY_ALL, offset, size);
  meta = gst_buffer_get_bc_loss_meta (*copy);
  fail_unless (meta != NULL);
  check_meta (meta, n_ranges, lost_bytes);
  return meta;
}

GST_START_TEST (test_add_get)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 4096, NULL);
  GstBcLossMeta *meta;

  fail_unless (gst_buffer_get_bc_loss_meta (buf) == NULL);
  meta = gst_buffer_add_bc_loss_meta (buf);
  fail_unless (meta != NULL);
  fail_unless (gst_buffer_get_bc_loss_meta (buf) == meta);
  fail_unless (meta->meta.info == GST_BC_LOSS_META_INFO);
  fail_unless (meta->meta.info->api == GST_BC_LOSS_META_API_TYPE);
  fail_unless (gst_meta_api_type_has_tag (GST_BC_LOSS_META_API_TYPE,
          g_quark_from_string (GST_META_TAG_VIDEO_STR)));
  check_meta (meta, 0, 0);

  add_range (meta, 100, 50, 1, 50);
  check_range (meta, 0, 100, 50);

  /* empty ranges add nothing */
  add_range (meta, 1000, 0, 1, 50);

  /* the whole 64-bit range */
  add_range (meta, G_MAXUINT64 - 10, 10, 2, 60);
  check_range (meta, 1, G_MAXUINT64 - 10, 10);

  /* the accessor for bindings */
  {
    guint64 off = 0, size = 0;

    fail_unless (gst_bc_loss_meta_get_range (meta, 1, &off, &size));
    fail_unless_equals_uint64 (off, G_MAXUINT64 - 10);
    fail_unless_equals_uint64 (size, 10);
    fail_unless (gst_bc_loss_meta_get_range (meta, 0, NULL, &size));
    fail_unless_equals_uint64 (size, 50);
    fail_if (gst_bc_loss_meta_get_range (meta, 2, &off, &size));
  }

  GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_CORRUPTED);
  gst_buffer_unref (buf);
}

GST_END_TEST;

GST_START_TEST (test_merge)
{
  GstBuffer *buf = gst_buffer_new ();
  GstBcLossMeta *meta = gst_buffer_add_bc_loss_meta (buf);

  /* contiguous ranges become one */
  add_range (meta, 0, 1400, 1, 1400);
  add_range (meta, 1400, 1400, 1, 2800);
  add_range (meta, 2800, 100, 1, 2900);
  check_range (meta, 0, 0, 2900);

  /* a gap starts a new one */
  add_range (meta, 2901, 10, 2, 2910);
  check_range (meta, 1, 2901, 10);
  add_range (meta, 2911, 5, 2, 2915);
  check_range (meta, 1, 2901, 15);

  /* only the last range is merged with: going back appends */
  add_range (meta, 2900, 1, 3, 2916);
  check_range (meta, 0, 0, 2900);
  check_range (meta, 1, 2901, 15);
  check_range (meta, 2, 2900, 1);
  /* a range that ends where the last starts is not merged either */
  add_range (meta, 2899, 1, 4, 2917);
  check_range (meta, 3, 2899, 1);

  gst_buffer_unref (buf);
}

GST_END_TEST;

GST_START_TEST (test_many_ranges)
{
  GstBuffer *buf = gst_buffer_new ();
  GstBcLossMeta *meta = gst_buffer_add_bc_loss_meta (buf);
  guint i;

  /* every other packet of 1408 bytes lost: nothing merges */
  for (i = 0; i < 10000; i++)
    add_range (meta, (guint64) i * 2 * 1408, 1408, i + 1,
        (guint64) (i + 1) * 1408);
  for (i = 0; i < 10000; i++)
    check_range (meta, i, (guint64) i * 2 * 1408, 1408);

  /* and a run of contiguous packets after them merges into one */
  for (i = 0; i < 1000; i++)
    add_range (meta, (guint64) 20000 * 1408 + i * 1408, 1408, 10001,
        (guint64) (10001 + i) * 1408);
  check_range (meta, 10000, (guint64) 20000 * 1408, 1000 * 1408);

  gst_buffer_unref (buf);
}

GST_END_TEST;

GST_START_TEST (test_copy)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 8192, NULL);
  GstBuffer *copy, *copy2;
  GstBcLossMeta *meta, *cmeta;
  guint i;

  meta = gst_buffer_add_bc_loss_meta (buf);
  for (i = 0; i < 20; i++)
    gst_bc_loss_meta_add_range (meta, i * 300, 100);
  GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_CORRUPTED);

  copy = gst_buffer_copy (buf);
  fail_unless (GST_BUFFER_FLAG_IS_SET (copy, GST_BUFFER_FLAG_CORRUPTED));
  cmeta = gst_buffer_get_bc_loss_meta (copy);
  fail_unless (cmeta != NULL);
  fail_unless (cmeta != meta);
  fail_unless (cmeta->ranges != meta->ranges);
  check_meta (cmeta, 20, 2000);
  for (i = 0; i < 20; i++)
    check_range (cmeta, i, i * 300, 100);

  /* the copies are independent */
  gst_bc_loss_meta_add_range (cmeta, 10000, 5);
  check_meta (meta, 20, 2000);
  gst_buffer_unref (buf);
  check_meta (cmeta, 21, 2005);

  /* a deep copy and a copy of an empty meta */
  copy2 = gst_buffer_copy_deep (copy);
  cmeta = gst_buffer_get_bc_loss_meta (copy2);
  fail_unless (cmeta != NULL);
  check_meta (cmeta, 21, 2005);
  check_range (cmeta, 20, 10000, 5);
  gst_buffer_unref (copy);
  gst_buffer_unref (copy2);

  buf = gst_buffer_new ();
  gst_buffer_add_bc_loss_meta (buf);
  copy = gst_buffer_copy (buf);
  cmeta = gst_buffer_get_bc_loss_meta (copy);
  fail_unless (cmeta != NULL);
  check_meta (cmeta, 0, 0);
  fail_unless (cmeta->ranges == NULL);
  gst_buffer_unref (buf);
  gst_buffer_unref (copy);

  /* a copy of the whole buffer as a region keeps the ranges; a copy of
   * part of it keeps the parts inside, relative to its start */
  buf = gst_buffer_new_allocate (NULL, 8192, NULL);
  meta = gst_buffer_add_bc_loss_meta (buf);
  gst_bc_loss_meta_add_range (meta, 0, 10);
  gst_bc_loss_meta_add_range (meta, 100, 100);
  gst_bc_loss_meta_add_range (meta, 1000, 24);
  gst_bc_loss_meta_add_range (meta, 8000, 192);
  cmeta = check_region (buf, 0, 8192, 4, 326, &copy);
  check_range (cmeta, 0, 0, 10);
  check_range (cmeta, 3, 8000, 192);
  gst_buffer_unref (copy);
  cmeta = check_region (buf, 150, 1000, 2, 74, &copy);
  check_range (cmeta, 0, 0, 50);
  check_range (cmeta, 1, 850, 24);
  gst_buffer_unref (copy);
  check_region (buf, 2000, 100, 0, 0, &copy);
  gst_buffer_unref (copy);
  gst_buffer_unref (buf);

  /* removing the meta frees it */
  buf = gst_buffer_new ();
  meta = gst_buffer_add_bc_loss_meta (buf);
  gst_bc_loss_meta_add_range (meta, 0, 10);
  gst_bc_loss_meta_add_range (meta, 20, 10);
  fail_unless (gst_buffer_remove_meta (buf, (GstMeta *) meta));
  fail_unless (gst_buffer_get_bc_loss_meta (buf) == NULL);
  gst_buffer_unref (buf);
}

GST_END_TEST;

static Suite *
bclossmeta_suite (void)
{
  Suite *s = suite_create ("bclossmeta");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_add_get);
  tcase_add_test (tc, test_merge);
  tcase_add_test (tc, test_many_ranges);
  tcase_add_test (tc, test_copy);
  return s;
}

GST_CHECK_MAIN (bclossmeta);
