/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The GLSL compute shader of the GL encode path for BC1, BC3 and
 * YCoCg-BC3 (bcglencode.c): a line-by-line port of the CPU kernels in
 * gst-libs/gst/bc/bcencode-kernels.c, one invocation per 4x4 block where
 * the CPU runs BC_LANES blocks per lane-parallel loop. Keep the two in
 * step: every float operation is written in the same order as in C, and
 * every float variable is `precise` (no contraction into fma, no
 * reassociation), so that an IEEE-conformant implementation computes the
 * same blocks bit for bit (see bcglencode.c for what GL guarantees and
 * what it does not).
 *
 * bcglencode.c puts in front of this body: the #version line, FORMAT
 * (FMT_BC1, FMT_BC3, FMT_YCOCG), QUALITY (0 fast, 1 normal, 2 high), the
 * error weights W (and their square roots SW) of the format, the float
 * constants the C code spells as expressions (THIRD = 1.0f / 3.0f, ...) as
 * exact bit patterns, and SINGLE[256], the optimal single-colour endpoint
 * table (bcencode.c's bc_tables: a5 | b5 << 8 | a6 << 16 | b6 << 24),
 * then prelude.glsl.
 *
 * Embedded at build time (gst-libs/gst/bcgl/embed-glsl.py) as
 * gst_bc_gl_shader_bc1_bc3_comp, without this header. */

#define FMT_BC1 1
#define FMT_BC3 2
#define FMT_YCOCG 3

/* the block: colour channels (r, g, b, or Co, Cg, 0 for YCoCg) and the
 * alpha (BC3) or luma (YCoCg) channel */
precise float P0[16], P1[16], P2[16], PA[16];
/* YCoCg: the block's scale code, the fixed blue of both endpoints */
int g_blue;
precise float g_pw2;

int expand5 (int q) { return (q << 3) | (q >> 2); }
int expand6 (int q) { return (q << 2) | (q >> 4); }

/* quant5 / quant6 of the C code */
int quant (float x, int bits, int up, int down)
{
  int top = (1 << bits) - 1;
  precise float c = x < 0.0 ? 0.0 : (x > 255.0 ? 255.0 : x);
  precise float cr = c + 0.5;
  int v = int (cr);
  int q = (((v << bits) - v) + 128) >> 8;
  int lo = q > 0 ? q - 1 : 0, hi = q < top ? q + 1 : top;
  int el = (lo << up) | (lo >> down), eq = (q << up) | (q >> down);
  int eh = (hi << up) | (hi >> down);
  int dl = el > v ? el - v : v - el, dq = eq > v ? eq - v : v - eq;
  int dh = eh > v ? eh - v : v - eh;
  int best = dq < dl ? q : lo, bestd = dq < dl ? dq : dl;
  return dh < bestd ? hi : best;
}

struct Fit {
  ivec3 q0;
  ivec3 q1;
  uint idx;
  float w[16];
  float err;
};

/* colour_eval (): quantise float endpoints and fit the indices */
void colour_eval (vec3 e0, vec3 e1, inout Fit fit)
{
  precise vec3 pal[4], wc[4];
  precise float cc[4];
  ivec3 a, b;
  int j, i;

  fit.q0 = ivec3 (quant (e0.x, 5, 3, 2), quant (e0.y, 6, 2, 4),
      quant (e0.z, 5, 3, 2));
  fit.q1 = ivec3 (quant (e1.x, 5, 3, 2), quant (e1.y, 6, 2, 4),
      quant (e1.z, 5, 3, 2));
#if FORMAT == FMT_YCOCG
  fit.q0.z = g_blue;
  fit.q1.z = g_blue;
#endif
  a = ivec3 (expand5 (fit.q0.x), expand6 (fit.q0.y), expand5 (fit.q0.z));
  b = ivec3 (expand5 (fit.q1.x), expand6 (fit.q1.y), expand5 (fit.q1.z));
  pal[0] = vec3 (a);
  pal[1] = vec3 (b);
  pal[2] = vec3 (ivec3 (vec3 (2 * a + b) * THIRD));
  pal[3] = vec3 (ivec3 (vec3 (a + 2 * b) * THIRD));
  for (j = 0; j < 4; j++) {
    cc[j] = 0.0;
    wc[j].x = 2.0 * W.x * pal[j].x;
    cc[j] += W.x * pal[j].x * pal[j].x;
    wc[j].y = 2.0 * W.y * pal[j].y;
    cc[j] += W.y * pal[j].y * pal[j].y;
    wc[j].z = 2.0 * W.z * pal[j].z;
    cc[j] += W.z * pal[j].z * pal[j].z;
  }

  fit.idx = 0u;
  fit.err = g_pw2;
  for (i = 0; i < 16; i++) {
    precise float r = P0[i], g = P1[i], bl = P2[i];
    precise float d0 = cc[0] - (r * wc[0].x + g * wc[0].y + bl * wc[0].z);
    precise float d1 = cc[1] - (r * wc[1].x + g * wc[1].y + bl * wc[1].z);
    precise float d2 = cc[2] - (r * wc[2].x + g * wc[2].y + bl * wc[2].z);
    precise float d3 = cc[3] - (r * wc[3].x + g * wc[3].y + bl * wc[3].z);
    precise float m = d0, w = 1.0;
    uint s = 0u;

    if (d1 < m) {
      m = d1;
      s = 1u;
      w = 0.0;
    }
    if (d2 < m) {
      m = d2;
      s = 2u;
      w = TWO_THIRDS;
    }
    if (d3 < m) {
      m = d3;
      s = 3u;
      w = THIRD;
    }
    fit.w[i] = w;
    fit.idx |= s << uint (2 * i);
    fit.err += m;
  }
}

/* colour_lsq (): least-squares endpoints for the indices of @cur */
void colour_lsq (in Fit cur, inout vec3 e0, inout vec3 e1)
{
  precise float aa = 0.0, ab = 0.0, bb = 0.0;
  precise vec3 x0 = vec3 (0.0), x1 = vec3 (0.0);
  int i;

  for (i = 0; i < 16; i++) {
    precise float w = cur.w[i];
    precise float v = 1.0 - w;

    aa += w * w;
    ab += w * v;
    bb += v * v;
    x0.x += w * P0[i];
    x1.x += v * P0[i];
    x0.y += w * P1[i];
    x1.y += v * P1[i];
    x0.z += w * P2[i];
    x1.z += v * P2[i];
  }
  {
    precise float det = aa * bb - ab * ab;
    bool ok = det > EPS_DET;
    precise float inv = 1.0 / (ok ? det : 1.0);
    precise vec3 n0, n1;

    n0.x = (bb * x0.x - ab * x1.x) * inv;
    n1.x = (aa * x1.x - ab * x0.x) * inv;
    n0.y = (bb * x0.y - ab * x1.y) * inv;
    n1.y = (aa * x1.y - ab * x0.y) * inv;
    n0.z = (bb * x0.z - ab * x1.z) * inv;
    n1.z = (aa * x1.z - ab * x0.z) * inv;
    if (ok) {
      e0 = n0;
      e1 = n1;
    }
  }
}

void keep_better (inout Fit best, in Fit cur)
{
  if (cur.err < best.err) {
    best.err = cur.err;
    best.idx = cur.idx;
    best.q0 = cur.q0;
    best.q1 = cur.q1;
  }
}

vec3 pixel (int i)
{
  return vec3 (P0[i], P1[i], P2[i]);
}

/* bc_colour_words (): c0 > c1 (4-colour order) */
uvec2 colour_pack (ivec3 q0, ivec3 q1, uint idx)
{
  uint col0 = uint ((q0.x << 11) | (q0.y << 5) | q0.z);
  uint col1 = uint ((q1.x << 11) | (q1.y << 5) | q1.z);
  uint lo = min (col0, col1), hi = max (col0, col1);
  bool same = col0 == col1;

  idx = col0 < col1 ? idx ^ 0x55555555u : idx;
  idx = same ? 0u : idx;
#if FORMAT == FMT_BC1
  lo = same && hi > 0u ? hi - 1u : lo;
  idx = same && hi == 0u ? 0x55555555u : idx;
  hi = same && hi == 0u ? 1u : hi;
#endif
  return uvec2 (hi | (lo << 16), idx);
}

#if QUALITY == 0 && FORMAT != FMT_BC3
/* bcencode-fast.c: fast_colour (), BC1 and YCoCg-BC3 at quality=fast, in
 * integers only (the C code's 16-bit values never overflow, so 32-bit
 * GLSL ints compute the same). YCoCg: channels Co, Cg, and g_blue. */
uvec2 colour_encode_fast (ivec3 px[16])
{
  ivec3 lo = ivec3 (255), hi = ivec3 (0), sum = ivec3 (0);
  ivec3 inset, v0, v1, q0, q1, a, b, d, m2, m3;
  int i, l1, shift, s0, s1, s2, s3, t1, t2, t3;
  uint idx = 0u;

  /* 1. */
  for (i = 0; i < 16; i++) {
    lo = min (lo, px[i]);
    hi = max (hi, px[i]);
    sum += px[i];
  }

  /* 2. */
#if FORMAT == FMT_YCOCG
  {
    int cov = 0, t;

    for (i = 0; i < 16; i++) {
      int d0 = 16 * px[i].x - sum.x, d1 = 16 * px[i].y - sum.y;

      cov += d1 > 0 ? (d0 >> 4) : (d1 < 0 ? -(d0 >> 4) : 0);
    }
    if (cov < 0) {
      t = lo.x;
      lo.x = hi.x;
      hi.x = t;
    }
  }
#endif
  inset = (hi - lo) >> 4;
  v0 = hi - inset;
  v1 = lo + inset;
  q0 = ivec3 ((v0.x * 31 + 131) >> 8, (v0.y * 63 + 129) >> 8,
      (v0.z * 31 + 131) >> 8);
  q1 = ivec3 ((v1.x * 31 + 131) >> 8, (v1.y * 63 + 129) >> 8,
      (v1.z * 31 + 131) >> 8);
#if FORMAT == FMT_YCOCG
  q0.z = g_blue;
  q1.z = g_blue;
#endif
  a = ivec3 (expand5 (q0.x), expand6 (q0.y), expand5 (q0.z));
  b = ivec3 (expand5 (q1.x), expand6 (q1.y), expand5 (q1.z));
  d = a - b;
  l1 = abs (d.x) + abs (d.y) + abs (d.z);
  shift = int (l1 > 124) + int (l1 > 248) + int (l1 > 496);
  d = d >> shift;
  m2 = (2 * a + b) / 3;
  m3 = (a + 2 * b) / 3;
  s0 = a.x * d.x + a.y * d.y + a.z * d.z;
  s1 = b.x * d.x + b.y * d.y + b.z * d.z;
  s2 = m2.x * d.x + m2.y * d.y + m2.z * d.z;
  s3 = m3.x * d.x + m3.y * d.y + m3.z * d.z;
  t1 = (s1 >> 1) + (s3 >> 1) + (s1 & s3 & 1);
  t2 = (s3 >> 1) + (s2 >> 1) + (s3 & s2 & 1);
  t3 = (s2 >> 1) + (s0 >> 1) + (s2 & s0 & 1);

  /* 3. */
  for (i = 0; i < 16; i++) {
    int p = px[i].x * d.x + px[i].y * d.y + px[i].z * d.z;
    uint code = ((p > t1 && !(p > t3)) ? 2u : 0u) | (p > t2 ? 0u : 1u);

    idx |= code << (2 * i);
  }

  /* 4. */
  if (all (equal (q0, q1))) {
    ivec3 m = (sum + 8) >> 4;

    q0.xy = ivec2 (int (SINGLE[m.x] & 0xffu),
        int ((SINGLE[m.y] >> 16) & 0xffu));
    q1.xy = ivec2 (int ((SINGLE[m.x] >> 8) & 0xffu), int (SINGLE[m.y] >> 24));
#if FORMAT == FMT_BC1
    q0.z = int (SINGLE[m.z] & 0xffu);
    q1.z = int ((SINGLE[m.z] >> 8) & 0xffu);
#endif
    idx = 0xAAAAAAAAu;
  }

  /* 5. */
  return colour_pack (q0, q1, idx);
}
#endif

#if QUALITY == 0 && FORMAT == FMT_YCOCG
/* bc_kernel_ycocg_fast (): Y (alpha block) and Co, Cg in exact integers */
void ycocg_encode_fast (ivec2 blk)
{
  ivec3 c[16];
  int y4[16], mid[7], l[8];
  int i, j, m4 = 0, ylo = 1020, yhi = 0, sc, a0, a1;
  uint cl = 0u, ch = 0u;

  for (i = 0; i < 16; i++) {
    ivec3 p = ivec3 (block_pixel (blk, i).xyz);
    int co2 = p.x - p.z, cg4 = 2 * p.y - p.x - p.z;

    y4[i] = p.x + 2 * p.y + p.z;
    c[i] = ivec3 (co2, cg4, 0);
    m4 = max (m4, max (abs (2 * co2), abs (cg4)));
    ylo = min (ylo, y4[i]);
    yhi = max (yhi, y4[i]);
  }
  sc = m4 <= 127 ? 2 : (m4 <= 255 ? 1 : 0);
  g_blue = (1 << sc) - 1;
  for (i = 0; i < 16; i++) {
    c[i].x = clamp (((c[i].x * (1 << sc) + 1) >> 1) + 128, 0, 255);
    c[i].y = clamp (((c[i].y * (1 << sc) + 2) >> 2) + 128, 0, 255);
  }

  a0 = (yhi + 2) >> 2;
  a1 = (ylo + 2) >> 2;
  for (j = 0; j < 8; j++)
    l[j] = (j * a0 + (7 - j) * a1) / 7;
  for (j = 0; j < 7; j++)
    mid[j] = 2 * (l[j] + l[j + 1]);
  for (i = 0; i < 16; i++) {
    uint n = 0u, code;

    for (j = 0; j < 7; j++)
      n += y4[i] > mid[j] ? 1u : 0u;
    code = (8u - n) & 7u;
    code = code < 2u ? code ^ 1u : code;
    if (i < 8)
      cl |= code << (3 * i);
    else
      ch |= code << (3 * (i - 8));
  }
  if (a0 == a1) {
    cl = 0u;
    ch = 0u;
  }
  put_block16 (blk, uvec2 (uint (a0) | (uint (a1) << 8) | (cl << 16),
          (cl >> 16) | (ch << 8)), colour_encode_fast (c));
}
#endif

/* colour_encode (): the 8-byte colour block as two words */
uvec2 colour_encode ()
{
  precise vec3 mean = vec3 (0.0), v, e0, e1, ext0, ext1;
  precise float c0 = 0.0, c1 = 0.0, c2 = 0.0, c3 = 0.0, c4 = 0.0;
  precise float c5 = 0.0, tmin, tmax;
  Fit fit, cur;
  int i, it, start;

  /* mean and weighted covariance */
  for (i = 0; i < 16; i++) {
    mean.x += P0[i];
    mean.y += P1[i];
    mean.z += P2[i];
  }
  mean.x *= 0.0625;
  mean.y *= 0.0625;
  mean.z *= 0.0625;
  g_pw2 = 0.0;
  for (i = 0; i < 16; i++)
    g_pw2 += W.x * P0[i] * P0[i] + W.y * P1[i] * P1[i] +
        W.z * P2[i] * P2[i];
  for (i = 0; i < 16; i++) {
    precise float r = (P0[i] - mean.x) * SW.x;
    precise float g = (P1[i] - mean.y) * SW.y;
    precise float b = (P2[i] - mean.z) * SW.z;

    c0 += r * r;
    c1 += r * g;
    c2 += r * b;
    c3 += g * g;
    c4 += g * b;
    c5 += b * b;
  }

  /* principal axis: power iteration */
  {
    bool rr = c0 >= c3 && c0 >= c5;
    bool gg = !rr && c3 >= c5;

    v.x = rr ? c0 : (gg ? c1 : c2);
    v.y = rr ? c1 : (gg ? c3 : c4);
    v.z = rr ? c2 : (gg ? c4 : c5);
  }
  for (it = 0; it < 3; it++) {
    precise float x = c0 * v.x + c1 * v.y + c2 * v.z;
    precise float y = c1 * v.x + c3 * v.y + c4 * v.z;
    precise float z = c2 * v.x + c4 * v.y + c5 * v.z;
    precise float ax = x < 0.0 ? -x : x, ay = y < 0.0 ? -y : y;
    precise float az = z < 0.0 ? -z : z;
    precise float m = ax > ay ? ax : ay;
    precise float inv;

    m = m > az ? m : az;
    inv = m > EPS_AXIS ? 1.0 / m : 0.0;
    v.x = x * inv;
    v.y = y * inv;
    v.z = z * inv;
  }

  /* extreme pixels along the axis */
  tmin = BIG;
  tmax = -BIG;
  e0 = mean;
  e1 = mean;
  for (i = 0; i < 16; i++) {
    precise float t = P0[i] * SW.x * v.x + P1[i] * SW.y * v.y +
        P2[i] * SW.z * v.z;
    bool hi = t > tmax, lo = t < tmin;

    if (hi) {
      tmax = t;
      e0 = pixel (i);
    }
    if (lo) {
      tmin = t;
      e1 = pixel (i);
    }
  }

  /* starts and least-squares chains */
  ext0 = e0;
  ext1 = e1;
  for (start = 0; start < (QUALITY == 2 ? 2 : 1); start++) {
    if (start == 0) {
      precise vec3 d;

      d.x = (ext0.x - ext1.x) * 0.0625;
      d.y = (ext0.y - ext1.y) * 0.0625;
      d.z = (ext0.z - ext1.z) * 0.0625;
      e0.x = ext0.x - d.x;
      e0.y = ext0.y - d.y;
      e0.z = ext0.z - d.z;
      e1.x = ext1.x + d.x;
      e1.y = ext1.y + d.y;
      e1.z = ext1.z + d.z;
    } else {
      e0 = ext0;
      e1 = ext1;
    }
    colour_eval (e0, e1, cur);
    if (start == 0)
      fit = cur;
    else
      keep_better (fit, cur);
    for (it = 0; it < (QUALITY == 0 ? 0 : (QUALITY == 1 ? 1 : 4)); it++) {
      colour_lsq (cur, e0, e1);
      colour_eval (e0, e1, cur);
      keep_better (fit, cur);
    }
  }

#if QUALITY == 2
  /* local search on the quantised endpoints */
  {
    int round, j, ch, d;

    for (round = 0; round < 2; round++) {
      for (j = 0; j < 2; j++) {
        for (ch = 0; ch < (FORMAT == FMT_YCOCG ? 2 : 3); ch++) {
          for (d = -1; d <= 1; d += 2) {
            int top = ch == 1 ? 63 : 31;
            ivec3 q0 = fit.q0, q1 = fit.q1;

            if (j == 0)
              q0[ch] = clamp (q0[ch] + d, 0, top);
            else
              q1[ch] = clamp (q1[ch] + d, 0, top);
            e0 = vec3 (float (expand5 (q0.x)), float (expand6 (q0.y)),
                float (expand5 (q0.z)));
            e1 = vec3 (float (expand5 (q1.x)), float (expand6 (q1.y)),
                float (expand5 (q1.z)));
            colour_eval (e0, e1, cur);
            keep_better (fit, cur);
          }
        }
      }
    }
  }
#endif

  /* the single-colour candidate */
  {
    ivec3 sa, sb, m;
    precise vec3 sval;
    precise float serr = 0.0;
    uint t;

    m = ivec3 (int (clamp255 (mean.x) + 0.5), int (clamp255 (mean.y) + 0.5),
        int (clamp255 (mean.z) + 0.5));
    t = SINGLE[m.x];
    sa.x = int (t & 0xffu);
    sb.x = int ((t >> 8) & 0xffu);
    sval.x = float ((2 * expand5 (sa.x) + expand5 (sb.x)) / 3);
    t = SINGLE[m.y];
    sa.y = int ((t >> 16) & 0xffu);
    sb.y = int (t >> 24);
    sval.y = float ((2 * expand6 (sa.y) + expand6 (sb.y)) / 3);
#if FORMAT == FMT_YCOCG
    sa.z = g_blue;
    sb.z = g_blue;
    sval.z = float (expand5 (sa.z));
#else
    t = SINGLE[m.z];
    sa.z = int (t & 0xffu);
    sb.z = int ((t >> 8) & 0xffu);
    sval.z = float ((2 * expand5 (sa.z) + expand5 (sb.z)) / 3);
#endif
    for (i = 0; i < 16; i++) {
      precise float dr = P0[i] - sval.x, dg = P1[i] - sval.y;
      precise float db = P2[i] - sval.z;

      serr += W.x * dr * dr + W.y * dg * dg + W.z * db * db;
    }
    if (serr <= fit.err) {
      fit.q0 = sa;
      fit.q1 = sb;
      fit.idx = 0xAAAAAAAAu;
    }
  }

  return colour_pack (fit.q0, fit.q1, fit.idx);
}

#if FORMAT != FMT_BC1
/* alpha_eval (): codes of one channel for endpoints c0 >= c1 */
void alpha_eval (int c0, int c1, out int code[16], out float wsel[16],
    out float err)
{
  precise float lvl[8], mid[7], e = 0.0;
  int i, j;

  for (j = 0; j < 8; j++)
    lvl[j] = float ((j * c0 + (7 - j) * c1) / 7);
  for (j = 0; j < 7; j++)
    mid[j] = (lvl[j] + lvl[j + 1]) * 0.5;
  for (i = 0; i < 16; i++) {
    precise float v = PA[i], val = lvl[0], n = 0.0, d;
    int l;

    for (j = 0; j < 7; j++) {
      n += v > mid[j] ? 1.0 : 0.0;
      val = v > mid[j] ? lvl[j + 1] : val;
    }
    d = v - val;
    e += d * d;
    wsel[i] = n * SEVENTH;
    l = 8 - int (n);
    l = l == 1 ? 0 : l;
    code[i] = l == 8 ? 1 : l;
  }
  err = e;
}

/* alpha_encode (): the 8-byte alpha block as two words */
uvec2 alpha_encode ()
{
  precise float vmin = 255.0, vmax = 0.0, err, try_err;
  precise float w[16], try_w[16];
  int codes[16], try_codes[16];
  int a0, a1, c0, c1, i, it;

  for (i = 0; i < 16; i++) {
    vmin = PA[i] < vmin ? PA[i] : vmin;
    vmax = PA[i] > vmax ? PA[i] : vmax;
  }
  a0 = int (vmax + 0.5);
  a1 = int (vmin + 0.5);
  alpha_eval (a0, a1, codes, w, err);

  for (it = 0; it < (QUALITY == 0 ? 0 : (QUALITY == 1 ? 1 : 2)); it++) {
    precise float aa = 0.0, ab = 0.0, bb = 0.0, x0 = 0.0, x1 = 0.0;
    precise float det;

    for (i = 0; i < 16; i++) {
      precise float u = 1.0 - w[i];

      aa += w[i] * w[i];
      ab += w[i] * u;
      bb += u * u;
      x0 += w[i] * PA[i];
      x1 += u * PA[i];
    }
    det = aa * bb - ab * ab;
    c0 = a0;
    c1 = a1;
    if (det > EPS_DET) {
      precise float inv = 1.0 / det;
      precise float f0 = (bb * x0 - ab * x1) * inv;
      precise float f1 = (aa * x1 - ab * x0) * inv;
      precise float r0 = clamp255 (f0) + 0.5, r1 = clamp255 (f1) + 0.5;
      int n0 = int (r0), n1 = int (r1);

      if (n0 > n1) {
        c0 = n0;
        c1 = n1;
      }
    }
    alpha_eval (c0, c1, try_codes, try_w, try_err);
    if (try_err < err) {
      w = try_w;
      codes = try_codes;
      a0 = c0;
      a1 = c1;
      err = try_err;
    }
  }

  {
    uint lo = 0u, hi;

    for (i = 0; i < 10; i++)
      lo |= uint (codes[i]) << uint (3 * i);
    lo |= (uint (codes[10]) & 3u) << 30;
    hi = uint (codes[10]) >> 2;
    for (i = 11; i < 16; i++)
      hi |= uint (codes[i]) << uint (3 * i - 32);
    if (a0 == a1) {
      lo = 0u;
      hi = 0u;
    }
    return uvec2 (uint (a0) | (uint (a1) << 8) | (lo << 16),
        (lo >> 16) | (hi << 16));
  }
}
#endif

void main ()
{
  ivec2 blk = ivec2 (gl_GlobalInvocationID.xy);
  int i;

  if (blk.x >= u_blocks.x || blk.y >= u_blocks.y)
    return;
#if FORMAT == FMT_BC1 && QUALITY == 0
  {
    ivec3 px[16];

    for (i = 0; i < 16; i++)
      px[i] = ivec3 (block_pixel (blk, i).xyz);
    put_block8 (blk, colour_encode_fast (px));
    return;
  }
#elif FORMAT == FMT_YCOCG && QUALITY == 0
  ycocg_encode_fast (blk);
  return;
#endif

  for (i = 0; i < 16; i++) {
    uvec4 p = block_pixel (blk, i);

    P0[i] = float (p.x);
    P1[i] = float (p.y);
    P2[i] = float (p.z);
    PA[i] = float (p.w);
  }
  g_blue = 0;

#if FORMAT == FMT_YCOCG
  {
    precise float m = 0.0, scale;
    int i;

    for (i = 0; i < 16; i++) {
      precise float r = P0[i], g = P1[i], b = P2[i];
      precise float co = (r - b) * 0.5;
      precise float cg = (2.0 * g - r - b) * 0.25;
      precise float aco = co < 0.0 ? -co : co, acg = cg < 0.0 ? -cg : cg;

      PA[i] = (r + 2.0 * g + b) * 0.25;
      P0[i] = co;
      P1[i] = cg;
      m = aco > m ? aco : m;
      m = acg > m ? acg : m;
    }
    scale = m < 31.875 ? 4.0 : (m < 63.75 ? 2.0 : 1.0);
    g_blue = int (scale) - 1;
    for (i = 0; i < 16; i++) {
      P0[i] = clamp255 (P0[i] * scale + 128.0);
      P1[i] = clamp255 (P1[i] * scale + 128.0);
      P2[i] = 0.0;
    }
  }
#endif

#if FORMAT == FMT_BC1
  put_block8 (blk, colour_encode ());
#else
  {
    uvec2 a = alpha_encode ();

    put_block16 (blk, a, colour_encode ());
  }
#endif
}
