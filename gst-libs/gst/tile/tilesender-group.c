/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GstTileSender's multicast group (GstTileSenderGroup): one set of units
 * that sends every frame once, to the group address (unit i's to port +
 * i), for every peer, its members. Here: the group made and freed, its
 * units' sockets per generation, its pace (gst_tile_rate_group () of its
 * members' rate controls), whether it takes frames and whether a member's
 * window is full. The members' control connections and flow control are
 * theirs (tilesender.c, tilesender-server.c). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "tilesender-private.h"

#include <string.h>

/* The group of this start, its units started: @secret is its data keys'
 * (copied; zeros without a passphrase). Lock held. */
GstTileSenderGroup *
gst_tile_sender_group_new_locked (GstTileSender * self, const guint8 * secret)
{
  GstTileSenderGroup *group = g_new0 (GstTileSenderGroup, 1);

  gst_tile_sender_owner_init (&group->owner, self, 0);
  group->owner.group = group;
  memcpy (group->secret, secret, sizeof (group->secret));
  gst_tile_rate_control_init (&group->rate, self->settings.pacing_bitrate);
  gst_tile_sender_owner_start_locked (&group->owner);
  return group;
}

/* Frees a joined group (gst_tile_sender_owner_join ()). */
void
gst_tile_sender_group_free (GstTileSenderGroup * group)
{
  gst_tile_sender_owner_clear (&group->owner);
  gst_tile_seal_wipe (group->secret, sizeof (group->secret));
  g_free (group);
}

/* A socket per tile, connected to the group and the tile's port, for the
 * group's units. Lock held. */
gboolean
gst_tile_sender_group_open_units_locked (GstTileSenderGroup * group,
    guint n_tiles, GError ** error)
{
  GstTileSender *self = group->owner.sender;
  const GstTileSenderMulticast *mc = &self->multicast;
  struct sockaddr_storage source;
  guint i;

  /* from the address we listen on, when it is one: the receivers connect
   * to it, and take the group's datagrams from that host only */
  if (gst_tile_net_address (self->server.listen_fd, FALSE, &source) == 0)
    source.ss_family = AF_UNSPEC;
  for (i = 0; i < n_tiles; i++) {
    GstTileSenderUnit *u = &group->owner.units[i];
    GError *err = NULL;

    u->fd = gst_tile_net_udp_multicast_sender (mc->family, mc->addr,
        mc->port + i, mc->iface, self->settings.multicast_ttl,
        self->settings.multicast_loop, &source, &err);
    if (u->fd < 0) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_OPEN_WRITE,
          "Cannot send to multicast group %s port %u: %s", mc->address,
          mc->port + i, err->message);
      g_clear_error (&err);
      gst_tile_sender_owner_close_data_locked (&group->owner);
      return FALSE;
    }
    self->totals.sum.granted_send_buffer =
        group->owner.counters.granted_send_buffer =
        gst_tile_net_set_buffer_size (u->fd, TRUE,
        self->settings.send_buffer_size);
    u->gso = self->settings.gso && gst_tile_net_set_gso (u->fd,
        GST_TILE_WIRE_DATAGRAM_OVERHEAD (self->crypto.passphrase != NULL) +
        self->settings.packet_size);
    group->owner.n_connected++;
  }
  return TRUE;
}

/* The group's heard members (gst_tile_sender_peer_heard ()), at most 64,
 * in @members, and their measured rates in @rates. Lock held. */
guint
gst_tile_sender_group_members_locked (GstTileSenderGroup * group,
    GstTileSenderPeer ** members, guint64 * rates)
{
  GPtrArray *peers = group->owner.sender->peers;
  guint i, n = 0;

  for (i = 0; i < peers->len && n < 64; i++) {
    GstTileSenderPeer *m = g_ptr_array_index (peers, i);

    if (!gst_tile_sender_peer_heard (m))
      continue;
    members[n] = m;
    rates[n++] = gst_tile_rate_control_get_rate (&m->flow.rate);
  }
  return n;
}

/* The pacing rate of the group's units: gst_tile_rate_group () of its
 * members (the slowest that is not behind the median), or when none has
 * measured one its own (the pacing bitrate, or unpaced). Never above
 * pacing-bitrate, which bounds every member's rate control. Lock held. */
guint64
gst_tile_sender_group_rate_locked (GstTileSenderGroup * group)
{
  GstTileSenderPeer *members[64];
  guint64 rates[64], rate;

  rate = gst_tile_rate_group (rates,
      gst_tile_sender_group_members_locked (group, members, rates));
  return rate ? rate : gst_tile_rate_control_get_rate (&group->rate);
}

/* Whether the group takes frames: its units up and a member that takes
 * them. Lock held. */
gboolean
gst_tile_sender_group_ready_locked (GstTileSenderGroup * group)
{
  GstTileSender *self = group->owner.sender;
  guint i;

  if (!self->have_config || group->owner.eos_sent ||
      group->owner.n_connected != self->config.n_tiles)
    return FALSE;
  for (i = 0; i < self->peers->len; i++)
    if (gst_tile_sender_peer_ready_locked (g_ptr_array_index (self->peers,
                i)))
      return TRUE;
  return FALSE;
}

/* Whether the group's next frame finds the window of a member full: a
 * heard member that takes frames and is not behind (see
 * gst_tile_rate_group ()). Lock held. */
gboolean
gst_tile_sender_group_window_full_locked (GstTileSenderGroup * group,
    gint64 now)
{
  GstTileSenderPeer *members[64];
  /* (zeroed: GCC 12 at -O3 cannot see that the first n are written) */
  guint64 rates[64] = { 0 }, median;
  guint i, n;

  n = gst_tile_sender_group_members_locked (group, members, rates);
  median = gst_tile_rate_median (rates, n);
  for (i = 0; i < n; i++) {
    if (gst_tile_sender_peer_ready_locked (members[i]) &&
        !gst_tile_rate_behind (rates[i], median) &&
        gst_tile_sender_flow_full (&members[i]->flow,
            group->owner.next_frame, now))
      return TRUE;
  }
  return FALSE;
}
