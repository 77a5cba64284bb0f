/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* BC7 (BPTC) block encoder.
 *
 * Like the other kernels, everything works on BC_LANES blocks at once with
 * the lane as the innermost loop, so the compiler turns each step into
 * vector instructions; this file is compiled once per instruction set
 * (portable C, SSE2, AVX2) with floating point contraction off, and lanes
 * never interact: every build writes the same blocks. Where blocks of a
 * batch need different partitions, each lane carries its own subset masks.
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
 * modes 4, 5 and 7 are never written.
 *
 * One subset is fitted as in the BC1 encoder (bcencode-kernels.c): the
 * principal axis of its pixels (power iteration on the covariance), the
 * extreme projections on it as endpoints, then endpoints quantised to the
 * mode's precision choosing the p-bits that fit best, indices by
 * projection onto the quantised endpoints (high also tries each index's
 * neighbours with the exact decoded value), and least-squares refits of
 * the endpoints to the indices (fast one, normal two, high three), keeping
 * the best. High also tries every p-bit combination of the best endpoints.
 * A block whose alpha is 255 everywhere keeps alpha endpoints of 255 in
 * mode 6 (both p-bits 1), so it decodes opaque.
 *
 * Partitions are ranked without encoding them: for every partition the
 * sums of each subset's pixels and their products give its covariance,
 * and the score is the energy off each subset's principal axis plus the
 * quantisation error along it for 3-bit indices,
 * sum over subsets of (trace - lambda) + lambda / 49.
 *
 * The anchor pixels (pixel 0, and the subsets' anchors of the partition)
 * must have an index below half the range: subsets whose anchor index is
 * too high swap their endpoints and mirror their indices, which decodes to
 * the same pixels (the weights are symmetric).
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

typedef struct
{
  float err[L];
  gint32 mode[L];
  gint32 part[L];
  gint32 q[3][2][4][L];         /* stored endpoint bits, p-bit excluded */
  gint32 pb[3][2][L];           /* p-bits (one per subset: both equal) */
  gint32 idx[16][L];
} Bc7Block;

static inline float
clamp255 (float v)
{
  return v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v);
}

/* an n-bit value (5 <= n <= 8) expanded to 8 bits by replicating its top
 * bits */
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
  const gint32 v16 = (gint32) (c * 16.0f + 0.5f);
  gint32 q0, qa, qb, qc, ea, eb, ec, da, db, dc, q, ee, dd;

  q0 = p >= 0 ? (gint32) ((xf - (float) pp) * 0.5f + 0.5f) :
      (gint32) (xf + 0.5f);
  q0 = q0 < 1 ? 1 : (q0 > top - 1 ? top - 1 : q0);
  qa = q0 - 1;
  qb = q0;
  qc = q0 + 1;
  ea = expand (p >= 0 ? (qa << 1) | pp : qa, n);
  eb = expand (p >= 0 ? (qb << 1) | pp : qb, n);
  ec = expand (p >= 0 ? (qc << 1) | pp : qc, n);
  da = v16 - ea * 16;
  db = v16 - eb * 16;
  dc = v16 - ec * 16;
  da = da < 0 ? -da : da;
  db = db < 0 ? -db : db;
  dc = dc < 0 ? -dc : dc;
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

/* Indices of the pixels of a subset (mask m) for decoded endpoints ep->e:
 * projection onto the segment, rounded; @exact also tries the neighbouring
 * indices with the exact decoded value. Writes idx and w (the weight of
 * endpoint 1, 0..1) of every pixel (meaningful inside the mask) and the
 * subset's squared RGBA error. */
static inline float
pixel_error (const float (*p)[16][L], const Endpoints * ep, gint i, gint k,
    gint32 wt)
{
  float e2 = 0.0f;
  gint c;

  for (c = 0; c < 4; c++) {
    gint32 v = ((64 - wt) * ep->e[0][c][k] + wt * ep->e[1][c][k] + 32) >> 6;
    float dv = (float) v - p[c][i][k];

    e2 += dv * dv;
  }
  return e2;
}

static void
assign (const float (*p)[16][L], const float (*m)[L], const ModeInfo * mi,
    const Endpoints * ep, gboolean exact, gint32 (*idx)[L], float (*w)[L],
    float *err)
{
  const gint32 nm1 = (1 << mi->ib) - 1, h = nm1 / 2;
  const float rcp = 1.0f / (float) nm1;
  float d[4][L], scale[L], base[L];
  gint i, k, c;

  LANES {
    float dd = 0.0f;

    base[k] = 0.0f;
    for (c = 0; c < 4; c++) {
      d[c][k] = (float) (ep->e[1][c][k] - ep->e[0][c][k]);
      dd += d[c][k] * d[c][k];
      base[k] += (float) ep->e[0][c][k] * d[c][k];
    }
    scale[k] = dd > 0.0f ? (float) nm1 / dd : 0.0f;
    err[k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    if (exact) {
      LANES {
        float t = (p[0][i][k] * d[0][k] + p[1][i][k] * d[1][k] +
            p[2][i][k] * d[2][k] + p[3][i][k] * d[3][k] - base[k]) * scale[k];
        gint32 ix, ia, ib, wa, wb, wc;
        float ea, eb, ec, be;

        t = t < 0.0f ? 0.0f : (t > (float) nm1 ? (float) nm1 : t);
        ix = (gint32) (t + 0.5f);
        ia = ix > 0 ? ix - 1 : 0;
        ib = ix < nm1 ? ix + 1 : nm1;
        wa = (gint32) ((float) (ia * 64 + h) * rcp);
        wb = (gint32) ((float) (ix * 64 + h) * rcp);
        wc = (gint32) ((float) (ib * 64 + h) * rcp);
        ea = pixel_error (p, ep, i, k, wa);
        eb = pixel_error (p, ep, i, k, wb);
        ec = pixel_error (p, ep, i, k, wc);
        /* the middle one unless a neighbour is strictly better */
        be = eb;
        be = ea < be ? ea : be;
        ix = ea < eb ? ia : ix;
        wb = ea < eb ? wa : wb;
        ix = ec < be ? ib : ix;
        wb = ec < be ? wc : wb;
        be = ec < be ? ec : be;
        idx[i][k] = ix;
        w[i][k] = (float) wb *(1.0f / 64.0f);
        err[k] += m[i][k] * be;
      }
    } else {
      LANES {
        float t = (p[0][i][k] * d[0][k] + p[1][i][k] * d[1][k] +
            p[2][i][k] * d[2][k] + p[3][i][k] * d[3][k] - base[k]) * scale[k];
        gint32 ix, wt;

        t = t < 0.0f ? 0.0f : (t > (float) nm1 ? (float) nm1 : t);
        ix = (gint32) (t + 0.5f);
        wt = (gint32) ((float) (ix * 64 + h) * rcp);
        idx[i][k] = ix;
        w[i][k] = (float) wt *(1.0f / 64.0f);
        err[k] += m[i][k] * pixel_error (p, ep, i, k, wt);
      }
    }
  }
}

/* Principal-axis endpoints of the pixels of a subset (mask m); alpha takes
 * part when @with_alpha, else the endpoints' alpha is 255 */
static void
fit_axis (const float (*p)[16][L], const float (*m)[L], gboolean with_alpha,
    float ef[2][4][L])
{
  const float wa = with_alpha ? 1.0f : 0.0f;
  float mean[4][L], cov[10][L], v[4][L], cnt[L], tmin[L], tmax[L];
  gint i, k, c, it;

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
    float c00 = cov[0][k], c01 = cov[1][k], c02 = cov[2][k];
    float c03 = cov[3][k], c11 = cov[4][k], c12 = cov[5][k];
    float c13 = cov[6][k], c22 = cov[7][k], c23 = cov[8][k];
    float c33 = cov[9][k];
    float x, y, z, a, best, n2, inv, t;
    gint32 r = 0;

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
    for (it = 0; it < 4; it++) {
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
    /* v is axis / |axis|^2: (p - mean) . v is the coefficient of the
     * projection on the axis */
    v[0][k] = x * inv;
    v[1][k] = y * inv;
    v[2][k] = z * inv;
    v[3][k] = a * inv;
    ef[0][0][k] = x;
    ef[0][1][k] = y;
    ef[0][2][k] = z;
    ef[0][3][k] = a;
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

/* Least-squares endpoints for the weights w of the pixels of a subset;
 * lanes where the system is singular keep ef */
static void
refit (const float (*p)[16][L], const float (*m)[L], const float (*w)[L],
    float ef[2][4][L])
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
      float b = w[i][k] * m[i][k], a = (1.0f - w[i][k]) * m[i][k];

      aa[k] += a * (1.0f - w[i][k]);
      ab[k] += a * w[i][k];
      bb[k] += b * w[i][k];
      for (c = 0; c < 4; c++) {
        x0[c][k] += a * p[c][i][k];
        x1[c][k] += b * p[c][i][k];
      }
    }
  }
  LANES {
    float det = aa[k] * bb[k] - ab[k] * ab[k];
    gboolean ok = det > 1e-3f;
    float inv = 1.0f / (ok ? det : 1.0f);

    for (c = 0; c < 4; c++) {
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

/* Fits one subset (mask m) for mode @mi into @best */
static void
fit_subset (const float (*p)[16][L], const float (*m)[L],
    const ModeInfo * mi, const gboolean * opaque, gint quality,
    SubsetFit * best)
{
  const gboolean exact = quality >= 2;
  float ef[2][4][L], best_ef[2][4][L], w[16][L], err[L];
  gint32 idx[16][L];
  Endpoints ep;
  gint it, iters, k, e, c;

  fit_axis (p, m, mi->ab != 0, ef);
  quantize_endpoints (mi, ef, opaque, -1, &ep);
  assign (p, m, mi, &ep, exact, best->idx, w, best->err);
  best->ep = ep;
  memcpy (best_ef, ef, sizeof (ef));

  iters = quality + 1;
  for (it = 0; it < iters; it++) {
    refit (p, m, (const float (*)[L]) w, ef);
    quantize_endpoints (mi, ef, opaque, -1, &ep);
    assign (p, m, mi, &ep, exact, idx, w, err);
    for (e = 0; e < 2; e++) {
      for (c = 0; c < 4; c++) {
        LANES best_ef[e][c][k] = err[k] < best->err[k] ? ef[e][c][k] :
            best_ef[e][c][k];
      }
    }
    keep_better_fit (best, &ep, idx, err);
  }

  /* high: every p-bit combination of the best float endpoints */
  if (quality >= 2 && mi->pbit != 0) {
    gint combo, n_combos = mi->pbit == 1 ? 2 : 4;

    for (combo = 0; combo < n_combos; combo++) {
      quantize_endpoints (mi, best_ef, opaque, combo, &ep);
      assign (p, m, mi, &ep, exact, idx, w, err);
      keep_better_fit (best, &ep, idx, err);
    }
  }
}

/* ------------------------------------------------------------------------ */
/* modes and partitions                                                      */

static inline gint32
subset_of (gint ns, gint32 part, gint i)
{
  return ns == 1 ? 0 : (ns == 2 ? bc7_partitions2[part][i] :
      bc7_partitions3[part][i]);
}

/* Encodes every lane in mode @mi with partition part[k] into @blk */
static void
encode_mode (const float (*p)[16][L], const ModeInfo * mi,
    const gint32 * part, const gboolean * opaque, gint quality, Bc7Block * blk)
{
  float m[3][16][L];
  const gint32 nm1 = (1 << mi->ib) - 1;
  gint s, i, k, c;

  memset (blk, 0, sizeof (*blk));
  for (i = 0; i < 16; i++) {
    gint32 sub[L];

    for (k = 0; k < L; k++)
      sub[k] = subset_of (mi->ns, part[k], i);
    LANES {
      m[0][i][k] = sub[k] == 0 ? 1.0f : 0.0f;
      m[1][i][k] = sub[k] == 1 ? 1.0f : 0.0f;
      m[2][i][k] = sub[k] == 2 ? 1.0f : 0.0f;
    }
  }
  LANES {
    blk->err[k] = 0.0f;
    blk->mode[k] = mi->mode;
    blk->part[k] = part[k];
  }
  for (s = 0; s < mi->ns; s++) {
    SubsetFit fit;
    gint32 anchor[L], flip[L];

    fit_subset (p, (const float (*)[L]) m[s], mi, opaque, quality, &fit);

    /* the anchor's index must have its top bit clear */
    for (k = 0; k < L; k++) {
      anchor[k] = s == 0 ? 0 : (mi->ns == 2 ? bc7_anchors2[part[k]] :
          (s == 1 ? bc7_anchors3a[part[k]] : bc7_anchors3b[part[k]]));
    }
    LANES flip[k] = 0;
    for (i = 0; i < 16; i++)
      LANES flip[k] = i == anchor[k] && fit.idx[i][k] > nm1 / 2 ? 1 : flip[k];
    for (c = 0; c < 4; c++) {
      LANES {
        gboolean f = flip[k] != 0;

        blk->q[s][0][c][k] = f ? fit.ep.q[1][c][k] : fit.ep.q[0][c][k];
        blk->q[s][1][c][k] = f ? fit.ep.q[0][c][k] : fit.ep.q[1][c][k];
      }
    }
    LANES {
      gboolean f = flip[k] != 0;

      blk->pb[s][0][k] = f ? fit.ep.pb[1][k] : fit.ep.pb[0][k];
      blk->pb[s][1][k] = f ? fit.ep.pb[0][k] : fit.ep.pb[1][k];
      blk->err[k] += fit.err[k];
    }
    for (i = 0; i < 16; i++) {
      LANES {
        gint32 ix = flip[k] ? nm1 - fit.idx[i][k] : fit.idx[i][k];

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
  gint k, it;

  LANES {
    float crr = s[3][k] - s[0][k] * s[0][k] * inv;
    float crg = s[4][k] - s[0][k] * s[1][k] * inv;
    float crb = s[5][k] - s[0][k] * s[2][k] * inv;
    float cgg = s[6][k] - s[1][k] * s[1][k] * inv;
    float cgb = s[7][k] - s[1][k] * s[2][k] * inv;
    float cbb = s[8][k] - s[2][k] * s[2][k] * inv;
    float tr = crr + cgg + cbb;
    float x = crr + crg + crb, y = crg + cgg + cgb, z = crb + cgb + cbb;
    float lambda, n2, nx, ny, nz;

    /* two power-iteration steps from (1, 1, 1), then the Rayleigh
     * quotient */
    for (it = 0; it < 2; it++) {
      float ax = x < 0 ? -x : x, ay = y < 0 ? -y : y, az = z < 0 ? -z : z;
      float mx = ax > ay ? ax : ay, r;

      mx = mx > az ? mx : az;
      r = mx > 1e-20f ? 1.0f / mx : 0.0f;
      x *= r;
      y *= r;
      z *= r;
      nx = crr * x + crg * y + crb * z;
      ny = crg * x + cgg * y + cgb * z;
      nz = crb * x + cgb * y + cbb * z;
      x = nx;
      y = ny;
      z = nz;
    }
    nx = crr * x + crg * y + crb * z;
    ny = crg * x + cgg * y + cgb * z;
    nz = crb * x + cgb * y + cbb * z;
    n2 = x * x + y * y + z * z;
    lambda = n2 > 1e-20f ? (x * nx + y * ny + z * nz) / n2 : 0.0f;
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
  float st[9][16][L], tot[9][L], score[MAX_TOP][L];
  gint i, j, k, part, r;

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

  for (part = 0; part < n_parts; part++) {
    const guint8 *tab = ns == 2 ? bc7_partitions2[part] : bc7_partitions3[part];
    float sub[2][9][L], s0[9][L], cnt[3] = { 0, 0, 0 }, sc[L];
    gint32 pp[L];

    for (j = 0; j < 9; j++)
      LANES sub[0][j][k] = sub[1][j][k] = 0.0f;
    for (i = 0; i < 16; i++) {
      gint s = tab[i];

      cnt[s] += 1.0f;
      if (s == 0)
        continue;
      for (j = 0; j < 9; j++)
        LANES sub[s - 1][j][k] += st[j][i][k];
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
    for (i = 0; i < 8; i++) {
      out[i] = (guint8) (lo >> (8 * i));
      out[8 + i] = (guint8) (hi >> (8 * i));
    }
    return;
  }
  if (mode == 6) {
    /* the common case, without the generic bit writer */
    guint64 lo = 0x40, hi;

    for (c = 0; c < 4; c++)
      for (e = 0; e < 2; e++)
        lo |= (guint64) blk->q[0][e][c][k] << (7 + 14 * c + 7 * e);
    lo |= (guint64) blk->pb[0][0][k] << 63;
    hi = (guint64) blk->pb[0][1][k] | (guint64) blk->idx[0][k] << 1;
    for (i = 1; i < 16; i++)
      hi |= (guint64) blk->idx[i][k] << (4 * i);
    for (i = 0; i < 8; i++) {
      out[i] = (guint8) (lo >> (8 * i));
      out[8 + i] = (guint8) (hi >> (8 * i));
    }
    return;
  }

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

  for (i = 0; i < 8; i++) {
    out[i] = (guint8) (b.lo >> (8 * i));
    out[8 + i] = (guint8) (b.hi >> (8 * i));
  }
}

/* ------------------------------------------------------------------------ */

#ifndef SKIP_NORMAL
#define SKIP_NORMAL 20.0f
#endif
#ifndef SKIP_HIGH
#define SKIP_HIGH 8.0f
#endif

void
BC_KERNEL_NAME (bc_kernel_bc7) (const BcBatch * batch, guint n_lanes,
    gint quality, guint8 * out)
{
  const float (*p)[16][L] = batch->px;
  gboolean opaque[L], easy[L];
  gint32 zero[L], top[MAX_TOP][L];
  Bc7Block best, cur;
  gint i, k, r;

  LANES {
    opaque[k] = TRUE;
    zero[k] = 0;
  }
  for (i = 0; i < 16; i++)
    LANES opaque[k] = opaque[k] && p[3][i][k] == 255.0f;

  encode_mode (p, &mode6, zero, opaque, quality, &best);

  /* blocks that mode 6 already codes well gain little from the others:
   * they keep mode 6 (so a block's result never depends on the other
   * blocks of its batch), and a batch of only such blocks stops here */
  {
    const float thr = quality >= 2 ? SKIP_HIGH : SKIP_NORMAL;
    gboolean all_easy = TRUE;

    for (k = 0; k < L; k++) {
      easy[k] = best.err[k] <= thr;
      all_easy = all_easy && easy[k];
    }
    if (all_easy)
      quality = 0;
  }

  if (quality >= 1) {
    gint n_top = quality >= 2 ? 6 : 2;

    rank_partitions (p, 2, 64, n_top, top);
    for (r = 0; r < n_top; r++) {
      encode_mode (p, &mode1, top[r], opaque, quality, &cur);
      keep_better_block (&best, &cur, easy);
      encode_mode (p, &mode3, top[r], opaque, quality, &cur);
      keep_better_block (&best, &cur, easy);
    }
  }
  if (quality >= 2) {
    rank_partitions (p, 3, 64, 3, top);
    for (r = 0; r < 3; r++) {
      encode_mode (p, &mode2, top[r], opaque, quality, &cur);
      keep_better_block (&best, &cur, easy);
    }
    rank_partitions (p, 3, 16, 3, top);
    for (r = 0; r < 3; r++) {
      encode_mode (p, &mode0, top[r], opaque, quality, &cur);
      keep_better_block (&best, &cur, easy);
    }
  }

  /* solid blocks: mode 5, exact */
  {
    gboolean solid[L];

    LANES solid[k] = TRUE;
    for (i = 1; i < 16; i++) {
      LANES solid[k] = solid[k] && p[0][i][k] == p[0][0][k] &&
          p[1][i][k] == p[1][0][k] && p[2][i][k] == p[2][0][k] &&
          p[3][i][k] == p[3][0][k];
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

  for (k = 0; k < (gint) n_lanes; k++)
    pack_block (&best, k, out + k * 16);
}
