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

/* The playout queue (gsttilesrc-time.c): the frames taken out of the
 * receiver, waiting for the streaming thread. */
typedef struct
{
  GMutex lock;
  GCond cond;
  GThread *thread;
  GQueue items;
  gboolean running;
  gboolean flushing;
  gboolean blocked;             /* NEW_CAPS, EOS or an error queued: the
                                 * streaming thread's turn */
} GstTileSrcQueue;

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
  gint latency;                 /* ms, -1 automatic */
  gboolean drop_late;
  gboolean retransmit;
  gboolean redundant;

  GstTileReceiver *rx;          /* the session */
  GstTileSrcQueue queue;
  GstTileSrcRegion region;      /* gsttilesrc-region.c's */

  /* object lock: the negotiated caps and their frame duration */
  GstCaps *caps;
  GstClockTime duration;
};

/* gsttilesrc-time.c */
G_GNUC_INTERNAL
GstClock *gst_tile_src_provide_clock (GstElement * element);
G_GNUC_INTERNAL
GstStateChangeReturn gst_tile_src_change_state (GstElement * element,
    GstStateChange transition);
G_GNUC_INTERNAL
void gst_tile_src_clock_replaced (gpointer user_data, GstClock * old);
G_GNUC_INTERNAL
void gst_tile_src_time_settings (GstTileSrc * self,
    GstTileReceiverSettings * settings);
G_GNUC_INTERNAL
void gst_tile_src_queue_init (GstTileSrc * self);
G_GNUC_INTERNAL
void gst_tile_src_queue_clear (GstTileSrc * self);
G_GNUC_INTERNAL
void gst_tile_src_queue_start (GstTileSrc * self);
G_GNUC_INTERNAL
void gst_tile_src_queue_stop (GstTileSrc * self);
G_GNUC_INTERNAL
void gst_tile_src_queue_set_flushing (GstTileSrc * self, gboolean flushing);
G_GNUC_INTERNAL
GstTileReceiverResult gst_tile_src_queue_pop (GstTileSrc * self,
    GstBuffer ** buffer, gchar ** caps, GError ** error);
G_GNUC_INTERNAL
void gst_tile_src_queue_resume (GstTileSrc * self);

G_END_DECLS

#endif /* __GST_TILE_SRC_H__ */
