/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the tests of tests/check share:
 * - the suite's test case;
 * - pictures: the synthetic test picture, the photographs
 *   benchmarks/photos.py caches, conversions to pixel layouts;
 * - the library's encoder and decoder on whole frames, and PSNR;
 * - pipelines: parse one, find its elements, check its bus and its error
 *   messages, wait for EOS, pull samples, stop it; run_child () and
 *   test_child_main () for tests in a child process;
 * - the statistics (a GstStructure property) of elements;
 * - GL test logging.
 * Everything is static inline: a test uses what it needs. The pipeline
 * helpers wait PULL_TIMEOUT, 10 s unless the test defines it before
 * including this header. */

#ifndef __GST_BC_TEST_H__
#define __GST_BC_TEST_H__

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <gst/bc/bc.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <poll.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#endif

#ifndef PULL_TIMEOUT
#define PULL_TIMEOUT (10 * GST_SECOND)
#endif

/* ---------------------------------------------------------------------- */
/* the suite                                                               */

/* Creates the test case "general" of the suite @s, the only one a test
 * binary has, and returns it for tcase_add_test (). Its tests time out
 * after @timeout seconds; 0 keeps check's default (CK_DEFAULT_TIMEOUT). */
static inline TCase *
test_suite_add_general (Suite * s, gdouble timeout)
{
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  if (timeout > 0)
    tcase_set_timeout (tc, timeout);
  return tc;
}

/* gst-check only watches the GStreamer and GLib log domains: a library's
 * criticals and warnings go through the same logic, so ASSERT_CRITICAL
 * sees them and an unexpected one fails the test. */
static inline void
test_log_func (const gchar * domain, GLogLevelFlags level,
    const gchar * message, gpointer user_data)
{
  if (_gst_check_expecting_log) {
    if (level & G_LOG_LEVEL_CRITICAL)
      _gst_check_raised_critical = TRUE;
    if (level & G_LOG_LEVEL_WARNING)
      _gst_check_raised_warning = TRUE;
    return;
  }
  fail ("Unexpected %s: %s", (level & G_LOG_LEVEL_CRITICAL) ? "critical" :
      "warning", message);
}

/* Watches the log domain @domain (a library's G_LOG_DOMAIN) as gst-check
 * watches GStreamer's. */
static inline void
test_watch_log_domain (const gchar * domain)
{
  g_log_set_handler (domain, G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING,
      test_log_func, NULL);
}

/* ---------------------------------------------------------------------- */
/* pictures                                                                */

/* A texture of BC6H (or BC6H-SF) blocks of any bits (for what does not
 * look into them: Hap, the network) that Snappy makes smaller, as video
 * does: a quarter of the blocks random, the others copies of a few */
static inline guint8 *
test_bc6h_blocks (GstBcFormat format, guint width, guint height,
    guint32 seed, GstBcInfo * info)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint8 few[4][16], *tex;
  gsize b, i;

  gst_bc_info_init (info);
  fail_unless (gst_bc_info_set_format (info, format, width, height));
  fail_unless_equals_int (info->block_bytes, 16);
  tex = g_malloc (info->size);
  for (b = 0; b < 4; b++)
    for (i = 0; i < 16; i++)
      few[b][i] = g_rand_int (rand);
  for (b = 0; b < info->size / 16; b++) {
    if (g_rand_int_range (rand, 0, 4) == 0)
      for (i = 0; i < 16; i++)
        tex[b * 16 + i] = g_rand_int (rand);
    else
      memcpy (tex + b * 16, few[g_rand_int_range (rand, 0, 4)], 16);
  }
  g_rand_free (rand);
  return tex;
}


/* What test_picture () puts in alpha */
typedef enum
{
  TEST_ALPHA_OPAQUE,            /* 255 */
  TEST_ALPHA_WAVE,              /* a slow wave over the whole range */
  TEST_ALPHA_RAMP,              /* a fast diagonal ramp with noise */
} TestAlpha;

static inline guint32
test_lcg_next (guint32 * state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

/* A picture that looks a bit like a photograph: smooth gradients, hard
 * edges, texture and noise of up to +-@noise, the same for the same
 * arguments on every machine. */
static inline guint8 *
test_picture (guint width, guint height, guint32 seed, gint noise,
    TestAlpha alpha)
{
  guint8 *p = g_malloc ((gsize) width * height * 4);
  guint32 state = seed;
  guint x, y;

  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      guint8 *px = p + ((gsize) y * width + x) * 4;
      gdouble fx = (x + seed) / 37.0, fy = y / 23.0;
      gdouble base = 110 + 60 * sin (fx) * cos (fy * 0.7);
      gdouble edge = ((x / 29 + y / 17) % 3 == 0) ? 50 : 0;
      gint n = (gint) (test_lcg_next (&state) % (2 * noise + 1)) - noise;

      px[0] = CLAMP (base + edge + n + 30 * sin (fy * 1.3), 0, 255);
      px[1] = CLAMP (base * 0.8 + n + 40 * cos (fx * 0.5), 0, 255);
      px[2] = CLAMP (200 - base * 0.6 + edge / 2 + n, 0, 255);
      switch (alpha) {
        case TEST_ALPHA_OPAQUE:
          px[3] = 255;
          break;
        case TEST_ALPHA_WAVE:
          px[3] = CLAMP (128 + 127 * sin ((fx + fy) * 0.3), 0, 255);
          break;
        case TEST_ALPHA_RAMP:
          px[3] = (guint8) ((x * 7 + y * 3 + (n & 3)) & 0xff);
          break;
      }
    }
  }
  return p;
}

/* A frame of the photograph @name (e.g. "bridge_crop") at @width x @height,
 * RGBA, as benchmarks/photos.py caches it (not in the repository), or NULL
 * when it is not there. */
static inline guint8 *
test_load_photo (const gchar * name, guint width, guint height)
{
  gchar *file = g_strdup_printf ("%s_%ux%u.rgba", name, width, height);
  gchar *path = g_build_filename (GST_BC_SOURCE_ROOT, "benchmarks", "photos",
      "cache", "frames", file, NULL);
  gchar *data = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &data, &len, NULL) ||
      len != (gsize) width * height * 4)
    g_clear_pointer (&data, g_free);
  g_free (path);
  g_free (file);
  return (guint8 *) data;
}

/* The luma bc4enc codes of an RGBA pixel (BT.601) */
static inline guint8
test_luma (const guint8 * px)
{
  return (77 * px[0] + 150 * px[1] + 29 * px[2] + 128) >> 8;
}

/* The RGBA picture @rgba in @layout at @dst, rows @stride bytes apart; the
 * bytes the layout leaves (the x of RGBx, row padding) get 0x5a, junk that
 * an encoder must ignore. */
static inline void
test_picture_to_layout (const guint8 * rgba, guint width, guint height,
    const GstBcPixelLayout * layout, guint8 * dst, gsize stride)
{
  guint x, y;

  memset (dst, 0x5a, stride * height);
  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      const guint8 *s = rgba + ((gsize) y * width + x) * 4;
      guint8 *d = dst + y * stride + (gsize) x * layout->bpp;

      d[layout->r] = s[0];
      d[layout->g] = s[1];
      d[layout->b] = s[2];
      if (layout->a >= 0)
        d[layout->a] = s[3];
    }
  }
}

/* A video format and the pixel layout it has */
typedef struct
{
  GstVideoFormat format;
  GstBcPixelLayout layout;
} TestLayout;

/* @get (gst_bc_pixel_layout_from_video_format (), or the encoders'
 * gst_bc_encode_layout_from_video_format ()) gives each of the @n
 * @layouts for its format */
static inline void
test_check_layouts (gboolean (*get) (GstBcPixelLayout *, GstVideoFormat),
    const TestLayout * layouts, guint n)
{
  guint i;

  for (i = 0; i < n; i++) {
    const GstBcPixelLayout *want = &layouts[i].layout;
    const gchar *name = gst_video_format_to_string (layouts[i].format);
    GstBcPixelLayout lo;

    fail_unless (get (&lo, layouts[i].format), "no layout for %s", name);
    fail_unless (lo.bpp == want->bpp && lo.r == want->r && lo.g == want->g
        && lo.b == want->b && lo.a == want->a && lo.x == want->x,
        "%s: layout {%u, %d, %d, %d, %d, %d}, expected {%u, %d, %d, %d, %d, "
        "%d}", name, lo.bpp, lo.r, lo.g, lo.b, lo.a, lo.x, want->bpp, want->r,
        want->g, want->b, want->a, want->x);
  }
}

/* The 16 RGBA pixels of block (@bx, @by) of a picture, edges repeated
 * beyond its last column and row, as the encoder pads */
static inline void
test_block_pixels (const guint8 * rgba, guint width, guint height, guint bx,
    guint by, guint8 px[64])
{
  guint x, y;

  for (y = 0; y < 4; y++)
    for (x = 0; x < 4; x++)
      memcpy (px + (y * 4 + x) * 4, rgba + ((gsize) MIN (by * 4 + y,
                  height - 1) * width + MIN (bx * 4 + x, width - 1)) * 4, 4);
}

/* The picture padded to whole blocks, edges repeated as the encoder pads */
static inline guint8 *
test_pad_to_blocks (const guint8 * rgba, guint width, guint height)
{
  guint pw = (width + 3) & ~3u, ph = (height + 3) & ~3u, x, y;
  guint8 *out = g_malloc ((gsize) pw * ph * 4);

  for (y = 0; y < ph; y++)
    for (x = 0; x < pw; x++)
      memcpy (out + ((gsize) y * pw + x) * 4, rgba + ((gsize) MIN (y,
                  height - 1) * width + MIN (x, width - 1)) * 4, 4);
  return out;
}

/* ---------------------------------------------------------------------- */
/* the library's encoder and decoder, PSNR                                 */

static const GstBcPixelLayout test_rgba_layout = { 4, 0, 1, 2, 3, -1 };

/* The encoder of each format, as a launch line */
static const struct
{
  const gchar *enc;
  GstBcFormat format;
} test_encoders[] = {
  {"bc1enc", GST_BC_FORMAT_BC1},
  {"bc3enc ycocg=false", GST_BC_FORMAT_BC3},
  {"bc3enc ycocg=true", GST_BC_FORMAT_YCOCG_BC3},
  {"bc4enc", GST_BC_FORMAT_BC4},
  {"bc5enc", GST_BC_FORMAT_BC5},
  {"bc7enc", GST_BC_FORMAT_BC7},
};

/* The library's encoding of the picture @src (@layout, packed rows) into a
 * new frame, whose geometry goes to @info. The frame starts as 0xcd junk,
 * which the encoder must overwrite. */
static inline guint8 *
test_encode (GstBcFormat format, GstBcQuality quality, const guint8 * src,
    const GstBcPixelLayout * layout, guint width, guint height,
    GstBcInfo * info)
{
  guint8 *out;

  gst_bc_info_init (info);
  fail_unless (gst_bc_info_set_format (info, format, width, height));
  out = g_malloc (info->size);
  memset (out, 0xcd, info->size);
  gst_bc_encode_rows (format, quality, src, (gsize) width * layout->bpp,
      width, height, layout, 0, info->blocks_y, out);
  return out;
}

/* The library's fast encoding of test_picture (@width, @height, @seed,
 * noise 3, alpha wave) in @format: a frame that compresses like video */
static inline guint8 *
test_encode_picture (GstBcFormat format, guint width, guint height,
    guint32 seed, GstBcInfo * info)
{
  guint8 *rgba = test_picture (width, height, seed, 3, TEST_ALPHA_WAVE);
  GstBcPixelLayout layout;
  guint8 *frame;

  fail_unless (gst_bc_pixel_layout_from_video_format (&layout,
          GST_VIDEO_FORMAT_RGBA));
  frame = test_encode (format, GST_BC_QUALITY_FAST, rgba, &layout, width,
      height, info);
  g_free (rgba);
  return frame;
}

/* The library's encoding of @info of the RGBA picture @rgba written in
 * @layout, with rows @pad bytes longer than they need (junk in them) */
static inline guint8 *
test_encode_layout (const GstBcInfo * info, GstBcQuality quality,
    const guint8 * rgba, const GstBcPixelLayout * layout, gsize pad)
{
  gsize stride = (gsize) info->width * layout->bpp + pad;
  guint8 *conv = g_malloc (stride * info->height);
  guint8 *out = g_malloc0 (info->size);

  test_picture_to_layout (rgba, info->width, info->height, layout, conv,
      stride);
  gst_bc_encode_rows (info->format, quality, conv, stride, info->width,
      info->height, layout, 0, info->blocks_y, out);
  g_free (conv);
  return out;
}

/* Encoding the RGBA picture @rgba in pieces of @rows block rows gives @ref,
 * its encoding of @info in one call */
static inline void
test_check_pieces (const GstBcInfo * info, GstBcQuality quality,
    const guint8 * rgba, guint rows, const guint8 * ref)
{
  guint8 *out = g_malloc0 (info->size);
  guint by;

  for (by = 0; by < info->blocks_y; by += rows)
    gst_bc_encode_rows (info->format, quality, rgba, (gsize) info->width * 4,
        info->width, info->height, &test_rgba_layout, by, MIN (rows,
            info->blocks_y - by), out);
  fail_unless (memcmp (ref, out, info->size) == 0, "%s in pieces of %u "
      "block rows", gst_bc_format_to_string (info->format), rows);
  g_free (out);
}

/* gst_bc_encode_block () of every block of the RGBA picture @rgba gives its
 * block of @ref, the picture's encoding of @info */
static inline void
test_check_blocks (const GstBcInfo * info, GstBcQuality quality,
    const guint8 * rgba, const guint8 * ref)
{
  guint bx, by;

  for (by = 0; by < info->blocks_y; by++) {
    for (bx = 0; bx < info->blocks_x; bx++) {
      guint8 px[64], blk[16];

      test_block_pixels (rgba, info->width, info->height, bx, by, px);
      gst_bc_encode_block (info->format, quality, px, blk);
      fail_unless (memcmp (blk, ref + by * info->row_bytes +
              bx * info->block_bytes, info->block_bytes) == 0, "%s block "
          "%u,%u", gst_bc_format_to_string (info->format), bx, by);
    }
  }
}

/* Encoding the picture @src (@layout, packed rows) as @format at @quality
 * with each SIMD level this CPU has gives the bytes of portable C; @what
 * names the picture in a failure. Leaves the encoder at its best level. */
static inline void
test_check_simd_identical (GstBcFormat format, GstBcQuality quality,
    const guint8 * src, const GstBcPixelLayout * layout, guint width,
    guint height, const gchar * what)
{
  GstBcSimd best = gst_bc_encode_set_simd (GST_BC_SIMD_AVX512), level;
  GstBcInfo info;
  guint8 *ref;

  GST_INFO ("best SIMD level here: %d", best);
  fail_unless_equals_int (gst_bc_encode_set_simd (GST_BC_SIMD_NONE),
      GST_BC_SIMD_NONE);
  ref = test_encode (format, quality, src, layout, width, height, &info);
  for (level = GST_BC_SIMD_SSE2; level <= best; level++) {
    guint8 *out;

    fail_unless_equals_int (gst_bc_encode_set_simd (level), level);
    out = test_encode (format, quality, src, layout, width, height, &info);
    fail_unless (memcmp (ref, out, info.size) == 0,
        "%s quality %u %s: SIMD level %d differs from portable C",
        gst_bc_format_to_string (format), quality, what, level);
    g_free (out);
  }
  gst_bc_encode_set_simd (GST_BC_SIMD_AVX512);
  g_free (ref);
}

/* The library's decoding of the frame @data of @info, packed RGBA */
static inline guint8 *
test_decode (const GstBcInfo * info, const guint8 * data)
{
  guint8 *out = g_malloc ((gsize) info->width * info->height * 4);

  gst_bc_decode_rows (info->format, data, info->width, info->height, 0,
      info->blocks_y, out, (gsize) info->width * 4, &test_rgba_layout);
  return out;
}

/* The squared error of channels [@c0, @c0 + @nc) of @n pixels of the RGBA
 * picture @dec against @ref, whose pixels are @ref_bpp bytes apart (1: a
 * GRAY8 picture, its value for every channel) */
static inline gdouble
test_sse (const guint8 * dec, const guint8 * ref, guint ref_bpp, gsize n,
    guint c0, guint nc)
{
  gdouble s = 0;
  gsize i;
  guint c;

  for (i = 0; i < n; i++)
    for (c = c0; c < c0 + nc; c++) {
      gdouble d = (gdouble) dec[i * 4 + c] - ref[i * ref_bpp +
          (ref_bpp == 1 ? 0 : c)];

      s += d * d;
    }
  return s;
}

/* The PSNR of a squared error @sse over @n_values values; 99 dB for none */
static inline gdouble
test_psnr (gdouble sse, gsize n_values)
{
  return sse == 0 ? 99.0 : 10.0 * log10 (255.0 * 255.0 * n_values / sse);
}

/* The PSNR over R, G and B of two RGBA pictures of @n pixels */
static inline gdouble
test_psnr_rgb (const guint8 * a, const guint8 * b, gsize n)
{
  return test_psnr (test_sse (a, b, 4, n, 0, 3), 3 * n);
}

/* ---------------------------------------------------------------------- */
/* pipelines                                                               */

/* Reads up to @len bytes from socket @fd, each wait at most @timeout_ms:
 * what came before a silence or the end of the connection. */
static inline gssize
test_read_some (gint fd, guint8 * buf, gsize len, gint timeout_ms)
{
  gsize have = 0;

  while (have < len) {
    struct pollfd p = { fd, POLLIN, 0 };
    gssize n;

    if (poll (&p, 1, timeout_ms) <= 0)
      break;
    n = recv (fd, buf + have, len - have, 0);
    if (n <= 0)
      break;
    have += n;
  }
  return have;
}

static inline GstElement *
launch (const gchar * desc)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);

  fail_unless (p != NULL && err == NULL, "cannot parse '%s': %s", desc,
      err ? err->message : "?");
  return p;
}

static inline GstElement *
get (GstElement * pipeline, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);

  fail_unless (e != NULL, "no element %s", name);
  return e;
}

/* Fails on any ERROR or WARNING message posted so far. */
static inline void
check_bus (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus,
              GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    GError *err = NULL;
    gchar *dbg = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, &dbg);
    else
      gst_message_parse_warning (msg, &err, &dbg);
    fail ("%s from %s: %s (%s)", GST_MESSAGE_TYPE_NAME (msg),
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message, dbg ? dbg : "");
  }
  gst_object_unref (bus);
}

/* Waits up to PULL_TIMEOUT for an ERROR message on @bus and checks it: its
 * error is @code of @domain (any error when @domain is 0) and its debug
 * text has each of the strings that follow, up to NULL. Returns the
 * message. */
static inline GstMessage *
check_error_message (GstBus * bus, GQuark domain, gint code, ...)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, PULL_TIMEOUT,
      GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *dbg = NULL;
  const gchar *needle;
  va_list args;

  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &err, &dbg);
  GST_INFO ("error: %s (%s)", err->message, GST_STR_NULL (dbg));
  fail_unless (domain == 0 || g_error_matches (err, domain, code),
      "unexpected error %s", err->message);
  fail_unless (dbg != NULL, "no debug text with %s", err->message);
  va_start (args, code);
  needle = va_arg (args, const gchar *);
  while (needle != NULL) {
    fail_unless (strstr (dbg, needle) != NULL, "debug text '%s' lacks '%s'",
        dbg, needle);
    needle = va_arg (args, const gchar *);
  }
  va_end (args);
  g_error_free (err);
  g_free (dbg);
  return msg;
}

static inline void test_report_hang (GstElement * element);

static inline void
wait_eos (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, PULL_TIMEOUT,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

  if (msg == NULL)
    test_report_hang (pipeline);
  fail_unless (msg != NULL, "no EOS");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    fail ("error instead of EOS: %s (%s)", err->message, dbg ? dbg : "");
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
}

/* Sets @pipeline PLAYING; fails if it cannot start */
static inline void
play (GstElement * pipeline)
{
  fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
}

static inline void
stop (GstElement * pipeline)
{
  check_bus (pipeline);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
}

/* A pipeline and its elements "src", "sink" and one more */
typedef struct
{
  GstElement *pipeline, *src, *element, *sink;
} TestPipe;

/* Parses @desc and finds its elements "src", @name and "sink" */
static inline void
test_pipe_launch (TestPipe * t, const gchar * desc, const gchar * name)
{
  t->pipeline = launch (desc);
  t->src = get (t->pipeline, "src");
  t->element = get (t->pipeline, name);
  t->sink = get (t->pipeline, "sink");
}

static inline void
test_pipe_play (TestPipe * t)
{
  play (t->pipeline);
}

static inline void
test_pipe_stop (TestPipe * t)
{
  gst_object_unref (t->src);
  gst_object_unref (t->element);
  gst_object_unref (t->sink);
  stop (t->pipeline);
}

/* One line per thread of gdb's "thread apply all bt": its name and the
 * functions of its innermost frames, innermost first */
static inline void
test_print_stacks (const gchar * gdb_out)
{
  gchar **lines = g_strsplit (gdb_out, "\n", -1), **l;
  GString *thread = NULL;
  guint frames = 0;

  for (l = lines; *l; l++) {
    const gchar *t = *l, *name, *in;

    if (g_str_has_prefix (t, "Thread ")) {
      if (thread)
        g_printerr ("hang: %s\n", thread->str);
      name = strchr (t, '"');
      thread = g_string_new (NULL);
      g_string_append_len (thread, t, strcspn (t, " (") + 1);
      g_string_append_len (thread, t + 7, strcspn (t + 7, " "));
      if (name)
        g_string_append_printf (thread, " %.*s:", (gint) strcspn (name + 1,
                "\""), name + 1);
      frames = 0;
    } else if (thread && t[0] == '#' && frames++ < 16) {
      const gchar *lib = strrchr (t, '/');
      gsize len;

      in = strstr (t, " in ");
      t = in ? in + 4 : t + strcspn (t, " ") + strspn (t + strcspn (t, " "),
          " ");
      len = strcspn (t, " (");
      /* no symbol: the library */
      if (len == 0 && lib)
        t = lib + 1, len = strcspn (lib + 1, " ");
      g_string_append_printf (thread, " %s%.*s", frames > 1 ? "< " : "",
          (gint) len, t);
    }
  }
  if (thread) {
    g_printerr ("hang: %s\n", thread->str);
    g_string_free (thread, TRUE);
  }
  g_strfreev (lines);
}

/* A log function that shows warnings and errors only */
static inline void
test_log_warnings (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  if (level <= GST_LEVEL_WARNING)
    gst_debug_log_default (category, level, file, function, line, object,
        message, NULL);
}

/* Keeps the state changes, the sinks' prerolls and the encoders' frames of
 * every thread in memory (GStreamer's ring buffer logger), for
 * test_report_hang () to print. For tests that chase a rare hang; only
 * when GST_DEBUG is not set. */
static gboolean test_ring_log = FALSE;

static inline void
test_trace_states (void)
{
  if (g_getenv ("GST_DEBUG"))
    return;
  if (gst_debug_remove_log_function (gst_debug_log_default) > 0)
    gst_debug_add_log_function (test_log_warnings, NULL, NULL);
  gst_debug_add_ring_buffer_logger (32 * 1024, 600);
  gst_debug_set_threshold_from_string ("GST_STATES:5,bin:5,basesink:5,"
      "appsink:5,videoencoder:5,bcenc*:5,GST_EVENT:4", FALSE);
  test_ring_log = TRUE;
}

/* Before a test fails because @element's pipeline stopped moving: says on
 * stderr the last lines logged by every thread (after test_trace_states ()),
 * where gdb is installed the innermost functions of every thread of this
 * process, then the pipeline's errors, warnings and EOS (taken off its bus:
 * the test fails next) and its elements' states, so that a rare hang leaves
 * a trace in the last lines of the test log. */
static inline void
test_report_hang (GstElement * element)
{
  GstObject *top = gst_object_ref (GST_OBJECT (element)), *parent;
  gchar *gdb = g_find_program_in_path ("gdb");

  if (test_ring_log) {
    gchar **logs = gst_debug_ring_buffer_logger_get_logs (), **t;

    for (t = logs; t && *t; t++) {
      gchar **lines = g_strsplit (*t, "\n", -1);
      guint n = g_strv_length (lines), k;

      g_printerr ("hang: --- a thread's last log lines\n");
      for (k = n > 7 ? n - 7 : 0; k < n; k++)
        if (lines[k][0])
          g_printerr ("hang: %.220s\n", lines[k]);
      g_strfreev (lines);
    }
    g_strfreev (logs);
  }
  if (gdb) {
    gchar *pid = g_strdup_printf ("%d", (gint) getpid ());
    gchar *argv[] = { gdb, (gchar *) "-batch", (gchar *) "-nx",
      (gchar *) "-p", pid, (gchar *) "-ex", (gchar *) "thread apply all bt",
      NULL
    };
    gchar *out = NULL;

#ifdef PR_SET_PTRACER
    prctl (PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#endif
    if (g_spawn_sync (NULL, argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
            NULL, &out, NULL, NULL, NULL) && out)
      test_print_stacks (out);
    g_free (out);
    g_free (pid);
    g_free (gdb);
  }

  while ((parent = gst_object_get_parent (top))) {
    gst_object_unref (top);
    top = parent;
  }
  if (GST_IS_BIN (top)) {
    GstBus *bus = gst_element_get_bus (GST_ELEMENT (top));
    GstIterator *it = gst_bin_iterate_recurse (GST_BIN (top));
    GValue v = G_VALUE_INIT;
    GstMessage *msg;
    GstState cur, pending;

    gst_element_get_state (GST_ELEMENT (top), &cur, &pending, 0);
    g_printerr ("hang: %s is %s (pending %s)\n", GST_OBJECT_NAME (top),
        gst_element_state_get_name (cur), gst_element_state_get_name (pending));
    while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR |
                GST_MESSAGE_WARNING | GST_MESSAGE_EOS))) {
      GError *err = NULL;
      gchar *dbg = NULL;

      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
        gst_message_parse_error (msg, &err, &dbg);
      else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
        gst_message_parse_warning (msg, &err, &dbg);
      g_printerr ("hang: %s from %s: %s (%s)\n", GST_MESSAGE_TYPE_NAME (msg),
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err ? err->message : "",
          dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
      gst_message_unref (msg);
    }
    while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
      GstElement *e = g_value_get_object (&v);

      gst_element_get_state (e, &cur, &pending, 0);
      g_printerr ("hang: %s is %s (pending %s)\n", GST_OBJECT_NAME (e),
          gst_element_state_get_name (cur),
          gst_element_state_get_name (pending));
      g_value_reset (&v);
    }
    g_value_unset (&v);
    gst_iterator_free (it);
    gst_object_unref (bus);
  }
  gst_object_unref (top);
}

/* The next sample of the appsink @appsink (its action signal: no
 * gstreamer-app library needed); fails after PULL_TIMEOUT, or at once when
 * the pipeline posts an error (the sample would never come) */
static inline GstSample *
pull_sample (GstElement * appsink)
{
  GstElement *top = GST_ELEMENT (gst_object_get_parent (GST_OBJECT (appsink)));
  GstBus *bus = top ? gst_element_get_bus (top) : NULL;
  gint64 end = g_get_monotonic_time () + PULL_TIMEOUT / GST_USECOND;
  GstSample *s = NULL;
  GstMessage *msg = NULL;

  while (s == NULL && msg == NULL && g_get_monotonic_time () < end) {
    g_signal_emit_by_name (appsink, "try-pull-sample", (GstClockTime)
        (100 * GST_MSECOND), &s);
    if (s == NULL && bus)
      msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  }
  if (msg) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    fail ("no sample from %s: error from %s: %s (%s)",
        GST_OBJECT_NAME (appsink), GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
        err->message, GST_STR_NULL (dbg));
  }
  if (s == NULL)
    test_report_hang (appsink);
  fail_unless (s != NULL, "no sample from %s within %" GST_TIME_FORMAT,
      GST_OBJECT_NAME (appsink), GST_TIME_ARGS (PULL_TIMEOUT));
  if (bus)
    gst_object_unref (bus);
  if (top)
    gst_object_unref (top);
  return s;
}

/* The RGBA frame of @s (@width x @height), its rows packed */
static inline guint8 *
test_sample_rgba (GstSample * s, guint width, guint height)
{
  GstVideoInfo vinfo;
  GstVideoFrame frame;
  guint8 *out = g_malloc ((gsize) width * height * 4);
  guint y;

  fail_unless (gst_video_info_from_caps (&vinfo, gst_sample_get_caps (s)));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&vinfo),
      GST_VIDEO_FORMAT_RGBA);
  fail_unless (gst_video_frame_map (&frame, &vinfo, gst_sample_get_buffer (s),
          GST_MAP_READ));
  for (y = 0; y < height; y++)
    memcpy (out + (gsize) y * width * 4,
        (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), width * 4);
  gst_video_frame_unmap (&frame);
  return out;
}

/* Runs this test binary again as "--child ARG" (see test_child_main ())
 * with the environment variables of @env_extra (name, value, ..., NULL)
 * added, fails unless it exits with 0, and returns what it printed (not
 * inlined: GCC 12 at -O3 then takes pointers into the returned string
 * for pointers to this function's local, -Wdangling-pointer) */
G_GNUC_UNUSED G_GNUC_NO_INLINE static gchar *
run_child (const gchar * arg, const gchar * const *env_extra)
{
  gchar *argv[] = { (gchar *) "/proc/self/exe", (gchar *) "--child",
    (gchar *) arg, NULL
  };
  gchar **env = g_get_environ ();
  gchar *out = NULL, *err_out = NULL;
  GError *error = NULL;
  gint status = 0;
  guint i;

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

/* In main (): run by run_child () as "--child ARG", this binary is the
 * child; it runs @child_main (ARG) and exits with what that returns */
static inline void
test_child_main (int argc, char **argv, int (*child_main) (const gchar * arg))
{
  if (argc == 3 && strcmp (argv[1], "--child") == 0)
    exit (child_main (argv[2]));
}

/* ---------------------------------------------------------------------- */
/* statistics                                                              */

/* The GstStructure of the statistics property @property of @element (free
 * it) */
static inline GstStructure *
test_get_stats (GstElement * element, const gchar * property)
{
  GstStructure *s = NULL;

  g_object_get (element, property, &s, NULL);
  fail_unless (s != NULL, "no %s from %s", property, GST_OBJECT_NAME (element));
  return s;
}

/* Reads @field, of @type, of @element's statistics @property into
 * @value */
static inline void
test_get_stat (GstElement * element, const gchar * property,
    const gchar * field, GType type, gpointer value)
{
  GstStructure *s = test_get_stats (element, property);

  fail_unless (gst_structure_get (s, field, type, value, NULL), "no %s %s "
      "in %" GST_PTR_FORMAT, g_type_name (type), field, s);
  gst_structure_free (s);
}

/* The guint64 @field of @element's statistics @property (most are) */
static inline guint64
test_stat_u64 (GstElement * element, const gchar * property,
    const gchar * field)
{
  guint64 v = 0;

  test_get_stat (element, property, field, G_TYPE_UINT64, &v);
  return v;
}

/* Frame @seed of the tile tests: pseudo-random bytes of its own */
static inline void
test_fill_frame (guint8 * data, gsize size, guint seed)
{
  guint32 x = seed * 2654435761u + 12345;
  gsize i;

  for (i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    data[i] = x >> 24;
  }
}

/* Whether this host can send to a multicast group (it has a route for
 * one); when not, @test says it is skipped. */
static inline gboolean
test_have_multicast_route (const gchar * test)
{
  struct sockaddr_in sa = { 0 };
  gint fd = socket (AF_INET, SOCK_DGRAM, 0);
  gboolean ok;

  sa.sin_family = AF_INET;
  sa.sin_port = htons (9);
  inet_pton (AF_INET, "239.255.77.1", &sa.sin_addr);
  ok = fd >= 0 && sendto (fd, "x", 1, 0, (struct sockaddr *) &sa,
      sizeof (sa)) == 1;
  if (fd >= 0)
    close (fd);
  if (!ok)
    g_print ("%s: this host has no route for multicast; skipped\n", test);
  return ok;
}

/* The guint @field of tilesink's or tilesrc's statistics */
static inline guint
test_tile_stat_uint (GstElement * element, const gchar * field)
{
  guint v = 0;

  test_get_stat (element, "stats", field,
      G_TYPE_UINT, &v);
  return v;
}

/* Waits up to 10 s for the guint64 @field of tilesink's or tilesrc's
 * statistics to be @value */
static inline void
test_tile_wait_u64 (GstElement * element, const gchar * field, guint64 value)
{
  const gchar *property = "stats";
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (test_stat_u64 (element, property, field) != value &&
      g_get_monotonic_time () < end)
    g_usleep (1000);
  fail_unless_equals_uint64 (test_stat_u64 (element, property, field), value);
}

/* Waits up to 10 s for @tilesink to have a receiver */
static inline void
test_wait_connected (GstElement * tilesink)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < end) {
    GstStructure *s = test_get_stats (tilesink,
        "stats");
    gboolean connected = FALSE;

    gst_structure_get_boolean (s, "connected", &connected);
    gst_structure_free (s);
    if (connected)
      return;
    g_usleep (5000);
  }
  fail ("the receiver did not connect within 10 s");
}

/* ---------------------------------------------------------------------- */
/* logging, documentation                                                  */


/* The GL elements check glGetError () when their debug category is at
 * DEBUG: raises @category to it and, unless GST_DEBUG is set, keeps the log
 * quiet (warnings and errors only). */
static inline void
test_debug_gl_errors (const gchar * category)
{
  if (!g_getenv ("GST_DEBUG")) {
    gst_debug_remove_log_function (gst_debug_log_default);
    gst_debug_add_log_function (test_log_warnings, NULL, NULL);
  }
  gst_debug_set_threshold_for_name (category, GST_LEVEL_DEBUG);
}


#endif /* __GST_BC_TEST_H__ */
