/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_SINK_H__
#define __GST_TILE_SINK_H__

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>
#include <gst/tile/tilesender.h>

#include "gsttileelements.h"

G_BEGIN_DECLS

#define GST_TYPE_TILE_SINK (gst_tile_sink_get_type ())
G_DECLARE_FINAL_TYPE (GstTileSink, gst_tile_sink, GST, TILE_SINK, GstBaseSink)

G_END_DECLS

#endif /* __GST_TILE_SINK_H__ */
