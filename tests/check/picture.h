/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The synthetic test picture shared by the library and element tests. */

#ifndef __BC_TEST_PICTURE_H__
#define __BC_TEST_PICTURE_H__

#include <glib.h>
#include <math.h>

/* What test_picture () puts in alpha */
typedef enum
{
  TEST_ALPHA_OPAQUE,            /* 255 */
  TEST_ALPHA_WAVE,              /* a slow wave over the whole range */
  TEST_ALPHA_RAMP,              /* a fast diagonal ramp with noise */
} TestAlpha;

static inline guint32
test_lcg_next (guint32 * state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

/* A picture that looks a bit like a photograph: smooth gradients, hard
 * edges, texture and noise of up to +-@noise, the same for the same
 * arguments on every machine. */
static inline guint8 *
test_picture (guint width, guint height, guint32 seed, gint noise,
    TestAlpha alpha)
{
  guint8 *p = g_malloc ((gsize) width * height * 4);
  guint32 state = seed;
  guint x, y;

  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      guint8 *px = p + ((gsize) y * width + x) * 4;
      gdouble fx = (x + seed) / 37.0, fy = y / 23.0;
      gdouble base = 110 + 60 * sin (fx) * cos (fy * 0.7);
      gdouble edge = ((x / 29 + y / 17) % 3 == 0) ? 50 : 0;
      gint n = (gint) (test_lcg_next (&state) % (2 * noise + 1)) - noise;

      px[0] = CLAMP (base + edge + n + 30 * sin (fy * 1.3), 0, 255);
      px[1] = CLAMP (base * 0.8 + n + 40 * cos (fx * 0.5), 0, 255);
      px[2] = CLAMP (200 - base * 0.6 + edge / 2 + n, 0, 255);
      switch (alpha) {
        case TEST_ALPHA_OPAQUE:
          px[3] = 255;
          break;
        case TEST_ALPHA_WAVE:
          px[3] = CLAMP (128 + 127 * sin ((fx + fy) * 0.3), 0, 255);
          break;
        case TEST_ALPHA_RAMP:
          px[3] = (guint8) ((x * 7 + y * 3 + (n & 3)) & 0xff);
          break;
      }
    }
  }
  return p;
}

#endif /* __BC_TEST_PICTURE_H__ */
