/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* BC6H block encoder (BPTC float, unsigned: DXGI's BC6H_UF16, and signed:
 * BC6H_SF16), written from the BC6H section of the Khronos Data Format
 * Specification and Microsoft's "BC6H Format" page.
 *
 * The decoder interpolates the 16-bit unquantized endpoints linearly and
 * scales the result by 31/64 to the bits of a half float; so a decoded
 * value is linear in the endpoints when read as the integer of its half
 * float bits, a piecewise-linear logarithm of the value (1024 steps an
 * octave). The encoder works in that space ("h", 0 .. 0x7bff): pixels are
 * their half floats' bits (negative values and NaN 0, infinities the
 * largest half). The error it minimises is the squared difference of the
 * h values of the three channels, each weighted by how much such a
 * difference shows in the multi-exposure PSNR (exposures 2^-3 .. 2^3 of
 * gamma 2.2 pictures, clipped at 1.0), from a table of one weight an
 * octave: the sum over the exposures where the value is not clipped of
 * (2^e v)^(2 / 2.2), 1.0 at most, at least 0.016 (values below 2^-10)
 * and 0.02 (above 8, clipped at every exposure) (bc6h_octave_weight,
 * defined in bcencode.c for every build of this file and exported for the
 * GL encoder as gst_bc_encode_bc6h_weights ()). The weights enter the
 * errors that pick indices and candidates and the least-squares refits,
 * not the principal axis.
 *
 * A region's endpoints are fitted in h: the mean and covariance of its
 * pixels, the principal axis by power iteration, the extreme projections
 * on it. An endpoint h becomes the 16-bit value U = (h + 1/2) 64 / 31 (the
 * decoder's (U * 31) >> 6 then rounds to h), quantized to the mode's
 * endpoint bits as the decoder unquantizes (the nearest of the two codes
 * around it). Indices are the projection of each pixel onto the decoded
 * palette, rounded, then the better of it and its two neighbours by the
 * exact decoded values. The anchor rule (the first pixel of a region
 * needs an index below half) is met by swapping the region's endpoints.
 * A least-squares refit of the endpoints to the indices follows, keeping
 * the better result (fast and normal's lanes refit once, to the indices
 * of the unquantized principal-axis endpoints, and quantize after it).
 *
 * Modes:
 *
 *  - fast: one region; of modes 14, 13, 12 and 11 (16, 12, 11 and
 *    10-bit endpoints, the first three storing the second endpoint as a
 *    4, 8 or 9-bit difference) the most precise one whose differences
 *    fit, for the least-squares refit of the principal-axis endpoints to
 *    the indices of their unquantized projection; indices by projection
 *    alone. It runs on BC_LANES
 *    blocks at once with the block as the innermost loop, like the other
 *    kernels (lanes_fast ()), and packs its blocks directly; a block
 *    whose anchor swap breaks its mode's differences (rare) is done again
 *    by the per-block code.
 *  - normal: fast's one region in lanes (lanes_normal ()); then, only
 *    for the blocks whose one-region error is large (about 73 half steps
 *    RMS a channel, NORMAL_TWO_REGION_THRESHOLD), gathered BC_LANES at a
 *    time (lanes_two ()), the most promising of the 32 two-region
 *    partitions (ranked by an estimate of the energy of each region off
 *    its principal axis, from its covariance's invariants): the
 *    principal-axis endpoints, indices for them unquantized, one refit
 *    to those, then the most precise two-region mode that fits (modes 3,
 *    4, 5: 11 bits; 1: 10; 6: 9; 7, 8, 9: 8; 2: 7; 10: 6 bits and no
 *    differences, which always fits), each index the best of the
 *    projection's and its neighbours.
 *  - high: per block, one region with every index searched, every
 *    one-region mode that fits and three refits; then, unless the
 *    one-region error is below 3 half steps RMS, the six most promising
 *    partitions, every two-region mode that fits, and every pixel's index
 *    searched over the whole palette.
 *
 * Before a two-region mode is tried, rows whose differences cannot hold
 * the endpoints are skipped without quantizing, and so are the rows
 * (ordered by falling precision) whose quantization alone would cost more
 * than the best candidate's error. The block keeps the candidate of least
 * error. Like the other kernels this file is built once per instruction
 * set, and every build writes the same blocks (floating point
 * contraction off, no reassociation, lanes independent); the GL encoder's
 * port of every quality (gst-libs/gst/bcgl/glsl/bc6h.comp,
 * bc6h-normal.glsl), a block an invocation, writes them too on an
 * IEEE-float GL implementation, of either sign.
 *
 * Signed BC6H (sgn = 1 in the lanes' functions below, BC6H_SGN 1 in the
 * per-block ones of bcencode-bc6h-block.h) is the same search in a
 * signed h: -0x7bff .. 0x7bff, a negative half float -m being -m (NaN 0,
 * infinities the largest half of their sign), the error weight that of
 * the magnitude. Its decoder differs in three ways, which the encoder
 * follows: endpoints (and, in the transformed modes, the first endpoint
 * plus the sign-extended difference, wrapped at the endpoint bits) are
 * sign-extended two's complement values; a magnitude m of an endpoint of
 * epb bits unquantizes to 15 bits, 0 to 0, 2^(epb - 1) - 1 and up to
 * 0x7fff, else ((m << 15) + 0x4000) >> (epb - 1), with the sign put back
 * (16 bits: the value as it is); and the interpolated value i becomes
 * the half float of magnitude (|i| * 31) >> 5 and i's sign, where the
 * unsigned decoder takes (i * 31) >> 6. So an endpoint h becomes the
 * value U = (|h| + 1/2) 32 / 31 with h's sign, quantized as a magnitude
 * of epb - 1 bits to the nearer code as above: a signed endpoint has one
 * bit of magnitude less than an unsigned one. The encoder never writes
 * the code -2^(epb - 1) (with 16 bits, -0x8000 would be -infinity).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcencode-kernel.h"
#include "bcdecode-private.h"

#include <string.h>

#define H_MAX 31743.0f          /* 0x7bff, the largest finite half */

/* the least h: 0 (unsigned), -H_MAX (signed) */
static inline float
h_min (gint sgn)
{
  return sgn ? -H_MAX : 0.0f;
}

/* the pixels of a block in h, channel-major */
typedef struct
{
  float h[3][16];
  float w[3][16];
  float wsum;
} Bc6hPixels;

/* a block in the making */
typedef struct
{
  gint row;                     /* in bc6h_modes */
  guint partition;
  /* quantized endpoints [region][endpoint][channel] (endpoint bits) */
  gint ep[2][2][3];
  guint8 idx[16];
  float err;
} Bc6hCand;

/* endpoints in h [region][endpoint][channel] */
typedef float Bc6hEndpoints[2][2][3];

static const guint8 one_region_rows[] = { 13, 12, 11, 10 };

static const guint8 two_region_rows[] = { 2, 3, 4, 0, 5, 6, 7, 8, 1, 9 };

static const guint8 one_region[16] = { 0, };

/* the code of @epb bits whose unquantized value is nearest the 16-bit
 * value (signed: 15-bit magnitude and sign) of the endpoint @h */
static inline gint
quantize (float h, guint epb, gint sgn)
{
  gboolean neg = sgn && h < 0.0f;
  float u = ((neg ? -h : h) + 0.5f) * (sgn ? 32.0f / 31.0f : 64.0f / 31.0f);
  /* the largest code (signed: of the magnitude) */
  gint max = (1 << (epb - sgn)) - 1, x;
  gint ui;

  if (u <= 0.0f)
    return 0;
  if (u >= (float) (0xffff >> sgn))
    return neg ? -max : max;
  ui = (gint) (u + 0.5f);
  if (epb >= 16)
    return neg ? -ui : ui;
  x = ui >> (16 - epb);
  /* inside, code x unquantizes to the middle of its 2^(16 - epb) values */
  if (x > 1 && x < max - 1)
    return neg ? -x : x;
  if (x < max && ABS (gst_bc6h_unquantize (x + 1, epb, sgn) - ui) <
      ABS (gst_bc6h_unquantize (x, epb, sgn) - ui))
    x++;
  if (x > 0 && ABS (gst_bc6h_unquantize (x - 1, epb, sgn) - ui) <
      ABS (gst_bc6h_unquantize (x, epb, sgn) - ui))
    x--;
  return neg ? -x : x;
}

/* h of the interpolated (or unquantized) value @i: unsigned
 * (i * 31) >> 6, signed the magnitude (|i| * 31) >> 5 with i's sign */
static inline gint
h_of_value (gint i, gint sgn)
{
  if (!sgn)
    return (i * 31) >> 6;
  return i < 0 ? -((-i * 31) >> 5) : (i * 31) >> 5;
}

/* the decoded h of weight @w between unquantized endpoints @a and @b (>>
 * of a negative sum is the floor, as the decoder divides) */
static inline gint
interpolate (gint a, gint b, gint w, gint sgn)
{
  return h_of_value ((a * (64 - w) + b * w + 32) >> 6, sgn);
}

/* h of a half float's bits */
static inline gint32
h_of_half_int (guint16 v, gint sgn)
{
  gint32 m = v & 0x7fff;

  /* unsigned: negative and NaN 0, infinity the largest half */
  if (!sgn)
    return (v & 0x8000) || v > 0x7c00 ? 0 : MIN (v, 0x7bff);
  /* signed: NaN 0, an infinity the largest half of its sign */
  m = m > 0x7c00 ? 0 : MIN (m, 0x7bff);
  return (v & 0x8000) ? -m : m;
}

static inline float
h_of_half (guint16 v, gint sgn)
{
  return (float) h_of_half_int (v, sgn);
}

/* Whether the endpoints fit mode @m: every endpoint after the first as a
 * difference of its delta bits (transformed modes) */
static gboolean
fits (const Bc6hMode * m, const gint (*ep)[2][3])
{
  gint r, e, c;

  if (!m->transformed)
    return TRUE;
  for (r = 0; r < m->regions; r++) {
    for (e = 0; e < 2; e++) {
      for (c = 0; c < 3; c++) {
        gint d = ep[r][e][c] - ep[0][0][c];
        gint half = 1 << (m->delta[c] - 1);

        if (d < -half || d >= half)
          return FALSE;
      }
    }
  }
  return TRUE;
}

/* bit p of pixel i: its region in partition p, bc7_partitions2[p][i] */
static const guint32 partition_bits[16] = {
  0x00000000u, 0x448a0004u, 0xcd9a0225u, 0xd99a126fu, 0xa2214000u,
  0x3c005224u, 0x3c88526du, 0xf19a56ffu, 0xf2657200u, 0x3c217664u,
  0x3c8176edu, 0xa1887fffu, 0xda65f660u, 0xce65feecu, 0x4425fffdu,
  0x0081ffffu,
};

/* The @n_top partitions of least estimated error: for each, the energy of
 * each region off its principal axis (two power-iteration steps, then the
 * Rayleigh quotient). The sums of the 32 partitions' second regions are
 * taken together, the partition as the innermost loop (vector lanes); the
 * first region's are the block's minus those. */
static gint
rank_partitions (const Bc6hPixels * p, gint n_top, guint * top)
{
  float d[3][16], prod[6][16], tot[9] = { 0, };
  float s1[9][32], cnt1[32], score[32];
  gint i, c, part, n = 0;

  for (c = 0; c < 3; c++) {
    float mean = 0.0f;

    for (i = 0; i < 16; i++)
      mean += p->h[c][i];
    mean *= 1.0f / 16.0f;
    for (i = 0; i < 16; i++)
      d[c][i] = p->h[c][i] - mean;
  }
  for (i = 0; i < 16; i++) {
    prod[0][i] = d[0][i] * d[0][i];
    prod[1][i] = d[0][i] * d[1][i];
    prod[2][i] = d[0][i] * d[2][i];
    prod[3][i] = d[1][i] * d[1][i];
    prod[4][i] = d[1][i] * d[2][i];
    prod[5][i] = d[2][i] * d[2][i];
  }
  for (i = 0; i < 16; i++) {
    for (c = 0; c < 3; c++)
      tot[c] += d[c][i];
    for (c = 0; c < 6; c++)
      tot[3 + c] += prod[c][i];
  }

  memset (s1, 0, sizeof (s1));
  memset (cnt1, 0, sizeof (cnt1));
  for (i = 0; i < 16; i++) {
    float m[32], v[9];

    for (c = 0; c < 3; c++)
      v[c] = d[c][i];
    for (c = 0; c < 6; c++)
      v[3 + c] = prod[c][i];
    /* (from the bit masks: the table's column is a strided gather) */
    for (part = 0; part < 32; part++)
      m[part] = (float) ((partition_bits[i] >> part) & 1u);
    for (part = 0; part < 32; part++)
      cnt1[part] += m[part];
    for (c = 0; c < 9; c++)
      for (part = 0; part < 32; part++)
        s1[c][part] += m[part] * v[c];
  }

  for (part = 0; part < 32; part++)
    score[part] = 0.0f;
  for (i = 0; i < 2; i++) {
    for (part = 0; part < 32; part++) {
      float cnt = i ? cnt1[part] : 16.0f - cnt1[part];
      float sv[9], inv = 1.0f / cnt, mu[3], cv[6], v[3], tr, lambda, vv;
      gint it;

      for (c = 0; c < 9; c++)
        sv[c] = i ? s1[c][part] : tot[c] - s1[c][part];
      for (c = 0; c < 3; c++)
        mu[c] = sv[c] * inv;
      cv[0] = sv[3] - cnt * mu[0] * mu[0];
      cv[1] = sv[4] - cnt * mu[0] * mu[1];
      cv[2] = sv[5] - cnt * mu[0] * mu[2];
      cv[3] = sv[6] - cnt * mu[1] * mu[1];
      cv[4] = sv[7] - cnt * mu[1] * mu[2];
      cv[5] = sv[8] - cnt * mu[2] * mu[2];
      tr = cv[0] + cv[3] + cv[5];
      v[0] = v[1] = v[2] = 1.0f;
      for (it = 0; it < 2; it++) {
        float x = cv[0] * v[0] + cv[1] * v[1] + cv[2] * v[2];
        float y = cv[1] * v[0] + cv[3] * v[1] + cv[4] * v[2];
        float z = cv[2] * v[0] + cv[4] * v[1] + cv[5] * v[2];
        float mx = MAX (MAX (ABS (x), ABS (y)), ABS (z));
        float r = mx > 0.0f ? 1.0f / mx : 0.0f;

        v[0] = mx > 0.0f ? x * r : v[0];
        v[1] = mx > 0.0f ? y * r : v[1];
        v[2] = mx > 0.0f ? z * r : v[2];
      }
      vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
      lambda = (v[0] * (cv[0] * v[0] + cv[1] * v[1] + cv[2] * v[2]) +
          v[1] * (cv[1] * v[0] + cv[3] * v[1] + cv[4] * v[2]) +
          v[2] * (cv[2] * v[0] + cv[4] * v[1] + cv[5] * v[2])) / vv;
      score[part] += MAX (tr - lambda, 0.0f);
    }
  }

  /* insertion of each partition into the sorted top list */
  for (part = 0; part < 32; part++) {
    gint j;

    if (n == n_top && score[part] >= score[top[n - 1]])
      continue;
    j = n < n_top ? n++ : n - 1;
    while (j > 0 && score[top[j - 1]] > score[part]) {
      top[j] = top[j - 1];
      j--;
    }
    top[j] = part;
  }
  return n;
}

/* Writes @cand as a BC6H block */
static void
pack (const Bc6hCand * cand, guint8 * out)
{
  const Bc6hMode *m = &bc6h_modes[cand->row];
  guint fields[13] = { 0, };
  BcBptcBits bits = { 0, 0, 0 };
  guint anchor = m->regions == 2 ? bc7_anchors2[cand->partition] : 0;
  guint ib = m->regions == 2 ? 3 : 4;
  guint64 w = 0;
  gint r, e, c, i;

  for (r = 0; r < m->regions; r++) {
    for (e = 0; e < 2; e++) {
      for (c = 0; c < 3; c++) {
        gint v = cand->ep[r][e][c];

        if (m->transformed && (r | e))
          v = (v - cand->ep[0][0][c]) & ((1 << m->delta[c]) - 1);
        fields[(r * 2 + e) * 3 + c] = (guint) v;
      }
    }
  }
  fields[BC6H_PB] = cand->partition;

  bc_bptc_bits_write (&bits, m->mode, m->mode_bits);
  for (i = 0; m->layout[i].field != BC6H_END; i++) {
    const Bc6hSegment *sg = &m->layout[i];
    guint f = fields[sg->field];

    if (sg->a >= sg->b) {
      bc_bptc_bits_write (&bits, f >> sg->b, sg->a - sg->b + 1);
    } else {
      guint n = sg->b - sg->a + 1, k, v = 0;

      for (k = 0; k < n; k++)
        v |= ((f >> (sg->b - k)) & 1u) << k;
      bc_bptc_bits_write (&bits, v, n);
    }
  }
  g_assert (bits.pos == (m->regions == 2 ? 82u : 65u));
  /* the indices, 46 or 63 bits, in one word: all in the high half */
  for (i = 15; i >= 0; i--) {
    guint n = (i == 0 || (guint) i == anchor) ? ib - 1 : ib;

    w = (w << n) | cand->idx[i];
  }
  bits.hi |= w << (bits.pos - 64);
  bc_bptc_bits_store (&bits, out);
}

/* one-region error below which high (and normal's rare per-block
 * fallback) does not try two regions: an RMS of 3 half-float steps
 * (0.3 %) a channel */
#define TWO_REGION_THRESHOLD (16.0f * 3.0f * 9.0f)

/* the same for normal's lanes: an RMS of about 73 half-float steps (7 %)
 * a channel. Nearly every textured block of a photograph is above 3
 * steps, and trying two regions on all of them is what made normal 20
 * times slower than fast; the mPSNR is the mean squared error, so the
 * blocks of large error are where two regions win most (on the fig HDR
 * benchmark photograph 600 gives 44.2 dB, 200 44.3 dB for 30 % more
 * time; fast is 41.8). */
#define NORMAL_TWO_REGION_THRESHOLD (600.0f * TWO_REGION_THRESHOLD)

/* the per-block code of each sign (bcencode-bc6h-block.h): the functions
 * name_u of unsigned BC6H and name_s of signed BC6H */
#define BC6H_SGN 0
#define BC6H_FN(name) name##_u
#include "bcencode-bc6h-block.h"
#undef BC6H_SGN
#undef BC6H_FN

#define BC6H_SGN 1
#define BC6H_FN(name) name##_s
#include "bcencode-bc6h-block.h"
#undef BC6H_SGN
#undef BC6H_FN

/* pack () of a one-region block (rows 10 to 13, modes 11 to 14), written
 * out for speed: after the 5 mode bits, R0, G0, B0 (bits 9..0), then per
 * channel the second endpoint (10 bits, or its 9-, 8- or 4-bit difference)
 * and for the transformed modes the first endpoint's bits 10 and up (mode
 * 12: bit 10; modes 13 and 14: bits 10..11 and 10..15 in reverse order,
 * as the KDFS lays them out); then the indices from bit 65. */
static void
pack_one_region (const Bc6hCand * cand, guint8 * out)
{
  const Bc6hMode *m = &bc6h_modes[cand->row];
  BcBptcBits bits = { 0, 0, 0 };
  const gint (*ep)[3] = cand->ep[0];
  guint64 w = 0;
  gint c, i, k;

  bc_bptc_bits_write (&bits, m->mode, 5);
  for (c = 0; c < 3; c++)
    bc_bptc_bits_write (&bits, (guint) ep[0][c], 10);
  for (c = 0; c < 3; c++) {
    guint high = (guint) ep[0][c] >> 10, rev = 0;
    gint n_high = m->epb - 10;

    if (!m->transformed) {
      bc_bptc_bits_write (&bits, (guint) ep[1][c], 10);
      continue;
    }
    bc_bptc_bits_write (&bits, (guint) (ep[1][c] - ep[0][c]), m->delta[c]);
    for (k = 0; k < n_high; k++)
      rev |= ((high >> (n_high - 1 - k)) & 1u) << k;
    bc_bptc_bits_write (&bits, n_high == 1 ? high : rev, n_high);
  }
  /* the indices: 3 bits for pixel 0, 4 for the others, 63 in all */
  for (i = 15; i > 0; i--)
    w = (w << 4) | cand->idx[i];
  w = (w << 3) | cand->idx[0];
  bits.hi |= w << 1;
  bc_bptc_bits_store (&bits, out);
}

/* ---------------------------------------------------------------------- */
/* quality=fast on BC_LANES blocks at once: the steps of fast_block () with
 * the lane (block) as the innermost loop, which the SIMD builds turn into
 * vector instructions. A lane whose anchor pixel breaks its mode's
 * differences (rare) is done again by fast_block ().                      */

#define L BC_LANES
#define LANES BC_FOR_LANES (L)

typedef struct
{
  float h[3][16][L];
  float w[3][16][L];
} Bc6hBatch;

/* one pass over a batch: the row, endpoints and indices of each lane, its
 * error, and whether the block is valid */
typedef struct
{
  gint32 row[L];
  gint32 ep[2][3][L];
  gint32 q[16][L];
  float err[L];
  gint32 ok[L];
} Bc6hLanesPass;

/* h_of_value () without branches */
static inline gint32
lanes_h_of_value (gint32 i, gint sgn)
{
  gint32 m = ABS (i), h;

  if (!sgn)
    return (i * 31) >> 6;
  h = (m * 31) >> 5;
  return i < 0 ? -h : h;
}

/* the decoded h at weight @w (of 64) between unquantized @a and @b:
 * a (64 - w) + b w as 64 a + (b - a) w, one multiply of the lanes (the
 * vector units' 32-bit multiply is slow), the same value */
static inline gint32
lanes_interp (gint32 a, gint32 b, gint32 w, gint sgn)
{
  return lanes_h_of_value ((a * 64 + (b - a) * w + 32) >> 6, sgn);
}

/* the weight (of 64) of the 4-bit index @q, (64 q + 7) / 15 exactly,
 * without a division (vector units have no integer division: the
 * compilers' multiply by a reciprocal takes six instructions) */
static inline gint32
lanes_weight4 (gint32 q)
{
  return 4 * q + ((q + 2) >> 2);
}

/* the same for the 3-bit index @q: (64 q + 3) / 7 */
static inline gint32
lanes_weight3 (gint32 q)
{
  return 9 * q + (q >> 2);
}

/* the decoded h of the 4-bit index @q between unquantized @a and @b */
static inline gint32
lanes_decode (gint32 a, gint32 b, gint32 q, gint sgn)
{
  return lanes_interp (a, b, lanes_weight4 (q), sgn);
}

static inline gint32
lanes_unquantize (gint32 x, gint32 epb, gint sgn)
{
  gint32 m = sgn ? ABS (x) : x;
  /* (unsigned: with 16 bits, where x is the value, this would overflow) */
  gint32 r = (gint32) ((((guint32) m << 15) + 0x4000u) >> (epb - 1));

  r = m == 0 ? 0 : r;
  if (sgn) {
    r = m >= (1 << (epb - 1)) - 1 ? 0x7fff : r;
    r = x < 0 ? -r : r;
  } else {
    r = m == (1 << epb) - 1 ? 0xffff : r;
  }
  return epb >= 16 ? x : r;
}

/* the 16-bit value U of endpoint @h (quantize ()); signed: of its
 * magnitude, 15 bits, with h's sign */
static inline gint32
lanes_u16 (float h, gint sgn)
{
  float u;
  gint32 ui;

  if (!sgn) {
    u = (h + 0.5f) * (64.0f / 31.0f);
    u = u < 0.0f ? 0.0f : (u > 65535.0f ? 65535.0f : u);
    return (gint32) (u + 0.5f);
  }
  u = (ABS (h) + 0.5f) * (32.0f / 31.0f);
  u = u > 32767.0f ? 32767.0f : u;
  ui = (gint32) (u + 0.5f);
  return h < 0.0f ? -ui : ui;
}

/* quantize () of the 16-bit value @u, without branches: the interior
 * codes x unquantize to the middles (x + 1/2) 2^(16 - epb) of their
 * ranges, so the nearest is u's range, but for 0 (0), 1 and the last two
 * (the last 0xffff; signed: of the magnitude, the last 0x7fff), where the
 * neighbour can be nearer */
static inline gint32
lanes_quantize_u (gint32 u, gint32 epb, gint sgn)
{
  gint32 ui = sgn ? ABS (u) : u, top = 0xffff >> sgn;
  gint32 s = 16 - epb, max = (1 << (epb - sgn)) - 1, step = 1 << s;
  gint32 x = ui >> s;
  gint32 u1 = step + (step >> 1), um = (max - 1) * step + (step >> 1);
  /* (& and |: && made the compilers branch on each lane) */
  gint32 up = ((x == 0) & (ABS (u1 - ui) < ui)) |
      ((x == max - 1) & (top - ui < ABS (um - ui)));
  gint32 down = (x == max) & (ABS (um - ui) < top - ui);

  x = epb >= 16 ? ui : x + up - down;
  return sgn && u < 0 ? -x : x;
}

/* the principal axis of each lane's covariance @cov (xx, xy, xz, yy, yz,
 * zz), unit length (0 for a flat block): the largest diagonal's row, then
 * three power iterations */
static inline void
lanes_axis (float cov[6][L], float axis[3][L])
{
  gint it, k;

  LANES {
    gboolean r0 = cov[0][k] >= cov[3][k] && cov[0][k] >= cov[5][k];
    gboolean r1 = !r0 && cov[3][k] >= cov[5][k];

    axis[0][k] = r0 ? cov[0][k] : (r1 ? cov[1][k] : cov[2][k]);
    axis[1][k] = r0 ? cov[1][k] : (r1 ? cov[3][k] : cov[4][k]);
    axis[2][k] = r0 ? cov[2][k] : (r1 ? cov[4][k] : cov[5][k]);
  }
  for (it = 0; it < 3; it++) {
    LANES {
      float x = cov[0][k] * axis[0][k] + cov[1][k] * axis[1][k] +
          cov[2][k] * axis[2][k];
      float y = cov[1][k] * axis[0][k] + cov[3][k] * axis[1][k] +
          cov[4][k] * axis[2][k];
      float z = cov[2][k] * axis[0][k] + cov[4][k] * axis[1][k] +
          cov[5][k] * axis[2][k];
      float mx = MAX (MAX (ABS (x), ABS (y)), ABS (z));
      float inv = mx > 0.0f ? 1.0f / mx : 0.0f;

      axis[0][k] = mx > 0.0f ? x * inv : axis[0][k];
      axis[1][k] = mx > 0.0f ? y * inv : axis[1][k];
      axis[2][k] = mx > 0.0f ? z * inv : axis[2][k];
    }
  }
  LANES {
    float len = axis[0][k] * axis[0][k] + axis[1][k] * axis[1][k] +
        axis[2][k] * axis[2][k];
    float inv = len > 1e-12f ? 1.0f / __builtin_sqrtf (len) : 0.0f;

    axis[0][k] *= inv;
    axis[1][k] *= inv;
    axis[2][k] *= inv;
  }
}

/* the principal-axis endpoints of every lane (fit_region () of one
 * region) */
static void
lanes_fit (const Bc6hBatch * b, float ef[2][3][L], gint sgn)
{
  const float hmin = h_min (sgn);
  float mean[3][L], cov[6][L], axis[3][L], tmin[L], tmax[L];
  gint i, c, k;

  for (c = 0; c < 3; c++) {
    LANES mean[c][k] = 0.0f;
    for (i = 0; i < 16; i++)
      LANES mean[c][k] += b->h[c][i][k];
    LANES mean[c][k] *= 1.0f / 16.0f;
  }
  for (c = 0; c < 6; c++)
    LANES cov[c][k] = 0.0f;
  for (i = 0; i < 16; i++) {
    LANES {
      float d0 = b->h[0][i][k] - mean[0][k];
      float d1 = b->h[1][i][k] - mean[1][k];
      float d2 = b->h[2][i][k] - mean[2][k];

      cov[0][k] += d0 * d0;
      cov[1][k] += d0 * d1;
      cov[2][k] += d0 * d2;
      cov[3][k] += d1 * d1;
      cov[4][k] += d1 * d2;
      cov[5][k] += d2 * d2;
    }
  }
  lanes_axis (cov, axis);
  LANES tmin[k] = tmax[k] = 0.0f;
  for (i = 0; i < 16; i++) {
    LANES {
      float t = (b->h[0][i][k] - mean[0][k]) * axis[0][k] +
          (b->h[1][i][k] - mean[1][k]) * axis[1][k] +
          (b->h[2][i][k] - mean[2][k]) * axis[2][k];

      tmin[k] = MIN (tmin[k], t);
      tmax[k] = MAX (tmax[k], t);
    }
  }
  for (c = 0; c < 3; c++) {
    LANES {
      float lo = mean[c][k] + tmin[k] * axis[c][k];
      float hi = mean[c][k] + tmax[k] * axis[c][k];

      ef[0][c][k] = lo < hmin ? hmin : (lo > H_MAX ? H_MAX : lo);
      ef[1][c][k] = hi < hmin ? hmin : (hi > H_MAX ? H_MAX : hi);
    }
  }
}

/* fast_pass () of every lane */
static void
lanes_pass (const Bc6hBatch * b, float ef[2][3][L], Bc6hLanesPass * r, gint sgn)
{
  gint32 unq[2][3][L], u[2][3][L], done[L], half[L];
  float t0[L], len[L], p0[3][L], d[3][L], inv[L], spread[L];
  gint i, c, e, j, k;

  /* orientation: pixel 0 nearer the first endpoint */
  LANES t0[k] = len[k] = 0.0f;
  for (c = 0; c < 3; c++) {
    LANES {
      float dc = ef[1][c][k] - ef[0][c][k];

      t0[k] += (b->h[c][0][k] - ef[0][c][k]) * dc;
      len[k] += dc * dc;
    }
  }
  for (c = 0; c < 3; c++) {
    LANES {
      gboolean swap = 2.0f * t0[k] > len[k];
      float lo = ef[0][c][k], hi = ef[1][c][k];

      ef[0][c][k] = swap ? hi : lo;
      ef[1][c][k] = swap ? lo : hi;
    }
  }

  /* the most precise row whose differences fit */
  LANES {
    done[k] = 0;
    r->row[k] = 10;
    half[k] = 1 << 30;
    spread[k] = 0.0f;
  }
  for (c = 0; c < 3; c++)
    LANES spread[k] = MAX (spread[k], ABS (ef[1][c][k] - ef[0][c][k]));
  for (e = 0; e < 2; e++)
    for (c = 0; c < 3; c++)
      LANES u[e][c][k] = lanes_u16 (ef[e][c][k], sgn);
  for (j = 0; j < 4; j++) {
    const gint32 row = one_region_rows[j];
    const Bc6hMode *m = &bc6h_modes[row];
    const gint32 epb = m->epb, dh = m->transformed ?
        1 << (m->delta[0] - 1) : 1 << 30;
    const float unit = (float) (1 << (16 - epb)) * (sgn ? 31.0f / 32.0f :
        31.0f / 64.0f);
    gint32 x[2][3][L], fit[L], left = 0, maybe = 0;

    /* no lane's difference can fit this row (two codes of slack for the
     * rounding, the uneven first and last codes): not quantized */
    LANES maybe += !done[k] && spread[k] <= (float) (dh + 2) * unit;
    if (!maybe)
      continue;
    for (e = 0; e < 2; e++)
      for (c = 0; c < 3; c++)
        LANES x[e][c][k] = lanes_quantize_u (u[e][c][k], epb, sgn);
    LANES fit[k] = !done[k];
    for (c = 0; c < 3; c++) {
      LANES {
        gint32 dd = x[1][c][k] - x[0][c][k];

        fit[k] = fit[k] && dd >= -dh && dd < dh;
      }
    }
    for (e = 0; e < 2; e++) {
      for (c = 0; c < 3; c++) {
        LANES {
          r->ep[e][c][k] = fit[k] ? x[e][c][k] : r->ep[e][c][k];
          unq[e][c][k] = fit[k] ? lanes_unquantize (x[e][c][k], epb, sgn) :
              unq[e][c][k];
        }
      }
    }
    LANES {
      r->row[k] = fit[k] ? row : r->row[k];
      half[k] = fit[k] ? dh : half[k];
      done[k] = done[k] || fit[k];
    }
    /* every lane has its row: skip the less precise ones */
    LANES left += !done[k];
    if (!left)
      break;
  }

  /* indices by projection, and their exact error */
  LANES len[k] = 0.0f;
  for (c = 0; c < 3; c++) {
    LANES {
      p0[c][k] = (float) lanes_h_of_value (unq[0][c][k], sgn);
      d[c][k] = (float) lanes_h_of_value (unq[1][c][k], sgn) - p0[c][k];
      len[k] += d[c][k] * d[c][k];
    }
  }
  LANES {
    inv[k] = len[k] > 0.0f ? 15.0f / len[k] : 0.0f;
    r->err[k] = 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      float t = ((b->h[0][i][k] - p0[0][k]) * d[0][k] +
          (b->h[1][i][k] - p0[1][k]) * d[1][k] +
          (b->h[2][i][k] - p0[2][k]) * d[2][k]) * inv[k] + 0.5f;
      gint32 q;
      float e0, e1, e2;

      t = t < 0.0f ? 0.0f : (t > 15.0f ? 15.0f : t);
      q = (gint32) t;
      r->q[i][k] = q;
      e0 = (float) lanes_decode (unq[0][0][k], unq[1][0][k], q, sgn) -
          b->h[0][i][k];
      e1 = (float) lanes_decode (unq[0][1][k], unq[1][1][k], q, sgn) -
          b->h[1][i][k];
      e2 = (float) lanes_decode (unq[0][2][k], unq[1][2][k], q, sgn) -
          b->h[2][i][k];
      r->err[k] += b->w[0][i][k] * e0 * e0 + b->w[1][i][k] * e1 * e1 +
          b->w[2][i][k] * e2 * e2;
    }
  }

  /* the anchor: index 0 below 8, else the endpoints swapped, and the
   * differences checked again */
  LANES r->ok[k] = 1;
  for (c = 0; c < 3; c++) {
    LANES {
      gboolean flip = r->q[0][k] >= 8;
      gint32 lo = r->ep[0][c][k], hi = r->ep[1][c][k];

      r->ep[0][c][k] = flip ? hi : lo;
      r->ep[1][c][k] = flip ? lo : hi;
      r->ok[k] = r->ok[k] && (!flip || (lo - hi >= -half[k] &&
              lo - hi < half[k]));
    }
  }
  for (i = 15; i >= 0; i--)
    LANES r->q[i][k] = r->q[0][k] >= 8 ? 15 - r->q[i][k] : r->q[i][k];
}

/* the least-squares endpoints of every lane for the indices of @r into
 * @ef; @ok false (and @ef left) where they are undetermined */
static void
lanes_refit (const Bc6hBatch * b, const Bc6hLanesPass * r, float ef[2][3][L],
    gint32 * ok, gint sgn)
{
  const float hmin = h_min (sgn);
  float aa[3][L], ab[3][L], bb[3][L], pa[3][L], pb[3][L], nf[2][3][L];
  gint i, c, e, k;

  for (c = 0; c < 3; c++)
    LANES aa[c][k] = ab[c][k] = bb[c][k] = pa[c][k] = pb[c][k] = 0.0f;
  for (i = 0; i < 16; i++) {
    for (c = 0; c < 3; c++) {
      LANES {
        float w = (float) lanes_weight4 (r->q[i][k]) * (1.0f / 64.0f);
        float a = 1.0f - w, pw = b->w[c][i][k];

        aa[c][k] += pw * a * a;
        ab[c][k] += pw * a * w;
        bb[c][k] += pw * w * w;
        pa[c][k] += pw * a * b->h[c][i][k];
        pb[c][k] += pw * w * b->h[c][i][k];
      }
    }
  }
  LANES ok[k] = 1;
  for (c = 0; c < 3; c++) {
    LANES {
      float det = aa[c][k] * bb[c][k] - ab[c][k] * ab[c][k];
      float s = aa[c][k] + bb[c][k];
      gboolean good = det > 1e-6f * s * s;
      float inv = good ? 1.0f / det : 0.0f;
      float lo = (bb[c][k] * pa[c][k] - ab[c][k] * pb[c][k]) * inv;
      float hi = (aa[c][k] * pb[c][k] - ab[c][k] * pa[c][k]) * inv;

      ok[k] = ok[k] && good;
      nf[0][c][k] = lo < hmin ? hmin : (lo > H_MAX ? H_MAX : lo);
      nf[1][c][k] = hi < hmin ? hmin : (hi > H_MAX ? H_MAX : hi);
    }
  }
  for (e = 0; e < 2; e++)
    for (c = 0; c < 3; c++)
      LANES ef[e][c][k] = ok[k] ? nf[e][c][k] : ef[e][c][k];
}

/* indices of every lane by projection onto the unquantized endpoints
 * @ef (for lanes_refit ()) */
static void
lanes_proj (const Bc6hBatch * b, const float ef[2][3][L], Bc6hLanesPass * r)
{
  float d[3][L], inv[L];
  gint i, c, k;

  LANES inv[k] = 0.0f;
  for (c = 0; c < 3; c++) {
    LANES {
      d[c][k] = ef[1][c][k] - ef[0][c][k];
      inv[k] += d[c][k] * d[c][k];
    }
  }
  LANES inv[k] = inv[k] > 0.0f ? 15.0f / inv[k] : 0.0f;
  for (i = 0; i < 16; i++) {
    LANES {
      float t = ((b->h[0][i][k] - ef[0][0][k]) * d[0][k] +
          (b->h[1][i][k] - ef[0][1][k]) * d[1][k] +
          (b->h[2][i][k] - ef[0][2][k]) * d[2][k]) * inv[k] + 0.5f;

      t = t < 0.0f ? 0.0f : (t > 15.0f ? 15.0f : t);
      r->q[i][k] = (gint32) t;
    }
  }
}

/* pack_one_region () of every lane of @r into the two little-endian
 * words of its block, @lo and @hi: in rows 10 to 13 each channel's second
 * endpoint takes 10 bits (10 bits of it; 9, 8 or 4 of the difference and
 * the first endpoint's 1, 2 or 6 high bits reversed) */
static void
lanes_pack_one (const Bc6hLanesPass * r, guint64 * lo, guint64 * hi)
{
  gint i, c, k;

  /* the mode: 3, 7, 11 or 15 */
  LANES {
    lo[k] = (guint64) (4 * (r->row[k] - 10) + 3);
    hi[k] = 0;
  }
  for (c = 0; c < 3; c++) {
    LANES {
      gint32 row = r->row[k], a = r->ep[0][c][k], b = r->ep[1][c][k];
      guint32 high = (guint32) a >> 10, d = (guint32) (b - a), f;
      guint32 rev2 = ((high & 1u) << 1) | ((high >> 1) & 1u);
      guint32 rev6 = ((high & 1u) << 5) | ((high & 2u) << 3) |
          ((high & 4u) << 1) | ((high >> 1) & 4u) | ((high >> 3) & 2u) |
          ((high >> 5) & 1u);

      f = row == 10 ? (guint32) b & 0x3ffu : (row == 11 ?
          (d & 0x1ffu) | ((high & 1u) << 9) : (row == 12 ?
              (d & 0xffu) | (rev2 << 8) : (d & 0xfu) | (rev6 << 4)));
      lo[k] |= ((guint64) ((guint32) a & 0x3ffu) << (5 + 10 * c)) |
          ((guint64) f << (35 + 10 * c));
      hi[k] |= c == 2 ? (guint64) (f >> 9) : 0;
    }
  }
  /* the indices: 3 bits for pixel 0, 4 for the others, from bit 65 */
  LANES hi[k] |= (guint64) r->q[0][k] << 1;
  for (i = 1; i < 16; i++)
    LANES hi[k] |= (guint64) r->q[i][k] << (4 * i);
}

/* writes the words @lo and @hi of a block to @out */
static inline void
store_block (guint64 lo, guint64 hi, guint8 * out)
{
  lo = GUINT64_TO_LE (lo);
  hi = GUINT64_TO_LE (hi);
  memcpy (out, &lo, 8);
  memcpy (out + 8, &hi, 8);
}

/* quality=fast of @n_blocks (at most BC_LANES) blocks of @b */
static void
lanes_fast (const Bc6hBatch * b, guint n_blocks, gint sgn, guint8 * out)
{
  Bc6hLanesPass r1;
  float ef[2][3][L];
  gint32 refit_ok[L];
  guint64 lo[L], hi[L];
  guint k, i, c;

  /* the principal axis, indices for its endpoints unquantized, a refit
   * to those, then the row and the indices (before, a first pass
   * quantized the principal axis's endpoints, a candidate too: on the
   * benchmark photographs 0.01 dB for a third of the time) */
  lanes_fit (b, ef, sgn);
  lanes_proj (b, ef, &r1);
  lanes_refit (b, &r1, ef, refit_ok, sgn);
  lanes_pass (b, ef, &r1, sgn);
  lanes_pack_one (&r1, lo, hi);

  for (k = 0; k < n_blocks; k++) {
    Bc6hCand cand;
    Bc6hPixels p;

    if (r1.ok[k]) {
      store_block (lo[k], hi[k], out + 16 * k);
      continue;
    }
    p.wsum = 0.0f;
    for (c = 0; c < 3; c++)
      for (i = 0; i < 16; i++) {
        p.h[c][i] = b->h[c][i][k];
        p.w[c][i] = b->w[c][i][k];
        p.wsum += p.w[c][i];
      }
    if (sgn)
      fast_block_s (&p, &cand);
    else
      fast_block_u (&p, &cand);
    pack_one_region (&cand, out + 16 * k);
  }
}

/* ---------------------------------------------------------------------- */
/* normal's two regions on BC_LANES blocks at once: the blocks whose one
 * region is not good enough are listed (Bc6hPending), then loaded into
 * the lanes again, the partition ranked best for each, fitted, indexed,
 * refitted, quantized and indexed again much as lanes_fit (),
 * lanes_pass () and lanes_refit () do for one region, the region of a
 * pixel a mask per lane (m1, 1 for region 1). Per block this search costs
 * more than the rest of normal.                                          */

/* normal encodes this many blocks (at most) of a call, the one region of
 * all, then the two regions of those listed */
#define NORMAL_GROUP 256

/* the blocks of a group waiting for the two-region lanes: the block (of
 * the group), and the error of its one region, written already */
typedef struct
{
  guint16 block[NORMAL_GROUP];
  float one_err[NORMAL_GROUP];
  guint n;
} Bc6hPending;

/* one two-region pass over a batch */
typedef struct
{
  gint32 row[L];
  gint32 ep[2][2][3][L];        /* [region][endpoint][channel] */
  gint32 q[16][L];
  float err[L];
  gint32 ok[L];
} Bc6hLanesPass2;

/* the decoded h of the 3-bit index @q between unquantized @a and @b */
static inline gint32
lanes_decode3 (gint32 a, gint32 b, gint32 q, gint sgn)
{
  return lanes_interp (a, b, lanes_weight3 (q), sgn);
}

/* The 3-bit index of a pixel at projection @t (index units, + 0.5) onto a
 * segment: of the projection's index and its two neighbours (the
 * palette's weights are not evenly spaced, and the channels weigh
 * differently) the one whose point of the segment has the least error,
 * w (cc w - bb2) at weight w */
static inline gint32
lanes_index3 (float t, float bb2, float cc)
{
  float best = 0.0f;
  gint32 q0, q, bq = 0;

  t = t < 0.0f ? 0.0f : (t > 7.0f ? 7.0f : t);
  q0 = (gint32) t;
  q0 = q0 < 1 ? 1 : (q0 > 6 ? 6 : q0);
  for (q = q0 - 1; q <= q0 + 1; q++) {
    float sw = (float) lanes_weight3 (q) * (1.0f / 64.0f);
    float e = sw * (cc * sw - bb2);

    bq = q == q0 - 1 || e < best ? q : bq;
    best = q == q0 - 1 || e < best ? e : best;
  }
  return bq;
}

/* the principal-axis endpoints of both regions of every lane
 * (fit_region ()) */
static void
lanes_fit2 (const Bc6hBatch * b, const float m1[16][L], float ef[2][2][3][L],
    gint sgn)
{
  const float hmin = h_min (sgn);
  gint r, i, c, k;

  for (r = 0; r < 2; r++) {
    float m[16][L], n[L], mean[3][L], cov[6][L], axis[3][L], tmin[L], tmax[L];

    LANES n[k] = 0.0f;
    for (i = 0; i < 16; i++) {
      LANES {
        m[i][k] = r ? m1[i][k] : 1.0f - m1[i][k];
        n[k] += m[i][k];
      }
    }
    for (c = 0; c < 3; c++) {
      LANES mean[c][k] = 0.0f;
      for (i = 0; i < 16; i++)
        LANES mean[c][k] += m[i][k] * b->h[c][i][k];
      /* (every region of a partition has a pixel) */
      LANES mean[c][k] /= n[k];
    }
    for (c = 0; c < 6; c++)
      LANES cov[c][k] = 0.0f;
    for (i = 0; i < 16; i++) {
      LANES {
        float d0 = b->h[0][i][k] - mean[0][k];
        float d1 = b->h[1][i][k] - mean[1][k];
        float d2 = b->h[2][i][k] - mean[2][k];

        cov[0][k] += m[i][k] * d0 * d0;
        cov[1][k] += m[i][k] * d0 * d1;
        cov[2][k] += m[i][k] * d0 * d2;
        cov[3][k] += m[i][k] * d1 * d1;
        cov[4][k] += m[i][k] * d1 * d2;
        cov[5][k] += m[i][k] * d2 * d2;
      }
    }
    lanes_axis (cov, axis);
    LANES tmin[k] = tmax[k] = 0.0f;
    for (i = 0; i < 16; i++) {
      LANES {
        float t = m[i][k] * ((b->h[0][i][k] - mean[0][k]) * axis[0][k] +
            (b->h[1][i][k] - mean[1][k]) * axis[1][k] +
            (b->h[2][i][k] - mean[2][k]) * axis[2][k]);

        tmin[k] = MIN (tmin[k], t);
        tmax[k] = MAX (tmax[k], t);
      }
    }
    for (c = 0; c < 3; c++) {
      LANES {
        float lo = mean[c][k] + tmin[k] * axis[c][k];
        float hi = mean[c][k] + tmax[k] * axis[c][k];

        ef[r][0][c][k] = lo < hmin ? hmin : (lo > H_MAX ? H_MAX : lo);
        ef[r][1][c][k] = hi < hmin ? hmin : (hi > H_MAX ? H_MAX : hi);
      }
    }
  }
}

/* try_mode () of every lane in the most precise two-region row that fits
 * (try_rows ()), indices by projection alone */
static void
lanes_pass2 (const Bc6hBatch * b, const float m1[16][L], const gint32 * anc,
    float ef[2][2][3][L], Bc6hLanesPass2 * r, gint sgn)
{
  gint32 unq[2][2][3][L], u[2][2][3][L], done[L], half[3][L], flip[2][L];
  float ha[3][L], t0[L], len[L], p0[2][3][L], d[2][3][L], inv[2][L],
      spread[3][L];
  gint i, c, e, j, k, rr;

  /* orientation: pixel 0 nearer the first endpoint of region 0, the
   * anchor pixel of region 1 nearer that of region 1 */
  for (c = 0; c < 3; c++) {
    LANES ha[c][k] = 0.0f;
    for (i = 0; i < 16; i++)
      LANES ha[c][k] = i == anc[k] ? b->h[c][i][k] : ha[c][k];
  }
  for (rr = 0; rr < 2; rr++) {
    LANES t0[k] = len[k] = 0.0f;
    for (c = 0; c < 3; c++) {
      LANES {
        float dc = ef[rr][1][c][k] - ef[rr][0][c][k];
        float px = rr ? ha[c][k] : b->h[c][0][k];

        t0[k] += (px - ef[rr][0][c][k]) * dc;
        len[k] += dc * dc;
      }
    }
    for (c = 0; c < 3; c++) {
      LANES {
        gboolean swap = 2.0f * t0[k] > len[k];
        float lo = ef[rr][0][c][k], hi = ef[rr][1][c][k];

        ef[rr][0][c][k] = swap ? hi : lo;
        ef[rr][1][c][k] = swap ? lo : hi;
      }
    }
  }

  /* the most precise row whose differences fit; the last, mode 10, has
   * none */
  for (rr = 0; rr < 2; rr++)
    for (e = 0; e < 2; e++)
      for (c = 0; c < 3; c++)
        LANES u[rr][e][c][k] = lanes_u16 (ef[rr][e][c][k], sgn);
  LANES done[k] = 0;
  for (c = 0; c < 3; c++) {
    LANES {
      float d1 = ABS (ef[0][1][c][k] - ef[0][0][c][k]);
      float d2 = ABS (ef[1][0][c][k] - ef[0][0][c][k]);
      float d3 = ABS (ef[1][1][c][k] - ef[0][0][c][k]);

      spread[c][k] = MAX (MAX (d1, d2), d3);
    }
  }
  for (j = 0; j < (gint) G_N_ELEMENTS (two_region_rows); j++) {
    const gint32 row = two_region_rows[j];
    const Bc6hMode *m = &bc6h_modes[row];
    const gint32 epb = m->epb;
    const float unit = (float) (1 << (16 - epb)) * (sgn ? 31.0f / 32.0f :
        31.0f / 64.0f);
    gint32 x[2][2][3][L], fit[L], dh[3], left = 0, maybe = 0;

    for (c = 0; c < 3; c++)
      dh[c] = m->transformed ? 1 << (m->delta[c] - 1) : 1 << 30;
    /* no lane's differences can fit this row: not quantized. Two codes of
     * slack, as lanes_pass (): each endpoint's code is its value's range
     * (towards 0 for a signed magnitude: a difference across 0 loses up
     * to a code on either side), and the first and last codes are
     * uneven; with one, signed blocks whose endpoints straddle 0 skipped
     * rows that fit them when no other lane of their batch could, so a
     * block's row depended on its neighbours (the GL encoder, a block an
     * invocation, takes the first row that fits) */
    LANES maybe += !done[k] & (spread[0][k] <= (dh[0] + 2) * unit) &
        (spread[1][k] <= (dh[1] + 2) * unit) &
        (spread[2][k] <= (dh[2] + 2) * unit);
    if (!maybe)
      continue;
    for (rr = 0; rr < 2; rr++)
      for (e = 0; e < 2; e++)
        for (c = 0; c < 3; c++)
          LANES x[rr][e][c][k] = lanes_quantize_u (u[rr][e][c][k], epb,
        sgn);
    LANES fit[k] = !done[k];
    for (c = 0; c < 3; c++) {
      LANES {
        gint32 d1 = x[0][1][c][k] - x[0][0][c][k];
        gint32 d2 = x[1][0][c][k] - x[0][0][c][k];
        gint32 d3 = x[1][1][c][k] - x[0][0][c][k];

        /* (& of the comparisons: && made the compilers branch on each
         * lane) */
        fit[k] = fit[k] & (d1 >= -dh[c]) & (d1 < dh[c]) & (d2 >= -dh[c]) &
            (d2 < dh[c]) & (d3 >= -dh[c]) & (d3 < dh[c]);
      }
    }
    for (rr = 0; rr < 2; rr++) {
      for (e = 0; e < 2; e++) {
        for (c = 0; c < 3; c++) {
          LANES {
            r->ep[rr][e][c][k] = fit[k] ? x[rr][e][c][k] : r->ep[rr][e][c][k];
            unq[rr][e][c][k] = fit[k] ? lanes_unquantize (x[rr][e][c][k],
                epb, sgn) : unq[rr][e][c][k];
          }
        }
      }
    }
    for (c = 0; c < 3; c++)
      LANES half[c][k] = fit[k] ? dh[c] : half[c][k];
    LANES {
      r->row[k] = fit[k] ? row : r->row[k];
      done[k] = done[k] | fit[k];
    }
    /* every lane has its row: skip the less precise ones */
    LANES left += !done[k];
    if (!left)
      break;
  }

  /* indices by projection onto the region's segment, their exact error */
  for (rr = 0; rr < 2; rr++) {
    LANES len[k] = 0.0f;
    for (c = 0; c < 3; c++) {
      LANES {
        p0[rr][c][k] = (float) lanes_h_of_value (unq[rr][0][c][k], sgn);
        d[rr][c][k] = (float) lanes_h_of_value (unq[rr][1][c][k], sgn) -
            p0[rr][c][k];
        len[k] += d[rr][c][k] * d[rr][c][k];
      }
    }
    LANES inv[rr][k] = len[k] > 0.0f ? 7.0f / len[k] : 0.0f;
  }
  LANES r->err[k] = 0.0f;
  for (i = 0; i < 16; i++) {
    LANES {
      /* (selects, not an index by region: that would not vectorize) */
      gboolean one = m1[i][k] > 0.5f;
      float a0 = one ? p0[1][0][k] : p0[0][0][k];
      float a1 = one ? p0[1][1][k] : p0[0][1][k];
      float a2 = one ? p0[1][2][k] : p0[0][2][k];
      float d0 = one ? d[1][0][k] : d[0][0][k];
      float d1 = one ? d[1][1][k] : d[0][1][k];
      float d2 = one ? d[1][2][k] : d[0][2][k];
      float r0 = b->h[0][i][k] - a0, r1 = b->h[1][i][k] - a1;
      float r2 = b->h[2][i][k] - a2;
      float w0 = b->w[0][i][k], w1 = b->w[1][i][k], w2 = b->w[2][i][k];
      float t = (r0 * d0 + r1 * d1 + r2 * d2) * (one ? inv[1][k] : inv[0][k]) +
          0.5f;
      /* the weighted error at weight s of the segment, less its part
       * that does not depend on s: s (cc s - 2 bb) */
      float bb2 = 2.0f * (w0 * r0 * d0 + w1 * r1 * d1 + w2 * r2 * d2);
      float cc = w0 * d0 * d0 + w1 * d1 * d1 + w2 * d2 * d2;
      gint32 u00 = one ? unq[1][0][0][k] : unq[0][0][0][k];
      gint32 u01 = one ? unq[1][0][1][k] : unq[0][0][1][k];
      gint32 u02 = one ? unq[1][0][2][k] : unq[0][0][2][k];
      gint32 u10 = one ? unq[1][1][0][k] : unq[0][1][0][k];
      gint32 u11 = one ? unq[1][1][1][k] : unq[0][1][1][k];
      gint32 u12 = one ? unq[1][1][2][k] : unq[0][1][2][k];
      float e0, e1, e2;
      gint32 bq;

      /* the index by the error of the segment's point (lanes_index3 ());
       * the exact decoded error of the one kept */
      bq = lanes_index3 (t, bb2, cc);
      e0 = (float) lanes_decode3 (u00, u10, bq, sgn) - b->h[0][i][k];
      e1 = (float) lanes_decode3 (u01, u11, bq, sgn) - b->h[1][i][k];
      e2 = (float) lanes_decode3 (u02, u12, bq, sgn) - b->h[2][i][k];
      r->q[i][k] = bq;
      r->err[k] += w0 * e0 * e0 + w1 * e1 * e1 + w2 * e2 * e2;
    }
  }

  /* the anchors: the indices of pixel 0 and of region 1's anchor pixel
   * below 4, else their region's endpoints swapped; then the differences
   * checked again (region 0's first endpoint is the base) */
  LANES {
    flip[0][k] = r->q[0][k] >= 4;
    flip[1][k] = 0;
  }
  for (i = 0; i < 16; i++)
    LANES flip[1][k] = i == anc[k] ? r->q[i][k] >= 4 : flip[1][k];
  for (rr = 0; rr < 2; rr++) {
    for (c = 0; c < 3; c++) {
      LANES {
        gint32 lo = r->ep[rr][0][c][k], hi = r->ep[rr][1][c][k];

        r->ep[rr][0][c][k] = flip[rr][k] ? hi : lo;
        r->ep[rr][1][c][k] = flip[rr][k] ? lo : hi;
      }
    }
  }
  for (i = 0; i < 16; i++) {
    LANES {
      gboolean f = m1[i][k] > 0.5f ? flip[1][k] : flip[0][k];

      r->q[i][k] = f ? 7 - r->q[i][k] : r->q[i][k];
    }
  }
  LANES r->ok[k] = 1;
  for (c = 0; c < 3; c++) {
    LANES {
      gint32 d1 = r->ep[0][1][c][k] - r->ep[0][0][c][k];
      gint32 d2 = r->ep[1][0][c][k] - r->ep[0][0][c][k];
      gint32 d3 = r->ep[1][1][c][k] - r->ep[0][0][c][k];
      gint32 h = half[c][k];

      r->ok[k] = r->ok[k] & (d1 >= -h) & (d1 < h) & (d2 >= -h) & (d2 < h) &
          (d3 >= -h) & (d3 < h);
    }
  }
}

/* indices of every lane for the unquantized endpoints @ef of each pixel's
 * region, as lanes_pass2 () picks them (for lanes_refit2 ()) */
static void
lanes_proj2 (const Bc6hBatch * b, const float m1[16][L],
    const float ef[2][2][3][L], Bc6hLanesPass2 * r)
{
  float d[2][3][L], inv[2][L];
  gint rr, i, c, k;

  for (rr = 0; rr < 2; rr++) {
    float len[L];

    LANES len[k] = 0.0f;
    for (c = 0; c < 3; c++) {
      LANES {
        d[rr][c][k] = ef[rr][1][c][k] - ef[rr][0][c][k];
        len[k] += d[rr][c][k] * d[rr][c][k];
      }
    }
    LANES inv[rr][k] = len[k] > 0.0f ? 7.0f / len[k] : 0.0f;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      gboolean one = m1[i][k] > 0.5f;
      float d0 = one ? d[1][0][k] : d[0][0][k];
      float d1 = one ? d[1][1][k] : d[0][1][k];
      float d2 = one ? d[1][2][k] : d[0][2][k];
      float r0 = b->h[0][i][k] - (one ? ef[1][0][0][k] : ef[0][0][0][k]);
      float r1 = b->h[1][i][k] - (one ? ef[1][0][1][k] : ef[0][0][1][k]);
      float r2 = b->h[2][i][k] - (one ? ef[1][0][2][k] : ef[0][0][2][k]);
      float w0 = b->w[0][i][k], w1 = b->w[1][i][k], w2 = b->w[2][i][k];
      float t = (r0 * d0 + r1 * d1 + r2 * d2) * (one ? inv[1][k] : inv[0][k]) +
          0.5f;
      float bb2 = 2.0f * (w0 * r0 * d0 + w1 * r1 * d1 + w2 * r2 * d2);
      float cc = w0 * d0 * d0 + w1 * d1 * d1 + w2 * d2 * d2;

      r->q[i][k] = lanes_index3 (t, bb2, cc);
    }
  }
}

/* the least-squares endpoints of both regions of every lane for the
 * indices of @r (refit_region ()) into @ef, where they are determined */
static void
lanes_refit2 (const Bc6hBatch * b, const float m1[16][L],
    const Bc6hLanesPass2 * r, float ef[2][2][3][L], gint sgn)
{
  const float hmin = h_min (sgn);
  float nf[2][2][3][L];
  gint32 ok[L];
  gint rr, i, c, e, k;

  float aa[2][3][L], ab[2][3][L], bb[2][3][L], pa[2][3][L], pb[2][3][L];

  /* (both regions in one pass over the pixels, each pixel's weight in
   * the other region 0) */
  for (rr = 0; rr < 2; rr++)
    for (c = 0; c < 3; c++)
      LANES aa[rr][c][k] = ab[rr][c][k] = bb[rr][c][k] = pa[rr][c][k] =
          pb[rr][c][k] = 0.0f;
  for (i = 0; i < 16; i++) {
    for (c = 0; c < 3; c++) {
      LANES {
        float w = (float) lanes_weight3 (r->q[i][k]) * (1.0f / 64.0f);
        float a = 1.0f - w, h = b->h[c][i][k];
        float pw0 = b->w[c][i][k] * (1.0f - m1[i][k]);
        float pw1 = b->w[c][i][k] * m1[i][k];

        aa[0][c][k] += pw0 * a * a;
        ab[0][c][k] += pw0 * a * w;
        bb[0][c][k] += pw0 * w * w;
        pa[0][c][k] += pw0 * a * h;
        pb[0][c][k] += pw0 * w * h;
        aa[1][c][k] += pw1 * a * a;
        ab[1][c][k] += pw1 * a * w;
        bb[1][c][k] += pw1 * w * w;
        pa[1][c][k] += pw1 * a * h;
        pb[1][c][k] += pw1 * w * h;
      }
    }
  }
  LANES ok[k] = 1;
  for (rr = 0; rr < 2; rr++) {
    for (c = 0; c < 3; c++) {
      LANES {
        float det = aa[rr][c][k] * bb[rr][c][k] - ab[rr][c][k] * ab[rr][c][k];
        float s = aa[rr][c][k] + bb[rr][c][k];
        gboolean good = det > 1e-6f * s * s;
        float inv = good ? 1.0f / det : 0.0f;
        float lo = (bb[rr][c][k] * pa[rr][c][k] -
            ab[rr][c][k] * pb[rr][c][k]) * inv;
        float hi = (aa[rr][c][k] * pb[rr][c][k] -
            ab[rr][c][k] * pa[rr][c][k]) * inv;

        ok[k] = ok[k] && good;
        nf[rr][0][c][k] = lo < hmin ? hmin : (lo > H_MAX ? H_MAX : lo);
        nf[rr][1][c][k] = hi < hmin ? hmin : (hi > H_MAX ? H_MAX : hi);
      }
    }
  }
  for (rr = 0; rr < 2; rr++)
    for (e = 0; e < 2; e++)
      for (c = 0; c < 3; c++)
        LANES ef[rr][e][c][k] = ok[k] ? nf[rr][e][c][k] : ef[rr][e][c][k];
}

/* @x (> 0) without its mantissa: the power of two p with x / p in [1, 2);
 * *@inv is 1 / p (both exact, without a division) */
static inline float
lanes_pow2 (float x, float *inv)
{
  union
  {
    float f;
    guint32 u;
  } v, w;

  v.f = x;
  w.u = (254u << 23) - (v.u & 0x7f800000u);
  v.u &= 0x7f800000u;
  *inv = w.f;
  return v.f;
}

/* An estimate of the energy of a region off its principal axis, as the
 * fraction *@num / *@den, from @inv, 1 / its pixel count @n, the sums
 * @s0..@s2 of its pixels' differences from the block's mean and @s3..@s8
 * of their products, and @g, a power of two that scales the covariance to
 * about 1 (it keeps the products of two in range): e2 / tr, the
 * sum of the covariance's 2x2 principal minors over its trace,
 * (l1 l2 + l1 l3 + l2 l3) / (l1 + l2 + l3) of its eigenvalues, about
 * l2 + l3 where l1 dominates (rank_partitions () takes l2 + l3 from two
 * power-iteration steps and a Rayleigh quotient: on the benchmark
 * photographs the same quality for a third of the arithmetic) */
static inline void
lanes_off_axis (float n, float inv, float s0, float s1, float s2, float s3,
    float s4, float s5, float s6, float s7, float s8, float g, float *num,
    float *den)
{
  float m0 = s0 * inv, m1 = s1 * inv, m2 = s2 * inv;
  float c0 = (s3 - n * m0 * m0) * g, c1 = (s4 - n * m0 * m1) * g;
  float c2 = (s5 - n * m0 * m2) * g, c3 = (s6 - n * m1 * m1) * g;
  float c4 = (s7 - n * m1 * m2) * g, c5 = (s8 - n * m2 * m2) * g;
  float tr = c0 + c3 + c5;
  float e2 = (c0 * c3 - c1 * c1) + (c0 * c5 - c2 * c2) + (c3 * c5 - c4 * c4);

  /* (a flat region: 0) */
  *num = tr > 0.0f ? MAX (e2, 0.0f) : 0.0f;
  *den = tr > 0.0f ? tr : 1.0f;
}

/* The partition of least estimated error of every lane: the sum over its
 * regions of lanes_off_axis (), one division a partition; the sums of a partition's smaller region only over its pixels (the
 * partition is the same in every lane) */
static void
lanes_rank (const Bc6hBatch * b, gint32 * part)
{
  float v[9][16][L], tot[9][L], best[L], g[L];
  gint i, c, pt, k;

  for (c = 0; c < 3; c++) {
    float mean[L];

    LANES mean[k] = 0.0f;
    for (i = 0; i < 16; i++)
      LANES mean[k] += b->h[c][i][k];
    for (i = 0; i < 16; i++)
      LANES v[c][i][k] = b->h[c][i][k] - mean[k] * (1.0f / 16.0f);
  }
  for (i = 0; i < 16; i++) {
    LANES {
      v[3][i][k] = v[0][i][k] * v[0][i][k];
      v[4][i][k] = v[0][i][k] * v[1][i][k];
      v[5][i][k] = v[0][i][k] * v[2][i][k];
      v[6][i][k] = v[1][i][k] * v[1][i][k];
      v[7][i][k] = v[1][i][k] * v[2][i][k];
      v[8][i][k] = v[2][i][k] * v[2][i][k];
    }
  }
  for (c = 0; c < 9; c++) {
    LANES tot[c][k] = 0.0f;
    for (i = 0; i < 16; i++)
      LANES tot[c][k] += v[c][i][k];
  }
  LANES {
    float t = tot[3][k] + tot[6][k] + tot[8][k];

    lanes_pow2 (t, &g[k]);
    g[k] = t > 1e-30f ? g[k] : 0.0f;
    best[k] = G_MAXFLOAT;
    part[k] = 0;
  }
  for (pt = 0; pt < 32; pt++) {
    float s[9][L], n1 = 0.0f, inv0, inv1;
    guint32 in = 0, first;

    /* the sums over the smaller region, the second's from them */
    for (i = 0; i < 16; i++)
      in |= ((partition_bits[i] >> pt) & 1u) << i;
    n1 = (float) __builtin_popcount (in);
    if (n1 > 8.0f)
      in ^= 0xffffu;
    first = __builtin_ctz (in);
    for (c = 0; c < 9; c++)
      LANES s[c][k] = v[c][first][k];
    for (i = first + 1; i < 16; i++) {
      if (!((in >> i) & 1u))
        continue;
      for (c = 0; c < 9; c++)
        LANES s[c][k] += v[c][i][k];
    }
    if (n1 > 8.0f)
      for (c = 0; c < 9; c++)
        LANES s[c][k] = tot[c][k] - s[c][k];
    inv1 = 1.0f / n1;
    inv0 = 1.0f / (16.0f - n1);
    LANES {
      float num0, den0, num1, den1, num, den, score;

      lanes_off_axis (n1, inv1, s[0][k], s[1][k], s[2][k], s[3][k], s[4][k],
          s[5][k], s[6][k], s[7][k], s[8][k], g[k], &num1, &den1);
      lanes_off_axis (16.0f - n1, inv0, tot[0][k] - s[0][k],
          tot[1][k] - s[1][k], tot[2][k] - s[2][k], tot[3][k] - s[3][k],
          tot[4][k] - s[4][k], tot[5][k] - s[5][k], tot[6][k] - s[6][k],
          tot[7][k] - s[7][k], tot[8][k] - s[8][k], g[k], &num0, &den0);
      /* num0 / den0 + num1 / den1 below the best so far (one division:
       * comparing the fractions by cross products kept three values, and
       * the compilers branched on whether any lane improved) */
      num = num0 * den1 + num1 * den0;
      den = den0 * den1;
      score = num / den;
      part[k] = score < best[k] ? pt : part[k];
      best[k] = MIN (best[k], score);
    }
  }
}

/* pack () of the two-region block of every lane of @r (partition @part,
 * anchor @anc) into the words @lo and @hi: the header of each row the
 * lanes use, its fields where they go (the two-region layouts have no
 * reversed segments), then the indices, 3 bits a pixel, 2 at pixel 0 and
 * at the anchor, from bit 82 */
static void
lanes_pack2 (const Bc6hLanesPass2 * r, const gint32 * part, const gint32 * anc,
    guint64 * lo, guint64 * hi)
{
  gint32 f[13][L], pos[L];
  gint j, i, c, e, rr, k;

  LANES lo[k] = hi[k] = 0;
  LANES f[BC6H_PB][k] = part[k];
  for (j = 0; j < 10; j++) {
    const Bc6hMode *m = &bc6h_modes[j];
    const Bc6hSegment *sg;
    guint64 wlo[L], whi[L];
    gint32 any = 0;
    guint at = m->mode_bits;

    LANES any |= r->row[k] == j;
    if (!any)
      continue;
    for (rr = 0; rr < 2; rr++) {
      for (e = 0; e < 2; e++) {
        for (c = 0; c < 3; c++) {
          const gboolean diff = m->transformed && (rr | e);
          const gint32 mask = diff ? (1 << m->delta[c]) - 1 : 0xffff;

          LANES f[(rr * 2 + e) * 3 + c][k] = (r->ep[rr][e][c][k] -
              (diff ? r->ep[0][0][c][k] : 0)) & mask;
        }
      }
    }
    LANES {
      wlo[k] = m->mode;
      whi[k] = 0;
    }
    for (sg = m->layout; sg->field != BC6H_END; sg++) {
      const guint n = sg->a - sg->b + 1;
      const gint32 *v = f[sg->field];

      /* (at and n the same in every lane: shifts by a constant) */
      if (at >= 64) {
        LANES whi[k] |= (guint64) ((v[k] >> sg->b) & ((1 << n) - 1)) <<
            (at - 64);
      } else {
        LANES wlo[k] |= (guint64) ((v[k] >> sg->b) & ((1 << n) - 1)) << at;
        if (at + n > 64) {
          LANES whi[k] |= (guint64) ((v[k] >> sg->b) & ((1 << n) - 1)) >>
              (64 - at);
        }
      }
      at += n;
    }
    LANES {
      lo[k] = r->row[k] == j ? wlo[k] : lo[k];
      hi[k] = r->row[k] == j ? whi[k] : hi[k];
    }
  }
  /* the indices, from bit 82 = bit 18 of hi */
  LANES {
    hi[k] |= (guint64) r->q[0][k] << 18;
    pos[k] = 20;
  }
  for (i = 1; i < 16; i++) {
    LANES {
      hi[k] |= (guint64) r->q[i][k] << pos[k];
      pos[k] += i == anc[k] ? 2 : 3;
    }
  }
}

/* the two regions of the blocks of @b, the pending blocks @first to
 * @first + @n - 1 of @pd (the lanes past them repeat the last): each
 * whose two regions have less error than its one region is written
 * again, to out + 16 block */
static void
lanes_two (const Bc6hBatch * b, const Bc6hPending * pd, guint first, guint n,
    gint sgn, guint8 * out)
{
  float m1[16][L], ef[2][2][3][L];
  gint32 anc[L], part[L];
  guint64 lo[L], hi[L];
  Bc6hLanesPass2 r;
  guint k, i;

  lanes_rank (b, part);
  LANES anc[k] = bc7_anchors2[part[k]];
  for (i = 0; i < 16; i++)
    LANES m1[i][k] = (float) ((partition_bits[i] >> part[k]) & 1u);

  /* principal axes, indices for them unquantized, a least-squares
   * refit to those, then the mode and the indices (before, a first pass
   * quantized the principal axes' endpoints and was a candidate too: on
   * the benchmark photographs 0.01 dB for a quarter of the time) */
  lanes_fit2 (b, m1, ef, sgn);
  lanes_proj2 (b, m1, ef, &r);
  lanes_refit2 (b, m1, &r, ef, sgn);
  lanes_pass2 (b, m1, anc, ef, &r, sgn);
  lanes_pack2 (&r, part, anc, lo, hi);

  for (k = 0; k < n; k++)
    if (r.ok[k] && r.err[k] < pd->one_err[first + k])
      store_block (lo[k], hi[k], out + 16 * pd->block[first + k]);
}

/* quality=normal of @n_blocks (at most BC_LANES) blocks of @b, blocks
 * @first to @first + @n_blocks - 1 of a group written from @out: fast's
 * one region in lanes (a second refit gained under 0.05 dB on the
 * benchmark photographs), written; where it leaves an error above
 * NORMAL_TWO_REGION_THRESHOLD, the block is listed in @pd for
 * lanes_two (). */
static void
lanes_normal (const Bc6hBatch * b, guint first, guint n_blocks,
    Bc6hPending * pd, gint sgn, guint8 * out)
{
  Bc6hLanesPass r;
  float ef[2][3][L], wsum[L], thr[L];
  gint32 refit_ok[L];
  guint64 lo[L], hi[L];
  guint k, i, c;

  /* as lanes_fast () */
  lanes_fit (b, ef, sgn);
  lanes_proj (b, ef, &r);
  lanes_refit (b, &r, ef, refit_ok, sgn);
  lanes_pass (b, ef, &r, sgn);
  lanes_pack_one (&r, lo, hi);
  LANES wsum[k] = 0.0f;
  for (c = 0; c < 3; c++)
    for (i = 0; i < 16; i++)
      LANES wsum[k] += b->w[c][i][k];
  LANES thr[k] = NORMAL_TWO_REGION_THRESHOLD * wsum[k] / 48.0f;

  for (k = 0; k < n_blocks; k++) {
    guint8 *o = out + 16 * (first + k);

    if (!r.ok[k]) {
      /* the anchor broke the differences (rare): the per-block path */
      Bc6hPixels p;

      for (c = 0; c < 3; c++)
        for (i = 0; i < 16; i++) {
          p.h[c][i] = b->h[c][i][k];
          p.w[c][i] = b->w[c][i][k];
        }
      p.wsum = wsum[k];
      if (sgn)
        encode_block_s (&p, 1, o);
      else
        encode_block_u (&p, 1, o);
      continue;
    }
    store_block (lo[k], hi[k], o);
    if (r.err[k] > thr[k]) {
      /* two regions may do better */
      pd->block[pd->n] = (guint16) (first + k);
      pd->one_err[pd->n] = r.err[k];
      pd->n++;
    }
  }
}

#if !defined (BC_KERNEL_PORTABLE) && defined (__AVX512F__) && L == 16
#include <immintrin.h>

/* the pixels of row @y of the lanes' blocks, the blocks at @off (in
 * 16-bit values) in @src, into @b: each value by a gather of the lanes
 * (32 bits from the value on, the next value masked off), the weight by
 * a permutation of the table (a lane a block reading its pixel took a
 * scalar load, and a third of fast's time) */
static void
load_row (const guint16 * src, const guint * off, guint y, gint sgn,
    Bc6hBatch * b)
{
  const __m512i idx = _mm512_loadu_si512 (off);
  const __m512 w_lo = _mm512_loadu_ps (bc6h_octave_weight);
  const __m512 w_hi = _mm512_loadu_ps (bc6h_octave_weight + 16);
  guint x, c;

  for (x = 0; x < 4; x++)
    for (c = 0; c < 3; c++) {
      __m512i v = _mm512_mask_i32gather_epi32 (_mm512_setzero_si512 (),
          0xffff, idx, src + x * 4 + c, 2);
      __m512i h;
      __mmask16 good, neg = 0;

      /* h_of_half_int (): unsigned, negative and NaN 0, infinity the
       * largest; signed, the magnitude's (the maskz forms: GCC 12 warns
       * of the others' undefined source) */
      v = _mm512_and_si512 (v, _mm512_set1_epi32 (0xffff));
      if (sgn) {
        neg = _mm512_test_epi32_mask (v, _mm512_set1_epi32 (0x8000));
        v = _mm512_and_si512 (v, _mm512_set1_epi32 (0x7fff));
      }
      good = _mm512_cmple_epi32_mask (v, _mm512_set1_epi32 (0x7c00));
      v = _mm512_maskz_min_epi32 (good, v, _mm512_set1_epi32 (0x7bff));
      h = sgn ? _mm512_mask_sub_epi32 (v, neg, _mm512_setzero_si512 (), v) : v;
      _mm512_storeu_ps (b->h[c][y * 4 + x], _mm512_maskz_cvtepi32_ps (0xffff,
              h));
      _mm512_storeu_ps (b->w[c][y * 4 + x], _mm512_permutex2var_ps (w_lo,
              _mm512_maskz_srli_epi32 (0xffff, v, 10), w_hi));
    }
}

#else

/* the pixels of row @y of the lanes' blocks, the blocks at @off (in
 * 16-bit values) in @src, into @b */
static void
load_row (const guint16 * src, const guint * off, guint y, gint sgn,
    Bc6hBatch * b)
{
  guint x, c, k;

  for (x = 0; x < 4; x++)
    for (c = 0; c < 3; c++) {
      const guint16 *s = src + x * 4 + c;

      LANES {
        gint32 h = h_of_half_int (GUINT16_FROM_LE (s[off[k]]), sgn);

        b->h[c][y * 4 + x][k] = (float) h;
        b->w[c][y * 4 + x][k] = bc6h_octave_weight[ABS (h) >> 10];
      }
    }
}

#endif

/* bc_kernel_bc6h () of signed (@sgn 1) or unsigned BC6H */
static void
encode_blocks (const guint16 * const rows[4], guint n_blocks, gint quality,
    gint sgn, guint8 * out)
{
  guint k, x, y, c, j;

  if (quality == 0) {
    Bc6hBatch b;
    guint off[L];

    for (j = 0; j < n_blocks; j += L) {
      guint n = MIN (L, n_blocks - j);

      /* lanes past the last block repeat it */
      for (k = 0; k < L; k++)
        off[k] = (j + MIN (k, n - 1)) * 16;
      for (y = 0; y < 4; y++)
        load_row (rows[y], off, y, sgn, &b);
      lanes_fast (&b, n, sgn, out + 16 * j);
    }
    return;
  }

  if (quality == 1) {
    Bc6hBatch b;
    Bc6hPending pd;
    guint off[L], g;

    /* a group's blocks in the one-region lanes, then the listed ones
     * loaded again, BC_LANES at a time, into the two-region lanes */
    for (g = 0; g < n_blocks; g += NORMAL_GROUP) {
      const guint16 *grows[4];
      guint ng = MIN (NORMAL_GROUP, n_blocks - g);
      guint8 *gout = out + 16 * g;

      for (y = 0; y < 4; y++)
        grows[y] = rows[y] + g * 16;
      pd.n = 0;
      for (j = 0; j < ng; j += L) {
        guint n = MIN (L, ng - j);

        for (k = 0; k < L; k++)
          off[k] = (j + MIN (k, n - 1)) * 16;
        for (y = 0; y < 4; y++)
          load_row (grows[y], off, y, sgn, &b);
        lanes_normal (&b, j, n, &pd, sgn, gout);
      }
      for (j = 0; j < pd.n; j += L) {
        guint n = MIN (L, pd.n - j);

        for (k = 0; k < L; k++)
          off[k] = pd.block[j + MIN (k, n - 1)] * 16u;
        for (y = 0; y < 4; y++)
          load_row (grows[y], off, y, sgn, &b);
        lanes_two (&b, &pd, j, n, sgn, gout);
      }
    }
    return;
  }

  for (k = 0; k < n_blocks; k++) {
    Bc6hPixels p;

    for (y = 0; y < 4; y++) {
      const guint16 *s = rows[y] + k * 16;

      for (x = 0; x < 4; x++)
        for (c = 0; c < 3; c++)
          p.h[c][y * 4 + x] = h_of_half (GUINT16_FROM_LE (s[x * 4 + c]), sgn);
    }
    p.wsum = 0.0f;
    for (c = 0; c < 3; c++)
      for (x = 0; x < 16; x++) {
        p.w[c][x] = bc6h_octave_weight[ABS ((gint) p.h[c][x]) >> 10];
        p.wsum += p.w[c][x];
      }
    if (sgn)
      encode_block_s (&p, quality, out + 16 * k);
    else
      encode_block_u (&p, quality, out + 16 * k);
  }
}

/* Encodes @n_blocks side by side: rows[y] points at the first pixel of
 * picture row y of the blocks, RGBA half floats (4 little-endian 16-bit
 * values a pixel); block k goes to out + 16 k. The per-block code is
 * written out for each sign (bcencode-bc6h-block.h); the two calls with a
 * constant sign let the compiler specialise encode_blocks () and the
 * lanes' functions for each (-O3 inlines them, or clones them for the
 * constant argument). */
void
BC_KERNEL_NAME (bc_kernel_bc6h) (const guint16 * const rows[4],
    guint n_blocks, gint quality, gboolean is_signed, guint8 * out)
{
  if (is_signed)
    encode_blocks (rows, n_blocks, quality, 1, out);
  else
    encode_blocks (rows, n_blocks, quality, 0, out);
}
