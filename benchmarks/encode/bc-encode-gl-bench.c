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
 * the timed run (the latency of one frame without pipelining). */

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

static gchar *opt_format = NULL;
static gchar *opt_quality = NULL;
static gchar *opt_input = NULL;
static gchar *opt_output = NULL;
static gint opt_width = 0;
static gint opt_height = 0;
static gint opt_iterations = 10;
static gdouble opt_min_time = 0.0;

static GOptionEntry entries[] = {
  {"format", 'f', 0, G_OPTION_ARG_STRING, &opt_format,
      "Block format: BC1, YCoCg-BC3, BC3, BC4, BC5, BC7", "FORMAT"},
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
  {NULL}
};

typedef struct
{
  guint width, height;
  const guint8 *pixels;
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
  gl->TexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, u->width, u->height, 0, GL_RGBA,
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

static gboolean
run (GstGLContext * context, Upload * u, GstBcFormat format,
    GstBcQuality quality)
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
      G_GSIZE_FORMAT "}\n", gpu_frames, best / 1000.0, info.size);

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
  if (!gst_bc_gl_encoder_format_supported (format)) {
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
  if (size != (gsize) opt_width * opt_height * 4) {
    g_printerr ("'%s' is not a %dx%d RGBA picture\n", opt_input, opt_width,
        opt_height);
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
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) upload_gl, &u);
  ret = run (context, &u, format, quality) ? 0 : 1;
  gst_gl_context_thread_add (context, (GstGLContextThreadFunc) delete_texture,
      &u);

out:
  g_free (u.renderer);
  g_free (u.version);
  gst_clear_object (&context);
  gst_clear_object (&display);
  g_free (contents);
  return ret;
}
