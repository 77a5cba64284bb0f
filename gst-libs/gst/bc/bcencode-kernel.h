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

#endif /* __BC_ENCODE_KERNEL_H__ */
