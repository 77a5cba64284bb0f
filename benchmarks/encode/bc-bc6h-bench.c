/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* bc-bc6h-bench: the BC6H encoder's speed and quality.
 *
 *   bc-bc6h-bench [--input FILE --width W --height H] [--frames N]
 *                 [--threads LIST] [--qualities LIST] [--write-blocks PREFIX]
 *                 [--score BLOCKS] [--dump FILE] [--pq] [--signed]
 *
 * The picture is the synthetic HDR picture of tests/check/hdrtest.h
 * (1920x1080 by default), or FILE: raw RGBA half floats, 8 bytes a pixel
 * (linear, 1.0 = 203 cd/m2). For every quality (fast, normal, high) and
 * thread count (default 1 and 2) it encodes the picture N times (default
 * 10; the first run is not timed), decodes it with libgstbc's decoder and
 * prints one JSON object a line: quality, threads, Mpixel/s (the median
 * run), ms per frame and the mPSNR (exposures -3 .. +3). With
 * --write-blocks the blocks of each quality are written to
 * PREFIX-QUALITY.bc6h. With --score it encodes nothing: it decodes the BC6H
 * frame BLOCKS (another encoder's output, bc6h.py) and prints its mPSNR
 * against the picture; with --dump it writes the picture (raw RGBA half
 * floats) to FILE. With --pq the picture is first made PQ RGBA64_LE
 * codes, which are encoded through gst_bc_encode_rows_hdr () (bc6henc's
 * path: the conversion is timed too; the mPSNR is against the picture
 * the conversion gives back). With --signed the blocks are signed BC6H
 * (BC6H-SF), encoded, decoded and scored as such. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/bc/bc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tests/check/hdrtest.h"

typedef struct
{
  const guint8 *src;
  guint width, height, rows_per_job, n_rows;
  GstBcQuality quality;
  GstBcFormat format;
  guint8 *dst;
  /* --pq: the picture as PQ RGBA64_LE, converted while encoding */
  const GstBcHdrInput *input;
} Job;

static void
encode_job (guint job, gpointer user_data)
{
  const Job *j = user_data;
  guint first = job * j->rows_per_job;

  if (j->input)
    gst_bc_encode_rows_hdr (j->input, j->format, j->quality, j->src,
        (gsize) j->width * 8, j->width, j->height, first,
        MIN (j->rows_per_job, j->n_rows - first), j->dst);
  else
    gst_bc_encode_rows_half (j->format, j->quality, j->src,
        (gsize) j->width * 8, j->width, j->height, first,
        MIN (j->rows_per_job, j->n_rows - first), j->dst);
}

static gint
compare_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : (x > y ? 1 : 0);
}

int
main (int argc, char **argv)
{
  gchar *input = NULL, *threads_str = NULL, *qualities_str = NULL;
  gchar *prefix = NULL, *score = NULL, *dump = NULL;
  gint width = 1920, height = 1080, frames = 10;
  gboolean pq = FALSE, is_signed = FALSE;
  GstBcFormat format;
  GOptionEntry entries[] = {
    {"input", 0, 0, G_OPTION_ARG_FILENAME, &input,
        "raw RGBA half floats (default: the synthetic picture)", "FILE"},
    {"width", 0, 0, G_OPTION_ARG_INT, &width, "width", "W"},
    {"height", 0, 0, G_OPTION_ARG_INT, &height, "height", "H"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &frames, "timed runs", "N"},
    {"threads", 0, 0, G_OPTION_ARG_STRING, &threads_str,
        "thread counts (default 1,2)", "LIST"},
    {"qualities", 0, 0, G_OPTION_ARG_STRING, &qualities_str,
        "qualities (default fast,normal,high)", "LIST"},
    {"write-blocks", 0, 0, G_OPTION_ARG_FILENAME, &prefix,
        "write the blocks of each quality to PREFIX-QUALITY.bc6h", "PREFIX"},
    {"score", 0, 0, G_OPTION_ARG_FILENAME, &score,
        "print the mPSNR of the BC6H frame in FILE, encode nothing", "FILE"},
    {"pq", 0, 0, G_OPTION_ARG_NONE, &pq,
        "encode the picture's PQ codes (RGBA64_LE, as bc6henc gets them) "
          "through gst_bc_encode_rows_hdr ()", NULL},
    {"signed", 0, 0, G_OPTION_ARG_NONE, &is_signed,
        "signed BC6H (BC6H-SF) instead of unsigned", NULL},
    {"dump", 0, 0, G_OPTION_ARG_FILENAME, &dump,
          "write the picture (raw RGBA half floats) to FILE, encode nothing",
        "FILE"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- BC6H encoder benchmark");
  GError *err = NULL;
  gchar **threads, **qualities;
  GstBcHdrInput *pq_input = NULL;
  guint8 *pq_pic = NULL;
  guint16 *pic, *dec;
  guint8 *blocks;
  guint bw, bh, t, q;
  gsize n_px;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (width < 1 || height < 1 || frames < 1)
    return 2;
  format = is_signed ? GST_BC_FORMAT_BC6H_SF : GST_BC_FORMAT_BC6H;
  n_px = (gsize) width *height;
  bw = (width + 3) / 4;
  bh = (height + 3) / 4;
  pic = g_new (guint16, n_px * 4);
  dec = g_new (guint16, n_px * 4);
  blocks = g_malloc ((gsize) bw * bh * 16);
  if (input) {
    gchar *data;
    gsize len;

    if (!g_file_get_contents (input, &data, &len, &err)) {
      g_printerr ("%s\n", err->message);
      return 1;
    }
    if (len != n_px * 8) {
      g_printerr ("%s: %" G_GSIZE_FORMAT " bytes, not %dx%d x 8\n", input,
          len, width, height);
      return 1;
    }
    memcpy (pic, data, len);
    g_free (data);
  } else {
    hdrtest_image (width, height, 1, pic);
  }

  if (dump)
    return g_file_set_contents (dump, (const gchar *) pic, n_px * 8, NULL) ?
        0 : 1;
  if (score) {
    gchar *data;
    gsize len;

    if (!g_file_get_contents (score, &data, &len, &err)) {
      g_printerr ("%s\n", err->message);
      return 1;
    }
    if (len != (gsize) bw * bh * 16) {
      g_printerr ("%s: %" G_GSIZE_FORMAT " bytes, not a %dx%d BC6H frame\n",
          score, len, width, height);
      return 1;
    }
    gst_bc_decode_rows_half (format, (const guint8 *) data, width, height, 0,
        bh, (guint8 *) dec, (gsize) width * 8);
    printf ("{\"blocks\": \"%s\", \"mpsnr\": %.2f}\n", score,
        hdrtest_mpsnr (pic, dec, n_px));
    g_free (data);
    return 0;
  }

  if (pq) {
    GstVideoColorimetry cm = { GST_VIDEO_COLOR_RANGE_0_255,
      GST_VIDEO_COLOR_MATRIX_RGB, GST_VIDEO_TRANSFER_SMPTE2084,
      GST_VIDEO_COLOR_PRIMARIES_BT2020
    };
    gsize i;

    pq_input = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE, &cm);
    pq_pic = g_malloc (n_px * 8);
    for (i = 0; i < n_px * 4; i++)
      GST_WRITE_UINT16_LE (pq_pic + 2 * i, i % 4 == 3 ? 0xffff :
          gst_bc_hdr_pq_from_half (pic[i]));
    /* the reference: what the encoder sees */
    gst_bc_hdr_input_convert (pq_input, pq_pic, n_px, pic);
  }

  threads = g_strsplit (threads_str ? threads_str : "1,2", ",", -1);
  qualities = g_strsplit (qualities_str ? qualities_str : "fast,normal,high",
      ",", -1);
  for (q = 0; qualities[q]; q++) {
    GEnumClass *ec = g_type_class_ref (GST_TYPE_BC_QUALITY);
    GEnumValue *ev = g_enum_get_value_by_nick (ec, qualities[q]);
    gdouble psnr = 0.0;

    if (ev == NULL) {
      g_printerr ("unknown quality %s\n", qualities[q]);
      return 2;
    }
    for (t = 0; threads[t]; t++) {
      GstBcWorkers *workers = gst_bc_workers_new (atoi (threads[t]));
      gdouble *times = g_new (gdouble, frames);
      Job job = { pq_pic ? pq_pic : (const guint8 *) pic, width, height, 0,
        bh, ev->value, format, blocks, pq_input
      };
      guint n_threads = gst_bc_workers_get_n_threads (workers), n_jobs;
      gint f;

      /* about four jobs a thread, as the encoders split frames */
      job.rows_per_job = n_threads <= 1 ? bh : (bh + n_threads * 4 - 1) /
          (n_threads * 4);
      n_jobs = (bh + job.rows_per_job - 1) / job.rows_per_job;

      gst_bc_workers_run (workers, n_jobs, encode_job, &job);
      for (f = 0; f < frames; f++) {
        gint64 t0 = g_get_monotonic_time ();

        gst_bc_workers_run (workers, n_jobs, encode_job, &job);
        times[f] = (g_get_monotonic_time () - t0) / 1000.0;
      }
      qsort (times, frames, sizeof (gdouble), compare_double);
      if (t == 0) {
        gst_bc_decode_rows_half (format, blocks, width, height, 0, bh,
            (guint8 *) dec, (gsize) width * 8);
        psnr = hdrtest_mpsnr (pic, dec, n_px);
        if (prefix) {
          gchar *name = g_strdup_printf ("%s-%s.bc6h", prefix, qualities[q]);

          g_file_set_contents (name, (const gchar *) blocks,
              (gssize) bw * bh * 16, NULL);
          g_free (name);
        }
      }
      printf ("{\"encoder\": \"gst-bc\", \"quality\": \"%s\", \"threads\": %u, "
          "\"width\": %d, \"height\": %d, \"ms\": %.2f, \"mpixel_s\": %.1f, "
          "\"mpsnr\": %.2f}\n", qualities[q],
          gst_bc_workers_get_n_threads (workers), width, height,
          times[frames / 2], n_px / 1000.0 / times[frames / 2], psnr);
      fflush (stdout);
      g_free (times);
      gst_bc_workers_free (workers);
    }
    g_type_class_unref (ec);
  }
  g_strfreev (threads);
  g_strfreev (qualities);
  gst_bc_hdr_input_free (pq_input);
  g_free (pq_pic);
  g_free (pic);
  g_free (dec);
  g_free (blocks);
  return 0;
}
