/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gsttilereceiver
 * @title: GstTileReceiver
 * @short_description: the receiving end of a tilesink session
 *
 * A #GstTileReceiver connects to a tilesink's control port, learns the caps
 * and the tile layout from the handshake (docs/wire-protocol.md), then runs
 * one unit per tile: a TCP connection or a UDP socket, each with its own
 * thread, receiving straight into the frame's buffer. Frames come out of
 * gst_tile_receiver_pull() in order. The element (tilesrc) gives it
 * buffers, the clock, and posts what it reports; see
 * #GstTileReceiverCallbacks.
 *
 * This file: the lifecycle, the control connection and its generations,
 * pull() and the statistics. tilereceiver-tcp.c has the frame slots and the
 * TCP units, tilereceiver-udp.c the UDP units, timers and concealment.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilereceiver-private.h"
#include "tilepake.h"

#include <string.h>

GST_DEBUG_CATEGORY (gst_tile_receiver_debug);

#define KEEPALIVE_INTERVAL_MS 1000
/* caps changes a sender may make within a second */
#define MAX_CONFIGS_PER_SECOND 10
#define RECONNECT_DELAY_US (100 * 1000)

/**
 * gst_tile_receiver_new:
 * @callbacks: what the element does for the receiver
 * @user_data: passed to @callbacks
 * @log_object: (nullable): the object the debug log names
 *
 * Returns: (transfer full): a receiver, stopped; free with
 * gst_tile_receiver_free().
 */
GstTileReceiver *
gst_tile_receiver_new (const GstTileReceiverCallbacks * callbacks,
    gpointer user_data, GstObject * log_object)
{
  static gsize debug_init = 0;
  GstTileReceiver *self = g_new0 (GstTileReceiver, 1);
  guint i;

  if (g_once_init_enter (&debug_init)) {
    GST_DEBUG_CATEGORY_INIT (gst_tile_receiver_debug, "tilereceiver", 0,
        "libgsttile receiver session");
    gst_tile_wire_caps_know_names ();
    g_once_init_leave (&debug_init, 1);
  }
  self->callbacks = *callbacks;
  self->user_data = user_data;
  self->log_object = log_object;
  self->stepped = TRUE;
  self->timer_factor = 1.5;
  self->duration = GST_CLOCK_TIME_NONE;
  g_mutex_init (&self->lock);
  g_mutex_init (&self->send_lock);
  g_cond_init (&self->cond);
  self->ack_fd = -1;
  self->control_fd = -1;
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    self->units[i].rx = self;
    self->units[i].index = i;
    self->units[i].fd = -1;
  }
  return self;
}

/**
 * gst_tile_receiver_free:
 * @self: a stopped receiver
 */
void
gst_tile_receiver_free (GstTileReceiver * self)
{
  g_free (self->host);
  gst_tile_wire_clear_passphrase (&self->passphrase);
  g_free (self->multicast_iface);
  gst_tile_keys_clear (&self->keys);
  g_free (self->config);
  g_free (self->pending);
  g_clear_error (&self->error);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->send_lock);
  g_cond_clear (&self->cond);
  g_free (self);
}

GstClockTime
gst_tile_receiver_clock_time (GstTileReceiver * self)
{
  return self->callbacks.clock_time (self->user_data);
}

/* The flat part of the stats: also what is sent to the sender. Lock held. */
GstStructure *
gst_tile_receiver_stats_locked (GstTileReceiver * self)
{
  GstStructure *s = gst_structure_new ("tilesrc-stats",
      "frames-received", G_TYPE_UINT64, self->frames_received,
      "frames-incomplete", G_TYPE_UINT64, self->frames_incomplete,
      "frames-abandoned", G_TYPE_UINT64, self->frames_abandoned,
      "bytes-received", G_TYPE_UINT64, self->bytes_received,
      "tiles-stepped", G_TYPE_UINT64, self->tiles_stepped,
      "connects", G_TYPE_UINT, self->connects,
      "units", G_TYPE_UINT, self->config ? self->config->n_tiles : 0,
      "generation", G_TYPE_UINT, self->config ? self->config->generation : 0,
      "receive-buffer-size", G_TYPE_INT, self->receive_buffer_size,
      "receive-buffer-granted", G_TYPE_INT, self->granted_rcvbuf,
      "sealed", G_TYPE_BOOLEAN, self->passphrase && self->config, NULL);

  /* how long before the frame's push its first tile was there: the time a
   * stepped consumer can use */
  if (self->frames_received > 0)
    gst_structure_set (s, "tile-spread-mean", G_TYPE_UINT64,
        self->tile_spread_sum * 1000 / self->frames_received, NULL);
  if (self->config && self->config->protocol == GST_TILE_WIRE_PROTOCOL_UDP) {
    guint64 drops = 0;
    guint i;

    for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++)
      drops += (guint32) g_atomic_int_get ((gint *) & self->unit_drops[i]);
    gst_structure_set (s,
        "packets-received", G_TYPE_UINT64, self->packets_received,
        "packets-lost", G_TYPE_UINT64, self->packets_lost,
        "packets-late", G_TYPE_UINT64, self->packets_late,
        "packets-invalid", G_TYPE_UINT64, self->packets_invalid,
        "packets-tampered", G_TYPE_UINT64, self->packets_tampered,
        "packets-duplicate", G_TYPE_UINT64, self->packets_duplicate,
        "frames-partial", G_TYPE_UINT64, self->frames_partial,
        "frames-timer", G_TYPE_UINT64, self->frames_timer,
        "frames-skipped", G_TYPE_UINT64, self->frames_skipped,
        "frames-discarded", G_TYPE_UINT64, self->frames_discarded,
        "packets-discarded", G_TYPE_UINT64, self->packets_discarded,
        "packets-dropped", G_TYPE_UINT64, self->packets_dropped,
        "packets-in-place", G_TYPE_UINT64, self->packets_in_place,
        "kernel-drops", G_TYPE_UINT64, drops,
        "timer-floor-us", G_TYPE_UINT64,
        (guint64) (self->timer_floor_ns / 1000), NULL);
  }
  gst_tile_latency_to_structure (&self->latency, s);
  return s;
}

/**
 * gst_tile_receiver_get_stats:
 * @self: a receiver
 *
 * Returns: (transfer full): the statistics, a `tilesrc-stats` structure
 * (docs/elements.md); with protocol=udp also the local port of each unit
 * (`udp-ports`).
 */
GstStructure *
gst_tile_receiver_get_stats (GstTileReceiver * self)
{
  GstStructure *s;

  g_mutex_lock (&self->lock);
  s = gst_tile_receiver_stats_locked (self);
  if (self->config && self->config->protocol == GST_TILE_WIRE_PROTOCOL_UDP) {
    GValue ports = G_VALUE_INIT, v = G_VALUE_INIT;
    guint i;

    /* local only: the wire form of the stats has no arrays */
    gst_value_array_init (&ports, self->config->n_tiles);
    for (i = 0; i < self->config->n_tiles; i++) {
      g_value_init (&v, G_TYPE_UINT);
      g_value_set_uint (&v, gst_tile_net_local_port (self->units[i].fd));
      gst_value_array_append_and_take_value (&ports, &v);
    }
    gst_structure_take_value (s, "udp-ports", &ports);
  }
  g_mutex_unlock (&self->lock);
  return s;
}

/* Joins the unit threads that have ended and closes their sockets. Lock
 * held; released meanwhile. Two threads may come here at once (stop() and
 * the control thread ending a session, or the streaming thread starting a
 * generation): each unit thread is taken by one of them before the lock is
 * released, and neither returns before every join is over. */
static void
join_units_locked (GstTileReceiver * self)
{
  guint i;

  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    GThread *thread = self->units[i].thread;

    if (thread) {
      self->units[i].thread = NULL;
      self->units_joining++;
      g_mutex_unlock (&self->lock);
      g_thread_join (thread);
      g_mutex_lock (&self->lock);
      self->units_joining--;
      g_cond_broadcast (&self->cond);
    }
    gst_tile_net_close (&self->units[i].fd);
  }
  while (self->units_joining > 0)
    g_cond_wait (&self->cond, &self->lock);
}

/* A unit thread's cipher and keys, when the session is sealed: the
 * session's data secret (a multicast group's: the group's) and MAC keys.
 * Lock held. */
void
gst_tile_receiver_unit_seal (GstTileReceiverUnit * u)
{
  GstTileReceiver *self = u->rx;

  if (!self->passphrase)
    return;
  u->seal = gst_tile_seal_new (FALSE);
  memcpy (u->data_secret, self->config->mcast_family ?
      self->config->group_secret : self->keys.data, sizeof (u->data_secret));
  memcpy (u->unit_c2s, self->keys.unit_c2s, sizeof (u->unit_c2s));
  memcpy (u->unit_s2c, self->keys.unit_s2c, sizeof (u->unit_s2c));
  u->have_key = FALSE;
}

void
gst_tile_receiver_unit_unseal (GstTileReceiverUnit * u)
{
  g_clear_pointer (&u->seal, gst_tile_seal_free);
  gst_tile_seal_wipe (u->data_secret, sizeof (u->data_secret));
  gst_tile_seal_wipe (u->unit_c2s, sizeof (u->unit_c2s));
  gst_tile_seal_wipe (u->unit_s2c, sizeof (u->unit_s2c));
  u->have_key = FALSE;
}

/* Keys a sealed unit's cipher for frame @frame of @generation (the key
 * changes with both, see gst_tile_keys_data_key ()): derived only when it
 * changes. The unit thread. */
void
gst_tile_receiver_unit_key (GstTileReceiverUnit * u, guint32 generation,
    guint64 frame)
{
  guint64 epoch = frame / GST_TILE_KEYS_EPOCH_FRAMES;
  guint8 key[GST_TILE_SEAL_KEY_SIZE];

  if (u->have_key && u->key_generation == generation &&
      u->key_epoch == epoch)
    return;
  gst_tile_keys_data_key (u->data_secret, generation, frame, key);
  gst_tile_seal_set_key (u->seal, key);
  gst_tile_seal_wipe (key, sizeof (key));
  u->have_key = TRUE;
  u->key_generation = generation;
  u->key_epoch = epoch;
}

/* Stops the units of the running generation and waits for them. Lock
 * held. */
static void
stop_units_locked (GstTileReceiver * self)
{
  guint i;

  self->session++;
  /* no unit may start while we wait (gst_tile_receiver_start_generation ()
   * from the streaming thread, once the last one has gone): we would wait
   * for it for good */
  self->units_stopping++;
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++)
    if (self->units[i].fd >= 0)
      gst_tile_net_shutdown (self->units[i].fd);
  g_cond_broadcast (&self->cond);
  while (self->units_running > 0)
    g_cond_wait (&self->cond, &self->lock);
  join_units_locked (self);
  self->units_stopping--;
  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++)
    if (self->slots[i].state != SLOT_FREE)
      gst_tile_receiver_slot_release_locked (self, &self->slots[i],
          self->slots[i].state == SLOT_FILLING);
}

/* Starts the units of the pending CONFIG. Lock held. */
static void
start_units_locked (GstTileReceiver * self)
{
  gboolean udp;
  guint i;

  join_units_locked (self);
  /* the session may have ended while the lock was released (the control
   * thread stops its units and drops its CONFIGs): then there is nothing
   * to start */
  if (!self->pending || !self->running || self->units_stopping > 0 ||
      self->units_running > 0)
    return;
  g_free (self->config);
  self->config = self->pending;
  self->pending = NULL;
  self->session++;
  gst_tile_wire_config_check_tiling (self->config, &self->tiling, NULL);
  udp = self->config->protocol == GST_TILE_WIRE_PROTOCOL_UDP;
  self->udp_drain = FALSE;
  if (udp) {
    guint total = 0;

    for (i = 0; i < self->config->n_tiles; i++) {
      self->pk_base[i] = total;
      total += gst_tile_wire_packets_per_tile (self->config->tiles[i].size,
          self->config->packet_size);
    }
    self->pk_base[i] = total;
    self->udp_window = G_MAXUINT;       /* each unit lowers it */
    self->udp_windows = 0;
    for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
      g_free (self->slots[i].got);
      self->slots[i].got = g_malloc0 ((total + 7) / 8);
    }
  }
  self->units_running = self->config->n_tiles;
  for (i = 0; i < self->config->n_tiles; i++) {
    gchar *name = g_strdup_printf ("tilesrc-unit%u", i);

    self->units[i].thread = g_thread_new (name, udp ?
        gst_tile_receiver_udp_unit : gst_tile_receiver_tcp_unit,
        &self->units[i]);
    g_free (name);
  }
  GST_INFO_OBJECT (self->log_object, "generation %u: %u units",
      self->config->generation, self->config->n_tiles);
}

/* A REFUSE's payload as an error: "the sender @what (code): reason". */
static void
set_refused (GError ** error, const GByteArray * payload, const gchar * what)
{
  GstTileWireRefuse refuse;

  if (gst_tile_wire_refuse_parse (payload->data, payload->len, &refuse, error))
    gst_tile_receiver_refuse_error (error, &refuse, what);
}

/* Reads the next control message from the sender; in a sealed session
 * (records_in set) it must be a sealed record that opens, and @h and @p
 * are then its inner message. The control thread. */
static gboolean
control_read (GstTileReceiver * self, gint fd, guint timeout,
    GstTileWireHeader * h, GByteArray * p, GError ** error)
{
  GstTileWireHeader outer;

  if (!gst_tile_net_read_message (fd, timeout, self->records_in ? &outer : h,
          p, error))
    return FALSE;
  return !self->records_in ||
      gst_tile_records_open (self->records_in, &outer, p, h, error);
}

/* The next message of the handshake but keep-alives (the sender answers
 * once it knows its caps; keep-alives may come first); a REFUSE as an
 * error. */
static gboolean
handshake_read (GstTileReceiver * self, gint fd, guint timeout,
    GstTileWireHeader * h, GByteArray * p, GError ** error)
{
  do {
    if (!control_read (self, fd, timeout, h, p, error))
      return FALSE;
  } while (h->type == GST_TILE_WIRE_TYPE_KEEPALIVE);
  if (h->type == GST_TILE_WIRE_TYPE_REFUSE) {
    set_refused (error, p, "refused the connection");
    return FALSE;
  }
  return TRUE;
}

/* CPace (the sender the initiator) with our passphrase over the sender's
 * CHALLENGE (in @ch): our share in @auth, the session's keys in
 * self->keys. FALSE with @error set when the sender's share is no valid
 * element. */
static gboolean
handshake_pake (GstTileReceiver * self, const GstTileWireHello * hello,
    const GstTileWireChallenge * ch, GstTileWireAuth * auth, GError ** error)
{
  guint8 sid[2 * GST_TILE_SEAL_NONCE_SIZE], isk[GST_TILE_PAKE_ISK_SIZE];
  guint8 th[GST_TILE_KEYS_HASH_SIZE];
  GstTilePake pake;
  gboolean ok;

  memcpy (sid, hello->nonce, GST_TILE_SEAL_NONCE_SIZE);
  memcpy (sid + GST_TILE_SEAL_NONCE_SIZE, ch->nonce, GST_TILE_SEAL_NONCE_SIZE);
  if (!gst_tile_pake_start (&pake, (const guint8 *) self->passphrase,
          strlen (self->passphrase), (const guint8 *) GST_TILE_KEYS_CPACE_CI,
          strlen (GST_TILE_KEYS_CPACE_CI), sid, sizeof (sid), NULL)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
        "cannot run the passphrase handshake: libsodium failed");
    return FALSE;
  }
  memcpy (auth->share, gst_tile_pake_share (&pake), sizeof (auth->share));
  ok = gst_tile_pake_finish (&pake, FALSE, NULL, 0, ch->share, NULL, 0, sid,
      sizeof (sid), isk);
  gst_tile_pake_clear (&pake);
  if (!ok) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_UNAUTHORIZED,
        "the sender's CHALLENGE has an invalid CPace share");
    return FALSE;
  }
  gst_tile_keys_transcript (hello, ch, auth->share, th);
  g_mutex_lock (&self->lock);
  gst_tile_keys_derive (isk, sizeof (isk), th, &self->keys);
  memcpy (auth->proof, self->keys.client_proof, sizeof (auth->proof));
  g_mutex_unlock (&self->lock);
  gst_tile_seal_wipe (isk, sizeof (isk));
  return TRUE;
}

/* The sender's CHALLENGE (in @p): the passphrase's CPace, our AUTH (our
 * share and proof), the sender's AUTH checked (its share as in its
 * CHALLENGE, its proof that it derived the same keys); then every control
 * message is sealed both ways. */
static gboolean
handshake_auth (GstTileReceiver * self, gint fd, guint timeout,
    const GstTileWireHello * hello, GByteArray * p, GError ** error)
{
  GstTileWireChallenge ch;
  GstTileWireAuth auth, theirs;
  GstTileWireHeader h;
  gboolean ok;

  if (!self->passphrase) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_UNAUTHORIZED,
        "the sender requires a passphrase, this receiver has none");
    return FALSE;
  }
  if (!gst_tile_wire_challenge_parse (p->data, p->len, &ch, error) ||
      !handshake_pake (self, hello, &ch, &auth, error))
    return FALSE;
  p->len = 0;
  ok = gst_tile_wire_auth_pack (&auth, p);
  gst_tile_seal_wipe (&auth, sizeof (auth));
  if (!ok || !gst_tile_net_send_packed (fd, p, error) ||
      !handshake_read (self, fd, timeout, &h, p, error))
    return FALSE;
  if (h.type != GST_TILE_WIRE_TYPE_AUTH) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "expected AUTH from the sender, got %s",
        gst_tile_wire_type_get_name (h.type));
    return FALSE;
  }
  if (!gst_tile_wire_auth_parse (p->data, p->len, &theirs, error))
    return FALSE;
  g_mutex_lock (&self->lock);
  ok = gst_tile_seal_equal (theirs.share, ch.share, sizeof (ch.share)) &&
      gst_tile_seal_equal (theirs.proof, self->keys.sender_proof,
      sizeof (theirs.proof));
  g_mutex_unlock (&self->lock);
  if (!ok) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_UNAUTHORIZED,
        "the sender's proof of the passphrase is wrong: it does not know it");
    return FALSE;
  }
  /* from here on every control message is sealed, both ways */
  self->records_in = gst_tile_records_new (FALSE, self->keys.s2c);
  g_mutex_lock (&self->send_lock);
  self->records_out = gst_tile_records_new (TRUE, self->keys.c2s);
  g_mutex_unlock (&self->send_lock);
  return TRUE;
}

/* The end of a control connection: its records go. The control thread. */
static void
records_clear (GstTileReceiver * self)
{
  g_clear_pointer (&self->records_in, gst_tile_records_free);
  g_mutex_lock (&self->send_lock);
  g_clear_pointer (&self->records_out, gst_tile_records_free);
  g_mutex_unlock (&self->send_lock);
}

/* The handshake on a new control connection: HELLO, then with a
 * passphrase CHALLENGE and AUTH both ways, then the sender's CONFIG.
 * Returns the CONFIG or NULL with @error set. */
static GstTileWireConfig *
handshake (GstTileReceiver * self, gint fd, guint timeout, GError ** error)
{
  GstTileWireHello hello = { 0 };
  GstTileWireHeader h;
  GByteArray *p = g_byte_array_new ();
  GstTileWireConfig *config = NULL;

  if (self->passphrase)
    hello.flags |= GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE;
  if (!gst_tile_seal_random (hello.nonce, sizeof (hello.nonce))) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
        "no random numbers for the handshake");
    goto out;
  }
  if (!gst_tile_wire_hello_pack (&hello, p, error) ||
      !gst_tile_net_send_packed (fd, p, error) ||
      !handshake_read (self, fd, timeout, &h, p, error))
    goto out;
  if (h.type == GST_TILE_WIRE_TYPE_CHALLENGE) {
    if (!handshake_auth (self, fd, timeout, &hello, p, error) ||
        !handshake_read (self, fd, timeout, &h, p, error))
      goto out;
  } else if (self->passphrase) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_UNAUTHORIZED,
        "this receiver has a passphrase, the sender has none");
    goto out;
  }
  if (h.type != GST_TILE_WIRE_TYPE_CONFIG) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "expected CONFIG from the sender, got %s",
        gst_tile_wire_type_get_name (h.type));
    goto out;
  }
  config = g_new0 (GstTileWireConfig, 1);
  if (!gst_tile_wire_config_parse (p->data, p->len, config, error)) {
    g_clear_pointer (&config, g_free);
    goto out;
  }

out:
  g_byte_array_unref (p);
  return config;
}

/* Checks the CONFIG beyond the message layer: its tiling, its caps as a
 * string (gst_tile_wire_caps_check(): nothing in it is interned), and
 * (the element's part) what they describe. */
static gboolean
config_usable (GstTileReceiver * self, GstTileWireConfig * config,
    GError ** error)
{
  static const guint8 zeros[GST_TILE_WIRE_GROUP_SECRET_SIZE] = { 0 };
  GstBcTiling tiling;

  /* sealed multicast: the group's datagrams need its secret */
  if (self->records_in && config->mcast_family &&
      memcmp (config->group_secret, zeros, sizeof (zeros)) == 0) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "a sealed multicast CONFIG without the group's secret");
    return FALSE;
  }
  return gst_tile_wire_config_check_tiling (config, &tiling, error) &&
      gst_tile_wire_caps_check (config->caps, error) &&
      self->callbacks.check_config (self->user_data, config, error);
}

/* Every write on the control connection (create() writes there too):
 * sealed in a session with a passphrase. Takes @message's bytes (it is
 * sealed in place). */
gboolean
gst_tile_receiver_send_control (GstTileReceiver * self, gint fd,
    GByteArray * message)
{
  gboolean ok;

  g_mutex_lock (&self->send_lock);
  ok = (!self->records_out || gst_tile_records_seal (self->records_out,
          message)) && gst_tile_net_send_packed (fd, message, NULL);
  g_mutex_unlock (&self->send_lock);
  return ok;
}

static void
control_send (GstTileReceiver * self, gint fd, GByteArray * p)
{
  gst_tile_receiver_send_control (self, fd, p);
}

/* Tells the sender why we end the session (sealed as every message). */
static void
control_refuse (GstTileReceiver * self, gint fd, const gchar * reason)
{
  GByteArray *p = g_byte_array_new ();

  if (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_BAD_MESSAGE, reason, p,
          NULL))
    control_send (self, fd, p);
  g_byte_array_unref (p);
}

static void
send_stats (GstTileReceiver * self, gint fd)
{
  GstStructure *s;
  GByteArray *p = g_byte_array_new ();

  g_mutex_lock (&self->lock);
  s = gst_tile_receiver_stats_locked (self);
  g_mutex_unlock (&self->lock);
  if (gst_tile_wire_stats_pack (s, p, NULL))
    control_send (self, fd, p);
  self->callbacks.post_stats (self->user_data, s);
  g_byte_array_unref (p);
}

/* Serves one control connection until it ends. Returns FALSE when the
 * session ended with an error that is not worth a reconnect. */
static gboolean
control_session (GstTileReceiver * self, gint fd, guint timeout,
    GError ** error)
{
  GByteArray *p = g_byte_array_new ();
  gint64 now, last_rx, last_ka, last_stats, config_second, units_gone_us = 0;
  guint configs = 0;
  gboolean ret = TRUE;

  now = last_rx = last_ka = last_stats = config_second =
      g_get_monotonic_time ();
  while (TRUE) {
    GstTileWireHeader h;
    guint interval;

    if (!gst_tile_net_wait (fd, FALSE, 100, NULL)) {
      now = g_get_monotonic_time ();
    } else {
      if (!control_read (self, fd, timeout, &h, p, error)) {
        ret = (*error)->domain != GST_TILE_WIRE_ERROR;
        break;
      }
      now = last_rx = g_get_monotonic_time ();
      if (h.type == GST_TILE_WIRE_TYPE_CONFIG) {
        GstTileWireConfig *config;

        /* every CONFIG is a renegotiation downstream: a sender that
         * changes its caps all the time is broken or hostile */
        if (now - config_second >= G_USEC_PER_SEC) {
          config_second = now;
          configs = 0;
        }
        if (++configs > MAX_CONFIGS_PER_SECOND) {
          g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
              "the sender sent more than %u CONFIGs (caps changes) within a "
              "second", MAX_CONFIGS_PER_SECOND);
          control_refuse (self, fd, (*error)->message);
          ret = FALSE;
          break;
        }
        config = g_new0 (GstTileWireConfig, 1);

        if (!gst_tile_wire_config_parse (p->data, p->len, config, error) ||
            !config_usable (self, config, error)) {
          g_free (config);
          ret = FALSE;
          break;
        }
        g_mutex_lock (&self->lock);
        GST_INFO_OBJECT (self->log_object, "new CONFIG, generation %u",
            config->generation);
        g_free (self->pending);
        self->pending = config;
        /* UDP has no end of connection to mark the end of a generation:
         * the sender sent everything before this CONFIG */
        self->udp_drain = TRUE;
        g_cond_broadcast (&self->cond);
        g_mutex_unlock (&self->lock);
      } else if (h.type == GST_TILE_WIRE_TYPE_EOS) {
        if (!gst_tile_wire_eos_parse (p->data, p->len, error)) {
          ret = FALSE;
          break;
        }
        GST_INFO_OBJECT (self->log_object, "EOS from the sender");
        g_mutex_lock (&self->lock);
        self->eos = TRUE;
        self->udp_drain = TRUE;
        g_cond_broadcast (&self->cond);
        g_mutex_unlock (&self->lock);
      } else if (h.type == GST_TILE_WIRE_TYPE_KEEPALIVE) {
        guint64 t;

        if (!gst_tile_wire_keepalive_parse (p->data, p->len, &t, error)) {
          ret = FALSE;
          break;
        }
      } else if (h.type == GST_TILE_WIRE_TYPE_REFUSE) {
        set_refused (error, p, "ended the session");
        ret = FALSE;
        break;
      } else {
        g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
            "unexpected %s message from the sender",
            gst_tile_wire_type_get_name (h.type));
        control_refuse (self, fd, (*error)->message);
        ret = FALSE;
        break;
      }
    }

    g_mutex_lock (&self->lock);
    if (!self->running || self->lost) {
      g_mutex_unlock (&self->lock);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
          "connection lost");
      break;
    }
    /* every unit of the generation ended (its data connections closed at
     * a tile boundary) and no CONFIG or EOS says why: only the control
     * connection can end a generation (someone on the path can close TCP
     * connections, not send a sealed record) */
    if (self->config && self->units_running == 0 && !self->pending &&
        !self->eos) {
      if (!units_gone_us)
        units_gone_us = now;
    } else {
      units_gone_us = 0;
    }
    g_mutex_unlock (&self->lock);
    if (units_gone_us && now - units_gone_us > (gint64) timeout * 1000) {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
          "the data connections ended, and no CONFIG or EOS followed within "
          "%u ms", timeout);
      break;
    }

    if (now - last_rx > (gint64) timeout * 1000) {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
          "nothing heard from the sender for %u ms", timeout);
      break;
    }
    if (now - last_ka >= KEEPALIVE_INTERVAL_MS * 1000) {
      p->len = 0;
      gst_tile_wire_keepalive_pack (now * 1000, p);
      control_send (self, fd, p);
      last_ka = now;
    }
    interval = g_atomic_int_get (&self->stats_interval);
    if (interval > 0 && now - last_stats >= (gint64) interval * 1000) {
      send_stats (self, fd);
      last_stats = now;
    }
  }
  g_byte_array_unref (p);
  return ret;
}

static gpointer
control_thread (gpointer data)
{
  GstTileReceiver *self = data;
  const gchar *host = self->host;
  guint port = self->port, timeout = self->timeout;

  g_mutex_lock (&self->lock);
  if (self->passphrase && !*self->passphrase) {
    GError *err = g_error_new_literal (GST_TILE_WIRE_ERROR,
        GST_TILE_WIRE_ERROR_UNAUTHORIZED, "An empty passphrase is refused: "
        "leave it unset for none, or set one both ends know");

    gst_tile_receiver_set_error_locked (self, err);
    g_error_free (err);
    g_mutex_unlock (&self->lock);
    return NULL;
  }
  while (self->running) {
    GstTileWireConfig *config;
    GError *err = NULL;
    gboolean retry;
    gint fd;

    g_mutex_unlock (&self->lock);
    fd = gst_tile_net_connect (host, port, timeout, 0, NULL, &err);
    if (fd >= 0) {
      /* so that stop() can interrupt the handshake */
      g_mutex_lock (&self->lock);
      self->control_fd = fd;
      if (!self->running)
        gst_tile_net_shutdown (fd);
      g_mutex_unlock (&self->lock);
    }
    config = fd >= 0 ? handshake (self, fd, timeout, &err) : NULL;
    if (config && !config_usable (self, config, &err))
      g_clear_pointer (&config, g_free);
    if (!config)
      records_clear (self);
    if (config) {
      /* before the units start: their first ACK goes out here */
      g_mutex_lock (&self->send_lock);
      self->ack_fd = fd;
      g_mutex_unlock (&self->send_lock);
    }
    g_mutex_lock (&self->lock);

    if (config) {
      self->server_len = gst_tile_net_address (fd, TRUE, &self->server);
      self->control_fd = fd;
      self->connects++;
      self->lost = FALSE;
      /* a new session: its sender may count its frames from anywhere (a
       * sender started again counts from 0) */
      self->have_pushed = FALSE;
      g_free (self->pending);
      self->pending = config;
      g_cond_broadcast (&self->cond);
      GST_INFO_OBJECT (self->log_object,
          "connected to %s port %u, generation %u", host, port,
          config->generation);
      g_mutex_unlock (&self->lock);
      retry = control_session (self, fd, timeout, &err);
      g_mutex_lock (&self->send_lock);
      self->ack_fd = -1;
      g_mutex_unlock (&self->send_lock);
      records_clear (self);
      g_mutex_lock (&self->lock);
      self->control_fd = -1;
      gst_tile_net_close (&fd);
      if (self->eos && self->running) {
        /* the sender may close once it has sent EOS */
        g_clear_error (&err);
        break;
      }
    } else {
      retry = !err || err->domain != GST_TILE_WIRE_ERROR ||
          err->code == GST_TILE_WIRE_ERROR_BUSY;
      self->control_fd = -1;
      gst_tile_net_close (&fd);
    }
    if (!self->running) {
      g_clear_error (&err);
      break;
    }

    /* the session is over: frames of it can no longer complete */
    stop_units_locked (self);
    g_clear_pointer (&self->config, g_free);
    g_clear_pointer (&self->pending, g_free);
    /* (no unit of it can start now: its keys go) */
    gst_tile_keys_clear (&self->keys);
    self->lost = FALSE;
    if (!retry || !g_atomic_int_get (&self->reconnect)) {
      if (!err)
        g_set_error (&err, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
            "connection to the sender lost");
      gst_tile_receiver_set_error_locked (self, err);
      g_clear_error (&err);
      break;
    }
    GST_INFO_OBJECT (self->log_object, "%s; reconnecting",
        err ? err->message : "lost");
    g_clear_error (&err);
    g_cond_wait_until (&self->cond, &self->lock, g_get_monotonic_time () +
        RECONNECT_DELAY_US);
  }
  g_mutex_unlock (&self->lock);
  return NULL;
}

/**
 * gst_tile_receiver_start:
 * @self: a stopped receiver
 * @settings: where to connect, and how
 *
 * Starts connecting (in a thread of its own: errors come out of
 * gst_tile_receiver_pull()). The statistics start from zero.
 */
void
gst_tile_receiver_start (GstTileReceiver * self,
    const GstTileReceiverSettings * settings)
{
  guint i;

  g_mutex_lock (&self->lock);
  g_free (self->host);
  self->host = g_strdup (settings->host);
  gst_tile_wire_clear_passphrase (&self->passphrase);
  self->passphrase = g_strdup (settings->passphrase);
  g_free (self->multicast_iface);
  self->multicast_iface = settings->multicast_iface &&
      *settings->multicast_iface ? g_strdup (settings->multicast_iface) : NULL;
  self->port = settings->port;
  self->timeout = settings->timeout_ms;
  self->receive_buffer_size = settings->receive_buffer_size;
  self->gro = settings->gro;
  self->gro_required = settings->gro_required;
  self->duration = GST_CLOCK_TIME_NONE;
  self->running = TRUE;
  self->flushing = FALSE;
  self->eos = FALSE;
  self->lost = FALSE;
  g_clear_error (&self->error);
  self->frames_received = self->frames_incomplete = 0;
  self->frames_abandoned = 0;
  self->bytes_received = self->tiles_stepped = 0;
  self->tile_spread_sum = 0;
  self->packets_received = self->packets_lost = self->packets_late = 0;
  self->packets_invalid = self->packets_duplicate = 0;
  self->packets_tampered = 0;
  self->frames_partial = self->frames_timer = 0;
  self->packets_dropped = self->frames_skipped = 0;
  self->frames_discarded = 0;
  self->packets_discarded = 0;
  self->packets_in_place = 0;
  self->have_pushed = FALSE;
  self->keep_last = FALSE;
  self->avg_receive_ns = 0;
  self->timer_floor_ns = UDP_MIN_TIMER_NS;
  self->timer_raised_ns = 0;
  self->have_timer_frame = FALSE;
  memset (self->unit_drops, 0, sizeof (self->unit_drops));
  self->connects = 0;
  self->granted_rcvbuf = 0;
  self->warned_rcvbuf = FALSE;
  gst_tile_latency_reset (&self->latency);
  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
    g_free (self->slots[i].got);
    memset (&self->slots[i], 0, sizeof (GstTileReceiverSlot));
  }
  self->control_thread = g_thread_new ("tilesrc-control", control_thread, self);
  g_mutex_unlock (&self->lock);
}

/**
 * gst_tile_receiver_stop:
 * @self: a receiver
 *
 * Stops its threads, closes its sockets and drops what it holds.
 */
void
gst_tile_receiver_stop (GstTileReceiver * self)
{
  guint i;

  g_mutex_lock (&self->lock);
  self->running = FALSE;
  if (self->control_fd >= 0)
    gst_tile_net_shutdown (self->control_fd);
  stop_units_locked (self);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);

  if (self->control_thread)
    g_thread_join (self->control_thread);
  self->control_thread = NULL;

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->config, g_free);
  g_clear_pointer (&self->pending, g_free);
  gst_clear_buffer (&self->last_buffer);
  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++)
    g_clear_pointer (&self->slots[i].got, g_free);
  g_mutex_unlock (&self->lock);
}

/**
 * gst_tile_receiver_set_flushing:
 * @self: a receiver
 * @flushing: whether gst_tile_receiver_pull() returns at once
 *
 * Interrupts pull() (GstBaseSrc's unlock), or lets it wait again
 * (unlock_stop). After a flush the next frame kept for concealment is
 * copied (see gst_tile_receiver_keep_last()).
 */
void
gst_tile_receiver_set_flushing (GstTileReceiver * self, gboolean flushing)
{
  g_mutex_lock (&self->lock);
  self->flushing = flushing;
  if (!flushing)
    self->keep_last = FALSE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

/* The frame that leaves next, or NULL: over UDP the oldest, whole or out of
 * time (then taken with its gaps: @partial, mapped in @map); over TCP the
 * oldest complete one. *@wait_until: a timer to wake up for. Lock held. */
static GstTileReceiverSlot *
next_frame_locked (GstTileReceiver * self, gboolean * partial,
    GstMapInfo * map, gint64 * wait_until)
{
  GstTileReceiverSlot *best = NULL, *low = NULL;
  guint i;

  *wait_until = 0;
  if (!self->config || self->config->protocol != GST_TILE_WIRE_PROTOCOL_UDP) {
    for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
      GstTileReceiverSlot *s = &self->slots[i];

      if (s->state == SLOT_COMPLETE && (!best || s->frame < best->frame))
        best = s;
    }
    return best;
  }

  /* frames leave in order: the oldest, whole or out of time */
  for (i = 0; i < GST_TILE_RECEIVER_SLOTS; i++) {
    GstTileReceiverSlot *s = &self->slots[i];

    if ((s->state == SLOT_COMPLETE || s->state == SLOT_FILLING) &&
        (!low || s->frame < low->frame))
      low = s;
  }
  if (low && low->state == SLOT_COMPLETE)
    return low;
  if (low && low->writers == 0) {
    /* out of time: past its timer, and no datagram of it for the timer
     * floor (a frame whose datagrams still come, on a link slower than
     * measured so far, is not cut) */
    gint64 now = (gint64) gst_util_get_timestamp ();
    gint64 until = MAX (low->deadline, low->last_ns + self->timer_floor_ns);

    if (self->units_running == 0 || now >= until) {
      if (!gst_tile_receiver_udp_credible_locked (self, low)) {
        /* given up without moving the receive window: the next oldest
         * frame may leave now */
        gst_tile_receiver_udp_discard_locked (self, low);
        return next_frame_locked (self, partial, map, wait_until);
      }
      *partial = gst_tile_receiver_take_partial_locked (self, low,
          self->units_running > 0, map);
      return low;
    }
    /* (with writers, the last of them broadcasts: a timed wait on a
     * deadline already past would spin and starve them of the lock) */
    *wait_until = until;
  }
  return NULL;
}

/* Takes @slot's frame out into @out: statistics, and over UDP the ACK to
 * send (returns TRUE then). Lock held. */
static gboolean
take_frame_locked (GstTileReceiver * self, GstTileReceiverSlot * slot,
    GstTileReceiverFrame * out, GstTileWireAck * ack)
{
  out->buffer = slot->buffer;
  out->complete_time = slot->complete_time;
  out->frame = slot->frame;
  out->sender_time = slot->sender_ts;
  slot->buffer = NULL;
  slot->state = SLOT_FREE;
  slot->sender_ts = GST_CLOCK_TIME_NONE;
  self->frames_received++;
  if (GST_CLOCK_TIME_IS_VALID (out->sender_time)) {
    guint64 rt = gst_tile_realtime_ns ();

    gst_tile_latency_add (&self->latency, rt > out->sender_time ?
        rt - out->sender_time : 0);
  }
  out->udp = self->config
      && self->config->protocol == GST_TILE_WIRE_PROTOCOL_UDP;
  if (out->udp) {
    guint64 first;

    if (self->have_pushed && out->frame > self->last_pushed + 1)
      self->frames_skipped += out->frame - self->last_pushed - 1;
    self->last_pushed = out->frame;
    self->have_pushed = TRUE;
    ack->generation = self->config->generation;
    ack->window = self->udp_window == G_MAXUINT ? 2 : self->udp_window;
    ack->has_frame = TRUE;
    ack->frame = out->frame;
    /* what the sender's rate control needs to know of the frame: from
     * the kernel's arrival times when there are (our own clock readings
     * would count the time our threads were off the CPU as the path's) */
    ack->has_feedback = slot->n_got > 0;
    ack->received = slot->n_got;
    if (slot->arrive_first) {
      first = slot->arrive_first;
      ack->receive_ns = slot->arrive_last - slot->arrive_first;
      /* those of the last arrival (a GRO batch) came after it */
      ack->spanned = slot->n_got - MIN (slot->n_at_last, slot->n_got);
    } else {
      first = slot->first_real_ns;
      ack->receive_ns = MAX (slot->last_ns - slot->first_ns, 0);
      ack->spanned = slot->n_got ? slot->n_got - 1 : 0;
    }
    ack->receive_ns = MIN (ack->receive_ns, GST_SECOND);
    ack->delay_ns = GST_CLOCK_TIME_IS_VALID (out->sender_time) ?
        (gint64) (first - out->sender_time) : 0;
    if (ack->delay_ns == 0 && GST_CLOCK_TIME_IS_VALID (out->sender_time))
      ack->delay_ns = 1;        /* 0 means unknown */
  }
  g_cond_broadcast (&self->cond);
  return out->udp;
}

/**
 * gst_tile_receiver_pull:
 * @self: a started receiver
 * @frame: (out caller-allocates): the frame, with %GST_TILE_RECEIVER_FRAME
 * @caps: (out) (transfer full): the sender's new caps, with
 *   %GST_TILE_RECEIVER_NEW_CAPS
 * @error: the reason, with %GST_TILE_RECEIVER_ERROR (a
 *   %GST_TILE_WIRE_ERROR: the sender sent something wrong; else a
 *   G_IO_ERROR)
 *
 * Waits for the next frame (GstPushSrc's create). Frames leave in order.
 * Over UDP the ACK of the frame goes to the sender here, and a frame with
 * gaps holds the previous frame's bytes there (see
 * gst_tile_receiver_keep_last()).
 *
 * Returns: what happened.
 */
GstTileReceiverResult
gst_tile_receiver_pull (GstTileReceiver * self, GstTileReceiverFrame * frame,
    gchar ** caps, GError ** error)
{
  GstTileReceiverSlot *best;
  GstBuffer *last = NULL;
  GstMapInfo map;
  gboolean partial = FALSE, udp;
  GstTileWireAck ack;

  g_mutex_lock (&self->lock);
  while (TRUE) {
    gint64 wait_until;

    if (self->flushing) {
      g_mutex_unlock (&self->lock);
      return GST_TILE_RECEIVER_FLUSHING;
    }
    if (self->error) {
      g_propagate_error (error, self->error);
      self->error = NULL;
      g_mutex_unlock (&self->lock);
      return GST_TILE_RECEIVER_ERROR;
    }
    best = next_frame_locked (self, &partial, &map, &wait_until);
    if (best)
      break;

    if (self->units_running == 0) {
      if (self->pending) {
        *caps = g_strdup (self->pending->caps);
        g_mutex_unlock (&self->lock);
        return GST_TILE_RECEIVER_NEW_CAPS;
      }
      if (self->eos) {
        g_mutex_unlock (&self->lock);
        GST_INFO_OBJECT (self->log_object, "all frames in, EOS");
        return GST_TILE_RECEIVER_EOS;
      }
    }
    if (wait_until) {
      /* g_cond_wait_until() counts in g_get_monotonic_time() units */
      gint64 us = g_get_monotonic_time () + (wait_until -
          (gint64) gst_util_get_timestamp ()) / 1000 + 1;
      g_cond_wait_until (&self->cond, &self->lock, us);
    } else {
      g_cond_wait (&self->cond, &self->lock);
    }
  }

  udp = take_frame_locked (self, best, frame, &ack);
  if (udp && self->last_buffer)
    last = gst_buffer_ref (self->last_buffer);
  g_mutex_unlock (&self->lock);
  if (udp)
    gst_tile_receiver_send_ack (self, &ack);
  if (partial) {
    gst_tile_receiver_conceal (frame->buffer, &map, last);
    gst_buffer_unmap (frame->buffer, &map);
  }
  if (last)
    gst_buffer_unref (last);
  return GST_TILE_RECEIVER_FRAME;
}

/**
 * gst_tile_receiver_start_generation:
 * @self: a receiver
 * @frame_duration: of a frame in the new caps, or GST_CLOCK_TIME_NONE (the
 *   UDP timers use it before any frame has arrived whole)
 *
 * After %GST_TILE_RECEIVER_NEW_CAPS and their negotiation: starts the units
 * of the sender's new CONFIG.
 */
void
gst_tile_receiver_start_generation (GstTileReceiver * self,
    GstClockTime frame_duration)
{
  g_mutex_lock (&self->lock);
  self->duration = frame_duration;
  if (self->pending && self->running && self->units_running == 0 &&
      self->units_stopping == 0)
    start_units_locked (self);
  g_mutex_unlock (&self->lock);
}

/**
 * gst_tile_receiver_keep_last:
 * @self: a receiver
 * @buffer: the frame just pulled, with its metas, about to be pushed
 *
 * Over UDP, the newest frame's bytes fill the gaps of the next. Call this
 * once the buffer is final. The first buffer after a start or a flush is
 * copied (GstBaseSrc makes that one writable, and a shared one would be
 * copied out of the downstream pool); the others are kept by reference.
 */
void
gst_tile_receiver_keep_last (GstTileReceiver * self, GstBuffer * buffer)
{
  GstBuffer *keep;
  gboolean by_ref;

  g_mutex_lock (&self->lock);
  by_ref = self->keep_last;
  g_mutex_unlock (&self->lock);
  keep = by_ref ? gst_buffer_ref (buffer) : gst_buffer_copy_deep (buffer);
  g_mutex_lock (&self->lock);
  gst_buffer_replace (&self->last_buffer, NULL);
  self->last_buffer = keep;
  self->keep_last = TRUE;
  g_mutex_unlock (&self->lock);
}

/**
 * gst_tile_receiver_set_stepped:
 * @self: a receiver
 * @stepped: report each tile to a #GstBcTileMeta as soon as it is in
 */
void
gst_tile_receiver_set_stepped (GstTileReceiver * self, gboolean stepped)
{
  g_atomic_int_set (&self->stepped, stepped);
}

/**
 * gst_tile_receiver_set_reconnect:
 * @self: a receiver
 * @reconnect: when the sender is not there or goes away, keep trying
 *   instead of failing
 */
void
gst_tile_receiver_set_reconnect (GstTileReceiver * self, gboolean reconnect)
{
  g_atomic_int_set (&self->reconnect, reconnect);
}

/**
 * gst_tile_receiver_set_stats_interval:
 * @self: a receiver
 * @interval_ms: post the statistics and send them to the sender this often
 *   (0 = never)
 */
void
gst_tile_receiver_set_stats_interval (GstTileReceiver * self, guint interval_ms)
{
  g_atomic_int_set (&self->stats_interval, interval_ms);
}

/**
 * gst_tile_receiver_set_timer_factor:
 * @self: a receiver
 * @factor: protocol=udp: an incomplete frame waits this many times the
 *   average receive time of a frame before it leaves with its gaps
 */
void
gst_tile_receiver_set_timer_factor (GstTileReceiver * self, gdouble factor)
{
  g_mutex_lock (&self->lock);
  self->timer_factor = factor;
  g_mutex_unlock (&self->lock);
}
