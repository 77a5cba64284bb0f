/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The GLSL compute shader of the GL encode path for BC4 and BC5
 * (bcglencode.c): a port of the CPU kernel in
 * gst-libs/gst/bc/bcencode-bc45.c, whose header comment describes the
 * algorithm. The CPU runs one block per 16-bit vector lane and lanes never
 * interact; here one invocation encodes one block (BC5: its red block,
 * then its green one) with the same integer operations, written as scalar
 * code:
 *
 * - the 16-bit wrap of the CPU never happens (every sum and product is
 *   below 2^15), so plain ints compute the same values; the unsigned
 *   saturating error sums are min (err + d * d, 65535);
 * - DIV7 / DIV5 are the same multiply-high divisions, (x * 9363) >> 16
 *   and (x * 13108) >> 16;
 * - the CPU's "stop when no lane needs another iteration" becomes "stop
 *   when this block does not": a block that did not improve in a round
 *   would not in the next one either, so the result is the same;
 * - the least-squares solve is the only float code: the same operations
 *   in the same order, every float `precise` (no contraction), as in
 *   bc1-bc3.comp.
 *
 * bcglencode.c puts in front of this body: the #version line, FORMAT
 * (FMT_BC4 or FMT_BC5), QUALITY (0 fast, 1 normal, 2 high) and
 * prelude.glsl (uniforms, output, texel fetch).
 *
 * Embedded at build time (gst-libs/gst/bcgl/embed-glsl.py) as
 * gst_bc_gl_shader_bc4_bc5_comp, without this header. */

#define FMT_BC4 4
#define FMT_BC5 5
#define HIGH_ROUNDS 8

#if FORMAT == FMT_BC4
/* GRAY16_LE: GStreamer's texture is two bytes (RG8), low byte first */
uniform bool u_gray16;
#endif

/* the channel being encoded */
int P[16];

/* the CPU's sums of a least-squares fit: count, positions, their
 * squares, position * pixel, pixels */
struct Sums {
  int n, s1, s2, x, p;
};

/* moves of the neighbour search, as the CPU's moves[] */
const ivec2 MOVES[16] = ivec2[16] (
  ivec2 (-1, -1), ivec2 (-1, 0), ivec2 (-1, 1), ivec2 (0, -1),
  ivec2 (0, 1), ivec2 (1, -1), ivec2 (1, 0), ivec2 (1, 1),
  ivec2 (-2, 0), ivec2 (2, 0), ivec2 (0, -2), ivec2 (0, 2),
  ivec2 (-3, 0), ivec2 (3, 0), ivec2 (0, -3), ivec2 (0, 3));

int div7 (int x) { return (x * 9363) >> 16; }
int div5 (int x) { return (x * 13108) >> 16; }

/* the positions (0..7) of the pixels among the ascending values whose
 * midpoints are mid: how many midpoints each is above */
void positions (int mid[7], out int u[16])
{
  int i, j;

  for (i = 0; i < 16; i++) {
    int n = 0;

    for (j = 0; j < 7; j++)
      n += P[i] > mid[j] ? 1 : 0;
    u[i] = n;
  }
}

/* palette_mid (): 8-value mode where a0 > a1, else 6-value mode */
void palette_mid (int a0, int a1, out int mid[7])
{
  bool m8 = a0 > a1;
  int prev = m8 ? a1 : 0, j;

  for (j = 1; j < 8; j++) {
    int l;

    if (m8)
      l = j == 7 ? a0 : a1 + div7 ((a0 - a1) * j);
    else
      l = j == 1 ? a0 : (j == 6 ? a1 : (j == 7 ? 255 :
              a0 + div5 ((a1 - a0) * (j - 1))));
    mid[j - 1] = (prev + l) >> 1;
    prev = l;
  }
}

/* mid8 (): the midpoints of 8-value mode (a0 >= a1) */
void mid8 (int a0, int a1, out int mid[7])
{
  int r = a0 - a1, prev = a1, j;

  for (j = 0; j < 7; j++) {
    int next = a1 + div7 (r * (j + 1));

    mid[j] = (prev + next) >> 1;
    prev = next;
  }
}

/* eval8 (): 8-value mode, a0 > a1; the sums when with_sums */
int eval8 (int a0, int a1, out int u[16], bool with_sums, inout Sums s)
{
  int mid[7], r = a0 - a1, err = 0, i;

  mid8 (a0, a1, mid);
  positions (mid, u);
  if (with_sums) {
    s.s1 = 0;
    s.s2 = 0;
    s.x = 0;
  }
  for (i = 0; i < 16; i++) {
    int d = P[i] - (a1 + div7 (u[i] * r));

    err = min (err + d * d, 65535);
    if (with_sums) {
      s.s1 += u[i];
      s.s2 += u[i] * u[i];
      s.x += u[i] * P[i];
    }
  }
  return err;
}

/* eval6 (): 6-value mode, a0 <= a1; when with_sums, the sums over the
 * pixels at positions 1..6 with u = position - 1 */
int eval6 (int a0, int a1, out int u[16], bool with_sums, inout Sums s)
{
  int mid[7], r = a1 - a0, err = 0, n_out = 0, i;

  palette_mid (a0, a1, mid);
  positions (mid, u);
  if (with_sums) {
    s.s1 = 0;
    s.s2 = 0;
    s.x = 0;
    s.p = 0;
  }
  for (i = 0; i < 16; i++) {
    /* positions 0 and 7 are the fixed values 0 and 255 */
    bool m0 = u[i] == 0, m7 = u[i] == 7;
    int t = min (max (u[i] - 1, 0), 5);
    int val = m0 ? 0 : a0 + div5 (t * r);
    int d;

    val = max (val, m7 ? 255 : 0);
    d = P[i] - val;
    err = min (err + d * d, 65535);
    if (with_sums) {
      if (m0 || m7) {
        n_out++;
      } else {
        s.s1 += t;
        s.s2 += t * t;
        s.x += t * P[i];
        s.p += P[i];
      }
    }
  }
  if (with_sums)
    s.n = 16 - n_out;
  return err;
}

/* solve (): the least-squares endpoints lo + u (hi - lo) / steps; ok
 * where the system is not singular */
void solve (Sums s, int steps, out int lo, out int hi, out bool ok)
{
  precise float st = float (steps);
  precise float fs1 = float (s.s1), fs2 = float (s.s2), fx = float (s.x);
  precise float aa = fs2;
  precise float ab = st * fs1 - fs2;
  precise float bb = st * st * float (s.n) - 2.0 * st * fs1 + fs2;
  precise float x0 = fx;
  precise float x1 = st * float (s.p) - fx;
  precise float det = aa * bb - ab * ab;
  bool good = det > 0.5;
  precise float inv = st / (good ? det : 1.0);
  precise float vh = (bb * x0 - ab * x1) * inv;
  precise float vl = (aa * x1 - ab * x0) * inv;

  vh = vh < 0.0 ? 0.0 : (vh > 255.0 ? 255.0 : vh);
  vl = vl < 0.0 ? 0.0 : (vl > 255.0 ? 255.0 : vl);
  hi = int (vh + 0.5);
  lo = int (vl + 0.5);
  ok = good;
}

#if QUALITY >= 2
/* neighbours (): one round of the neighbour search in 6-value (six) or
 * 8-value mode; TRUE when the error dropped. A move that leaves the
 * mode is the current pair on the CPU, whose error is never lower, so
 * it is skipped here. */
bool neighbours (bool six, inout int a0, inout int a1, inout int err)
{
  int b0 = a0, b1 = a1, best = err, u[16], m;
  Sums none;
  bool improved;

  for (m = 0; m < 16; m++) {
    int c0 = clamp (a0 + MOVES[m].x, 0, 255);
    int c1 = clamp (a1 + MOVES[m].y, 0, 255);
    int e;

    if (six ? !(c1 + 1 > c0) : !(c0 > c1))
      continue;
    e = six ? eval6 (c0, c1, u, false, none) :
        eval8 (c0, c1, u, false, none);
    if (e < best) {
      b0 = c0;
      b1 = c1;
      best = e;
    }
  }
  improved = best < err;
  a0 = b0;
  a1 = b1;
  err = best;
  return improved;
}
#endif

/* encode_vec () for the block in P: its 8 bytes */
uvec2 bc4_encode ()
{
  int mn = P[0], mx = P[0], a0, a1, u[16], i;
  bool is_flat;
  uint lo = 0u, hi = 0u;

  for (i = 1; i < 16; i++) {
    mn = min (mn, P[i]);
    mx = max (mx, P[i]);
  }
  a0 = mx;
  a1 = mn;
  is_flat = mn == mx;

#if QUALITY == 0
  {
    int mid[7];

    mid8 (a0, a1, mid);
    positions (mid, u);
  }
#else
  {
    Sums s, t;
    int err, cu[16], it;
    const int iters = QUALITY >= 2 ? 2 : 1;

    s.n = 16;
    s.p = P[0];
    for (i = 1; i < 16; i++)
      s.p += P[i];
    t = s;

    /* least-squares refits in 8-value mode */
    err = eval8 (a0, a1, u, true, s);
    for (it = 0; it < iters; it++) {
      int c0, c1, e;
      bool ok, last = it == iters - 1;

      solve (s, 7, c1, c0, ok);
      if (!ok || !(c0 > c1))
        break;
      e = eval8 (c0, c1, cu, !last, t);
      if (e < err) {
        a0 = c0;
        a1 = c1;
        err = e;
        u = cu;
        if (!last) {
          s.s1 = t.s1;
          s.s2 = t.s2;
          s.x = t.x;
        }
      }
    }
#if QUALITY >= 2
    for (it = 0; it < HIGH_ROUNDS; it++)
      if (!neighbours (false, a0, a1, err))
        break;
#endif

    /* the 6-value candidate, on blocks with pixels at 0 or 255 */
    if (mn == 0 || mx == 255) {
      int l0 = 255, h0 = 0, c0, c1, cerr, l, h, e;
      bool ok;

      /* the extremes of the other pixels */
      for (i = 0; i < 16; i++) {
        l0 = min (l0, P[i] == 0 ? 255 : P[i]);
        h0 = max (h0, P[i] == 255 ? 0 : P[i]);
      }
      c0 = l0 > h0 ? 0 : l0;
      c1 = l0 > h0 ? 0 : h0;
      cerr = eval6 (c0, c1, cu, true, s);
      /* one refit over the pixels between the endpoints */
      solve (s, 5, l, h, ok);
      if (ok && h + 1 > l) {
        int lu[16];

        e = eval6 (l, h, lu, false, t);
        if (e < cerr) {
          c0 = l;
          c1 = h;
          cerr = e;
          cu = lu;
        }
      }
#if QUALITY >= 2
      for (it = 0; it < HIGH_ROUNDS; it++)
        if (!neighbours (true, c0, c1, cerr))
          break;
#endif
      if (cerr < err) {
        a0 = c0;
        a1 = c1;
        err = cerr;
        u = cu;
      }
    }
#if QUALITY >= 2
    {
      /* the neighbour search keeps no positions */
      int mid[7];

      palette_mid (a0, a1, mid);
      positions (mid, u);
    }
#endif
  }
#endif

  /* codes from positions: in 8-value mode position j is code
   * (8 - j) & 7 with 0 and 1 exchanged; in 6-value mode positions 0, 1
   * and 6 are codes 6, 0 and 1, the others themselves; flat blocks
   * get codes 0. Code i is at bit 3 i of the 48 code bits. */
  for (i = 0; i < 16; i++) {
    int v = (8 - u[i]) & 7, bit = 3 * i;
    int v6 = u[i] == 0 ? 6 : (u[i] == 1 ? 0 : (u[i] == 6 ? 1 : u[i]));
    uint c;

    if (v < 2)
      v ^= 1;
    c = is_flat ? 0u : uint (a0 > a1 ? v : v6);
    if (bit < 32)
      lo |= c << uint (bit);
    if (bit + 3 > 32)
      hi |= bit >= 32 ? c << uint (bit - 32) : c >> uint (32 - bit);
  }
  return uvec2 (uint (a0) | (uint (a1) << 8) | (lo << 16),
      (lo >> 16) | (hi << 16));
}

void main ()
{
  ivec2 blk = ivec2 (gl_GlobalInvocationID.xy);
  int i;
#if FORMAT == FMT_BC5
  int G[16];
#endif

  if (blk.x >= u_blocks.x || blk.y >= u_blocks.y)
    return;

  for (i = 0; i < 16; i++) {
    uvec4 t = block_texel (blk, i);
    int r = int (t[u_chan.x]), g = int (t[u_chan.y]);

#if FORMAT == FMT_BC4
    /* luma_of () of bcencode.c; GRAY8 (an R8 texture) has u_chan 0,
     * 0, 0 (77 + 150 + 29 = 256: the luma of grey is itself); 16-bit
     * grey is rounded to 8 bits as bcencode.c does */
    if (u_gray16)
      P[i] = (int (t.x) + 256 * int (t.y) + 128) / 257;
    else
      P[i] = (77 * r + 150 * g + 29 * int (t[u_chan.z]) + 128) >> 8;
#else
    P[i] = r;
    G[i] = g;
#endif
  }

#if FORMAT == FMT_BC4
  put_block8 (blk, bc4_encode ());
#else
  {
    uvec2 r = bc4_encode ();

    P = G;
    put_block16 (blk, r, bc4_encode ());
  }
#endif
}
