/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
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
 * With `stepped=true` (the default) and a pool whose buffers carry a
 * #GstBcTileMeta, tilesrc reports each tile complete the moment its last
 * byte is in, so the consumer can start using it while the other tiles are
 * still arriving. The frame is pushed when its last tile lands.
 *
 * tilesrc is a live source on the sender's time: it provides its pipeline
 * a clock that follows the sender's pipeline clock (#GstTileSrc:clock),
 * timestamps every frame with its capture time on that clock, in running
 * time, and reports a latency (#GstTileSrc:latency, automatic by default):
 * a sink with sync=true presents every frame that long after its capture,
 * at the camera's cadence, and every receiver of a sender at the same
 * instant. Frames also carry the sender's wall-clock time (when the sender
 * got the frame) as a #GstReferenceTimestampMeta with caps
 * `timestamp/x-unix`; the `stats` property has the delivery latency's
 * percentiles. Caps changes and EOS of the sender are followed.
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
#include <gst/net/net.h>

#include <string.h>

GST_DEBUG_CATEGORY (gst_tile_src_debug);
#define GST_CAT_DEFAULT gst_tile_src_debug

#define DEFAULT_HOST "127.0.0.1"
#define DEFAULT_PORT 7000
#define DEFAULT_RECEIVE_BUFFER_SIZE (16 << 20)
#define DEFAULT_TIMEOUT 5000
#define DEFAULT_STEPPED TRUE
#define DEFAULT_RECONNECT FALSE
#define DEFAULT_STATS_INTERVAL 1000
#define DEFAULT_TIMER_FACTOR 1.5
#define DEFAULT_GRO GST_TILE_OFFLOAD_AUTO
#define DEFAULT_CLOCK GST_TILE_CLOCK_SENDER
#define DEFAULT_PTP_DOMAIN 0
#define DEFAULT_LATENCY -1
#define DEFAULT_DROP_LATE FALSE
#define DEFAULT_RETRANSMIT TRUE
#define DEFAULT_REDUNDANT FALSE
/* 256 MiB: an 8K RGBA frame (133 MB) fits, a hostile sender's 1 GiB does
 * not */
#define DEFAULT_MAX_FRAME_SIZE (G_GUINT64_CONSTANT (256) << 20)


enum
{
  PROP_0,
  PROP_HOST,
  PROP_PORT,
  PROP_RECEIVE_BUFFER_SIZE,
  PROP_TIMEOUT,
  PROP_STEPPED,
  PROP_RECONNECT,
  PROP_STATS,
  PROP_STATS_INTERVAL,
  PROP_TIMER_FACTOR,
  PROP_GRO,
  PROP_MAX_FRAME_SIZE,
  PROP_PASSPHRASE,
  PROP_MULTICAST_IFACE,
  PROP_CLOCK,
  PROP_PTP_DOMAIN,
  PROP_LATENCY,
  PROP_DROP_LATE,
  PROP_RETRANSMIT,
  PROP_REDUNDANT,
  PROP_REGION,
  /* deprecated names */
  PROP_FLUSH,
  PROP_GSO,
};

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-bc; video/x-raw"));



#define gst_tile_src_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstTileSrc, gst_tile_src, GST_TYPE_PUSH_SRC,
    G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER,
        gst_tile_uri_handler_init));
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
static const GstTileReceiverCallbacks receiver_callbacks;

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
          "Host name or address of the tilesink; several, comma-separated "
          "(IPv6 in brackets), for one path each: the units are spread over "
          "them, and over TCP each frame's rows by the paths' speeds (a path "
          "that fails gives its rows to the others)", DEFAULT_HOST,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PORT,
      g_param_spec_uint ("port", "Port", "Control port of the tilesink", 1,
          65535, DEFAULT_PORT, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PASSPHRASE,
      g_param_spec_string ("passphrase", "Passphrase",
          "The tilesink's passphrase: both sides prove they know it "
          "(CPace; it never travels), every control message is sealed, and "
          "every tile and datagram is encrypted and authenticated with "
          "AES-128-GCM; a wrong or missing one, or a control message "
          "changed on the way, is an error (RESOURCE/NOT_AUTHORIZED). "
          "Write-only; NULL for none (an empty one is refused)", NULL, G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_MULTICAST_IFACE,
      g_param_spec_string ("multicast-iface", "Multicast interface",
          "When the tilesink sends to a multicast group (its "
          "multicast-group): the network interface to join the group on, "
          "by name (NULL = the route's)", NULL, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
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
  g_object_class_install_property (gobject_class, PROP_STEPPED,
      g_param_spec_boolean ("stepped", "Stepped",
          "Report each tile complete, as it lands, to a downstream pool that "
          "attaches GstBcTileMeta (FALSE: report nothing before the frame "
          "is pushed)", DEFAULT_STEPPED, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstTileSrc:flush:
   *
   * The former form of #GstTileSrc:stepped: `stepped` is stepped=true,
   * `frame` is stepped=false.
   *
   * Deprecated: use #GstTileSrc:stepped, the word tilesink and glbcupload
   * use for the same tile-by-tile hand-off.
   */
  g_object_class_install_property (gobject_class, PROP_FLUSH,
      g_param_spec_enum ("flush", "Flush", "Deprecated form of 'stepped'",
          GST_TYPE_TILE_FLUSH, GST_TILE_FLUSH_STEPPED, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | G_PARAM_DEPRECATED |
          GST_PARAM_MUTABLE_PLAYING));
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
  g_object_class_install_property (gobject_class, PROP_GRO,
      g_param_spec_enum ("gro", "GRO",
          "protocol=udp: receive batches of datagrams coalesced by UDP "
          "generic receive offload (UDP_GRO)", GST_TYPE_TILE_OFFLOAD,
          DEFAULT_GRO, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstTileSrc:gso:
   *
   * The former name of #GstTileSrc:gro.
   *
   * Deprecated: use #GstTileSrc:gro (the receiver's offload is GRO,
   * tilesink's is GSO).
   */
  g_object_class_install_property (gobject_class, PROP_GSO,
      g_param_spec_enum ("gso", "GRO", "Deprecated name of 'gro'",
          GST_TYPE_TILE_OFFLOAD, DEFAULT_GRO, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | G_PARAM_DEPRECATED |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstTileSrc:clock:
   *
   * The clock tilesrc provides to its pipeline (a live source upstream of
   * everything else, so the pipeline picks it): the sender's pipeline
   * clock (`sender`, followed over the control connection: TIME queries
   * and GStreamer's clock regression, see `clock-*` in the statistics), a
   * PTP clock (`ptp`), this host's realtime clock (`system`), or none.
   */
  g_object_class_install_property (gobject_class, PROP_CLOCK,
      g_param_spec_enum ("clock", "Clock",
          "The clock to provide to the pipeline: the sender's, PTP, this "
          "host's realtime clock, or none", GST_TYPE_TILE_CLOCK,
          DEFAULT_CLOCK, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PTP_DOMAIN,
      g_param_spec_uint ("ptp-domain", "PTP domain",
          "clock=ptp: the PTP domain", 0, 255, DEFAULT_PTP_DOMAIN,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstTileSrc:latency:
   *
   * The playout latency, as rtpjitterbuffer's and srtsrc's: every frame
   * is presented this long after its capture (its timestamp is the
   * capture; the LATENCY query reports this), by a sink with sync=true.
   * -1 (the default) chooses it from the delays the frames arrive with:
   * half as much again as the longest, plus 2 ms, raised at once by a
   * frame that comes too late for it (a LATENCY message: the pipeline
   * takes the new value, as gst-launch-1.0 does), lowered when 10 s of
   * frames allow a quarter less. A sink's own processing-deadline adds
   * to it. Needs a clock (clock=sender, ptp or system).
   */
  g_object_class_install_property (gobject_class, PROP_LATENCY,
      g_param_spec_int ("latency", "Latency",
          "Milliseconds from a frame's capture to its presentation "
          "(-1 = chosen from the measured delivery delays)", -1, 10000,
          DEFAULT_LATENCY, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DROP_LATE,
      g_param_spec_boolean ("drop-late", "Drop late",
          "Drop the frames complete only after their presentation time "
          "(counted in frames-late and frames-dropped-late) instead of "
          "pushing them", DEFAULT_DROP_LATE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_RETRANSMIT,
      g_param_spec_boolean ("retransmit", "Retransmit",
          "protocol=udp: ask the sender (NACK) for the datagrams that did "
          "not arrive, and hold a frame with gaps a round trip longer for "
          "them (counted in nacks-sent and frames-recovered)",
          DEFAULT_RETRANSMIT, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_REDUNDANT,
      g_param_spec_boolean ("redundant", "Redundant",
          "With several addresses in host: every datagram (UDP) or tile "
          "(TCP: each unit has a connection on each path) comes over each "
          "path and the first copy is kept, so a path that fails costs no "
          "frame (instead of balanced tiles; needs two addresses or more)",
          DEFAULT_REDUNDANT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  /* (gsttilesrc-region.c) */
  g_object_class_install_property (gobject_class, PROP_REGION,
      g_param_spec_string ("region", "Region",
          "\"x,y,width,height\" in pixels: receive and output that part of "
          "the sender's frames only (aligned to 4x4 blocks for video/x-bc, "
          "to the chroma subsampling for video/x-raw); NULL: the whole "
          "frame", NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_MAX_FRAME_SIZE,
      g_param_spec_uint64 ("max-frame-size", "Max frame size",
          "Refuse a sender whose frames are larger than this many bytes "
          "(the wire allows 1 GiB)", 1, GST_TILE_WIRE_MAX_FRAME_SIZE,
          DEFAULT_MAX_FRAME_SIZE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Tiled multi-connection frame receiver", "Source/Network",
      "Receives the frames of a tilesink, one TCP connection and thread per "
      "tile, straight into the output buffer",
      "The gst-bc developers");

  element_class->provide_clock = GST_DEBUG_FUNCPTR
      (gst_tile_src_provide_clock);
  element_class->change_state = GST_DEBUG_FUNCPTR (gst_tile_src_change_state);
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
  self->host = g_strdup (DEFAULT_HOST);
  self->port = DEFAULT_PORT;
  self->receive_buffer_size = DEFAULT_RECEIVE_BUFFER_SIZE;
  self->timeout = DEFAULT_TIMEOUT;
  self->stepped = DEFAULT_STEPPED;
  self->reconnect = DEFAULT_RECONNECT;
  self->stats_interval = DEFAULT_STATS_INTERVAL;
  self->timer_factor = DEFAULT_TIMER_FACTOR;
  self->gro = DEFAULT_GRO;
  self->clock_mode = DEFAULT_CLOCK;
  self->ptp_domain = DEFAULT_PTP_DOMAIN;
  self->latency = DEFAULT_LATENCY;
  self->drop_late = DEFAULT_DROP_LATE;
  self->retransmit = DEFAULT_RETRANSMIT;
  self->redundant = DEFAULT_REDUNDANT;
  gst_tile_src_queue_init (self);
  GST_OBJECT_FLAG_SET (self, GST_ELEMENT_FLAG_PROVIDE_CLOCK);
  self->max_frame_size = DEFAULT_MAX_FRAME_SIZE;
  self->duration = GST_CLOCK_TIME_NONE;
  self->rx = gst_tile_receiver_new (&receiver_callbacks, self,
      GST_OBJECT (self));
  gst_tile_receiver_set_stepped (self->rx, DEFAULT_STEPPED);
  gst_tile_receiver_set_reconnect (self->rx, DEFAULT_RECONNECT);
  gst_tile_receiver_set_stats_interval (self->rx, DEFAULT_STATS_INTERVAL);
  gst_tile_receiver_set_timer_factor (self->rx, DEFAULT_TIMER_FACTOR);
  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}

static void
gst_tile_src_finalize (GObject * object)
{
  GstTileSrc *self = GST_TILE_SRC (object);

  g_free (self->host);
  gst_tile_wire_clear_passphrase (&self->passphrase);
  g_free (self->multicast_iface);
  gst_caps_replace (&self->caps, NULL);
  gst_clear_object (&self->clock);
  gst_tile_src_region_stop (self);
  gst_tile_receiver_free (self->rx);
  gst_tile_src_queue_clear (self);
  G_OBJECT_CLASS (parent_class)->finalize (object);
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
    case PROP_MULTICAST_IFACE:
      g_free (self->multicast_iface);
      self->multicast_iface = g_value_dup_string (value);
      break;
    case PROP_PASSPHRASE:
      gst_tile_wire_clear_passphrase (&self->passphrase);
      self->passphrase = g_value_dup_string (value);
      break;
    case PROP_RECEIVE_BUFFER_SIZE:
      self->receive_buffer_size = g_value_get_int (value);
      break;
    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint (value);
      break;
    case PROP_STEPPED:
      self->stepped = g_value_get_boolean (value);
      break;
    case PROP_FLUSH:
      self->stepped = g_value_get_enum (value) == GST_TILE_FLUSH_STEPPED;
      break;
    case PROP_RECONNECT:
      self->reconnect = g_value_get_boolean (value);
      break;
    case PROP_STATS_INTERVAL:
      self->stats_interval = g_value_get_uint (value);
      break;
    case PROP_TIMER_FACTOR:
      self->timer_factor = g_value_get_double (value);
      break;
    case PROP_GRO:
    case PROP_GSO:
      self->gro = g_value_get_enum (value);
      break;
    case PROP_MAX_FRAME_SIZE:
      self->max_frame_size = g_value_get_uint64 (value);
      break;
    case PROP_CLOCK:
      self->clock_mode = g_value_get_enum (value);
      gst_clear_object (&self->clock);
      if (self->clock_mode == GST_TILE_CLOCK_NONE)
        GST_OBJECT_FLAG_UNSET (self, GST_ELEMENT_FLAG_PROVIDE_CLOCK);
      else
        GST_OBJECT_FLAG_SET (self, GST_ELEMENT_FLAG_PROVIDE_CLOCK);
      break;
    case PROP_PTP_DOMAIN:
      self->ptp_domain = g_value_get_uint (value);
      if (self->clock_mode == GST_TILE_CLOCK_PTP)
        gst_clear_object (&self->clock);
      break;
    case PROP_LATENCY:
      self->latency = g_value_get_int (value);
      break;
    case PROP_DROP_LATE:
      self->drop_late = g_value_get_boolean (value);
      break;
    case PROP_RETRANSMIT:
      self->retransmit = g_value_get_boolean (value);
      break;
    case PROP_REDUNDANT:
      self->redundant = g_value_get_boolean (value);
      break;
    case PROP_REGION:
      gst_tile_src_region_set (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  /* what may change while receiving (outside the object lock: the
   * receiver takes it, through the clock, under its own lock) */
  switch (prop_id) {
    case PROP_STEPPED:
      gst_tile_receiver_set_stepped (self->rx, g_value_get_boolean (value));
      break;
    case PROP_FLUSH:
      gst_tile_receiver_set_stepped (self->rx,
          g_value_get_enum (value) == GST_TILE_FLUSH_STEPPED);
      break;
    case PROP_RECONNECT:
      gst_tile_receiver_set_reconnect (self->rx, g_value_get_boolean (value));
      break;
    case PROP_STATS_INTERVAL:
      gst_tile_receiver_set_stats_interval (self->rx, g_value_get_uint (value));
      break;
    case PROP_TIMER_FACTOR:
      gst_tile_receiver_set_timer_factor (self->rx, g_value_get_double (value));
      break;
    default:
      break;
  }
}

static void
gst_tile_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstTileSrc *self = GST_TILE_SRC (object);

  if (prop_id == PROP_STATS) {
    g_value_take_boxed (value, gst_tile_receiver_get_stats (self->rx));
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
    case PROP_MULTICAST_IFACE:
      g_value_set_string (value, self->multicast_iface);
      break;
    case PROP_RECEIVE_BUFFER_SIZE:
      g_value_set_int (value, self->receive_buffer_size);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
      break;
    case PROP_STEPPED:
      g_value_set_boolean (value, self->stepped);
      break;
    case PROP_FLUSH:
      g_value_set_enum (value, self->stepped ? GST_TILE_FLUSH_STEPPED :
          GST_TILE_FLUSH_FRAME);
      break;
    case PROP_RECONNECT:
      g_value_set_boolean (value, self->reconnect);
      break;
    case PROP_STATS_INTERVAL:
      g_value_set_uint (value, self->stats_interval);
      break;
    case PROP_TIMER_FACTOR:
      g_value_set_double (value, self->timer_factor);
      break;
    case PROP_GRO:
    case PROP_GSO:
      g_value_set_enum (value, self->gro);
      break;
    case PROP_MAX_FRAME_SIZE:
      g_value_set_uint64 (value, self->max_frame_size);
      break;
    case PROP_CLOCK:
      g_value_set_enum (value, self->clock_mode);
      break;
    case PROP_PTP_DOMAIN:
      g_value_set_uint (value, self->ptp_domain);
      break;
    case PROP_LATENCY:
      g_value_set_int (value, self->latency);
      break;
    case PROP_DROP_LATE:
      g_value_set_boolean (value, self->drop_late);
      break;
    case PROP_RETRANSMIT:
      g_value_set_boolean (value, self->retransmit);
      break;
    case PROP_REDUNDANT:
      g_value_set_boolean (value, self->redundant);
      break;
    case PROP_REGION:
      g_value_take_string (value, gst_tile_src_region_get (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* ---- what the receiver session asks of the element ---- */

static GstBuffer *
acquire_buffer (gpointer user_data)
{
  GstTileSrc *self = user_data;
  GstBufferPool *pool;
  GstBuffer *buf = NULL;

  if (gst_tile_src_region_acquire (self, &buf))
    return buf;
  pool = gst_base_src_get_buffer_pool (GST_BASE_SRC (self));
  if (pool) {
    if (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) != GST_FLOW_OK)
      buf = NULL;
    gst_object_unref (pool);
  }
  return buf;
}

/* The sender's caps must describe its frames. */
static gboolean
check_config (gpointer user_data, const GstTileWireConfig * config,
    GError ** error)
{
  GstTileSrc *self = GST_TILE_SRC (user_data);
  GstBcTiling tiling;
  GstCaps *caps;
  gsize size = 0;
  guint64 max;
  gboolean ok;

  GST_OBJECT_LOCK (self);
  max = self->max_frame_size;
  GST_OBJECT_UNLOCK (self);
  if (config->frame_size > max) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_OVERSIZED,
        "the sender's frames are %" G_GUINT64_FORMAT " bytes (caps \"%s\"), "
        "more than max-frame-size (%" G_GUINT64_FORMAT ")", config->frame_size,
        config->caps, max);
    return FALSE;
  }
  caps = gst_caps_from_string (config->caps);
  ok = caps && gst_tile_tiling_for_caps (caps, config->n_units, &tiling,
      &size) && size == config->frame_size;

  if (!ok)
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "the sender's caps \"%s\" do not describe its %" G_GUINT64_FORMAT
        " byte frames", config->caps, config->frame_size);
  if (caps)
    gst_caps_unref (caps);
  return ok;
}

static void
buffer_warning (gpointer user_data, gint granted, gint asked)
{
  gst_tile_post_buffer_warning (GST_ELEMENT (user_data), FALSE, granted, asked);
}

static const GstTileReceiverCallbacks receiver_callbacks = {
  acquire_buffer, gst_tile_element_clock_time, check_config,
  gst_tile_post_stats, buffer_warning, gst_tile_src_clock_replaced
};

/* ---- GstBaseSrc ---- */

static gboolean
gst_tile_src_start (GstBaseSrc * bsrc)
{
  GstTileSrc *self = GST_TILE_SRC (bsrc);
  GstTileReceiverSettings settings;
  gchar *host, *passphrase, *iface;

  GST_OBJECT_LOCK (self);
  settings.host = host = g_strdup (self->host);
  settings.multicast_iface = iface = g_strdup (self->multicast_iface);
  settings.passphrase = passphrase = g_strdup (self->passphrase);
  settings.port = self->port;
  settings.timeout_ms = self->timeout;
  settings.receive_buffer_size = self->receive_buffer_size;
  settings.gro = self->gro != GST_TILE_OFFLOAD_OFF;
  settings.gro_required = self->gro == GST_TILE_OFFLOAD_ON;
  settings.retransmit = self->retransmit;
  settings.redundant = self->redundant;
  self->duration = GST_CLOCK_TIME_NONE;
  GST_OBJECT_UNLOCK (self);
  gst_tile_src_region_start (self);
  gst_tile_src_time_settings (self, &settings);
  gst_tile_receiver_start (self->rx, &settings);
  gst_tile_src_queue_start (self);
  gst_clear_object (&settings.clock);
  g_free (host);
  g_free (iface);
  gst_tile_wire_clear_passphrase (&passphrase);
  return TRUE;
}

static gboolean
gst_tile_src_stop (GstBaseSrc * bsrc)
{
  GstTileSrc *self = GST_TILE_SRC (bsrc);

  /* the playout thread leaves the receiver's pull () first */
  gst_tile_receiver_set_flushing (self->rx, TRUE);
  gst_tile_src_queue_stop (self);
  gst_tile_receiver_stop (self->rx);
  gst_tile_src_region_stop (self);
  GST_OBJECT_LOCK (self);
  gst_caps_replace (&self->caps, NULL);
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
gst_tile_src_unlock (GstBaseSrc * bsrc)
{
  gst_tile_src_queue_set_flushing (GST_TILE_SRC (bsrc), TRUE);
  gst_tile_receiver_set_flushing (GST_TILE_SRC (bsrc)->rx, TRUE);
  return TRUE;
}

static gboolean
gst_tile_src_unlock_stop (GstBaseSrc * bsrc)
{
  gst_tile_receiver_set_flushing (GST_TILE_SRC (bsrc)->rx, FALSE);
  gst_tile_src_queue_set_flushing (GST_TILE_SRC (bsrc), FALSE);
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

  GST_OBJECT_LOCK (self);
  if (self->caps)
    caps = gst_caps_ref (self->caps);
  GST_OBJECT_UNLOCK (self);
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
    GstClockTime duration, latency;

    GST_OBJECT_LOCK (self);
    duration = self->duration;
    GST_OBJECT_UNLOCK (self);
    /* frames are timestamped with their capture and presented the
     * playout latency later (without a clock, when their last byte is in:
     * no latency of our own); the playout queue holds what waits */
    latency = gst_tile_receiver_get_latency (self->rx);
    if (!GST_CLOCK_TIME_IS_VALID (latency))
      latency = 0;
    gst_query_set_latency (query, TRUE, latency, GST_CLOCK_TIME_NONE);
    GST_DEBUG_OBJECT (self, "latency %" GST_TIME_FORMAT " (frames of %"
        GST_TIME_FORMAT ")", GST_TIME_ARGS (latency), GST_TIME_ARGS (duration));
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
  min = MAX (min, GST_TILE_SRC_FRAMES_HELD + 2);
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

/* Negotiates the caps of the sender's new CONFIG when they differ. */
static GstFlowReturn
renegotiate (GstTileSrc * self, const gchar * caps_str,
    GstClockTime * frame_duration)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstClockTime duration = GST_CLOCK_TIME_NONE;
  GstStructure *s;
  gint n, d;

  /* with a region: the region's caps, or an error */
  if (!gst_tile_src_region_negotiate (self, &caps)) {
    gst_caps_unref (caps);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  s = gst_caps_get_structure (caps, 0);
  if (gst_structure_get_fraction (s, "framerate", &n, &d) && n > 0 && d > 0)
    duration = gst_util_uint64_scale_int (GST_SECOND, d, n);

  GST_OBJECT_LOCK (self);
  *frame_duration = self->duration;
  if (self->caps && gst_caps_is_equal (self->caps, caps)) {
    GST_OBJECT_UNLOCK (self);
    gst_caps_unref (caps);
    return GST_FLOW_OK;
  }
  gst_caps_replace (&self->caps, caps);
  self->duration = duration;
  *frame_duration = duration;
  GST_OBJECT_UNLOCK (self);
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
  GstClockTime duration;
  GstFlowReturn ret;
  GError *err = NULL;
  gchar *caps = NULL;

  while (TRUE) {
    switch (gst_tile_src_queue_pop (self, outbuf, &caps, &err)) {
      case GST_TILE_RECEIVER_FRAME:
        return GST_FLOW_OK;
      case GST_TILE_RECEIVER_NEW_CAPS:
        ret = renegotiate (self, caps, &duration);
        g_free (caps);
        if (ret != GST_FLOW_OK)
          return ret;
        gst_tile_receiver_start_generation (self->rx, duration);
        gst_tile_src_queue_resume (self);
        break;
      case GST_TILE_RECEIVER_EOS:
        return GST_FLOW_EOS;
      case GST_TILE_RECEIVER_FLUSHING:
        return GST_FLOW_FLUSHING;
      case GST_TILE_RECEIVER_ERROR:
        if (!err)               /* posted where it happened */
          return GST_FLOW_ERROR;
        if (g_error_matches (err, GST_TILE_WIRE_ERROR,
                GST_TILE_WIRE_ERROR_BUSY))
          GST_ELEMENT_ERROR (self, RESOURCE, BUSY, ("The sender at %s:%u "
                  "serves another receiver (set reconnect=true to wait for "
                  "it)", self->host, self->port), ("%s", err->message));
        else if (g_error_matches (err, GST_TILE_WIRE_ERROR,
                GST_TILE_WIRE_ERROR_UNAUTHORIZED))
          GST_ELEMENT_ERROR (self, RESOURCE, NOT_AUTHORIZED, ("The "
                  "sender at %s:%u could not be authenticated: a wrong or "
                  "missing passphrase, or a control message changed on the "
                  "way", self->host, self->port), ("%s", err->message));
        else if (g_error_matches (err, GST_TILE_WIRE_ERROR,
                GST_TILE_WIRE_ERROR_TAMPERED))
          GST_ELEMENT_ERROR (self, STREAM, DECRYPT, ("Data from the sender "
                  "failed authentication: someone on the path changed it"),
              ("%s", err->message));
        else if (g_error_matches (err, GST_TILE_WIRE_ERROR,
                GST_TILE_WIRE_ERROR_REFUSED))
          GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ, ("%s",
                  err->message), (NULL));
        else if (err->domain == GST_TILE_WIRE_ERROR)
          GST_ELEMENT_ERROR (self, STREAM, DECODE, ("Bad data from the "
                  "sender: %s", err->message), (NULL));
        else
          GST_ELEMENT_ERROR (self, RESOURCE, READ, ("%s", err->message),
              (NULL));
        g_error_free (err);
        return GST_FLOW_ERROR;
    }
  }
}
