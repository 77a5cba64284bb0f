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

G_END_DECLS

#endif /* __GST_TILE_BALANCE_H__ */
