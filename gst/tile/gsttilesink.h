/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_TILE_SINK_H__
#define __GST_TILE_SINK_H__

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>
#include <gst/tile/tilewire.h>
#include <gst/tile/tilenet.h>
#include <gst/tile/tilestats.h>
#include <sys/socket.h>

#include "gsttileelements.h"

G_BEGIN_DECLS

#define GST_TYPE_TILE_SINK (gst_tile_sink_get_type ())
G_DECLARE_FINAL_TYPE (GstTileSink, gst_tile_sink, GST, TILE_SINK, GstBaseSink)

typedef struct _GstTileSinkFrame GstTileSinkFrame;
typedef struct _GstTileSinkPending GstTileSinkPending;

typedef struct
{
  GstTileSink *sink;
  guint index;
  GThread *thread;
  gint fd;                      /* -1 when not connected */
  gboolean sending;             /* the unit thread is using fd */
  gboolean close_pending;       /* the unit thread closes fd after use */
  GQueue queue;                 /* of GstTileSinkFrame */
  GCond cond;
  guint64 bytes;
  guint64 busy_ns;
  guint64 frames;
  guint64 packets;
  gboolean gso;                 /* UDP: UDP_SEGMENT is set on fd */
  struct sockaddr_storage peer; /* UDP: the receiver's unit socket */
  guint peer_len;
} GstTileSinkUnit;

struct _GstTileSink
{
  GstBaseSink parent;

  /* properties, object lock */
  gchar *address;
  guint port;
  guint n_units;
  GstTileProtocol protocol;
  guint chunk_size;
  gint send_buffer_size;
  guint max_in_flight;
  guint stats_interval;
  guint handshake_timeout;
  guint packet_size;
  GstTileGso gso;
  guint64 pacing_bitrate;

  /* everything below: lock */
  GMutex lock;
  GCond cond;
  gboolean running;
  guint bound_port;
  gint listen_fd;
  gint udp_fd;                  /* protocol=udp: UNIT_HELLO datagrams */
  gint wake_fds[2];
  GThread *server_thread;

  GstTileSinkPending *pending;  /* handshakes in progress */
  guint n_pending;

  gint control_fd;
  gboolean control_dead;         /* shut down, the server thread closes it */
  guint64 token;
  gboolean have_config;
  GstTileWireConfig config;
  GstBcTiling tiling;
  gsize frame_size;
  guint n_connected;            /* data connections of this generation */
  guint n_threads;
  GstTileSinkUnit units[GST_TILE_WIRE_MAX_UNITS];
  guint in_flight;
  guint64 next_frame;
  gboolean eos_sent;
  /* protocol=udp flow control: the receiver's acknowledgements */
  guint64 acked_next;           /* the oldest frame not acknowledged */
  guint ack_window;             /* frames the receiver can hold past it */
  gint64 ack_progress_us;       /* when acked_next last moved, or the
                                 * oldest frame not acknowledged was sent */

  /* statistics */
  guint64 frames_sent;
  guint64 frames_dropped;
  guint64 frames_window;        /* of those, for a full receiver window */
  guint64 frames_unsent;
  guint64 bytes_sent;
  guint64 packets_sent;
  guint clients;
  guint disconnects;
  guint refused;
  gint granted_send_buffer;
  GstStructure *receiver_stats;
  gint64 last_stats_post;
};

G_END_DECLS

#endif /* __GST_TILE_SINK_H__ */
