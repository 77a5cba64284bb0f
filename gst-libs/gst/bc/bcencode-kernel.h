/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the SIMD kernels (bcencode-kernels.c, bcencode-bc45.c,
 * bcencode-bc7.c) share: each is compiled once per instruction set, with
 * BC_KERNEL_SUFFIX naming the build (bcencode-private.h) and
 * BC_KERNEL_PORTABLE for the build without vector instructions. */

#ifndef __BC_ENCODE_KERNEL_H__
#define __BC_ENCODE_KERNEL_H__

#include "bcencode-private.h"

#include <string.h>

#ifndef BC_KERNEL_SUFFIX
#error "BC_KERNEL_SUFFIX must name the build"
#endif

/* a loop of the lane index k over 0..@n - 1; the SIMD builds vectorise it */
#ifdef BC_KERNEL_PORTABLE
#define BC_FOR_LANES(n) for (k = 0; k < (n); k++)
#else
#define BC_FOR_LANES(n) _Pragma ("omp simd") for (k = 0; k < (n); k++)
#endif

static inline float
clamp255 (float v)
{
  return v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v);
}

static inline gint32
bc_expand5 (gint32 q)
{
  return (q << 3) | (q >> 2);
}

static inline gint32
bc_expand6 (gint32 q)
{
  return (q << 2) | (q >> 4);
}

/* The 5- or 6-bit value whose bit-replicated expansion is nearest to the
 * integer 0 <= v <= 255 (ties go to the smaller value): these two
 * products are exactly that for every v (checked against a search of all
 * codes in tests/check/libs/bcencode.c), and stay below 2^14. */
static inline gint
bc_quant5 (gint v)
{
  return (v * 31 + 131) >> 8;
}

static inline gint
bc_quant6 (gint v)
{
  return (v * 63 + 129) >> 8;
}

/* The two words of an 8-byte colour block from 565 endpoints @c0, @c1 and
 * 2-bit indices @idx: 4-colour order (c0 > c1) by swapping endpoints and
 * indices; one colour (c0 == c1, every palette entry is c0): index 0
 * everywhere and, for @bc1, c1 = c0 - 1 (or c0 = 1, c1 = 0 and index 1 for
 * black) so the block stays in 4-colour mode (BC3 decodes 4-colour
 * always) */
static inline void
bc_colour_words (guint32 c0, guint32 c1, guint32 idx, gboolean bc1,
    guint32 words[2])
{
  guint32 lo = c0 < c1 ? c0 : c1, hi = c0 < c1 ? c1 : c0;
  gboolean same = c0 == c1;

  idx = c0 < c1 ? idx ^ 0x55555555u : idx;
  idx = same ? 0 : idx;
  lo = same && bc1 && hi > 0 ? hi - 1 : lo;
  idx = same && bc1 && hi == 0 ? 0x55555555u : idx;
  hi = same && bc1 && hi == 0 ? 1 : hi;
  words[0] = GUINT32_TO_LE (hi | (lo << 16));
  words[1] = GUINT32_TO_LE (idx);
}

#endif /* __BC_ENCODE_KERNEL_H__ */
