/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* BC1 and YCoCg-BC3 at quality=fast, in integers only: the speed of the
 * simplest real-time encoders with the palette choice of better ones.
 *
 * Colour blocks (fast_colour ()):
 *  1. the endpoints are the corners of the block's colour bounding box
 *     (maximum to minimum in every channel; van Waveren 2006; with two
 *     channels, YCoCg's Co and Cg, the other diagonal when they are
 *     anticorrelated), each inset by 1/16 of the box's extent (rounded
 *     down): BC1 spends two of its four levels on the ends, and inset ends
 *     fit the spread of a block better;
 *  2. they are rounded to the nearest 565 value under bit-replicated
 *     expansion (bc_quant5 (), bc_quant6 ());
 *  3. every pixel takes the palette entry (as decoders compute it) whose
 *     projection on the endpoint axis is nearest to its own: the axis is
 *     c0 - c1 of the expanded endpoints and a pixel's index is counted from
 *     the three midpoints between consecutive entries (stb_dxt's way);
 *  4. a block whose endpoints quantise to one colour (solid and near-solid
 *     blocks) takes the optimal single-colour endpoints for its mean
 *     (bc_tables), every pixel at the two-thirds point;
 *  5. bc_colour_words () orders the endpoints for 4-colour mode.
 *
 * On the benchmark's photographs BC1 fast is 0.27 dB below the
 * principal-axis fit normal starts from (38.12 against 38.39 dB) and 2.3 dB
 * above etcpak's bounding-box encoder; YCoCg-BC3 fast loses 0.2 dB
 * (44.38 against 44.57 dB); each costs a fraction of the float fit. All
 * arithmetic is on 16-bit integers (with bounds that keep every value in
 * range), lane-parallel over a batch: 16 lanes are one AVX2 vector. Every
 * build, and the GL encoder's shader (bc1-bc3.comp, in 32-bit ints),
 * computes the same blocks. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcencode-kernel.h"

#define L BC_LANES
#define LANES BC_FOR_LANES (L)

/* x / 3 for x <= 765 and x / 7 for x <= 1785, as 16-bit multiplies
 * (exact in those ranges) */
static inline guint16
div3 (guint16 x)
{
  return (guint16) (((guint32) x * 21846) >> 16);
}

static inline guint16
div7 (guint16 x)
{
  return (guint16) (((guint32) x * 9363) >> 16);
}

/* The colour block of the lanes of @p (three channels, 0..255), or, with
 * @fixed_blue, of their first two channels with blue fixed to
 * fixed_blue[k] in both endpoints (YCoCg: the scale code; the third
 * channel of @p is then not read). Lane k goes to out + k * @stride. */
static G_ALWAYS_INLINE inline void
fast_colour (const gint16 (*p)[16][L], const gint16 * fixed_blue,
    gboolean bc1, guint n_lanes, guint8 * out, gsize stride)
{
  const gint n_ch = fixed_blue ? 2 : 3;
  gint16 lo[3][L], hi[3][L], sum[3][L], dir[3][L], t1[L], t2[L], t3[L];
  guint16 idx[2][L];
  gint16 q0[3][L], q1[3][L], ea[3][L], eb[3][L], shift[L];
  gint16 s0[L], s1[L], s2[L], s3[L];
  guint32 words[L][2], single[L], n_single = 0;
  gint i, k, ch;

  /* 1. the bounding box, and the sums for the mean (at most 16 * 255) */
  for (ch = 0; ch < n_ch; ch++) {
    LANES {
      lo[ch][k] = hi[ch][k] = sum[ch][k] = p[ch][0][k];
    }
    for (i = 1; i < 16; i++) {
      LANES {
        gint16 v = p[ch][i][k];

        lo[ch][k] = v < lo[ch][k] ? v : lo[ch][k];
        hi[ch][k] = v > hi[ch][k] ? v : hi[ch][k];
        sum[ch][k] = (gint16) (sum[ch][k] + v);
      }
    }
  }

  /* 2. inset and quantised endpoints, the axis c0 - c1 and the midpoints
   * of the palette along it (entries in axis order: c1, (c0 + 2 c1) / 3,
   * (2 c0 + c1) / 3, c0). The axis is shifted down until its components'
   * magnitudes add up to 127 or less: a projection of a pixel on it then
   * fits in 16 bits, and so do the midpoints (sums of two projections of
   * palette entries, halved: 2 d > s + s' is d > (s + s') >> 1). */
  if (fixed_blue) {
    /* two channels: the box's other diagonal when they are
     * anticorrelated, the sign of sum (x0 - m0) * sign (x1 - m1) over the
     * pixels (a covariance with one factor's sign only: 16 bits suffice) */
    gint16 cov[L];

    LANES cov[k] = 0;
    for (i = 0; i < 16; i++) {
      LANES {
        gint16 d0 = (gint16) (16 * p[0][i][k] - sum[0][k]);
        gint16 d1 = (gint16) (16 * p[1][i][k] - sum[1][k]);

        cov[k] = (gint16) (cov[k] + (d1 > 0 ? d0 >> 4 : (d1 < 0 ?
                    -(d0 >> 4) : 0)));
      }
    }
    LANES {
      gint16 t = lo[0][k];

      lo[0][k] = cov[k] < 0 ? hi[0][k] : lo[0][k];
      hi[0][k] = cov[k] < 0 ? t : hi[0][k];
    }
  }
  for (ch = 0; ch < 3; ch++) {
    if (ch == 2 && fixed_blue) {
      LANES {
        q0[ch][k] = q1[ch][k] = fixed_blue[k];
        ea[ch][k] = eb[ch][k] = (gint16) bc_expand5 (fixed_blue[k]);
      }
      continue;
    }
    LANES {
      gint16 inset = (gint16) ((hi[ch][k] - lo[ch][k]) >> 4);

      gint16 v0 = (gint16) (hi[ch][k] - inset);
      gint16 v1 = (gint16) (lo[ch][k] + inset);

      q0[ch][k] = (gint16) (ch == 1 ? bc_quant6 (v0) : bc_quant5 (v0));
      q1[ch][k] = (gint16) (ch == 1 ? bc_quant6 (v1) : bc_quant5 (v1));
      ea[ch][k] = (gint16) (ch == 1 ? bc_expand6 (q0[ch][k]) :
          bc_expand5 (q0[ch][k]));
      eb[ch][k] = (gint16) (ch == 1 ? bc_expand6 (q1[ch][k]) :
          bc_expand5 (q1[ch][k]));
    }
  }
  LANES {
    gint16 d0 = (gint16) (ea[0][k] - eb[0][k]);
    gint16 d1 = (gint16) (ea[1][k] - eb[1][k]);
    gint16 d2 = (gint16) (ea[2][k] - eb[2][k]);
    gint16 l1 = (gint16) ((d0 < 0 ? -d0 : d0) + (d1 < 0 ? -d1 : d1) +
        (d2 < 0 ? -d2 : d2));

    shift[k] = (gint16) ((l1 > 124) + (l1 > 248) + (l1 > 496));
    s0[k] = s1[k] = s2[k] = s3[k] = 0;
  }
  for (ch = 0; ch < 3; ch++) {
    LANES {
      gint16 a = ea[ch][k], b = eb[ch][k];
      gint16 d = (gint16) ((a - b) >> shift[k]);
      guint16 m2 = (guint16) (2 * a + b), m3 = (guint16) (a + 2 * b);

      dir[ch][k] = d;
      s0[k] = (gint16) (s0[k] + a * d);
      s1[k] = (gint16) (s1[k] + b * d);
      s2[k] = (gint16) (s2[k] + (gint16) div3 (m2) * d);
      s3[k] = (gint16) (s3[k] + (gint16) div3 (m3) * d);
    }
  }
  LANES {
    /* floor ((s + s') / 2) without the 17-bit sum */
    t1[k] = (gint16) ((s1[k] >> 1) + (s3[k] >> 1) + (s1[k] & s3[k] & 1));
    t2[k] = (gint16) ((s3[k] >> 1) + (s2[k] >> 1) + (s3[k] & s2[k] & 1));
    t3[k] = (gint16) ((s2[k] >> 1) + (s0[k] >> 1) + (s2[k] & s0[k] & 1));
    idx[0][k] = idx[1][k] = 0;
  }

  /* 3. indices: the entries in axis order have the indices 1, 3, 2, 0,
   * so with c_m = (d > t_m) (the pixel is past midpoint m), the index's
   * high bit is c1 && !c3 and its low bit !c2 */
  for (i = 0; i < 16; i++) {
    LANES {
      gint16 d = (gint16) (p[0][i][k] * dir[0][k] + p[1][i][k] * dir[1][k] +
          (fixed_blue ? 0 : p[2][i][k] * dir[2][k]));
      guint16 c1 = d > t1[k], c2 = d > t2[k], c3 = d > t3[k];
      guint16 code = (guint16) (((c1 & (c3 ^ 1)) << 1) | (c2 ^ 1));

      idx[i >> 3][k] |= (guint16) (code << (2 * (i & 7)));
    }
  }

  /* 4. (a table lookup per channel, for the few lanes that need it) */
  LANES {
    single[k] = q0[0][k] == q1[0][k] && q0[1][k] == q1[1][k] &&
        q0[2][k] == q1[2][k];
    n_single += single[k];
  }
  for (k = 0; n_single > 0 && k < L; k++) {
    if (!single[k])
      continue;
    for (ch = 0; ch < n_ch; ch++) {
      guint32 t = (ch == 1 ? bc_tables.single6x :
          bc_tables.single5x)[(sum[ch][k] + 8) >> 4];

      q0[ch][k] = (gint32) (t & 0xff);
      q1[ch][k] = (gint32) ((t >> 8) & 0xff);
    }
  }

  /* 5. */
  LANES {
    guint32 c0 = (guint32) ((q0[0][k] << 11) | (q0[1][k] << 5) | q0[2][k]);
    guint32 c1 = (guint32) ((q1[0][k] << 11) | (q1[1][k] << 5) | q1[2][k]);
    guint32 ix = single[k] ? 0xAAAAAAAAu :
        (guint32) idx[0][k] | ((guint32) idx[1][k] << 16);

    bc_colour_words (c0, c1, ix, bc1, words[k]);
  }
  for (k = 0; k < (gint) n_lanes; k++)
    memcpy (out + k * stride, words[k], 8);
}

void
BC_KERNEL_NAME (bc_kernel_bc1_fast) (const BcBatchInt * batch, guint n_lanes,
    guint8 * out)
{
  fast_colour (batch->px, NULL, TRUE, n_lanes, out, 8);
}

/* YCoCg-BC3 at quality=fast. Y, Co and Cg as bcencode-kernels.c defines
 * them, in exact integers: y4 = R + 2G + B is 4 Y, co2 = R - B is 2 Co,
 * cg4 = 2G - R - B is 4 Cg.
 *  - Y, the alpha block: the block's minimum and maximum, rounded, as
 *    8-value-mode endpoints, every pixel at the nearest of the decoder's
 *    levels (counting the midpoints below it; ties go down): the same
 *    blocks as alpha_encode () at quality=fast, which computes in floats
 *    what is exact here;
 *  - Co and Cg, the colour block: scaled by 4, 2 or 1 (the largest that
 *    keeps them in range; blue holds the scale - 1), offset by 128 and
 *    rounded (halves up) to integers, then coded as BC1 fast codes red and
 *    green (fast_colour ()), in 4-colour mode. */
void
BC_KERNEL_NAME (bc_kernel_ycocg_fast) (const BcBatchInt * batch,
    guint n_lanes, guint8 * out)
{
  const gint16 (*p)[16][L] = batch->px;
  gint16 y4[16][L], c[3][16][L], m4[L], sc[L], mul[L], blue[L];
  gint16 lo[L], hi[L];
  gint16 a0[L], a1[L], mid[7][L];
  guint16 codes[16][L];
  guint32 words[L][2];
  gint i, j, k;

  LANES {
    m4[k] = 0;
    lo[k] = 1020;
    hi[k] = 0;
  }
  for (i = 0; i < 16; i++) {
    LANES {
      gint16 r = p[0][i][k], g = p[1][i][k], b = p[2][i][k];
      gint16 co2 = (gint16) (r - b), cg4 = (gint16) (2 * g - r - b);
      gint16 aco = (gint16) (co2 < 0 ? -2 * co2 : 2 * co2);
      gint16 acg = (gint16) (cg4 < 0 ? -cg4 : cg4);

      y4[i][k] = (gint16) (r + 2 * g + b);
      c[0][i][k] = co2;
      c[1][i][k] = cg4;
      m4[k] = aco > m4[k] ? aco : m4[k];
      m4[k] = acg > m4[k] ? acg : m4[k];
      lo[k] = y4[i][k] < lo[k] ? y4[i][k] : lo[k];
      hi[k] = y4[i][k] > hi[k] ? y4[i][k] : hi[k];
    }
  }
  /* max (|Co|, |Cg|) < 31.875 is 4 max < 127.5: scale 4 (shift 2) */
  LANES {
    sc[k] = (gint16) (m4[k] <= 127 ? 2 : (m4[k] <= 255 ? 1 : 0));
    mul[k] = (gint16) (1 << sc[k]);
    blue[k] = (gint16) (mul[k] - 1);
  }
  for (i = 0; i < 16; i++) {
    LANES {
      gint16 co = (gint16) (((gint16) (c[0][i][k] * mul[k]) + 1) >> 1);
      gint16 cg = (gint16) (((gint16) (c[1][i][k] * mul[k]) + 2) >> 2);

      co = (gint16) (co + 128);
      cg = (gint16) (cg + 128);

      c[0][i][k] = (gint16) (co < 0 ? 0 : (co > 255 ? 255 : co));
      c[1][i][k] = (gint16) (cg < 0 ? 0 : (cg > 255 ? 255 : cg));
    }
  }

  /* Y: levels l_j = (j a0 + (7 - j) a1) / 7; pixel y4 is past midpoint j
   * when y4 / 4 > (l_j + l_j+1) / 2 */
  LANES {
    gint16 l[8];

    a0[k] = (gint16) ((hi[k] + 2) >> 2);
    a1[k] = (gint16) ((lo[k] + 2) >> 2);
    for (j = 0; j < 8; j++)
      l[j] = (gint16) div7 ((guint16) (j * a0[k] + (7 - j) * a1[k]));
    for (j = 0; j < 7; j++)
      mid[j][k] = (gint16) (2 * (l[j] + l[j + 1]));
  }
  for (i = 0; i < 16; i++) {
    LANES {
      gint16 v = y4[i][k];
      guint16 n = (guint16) ((v > mid[0][k]) + (v > mid[1][k]) +
          (v > mid[2][k]) + (v > mid[3][k]) + (v > mid[4][k]) +
          (v > mid[5][k]) + (v > mid[6][k]));
      /* level 7 is code 0 (a0), level 0 code 1 (a1), level n code 8 - n:
       * (8 - n) & 7 with 0 and 1 swapped */
      guint16 code = (guint16) ((8 - n) & 7);

      codes[i][k] = (guint16) (code ^ (code < 2));
    }
  }
  /* a flat channel (a0 == a1) is code 0 everywhere, in 6-value mode */
  LANES {
    gboolean flat = a0[k] == a1[k];
    guint32 cl = 0, ch = 0;

    for (i = 0; i < 8; i++) {
      cl |= (guint32) codes[i][k] << (3 * i);
      ch |= (guint32) codes[i + 8][k] << (3 * i);
    }
    cl = flat ? 0 : cl;
    ch = flat ? 0 : ch;

    words[k][0] = GUINT32_TO_LE ((guint32) a0[k] | ((guint32) a1[k] << 8) |
        (cl << 16));
    words[k][1] = GUINT32_TO_LE ((cl >> 16) | (ch << 8));
  }
  for (k = 0; k < (gint) n_lanes; k++)
    memcpy (out + k * 16, words[k], 8);

  fast_colour ((const gint16 (*)[16][L]) c, blue, FALSE, n_lanes, out + 8, 16);
}
