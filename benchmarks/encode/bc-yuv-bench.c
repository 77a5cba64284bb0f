/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* bc-yuv-bench: YUV input converted inside the encoder against
 * videoconvert in front of it, in one invocation, with the same threads:
 *
 *   A: appsrc (YUV) ! bcNenc threads=T ! fakesink
 *   B: appsrc (YUV) ! videoconvert n-threads=T ! video/x-raw,format=RGB
 *        ! bcNenc threads=T ! fakesink
 *
 * Both pipelines run in one streaming thread, so each stage has the T
 * threads while it works: the same total. The same YUV frame (a synthetic
 * photograph-like RGB picture, or --input, converted once to the format
 * with GstVideoInfo's default colorimetry and chroma siting for the size)
 * is pushed again and again; the time is taken between the buffers
 * reaching fakesink after --warmup frames and after --frames more. The
 * rounds alternate A and B (--rounds each); the best of each counts. The
 * last frame of each is decoded and compared with the RGB picture (PSNR
 * over R, G, B; BC4: luma; BC5: R, G). So is the RGB each path gives
 * before the block encoding (psnr_rgb_*: R, G, B): the direct path's from
 * gst_bc_yuv_convert_row (), videoconvert's from a GstVideoConverter to
 * RGBx with its defaults (those of the element) on -t threads (the
 * element's n-threads: GStreamer 1.22's 4:2:0 chroma differs on two
 * threads from one; with the threads it is the element's, value for
 * value).
 *
 * With -e bc6henc (HDR: P010_10LE and v210 only) the picture is first
 * made HDR as benchmarks/encode/bc6h.py makes the photographs HDR (sRGB
 * decoded to linear light, the highlights expanded: 1.0 = 203 cd/m2,
 * white 31), then encoded as full-range 16-bit PQ codes (SMPTE ST 2084),
 * and the frame's colorimetry is bt2100-pq (BT.2020 matrix, limited
 * range; the primaries are only carried: the photograph's are labelled
 * BT.2020). B converts to RGBA64_LE (-c), which videoconvert negotiates
 * as full-range RGB with PQ and BT.2020 (1:1:14:7). The scores are then
 * mPSNRs (hdrtest_mpsnr (): exposures -3 .. +3) against the HDR picture
 * in linear light (half floats, before PQ and YUV): of the last frame of
 * each path decoded by libgstbc (gst_bc_decode_rows_half ()), and of the
 * 16-bit PQ RGB each path makes before the block encoding, read as
 * bc6henc reads it (gst_bc_hdr_input_convert ()); "metric" says which.
 *
 * The YUV frame is made by an exact conversion (--yuv-source exact, the
 * default) of the 8-bit picture (bc6henc: of its 16-bit PQ codes):
 * double precision, rounded to the nearest code, the codes of
 * BT.709 / BT.2020 (10-bit limited range: four times the 8-bit ones),
 * chroma filtered at the frame's siting. Both paths then decode the same
 * correct frame. --yuv-source gstreamer makes it with GstVideoConverter's
 * defaults instead, as this benchmark did first; that frame is not a fair
 * reference for the 10-bit formats: GStreamer 1.22's 16-bit matrix takes
 * 8-bit RGB expanded to 0..65535 (x 257) as if white were 65280 (255 <<
 * 8), a gain of 1/255, and rounds its coefficients to 1/256, so that grey
 * has Cb 4 codes low at white (white: Y 943, Cb 508 instead of 940, 512),
 * and truncates to 10 bits. Its own conversion back truncates to 8 bits,
 * which cancels part of that gain, so the videoconvert path scored up to
 * 1.8 dB better on that frame while converting the correct frame worse
 * (P010_10LE, the bridge photograph: RGB before BC 56.9 dB direct, 53.5
 * dB videoconvert on the exact frame; 48.4 and 50.0 dB on GStreamer's).
 *
 *   bc-yuv-bench [-e bc1enc] [-q fast] [-F NV12,UYVY] [-W 3840 -H 2160]
 *       [-t 2] [-n 30] [-r 3] [-c RGBx] [-i picture.rgba] [-s exact]
 *
 * Prints one JSON object per format on stdout:
 *
 *   {"format": "NV12", "encoder": "bc1enc", "quality": "fast", "width":
 *    3840, "height": 2160, "threads": 2, "rgb_format": "RGBx",
 *    "yuv_source": "exact", "colorimetry": "bt709",
 *    "fps_yuv": 50.1, "fps_videoconvert": 20.3, "ratio": 2.47,
 *    "psnr_yuv": 38.2, "psnr_videoconvert": 37.9,
 *    "psnr_rgb_yuv": 51.4, "psnr_rgb_videoconvert": 38.2,
 *    "metric": "psnr"}
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/bc/bc.h>

#include "../benchlib.h"
#include "../../tests/check/hdrtest.h"

#include <math.h>
#include <stdio.h>

static gchar *opt_encoder = NULL;
static gchar *opt_quality = NULL;
static gchar *opt_formats = NULL;
static gchar *opt_rgb = NULL;
static gchar *opt_input = NULL;
static gchar *opt_source = NULL;
static gint opt_width = 3840;
static gint opt_height = 2160;
static gint opt_threads = 2;
static gint opt_frames = 30;
static gint opt_warmup = 3;
static gint opt_rounds = 3;

static GOptionEntry entries[] = {
  {"encoder", 'e', 0, G_OPTION_ARG_STRING, &opt_encoder,
      "Encoder element (default bc1enc)", "NAME"},
  {"quality", 'q', 0, G_OPTION_ARG_STRING, &opt_quality,
      "Its quality property (default fast)", "QUALITY"},
  {"formats", 'F', 0, G_OPTION_ARG_STRING, &opt_formats,
      "YUV formats, comma-separated (default NV12,UYVY)", "LIST"},
  {"rgb-format", 'c', 0, G_OPTION_ARG_STRING, &opt_rgb,
      "What videoconvert makes for the encoder in B (default RGBx; "
        "bc6henc: RGBA64_LE)", "FMT"},
  {"input", 'i', 0, G_OPTION_ARG_FILENAME, &opt_input,
      "A raw RGBA picture of the size (default: synthetic)", "FILE"},
  {"yuv-source", 's', 0, G_OPTION_ARG_STRING, &opt_source,
      "How the YUV frame is made: exact or gstreamer (default exact)", "HOW"},
  {"width", 'W', 0, G_OPTION_ARG_INT, &opt_width, "Width (3840)", "N"},
  {"height", 'H', 0, G_OPTION_ARG_INT, &opt_height, "Height (2160)", "N"},
  {"threads", 't', 0, G_OPTION_ARG_INT, &opt_threads,
      "Threads of videoconvert and of the encoder (default 2)", "N"},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt_frames,
      "Timed frames per round (default 30)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt_warmup,
      "Untimed frames first (default 3)", "N"},
  {"rounds", 'r', 0, G_OPTION_ARG_INT, &opt_rounds,
      "Rounds of each pipeline, alternating (default 3)", "N"},
  {NULL}
};

/* A picture with gradients, edges, texture and noise */
static guint8 *
synthetic_rgba (guint w, guint h)
{
  guint8 *p = g_malloc ((gsize) w * h * 4);
  guint32 state = 1;
  guint x, y;

  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      guint8 *px = p + ((gsize) y * w + x) * 4;
      gdouble fx = x / 97.0, fy = y / 61.0;
      gdouble base = 110 + 60 * sin (fx) * cos (fy * 0.7);
      gdouble edge = ((x / 57 + y / 33) % 3 == 0) ? 50 : 0;
      gdouble tex = 12 * sin (x * 0.9) * cos (y * 1.3);
      gint n;

      state = state * 1664525u + 1013904223u;
      n = (gint) ((state >> 8) % 9) - 4;
      px[0] = CLAMP (base + edge + tex + n + 30 * sin (fy * 1.3), 0, 255);
      px[1] = CLAMP (base * 0.8 + tex + n + 40 * cos (fx * 0.5), 0, 255);
      px[2] = CLAMP (200 - base * 0.6 + edge / 2 + n, 0, 255);
      px[3] = 255;
    }
  }
  return p;
}

/* The source picture of the YUV frame: R'G'B'A codes, full range,
 * 8 bits (RGBA) or 16 (RGBA64, native endianness) */
typedef struct
{
  const guint8 *rgba;
  const guint16 *rgba64;
} Picture;

/* The picture in @yinfo's format, GstVideoConverter's defaults (16-bit:
 * full-range RGB with @yinfo's transfer and primaries) */
static GstBuffer *
to_yuv (const Picture * pic, GstVideoInfo * yinfo)
{
  GstVideoInfo rinfo;
  GstVideoFrame rf, yf;
  GstVideoConverter *conv;
  GstBuffer *rb, *yb;

  gst_video_info_set_format (&rinfo, pic->rgba64 ?
      (G_BYTE_ORDER == G_LITTLE_ENDIAN ? GST_VIDEO_FORMAT_RGBA64_LE :
          GST_VIDEO_FORMAT_RGBA64_BE) : GST_VIDEO_FORMAT_RGBA,
      GST_VIDEO_INFO_WIDTH (yinfo), GST_VIDEO_INFO_HEIGHT (yinfo));
  if (pic->rgba64) {
    rinfo.colorimetry = yinfo->colorimetry;
    rinfo.colorimetry.range = GST_VIDEO_COLOR_RANGE_0_255;
    rinfo.colorimetry.matrix = GST_VIDEO_COLOR_MATRIX_RGB;
  }
  rb = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY,
      pic->rgba64 ? (gpointer) pic->rgba64 : (gpointer) pic->rgba,
      rinfo.size, 0, rinfo.size, NULL, NULL);
  yb = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (yinfo), NULL);
  gst_video_frame_map (&rf, &rinfo, rb, GST_MAP_READ);
  gst_video_frame_map (&yf, yinfo, yb, GST_MAP_WRITE);
  conv = gst_video_converter_new (&rinfo, yinfo, NULL);
  gst_video_converter_frame (conv, &rf, &yf);
  gst_video_converter_free (conv);
  gst_video_frame_unmap (&rf);
  gst_video_frame_unmap (&yf);
  gst_buffer_unref (rb);
  return yb;
}

/* Y', Cb, Cr (Cb, Cr in -0.5 .. 0.5) of pixel (@x, @y) of @pic, clamped
 * to the picture */
static void
ycc_at (const Picture * pic, guint w, guint h, gint x, gint y, gdouble kr,
    gdouble kb, gdouble * yp, gdouble * cb, gdouble * cr)
{
  gsize i;
  gdouble r, g, b, l;

  x = CLAMP (x, 0, (gint) w - 1);
  y = CLAMP (y, 0, (gint) h - 1);
  i = ((gsize) y * w + x) * 4;
  if (pic->rgba64) {
    r = pic->rgba64[i] / 65535.0;
    g = pic->rgba64[i + 1] / 65535.0;
    b = pic->rgba64[i + 2] / 65535.0;
  } else {
    r = pic->rgba[i] / 255.0;
    g = pic->rgba[i + 1] / 255.0;
    b = pic->rgba[i + 2] / 255.0;
  }
  l = kr * r + (1.0 - kr - kb) * g + kb * b;
  *yp = l;
  *cb = (b - l) / (2.0 * (1.0 - kb));
  *cr = (r - l) / (2.0 * (1.0 - kr));
}

/* The taps of a 2:1 downsampling filter for the sample at picture
 * coordinate 2 @i: cosited: 1 2 1 on 2i - 1 .. 2i + 1; centred (halfway
 * between 2i and 2i + 1): 1 3 3 1 on 2i - 1 .. 2i + 2. Both are the
 * transposes of the bilinear upsampling of that siting (what both paths
 * do), and a linear ramp comes back from the pair unchanged. Returns the
 * number of taps. */
static guint
down_taps (gboolean cosited, gint i, gint pos[4], gdouble wt[4])
{
  static const gdouble co[3] = { 0.25, 0.5, 0.25 };
  static const gdouble ce[4] = { 0.125, 0.375, 0.375, 0.125 };
  guint t, n = cosited ? 3 : 4;

  for (t = 0; t < n; t++) {
    pos[t] = 2 * i - 1 + (gint) t;
    wt[t] = cosited ? co[t] : ce[t];
  }
  return n;
}

static guint16
quantise (gdouble v, gint offset, gint scale, guint depth)
{
  gdouble c = floor (offset + scale * v + 0.5);

  return (guint16) CLAMP (c, 0, (gdouble) ((1 << depth) - 1));
}

/* The picture (8-bit sRGB or 16-bit PQ R'G'B' codes) in @yinfo's format,
 * converted exactly: double precision, rounded to the nearest code, with
 * the range's offsets and scales for the format's depth (10-bit limited:
 * 64 .. 940 and 64 .. 960, four times the 8-bit codes, as BT.709 and
 * BT.2020 define them), chroma downsampled at @yinfo's siting */
static GstBuffer *
exact_yuv (const Picture * pic, GstVideoInfo * yinfo)
{
  const GstVideoFormatInfo *finfo = yinfo->finfo;
  const GstVideoFormatInfo *uinfo =
      gst_video_format_get_info (finfo->unpack_format);
  const gboolean wide = GST_VIDEO_FORMAT_INFO_DEPTH (uinfo, 0) > 8;
  const guint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
  const guint w = GST_VIDEO_INFO_WIDTH (yinfo);
  const guint h = GST_VIDEO_INFO_HEIGHT (yinfo);
  const gboolean v_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, 1) > 0;
  const GstVideoChromaSite site = yinfo->chroma_site;
  const gboolean h_cos = (site & GST_VIDEO_CHROMA_SITE_H_COSITED) != 0;
  const gboolean v_cos = (site & GST_VIDEO_CHROMA_SITE_V_COSITED) != 0;
  const guint lines = finfo->pack_lines;
  gint offset[4], scale[4];
  gdouble kr, kb;
  GstBuffer *yb;
  GstVideoFrame yf;
  guint16 *line16;
  guint8 *line8;
  guint x, y, l;

  gst_video_color_matrix_get_Kr_Kb (yinfo->colorimetry.matrix, &kr, &kb);
  gst_video_color_range_offsets (yinfo->colorimetry.range, finfo, offset,
      scale);
  yb = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (yinfo), NULL);
  gst_buffer_memset (yb, 0, 0, GST_VIDEO_INFO_SIZE (yinfo));
  gst_video_frame_map (&yf, yinfo, yb, GST_MAP_WRITE);
  /* 4:4:4 lines of the unpack format (AYUV or AYUV64), each pixel with the
   * chroma of its pair: the pack functions take that of the even pixel
   * (and even row) */
  line16 = g_new (guint16, (gsize) 4 * (w + 1) * lines);
  line8 = g_new (guint8, (gsize) 4 * (w + 1) * lines);
  for (y = 0; y < h; y += lines) {
    for (l = 0; l < lines && y + l < h; l++) {
      guint py = y + l;
      gint cy = v_sub ? (gint) (py / 2) : (gint) py;

      for (x = 0; x < w; x++) {
        gint cx = x / 2, hp[4], vp[4] = { 0, };
        gdouble hw[4], vw[4] = { 1.0, }, yl, cb, cr, u = 0, v = 0;
        guint nh = down_taps (h_cos, cx, hp, hw), nv = 1, i, j;
        guint16 c[4];

        if (v_sub)
          nv = down_taps (v_cos, cy, vp, vw);
        else
          vp[0] = cy;
        for (j = 0; j < nv; j++)
          for (i = 0; i < nh; i++) {
            ycc_at (pic, w, h, hp[i], vp[j], kr, kb, &yl, &cb, &cr);
            u += hw[i] * vw[j] * cb;
            v += hw[i] * vw[j] * cr;
          }
        ycc_at (pic, w, h, x, py, kr, kb, &yl, &cb, &cr);
        c[0] = (1 << depth) - 1;
        c[1] = quantise (yl, offset[0], scale[0], depth);
        c[2] = quantise (u, offset[1], scale[1], depth);
        c[3] = quantise (v, offset[2], scale[2], depth);
        for (i = 0; i < 4; i++) {
          line16[((gsize) l * (w + 1) + x) * 4 + i] = c[i] << (16 - depth);
          line8[((gsize) l * (w + 1) + x) * 4 + i] = (guint8) c[i];
        }
      }
    }
    /* a missing last row of a pair: the one before */
    for (; l < lines; l++) {
      memcpy (line16 + (gsize) l * (w + 1) * 4,
          line16 + (gsize) (l - 1) * (w + 1) * 4, (gsize) 8 * (w + 1));
      memcpy (line8 + (gsize) l * (w + 1) * 4,
          line8 + (gsize) (l - 1) * (w + 1) * 4, (gsize) 4 * (w + 1));
    }
    finfo->pack_func (finfo, GST_VIDEO_PACK_FLAG_NONE,
        wide ? (gpointer) line16 : (gpointer) line8,
        wide ? 8 * (w + 1) : 4 * (w + 1), yf.data, yf.info.stride,
        yinfo->chroma_site, y, w);
  }
  g_free (line16);
  g_free (line8);
  gst_video_frame_unmap (&yf);
  return yb;
}

static gdouble
srgb_decode (gdouble v)
{
  return v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
}

/* The half float nearest to @v (>= 0, below 65520), ties to even: numpy's
 * float16 () of a double, which bc6h.py's pictures are (through a float
 * first, 118 of the 2160p bridge's 25 million values were one step off) */
static guint16
half_from_double (gdouble v)
{
  guint16 h = gst_bc_hdr_half_from_float ((gfloat) v);
  gdouble d = fabs (gst_bc_hdr_half_to_double (h) - v);
  gint s;

  for (s = -1; s <= 1; s += 2) {
    guint16 n = h + s;
    gdouble dn;

    if ((s < 0 && h == 0) || (s > 0 && h >= 0x7bff))
      continue;
    dn = fabs (gst_bc_hdr_half_to_double (n) - v);
    if (dn < d || (dn == d && (n & 1) == 0)) {
      h = n;
      d = dn;
    }
  }
  return h;
}

/* The 8-bit sRGB picture @rgba made HDR as benchmarks/encode/bc6h.py makes
 * the photographs HDR: decoded to linear light, then the highlights
 * expanded (with Y the BT.709 luminance, x (1 + 30 s^2), s = clamp ((Y -
 * 0.55) / 0.45, 0, 1): 1.0 = 203 cd/m2, the photograph's white 31), as
 * RGBA half floats (*@half: the reference of the mPSNR), and those values
 * as full-range 16-bit PQ codes (*@pq: SMPTE ST 2084 of 203 x the value,
 * double precision, rounded; gst_bc_hdr_pq_from_half ()) */
static void
hdr_picture (const guint8 * rgba, guint w, guint h, guint16 ** half,
    guint16 ** pq)
{
  gsize i, n = (gsize) w * h;
  guint c;

  *half = g_new (guint16, n * 4);
  *pq = g_new (guint16, n * 4);
  for (i = 0; i < n; i++) {
    gdouble lin[3], y, s;

    for (c = 0; c < 3; c++)
      lin[c] = srgb_decode (rgba[i * 4 + c] / 255.0);
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
    s = CLAMP ((y - 0.55) / 0.45, 0.0, 1.0);
    for (c = 0; c < 3; c++) {
      guint16 v = half_from_double (lin[c] * (1.0 + 30.0 * s * s));

      (*half)[i * 4 + c] = v;
      (*pq)[i * 4 + c] = gst_bc_hdr_pq_from_half (v);
    }
    (*half)[i * 4 + 3] = 0x3c00;
    (*pq)[i * 4 + 3] = 65535;
  }
}

typedef struct
{
  guint count, t0_at, t1_at;
  guint64 t0, t1;
} Count;

static GstPadProbeReturn
count_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Count *c = user_data;

  c->count++;
  if (c->count == c->t0_at)
    c->t0 = bench_mono_ns ();
  if (c->count == c->t1_at)
    c->t1 = bench_mono_ns ();
  return GST_PAD_PROBE_OK;
}

/* Frames per second of @desc on @frame; *@last: the last encoded buffer */
static gdouble
run (const gchar * desc, GstBuffer * frame, GstBuffer ** last)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);
  GstElement *src, *sink;
  GstPad *pad;
  GstMessage *msg;
  GstSample *sample = NULL;
  Count c = { 0, opt_warmup, opt_warmup + opt_frames, 0, 0 };
  gint i, ret;

  if (pipeline == NULL) {
    g_printerr ("bc-yuv-bench: %s: %s\n", desc, error->message);
    exit (1);
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_probe, &c, NULL);
  gst_object_unref (pad);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (i = 0; i < opt_warmup + opt_frames; i++) {
    GstBuffer *b = gst_buffer_copy (frame);

    GST_BUFFER_PTS (b) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (b) = GST_SECOND / 30;
    g_signal_emit_by_name (src, "push-buffer", b, &ret);
    gst_buffer_unref (b);
  }
  g_signal_emit_by_name (src, "end-of-stream", &ret);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &error, NULL);
    g_printerr ("bc-yuv-bench: %s: %s\n", desc, error->message);
    exit (1);
  }
  gst_message_unref (msg);
  g_object_get (sink, "last-sample", &sample, NULL);
  *last = gst_buffer_ref (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return opt_frames * (gdouble) GST_SECOND / (gdouble) (c.t1 - c.t0);
}

/* PSNR of the decoded @enc against @rgba */
static gdouble
psnr (GstBcFormat format, GstBuffer * enc, const guint8 * rgba)
{
  static const GstBcPixelLayout rgbx = { 4, 0, 1, 2, -1, 3 };
  guint w = opt_width, h = opt_height, nc = 3, c;
  guint8 *dec = g_malloc ((gsize) w * h * 4);
  GstMapInfo map;
  gdouble sse = 0;
  gsize i;

  gst_buffer_map (enc, &map, GST_MAP_READ);
  gst_bc_decode_rows (format, map.data, w, h, 0, (h + 3) / 4, dec,
      (gsize) w * 4, &rgbx);
  gst_buffer_unmap (enc, &map);
  if (format == GST_BC_FORMAT_BC5)
    nc = 2;
  for (i = 0; i < (gsize) w * h; i++) {
    const guint8 *s = rgba + i * 4;
    guint8 l = (77 * s[0] + 150 * s[1] + 29 * s[2] + 128) >> 8;

    for (c = 0; c < nc; c++) {
      gdouble d = (gdouble) dec[i * 4 + c] -
          (format == GST_BC_FORMAT_BC4 ? l : s[c]);

      sse += d * d;
    }
  }
  g_free (dec);
  return 10.0 * log10 (255.0 * 255.0 * nc * w * h / sse);
}

/* The mPSNR (hdrtest_mpsnr (): exposures -3 .. +3) of the RGBA half
 * floats @half against @ref; a finite number for the JSON */
static gdouble
mpsnr (const guint16 * half, const guint16 * ref)
{
  gdouble m = hdrtest_mpsnr (ref, half, (gsize) opt_width * opt_height);

  return isfinite (m) ? m : 100.0;
}

/* The mPSNR of the decoded BC6H frame @enc against @ref */
static gdouble
mpsnr_bc6h (GstBuffer * enc, const guint16 * ref)
{
  guint w = opt_width, h = opt_height;
  guint16 *dec = g_new (guint16, (gsize) w * h * 4);
  GstMapInfo map;
  gdouble m;

  gst_buffer_map (enc, &map, GST_MAP_READ);
  gst_bc_decode_rows_half (GST_BC_FORMAT_BC6H, map.data, w, h, 0,
      (h + 3) / 4, (guint8 *) dec, (gsize) w * 8);
  gst_buffer_unmap (enc, &map);
  m = mpsnr (dec, ref);
  g_free (dec);
  return m;
}

/* The mPSNR against @ref of the RGBA64_LE PQ codes @rgb (full range, as
 * bc6henc reads them: gst_bc_hdr_input_convert ()) */
static gdouble
mpsnr_pq (const guint8 * rgb, gsize stride, const guint16 * ref)
{
  GstVideoColorimetry cm = { GST_VIDEO_COLOR_RANGE_0_255,
    GST_VIDEO_COLOR_MATRIX_RGB, GST_VIDEO_TRANSFER_SMPTE2084,
    GST_VIDEO_COLOR_PRIMARIES_BT2020
  };
  GstBcHdrInput *input = gst_bc_hdr_input_new (GST_VIDEO_FORMAT_RGBA64_LE,
      &cm);
  guint w = opt_width, h = opt_height, y;
  guint16 *half = g_new (guint16, (gsize) w * h * 4);
  gdouble m;

  for (y = 0; y < h; y++)
    gst_bc_hdr_input_convert (input, rgb + y * stride, w,
        half + (gsize) y * w * 4);
  gst_bc_hdr_input_free (input);
  m = mpsnr (half, ref);
  g_free (half);
  return m;
}

/* PSNR over R, G, B of the opaque RGB picture @rgb (4 bytes a pixel,
 * R G B first) against @rgba */
static gdouble
psnr_rgb (const guint8 * rgb, gsize stride, const guint8 * rgba)
{
  guint w = opt_width, h = opt_height, x, y, c;
  gdouble sse = 0;

  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      const guint8 *p = rgb + y * stride + (gsize) x * 4;
      const guint8 *s = rgba + ((gsize) y * w + x) * 4;

      for (c = 0; c < 3; c++) {
        gdouble d = (gdouble) p[c] - s[c];

        sse += d * d;
      }
    }
  }
  /* identical: a finite number, for the JSON */
  if (sse == 0)
    return 100.0;
  return 10.0 * log10 (255.0 * 255.0 * 3 * w * h / sse);
}

/* The PSNR of the RGB the direct path (*@direct) and videoconvert
 * (*@vconv) make of @frame, before the block encoding; with @ref (HDR,
 * bc6henc) the mPSNR against @ref of the 16-bit PQ RGB (RGBA64_LE) they
 * make */
static void
psnr_before_bc (GstBuffer * frame, GstVideoInfo * yinfo, const guint8 * rgba,
    const guint16 * ref, gdouble * direct, gdouble * vconv)
{
  const guint bpp = ref ? 8 : 4;
  GstVideoInfo xinfo;
  GstVideoFrame yf, xf;
  GstVideoConverter *conv;
  GstBcYuvInfo yuv;
  GstBuffer *xb;
  const guint8 *planes[3] = { NULL, };
  gsize strides[3] = { 0, };
  guint8 *rgb;
  guint i, y;

  gst_video_frame_map (&yf, yinfo, frame, GST_MAP_READ);
  gst_bc_yuv_info_from_video_info (&yuv, yinfo);
  if (ref)
    gst_bc_yuv_info_set_depth (&yuv, 16);
  for (i = 0; i < GST_VIDEO_FRAME_N_PLANES (&yf); i++) {
    planes[i] = GST_VIDEO_FRAME_PLANE_DATA (&yf, i);
    strides[i] = GST_VIDEO_FRAME_PLANE_STRIDE (&yf, i);
  }
  rgb = g_malloc ((gsize) opt_width * opt_height * bpp);
  for (y = 0; y < (guint) opt_height; y++)
    gst_bc_yuv_convert_row (&yuv, planes, strides, y, 0, opt_width,
        rgb + (gsize) y * opt_width * bpp);
  *direct = ref ? mpsnr_pq (rgb, (gsize) opt_width * bpp, ref) :
      psnr_rgb (rgb, (gsize) opt_width * bpp, rgba);
  g_free (rgb);

  /* HDR: what videoconvert negotiates in front of bc6henc: full-range RGB
   * with the input's transfer and primaries (1:1:14:7 for bt2100-pq) */
  gst_video_info_set_format (&xinfo, ref ? GST_VIDEO_FORMAT_RGBA64_LE :
      GST_VIDEO_FORMAT_RGBx, opt_width, opt_height);
  if (ref) {
    xinfo.colorimetry = yinfo->colorimetry;
    xinfo.colorimetry.range = GST_VIDEO_COLOR_RANGE_0_255;
    xinfo.colorimetry.matrix = GST_VIDEO_COLOR_MATRIX_RGB;
  }
  xb = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&xinfo), NULL);
  gst_video_frame_map (&xf, &xinfo, xb, GST_MAP_WRITE);
  /* on the element's threads: GStreamer 1.22's converter upsamples 4:2:0
   * chroma otherwise on 2 threads than on one (what videoconvert
   * n-threads=2 makes is this, value for value) */
  conv = gst_video_converter_new (yinfo, &xinfo,
      gst_structure_new ("GstVideoConverter", GST_VIDEO_CONVERTER_OPT_THREADS,
          G_TYPE_UINT, (guint) opt_threads, NULL));
  gst_video_converter_frame (conv, &yf, &xf);
  gst_video_converter_free (conv);
  if (ref)
    *vconv = mpsnr_pq (GST_VIDEO_FRAME_PLANE_DATA (&xf, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&xf, 0), ref);
  else
    *vconv = psnr_rgb (GST_VIDEO_FRAME_PLANE_DATA (&xf, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&xf, 0), rgba);
  gst_video_frame_unmap (&xf);
  gst_video_frame_unmap (&yf);
  gst_buffer_unref (xb);
}

int
main (int argc, char **argv)
{
  gchar **formats;
  guint8 *rgba;
  guint16 *ref = NULL, *pq = NULL;
  Picture pic = { NULL, NULL };
  GstBcFormat bc;
  gboolean hdr;
  guint f;

  if (!bench_parse_options (&argc, &argv, entries, NULL, "bc-yuv-bench"))
    return 2;
  if (!opt_encoder)
    opt_encoder = g_strdup ("bc1enc");
  if (!opt_quality)
    opt_quality = g_strdup ("fast");
  hdr = g_str_equal (opt_encoder, "bc6henc");
  if (!opt_rgb)
    opt_rgb = g_strdup (hdr ? "RGBA64_LE" : "RGBx");
  if (!opt_source)
    opt_source = g_strdup ("exact");
  if (!g_str_equal (opt_source, "exact") &&
      !g_str_equal (opt_source, "gstreamer")) {
    g_printerr ("bc-yuv-bench: --yuv-source is exact or gstreamer\n");
    return 2;
  }
  bc = g_str_equal (opt_encoder, "bc3enc") ? GST_BC_FORMAT_YCOCG_BC3 :
      g_str_equal (opt_encoder, "bc4enc") ? GST_BC_FORMAT_BC4 :
      g_str_equal (opt_encoder, "bc5enc") ? GST_BC_FORMAT_BC5 :
      g_str_equal (opt_encoder, "bc7enc") ? GST_BC_FORMAT_BC7 :
      hdr ? GST_BC_FORMAT_BC6H : GST_BC_FORMAT_BC1;
  if (opt_input) {
    gsize len;

    if (!g_file_get_contents (opt_input, (gchar **) & rgba, &len, NULL) ||
        len != (gsize) opt_width * opt_height * 4) {
      g_printerr ("bc-yuv-bench: %s is not a %dx%d RGBA picture\n",
          opt_input, opt_width, opt_height);
      return 1;
    }
  } else {
    rgba = synthetic_rgba (opt_width, opt_height);
  }
  /* bc6henc: the picture made HDR, in PQ codes */
  if (hdr) {
    hdr_picture (rgba, opt_width, opt_height, &ref, &pq);
    pic.rgba64 = pq;
  } else {
    pic.rgba = rgba;
  }
  formats = g_strsplit (opt_formats ? opt_formats : "NV12,UYVY", ",", -1);
  for (f = 0; formats[f]; f++) {
    GstVideoFormat vf = gst_video_format_from_string (formats[f]);
    GstVideoInfo yinfo;
    GstBuffer *frame, *last_a = NULL, *last_b = NULL;
    gchar *caps, *desc_a, *desc_b, *cm;
    GstCaps *c;
    gdouble best_a = 0, best_b = 0, rgb_a, rgb_b;
    gint r;

    if (!gst_bc_yuv_format_supported (vf) || (hdr &&
            GST_VIDEO_FORMAT_INFO_DEPTH (gst_video_format_get_info (vf),
                0) != 10)) {
      g_printerr ("bc-yuv-bench: %s is not a YUV input format of %s\n",
          formats[f], opt_encoder);
      return 1;
    }
    gst_video_info_set_format (&yinfo, vf, opt_width, opt_height);
    /* HDR: BT.2020 matrix, limited range, PQ; the primaries are carried */
    if (hdr)
      gst_video_colorimetry_from_string (&yinfo.colorimetry, "bt2100-pq");
    if (g_str_equal (opt_source, "exact"))
      frame = exact_yuv (&pic, &yinfo);
    else
      frame = to_yuv (&pic, &yinfo);
    psnr_before_bc (frame, &yinfo, rgba, ref, &rgb_a, &rgb_b);
    cm = gst_video_colorimetry_to_string (&yinfo.colorimetry);
    c = gst_video_info_to_caps (&yinfo);
    caps = gst_caps_to_string (c);
    gst_caps_unref (c);
    desc_a = g_strdup_printf ("appsrc name=src format=time block=true "
        "max-buffers=2 caps=\"%s\" ! %s quality=%s threads=%d ! fakesink "
        "name=sink sync=false enable-last-sample=true", caps, opt_encoder,
        opt_quality, opt_threads);
    desc_b = g_strdup_printf ("appsrc name=src format=time block=true "
        "max-buffers=2 caps=\"%s\" ! videoconvert n-threads=%d ! "
        "video/x-raw,format=%s ! %s quality=%s threads=%d ! fakesink "
        "name=sink sync=false enable-last-sample=true", caps, opt_threads,
        opt_rgb, opt_encoder, opt_quality, opt_threads);
    for (r = 0; r < opt_rounds; r++) {
      GstBuffer *a, *b;
      gdouble fa = run (desc_a, frame, &a), fb = run (desc_b, frame, &b);

      best_a = MAX (best_a, fa);
      best_b = MAX (best_b, fb);
      gst_clear_buffer (&last_a);
      gst_clear_buffer (&last_b);
      last_a = a;
      last_b = b;
    }
    printf ("{\"format\": \"%s\", \"encoder\": \"%s\", \"quality\": \"%s\", "
        "\"width\": %d, \"height\": %d, \"threads\": %d, \"rgb_format\": "
        "\"%s\", \"yuv_source\": \"%s\", \"colorimetry\": \"%s\", "
        "\"fps_yuv\": %.2f, \"fps_videoconvert\": %.2f, \"ratio\": "
        "%.3f, \"psnr_yuv\": %.3f, \"psnr_videoconvert\": %.3f, "
        "\"psnr_rgb_yuv\": %.3f, \"psnr_rgb_videoconvert\": %.3f, "
        "\"metric\": \"%s\"}\n",
        formats[f], opt_encoder, opt_quality, opt_width, opt_height,
        opt_threads, opt_rgb, opt_source, cm ? cm : "unknown", best_a,
        best_b, best_a / best_b, hdr ? mpsnr_bc6h (last_a, ref) : psnr (bc,
            last_a, rgba), hdr ? mpsnr_bc6h (last_b, ref) : psnr (bc, last_b,
            rgba), rgb_a, rgb_b, hdr ? "mpsnr" : "psnr");
    fflush (stdout);
    gst_buffer_unref (last_a);
    gst_buffer_unref (last_b);
    gst_buffer_unref (frame);
    g_free (caps);
    g_free (cm);
    g_free (desc_a);
    g_free (desc_b);
  }
  g_strfreev (formats);
  g_free (rgba);
  g_free (ref);
  g_free (pq);
  return 0;
}
