/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* BC1 at quality=fast, in integers only: the speed of the simplest real-time
 * encoders with the palette choice of better ones.
 *
 *  1. the endpoints are the corners of the block's colour bounding box
 *     (maximum to minimum in every channel; van Waveren 2006), each inset by
 *     1/16 of the box's extent (rounded down): BC1 spends two of its four
 *     levels on the ends, and inset ends fit the spread of a block better;
 *  2. they are rounded to the nearest 565 value under bit-replicated
 *     expansion (bc_quant ());
 *  3. every pixel takes the palette entry (as decoders compute it) whose
 *     projection on the endpoint axis is nearest to its own: the axis is
 *     c0 - c1 of the expanded endpoints and a pixel's index is counted from
 *     the three midpoints between consecutive entries (stb_dxt's way);
 *  4. a block whose endpoints quantise to one colour (solid and near-solid
 *     blocks) takes the optimal single-colour endpoints for its mean
 *     (bc_tables), every pixel at the two-thirds point;
 *  5. bc_colour_words () orders the endpoints for 4-colour mode.
 *
 * On the benchmark's photographs this is 0.27 dB below the principal-axis
 * fit normal starts from (38.12 against 38.39 dB) and 2.3 dB above etcpak's
 * bounding-box encoder; the cost per block is a fraction of it. All
 * arithmetic is on 32-bit integers, lane-parallel over a batch, so every
 * build (and the GL encoder's shader, bc1-bc3.comp) computes the same
 * blocks. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcencode-kernel.h"

#define L BC_LANES
#define LANES BC_FOR_LANES (L)

void
BC_KERNEL_NAME (bc_kernel_bc1_fast) (const BcBatchInt * batch, guint n_lanes,
    guint8 * out)
{
  const gint16 (*p)[16][L] = batch->px;
  gint16 lo[3][L], hi[3][L], sum[3][L], dir[3][L], t1[L], t2[L], t3[L];
  guint16 idx[2][L];
  gint16 q0[3][L], q1[3][L], ea[3][L], eb[3][L], shift[L];
  gint16 s0[L], s1[L], s2[L], s3[L];
  guint32 words[L][2], single[L], n_single = 0;
  gint i, k, ch;

  /* 1. the bounding box, and the sums for the mean (at most 16 * 255) */
  for (ch = 0; ch < 3; ch++) {
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
  for (ch = 0; ch < 3; ch++) {
    const gint up = ch == 1 ? 2 : 3;
    const gint down = ch == 1 ? 4 : 2;

    LANES {
      gint16 inset = (gint16) ((hi[ch][k] - lo[ch][k]) >> 4);

      gint16 v0 = (gint16) (hi[ch][k] - inset);
      gint16 v1 = (gint16) (lo[ch][k] + inset);

      q0[ch][k] = (gint16) (ch == 1 ? bc_quant6 (v0) : bc_quant5 (v0));
      q1[ch][k] = (gint16) (ch == 1 ? bc_quant6 (v1) : bc_quant5 (v1));
      ea[ch][k] = (gint16) ((q0[ch][k] << up) | (q0[ch][k] >> down));
      eb[ch][k] = (gint16) ((q1[ch][k] << up) | (q1[ch][k] >> down));
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
      s2[k] = (gint16) (s2[k] + (gint16) (m2 / 3) * d);
      s3[k] = (gint16) (s3[k] + (gint16) (m3 / 3) * d);
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
          p[2][i][k] * dir[2][k]);
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
    for (ch = 0; ch < 3; ch++) {
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

    bc_colour_words (c0, c1, ix, TRUE, words[k]);
  }
  for (k = 0; k < (gint) n_lanes; k++)
    memcpy (out + k * 8, words[k], 8);
}
