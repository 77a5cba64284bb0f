/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* bc-encode-gl-bench: drives the GL compute encoder of bc1enc/bc3enc
 * (gst-libs/gst/bcgl/bcglencode.c, the code the elements run) on a raw RGBA frame
 * read from a file, for the encoder benchmark (benchmarks/encode/run.py).
 *
 *   bc-encode-gl-bench -f BC1 -q normal -W 1920 -H 1080 -i frame.rgba \
 *       -o frame.bc1 [-n 10] [-m 1.0]
 *
 * The frame is uploaded once into a 2D RGBA8 texture. One untimed encode
 * compiles the program (and lets the driver finish its own compilation),
 * then the frame is encoded again and again, pipelined as the element does
 * it: frame k is submitted, then frame k - 1 is waited for (fence polling)
 * and copied out of the mapped buffer with one memcpy, until at least
 * --iterations frames and --min-time seconds. Prints one JSON object:
 *
 *   {"mode": "gl-encode", "format": "BC1", "quality": "normal",
 *    "width": 1920, "height": 1080, "renderer": "...", "version": "...",
 *    "frames": 40, "seconds": 1.02, "mpix_per_s": 81.3,
 *    "gpu_ms": 1.23, "gpu_frames": 40, "single_frame_ms": 12.1, ...}
 *
 * mpix_per_s: visible pixels over the timed run (pipelined throughput, CPU
 * copy included). gpu_ms: mean GL_TIME_ELAPSED of the dispatches (null when
 * the context has no timer queries). single_frame_ms: the best time from
 * submit to the blocks being readable for one frame alone, measured after
 * the timed run (the latency of one frame without pipelining).
 *
 * BC6H (-f BC6H or BC6H-SF, every quality): the input is raw
 * RGBA64_LE codes (8
 * bytes a pixel) of --transfer (pq, hlg or linear), uploaded into an
 * RGBA16 texture and encoded by gst_bc_gl_encoder_new_hdr () (bc6henc's
 * GL path); --cpu-output FILE writes the CPU encoder's blocks of the same
 * codes (gst_bc_encode_rows_hdr ()), and the JSON adds "mpsnr" and
 * "mpsnr_cpu": the mPSNR (exposures -3 .. +3, tests/check/hdrtest.h) of
 * either's blocks decoded by libgstbc against the converted input. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/gl/gl.h>
#include <gst/gl/gstglfuncs.h>
#include <gst/bc/bc.h>

#include <gst/bcgl/bcglencode.h>
#include "../benchlib.h"
#include "encode-options.h"

#include <stdio.h>
#include <string.h>

#include "../../tests/check/hdrtest.h"

#ifndef GL_RGBA16
#define GL_RGBA16 0x805B
#endif

static gchar *opt_format = NULL;
static gchar *opt_quality = NULL;
static gchar *opt_input = NULL;
static gchar *opt_output = NULL;
static gint opt_width = 0;
static gint opt_height = 0;
static gint opt_iterations = 10;
static gdouble opt_min_time = 0.0;
static gchar *opt_transfer = NULL;
static gchar *opt_cpu_output = NULL;

static GOptionEntry entries[] = {
  {"format", 'f', 0, G_OPTION_ARG_STRING, &opt_format,
      "Block format: BC1, YCoCg-BC3, BC3, BC4, BC5, BC7, BC6H, BC6H-SF",
      "FORMAT"},
  {"quality", 'q', 0, G_OPTION_ARG_STRING, &opt_quality,
      "Encoder quality: fast, normal, high (default normal)", "QUALITY"},
  {"input", 'i', 0, G_OPTION_ARG_FILENAME, &opt_input,
      "Raw RGBA picture", "FILE"},
  {"output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output,
      "Blocks of the last frame", "FILE"},
  {"width", 'W', 0, G_OPTION_ARG_INT, &opt_width, "Width in pixels", "PIXELS"},
  {"height", 'H', 0, G_OPTION_ARG_INT, &opt_height,
      "Height in pixels", "PIXELS"},
  {"iterations", 'n', 0, G_OPTION_ARG_INT, &opt_iterations,
      "Timed frames, at least (default 10)", "N"},
  {"min-time", 'm', 0, G_OPTION_ARG_DOUBLE, &opt_min_time,
      "Timed seconds, at least (default 0)", "SECONDS"},
  {"transfer", 't', 0, G_OPTION_ARG_STRING, &opt_transfer,
      "BC6H: the transfer of the RGBA64_LE input: pq, hlg, linear (default "
        "pq)", "TRANSFER"},
  {"cpu-output", 'c', 0, G_OPTION_ARG_FILENAME, &opt_cpu_output,
      "BC6H: the CPU encoder's blocks of the input", "FILE"},
  {NULL}
};

typedef struct
{
  guint width, height;
  const guint8 *pixels;
  gboolean rgba16;              /* BC6H: RGBA64_LE codes */
  GLuint texture;
  gchar *renderer;
  gchar *version;
} Upload;

static void
upload_gl (GstGLContext * context, Upload * u)
{
  const GstGLFuncs *gl = context->gl_vtable;

  u->renderer = g_strdup ((const gchar *) gl->GetString (GL_RENDERER));
  u->version = g_strdup ((const gchar *) gl->GetString (GL_VERSION));
  gl->GenTextures (1, &u->texture);
  gl->BindTexture (GL_TEXTURE_2D, u->texture);
  gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  gl->TexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  gl->PixelStorei (GL_UNPACK_ALIGNMENT, 4);
  gl->TexImage2D (GL_TEXTURE_2D, 0, u->rgba16 ? GL_RGBA16 : GL_RGBA8,
      u->width, u->height, 0, GL_RGBA, u->rgba16 ? GL_UNSIGNED_SHORT :
      GL_UNSIGNED_BYTE, u->pixels);
  gl->BindTexture (GL_TEXTURE_2D, 0);
}

static void
delete_texture (GstGLContext * context, Upload * u)
{
  context->gl_vtable->DeleteTextures (1, &u->texture);
}

static gboolean
fail (const gchar * what, GError * error)
{
  g_printerr ("%s: %s\n", what, error ? error->message : "?");
  g_clear_error (&error);
  return FALSE;
}

/* BC6H: the CPU encoder's blocks of the codes, and the mPSNR of @gl and
 * of them against the converted input */
static gboolean
bc6h_cpu (const GstBcHdrInput * input, const Upload * u, const GstBcInfo * info,
    GstBcQuality quality, const guint8 * gl, gdouble * mpsnr_gl,
    gdouble * mpsnr_cpu)
{
  gsize n = (gsize) u->width * u->height;
  guint8 *cpu = g_malloc (info->size);
  guint16 *src = g_new (guint16, n * 4), *dec = g_new (guint16, n * 4);
  GError *error = NULL;
  gboolean ok = TRUE;

  gst_bc_encode_rows_hdr (input, info->format, quality, u->pixels,
      (gsize) u->width * 8, u->width, u->height, 0, info->blocks_y, cpu);
  gst_bc_hdr_input_convert (input, u->pixels, n, src);
  gst_bc_decode_rows_half (info->format, gl, u->width, u->height, 0,
      info->blocks_y, (guint8 *) dec, (gsize) u->width * 8);
  *mpsnr_gl = hdrtest_mpsnr (src, dec, n);
  gst_bc_decode_rows_half (info->format, cpu, u->width, u->height, 0,
      info->blocks_y, (guint8 *) dec, (gsize) u->width * 8);
  *mpsnr_cpu = hdrtest_mpsnr (src, dec, n);
  if (opt_cpu_output && !g_file_set_contents (opt_cpu_output,
          (const gchar *) cpu, info->size, &error))
    ok = fail ("cannot write the CPU output", error);
  g_free (cpu);
  g_free (src);
  g_free (dec);
  return ok;
}

static gboolean
run (GstGLContext * context, Upload * u, GstBcFormat format,
    GstBcQuality quality, const GstBcHdrInput * input)
{
  static const GstBcPixelLayout rgba = { 4, 0, 1, 2, 3, -1 };
  GstBcGLEncoder *enc;
  GstBcInfo info;
  GError *error = NULL;
  guint8 *out;
  guint slot, prev = 0, frames = 0, gpu_frames = 0, i;
  gboolean have_prev = FALSE;
  gint64 start, now, best = G_MAXINT64;
  GstClockTime gpu_total = 0, t;
  gdouble seconds, mpix;

  gst_bc_info_init (&info);
  if (!gst_bc_info_set_format (&info, format, u->width, u->height))
    return fail ("bad size", NULL);
  if (input)
    enc = gst_bc_gl_encoder_new_hdr (context, &info,
        GST_VIDEO_FORMAT_RGBA64_LE, input, 3, &error);
  else
    enc = gst_bc_gl_encoder_new (context, &info, &rgba, 3, &error);
  if (enc == NULL)
    return fail ("cannot make the GL encoder", error);
  out = g_malloc (info.size);

  /* compile, and let the driver's deferred compilation happen */
  for (i = 0; i < 2; i++) {
    if (!gst_bc_gl_encoder_submit (enc, u->texture, quality, &slot, NULL,
            &error) || !gst_bc_gl_encoder_wait (enc, slot, &error))
      return fail ("warm-up encode failed", error);
    gst_bc_gl_encoder_release (enc, slot);
  }

  start = now = g_get_monotonic_time ();
  while (frames < (guint) opt_iterations
      || (now - start) < (gint64) (opt_min_time * G_USEC_PER_SEC)) {
    if (!gst_bc_gl_encoder_submit (enc, u->texture, quality, &slot, NULL,
            &error))
      return fail ("encode failed", error);
    if (have_prev) {
      if (!gst_bc_gl_encoder_wait (enc, prev, &error))
        return fail ("wait failed", error);
      memcpy (out, gst_bc_gl_encoder_get_data (enc, prev), info.size);
      t = gst_bc_gl_encoder_get_gpu_time (enc, prev);
      if (GST_CLOCK_TIME_IS_VALID (t)) {
        gpu_total += t;
        gpu_frames++;
      }
      gst_bc_gl_encoder_release (enc, prev);
      frames++;
    }
    prev = slot;
    have_prev = TRUE;
    now = g_get_monotonic_time ();
  }
  if (!gst_bc_gl_encoder_wait (enc, prev, &error))
    return fail ("wait failed", error);
  memcpy (out, gst_bc_gl_encoder_get_data (enc, prev), info.size);
  gst_bc_gl_encoder_release (enc, prev);
  frames++;
  now = g_get_monotonic_time ();
  seconds = (now - start) / (gdouble) G_USEC_PER_SEC;

  /* one frame alone, submit to readable */
  for (i = 0; i < 3; i++) {
    gint64 t0 = g_get_monotonic_time ();

    if (!gst_bc_gl_encoder_submit (enc, u->texture, quality, &slot, NULL,
            &error) || !gst_bc_gl_encoder_wait (enc, slot, &error))
      return fail ("encode failed", error);
    best = MIN (best, g_get_monotonic_time () - t0);
    gst_bc_gl_encoder_release (enc, slot);
  }

  if (opt_output && !g_file_set_contents (opt_output, (const gchar *) out,
          info.size, &error))
    return fail ("cannot write the output", error);

  mpix = (gdouble) u->width * u->height / 1e6;
  printf ("{\"mode\": \"gl-encode\", \"format\": \"%s\", \"quality\": \"%s\", "
      "\"width\": %u, \"height\": %u, \"renderer\": \"%s\", "
      "\"version\": \"%s\", \"frames\": %u, \"seconds\": %.6f, "
      "\"mpix_per_s\": %.3f, \"gpu_ms\": ", gst_bc_format_to_string (format),
      opt_quality ? opt_quality : "normal", u->width, u->height, u->renderer,
      u->version, frames, seconds, frames * mpix / seconds);
  if (gpu_frames)
    printf ("%.4f", gpu_total / 1e6 / gpu_frames);
  else
    printf ("null");
  printf (", \"gpu_frames\": %u, \"single_frame_ms\": %.3f, \"bytes\": %"
      G_GSIZE_FORMAT, gpu_frames, best / 1000.0, info.size);
  if (input) {
    gdouble mg, mc;

    if (!bc6h_cpu (input, u, &info, quality, out, &mg, &mc))
      return FALSE;
    printf (", \"transfer\": \"%s\", \"mpsnr\": %.4f, \"mpsnr_cpu\": %.4f",
        opt_transfer ? opt_transfer : "pq", mg, mc);
  }
  printf ("}\n");

  g_free (out);
  gst_bc_gl_encoder_free (enc);
  return TRUE;
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  GstGLDisplay *display = NULL;
  GstGLContext *context = NULL;
  GstBcFormat format;
  GstBcQuality quality;
  GstBcHdrInput *input = NULL;
  Upload u = { 0, };
  gchar *contents = NULL;
  gsize size = 0;
  int ret = 2;

  g_setenv ("GST_REGISTRY_DISABLE", "yes", FALSE);
  g_setenv ("GST_GL_PLATFORM", "egl", FALSE);
  g_setenv ("GST_GL_WINDOW", "egl-device", FALSE);

  if (!bench_parse_options (&argc, &argv, entries,
          "- drive the GL compute block encoder", "bad options"))
    goto out;
  gst_bc_init ();

  format = gst_bc_format_from_string (opt_format ? opt_format : "");
  if (format == GST_BC_FORMAT_BC6H || format == GST_BC_FORMAT_BC6H_SF) {
    GstVideoColorimetry cm = { GST_VIDEO_COLOR_RANGE_0_255,
      GST_VIDEO_COLOR_MATRIX_RGB, GST_VIDEO_TRANSFER_SMPTE2084,
      GST_VIDEO_COLOR_PRIMARIES_BT2020
    };

    if (opt_transfer && strcmp (opt_transfer, "hlg") == 0)
      cm.transfer = GST_VIDEO_TRANSFER_ARIB_STD_B67;
    else if (opt_transfer && strcmp (opt_transfer, "linear") == 0)
      cm.transfer = GST_VIDEO_TRANSFER_GAMMA10;
    else if (opt_transfer && strcmp (opt_transfer, "pq") != 0) {
      g_printerr ("Unknown --transfer '%s'\n", opt_transfer);
      goto out;
    }
    input = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE, &cm);
  } else if (!gst_bc_gl_encoder_format_supported (format)) {
    g_printerr ("Unknown or unsupported --format '%s'\n",
        GST_STR_NULL (opt_format));
    goto out;
  }
  if (!parse_quality (opt_quality, &quality)) {
    g_printerr ("Unknown --quality '%s'\n", opt_quality);
    goto out;
  }
  if (opt_width <= 0 || opt_height <= 0 || opt_input == NULL
      || opt_iterations < 0 || opt_min_time < 0) {
    g_printerr ("--width, --height and --input are required\n");
    goto out;
  }
  if (!g_file_get_contents (opt_input, &contents, &size, &error)) {
    fail ("cannot read the input", error);
    ret = 1;
    goto out;
  }
  if (size != (gsize) opt_width * opt_height * (input ? 8 : 4)) {
    g_printerr ("'%s' is not a %dx%d %s picture\n", opt_input, opt_width,
        opt_height, input ? "RGBA64_LE" : "RGBA");
    ret = 1;
    goto out;
  }

  display = gst_gl_display_new ();
  if (!gst_gl_display_create_context (display, NULL, &context, &error)) {
    fail ("no GL context", error);
    ret = 77;
    goto out;
  }
  if (gst_bc_gl_encoder_context_missing (context)) {
    g_printerr ("The GL context lacks %s\n",
        gst_bc_gl_encoder_context_missing (context));
    ret = 77;
    goto out;
  }
  u.width = opt_width;
  u.height = opt_height;
  u.pixels = (const guint8 *) contents;
  u.rgba16 = input != NULL;
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) upload_gl, &u);
  ret = run (context, &u, format, quality, input) ? 0 : 1;
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) delete_texture,
      &u);

out:
  g_clear_pointer (&input, gst_bc_hdr_input_free);
  g_free (u.renderer);
  g_free (u.version);
  gst_clear_object (&context);
  gst_clear_object (&display);
  g_free (contents);
  return ret;
}
