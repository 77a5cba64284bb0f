/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_TILE_NET_H__
#define __GST_TILE_NET_H__

#include <gst/gst.h>
#include <gio/gio.h>
#include <sys/socket.h>
#include <gst/bc/bcwire.h>

G_BEGIN_DECLS

/* Socket helpers shared by tilesink and tilesrc. Sockets are plain blocking
 * POSIX descriptors; a wait is interrupted by shutdown() on the descriptor.
 * Every function that fails sets @error (G_IO_ERROR domain, or
 * GST_BC_WIRE_ERROR for a malformed message) with a message fit for a
 * GST_ELEMENT_ERROR. */

G_GNUC_INTERNAL
gint     gst_tile_net_listen (const gchar * address, guint port,
                              guint * bound_port, GError ** error);

G_GNUC_INTERNAL
gint     gst_tile_net_connect (const gchar * host, guint port,
                               gint timeout_ms, gint rcvbuf,
                               gint * granted, GError ** error);

G_GNUC_INTERNAL
gint     gst_tile_net_accept (gint listen_fd, GError ** error);

G_GNUC_INTERNAL
void     gst_tile_net_close (gint * fd);

G_GNUC_INTERNAL
void     gst_tile_net_shutdown (gint fd);

G_GNUC_INTERNAL
void     gst_tile_net_set_nodelay (gint fd);

G_GNUC_INTERNAL
gint     gst_tile_net_set_buffer_size (gint fd, gboolean send, gint size);

G_GNUC_INTERNAL
gint     gst_tile_net_udp_bind (const struct sockaddr *addr, guint addrlen,
                                GError ** error);

G_GNUC_INTERNAL
gint     gst_tile_net_udp_socket (gint family, GError ** error);

G_GNUC_INTERNAL
gboolean gst_tile_net_set_gso (gint fd, guint segment_size);

G_GNUC_INTERNAL
gboolean gst_tile_net_set_gro (gint fd);

G_GNUC_INTERNAL
gboolean gst_tile_net_buffer_is_enough (gint granted, gint asked);

G_GNUC_INTERNAL
gboolean gst_tile_net_wait (gint fd, gboolean for_write, gint timeout_ms,
                            GError ** error);

G_GNUC_INTERNAL
gboolean gst_tile_net_write_all (gint fd, const guint8 * data, gsize len,
                                 gsize chunk, GError ** error);

G_GNUC_INTERNAL
gboolean gst_tile_net_write_more (gint fd, const guint8 * data, gsize len,
                                  GError ** error);

G_GNUC_INTERNAL
gboolean gst_tile_net_read_all (gint fd, guint8 * data, gsize len,
                                gint timeout_ms, GError ** error);

G_GNUC_INTERNAL
gboolean gst_tile_net_send_packed (gint fd, const GByteArray * message,
                                   GError ** error);

G_GNUC_INTERNAL
gboolean gst_tile_net_read_message (gint fd, gint timeout_ms,
                                    GstBcWireHeader * header,
                                    GByteArray * payload, GError ** error);

G_GNUC_INTERNAL
void     gst_tile_net_send_refuse (gint fd, GstBcWireRefuseCode code,
                                   const gchar * reason);

G_GNUC_INTERNAL
gboolean gst_tile_net_is_disconnect (const GError * error);

G_GNUC_INTERNAL
const gchar * gst_tile_net_refuse_code_name (GstBcWireRefuseCode code);

/* Delivery latencies over a sliding window, for the stats of both ends. */
#define GST_TILE_LATENCY_WINDOW 1024

typedef struct
{
  guint64 samples[GST_TILE_LATENCY_WINDOW];
  guint n;                      /* valid samples, <= window */
  guint next;
  guint64 total;                /* samples ever added */
  guint64 last;
  gdouble sum;                  /* of the window */
} GstTileLatency;

G_GNUC_INTERNAL
void     gst_tile_latency_reset (GstTileLatency * lat);

G_GNUC_INTERNAL
void     gst_tile_latency_add (GstTileLatency * lat, guint64 ns);

G_GNUC_INTERNAL
guint64  gst_tile_latency_percentile (const GstTileLatency * lat,
                                      gdouble p);

G_GNUC_INTERNAL
void     gst_tile_latency_to_structure (const GstTileLatency * lat,
                                        GstStructure * s);

G_GNUC_INTERNAL
void     gst_tile_register_stats_names (void);

G_GNUC_INTERNAL
guint64  gst_tile_realtime_ns (void);

G_END_DECLS

#endif /* __GST_TILE_NET_H__ */
