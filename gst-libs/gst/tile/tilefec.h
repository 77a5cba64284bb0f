/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Forward error correction of protocol=udp: Reed-Solomon erasure codes
 * over GF(2^8) with ISA-L (Cauchy generator matrix), per tile over
 * interleaved groups of its datagrams. Internal to libgsttile (the static
 * library gsttile-internal): the sender's units encode with it, the
 * receiver's units decode with it. No threads, no sockets, no locks: a
 * GstTileFec belongs to one thread. */

#ifndef __GST_TILE_FEC_H__
#define __GST_TILE_FEC_H__

#include <gst/tile/tilewire.h>

G_BEGIN_DECLS

/* the sender's data datagrams per group at most: the groups of a tile of n
 * datagrams are ceil (n / GST_TILE_FEC_SPAN), each of ceil (n / groups) */
#define GST_TILE_FEC_SPAN 32
/* the highest overhead a sender sends, in percent */
#define GST_TILE_FEC_MAX_PERCENT 50

/* A tile's parity layout: @n data datagrams in @groups interleaved groups
 * of @span (datagram i is member i / groups of group i % groups; members
 * past the tile's end are zeros), @parity parity datagrams per group, and
 * @n_parity = @parity x @groups in all (parity datagram p: row p / groups
 * of group p % groups). */
typedef struct
{
  guint32 n;
  guint span;
  guint parity;
  guint32 groups;
  guint32 n_parity;
} GstTileFecLayout;

typedef struct _GstTileFec GstTileFec;

GstTileFec *gst_tile_fec_new (void);
void     gst_tile_fec_free (GstTileFec * fec);

gboolean gst_tile_fec_layout_for (GstTileFecLayout * l, guint32 n,
                                  guint percent);
gboolean gst_tile_fec_layout_from (GstTileFecLayout * l, guint32 n,
                                   guint span, guint parity);

void     gst_tile_fec_encode (GstTileFec * fec, const GstTileFecLayout * l,
                              const guint8 * tile, guint64 tile_size,
                              guint ps, guint8 * parity);

gboolean gst_tile_fec_decode (GstTileFec * fec, guint span, guint parity,
                              guint ps, const guint8 * const *data,
                              const guint8 * const *rows, guint8 ** out);

const guint8 *gst_tile_fec_zeros (void);

G_END_DECLS

#endif /* __GST_TILE_FEC_H__ */
