/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* quality=normal and high of the GL BC6H encoder: make_source () appends
 * this file to bc6h.comp (whose top says how the port keeps the CPU's
 * operations) for QUALITY 1 and 2. At normal, three dispatches, as the
 * CPU's encode_blocks () does it in three steps:
 *
 *  - PASS 0, every block: lanes_normal (): bc6h.comp's one region (as
 *    fast), written; a block whose anchor breaks its row's differences is
 *    listed in Fallback (binding 2) for PASS 1, one whose error is above
 *    NORMAL_TWO_REGION_THRESHOLD in Two (binding 3), with that error, for
 *    PASS 2;
 *  - PASS 1, the listed blocks of Fallback: the per-block normal,
 *    encode_block (quality 1) of bcencode-bc6h-block.h: one region with
 *    two refits, then, above TWO_REGION_THRESHOLD, the two partitions
 *    rank_partitions () ranks best, pack ();
 *  - PASS 2, the blocks of Two: lanes_two (): the partition of
 *    lanes_rank (), lanes_fit2 (), lanes_proj2 (), lanes_refit2 (),
 *    lanes_pass2 () and lanes_pack2 (); the block is written again when
 *    its two regions are valid and of less error than its one region.
 *
 * The CPU lists a group's blocks and runs the lanes over the list; a
 * block's result depends on its pixels only, so the lists' order does not
 * matter (PASS 1 and PASS 2 write different blocks). As in lanes_pass (),
 * lanes_pass2 () stops at the first row that fits.
 *
 * At high (QUALITY 2) the CPU runs encode_block () (quality 2) of
 * bcencode-bc6h-block.h on every block: the per-block code of PASS 1,
 * with every row tried (try_rows () all), every index searched
 * (assign_region () exhaustive), three refits of the one region and the
 * six best-ranked partitions (HIGH below). Two dispatches split it where
 * the C code branches on the one region's error:
 *
 *  - PASS 0, every block: the one region (encode_partition () over the
 *    one-region rows, three refits), written; a block whose error is
 *    above TWO_REGION_THRESHOLD is listed in Two with that error;
 *  - PASS 2, the blocks of Two: the six partitions of rank_partitions (),
 *    each encode_partition () with one refit, bounded by that error as
 *    the C code is by the one-region candidate; the block is written
 *    again when one of them has less error. */

/* the blocks of PASS 2: the indirect dispatch's work groups (x, y, z),
 * their count, and for each the block (row-major) and the bits of its one
 * region's error */
layout (std430, binding = 3) buffer Two {
  uint u_two_groups[3];
  uint u_two_count;
  uvec2 u_two[];
};

/* one-region error (weighted, summed) below which the per-block code does
 * not try two regions, per weight of the block: TWO_REGION_THRESHOLD / 48
 * (an RMS of 3 half-float steps a channel); the lanes' 600 times that,
 * NORMAL_TWO_REGION_THRESHOLD */
#define TWO_THRESHOLD 432.0
#define NORMAL_THRESHOLD 259200.0

/* the rows of bc6h_modes (0 to 13: modes 1 to 14): endpoint bits, delta
 * bits of R, G, B, transformed */
const int MODE_EPB[14] = int[14] (10, 7, 11, 11, 11, 9, 8, 8, 8, 6, 10, 11,
    12, 16);
const ivec3 MODE_DELTA[14] = ivec3[14] (ivec3 (5, 5, 5), ivec3 (6, 6, 6),
    ivec3 (5, 4, 4), ivec3 (4, 5, 4), ivec3 (4, 4, 5), ivec3 (5, 5, 5),
    ivec3 (6, 5, 5), ivec3 (5, 6, 5), ivec3 (5, 5, 6), ivec3 (6, 6, 6),
    ivec3 (10, 10, 10), ivec3 (9, 9, 9), ivec3 (8, 8, 8), ivec3 (4, 4, 4));
const bool MODE_TRANSFORMED[14] = bool[14] (true, true, true, true, true,
    true, true, true, true, false, false, true, true, true);

/* two_region_rows and one_region_rows of the CPU, by falling precision */
const int TWO_ROWS[10] = int[10] (2, 3, 4, 0, 5, 6, 7, 8, 1, 9);
const int ONE_ROWS[4] = int[4] (13, 12, 11, 10);

/* the region of pixel i in partition p */
int subset (int p, int i)
{
  return int ((PART2[p] >> uint (2 * i)) & 1u);
}

/* the interpolation weight (of 64) of index q of ib bits (lanes_weight3
 * (), lanes_weight4 (), bc_bptc_weights3/4) */
int weight (int q, int ib)
{
  return ib == 3 ? 9 * q + (q >> 2) : 4 * q + ((q + 2) >> 2);
}

/* the block's weights summed, as the CPU sums them (channel-major) */
float weight_sum ()
{
  precise float s = 0.0;
  int i, c;

  for (c = 0; c < 3; c++)
    for (i = 0; i < 16; i++)
      s += W[c][i];
  return s;
}

/* the two-region block header: mode row, partition, endpoints
 * [region * 2 + endpoint] (quantized, the encoder's values) and 3-bit
 * indices from bit 82 (2 at pixel 0 and at the anchor) */
void pack_two (ivec2 blk, int row, int part, ivec3 ep[4], int q[16])
{
  uint base = uint (blk.y * u_blocks.x + blk.x) * 4u;
  const uint MODE[10] = uint[10] (0u, 1u, 2u, 6u, 10u, 14u, 18u, 22u, 26u,
      30u);
  uint fields[14];
  int anc = int (ANCHOR2[part]), r, e, c, i, p;

  for (r = 0; r < 2; r++)
    for (e = 0; e < 2; e++)
      for (c = 0; c < 3; c++) {
        int v = ep[r * 2 + e][c];

        if (MODE_TRANSFORMED[row] && (r | e) != 0)
          v = (v - ep[0][c]) & ((1 << MODE_DELTA[row][c]) - 1);
        fields[(r * 2 + e) * 3 + c] = uint (v);
      }
  fields[12] = uint (part);
  fields[13] = MODE[row];
  BW[0] = 0u;
  BW[1] = 0u;
  BW[2] = 0u;
  BW[3] = 0u;
  BPOS = 0u;
  for (p = 0; p < 82; p++) {
    uint k = uint (row * 82 + p);
    uint b = (HEADER2[k >> 2] >> ((k & 3u) * 8u)) & 0xffu;

    bits_write ((fields[b >> 4] >> (b & 15u)) & 1u, 1u);
  }
  for (i = 0; i < 16; i++)
    bits_write (uint (q[i]), i == 0 || i == anc ? 2u : 3u);
  u_out[base] = BW[0];
  u_out[base + 1u] = BW[1];
  u_out[base + 2u] = BW[2];
  u_out[base + 3u] = BW[3];
}

#if PASS == 1 || QUALITY == 2
/* ---------------------------------------------------------------------- */
/* the per-block normal and high (bcencode-bc6h-block.h)                   */

/* high: try_rows () all, assign_region () exhaustive, the six
 * best-ranked partitions (normal: the first row that fits, indices near
 * the projection, two partitions) */
#if QUALITY == 2
#define HIGH 1
#define N_TOP 6
#else
#define HIGH 0
#define N_TOP 2
#endif

/* Bc6hCand: a mode row (0 to 13), partition, endpoints [region * 2 +
 * endpoint], indices, error */
struct Cand {
  int row;
  int part;
  ivec3 ep[4];
  int q[16];
  float err;
};

float g_wsum;

/* fit_region () of region r of partition part (one region: part -1) */
void fit_region (int part, int r, out vec3 lo, out vec3 hi)
{
  precise float m[16], n = 0.0, mean[3], cov[6], axis[3];
  precise float tmin = 0.0, tmax = 0.0, len;
  int i, c, it, k;

  for (i = 0; i < 16; i++) {
    m[i] = (part < 0 ? 0 : subset (part, i)) == r ? 1.0 : 0.0;
    n += m[i];
  }
  for (c = 0; c < 3; c++) {
    precise float s = 0.0;

    for (i = 0; i < 16; i++)
      s += m[i] * H[c][i];
    mean[c] = s / n;
  }
  for (c = 0; c < 6; c++)
    cov[c] = 0.0;
  for (i = 0; i < 16; i++) {
    precise float d0 = H[0][i] - mean[0];
    precise float d1 = H[1][i] - mean[1];
    precise float d2 = H[2][i] - mean[2];

    cov[0] += m[i] * d0 * d0;
    cov[1] += m[i] * d0 * d1;
    cov[2] += m[i] * d0 * d2;
    cov[3] += m[i] * d1 * d1;
    cov[4] += m[i] * d1 * d2;
    cov[5] += m[i] * d2 * d2;
  }
  k = cov[0] >= cov[3] && cov[0] >= cov[5] ? 0 : (cov[3] >= cov[5] ? 1 : 2);
  axis[0] = k == 0 ? cov[0] : (k == 1 ? cov[1] : cov[2]);
  axis[1] = k == 0 ? cov[1] : (k == 1 ? cov[3] : cov[4]);
  axis[2] = k == 0 ? cov[2] : (k == 1 ? cov[4] : cov[5]);
  for (it = 0; it < 3; it++) {
    precise float x = cov[0] * axis[0] + cov[1] * axis[1] + cov[2] * axis[2];
    precise float y = cov[1] * axis[0] + cov[3] * axis[1] + cov[4] * axis[2];
    precise float z = cov[2] * axis[0] + cov[4] * axis[1] + cov[5] * axis[2];
    precise float ax = x < 0.0 ? -x : x;
    precise float ay = y < 0.0 ? -y : y;
    precise float az = z < 0.0 ? -z : z;
    precise float mxy = ax > ay ? ax : ay;
    precise float mx = mxy > az ? mxy : az;

    if (mx <= 0.0)
      break;
    axis[0] = x / mx;
    axis[1] = y / mx;
    axis[2] = z / mx;
  }
  len = axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2];
  if (len > EPS_LEN) {
    precise float sq = sqrt (len);

    len = 1.0 / sq;
    for (c = 0; c < 3; c++)
      axis[c] *= len;
    for (i = 0; i < 16; i++) {
      precise float t = m[i] * ((H[0][i] - mean[0]) * axis[0] +
          (H[1][i] - mean[1]) * axis[1] + (H[2][i] - mean[2]) * axis[2]);

      tmin = tmin < t ? tmin : t;
      tmax = tmax > t ? tmax : t;
    }
  } else {
    axis[0] = 0.0;
    axis[1] = 0.0;
    axis[2] = 0.0;
  }
  for (c = 0; c < 3; c++) {
    precise float l = mean[c] + tmin * axis[c];
    precise float h = mean[c] + tmax * axis[c];

    lo[c] = l > H_MAX ? H_MAX : (l < H_MIN ? H_MIN : l);
    hi[c] = h > H_MAX ? H_MAX : (h < H_MIN ? H_MIN : h);
  }
}

/* refit_region (): the least-squares endpoints of region r for the
 * indices q (of ib bits); false, lo and hi left, when undetermined */
bool refit_region (int part, int r, int q[16], int ib, inout vec3 lo,
    inout vec3 hi)
{
  precise float aa[3], ab[3], bb[3], pa[3], pb[3];
  int i, c;

  for (c = 0; c < 3; c++) {
    aa[c] = 0.0;
    ab[c] = 0.0;
    bb[c] = 0.0;
    pa[c] = 0.0;
    pb[c] = 0.0;
  }
  for (i = 0; i < 16; i++) {
    precise float b, a;

    if ((part < 0 ? 0 : subset (part, i)) != r)
      continue;
    b = float (weight (q[i], ib)) * 0.015625;
    a = 1.0 - b;
    for (c = 0; c < 3; c++) {
      precise float w = W[c][i];

      aa[c] += w * a * a;
      ab[c] += w * a * b;
      bb[c] += w * b * b;
      pa[c] += w * a * H[c][i];
      pb[c] += w * b * H[c][i];
    }
  }
  for (c = 0; c < 3; c++) {
    precise float det = aa[c] * bb[c] - ab[c] * ab[c];

    if (det <= EPS_DET * (aa[c] + bb[c]) * (aa[c] + bb[c]))
      return false;
  }
  for (c = 0; c < 3; c++) {
    precise float d = aa[c] * bb[c] - ab[c] * ab[c];
    precise float det = 1.0 / d;
    precise float x = (bb[c] * pa[c] - ab[c] * pb[c]) * det;
    precise float y = (aa[c] * pb[c] - ab[c] * pa[c]) * det;

    lo[c] = x > H_MAX ? H_MAX : (x < H_MIN ? H_MIN : x);
    hi[c] = y > H_MAX ? H_MAX : (y < H_MIN ? H_MIN : y);
  }
  return true;
}

/* assign_region (), exhaustive at high: the indices of region r's pixels
 * for the quantized endpoints e0, e1 of epb bits (normal: the projection's
 * and its neighbours; high: the whole palette), their summed error */
float assign_region (int part, int r, ivec3 e0, ivec3 e1, int epb, int ib,
    inout int q[16])
{
  int n = 1 << ib, k, c, i;
  precise float pal[16][3];
  precise vec3 d;
  precise float dd, err = 0.0;
  ivec3 a, b;

  for (c = 0; c < 3; c++) {
    a[c] = unquantize (e0[c], epb);
    b[c] = unquantize (e1[c], epb);
  }
  for (k = 0; k < n; k++)
    for (c = 0; c < 3; c++)
      pal[k][c] = float (interp (a[c], b[c], weight (k, ib)));
#if !HIGH
  for (c = 0; c < 3; c++)
    d[c] = pal[n - 1][c] - pal[0][c];
  dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  dd = dd > 0.0 ? float (n - 1) / dd : 0.0;
#endif
  for (i = 0; i < 16; i++) {
    precise float best = FLT_BIG;
    int lo, hi, bk = 0;

    if ((part < 0 ? 0 : subset (part, i)) != r)
      continue;
#if HIGH
    lo = 0;
    hi = n - 1;
#else
    {
      precise float t, t5;
      int qi;

      t = ((H[0][i] - pal[0][0]) * d[0] + (H[1][i] - pal[0][1]) * d[1] +
          (H[2][i] - pal[0][2]) * d[2]) * dd;
      t5 = t + 0.5;
      qi = int (t5 > float (n - 1) ? float (n - 1) : (t5 < 0.0 ? 0.0 : t5));
      lo = max (qi - 1, 0);
      hi = min (qi + 1, n - 1);
    }
#endif
    for (k = lo; k <= hi; k++) {
      precise float x0 = pal[k][0] - H[0][i];
      precise float x1 = pal[k][1] - H[1][i];
      precise float x2 = pal[k][2] - H[2][i];
      precise float e = W[0][i] * x0 * x0 + W[1][i] * x1 * x1 +
          W[2][i] * x2 * x2;

      if (e < best) {
        best = e;
        bk = k;
      }
    }
    q[i] = bk;
    err += best;
  }
  return err;
}

/* fits (): the endpoints after the first as differences of row's delta
 * bits */
bool fits_row (int row, int regions, ivec3 ep[4])
{
  int j, c;

  if (!MODE_TRANSFORMED[row])
    return true;
  for (j = 0; j < regions * 2; j++)
    for (c = 0; c < 3; c++) {
      int d = ep[j][c] - ep[0][c];
      int half_ = 1 << (MODE_DELTA[row][c] - 1);

      if (d < -half_ || d >= half_)
        return false;
    }
  return true;
}

/* q[k], read by a scan (every index a constant: one read at a variable
 * index would keep the whole array in memory on llvmpipe) */
int q_at (int q[16], int k)
{
  int v = 0, i;

  for (i = 0; i < 16; i++)
    v = i == k ? q[i] : v;
  return v;
}

/* try_mode (), exhaustive at high: the endpoints ef in row, quantized,
 * indexed, anchors fixed; false when they do not fit the row. The regions
 * come from two (row < 10 is the same), a constant where the caller is
 * inlined: the palette's size too, so its loops unroll (on llvmpipe, half
 * the time of high's two regions) */
bool block_try_mode (bool two, int row, int part, vec3 ef[4], out Cand cand)
{
  int regions = two ? 2 : 1, ib = two ? 3 : 4;
  int epb = MODE_EPB[row], top = 1 << (ib - 1), r, j, c, i;

  cand.row = row;
  cand.part = part;
  cand.err = FLT_BIG;
  for (i = 0; i < 16; i++)
    cand.q[i] = 0;
  if (MODE_TRANSFORMED[row]) {
    precise float unit = float (1 << (16 - epb)) * UNIT_SCALE;
    bool ok0 = true, ok1 = true;

    for (c = 0; c < 3; c++) {
      precise float lim = float ((1 << (MODE_DELTA[row][c] - 1)) + 1) * unit;

      for (j = 0; j < regions * 2; j++) {
        precise float d0 = ef[j][c] - ef[0][c];
        precise float d1 = ef[j][c] - ef[1][c];

        ok0 = ok0 && (d0 < 0.0 ? -d0 : d0) <= lim;
        ok1 = ok1 && (d1 < 0.0 ? -d1 : d1) <= lim;
      }
    }
    if (!ok0 && !ok1)
      return false;
  }
  for (j = 0; j < 4; j++)
    for (c = 0; c < 3; c++)
      cand.ep[j][c] = j < regions * 2 ? quantize (ef[j][c], epb) : 0;
  if (!fits_row (row, regions, cand.ep)) {
    ivec3 sw[4] = ivec3[4] (cand.ep[1], cand.ep[0], cand.ep[2], cand.ep[3]);

    if (!fits_row (row, regions, sw))
      return false;
  }
  cand.err = 0.0;
  for (r = 0; r < regions; r++) {
    int anchor = r == 0 ? 0 : int (ANCHOR2[part]);
    int p = regions == 2 ? part : -1;

    cand.err += assign_region (p, r, cand.ep[r * 2], cand.ep[r * 2 + 1], epb,
        ib, cand.q);
    if (q_at (cand.q, anchor) >= top) {
      ivec3 t = cand.ep[r * 2];

      cand.ep[r * 2] = cand.ep[r * 2 + 1];
      cand.ep[r * 2 + 1] = t;
      for (i = 0; i < 16; i++)
        if ((p < 0 ? 0 : subset (p, i)) == r)
          cand.q[i] = 2 * top - 1 - cand.q[i];
    }
  }
  return fits_row (row, regions, cand.ep);
}

/* try_rows (), all at high: the first of the rows (two: TWO_ROWS, else
 * ONE_ROWS) that fits ef (high: every one), into best when better; the
 * rows stop where the error of quantizing alone exceeds bound or best's
 * error */
void block_try_rows (bool two, int part, vec3 ef[4], float bound,
    inout Cand best)
{
  int n_rows = two ? 10 : 4, j;

  for (j = 0; j < n_rows; j++) {
    int row = two ? TWO_ROWS[j] : ONE_ROWS[j];
    precise float qs = 65536.0 * UNIT_SCALE / float (1 << MODE_EPB[row]);
    precise float qe = g_wsum * qs * qs / 12.0;
    Cand cand;

    if (qe > (best.err < bound ? best.err : bound))
      break;
    if (!block_try_mode (two, row, part, ef, cand))
      continue;
    if (cand.err < best.err)
      best = cand;
#if !HIGH
    return;
#endif
  }
}

/* encode_partition (), all and exhaustive at high: the regions of part
 * (one region: two false) fitted and encoded, then refits refits. (Each
 * function is called from one place, in loops whose counts are not
 * constants: the GL compiler inlines every call and unrolls constant
 * loops, and on llvmpipe this program took half a minute to compile with
 * the calls as the C code makes them.) */
void block_encode_partition (bool two, int part, int refits, inout Cand best)
{
  int regions = two ? 2 : 1, ib = two ? 3 : 4, r, it, c;
  int p = two ? part : -1;
  vec3 ef[4];
  Cand cur;

  cur.err = FLT_BIG;
  cur.row = 10;
  cur.part = 0;
  for (r = 0; r < 4; r++)
    ef[r] = vec3 (0.0);
  for (r = 0; r < regions; r++)
    fit_region (p, r, ef[r * 2], ef[r * 2 + 1]);

  /* it 0: the fit's endpoints; then the refits */
  for (it = 0; it <= refits; it++) {
    Cand next;

    if (it > 0) {
      if (!(cur.err > 0.0 && cur.err < FLT_BIG))
        break;
      for (r = 0; r < regions; r++) {
        if (!refit_region (p, r, cur.q, ib, ef[r * 2], ef[r * 2 + 1])) {
          /* one index for the whole region: its endpoints as they are */
          int epb = MODE_EPB[cur.row];
          int w = weight (q_at (cur.q, r == 0 ? 0 : int (ANCHOR2[part])),
              ib);

          for (c = 0; c < 3; c++) {
            ef[r * 2][c] = float (interp (unquantize (cur.ep[r * 2][c], epb),
                    unquantize (cur.ep[r * 2 + 1][c], epb), w));
            ef[r * 2 + 1][c] = ef[r * 2][c];
          }
        }
      }
    }
    next.err = FLT_BIG;
    next.row = 10;
    next.part = 0;
    block_try_rows (two, part, ef, best.err, next);
    if (it > 0 && next.err >= cur.err)
      break;
    cur = next;
  }
  if (cur.err < best.err)
    best = cur;
}

/* rank_partitions (): the N_TOP partitions of least estimated error (each
 * region's energy off its principal axis: two power-iteration steps, then
 * the Rayleigh quotient) into top; their count */
int rank_partitions (out int top[N_TOP])
{
  precise float d[3][16], prod[6][16], tot[9], s1[9][32], cnt1[32];
  precise float score[32];
  int i, c, part, n = 0, it;

  for (c = 0; c < 3; c++) {
    precise float mean = 0.0;

    for (i = 0; i < 16; i++)
      mean += H[c][i];
    mean *= 0.0625;
    for (i = 0; i < 16; i++)
      d[c][i] = H[c][i] - mean;
  }
  for (i = 0; i < 16; i++) {
    prod[0][i] = d[0][i] * d[0][i];
    prod[1][i] = d[0][i] * d[1][i];
    prod[2][i] = d[0][i] * d[2][i];
    prod[3][i] = d[1][i] * d[1][i];
    prod[4][i] = d[1][i] * d[2][i];
    prod[5][i] = d[2][i] * d[2][i];
  }
  for (c = 0; c < 9; c++)
    tot[c] = 0.0;
  for (i = 0; i < 16; i++) {
    for (c = 0; c < 3; c++)
      tot[c] += d[c][i];
    for (c = 0; c < 6; c++)
      tot[3 + c] += prod[c][i];
  }
  for (part = 0; part < 32; part++) {
    cnt1[part] = 0.0;
    for (c = 0; c < 9; c++)
      s1[c][part] = 0.0;
  }
  for (i = 0; i < 16; i++) {
    precise float v[9];

    for (c = 0; c < 3; c++)
      v[c] = d[c][i];
    for (c = 0; c < 6; c++)
      v[3 + c] = prod[c][i];
    for (part = 0; part < 32; part++) {
      precise float m = float (subset (part, i));

      cnt1[part] += m;
      for (c = 0; c < 9; c++)
        s1[c][part] += m * v[c];
    }
  }
  for (part = 0; part < 32; part++)
    score[part] = 0.0;
  for (i = 0; i < 2; i++) {
    for (part = 0; part < 32; part++) {
      precise float cnt = i != 0 ? cnt1[part] : 16.0 - cnt1[part];
      precise float sv[9], mu[3], cv[6], v[3], inv, tr, lambda, vv;

      for (c = 0; c < 9; c++)
        sv[c] = i != 0 ? s1[c][part] : tot[c] - s1[c][part];
      inv = 1.0 / cnt;
      for (c = 0; c < 3; c++)
        mu[c] = sv[c] * inv;
      cv[0] = sv[3] - cnt * mu[0] * mu[0];
      cv[1] = sv[4] - cnt * mu[0] * mu[1];
      cv[2] = sv[5] - cnt * mu[0] * mu[2];
      cv[3] = sv[6] - cnt * mu[1] * mu[1];
      cv[4] = sv[7] - cnt * mu[1] * mu[2];
      cv[5] = sv[8] - cnt * mu[2] * mu[2];
      tr = cv[0] + cv[3] + cv[5];
      v[0] = 1.0;
      v[1] = 1.0;
      v[2] = 1.0;
      for (it = 0; it < 2; it++) {
        precise float x = cv[0] * v[0] + cv[1] * v[1] + cv[2] * v[2];
        precise float y = cv[1] * v[0] + cv[3] * v[1] + cv[4] * v[2];
        precise float z = cv[2] * v[0] + cv[4] * v[1] + cv[5] * v[2];
        precise float ax = x < 0.0 ? -x : x;
        precise float ay = y < 0.0 ? -y : y;
        precise float az = z < 0.0 ? -z : z;
        precise float mxy = ax > ay ? ax : ay;
        precise float mx = mxy > az ? mxy : az;
        precise float rm = mx > 0.0 ? 1.0 / mx : 0.0;

        v[0] = mx > 0.0 ? x * rm : v[0];
        v[1] = mx > 0.0 ? y * rm : v[1];
        v[2] = mx > 0.0 ? z * rm : v[2];
      }
      vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
      lambda = (v[0] * (cv[0] * v[0] + cv[1] * v[1] + cv[2] * v[2]) +
          v[1] * (cv[1] * v[0] + cv[3] * v[1] + cv[4] * v[2]) +
          v[2] * (cv[2] * v[0] + cv[4] * v[1] + cv[5] * v[2])) / vv;
      {
        precise float off = tr - lambda;

        score[part] += off > 0.0 ? off : 0.0;
      }
    }
  }

  /* insertion of each partition into the sorted top list */
  for (part = 0; part < N_TOP; part++)
    top[part] = 0;
  for (part = 0; part < 32; part++) {
    int j;

    if (n == N_TOP && score[part] >= score[top[n - 1]])
      continue;
    j = n < N_TOP ? n++ : n - 1;
    while (j > 0 && score[top[j - 1]] > score[part]) {
      top[j] = top[j - 1];
      j--;
    }
    top[j] = part;
  }
  return n;
}

/* an empty candidate: mode 11 (row 10), of error FLT_BIG */
void cand_init (out Cand best)
{
  int i;

  best.row = 10;
  best.part = 0;
  best.err = FLT_BIG;
  for (i = 0; i < 4; i++)
    best.ep[i] = ivec3 (0);
  for (i = 0; i < 16; i++)
    best.q[i] = 0;
}

/* pack (): the block of best */
void pack_cand (ivec2 blk, Cand best)
{
  if (best.row >= 10) {
    Pass r;

    r.row = 13 - best.row;
    r.ep0 = best.ep[0];
    r.ep1 = best.ep[1];
    r.q = best.q;
    pack_one_region (blk, r);
  } else {
    pack_two (blk, best.row, best.part, best.ep, best.q);
  }
}

#if QUALITY == 2 && PASS == 2
/* the second half of encode_block () of quality 2, on the blocks PASS 0
 * listed in Two: the six partitions ranked best, each with one refit,
 * against the one region's error; the block written again when one of
 * them does better (row below 10) */
void main ()
{
  uint k = gl_WorkGroupID.x * 64u + gl_LocalInvocationIndex;
  int top[N_TOP], n, i;
  ivec2 blk;
  Cand best;

  if (k >= u_two_count)
    return;
  blk = ivec2 (int (u_two[k].x % uint (u_blocks.x)),
      int (u_two[k].x / uint (u_blocks.x)));
  load_block (blk);
  g_wsum = weight_sum ();
  cand_init (best);
  best.err = uintBitsToFloat (u_two[k].y);
  n = rank_partitions (top);
  for (i = 0; i < n; i++)
    block_encode_partition (true, top[i], 1, best);
  if (best.row < 10)
    pack_two (blk, best.row, best.part, best.ep, best.q);
}

#elif QUALITY == 2
/* the first half of encode_block () of quality 2, on every block: the
 * one region with every row, every index and three refits, written; a
 * block whose error is above TWO_THRESHOLD a weight listed in Two */
void main ()
{
  ivec2 blk = ivec2 (gl_GlobalInvocationID.xy);
  Cand best;

  if (blk.x >= u_blocks.x || blk.y >= u_blocks.y)
    return;
  load_block (blk);
  g_wsum = weight_sum ();
  cand_init (best);
  block_encode_partition (false, 0, 3, best);
  pack_cand (blk, best);
  {
    precise float thr = TWO_THRESHOLD * g_wsum / 48.0;

    if (best.err > thr) {
      uint k = atomicAdd (u_two_count, 1u);

      u_two[k] = uvec2 (uint (blk.y * u_blocks.x + blk.x),
          floatBitsToUint (best.err));
      atomicMax (u_two_groups[0], k / 64u + 1u);
    }
  }
}

#else
/* encode_block () of quality 1 */
void encode_block_normal (ivec2 blk)
{
  Cand best;
  int top[N_TOP], n, i;

  g_wsum = weight_sum ();
  cand_init (best);
  /* one region with two refits; then, above TWO_THRESHOLD, the two
   * partitions ranked best with one */
  n = 0;
  for (i = 0; i <= n; i++) {
    if (i == 1) {
      if (!(best.err > TWO_THRESHOLD * g_wsum / 48.0))
        break;
      n = rank_partitions (top);
      if (n == 0)
        break;
    }
    block_encode_partition (i > 0, i > 0 ? top[i - 1] : 0, i > 0 ? 1 : 2,
        best);
    n = i == 0 ? 1 : n;
  }
  pack_cand (blk, best);
}

/* the blocks PASS 0 listed in Fallback */
void main ()
{
  uint k = gl_WorkGroupID.x * 64u + gl_LocalInvocationIndex;
  ivec2 blk;

  if (k >= u_count)
    return;
  blk = ivec2 (int (u_list[k] % uint (u_blocks.x)),
      int (u_list[k] / uint (u_blocks.x)));
  load_block (blk);
  encode_block_normal (blk);
}
#endif

#elif PASS == 2
/* ---------------------------------------------------------------------- */
/* the two-region lanes (lanes_two ())                                     */

/* lanes_pow2 (): the power of two of x (> 0) without its mantissa, and
 * its reciprocal */
float pow2_of (float x, out float inv)
{
  uint u = floatBitsToUint (x) & 0x7f800000u;

  inv = uintBitsToFloat ((254u << 23) - u);
  return uintBitsToFloat (u);
}

/* lanes_off_axis (): a region's energy off its principal axis as the
 * fraction num / den */
void off_axis (float n, float inv, float s[9], float g, out float num,
    out float den)
{
  precise float m0 = s[0] * inv, m1 = s[1] * inv, m2 = s[2] * inv;
  precise float c0 = (s[3] - n * m0 * m0) * g, c1 = (s[4] - n * m0 * m1) * g;
  precise float c2 = (s[5] - n * m0 * m2) * g, c3 = (s[6] - n * m1 * m1) * g;
  precise float c4 = (s[7] - n * m1 * m2) * g, c5 = (s[8] - n * m2 * m2) * g;
  precise float tr = c0 + c3 + c5;
  precise float e2 = (c0 * c3 - c1 * c1) + (c0 * c5 - c2 * c2) +
      (c3 * c5 - c4 * c4);

  num = tr > 0.0 ? (e2 > 0.0 ? e2 : 0.0) : 0.0;
  den = tr > 0.0 ? tr : 1.0;
}

/* lanes_rank (): the partition of least estimated error */
int rank ()
{
  precise float v[9][16], tot[9], g, best = FLT_BIG;
  int i, c, pt, part = 0;

  for (c = 0; c < 3; c++) {
    precise float mean = 0.0;

    for (i = 0; i < 16; i++)
      mean += H[c][i];
    for (i = 0; i < 16; i++)
      v[c][i] = H[c][i] - mean * 0.0625;
  }
  for (i = 0; i < 16; i++) {
    v[3][i] = v[0][i] * v[0][i];
    v[4][i] = v[0][i] * v[1][i];
    v[5][i] = v[0][i] * v[2][i];
    v[6][i] = v[1][i] * v[1][i];
    v[7][i] = v[1][i] * v[2][i];
    v[8][i] = v[2][i] * v[2][i];
  }
  for (c = 0; c < 9; c++) {
    tot[c] = 0.0;
    for (i = 0; i < 16; i++)
      tot[c] += v[c][i];
  }
  {
    precise float t = tot[3] + tot[6] + tot[8], gi;

    pow2_of (t, gi);
    g = t > EPS_RANK ? gi : 0.0;
  }
  for (pt = 0; pt < 32; pt++) {
    precise float s[9], s0[9], n1, inv0, inv1, num0, den0, num1, den1;
    precise float num, den, score;
    uint in_ = 0u;
    int first;

    /* the sums over the smaller region, the other's from them */
    for (i = 0; i < 16; i++)
      in_ |= uint (subset (pt, i)) << uint (i);
    n1 = float (bitCount (in_));
    if (n1 > 8.0)
      in_ ^= 0xffffu;
    first = findLSB (in_);
    for (c = 0; c < 9; c++)
      s[c] = v[c][first];
    for (i = first + 1; i < 16; i++) {
      if (((in_ >> uint (i)) & 1u) == 0u)
        continue;
      for (c = 0; c < 9; c++)
        s[c] += v[c][i];
    }
    if (n1 > 8.0)
      for (c = 0; c < 9; c++)
        s[c] = tot[c] - s[c];
    inv1 = 1.0 / n1;
    inv0 = 1.0 / (16.0 - n1);
    for (c = 0; c < 9; c++)
      s0[c] = tot[c] - s[c];
    off_axis (n1, inv1, s, g, num1, den1);
    off_axis (16.0 - n1, inv0, s0, g, num0, den0);
    num = num0 * den1 + num1 * den0;
    den = den0 * den1;
    score = num / den;
    part = score < best ? pt : part;
    best = best < score ? best : score;
  }
  return part;
}

/* lanes_index3 (): of the projection's 3-bit index and its neighbours, the
 * one whose point of the segment has the least error, w (cc w - bb2) */
int index3 (float t, float bb2, float cc)
{
  precise float best = 0.0, tc = t < 0.0 ? 0.0 : (t > 7.0 ? 7.0 : t);
  int q0 = int (tc), q, bq = 0;

  q0 = q0 < 1 ? 1 : (q0 > 6 ? 6 : q0);
  for (q = q0 - 1; q <= q0 + 1; q++) {
    precise float sw = float (weight (q, 3)) * 0.015625;
    precise float e = sw * (cc * sw - bb2);

    bq = q == q0 - 1 || e < best ? q : bq;
    best = q == q0 - 1 || e < best ? e : best;
  }
  return bq;
}

/* lanes_fit2 (): the principal-axis endpoints of both regions, ef[region
 * * 2 + endpoint] */
void fit2 (float m1[16], out vec3 ef[4])
{
  int r, i, c, it;

  for (r = 0; r < 2; r++) {
    precise float m[16], n = 0.0, mean[3], cov[6], axis[3];
    precise float tmin = 0.0, tmax = 0.0, len;
    bool r0, r1;

    for (i = 0; i < 16; i++) {
      m[i] = r != 0 ? m1[i] : 1.0 - m1[i];
      n += m[i];
    }
    for (c = 0; c < 3; c++) {
      mean[c] = 0.0;
      for (i = 0; i < 16; i++)
        mean[c] += m[i] * H[c][i];
      mean[c] /= n;
    }
    for (c = 0; c < 6; c++)
      cov[c] = 0.0;
    for (i = 0; i < 16; i++) {
      precise float d0 = H[0][i] - mean[0];
      precise float d1 = H[1][i] - mean[1];
      precise float d2 = H[2][i] - mean[2];

      cov[0] += m[i] * d0 * d0;
      cov[1] += m[i] * d0 * d1;
      cov[2] += m[i] * d0 * d2;
      cov[3] += m[i] * d1 * d1;
      cov[4] += m[i] * d1 * d2;
      cov[5] += m[i] * d2 * d2;
    }
    /* lanes_axis () */
    r0 = cov[0] >= cov[3] && cov[0] >= cov[5];
    r1 = !r0 && cov[3] >= cov[5];
    axis[0] = r0 ? cov[0] : (r1 ? cov[1] : cov[2]);
    axis[1] = r0 ? cov[1] : (r1 ? cov[3] : cov[4]);
    axis[2] = r0 ? cov[2] : (r1 ? cov[4] : cov[5]);
    for (it = 0; it < 3; it++) {
      precise float x = cov[0] * axis[0] + cov[1] * axis[1] +
          cov[2] * axis[2];
      precise float y = cov[1] * axis[0] + cov[3] * axis[1] +
          cov[4] * axis[2];
      precise float z = cov[2] * axis[0] + cov[4] * axis[1] +
          cov[5] * axis[2];
      precise float ax = x < 0.0 ? -x : x;
      precise float ay = y < 0.0 ? -y : y;
      precise float az = z < 0.0 ? -z : z;
      precise float mxy = ax > ay ? ax : ay;
      precise float mx = mxy > az ? mxy : az;
      precise float inv = mx > 0.0 ? 1.0 / mx : 0.0;

      axis[0] = mx > 0.0 ? x * inv : axis[0];
      axis[1] = mx > 0.0 ? y * inv : axis[1];
      axis[2] = mx > 0.0 ? z * inv : axis[2];
    }
    len = axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2];
    {
      precise float sq = sqrt (len);
      precise float inv = len > EPS_LEN ? 1.0 / sq : 0.0;

      axis[0] *= inv;
      axis[1] *= inv;
      axis[2] *= inv;
    }
    for (i = 0; i < 16; i++) {
      precise float t = m[i] * ((H[0][i] - mean[0]) * axis[0] +
          (H[1][i] - mean[1]) * axis[1] + (H[2][i] - mean[2]) * axis[2]);

      tmin = tmin < t ? tmin : t;
      tmax = tmax > t ? tmax : t;
    }
    for (c = 0; c < 3; c++) {
      precise float l = mean[c] + tmin * axis[c];
      precise float h = mean[c] + tmax * axis[c];

      ef[r * 2][c] = l < H_MIN ? H_MIN : (l > H_MAX ? H_MAX : l);
      ef[r * 2 + 1][c] = h < H_MIN ? H_MIN : (h > H_MAX ? H_MAX : h);
    }
  }
}

/* lanes_proj2 (): the indices for the unquantized endpoints ef of each
 * pixel's region */
void proj2 (float m1[16], vec3 ef[4], out int q[16])
{
  precise vec3 d[2];
  precise float inv[2];
  int rr, i, c;

  for (rr = 0; rr < 2; rr++) {
    precise float len = 0.0;

    for (c = 0; c < 3; c++) {
      d[rr][c] = ef[rr * 2 + 1][c] - ef[rr * 2][c];
      len += d[rr][c] * d[rr][c];
    }
    inv[rr] = len > 0.0 ? 7.0 / len : 0.0;
  }
  for (i = 0; i < 16; i++) {
    int o = m1[i] > 0.5 ? 1 : 0;
    precise float r0 = H[0][i] - ef[o * 2][0];
    precise float r1 = H[1][i] - ef[o * 2][1];
    precise float r2 = H[2][i] - ef[o * 2][2];
    precise float w0 = W[0][i], w1 = W[1][i], w2 = W[2][i];
    precise float t = (r0 * d[o][0] + r1 * d[o][1] + r2 * d[o][2]) * inv[o] +
        0.5;
    precise float bb2 = 2.0 * (w0 * r0 * d[o][0] + w1 * r1 * d[o][1] +
        w2 * r2 * d[o][2]);
    precise float cc = w0 * d[o][0] * d[o][0] + w1 * d[o][1] * d[o][1] +
        w2 * d[o][2] * d[o][2];

    q[i] = index3 (t, bb2, cc);
  }
}

/* lanes_refit2 (): the least-squares endpoints of both regions for the
 * indices q, into ef where both are determined */
void refit2 (float m1[16], int q[16], inout vec3 ef[4])
{
  precise float aa[2][3], ab[2][3], bb[2][3], pa[2][3], pb[2][3];
  vec3 nf[4];
  bool ok = true;
  int rr, i, c;

  for (rr = 0; rr < 2; rr++)
    for (c = 0; c < 3; c++) {
      aa[rr][c] = 0.0;
      ab[rr][c] = 0.0;
      bb[rr][c] = 0.0;
      pa[rr][c] = 0.0;
      pb[rr][c] = 0.0;
    }
  for (i = 0; i < 16; i++) {
    for (c = 0; c < 3; c++) {
      precise float w = float (weight (q[i], 3)) * 0.015625;
      precise float a = 1.0 - w, h = H[c][i];
      precise float pw0 = W[c][i] * (1.0 - m1[i]);
      precise float pw1 = W[c][i] * m1[i];

      aa[0][c] += pw0 * a * a;
      ab[0][c] += pw0 * a * w;
      bb[0][c] += pw0 * w * w;
      pa[0][c] += pw0 * a * h;
      pb[0][c] += pw0 * w * h;
      aa[1][c] += pw1 * a * a;
      ab[1][c] += pw1 * a * w;
      bb[1][c] += pw1 * w * w;
      pa[1][c] += pw1 * a * h;
      pb[1][c] += pw1 * w * h;
    }
  }
  for (rr = 0; rr < 2; rr++) {
    for (c = 0; c < 3; c++) {
      precise float det = aa[rr][c] * bb[rr][c] - ab[rr][c] * ab[rr][c];
      precise float s = aa[rr][c] + bb[rr][c];
      bool good = det > EPS_DET * s * s;
      precise float inv = good ? 1.0 / det : 0.0;
      precise float lo = (bb[rr][c] * pa[rr][c] - ab[rr][c] * pb[rr][c]) *
          inv;
      precise float hi = (aa[rr][c] * pb[rr][c] - ab[rr][c] * pa[rr][c]) *
          inv;

      ok = ok && good;
      nf[rr * 2][c] = lo < H_MIN ? H_MIN : (lo > H_MAX ? H_MAX : lo);
      nf[rr * 2 + 1][c] = hi < H_MIN ? H_MIN : (hi > H_MAX ? H_MAX : hi);
    }
  }
  if (ok)
    ef = nf;
}

/* lanes_pass2 (): the endpoints ef oriented, the most precise two-region
 * row that fits, indices, the anchors; ok false where the anchors' swaps
 * break the row's differences */
float pass2 (float m1[16], int anc, inout vec3 ef[4], out int row,
    out ivec3 ep[4], out int q[16], out bool ok)
{
  ivec3 u[4], unq[4], half_ = ivec3 (1 << 30);
  precise vec3 p0[2], d[2];
  precise float inv[2], err = 0.0;
  bool flip0, flip1;
  int rr, j, c, i;

  /* orientation: pixel 0 nearer region 0's first endpoint, the anchor
   * pixel nearer region 1's */
  for (rr = 0; rr < 2; rr++) {
    precise float t0 = 0.0, len = 0.0;

    for (c = 0; c < 3; c++) {
      precise float dc = ef[rr * 2 + 1][c] - ef[rr * 2][c];
      precise float px = rr != 0 ? H[c][anc] : H[c][0];

      t0 += (px - ef[rr * 2][c]) * dc;
      len += dc * dc;
    }
    if (2.0 * t0 > len) {
      vec3 t = ef[rr * 2];

      ef[rr * 2] = ef[rr * 2 + 1];
      ef[rr * 2 + 1] = t;
    }
  }

  /* the most precise row whose differences fit; the last, mode 10, has
   * none */
  for (j = 0; j < 4; j++)
    for (c = 0; c < 3; c++)
      u[j][c] = lanes_u16 (ef[j][c]);
  row = 9;
  for (j = 0; j < 10; j++) {
    int rw = TWO_ROWS[j], epb = MODE_EPB[rw];
    ivec3 x[4], dh;
    bool fit = true;

    for (c = 0; c < 3; c++)
      dh[c] = MODE_TRANSFORMED[rw] ? 1 << (MODE_DELTA[rw][c] - 1) : 1 << 30;
    for (i = 0; i < 4; i++)
      for (c = 0; c < 3; c++)
        x[i][c] = lanes_quantize_u (u[i][c], epb);
    for (c = 0; c < 3; c++)
      for (i = 1; i < 4; i++) {
        int dd = x[i][c] - x[0][c];

        fit = fit && dd >= -dh[c] && dd < dh[c];
      }
    if (fit) {
      row = rw;
      ep = x;
      half_ = dh;
      for (i = 0; i < 4; i++)
        for (c = 0; c < 3; c++)
          unq[i][c] = unquantize (x[i][c], epb);
      break;
    }
  }

  /* indices by projection onto the region's segment, their exact error */
  for (rr = 0; rr < 2; rr++) {
    precise float len = 0.0;

    for (c = 0; c < 3; c++) {
      p0[rr][c] = float (h_of_value (unq[rr * 2][c]));
      d[rr][c] = float (h_of_value (unq[rr * 2 + 1][c])) - p0[rr][c];
      len += d[rr][c] * d[rr][c];
    }
    inv[rr] = len > 0.0 ? 7.0 / len : 0.0;
  }
  for (i = 0; i < 16; i++) {
    int o = m1[i] > 0.5 ? 1 : 0, bq;
    precise float r0 = H[0][i] - p0[o][0], r1 = H[1][i] - p0[o][1];
    precise float r2 = H[2][i] - p0[o][2];
    precise float w0 = W[0][i], w1 = W[1][i], w2 = W[2][i];
    precise float t = (r0 * d[o][0] + r1 * d[o][1] + r2 * d[o][2]) * inv[o] +
        0.5;
    precise float bb2 = 2.0 * (w0 * r0 * d[o][0] + w1 * r1 * d[o][1] +
        w2 * r2 * d[o][2]);
    precise float cc = w0 * d[o][0] * d[o][0] + w1 * d[o][1] * d[o][1] +
        w2 * d[o][2] * d[o][2];
    precise float e0, e1, e2;
    int w;

    bq = index3 (t, bb2, cc);
    w = weight (bq, 3);
    e0 = float (interp (unq[o * 2][0], unq[o * 2 + 1][0], w)) - H[0][i];
    e1 = float (interp (unq[o * 2][1], unq[o * 2 + 1][1], w)) - H[1][i];
    e2 = float (interp (unq[o * 2][2], unq[o * 2 + 1][2], w)) - H[2][i];
    q[i] = bq;
    err += w0 * e0 * e0 + w1 * e1 * e1 + w2 * e2 * e2;
  }

  /* the anchors: the indices of pixel 0 and of the anchor pixel below 4,
   * else their region's endpoints swapped; then the differences checked
   * again */
  flip0 = q[0] >= 4;
  flip1 = q[anc] >= 4;
  if (flip0) {
    ivec3 t = ep[0];

    ep[0] = ep[1];
    ep[1] = t;
  }
  if (flip1) {
    ivec3 t = ep[2];

    ep[2] = ep[3];
    ep[3] = t;
  }
  for (i = 0; i < 16; i++)
    if (m1[i] > 0.5 ? flip1 : flip0)
      q[i] = 7 - q[i];
  ok = true;
  for (c = 0; c < 3; c++)
    for (i = 1; i < 4; i++) {
      int dd = ep[i][c] - ep[0][c];

      ok = ok && dd >= -half_[c] && dd < half_[c];
    }
  return err;
}

/* the blocks PASS 0 listed in Two: written again where two regions do
 * better */
void main ()
{
  uint k = gl_WorkGroupID.x * 64u + gl_LocalInvocationIndex;
  float m1[16], one_err, err;
  vec3 ef[4];
  ivec3 ep[4];
  int q[16], part, anc, row, i;
  ivec2 blk;
  bool ok;

  if (k >= u_two_count)
    return;
  blk = ivec2 (int (u_two[k].x % uint (u_blocks.x)),
      int (u_two[k].x / uint (u_blocks.x)));
  one_err = uintBitsToFloat (u_two[k].y);
  load_block (blk);
  part = rank ();
  anc = int (ANCHOR2[part]);
  for (i = 0; i < 16; i++)
    m1[i] = float (subset (part, i));
  /* principal axes, indices for them unquantized, a refit to those, then
   * the row and the indices */
  fit2 (m1, ef);
  proj2 (m1, ef, q);
  refit2 (m1, q, ef);
  err = pass2 (m1, anc, ef, row, ep, q, ok);
  if (ok && err < one_err)
    pack_two (blk, row, part, ep, q);
}

#else
/* lanes_normal (): the one region of every block, written; a block whose
 * anchor breaks its row's differences listed in Fallback, one whose error
 * is above NORMAL_THRESHOLD a weight in Two */
void main ()
{
  ivec2 blk = ivec2 (gl_GlobalInvocationID.xy);
  vec3 lo, hi;
  int q[16];
  Pass r;
  uint b;

  if (blk.x >= u_blocks.x || blk.y >= u_blocks.y)
    return;

  load_block (blk);
  fit (false, lo, hi);
  proj (lo, hi, q);
  refit (q, lo, hi);
  r = lanes_pass (lo, hi);
  b = uint (blk.y * u_blocks.x + blk.x);
  if (!r.ok) {
    uint k = atomicAdd (u_count, 1u);

    u_list[k] = b;
    atomicMax (u_groups[0], k / 64u + 1u);
    return;
  }
  pack_one_region (blk, r);
  {
    precise float thr = NORMAL_THRESHOLD * weight_sum () / 48.0;

    if (r.err > thr) {
      uint k = atomicAdd (u_two_count, 1u);

      u_two[k] = uvec2 (b, floatBitsToUint (r.err));
      atomicMax (u_two_groups[0], k / 64u + 1u);
    }
  }
}
#endif
