/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* TCP_INFO for tilenet: on its own because the kernel's struct tcp_info
 * (linux/tcp.h), which has the delivery rate and the unsent bytes, cannot
 * be included together with glibc's netinet/tcp.h, whose older copy has
 * neither. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilenet.h"

#include <linux/tcp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

/**
 * gst_tile_net_tcp_state:
 * @fd: a connected TCP socket
 * @delivery_rate: (out): the kernel's estimate of the rate the connection
 *     delivers at, in bit/s (TCP_INFO's delivery rate: bytes acknowledged
 *     over the time they took, the same for every congestion control)
 * @unsent: (out): bytes written but not transmitted yet
 * @rtt_us: (out): the smoothed round-trip time
 *
 * Returns: %FALSE when the kernel does not say (not TCP, or too old)
 */
gboolean
gst_tile_net_tcp_state (gint fd, guint64 * delivery_rate, guint64 * unsent,
    guint * rtt_us)
{
  struct tcp_info ti;
  socklen_t len = sizeof (ti);
  gsize need = offsetof (struct tcp_info, tcpi_delivery_rate) +
      sizeof (ti.tcpi_delivery_rate);

  memset (&ti, 0, sizeof (ti));
  if (getsockopt (fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
    return FALSE;
  /* a kernel older than the delivery rate (4.9) fills less */
  if (len < need)
    return FALSE;
  *delivery_rate = ti.tcpi_delivery_rate * 8;
  *unsent = ti.tcpi_notsent_bytes;
  *rtt_us = ti.tcpi_rtt;
  return TRUE;
}
