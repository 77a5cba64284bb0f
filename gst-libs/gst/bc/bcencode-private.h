/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Private interface between bcencode.c (pixel gathering, dispatch) and the
 * block kernels in bcencode-kernels.c, which is compiled once per
 * instruction set. Not installed. */

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

typedef struct
{
  BcGatherFunc gather4;
  BcKernelFunc bc1;
  BcKernelFunc bc3;
  BcKernelFunc ycocg_bc3;
} BcKernels;

/* Tables shared by every build of the kernels, filled by
 * bc_encode_tables_init () */
typedef struct
{
  /* optimal single-colour endpoints: the (c0, c1) pair whose
   * (2 * c0 + c1) / 3 (truncated, as decoders do) is nearest */
  guint8 single5[256][2];
  guint8 single6[256][2];
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
