/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "tilenet.h"

#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <poll.h>
#include <string.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static void
set_errno_error (GError ** error, gint err, const gchar * what)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (err), "%s: %s",
      what, g_strerror (err));
}

static struct addrinfo *
resolve (const gchar * host, guint port, gboolean passive, GError ** error)
{
  struct addrinfo hints, *res = NULL;
  gchar service[16];
  gint ret;

  memset (&hints, 0, sizeof (hints));
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
  g_snprintf (service, sizeof (service), "%u", port);
  ret = getaddrinfo (host, service, &hints, &res);
  if (ret != 0) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_HOST_NOT_FOUND,
        "Could not resolve \"%s\": %s", host ? host : "(any)",
        gai_strerror (ret));
    return NULL;
  }
  return res;
}

gint
gst_tile_net_listen (const gchar * address, guint port, guint * bound_port,
    GError ** error)
{
  struct addrinfo *res, *ai;
  gint fd = -1, err = 0;
  struct sockaddr_storage ss;
  socklen_t sl = sizeof (ss);

  res = resolve (address, port, TRUE, error);
  if (!res)
    return -1;

  for (ai = res; ai; ai = ai->ai_next) {
    gint one = 1;

    fd = socket (ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
        ai->ai_protocol);
    if (fd < 0) {
      err = errno;
      continue;
    }
    setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof (one));
    if (bind (fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen (fd, 128) == 0)
      break;
    err = errno;
    close (fd);
    fd = -1;
  }
  freeaddrinfo (res);

  if (fd < 0) {
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (err),
        "Could not listen on %s port %u: %s", address, port, g_strerror (err));
    return -1;
  }

  if (getsockname (fd, (struct sockaddr *) &ss, &sl) == 0) {
    if (ss.ss_family == AF_INET)
      *bound_port = g_ntohs (((struct sockaddr_in *) &ss)->sin_port);
    else if (ss.ss_family == AF_INET6)
      *bound_port = g_ntohs (((struct sockaddr_in6 *) &ss)->sin6_port);
    else
      *bound_port = port;
  } else {
    *bound_port = port;
  }
  return fd;
}

gint
gst_tile_net_connect (const gchar * host, guint port, gint timeout_ms,
    gint rcvbuf, gint * granted, GError ** error)
{
  struct addrinfo *res, *ai;
  gint fd = -1, err = ECONNREFUSED;

  res = resolve (host, port, FALSE, error);
  if (!res)
    return -1;

  for (ai = res; ai; ai = ai->ai_next) {
    gint flags, soerr = 0;
    socklen_t len = sizeof (soerr);

    fd = socket (ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
        ai->ai_protocol);
    if (fd < 0) {
      err = errno;
      continue;
    }
    /* before connect(), so the window scale is negotiated for it */
    if (rcvbuf > 0 || granted) {
      gint g = gst_tile_net_set_buffer_size (fd, FALSE, rcvbuf);

      if (granted)
        *granted = g;
    }
    flags = fcntl (fd, F_GETFL);
    fcntl (fd, F_SETFL, flags | O_NONBLOCK);
    if (connect (fd, ai->ai_addr, ai->ai_addrlen) == 0) {
      fcntl (fd, F_SETFL, flags);
      break;
    }
    err = errno;
    if (err == EINPROGRESS) {
      struct pollfd p = { fd, POLLOUT, 0 };
      gint r;

      do {
        r = poll (&p, 1, timeout_ms);
      } while (r < 0 && errno == EINTR);
      if (r == 0) {
        err = ETIMEDOUT;
      } else if (getsockopt (fd, SOL_SOCKET, SO_ERROR, &soerr, &len) == 0
          && soerr == 0) {
        fcntl (fd, F_SETFL, flags);
        break;
      } else {
        err = soerr ? soerr : errno;
      }
    }
    close (fd);
    fd = -1;
  }
  freeaddrinfo (res);

  if (fd < 0) {
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (err),
        "Could not connect to %s port %u: %s", host, port, g_strerror (err));
    return -1;
  }
  gst_tile_net_set_nodelay (fd);
  return fd;
}

gint
gst_tile_net_accept (gint listen_fd, GError ** error)
{
  gint fd;

  do {
    fd = accept4 (listen_fd, NULL, NULL, SOCK_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    set_errno_error (error, errno, "accept failed");
    return -1;
  }
  gst_tile_net_set_nodelay (fd);
  return fd;
}

void
gst_tile_net_close (gint * fd)
{
  if (*fd >= 0) {
    close (*fd);
    *fd = -1;
  }
}

/* Wakes up any thread blocked on @fd; the descriptor stays valid until
 * gst_tile_net_close(). */
void
gst_tile_net_shutdown (gint fd)
{
  if (fd >= 0)
    shutdown (fd, SHUT_RDWR);
}

void
gst_tile_net_set_nodelay (gint fd)
{
  gint one = 1;

  /* tile headers are small: never let Nagle hold back the end of a tile */
  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof (one));
}

/**
 * gst_tile_net_set_unsent_limit:
 * @fd: a connected TCP socket
 * @bytes: unsent bytes at which the socket stops being writable
 *
 * TCP_NOTSENT_LOWAT: send() blocks, and poll() does not report the socket
 * writable, while @bytes or more of what was written have not been
 * transmitted yet. Keeps the queue in the host short whatever the send
 * buffer size (bytes in flight on the network are not counted).
 *
 * Returns: %FALSE when the kernel refused it
 */
gboolean
gst_tile_net_set_unsent_limit (gint fd, guint bytes)
{
  return setsockopt (fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, &bytes,
      sizeof (bytes)) == 0;
}

/**
 * gst_tile_net_set_user_timeout:
 * @fd: a connected TCP socket
 * @ms: how long written data may stay unacknowledged
 *
 * TCP_USER_TIMEOUT: when what was sent is not acknowledged for @ms (the
 * peer's host is gone, without a FIN or RST), the connection fails instead
 * of retransmitting for many minutes.
 *
 * Returns: %FALSE when the kernel refused it
 */
gboolean
gst_tile_net_set_user_timeout (gint fd, guint ms)
{
  return setsockopt (fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ms, sizeof (ms)) == 0;
}

/**
 * gst_tile_net_set_congestion:
 * @fd: a TCP socket
 * @name: a congestion control algorithm of the kernel ("bbr", "cubic")
 *
 * TCP_CONGESTION. An unprivileged process may only choose one listed in
 * net.ipv4.tcp_allowed_congestion_control.
 *
 * Returns: %FALSE when the kernel refused it (errno says why)
 */
gboolean
gst_tile_net_set_congestion (gint fd, const gchar * name)
{
  return setsockopt (fd, IPPROTO_TCP, TCP_CONGESTION, name,
      strlen (name)) == 0;
}

/**
 * gst_tile_net_get_congestion:
 * @fd: a TCP socket
 * @name: (out caller-allocates): where to write the algorithm's name
 * @size: the size of @name (16 holds any)
 *
 * The congestion control algorithm @fd uses (TCP_CONGESTION).
 *
 * Returns: %FALSE when the kernel did not say
 */
gboolean
gst_tile_net_get_congestion (gint fd, gchar * name, gsize size)
{
  socklen_t len;

  g_return_val_if_fail (size >= 2, FALSE);
  len = size - 1;
  memset (name, 0, size);
  return getsockopt (fd, IPPROTO_TCP, TCP_CONGESTION, name, &len) == 0
      && name[0] != '\0';
}

/**
 * gst_tile_net_set_receive_timeout:
 * @fd: a socket
 * @ms: how long a blocking receive may wait for data
 *
 * SO_RCVTIMEO: a blocking recv() that gets nothing for @ms fails with
 * EAGAIN (gst_tile_net_read_all() with no timeout of its own then fails
 * with %G_IO_ERROR_WOULD_BLOCK; gst_tile_net_read_until_eof() waits on
 * before the first byte), at no cost per call.
 *
 * Returns: %FALSE when the kernel refused it
 */
gboolean
gst_tile_net_set_receive_timeout (gint fd, guint ms)
{
  struct timeval tv;

  tv.tv_sec = ms / 1000;
  tv.tv_usec = (ms % 1000) * 1000;
  return setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof (tv)) == 0;
}

/* Asks for @size bytes of send or receive buffer and returns what the kernel
 * granted, as getsockopt() reports it (Linux reports twice the payload
 * bytes it accounts for; we report its number unchanged). When the normal
 * option is capped by net.core.[rw]mem_max the privileged *FORCE option is
 * tried, which works as root or with CAP_NET_ADMIN. */
gint
gst_tile_net_set_buffer_size (gint fd, gboolean send, gint size)
{
  gint opt = send ? SO_SNDBUF : SO_RCVBUF;
  gint granted = 0;
  socklen_t len = sizeof (granted);

  if (size > 0) {
    setsockopt (fd, SOL_SOCKET, opt, &size, sizeof (size));
    if (getsockopt (fd, SOL_SOCKET, opt, &granted, &len) == 0
        && !gst_tile_net_buffer_is_enough (granted, size)) {
      gint force = send ? SO_SNDBUFFORCE : SO_RCVBUFFORCE;
      setsockopt (fd, SOL_SOCKET, force, &size, sizeof (size));
    }
  }
  len = sizeof (granted);
  if (getsockopt (fd, SOL_SOCKET, opt, &granted, &len) != 0)
    granted = 0;
  return granted;
}

/* A UDP socket bound to @addr (the tilesink's control address and port:
 * it receives the receivers' UNIT_HELLO datagrams). */
gint
gst_tile_net_udp_bind (const struct sockaddr *addr, guint addrlen,
    GError ** error)
{
  gint fd = gst_tile_net_udp_socket (addr->sa_family, error);

  if (fd < 0)
    return -1;
  if (bind (fd, addr, addrlen) < 0) {
    set_errno_error (error, errno, "Could not bind the UDP socket");
    close (fd);
    return -1;
  }
  return fd;
}

gint
gst_tile_net_udp_socket (gint family, GError ** error)
{
  gint fd = socket (family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

  if (fd < 0)
    set_errno_error (error, errno, "Could not create a UDP socket");
  return fd;
}

/**
 * gst_tile_net_udp_bind_any:
 * @family: AF_INET or AF_INET6
 * @error: return location for a G_IO_ERROR
 *
 * A UDP socket on a port the kernel picks, on every address of @family,
 * that reports the datagrams its receive queue dropped (SO_RXQ_OVFL) and
 * when each arrived (SO_TIMESTAMPNS), read with
 * gst_tile_net_udp_message_info().
 *
 * Returns: the descriptor, -1 with @error set on failure.
 */
gint
gst_tile_net_udp_bind_any (gint family, GError ** error)
{
  struct sockaddr_storage local;
  gint one = 1;
  gint fd = gst_tile_net_udp_socket (family, error);

  if (fd < 0)
    return -1;
  memset (&local, 0, sizeof (local));
  local.ss_family = family;
  if (bind (fd, (struct sockaddr *) &local, family == AF_INET6 ?
          sizeof (struct sockaddr_in6) : sizeof (struct sockaddr_in)) < 0) {
    set_errno_error (error, errno, "Could not bind a UDP socket");
    close (fd);
    return -1;
  }
  setsockopt (fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof (one));
  setsockopt (fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof (one));
  return fd;
}

/**
 * gst_tile_net_parse_multicast:
 * @group: a numeric IPv4 or IPv6 multicast group ("239.255.0.1", "ff15::1")
 * @family: (out): 4 or 6
 * @addr: (out caller-allocates) (array fixed-size=16): the group in network
 *     order, the bytes past an IPv4 address 0
 * @error: return location for a G_IO_ERROR
 *
 * Returns: %TRUE when @group is a multicast group
 */
gboolean
gst_tile_net_parse_multicast (const gchar * group, guint8 * family,
    guint8 * addr, GError ** error)
{
  memset (addr, 0, 16);
  if (group && inet_pton (AF_INET, group, addr) == 1) {
    *family = 4;
    if ((addr[0] & 0xf0) == 0xe0)
      return TRUE;
  } else if (group && inet_pton (AF_INET6, group, addr) == 1) {
    *family = 6;
    if (addr[0] == 0xff)
      return TRUE;
  }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
      "\"%s\" is not a numeric IPv4 (224.0.0.0/4) or IPv6 (ff00::/8) "
      "multicast group", group ? group : "(null)");
  return FALSE;
}

/* @group (@family 4 or 6) and @port as a socket address; its size. */
static socklen_t
multicast_sockaddr (guint8 family, const guint8 * group, guint port,
    struct sockaddr_storage *ss)
{
  memset (ss, 0, sizeof (*ss));
  if (family == 4) {
    struct sockaddr_in *in = (struct sockaddr_in *) ss;

    in->sin_family = AF_INET;
    in->sin_port = htons (port);
    memcpy (&in->sin_addr, group, 4);
    return sizeof (*in);
  } else {
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) ss;

    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons (port);
    memcpy (&in6->sin6_addr, group, 16);
    return sizeof (*in6);
  }
}

/* The index of interface @iface (a name, or NULL/"" for the kernel's
 * choice: 0). FALSE with @error set when there is no such interface. */
static gboolean
interface_index (const gchar * iface, guint * index, GError ** error)
{
  *index = 0;
  if (!iface || !*iface)
    return TRUE;
  *index = if_nametoindex (iface);
  if (*index == 0) {
    set_errno_error (error, errno, "No multicast interface");
    g_prefix_error (error, "\"%s\": ", iface);
    return FALSE;
  }
  return TRUE;
}

/* A UDP socket for @group:@port (in @ss, @sl) and the index of @iface. */
static gint
multicast_socket (guint8 family, const guint8 * group, guint port,
    const gchar * iface, struct sockaddr_storage *ss, socklen_t * sl,
    guint * index, GError ** error)
{
  *sl = multicast_sockaddr (family, group, port, ss);
  if (!interface_index (iface, index, error))
    return -1;
  return gst_tile_net_udp_socket (ss->ss_family, error);
}

/**
 * gst_tile_net_udp_multicast_sender:
 * @family: 4 or 6, as gst_tile_net_parse_multicast() gives it
 * @group: (array fixed-size=16): the group
 * @port: the destination port
 * @iface: (nullable): the interface to send on, by name; %NULL or empty
 *     for the kernel's choice (the route to the group)
 * @ttl: the multicast TTL (hop limit): 1 stays on the local network
 * @loop: whether receivers on this host get the datagrams too
 * @source: (nullable): the local address to send from (its port is
 *     ignored), %NULL or a wildcard address for the kernel's choice: the
 *     receivers take the group's datagrams from the sender's host only
 * @error: return location for a G_IO_ERROR
 *
 * Returns: a UDP socket connected to @group:@port, -1 with @error set on
 *     failure.
 */
gint
gst_tile_net_udp_multicast_sender (guint8 family, const guint8 * group,
    guint port, const gchar * iface, guint ttl, gboolean loop,
    const struct sockaddr_storage *source, GError ** error)
{
  struct sockaddr_storage ss;
  socklen_t sl;
  gint hops = MIN (ttl, 255), lp = loop ? 1 : 0, r;
  guint index;
  gint fd = multicast_socket (family, group, port, iface, &ss, &sl, &index,
      error);

  if (fd < 0)
    return -1;
  if (family == 4) {
    struct ip_mreqn mr;

    memset (&mr, 0, sizeof (mr));
    mr.imr_ifindex = index;
    r = setsockopt (fd, IPPROTO_IP, IP_MULTICAST_TTL, &hops, sizeof (hops));
    r = r ? r : setsockopt (fd, IPPROTO_IP, IP_MULTICAST_LOOP, &lp,
        sizeof (lp));
    r = r ? r : (index ? setsockopt (fd, IPPROTO_IP, IP_MULTICAST_IF, &mr,
            sizeof (mr)) : 0);
  } else {
    r = setsockopt (fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &hops,
        sizeof (hops));
    r = r ? r : setsockopt (fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &lp,
        sizeof (lp));
    r = r ? r : (index ? setsockopt (fd, IPPROTO_IPV6, IPV6_MULTICAST_IF,
            &index, sizeof (index)) : 0);
  }
  if (r < 0) {
    set_errno_error (error, errno, "Could not set up a multicast socket");
    close (fd);
    return -1;
  }
  if (source && source->ss_family == ss.ss_family) {
    struct sockaddr_storage src = *source;
    gboolean any;

    if (family == 4) {
      ((struct sockaddr_in *) &src)->sin_port = 0;
      any = ((struct sockaddr_in *) &src)->sin_addr.s_addr == INADDR_ANY;
    } else {
      ((struct sockaddr_in6 *) &src)->sin6_port = 0;
      any =
          IN6_IS_ADDR_UNSPECIFIED (&((struct sockaddr_in6 *) &src)->sin6_addr);
    }
    if (!any && bind (fd, (struct sockaddr *) &src, sl) < 0) {
      set_errno_error (error, errno, "Could not bind to the source address");
      close (fd);
      return -1;
    }
  }
  if (connect (fd, (struct sockaddr *) &ss, sl) < 0) {
    set_errno_error (error, errno, "Could not send to the multicast group");
    close (fd);
    return -1;
  }
  return fd;
}

/**
 * gst_tile_net_udp_multicast_receiver:
 * @family: 4 or 6
 * @group: (array fixed-size=16): the group
 * @port: the port the group's datagrams are sent to
 * @iface: (nullable): the interface to join on, by name; %NULL or empty
 *     for the kernel's choice
 * @error: return location for a G_IO_ERROR
 *
 * A UDP socket bound to @group:@port (other receivers on this host may
 * bind it too: each gets every datagram), a member of @group on @iface,
 * that reports drops and arrival times as gst_tile_net_udp_bind_any()'s
 * do. Only datagrams sent to @group reach it.
 *
 * Returns: the descriptor, -1 with @error set on failure.
 */
gint
gst_tile_net_udp_multicast_receiver (guint8 family, const guint8 * group,
    guint port, const gchar * iface, GError ** error)
{
  struct sockaddr_storage ss;
  socklen_t sl;
  gint one = 1, r;
  guint index;
  gint fd = multicast_socket (family, group, port, iface, &ss, &sl, &index,
      error);

  if (fd < 0)
    return -1;
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof (one));
  if (bind (fd, (struct sockaddr *) &ss, sl) < 0) {
    set_errno_error (error, errno, "Could not bind to the multicast group");
    close (fd);
    return -1;
  }
  if (family == 4) {
    struct ip_mreqn mr;

    memset (&mr, 0, sizeof (mr));
    memcpy (&mr.imr_multiaddr, group, 4);
    mr.imr_ifindex = index;
    r = setsockopt (fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof (mr));
  } else {
    struct ipv6_mreq mr6;

    memcpy (&mr6.ipv6mr_multiaddr, group, 16);
    mr6.ipv6mr_interface = index;
    r = setsockopt (fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &mr6, sizeof (mr6));
  }
  if (r < 0) {
    set_errno_error (error, errno, "Could not join the multicast group");
    close (fd);
    return -1;
  }
  setsockopt (fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof (one));
  setsockopt (fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof (one));
  return fd;
}

/**
 * gst_tile_net_udp_connected:
 * @peer: where the socket sends
 * @peer_len: the size of @peer
 * @error: return location for a G_IO_ERROR
 *
 * Returns: a UDP socket connected to @peer, -1 with @error set on failure.
 */
gint
gst_tile_net_udp_connected (const struct sockaddr *peer, guint peer_len,
    GError ** error)
{
  gint fd = gst_tile_net_udp_socket (peer->sa_family, error);

  if (fd >= 0 && connect (fd, peer, peer_len) < 0) {
    set_errno_error (error, errno, "Could not connect a UDP socket");
    close (fd);
    return -1;
  }
  return fd;
}

/**
 * gst_tile_net_udp_connected_from:
 * @peer: where to
 * @peer_len: the size of @peer
 * @local: (nullable): the local address to send from (its port ignored),
 *     or NULL or an empty one (family 0) for the route's
 * @error: where the reason goes
 *
 * gst_tile_net_udp_connected(), bound to @local first: on a host with
 * several addresses the datagrams leave from the one the peer sent to,
 * not from the one the route to it would choose.
 *
 * Returns: the socket, -1 with @error set.
 */
gint
gst_tile_net_udp_connected_from (const struct sockaddr *peer,
    guint peer_len, const struct sockaddr_storage *local, GError ** error)
{
  struct sockaddr_storage bind_addr;
  gint fd;

  if (!local || local->ss_family != peer->sa_family)
    return gst_tile_net_udp_connected (peer, peer_len, error);
  fd = gst_tile_net_udp_socket (peer->sa_family, error);
  if (fd < 0)
    return -1;
  memcpy (&bind_addr, local, sizeof (bind_addr));
  if (bind_addr.ss_family == AF_INET)
    ((struct sockaddr_in *) &bind_addr)->sin_port = 0;
  else
    ((struct sockaddr_in6 *) &bind_addr)->sin6_port = 0;
  /* (a local address it cannot bind: the route's, as without one) */
  if (bind (fd, (struct sockaddr *) &bind_addr,
          bind_addr.ss_family == AF_INET ? sizeof (struct sockaddr_in) :
          sizeof (struct sockaddr_in6)) < 0) {
    close (fd);
    return gst_tile_net_udp_connected (peer, peer_len, error);
  }
  if (connect (fd, peer, peer_len) < 0) {
    set_errno_error (error, errno, "Could not connect a UDP socket");
    close (fd);
    return -1;
  }
  return fd;
}

/**
 * gst_tile_net_udp_enable_destination:
 * @fd: a UDP socket bound to a wildcard address
 *
 * Asks for the destination address of each datagram received on @fd
 * (IP_PKTINFO, IPV6_RECVPKTINFO), for gst_tile_net_udp_recv_dest().
 */
void
gst_tile_net_udp_enable_destination (gint fd)
{
  gint one = 1;

  setsockopt (fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof (one));
  setsockopt (fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, &one, sizeof (one));
}

/**
 * gst_tile_net_udp_recv_dest:
 * @fd: a UDP socket, gst_tile_net_udp_enable_destination() called
 * @buf: (array length=len): where the datagram goes
 * @len: its room
 * @from: (out caller-allocates): the sender's address
 * @from_len: (out): its size
 * @dest: (out caller-allocates): the address the datagram was sent to
 *     (port 0; family 0 when the kernel did not say)
 *
 * Receives one datagram without blocking.
 *
 * Returns: its size, -1 when there is none (errno set).
 */
gssize
gst_tile_net_udp_recv_dest (gint fd, guint8 * buf, gsize len,
    struct sockaddr_storage *from, socklen_t * from_len,
    struct sockaddr_storage *dest)
{
  union
  {
    struct cmsghdr align;
    guint8 buf[CMSG_SPACE (sizeof (struct in6_pktinfo)) +
        CMSG_SPACE (sizeof (struct in_pktinfo))];
  } control;
  struct iovec iov = { buf, len };
  struct msghdr msg = { 0 };
  struct cmsghdr *c;
  gssize n;

  memset (from, 0, sizeof (*from));
  memset (dest, 0, sizeof (*dest));
  msg.msg_name = from;
  msg.msg_namelen = sizeof (*from);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.buf;
  msg.msg_controllen = sizeof (control.buf);
  do {
    n = recvmsg (fd, &msg, MSG_DONTWAIT);
  } while (n < 0 && errno == EINTR);
  if (n < 0)
    return -1;
  *from_len = msg.msg_namelen;
  for (c = CMSG_FIRSTHDR (&msg); c; c = CMSG_NXTHDR (&msg, c)) {
    if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_PKTINFO) {
      struct in6_pktinfo pi;
      struct sockaddr_in6 *d = (struct sockaddr_in6 *) dest;

      memcpy (&pi, CMSG_DATA (c), sizeof (pi));
      d->sin6_family = AF_INET6;
      d->sin6_addr = pi.ipi6_addr;
      if (IN6_IS_ADDR_LINKLOCAL (&pi.ipi6_addr))
        d->sin6_scope_id = pi.ipi6_ifindex;
    } else if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO &&
        from->ss_family == AF_INET) {
      struct in_pktinfo pi;
      struct sockaddr_in *d = (struct sockaddr_in *) dest;

      memcpy (&pi, CMSG_DATA (c), sizeof (pi));
      d->sin_family = AF_INET;
      d->sin_addr = pi.ipi_addr;
    }
  }
  return n;
}

/**
 * gst_tile_net_udp_send_from:
 * @fd: a UDP socket
 * @data: (array length=len): the datagram
 * @len: its size
 * @peer: where to
 * @peer_len: the size of @peer
 * @src: (nullable): the local address to send from (gst_tile_net_udp_recv_dest()'s
 *     @dest of the datagram answered), NULL or family 0 for the route's
 *
 * gst_tile_net_udp_send_to(), from @src: an answer leaves from the
 * address its request was sent to.
 */
void
gst_tile_net_udp_send_from (gint fd, const guint8 * data, gsize len,
    const struct sockaddr *peer, guint peer_len,
    const struct sockaddr_storage *src)
{
  union
  {
    struct cmsghdr align;
    guint8 buf[CMSG_SPACE (sizeof (struct in6_pktinfo))];
  } control;
  struct iovec iov = { (void *) data, len };
  struct msghdr msg = { 0 };
  struct cmsghdr *c;
  gssize n;

  if (!src || src->ss_family == 0) {
    gst_tile_net_udp_send_to (fd, data, len, peer, peer_len);
    return;
  }
  memset (&control, 0, sizeof (control));
  msg.msg_name = (void *) peer;
  msg.msg_namelen = peer_len;
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.buf;
  c = (struct cmsghdr *) control.buf;
  if (src->ss_family == AF_INET6) {
    struct in6_pktinfo pi = { 0 };

    pi.ipi6_addr = ((const struct sockaddr_in6 *) src)->sin6_addr;
    pi.ipi6_ifindex = ((const struct sockaddr_in6 *) src)->sin6_scope_id;
    c->cmsg_level = IPPROTO_IPV6;
    c->cmsg_type = IPV6_PKTINFO;
    c->cmsg_len = CMSG_LEN (sizeof (pi));
    memcpy (CMSG_DATA (c), &pi, sizeof (pi));
    msg.msg_controllen = CMSG_SPACE (sizeof (pi));
  } else {
    struct in_pktinfo pi = { 0 };

    pi.ipi_spec_dst = ((const struct sockaddr_in *) src)->sin_addr;
    c->cmsg_level = IPPROTO_IP;
    c->cmsg_type = IP_PKTINFO;
    c->cmsg_len = CMSG_LEN (sizeof (pi));
    memcpy (CMSG_DATA (c), &pi, sizeof (pi));
    msg.msg_controllen = CMSG_SPACE (sizeof (pi));
  }
  n = sendmsg (fd, &msg, MSG_DONTWAIT);
  (void) n;
}

/**
 * gst_tile_net_udp_send_to:
 * @fd: a UDP socket
 * @data: (array length=len): the datagram
 * @len: its size
 * @peer: where to
 * @peer_len: the size of @peer
 *
 * Sends one datagram without blocking; a datagram the socket cannot take
 * now is dropped, as the network could drop it.
 */
void
gst_tile_net_udp_send_to (gint fd, const guint8 * data, gsize len,
    const struct sockaddr *peer, guint peer_len)
{
  gssize n = sendto (fd, data, len, MSG_DONTWAIT, peer, peer_len);

  (void) n;
}

/**
 * gst_tile_net_udp_message_info:
 * @msg: a message recvmsg() or recvmmsg() filled, control data included
 * @segment: (inout): the size of the datagrams UDP GRO coalesced into the
 *   message; left as it is when the message is a single datagram
 * @drops: (inout): the count of datagrams the socket's receive queue
 *   dropped so far (SO_RXQ_OVFL); left as it is when the message has none
 * @arrival_ns: (inout) (nullable): when the (first) datagram of the
 *   message arrived, `CLOCK_REALTIME` in ns, taken by the kernel
 *   (SO_TIMESTAMPNS): unlike a clock read after recvmmsg() it does not
 *   depend on when the receiving thread ran; left as it is when the
 *   message has none
 *
 * The control data needs room for 80 bytes (the three of them).
 */
void
gst_tile_net_udp_message_info (const struct msghdr *msg, guint * segment,
    guint32 * drops, guint64 * arrival_ns)
{
  struct cmsghdr *c;

  for (c = CMSG_FIRSTHDR (msg); c; c = CMSG_NXTHDR ((struct msghdr *) msg, c)) {
#ifdef UDP_GRO
    if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
      gint v;

      memcpy (&v, CMSG_DATA (c), sizeof (v));
      if (v > 0)
        *segment = v;
    }
#endif
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL)
      memcpy (drops, CMSG_DATA (c), sizeof (guint32));
    if (arrival_ns && c->cmsg_level == SOL_SOCKET &&
        c->cmsg_type == SCM_TIMESTAMPNS) {
      struct timespec ts;

      memcpy (&ts, CMSG_DATA (c), sizeof (ts));
      *arrival_ns = (guint64) ts.tv_sec * GST_SECOND + ts.tv_nsec;
    }
  }
}

/**
 * gst_tile_net_local_port:
 * @fd: a bound socket
 *
 * Returns: the local port of @fd, 0 when it has none.
 */
guint
gst_tile_net_local_port (gint fd)
{
  struct sockaddr_storage ss;
  socklen_t sl = sizeof (ss);

  if (fd < 0 || getsockname (fd, (struct sockaddr *) &ss, &sl) != 0)
    return 0;
  return g_ntohs (ss.ss_family == AF_INET6 ?
      ((struct sockaddr_in6 *) &ss)->sin6_port :
      ((struct sockaddr_in *) &ss)->sin_port);
}

/**
 * gst_tile_net_address:
 * @fd: a socket
 * @peer: %TRUE for the peer's address, %FALSE for the local one
 * @addr: (out caller-allocates): the address
 *
 * Returns: the size of @addr, 0 on failure.
 */
guint
gst_tile_net_address (gint fd, gboolean peer, struct sockaddr_storage *addr)
{
  socklen_t sl = sizeof (*addr);
  gint r = peer ? getpeername (fd, (struct sockaddr *) addr, &sl) :
      getsockname (fd, (struct sockaddr *) addr, &sl);

  return r == 0 ? sl : 0;
}

/**
 * gst_tile_net_peer_string:
 * @fd: a connected socket
 *
 * Returns: (transfer full): the peer's numeric address and port,
 *     "192.0.2.1:7000" or "[2001:db8::1]:7000", or "unknown"
 */
gchar *
gst_tile_net_peer_string (gint fd)
{
  struct sockaddr_storage ss;
  gchar host[NI_MAXHOST], serv[NI_MAXSERV];
  guint sl = gst_tile_net_address (fd, TRUE, &ss);

  if (sl == 0 || getnameinfo ((struct sockaddr *) &ss, sl, host,
          sizeof (host), serv, sizeof (serv),
          NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return g_strdup ("unknown");
  return g_strdup_printf (ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s",
      host, serv);
}

/* The IPv4 address of @a, also when it is IPv4-mapped IPv6 (a dual-stack
 * socket's view of an IPv4 peer); FALSE when it is no IPv4 address. */
static gboolean
address_v4 (const struct sockaddr_storage *a, guint32 * v4)
{
  const struct in6_addr *a6;

  if (a->ss_family == AF_INET) {
    *v4 = ((const struct sockaddr_in *) a)->sin_addr.s_addr;
    return TRUE;
  }
  if (a->ss_family != AF_INET6)
    return FALSE;
  a6 = &((const struct sockaddr_in6 *) a)->sin6_addr;
  if (!IN6_IS_ADDR_V4MAPPED (a6))
    return FALSE;
  memcpy (v4, a6->s6_addr + 12, 4);
  return TRUE;
}

static guint16
address_port (const struct sockaddr_storage *a)
{
  if (a->ss_family == AF_INET)
    return ((const struct sockaddr_in *) a)->sin_port;
  if (a->ss_family == AF_INET6)
    return ((const struct sockaddr_in6 *) a)->sin6_port;
  return 0;
}

/**
 * gst_tile_net_same_host:
 * @a: an IPv4 or IPv6 socket address
 * @b: another
 *
 * Returns: whether @a and @b name the same IP address, the ports aside (an
 *     IPv4 address and its IPv4-mapped IPv6 form are the same).
 */
gboolean
gst_tile_net_same_host (const struct sockaddr_storage *a,
    const struct sockaddr_storage *b)
{
  guint32 a4 = 0, b4 = 0;
  gboolean is_a4 = address_v4 (a, &a4), is_b4 = address_v4 (b, &b4);

  if (is_a4 || is_b4)
    return is_a4 && is_b4 && a4 == b4;
  if (a->ss_family != AF_INET6 || b->ss_family != AF_INET6)
    return FALSE;
  return memcmp (&((const struct sockaddr_in6 *) a)->sin6_addr,
      &((const struct sockaddr_in6 *) b)->sin6_addr,
      sizeof (struct in6_addr)) == 0;
}

/**
 * gst_tile_net_local_addresses:
 * @out: (out caller-allocates) (array length=max): where to
 * @max: room in @out
 *
 * The IP addresses of this host's interfaces that are up (loopback
 * included), without ports.
 *
 * Returns: how many were written to @out
 */
guint
gst_tile_net_local_addresses (struct sockaddr_storage *out, guint max)
{
  struct ifaddrs *list, *ifa;
  guint n = 0;

  if (getifaddrs (&list) != 0)
    return 0;
  for (ifa = list; ifa && n < max; ifa = ifa->ifa_next) {
    if (!ifa->ifa_addr || !(ifa->ifa_flags & IFF_UP))
      continue;
    if (ifa->ifa_addr->sa_family == AF_INET) {
      memset (&out[n], 0, sizeof (out[n]));
      memcpy (&out[n++], ifa->ifa_addr, sizeof (struct sockaddr_in));
    } else if (ifa->ifa_addr->sa_family == AF_INET6) {
      memset (&out[n], 0, sizeof (out[n]));
      memcpy (&out[n++], ifa->ifa_addr, sizeof (struct sockaddr_in6));
    }
  }
  freeifaddrs (list);
  return n;
}

/**
 * gst_tile_net_same_address:
 * @a: an IPv4 or IPv6 socket address
 * @b: another
 *
 * Returns: whether @a and @b are the same IP address and port.
 */
gboolean
gst_tile_net_same_address (const struct sockaddr_storage *a,
    const struct sockaddr_storage *b)
{
  return gst_tile_net_same_host (a, b) && address_port (a) == address_port (b);
}

/**
 * gst_tile_net_read_until_eof:
 * @fd: a blocking socket
 * @data: (array length=len): where to
 * @len: bytes wanted
 *
 * Reads up to @len bytes, stopping early only at the end of the
 * connection.
 *
 * Returns: the bytes read, -1 on error.
 */
gssize
gst_tile_net_read_until_eof (gint fd, guint8 * data, gsize len)
{
  gsize have = 0;

  while (have < len) {
    gssize n = recv (fd, data + have, len - have, 0);

    /* a receive timeout (SO_RCVTIMEO) before the first byte: a quiet
     * sender between two frames, not an error */
    if (n < 0 && (errno == EINTR || (have == 0 && (errno == EAGAIN ||
                    errno == EWOULDBLOCK))))
      continue;
    if (n < 0)
      return -1;
    if (n == 0)
      break;
    have += n;
  }
  return have;
}

/**
 * gst_tile_net_read_some:
 * @fd: a socket
 * @data: (array length=len): where to
 * @len: at most this many bytes
 *
 * Reads what has arrived, without blocking.
 *
 * Returns: the bytes read; 0 when nothing has arrived yet; -1 at the end of
 * the connection or on an error.
 */
gssize
gst_tile_net_read_some (gint fd, guint8 * data, gsize len)
{
  gssize n = recv (fd, data, len, MSG_DONTWAIT);

  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
    return 0;
  return n <= 0 ? -1 : n;
}

/**
 * gst_tile_net_send_now:
 * @fd: a connected socket
 * @data: (array length=len): the bytes
 * @len: how many
 * @error: return location for a G_IO_ERROR
 *
 * Sends @data whole without blocking: for small control messages to a
 * peer that must keep reading them.
 *
 * Returns: %FALSE, with @error set, when the socket did not take all of
 * @data at once (the peer does not read, or the connection is gone).
 */
gboolean
gst_tile_net_send_now (gint fd, const guint8 * data, gsize len, GError ** error)
{
  gssize n;

  do {
    n = send (fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    set_errno_error (error, errno, "Could not send");
    return FALSE;
  }
  if ((gsize) n != len) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK,
        "the peer does not read: %" G_GSSIZE_FORMAT " of %" G_GSIZE_FORMAT
        " bytes sent", n, len);
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_tile_net_udp_send_batch:
 * @fd: a connected UDP socket
 * @msgs: (array length=n): the messages (with GSO, each carries several
 *   datagrams)
 * @n: how many
 * @error: return location for a G_IO_ERROR
 *
 * Sends the first of @msgs with one sendmmsg() call, blocking while the
 * socket's buffer is full.
 *
 * Returns: how many messages left (at least 1), -1 with @error set.
 */
gint
gst_tile_net_udp_send_batch (gint fd, struct mmsghdr *msgs, guint n,
    GError ** error)
{
  gint r;

  do {
    r = sendmmsg (fd, msgs, n, 0);
  } while (r < 0 && errno == EINTR);
  if (r < 0)
    set_errno_error (error, errno, "sendmmsg failed");
  return r;
}

/**
 * gst_tile_net_queued:
 * @fd: a connected TCP socket
 *
 * Returns: the bytes its send queue holds (written and not acknowledged
 * yet, SIOCOUTQ), 0 when unknown.
 */
guint64
gst_tile_net_queued (gint fd)
{
  gint n = 0;

  if (ioctl (fd, SIOCOUTQ, &n) != 0 || n < 0)
    return 0;
  return (guint64) n;
}

/**
 * gst_tile_net_udp_send_batch_nowait:
 * @fd: a connected UDP socket
 * @msgs: (array length=n): the messages
 * @n: how many
 *
 * Sends @msgs with sendmmsg() calls that do not wait: what the socket's
 * buffer has no room for, or what fails (a path that went down), is not
 * sent.
 *
 * Returns: how many of the first messages left, 0 to @n.
 */
guint
gst_tile_net_udp_send_batch_nowait (gint fd, struct mmsghdr *msgs, guint n)
{
  guint done = 0;

  while (done < n) {
    gint r = sendmmsg (fd, msgs + done, n - done, MSG_DONTWAIT);

    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    done += r;
  }
  return done;
}

/**
 * gst_tile_net_udp_recv_batch:
 * @fd: a UDP socket
 * @msgs: (array length=n): where to (with GRO, each may get several
 *   datagrams; see gst_tile_net_udp_message_info())
 * @n: how many messages at most
 * @error: return location for a G_IO_ERROR
 *
 * Receives what has arrived with one recvmmsg() call, without blocking.
 *
 * Returns: how many messages were filled, 0 when none had arrived, -1 with
 * @error set.
 */
gint
gst_tile_net_udp_recv_batch (gint fd, struct mmsghdr *msgs, guint n,
    GError ** error)
{
  gint r = recvmmsg (fd, msgs, n, MSG_DONTWAIT, NULL);

  if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
    return 0;
  if (r < 0)
    set_errno_error (error, errno, "recvmmsg failed");
  return r;
}

/* UDP generic segmentation offload: one send of up to 64 KiB leaves as
 * datagrams of @segment_size bytes. FALSE when the kernel lacks it. */
gboolean
gst_tile_net_set_gso (gint fd, guint segment_size)
{
#ifdef UDP_SEGMENT
  gint v = segment_size;

  return setsockopt (fd, SOL_UDP, UDP_SEGMENT, &v, sizeof (v)) == 0;
#else
  return FALSE;
#endif
}

/* UDP generic receive offload: consecutive datagrams of one flow come up
 * as one buffer, with the segment size in a cmsg. */
gboolean
gst_tile_net_set_gro (gint fd)
{
#ifdef UDP_GRO
  gint one = 1;

  return setsockopt (fd, SOL_UDP, UDP_GRO, &one, sizeof (one)) == 0;
#else
  return FALSE;
#endif
}

/* Linux grants twice the asked size (the other half is for its own
 * bookkeeping), capped by net.core.[rw]mem_max: @granted, as getsockopt()
 * reports it, covers @asked when half of it does. */
gboolean
gst_tile_net_buffer_is_enough (gint granted, gint asked)
{
  return granted / 2 >= asked;
}

gboolean
gst_tile_net_wait (gint fd, gboolean for_write, gint timeout_ms,
    GError ** error)
{
  struct pollfd p = { fd, for_write ? POLLOUT : POLLIN, 0 };
  gint r;

  do {
    r = poll (&p, 1, timeout_ms);
  } while (r < 0 && errno == EINTR);
  if (r < 0) {
    set_errno_error (error, errno, "poll failed");
    return FALSE;
  }
  if (r == 0) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
        "No data for %d ms", timeout_ms);
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_tile_net_wait_any:
 * @fds: (array length=n): sockets, at most 16
 * @n: how many
 * @timeout_ms: how long to wait, -1 for ever
 * @ready: (out caller-allocates) (array length=n): which of them are
 *   readable (or closed, or failed)
 *
 * Waits until one of @fds can be read.
 *
 * Returns: whether one can, FALSE on the timeout or an error of poll().
 */
gboolean
gst_tile_net_wait_any (const gint * fds, guint n, gint timeout_ms,
    gboolean * ready)
{
  struct pollfd p[16];
  guint k;
  gint r;

  g_return_val_if_fail (n <= G_N_ELEMENTS (p), FALSE);
  for (k = 0; k < n; k++) {
    p[k].fd = fds[k];
    p[k].events = POLLIN;
    p[k].revents = 0;
  }
  do {
    r = poll (p, n, timeout_ms);
  } while (r < 0 && errno == EINTR);
  for (k = 0; k < n; k++)
    ready[k] = r > 0 && p[k].revents != 0;
  return r > 0;
}

static gboolean
send_all (gint fd, const guint8 * data, gsize len, gsize chunk, gint flags,
    GError ** error)
{
  if (chunk == 0)
    chunk = len;
  while (len > 0) {
    gssize n = send (fd, data, MIN (len, chunk), MSG_NOSIGNAL | flags);

    if (n < 0) {
      if (errno == EINTR)
        continue;
      set_errno_error (error, errno, "send failed");
      return FALSE;
    }
    data += n;
    len -= n;
  }
  return TRUE;
}

/* Sends @len bytes in send() calls of at most @chunk bytes (0: one call). */
gboolean
gst_tile_net_write_all (gint fd, const guint8 * data, gsize len, gsize chunk,
    GError ** error)
{
  return send_all (fd, data, len, chunk, 0, error);
}

/* Like gst_tile_net_write_all() in one call, telling the kernel that more
 * data follows so that a small header is not sent as a segment of its own
 * (TCP_NODELAY is on). */
gboolean
gst_tile_net_write_more (gint fd, const guint8 * data, gsize len,
    GError ** error)
{
  return send_all (fd, data, len, 0, MSG_MORE, error);
}

/* Reads exactly @len bytes. With @timeout_ms >= 0 every wait for more data
 * is bounded; -1 blocks (the data path, where shutdown() interrupts). */
gboolean
gst_tile_net_read_all (gint fd, guint8 * data, gsize len, gint timeout_ms,
    GError ** error)
{
  while (len > 0) {
    gssize n;

    if (timeout_ms >= 0 && !gst_tile_net_wait (fd, FALSE, timeout_ms, error))
      return FALSE;
    n = recv (fd, data, len, 0);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      set_errno_error (error, errno, "receive failed");
      return FALSE;
    }
    if (n == 0) {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
          "connection closed by peer");
      return FALSE;
    }
    data += n;
    len -= n;
  }
  return TRUE;
}

/* Sends a message made by one of the gst_tile_wire_*_pack() functions, which
 * write the header and the payload. */
gboolean
gst_tile_net_send_packed (gint fd, const GByteArray * message, GError ** error)
{
  return gst_tile_net_write_all (fd, message->data, message->len, 0, error);
}

/* Reads one control message: the header is validated (magic, version,
 * type, payload length <= GST_TILE_WIRE_MAX_PAYLOAD) before any payload byte
 * is read. */
gboolean
gst_tile_net_read_message (gint fd, gint timeout_ms, GstTileWireHeader * header,
    GByteArray * payload, GError ** error)
{
  guint8 hbuf[GST_TILE_WIRE_HEADER_SIZE];

  if (!gst_tile_net_read_all (fd, hbuf, sizeof (hbuf), timeout_ms, error))
    return FALSE;
  if (gst_tile_wire_header_parse (hbuf, sizeof (hbuf), header, error) !=
      GST_TILE_WIRE_PARSE_OK)
    return FALSE;
  g_byte_array_set_size (payload, header->payload_len);
  return gst_tile_net_read_all (fd, payload->data, header->payload_len,
      timeout_ms, error);
}

void
gst_tile_net_send_refuse (gint fd, GstTileWireRefuseCode code,
    const gchar * reason)
{
  GByteArray *p = g_byte_array_new ();
  gchar *r = g_strndup (reason, GST_TILE_WIRE_MAX_REASON);

  /* a reason cut inside a UTF-8 sequence would be refused by the packer */
  if (!g_utf8_validate (r, -1, NULL)) {
    g_free (r);
    r = g_strdup ("(invalid reason)");
  }
  if (gst_tile_wire_refuse_pack (code, r, p, NULL))
    gst_tile_net_send_packed (fd, p, NULL);
  g_free (r);
  g_byte_array_unref (p);
}

const gchar *
gst_tile_net_refuse_code_name (GstTileWireRefuseCode code)
{
  switch (code) {
    case GST_TILE_WIRE_REFUSE_BAD_MESSAGE:
      return "bad-message";
    case GST_TILE_WIRE_REFUSE_BAD_VERSION:
      return "bad-version";
    case GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN:
      return "unknown-token";
    case GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT:
      return "unknown-unit";
    case GST_TILE_WIRE_REFUSE_BUSY:
      return "busy";
    case GST_TILE_WIRE_REFUSE_OTHER:
      return "other";
    case GST_TILE_WIRE_REFUSE_UNAUTHORIZED:
      return "unauthorized";
  }
  return "unknown";
}
