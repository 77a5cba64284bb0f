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

GST_START_TEST (test_format_strings)
{
  GstBcFormat f;

  for (f = GST_BC_FORMAT_BC1; f < GST_BC_FORMAT_LAST; f++) {
    const gchar *s = gst_bc_format_to_string (f);
    fail_unless (s != NULL);
    fail_unless_equals_int (gst_bc_format_from_string (s), f);
  }
  fail_unless_equals_string (gst_bc_format_to_string (GST_BC_FORMAT_YCOCG_BC3),
      "YCoCg-BC3");
  fail_unless (gst_bc_format_to_string (GST_BC_FORMAT_UNKNOWN) == NULL);
  fail_unless (gst_bc_format_to_string ((GstBcFormat) 99) == NULL);
  fail_unless_equals_int (gst_bc_format_from_string ("bc1"),
      GST_BC_FORMAT_UNKNOWN);
  fail_unless_equals_int (gst_bc_format_from_string (NULL),
      GST_BC_FORMAT_UNKNOWN);
  fail_unless_equals_int (gst_bc_format_get_block_bytes (GST_BC_FORMAT_BC1), 8);
  fail_unless_equals_int (gst_bc_format_get_block_bytes (GST_BC_FORMAT_BC4), 8);
  fail_unless_equals_int (gst_bc_format_get_block_bytes (GST_BC_FORMAT_BC3),
      16);
  fail_unless_equals_int (gst_bc_format_get_block_bytes
      (GST_BC_FORMAT_YCOCG_BC3), 16);
  fail_unless_equals_int (gst_bc_format_get_block_bytes (GST_BC_FORMAT_BC5),
      16);
  fail_unless_equals_int (gst_bc_format_get_block_bytes (GST_BC_FORMAT_BC7),
      16);
  fail_unless_equals_int (gst_bc_format_get_block_bytes
      (GST_BC_FORMAT_UNKNOWN), 0);
}

GST_END_TEST;

/* @info has @blocks_x x @blocks_y blocks, is @padded_width x
 * @padded_height pixels padded, and has rows of @row_bytes and @size bytes
 * in all */
static void
check_geometry (const GstBcInfo * info, guint blocks_x, guint blocks_y,
    guint padded_width, guint padded_height, gsize row_bytes, gsize size)
{
  fail_unless_equals_int (info->blocks_x, blocks_x);
  fail_unless_equals_int (info->blocks_y, blocks_y);
  fail_unless_equals_int (info->padded_width, padded_width);
  fail_unless_equals_int (info->padded_height, padded_height);
  fail_unless_equals_uint64 (info->row_bytes, row_bytes);
  fail_unless_equals_uint64 (info->size, size);
}

GST_START_TEST (test_info_geometry)
{
  GstBcInfo info;

  gst_bc_info_init (&info);
  /* the thesis' Figure 4.5: 30x26 visible, 32x28 padded */
  fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1, 30, 26));
  check_geometry (&info, 8, 7, 32, 28, 64, 448);

  fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1, 1, 1));
  check_geometry (&info, 1, 1, 4, 4, 8, 8);

  fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_YCOCG_BC3, 3, 5));
  check_geometry (&info, 1, 2, 4, 8, 16, 32);

  /* 2160p BC1: 4.15 MB as in the thesis' Table 2.1 */
  fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1, 3840, 2160));
  check_geometry (&info, 960, 540, 3840, 2160, 960 * 8, 4147200);
  fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC3, 3840, 2160));
  check_geometry (&info, 960, 540, 3840, 2160, 960 * 16, 8294400);

  fail_if (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1, 0, 4));
  fail_if (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1, 4, 0));
  fail_if (gst_bc_info_set_format (&info, GST_BC_FORMAT_UNKNOWN, 4, 4));
}

GST_END_TEST;

GST_START_TEST (test_info_caps)
{
  GstBcInfo info, info2;
  GstCaps *caps, *caps2;

  caps = gst_caps_from_string ("video/x-bc, format=YCoCg-BC3, width=1918, "
      "height=1078, framerate=60/1, pixel-aspect-ratio=4/3");
  fail_unless (gst_bc_info_from_caps (&info, caps));
  fail_unless_equals_int (info.format, GST_BC_FORMAT_YCOCG_BC3);
  fail_unless_equals_int (info.width, 1918);
  fail_unless_equals_int (info.height, 1078);
  fail_unless_equals_int (info.fps_n, 60);
  fail_unless_equals_int (info.fps_d, 1);
  fail_unless_equals_int (info.par_n, 4);
  fail_unless_equals_int (info.par_d, 3);
  check_geometry (&info, 480, 270, 1920, 1080, 480 * 16, 480 * 270 * 16);

  caps2 = gst_bc_info_to_caps (&info);
  fail_unless (gst_caps_is_equal (caps, caps2));
  fail_unless (gst_bc_info_from_caps (&info2, caps2));
  fail_unless (gst_bc_info_is_equal (&info, &info2));
  gst_caps_unref (caps2);
  gst_caps_unref (caps);

  /* defaults for missing framerate and par */
  caps = gst_caps_from_string ("video/x-bc, format=BC1, width=4, height=4");
  fail_unless (gst_bc_info_from_caps (&info, caps));
  fail_unless_equals_int (info.fps_n, 0);
  fail_unless_equals_int (info.fps_d, 1);
  fail_unless_equals_int (info.par_n, 1);
  gst_caps_unref (caps);

  /* rejected caps */
  {
    const gchar *bad[] = {
      "video/x-raw, format=RGBA, width=4, height=4",
      "video/x-bc, format=DXT9, width=4, height=4",
      "video/x-bc, width=4, height=4",
      "video/x-bc, format=BC1, width=0, height=4",
      "video/x-bc, format=BC1, width=4",
      "video/x-bc, format=BC1, width=-4, height=4",
      "video/x-bc, format={BC1, BC3}, width=4, height=4",
      "video/x-bc, format=BC1, width=[1, 5], height=4",
    };
    guint i;

    for (i = 0; i < G_N_ELEMENTS (bad); i++) {
      caps = gst_caps_from_string (bad[i]);
      fail_unless (caps != NULL, "%s", bad[i]);
      fail_if (gst_bc_info_from_caps (&info, caps), "accepted %s", bad[i]);
      gst_caps_unref (caps);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_template_caps)
{
  GstCaps *tmpl = gst_caps_from_string (GST_BC_CAPS_MAKE (GST_BC_FORMATS_ALL));
  GstCaps *one = gst_caps_from_string ("video/x-bc, format=BC7, width=30, "
      "height=26, framerate=30/1");

  fail_unless (gst_caps_can_intersect (tmpl, one));
  gst_caps_unref (one);
  one = gst_caps_from_string ("video/x-bc, format=ETC1, width=30, height=26, "
      "framerate=30/1");
  fail_if (gst_caps_can_intersect (tmpl, one));
  gst_caps_unref (one);
  gst_caps_unref (tmpl);
}

GST_END_TEST;

/* GST_BC_FORMATS_ALL lists every format, GST_BC_FORMATS_UNORM every one
 * but the half-float ones */
GST_START_TEST (test_format_lists)
{
  GstCaps *all = gst_caps_from_string (GST_BC_CAPS_MAKE (GST_BC_FORMATS_ALL));
  GstCaps *unorm =
      gst_caps_from_string (GST_BC_CAPS_MAKE (GST_BC_FORMATS_UNORM));
  GstBcFormat f;

  for (f = GST_BC_FORMAT_BC1; f < GST_BC_FORMAT_LAST; f++) {
    gchar *str = g_strdup_printf ("video/x-bc, format=%s, width=30, "
        "height=26, framerate=30/1", gst_bc_format_to_string (f));
    GstCaps *one = gst_caps_from_string (str);

    fail_unless (gst_caps_can_intersect (all, one), "%s", str);
    fail_unless (gst_caps_can_intersect (unorm, one) ==
        !gst_bc_format_is_float (f), "%s", str);
    gst_caps_unref (one);
    g_free (str);
  }
  gst_caps_unref (all);
  gst_caps_unref (unorm);
}

GST_END_TEST;

GST_START_TEST (test_pixel_layout)
{
  static const TestLayout layouts[] = {
    {GST_VIDEO_FORMAT_BGRx, {4, 2, 1, 0, -1, 3}},
    {GST_VIDEO_FORMAT_ARGB, {4, 1, 2, 3, 0, -1}},
    {GST_VIDEO_FORMAT_RGB, {3, 0, 1, 2, -1, -1}},
  };
  GstBcPixelLayout lo;

  test_check_layouts (gst_bc_pixel_layout_from_video_format, layouts,
      G_N_ELEMENTS (layouts));
  fail_if (gst_bc_pixel_layout_from_video_format (&lo, GST_VIDEO_FORMAT_I420));
  fail_if (gst_bc_pixel_layout_from_video_format (&lo, GST_VIDEO_FORMAT_GRAY8));
}

GST_END_TEST;

static Suite *
bcformat_suite (void)
{
  Suite *s = suite_create ("bcformat");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_format_strings);
  tcase_add_test (tc, test_info_geometry);
  tcase_add_test (tc, test_info_caps);
  tcase_add_test (tc, test_template_caps);
  tcase_add_test (tc, test_format_lists);
  tcase_add_test (tc, test_pixel_layout);
  return s;
}

GST_CHECK_MAIN (bcformat);
