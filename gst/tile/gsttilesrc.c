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

#include "gsttilesrc.h"

#include <gst/video/video.h>
#include <gst/bc/bctilemeta.h>

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
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
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->control_fd = -1;
  for (i = 0; i < GST_BC_WIRE_MAX_UNITS; i++) {
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
  gst_tile_latency_to_structure (&self->latency, s);
  return s;
}

static GstStructure *
gst_tile_src_get_stats (GstTileSrc * self)
{
  GstStructure *s;

  g_mutex_lock (&self->lock);
  s = stats_locked (self);
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
  GstBcWireHeader h;
  GstBcWireRefuse refuse;
  GByteArray *payload;
  gboolean ret = FALSE;

  if (GST_READ_UINT32_BE (hdr) != GST_BC_WIRE_MAGIC)
    return FALSE;
  /* a control message where a tile header was expected: a REFUSE */
  if (gst_bc_wire_header_parse (hdr, GST_BC_WIRE_HEADER_SIZE, &h, NULL) !=
      GST_BC_WIRE_PARSE_OK || h.type != GST_BC_WIRE_TYPE_REFUSE)
    return FALSE;
  payload = g_byte_array_sized_new (h.payload_len);
  g_byte_array_set_size (payload, h.payload_len);
  if (h.payload_len > GST_BC_WIRE_TILE_HEADER_SIZE - GST_BC_WIRE_HEADER_SIZE)
    memcpy (payload->data, hdr + GST_BC_WIRE_HEADER_SIZE,
        GST_BC_WIRE_TILE_HEADER_SIZE - GST_BC_WIRE_HEADER_SIZE);
  /* the refusal may be shorter than a tile header; it was read in full
   * when it is, else read the rest */
  if (h.payload_len <= GST_BC_WIRE_TILE_HEADER_SIZE - GST_BC_WIRE_HEADER_SIZE)
    memcpy (payload->data, hdr + GST_BC_WIRE_HEADER_SIZE, h.payload_len);
  else if (!gst_tile_net_read_all (fd, payload->data +
          GST_BC_WIRE_TILE_HEADER_SIZE - GST_BC_WIRE_HEADER_SIZE,
          h.payload_len - (GST_BC_WIRE_TILE_HEADER_SIZE -
              GST_BC_WIRE_HEADER_SIZE), 1000, NULL)) {
    g_byte_array_unref (payload);
    return FALSE;
  }
  if (gst_bc_wire_refuse_parse (payload->data, payload->len, &refuse, NULL)) {
    g_set_error (error, GST_BC_WIRE_ERROR, GST_BC_WIRE_ERROR_INVALID,
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
  GstBcWireHeader h;
  GstBcWireRefuse refuse;

  if (have < GST_BC_WIRE_HEADER_SIZE ||
      gst_bc_wire_header_parse (got, have, &h, NULL) != GST_BC_WIRE_PARSE_OK
      || h.type != GST_BC_WIRE_TYPE_REFUSE
      || have < GST_BC_WIRE_HEADER_SIZE + h.payload_len)
    return FALSE;
  if (!gst_bc_wire_refuse_parse (got + GST_BC_WIRE_HEADER_SIZE,
          h.payload_len, &refuse, NULL))
    return FALSE;
  g_set_error (error, GST_BC_WIRE_ERROR, GST_BC_WIRE_ERROR_INVALID,
      "the sender refused the connection (%s): %s",
      gst_tile_net_refuse_code_name (refuse.code), refuse.reason);
  return TRUE;
}

/* Reads up to @len bytes, stopping early only at the end of the
 * connection. Returns the bytes read, -1 on error. */
static gssize
read_until_eof (gint fd, guint8 * data, gsize len)
{
  gsize have = 0;

  while (have < len) {
    gssize n = recv (fd, data + have, len - have, 0);

    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return -1;
    if (n == 0)
      break;
    have += n;
  }
  return have;
}

static gpointer
unit_thread (gpointer data)
{
  GstTileSrcUnit *u = data;
  GstTileSrc *self = u->src;
  GstBcWireConfig *config;
  GstBcWireUnitHello uh;
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

  if (!gst_bc_wire_unit_hello_pack (&uh, p, &err) ||
      !gst_tile_net_send_packed (fd, p, &err))
    goto done;

  while (TRUE) {
    guint8 hdr[GST_BC_WIRE_TILE_HEADER_SIZE];
    GstBcWireTileHeader th;
    GstTileSrcSlot *slot;
    GstBcTileMeta *meta;
    gssize got;
    gboolean ok;

    got = read_until_eof (fd, hdr, sizeof (hdr));
    if (got == 0)
      break;                    /* the sender closed: generation over */
    if (got < (gssize) sizeof (hdr)) {
      if (got < 0 || !read_short_refuse (self, hdr, got, &err))
        g_set_error (&err, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
            "unit %u: connection lost inside a tile header", u->index);
      break;
    }
    if (gst_bc_wire_tile_header_parse (hdr, sizeof (hdr), tile_size, &th,
            &err) != GST_BC_WIRE_PARSE_OK) {
      GError *refused = NULL;

      if (is_refuse (self, fd, hdr, &refused)) {
        g_clear_error (&err);
        err = refused;
      }
      break;
    }
    if (th.generation != uh.generation || (!first && th.frame <= last_frame)) {
      g_set_error (&err, GST_BC_WIRE_ERROR, GST_BC_WIRE_ERROR_INVALID,
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
    if (ok && g_atomic_int_get (&self->flush) == GST_TILE_FLUSH_STEPPED &&
        (meta = gst_buffer_get_bc_tile_meta (slot->buffer))) {
      if (gst_bc_tile_meta_complete (meta, slot->buffer, u->index))
        g_atomic_int_inc ((gint *) & self->tiles_stepped);
    }

    g_mutex_lock (&self->lock);
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
    gboolean newer = self->pending != NULL && err->domain == GST_BC_WIRE_ERROR;

    /* a refusal because a newer CONFIG already replaced ours is not an
     * error: that generation starts next */
    if (!newer) {
      GST_WARNING_OBJECT (self, "%s", err->message);
      if (g_atomic_int_get (&self->reconnect) &&
          err->domain != GST_BC_WIRE_ERROR) {
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

/* Stops the units of the running generation and waits for them. Lock
 * held. */
static void
stop_units_locked (GstTileSrc * self)
{
  guint i;

  self->session++;
  for (i = 0; i < GST_BC_WIRE_MAX_UNITS; i++)
    if (self->units[i].fd >= 0)
      gst_tile_net_shutdown (self->units[i].fd);
  g_cond_broadcast (&self->cond);
  while (self->units_running > 0)
    g_cond_wait (&self->cond, &self->lock);
  for (i = 0; i < GST_BC_WIRE_MAX_UNITS; i++) {
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
  guint i;

  for (i = 0; i < GST_BC_WIRE_MAX_UNITS; i++) {
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
  gst_bc_wire_config_check_tiling (self->config, &self->tiling, NULL);
  self->units_running = self->config->n_tiles;
  for (i = 0; i < self->config->n_tiles; i++) {
    gchar *name = g_strdup_printf ("tilesrc-unit%u", i);

    self->units[i].thread = g_thread_new (name, unit_thread, &self->units[i]);
    g_free (name);
  }
  GST_INFO_OBJECT (self, "generation %u: %u units", self->config->generation,
      self->config->n_tiles);
}

/* The handshake on a new control connection. Returns the CONFIG or NULL
 * with @error set. */
static GstBcWireConfig *
handshake (GstTileSrc * self, gint fd, guint timeout, GError ** error)
{
  GstBcWireHello hello = { 0 };
  GstBcWireHeader h;
  GByteArray *p = g_byte_array_new ();
  GstBcWireConfig *config = NULL;
  GstBcWireRefuse refuse;

  if (!gst_bc_wire_hello_pack (&hello, p, error) ||
      !gst_tile_net_send_packed (fd, p, error))
    goto out;
  /* the sender answers once it knows its caps; keep-alives may come
   * first */
  while (TRUE) {
    if (!gst_tile_net_read_message (fd, timeout, &h, p, error))
      goto out;
    if (h.type != GST_BC_WIRE_TYPE_KEEPALIVE)
      break;
  }
  if (h.type == GST_BC_WIRE_TYPE_REFUSE) {
    if (gst_bc_wire_refuse_parse (p->data, p->len, &refuse, error))
      g_set_error (error, GST_BC_WIRE_ERROR, GST_BC_WIRE_ERROR_INVALID,
          "the sender refused the connection (%s): %s",
          gst_tile_net_refuse_code_name (refuse.code), refuse.reason);
    goto out;
  }
  if (h.type != GST_BC_WIRE_TYPE_CONFIG) {
    g_set_error (error, GST_BC_WIRE_ERROR, GST_BC_WIRE_ERROR_INVALID,
        "expected CONFIG from the sender, got %s",
        gst_bc_wire_type_get_name (h.type));
    goto out;
  }
  config = g_new0 (GstBcWireConfig, 1);
  if (!gst_bc_wire_config_parse (p->data, p->len, config, error)) {
    g_clear_pointer (&config, g_free);
    goto out;
  }

out:
  g_byte_array_unref (p);
  return config;
}

/* Checks what the element needs beyond the message layer. */
static gboolean
config_usable (GstTileSrc * self, GstBcWireConfig * config, GError ** error)
{
  GstBcTiling tiling;
  GstCaps *caps;
  gsize size = 0;

  if (config->protocol != GST_BC_WIRE_PROTOCOL_TCP) {
    g_set_error (error, GST_BC_WIRE_ERROR, GST_BC_WIRE_ERROR_INVALID,
        "the sender uses protocol udp, which this tilesrc does not "
        "implement yet");
    return FALSE;
  }
  if (!gst_bc_wire_config_check_tiling (config, &tiling, error))
    return FALSE;
  caps = gst_caps_from_string (config->caps);
  if (!caps || !gst_tile_tiling_for_caps (caps, config->n_units, &tiling,
          &size) || size != config->frame_size) {
    g_set_error (error, GST_BC_WIRE_ERROR, GST_BC_WIRE_ERROR_INVALID,
        "the sender's caps \"%s\" do not describe its %" G_GUINT64_FORMAT
        " byte frames", config->caps, config->frame_size);
    if (caps)
      gst_caps_unref (caps);
    return FALSE;
  }
  gst_caps_unref (caps);
  return TRUE;
}

static void
send_stats (GstTileSrc * self, gint fd)
{
  GstStructure *s;
  GByteArray *p = g_byte_array_new ();

  g_mutex_lock (&self->lock);
  s = stats_locked (self);
  g_mutex_unlock (&self->lock);
  if (gst_bc_wire_stats_pack (s, p, NULL))
    gst_tile_net_send_packed (fd, p, NULL);
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
    GstBcWireHeader h;
    guint interval;

    if (!gst_tile_net_wait (fd, FALSE, 100, NULL)) {
      now = g_get_monotonic_time ();
    } else {
      if (!gst_tile_net_read_message (fd, timeout, &h, p, error)) {
        ret = (*error)->domain != GST_BC_WIRE_ERROR;
        break;
      }
      now = last_rx = g_get_monotonic_time ();
      if (h.type == GST_BC_WIRE_TYPE_CONFIG) {
        GstBcWireConfig *config = g_new0 (GstBcWireConfig, 1);

        if (!gst_bc_wire_config_parse (p->data, p->len, config, error) ||
            !config_usable (self, config, error)) {
          g_free (config);
          ret = FALSE;
          break;
        }
        g_mutex_lock (&self->lock);
        GST_INFO_OBJECT (self, "new CONFIG, generation %u", config->generation);
        g_free (self->pending);
        self->pending = config;
        g_cond_broadcast (&self->cond);
        g_mutex_unlock (&self->lock);
      } else if (h.type == GST_BC_WIRE_TYPE_EOS) {
        if (!gst_bc_wire_eos_parse (p->data, p->len, error)) {
          ret = FALSE;
          break;
        }
        GST_INFO_OBJECT (self, "EOS from the sender");
        g_mutex_lock (&self->lock);
        self->eos = TRUE;
        g_cond_broadcast (&self->cond);
        g_mutex_unlock (&self->lock);
      } else if (h.type == GST_BC_WIRE_TYPE_KEEPALIVE) {
        guint64 t;

        if (!gst_bc_wire_keepalive_parse (p->data, p->len, &t, error)) {
          ret = FALSE;
          break;
        }
      } else if (h.type == GST_BC_WIRE_TYPE_REFUSE) {
        GstBcWireRefuse refuse;

        if (gst_bc_wire_refuse_parse (p->data, p->len, &refuse, error))
          g_set_error (error, GST_BC_WIRE_ERROR, GST_BC_WIRE_ERROR_INVALID,
              "the sender ended the session (%s): %s",
              gst_tile_net_refuse_code_name (refuse.code), refuse.reason);
        ret = FALSE;
        break;
      } else {
        g_set_error (error, GST_BC_WIRE_ERROR, GST_BC_WIRE_ERROR_INVALID,
            "unexpected %s message from the sender",
            gst_bc_wire_type_get_name (h.type));
        gst_tile_net_send_refuse (fd, GST_BC_WIRE_REFUSE_BAD_MESSAGE,
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
      gst_bc_wire_keepalive_pack (now * 1000, p);
      gst_tile_net_send_packed (fd, p, NULL);
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
    GstBcWireConfig *config;
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
    g_mutex_lock (&self->lock);

    if (config) {
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
      g_mutex_lock (&self->lock);
      self->control_fd = -1;
      gst_tile_net_close (&fd);
      if (self->eos && self->running) {
        /* the sender may close once it has sent EOS */
        g_clear_error (&err);
        break;
      }
    } else {
      retry = !err || err->domain != GST_BC_WIRE_ERROR ||
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
  self->connects = 0;
  self->granted_rcvbuf = 0;
  self->warned_rcvbuf = FALSE;
  gst_tile_latency_reset (&self->latency);
  for (i = 0; i < GST_TILE_SRC_SLOTS; i++)
    memset (&self->slots[i], 0, sizeof (GstTileSrcSlot));
  self->control_thread = g_thread_new ("tilesrc-control", control_thread, self);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
gst_tile_src_stop (GstBaseSrc * bsrc)
{
  GstTileSrc *self = GST_TILE_SRC (bsrc);

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
  min = MAX (min, GST_TILE_SRC_SLOTS + 1);
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

static GstFlowReturn
gst_tile_src_create (GstPushSrc * psrc, GstBuffer ** outbuf)
{
  GstTileSrc *self = GST_TILE_SRC (psrc);
  GstTileSrcSlot *best;
  GstBuffer *buf;
  GstClockTime sender_ts, complete_time, base_time, pts = GST_CLOCK_TIME_NONE;
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
      if (err->domain == GST_BC_WIRE_ERROR)
        GST_ELEMENT_ERROR (self, STREAM, DECODE, ("Bad data from the "
                "sender: %s", err->message), (NULL));
      else
        GST_ELEMENT_ERROR (self, RESOURCE, READ, ("%s", err->message), (NULL));
      g_error_free (err);
      return GST_FLOW_ERROR;
    }

    best = NULL;
    for (i = 0; i < GST_TILE_SRC_SLOTS; i++) {
      GstTileSrcSlot *s = &self->slots[i];

      if (s->state == SLOT_COMPLETE && (!best || s->frame < best->frame))
        best = s;
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
    g_cond_wait (&self->cond, &self->lock);
  }

  buf = best->buffer;
  complete_time = best->complete_time;
  best->buffer = NULL;
  sender_ts = best->sender_ts;
  best->state = SLOT_FREE;
  best->sender_ts = GST_CLOCK_TIME_NONE;
  self->frames_received++;
  if (GST_CLOCK_TIME_IS_VALID (sender_ts)) {
    guint64 rt = gst_tile_realtime_ns ();

    gst_tile_latency_add (&self->latency, rt > sender_ts ? rt - sender_ts : 0);
  }
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);

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
  *outbuf = buf;
  return GST_FLOW_OK;
}
