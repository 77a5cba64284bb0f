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
 * This file: the API and the lifecycle, the generations (starting and
 * stopping their units), pull() and the statistics. tilereceiver-control.c
 * has the control connection, tilereceiver-slots.c the frame slots,
 * tilereceiver-tcp.c the TCP units, tilereceiver-udp.c the UDP units, their
 * timers and the concealment (tilereceiver-private.h says more).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilereceiver-private.h"

#include <string.h>

GST_DEBUG_CATEGORY (gst_tile_receiver_debug);

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
        "libgsttile receiver");
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
  g_mutex_init (&self->control.send_lock);
  g_cond_init (&self->cond);
  self->control.ack_fd = -1;
  self->control.fd = -1;
  self->udp = gst_tile_receiver_udp_new ();
  self->fec = gst_tile_receiver_fec_new ();
  gst_tile_receiver_nack_init (self);
  gst_tile_receiver_clock_init (&self->clock);
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
  g_free (self->settings.host);
  gst_tile_wire_clear_passphrase (&self->settings.passphrase);
  g_free (self->settings.multicast_iface);
  gst_clear_object (&self->settings.clock);
  gst_tile_keys_clear (&self->keys);
  g_free (self->config);
  g_free (self->pending);
  g_clear_error (&self->error);
  gst_tile_receiver_udp_free (self->udp);
  gst_tile_receiver_fec_free (self->fec);
  gst_tile_receiver_nack_clear (self);
  gst_tile_receiver_clock_clear (&self->clock);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->control.send_lock);
  g_cond_clear (&self->cond);
  g_free (self);
}

GstClockTime
gst_tile_receiver_clock_time (GstTileReceiver * self)
{
  return self->callbacks.clock_time (self->user_data);
}

/* Records the first error; the streaming thread posts it. Lock held. */
void
gst_tile_receiver_set_error_locked (GstTileReceiver * self, GError * err)
{
  if (!self->error)
    self->error = g_error_copy (err);
  g_cond_broadcast (&self->cond);
}

/* The statistics of @c, with what they report of the running generation
 * (@config, NULL when none), the settings and over UDP the unit sockets
 * and the timers: the flat part of the stats, also what is sent to the
 * sender. Lock held. */
GstStructure *
gst_tile_receiver_counters_to_structure (const GstTileReceiverCounters * c,
    const GstTileWireConfig * config, guint n_used,
    const GstTileReceiverFixedSettings * settings, GstTileReceiverUdp * udp)
{
  GstStructure *s = gst_structure_new ("tilesrc-stats",
      "frames-received", G_TYPE_UINT64, c->frames_received,
      "frames-incomplete", G_TYPE_UINT64, c->frames_incomplete,
      "frames-abandoned", G_TYPE_UINT64, c->frames_abandoned,
      "bytes-received", G_TYPE_UINT64, c->bytes_received,
      "tiles-stepped", G_TYPE_UINT64, c->tiles_stepped,
      "connects", G_TYPE_UINT, c->connects,
      "units", G_TYPE_UINT, config ? config->n_tiles : 0,
      "region-units", G_TYPE_UINT, config ? n_used : 0,
      "generation", G_TYPE_UINT, config ? config->generation : 0,
      "receive-buffer-size", G_TYPE_INT, settings->receive_buffer_size,
      "receive-buffer-granted", G_TYPE_INT, c->granted_rcvbuf,
      "sealed", G_TYPE_BOOLEAN, settings->passphrase && config, NULL);

  /* how long before the frame's push its first tile was there: the time a
   * stepped consumer can use */
  if (c->frames_received > 0)
    gst_structure_set (s, "tile-spread-mean", G_TYPE_UINT64,
        c->tile_spread_sum * 1000 / c->frames_received, NULL);
  if (config && config->protocol == GST_TILE_WIRE_PROTOCOL_UDP) {
    guint64 drops, path_errors;
    gint64 floor_ns;

    /* (path-errors: the stats property's only, see get_stats ()) */
    gst_tile_receiver_udp_gauges_locked (udp, &drops, &floor_ns,
        &path_errors);
    gst_structure_set (s,
        "packets-received", G_TYPE_UINT64, c->packets_received,
        "packets-lost", G_TYPE_UINT64, c->packets_lost,
        "packets-late", G_TYPE_UINT64, c->packets_late,
        "packets-invalid", G_TYPE_UINT64, c->packets_invalid,
        "packets-tampered", G_TYPE_UINT64, c->packets_tampered,
        "packets-duplicate", G_TYPE_UINT64, c->packets_duplicate,
        "frames-partial", G_TYPE_UINT64, c->frames_partial,
        "frames-timer", G_TYPE_UINT64, c->frames_timer,
        "frames-skipped", G_TYPE_UINT64, c->frames_skipped,
        "frames-discarded", G_TYPE_UINT64, c->frames_discarded,
        "packets-discarded", G_TYPE_UINT64, c->packets_discarded,
        "packets-dropped", G_TYPE_UINT64, c->packets_dropped,
        "packets-in-place", G_TYPE_UINT64, c->packets_in_place,
        "frames-recovered", G_TYPE_UINT64, c->frames_recovered,
        "nacks-sent", G_TYPE_UINT64, c->nacks_sent,
        "fec-packets-received", G_TYPE_UINT64, c->fec_packets_received,
        "fec-packets-recovered", G_TYPE_UINT64, c->fec_packets_recovered,
        "fec-frames-recovered", G_TYPE_UINT64, c->fec_frames_recovered,
        "fec-frames-unrecoverable", G_TYPE_UINT64,
        c->fec_frames_unrecoverable,
        "fec-packets-unused", G_TYPE_UINT64, c->fec_packets_unused,
        "kernel-drops", G_TYPE_UINT64, drops,
        "timer-floor-us", G_TYPE_UINT64, (guint64) (floor_ns / 1000), NULL);
  }
  gst_tile_latency_to_structure (&c->latency, s);
  if (settings->time_base != GST_TILE_RECEIVER_TIME_NONE)
    gst_structure_set (s,
        "frames-late", G_TYPE_UINT64, c->frames_late,
        "frames-dropped-late", G_TYPE_UINT64, c->frames_dropped_late,
        "frames-retimed", G_TYPE_UINT64, c->frames_retimed,
        "latency-changes", G_TYPE_UINT, c->latency_changes, NULL);
  return s;
}

/* The statistics of the clock and the playout into @s. Lock held. */
void
gst_tile_receiver_time_stats_locked (GstTileReceiver * self, GstStructure * s)
{
  gst_tile_receiver_clock_stats_locked (&self->clock, s);
  if (self->settings.time_base != GST_TILE_RECEIVER_TIME_NONE)
    gst_structure_set (s, "playout-latency", G_TYPE_UINT64,
        gst_tile_playout_get_latency (&self->playout), NULL);
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
  s = gst_tile_receiver_counters_to_structure (&self->counters, self->config,
      self->n_used, &self->settings, self->udp);
  gst_tile_receiver_time_stats_locked (self, s);
  /* local only: the paths up (the control connection's and the other
   * addresses of `host` introduced), 0 without a session */
  gst_structure_set (s, "paths-up", G_TYPE_UINT, self->config ?
      MAX (self->paths.n_up, 1) : 0, NULL);
  /* local only: a sender of an earlier build knows no such name */
  gst_structure_set (s, "tiles-late", G_TYPE_UINT64,
      self->counters.tiles_late, "tiles-duplicate", G_TYPE_UINT64,
      self->counters.tiles_duplicate, NULL);
  if (self->config && self->config->protocol == GST_TILE_WIRE_PROTOCOL_TCP) {
    gst_structure_set (s, "path-errors", G_TYPE_UINT64,
        self->counters.tcp_path_errors, NULL);
    g_mutex_lock (&self->control.send_lock);
    gst_structure_set (s, "control-skipped", G_TYPE_UINT64,
        self->control.skipped, NULL);
    g_mutex_unlock (&self->control.send_lock);
  }
  if (self->config) {
    GValue paths = G_VALUE_INIT, v = G_VALUE_INIT;
    guint i;

    /* local only: the path (its index in `host`) of each unit (with
     * redundant paths: its first; it has a socket on each) */
    gst_value_array_init (&paths, self->config->n_tiles);
    for (i = 0; i < self->config->n_tiles; i++) {
      g_value_init (&v, G_TYPE_UINT);
      g_value_set_uint (&v, self->paths.n_up > 1 ?
          self->paths.up[i % self->paths.n_up] : self->paths.control);
      gst_value_array_append_and_take_value (&paths, &v);
    }
    gst_structure_take_value (s, "unit-paths", &paths);
  }
  if (self->config && self->config->protocol == GST_TILE_WIRE_PROTOCOL_UDP) {
    GValue ports = G_VALUE_INIT, v = G_VALUE_INIT;
    guint64 drops, path_errors;
    gint64 floor_ns;
    guint i;

    /* local only: a sender of an earlier build knows no such name */
    gst_tile_receiver_udp_gauges_locked (self->udp, &drops, &floor_ns,
        &path_errors);
    gst_structure_set (s, "path-errors", G_TYPE_UINT64, path_errors, NULL);
    g_mutex_lock (&self->control.send_lock);
    gst_structure_set (s, "control-skipped", G_TYPE_UINT64,
        self->control.skipped, NULL);
    g_mutex_unlock (&self->control.send_lock);

    /* local only: the wire form of the stats has no arrays (0: a unit
     * outside the region) */
    gst_value_array_init (&ports, self->config->n_tiles);
    for (i = 0; i < self->config->n_tiles; i++) {
      g_value_init (&v, G_TYPE_UINT);
      g_value_set_uint (&v, gst_tile_receiver_uses (self, i) ?
          gst_tile_net_local_port (self->units[i].fd) : 0);
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

  if (!self->settings.passphrase)
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

/* Stops the units of the running generation, waits for them and drops
 * their frames. Lock held. */
void
gst_tile_receiver_stop_units_locked (GstTileReceiver * self)
{
  guint i;

  self->run++;
  /* no unit may start while we wait (gst_tile_receiver_start_generation ()
   * from the streaming thread, once the last one has gone): we would wait
   * for it for good */
  self->units_stopping++;
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    GstTileReceiverUnit *u = &self->units[i];
    guint k;

    if (u->fd >= 0)
      gst_tile_net_shutdown (u->fd);
    /* (TCP, redundant paths: its connections on the other paths) */
    for (k = 0; k < u->n_legs; k++)
      if (u->legs[k] && u->legs[k]->c.fd >= 0)
        gst_tile_net_shutdown (u->legs[k]->c.fd);
  }
  g_cond_broadcast (&self->cond);
  while (self->units_running > 0)
    g_cond_wait (&self->cond, &self->lock);
  join_units_locked (self);
  self->units_stopping--;
  gst_tile_receiver_slots_release_locked (self);
}

/* The units of the current CONFIG the region needs (the sender works out
 * the same with the same function), every unit without one. A region
 * that does not fit the caps gets them all: the element refuses those
 * caps. Lock held. */
static void
use_region_locked (GstTileReceiver * self)
{
  GError *err = NULL;

  if (!gst_tile_region_config_units (self->settings.has_region ?
          &self->settings.region : NULL, self->config, &self->units_used,
          &err)) {
    GST_WARNING_OBJECT (self->log_object, "%s: receiving every unit",
        err->message);
    g_clear_error (&err);
  }
  self->n_used = __builtin_popcountll (self->units_used);
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
  self->run++;
  gst_tile_wire_config_check_tiling (self->config, &self->tiling, NULL);
  use_region_locked (self);
  udp = self->config->protocol == GST_TILE_WIRE_PROTOCOL_UDP;
  if (udp)
    gst_tile_receiver_udp_start_locked (self);
  self->units_running = self->n_used;
  for (i = 0; i < self->config->n_tiles; i++) {
    gchar *name;

    if (!gst_tile_receiver_uses (self, i))
      continue;
    name = g_strdup_printf ("tilesrc-unit%u", i);
    self->units[i].thread = g_thread_new (name, udp ?
        gst_tile_receiver_udp_unit : gst_tile_receiver_tcp_unit,
        &self->units[i]);
    g_free (name);
  }
  GST_INFO_OBJECT (self->log_object, "generation %u: %u of %u units",
      self->config->generation, self->n_used, self->config->n_tiles);
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
  g_mutex_lock (&self->lock);
  g_free (self->settings.host);
  self->settings.host = g_strdup (settings->host);
  gst_tile_wire_clear_passphrase (&self->settings.passphrase);
  self->settings.passphrase = g_strdup (settings->passphrase);
  g_free (self->settings.multicast_iface);
  self->settings.multicast_iface = settings->multicast_iface &&
      *settings->multicast_iface ? g_strdup (settings->multicast_iface) : NULL;
  self->settings.port = settings->port;
  self->settings.timeout = settings->timeout_ms;
  self->settings.receive_buffer_size = settings->receive_buffer_size;
  self->settings.gro = settings->gro;
  self->settings.gro_required = settings->gro_required;
  self->settings.time_base = settings->time_base;
  gst_clear_object (&self->settings.clock);
  if (settings->clock)
    self->settings.clock = gst_object_ref (settings->clock);
  else if (settings->time_base == GST_TILE_RECEIVER_TIME_CLOCK)
    self->settings.time_base = GST_TILE_RECEIVER_TIME_NONE;
  self->settings.latency_ms = settings->latency_ms;
  self->settings.drop_late = settings->drop_late;
  self->settings.retransmit = settings->retransmit;
  self->settings.redundant = settings->redundant;
  gst_tile_playout_init (&self->playout, settings->latency_ms,
      GST_TILE_RECEIVER_AUTO_LATENCY_START);
  self->settings.has_region = self->has_region;
  self->settings.region = self->region;
  self->duration = GST_CLOCK_TIME_NONE;
  self->running = TRUE;
  self->flushing = FALSE;
  self->eos = FALSE;
  g_clear_error (&self->error);
  memset (&self->counters, 0, sizeof (self->counters));
  gst_tile_latency_reset (&self->counters.latency);
  self->warned_rcvbuf = FALSE;
  gst_tile_receiver_udp_reset_locked (self->udp);
  self->nack_futile = self->nack_probe = 0;
  gst_tile_receiver_slots_reset (self);
  gst_tile_receiver_control_start_locked (self);
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
  g_mutex_lock (&self->lock);
  self->running = FALSE;
  gst_tile_receiver_control_shutdown_locked (self, FALSE);
  gst_tile_receiver_stop_units_locked (self);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);

  gst_tile_receiver_control_join (self);

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->config, g_free);
  g_clear_pointer (&self->pending, g_free);
  gst_tile_receiver_udp_reset_locked (self->udp);
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
    gst_tile_receiver_udp_flushed_locked (self->udp);
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
  *wait_until = 0;
  if (self->config && self->config->protocol == GST_TILE_WIRE_PROTOCOL_UDP)
    return gst_tile_receiver_udp_next_locked (self, partial, map,
        wait_until);
  return gst_tile_receiver_tcp_next_locked (self);
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
  GstMapInfo map;
  gboolean partial = FALSE, udp;
  GstTileWireAck ack, discard_ack;
  gboolean have_discard_ack = FALSE;

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
    /* a frame given up meanwhile: its ACK (the path's feedback) */
    if (gst_tile_receiver_udp_discard_ack_locked (self, &ack)) {
      g_mutex_unlock (&self->lock);
      gst_tile_receiver_send_ack (self, &ack);
      g_mutex_lock (&self->lock);
      continue;
    }
    /* NACKs of a frame whose timer came (tilereceiver-nack.c) */
    if (gst_tile_receiver_nack_flush_locked (self))
      continue;

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

  /* out: the statistics, and over UDP the ACK to send */
  gst_tile_receiver_slot_take_locked (self, best, frame);
  udp = self->config && self->config->protocol == GST_TILE_WIRE_PROTOCOL_UDP;
  frame->udp = udp;
  if (udp) {
    have_discard_ack = gst_tile_receiver_udp_discard_ack_locked (self,
        &discard_ack);
    gst_tile_receiver_udp_take_locked (self, best, frame, &ack);
  }
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  if (have_discard_ack)
    gst_tile_receiver_send_ack (self, &discard_ack);
  if (udp)
    gst_tile_receiver_send_ack (self, &ack);
  if (partial) {
    gst_tile_receiver_udp_conceal (self, frame->buffer, &map);
    gst_buffer_unmap (frame->buffer, &map);
  }
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
  gst_tile_receiver_udp_keep_last (self, buffer);
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

/**
 * gst_tile_receiver_set_region:
 * @self: a receiver
 * @region: (nullable): the part of the sender's frames to receive, in
 *   pixels, or %NULL for the whole frame
 *
 * From the next start(): the receiver asks the sender for @region in its
 * HELLO, and runs only the units of the tiles that hold its rows
 * (gst_tile_region_config_units()); the frames it pulls have the other
 * tiles' bytes unwritten. A region the wire cannot carry (empty, or past
 * %GST_TILE_WIRE_MAX_REGION) is not sent: the whole frame comes, and the
 * element is to refuse the caps (gst_tile_region_layout() says why).
 */
void
gst_tile_receiver_set_region (GstTileReceiver * self,
    const GstTileWireRegion * region)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  self->has_region = region != NULL;
  if (region)
    self->region = *region;
  else
    memset (&self->region, 0, sizeof (self->region));
  g_mutex_unlock (&self->lock);
}

/**
 * gst_tile_receiver_get_clock:
 * @self: a receiver
 *
 * The sender's clock, as this receiver follows it: its TIME queries over
 * the control connection (sealed with a passphrase) and the sender's
 * answers, from its pipeline clock, calibrate it (gst_clock_add_observation
 * ()). It reads this host's monotonic time until the first answer, and is
 * synced (gst_clock_is_synced ()) after a few. The same clock for the
 * receiver's whole life, across reconnects.
 *
 * Returns: (transfer full): the clock
 */
GstClock *
gst_tile_receiver_get_clock (GstTileReceiver * self)
{
  GstClock *clock;

  g_return_val_if_fail (self != NULL, NULL);

  g_mutex_lock (&self->lock);
  clock = gst_object_ref (self->clock.clock);
  g_mutex_unlock (&self->lock);
  return clock;
}

/**
 * gst_tile_receiver_get_latency:
 * @self: a receiver
 *
 * The playout latency: a frame is presented this long after its capture.
 * The settings' latency, or the automatic one now (which changes with the
 * frames: see #GstTileReceiverFrame's @latency_changed).
 *
 * Returns: the latency, or GST_CLOCK_TIME_NONE when the receiver has no
 *     time base (%GST_TILE_RECEIVER_TIME_NONE)
 */
GstClockTime
gst_tile_receiver_get_latency (GstTileReceiver * self)
{
  GstClockTime latency = GST_CLOCK_TIME_NONE;

  g_return_val_if_fail (self != NULL, GST_CLOCK_TIME_NONE);

  g_mutex_lock (&self->lock);
  if (self->settings.time_base != GST_TILE_RECEIVER_TIME_NONE)
    latency = gst_tile_playout_get_latency (&self->playout);
  g_mutex_unlock (&self->lock);
  return latency;
}
