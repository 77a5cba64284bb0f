/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Private interface between bcencode.c (pixel gathering, dispatch) and the
 * block kernels in bcencode-kernels.c (BC1, BC3, YCoCg-BC3),
 * bcencode-bc45.c (BC4, BC5) and bcencode-bc7.c (BC7), which are compiled
 * once per instruction set. Not installed. */

#ifndef __GST_BC_ENCODE_PRIVATE_H__
#define __GST_BC_ENCODE_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

/* Blocks encoded together: the kernels are written lane-parallel over this
 * many blocks, so each arithmetic step is one vector operation. */
#define BC_LANES 8

/* A batch of BC_LANES blocks in structure-of-arrays form:
 * px[channel][pixel][lane], channels r, g, b, a; pixel = y * 4 + x. Values
 * are 0..255. */
typedef struct
{
  float px[4][16][BC_LANES];
} BcBatch;

/* Encoders of one batch. @out receives @n_lanes blocks back to back;
 * lanes >= @n_lanes hold copies and are not written. */
typedef void (*BcKernelFunc) (const BcBatch * batch, guint n_lanes,
    gint quality, guint8 * out);

/* Fills a whole batch from 4-byte pixels: rows[y] points at the first
 * pixel of the batch's 8 blocks (32 pixels) in picture row y of the block
 * row; shift[c] is the bit position of channel c in a little-endian 32-bit
 * pixel (r, g, b, a; a < 0 means opaque). */
typedef void (*BcGatherFunc) (BcBatch * batch, const guint8 * const rows[4],
    const gint shift[4], gboolean need_alpha);

/* Fills channel 0 of a whole batch from 1-byte (GRAY8) pixels: rows[y]
 * points at the first pixel of the batch's 8 blocks in picture row y. */
typedef void (*BcGather1Func) (BcBatch * batch, const guint8 * const rows[4]);

/* Rewrites channel 0 of a batch as the luma of channels 0..2 (r, g, b):
 * (77 r + 150 g + 29 b + 128) >> 8, BT.601 weights in 8-bit fixed point. */
typedef void (*BcLumaFunc) (BcBatch * batch);

typedef struct
{
  BcGatherFunc gather4;
  BcKernelFunc bc1;
  BcKernelFunc bc3;
  BcKernelFunc ycocg_bc3;
  BcGather1Func gather1;
  BcLumaFunc luma;
  BcKernelFunc bc4;
  BcKernelFunc bc5;
  BcKernelFunc bc7;
} BcKernels;

/* The kernels of bcencode-bc45.c and bcencode-bc7.c, named after the build
 * (BC_KERNEL_SUFFIX) they belong to */
#ifdef BC_KERNEL_SUFFIX
#define BC_PASTE2(a, b) a ## b
#define BC_PASTE(a, b) BC_PASTE2 (a, b)
#define BC_KERNEL_NAME(name) BC_PASTE (name, BC_PASTE (_, BC_KERNEL_SUFFIX))

G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_gather1) (BcBatch * batch,
    const guint8 * const rows[4]);
G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_luma) (BcBatch * batch);
G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_kernel_bc4) (const BcBatch * batch,
    guint n_lanes, gint quality, guint8 * out);
G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_kernel_bc5) (const BcBatch * batch,
    guint n_lanes, gint quality, guint8 * out);
G_GNUC_INTERNAL void BC_KERNEL_NAME (bc_kernel_bc7) (const BcBatch * batch,
    guint n_lanes, gint quality, guint8 * out);
#endif

/* BPTC tables of the specification, defined in bcdecode.c: the subset of
 * every pixel for the 64 two-subset and 64 three-subset partitions, and
 * the anchor pixels of their second (and third) subsets */
G_GNUC_INTERNAL extern const guint8 bc7_partitions2[64][16];
G_GNUC_INTERNAL extern const guint8 bc7_partitions3[64][16];
G_GNUC_INTERNAL extern const guint8 bc7_anchors2[64];
G_GNUC_INTERNAL extern const guint8 bc7_anchors3a[64];
G_GNUC_INTERNAL extern const guint8 bc7_anchors3b[64];

/* Tables shared by every build of the kernels, filled by
 * bc_encode_tables_init () */
typedef struct
{
  /* optimal single-colour endpoints: the (c0, c1) pair whose
   * (2 * c0 + c1) / 3 (truncated, as decoders do) is nearest */
  guint8 single5[256][2];
  guint8 single6[256][2];
  /* BC7 mode 5 solid colours: 7-bit endpoints (a, b) whose interpolation
   * at index 1, (43 e(a) + 21 e(b) + 32) >> 6, is exactly the value */
  guint8 bc7_solid[256][2];
} BcTables;

G_GNUC_INTERNAL extern BcTables bc_tables;

G_GNUC_INTERNAL void bc_encode_tables_init (void);

G_GNUC_INTERNAL extern const BcKernels bc_kernels_c;
#ifdef HAVE_BC_SIMD_X86
G_GNUC_INTERNAL extern const BcKernels bc_kernels_sse2;
G_GNUC_INTERNAL extern const BcKernels bc_kernels_avx2;
#endif

G_END_DECLS

#endif /* __GST_BC_ENCODE_PRIVATE_H__ */
