/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* bc-encode-bench: drives libgstbc's CPU block encoder and decoder on raw
 * frames read from files, for the encoder benchmark (benchmarks/encode/)
 * and the interoperability test (tests/interop/). One process encodes or
 * decodes a frame many times, so process start-up is never measured.
 *
 *   bc-encode-bench encode -f BC1 -q normal -t 0 -s auto -W 1920 -H 1080 \
 *       -i frame.rgba -o frame.bc1 [-n 10] [-m 1.0] [-r 1] [-p RGBA]
 *   bc-encode-bench decode -f BC1 -W 1920 -H 1080 -i frame.bc1 \
 *       -o decoded.rgba [-t 0] [-p RGBA|half|RGBA64_LE]
 *
 * Encode mode encodes the frame once untimed (warm-up), then again and again
 * until it has done at least --iterations frames and spent at least
 * --min-time seconds, each frame split into jobs of --rows-per-job block
 * rows run on a GstBcWorkers pool of --threads threads. It writes the last
 * frame's blocks to --output and prints one JSON object on stdout:
 *
 *   {"mode": "encode", "format": "BC1", "quality": "normal", "width": 1920,
 *    "height": 1080, "threads": 2, "simd": "avx2", "frames": 40,
 *    "seconds": 1.02, "mpix_per_s": 81.3, "best_frame_ms": 24.1, ...}
 *
 * mpix_per_s counts visible pixels over the whole timed run; best_mpix_per_s
 * is the same figure for the fastest single frame.
 *
 * Decode mode decodes a whole frame of blocks into a packed picture (RGBA by
 * default) and writes it to --output. BC6H also decodes to "half" (four
 * little-endian half floats a pixel, gst_bc_decode_rows_half()) and to
 * RGBA64_LE (PQ codes, gst_bc_decode_rows_pq()).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/bc/bc.h>

#include "../benchlib.h"
#include "encode-options.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

typedef struct
{
  GstBcFormat format;
  GstBcQuality quality;
  const guint8 *src;
  gsize src_stride;
  guint8 *dst;
  gsize dst_stride;
  guint width;
  guint height;
  guint blocks_y;
  guint rows_per_job;
  GstBcPixelLayout layout;
  /* decode: 0 for the 8-bit layout, 1 for half floats, 2 for PQ */
  guint wide;
} Job;

/* command line */
static gchar *opt_format = NULL;
static gchar *opt_quality = NULL;
static gchar *opt_simd = NULL;
static gchar *opt_pixel_format = NULL;
static gchar *opt_input = NULL;
static gchar *opt_output = NULL;
static gint opt_width = 0;
static gint opt_height = 0;
static gint opt_threads = 1;
static gint opt_iterations = 10;
static gdouble opt_min_time = 0.0;
static gint opt_rows_per_job = 1;

static GOptionEntry entries[] = {
  {"format", 'f', 0, G_OPTION_ARG_STRING, &opt_format,
      "Block format: BC1, YCoCg-BC3, BC3, BC4, BC5, BC7 (decode also BC6H, "
        "BC6H-SF)", "FORMAT"},
  {"quality", 'q', 0, G_OPTION_ARG_STRING, &opt_quality,
      "Encoder quality: fast, normal, high (default normal)", "QUALITY"},
  {"simd", 's', 0, G_OPTION_ARG_STRING, &opt_simd,
        "Highest instruction set to use: auto, none, sse2, avx2, avx512 (default auto)",
      "LEVEL"},
  {"pixel-format", 'p', 0, G_OPTION_ARG_STRING, &opt_pixel_format,
      "Packed pixel format of the raw picture, a GstVideoFormat name "
        "(default RGBA; encode also reads GRAY8 and GRAY16_LE; BC6H also "
        "decodes to half and RGBA64_LE)", "FORMAT"},
  {"input", 'i', 0, G_OPTION_ARG_FILENAME, &opt_input,
      "Input file: raw picture (encode) or blocks (decode)", "FILE"},
  {"output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output,
      "Output file: blocks (encode) or raw picture (decode)", "FILE"},
  {"width", 'W', 0, G_OPTION_ARG_INT, &opt_width,
      "Visible width in pixels", "PIXELS"},
  {"height", 'H', 0, G_OPTION_ARG_INT, &opt_height,
      "Visible height in pixels", "PIXELS"},
  {"threads", 't', 0, G_OPTION_ARG_INT, &opt_threads,
        "Threads, the caller's included; 0 = one per processor (default 1)",
      "N"},
  {"iterations", 'n', 0, G_OPTION_ARG_INT, &opt_iterations,
      "Encode: timed frames, at least (default 10)", "N"},
  {"min-time", 'm', 0, G_OPTION_ARG_DOUBLE, &opt_min_time,
      "Encode: timed seconds, at least (default 0)", "SECONDS"},
  {"rows-per-job", 'r', 0, G_OPTION_ARG_INT, &opt_rows_per_job,
      "Block rows per job of the worker pool (default 1)", "N"},
  {NULL}
};

static const gchar *
simd_to_string (GstBcSimd simd)
{
  switch (simd) {
    case GST_BC_SIMD_NONE:
      return "none";
    case GST_BC_SIMD_SSE2:
      return "sse2";
    case GST_BC_SIMD_AVX2:
      return "avx2";
    case GST_BC_SIMD_AVX512:
      return "avx512";
  }
  return "unknown";
}

static const gchar *
quality_to_string (GstBcQuality quality)
{
  switch (quality) {
    case GST_BC_QUALITY_FAST:
      return "fast";
    case GST_BC_QUALITY_NORMAL:
      return "normal";
    case GST_BC_QUALITY_HIGH:
      return "high";
  }
  return "unknown";
}

static gboolean
parse_simd (const gchar * str, GstBcSimd * simd)
{
  if (str == NULL || g_ascii_strcasecmp (str, "auto") == 0
      || g_ascii_strcasecmp (str, "avx512") == 0)
    *simd = GST_BC_SIMD_AVX512;
  else if (g_ascii_strcasecmp (str, "avx2") == 0)
    *simd = GST_BC_SIMD_AVX2;
  else if (g_ascii_strcasecmp (str, "none") == 0
      || g_ascii_strcasecmp (str, "c") == 0)
    *simd = GST_BC_SIMD_NONE;
  else if (g_ascii_strcasecmp (str, "sse2") == 0)
    *simd = GST_BC_SIMD_SSE2;
  else
    return FALSE;
  return TRUE;
}

static void
encode_job (guint job, gpointer user_data)
{
  const Job *j = user_data;
  guint first = job * j->rows_per_job;
  guint n = MIN (j->rows_per_job, j->blocks_y - first);

  gst_bc_encode_rows (j->format, j->quality, j->src, j->src_stride,
      j->width, j->height, &j->layout, first, n, j->dst);
}

static void
decode_job (guint job, gpointer user_data)
{
  const Job *j = user_data;
  guint first = job * j->rows_per_job;
  guint n = MIN (j->rows_per_job, j->blocks_y - first);

  if (j->wide == 1)
    gst_bc_decode_rows_half (j->format, j->src, j->width, j->height, first,
        n, j->dst, j->dst_stride);
  else if (j->wide == 2)
    gst_bc_decode_rows_pq (j->format, j->src, j->width, j->height, first, n,
        j->dst, j->dst_stride);
  else
    gst_bc_decode_rows (j->format, j->src, j->width, j->height, first, n,
        j->dst, j->dst_stride, &j->layout);
}

static gint
run_encode (Job * job, GstBcWorkers * workers, const gchar * simd_requested)
{
  GstBcInfo info;
  guint n_jobs = (job->blocks_y + job->rows_per_job - 1) / job->rows_per_job;
  guint8 *blocks;
  gint64 start, now, frame_start, best = G_MAXINT64;
  guint frames = 0;
  gdouble seconds, mpix, rate = 0.0, best_ms = 0.0, best_rate = 0.0;
  GError *error = NULL;

  if (!gst_bc_encode_format_supported (job->format)) {
    g_printerr ("The encoder does not support %s\n",
        gst_bc_format_to_string (job->format));
    return 2;
  }

  if (!gst_bc_info_set_format (&info, job->format, job->width, job->height)) {
    g_printerr ("Invalid frame size %ux%u\n", job->width, job->height);
    return 2;
  }
  blocks = g_malloc0 (info.size);
  job->dst = blocks;

  /* one untimed frame: page in the output, warm the caches and the pool */
  gst_bc_workers_run (workers, n_jobs, encode_job, job);

  start = now = g_get_monotonic_time ();
  while (frames < (guint) opt_iterations
      || (now - start) < (gint64) (opt_min_time * G_USEC_PER_SEC)) {
    frame_start = now;
    gst_bc_workers_run (workers, n_jobs, encode_job, job);
    now = g_get_monotonic_time ();
    best = MIN (best, now - frame_start);
    frames++;
  }

  seconds = (gdouble) (now - start) / G_USEC_PER_SEC;
  mpix = (gdouble) job->width * job->height / 1e6;
  /* all zero when nothing was timed (--iterations 0): JSON has no inf */
  if (frames > 0 && seconds > 0.0 && best > 0) {
    rate = frames * mpix / seconds;
    best_ms = best / 1000.0;
    best_rate = mpix / (best_ms / 1000.0);
  }

  if (opt_output != NULL
      && !g_file_set_contents (opt_output, (const gchar *) blocks, info.size,
          &error)) {
    g_printerr ("Could not write '%s': %s\n", opt_output, error->message);
    g_clear_error (&error);
    g_free (blocks);
    return 1;
  }

  printf ("{\"mode\": \"encode\", \"format\": \"%s\", \"quality\": \"%s\", "
      "\"width\": %u, \"height\": %u, \"threads\": %u, "
      "\"rows_per_job\": %u, \"simd\": \"%s\", \"simd_requested\": \"%s\", "
      "\"frames\": %u, \"seconds\": %.6f, \"mpix_per_s\": %.3f, "
      "\"best_frame_ms\": %.4f, \"best_mpix_per_s\": %.3f, "
      "\"bytes\": %" G_GSIZE_FORMAT "}\n",
      gst_bc_format_to_string (job->format), quality_to_string (job->quality),
      job->width, job->height, gst_bc_workers_get_n_threads (workers),
      job->rows_per_job, simd_to_string (gst_bc_encode_get_simd ()),
      simd_requested, frames, seconds, rate, best_ms, best_rate, info.size);

  g_free (blocks);
  return 0;
}

static gint
run_decode (Job * job, GstBcWorkers * workers, gsize in_size)
{
  GstBcInfo info;
  guint n_jobs = (job->blocks_y + job->rows_per_job - 1) / job->rows_per_job;
  gsize out_size;
  guint8 *picture;
  GError *error = NULL;

  if (!gst_bc_info_set_format (&info, job->format, job->width, job->height)) {
    g_printerr ("Invalid frame size %ux%u\n", job->width, job->height);
    return 2;
  }
  if (in_size != info.size) {
    g_printerr ("'%s' holds %" G_GSIZE_FORMAT " bytes, a %ux%u %s frame is %"
        G_GSIZE_FORMAT "\n", opt_input, in_size, job->width, job->height,
        gst_bc_format_to_string (job->format), info.size);
    return 1;
  }

  job->dst_stride = (gsize) job->width * (job->wide ? 8 : job->layout.bpp);
  out_size = job->dst_stride * job->height;
  picture = g_malloc0 (out_size);
  job->dst = picture;

  gst_bc_workers_run (workers, n_jobs, decode_job, job);

  if (!g_file_set_contents (opt_output, (const gchar *) picture, out_size,
          &error)) {
    g_printerr ("Could not write '%s': %s\n", opt_output, error->message);
    g_clear_error (&error);
    g_free (picture);
    return 1;
  }

  printf ("{\"mode\": \"decode\", \"format\": \"%s\", \"width\": %u, "
      "\"height\": %u, \"threads\": %u, \"bytes\": %" G_GSIZE_FORMAT "}\n",
      gst_bc_format_to_string (job->format), job->width, job->height,
      gst_bc_workers_get_n_threads (workers), out_size);

  g_free (picture);
  return 0;
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  GstBcWorkers *workers = NULL;
  GstVideoFormat vformat;
  GstBcSimd simd;
  gchar *contents = NULL;
  gsize size = 0;
  gboolean encode;
  Job job = { 0, };
  gint ret = 2;

  /* nothing here needs plugins: skip the registry scan */
  g_setenv ("GST_REGISTRY_DISABLE", "yes", FALSE);

  if (!bench_parse_options (&argc, &argv, entries, "encode|decode - drive "
          "libgstbc's block encoder and decoder on raw frames", NULL))
    goto out;
  gst_bc_init ();

  if (argc != 2 || (strcmp (argv[1], "encode") != 0
          && strcmp (argv[1], "decode") != 0)) {
    g_printerr ("Give one mode: encode or decode (see --help)\n");
    goto out;
  }
  encode = strcmp (argv[1], "encode") == 0;

  job.format = gst_bc_format_from_string (opt_format ? opt_format : "");
  if (job.format == GST_BC_FORMAT_UNKNOWN) {
    g_printerr ("Unknown --format '%s'\n", GST_STR_NULL (opt_format));
    goto out;
  }
  if (!parse_quality (opt_quality, &job.quality)) {
    g_printerr ("Unknown --quality '%s'\n", opt_quality);
    goto out;
  }
  if (!parse_simd (opt_simd, &simd)) {
    g_printerr ("Unknown --simd '%s'\n", opt_simd);
    goto out;
  }
  vformat = gst_video_format_from_string (opt_pixel_format ?
      opt_pixel_format : "RGBA");
  if (!encode && gst_bc_format_is_float (job.format)
      && g_strcmp0 (opt_pixel_format, "half") == 0) {
    job.wide = 1;
    vformat = GST_VIDEO_FORMAT_RGBA;
  } else if (!encode && gst_bc_format_is_float (job.format)
      && vformat == GST_VIDEO_FORMAT_RGBA64_LE) {
    job.wide = 2;
    vformat = GST_VIDEO_FORMAT_RGBA;
  }
  /* the encoder also reads GRAY8 and GRAY16_LE; the decoder writes RGB */
  if (!(encode ? gst_bc_encode_layout_from_video_format (&job.layout, vformat)
          : gst_bc_pixel_layout_from_video_format (&job.layout, vformat))) {
    g_printerr ("Unsupported --pixel-format '%s'\n", opt_pixel_format);
    goto out;
  }
  if (opt_width <= 0 || opt_height <= 0 || opt_input == NULL
      || (!encode && opt_output == NULL)) {
    g_printerr ("--width, --height, --input%s are required\n",
        encode ? "" : " and --output");
    goto out;
  }
  if (opt_threads < 0 || opt_iterations < 0 || opt_rows_per_job <= 0
      || opt_min_time < 0) {
    g_printerr ("--threads, --iterations, --min-time and --rows-per-job "
        "must not be negative, --rows-per-job not 0\n");
    goto out;
  }

  if (!g_file_get_contents (opt_input, &contents, &size, &error)) {
    g_printerr ("Could not read '%s': %s\n", opt_input, error->message);
    g_clear_error (&error);
    ret = 1;
    goto out;
  }

  job.width = opt_width;
  job.height = opt_height;
  job.blocks_y = (job.height + GST_BC_BLOCK_SIZE - 1) / GST_BC_BLOCK_SIZE;
  job.rows_per_job = opt_rows_per_job;
  job.src = (const guint8 *) contents;

  gst_bc_encode_set_simd (simd);
  workers = gst_bc_workers_new (opt_threads);

  if (encode) {
    job.src_stride = (gsize) job.width * job.layout.bpp;
    if (size != job.src_stride * job.height) {
      g_printerr ("'%s' holds %" G_GSIZE_FORMAT " bytes, a %ux%u %s picture "
          "is %" G_GSIZE_FORMAT "\n", opt_input, size, job.width, job.height,
          gst_video_format_to_string (vformat), job.src_stride * job.height);
      ret = 1;
      goto out;
    }
    ret = run_encode (&job, workers, opt_simd ? opt_simd : "auto");
  } else {
    ret = run_decode (&job, workers, size);
  }

out:
  gst_bc_workers_free (workers);
  g_free (contents);
  return ret;
}
