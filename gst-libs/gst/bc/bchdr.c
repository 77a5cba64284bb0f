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

/* ---------------------------------------------------------------------- */
/* HDR input: raw video to BC6H's linear half floats                      */
/* ---------------------------------------------------------------------- */

/* HLG (ARIB STD-B67, BT.2100) */
#define HLG_A 0.17883277
#define HLG_B 0.28466892
#define HLG_C 0.55991073
#define HLG_GAMMA 1.2

/* the HLG OOTF's Ys^(gamma - 1) is looked up by the bits of Ys as a float:
 * exponent and the 10 high mantissa bits, from 2^-24 to 1.0 */
#define OOTF_FIRST (103u << 10)
#define OOTF_LAST (127u << 10)

struct _GstBcHdrInput
{
  GstVideoFormat format;
  GstVideoTransferFunction transfer;
  guint bpp;
  /* PQ and linear: the half float of every code; HLG: NULL */
  guint16 *half;
  /* HLG: the scene light E (0 .. 1) of every code, the luminance weights
   * and the OOTF's factor Lw Ys^(gamma - 1) / 203 by the bits of Ys */
  gfloat *scene;
  gfloat ys[3];
  gfloat *ootf;
};

/**
 * gst_bc_hdr_half_from_float:
 * @v: a value
 *
 * Returns: the bits of the half float nearest @v (ties to even), the
 * largest finite half (65504) for larger values and infinity, 0 for NaN.
 */
guint16
gst_bc_hdr_half_from_float (gfloat v)
{
  union
  {
    gfloat f;
    guint32 u;
  } x;
  guint32 sign, e, m, half;

  x.f = v;
  sign = (x.u >> 16) & 0x8000;
  if ((x.u & 0x7fffffff) > 0x7f800000)
    return 0;
  x.u &= 0x7fffffff;
  if (x.f >= 65504.0f)
    return (guint16) (sign | 0x7bff);
  if (x.f < 6.103515625e-05f) {
    /* subnormal: the value in units of 2^-24, rounded to even */
    gfloat s = x.f * 16777216.0f;
    guint32 q = (guint32) s;
    gfloat r = s - (gfloat) q;

    if (r > 0.5f || (r == 0.5f && (q & 1)))
      q++;
    return (guint16) (sign | q);
  }
  e = ((x.u >> 23) & 0xff) - 127 + 15;
  m = x.u & 0x7fffff;
  half = (e << 10) | (m >> 13);
  m &= 0x1fff;
  if (m > 0x1000 || (m == 0x1000 && (half & 1)))
    half++;
  return (guint16) (sign | MIN (half, 0x7bffu));
}

/* the normalised signal (0 .. 1) of a code of @bits bits in @range */
static gdouble
signal_of_code (guint code, guint bits, GstVideoColorRange range)
{
  gdouble max = (gdouble) ((1u << bits) - 1);

  if (range == GST_VIDEO_COLOR_RANGE_16_235) {
    gdouble scale = (gdouble) (1u << (bits - 8));

    return CLAMP ((code - 16.0 * scale) / (219.0 * scale), 0.0, 1.0);
  }
  return code / max;
}

/* SMPTE ST 2084 EOTF: cd/m2 of the signal @e */
static gdouble
pq_eotf (gdouble e)
{
  gdouble p = pow (e, 1.0 / PQ_M2);
  gdouble num = MAX (p - PQ_C1, 0.0);

  return 10000.0 * pow (num / (PQ_C2 - PQ_C3 * p), 1.0 / PQ_M1);
}

/* BT.2100 HLG inverse OETF: scene light (0 .. 1) of the signal @e */
static gdouble
hlg_inverse_oetf (gdouble e)
{
  if (e <= 0.5)
    return e * e / 3.0;
  return (exp ((e - HLG_C) / HLG_A) + HLG_B) / 12.0;
}

/**
 * gst_bc_hdr_input_transfer_supported:
 * @transfer: a transfer function
 *
 * Returns: %TRUE for the transfers gst_bc_hdr_input_new() converts:
 * %GST_VIDEO_TRANSFER_SMPTE2084 (PQ), %GST_VIDEO_TRANSFER_ARIB_STD_B67
 * (HLG) and %GST_VIDEO_TRANSFER_GAMMA10 (linear).
 */
gboolean
gst_bc_hdr_input_transfer_supported (GstVideoTransferFunction transfer)
{
  return transfer == GST_VIDEO_TRANSFER_SMPTE2084 ||
      transfer == GST_VIDEO_TRANSFER_ARIB_STD_B67 ||
      transfer == GST_VIDEO_TRANSFER_GAMMA10;
}

/**
 * gst_bc_hdr_input_new:
 * @format: %GST_VIDEO_FORMAT_RGBA64_LE or %GST_VIDEO_FORMAT_RGB10A2_LE
 * @colorimetry: the input's colorimetry: its transfer and range are used
 *
 * Prepares the conversion of pixels of @format to BC6H's linear light,
 * 1.0 = %GST_BC_HDR_REFERENCE_WHITE (203 cd/m2), as half floats:
 *
 * - PQ (SMPTE ST 2084): the luminance of the code's EOTF / 203;
 * - HLG (ARIB STD-B67, BT.2100): the inverse OETF gives the scene light
 *   E of each channel, the BT.2100 OOTF for a display of
 *   %GST_BC_HDR_HLG_PEAK (1000 cd/m2, gamma 1.2, black 0) the display
 *   light `1000 Ys^0.2 E` with `Ys = 0.2627 R + 0.6780 G + 0.0593 B`
 *   (BT.2100's weights, whatever the primaries), then / 203; HLG's
 *   reference white (75 %) becomes 1.0;
 * - linear (GAMMA10): the code, from 0 to 1, is the value: 1.0 is the
 *   reference white and nothing is brighter.
 *
 * Codes are full range unless @colorimetry's range is 16-235 (then 16 and
 * 235, scaled to the code's bits, are 0 and 1). Alpha is dropped.
 *
 * Returns: (transfer full) (nullable): the conversion, or %NULL for
 * another format or transfer.
 */
GstBcHdrInput *
gst_bc_hdr_input_new (GstVideoFormat format,
    const GstVideoColorimetry * colorimetry)
{
  GstBcHdrInput *in;
  guint bits, n, i;

  g_return_val_if_fail (colorimetry != NULL, NULL);

  if (format == GST_VIDEO_FORMAT_RGBA64_LE)
    bits = 16;
  else if (format == GST_VIDEO_FORMAT_RGB10A2_LE)
    bits = 10;
  else
    return NULL;
  if (!gst_bc_hdr_input_transfer_supported (colorimetry->transfer))
    return NULL;

  in = g_new0 (GstBcHdrInput, 1);
  in->format = format;
  in->transfer = colorimetry->transfer;
  in->bpp = bits == 16 ? 8 : 4;
  n = 1u << bits;
  if (in->transfer == GST_VIDEO_TRANSFER_ARIB_STD_B67) {
    in->scene = g_new (gfloat, n);
    for (i = 0; i < n; i++)
      in->scene[i] = (gfloat) hlg_inverse_oetf (signal_of_code (i, bits,
              colorimetry->range));
    in->ys[0] = 0.2627f;
    in->ys[1] = 0.6780f;
    in->ys[2] = 0.0593f;
    in->ootf = g_new (gfloat, OOTF_LAST - OOTF_FIRST + 1);
    for (i = OOTF_FIRST; i <= OOTF_LAST; i++) {
      union
      {
        gfloat f;
        guint32 u;
      } y;

      /* the middle of the bucket */
      y.u = (i << 13) | 0x1000;
      in->ootf[i - OOTF_FIRST] = (gfloat) (GST_BC_HDR_HLG_PEAK *
          pow (MIN (y.f, 1.0f), HLG_GAMMA - 1.0) / GST_BC_HDR_REFERENCE_WHITE);
    }
  } else {
    in->half = g_new (guint16, n);
    for (i = 0; i < n; i++) {
      gdouble e = signal_of_code (i, bits, colorimetry->range);
      gdouble v = in->transfer == GST_VIDEO_TRANSFER_SMPTE2084 ?
          pq_eotf (e) / GST_BC_HDR_REFERENCE_WHITE : e;

      in->half[i] = gst_bc_hdr_half_from_float ((gfloat) v);
    }
  }
  return in;
}

/**
 * gst_bc_hdr_input_free:
 * @input: (transfer full): a #GstBcHdrInput
 */
void
gst_bc_hdr_input_free (GstBcHdrInput * input)
{
  if (input == NULL)
    return;
  g_free (input->half);
  g_free (input->scene);
  g_free (input->ootf);
  g_free (input);
}

/**
 * gst_bc_hdr_input_get_bpp:
 * @input: a #GstBcHdrInput
 *
 * Returns: the bytes of an input pixel (8 or 4).
 */
guint
gst_bc_hdr_input_get_bpp (const GstBcHdrInput * input)
{
  g_return_val_if_fail (input != NULL, 0);
  return input->bpp;
}

/**
 * gst_bc_hdr_input_get_tables: (skip)
 * @input: a #GstBcHdrInput
 * @n_codes: (out): the codes of a channel: 65536 (RGBA64_LE) or 1024
 *     (RGB10A2_LE)
 * @half: (out) (transfer none) (nullable): PQ and linear: the half float
 *     bits of every code (@n_codes entries); HLG: %NULL
 * @scene: (out) (transfer none) (nullable): HLG: the scene light E of
 *     every code (@n_codes entries); PQ and linear: %NULL
 * @ootf: (out) (transfer none) (nullable): HLG: the OOTF's factor
 *     `1000 Ys^0.2 / 203` by the bits of Ys as a float shifted right by 13,
 *     from @ootf_first on (@n_ootf entries); else %NULL
 * @ootf_first: (out): HLG: the shifted bits of ootf[0]'s Ys
 * @n_ootf: (out): HLG: the entries of @ootf, else 0
 * @ys: (out caller-allocates) (array fixed-size=3): HLG: the luminance
 *     weights of R, G and B; else 0
 *
 * The tables gst_bc_hdr_input_convert() converts through. PQ and linear:
 * each channel's code is looked up in @half. HLG: with `e` the @scene of
 * each channel's code and `y = ys[0] e[0] + ys[1] e[1] + ys[2] e[2]` in
 * single precision, the factor k is 0 where y's bits shifted right by 13
 * are below @ootf_first, else the @ootf entry of those bits (the last one
 * from there on), and each channel is the half float nearest `k e`
 * (gst_bc_hdr_half_from_float()). Exported for the GL encoder, which
 * uploads them so that its shader converts as the CPU does.
 */
void
gst_bc_hdr_input_get_tables (const GstBcHdrInput * input, guint * n_codes,
    const guint16 ** half, const gfloat ** scene, const gfloat ** ootf,
    guint * ootf_first, guint * n_ootf, gfloat ys[3])
{
  g_return_if_fail (input != NULL);

  *n_codes = input->bpp == 8 ? 65536 : 1024;
  *half = input->half;
  *scene = input->scene;
  *ootf = input->ootf;
  *ootf_first = input->ootf ? OOTF_FIRST : 0;
  *n_ootf = input->ootf ? OOTF_LAST - OOTF_FIRST + 1 : 0;
  ys[0] = input->ys[0];
  ys[1] = input->ys[1];
  ys[2] = input->ys[2];
}

/* gst_bc_hdr_half_from_float () with a shortcut for positive normal
 * halfs: the 13 dropped mantissa bits rounded to nearest even by an add */
static inline guint16
half_from_float_fast (gfloat v)
{
  union
  {
    gfloat f;
    guint32 u;
  } x;

  x.f = v;
  /* 2^-14 <= v < 65504 */
  if (x.u >= 0x38800000u && x.u < 0x477fe000u) {
    guint32 u = x.u + 0x0fffu + ((x.u >> 13) & 1u);

    return (guint16) ((u >> 13) - ((127u - 15u) << 10));
  }
  return gst_bc_hdr_half_from_float (v);
}

/* the HLG display light / 203 of scene light @e (three channels) */
static inline void
hlg_display (const GstBcHdrInput * in, const gfloat e[3], guint16 * out)
{
  union
  {
    gfloat f;
    guint32 u;
  } y;
  gfloat k;
  guint c;

  y.f = in->ys[0] * e[0] + in->ys[1] * e[1] + in->ys[2] * e[2];
  if (y.u < (OOTF_FIRST << 13))
    k = 0.0f;
  else
    k = in->ootf[MIN (y.u >> 13, OOTF_LAST) - OOTF_FIRST];
  for (c = 0; c < 3; c++)
    out[c] = half_from_float_fast (k * e[c]);
}

/**
 * gst_bc_hdr_input_convert:
 * @input: a #GstBcHdrInput
 * @src: @n_pixels pixels of the input format
 * @n_pixels: pixels to convert
 * @rgba: (out caller-allocates): 4 * @n_pixels half floats: red, green,
 *     blue as gst_bc_hdr_input_new() says, alpha 1.0
 *
 * Converts pixels to BC6H's linear light. Needs no allocation.
 */
void
gst_bc_hdr_input_convert (const GstBcHdrInput * input, const guint8 * src,
    guint n_pixels, guint16 * rgba)
{
  guint i, c;

  if (input->format == GST_VIDEO_FORMAT_RGBA64_LE) {
    if (input->half) {
      const guint16 *half = input->half;

      /* (one 64-bit load a pixel: the hot loop of bc6henc's input) */
      for (i = 0; i < n_pixels; i++, src += 8, rgba += 4) {
        guint64 v = GST_READ_UINT64_LE (src);

        rgba[0] = half[v & 0xffff];
        rgba[1] = half[(v >> 16) & 0xffff];
        rgba[2] = half[(v >> 32) & 0xffff];
        rgba[3] = 0x3c00;
      }
    } else {
      for (i = 0; i < n_pixels; i++, src += 8, rgba += 4) {
        gfloat e[3];

        for (c = 0; c < 3; c++)
          e[c] = input->scene[GST_READ_UINT16_LE (src + 2 * c)];
        hlg_display (input, e, rgba);
        rgba[3] = 0x3c00;
      }
    }
    return;
  }

  /* RGB10A2_LE: red in bits 0..9, green 10..19, blue 20..29 */
  for (i = 0; i < n_pixels; i++, src += 4, rgba += 4) {
    guint32 w = GST_READ_UINT32_LE (src);

    if (input->half) {
      for (c = 0; c < 3; c++)
        rgba[c] = input->half[(w >> (10 * c)) & 0x3ff];
    } else {
      gfloat e[3];

      for (c = 0; c < 3; c++)
        e[c] = input->scene[(w >> (10 * c)) & 0x3ff];
      hlg_display (input, e, rgba);
    }
    rgba[3] = 0x3c00;
  }
}
