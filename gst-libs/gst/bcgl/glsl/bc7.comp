/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The GLSL compute shader of the GL BC7 encode path (bcglencode.c): a
 * port of the CPU BC7 encoder gst-libs/gst/bc/bcencode-bc7.c, one
 * invocation per 4x4 block where the CPU runs BC_LANES blocks per
 * lane-parallel loop: each `LANES { ... }` body is the scalar code of the
 * invocation's block. Keep the two in step. As in bc1-bc3.comp every
 * float operation is written in the same order as in C and every float
 * variable is `precise` (no contraction into fma, no reassociation), so an
 * IEEE-conformant implementation (llvmpipe) writes the CPU's blocks bit for
 * bit. The functions keep the C names; what differs is only how the work
 * is laid out:
 *
 *  - the pixels are read as in prelude.glsl (texel * 255 + 0.5 to a
 *    byte, then float: the CPU's gather converts the same bytes; no alpha
 *    channel reads 255), and a block is opaque when its 16 alphas are
 *    255, as in bc_kernel_bc7 ();
 *  - the CPU's lanes never interact and its only data-dependent skip (a
 *    batch whose blocks are all lossless in mode 6 stops early; such a
 *    block is frozen anyway) does not change a block's result, so the
 *    per-block semantics are ported as is;
 *  - the subset masks m[s][i] (1.0 or 0.0) come from SUB[i], the subset
 *    of pixel i;
 *  - each subset's best fit keeps only the indices of its own pixels
 *    (BIDX), which are all the C code ever reads of it;
 *  - modes 1 and 3 of a partition do not share one fit_axis () result:
 *    each computes the same values again inside encode_mode ();
 *  - rank_partitions () sums a subset's pixels row by row, each row from
 *    its last pixel to its first, which is the order in which the C code
 *    builds its tables of every subset of a row's pixels;
 *  - the mode, partition and effort are run-time values and the large
 *    functions have one call site (fit_subsets () runs its first fit,
 *    refits and p-bit combinations as passes of one loop; high runs its
 *    modes as stages of one loop), which keeps the program small (GLSL
 *    inlines every call);
 *  - a few sums the C code starts from 0.0 start from their first term
 *    (the same value; see segment ()), and channel loops are vector
 *    operations (component-wise, the same operations); the values of a
 *    pixel's subset are selected, as the C code's SEL () does, and
 *    quantize_endpoints () and fit_subsets () keep their candidates in
 *    variables rather than arrays indexed by subset and channel (twice as
 *    fast on llvmpipe);
 *  - pack_block () writes every mode with the generic bit writer (the
 *    C code's mode 5 and 6 shortcuts write the same bits).
 *
 * bcglencode.c's make_source () puts in front of this body: the #version
 * line, QUALITY (0 fast, 1 normal, 2 high), the float constants as exact
 * bit patterns (INV255 = 1 / 255, RCP3, RCP7, RCP15 = 1 / 3, 1 / 7, 1 / 15,
 * INV49 = 1 / 49, EPS_AXIS = 1e-20, EPS_N2 = 1e-30, EPS_DET = 1e-3, BIG =
 * 1e30, BIG_EDGE = 1e29), the tables of libgstbc
 * (gst_bc_encode_bc7_tables ()): PART2[64] and PART3[64] (the subset of
 * pixel i in bits 2i, 2i + 1), ANCHORS[64] (anchors2 | anchors3a << 8 |
 * anchors3b << 16) and SOLID[256] (the mode 5 endpoints of a solid value,
 * a | b << 8), then prelude.glsl.
 *
 * Embedded at build time (gst-libs/gst/bcgl/embed-glsl.py) as
 * gst_bc_gl_shader_bc7_comp, without this header. */

/* the block's pixels (r, g, b, a) */
precise vec4 P[16];
bool g_opaque;

/* the mode being fitted (ModeInfo) and the subset of every pixel */
int g_mode, g_ns, g_cb, g_ab, g_pbit, g_ib;
int SUB[16];

/* the subsets being fitted, [2 * subset + endpoint]: stored bits (p-bit
 * excluded), decoded 8-bit values, p-bits */
ivec4 EPQ[6], EPE[6];
int EPB[6];
/* assign_joint (): indices, weights of endpoint 1, errors per subset */
int IDX[16];
precise float WT[16], ERR[3];
/* each subset's best fit (SubsetFit); BIDX: the best of each pixel's
 * subset */
ivec4 BQ[6];
int BPB[6], BIDX[16];
precise float BERR[3];

/* the block kept (Bc7Block) */
int K_MODE, K_PART;
ivec4 K_Q[6];
int K_PB[6], K_IDX[16];
precise float K_ERR;

/* rank_partitions (): pixel values and products, best partitions */
precise vec3 ST0[16], ST1[16], ST2[16];
int TOP[6];

vec4 clamp255v (vec4 v)
{
  return vec4 (clamp255 (v.x), clamp255 (v.y), clamp255 (v.z),
      clamp255 (v.w));
}

int expand_bits (int x, int n)
{
  return ((x << (8 - n)) | (x >> (2 * n - 8))) & 0xff;
}

/* quantize (): the stored value nearest to v as (q << 8) | expansion */
int quantize (float v, int cb, int p)
{
  int n = p >= 0 ? cb + 1 : cb;
  int top = (1 << cb) - 1, pp = p >= 0 ? p : 0;
  precise float c = clamp255 (v);
  precise float f = float ((1 << n) - 1) * INV255;
  precise float xf = c * f;
  precise float r, da, db, dc, dd;
  int q0, qa, qb, qc, ea, eb, ec, q, ee;

  if (p >= 0 && n == 8) {
    r = (c - float (pp)) * 0.5 + 0.5;
    q = int (r);
    q = q > top ? top : q;
    return (q << 8) | (q << 1) | pp;
  }
  if (p >= 0)
    r = (xf - float (pp)) * 0.5 + 0.5;
  else
    r = xf + 0.5;
  q0 = int (r);
  q0 = q0 < 1 ? 1 : (q0 > top - 1 ? top - 1 : q0);
  qa = q0 - 1;
  qb = q0;
  qc = q0 + 1;
  ea = expand_bits (p >= 0 ? (qa << 1) | pp : qa, n);
  eb = expand_bits (p >= 0 ? (qb << 1) | pp : qb, n);
  ec = expand_bits (p >= 0 ? (qc << 1) | pp : qc, n);
  da = c - float (ea);
  db = c - float (eb);
  dc = c - float (ec);
  da = da < 0.0 ? -da : da;
  db = db < 0.0 ? -db : db;
  dc = dc < 0.0 ? -dc : dc;
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

/* one endpoint f of the current mode with p-bit pv (pv < 0: none): the
 * stored bits q, the decoded values x (alpha 255 in modes without alpha)
 * and the squared error of the channels coded (the C code's sum from
 * 0.0) */
float quantize_endpoint (vec4 f, int pv, out ivec4 q, out ivec4 x)
{
  int nc = g_ab != 0 ? 4 : 3;
  precise float d = 0.0;
  int c;

  q = ivec4 (0);
  x = ivec4 (255);
  for (c = 0; c < nc; c++) {
    precise float fv = c == 0 ? f.x : (c == 1 ? f.y : (c == 2 ? f.z : f.w));
    int r = quantize (fv, c < 3 ? g_cb : g_ab, pv);
    int qc = r >> 8, xc = r & 0xff;
    precise float dv = float (xc) - clamp255 (fv);

    d += dv * dv;
    if (c == 0) {
      q.x = qc;
      x.x = xc;
    } else if (c == 1) {
      q.y = qc;
      x.y = xc;
    } else if (c == 2) {
      q.z = qc;
      x.z = xc;
    } else {
      q.w = qc;
      x.w = xc;
    }
  }
  return d;
}

/* quantize_endpoints (): float endpoints f0, f1 of subset s into EPQ, EPE,
 * EPB; combo < 0 picks the p-bits that fit best (one p-bit: both
 * endpoints' error; two: each endpoint's), else bit e of combo is the
 * p-bit of endpoint e; opaque blocks of modes with alpha get alpha 255
 * exactly (p-bits 1) */
void quantize_endpoints (int s, vec4 f0, vec4 f1, int combo)
{
  /* [p-bit][endpoint] */
  ivec4 q00, q01, q10, q11, x00, x01, x10, x11;
  precise float d00, d01, d10, d11;
  int k, p0, p1;

  for (k = 0; k < (g_pbit == 0 ? 2 : 4); k++) {
    ivec4 q, x;
    precise float d = quantize_endpoint ((k & 1) == 0 ? f0 : f1,
        g_pbit == 0 ? -1 : k >> 1, q, x);

    if (k == 0) {
      q00 = q;
      x00 = x;
      d00 = d;
    } else if (k == 1) {
      q01 = q;
      x01 = x;
      d01 = d;
    } else if (k == 2) {
      q10 = q;
      x10 = x;
      d10 = d;
    } else {
      q11 = q;
      x11 = x;
      d11 = d;
    }
  }
  if (g_pbit == 0) {
    p0 = 0;
    p1 = 0;
  } else if (combo >= 0) {
    p0 = combo & 1;
    p1 = g_pbit == 1 ? p0 : (combo >> 1) & 1;
  } else if (g_pbit == 1) {
    precise float s1 = d10 + d11, s0 = d00 + d01;

    p0 = s1 < s0 ? 1 : 0;
    p1 = p0;
  } else {
    p0 = d10 < d00 ? 1 : 0;
    p1 = d11 < d01 ? 1 : 0;
  }
  if (g_pbit != 0 && g_ab != 0 && g_opaque) {
    p0 = 1;
    p1 = 1;
  }
  EPQ[2 * s] = p0 != 0 ? q10 : q00;
  EPE[2 * s] = p0 != 0 ? x10 : x00;
  EPQ[2 * s + 1] = p1 != 0 ? q11 : q01;
  EPE[2 * s + 1] = p1 != 0 ? x11 : x01;
  if (g_ab != 0 && g_opaque) {
    EPQ[2 * s].w = (1 << g_ab) - 1;
    EPE[2 * s].w = 255;
    EPQ[2 * s + 1].w = (1 << g_ab) - 1;
    EPE[2 * s + 1].w = 255;
  }
  EPB[2 * s] = p0;
  EPB[2 * s + 1] = p1;
}

/* pixel_error (): squared RGBA error of pixel p decoded at weight wt
 * (0..64) between endpoints given as a = 64 e0 + 32 and d = e1 - e0 (the
 * C code sums from 0.0: 0.0 + x is x for a square) */
float pixel_error (vec4 p, vec4 a, vec4 d, float wt)
{
  precise vec4 u = (a + wt * d) * 0.015625;
  precise vec4 dv = vec4 (ivec4 (u)) - p;
  precise float e2 = dv.x * dv.x + dv.y * dv.y + dv.z * dv.z + dv.w * dv.w;

  return e2;
}

/* the mean of the pixels of subset s (the C code's mean over the mask
 * m, or over all 16 pixels in encode_mode6 (): the same values, m
 * being 1.0 or 0.0 and 1 / 16 exact), their covariance (cov[0..9] of
 * the C code; alpha weighted by wa, 0.0 or 1.0) and principal_axis ()
 * with @iters power iterations from the covariance row of the largest
 * variance, renormalised by the largest component: v is axis /
 * |axis|^2 */
void subset_axis (int s, float wa, int iters, out vec4 mean, out vec4 v,
    out vec4 ax)
{
  precise float c00 = 0.0, c01 = 0.0, c02 = 0.0, c03 = 0.0, c11 = 0.0;
  precise float c12 = 0.0, c13 = 0.0, c22 = 0.0, c23 = 0.0, c33 = 0.0;
  precise float cnt = 0.0, inv, x, y, z, a, best, n2, t;
  precise vec4 mu = vec4 (0.0);
  int i, it, row = 0;

  for (i = 0; i < 16; i++) {
    precise float m = SUB[i] == s ? 1.0 : 0.0;

    cnt += m;
    mu += m * P[i];
  }
  inv = 1.0 / (cnt > 0.0 ? cnt : 1.0);
  mu *= inv;
  mean = mu;
  for (i = 0; i < 16; i++) {
    precise float m = SUB[i] == s ? 1.0 : 0.0;
    precise float dr = (P[i].x - mu.x) * m;
    precise float dg = (P[i].y - mu.y) * m;
    precise float db = (P[i].z - mu.z) * m;
    precise float da = (P[i].w - mu.w) * m * wa;

    c00 += dr * dr;
    c01 += dr * dg;
    c02 += dr * db;
    c03 += dr * da;
    c11 += dg * dg;
    c12 += dg * db;
    c13 += dg * da;
    c22 += db * db;
    c23 += db * da;
    c33 += da * da;
  }

  best = c00;
  row = c11 > best ? 1 : row;
  best = c11 > best ? c11 : best;
  row = c22 > best ? 2 : row;
  best = c22 > best ? c22 : best;
  row = c33 > best ? 3 : row;
  x = row == 0 ? c00 : (row == 1 ? c01 : (row == 2 ? c02 : c03));
  y = row == 0 ? c01 : (row == 1 ? c11 : (row == 2 ? c12 : c13));
  z = row == 0 ? c02 : (row == 1 ? c12 : (row == 2 ? c22 : c23));
  a = row == 0 ? c03 : (row == 1 ? c13 : (row == 2 ? c23 : c33));
  for (it = 0; it < iters; it++) {
    precise float nx = c00 * x + c01 * y + c02 * z + c03 * a;
    precise float ny = c01 * x + c11 * y + c12 * z + c13 * a;
    precise float nz = c02 * x + c12 * y + c22 * z + c23 * a;
    precise float na = c03 * x + c13 * y + c23 * z + c33 * a;
    precise float fx = nx < 0.0 ? -nx : nx, fy = ny < 0.0 ? -ny : ny;
    precise float fz = nz < 0.0 ? -nz : nz, fa = na < 0.0 ? -na : na;
    precise float mx = fx > fy ? fx : fy;

    mx = mx > fz ? mx : fz;
    mx = mx > fa ? mx : fa;
    t = mx > EPS_AXIS ? 1.0 / mx : 0.0;
    x = nx * t;
    y = ny * t;
    z = nz * t;
    a = na * t;
  }
  n2 = x * x + y * y + z * z + a * a;
  inv = n2 > EPS_AXIS ? 1.0 / n2 : 0.0;
  v.x = x * inv;
  v.y = y * inv;
  v.z = z * inv;
  v.w = a * inv;
  ax = vec4 (x, y, z, a);
}

/* fit_axis (): principal-axis endpoints of subset s */
void fit_axis (int s, bool with_alpha, out vec4 ef0, out vec4 ef1)
{
  precise float wa = with_alpha ? 1.0 : 0.0;
  precise vec4 mean, v, ax;
  precise float tmin, tmax, lo, hi;
  int i;

  subset_axis (s, wa, 4, mean, v, ax);
  tmin = BIG;
  tmax = -BIG;
  for (i = 0; i < 16; i++) {
    precise float t = (P[i].x - mean.x) * v.x + (P[i].y - mean.y) * v.y +
        (P[i].z - mean.z) * v.z + (P[i].w - mean.w) * v.w * wa;
    bool in_s = SUB[i] == s;

    tmin = in_s && t < tmin ? t : tmin;
    tmax = in_s && t > tmax ? t : tmax;
  }
  lo = tmin > BIG_EDGE ? 0.0 : tmin;
  hi = tmax < -BIG_EDGE ? 0.0 : tmax;
  {
    precise vec4 mc = vec4 (mean.xyz, with_alpha ? mean.w : 255.0);
    precise vec4 a = vec4 (ax.xyz, with_alpha ? ax.w : 0.0);
    precise vec4 e0 = mc + lo * a, e1 = mc + hi * a;

    ef0 = clamp255v (e0);
    ef1 = clamp255v (e1);
  }
}

/* refit (): least-squares endpoints of subset s for the weights WT; kept
 * when the system is singular */
void refit (int s, inout vec4 ef0, inout vec4 ef1)
{
  precise float aa = 0.0, ab = 0.0, bb = 0.0, det, inv;
  precise vec4 x0 = vec4 (0.0), x1 = vec4 (0.0);
  int i;
  bool ok;

  for (i = 0; i < 16; i++) {
    precise float mi = SUB[i] == s ? 1.0 : 0.0;
    precise float w = WT[i];
    precise float b = w * mi, a = (1.0 - w) * mi;
    precise vec4 px = P[i];

    aa += a * (1.0 - w);
    ab += a * w;
    bb += b * w;
    x0 += a * px;
    x1 += b * px;
  }
  det = aa * bb - ab * ab;
  ok = det > EPS_DET;
  inv = 1.0 / (ok ? det : 1.0);
  if (ok) {
    precise vec4 n0 = (bb * x0 - ab * x1) * inv;
    precise vec4 n1 = (aa * x1 - ab * x0) * inv;

    ef0 = clamp255v (n0);
    ef1 = clamp255v (n1);
  }
}

/* the segment of subset s for assign_joint (): d = e1 - e0, a = 64 e0 + 32,
 * and the projection's offset and scale (the C code sums from 0.0: the
 * same but for the sign of a zero base, which t + 0.5 drops) */
void segment (int s, float fnm1, out vec4 d, out vec4 a, out float base,
    out float scale)
{
  precise vec4 e0 = vec4 (EPE[2 * s]);
  precise vec4 ds = vec4 (EPE[2 * s + 1] - EPE[2 * s]);
  precise float dd = ds.x * ds.x + ds.y * ds.y + ds.z * ds.z + ds.w * ds.w;
  precise float b = e0.x * ds.x + e0.y * ds.y + e0.z * ds.z + e0.w * ds.w;

  d = ds;
  a = vec4 (EPE[2 * s] * 64 + 32);
  base = b;
  scale = dd > 0.0 ? fnm1 / dd : 0.0;
}

/* assign_joint (): indices of every pixel for the decoded endpoints EPE of
 * its subset, by projection (exact: also the neighbouring indices); each
 * pixel selects its subset's values as the C code's SEL () does */
void assign_joint (bool exact)
{
  int nm1 = (1 << g_ib) - 1, h = nm1 / 2;
  precise float rcp = g_ib == 2 ? RCP3 : (g_ib == 3 ? RCP7 : RCP15);
  precise float fnm1 = float (nm1);
  precise vec4 d0, d1, d2, a0, a1, a2;
  precise float b0, b1, b2, c0, c1, c2;
  precise float err0 = 0.0, err1 = 0.0, err2 = 0.0;
  int i;

  segment (0, fnm1, d0, a0, b0, c0);
  segment (g_ns > 1 ? 1 : 0, fnm1, d1, a1, b1, c1);
  segment (g_ns > 2 ? 2 : 0, fnm1, d2, a2, b2, c2);
  for (i = 0; i < 16; i++) {
    int ss = SUB[i];
    bool s1 = ss == 1, s2 = ss == 2;
    precise vec4 pd = s1 ? d1 : (s2 ? d2 : d0);
    precise vec4 pa = s1 ? a1 : (s2 ? a2 : a0);
    precise float pb = s1 ? b1 : (s2 ? b2 : b0);
    precise float pc = s1 ? c1 : (s2 ? c2 : c0);
    precise vec4 px = P[i];
    precise float t = (px.x * pd.x + px.y * pd.y + px.z * pd.z +
        px.w * pd.w - pb) * pc;
    precise float tt = t < 0.0 ? 0.0 : (t > fnm1 ? fnm1 : t);
    precise float r = tt + 0.5;
    int ix = int (r);
    precise float ft = float (ix * 64 + h) * rcp;
    int wt = int (ft);
    precise float be = pixel_error (px, pa, pd, float (wt));
    precise float m0 = ss == 0 ? 1.0 : 0.0, m1 = s1 ? 1.0 : 0.0;
    precise float m2 = s2 ? 1.0 : 0.0;

    if (exact) {
      int ia = ix > 0 ? ix - 1 : 0, ib = ix < nm1 ? ix + 1 : nm1;
      precise float fa = float (ia * 64 + h) * rcp;
      precise float fc = float (ib * 64 + h) * rcp;
      int wa = int (fa), wc = int (fc);
      precise float ea = pixel_error (px, pa, pd, float (wa));
      precise float ec = pixel_error (px, pa, pd, float (wc));

      /* the middle one unless a neighbour is strictly better */
      ix = ea < be ? ia : ix;
      wt = ea < be ? wa : wt;
      be = ea < be ? ea : be;
      ix = ec < be ? ib : ix;
      wt = ec < be ? wc : wt;
      be = ec < be ? ec : be;
    }
    IDX[i] = ix;
    WT[i] = float (wt) * 0.015625;
    err0 += m0 * be;
    err1 += m1 * be;
    err2 += m2 * be;
  }
  ERR[0] = err0;
  ERR[1] = err1;
  ERR[2] = err2;
}

/* fit_subsets (): the subsets of the current mode and partition: the
 * principal axis, `refits` least-squares refits keeping each subset's
 * best, and with `combos` every p-bit combination of the best float
 * endpoints; one pass per assign_joint () */
void fit_subsets (int refits, bool exact, bool combos)
{
  int n_combos = combos && g_pbit != 0 ? (g_pbit == 1 ? 2 : 4) : 0;
  int pass, s, i;
  bvec3 better;
  /* the float endpoints of each subset, current and best */
  precise vec4 ef0, ef1, ef2, ef3, ef4, ef5;
  precise vec4 bf0, bf1, bf2, bf3, bf4, bf5;

  for (pass = 0; pass <= refits + n_combos; pass++) {
    bool combo = pass > refits;

    for (s = 0; s < g_ns; s++) {
      precise vec4 e0 = s == 0 ? ef0 : (s == 1 ? ef2 : ef4);
      precise vec4 e1 = s == 0 ? ef1 : (s == 1 ? ef3 : ef5);

      if (pass == 0)
        fit_axis (s, g_ab != 0, e0, e1);
      else if (!combo)
        refit (s, e0, e1);
      if (s == 0) {
        ef0 = e0;
        ef1 = e1;
      } else if (s == 1) {
        ef2 = e0;
        ef3 = e1;
      } else {
        ef4 = e0;
        ef5 = e1;
      }
      if (combo) {
        e0 = s == 0 ? bf0 : (s == 1 ? bf2 : bf4);
        e1 = s == 0 ? bf1 : (s == 1 ? bf3 : bf5);
      }
      quantize_endpoints (s, e0, e1, combo ? pass - refits - 1 : -1);
    }
    assign_joint (exact);
    better = bvec3 (pass == 0 || ERR[0] < BERR[0], pass == 0 ||
        ERR[1] < BERR[1], pass == 0 || ERR[2] < BERR[2]);
    for (i = 0; i < 16; i++) {
      int ss = SUB[i];

      if (ss == 0 ? better.x : (ss == 1 ? better.y : better.z))
        BIDX[i] = IDX[i];
    }
    if (!combo) {
      if (better.x) {
        bf0 = ef0;
        bf1 = ef1;
      }
      if (better.y) {
        bf2 = ef2;
        bf3 = ef3;
      }
      if (better.z) {
        bf4 = ef4;
        bf5 = ef5;
      }
    }
    for (s = 0; s < g_ns; s++) {
      if (pass == 0 || ERR[s] < BERR[s]) {
        BQ[2 * s] = EPQ[2 * s];
        BQ[2 * s + 1] = EPQ[2 * s + 1];
        BPB[2 * s] = EPB[2 * s];
        BPB[2 * s + 1] = EPB[2 * s + 1];
        BERR[s] = ERR[s];
      }
    }
  }
}

/* encode_mode () and keep_better_block (): the block in @mode with
 * partition @part, kept when its error is lower (or @first) */
void encode_mode (int mode, int part, int refits, bool exact, bool combos,
    bool first)
{
  uint tab = mode == 6 ? 0u : (mode == 1 || mode == 3 ? PART2[part] :
      PART3[part]);
  int nm1, i, s;
  precise float err = 0.0;

  g_mode = mode;
  g_ns = mode == 6 ? 1 : (mode == 1 || mode == 3 ? 2 : 3);
  g_cb = mode == 0 ? 4 : (mode == 1 ? 6 : (mode == 2 ? 5 : 7));
  g_ab = mode == 6 ? 7 : 0;
  g_pbit = mode == 1 ? 1 : (mode == 2 ? 0 : 2);
  g_ib = mode == 0 || mode == 1 ? 3 : (mode == 6 ? 4 : 2);
  nm1 = (1 << g_ib) - 1;
  for (i = 0; i < 16; i++)
    SUB[i] = int ((tab >> uint (2 * i)) & 3u);

  fit_subsets (refits, exact, combos);
  for (s = 0; s < g_ns; s++)
    err += BERR[s];
  if (!first && !(err < K_ERR))
    return;

  K_ERR = err;
  K_MODE = mode;
  K_PART = part;
  for (s = 0; s < 3; s++) {
    /* the anchor's index must have its top bit clear */
    int anchor = s == 0 ? 0 : int ((ANCHORS[part] >> uint (g_ns == 2 ? 0 :
                (s == 1 ? 8 : 16))) & 0xffu);
    bool f = s < g_ns && BIDX[anchor] > nm1 / 2;

    if (s >= g_ns) {
      K_Q[2 * s] = ivec4 (0);
      K_Q[2 * s + 1] = ivec4 (0);
      K_PB[2 * s] = 0;
      K_PB[2 * s + 1] = 0;
      continue;
    }
    K_Q[2 * s] = f ? BQ[2 * s + 1] : BQ[2 * s];
    K_Q[2 * s + 1] = f ? BQ[2 * s] : BQ[2 * s + 1];
    K_PB[2 * s] = f ? BPB[2 * s + 1] : BPB[2 * s];
    K_PB[2 * s + 1] = f ? BPB[2 * s] : BPB[2 * s + 1];
    for (i = 0; i < 16; i++)
      if (SUB[i] == s)
        K_IDX[i] = f ? nm1 - BIDX[i] : BIDX[i];
  }
}

#if QUALITY < 2
/* quantize_mode6 (): mode 6 endpoints from EF: per p-bit a rounding, the
 * p-bit of smaller error (opaque: 1, alpha 255) */
void quantize_mode6 (vec4 ef, out ivec4 q, out int pb, out vec4 x)
{
  precise vec4 v = clamp255v (ef);
  precise vec4 ra = v * 0.5 + 0.5, rb = (v - 1.0) * 0.5 + 0.5;
  ivec4 a = min (ivec4 (ra), ivec4 (127)), b = max (ivec4 (rb), ivec4 (0));
  precise vec4 da = vec4 (2 * a) - v, db = vec4 (2 * b + 1) - v;
  precise float d0 = da.x * da.x + da.y * da.y + da.z * da.z + da.w * da.w;
  precise float d1 = db.x * db.x + db.y * db.y + db.z * db.z + db.w * db.w;
  int p = d1 < d0 || g_opaque ? 1 : 0;

  q = p != 0 ? b : a;
  q.w = g_opaque ? 127 : q.w;
  x = vec4 (2 * q + p);
  pb = p;
}

/* indices_mode6 (): the projection on the segment x, rounded, into IDX
 * and WT; the squared RGBA error */
float indices_mode6 (vec4 x[2])
{
  precise vec4 d, a64;
  precise float dd = 0.0, base = 0.0, scale, err = 0.0;
  int i, c;

  for (c = 0; c < 4; c++) {
    d[c] = x[1][c] - x[0][c];
    a64[c] = x[0][c] * 64.0 + 32.0;
    dd += d[c] * d[c];
    base += x[0][c] * d[c];
  }
  scale = dd > 0.0 ? 15.0 / dd : 0.0;
  for (i = 0; i < 16; i++) {
    precise float t = (P[i].x * d.x + P[i].y * d.y + P[i].z * d.z +
        P[i].w * d.w - base) * scale;
    precise float r, fw;
    int ix;

    t = t < 0.0 ? 0.0 : (t > 15.0 ? 15.0 : t);
    r = t + 0.5;
    ix = int (r);
    IDX[i] = ix;
    /* the weight of index ix, (64 ix + 7) / 15 truncated */
    fw = float (ix * 64 + 7) * RCP15;
    WT[i] = float (int (fw)) * 0.015625;
#if QUALITY == 1
    {
      precise float wt = WT[i] * 64.0;

      err += pixel_error (P[i], a64, d, wt);
    }
#endif
  }
  return err;
}

/* encode_mode6 (): mode 6 from the principal axis and @refits
 * least-squares refits: the last one (fast), or with @keep_best the one
 * of least error */
void encode_mode6 (int refits, bool keep_best)
{
  precise vec4 mean, v, ax, ef0, ef1;
  precise float tmin = 0.0, tmax = 0.0;
  ivec4 q[2], bq[2];
  int pb[2], bpb[2];
  vec4 x[2];
  int i, it;
  bool f;

  for (i = 0; i < 16; i++)
    SUB[i] = 0;
  subset_axis (0, 1.0, 2, mean, v, ax);
  for (i = 0; i < 16; i++) {
    precise float t = (P[i].x - mean.x) * v.x + (P[i].y - mean.y) * v.y +
        (P[i].z - mean.z) * v.z + (P[i].w - mean.w) * v.w;

    tmin = t < tmin ? t : tmin;
    tmax = t > tmax ? t : tmax;
  }
  {
    precise vec4 e1 = mean + tmax * ax, e0 = mean + tmin * ax;

    ef1 = clamp255v (e1);
    ef0 = clamp255v (e0);
  }

  K_ERR = BIG;
  for (it = 0; it <= refits; it++) {
    precise float err;

    quantize_mode6 (ef0, q[0], pb[0], x[0]);
    quantize_mode6 (ef1, q[1], pb[1], x[1]);
    err = indices_mode6 (x);
    if (!keep_best || err < K_ERR) {
      bq = q;
      bpb = pb;
      K_IDX = IDX;
      K_ERR = keep_best ? err : K_ERR;
    }
    if (it == refits)
      break;
    refit (0, ef0, ef1);
  }

  /* pixel 0's index must have its top bit clear */
  f = K_IDX[0] > 7;
  K_Q[0] = f ? bq[1] : bq[0];
  K_Q[1] = f ? bq[0] : bq[1];
  K_PB[0] = f ? bpb[1] : bpb[0];
  K_PB[1] = f ? bpb[0] : bpb[1];
  K_MODE = 6;
  K_PART = 0;
  K_ERR = keep_best ? K_ERR : 0.0;
  for (i = 0; i < 16; i++)
    K_IDX[i] = f ? 15 - K_IDX[i] : K_IDX[i];
}
#endif

#if QUALITY > 0
/* subset_score (): the off-axis energy of a subset from its sums (n
 * pixels; s0: sums of r, g, b; s1: of rr, rg, rb; s2: of gg, gb, bb) plus
 * the quantisation error along the axis for 3-bit indices */
float subset_score (float n, vec3 s0, vec3 s1, vec3 s2)
{
  precise float inv = n > 0.0 ? 1.0 / n : 0.0;
  precise float crr = s1.x - s0.x * s0.x * inv;
  precise float crg = s1.y - s0.x * s0.y * inv;
  precise float crb = s1.z - s0.x * s0.z * inv;
  precise float cgg = s2.x - s0.y * s0.y * inv;
  precise float cgb = s2.y - s0.y * s0.z * inv;
  precise float cbb = s2.z - s0.z * s0.z * inv;
  precise float tr = crr + cgg + cbb;
  precise float x, y, z, lambda, n2, nx, ny, nz, sc;

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
  if (n2 > EPS_N2) {
    precise float num = x * nx + y * ny + z * nz;

    lambda = num / n2;
  } else {
    lambda = 0.0;
  }
  lambda = lambda > tr ? tr : (lambda < 0.0 ? 0.0 : lambda);
  sc = tr - lambda + lambda * INV49;
  return sc;
}

/* rank_partitions (): the @n_top best-scoring of the first @n_parts
 * partitions of @ns subsets into TOP, best first (ties: the lower
 * partition). A subset's sums add its pixels row by row, each row from its
 * last pixel to its first, as the C code's row tables do. */
void rank_partitions (int ns, int n_parts, int n_top)
{
  precise vec3 tot0 = vec3 (0.0), tot1 = vec3 (0.0), tot2 = vec3 (0.0);
  precise float score[6];
  int i, r, part;

  for (i = 0; i < 16; i++) {
    tot0 += ST0[i];
    tot1 += ST1[i];
    tot2 += ST2[i];
  }
  for (r = 0; r < n_top; r++) {
    score[r] = BIG;
    TOP[r] = 0;
  }
  for (part = 0; part < n_parts; part++) {
    uint tab = ns == 2 ? PART2[part] : PART3[part];
    precise vec3 sub0[2], sub1[2], sub2[2];
    precise float cnt[3], sc = 0.0;
    int pp = part, u;

    cnt[0] = 0.0;
    cnt[1] = 0.0;
    cnt[2] = 0.0;
    for (i = 0; i < 16; i++)
      cnt[int ((tab >> uint (2 * i)) & 3u)] += 1.0;
    for (u = 0; u < 2; u++) {
      precise vec3 row0[4], row1[4], row2[4];
      int row, px;

      for (row = 0; row < 4; row++) {
        row0[row] = vec3 (0.0);
        row1[row] = vec3 (0.0);
        row2[row] = vec3 (0.0);
        for (px = 3; px >= 0; px--) {
          int j = row * 4 + px;

          if (u < ns - 1 && int ((tab >> uint (2 * j)) & 3u) == u + 1) {
            row0[row] += ST0[j];
            row1[row] += ST1[j];
            row2[row] += ST2[j];
          }
        }
      }
      sub0[u] = (row0[0] + row0[1]) + (row0[2] + row0[3]);
      sub1[u] = (row1[0] + row1[1]) + (row1[2] + row1[3]);
      sub2[u] = (row2[0] + row2[1]) + (row2[2] + row2[3]);
    }
    for (u = 0; u < ns; u++) {
      precise vec3 a, b, c;

      if (u == 0) {
        a = tot0 - sub0[0] - sub0[1];
        b = tot1 - sub1[0] - sub1[1];
        c = tot2 - sub2[0] - sub2[1];
      } else {
        a = sub0[u - 1];
        b = sub1[u - 1];
        c = sub2[u - 1];
      }
      sc += subset_score (cnt[u], a, b, c);
    }
    /* insertion into the sorted list: strictly better moves up */
    for (r = 0; r < n_top; r++) {
      bool b = sc < score[r];
      precise float ts = score[r];
      int tp = TOP[r];

      score[r] = b ? sc : ts;
      TOP[r] = b ? pp : tp;
      sc = b ? ts : sc;
      pp = b ? tp : pp;
    }
  }
}
#endif

/* pack_block (): the 128 bits of the kept block */
uint g_bits[4];
int g_pos;

void put (int n, int v)
{
  uint x;
  int word, off;

  if (n == 0)
    return;
  x = uint (v) & ((1u << uint (n)) - 1u);
  word = g_pos >> 5;
  off = g_pos & 31;
  g_bits[word] |= x << uint (off);
  if (off + n > 32)
    g_bits[word + 1] |= x >> uint (32 - off);
  g_pos += n;
}

void pack_block ()
{
  int mode = K_MODE, part = K_PART;
  int ns = mode == 6 || mode == 5 ? 1 : (mode == 1 || mode == 3 ? 2 : 3);
  int cb = mode == 0 ? 4 : (mode == 1 ? 6 : (mode == 2 ? 5 : 7));
  int ab = mode == 6 ? 7 : 0;
  int pbit = mode == 1 ? 1 : (mode == 2 ? 0 : 2);
  int ib = mode == 0 || mode == 1 ? 3 : (mode == 6 ? 4 : 2);
  int pbits = mode == 6 ? 0 : (mode == 0 ? 4 : 6);
  int a1 = 16, a2 = 16;
  int s, e, c, i;

  g_bits[0] = 0u;
  g_bits[1] = 0u;
  g_bits[2] = 0u;
  g_bits[3] = 0u;
  g_pos = 0;
  if (mode == 5) {
    /* a solid block: 7-bit colour endpoints interpolated at index 1, both
     * alpha endpoints the alpha value at index 0; no rotation */
    put (6, 0x20);
    put (2, 0);
    for (c = 0; c < 3; c++)
      for (e = 0; e < 2; e++)
        put (7, K_Q[e][c]);
    put (8, K_Q[0].w);
    put (8, K_Q[0].w);
    put (1, 1);
    for (i = 1; i < 16; i++)
      put (2, 1);
    return;
  }
  if (ns == 2) {
    a1 = int (ANCHORS[part] & 0xffu);
  } else if (ns == 3) {
    a1 = int ((ANCHORS[part] >> 8) & 0xffu);
    a2 = int ((ANCHORS[part] >> 16) & 0xffu);
  }
  put (mode + 1, 1 << mode);
  put (pbits, part);
  for (c = 0; c < 3; c++)
    for (s = 0; s < ns; s++)
      for (e = 0; e < 2; e++)
        put (cb, K_Q[2 * s + e][c]);
  if (ab != 0)
    for (s = 0; s < ns; s++)
      for (e = 0; e < 2; e++)
        put (ab, K_Q[2 * s + e].w);
  if (pbit == 2) {
    for (s = 0; s < ns; s++)
      for (e = 0; e < 2; e++)
        put (1, K_PB[2 * s + e]);
  } else if (pbit == 1) {
    for (s = 0; s < ns; s++)
      put (1, K_PB[2 * s]);
  }
  for (i = 0; i < 16; i++)
    put (ib - (i == 0 || i == a1 || i == a2 ? 1 : 0), K_IDX[i]);
}

void main ()
{
  ivec2 blk = ivec2 (gl_GlobalInvocationID.xy);
  int i, c;
  bool solid;

  if (blk.x >= u_blocks.x || blk.y >= u_blocks.y)
    return;

  for (i = 0; i < 16; i++)
    P[i] = vec4 (block_pixel (blk, i));
  g_opaque = true;
  for (i = 0; i < 16; i++)
    g_opaque = g_opaque && P[i].w == 255.0;

#if QUALITY == 0
  encode_mode6 (1, false);
#elif QUALITY == 1
  /* mode 6 from the fast fit with three refits; unless it is lossless,
   * modes 1 and 3 on the two best-ranked partitions, one refit */
  encode_mode6 (3, true);
  if (!(K_ERR <= 0.0)) {
    for (i = 0; i < 16; i++) {
      ST0[i] = P[i].xyz;
      ST1[i] = vec3 (P[i].x * P[i].x, P[i].x * P[i].y, P[i].x * P[i].z);
      ST2[i] = vec3 (P[i].y * P[i].y, P[i].y * P[i].z, P[i].z * P[i].z);
    }
    rank_partitions (2, 64, 2);
    for (i = 0; i < 4; i++)
      encode_mode ((i & 1) == 0 ? 1 : 3, TOP[i >> 1], 1, false, false,
          false);
  }
#else
  /* everything with exact indices, three refits, every p-bit combination:
   * mode 6; unless it is lossless, modes 1 and 3 on six partitions, mode 2
   * on three of 64, mode 0 on three of 16 */
  {
    int stage, j;

    for (i = 0; i < 16; i++) {
      ST0[i] = P[i].xyz;
      ST1[i] = vec3 (P[i].x * P[i].x, P[i].x * P[i].y, P[i].x * P[i].z);
      ST2[i] = vec3 (P[i].y * P[i].y, P[i].y * P[i].z, P[i].z * P[i].z);
    }
    for (stage = 0; stage < 4; stage++) {
      int n_top = stage == 0 ? 1 : (stage == 1 ? 6 : 3);
      int n_modes = stage == 1 ? 2 : 1;

      if (stage > 0 && K_ERR <= 0.0)
        break;
      if (stage == 0)
        TOP[0] = 0;
      else
        rank_partitions (stage == 1 ? 2 : 3, stage == 3 ? 16 : 64, n_top);
      for (j = 0; j < n_top * n_modes; j++) {
        int mode = stage == 0 ? 6 : (stage == 1 ? ((j & 1) == 0 ? 1 : 3) :
            (stage == 2 ? 2 : 0));

        encode_mode (mode, TOP[j / n_modes], 3, true, true, stage == 0);
      }
    }
  }
#endif

  /* solid blocks: mode 5, exact */
  solid = true;
  for (i = 1; i < 16; i++)
    solid = solid && P[i] == P[0];
  if (solid) {
    K_MODE = 5;
    for (c = 0; c < 3; c++) {
      precise float r = P[0][c] + 0.5;
      uint t = SOLID[int (r)];

      K_Q[0][c] = int (t & 0xffu);
      K_Q[1][c] = int (t >> 8);
    }
    {
      precise float r = P[0].w + 0.5;

      K_Q[0].w = int (r);
    }
  }

  pack_block ();
  put_block16 (blk, uvec2 (g_bits[0], g_bits[1]),
      uvec2 (g_bits[2], g_bits[3]));
}
