/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* libgsttile's regions (tileregion.c): parsing, the layout of a region in
 * frames of video/x-bc and video/x-raw caps, the tiles of a CONFIG it
 * needs (the one function the sender and the receiver share), the copy. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <gst/bc/bc.h>
#include <gst/tile/tileregion.h>

#include <string.h>

/* A CONFIG for frames of @caps_str in @n_units tiles, as tilesink cuts
 * them (block rows for video/x-bc, frame size / height bytes for raw). */
static GstTileWireConfig *
config_for_caps (const gchar * caps_str, guint n_units)
{
  GstTileWireConfig *config = g_new0 (GstTileWireConfig, 1);
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstStructure *s = gst_caps_get_structure (caps, 0);
  GstBcTiling tiling;

  if (gst_structure_has_name (s, "video/x-bc")) {
    GstBcInfo info;

    fail_unless (gst_bc_info_from_caps (&info, caps));
    fail_unless (gst_bc_tiling_init_for_info (&tiling, &info, n_units));
  } else {
    GstVideoInfo info;
    guint rows;

    fail_unless (gst_video_info_from_caps (&info, caps));
    rows = info.size % info.height == 0 ? info.height : 1;
    fail_unless (gst_bc_tiling_init (&tiling, rows, info.size / rows, n_units));
  }
  fail_unless (gst_tile_wire_config_set_tiling (config, &tiling, NULL));
  fail_unless (gst_tile_wire_config_set_caps (config, caps_str, NULL));
  gst_caps_unref (caps);
  return config;
}

/* The tiles whose rows [first, end) of @config hold: what the units of a
 * region of rows must be. */
static guint64
tiles_of_rows (const GstTileWireConfig * config, guint64 first, guint64 end)
{
  guint64 units = 0;
  guint i;

  for (i = 0; i < config->n_tiles; i++) {
    guint64 r0 = config->tiles[i].offset / config->row_bytes;
    guint64 r1 = r0 + config->tiles[i].size / config->row_bytes;

    if (r0 < end && r1 > first)
      units |= G_GUINT64_CONSTANT (1) << i;
  }
  return units;
}

static guint64
region_units (const GstTileWireConfig * config, guint x, guint y, guint w,
    guint h)
{
  GstTileWireRegion r = { x, y, w, h };
  GError *err = NULL;
  guint64 units = 0;

  fail_unless (gst_tile_region_config_units (&r, config, &units, &err),
      "%s", err ? err->message : "");
  return units;
}

static void
check_layout_error (const gchar * caps_str, guint x, guint y, guint w,
    guint h, const gchar * needle)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstTileWireRegion r = { x, y, w, h };
  GstTileRegionLayout l;
  GError *err = NULL;

  fail_if (gst_tile_region_layout (&r, caps, &l, &err));
  fail_unless (err != NULL);
  fail_unless (strstr (err->message, needle) != NULL, "'%s' not in '%s'",
      needle, err->message);
  GST_DEBUG ("expected: %s", err->message);
  g_error_free (err);
  gst_caps_unref (caps);
}

GST_START_TEST (test_parse)
{
  GstTileWireRegion r;
  GError *err = NULL;
  gchar *s;

  fail_unless (gst_tile_region_parse ("960,540,960,540", &r, NULL));
  fail_unless_equals_int (r.x, 960);
  fail_unless_equals_int (r.y, 540);
  fail_unless_equals_int (r.width, 960);
  fail_unless_equals_int (r.height, 540);
  s = gst_tile_region_to_string (&r);
  fail_unless_equals_string (s, "960,540,960,540");
  g_free (s);
  fail_unless (gst_tile_region_parse (" 0, 4 ,8,12 ", &r, NULL));
  fail_unless (r.x == 0 && r.y == 4 && r.width == 8 && r.height == 12);
  /* empty parses: gst_tile_region_layout () refuses it */
  fail_unless (gst_tile_region_parse ("0,0,0,0", &r, NULL));

  fail_if (gst_tile_region_parse ("1,2,3", &r, &err));
  fail_unless (strstr (err->message, "\"1,2,3\" is not four numbers"));
  g_clear_error (&err);
  fail_if (gst_tile_region_parse ("1,2,3,4,5", &r, NULL));
  fail_if (gst_tile_region_parse ("-1,0,4,4", &r, NULL));
  fail_if (gst_tile_region_parse ("a,0,4,4", &r, NULL));
  fail_if (gst_tile_region_parse ("0,0,4,", &r, NULL));
  fail_if (gst_tile_region_parse ("0,0,4,4294967296", &r, NULL));
  fail_if (gst_tile_region_parse ("", &r, NULL));
  fail_if (gst_tile_region_parse (NULL, &r, NULL));
}

GST_END_TEST;

#define BC1_1080 "video/x-bc, format=(string)BC1, width=(int)1920, " \
    "height=(int)1080, framerate=(fraction)30/1"

GST_START_TEST (test_layout_bc)
{
  GstCaps *caps = gst_caps_from_string (BC1_1080), *rcaps;
  GstTileWireRegion r = { 960, 540, 960, 540 };
  GstTileRegionLayout l;
  GstStructure *s;
  gint v;

  fail_unless (gst_tile_region_layout (&r, caps, &l, NULL));
  fail_unless_equals_int (l.n_planes, 1);
  fail_unless_equals_uint64 (l.frame_size, 480 * 270 * 8);
  fail_unless_equals_uint64 (l.out_size, 240 * 135 * 8);
  fail_unless_equals_uint64 (l.planes[0].stride, 480 * 8);
  fail_unless_equals_uint64 (l.planes[0].offset, 135 * 480 * 8 + 240 * 8);
  fail_unless_equals_uint64 (l.planes[0].bytes, 240 * 8);
  fail_unless_equals_int (l.planes[0].rows, 135);
  fail_unless_equals_uint64 (l.planes[0].out_offset, 0);
  fail_unless_equals_uint64 (l.planes[0].out_stride, 240 * 8);

  rcaps = gst_tile_region_caps (&r, caps);
  s = gst_caps_get_structure (rcaps, 0);
  fail_unless (gst_structure_get_int (s, "width", &v) && v == 960);
  fail_unless (gst_structure_get_int (s, "height", &v) && v == 540);
  fail_unless_equals_string (gst_structure_get_string (s, "format"), "BC1");
  fail_unless (gst_structure_has_field (s, "framerate"));
  gst_caps_unref (rcaps);
  gst_caps_unref (caps);

  /* BC7: 16-byte blocks; a frame whose width is not a multiple of 4 takes
   * a region that ends at its edge */
  caps = gst_caps_from_string ("video/x-bc, format=(string)BC7, "
      "width=(int)30, height=(int)26");
  r = (GstTileWireRegion) {
  8, 4, 22, 22};
  fail_unless (gst_tile_region_layout (&r, caps, &l, NULL));
  fail_unless_equals_uint64 (l.planes[0].offset, 1 * 8 * 16 + 2 * 16);
  fail_unless_equals_uint64 (l.planes[0].bytes, 6 * 16);
  fail_unless_equals_int (l.planes[0].rows, 6);
  fail_unless_equals_uint64 (l.planes[0].out_stride, 6 * 16);
  gst_caps_unref (caps);

  check_layout_error (BC1_1080, 1000, 0, 960, 4, "outside the frame");
  check_layout_error (BC1_1080, 0, 0, 1920, 1084, "of the 1920x1080 frame");
  check_layout_error (BC1_1080, 0, 0, 0, 4, "the region is empty");
  check_layout_error (BC1_1080, 2, 0, 960, 540,
      "video/x-bc (4x4 blocks) needs x and width multiples of 4");
  check_layout_error (BC1_1080, 0, 4, 962, 540, "region 0,4,962,540");
  check_layout_error (BC1_1080, 0, 6, 960, 540, "multiples of 4");
  check_layout_error (BC1_1080, G_MAXUINT32 - 3, 0, 8, 8, "outside");
}

GST_END_TEST;

GST_START_TEST (test_layout_raw)
{
  GstCaps *caps;
  GstTileWireRegion r = { 32, 16, 32, 16 };
  GstTileRegionLayout l;
  GstVideoInfo info;

  /* I420: three planes, chroma at half resolution */
  caps = gst_caps_from_string ("video/x-raw, format=(string)I420, "
      "width=(int)64, height=(int)48");
  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless (gst_tile_region_layout (&r, caps, &l, NULL));
  fail_unless_equals_int (l.n_planes, 3);
  fail_unless_equals_uint64 (l.frame_size, info.size);
  fail_unless_equals_uint64 (l.planes[0].offset, 16 * 64 + 32);
  fail_unless_equals_uint64 (l.planes[0].bytes, 32);
  fail_unless_equals_int (l.planes[0].rows, 16);
  fail_unless_equals_uint64 (l.planes[1].offset, info.offset[1] + 8 * 32 + 16);
  fail_unless_equals_uint64 (l.planes[1].bytes, 16);
  fail_unless_equals_int (l.planes[1].rows, 8);
  fail_unless_equals_uint64 (l.planes[2].offset, info.offset[2] + 8 * 32 + 16);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 32, 16);
  fail_unless_equals_uint64 (l.out_size, info.size);
  fail_unless_equals_uint64 (l.planes[2].out_offset, info.offset[2]);
  fail_unless_equals_uint64 (l.planes[2].out_stride, info.stride[2]);
  gst_caps_unref (caps);

  /* RGB, 3 bytes a pixel: any pixel; rows of the region's caps are
   * 4-byte aligned */
  caps = gst_caps_from_string ("video/x-raw, format=(string)RGB, "
      "width=(int)30, height=(int)20");
  r = (GstTileWireRegion) {
  1, 3, 5, 7};
  fail_unless (gst_tile_region_layout (&r, caps, &l, NULL));
  fail_unless_equals_int (l.n_planes, 1);
  fail_unless_equals_uint64 (l.planes[0].stride, 92);
  fail_unless_equals_uint64 (l.planes[0].offset, 3 * 92 + 3);
  fail_unless_equals_uint64 (l.planes[0].bytes, 15);
  fail_unless_equals_uint64 (l.planes[0].out_stride, 16);
  fail_unless_equals_uint64 (l.out_size, 16 * 7);
  gst_caps_unref (caps);

  /* YUY2: pairs of pixels */
  check_layout_error ("video/x-raw, format=(string)YUY2, width=(int)64, "
      "height=(int)48", 1, 0, 8, 8, "YUY2 needs x and width multiples of 2, "
      "y and height multiples of 1");
  check_layout_error ("video/x-raw, format=(string)I420, width=(int)64, "
      "height=(int)48", 0, 1, 8, 8, "I420 needs x and width multiples of 2, "
      "y and height multiples of 2");
  check_layout_error ("video/x-raw, format=(string)I420, width=(int)64, "
      "height=(int)48, interlace-mode=(string)interleaved", 0, 2, 8, 8,
      "I420 (interlaced) needs x and width multiples of 2, y and height "
      "multiples of 4");
  check_layout_error ("video/x-raw, format=(string)v210, width=(int)48, "
      "height=(int)8", 0, 0, 6, 2, "v210 has no regions");
  check_layout_error ("video/x-raw, format=(string)RGBA, width=(int)64, "
      "height=(int)48", 0, 40, 8, 16, "region 0,40,8,16 (x,y,width,height) "
      "of the 64x48 frame: the region is outside the frame");
  check_layout_error ("video/x-raw, format=(string)RGBA, width=(int)64, "
      "height=(int)48", 0, 0, 8, 0, "the region is empty");
}

GST_END_TEST;

/* The units of a region are the tiles whose rows it touches: the sender
 * and the receiver both take them from gst_tile_region_config_units (). */
GST_START_TEST (test_units)
{
  GstTileWireConfig *c = config_for_caps (BC1_1080, 4);
  GstTileWireRegion bad = { 2, 0, 8, 8 };
  GError *err = NULL;
  guint64 units;
  guint y, h;

  /* 270 block rows in tiles of 68, 68, 67, 67 */
  fail_unless_equals_int (c->n_tiles, 4);
  fail_unless_equals_uint64 (region_units (c, 0, 0, 1920, 1080), 0xf);
  fail_unless_equals_uint64 (region_units (c, 0, 0, 1920, 540), 0x3);
  fail_unless_equals_uint64 (region_units (c, 0, 540, 1920, 540), 0xe);
  fail_unless_equals_uint64 (region_units (c, 960, 0, 960, 540), 0x3);
  fail_unless_equals_uint64 (region_units (c, 0, 0, 4, 4), 0x1);
  fail_unless_equals_uint64 (region_units (c, 1916, 1076, 4, 4), 0x8);
  /* the first block row of tile 1, the last of tile 0 */
  fail_unless_equals_uint64 (region_units (c, 0, 68 * 4, 4, 4), 0x2);
  fail_unless_equals_uint64 (region_units (c, 0, 67 * 4, 4, 8), 0x3);
  for (y = 0; y < 1080; y += 44)
    for (h = 4; y + h <= 1080; h += 132)
      fail_unless_equals_uint64 (region_units (c, 0, y, 1920, h),
          tiles_of_rows (c, y / 4, (y + h + 3) / 4));

  /* without a region, or one that does not fit: every tile */
  fail_unless (gst_tile_region_config_units (NULL, c, &units, NULL));
  fail_unless_equals_uint64 (units, 0xf);
  fail_if (gst_tile_region_config_units (&bad, c, &units, &err));
  fail_unless_equals_uint64 (units, 0xf);
  fail_unless (strstr (err->message, "multiples of 4"));
  g_clear_error (&err);
  /* caps that do not describe the CONFIG's frames */
  c->frame_size /= 2;
  bad.x = 0;
  fail_if (gst_tile_region_config_units (&bad, c, &units, &err));
  fail_unless (strstr (err->message, "the CONFIG"), "%s", err->message);
  g_clear_error (&err);
  g_free (c);

  /* 64 tiles: a row each of 64 rows */
  c = config_for_caps ("video/x-raw, format=(string)RGBA, width=(int)16, "
      "height=(int)64", 64);
  fail_unless_equals_int (c->n_tiles, 64);
  fail_unless_equals_uint64 (region_units (c, 0, 0, 16, 64), G_MAXUINT64);
  fail_unless_equals_uint64 (region_units (c, 4, 60, 4, 4),
      G_GUINT64_CONSTANT (0xf) << 60);
  g_free (c);

  /* packed raw: the rows of the region; planar raw (I420) has its chroma
   * in other rows of the frame: every tile for the top half */
  c = config_for_caps ("video/x-raw, format=(string)BGRx, width=(int)64, "
      "height=(int)48", 4);
  fail_unless_equals_uint64 (region_units (c, 0, 0, 64, 24), 0x3);
  fail_unless_equals_uint64 (region_units (c, 32, 24, 32, 24), 0xc);
  g_free (c);
  c = config_for_caps ("video/x-raw, format=(string)I420, width=(int)64, "
      "height=(int)48", 4);
  fail_unless_equals_uint64 (region_units (c, 0, 0, 64, 24), 0xf);
  fail_unless_equals_uint64 (region_units (c, 0, 0, 64, 8), 0xd);
  g_free (c);
}

GST_END_TEST;

/* The copy holds the region's pixels, as GstVideoFrame sees them. */
GST_START_TEST (test_copy_raw)
{
  static const gchar *const formats[] = { "I420", "NV12", "BGRx", "YUY2",
    "RGB", "GRAY16_LE", "Y444"
  };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    gchar *str = g_strdup_printf ("video/x-raw, format=(string)%s, "
        "width=(int)38, height=(int)22", formats[f]);
    GstCaps *caps = gst_caps_from_string (str), *rcaps;
    GstTileWireRegion r = { 6, 4, 32, 18 };
    GstTileRegionLayout l;
    GstVideoInfo in, out;
    GstBuffer *a, *b;
    GstVideoFrame fa, fb;
    guint8 *data;
    guint p, row, i;

    fail_unless (gst_video_info_from_caps (&in, caps));
    fail_unless (gst_tile_region_layout (&r, caps, &l, NULL), "%s", str);
    rcaps = gst_tile_region_caps (&r, caps);
    fail_unless (gst_video_info_from_caps (&out, rcaps));
    fail_unless_equals_uint64 (l.out_size, out.size);
    data = g_malloc (in.size);
    for (i = 0; i < in.size; i++)
      data[i] = g_random_int ();
    a = gst_buffer_new_wrapped (data, in.size);
    b = gst_buffer_new_allocate (NULL, out.size, NULL);
    fail_unless (gst_video_frame_map (&fa, &in, a, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fb, &out, b, GST_MAP_WRITE));
    gst_tile_region_copy (&l, fa.map[0].data, fb.map[0].data);
    for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&in); p++) {
      const GstVideoFormatInfo *fi = in.finfo;
      guint comp[GST_VIDEO_MAX_COMPONENTS], c;
      guint ps, x0, y0, w, h;

      gst_video_format_info_component (fi, p, (gint *) comp);
      c = comp[0];
      ps = GST_VIDEO_FORMAT_INFO_PSTRIDE (fi, c);
      x0 = GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (fi, c, r.x);
      y0 = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (fi, c, r.y);
      w = GST_VIDEO_FRAME_COMP_WIDTH (&fb, c);
      h = GST_VIDEO_FRAME_COMP_HEIGHT (&fb, c);
      for (row = 0; row < h; row++)
        fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, p) +
                row * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p),
                (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, p) +
                (y0 + row) * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p) + x0 * ps,
                w * ps) == 0, "%s plane %u row %u", formats[f], p, row);
    }
    gst_video_frame_unmap (&fa);
    gst_video_frame_unmap (&fb);
    gst_buffer_unref (a);
    gst_buffer_unref (b);
    gst_caps_unref (rcaps);
    gst_caps_unref (caps);
    g_free (str);
  }
}

GST_END_TEST;

GST_START_TEST (test_copy_bc)
{
  GstCaps *caps = gst_caps_from_string (BC1_1080);
  GstTileWireRegion r = { 480, 272, 964, 400 };
  GstTileRegionLayout l;
  guint8 *frame, *out;
  guint i, row;

  fail_unless (gst_tile_region_layout (&r, caps, &l, NULL));
  frame = g_malloc (l.frame_size);
  out = g_malloc (l.out_size);
  for (i = 0; i < l.frame_size; i++)
    frame[i] = i * 7 + (i >> 9);
  gst_tile_region_copy (&l, frame, out);
  /* block (bx, by) of the region is block (120 + bx, 68 + by) */
  fail_unless_equals_uint64 (l.out_size, 241 * 100 * 8);
  for (row = 0; row < 100; row++)
    fail_unless (memcmp (out + row * 241 * 8, frame + (68 + row) * 480 * 8 +
            120 * 8, 241 * 8) == 0);
  g_free (frame);
  g_free (out);
  gst_caps_unref (caps);
}

GST_END_TEST;

static Suite *
tileregion_suite (void)
{
  Suite *s = suite_create ("tileregion");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_parse);
  tcase_add_test (tc, test_layout_bc);
  tcase_add_test (tc, test_layout_raw);
  tcase_add_test (tc, test_units);
  tcase_add_test (tc, test_copy_raw);
  tcase_add_test (tc, test_copy_bc);
  return s;
}

GST_CHECK_MAIN (tileregion);
