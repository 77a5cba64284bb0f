/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The per-block BC6H encoder of one sign: high, fast and normal's rare
 * blocks whose anchor breaks their mode's differences (see the top of
 * bcencode-bc6h.c). bcencode-bc6h.c includes this file twice, with
 * BC6H_SGN 0 (unsigned BC6H) and 1 (signed), BC6H_FN (name) naming the
 * functions of each (name_u, name_s): the sign is a constant in each
 * copy, which the compiler folds into the quantization, the
 * interpolation and the clamps (read from the block's pixels, a run-time
 * value, it made high 8 % slower). */

#if !defined (BC6H_SGN) || !defined (BC6H_FN)
#error "bcencode-bc6h.c includes this file with BC6H_SGN and BC6H_FN"
#endif

/* The principal-axis fit of the pixels of region @r of @subsets: @lo and
 * @hi, the extreme projections, in h */
static void
BC6H_FN (fit_region) (const Bc6hPixels * p, const guint8 * subsets, gint r,
    float lo[3], float hi[3])
{
  float m[16], n = 0.0f, mean[3] = { 0.0f, 0.0f, 0.0f };
  float cov[6] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
  float axis[3], tmin = 0.0f, tmax = 0.0f, len;
  gint i, c, it, k;

  for (i = 0; i < 16; i++) {
    m[i] = subsets[i] == r ? 1.0f : 0.0f;
    n += m[i];
  }
  for (c = 0; c < 3; c++) {
    float s = 0.0f;

    for (i = 0; i < 16; i++)
      s += m[i] * p->h[c][i];
    mean[c] = s / n;
  }
  for (i = 0; i < 16; i++) {
    float d0 = p->h[0][i] - mean[0];
    float d1 = p->h[1][i] - mean[1];
    float d2 = p->h[2][i] - mean[2];

    cov[0] += m[i] * d0 * d0;
    cov[1] += m[i] * d0 * d1;
    cov[2] += m[i] * d0 * d2;
    cov[3] += m[i] * d1 * d1;
    cov[4] += m[i] * d1 * d2;
    cov[5] += m[i] * d2 * d2;
  }
  /* start from the column of the largest variance */
  k = cov[0] >= cov[3] && cov[0] >= cov[5] ? 0 : (cov[3] >= cov[5] ? 1 : 2);
  axis[0] = k == 0 ? cov[0] : (k == 1 ? cov[1] : cov[2]);
  axis[1] = k == 0 ? cov[1] : (k == 1 ? cov[3] : cov[4]);
  axis[2] = k == 0 ? cov[2] : (k == 1 ? cov[4] : cov[5]);
  for (it = 0; it < 3; it++) {
    float x = cov[0] * axis[0] + cov[1] * axis[1] + cov[2] * axis[2];
    float y = cov[1] * axis[0] + cov[3] * axis[1] + cov[4] * axis[2];
    float z = cov[2] * axis[0] + cov[4] * axis[1] + cov[5] * axis[2];
    float mx = MAX (MAX (ABS (x), ABS (y)), ABS (z));

    if (mx <= 0.0f)
      break;
    axis[0] = x / mx;
    axis[1] = y / mx;
    axis[2] = z / mx;
  }
  len = axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2];
  if (len > 1e-12f) {
    len = 1.0f / __builtin_sqrtf (len);
    for (c = 0; c < 3; c++)
      axis[c] *= len;
    for (i = 0; i < 16; i++) {
      float t = m[i] * ((p->h[0][i] - mean[0]) * axis[0] +
          (p->h[1][i] - mean[1]) * axis[1] + (p->h[2][i] - mean[2]) * axis[2]);

      tmin = MIN (tmin, t);
      tmax = MAX (tmax, t);
    }
  } else {
    axis[0] = axis[1] = axis[2] = 0.0f;
  }
  for (c = 0; c < 3; c++) {
    lo[c] = CLAMP (mean[c] + tmin * axis[c], h_min (BC6H_SGN), H_MAX);
    hi[c] = CLAMP (mean[c] + tmax * axis[c], h_min (BC6H_SGN), H_MAX);
  }
}

/* Least-squares endpoints of region @r for the indices of @cand:
 * %FALSE when the indices do not determine them */
static gboolean
BC6H_FN (refit_region) (const Bc6hPixels * p, const guint8 * subsets, gint r,
    const guint8 * idx, const guint8 * weights, float lo[3], float hi[3])
{
  float aa[3] = { 0, 0, 0 }, ab[3] = { 0, 0, 0 }, bb[3] = { 0, 0, 0 };
  float pa[3] = { 0, 0, 0 }, pb[3] = { 0, 0, 0 };
  gint i, c;

  for (i = 0; i < 16; i++) {
    float b, a;

    if (subsets[i] != r)
      continue;
    b = weights[idx[i]] * (1.0f / 64.0f);
    a = 1.0f - b;
    for (c = 0; c < 3; c++) {
      float w = p->w[c][i];

      aa[c] += w * a * a;
      ab[c] += w * a * b;
      bb[c] += w * b * b;
      pa[c] += w * a * p->h[c][i];
      pb[c] += w * b * p->h[c][i];
    }
  }
  for (c = 0; c < 3; c++) {
    float det = aa[c] * bb[c] - ab[c] * ab[c];

    /* (relative to the weights' scale) */
    if (det <= 1e-6f * (aa[c] + bb[c]) * (aa[c] + bb[c]))
      return FALSE;
  }
  for (c = 0; c < 3; c++) {
    float det = 1.0f / (aa[c] * bb[c] - ab[c] * ab[c]);

    lo[c] = CLAMP ((bb[c] * pa[c] - ab[c] * pb[c]) * det, h_min (BC6H_SGN),
        H_MAX);
    hi[c] = CLAMP ((aa[c] * pb[c] - ab[c] * pa[c]) * det, h_min (BC6H_SGN),
        H_MAX);
  }
  return TRUE;
}

/* Indices of the pixels of region @r for the quantized endpoints
 * @ep (of @epb bits) and their summed error */
static float
BC6H_FN (assign_region) (const Bc6hPixels * p, const guint8 * subsets, gint r,
    const gint ep[2][3], guint epb, guint ib, gboolean exhaustive, guint8 * idx)
{
  const guint8 *weights = ib == 3 ? bc_bptc_weights3 : bc_bptc_weights4;
  const gint n = 1 << ib;
  float pal[16][3], d[3], dd, err = 0.0f;
  gint a[3], b[3], k, c, i;

  for (c = 0; c < 3; c++) {
    a[c] = gst_bc6h_unquantize (ep[0][c], epb, BC6H_SGN);
    b[c] = gst_bc6h_unquantize (ep[1][c], epb, BC6H_SGN);
  }
  for (k = 0; k < n; k++)
    for (c = 0; c < 3; c++)
      pal[k][c] = (float) interpolate (a[c], b[c], weights[k], BC6H_SGN);
  for (c = 0; c < 3; c++)
    d[c] = pal[n - 1][c] - pal[0][c];
  dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  dd = dd > 0.0f ? (n - 1) / dd : 0.0f;

  for (i = 0; i < 16; i++) {
    float best = G_MAXFLOAT;
    gint lo, hi, bk = 0;

    if (subsets[i] != r)
      continue;
    if (exhaustive) {
      lo = 0;
      hi = n - 1;
    } else {
      float t = ((p->h[0][i] - pal[0][0]) * d[0] +
          (p->h[1][i] - pal[0][1]) * d[1] +
          (p->h[2][i] - pal[0][2]) * d[2]) * dd;
      gint q = (gint) CLAMP (t + 0.5f, 0.0f, (float) (n - 1));

      lo = MAX (q - 1, 0);
      hi = MIN (q + 1, n - 1);
    }
    for (k = lo; k <= hi; k++) {
      float e0 = pal[k][0] - p->h[0][i];
      float e1 = pal[k][1] - p->h[1][i];
      float e2 = pal[k][2] - p->h[2][i];
      float e = p->w[0][i] * e0 * e0 + p->w[1][i] * e1 * e1 +
          p->w[2][i] * e2 * e2;

      if (e < best) {
        best = e;
        bk = k;
      }
    }
    idx[i] = (guint8) bk;
    err += best;
  }
  return err;
}

/* Encodes the endpoints @ef in mode row @row into @cand: quantized,
 * indexed, anchors fixed; %FALSE when the endpoints do not fit the mode */
static gboolean
BC6H_FN (try_mode) (const Bc6hPixels * p, gint row, guint partition,
    const Bc6hEndpoints ef, gboolean exhaustive, Bc6hCand * cand)
{
  const Bc6hMode *m = &bc6h_modes[row];
  const guint8 *subsets = m->regions == 2 ? bc7_partitions2[partition] :
      one_region;
  const guint ib = m->regions == 2 ? 3 : 4;
  const guint top = 1u << (ib - 1);
  gint swapped[2][2][3];
  gint r, e, c, i;

  /* the differences cannot fit, whichever endpoint of region 0 is the
   * base (in 16-bit units, with a code of slack for the rounding) */
  if (m->transformed) {
    gfloat unit = (gfloat) (1 << (16 - m->epb)) * (BC6H_SGN ? 31.0f / 32.0f :
        31.0f / 64.0f);
    gboolean ok[2] = { TRUE, TRUE };
    gint b;

    for (b = 0; b < 2; b++)
      for (c = 0; c < 3; c++) {
        gfloat lim = ((1 << (m->delta[c] - 1)) + 1) * unit;

        for (r = 0; r < m->regions; r++)
          for (e = 0; e < 2; e++)
            ok[b] &= ABS (ef[r][e][c] - ef[0][b][c]) <= lim;
      }
    if (!ok[0] && !ok[1])
      return FALSE;
  }

  for (r = 0; r < m->regions; r++)
    for (e = 0; e < 2; e++)
      for (c = 0; c < 3; c++)
        cand->ep[r][e][c] = quantize (ef[r][e][c], m->epb, BC6H_SGN);
  /* neither orientation of region 0 fits: no need to index */
  if (m->transformed && !fits (m, (const gint (*)[2][3]) cand->ep)) {
    memcpy (swapped, cand->ep, sizeof (swapped));
    for (c = 0; c < 3; c++) {
      swapped[0][0][c] = cand->ep[0][1][c];
      swapped[0][1][c] = cand->ep[0][0][c];
    }
    if (!fits (m, (const gint (*)[2][3]) swapped))
      return FALSE;
  }

  cand->row = row;
  cand->partition = partition;
  cand->err = 0.0f;
  for (r = 0; r < m->regions; r++) {
    guint anchor = r == 0 ? 0 : bc7_anchors2[partition];

    cand->err += BC6H_FN (assign_region) (p, subsets, r,
        (const gint (*)[3]) cand->ep[r], m->epb, ib, exhaustive, cand->idx);
    if (cand->idx[anchor] >= top) {
      for (c = 0; c < 3; c++) {
        gint t = cand->ep[r][0][c];

        cand->ep[r][0][c] = cand->ep[r][1][c];
        cand->ep[r][1][c] = t;
      }
      for (i = 0; i < 16; i++)
        if (subsets[i] == r)
          cand->idx[i] = (guint8) (2 * top - 1 - cand->idx[i]);
    }
  }
  return fits (m, (const gint (*)[2][3]) cand->ep);
}

/* The first of @rows (or, @all, every one) that fits @ef, into @best when
 * better */
static void
BC6H_FN (try_rows) (const Bc6hPixels * p, const guint8 * rows, gint n_rows,
    guint partition, const Bc6hEndpoints ef, gboolean all,
    gboolean exhaustive, gfloat bound, Bc6hCand * best)
{
  Bc6hCand cand;
  gint i;

  for (i = 0; i < n_rows; i++) {
    /* the rows come by falling precision: once the expected error of
     * quantizing to a row's endpoint bits alone (uniform, step^2 / 12 a
     * value) exceeds the best block's error, no later row can win */
    gfloat step = 65536.0f * (BC6H_SGN ? 31.0f / 32.0f : 31.0f / 64.0f) /
        (gfloat) (1 << bc6h_modes[rows[i]].epb);

    if (p->wsum * step * step / 12.0f > MIN (best->err, bound))
      break;
    if (!BC6H_FN (try_mode) (p, rows[i], partition, ef, exhaustive, &cand))
      continue;
    if (cand.err < best->err)
      *best = cand;
    if (!all)
      return;
  }
}

/* Fits and encodes the regions of @partition (one region: @rows of
 * the one-region modes), then @refits least-squares refits */
static void
BC6H_FN (encode_partition) (const Bc6hPixels * p, const guint8 * rows,
    gint n_rows, guint partition, gint refits, gboolean all,
    gboolean exhaustive, Bc6hCand * best)
{
  const Bc6hMode *m = &bc6h_modes[rows[0]];
  const guint8 *subsets = m->regions == 2 ? bc7_partitions2[partition] :
      one_region;
  const guint8 *weights = m->regions == 2 ? bc_bptc_weights3 : bc_bptc_weights4;
  Bc6hEndpoints ef;
  Bc6hCand cur;
  gint r, it;

  cur.err = G_MAXFLOAT;
  for (r = 0; r < m->regions; r++)
    BC6H_FN (fit_region) (p, subsets, r, ef[r][0], ef[r][1]);
  BC6H_FN (try_rows) (p, rows, n_rows, partition,
      (const float (*)[2][3]) ef, all, exhaustive, best->err, &cur);

  for (it = 0; it < refits && cur.err > 0.0f && cur.err < G_MAXFLOAT; it++) {
    Bc6hCand next;

    next.err = G_MAXFLOAT;
    for (r = 0; r < m->regions; r++) {
      if (!BC6H_FN (refit_region) (p, subsets, r, cur.idx, weights, ef[r][0],
              ef[r][1])) {
        /* one index for the whole region: its endpoints as they are */
        guint epb = bc6h_modes[cur.row].epb;
        gint e, c;

        for (e = 0; e < 2; e++)
          for (c = 0; c < 3; c++)
            ef[r][e][c] = (float) interpolate (gst_bc6h_unquantize
                (cur.ep[r][0][c], epb, BC6H_SGN),
                gst_bc6h_unquantize (cur.ep[r][1][c], epb, BC6H_SGN),
                weights[cur.idx[r == 0 ? 0 : bc7_anchors2[partition]]],
                BC6H_SGN);
      }
    }
    BC6H_FN (try_rows) (p, rows, n_rows, partition,
        (const float (*)[2][3]) ef, all, exhaustive, best->err, &next);
    if (next.err >= cur.err)
      break;
    cur = next;
  }
  if (cur.err < best->err)
    *best = cur;
}

/* ---------------------------------------------------------------------- */
/* quality=fast: one region, written for speed (loops the compiler turns
 * into vector instructions, no search over the modes)                     */

/* The most precise one-region row whose differences fit @ep, whose region
 * 0 is oriented already */
static gint
BC6H_FN (fast_row) (const float ef[2][3], gint ep[2][3])
{
  gint k, e, c;

  for (k = 0; k < 3; k++) {
    const Bc6hMode *m = &bc6h_modes[one_region_rows[k]];
    gint half = 1 << (m->delta[0] - 1);
    gboolean ok = TRUE;

    for (e = 0; e < 2; e++)
      for (c = 0; c < 3; c++)
        ep[e][c] = quantize (ef[e][c], m->epb, BC6H_SGN);
    for (c = 0; c < 3; c++) {
      gint d = ep[1][c] - ep[0][c];

      ok &= d >= -half && d < half;
    }
    if (ok)
      return one_region_rows[k];
  }
  for (e = 0; e < 2; e++)
    for (c = 0; c < 3; c++)
      ep[e][c] = quantize (ef[e][c], 10, BC6H_SGN);
  return 10;
}

/* Indices by projection onto the decoded palette of @ep (row @row) and
 * their error */
static float
BC6H_FN (fast_assign) (const Bc6hPixels * p, gint row, const gint ep[2][3],
    guint8 * idx)
{
  const guint epb = bc6h_modes[row].epb;
  float pal[3][16], d[3], dd, err = 0.0f;
  gint a[3], b[3], k, c, i;
  gint q[16];

  for (c = 0; c < 3; c++) {
    a[c] = gst_bc6h_unquantize (ep[0][c], epb, BC6H_SGN);
    b[c] = gst_bc6h_unquantize (ep[1][c], epb, BC6H_SGN);
    for (k = 0; k < 16; k++)
      pal[c][k] = (float) interpolate (a[c], b[c], bc_bptc_weights4[k],
          BC6H_SGN);
    d[c] = pal[c][15] - pal[c][0];
  }
  dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  dd = dd > 0.0f ? 15.0f / dd : 0.0f;
  for (i = 0; i < 16; i++) {
    float t = ((p->h[0][i] - pal[0][0]) * d[0] +
        (p->h[1][i] - pal[1][0]) * d[1] +
        (p->h[2][i] - pal[2][0]) * d[2]) * dd + 0.5f;

    t = t < 0.0f ? 0.0f : (t > 15.0f ? 15.0f : t);
    q[i] = (gint) t;
  }
  for (i = 0; i < 16; i++) {
    float e0 = pal[0][q[i]] - p->h[0][i];
    float e1 = pal[1][q[i]] - p->h[1][i];
    float e2 = pal[2][q[i]] - p->h[2][i];

    err += p->w[0][i] * e0 * e0 + p->w[1][i] * e1 * e1 + p->w[2][i] * e2 * e2;
    idx[i] = (guint8) q[i];
  }
  return err;
}

/* One pass of fast: endpoints @ef oriented by pixel 0, a row, indices;
 * %FALSE when the anchor rule breaks the row's differences (rare: the
 * general path then does it) */
static gboolean
BC6H_FN (fast_pass) (const Bc6hPixels * p, float ef[2][3], Bc6hCand * cand)
{
  float t0 = 0.0f, len = 0.0f;
  gint c, i;

  /* pixel 0 nearer the second endpoint: swap, so its index is small */
  for (c = 0; c < 3; c++) {
    float d = ef[1][c] - ef[0][c];

    t0 += (p->h[c][0] - ef[0][c]) * d;
    len += d * d;
  }
  if (2.0f * t0 > len) {
    for (c = 0; c < 3; c++) {
      float t = ef[0][c];

      ef[0][c] = ef[1][c];
      ef[1][c] = t;
    }
  }
  cand->row = BC6H_FN (fast_row) ((const float (*)[3]) ef, cand->ep[0]);
  cand->partition = 0;
  cand->err = BC6H_FN (fast_assign) (p, cand->row,
      (const gint (*)[3]) cand->ep[0], cand->idx);
  if (cand->idx[0] >= 8) {
    for (c = 0; c < 3; c++) {
      gint t = cand->ep[0][0][c];

      cand->ep[0][0][c] = cand->ep[0][1][c];
      cand->ep[0][1][c] = t;
    }
    for (i = 0; i < 16; i++)
      cand->idx[i] = (guint8) (15 - cand->idx[i]);
    return fits (&bc6h_modes[cand->row], (const gint (*)[2][3]) cand->ep);
  }
  return TRUE;
}

static void
BC6H_FN (fast_block) (const Bc6hPixels * p, Bc6hCand * best)
{
  Bc6hEndpoints ef;
  Bc6hCand next;

  BC6H_FN (fit_region) (p, one_region, 0, ef[0][0], ef[0][1]);
  if (!BC6H_FN (fast_pass) (p, ef[0], best)) {
    best->err = G_MAXFLOAT;
    BC6H_FN (encode_partition) (p, one_region_rows,
        G_N_ELEMENTS (one_region_rows), 0, 1, FALSE, FALSE, best);
    return;
  }
  if (best->err > 0.0f && BC6H_FN (refit_region) (p, one_region, 0, best->idx,
          bc_bptc_weights4, ef[0][0], ef[0][1]) &&
      BC6H_FN (fast_pass) (p, ef[0], &next) && next.err < best->err)
    *best = next;
}

/* one block of @quality (0 fast, 1 normal, 2 high) */
static void
BC6H_FN (encode_block) (const Bc6hPixels * p, gint quality, guint8 * out)
{
  Bc6hCand best;
  gint i;

  memset (&best, 0, sizeof (best));
  best.row = 10;
  best.err = G_MAXFLOAT;
  if (quality == 0) {
    BC6H_FN (fast_block) (p, &best);
    pack (&best, out);
    return;
  }
  BC6H_FN (encode_partition) (p, one_region_rows,
      G_N_ELEMENTS (one_region_rows), 0, quality + 1, quality >= 2,
      quality >= 2, &best);

  if (quality >= 1 && best.err > TWO_REGION_THRESHOLD * p->wsum / 48.0f) {
    guint top[8];
    gint n = rank_partitions (p, quality >= 2 ? 6 : 2, top);

    for (i = 0; i < n; i++)
      BC6H_FN (encode_partition) (p, two_region_rows,
          G_N_ELEMENTS (two_region_rows), top[i], 1, quality >= 2,
          quality >= 2, &best);
  }
  pack (&best, out);
}
