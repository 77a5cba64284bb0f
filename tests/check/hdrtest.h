/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* HDR helpers of the BC6H tests and benchmark: a synthetic HDR picture,
 * the multi-exposure PSNR (mPSNR), and pictures of PQ, HLG or linear
 * codes (photograph-like, random, speckled, nearly flat) for the GL
 * encoder's tests. Header-only. */

#ifndef __BC_HDRTEST_H__
#define __BC_HDRTEST_H__

#include <gst/bc/bc.h>
#include <math.h>

/* A deterministic pseudo-random value in [0, 1) of (x, y, seed) */
static inline double
hdrtest_hash (guint x, guint y, guint seed)
{
  guint32 h = x * 0x8da6b343u ^ y * 0xd8163841u ^ seed * 0xcb1ab31fu;

  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return (h & 0xffffff) / 16777216.0;
}

/* Smooth value noise in [0, 1): bilinear between hashes on a grid of
 * @cell pixels */
static inline double
hdrtest_noise (guint x, guint y, guint cell, guint seed)
{
  guint gx = x / cell, gy = y / cell;
  double fx = (double) (x % cell) / cell, fy = (double) (y % cell) / cell;
  double a = hdrtest_hash (gx, gy, seed), b = hdrtest_hash (gx + 1, gy, seed);
  double c = hdrtest_hash (gx, gy + 1, seed);
  double d = hdrtest_hash (gx + 1, gy + 1, seed);

  fx = fx * fx * (3 - 2 * fx);
  fy = fy * fy * (3 - 2 * fy);
  return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
}

/* A @width x @height HDR picture as RGBA half floats (linear, 1.0 = 203
 * cd/m2): a smooth coloured gradient from 0.01 to about 3 with texture at
 * two scales, a dark corner (values near 0), hard-edged "windows" three
 * times brighter, and a few highlights peaking at 20 to 50. */
static inline void
hdrtest_image (guint width, guint height, guint seed, guint16 * rgba)
{
  guint x, y, k;
  double spots[4][4];

  for (k = 0; k < 4; k++) {
    spots[k][0] = hdrtest_hash (k, 1, seed) * width;
    spots[k][1] = hdrtest_hash (k, 2, seed) * height;
    spots[k][2] = 4.0 + hdrtest_hash (k, 3, seed) * 0.03 * width;
    spots[k][3] = 20.0 + 30.0 * hdrtest_hash (k, 4, seed);
  }
  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      double u = (x + 0.5) / width, v = (y + 0.5) / height;
      double l = 0.01 + 3.0 * u * u * (0.6 + 0.4 * sin (6.0 * v + 2.0 * u));
      double t = 0.8 + 0.3 * hdrtest_noise (x, y, 9, seed) +
          0.1 * hdrtest_noise (x, y, 2, seed + 1);
      double rgb[3];
      guint c;

      if (u < 0.3 && v > 0.7)
        l *= 0.02;
      if ((x / 48 + y / 40) % 5 == 0)
        l *= 3.0;
      l *= t;
      rgb[0] = l * (0.7 + 0.5 * u);
      rgb[1] = l * (0.9 + 0.1 * hdrtest_noise (x, y, 31, seed + 2));
      rgb[2] = l * (1.2 - 0.7 * v);
      for (k = 0; k < 4; k++) {
        double dx = x - spots[k][0], dy = y - spots[k][1];
        double g = exp (-(dx * dx + dy * dy) / (2 * spots[k][2] *
                spots[k][2]));

        for (c = 0; c < 3; c++)
          rgb[c] += spots[k][3] * g * (c == 2 ? 0.8 : 1.0);
      }
      for (c = 0; c < 3; c++)
        rgba[((gsize) y * width + x) * 4 + c] =
            gst_bc_hdr_half_from_float ((float) rgb[c]);
      rgba[((gsize) y * width + x) * 4 + 3] = 0x3c00;
    }
  }
}

/* The multi-exposure PSNR of @b against @a, @n_pixels RGBA half floats
 * each: for the exposures c = -3 .. +3 every channel value v becomes
 * clamp (255 (2^c v)^(1 / 2.2), 0, 255); the MSE is over every exposure,
 * pixel and channel, and mPSNR = 10 log10 (255^2 / MSE) (infinite for
 * equal pictures). */
static inline double
hdrtest_mpsnr (const guint16 * a, const guint16 * b, gsize n_pixels)
{
  double sum = 0.0, scale[7];
  gsize i;
  gint c, e;

  /* (2^e v)^(1/2.2) = 2^(e/2.2) v^(1/2.2) */
  for (e = -3; e <= 3; e++)
    scale[e + 3] = 255.0 * pow (2.0, e / 2.2);
  for (i = 0; i < n_pixels; i++) {
    for (c = 0; c < 3; c++) {
      double va = gst_bc_hdr_half_to_double (a[i * 4 + c]);
      double vb = gst_bc_hdr_half_to_double (b[i * 4 + c]);

      va = va > 0.0 ? pow (va, 1.0 / 2.2) : 0.0;
      vb = vb > 0.0 ? pow (vb, 1.0 / 2.2) : 0.0;
      for (e = 0; e < 7; e++) {
        double ta = MIN (scale[e] * va, 255.0);
        double tb = MIN (scale[e] * vb, 255.0);

        sum += (ta - tb) * (ta - tb);
      }
    }
  }
  sum /= (double) n_pixels * 3 * 7;
  return sum > 0.0 ? 10.0 * log10 (255.0 * 255.0 / sum) : INFINITY;
}

/* The pictures of hdrtest_codes () */
typedef enum
{
  HDRTEST_PHOTO,                /* hdrtest_image () */
  HDRTEST_RANDOM,               /* every code equally likely */
  HDRTEST_SPECKLED,             /* hdrtest_image () with random pixels */
  HDRTEST_FLAT,                 /* nearly flat blocks: hdrtest_flat () */
  HDRTEST_CORNERS,              /* two levels a channel: hdrtest_corners () */
  HDRTEST_CORNERS_SIGNED,       /* the same for BC6H-SF */
} HdrtestPicture;

/* the tests' linear congruential generator (gstbctest.h's) */
static inline guint32
hdrtest_lcg (guint32 * state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

/* Blocks of one colour (RGBA half floats, from 2^-12 to 1.0) with noise
 * of a half step and a second level up to 7 half steps away on some
 * pixels, pixel 0 halfway: among them the rare blocks where BC6H's anchor
 * rule breaks the differences of the mode quality=fast chose (about one
 * in a thousand), which its per-block fallback encodes again */
static inline void
hdrtest_flat (guint width, guint height, guint seed, guint16 * half)
{
  guint32 state = seed * 104729 + 3;
  guint bx, by, x, y, c;

  for (by = 0; by < (height + 3) / 4; by++) {
    for (bx = 0; bx < (width + 3) / 4; bx++) {
      gint base[3], amp[3];

      for (c = 0; c < 3; c++) {
        base[c] = 0x1000 + (gint) (hdrtest_lcg (&state) % 0x2bf0);
        amp[c] = (gint) (hdrtest_lcg (&state) % 8);
      }
      for (y = by * 4; y < MIN (by * 4 + 4, height); y++) {
        for (x = bx * 4; x < MIN (bx * 4 + 4, width); x++) {
          gboolean first = x % 4 == 0 && y % 4 == 0;
          gboolean up = hdrtest_lcg (&state) & 1;

          for (c = 0; c < 3; c++) {
            gint v = base[c] + (first ? amp[c] / 2 : (up ? amp[c] : 0)) +
                (gint) (hdrtest_lcg (&state) % 3) - 1;

            half[((gsize) y * width + x) * 4 + c] = (guint16) v;
          }
          half[((gsize) y * width + x) * 4 + 3] = 0x3c00;
        }
      }
    }
  }
}

/* Blocks of two levels a channel (RGBA half floats, 2^-4 to 1.0), each
 * pixel's channels at either level independently (the corners of a box,
 * far from a line), pixel 0 halfway, red's levels about 128 codes of
 * 12-bit endpoints apart (984 to 1000 half steps; @sgn, for signed BC6H's
 * 11-bit magnitudes, twice that): among them blocks where BC6H's anchor
 * rule breaks the differences of mode 13 (12-bit endpoints, 8-bit
 * differences) and whose one region leaves a large error, which
 * quality=normal's per-block fallback encodes with two regions */
static inline void
hdrtest_corners (guint width, guint height, guint seed, gboolean sgn,
    guint16 * half)
{
  guint32 state = seed * 15485863 + 5;
  guint bx, by, x, y, c;

  for (by = 0; by < (height + 3) / 4; by++) {
    for (bx = 0; bx < (width + 3) / 4; bx++) {
      gint base[3], amp[3];

      for (c = 0; c < 3; c++) {
        base[c] = 0x2c00 + (gint) (hdrtest_lcg (&state) % 0x400);
        amp[c] = c == 0 ? (984 + (gint) (hdrtest_lcg (&state) % 17)) <<
            (sgn ? 1 : 0) : (gint) (hdrtest_lcg (&state) % 990);
      }
      for (y = by * 4; y < MIN (by * 4 + 4, height); y++) {
        for (x = bx * 4; x < MIN (bx * 4 + 4, width); x++) {
          gboolean first = x % 4 == 0 && y % 4 == 0;

          for (c = 0; c < 3; c++) {
            gboolean up = hdrtest_lcg (&state) & 1;
            gint v = base[c] + (first ? amp[c] / 2 : (up ? amp[c] : 0)) +
                (gint) (hdrtest_lcg (&state) % 3) - 1;

            half[((gsize) y * width + x) * 4 + c] = (guint16) v;
          }
          half[((gsize) y * width + x) * 4 + 3] = 0x3c00;
        }
      }
    }
  }
}

/* A @width x @height picture of RGBA64_LE codes (alpha a ramp): the
 * hdrtest_image () photograph-like picture in the codes of @transfer
 * (PQ: the PQ code of each half; HLG and linear: the code of the value
 * clipped to 1.0 after a square root, which spreads the codes), uniform
 * random codes, the picture with one pixel in five random, or
 * hdrtest_flat () or hdrtest_corners () (PQ: the PQ codes; else the codes
 * of the values). A new
 * array of 4 * @width * @height codes. */
static inline guint16 *
hdrtest_codes (HdrtestPicture kind, GstVideoTransferFunction transfer,
    guint width, guint height, guint seed)
{
  gsize i, n = (gsize) width * height;
  guint16 *half = g_new (guint16, n * 4);
  guint16 *codes = g_new (guint16, n * 4);
  guint32 state = seed * 7919 + 1;
  guint c;

  if (kind == HDRTEST_FLAT)
    hdrtest_flat (width, height, seed, half);
  else if (kind == HDRTEST_CORNERS || kind == HDRTEST_CORNERS_SIGNED)
    hdrtest_corners (width, height, seed, kind == HDRTEST_CORNERS_SIGNED,
        half);
  else
    hdrtest_image (width, height, seed, half);
  for (i = 0; i < n; i++) {
    gboolean random = kind == HDRTEST_RANDOM || (kind == HDRTEST_SPECKLED &&
        hdrtest_lcg (&state) % 5 == 0);

    for (c = 0; c < 3; c++) {
      if (random) {
        codes[i * 4 + c] = (guint16) (hdrtest_lcg (&state) >> 8);
      } else if (transfer == GST_VIDEO_TRANSFER_SMPTE2084) {
        codes[i * 4 + c] = gst_bc_hdr_pq_from_half (half[i * 4 + c]);
      } else {
        double v = gst_bc_hdr_half_to_double (half[i * 4 + c]);

        if (kind < HDRTEST_FLAT)
          v = sqrt (v / 4.0);
        codes[i * 4 + c] = (guint16) (65535.0 * MIN (v, 1.0) + 0.5);
      }
    }
    codes[i * 4 + 3] = (guint16) (i * 977);
  }
  g_free (half);
  return codes;
}

#endif /* __BC_HDRTEST_H__ */
