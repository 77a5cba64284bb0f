/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_PAKE_H__
#define __GST_TILE_PAKE_H__

#include <gst/tile/tile-prelude.h>
#include <glib.h>

G_BEGIN_DECLS

/**
 * GST_TILE_PAKE_SCALAR_SIZE:
 *
 * Bytes of a side's secret scalar (little-endian, ristretto255).
 */
#define GST_TILE_PAKE_SCALAR_SIZE 32

/**
 * GST_TILE_PAKE_SHARE_SIZE:
 *
 * Bytes of a side's public share Ya or Yb: an encoded ristretto255 element,
 * what each side sends the other.
 */
#define GST_TILE_PAKE_SHARE_SIZE 32

/**
 * GST_TILE_PAKE_GENERATOR_SIZE:
 *
 * Bytes of the encoded generator g (gst_tile_pake_generator()).
 */
#define GST_TILE_PAKE_GENERATOR_SIZE 32

/**
 * GST_TILE_PAKE_ISK_SIZE:
 *
 * Bytes of the intermediate session key ISK (SHA-512).
 */
#define GST_TILE_PAKE_ISK_SIZE 64

/**
 * GstTilePake:
 *
 * One side of one CPace run (CPACE-RISTR255-SHA512): its secret scalar and
 * its public share, between gst_tile_pake_start() and
 * gst_tile_pake_finish(). It may live on the stack; wipe it with
 * gst_tile_pake_clear() when a run is abandoned. All fields are private.
 */
typedef struct _GstTilePake GstTilePake;

struct _GstTilePake
{
  /*< private > */
  guint8 scalar[GST_TILE_PAKE_SCALAR_SIZE];
  guint8 share[GST_TILE_PAKE_SHARE_SIZE];
};

gsize        gst_tile_pake_generator_string (const guint8 * prs, gsize prs_len,
                                             const guint8 * ci, gsize ci_len,
                                             const guint8 * sid, gsize sid_len,
                                             guint8 * out, gsize out_size);

gboolean     gst_tile_pake_generator     (const guint8 * prs, gsize prs_len,
                                          const guint8 * ci, gsize ci_len,
                                          const guint8 * sid, gsize sid_len,
                                          guint8 g[GST_TILE_PAKE_GENERATOR_SIZE]);

gboolean     gst_tile_pake_start         (GstTilePake * pake,
                                          const guint8 * prs, gsize prs_len,
                                          const guint8 * ci, gsize ci_len,
                                          const guint8 * sid, gsize sid_len,
                                          const guint8 * scalar);

const guint8 *gst_tile_pake_share        (const GstTilePake * pake);

gboolean     gst_tile_pake_finish        (GstTilePake * pake,
                                          gboolean initiator,
                                          const guint8 * ad_self, gsize ad_self_len,
                                          const guint8 peer_share[GST_TILE_PAKE_SHARE_SIZE],
                                          const guint8 * ad_peer, gsize ad_peer_len,
                                          const guint8 * sid, gsize sid_len,
                                          guint8 isk[GST_TILE_PAKE_ISK_SIZE]);

void         gst_tile_pake_clear         (GstTilePake * pake);

G_END_DECLS

#endif /* __GST_TILE_PAKE_H__ */
