/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gsttilesender
 * @title: GstTileSender
 * @short_description: the sending end of a tile session
 * @see_also: #GstTileWireConfig, tilesink
 *
 * A #GstTileSender listens on a TCP port and serves up to @max_receivers
 * receivers, each in a session of its own, as docs/wire-protocol.md
 * describes: the handshake (HELLO, CONFIG, one UNIT_HELLO per unit, over
 * TCP or as UDP datagrams), a CONFIG per caps change, keep-alives, the
 * receiver's STATS and, over UDP, its ACKs. Each frame given to
 * gst_tile_sender_push() is admitted whole or dropped whole, for each
 * receiver on its own (a slow one loses frames alone); an admitted frame is
 * queued, without a copy, to the receiver's thread per unit, which sends
 * its tile (a tile header and the rows over TCP, or datagrams over UDP).
 * Every receiver's units read the frame from the same mapping of the
 * buffer. With a multicast group, one set of units sends every frame once
 * to the group for every receiver.
 *
 * Threads: the caller's (push, set_caps, send_eos: the streaming thread of
 * tilesink), the server thread (accept, handshakes, control messages,
 * keep-alives, the stats callback, the end of sessions) and one thread per
 * unit of each receiver (or of the multicast group). `lock` guards the
 * receivers' state; no thread holds it while sending or receiving data,
 * and the callbacks are called without it.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "tilesender-private.h"
#include "tilebalance.h"
#include "tilestats.h"

#include <string.h>

GST_DEBUG_CATEGORY (gst_tile_sender_debug);

static void
debug_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_tile_sender_debug, "tilesender", 0,
        "The sending end of a tile session");
    g_once_init_leave (&done, 1);
  }
}

/**
 * gst_tile_sender_settings_init:
 * @settings: (out caller-allocates): settings to fill in
 *
 * Sets @settings to the defaults: TCP on 0.0.0.0 port 7000, 4 units,
 * 1 MiB chunks, 16 MiB send buffers, 1 frame in flight, no deadline, stats
 * every second, a 5 s handshake timeout, up to 8 receivers; for UDP
 * 1408-byte packets, GSO when the kernel has it, rate control,
 * retransmission; for TCP the BBR congestion control.
 */
void
gst_tile_sender_settings_init (GstTileSenderSettings * settings)
{
  g_return_if_fail (settings != NULL);

  memset (settings, 0, sizeof (*settings));
  settings->address = GST_TILE_SENDER_DEFAULT_ADDRESS;
  settings->port = GST_TILE_SENDER_DEFAULT_PORT;
  settings->n_units = GST_TILE_SENDER_DEFAULT_UNITS;
  settings->protocol = GST_TILE_WIRE_PROTOCOL_TCP;
  settings->chunk_size = GST_TILE_SENDER_DEFAULT_CHUNK_SIZE;
  settings->send_buffer_size = GST_TILE_SENDER_DEFAULT_SEND_BUFFER_SIZE;
  settings->max_in_flight = GST_TILE_SENDER_DEFAULT_MAX_IN_FLIGHT;
  settings->stats_interval = GST_TILE_SENDER_DEFAULT_STATS_INTERVAL;
  settings->handshake_timeout = GST_TILE_SENDER_DEFAULT_HANDSHAKE_TIMEOUT;
  settings->timeout = GST_TILE_SENDER_DEFAULT_TIMEOUT;
  settings->packet_size = GST_TILE_SENDER_DEFAULT_PACKET_SIZE;
  settings->gso = TRUE;
  settings->gso_required = FALSE;
  settings->pacing_bitrate = GST_TILE_SENDER_DEFAULT_PACING_BITRATE;
  settings->rate_control = TRUE;
  settings->max_latency = 0;
  settings->max_receivers = GST_TILE_SENDER_DEFAULT_MAX_RECEIVERS;
  settings->multicast_ttl = GST_TILE_SENDER_DEFAULT_MULTICAST_TTL;
  settings->multicast_loop = TRUE;
  settings->retransmit = TRUE;
  settings->fec = GST_TILE_SENDER_DEFAULT_FEC;
  settings->congestion_control = GST_TILE_SENDER_DEFAULT_CONGESTION_CONTROL;
}

/**
 * gst_tile_sender_new:
 * @settings: how to listen and send; copied
 * @callbacks: (nullable): what the owner does for the sender; copied
 * @user_data: passed to the callbacks
 * @log_object: (nullable): the object to log as (tilesink); not
 *     referenced, it must outlive the sender
 *
 * Makes a sender that is not listening yet: see gst_tile_sender_start().
 *
 * Returns: (transfer full): a new #GstTileSender, for gst_tile_sender_free()
 */
GstTileSender *
gst_tile_sender_new (const GstTileSenderSettings * settings,
    const GstTileSenderCallbacks * callbacks, gpointer user_data,
    GstObject * log_object)
{
  GstTileSender *self;

  g_return_val_if_fail (settings != NULL, NULL);
  g_return_val_if_fail (settings->n_units >= 1 &&
      settings->n_units <= GST_TILE_WIRE_MAX_UNITS, NULL);

  debug_init ();
  gst_tile_sender_pool_init_once ();

  self = g_new0 (GstTileSender, 1);
  self->settings = *settings;
  self->address = g_strdup (settings->address ? settings->address :
      GST_TILE_SENDER_DEFAULT_ADDRESS);
  self->settings.address = self->address;
  self->crypto.passphrase = g_strdup (settings->passphrase);
  self->settings.passphrase = self->crypto.passphrase;
  self->multicast.address = settings->multicast_group &&
      *settings->multicast_group ? g_strdup (settings->multicast_group) : NULL;
  self->settings.multicast_group = self->multicast.address;
  self->multicast.iface = settings->multicast_iface &&
      *settings->multicast_iface ? g_strdup (settings->multicast_iface) : NULL;
  self->settings.multicast_iface = self->multicast.iface;
  self->congestion_control = settings->congestion_control &&
      *settings->congestion_control ?
      g_strdup (settings->congestion_control) : NULL;
  self->settings.congestion_control = self->congestion_control;
  if (callbacks)
    self->callbacks = *callbacks;
  self->user_data = user_data;
  self->log_object = log_object;

  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  g_queue_init (&self->server.notices);
  self->server.listen_fd = -1;
  self->server.udp_fd = -1;
  self->server.pending = g_new0 (GstTileSenderPending, MAX_PENDING);
  self->peers = g_ptr_array_new ();
  self->link = g_new0 (GstTileSenderLink, 1);
  self->link->ref = 1;
  g_mutex_init (&self->link->lock);
  self->link->sender = self;
  return self;
}

GstTileSenderLink *
gst_tile_sender_link_ref (GstTileSenderLink * link)
{
  g_atomic_int_inc (&link->ref);
  return link;
}

void
gst_tile_sender_link_unref (GstTileSenderLink * link)
{
  if (!g_atomic_int_dec_and_test (&link->ref))
    return;
  g_mutex_clear (&link->lock);
  g_free (link);
}

/**
 * gst_tile_sender_free:
 * @sender: (transfer full): a #GstTileSender
 *
 * Stops @sender if it runs and frees it.
 */
void
gst_tile_sender_free (GstTileSender * sender)
{
  if (!sender)
    return;
  gst_tile_sender_stop (sender);
  /* the buffers of its pools no longer reach it */
  g_mutex_lock (&sender->link->lock);
  sender->link->sender = NULL;
  g_mutex_unlock (&sender->link->lock);
  gst_tile_sender_link_unref (sender->link);
  g_free (sender->server.pending);
  g_ptr_array_unref (sender->peers);
  g_mutex_clear (&sender->lock);
  g_cond_clear (&sender->cond);
  g_free (sender->address);
  g_free (sender->congestion_control);
  g_free (sender->multicast.address);
  g_free (sender->multicast.iface);
  gst_tile_wire_clear_passphrase (&sender->crypto.passphrase);
  gst_tile_seal_wipe (sender->crypto.cookie_key,
      sizeof (sender->crypto.cookie_key));
  g_free (sender);
}

/* A new receiver (or a start): its path is not known yet. Lock held. */
static void
reset_rate_locked (GstTileSenderPeer * peer)
{
  gst_tile_rate_control_init (&peer->flow.rate,
      peer->owner.sender->settings.pacing_bitrate);
  gst_tile_balance_stripe_init (&peer->flow.stripe);
  memset (peer->flow.sent, 0, sizeof (peer->flow.sent));
}

/* A new receiver's peer, its handshake (@hello, its region) done: it
 * takes @control_fd over, gets a token and starts its unit threads (a
 * member of the multicast group has none), and joins the list. Lock
 * held. */
GstTileSenderPeer *
gst_tile_sender_peer_new_locked (GstTileSender * self, gint control_fd,
    const GstTileWireHello * hello)
{
  GstTileSenderPeer *peer = g_new0 (GstTileSenderPeer, 1);

  gst_tile_sender_owner_init (&peer->owner, self, ++self->totals.clients);
  peer->owner.peer = peer;
  peer->has_region = (hello->flags & GST_TILE_WIRE_HELLO_FLAG_REGION) != 0;
  peer->balanced = (hello->flags & GST_TILE_WIRE_HELLO_FLAG_BALANCE) &&
      !self->group && self->settings.protocol == GST_TILE_WIRE_PROTOCOL_TCP;
  peer->redundant = (hello->flags & GST_TILE_WIRE_HELLO_FLAG_REDUNDANT) &&
      !self->group;
  peer->striped = (hello->flags & GST_TILE_WIRE_HELLO_FLAG_BALANCE) &&
      !peer->redundant && !self->group &&
      self->settings.protocol == GST_TILE_WIRE_PROTOCOL_UDP;
  /* redundant paths, balanced tiles: while the control connection's path
   * has failed, what we send on it waits in its buffer (a KEEPALIVE a
   * second) until the path comes back, and must not fill it */
  if (gst_tile_sender_peer_holds_paths (peer))
    gst_tile_net_set_buffer_size (control_fd, TRUE, 512 * 1024);
  peer->region = hello->region;
  peer->group = self->group;
  peer->address = gst_tile_net_peer_string (control_fd);
  gst_tile_net_address (control_fd, TRUE, &peer->host);
  gst_tile_net_address (control_fd, FALSE, &peer->local);
  peer->control.fd = control_fd;
  gst_poll_fd_init (&peer->control.pfd);
  gst_tile_sender_paths_init (peer);
  peer->control.payload = g_byte_array_new ();
  peer->started_us = peer->control.rx_us = g_get_monotonic_time ();
  reset_rate_locked (peer);
  if (!peer->group)
    gst_tile_sender_owner_start_locked (&peer->owner);
  g_ptr_array_add (self->peers, peer);
  return peer;
}

/* Owner @i of every owner of units: the peers' in order, then the
 * multicast group's; NULL past the last. Lock held. */
GstTileSenderOwner *
gst_tile_sender_owner_at (GstTileSender * self, guint i)
{
  if (i < self->peers->len)
    return &((GstTileSenderPeer *) g_ptr_array_index (self->peers, i))->owner;
  return i == self->peers->len && self->group ? &self->group->owner : NULL;
}

/* Frees a joined peer (gst_tile_sender_owner_join ()). */
void
gst_tile_sender_peer_free (GstTileSenderPeer * peer)
{
  guint i;

  gst_tile_net_close (&peer->control.fd);
  for (i = 0; i < GST_TILE_WIRE_MAX_PATHS; i++)
    gst_tile_net_close (&peer->paths[i].fd);
  gst_tile_sender_owner_clear (&peer->owner);
  if (peer->receiver_stats)
    gst_structure_free (peer->receiver_stats);
  g_byte_array_unref (peer->control.payload);
  gst_tile_keys_clear (&peer->keys);
  gst_tile_records_free (peer->control.records_out);
  gst_tile_records_free (peer->control.records_in);
  g_free (peer->address);
  g_free (peer->end_reason);
  g_free (peer);
}

/* Ends a peer: its session ends. Lock held. The control descriptor is
 * only shut down here, which makes it readable and so wakes the server
 * thread: that thread, which polls it, closes it and ends the peer's
 * threads. */
void
gst_tile_sender_peer_end_locked (GstTileSenderPeer * peer, const gchar * why)
{
  GstTileSender *self = peer->owner.sender;

  if (peer->control.fd < 0 || peer->control.dead)
    return;
  GST_INFO_OBJECT (self->log_object, "receiver %u (%s): session ends: %s",
      peer->owner.id, peer->address, why);
  peer->control.dead = TRUE;
  if (!peer->end_reason)
    peer->end_reason = g_strdup (why);
  gst_tile_sender_owner_close_data_locked (&peer->owner);
  gst_tile_net_shutdown (peer->control.fd);
  self->totals.disconnects++;
}

/* Whether @peer takes frames: its units up (over UDP its window known
 * too: its first ACK, which it sends once its unit sockets are up; a
 * member of the multicast group has no units of its own). Lock held. */
gboolean
gst_tile_sender_peer_ready_locked (GstTileSenderPeer * peer)
{
  GstTileSender *self = peer->owner.sender;

  if (!self->have_config || peer->owner.eos_sent)
    return FALSE;
  return peer->control.fd >= 0 && !peer->control.dead &&
      (peer->group || peer->owner.n_connected == peer->owner.n_used) &&
      (self->config.protocol != GST_TILE_WIRE_PROTOCOL_UDP ||
      peer->flow.window > 0);
}

/* Whether @o takes frames: a peer, or the multicast group (see
 * gst_tile_sender_group_ready_locked ()). Lock held. */
static gboolean
owner_ready_locked (GstTileSenderOwner * o)
{
  if (o->group)
    return gst_tile_sender_group_ready_locked (o->group);
  return gst_tile_sender_peer_ready_locked (o->peer);
}

/* The owners whose units send frames: the multicast group, or every
 * peer. */
static GstTileSenderOwner *
data_owner_at (GstTileSender * self, guint i)
{
  if (self->group)
    return i == 0 ? &self->group->owner : NULL;
  return i < self->peers->len ?
      &((GstTileSenderPeer *) g_ptr_array_index (self->peers, i))->owner :
      NULL;
}

static gboolean
any_ready_locked (GstTileSender * self)
{
  GstTileSenderOwner *o;
  guint i;

  for (i = 0; (o = data_owner_at (self, i)); i++)
    if (owner_ready_locked (o))
      return TRUE;
  return FALSE;
}

/* Control messages are small; a receiver that does not read its control
 * connection any more is treated as gone instead of blocking us. Lock
 * held. */
gboolean
gst_tile_sender_send_control_locked (GstTileSenderPeer * peer,
    const GByteArray * message)
{
  GstTileSenderControl *c = &peer->control;
  GByteArray *sealed = NULL;
  GError *err = NULL;
  gboolean ok;

  if (c->fd < 0 || c->dead)
    return FALSE;
  if (c->records_out) {
    sealed = g_byte_array_sized_new (message->len + GST_TILE_WIRE_HEADER_SIZE
        + GST_TILE_SEAL_TAG_SIZE);
    g_byte_array_append (sealed, message->data, message->len);
    if (!gst_tile_records_seal (c->records_out, sealed)) {
      g_byte_array_unref (sealed);
      gst_tile_sender_peer_end_locked (peer, "a control message too large "
          "to seal");
      return FALSE;
    }
    message = sealed;
  }
  ok = gst_tile_net_send_now (c->fd, message->data, message->len, &err);
  if (sealed)
    g_byte_array_unref (sealed);
  if (!ok) {
    gst_tile_sender_peer_end_locked (peer, g_error_matches (err,
            G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK) ?
        "control connection stalled" : err->message);
    g_clear_error (&err);
    return FALSE;
  }
  return TRUE;
}

/* The units of the current CONFIG that @peer's region needs (all without
 * one), and for a member of the multicast group the datagrams of a frame
 * on them. A region that does not fit the caps gets every unit: its
 * receiver refuses the caps. Lock held. */
static void
peer_use_region_locked (GstTileSenderPeer * peer)
{
  GstTileSender *self = peer->owner.sender;
  GError *err = NULL;
  guint64 units;
  guint i;

  if (!gst_tile_region_config_units (peer->has_region ? &peer->region :
          NULL, &self->config, &units, &err)) {
    GST_WARNING_OBJECT (self->log_object, "receiver %u (%s): %s: it gets "
        "every unit", peer->owner.id, peer->address, err->message);
    g_clear_error (&err);
  }
  gst_tile_sender_owner_use_units_locked (&peer->owner, units);
  peer->region_packets = peer->all_packets = 0;
  for (i = 0; i < self->config.n_tiles; i++) {
    guint32 n = self->config.packet_size ?
        gst_tile_wire_packets_per_tile (self->config.tiles[i].size,
        self->config.packet_size) : 0;

    peer->all_packets += n;
    if (gst_tile_sender_owner_uses (&peer->owner, i))
      peer->region_packets += n;
  }
  if (peer->has_region)
    GST_INFO_OBJECT (self->log_object, "receiver %u: region %u,%u,%u,%u: "
        "%u of %u units (0x%" G_GINT64_MODIFIER "x)", peer->owner.id,
        peer->region.x, peer->region.y, peer->region.width,
        peer->region.height, peer->owner.n_used, self->config.n_tiles,
        peer->owner.units_used);
}

/* The sender's CONFIG with the token of the owner of @peer's units, and
 * the units its region needs. Lock held. */
gboolean
gst_tile_sender_send_config_locked (GstTileSenderPeer * peer)
{
  GstTileSender *self = peer->owner.sender;
  GstTileSenderOwner *data = gst_tile_sender_peer_data_owner (peer);
  GByteArray *p = g_byte_array_new ();
  GstTileWireConfig *config = g_new (GstTileWireConfig, 1);
  GError *err = NULL;
  gboolean ret;

  /* a new generation: nothing of it is in flight yet, and the receiver's
   * window is unknown until its first acknowledgement (sent once its unit
   * sockets are up); a member of the multicast group counts the group's
   * frames, with the group's token */
  peer->flow.acked_next = data->next_frame;
  peer->flow.window = 0;
  peer->flow.progress_us = g_get_monotonic_time ();
  peer_use_region_locked (peer);
  *config = self->config;
  config->token = data->token;
  /* the group's secret goes only in a sealed CONFIG */
  if (peer->group && peer->control.records_out)
    memcpy (config->group_secret, peer->group->secret,
        sizeof (config->group_secret));
  ret = gst_tile_wire_config_pack (config, p, &err);
  if (!ret) {
    GST_ERROR_OBJECT (self->log_object, "cannot pack CONFIG: %s", err->message);
    g_clear_error (&err);
  } else {
    ret = gst_tile_sender_send_control_locked (peer, p);
  }
  g_free (config);
  g_byte_array_unref (p);
  return ret;
}

/* Resets the statistics for a start. Lock held. */
static void
reset_locked (GstTileSender * self)
{
  self->have_config = FALSE;
  memset (&self->totals, 0, sizeof (self->totals));
  memset (&self->crypto.auth_limit, 0, sizeof (self->crypto.auth_limit));
  memset (&self->server.refuse_limit, 0, sizeof (self->server.refuse_limit));
  memset (&self->server.warn_limit, 0, sizeof (self->server.warn_limit));
  memset (&self->config, 0, sizeof (self->config));
}

/* The listening socket and, for protocol=udp, the UDP socket with the same
 * address and port number that takes the units' UNIT_HELLO datagrams. */
static gboolean
open_sockets (GstTileSender * self, guint * bound, GError ** error)
{
  GError *err = NULL;
  gint fd, udp_fd = -1;

  fd = gst_tile_net_listen (self->address, self->settings.port, bound, error);
  if (fd < 0)
    return FALSE;
  /* accepted connections inherit this, so it applies from the first byte */
  gst_tile_net_set_buffer_size (fd, TRUE, self->settings.send_buffer_size);
  if (self->settings.protocol == GST_TILE_WIRE_PROTOCOL_UDP &&
      !self->multicast.address) {
    struct sockaddr_storage ss;
    guint sl = gst_tile_net_address (fd, FALSE, &ss);

    udp_fd = gst_tile_net_udp_bind ((struct sockaddr *) &ss, sl, &err);
    if (udp_fd >= 0)
      gst_tile_net_udp_enable_destination (udp_fd);
    if (udp_fd < 0) {
      g_set_error (error, err->domain, err->code, "%s on %s port %u",
          err->message, self->address, *bound);
      g_clear_error (&err);
      gst_tile_net_close (&fd);
      return FALSE;
    }
  }
  self->server.listen_fd = fd;
  self->server.udp_fd = udp_fd;
  return TRUE;
}

/* multicast_group: protocol udp, a numeric group. */
static gboolean
check_multicast (GstTileSender * self, GError ** error)
{
  if (self->settings.protocol != GST_TILE_WIRE_PROTOCOL_UDP) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "multicast-group %s needs protocol udp", self->multicast.address);
    return FALSE;
  }
  return gst_tile_net_parse_multicast (self->multicast.address,
      &self->multicast.family, self->multicast.addr, error);
}

/**
 * gst_tile_sender_start:
 * @sender: a #GstTileSender that is not running
 * @error: where to put why it cannot listen
 *
 * Listens (TCP, and for %GST_TILE_WIRE_PROTOCOL_UDP a UDP socket on the
 * same port number for the units' UNIT_HELLO datagrams) and starts the
 * server thread; each receiver has a thread per unit (with a multicast
 * group, the group has them). Frames are sent once caps are set
 * (gst_tile_sender_set_caps()) and a receiver has connected all its
 * units.
 * A stopped sender may be started again; its statistics start from zero.
 *
 * Returns: the port listened on, or 0 on error
 */
guint
gst_tile_sender_start (GstTileSender * sender, GError ** error)
{
  GstTileSender *self = sender;
  guint8 group_secret[GST_TILE_WIRE_GROUP_SECRET_SIZE];
  guint bound = 0;

  g_return_val_if_fail (sender != NULL, 0);
  g_return_val_if_fail (sender->server.thread == NULL, 0);

  if (self->crypto.passphrase
      && self->settings.protocol == GST_TILE_WIRE_PROTOCOL_UDP
      && self->settings.packet_size > GST_TILE_WIRE_MAX_PACKET_PAYLOAD -
      GST_TILE_SEAL_TAG_SIZE) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "packet-size %u is too large with a passphrase: a datagram's "
        "authentication tag takes %u bytes, so at most %u",
        self->settings.packet_size, GST_TILE_SEAL_TAG_SIZE,
        GST_TILE_WIRE_MAX_PACKET_PAYLOAD - GST_TILE_SEAL_TAG_SIZE);
    return 0;
  }
  if (self->crypto.passphrase && !*self->crypto.passphrase) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "An empty passphrase is refused: leave it unset for none, or set "
        "one both ends know");
    return 0;
  }
  /* multicast with a passphrase: the group's secret of this start */
  memset (group_secret, 0, sizeof (group_secret));
  if (self->crypto.passphrase && self->multicast.address &&
      !gst_tile_seal_random (group_secret, sizeof (group_secret))) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "no random numbers "
        "for the multicast group's secret: libcrypto failed");
    return 0;
  }
  if (self->multicast.address && !check_multicast (self, error))
    goto failed;
  /* the UNIT_HELLO cookies of this start */
  if (!gst_tile_seal_random (self->crypto.cookie_key,
          sizeof (self->crypto.cookie_key))) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "no random numbers "
        "for the address-validation cookies: libcrypto failed");
    goto failed;
  }
  self->crypto.cookie_epoch_us = g_get_monotonic_time ();
  if (!open_sockets (self, &bound, error))
    goto failed;
  if (self->multicast.address && bound + self->settings.n_units > 65535) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "port %u leaves no room for the multicast ports of %u units "
        "(port + 1 to port + %u)", bound, self->settings.n_units,
        self->settings.n_units);
    gst_tile_net_close (&self->server.listen_fd);
    goto failed;
  }
  self->multicast.port = self->multicast.address ? bound + 1 : 0;
  GST_INFO_OBJECT (self->log_object, "listening on %s port %u%s%s",
      self->address, bound, self->multicast.address ? ", sending to group " :
      "", self->multicast.address ? self->multicast.address : "");

  g_mutex_lock (&self->lock);
  self->server.poll = gst_poll_new (TRUE);
  self->server.bound_port = bound;
  self->running = TRUE;
  reset_locked (self);
  if (self->multicast.address)
    self->group = gst_tile_sender_group_new_locked (self, group_secret);
  self->server.thread = g_thread_new ("tilesink-server",
      gst_tile_sender_server_thread, self);
  g_mutex_unlock (&self->lock);
  gst_tile_seal_wipe (group_secret, sizeof (group_secret));
  return bound;

failed:
  gst_tile_seal_wipe (group_secret, sizeof (group_secret));
  return 0;
}

/**
 * gst_tile_sender_stop:
 * @sender: a #GstTileSender
 *
 * Ends every session, stops the threads, drops the frames not sent yet and
 * closes every socket. The statistics stay readable. Does nothing when
 * @sender is not running.
 */
void
gst_tile_sender_stop (GstTileSender * sender)
{
  GstTileSender *self = sender;
  GstTileSenderGroup *group;
  GstTileSenderOwner *o;
  GstTileSenderPeer *peer;
  guint i;

  g_return_if_fail (sender != NULL);

  g_mutex_lock (&self->lock);
  if (!self->server.thread) {
    g_mutex_unlock (&self->lock);
    return;
  }
  self->running = FALSE;
  for (i = 0; i < self->peers->len; i++)
    gst_tile_sender_peer_end_locked (g_ptr_array_index (self->peers, i),
        "stopping");
  for (i = 0; (o = gst_tile_sender_owner_at (self, i)); i++)
    gst_tile_sender_owner_wake_locked (o, G_MAXUINT);
  g_cond_broadcast (&self->cond);
  gst_poll_set_flushing (self->server.poll, TRUE);
  g_mutex_unlock (&self->lock);

  g_thread_join (self->server.thread);
  self->server.thread = NULL;

  /* the group goes, and is freed once its members are */
  g_mutex_lock (&self->lock);
  group = self->group;
  self->group = NULL;
  g_mutex_unlock (&self->lock);
  if (group)
    gst_tile_sender_owner_join (&group->owner);
  /* the peers the server thread did not end */
  g_mutex_lock (&self->lock);
  while (self->peers->len > 0) {
    peer = g_ptr_array_steal_index (self->peers, 0);
    g_mutex_unlock (&self->lock);
    gst_tile_sender_owner_join (&peer->owner);
    if (self->callbacks.receiver_removed)
      self->callbacks.receiver_removed (self->user_data, peer->owner.id,
          peer->address, peer->end_reason ? peer->end_reason : "stopping");
    gst_tile_sender_peer_free (peer);
    g_mutex_lock (&self->lock);
  }
  while (self->server.n_pending > 0)
    gst_tile_sender_close_pending_locked (self, self->server.n_pending - 1);
  gst_tile_net_close (&self->server.listen_fd);
  gst_tile_net_close (&self->server.udp_fd);
  gst_poll_free (self->server.poll);
  self->server.poll = NULL;
  self->server.bound_port = 0;
  self->have_config = FALSE;
  g_mutex_unlock (&self->lock);
  if (group)
    gst_tile_sender_group_free (group);
}

/**
 * gst_tile_sender_set_caps:
 * @sender: a running #GstTileSender
 * @caps: the caps of the frames to come, as gst_caps_to_string() writes
 *     them
 * @tiling: how a frame of @caps is cut into tiles, for at most the units
 *     @sender was made with
 * @error: where to put why the caps cannot be described to a receiver
 *
 * Starts a new generation: the frames already admitted go out first (for
 * up to 5 s), then the data connections of the old generation close and
 * every receiver gets a CONFIG with the new caps and tiles, and reconnects
 * its units.
 *
 * Returns: %TRUE when the new generation is set
 */
gboolean
gst_tile_sender_set_caps (GstTileSender * sender, const gchar * caps,
    const GstBcTiling * tiling, GError ** error)
{
  GstTileSender *self = sender;
  GstTileWireConfig *config;
  guint i;

  g_return_val_if_fail (sender != NULL, FALSE);
  g_return_val_if_fail (caps != NULL && tiling != NULL, FALSE);

  if (tiling->n_tiles > self->settings.n_units) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "%u tiles, but the sender has %u units", tiling->n_tiles,
        self->settings.n_units);
    return FALSE;
  }
  config = g_new0 (GstTileWireConfig, 1);
  config->n_units = self->settings.n_units;
  config->chunk_size = g_atomic_int_get (&self->settings.chunk_size);
  config->protocol = self->settings.protocol;
  if (config->protocol == GST_TILE_WIRE_PROTOCOL_UDP)
    config->packet_size = self->settings.packet_size;
  if (!gst_tile_wire_config_set_tiling (config, tiling, error) ||
      !gst_tile_wire_config_set_caps (config, caps, error)) {
    g_free (config);
    return FALSE;
  }

  g_mutex_lock (&self->lock);
  if (self->have_config && (self->peers->len > 0 || self->group)) {
    gboolean drained = gst_tile_sender_drain_locked (self);

    /* the frames of the old caps go out first; closing their connections
     * tells the receivers that generation is over */
    for (i = 0; i < self->peers->len; i++) {
      GstTileSenderPeer *peer = g_ptr_array_index (self->peers, i);

      if (!drained && peer->owner.in_flight > 0)
        gst_tile_sender_peer_end_locked (peer,
            "frames of the old caps could not be sent");
      gst_tile_sender_owner_close_data_locked (&peer->owner);
    }
    if (self->group)
      gst_tile_sender_owner_close_data_locked (&self->group->owner);
  }
  config->generation = self->config.generation + 1;
  config->mcast_family = self->multicast.family;
  memcpy (config->mcast_addr, self->multicast.addr, 16);
  config->mcast_port = self->multicast.port;
  if (self->group && !gst_tile_sender_group_open_units_locked (self->group,
          config->n_tiles, error)) {
    self->have_config = FALSE;
    g_mutex_unlock (&self->lock);
    g_free (config);
    return FALSE;
  }
  self->config = *config;
  self->tiling = *tiling;
  self->frame_size = config->frame_size;
  self->have_config = TRUE;
  if (self->group)
    gst_tile_sender_owner_use_units_locked (&self->group->owner, G_MAXUINT64);
  GST_INFO_OBJECT (self->log_object, "generation %u: %u tiles of %"
      G_GSIZE_FORMAT " byte frames, caps %s", config->generation,
      tiling->n_tiles, self->frame_size, caps);
  for (i = 0; i < self->peers->len; i++)
    gst_tile_sender_send_config_locked (g_ptr_array_index (self->peers, i));
  g_mutex_unlock (&self->lock);
  g_free (config);
  return TRUE;
}

/* the origin time of a frame (see gst_tile_sender_push ()) */
static GstStaticCaps unix_ts_caps = GST_STATIC_CAPS ("timestamp/x-unix");
/* an origin further than this from now is not believed (a file, another
 * clock far off); one a little ahead is another host's clock */
#define GST_TILE_SENDER_MAX_ORIGIN_LAG (10 * GST_SECOND)

/* replace_waiting: takes the oldest frame in flight to @o that no unit
 * has started out of every unit's queue (they all end with the frames not
 * started, in the same order) and counts it as dropped (replaced). The
 * frames after it, not started either, take the numbers one lower, and
 * the next frame the last one, so the receiver sees no gap. Returns it for
 * gst_tile_sender_frame_free () outside the lock, NULL when there is none.
 * Lock held. */
static GstTileSenderFrame *
take_waiting_locked (GstTileSenderOwner * o)
{
  GstTileSender *self = o->sender;
  GstTileSenderFrame *frame = NULL;
  GList *l, *first = NULL;
  guint i, n = self->config.n_tiles, head = 0;

  if (!self->settings.replace_waiting || o->n_used == 0)
    return NULL;
  /* (the units whose paths failed have no frames queued) */
  while (head < n && (!gst_tile_sender_owner_uses (o, head) ||
          o->units[head].path_failed))
    head++;
  if (head == n)
    return NULL;
  for (l = o->units[head].queue.tail; l; l = l->prev) {
    GstTileSenderFrame *f = l->data;

    if (f->started > 0)
      break;
    first = l;
  }
  if (first == NULL)
    return NULL;
  frame = first->data;
  for (l = first->next; l; l = l->next) {
    GstTileSenderFrame *f = l->data;

    o->admit_us[(f->number - 1) % ADMIT_RING] =
        o->admit_us[f->number % ADMIT_RING];
    f->number--;
  }
  for (i = 0; i < n; i++) {
    GstTileSenderUnit *u = &o->units[i];
    guint k;

    if (!gst_tile_sender_owner_uses (o, i))
      continue;
    if (g_queue_remove (&u->queue, frame))
      g_atomic_int_add (&u->queued, -1);
    for (k = 0; k < u->n_tcp_copies; k++)
      if (g_queue_remove (&u->tcp_copy[k]->queue, frame))
        g_atomic_int_add (&u->tcp_copy[k]->queued, -1);
  }
  o->in_flight--;
  o->next_frame--;
  o->counters.frames_dropped++;
  o->counters.frames_replaced++;
  self->totals.sum.frames_dropped++;
  self->totals.sum.frames_replaced++;
  GST_DEBUG_OBJECT (self->log_object, "receiver %u: %u frames in flight, the "
      "oldest waiting one replaced by a newer one", o->id, o->in_flight + 1);
  return frame;
}

/* Whether the next frame of @o finds a receiver's window full
 * (protocol=udp): its peer's, or for the multicast group a member's (see
 * gst_tile_sender_group_window_full_locked ()). Lock held. */
static gboolean
window_full_locked (GstTileSenderOwner * o)
{
  GstTileSender *self = o->sender;
  gint64 now = g_get_monotonic_time ();

  if (self->config.protocol != GST_TILE_WIRE_PROTOCOL_UDP)
    return FALSE;
  if (o->group)
    return gst_tile_sender_group_window_full_locked (o->group, now);
  return gst_tile_sender_flow_full (&o->peer->flow, o->next_frame, now);
}

/* Whether a frame may go to @o now (in place of a frame it replaces, with
 * replace_waiting, which goes to @freed, as frames the failed paths of
 * balanced tiles gave up do); counts the ones that may not. @o is ready.
 * Lock held. */
static GstTileSenderPushResult
admit_locked (GstTileSenderOwner * o, GPtrArray ** freed)
{
  GstTileSender *self = o->sender;
  GstTileSenderFrame *replaced = NULL;

  if (o->peer && o->peer->balanced &&
      gst_tile_sender_balance_paths_locked (o, freed) == 0) {
    o->counters.frames_dropped++;
    self->totals.sum.frames_dropped++;
    GST_DEBUG_OBJECT (self->log_object, "receiver %u: the paths of all its "
        "units failed, dropping a frame", o->id);
    return GST_TILE_SENDER_PUSH_DROPPED;
  }
  if (window_full_locked (o)) {
    /* UDP has no back-pressure of its own: beyond the receiver's window
     * its socket buffers would overflow and every frame come out with
     * gaps, so whole frames are dropped here instead. (Acknowledgements
     * that stop for ACK_STALL_US, the ACK lost say, open the window.) */
    o->counters.frames_dropped++;
    o->counters.frames_window++;
    self->totals.sum.frames_dropped++;
    self->totals.sum.frames_window++;
    GST_DEBUG_OBJECT (self->log_object, "receiver %u: window of %u frames "
        "full, dropping one", o->id, o->peer ? o->peer->flow.window : 0);
    return GST_TILE_SENDER_PUSH_DROPPED_WINDOW;
  }
  if (o->in_flight >=
      (guint) g_atomic_int_get (&self->settings.max_in_flight) &&
      !(replaced = take_waiting_locked (o))) {
    o->counters.frames_dropped++;
    self->totals.sum.frames_dropped++;
    GST_DEBUG_OBJECT (self->log_object, "receiver %u: %u frames in flight, "
        "dropping one", o->id, o->in_flight);
    return GST_TILE_SENDER_PUSH_DROPPED;
  }
  if (replaced) {
    if (!*freed)
      *freed = g_ptr_array_new ();
    g_ptr_array_add (*freed, replaced);
  }
  return GST_TILE_SENDER_PUSH_QUEUED;
}

/* The stall clock of a window runs from the oldest frame not
 * acknowledged: from @now when nothing was outstanding before frame
 * @next. */
static void
flow_start (GstTileSenderFlow * flow, guint64 next, gint64 now)
{
  if (next == flow->acked_next)
    flow->progress_us = now;
}

/* Takes sample @s of connection @fd now. */
static void
tcp_sample_take (GstTileSenderTcpSample * s, gint fd,
    const GstTileNetTcpState * st, gint64 now)
{
  s->fd = fd;
  s->at_us = now;
  s->acked = st->bytes_acked;
  s->busy_us = st->busy_us;
}

/* The bytes connection @fd got acknowledged and the time it had data in
 * flight (TCP_INFO's bytes_acked and busy_time: the time it waited for
 * data does not count) since sample @s, in @acked and @busy_us. FALSE, and
 * @s taken now, when @s is of no connection or another one (a reconnect,
 * or counters that went back). */
static gboolean
tcp_sample_since (GstTileSenderTcpSample * s, gint fd,
    const GstTileNetTcpState * st, gint64 now, guint64 * acked,
    guint64 * busy_us)
{
  if (s->fd != fd || st->bytes_acked < s->acked || st->busy_us < s->busy_us) {
    tcp_sample_take (s, fd, st, now);
    return FALSE;
  }
  *acked = st->bytes_acked - s->acked;
  *busy_us = st->busy_us - s->busy_us;
  return TRUE;
}

/* Balanced tiles: how fast unit @u's connection delivers, bytes/s: the
 * bytes it got acknowledged over the time it had data in flight since the
 * last sample (tcp_sample_since ()), smoothed; 0 until known. Its backlog
 * in @backlog: the rows of the frames in its queue and the bytes its
 * socket has not sent yet, in rows of @row_bytes. From the TCP_INFO
 * gst_tile_sender_balance_paths_locked () read. Lock held. */
static gdouble
unit_balance_rate_locked (GstTileSenderUnit * u, gsize row_bytes,
    gdouble * backlog)
{
  const GstTileNetTcpState *st = &u->bal_st;
  gint64 now = g_get_monotonic_time ();
  guint64 acked, busy;
  GList *l;

  *backlog = 0;
  for (l = u->queue.head; l; l = l->next) {
    GstTileSenderFrame *f = l->data;

    if (f->balanced)
      *backlog += f->bounds[u->index + 1] - f->bounds[u->index];
  }
  if (u->fd < 0 || !u->bal_st_ok)
    return u->bal_rate;
  *backlog += row_bytes ? (gdouble) st->unsent / row_bytes : 0;
  if (st->busy_us == 0)
    return u->bal_rate;
  /* (back from a failed path: what it delivered meanwhile is no rate) */
  if (u->bal_resample) {
    u->bal_resample = FALSE;
    tcp_sample_take (&u->bal_sample, u->fd, st, now);
    return u->bal_rate;
  }
  if (!tcp_sample_since (&u->bal_sample, u->fd, st, now, &acked, &busy)) {
    u->bal_rate = 0;
    return 0;
  }
  /* a sample of at least 5 ms in flight */
  if (busy < 5000)
    return u->bal_rate;
  u->bal_rate = u->bal_rate > 0 ? 0.6 * u->bal_rate + 0.4 * (acked * 1e6 /
      busy) : acked * 1e6 / busy;
  tcp_sample_take (&u->bal_sample, u->fd, st, now);
  return u->bal_rate;
}

/* Redundant paths over TCP: queues @frame to unit @u's connection or a
 * copy's (@c). A connection behind (its path slow or down: its queue holds
 * max-in-flight frames not begun) drops the oldest of them: the unit's
 * other connections carry those, and this one goes on with the newest
 * once its path is back. Frames to free go to @freed. Lock held. */
static void
queue_copy_locked (GstTileSenderUnit * u, GstTileSenderUnit * c,
    GstTileSenderFrame * frame, GPtrArray ** freed)
{
  GstTileSender *self = u->sender;
  guint max = MAX (g_atomic_int_get (&self->settings.max_in_flight), 1);
  GstTileSenderFrame *old;

  while (g_queue_get_length (&c->queue) >= max &&
      (old = g_queue_pop_head (&c->queue))) {
    g_atomic_int_add (&c->queued, -1);
    u->owner->counters.copies_dropped++;
    GST_LOG_OBJECT (self->log_object, "receiver %u unit %u: its connection "
        "over path %u is behind, frame %" G_GUINT64_FORMAT " goes over the "
        "others", u->owner->id, u->index, c->path, old->number);
    if ((old = gst_tile_sender_frame_done_locked (self, old, u->index,
                FALSE))) {
      if (!*freed)
        *freed = g_ptr_array_new ();
      g_ptr_array_add (*freed, old);
    }
  }
  frame->remaining++;
  frame->holders[u->index]++;
  g_queue_push_tail (&c->queue, frame);
  g_atomic_int_inc (&c->queued);
  g_cond_signal (&c->cond);
}

/* Queues @shared as the next frame of @o to each of the units it uses
 * (with redundant paths over TCP, to each of their connections). Frames
 * that gives up go to @freed. Lock held. */
static void
queue_frame_locked (GstTileSenderOwner * o, GstTileSenderShared * shared,
    guint64 origin, guint64 now, GstClockTime capture, GPtrArray ** freed)
{
  GstTileSender *self = o->sender;
  GstTileSenderFrame *frame = g_new (GstTileSenderFrame, 1);
  guint i, n = self->config.n_tiles;

  frame->owner = o;
  frame->shared = shared;
  g_atomic_int_inc (&shared->ref);
  frame->data = shared->map.data;
  frame->remaining = 0;
  frame->stuck = 0;
  frame->settled = frame->path_failed = FALSE;
  frame->started = 0;
  frame->failed = 0;
  frame->abandoned = 0;
  frame->redundant = o->peer && o->peer->redundant &&
      self->config.protocol == GST_TILE_WIRE_PROTOCOL_TCP;
  frame->units_done = 0;
  frame->units_left = 0;
  frame->push_us = g_get_monotonic_time ();
  frame->deadline_us = self->settings.max_latency ? frame->push_us +
      (gint64) CLAMP (self->settings.max_latency / 1000, 1,
      GST_TILE_SENDER_MAX_LATENCY / 1000) : 0;
  frame->send_start_us = frame->send_end_us = 0;
  frame->bytes = frame->packets = 0;
  memset (frame->path_packets, 0, sizeof (frame->path_packets));
  /* the window of its peer, or of every member of the group */
  if (o->peer)
    flow_start (&o->peer->flow, o->next_frame, frame->push_us);
  for (i = 0; o->group && i < self->peers->len; i++) {
    GstTileSenderPeer *m = g_ptr_array_index (self->peers, i);

    flow_start (&m->flow, o->next_frame, frame->push_us);
  }
  o->admit_us[o->next_frame % ADMIT_RING] = frame->push_us;
  frame->number = o->next_frame++;
  frame->timestamp = origin;
  frame->capture = capture;
  frame->lag_ns = (gint64) (now - origin);
  frame->generation = self->config.generation;
  frame->token = o->token;
  frame->fec = self->settings.protocol == GST_TILE_WIRE_PROTOCOL_UDP ?
      gst_tile_sender_owner_fec_locked (o) : 0;
  frame->sealed = self->crypto.passphrase != NULL;
  frame->secret = o->group ? o->group->secret : o->peer->keys.data;
  frame->balanced = o->peer && o->peer->balanced;
  if (frame->balanced) {
    gdouble rates[GST_TILE_WIRE_MAX_UNITS], backlog[GST_TILE_WIRE_MAX_UNITS];

    for (i = 0; i < n; i++) {
      backlog[i] = 0;
      rates[i] = o->units[i].path_failed ? -1 :
          unit_balance_rate_locked (&o->units[i], self->config.row_bytes,
          &backlog[i]);
    }
    gst_tile_balance_split (self->config.n_rows, n, rates, backlog,
        frame->bounds);
    memcpy (o->peer->last_bounds, frame->bounds, sizeof (frame->bounds));
  }
  o->in_flight++;
  for (i = 0; i < n; i++) {
    /* (balanced: none to a unit whose path failed, see
     * gst_tile_sender_balance_paths_locked ()) */
    if (!gst_tile_sender_owner_uses (o, i) ||
        (frame->balanced && o->units[i].path_failed))
      continue;
    if (frame->redundant) {
      GstTileSenderUnit *u = &o->units[i];
      guint k;

      frame->holders[i] = 0;
      frame->units_left++;
      queue_copy_locked (u, u, frame, freed);
      for (k = 0; k < u->n_tcp_copies; k++)
        if (u->tcp_copy[k]->fd >= 0)
          queue_copy_locked (u, u->tcp_copy[k], frame, freed);
      continue;
    }
    frame->remaining++;
    g_queue_push_tail (&o->units[i].queue, frame);
    g_atomic_int_inc (&o->units[i].queued);
    g_cond_signal (&o->units[i].cond);
  }
}

/* The frame's time on the wire: its origin's (a capture time, or the
 * first sender's through relays) when upstream put one on @buffer, ours
 * (@now) otherwise; the rate control takes the difference out of the
 * one-way delay again. */
static guint64
frame_origin (GstBuffer * buffer, guint64 now)
{
  GstReferenceTimestampMeta *ts;

  ts = gst_buffer_get_reference_timestamp_meta (buffer,
      gst_static_caps_get (&unix_ts_caps));
  if (ts && GST_CLOCK_TIME_IS_VALID (ts->timestamp) &&
      (now > ts->timestamp ? now - ts->timestamp : ts->timestamp - now) <
      GST_TILE_SENDER_MAX_ORIGIN_LAG)
    return ts->timestamp;
  return now;
}

/* The capture time of the frame in @buffer on the owner's pipeline clock:
 * what its capture_time callback says; else its origin (see
 * frame_origin ()) as long before that clock's now as before
 * CLOCK_REALTIME's; else that clock's time now (the frame's admission).
 * Without the sender's lock. */
static GstClockTime
frame_capture (GstTileSender * self, GstBuffer * buffer)
{
  GstClockTime t = GST_CLOCK_TIME_NONE;
  guint64 real, origin;

  if (self->callbacks.capture_time)
    t = self->callbacks.capture_time (self->user_data, buffer);
  if (GST_CLOCK_TIME_IS_VALID (t) || !self->callbacks.clock_time)
    return t;
  real = gst_tile_realtime_ns ();
  origin = frame_origin (buffer, real);
  t = self->callbacks.clock_time (self->user_data);
  if (GST_CLOCK_TIME_IS_VALID (t) && origin < real && t >= real - origin)
    t -= real - origin;
  return t;
}

/* Admits a frame of the right size to every ready owner that takes it
 * (see gst_tile_sender_push ()), mapped once, captured at @capture (see
 * frame_capture ()): @stepped when its producer
 * still writes it (no tile ready yet, @buffer not referenced: only its
 * memory is mapped). Returns the frame's shared part with a reference for
 * the caller, or NULL when no owner took it (@result says why) or it
 * cannot be mapped (@error set). Lock held. */
static GstTileSenderShared *
admit_frame_locked (GstTileSender * self, GstBuffer * buffer,
    GstClockTime capture, gboolean stepped, GstTileSenderPushResult * result,
    GPtrArray ** replaced, GError ** error)
{
  GstTileSenderShared *shared;
  GstTileSenderOwner *o;
  guint64 now = gst_tile_realtime_ns (), origin = frame_origin (buffer, now);
  gboolean queued = FALSE;
  gint64 now_us = g_get_monotonic_time ();
  guint i;

  /* the time between the frames offered: with their size, what the stream
   * needs (the rate control's floor, tilerate.c) */
  if (self->offer_last_us && now_us - self->offer_last_us > 0 &&
      now_us - self->offer_last_us < G_USEC_PER_SEC)
    self->offer_interval_us = self->offer_interval_us ?
        (3 * self->offer_interval_us + now_us - self->offer_last_us) / 4 :
        now_us - self->offer_last_us;
  self->offer_last_us = now_us;
  *result = GST_TILE_SENDER_PUSH_UNSENT;
  if (!any_ready_locked (self)) {
    self->totals.frames_unsent++;
    GST_LOG_OBJECT (self->log_object, "no receiver, frame not sent");
    return NULL;
  }
  shared = g_new0 (GstTileSenderShared, 1);
  if (stepped) {
    /* the producer has the buffer mapped for writing: its memory mapped
     * for reading too, as it is (gst_buffer_map () would put a copy in
     * its place, a snapshot without the tiles still to come), which only
     * works when the producer mapped it READWRITE */
    GstMemory *mem = gst_buffer_n_memory (buffer) == 1 ?
        gst_buffer_peek_memory (buffer, 0) : NULL;

    if (!mem || !gst_memory_map (mem, &shared->map, GST_MAP_READ)) {
      GST_DEBUG_OBJECT (self->log_object, "the producer's buffer cannot be "
          "read while it is written (not mapped READWRITE): the frame goes "
          "when pushed");
      g_free (shared);
      *result = GST_TILE_SENDER_PUSH_ERROR;
      return NULL;
    }
    gst_memory_ref (mem);
  } else if (!gst_buffer_map (buffer, &shared->map, GST_MAP_READ)) {
    g_free (shared);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_READ,
        "Could not map a buffer");
    *result = GST_TILE_SENDER_PUSH_ERROR;
    return NULL;
  }
  shared->buffer = stepped ? NULL : gst_buffer_ref (buffer);
  shared->ref = 1;
  shared->stepped = stepped;
  for (i = 0; (o = data_owner_at (self, i)); i++) {
    GstTileSenderPushResult ret;

    if (!owner_ready_locked (o))
      continue;
    ret = admit_locked (o, replaced);
    if (ret == GST_TILE_SENDER_PUSH_QUEUED) {
      queue_frame_locked (o, shared, origin, now, capture, replaced);
      queued = TRUE;
    } else if (!queued) {
      *result = ret;
    }
  }
  if (queued) {
    *result = GST_TILE_SENDER_PUSH_QUEUED;
    if (stepped)
      self->totals.frames_stepped++;
  }
  return shared;
}

/* Frees what admit_frame_locked () replaced. Without the sender's lock
 * (or a link's: the last reference to a pool's buffer goes back to the
 * pool, whose reset takes the link's lock). */
void
gst_tile_sender_free_replaced (GPtrArray * replaced)
{
  guint i;

  for (i = 0; replaced && i < replaced->len; i++)
    gst_tile_sender_frame_free (g_ptr_array_index (replaced, i));
  if (replaced)
    g_ptr_array_unref (replaced);
}

/**
 * gst_tile_sender_push:
 * @sender: a running #GstTileSender
 * @buffer: a frame of the current caps; referenced and mapped once (not
 *     copied) until every unit of every receiver has sent its tile
 * @error: where to put why the frame is not one
 *
 * The frame's time on the wire (tilesrc's latency statistics and its
 * #GstReferenceTimestampMeta measure from it) is that of a
 * #GstReferenceTimestampMeta with caps `timestamp/x-unix` on @buffer when
 * there is one within 10 s of now (a capture time, or through a relay,
 * `tilesrc ! tilesink`, the first sender's), else now.
 *
 * Admits the frame whole and queues it to every unit, or drops it whole,
 * for each receiver on its own: while @max_in_flight frames are still on
 * their way to it (with @replace_waiting: unless one of them has not been
 * started, which is dropped instead), or over UDP while its window is
 * full (counted as dropped, for that receiver and in the totals). While
 * no receiver is ready the frame is counted as unsent. Never blocks on the
 * network.
 *
 * A buffer of gst_tile_sender_new_pool() whose producer completed a tile
 * was admitted then, and its units have been sending the tiles completed
 * since: pushing it says every tile is written, and returns what its
 * admission did.
 *
 * Returns: what happened to the frame: %GST_TILE_SENDER_PUSH_QUEUED when
 *     at least one receiver takes it, else why the last receiver did not;
 *     %GST_TILE_SENDER_PUSH_ERROR with @error set
 *     (%GST_STREAM_ERROR_FORMAT: the size is not the caps' frame size;
 *     %GST_RESOURCE_ERROR_READ: it cannot be mapped)
 */
GstTileSenderPushResult
gst_tile_sender_push (GstTileSender * sender, GstBuffer * buffer,
    GError ** error)
{
  GstTileSender *self = sender;
  GstTileSenderShared *shared;
  GPtrArray *replaced = NULL;
  GstTileSenderPushResult ret;
  gsize size = gst_buffer_get_size (buffer);
  GstClockTime capture;

  if (gst_tile_sender_pool_take_stepped (self, buffer, &ret))
    return ret;

  capture = frame_capture (self, buffer);
  g_mutex_lock (&self->lock);
  if (size != self->frame_size) {
    gsize want = self->frame_size;

    g_mutex_unlock (&self->lock);
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "Buffer of %" G_GSIZE_FORMAT " bytes, the caps say frames have %"
        G_GSIZE_FORMAT, size, want);
    return GST_TILE_SENDER_PUSH_ERROR;
  }
  shared = admit_frame_locked (self, buffer, capture, FALSE, &ret, &replaced,
      error);
  g_mutex_unlock (&self->lock);
  if (shared)
    gst_tile_sender_shared_unref (shared);
  gst_tile_sender_free_replaced (replaced);
  return ret;
}

/* A buffer of one of our pools (gst_tile_sender_new_pool ()) whose
 * producer completed its first tile, made for the tiling of @generation:
 * admitted now as a stepped frame, whose units wait for their tiles
 * (gst_tile_sender_tile_ready ()). Sets @result and, when an owner took
 * it, @shared (a reference for the pool's buffer until
 * gst_tile_sender_end_stepped () or an abort). Returns %FALSE when it
 * cannot go stepped (the caps changed, a size that is not the frame's, no
 * mapping): gst_tile_sender_push () then deals with it as any frame. The
 * frames it replaced go to @replaced, for gst_tile_sender_free_replaced ()
 * once the link's lock is released. Link lock held. */
gboolean
gst_tile_sender_begin_stepped (GstTileSender * self, GstBuffer * buffer,
    guint32 generation, GstTileSenderPushResult * result,
    GstTileSenderShared ** shared, GPtrArray ** replaced)
{
  GstClockTime capture = frame_capture (self, buffer);

  *shared = NULL;
  g_mutex_lock (&self->lock);
  if (!self->have_config || generation != self->config.generation ||
      gst_buffer_get_size (buffer) != self->frame_size) {
    g_mutex_unlock (&self->lock);
    return FALSE;
  }
  *shared = admit_frame_locked (self, buffer, capture, TRUE, result, replaced,
      NULL);
  g_mutex_unlock (&self->lock);
  if (*result == GST_TILE_SENDER_PUSH_ERROR)
    return FALSE;
  if (*shared && *result != GST_TILE_SENDER_PUSH_QUEUED) {
    gst_tile_sender_shared_unref (*shared);
    *shared = NULL;
  }
  GST_LOG_OBJECT (self->log_object, "frame admitted while being written: %d",
      *result);
  return TRUE;
}

/* Wakes unit @tile of every owner, or every unit (@tile G_MAXUINT). Lock
 * held. */
static void
wake_units_locked (GstTileSender * self, guint tile)
{
  GstTileSenderOwner *o;
  guint i;

  for (i = 0; (o = gst_tile_sender_owner_at (self, i)); i++)
    gst_tile_sender_owner_wake_locked (o, tile);
}

/* Tile @tile of a stepped frame is written: its units may send it. */
void
gst_tile_sender_tile_ready (GstTileSender * self,
    GstTileSenderShared * shared, guint tile)
{
  if (tile >= GST_TILE_WIRE_MAX_UNITS)
    return;
  g_mutex_lock (&self->lock);
  shared->ready[tile] = TRUE;
  wake_units_locked (self, tile);
  g_mutex_unlock (&self->lock);
}

/* A stepped frame is pushed (every tile written: @buffer is referenced
 * until its units are done with it), or with @buffer NULL given up by its
 * producer unfinished: the tiles not sent yet are abandoned. Takes the
 * pool's reference to @shared. @self may be NULL: the sender is gone. */
void
gst_tile_sender_end_stepped (GstTileSender * self,
    GstTileSenderShared * shared, GstBuffer * buffer)
{
  guint i;

  if (self)
    g_mutex_lock (&self->lock);
  if (buffer) {
    shared->buffer = gst_buffer_ref (buffer);
    for (i = 0; i < G_N_ELEMENTS (shared->ready); i++)
      shared->ready[i] = TRUE;
  } else {
    shared->aborted = TRUE;
  }
  if (self) {
    wake_units_locked (self, G_MAXUINT);
    g_mutex_unlock (&self->lock);
  }
  gst_tile_sender_shared_unref (shared);
}

/* The generation of the current caps, their tiling and frame size (for a
 * pool's buffers), 0 before any caps. */
guint32
gst_tile_sender_get_generation (GstTileSender * self, GstBcTiling * tiling,
    gsize * frame_size)
{
  guint32 generation = 0;

  g_mutex_lock (&self->lock);
  if (self->have_config) {
    generation = self->config.generation;
    *tiling = self->tiling;
    *frame_size = self->frame_size;
  }
  g_mutex_unlock (&self->lock);
  return generation;
}

/**
 * gst_tile_sender_send_eos:
 * @sender: a #GstTileSender
 *
 * Sends the frames already admitted (for up to 5 s), closes the data
 * connections and sends EOS to every receiver. Frames pushed afterwards
 * are counted as unsent until gst_tile_sender_clear_eos() (or a receiver
 * connects after the EOS).
 */
void
gst_tile_sender_send_eos (GstTileSender * sender)
{
  GstTileSender *self = sender;
  GByteArray *p;
  guint i;

  g_return_if_fail (sender != NULL);

  p = g_byte_array_new ();
  gst_tile_wire_eos_pack (p);
  g_mutex_lock (&self->lock);
  gst_tile_sender_drain_locked (self);
  for (i = 0; i < self->peers->len; i++) {
    GstTileSenderPeer *peer = g_ptr_array_index (self->peers, i);

    gst_tile_sender_owner_close_data_locked (&peer->owner);
    if (gst_tile_sender_send_control_locked (peer, p))
      GST_INFO_OBJECT (self->log_object, "EOS sent to receiver %u",
          peer->owner.id);
    peer->owner.eos_sent = TRUE;
  }
  if (self->group)
    self->group->owner.eos_sent = TRUE;
  g_mutex_unlock (&self->lock);
  g_byte_array_unref (p);
}

/**
 * gst_tile_sender_clear_eos:
 * @sender: a #GstTileSender
 *
 * After a flush: frames may be sent again (to every receiver).
 */
void
gst_tile_sender_clear_eos (GstTileSender * sender)
{
  GstTileSenderOwner *o;
  guint i;

  g_return_if_fail (sender != NULL);

  g_mutex_lock (&sender->lock);
  for (i = 0; (o = gst_tile_sender_owner_at (sender, i)); i++)
    o->eos_sent = FALSE;
  g_mutex_unlock (&sender->lock);
}

/* unit-bytes and unit-busy-ms of @n units: per unit index, @bytes and
 * @busy_ns. */
static void
take_unit_arrays (GstStructure * s, guint n, const guint64 * bytes,
    const guint64 * busy_ns)
{
  GValue ab = G_VALUE_INIT, abusy = G_VALUE_INIT, v = G_VALUE_INIT;
  guint i;

  gst_value_array_init (&ab, n);
  gst_value_array_init (&abusy, n);
  for (i = 0; i < n; i++) {
    g_value_init (&v, G_TYPE_UINT64);
    g_value_set_uint64 (&v, bytes[i]);
    gst_value_array_append_and_take_value (&ab, &v);
    g_value_init (&v, G_TYPE_DOUBLE);
    g_value_set_double (&v, busy_ns[i] / 1e6);
    gst_value_array_append_and_take_value (&abusy, &v);
  }
  gst_structure_take_value (s, "unit-bytes", &ab);
  gst_structure_take_value (s, "unit-busy-ms", &abusy);
}

/* Striped datagrams: each path's data datagrams and share (by its number
 * on the wire, up to the highest that carried any), and the datagrams no
 * path took. Lock held. */
static void
take_path_arrays (GstStructure * s, GstTileSenderPeer * peer)
{
  GstTileSenderCounters *c = &peer->owner.counters;
  GValue packets = G_VALUE_INIT, shares = G_VALUE_INIT, v = G_VALUE_INIT;
  guint i, n = 0;

  for (i = 0; i < GST_TILE_WIRE_MAX_PATHS; i++)
    if (c->path_packets[i])
      n = i + 1;
  gst_value_array_init (&packets, n);
  gst_value_array_init (&shares, n);
  for (i = 0; i < n; i++) {
    g_value_init (&v, G_TYPE_UINT64);
    g_value_set_uint64 (&v, c->path_packets[i]);
    gst_value_array_append_and_take_value (&packets, &v);
    g_value_init (&v, G_TYPE_DOUBLE);
    g_value_set_double (&v, peer->flow.stripe.have & (1u << i) ?
        peer->flow.stripe.weight[i] : 0);
    gst_value_array_append_and_take_value (&shares, &v);
  }
  gst_structure_take_value (s, "path-packets", &packets);
  gst_structure_take_value (s, "path-shares", &shares);
  gst_structure_set (s, "stripe-failed", G_TYPE_UINT64, c->stripe_failed,
      NULL);
}

/* The rate a data connection delivered at since the last measurement, at
 * least RATE_PERIOD_US before: bytes acknowledged over the time it had
 * data to send (TCP_INFO), so neither idle time nor a burst through an
 * idle link's token bucket counts. Until there is one: the kernel's last
 * sample. Lock held. */
#define RATE_PERIOD_US (100 * 1000)
static guint64
unit_delivery_rate_locked (GstTileSenderUnit * u, const GstTileNetTcpState * st)
{
  gint64 now = g_get_monotonic_time ();
  guint64 acked, busy;

  if (!tcp_sample_since (&u->rate_sample, u->fd, st, now, &acked, &busy))
    u->tcp_rate = 0;
  else if (now - u->rate_sample.at_us >= RATE_PERIOD_US &&
      busy >= RATE_PERIOD_US / 10) {
    u->tcp_rate = gst_util_uint64_scale (acked, 8 * G_USEC_PER_SEC, busy);
    tcp_sample_take (&u->rate_sample, u->fd, st, now);
  }
  return u->tcp_rate ? u->tcp_rate : st->delivery_rate;
}

/* TCP: what the kernel says of a peer's data connections, summed over
 * its units: the rate they deliver at (what the link carries now), the
 * bytes written but not transmitted and the longest round trip. */
typedef struct
{
  guint64 rate;
  guint64 unsent;
  guint rtt;
  gboolean have;                /* some unit had a connection */
  gchar congestion[16];         /* what the first unit's connection uses */
} TcpState;

/* Adds the TCP state of @peer's units to @tcp. Lock held. */
static void
peer_tcp_state_locked (GstTileSenderPeer * peer, TcpState * tcp)
{
  GstTileNetTcpState st;
  guint i;

  if (peer->owner.sender->settings.protocol != GST_TILE_WIRE_PROTOCOL_TCP)
    return;
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    GstTileSenderUnit *u = &peer->owner.units[i];

    if (u->fd < 0 || !gst_tile_net_tcp_state (u->fd, &st))
      continue;
    tcp->rate += unit_delivery_rate_locked (u, &st);
    tcp->unsent += st.unsent;
    tcp->rtt = MAX (tcp->rtt, st.rtt_us);
    if (!tcp->congestion[0])
      gst_tile_net_get_congestion (u->fd, tcp->congestion,
          sizeof (tcp->congestion));
    tcp->have = TRUE;
  }
}

static void
set_tcp_state (GstStructure * s, const TcpState * tcp)
{
  gst_structure_set (s, "delivery-rate", G_TYPE_UINT64, tcp->rate,
      "unsent-bytes", G_TYPE_UINT64, tcp->unsent, "rtt-us", G_TYPE_UINT,
      tcp->rtt, NULL);
  if (tcp->congestion[0])
    gst_structure_set (s, "congestion-control", G_TYPE_STRING,
        tcp->congestion, NULL);
}


/* Redundant paths: @o's units' sockets (UDP) or connections (TCP) on
 * their receiver's other paths. Lock held. */
static guint
owner_copies_connected_locked (const GstTileSenderOwner * o)
{
  guint i, k, n = 0;

  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    n += o->units[i].n_copies;
    for (k = 0; k < o->units[i].n_tcp_copies; k++)
      n += o->units[i].tcp_copy[k]->fd >= 0;
  }
  return n;
}

/* A peer's statistics, its entry of `receivers` (`tilesink-receiver`):
 * its counters, its units', its TCP state (also added to @sum) or its
 * pacing, and its last STATS. Lock held. */
static GstStructure *
peer_stats_locked (GstTileSenderPeer * peer, TcpState * sum)
{
  GstTileSender *self = peer->owner.sender;
  const GstTileSenderOwner *o = &peer->owner;
  const GstTileSenderCounters *c = &o->counters;
  guint64 bytes[GST_TILE_WIRE_MAX_UNITS], busy[GST_TILE_WIRE_MAX_UNITS];
  TcpState tcp = { 0 };
  GstStructure *s;
  guint i;

  s = gst_structure_new ("tilesink-receiver",
      "id", G_TYPE_UINT, o->id,
      "address", G_TYPE_STRING, peer->address,
      "paths", G_TYPE_UINT, gst_tile_sender_peer_paths_locked (peer),
      "balanced", G_TYPE_BOOLEAN, peer->balanced,
      "redundant", G_TYPE_BOOLEAN, peer->redundant,
      "striped", G_TYPE_BOOLEAN, peer->striped,
      "connected", G_TYPE_BOOLEAN, gst_tile_sender_peer_ready_locked (peer),
      "connected-ms", G_TYPE_UINT64,
      (guint64) (g_get_monotonic_time () - peer->started_us) / 1000,
      "frames-sent", G_TYPE_UINT64, c->frames_sent,
      "frames-dropped", G_TYPE_UINT64, c->frames_dropped,
      "frames-dropped-window", G_TYPE_UINT64, c->frames_window,
      "frames-abandoned", G_TYPE_UINT64, c->frames_abandoned,
      "frames-replaced", G_TYPE_UINT64, c->frames_replaced,
      "frames-path-failed", G_TYPE_UINT64, c->frames_path_failed,
      "frames-in-flight", G_TYPE_UINT, o->in_flight,
      "bytes-sent", G_TYPE_UINT64, c->bytes_sent,
      "packets-sent", G_TYPE_UINT64, c->packets_sent,
      "packets-retransmitted", G_TYPE_UINT64, c->packets_retransmitted,
      "nacks-received", G_TYPE_UINT64, c->nacks_received,
      "nacks-refused", G_TYPE_UINT64, c->nacks_refused,
      "retransmits-limited", G_TYPE_UINT64, c->retransmits_limited,
      "fec-packets-sent", G_TYPE_UINT64, c->fec_packets_sent,
      "copies-sent", G_TYPE_UINT64, c->copies_sent,
      "copies-dropped", G_TYPE_UINT64, c->copies_dropped,
      "primary-failed", G_TYPE_UINT64, c->primary_failed,
      "copies-connected", G_TYPE_UINT, owner_copies_connected_locked (o),
      "fec-overhead", G_TYPE_UINT,
      self->settings.protocol == GST_TILE_WIRE_PROTOCOL_UDP ?
      gst_tile_sender_owner_fec_locked (gst_tile_sender_peer_data_owner
          (peer)) : 0,
      "fec-loss", G_TYPE_DOUBLE, peer->flow.fec_loss,
      "receiver-window", G_TYPE_UINT, peer->flow.window,
      "gso", G_TYPE_BOOLEAN,
      gst_tile_sender_peer_data_owner (peer)->units[0].gso,
      "sealed", G_TYPE_BOOLEAN, self->crypto.passphrase != NULL,
      "send-buffer-granted", G_TYPE_INT, c->granted_send_buffer, NULL);
  if (peer->balanced && self->have_config) {
    GValue rows = G_VALUE_INIT, v = G_VALUE_INIT;

    /* its last frame's rows, per unit */
    gst_value_array_init (&rows, self->config.n_tiles);
    for (i = 0; i < self->config.n_tiles; i++) {
      g_value_init (&v, G_TYPE_UINT);
      g_value_set_uint (&v, peer->last_bounds[i + 1] - peer->last_bounds[i]);
      gst_value_array_append_and_take_value (&rows, &v);
    }
    gst_structure_take_value (s, "unit-rows", &rows);
  }
  for (i = 0; i < o->n_threads; i++) {
    bytes[i] = o->units[i].bytes;
    busy[i] = o->units[i].busy_ns;
  }
  take_unit_arrays (s, o->n_threads, bytes, busy);
  if (peer->striped)
    take_path_arrays (s, peer);
  if (peer->has_region) {
    gchar *region = gst_tile_region_to_string (&peer->region);

    gst_structure_set (s, "region", G_TYPE_STRING, region, "region-units",
        G_TYPE_UINT, o->n_used, NULL);
    g_free (region);
  }
  peer_tcp_state_locked (peer, &tcp);
  if (tcp.have) {
    set_tcp_state (s, &tcp);
    sum->rate += tcp.rate;
    sum->unsent += tcp.unsent;
    sum->rtt = MAX (sum->rtt, tcp.rtt);
    if (!sum->congestion[0])
      memcpy (sum->congestion, tcp.congestion, sizeof (sum->congestion));
    sum->have = TRUE;
  }
  if (self->settings.protocol == GST_TILE_WIRE_PROTOCOL_UDP)
    gst_tile_rate_control_to_structure (&peer->flow.rate, s);
  if (peer->receiver_stats)
    gst_structure_set (s, "receiver", GST_TYPE_STRUCTURE,
        peer->receiver_stats, NULL);
  return s;
}

/* The sender's statistics (`tilesink-stats`): its totals, its state, the
 * peers' entries, and for the fields of one receiver the oldest peer's.
 * Lock held. */
static GstStructure *
sender_stats_locked (GstTileSender * self)
{
  const GstTileSenderTotals *t = &self->totals;
  GstTileSenderPeer *first = self->peers->len > 0 ?
      g_ptr_array_index (self->peers, 0) : NULL;
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;
  TcpState tcp = { 0 };
  GstStructure *s;
  guint i;

  s = gst_structure_new ("tilesink-stats",
      "frames-sent", G_TYPE_UINT64, t->sum.frames_sent,
      "frames-dropped", G_TYPE_UINT64, t->sum.frames_dropped,
      "frames-dropped-window", G_TYPE_UINT64, t->sum.frames_window,
      "receiver-window", G_TYPE_UINT, first ? first->flow.window : 0,
      "frames-unsent", G_TYPE_UINT64, t->frames_unsent,
      "frames-abandoned", G_TYPE_UINT64, t->sum.frames_abandoned,
      "frames-replaced", G_TYPE_UINT64, t->sum.frames_replaced,
      "frames-path-failed", G_TYPE_UINT64, t->sum.frames_path_failed,
      "frames-stepped", G_TYPE_UINT64, t->frames_stepped,
      /* the former name of frames-stepped, kept for readers of it */
      "frames-overlapped", G_TYPE_UINT64, t->frames_stepped,
      "bytes-sent", G_TYPE_UINT64, t->sum.bytes_sent,
      "packets-sent", G_TYPE_UINT64, t->sum.packets_sent,
      "packets-retransmitted", G_TYPE_UINT64, t->sum.packets_retransmitted,
      "nacks-received", G_TYPE_UINT64, t->sum.nacks_received,
      "nacks-refused", G_TYPE_UINT64, t->sum.nacks_refused,
      "retransmits-limited", G_TYPE_UINT64, t->sum.retransmits_limited,
      "retransmit", G_TYPE_BOOLEAN, self->settings.retransmit,
      "fec-packets-sent", G_TYPE_UINT64, t->sum.fec_packets_sent,
      "fec-overhead", G_TYPE_UINT, first &&
      self->settings.protocol == GST_TILE_WIRE_PROTOCOL_UDP ?
      gst_tile_sender_owner_fec_locked (gst_tile_sender_peer_data_owner
          (first)) : 0,
      "protocol", G_TYPE_STRING,
      self->settings.protocol == GST_TILE_WIRE_PROTOCOL_UDP ? "udp" : "tcp",
      "gso", G_TYPE_BOOLEAN, self->group ? self->group->owner.units[0].gso :
      first ? first->owner.units[0].gso : FALSE,
      "connected", G_TYPE_BOOLEAN, any_ready_locked (self),
      "receiver-count", G_TYPE_UINT, self->peers->len,
      "max-receivers", G_TYPE_UINT, self->settings.max_receivers,
      "clients", G_TYPE_UINT, t->clients,
      "disconnects", G_TYPE_UINT, t->disconnects,
      "refused", G_TYPE_UINT, t->refused,
      "auth-failures", G_TYPE_UINT, t->auth_failures,
      "auth-throttled", G_TYPE_UINT, t->auth_throttled,
      "hellos-unvalidated", G_TYPE_UINT64, t->hellos_unvalidated,
      "hellos-challenged", G_TYPE_UINT64, t->hellos_challenged,
      "sealed", G_TYPE_BOOLEAN, self->crypto.passphrase && first,
      "units", G_TYPE_UINT, self->have_config ? self->config.n_tiles : 0,
      "generation", G_TYPE_UINT, self->have_config ?
      self->config.generation : 0,
      "send-buffer-size", G_TYPE_INT, self->settings.send_buffer_size,
      "send-buffer-granted", G_TYPE_INT, t->sum.granted_send_buffer, NULL);
  take_unit_arrays (s, self->settings.n_units, t->unit_bytes,
      t->unit_busy_ns);
  if (self->multicast.address)
    gst_structure_set (s, "multicast-group", G_TYPE_STRING,
        self->multicast.address, NULL);
  gst_value_array_init (&list, self->peers->len);
  for (i = 0; i < self->peers->len; i++) {
    g_value_init (&v, GST_TYPE_STRUCTURE);
    g_value_take_boxed (&v, peer_stats_locked (g_ptr_array_index
            (self->peers, i), &tcp));
    gst_value_array_append_and_take_value (&list, &v);
  }
  gst_structure_take_value (s, "receivers", &list);
  if (tcp.have)
    set_tcp_state (s, &tcp);
  if (self->settings.protocol == GST_TILE_WIRE_PROTOCOL_UDP) {
    if (first) {
      gst_tile_rate_control_to_structure (&first->flow.rate, s);
    } else {
      GstTileRateControl idle;

      gst_tile_rate_control_init (&idle, self->settings.pacing_bitrate);
      gst_tile_rate_control_to_structure (&idle, s);
    }
  }
  if (first && first->receiver_stats)
    gst_structure_set (s, "receiver", GST_TYPE_STRUCTURE,
        first->receiver_stats, NULL);
  return s;
}

/**
 * gst_tile_sender_get_stats:
 * @sender: a #GstTileSender
 *
 * The sender's statistics (`tilesink-stats`): the totals over every
 * receiver since the start (frames sent, dropped, unsent, bytes and
 * packets, sessions, refusals, socket buffers, per-unit bytes and busy
 * time), `receivers`, an array with one `tilesink-receiver` structure per
 * receiver served now (its own counters, TCP state or pacing, and its last
 * STATS report as `receiver`), and, as `receiver` and for the fields of
 * one receiver (window, pacing), those of the oldest receiver.
 * docs/elements.md lists the fields.
 *
 * Returns: (transfer full): a new #GstStructure
 */
GstStructure *
gst_tile_sender_get_stats (GstTileSender * sender)
{
  GstStructure *s;

  g_return_val_if_fail (sender != NULL, NULL);

  g_mutex_lock (&sender->lock);
  s = sender_stats_locked (sender);
  g_mutex_unlock (&sender->lock);
  return s;
}

/**
 * gst_tile_sender_get_frame_counts:
 * @sender: a #GstTileSender
 * @sent: (out) (optional): frames sent whole
 * @dropped: (out) (optional): frames dropped (in flight or window)
 *
 * The two counters a QoS message reports, read together.
 */
void
gst_tile_sender_get_frame_counts (GstTileSender * sender, guint64 * sent,
    guint64 * dropped)
{
  g_return_if_fail (sender != NULL);

  g_mutex_lock (&sender->lock);
  if (sent)
    *sent = sender->totals.sum.frames_sent;
  if (dropped)
    *dropped = sender->totals.sum.frames_dropped;
  g_mutex_unlock (&sender->lock);
}

/**
 * gst_tile_sender_estimate_wait:
 * @sender: a #GstTileSender
 * @send_time: (out) (optional): the time frames have taken from admission
 *     to sent, smoothed over about 8 frames (0 before the first)
 *
 * For QoS: how long until a frame pushed now would be admitted for some
 * receiver, that is until the oldest frame in flight to it is expected to
 * be done, when @max_in_flight frames are in flight (the receiver that
 * would take it first; with none ready, 0).
 *
 * Returns: the time, 0 when a frame would be admitted now or nothing has
 *     been measured yet
 */
GstClockTime
gst_tile_sender_estimate_wait (GstTileSender * sender, GstClockTime * send_time)
{
  GstTileSender *self = sender;
  GstTileSenderOwner *o;
  gint64 wait = G_MAXINT64, send = 0, now = g_get_monotonic_time ();
  guint i, max;

  g_return_val_if_fail (sender != NULL, 0);

  max = g_atomic_int_get (&sender->settings.max_in_flight);
  g_mutex_lock (&self->lock);
  for (i = 0; (o = data_owner_at (self, i)); i++) {
    gint64 w = 0;

    if (!owner_ready_locked (o))
      continue;
    if (o->in_flight > 0 && o->send_avg_us > 0 && o->in_flight >= max)
      w = o->admit_us[(o->next_frame - o->in_flight) % ADMIT_RING] +
          o->send_avg_us - now;
    if (w < wait) {
      wait = w;
      send = o->send_avg_us;
    }
  }
  g_mutex_unlock (&self->lock);
  if (send_time)
    *send_time = send * GST_USECOND;
  return wait > 0 && wait != G_MAXINT64 ? wait * GST_USECOND : 0;
}

/**
 * gst_tile_sender_get_bound_port:
 * @sender: a #GstTileSender
 *
 * Returns: the port @sender listens on, 0 when it is not running
 */
guint
gst_tile_sender_get_bound_port (GstTileSender * sender)
{
  guint port;

  g_return_val_if_fail (sender != NULL, 0);

  g_mutex_lock (&sender->lock);
  port = sender->server.bound_port;
  g_mutex_unlock (&sender->lock);
  return port;
}

/**
 * gst_tile_sender_get_n_units:
 * @sender: a #GstTileSender
 *
 * Returns: the units @sender was made with: the most tiles a frame is cut
 *     into
 */
guint
gst_tile_sender_get_n_units (GstTileSender * sender)
{
  g_return_val_if_fail (sender != NULL, 0);

  return sender->settings.n_units;
}

/**
 * gst_tile_sender_set_chunk_size:
 * @sender: a #GstTileSender
 * @chunk_size: bytes per send() call, at least 1
 *
 * Applies from the next tile; the next CONFIG announces it.
 */
void
gst_tile_sender_set_chunk_size (GstTileSender * sender, guint chunk_size)
{
  g_return_if_fail (sender != NULL);
  g_return_if_fail (chunk_size >= 1);

  g_atomic_int_set (&sender->settings.chunk_size, chunk_size);
}

/**
 * gst_tile_sender_set_max_latency:
 * @sender: a #GstTileSender
 * @max_latency: ns from a frame's admission (gst_tile_sender_push()) after
 *     which what is left of it is abandoned, 0 for no deadline
 *
 * Over TCP a unit checks the deadline before each part of its tile (an
 * eighth of it) and, once it has passed, sends a header that abandons the
 * tile instead of the rest: the receiver drops the frame and every unit
 * goes on with the next one, on the same connection. Over UDP a unit
 * stops sending the frame's datagrams. Abandoned frames are counted
 * (`frames-abandoned`), not sent. Applies from the next frame admitted.
 */
void
gst_tile_sender_set_max_latency (GstTileSender * sender,
    GstClockTime max_latency)
{
  g_return_if_fail (sender != NULL);

  g_mutex_lock (&sender->lock);
  sender->settings.max_latency = max_latency;
  g_mutex_unlock (&sender->lock);
}

/**
 * gst_tile_sender_set_replace_waiting:
 * @sender: a #GstTileSender
 * @replace: with @max_in_flight frames in flight, whether a new frame
 *     replaces the oldest of them that no unit has started yet
 *
 * With @max_in_flight 2 and @replace, one frame is on the wire and the
 * newest one waits for it: the link never idles between frames while
 * frames come faster than it carries them, and a frame waits at most one
 * frame's wire time. The replaced frame counts as dropped
 * (`frames-dropped`, and `frames-replaced`). Applies from the next
 * gst_tile_sender_push().
 */
void
gst_tile_sender_set_replace_waiting (GstTileSender * sender, gboolean replace)
{
  g_return_if_fail (sender != NULL);

  g_mutex_lock (&sender->lock);
  sender->settings.replace_waiting = replace;
  g_mutex_unlock (&sender->lock);
}

/**
 * gst_tile_sender_set_max_in_flight:
 * @sender: a #GstTileSender
 * @max_in_flight: frames that may still be on their way, at least 1
 *
 * Applies from the next gst_tile_sender_push().
 */
void
gst_tile_sender_set_max_in_flight (GstTileSender * sender, guint max_in_flight)
{
  g_return_if_fail (sender != NULL);
  g_return_if_fail (max_in_flight >= 1);

  g_atomic_int_set (&sender->settings.max_in_flight, max_in_flight);
}

/* A new pacing bitrate for @rate: with rate control its bound, without
 * its rate. */
static void
set_max_rate (GstTileRateControl * rate, gboolean rate_control,
    guint64 bitrate)
{
  if (rate_control)
    gst_tile_rate_control_set_max (rate, bitrate);
  else
    gst_tile_rate_control_init (rate, bitrate);
}

/**
 * gst_tile_sender_set_fec:
 * @sender: a #GstTileSender
 * @fec: 0 for no parity, 1 to 50 for that overhead in percent,
 *     %GST_TILE_SENDER_FEC_AUTO for one from the receivers' loss
 *
 * protocol=udp: forward error correction, from the next frame.
 */
void
gst_tile_sender_set_fec (GstTileSender * sender, gint fec)
{
  g_return_if_fail (sender != NULL);
  g_return_if_fail (fec == GST_TILE_SENDER_FEC_AUTO || (fec >= 0 &&
          fec <= GST_TILE_FEC_MAX_PERCENT));

  g_mutex_lock (&sender->lock);
  sender->settings.fec = fec;
  g_mutex_unlock (&sender->lock);
}

/**
 * gst_tile_sender_fec_parse:
 * @str: `off`, `auto`, or a whole number of percent from 0 to 50
 * @fec: (out): the #GstTileSenderSettings @fec it means (`off` and `0`:
 *     0; `auto`: %GST_TILE_SENDER_FEC_AUTO)
 *
 * Returns: whether @str is one of those.
 */
gboolean
gst_tile_sender_fec_parse (const gchar * str, gint * fec)
{
  guint64 v;

  g_return_val_if_fail (fec != NULL, FALSE);

  if (!str)
    return FALSE;
  if (g_ascii_strcasecmp (str, "off") == 0) {
    *fec = 0;
    return TRUE;
  }
  if (g_ascii_strcasecmp (str, "auto") == 0) {
    *fec = GST_TILE_SENDER_FEC_AUTO;
    return TRUE;
  }
  if (!g_ascii_string_to_unsigned (str, 10, 0, GST_TILE_FEC_MAX_PERCENT, &v,
          NULL))
    return FALSE;
  *fec = (gint) v;
  return TRUE;
}

/**
 * gst_tile_sender_fec_to_string:
 * @fec: a #GstTileSenderSettings @fec
 *
 * Returns: (transfer full): `off`, `auto` or the percentage, as
 * gst_tile_sender_fec_parse() reads them.
 */
gchar *
gst_tile_sender_fec_to_string (gint fec)
{
  if (fec == GST_TILE_SENDER_FEC_AUTO)
    return g_strdup ("auto");
  if (fec <= 0)
    return g_strdup ("off");
  return g_strdup_printf ("%d", fec);
}

/**
 * gst_tile_sender_set_pacing_bitrate:
 * @sender: a #GstTileSender
 * @bitrate: bits/s of all units together, datagram headers included;
 *     0 for as fast as possible
 *
 * protocol=udp: applies from the next tile.
 */
void
gst_tile_sender_set_pacing_bitrate (GstTileSender * sender, guint64 bitrate)
{
  guint i;

  g_return_if_fail (sender != NULL);

  g_mutex_lock (&sender->lock);
  sender->settings.pacing_bitrate = bitrate;
  for (i = 0; i < sender->peers->len; i++)
    set_max_rate (&((GstTileSenderPeer *) g_ptr_array_index (sender->peers,
                i))->flow.rate, sender->settings.rate_control, bitrate);
  /* (the multicast group's too: its pace until a member has measured) */
  if (sender->group)
    set_max_rate (&sender->group->rate, sender->settings.rate_control,
        bitrate);
  g_mutex_unlock (&sender->lock);
}

/**
 * gst_tile_sender_set_rate_control:
 * @sender: a #GstTileSender
 * @enabled: whether protocol=udp paces at the rate the receiver's feedback
 *     gives (up to the pacing bitrate when set), see #GstTileRateControl;
 *     when not, at the pacing bitrate (or not at all)
 *
 * Starts over from the pacing bitrate.
 */
void
gst_tile_sender_set_rate_control (GstTileSender * sender, gboolean enabled)
{
  guint i;

  g_return_if_fail (sender != NULL);

  g_mutex_lock (&sender->lock);
  sender->settings.rate_control = enabled;
  for (i = 0; i < sender->peers->len; i++)
    reset_rate_locked (g_ptr_array_index (sender->peers, i));
  if (sender->group)
    gst_tile_rate_control_init (&sender->group->rate,
        sender->settings.pacing_bitrate);
  g_mutex_unlock (&sender->lock);
}

/**
 * gst_tile_sender_set_stats_interval:
 * @sender: a #GstTileSender
 * @interval_ms: call the stats callback every this many ms, 0 for never
 */
void
gst_tile_sender_set_stats_interval (GstTileSender * sender, guint interval_ms)
{
  g_return_if_fail (sender != NULL);

  g_atomic_int_set (&sender->settings.stats_interval, interval_ms);
}

/**
 * gst_tile_sender_remove_receiver:
 * @sender: a #GstTileSender
 * @id: a receiver's id, as the receiver_added callback and the
 *     `receivers` statistics give it
 *
 * Ends that receiver's session: its connections are closed (the receiver
 * sees its sender go away, and with reconnect it connects again as a new
 * receiver). The others go on.
 *
 * Returns: %TRUE when @id was a receiver being served
 */
gboolean
gst_tile_sender_remove_receiver (GstTileSender * sender, guint id)
{
  gboolean found = FALSE;
  guint i;

  g_return_val_if_fail (sender != NULL, FALSE);

  g_mutex_lock (&sender->lock);
  for (i = 0; i < sender->peers->len; i++) {
    GstTileSenderPeer *peer = g_ptr_array_index (sender->peers, i);

    if (peer->owner.id == id && !peer->control.dead) {
      gst_tile_sender_peer_end_locked (peer, "removed by the application");
      found = TRUE;
    }
  }
  g_mutex_unlock (&sender->lock);
  return found;
}

/**
 * gst_tile_sender_get_n_receivers:
 * @sender: a #GstTileSender
 *
 * Returns: the receivers served now (handshake done, session not ended)
 */
guint
gst_tile_sender_get_n_receivers (GstTileSender * sender)
{
  guint i, n = 0;

  g_return_val_if_fail (sender != NULL, 0);

  g_mutex_lock (&sender->lock);
  for (i = 0; i < sender->peers->len; i++)
    if (!((GstTileSenderPeer *) g_ptr_array_index (sender->peers,
                i))->control.dead)
      n++;
  g_mutex_unlock (&sender->lock);
  return n;
}
