/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* libgstbcgl's GL compute encoder (gst-libs/gst/bcgl/bcglencode.h) without
 * any element, on a headless GL context: every format it supports at every
 * quality on a picture of an odd size, in several texture layouts (BGRA,
 * RGBx, GRAY8 and GRAY16_LE for BC4), frames of sizes from one pixel up,
 * and solid colours, each against libgstbc's CPU encoder and decoder; its
 * slots (busy, released, lent out beyond the encoder's life); and what it
 * refuses (formats, layouts, slot counts, frames larger than a shader
 * storage block). YUV input: every layout glupload makes (the textures
 * of GstGLMemory for each format; elements/bcencgl.c runs glupload) at odd
 * sizes, every matrix, range and chroma siting, into every block format:
 * the CPU path's bytes exactly (the conversion is integer on both sides).
 *
 * Bit-identity: on an implementation with IEEE single-precision float
 * (llvmpipe) the GL blocks are the CPU's bit for bit, and that is asserted
 * there; elsewhere the decoded PSNR must stay within 0.1 dB of the CPU's
 * (see bcglencode.c).
 *
 * Exits 77 (skipped) only when no GL context can be created at all; a
 * context that cannot run the encoder fails. Each test makes its own
 * context (GL does not survive the fork () of the test runner); the GL
 * calls run on its thread, the checks on the test's. */

#ifdef __SANITIZE_ADDRESS__
#define _GNU_SOURCE             /* dl_iterate_phdr () */
#endif

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/bcgl/bcgl.h>
#include <gst/bcgl/bcglencode.h>

#include "gltest.h"

#include <string.h>

#include "gstbctest.h"
#include "hdrtest.h"
#include "yuvtest.h"

#ifndef GL_R8
#define GL_R8 0x8229
#endif
#ifndef GL_RG8
#define GL_RG8 0x822B
#endif
#ifndef GL_RED
#define GL_RED 0x1903
#endif
#ifndef GL_RG
#define GL_RG 0x8227
#endif
#ifndef GL_R16
#define GL_R16 0x822A
#endif
#ifndef GL_RG16
#define GL_RG16 0x822C
#endif
#ifndef GL_RGBA16
#define GL_RGBA16 0x805B
#endif
#ifndef GL_RGB10_A2
#define GL_RGB10_A2 0x8059
#endif
#ifndef GL_UNSIGNED_INT_2_10_10_10_REV
#define GL_UNSIGNED_INT_2_10_10_10_REV 0x8368
#endif

#define PSNR_BOUND 0.1

static GstGLDisplay *display;
static GstGLContext *context;
/* GL_RENDERER is llvmpipe: IEEE float, blocks asserted bit-identical */
static gboolean ieee_renderer;

static const GstBcFormat formats[] = {
  GST_BC_FORMAT_BC1, GST_BC_FORMAT_BC3, GST_BC_FORMAT_YCOCG_BC3,
  GST_BC_FORMAT_BC4, GST_BC_FORMAT_BC5, GST_BC_FORMAT_BC7,
};

static void
setup (void)
{
  GError *error = NULL;
  const gchar *missing;

  gl_test_pin_driver ();
  display = gst_gl_display_new ();
  fail_unless (gst_gl_display_create_context (display, NULL, &context,
          &error), "no GL context: %s", error ? error->message : "?");
  missing = gst_bc_gl_encoder_context_missing (context);
  fail_unless (missing == NULL, "the GL context cannot run the encoder: it "
      "lacks %s", missing);
}

static void
teardown (void)
{
  gst_clear_object (&context);
  gst_clear_object (&display);
}

/* ---------------------------------------------------------------------- */
/* The GL thread's side                                                    */
/* ---------------------------------------------------------------------- */

typedef struct
{
  guint width, height;
  guint bpp;                    /* 4: RGBA8, 2: RG8, 1: R8 */
  const guint8 *pixels;         /* packed rows */
  GLuint texture;
} TextureData;

static void
texture_new_gl (GstGLContext * ctx, TextureData * d)
{
  const GstGLFuncs *gl = ctx->gl_vtable;
  GLint internal = d->bpp == 4 ? GL_RGBA8 : (d->bpp == 2 ? GL_RG8 : GL_R8);
  GLenum format = d->bpp == 4 ? GL_RGBA : (d->bpp == 2 ? GL_RG : GL_RED);

  gl->GenTextures (1, &d->texture);
  gl->BindTexture (GL_TEXTURE_2D, d->texture);
  gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  gl->PixelStorei (GL_UNPACK_ALIGNMENT, 1);
  gl->TexImage2D (GL_TEXTURE_2D, 0, internal, d->width, d->height, 0, format,
      GL_UNSIGNED_BYTE, d->pixels);
  gl->PixelStorei (GL_UNPACK_ALIGNMENT, 4);
  gl->BindTexture (GL_TEXTURE_2D, 0);
}

/* A 2D texture of @pixels (@bpp bytes a pixel, packed rows), as GStreamer's
 * GL memory holds a frame of that format: byte i of a pixel is texel
 * component i */
static GLuint
texture_new (const guint8 * pixels, guint width, guint height, guint bpp)
{
  TextureData d = { width, height, bpp, pixels, 0 };

  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) texture_new_gl,
      &d);
  fail_unless (d.texture != 0);
  return d.texture;
}

static void
texture_free_gl (GstGLContext * ctx, GLuint * texture)
{
  ctx->gl_vtable->DeleteTextures (1, texture);
}

static void
texture_free (GLuint texture)
{
  gst_gl_context_thread_add (context,
      (GstGLContextThreadFunc) texture_free_gl, &texture);
}

static void
max_block_gl (GstGLContext * ctx, GLint * max_block)
{
  ctx->gl_vtable->GetIntegerv (GL_MAX_SHADER_STORAGE_BLOCK_SIZE, max_block);
}

static void
get_error_gl (GstGLContext * ctx, GLenum * err)
{
  *err = ctx->gl_vtable->GetError ();
}

static void
assert_no_gl_error (void)
{
  GLenum err = GL_NO_ERROR;

  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) get_error_gl,
      &err);
  fail_unless (err == GL_NO_ERROR, "GL error 0x%x", err);
}

/* ---------------------------------------------------------------------- */
/* Encoding and checking                                                   */
/* ---------------------------------------------------------------------- */

static GstBcInfo
make_info (GstBcFormat format, guint width, guint height)
{
  GstBcInfo info;

  gst_bc_info_init (&info);
  fail_unless (gst_bc_info_set_format (&info, format, width, height));
  return info;
}

/* The library's GL encoding of @texture (@layout) into a new frame of
 * @info: one submit, its wait, a copy out of the slot. No GL error may
 * come of it. */
static guint8 *
gl_encode (GstBcGLEncoder * enc, const GstBcInfo * info, GLuint texture,
    GstBcQuality quality)
{
  GError *error = NULL;
  guint slot = G_MAXUINT, gl_errors = 0;
  guint8 *out;

  fail_unless (gst_bc_gl_encoder_submit (enc, texture, quality, &slot,
          &gl_errors, &error), "submit: %s", error ? error->message : "?");
  fail_unless (slot < gst_bc_gl_encoder_get_n_slots (enc));
  fail_unless_equals_int (gl_errors, 0);
  fail_unless (gst_bc_gl_encoder_wait (enc, slot, &error), "wait: %s",
      error ? error->message : "?");
  /* complete: polling says so at once */
  fail_unless (gst_bc_gl_encoder_poll (enc, slot, NULL));
  out = g_memdup2 (gst_bc_gl_encoder_get_data (enc, slot), info->size);
  gst_bc_gl_encoder_release (enc, slot);
  return out;
}

static GstBcGLEncoder *
encoder_new (const GstBcInfo * info, const GstBcPixelLayout * layout,
    guint n_slots)
{
  GError *error = NULL;
  GstBcGLEncoder *enc;

  enc = gst_bc_gl_encoder_new (context, info, layout, n_slots, &error);
  fail_unless (enc != NULL, "%s %ux%u: %s",
      gst_bc_format_to_string (info->format), info->width, info->height,
      error ? error->message : "?");
  fail_unless_equals_int (gst_bc_gl_encoder_get_n_slots (enc), n_slots);
  fail_unless_equals_int (gst_bc_gl_encoder_get_n_lent (enc), 0);
  return enc;
}

/* What the format codes of an RGBA picture, as a picture of @n_channels
 * one-byte channels a pixel: RGB (BC1, YCoCg-BC3), RGBA (BC3, BC7), the
 * luma (BC4), red and green (BC5). */
static guint
coded_channels (GstBcFormat format)
{
  switch (format) {
    case GST_BC_FORMAT_BC3:
    case GST_BC_FORMAT_BC7:
      return 4;
    case GST_BC_FORMAT_BC5:
      return 2;
    case GST_BC_FORMAT_BC4:
      return 1;
    default:
      return 3;
  }
}

/* PSNR of @blocks decoded (libgstbc's decoder) against what the format
 * codes of the RGBA picture @rgba */
static gdouble
psnr (const GstBcInfo * info, const guint8 * blocks, const guint8 * rgba)
{
  guint8 *dec = test_decode (info, blocks);
  guint nc = coded_channels (info->format);
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

/* The GL frame @gl against the CPU's @cpu of the same picture (@rgba, as
 * RGBA): the same bytes on an IEEE renderer, else as good to 0.1 dB */
static void
check_against_cpu (const GstBcInfo * info, GstBcQuality quality,
    const guint8 * gl, const guint8 * cpu, const guint8 * rgba,
    const gchar * what)
{
  gdouble gl_psnr = psnr (info, gl, rgba), cpu_psnr = psnr (info, cpu, rgba);

  GST_INFO ("%s %ux%u quality %d %s: PSNR GL %.3f dB, CPU %.3f dB",
      gst_bc_format_to_string (info->format), info->width, info->height,
      quality, what, gl_psnr, cpu_psnr);
  if (ieee_renderer) {
    gsize i;

    for (i = 0; i < info->size && gl[i] == cpu[i]; i++);
    fail_unless (i == info->size, "%s %ux%u quality %d %s: the GL blocks "
        "differ from the CPU's, first at byte %" G_GSIZE_FORMAT " (block "
        "%" G_GSIZE_FORMAT ")", gst_bc_format_to_string (info->format),
        info->width, info->height, quality, what, i, i / info->block_bytes);
  }
  fail_unless (gl_psnr >= cpu_psnr - PSNR_BOUND, "%s %ux%u quality %d %s: "
      "PSNR %.3f dB, the CPU's %.3f dB", gst_bc_format_to_string
      (info->format), info->width, info->height, quality, what, gl_psnr,
      cpu_psnr);
  /* not noise */
  fail_unless (gl_psnr > 20.0, "%s quality %d %s: PSNR %.3f dB",
      gst_bc_format_to_string (info->format), quality, what, gl_psnr);
}

/* The RGBA picture @rgba written in @layout, packed rows */
static guint8 *
to_layout (const guint8 * rgba, guint width, guint height,
    const GstBcPixelLayout * layout)
{
  guint8 *p = g_malloc ((gsize) width * height * layout->bpp);

  test_picture_to_layout (rgba, width, height, layout, p,
      (gsize) width * layout->bpp);
  return p;
}

/* Encodes the RGBA picture @rgba written in @layout on the GPU and on the
 * CPU at each quality and compares. */
static void
check_picture (GstBcFormat format, const guint8 * rgba, guint width,
    guint height, const GstBcPixelLayout * layout, const gchar * what)
{
  GstBcInfo info = make_info (format, width, height);
  guint8 *src = to_layout (rgba, width, height, layout);
  GstBcGLEncoder *enc = encoder_new (&info, layout, 2);
  GLuint texture = texture_new (src, width, height, layout->bpp);
  GstBcQuality q;

  for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
    GError *error = NULL;
    GstBcInfo cpu_info;
    guint8 *gl, *cpu;

    fail_unless (gst_bc_gl_encoder_prepare (enc, q, &error), "%s quality "
        "%d: %s", gst_bc_format_to_string (format), q, error ?
        error->message : "?");
    /* once compiled, preparing again is free */
    fail_unless (gst_bc_gl_encoder_prepare (enc, q, NULL));
    gl = gl_encode (enc, &info, texture, q);
    cpu = test_encode (format, q, src, layout, width, height, &cpu_info);
    fail_unless_equals_uint64 (cpu_info.size, info.size);
    check_against_cpu (&info, q, gl, cpu, rgba, what);
    g_free (cpu);
    g_free (gl);
  }
  texture_free (texture);
  gst_bc_gl_encoder_free (enc);
  g_free (src);
  assert_no_gl_error ();
}

/* ---------------------------------------------------------------------- */

GST_START_TEST (test_context)
{
  guint i;

  fail_unless (gst_bc_gl_encoder_context_missing (context) == NULL);
  for (i = 0; i < G_N_ELEMENTS (formats); i++)
    fail_unless (gst_bc_gl_encoder_format_supported (formats[i]), "%s",
        gst_bc_format_to_string (formats[i]));
  fail_if (gst_bc_gl_encoder_format_supported (GST_BC_FORMAT_UNKNOWN));
}

GST_END_TEST;

/* Each format at each quality, on a 67x45 picture with an alpha wave:
 * padding on the right and at the bottom, a grid of work groups (8x8
 * blocks) that the frame does not fill. */
GST_START_TEST (test_formats)
{
  const guint width = 67, height = 45;
  guint8 *rgba = test_picture (width, height, 7, 6, TEST_ALPHA_WAVE);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++)
    check_picture (formats[i], rgba, width, height, &test_rgba_layout, "RGBA");
  g_free (rgba);
}

GST_END_TEST;

/* Other component orders: BGRA (r in texel component 2), RGBx (no alpha:
 * opaque, the x byte junk), and for BC4 grey textures (GRAY8 as R8,
 * GRAY16_LE as RG8) */
GST_START_TEST (test_layouts)
{
  static const struct
  {
    GstVideoFormat video_format;
    GstBcFormat format;
  } cases[] = {
    {GST_VIDEO_FORMAT_BGRA, GST_BC_FORMAT_BC1},
    {GST_VIDEO_FORMAT_BGRA, GST_BC_FORMAT_BC3},
    {GST_VIDEO_FORMAT_BGRA, GST_BC_FORMAT_BC5},
    {GST_VIDEO_FORMAT_BGRA, GST_BC_FORMAT_BC7},
    {GST_VIDEO_FORMAT_RGBx, GST_BC_FORMAT_BC3},
    {GST_VIDEO_FORMAT_RGBx, GST_BC_FORMAT_BC7},
    {GST_VIDEO_FORMAT_xBGR, GST_BC_FORMAT_YCOCG_BC3},
    {GST_VIDEO_FORMAT_BGRx, GST_BC_FORMAT_BC4},
  };
  const guint width = 37, height = 22;
  guint8 *rgba = test_picture (width, height, 3, 4, TEST_ALPHA_RAMP);
  guint8 *opaque = g_memdup2 (rgba, (gsize) width * height * 4);
  GstBcPixelLayout layout;
  gsize i;

  for (i = 0; i < (gsize) width * height; i++)
    opaque[i * 4 + 3] = 255;
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    fail_unless (gst_bc_encode_layout_from_video_format (&layout,
            cases[i].video_format));
    /* without alpha, the format codes 255 */
    check_picture (cases[i].format, layout.a >= 0 ? rgba : opaque, width,
        height, &layout, gst_video_format_to_string (cases[i].video_format));
  }
  g_free (opaque);
  g_free (rgba);
}

GST_END_TEST;

/* BC4 of grey: GRAY8 in an R8 texture, GRAY16_LE in an RG8 one (low byte
 * in red), each against the CPU's encoding of the same bytes */
GST_START_TEST (test_gray)
{
  const guint width = 41, height = 30;
  guint8 *rgba = test_picture (width, height, 9, 8, TEST_ALPHA_OPAQUE);
  gsize n = (gsize) width * height, i;
  guint8 *gray8 = g_malloc (n), *gray16 = g_malloc (2 * n), *grey_rgba;
  GstBcInfo info = make_info (GST_BC_FORMAT_BC4, width, height), cpu_info;
  GstBcPixelLayout lo8, lo16;
  GstBcQuality q;

  fail_unless (gst_bc_encode_layout_from_video_format (&lo8,
          GST_VIDEO_FORMAT_GRAY8));
  fail_unless (gst_bc_encode_layout_from_video_format (&lo16,
          GST_VIDEO_FORMAT_GRAY16_LE));
  /* the grey picture as RGBA, for the PSNR: its luma is the grey itself */
  grey_rgba = g_malloc (n * 4);
  for (i = 0; i < n; i++) {
    guint16 v16 = (guint16) (rgba[i * 4] * 257 + (rgba[i * 4 + 1] & 0x7f));

    gray8[i] = rgba[i * 4];
    GST_WRITE_UINT16_LE (gray16 + 2 * i, v16);
    memset (grey_rgba + i * 4, rgba[i * 4], 3);
    grey_rgba[i * 4 + 3] = 255;
  }

  for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
    const guint8 *src[2] = { gray8, gray16 };
    const GstBcPixelLayout *lo[2] = { &lo8, &lo16 };
    guint k;

    for (k = 0; k < 2; k++) {
      GstBcGLEncoder *enc = encoder_new (&info, lo[k], 2);
      GLuint texture = texture_new (src[k], width, height, lo[k]->bpp);
      guint8 *gl = gl_encode (enc, &info, texture, q);
      guint8 *cpu = test_encode (GST_BC_FORMAT_BC4, q, src[k], lo[k], width,
          height, &cpu_info);

      check_against_cpu (&info, q, gl, cpu, grey_rgba, k ? "GRAY16_LE" :
          "GRAY8");
      g_free (cpu);
      g_free (gl);
      texture_free (texture);
      gst_bc_gl_encoder_free (enc);
    }
  }
  g_free (grey_rgba);
  g_free (gray16);
  g_free (gray8);
  g_free (rgba);
  assert_no_gl_error ();
}

GST_END_TEST;

/* Frame sizes: one pixel, less than a block, one block, a row of blocks
 * longer than a work group, and sizes around the work group's 32 pixels;
 * the output is info.size bytes, each block the CPU's. */
GST_START_TEST (test_sizes)
{
  static const guint sizes[][2] = {
    {1, 1}, {3, 2}, {4, 4}, {5, 9}, {31, 33}, {32, 32}, {33, 31},
    {130, 6},
  };
  guint i, f;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    guint w = sizes[i][0], h = sizes[i][1];
    guint8 *rgba = test_picture (w, h, w * 31 + h, 5, TEST_ALPHA_WAVE);
    GLuint texture = texture_new (rgba, w, h, 4);

    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      GstBcInfo info = make_info (formats[f], w, h), cpu_info;
      GstBcGLEncoder *enc = encoder_new (&info, &test_rgba_layout, 2);
      guint8 *gl = gl_encode (enc, &info, texture, GST_BC_QUALITY_FAST);
      guint8 *cpu = test_encode (formats[f], GST_BC_QUALITY_FAST, rgba,
          &test_rgba_layout, w, h, &cpu_info);
      GstMemory *mem;
      guint slot;

      /* a lent slot is a frame of info.size bytes */
      fail_unless (gst_bc_gl_encoder_submit (enc, texture,
              GST_BC_QUALITY_FAST, &slot, NULL, NULL));
      fail_unless (gst_bc_gl_encoder_wait (enc, slot, NULL));
      mem = gst_bc_gl_encoder_lend (enc, slot);
      fail_unless_equals_uint64 (gst_memory_get_sizes (mem, NULL, NULL),
          info.size);
      gst_memory_unref (mem);

      fail_unless_equals_uint64 (info.size, (gsize) ((w + 3) / 4) *
          ((h + 3) / 4) * gst_bc_format_get_block_bytes (formats[f]));
      check_against_cpu (&info, GST_BC_QUALITY_FAST, gl, cpu, rgba, "size");
      g_free (cpu);
      g_free (gl);
      gst_bc_gl_encoder_free (enc);
    }
    texture_free (texture);
    g_free (rgba);
  }
  assert_no_gl_error ();
}

GST_END_TEST;

/* Solid colours: every block of the frame is the same block, the CPU's
 * block of that colour (on an IEEE renderer, bit for bit), and it decodes
 * to the colour within what the format can represent. */
GST_START_TEST (test_solid)
{
  static const guint8 colours[][4] = {
    {0, 0, 0, 255}, {255, 255, 255, 255}, {255, 0, 0, 255},
    {0, 0, 255, 0}, {12, 200, 77, 128}, {128, 128, 128, 255},
    {250, 3, 129, 17},
  };
  const guint width = 40, height = 12;
  gsize n = (gsize) width * height;
  guint c, f;

  for (c = 0; c < G_N_ELEMENTS (colours); c++) {
    guint8 *rgba = g_malloc (n * 4);
    GLuint texture;
    gsize i;

    for (i = 0; i < n; i++)
      memcpy (rgba + i * 4, colours[c], 4);
    texture = texture_new (rgba, width, height, 4);

    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      GstBcFormat format = formats[f];
      GstBcInfo info = make_info (format, width, height);
      GstBcGLEncoder *enc = encoder_new (&info, &test_rgba_layout, 2);
      guint nc = coded_channels (format);
      /* 5-6-5 endpoints (BC1, BC3's colour, YCoCg through them) */
      gint tolerance = format == GST_BC_FORMAT_BC4 ||
          format == GST_BC_FORMAT_BC5 || format == GST_BC_FORMAT_BC7 ? 1 :
          (format == GST_BC_FORMAT_YCOCG_BC3 ? 6 : 4);
      GstBcQuality q;

      for (q = GST_BC_QUALITY_FAST; q <= GST_BC_QUALITY_HIGH; q++) {
        guint8 *gl = gl_encode (enc, &info, texture, q);
        guint8 cpu_block[16], *dec;
        guint b, k;

        gst_bc_encode_block (format, q, rgba, cpu_block);
        for (b = 0; b < info.blocks_x * info.blocks_y; b++)
          fail_unless (memcmp (gl + b * info.block_bytes, gl,
                  info.block_bytes) == 0, "%s quality %d colour %u: block %u "
              "differs from block 0", gst_bc_format_to_string (format), q,
              c, b);
        if (ieee_renderer)
          fail_unless (memcmp (gl, cpu_block, info.block_bytes) == 0,
              "%s quality %d colour %u: not the CPU's block",
              gst_bc_format_to_string (format), q, c);

        /* one decoded block, against the colour */
        {
          GstBcInfo one = make_info (format, 4, 4);

          dec = test_decode (&one, gl);
        }
        for (k = 0; k < 16; k++) {
          guint ch;

          for (ch = 0; ch < nc; ch++) {
            gint want = format == GST_BC_FORMAT_BC4 ?
                test_luma (colours[c]) : colours[c][ch];

            fail_unless (ABS ((gint) dec[k * 4 + ch] - want) <= tolerance,
                "%s quality %d colour %u: pixel %u channel %u decodes to %d, "
                "not %d", gst_bc_format_to_string (format), q, c, k, ch,
                dec[k * 4 + ch], want);
          }
        }
        g_free (dec);
        g_free (gl);
      }
      gst_bc_gl_encoder_free (enc);
    }
    texture_free (texture);
    g_free (rgba);
  }
  assert_no_gl_error ();
}

GST_END_TEST;

/* The slots: submits take free slots in turn until none is left (busy),
 * a released slot serves again, a lent slot is a read-only memory that
 * frees its slot when it goes, and outlives the encoder. */
GST_START_TEST (test_slots)
{
  const guint width = 24, height = 16;
  guint8 *rgba = test_picture (width, height, 5, 6, TEST_ALPHA_OPAQUE);
  GstBcInfo info = make_info (GST_BC_FORMAT_BC1, width, height), cpu_info;
  guint8 *cpu = test_encode (GST_BC_FORMAT_BC1, GST_BC_QUALITY_NORMAL, rgba,
      &test_rgba_layout, width, height, &cpu_info);
  GLuint texture = texture_new (rgba, width, height, 4);
  GstBcGLEncoder *enc = encoder_new (&info, &test_rgba_layout, 3);
  GError *error = NULL;
  guint slots[3], slot, i;
  GstMemory *mem;
  GstMapInfo map;
  GstClockTime t;

  for (i = 0; i < 3; i++) {
    fail_unless (gst_bc_gl_encoder_submit (enc, texture,
            GST_BC_QUALITY_NORMAL, &slots[i], NULL, &error), "%s",
        error ? error->message : "?");
    fail_unless (slots[i] < 3);
    fail_unless (i == 0 || slots[i] != slots[i - 1]);
  }
  fail_unless (slots[0] != slots[2]);
  /* every slot in flight */
  fail_if (gst_bc_gl_encoder_submit (enc, texture, GST_BC_QUALITY_NORMAL,
          &slot, NULL, &error));
  fail_unless (g_error_matches (error, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_BUSY), "%s", error ? error->message : "?");
  g_clear_error (&error);

  /* the first frame: its bytes, its GPU time (a number with timer
   * queries, else none), and its slot again once released */
  fail_unless (gst_bc_gl_encoder_wait (enc, slots[0], NULL));
  fail_unless (memcmp (gst_bc_gl_encoder_get_data (enc, slots[0]), cpu,
          info.size) == 0 || !ieee_renderer);
  t = gst_bc_gl_encoder_get_gpu_time (enc, slots[0]);
  if (!gst_bc_gl_context_has_timer_query (context))
    fail_unless (t == GST_CLOCK_TIME_NONE);
  gst_bc_gl_encoder_release (enc, slots[0]);
  fail_unless (gst_bc_gl_encoder_submit (enc, texture, GST_BC_QUALITY_NORMAL,
          &slot, NULL, NULL));
  fail_unless_equals_int (slot, slots[0]);

  /* the second lent out: read-only, the slot taken until it goes */
  fail_unless (gst_bc_gl_encoder_wait (enc, slots[1], NULL));
  mem = gst_bc_gl_encoder_lend (enc, slots[1]);
  fail_unless (mem != NULL);
  fail_unless_equals_int (gst_bc_gl_encoder_get_n_lent (enc), 1);
  fail_unless (GST_MEMORY_IS_READONLY (mem));
  fail_if (gst_memory_map (mem, &map, GST_MAP_WRITE));
  fail_unless (gst_memory_map (mem, &map, GST_MAP_READ));
  fail_unless_equals_uint64 (map.size, info.size);
  fail_unless (map.data == gst_bc_gl_encoder_get_data (enc, slots[1]));
  gst_memory_unmap (mem, &map);
  /* the two others in use, the lent one too: busy */
  fail_if (gst_bc_gl_encoder_submit (enc, texture, GST_BC_QUALITY_NORMAL,
          &slot, NULL, NULL));
  gst_memory_unref (mem);
  fail_unless_equals_int (gst_bc_gl_encoder_get_n_lent (enc), 0);
  fail_unless (gst_bc_gl_encoder_submit (enc, texture, GST_BC_QUALITY_NORMAL,
          &slot, NULL, NULL));
  fail_unless_equals_int (slot, slots[1]);

  /* lent beyond the encoder's life: the mapping stays until the memory
   * goes; the encoder waits for the frames in flight when freed */
  fail_unless (gst_bc_gl_encoder_wait (enc, slots[2], NULL));
  mem = gst_bc_gl_encoder_lend (enc, slots[2]);
  gst_bc_gl_encoder_free (enc);
  fail_unless (gst_memory_map (mem, &map, GST_MAP_READ));
  fail_unless (memcmp (map.data, cpu, info.size) == 0 || !ieee_renderer);
  check_against_cpu (&info, GST_BC_QUALITY_NORMAL, map.data, cpu, rgba, "lent");
  gst_memory_unmap (mem, &map);
  gst_memory_unref (mem);

  texture_free (texture);
  g_free (cpu);
  g_free (rgba);
  assert_no_gl_error ();
}

GST_END_TEST;

/* What the encoder refuses, with an error and no GL error: formats it has
 * no shader for, layouts it cannot read, slot counts out of range, frames
 * larger than the GL implementation's largest shader storage block. */
GST_START_TEST (test_refused)
{
  static const GstBcPixelLayout rgb = { 3, 0, 1, 2, -1, -1 };
  GstBcPixelLayout gray8, gray16;
  GstBcInfo info;
  GError *error = NULL;
  GLint max_block = 0;
  guint64 row_bytes;

  fail_unless (gst_bc_encode_layout_from_video_format (&gray8,
          GST_VIDEO_FORMAT_GRAY8));
  fail_unless (gst_bc_encode_layout_from_video_format (&gray16,
          GST_VIDEO_FORMAT_GRAY16_LE));

  /* no shader for an unknown format */
  info = make_info (GST_BC_FORMAT_BC1, 16, 16);
  info.format = GST_BC_FORMAT_UNKNOWN;
  fail_unless (gst_bc_gl_encoder_new (context, &info, &test_rgba_layout, 2,
          &error) == NULL);
  fail_unless (g_error_matches (error, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", error ? error->message : "?");
  g_clear_error (&error);

  /* 3-byte pixels, grey for anything but BC4 */
  info = make_info (GST_BC_FORMAT_BC1, 16, 16);
  fail_unless (gst_bc_gl_encoder_new (context, &info, &rgb, 2, &error) == NULL);
  fail_unless (g_error_matches (error, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION));
  g_clear_error (&error);
  info = make_info (GST_BC_FORMAT_BC7, 16, 16);
  fail_unless (gst_bc_gl_encoder_new (context, &info, &gray8, 2,
          &error) == NULL);
  fail_unless (g_error_matches (error, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION));
  g_clear_error (&error);
  info = make_info (GST_BC_FORMAT_BC4, 16, 16);
  fail_unless (gst_bc_gl_encoder_new (context, &info, &rgb, 2, &error) == NULL);
  fail_unless (g_error_matches (error, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION));
  g_clear_error (&error);

  /* 2 to GST_BC_GL_ENCODER_MAX_SLOTS slots */
  ASSERT_CRITICAL (fail_unless (gst_bc_gl_encoder_new (context, &info,
              &gray16, 1, NULL) == NULL));
  ASSERT_CRITICAL (fail_unless (gst_bc_gl_encoder_new (context, &info,
              &gray16, GST_BC_GL_ENCODER_MAX_SLOTS + 1, NULL) == NULL));
  gst_bc_gl_encoder_free (encoder_new (&info, &gray16,
          GST_BC_GL_ENCODER_MAX_SLOTS));

  /* a BC7 frame one block row larger than the largest storage block: the
   * error says so, before any buffer is made */
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) max_block_gl,
      &max_block);
  fail_unless (max_block > 0);
  row_bytes = (65536 / 4) * 16;
  info = make_info (GST_BC_FORMAT_BC7, 65536,
      (guint) ((max_block / row_bytes + 1) * 4));
  fail_unless (info.size > (gsize) max_block);
  fail_unless (gst_bc_gl_encoder_new (context, &info, &test_rgba_layout, 2,
          &error) == NULL);
  fail_unless (g_error_matches (error, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_SETTINGS), "%s", error ? error->message : "?");
  fail_unless (strstr (error->message, "shader storage block") != NULL,
      "%s", error->message);
  g_clear_error (&error);

  assert_no_gl_error ();
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* YUV textures                                                            */
/* ---------------------------------------------------------------------- */

static const GstVideoFormat gl_yuv_formats[] = {
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YUY2,
  GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_P010_10LE,
};

static const GstVideoColorMatrix yuv_matrices[] = {
  GST_VIDEO_COLOR_MATRIX_BT601, GST_VIDEO_COLOR_MATRIX_BT709,
  GST_VIDEO_COLOR_MATRIX_BT2020, GST_VIDEO_COLOR_MATRIX_SMPTE240M,
  GST_VIDEO_COLOR_MATRIX_FCC,
};

static const GstVideoChromaSite yuv_sites[] = {
  GST_VIDEO_CHROMA_SITE_JPEG, GST_VIDEO_CHROMA_SITE_MPEG2,
  GST_VIDEO_CHROMA_SITE_DV,
};

/* The frame of @t in a system-memory buffer of GStreamer's layout
 * (gst_video_info_set_format ()) */
static GstBuffer *
yuv_buffer (const TestYuv * t, GstVideoInfo * vinfo)
{
  guint8 *planes[3] = { NULL, NULL, NULL };
  gsize strides[3] = { 0, 0, 0 };
  GstBuffer *buf;
  GstMapInfo map;
  guint p;

  fail_unless (gst_video_info_set_format (vinfo, t->format, t->width,
          t->height));
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (vinfo), NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  memset (map.data, 0, map.size);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (vinfo); p++) {
    planes[p] = map.data + GST_VIDEO_INFO_PLANE_OFFSET (vinfo, p);
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (vinfo, p);
  }
  test_yuv_pack (t, planes, strides);
  gst_buffer_unmap (buf, &map);
  return buf;
}

/* The CPU path's blocks of @buf (gst_bc_encode_rows_yuv ()) */
static guint8 *
yuv_cpu_encode (GstBcFormat format, GstBcQuality quality,
    const GstBcYuvInfo * yuv, GstBuffer * buf, const GstVideoInfo * vinfo)
{
  GstBcInfo info = make_info (format, yuv->width, yuv->height);
  const guint8 *planes[3] = { NULL, NULL, NULL };
  gsize strides[3] = { 0, 0, 0 };
  guint8 *out = g_malloc (info.size);
  GstMapInfo map;
  guint p;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (vinfo); p++) {
    planes[p] = map.data + GST_VIDEO_INFO_PLANE_OFFSET (vinfo, p);
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (vinfo, p);
  }
  gst_bc_encode_rows_yuv (format, quality, yuv, planes, strides, 0,
      info.blocks_y, out);
  gst_buffer_unmap (buf, &map);
  return out;
}

typedef struct
{
  GLint internal;
  GLenum format, type;
  guint width, height, texel_bytes;
  gsize stride;
  const guint8 *data;
  GLuint texture;
} PlaneTexture;

static void
plane_texture_gl (GstGLContext * ctx, PlaneTexture * d)
{
  const GstGLFuncs *gl = ctx->gl_vtable;

  gl->GenTextures (1, &d->texture);
  gl->BindTexture (GL_TEXTURE_2D, d->texture);
  gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  gl->PixelStorei (GL_UNPACK_ALIGNMENT, 1);
  gl->PixelStorei (GL_UNPACK_ROW_LENGTH, d->stride / d->texel_bytes);
  gl->TexImage2D (GL_TEXTURE_2D, 0, d->internal, d->width, d->height, 0,
      d->format, d->type, d->data);
  gl->PixelStorei (GL_UNPACK_ROW_LENGTH, 0);
  gl->PixelStorei (GL_UNPACK_ALIGNMENT, 4);
  gl->BindTexture (GL_TEXTURE_2D, 0);
}

/* @buf as the textures GstGLMemory (glupload) of GStreamer 1.22 makes of
 * its planes (gst_gl_format_from_video_info ()): 4:2:0 luma R8 or R16,
 * chroma RG8 or RG16 (NV12, P010_10LE) or R8 each (I420) at (w + 1) / 2
 * x (h + 1) / 2; YUY2 and UYVY one RG8 texture of the frame's width, two
 * bytes a texel (elements/bcencgl.c checks them against glupload's) */
static void
yuv_textures (GstBuffer * buf, const GstVideoInfo * vinfo, guint textures[3])
{
  GstVideoFormat f = GST_VIDEO_INFO_FORMAT (vinfo);
  guint w = GST_VIDEO_INFO_WIDTH (vinfo), h = GST_VIDEO_INFO_HEIGHT (vinfo);
  gboolean p010 = f == GST_VIDEO_FORMAT_P010_10LE;
  GstMapInfo map;
  guint p;

  memset (textures, 0, 3 * sizeof (guint));
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (vinfo); p++) {
    PlaneTexture d = { 0, };
    gboolean two = p == 1 && f != GST_VIDEO_FORMAT_I420;

    d.width = p > 0 ? (w + 1) / 2 : w;
    d.height = p > 0 ? (h + 1) / 2 : h;
    if (f == GST_VIDEO_FORMAT_YUY2 || f == GST_VIDEO_FORMAT_UYVY)
      two = TRUE;
    d.internal = p010 ? (two ? GL_RG16 : GL_R16) : (two ? GL_RG8 : GL_R8);
    d.format = two ? GL_RG : GL_RED;
    d.type = p010 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_BYTE;
    d.texel_bytes = (two ? 2 : 1) * (p010 ? 2 : 1);
    d.stride = GST_VIDEO_INFO_PLANE_STRIDE (vinfo, p);
    d.data = map.data + GST_VIDEO_INFO_PLANE_OFFSET (vinfo, p);
    gst_gl_context_thread_add (context,
        (GstGLContextThreadFunc) plane_texture_gl, &d);
    fail_unless (d.texture != 0);
    textures[p] = d.texture;
  }
  gst_buffer_unmap (buf, &map);
}

/* What the GL path encodes of @t: the same samples but, for YUY2 and UYVY
 * of odd width, the last pair's V (not in glupload's texture) that of the
 * pair before, or at width 1 the chroma offset (yuv.glsl) */
static TestYuv *
yuv_as_textured (const TestYuv * t)
{
  TestYuv *g = g_memdup2 (t, sizeof (*t));
  gsize n = (gsize) t->cw * t->ch;
  guint y;

  g->y = g_memdup2 (t->y, (gsize) t->width * t->height * sizeof (guint16));
  g->u = g_memdup2 (t->u, n * sizeof (guint16));
  g->v = g_memdup2 (t->v, n * sizeof (guint16));
  if ((t->format == GST_VIDEO_FORMAT_YUY2 ||
          t->format == GST_VIDEO_FORMAT_UYVY) && t->width % 2 == 1) {
    for (y = 0; y < t->ch; y++) {
      guint16 *row = g->v + (gsize) y * t->cw;

      row[t->cw - 1] = t->cw > 1 ? row[t->cw - 2] : 128;
    }
  }
  return g;
}

/* @t (random samples) as glupload's textures, encoded on the GPU with the
 * conversion of @m, @full and @site, against the CPU path's encoding */
static void
check_yuv (GstBcFormat format, GstBcQuality quality, const TestYuv * t,
    GstVideoColorMatrix m, gboolean full, GstVideoChromaSite site)
{
  GstBcInfo info = make_info (format, t->width, t->height);
  TestYuv *ref = yuv_as_textured (t);
  GstVideoInfo vinfo;
  GstBuffer *buf = yuv_buffer (t, &vinfo), *ref_buf;
  GstBcYuvInfo yuv;
  GstBcGLEncoder *enc;
  GError *error = NULL;
  guint textures[3], slot = 0, gl_errors = 0;
  guint8 *cpu, *gl;
  gchar *what;
  gsize i;

  fail_unless (gst_bc_yuv_info_set (&yuv, t->format, t->width, t->height, m,
          full ? GST_VIDEO_COLOR_RANGE_0_255 : GST_VIDEO_COLOR_RANGE_16_235,
          site));
  ref_buf = yuv_buffer (ref, &vinfo);
  cpu = yuv_cpu_encode (format, quality, &yuv, ref_buf, &vinfo);
  yuv_textures (buf, &vinfo, textures);

  enc = gst_bc_gl_encoder_new_yuv (context, &info, &yuv, 2, &error);
  fail_unless (enc != NULL, "%s", error ? error->message : "?");
  fail_unless (gst_bc_gl_encoder_submit_planes (enc, textures, quality,
          &slot, &gl_errors, &error), "%s", error ? error->message : "?");
  fail_unless_equals_int (gl_errors, 0);
  fail_unless (gst_bc_gl_encoder_wait (enc, slot, NULL));
  gl = g_memdup2 (gst_bc_gl_encoder_get_data (enc, slot), info.size);
  gst_bc_gl_encoder_release (enc, slot);

  /* integers on both sides: the same bytes on every implementation */
  what = g_strdup_printf ("%s %ux%u %s quality %d, matrix %d, %s range, "
      "chroma site %d", gst_video_format_to_string (t->format), t->width,
      t->height, gst_bc_format_to_string (format), quality, m,
      full ? "full" : "limited", site);
  for (i = 0; i < info.size && gl[i] == cpu[i]; i++);
  fail_unless (i == info.size, "%s: the GL blocks differ from the CPU's, "
      "first at byte %" G_GSIZE_FORMAT " (block %" G_GSIZE_FORMAT ")", what,
      i, i / info.block_bytes);
  GST_LOG ("%s: identical", what);

  g_free (what);
  g_free (gl);
  g_free (cpu);
  gst_bc_gl_encoder_free (enc);
  for (i = 0; i < 3; i++)
    if (textures[i])
      texture_free (textures[i]);
  gst_buffer_unref (ref_buf);
  gst_buffer_unref (buf);
  test_yuv_free (ref);
}

/* Every YUV layout glupload makes, odd sizes, every matrix, range and
 * chroma siting: BC1 blocks identical to the CPU path's */
GST_START_TEST (test_yuv)
{
  static const guint sizes[][2] = {
    {1, 1}, {3, 5}, {17, 9}, {130, 66}, {2, 2}, {33, 31},
  };
  guint f, s, m, site, k = 0;

  for (f = 0; f < G_N_ELEMENTS (gl_yuv_formats); f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      TestYuv *t = test_yuv_new (gl_yuv_formats[f], sizes[s][0], sizes[s][1],
          NULL, f * 100 + s);

      /* every matrix, both ranges and every siting at each size, split
       * over the quality of BC1 */
      for (m = 0; m < G_N_ELEMENTS (yuv_matrices); m++) {
        for (site = 0; site < G_N_ELEMENTS (yuv_sites); site++, k++)
          check_yuv (GST_BC_FORMAT_BC1, k % 2 ? GST_BC_QUALITY_NORMAL :
              GST_BC_QUALITY_FAST, t, yuv_matrices[m], (k / 2) % 2 == 1,
              yuv_sites[site]);
      }
      test_yuv_free (t);
    }
  }
  assert_no_gl_error ();
}

GST_END_TEST;

/* Every block format of a YUV picture: the converted RGB goes through
 * each shader as RGB textures do (BC4 its luma, BC5 red and green) */
GST_START_TEST (test_yuv_block_formats)
{
  guint f, b;

  for (f = 0; f < G_N_ELEMENTS (gl_yuv_formats); f++) {
    guint w = 37 + f, h = 19;
    guint8 *rgba = test_picture (w, h, 7 + f, 5, TEST_ALPHA_OPAQUE);
    TestYuv *t = test_yuv_new (gl_yuv_formats[f], w, h, rgba, 0);

    for (b = 0; b < G_N_ELEMENTS (formats); b++)
      check_yuv (formats[b], GST_BC_QUALITY_FAST, t,
          GST_VIDEO_COLOR_MATRIX_BT709, b % 2 == 0,
          GST_VIDEO_CHROMA_SITE_MPEG2);
    test_yuv_free (t);
    g_free (rgba);
  }
  assert_no_gl_error ();
}

GST_END_TEST;

/* What a YUV encoder refuses: v210 (glupload of 1.22 does not upload it),
 * a picture of another size than the frame */
GST_START_TEST (test_yuv_refused)
{
  GstBcInfo info = make_info (GST_BC_FORMAT_BC1, 16, 8);
  GError *error = NULL;
  GstBcYuvInfo yuv;

  fail_unless (gst_bc_gl_encoder_yuv_format_supported (GST_VIDEO_FORMAT_NV12));
  fail_if (gst_bc_gl_encoder_yuv_format_supported (GST_VIDEO_FORMAT_v210));
  fail_if (gst_bc_gl_encoder_yuv_format_supported (GST_VIDEO_FORMAT_RGBA));

  fail_unless (gst_bc_yuv_info_set (&yuv, GST_VIDEO_FORMAT_v210, 16, 8,
          GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_COLOR_RANGE_16_235, 0));
  fail_if (gst_bc_gl_encoder_new_yuv (context, &info, &yuv, 2, &error));
  fail_unless (error != NULL && strstr (error->message, "v210"));
  g_clear_error (&error);

  fail_unless (gst_bc_yuv_info_set (&yuv, GST_VIDEO_FORMAT_NV12, 16, 10,
          GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_COLOR_RANGE_16_235, 0));
  fail_if (gst_bc_gl_encoder_new_yuv (context, &info, &yuv, 2, &error));
  fail_unless (error != NULL);
  g_clear_error (&error);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* BC6H of HDR textures                                                    */
/* ---------------------------------------------------------------------- */

/* The texture GstGLMemory of GStreamer 1.22 makes of a frame of @format
 * (RGBA16 of the 16-bit words as they are: RGBA64_LE, ARGB64; RGB10_A2
 * of RGB10A2_LE) of the RGBA64_LE @codes; @cpu: the CPU path's input of
 * the same codes (RGBA64_LE, or RGB10A2_LE of the codes' top 10 bits) */
static GLuint
hdr_texture (GstVideoFormat format, const guint16 * codes, guint width,
    guint height, guint8 ** cpu)
{
  gsize i, n = (gsize) width * height;
  PlaneTexture d = { GL_RGBA16, GL_RGBA, GL_UNSIGNED_SHORT, width, height, 8,
    (gsize) width * 8, NULL, 0
  };
  guint16 *words = NULL;
  guint32 *packed = NULL;

  if (format == GST_VIDEO_FORMAT_RGB10A2_LE) {
    packed = g_new (guint32, n);
    for (i = 0; i < n; i++)
      packed[i] = GUINT32_TO_LE ((guint32) (codes[i * 4] >> 6) |
          (guint32) (codes[i * 4 + 1] >> 6) << 10 |
          (guint32) (codes[i * 4 + 2] >> 6) << 20 |
          (guint32) (codes[i * 4 + 3] >> 14) << 30);
    d.internal = GL_RGB10_A2;
    d.type = GL_UNSIGNED_INT_2_10_10_10_REV;
    d.texel_bytes = 4;
    d.stride = (gsize) width * 4;
    d.data = (const guint8 *) packed;
    *cpu = g_memdup2 (packed, n * 4);
  } else {
    words = g_new (guint16, n * 4);
    for (i = 0; i < n * 4; i++) {
      /* ARGB64: alpha, red, green, blue */
      guint c = format == GST_VIDEO_FORMAT_ARGB64 ? (i + 3) % 4 : i % 4;

      words[i] = codes[i - i % 4 + c];
    }
    d.data = (const guint8 *) words;
    *cpu = g_new (guint8, n * 8);
    for (i = 0; i < n * 4; i++)
      GST_WRITE_UINT16_LE (*cpu + 2 * i, codes[i]);
  }
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc)
      plane_texture_gl, &d);
  fail_unless (d.texture != 0);
  g_free (words);
  g_free (packed);
  return d.texture;
}

/* Off an IEEE renderer: the mPSNR of the GL blocks @gl within PSNR_BOUND
 * of the CPU's @cpu, against the picture @cpu_in of @input */
static void
check_hdr_mpsnr (GstBcFormat bc_format, const GstBcHdrInput * input,
    const guint8 * cpu_in, const guint8 * cpu, const guint8 * gl,
    guint width, guint height)
{
  gsize n = (gsize) width * height;
  guint16 *a = g_new (guint16, n * 4);
  guint16 *b = g_new (guint16, n * 4);
  guint16 *src = g_new (guint16, n * 4);
  guint blocks_y = (height + 3) / 4;
  gdouble pa, pb;

  gst_bc_hdr_input_convert (input, cpu_in, n, src);
  gst_bc_decode_rows_half (bc_format, cpu, width, height, 0, blocks_y,
      (guint8 *) a, (gsize) width * 8);
  gst_bc_decode_rows_half (bc_format, gl, width, height, 0, blocks_y,
      (guint8 *) b, (gsize) width * 8);
  pa = hdrtest_mpsnr (src, a, n);
  pb = hdrtest_mpsnr (src, b, n);
  fail_unless (fabs (pa - pb) <= PSNR_BOUND, "mPSNR CPU %.3f GL %.3f", pa, pb);
  g_free (a);
  g_free (b);
  g_free (src);
}

/* the count of two-region blocks of the BC6H frame @data of @n blocks
 * (modes 1 to 10: every 2-bit or 5-bit mode but 11 to 14's 0x03, 0x07,
 * 0x0b, 0x0f) */
static gsize
count_two_region (const guint8 * data, gsize n)
{
  gsize i, two = 0;

  for (i = 0; i < n; i++) {
    guint m = data[i * 16] & 0x1f;

    if ((m & 2) == 0 || (m != 0x03 && m != 0x07 && m != 0x0b && m != 0x0f))
      two++;
  }
  return two;
}

/* gst_bc_gl_encoder_new_hdr () of @format textures with @transfer into
 * @bc_format (BC6H, BC6H-SF): quality=@first to @last give the blocks of
 * the CPU's gst_bc_encode_rows_hdr () (on llvmpipe bit for bit, else
 * within PSNR_BOUND of its mPSNR); the CPU's blocks of @last have at least
 * @min_two of two regions */
static void
check_hdr_format (GstBcFormat bc_format, GstBcQuality first,
    GstBcQuality last, GstVideoFormat format,
    GstVideoTransferFunction transfer, HdrtestPicture kind, guint width,
    guint height, guint seed, gsize min_two)
{
  GstVideoFormat cpu_format = format == GST_VIDEO_FORMAT_RGB10A2_LE ?
      GST_VIDEO_FORMAT_RGB10A2_LE : GST_VIDEO_FORMAT_RGBA64_LE;
  GstVideoColorimetry cm = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_RGB, transfer, GST_VIDEO_COLOR_PRIMARIES_BT2020
  };
  GstBcInfo info = make_info (bc_format, width, height);
  GstBcHdrInput *input = gst_bc_hdr_input_new (cpu_format, &cm);
  guint16 *codes = hdrtest_codes (kind, transfer, width, height, seed);
  const gchar *fmt = gst_bc_format_to_string (bc_format);
  guint8 *cpu_in, *cpu = NULL, *gl = NULL;
  GstBcGLEncoder *enc;
  GError *error = NULL;
  GLuint texture;
  GstBcQuality q;

  fail_unless (input != NULL);
  texture = hdr_texture (format, codes, width, height, &cpu_in);
  enc = gst_bc_gl_encoder_new_hdr (context, &info, format, input, 3, &error);
  fail_unless (enc != NULL, "%s: %s", gst_video_format_to_string (format),
      error ? error->message : "?");
  for (q = first; q <= last; q++) {
    gsize i, n = info.size / 16, differ = 0, two;

    g_free (gl);
    g_free (cpu);
    gl = gl_encode (enc, &info, texture, q);
    cpu = g_malloc (info.size);
    gst_bc_encode_rows_hdr (input, bc_format, q, cpu_in,
        (gsize) width * gst_bc_hdr_input_get_bpp (input), width, height, 0,
        info.blocks_y, cpu);

    for (i = 0; i < n; i++)
      if (memcmp (gl + i * 16, cpu + i * 16, 16) != 0)
        differ++;
    two = count_two_region (cpu, n);
    GST_INFO ("%s quality %d of %s transfer %d picture %d %ux%u: %"
        G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " blocks differ (%"
        G_GSIZE_FORMAT " of two regions)", fmt, q,
        gst_video_format_to_string (format), transfer, kind, width, height,
        differ, n, two);
    if (q == last)
      fail_unless (two >= min_two, "%s quality %d, picture %d: %"
          G_GSIZE_FORMAT " blocks of two regions, not %" G_GSIZE_FORMAT,
          fmt, q, kind, two, min_two);
    if (ieee_renderer) {
      fail_unless (differ == 0, "%s quality %d of %s, transfer %d, picture "
          "%d, %ux%u: %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " blocks "
          "differ", fmt, q, gst_video_format_to_string (format), transfer,
          kind, width, height, differ, n);
      continue;
    }
    check_hdr_mpsnr (bc_format, input, cpu_in, cpu, gl, width, height);
  }

  gst_bc_gl_encoder_free (enc);
  texture_free (texture);
  gst_bc_hdr_input_free (input);
  g_free (codes);
  g_free (cpu_in);
  g_free (cpu);
  g_free (gl);
}

static void
check_hdr (GstVideoFormat format, GstVideoTransferFunction transfer,
    HdrtestPicture kind, guint width, guint height, guint seed)
{
  check_hdr_format (GST_BC_FORMAT_BC6H, GST_BC_QUALITY_FAST,
      GST_BC_QUALITY_FAST, format, transfer, kind, width, height, seed, 0);
}

/* BC6H quality=fast: every texture format the encoder reads, each
 * transfer, photograph-like, random and speckled pictures (the random
 * blocks reach the rare per-block fallback of fast_block ()), odd sizes
 * and sizes from one pixel up */
GST_START_TEST (test_bc6h)
{
  static const GstVideoFormat hdr_formats[] = { GST_VIDEO_FORMAT_RGBA64_LE,
    GST_VIDEO_FORMAT_ARGB64, GST_VIDEO_FORMAT_RGB10A2_LE
  };
  static const GstVideoTransferFunction transfers[] = {
    GST_VIDEO_TRANSFER_SMPTE2084, GST_VIDEO_TRANSFER_ARIB_STD_B67,
    GST_VIDEO_TRANSFER_GAMMA10
  };
  static const guint sizes[][2] = { {1, 1}, {5, 3}, {8, 4}, {13, 9} };
  guint f, t, k, i;

  for (f = 0; f < G_N_ELEMENTS (hdr_formats); f++) {
    fail_unless (gst_bc_gl_encoder_hdr_format_supported (hdr_formats[f]));
    for (t = 0; t < G_N_ELEMENTS (transfers); t++)
      for (k = HDRTEST_PHOTO; k <= HDRTEST_SPECKLED; k++)
        check_hdr (hdr_formats[f], transfers[t], k, 157, 75, f * 9 + t * 3 + k);
  }
  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    check_hdr (GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_TRANSFER_SMPTE2084,
        HDRTEST_SPECKLED, sizes[i][0], sizes[i][1], i);
  /* the rare blocks of fast_block (): tens of them in each */
  check_hdr (GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_TRANSFER_SMPTE2084,
      HDRTEST_FLAT, 640, 480, 1);
  check_hdr (GST_VIDEO_FORMAT_ARGB64, GST_VIDEO_TRANSFER_GAMMA10, HDRTEST_FLAT,
      640, 480, 2);
  assert_no_gl_error ();
}

GST_END_TEST;

/* BC6H and BC6H-SF at quality=fast and normal: photograph-like, random,
 * speckled and nearly flat pictures and boxes' corners (the photograph-like,
 * random and speckled blocks reach normal's two regions; the nearly flat
 * ones its per-block fallback; the corners, tens of blocks in each, the
 * fallback's two regions), odd sizes and sizes
 * from one pixel up, in the programs of 16-bit and 10-bit textures of PQ
 * or linear codes and of HLG codes (PQ and linear differ in their tables
 * only; test_bc6h has every format and transfer at quality=fast,
 * test_bc6h_high quality=high); the cases of @bc_format. Each program
 * takes llvmpipe seconds to compile the first time: BC6H
 * (test_bc6h_normal) and BC6H-SF (test_bc6h_normal_signed) apart, each
 * well within its timeout with a cold shader cache. */
static void
check_normal (GstBcFormat bc_format)
{
  static const struct
  {
    GstBcFormat bc_format;
    GstVideoFormat format;
    GstVideoTransferFunction transfer;
    HdrtestPicture kind;
    guint width, height;
  } cases[] = {
    {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_RGBA64_LE,
        GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_PHOTO, 157, 75},
    {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_RGBA64_LE,
        GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_RANDOM, 157, 75},
    {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_ARGB64,
        GST_VIDEO_TRANSFER_GAMMA10, HDRTEST_SPECKLED, 157, 75},
    {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_ARGB64,
        GST_VIDEO_TRANSFER_ARIB_STD_B67, HDRTEST_SPECKLED, 131, 67},
    {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_RGB10A2_LE,
        GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_SPECKLED, 157, 75},
    {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_RGBA64_LE,
        GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_FLAT, 320, 240},
    {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_RGBA64_LE,
        GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_CORNERS, 320, 240},
    {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_RGB10A2_LE,
        GST_VIDEO_TRANSFER_GAMMA10, HDRTEST_CORNERS, 250, 122},
    {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_RGBA64_LE,
        GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_SPECKLED, 1, 1},
    {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_RGBA64_LE,
        GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_SPECKLED, 5, 3},
    {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_RGBA64_LE,
        GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_PHOTO, 157, 75},
    {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_ARGB64,
        GST_VIDEO_TRANSFER_GAMMA10, HDRTEST_RANDOM, 157, 75},
    {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_RGBA64_LE,
        GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_SPECKLED, 157, 75},
    {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_RGB10A2_LE,
        GST_VIDEO_TRANSFER_ARIB_STD_B67, HDRTEST_SPECKLED, 131, 67},
    {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_ARGB64,
        GST_VIDEO_TRANSFER_GAMMA10, HDRTEST_FLAT, 320, 240},
    {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_ARGB64,
        GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_CORNERS_SIGNED, 320, 240},
    {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_RGBA64_LE,
        GST_VIDEO_TRANSFER_ARIB_STD_B67, HDRTEST_CORNERS_SIGNED, 250, 122},
    {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_RGBA64_LE,
        GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_SPECKLED, 13, 9},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    if (cases[i].bc_format == bc_format)
      check_hdr_format (cases[i].bc_format, GST_BC_QUALITY_FAST,
          GST_BC_QUALITY_NORMAL, cases[i].format, cases[i].transfer,
          cases[i].kind, cases[i].width, cases[i].height, 30 + i, 0);
  assert_no_gl_error ();
}

GST_START_TEST (test_bc6h_normal)
{
  check_normal (GST_BC_FORMAT_BC6H);
}

GST_END_TEST;

GST_START_TEST (test_bc6h_normal_signed)
{
  check_normal (GST_BC_FORMAT_BC6H_SF);
}

GST_END_TEST;

/* quality=high (the per-block search: every mode, every index, six
 * partitions) on small pictures, llvmpipe running it slowly:
 * photograph-like, random and speckled ones whose blocks reach the
 * two-region pass (at least min_two of the CPU's blocks have two regions),
 * nearly flat ones and boxes' corners, odd sizes, 16-bit and 10-bit
 * textures of PQ, linear and HLG codes; BC6H (test_bc6h_high) and BC6H-SF
 * (test_bc6h_high_signed), each test's programs compiled within its
 * timeout the first time (about 7 s each on llvmpipe) */
typedef struct
{
  GstBcFormat bc_format;
  GstVideoFormat format;
  GstVideoTransferFunction transfer;
  HdrtestPicture kind;
  guint width, height;
  gsize min_two;
} HighCase;

static const HighCase high_cases[] = {
  {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_RGBA64_LE,
      GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_PHOTO, 37, 29, 4},
  {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_ARGB64,
      GST_VIDEO_TRANSFER_GAMMA10, HDRTEST_SPECKLED, 32, 32, 4},
  {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_RGB10A2_LE,
      GST_VIDEO_TRANSFER_ARIB_STD_B67, HDRTEST_RANDOM, 23, 17, 2},
  {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_RGBA64_LE,
      GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_CORNERS, 48, 40, 1},
  {GST_BC_FORMAT_BC6H, GST_VIDEO_FORMAT_RGBA64_LE,
      GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_FLAT, 5, 3, 0},
};

static const HighCase high_cases_signed[] = {
  {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_RGBA64_LE,
      GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_PHOTO, 37, 29, 4},
  {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_ARGB64,
      GST_VIDEO_TRANSFER_ARIB_STD_B67, HDRTEST_SPECKLED, 29, 21, 4},
  {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_RGB10A2_LE,
      GST_VIDEO_TRANSFER_GAMMA10, HDRTEST_RANDOM, 32, 16, 2},
  {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_RGBA64_LE,
      GST_VIDEO_TRANSFER_SMPTE2084, HDRTEST_CORNERS_SIGNED, 48, 40, 1},
  {GST_BC_FORMAT_BC6H_SF, GST_VIDEO_FORMAT_ARGB64,
      GST_VIDEO_TRANSFER_GAMMA10, HDRTEST_FLAT, 1, 1, 0},
};

static void
check_high (const HighCase * cases, guint n, guint seed)
{
  guint i;

  for (i = 0; i < n; i++)
    check_hdr_format (cases[i].bc_format, GST_BC_QUALITY_HIGH,
        GST_BC_QUALITY_HIGH, cases[i].format, cases[i].transfer,
        cases[i].kind, cases[i].width, cases[i].height, seed + i,
        cases[i].min_two);
  assert_no_gl_error ();
}

GST_START_TEST (test_bc6h_high)
{
  check_high (high_cases, G_N_ELEMENTS (high_cases), 60);
}

GST_END_TEST;

GST_START_TEST (test_bc6h_high_signed)
{
  check_high (high_cases_signed, G_N_ELEMENTS (high_cases_signed), 65);
}

GST_END_TEST;

/* What the BC6H encoder refuses: another block format, other textures,
 * an input of other codes; and the 8-bit constructor refuses BC6H. It
 * prepares every quality. */
GST_START_TEST (test_bc6h_refused)
{
  GstVideoColorimetry cm = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_RGB, GST_VIDEO_TRANSFER_SMPTE2084,
    GST_VIDEO_COLOR_PRIMARIES_BT2020
  };
  GstBcInfo info = make_info (GST_BC_FORMAT_BC6H, 16, 8);
  GstBcInfo bc7 = make_info (GST_BC_FORMAT_BC7, 16, 8);
  GstBcHdrInput *in16 = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE,
      &cm);
  GstBcHdrInput *in10 = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGB10A2_LE,
      &cm);
  GstBcGLEncoder *enc;
  GError *error = NULL;

  fail_if (gst_bc_gl_encoder_hdr_format_supported (GST_VIDEO_FORMAT_RGBA));
  fail_if (gst_bc_gl_encoder_hdr_format_supported (GST_VIDEO_FORMAT_P010_10LE));
  fail_if (gst_bc_gl_encoder_format_supported (GST_BC_FORMAT_BC6H));

  fail_if (gst_bc_gl_encoder_new_hdr (context, &bc7, GST_VIDEO_FORMAT_ARGB64,
          in16, 2, &error));
  fail_unless (error != NULL && strstr (error->message, "BC7"));
  g_clear_error (&error);
  fail_if (gst_bc_gl_encoder_new_hdr (context, &info, GST_VIDEO_FORMAT_RGBA,
          in16, 2, &error));
  fail_unless (error != NULL && strstr (error->message, "RGBA"));
  g_clear_error (&error);
  fail_if (gst_bc_gl_encoder_new_hdr (context, &info,
          GST_VIDEO_FORMAT_RGB10A2_LE, in16, 2, &error));
  fail_unless (error != NULL && strstr (error->message, "codes"));
  g_clear_error (&error);
  fail_if (gst_bc_gl_encoder_new_hdr (context, &info, GST_VIDEO_FORMAT_ARGB64,
          in10, 2, &error));
  fail_unless (error != NULL && strstr (error->message, "codes"));
  g_clear_error (&error);
  fail_if (gst_bc_gl_encoder_new (context, &info, &test_rgba_layout, 2,
          &error));
  fail_unless (error != NULL && strstr (error->message, "BC6H"));
  g_clear_error (&error);

  enc = gst_bc_gl_encoder_new_hdr (context, &info, GST_VIDEO_FORMAT_ARGB64,
      in16, 2, &error);
  fail_unless (enc != NULL, "%s", error ? error->message : "?");
  fail_unless (gst_bc_gl_encoder_prepare (enc, GST_BC_QUALITY_FAST, &error));
  fail_unless (gst_bc_gl_encoder_prepare (enc, GST_BC_QUALITY_NORMAL,
          &error));
  fail_unless (gst_bc_gl_encoder_prepare (enc, GST_BC_QUALITY_HIGH, &error),
      "%s", error ? error->message : "?");
  gst_bc_gl_encoder_free (enc);

  gst_bc_hdr_input_free (in16);
  gst_bc_hdr_input_free (in10);
  assert_no_gl_error ();
}

GST_END_TEST;

static Suite *
bcglencode_suite (void)
{
  Suite *s = suite_create ("bcglencode");
  /* minutes a test with a cold shader cache (meson.build) */
  TCase *tc = test_suite_add_general (s, 600);

  tcase_add_test (tc, test_context);
  tcase_add_test (tc, test_formats);
  tcase_add_test (tc, test_layouts);
  tcase_add_test (tc, test_gray);
  tcase_add_test (tc, test_sizes);
  tcase_add_test (tc, test_solid);
  tcase_add_test (tc, test_slots);
  tcase_add_test (tc, test_refused);
  tcase_add_test (tc, test_yuv);
  tcase_add_test (tc, test_yuv_block_formats);
  tcase_add_test (tc, test_yuv_refused);
  tcase_add_test (tc, test_bc6h);
  tcase_add_test (tc, test_bc6h_normal);
  tcase_add_test (tc, test_bc6h_normal_signed);
  tcase_add_test (tc, test_bc6h_high);
  tcase_add_test (tc, test_bc6h_high_signed);
  tcase_add_test (tc, test_bc6h_refused);
  /* a GL context for each test, in the test's process */
  tcase_add_checked_fixture (tc, setup, teardown);
  return s;
}

int
main (int argc, char **argv)
{
  gchar *renderer = NULL;

  gl_test_init (argc, argv);
  if (!gl_test_check_init (&argc, &argv, &renderer))
    return 77;
  ieee_renderer = strstr (renderer, "llvmpipe") != NULL;
  g_print ("bcglencode: GL_RENDERER %s: blocks %s\n", renderer, ieee_renderer
      ? "must be bit-identical to the CPU's" : "compared by PSNR");
  g_free (renderer);
  /* libgstbcgl's criticals and warnings fail a test, as GStreamer's do */
  test_watch_log_domain ("GStreamer-BC-GL");
  return gst_check_run_suite (bcglencode_suite (), "bcglencode", __FILE__);
}
