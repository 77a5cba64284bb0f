/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Block encoding kernels for BC4 (one channel) and BC5 (two channels, each
 * coded as a BC4 block), plus the one-byte gather and the luma conversion
 * bc4 uses for GRAY8 and RGB input.
 *
 * Like bcencode-kernels.c, every function works on BC_LANES blocks at once
 * with the lane as the innermost loop, and this file is compiled once per
 * instruction set (portable C, SSE2, AVX2) with floating point contraction
 * off: every build writes the same blocks.
 *
 * A BC4 block has two 8-bit endpoints a0, a1 and sixteen 3-bit codes. When
 * a0 > a1 the codes select one of eight values from a1 to a0 ("8-value
 * mode"); otherwise six values from a0 to a1 plus 0 and 255 ("6-value
 * mode"). Decoders truncate the interpolation (bcdecode.c). The encoder:
 *
 *  1. fast: 8-value mode with the block's minimum and maximum as endpoints;
 *     every pixel takes the nearest of the eight decoded values (exact: the
 *     code is the number of midpoints between neighbouring values below
 *     the pixel);
 *  2. normal: then one least-squares refit of the endpoints to the codes
 *     (kept when the error drops), and the 6-value candidate: endpoints
 *     are the minimum and maximum of the pixels that are neither 0 nor 255
 *     (those take the two fixed values), tried on blocks that have such
 *     pixels; it replaces the 8-value result only when its squared error
 *     is strictly lower;
 *  3. high: two refits, then a search of the neighbouring endpoint pairs
 *     (each endpoint moved by -1, 0 or +1) in 8-value mode, kept when the
 *     error drops.
 *
 * A flat block (one value) is written as a0 = a1 = value, codes 0: exact.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcencode-private.h"

#include <string.h>

#ifndef BC_KERNEL_SUFFIX
#error "BC_KERNEL_SUFFIX must name the build"
#endif

#define L BC_LANES
#ifdef BC_KERNEL_PORTABLE
#define LANES for (k = 0; k < L; k++)
#else
#define LANES _Pragma ("omp simd") for (k = 0; k < L; k++)
#endif

static inline float
clamp255 (float v)
{
  return v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v);
}

void BC_KERNEL_NAME (bc_gather1) (BcBatch * batch, const guint8 * const rows[4])
{
  gint y, x, k;

  for (y = 0; y < 4; y++) {
    for (x = 0; x < 4; x++) {
      float *dst = batch->px[0][y * 4 + x];
      const guint8 *src = rows[y] + x;

      LANES dst[k] = (float) src[k * 4];
    }
  }
}

void BC_KERNEL_NAME (bc_luma) (BcBatch * batch)
{
  gint i, k;

  for (i = 0; i < 16; i++) {
    LANES {
      gint32 r = (gint32) batch->px[0][i][k];
      gint32 g = (gint32) batch->px[1][i][k];
      gint32 b = (gint32) batch->px[2][i][k];

      batch->px[0][i][k] = (float) ((77 * r + 150 * g + 29 * b + 128) >> 8);
    }
  }
}

/* 8-value mode, a0 >= a1: codes, squared error and (when @wsel is not
 * NULL) the weight of a0 in each pixel's value. The ascending levels are
 * l_j = (j a0 + (7 - j) a1) / 7 (truncated); level 7 is code 0, level 0
 * code 1, level j code 8 - j. (x * (1/7)) truncated equals x / 7 for
 * 0 <= x <= 1785: 1/7 rounds up in float. */
static void
eval8 (const float (*p)[L], const gint32 * a0, const gint32 * a1,
    gint32 (*code)[L], float (*wsel)[L], float *err)
{
  float lvl[8][L], mid[7][L];
  gint i, j, k;

  LANES {
    for (j = 0; j < 8; j++)
      lvl[j][k] = (float) (gint32) ((float) (j * a0[k] + (7 - j) * a1[k]) *
          (1.0f / 7.0f));
    for (j = 0; j < 7; j++)
      mid[j][k] = (lvl[j][k] + lvl[j + 1][k]) * 0.5f;
    err[k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float v = p[i][k], val = lvl[0][k], d;
      gint32 n = 0, c;

#define STEP(j) G_STMT_START { \
        gboolean above = v > mid[j][k]; \
        n += above ? 1 : 0; \
        val = above ? lvl[j + 1][k] : val; \
      } G_STMT_END
      STEP (0);
      STEP (1);
      STEP (2);
      STEP (3);
      STEP (4);
      STEP (5);
      STEP (6);
#undef STEP
      d = v - val;
      err[k] += d * d;
      c = 8 - n;
      c = c == 1 ? 0 : c;
      code[i][k] = c == 8 ? 1 : c;
    }
    if (wsel != NULL) {
      LANES {
        gint32 c = code[i][k];
        /* level of the code: 7 for code 0, 0 for code 1, else 8 - code */
        gint32 l = c == 0 ? 7 : (c == 1 ? 0 : 8 - c);

        wsel[i][k] = (float) l *(1.0f / 7.0f);
      }
    }
  }
}

/* 6-value mode, a0 <= a1: the ascending values are 0, a0, the four codes
 * 2..5 ((6 - c) a0 + (c - 1) a1) / 5, a1 and 255. */
static void
eval6 (const float (*p)[L], const gint32 * a0, const gint32 * a1,
    gint32 (*code)[L], float *err)
{
  float lvl[8][L], mid[7][L];
  gint i, j, k;

  LANES {
    lvl[0][k] = 0.0f;
    lvl[1][k] = (float) a0[k];
    for (j = 2; j < 6; j++)
      lvl[j][k] = (float) (gint32) ((float) ((6 - j) * a0[k] + (j - 1) *
              a1[k]) * (1.0f / 5.0f));
    lvl[6][k] = (float) a1[k];
    lvl[7][k] = 255.0f;
    for (j = 0; j < 7; j++)
      mid[j][k] = (lvl[j][k] + lvl[j + 1][k]) * 0.5f;
    err[k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float v = p[i][k], val = lvl[0][k], d;
      gint32 n = 0, c;

#define STEP(j) G_STMT_START { \
        gboolean above = v > mid[j][k]; \
        n += above ? 1 : 0; \
        val = above ? lvl[j + 1][k] : val; \
      } G_STMT_END
      STEP (0);
      STEP (1);
      STEP (2);
      STEP (3);
      STEP (4);
      STEP (5);
      STEP (6);
#undef STEP
      d = v - val;
      err[k] += d * d;
      /* position 0 is code 6 (0), 1 is a0, 6 is a1, 7 is code 7 (255) */
      c = n == 0 ? 6 : (n == 1 ? 0 : (n == 6 ? 1 : n));
      code[i][k] = c;
    }
  }
}

/* Keeps the candidate where its error is lower */
static void
keep_better (gint32 * a0, gint32 * a1, gint32 (*codes)[L], float *err,
    float (*w)[L], const gint32 * c0, const gint32 * c1,
    gint32 (*try_codes)[L], const float *try_err, float (*try_w)[L])
{
  gint i, k;

  for (i = 0; i < 16; i++) {
    LANES {
      gboolean better = try_err[k] < err[k];

      codes[i][k] = better ? try_codes[i][k] : codes[i][k];
      if (w != NULL)
        w[i][k] = better ? try_w[i][k] : w[i][k];
    }
  }
  LANES {
    gboolean better = try_err[k] < err[k];

    a0[k] = better ? c0[k] : a0[k];
    a1[k] = better ? c1[k] : a1[k];
    err[k] = better ? try_err[k] : err[k];
  }
}

/* Encodes one channel (p[pixel][lane]) as 8-byte BC4 blocks; lane k goes
 * to out + k * stride. */
static void
bc4_encode (const float (*p)[L], gint quality, guint n_lanes, guint8 * out,
    gsize stride)
{
  float vmin[L], vmax[L], err[L], try_err[L];
  float w[16][L], try_w[16][L];
  gint32 a0[L], a1[L], c0[L], c1[L];
  gint32 codes[16][L], try_codes[16][L];
  gint i, k, it, iters;

  LANES {
    vmin[k] = 255.0f;
    vmax[k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      vmin[k] = p[i][k] < vmin[k] ? p[i][k] : vmin[k];
      vmax[k] = p[i][k] > vmax[k] ? p[i][k] : vmax[k];
    }
  }
  LANES {
    a0[k] = (gint32) (vmax[k] + 0.5f);
    a1[k] = (gint32) (vmin[k] + 0.5f);
  }
  eval8 (p, a0, a1, codes, quality > 0 ? w : NULL, err);

  /* least-squares refits of the endpoints to the chosen codes */
  iters = quality == 0 ? 0 : (quality == 1 ? 1 : 2);
  for (it = 0; it < iters; it++) {
    float aa[L], ab[L], bb[L], x0[L], x1[L];

    LANES aa[k] = ab[k] = bb[k] = x0[k] = x1[k] = 0.0f;
    for (i = 0; i < 16; i++) {
      LANES {
        float u = 1.0f - w[i][k];

        aa[k] += w[i][k] * w[i][k];
        ab[k] += w[i][k] * u;
        bb[k] += u * u;
        x0[k] += w[i][k] * p[i][k];
        x1[k] += u * p[i][k];
      }
    }
    LANES {
      float det = aa[k] * bb[k] - ab[k] * ab[k];
      gboolean ok = det > 1e-3f;
      float inv = 1.0f / (ok ? det : 1.0f);
      gint32 n0 = (gint32) (clamp255 ((bb[k] * x0[k] - ab[k] * x1[k]) * inv) +
          0.5f);
      gint32 n1 = (gint32) (clamp255 ((aa[k] * x1[k] - ab[k] * x0[k]) * inv) +
          0.5f);

      ok = ok && n0 > n1;
      c0[k] = ok ? n0 : a0[k];
      c1[k] = ok ? n1 : a1[k];
    }
    eval8 (p, c0, c1, try_codes, try_w, try_err);
    keep_better (a0, a1, codes, err, w, c0, c1, try_codes, try_err, try_w);
  }

  /* high: neighbouring endpoint pairs in 8-value mode */
  if (quality >= 2) {
    gint d0, d1;

    for (d0 = -1; d0 <= 1; d0++) {
      for (d1 = -1; d1 <= 1; d1++) {
        gint32 b0[L], b1[L];

        if (d0 == 0 && d1 == 0)
          continue;
        LANES {
          gint32 n0 = CLAMP (a0[k] + d0, 0, 255);
          gint32 n1 = CLAMP (a1[k] + d1, 0, 255);
          /* stay in 8-value mode: a pair that is no longer ordered is
           * evaluated as the current one (no change) */
          gboolean ok = n0 > n1;

          b0[k] = ok ? n0 : a0[k];
          b1[k] = ok ? n1 : a1[k];
        }
        eval8 (p, b0, b1, try_codes, try_w, try_err);
        keep_better (a0, a1, codes, err, w, b0, b1, try_codes, try_err, try_w);
      }
    }
  }

  /* normal and high: the 6-value candidate, with the pixels that are 0 or
   * 255 left to the fixed values */
  if (quality >= 1) {
    float lo[L], hi[L];
    gboolean extreme[L], any = FALSE;

    LANES {
      lo[k] = 255.0f;
      hi[k] = 0.0f;
    }
    for (i = 0; i < 16; i++) {
      LANES {
        float v = p[i][k];
        gboolean inner = v >= 0.5f && v < 254.5f;

        lo[k] = inner && v < lo[k] ? v : lo[k];
        hi[k] = inner && v > hi[k] ? v : hi[k];
      }
    }
    LANES {
      /* no inner pixel: both endpoints 0, only the fixed values used */
      gboolean none = lo[k] > hi[k];

      c0[k] = none ? 0 : (gint32) (lo[k] + 0.5f);
      c1[k] = none ? 0 : (gint32) (hi[k] + 0.5f);
      /* only blocks with a pixel at 0 or 255 try it: elsewhere six values
       * over the same range rarely beat eight */
      extreme[k] = lo[k] > vmin[k] || hi[k] < vmax[k];
    }
    for (k = 0; k < L; k++)
      any = any || extreme[k];
    if (any) {
      eval6 (p, c0, c1, try_codes, try_err);
      LANES try_err[k] = extreme[k] ? try_err[k] : G_MAXFLOAT;
      keep_better (a0, a1, codes, err, NULL, c0, c1, try_codes, try_err, NULL);
    }
  }

  /* pack the 48 bits of codes as two 32-bit words per lane: pixels 0-9
   * and the low bits of pixel 10, then the rest. A flat result (a0 == a1,
   * no pixel at 0 or 255 of 6-value mode) is written with codes 0. */
  {
    guint32 words[L][2];

    LANES {
      guint32 lo = 0, hi = 0;
      gboolean flat = a0[k] == a1[k];

      for (i = 0; i < 16; i++)
        flat = flat && codes[i][k] < 6;
      for (i = 0; i < 10; i++)
        lo |= (guint32) codes[i][k] << (3 * i);
      lo |= ((guint32) codes[10][k] & 3) << 30;
      hi = (guint32) codes[10][k] >> 2;
      for (i = 11; i < 16; i++)
        hi |= (guint32) codes[i][k] << (3 * i - 32);
      lo = flat ? 0 : lo;
      hi = flat ? 0 : hi;
      words[k][0] = GUINT32_TO_LE ((guint32) a0[k] | ((guint32) a1[k] << 8) |
          (lo << 16));
      words[k][1] = GUINT32_TO_LE ((lo >> 16) | (hi << 16));
    }
    for (k = 0; k < (gint) n_lanes; k++)
      memcpy (out + k * stride, words[k], 8);
  }
}

void
BC_KERNEL_NAME (bc_kernel_bc4) (const BcBatch * batch, guint n_lanes,
    gint quality, guint8 * out)
{
  bc4_encode (batch->px[0], quality, n_lanes, out, 8);
}

void
BC_KERNEL_NAME (bc_kernel_bc5) (const BcBatch * batch, guint n_lanes,
    gint quality, guint8 * out)
{
  bc4_encode (batch->px[0], quality, n_lanes, out, 16);
  bc4_encode (batch->px[1], quality, n_lanes, out + 8, 16);
}
