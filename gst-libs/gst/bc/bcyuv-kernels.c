/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* YUV to RGB of one picture row strip (bcyuv.c has the definitions), in
 * exact integer arithmetic, built once per instruction set like the block
 * kernels: every build gives the same bytes.
 *
 *  1. The chroma columns the strip needs (one left of its first pixel's,
 *     one right of its last's, clamped to the picture) are read from the
 *     one or two chroma rows of the picture row and weighted vertically:
 *     4:2:0 centred chroma (chroma row j halfway between luma rows 2j and
 *     2j + 1) gives luma row 2j 3/4 of row j and 1/4 of row j - 1, row
 *     2j + 1 3/4 of row j and 1/4 of row j + 1; cosited (row j on luma row
 *     2j) gives row 2j all of row j, row 2j + 1 half of rows j and j + 1;
 *     4:2:2 rows their own chroma. Rows and columns past the picture's
 *     edge repeat its last one.
 *  2. The same weights horizontally: each pixel's chroma in 1/16 of a code.
 *  3. R = ky (Y - y0) + krv V, G = ky (Y - y0) - kgu U - kgv V,
 *     B = ky (Y - y0) + kbu U, with U and V the 1/16 chroma minus 16 times
 *     the chroma offset and every coefficient in 2^-BC_YUV_SHIFT output
 *     codes, rounded to the nearest code and clamped to 0..255.
 *
 * Sums stay below 2^30 for every matrix and range: luma at most
 * 1.17 * 2^20 * 1023, chroma at most 0.14 * 2^20 * 2048 (8-bit) or
 * 0.034 * 2^20 * 8192 (10-bit). The loops are over contiguous arrays,
 * which the SIMD builds vectorise. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcencode-kernel.h"

#define CHUNK BC_YUV_CHUNK
/* the chroma columns of a strip of CHUNK pixels, with one each side */
#define CCOLS (CHUNK / 2 + 3)

static inline guint32
read32 (const guint8 * p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

/* v210: 16 bytes hold 6 pixels, three 10-bit samples in each
 * little-endian 32-bit word: Cb0 Y0 Cr0 | Y1 Cb1 Y2 | Cr1 Y3 Cb2 |
 * Y4 Cr2 Y5 (low bits first) */
static const guint8 v210_y_word[6] = { 0, 1, 1, 2, 3, 3 };
static const guint8 v210_y_shift[6] = { 10, 0, 20, 10, 0, 20 };
static const guint8 v210_cb_word[3] = { 0, 1, 2 };
static const guint8 v210_cb_shift[3] = { 0, 10, 20 };
static const guint8 v210_cr_word[3] = { 0, 2, 3 };
static const guint8 v210_cr_shift[3] = { 20, 0, 10 };

/* The chroma of columns @c0 .. @c0 + @m - 1 (inside the picture) of
 * chroma row @cy into @u and @v */
static void
fetch_chroma (const BcYuvParams * p, const guint8 * const planes[3],
    const gsize strides[3], guint cy, guint c0, guint m, gint32 * u,
    gint32 * v)
{
  const guint8 *s;
  guint i;

  switch (p->layout) {
    case BC_YUV_I420:{
      const guint8 *su = planes[1] + cy * strides[1] + c0;
      const guint8 *sv = planes[2] + cy * strides[2] + c0;

      for (i = 0; i < m; i++) {
        u[i] = su[i];
        v[i] = sv[i];
      }
      break;
    }
    case BC_YUV_NV12:
      s = planes[1] + cy * strides[1] + 2 * (gsize) c0;
      for (i = 0; i < m; i++) {
        u[i] = s[2 * i];
        v[i] = s[2 * i + 1];
      }
      break;
    case BC_YUV_P010:
      s = planes[1] + cy * strides[1] + 4 * (gsize) c0;
      for (i = 0; i < m; i++) {
        u[i] = (s[4 * i] | (s[4 * i + 1] << 8)) >> 6;
        v[i] = (s[4 * i + 2] | (s[4 * i + 3] << 8)) >> 6;
      }
      break;
    case BC_YUV_YUY2:
      s = planes[0] + cy * strides[0] + 4 * (gsize) c0;
      for (i = 0; i < m; i++) {
        u[i] = s[4 * i + 1];
        v[i] = s[4 * i + 3];
      }
      break;
    case BC_YUV_UYVY:
      s = planes[0] + cy * strides[0] + 4 * (gsize) c0;
      for (i = 0; i < m; i++) {
        u[i] = s[4 * i];
        v[i] = s[4 * i + 2];
      }
      break;
    case BC_YUV_V210:
      s = planes[0] + cy * strides[0];
      for (i = 0; i < m; i++) {
        guint c = c0 + i, g = c / 3, k = c % 3;
        const guint8 *w = s + 16 * (gsize) g;

        u[i] = (read32 (w + 4 * v210_cb_word[k]) >> v210_cb_shift[k]) & 0x3ff;
        v[i] = (read32 (w + 4 * v210_cr_word[k]) >> v210_cr_shift[k]) & 0x3ff;
      }
      break;
  }
}

/* The luma of pixels @x0 .. @x0 + @n - 1 of picture row @y */
static void
fetch_luma (const BcYuvParams * p, const guint8 * const planes[3],
    const gsize strides[3], guint y, guint x0, guint n, gint32 * out)
{
  const guint8 *s = planes[0] + y * strides[0];
  guint i;

  switch (p->layout) {
    case BC_YUV_I420:
    case BC_YUV_NV12:
      s += x0;
      for (i = 0; i < n; i++)
        out[i] = s[i];
      break;
    case BC_YUV_P010:
      s += 2 * (gsize) x0;
      for (i = 0; i < n; i++)
        out[i] = (s[2 * i] | (s[2 * i + 1] << 8)) >> 6;
      break;
    case BC_YUV_YUY2:
      s += 2 * (gsize) x0;
      for (i = 0; i < n; i++)
        out[i] = s[2 * i];
      break;
    case BC_YUV_UYVY:
      s += 2 * (gsize) x0;
      for (i = 0; i < n; i++)
        out[i] = s[2 * i + 1];
      break;
    case BC_YUV_V210:
      for (i = 0; i < n; i++) {
        guint x = x0 + i, r = x % 6;
        const guint8 *w = s + 16 * (gsize) (x / 6);

        out[i] = (read32 (w + 4 * v210_y_word[r]) >> v210_y_shift[r]) & 0x3ff;
      }
      break;
  }
}

/* The chroma columns x0 / 2 - 1 .. (x0 + n - 1) / 2 + 1 of chroma row
 * @cy, the columns outside the picture repeating its edge ones */
static void
fetch_chroma_cols (const BcYuvParams * p, const guint8 * const planes[3],
    const gsize strides[3], guint cy, guint x0, guint n, gint32 * u,
    gint32 * v)
{
  const gint cw = (gint) (p->width + 1) / 2;
  const gint jlo = (gint) x0 / 2 - 1, jhi = (gint) (x0 + n - 1) / 2 + 1;
  const gint clo = MAX (jlo, 0), chi = MIN (jhi, cw - 1);
  gint j;

  fetch_chroma (p, planes, strides, cy, clo, chi - clo + 1, u + (clo - jlo),
      v + (clo - jlo));
  for (j = jlo; j < clo; j++) {
    u[j - jlo] = u[clo - jlo];
    v[j - jlo] = v[clo - jlo];
  }
  for (j = chi + 1; j <= jhi; j++) {
    u[j - jlo] = u[chi - jlo];
    v[j - jlo] = v[chi - jlo];
  }
}

void
BC_KERNEL_NAME (bc_yuv_row) (const BcYuvParams * p,
    const guint8 * const planes[3], const gsize strides[3], guint y, guint x,
    guint n, guint8 * rgba)
{
  /* from the even pixel at or before @x */
  const guint odd = x & 1, x0 = x - odd;
  gint32 yv[CHUNK + 2], ub[CHUNK + 2], vb[CHUNK + 2];
  gint32 u0[CCOLS], v0[CCOLS], u1[CCOLS], v1[CCOLS];
  guint32 pix[CHUNK + 2];
  const gint32 ky = p->k[0], krv = p->k[1], kgu = p->k[2], kgv = p->k[3];
  const gint32 kbu = p->k[4], yoff = p->y_offset, coff = p->c_offset16;
  const gint32 half = 1 << (BC_YUV_SHIFT - 1);
  guint i, np, ncols;
  gint32 w0 = 4, w1 = 0;
  gint k;

  n += odd;
  np = (n + 1) / 2;
  ncols = (x0 + n - 1) / 2 + 3 - x0 / 2;

  /* 1. chroma rows, weighted vertically (in 1/4) */
  if (p->layout == BC_YUV_I420 || p->layout == BC_YUV_NV12 ||
      p->layout == BC_YUV_P010) {
    const guint ch = (p->height + 1) / 2, j = y / 2;
    guint j1;

    if (p->v_cosited) {
      j1 = MIN (j + 1, ch - 1);
      w0 = y % 2 ? 2 : 4;
    } else {
      j1 = y % 2 ? MIN (j + 1, ch - 1) : (j > 0 ? j - 1 : 0);
      w0 = 3;
    }
    w1 = 4 - w0;
    fetch_chroma_cols (p, planes, strides, j, x0, n, u0, v0);
    if (w1 > 0)
      fetch_chroma_cols (p, planes, strides, j1, x0, n, u1, v1);
  } else {
    fetch_chroma_cols (p, planes, strides, y, x0, n, u0, v0);
  }
  if (w1 > 0) {
    for (i = 0; i < ncols; i++) {
      u0[i] = w0 * u0[i] + w1 * u1[i];
      v0[i] = w0 * v0[i] + w1 * v1[i];
    }
  } else {
    for (i = 0; i < ncols; i++) {
      u0[i] *= 4;
      v0[i] *= 4;
    }
  }

  /* 2. horizontally (in 1/16): pixel x0 + 2 i has column i + 1 of the
   * fetched ones */
  if (p->h_cosited) {
    for (i = 0; i < np; i++) {
      ub[2 * i] = 4 * u0[i + 1];
      ub[2 * i + 1] = 2 * (u0[i + 1] + u0[i + 2]);
      vb[2 * i] = 4 * v0[i + 1];
      vb[2 * i + 1] = 2 * (v0[i + 1] + v0[i + 2]);
    }
  } else {
    for (i = 0; i < np; i++) {
      ub[2 * i] = 3 * u0[i + 1] + u0[i];
      ub[2 * i + 1] = 3 * u0[i + 1] + u0[i + 2];
      vb[2 * i] = 3 * v0[i + 1] + v0[i];
      vb[2 * i + 1] = 3 * v0[i + 1] + v0[i + 2];
    }
  }

  /* 3. the matrix */
  fetch_luma (p, planes, strides, y, x0, n, yv);
  BC_FOR_LANES ((gint) n) {
    gint32 l = ky * (yv[k] - yoff) + half;
    gint32 cu = ub[k] - coff, cv = vb[k] - coff;
    gint32 r = (l + krv * cv) >> BC_YUV_SHIFT;
    gint32 g = (l - kgu * cu - kgv * cv) >> BC_YUV_SHIFT;
    gint32 b = (l + kbu * cu) >> BC_YUV_SHIFT;

    r = r < 0 ? 0 : (r > 255 ? 255 : r);
    g = g < 0 ? 0 : (g > 255 ? 255 : g);
    b = b < 0 ? 0 : (b > 255 ? 255 : b);
    pix[k] = GUINT32_TO_LE ((guint32) r | ((guint32) g << 8) |
        ((guint32) b << 16) | 0xff000000u);
  }
  memcpy (rgba, pix + odd, (gsize) (n - odd) * 4);
}
