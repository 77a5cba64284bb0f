/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Block encoding kernel for BC4 (one channel); BC5 is two BC4 blocks, of
 * red and green. Also the split of 4-byte pixels into two one-byte channel
 * rows that bcencode.c uses for the last, partial batch of BC5.
 *
 * The kernel is integer-only and reads one-byte pixels (BC4), or one byte of
 * 4-byte pixels (BC5), straight from four picture rows: BC_BC45_BATCH blocks
 * side by side per call. It works on vectors of 16-bit lanes, one block per
 * lane (8 lanes with SSE2, 16 with AVX2, 32 with AVX-512, 2 in the portable
 * C build), written once over a few vector
 * operations (V, v_add, ...) that each build implements: the portable C
 * build with plain loops, the SIMD builds with intrinsics. Every operation
 * is exact integer arithmetic (except the per-block least-squares solve:
 * the same single-precision IEEE operations in every build, contraction
 * off), lanes never interact, and the only data-dependent control flow
 * skips work no lane needs or stops an iteration every lane has finished,
 * so every build writes the same blocks.
 *
 * A BC4 block has two 8-bit endpoints a0, a1 and sixteen 3-bit codes. When
 * a0 > a1 the codes select one of eight values from a1 to a0 ("8-value
 * mode"), level j = a1 + (j (a0 - a1)) / 7 (truncated, as decoders do;
 * level 7 is code 0, level 0 code 1, level j code 8 - j); otherwise six
 * values from a0 to a1, a0 + (j (a1 - a0)) / 5, plus 0 and 255
 * ("6-value mode"). Every pixel always takes the nearest of the block's
 * values, the lower one on a tie: with the values in ascending order, its
 * position is the number of integer midpoints (l_j + l_j+1) / 2
 * (truncated) it is above, counted with 8-bit compares. Squared errors
 * are summed with unsigned 16-bit saturation: a block's 8-value min/max
 * error is at most 16 * 18 * 18, and a candidate is kept only when its
 * error is strictly lower than the current one, so saturation never
 * changes a choice. The encoder:
 *
 *  1. fast: 8-value mode with the block's minimum and maximum as endpoints;
 *  2. normal: then one least-squares refit of the endpoints to the
 *     positions (from integer sums of the positions, their squares and
 *     their products with the pixels), kept when the error drops; and the
 *     6-value candidate: endpoints are the minimum and maximum of the
 *     pixels that are neither 0 nor 255 (those take the two fixed values),
 *     then one least-squares refit over the pixels between the endpoints
 *     (kept when the error drops), tried on blocks that have a pixel at 0
 *     or 255; it replaces the 8-value result only when its squared error
 *     is strictly lower;
 *  3. high: two refits, then rounds of a search of the neighbouring
 *     endpoint pairs (see moves: each endpoint moved by up to 1, or one of
 *     them by 2 or 3; the best pair of a round is kept when it lowers the
 *     error) until no block of the vector improves or BC45_HIGH_ROUNDS
 *     rounds; the 6-value candidate gets the same search (in 6-value mode)
 *     before it is compared.
 *
 * Blocks finish a search round by round on their own (a block that does
 * not improve in a round stays as it is), so the number of blocks in a
 * vector does not change the result.
 *
 * A flat block (one value) is written as a0 = a1 = value, codes 0: exact.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcencode-kernel.h"

#define BC45_HIGH_ROUNDS 8

#define LANES BC_FOR_LANES (VN)

/* ------------------------------------------------------------------------ */
/* vectors of 16-bit lanes                                                   */

#if defined (BC_KERNEL_PORTABLE) || !defined (__SSE2__)

/* two blocks a vector: wider vectors of plain loops gain little without
 * SIMD, and the searches of high stop block by block sooner */
#define VN 2
typedef struct
{
  gint16 v[VN];
} V;

#define V_OP2(name, expr)                                                  \
static inline V                                                            \
name (V a, V b)                                                            \
{                                                                          \
  V r;                                                                     \
  gint k;                                                                  \
                                                                           \
  for (k = 0; k < VN; k++) {                                               \
    gint x = a.v[k], y = b.v[k];                                           \
                                                                           \
    r.v[k] = (gint16) (expr);                                              \
  }                                                                        \
  return r;                                                                \
}

/* wrapping 16-bit add, subtract, multiply (low half) */
V_OP2 (v_add, x + y);
V_OP2 (v_sub, x - y);
V_OP2 (v_mullo, (gint32) ((guint32) (guint16) x * (guint16) y));
/* high half of the unsigned product */
V_OP2 (v_mulhi_u, ((guint32) (guint16) x * (guint16) y) >> 16);
/* unsigned saturating add */
V_OP2 (v_adds_u, MIN ((guint32) (guint16) x + (guint16) y, 65535));
/* signed compares: all ones or zero */
V_OP2 (v_gt, x > y ? -1 : 0);
V_OP2 (v_eq, x == y ? -1 : 0);
V_OP2 (v_min, MIN (x, y));
V_OP2 (v_max, MAX (x, y));
V_OP2 (v_and, x & y);
V_OP2 (v_or, x | y);
V_OP2 (v_xor, x ^ y);
/* ~a & b */
V_OP2 (v_andnot, ~x & y);

static inline V
v_set1 (gint x)
{
  V r;
  gint k;

  for (k = 0; k < VN; k++)
    r.v[k] = (gint16) x;
  return r;
}

static inline V
v_srli (V a, gint s)
{
  V r;
  gint k;

  for (k = 0; k < VN; k++)
    r.v[k] = (gint16) ((guint16) a.v[k] >> s);
  return r;
}

static inline V
v_slli (V a, gint s)
{
  V r;
  gint k;

  for (k = 0; k < VN; k++)
    r.v[k] = (gint16) ((guint32) (guint16) a.v[k] << s);
  return r;
}

static inline gboolean
v_any (V a)
{
  gint k;

  for (k = 0; k < VN; k++)
    if (a.v[k] != 0)
      return TRUE;
  return FALSE;
}

/* Positions use 8-bit compares where the build has them: pixels and
 * midpoints two pixels to a register, biased by 128 for signed compares.
 * Here a pair is just the two vectors. */
typedef struct
{
  V a, b;
} VB;

static inline VB
vb_pack (V a, V b)
{
  VB r = { a, b };

  return r;
}

/* the positions of the two pixels of @pb among values with midpoints
 * @mb (packed with vb_pack (mid, mid)) */
static inline void
vb_position (VB pb, const VB mb[7], V * u0, V * u1)
{
  V n0 = v_gt (pb.a, mb[0].a), n1 = v_gt (pb.b, mb[0].a);
  gint j;

  for (j = 1; j < 7; j++) {
    n0 = v_add (n0, v_gt (pb.a, mb[j].a));
    n1 = v_add (n1, v_gt (pb.b, mb[j].a));
  }
  *u0 = v_sub (v_set1 (0), n0);
  *u1 = v_sub (v_set1 (0), n1);
}

static inline V
v_loadu (const gint16 * src)
{
  V r;

  memcpy (r.v, src, sizeof (r.v));
  return r;
}

static inline void
v_storeu (gint16 * dst, V a)
{
  memcpy (dst, a.v, sizeof (a.v));
}

/* The 8 bytes of each block from its four 16-bit words */
static inline void
pack_blocks (V e, V w0, V w1, V w2, guint64 blocks[VN])
{
  gint k;

  for (k = 0; k < VN; k++)
    blocks[k] = GUINT64_TO_LE ((guint64) (guint16) e.v[k] |
        ((guint64) (guint16) w0.v[k] << 16) |
        ((guint64) (guint16) w1.v[k] << 32) |
        ((guint64) (guint16) w2.v[k] << 48));
}

/* pixel x of row y of the VN blocks starting at rows[y]: one-byte pixels
 * (@shift < 0), or the byte at bit position @shift of 4-byte pixels */
static inline void
load_pixels (const guint8 * const rows[4], gint shift, V p[16])
{
  gint x, y, k;

  for (y = 0; y < 4; y++)
    for (x = 0; x < 4; x++)
      for (k = 0; k < VN; k++)
        p[y * 4 + x].v[k] = shift < 0 ? rows[y][k * 4 + x] :
            rows[y][(k * 4 + x) * 4 + shift / 8];
}

#else

#include <immintrin.h>

/* The byte at bit position @shift of each of the 16 4-byte pixels at
 * @src */
static inline __m128i
bytes_of16 (const guint8 * src, __m128i shift)
{
  const __m128i mask = _mm_set1_epi32 (0xff);
  const __m128i *s = (const __m128i *) src;
  __m128i x[4];
  gint j;

  for (j = 0; j < 4; j++)
    x[j] = _mm_and_si128 (_mm_srl_epi32 (_mm_loadu_si128 (s + j), shift), mask);
  return _mm_packus_epi16 (_mm_packs_epi32 (x[0], x[1]),
      _mm_packs_epi32 (x[2], x[3]));
}

#ifdef __AVX2__
/* The byte at bit position @shift of each of the 32 4-byte pixels in @v */
static inline __m256i
bytes_at32 (const __m256i v[4], __m128i shift)
{
  const __m256i mask = _mm256_set1_epi32 (0xff);
  /* packs and packus work within 128-bit halves: dwords of 4 pixels come
   * out as 0 2 4 6 1 3 5 7 */
  const __m256i order = _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7);
  __m256i x[4];
  gint j;

  for (j = 0; j < 4; j++)
    x[j] = _mm256_and_si256 (_mm256_srl_epi32 (v[j], shift), mask);
  return _mm256_permutevar8x32_epi32 (_mm256_packus_epi16
      (_mm256_packs_epi32 (x[0], x[1]), _mm256_packs_epi32 (x[2], x[3])),
      order);
}
#endif

#if defined (__AVX512F__) && defined (__AVX512BW__)
/* 32 lanes in 512-bit vectors. Compares give masks here; they are turned
 * back into vectors of all ones or zero, as the other builds have them.
 * (Where GCC 12's plain form reads an undefined vector and warns, the
 * zero-masking form with every lane kept is used.) */
#define VN 32
typedef __m512i V;
#define v_add _mm512_add_epi16
#define v_sub _mm512_sub_epi16
#define v_mullo _mm512_mullo_epi16
#define v_mulhi_u _mm512_mulhi_epu16
#define v_adds_u _mm512_adds_epu16
#define v_gt(a, b) _mm512_movm_epi16 (_mm512_cmpgt_epi16_mask (a, b))
#define v_eq(a, b) _mm512_movm_epi16 (_mm512_cmpeq_epi16_mask (a, b))
#define v_min _mm512_min_epi16
#define v_max _mm512_max_epi16
#define v_and _mm512_and_si512
#define v_or _mm512_or_si512
#define v_xor _mm512_xor_si512
#define v_andnot(a, b) _mm512_maskz_andnot_epi32 (0xffff, a, b)
#define v_set1(x) _mm512_set1_epi16 ((gint16) (x))
#define v_srli(a, s) _mm512_srli_epi16 (a, s)
#define v_slli(a, s) _mm512_slli_epi16 (a, s)
#define v_loadu(src) _mm512_loadu_si512 ((const void *) (src))
#define v_storeu(dst, a) _mm512_storeu_si512 ((void *) (dst), a)
/* a ? b : c, bit by bit */
#define v_sel(a, b, c) _mm512_ternarylogic_epi32 (a, b, c, 0xca)

/* a function, not a macro: its argument is used twice and may have side
 * effects (neighbours ()) */
static inline gboolean
v_any (V a)
{
  return _mm512_test_epi16_mask (a, a) != 0;
}

/* two vectors of values 0..255 as bytes, biased by 128: per 128-bit
 * quarter, 8 lanes of a, then 8 of b */
typedef __m512i VB;
#define vb_pack(a, b) _mm512_xor_si512 (_mm512_packus_epi16 (a, b), \
    _mm512_set1_epi8 ((gchar) 0x80))

static inline void
pack_blocks (V e, V w0, V w1, V w2, guint64 blocks[VN])
{
  /* per 128-bit quarter q, blocks 8q .. 8q + 7 in z0 (the first two) to
   * z3 (the last two); then a 4x4 transpose of the quarters */
  __m512i x0 = _mm512_unpacklo_epi16 (e, w0), y0 = _mm512_unpacklo_epi16 (w1,
      w2);
  __m512i x1 = _mm512_unpackhi_epi16 (e, w0), y1 = _mm512_unpackhi_epi16 (w1,
      w2);
  __m512i z0 = _mm512_maskz_unpacklo_epi32 (0xffff, x0, y0);
  __m512i z1 = _mm512_maskz_unpackhi_epi32 (0xffff, x0, y0);
  __m512i z2 = _mm512_maskz_unpacklo_epi32 (0xffff, x1, y1);
  __m512i z3 = _mm512_maskz_unpackhi_epi32 (0xffff, x1, y1);
  __m512i t0 = _mm512_maskz_shuffle_i64x2 (0xff, z0, z1, 0x44);
  __m512i t1 = _mm512_maskz_shuffle_i64x2 (0xff, z2, z3, 0x44);
  __m512i t2 = _mm512_maskz_shuffle_i64x2 (0xff, z0, z1, 0xee);
  __m512i t3 = _mm512_maskz_shuffle_i64x2 (0xff, z2, z3, 0xee);

  _mm512_storeu_si512 (blocks, _mm512_maskz_shuffle_i64x2 (0xff, t0, t1, 0x88));
  _mm512_storeu_si512 (blocks + 8, _mm512_maskz_shuffle_i64x2 (0xff, t0, t1,
          0xdd));
  _mm512_storeu_si512 (blocks + 16, _mm512_maskz_shuffle_i64x2 (0xff, t2,
          t3, 0x88));
  _mm512_storeu_si512 (blocks + 24, _mm512_maskz_shuffle_i64x2 (0xff, t2,
          t3, 0xdd));
}

static inline void
vb_position (VB pb, const VB mb[7], V * u0, V * u1)
{
  __m512i n = _mm512_movm_epi8 (_mm512_cmpgt_epi8_mask (pb, mb[0]));
  gint j;

  for (j = 1; j < 7; j++)
    n = _mm512_add_epi8 (n, _mm512_movm_epi8 (_mm512_cmpgt_epi8_mask (pb,
                mb[j])));
  n = _mm512_sub_epi8 (_mm512_setzero_si512 (), n);
  *u0 = _mm512_unpacklo_epi8 (n, _mm512_setzero_si512 ());
  *u1 = _mm512_unpackhi_epi8 (n, _mm512_setzero_si512 ());
}

/* The byte at bit position @shift of each of the 64 4-byte pixels at
 * @src: packs and packus work within 128-bit quarters, so dword 4q + j
 * holds pixels 16 j + 4 q .. 16 j + 4 q + 3, which one vpermd puts in
 * order */
static inline __m512i
bytes_at64 (const guint8 * src, __m128i shift)
{
  const __m512i mask = _mm512_set1_epi32 (0xff);
  const __m512i order = _mm512_setr_epi32 (0, 4, 8, 12, 1, 5, 9, 13,
      2, 6, 10, 14, 3, 7, 11, 15);
  __m512i x[4];
  gint j;

  for (j = 0; j < 4; j++)
    x[j] = _mm512_and_si512 (_mm512_maskz_srl_epi32 (0xffff,
            _mm512_loadu_si512 ((const void *) (src + 64 * j)), shift), mask);
  return _mm512_maskz_permutexvar_epi32 (0xffff, order,
      _mm512_packus_epi16 (_mm512_packs_epi32 (x[0], x[1]),
          _mm512_packs_epi32 (x[2], x[3])));
}

static inline void
load_pixels (const guint8 * const rows[4], gint shift, V p[16])
{
  const __m512i mask = _mm512_set1_epi32 (0xff);
  /* packs gives, per 128-bit quarter q, blocks 4q .. 4q + 3 then
   * 16 + 4q .. 19 + 4q: 64-bit pieces 0 2 4 6 1 3 5 7 in order */
  const __m512i order = _mm512_setr_epi64 (0, 2, 4, 6, 1, 3, 5, 7);
  const __m128i sh = _mm_cvtsi32_si128 (shift);
  gint y;

  for (y = 0; y < 4; y++) {
    __m512i r0 = shift < 0 ? _mm512_loadu_si512 ((const void *) rows[y]) :
        bytes_at64 (rows[y], sh);
    __m512i r1 = shift < 0 ?
        _mm512_loadu_si512 ((const void *) (rows[y] + 64)) :
        bytes_at64 (rows[y] + 256, sh);
    gint x;

    for (x = 0; x < 4; x++) {
      __m512i v0 = _mm512_and_si512 (_mm512_maskz_srli_epi32 (0xffff, r0,
              8 * x), mask);
      __m512i v1 = _mm512_and_si512 (_mm512_maskz_srli_epi32 (0xffff, r1,
              8 * x), mask);

      p[y * 4 + x] = _mm512_maskz_permutexvar_epi64 (0xff, order,
          _mm512_packs_epi32 (v0, v1));
    }
  }
}

#elif defined (__AVX2__)
#define VN 16
typedef __m256i V;
#define v_add _mm256_add_epi16
#define v_sub _mm256_sub_epi16
#define v_mullo _mm256_mullo_epi16
#define v_mulhi_u _mm256_mulhi_epu16
#define v_adds_u _mm256_adds_epu16
#define v_gt _mm256_cmpgt_epi16
#define v_eq _mm256_cmpeq_epi16
#define v_min _mm256_min_epi16
#define v_max _mm256_max_epi16
#define v_and _mm256_and_si256
#define v_or _mm256_or_si256
#define v_xor _mm256_xor_si256
#define v_andnot _mm256_andnot_si256
#define v_set1(x) _mm256_set1_epi16 ((gint16) (x))
#define v_srli(a, s) _mm256_srli_epi16 (a, s)
#define v_slli(a, s) _mm256_slli_epi16 (a, s)
#define v_any(a) (_mm256_movemask_epi8 (a) != 0)
#define v_loadu(src) _mm256_loadu_si256 ((const __m256i *) (src))
#define v_storeu(dst, a) _mm256_storeu_si256 ((__m256i *) (dst), a)
#define v_sel(a, b, c) _mm256_blendv_epi8 (c, b, a)

/* two vectors of values 0..255 as bytes, biased by 128: per 128-bit half,
 * 8 lanes of a, then 8 of b */
typedef __m256i VB;
#define vb_pack(a, b) _mm256_xor_si256 (_mm256_packus_epi16 (a, b), \
    _mm256_set1_epi8 ((gchar) 0x80))

static inline void
pack_blocks (V e, V w0, V w1, V w2, guint64 blocks[VN])
{
  /* per 128-bit half, lanes 0-3 (8-11) then 4-7 (12-15) */
  __m256i x0 = _mm256_unpacklo_epi16 (e, w0), y0 = _mm256_unpacklo_epi16 (w1,
      w2);
  __m256i x1 = _mm256_unpackhi_epi16 (e, w0), y1 = _mm256_unpackhi_epi16 (w1,
      w2);
  __m256i z0 = _mm256_unpacklo_epi32 (x0, y0);
  __m256i z1 = _mm256_unpackhi_epi32 (x0, y0);
  __m256i z2 = _mm256_unpacklo_epi32 (x1, y1);
  __m256i z3 = _mm256_unpackhi_epi32 (x1, y1);
  __m256i *dst = (__m256i *) blocks;

  _mm256_storeu_si256 (dst, _mm256_permute2x128_si256 (z0, z1, 0x20));
  _mm256_storeu_si256 (dst + 1, _mm256_permute2x128_si256 (z2, z3, 0x20));
  _mm256_storeu_si256 (dst + 2, _mm256_permute2x128_si256 (z0, z1, 0x31));
  _mm256_storeu_si256 (dst + 3, _mm256_permute2x128_si256 (z2, z3, 0x31));
}

static inline void
vb_position (VB pb, const VB mb[7], V * u0, V * u1)
{
  __m256i n = _mm256_cmpgt_epi8 (pb, mb[0]);
  gint j;

  for (j = 1; j < 7; j++)
    n = _mm256_add_epi8 (n, _mm256_cmpgt_epi8 (pb, mb[j]));
  n = _mm256_sub_epi8 (_mm256_setzero_si256 (), n);
  *u0 = _mm256_unpacklo_epi8 (n, _mm256_setzero_si256 ());
  *u1 = _mm256_unpackhi_epi8 (n, _mm256_setzero_si256 ());
}

/* bytes_at32 () of the 32 4-byte pixels at @src */
static inline __m256i
bytes_of32 (const guint8 * src, __m128i shift)
{
  const __m256i *s = (const __m256i *) src;
  __m256i v[4];

  v[0] = _mm256_loadu_si256 (s);
  v[1] = _mm256_loadu_si256 (s + 1);
  v[2] = _mm256_loadu_si256 (s + 2);
  v[3] = _mm256_loadu_si256 (s + 3);
  return bytes_at32 (v, shift);
}

static inline void
load_pixels (const guint8 * const rows[4], gint shift, V p[16])
{
  const __m256i mask = _mm256_set1_epi32 (0xff);
  const __m128i sh = _mm_cvtsi32_si128 (shift);
  gint y;

  for (y = 0; y < 4; y++) {
    __m256i r0 = shift < 0 ? _mm256_loadu_si256 ((const __m256i *) rows[y]) :
        bytes_of32 (rows[y], sh);
    __m256i r1 = shift < 0 ?
        _mm256_loadu_si256 ((const __m256i *) (rows[y] + 32)) :
        bytes_of32 (rows[y] + 128, sh);
    gint x;

    /* per 128-bit half, packs gives blocks 0-3 8-11 4-7 12-15 */
    for (x = 0; x < 4; x++) {
      __m256i v0 = _mm256_and_si256 (_mm256_srli_epi32 (r0, 8 * x), mask);
      __m256i v1 = _mm256_and_si256 (_mm256_srli_epi32 (r1, 8 * x), mask);

      p[y * 4 + x] = _mm256_permute4x64_epi64 (_mm256_packs_epi32 (v0, v1),
          0xd8);
    }
  }
}
#else
#define VN 8
typedef __m128i V;
#define v_add _mm_add_epi16
#define v_sub _mm_sub_epi16
#define v_mullo _mm_mullo_epi16
#define v_mulhi_u _mm_mulhi_epu16
#define v_adds_u _mm_adds_epu16
#define v_gt _mm_cmpgt_epi16
#define v_eq _mm_cmpeq_epi16
#define v_min _mm_min_epi16
#define v_max _mm_max_epi16
#define v_and _mm_and_si128
#define v_or _mm_or_si128
#define v_xor _mm_xor_si128
#define v_andnot _mm_andnot_si128
#define v_set1(x) _mm_set1_epi16 ((gint16) (x))
#define v_srli(a, s) _mm_srli_epi16 (a, s)
#define v_slli(a, s) _mm_slli_epi16 (a, s)
#define v_any(a) (_mm_movemask_epi8 (a) != 0)
#define v_loadu(src) _mm_loadu_si128 ((const __m128i *) (src))
#define v_storeu(dst, a) _mm_storeu_si128 ((__m128i *) (dst), a)

/* two vectors of values 0..255 as bytes, biased by 128 */
typedef __m128i VB;
#define vb_pack(a, b) _mm_xor_si128 (_mm_packus_epi16 (a, b), \
    _mm_set1_epi8 ((gchar) 0x80))

static inline void
pack_blocks (V e, V w0, V w1, V w2, guint64 blocks[VN])
{
  __m128i x0 = _mm_unpacklo_epi16 (e, w0), y0 = _mm_unpacklo_epi16 (w1, w2);
  __m128i x1 = _mm_unpackhi_epi16 (e, w0), y1 = _mm_unpackhi_epi16 (w1, w2);
  __m128i *dst = (__m128i *) blocks;

  _mm_storeu_si128 (dst, _mm_unpacklo_epi32 (x0, y0));
  _mm_storeu_si128 (dst + 1, _mm_unpackhi_epi32 (x0, y0));
  _mm_storeu_si128 (dst + 2, _mm_unpacklo_epi32 (x1, y1));
  _mm_storeu_si128 (dst + 3, _mm_unpackhi_epi32 (x1, y1));
}

static inline void
vb_position (VB pb, const VB mb[7], V * u0, V * u1)
{
  __m128i n = _mm_cmpgt_epi8 (pb, mb[0]);
  gint j;

  for (j = 1; j < 7; j++)
    n = _mm_add_epi8 (n, _mm_cmpgt_epi8 (pb, mb[j]));
  n = _mm_sub_epi8 (_mm_setzero_si128 (), n);
  *u0 = _mm_unpacklo_epi8 (n, _mm_setzero_si128 ());
  *u1 = _mm_unpackhi_epi8 (n, _mm_setzero_si128 ());
}

static inline void
load_pixels (const guint8 * const rows[4], gint shift, V p[16])
{
  const __m128i mask = _mm_set1_epi32 (0xff);
  const __m128i sh = _mm_cvtsi32_si128 (shift);
  gint y;

  for (y = 0; y < 4; y++) {
    __m128i r0 = shift < 0 ? _mm_loadu_si128 ((const __m128i *) rows[y]) :
        bytes_of16 (rows[y], sh);
    __m128i r1 = shift < 0 ?
        _mm_loadu_si128 ((const __m128i *) (rows[y] + 16)) :
        bytes_of16 (rows[y] + 64, sh);
    gint x;

    for (x = 0; x < 4; x++) {
      __m128i v0 = _mm_and_si128 (_mm_srli_epi32 (r0, 8 * x), mask);
      __m128i v1 = _mm_and_si128 (_mm_srli_epi32 (r1, 8 * x), mask);

      p[y * 4 + x] = _mm_packs_epi32 (v0, v1);
    }
  }
}
#endif

#endif

#ifndef v_sel
/* a ? b : c, per lane (a all ones or zero) */
static inline V
v_sel (V a, V b, V c)
{
  return v_or (v_and (a, b), v_andnot (a, c));
}
#endif

/* ------------------------------------------------------------------------ */
/* evaluation                                                                */

/* x / 7 and x / 5 (truncated) for 0 <= x < 13107 */
#define DIV7(x) v_mulhi_u (x, v_set1 (9363))
#define DIV5(x) v_mulhi_u (x, v_set1 (13108))

/* The pixels of VN blocks, as 16-bit lanes and as byte pairs */
typedef struct
{
  V p[16];
  VB pb[8];
} Pixels;

/* The positions (0..7) of the pixels among the ascending values whose
 * midpoints are @mid */
static inline void
positions (const Pixels * px, const V mid[7], V u[16])
{
  VB mb[7];
  gint i;

  for (i = 0; i < 7; i++)
    mb[i] = vb_pack (mid[i], mid[i]);
  for (i = 0; i < 8; i++)
    vb_position (px->pb[i], mb, &u[2 * i], &u[2 * i + 1]);
}

/* The midpoints between the ascending values of the blocks' palettes,
 * 8-value mode where a0 > a1 and 6-value mode elsewhere */
static inline void
palette_mid (V a0, V a1, V mid[7])
{
  V m8 = v_gt (a0, a1);
  V r8 = v_sub (a0, a1), r6 = v_sub (a1, a0), prev;
  gint j;

  prev = v_and (m8, a1);
  for (j = 1; j < 8; j++) {
    V l8 = j == 7 ? a0 : v_add (a1, DIV7 (v_mullo (r8, v_set1 (j))));
    V l6 = j == 1 ? a0 : (j == 6 ? a1 : (j == 7 ? v_set1 (255) :
            v_add (a0, DIV5 (v_mullo (r6, v_set1 (j - 1))))));
    V l = v_sel (m8, l8, l6);

    mid[j - 1] = v_srli (v_add (prev, l), 1);
    prev = l;
  }
}

/* the midpoints of 8-value mode (a0 >= a1) */
static inline void
mid8 (V a0, V a1, V mid[7])
{
  V r = v_sub (a0, a1), prev = a1;
  gint j;

  for (j = 0; j < 7; j++) {
    V next = v_add (a1, DIV7 (v_mullo (r, v_set1 (j + 1))));

    mid[j] = v_srli (v_add (prev, next), 1);
    prev = next;
  }
}

/* Sums over the pixels of a least-squares fit: count, positions u,
 * their squares, u * pixel and the pixels */
typedef struct
{
  V n, s1, s2, x, p;
} Sums;

/* 8-value mode, a0 > a1: squared error and the positions, and the sums of
 * the positions when @s is not NULL */
static inline V
eval8 (const Pixels * px, V a0, V a1, V u[16], Sums * s)
{
  V mid[7], r = v_sub (a0, a1), err = v_set1 (0);
  gint i;

  mid8 (a0, a1, mid);
  positions (px, mid, u);
  if (s != NULL)
    s->s1 = s->s2 = s->x = v_set1 (0);
  for (i = 0; i < 16; i++) {
    V d = v_sub (px->p[i], v_add (a1, DIV7 (v_mullo (u[i], r))));

    err = v_adds_u (err, v_mullo (d, d));
    if (s != NULL) {
      s->s1 = v_add (s->s1, u[i]);
      s->s2 = v_add (s->s2, v_mullo (u[i], u[i]));
      s->x = v_add (s->x, v_mullo (u[i], px->p[i]));
    }
  }
  return err;
}

/* 6-value mode, a0 <= a1: squared error and the positions, and when @s is
 * not NULL the sums over the pixels at positions 1..6 (a0 .. a1) with
 * u = position - 1 */
static inline V
eval6 (const Pixels * px, V a0, V a1, V u[16], Sums * s)
{
  const V zero = v_set1 (0), one = v_set1 (1), seven = v_set1 (7);
  V mid[7], r = v_sub (a1, a0), err = zero, out = zero;
  gint i;

  palette_mid (a0, a1, mid);
  positions (px, mid, u);
  if (s != NULL)
    s->s1 = s->s2 = s->x = s->p = zero;
  for (i = 0; i < 16; i++) {
    /* positions 0 and 7 are the fixed values 0 and 255 */
    V m0 = v_eq (u[i], zero), m7 = v_eq (u[i], seven);
    V t = v_min (v_max (v_sub (u[i], one), zero), v_set1 (5));
    V val = v_andnot (m0, v_add (a0, DIV5 (v_mullo (t, r))));
    V d;

    val = v_max (val, v_and (m7, v_set1 (255)));
    d = v_sub (px->p[i], val);
    err = v_adds_u (err, v_mullo (d, d));
    if (s != NULL) {
      V o = v_or (m0, m7);

      t = v_andnot (o, t);
      out = v_sub (out, o);
      s->s1 = v_add (s->s1, t);
      s->s2 = v_add (s->s2, v_mullo (t, t));
      s->x = v_add (s->x, v_mullo (t, px->p[i]));
      s->p = v_add (s->p, v_andnot (o, px->p[i]));
    }
  }
  if (s != NULL)
    s->n = v_sub (v_set1 (16), out);
  return err;
}

/* Least squares: the values lo + u (hi - lo) / steps nearest the pixels
 * for the positions u of the sums. Writes the rounded, clamped endpoints
 * and all ones in @ok where the system is not singular. In single
 * precision: every build does the same IEEE operations in the same order
 * (contraction is off), so they round alike. */
static void
solve (const Sums * s, gint steps, V * lo, V * hi, V * ok)
{
  gint16 n[VN], s1[VN], s2[VN], x[VN], p[VN], l[VN], h[VN], good[VN];
  const float st = (float) steps;
  gint k;

  v_storeu (n, s->n);
  v_storeu (s1, s->s1);
  v_storeu (s2, s->s2);
  v_storeu (x, s->x);
  v_storeu (p, s->p);
  LANES {
    /* hi weighs u, lo steps - u (times steps); every term below is an
     * integer under 2^24, exact in float, except the two numerators */
    float fs1 = (float) s1[k], fs2 = (float) s2[k], fx = (float) x[k];
    float aa = fs2;
    float ab = st * fs1 - fs2;
    float bb = st * st * (float) n[k] - 2.0f * st * fs1 + fs2;
    float x0 = fx;
    float x1 = st * (float) p[k] - fx;
    float det = aa * bb - ab * ab;
    gboolean good_k = det > 0.5f;
    float inv = st / (good_k ? det : 1.0f);
    float vh = (bb * x0 - ab * x1) * inv;
    float vl = (aa * x1 - ab * x0) * inv;

    vh = vh < 0.0f ? 0.0f : (vh > 255.0f ? 255.0f : vh);
    vl = vl < 0.0f ? 0.0f : (vl > 255.0f ? 255.0f : vl);
    h[k] = (gint16) (gint32) (vh + 0.5f);
    l[k] = (gint16) (gint32) (vl + 0.5f);
    good[k] = good_k ? -1 : 0;
  }
  *lo = v_loadu (l);
  *hi = v_loadu (h);
  *ok = v_loadu (good);
}

/* unsigned a < b for 16-bit lanes (errors are unsigned) */
static inline V
v_lt_u (V a, V b)
{
  const V bias = v_set1 (-32768);

  return v_gt (v_xor (b, bias), v_xor (a, bias));
}

/* The current result of VN blocks: endpoints, squared error, positions */
typedef struct
{
  V a0, a1, err, u[16];
} Best;

/* Keeps (c0, c1) and its positions where @better */
static inline void
take (V better, Best * b, V c0, V c1, V err, const V u[16])
{
  gint i;

  b->a0 = v_sel (better, c0, b->a0);
  b->a1 = v_sel (better, c1, b->a1);
  b->err = v_sel (better, err, b->err);
  if (u != NULL)
    for (i = 0; i < 16; i++)
      b->u[i] = v_sel (better, u[i], b->u[i]);
}

/* The moves of the neighbour search: (a0, a1) to (a0 + d0, a1 + d1) */
static const gint8 moves[][2] = {
  {-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1},
  {-2, 0}, {2, 0}, {0, -2}, {0, 2}, {-3, 0}, {3, 0}, {0, -3}, {0, 3},
};

/* One round of the neighbour search: the best of the pairs @moves away
 * from (a0, a1) (the first on a tie), kept where it lowers the error
 * (positions not kept). Returns the lanes that improved. @six: 6-value
 * mode (a0 <= a1), else 8-value (a0 > a1). */
static V
neighbours (const Pixels * px, gboolean six, Best * b)
{
  const V zero = v_set1 (0), top = v_set1 (255);
  V b0 = b->a0, b1 = b->a1, best = b->err, improved;
  guint m;

  for (m = 0; m < G_N_ELEMENTS (moves); m++) {
    V c0, c1, ok, e, u[16];

    c0 = v_min (v_max (v_add (b->a0, v_set1 (moves[m][0])), zero), top);
    c1 = v_min (v_max (v_add (b->a1, v_set1 (moves[m][1])), zero), top);
    /* stay in the mode: a pair that leaves it is the current one */
    ok = six ? v_gt (v_add (c1, v_set1 (1)), c0) : v_gt (c0, c1);
    c0 = v_sel (ok, c0, b->a0);
    c1 = v_sel (ok, c1, b->a1);
    e = six ? eval6 (px, c0, c1, u, NULL) : eval8 (px, c0, c1, u, NULL);
    ok = v_lt_u (e, best);
    b0 = v_sel (ok, c0, b0);
    b1 = v_sel (ok, c1, b1);
    best = v_sel (ok, e, best);
  }
  improved = v_lt_u (best, b->err);
  b->a0 = b0;
  b->a1 = b1;
  b->err = best;
  return improved;
}

/* The steps of encode_vec (), inlined into it. */

/* Least-squares refits of @b in 8-value mode (one for normal, two for
 * high), then, for high, the neighbour search. @s: the sums of the pixels
 * (16 of them), updated to those of the refit kept. */
static G_ALWAYS_INLINE inline void
fit8 (const Pixels * px, gint quality, Sums * s, Best * b)
{
  Sums t = *s;
  V u[16];
  gint it, iters = quality >= 2 ? 2 : 1;

  b->err = eval8 (px, b->a0, b->a1, b->u, s);
  for (it = 0; it < iters; it++) {
    V c0, c1, ok, e;
    gboolean last = it == iters - 1;

    solve (s, 7, &c1, &c0, &ok);
    ok = v_and (ok, v_gt (c0, c1));
    if (!v_any (ok))
      break;
    c0 = v_sel (ok, c0, b->a0);
    c1 = v_sel (ok, c1, b->a1);
    e = eval8 (px, c0, c1, u, last ? NULL : &t);
    ok = v_and (ok, v_lt_u (e, b->err));
    take (ok, b, c0, c1, e, u);
    if (!last) {
      s->s1 = v_sel (ok, t.s1, s->s1);
      s->s2 = v_sel (ok, t.s2, s->s2);
      s->x = v_sel (ok, t.x, s->x);
    }
  }
  if (quality >= 2) {
    for (it = 0; it < BC45_HIGH_ROUNDS; it++)
      if (!v_any (neighbours (px, FALSE, b)))
        break;
  }
}

/* The 6-value candidate on the lanes of @any (blocks with pixels at 0 or
 * 255), taken into @b where it is better: endpoints at the extremes of the
 * other pixels, one refit over the pixels between them, for high the
 * neighbour search. */
static G_ALWAYS_INLINE inline void
fit6 (const Pixels * px, gint quality, V any, Sums * s, Best * b)
{
  V lo, hi, none, e, ok, l, h, u[16];
  Best c;
  gint i, it;

  lo = v_set1 (255);
  hi = v_set1 (0);
  for (i = 0; i < 16; i++) {
    V p = px->p[i];

    lo = v_min (lo, v_or (p, v_and (v_eq (p, v_set1 (0)), v_set1 (255))));
    hi = v_max (hi, v_andnot (v_eq (p, v_set1 (255)), p));
  }
  none = v_gt (lo, hi);

  c.a0 = v_andnot (none, lo);
  c.a1 = v_andnot (none, hi);
  c.err = eval6 (px, c.a0, c.a1, c.u, s);
  solve (s, 5, &l, &h, &ok);
  ok = v_and (ok, v_gt (v_add (h, v_set1 (1)), l));
  if (v_any (ok)) {
    l = v_sel (ok, l, c.a0);
    h = v_sel (ok, h, c.a1);
    e = eval6 (px, l, h, u, NULL);
    ok = v_and (ok, v_lt_u (e, c.err));
    take (ok, &c, l, h, e, u);
  }
  if (quality >= 2) {
    for (it = 0; it < BC45_HIGH_ROUNDS; it++)
      if (!v_any (v_and (any, neighbours (px, TRUE, &c))))
        break;
  }
  ok = v_and (any, v_lt_u (c.err, b->err));
  take (ok, b, c.a0, c.a1, c.err, quality >= 2 ? NULL : c.u);
}

/* Codes from positions: in 8-value mode position j is code (8 - j) & 7
 * with 0 and 1 exchanged; in 6-value mode positions 0, 1 and 6 are codes
 * 6, 0 and 1, the others themselves. Flat blocks get codes 0. Writes lane
 * k at out + k * stride, for k < n. */
static G_ALWAYS_INLINE inline void
pack_codes (const Best * b, V flat, gint quality, guint n, guint8 * out,
    gsize stride)
{
  V m8 = v_gt (b->a0, b->a1), c[16];
  gboolean any6 = quality > 0 && v_any (v_andnot (flat, v_eq (m8,
              v_set1 (0))));
  guint64 blocks[VN];
  V cw[3];
  guint k;
  gint i;

  for (i = 0; i < 16; i++) {
    V u = b->u[i], v = v_and (v_sub (v_set1 (8), u), v_set1 (7));

    v = v_xor (v, v_and (v_gt (v_set1 (2), v), v_set1 (1)));
    if (any6) {
      V v6 = v_xor (v_and (v_eq (u, v_set1 (0)), v_set1 (6)),
          v_and (v_eq (u, v_set1 (1)), v_set1 (1)));

      v6 = v_xor (v_xor (v6, v_and (v_eq (u, v_set1 (6)), v_set1 (7))), u);
      v = v_sel (m8, v, v6);
    }
    c[i] = v_andnot (flat, v);
  }
  cw[0] = v_or (v_or (v_or (c[0], v_slli (c[1], 3)), v_or (v_slli (c[2], 6),
              v_slli (c[3], 9))), v_or (v_slli (c[4], 12), v_slli (c[5], 15)));
  cw[1] = v_or (v_or (v_or (v_srli (c[5], 1), v_slli (c[6], 2)),
          v_or (v_slli (c[7], 5), v_slli (c[8], 8))),
      v_or (v_slli (c[9], 11), v_slli (c[10], 14)));
  cw[2] = v_or (v_or (v_or (v_srli (c[10], 2), v_slli (c[11], 1)),
          v_or (v_slli (c[12], 4), v_slli (c[13], 7))),
      v_or (v_slli (c[14], 10), v_slli (c[15], 13)));
  pack_blocks (v_or (b->a0, v_slli (b->a1, 8)), cw[0], cw[1], cw[2], blocks);
  if (stride == 8) {
    memcpy (out, blocks, n * 8);
  } else {
    for (k = 0; k < n; k++)
      memcpy (out + k * stride, blocks + k, 8);
  }
}

/* Encodes the VN blocks at rows[y] (4 one-byte pixels each per row, or
 * with @shift >= 0 the byte at that bit position of 4-byte pixels); lane k
 * goes to out + k * stride, for k < n. */
static void
encode_vec (const guint8 * const rows[4], gint shift, gint quality, guint n,
    guint8 * out, gsize stride)
{
  Pixels px;
  Best b;
  V mn, mx, flat, any;
  Sums s;
  gint i;

  load_pixels (rows, shift, px.p);
  for (i = 0; i < 8; i++)
    px.pb[i] = vb_pack (px.p[2 * i], px.p[2 * i + 1]);
  mn = mx = px.p[0];
  for (i = 1; i < 16; i++) {
    mn = v_min (mn, px.p[i]);
    mx = v_max (mx, px.p[i]);
  }
  b.a0 = mx;
  b.a1 = mn;
  flat = v_eq (mn, mx);

  if (quality == 0) {
    V mid[7];

    mid8 (b.a0, b.a1, mid);
    positions (&px, mid, b.u);
  } else {
    s.n = v_set1 (16);
    s.p = px.p[0];
    for (i = 1; i < 16; i++)
      s.p = v_add (s.p, px.p[i]);
    fit8 (&px, quality, &s, &b);
    any = v_or (v_eq (mn, v_set1 (0)), v_eq (mx, v_set1 (255)));
    if (v_any (any))
      fit6 (&px, quality, any, &s, &b);
    if (quality >= 2) {
      /* the neighbour search keeps no positions */
      V mid[7];

      palette_mid (b.a0, b.a1, mid);
      positions (&px, mid, b.u);
    }
  }
  pack_codes (&b, flat, quality, n, out, stride);
}

void
BC_KERNEL_NAME (bc_kernel_bc4_rows) (const guint8 * const rows[4],
    guint n_blocks, gint quality, guint8 * out, gsize stride)
{
  guint b;

  for (b = 0; b < n_blocks; b += VN) {
    const guint8 *r[4] = { rows[0] + b * 4, rows[1] + b * 4, rows[2] + b * 4,
      rows[3] + b * 4
    };

    encode_vec (r, -1, quality, MIN (VN, n_blocks - b), out + b * stride,
        stride);
  }
}

void
BC_KERNEL_NAME (bc_kernel_bc5_rows) (const guint8 * const rows[4],
    guint n_blocks, gint quality, const gint shift[2], guint8 * out)
{
  guint b;
  gint c;

  for (b = 0; b < n_blocks; b += VN) {
    const guint8 *r[4] = { rows[0] + b * 16, rows[1] + b * 16,
      rows[2] + b * 16, rows[3] + b * 16
    };

    for (c = 0; c < 2; c++)
      encode_vec (r, shift[c], quality, MIN (VN, n_blocks - b),
          out + b * 16 + c * 8, 16);
  }
}


void
BC_KERNEL_NAME (bc_split2) (const guint8 * src, guint n_pixels,
    const gint shift[2], guint8 * dst0, guint8 * dst1)
{
  guint i = 0;

#if !defined (BC_KERNEL_PORTABLE) && defined (__AVX2__)
  {
    const __m128i s0 = _mm_cvtsi32_si128 (shift[0]);
    const __m128i s1 = _mm_cvtsi32_si128 (shift[1]);

    for (; i + 32 <= n_pixels; i += 32) {
      const __m256i *s = (const __m256i *) (src + i * 4);
      __m256i v[4];

      v[0] = _mm256_loadu_si256 (s);
      v[1] = _mm256_loadu_si256 (s + 1);
      v[2] = _mm256_loadu_si256 (s + 2);
      v[3] = _mm256_loadu_si256 (s + 3);
      _mm256_storeu_si256 ((__m256i *) (dst0 + i), bytes_at32 (v, s0));
      _mm256_storeu_si256 ((__m256i *) (dst1 + i), bytes_at32 (v, s1));
    }
  }
#endif
#if !defined (BC_KERNEL_PORTABLE) && defined (__SSE2__)
  {
    const __m128i s0 = _mm_cvtsi32_si128 (shift[0]);
    const __m128i s1 = _mm_cvtsi32_si128 (shift[1]);

    for (; i + 16 <= n_pixels; i += 16) {
      _mm_storeu_si128 ((__m128i *) (dst0 + i), bytes_of16 (src + i * 4, s0));
      _mm_storeu_si128 ((__m128i *) (dst1 + i), bytes_of16 (src + i * 4, s1));
    }
  }
#endif
  for (; i < n_pixels; i++) {
    dst0[i] = src[i * 4 + shift[0] / 8];
    dst1[i] = src[i * 4 + shift[1] / 8];
  }
}
