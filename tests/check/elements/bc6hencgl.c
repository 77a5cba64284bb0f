/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The GL compute path of bc6henc on a headless GL context (Mesa llvmpipe
 * through GST_GL_PLATFORM=egl GST_GL_WINDOW=egl-device): appsrc !
 * glupload ! bc6henc ! appsink with ARGB64 (GStreamer 1.22's 16-bit GL
 * memory) and RGB10A2_LE frames of PQ, HLG and linear video,
 * photograph-like, random, speckled and nearly flat pictures (the last
 * reach the rare per-block fallback of quality=fast) at odd sizes and a
 * 1918x1078 one, with caps changes between them: at quality=fast the
 * blocks of the CPU encoder (gst_bc_encode_rows_hdr () of the same codes
 * as RGBA64_LE or RGB10A2_LE, which elements/bc6henc.c checks the CPU
 * path against) bit for bit on llvmpipe, elsewhere within 0.1 dB of its
 * mPSNR; the output caps (size, linear colorimetry with the input's
 * primaries), timestamps and the path property. quality=normal and
 * BC6H-SF (a downstream that takes only that) on GL: the CPU's blocks
 * too, boxes' corners pictures reaching normal's per-block two regions;
 * quality=high on GL, small pictures, the CPU's blocks too; P010_10LE
 * textures (converted in the shader): the blocks of the CPU's conversion
 * and encoder, every siting, both ranges, PQ and HLG; the quality
 * changing mid-stream, frames in order, on GL; the frame the GL path keeps
 * back leaves at EOS; the latency; every kind of GL context (OpenGL core
 * and compatibility, OpenGL ES 3.2 and 3.1: the CPU's bytes) and one
 * without compute shaders (GLMemory not offered), in child processes.
 *
 * Exits 77 (skipped) only when no GL context can be created at all. The
 * encoder checks glGetError () with its debug category at DEBUG, which
 * this test sets. */

#ifdef __SANITIZE_ADDRESS__
#define _GNU_SOURCE             /* dl_iterate_phdr () */
#endif

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/app/app.h>
#include <gst/gl/gl.h>
#include <glib/gstdio.h>

#include <unistd.h>

#define PULL_TIMEOUT (60 * GST_SECOND)
#define FRAME_DURATION (GST_SECOND / 30)
#define PSNR_BOUND 0.1

#include "gstbctest.h"
#include "gltest.h"
#include "hdrtest.h"
#include "yuvtest.h"

/* GL_RENDERER is llvmpipe: IEEE float, blocks asserted bit-identical */
static gboolean ieee_renderer;

#define note(...) g_print ("bc6hencgl: " __VA_ARGS__)

static const gchar *const quality_names[] = { "fast", "normal", "high" };

/* ---------------------------------------------------------------------- */
/* frames                                                                  */

/* the colorimetry of the caps (full-range RGB, BT.2020) of @transfer */
static const gchar *
colorimetry_of (GstVideoTransferFunction transfer)
{
  switch (transfer) {
    case GST_VIDEO_TRANSFER_SMPTE2084:
      return "1:1:14:7";
    case GST_VIDEO_TRANSFER_ARIB_STD_B67:
      return "1:1:15:7";
    default:
      return "1:1:1:7";
  }
}

static GstCaps *
raw_caps (const gchar * format, GstVideoTransferFunction transfer,
    guint width, guint height)
{
  return gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, format,
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height, "framerate",
      GST_TYPE_FRACTION, 30, 1, "colorimetry", G_TYPE_STRING,
      colorimetry_of (transfer), NULL);
}

/* The RGBA64_LE @codes as a frame of @format: ARGB64 (native-endian
 * 16-bit alpha, red, green, blue), or RGB10A2_LE of their top 10 bits */
static GstBuffer *
frame_buffer (const guint16 * codes, guint width, guint height,
    const gchar * format, guint index)
{
  gsize i, n = (gsize) width * height;
  gboolean ten = strcmp (format, "RGB10A2_LE") == 0;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, n * (ten ? 4 : 8), NULL);
  GstMapInfo map;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < n; i++) {
    const guint16 *c = codes + i * 4;

    if (ten) {
      GST_WRITE_UINT32_LE (map.data + i * 4, (guint32) (c[0] >> 6) |
          (guint32) (c[1] >> 6) << 10 | (guint32) (c[2] >> 6) << 20 |
          (guint32) (c[3] >> 14) << 30);
    } else {
      guint16 *p = (guint16 *) (map.data + i * 8);

      p[0] = c[3];
      p[1] = c[0];
      p[2] = c[1];
      p[3] = c[2];
    }
  }
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = index * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  return buf;
}

/* The CPU encoder's @bc blocks (BC6H, BC6H-SF) of the @codes (of a frame
 * of @format: the 16-bit codes as RGBA64_LE, or RGB10A2_LE) */
static guint8 *
cpu_blocks (GstBcFormat bc, const guint16 * codes, guint width,
    guint height, const gchar * format, GstVideoTransferFunction transfer,
    GstBcQuality quality, GstBcInfo * info)
{
  gboolean ten = strcmp (format, "RGB10A2_LE") == 0;
  GstVideoColorimetry cm = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_RGB, transfer, GST_VIDEO_COLOR_PRIMARIES_BT2020
  };
  GstBcHdrInput *input = gst_bc_hdr_input_new (ten ?
      GST_VIDEO_FORMAT_RGB10A2_LE : GST_VIDEO_FORMAT_RGBA64_LE, &cm);
  gsize i, n = (gsize) width * height;
  guint8 *src = g_malloc (n * (ten ? 4 : 8)), *out;

  fail_unless (input != NULL);
  for (i = 0; i < n; i++) {
    const guint16 *c = codes + i * 4;

    if (ten) {
      GST_WRITE_UINT32_LE (src + i * 4, (guint32) (c[0] >> 6) |
          (guint32) (c[1] >> 6) << 10 | (guint32) (c[2] >> 6) << 20 |
          (guint32) (c[3] >> 14) << 30);
    } else {
      guint k;

      for (k = 0; k < 4; k++)
        GST_WRITE_UINT16_LE (src + i * 8 + k * 2, c[k]);
    }
  }
  gst_bc_info_init (info);
  fail_unless (gst_bc_info_set_format (info, bc, width, height));
  out = g_malloc (info->size);
  gst_bc_encode_rows_hdr (input, bc, quality, src,
      (gsize) width * (ten ? 4 : 8), width, height, 0, info->blocks_y, out);
  gst_bc_hdr_input_free (input);
  g_free (src);
  return out;
}

/* the decoded mPSNR of @blocks against the half floats of @codes */
static gdouble
mpsnr (const GstBcInfo * info, const guint8 * blocks, const guint16 * codes,
    const gchar * format, GstVideoTransferFunction transfer)
{
  GstVideoColorimetry cm = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_RGB, transfer, GST_VIDEO_COLOR_PRIMARIES_BT2020
  };
  gsize i, n = (gsize) info->width * info->height;
  gboolean ten = strcmp (format, "RGB10A2_LE") == 0;
  GstBcHdrInput *input = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE,
      &cm);
  guint16 *ref = g_new (guint16, n * 4), *dec = g_new (guint16, n * 4);
  guint8 *px = g_malloc (n * 8);
  gdouble p;

  /* (RGB10A2_LE: the 10-bit codes scaled up are the same values only
   * approximately; good enough for a PSNR bound) */
  for (i = 0; i < n * 4; i++)
    GST_WRITE_UINT16_LE (px + i * 2, ten ? (codes[i] >> 6) * 65535 / 1023 :
        codes[i]);
  gst_bc_hdr_input_convert (input, px, n, ref);
  gst_bc_decode_rows_half (info->format, blocks, info->width,
      info->height, 0, info->blocks_y, (guint8 *) dec, (gsize) info->width * 8);
  p = hdrtest_mpsnr (ref, dec, n);
  gst_bc_hdr_input_free (input);
  g_free (ref);
  g_free (dec);
  g_free (px);
  return p;
}

/* ---------------------------------------------------------------------- */
/* pipelines                                                               */

static void
check_path (GstElement * enc, const gchar * expected)
{
  gchar *path = gl_test_enc_path (enc);

  fail_unless_equals_string (path, expected);
  g_free (path);
}

/* The blocks of @s, its caps checked: @bc (BC6H, BC6H-SF) of @width x
 * @height, linear light with BT.2020 primaries; its timestamps those of
 * frame @index */
static guint8 *
sample_blocks_of (GstBcFormat bc, GstSample * s, guint width, guint height,
    guint index)
{
  GstBuffer *buf = gst_sample_get_buffer (s);
  GstStructure *st = gst_caps_get_structure (gst_sample_get_caps (s), 0);
  GstBcInfo info;
  GstMapInfo map;
  guint8 *data;

  fail_unless (gst_bc_info_from_caps (&info, gst_sample_get_caps (s)));
  fail_unless_equals_int (info.format, bc);
  fail_unless_equals_int (info.width, width);
  fail_unless_equals_int (info.height, height);
  fail_unless_equals_string (gst_structure_get_string (st, "colorimetry"),
      "1:1:1:7");
  fail_unless_equals_uint64 (GST_BUFFER_PTS (buf), index * FRAME_DURATION);
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (buf), FRAME_DURATION);
  fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_DELTA_UNIT));
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_unless_equals_uint64 (map.size, info.size);
  data = g_memdup2 (map.data, map.size);
  gst_buffer_unmap (buf, &map);
  return data;
}

static guint8 *
sample_blocks (GstSample * s, guint width, guint height, guint index)
{
  return sample_blocks_of (GST_BC_FORMAT_BC6H, s, width, height, index);
}

/* Compares the element's @bc blocks with the CPU's: identical on
 * llvmpipe, else within PSNR_BOUND (GL), always identical for the CPU
 * path (@on_gl FALSE) */
static void
compare_of (GstBcFormat bc, const gchar * what, const guint8 * gl,
    const guint16 * codes, guint width, guint height, const gchar * format,
    GstVideoTransferFunction transfer, GstBcQuality quality, gboolean on_gl)
{
  GstBcInfo info;
  guint8 *cpu = cpu_blocks (bc, codes, width, height, format, transfer,
      quality, &info);
  gsize i, n = info.size / 16, differ = 0;

  for (i = 0; i < n; i++)
    if (memcmp (gl + i * 16, cpu + i * 16, 16) != 0)
      differ++;
  note ("%-7s %-26s %-10s transfer %2d %-6s %4ux%-4u on %s: %"
      G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " blocks differ\n",
      gst_bc_format_to_string (bc), what, format, transfer,
      quality_names[quality], width, height, on_gl ? "GL" : "CPU", differ, n);
  if (ieee_renderer || !on_gl) {
    fail_unless (differ == 0, "%s %s %s transfer %d %s %ux%u: %"
        G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " blocks differ",
        gst_bc_format_to_string (bc), what, format, transfer,
        quality_names[quality], width, height, differ, n);
  } else {
    gdouble a = mpsnr (&info, cpu, codes, format, transfer);
    gdouble b = mpsnr (&info, gl, codes, format, transfer);

    fail_unless (fabs (a - b) <= PSNR_BOUND, "%s: mPSNR CPU %.3f GL %.3f",
        what, a, b);
  }
  g_free (cpu);
}

static void
compare (const gchar * what, const guint8 * gl, const guint16 * codes,
    guint width, guint height, const gchar * format,
    GstVideoTransferFunction transfer, GstBcQuality quality, gboolean on_gl)
{
  compare_of (GST_BC_FORMAT_BC6H, what, gl, codes, width, height, format,
      transfer, quality, on_gl);
}

/* ---------------------------------------------------------------------- */
/* quality=fast on GL against the CPU                                      */

typedef struct
{
  HdrtestPicture kind;
  guint width, height;
} Picture;

static const Picture pictures[] = {
  {HDRTEST_PHOTO, 157, 75},
  {HDRTEST_RANDOM, 13, 9},
  {HDRTEST_SPECKLED, 30, 26},
  {HDRTEST_PHOTO, 1, 1},
  {HDRTEST_FLAT, 322, 241},
};

static const gchar *const picture_names[] = {
  "photograph-like", "random", "speckled", "nearly flat", "corners",
  "corners (signed)"
};

static const GstVideoTransferFunction transfers[] = {
  GST_VIDEO_TRANSFER_SMPTE2084, GST_VIDEO_TRANSFER_ARIB_STD_B67,
  GST_VIDEO_TRANSFER_GAMMA10
};

/* One pipeline of @format at quality=fast: every picture in every
 * transfer, a caps change before each */
static void
check_fast (const gchar * format)
{
  guint n = G_N_ELEMENTS (pictures) * G_N_ELEMENTS (transfers), i;
  guint16 **codes = g_new (guint16 *, n);
  TestPipe g;

  for (i = 0; i < n; i++) {
    const Picture *p = &pictures[i % G_N_ELEMENTS (pictures)];

    codes[i] = hdrtest_codes (p->kind, transfers[i /
            G_N_ELEMENTS (pictures)], p->width, p->height, i);
  }
  gl_pipe_start (&g, "bc6henc quality=fast", raw_caps (format, transfers[0],
          pictures[0].width, pictures[0].height));
  for (i = 0; i < n; i++) {
    const Picture *p = &pictures[i % G_N_ELEMENTS (pictures)];

    if (i > 0)
      gl_pipe_set_caps (&g, raw_caps (format,
              transfers[i / G_N_ELEMENTS (pictures)], p->width, p->height));
    gl_pipe_push (&g, frame_buffer (codes[i], p->width, p->height, format, i));
  }
  gst_app_src_end_of_stream (GST_APP_SRC (g.src));
  for (i = 0; i < n; i++) {
    const Picture *p = &pictures[i % G_N_ELEMENTS (pictures)];
    GstSample *s = pull_sample (g.sink);
    guint8 *gl = sample_blocks (s, p->width, p->height, i);

    compare (picture_names[p->kind], gl, codes[i], p->width, p->height,
        format, transfers[i / G_N_ELEMENTS (pictures)], GST_BC_QUALITY_FAST,
        TRUE);
    g_free (gl);
    g_free (codes[i]);
    gst_sample_unref (s);
  }
  wait_eos (g.pipeline);
  check_path (g.element, "gl");
  test_pipe_stop (&g);
  g_free (codes);
}

GST_START_TEST (test_argb64_fast_against_cpu)
{
  check_fast ("ARGB64");
}

GST_END_TEST;

GST_START_TEST (test_rgb10a2_fast_against_cpu)
{
  check_fast ("RGB10A2_LE");
}

GST_END_TEST;

/* A 1918x1078 photograph-like PQ frame, as the benchmark encodes */
GST_START_TEST (test_large_frame)
{
  guint16 *codes = hdrtest_codes (HDRTEST_PHOTO,
      GST_VIDEO_TRANSFER_SMPTE2084, 1918, 1078, 7);
  GstSample *s;
  TestPipe g;
  guint8 *gl;

  gl_pipe_start (&g, "bc6henc quality=fast", raw_caps ("ARGB64",
          GST_VIDEO_TRANSFER_SMPTE2084, 1918, 1078));
  gl_pipe_push (&g, frame_buffer (codes, 1918, 1078, "ARGB64", 0));
  gst_app_src_end_of_stream (GST_APP_SRC (g.src));
  s = pull_sample (g.sink);
  gl = sample_blocks (s, 1918, 1078, 0);
  compare ("photograph-like", gl, codes, 1918, 1078, "ARGB64",
      GST_VIDEO_TRANSFER_SMPTE2084, GST_BC_QUALITY_FAST, TRUE);
  gst_sample_unref (s);
  wait_eos (g.pipeline);
  check_path (g.element, "gl");
  test_pipe_stop (&g);
  g_free (gl);
  g_free (codes);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* quality=normal and BC6H-SF on GL against the CPU                        */

/* the pictures of check_gl_quality (): photograph-like, speckled, nearly
 * flat (normal's per-block fallback) and boxes' corners (its two regions);
 * smaller at quality=high (llvmpipe runs its search slowly), whose
 * photograph-like, speckled and corners pictures reach its two regions */
static const Picture quality_pics[] = {
  {HDRTEST_PHOTO, 157, 75},
  {HDRTEST_SPECKLED, 30, 26},
  {HDRTEST_FLAT, 122, 61},
  {HDRTEST_CORNERS, 161, 83},
};

static const Picture high_pics[] = {
  {HDRTEST_PHOTO, 37, 29},
  {HDRTEST_SPECKLED, 30, 26},
  {HDRTEST_FLAT, 22, 13},
  {HDRTEST_CORNERS, 41, 23},
};

/* One pipeline of @format at @quality into @bc (BC6H-SF: downstream takes
 * only that): the pictures of quality_pics (high: high_pics), the
 * transfers in turn, a caps change before each */
static void
check_gl_quality (const gchar * format, GstBcFormat bc, GstBcQuality quality)
{
  const Picture *pics = quality == GST_BC_QUALITY_HIGH ? high_pics :
      quality_pics;
  const guint n = G_N_ELEMENTS (quality_pics);
  guint16 *codes[G_N_ELEMENTS (quality_pics)];
  HdrtestPicture kinds[G_N_ELEMENTS (quality_pics)];
  gchar *desc;
  TestPipe g;
  guint i;

  for (i = 0; i < n; i++) {
    kinds[i] = pics[i].kind == HDRTEST_CORNERS &&
        bc == GST_BC_FORMAT_BC6H_SF ? HDRTEST_CORNERS_SIGNED : pics[i].kind;
    codes[i] = hdrtest_codes (kinds[i], transfers[i % G_N_ELEMENTS
            (transfers)], pics[i].width, pics[i].height, 40 + i);
  }
  desc = g_strdup_printf ("appsrc name=src format=time ! glupload "
      "! bc6henc name=enc quality=%s ! video/x-bc,format=%s "
      "! appsink name=sink sync=false", quality_names[quality],
      gst_bc_format_to_string (bc));
  test_pipe_launch (&g, desc, "enc");
  g_free (desc);
  gl_test_share_display (g.pipeline);
  gl_pipe_set_caps (&g, raw_caps (format, transfers[0], pics[0].width,
          pics[0].height));
  test_pipe_play (&g);
  for (i = 0; i < n; i++) {
    if (i > 0)
      gl_pipe_set_caps (&g, raw_caps (format, transfers[i %
                  G_N_ELEMENTS (transfers)], pics[i].width, pics[i].height));
    gl_pipe_push (&g, frame_buffer (codes[i], pics[i].width, pics[i].height,
            format, i));
  }
  gst_app_src_end_of_stream (GST_APP_SRC (g.src));
  for (i = 0; i < n; i++) {
    GstSample *s = pull_sample (g.sink);
    guint8 *gl = sample_blocks_of (bc, s, pics[i].width, pics[i].height, i);

    compare_of (bc, picture_names[kinds[i]], gl, codes[i], pics[i].width,
        pics[i].height, format, transfers[i % G_N_ELEMENTS (transfers)],
        quality, TRUE);
    g_free (gl);
    g_free (codes[i]);
    gst_sample_unref (s);
  }
  wait_eos (g.pipeline);
  check_path (g.element, "gl");
  test_pipe_stop (&g);
}

/* ---------------------------------------------------------------------- */
/* P010_10LE textures                                                      */

/* P010_10LE GLMemory (glupload's R16 luma and RG16 chroma textures) at
 * every quality, into BC6H and BC6H-SF: the blocks of the CPU's
 * conversion and encoder (gst_bc_encode_rows_hdr_yuv ()) of the same frame
 * with the caps' matrix, range, siting and transfer (PQ; HLG at fast); an
 * odd width, random samples (every clamp) and a picture's, a caps change
 * before each */
GST_START_TEST (test_p010_against_cpu)
{
  static const struct
  {
    guint w, h;
    gboolean random;
    const gchar *colorimetry, *site;
    GstVideoColorMatrix matrix;
    gboolean full;
    GstVideoTransferFunction transfer;
    GstVideoChromaSite csite;
  } cases[] = {
    {158, 76, FALSE, "bt2100-pq", "mpeg2", GST_VIDEO_COLOR_MATRIX_BT2020,
        FALSE, GST_VIDEO_TRANSFER_SMPTE2084, GST_VIDEO_CHROMA_SITE_MPEG2},
    {33, 30, TRUE, "1:3:14:7", "dv", GST_VIDEO_COLOR_MATRIX_BT709, TRUE,
        GST_VIDEO_TRANSFER_SMPTE2084, GST_VIDEO_CHROMA_SITE_DV},
    {62, 18, FALSE, "bt2100-hlg", "jpeg", GST_VIDEO_COLOR_MATRIX_BT2020,
        FALSE, GST_VIDEO_TRANSFER_ARIB_STD_B67, GST_VIDEO_CHROMA_SITE_JPEG},
  };
  /* fast, normal, normal into BC6H-SF, high (each program compiles for
   * seconds on llvmpipe with a cold shader cache: HLG at fast only) */
  static const struct
  {
    GstBcQuality q;
    guint sgn;
  } runs[] = {
    {GST_BC_QUALITY_FAST, 0}, {GST_BC_QUALITY_NORMAL, 0},
    {GST_BC_QUALITY_NORMAL, 1}, {GST_BC_QUALITY_HIGH, 0},
  };
  guint r, i;

  for (r = 0; r < G_N_ELEMENTS (runs); r++) {
    GstBcQuality q = runs[r].q;
    GstBcFormat bc = runs[r].sgn ? GST_BC_FORMAT_BC6H_SF : GST_BC_FORMAT_BC6H;
    const guint n = r == 0 ? G_N_ELEMENTS (cases) : 2;
    GstBuffer *bufs[G_N_ELEMENTS (cases)];
    GstVideoInfo infos[G_N_ELEMENTS (cases)];
    gchar *desc;
    TestPipe g;

    desc = g_strdup_printf ("appsrc name=src format=time ! glupload "
        "! bc6henc name=enc quality=%s ! video/x-bc,format=%s "
        "! appsink name=sink sync=false", quality_names[q],
        gst_bc_format_to_string (bc));
    test_pipe_launch (&g, desc, "enc");
    g_free (desc);
    gl_test_share_display (g.pipeline);
    for (i = 0; i < n; i++) {
      guint8 *pic = cases[i].random ? NULL : test_picture (cases[i].w,
          cases[i].h, 9 + i, 6, TEST_ALPHA_OPAQUE);
      TestYuv *t = test_yuv_new (GST_VIDEO_FORMAT_P010_10LE, cases[i].w,
          cases[i].h, pic, 3 + i);
      guint8 *planes[3] = { NULL, NULL, NULL };
      gsize strides[3];
      GstMapInfo map;
      GstCaps *caps;
      guint p;

      fail_unless (gst_video_info_set_format (&infos[i],
              GST_VIDEO_FORMAT_P010_10LE, cases[i].w, cases[i].h));
      bufs[i] = gst_buffer_new_allocate (NULL,
          GST_VIDEO_INFO_SIZE (&infos[i]), NULL);
      fail_unless (gst_buffer_map (bufs[i], &map, GST_MAP_WRITE));
      for (p = 0; p < 3; p++) {
        strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (&infos[i], p);
        planes[p] = p < 2 ? map.data +
            GST_VIDEO_INFO_PLANE_OFFSET (&infos[i], p) : NULL;
      }
      test_yuv_pack (t, planes, strides);
      gst_buffer_unmap (bufs[i], &map);
      GST_BUFFER_PTS (bufs[i]) = i * FRAME_DURATION;
      GST_BUFFER_DURATION (bufs[i]) = FRAME_DURATION;
      test_yuv_free (t);
      g_free (pic);
      caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
          "P010_10LE", "width", G_TYPE_INT, cases[i].w, "height",
          G_TYPE_INT, cases[i].h, "framerate", GST_TYPE_FRACTION, 30, 1,
          "colorimetry", G_TYPE_STRING, cases[i].colorimetry,
          "chroma-site", G_TYPE_STRING, cases[i].site, NULL);
      gl_pipe_set_caps (&g, caps);
      if (i == 0)
        test_pipe_play (&g);
      gl_pipe_push (&g, gst_buffer_ref (bufs[i]));
    }
    gst_app_src_end_of_stream (GST_APP_SRC (g.src));
    for (i = 0; i < n; i++) {
      GstSample *smp = pull_sample (g.sink);
      guint8 *gl = sample_blocks_of (bc, smp, cases[i].w, cases[i].h, i);
      const guint8 *planes[3] = { NULL, NULL, NULL };
      gsize strides[3] = { 0, 0, 0 };
      GstBcYuvInfo yuv;
      GstVideoFrame vf;
      guint16 *codes = g_new (guint16, (gsize) cases[i].w * cases[i].h * 4);
      gchar *what;
      guint p, y;

      /* the CPU's 16-bit codes of the frame (whose blocks
       * gst_bc_encode_rows_hdr_yuv () writes: libs/bcyuv.c) */
      fail_unless (gst_bc_yuv_info_set (&yuv, GST_VIDEO_FORMAT_P010_10LE,
              cases[i].w, cases[i].h, cases[i].matrix, cases[i].full ?
              GST_VIDEO_COLOR_RANGE_0_255 : GST_VIDEO_COLOR_RANGE_16_235,
              cases[i].csite));
      fail_unless (gst_bc_yuv_info_set_depth (&yuv, 16));
      fail_unless (gst_video_frame_map (&vf, &infos[i], bufs[i],
              GST_MAP_READ));
      for (p = 0; p < 2; p++) {
        planes[p] = GST_VIDEO_FRAME_PLANE_DATA (&vf, p);
        strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE (&vf, p);
      }
      for (y = 0; y < cases[i].h; y++)
        gst_bc_yuv_convert_row (&yuv, planes, strides, y, 0, cases[i].w,
            (guint8 *) (codes + (gsize) y * cases[i].w * 4));
      gst_video_frame_unmap (&vf);
      what = g_strdup_printf ("P010_10LE %s %s", cases[i].colorimetry,
          cases[i].random ? "random" : "picture");
      compare_of (bc, what, gl, codes, cases[i].w, cases[i].h, "RGBA64_LE",
          cases[i].transfer, q, TRUE);
      g_free (what);
      g_free (codes);
      g_free (gl);
      gst_buffer_unref (bufs[i]);
      gst_sample_unref (smp);
    }
    wait_eos (g.pipeline);
    check_path (g.element, "gl");
    test_pipe_stop (&g);
  }
}

GST_END_TEST;

GST_START_TEST (test_argb64_normal_against_cpu)
{
  check_gl_quality ("ARGB64", GST_BC_FORMAT_BC6H, GST_BC_QUALITY_NORMAL);
}

GST_END_TEST;

GST_START_TEST (test_signed_against_cpu)
{
  check_gl_quality ("RGB10A2_LE", GST_BC_FORMAT_BC6H_SF,
      GST_BC_QUALITY_NORMAL);
  check_gl_quality ("ARGB64", GST_BC_FORMAT_BC6H_SF, GST_BC_QUALITY_FAST);
}

GST_END_TEST;

/* quality=high on GL (the CPU's per-block search), BC6H of ARGB64 and
 * BC6H-SF of RGB10A2_LE textures */
GST_START_TEST (test_high_against_cpu)
{
  check_gl_quality ("ARGB64", GST_BC_FORMAT_BC6H, GST_BC_QUALITY_HIGH);
  check_gl_quality ("RGB10A2_LE", GST_BC_FORMAT_BC6H_SF,
      GST_BC_QUALITY_HIGH);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* quality=high, quality changes                                           */

/* Sets the quality of frame k (its PTS) right before the encoder takes
 * it, in the streaming thread, and notes the path property then: the path
 * of frame k - 1 (of frame 0: the caps' and the quality's then) */
typedef struct
{
  GstElement *enc;
  const GstBcQuality *steps;
  guint n;
  gchar *paths[8];
} QualitySteps;

static GstPadProbeReturn
quality_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  QualitySteps *q = data;
  guint k = (guint) (GST_BUFFER_PTS (GST_PAD_PROBE_INFO_BUFFER (info)) /
      FRAME_DURATION);

  if (k < q->n) {
    g_object_get (q->enc, "path", &q->paths[k], NULL);
    g_object_set (q->enc, "quality", q->steps[k], NULL);
  }
  return GST_PAD_PROBE_OK;
}

/* The quality changes between frames (fast, normal, high, fast, high,
 * normal) of GLMemory input: each frame leaves with the CPU's blocks of
 * its quality, in order, every one encoded on GL (the programs of high
 * compiled when it first comes), as the path property says */
GST_START_TEST (test_quality_changes)
{
  static const GstBcQuality steps[] = { GST_BC_QUALITY_FAST,
    GST_BC_QUALITY_NORMAL, GST_BC_QUALITY_HIGH, GST_BC_QUALITY_FAST,
    GST_BC_QUALITY_HIGH, GST_BC_QUALITY_NORMAL
  };
  const guint w = 45, h = 23, n = G_N_ELEMENTS (steps);
  QualitySteps q = { NULL, steps, G_N_ELEMENTS (steps), {NULL,} };
  guint16 *codes[G_N_ELEMENTS (steps)];
  GstPad *pad;
  TestPipe g;
  guint i;

  for (i = 0; i < n; i++)
    codes[i] = hdrtest_codes (i % 2 ? HDRTEST_SPECKLED : HDRTEST_PHOTO,
        GST_VIDEO_TRANSFER_SMPTE2084, w, h, 20 + i);
  test_pipe_launch (&g, "appsrc name=src format=time ! glupload "
      "! bc6henc name=enc quality=normal ! appsink name=sink sync=false",
      "enc");
  gl_test_share_display (g.pipeline);
  gl_pipe_set_caps (&g, raw_caps ("ARGB64", GST_VIDEO_TRANSFER_SMPTE2084, w,
          h));
  q.enc = g.element;
  pad = gst_element_get_static_pad (g.element, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, quality_probe, &q, NULL);
  gst_object_unref (pad);
  test_pipe_play (&g);

  for (i = 0; i < n; i++)
    gl_pipe_push (&g, frame_buffer (codes[i], w, h, "ARGB64", i));
  gst_app_src_end_of_stream (GST_APP_SRC (g.src));
  for (i = 0; i < n; i++) {
    GstSample *s = pull_sample (g.sink);
    guint8 *out = sample_blocks (s, w, h, i);

    compare ("frame", out, codes[i], w, h, "ARGB64",
        GST_VIDEO_TRANSFER_SMPTE2084, steps[i], TRUE);
    g_free (out);
    gst_sample_unref (s);
  }
  wait_eos (g.pipeline);
  /* before frame 0: GLMemory caps, the GL path */
  for (i = 0; i < n; i++)
    fail_unless_equals_string (q.paths[i], "gl");
  check_path (g.element, "gl");
  test_pipe_stop (&g);
  for (i = 0; i < n; i++) {
    g_free (codes[i]);
    g_free (q.paths[i]);
  }
}

GST_END_TEST;

/* quality=fast: frame 0 is kept back until frame 1 comes, the last one
 * until EOS; the path is "gl" from the caps on */
GST_START_TEST (test_eos_drains_kept_frame)
{
  guint16 *codes = hdrtest_codes (HDRTEST_PHOTO,
      GST_VIDEO_TRANSFER_ARIB_STD_B67, 64, 48, 3);
  TestPipe g;
  GstSample *s;
  guint i;

  gl_pipe_start (&g, "bc6henc quality=fast", raw_caps ("RGB10A2_LE",
          GST_VIDEO_TRANSFER_ARIB_STD_B67, 64, 48));
  gl_pipe_push (&g, frame_buffer (codes, 64, 48, "RGB10A2_LE", 0));
  s = gst_app_sink_try_pull_sample (GST_APP_SINK (g.sink), GST_SECOND / 2);
  fail_unless (s == NULL, "the GL path did not keep the frame back");
  gl_pipe_push (&g, frame_buffer (codes, 64, 48, "RGB10A2_LE", 1));
  s = pull_sample (g.sink);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (gst_sample_get_buffer (s)), 0);
  gst_sample_unref (s);
  check_path (g.element, "gl");
  gl_pipe_push (&g, frame_buffer (codes, 64, 48, "RGB10A2_LE", 2));
  gst_app_src_end_of_stream (GST_APP_SRC (g.src));
  for (i = 1; i < 3; i++) {
    guint8 *out;

    s = pull_sample (g.sink);
    out = sample_blocks (s, 64, 48, i);
    compare ("photograph-like", out, codes, 64, 48, "RGB10A2_LE",
        GST_VIDEO_TRANSFER_ARIB_STD_B67, GST_BC_QUALITY_FAST, TRUE);
    g_free (out);
    gst_sample_unref (s);
  }
  wait_eos (g.pipeline);
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (g.sink)));
  test_pipe_stop (&g);
  g_free (codes);
}

GST_END_TEST;

/* The latency of a live source through the GL path: the frame kept back,
 * reported whatever the quality (it can become fast while playing); none
 * on the CPU path */
GST_START_TEST (test_latency)
{
  static const gchar *const descs[] = {
    "videotestsrc is-live=true ! video/x-raw,format=ARGB64,width=64,"
        "height=48,framerate=30/1,colorimetry=1:1:14:7 ! glupload "
        "! bc6henc name=enc quality=fast ! fakesink name=sink",
    "videotestsrc is-live=true ! video/x-raw,format=ARGB64,width=64,"
        "height=48,framerate=30/1,colorimetry=1:1:14:7 ! glupload "
        "! bc6henc name=enc quality=normal ! fakesink name=sink",
    "videotestsrc is-live=true ! video/x-raw,format=RGBA64_LE,width=64,"
        "height=48,framerate=30/1 ! bc6henc name=enc quality=fast "
        "! fakesink name=sink",
  };
  GstClockTime frame = gst_util_uint64_scale (GST_SECOND, 1, 30);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (descs); i++) {
    GstElement *p = launch (descs[i]), *enc = get (p, "enc");
    GstClockTime min = 0, max = 0;

    gl_test_share_display (p);
    play (p);
    fail_unless_equals_int (gst_element_get_state (p, NULL, NULL,
            PULL_TIMEOUT), GST_STATE_CHANGE_SUCCESS);
    gst_video_encoder_get_latency (GST_VIDEO_ENCODER (enc), &min, &max);
    note ("%s: latency %" GST_TIME_FORMAT "\n", i == 2 ? "CPU caps" :
        "GLMemory caps", GST_TIME_ARGS (min));
    fail_unless_equals_uint64 (min, i < 2 ? frame : 0);
    fail_unless_equals_uint64 (max, i < 2 ? frame : 0);
    gst_object_unref (enc);
    stop (p);
  }
}

GST_END_TEST;

/* The sink template offers the GLMemory formats (2D textures) first,
 * then system memory's, and nothing else */
GST_START_TEST (test_template)
{
  GstElementFactory *f = gst_element_factory_find ("bc6henc");
  GstCaps *caps = NULL, *gl;
  const GList *l;

  fail_unless (f != NULL);
  for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;

    if (t->direction == GST_PAD_SINK)
      caps = gst_static_pad_template_get_caps (t);
  }
  fail_unless (caps != NULL);
  gl = gst_caps_from_string (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
      (GST_CAPS_FEATURE_MEMORY_GL_MEMORY, "{ ARGB64, RGB10A2_LE, P010_10LE }")
      ", texture-target = (string) 2D; "
      GST_VIDEO_CAPS_MAKE ("{ RGBA64_LE, RGB10A2_LE, P010_10LE, v210 }"));
  fail_unless (gst_caps_is_subset (gl, caps), "%" GST_PTR_FORMAT, caps);
  fail_unless (gst_caps_is_subset (caps, gl), "%" GST_PTR_FORMAT, caps);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          GST_CAPS_FEATURE_MEMORY_GL_MEMORY));
  gst_caps_unref (gl);
  gst_caps_unref (caps);
  gst_object_unref (f);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* GL contexts (child processes)                                           */

/* Every kind of context: OpenGL core (the default here), compatibility,
 * OpenGL ES 3.2 and 3.1 (Mesa made to report 3.1: GLSL ES 3.10, no
 * `precise`): videotestsrc's ARGB64 through glupload gives the bytes the
 * CPU path writes for its RGBA64_LE frames (the same 16-bit codes), PQ and
 * HLG, at quality fast and normal, PQ at high; OpenGL 4.2 (no compute
 * shaders): GLMemory is not offered, straight after glupload the pipeline
 * does not negotiate */
GST_START_TEST (test_gl_apis)
{
  static const gchar *const envs[][5] = {
    {"GST_GL_API", "opengl3", NULL},
    {"GST_GL_API", "opengl", NULL},
    {"GST_GL_API", "gles2", NULL},
    {"GST_GL_API", "gles2", "MESA_GLES_VERSION_OVERRIDE", "3.1", NULL},
  };
  static const gchar *const no_compute[] = {
    "MESA_GL_VERSION_OVERRIDE", "4.2", NULL
  };
  static const gchar *const colorimetries[] = { "1:1:14:7", "1:1:15:7" };
  gchar *dir = g_dir_make_tmp ("bc6hencgl-XXXXXX", NULL);
  gchar *cpu_file = g_build_filename (dir, "cpu.bc6h", NULL);
  gchar *gl_file = g_build_filename (dir, "gl.bc6h", NULL);
  gchar *desc, *out;
  guint c, i;

  fail_unless (dir != NULL);
  for (c = 0; c < 2 * G_N_ELEMENTS (colorimetries) + 1; c++) {
    /* PQ and HLG at quality=fast, then at normal, then PQ at high */
    const gchar *quality = c < G_N_ELEMENTS (colorimetries) ? "fast" :
        (c < 2 * G_N_ELEMENTS (colorimetries) ? "normal" : "high");
    const gchar *cm = colorimetries[c % G_N_ELEMENTS (colorimetries)];
    gchar *cpu = NULL;
    gsize cpu_len = 0;

    desc = g_strdup_printf ("videotestsrc num-buffers=2 pattern=zone-plate "
        "kx2=20 ky2=20 kt=1 ! video/x-raw,format=RGBA64_LE,width=70,"
        "height=38,colorimetry=%s ! bc6henc name=enc quality=%s "
        "! filesink location=%s", cm, quality, cpu_file);
    out = run_child (desc, envs[0] + 2);
    fail_unless (g_str_has_prefix (out, "ok cpu"), "child said: %s", out);
    fail_unless (g_file_get_contents (cpu_file, &cpu, &cpu_len, NULL));
    fail_unless_equals_uint64 (cpu_len, 2 * 18 * 10 * 16);
    g_free (out);
    g_free (desc);
    for (i = 0; i < G_N_ELEMENTS (envs); i++) {
      gchar *gl = NULL;
      gsize gl_len = 0;

      desc = g_strdup_printf ("videotestsrc num-buffers=2 pattern=zone-plate "
          "kx2=20 ky2=20 kt=1 ! video/x-raw,format=ARGB64,width=70,"
          "height=38,colorimetry=%s ! glupload ! bc6henc name=enc "
          "quality=%s ! filesink location=%s", cm, quality, gl_file);
      out = run_child (desc, envs[i]);
      note ("%s %s, %s%s%s: %s", cm, quality, envs[i][1], envs[i][2] ?
          " " : "", envs[i][2] ? envs[i][3] : "", out);
      fail_unless (g_str_has_prefix (out, "ok gl"), "%s: %s", envs[i][1], out);
      fail_unless (g_file_get_contents (gl_file, &gl, &gl_len, NULL));
      fail_unless_equals_uint64 (gl_len, cpu_len);
      if (ieee_renderer)
        fail_unless (memcmp (gl, cpu, cpu_len) == 0, "%s %s on %s%s%s: the "
            "GL blocks differ from the CPU's", cm, quality, envs[i][1],
            envs[i][2] ? " " : "", envs[i][2] ? envs[i][3] : "");
      g_unlink (gl_file);
      g_free (gl);
      g_free (desc);
      g_free (out);
    }
    g_unlink (cpu_file);
    g_free (cpu);
  }

  out = run_child ("videotestsrc num-buffers=2 ! video/x-raw,format=ARGB64,"
      "width=64,height=48 ! glupload ! bc6henc name=enc quality=fast "
      "! fakesink", no_compute);
  note ("no compute, glupload ! bc6henc: %s", out);
  fail_unless (g_str_has_prefix (out, "error: ") && strstr (out,
          "not-negotiated"), "child said: %s", out);
  g_free (out);

  g_rmdir (dir);
  g_free (dir);
  g_free (cpu_file);
  g_free (gl_file);
}

GST_END_TEST;

static Suite *
bc6hencgl_suite (void)
{
  Suite *s = suite_create ("bc6hencgl");
  TCase *tc = test_suite_add_general (s, 300);

  tcase_add_checked_fixture (tc, gl_test_pin_driver, gl_test_release_display);
  tcase_add_test (tc, test_template);
  tcase_add_test (tc, test_argb64_fast_against_cpu);
  tcase_add_test (tc, test_rgb10a2_fast_against_cpu);
  tcase_add_test (tc, test_large_frame);
  tcase_add_test (tc, test_argb64_normal_against_cpu);
  tcase_add_test (tc, test_p010_against_cpu);
  tcase_add_test (tc, test_signed_against_cpu);
  tcase_add_test (tc, test_high_against_cpu);
  tcase_add_test (tc, test_quality_changes);
  tcase_add_test (tc, test_eos_drains_kept_frame);
  tcase_add_test (tc, test_latency);
  tcase_add_test (tc, test_gl_apis);
  return s;
}

int
main (int argc, char **argv)
{
  gchar *renderer;

  gl_test_init (argc, argv);
  test_child_main (argc, argv, gl_test_child_run);
  if (!gl_test_check_init (&argc, &argv, &renderer))
    return 77;
  ieee_renderer = strstr (renderer, "llvmpipe") != NULL;
  note ("GL_RENDERER %s: blocks %s\n", renderer, ieee_renderer ?
      "must be bit-identical to the CPU's" : "compared by mPSNR");
  g_free (renderer);

  test_debug_gl_errors ("bcencgl");
  test_trace_states ();

  return gst_check_run_suite (bc6hencgl_suite (), "bc6hencgl", __FILE__);
}
