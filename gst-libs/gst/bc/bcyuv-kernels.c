/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* YUV to RGB of one picture row strip (bcyuv.c has the definitions), in
 * exact integer arithmetic, built once per instruction set like the block
 * kernels: every build gives the same bytes.
 *
 *  1. Each chroma row the strip's picture rows need is read once (the
 *     columns of the strip, one more each side, clamped to the picture)
 *     and upsampled horizontally to one value per pixel, in 1/4 of a code:
 *     centred chroma (column i halfway between luma columns 2i and 2i + 1)
 *     gives pixel 2i 3/4 of column i and 1/4 of column i - 1, pixel 2i + 1
 *     3/4 of column i and 1/4 of column i + 1; cosited chroma (column i on
 *     luma column 2i) gives pixel 2i column i, pixel 2i + 1 half of columns
 *     i and i + 1. Columns past the picture's edge repeat its last one.
 *  2. The same weights vertically between chroma rows for 4:2:0 (4:2:2
 *     rows have their own): each pixel's chroma in 1/16 of a code. The
 *     two steps are linear and exact in integers, so their order does not
 *     change the result.
 *  3. R = ky (Y - y0) + krv V, G = ky (Y - y0) - kgu U - kgv V,
 *     B = ky (Y - y0) + kbu U, with U and V the 1/16 chroma minus 16 times
 *     the chroma offset and every coefficient in 2^-BC_YUV_SHIFT output
 *     codes, rounded to the nearest code and clamped to 0..255; for
 *     16-bit output (RGBA64_LE) in 2^-BC_YUV_SHIFT16 codes, clamped to
 *     0..65535.
 *
 * Sums stay below 2^30 for every matrix and range: luma at most
 * 1.17 * 2^20 * 1023, chroma at most 0.14 * 2^20 * 2048 (8-bit) or
 * 0.034 * 2^20 * 8192 (10-bit); 16-bit output, 257 times the codes at
 * 2^13: luma at most 75 * 2^13 * 1023, chroma 35 * 2^13 * 2048 (8-bit)
 * or 8.7 * 2^13 * 8192 (10-bit), below 2^31 together; upsampled chroma,
 * at most 16 * 1023, fits 16 bits. Samples are copied out of the picture with memcpy () and
 * split in loops over contiguous arrays, which the SIMD builds
 * vectorise. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcencode-kernel.h"

#define CHUNK BC_YUV_CHUNK
/* pixels of a strip, from the even one at or before its first */
#define PIX (CHUNK + 2)
/* its chroma columns, with one each side */
#define CCOLS (PIX / 2 + 2)
/* the chroma rows four picture rows of 4:2:0 may need */
#define CROWS 5

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

/* The chroma of columns @c0 .. @c0 + @m - 1 (inside the picture, @m <=
 * CCOLS) of chroma row @cy into @u and @v */
static void
fetch_chroma (const BcYuvParams * p, const guint8 * const planes[3],
    const gsize strides[3], guint cy, guint c0, guint m, gint16 * u, gint16 * v)
{
  guint16 t16[2 * CCOLS];
  guint32 t32[CCOLS];
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
      memcpy (t16, planes[1] + cy * strides[1] + 2 * (gsize) c0, 2 * m);
      for (i = 0; i < m; i++) {
        guint16 w = GUINT16_FROM_LE (t16[i]);

        u[i] = w & 0xff;
        v[i] = w >> 8;
      }
      break;
    case BC_YUV_P010:
      memcpy (t32, planes[1] + cy * strides[1] + 4 * (gsize) c0, 4 * m);
      for (i = 0; i < m; i++) {
        guint32 w = GUINT32_FROM_LE (t32[i]);

        u[i] = (w & 0xffff) >> 6;
        v[i] = w >> 22;
      }
      break;
    case BC_YUV_YUY2:
    case BC_YUV_UYVY:{
      const guint su = p->layout == BC_YUV_YUY2 ? 8 : 0;

      memcpy (t32, planes[0] + cy * strides[0] + 4 * (gsize) c0, 4 * m);
      for (i = 0; i < m; i++) {
        guint32 w = GUINT32_FROM_LE (t32[i]);

        u[i] = (w >> su) & 0xff;
        v[i] = (w >> (su + 16)) & 0xff;
      }
      break;
    }
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

/* The luma of pixels @x0 .. @x0 + @n - 1 (@n <= PIX) of picture row @y */
static void
fetch_luma (const BcYuvParams * p, const guint8 * const planes[3],
    const gsize strides[3], guint y, guint x0, guint n, gint16 * out)
{
  const guint8 *s = planes[0] + y * strides[0];
  guint16 t16[PIX];
  guint i;

  switch (p->layout) {
    case BC_YUV_I420:
    case BC_YUV_NV12:
      s += x0;
      for (i = 0; i < n; i++)
        out[i] = s[i];
      break;
    case BC_YUV_P010:
      memcpy (t16, s + 2 * (gsize) x0, 2 * n);
      for (i = 0; i < n; i++)
        out[i] = GUINT16_FROM_LE (t16[i]) >> 6;
      break;
    case BC_YUV_YUY2:
      memcpy (t16, s + 2 * (gsize) x0, 2 * n);
      for (i = 0; i < n; i++)
        out[i] = GUINT16_FROM_LE (t16[i]) & 0xff;
      break;
    case BC_YUV_UYVY:
      memcpy (t16, s + 2 * (gsize) x0, 2 * n);
      for (i = 0; i < n; i++)
        out[i] = GUINT16_FROM_LE (t16[i]) >> 8;
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

/* Horizontal upsampling of one chroma channel: @c holds the columns
 * x0 / 2 - 1 .. of the strip; @out gets @np pairs of pixels, in 1/4 */
static void
upsample_row (const gint16 * c, guint np, gboolean cosited, gint16 * out)
{
  gint16 even[PIX / 2 + 1], odd[PIX / 2 + 1];
  guint i;

  if (cosited) {
    for (i = 0; i < np; i++) {
      even[i] = 4 * c[i + 1];
      odd[i] = 2 * (c[i + 1] + c[i + 2]);
    }
  } else {
    for (i = 0; i < np; i++) {
      even[i] = 3 * c[i + 1] + c[i];
      odd[i] = 3 * c[i + 1] + c[i + 2];
    }
  }
  for (i = 0; i < np; i++) {
    out[2 * i] = even[i];
    out[2 * i + 1] = odd[i];
  }
}

/* The chroma row @cy (clamped to the picture) upsampled horizontally over
 * pixels @x0 (even) .. @x0 + 2 @np - 1 into @u and @v, in 1/4 */
static void
chroma_row (const BcYuvParams * p, const guint8 * const planes[3],
    const gsize strides[3], guint cy, guint x0, guint np, gint16 * u,
    gint16 * v)
{
  const gint cw = (gint) (p->width + 1) / 2;
  const gint jlo = (gint) x0 / 2 - 1, jhi = (gint) x0 / 2 + (gint) np;
  const gint clo = MAX (jlo, 0), chi = MIN (jhi, cw - 1);
  gint16 cu[CCOLS], cv[CCOLS];
  gint j;

  fetch_chroma (p, planes, strides, cy, clo, chi - clo + 1, cu + (clo - jlo),
      cv + (clo - jlo));
  for (j = jlo; j < clo; j++) {
    cu[j - jlo] = cu[clo - jlo];
    cv[j - jlo] = cv[clo - jlo];
  }
  for (j = chi + 1; j <= jhi; j++) {
    cu[j - jlo] = cu[chi - jlo];
    cv[j - jlo] = cv[chi - jlo];
  }
  upsample_row (cu, np, p->h_cosited, u);
  upsample_row (cv, np, p->h_cosited, v);
}

/* The matrix over @n pixels: luma @yv, chroma @ub, @vb in 1/16, into
 * RGBA (@pix: a 32-bit word a pixel) */
static void
matrix_row (const BcYuvParams * p, const gint16 * yv, const gint16 * ub,
    const gint16 * vb, guint n, guint32 * pix)
{
  const gint32 ky = p->k[0], krv = p->k[1], kgu = p->k[2], kgv = p->k[3];
  const gint32 kbu = p->k[4], yoff = p->y_offset, coff = p->c_offset16;
  const gint32 half = 1 << (BC_YUV_SHIFT - 1);
  gint k;

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
}

/* The same into RGBA64_LE (@pix: four 16-bit samples a pixel), the
 * coefficients in 2^-BC_YUV_SHIFT16 of a 16-bit code */
static void
matrix_row16 (const BcYuvParams * p, const gint16 * yv, const gint16 * ub,
    const gint16 * vb, guint n, guint16 * pix)
{
  const gint32 ky = p->k[0], krv = p->k[1], kgu = p->k[2], kgv = p->k[3];
  const gint32 kbu = p->k[4], yoff = p->y_offset, coff = p->c_offset16;
  const gint32 half = 1 << (BC_YUV_SHIFT16 - 1);
  gint k;

  BC_FOR_LANES ((gint) n) {
    gint32 l = ky * (yv[k] - yoff) + half;
    gint32 cu = ub[k] - coff, cv = vb[k] - coff;
    gint32 r = (l + krv * cv) >> BC_YUV_SHIFT16;
    gint32 g = (l - kgu * cu - kgv * cv) >> BC_YUV_SHIFT16;
    gint32 b = (l + kbu * cu) >> BC_YUV_SHIFT16;

    r = r < 0 ? 0 : (r > 65535 ? 65535 : r);
    g = g < 0 ? 0 : (g > 65535 ? 65535 : g);
    b = b < 0 ? 0 : (b > 65535 ? 65535 : b);
    pix[4 * k] = GUINT16_TO_LE ((guint16) r);
    pix[4 * k + 1] = GUINT16_TO_LE ((guint16) g);
    pix[4 * k + 2] = GUINT16_TO_LE ((guint16) b);
    pix[4 * k + 3] = 0xffff;
  }
}

void
BC_KERNEL_NAME (bc_yuv_rows) (const BcYuvParams * p,
    const guint8 * const planes[3], const gsize strides[3], guint y0,
    guint n_rows, guint x, guint n, guint8 * rgba, gsize rgba_stride)
{
  /* from the even pixel at or before @x */
  const guint odd = x & 1, x0 = x - odd, np = (n + odd + 1) / 2;
  const gboolean sub = p->layout == BC_YUV_I420 ||
      p->layout == BC_YUV_NV12 || p->layout == BC_YUV_P010;
  const guint ch = sub ? (p->height + 1) / 2 : p->height;
  /* chroma rows upsampled horizontally, for 4:2:0 lazily by row: slot s
   * holds row jbase + s */
  gint16 hu[CROWS][PIX], hv[CROWS][PIX];
  gint16 yv[PIX], ub[PIX], vb[PIX];
  guint32 pix[PIX];
  guint16 pix16[4 * PIX];
  const gint jbase = (gint) y0 / 2 - 1;
  gboolean have[CROWS] = { FALSE, };
  guint r, i;

  for (r = 0; r < n_rows; r++) {
    guint y = y0 + r;

    if (sub) {
      gint j = y / 2, ja, jb, wa, wb, sa, sb;

      if (p->v_cosited) {
        ja = j;
        jb = j + 1;
        wa = y % 2 ? 2 : 4;
      } else {
        ja = j;
        jb = y % 2 ? j + 1 : j - 1;
        wa = 3;
      }
      wb = 4 - wa;
      sa = ja - jbase;
      sb = jb - jbase;
      if (!have[sa]) {
        chroma_row (p, planes, strides, MIN ((guint) ja, ch - 1), x0, np,
            hu[sa], hv[sa]);
        have[sa] = TRUE;
      }
      if (wb > 0 && !have[sb]) {
        chroma_row (p, planes, strides, CLAMP (jb, 0, (gint) ch - 1), x0,
            np, hu[sb], hv[sb]);
        have[sb] = TRUE;
      }
      if (wb > 0) {
        for (i = 0; i < 2 * np; i++) {
          ub[i] = wa * hu[sa][i] + wb * hu[sb][i];
          vb[i] = wa * hv[sa][i] + wb * hv[sb][i];
        }
      } else {
        for (i = 0; i < 2 * np; i++) {
          ub[i] = 4 * hu[sa][i];
          vb[i] = 4 * hv[sa][i];
        }
      }
    } else {
      chroma_row (p, planes, strides, y, x0, np, hu[0], hv[0]);
      for (i = 0; i < 2 * np; i++) {
        ub[i] = 4 * hu[0][i];
        vb[i] = 4 * hv[0][i];
      }
    }
    fetch_luma (p, planes, strides, y, x0, n + odd, yv);
    if (p->out16) {
      matrix_row16 (p, yv, ub, vb, n + odd, pix16);
      memcpy (rgba + r * rgba_stride, pix16 + 4 * odd, (gsize) n * 8);
    } else {
      matrix_row (p, yv, ub, vb, n + odd, pix);
      memcpy (rgba + r * rgba_stride, pix + odd, (gsize) n * 4);
    }
  }
}
