/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstbchdr
 * @title: HDR output of BC6H
 * @short_description: BC6H's linear half floats to PQ and to SDR
 *
 * BC6H holds linear light as half floats, 1.0 being
 * %GST_BC_HDR_REFERENCE_WHITE (203 cd/m2, the HDR reference white of
 * ITU-R BT.2408); its primaries are the caps' (BT.2020 when the caps name
 * none). Two conversions make it displayable:
 *
 * - PQ: gst_bc_hdr_pq_from_half() gives the full-range 16-bit SMPTE ST 2084
 *   code of a value: `L = 203 * x` cd/m2 (negative values 0, clamped to
 *   10000), `Y = L / 10000`,
 *   `E = ((c1 + c2 * Y^m1) / (1 + c3 * Y^m1))^m2` with m1 = 2610 / 16384,
 *   m2 = 2523 / 4096 * 128, c1 = 3424 / 4096, c2 = 2413 / 4096 * 32,
 *   c3 = 2392 / 4096 * 32, and the code `floor (65535 * E + 0.5)`.
 * - SDR: gst_bc_hdr_tone_map() scales a pixel by the tone curve of its
 *   largest component (gst_bc_hdr_tone_curve()), which keeps its hue and
 *   never clips, then encodes each component with the sRGB transfer
 *   function (IEC 61966-2-1) to 8 bits, rounded to nearest.
 *
 * Both are computed in double precision: the PQ codes once for every half
 * float (a table), the tone curve for every pixel.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bchdr.h"
#include "bcdecode-private.h"

#include <math.h>

/* SMPTE ST 2084 */
#define PQ_M1 (2610.0 / 16384.0)
#define PQ_M2 (2523.0 / 4096.0 * 128.0)
#define PQ_C1 (3424.0 / 4096.0)
#define PQ_C2 (2413.0 / 4096.0 * 32.0)
#define PQ_C3 (2392.0 / 4096.0 * 32.0)

typedef struct
{
  guint16 pq[65536];
  /* srgb[k - 1]: the smallest linear value whose 8-bit sRGB code is k */
  gdouble srgb[255];
} BcHdrTables;

static BcHdrTables bc_hdr_tables;

/**
 * gst_bc_hdr_half_to_double:
 * @half: the bits of an IEEE 754 half float
 *
 * Returns: its value (infinities and NaN as such).
 */
gdouble
gst_bc_hdr_half_to_double (guint16 half)
{
  guint e = (half >> 10) & 0x1f, m = half & 0x3ff;
  gdouble v;

  if (e == 0)
    v = ldexp ((gdouble) m, -24);
  else if (e == 31)
    v = m ? NAN : INFINITY;
  else
    v = ldexp ((gdouble) (m | 0x400), (gint) e - 25);
  return (half & 0x8000) ? -v : v;
}

static guint16
pq_code (gdouble x)
{
  gdouble y, p, e;

  /* also NaN to 0 */
  if (!(x > 0.0))
    return 0;
  y = x * GST_BC_HDR_REFERENCE_WHITE / 10000.0;
  if (y >= 1.0)
    return 65535;
  p = pow (y, PQ_M1);
  e = pow ((PQ_C1 + PQ_C2 * p) / (1.0 + PQ_C3 * p), PQ_M2);
  return (guint16) floor (65535.0 * e + 0.5);
}

static gdouble
srgb_decode (gdouble v)
{
  return v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
}

static const BcHdrTables *
bc_hdr_get_tables (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    guint i;

    for (i = 0; i < 65536; i++)
      bc_hdr_tables.pq[i] = pq_code (gst_bc_hdr_half_to_double (i));
    for (i = 1; i < 256; i++)
      bc_hdr_tables.srgb[i - 1] = srgb_decode ((i - 0.5) / 255.0);
    g_once_init_leave (&done, 1);
  }
  return &bc_hdr_tables;
}

const guint16 *
bc_hdr_get_pq_table (void)
{
  return bc_hdr_get_tables ()->pq;
}

/**
 * gst_bc_hdr_pq_from_half:
 * @half: the bits of a half float, linear light with 1.0 =
 *     %GST_BC_HDR_REFERENCE_WHITE cd/m2
 *
 * Returns: its full-range 16-bit SMPTE ST 2084 (PQ) code: 0 for 0, negative
 * values and NaN, 65535 from 10000 cd/m2 on.
 */
guint16
gst_bc_hdr_pq_from_half (guint16 half)
{
  return bc_hdr_get_tables ()->pq[half];
}

/**
 * gst_bc_hdr_tone_curve:
 * @x: linear light, 1.0 = %GST_BC_HDR_REFERENCE_WHITE cd/m2
 *
 * The SDR tone curve: the identity up to the knee k =
 * %GST_BC_HDR_TONE_KNEE, then a Reinhard shoulder that joins it with the
 * same slope and tends to 1.0 (SDR white):
 * `f(x) = k + (1 - k) * t / (1 + t)` with `t = (x - k) / (1 - k)`.
 * The reference white maps to 0.9, 2.0 (406 cd/m2) to 0.971, 4.93
 * (1000 cd/m2) to 0.991.
 *
 * Returns: f(@x), from 0 (for @x <= 0 and NaN) to below 1.
 */
gdouble
gst_bc_hdr_tone_curve (gdouble x)
{
  const gdouble k = GST_BC_HDR_TONE_KNEE;
  gdouble t;

  if (!(x > 0.0))
    return 0.0;
  if (x <= k)
    return x;
  if (isinf (x))
    return 1.0;
  t = (x - k) / (1.0 - k);
  return k + (1.0 - k) * t / (1.0 + t);
}

static inline guint8
srgb_code (const gdouble * thresholds, gdouble v)
{
  guint lo = 0, hi = 255;

  /* the number of thresholds at or below v */
  while (lo < hi) {
    guint mid = (lo + hi) / 2;

    if (thresholds[mid] <= v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (guint8) lo;
}

/**
 * gst_bc_hdr_tone_map:
 * @rgb: (array fixed-size=3): a pixel's red, green and blue as half floats,
 *     linear light with 1.0 = %GST_BC_HDR_REFERENCE_WHITE cd/m2
 * @out: (out caller-allocates) (array fixed-size=3): its 8-bit sRGB code
 *     values
 *
 * Maps a pixel to SDR: negative components and NaN count as 0; with m the
 * largest component, each component c becomes `c * f(m) / m` (f:
 * gst_bc_hdr_tone_curve()), which keeps the ratios of the components and
 * stays below 1.0, then `round (255 * sRGB (c))` with the sRGB transfer
 * function `sRGB (c) = 12.92 c` for c <= 0.0031308, else
 * `1.055 c^(1/2.4) - 0.055`.
 */
void
gst_bc_hdr_tone_map (const guint16 rgb[3], guint8 out[3])
{
  const BcHdrTables *t = bc_hdr_get_tables ();
  gdouble c[3], m = 0.0, s;
  guint i;

  for (i = 0; i < 3; i++) {
    c[i] = gst_bc_hdr_half_to_double (rgb[i]);
    if (!(c[i] > 0.0))
      c[i] = 0.0;
    if (c[i] > m)
      m = c[i];
  }
  if (m == 0.0) {
    out[0] = out[1] = out[2] = 0;
    return;
  }
  if (isinf (m)) {
    /* +inf, which no BC6H block decodes to: 255 where infinite */
    for (i = 0; i < 3; i++)
      out[i] = isinf (c[i]) ? 255 : 0;
    return;
  }
  s = gst_bc_hdr_tone_curve (m) / m;
  for (i = 0; i < 3; i++)
    out[i] = srgb_code (t->srgb, c[i] * s);
}

/**
 * gst_bc_hdr_primaries_from_caps:
 * @caps: `video/x-bc` caps of BC6H
 *
 * Returns: the primaries the caps' colorimetry names, or
 * %GST_VIDEO_COLOR_PRIMARIES_BT2020 when they name none.
 */
GstVideoColorPrimaries
gst_bc_hdr_primaries_from_caps (const GstCaps * caps)
{
  GstVideoColorimetry cinfo;
  const gchar *str;

  g_return_val_if_fail (GST_IS_CAPS (caps), GST_VIDEO_COLOR_PRIMARIES_BT2020);

  if (gst_caps_get_size (caps) < 1)
    return GST_VIDEO_COLOR_PRIMARIES_BT2020;
  str = gst_structure_get_string (gst_caps_get_structure (caps, 0),
      "colorimetry");
  if (str == NULL || !gst_video_colorimetry_from_string (&cinfo, str)
      || cinfo.primaries == GST_VIDEO_COLOR_PRIMARIES_UNKNOWN)
    return GST_VIDEO_COLOR_PRIMARIES_BT2020;
  return cinfo.primaries;
}

/**
 * gst_bc_hdr_output_colorimetry:
 * @primaries: the primaries of the BC6H input
 * @pq: %TRUE for the PQ output (RGBA64_LE), %FALSE for the tone-mapped
 *     8-bit output
 * @colorimetry: (out caller-allocates): the colorimetry of the output
 *
 * Full-range RGB with @primaries, and the SMPTE ST 2084 transfer (@pq) or
 * the sRGB one.
 */
void
gst_bc_hdr_output_colorimetry (GstVideoColorPrimaries primaries, gboolean pq,
    GstVideoColorimetry * colorimetry)
{
  g_return_if_fail (colorimetry != NULL);

  colorimetry->range = GST_VIDEO_COLOR_RANGE_0_255;
  colorimetry->matrix = GST_VIDEO_COLOR_MATRIX_RGB;
  colorimetry->transfer = pq ? GST_VIDEO_TRANSFER_SMPTE2084 :
      GST_VIDEO_TRANSFER_SRGB;
  colorimetry->primaries = primaries;
}
