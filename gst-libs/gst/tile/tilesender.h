/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_SENDER_H__
#define __GST_TILE_SENDER_H__

#include <gst/tile/tile-prelude.h>
#include <gst/bc/bctiling.h>
#include <gst/tile/tilewire.h>

G_BEGIN_DECLS

/**
 * GstTileSender:
 *
 * The sending end of tile sessions, as tilesink runs it: it listens,
 * serves up to @max_receivers receivers, each in a session of its own
 * (handshake, CONFIG per caps, keep-alives, the receiver's STATS and ACKs)
 * and sends every frame it admits for a receiver as tiles, one thread and
 * one TCP connection or UDP socket per unit and receiver. Opaque.
 */
typedef struct _GstTileSender GstTileSender;

#define GST_TILE_SENDER_DEFAULT_ADDRESS "0.0.0.0"
#define GST_TILE_SENDER_DEFAULT_PORT 7000
#define GST_TILE_SENDER_DEFAULT_UNITS 4
#define GST_TILE_SENDER_DEFAULT_CHUNK_SIZE (1 << 20)
#define GST_TILE_SENDER_DEFAULT_SEND_BUFFER_SIZE (16 << 20)
#define GST_TILE_SENDER_DEFAULT_MAX_IN_FLIGHT 1
#define GST_TILE_SENDER_DEFAULT_STATS_INTERVAL 1000
#define GST_TILE_SENDER_DEFAULT_HANDSHAKE_TIMEOUT 5000
#define GST_TILE_SENDER_DEFAULT_TIMEOUT 5000
#define GST_TILE_SENDER_DEFAULT_PACKET_SIZE 1388
#define GST_TILE_SENDER_DEFAULT_PACING_BITRATE 0
#define GST_TILE_SENDER_DEFAULT_MAX_LATENCY 0
#define GST_TILE_SENDER_DEFAULT_MAX_RECEIVERS 8
#define GST_TILE_SENDER_DEFAULT_MULTICAST_TTL 1

/**
 * GST_TILE_SENDER_DEFAULT_CONGESTION_CONTROL:
 *
 * The default #GstTileSenderSettings @congestion_control (tilesink's
 * `congestion-control`): BBR, which keeps the bottleneck's queue short
 * where a loss-based algorithm fills it.
 */
#define GST_TILE_SENDER_DEFAULT_CONGESTION_CONTROL "bbr"
/**
 * GST_TILE_SENDER_FEC_AUTO:
 *
 * #GstTileSenderSettings @fec: the parity overhead follows the loss each
 * receiver's feedback reports (none while nothing is lost).
 */
#define GST_TILE_SENDER_FEC_AUTO (-1)

/**
 * GST_TILE_SENDER_DEFAULT_FEC:
 *
 * The default #GstTileSenderSettings @fec (tilesink's `fec`).
 */
#define GST_TILE_SENDER_DEFAULT_FEC GST_TILE_SENDER_FEC_AUTO

/* the longest deadline: an hour */
#define GST_TILE_SENDER_MAX_LATENCY (3600 * GST_SECOND)

/**
 * GstTileSenderSettings:
 * @address: address to listen on (host name or numeric IPv4/IPv6)
 * @port: TCP port to listen on, 0 for a free one
 * @n_units: tiles per frame, 1 to %GST_TILE_WIRE_MAX_UNITS
 * @protocol: data transport
 * @chunk_size: bytes per send() call (TCP)
 * @send_buffer_size: socket send buffer to ask for per unit, 0 for the
 *     kernel's default
 * @max_in_flight: frames that may still be on their way; one more is
 *     dropped whole
 * @stats_interval: call the stats callback every this many ms, 0 never
 * @handshake_timeout: ms a new connection has for its first message
 * @timeout: ms without a control message from the receiver (it sends a
 *     KEEPALIVE every second) after which its session ends
 * @packet_size: UDP: payload bytes per datagram
 * @gso: UDP: use segmentation offload (UDP_SEGMENT) when the kernel has it
 * @gso_required: UDP: report an error and end the session when it has not
 * @pacing_bitrate: UDP: bits/s all units together may send, 0 unpaced
 * @rate_control: UDP: pace at the rate the receiver's feedback gives (see
 *     #GstTileRateControl), never above @pacing_bitrate when that is set
 * @replace_waiting: with @max_in_flight frames in flight, a new frame
 *     replaces the oldest of them that no unit has started yet (that one
 *     is dropped instead), rather than being dropped itself
 * @max_latency: ns from a frame's admission after which what is left of it
 *     is abandoned (TCP: the receiver is told and drops the frame; UDP:
 *     its remaining datagrams are not sent), 0 for no deadline, at most
 *     %GST_TILE_SENDER_MAX_LATENCY
 * @passphrase: (nullable): %NULL or empty for none; else only a receiver
 *     that proves it knows the same passphrase gets a session, and every
 *     tile part and datagram is encrypted and authenticated (AES-128-GCM,
 *     see #GstTileSeal); copied
 * @max_receivers: receivers served at once, each in its own session (its
 *     own units, window, pacing and statistics, every frame read from the
 *     same buffer); one more is refused as busy; 0 for no limit
 * @multicast_group: (nullable): protocol=udp: a numeric IPv4 or IPv6
 *     multicast group; every datagram is then sent once, to the group
 *     (unit i's to the control port + 1 + i), for every receiver, and each
 *     receiver's session keeps only its control connection (handshake,
 *     ACKs, statistics); %NULL or empty for unicast; copied
 * @multicast_iface: (nullable): the interface to send the group's
 *     datagrams on, by name; %NULL for the route's; copied
 * @multicast_ttl: the group's datagrams' TTL (hop limit)
 * @multicast_loop: whether receivers on the sender's host get them
 * @retransmit: protocol=udp: send again the datagrams a receiver's NACK
 *     asks for, while the frame can still arrive in time (tilesink's
 *     `retransmit`)
 * @fec: protocol=udp: forward error correction, parity datagrams of each
 *     tile: 0 for none, 1 to 50 for that overhead in percent,
 *     %GST_TILE_SENDER_FEC_AUTO for an overhead from the loss the
 *     receiver's feedback reports (tilesink's `fec`)
 * @congestion_control: protocol=tcp: the units' TCP congestion control
 *     (TCP_CONGESTION), %NULL or "" for the system's default; when the
 *     kernel refuses it the units use the default (tilesink's
 *     `congestion-control`)
 *
 * What a #GstTileSender is made with; gst_tile_sender_settings_init() fills
 * in the defaults (tilesink's property defaults).
 */
typedef struct
{
  const gchar *address;
  guint port;
  guint n_units;
  GstTileWireProtocol protocol;
  guint chunk_size;
  gint send_buffer_size;
  guint max_in_flight;
  guint stats_interval;
  guint handshake_timeout;
  guint timeout;
  guint packet_size;
  gboolean gso;
  gboolean gso_required;
  guint64 pacing_bitrate;
  gboolean rate_control;
  gboolean replace_waiting;
  GstClockTime max_latency;
  const gchar *passphrase;
  guint max_receivers;
  const gchar *multicast_group;
  const gchar *multicast_iface;
  guint multicast_ttl;
  gboolean multicast_loop;
  gboolean retransmit;
  gint fec;
  const gchar *congestion_control;
} GstTileSenderSettings;

/**
 * GstTileSenderCallbacks:
 * @post_stats: every @stats_interval ms: the statistics (transfer full), as
 *     gst_tile_sender_get_stats() gives them
 * @buffer_warning: the kernel granted a unit's socket a smaller send buffer
 *     than asked for (@granted is what Linux reports: twice the usable
 *     size)
 * @post_error: the session cannot go on as set up (gso_required on a
 *     kernel without UDP GSO); @error is in a GStreamer error domain,
 *     @debug may be %NULL
 * @receiver_added: a receiver's handshake is done: its session has @id
 *     (1, 2, ... since the start) and its control connection comes from
 *     @peer ("host:port")
 * @receiver_removed: the session @id of the receiver at @peer ended,
 *     for @reason
 * @clock_time: the time of the owner's pipeline clock now, or
 *     %GST_CLOCK_TIME_NONE without one: the answer to a receiver's TIME
 *     query (its clock follows this one)
 * @capture_time: the capture time of the frame in @buffer on the owner's
 *     pipeline clock (the one @clock_time reads), or %GST_CLOCK_TIME_NONE
 *     when the owner knows none: the frame then counts as captured when it
 *     is admitted (@clock_time then). Called from the thread that pushes
 *     the frame (or, for a buffer of gst_tile_sender_new_pool(), the one
 *     that completes its first tile), without the sender's lock.
 *
 * What only the owner of a sender can do (post bus messages). Called from
 * the sender's server thread (but @capture_time), never with its lock
 * held; any may be %NULL.
 */
typedef struct
{
  void (*post_stats) (gpointer user_data, GstStructure * stats);
  void (*buffer_warning) (gpointer user_data, gint granted, gint asked);
  void (*post_error) (gpointer user_data, const GError * error,
      const gchar * debug);
  void (*receiver_added) (gpointer user_data, guint id, const gchar * peer);
  void (*receiver_removed) (gpointer user_data, guint id, const gchar * peer,
      const gchar * reason);
  GstClockTime (*clock_time) (gpointer user_data);
  GstClockTime (*capture_time) (gpointer user_data, GstBuffer * buffer);
} GstTileSenderCallbacks;

/**
 * GstTileSenderPushResult:
 * @GST_TILE_SENDER_PUSH_QUEUED: the frame was admitted and queued to every
 *     unit
 * @GST_TILE_SENDER_PUSH_UNSENT: no receiver is ready; counted as unsent
 * @GST_TILE_SENDER_PUSH_DROPPED: @max_in_flight frames are still on their
 *     way; dropped whole and counted
 * @GST_TILE_SENDER_PUSH_DROPPED_WINDOW: UDP: the receiver's window is
 *     full; dropped whole and counted
 * @GST_TILE_SENDER_PUSH_ERROR: the buffer is not a frame of the current
 *     caps, or cannot be mapped; the error says which
 *
 * What gst_tile_sender_push() did with a frame.
 */
typedef enum
{
  GST_TILE_SENDER_PUSH_QUEUED,
  GST_TILE_SENDER_PUSH_UNSENT,
  GST_TILE_SENDER_PUSH_DROPPED,
  GST_TILE_SENDER_PUSH_DROPPED_WINDOW,
  GST_TILE_SENDER_PUSH_ERROR,
} GstTileSenderPushResult;

GST_TILE_API
void            gst_tile_sender_settings_init (GstTileSenderSettings * settings);

GST_TILE_API
GstTileSender * gst_tile_sender_new (const GstTileSenderSettings * settings,
                                     const GstTileSenderCallbacks * callbacks,
                                     gpointer user_data,
                                     GstObject * log_object);

GST_TILE_API
void            gst_tile_sender_free (GstTileSender * sender);

GST_TILE_API
guint           gst_tile_sender_start (GstTileSender * sender,
                                       GError ** error);

GST_TILE_API
void            gst_tile_sender_stop (GstTileSender * sender);

GST_TILE_API
gboolean        gst_tile_sender_set_caps (GstTileSender * sender,
                                          const gchar * caps,
                                          const GstBcTiling * tiling,
                                          GError ** error);

GST_TILE_API
GstTileSenderPushResult gst_tile_sender_push (GstTileSender * sender,
                                              GstBuffer * buffer,
                                              GError ** error);

GST_TILE_API
GstBufferPool * gst_tile_sender_new_pool (GstTileSender * sender,
                                          GstCaps * caps);

GST_TILE_API
void            gst_tile_sender_send_eos (GstTileSender * sender);

GST_TILE_API
void            gst_tile_sender_clear_eos (GstTileSender * sender);

GST_TILE_API
GstStructure *  gst_tile_sender_get_stats (GstTileSender * sender);

GST_TILE_API
void            gst_tile_sender_get_frame_counts (GstTileSender * sender,
                                                  guint64 * sent,
                                                  guint64 * dropped);

GST_TILE_API
GstClockTime    gst_tile_sender_estimate_wait (GstTileSender * sender,
                                               GstClockTime * send_time);

GST_TILE_API
guint           gst_tile_sender_get_bound_port (GstTileSender * sender);

GST_TILE_API
guint           gst_tile_sender_get_n_units (GstTileSender * sender);

GST_TILE_API
void            gst_tile_sender_set_chunk_size (GstTileSender * sender,
                                                guint chunk_size);

GST_TILE_API
void            gst_tile_sender_set_max_latency (GstTileSender * sender,
                                                 GstClockTime max_latency);

GST_TILE_API
void            gst_tile_sender_set_replace_waiting (GstTileSender * sender,
                                                     gboolean replace);

GST_TILE_API
void            gst_tile_sender_set_max_in_flight (GstTileSender * sender,
                                                   guint max_in_flight);

GST_TILE_API
void            gst_tile_sender_set_fec (GstTileSender * sender, gint fec);

GST_TILE_API
gboolean        gst_tile_sender_fec_parse (const gchar * str, gint * fec);

GST_TILE_API
gchar          *gst_tile_sender_fec_to_string (gint fec);

GST_TILE_API
void            gst_tile_sender_set_pacing_bitrate (GstTileSender * sender,
                                                    guint64 bitrate);

GST_TILE_API
void            gst_tile_sender_set_rate_control (GstTileSender * sender,
                                                  gboolean enabled);

GST_TILE_API
gboolean        gst_tile_sender_remove_receiver (GstTileSender * sender,
                                                 guint id);

GST_TILE_API
guint           gst_tile_sender_get_n_receivers (GstTileSender * sender);

GST_TILE_API
void            gst_tile_sender_set_stats_interval (GstTileSender * sender,
                                                    guint interval_ms);

G_END_DECLS

#endif /* __GST_TILE_SENDER_H__ */
