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

struct _GstTileSink
{
  GstBaseSink parent;

  /* properties, object lock; settings.address points at address, and
   * settings.protocol, .gso and .gso_required are set at start from
   * protocol and gso */
  GstTileSenderSettings settings;
  gchar *address;
  gchar *passphrase;            /* settings.passphrase points here */
  gchar *multicast_group;       /* settings.multicast_group */
  gchar *congestion_control;    /* settings.congestion_control */
  gchar *multicast_iface;       /* settings.multicast_iface */
  GstTileWireProtocol protocol;
  GstTileOffload gso;
  GstTileLeaky leaky;
  gboolean stepped;

  /* the session, from start to the next start (its statistics stay
   * readable after stop); the pointer is guarded by the object lock, and
   * changes only in start and finalize */
  GstTileSender *sender;

  /* whether upstream is live (its buffers' timestamps are their capture
   * times): -1 unknown, asked on the next buffer; atomic */
  gint upstream_live;
};

/* gsttilesink-time.c */
G_GNUC_INTERNAL
GstClockTime gst_tile_sink_capture_time (gpointer user_data,
    GstBuffer * buffer);
G_GNUC_INTERNAL
void gst_tile_sink_post_qos (GstTileSink * self, GstBuffer * buffer);

G_END_DECLS

#endif /* __GST_TILE_SINK_H__ */
