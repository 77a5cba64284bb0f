/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The GL compute path of bc1enc, bc3enc and bc7enc on a headless GL context
 * (Mesa llvmpipe through GST_GL_PLATFORM=egl GST_GL_WINDOW=egl-device): its
 * blocks against the CPU encoder's (the library's, which bcenc.c checks
 * the CPU path against) on photographs and odd sizes for every format and
 * quality (BC7 also with a synthetic alpha channel, which the photographs
 * lack), BC1's c0 > c1, input formats (YUV from glupload: the CPU
 * path's bytes), the full GPU pipeline through
 * glbcupload, caps and quality changes mid-stream, the frame kept back and
 * EOS, the latency, a context without compute shaders (fallback to
 * gldownload and the CPU) and a shader the driver does not compile.
 *
 * Bit-identity: on an implementation with IEEE single-precision add,
 * subtract, multiply and divide (llvmpipe) the GL blocks are the CPU's
 * bit for bit, for every format and quality, and that is asserted there.
 * Elsewhere (GLSL allows division within 2.5 ULP) the decoded PSNR must
 * stay within 0.1 dB of the CPU's, and BC1, YCoCg-BC3 and the alpha
 * halves of BC3 at quality=fast, which are integer-only, must be
 * identical.
 * BC7 has no integer-only part.
 *
 * Exits 77 (skipped) only when no GL context can be created at all. The
 * encoder checks glGetError () with its debug category at DEBUG, which
 * this test sets: a GL error becomes a WARNING message, and any WARNING or
 * ERROR message fails the test. */

#ifdef __SANITIZE_ADDRESS__
#define _GNU_SOURCE             /* dl_iterate_phdr () */
#endif

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/app/app.h>
#include <gst/gl/gl.h>
#include <gst/gl/gstglfuncs.h>
#include <glib/gstdio.h>

#include <dlfcn.h>
#include <unistd.h>

#define PULL_TIMEOUT (60 * GST_SECOND)
#define FRAME_DURATION (GST_SECOND / 30)
#define PSNR_BOUND 0.1

#include "gstbctest.h"
#include "gltest.h"

/* GL_RENDERER is llvmpipe: IEEE float, blocks asserted bit-identical */
static gboolean ieee_renderer;

#define note(...) g_print ("bcencgl: " __VA_ARGS__)

/* ---------------------------------------------------------------------- */
/* pictures                                                                */

/* A photograph that benchmarks/photos.py cached (not in the repository),
 * else a deterministic picture of the same size. "saturated" is that
 * picture at three times the contrast with black and white specks: many
 * pixels at 0 and 255, for the 6-value mode of BC4 and BC5. "subsets" is
 * opaque and drawn block by block on BC7's three-subset partitions (the
 * partition of the block's index): three colours far apart, flat in odd
 * blocks, in even ones ramps of eight levels, so that the three-subset
 * modes 2 and 0 win where photographs are not at hand (the fallback
 * picture has alpha, which those modes cannot code). */
static guint8 *
subsets_picture (guint width, guint height)
{
  const guint8 *partitions3;
  guint8 *p = g_malloc ((gsize) width * height * 4);
  guint32 state = 5;
  guint bx, by, x, y, s, c;

  gst_bc_encode_bc7_tables (NULL, &partitions3, NULL, NULL, NULL, NULL);
  for (by = 0; by < (height + 3) / 4; by++) {
    for (bx = 0; bx < (width + 3) / 4; bx++) {
      guint b = by * ((width + 3) / 4) + bx;
      const guint8 *part = partitions3 + (b % 64) * 16;
      guint8 colour[3][3];

      for (s = 0; s < 3; s++)
        for (c = 0; c < 3; c++)
          colour[s][c] = (guint8) (c == s ? 170 + test_lcg_next (&state) % 80 :
              test_lcg_next (&state) % 80);
      for (y = by * 4; y < MIN (by * 4 + 4, height); y++) {
        for (x = bx * 4; x < MIN (bx * 4 + 4, width); x++) {
          guint i = (y % 4) * 4 + x % 4;
          guint8 *px = p + ((gsize) y * width + x) * 4;
          gint ramp = b % 2 ? 0 : (gint) (i % 8) * 9;

          for (c = 0; c < 3; c++)
            px[c] = (guint8) CLAMP (colour[part[i]][c] - 32 + ramp, 0, 255);
          px[3] = 255;
        }
      }
    }
  }
  return p;
}

static guint8 *
load_picture (const gchar * name, guint width, guint height, gboolean * photo)
{
  guint8 *p;

  *photo = FALSE;
  if (strcmp (name, "subsets") == 0)
    return subsets_picture (width, height);
  if (strcmp (name, "saturated") == 0) {
    gsize i;

    p = test_picture (width, height, 11, 6, TEST_ALPHA_RAMP);
    for (i = 0; i < (gsize) width * height * 4; i++)
      p[i] = CLAMP (((gint) p[i] - 128) * 3 + 128, 0, 255);
    /* and black and white specks on every third block */
    for (i = 0; i < (gsize) width * height; i++) {
      gsize x = i % width, y = i / width;

      if ((x / 4 + y / 4) % 3 == 0 && (x + 2 * y) % 5 < 2)
        memset (p + i * 4, (x + 2 * y) % 5 == 0 ? 0 : 255, 3);
    }
    return p;
  }
  p = test_load_photo (name, width, height);
  *photo = p != NULL;
  return p ? p : test_picture (width, height, width ^ height, 6,
      TEST_ALPHA_RAMP);
}

/* PSNR of @blocks decoded, against what the format encodes of @rgba: RGB
 * (BC1, YCoCg-BC3), RGBA (BC3, BC7), the luma (BC4), red and green (BC5) */
static gdouble
psnr (const GstBcInfo * info, const guint8 * blocks, const guint8 * rgba)
{
  guint8 *dec = test_decode (info, blocks);
  guint nc = info->format == GST_BC_FORMAT_BC3 ||
      info->format == GST_BC_FORMAT_BC7 ? 4 :
      (info->format == GST_BC_FORMAT_BC5 ? 2 :
      (info->format == GST_BC_FORMAT_BC4 ? 1 : 3));
  gsize i, n = (gsize) info->width * info->height;
  gdouble se;

  if (info->format == GST_BC_FORMAT_BC4) {
    guint8 *luma = g_malloc (n);

    for (i = 0; i < n; i++)
      luma[i] = test_luma (rgba + i * 4);
    se = test_sse (dec, luma, 1, n, 0, 1);
    g_free (luma);
  } else {
    se = test_sse (dec, rgba, 4, n, 0, nc);
  }
  g_free (dec);
  return test_psnr (se, nc * n);
}

/* ---------------------------------------------------------------------- */
/* pipelines                                                               */

static GstCaps *
raw_caps (const gchar * format, guint width, guint height)
{
  return gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, format,
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height, "framerate",
      GST_TYPE_FRACTION, 30, 1, NULL);
}

/* @rgba converted to the 4-byte @format (packed rows) */
static GstBuffer *
picture_buffer (const guint8 * rgba, guint width, guint height,
    const gchar * format, guint index)
{
  GstBcPixelLayout lo;
  GstBuffer *buf;
  GstMapInfo map;

  fail_unless (gst_bc_pixel_layout_from_video_format (&lo,
          gst_video_format_from_string (format)));
  fail_unless_equals_int (lo.bpp, 4);
  buf = gst_buffer_new_allocate (NULL, (gsize) width * height * 4, NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  test_picture_to_layout (rgba, width, height, &lo, map.data,
      (gsize) width * 4);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = index * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  return buf;
}

/* After EOS: waits for it, checks that the GL path encoded, stops */
static void
gl_pipe_finish (TestPipe * g)
{
  gchar *path;

  wait_eos (g->pipeline);
  path = gl_test_enc_path (g->element);
  fail_unless_equals_string (path, "gl");
  g_free (path);
  test_pipe_stop (g);
}

/* The sample's blocks, checked against the caps of @format and size */
static guint8 *
sample_blocks (GstSample * s, GstBcFormat format, guint width, guint height)
{
  GstBcInfo info;
  GstMapInfo map;
  guint8 *data;

  fail_unless (gst_bc_info_from_caps (&info, gst_sample_get_caps (s)));
  fail_unless_equals_int (info.format, format);
  fail_unless_equals_int (info.width, width);
  fail_unless_equals_int (info.height, height);
  fail_unless (gst_buffer_map (gst_sample_get_buffer (s), &map, GST_MAP_READ));
  fail_unless_equals_uint64 (map.size, info.size);
  data = g_memdup2 (map.data, map.size);
  gst_buffer_unmap (gst_sample_get_buffer (s), &map);
  return data;
}

/* ---------------------------------------------------------------------- */
/* GL against CPU                                                          */

typedef struct
{
  const gchar *name;
  guint width, height;
} Picture;

static const Picture pictures[] = {
  {"dragonfly_crop", 30, 26},
  {"bridge_crop", 1918, 1078},
  {"saturated", 67, 45},
  {"subsets", 64, 32},
};

/* BC7 with alpha: smaller pictures, an alpha channel of their own (opaque
 * on two blocks in seven, where the modes without alpha compete) */
static const Picture alpha_pictures[] = {
  {"dragonfly_crop", 30, 26},
  {"life_crop", 129, 67},
  {"subsets", 64, 32},
};

static const gchar *const quality_names[] = { "fast", "normal", "high" };

/* Compares GL blocks with the CPU's: PSNR delta, identical blocks */
static void
compare (const gchar * what, const GstBcInfo * info, const guint8 * gl,
    const guint8 * cpu, const guint8 * rgba, GstBcQuality quality)
{
  gsize i, n = info->size / info->block_bytes, differ = 0;
  gdouble p_gl = psnr (info, gl, rgba), p_cpu = psnr (info, cpu, rgba);

  for (i = 0; i < n; i++)
    if (memcmp (gl + i * info->block_bytes, cpu + i * info->block_bytes,
            info->block_bytes) != 0)
      differ++;
  note ("%-44s %-9s %-6s %4ux%-4u PSNR CPU %.3f GL %.3f dB (%+.4f), "
      "%" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " blocks differ\n", what,
      gst_bc_format_to_string (info->format), quality_names[quality],
      info->width, info->height, p_cpu, p_gl, p_gl - p_cpu, differ, n);

  fail_unless (fabs (p_gl - p_cpu) <= PSNR_BOUND, "%s: GL %.3f dB, CPU %.3f "
      "dB", what, p_gl, p_cpu);
  if (ieee_renderer)
    fail_unless (differ == 0, "%s %s %s: %" G_GSIZE_FORMAT " blocks differ "
        "on an IEEE-float renderer", what,
        gst_bc_format_to_string (info->format), quality_names[quality], differ);
  /* integer-only everywhere: BC1 and YCoCg-BC3 at quality=fast */
  if ((info->format == GST_BC_FORMAT_BC1 ||
          info->format == GST_BC_FORMAT_YCOCG_BC3) &&
      quality == GST_BC_QUALITY_FAST)
    fail_unless (differ == 0, "%s %s fast: %" G_GSIZE_FORMAT " blocks "
        "differ", what, gst_bc_format_to_string (info->format), differ);
  /* and the alpha / luma block at quality=fast */
  if ((info->format == GST_BC_FORMAT_BC3 ||
          info->format == GST_BC_FORMAT_YCOCG_BC3) &&
      quality == GST_BC_QUALITY_FAST)
    for (i = 0; i < n; i++)
      fail_unless (memcmp (gl + i * 16, cpu + i * 16, 8) == 0,
          "%s: alpha block %" G_GSIZE_FORMAT " differs", what, i);
}

/* BC1: every block in 4-colour mode, c0 > c1 */
static void
check_c0_gt_c1 (const GstBcInfo * info, const guint8 * blocks)
{
  gsize i;

  for (i = 0; i < info->size; i += 8) {
    guint c0 = blocks[i] | (blocks[i + 1] << 8);
    guint c1 = blocks[i + 2] | (blocks[i + 3] << 8);

    fail_unless (c0 > c1, "block %" G_GSIZE_FORMAT ": c0 %04x <= c1 %04x",
        i / 8, c0, c1);
  }
}

/* BC4 and BC5: the number of (one-channel) blocks in 6-value mode,
 * a0 <= a1, that are not flat */
static gsize
count_six_value_blocks (const GstBcInfo * info, const guint8 * blocks)
{
  gsize i, n = 0;

  for (i = 0; i < info->size; i += 8)
    if (blocks[i] < blocks[i + 1])
      n++;
  return n;
}

/* BC7: the modes used by @blocks, bit m for mode m (bit 8: the reserved
 * mode, all-zero first byte) */
static guint
bc7_modes_used (const GstBcInfo * info, const guint8 * blocks)
{
  gsize i;
  guint used = 0, m;

  for (i = 0; i < info->size; i += 16) {
    for (m = 0; m < 8 && !(blocks[i] & (1 << m)); m++);
    used |= 1 << m;
  }
  return used;
}

/* A synthetic alpha channel over @rgba, by 4x4 block (the blocks of the
 * encoders, whatever the picture's position): opaque blocks, blocks of one
 * other alpha, of 0, ramps, noise, and blocks with a single pixel below
 * 255 */
static void
add_alpha (guint8 * rgba, guint width, guint height)
{
  guint32 state = 77;
  guint x, y;

  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      guint8 *a = rgba + ((gsize) y * width + x) * 4 + 3;
      guint kind = ((x / 4) * 5 + (y / 4) * 3) % 7;
      guint n = test_lcg_next (&state) & 0xff;

      switch (kind) {
        case 0:
        case 1:
          *a = 255;
          break;
        case 2:
          *a = 200;
          break;
        case 3:
          *a = 0;
          break;
        case 4:
          *a = (guint8) (x * 16 + y * 9);
          break;
        case 5:
          *a = (guint8) n;
          break;
        default:
          *a = x % 4 == 1 && y % 4 == 2 ? 254 : 255;
          break;
      }
    }
  }
}

/* One pipeline per quality; the pictures follow each other with a caps
 * change between them. @alpha: the pictures of @set get add_alpha (). */
static void
check_pictures_against_cpu (guint e, const Picture * set, guint n_pics,
    gboolean alpha)
{
  GstBcFormat format = test_encoders[e].format;
  guint q, s;

  for (q = 0; q < 3; q++) {
    gchar *desc = g_strdup_printf ("%s quality=%s", test_encoders[e].enc,
        quality_names[q]);
    TestPipe g;
    guint modes = 0;
    guint8 **pics = g_new (guint8 *, n_pics);
    gboolean *photo = g_new (gboolean, n_pics);

    for (s = 0; s < n_pics; s++) {
      pics[s] = load_picture (set[s].name, set[s].width,
          set[s].height, &photo[s]);
      if (alpha)
        add_alpha (pics[s], set[s].width, set[s].height);
    }

    gl_pipe_start (&g, desc, raw_caps ("RGBA", set[0].width, set[0].height));
    for (s = 0; s < n_pics; s++) {
      if (s > 0)
        gl_pipe_set_caps (&g, raw_caps ("RGBA", set[s].width, set[s].height));
      gl_pipe_push (&g, picture_buffer (pics[s], set[s].width,
              set[s].height, "RGBA", s));
    }
    gst_app_src_end_of_stream (GST_APP_SRC (g.src));

    for (s = 0; s < n_pics; s++) {
      GstSample *sample = pull_sample (g.sink);
      guint8 *gl = sample_blocks (sample, format, set[s].width,
          set[s].height);
      GstBcInfo info;
      guint8 *cpu = test_encode (format, q, pics[s], &test_rgba_layout,
          set[s].width, set[s].height, &info);
      gchar *what = g_strdup_printf ("%s %s%s", photo[s] ? "photograph" :
          "synthetic picture", set[s].name, alpha ? " + alpha" : "");

      compare (what, &info, gl, cpu, pics[s], q);
      if (format == GST_BC_FORMAT_BC1)
        check_c0_gt_c1 (&info, gl);
      /* the 6-value mode is covered (normal and high try it) */
      if ((format == GST_BC_FORMAT_BC4 || format == GST_BC_FORMAT_BC5) &&
          q != GST_BC_QUALITY_FAST && !strcmp (set[s].name, "saturated"))
        fail_unless (count_six_value_blocks (&info, gl) > 0,
            "no 6-value block in %s", set[s].name);
      if (format == GST_BC_FORMAT_BC7)
        modes |= bc7_modes_used (&info, gl);
      g_free (what);
      g_free (gl);
      g_free (cpu);
      gst_sample_unref (sample);
    }
    gl_pipe_finish (&g);
    /* the modes of the quality are all covered: 6 (and 5 for solid
     * blocks), the two-subset modes from normal, the three-subset ones at
     * high; never the reserved mode */
    if (format == GST_BC_FORMAT_BC7) {
      GST_INFO ("%s: BC7 modes used 0x%03x", desc, modes);
      fail_unless (modes & (1 << 6));
      fail_if (modes & (1 << 8), "%s: reserved mode", desc);
      if (q >= GST_BC_QUALITY_NORMAL)
        fail_unless (modes & (1 << 1) && modes & (1 << 3), "%s: modes 0x%03x",
            desc, modes);
      if (q >= GST_BC_QUALITY_HIGH)
        fail_unless (modes & (1 << 0) && modes & (1 << 2), "%s: modes 0x%03x",
            desc, modes);
    }
    for (s = 0; s < n_pics; s++)
      g_free (pics[s]);
    g_free (pics);
    g_free (photo);
    g_free (desc);
  }
}

static void
check_against_cpu (guint e)
{
  check_pictures_against_cpu (e, pictures, G_N_ELEMENTS (pictures), FALSE);
}

GST_START_TEST (test_bc1_against_cpu)
{
  check_against_cpu (0);
}

GST_END_TEST;

GST_START_TEST (test_bc3_against_cpu)
{
  check_against_cpu (1);
}

GST_END_TEST;

GST_START_TEST (test_ycocg_bc3_against_cpu)
{
  check_against_cpu (2);
}

GST_END_TEST;

GST_START_TEST (test_bc4_against_cpu)
{
  check_against_cpu (3);
}

GST_END_TEST;

GST_START_TEST (test_bc5_against_cpu)
{
  check_against_cpu (4);
}

GST_END_TEST;

/* every BC7 mode the qualities write (6; 1, 3; 0, 2; 5 for solid blocks),
 * on opaque photographs and, for the alpha paths (mode 6 with alpha
 * endpoints, opaque and non-opaque blocks side by side), with alpha */
GST_START_TEST (test_bc7_against_cpu)
{
  check_against_cpu (5);
  check_pictures_against_cpu (5, alpha_pictures,
      G_N_ELEMENTS (alpha_pictures), TRUE);
}

GST_END_TEST;

/* Every GLMemory input format reads its channels right */
GST_START_TEST (test_input_formats)
{
  static const gchar *const formats[] = { "RGBA", "RGBx", "BGRA", "BGRx" };
  guint f;
  guint8 *pic = test_picture (61, 35, 5, 6, TEST_ALPHA_RAMP);

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    TestPipe g;
    GstSample *sample;
    GstBcInfo info;
    guint8 *gl, *cpu, *ref = g_memdup2 (pic, 61 * 35 * 4);
    gsize i;

    /* formats without alpha read as opaque */
    if (formats[f][3] == 'x')
      for (i = 0; i < 61 * 35; i++)
        ref[i * 4 + 3] = 255;
    gl_pipe_start (&g, "bc3enc ycocg=false quality=fast",
        raw_caps (formats[f], 61, 35));
    gl_pipe_push (&g, picture_buffer (pic, 61, 35, formats[f], 0));
    gst_app_src_end_of_stream (GST_APP_SRC (g.src));
    sample = pull_sample (g.sink);
    gl = sample_blocks (sample, GST_BC_FORMAT_BC3, 61, 35);
    cpu = test_encode (GST_BC_FORMAT_BC3, GST_BC_QUALITY_FAST, ref,
        &test_rgba_layout, 61, 35, &info);
    compare (formats[f], &info, gl, cpu, ref, GST_BC_QUALITY_FAST);
    gst_sample_unref (sample);
    wait_eos (g.pipeline);
    test_pipe_stop (&g);
    g_free (gl);
    g_free (cpu);
    g_free (ref);
  }
  g_free (pic);
}

GST_END_TEST;

/* YUV from glupload: NV12 (4:2:0, two textures) and UYVY (4:2:2, one
 * texture of two bytes a pixel), also I420, YUY2 and P010_10LE, with and
 * without colorimetry in the caps, into bc1enc on the GL path: the bytes
 * bc1enc's CPU path writes for the same buffer. Packed 4:2:2 at an even
 * width: an odd-width texture of glupload lacks the last pair's V
 * (libs/bcglencode.c checks what the shader takes instead). 4:2:0 at an
 * even height: GStreamer 1.22's glupload uploads the chroma of an
 * odd-height 4:2:0 frame from the wrong offset (the luma's rows, not
 * GstVideoInfo's even-rounded plane offset), docs/elements.md. */
static guint8 *
encode_yuv (const gchar * pipe_desc, const gchar * caps_str,
    const guint8 * data, gsize size, const gchar * path_expected, guint w,
    guint h)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstSample *sample;
  GstBuffer *buf;
  TestPipe g;
  gchar *path;
  guint8 *blocks;

  test_pipe_launch (&g, pipe_desc, "enc");
  gl_test_share_display (g.pipeline);
  g_object_set (g.src, "caps", caps, NULL);
  gst_caps_unref (caps);
  test_pipe_play (&g);
  buf = gst_buffer_new_memdup (data, size);
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  gl_pipe_push (&g, buf);
  gst_app_src_end_of_stream (GST_APP_SRC (g.src));
  sample = pull_sample (g.sink);
  blocks = sample_blocks (sample, GST_BC_FORMAT_BC1, w, h);
  gst_sample_unref (sample);
  wait_eos (g.pipeline);
  path = gl_test_enc_path (g.element);
  fail_unless_equals_string (path, path_expected);
  g_free (path);
  test_pipe_stop (&g);
  return blocks;
}

GST_START_TEST (test_yuv_input)
{
  static const struct
  {
    const gchar *format;
    guint w, h;
    const gchar *colorimetry;   /* NULL: none in the caps */
  } cases[] = {
    {"NV12", 61, 34, NULL}, {"NV12", 130, 66, "bt709"},
    {"UYVY", 62, 35, NULL}, {"UYVY", 18, 9, "1:4:0:0"},
    {"I420", 17, 10, "bt2020"}, {"YUY2", 40, 7, "bt601"},
    {"P010_10LE", 33, 30, "bt2020"},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    guint w = cases[c].w, h = cases[c].h;
    GstVideoInfo vinfo;
    GstBcInfo info;
    guint8 *data, *gl, *cpu;
    gchar *caps_str;
    gsize i;
    guint32 state = c + 1;

    fail_unless (gst_video_info_set_format (&vinfo,
            gst_video_format_from_string (cases[c].format), w, h));
    data = g_malloc (vinfo.size);
    for (i = 0; i < vinfo.size; i++) {
      state = state * 1664525u + 1013904223u;
      data[i] = state >> 24;
    }
    /* random samples: every clamp of the conversion */
    caps_str = g_strdup_printf ("video/x-raw, format=%s, width=%u, "
        "height=%u, framerate=30/1%s%s", cases[c].format, w, h,
        cases[c].colorimetry ? ", colorimetry=" : "",
        cases[c].colorimetry ? cases[c].colorimetry : "");
    gl = encode_yuv ("appsrc name=src format=time ! glupload ! bc1enc "
        "name=enc ! appsink name=sink sync=false", caps_str, data,
        vinfo.size, "gl", w, h);
    cpu = encode_yuv ("appsrc name=src format=time ! bc1enc name=enc "
        "! appsink name=sink sync=false", caps_str, data, vinfo.size, "cpu",
        w, h);
    gst_bc_info_init (&info);
    fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1, w, h));
    for (i = 0; i < info.size && gl[i] == cpu[i]; i++);
    fail_unless (i == info.size, "%s: GL bytes differ from the CPU "
        "element's at %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT, caps_str, i,
        info.size);
    note ("%s: GL path, the CPU path's %" G_GSIZE_FORMAT " bytes\n",
        caps_str, info.size);
    g_free (caps_str);
    g_free (gl);
    g_free (cpu);
    g_free (data);
  }
}

GST_END_TEST;

/* Interlaced 4:2:0 in GLMemory is refused as on the CPU path */
GST_START_TEST (test_yuv_interlaced_refused)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw, format=NV12, "
      "width=16, height=8, framerate=30/1, interlace-mode=interleaved");
  GstBus *bus;
  GstMessage *msg;
  TestPipe g;

  test_pipe_launch (&g, "appsrc name=src format=time ! glupload ! bc1enc "
      "name=enc ! appsink name=sink sync=false", "enc");
  gl_test_share_display (g.pipeline);
  g_object_set (g.src, "caps", caps, NULL);
  gst_caps_unref (caps);
  test_pipe_play (&g);
  gl_pipe_push (&g, gst_buffer_new_allocate (NULL, 16 * 8 * 3 / 2, NULL));
  bus = gst_element_get_bus (g.pipeline);
  msg = gst_bus_timed_pop_filtered (bus, PULL_TIMEOUT, GST_MESSAGE_ERROR |
      GST_MESSAGE_EOS);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR);
  gst_message_unref (msg);
  gst_object_unref (bus);
  test_pipe_stop (&g);
}

GST_END_TEST;

/* bc4enc also takes one-channel textures: GRAY8 (an R8 texture) and
 * GRAY16_LE (two bytes a texel), read as grey, 16-bit grey rounded to 8
 * bits as on the CPU: the CPU's blocks from the same buffer, every
 * quality */
GST_START_TEST (test_bc4_gray_input)
{
  static const gchar *const formats[] = { "GRAY8", "GRAY16_LE" };
  const guint w = 61, h = 35;
  guint8 *pic = test_picture (w, h, 13, 6, TEST_ALPHA_OPAQUE);
  guint f, q;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstVideoFormat vf = gst_video_format_from_string (formats[f]);
    GstBcPixelLayout layout;
    GstVideoInfo vi;
    GstMapInfo map;
    GstBuffer *buf;
    gsize stride;
    guint x, y;

    fail_unless (gst_bc_encode_layout_from_video_format (&layout, vf));
    fail_unless (gst_video_info_set_format (&vi, vf, w, h));
    stride = GST_VIDEO_INFO_PLANE_STRIDE (&vi, 0);
    buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&vi), NULL);
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
    memset (map.data, 0, map.size);
    for (y = 0; y < h; y++) {
      for (x = 0; x < w; x++) {
        const guint8 *px = pic + ((gsize) y * w + x) * 4;
        guint8 *d = map.data + y * stride + x * layout.bpp;

        /* 16-bit: red high, green low, so the rounding matters */
        if (layout.bpp == 2)
          GST_WRITE_UINT16_LE (d, (px[0] << 8) | px[1]);
        else
          d[0] = px[0];
      }
    }

    for (q = 0; q < 3; q++) {
      gchar *desc = g_strdup_printf ("bc4enc quality=%s", quality_names[q]);
      GstBcInfo info;
      GstSample *sample;
      TestPipe g;
      guint8 *gl, *cpu;
      gsize i, differ = 0;

      gl_pipe_start (&g, desc, raw_caps (formats[f], w, h));
      gl_pipe_push (&g, gst_buffer_copy (buf));
      gst_app_src_end_of_stream (GST_APP_SRC (g.src));
      sample = pull_sample (g.sink);
      gl = sample_blocks (sample, GST_BC_FORMAT_BC4, w, h);
      gst_bc_info_init (&info);
      fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC4, w, h));
      cpu = g_malloc0 (info.size);
      gst_bc_encode_rows (GST_BC_FORMAT_BC4, q, map.data, stride, w, h,
          &layout, 0, info.blocks_y, cpu);
      for (i = 0; i < info.size; i += 8)
        differ += memcmp (gl + i, cpu + i, 8) != 0;
      note ("bc4enc %-9s %-6s %ux%u: %" G_GSIZE_FORMAT " of %"
          G_GSIZE_FORMAT " blocks differ from the CPU's\n", formats[f],
          quality_names[q], w, h, differ, info.size / 8);
      if (ieee_renderer)
        fail_unless (differ == 0, "%s %s: %" G_GSIZE_FORMAT " blocks differ",
            formats[f], quality_names[q], differ);
      else
        fail_unless (differ * 20 <= info.size / 8, "%s %s: %" G_GSIZE_FORMAT
            " blocks differ", formats[f], quality_names[q], differ);
      gst_sample_unref (sample);
      gl_pipe_finish (&g);
      g_free (gl);
      g_free (cpu);
      g_free (desc);
    }
    gst_buffer_unmap (buf, &map);
    gst_buffer_unref (buf);
  }
  g_free (pic);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* pipelining, EOS, caps and property changes, latency                     */

GST_START_TEST (test_eos_drains_kept_frame)
{
  guint8 *pic = test_picture (64, 48, 9, 6, TEST_ALPHA_RAMP);
  TestPipe g;
  GstSample *s;
  guint i;

  gl_pipe_start (&g, "bc1enc", raw_caps ("RGBA", 64, 48));
  gl_pipe_push (&g, picture_buffer (pic, 64, 48, "RGBA", 0));
  /* frame 0 is kept back until frame 1 or EOS comes */
  s = gst_app_sink_try_pull_sample (GST_APP_SINK (g.sink), GST_SECOND / 2);
  fail_unless (s == NULL, "the GL path did not keep the frame back");
  gl_pipe_push (&g, picture_buffer (pic, 64, 48, "RGBA", 1));
  s = pull_sample (g.sink);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (gst_sample_get_buffer (s)), 0);
  gst_sample_unref (s);
  gl_pipe_push (&g, picture_buffer (pic, 64, 48, "RGBA", 2));
  gst_app_src_end_of_stream (GST_APP_SRC (g.src));
  for (i = 1; i < 3; i++) {
    s = pull_sample (g.sink);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (gst_sample_get_buffer (s)),
        i * FRAME_DURATION);
    fail_if (GST_BUFFER_FLAG_IS_SET (gst_sample_get_buffer (s),
            GST_BUFFER_FLAG_DELTA_UNIT));
    gst_sample_unref (s);
  }
  wait_eos (g.pipeline);
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (g.sink)));
  test_pipe_stop (&g);
  g_free (pic);
}

GST_END_TEST;

/* Size, format and quality change mid-stream: each frame leaves with the
 * caps it was encoded for, with the blocks of its quality. */
static void
check_step (GstSample * s, const guint8 * pic, guint w, guint h,
    GstBcQuality quality, guint index)
{
  guint8 *gl = sample_blocks (s, GST_BC_FORMAT_YCOCG_BC3, w, h);
  GstBcInfo info;
  guint8 *cpu = test_encode (GST_BC_FORMAT_YCOCG_BC3, quality, pic,
      &test_rgba_layout, w, h, &info);

  fail_unless_equals_uint64 (GST_BUFFER_PTS (gst_sample_get_buffer (s)),
      index * FRAME_DURATION);
  compare ("after caps / quality changes", &info, gl, cpu, pic, quality);
  gst_sample_unref (s);
  g_free (gl);
  g_free (cpu);
}

GST_START_TEST (test_caps_change)
{
  static const struct
  {
    const gchar *format;
    guint w, h;
    GstBcQuality quality;
  } steps[] = {
    {"RGBA", 64, 48, GST_BC_QUALITY_NORMAL},
    {"RGBA", 64, 48, GST_BC_QUALITY_NORMAL},
    {"BGRx", 30, 26, GST_BC_QUALITY_NORMAL},
    {"BGRx", 30, 26, GST_BC_QUALITY_NORMAL},
    {"BGRx", 30, 26, GST_BC_QUALITY_FAST},
    {"RGBA", 37, 91, GST_BC_QUALITY_FAST},
    {"RGBA", 37, 91, GST_BC_QUALITY_FAST},
    {"RGBA", 37, 91, GST_BC_QUALITY_HIGH},
  };
  TestPipe g;
  guint8 *pics[G_N_ELEMENTS (steps)];
  guint i, pulled = 0;

  gl_pipe_start (&g, "bc3enc", raw_caps (steps[0].format, steps[0].w,
          steps[0].h));
  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    pics[i] = test_picture (steps[i].w, steps[i].h, 20 + i, 6, TEST_ALPHA_RAMP);
    if (i > 0 && (steps[i].w != steps[i - 1].w
            || strcmp (steps[i].format, steps[i - 1].format) != 0))
      gl_pipe_set_caps (&g, raw_caps (steps[i].format, steps[i].w, steps[i].h));
    if (i > 0 && steps[i].quality != steps[i - 1].quality) {
      /* frame i - 2 leaves while frame i - 1 is handled, after frame
       * i - 1 took its quality (unless a caps change let it out earlier):
       * the new quality applies from frame i on */
      fail_unless (i >= 2 && steps[i - 1].w == steps[i - 2].w &&
          strcmp (steps[i - 1].format, steps[i - 2].format) == 0);
      for (; pulled < i - 1; pulled++)
        check_step (pull_sample (g.sink), pics[pulled], steps[pulled].w,
            steps[pulled].h, steps[pulled].quality, pulled);
      g_object_set (g.element, "quality", steps[i].quality, NULL);
    }
    gl_pipe_push (&g, picture_buffer (pics[i], steps[i].w, steps[i].h,
            steps[i].format, i));
  }
  gst_app_src_end_of_stream (GST_APP_SRC (g.src));
  for (; pulled < G_N_ELEMENTS (steps); pulled++)
    check_step (pull_sample (g.sink), pics[pulled], steps[pulled].w,
        steps[pulled].h, steps[pulled].quality, pulled);
  wait_eos (g.pipeline);
  test_pipe_stop (&g);
  for (i = 0; i < G_N_ELEMENTS (steps); i++)
    g_free (pics[i]);
}

GST_END_TEST;

GST_START_TEST (test_latency)
{
  static const gchar *const descs[] = {
    "videotestsrc is-live=true ! video/x-raw,width=64,height=48,"
        "framerate=30/1 ! glupload ! bc1enc name=enc ! fakesink name=sink",
    "videotestsrc is-live=true ! video/x-raw,width=64,height=48,"
        "framerate=30/1 ! bc1enc name=enc ! fakesink name=sink",
  };
  guint i;

  for (i = 0; i < 2; i++) {
    GstElement *p = launch (descs[i]), *enc = get (p, "enc");
    GstClockTime min = 0, max = 0, frame = gst_util_uint64_scale (GST_SECOND,
        1, 30);
    gboolean live = FALSE;
    GstQuery *q;
    gchar *path;

    gl_test_share_display (p);
    play (p);
    fail_unless_equals_int (gst_element_get_state (p, NULL, NULL,
            PULL_TIMEOUT), GST_STATE_CHANGE_SUCCESS);
    q = gst_query_new_latency ();
    fail_unless (gst_element_query (enc, q));
    gst_query_parse_latency (q, &live, &min, &max);
    gst_query_unref (q);
    path = gl_test_enc_path (enc);
    note ("%s path: latency %" GST_TIME_FORMAT " (live source)\n", path,
        GST_TIME_ARGS (min));
    /* videotestsrc's frame, then ours: the frame the GL path keeps back,
     * none on the CPU path (a synchronous encode) */
    fail_unless_equals_string (path, i == 0 ? "gl" : "cpu");
    fail_unless (live);
    fail_unless_equals_uint64 (min, frame * (i == 0 ? 2 : 1));
    gst_video_encoder_get_latency (GST_VIDEO_ENCODER (enc), &min, &max);
    fail_unless_equals_uint64 (min, i == 0 ? frame : 0);
    fail_unless_equals_uint64 (max, i == 0 ? frame : 0);
    g_free (path);
    gst_object_unref (enc);
    stop (p);
  }
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* the full GPU pipeline                                                   */

/* videotestsrc ! glupload ! bc1enc ! glbcupload ! gldownload against
 * videotestsrc ! bc1enc ! bcdec, frame by frame (tee'd: the same frames) */
GST_START_TEST (test_full_gpu_pipeline)
{
  const guint w = 318, h = 178, n = 4;
  GstElementFactory *up = gst_element_factory_find ("glbcupload");
  const gchar *decode = up ? "glbcupload ! gldownload" : "bcdec";
  GstElement *p, *gl_sink, *cpu_sink, *src_sink, *genc, *cenc;
  gchar *desc, *path;
  guint i;

  if (up == NULL)
    note ("glbcupload is not built: bcdec decodes the GL encoder's output\n");
  gst_clear_object (&up);
  desc = g_strdup_printf ("videotestsrc num-buffers=%u pattern=smpte "
      "horizontal-speed=3 ! video/x-raw,format=RGBA,width=%u,height=%u,"
      "framerate=30/1 ! tee name=t "
      "t. ! queue ! glupload ! bc1enc name=genc ! %s ! "
      "video/x-raw,format=RGBA ! appsink name=gl sync=false "
      "t. ! queue ! bc1enc name=cenc ! bcdec ! video/x-raw,format=RGBA ! "
      "appsink name=cpu sync=false "
      "t. ! queue ! appsink name=src sync=false", n, w, h, decode);
  p = launch (desc);
  g_free (desc);
  gl_test_share_display (p);
  gl_sink = get (p, "gl");
  cpu_sink = get (p, "cpu");
  src_sink = get (p, "src");
  genc = get (p, "genc");
  cenc = get (p, "cenc");
  play (p);

  for (i = 0; i < n; i++) {
    GstSample *a = pull_sample (gl_sink), *b = pull_sample (cpu_sink);
    GstSample *c = pull_sample (src_sink);
    guint8 *ga = test_sample_rgba (a, w, h), *cb = test_sample_rgba (b, w, h);
    guint8 *sc = test_sample_rgba (c, w, h);
    gdouble pg = test_psnr_rgb (ga, sc, (gsize) w * h);
    gdouble pc = test_psnr_rgb (cb, sc, (gsize) w * h);

    note ("GPU pipeline frame %u: PSNR GL encode + %s %.3f dB, CPU encode "
        "+ bcdec %.3f dB, GL vs CPU output %.2f dB\n", i, decode, pg, pc,
        test_psnr_rgb (ga, cb, (gsize) w * h));
    fail_unless (fabs (pg - pc) <= PSNR_BOUND, "frame %u: %.3f vs %.3f dB",
        i, pg, pc);
    g_free (ga);
    g_free (cb);
    g_free (sc);
    gst_sample_unref (a);
    gst_sample_unref (b);
    gst_sample_unref (c);
  }
  wait_eos (p);
  path = gl_test_enc_path (genc);
  fail_unless_equals_string (path, "gl");
  g_free (path);
  path = gl_test_enc_path (cenc);
  fail_unless_equals_string (path, "cpu");
  g_free (path);
  gst_object_unref (gl_sink);
  gst_object_unref (cpu_sink);
  gst_object_unref (src_sink);
  gst_object_unref (genc);
  gst_object_unref (cenc);
  stop (p);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* contexts that cannot, shaders that do not compile (child processes)     */

/* OpenGL 4.2: no compute shaders. The encoder does not offer GLMemory:
 * straight after glupload it does not negotiate (an error, no crash);
 * after gldownload it encodes on the CPU. */
GST_START_TEST (test_no_compute_support)
{
  static const gchar *const env[] = {
    "MESA_GL_VERSION_OVERRIDE", "4.2", NULL
  };
  gchar *out;

  out = run_child ("videotestsrc num-buffers=3 ! video/x-raw,width=64,"
      "height=48 ! glupload ! bc1enc name=enc ! fakesink", env);
  note ("no compute, glupload ! bc1enc: %s", out);
  fail_unless (g_str_has_prefix (out, "error: ") && strstr (out,
          "not-negotiated"), "child said: %s", out);
  g_free (out);

  out = run_child ("videotestsrc num-buffers=3 ! video/x-raw,width=64,"
      "height=48 ! glupload ! gldownload ! bc3enc name=enc ! fakesink", env);
  note ("no compute, glupload ! gldownload ! bc3enc: %s", out);
  fail_unless (g_str_has_prefix (out, "ok cpu"), "child said: %s", out);
  g_free (out);

  /* the same pipeline with compute shaders takes the GL path */
  out = run_child ("videotestsrc num-buffers=3 ! video/x-raw,width=64,"
      "height=48 ! glupload ! bc3enc name=enc ! fakesink", env + 2);
  fail_unless (g_str_has_prefix (out, "ok gl"), "child said: %s", out);
  g_free (out);
}

GST_END_TEST;

/* Every kind of context the encoder supports, in child processes: OpenGL
 * core (the default here), OpenGL compatibility, OpenGL ES 3.2 and ES 3.1
 * (Mesa made to report 3.1: the shader then uses GLSL ES 3.10). Each GL
 * encode must give the CPU's bytes (llvmpipe) for BC1, YCoCg-BC3 (the
 * default of bc3enc), BC5 (two BC4 blocks) and BC7 (high: the most of its
 * shader). */
GST_START_TEST (test_gl_apis)
{
  static const gchar *const envs[][5] = {
    {"GST_GL_API", "opengl3", NULL},
    {"GST_GL_API", "opengl", NULL},
    {"GST_GL_API", "gles2", NULL},
    {"GST_GL_API", "gles2", "MESA_GLES_VERSION_OVERRIDE", "3.1", NULL},
  };
  static const struct
  {
    const gchar *desc;
    guint block_bytes;
  } encoders[] = {
    {"bc1enc quality=normal", 8}, {"bc3enc quality=high", 16},
    {"bc5enc quality=high", 16}, {"bc7enc quality=high", 16},
  };
  static const gchar *const src = "videotestsrc num-buffers=2 "
      "pattern=zone-plate kx2=20 ky2=20 kt=1 ! video/x-raw,format=RGBA,"
      "width=70,height=38";
  gchar *dir = g_dir_make_tmp ("bcencgl-XXXXXX", NULL);
  guint e, i;

  fail_unless (dir != NULL);
  for (e = 0; e < G_N_ELEMENTS (encoders); e++) {
    gchar *cpu_file = g_build_filename (dir, "cpu.bc", NULL);
    gchar *desc = g_strdup_printf ("%s ! %s name=enc ! filesink location=%s",
        src, encoders[e].desc, cpu_file);
    gchar *out = run_child (desc, envs[0] + 2), *cpu = NULL;
    gsize cpu_len = 0;

    fail_unless (g_str_has_prefix (out, "ok cpu"), "child said: %s", out);
    fail_unless (g_file_get_contents (cpu_file, &cpu, &cpu_len, NULL));
    fail_unless (cpu_len == 2 * 18 * 10 * encoders[e].block_bytes);
    g_free (out);
    g_free (desc);
    for (i = 0; i < G_N_ELEMENTS (envs); i++) {
      gchar *gl_file = g_build_filename (dir, "gl.bc", NULL);
      gchar *gl = NULL;
      gsize gl_len = 0;

      desc = g_strdup_printf ("%s ! glupload ! %s name=enc ! filesink "
          "location=%s", src, encoders[e].desc, gl_file);
      out = run_child (desc, envs[i]);
      note ("%s, %s%s%s: %s", encoders[e].desc, envs[i][1], envs[i][2] ? " " :
          "", envs[i][2] ? envs[i][3] : "", out);
      fail_unless (g_str_has_prefix (out, "ok gl"), "%s with %s: %s",
          encoders[e].desc, envs[i][1], out);
      fail_unless (g_file_get_contents (gl_file, &gl, &gl_len, NULL));
      fail_unless_equals_uint64 (gl_len, cpu_len);
      if (ieee_renderer)
        fail_unless (memcmp (gl, cpu, cpu_len) == 0, "%s on %s%s%s: the GL "
            "blocks differ from the CPU's", encoders[e].desc, envs[i][1],
            envs[i][2] ? " " : "", envs[i][2] ? envs[i][3] : "");
      g_unlink (gl_file);
      g_free (gl);
      g_free (gl_file);
      g_free (desc);
      g_free (out);
    }
    g_unlink (cpu_file);
    g_free (cpu);
    g_free (cpu_file);
  }
  g_rmdir (dir);
  g_free (dir);
}

GST_END_TEST;

/* A shader the driver refuses: Mesa dumps our shader (MESA_SHADER_DUMP_PATH)
 * and reads a broken version of it back in its place
 * (MESA_SHADER_READ_PATH); the element error carries the driver's log. */
GST_START_TEST (test_shader_compile_error)
{
  const gchar *pipe = "videotestsrc num-buffers=1 ! video/x-raw,width=64,"
      "height=48 ! glupload ! bc1enc name=enc quality=fast ! fakesink";
  gchar *dump = g_dir_make_tmp ("bcencgl-dump-XXXXXX", NULL);
  gchar *read = g_dir_make_tmp ("bcencgl-read-XXXXXX", NULL);
  const gchar *env_dump[] = { "MESA_SHADER_DUMP_PATH", dump,
    "MESA_SHADER_CACHE_DISABLE", "true", NULL
  };
  const gchar *env_read[] = { "MESA_SHADER_READ_PATH", read,
    "MESA_SHADER_CACHE_DISABLE", "true", NULL
  };
  const gchar *name;
  gchar *out, *src, *path;
  GString *broken;
  GDir *dir;
  guint n = 0;

  out = run_child (pipe, env_dump);
  fail_unless (g_str_has_prefix (out, "ok gl"), "child said: %s", out);
  g_free (out);

  dir = g_dir_open (dump, 0, NULL);
  fail_unless (dir != NULL);
  while ((name = g_dir_read_name (dir))) {
    path = g_build_filename (dump, name, NULL);
    if (g_str_has_prefix (name, "CS_")) {
      gchar *to = g_build_filename (read, name, NULL);

      fail_unless (g_file_get_contents (path, &src, NULL, NULL));
      broken = g_string_new (src);
      /* after the #version line */
      g_string_insert (broken, strchr (src, '\n') - src + 1,
          "#error gst-bc test: a shader the driver refuses\n");
      fail_unless (g_file_set_contents (to, broken->str, -1, NULL));
      g_string_free (broken, TRUE);
      g_free (src);
      g_free (to);
      n++;
    }
    g_unlink (path);
    g_free (path);
  }
  g_dir_close (dir);
  fail_unless (n == 1, "Mesa dumped %u compute shaders", n);

  out = run_child (pipe, env_read);
  note ("broken shader: %s", out);
  fail_unless (g_str_has_prefix (out, "error: Could not compile the GL "
          "encode shader") && strstr (out, "gst-bc test: a shader the "
          "driver refuses"), "child said: %s", out);
  g_free (out);

  dir = g_dir_open (read, 0, NULL);
  while ((name = g_dir_read_name (dir))) {
    path = g_build_filename (read, name, NULL);
    g_unlink (path);
    g_free (path);
  }
  g_dir_close (dir);
  g_rmdir (read);
  g_rmdir (dump);
  g_free (read);
  g_free (dump);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */

/* Under AddressSanitizer: keeps Mesa's driver loaded until exit. Destroying
 * the last GL context unloads it, and LeakSanitizer then finds two of its
 * allocations (still referenced from the unloaded driver's data) with no
 * module to name: a false report that no suppression can match. */
static void
keep_gl_driver_loaded (void)
{
#if defined(__SANITIZE_ADDRESS__)
  static const gchar *const drivers[] = { "swrast_dri.so", "kms_swrast_dri.so"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (drivers); i++) {
    gchar *path = g_build_filename (BC_DRI_DIR, drivers[i], NULL);

    if (g_file_test (path, G_FILE_TEST_EXISTS)
        && dlopen (path, RTLD_NOW | RTLD_NODELETE) == NULL)
      g_printerr ("cannot keep %s loaded: %s\n", path, dlerror ());
    g_free (path);
  }
#endif
}

static Suite *
bcencgl_suite (void)
{
  Suite *s = suite_create ("bcencgl");
  TCase *tc = test_suite_add_general (s, 600);

  tcase_add_checked_fixture (tc, NULL, gl_test_release_display);
  tcase_add_test (tc, test_bc1_against_cpu);
  tcase_add_test (tc, test_bc3_against_cpu);
  tcase_add_test (tc, test_ycocg_bc3_against_cpu);
  tcase_add_test (tc, test_bc4_against_cpu);
  tcase_add_test (tc, test_bc5_against_cpu);
  tcase_add_test (tc, test_bc7_against_cpu);
  tcase_add_test (tc, test_input_formats);
  tcase_add_test (tc, test_bc4_gray_input);
  tcase_add_test (tc, test_yuv_input);
  tcase_add_test (tc, test_yuv_interlaced_refused);
  tcase_add_test (tc, test_eos_drains_kept_frame);
  tcase_add_test (tc, test_caps_change);
  tcase_add_test (tc, test_latency);
  tcase_add_test (tc, test_full_gpu_pipeline);
  tcase_add_test (tc, test_no_compute_support);
  tcase_add_test (tc, test_gl_apis);
  tcase_add_test (tc, test_shader_compile_error);
  return s;
}

int
main (int argc, char **argv)
{
  gchar *renderer;

  keep_gl_driver_loaded ();
  gl_test_init (argc, argv);
  test_child_main (argc, argv, gl_test_child_run);

  if (!gl_test_check_init (&argc, &argv, &renderer))
    return 77;
  ieee_renderer = strstr (renderer, "llvmpipe") != NULL;
  note ("GL_RENDERER %s: blocks %s\n", renderer, ieee_renderer ?
      "must be bit-identical to the CPU's" : "compared by PSNR");
  g_free (renderer);

  test_debug_gl_errors ("bcencgl");
  /* a pipeline here stopped, rarely, in PAUSED with its sink prerolled */
  test_trace_states ();

  return gst_check_run_suite (bcencgl_suite (), "bcencgl", __FILE__);
}
