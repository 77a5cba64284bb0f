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
 * @state: (out caller-allocates): what the kernel says of it
 *
 * Returns: %FALSE when the kernel does not say (not TCP, or older than the
 *     delivery rate, 4.9)
 */
gboolean
gst_tile_net_tcp_state (gint fd, GstTileNetTcpState * state)
{
  struct tcp_info ti;
  socklen_t len = sizeof (ti);
  gsize need = offsetof (struct tcp_info, tcpi_delivery_rate) +
      sizeof (ti.tcpi_delivery_rate);
  gsize need_busy = offsetof (struct tcp_info, tcpi_busy_time) +
      sizeof (ti.tcpi_busy_time);
  gsize need_wnd = offsetof (struct tcp_info, tcpi_snd_wnd) +
      sizeof (ti.tcpi_snd_wnd);

  memset (&ti, 0, sizeof (ti));
  if (getsockopt (fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
    return FALSE;
  if (len < need)
    return FALSE;
  state->delivery_rate = ti.tcpi_delivery_rate * 8;
  state->unsent = ti.tcpi_notsent_bytes;
  state->bytes_acked = ti.tcpi_bytes_acked;
  state->busy_us = len >= need_busy ? ti.tcpi_busy_time : 0;
  state->rtt_us = ti.tcpi_rtt;
  state->unacked = ti.tcpi_unacked;
  state->last_ack_ms = ti.tcpi_last_ack_recv;
  state->send_window = len >= need_wnd ? ti.tcpi_snd_wnd : G_MAXUINT;
  return TRUE;
}
