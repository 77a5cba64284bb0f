/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstbcencode
 * @title: Block encoders
 * @short_description: CPU encoders for BC1, BC3, YCoCg-BC3, BC4, BC5, BC7
 *     and BC6H
 *
 * gst_bc_encode_rows() encodes block rows of a packed 8-bit RGB(A) picture,
 * or of a GRAY8 / GRAY16_LE one (see gst_bc_encode_layout_from_video_format()),
 * straight into a `video/x-bc` frame. Pictures whose size is not a multiple
 * of 4 are padded by repeating the last column and row (clamp-to-edge), so
 * the padding never widens a block's colour range. Different block rows can
 * be encoded concurrently from several threads.
 *
 * The kernels run on BC_LANES blocks at once and exist in four builds:
 * portable C, SSE2, AVX2 and AVX-512 (chosen at run time from the CPU and
 * OS; AVX-512 when the compiler can build it). All builds produce
 * identical blocks; gst_bc_encode_set_simd() limits the choice, for
 * tests and benchmarks.
 *
 * BC1 output always has c0 > c1 (4-colour mode). YCoCg-BC3 follows
 * van Waveren and Castano, "Real-Time YCoCg-DXT Compression" (2007): Y in
 * the alpha block, Co and Cg in red and green scaled by 1, 2 or 4, and the
 * scale minus one in blue.
 *
 * Channels of the other formats:
 *
 * - BC4 codes one channel: the grey value of GRAY8 input, of GRAY16_LE
 *   input scaled to 0..255 (value / 257, rounded to the nearest integer),
 *   and the luma of RGB input, (77 R + 150 G + 29 B + 128) >> 8 (BT.601
 *   weights in 8-bit fixed point).
 * - BC5 codes red in its first block and green in its second; blue and
 *   alpha are ignored. Grey input gives the grey value in both.
 * - BC7 codes RGBA; layouts without alpha are opaque (alpha 255), and a
 *   block whose alpha is 255 everywhere decodes to alpha 255 exactly. The
 *   modes it writes depend on the quality: fast mode 6; normal modes 1, 3
 *   and 6; high modes 0, 1, 2, 3 and 6. At every quality, solid blocks (one
 *   RGBA value) are written in mode 5 and decode exactly (see
 *   bcencode-bc7.c).
 *
 * BC6H, unsigned (%GST_BC_FORMAT_BC6H) or signed
 * (%GST_BC_FORMAT_BC6H_SF), is encoded from half floats, not from 8-bit
 * pixels: gst_bc_encode_block_half(), gst_bc_encode_rows_half(), and
 * gst_bc_encode_rows_hdr() for raw HDR video (PQ, HLG or linear, see
 * #GstBcHdrInput). fast writes one-region modes (11 to 14), normal and
 * high also two-region ones (see bcencode-bc6h.c). Signed blocks hold
 * negative values too, with one bit less of each endpoint's magnitude.
 * gst_bc_encode_format_supported() is about the 8-bit encoders and says
 * %FALSE for it.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "bcencode.h"
#include "bcencode-private.h"
#include "bcdecode-private.h"

#include <string.h>

BcTables bc_tables;

static inline gint
expand_bits (gint q, gint bits)
{
  return bits == 5 ? (q << 3) | (q >> 2) : (q << 2) | (q >> 4);
}

static void
fill_tables (gint bits, guint8 (*single)[2])
{
  gint n = 1 << bits;
  gint v, a, b;

  for (v = 0; v < 256; v++) {
    gint best_d = G_MAXINT, best_spread = G_MAXINT;

    /* optimal single colour: (2 * e(a) + e(b)) / 3, truncated as decoders
     * do; among equals prefer the closest endpoints, which are the most
     * robust to decoders that round differently */
    for (a = 0; a < n; a++) {
      for (b = 0; b < n; b++) {
        gint ea = expand_bits (a, bits), eb = expand_bits (b, bits);
        gint d = ABS ((2 * ea + eb) / 3 - v);
        gint spread = ABS (ea - eb);

        if (d < best_d || (d == best_d && spread < best_spread)) {
          best_d = d;
          best_spread = spread;
          single[v][0] = a;
          single[v][1] = b;
        }
      }
    }
  }
}

/* BC7 mode 5 with colour index 1 everywhere: for every value the pair of
 * 7-bit endpoints, among those that give it exactly, that are closest */
static void
fill_bc7_solid (guint8 (*solid)[2])
{
  gint v, a, b;

  for (v = 0; v < 256; v++) {
    gint best = G_MAXINT;

    for (a = 0; a < 128; a++) {
      for (b = 0; b < 128; b++) {
        gint ea = (a << 1) | (a >> 6), eb = (b << 1) | (b >> 6);
        gint d = ABS (((43 * ea + 21 * eb + 32) >> 6) - v) * 1024 +
            ABS (ea - eb);

        if (d < best) {
          best = d;
          solid[v][0] = a;
          solid[v][1] = b;
        }
      }
    }
  }
}

void
bc_encode_tables_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    gint v;

    fill_tables (5, bc_tables.single5);
    fill_tables (6, bc_tables.single6);
    for (v = 0; v < 256; v++) {
      guint a5 = bc_tables.single5[v][0], b5 = bc_tables.single5[v][1];
      guint a6 = bc_tables.single6[v][0], b6 = bc_tables.single6[v][1];
      guint e5 = (2 * ((a5 << 3) | (a5 >> 2)) + ((b5 << 3) | (b5 >> 2))) / 3;
      guint e6 = (2 * ((a6 << 2) | (a6 >> 4)) + ((b6 << 2) | (b6 >> 4))) / 3;

      bc_tables.single5x[v] = a5 | (b5 << 8) | (e5 << 16);
      bc_tables.single6x[v] = a6 | (b6 << 8) | (e6 << 16);
    }
    fill_bc7_solid (bc_tables.bc7_solid);
    g_once_init_leave (&done, 1);
  }
}

/**
 * gst_bc_encode_single_color_table:
 * @bits: 5 or 6, the bits of a BC1 endpoint channel
 *
 * The table the BC1 (and BC3 colour) encoders use for a block of one
 * colour: for every 8-bit value v, the endpoint channels (a, b) whose
 * two-thirds point (2 e(a) + e(b)) / 3, truncated as decoders do, is
 * closest to v; among equals the closest pair. Exported for the GL encoder,
 * which embeds it in its shader.
 *
 * Returns: (transfer none) (array fixed-size=512): 256 (a, b) pairs, or
 * %NULL for other @bits
 */
const guint8 *
gst_bc_encode_single_color_table (guint bits)
{
  bc_encode_tables_init ();
  if (bits == 5)
    return &bc_tables.single5[0][0];
  if (bits == 6)
    return &bc_tables.single6[0][0];
  return NULL;
}

/**
 * gst_bc_encode_bc7_tables:
 * @partitions2: (out) (optional) (transfer none) (array fixed-size=1024):
 *     the subset (0 or 1) of every pixel of the 64 two-subset partitions,
 *     16 bytes per partition
 * @partitions3: (out) (optional) (transfer none) (array fixed-size=1024):
 *     the same for the 64 three-subset partitions (0, 1 or 2)
 * @anchors2: (out) (optional) (transfer none) (array fixed-size=64): the
 *     anchor pixel of the second subset of each two-subset partition
 * @anchors3a: (out) (optional) (transfer none) (array fixed-size=64): the
 *     anchor pixel of the second subset of each three-subset partition
 * @anchors3b: (out) (optional) (transfer none) (array fixed-size=64): the
 *     anchor pixel of the third subset of each three-subset partition
 * @solid: (out) (optional) (transfer none) (array fixed-size=512): for
 *     every 8-bit value the 7-bit mode 5 endpoints (a, b) that the BC7
 *     encoder writes for a block of that value (colour index 1)
 *
 * The tables of the BC7 encoder. Exported for the GL encoder, which embeds
 * them in its shader.
 */
void
gst_bc_encode_bc7_tables (const guint8 ** partitions2,
    const guint8 ** partitions3, const guint8 ** anchors2,
    const guint8 ** anchors3a, const guint8 ** anchors3b, const guint8 ** solid)
{
  bc_encode_tables_init ();
  if (partitions2)
    *partitions2 = &bc7_partitions2[0][0];
  if (partitions3)
    *partitions3 = &bc7_partitions3[0][0];
  if (anchors2)
    *anchors2 = bc7_anchors2;
  if (anchors3a)
    *anchors3a = bc7_anchors3a;
  if (anchors3b)
    *anchors3b = bc7_anchors3b;
  if (solid)
    *solid = &bc_tables.bc7_solid[0][0];
}

const float bc6h_octave_weight[32] = {
  0.01577f, 0.01577f, 0.01577f, 0.01577f, 0.01577f, 0.0228f, 0.04282f,
  0.08042f, 0.151f, 0.2836f, 0.5325f, 1.0f, 0.9892f, 0.9689f, 0.9309f,
  0.8594f, 0.7252f, 0.4732f, 0.02f, 0.02f, 0.02f, 0.02f, 0.02f, 0.02f,
  0.02f, 0.02f, 0.02f, 0.02f, 0.02f, 0.02f, 0.02f, 0.02f,
};

/**
 * gst_bc_encode_bc6h_weights:
 *
 * The BC6H encoder's error weight of a channel value by its half float's
 * exponent: entry e weighs the values whose half float bits, shifted right
 * by 10, are e (see bcencode-bc6h.c). Exported for the GL encoder, which
 * embeds it in its shader.
 *
 * Returns: (transfer none) (array fixed-size=32): the 32 weights
 */
const gfloat *
gst_bc_encode_bc6h_weights (void)
{
  return bc6h_octave_weight;
}

/**
 * gst_bc_encode_bc6h_header_bits:
 *
 * The 82-bit headers of BC6H's two-region modes (1 to 10) bit by bit: entry
 * 82 (m - 1) + p says which bit bit p of a block of mode m holds, as the
 * field in the high 4 bits (0 to 11 the endpoint components R0, G0, B0, R1,
 * ... B3 as the encoder stores them: the first endpoint, then the others
 * or, in the transformed modes, their differences from it; 12 the
 * partition; 13 the mode number) and the bit of the field in the low 4.
 * Exported for the GL encoder, which embeds it in its shader.
 *
 * Returns: (transfer none) (array fixed-size=820): the table
 */
const guint8 *
gst_bc_encode_bc6h_header_bits (void)
{
  static guint8 bits[10][82];
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    guint row;

    for (row = 0; row < 10; row++) {
      const Bc6hMode *m = &bc6h_modes[row];
      const Bc6hSegment *sg;
      guint p = 0, k;

      for (k = 0; k < m->mode_bits; k++)
        bits[row][p++] = (guint8) (13 << 4 | k);
      for (sg = m->layout; sg->field != BC6H_END; sg++) {
        guint n = (sg->a >= sg->b ? sg->a - sg->b : sg->b - sg->a) + 1;

        /* (a < b: the bits go from b down) */
        for (k = 0; k < n; k++)
          bits[row][p++] = (guint8) (sg->field << 4 |
              (sg->a >= sg->b ? sg->b + k : sg->b - k));
      }
      g_assert (p == 82);
    }
    g_once_init_leave (&done, 1);
  }
  return &bits[0][0];
}

/* ------------------------------------------------------------------------ */
/* SIMD selection                                                            */

static gint simd_limit = GST_BC_SIMD_AVX512;    /* atomic */

static GstBcSimd
cpu_simd (void)
{
#ifdef HAVE_BC_SIMD_X86
  static gint level = -1;

  if (g_atomic_int_get (&level) < 0) {
    gint l = GST_BC_SIMD_SSE2;  /* x86-64 baseline */
    __builtin_cpu_init ();
    if (__builtin_cpu_supports ("avx2"))
      l = GST_BC_SIMD_AVX2;
#ifdef HAVE_BC_SIMD_AVX512
    /* libgcc checks that the OS saves the AVX-512 state too */
    if (__builtin_cpu_supports ("avx512f") &&
        __builtin_cpu_supports ("avx512vl") &&
        __builtin_cpu_supports ("avx512bw") &&
        __builtin_cpu_supports ("avx512dq"))
      l = GST_BC_SIMD_AVX512;
#endif
    g_atomic_int_set (&level, l);
  }
  return (GstBcSimd) g_atomic_int_get (&level);
#else
  return GST_BC_SIMD_NONE;
#endif
}

/**
 * gst_bc_encode_get_simd:
 *
 * Returns: the instruction set the encoders use now: the best the CPU has,
 * limited by gst_bc_encode_set_simd().
 */
GstBcSimd
gst_bc_encode_get_simd (void)
{
  return (GstBcSimd) MIN ((gint) cpu_simd (), g_atomic_int_get (&simd_limit));
}

/**
 * gst_bc_encode_set_simd:
 * @max_level: the best instruction set the encoders may use
 *
 * Limits the kernels, for instance to compare the portable C build with the
 * SIMD ones. Every level produces identical blocks. Process-wide.
 *
 * Returns: the level now in use (gst_bc_encode_get_simd()).
 */
GstBcSimd
gst_bc_encode_set_simd (GstBcSimd max_level)
{
  g_atomic_int_set (&simd_limit, CLAMP ((gint) max_level, GST_BC_SIMD_NONE,
          GST_BC_SIMD_AVX512));
  return gst_bc_encode_get_simd ();
}

const BcKernels *
bc_encode_get_kernels (void)
{
  bc_encode_tables_init ();
#ifdef HAVE_BC_SIMD_X86
  switch (gst_bc_encode_get_simd ()) {
#ifdef HAVE_BC_SIMD_AVX512
    case GST_BC_SIMD_AVX512:
      return &bc_kernels_avx512;
#endif
    case GST_BC_SIMD_AVX2:
      return &bc_kernels_avx2;
    case GST_BC_SIMD_SSE2:
      return &bc_kernels_sse2;
    default:
      break;
  }
#endif
  return &bc_kernels_c;
}

/* BC4 and BC5 have no BcKernelFunc: see encode_rows_bc45() */
static BcKernelFunc
get_kernel_from (const BcKernels * k, GstBcFormat format)
{
  switch (format) {
    case GST_BC_FORMAT_BC1:
      return k->bc1;
    case GST_BC_FORMAT_BC3:
      return k->bc3;
    case GST_BC_FORMAT_YCOCG_BC3:
      return k->ycocg_bc3;
    case GST_BC_FORMAT_BC7:
      return k->bc7;
    default:
      return NULL;
  }
}

GType
gst_bc_quality_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_BC_QUALITY_FAST, "Fast: the cheapest endpoint search (BC1, "
          "YCoCg-BC3: colour bounding box, integers only; BC3: principal "
          "axis; BC4/BC5: block minimum and maximum; BC7: mode 6 only; "
          "BC6H: one region)", "fast"},
    {GST_BC_QUALITY_NORMAL, "Normal: endpoints refined by least squares "
          "(BC4/BC5 also try the 6-value mode; BC7 and BC6H also try "
          "partitioned modes)", "normal"},
    {GST_BC_QUALITY_HIGH, "High: more starts, refinements and a search of "
          "neighbouring endpoints (BC7: the most modes and partitions); "
          "see each encoder's documentation", "high"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType tmp = g_enum_register_static ("GstBcQuality", values);
    g_once_init_leave (&type, tmp);
  }
  return type;
}

/**
 * gst_bc_encode_format_supported:
 * @format: a #GstBcFormat
 *
 * Returns: %TRUE when this library can encode @format.
 */
gboolean
gst_bc_encode_format_supported (GstBcFormat format)
{
  return format == GST_BC_FORMAT_BC1 || format == GST_BC_FORMAT_BC3 ||
      format == GST_BC_FORMAT_YCOCG_BC3 || format == GST_BC_FORMAT_BC4 ||
      format == GST_BC_FORMAT_BC5 || format == GST_BC_FORMAT_BC7;
}

/**
 * gst_bc_encode_layout_from_video_format:
 * @layout: (out caller-allocates): a #GstBcPixelLayout
 * @format: a raw video format
 *
 * Fills @layout for every input format gst_bc_encode_rows() reads: the
 * packed 8-bit RGB formats of gst_bc_pixel_layout_from_video_format(),
 * GRAY8 (@bpp 1, every channel offset 0) and GRAY16_LE (@bpp 2, every
 * channel offset 0: the pixel is one 16-bit little-endian value). Grey
 * input is read as R = G = B = the grey value, alpha 255.
 *
 * Returns: %FALSE for any other format.
 */
gboolean
gst_bc_encode_layout_from_video_format (GstBcPixelLayout * layout,
    GstVideoFormat format)
{
  static const GstBcPixelLayout gray8 = { 1, 0, 0, 0, -1, -1 };
  static const GstBcPixelLayout gray16 = { 2, 0, 0, 0, -1, -1 };

  g_return_val_if_fail (layout != NULL, FALSE);

  switch (format) {
    case GST_VIDEO_FORMAT_GRAY8:
      *layout = gray8;
      return TRUE;
    case GST_VIDEO_FORMAT_GRAY16_LE:
      *layout = gray16;
      return TRUE;
    default:
      return gst_bc_pixel_layout_from_video_format (layout, format);
  }
}

/* BT.601 luma in 8-bit fixed point (BC4 of RGB input) */
static inline guint8
luma_of (guint r, guint g, guint b)
{
  return (guint8) ((77 * r + 150 * g + 29 * b + 128) >> 8);
}

/**
 * gst_bc_encode_block:
 * @format: a #GstBcFormat gst_bc_encode_format_supported() accepts
 * @quality: speed/quality trade-off
 * @rgba: 16 RGBA pixels, row-major
 * @out: (out caller-allocates): gst_bc_format_get_block_bytes() bytes
 *
 * Encodes one block. Gives the same bytes as gst_bc_encode_rows() for the
 * same pixels in an RGBA layout (BC4: their luma).
 */
void
gst_bc_encode_block (GstBcFormat format, GstBcQuality quality,
    const guint8 rgba[64], guint8 * out)
{
  BcKernelFunc kernel;
  BcBatch batch;
  gint i, c, k;

  g_return_if_fail (rgba != NULL && out != NULL);
  if (format == GST_BC_FORMAT_BC4 || format == GST_BC_FORMAT_BC5) {
    guint8 ch[2][4][BC_BC45_BATCH * 4];
    const guint8 *rows[2][4];
    gint y, x;

    /* the block's rows, the remaining blocks of the batch copies of it */
    for (y = 0; y < 4; y++) {
      for (x = 0; x < BC_BC45_BATCH * 4; x++) {
        const guint8 *p = rgba + (y * 4 + x % 4) * 4;

        ch[0][y][x] = format == GST_BC_FORMAT_BC4 ? luma_of (p[0], p[1],
            p[2]) : p[0];
        ch[1][y][x] = p[1];
      }
      rows[0][y] = ch[0][y];
      rows[1][y] = ch[1][y];
    }
    quality = CLAMP (quality, GST_BC_QUALITY_FAST, GST_BC_QUALITY_HIGH);
    if (format == GST_BC_FORMAT_BC4) {
      bc_encode_get_kernels ()->bc4_rows (rows[0], 1, quality, out, 8);
    } else {
      bc_encode_get_kernels ()->bc4_rows (rows[0], 1, quality, out, 16);
      bc_encode_get_kernels ()->bc4_rows (rows[1], 1, quality, out + 8, 16);
    }
    return;
  }
  kernel = get_kernel_from (bc_encode_get_kernels (), format);
  g_return_if_fail (kernel != NULL);

  for (c = 0; c < 4; c++)
    for (i = 0; i < 16; i++)
      for (k = 0; k < BC_LANES; k++)
        batch.px[c][i][k] = rgba[i * 4 + c];
  kernel (&batch, 1, CLAMP (quality, GST_BC_QUALITY_FAST,
          GST_BC_QUALITY_HIGH), out);
}

/* The channel(s) BC4 or BC5 code of @n pixels from @src: dst0 the grey
 * value, luma or red, dst1 (BC5) the grey value or green */
static void
channels_bc45 (const BcKernels * kernels, gboolean bc5,
    const GstBcPixelLayout * lo, const guint8 * src, guint n, guint8 * dst0,
    guint8 * dst1)
{
  guint i;

  switch (lo->bpp) {
    case 1:
      memcpy (dst0, src, n);
      if (bc5)
        memcpy (dst1, src, n);
      return;
    case 2:
      for (i = 0; i < n; i++)
        dst0[i] = (GST_READ_UINT16_LE (src + i * 2) + 128) / 257;
      if (bc5)
        memcpy (dst1, dst0, n);
      return;
    default:
      break;
  }
  if (!bc5) {
    const guint bpp = lo->bpp;
    const gint r = lo->r, g = lo->g, b = lo->b;

    for (i = 0; i < n; i++, src += bpp)
      dst0[i] = luma_of (src[r], src[g], src[b]);
  } else if (lo->bpp == 4) {
    const gint shift[2] = { lo->r * 8, lo->g * 8 };

    kernels->split2 (src, n, shift, dst0, dst1);
  } else {
    for (i = 0; i < n; i++, src += lo->bpp) {
      dst0[i] = src[lo->r];
      dst1[i] = src[lo->g];
    }
  }
}

/* BC4 and BC5: block rows of one-byte channels. GRAY8 BC4 input and BC5
 * of 4-byte pixels are read in place, except for a last, partial batch;
 * other input is converted one batch of blocks at a time. */
static void
encode_rows_bc45 (const BcKernels * kernels, GstBcFormat format,
    gint quality, const guint8 * src, gsize src_stride, guint width,
    guint height, const GstBcPixelLayout * lo, guint first_block_row,
    guint n_block_rows, guint8 * dst)
{
  const gboolean bc5 = format == GST_BC_FORMAT_BC5;
  const gsize block_bytes = bc5 ? 16 : 8;
  const guint blocks_x = (width + 3) / 4;
  const guint batch_px = BC_BC45_BATCH * 4;
  /* blocks read in place: whole batches inside the picture, of GRAY8 (BC4)
   * or 4-byte pixels (BC5) */
  const guint direct = (!bc5 && lo->bpp == 1) || (bc5 && lo->bpp == 4) ?
      width / batch_px * BC_BC45_BATCH : 0;
  const gint shift[2] = { lo->r * 8, lo->g * 8 };
  guint8 ch[2][4][BC_BC45_BATCH * 4];
  const guint8 *crows[2][4] = {
    {ch[0][0], ch[0][1], ch[0][2], ch[0][3]},
    {ch[1][0], ch[1][1], ch[1][2], ch[1][3]}
  };
  guint by, bx, y, x;

  for (by = first_block_row; by < first_block_row + n_block_rows; by++) {
    guint8 *out = dst + (gsize) by * blocks_x * block_bytes;
    const guint8 *rows[4];

    for (y = 0; y < 4; y++)
      rows[y] = src + (gsize) MIN (by * 4 + y, height - 1) * src_stride;
    if (direct > 0 && bc5)
      kernels->bc5_rows (rows, direct, quality, shift, out);
    else if (direct > 0)
      kernels->bc4_rows (rows, direct, quality, out, block_bytes);

    /* the rest, batch by batch, the last pixel repeated */
    for (bx = direct; bx < blocks_x; bx += BC_BC45_BATCH) {
      guint x0 = bx * 4, npx = MIN (width - x0, batch_px);
      guint nb = MIN (BC_BC45_BATCH, blocks_x - bx);
      gsize off = (gsize) x0 * lo->bpp;

      for (y = 0; y < 4; y++) {
        channels_bc45 (kernels, bc5, lo, rows[y] + off, npx, ch[0][y],
            ch[1][y]);
        for (x = npx; x < batch_px; x++) {
          ch[0][y][x] = ch[0][y][npx - 1];
          ch[1][y][x] = ch[1][y][npx - 1];
        }
      }
      kernels->bc4_rows (crows[0], nb, quality, out + bx * block_bytes,
          block_bytes);
      if (bc5)
        kernels->bc4_rows (crows[1], nb, quality, out + bx * block_bytes + 8,
            block_bytes);
    }
  }
}

/* Fills lanes of @batch with blocks bx0 .. bx0 + n - 1 of block row @by;
 * the remaining lanes repeat the last block. */
static void
gather (BcBatch * batch, const guint8 * src, gsize stride, guint width,
    guint height, const GstBcPixelLayout * lo, gboolean need_alpha,
    guint by, guint bx0, guint n)
{
  guint k, x, y;
  const gint r = lo->r, g = lo->g, b = lo->b, a = lo->a;
  const guint bpp = lo->bpp;

  if (bpp <= 2) {
    /* grey: one 8-bit value, or one 16-bit little-endian value scaled to
     * 0..255 */
    for (y = 0; y < 4; y++) {
      guint sy = MIN (by * 4 + y, height - 1);
      const guint8 *row = src + (gsize) sy * stride;

      for (k = 0; k < BC_LANES; k++) {
        guint bx = bx0 + MIN (k, n - 1);

        for (x = 0; x < 4; x++) {
          const guint8 *p = row + (gsize) MIN (bx * 4 + x, width - 1) * bpp;
          float v = bpp == 1 ? (float) p[0] :
              (float) GST_READ_UINT16_LE (p) / 257.0f;

          batch->px[0][y * 4 + x][k] = v;
          batch->px[1][y * 4 + x][k] = v;
          batch->px[2][y * 4 + x][k] = v;
          if (need_alpha)
            batch->px[3][y * 4 + x][k] = 255.0f;
        }
      }
    }
    return;
  }

  for (y = 0; y < 4; y++) {
    guint sy = MIN (by * 4 + y, height - 1);
    const guint8 *row = src + (gsize) sy * stride;

    for (k = 0; k < BC_LANES; k++) {
      guint bx = bx0 + MIN (k, n - 1);
      guint sx0 = bx * 4;

      if (sx0 + 3 < width) {
        const guint8 *p = row + (gsize) sx0 * bpp;
        for (x = 0; x < 4; x++, p += bpp) {
          batch->px[0][y * 4 + x][k] = p[r];
          batch->px[1][y * 4 + x][k] = p[g];
          batch->px[2][y * 4 + x][k] = p[b];
        }
        if (need_alpha) {
          p = row + (gsize) sx0 *bpp;
          for (x = 0; x < 4; x++, p += bpp)
            batch->px[3][y * 4 + x][k] = a >= 0 ? p[a] : 255;
        }
      } else {
        for (x = 0; x < 4; x++) {
          const guint8 *p = row + (gsize) MIN (sx0 + x, width - 1) * bpp;
          batch->px[0][y * 4 + x][k] = p[r];
          batch->px[1][y * 4 + x][k] = p[g];
          batch->px[2][y * 4 + x][k] = p[b];
          if (need_alpha)
            batch->px[3][y * 4 + x][k] = a >= 0 ? p[a] : 255;
        }
      }
    }
  }
}

/* gather () into @ibatch (through @batch) */
static void
gather_int (BcBatchInt * ibatch, BcBatch * batch, const guint8 * src,
    gsize stride, guint width, guint height, const GstBcPixelLayout * layout,
    guint by, guint bx0, guint n)
{
  guint c, i, k;

  gather (batch, src, stride, width, height, layout, FALSE, by, bx0, n);
  for (c = 0; c < 3; c++)
    for (i = 0; i < 16; i++)
      for (k = 0; k < BC_LANES; k++)
        ibatch->px[c][i][k] = (gint16) (batch->px[c][i][k] + 0.5f);
}

/**
 * gst_bc_encode_rows:
 * @format: a #GstBcFormat gst_bc_encode_format_supported() accepts
 * @quality: speed/quality trade-off
 * @src: the picture's first pixel
 * @src_stride: bytes from one picture row to the next
 * @width: picture width, at least 1
 * @height: picture height, at least 1
 * @layout: where the channels are in a pixel (see
 *     gst_bc_encode_layout_from_video_format())
 * @first_block_row: first block row to encode
 * @n_block_rows: block rows to encode
 * @dst: the start of the whole encoded frame (block row `n` is written at
 *     `dst + n * row_bytes`)
 *
 * Encodes block rows of a picture. Alpha is used by BC3 and BC7 only (255
 * when @layout has none). BC4 codes the grey value of grey layouts and the
 * luma of RGB ones, BC5 red and green. Thread-safe for disjoint block rows.
 */
void
gst_bc_encode_rows (GstBcFormat format, GstBcQuality quality,
    const guint8 * src, gsize src_stride, guint width, guint height,
    const GstBcPixelLayout * layout, guint first_block_row,
    guint n_block_rows, guint8 * dst)
{
  guint blocks_y;

  g_return_if_fail (src != NULL && dst != NULL && layout != NULL);
  g_return_if_fail (width > 0 && height > 0);
  g_return_if_fail (layout->bpp >= 1 && layout->bpp <= 4);
  g_return_if_fail (src_stride >= (gsize) width * layout->bpp);
  g_return_if_fail (gst_bc_encode_format_supported (format));

  blocks_y = (height + 3) / 4;
  g_return_if_fail (first_block_row <= blocks_y);
  g_return_if_fail (n_block_rows <= blocks_y - first_block_row);

  bc_encode_rows_unchecked (bc_encode_get_kernels (), format, quality, src,
      src_stride, width, height, layout, first_block_row, n_block_rows, dst);
}

void
bc_encode_rows_unchecked (const BcKernels * kernels, GstBcFormat format,
    GstBcQuality quality, const guint8 * src, gsize src_stride, guint width,
    guint height, const GstBcPixelLayout * layout, guint first_block_row,
    guint n_block_rows, guint8 * dst)
{
  BcKernelFunc kernel;
  guint blocks_x, block_bytes, by, bx, y;
  gsize row_bytes;
  gboolean need_alpha;
  gint shift[4];
  BcBatch batch;
  BcBatchInt ibatch;
  BcFastFunc fast;

  blocks_x = (width + 3) / 4;
  quality = CLAMP (quality, GST_BC_QUALITY_FAST, GST_BC_QUALITY_HIGH);

  if (format == GST_BC_FORMAT_BC4 || format == GST_BC_FORMAT_BC5) {
    encode_rows_bc45 (kernels, format, quality, src, src_stride, width,
        height, layout, first_block_row, n_block_rows, dst);
    return;
  }
  kernel = get_kernel_from (kernels, format);
  g_return_if_fail (kernel != NULL);

  block_bytes = gst_bc_format_get_block_bytes (format);
  row_bytes = (gsize) blocks_x *block_bytes;
  need_alpha = format == GST_BC_FORMAT_BC3 || format == GST_BC_FORMAT_BC7;
  /* BC1 and YCoCg-BC3 fast: integer batches (bcencode-fast.c) */
  fast = quality != GST_BC_QUALITY_FAST ? NULL :
      (format == GST_BC_FORMAT_BC1 ? kernels->bc1_fast :
      (format == GST_BC_FORMAT_YCOCG_BC3 ? kernels->ycocg_fast : NULL));
  /* bit positions of the channels in a little-endian 32-bit pixel */
  shift[0] = layout->r * 8;
  shift[1] = layout->g * 8;
  shift[2] = layout->b * 8;
  shift[3] = layout->a >= 0 ? layout->a * 8 : -1;

  for (by = first_block_row; by < first_block_row + n_block_rows; by++) {
    guint8 *out = dst + (gsize) by * row_bytes;

    for (bx = 0; bx < blocks_x; bx += BC_LANES) {
      guint n = MIN (BC_LANES, blocks_x - bx);
      gboolean whole = layout->bpp == 4 && (bx + BC_LANES) * 4 <= width;
      const guint8 *rows[4];

      for (y = 0; whole && y < 4; y++)
        rows[y] = src + (gsize) MIN (by * 4 + y, height - 1) * src_stride +
            (gsize) bx *4 * layout->bpp;
      if (fast) {
        if (whole)
          kernels->gather4_int (&ibatch, rows, shift);
        else
          gather_int (&ibatch, &batch, src, src_stride, width, height, layout,
              by, bx, n);
        fast (&ibatch, n, out + (gsize) bx * block_bytes);
        continue;
      }
      if (whole)
        kernels->gather4 (&batch, rows, shift, need_alpha);
      else
        gather (&batch, src, src_stride, width, height, layout, need_alpha,
            by, bx, n);
      kernel (&batch, n, quality, out + (gsize) bx * block_bytes);
    }
  }
}

/* ------------------------------------------------------------------------ */
/* BC6H                                                                      */

/* BC6H is encoded this many pixels of four rows at a time (16 blocks):
 * fast's converted rows stay in the first-level cache. normal takes
 * BC6H_CHUNK_NORMAL (256 blocks): within a call it gathers the blocks that
 * need two regions into vector lanes, and its last gathering runs with
 * the lanes it has (with 16 blocks a call, 6 of 16 lanes were filled on
 * average on the dragonfly and fig benchmark photographs) */
#define BC6H_CHUNK 64
#define BC6H_CHUNK_NORMAL 1024

/* BC6H block rows of RGBA half floats (@input NULL: 8 bytes a pixel, read
 * in place where whole blocks allow) or of raw HDR video converted on the
 * way, a chunk of pixels of each of the four rows at a time; with @yuv, the
 * rows are those of a YUV picture (@planes, @strides; @src unused),
 * converted to RGBA64_LE (@input's format) chunk by chunk first */
void
bc_encode_rows_bc6h (const BcKernels * kernels, const GstBcHdrInput * input,
    const BcYuvParams * yuv, const guint8 * const planes[3],
    const gsize strides[3], GstBcFormat format, GstBcQuality quality,
    const guint8 * src, gsize src_stride, guint width, guint height,
    guint first_block_row, guint n_block_rows, guint8 * dst)
{
  const gboolean is_signed = format == GST_BC_FORMAT_BC6H_SF;
  const guint bpp = input ? gst_bc_hdr_input_get_bpp (input) : 8;
  const guint blocks_x = (width + 3) / 4;
  guint chunk, by, x0, y, x;
  guint16 *buf, *ybuf = NULL;

  quality = CLAMP (quality, GST_BC_QUALITY_FAST, GST_BC_QUALITY_HIGH);
  chunk = quality == GST_BC_QUALITY_FAST ? BC6H_CHUNK : BC6H_CHUNK_NORMAL;
  chunk = MIN (chunk, blocks_x * 4);
  /* the rows in half floats, then (YUV) the converted rows */
  buf = g_new (guint16, (yuv ? 2 : 1) * 4 * chunk * 4);
  if (yuv)
    ybuf = buf + 4 * chunk * 4;
  for (by = first_block_row; by < first_block_row + n_block_rows; by++) {
    guint8 *out = dst + (gsize) by * blocks_x * 16;
    const guint n_rows = MIN (4, height - by * 4);
    const guint8 *rows[4];

    for (y = 0; y < 4; y++)
      rows[y] = yuv ? (const guint8 *) (ybuf + MIN (y, n_rows - 1) * chunk * 4)
          : src + (gsize) MIN (by * 4 + y, height - 1) * src_stride;
    for (x0 = 0; x0 < width; x0 += chunk) {
      guint npx = MIN (chunk, width - x0), nb = (npx + 3) / 4;
      const guint16 *rows16[4];

      if (yuv) {
        for (x = 0; x < npx; x += BC_YUV_CHUNK)
          kernels->yuv_rows (yuv, planes, strides, by * 4, n_rows, x0 + x,
              MIN (BC_YUV_CHUNK, npx - x), (guint8 *) (ybuf + x * 4),
              (gsize) chunk * 8);
      }
      for (y = 0; y < 4; y++) {
        const guint8 *p = rows[y] + (yuv ? 0 : (gsize) x0 * bpp);
        guint16 *b = buf + y * chunk * 4;

        if (!input && npx % 4 == 0 && ((guintptr) p & 1) == 0 &&
            G_BYTE_ORDER == G_LITTLE_ENDIAN) {
          rows16[y] = (const guint16 *) p;
          continue;
        }
        if (input)
          gst_bc_hdr_input_convert (input, p, npx, b);
        else
          memcpy (b, p, (gsize) npx * 8);
        /* the last column repeated to a whole block */
        for (x = npx; x < nb * 4; x++)
          memcpy (b + x * 4, b + (npx - 1) * 4, 8);
        rows16[y] = b;
      }
      kernels->bc6h (rows16, nb, quality, is_signed, out + (gsize) x0 / 4 * 16);
    }
  }
  g_free (buf);
}

/* the checks of the rows functions */
static gboolean
bc6h_args_valid (GstBcFormat format, const guint8 * src, gsize src_stride,
    guint width, guint height, guint bpp, guint first_block_row,
    guint n_block_rows, guint8 * dst)
{
  guint blocks_y;

  g_return_val_if_fail (gst_bc_format_is_float (format), FALSE);
  g_return_val_if_fail (src != NULL && dst != NULL, FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);
  g_return_val_if_fail (src_stride >= (gsize) width * bpp, FALSE);
  blocks_y = (height + 3) / 4;
  g_return_val_if_fail (first_block_row <= blocks_y, FALSE);
  g_return_val_if_fail (n_block_rows <= blocks_y - first_block_row, FALSE);
  return TRUE;
}

/**
 * gst_bc_encode_block_half:
 * @format: %GST_BC_FORMAT_BC6H or %GST_BC_FORMAT_BC6H_SF
 * @quality: speed/quality trade-off
 * @rgba: (array fixed-size=64): 16 pixels, row-major, each red, green,
 *     blue and alpha as the bits of a half float (alpha is ignored)
 * @out: (out caller-allocates) (array fixed-size=16): the block
 *
 * Encodes one BC6H block. Unsigned (%GST_BC_FORMAT_BC6H): negative values
 * and NaN become 0, infinities the largest half. Signed
 * (%GST_BC_FORMAT_BC6H_SF): NaN becomes 0, infinities the largest half of
 * their sign. Gives the same bytes as gst_bc_encode_rows_half() for the
 * same pixels.
 */
void
gst_bc_encode_block_half (GstBcFormat format, GstBcQuality quality,
    const guint16 rgba[64], guint8 * out)
{
  guint16 le[64];
  const guint16 *rows[4] = { le, le + 16, le + 32, le + 48 };
  guint i;

  g_return_if_fail (gst_bc_format_is_float (format));
  g_return_if_fail (rgba != NULL && out != NULL);

  for (i = 0; i < 64; i++)
    le[i] = GUINT16_TO_LE (rgba[i]);
  bc_encode_get_kernels ()->bc6h (rows, 1, CLAMP (quality,
          GST_BC_QUALITY_FAST, GST_BC_QUALITY_HIGH),
      format == GST_BC_FORMAT_BC6H_SF, out);
}

/**
 * gst_bc_encode_rows_half:
 * @format: %GST_BC_FORMAT_BC6H or %GST_BC_FORMAT_BC6H_SF
 * @quality: speed/quality trade-off
 * @src: the picture's first pixel: RGBA of four little-endian half floats
 *     (8 bytes a pixel, alpha ignored), linear light with 1.0 =
 *     %GST_BC_HDR_REFERENCE_WHITE
 * @src_stride: bytes from one picture row to the next
 * @width: picture width, at least 1
 * @height: picture height, at least 1
 * @first_block_row: first block row to encode
 * @n_block_rows: block rows to encode
 * @dst: the start of the whole encoded frame
 *
 * Encodes block rows of a picture of half floats into BC6H, unsigned or
 * signed by @format, as gst_bc_encode_rows() does for 8-bit formats; see
 * bcencode-bc6h.c for the modes each quality writes. Thread-safe for
 * disjoint block rows.
 */
void
gst_bc_encode_rows_half (GstBcFormat format, GstBcQuality quality,
    const guint8 * src, gsize src_stride, guint width, guint height,
    guint first_block_row, guint n_block_rows, guint8 * dst)
{
  if (!bc6h_args_valid (format, src, src_stride, width, height, 8,
          first_block_row, n_block_rows, dst))
    return;
  bc_encode_rows_bc6h (bc_encode_get_kernels (), NULL, NULL, NULL, NULL,
      format, quality, src, src_stride, width, height, first_block_row, n_block_rows, dst);
}

/**
 * gst_bc_encode_rows_hdr: (skip)
 * @input: the conversion of the input (gst_bc_hdr_input_new())
 * @format: %GST_BC_FORMAT_BC6H or %GST_BC_FORMAT_BC6H_SF
 * @quality: speed/quality trade-off
 * @src: the picture's first pixel, of @input's format
 * @src_stride: bytes from one picture row to the next
 * @width: picture width, at least 1
 * @height: picture height, at least 1
 * @first_block_row: first block row to encode
 * @n_block_rows: block rows to encode
 * @dst: the start of the whole encoded frame
 *
 * gst_bc_encode_rows_half() of raw HDR video, converted to linear half
 * floats by @input a few blocks at a time (no allocation, no whole-frame
 * copy). Thread-safe for disjoint block rows.
 */
void
gst_bc_encode_rows_hdr (const GstBcHdrInput * input, GstBcFormat format,
    GstBcQuality quality, const guint8 * src, gsize src_stride, guint width,
    guint height, guint first_block_row, guint n_block_rows, guint8 * dst)
{
  g_return_if_fail (input != NULL);
  if (!bc6h_args_valid (format, src, src_stride, width, height,
          gst_bc_hdr_input_get_bpp (input), first_block_row, n_block_rows, dst))
    return;
  bc_encode_rows_bc6h (bc_encode_get_kernels (), input, NULL, NULL, NULL,
      format, quality, src, src_stride, width, height, first_block_row, n_block_rows, dst);
}
