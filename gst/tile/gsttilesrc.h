/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_TILE_SRC_H__
#define __GST_TILE_SRC_H__

#include <gst/gst.h>
#include <gst/base/gstpushsrc.h>
#include <gst/tile/tilewire.h>
#include <sys/socket.h>

#include "gsttileelements.h"
#include <gst/tile/tilenet.h>
#include <gst/tile/tilestats.h>

G_BEGIN_DECLS

#define GST_TYPE_TILE_SRC (gst_tile_src_get_type ())
G_DECLARE_FINAL_TYPE (GstTileSrc, gst_tile_src, GST, TILE_SRC, GstPushSrc)

#define GST_TILE_SRC_SLOTS 2

typedef enum
{
  SLOT_FREE,
  SLOT_ALLOCATING,
  SLOT_FILLING,
  SLOT_COMPLETE,
} GstTileSrcSlotState;

typedef struct
{
  GstTileSrcSlotState state;
  guint64 frame;
  GstBuffer *buffer;
  GstMapInfo map;
  guint64 done_mask;
  guint n_done;
  guint writers;
  gboolean discard;
  GstClockTime sender_ts;
  guint64 session;
  gint64 first_done;            /* monotonic us, first tile in */
  GstClockTime complete_time;   /* clock time, last tile in */
  /* protocol=udp */
  guint8 *got;                  /* a bit per datagram of the frame */
  guint n_got;
  gint64 first_ns;              /* monotonic, first datagram */
  gint64 last_ns;               /* monotonic, last datagram filed */
  gint64 deadline;              /* monotonic ns, 0 = no timer running */
  guint32 tile_copied[GST_TILE_WIRE_MAX_UNITS];   /* datagrams in place */
} GstTileSrcSlot;

typedef struct
{
  GstTileSrc *src;
  guint index;
  GThread *thread;
  gint fd;
} GstTileSrcUnit;

struct _GstTileSrc
{
  GstPushSrc parent;

  /* properties, object lock */
  gchar *host;
  guint port;
  gint receive_buffer_size;
  guint timeout;
  GstTileFlush flush;
  gboolean reconnect;
  guint stats_interval;
  gdouble timer_factor;
  GstTileGso gso;

  /* protocol=udp acknowledgements go out on the control connection from
   * create(): every write to it holds send_lock, and ack_fd is -1 before
   * the connection is closed */
  GMutex send_lock;
  gint ack_fd;

  /* everything below: lock */
  GMutex lock;
  GCond cond;
  gboolean running;
  gboolean flushing;
  GThread *control_thread;
  gint control_fd;

  GstTileWireConfig *config;      /* of the running units, NULL when none */
  GstTileWireConfig *pending;     /* received, waiting for its turn */
  GstBcTiling tiling;
  guint64 session;              /* bumped per started generation */
  GstCaps *caps;                /* negotiated */
  GstClockTime duration;
  GstTileSrcUnit units[GST_TILE_WIRE_MAX_UNITS];
  guint units_running;
  GstTileSrcSlot slots[GST_TILE_SRC_SLOTS];
  gboolean eos;
  gboolean lost;                /* the control connection is gone */
  struct sockaddr_storage server; /* the control connection's peer */
  guint server_len;
  /* protocol=udp */
  gboolean udp_drain;           /* a CONFIG or EOS came: finish the units */
  guint32 pk_base[GST_TILE_WIRE_MAX_UNITS + 1];   /* first datagram of a tile */
  guint64 last_pushed;
  gboolean have_pushed;
  GstBuffer *last_buffer;       /* newest pushed frame, for concealment */
  gboolean keep_last;           /* FALSE when GstBaseSrc will mark DISCONT */
  gint64 avg_receive_ns;        /* frames that arrived whole */
  gint64 timer_floor_ns;        /* the shortest timer, adapted */
  gint64 timer_raised_ns;       /* when late datagrams last raised it */
  guint64 timer_frame;          /* the newest frame pushed by its timer */
  gboolean have_timer_frame;
  gboolean timer_frame_raised;  /* its late datagrams raised the floor */
  guint udp_window;             /* frames the unit sockets can hold */
  guint udp_windows;            /* units that have set it */
  guint32 unit_drops[GST_TILE_WIRE_MAX_UNITS];
  GError *error;

  /* statistics */
  guint64 frames_received;
  guint64 frames_incomplete;
  guint64 bytes_received;
  guint64 tiles_stepped;
  guint64 tile_spread_sum;       /* us, first to last tile of a frame */
  guint64 packets_received;
  guint64 packets_lost;
  guint64 packets_late;
  guint64 packets_invalid;
  guint64 packets_duplicate;
  guint64 frames_partial;
  guint64 frames_timer;
  guint64 packets_dropped;
  guint64 packets_in_place;
  guint64 frames_skipped;
  guint connects;
  gint granted_rcvbuf;
  gboolean warned_rcvbuf;
  GstTileLatency latency;
};

G_END_DECLS

#endif /* __GST_TILE_SRC_H__ */
