/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Private interface between bcencode.c (pixel gathering, dispatch) and the
 * block kernels in bcencode-kernels.c (BC1, BC3, YCoCg-BC3),
 * bcencode-bc45.c (BC4, BC5: integer, from one-byte rows), bcencode-bc7.c (BC7)
 * and bcencode-bc6h.c (BC6H, from half floats), which are compiled
 * once per instruction set. Not installed. */

#ifndef __GST_BC_ENCODE_PRIVATE_H__
#define __GST_BC_ENCODE_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS
/* Blocks encoded together: the kernels are written lane-parallel over this
 * many blocks, so each arithmetic step is one vector operation (AVX-512:
 * 16 floats) or a few (AVX2: two, SSE2: four). A multiple of 8. */
#define BC_LANES 16
/* A batch of BC_LANES blocks in structure-of-arrays form:
 * px[channel][pixel][lane], channels r, g, b, a; pixel = y * 4 + x. Values
 * are 0..255. */
    typedef struct
{
  float px[4][16][BC_LANES];
} BcBatch;

/* The same batch with integer colour channels (r, g, b), for BC1 at
 * quality=fast (bcencode-fast.c): 16 lanes of 16 bits are one AVX2
 * vector */
typedef struct
{
  gint16 px[3][16][BC_LANES];
} BcBatchInt;

/* Encoders of one batch. @out receives @n_lanes blocks back to back;
 * lanes >= @n_lanes hold copies and are not written. */
typedef void (*BcKernelFunc) (const BcBatch * batch, guint n_lanes,
    gint quality, guint8 * out);

/* Fills a whole batch from 4-byte pixels: rows[y] points at the first
 * pixel of the batch's BC_LANES blocks in picture row y of the block
 * row; shift[c] is the bit position of channel c in a little-endian 32-bit
 * pixel (r, g, b, a; a < 0 means opaque). */
typedef void (*BcGatherFunc) (BcBatch * batch, const guint8 * const rows[4],
    const gint shift[4], gboolean need_alpha);

/* BC1 (YCoCg-BC3) at quality=fast from an integer batch: @n_lanes 8-byte
 * (16-byte) blocks back to back */
typedef void (*BcFastFunc) (const BcBatchInt * batch, guint n_lanes,
    guint8 * out);

/* gather4 for BcBatchInt (colour only) */
typedef void (*BcGatherIntFunc) (BcBatchInt * batch,
    const guint8 * const rows[4], const gint shift[4]);

/* BC4 (and BC5, one channel at a time) reads one-byte pixels straight from
 * picture rows, a multiple of this many blocks at a time */
#define BC_BC45_BATCH 32

/* Encodes @n_blocks BC4 blocks side by side: rows[y] points at the first
 * pixel of picture row y of the block row, one byte per pixel, and must be
 * readable for 4 * @n_blocks rounded up to a multiple of BC_BC45_BATCH
 * bytes. Block k goes to out + k * @stride. */
typedef void (*BcBc4RowsFunc) (const guint8 * const rows[4], guint n_blocks,
    gint quality, guint8 * out, gsize stride);

/* Splits @n_pixels 4-byte pixels into two one-byte channels: the byte at
 * bit position shift[c] of a little-endian 32-bit pixel goes to dst0
 * (c = 0) and dst1 (c = 1). */
typedef void (*BcSplit2Func) (const guint8 * src, guint n_pixels,
    const gint shift[2], guint8 * dst0, guint8 * dst1);

/* BC5 of 4-byte pixels read in place: rows[y] points at the first pixel of
 * picture row y of the block row and must be readable for 16 * @n_blocks
 * bytes rounded up to a multiple of 16 * BC_BC45_BATCH; the two channels
 * are the bytes at bit positions @shift[0] and @shift[1] of a little-endian
 * pixel. Block k goes to out + 16 k. */
typedef void (*BcBc5RowsFunc) (const guint8 * const rows[4], guint n_blocks,
    gint quality, const gint shift[2], guint8 * out);

/* BC6H, unsigned or (@is_signed) signed, of @n_blocks blocks side by side
 * (bcencode-bc6h.c): rows[y] points at the first pixel of picture row y of
 * the blocks, RGBA half floats (four little-endian 16-bit values a pixel),
 * readable for 16 * @n_blocks values. Block k goes to out + 16 k. */
typedef void (*BcBc6hFunc) (const guint16 * const rows[4], guint n_blocks,
    gint quality, gboolean is_signed, guint8 * out);

/* YUV input (bcyuv.c, bcyuv-kernels.c) */

/* How the samples of a YUV format are stored */
typedef enum
{
  BC_YUV_I420,                  /* three 8-bit planes, 4:2:0 */
  BC_YUV_NV12,                  /* 8-bit Y plane, interleaved U V, 4:2:0 */
  BC_YUV_P010,                  /* NV12 of 16-bit LE samples, 10 high bits */
  BC_YUV_YUY2,                  /* Y0 U Y1 V, 4:2:2 */
  BC_YUV_UYVY,                  /* U Y0 V Y1, 4:2:2 */
  BC_YUV_V210,                  /* 10-bit 4:2:2, 6 pixels in 16 bytes */
} BcYuvLayout;

/* The most pixels a BcYuvRowsFunc converts in one call, and the width of
 * the strips the encoders convert and encode at a time: a multiple of
 * 4 * BC_LANES and 4 * BC_BC45_BATCH */
#define BC_YUV_CHUNK 256

/* The fixed point of the conversion: output codes in 2^-BC_YUV_SHIFT
 * (8-bit output), 2^-BC_YUV_SHIFT16 (16-bit output, whose codes are 257
 * times larger: the sums stay below 2^31 the same way) */
#define BC_YUV_SHIFT 20
#define BC_YUV_SHIFT16 13

/* What the kernels need of a GstBcYuvInfo (bcyuv.h) */
typedef struct
{
  BcYuvLayout layout;
  guint width, height;
  gboolean h_cosited, v_cosited;
  /* the luma offset, the chroma offset in 1/16, and the coefficients of
   * luma and of 1/16 chroma: Y, R from V, G from U, G from V, B from U */
  gint32 y_offset, c_offset16, k[5];
  /* 16-bit output (RGBA64_LE: R, G, B, 65535, 8 bytes a pixel, the
   * coefficients in 2^-BC_YUV_SHIFT16) rather than 8-bit (RGBA, 4 bytes,
   * 2^-BC_YUV_SHIFT) */
  gboolean out16;
} BcYuvParams;

/* Converts pixels @x .. @x + @n - 1 (@n <= BC_YUV_CHUNK, inside the
 * picture) of picture rows @y0 .. @y0 + @n_rows - 1 (@n_rows <= 4, inside
 * the picture) to RGBA (alpha 255) at @rgba, or with @p->out16 to RGBA64
 * (RGBA64_LE: 16-bit little-endian samples, alpha 65535), rows @rgba_stride bytes
 * apart. @planes and @strides: the planes of the layout (I420: Y, U, V;
 * NV12, P010: Y, UV; packed: one). Reads no byte outside the rows' bytes
 * the picture needs. */
typedef void (*BcYuvRowsFunc) (const BcYuvParams * p,
    const guint8 * const planes[3], const gsize strides[3], guint y0,
    guint n_rows, guint x, guint n, guint8 * rgba, gsize rgba_stride);

typedef struct
{
  BcGatherFunc gather4;
  BcKernelFunc bc1;
  BcGatherIntFunc gather4_int;
  BcFastFunc bc1_fast;
  BcFastFunc ycocg_fast;
  BcKernelFunc bc3;
  BcKernelFunc ycocg_bc3;
  BcBc4RowsFunc bc4_rows;
  BcBc5RowsFunc bc5_rows;
  BcSplit2Func split2;
  BcKernelFunc bc7;
  BcYuvRowsFunc yuv_rows;
  BcBc6hFunc bc6h;
} BcKernels;

/* The kernels of bcencode-bc45.c and bcencode-bc7.c, named after the build
 * (BC_KERNEL_SUFFIX) they belong to */
#ifdef BC_KERNEL_SUFFIX
#define BC_PASTE2(a, b) a ## b
#define BC_PASTE(a, b) BC_PASTE2 (a, b)
#define BC_KERNEL_NAME(name) BC_PASTE (name, BC_PASTE (_, BC_KERNEL_SUFFIX))

G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_kernel_bc4_rows) (const guint8 *
    const rows[4], guint n_blocks, gint quality, guint8 * out, gsize stride);
G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_kernel_bc5_rows) (const guint8 *
    const rows[4], guint n_blocks, gint quality, const gint shift[2],
    guint8 * out);
G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_split2) (const guint8 * src,
    guint n_pixels, const gint shift[2], guint8 * dst0, guint8 * dst1);
G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_kernel_bc1_fast) (const BcBatchInt *
    batch, guint n_lanes, guint8 * out);
G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_kernel_ycocg_fast) (const BcBatchInt *
    batch, guint n_lanes, guint8 * out);
G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_kernel_bc7) (const BcBatch * batch,
    guint n_lanes, gint quality, guint8 * out);
G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_kernel_bc6h) (const guint16 *
    const rows[4], guint n_blocks, gint quality, gboolean is_signed,
    guint8 * out);
G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_yuv_rows) (const BcYuvParams * p,
    const guint8 * const planes[3], const gsize strides[3], guint y0,
    guint n_rows, guint x, guint n, guint8 * rgba, gsize rgba_stride);
#endif

/* BPTC tables of the specification, defined in bcdecode.c: the subset of
 * every pixel for the 64 two-subset and 64 three-subset partitions, and
 * the anchor pixels of their second (and third) subsets */
G_GNUC_INTERNAL extern const guint8 bc7_partitions2[64][16];
G_GNUC_INTERNAL extern const guint8 bc7_partitions3[64][16];
G_GNUC_INTERNAL extern const guint8 bc7_anchors2[64];
G_GNUC_INTERNAL extern const guint8 bc7_anchors3a[64];
G_GNUC_INTERNAL extern const guint8 bc7_anchors3b[64];

/* BC6H's error weight of a value by its half float's exponent (h >> 10),
 * the value of the octave's middle (bcencode-bc6h.c), defined in
 * bcencode.c for every build of the kernels and the GL encoder */
G_GNUC_INTERNAL extern const float bc6h_octave_weight[32];

/* Tables shared by every build of the kernels, filled by
 * bc_encode_tables_init () */
typedef struct
{
  /* optimal single-colour endpoints: the (c0, c1) pair whose
   * (2 * c0 + c1) / 3 (truncated, as decoders do) is nearest */
  guint8 single5[256][2];
  guint8 single6[256][2];
  /* the same, one 32-bit word per value for the vector loads: a | b << 8 |
   * (2 e(a) + e(b)) / 3 << 16 */
  guint32 single5x[256];
  guint32 single6x[256];
  /* BC7 mode 5 solid colours: 7-bit endpoints (a, b) whose interpolation
   * at index 1, (43 e(a) + 21 e(b) + 32) >> 6, is exactly the value */
  guint8 bc7_solid[256][2];
} BcTables;

G_GNUC_INTERNAL extern BcTables bc_tables;

G_GNUC_INTERNAL void bc_encode_tables_init (void);

G_GNUC_INTERNAL extern const BcKernels bc_kernels_c;

/* the kernels gst_bc_encode_get_simd () picks */
G_GNUC_INTERNAL const BcKernels *bc_encode_get_kernels (void);

#ifndef BC_KERNEL_SUFFIX
#include "bcencode.h"

/* gst_bc_encode_rows () with @kernels, its arguments checked */
G_GNUC_INTERNAL void bc_encode_rows_bc6h (const BcKernels * kernels,
    const GstBcHdrInput * input, const BcYuvParams * yuv,
    const guint8 * const planes[3], const gsize strides[3],
    GstBcFormat format, GstBcQuality quality, const guint8 * src,
    gsize src_stride, guint width, guint height, guint first_block_row,
    guint n_block_rows, guint8 * dst);

G_GNUC_INTERNAL void bc_encode_rows_unchecked (const BcKernels * kernels,
    GstBcFormat format, GstBcQuality quality, const guint8 * src,
    gsize src_stride, guint width, guint height,
    const GstBcPixelLayout * layout, guint first_block_row,
    guint n_block_rows, guint8 * dst);
#endif
#ifdef HAVE_BC_SIMD_X86
G_GNUC_INTERNAL extern const BcKernels bc_kernels_sse2;
G_GNUC_INTERNAL extern const BcKernels bc_kernels_avx2;
#ifdef HAVE_BC_SIMD_AVX512
G_GNUC_INTERNAL extern const BcKernels bc_kernels_avx512;
#endif
#endif

G_END_DECLS
#endif /* __GST_BC_ENCODE_PRIVATE_H__ */
