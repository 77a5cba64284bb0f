/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-tilesink
 * @title: tilesink
 * @see_also: tilesrc, bc1enc, bc3enc
 *
 * tilesink serves fixed-size frames (`video/x-bc` or `video/x-raw`) to one
 * tilesrc at a time, over many parallel TCP connections. Every frame is
 * cut into `units` horizontal tiles on row boundaries (block rows for
 * `video/x-bc`, pixel rows for raw video); each tile travels on its own
 * connection, sent by its own thread, preceded by a 32-byte tile header
 * carrying the frame number and the sender's wall-clock time.
 *
 * tilesink listens on `port` (0 picks a free port; read it back from
 * `bound-port`). A tilesrc connects, receives the caps and the tile layout
 * in a versioned handshake (docs/wire-protocol.md) and opens one data
 * connection per tile. The control connection stays open for caps changes,
 * EOS, keep-alives and the receiver's statistics.
 *
 * tilesink never sends part of a frame and never blocks the pipeline on a
 * slow receiver: a frame that arrives while `max-in-flight` frames are
 * still being sent is dropped whole, counted, and a QoS message is posted.
 * Frames that arrive while no receiver is connected are counted as unsent.
 * A receiver that goes away does not stop the sender: it goes on listening
 * and serves the next one.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc is-live=true ! video/x-raw,width=1920,height=1080 ! \
 *     bc1enc ! tilesink port=7000 units=8
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "gsttilesink.h"
#include <gst/tile/tilenet.h>

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

GST_DEBUG_CATEGORY_STATIC (gst_tile_sink_debug);
#define GST_CAT_DEFAULT gst_tile_sink_debug

#define DEFAULT_ADDRESS "0.0.0.0"
#define DEFAULT_PORT 7000
#define DEFAULT_UNITS 4
#define DEFAULT_PROTOCOL GST_TILE_PROTOCOL_TCP
#define DEFAULT_CHUNK_SIZE (1 << 20)
#define DEFAULT_SEND_BUFFER_SIZE (16 << 20)
#define DEFAULT_MAX_IN_FLIGHT 2
#define DEFAULT_STATS_INTERVAL 1000
#define DEFAULT_HANDSHAKE_TIMEOUT 5000
#define DEFAULT_PACKET_SIZE 1408
#define DEFAULT_GSO GST_TILE_GSO_AUTO
#define DEFAULT_PACING_BITRATE 0

#define KEEPALIVE_INTERVAL_MS 1000
#define DRAIN_TIMEOUT_US (5 * G_USEC_PER_SEC)
/* protocol=udp: how long the oldest frame not acknowledged may wait before
 * the receiver's window is taken as open */
#define ACK_STALL_US (G_USEC_PER_SEC)
#define MAX_PENDING 64
#define PENDING_BUF (GST_TILE_WIRE_HEADER_SIZE + 64)

enum
{
  PROP_0,
  PROP_ADDRESS,
  PROP_PORT,
  PROP_BOUND_PORT,
  PROP_UNITS,
  PROP_PROTOCOL,
  PROP_CHUNK_SIZE,
  PROP_SEND_BUFFER_SIZE,
  PROP_MAX_IN_FLIGHT,
  PROP_TILE_STATS,
  PROP_STATS_INTERVAL,
  PROP_HANDSHAKE_TIMEOUT,
  PROP_PACKET_SIZE,
  PROP_GSO,
  PROP_PACING_BITRATE,
};

struct _GstTileSinkFrame
{
  guint remaining;              /* units still sending, lock */
  gboolean failed;              /* a unit could not send its tile, lock */
  GstBuffer *buffer;
  GstMapInfo map;
  guint64 number;
  guint64 timestamp;
  guint32 generation;
};

struct _GstTileSinkPending
{
  gint fd;
  guint8 buf[PENDING_BUF];
  gsize have;
  gint64 deadline;
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-bc; video/x-raw"));

#define gst_tile_sink_parent_class parent_class
G_DEFINE_TYPE (GstTileSink, gst_tile_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (tilesink, "tilesink", GST_RANK_NONE,
    GST_TYPE_TILE_SINK, tile_element_init (plugin);
    GST_DEBUG_CATEGORY_INIT (gst_tile_sink_debug, "tilesink", 0,
        "Tiled multi-connection frame sender"));

static void gst_tile_sink_finalize (GObject * object);
static void gst_tile_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_tile_sink_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_tile_sink_start (GstBaseSink * bsink);
static gboolean gst_tile_sink_stop (GstBaseSink * bsink);
static gboolean gst_tile_sink_set_caps (GstBaseSink * bsink, GstCaps * caps);
static gboolean gst_tile_sink_event (GstBaseSink * bsink, GstEvent * event);
static GstFlowReturn gst_tile_sink_render (GstBaseSink * bsink,
    GstBuffer * buffer);

static void
gst_tile_sink_class_init (GstTileSinkClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *bsink_class = GST_BASE_SINK_CLASS (klass);

  gobject_class->finalize = gst_tile_sink_finalize;
  gobject_class->set_property = gst_tile_sink_set_property;
  gobject_class->get_property = gst_tile_sink_get_property;

  g_object_class_install_property (gobject_class, PROP_ADDRESS,
      g_param_spec_string ("address", "Address",
          "Address to listen on (host name or numeric IPv4/IPv6)",
          DEFAULT_ADDRESS, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PORT,
      g_param_spec_uint ("port", "Port",
          "TCP port to listen on for the control and data connections "
          "(0 = pick a free port, see bound-port)", 0, 65535, DEFAULT_PORT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_BOUND_PORT,
      g_param_spec_uint ("bound-port", "Bound port",
          "The port actually listened on (0 when not listening)", 0, 65535,
          0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_UNITS,
      g_param_spec_uint ("units", "Units",
          "Tiles per frame, each on its own connection and thread (frames "
          "with fewer rows get one tile per row)", 1, GST_TILE_WIRE_MAX_UNITS,
          DEFAULT_UNITS, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PROTOCOL,
      g_param_spec_enum ("protocol", "Protocol",
          "Data transport: tcp (one connection per unit) or udp (one socket "
          "per unit; the control connection stays TCP)",
          GST_TYPE_TILE_PROTOCOL, DEFAULT_PROTOCOL, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_CHUNK_SIZE,
      g_param_spec_uint ("chunk-size", "Chunk size",
          "Bytes per send() call", 1, G_MAXINT32, DEFAULT_CHUNK_SIZE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_SEND_BUFFER_SIZE,
      g_param_spec_int ("send-buffer-size", "Send buffer size",
          "Socket send buffer to ask for per data connection, in bytes "
          "(0 = kernel default; the granted size is in stats)", 0, G_MAXINT,
          DEFAULT_SEND_BUFFER_SIZE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_MAX_IN_FLIGHT,
      g_param_spec_uint ("max-in-flight", "Max in flight",
          "Frames that may still be on their way; a frame arriving beyond "
          "this is dropped whole and a QoS message posted", 1, 64,
          DEFAULT_MAX_IN_FLIGHT, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_TILE_STATS,
      g_param_spec_boxed ("tile-stats", "Tile statistics",
          "Sender statistics, and the receiver's last report (GstBaseSink's "
          "own 'stats' property has the base class's counters)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_STATS_INTERVAL,
      g_param_spec_uint ("stats-interval", "Statistics interval",
          "Post the stats as an element message every this many ms "
          "(0 = never)", 0, G_MAXUINT, DEFAULT_STATS_INTERVAL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_HANDSHAKE_TIMEOUT,
      g_param_spec_uint ("handshake-timeout", "Handshake timeout",
          "Close a new connection that has not completed its first message "
          "within this many ms", 1, G_MAXINT, DEFAULT_HANDSHAKE_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_PACKET_SIZE,
      g_param_spec_uint ("packet-size", "Packet size",
          "protocol=udp: payload bytes per datagram, after its 32-byte header "
          "(1408 fits a 1500-byte MTU with the IPv4 and UDP headers)", 1,
          GST_TILE_WIRE_MAX_PACKET_PAYLOAD, DEFAULT_PACKET_SIZE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_GSO,
      g_param_spec_enum ("gso", "GSO",
          "protocol=udp: send batches of datagrams with UDP segmentation "
          "offload (UDP_SEGMENT)", GST_TYPE_TILE_GSO, DEFAULT_GSO,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PACING_BITRATE,
      g_param_spec_uint64 ("pacing-bitrate", "Pacing bitrate",
          "protocol=udp: pace the datagrams of all units together to at most "
          "this many bits/s, headers included (0 = as fast as possible)", 0,
          G_MAXUINT64, DEFAULT_PACING_BITRATE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_set_static_metadata (element_class,
      "Tiled multi-connection frame sender", "Sink/Network",
      "Serves fixed-size frames to a tilesrc, cut into tiles sent in "
      "parallel over one TCP connection per unit",
      "gst-bc developers <gst-bc@example.org>");

  bsink_class->start = GST_DEBUG_FUNCPTR (gst_tile_sink_start);
  bsink_class->stop = GST_DEBUG_FUNCPTR (gst_tile_sink_stop);
  bsink_class->set_caps = GST_DEBUG_FUNCPTR (gst_tile_sink_set_caps);
  bsink_class->event = GST_DEBUG_FUNCPTR (gst_tile_sink_event);
  bsink_class->render = GST_DEBUG_FUNCPTR (gst_tile_sink_render);
}

static void
gst_tile_sink_init (GstTileSink * self)
{
  guint i;

  self->address = g_strdup (DEFAULT_ADDRESS);
  self->port = DEFAULT_PORT;
  self->n_units = DEFAULT_UNITS;
  self->protocol = DEFAULT_PROTOCOL;
  self->chunk_size = DEFAULT_CHUNK_SIZE;
  self->send_buffer_size = DEFAULT_SEND_BUFFER_SIZE;
  self->max_in_flight = DEFAULT_MAX_IN_FLIGHT;
  self->stats_interval = DEFAULT_STATS_INTERVAL;
  self->handshake_timeout = DEFAULT_HANDSHAKE_TIMEOUT;
  self->packet_size = DEFAULT_PACKET_SIZE;
  self->gso = DEFAULT_GSO;
  self->pacing_bitrate = DEFAULT_PACING_BITRATE;
  self->udp_fd = -1;

  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->listen_fd = -1;
  self->control_fd = -1;
  self->wake_fds[0] = self->wake_fds[1] = -1;
  self->pending = g_new0 (GstTileSinkPending, MAX_PENDING);
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    self->units[i].sink = self;
    self->units[i].index = i;
    self->units[i].fd = -1;
    g_queue_init (&self->units[i].queue);
    g_cond_init (&self->units[i].cond);
  }

  /* a network sender sends as soon as a frame is ready */
  gst_base_sink_set_sync (GST_BASE_SINK (self), FALSE);
  gst_base_sink_set_qos_enabled (GST_BASE_SINK (self), TRUE);
}

static void
gst_tile_sink_finalize (GObject * object)
{
  GstTileSink *self = GST_TILE_SINK (object);
  guint i;

  g_free (self->address);
  g_free (self->pending);
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++)
    g_cond_clear (&self->units[i].cond);
  if (self->receiver_stats)
    gst_structure_free (self->receiver_stats);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static gboolean session_ready_locked (GstTileSink * self);

static GstStructure *
gst_tile_sink_get_stats (GstTileSink * self)
{
  GstStructure *s;
  GValue bytes = G_VALUE_INIT, busy = G_VALUE_INIT, v = G_VALUE_INIT;
  guint i, n;

  g_mutex_lock (&self->lock);
  s = gst_structure_new ("tilesink-stats",
      "frames-sent", G_TYPE_UINT64, self->frames_sent,
      "frames-dropped", G_TYPE_UINT64, self->frames_dropped,
      "frames-dropped-window", G_TYPE_UINT64, self->frames_window,
      "receiver-window", G_TYPE_UINT, self->ack_window,
      "frames-unsent", G_TYPE_UINT64, self->frames_unsent,
      "bytes-sent", G_TYPE_UINT64, self->bytes_sent,
      "packets-sent", G_TYPE_UINT64, self->packets_sent,
      "protocol", G_TYPE_STRING, self->protocol == GST_TILE_PROTOCOL_UDP ?
      "udp" : "tcp",
      "gso", G_TYPE_BOOLEAN, self->units[0].gso,
      "connected", G_TYPE_BOOLEAN, session_ready_locked (self),
      "clients", G_TYPE_UINT, self->clients,
      "disconnects", G_TYPE_UINT, self->disconnects,
      "refused", G_TYPE_UINT, self->refused,
      "units", G_TYPE_UINT, self->have_config ? self->config.n_tiles : 0,
      "generation", G_TYPE_UINT, self->have_config ?
      self->config.generation : 0,
      "send-buffer-size", G_TYPE_INT, self->send_buffer_size,
      "send-buffer-granted", G_TYPE_INT, self->granted_send_buffer, NULL);

  gst_value_array_init (&bytes, GST_TILE_WIRE_MAX_UNITS);
  gst_value_array_init (&busy, GST_TILE_WIRE_MAX_UNITS);
  n = self->n_threads;
  for (i = 0; i < n; i++) {
    g_value_init (&v, G_TYPE_UINT64);
    g_value_set_uint64 (&v, self->units[i].bytes);
    gst_value_array_append_and_take_value (&bytes, &v);
    g_value_init (&v, G_TYPE_DOUBLE);
    g_value_set_double (&v, self->units[i].busy_ns / 1e6);
    gst_value_array_append_and_take_value (&busy, &v);
  }
  gst_structure_take_value (s, "unit-bytes", &bytes);
  gst_structure_take_value (s, "unit-busy-ms", &busy);
  if (self->receiver_stats)
    gst_structure_set (s, "receiver", GST_TYPE_STRUCTURE,
        self->receiver_stats, NULL);
  g_mutex_unlock (&self->lock);
  return s;
}

static void
gst_tile_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstTileSink *self = GST_TILE_SINK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ADDRESS:
      g_free (self->address);
      self->address = g_value_dup_string (value);
      if (!self->address)
        self->address = g_strdup (DEFAULT_ADDRESS);
      break;
    case PROP_PORT:
      self->port = g_value_get_uint (value);
      break;
    case PROP_UNITS:
      self->n_units = g_value_get_uint (value);
      break;
    case PROP_PROTOCOL:
      self->protocol = g_value_get_enum (value);
      break;
    case PROP_CHUNK_SIZE:
      g_atomic_int_set (&self->chunk_size, g_value_get_uint (value));
      break;
    case PROP_SEND_BUFFER_SIZE:
      self->send_buffer_size = g_value_get_int (value);
      break;
    case PROP_MAX_IN_FLIGHT:
      g_atomic_int_set (&self->max_in_flight, g_value_get_uint (value));
      break;
    case PROP_STATS_INTERVAL:
      g_atomic_int_set (&self->stats_interval, g_value_get_uint (value));
      break;
    case PROP_HANDSHAKE_TIMEOUT:
      self->handshake_timeout = g_value_get_uint (value);
      break;
    case PROP_PACKET_SIZE:
      self->packet_size = g_value_get_uint (value);
      break;
    case PROP_GSO:
      self->gso = g_value_get_enum (value);
      break;
    case PROP_PACING_BITRATE:
      self->pacing_bitrate = g_value_get_uint64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_tile_sink_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstTileSink *self = GST_TILE_SINK (object);

  if (prop_id == PROP_TILE_STATS) {
    g_value_take_boxed (value, gst_tile_sink_get_stats (self));
    return;
  }
  if (prop_id == PROP_BOUND_PORT) {
    g_mutex_lock (&self->lock);
    g_value_set_uint (value, self->bound_port);
    g_mutex_unlock (&self->lock);
    return;
  }

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ADDRESS:
      g_value_set_string (value, self->address);
      break;
    case PROP_PORT:
      g_value_set_uint (value, self->port);
      break;
    case PROP_UNITS:
      g_value_set_uint (value, self->n_units);
      break;
    case PROP_PROTOCOL:
      g_value_set_enum (value, self->protocol);
      break;
    case PROP_CHUNK_SIZE:
      g_value_set_uint (value, g_atomic_int_get (&self->chunk_size));
      break;
    case PROP_SEND_BUFFER_SIZE:
      g_value_set_int (value, self->send_buffer_size);
      break;
    case PROP_MAX_IN_FLIGHT:
      g_value_set_uint (value, g_atomic_int_get (&self->max_in_flight));
      break;
    case PROP_STATS_INTERVAL:
      g_value_set_uint (value, g_atomic_int_get (&self->stats_interval));
      break;
    case PROP_HANDSHAKE_TIMEOUT:
      g_value_set_uint (value, self->handshake_timeout);
      break;
    case PROP_PACKET_SIZE:
      g_value_set_uint (value, self->packet_size);
      break;
    case PROP_GSO:
      g_value_set_enum (value, self->gso);
      break;
    case PROP_PACING_BITRATE:
      g_value_set_uint64 (value, self->pacing_bitrate);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
wake_server (GstTileSink * self)
{
  guint8 b = 1;

  if (self->wake_fds[1] >= 0 && write (self->wake_fds[1], &b, 1) < 0)
    GST_LOG_OBJECT (self, "wake pipe full");
}

/* One unit is done with @frame (sent its tile, or could not). Lock held.
 * The frame stops counting as in flight the moment its last tile is out.
 * Returns the frame when the caller must free it with frame_free() (after
 * releasing the lock), NULL otherwise. */
static GstTileSinkFrame *
frame_done_locked (GstTileSink * self, GstTileSinkFrame * frame, gboolean ok)
{
  if (!ok)
    frame->failed = TRUE;
  if (--frame->remaining > 0)
    return NULL;
  if (!frame->failed)
    self->frames_sent++;
  self->in_flight--;
  g_cond_broadcast (&self->cond);
  return frame;
}

static void
frame_free (GstTileSinkFrame * frame)
{
  if (!frame)
    return;
  gst_buffer_unmap (frame->buffer, &frame->map);
  gst_buffer_unref (frame->buffer);
  g_free (frame);
}

/* Closes the data connections of the current generation. Lock held. A unit
 * in the middle of a send() is woken by the shutdown() and closes its own
 * descriptor afterwards. */
static void
close_data_locked (GstTileSink * self)
{
  guint i;

  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    GstTileSinkUnit *u = &self->units[i];

    if (u->fd < 0)
      continue;
    if (u->sending) {
      gst_tile_net_shutdown (u->fd);
      u->close_pending = TRUE;
      u->fd = -1;
    } else {
      gst_tile_net_close (&u->fd);
    }
  }
  self->n_connected = 0;
}

/* Ends the session with the current receiver. Lock held. The control
 * descriptor is only shut down here; the server thread, which polls it,
 * closes it. */
static void
end_session_locked (GstTileSink * self, const gchar * why)
{
  if (self->control_fd < 0 || self->control_dead)
    return;
  GST_INFO_OBJECT (self, "receiver session ends: %s", why);
  self->control_dead = TRUE;
  close_data_locked (self);
  gst_tile_net_shutdown (self->control_fd);
  self->disconnects++;
  wake_server (self);
}

static gboolean
session_ready_locked (GstTileSink * self)
{
  /* over UDP the receiver's window must be known too: its first ACK */
  return self->control_fd >= 0 && !self->control_dead && self->have_config &&
      self->n_connected == self->config.n_tiles && !self->eos_sent &&
      (self->config.protocol != GST_TILE_WIRE_PROTOCOL_UDP ||
      self->ack_window > 0);
}

/* Control messages are small; a receiver that does not read its control
 * connection any more is treated as gone instead of blocking us. Lock
 * held. */
static gboolean
send_control_locked (GstTileSink * self, const GByteArray * message)
{
  GError *err = NULL;

  if (self->control_fd < 0 || self->control_dead)
    return FALSE;
  if (!gst_tile_net_send_now (self->control_fd, message->data, message->len,
          &err)) {
    end_session_locked (self, g_error_matches (err, G_IO_ERROR,
            G_IO_ERROR_WOULD_BLOCK) ? "control connection stalled" :
        err->message);
    g_clear_error (&err);
    return FALSE;
  }
  return TRUE;
}

static gboolean
send_config_locked (GstTileSink * self)
{
  GByteArray *p = g_byte_array_new ();
  GError *err = NULL;
  gboolean ret;

  /* a new generation: nothing of it is in flight yet, and the receiver's
   * window is unknown until its first acknowledgement (sent once its unit
   * sockets are up) */
  self->acked_next = self->next_frame;
  self->ack_window = 0;
  self->ack_progress_us = g_get_monotonic_time ();
  ret = gst_tile_wire_config_pack (&self->config, p, &err);
  if (!ret) {
    GST_ERROR_OBJECT (self, "cannot pack CONFIG: %s", err->message);
    g_clear_error (&err);
  } else {
    ret = send_control_locked (self, p);
  }
  g_byte_array_unref (p);
  return ret;
}

/* Waits until every queued frame has been sent (or the sender stops).
 * Lock held. */
static gboolean
drain_locked (GstTileSink * self)
{
  gint64 end = g_get_monotonic_time () + DRAIN_TIMEOUT_US;

  while (self->in_flight > 0 && self->running) {
    if (!g_cond_wait_until (&self->cond, &self->lock, end)) {
      GST_WARNING_OBJECT (self, "%u frames still in flight after %d s",
          self->in_flight, (gint) (DRAIN_TIMEOUT_US / G_USEC_PER_SEC));
      return FALSE;
    }
  }
  return self->in_flight == 0;
}

/* Scratch space of a unit thread for protocol=udp, grown per generation,
 * never per packet. */
typedef struct
{
  guint8 *headers;
  struct iovec *iov;
  struct mmsghdr *msgs;
  guint alloc;
  gint64 pace_next;             /* ns, CLOCK_MONOTONIC */
} UdpScratch;

static const guint8 udp_zeros[GST_TILE_WIRE_MAX_PACKET_PAYLOAD];

static void
udp_scratch_clear (UdpScratch * sc)
{
  g_free (sc->headers);
  g_free (sc->iov);
  g_free (sc->msgs);
  memset (sc, 0, sizeof (*sc));
}

/* Sleeps until @bytes more may leave at @rate bits/s. */
static void
udp_pace (UdpScratch * sc, gsize bytes, guint64 rate)
{
  gint64 now = (gint64) gst_util_get_timestamp ();

  if (sc->pace_next < now - 1000000)
    sc->pace_next = now;        /* no credit for idle time beyond 1 ms */
  sc->pace_next += gst_util_uint64_scale (bytes * 8, GST_SECOND, rate);
  if (sc->pace_next > now) {
    struct timespec ts;

    ts.tv_sec = sc->pace_next / GST_SECOND;
    ts.tv_nsec = sc->pace_next % GST_SECOND;
    while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
        EINTR);
  }
}

/* Sends one tile as datagrams of a 32-byte header and @ps payload bytes,
 * the last one padded. The payload is gathered straight from the frame
 * (iovecs, no copy); with GSO one message carries up to 64 datagrams, and
 * sendmmsg() sends up to 64 messages per system call. */
static gboolean
send_tile_udp (GstTileSinkUnit * u, UdpScratch * sc, gint fd,
    GstTileSinkFrame * frame, const GstTileWireTile * tile, guint ps,
    guint64 rate, guint64 * n_packets, GError ** error)
{
  GstTileWirePacketHeader ph;
  guint seg = GST_TILE_WIRE_PACKET_HEADER_SIZE + ps;
  guint n = gst_tile_wire_packets_per_tile (tile->size, ps);
  guint per_msg = 1, n_msgs, batch, i, j;
  const guint8 *data = frame->map.data + tile->offset;

  if (u->gso)
    per_msg = CLAMP (65000 / seg, 1, 64);
  if (n > sc->alloc) {
    sc->headers = g_realloc (sc->headers, (gsize) n *
        GST_TILE_WIRE_PACKET_HEADER_SIZE);
    sc->iov = g_realloc (sc->iov, sizeof (struct iovec) * 3 * n);
    sc->msgs = g_realloc (sc->msgs, sizeof (struct mmsghdr) * n);
    sc->alloc = n;
  }

  ph.unit = u->index;
  ph.generation = frame->generation;
  ph.frame = frame->number;
  ph.timestamp = frame->timestamp;
  for (i = 0; i < n; i++) {
    guint8 *h = sc->headers + (gsize) i * GST_TILE_WIRE_PACKET_HEADER_SIZE;
    gsize off = (gsize) i * ps, len = MIN (ps, tile->size - off);
    struct iovec *iov = &sc->iov[3 * i];

    ph.offset = off;
    gst_tile_wire_packet_header_write (h, &ph);
    iov[0].iov_base = h;
    iov[0].iov_len = GST_TILE_WIRE_PACKET_HEADER_SIZE;
    iov[1].iov_base = (guint8 *) data + off;
    iov[1].iov_len = len;
    iov[2].iov_base = (guint8 *) udp_zeros;
    iov[2].iov_len = ps - len;
  }
  n_msgs = (n + per_msg - 1) / per_msg;
  for (j = 0; j < n_msgs; j++) {
    struct msghdr *m = &sc->msgs[j].msg_hdr;

    memset (m, 0, sizeof (*m));
    m->msg_iov = &sc->iov[3 * j * per_msg];
    m->msg_iovlen = 3 * MIN (per_msg, n - j * per_msg);
  }

  /* paced: bursts of at most 64 KiB */
  batch = rate ? MAX (1, 65536 / (per_msg * seg)) : 64;
  for (j = 0; j < n_msgs;) {
    gint r = gst_tile_net_udp_send_batch (fd, &sc->msgs[j], MIN (batch,
            n_msgs - j), error);

    if (r < 0)
      return FALSE;
    if (rate) {
      guint k, pk = 0;

      for (k = j; k < j + r; k++)
        pk += sc->msgs[k].msg_hdr.msg_iovlen / 3;
      udp_pace (sc, (gsize) pk * (seg + 28), rate);
    }
    j += r;
  }
  *n_packets = n;
  return TRUE;
}

static gpointer
unit_thread (gpointer data)
{
  GstTileSinkUnit *u = data;
  GstTileSink *self = u->sink;

  UdpScratch sc = { 0 };

  g_mutex_lock (&self->lock);
  while (TRUE) {
    GstTileSinkFrame *frame;
    GstTileWireTile tile_copy;
    guint64 rate, n_packets = 0;
    guint ps, n_tiles;
    const GstTileWireTile *tile;
    GstTileWireTileHeader th;
    guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE];
    GError *err = NULL;
    gint fd;
    gint64 t0;
    gboolean ok;

    while (self->running && g_queue_is_empty (&u->queue))
      g_cond_wait (&u->cond, &self->lock);
    if (!self->running)
      break;
    frame = g_queue_pop_head (&u->queue);
    fd = u->fd;
    if (fd < 0 || frame->generation != self->config.generation) {
      frame = frame_done_locked (self, frame, FALSE);
      g_mutex_unlock (&self->lock);
      frame_free (frame);
      g_mutex_lock (&self->lock);
      continue;
    }
    /* copies: a caps change may replace the config while we send */
    tile_copy = self->config.tiles[u->index];
    tile = &tile_copy;
    ps = self->config.packet_size;
    n_tiles = self->config.n_tiles;
    u->sending = TRUE;
    g_mutex_unlock (&self->lock);

    t0 = g_get_monotonic_time ();
    th.generation = frame->generation;
    th.frame = frame->number;
    th.timestamp = frame->timestamp;
    th.size = tile->size;
    th.flags = 0;
    gst_tile_wire_tile_header_write (hdr, &th);
    if (self->protocol == GST_TILE_PROTOCOL_UDP) {
      GST_OBJECT_LOCK (self);
      rate = self->pacing_bitrate / n_tiles;
      GST_OBJECT_UNLOCK (self);
      ok = send_tile_udp (u, &sc, fd, frame, tile, ps, rate, &n_packets, &err);
    } else {
      /* MSG_MORE: the header leaves in the same segment as the tile
       * start */
      ok = gst_tile_net_write_more (fd, hdr, sizeof (hdr), &err) &&
          gst_tile_net_write_all (fd, frame->map.data + tile->offset,
          tile->size, g_atomic_int_get (&self->chunk_size), &err);
    }

    g_mutex_lock (&self->lock);
    u->sending = FALSE;
    u->busy_ns += (g_get_monotonic_time () - t0) * 1000;
    if (ok) {
      u->bytes += n_packets ? n_packets * (ps +
          GST_TILE_WIRE_PACKET_HEADER_SIZE) : tile->size + sizeof (hdr);
      u->frames++;
      u->packets += n_packets;
      self->packets_sent += n_packets;
      self->bytes_sent += n_packets ? n_packets * (ps +
          GST_TILE_WIRE_PACKET_HEADER_SIZE) : tile->size + sizeof (hdr);
    }
    frame = frame_done_locked (self, frame, ok);
    if (u->close_pending) {
      gst_tile_net_close (&fd);
      u->close_pending = FALSE;
    } else if (!ok) {
      GST_INFO_OBJECT (self, "unit %u: %s", u->index, err->message);
      end_session_locked (self, err->message);
    }
    g_clear_error (&err);
    g_mutex_unlock (&self->lock);
    frame_free (frame);
    g_mutex_lock (&self->lock);
  }
  g_mutex_unlock (&self->lock);
  udp_scratch_clear (&sc);
  return NULL;
}

static void
pending_close (GstTileSink * self, guint i)
{
  gst_tile_net_close (&self->pending[i].fd);
  self->pending[i] = self->pending[--self->n_pending];
}

static void
refuse (GstTileSink * self, gint fd, GstTileWireRefuseCode code,
    const gchar * reason)
{
  GST_WARNING_OBJECT (self, "refusing a connection (%s): %s",
      gst_tile_net_refuse_code_name (code), reason);
  self->refused++;
  gst_tile_net_send_refuse (fd, code, reason);
}

/* A complete first message on a new connection: HELLO (control) or
 * UNIT_HELLO (data). Takes @fd over. Lock held. */
static void
handle_first_message (GstTileSink * self, gint fd, const GstTileWireHeader * h,
    const guint8 * payload)
{
  GError *err = NULL;
  gint size;

  if (h->type == GST_TILE_WIRE_TYPE_HELLO) {
    GstTileWireHello hello;

    if (!gst_tile_wire_hello_parse (payload, h->payload_len, &hello, &err)) {
      refuse (self, fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE, err->message);
      goto close;
    }
    if (self->control_fd >= 0) {
      refuse (self, fd, GST_TILE_WIRE_REFUSE_BUSY,
          "this tilesink already serves a receiver");
      goto close;
    }
    self->control_fd = fd;
    self->control_dead = FALSE;
    self->token = ((guint64) g_random_int () << 32) | g_random_int ();
    self->config.token = self->token;
    self->clients++;
    self->eos_sent = FALSE;
    GST_INFO_OBJECT (self, "receiver %u connected", self->clients);
    if (self->have_config)
      send_config_locked (self);
    return;
  }

  if (h->type == GST_TILE_WIRE_TYPE_UNIT_HELLO
      && self->protocol == GST_TILE_PROTOCOL_UDP) {
    refuse (self, fd, GST_TILE_WIRE_REFUSE_OTHER, "this tilesink uses "
        "protocol udp: send UNIT_HELLO as a datagram to the control port");
    goto close;
  }

  if (h->type == GST_TILE_WIRE_TYPE_UNIT_HELLO) {
    GstTileWireUnitHello uh;
    gchar *msg;

    if (!gst_tile_wire_unit_hello_parse (payload, h->payload_len, &uh, &err)) {
      refuse (self, fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE, err->message);
      goto close;
    }
    if (self->control_fd < 0 || !self->have_config || uh.token != self->token
        || uh.generation != self->config.generation) {
      msg = g_strdup_printf ("UNIT_HELLO for session %016" G_GINT64_MODIFIER
          "x generation %u, the current one is %016" G_GINT64_MODIFIER
          "x generation %u", uh.token, uh.generation,
          self->control_fd >= 0 ? self->token : 0,
          self->have_config ? self->config.generation : 0);
      refuse (self, fd, GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN, msg);
      g_free (msg);
      goto close;
    }
    if (uh.unit >= self->config.n_tiles || self->units[uh.unit].fd >= 0) {
      msg = g_strdup_printf ("unit %u %s (the session has %u units)",
          uh.unit, uh.unit >= self->config.n_tiles ? "does not exist" :
          "is already connected", self->config.n_tiles);
      refuse (self, fd, GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT, msg);
      g_free (msg);
      goto close;
    }
    size = gst_tile_net_set_buffer_size (fd, TRUE, self->send_buffer_size);
    if (self->granted_send_buffer != size && self->send_buffer_size > 0
        && !gst_tile_net_buffer_is_enough (size, self->send_buffer_size)) {
      GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
          ("Socket send buffer is %d bytes, %d were asked for",
              size / 2, self->send_buffer_size),
          ("Raise the limit with 'sysctl -w net.core.wmem_max=%d' (or run "
              "as root) for full throughput", self->send_buffer_size));
    }
    self->granted_send_buffer = size;
    self->units[uh.unit].fd = fd;
    self->n_connected++;
    GST_DEBUG_OBJECT (self, "unit %u connected (%u/%u)", uh.unit,
        self->n_connected, self->config.n_tiles);
    if (self->n_connected == self->config.n_tiles)
      GST_INFO_OBJECT (self, "all %u units connected, generation %u",
          self->n_connected, self->config.generation);
    return;
  }

  refuse (self, fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE,
      "the first message on a connection must be HELLO or UNIT_HELLO");
close:
  g_clear_error (&err);
  gst_tile_net_close (&fd);
}

/* Reads what has arrived on a handshaking connection. Returns FALSE when
 * the connection is done with (taken over or closed). Lock held. */
static gboolean
pending_read (GstTileSink * self, GstTileSinkPending * p)
{
  GstTileWireHeader h;
  GError *err = NULL;
  gsize want = GST_TILE_WIRE_HEADER_SIZE;
  gssize n;
  gint fd;

  if (p->have >= GST_TILE_WIRE_HEADER_SIZE) {
    if (gst_tile_wire_header_parse (p->buf, p->have, &h, &err) !=
        GST_TILE_WIRE_PARSE_OK)
      g_assert_not_reached ();
    want += h.payload_len;
  }
  n = gst_tile_net_read_some (p->fd, p->buf + p->have, want - p->have);
  if (n == 0)
    return TRUE;
  if (n < 0) {
    GST_DEBUG_OBJECT (self, "connection closed during the handshake");
    gst_tile_net_close (&p->fd);
    return FALSE;
  }
  p->have += n;
  if (p->have < GST_TILE_WIRE_HEADER_SIZE)
    return TRUE;

  if (p->have == GST_TILE_WIRE_HEADER_SIZE) {
    switch (gst_tile_wire_header_parse (p->buf, p->have, &h, &err)) {
      case GST_TILE_WIRE_PARSE_OK:
        break;
      default:
        refuse (self, p->fd, err->code ==
            GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION ?
            GST_TILE_WIRE_REFUSE_BAD_VERSION : GST_TILE_WIRE_REFUSE_BAD_MESSAGE,
            err->message);
        g_clear_error (&err);
        gst_tile_net_close (&p->fd);
        return FALSE;
    }
    if (h.payload_len > PENDING_BUF - GST_TILE_WIRE_HEADER_SIZE) {
      gchar *msg = g_strdup_printf ("%s payload of %u bytes is too large for "
          "a first message", gst_tile_wire_type_get_name (h.type),
          h.payload_len);
      refuse (self, p->fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE, msg);
      g_free (msg);
      gst_tile_net_close (&p->fd);
      return FALSE;
    }
    if (h.payload_len > 0)
      return TRUE;
  }
  gst_tile_wire_header_parse (p->buf, p->have, &h, NULL);
  if (p->have < GST_TILE_WIRE_HEADER_SIZE + h.payload_len)
    return TRUE;
  fd = p->fd;
  p->fd = -1;
  handle_first_message (self, fd, &h, p->buf + GST_TILE_WIRE_HEADER_SIZE);
  return FALSE;
}

/* A message from the receiver on the control connection. Lock held. */
static void
handle_control (GstTileSink * self, const GstTileWireHeader * h,
    GByteArray * payload)
{
  GError *err = NULL;
  GstStructure *s = NULL;
  guint64 t;

  switch (h->type) {
    case GST_TILE_WIRE_TYPE_KEEPALIVE:
      if (!gst_tile_wire_keepalive_parse (payload->data, payload->len, &t, &err))
        break;
      return;
    case GST_TILE_WIRE_TYPE_ACK:{
      GstTileWireAck ack;

      if (!gst_tile_wire_ack_parse (payload->data, payload->len, &ack, &err))
        break;
      /* acknowledgements of another generation (an old one still on its
       * way) move nothing; nor do those of frames never sent (a confused
       * or hostile peer) */
      if (!self->have_config || ack.generation != self->config.generation) {
        GST_DEBUG_OBJECT (self, "ignoring ACK of generation %u",
            ack.generation);
        return;
      }
      self->ack_window = ack.window;
      if (ack.has_frame && ack.frame < self->next_frame &&
          ack.frame + 1 > self->acked_next) {
        self->acked_next = ack.frame + 1;
        self->ack_progress_us = g_get_monotonic_time ();
      }
      return;
    }
    case GST_TILE_WIRE_TYPE_STATS:
      /* statistics are informative: a report we cannot read (another
       * version's field names, say) is skipped, not fatal */
      if (!gst_tile_wire_stats_parse (payload->data, payload->len, &s, &err)) {
        GST_WARNING_OBJECT (self, "ignoring receiver statistics: %s",
            err->message);
        g_clear_error (&err);
        return;
      }
      if (self->receiver_stats)
        gst_structure_free (self->receiver_stats);
      self->receiver_stats = s;
      return;
    default:
      g_set_error (&err, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "unexpected %s message from the receiver",
          gst_tile_wire_type_get_name (h->type));
      break;
  }
  GST_WARNING_OBJECT (self, "bad control message: %s", err->message);
  gst_tile_net_send_refuse (self->control_fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE,
      err->message);
  end_session_locked (self, err->message);
  g_clear_error (&err);
}

static void
post_stats (GstTileSink * self)
{
  GstStructure *s = gst_tile_sink_get_stats (self);

  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

static void
udp_refuse (GstTileSink * self, const struct sockaddr *addr, socklen_t len,
    GstTileWireRefuseCode code, const gchar * reason)
{
  GByteArray *m = g_byte_array_new ();

  GST_WARNING_OBJECT (self, "refusing a UDP unit (%s): %s",
      gst_tile_net_refuse_code_name (code), reason);
  self->refused++;
  if (gst_tile_wire_refuse_pack (code, reason, m, NULL))
    gst_tile_net_udp_send_to (self->udp_fd, m->data, m->len, addr, len);
  g_byte_array_unref (m);
}

/* protocol=udp: a receiver's unit socket introduces itself with a
 * UNIT_HELLO datagram sent to the control port. We answer with the same
 * datagram (so it can stop repeating it) and send that unit's datagrams to
 * where it came from. Lock held. */
static void
handle_udp_hello (GstTileSink * self)
{
  guint8 buf[GST_TILE_WIRE_HEADER_SIZE + 64];
  struct sockaddr_storage ss;
  socklen_t sl = sizeof (ss);
  GstTileWireHeader h;
  GstTileWireUnitHello uh;
  GstTileSinkUnit *u;
  GError *err = NULL;
  gssize n;
  gint fd, size;

  n = recvfrom (self->udp_fd, buf, sizeof (buf), MSG_DONTWAIT,
      (struct sockaddr *) &ss, &sl);
  if (n <= 0)
    return;
  if (gst_tile_wire_header_parse (buf, n, &h, &err) != GST_TILE_WIRE_PARSE_OK
      || h.type != GST_TILE_WIRE_TYPE_UNIT_HELLO
      || h.payload_len != n - GST_TILE_WIRE_HEADER_SIZE
      || !gst_tile_wire_unit_hello_parse (buf + GST_TILE_WIRE_HEADER_SIZE,
          h.payload_len, &uh, &err)) {
    udp_refuse (self, (struct sockaddr *) &ss, sl,
        GST_TILE_WIRE_REFUSE_BAD_MESSAGE, err ? err->message :
        "expected one UNIT_HELLO per datagram");
    g_clear_error (&err);
    return;
  }
  if (self->control_fd < 0 || self->control_dead || !self->have_config
      || uh.token != self->token || uh.generation != self->config.generation) {
    udp_refuse (self, (struct sockaddr *) &ss, sl,
        GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN,
        "UNIT_HELLO for another session or generation");
    return;
  }
  if (uh.unit >= self->config.n_tiles) {
    udp_refuse (self, (struct sockaddr *) &ss, sl,
        GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT, "no such unit");
    return;
  }
  u = &self->units[uh.unit];
  if (u->fd >= 0) {
    if (u->peer_len == sl && memcmp (&u->peer, &ss, sl) == 0)
      gst_tile_net_udp_send_to (self->udp_fd, buf, n, (struct sockaddr *) &ss,
          sl);
    else
      udp_refuse (self, (struct sockaddr *) &ss, sl,
          GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT, "unit is already connected");
    return;
  }

  fd = gst_tile_net_udp_connected ((struct sockaddr *) &ss, sl, &err);
  if (fd < 0) {
    GST_WARNING_OBJECT (self, "unit %u: %s", uh.unit, err->message);
    g_clear_error (&err);
    return;
  }
  size = gst_tile_net_set_buffer_size (fd, TRUE, self->send_buffer_size);
  self->granted_send_buffer = size;
  u->gso = FALSE;
  if (self->gso != GST_TILE_GSO_OFF) {
    u->gso = gst_tile_net_set_gso (fd, GST_TILE_WIRE_PACKET_HEADER_SIZE +
        self->config.packet_size);
    if (!u->gso && self->gso == GST_TILE_GSO_ON) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("This kernel has no UDP "
              "segmentation offload (UDP_SEGMENT), and gso=on"), ("Use "
              "gso=auto or gso=off"));
      gst_tile_net_close (&fd);
      end_session_locked (self, "no UDP GSO");
      return;
    }
  }
  memcpy (&u->peer, &ss, sl);
  u->peer_len = sl;
  u->fd = fd;
  self->n_connected++;
  gst_tile_net_udp_send_to (self->udp_fd, buf, n, (struct sockaddr *) &ss, sl);
  GST_DEBUG_OBJECT (self, "UDP unit %u connected (%u/%u), gso %d", uh.unit,
      self->n_connected, self->config.n_tiles, u->gso);
  if (self->n_connected == self->config.n_tiles)
    GST_INFO_OBJECT (self, "all %u UDP units connected, generation %u",
        self->n_connected, self->config.generation);
}

static inline void
poll_in (struct pollfd *p, gint fd)
{
  p->fd = fd;
  p->events = POLLIN;
  p->revents = 0;
}

static gpointer
server_thread (gpointer data)
{
  GstTileSink *self = data;
  struct pollfd pfd[4 + MAX_PENDING];
  gint udp_idx;
  GByteArray *payload = g_byte_array_new ();
  gint64 last_keepalive = g_get_monotonic_time ();
  gint64 last_stats = last_keepalive;

  g_mutex_lock (&self->lock);
  while (self->running) {
    guint i, n = 0, n_pend = self->n_pending;
    gint control_idx = -1, timeout = KEEPALIVE_INTERVAL_MS;
    gint64 now;
    guint interval;

    poll_in (&pfd[n++], self->wake_fds[0]);
    poll_in (&pfd[n++], self->listen_fd);
    udp_idx = -1;
    if (self->udp_fd >= 0) {
      udp_idx = n;
      poll_in (&pfd[n++], self->udp_fd);
    }
    if (self->control_fd >= 0) {
      control_idx = n;
      poll_in (&pfd[n++], self->control_fd);
    }
    for (i = 0; i < n_pend; i++)
      poll_in (&pfd[n + i], self->pending[i].fd);
    interval = g_atomic_int_get (&self->stats_interval);
    if (interval > 0)
      timeout = MIN (timeout, (gint) MIN (interval, G_MAXINT));
    g_mutex_unlock (&self->lock);

    if (poll (pfd, n + n_pend, MIN (timeout, 200)) < 0 && errno != EINTR) {
      GST_ERROR_OBJECT (self, "poll: %s", g_strerror (errno));
      g_usleep (10000);
    }
    if (pfd[0].revents) {
      guint8 junk[64];
      while (read (self->wake_fds[0], junk, sizeof (junk)) > 0);
    }

    if (control_idx >= 0 && pfd[control_idx].revents) {
      GstTileWireHeader h;
      GError *err = NULL;
      gint cfd;

      g_mutex_lock (&self->lock);
      cfd = self->control_fd;
      g_mutex_unlock (&self->lock);
      /* only this thread closes control_fd, so reading it unlocked is safe */
      if (gst_tile_net_read_message (cfd, 1000, &h, payload, &err)) {
        g_mutex_lock (&self->lock);
        handle_control (self, &h, payload);
        g_mutex_unlock (&self->lock);
      } else {
        g_mutex_lock (&self->lock);
        if (err->domain == GST_TILE_WIRE_ERROR) {
          GST_WARNING_OBJECT (self, "bad control message: %s", err->message);
          gst_tile_net_send_refuse (cfd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE,
              err->message);
        }
        end_session_locked (self, err->message);
        close_data_locked (self);
        gst_tile_net_close (&self->control_fd);
        /* the report of a receiver that is gone does not describe the next */
        if (self->receiver_stats)
          gst_structure_free (self->receiver_stats);
        self->receiver_stats = NULL;
        g_cond_broadcast (&self->cond);
        g_mutex_unlock (&self->lock);
        g_clear_error (&err);
      }
    }

    g_mutex_lock (&self->lock);
    if (!self->running)
      break;
    if (udp_idx >= 0 && (pfd[udp_idx].revents & POLLIN))
      handle_udp_hello (self);
    if (pfd[1].revents & POLLIN) {
      GError *err = NULL;
      gint fd = gst_tile_net_accept (self->listen_fd, &err);

      if (fd >= 0 && self->n_pending < MAX_PENDING) {
        GstTileSinkPending *p = &self->pending[self->n_pending++];

        p->fd = fd;
        p->have = 0;
        p->deadline = g_get_monotonic_time () +
            (gint64) self->handshake_timeout * 1000;
      } else if (fd >= 0) {
        refuse (self, fd, GST_TILE_WIRE_REFUSE_BUSY,
            "too many connections in handshake");
        gst_tile_net_close (&fd);
      } else {
        GST_WARNING_OBJECT (self, "%s", err->message);
        g_clear_error (&err);
      }
    }
    /* handshakes: only the n_pend polled above, newest first so that
     * removal (swap with the last) does not skip any */
    now = g_get_monotonic_time ();
    for (i = n_pend; i-- > 0;) {
      GstTileSinkPending *p = &self->pending[i];

      if (pfd[n + i].revents && !pending_read (self, p)) {
        pending_close (self, i);
      } else if (now > p->deadline) {
        refuse (self, p->fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE,
            "no complete first message within the handshake timeout");
        pending_close (self, i);
      }
    }

    if (self->control_fd >= 0 && now - last_keepalive >
        KEEPALIVE_INTERVAL_MS * 1000) {
      GByteArray *p = g_byte_array_new ();

      gst_tile_wire_keepalive_pack (g_get_monotonic_time () * 1000, p);
      send_control_locked (self, p);
      g_byte_array_unref (p);
      last_keepalive = now;
    }
    interval = g_atomic_int_get (&self->stats_interval);
    if (interval > 0 && now - last_stats >= (gint64) interval * 1000) {
      last_stats = now;
      g_mutex_unlock (&self->lock);
      post_stats (self);
      g_mutex_lock (&self->lock);
    }
  }
  g_mutex_unlock (&self->lock);
  g_byte_array_unref (payload);
  return NULL;
}

static gboolean
gst_tile_sink_start (GstBaseSink * bsink)
{
  GstTileSink *self = GST_TILE_SINK (bsink);
  GError *err = NULL;
  gchar *address;
  guint port, n_units, bound = 0, i;
  GstTileProtocol protocol;
  gint fd, udp_fd = -1;

  GST_OBJECT_LOCK (self);
  address = g_strdup (self->address);
  port = self->port;
  n_units = self->n_units;
  protocol = self->protocol;
  GST_OBJECT_UNLOCK (self);

  fd = gst_tile_net_listen (address, port, &bound, &err);
  if (fd < 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ_WRITE, ("%s", err->message),
        (NULL));
    g_clear_error (&err);
    g_free (address);
    return FALSE;
  }
  /* accepted connections inherit this, so it applies from the first byte */
  gst_tile_net_set_buffer_size (fd, TRUE, self->send_buffer_size);
  if (protocol == GST_TILE_PROTOCOL_UDP) {
    struct sockaddr_storage ss;
    guint sl = gst_tile_net_address (fd, FALSE, &ss);

    /* the UDP port with the control port's number takes UNIT_HELLOs */
    udp_fd = gst_tile_net_udp_bind ((struct sockaddr *) &ss, sl, &err);
    if (udp_fd < 0) {
      GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ_WRITE, ("%s on %s port "
              "%u", err->message, address, bound), (NULL));
      g_clear_error (&err);
      g_free (address);
      gst_tile_net_close (&fd);
      return FALSE;
    }
  }
  GST_INFO_OBJECT (self, "listening on %s port %u", address, bound);
  g_free (address);

  g_mutex_lock (&self->lock);
  if (pipe2 (self->wake_fds, O_CLOEXEC | O_NONBLOCK) < 0) {
    g_mutex_unlock (&self->lock);
    gst_tile_net_close (&fd);
    gst_tile_net_close (&udp_fd);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("pipe: %s",
            g_strerror (errno)), (NULL));
    return FALSE;
  }
  self->listen_fd = fd;
  self->udp_fd = udp_fd;
  self->bound_port = bound;
  self->running = TRUE;
  self->have_config = FALSE;
  self->next_frame = 0;
  self->in_flight = 0;
  self->eos_sent = FALSE;
  self->frames_sent = self->frames_dropped = self->frames_unsent = 0;
  self->frames_window = 0;
  self->bytes_sent = self->packets_sent = 0;
  self->clients = self->disconnects = self->refused = 0;
  self->granted_send_buffer = 0;
  if (self->receiver_stats)
    gst_structure_free (self->receiver_stats);
  self->receiver_stats = NULL;
  memset (&self->config, 0, sizeof (self->config));
  self->n_threads = n_units;
  for (i = 0; i < n_units; i++) {
    gchar *name = g_strdup_printf ("tilesink-unit%u", i);

    self->units[i].bytes = self->units[i].busy_ns = self->units[i].frames = 0;
    self->units[i].packets = 0;
    self->units[i].thread = g_thread_new (name, unit_thread, &self->units[i]);
    g_free (name);
  }
  self->server_thread = g_thread_new ("tilesink-server", server_thread, self);
  g_mutex_unlock (&self->lock);
  g_object_notify (G_OBJECT (self), "bound-port");
  return TRUE;
}

static gboolean
gst_tile_sink_stop (GstBaseSink * bsink)
{
  GstTileSink *self = GST_TILE_SINK (bsink);
  guint i, n;

  g_mutex_lock (&self->lock);
  self->running = FALSE;
  end_session_locked (self, "stopping");
  for (i = 0; i < self->n_threads; i++)
    g_cond_broadcast (&self->units[i].cond);
  g_cond_broadcast (&self->cond);
  wake_server (self);
  n = self->n_threads;
  g_mutex_unlock (&self->lock);

  if (self->server_thread)
    g_thread_join (self->server_thread);
  self->server_thread = NULL;
  for (i = 0; i < n; i++) {
    GstTileSinkFrame *frame;

    g_thread_join (self->units[i].thread);
    self->units[i].thread = NULL;
    g_mutex_lock (&self->lock);
    while ((frame = g_queue_pop_head (&self->units[i].queue))) {
      frame = frame_done_locked (self, frame, FALSE);
      g_mutex_unlock (&self->lock);
      frame_free (frame);
      g_mutex_lock (&self->lock);
    }
    g_mutex_unlock (&self->lock);
  }

  g_mutex_lock (&self->lock);
  close_data_locked (self);
  gst_tile_net_close (&self->control_fd);
  while (self->n_pending > 0)
    pending_close (self, self->n_pending - 1);
  gst_tile_net_close (&self->listen_fd);
  gst_tile_net_close (&self->udp_fd);
  gst_tile_net_close (&self->wake_fds[0]);
  gst_tile_net_close (&self->wake_fds[1]);
  self->n_threads = 0;
  self->bound_port = 0;
  self->have_config = FALSE;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
gst_tile_sink_set_caps (GstBaseSink * bsink, GstCaps * caps)
{
  GstTileSink *self = GST_TILE_SINK (bsink);
  GstTileWireConfig *config;
  GstBcTiling tiling;
  GError *err = NULL;
  gchar *str;
  gsize frame_size;
  guint chunk;

  if (!gst_tile_tiling_for_caps (caps, self->n_threads, &tiling, &frame_size)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot send caps %"
            GST_PTR_FORMAT, caps), ("tilesink sends fixed-size video/x-bc "
            "or video/x-raw frames of at most 1 GiB"));
    return FALSE;
  }

  config = g_new0 (GstTileWireConfig, 1);
  str = gst_caps_to_string (caps);
  chunk = g_atomic_int_get (&self->chunk_size);
  config->n_units = self->n_threads;
  config->chunk_size = chunk;
  if (self->protocol == GST_TILE_PROTOCOL_UDP) {
    config->protocol = GST_TILE_WIRE_PROTOCOL_UDP;
    config->packet_size = self->packet_size;
  } else {
    config->protocol = GST_TILE_WIRE_PROTOCOL_TCP;
    config->packet_size = 0;
  }
  if (!gst_tile_wire_config_set_tiling (config, &tiling, &err) ||
      !gst_tile_wire_config_set_caps (config, str, &err)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot describe caps %s to "
            "the receiver", str), ("%s", err->message));
    g_clear_error (&err);
    g_free (str);
    g_free (config);
    return FALSE;
  }
  g_free (str);

  g_mutex_lock (&self->lock);
  if (self->have_config && self->control_fd >= 0) {
    /* the frames of the old caps go out first; closing their connections
     * tells the receiver that generation is over */
    if (!drain_locked (self))
      end_session_locked (self, "frames of the old caps could not be sent");
    close_data_locked (self);
  }
  config->generation = self->config.generation + 1;
  config->token = self->token;
  self->config = *config;
  self->tiling = tiling;
  self->frame_size = frame_size;
  self->have_config = TRUE;
  GST_INFO_OBJECT (self, "generation %u: %u tiles of %" G_GSIZE_FORMAT
      " byte frames, caps %" GST_PTR_FORMAT, config->generation,
      tiling.n_tiles, frame_size, caps);
  if (self->control_fd >= 0)
    send_config_locked (self);
  g_mutex_unlock (&self->lock);
  g_free (config);
  return TRUE;
}

static gboolean
gst_tile_sink_event (GstBaseSink * bsink, GstEvent * event)
{
  GstTileSink *self = GST_TILE_SINK (bsink);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS) {
    g_mutex_lock (&self->lock);
    drain_locked (self);
    close_data_locked (self);
    if (self->control_fd >= 0) {
      GByteArray *p = g_byte_array_new ();

      gst_tile_wire_eos_pack (p);
      send_control_locked (self, p);
      g_byte_array_unref (p);
      GST_INFO_OBJECT (self, "EOS sent to the receiver");
    }
    self->eos_sent = TRUE;
    g_mutex_unlock (&self->lock);
  } else if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    g_mutex_lock (&self->lock);
    self->eos_sent = FALSE;
    g_mutex_unlock (&self->lock);
  }
  return GST_BASE_SINK_CLASS (parent_class)->event (bsink, event);
}

static void
post_qos (GstTileSink * self, GstBuffer * buffer)
{
  GstBaseSink *bsink = GST_BASE_SINK (self);
  GstClockTime pts = GST_BUFFER_PTS (buffer);
  GstMessage *msg;
  guint64 sent, dropped;

  g_mutex_lock (&self->lock);
  sent = self->frames_sent;
  dropped = self->frames_dropped;
  g_mutex_unlock (&self->lock);

  msg = gst_message_new_qos (GST_OBJECT (self), TRUE,
      gst_segment_to_running_time (&bsink->segment, GST_FORMAT_TIME, pts),
      gst_segment_to_stream_time (&bsink->segment, GST_FORMAT_TIME, pts),
      pts, GST_BUFFER_DURATION (buffer));
  gst_message_set_qos_stats (msg, GST_FORMAT_BUFFERS, sent, dropped);
  gst_element_post_message (GST_ELEMENT (self), msg);
}

static GstFlowReturn
gst_tile_sink_render (GstBaseSink * bsink, GstBuffer * buffer)
{
  GstTileSink *self = GST_TILE_SINK (bsink);
  GstTileSinkFrame *frame;
  gsize size = gst_buffer_get_size (buffer);
  guint64 now = gst_tile_realtime_ns ();
  guint i, n;

  g_mutex_lock (&self->lock);
  if (size != self->frame_size) {
    gsize want = self->frame_size;

    g_mutex_unlock (&self->lock);
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Buffer of %" G_GSIZE_FORMAT
            " bytes, the caps say frames have %" G_GSIZE_FORMAT, size, want),
        (NULL));
    return GST_FLOW_ERROR;
  }
  if (!session_ready_locked (self)) {
    self->frames_unsent++;
    g_mutex_unlock (&self->lock);
    GST_LOG_OBJECT (self, "no receiver, frame not sent");
    return GST_FLOW_OK;
  }
  if (self->config.protocol == GST_TILE_WIRE_PROTOCOL_UDP &&
      self->next_frame - self->acked_next >= self->ack_window &&
      g_get_monotonic_time () - self->ack_progress_us < ACK_STALL_US) {
    /* UDP has no back-pressure of its own: beyond the receiver's window
     * its socket buffers would overflow and every frame come out with
     * gaps, so whole frames are dropped here instead. (Acknowledgements
     * that stop for ACK_STALL_US, whole frames lost say, open the window:
     * the receiver completes a frame only once a newer one arrives.) */
    self->frames_dropped++;
    self->frames_window++;
    g_mutex_unlock (&self->lock);
    GST_DEBUG_OBJECT (self, "receiver window of %u frames full, dropping one",
        self->ack_window);
    post_qos (self, buffer);
    return GST_FLOW_OK;
  }
  if (self->in_flight >= (guint) g_atomic_int_get (&self->max_in_flight)) {
    self->frames_dropped++;
    g_mutex_unlock (&self->lock);
    GST_DEBUG_OBJECT (self, "%u frames in flight, dropping one",
        self->in_flight);
    post_qos (self, buffer);
    return GST_FLOW_OK;
  }

  n = self->config.n_tiles;
  frame = g_new (GstTileSinkFrame, 1);
  if (!gst_buffer_map (buffer, &frame->map, GST_MAP_READ)) {
    g_mutex_unlock (&self->lock);
    g_free (frame);
    GST_ELEMENT_ERROR (self, RESOURCE, READ, ("Could not map a buffer"),
        (NULL));
    return GST_FLOW_ERROR;
  }
  frame->buffer = gst_buffer_ref (buffer);
  frame->remaining = n;
  frame->failed = 0;
  /* the stall clock of the window runs from the oldest frame not
   * acknowledged: from now when nothing was outstanding */
  if (self->next_frame == self->acked_next)
    self->ack_progress_us = g_get_monotonic_time ();
  frame->number = self->next_frame++;
  frame->timestamp = now;
  frame->generation = self->config.generation;
  self->in_flight++;
  for (i = 0; i < n; i++) {
    g_queue_push_tail (&self->units[i].queue, frame);
    g_cond_signal (&self->units[i].cond);
  }
  g_mutex_unlock (&self->lock);
  return GST_FLOW_OK;
}
