/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_BALANCE_H__
#define __GST_TILE_BALANCE_H__

#include <gst/tile/tile-prelude.h>
#include <glib.h>

G_BEGIN_DECLS

/* libgsttile's balanced tiles (internal): the rows of a frame shared
 * among the units by their measured rates (tilesrc `host` with several
 * paths, over TCP). */

void gst_tile_balance_split (guint32 n_rows, guint n_units,
                             const gdouble * rates, const gdouble * backlog,
                             guint32 * bounds);

#define GST_TILE_BALANCE_MAX_PATHS 8

/* Over UDP the units stripe their datagrams over the paths instead, each
 * path taking a share. What one frame's datagrams did on one path (the
 * ACK's feedback per path): @sent over it, @received of them, and
 * @last_ns: when the last of them arrived, from the frame's timestamp (the
 * receiver's clock less the sender's: only its differences to the other
 * paths' of the same frame mean something). */
typedef struct
{
  guint64 sent;
  guint64 received;
  gint64 last_ns;
} GstTileStripeSample;

/* The shares (summing to 1 over the paths that have one) and what they
 * learn from. Initialise with gst_tile_balance_stripe_init (). */
typedef struct
{
  gdouble weight[GST_TILE_BALANCE_MAX_PATHS];
  guint have;                   /* a bit per path with a share */
  /* the first frame sent after a path's share was last cut */
  guint64 hold[GST_TILE_BALANCE_MAX_PATHS];
} GstTileStripeState;

void gst_tile_balance_stripe_init (GstTileStripeState * st);

void gst_tile_balance_stripe (GstTileStripeState * st,
                              const GstTileStripeSample * samples,
                              gint64 send_ns, guint64 frame,
                              guint64 next_frame);

G_END_DECLS

#endif /* __GST_TILE_BALANCE_H__ */
