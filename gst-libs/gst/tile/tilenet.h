/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_NET_H__
#define __GST_TILE_NET_H__

#include <gst/tile/tile-prelude.h>
#include <gio/gio.h>
#include <sys/socket.h>
#include <gst/tile/tilewire.h>

G_BEGIN_DECLS

/* libgsttile's socket helpers (internal: not installed, not exported),
 * used by its sender and receiver sessions. Sockets are plain blocking
 * POSIX descriptors; a wait is interrupted by shutdown() on the descriptor.
 * Every function that fails sets @error (G_IO_ERROR domain, or
 * GST_TILE_WIRE_ERROR for a malformed message) with a message fit for a
 * GST_ELEMENT_ERROR. */

gint     gst_tile_net_listen (const gchar * address, guint port,
                              guint * bound_port, GError ** error);

gint     gst_tile_net_connect (const gchar * host, guint port,
                               gint timeout_ms, gint rcvbuf,
                               gint * granted, GError ** error);

gint     gst_tile_net_accept (gint listen_fd, GError ** error);

void     gst_tile_net_close (gint * fd);

void     gst_tile_net_shutdown (gint fd);

void     gst_tile_net_set_nodelay (gint fd);

gint     gst_tile_net_set_buffer_size (gint fd, gboolean send, gint size);

gboolean gst_tile_net_set_unsent_limit (gint fd, guint bytes);

gboolean gst_tile_net_set_user_timeout (gint fd, guint ms);

gboolean gst_tile_net_set_congestion (gint fd, const gchar * name);

gboolean gst_tile_net_get_congestion (gint fd, gchar * name, gsize size);

gboolean gst_tile_net_set_receive_timeout (gint fd, guint ms);

/**
 * GstTileNetTcpState:
 * @delivery_rate: the kernel's last delivery rate sample, bit/s (bytes
 *     acknowledged over the time they took; one sample, so noisy)
 * @unsent: bytes written but not transmitted yet
 * @bytes_acked: bytes the peer acknowledged so far
 * @busy_us: time the connection had data to send so far, µs (0 on a
 *     kernel older than 4.10)
 * @rtt_us: the smoothed round-trip time
 * @unacked: segments sent and not acknowledged yet
 * @last_ack_ms: ms since the last acknowledgement came
 * @send_window: the receive window the peer last advertised, bytes
 *     (G_MAXUINT when the kernel does not say: older than 5.4)
 *
 * What gst_tile_net_tcp_state() reads from TCP_INFO.
 */
typedef struct
{
  guint64 delivery_rate;
  guint64 unsent;
  guint64 bytes_acked;
  guint64 busy_us;
  guint rtt_us;
  guint unacked;
  guint last_ack_ms;
  guint send_window;
} GstTileNetTcpState;

gboolean gst_tile_net_tcp_state (gint fd, GstTileNetTcpState * state);

gint     gst_tile_net_udp_bind (const struct sockaddr *addr, guint addrlen,
                                GError ** error);

gint     gst_tile_net_udp_socket (gint family, GError ** error);

gint     gst_tile_net_udp_bind_any (gint family, GError ** error);

gboolean gst_tile_net_parse_multicast (const gchar * group, guint8 * family,
                                       guint8 * addr, GError ** error);

gint     gst_tile_net_udp_multicast_sender (guint8 family,
                                            const guint8 * group, guint port,
                                            const gchar * iface, guint ttl,
                                            gboolean loop,
                                            const struct sockaddr_storage *
                                            source, GError ** error);

gint     gst_tile_net_udp_multicast_receiver (guint8 family,
                                              const guint8 * group,
                                              guint port,
                                              const gchar * iface,
                                              GError ** error);

gint     gst_tile_net_udp_connected (const struct sockaddr * peer,
                                     guint peer_len, GError ** error);

gint     gst_tile_net_udp_connected_from (const struct sockaddr * peer,
                                          guint peer_len,
                                          const struct sockaddr_storage * local,
                                          GError ** error);

void     gst_tile_net_udp_enable_destination (gint fd);

gssize   gst_tile_net_udp_recv_dest (gint fd, guint8 * buf, gsize len,
                                     struct sockaddr_storage * from,
                                     socklen_t * from_len,
                                     struct sockaddr_storage * dest);

void     gst_tile_net_udp_send_from (gint fd, const guint8 * data, gsize len,
                                     const struct sockaddr * peer,
                                     guint peer_len,
                                     const struct sockaddr_storage * src);

void     gst_tile_net_udp_send_to (gint fd, const guint8 * data, gsize len,
                                   const struct sockaddr * peer,
                                   guint peer_len);

void     gst_tile_net_udp_message_info (const struct msghdr * msg,
                                        guint * segment, guint32 * drops,
                                        guint64 * arrival_ns);

guint    gst_tile_net_local_port (gint fd);

guint    gst_tile_net_address (gint fd, gboolean peer,
                               struct sockaddr_storage * addr);

gchar *  gst_tile_net_peer_string (gint fd);

gboolean gst_tile_net_same_host (const struct sockaddr_storage * a,
                                 const struct sockaddr_storage * b);

guint    gst_tile_net_local_addresses (struct sockaddr_storage * out,
                                       guint max);

gboolean gst_tile_net_same_address (const struct sockaddr_storage * a,
                                    const struct sockaddr_storage * b);

gssize   gst_tile_net_read_until_eof (gint fd, guint8 * data, gsize len);

gssize   gst_tile_net_read_some (gint fd, guint8 * data, gsize len);

gboolean gst_tile_net_send_now (gint fd, const guint8 * data, gsize len,
                                GError ** error);

/* from <sys/socket.h> with _GNU_SOURCE */
struct mmsghdr;

gint     gst_tile_net_udp_send_batch (gint fd, struct mmsghdr * msgs,
                                      guint n, GError ** error);

guint64  gst_tile_net_queued (gint fd);

guint    gst_tile_net_udp_send_batch_nowait (gint fd, struct mmsghdr * msgs,
                                             guint n);

gint     gst_tile_net_udp_recv_batch (gint fd, struct mmsghdr * msgs,
                                      guint n, GError ** error);

gboolean gst_tile_net_set_gso (gint fd, guint segment_size);

gboolean gst_tile_net_set_gro (gint fd);

gboolean gst_tile_net_buffer_is_enough (gint granted, gint asked);

gboolean gst_tile_net_wait_any (const gint * fds, guint n, gint timeout_ms,
                                gboolean * ready);

gboolean gst_tile_net_wait (gint fd, gboolean for_write, gint timeout_ms,
                            GError ** error);

gboolean gst_tile_net_write_all (gint fd, const guint8 * data, gsize len,
                                 gsize chunk, GError ** error);

gboolean gst_tile_net_write_more (gint fd, const guint8 * data, gsize len,
                                  GError ** error);

gboolean gst_tile_net_read_all (gint fd, guint8 * data, gsize len,
                                gint timeout_ms, GError ** error);

gboolean gst_tile_net_send_packed (gint fd, const GByteArray * message,
                                   GError ** error);

gboolean gst_tile_net_read_message (gint fd, gint timeout_ms,
                                    GstTileWireHeader * header,
                                    GByteArray * payload, GError ** error);

void     gst_tile_net_send_refuse (gint fd, GstTileWireRefuseCode code,
                                   const gchar * reason);

const gchar * gst_tile_net_refuse_code_name (GstTileWireRefuseCode code);

G_END_DECLS

#endif /* __GST_TILE_NET_H__ */
