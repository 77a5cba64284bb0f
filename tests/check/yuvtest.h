/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* YUV test pictures for the YUV input tests (libs/bcyuv.c,
 * elements/bcenc.c): samples, their packing into every format of
 * GST_BC_YUV_FORMATS (from a description written here, not from the
 * library), and an independent double-precision conversion to RGB. */

#ifndef __GST_BC_YUV_TEST_H__
#define __GST_BC_YUV_TEST_H__

#include <gst/video/video.h>
#include <math.h>
#include <string.h>

static const GstVideoFormat test_yuv_formats[] = {
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YUY2,
  GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_v210,
};

/* A picture's samples: 8-bit or 10-bit values, chroma at its resolution */
typedef struct
{
  GstVideoFormat format;
  guint width, height, cw, ch, depth;
  guint16 *y, *u, *v;
} TestYuv;

static inline gboolean
test_yuv_is_420 (GstVideoFormat f)
{
  return f == GST_VIDEO_FORMAT_NV12 || f == GST_VIDEO_FORMAT_I420 ||
      f == GST_VIDEO_FORMAT_P010_10LE;
}

static inline guint
test_yuv_depth (GstVideoFormat f)
{
  return f == GST_VIDEO_FORMAT_P010_10LE || f == GST_VIDEO_FORMAT_v210 ?
      10 : 8;
}

/* Samples: @noise 0 gives random values over the whole code range (every
 * clamp is exercised); otherwise the YUV (limited range, BT.601) of
 * @rgba, a @width x @height RGBA picture, downsampled by averaging */
static inline TestYuv *
test_yuv_new (GstVideoFormat format, guint width, guint height,
    const guint8 * rgba, guint32 seed)
{
  TestYuv *t = g_new0 (TestYuv, 1);
  guint32 state = seed * 2654435761u + 1;
  guint max, x, y;

  t->format = format;
  t->width = width;
  t->height = height;
  t->cw = (width + 1) / 2;
  t->ch = test_yuv_is_420 (format) ? (height + 1) / 2 : height;
  t->depth = test_yuv_depth (format);
  max = (1u << t->depth) - 1;
  t->y = g_new (guint16, (gsize) width * height);
  t->u = g_new (guint16, (gsize) t->cw * t->ch);
  t->v = g_new (guint16, (gsize) t->cw * t->ch);
  if (rgba == NULL) {
    for (x = 0; x < width * height; x++) {
      state = state * 1664525u + 1013904223u;
      t->y[x] = (state >> 8) % (max + 1);
    }
    for (x = 0; x < t->cw * t->ch; x++) {
      state = state * 1664525u + 1013904223u;
      t->u[x] = (state >> 8) % (max + 1);
      state = state * 1664525u + 1013904223u;
      t->v[x] = (state >> 8) % (max + 1);
    }
    return t;
  }
  {
    const gdouble s = (gdouble) (1 << (t->depth - 8));
    guint ry = test_yuv_is_420 (format) ? 2 : 1;

    for (y = 0; y < height; y++) {
      for (x = 0; x < width; x++) {
        const guint8 *p = rgba + ((gsize) y * width + x) * 4;
        gdouble l = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];

        t->y[y * width + x] = (guint16) lround ((16.0 + l * 219.0 / 255.0) *
            s);
      }
    }
    for (y = 0; y < t->ch; y++) {
      for (x = 0; x < t->cw; x++) {
        gdouble cb = 0, cr = 0;
        guint n = 0, dx, dy;

        for (dy = 0; dy < ry; dy++) {
          for (dx = 0; dx < 2; dx++) {
            guint sx = MIN (2 * x + dx, width - 1);
            guint sy = MIN (ry * y + dy, height - 1);
            const guint8 *p = rgba + ((gsize) sy * width + sx) * 4;
            gdouble l = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];

            cb += (p[2] - l) / 1.772;
            cr += (p[0] - l) / 1.402;
            n++;
          }
        }
        t->u[y * t->cw + x] = (guint16) lround ((128.0 + cb / n * 224.0 /
                255.0) * s);
        t->v[y * t->cw + x] = (guint16) lround ((128.0 + cr / n * 224.0 /
                255.0) * s);
      }
    }
  }
  return t;
}

static inline void
test_yuv_free (TestYuv * t)
{
  g_free (t->y);
  g_free (t->u);
  g_free (t->v);
  g_free (t);
}

static inline void
test_put16 (guint8 * p, guint v)
{
  p[0] = v & 0xff;
  p[1] = v >> 8;
}

static inline void
test_put32 (guint8 * p, guint32 v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = v >> 24;
}

/* The bytes of a row of @plane the packer writes */
static inline gsize
test_yuv_row_bytes (const TestYuv * t, guint plane)
{
  switch (t->format) {
    case GST_VIDEO_FORMAT_I420:
      return plane == 0 ? t->width : t->cw;
    case GST_VIDEO_FORMAT_NV12:
      return plane == 0 ? t->width : 2 * t->cw;
    case GST_VIDEO_FORMAT_P010_10LE:
      return plane == 0 ? 2 * t->width : 4 * t->cw;
    case GST_VIDEO_FORMAT_v210:
      return (t->width + 5) / 6 * 16;
    default:
      return 4 * t->cw;
  }
}

static inline guint
test_yuv_n_planes (const TestYuv * t)
{
  return t->format == GST_VIDEO_FORMAT_I420 ? 3 :
      (t->format == GST_VIDEO_FORMAT_NV12 ||
      t->format == GST_VIDEO_FORMAT_P010_10LE ? 2 : 1);
}

static inline guint
test_yuv_plane_rows (const TestYuv * t, guint plane)
{
  return plane == 0 ? t->height : t->ch;
}

/* Writes @t into planes of the given strides; bytes a row has beyond its
 * samples (YUY2's luma of the missing last pixel, v210's unused samples
 * and padding) are garbage, 0xa5 */
static inline void
test_yuv_pack (const TestYuv * t, guint8 * const planes[3],
    const gsize strides[3])
{
  guint p, x, y;

  for (p = 0; p < test_yuv_n_planes (t); p++)
    for (y = 0; y < test_yuv_plane_rows (t, p); y++)
      memset (planes[p] + y * strides[p], 0xa5, strides[p]);

  for (y = 0; y < t->height; y++) {
    guint8 *r0 = planes[0] + y * strides[0];
    const guint16 *ly = t->y + (gsize) y * t->width;
    guint cy = test_yuv_is_420 (t->format) ? y / 2 : y;
    const guint16 *lu = t->u + (gsize) cy * t->cw;
    const guint16 *lv = t->v + (gsize) cy * t->cw;

    switch (t->format) {
      case GST_VIDEO_FORMAT_I420:
      case GST_VIDEO_FORMAT_NV12:
        for (x = 0; x < t->width; x++)
          r0[x] = ly[x];
        break;
      case GST_VIDEO_FORMAT_P010_10LE:
        for (x = 0; x < t->width; x++)
          test_put16 (r0 + 2 * x, (ly[x] << 6) | 0x15);
        break;
      case GST_VIDEO_FORMAT_YUY2:
      case GST_VIDEO_FORMAT_UYVY:{
        gboolean yuy2 = t->format == GST_VIDEO_FORMAT_YUY2;

        for (x = 0; x < t->cw; x++) {
          guint8 *m = r0 + 4 * x;

          m[yuy2 ? 0 : 1] = ly[2 * x];
          if (2 * x + 1 < t->width)
            m[yuy2 ? 2 : 3] = ly[2 * x + 1];
          m[yuy2 ? 1 : 0] = lu[x];
          m[yuy2 ? 3 : 2] = lv[x];
        }
        break;
      }
      case GST_VIDEO_FORMAT_v210:
        for (x = 0; x < (t->width + 5) / 6; x++) {
          guint32 s[12], i;

          /* Cb0 Y0 Cr0 Y1 Cb1 Y2 Cr1 Y3 Cb2 Y4 Cr2 Y5; missing: 0x2a5 */
          for (i = 0; i < 6; i++)
            s[2 * i + 1] = 6 * x + i < t->width ? ly[6 * x + i] : 0x2a5;
          for (i = 0; i < 3; i++) {
            gboolean in = 3 * x + i < t->cw;

            s[4 * i % 12] = in ? lu[3 * x + i] : 0x2a5;
            s[(4 * i + 2) % 12] = in ? lv[3 * x + i] : 0x2a5;
          }
          for (i = 0; i < 4; i++)
            test_put32 (r0 + 16 * x + 4 * i, s[3 * i] | (s[3 * i + 1] << 10) |
                (s[3 * i + 2] << 20) | (2u << 30));
        }
        break;
      default:
        g_assert_not_reached ();
    }
  }
  if (test_yuv_n_planes (t) == 1)
    return;
  for (y = 0; y < t->ch; y++) {
    const guint16 *lu = t->u + (gsize) y * t->cw;
    const guint16 *lv = t->v + (gsize) y * t->cw;
    guint8 *r1 = planes[1] + y * strides[1];

    for (x = 0; x < t->cw; x++) {
      switch (t->format) {
        case GST_VIDEO_FORMAT_I420:
          r1[x] = lu[x];
          planes[2][y * strides[2] + x] = lv[x];
          break;
        case GST_VIDEO_FORMAT_NV12:
          r1[2 * x] = lu[x];
          r1[2 * x + 1] = lv[x];
          break;
        default:
          test_put16 (r1 + 4 * x, lu[x] << 6);
          test_put16 (r1 + 4 * x + 2, lv[x] << 6);
          break;
      }
    }
  }
}

/* Planes allocated one by one, exactly as large as their rows need: the
 * last row ends at the last byte the format has (under ASan, a read past
 * it is caught). @pad bytes between rows; @align128: v210 rows at
 * GStreamer's 128-byte stride instead. */
typedef struct
{
  guint8 *planes[3];
  gsize strides[3];
} TestYuvFrame;

static inline void
test_yuv_frame_init (TestYuvFrame * f, const TestYuv * t, gsize pad,
    gboolean align128)
{
  guint p;

  memset (f, 0, sizeof (*f));
  for (p = 0; p < test_yuv_n_planes (t); p++) {
    gsize row = test_yuv_row_bytes (t, p);
    gsize rows = test_yuv_plane_rows (t, p);

    f->strides[p] = align128 ? (t->width + 47) / 48 * 128 : row + pad;
    f->planes[p] = g_malloc (f->strides[p] * (rows - 1) + row);
  }
  /* the pack fills whole strides: pack into a copy and take the rows */
  {
    guint8 *tmp[3] = { NULL, NULL, NULL };

    for (p = 0; p < test_yuv_n_planes (t); p++)
      tmp[p] = g_malloc (f->strides[p] * test_yuv_plane_rows (t, p));
    test_yuv_pack (t, tmp, f->strides);
    for (p = 0; p < test_yuv_n_planes (t); p++) {
      memcpy (f->planes[p], tmp[p], f->strides[p] *
          (test_yuv_plane_rows (t, p) - 1) + test_yuv_row_bytes (t, p));
      g_free (tmp[p]);
    }
  }
}

static inline void
test_yuv_frame_clear (TestYuvFrame * f)
{
  guint p;

  for (p = 0; p < 3; p++)
    g_free (f->planes[p]);
}

/* Kr, Kb of the matrices the tests use */
static inline void
test_yuv_kr_kb (GstVideoColorMatrix m, gdouble * kr, gdouble * kb)
{
  switch (m) {
    case GST_VIDEO_COLOR_MATRIX_BT709:
      *kr = 0.2126;
      *kb = 0.0722;
      break;
    case GST_VIDEO_COLOR_MATRIX_BT2020:
      *kr = 0.2627;
      *kb = 0.0593;
      break;
    default:
      *kr = 0.299;
      *kb = 0.114;
      break;
  }
}

/* Bilinear interpolation of a chroma row or column: sample i sits at
 * luma position 2 i (cosited) or 2 i + 0.5 (centred); positions beyond
 * the ends take the end samples */
static inline void
test_yuv_weights (guint pos, gboolean cosited, guint n, guint * i0,
    guint * i1, gdouble * f)
{
  gdouble t = cosited ? pos / 2.0 : (pos - 0.5) / 2.0;
  gdouble fl = floor (t);
  gint a = (gint) fl, b = a + 1;

  *f = t - fl;
  *i0 = CLAMP (a, 0, (gint) n - 1);
  *i1 = CLAMP (b, 0, (gint) n - 1);
}

/* The exact RGB of pixel (@x, @y), 0..255 unclamped, in @rgb */
static inline void
test_yuv_reference_pixel (const TestYuv * t, GstVideoColorMatrix matrix,
    gboolean full, gboolean h_cosited, gboolean v_cosited, guint x, guint y,
    gdouble rgb[3])
{
  const gdouble s = (gdouble) (1 << (t->depth - 8));
  gdouble kr, kb, yo, ys, co, cs, yy, cb = 0, cr = 0, fx, fy;
  guint x0, x1, y0 = 0, y1 = 0, j;

  test_yuv_kr_kb (matrix, &kr, &kb);
  yo = full ? 0 : 16 * s;
  ys = full ? (1 << t->depth) - 1 : 219 * s;
  co = 128 * s;
  cs = full ? (1 << t->depth) - 1 : 224 * s;

  test_yuv_weights (x, h_cosited, t->cw, &x0, &x1, &fx);
  if (test_yuv_is_420 (t->format)) {
    test_yuv_weights (y, v_cosited, t->ch, &y0, &y1, &fy);
  } else {
    y0 = y1 = y;
    fy = 0;
  }
  for (j = 0; j < 2; j++) {
    const guint16 *c = j == 0 ? t->u : t->v;
    gdouble v = (1 - fy) * ((1 - fx) * c[y0 * t->cw + x0] +
        fx * c[y0 * t->cw + x1]) + fy * ((1 - fx) * c[y1 * t->cw + x0] +
        fx * c[y1 * t->cw + x1]);

    if (j == 0)
      cb = (v - co) / cs;
    else
      cr = (v - co) / cs;
  }
  yy = (t->y[(gsize) y * t->width + x] - yo) / ys;
  rgb[0] = 255.0 * (yy + 2 * (1 - kr) * cr);
  rgb[2] = 255.0 * (yy + 2 * (1 - kb) * cb);
  rgb[1] = (255.0 * yy - kr * rgb[0] - kb * rgb[2]) / (1 - kr - kb);
}

/* The reference RGBA picture: the exact values rounded and clamped */
static inline guint8 *
test_yuv_reference (const TestYuv * t, GstVideoColorMatrix matrix,
    gboolean full, gboolean h_cosited, gboolean v_cosited)
{
  guint8 *out = g_malloc ((gsize) t->width * t->height * 4);
  guint x, y, c;

  for (y = 0; y < t->height; y++) {
    for (x = 0; x < t->width; x++) {
      gdouble rgb[3];
      guint8 *p = out + ((gsize) y * t->width + x) * 4;

      test_yuv_reference_pixel (t, matrix, full, h_cosited, v_cosited, x, y,
          rgb);
      for (c = 0; c < 3; c++)
        p[c] = (guint8) CLAMP (lround (rgb[c]), 0, 255);
      p[3] = 255;
    }
  }
  return out;
}

#endif /* __GST_BC_YUV_TEST_H__ */
