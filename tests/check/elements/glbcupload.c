/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* glbcupload on a headless GL context (Mesa llvmpipe through
 * GST_GL_PLATFORM=egl GST_GL_WINDOW=egl-device): the GPU's decoding of every
 * format against bcdec (BC6H and BC6H-SF through the same SDR tone curve,
 * with the same colorimetry), the zero-copy pool, stepped upload behind tilesrc
 * over 127.0.0.1, slot reuse under load, caps changes, EOS, wrong sizes and
 * contexts that lack what glbcupload needs.
 *
 * Exits 77 (skipped) only when no GL context can be created at all. The
 * element checks glGetError() when its debug category is at DEBUG, which
 * this test sets: a GL error becomes a WARNING message, which fails the
 * test, and shows in the `gl-errors` statistic, which is checked. */

#ifdef __SANITIZE_ADDRESS__
#define _GNU_SOURCE             /* dl_iterate_phdr () */
#endif

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/app/app.h>
#include <gst/base/gstpushsrc.h>
#include <gst/gl/gl.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Largest difference per channel allowed between the GPU's decoding of a
 * frame and bcdec's. S3TC and RGTC leave the exact rounding of
 * interpolated values to the decoder; hardware and llvmpipe keep within
 * two LSB (BPTC is exact). What the driver gives is printed. */
#define TOLERANCE 2
/* YCoCg-BC3 adds up the decoder's rounding of Y, Co and Cg: with scale 1,
 * R = Y + Co - Cg can be off by three when each is off by one. The
 * encoder's frames stay within TOLERANCE (checked); any blocks within
 * this. */
#define YCOCG_TOLERANCE 3

#define PULL_TIMEOUT (20 * GST_SECOND)
#define FRAME_DURATION (GST_SECOND / 30)

#include "gstbctest.h"
#include "gltest.h"
#include "hdrtest.h"

/* ---------------------------------------------------------------------- */
/* Helpers                                                                 */
/* ---------------------------------------------------------------------- */

/* glbcupload's statistics property */
#define UP_STATS "stats"

static guint64
stat_u64 (GstElement * up, const gchar * field)
{
  return test_stat_u64 (up, UP_STATS, field);
}

/* A frame of @info of random blocks (every bit pattern is a block). A
 * YCoCg-BC3 block keeps its chroma scale in the blue of both colour
 * endpoints: random blocks get the same (random) blue on both, else the
 * blue of interpolated texels, and with it the scale, would depend on the
 * decoder's rounding. */
static guint8 *
random_blocks (const GstBcInfo * info, guint32 seed)
{
  guint32 state = seed;
  guint8 *data = g_malloc (info->size);
  gsize i;

  for (i = 0; i < info->size; i++)
    data[i] = test_lcg_next (&state) & 0xff;
  if (info->format == GST_BC_FORMAT_YCOCG_BC3)
    for (i = 0; i < info->size; i += 16)
      data[i + 10] = (data[i + 10] & ~0x1f) | (data[i + 8] & 0x1f);
  return data;
}

/* random_blocks () of @format, whose geometry goes to @info; for BC7 every
 * 7th block gets first byte 0, the reserved mode, which decodes to
 * transparent black. */
static guint8 *
make_blocks (GstBcFormat format, guint width, guint height, guint32 seed,
    GstBcInfo * info)
{
  guint8 *data;
  gsize i;

  gst_bc_info_init (info);
  fail_unless (gst_bc_info_set_format (info, format, width, height));
  data = random_blocks (info, seed);
  if (format == GST_BC_FORMAT_BC7)
    for (i = 0; i < info->size; i += 16 * 7)
      data[i] = 0;
  return data;
}

typedef struct
{
  gint max;                     /* largest difference of any channel */
  guint64 n;                    /* channels that differ */
  guint64 total;                /* channels compared */
} Diff;

/* Compares an RGBA sample with @want (@width x @height, packed). */
static void
diff_sample (GstSample * sample, const guint8 * want, guint width,
    guint height, Diff * d)
{
  GstVideoInfo vinfo;
  GstVideoFrame frame;
  guint x, y;

  fail_unless (gst_video_info_from_caps (&vinfo, gst_sample_get_caps (sample)));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&vinfo),
      GST_VIDEO_FORMAT_RGBA);
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&vinfo), width);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&vinfo), height);
  fail_unless (gst_video_frame_map (&frame, &vinfo,
          gst_sample_get_buffer (sample), GST_MAP_READ));
  for (y = 0; y < height; y++) {
    const guint8 *got = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        0) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
    const guint8 *exp = want + (gsize) y * width * 4;

    for (x = 0; x < width * 4; x++) {
      gint diff = ABS ((gint) got[x] - (gint) exp[x]);

      if (diff) {
        d->n++;
        d->max = MAX (d->max, diff);
      }
    }
  }
  d->total += (guint64) width *height * 4;
  gst_video_frame_unmap (&frame);
}

/* The caps glbcupload @up negotiated on its src pad: RGBA in GL memory
 * (@gl_memory) or in system memory */
static void
check_output_memory (GstElement * up, gboolean gl_memory)
{
  GstPad *pad = gst_element_get_static_pad (up, "src");
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstCapsFeatures *features;
  gchar *str;

  fail_unless (caps != NULL, "glbcupload did not negotiate");
  features = gst_caps_get_features (caps, 0);
  str = gst_caps_to_string (caps);
  if (gl_memory)
    fail_unless (gst_caps_features_contains (features,
            GST_CAPS_FEATURE_MEMORY_GL_MEMORY), "not GL memory: %s", str);
  else
    fail_unless (gst_caps_features_is_equal (features,
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY), "not system memory: %s",
        str);
  g_free (str);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "format"), "RGBA");
  gst_caps_unref (caps);
  gst_object_unref (pad);
}

static GstBuffer *
wrap_frame (const guint8 * data, gsize size, guint index)
{
  GstBuffer *buf = gst_buffer_new_memdup (data, size);

  GST_BUFFER_PTS (buf) = index * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  return buf;
}

static gchar *
bc_caps_string (GstBcFormat format, guint width, guint height)
{
  return g_strdup_printf ("video/x-bc,format=%s,width=%u,height=%u,"
      "framerate=30/1", gst_bc_format_to_string (format), width, height);
}

/* ---------------------------------------------------------------------- */
/* The GPU's decoding against bcdec                                        */
/* ---------------------------------------------------------------------- */

/* What the GL driver gave: printed (each test runs in its own process) */
#define note(...) g_print ("glbcupload: " __VA_ARGS__)

/* The colorimetry of @caps (fixed video caps), which must have one */
static void
caps_colorimetry (GstCaps * caps, GstVideoColorimetry * cinfo)
{
  const gchar *str = gst_structure_get_string (gst_caps_get_structure (caps,
          0), "colorimetry");

  fail_unless (str != NULL, "no colorimetry in %" GST_PTR_FORMAT, caps);
  fail_unless (gst_video_colorimetry_from_string (cinfo, str), "%s", str);
}

/* BC6H's RGBA is tone-mapped SDR: glbcupload's src caps and bcdec's
 * output (the caps of @ref_sample) say so alike, full range RGB, the sRGB
 * transfer and the input's @primaries */
static void
check_hdr_colorimetry (GstElement * up, GstSample * ref_sample,
    GstVideoColorPrimaries primaries)
{
  GstPad *pad = gst_element_get_static_pad (up, "src");
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstVideoColorimetry got, ref, want = { 0, };
  gchar *str;

  fail_unless (caps != NULL);
  caps_colorimetry (caps, &got);
  caps_colorimetry (gst_sample_get_caps (ref_sample), &ref);
  want.range = GST_VIDEO_COLOR_RANGE_0_255;
  want.matrix = GST_VIDEO_COLOR_MATRIX_RGB;
  want.transfer = GST_VIDEO_TRANSFER_SRGB;
  want.primaries = primaries;
  str = gst_video_colorimetry_to_string (&got);
  fail_unless (gst_video_colorimetry_is_equal (&got, &want),
      "glbcupload's colorimetry %s", str);
  fail_unless (gst_video_colorimetry_is_equal (&got, &ref),
      "glbcupload's colorimetry %s is not bcdec's", str);
  /* with BT.709 primaries that is GStreamer's sRGB */
  fail_unless (gst_video_colorimetry_matches (&got,
          GST_VIDEO_COLORIMETRY_SRGB) ==
      (primaries == GST_VIDEO_COLOR_PRIMARIES_BT709), "%s", str);
  g_free (str);
  gst_caps_unref (caps);
  gst_object_unref (pad);
}

/* @enc ! tee ! { glbcupload ! gldownload, bcdec }: the same frames through
 * both, compared. @enc is an encoder (raw frames of @raw_caps from
 * @pictures, @raw_size bytes each, are pushed) or NULL (the video/x-bc
 * frames in @pictures are pushed, with the caps of @format, whose
 * colorimetry is @bc_colorimetry when not NULL). For BC6H, the
 * colorimetry of both outputs is checked: the tone-mapped sRGB with
 * @hdr_primaries. */
static void
compare_with_bcdec_full (const gchar * label, const gchar * raw_caps,
    gsize raw_size, const gchar * enc, GstBcFormat format,
    const gchar * bc_colorimetry, GstVideoColorPrimaries hdr_primaries,
    guint width, guint height, guint8 ** pictures, guint n, gint tolerance)
{
  GstElement *p, *src, *gl, *ref, *up;
  GstBcInfo info;
  gchar *caps, *desc;
  Diff d = { 0, };
  guint i;

  gst_bc_info_init (&info);
  fail_unless (gst_bc_info_set_format (&info, format, width, height));
  if (enc) {
    caps = g_strdup (raw_caps);
  } else {
    gchar *bc = bc_caps_string (format, width, height);

    caps = bc_colorimetry ? g_strdup_printf ("%s,colorimetry=%s", bc,
        bc_colorimetry) : g_strdup (bc);
    g_free (bc);
  }
  desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" ! %s%s"
      "tee name=t ! queue ! glbcupload name=up ! gldownload "
      "! video/x-raw,format=RGBA ! appsink name=gl sync=false "
      "t. ! queue ! bcdec ! video/x-raw,format=RGBA ! appsink name=ref "
      "sync=false", caps, enc ? enc : "", enc ? " ! " : "");
  p = launch (desc);
  gl_test_share_display (p);
  g_free (desc);
  g_free (caps);
  src = get (p, "src");
  gl = get (p, "gl");
  ref = get (p, "ref");
  up = get (p, "up");
  play (p);

  for (i = 0; i < n; i++) {
    gsize size = enc ? raw_size : info.size;

    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
            wrap_frame (pictures[i], size, i)), GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));

  for (i = 0; i < n; i++) {
    GstSample *a = pull_sample (gl), *b = pull_sample (ref);
    guint8 *want = test_sample_rgba (b, width, height);

    diff_sample (a, want, width, height, &d);
    if (i == 0 && gst_bc_format_is_float (format))
      check_hdr_colorimetry (up, b, hdr_primaries);
    g_free (want);
    gst_sample_unref (a);
    gst_sample_unref (b);
  }
  wait_eos (p);

  note ("%-34s %-9s %4ux%-4u max |diff| %d, "
      "%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " channels differ\n", label,
      gst_bc_format_to_string (format), width, height, d.max, d.n, d.total);
  fail_unless (d.max <= tolerance, "%s: %s %ux%u differs from bcdec by up "
      "to %d (%" G_GUINT64_FORMAT " channels)", label,
      gst_bc_format_to_string (format), width, height, d.max, d.n);
  fail_unless_equals_uint64 (stat_u64 (up, "frames"), n);
  fail_unless_equals_uint64 (stat_u64 (up, "gl-errors"), 0);

  gst_object_unref (src);
  gst_object_unref (gl);
  gst_object_unref (ref);
  gst_object_unref (up);
  stop (p);
}

/* compare_with_bcdec_full () of 8-bit formats: RGBA frames into @enc, or
 * blocks */
static void
compare_with_bcdec (const gchar * label, const gchar * enc, GstBcFormat format,
    guint width, guint height, guint8 ** pictures, guint n, gint tolerance)
{
  gchar *raw = g_strdup_printf ("video/x-raw,format=RGBA,width=%u,height=%u,"
      "framerate=30/1", width, height);

  compare_with_bcdec_full (label, raw, (gsize) width * height * 4, enc,
      format, NULL, GST_VIDEO_COLOR_PRIMARIES_UNKNOWN, width, height, pictures,
      n, tolerance);
  g_free (raw);
}

static const guint sizes[][2] = { {30, 26}, {1918, 1078} };

static void
check_encoder (guint e)
{
  guint s, i, pw, ph;
  guint8 *pics[2], *photo;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (i = 0; i < 2; i++)
      pics[i] =
          test_picture (sizes[s][0], sizes[s][1], 7 + i, 6, TEST_ALPHA_OPAQUE);
    compare_with_bcdec ("synthetic picture", test_encoders[e].enc,
        test_encoders[e].format, sizes[s][0], sizes[s][1], pics, 2, TOLERANCE);
    for (i = 0; i < 2; i++)
      g_free (pics[i]);
  }

  pw = 1918;
  ph = 1078;
  photo = test_load_photo ("bridge_crop", pw, ph);
  if (photo) {
    compare_with_bcdec ("photograph (bridge, 1918x1078 crop)",
        test_encoders[e].enc, test_encoders[e].format, pw, ph, &photo, 1,
        TOLERANCE);
    g_free (photo);
  } else {
    note ("(no cached photograph: run "
        "benchmarks/photos.py for the %s photograph case)\n",
        gst_bc_format_to_string (test_encoders[e].format));
  }
}

GST_START_TEST (test_decode_bc1)
{
  check_encoder (0);
}

GST_END_TEST;

GST_START_TEST (test_decode_bc3)
{
  check_encoder (1);
}

GST_END_TEST;

GST_START_TEST (test_decode_ycocg_bc3)
{
  check_encoder (2);
}

GST_END_TEST;

static void
check_random_blocks (GstBcFormat format)
{
  guint s, i;
  guint8 *frames[2];
  GstBcInfo info;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (i = 0; i < 2; i++)
      frames[i] = make_blocks (format, sizes[s][0], sizes[s][1], 99 + i, &info);
    compare_with_bcdec ("random blocks", NULL, format, sizes[s][0],
        sizes[s][1], frames, 2, format == GST_BC_FORMAT_YCOCG_BC3 ?
        YCOCG_TOLERANCE : TOLERANCE);
    for (i = 0; i < 2; i++)
      g_free (frames[i]);
  }
}

GST_START_TEST (test_decode_ycocg_bc3_any_blocks)
{
  check_random_blocks (GST_BC_FORMAT_YCOCG_BC3);
}

GST_END_TEST;

GST_START_TEST (test_decode_bc4)
{
  check_random_blocks (GST_BC_FORMAT_BC4);
}

GST_END_TEST;

GST_START_TEST (test_decode_bc5)
{
  check_random_blocks (GST_BC_FORMAT_BC5);
}

GST_END_TEST;

GST_START_TEST (test_decode_bc7)
{
  check_random_blocks (GST_BC_FORMAT_BC7);
}

GST_END_TEST;

/* A PQ RGBA64_LE frame of the synthetic HDR picture (hdrtest.h): from
 * 0.01 to about 3 times the reference white, highlights up to 50, so
 * that most of it is above the tone curve's knee */
static guint8 *
pq_picture (guint width, guint height, guint seed)
{
  guint16 *half = g_new (guint16, (gsize) width * height * 4);
  guint8 *pq = g_malloc ((gsize) width * height * 8);
  gsize i;

  hdrtest_image (width, height, seed, half);
  for (i = 0; i < (gsize) width * height; i++) {
    guint c;

    for (c = 0; c < 3; c++)
      GST_WRITE_UINT16_LE (pq + i * 8 + c * 2,
          gst_bc_hdr_pq_from_half (half[i * 4 + c]));
    GST_WRITE_UINT16_LE (pq + i * 8 + 6, 0xffff);
  }
  g_free (half);
  return pq;
}

/* bc6henc's @format (BC6H, or BC6H-SF through a capsfilter that takes
 * only that) of a PQ picture (BT.2020 primaries by bt2100-pq, BT.709 by
 * 1:1:14:1): glbcupload's tone-mapped RGBA is bcdec's within TOLERANCE
 * (float against double), with the same sRGB colorimetry. The tone curve
 * matters here: without it the picture's values above 0.8 (most of it)
 * would clip or come out far brighter. */
static void
check_bc6henc (GstBcFormat format)
{
  static const struct
  {
    guint w, h;
    const gchar *quality, *colorimetry;
    GstVideoColorPrimaries primaries;
  } cases[] = {
    {30, 26, "normal", "1:1:14:1", GST_VIDEO_COLOR_PRIMARIES_BT709},
    {1918, 1078, "fast", "bt2100-pq", GST_VIDEO_COLOR_PRIMARIES_BT2020},
  };
  guint c, i;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    guint w = cases[c].w, h = cases[c].h;
    gchar *raw = g_strdup_printf ("video/x-raw,format=RGBA64_LE,width=%u,"
        "height=%u,framerate=30/1,colorimetry=%s", w, h, cases[c].colorimetry);
    gchar *enc = g_strdup_printf ("bc6henc quality=%s ! video/x-bc,format=%s",
        cases[c].quality, gst_bc_format_to_string (format));
    gchar *label = g_strdup_printf ("HDR picture, PQ %s", cases[c].colorimetry);
    guint8 *pics[2];

    for (i = 0; i < 2; i++)
      pics[i] = pq_picture (w, h, 5 + i);
    compare_with_bcdec_full (label, raw, (gsize) w * h * 8, enc, format, NULL,
        cases[c].primaries, w, h, pics, 2, TOLERANCE);
    for (i = 0; i < 2; i++)
      g_free (pics[i]);
    g_free (label);
    g_free (enc);
    g_free (raw);
  }
}

GST_START_TEST (test_decode_bc6h)
{
  check_bc6henc (GST_BC_FORMAT_BC6H);
}

GST_END_TEST;

/* Random blocks of @format: every mode (the reserved ones decode to
 * black), values up to 65504 (BC6H-SF: of either sign), caps without a
 * colorimetry (BT.2020 then) and with one of BT.709 primaries */
static void
check_bc6h_random_blocks (GstBcFormat format)
{
  guint s, i;
  guint8 *frames[2];
  GstBcInfo info;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (i = 0; i < 2; i++)
      frames[i] = make_blocks (format, sizes[s][0], sizes[s][1], 61 + i,
          &info);
    compare_with_bcdec_full ("random blocks", NULL, 0, NULL, format,
        s == 0 ? "1:1:1:1" : NULL, s == 0 ?
        GST_VIDEO_COLOR_PRIMARIES_BT709 : GST_VIDEO_COLOR_PRIMARIES_BT2020,
        sizes[s][0], sizes[s][1], frames, 2, TOLERANCE);
    for (i = 0; i < 2; i++)
      g_free (frames[i]);
  }
}

GST_START_TEST (test_decode_bc6h_any_blocks)
{
  check_bc6h_random_blocks (GST_BC_FORMAT_BC6H);
}

GST_END_TEST;

/* BC6H-SF (GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT) from bc6henc, which
 * writes it for a downstream that takes only that: as bcdec's within
 * TOLERANCE, with its colorimetry */
GST_START_TEST (test_decode_bc6h_sf)
{
  check_bc6henc (GST_BC_FORMAT_BC6H_SF);
}

GST_END_TEST;

/* Random BC6H-SF blocks: about half of their values negative, which bcdec
 * counts as 0 before the tone curve */
GST_START_TEST (test_decode_bc6h_sf_any_blocks)
{
  check_bc6h_random_blocks (GST_BC_FORMAT_BC6H_SF);
}

GST_END_TEST;

/* A BC6H-SF frame of the synthetic HDR picture (hdrtest.h) with negative
 * values, as out-of-gamut colours have: in a band across the picture
 * green goes below 0, down to minus half the pixel's red; and in its dark
 * corner every component of some pixels is negative. Encoded by the
 * library (gst_bc_encode_rows_half ()); its blocks decode to values of
 * both signs (checked, so that the negative path is taken), and to
 * pixels of every component negative. */
static guint8 *
signed_frame (guint width, guint height, guint seed, GstBcInfo * info)
{
  guint16 *pic = g_new (guint16, (gsize) width * height * 4);
  guint16 *back = g_new (guint16, (gsize) width * height * 4);
  guint8 *blocks;
  gsize i, negative = 0, black = 0;
  guint x, y;

  gst_bc_info_init (info);
  fail_unless (gst_bc_info_set_format (info, GST_BC_FORMAT_BC6H_SF, width,
          height));
  hdrtest_image (width, height, seed, pic);
  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      guint16 *p = pic + ((gsize) y * width + x) * 4;
      double v = (y + 0.5) / height, u = (x + 0.5) / width;

      if (v > 0.3 && v < 0.6)
        p[1] = gst_bc_hdr_half_from_float ((float)
            (gst_bc_hdr_half_to_double (p[0]) * (0.55 - 3.0 * (v - 0.3))));
      if (u < 0.3 && v > 0.7 && (x / 4 + y / 4) % 2 == 0) {
        p[0] |= 0x8000;
        p[1] |= 0x8000;
        p[2] |= 0x8000;
      }
    }
  }
  for (i = 0; i < (gsize) width * height * 4; i++)
    pic[i] = GUINT16_TO_LE (pic[i]);
  blocks = g_malloc (info->size);
  gst_bc_encode_rows_half (GST_BC_FORMAT_BC6H_SF, GST_BC_QUALITY_NORMAL,
      (const guint8 *) pic, (gsize) width * 8, width, height, 0,
      info->blocks_y, blocks);

  gst_bc_decode_rows_half (GST_BC_FORMAT_BC6H_SF, blocks, width, height, 0,
      info->blocks_y, (guint8 *) back, (gsize) width * 8);
  for (i = 0; i < (gsize) width * height; i++) {
    guint16 *p = back + i * 4;
    guint c, n = 0;

    for (c = 0; c < 3; c++)
      n += (GUINT16_FROM_LE (p[c]) & 0x8000) && (GUINT16_FROM_LE (p[c]) &
          0x7fff);
    negative += n;
    black += n == 3;
  }
  fail_unless (negative > (gsize) width * height / 20, "%" G_GSIZE_FORMAT
      " negative values", negative);
  fail_unless (black > 0, "no pixel of negative components only");
  g_free (back);
  g_free (pic);
  return blocks;
}

GST_START_TEST (test_decode_bc6h_sf_negative)
{
  guint s, i;
  guint8 *frames[2];
  GstBcInfo info;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (i = 0; i < 2; i++)
      frames[i] = signed_frame (sizes[s][0], sizes[s][1], 40 + i, &info);
    compare_with_bcdec_full ("HDR picture, negative values", NULL, 0, NULL,
        GST_BC_FORMAT_BC6H_SF, NULL, GST_VIDEO_COLOR_PRIMARIES_BT2020,
        sizes[s][0], sizes[s][1], frames, 2, TOLERANCE);
    for (i = 0; i < 2; i++)
      g_free (frames[i]);
  }
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* The proposed pool: zero copy, slot reuse, caps changes                  */
/* ---------------------------------------------------------------------- */

/* A tiny source that does what tilesrc does with its allocation: it
 * negotiates, takes the pool downstream proposes (GstBaseSrc's default
 * decide_allocation) and writes each frame into a buffer of it. Frames
 * queued with `foreign` set come from a buffer of its own instead. A change
 * of caps between frames renegotiates (a new ALLOCATION query, a new pool).
 */
typedef struct
{
  GstCaps *caps;
  guint8 *data;
  gsize size;
  gboolean foreign;
  gboolean eos;
  guint index;
} Item;

typedef struct
{
  GstPushSrc parent;
  GAsyncQueue *queue;
  GstCaps *caps;
  gint flushing;
} TestSrc;

typedef struct
{
  GstPushSrcClass parent_class;
} TestSrcClass;

static GType test_src_get_type (void);
G_DEFINE_TYPE (TestSrc, test_src, GST_TYPE_PUSH_SRC);

static GstStaticPadTemplate test_src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS ("video/x-bc"));

static void
item_free (Item * item)
{
  gst_clear_caps (&item->caps);
  g_free (item->data);
  g_free (item);
}

static GstCaps *
test_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter)
{
  TestSrc *self = (TestSrc *) bsrc;
  GstCaps *caps;

  GST_OBJECT_LOCK (self);
  caps = self->caps ? gst_caps_ref (self->caps) :
      gst_static_pad_template_get_caps (&test_src_template);
  GST_OBJECT_UNLOCK (self);
  if (filter) {
    GstCaps *tmp = gst_caps_intersect (filter, caps);

    gst_caps_unref (caps);
    caps = tmp;
  }
  return caps;
}

static GstFlowReturn
test_src_create (GstPushSrc * psrc, GstBuffer ** outbuf)
{
  TestSrc *self = (TestSrc *) psrc;
  GstBufferPool *pool;
  GstBuffer *buf = NULL;
  GstMapInfo map;
  Item *item = NULL;

  while (!item) {
    if (g_atomic_int_get (&self->flushing))
      return GST_FLOW_FLUSHING;
    item = g_async_queue_timeout_pop (self->queue, 10000);
  }
  if (item->eos) {
    item_free (item);
    return GST_FLOW_EOS;
  }

  GST_OBJECT_LOCK (self);
  if (!self->caps || !gst_caps_is_equal (self->caps, item->caps)) {
    gst_caps_replace (&self->caps, item->caps);
    GST_OBJECT_UNLOCK (self);
    if (!gst_base_src_negotiate (GST_BASE_SRC (self))) {
      item_free (item);
      return GST_FLOW_NOT_NEGOTIATED;
    }
  } else {
    GST_OBJECT_UNLOCK (self);
  }

  pool = gst_base_src_get_buffer_pool (GST_BASE_SRC (self));
  if (item->foreign) {
    buf = gst_buffer_new_allocate (NULL, item->size, NULL);
  } else if (!pool || gst_buffer_pool_acquire_buffer (pool, &buf,
          NULL) != GST_FLOW_OK) {
    gst_clear_object (&pool);
    item_free (item);
    return GST_FLOW_FLUSHING;
  }
  gst_clear_object (&pool);

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  g_assert (map.size == item->size);
  memcpy (map.data, item->data, item->size);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = item->index * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  item_free (item);
  *outbuf = buf;
  return GST_FLOW_OK;
}

static gboolean
test_src_unlock (GstBaseSrc * bsrc)
{
  g_atomic_int_set (&((TestSrc *) bsrc)->flushing, 1);
  return TRUE;
}

static gboolean
test_src_unlock_stop (GstBaseSrc * bsrc)
{
  g_atomic_int_set (&((TestSrc *) bsrc)->flushing, 0);
  return TRUE;
}

static void
test_src_finalize (GObject * object)
{
  TestSrc *self = (TestSrc *) object;

  g_async_queue_unref (self->queue);
  gst_clear_caps (&self->caps);
  G_OBJECT_CLASS (test_src_parent_class)->finalize (object);
}

static void
test_src_class_init (TestSrcClass * klass)
{
  gst_element_class_add_static_pad_template (GST_ELEMENT_CLASS (klass),
      &test_src_template);
  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass),
      "test source", "Source/Video", "frames into the downstream pool",
      "gst-bc developers");
  G_OBJECT_CLASS (klass)->finalize = test_src_finalize;
  GST_BASE_SRC_CLASS (klass)->get_caps = test_src_get_caps;
  GST_BASE_SRC_CLASS (klass)->unlock = test_src_unlock;
  GST_BASE_SRC_CLASS (klass)->unlock_stop = test_src_unlock_stop;
  GST_PUSH_SRC_CLASS (klass)->create = test_src_create;
}

static void
test_src_init (TestSrc * self)
{
  self->queue = g_async_queue_new_full ((GDestroyNotify) item_free);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}

static void
test_src_push (GstElement * src, GstBcFormat format, guint width, guint height,
    const guint8 * data, gsize size, gboolean foreign, guint index)
{
  Item *item = g_new0 (Item, 1);
  gchar *caps = bc_caps_string (format, width, height);

  item->caps = gst_caps_from_string (caps);
  item->data = g_memdup2 (data, size);
  item->size = size;
  item->foreign = foreign;
  item->index = index;
  g_async_queue_push (((TestSrc *) src)->queue, item);
  g_free (caps);
}

static void
test_src_eos (GstElement * src)
{
  Item *item = g_new0 (Item, 1);

  item->eos = TRUE;
  g_async_queue_push (((TestSrc *) src)->queue, item);
}

/* bctestsrc ! glbcupload @props ! gldownload ! appsink, playing; glbcupload
 * is the TestPipe's element */
static void
up_start (TestPipe * u, const gchar * props)
{
  gchar *desc = g_strdup_printf ("bctestsrc name=src ! glbcupload name=up %s "
      "! gldownload ! video/x-raw,format=RGBA ! appsink name=sink sync=false",
      props ? props : "");

  test_pipe_launch (u, desc, "up");
  g_free (desc);
  gl_test_share_display (u->pipeline);
  test_pipe_play (u);
}

static void
pull_check (TestPipe * u, const GstBcInfo * info, const guint8 * data)
{
  GstSample *s = pull_sample (u->sink);
  guint8 *want = test_decode (info, data);
  Diff d = { 0, };

  diff_sample (s, want, info->width, info->height, &d);
  fail_unless (d.max <= (info->format == GST_BC_FORMAT_YCOCG_BC3 ?
          YCOCG_TOLERANCE : TOLERANCE), "frame differs by up to %d", d.max);
  g_free (want);
  gst_sample_unref (s);
}

GST_START_TEST (test_zero_copy)
{
  TestPipe u;
  GstBcInfo info;
  guint8 *frames[8];
  guint i, n_pool = 8, n_foreign = 5;

  up_start (&u, NULL);
  for (i = 0; i < G_N_ELEMENTS (frames); i++)
    frames[i] = make_blocks (GST_BC_FORMAT_BC1, 320, 180, i + 1, &info);

  /* straight into the pool's GL buffer: nothing copied */
  for (i = 0; i < n_pool; i++) {
    test_src_push (u.src, GST_BC_FORMAT_BC1, 320, 180, frames[i], info.size,
        FALSE, i);
    pull_check (&u, &info, frames[i]);
  }
  fail_unless_equals_uint64 (stat_u64 (u.element, "frames"), n_pool);
  fail_unless_equals_uint64 (stat_u64 (u.element, "zero-copy-frames"), n_pool);
  fail_unless_equals_uint64 (stat_u64 (u.element, "copied-frames"), 0);
  fail_unless_equals_uint64 (stat_u64 (u.element, "copied-bytes"), 0);
  /* no tiles reported: each frame is uploaded whole when pushed */
  fail_unless_equals_uint64 (stat_u64 (u.element, "frame-uploads"), n_pool);
  fail_unless_equals_uint64 (stat_u64 (u.element, "stepped-uploads"), 0);

  /* buffers from elsewhere are copied once each */
  for (i = 0; i < n_foreign; i++) {
    test_src_push (u.src, GST_BC_FORMAT_BC1, 320, 180, frames[i], info.size,
        TRUE, n_pool + i);
    pull_check (&u, &info, frames[i]);
  }
  fail_unless_equals_uint64 (stat_u64 (u.element, "zero-copy-frames"), n_pool);
  fail_unless_equals_uint64 (stat_u64 (u.element, "copied-frames"), n_foreign);
  fail_unless_equals_uint64 (stat_u64 (u.element, "copied-bytes"),
      n_foreign * info.size);
  fail_unless_equals_uint64 (stat_u64 (u.element, "gl-errors"), 0);

  test_src_eos (u.src);
  wait_eos (u.pipeline);
  test_pipe_stop (&u);
  for (i = 0; i < G_N_ELEMENTS (frames); i++)
    g_free (frames[i]);
}

GST_END_TEST;

/* tilesrc's sender timestamp makes it through glbcupload */
static GstPadProbeReturn
count_unix_ts_meta (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstCaps *caps = gst_caps_from_string ("timestamp/x-unix");

  if (gst_buffer_get_reference_timestamp_meta (buf, caps))
    g_atomic_int_inc ((gint *) data);
  gst_caps_unref (caps);
  return GST_PAD_PROBE_OK;
}

/* The output buffers carry a GstGLSyncMeta. */
static GstPadProbeReturn
count_sync_meta (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  if (gst_buffer_get_gl_sync_meta (buf))
    g_atomic_int_inc ((gint *) data);
  return GST_PAD_PROBE_OK;
}

/* Many frames through a ring of two slots, produced as fast as the pool
 * hands slots out: a slot is written again only after the GPU has read
 * it, so every frame comes out as it went in, none torn or overwritten.
 * The frames are random BC7 blocks (decoded exactly by BPTC's rules): a
 * frame mixed with another would differ by far more than the tolerance. */
GST_START_TEST (test_slot_reuse)
{
  TestPipe u;
  GstBcInfo info;
  guint8 *frames[16];
  guint i, n = 240;
  gint with_sync = 0;
  GstPad *pad;
  guint slots = 0;

  up_start (&u, "ring-size=2 gpu-timing=true");
  pad = gst_element_get_static_pad (u.element, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_sync_meta,
      &with_sync, NULL);
  gst_object_unref (pad);
  for (i = 0; i < G_N_ELEMENTS (frames); i++)
    frames[i] = make_blocks (GST_BC_FORMAT_BC7, 512, 256, 1000 + i, &info);

  for (i = 0; i < n; i++)
    test_src_push (u.src, GST_BC_FORMAT_BC7, 512, 256, frames[i % 16],
        info.size, FALSE, i);
  test_src_eos (u.src);
  for (i = 0; i < n; i++)
    pull_check (&u, &info, frames[i % 16]);
  wait_eos (u.pipeline);

  test_get_stat (u.element, UP_STATS, "ring-slots", G_TYPE_UINT, &slots);
  fail_unless_equals_int (slots, 2);
  fail_unless_equals_uint64 (stat_u64 (u.element, "zero-copy-frames"), n);
  fail_unless_equals_uint64 (stat_u64 (u.element, "copied-frames"), 0);
  fail_unless_equals_uint64 (stat_u64 (u.element, "gl-errors"), 0);
  fail_unless_equals_int (g_atomic_int_get (&with_sync), n);
  note ("slot reuse: %u frames through 2 slots, %" G_GUINT64_FORMAT
      " hand-outs waited for the GPU fence\n", n,
      stat_u64 (u.element, "fence-waits"));
  /* GL_TIME_ELAPSED (desktop GL here): results are read when available,
   * so the last few frames may not be counted yet, and a frame goes untimed
   * when all queries are in flight; llvmpipe's first result is its clock,
   * which the element counts as invalid */
  note ("GPU time of the last upload and the draw: %" G_GUINT64_FORMAT
      " frames timed (%" G_GUINT64_FORMAT " invalid results), %.3f ms per "
      "frame\n", stat_u64 (u.element, "gpu-timed-frames"), stat_u64 (u.element,
          "gpu-time-invalid"), stat_u64 (u.element, "gpu-time-ns") / 1e6 /
      MAX (1, stat_u64 (u.element, "gpu-timed-frames")));
  fail_unless (stat_u64 (u.element, "gpu-timed-frames") > 0);
  fail_unless (stat_u64 (u.element, "gpu-timed-frames") +
      stat_u64 (u.element, "gpu-time-invalid") <= n);
  fail_unless (stat_u64 (u.element, "gpu-time-invalid") <= 1);
  test_pipe_stop (&u);
  for (i = 0; i < G_N_ELEMENTS (frames); i++)
    g_free (frames[i]);
}

GST_END_TEST;

/* Size and format change mid-stream, in and out of the pool, then EOS. */
GST_START_TEST (test_caps_change)
{
  static const struct
  {
    GstBcFormat format;
    guint w, h;
  } steps[] = {
    {GST_BC_FORMAT_BC1, 64, 48},
    {GST_BC_FORMAT_YCOCG_BC3, 30, 26},
    {GST_BC_FORMAT_BC7, 100, 50},
    {GST_BC_FORMAT_BC6H, 100, 50},
    {GST_BC_FORMAT_BC6H_SF, 100, 50},
    {GST_BC_FORMAT_BC4, 1918, 1078},
    {GST_BC_FORMAT_BC1, 64, 48},
  };
  TestPipe u;
  guint s, i, frame = 0;

  up_start (&u, NULL);
  for (s = 0; s < G_N_ELEMENTS (steps); s++) {
    GstBcInfo info;
    guint8 *data[3];

    for (i = 0; i < 3; i++)
      data[i] = make_blocks (steps[s].format, steps[s].w, steps[s].h,
          s * 10 + i, &info);
    /* two from the pool (a new one for each caps), one copied */
    for (i = 0; i < 3; i++) {
      test_src_push (u.src, steps[s].format, steps[s].w, steps[s].h, data[i],
          info.size, i == 2, frame++);
      pull_check (&u, &info, data[i]);
    }
    for (i = 0; i < 3; i++)
      g_free (data[i]);
  }
  test_src_eos (u.src);
  wait_eos (u.pipeline);
  fail_unless_equals_uint64 (stat_u64 (u.element, "frames"), frame);
  fail_unless_equals_uint64 (stat_u64 (u.element, "zero-copy-frames"),
      2 * G_N_ELEMENTS (steps));
  fail_unless_equals_uint64 (stat_u64 (u.element, "copied-frames"),
      G_N_ELEMENTS (steps));
  fail_unless_equals_uint64 (stat_u64 (u.element, "gl-errors"), 0);
  test_pipe_stop (&u);
}

GST_END_TEST;

/* Downstream changes between GL memory and system memory while frames
 * flow (a capsfilter's caps, which asks glbcupload to renegotiate): each
 * frame comes out in the memory asked for, decoded right, and upstream
 * keeps writing into the proposed pool. */
GST_START_TEST (test_output_memory_switch)
{
  static const gchar *const caps[] = {
    "video/x-raw(memory:GLMemory),format=RGBA",
    "video/x-raw,format=RGBA",
    "video/x-raw(memory:GLMemory),format=RGBA",
    "video/x-raw,format=RGBA",
  };
  TestPipe u;
  GstElement *cf;
  guint m, i, frame = 0;
  gchar *desc;

  desc = g_strdup_printf ("bctestsrc name=src ! glbcupload name=up "
      "! capsfilter name=cf caps=\"%s\" ! appsink name=sink sync=false",
      caps[0]);
  test_pipe_launch (&u, desc, "up");
  g_free (desc);
  gl_test_share_display (u.pipeline);
  cf = get (u.pipeline, "cf");
  test_pipe_play (&u);

  for (m = 0; m < G_N_ELEMENTS (caps); m++) {
    gboolean gl_memory = strstr (caps[m], "GLMemory") != NULL;
    GstCaps *c = gst_caps_from_string (caps[m]);

    g_object_set (cf, "caps", c, NULL);
    gst_caps_unref (c);
    /* two frames of the pool, one copied */
    for (i = 0; i < 3; i++) {
      GstBcInfo info;
      guint8 *data = make_blocks (GST_BC_FORMAT_BC7, 100, 50, 300 + frame,
          &info);
      GstSample *sample;
      guint8 *want;
      Diff d = { 0, };

      test_src_push (u.src, GST_BC_FORMAT_BC7, 100, 50, data, info.size,
          i == 2, frame++);
      sample = pull_sample (u.sink);
      fail_unless_equals_int (gst_caps_features_contains
          (gst_caps_get_features (gst_sample_get_caps (sample), 0),
              GST_CAPS_FEATURE_MEMORY_GL_MEMORY), gl_memory);
      fail_unless (gst_is_gl_memory (gst_buffer_peek_memory
              (gst_sample_get_buffer (sample), 0)));
      want = test_decode (&info, data);
      diff_sample (sample, want, 100, 50, &d);
      fail_unless_equals_int (d.max, 0);
      g_free (want);
      gst_sample_unref (sample);
      g_free (data);
    }
    check_output_memory (u.element, gl_memory);
  }
  test_src_eos (u.src);
  wait_eos (u.pipeline);
  fail_unless_equals_uint64 (stat_u64 (u.element, "frames"), frame);
  fail_unless_equals_uint64 (stat_u64 (u.element, "zero-copy-frames"),
      2 * G_N_ELEMENTS (caps));
  fail_unless_equals_uint64 (stat_u64 (u.element, "copied-frames"),
      G_N_ELEMENTS (caps));
  fail_unless_equals_uint64 (stat_u64 (u.element, "gl-errors"), 0);
  gst_object_unref (cf);
  test_pipe_stop (&u);
}

GST_END_TEST;

/* A buffer smaller (or larger) than a frame is an error, not a crash. */
GST_START_TEST (test_wrong_size)
{
  static const gssize deltas[] = { -1, 16 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (deltas); i++) {
    GstElement *p, *src, *up;
    GstBcInfo info;
    gchar *caps = bc_caps_string (GST_BC_FORMAT_BC1, 30, 26);
    gchar *desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" "
        "! glbcupload name=up ! gldownload ! video/x-raw,format=RGBA "
        "! fakesink", caps);
    guint8 *data = make_blocks (GST_BC_FORMAT_BC1, 30, 26, 5, &info);
    GstBus *bus;
    GstMessage *msg;
    gchar *want;

    p = launch (desc);
    gl_test_share_display (p);
    src = get (p, "src");
    up = get (p, "up");
    play (p);
    data = g_realloc (data, info.size + 16);
    gst_app_src_push_buffer (GST_APP_SRC (src), wrap_frame (data,
            info.size + deltas[i], 0));
    bus = gst_element_get_bus (p);
    want = g_strdup_printf ("Input buffer has %" G_GSIZE_FORMAT " bytes, but "
        "a 30x26 BC1 frame has 448 bytes", info.size + deltas[i]);
    msg = check_error_message (bus, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        want, NULL);
    fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (up));
    g_free (want);
    gst_message_unref (msg);
    gst_object_unref (bus);
    gst_object_unref (src);
    gst_object_unref (up);
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (p);
    g_free (data);
    g_free (desc);
    g_free (caps);
  }
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* tilesrc -> glbcupload over 127.0.0.1: zero copy and stepped upload      */
/* ---------------------------------------------------------------------- */

#define N_TILE_FRAMES 24

/* tilesrc ! glbcupload to 127.0.0.1: GL memory read by gldownload, or
 * (@system_memory) system memory caps, read back by glbcupload itself;
 * the pool and the stepped upload work the same in both. BC1 frames from
 * the encoder, or (@format BC6H) random BC6H blocks: 16-byte blocks of
 * the float texture, uploaded tile by tile as BC7's are. */
static void
check_tiles (GstBcFormat format, gboolean stepped, gboolean system_memory)
{
  const guint units = 4, w = 640, h = 360;
  const guint n = N_TILE_FRAMES;
  GstElement *tx, *rx, *appsrc, *tilesink, *tilesrc, *up, *sink;
  GstBcInfo info;
  guint8 *frames[N_TILE_FRAMES];
  gchar *caps, *desc;
  guint port = 0, i, j;
  gint with_ts = 0;
  GstPad *pad;

  caps = bc_caps_string (format, w, h);
  desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" ! "
      "tilesink name=sink host=127.0.0.1 port=0 units=%u stats-interval=0 "
      "max-in-flight=64", caps, units);
  tx = launch (desc);
  g_free (desc);
  g_free (caps);
  appsrc = get (tx, "src");
  tilesink = get (tx, "sink");
  play (tx);
  g_object_get (tilesink, "bound-port", &port, NULL);
  fail_unless (port > 0);

  desc = g_strdup_printf ("tilesrc name=src port=%u timeout=5000 "
      "stats-interval=0 ! glbcupload name=up stepped=%s ! %s"
      "video/x-raw,format=RGBA ! appsink name=sink sync=false", port,
      stepped ? "true" : "false", system_memory ? "" : "gldownload ! ");
  rx = launch (desc);
  g_free (desc);
  gl_test_share_display (rx);
  tilesrc = get (rx, "src");
  up = get (rx, "up");
  sink = get (rx, "sink");
  pad = gst_element_get_static_pad (up, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_unix_ts_meta,
      &with_ts, NULL);
  gst_object_unref (pad);
  play (rx);
  test_wait_connected (tilesink);

  for (i = 0; i < n; i++) {
    guint8 *pic;

    if (format != GST_BC_FORMAT_BC1) {
      frames[i] = make_blocks (format, w, h, 50 + i, &info);
      continue;
    }
    pic = test_picture (w, h, 50 + i, 6, TEST_ALPHA_OPAQUE);
    frames[i] = test_encode (GST_BC_FORMAT_BC1, GST_BC_QUALITY_FAST, pic,
        &test_rgba_layout, w, h, &info);
    g_free (pic);
  }

  /* windows of 4 frames, so that the sender never drops one */
  for (i = 0; i < n; i += 4) {
    for (j = i; j < MIN (i + 4, n); j++)
      fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (appsrc),
              wrap_frame (frames[j], info.size, j)), GST_FLOW_OK);
    for (j = i; j < MIN (i + 4, n); j++) {
      TestPipe u = { rx, tilesrc, up, sink };

      pull_check (&u, &info, frames[j]);
    }
  }

  /* received straight into the GL buffer */
  fail_unless_equals_uint64 (stat_u64 (up, "frames"), n);
  fail_unless_equals_uint64 (stat_u64 (up, "zero-copy-frames"), n);
  fail_unless_equals_uint64 (stat_u64 (up, "copied-frames"), 0);
  fail_unless_equals_int (g_atomic_int_get (&with_ts), n);
  fail_unless_equals_uint64 (test_stat_u64 (tilesrc,
          "stats", "tiles-stepped"), n * units);
  if (stepped) {
    /* each tile uploaded once, before its frame was pushed: nothing left
     * to upload at the push */
    fail_unless_equals_uint64 (stat_u64 (up, "stepped-uploads"), n * units);
    fail_unless_equals_uint64 (stat_u64 (up, "frames-stepped"), n);
    fail_unless_equals_uint64 (stat_u64 (up, "frame-uploads"), 0);
  } else {
    fail_unless_equals_uint64 (stat_u64 (up, "stepped-uploads"), 0);
    fail_unless_equals_uint64 (stat_u64 (up, "frames-stepped"), 0);
    fail_unless_equals_uint64 (stat_u64 (up, "frame-uploads"), n);
  }
  fail_unless_equals_uint64 (stat_u64 (up, "gl-errors"), 0);
  {
    guint slots = 0;

    test_get_stat (up, UP_STATS, "ring-slots", G_TYPE_UINT, &slots);
    /* tilesrc holds at least 4 buffers: the ring grew to that */
    fail_unless (slots >= 4, "ring of %u slots", slots);
  }
  check_output_memory (up, !system_memory);

  gst_app_src_end_of_stream (GST_APP_SRC (appsrc));
  wait_eos (rx);

  gst_object_unref (tilesrc);
  gst_object_unref (up);
  gst_object_unref (sink);
  stop (rx);
  gst_object_unref (appsrc);
  gst_object_unref (tilesink);
  stop (tx);
  for (i = 0; i < n; i++)
    g_free (frames[i]);
}

GST_START_TEST (test_tilesrc_stepped)
{
  check_tiles (GST_BC_FORMAT_BC1, TRUE, FALSE);
}

GST_END_TEST;

GST_START_TEST (test_tilesrc_whole_frames)
{
  check_tiles (GST_BC_FORMAT_BC1, FALSE, FALSE);
}

GST_END_TEST;

GST_START_TEST (test_tilesrc_stepped_system_memory)
{
  check_tiles (GST_BC_FORMAT_BC1, TRUE, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_tilesrc_stepped_bc6h)
{
  check_tiles (GST_BC_FORMAT_BC6H, TRUE, FALSE);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* decodebin and playbin pick glbcupload, and bcdec without GL             */
/* ---------------------------------------------------------------------- */

/* The factories of the elements added anywhere in a bin after it was
 * made, in order (deep-element-added): what decodebin tried */
typedef struct
{
  GMutex lock;
  GString *names;               /* " name name ... " */
} Added;

static void
added_init (Added * added)
{
  g_mutex_init (&added->lock);
  added->names = g_string_new (" ");
}

static void
added_clear (Added * added)
{
  g_string_free (added->names, TRUE);
  g_mutex_clear (&added->lock);
}

static void
on_deep_element_added (GstBin * bin, GstBin * sub_bin, GstElement * element,
    Added * added)
{
  GstElementFactory *factory = gst_element_get_factory (element);

  g_mutex_lock (&added->lock);
  g_string_append_printf (added->names, "%s ",
      factory ? GST_OBJECT_NAME (factory) : "?");
  g_mutex_unlock (&added->lock);
}

/* Whether an element of factory @name was added */
static gboolean
added_has (Added * added, const gchar * name)
{
  gchar *needle = g_strdup_printf (" %s ", name);
  gboolean ret;

  g_mutex_lock (&added->lock);
  ret = strstr (added->names->str, needle) != NULL;
  g_mutex_unlock (&added->lock);
  g_free (needle);
  return ret;
}

static gint
factory_is (const GValue * value, const gchar * name)
{
  GstElementFactory *factory =
      gst_element_get_factory (g_value_get_object (value));

  return factory && strcmp (GST_OBJECT_NAME (factory), name) == 0 ? 0 : 1;
}

/* The element of factory @name anywhere in @bin (a reference), or NULL */
static GstElement *
find_by_factory (GstElement * bin, const gchar * name)
{
  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (bin));
  GValue value = G_VALUE_INIT;
  GstElement *found = NULL;

  if (gst_iterator_find_custom (it, (GCompareFunc) factory_is, &value,
          (gpointer) name)) {
    found = g_value_dup_object (&value);
    g_value_unset (&value);
  }
  gst_iterator_free (it);
  return found;
}

/* The pixels of a frame of @width x @height, 4 bytes per pixel (RGBA,
 * BGRx, ...), rows packed, and its format in @format; NULL when the sample
 * is not such a frame. (No check assertions: the children use it.) */
static guint8 *
sample_pixels (GstSample * sample, guint width, guint height,
    GstVideoFormat * format)
{
  GstVideoInfo vinfo;
  GstVideoFrame frame;
  guint8 *out;
  guint y;

  if (!gst_video_info_from_caps (&vinfo, gst_sample_get_caps (sample)) ||
      GST_VIDEO_INFO_WIDTH (&vinfo) != (gint) width ||
      GST_VIDEO_INFO_HEIGHT (&vinfo) != (gint) height ||
      GST_VIDEO_INFO_COMP_PSTRIDE (&vinfo, 0) != 4 ||
      !gst_video_frame_map (&frame, &vinfo, gst_sample_get_buffer (sample),
          GST_MAP_READ))
    return NULL;
  out = g_malloc ((gsize) width * height * 4);
  for (y = 0; y < height; y++)
    memcpy (out + (gsize) y * width * 4,
        (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), width * 4);
  gst_video_frame_unmap (&frame);
  *format = GST_VIDEO_INFO_FORMAT (&vinfo);
  return out;
}

/* Compares the colour and alpha channels (not the padding of x formats)
 * of two frames of @format */
static void
diff_pixels (const guint8 * got, const guint8 * want, gsize n_pixels,
    GstVideoFormat format, Diff * d)
{
  const GstVideoFormatInfo *finfo = gst_video_format_get_info (format);
  guint c, n_comp = GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo);
  gsize i;

  for (i = 0; i < n_pixels; i++) {
    for (c = 0; c < n_comp; c++) {
      gsize o = i * 4 + GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);
      gint diff = ABS ((gint) got[o] - (gint) want[o]);

      if (diff) {
        d->n++;
        d->max = MAX (d->max, diff);
      }
    }
  }
  d->total += n_pixels * n_comp;
}

#define DEC_W 62
#define DEC_H 34
#define DEC_FRAMES 6

/* appsrc ! tee ! { queue ! decodebin @out_desc (ending in appsink "out"),
 * queue ! bcdec ! @ref_caps ! appsink "ref" }: frames of random @format
 * blocks, each different (a frame read back stale would show), through
 * both. decodebin must have picked @decoder; glbcupload's output must be
 * in GL memory (@gl_memory) or system memory, and agree with bcdec's
 * within @tolerance. */
static void
check_decodebin (const gchar * bin, GstBcFormat format,
    const gchar * dec_props,
    const gchar * out_desc, const gchar * ref_caps, const gchar * decoder,
    gboolean gl_memory, gint tolerance)
{
  GstElement *p, *src, *out, *ref, *dec, *found;
  GstBcInfo info;
  guint8 *frames[DEC_FRAMES];
  gchar *caps, *desc;
  Added added;
  Diff d = { 0, };
  guint i;

  caps = bc_caps_string (format, DEC_W, DEC_H);
  desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" "
      "! tee name=t t. ! queue ! %s name=dec %s ! %s "
      "t. ! queue ! bcdec ! %s ! appsink name=ref sync=false", caps, bin,
      dec_props, out_desc, ref_caps);
  p = launch (desc);
  g_free (desc);
  g_free (caps);
  gl_test_share_display (p);
  added_init (&added);
  g_signal_connect (p, "deep-element-added",
      G_CALLBACK (on_deep_element_added), &added);
  src = get (p, "src");
  out = get (p, "out");
  ref = get (p, "ref");
  dec = get (p, "dec");
  play (p);

  for (i = 0; i < DEC_FRAMES; i++) {
    frames[i] = make_blocks (format, DEC_W, DEC_H, 700 + i, &info);
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
            wrap_frame (frames[i], info.size, i)), GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  for (i = 0; i < DEC_FRAMES; i++) {
    GstSample *a = pull_sample (out), *b = pull_sample (ref);
    GstVideoFormat fa, fb;
    guint8 *got = sample_pixels (a, DEC_W, DEC_H, &fa);
    guint8 *want = sample_pixels (b, DEC_W, DEC_H, &fb);
    gchar *caps_a = gst_caps_to_string (gst_sample_get_caps (a));

    fail_unless (got && want, "not %ux%u frames: %s", DEC_W, DEC_H, caps_a);
    g_free (caps_a);
    fail_unless_equals_int (fa, fb);
    diff_pixels (got, want, DEC_W * DEC_H, fa, &d);
    g_free (got);
    g_free (want);
    gst_sample_unref (a);
    gst_sample_unref (b);
  }
  wait_eos (p);

  /* the decoder decodebin kept, and the only one it tried */
  found = find_by_factory (dec, decoder);
  fail_unless (found != NULL, "decodebin did not pick %s (added:%s)",
      decoder, added.names->str);
  if (strcmp (decoder, "glbcupload") == 0) {
    fail_if (added_has (&added, "bcdec"), "added:%s", added.names->str);
    check_output_memory (found, gl_memory);
    fail_unless_equals_uint64 (stat_u64 (found, "frames"), DEC_FRAMES);
    fail_unless_equals_uint64 (stat_u64 (found, "gl-errors"), 0);
  } else {
    fail_if (added_has (&added, "glbcupload"), "added:%s", added.names->str);
  }
  note ("%s%s%s ! %s: %s, %s max |diff| %d from bcdec\n", bin,
      *dec_props ? " " : "", dec_props, out_desc, decoder,
      gst_bc_format_to_string (format), d.max);
  fail_unless (d.max <= tolerance, "%s differs from bcdec by up to %d (%"
      G_GUINT64_FORMAT " channels)", decoder, d.max, d.n);

  gst_object_unref (found);
  gst_object_unref (src);
  gst_object_unref (out);
  gst_object_unref (ref);
  gst_object_unref (dec);
  stop (p);
  added_clear (&added);
  for (i = 0; i < DEC_FRAMES; i++)
    g_free (frames[i]);
}

#define OUT_GL_MEMORY "video/x-raw(memory:GLMemory),format=RGBA ! gldownload " \
  "! video/x-raw,format=RGBA ! appsink name=out sync=false"
#define OUT_SYSTEM_RGBA "videoconvert ! video/x-raw,format=RGBA " \
  "! appsink name=out sync=false"
#define OUT_SYSTEM_BGRX "videoconvert ! video/x-raw,format=BGRx " \
  "! appsink name=out sync=false"
#define REF_RGBA "video/x-raw,format=RGBA"

/* a GL consumer: GL memory, decoded by the GPU */
GST_START_TEST (test_decodebin_gl_memory)
{
  check_decodebin ("decodebin", GST_BC_FORMAT_BC7, "", OUT_GL_MEMORY,
      REF_RGBA, "glbcupload", TRUE, 0);
  check_decodebin ("decodebin", GST_BC_FORMAT_BC1, "", OUT_GL_MEMORY,
      REF_RGBA, "glbcupload", TRUE, TOLERANCE);
  /* BC6H, tone-mapped by the GPU as by bcdec */
  check_decodebin ("decodebin", GST_BC_FORMAT_BC6H, "", OUT_GL_MEMORY,
      REF_RGBA, "glbcupload", TRUE, TOLERANCE);
}

GST_END_TEST;

/* downstream that takes any memory: GL memory first, mapped by the
 * application */
GST_START_TEST (test_decodebin_any_memory)
{
  check_decodebin ("decodebin", GST_BC_FORMAT_BC7, "",
      "appsink name=out sync=false", REF_RGBA, "glbcupload", TRUE, 0);
}

GST_END_TEST;

/* decodebin ! videoconvert ! a sink of system memory: still the GPU, read
 * back */
GST_START_TEST (test_decodebin_system_memory)
{
  check_decodebin ("decodebin", GST_BC_FORMAT_BC7, "", OUT_SYSTEM_RGBA,
      REF_RGBA, "glbcupload", FALSE, 0);
  check_decodebin ("decodebin", GST_BC_FORMAT_YCOCG_BC3, "", OUT_SYSTEM_RGBA,
      REF_RGBA, "glbcupload", FALSE, YCOCG_TOLERANCE);
  /* another format than RGBA: videoconvert converts the read back frames */
  check_decodebin ("decodebin", GST_BC_FORMAT_BC1, "", OUT_SYSTEM_BGRX,
      "video/x-raw,format=BGRx", "glbcupload", FALSE, TOLERANCE);
}

GST_END_TEST;

/* decodebin3 tries glbcupload first as well */
GST_START_TEST (test_decodebin3)
{
  check_decodebin ("decodebin3", GST_BC_FORMAT_BC7, "", OUT_GL_MEMORY,
      REF_RGBA, "glbcupload", TRUE, 0);
  check_decodebin ("decodebin3", GST_BC_FORMAT_BC1, "", OUT_SYSTEM_RGBA,
      REF_RGBA, "glbcupload", FALSE, TOLERANCE);
}

GST_END_TEST;

/* decodebin's force-sw-decoders leaves out glbcupload (klass Hardware) */
GST_START_TEST (test_decodebin_force_sw)
{
  check_decodebin ("decodebin", GST_BC_FORMAT_BC1, "force-sw-decoders=true",
      OUT_SYSTEM_RGBA, REF_RGBA, "bcdec", FALSE, 0);
}

GST_END_TEST;

/* playbin, tile://127.0.0.1 (tilesrc) and a fixed video sink, @sink_desc
 * (a bin with an appsink "sink"): playbin picks glbcupload, whose output
 * is in GL memory (@gl_memory) or system memory, and the frames are those
 * sent. */
static void
check_playbin (const gchar * sink_desc, gboolean gl_memory)
{
  const guint w = 320, h = 180, n = 8;
  GstElement *tx, *appsrc, *tilesink, *pb, *vsink, *sink, *up;
  GError *err = NULL;
  GstBcInfo info;
  guint8 *frames[8];
  gchar *caps, *desc, *uri;
  guint port = 0, i, j;
  Added added;

  caps = bc_caps_string (GST_BC_FORMAT_BC1, w, h);
  desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" ! "
      "tilesink name=sink host=127.0.0.1 port=0 units=2 stats-interval=0 "
      "max-in-flight=64", caps);
  tx = launch (desc);
  g_free (desc);
  g_free (caps);
  appsrc = get (tx, "src");
  tilesink = get (tx, "sink");
  play (tx);
  g_object_get (tilesink, "bound-port", &port, NULL);
  fail_unless (port > 0);

  pb = gst_element_factory_make ("playbin", NULL);
  fail_unless (pb != NULL);
  vsink = gst_parse_bin_from_description (sink_desc, TRUE, &err);
  fail_unless (vsink != NULL, "%s: %s", sink_desc, err ? err->message : "?");
  sink = get (vsink, "sink");
  uri = g_strdup_printf ("tile://127.0.0.1:%u?timeout=5000&stats-interval=0",
      port);
  g_object_set (pb, "uri", uri, "video-sink", vsink, NULL);
  g_free (uri);
  gl_test_share_display (pb);
  added_init (&added);
  g_signal_connect (pb, "deep-element-added",
      G_CALLBACK (on_deep_element_added), &added);
  play (pb);
  test_wait_connected (tilesink);

  for (i = 0; i < n; i++) {
    guint8 *pic = test_picture (w, h, 90 + i, 6, TEST_ALPHA_OPAQUE);

    frames[i] = test_encode (GST_BC_FORMAT_BC1, GST_BC_QUALITY_FAST, pic,
        &test_rgba_layout, w, h, &info);
    g_free (pic);
  }
  /* windows of 4 frames, so that the sender never drops one */
  for (i = 0; i < n; i += 4) {
    for (j = i; j < i + 4; j++)
      fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (appsrc),
              wrap_frame (frames[j], info.size, j)), GST_FLOW_OK);
    for (j = i; j < i + 4; j++) {
      TestPipe u = { pb, NULL, NULL, sink };

      pull_check (&u, &info, frames[j]);
    }
  }

  up = find_by_factory (pb, "glbcupload");
  fail_unless (up != NULL, "playbin did not pick glbcupload (added:%s)",
      added.names->str);
  fail_if (added_has (&added, "bcdec"), "added:%s", added.names->str);
  check_output_memory (up, gl_memory);
  fail_unless_equals_uint64 (stat_u64 (up, "frames"), n);
  fail_unless_equals_uint64 (stat_u64 (up, "gl-errors"), 0);
  note ("playbin, video-sink \"%s\": glbcupload, %s memory\n", sink_desc,
      gl_memory ? "GL" : "system");

  gst_app_src_end_of_stream (GST_APP_SRC (appsrc));
  wait_eos (pb);
  gst_object_unref (up);
  gst_object_unref (sink);
  stop (pb);
  added_clear (&added);
  gst_object_unref (appsrc);
  gst_object_unref (tilesink);
  stop (tx);
  for (i = 0; i < n; i++)
    g_free (frames[i]);
}

/* playbin comes with GStreamer's playback plugin, which dev.sh test-asan
 * does not load */
static gboolean
have_playbin (void)
{
  if (gst_registry_check_feature_version (gst_registry_get (), "playbin", 1,
          0, 0))
    return TRUE;
  g_printerr ("no playbin in this registry (GStreamer's playback plugin is "
      "not loaded): the playbin test is left out\n");
  return FALSE;
}

GST_START_TEST (test_playbin)
{
  if (!have_playbin ())
    return;
  check_playbin ("glcolorconvert ! gldownload ! video/x-raw,format=RGBA "
      "! appsink name=sink sync=false", TRUE);
  check_playbin ("appsink name=sink sync=false caps=video/x-raw,format=RGBA",
      FALSE);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* GL contexts that lack something (Mesa told to hide it, in a child)      */
/* ---------------------------------------------------------------------- */

/* In the child: runs a frame of random @format blocks (random_blocks ())
 * through glbcupload and prints the GL API, then "ok" and the largest
 * difference from the library decoder, or the first error. */
static int
child_run (const gchar * format_name)
{
  GstBcFormat format = gst_bc_format_from_string (format_name);
  GstElement *p, *src, *up, *sink;
  GstGLContext *context = NULL;
  GstSample *sample;
  GstBus *bus;
  GstMessage *msg;
  GstBcInfo info;
  guint8 *data;
  gchar *caps, *desc;
  int ret = 0;

  gst_init (NULL, NULL);
  gl_test_pin_driver ();
  gst_bc_info_init (&info);
  if (!gst_bc_info_set_format (&info, format, 62, 34))
    return 1;
  data = random_blocks (&info, 3);
  caps = bc_caps_string (format, 62, 34);
  desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" "
      "! glbcupload name=up ! gldownload ! video/x-raw,format=RGBA "
      "! appsink name=sink sync=false", caps);
  p = gst_parse_launch (desc, NULL);
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  up = gst_bin_get_by_name (GST_BIN (p), "up");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  gst_element_set_state (p, GST_STATE_PLAYING);
  gst_app_src_push_buffer (GST_APP_SRC (src), wrap_frame (data, info.size, 0));
  gst_app_src_end_of_stream (GST_APP_SRC (src));

  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), PULL_TIMEOUT);
  g_object_get (up, "context", &context, NULL);
  if (context) {
    gchar *api = gst_gl_api_to_string (gst_gl_context_get_gl_api (context));

    g_print ("api: %s\n", api);
    g_free (api);
    gst_object_unref (context);
  }
  if (sample) {
    guint8 *want = test_decode (&info, data);
    GstVideoInfo vinfo;
    GstVideoFrame frame;
    gint max = 0;
    guint x, y;

    gst_video_info_from_caps (&vinfo, gst_sample_get_caps (sample));
    gst_video_frame_map (&frame, &vinfo, gst_sample_get_buffer (sample),
        GST_MAP_READ);
    for (y = 0; y < info.height; y++) {
      const guint8 *got = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
          0) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

      for (x = 0; x < info.width * 4; x++)
        max = MAX (max, ABS ((gint) got[x] -
                (gint) want[(gsize) y * info.width * 4 + x]));
    }
    gst_video_frame_unmap (&frame);
    gst_sample_unref (sample);
    g_free (want);
    g_print ("ok: max |diff| %d\n", max);
  } else {
    bus = gst_element_get_bus (p);
    msg = gst_bus_timed_pop_filtered (bus, 0, GST_MESSAGE_ERROR);
    if (msg) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      g_print ("error: %s\n", err->message);
      g_error_free (err);
      gst_message_unref (msg);
    } else {
      g_print ("timeout\n");
      ret = 1;
    }
    gst_object_unref (bus);
  }
  /* What the child printed is its whole result: it ends here, without
   * tearing the GL context down. With GStreamer 1.22 and libglvnd the GL
   * thread's eglReleaseThread() now and then double-frees when it exits
   * (seen in about 1 of 24 GLES children on llvmpipe), which is not what
   * these children test; the teardown of glbcupload itself is covered by
   * every other test. */
  fflush (stdout);
  _exit (ret);
}

GST_START_TEST (test_missing_buffer_storage)
{
  static const gchar *const env[] = {
    "MESA_GL_VERSION_OVERRIDE", "4.3",
    "MESA_EXTENSION_OVERRIDE", "-GL_ARB_buffer_storage", NULL
  };
  gchar *out = run_child ("BC1", env);

  fail_unless (strstr (out, "error: ") && strstr (out,
          "GL_ARB_buffer_storage"), "child said: %s", out);
  g_free (out);
}

GST_END_TEST;

GST_START_TEST (test_missing_s3tc)
{
  static const gchar *const env[] = {
    "MESA_EXTENSION_OVERRIDE", "-GL_EXT_texture_compression_s3tc", NULL
  };
  gchar *out;

  out = run_child ("YCoCg-BC3", env);
  fail_unless (strstr (out, "error: ") && strstr (out,
          "GL_EXT_texture_compression_s3tc"), "child said: %s", out);
  g_free (out);
  /* RGTC is core GL: BC4 still works */
  out = run_child ("BC4", env);
  fail_unless (strstr (out, "ok: max |diff| "), "child said: %s", out);
  g_free (out);
}

GST_END_TEST;

/* A desktop context without BPTC (OpenGL 4.1, the extension hidden)
 * samples neither BC7 nor BC6H nor BC6H-SF, which need the same
 * extension; the others still work */
GST_START_TEST (test_missing_bptc)
{
  static const gchar *const env[] = {
    "MESA_GL_VERSION_OVERRIDE", "4.1",
    "MESA_EXTENSION_OVERRIDE", "-GL_ARB_texture_compression_bptc", NULL
  };
  static const gchar *const formats[] = { "BC7", "BC6H", "BC6H-SF" };
  gchar *out;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    out = run_child (formats[i], env);
    fail_unless (strstr (out, "error: ") && strstr (out,
            "GL_ARB_texture_compression_bptc"), "%s: child said: %s",
        formats[i], out);
    g_free (out);
  }
  out = run_child ("BC1", env);
  fail_unless (strstr (out, "ok: max |diff| "), "child said: %s", out);
  g_free (out);
}

GST_END_TEST;

/* The same on OpenGL ES 3 (GLSL ES 3.00, GL_EXT_buffer_storage), in a
 * child whose GL context is made with GST_GL_API=gles2. */
GST_START_TEST (test_gles)
{
  static const gchar *const env[] = { "GST_GL_API", "gles2", NULL };
  static const gchar *formats[] = { "BC1", "BC3", "YCoCg-BC3", "BC4", "BC5",
    "BC7", "BC6H", "BC6H-SF"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    gchar *out = run_child (formats[i], env);
    const gchar *ok = strstr (out, "ok: max |diff| ");
    gint max, tolerance = strcmp (formats[i], "YCoCg-BC3") == 0 ?
        YCOCG_TOLERANCE : TOLERANCE;

    fail_unless (strstr (out, "api: gles2") && ok, "%s: child said: %s",
        formats[i], out);
    max = atoi (ok + strlen ("ok: max |diff| "));
    fail_unless (max <= tolerance, "%s on GLES differs by %d", formats[i], max);
    note ("OpenGL ES: random blocks %-9s 62x34 max |diff| %d\n", formats[i],
        max);
    g_free (out);
  }
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* No GL: decodebin falls back to bcdec (in a child)                       */
/* ---------------------------------------------------------------------- */

/* In the child: BC1 frames through appsrc ! @bin (decodebin or decodebin3)
 * ! videoconvert ! appsink, without a display shared by the test. Prints
 * what the bin tried ("tried:"), the decoder it kept ("decoder:"), the
 * frames and their largest difference from the library decoder
 * ("frames:"), every ERROR or WARNING message up to EOS ("bus:"), then
 * whether glbcupload on its own reaches READY ("ready:"), the error it
 * posts when a frame comes ("alone:") and, with @probe, whether a GL
 * context can be made in this environment at all ("probe:"; not on the
 * dummy display: GStreamer's X11 window crashes on it). */
static int
child_decodebin (const gchar * bin, gboolean probe)
{
  GstElement *p, *src, *sink, *dec, *decoder = NULL;
  GstBus *bus;
  GstMessage *msg;
  GstBcInfo info;
  GstGLDisplay *display;
  GstGLContext *context = NULL;
  GError *error = NULL;
  guint8 *frames[4];
  gchar *caps, *desc;
  guint i, n = 0;
  gint max = 0;
  Added added;

  gst_init (NULL, NULL);
  caps = bc_caps_string (GST_BC_FORMAT_BC1, DEC_W, DEC_H);
  desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" "
      "! %s name=dec ! videoconvert ! video/x-raw,format=RGBA "
      "! appsink name=sink sync=false", caps, bin);
  p = gst_parse_launch (desc, NULL);
  g_free (desc);
  added_init (&added);
  g_signal_connect (p, "deep-element-added",
      G_CALLBACK (on_deep_element_added), &added);
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  dec = gst_bin_get_by_name (GST_BIN (p), "dec");
  if (gst_element_set_state (p, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE)
    g_print ("bus: the pipeline cannot start\n");
  gst_bc_info_init (&info);
  gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1, DEC_W, DEC_H);
  for (i = 0; i < G_N_ELEMENTS (frames); i++) {
    frames[i] = random_blocks (&info, 20 + i);
    gst_app_src_push_buffer (GST_APP_SRC (src), wrap_frame (frames[i],
            info.size, i));
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));

  for (i = 0; i < G_N_ELEMENTS (frames); i++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        PULL_TIMEOUT);
    GstVideoFormat format;
    guint8 *got, *want;
    Diff d = { 0, };

    if (!sample)
      break;
    got = sample_pixels (sample, DEC_W, DEC_H, &format);
    gst_sample_unref (sample);
    if (!got) {
      g_print ("frames: not RGBA %ux%u\n", DEC_W, DEC_H);
      break;
    }
    want = test_decode (&info, frames[i]);
    diff_pixels (got, want, DEC_W * DEC_H, format, &d);
    max = MAX (max, d.max);
    n++;
    g_free (got);
    g_free (want);
  }
  g_print ("frames: %u max |diff| %d\n", n, max);

  bus = gst_element_get_bus (p);
  while ((msg = gst_bus_timed_pop_filtered (bus, PULL_TIMEOUT,
              GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    GError *err = NULL;
    gboolean eos = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, NULL);
    else if (!eos)
      gst_message_parse_warning (msg, &err, NULL);
    if (err)
      g_print ("bus: %s from %s: %s\n", GST_MESSAGE_TYPE_NAME (msg),
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
    g_clear_error (&err);
    gst_message_unref (msg);
    if (eos)
      break;
  }
  gst_object_unref (bus);

  g_mutex_lock (&added.lock);
  g_print ("tried:%s\n", added.names->str);
  g_mutex_unlock (&added.lock);
  decoder = find_by_factory (dec, "bcdec");
  if (!decoder)
    decoder = find_by_factory (dec, "glbcupload");
  g_print ("decoder: %s\n", decoder ?
      GST_OBJECT_NAME (gst_element_get_factory (decoder)) : "none");
  gst_clear_object (&decoder);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (dec);
  gst_object_unref (p);

  /* glbcupload alone: reaches READY, then fails on the caps of the first
   * frame with an error */
  desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" "
      "! glbcupload ! fakesink", caps);
  p = gst_parse_launch (desc, NULL);
  g_free (desc);
  g_print ("ready: %s\n", gst_element_set_state (p, GST_STATE_READY) ==
      GST_STATE_CHANGE_FAILURE ? "failed" : "reached");
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  gst_element_set_state (p, GST_STATE_PLAYING);
  gst_app_src_push_buffer (GST_APP_SRC (src), wrap_frame (frames[0],
          info.size, 0));
  gst_object_unref (src);
  bus = gst_element_get_bus (p);
  msg = gst_bus_timed_pop_filtered (bus, PULL_TIMEOUT, GST_MESSAGE_ERROR);
  if (msg) {
    GstElementFactory *factory =
        gst_element_get_factory (GST_ELEMENT (GST_MESSAGE_SRC (msg)));

    gst_message_parse_error (msg, &error, NULL);
    g_print ("alone: %s: %s%s\n", factory ? GST_OBJECT_NAME (factory) : "?",
        error->message, g_error_matches (error, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_NOT_FOUND) ? " (resource, not found)" : "");
    g_clear_error (&error);
    gst_message_unref (msg);
  } else {
    g_print ("alone: no error\n");
  }
  gst_object_unref (bus);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (caps);
  for (i = 0; i < G_N_ELEMENTS (frames); i++)
    g_free (frames[i]);

  /* after the pipelines, so as not to change what they found */
  if (probe) {
    display = gst_gl_display_new ();
    if (gst_gl_display_create_context (display, NULL, &context, &error))
      g_print ("probe: a GL context\n");
    else
      g_print ("probe: no GL context (%s)\n", error ? error->message : "?");
    g_clear_error (&error);
  }
  g_print ("done\n");
  /* as child_run (): ends without the GL context's teardown */
  fflush (stdout);
  _exit (0);
}

static int
child_main (const gchar * arg)
{
  if (g_str_has_prefix (arg, "decodebin")) {
    gchar **bin_probe = g_strsplit (arg, "-", 2);
    int ret = child_decodebin (bin_probe[0], bin_probe[1] != NULL);

    g_strfreev (bin_probe);
    return ret;
  }
  return child_run (arg);
}

/* run_child () with the environment variables of @unset removed (not
 * inlined: GCC 12 then takes the output for a pointer to a local) */
G_GNUC_NO_INLINE static gchar *
run_child_unset (const gchar * arg, const gchar * const *env_extra,
    const gchar * const *unset)
{
  gchar *argv[] = { (gchar *) "/proc/self/exe", (gchar *) "--child",
    (gchar *) arg, NULL
  };
  gchar **env = g_get_environ ();
  gchar *out = NULL, *err_out = NULL;
  GError *error = NULL;
  gint status = 0;
  guint i;

  for (i = 0; unset[i]; i++)
    env = g_environ_unsetenv (env, unset[i]);
  for (i = 0; env_extra[i]; i += 2)
    env = g_environ_setenv (env, env_extra[i], env_extra[i + 1], TRUE);
  fail_unless (g_spawn_sync (NULL, argv, env, G_SPAWN_DEFAULT, NULL, NULL,
          &out, &err_out, &status, &error), "cannot run the child: %s",
      error ? error->message : "?");
  fail_unless (g_spawn_check_wait_status (status, NULL), "the child failed: "
      "%s%s", out, err_out);
  g_strfreev (env);
  g_free (err_out);
  return out;
}

/* The child in @env_extra, without @unset, with decodebin and decodebin3
 * in turn: the bin tried glbcupload, which declined, kept bcdec, decoded
 * every frame as the library decoder does, and nothing reached the bus
 * but EOS (decodebin3 of GStreamer 1.22 lets a decoder's errors through:
 * glbcupload must not post any while it is tried); glbcupload on its own
 * reaches READY, and fails on the first frame with an error (@alone_error
 * when not NULL). Left out when the environment turned out to have GL
 * after all (only @may_have_gl allows that). */
static void
check_no_gl (const gchar * label, const gchar * const *env_extra,
    const gchar * const *unset, gboolean may_have_gl,
    const gchar * alone_error)
{
  static const gchar *const display_vars[] = { "DISPLAY", "WAYLAND_DISPLAY",
    NULL
  };
  static const gchar *const bins[] = { "decodebin", "decodebin3" };
  guint b;

  for (b = 0; b < G_N_ELEMENTS (bins); b++) {
    gchar *arg = g_strconcat (bins[b], may_have_gl ? "-probe" : "", NULL);
    gchar *out = run_child_unset (arg, env_extra, unset ? unset :
        display_vars);
    const gchar *tried, *gl;

    g_free (arg);
    fail_unless (strstr (out, "done\n"), "%s, %s: the child said: %s", label,
        bins[b], out);
    if (may_have_gl && strstr (out, "probe: a GL context")) {
      note ("%s: a GL context can be made here: case left out\n", label);
      g_free (out);
      return;
    }
    tried = strstr (out, "tried: ");
    gl = tried ? strstr (tried, " glbcupload ") : NULL;
    fail_unless (gl && strstr (gl, " bcdec "), "%s: %s did not try "
        "glbcupload, then bcdec: %s", label, bins[b], out);
    fail_unless (strstr (out, "decoder: bcdec\n"), "%s, %s: %s", label,
        bins[b], out);
    fail_unless (strstr (out, "frames: 4 max |diff| 0\n"), "%s, %s: %s",
        label, bins[b], out);
    fail_if (strstr (out, "bus: ") != NULL, "%s, %s: %s", label, bins[b],
        out);
    fail_unless (strstr (out, "ready: reached\n"), "%s: %s", label, out);
    fail_unless (strstr (out, "alone: glbcupload: "), "%s: %s", label, out);
    if (alone_error) {
      gchar *want = g_strdup_printf ("alone: glbcupload: %s\n", alone_error);

      fail_unless (strstr (out, want), "%s: %s", label, out);
      g_free (want);
    }
    note ("no GL, %s: %s fell back to bcdec\n", label, bins[b]);
    g_free (out);
  }
}

/* no display at all: X11 wanted, none there (gst_gl_display_new () gives
 * its dummy display) */
GST_START_TEST (test_decodebin_no_display)
{
  static const gchar *const env[] = { "GST_GL_WINDOW", "x11",
    "GST_GL_PLATFORM", "glx", NULL
  };

  check_no_gl ("no display (GST_GL_WINDOW=x11, no DISPLAY)", env, NULL,
      FALSE, "No OpenGL display: glbcupload cannot decode on the GPU here; "
      "decode with bcdec instead (resource, not found)");
}

GST_END_TEST;

/* In this process, with the dummy display (what gst_gl_display_new ()
 * gives when nothing works) handed to the pipeline: glbcupload reaches
 * READY, is not asked for a GL context there, refuses the caps of the
 * first frame with the error (once), and lets go of the display (the leak
 * tracer checks) */
GST_START_TEST (test_dummy_display)
{
  GstGLDisplay *dummy = g_object_new (GST_TYPE_GL_DISPLAY, NULL);
  GstElement *p, *up, *src;
  GstContext *context;
  GstMessage *msg;
  GstCaps *bc_caps;
  GstBcInfo info;
  GstBus *bus;
  guint8 *frame;
  gchar *caps, *desc;

  gst_object_ref_sink (dummy);
  caps = bc_caps_string (GST_BC_FORMAT_BC1, DEC_W, DEC_H);
  desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" "
      "! glbcupload name=up ! fakesink", caps);
  p = launch (desc);
  g_free (desc);
  context = gst_context_new (GST_GL_DISPLAY_CONTEXT_TYPE, TRUE);
  gst_context_set_gl_display (context, dummy);
  gst_element_set_context (p, context);
  gst_context_unref (context);
  up = get (p, "up");
  src = get (p, "src");

  fail_unless_equals_int (gst_element_set_state (p, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (GST_STATE (up), GST_STATE_READY);
  /* on trial (READY, as decodebin asks): no, without a message */
  bc_caps = gst_caps_from_string (caps);
  fail_if (gst_pad_query_accept_caps (GST_BASE_TRANSFORM (up)->sinkpad,
          bc_caps));
  gst_caps_unref (bc_caps);
  bus = gst_element_get_bus (p);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
  fail_if (msg != NULL);

  gst_element_set_state (p, GST_STATE_PLAYING);
  gst_bc_info_init (&info);
  gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1, DEC_W, DEC_H);
  frame = random_blocks (&info, 5);
  gst_app_src_push_buffer (GST_APP_SRC (src), wrap_frame (frame, info.size,
          0));
  msg = check_error_message (bus, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_NOT_FOUND, "GST_GL_WINDOW=", "egl-device", NULL);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (up));
  gst_message_unref (msg);
  fail_unless_equals_int (gst_element_set_state (p, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  /* once */
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_if (msg && GST_MESSAGE_SRC (msg) == GST_OBJECT (up));
  gst_clear_message (&msg);
  gst_object_unref (bus);
  gst_object_unref (up);
  gst_object_unref (src);
  gst_object_unref (p);
  g_free (frame);
  g_free (caps);
  /* nothing else holds the display */
  ASSERT_OBJECT_REFCOUNT (dummy, "dummy display", 1);
  gst_object_unref (dummy);
}

GST_END_TEST;

/* a display, but no context: EGL on X11 without an X server (an EGL
 * display that cannot be initialised, as on a headless machine without
 * GST_GL_* set) */
GST_START_TEST (test_decodebin_no_context)
{
  static const gchar *const env[] = { "GST_GL_WINDOW", "egl",
    "GST_GL_PLATFORM", "egl", "EGL_PLATFORM", "x11", NULL
  };

  check_no_gl ("EGL display, no context (EGL_PLATFORM=x11, no DISPLAY)", env,
      NULL, TRUE, NULL);
}

GST_END_TEST;

/* a context that lacks what glbcupload needs (Mesa told to hide buffer
 * storage): gl_start () fails */
GST_START_TEST (test_decodebin_context_lacks)
{
  static const gchar *const env[] = {
    "MESA_GL_VERSION_OVERRIDE", "4.3",
    "MESA_EXTENSION_OVERRIDE", "-GL_ARB_buffer_storage", NULL
  };
  static const gchar *const none[] = { NULL };

  /* (alone, the error is not always gl_start ()'s: the EGL display the
   * decodebin pipeline made, and terminates when it goes, is the process's
   * one, so the next context may fail to activate) */
  check_no_gl ("a context without GL_ARB_buffer_storage", env, none, FALSE,
      NULL);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */

static Suite *
glbcupload_suite (void)
{
  Suite *s = suite_create ("glbcupload");
  TCase *tc = test_suite_add_general (s, 240);

  tcase_add_checked_fixture (tc, gl_test_pin_driver, gl_test_release_display);
  tcase_add_test (tc, test_decode_bc1);
  tcase_add_test (tc, test_decode_bc3);
  tcase_add_test (tc, test_decode_ycocg_bc3);
  tcase_add_test (tc, test_decode_ycocg_bc3_any_blocks);
  tcase_add_test (tc, test_decode_bc4);
  tcase_add_test (tc, test_decode_bc5);
  tcase_add_test (tc, test_decode_bc7);
  tcase_add_test (tc, test_decode_bc6h);
  tcase_add_test (tc, test_decode_bc6h_any_blocks);
  tcase_add_test (tc, test_decode_bc6h_sf);
  tcase_add_test (tc, test_decode_bc6h_sf_any_blocks);
  tcase_add_test (tc, test_decode_bc6h_sf_negative);
  tcase_add_test (tc, test_zero_copy);
  tcase_add_test (tc, test_slot_reuse);
  tcase_add_test (tc, test_caps_change);
  tcase_add_test (tc, test_output_memory_switch);
  tcase_add_test (tc, test_wrong_size);
  tcase_add_test (tc, test_tilesrc_stepped);
  tcase_add_test (tc, test_tilesrc_whole_frames);
  tcase_add_test (tc, test_tilesrc_stepped_system_memory);
  tcase_add_test (tc, test_tilesrc_stepped_bc6h);
  tcase_add_test (tc, test_decodebin_gl_memory);
  tcase_add_test (tc, test_decodebin_any_memory);
  tcase_add_test (tc, test_decodebin_system_memory);
  tcase_add_test (tc, test_decodebin_force_sw);
  tcase_add_test (tc, test_decodebin3);
  tcase_add_test (tc, test_playbin);
  tcase_add_test (tc, test_dummy_display);
  tcase_add_test (tc, test_decodebin_no_display);
  tcase_add_test (tc, test_decodebin_no_context);
  tcase_add_test (tc, test_decodebin_context_lacks);
  tcase_add_test (tc, test_missing_buffer_storage);
  tcase_add_test (tc, test_missing_s3tc);
  tcase_add_test (tc, test_missing_bptc);
  tcase_add_test (tc, test_gles);
  return s;
}

int
main (int argc, char **argv)
{
  gl_test_init (argc, argv);
  test_child_main (argc, argv, child_main);

  if (!gl_test_check_init (&argc, &argv, NULL))
    return 77;

  test_debug_gl_errors ("glbcupload");
  gst_element_register (NULL, "bctestsrc", GST_RANK_NONE, test_src_get_type ());

  return gst_check_run_suite (glbcupload_suite (), "glbcupload", __FILE__);
}
