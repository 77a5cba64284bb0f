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
  const gint32 (*p)[16][L] = batch->px;
  gint32 lo[3][L], hi[3][L], sum[3][L], q0[3][L], q1[3][L], dir[3][L];
  gint32 t1[L], t2[L], t3[L];
  guint32 idx[L], words[L][2];
  gint i, k, ch;

  /* 1. the bounding box, and the sums for the mean */
  for (ch = 0; ch < 3; ch++) {
    LANES {
      lo[ch][k] = hi[ch][k] = sum[ch][k] = p[ch][0][k];
    }
    for (i = 1; i < 16; i++) {
      LANES {
        gint32 v = p[ch][i][k];

        lo[ch][k] = v < lo[ch][k] ? v : lo[ch][k];
        hi[ch][k] = v > hi[ch][k] ? v : hi[ch][k];
        sum[ch][k] += v;
      }
    }
  }

  /* 2. inset and quantised endpoints, the axis and the midpoints of the
   * palette along it (entries in axis order: c1, (c0 + 2 c1) / 3,
   * (2 c0 + c1) / 3, c0) */
  LANES {
    gint32 s0 = 0, s1 = 0, s2 = 0, s3 = 0;

    for (ch = 0; ch < 3; ch++) {
      gint32 inset = (hi[ch][k] - lo[ch][k]) >> 4;
      gint32 a, b;

      if (ch == 1) {
        q0[ch][k] = bc_quant (hi[ch][k] - inset, 6, 2, 4);
        q1[ch][k] = bc_quant (lo[ch][k] + inset, 6, 2, 4);
        a = bc_expand6 (q0[ch][k]);
        b = bc_expand6 (q1[ch][k]);
      } else {
        q0[ch][k] = bc_quant (hi[ch][k] - inset, 5, 3, 2);
        q1[ch][k] = bc_quant (lo[ch][k] + inset, 5, 3, 2);
        a = bc_expand5 (q0[ch][k]);
        b = bc_expand5 (q1[ch][k]);
      }
      dir[ch][k] = a - b;
      s0 += a * dir[ch][k];
      s1 += b * dir[ch][k];
      s2 += (2 * a + b) / 3 * dir[ch][k];
      s3 += (a + 2 * b) / 3 * dir[ch][k];
    }
    t1[k] = s1 + s3;
    t2[k] = s3 + s2;
    t3[k] = s2 + s0;
    idx[k] = 0;
  }

  /* 3. indices: n midpoints below the pixel's (doubled) projection give
   * the entry n in axis order, whose index is 1, 3, 2, 0 for n = 0..3 */
  for (i = 0; i < 16; i++) {
    LANES {
      gint32 d = 2 * (p[0][i][k] * dir[0][k] + p[1][i][k] * dir[1][k] +
          p[2][i][k] * dir[2][k]);
      guint32 n = (guint32) (d > t1[k]) + (guint32) (d > t2[k]) +
          (guint32) (d > t3[k]);
      guint32 code = (((n ^ (n >> 1)) & 1) << 1) | ((n >> 1) ^ 1);

      idx[k] |= code << (2 * i);
    }
  }

  /* 4. and 5. */
  LANES {
    gboolean single = q0[0][k] == q1[0][k] && q0[1][k] == q1[1][k] &&
        q0[2][k] == q1[2][k];
    guint32 c0, c1;

    for (ch = 0; ch < 3; ch++) {
      const guint32 *table = ch == 1 ? bc_tables.single6x :
          bc_tables.single5x;
      guint32 t = table[single ? (sum[ch][k] + 8) >> 4 : 0];

      q0[ch][k] = single ? (gint32) (t & 0xff) : q0[ch][k];
      q1[ch][k] = single ? (gint32) ((t >> 8) & 0xff) : q1[ch][k];
    }
    idx[k] = single ? 0xAAAAAAAAu : idx[k];
    c0 = (guint32) ((q0[0][k] << 11) | (q0[1][k] << 5) | q0[2][k]);
    c1 = (guint32) ((q1[0][k] << 11) | (q1[1][k] << 5) | q1[2][k]);
    bc_colour_words (c0, c1, idx[k], TRUE, words[k]);
  }
  for (k = 0; k < (gint) n_lanes; k++)
    memcpy (out + k * 8, words[k], 8);
}
