/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* glbcupload on a headless GL context (Mesa llvmpipe through
 * GST_GL_PLATFORM=egl GST_GL_WINDOW=egl-device): the GPU's decoding of every
 * format against bcdec, the zero-copy pool, stepped upload behind tilesrc
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

/* @enc ! tee ! { glbcupload ! gldownload, bcdec }: the same frames through
 * both, compared. @enc is an encoder (raw RGBA frames from @pictures are
 * pushed) or NULL (the video/x-bc frames in @pictures are pushed). */
static void
compare_with_bcdec (const gchar * label, const gchar * enc, GstBcFormat format,
    guint width, guint height, guint8 ** pictures, guint n, gint tolerance)
{
  GstElement *p, *src, *gl, *ref, *up;
  GstBcInfo info;
  gchar *caps, *desc;
  Diff d = { 0, };
  guint i;

  gst_bc_info_init (&info);
  fail_unless (gst_bc_info_set_format (&info, format, width, height));
  caps = enc ? g_strdup_printf ("video/x-raw,format=RGBA,width=%u,height=%u,"
      "framerate=30/1", width, height) : bc_caps_string (format, width, height);
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
    gsize size = enc ? (gsize) width * height * 4 : info.size;

    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
            wrap_frame (pictures[i], size, i)), GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));

  for (i = 0; i < n; i++) {
    GstSample *a = pull_sample (gl), *b = pull_sample (ref);
    guint8 *want = test_sample_rgba (b, width, height);

    diff_sample (a, want, width, height, &d);
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

static void
check_tiles (gboolean stepped)
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

  caps = bc_caps_string (GST_BC_FORMAT_BC1, w, h);
  desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" ! "
      "tilesink name=sink address=127.0.0.1 port=0 units=%u stats-interval=0 "
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
      "stats-interval=0 ! glbcupload name=up stepped=%s ! gldownload "
      "! video/x-raw,format=RGBA ! appsink name=sink sync=false", port,
      stepped ? "true" : "false");
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
    guint8 *pic = test_picture (w, h, 50 + i, 6, TEST_ALPHA_OPAQUE);

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
          test_tile_stats_property (tilesrc), "tiles-stepped"), n * units);
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
  check_tiles (TRUE);
}

GST_END_TEST;

GST_START_TEST (test_tilesrc_whole_frames)
{
  check_tiles (FALSE);
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

/* The same on OpenGL ES 3 (GLSL ES 3.00, GL_EXT_buffer_storage), in a
 * child whose GL context is made with GST_GL_API=gles2. */
GST_START_TEST (test_gles)
{
  static const gchar *const env[] = { "GST_GL_API", "gles2", NULL };
  static const gchar *formats[] = { "BC1", "BC3", "YCoCg-BC3", "BC4", "BC5",
    "BC7"
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
  tcase_add_test (tc, test_zero_copy);
  tcase_add_test (tc, test_slot_reuse);
  tcase_add_test (tc, test_caps_change);
  tcase_add_test (tc, test_wrong_size);
  tcase_add_test (tc, test_tilesrc_stepped);
  tcase_add_test (tc, test_tilesrc_whole_frames);
  tcase_add_test (tc, test_missing_buffer_storage);
  tcase_add_test (tc, test_missing_s3tc);
  tcase_add_test (tc, test_gles);
  return s;
}

int
main (int argc, char **argv)
{
  gl_test_init (argc, argv);
  test_child_main (argc, argv, child_run);

  if (!gl_test_check_init (&argc, &argv, NULL))
    return 77;

  test_debug_gl_errors ("glbcupload");
  gst_element_register (NULL, "bctestsrc", GST_RANK_NONE, test_src_get_type ());

  return gst_check_run_suite (glbcupload_suite (), "glbcupload", __FILE__);
}
