/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-tilesrc
 * @title: tilesrc
 * @see_also: tilesink, bcdec, glbcupload
 *
 * tilesrc receives the frames a tilesink serves. It connects to the
 * sender's control port, learns the caps and the tile layout from the
 * handshake (docs/wire-protocol.md), then opens one TCP data connection per
 * tile, each read by its own thread.
 *
 * Every unit reads its tile **straight into its place in the output
 * buffer**: there is no intermediate copy. Output buffers come from the
 * downstream buffer pool when the ALLOCATION query offers one, so with a
 * GPU-visible pool (glbcupload) the bytes land in GPU memory. A unit that
 * has finished its tile moves on to the next frame without waiting for the
 * others; at most two frames are in assembly.
 *
 * With `flush=stepped` (the default) and a pool whose buffers carry a
 * #GstBcTileMeta, tilesrc reports each tile complete the moment its last
 * byte is in, so the consumer can start using it while the other tiles are
 * still arriving. The frame is pushed when its last tile lands.
 *
 * tilesrc is a live source. Buffers are timestamped with the pipeline
 * running time at which they were complete, and carry the sender's
 * wall-clock time (when the sender got the frame) as a
 * #GstReferenceTimestampMeta with caps `timestamp/x-unix`, so an
 * application can compute the delivery latency; the `stats` property has
 * its percentiles. Caps changes and EOS of the sender are followed.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 tilesrc host=127.0.0.1 port=7000 ! bcdec ! videoconvert ! autovideosink
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "gsttilesrc.h"

#include <gst/video/video.h>
#include <gst/bc/bctilemeta.h>
#include <gst/bc/bclossmeta.h>

#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

GST_DEBUG_CATEGORY_STATIC (gst_tile_src_debug);
#define GST_CAT_DEFAULT gst_tile_src_debug

#define DEFAULT_HOST "127.0.0.1"
#define DEFAULT_PORT 7000
#define DEFAULT_RECEIVE_BUFFER_SIZE (16 << 20)
#define DEFAULT_TIMEOUT 5000
#define DEFAULT_FLUSH GST_TILE_FLUSH_STEPPED
#define DEFAULT_RECONNECT FALSE
#define DEFAULT_STATS_INTERVAL 1000
#define DEFAULT_TIMER_FACTOR 1.5
#define DEFAULT_GSO GST_TILE_GSO_AUTO

/* protocol=udp */
#define UDP_FIRST_TIMER_NS (50 * GST_MSECOND)   /* before any frame arrived whole */
/* The timer of an incomplete frame lasts timer-factor x the average time
 * a frame takes to arrive, and at least the floor: 2 ms to start with,
 * doubled (up to 32 ms) whenever datagrams of a frame pushed by its timer
 * turn up afterwards (the timer was too short for this machine: a unit
 * thread was off the CPU), and lowered by 1/64 per frame that arrives
 * whole once a second has passed without that. */
#define UDP_MIN_TIMER_NS (2 * GST_MSECOND)
#define UDP_MAX_TIMER_FLOOR_NS (32 * GST_MSECOND)
#define UDP_FRAME_WINDOW 64     /* frames ahead of the last pushed one */

#define KEEPALIVE_INTERVAL_MS 1000
#define RECONNECT_DELAY_US (100 * 1000)

enum
{
  PROP_0,
  PROP_HOST,
  PROP_PORT,
  PROP_RECEIVE_BUFFER_SIZE,
  PROP_TIMEOUT,
  PROP_FLUSH,
  PROP_RECONNECT,
  PROP_STATS,
  PROP_STATS_INTERVAL,
  PROP_TIMER_FACTOR,
  PROP_GSO,
};

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-bc; video/x-raw"));

static GstStaticCaps unix_ts_caps = GST_STATIC_CAPS ("timestamp/x-unix");

#define gst_tile_src_parent_class parent_class
G_DEFINE_TYPE (GstTileSrc, gst_tile_src, GST_TYPE_PUSH_SRC);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (tilesrc, "tilesrc", GST_RANK_NONE,
    GST_TYPE_TILE_SRC, tile_element_init (plugin);
    GST_DEBUG_CATEGORY_INIT (gst_tile_src_debug, "tilesrc", 0,
        "Tiled multi-connection frame receiver"));

static void gst_tile_src_finalize (GObject * object);
static void gst_tile_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_tile_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_tile_src_start (GstBaseSrc * bsrc);
static gboolean gst_tile_src_stop (GstBaseSrc * bsrc);
static gboolean gst_tile_src_unlock (GstBaseSrc * bsrc);
static gboolean gst_tile_src_unlock_stop (GstBaseSrc * bsrc);
static gboolean gst_tile_src_negotiate (GstBaseSrc * bsrc);
static gboolean gst_tile_src_query (GstBaseSrc * bsrc, GstQuery * query);
static gboolean gst_tile_src_decide_allocation (GstBaseSrc * bsrc,
    GstQuery * query);
static GstFlowReturn gst_tile_src_create (GstPushSrc * psrc, GstBuffer ** buf);

static void
gst_tile_src_class_init (GstTileSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *bsrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *psrc_class = GST_PUSH_SRC_CLASS (klass);

  gobject_class->finalize = gst_tile_src_finalize;
  gobject_class->set_property = gst_tile_src_set_property;
  gobject_class->get_property = gst_tile_src_get_property;

  g_object_class_install_property (gobject_class, PROP_HOST,
      g_param_spec_string ("host", "Host",
          "Host name or address of the tilesink", DEFAULT_HOST,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PORT,
      g_param_spec_uint ("port", "Port", "Control port of the tilesink", 1,
          65535, DEFAULT_PORT, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_RECEIVE_BUFFER_SIZE,
      g_param_spec_int ("receive-buffer-size", "Receive buffer size",
          "Socket receive buffer to ask for per data connection, in bytes "
          "(0 = kernel default; the granted size is in stats)", 0, G_MAXINT,
          DEFAULT_RECEIVE_BUFFER_SIZE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint ("timeout", "Timeout",
          "Milliseconds to wait for a connection or handshake answer, and "
          "the longest silence of the sender's control connection before "
          "it is declared lost", 1, G_MAXINT, DEFAULT_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_FLUSH,
      g_param_spec_enum ("flush", "Flush",
          "When to report tiles complete to a downstream pool that attaches "
          "GstBcTileMeta: each as it lands, or not at all",
          GST_TYPE_TILE_FLUSH, DEFAULT_FLUSH, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_RECONNECT,
      g_param_spec_boolean ("reconnect", "Reconnect",
          "When the sender is not there or goes away, keep trying to "
          "connect instead of posting an error", DEFAULT_RECONNECT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics", "Receiver statistics",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_STATS_INTERVAL,
      g_param_spec_uint ("stats-interval", "Statistics interval",
          "Post the stats as an element message, and send them to the "
          "sender, every this many ms (0 = never)", 0, G_MAXUINT,
          DEFAULT_STATS_INTERVAL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
          | GST_PARAM_MUTABLE_PLAYING));

  g_object_class_install_property (gobject_class, PROP_TIMER_FACTOR,
      g_param_spec_double ("timer-factor", "Timer factor",
          "protocol=udp: when the first datagram of a newer frame arrives, "
          "an incomplete frame gets this many times the average receive "
          "time of a whole frame before it is pushed with its gaps",
          0.0, 1000.0, DEFAULT_TIMER_FACTOR, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_GSO,
      g_param_spec_enum ("gso", "GRO",
          "protocol=udp: receive batches of datagrams coalesced by UDP "
          "generic receive offload (UDP_GRO)", GST_TYPE_TILE_GSO, DEFAULT_GSO,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Tiled multi-connection frame receiver", "Source/Network",
      "Receives the frames of a tilesink, one TCP connection and thread per "
      "tile, straight into the output buffer",
      "gst-bc developers <gst-bc@example.org>");

  bsrc_class->start = GST_DEBUG_FUNCPTR (gst_tile_src_start);
  bsrc_class->stop = GST_DEBUG_FUNCPTR (gst_tile_src_stop);
  bsrc_class->unlock = GST_DEBUG_FUNCPTR (gst_tile_src_unlock);
  bsrc_class->unlock_stop = GST_DEBUG_FUNCPTR (gst_tile_src_unlock_stop);
  bsrc_class->negotiate = GST_DEBUG_FUNCPTR (gst_tile_src_negotiate);
  bsrc_class->query = GST_DEBUG_FUNCPTR (gst_tile_src_query);
  bsrc_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_tile_src_decide_allocation);
  psrc_class->create = GST_DEBUG_FUNCPTR (gst_tile_src_create);
}

static void
gst_tile_src_init (GstTileSrc * self)
{
  guint i;

  self->host = g_strdup (DEFAULT_HOST);
  self->port = DEFAULT_PORT;
  self->receive_buffer_size = DEFAULT_RECEIVE_BUFFER_SIZE;
  self->timeout = DEFAULT_TIMEOUT;
  self->flush = DEFAULT_FLUSH;
  self->reconnect = DEFAULT_RECONNECT;
  self->stats_interval = DEFAULT_STATS_INTERVAL;
  self->timer_factor = DEFAULT_TIMER_FACTOR;
  self->gso = DEFAULT_GSO;
  g_mutex_init (&self->lock);
  g_mutex_init (&self->send_lock);
  self->ack_fd = -1;
  g_cond_init (&self->cond);
  self->control_fd = -1;
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    self->units[i].src = self;
    self->units[i].index = i;
    self->units[i].fd = -1;
  }
  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}

static void
gst_tile_src_finalize (GObject * object)
{
  GstTileSrc *self = GST_TILE_SRC (object);

  g_free (self->host);
  g_free (self->config);
  g_free (self->pending);
  gst_caps_replace (&self->caps, NULL);
  g_clear_error (&self->error);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->send_lock);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* The flat part of the stats: also what is sent to the sender. Lock held. */
static GstStructure *
stats_locked (GstTileSrc * self)
{
  GstStructure *s = gst_structure_new ("tilesrc-stats",
      "frames-received", G_TYPE_UINT64, self->frames_received,
      "frames-incomplete", G_TYPE_UINT64, self->frames_incomplete,
      "bytes-received", G_TYPE_UINT64, self->bytes_received,
      "tiles-stepped", G_TYPE_UINT64, self->tiles_stepped,
      "connects", G_TYPE_UINT, self->connects,
      "units", G_TYPE_UINT, self->config ? self->config->n_tiles : 0,
      "generation", G_TYPE_UINT, self->config ? self->config->generation : 0,
      "receive-buffer-size", G_TYPE_INT, self->receive_buffer_size,
      "receive-buffer-granted", G_TYPE_INT, self->granted_rcvbuf, NULL);

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
        "packets-duplicate", G_TYPE_UINT64, self->packets_duplicate,
        "frames-partial", G_TYPE_UINT64, self->frames_partial,
        "frames-timer", G_TYPE_UINT64, self->frames_timer,
        "frames-skipped", G_TYPE_UINT64, self->frames_skipped,
        "packets-dropped", G_TYPE_UINT64, self->packets_dropped,
        "packets-in-place", G_TYPE_UINT64, self->packets_in_place,
        "kernel-drops", G_TYPE_UINT64, drops,
        "timer-floor-us", G_TYPE_UINT64,
        (guint64) (self->timer_floor_ns / 1000), NULL);
  }
  gst_tile_latency_to_structure (&self->latency, s);
  return s;
}

static GstStructure *
gst_tile_src_get_stats (GstTileSrc * self)
{
  GstStructure *s;

  g_mutex_lock (&self->lock);
  s = stats_locked (self);
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

static void
gst_tile_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstTileSrc *self = GST_TILE_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_HOST:
      g_free (self->host);
      self->host = g_value_dup_string (value);
      if (!self->host)
        self->host = g_strdup (DEFAULT_HOST);
      break;
    case PROP_PORT:
      self->port = g_value_get_uint (value);
      break;
    case PROP_RECEIVE_BUFFER_SIZE:
      self->receive_buffer_size = g_value_get_int (value);
      break;
    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint (value);
      break;
    case PROP_FLUSH:
      g_atomic_int_set (&self->flush, g_value_get_enum (value));
      break;
    case PROP_RECONNECT:
      g_atomic_int_set (&self->reconnect, g_value_get_boolean (value));
      break;
    case PROP_STATS_INTERVAL:
      g_atomic_int_set (&self->stats_interval, g_value_get_uint (value));
      break;
    case PROP_TIMER_FACTOR:
      self->timer_factor = g_value_get_double (value);
      break;
    case PROP_GSO:
      self->gso = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_tile_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstTileSrc *self = GST_TILE_SRC (object);

  if (prop_id == PROP_STATS) {
    g_value_take_boxed (value, gst_tile_src_get_stats (self));
    return;
  }
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_HOST:
      g_value_set_string (value, self->host);
      break;
    case PROP_PORT:
      g_value_set_uint (value, self->port);
      break;
    case PROP_RECEIVE_BUFFER_SIZE:
      g_value_set_int (value, self->receive_buffer_size);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
      break;
    case PROP_FLUSH:
      g_value_set_enum (value, g_atomic_int_get (&self->flush));
      break;
    case PROP_RECONNECT:
      g_value_set_boolean (value, g_atomic_int_get (&self->reconnect));
      break;
    case PROP_STATS_INTERVAL:
      g_value_set_uint (value, g_atomic_int_get (&self->stats_interval));
      break;
    case PROP_TIMER_FACTOR:
      g_value_set_double (value, self->timer_factor);
      break;
    case PROP_GSO:
      g_value_set_enum (value, self->gso);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Records the first error; the streaming thread posts it. Lock held. */
static void
set_error_locked (GstTileSrc * self, GError * err)
{
  if (!self->error)
    self->error = g_error_copy (err);
  g_cond_broadcast (&self->cond);
}

/* Releases a slot's buffer. Lock held; nobody may be writing into it. */
static void
slot_release_locked (GstTileSrc * self, GstTileSrcSlot * slot, gboolean count)
{
  g_assert (slot->writers == 0);
  if (slot->buffer) {
    if (slot->state == SLOT_FILLING)
      gst_buffer_unmap (slot->buffer, &slot->map);
    gst_buffer_unref (slot->buffer);
    slot->buffer = NULL;
  }
  if (count && slot->state == SLOT_FILLING)
    self->frames_incomplete++;
  slot->state = SLOT_FREE;
  slot->discard = FALSE;
  g_cond_broadcast (&self->cond);
}

/* Drops every frame that can no longer complete. Lock held. */
static void
discard_incomplete_locked (GstTileSrc * self)
{
  guint i;

  for (i = 0; i < GST_TILE_SRC_SLOTS; i++) {
    GstTileSrcSlot *slot = &self->slots[i];

    if (slot->state == SLOT_FILLING && slot->writers == 0)
      slot_release_locked (self, slot, TRUE);
  }
}

/* Finds or starts the slot of @frame for unit @unit, waiting for a free
 * slot when both are taken. Returns NULL when stopping. Lock held. */
static GstTileSrcSlot *
get_slot_locked (GstTileSrc * self, guint unit, guint64 frame, guint64 session)
{
  GstBufferPool *pool;
  GstTileSrcSlot *slot;
  GstBuffer *buf = NULL;
  GstBcTileMeta *meta;
  guint64 bit = G_GUINT64_CONSTANT (1) << unit;
  guint i;

  while (self->running && self->session == session) {
    GstTileSrcSlot *free_slot = NULL;

    slot = NULL;
    for (i = 0; i < GST_TILE_SRC_SLOTS; i++) {
      GstTileSrcSlot *s = &self->slots[i];

      if (s->state == SLOT_FREE) {
        free_slot = free_slot ? free_slot : s;
        continue;
      }
      if (s->session != session)
        continue;
      if (s->frame == frame) {
        slot = s;
      } else if (s->frame < frame && s->state == SLOT_FILLING &&
          !(s->done_mask & bit)) {
        /* this unit has moved past that frame without its tile: it can
         * never complete (only a broken sender does this) */
        GST_WARNING_OBJECT (self, "unit %u skipped frame %" G_GUINT64_FORMAT
            ", dropping it", unit, s->frame);
        if (s->writers == 0)
          slot_release_locked (self, s, TRUE);
        else
          s->discard = TRUE;
      }
    }
    if (slot && slot->state == SLOT_FILLING && !slot->discard) {
      if (slot->done_mask & bit)
        return NULL;            /* a repeated frame number */
      return slot;
    }
    if (!slot && free_slot) {
      slot = free_slot;
      slot->state = SLOT_ALLOCATING;
      slot->frame = frame;
      slot->session = session;
      slot->done_mask = 0;
      slot->n_done = 0;
      slot->writers = 0;
      slot->discard = FALSE;
      g_mutex_unlock (&self->lock);

      pool = gst_base_src_get_buffer_pool (GST_BASE_SRC (self));
      if (pool) {
        if (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) != GST_FLOW_OK)
          buf = NULL;
        gst_object_unref (pool);
      }
      if (buf && gst_buffer_get_size (buf) < self->config->frame_size) {
        GST_ERROR_OBJECT (self, "pool buffer of %" G_GSIZE_FORMAT " bytes "
            "for %" G_GUINT64_FORMAT " byte frames", gst_buffer_get_size (buf),
            self->config->frame_size);
        gst_buffer_unref (buf);
        buf = NULL;
      }

      g_mutex_lock (&self->lock);
      if (buf && !gst_buffer_map (buf, &slot->map, GST_MAP_WRITE)) {
        gst_buffer_unref (buf);
        buf = NULL;
      }
      if (!buf) {
        slot->state = SLOT_FREE;
        g_cond_broadcast (&self->cond);
        return NULL;
      }
      slot->buffer = buf;
      meta = gst_buffer_get_bc_tile_meta (buf);
      if (meta)
        gst_bc_tile_meta_set_tiling (meta, &self->tiling);
      slot->state = SLOT_FILLING;
      g_cond_broadcast (&self->cond);
      return slot;
    }
    g_cond_wait (&self->cond, &self->lock);
  }
  return NULL;
}

static gboolean
is_refuse (GstTileSrc * self, gint fd, const guint8 * hdr, GError ** error)
{
  GstTileWireHeader h;
  GstTileWireRefuse refuse;
  GByteArray *payload;
  gboolean ret = FALSE;

  if (GST_READ_UINT32_BE (hdr) != GST_TILE_WIRE_MAGIC)
    return FALSE;
  /* a control message where a tile header was expected: a REFUSE */
  if (gst_tile_wire_header_parse (hdr, GST_TILE_WIRE_HEADER_SIZE, &h, NULL) !=
      GST_TILE_WIRE_PARSE_OK || h.type != GST_TILE_WIRE_TYPE_REFUSE)
    return FALSE;
  payload = g_byte_array_sized_new (h.payload_len);
  g_byte_array_set_size (payload, h.payload_len);
  if (h.payload_len > GST_TILE_WIRE_TILE_HEADER_SIZE - GST_TILE_WIRE_HEADER_SIZE)
    memcpy (payload->data, hdr + GST_TILE_WIRE_HEADER_SIZE,
        GST_TILE_WIRE_TILE_HEADER_SIZE - GST_TILE_WIRE_HEADER_SIZE);
  /* the refusal may be shorter than a tile header; it was read in full
   * when it is, else read the rest */
  if (h.payload_len <= GST_TILE_WIRE_TILE_HEADER_SIZE - GST_TILE_WIRE_HEADER_SIZE)
    memcpy (payload->data, hdr + GST_TILE_WIRE_HEADER_SIZE, h.payload_len);
  else if (!gst_tile_net_read_all (fd, payload->data +
          GST_TILE_WIRE_TILE_HEADER_SIZE - GST_TILE_WIRE_HEADER_SIZE,
          h.payload_len - (GST_TILE_WIRE_TILE_HEADER_SIZE -
              GST_TILE_WIRE_HEADER_SIZE), 1000, NULL)) {
    g_byte_array_unref (payload);
    return FALSE;
  }
  if (gst_tile_wire_refuse_parse (payload->data, payload->len, &refuse, NULL)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "the sender refused the connection (%s): %s",
        gst_tile_net_refuse_code_name (refuse.code), refuse.reason);
    ret = TRUE;
  }
  g_byte_array_unref (payload);
  return ret;
}

/* Reads a REFUSE that may be shorter than the 32 bytes we try to read:
 * called when reading a tile header hit the end of the connection. */
static gboolean
read_short_refuse (GstTileSrc * self, const guint8 * got, gsize have,
    GError ** error)
{
  GstTileWireHeader h;
  GstTileWireRefuse refuse;

  if (have < GST_TILE_WIRE_HEADER_SIZE ||
      gst_tile_wire_header_parse (got, have, &h, NULL) != GST_TILE_WIRE_PARSE_OK
      || h.type != GST_TILE_WIRE_TYPE_REFUSE
      || have < GST_TILE_WIRE_HEADER_SIZE + h.payload_len)
    return FALSE;
  if (!gst_tile_wire_refuse_parse (got + GST_TILE_WIRE_HEADER_SIZE,
          h.payload_len, &refuse, NULL))
    return FALSE;
  g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
      "the sender refused the connection (%s): %s",
      gst_tile_net_refuse_code_name (refuse.code), refuse.reason);
  return TRUE;
}

static gpointer
unit_thread (gpointer data)
{
  GstTileSrcUnit *u = data;
  GstTileSrc *self = u->src;
  GstTileWireConfig *config;
  GstTileWireUnitHello uh;
  GByteArray *p = g_byte_array_new ();
  GError *err = NULL;
  guint64 session, last_frame = 0, bit = G_GUINT64_CONSTANT (1) << u->index;
  gboolean first = TRUE;
  gchar *host;
  guint port, timeout;
  gint rcvbuf, granted = 0, fd;
  gsize tile_offset, tile_size;

  GST_OBJECT_LOCK (self);
  host = g_strdup (self->host);
  port = self->port;
  timeout = self->timeout;
  rcvbuf = self->receive_buffer_size;
  GST_OBJECT_UNLOCK (self);

  g_mutex_lock (&self->lock);
  config = self->config;
  session = self->session;
  uh.token = config->token;
  uh.generation = config->generation;
  uh.unit = u->index;
  tile_offset = config->tiles[u->index].offset;
  tile_size = config->tiles[u->index].size;
  g_mutex_unlock (&self->lock);

  fd = gst_tile_net_connect (host, port, timeout, rcvbuf, &granted, &err);
  g_free (host);
  if (fd < 0)
    goto done;
  g_mutex_lock (&self->lock);
  u->fd = fd;
  self->granted_rcvbuf = granted;
  if (!self->running || self->session != session)
    gst_tile_net_shutdown (fd);
  if (rcvbuf > 0 && !gst_tile_net_buffer_is_enough (granted, rcvbuf)
      && !self->warned_rcvbuf) {
    self->warned_rcvbuf = TRUE;
    g_mutex_unlock (&self->lock);
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
        ("Socket receive buffer is %d bytes, %d were asked for", granted / 2,
            rcvbuf), ("Raise the limit with 'sysctl -w net.core.rmem_max=%d' "
            "(or run as root) for full throughput", rcvbuf));
  } else {
    g_mutex_unlock (&self->lock);
  }

  if (!gst_tile_wire_unit_hello_pack (&uh, p, &err) ||
      !gst_tile_net_send_packed (fd, p, &err))
    goto done;

  while (TRUE) {
    guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE];
    GstTileWireTileHeader th;
    GstTileSrcSlot *slot;
    GstBcTileMeta *meta;
    gssize got;
    gboolean ok, stepped;

    got = gst_tile_net_read_until_eof (fd, hdr, sizeof (hdr));
    if (got == 0)
      break;                    /* the sender closed: generation over */
    if (got < (gssize) sizeof (hdr)) {
      if (got < 0 || !read_short_refuse (self, hdr, got, &err))
        g_set_error (&err, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
            "unit %u: connection lost inside a tile header", u->index);
      break;
    }
    if (gst_tile_wire_tile_header_parse (hdr, sizeof (hdr), tile_size, &th,
            &err) != GST_TILE_WIRE_PARSE_OK) {
      GError *refused = NULL;

      if (is_refuse (self, fd, hdr, &refused)) {
        g_clear_error (&err);
        err = refused;
      }
      break;
    }
    if (th.generation != uh.generation || (!first && th.frame <= last_frame)) {
      g_set_error (&err, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "unit %u: tile of generation %u frame %" G_GUINT64_FORMAT
          " after generation %u frame %" G_GUINT64_FORMAT, u->index,
          th.generation, th.frame, uh.generation, last_frame);
      break;
    }
    first = FALSE;
    last_frame = th.frame;

    g_mutex_lock (&self->lock);
    slot = get_slot_locked (self, u->index, th.frame, session);
    if (!slot) {
      g_mutex_unlock (&self->lock);
      if (self->running)
        g_set_error (&err, G_IO_ERROR, G_IO_ERROR_FAILED,
            "unit %u: no buffer for frame %" G_GUINT64_FORMAT, u->index,
            th.frame);
      break;
    }
    slot->writers++;
    slot->sender_ts = th.timestamp;
    g_mutex_unlock (&self->lock);

    /* straight into the frame */
    ok = gst_tile_net_read_all (fd, slot->map.data + tile_offset, tile_size,
        -1, &err);
    stepped = ok && g_atomic_int_get (&self->flush) == GST_TILE_FLUSH_STEPPED
        && (meta = gst_buffer_get_bc_tile_meta (slot->buffer))
        && gst_bc_tile_meta_complete (meta, slot->buffer, u->index);

    g_mutex_lock (&self->lock);
    if (stepped)
      self->tiles_stepped++;
    slot->writers--;
    if (ok) {
      self->bytes_received += tile_size + sizeof (hdr);
      slot->done_mask |= bit;
      if (slot->n_done++ == 0)
        slot->first_done = g_get_monotonic_time ();
      if (slot->n_done == self->config->n_tiles && !slot->discard) {
        GstClock *clock = gst_element_get_clock (GST_ELEMENT (self));

        self->tile_spread_sum += g_get_monotonic_time () - slot->first_done;
        slot->complete_time = GST_CLOCK_TIME_NONE;
        if (clock) {
          slot->complete_time = gst_clock_get_time (clock);
          gst_object_unref (clock);
        }
        gst_buffer_unmap (slot->buffer, &slot->map);
        slot->state = SLOT_COMPLETE;
        g_cond_broadcast (&self->cond);
      }
    }
    if (slot->discard && slot->writers == 0)
      slot_release_locked (self, slot, TRUE);
    g_mutex_unlock (&self->lock);
    if (!ok) {
      g_prefix_error (&err, "unit %u: ", u->index);
      break;
    }
  }

done:
  g_mutex_lock (&self->lock);
  if (err && self->running && self->session == session) {
    gboolean newer = self->pending != NULL && err->domain == GST_TILE_WIRE_ERROR;

    /* a refusal because a newer CONFIG already replaced ours is not an
     * error: that generation starts next */
    if (!newer) {
      GST_WARNING_OBJECT (self, "%s", err->message);
      if (g_atomic_int_get (&self->reconnect) &&
          err->domain != GST_TILE_WIRE_ERROR) {
        self->lost = TRUE;
        if (self->control_fd >= 0)
          gst_tile_net_shutdown (self->control_fd);
      } else {
        set_error_locked (self, err);
      }
    }
  }
  g_clear_error (&err);
  self->units_running--;
  if (self->units_running == 0)
    discard_incomplete_locked (self);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  g_byte_array_unref (p);
  return NULL;
}

/* ---- protocol=udp ---- */

/* protocol=udp: the frames done and the window, so that the sender never
 * has more in flight than the unit sockets hold. Sent once the unit
 * sockets of a generation are up (no frame yet), then per frame that
 * leaves create(). */
static void
send_ack (GstTileSrc * self, const GstTileWireAck * ack)
{
  GByteArray *a = g_byte_array_sized_new (GST_TILE_WIRE_HEADER_SIZE + 20);

  gst_tile_wire_ack_pack (ack, a);
  g_mutex_lock (&self->send_lock);
  if (self->ack_fd >= 0)
    gst_tile_net_send_packed (self->ack_fd, a, NULL);
  g_mutex_unlock (&self->send_lock);
  g_byte_array_unref (a);
}

#define UDP_VLEN_GRO 8
#define UDP_VLEN 64
#define UDP_GRO_BUF 65536
#define UDP_CMSG 64

typedef struct
{
  GstTileSrcSlot *slot;
  guint8 *dst;
  const guint8 *src;
  guint len;
} UdpCopy;

/* Every frame in assembly but the newest runs a timer: a newer frame has
 * started (units are not in lockstep, so the newer one may have been
 * allocated first). Lock held. */
static void
udp_start_timers_locked (GstTileSrc * self)
{
  guint64 newest = 0;
  gint64 avg;
  guint i;

  for (i = 0; i < GST_TILE_SRC_SLOTS; i++)
    if (self->slots[i].state == SLOT_FILLING)
      newest = MAX (newest, self->slots[i].frame);
  /* before any frame was measured: a frame duration from the caps */
  avg = self->avg_receive_ns;
  if (avg == 0)
    avg = GST_CLOCK_TIME_IS_VALID (self->duration) ? self->duration :
        UDP_FIRST_TIMER_NS;
  for (i = 0; i < GST_TILE_SRC_SLOTS; i++) {
    GstTileSrcSlot *o = &self->slots[i];

    if (o->state == SLOT_FILLING && o->frame < newest && o->deadline == 0)
      /* at least the scheduling granularity of a busy machine */
      o->deadline = (gint64) gst_util_get_timestamp () + MAX (self->timer_floor_ns,
          (gint64) (self->timer_factor * avg));
  }
}

/* The receive time of a frame, whole or not (first to last datagram), for
 * the timers. Lock held. */
static void
udp_note_receive_time_locked (GstTileSrc * self, GstTileSrcSlot * slot)
{
  gint64 took = slot->last_ns - slot->first_ns;

  if (took <= 0)
    return;
  self->avg_receive_ns = self->avg_receive_ns ?
      (self->avg_receive_ns * 7 + took) / 8 : took;
}

/* A claimed slot for @frame, allocating its buffer when new. NULL when the
 * datagram is to be dropped (late, too far ahead, no slot free: the oldest
 * frame is then pushed with its gaps right away). Lock held; may release
 * it while acquiring a buffer. */
static GstTileSrcSlot *
udp_slot_locked (GstTileSrc * self, guint64 frame, guint64 session,
    gboolean * late, gboolean * full)
{
  GstTileSrcSlot *slot, *free_slot;
  GstBufferPool *pool;
  GstBuffer *buf = NULL;
  GstBcTileMeta *meta;
  guint i, total = self->pk_base[self->config->n_tiles];

  *late = FALSE;
  *full = FALSE;
  if (self->have_pushed && frame <= self->last_pushed) {
    *late = TRUE;
    return NULL;
  }
  while (self->running && self->session == session) {
    free_slot = NULL;
    for (i = 0; i < GST_TILE_SRC_SLOTS; i++) {
      slot = &self->slots[i];
      if (slot->state == SLOT_FREE) {
        free_slot = free_slot ? free_slot : slot;
        continue;
      }
      if (slot->frame == frame) {
        if (slot->state == SLOT_FILLING)
          return slot;
        if (slot->state == SLOT_COMPLETE) {
          *late = TRUE;         /* the frame is complete already */
          return NULL;
        }
        goto wait;              /* being allocated by another unit */
      }
    }
    if (!free_slot) {
      /* both slots hold older frames: wait until create() takes one (the
       * oldest leaves when whole or when its timer, started by the newer
       * frame, fires). Meanwhile our datagrams wait in the socket buffer;
       * the other units go on filling the older frames. */
      *full = TRUE;
      return NULL;
    }
    slot = free_slot;
    slot->state = SLOT_ALLOCATING;
    slot->frame = frame;
    slot->session = session;
    slot->n_got = 0;
    slot->writers = 0;
    slot->deadline = 0;
    memset (slot->tile_copied, 0, sizeof (slot->tile_copied));
    slot->first_ns = slot->last_ns = (gint64) gst_util_get_timestamp ();
    slot->sender_ts = GST_CLOCK_TIME_NONE;
    memset (slot->got, 0, (total + 7) / 8);
    g_mutex_unlock (&self->lock);

    pool = gst_base_src_get_buffer_pool (GST_BASE_SRC (self));
    if (pool) {
      if (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) != GST_FLOW_OK)
        buf = NULL;
      gst_object_unref (pool);
    }
    if (buf && (gst_buffer_get_size (buf) < self->config->frame_size ||
            !gst_buffer_map (buf, &slot->map, GST_MAP_WRITE))) {
      gst_buffer_unref (buf);
      buf = NULL;
    }

    g_mutex_lock (&self->lock);
    if (!buf) {
      slot->state = SLOT_FREE;
      g_cond_broadcast (&self->cond);
      return NULL;
    }
    slot->buffer = buf;
    meta = gst_buffer_get_bc_tile_meta (buf);
    if (meta)
      gst_bc_tile_meta_set_tiling (meta, &self->tiling);
    slot->state = SLOT_FILLING;
    udp_start_timers_locked (self);
    g_cond_broadcast (&self->cond);
    return slot;
  wait:
    g_cond_wait (&self->cond, &self->lock);
  }
  return NULL;
}

/* Files the datagrams of one receive batch: a single pass under the lock
 * claims them, the copies run unlocked, a second short pass completes
 * frames. Never a lock per datagram. */
/* Copies the claimed datagrams and completes frames. Called with the lock
 * held; releases it for the copies. */
static void
udp_commit_locked (GstTileSrc * self, guint unit, UdpCopy * copies,
    guint n_copies)
{
  guint total = self->pk_base[self->config->n_tiles], i, n_done = 0;
  guint tile_packets = self->pk_base[unit + 1] - self->pk_base[unit];
  GstTileSrcSlot *done[GST_TILE_SRC_SLOTS];

  if (n_copies == 0)
    return;
  g_mutex_unlock (&self->lock);
  for (i = 0; i < n_copies; i++)
    if (copies[i].src != copies[i].dst)
      memcpy (copies[i].dst, copies[i].src, copies[i].len);
  g_mutex_lock (&self->lock);

  /* stepped flush: a tile whose datagrams are all in place is reported
   * before our writes are released, so before its frame can be pushed */
  for (i = 0; i < n_copies; i++) {
    GstTileSrcSlot *slot = copies[i].slot;

    if (copies[i].len == 0)
      continue;                 /* the pin of a prediction, no datagram */
    if (++slot->tile_copied[unit] == tile_packets && n_done <
        GST_TILE_SRC_SLOTS)
      done[n_done++] = slot;
  }
  if (n_done > 0 && g_atomic_int_get (&self->flush) == GST_TILE_FLUSH_STEPPED) {
    guint stepped = 0;

    g_mutex_unlock (&self->lock);
    for (i = 0; i < n_done; i++) {
      GstBcTileMeta *meta = gst_buffer_get_bc_tile_meta (done[i]->buffer);

      if (meta && gst_bc_tile_meta_complete (meta, done[i]->buffer, unit))
        stepped++;
    }
    g_mutex_lock (&self->lock);
    self->tiles_stepped += stepped;
  }

  for (i = 0; i < n_copies; i++) {
    GstTileSrcSlot *slot = copies[i].slot;

    slot->writers--;
    if (slot->writers == 0 && slot->n_got == total &&
        slot->state == SLOT_FILLING) {
      GstClock *clock = gst_element_get_clock (GST_ELEMENT (self));

      slot->last_ns = (gint64) gst_util_get_timestamp ();
      udp_note_receive_time_locked (self, slot);
      if (slot->last_ns - self->timer_raised_ns > GST_SECOND)
        self->timer_floor_ns = MAX (UDP_MIN_TIMER_NS,
            self->timer_floor_ns - self->timer_floor_ns / 64);
      slot->complete_time = GST_CLOCK_TIME_NONE;
      if (clock) {
        slot->complete_time = gst_clock_get_time (clock);
        gst_object_unref (clock);
      }
      gst_buffer_unmap (slot->buffer, &slot->map);
      slot->state = SLOT_COMPLETE;
    }
  }
  g_cond_broadcast (&self->cond);
}

/* Files the datagrams of one receive batch: one pass under the lock claims
 * them, the copies run unlocked, a short second pass completes frames.
 * Never a lock per datagram. When a datagram needs a slot and both hold
 * older frames, what was claimed so far is committed first (an older frame
 * can only leave once nobody writes into it), then we wait. */
static void
udp_file_batch (GstTileSrc * self, GstTileSrcUnit * u, guint64 session,
    GstTileWirePacketHeader * hs, const guint8 ** payloads, guint n,
    UdpCopy * copies, guint invalid, GstTileSrcSlot * pinned)
{
  GstTileWireConfig *config = self->config;
  guint ps = config->packet_size, i, n_copies = 0;
  guint64 tile_off = config->tiles[u->index].offset;
  guint64 tile_size = config->tiles[u->index].size;
  GstTileSrcSlot *slot = NULL;
  gboolean late, full;
  gint64 now;

  g_mutex_lock (&self->lock);
  self->packets_invalid += invalid;
  now = (gint64) gst_util_get_timestamp ();
  if (pinned) {
    /* the slot received into in place: released with the copies */
    copies[n_copies].slot = pinned;
    copies[n_copies].dst = NULL;
    copies[n_copies].src = NULL;
    copies[n_copies].len = 0;
    n_copies++;
  }
  for (i = 0; i < n; i++) {
    GstTileWirePacketHeader *h = &hs[i];
    guint idx;

    if (self->have_pushed && h->frame > self->last_pushed + UDP_FRAME_WINDOW) {
      /* valid, but further ahead than we can hold */
      self->packets_dropped++;
      continue;
    }
    if (!slot || slot->frame != h->frame || slot->state != SLOT_FILLING) {
      while (TRUE) {
        slot = udp_slot_locked (self, h->frame, session, &late, &full);
        if (slot || !full || !self->running || self->session != session
            || self->udp_drain)
          break;
        udp_commit_locked (self, u->index, copies, n_copies);
        n_copies = 0;
        g_cond_wait (&self->cond, &self->lock);
      }
    }
    if (!slot || self->session != session) {
      if (late && self->have_timer_frame && h->frame == self->timer_frame
          && !self->timer_frame_raised) {
        self->timer_frame_raised = TRUE;
        self->timer_floor_ns = MIN (2 * self->timer_floor_ns,
            UDP_MAX_TIMER_FLOOR_NS);
        self->timer_raised_ns = (gint64) gst_util_get_timestamp ();
        GST_DEBUG_OBJECT (self, "datagrams of frame %" G_GUINT64_FORMAT
            " came after its timer: timers last %" G_GINT64_FORMAT " us at "
            "least", h->frame, self->timer_floor_ns / 1000);
      }
      if (late)
        self->packets_late++;
      else
        self->packets_dropped++;
      slot = NULL;
      continue;
    }
    idx = self->pk_base[u->index] + h->offset / ps;
    if (slot->got[idx / 8] & (1 << (idx % 8))) {
      self->packets_duplicate++;
      continue;
    }
    slot->got[idx / 8] |= 1 << (idx % 8);
    slot->n_got++;
    slot->writers++;
    slot->last_ns = now;
    slot->sender_ts = h->timestamp;
    self->packets_received++;
    self->bytes_received += GST_TILE_WIRE_PACKET_HEADER_SIZE + ps;
    copies[n_copies].slot = slot;
    copies[n_copies].dst = slot->map.data + tile_off + h->offset;
    copies[n_copies].src = payloads[i];
    copies[n_copies].len = MIN (ps, tile_size - h->offset);
    if (copies[n_copies].src == copies[n_copies].dst)
      self->packets_in_place++;
    n_copies++;
  }
  udp_commit_locked (self, u->index, copies, n_copies);
  g_mutex_unlock (&self->lock);
}

/* Receives control messages on a unit socket during its handshake: the
 * echo of our UNIT_HELLO, or a REFUSE. Returns TRUE when acknowledged. */
static gboolean
udp_hello_answer (const guint8 * buf, gssize n, GError ** error)
{
  GstTileWireHeader h;
  GstTileWireRefuse refuse;

  if (n < GST_TILE_WIRE_HEADER_SIZE || GST_READ_UINT32_BE (buf) !=
      GST_TILE_WIRE_MAGIC)
    return FALSE;
  if (gst_tile_wire_header_parse (buf, n, &h, NULL) != GST_TILE_WIRE_PARSE_OK)
    return FALSE;
  if (h.type == GST_TILE_WIRE_TYPE_UNIT_HELLO)
    return TRUE;
  if (h.type == GST_TILE_WIRE_TYPE_REFUSE && gst_tile_wire_refuse_parse (buf +
          GST_TILE_WIRE_HEADER_SIZE, MIN ((gsize) n - GST_TILE_WIRE_HEADER_SIZE,
              h.payload_len), &refuse, NULL))
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "the sender refused the connection (%s): %s",
        gst_tile_net_refuse_code_name (refuse.code), refuse.reason);
  return FALSE;
}

static gpointer
udp_unit_thread (gpointer data)
{
  GstTileSrcUnit *u = data;
  GstTileSrc *self = u->src;
  GstTileWireConfig *config;
  GstTileWireUnitHello uh;
  struct sockaddr_storage server;
  socklen_t server_len;
  GByteArray *hello = g_byte_array_new ();
  GError *err = NULL;
  guint64 session;
  guint timeout, ps, seg, vlen, per_msg, i, max_pk;
  guint64 tile_off, tile_size, exp_frame = 0, exp_off = 0, *pred = NULL;
  guint64 wire;
  GstTileWireAck first_ack;
  gboolean have_exp = FALSE, last_window;
  guint8 *hdrs = NULL;
  gint rcvbuf, granted, fd;
  gboolean gro = FALSE, acked = FALSE;
  GstTileGso gso;
  guint8 *bufs = NULL, *cmsgs = NULL;
  struct mmsghdr *msgs = NULL;
  struct iovec *iovs = NULL;
  GstTileWirePacketHeader *hs = NULL;
  const guint8 **payloads = NULL;
  UdpCopy *copies = NULL;
  gint64 hello_end, next_hello = 0;

  GST_OBJECT_LOCK (self);
  timeout = self->timeout;
  rcvbuf = self->receive_buffer_size;
  gso = self->gso;
  GST_OBJECT_UNLOCK (self);

  g_mutex_lock (&self->lock);
  config = self->config;
  session = self->session;
  uh.token = config->token;
  uh.generation = config->generation;
  uh.unit = u->index;
  ps = config->packet_size;
  memcpy (&server, &self->server, sizeof (server));
  server_len = self->server_len;
  g_mutex_unlock (&self->lock);
  seg = GST_TILE_WIRE_PACKET_HEADER_SIZE + ps;

  fd = gst_tile_net_udp_bind_any (server.ss_family, &err);
  if (fd < 0)
    goto done;
  /* room for four tiles at least: the sender keeps up to the window below
   * in flight; it must let a newer frame in to complete a frame with gaps
   * (2), and a window of 2 leaves the receiver idle while its ACK travels,
   * 4 does not */
  wire = (guint64) (self->pk_base[u->index + 1] - self->pk_base[u->index]) *
      seg;
  if (rcvbuf > 0 && (guint64) rcvbuf < 4 * wire)
    rcvbuf = (gint) MIN (4 * wire, G_MAXINT / 2);
  granted = gst_tile_net_set_buffer_size (fd, FALSE, rcvbuf);
  if (gso != GST_TILE_GSO_OFF)
    gro = gst_tile_net_set_gro (fd);
  if (!gro && gso == GST_TILE_GSO_ON) {
    g_set_error (&err, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
        "This kernel has no UDP generic receive offload (UDP_GRO), and "
        "gso=on");
    goto done;
  }

  g_mutex_lock (&self->lock);
  u->fd = fd;
  self->granted_rcvbuf = granted;
  /* Linux reports twice the size asked for and counts the kernel's
   * overhead of every datagram against it: half of it holds payload */
  self->udp_window = MIN (self->udp_window,
      (guint) MAX (2, MIN ((guint64) granted / 2 / MAX (wire, 1), 4096)));
  first_ack.generation = config->generation;
  first_ack.window = self->udp_window;
  first_ack.has_frame = FALSE;
  first_ack.frame = 0;
  last_window = ++self->udp_windows == config->n_tiles;
  if (!self->running || self->session != session)
    gst_tile_net_shutdown (fd);
  g_mutex_unlock (&self->lock);
  if (last_window)
    send_ack (self, &first_ack);

  /* Receive layout: every datagram of a batch gets three iovecs, its
   * header into a header array and its payload straight into the frame
   * where the next datagram of this tile is expected (the rest, or all of
   * it when there is no prediction, into a staging area). With GRO one
   * message carries up to per_msg datagrams. */
  vlen = gro ? UDP_VLEN_GRO : UDP_VLEN;
  per_msg = gro ? CLAMP (UDP_GRO_BUF / seg, 1, 300) : 1;
  max_pk = vlen * per_msg;
  hdrs = g_malloc ((gsize) max_pk * GST_TILE_WIRE_PACKET_HEADER_SIZE);
  bufs = g_malloc ((gsize) max_pk * ps);
  pred = g_new (guint64, max_pk);
  cmsgs = g_malloc0 ((gsize) vlen * UDP_CMSG);
  msgs = g_new0 (struct mmsghdr, vlen);
  iovs = g_new (struct iovec, (gsize) max_pk * 3);
  hs = g_new (GstTileWirePacketHeader, max_pk);
  payloads = g_new (const guint8 *, max_pk);
  copies = g_new (UdpCopy, max_pk + 1);
  tile_off = config->tiles[u->index].offset;
  tile_size = config->tiles[u->index].size;

  gst_tile_wire_unit_hello_pack (&uh, hello, NULL);
  hello_end = (gint64) gst_util_get_timestamp () + (gint64) timeout *GST_MSECOND;

  while (TRUE) {
    GstTileSrcSlot *pinned = NULL;
    gboolean drain;
    guint64 pos;
    gint r, k;
    guint n = 0, invalid = 0;

    if (!acked) {
      gint64 now = (gint64) gst_util_get_timestamp ();

      if (now > hello_end) {
        g_set_error (&err, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
            "unit %u: no answer to UNIT_HELLO within %u ms", u->index, timeout);
        break;
      }
      if (now >= next_hello) {
        gst_tile_net_udp_send_to (fd, hello->data, hello->len,
            (struct sockaddr *) &server, server_len);
        next_hello = now + 100 * GST_MSECOND;
      }
    }

    g_mutex_lock (&self->lock);
    drain = self->udp_drain || !self->running || self->session != session;
    g_mutex_unlock (&self->lock);
    if (!drain && !gst_tile_net_wait (fd, FALSE, acked ? 100 : 20, NULL))
      continue;

    /* predict: the frame we expect continues where the last datagram
     * ended; pinned (a writer) so it cannot leave while we receive */
    g_mutex_lock (&self->lock);
    if (have_exp && self->session == session) {
      for (i = 0; i < GST_TILE_SRC_SLOTS; i++) {
        GstTileSrcSlot *sl = &self->slots[i];

        if (sl->state == SLOT_FILLING && sl->session == session &&
            sl->frame == exp_frame) {
          pinned = sl;
          pinned->writers++;
          break;
        }
      }
    }
    g_mutex_unlock (&self->lock);

    pos = exp_off;
    for (i = 0; i < max_pk; i++) {
      struct iovec *iov = &iovs[3 * i];
      guint8 *stage = bufs + (gsize) i * ps;

      iov[0].iov_base = hdrs + (gsize) i *GST_TILE_WIRE_PACKET_HEADER_SIZE;
      iov[0].iov_len = GST_TILE_WIRE_PACKET_HEADER_SIZE;
      pred[i] = G_MAXUINT64;
      if (pinned && pos < tile_size) {
        guint idx = self->pk_base[u->index] + pos / ps;
        gsize len = MIN (ps, tile_size - pos);

        /* only this unit's thread sets the bits of its tile */
        if (!(pinned->got[idx / 8] & (1 << (idx % 8)))) {
          pred[i] = pos;
          iov[1].iov_base = pinned->map.data + tile_off + pos;
          iov[1].iov_len = len;
          iov[2].iov_base = stage + len;
          iov[2].iov_len = ps - len;
        }
        pos += ps;
      }
      if (pred[i] == G_MAXUINT64) {
        iov[1].iov_base = stage;
        iov[1].iov_len = ps;
        iov[2].iov_base = NULL;
        iov[2].iov_len = 0;
      }
    }
    for (i = 0; i < vlen; i++) {
      memset (&msgs[i].msg_hdr, 0, sizeof (struct msghdr));
      msgs[i].msg_hdr.msg_iov = &iovs[3 * i * per_msg];
      msgs[i].msg_hdr.msg_iovlen = 3 * per_msg;
      msgs[i].msg_hdr.msg_control = cmsgs + (gsize) i *UDP_CMSG;
      msgs[i].msg_hdr.msg_controllen = UDP_CMSG;
    }
    r = gst_tile_net_udp_recv_batch (fd, msgs, vlen, &err);
    if (r <= 0) {
      if (pinned)
        udp_file_batch (self, u, session, hs, payloads, 0, copies, 0, pinned);
      if (r < 0) {
        g_prefix_error (&err, "unit %u: ", u->index);
        break;
      }
      if (drain)
        break;                  /* the socket is empty: generation over */
      continue;
    }

    for (k = 0; k < r; k++) {
      struct msghdr *m = &msgs[k].msg_hdr;
      guint len = msgs[k].msg_len, step = len, off, j;
      guint32 drops;

      drops = G_MAXUINT32;
      gst_tile_net_udp_message_info (m, &step, &drops);
      /* read by the stats under the lock, which is not held here */
      if (drops != G_MAXUINT32)
        g_atomic_int_set ((gint *) & self->unit_drops[u->index], drops);
      if (!acked && len >= GST_TILE_WIRE_HEADER_SIZE &&
          len <= GST_TILE_WIRE_PACKET_HEADER_SIZE + (gsize) ps &&
          GST_READ_UINT32_BE (iovs[3 * k * per_msg].iov_base) ==
          GST_TILE_WIRE_MAGIC) {
        /* a control message: gather its bytes back into one buffer */
        guint8 ctl[GST_TILE_WIRE_PACKET_HEADER_SIZE + 2048];
        gsize got = MIN (len, sizeof (ctl)), h0 = MIN (got,
            GST_TILE_WIRE_PACKET_HEADER_SIZE);

        memcpy (ctl, iovs[3 * k * per_msg].iov_base, h0);
        if (got > h0)
          memcpy (ctl + h0, iovs[3 * k * per_msg + 1].iov_base, MIN (got - h0,
                  iovs[3 * k * per_msg + 1].iov_len));
        acked = udp_hello_answer (ctl, got, &err);
        if (err) {
          if (pinned)
            udp_file_batch (self, u, session, hs, payloads, 0, copies, 0,
                pinned);
          goto done;
        }
        continue;
      }
      /* every datagram of a message must be a whole one, or the layout
       * does not hold: all of it is invalid then */
      if (step != seg || len % seg != 0 || len / seg > per_msg) {
        invalid += MAX (1, len / MAX (step, 1));
        continue;
      }
      for (off = 0, j = 0; off < len; off += seg, j++) {
        guint idx = k * per_msg + j;
        GstTileWirePacketHeader *h = &hs[n];
        guint8 *stage = bufs + (gsize) idx * ps;

        if (gst_tile_wire_packet_header_parse (iovs[3 * idx].iov_base,
                GST_TILE_WIRE_PACKET_HEADER_SIZE, h, NULL) != GST_TILE_WIRE_PARSE_OK
            || !gst_tile_wire_packet_check (h, config, NULL)
            || h->unit != u->index) {
          invalid++;
          continue;
        }
        if (pred[idx] != G_MAXUINT64 && h->frame == exp_frame &&
            h->offset == pred[idx]) {
          payloads[n] = iovs[3 * idx + 1].iov_base;     /* in place */
        } else {
          /* mispredicted: gather the payload into staging now, before any
           * datagram of this batch is moved into the frame */
          if (pred[idx] != G_MAXUINT64)
            memcpy (stage, iovs[3 * idx + 1].iov_base,
                iovs[3 * idx + 1].iov_len);
          payloads[n] = stage;
        }
        n++;
      }
    }
    if (n > 0) {
      GstTileWirePacketHeader *last = &hs[n - 1];

      acked = TRUE;             /* data flows: our hello was heard */
      have_exp = TRUE;
      exp_frame = last->frame;
      exp_off = last->offset + ps;
      if (exp_off >= tile_size) {
        exp_frame++;
        exp_off = 0;
      }
    }
    if (n > 0 || invalid > 0 || pinned)
      udp_file_batch (self, u, session, hs, payloads, n, copies, invalid,
          pinned);
  }

done:
  g_mutex_lock (&self->lock);
  if (err && self->running && self->session == session) {
    GST_WARNING_OBJECT (self, "%s", err->message);
    set_error_locked (self, err);
  }
  g_clear_error (&err);
  self->units_running--;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  g_byte_array_unref (hello);
  g_free (hdrs);
  g_free (pred);
  g_free (bufs);
  g_free (cmsgs);
  g_free (msgs);
  g_free (iovs);
  g_free (hs);
  g_free (payloads);
  g_free (copies);
  return NULL;
}

/* Stops the units of the running generation and waits for them. Lock
 * held. */
static void
stop_units_locked (GstTileSrc * self)
{
  guint i;

  self->session++;
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++)
    if (self->units[i].fd >= 0)
      gst_tile_net_shutdown (self->units[i].fd);
  g_cond_broadcast (&self->cond);
  while (self->units_running > 0)
    g_cond_wait (&self->cond, &self->lock);
  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    if (self->units[i].thread) {
      g_mutex_unlock (&self->lock);
      g_thread_join (self->units[i].thread);
      g_mutex_lock (&self->lock);
      self->units[i].thread = NULL;
    }
    gst_tile_net_close (&self->units[i].fd);
  }
  for (i = 0; i < GST_TILE_SRC_SLOTS; i++)
    if (self->slots[i].state != SLOT_FREE)
      slot_release_locked (self, &self->slots[i],
          self->slots[i].state == SLOT_FILLING);
}

/* Starts the units of the pending CONFIG. Lock held. */
static void
start_units_locked (GstTileSrc * self)
{
  gboolean udp;
  guint i;

  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    if (self->units[i].thread) {
      g_mutex_unlock (&self->lock);
      g_thread_join (self->units[i].thread);
      g_mutex_lock (&self->lock);
      self->units[i].thread = NULL;
    }
    gst_tile_net_close (&self->units[i].fd);
  }
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
    for (i = 0; i < GST_TILE_SRC_SLOTS; i++) {
      g_free (self->slots[i].got);
      self->slots[i].got = g_malloc0 ((total + 7) / 8);
    }
  }
  self->units_running = self->config->n_tiles;
  for (i = 0; i < self->config->n_tiles; i++) {
    gchar *name = g_strdup_printf ("tilesrc-unit%u", i);

    self->units[i].thread = g_thread_new (name, udp ? udp_unit_thread :
        unit_thread, &self->units[i]);
    g_free (name);
  }
  GST_INFO_OBJECT (self, "generation %u: %u units", self->config->generation,
      self->config->n_tiles);
}

/* The handshake on a new control connection. Returns the CONFIG or NULL
 * with @error set. */
static GstTileWireConfig *
handshake (GstTileSrc * self, gint fd, guint timeout, GError ** error)
{
  GstTileWireHello hello = { 0 };
  GstTileWireHeader h;
  GByteArray *p = g_byte_array_new ();
  GstTileWireConfig *config = NULL;
  GstTileWireRefuse refuse;

  if (!gst_tile_wire_hello_pack (&hello, p, error) ||
      !gst_tile_net_send_packed (fd, p, error))
    goto out;
  /* the sender answers once it knows its caps; keep-alives may come
   * first */
  while (TRUE) {
    if (!gst_tile_net_read_message (fd, timeout, &h, p, error))
      goto out;
    if (h.type != GST_TILE_WIRE_TYPE_KEEPALIVE)
      break;
  }
  if (h.type == GST_TILE_WIRE_TYPE_REFUSE) {
    if (gst_tile_wire_refuse_parse (p->data, p->len, &refuse, error))
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "the sender refused the connection (%s): %s",
          gst_tile_net_refuse_code_name (refuse.code), refuse.reason);
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

/* Checks what the element needs beyond the message layer. */
static gboolean
config_usable (GstTileSrc * self, GstTileWireConfig * config, GError ** error)
{
  GstBcTiling tiling;
  GstCaps *caps;
  gsize size = 0;

  if (!gst_tile_wire_config_check_tiling (config, &tiling, error))
    return FALSE;
  caps = gst_caps_from_string (config->caps);
  if (!caps || !gst_tile_tiling_for_caps (caps, config->n_units, &tiling,
          &size) || size != config->frame_size) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "the sender's caps \"%s\" do not describe its %" G_GUINT64_FORMAT
        " byte frames", config->caps, config->frame_size);
    if (caps)
      gst_caps_unref (caps);
    return FALSE;
  }
  gst_caps_unref (caps);
  return TRUE;
}

/* Every write on the control connection: create() writes there too. */
static void
control_send (GstTileSrc * self, gint fd, GByteArray * p)
{
  g_mutex_lock (&self->send_lock);
  gst_tile_net_send_packed (fd, p, NULL);
  g_mutex_unlock (&self->send_lock);
}

static void
send_stats (GstTileSrc * self, gint fd)
{
  GstStructure *s;
  GByteArray *p = g_byte_array_new ();

  g_mutex_lock (&self->lock);
  s = stats_locked (self);
  g_mutex_unlock (&self->lock);
  if (gst_tile_wire_stats_pack (s, p, NULL))
    control_send (self, fd, p);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
  g_byte_array_unref (p);
}

/* Serves one control connection until it ends. Returns FALSE when the
 * session ended with an error that is not worth a reconnect. */
static gboolean
control_session (GstTileSrc * self, gint fd, guint timeout, GError ** error)
{
  GByteArray *p = g_byte_array_new ();
  gint64 now, last_rx, last_ka, last_stats;
  gboolean ret = TRUE;

  now = last_rx = last_ka = last_stats = g_get_monotonic_time ();
  while (TRUE) {
    GstTileWireHeader h;
    guint interval;

    if (!gst_tile_net_wait (fd, FALSE, 100, NULL)) {
      now = g_get_monotonic_time ();
    } else {
      if (!gst_tile_net_read_message (fd, timeout, &h, p, error)) {
        ret = (*error)->domain != GST_TILE_WIRE_ERROR;
        break;
      }
      now = last_rx = g_get_monotonic_time ();
      if (h.type == GST_TILE_WIRE_TYPE_CONFIG) {
        GstTileWireConfig *config = g_new0 (GstTileWireConfig, 1);

        if (!gst_tile_wire_config_parse (p->data, p->len, config, error) ||
            !config_usable (self, config, error)) {
          g_free (config);
          ret = FALSE;
          break;
        }
        g_mutex_lock (&self->lock);
        GST_INFO_OBJECT (self, "new CONFIG, generation %u", config->generation);
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
        GST_INFO_OBJECT (self, "EOS from the sender");
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
        GstTileWireRefuse refuse;

        if (gst_tile_wire_refuse_parse (p->data, p->len, &refuse, error))
          g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
              "the sender ended the session (%s): %s",
              gst_tile_net_refuse_code_name (refuse.code), refuse.reason);
        ret = FALSE;
        break;
      } else {
        g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
            "unexpected %s message from the sender",
            gst_tile_wire_type_get_name (h.type));
        gst_tile_net_send_refuse (fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE,
            (*error)->message);
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
    g_mutex_unlock (&self->lock);

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
  GstTileSrc *self = data;
  gchar *host;
  guint port, timeout;

  GST_OBJECT_LOCK (self);
  host = g_strdup (self->host);
  port = self->port;
  timeout = self->timeout;
  GST_OBJECT_UNLOCK (self);

  g_mutex_lock (&self->lock);
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
      g_free (self->pending);
      self->pending = config;
      g_cond_broadcast (&self->cond);
      GST_INFO_OBJECT (self, "connected to %s port %u, generation %u", host,
          port, config->generation);
      g_mutex_unlock (&self->lock);
      retry = control_session (self, fd, timeout, &err);
      g_mutex_lock (&self->send_lock);
      self->ack_fd = -1;
      g_mutex_unlock (&self->send_lock);
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
          strstr (err->message, "(busy)") != NULL;
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
    self->lost = FALSE;
    if (!retry || !g_atomic_int_get (&self->reconnect)) {
      if (!err)
        g_set_error (&err, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
            "connection to the sender lost");
      set_error_locked (self, err);
      g_clear_error (&err);
      break;
    }
    GST_INFO_OBJECT (self, "%s; reconnecting", err ? err->message : "lost");
    g_clear_error (&err);
    g_cond_wait_until (&self->cond, &self->lock, g_get_monotonic_time () +
        RECONNECT_DELAY_US);
  }
  g_mutex_unlock (&self->lock);
  g_free (host);
  return NULL;
}

static gboolean
gst_tile_src_start (GstBaseSrc * bsrc)
{
  GstTileSrc *self = GST_TILE_SRC (bsrc);
  guint i;

  g_mutex_lock (&self->lock);
  self->running = TRUE;
  self->flushing = FALSE;
  self->eos = FALSE;
  self->lost = FALSE;
  g_clear_error (&self->error);
  self->frames_received = self->frames_incomplete = 0;
  self->bytes_received = self->tiles_stepped = 0;
  self->tile_spread_sum = 0;
  self->packets_received = self->packets_lost = self->packets_late = 0;
  self->packets_invalid = self->packets_duplicate = 0;
  self->frames_partial = self->frames_timer = 0;
  self->packets_dropped = self->frames_skipped = 0;
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
  for (i = 0; i < GST_TILE_SRC_SLOTS; i++) {
    g_free (self->slots[i].got);
    memset (&self->slots[i], 0, sizeof (GstTileSrcSlot));
  }
  self->control_thread = g_thread_new ("tilesrc-control", control_thread, self);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
gst_tile_src_stop (GstBaseSrc * bsrc)
{
  GstTileSrc *self = GST_TILE_SRC (bsrc);
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
  gst_caps_replace (&self->caps, NULL);
  gst_clear_buffer (&self->last_buffer);
  for (i = 0; i < GST_TILE_SRC_SLOTS; i++)
    g_clear_pointer (&self->slots[i].got, g_free);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
gst_tile_src_unlock (GstBaseSrc * bsrc)
{
  GstTileSrc *self = GST_TILE_SRC (bsrc);

  g_mutex_lock (&self->lock);
  self->flushing = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
gst_tile_src_unlock_stop (GstBaseSrc * bsrc)
{
  GstTileSrc *self = GST_TILE_SRC (bsrc);

  g_mutex_lock (&self->lock);
  self->flushing = FALSE;
  self->keep_last = FALSE;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

/* The caps are the sender's; until the first CONFIG there is nothing to
 * negotiate. */
static gboolean
gst_tile_src_negotiate (GstBaseSrc * bsrc)
{
  GstTileSrc *self = GST_TILE_SRC (bsrc);
  GstCaps *caps = NULL;
  gboolean ret = TRUE;

  g_mutex_lock (&self->lock);
  if (self->caps)
    caps = gst_caps_ref (self->caps);
  g_mutex_unlock (&self->lock);
  if (caps) {
    ret = gst_base_src_set_caps (bsrc, caps);
    gst_caps_unref (caps);
  }
  return ret;
}

static gboolean
gst_tile_src_query (GstBaseSrc * bsrc, GstQuery * query)
{
  GstTileSrc *self = GST_TILE_SRC (bsrc);

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    GstClockTime duration;

    g_mutex_lock (&self->lock);
    duration = self->duration;
    g_mutex_unlock (&self->lock);
    /* buffers are timestamped when their last byte is in: no latency of
     * our own; we can hold two frames */
    gst_query_set_latency (query, TRUE, 0, GST_CLOCK_TIME_IS_VALID (duration)
        ? GST_TILE_SRC_SLOTS * duration : GST_CLOCK_TIME_NONE);
    return TRUE;
  }
  return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
}

/* Units write straight into the buffers of this pool: downstream's when it
 * offers one (a GPU-visible pool, for instance), else a plain one. Either
 * way its buffers must hold a whole frame. */
static gboolean
gst_tile_src_decide_allocation (GstBaseSrc * bsrc, GstQuery * query)
{
  GstTileSrc *self = GST_TILE_SRC (bsrc);
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstAllocator *allocator = NULL;
  GstAllocationParams params;
  GstBcTiling tiling;
  GstCaps *caps;
  gsize frame_size = 0;
  guint size = 0, min = 0, max = 0;
  gboolean update = FALSE;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return TRUE;                /* before the sender's CONFIG */
  if (!gst_tile_tiling_for_caps (caps, 1, &tiling, &frame_size))
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    update = TRUE;
  }
  if (gst_query_get_n_allocation_params (query) > 0)
    gst_query_parse_nth_allocation_param (query, 0, &allocator, &params);
  else
    gst_allocation_params_init (&params);

  if (pool && size != 0 && size < frame_size) {
    GST_WARNING_OBJECT (self, "downstream pool has %u byte buffers, frames "
        "have %" G_GSIZE_FORMAT ": using our own pool", size, frame_size);
    gst_clear_object (&pool);
  }
  if (!pool) {
    pool = gst_buffer_pool_new ();
  } else {
    GST_INFO_OBJECT (self, "receiving into downstream's %" GST_PTR_FORMAT,
        pool);
  }
  size = MAX (size, frame_size);
  /* the slots, the previous frame (kept for UDP loss concealment) and one
   * downstream */
  min = MAX (min, GST_TILE_SRC_SLOTS + 2);
  if (max != 0 && max < min)
    max = min;

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  if (!gst_buffer_pool_set_config (pool, config)) {
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, caps, size, min, max)) {
      gst_structure_free (config);
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("Could not configure a "
              "buffer pool for %" G_GSIZE_FORMAT " byte frames", frame_size),
          (NULL));
      gst_object_unref (pool);
      if (allocator)
        gst_object_unref (allocator);
      return FALSE;
    }
    gst_buffer_pool_set_config (pool, config);
  }

  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  if (allocator)
    gst_object_unref (allocator);
  return TRUE;
}

/* Negotiates the caps of the pending CONFIG when they differ. Called with
 * the lock released. */
static GstFlowReturn
renegotiate (GstTileSrc * self, const gchar * caps_str)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstClockTime duration = GST_CLOCK_TIME_NONE;
  GstStructure *s = gst_caps_get_structure (caps, 0);
  gint n, d;

  if (gst_structure_get_fraction (s, "framerate", &n, &d) && n > 0 && d > 0)
    duration = gst_util_uint64_scale_int (GST_SECOND, d, n);

  g_mutex_lock (&self->lock);
  if (self->caps && gst_caps_is_equal (self->caps, caps)) {
    g_mutex_unlock (&self->lock);
    gst_caps_unref (caps);
    return GST_FLOW_OK;
  }
  gst_caps_replace (&self->caps, caps);
  self->duration = duration;
  g_mutex_unlock (&self->lock);
  gst_caps_unref (caps);

  GST_INFO_OBJECT (self, "caps %s", caps_str);
  if (!gst_base_src_negotiate (GST_BASE_SRC (self))) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Downstream does not "
            "accept the sender's caps %s", caps_str), (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_latency (GST_OBJECT (self)));
  return GST_FLOW_OK;
}

/* Turns an incomplete UDP frame into an output buffer: marks it corrupted
 * and lists the missing datagrams' byte ranges in a GstBcLossMeta. The
 * buffer stays mapped in @map for udp_conceal(). Lock held. */
static gboolean
udp_take_partial_locked (GstTileSrc * self, GstTileSrcSlot * slot,
    GstMapInfo * map)
{
  GstTileWireConfig *config = self->config;
  GstBcLossMeta *meta;
  guint ps = config->packet_size, t, j, missing = 0;
  GstClock *clock;

  meta = gst_buffer_add_bc_loss_meta (slot->buffer);
  for (t = 0; t < config->n_tiles; t++) {
    guint n = self->pk_base[t + 1] - self->pk_base[t];

    for (j = 0; j < n; j++) {
      guint idx = self->pk_base[t] + j;
      guint64 off = (guint64) j * ps;

      if (slot->got[idx / 8] & (1 << (idx % 8)))
        continue;
      missing++;
      gst_bc_loss_meta_add_range (meta, config->tiles[t].offset + off,
          MIN (ps, config->tiles[t].size - off));
    }
  }
  GST_BUFFER_FLAG_SET (slot->buffer, GST_BUFFER_FLAG_CORRUPTED);
  udp_note_receive_time_locked (self, slot);
  self->packets_lost += missing;
  self->frames_partial++;
  if (slot->deadline > 1) {
    self->frames_timer++;
    self->timer_frame = slot->frame;
    self->have_timer_frame = TRUE;
    self->timer_frame_raised = FALSE;
  }
  GST_DEBUG_OBJECT (self, "frame %" G_GUINT64_FORMAT " pushed with %u of %u "
      "datagrams missing", slot->frame, missing, self->pk_base[t]);
  *map = slot->map;
  slot->complete_time = GST_CLOCK_TIME_NONE;
  clock = gst_element_get_clock (GST_ELEMENT (self));
  if (clock) {
    slot->complete_time = gst_clock_get_time (clock);
    gst_object_unref (clock);
  }
  slot->state = SLOT_COMPLETE;
  return TRUE;
}

/* The missing ranges keep the newest data we have for them: the previous
 * frame's (only those ranges are copied). */
static void
udp_conceal (GstTileSrc * self, GstBuffer * buf, GstMapInfo * map,
    GstBuffer * last)
{
  GstBcLossMeta *meta = gst_buffer_get_bc_loss_meta (buf);
  GstMapInfo lmap;
  guint i;

  if (!meta || !last || !gst_buffer_map (last, &lmap, GST_MAP_READ))
    return;
  for (i = 0; i < meta->n_ranges; i++) {
    const GstBcLossRange *r = &meta->ranges[i];

    if (r->offset + r->size <= MIN (lmap.size, map->size))
      memcpy (map->data + r->offset, lmap.data + r->offset, r->size);
  }
  gst_buffer_unmap (last, &lmap);
}

static GstFlowReturn
gst_tile_src_create (GstPushSrc * psrc, GstBuffer ** outbuf)
{
  GstTileSrc *self = GST_TILE_SRC (psrc);
  GstTileSrcSlot *best;
  GstBuffer *buf, *last = NULL;
  GstClockTime sender_ts, complete_time, base_time, pts = GST_CLOCK_TIME_NONE;
  GstMapInfo map;
  gboolean partial = FALSE, udp;
  guint64 frame_number;
  gint64 wait_until;
  GstTileWireAck ack;
  guint i;

  g_mutex_lock (&self->lock);
  while (TRUE) {
    if (self->flushing) {
      g_mutex_unlock (&self->lock);
      return GST_FLOW_FLUSHING;
    }
    if (self->error) {
      GError *err = self->error;

      self->error = NULL;
      g_mutex_unlock (&self->lock);
      if (err->domain == GST_TILE_WIRE_ERROR)
        GST_ELEMENT_ERROR (self, STREAM, DECODE, ("Bad data from the "
                "sender: %s", err->message), (NULL));
      else
        GST_ELEMENT_ERROR (self, RESOURCE, READ, ("%s", err->message), (NULL));
      g_error_free (err);
      return GST_FLOW_ERROR;
    }

    best = NULL;
    wait_until = 0;
    if (self->config && self->config->protocol == GST_TILE_WIRE_PROTOCOL_UDP) {
      GstTileSrcSlot *low = NULL;

      /* frames leave in order: the oldest, whole or out of time */
      for (i = 0; i < GST_TILE_SRC_SLOTS; i++) {
        GstTileSrcSlot *s = &self->slots[i];

        if ((s->state == SLOT_COMPLETE || s->state == SLOT_FILLING) &&
            (!low || s->frame < low->frame))
          low = s;
      }
      if (low && low->state == SLOT_COMPLETE) {
        best = low;
      } else if (low && low->writers == 0 && (self->units_running == 0 ||
              low->deadline == 1 || (low->deadline > 1 &&
                  (gint64) gst_util_get_timestamp () >= low->deadline))) {
        partial = udp_take_partial_locked (self, low, &map);
        best = low;
      } else if (low && low->deadline > 1 && low->writers == 0) {
        /* (with writers, the last of them broadcasts: a timed wait on a
         * deadline already past would spin and starve them of the lock) */
        wait_until = low->deadline;
      }
    } else {
      for (i = 0; i < GST_TILE_SRC_SLOTS; i++) {
        GstTileSrcSlot *s = &self->slots[i];

        if (s->state == SLOT_COMPLETE && (!best || s->frame < best->frame))
          best = s;
      }
    }
    if (best)
      break;

    if (self->units_running == 0) {
      if (self->pending) {
        gchar *caps_str = g_strdup (self->pending->caps);
        GstFlowReturn ret;

        g_mutex_unlock (&self->lock);
        ret = renegotiate (self, caps_str);
        g_free (caps_str);
        g_mutex_lock (&self->lock);
        if (ret != GST_FLOW_OK) {
          g_mutex_unlock (&self->lock);
          return ret;
        }
        if (self->pending && self->running)
          start_units_locked (self);
        continue;
      }
      if (self->eos) {
        g_mutex_unlock (&self->lock);
        GST_INFO_OBJECT (self, "all frames in, EOS");
        return GST_FLOW_EOS;
      }
    }
    if (wait_until) {
      /* g_cond_wait_until() counts in g_get_monotonic_time() units */
      gint64 us = g_get_monotonic_time () + (wait_until - (gint64) gst_util_get_timestamp ()) /
          1000 + 1;
      g_cond_wait_until (&self->cond, &self->lock, us);
    } else {
      g_cond_wait (&self->cond, &self->lock);
    }
  }

  buf = best->buffer;
  complete_time = best->complete_time;
  frame_number = best->frame;
  best->buffer = NULL;
  sender_ts = best->sender_ts;
  best->state = SLOT_FREE;
  best->sender_ts = GST_CLOCK_TIME_NONE;
  self->frames_received++;
  if (GST_CLOCK_TIME_IS_VALID (sender_ts)) {
    guint64 rt = gst_tile_realtime_ns ();

    gst_tile_latency_add (&self->latency, rt > sender_ts ? rt - sender_ts : 0);
  }
  udp = self->config && self->config->protocol == GST_TILE_WIRE_PROTOCOL_UDP;
  if (udp) {
    last = self->last_buffer ? gst_buffer_ref (self->last_buffer) : NULL;
    if (self->have_pushed && frame_number > self->last_pushed + 1)
      self->frames_skipped += frame_number - self->last_pushed - 1;
    self->last_pushed = frame_number;
    self->have_pushed = TRUE;
    ack.generation = self->config->generation;
    ack.window = self->udp_window == G_MAXUINT ? 2 : self->udp_window;
    ack.has_frame = TRUE;
    ack.frame = frame_number;
  }
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  if (udp)
    send_ack (self, &ack);

  if (partial) {
    udp_conceal (self, buf, &map, last);
    gst_buffer_unmap (buf, &map);
  }

  /* the running time at which the last tile was in */
  base_time = gst_element_get_base_time (GST_ELEMENT (self));
  if (GST_CLOCK_TIME_IS_VALID (complete_time) && complete_time >= base_time)
    pts = complete_time - base_time;
  else if (GST_CLOCK_TIME_IS_VALID (complete_time))
    pts = 0;
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (buf) = self->duration;
  if (GST_CLOCK_TIME_IS_VALID (sender_ts)) {
    GstCaps *ts_caps = gst_static_caps_get (&unix_ts_caps);

    gst_buffer_add_reference_timestamp_meta (buf, ts_caps, sender_ts,
        GST_CLOCK_TIME_NONE);
    gst_caps_unref (ts_caps);
  }
  if (udp) {
    /* The newest data for the gaps of the next frame. From here on the
     * buffer is shared, so this comes after its metas; and the first
     * buffer after a start or flush, which GstBaseSrc makes writable (a
     * shared one would be copied, out of the downstream pool), is copied
     * here instead. */
    GstBuffer *keep = self->keep_last ? gst_buffer_ref (buf) : gst_buffer_copy_deep (buf);      /* once per start or flush */

    g_mutex_lock (&self->lock);
    gst_buffer_replace (&self->last_buffer, NULL);
    self->last_buffer = keep;
    self->keep_last = TRUE;
    g_mutex_unlock (&self->lock);
    if (last)
      gst_buffer_unref (last);
  }
  *outbuf = buf;
  return GST_FLOW_OK;
}
