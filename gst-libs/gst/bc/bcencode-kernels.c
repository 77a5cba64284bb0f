/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Block encoding kernels for BC1, BC3 and YCoCg-BC3.
 *
 * Every function works on a batch of BC_LANES blocks at once, with the lane
 * as the innermost loop, so that the compiler turns each step into vector
 * instructions. This file is compiled several times (portable C without
 * vectorisation, SSE2, AVX2; see meson.build) and bcencode.c picks a build
 * at run time. Lanes never interact and floating point contraction is off,
 * so every build computes the same blocks bit for bit.
 *
 * BC1 and YCoCg-BC3 at quality normal and high, and BC3 at every quality
 * (BC1 and YCoCg-BC3 at quality=fast: bcencode-fast.c). Colour blocks,
 * after van Waveren
 * 2006, Castano 2007, and the published notes on stb_dxt and squish:
 *  1. the principal axis of the block's colours is found by power iteration
 *     on their covariance; the pixels with the smallest and largest
 *     projection on it, inset by 1/16 of their distance, start the fit;
 *  2. endpoints are rounded to the nearest 565 value under bit-replicated
 *     expansion and every pixel takes the nearest of the four palette
 *     colours as decoders compute them (integer truncation);
 *  3. (normal: one step, high: four steps from two starts, the second being
 *     the un-inset extremes) least squares refits the endpoints to the
 *     indices, requantises and re-assigns; the best result is kept;
 *     high then searches the neighbours of the quantised endpoints (one
 *     step in each channel of each endpoint, two rounds);
 *  4. the single-colour candidate, every pixel at the colour nearest the
 *     block mean that optimal single-colour endpoints can produce, replaces
 *     the fit when it is at least as good: solid blocks are exact (or as
 *     near as BC1 allows) and near-solid blocks do not lose precision;
 *  5. c0 > c1 is enforced (4-colour mode) by swapping endpoints and indices.
 *
 * YCoCg-BC3 (van Waveren and Castano 2007): Y = (R + 2G + B) / 4 goes to
 * the alpha block, Co = (R - B) / 2 and Cg = (2G - R - B) / 4 are scaled by
 * 1, 2 or 4 (the largest that keeps them in range), offset by 128 and coded
 * as the red and green of the colour block; blue holds scale - 1. Colour
 * errors are weighted 2:3 (Co:Cg), which is what they cost in RGB.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcencode-kernel.h"

#define L BC_LANES
#define LANES BC_FOR_LANES (L)

#define expand5 bc_expand5
#define expand6 bc_expand6

/* ------------------------------------------------------------------------ */
/* colour block                                                              */

/* bc_quant5 () or bc_quant6 () of each x rounded to an integer */
#define DEFINE_QUANT(bits)                                                 \
static void                                                                \
quant##bits (const float *x, gint32 * out)                                 \
{                                                                          \
  gint k;                                                                  \
                                                                           \
  LANES {                                                                  \
    float c = x[k] < 0.0f ? 0.0f : (x[k] > 255.0f ? 255.0f : x[k]);        \
                                                                           \
    out[k] = bc_quant##bits ((gint32) (c + 0.5f));                         \
  }                                                                        \
}

DEFINE_QUANT (5);
DEFINE_QUANT (6);

typedef struct
{
  /* weights of the three channels in the error */
  float w[3];
  /* blue is fixed to a given 5-bit value per lane (YCoCg scale code) */
  gboolean fixed_blue;
  /* BC1: keep c0 > c1 for 4-colour mode; BC3 decodes 4-colour always */
  gboolean bc1;
} ColourParams;

typedef struct
{
  gint32 q[2][3][L];            /* quantised endpoints: [endpoint][ch][lane] */
  guint32 idx[L];
  float w[16][L];               /* weight of endpoint 0 of each pixel's index */
  float err[L];
} ColourFit;

/* Quantise float endpoints e[endpoint][ch][lane] and fit indices. */
static void
colour_eval (const float (*p)[16][L], const ColourParams * cp,
    const gint * fixed_blue, const float *pw2, float e[2][3][L],
    ColourFit * fit)
{
  float pal[4][3][L], wc[4][3][L], cc[4][L];
  float best[16][L];
  gint ch, i, k, j;

  for (j = 0; j < 2; j++) {
    quant5 (e[j][0], fit->q[j][0]);
    quant6 (e[j][1], fit->q[j][1]);
    quant5 (e[j][2], fit->q[j][2]);
    if (cp->fixed_blue) {
      LANES fit->q[j][2][k] = fixed_blue[k];
    }
  }
  /* the palette as the decoder computes it; (x * (1/3)) truncated is x / 3
   * exactly for 0 <= x <= 765. Distances are compared as
   * |c|^2 - 2 p.c (|p|^2 is the same for every entry), in weighted
   * channels: every term is an exact integer (or a short binary fraction),
   * so the choice is exact. */
  for (ch = 0; ch < 3; ch++) {
    const gint six = ch == 1;
    LANES {
      gint32 qa = fit->q[0][ch][k], qb = fit->q[1][ch][k];
      gint32 a = six ? expand6 (qa) : expand5 (qa);
      gint32 b = six ? expand6 (qb) : expand5 (qb);

      pal[0][ch][k] = (float) a;
      pal[1][ch][k] = (float) b;
      pal[2][ch][k] = (float) (gint32) ((float) (2 * a + b) * (1.0f / 3.0f));
      pal[3][ch][k] = (float) (gint32) ((float) (a + 2 * b) * (1.0f / 3.0f));
    }
  }
  for (j = 0; j < 4; j++) {
    LANES {
      cc[j][k] = 0.0f;
      for (ch = 0; ch < 3; ch++) {
        wc[j][ch][k] = 2.0f * cp->w[ch] * pal[j][ch][k];
        cc[j][k] += cp->w[ch] * pal[j][ch][k] * pal[j][ch][k];
      }
    }
  }

  LANES {
    fit->idx[k] = 0;
    fit->err[k] = pw2[k];
  }
  for (i = 0; i < 16; i++) {
    gint32 sel[L];

    LANES {
      float r = p[0][i][k], g = p[1][i][k], b = p[2][i][k];
      float d0 = cc[0][k] - (r * wc[0][0][k] + g * wc[0][1][k] +
          b * wc[0][2][k]);
      float d1 = cc[1][k] - (r * wc[1][0][k] + g * wc[1][1][k] +
          b * wc[1][2][k]);
      float d2 = cc[2][k] - (r * wc[2][0][k] + g * wc[2][1][k] +
          b * wc[2][2][k]);
      float d3 = cc[3][k] - (r * wc[3][0][k] + g * wc[3][1][k] +
          b * wc[3][2][k]);
      float m, w;
      gint32 s;

      m = d0;
      s = 0;
      w = 1.0f;
      if (d1 < m) {
        m = d1;
        s = 1;
        w = 0.0f;
      }
      if (d2 < m) {
        m = d2;
        s = 2;
        w = 2.0f / 3.0f;
      }
      if (d3 < m) {
        m = d3;
        s = 3;
        w = 1.0f / 3.0f;
      }
      best[i][k] = m;
      sel[k] = s;
      fit->w[i][k] = w;
    }
    LANES {
      fit->idx[k] |= (guint32) sel[k] << (2 * i);
      fit->err[k] += best[i][k];
    }
  }
}

static void
colour_lsq (const float (*p)[16][L], const ColourFit * fit, float e[2][3][L])
{
  float aa[L], ab[L], bb[L], x0[3][L], x1[3][L];
  gint i, k, ch;

  LANES {
    aa[k] = ab[k] = bb[k] = 0.0f;
    for (ch = 0; ch < 3; ch++)
      x0[ch][k] = x1[ch][k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float w = fit->w[i][k];
      float v = 1.0f - w;

      aa[k] += w * w;
      ab[k] += w * v;
      bb[k] += v * v;
      x0[0][k] += w * p[0][i][k];
      x1[0][k] += v * p[0][i][k];
      x0[1][k] += w * p[1][i][k];
      x1[1][k] += v * p[1][i][k];
      x0[2][k] += w * p[2][i][k];
      x1[2][k] += v * p[2][i][k];
    }
  }
  for (ch = 0; ch < 3; ch++) {
    LANES {
      float det = aa[k] * bb[k] - ab[k] * ab[k];
      gboolean ok = det > 1e-3f;
      float inv = 1.0f / (ok ? det : 1.0f);
      float n0 = (bb[k] * x0[ch][k] - ab[k] * x1[ch][k]) * inv;
      float n1 = (aa[k] * x1[ch][k] - ab[k] * x0[ch][k]) * inv;

      e[0][ch][k] = ok ? n0 : e[0][ch][k];
      e[1][ch][k] = ok ? n1 : e[1][ch][k];
    }
  }
}

static void
keep_better (ColourFit * best, const ColourFit * cur)
{
  gint k, ch;

  LANES {
    if (cur->err[k] < best->err[k]) {
      best->err[k] = cur->err[k];
      best->idx[k] = cur->idx[k];
      for (ch = 0; ch < 3; ch++) {
        best->q[0][ch][k] = cur->q[0][ch][k];
        best->q[1][ch][k] = cur->q[1][ch][k];
      }
    }
  }
}

/* The steps of colour_encode (), inlined into it: each of its two builds
 * (BC1, BC3 colour) is then specialised as one function was. */

/* Mean and weighted covariance of the pixels, and the weighted sum of
 * their squares (pw2). @sw: the square roots of the channel weights. */
static G_ALWAYS_INLINE inline void
colour_stats (const float (*p)[16][L], const ColourParams * cp,
    const float sw[3], float mean[3][L], float cov[6][L], float pw2[L])
{
  gint i, k, ch;

  for (ch = 0; ch < 3; ch++) {
    LANES mean[ch][k] = 0.0f;
    for (i = 0; i < 16; i++)
      LANES mean[ch][k] += p[ch][i][k];
    LANES mean[ch][k] *= (1.0f / 16.0f);
  }
  LANES {
    pw2[k] = 0.0f;
    for (ch = 0; ch < 6; ch++)
      cov[ch][k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES pw2[k] += cp->w[0] * p[0][i][k] * p[0][i][k] +
        cp->w[1] * p[1][i][k] * p[1][i][k] + cp->w[2] * p[2][i][k] * p[2][i][k];
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float r = (p[0][i][k] - mean[0][k]) * sw[0];
      float g = (p[1][i][k] - mean[1][k]) * sw[1];
      float b = (p[2][i][k] - mean[2][k]) * sw[2];

      cov[0][k] += r * r;
      cov[1][k] += r * g;
      cov[2][k] += r * b;
      cov[3][k] += g * g;
      cov[4][k] += g * b;
      cov[5][k] += b * b;
    }
  }
}

/* The principal axis @v: start from the covariance row of the largest
 * variance, then power iteration, renormalised by the largest component */
static G_ALWAYS_INLINE inline void
colour_axis (float cov[6][L], float v[3][L])
{
  gint k, it;

  LANES {
    gboolean rr = cov[0][k] >= cov[3][k] && cov[0][k] >= cov[5][k];
    gboolean gg = !rr && cov[3][k] >= cov[5][k];

    v[0][k] = rr ? cov[0][k] : (gg ? cov[1][k] : cov[2][k]);
    v[1][k] = rr ? cov[1][k] : (gg ? cov[3][k] : cov[4][k]);
    v[2][k] = rr ? cov[2][k] : (gg ? cov[4][k] : cov[5][k]);
  }
  for (it = 0; it < 3; it++) {
    LANES {
      float x = cov[0][k] * v[0][k] + cov[1][k] * v[1][k] + cov[2][k] * v[2][k];
      float y = cov[1][k] * v[0][k] + cov[3][k] * v[1][k] + cov[4][k] * v[2][k];
      float z = cov[2][k] * v[0][k] + cov[4][k] * v[1][k] + cov[5][k] * v[2][k];
      float ax = x < 0 ? -x : x, ay = y < 0 ? -y : y, az = z < 0 ? -z : z;
      float m = ax > ay ? ax : ay;
      float inv;

      m = m > az ? m : az;
      inv = m > 1e-20f ? 1.0f / m : 0.0f;
      v[0][k] = x * inv;
      v[1][k] = y * inv;
      v[2][k] = z * inv;
    }
  }
}

/* The extreme pixels along the axis @v become the endpoints @e (the mean
 * for a lane whose pixels project nowhere) */
static G_ALWAYS_INLINE inline void
colour_extremes (const float (*p)[16][L], const float sw[3],
    float v[3][L], float mean[3][L], float e[2][3][L])
{
  float tmin[L], tmax[L];
  gint i, k, ch;

  LANES {
    tmin[k] = 1e30f;
    tmax[k] = -1e30f;
    for (ch = 0; ch < 3; ch++)
      e[0][ch][k] = e[1][ch][k] = mean[ch][k];
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float t = p[0][i][k] * sw[0] * v[0][k] + p[1][i][k] * sw[1] * v[1][k]
          + p[2][i][k] * sw[2] * v[2][k];
      gboolean hi = t > tmax[k], lo = t < tmin[k];

      tmax[k] = hi ? t : tmax[k];
      e[0][0][k] = hi ? p[0][i][k] : e[0][0][k];
      e[0][1][k] = hi ? p[1][i][k] : e[0][1][k];
      e[0][2][k] = hi ? p[2][i][k] : e[0][2][k];
      tmin[k] = lo ? t : tmin[k];
      e[1][0][k] = lo ? p[0][i][k] : e[1][0][k];
      e[1][1][k] = lo ? p[1][i][k] : e[1][1][k];
      e[1][2][k] = lo ? p[2][i][k] : e[1][2][k];
    }
  }
}

/* Starts: the extreme pixels @ext inset by 1/16 of their distance (BC1
 * spends two of its four levels on the ends, and inset ends fit the
 * typical spread of a block better; van Waveren 2006), then, for high
 * quality, the extreme pixels themselves. From each start, least squares
 * runs as a chain: every step refits the endpoints to the previous step's
 * indices, even when that step was worse, which is how a poor first
 * clustering is left behind. The best result seen is kept in @fit. */
static G_ALWAYS_INLINE inline void
colour_fit_starts (const float (*p)[16][L], const ColourParams * cp,
    const gint * fixed_blue, const float *pw2, gint quality,
    float ext[2][3][L], ColourFit * fit)
{
  float e[2][3][L];
  ColourFit cur;
  gint start, n_starts, it, iters, k, ch;

  iters = quality == 0 ? 0 : (quality == 1 ? 1 : 4);
  n_starts = quality == 2 ? 2 : 1;
  for (start = 0; start < n_starts; start++) {
    if (start == 0) {
      for (ch = 0; ch < 3; ch++) {
        LANES {
          float d = (ext[0][ch][k] - ext[1][ch][k]) * (1.0f / 16.0f);
          e[0][ch][k] = ext[0][ch][k] - d;
          e[1][ch][k] = ext[1][ch][k] + d;
        }
      }
    } else {
      memcpy (e, ext, sizeof (e));
    }
    if (start == 0 && iters == 0) {
      /* fast: one evaluation, straight into the result */
      colour_eval (p, cp, fixed_blue, pw2, e, fit);
      continue;
    }
    colour_eval (p, cp, fixed_blue, pw2, e, &cur);
    if (start == 0) {
      *fit = cur;
    } else {
      keep_better (fit, &cur);
    }
    for (it = 0; it < iters; it++) {
      colour_lsq (p, &cur, e);
      colour_eval (p, cp, fixed_blue, pw2, e, &cur);
      keep_better (fit, &cur);
    }
  }
}

/* High: local search on the quantised endpoints of @fit, one step up or
 * down in each channel of each endpoint, kept when the exact error drops */
static G_ALWAYS_INLINE inline void
colour_local_search (const float (*p)[16][L], const ColourParams * cp,
    const gint * fixed_blue, const float *pw2, ColourFit * fit)
{
  float e[2][3][L];
  ColourFit cur;
  gint round, j, d, k, ch, n_ch = cp->fixed_blue ? 2 : 3;

  for (round = 0; round < 2; round++) {
    for (j = 0; j < 2; j++) {
      for (ch = 0; ch < n_ch; ch++) {
        for (d = -1; d <= 1; d += 2) {
          gint top = ch == 1 ? 63 : 31, c2;

          /* endpoints as their exact expansions: requantising gives the
           * same values back */
          for (c2 = 0; c2 < 3; c2++) {
            LANES {
              gint32 q0 = fit->q[0][c2][k], q1 = fit->q[1][c2][k];

              if (c2 == ch && j == 0)
                q0 = CLAMP (q0 + d, 0, top);
              if (c2 == ch && j == 1)
                q1 = CLAMP (q1 + d, 0, top);
              e[0][c2][k] = (float) (c2 == 1 ? expand6 (q0) : expand5 (q0));
              e[1][c2][k] = (float) (c2 == 1 ? expand6 (q1) : expand5 (q1));
            }
          }
          colour_eval (p, cp, fixed_blue, pw2, e, &cur);
          keep_better (fit, &cur);
        }
      }
    }
  }
}

/* The single-colour candidate, taken into @fit where it is no worse: every
 * pixel at the colour BC1 comes nearest to the block's mean with optimal
 * single-colour endpoints (exact for solid blocks; near-solid blocks,
 * common in photographs, also end up here, where two endpoints would both
 * quantise to one colour). */
static G_ALWAYS_INLINE inline void
colour_single (const float (*p)[16][L], const ColourParams * cp,
    const gint * fixed_blue, float mean[3][L], ColourFit * fit)
{
  gint32 sq[2][3][L];
  float sval[3][L], serr[L];
  gboolean single[L];
  gint i, k, ch;

  /* a channel at a time, so that the table loads vectorise (gathers) */
  for (ch = 0; ch < 3; ch++) {
    const guint32 *table = ch == 1 ? bc_tables.single6x : bc_tables.single5x;
    const gboolean fixed = ch == 2 && cp->fixed_blue;

    LANES {
      gint m = (gint) (clamp255 (mean[ch][k]) + 0.5f);
      guint32 t = table[m];
      gint a = fixed ? fixed_blue[k] : (gint) (t & 0xff);
      gint b = fixed ? fixed_blue[k] : (gint) ((t >> 8) & 0xff);

      sval[ch][k] = fixed ? (float) expand5 (a) : (float) (gint) (t >> 16);
      sq[0][ch][k] = a;
      sq[1][ch][k] = b;
    }
  }
  LANES serr[k] = 0.0f;
  for (i = 0; i < 16; i++) {
    LANES {
      float dr = p[0][i][k] - sval[0][k], dg = p[1][i][k] - sval[1][k];
      float db = p[2][i][k] - sval[2][k];
      serr[k] += cp->w[0] * dr * dr + cp->w[1] * dg * dg + cp->w[2] * db * db;
    }
  }
  LANES {
    single[k] = serr[k] <= fit->err[k];
    for (ch = 0; ch < 3; ch++) {
      fit->q[0][ch][k] = single[k] ? sq[0][ch][k] : fit->q[0][ch][k];
      fit->q[1][ch][k] = single[k] ? sq[1][ch][k] : fit->q[1][ch][k];
    }
    /* every pixel (2 * c0 + c1) / 3 */
    fit->idx[k] = single[k] ? 0xAAAAAAAAu : fit->idx[k];
  }
}

/* Packs @fit (bc_colour_words ()) */
static G_ALWAYS_INLINE inline void
colour_pack (const ColourFit * fit, gboolean bc1, guint n_lanes,
    guint8 * out, gsize stride)
{
  guint32 words[L][2];
  gint k;

  LANES {
    guint32 c0 = (guint32) ((fit->q[0][0][k] << 11) | (fit->q[0][1][k] << 5)
        | fit->q[0][2][k]);
    guint32 c1 = (guint32) ((fit->q[1][0][k] << 11) | (fit->q[1][1][k] << 5)
        | fit->q[1][2][k]);

    bc_colour_words (c0, c1, fit->idx[k], bc1, words[k]);
  }
  for (k = 0; k < (gint) n_lanes; k++)
    memcpy (out + k * stride, words[k], 8);
}

/* Encodes the colour part of a batch. p: three channel planes. Writes the
 * 8-byte colour block of lane k at out + k * stride. */
static void
colour_encode (const float (*p)[16][L], const ColourParams * cp,
    const gint * fixed_blue, gint quality, guint n_lanes, guint8 * out,
    gsize stride)
{
  float mean[3][L], cov[6][L], v[3][L], sw[3], pw2[L];
  float ext[2][3][L];
  ColourFit fit;
  gint ch;

  for (ch = 0; ch < 3; ch++)
    sw[ch] = cp->w[ch] == 1.0f ? 1.0f : (cp->w[ch] == 2.0f ? 1.41421356f :
        (cp->w[ch] == 3.0f ? 1.73205081f : 0.0f));

  colour_stats (p, cp, sw, mean, cov, pw2);
  colour_axis (cov, v);
  colour_extremes (p, sw, v, mean, ext);
  colour_fit_starts (p, cp, fixed_blue, pw2, quality, ext, &fit);
  if (quality == 2)
    colour_local_search (p, cp, fixed_blue, pw2, &fit);
  colour_single (p, cp, fixed_blue, mean, &fit);
  colour_pack (&fit, cp->bc1, n_lanes, out, stride);
}

/* ------------------------------------------------------------------------ */
/* alpha / single channel block (BC3 alpha, YCoCg Y, BC4)                    */

/* Codes of one channel for 8-value-mode endpoints c0 >= c1, with their
 * squared error and the weight of c0 in each pixel's value. The levels
 * c1 = l0 <= l1 <= ... <= l7 = c0 are the decoder's (truncated) values; a
 * pixel takes the nearest, found by counting the midpoints below it. */
static void
alpha_eval (const float (*p)[L], const gint * c0, const gint * c1,
    gint32 (*code)[L], float (*wsel)[L], float *err)
{
  float lvl[8][L], mid[7][L];
  gint i, j, k;

  LANES {
    for (j = 0; j < 8; j++)
      lvl[j][k] = (float) ((j * c0[k] + (7 - j) * c1[k]) / 7);
    for (j = 0; j < 7; j++)
      mid[j][k] = (lvl[j][k] + lvl[j + 1][k]) * 0.5f;
    err[k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float v = p[i][k], val = lvl[0][k], n = 0.0f, d;
      gint32 l;

      /* unrolled: the level is the number of midpoints below v */
#define STEP(j) G_STMT_START { \
        n += v > mid[j][k] ? 1.0f : 0.0f; \
        val = v > mid[j][k] ? lvl[j + 1][k] : val; \
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
      wsel[i][k] = n * (1.0f / 7.0f);
      /* level 7 is code 0 (c0), level 0 code 1 (c1), level l code 8 - l */
      l = 8 - (gint32) n;
      l = l == 1 ? 0 : l;
      code[i][k] = l == 8 ? 1 : l;
    }
  }
}

/* Encodes one channel as an 8-byte BC3 alpha / BC4 block, in 8-value mode
 * (a0 > a1) unless the channel is flat. Lane k goes to out + k * stride. */
static void
alpha_encode (const float (*p)[L], gint quality, guint n_lanes, guint8 * out,
    gsize stride)
{
  float vmin[L], vmax[L], err[L], try_err[L];
  float w[16][L], try_w[16][L];
  gint a0[L], a1[L], c0[L], c1[L];
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
    a0[k] = (gint) (vmax[k] + 0.5f);
    a1[k] = (gint) (vmin[k] + 0.5f);
  }
  alpha_eval (p, a0, a1, codes, w, err);

  iters = quality == 0 ? 0 : (quality == 1 ? 1 : 2);
  for (it = 0; it < iters; it++) {
    float aa[L], ab[L], bb[L], x0[L], x1[L];

    /* least-squares refit of the endpoints to the chosen codes */
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

      c0[k] = a0[k];
      c1[k] = a1[k];
      if (det > 1e-3f) {
        float inv = 1.0f / det;
        gint n0 = (gint) (clamp255 ((bb[k] * x0[k] - ab[k] * x1[k]) * inv) +
            0.5f);
        gint n1 = (gint) (clamp255 ((aa[k] * x1[k] - ab[k] * x0[k]) * inv) +
            0.5f);
        if (n0 > n1) {
          c0[k] = n0;
          c1[k] = n1;
        }
      }
    }
    alpha_eval (p, c0, c1, try_codes, try_w, try_err);
    for (i = 0; i < 16; i++) {
      LANES {
        gboolean better = try_err[k] < err[k];
        w[i][k] = better ? try_w[i][k] : w[i][k];
        codes[i][k] = better ? try_codes[i][k] : codes[i][k];
      }
    }
    LANES {
      gboolean better = try_err[k] < err[k];

      a0[k] = better ? c0[k] : a0[k];
      a1[k] = better ? c1[k] : a1[k];
      err[k] = better ? try_err[k] : err[k];
    }
  }

  /* pack the 48 bits of codes as two 32-bit words per lane: pixels 0-9 and
   * the low bits of pixel 10, then the rest; a flat channel (a0 == a1) is
   * code 0 everywhere, in 6-value mode */
  {
    guint32 words[L][2];

    LANES {
      guint32 lo = 0, hi = 0;
      gboolean flat = a0[k] == a1[k];

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

/* ------------------------------------------------------------------------ */
/* formats                                                                   */

#if defined (BC_KERNEL_PORTABLE) || !(defined (__SSE2__) || defined (__AVX2__))

static void
gather4 (BcBatch * batch, const guint8 * const rows[4], const gint shift[4],
    gboolean need_alpha)
{
  gint y, x, k, c, nc = need_alpha && shift[3] >= 0 ? 4 : 3;

  for (y = 0; y < 4; y++) {
    for (x = 0; x < 4; x++) {
      for (c = 0; c < nc; c++) {
        float *dst = batch->px[c][y * 4 + x];
        const guint8 *src = rows[y] + x * 4 + shift[c] / 8;

        for (k = 0; k < L; k++)
          dst[k] = src[k * 16];
      }
      if (need_alpha && shift[3] < 0)
        for (k = 0; k < L; k++)
          batch->px[3][y * 4 + x][k] = 255.0f;
    }
  }
}

static void
gather4_int (BcBatchInt * batch, const guint8 * const rows[4],
    const gint shift[4])
{
  gint y, x, k, c;

  for (y = 0; y < 4; y++)
    for (x = 0; x < 4; x++)
      for (c = 0; c < 3; c++)
        for (k = 0; k < L; k++)
          batch->px[c][y * 4 + x][k] = rows[y][k * 16 + x * 4 + shift[c] / 8];
}

#else

#include <immintrin.h>

/* Transposes the 8 blocks x 4 pixels of one picture row from lane @lane0
 * on so that each vector holds one pixel position of those 8 lanes, then
 * splits channels: into @batch as floats, or (@ibatch non-NULL) the
 * colour channels into @ibatch as integers. */
static G_ALWAYS_INLINE inline void
gather8 (BcBatch * batch, BcBatchInt * ibatch, const guint8 * const rows[4],
    const gint shift[4], gboolean need_alpha, gint lane0)
{
  gint y, x, c, nc = need_alpha && shift[3] >= 0 && !ibatch ? 4 : 3;

  for (y = 0; y < 4; y++) {
#ifdef __AVX2__
    const __m256i *src = (const __m256i *) (rows[y] + lane0 * 16);
    const __m256i order = _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i mask = _mm256_set1_epi32 (0xff);
    __m256i v0 = _mm256_loadu_si256 (src + 0);
    __m256i v1 = _mm256_loadu_si256 (src + 1);
    __m256i v2 = _mm256_loadu_si256 (src + 2);
    __m256i v3 = _mm256_loadu_si256 (src + 3);
    __m256i t0 = _mm256_unpacklo_epi32 (v0, v1);
    __m256i t1 = _mm256_unpackhi_epi32 (v0, v1);
    __m256i t2 = _mm256_unpacklo_epi32 (v2, v3);
    __m256i t3 = _mm256_unpackhi_epi32 (v2, v3);
    __m256i col[4];

    /* lanes come out as 0 2 4 6 1 3 5 7; vpermd puts them in order */
    col[0] = _mm256_permutevar8x32_epi32 (_mm256_unpacklo_epi64 (t0, t2),
        order);
    col[1] = _mm256_permutevar8x32_epi32 (_mm256_unpackhi_epi64 (t0, t2),
        order);
    col[2] = _mm256_permutevar8x32_epi32 (_mm256_unpacklo_epi64 (t1, t3),
        order);
    col[3] = _mm256_permutevar8x32_epi32 (_mm256_unpackhi_epi64 (t1, t3),
        order);
    for (x = 0; x < 4; x++) {
      for (c = 0; c < nc; c++) {
        __m256i v = _mm256_and_si256 (_mm256_srl_epi32 (col[x],
                _mm_cvtsi32_si128 (shift[c])), mask);
        if (ibatch)
          _mm_storeu_si128 ((__m128i *) (ibatch->px[c][y * 4 + x] + lane0),
              _mm_packs_epi32 (_mm256_castsi256_si128 (v),
                  _mm256_extracti128_si256 (v, 1)));
        else
          _mm256_storeu_ps (batch->px[c][y * 4 + x] + lane0,
              _mm256_cvtepi32_ps (v));
      }
      if (need_alpha && shift[3] < 0 && !ibatch)
        _mm256_storeu_ps (batch->px[3][y * 4 + x] + lane0,
            _mm256_set1_ps (255.0f));
    }
#else
    const __m128i *src = (const __m128i *) (rows[y] + lane0 * 16);
    const __m128i mask = _mm_set1_epi32 (0xff);
    gint h;

    for (h = 0; h < 2; h++) {
      __m128i v0 = _mm_loadu_si128 (src + 4 * h + 0);
      __m128i v1 = _mm_loadu_si128 (src + 4 * h + 1);
      __m128i v2 = _mm_loadu_si128 (src + 4 * h + 2);
      __m128i v3 = _mm_loadu_si128 (src + 4 * h + 3);
      __m128i t0 = _mm_unpacklo_epi32 (v0, v1);
      __m128i t1 = _mm_unpackhi_epi32 (v0, v1);
      __m128i t2 = _mm_unpacklo_epi32 (v2, v3);
      __m128i t3 = _mm_unpackhi_epi32 (v2, v3);
      __m128i col[4];

      col[0] = _mm_unpacklo_epi64 (t0, t2);
      col[1] = _mm_unpackhi_epi64 (t0, t2);
      col[2] = _mm_unpacklo_epi64 (t1, t3);
      col[3] = _mm_unpackhi_epi64 (t1, t3);
      for (x = 0; x < 4; x++) {
        for (c = 0; c < nc; c++) {
          __m128i v = _mm_and_si128 (_mm_srl_epi32 (col[x],
                  _mm_cvtsi32_si128 (shift[c])), mask);
          if (ibatch)
            _mm_storel_epi64 ((__m128i *) (ibatch->px[c][y * 4 + x] +
                    lane0 + 4 * h), _mm_packs_epi32 (v, v));
          else
            _mm_storeu_ps (batch->px[c][y * 4 + x] + lane0 + 4 * h,
                _mm_cvtepi32_ps (v));
        }
        if (need_alpha && shift[3] < 0 && !ibatch)
          _mm_storeu_ps (batch->px[3][y * 4 + x] + lane0 + 4 * h,
              _mm_set1_ps (255.0f));
      }
    }
#endif
  }
}

#if defined (__AVX512F__) && defined (__AVX512BW__) && BC_LANES == 16

/* gather8 () for all 16 lanes at once in 512-bit vectors: each 128-bit
 * part of a row's four vectors is one block, so a 4x4 transpose within the
 * parts gives, for each pixel position, the 16 blocks in the order
 * 0 4 8 12 1 5 9 13 ..., which one vpermd puts in order. (The unpacks are
 * the zero-masking forms with every lane kept: GCC 12's plain ones read an
 * undefined vector and warn.) */
static G_ALWAYS_INLINE inline void
gather16 (BcBatch * batch, BcBatchInt * ibatch, const guint8 * const rows[4],
    const gint shift[4], gboolean need_alpha)
{
  const __m512i order = _mm512_setr_epi32 (0, 4, 8, 12, 1, 5, 9, 13,
      2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i mask = _mm512_set1_epi32 (0xff);
  gint y, x, c, nc = need_alpha && shift[3] >= 0 && !ibatch ? 4 : 3;

  for (y = 0; y < 4; y++) {
    const guint8 *src = rows[y];
    __m512i v0 = _mm512_loadu_si512 (src + 0);
    __m512i v1 = _mm512_loadu_si512 (src + 64);
    __m512i v2 = _mm512_loadu_si512 (src + 128);
    __m512i v3 = _mm512_loadu_si512 (src + 192);
    __m512i t0 = _mm512_maskz_unpacklo_epi32 (0xffff, v0, v1);
    __m512i t1 = _mm512_maskz_unpackhi_epi32 (0xffff, v0, v1);
    __m512i t2 = _mm512_maskz_unpacklo_epi32 (0xffff, v2, v3);
    __m512i t3 = _mm512_maskz_unpackhi_epi32 (0xffff, v2, v3);
    __m512i col[4];

    col[0] =
        _mm512_maskz_permutexvar_epi32 (0xffff, order,
        _mm512_maskz_unpacklo_epi64 (0xff, t0, t2));
    col[1] =
        _mm512_maskz_permutexvar_epi32 (0xffff, order,
        _mm512_maskz_unpackhi_epi64 (0xff, t0, t2));
    col[2] =
        _mm512_maskz_permutexvar_epi32 (0xffff, order,
        _mm512_maskz_unpacklo_epi64 (0xff, t1, t3));
    col[3] =
        _mm512_maskz_permutexvar_epi32 (0xffff, order,
        _mm512_maskz_unpackhi_epi64 (0xff, t1, t3));
    for (x = 0; x < 4; x++) {
      for (c = 0; c < nc; c++) {
        __m512i v = _mm512_and_si512 (_mm512_maskz_srl_epi32 (0xffff, col[x],
                _mm_cvtsi32_si128 (shift[c])), mask);

        if (ibatch)
          _mm256_storeu_si256 ((__m256i *) ibatch->px[c][y * 4 + x],
              _mm512_maskz_cvtepi32_epi16 (0xffff, v));
        else
          _mm512_storeu_ps (batch->px[c][y * 4 + x],
              _mm512_maskz_cvtepi32_ps (0xffff, v));
      }
      if (need_alpha && shift[3] < 0 && !ibatch)
        _mm512_storeu_ps (batch->px[3][y * 4 + x], _mm512_set1_ps (255.0f));
    }
  }
}

static void
gather4 (BcBatch * batch, const guint8 * const rows[4], const gint shift[4],
    gboolean need_alpha)
{
  gather16 (batch, NULL, rows, shift, need_alpha);
}

static void
gather4_int (BcBatchInt * batch, const guint8 * const rows[4],
    const gint shift[4])
{
  gather16 (NULL, batch, rows, shift, FALSE);
}

#else

/* A batch is BC_LANES / 8 groups of 8 blocks */
static void
gather4 (BcBatch * batch, const guint8 * const rows[4], const gint shift[4],
    gboolean need_alpha)
{
  gint lane0;

  for (lane0 = 0; lane0 < L; lane0 += 8)
    gather8 (batch, NULL, rows, shift, need_alpha, lane0);
}

static void
gather4_int (BcBatchInt * batch, const guint8 * const rows[4],
    const gint shift[4])
{
  gint lane0;

  for (lane0 = 0; lane0 < L; lane0 += 8)
    gather8 (NULL, batch, rows, shift, FALSE, lane0);
}

#endif

#endif

static void
kernel_bc1 (const BcBatch * batch, guint n_lanes, gint quality, guint8 * out)
{
  static const ColourParams cp = { {1.0f, 1.0f, 1.0f}, FALSE, TRUE };

  colour_encode (batch->px, &cp, NULL, quality, n_lanes, out, 8);
}

static void
kernel_bc3 (const BcBatch * batch, guint n_lanes, gint quality, guint8 * out)
{
  static const ColourParams cp = { {1.0f, 1.0f, 1.0f}, FALSE, FALSE };

  alpha_encode (batch->px[3], quality, n_lanes, out, 16);
  colour_encode (batch->px, &cp, NULL, quality, n_lanes, out + 8, 16);
}

static void
kernel_ycocg_bc3 (const BcBatch * batch, guint n_lanes, gint quality,
    guint8 * out)
{
  static const ColourParams cp = { {2.0f, 3.0f, 0.0f}, TRUE, FALSE };
  float y[16][L], c[3][16][L], m[L], scale[L];
  gint code[L];
  gint i, k;

  LANES m[k] = 0.0f;
  for (i = 0; i < 16; i++) {
    LANES {
      float r = batch->px[0][i][k], g = batch->px[1][i][k];
      float b = batch->px[2][i][k];
      float co = (r - b) * 0.5f;
      float cg = (2.0f * g - r - b) * 0.25f;
      float aco = co < 0 ? -co : co, acg = cg < 0 ? -cg : cg;

      y[i][k] = (r + 2.0f * g + b) * 0.25f;
      c[0][i][k] = co;
      c[1][i][k] = cg;
      m[k] = aco > m[k] ? aco : m[k];
      m[k] = acg > m[k] ? acg : m[k];
    }
  }
  /* the largest scale that keeps Co and Cg in range once offset by 128 */
  LANES {
    scale[k] = m[k] < 31.875f ? 4.0f : (m[k] < 63.75f ? 2.0f : 1.0f);
    code[k] = (gint) scale[k] - 1;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      c[0][i][k] = clamp255 (c[0][i][k] * scale[k] + 128.0f);
      c[1][i][k] = clamp255 (c[1][i][k] * scale[k] + 128.0f);
      c[2][i][k] = 0.0f;
    }
  }

  alpha_encode ((const float (*)[L]) y, quality, n_lanes, out, 16);
  colour_encode ((const float (*)[16][L]) c, &cp, code, quality, n_lanes,
      out + 8, 16);
}

const BcKernels BC_PASTE (bc_kernels_, BC_KERNEL_SUFFIX) = {
  gather4,
  kernel_bc1,
  gather4_int,
  BC_KERNEL_NAME (bc_kernel_bc1_fast),
  BC_KERNEL_NAME (bc_kernel_ycocg_fast),
  kernel_bc3,
  kernel_ycocg_bc3,
  BC_KERNEL_NAME (bc_kernel_bc4_rows),
  BC_KERNEL_NAME (bc_kernel_bc5_rows),
  BC_KERNEL_NAME (bc_split2),
  BC_KERNEL_NAME (bc_kernel_bc7),
  BC_KERNEL_NAME (bc_yuv_rows),
  BC_KERNEL_NAME (bc_kernel_bc6h),
};
