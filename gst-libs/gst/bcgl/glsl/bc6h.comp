/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The GLSL compute shader of the GL BC6H encode path (bcglencode.c), of
 * unsigned (SGN 0) and signed (SGN 1: BC6H-SF) BC6H: at quality=fast a
 * port of lanes_fast () of the CPU encoder gst-libs/gst/bc/bcencode-bc6h.c,
 * whose header comment describes the algorithm; at quality=normal the same
 * one region (lanes_normal ()), then the two regions of bc6h-normal.glsl,
 * which make_source () appends to this file. One invocation per 4x4
 * block where the CPU runs BC_LANES blocks per lane-parallel loop: each
 * `LANES { ... }` body is the scalar code of the invocation's block (the
 * sign a constant here, SGN, as in the CPU's specialised builds). Keep the
 * two in step. As in bc7.comp
 * every float operation is written in the same order as in C and every
 * float variable is `precise` (no contraction into fma, no
 * reassociation), so an IEEE-conformant implementation (llvmpipe) writes
 * the CPU's blocks bit for bit. What differs is only how the work is laid
 * out:
 *
 *  - the input: each channel's code (the texel * CODE_MAX, rounded: the
 *    texture is 16-bit or 10-bit unsigned normalized; of YUV textures,
 *    with YUV_LAYOUT defined, the 16-bit RGB codes of yuv.glsl's
 *    conversion, YUV_MAX 65535, the CPU's gst_bc_encode_rows_hdr_yuv ()
 *    conversion) becomes a half
 *    float through the tables of the CPU's GstBcHdrInput
 *    (gst_bc_hdr_input_get_tables ()), uploaded as the storage block
 *    Tables: PQ and linear (HDR_HLG 0) the half of every code, two a
 *    uint; HLG (HDR_HLG 1) the scene light of every code, then the OOTF
 *    factors, with the CPU's single-precision luminance and rounding to
 *    a half (half_from_float_fast ()); then h and the weights as the
 *    CPU's gather computes them;
 *  - lanes_pass () stops at the first row that fits (the lanes stop
 *    once every lane has its row, and skip a row that no lane's spread
 *    can fit, a test with slack for the rounding that skips no row a
 *    block fits);
 *  - the rare block whose anchor breaks its row's differences is done
 *    again by the port of fast_block () (fit_region () divides where
 *    lanes_fit () multiplies by a reciprocal; quantize () is the
 *    branching one), whose fallback encode_partition () over the
 *    one-region rows is ported for one region, one refit, the first row
 *    that fits: the C code's early stop by expected quantization error
 *    never triggers there (its bound is G_MAXFLOAT). It runs in a second
 *    dispatch (PASS 1) over those blocks only: the first
 *    (PASS 0) lists them in the storage block Fallback (their
 *    count, and the work groups of the second dispatch, which
 *    bcglencode.c dispatches indirectly from there). On an implementation
 *    that runs invocations in SIMD lanes under a mask (llvmpipe) a branch
 *    to fast_block () in the first pass cost every block its time, 3/4
 *    of the frame's;
 *  - pack_one_region () writes the 128 bits through a generic bit
 *    writer, the indices from bit 65 (the same bits).
 *
 * bcglencode.c's make_source () puts in front of this body: the #version
 * line, QUALITY, SGN, PASS (0 the first dispatch; 1 the per-block
 * fallback; 2, at quality=normal, the two regions), HDR_HLG, CODE_MAX
 * (65535.0 or 1023.0), N_CODES (the codes of a channel), for HLG
 * OOTF_FIRST, OOTF_LAST and YS0..YS2 (the luminance weights as exact bit
 * patterns), the constants C64_31 = 64 / 31, C32_31 = 32 / 31, H_MAX =
 * 31743, EPS_LEN = 1e-12, EPS_DET = 1e-6, FLT_BIG = G_MAXFLOAT as exact
 * bit patterns, the table OCTAVE[32] of gst_bc_encode_bc6h_weights (); at
 * quality=normal the tables PART2[32] (the 2-bit subsets of the first 32
 * two-subset partitions of gst_bc_encode_bc7_tables ()), ANCHOR2[32] and
 * HEADER2[205] (gst_bc_encode_bc6h_header_bits (), four bytes a word);
 * then prelude.glsl (u_src, u_size, u_blocks, u_chan, the output) and,
 * for YUV textures (YUV_LAYOUT, YUV_MAX), yuv.glsl.
 *
 * Embedded at build time (gst-libs/gst/bcgl/embed-glsl.py) as
 * gst_bc_gl_shader_bc6h_comp, without this header. */

layout (std430, binding = 1) readonly buffer Tables {
  uint u_tab[];
};

/* the blocks of the second pass: the indirect dispatch's work groups
 * (x, y, z: bcglencode.c sets them to 0, 1, 1 before the first pass), the
 * count of blocks and their indices (row-major) */
layout (std430, binding = 2) buffer Fallback {
  uint u_groups[3];
  uint u_count;
  uint u_list[];
};

/* the block's pixels in h, channel-major, and their weights */
precise float H[3][16];
precise float W[3][16];

/* the least h; the h of one 16-bit endpoint unit (31 / 64, signed 31 /
 * 32) */
#if SGN
#define H_MIN (-H_MAX)
#define UNIT_SCALE 0.96875
#else
#define H_MIN 0.0
#define UNIT_SCALE 0.484375
#endif

/* the one-region rows of the CPU's bc6h_modes, by falling precision
 * (rows 13, 12, 11, 10: modes 14, 13, 12, 11): mode bits, endpoint bits,
 * delta bits (of every channel), transformed */
const int ROW_MODE[4] = int[4] (15, 11, 7, 3);
const int ROW_EPB[4] = int[4] (16, 12, 11, 10);
const int ROW_DELTA[4] = int[4] (4, 8, 9, 10);
const bool ROW_TRANSFORMED[4] = bool[4] (true, true, true, false);

/* one pass: the row (0..3, index of the tables above), endpoints, indices,
 * error, validity */
struct Pass {
  int row;
  ivec3 ep0, ep1;
  int q[16];
  float err;
  bool ok;
};

/* ---------------------------------------------------------------------- */
/* input                                                                   */

/* gst_bc_hdr_half_from_float () */
uint half_from_float (float v)
{
  uint u = floatBitsToUint (v);
  uint sgn = (u >> 16) & 0x8000u;
  uint e, m, hf;
  precise float a;

  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0u;
  u &= 0x7fffffffu;
  a = uintBitsToFloat (u);
  if (a >= 65504.0)
    return sgn | 0x7bffu;
  if (u < 0x38800000u) {
    /* subnormal (below 2^-14): in units of 2^-24, rounded to even */
    precise float s = a * 16777216.0;
    uint q = uint (s);
    precise float r = s - float (q);

    if (r > 0.5 || (r == 0.5 && (q & 1u) != 0u))
      q++;
    return sgn | q;
  }
  e = ((u >> 23) & 0xffu) - 127u + 15u;
  m = u & 0x7fffffu;
  hf = (e << 10) | (m >> 13);
  m &= 0x1fffu;
  if (m > 0x1000u || (m == 0x1000u && (hf & 1u) != 0u))
    hf++;
  return sgn | min (hf, 0x7bffu);
}

#if HDR_HLG
/* half_from_float_fast () */
uint half_from_float_fast (float v)
{
  uint u = floatBitsToUint (v);

  if (u >= 0x38800000u && u < 0x477fe000u) {
    uint t = u + 0x0fffu + ((u >> 13) & 1u);

    return (t >> 13) - ((127u - 15u) << 10);
  }
  return half_from_float (v);
}
#endif

/* the half floats of the pixel at c: gst_bc_hdr_input_convert () */
uvec3 pixel_halfs (ivec2 c)
{
#ifdef YUV_LAYOUT
  /* YUV textures: their 16-bit RGB codes (yuv.glsl) */
  uvec3 code = yuv_texel (c).rgb;
#else
  precise vec4 t = texelFetch (u_src, c, 0);
  uvec4 k = uvec4 (t * CODE_MAX + 0.5);
  uvec3 code = uvec3 (k[u_chan.x], k[u_chan.y], k[u_chan.z]);
#endif
#if HDR_HLG
  precise float e0 = uintBitsToFloat (u_tab[code.x]);
  precise float e1 = uintBitsToFloat (u_tab[code.y]);
  precise float e2 = uintBitsToFloat (u_tab[code.z]);
  precise float y = YS0 * e0 + YS1 * e1 + YS2 * e2;
  uint yu = floatBitsToUint (y);
  precise float f = yu < (uint (OOTF_FIRST) << 13) ? 0.0 :
      uintBitsToFloat (u_tab[uint (N_CODES) + min (yu >> 13,
              uint (OOTF_LAST)) - uint (OOTF_FIRST)]);
  precise float v0 = f * e0, v1 = f * e1, v2 = f * e2;

  return uvec3 (half_from_float_fast (v0), half_from_float_fast (v1),
      half_from_float_fast (v2));
#else
  uvec3 w = uvec3 (u_tab[code.x >> 1], u_tab[code.y >> 1], u_tab[code.z >> 1]);
  uvec3 sh = (code & 1u) * 16u;

  return (w >> sh) & 0xffffu;
#endif
}

/* h_of_half_int (): unsigned, negative and NaN 0, infinity the largest
 * half; signed, NaN 0, an infinity the largest half of its sign */
int h_of_half (uint v)
{
#if SGN
  int m = int (v & 0x7fffu);

  m = m > 0x7c00 ? 0 : min (m, 0x7bff);
  return (v & 0x8000u) != 0u ? -m : m;
#else
  return (v & 0x8000u) != 0u || v > 0x7c00u ? 0 : int (min (v, 0x7bffu));
#endif
}

/* ---------------------------------------------------------------------- */
/* integer helpers                                                         */

/* lanes_unquantize () and gst_bc6h_unquantize () (the same values) */
int unquantize (int x, int epb)
{
#if SGN
  int m = abs (x);
#else
  int m = x;
#endif
  int r = int (((uint (m) << 15) + 0x4000u) >> uint (epb - 1));

  r = m == 0 ? 0 : r;
#if SGN
  r = m >= (1 << (epb - 1)) - 1 ? 0x7fff : r;
  r = x < 0 ? -r : r;
#else
  r = m == (1 << epb) - 1 ? 0xffff : r;
#endif
  return epb >= 16 ? x : r;
}

/* h_of_value (): unsigned (i * 31) >> 6, signed the magnitude
 * (|i| * 31) >> 5 with i's sign */
int h_of_value (int i)
{
#if SGN
  int h = (abs (i) * 31) >> 5;

  return i < 0 ? -h : h;
#else
  return (i * 31) >> 6;
#endif
}

/* lanes_interp () and interpolate () (>> of a negative sum is the floor,
 * as in C) */
int interp (int a, int b, int w)
{
  return h_of_value ((a * (64 - w) + b * w + 32) >> 6);
}

/* lanes_decode (): the 4-bit index q (weights (64 q + 7) / 15) */
int decode (int a, int b, int q)
{
  return interp (a, b, (q * 64 + 7) / 15);
}

/* lanes_u16 (): the 16-bit value U of endpoint h; signed, of its
 * magnitude, 15 bits, with h's sign */
int lanes_u16 (float h)
{
#if SGN
  precise float a = h < 0.0 ? -h : h;
  precise float u = (a + 0.5) * C32_31;
  int ui;

  u = u > 32767.0 ? 32767.0 : u;
  ui = int (u + 0.5);
  return h < 0.0 ? -ui : ui;
#else
  precise float u = (h + 0.5) * C64_31;

  u = u < 0.0 ? 0.0 : (u > 65535.0 ? 65535.0 : u);
  return int (u + 0.5);
#endif
}

/* lanes_quantize_u (): quantize () of the 16-bit value u, in closed form */
int lanes_quantize_u (int u, int epb)
{
  int ui = SGN != 0 ? abs (u) : u, top = 0xffff >> SGN;
  int s = 16 - epb, mx = (1 << (epb - SGN)) - 1, step = 1 << s;
  int x = ui >> s;
  int u1 = step + (step >> 1), um = (mx - 1) * step + (step >> 1);
  bool up = (x == 0 && abs (u1 - ui) < ui) ||
      (x == mx - 1 && top - ui < abs (um - ui));
  bool down = x == mx && abs (um - ui) < top - ui;

  x = epb >= 16 ? ui : x + (up ? 1 : 0) - (down ? 1 : 0);
  return SGN != 0 && u < 0 ? -x : x;
}

/* the code the lanes quantize the endpoint h to */
int lanes_quantize (float h, int epb)
{
  return lanes_quantize_u (lanes_u16 (h), epb);
}

/* quantize () of the per-block code */
int quantize (float h, int epb)
{
  bool neg = SGN != 0 && h < 0.0;
  precise float a = neg ? -h : h;
#if SGN
  precise float u = (a + 0.5) * C32_31;
#else
  precise float u = (a + 0.5) * C64_31;
#endif
  int mx = (1 << (epb - SGN)) - 1, x, ui;

  if (u <= 0.0)
    return 0;
  if (u >= float (0xffff >> SGN))
    return neg ? -mx : mx;
  ui = int (u + 0.5);
  if (epb >= 16)
    return neg ? -ui : ui;
  x = ui >> (16 - epb);
  if (x > 1 && x < mx - 1)
    return neg ? -x : x;
  if (x < mx && abs (unquantize (x + 1, epb) - ui) <
      abs (unquantize (x, epb) - ui))
    x++;
  if (x > 0 && abs (unquantize (x - 1, epb) - ui) <
      abs (unquantize (x, epb) - ui))
    x--;
  return neg ? -x : x;
}

/* fits () of one region in row r */
bool fits (int r, ivec3 ep0, ivec3 ep1)
{
  int half_ = 1 << (ROW_DELTA[r] - 1), c;

  if (!ROW_TRANSFORMED[r])
    return true;
  for (c = 0; c < 3; c++) {
    int d = ep1[c] - ep0[c];

    if (d < -half_ || d >= half_)
      return false;
  }
  return true;
}

/* ---------------------------------------------------------------------- */
/* the endpoints' fit                                                      */

/* lanes_fit () (divide false) and fit_region () of one region (divide
 * true: the power iteration divides by the largest component, and stops
 * when it is 0, which keeps the axis as the lanes do) */
void fit (bool divide, out vec3 lo, out vec3 hi)
{
  precise float mean[3], cov[6], axis[3];
  precise float tmin = 0.0, tmax = 0.0, len;
  int i, c, it;
  bool r0, r1;

  for (c = 0; c < 3; c++) {
    mean[c] = 0.0;
    for (i = 0; i < 16; i++)
      mean[c] += H[c][i];
    mean[c] *= 0.0625;
  }
  for (c = 0; c < 6; c++)
    cov[c] = 0.0;
  for (i = 0; i < 16; i++) {
    precise float d0 = H[0][i] - mean[0];
    precise float d1 = H[1][i] - mean[1];
    precise float d2 = H[2][i] - mean[2];

    cov[0] += d0 * d0;
    cov[1] += d0 * d1;
    cov[2] += d0 * d2;
    cov[3] += d1 * d1;
    cov[4] += d1 * d2;
    cov[5] += d2 * d2;
  }
  /* lanes_axis () */
  r0 = cov[0] >= cov[3] && cov[0] >= cov[5];
  r1 = !r0 && cov[3] >= cov[5];
  axis[0] = r0 ? cov[0] : (r1 ? cov[1] : cov[2]);
  axis[1] = r0 ? cov[1] : (r1 ? cov[3] : cov[4]);
  axis[2] = r0 ? cov[2] : (r1 ? cov[4] : cov[5]);
  for (it = 0; it < 3; it++) {
    precise float x = cov[0] * axis[0] + cov[1] * axis[1] + cov[2] * axis[2];
    precise float y = cov[1] * axis[0] + cov[3] * axis[1] + cov[4] * axis[2];
    precise float z = cov[2] * axis[0] + cov[4] * axis[1] + cov[5] * axis[2];
    precise float ax = x < 0.0 ? -x : x;
    precise float ay = y < 0.0 ? -y : y;
    precise float az = z < 0.0 ? -z : z;
    precise float mxy = ax > ay ? ax : ay;
    precise float mx = mxy > az ? mxy : az;

    if (divide) {
      if (mx <= 0.0)
        break;
      axis[0] = x / mx;
      axis[1] = y / mx;
      axis[2] = z / mx;
    } else {
      precise float inv = mx > 0.0 ? 1.0 / mx : 0.0;

      axis[0] = mx > 0.0 ? x * inv : axis[0];
      axis[1] = mx > 0.0 ? y * inv : axis[1];
      axis[2] = mx > 0.0 ? z * inv : axis[2];
    }
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
    precise float t = (H[0][i] - mean[0]) * axis[0] +
        (H[1][i] - mean[1]) * axis[1] + (H[2][i] - mean[2]) * axis[2];

    tmin = tmin < t ? tmin : t;
    tmax = tmax > t ? tmax : t;
  }
  for (c = 0; c < 3; c++) {
    precise float l = mean[c] + tmin * axis[c];
    precise float h = mean[c] + tmax * axis[c];

    lo[c] = l < H_MIN ? H_MIN : (l > H_MAX ? H_MAX : l);
    hi[c] = h < H_MIN ? H_MIN : (h > H_MAX ? H_MAX : h);
  }
}

/* lanes_refit () and refit_region () of one region: the least-squares
 * endpoints for the indices q; false where undetermined (then lo and hi
 * are left as they are, as refit_region () leaves them) */
bool refit (int q[16], inout vec3 lo, inout vec3 hi)
{
  precise float aa[3], ab[3], bb[3], pa[3], pb[3];
  precise vec3 l, h;
  int i, c;

  for (c = 0; c < 3; c++) {
    aa[c] = 0.0;
    ab[c] = 0.0;
    bb[c] = 0.0;
    pa[c] = 0.0;
    pb[c] = 0.0;
  }
  for (i = 0; i < 16; i++) {
    precise float w = float ((q[i] * 64 + 7) / 15) * 0.015625;
    precise float a = 1.0 - w;

    for (c = 0; c < 3; c++) {
      precise float pw = W[c][i];

      aa[c] += pw * a * a;
      ab[c] += pw * a * w;
      bb[c] += pw * w * w;
      pa[c] += pw * a * H[c][i];
      pb[c] += pw * w * H[c][i];
    }
  }
  for (c = 0; c < 3; c++) {
    precise float det = aa[c] * bb[c] - ab[c] * ab[c];
    precise float s = aa[c] + bb[c];

    if (!(det > EPS_DET * s * s))
      return false;
  }
  for (c = 0; c < 3; c++) {
    precise float det = aa[c] * bb[c] - ab[c] * ab[c];
    precise float inv = 1.0 / det;
    precise float x = (bb[c] * pa[c] - ab[c] * pb[c]) * inv;
    precise float y = (aa[c] * pb[c] - ab[c] * pa[c]) * inv;

    l[c] = x < H_MIN ? H_MIN : (x > H_MAX ? H_MAX : x);
    h[c] = y < H_MIN ? H_MIN : (y > H_MAX ? H_MAX : y);
  }
  lo = l;
  hi = h;
  return true;
}

/* ---------------------------------------------------------------------- */
/* passes                                                                  */

/* Indices by projection onto the decoded segment of the unquantized
 * endpoints a and b and their exact error (lanes_pass (), fast_assign ():
 * the same operations) */
float assign (ivec3 a, ivec3 b, out int q[16])
{
  precise vec3 p0, d;
  precise float len = 0.0, inv, err = 0.0;
  int i, c;

  for (c = 0; c < 3; c++) {
    p0[c] = float (h_of_value (a[c]));
    d[c] = float (h_of_value (b[c])) - p0[c];
    len += d[c] * d[c];
  }
  inv = len > 0.0 ? 15.0 / len : 0.0;
  for (i = 0; i < 16; i++) {
    precise float t = ((H[0][i] - p0[0]) * d[0] + (H[1][i] - p0[1]) * d[1] +
        (H[2][i] - p0[2]) * d[2]) * inv + 0.5;
    precise float e0, e1, e2;
    int k;

    t = t < 0.0 ? 0.0 : (t > 15.0 ? 15.0 : t);
    k = int (t);
    q[i] = k;
    e0 = float (decode (a[0], b[0], k)) - H[0][i];
    e1 = float (decode (a[1], b[1], k)) - H[1][i];
    e2 = float (decode (a[2], b[2], k)) - H[2][i];
    err += W[0][i] * e0 * e0 + W[1][i] * e1 * e1 + W[2][i] * e2 * e2;
  }
  return err;
}

/* lanes_proj (): indices by projection onto the unquantized endpoints
 * lo, hi (for refit ()) */
void proj (vec3 lo, vec3 hi, out int q[16])
{
  precise vec3 d;
  precise float inv = 0.0;
  int i, c;

  for (c = 0; c < 3; c++) {
    d[c] = hi[c] - lo[c];
    inv += d[c] * d[c];
  }
  inv = inv > 0.0 ? 15.0 / inv : 0.0;
  for (i = 0; i < 16; i++) {
    precise float t = ((H[0][i] - lo[0]) * d[0] + (H[1][i] - lo[1]) * d[1] +
        (H[2][i] - lo[2]) * d[2]) * inv + 0.5;

    t = t < 0.0 ? 0.0 : (t > 15.0 ? 15.0 : t);
    q[i] = int (t);
  }
}

/* Orients lo, hi so that pixel 0 is nearer lo (lanes_pass (), fast_pass
 * ()) */
void orient (inout vec3 lo, inout vec3 hi)
{
  precise float t0 = 0.0, len = 0.0;
  int c;

  for (c = 0; c < 3; c++) {
    precise float dc = hi[c] - lo[c];

    t0 += (H[c][0] - lo[c]) * dc;
    len += dc * dc;
  }
  if (2.0 * t0 > len) {
    vec3 t = lo;

    lo = hi;
    hi = t;
  }
}

/* The anchor: index 0 below 8, else the endpoints swapped and the indices
 * mirrored; r.ok false where the swap breaks the row's differences */
void anchor (inout Pass r)
{
  int i;

  r.ok = true;
  if (r.q[0] >= 8) {
    ivec3 t = r.ep0;

    r.ep0 = r.ep1;
    r.ep1 = t;
    for (i = 0; i < 16; i++)
      r.q[i] = 15 - r.q[i];
    r.ok = fits (r.row, r.ep0, r.ep1);
  }
}

/* lanes_pass (): endpoints lo, hi (oriented here), the most precise row
 * whose differences fit, indices by projection, the anchor */
Pass lanes_pass (inout vec3 lo, inout vec3 hi)
{
  Pass r;
  int j, c;

  orient (lo, hi);
  r.row = 3;
  for (j = 0; j < 4; j++) {
    int epb = ROW_EPB[j];
    ivec3 x0, x1;

    for (c = 0; c < 3; c++) {
      x0[c] = lanes_quantize (lo[c], epb);
      x1[c] = lanes_quantize (hi[c], epb);
    }
    if (fits (j, x0, x1)) {
      r.row = j;
      r.ep0 = x0;
      r.ep1 = x1;
      break;
    }
  }
  {
    int epb = ROW_EPB[r.row];
    ivec3 a, b;

    for (c = 0; c < 3; c++) {
      a[c] = unquantize (r.ep0[c], epb);
      b[c] = unquantize (r.ep1[c], epb);
    }
    r.err = assign (a, b, r.q);
  }
  anchor (r);
  return r;
}

/* fast_pass (): as lanes_pass () with quantize () */
Pass fast_pass (inout vec3 lo, inout vec3 hi)
{
  Pass r;
  int j, c;

  orient (lo, hi);
  /* fast_row () */
  r.row = 3;
  for (j = 0; j < 4; j++) {
    int epb = ROW_EPB[j];
    ivec3 x0, x1;

    for (c = 0; c < 3; c++) {
      x0[c] = quantize (lo[c], epb);
      x1[c] = quantize (hi[c], epb);
    }
    if (j == 3 || fits (j, x0, x1)) {
      r.row = j;
      r.ep0 = x0;
      r.ep1 = x1;
      break;
    }
  }
  {
    int epb = ROW_EPB[r.row];
    ivec3 a, b;

    for (c = 0; c < 3; c++) {
      a[c] = unquantize (r.ep0[c], epb);
      b[c] = unquantize (r.ep1[c], epb);
    }
    r.err = assign (a, b, r.q);
  }
  anchor (r);
  return r;
}

/* try_mode () of one region in row j, not exhaustive: false when the
 * endpoints do not fit the row */
bool try_mode (int j, vec3 lo, vec3 hi, out Pass r)
{
  int epb = ROW_EPB[j], i, c, k;
  ivec3 a, b;

  r.row = j;
  r.ok = false;
  if (ROW_TRANSFORMED[j]) {
    precise float unit = float (1 << (16 - epb)) * UNIT_SCALE;
    bool ok0 = true, ok1 = true;

    for (c = 0; c < 3; c++) {
      precise float lim = float ((1 << (ROW_DELTA[j] - 1)) + 1) * unit;
      precise float d00 = lo[c] - lo[c], d10 = hi[c] - lo[c];
      precise float d01 = lo[c] - hi[c], d11 = hi[c] - hi[c];

      ok0 = ok0 && (d00 < 0.0 ? -d00 : d00) <= lim &&
          (d10 < 0.0 ? -d10 : d10) <= lim;
      ok1 = ok1 && (d01 < 0.0 ? -d01 : d01) <= lim &&
          (d11 < 0.0 ? -d11 : d11) <= lim;
    }
    if (!ok0 && !ok1)
      return false;
  }
  for (c = 0; c < 3; c++) {
    r.ep0[c] = quantize (lo[c], epb);
    r.ep1[c] = quantize (hi[c], epb);
  }
  if (!fits (j, r.ep0, r.ep1) && !fits (j, r.ep1, r.ep0))
    return false;

  /* assign_region (): the projection's index and its neighbours */
  for (c = 0; c < 3; c++) {
    a[c] = unquantize (r.ep0[c], epb);
    b[c] = unquantize (r.ep1[c], epb);
  }
  {
    precise float pal[16][3];
    precise vec3 d;
    precise float dd, err = 0.0;

    for (k = 0; k < 16; k++)
      for (c = 0; c < 3; c++)
        pal[k][c] = float (decode (a[c], b[c], k));
    for (c = 0; c < 3; c++)
      d[c] = pal[15][c] - pal[0][c];
    dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    dd = dd > 0.0 ? 15.0 / dd : 0.0;
    for (i = 0; i < 16; i++) {
      precise float t = ((H[0][i] - pal[0][0]) * d[0] +
          (H[1][i] - pal[0][1]) * d[1] + (H[2][i] - pal[0][2]) * d[2]) * dd;
      precise float t5 = t + 0.5;
      precise float best = FLT_BIG;
      int q = int (t5 > 15.0 ? 15.0 : (t5 < 0.0 ? 0.0 : t5));
      int bk = 0;

      for (k = max (q - 1, 0); k <= min (q + 1, 15); k++) {
        precise float e0 = pal[k][0] - H[0][i];
        precise float e1 = pal[k][1] - H[1][i];
        precise float e2 = pal[k][2] - H[2][i];
        precise float e = W[0][i] * e0 * e0 + W[1][i] * e1 * e1 +
            W[2][i] * e2 * e2;

        if (e < best) {
          best = e;
          bk = k;
        }
      }
      r.q[i] = bk;
      err += best;
    }
    r.err = err;
  }
  /* the anchor, then the differences */
  if (r.q[0] >= 8) {
    ivec3 t = r.ep0;

    r.ep0 = r.ep1;
    r.ep1 = t;
    for (i = 0; i < 16; i++)
      r.q[i] = 15 - r.q[i];
  }
  r.ok = fits (j, r.ep0, r.ep1);
  return r.ok;
}

/* try_rows () of the one-region rows, the first that fits (the CPU's
 * early stop never triggers here: see the top) */
Pass try_rows (vec3 lo, vec3 hi)
{
  Pass r;
  int j;

  r.err = FLT_BIG;
  r.ok = false;
  r.row = 3;
  for (j = 0; j < 4; j++) {
    Pass cand;

    if (!try_mode (j, lo, hi, cand))
      continue;
    if (cand.err < r.err)
      r = cand;
    break;
  }
  return r;
}

/* encode_partition () of one region, one refit, the first row that fits */
Pass encode_one_region ()
{
  vec3 lo, hi;
  Pass cur;

  fit (true, lo, hi);
  cur = try_rows (lo, hi);
  if (cur.err > 0.0 && cur.err < FLT_BIG) {
    Pass next;

    if (!refit (cur.q, lo, hi)) {
      /* one index for the whole region: its endpoints as they are */
      int epb = ROW_EPB[cur.row], c;

      for (c = 0; c < 3; c++) {
        lo[c] = float (decode (unquantize (cur.ep0[c], epb),
                unquantize (cur.ep1[c], epb), cur.q[0]));
        hi[c] = lo[c];
      }
    }
    next = try_rows (lo, hi);
    if (next.err < cur.err)
      cur = next;
  }
  return cur;
}

/* fast_block () */
Pass fast_block ()
{
  vec3 lo, hi;
  Pass best, next;

  fit (true, lo, hi);
  best = fast_pass (lo, hi);
  if (!best.ok)
    return encode_one_region ();
  if (best.err > 0.0 && refit (best.q, lo, hi)) {
    next = fast_pass (lo, hi);
    if (next.ok && next.err < best.err)
      best = next;
  }
  return best;
}

/* ---------------------------------------------------------------------- */
/* the block                                                               */

uint BW[4];
uint BPOS;

/* bc_bptc_bits_write (): the low n (0 to 32) bits of v, least significant
 * first */
void bits_write (uint v, uint n)
{
  uint w = BPOS >> 5, o = BPOS & 31u;

  if (n == 0u)
    return;
  if (n < 32u)
    v &= (1u << n) - 1u;
  BW[w] |= v << o;
  if (o + n > 32u)
    BW[w + 1u] |= v >> (32u - o);
  BPOS += n;
}

/* pack_one_region () */
void pack_one_region (ivec2 blk, Pass r)
{
  uint base = uint (blk.y * u_blocks.x + blk.x) * 4u;
  int epb = ROW_EPB[r.row], n_high = epb - 10, c, k, i;

  BW[0] = 0u;
  BW[1] = 0u;
  BW[2] = 0u;
  BW[3] = 0u;
  BPOS = 0u;
  bits_write (uint (ROW_MODE[r.row]), 5u);
  for (c = 0; c < 3; c++)
    bits_write (uint (r.ep0[c]), 10u);
  for (c = 0; c < 3; c++) {
    uint high = uint (r.ep0[c]) >> 10, rev = 0u;

    if (!ROW_TRANSFORMED[r.row]) {
      bits_write (uint (r.ep1[c]), 10u);
      continue;
    }
    bits_write (uint (r.ep1[c] - r.ep0[c]), uint (ROW_DELTA[r.row]));
    for (k = 0; k < n_high; k++)
      rev |= ((high >> uint (n_high - 1 - k)) & 1u) << uint (k);
    bits_write (n_high == 1 ? high : rev, uint (n_high));
  }
  /* the indices from bit 65: 3 bits for pixel 0, 4 for the others */
  bits_write (uint (r.q[0]), 3u);
  for (i = 1; i < 16; i++)
    bits_write (uint (r.q[i]), 4u);
  u_out[base] = BW[0];
  u_out[base + 1u] = BW[1];
  u_out[base + 2u] = BW[2];
  u_out[base + 3u] = BW[3];
}

/* the block's pixels in h and their weights, as the CPU's gather */
void load_block (ivec2 blk)
{
  int i, c;

  for (i = 0; i < 16; i++) {
    ivec2 pc = min (blk * 4 + ivec2 (i & 3, i >> 2), u_size - 1);
    uvec3 hv = pixel_halfs (pc);

    for (c = 0; c < 3; c++) {
      int h = h_of_half (hv[c]);

      H[c][i] = float (h);
      W[c][i] = OCTAVE[abs (h) >> 10];
    }
  }
}

#if QUALITY == 0 && PASS == 1
/* the listed blocks, fast_block () */
void main ()
{
  uint k = gl_WorkGroupID.x * 64u + gl_LocalInvocationIndex;
  ivec2 blk;

  if (k >= u_count)
    return;
  blk = ivec2 (int (u_list[k] % uint (u_blocks.x)),
      int (u_list[k] / uint (u_blocks.x)));
  load_block (blk);
  pack_one_region (blk, fast_block ());
}
#elif QUALITY == 0
/* lanes_fast (); a block whose anchor breaks its row's differences is
 * listed for the second pass */
void main ()
{
  ivec2 blk = ivec2 (gl_GlobalInvocationID.xy);
  vec3 lo, hi;
  int q[16];
  Pass r;

  if (blk.x >= u_blocks.x || blk.y >= u_blocks.y)
    return;

  load_block (blk);
  /* the principal axis, indices for its endpoints unquantized, a refit
   * to those (where determined), then the row and the indices */
  fit (false, lo, hi);
  proj (lo, hi, q);
  refit (q, lo, hi);
  r = lanes_pass (lo, hi);
  if (!r.ok) {
    uint k = atomicAdd (u_count, 1u);

    u_list[k] = uint (blk.y * u_blocks.x + blk.x);
    atomicMax (u_groups[0], k / 64u + 1u);
    return;
  }
  pack_one_region (blk, r);
}
#endif
