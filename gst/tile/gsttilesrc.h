/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_SRC_H__
#define __GST_TILE_SRC_H__

#include <gst/gst.h>
#include <gst/base/gstpushsrc.h>
#include <gst/tile/tilereceiver.h>

#include "gsttileelements.h"
#include "gsttilesrc-region.h"

G_BEGIN_DECLS

#define GST_TYPE_TILE_SRC (gst_tile_src_get_type ())
G_DECLARE_FINAL_TYPE (GstTileSrc, gst_tile_src, GST, TILE_SRC, GstPushSrc)

/* frames tilesrc may hold: its receiver's two frame slots */
#define GST_TILE_SRC_FRAMES_HELD 2

struct _GstTileSrc
{
  GstPushSrc parent;

  /* properties, object lock */
  gchar *host;
  guint port;
  gint receive_buffer_size;
  guint timeout;
  gboolean stepped;
  gboolean reconnect;
  guint stats_interval;
  gdouble timer_factor;
  GstTileOffload gro;
  guint64 max_frame_size;
  gchar *passphrase;
  gchar *multicast_iface;
  GstTileClock clock_mode;
  guint ptp_domain;
  GstClock *clock;              /* provided, for clock=ptp or system */

  GstTileReceiver *rx;          /* the session */
  GstTileSrcRegion region;      /* gsttilesrc-region.c's */

  /* object lock: the negotiated caps and their frame duration */
  GstCaps *caps;
  GstClockTime duration;
};

G_END_DECLS

#endif /* __GST_TILE_SRC_H__ */
