/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* BC7 (BPTC) block encoder.
 *
 * Like the other kernels, everything works on BC_LANES blocks at once with
 * the lane as the innermost loop, so the compiler turns each step into
 * vector instructions; this file is compiled once per instruction set
 * (portable C, SSE2, AVX2, AVX-512) with floating point contraction off,
 * and lanes never interact: every build writes the same blocks. Where
 * blocks of a batch need different partitions, each lane carries its own
 * subset masks. Mode 6 leaves alpha out of batches that are opaque in
 * every lane, which changes no result (its terms are 0).
 *
 * Modes written, by quality:
 *
 *  - fast: mode 6 (one subset, RGBA, 7-bit endpoints + a p-bit each, 4-bit
 *    indices): the real-time subset;
 *  - normal: mode 6, and modes 1 (two subsets, 6 bits + a shared p-bit,
 *    3-bit indices) and 3 (two subsets, 7 bits + p-bits, 2-bit indices)
 *    on the two most promising of the 64 partitions;
 *  - high: modes 6, 1 and 3 on the six most promising partitions, and the
 *    three-subset modes 0 (4 bits + p-bits, 3-bit indices, 16 partitions)
 *    and 2 (5 bits, 2-bit indices, 64 partitions) on their best three.
 *
 * The block keeps the mode with the lowest squared RGBA error. Modes 0 to 3
 * have no alpha (it decodes as 255), so they only win on opaque blocks;
 * modes 4, 5 and 7 are never written (except mode 5 for solid blocks).
 * Only a lossless mode 6 block skips the other modes.
 *
 * Mode 6 (fast, and normal's mode 6) is fitted without masks: the mean
 * and covariance of the 16 pixels, the principal axis by two
 * power-iteration steps from the covariance row of the largest variance,
 * the extreme projections on it as endpoints. With the p-bit a mode 6
 * channel is 8 bits whose lowest bit is the p-bit, so quantising is a
 * rounding per p-bit, and each endpoint takes the p-bit of smaller error.
 * Indices are the projections onto the quantised segment, rounded; then
 * least-squares refits of the endpoints to those indices, re-quantised and
 * re-indexed: fast does one and keeps it; normal does three and keeps the
 * one of least error (computed with the decoder's exact interpolation).
 *
 * The subsets of the partitioned modes (and high's mode 6) are fitted in
 * one pass over the 16 pixels, each pixel using its own subset's values:
 * the principal axis of each subset (power iteration on its covariance;
 * modes 1 and 3 of a partition share them), endpoints quantised to the
 * mode's precision choosing the p-bits that fit best, indices by
 * projection onto the quantised endpoints (high also tries each index's
 * neighbours with the exact decoded value), and least-squares refits (normal
 * one, high three), keeping each subset's best. High also tries every p-bit
 * combination of the best endpoints. A block whose alpha is 255 everywhere
 * keeps alpha endpoints of 255 in mode 6 (both p-bits 1), so it decodes
 * opaque.
 *
 * Partitions are ranked without encoding them: for every partition the
 * sums of each subset's pixels and their products (four lookups in tables
 * of every subset of a row's pixels) give its covariance, and the score is
 * the energy off each subset's principal axis (two power-iteration steps
 * from (1, 1, 1), then the Rayleigh quotient) plus the quantisation error
 * along it for 3-bit indices, sum over subsets of
 * (trace - lambda) + lambda / 49.
 *
 * The anchor pixels (pixel 0, and the subsets' anchors of the partition)
 * must have an index below half the range: subsets whose anchor index is
 * too high swap their endpoints and mirror their indices, which decodes to
 * the same pixels (the weights are symmetric).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcencode-kernel.h"

#define L BC_LANES
#define LANES BC_FOR_LANES (L)

/* power-iteration steps of the mode 6 fit; least-squares refits of fast */
#define MODE6_POWER_ITERS 2
#define FAST_REFITS 1

typedef struct
{
  gint mode;
  gint ns;                      /* subsets */
  gint cb;                      /* stored colour bits */
  gint ab;                      /* stored alpha bits (0: alpha is 255) */
  gint pbit;                    /* 0: none, 1: one per subset, 2: one per endpoint */
  gint ib;                      /* index bits */
  gint pb;                      /* partition bits */
} ModeInfo;

static const ModeInfo mode0 = { 0, 3, 4, 0, 2, 3, 4 };
static const ModeInfo mode1 = { 1, 2, 6, 0, 1, 3, 6 };
static const ModeInfo mode2 = { 2, 3, 5, 0, 0, 2, 6 };
static const ModeInfo mode3 = { 3, 2, 7, 0, 2, 2, 6 };
static const ModeInfo mode6 = { 6, 1, 7, 7, 2, 4, 0 };

/* How hard a fit tries */
typedef struct
{
  gint refits;                  /* least-squares refits */
  gboolean exact;               /* indices: also try the neighbours */
  gboolean combos;              /* every p-bit combination of the best */
} Effort;

typedef struct
{
  float err[L];
  gint32 mode[L];
  gint32 part[L];
  gint32 q[3][2][4][L];         /* stored endpoint bits, p-bit excluded */
  gint32 pb[3][2][L];           /* p-bits (one per subset: both equal) */
  gint32 idx[16][L];
} Bc7Block;

/* an n-bit value (5 <= n <= 8) expanded to 8 bits by replicating its top
 * bits */
#define cst(a) ((const float (*)[L]) (a))

static inline gint32
expand (gint32 x, gint n)
{
  return ((x << (8 - n)) | (x >> (2 * n - 8))) & 0xff;
}

/* The stored value q (0 .. 2^cb - 1) whose expansion e with p-bit p
 * (p < 0: no p-bit) is nearest to v, returned as (q << 8) | e. The
 * estimate is off by at most one, so its neighbours are tried. */
static inline gint32
quantize (float v, gint cb, gint32 p)
{
  const gint n = p >= 0 ? cb + 1 : cb;
  const gint32 top = (1 << cb) - 1, pp = p >= 0 ? p : 0;
  const float c = clamp255 (v);
  const float xf = c * ((float) ((1 << n) - 1) * (1.0f / 255.0f));
  gint32 q0, qa, qb, qc, ea, eb, ec, q, ee;
  float da, db, dc, dd;

  if (p >= 0 && n == 8) {
    /* the expansion is the value itself: round */
    q = (gint32) ((c - (float) pp) * 0.5f + 0.5f);
    q = q > top ? top : q;
    return (q << 8) | (q << 1) | pp;
  }
  q0 = p >= 0 ? (gint32) ((xf - (float) pp) * 0.5f + 0.5f) :
      (gint32) (xf + 0.5f);
  q0 = q0 < 1 ? 1 : (q0 > top - 1 ? top - 1 : q0);
  qa = q0 - 1;
  qb = q0;
  qc = q0 + 1;
  ea = expand (p >= 0 ? (qa << 1) | pp : qa, n);
  eb = expand (p >= 0 ? (qb << 1) | pp : qb, n);
  ec = expand (p >= 0 ? (qc << 1) | pp : qc, n);
  da = c - (float) ea;
  db = c - (float) eb;
  dc = c - (float) ec;
  da = da < 0.0f ? -da : da;
  db = db < 0.0f ? -db : db;
  dc = dc < 0.0f ? -dc : dc;
  q = qa;
  ee = ea;
  dd = da;
  q = db < dd ? qb : q;
  ee = db < dd ? eb : ee;
  dd = db < dd ? db : dd;
  q = dc < dd ? qc : q;
  ee = dc < dd ? ec : ee;
  return (q << 8) | ee;
}

/* ------------------------------------------------------------------------ */
/* one subset                                                                */

typedef struct
{
  gint32 q[2][4][L];
  gint32 pb[2][L];
  gint32 e[2][4][L];            /* decoded 8-bit endpoints */
} Endpoints;

/* Quantises float endpoints ef for mode @mi. @combo < 0 picks the p-bits
 * that fit each endpoint (or, shared, both) best; else bit e of @combo is
 * the p-bit of endpoint e. Opaque lanes of modes with alpha get alpha 255
 * exactly (p-bits 1). Modes without alpha decode alpha as 255. */
static void
quantize_endpoints (const ModeInfo * mi, float ef[2][4][L],
    const gboolean * opaque, gint combo, Endpoints * ep)
{
  const gint nc = mi->ab ? 4 : 3;
  gint32 q[2][2][4][L], x[2][2][4][L], p[2][L];
  float d[2][2][L];
  gint e, c, k, pv;

  if (mi->pbit == 0) {
    for (e = 0; e < 2; e++) {
      for (c = 0; c < 4; c++) {
        const gint bits = c < 3 ? mi->cb : mi->ab;

        if (c < nc) {
          LANES {
            gint32 r = quantize (ef[e][c][k], bits, -1);

            ep->q[e][c][k] = r >> 8;
            ep->e[e][c][k] = r & 0xff;
          }
        } else {
          LANES {
            ep->q[e][c][k] = 0;
            ep->e[e][c][k] = 255;
          }
        }
      }
      LANES ep->pb[e][k] = 0;
    }
    return;
  }

  /* every endpoint channel with p-bit 0 and 1, and the squared error of
   * each endpoint */
  for (pv = 0; pv < 2; pv++) {
    for (e = 0; e < 2; e++) {
      LANES d[pv][e][k] = 0.0f;
      for (c = 0; c < nc; c++) {
        const gint bits = c < 3 ? mi->cb : mi->ab;

        LANES {
          float dv;
          gint32 r = quantize (ef[e][c][k], bits, pv);

          q[pv][e][c][k] = r >> 8;
          x[pv][e][c][k] = r & 0xff;
          dv = (float) x[pv][e][c][k] - clamp255 (ef[e][c][k]);
          d[pv][e][k] += dv * dv;
        }
      }
    }
  }
  LANES {
    gint32 p0, p1;

    if (combo >= 0) {
      p0 = combo & 1;
      p1 = mi->pbit == 1 ? p0 : (combo >> 1) & 1;
    } else if (mi->pbit == 1) {
      p0 = p1 = d[1][0][k] + d[1][1][k] < d[0][0][k] + d[0][1][k] ? 1 : 0;
    } else {
      p0 = d[1][0][k] < d[0][0][k] ? 1 : 0;
      p1 = d[1][1][k] < d[0][1][k] ? 1 : 0;
    }
    p0 = mi->ab && opaque[k] ? 1 : p0;
    p1 = mi->ab && opaque[k] ? 1 : p1;
    p[0][k] = p0;
    p[1][k] = p1;
  }
  for (e = 0; e < 2; e++) {
    for (c = 0; c < 4; c++) {
      if (c < nc) {
        LANES {
          gboolean one = p[e][k] != 0;

          ep->q[e][c][k] = one ? q[1][e][c][k] : q[0][e][c][k];
          ep->e[e][c][k] = one ? x[1][e][c][k] : x[0][e][c][k];
        }
      } else {
        LANES {
          ep->q[e][c][k] = 0;
          ep->e[e][c][k] = 255;
        }
      }
    }
    if (mi->ab) {
      const gint32 amax = (1 << mi->ab) - 1;

      LANES {
        ep->q[e][3][k] = opaque[k] ? amax : ep->q[e][3][k];
        ep->e[e][3][k] = opaque[k] ? 255 : ep->e[e][3][k];
      }
    }
    LANES ep->pb[e][k] = p[e][k];
  }
}

/* The squared RGBA error of pixel i decoded at weight wt (0..64) between
 * endpoints e0 and e1, given as a64[c] = 64 e0 + 32 and dd[c] = e1 - e0 */
static inline float
pixel_error (const float (*p)[16][L], const float (*a64)[L],
    const float (*dd)[L], gint i, gint k, float wt, gint nc)
{
  float e2 = 0.0f;
  gint c;

  /* ((64 - wt) e0 + wt e1 + 32) >> 6, exact in float */
  for (c = 0; c < nc; c++) {
    float v = (float) (gint32) ((a64[c][k] + wt * dd[c][k]) * 0.015625f);
    float dv = v - p[c][i][k];

    e2 += dv * dv;
  }
  return e2;
}

/* The principal axis of lane @k's covariance @cov (the upper triangle of
 * the 4x4 matrix, row by row): the row of the largest variance, then @iters
 * power iterations renormalised by the largest component. Writes the axis
 * to @axis and axis / |axis|^2 to @v: (p - mean) . v is the coefficient of
 * the projection of p on the axis. */
static inline void
principal_axis (const float (*cov)[L], gint k, gint iters, float v[4][L],
    float axis[4][L])
{
  float c00 = cov[0][k], c01 = cov[1][k], c02 = cov[2][k];
  float c03 = cov[3][k], c11 = cov[4][k], c12 = cov[5][k];
  float c13 = cov[6][k], c22 = cov[7][k], c23 = cov[8][k];
  float c33 = cov[9][k];
  float x, y, z, a, best, n2, inv, t;
  gint32 r = 0;
  gint it;

  best = c00;
  r = c11 > best ? 1 : r;
  best = c11 > best ? c11 : best;
  r = c22 > best ? 2 : r;
  best = c22 > best ? c22 : best;
  r = c33 > best ? 3 : r;
  x = r == 0 ? c00 : (r == 1 ? c01 : (r == 2 ? c02 : c03));
  y = r == 0 ? c01 : (r == 1 ? c11 : (r == 2 ? c12 : c13));
  z = r == 0 ? c02 : (r == 1 ? c12 : (r == 2 ? c22 : c23));
  a = r == 0 ? c03 : (r == 1 ? c13 : (r == 2 ? c23 : c33));
  for (it = 0; it < iters; it++) {
    float nx = c00 * x + c01 * y + c02 * z + c03 * a;
    float ny = c01 * x + c11 * y + c12 * z + c13 * a;
    float nz = c02 * x + c12 * y + c22 * z + c23 * a;
    float na = c03 * x + c13 * y + c23 * z + c33 * a;
    float ax = nx < 0 ? -nx : nx, ay = ny < 0 ? -ny : ny;
    float az = nz < 0 ? -nz : nz, aa = na < 0 ? -na : na;
    float mx = ax > ay ? ax : ay;

    mx = mx > az ? mx : az;
    mx = mx > aa ? mx : aa;
    t = mx > 1e-20f ? 1.0f / mx : 0.0f;
    x = nx * t;
    y = ny * t;
    z = nz * t;
    a = na * t;
  }
  n2 = x * x + y * y + z * z + a * a;
  inv = n2 > 1e-20f ? 1.0f / n2 : 0.0f;
  v[0][k] = x * inv;
  v[1][k] = y * inv;
  v[2][k] = z * inv;
  v[3][k] = a * inv;
  axis[0][k] = x;
  axis[1][k] = y;
  axis[2][k] = z;
  axis[3][k] = a;
}

/* Principal-axis endpoints of the pixels of a subset (mask m); alpha takes
 * part when @with_alpha, else the endpoints' alpha is 255 */
static void
fit_axis (const float (*p)[16][L], const float (*m)[L], gboolean with_alpha,
    float ef[2][4][L])
{
  const float wa = with_alpha ? 1.0f : 0.0f;
  float mean[4][L], cov[10][L], v[4][L], cnt[L], tmin[L], tmax[L];
  gint i, k, c;

  LANES {
    cnt[k] = 0.0f;
    for (c = 0; c < 4; c++)
      mean[c][k] = 0.0f;
    for (c = 0; c < 10; c++)
      cov[c][k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      cnt[k] += m[i][k];
      for (c = 0; c < 4; c++)
        mean[c][k] += m[i][k] * p[c][i][k];
    }
  }
  LANES {
    float inv = 1.0f / (cnt[k] > 0.0f ? cnt[k] : 1.0f);

    for (c = 0; c < 4; c++)
      mean[c][k] *= inv;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float r = (p[0][i][k] - mean[0][k]) * m[i][k];
      float g = (p[1][i][k] - mean[1][k]) * m[i][k];
      float b = (p[2][i][k] - mean[2][k]) * m[i][k];
      float a = (p[3][i][k] - mean[3][k]) * m[i][k] * wa;

      cov[0][k] += r * r;
      cov[1][k] += r * g;
      cov[2][k] += r * b;
      cov[3][k] += r * a;
      cov[4][k] += g * g;
      cov[5][k] += g * b;
      cov[6][k] += g * a;
      cov[7][k] += b * b;
      cov[8][k] += b * a;
      cov[9][k] += a * a;
    }
  }

  /* start from the covariance row of the largest variance, then power
   * iteration renormalised by the largest component */
  LANES {
    principal_axis (cst (cov), k, 4, v, ef[0]);
    tmin[k] = 1e30f;
    tmax[k] = -1e30f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float t = (p[0][i][k] - mean[0][k]) * v[0][k] +
          (p[1][i][k] - mean[1][k]) * v[1][k] +
          (p[2][i][k] - mean[2][k]) * v[2][k] +
          (p[3][i][k] - mean[3][k]) * v[3][k] * wa;
      gboolean in = m[i][k] > 0.0f;

      tmin[k] = in && t < tmin[k] ? t : tmin[k];
      tmax[k] = in && t > tmax[k] ? t : tmax[k];
    }
  }
  LANES {
    float lo = tmin[k] > 1e29f ? 0.0f : tmin[k];
    float hi = tmax[k] < -1e29f ? 0.0f : tmax[k];

    for (c = 0; c < 4; c++) {
      float ax = ef[0][c][k];
      float mc = c < 3 ? mean[c][k] : (with_alpha ? mean[3][k] : 255.0f);

      ax = c < 3 || with_alpha ? ax : 0.0f;
      ef[0][c][k] = clamp255 (mc + lo * ax);
      ef[1][c][k] = clamp255 (mc + hi * ax);
    }
  }
}

/* Least-squares endpoints for the weights w of the pixels of a subset (m:
 * NULL for every pixel), of the first @nc channels; lanes where the system
 * is singular keep ef */
static G_ALWAYS_INLINE inline void
refit (const float (*p)[16][L], const float (*m)[L], const float (*w)[L],
    float ef[2][4][L], gint nc)
{
  float aa[L], ab[L], bb[L], x0[4][L], x1[4][L];
  gint i, k, c;

  LANES {
    aa[k] = ab[k] = bb[k] = 0.0f;
    for (c = 0; c < 4; c++)
      x0[c][k] = x1[c][k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float mi = m ? m[i][k] : 1.0f;
      float b = w[i][k] * mi, a = (1.0f - w[i][k]) * mi;

      aa[k] += a * (1.0f - w[i][k]);
      ab[k] += a * w[i][k];
      bb[k] += b * w[i][k];
      for (c = 0; c < nc; c++) {
        x0[c][k] += a * p[c][i][k];
        x1[c][k] += b * p[c][i][k];
      }
    }
  }
  LANES {
    float det = aa[k] * bb[k] - ab[k] * ab[k];
    gboolean ok = det > 1e-3f;
    float inv = 1.0f / (ok ? det : 1.0f);

    for (c = 0; c < nc; c++) {
      float n0 = (bb[k] * x0[c][k] - ab[k] * x1[c][k]) * inv;
      float n1 = (aa[k] * x1[c][k] - ab[k] * x0[c][k]) * inv;

      ef[0][c][k] = ok ? clamp255 (n0) : ef[0][c][k];
      ef[1][c][k] = ok ? clamp255 (n1) : ef[1][c][k];
    }
  }
}

typedef struct
{
  Endpoints ep;
  gint32 idx[16][L];
  float err[L];
} SubsetFit;

static void
keep_better_fit (SubsetFit * best, const Endpoints * ep,
    gint32 (*idx)[L], const float *err)
{
  gint i, k, e, c;

  for (e = 0; e < 2; e++) {
    for (c = 0; c < 4; c++) {
      LANES {
        gboolean b = err[k] < best->err[k];

        best->ep.q[e][c][k] = b ? ep->q[e][c][k] : best->ep.q[e][c][k];
        best->ep.e[e][c][k] = b ? ep->e[e][c][k] : best->ep.e[e][c][k];
      }
    }
    LANES {
      gboolean b = err[k] < best->err[k];

      best->ep.pb[e][k] = b ? ep->pb[e][k] : best->ep.pb[e][k];
    }
  }
  for (i = 0; i < 16; i++) {
    LANES {
      gboolean b = err[k] < best->err[k];

      best->idx[i][k] = b ? idx[i][k] : best->idx[i][k];
    }
  }
  LANES best->err[k] = err[k] < best->err[k] ? err[k] : best->err[k];
}


/* Indices of the pixels of every subset of a partition (masks m) for
 * decoded endpoints ep[s].e: each pixel's projection onto its subset's
 * segment, rounded; @exact also tries the neighbouring indices with the
 * exact decoded value. Writes idx and w (the weight of endpoint 1, 0..1)
 * of every pixel and each subset's squared RGBA error err[s]. */
static void
assign_joint (const float (*p)[16][L], float (*m)[16][L], const ModeInfo * mi,
    const Endpoints * ep, gboolean exact, gint32 (*idx)[L], float (*w)[L],
    float (*err)[L])
{
  const gint32 nm1 = (1 << mi->ib) - 1, h = nm1 / 2;
  const gint ns = mi->ns;
  const float rcp = 1.0f / (float) nm1;
  float d[3][4][L], a64[3][4][L], scale[3][L], base[3][L];
  gint i, k, c, s;

  for (s = 0; s < 3; s++) {
    const Endpoints *e = &ep[s < ns ? s : 0];

    LANES {
      float dd = 0.0f;

      base[s][k] = 0.0f;
      for (c = 0; c < 4; c++) {
        d[s][c][k] = (float) (e->e[1][c][k] - e->e[0][c][k]);
        a64[s][c][k] = (float) (e->e[0][c][k] * 64 + 32);
        dd += d[s][c][k] * d[s][c][k];
        base[s][k] += (float) e->e[0][c][k] * d[s][c][k];
      }
      scale[s][k] = dd > 0.0f ? (float) nm1 / dd : 0.0f;
      err[s][k] = 0.0f;
    }
  }
  /* each pixel takes the values of its subset */
#define SEL(x) (s1 ? x (1) : (s2 ? x (2) : x (0)))
#define D(s) d[s][c][k]
#define A(s) a64[s][c][k]
#define BASE(s) base[s][k]
#define SCALE(s) scale[s][k]
  for (i = 0; i < 16; i++) {
    float pd[4][L], pa[4][L], t[L];

    LANES {
      gboolean s1 = m[1][i][k] > 0.0f, s2 = m[2][i][k] > 0.0f;

      for (c = 0; c < 4; c++) {
        pd[c][k] = SEL (D);
        pa[c][k] = SEL (A);
      }
      t[k] = (p[0][i][k] * pd[0][k] + p[1][i][k] * pd[1][k] +
          p[2][i][k] * pd[2][k] + p[3][i][k] * pd[3][k] - SEL (BASE)) *
          SEL (SCALE);
    }
    if (exact) {
      LANES {
        float tt = t[k] < 0.0f ? 0.0f : (t[k] > (float) nm1 ? (float) nm1 :
            t[k]);
        gint32 ix = (gint32) (tt + 0.5f);
        gint32 ia = ix > 0 ? ix - 1 : 0, ib = ix < nm1 ? ix + 1 : nm1;
        gint32 wa = (gint32) ((float) (ia * 64 + h) * rcp);
        gint32 wt = (gint32) ((float) (ix * 64 + h) * rcp);
        gint32 wc = (gint32) ((float) (ib * 64 + h) * rcp);
        float ea = pixel_error (p, cst (pa), cst (pd), i, k, (float) wa, 4);
        float be = pixel_error (p, cst (pa), cst (pd), i, k, (float) wt, 4);
        float ec = pixel_error (p, cst (pa), cst (pd), i, k, (float) wc, 4);

        /* the middle one unless a neighbour is strictly better */
        ix = ea < be ? ia : ix;
        wt = ea < be ? wa : wt;
        be = ea < be ? ea : be;
        ix = ec < be ? ib : ix;
        wt = ec < be ? wc : wt;
        be = ec < be ? ec : be;
        idx[i][k] = ix;
        w[i][k] = (float) wt *(1.0f / 64.0f);
        err[0][k] += m[0][i][k] * be;
        err[1][k] += m[1][i][k] * be;
        err[2][k] += m[2][i][k] * be;
      }
    } else {
      LANES {
        float tt = t[k] < 0.0f ? 0.0f : (t[k] > (float) nm1 ? (float) nm1 :
            t[k]);
        gint32 ix = (gint32) (tt + 0.5f);
        gint32 wt = (gint32) ((float) (ix * 64 + h) * rcp);
        float be = pixel_error (p, cst (pa), cst (pd), i, k, (float) wt, 4);

        idx[i][k] = ix;
        w[i][k] = (float) wt *(1.0f / 64.0f);
        err[0][k] += m[0][i][k] * be;
        err[1][k] += m[1][i][k] * be;
        err[2][k] += m[2][i][k] * be;
      }
    }
  }
#undef SEL
#undef D
#undef A
#undef BASE
#undef SCALE
}

/* Fits every subset of a partition (masks m) for mode @mi into best[s]:
 * from the principal-axis endpoints @init (NULL: computed here), then
 * eff->refits least-squares refits, keeping each subset's best, and with
 * eff->combos every p-bit combination of the best float endpoints */
static void
fit_subsets (const float (*p)[16][L], float (*m)[16][L],
    const ModeInfo * mi, const gboolean * opaque, const Effort * eff,
    float (*init)[2][4][L], SubsetFit * best)
{
  const gint ns = mi->ns;
  float ef[3][2][4][L], best_ef[3][2][4][L], w[16][L], err[3][L];
  gint32 idx[16][L];
  Endpoints ep[3];
  gint it, k, e, c, s;

  for (s = 0; s < ns; s++) {
    if (init)
      memcpy (ef[s], init[s], sizeof (ef[s]));
    else
      fit_axis (p, cst (m[s]), mi->ab != 0, ef[s]);
    quantize_endpoints (mi, ef[s], opaque, -1, &ep[s]);
  }
  assign_joint (p, m, mi, ep, eff->exact, idx, w, err);
  for (s = 0; s < ns; s++) {
    best[s].ep = ep[s];
    memcpy (best[s].idx, idx, sizeof (idx));
    memcpy (best[s].err, err[s], sizeof (err[s]));
    memcpy (best_ef[s], ef[s], sizeof (ef[s]));
  }

  for (it = 0; it < eff->refits; it++) {
    for (s = 0; s < ns; s++) {
      refit (p, cst (m[s]), cst (w), ef[s], 4);
      quantize_endpoints (mi, ef[s], opaque, -1, &ep[s]);
    }
    assign_joint (p, m, mi, ep, eff->exact, idx, w, err);
    for (s = 0; s < ns; s++) {
      for (e = 0; e < 2; e++) {
        for (c = 0; c < 4; c++) {
          LANES best_ef[s][e][c][k] = err[s][k] < best[s].err[k] ?
              ef[s][e][c][k] : best_ef[s][e][c][k];
        }
      }
      keep_better_fit (&best[s], &ep[s], idx, err[s]);
    }
  }

  /* every p-bit combination of the best float endpoints */
  if (eff->combos && mi->pbit != 0) {
    gint combo, n_combos = mi->pbit == 1 ? 2 : 4;

    for (combo = 0; combo < n_combos; combo++) {
      for (s = 0; s < ns; s++)
        quantize_endpoints (mi, best_ef[s], opaque, combo, &ep[s]);
      assign_joint (p, m, mi, ep, eff->exact, idx, w, err);
      for (s = 0; s < ns; s++)
        keep_better_fit (&best[s], &ep[s], idx, err[s]);
    }
  }
}

/* ------------------------------------------------------------------------ */
/* fast: mode 6 alone                                                        */

/* Mode 6 endpoints from float endpoints ef: with the p-bit, a channel is
 * stored as 8 bits whose lowest bit is the p-bit, so each p-bit's nearest
 * value is a rounding; the p-bit of each endpoint is the one with the
 * smaller squared error (opaque lanes: 1, alpha 255). Writes the stored
 * bits q, the p-bits and the decoded values x. */
static G_ALWAYS_INLINE inline void
quantize_mode6 (float ef[2][4][L], const gboolean * opaque,
    gint32 q[2][4][L], gint32 pb[2][L], float x[2][4][L], gint nc)
{
  gint e, c, k;

  for (e = 0; e < 2; e++) {
    LANES {
      gint32 q0[4] = { 0, 0, 0, 127 }, q1[4] = { 0, 0, 0, 127 }, p;
      float d0 = 0.0f, d1 = 0.0f;

      for (c = 0; c < nc; c++) {
        const float v = clamp255 (ef[e][c][k]);
        gint32 a = (gint32) (v * 0.5f + 0.5f);
        gint32 b = (gint32) ((v - 1.0f) * 0.5f + 0.5f);
        float da, db;

        a = a > 127 ? 127 : a;
        b = b < 0 ? 0 : b;
        da = (float) (2 * a) - v;
        db = (float) (2 * b + 1) - v;
        q0[c] = a;
        q1[c] = b;
        d0 += da * da;
        d1 += db * db;
      }
      p = d1 < d0 || opaque[k] ? 1 : 0;
      for (c = 0; c < 4; c++) {
        gint32 qq = p ? q1[c] : q0[c];

        qq = c == 3 && opaque[k] ? 127 : qq;
        q[e][c][k] = qq;
        x[e][c][k] = (float) (2 * qq + p);
      }
      pb[e][k] = p;
    }
  }
}

/* Mode 6 indices of every pixel for decoded endpoints x: the projection on
 * the segment, rounded; w (unless NULL) receives the weight of endpoint 1
 * (0..1), err (unless NULL, and only with w) the squared RGBA error */
static G_ALWAYS_INLINE inline void
indices_mode6 (const float (*p)[16][L], float x[2][4][L], gint32 (*idx)[L],
    float (*w)[L], float *err, gint nc)
{
  float d[4][L], a64[4][L], scale[L], base[L];
  gint i, k, c;

  LANES {
    float dd = 0.0f;

    base[k] = 0.0f;
    for (c = 0; c < nc; c++) {
      d[c][k] = x[1][c][k] - x[0][c][k];
      a64[c][k] = x[0][c][k] * 64.0f + 32.0f;
      dd += d[c][k] * d[c][k];
      base[k] += x[0][c][k] * d[c][k];
    }
    scale[k] = dd > 0.0f ? 15.0f / dd : 0.0f;
    if (err)
      err[k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float t = p[0][i][k] * d[0][k] + p[1][i][k] * d[1][k] +
          p[2][i][k] * d[2][k];
      gint32 ix;

      if (nc == 4)
        t += p[3][i][k] * d[3][k];
      t = (t - base[k]) * scale[k];

      t = t < 0.0f ? 0.0f : (t > 15.0f ? 15.0f : t);
      ix = (gint32) (t + 0.5f);
      idx[i][k] = ix;
    }
    if (w) {
      /* the weight of index ix, (64 ix + 7) / 15 truncated */
      LANES w[i][k] = (float) (gint32) ((float) (idx[i][k] * 64 + 7) *
          (1.0f / 15.0f)) * (1.0f / 64.0f);
    }
    if (err) {
      LANES err[k] += pixel_error (p, cst (a64), cst (d), i, k,
          w[i][k] * 64.0f, nc);
    }
  }
}

/* Mode 6 from the principal axis and @refits least-squares refits: the
 * last one (fast), or with @keep_best the one of least error, into @blk
 * (its err only with @keep_best). @nc is 4, or 3 when every lane is
 * opaque: alpha is then 255 everywhere, its mean 255 and its terms of the
 * covariance, the axis, the projections and the errors 0, so leaving it out
 * changes no result. */
static G_ALWAYS_INLINE inline void
encode_mode6_nc (const float (*p)[16][L], const gboolean * opaque,
    gint refits, gboolean keep_best, Bc7Block * blk, gint nc)
{
  float mean[4][L], cov[10][L], v[4][L], tmin[L], tmax[L];
  float ef[2][4][L], x[2][4][L], w[16][L], err[L];
  gint32 q[2][4][L], pb[2][L], flip[L], bq[2][4][L], bpb[2][L];
  gint32 idx[16][L];
  gint i, k, c, it, e;

  LANES {
    for (c = 0; c < 4; c++)
      mean[c][k] = 0.0f;
    for (c = 0; c < 10; c++)
      cov[c][k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      for (c = 0; c < nc; c++)
        mean[c][k] += p[c][i][k];
    }
  }
  LANES {
    for (c = 0; c < nc; c++)
      mean[c][k] *= 1.0f / 16.0f;
    mean[3][k] = nc == 3 ? 255.0f : mean[3][k];
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float r = p[0][i][k] - mean[0][k];
      float g = p[1][i][k] - mean[1][k];
      float b = p[2][i][k] - mean[2][k];

      cov[0][k] += r * r;
      cov[1][k] += r * g;
      cov[2][k] += r * b;
      cov[4][k] += g * g;
      cov[5][k] += g * b;
      cov[7][k] += b * b;
      if (nc == 4) {
        float a = p[3][i][k] - mean[3][k];

        cov[3][k] += r * a;
        cov[6][k] += g * a;
        cov[8][k] += b * a;
        cov[9][k] += a * a;
      }
    }
  }
  LANES {
    principal_axis (cst (cov), k, MODE6_POWER_ITERS, v, ef[0]);
    tmin[k] = 0.0f;
    tmax[k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float t = (p[0][i][k] - mean[0][k]) * v[0][k] +
          (p[1][i][k] - mean[1][k]) * v[1][k] +
          (p[2][i][k] - mean[2][k]) * v[2][k];

      if (nc == 4)
        t += (p[3][i][k] - mean[3][k]) * v[3][k];
      tmin[k] = t < tmin[k] ? t : tmin[k];
      tmax[k] = t > tmax[k] ? t : tmax[k];
    }
  }
  LANES {
    for (c = 0; c < 4; c++) {
      ef[1][c][k] = clamp255 (mean[c][k] + tmax[k] * ef[0][c][k]);
      ef[0][c][k] = clamp255 (mean[c][k] + tmin[k] * ef[0][c][k]);
    }
  }

  LANES blk->err[k] = 1e30f;
  for (it = 0; it <= refits; it++) {
    if (!keep_best) {
      /* straight into the result; the last pass needs no weights */
      quantize_mode6 (ef, opaque, bq, bpb, x, nc);
      indices_mode6 (p, x, blk->idx, it < refits ? w : NULL, NULL, nc);
    } else {
      quantize_mode6 (ef, opaque, q, pb, x, nc);
      indices_mode6 (p, x, idx, w, err, nc);
      for (e = 0; e < 2; e++) {
        for (c = 0; c < 4; c++)
          LANES bq[e][c][k] = err[k] < blk->err[k] ? q[e][c][k] : bq[e][c][k];
        LANES bpb[e][k] = err[k] < blk->err[k] ? pb[e][k] : bpb[e][k];
      }
      for (i = 0; i < 16; i++)
        LANES blk->idx[i][k] = err[k] < blk->err[k] ? idx[i][k] :
            blk->idx[i][k];
      LANES blk->err[k] = err[k] < blk->err[k] ? err[k] : blk->err[k];
    }
    if (it == refits)
      break;
    refit (p, NULL, (const float (*)[L]) w, ef, nc);
  }

  /* pixel 0's index must have its top bit clear */
  LANES {
    gboolean f = blk->idx[0][k] > 7;

    flip[k] = f;

    for (c = 0; c < 4; c++) {
      blk->q[0][0][c][k] = f ? bq[1][c][k] : bq[0][c][k];
      blk->q[0][1][c][k] = f ? bq[0][c][k] : bq[1][c][k];
    }
    blk->pb[0][0][k] = f ? bpb[1][k] : bpb[0][k];
    blk->pb[0][1][k] = f ? bpb[0][k] : bpb[1][k];
    blk->mode[k] = 6;
    blk->part[k] = 0;
    blk->err[k] = keep_best ? blk->err[k] : 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      gint32 ix = blk->idx[i][k];

      blk->idx[i][k] = flip[k] ? 15 - ix : ix;
    }
  }
}

/* encode_mode6_nc () without alpha when every lane is opaque */
static G_ALWAYS_INLINE inline void
encode_mode6 (const float (*p)[16][L], const gboolean * opaque,
    gint refits, gboolean keep_best, Bc7Block * blk)
{
  gboolean all = TRUE;
  gint k;

  for (k = 0; k < L; k++)
    all = all && opaque[k];
  if (all)
    encode_mode6_nc (p, opaque, refits, keep_best, blk, 3);
  else
    encode_mode6_nc (p, opaque, refits, keep_best, blk, 4);
}

/* ------------------------------------------------------------------------ */
/* modes and partitions                                                      */

static inline gint32
subset_of (gint ns, gint32 part, gint i)
{
  return ns == 1 ? 0 : (ns == 2 ? bc7_partitions2[part][i] :
      bc7_partitions3[part][i]);
}

/* The subset masks of partitions part[k] of @ns subsets */
static void
subset_masks (gint ns, const gint32 * part, float (*m)[16][L])
{
  gint i, k;

  for (i = 0; i < 16; i++) {
    gint32 sub[L];

    for (k = 0; k < L; k++)
      sub[k] = subset_of (ns, part[k], i);
    LANES {
      m[0][i][k] = sub[k] == 0 ? 1.0f : 0.0f;
      m[1][i][k] = sub[k] == 1 ? 1.0f : 0.0f;
      m[2][i][k] = sub[k] == 2 ? 1.0f : 0.0f;
    }
  }
}

/* Encodes every lane in mode @mi with partition part[k] (subset masks m)
 * into @blk; init[s]: the subsets' principal-axis endpoints, or NULL */
static void
encode_mode (const float (*p)[16][L], const ModeInfo * mi,
    const gint32 * part, float (*m)[16][L], float (*init)[2][4][L],
    const gboolean * opaque, const Effort * eff, Bc7Block * blk)
{
  const gint32 nm1 = (1 << mi->ib) - 1;
  SubsetFit fits[3];
  gint s, i, k, c;

  memset (blk, 0, sizeof (*blk));
  LANES {
    blk->err[k] = 0.0f;
    blk->mode[k] = mi->mode;
    blk->part[k] = part[k];
  }
  fit_subsets (p, m, mi, opaque, eff, init, fits);
  for (s = 0; s < mi->ns; s++) {
    SubsetFit *fit = &fits[s];
    gint32 anchor[L], flip[L];

    /* the anchor's index must have its top bit clear */
    for (k = 0; k < L; k++) {
      anchor[k] = s == 0 ? 0 : (mi->ns == 2 ? bc7_anchors2[part[k]] :
          (s == 1 ? bc7_anchors3a[part[k]] : bc7_anchors3b[part[k]]));
    }
    LANES flip[k] = 0;
    for (i = 0; i < 16; i++)
      LANES flip[k] = i == anchor[k] && fit->idx[i][k] > nm1 / 2 ? 1 : flip[k];
    for (c = 0; c < 4; c++) {
      LANES {
        gboolean f = flip[k] != 0;

        blk->q[s][0][c][k] = f ? fit->ep.q[1][c][k] : fit->ep.q[0][c][k];
        blk->q[s][1][c][k] = f ? fit->ep.q[0][c][k] : fit->ep.q[1][c][k];
      }
    }
    LANES {
      gboolean f = flip[k] != 0;

      blk->pb[s][0][k] = f ? fit->ep.pb[1][k] : fit->ep.pb[0][k];
      blk->pb[s][1][k] = f ? fit->ep.pb[0][k] : fit->ep.pb[1][k];
      blk->err[k] += fit->err[k];
    }
    for (i = 0; i < 16; i++) {
      LANES {
        gint32 ix = flip[k] ? nm1 - fit->idx[i][k] : fit->idx[i][k];

        blk->idx[i][k] = m[s][i][k] > 0.0f ? ix : blk->idx[i][k];
      }
    }
  }
}

static void
keep_better_block (Bc7Block * best, const Bc7Block * cur,
    const gboolean * frozen)
{
  gint i, k, s, e, c;

  LANES {
    gboolean b = cur->err[k] < best->err[k] && !frozen[k];

    best->err[k] = b ? cur->err[k] : best->err[k];
    best->mode[k] = b ? cur->mode[k] : best->mode[k];
    best->part[k] = b ? cur->part[k] : best->part[k];
    for (s = 0; s < 3; s++) {
      for (e = 0; e < 2; e++) {
        for (c = 0; c < 4; c++)
          best->q[s][e][c][k] = b ? cur->q[s][e][c][k] : best->q[s][e][c][k];
        best->pb[s][e][k] = b ? cur->pb[s][e][k] : best->pb[s][e][k];
      }
    }
    for (i = 0; i < 16; i++)
      best->idx[i][k] = b ? cur->idx[i][k] : best->idx[i][k];
  }
}

/* Adds to @score the off-axis energy of a subset from its sums (n pixels;
 * s[0..2] sums of r, g, b; s[3..8] sums of rr, rg, rb, gg, gb, bb) plus the
 * quantisation error along the axis for 3-bit indices */
static void
subset_score (float n, const float (*s)[L], float *score)
{
  const float inv = n > 0.0f ? 1.0f / n : 0.0f;
  gint k;

  LANES {
    float crr = s[3][k] - s[0][k] * s[0][k] * inv;
    float crg = s[4][k] - s[0][k] * s[1][k] * inv;
    float crb = s[5][k] - s[0][k] * s[2][k] * inv;
    float cgg = s[6][k] - s[1][k] * s[1][k] * inv;
    float cgb = s[7][k] - s[1][k] * s[2][k] * inv;
    float cbb = s[8][k] - s[2][k] * s[2][k] * inv;
    float tr = crr + cgg + cbb;
    float x, y, z, lambda, n2, nx, ny, nz;

    /* two power-iteration steps from (1, 1, 1), then the Rayleigh
     * quotient; unnormalised, which cannot overflow: covariance entries
     * are below 16 * 128^2, so x . nx stays below 1e30 */
    x = crr + crg + crb;
    y = crg + cgg + cgb;
    z = crb + cgb + cbb;
    nx = crr * x + crg * y + crb * z;
    ny = crg * x + cgg * y + cgb * z;
    nz = crb * x + cgb * y + cbb * z;
    x = nx;
    y = ny;
    z = nz;
    nx = crr * x + crg * y + crb * z;
    ny = crg * x + cgg * y + cgb * z;
    nz = crb * x + cgb * y + cbb * z;
    n2 = x * x + y * y + z * z;
    lambda = n2 > 1e-30f ? (x * nx + y * ny + z * nz) / n2 : 0.0f;
    lambda = lambda > tr ? tr : (lambda < 0.0f ? 0.0f : lambda);
    score[k] += tr - lambda + lambda * (1.0f / 49.0f);
  }
}

/* The @n_top best-scoring of the first @n_parts partitions of @ns subsets,
 * best first, per lane */
#define MAX_TOP 8
static void
rank_partitions (const float (*p)[16][L], gint ns, gint n_parts, gint n_top,
    gint32 (*top)[L])
{
  float st[9][16][L], tot[9][L], score[MAX_TOP][L], rows[4][16][9][L];
  gint i, j, k, part, r, row, bits;

  for (i = 0; i < 16; i++) {
    LANES {
      float rr = p[0][i][k], gg = p[1][i][k], bb = p[2][i][k];

      st[0][i][k] = rr;
      st[1][i][k] = gg;
      st[2][i][k] = bb;
      st[3][i][k] = rr * rr;
      st[4][i][k] = rr * gg;
      st[5][i][k] = rr * bb;
      st[6][i][k] = gg * gg;
      st[7][i][k] = gg * bb;
      st[8][i][k] = bb * bb;
    }
  }
  for (j = 0; j < 9; j++) {
    LANES tot[j][k] = 0.0f;
    for (i = 0; i < 16; i++)
      LANES tot[j][k] += st[j][i][k];
  }
  for (r = 0; r < n_top; r++) {
    LANES {
      score[r][k] = 1e30f;
      top[r][k] = 0;
    }
  }

  /* the sums of every subset of the pixels of each row: a subset's sums
   * are then four lookups */
  for (row = 0; row < 4; row++) {
    for (j = 0; j < 9; j++)
      LANES rows[row][0][j][k] = 0.0f;
    for (bits = 1; bits < 16; bits++) {
      gint low = bits & -bits, px = row * 4 + (low == 1 ? 0 : (low == 2 ?
              1 : (low == 4 ? 2 : 3)));

      for (j = 0; j < 9; j++)
        LANES rows[row][bits][j][k] = rows[row][bits & (bits - 1)][j][k] +
            st[j][px][k];
    }
  }

  for (part = 0; part < n_parts; part++) {
    const guint8 *tab = ns == 2 ? bc7_partitions2[part] : bc7_partitions3[part];
    float sub[2][9][L], s0[9][L], cnt[3] = { 0, 0, 0 }, sc[L];
    gint32 pp[L];
    guint mask[2] = { 0, 0 };

    for (i = 0; i < 16; i++) {
      gint s = tab[i];

      cnt[s] += 1.0f;
      if (s > 0)
        mask[s - 1] |= 1u << i;
    }
    for (r = 0; r < ns - 1; r++) {
      const guint mk = mask[r];

      for (j = 0; j < 9; j++) {
        LANES sub[r][j][k] = (rows[0][mk & 15][j][k] +
            rows[1][(mk >> 4) & 15][j][k]) + (rows[2][(mk >> 8) & 15][j][k] +
            rows[3][mk >> 12][j][k]);
      }
    }
    if (ns == 2) {
      for (j = 0; j < 9; j++)
        LANES sub[1][j][k] = 0.0f;
    }
    for (j = 0; j < 9; j++)
      LANES s0[j][k] = tot[j][k] - sub[0][j][k] - sub[1][j][k];
    LANES {
      sc[k] = 0.0f;
      pp[k] = part;
    }
    subset_score (cnt[0], (const float (*)[L]) s0, sc);
    subset_score (cnt[1], (const float (*)[L]) sub[0], sc);
    if (ns == 3)
      subset_score (cnt[2], (const float (*)[L]) sub[1], sc);
    /* insertion into the sorted list (strictly better moves up: the lower
     * partition number wins ties) */
    for (r = 0; r < n_top; r++) {
      LANES {
        gboolean b = sc[k] < score[r][k];
        float ts = score[r][k];
        gint32 tp = top[r][k];

        score[r][k] = b ? sc[k] : ts;
        top[r][k] = b ? pp[k] : tp;
        sc[k] = b ? ts : sc[k];
        pp[k] = b ? tp : pp[k];
      }
    }
  }
}

/* ------------------------------------------------------------------------ */
/* packing                                                                   */

typedef struct
{
  guint64 lo, hi;
  guint pos;
} Bits;

static inline void
put (Bits * b, guint n, guint32 v)
{
  guint64 x = (guint64) v & ((G_GUINT64_CONSTANT (1) << n) - 1);

  if (n == 0)
    return;
  if (b->pos >= 64) {
    b->hi |= x << (b->pos - 64);
  } else {
    b->lo |= x << b->pos;
    if (b->pos + n > 64)
      b->hi |= x >> (64 - b->pos);
  }
  b->pos += n;
}

/* the 128 bits lo, hi as 16 little-endian bytes */
static inline void
store_block (guint8 * out, guint64 lo, guint64 hi)
{
  lo = GUINT64_TO_LE (lo);
  hi = GUINT64_TO_LE (hi);
  memcpy (out, &lo, 8);
  memcpy (out + 8, &hi, 8);
}

static void
pack_block (const Bc7Block * blk, gint k, guint8 * out)
{
  const ModeInfo *mi;
  gint32 mode = blk->mode[k], part = blk->part[k];
  gint s, e, c, i, a1 = 16, a2 = 16;
  Bits b = { 0, 0, 0 };

  switch (mode) {
    case 0:
      mi = &mode0;
      break;
    case 1:
      mi = &mode1;
      break;
    case 2:
      mi = &mode2;
      break;
    case 3:
      mi = &mode3;
      break;
    default:
      mi = &mode6;
      break;
  }
  if (mi->ns == 2) {
    a1 = bc7_anchors2[part];
  } else if (mi->ns == 3) {
    a1 = bc7_anchors3a[part];
    a2 = bc7_anchors3b[part];
  }

  if (mode == 5) {
    /* a solid block: 7-bit colour endpoints interpolated at index 1, both
     * alpha endpoints the alpha value at index 0; no rotation */
    guint64 lo = 0x20, hi;
    gint32 a = blk->q[0][0][3][k];

    for (c = 0; c < 3; c++) {
      lo |= (guint64) blk->q[0][0][c][k] << (8 + 14 * c);
      lo |= (guint64) blk->q[0][1][c][k] << (15 + 14 * c);
    }
    /* alpha endpoints at bits 50 and 58, colour indices from bit 66: one
     * bit for pixel 0, then two each, all 1 */
    lo |= (guint64) a << 50 | (guint64) (a & 0x3f) << 58;
    hi = (guint64) a >> 6;
    hi |= (guint64) 1 << 2;
    for (i = 1; i < 16; i++)
      hi |= (guint64) 1 << (3 + 2 * (i - 1));
    store_block (out, lo, hi);
    return;
  }
  g_assert (mode != 6);
  put (&b, mode + 1, 1u << mode);
  put (&b, mi->pb, (guint32) part);
  for (c = 0; c < 3; c++)
    for (s = 0; s < mi->ns; s++)
      for (e = 0; e < 2; e++)
        put (&b, mi->cb, (guint32) blk->q[s][e][c][k]);
  if (mi->ab)
    for (s = 0; s < mi->ns; s++)
      for (e = 0; e < 2; e++)
        put (&b, mi->ab, (guint32) blk->q[s][e][3][k]);
  if (mi->pbit == 2) {
    for (s = 0; s < mi->ns; s++)
      for (e = 0; e < 2; e++)
        put (&b, 1, (guint32) blk->pb[s][e][k]);
  } else if (mi->pbit == 1) {
    for (s = 0; s < mi->ns; s++)
      put (&b, 1, (guint32) blk->pb[s][0][k]);
  }
  for (i = 0; i < 16; i++) {
    guint n = mi->ib - (i == 0 || i == a1 || i == a2 ? 1 : 0);

    put (&b, n, (guint32) blk->idx[i][k]);
  }
  g_assert (b.pos == 128);

  store_block (out, b.lo, b.hi);
}

/* ------------------------------------------------------------------------ */


typedef struct
{
  Effort m6;                    /* mode 6 */
  gint n2;                      /* partitions tried in modes 1 and 3 */
  Effort two;
  gint n3;                      /* partitions tried in modes 0 and 2 */
  Effort three;
  float skip;                   /* mode 6 error up to which a block stops */
} Tuning;

/* normal: mode 6 from the fast fit with three refits, keeping the best;
 * modes 1 and 3 on the two best-ranked partitions, one refit */
static const Tuning tune_normal = {
  {3, FALSE, FALSE}, 2, {1, FALSE, FALSE}, 0, {0, FALSE, FALSE}, 0.0f
};

/* high: everything with exact indices, three refits and every p-bit
 * combination; modes 1 and 3 on six partitions, 0 and 2 on three */
static const Tuning tune_high = {
  {3, TRUE, TRUE}, 6, {3, TRUE, TRUE}, 3, {3, TRUE, TRUE}, 0.0f
};

/* normal and high: mode 6, then the partitioned modes on the partitions
 * ranked best */
static void
encode_modes (const float (*p)[16][L], const gboolean * opaque,
    const Tuning * t, Bc7Block * best)
{
  gboolean easy[L], all_easy = TRUE;
  gint32 zero[L], top[MAX_TOP][L];
  float m[3][16][L], init[2][2][4][L];
  Bc7Block cur;
  gint k, r, s;

  if (!t->m6.exact && !t->m6.combos) {
    /* the fast fit, plus the error */
    memset (best, 0, sizeof (*best));
    encode_mode6 (p, opaque, t->m6.refits, TRUE, best);
  } else {
    LANES zero[k] = 0;
    subset_masks (1, zero, m);
    encode_mode (p, &mode6, zero, m, NULL, opaque, &t->m6, best);
  }

  /* blocks that mode 6 codes well enough (t->skip: 0, losslessly) keep
   * mode 6 (so a block's result never depends on the other blocks of its
   * batch), and a batch of only such blocks stops here */
  for (k = 0; k < L; k++) {
    easy[k] = best->err[k] <= t->skip;
    all_easy = all_easy && easy[k];
  }
  if (all_easy)
    return;

  if (t->n2 > 0) {
    rank_partitions (p, 2, 64, t->n2, top);
    for (r = 0; r < t->n2; r++) {
      /* modes 1 and 3 start from the same axes */
      subset_masks (2, top[r], m);
      for (s = 0; s < 2; s++)
        fit_axis (p, (const float (*)[L]) m[s], FALSE, init[s]);
      encode_mode (p, &mode1, top[r], m, init, opaque, &t->two, &cur);
      keep_better_block (best, &cur, easy);
      encode_mode (p, &mode3, top[r], m, init, opaque, &t->two, &cur);
      keep_better_block (best, &cur, easy);
    }
  }
  if (t->n3 > 0) {
    rank_partitions (p, 3, 64, t->n3, top);
    for (r = 0; r < t->n3; r++) {
      subset_masks (3, top[r], m);
      encode_mode (p, &mode2, top[r], m, NULL, opaque, &t->three, &cur);
      keep_better_block (best, &cur, easy);
    }
    rank_partitions (p, 3, 16, t->n3, top);
    for (r = 0; r < t->n3; r++) {
      subset_masks (3, top[r], m);
      encode_mode (p, &mode0, top[r], m, NULL, opaque, &t->three, &cur);
      keep_better_block (best, &cur, easy);
    }
  }
}

void
BC_KERNEL_NAME (bc_kernel_bc7) (const BcBatch * batch, guint n_lanes,
    gint quality, guint8 * out)
{
  const float (*p)[16][L] = batch->px;
  gboolean opaque[L];
  Bc7Block best;
  gint i, k;

  LANES opaque[k] = TRUE;
  for (i = 0; i < 16; i++)
    LANES opaque[k] &= p[3][i][k] == 255.0f;

  if (quality == 0) {
    encode_mode6 (p, opaque, FAST_REFITS, FALSE, &best);
  } else {
    encode_modes (p, opaque, quality >= 2 ? &tune_high : &tune_normal, &best);
  }

  /* solid blocks: mode 5, exact */
  {
    gboolean solid[L];

    LANES solid[k] = TRUE;
    /* bitwise, not short-circuit: no branches to vectorise */
    for (i = 1; i < 16; i++) {
      LANES solid[k] &= (p[0][i][k] == p[0][0][k]) &
          (p[1][i][k] == p[1][0][k]) & (p[2][i][k] == p[2][0][k]) &
          (p[3][i][k] == p[3][0][k]);
    }
    for (k = 0; k < L; k++) {
      gint c;

      if (!solid[k])
        continue;
      best.mode[k] = 5;
      for (c = 0; c < 3; c++) {
        gint v = (gint) (p[c][0][k] + 0.5f);

        best.q[0][0][c][k] = bc_tables.bc7_solid[v][0];
        best.q[0][1][c][k] = bc_tables.bc7_solid[v][1];
      }
      best.q[0][0][3][k] = (gint32) (p[3][0][k] + 0.5f);
    }
  }

  /* mode 6, the common case, in every lane at once; the other modes with
   * the generic bit writer */
  {
    guint64 lo[L], hi[L];

    LANES {
      gint c, e;

      lo[k] = 0x40;
      for (c = 0; c < 4; c++)
        for (e = 0; e < 2; e++)
          lo[k] |= (guint64) best.q[0][e][c][k] << (7 + 14 * c + 7 * e);
      lo[k] |= (guint64) best.pb[0][0][k] << 63;
      hi[k] = (guint64) best.pb[0][1][k] | (guint64) best.idx[0][k] << 1;
      for (i = 1; i < 16; i++)
        hi[k] |= (guint64) best.idx[i][k] << (4 * i);
    }
    for (k = 0; k < (gint) n_lanes; k++) {
      if (best.mode[k] == 6)
        store_block (out + k * 16, lo[k], hi[k]);
      else
        pack_block (&best, k, out + k * 16);
    }
  }
}
