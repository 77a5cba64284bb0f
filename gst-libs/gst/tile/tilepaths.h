/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_PATHS_H__
#define __GST_TILE_PATHS_H__

#include <gst/tile/tile-prelude.h>
#include <glib.h>

G_BEGIN_DECLS

/* libgsttile's network paths (internal): tilesrc's `host`, a list of the
 * sender's addresses, one per path ("10.1.0.1,10.2.0.1", IPv6 in brackets
 * or bare), parsed and checked before any connection. */

gchar  **gst_tile_paths_parse   (const gchar * list, GError ** error);

gboolean gst_tile_paths_check_addresses (gchar ** hosts, GError ** error);

G_END_DECLS

#endif /* __GST_TILE_PATHS_H__ */
