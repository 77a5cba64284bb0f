/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* bc-roundtrip: encode test video with bc1enc or bc3enc, decode it again
 * with bcdec, and report the quality (RGB PSNR against the source frames)
 * and the encode + decode throughput.
 *
 *   videotestsrc ! video/x-raw,format=RGBA,... ! tee name=t
 *     t. ! queue ! appsink name=ref
 *     t. ! queue ! bc1enc ! bcdec ! video/x-raw,format=RGBA ! appsink name=out
 *
 * Uninstalled use:
 *   GST_PLUGIN_PATH=build/gst build/examples/bc-roundtrip --format ycocg
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/video/video.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

/* PSNR given to a frame decoded without any error */
#define PSNR_IDENTICAL 100.0

typedef struct
{
  const gchar *name;            /* --format value */
  const gchar *element;         /* encoder element */
  gboolean ycocg;               /* bc3enc ycocg property */
  const gchar *label;           /* caps format string */
} RoundtripFormat;

static const RoundtripFormat formats[] = {
  {"bc1", "bc1enc", FALSE, "BC1"},
  {"ycocg", "bc3enc", TRUE, "YCoCg-BC3"},
  {"bc3", "bc3enc", FALSE, "BC3"},
};

typedef struct
{
  GMutex lock;
  gint64 start_us;
  gint64 eos_us;
} RunTiming;

static GstBusSyncReply
bus_sync_handler (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  RunTiming *timing = user_data;

  /* posted from the streaming thread when the last sink got EOS: the end
   * of the pipeline run, independent of how fast we compare frames */
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
    g_mutex_lock (&timing->lock);
    timing->eos_us = g_get_monotonic_time ();
    g_mutex_unlock (&timing->lock);
  }
  return GST_BUS_PASS;
}

/* Seconds from @timing's start to the pipeline's EOS, once the EOS
 * message is there (the sinks may have been faster than the bus) */
static gdouble
run_seconds (GstElement * pipeline, RunTiming * timing)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gdouble seconds;

  if (msg != NULL)
    gst_message_unref (msg);
  gst_object_unref (bus);

  g_mutex_lock (&timing->lock);
  if (timing->eos_us == 0)
    timing->eos_us = g_get_monotonic_time ();
  seconds = (timing->eos_us - timing->start_us) / 1e6;
  g_mutex_unlock (&timing->lock);
  return seconds;
}

static gboolean
check_element (const gchar * name, const gchar * hint)
{
  GstElementFactory *factory = gst_element_factory_find (name);

  if (factory == NULL) {
    g_printerr ("%s not found: %s\n", name, hint);
    return FALSE;
  }
  gst_object_unref (factory);
  return TRUE;
}

/* Squared error over the R, G and B channels of two RGBA frames */
static gboolean
frame_sse (GstSample * ref, GstSample * out, guint64 * sse, guint64 * n)
{
  GstVideoInfo ref_info, out_info;
  GstVideoFrame ref_frame, out_frame;
  guint x, y, w, h;
  guint64 sum = 0;

  if (!gst_video_info_from_caps (&ref_info, gst_sample_get_caps (ref)) ||
      !gst_video_info_from_caps (&out_info, gst_sample_get_caps (out)))
    return FALSE;
  if (GST_VIDEO_INFO_FORMAT (&ref_info) != GST_VIDEO_FORMAT_RGBA ||
      GST_VIDEO_INFO_FORMAT (&out_info) != GST_VIDEO_FORMAT_RGBA ||
      GST_VIDEO_INFO_WIDTH (&ref_info) != GST_VIDEO_INFO_WIDTH (&out_info) ||
      GST_VIDEO_INFO_HEIGHT (&ref_info) != GST_VIDEO_INFO_HEIGHT (&out_info))
    return FALSE;

  if (!gst_video_frame_map (&ref_frame, &ref_info, gst_sample_get_buffer (ref),
          GST_MAP_READ))
    return FALSE;
  if (!gst_video_frame_map (&out_frame, &out_info, gst_sample_get_buffer (out),
          GST_MAP_READ)) {
    gst_video_frame_unmap (&ref_frame);
    return FALSE;
  }

  w = GST_VIDEO_INFO_WIDTH (&ref_info);
  h = GST_VIDEO_INFO_HEIGHT (&ref_info);
  for (y = 0; y < h; y++) {
    const guint8 *a = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&ref_frame,
        0) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&ref_frame, 0);
    const guint8 *b = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&out_frame,
        0) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&out_frame, 0);
    guint64 row = 0;

    for (x = 0; x < w * 4; x += 4) {
      gint dr = (gint) a[x] - b[x];
      gint dg = (gint) a[x + 1] - b[x + 1];
      gint db = (gint) a[x + 2] - b[x + 2];

      row += (guint64) (dr * dr + dg * dg + db * db);
    }
    sum += row;
  }

  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&ref_frame);
  *sse = sum;
  *n = (guint64) w *h * 3;
  return TRUE;
}

static gdouble
psnr_from_sse (guint64 sse, guint64 n)
{
  gdouble mse;

  if (sse == 0 || n == 0)
    return PSNR_IDENTICAL;
  mse = (gdouble) sse / (gdouble) n;
  return MIN (PSNR_IDENTICAL, 10.0 * log10 (255.0 * 255.0 / mse));
}

/* appsink's action signals, so that we need no gstreamer-app library */
static GstSample *
pull_sample (GstElement * appsink)
{
  GstSample *sample = NULL;

  g_signal_emit_by_name (appsink, "pull-sample", &sample);
  return sample;
}

static gboolean
sink_is_eos (GstElement * appsink)
{
  gboolean eos = FALSE;

  g_object_get (appsink, "eos", &eos, NULL);
  return eos;
}

static void
print_bus_error (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg != NULL) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    g_printerr ("Error from %s: %s\n%s\n", GST_OBJECT_NAME (msg->src),
        err->message, dbg ? dbg : "");
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
}

/* The command line */
typedef struct
{
  gchar *format_name, *quality, *pattern;
  gint width, height, n_frames, threads;
  const RoundtripFormat *fmt;   /* from --format */
} Options;

static void
options_clear (Options * o)
{
  g_free (o->format_name);
  g_free (o->quality);
  g_free (o->pattern);
}

/* 0, or the exit status: 2 on a bad option, 1 on a bad value */
static gint
parse_options (Options * o, int *argc, char ***argv)
{
  GOptionEntry entries[] = {
    {"format", 'f', 0, G_OPTION_ARG_STRING, &o->format_name,
        "Block format: bc1, ycocg (YCoCg-BC3) or bc3 (default bc1)", "FMT"},
    {"quality", 'q', 0, G_OPTION_ARG_STRING, &o->quality,
        "Encoder quality: fast, normal or high (default normal)", "Q"},
    {"width", 'W', 0, G_OPTION_ARG_INT, &o->width,
        "Frame width (default 1280)", "W"},
    {"height", 'H', 0, G_OPTION_ARG_INT, &o->height,
        "Frame height (default 720)", "H"},
    {"frames", 'n', 0, G_OPTION_ARG_INT, &o->n_frames,
        "Number of frames (default 60)", "N"},
    {"pattern", 'p', 0, G_OPTION_ARG_STRING, &o->pattern,
        "videotestsrc pattern (default smpte)", "P"},
    {"threads", 't', 0, G_OPTION_ARG_INT, &o->threads,
        "Worker threads of the encoder and decoder (default: theirs)", "N"},
    {NULL}
  };
  guint i;

  o->width = 1280;
  o->height = 720;
  o->n_frames = 60;
  o->threads = -1;
  if (!example_parse_options (argc, argv, entries,
          "- BC encode/decode round trip: quality and speed",
          "Encodes videotestsrc frames with bc1enc or bc3enc, decodes them "
          "with bcdec and\ncompares them with the source. PSNR is over R, G "
          "and B; a frame without any\nerror counts as 100 dB. Throughput is "
          "the wall clock time of the whole\npipeline run."))
    return 2;

  if (o->format_name == NULL)
    o->format_name = g_strdup ("bc1");
  if (o->quality == NULL)
    o->quality = g_strdup ("normal");
  if (o->pattern == NULL)
    o->pattern = g_strdup ("smpte");

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    if (g_ascii_strcasecmp (o->format_name, formats[i].name) == 0)
      o->fmt = &formats[i];
  }
  if (o->fmt == NULL) {
    g_printerr ("Unknown format '%s': use bc1, ycocg or bc3\n", o->format_name);
    return 1;
  }
  if (strcmp (o->quality, "fast") != 0 && strcmp (o->quality, "normal") != 0
      && strcmp (o->quality, "high") != 0) {
    g_printerr ("Unknown quality '%s': use fast, normal or high\n", o->quality);
    return 1;
  }
  if (o->width < 1 || o->height < 1 || o->n_frames < 1) {
    g_printerr ("--width, --height and --frames must be at least 1\n");
    return 1;
  }
  return 0;
}

/* Sets --quality, --threads and the ycocg property of the encoder "enc"
 * and the decoder "dec" of @pipeline */
static void
configure_codecs (GstElement * pipeline, const Options * o)
{
  GstElement *enc = gst_bin_get_by_name (GST_BIN (pipeline), "enc");
  GstElement *dec = gst_bin_get_by_name (GST_BIN (pipeline), "dec");

  gst_util_set_object_arg (G_OBJECT (enc), "quality", o->quality);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (enc), "ycocg"))
    gst_util_set_object_arg (G_OBJECT (enc), "ycocg",
        o->fmt->ycocg ? "true" : "false");
  else if (o->fmt->ycocg)
    g_printerr ("warning: %s has no ycocg property\n", o->fmt->element);
  if (o->threads >= 0) {
    gchar *t = g_strdup_printf ("%d", o->threads);

    gst_util_set_object_arg (G_OBJECT (enc), "threads", t);
    gst_util_set_object_arg (G_OBJECT (dec), "threads", t);
    g_free (t);
  }
  gst_object_unref (enc);
  gst_object_unref (dec);
}

/* The pipeline of the header comment, or NULL (message printed) */
static GstElement *
build_pipeline (const Options * o)
{
  GstElement *pipeline;
  GError *err = NULL;
  gchar *desc;

  if (!check_element (o->fmt->element,
          "set GST_PLUGIN_PATH to the build directory") ||
      !check_element ("bcdec", "set GST_PLUGIN_PATH to the build directory")
      || !check_element ("videotestsrc",
          "install gst-plugins-base (gstreamer1.0-plugins-base)")
      || !check_element ("appsink",
          "install gst-plugins-base (gstreamer1.0-plugins-base)")
      || !check_element ("tee", "GStreamer core elements are missing")
      || !check_element ("queue", "GStreamer core elements are missing"))
    return NULL;

  desc = g_strdup_printf ("videotestsrc num-buffers=%d pattern=%s ! "
      "video/x-raw,format=RGBA,width=%d,height=%d,framerate=30/1 ! "
      "tee name=t "
      "t. ! queue ! appsink name=ref sync=false "
      "t. ! queue ! %s name=enc ! bcdec name=dec ! "
      "video/x-raw,format=RGBA ! appsink name=out sync=false",
      o->n_frames, o->pattern, o->width, o->height, o->fmt->element);
  pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (pipeline == NULL || err != NULL) {
    g_printerr ("Could not build the pipeline: %s\n",
        err ? err->message : "unknown error");
    g_clear_error (&err);
    if (pipeline)
      gst_object_unref (pipeline);
    return NULL;
  }
  configure_codecs (pipeline, o);
  return pipeline;
}

/* The quality over the frames compared */
typedef struct
{
  guint frames;
  gdouble psnr_sum, psnr_min;
  guint64 total_sse, total_n;
} Quality;

/* Pairs up the frames of @ref_sink and @out_sink, which see the same
 * frames in the same order, until both end. FALSE, with a message, when
 * they do not end together or with the frames expected. */
static gboolean
compare_frames (GstElement * pipeline, GstElement * ref_sink,
    GstElement * out_sink, gint n_frames, Quality * q)
{
  q->frames = 0;
  q->psnr_sum = 0.0;
  q->psnr_min = PSNR_IDENTICAL;
  q->total_sse = q->total_n = 0;
  for (;;) {
    GstSample *ref = pull_sample (ref_sink);
    GstSample *out = ref ? pull_sample (out_sink) : NULL;
    guint64 sse, n;
    gdouble psnr;

    if (ref == NULL) {
      /* the reference branch is done: the decoded one must end too */
      out = pull_sample (out_sink);
      if (out != NULL) {
        g_printerr ("bcdec produced more frames than the source\n");
        gst_sample_unref (out);
        return FALSE;
      }
      break;
    }
    if (out == NULL) {
      gst_sample_unref (ref);
      break;
    }
    if (!frame_sse (ref, out, &sse, &n)) {
      g_printerr ("Frame %u: reference and decoded frames differ in format "
          "or size\n", q->frames);
      gst_sample_unref (ref);
      gst_sample_unref (out);
      return FALSE;
    }
    gst_sample_unref (ref);
    gst_sample_unref (out);

    psnr = psnr_from_sse (sse, n);
    q->psnr_sum += psnr;
    q->psnr_min = MIN (q->psnr_min, psnr);
    q->total_sse += sse;
    q->total_n += n;
    q->frames++;
  }

  if (!sink_is_eos (ref_sink) || !sink_is_eos (out_sink)) {
    g_printerr ("The pipeline stopped after %u frames\n", q->frames);
    print_bus_error (pipeline);
    return FALSE;
  }
  if (q->frames != (guint) n_frames) {
    g_printerr ("Got %u frame pairs, expected %d\n", q->frames, n_frames);
    return FALSE;
  }
  return TRUE;
}

static void
print_report (const Options * o, const Quality * q, gdouble seconds)
{
  g_print ("format:     %s (%s)\n", o->fmt->label, o->fmt->element);
  g_print ("quality:    %s\n", o->quality);
  g_print ("size:       %dx%d, pattern %s\n", o->width, o->height, o->pattern);
  g_print ("frames:     %u\n", q->frames);
  g_print ("PSNR (RGB): %.2f dB average over frames, %.2f dB worst frame, "
      "%.2f dB over all pixels\n", q->psnr_sum / q->frames, q->psnr_min,
      psnr_from_sse (q->total_sse, q->total_n));
  g_print ("throughput: %.1f Mpixel/s, %.1f frames/s "
      "(encode + decode, %.3f s wall clock)\n",
      (gdouble) o->width * o->height * q->frames / seconds / 1e6,
      q->frames / seconds, seconds);
}

/* Runs @pipeline to its end and prints the report: 0, or 1 on a failure */
static gint
run (GstElement * pipeline, const Options * o)
{
  GstElement *ref_sink = gst_bin_get_by_name (GST_BIN (pipeline), "ref");
  GstElement *out_sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  RunTiming timing;
  Quality q;
  GstBus *bus;
  gint ret = 1;

  g_mutex_init (&timing.lock);
  timing.eos_us = 0;
  bus = gst_element_get_bus (pipeline);
  gst_bus_set_sync_handler (bus, bus_sync_handler, &timing, NULL);
  gst_object_unref (bus);

  timing.start_us = g_get_monotonic_time ();
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    g_printerr ("Could not start the pipeline\n");
    print_bus_error (pipeline);
  } else if (compare_frames (pipeline, ref_sink, out_sink, o->n_frames, &q)) {
    print_report (o, &q, run_seconds (pipeline, &timing));
    ret = 0;
  }

  gst_element_set_state (pipeline, GST_STATE_NULL);
  g_mutex_clear (&timing.lock);
  gst_object_unref (ref_sink);
  gst_object_unref (out_sink);
  return ret;
}

int
main (int argc, char **argv)
{
  Options options;
  GstElement *pipeline;
  gint ret;

  memset (&options, 0, sizeof (options));
  ret = parse_options (&options, &argc, &argv);
  if (ret == 0) {
    pipeline = build_pipeline (&options);
    if (pipeline) {
      ret = run (pipeline, &options);
      gst_object_unref (pipeline);
    } else {
      ret = 1;
    }
  }
  options_clear (&options);
  return ret;
}
