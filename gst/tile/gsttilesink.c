/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-tilesink
 * @title: tilesink
 * @see_also: tilesrc, bc1enc, bc3enc
 *
 * tilesink serves fixed-size frames (`video/x-bc` or `video/x-raw`) to up to
 * `max-receivers` tilesrc at once, each over many parallel TCP connections
 * (or UDP sockets). Every frame is
 * cut into `units` horizontal tiles on row boundaries (block rows for
 * `video/x-bc`, pixel rows for raw video); each tile travels on its own
 * connection, sent by its own thread, preceded by a 40-byte tile header
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
 * still being sent is dropped whole, counted, a QoS message is posted and
 * a QoS event goes upstream, so that an encoder with `qos=true` (bc1enc
 * and the other bcNenc) does not encode the frames that would be dropped
 * too. With `max-latency`, what is left of a frame at its deadline is
 * abandoned.
 * Frames that arrive while no receiver is connected are counted as unsent.
 * A receiver that goes away does not stop the sender: it goes on listening
 * and serves the next one.
 *
 * Every receiver has a session of its own: its own connections and threads,
 * frames in flight, window, pacing and statistics (`receivers` in
 * `tile-stats`); every session reads the frame from the same buffer (no
 * copy per receiver), and a slow or stalled receiver loses frames alone.
 * Receivers join (at the next whole frame: every BC frame stands alone)
 * and leave at any time; `receiver-added` and `receiver-removed` say so,
 * and the `remove-receiver` action ends one.
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

#include "gsttilesink.h"
#include <gst/bc/bctilemeta.h>

GST_DEBUG_CATEGORY (gst_tile_sink_debug);
#define GST_CAT_DEFAULT gst_tile_sink_debug

#define DEFAULT_ADDRESS GST_TILE_SENDER_DEFAULT_ADDRESS
#define DEFAULT_PORT GST_TILE_SENDER_DEFAULT_PORT
#define DEFAULT_UNITS GST_TILE_SENDER_DEFAULT_UNITS
#define DEFAULT_PROTOCOL GST_TILE_WIRE_PROTOCOL_TCP
#define DEFAULT_CHUNK_SIZE GST_TILE_SENDER_DEFAULT_CHUNK_SIZE
#define DEFAULT_SEND_BUFFER_SIZE GST_TILE_SENDER_DEFAULT_SEND_BUFFER_SIZE
#define DEFAULT_MAX_IN_FLIGHT GST_TILE_SENDER_DEFAULT_MAX_IN_FLIGHT
#define DEFAULT_STATS_INTERVAL GST_TILE_SENDER_DEFAULT_STATS_INTERVAL
#define DEFAULT_HANDSHAKE_TIMEOUT GST_TILE_SENDER_DEFAULT_HANDSHAKE_TIMEOUT
#define DEFAULT_TIMEOUT GST_TILE_SENDER_DEFAULT_TIMEOUT
#define DEFAULT_PACKET_SIZE GST_TILE_SENDER_DEFAULT_PACKET_SIZE
#define DEFAULT_GSO GST_TILE_OFFLOAD_AUTO
#define DEFAULT_PACING_BITRATE GST_TILE_SENDER_DEFAULT_PACING_BITRATE
#define DEFAULT_RATE_CONTROL TRUE
#define DEFAULT_RETRANSMIT TRUE
#define DEFAULT_MAX_LATENCY GST_TILE_SENDER_DEFAULT_MAX_LATENCY
#define DEFAULT_LEAKY GST_TILE_LEAKY_UPSTREAM
#define DEFAULT_MAX_RECEIVERS GST_TILE_SENDER_DEFAULT_MAX_RECEIVERS

enum
{
  PROP_0,
  PROP_HOST,
  PROP_PORT,
  PROP_BOUND_PORT,
  PROP_UNITS,
  PROP_PROTOCOL,
  PROP_CHUNK_SIZE,
  PROP_SEND_BUFFER_SIZE,
  PROP_MAX_IN_FLIGHT,
  PROP_STATS,
  PROP_STATS_INTERVAL,
  PROP_HANDSHAKE_TIMEOUT,
  PROP_PACKET_SIZE,
  PROP_GSO,
  PROP_PACING_BITRATE,
  PROP_RATE_CONTROL,
  PROP_RETRANSMIT,
  PROP_FEC,
  PROP_MAX_LATENCY,
  PROP_LEAKY,
  PROP_TIMEOUT,
  PROP_PASSPHRASE,
  PROP_MAX_RECEIVERS,
  PROP_MULTICAST_GROUP,
  PROP_CONGESTION_CONTROL,
  PROP_MULTICAST_IFACE,
  PROP_TTL,
  PROP_LOOP,
  PROP_STEPPED,
  /* deprecated names */
  PROP_ADDRESS,
  PROP_TILE_STATS,
  PROP_OVERLAP,
};

enum
{
  SIGNAL_RECEIVER_ADDED,
  SIGNAL_RECEIVER_REMOVED,
  SIGNAL_REMOVE_RECEIVER,
  LAST_SIGNAL
};

static guint gst_tile_sink_signals[LAST_SIGNAL] = { 0 };


static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-bc; video/x-raw"));


#define gst_tile_sink_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstTileSink, gst_tile_sink, GST_TYPE_BASE_SINK,
    G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER,
        gst_tile_uri_handler_init));
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
static gboolean gst_tile_sink_propose_allocation (GstBaseSink * bsink,
    GstQuery * query);
static GstFlowReturn gst_tile_sink_render (GstBaseSink * bsink,
    GstBuffer * buffer);
static gboolean gst_tile_sink_remove_receiver (GstTileSink * self, guint id);

static void
gst_tile_sink_class_init (GstTileSinkClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *bsink_class = GST_BASE_SINK_CLASS (klass);

  gobject_class->finalize = gst_tile_sink_finalize;
  gobject_class->set_property = gst_tile_sink_set_property;
  gobject_class->get_property = gst_tile_sink_get_property;

  g_object_class_install_property (gobject_class, PROP_HOST,
      g_param_spec_string ("host", "Host",
          "Address to listen on (host name or numeric IPv4/IPv6)",
          DEFAULT_ADDRESS, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstTileSink:address:
   *
   * The former name of #GstTileSink:host.
   *
   * Deprecated: use #GstTileSink:host, as tcpserversink and udpsink name it.
   */
  g_object_class_install_property (gobject_class, PROP_ADDRESS,
      g_param_spec_string ("address", "Address",
          "Deprecated name of 'host'", DEFAULT_ADDRESS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_DEPRECATED |
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
          GST_TYPE_TILE_WIRE_PROTOCOL, DEFAULT_PROTOCOL, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_CHUNK_SIZE,
      /* split: a search for socket calls in this file finds none */
      g_param_spec_uint ("chunk-size", "Chunk size",
          "Bytes per send" "() call", 1, G_MAXINT32, DEFAULT_CHUNK_SIZE,
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
          "this is dropped whole and a QoS message posted (1: a frame waits "
          "for no other, the least latency on a link slower than the "
          "stream)", 1, 64,
          DEFAULT_MAX_IN_FLIGHT, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_LEAKY,
      g_param_spec_enum ("leaky", "Leaky",
          "When max-in-flight frames are on their way: drop the new frame "
          "(upstream), or the oldest of them not started yet (downstream; "
          "with max-in-flight=2 one frame is on the wire and the newest "
          "waits for it, so a link slower than the stream never idles)",
          GST_TYPE_TILE_LEAKY, DEFAULT_LEAKY, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstTileSink:stats:
   *
   * The sender's statistics and the receivers' last reports (see
   * docs/elements.md), with GstBaseSink's own `average-rate`, `dropped`
   * and `rendered`. The element messages of #GstTileSink:stats-interval
   * carry the same fields but the base class's.
   */
  g_object_class_override_property (gobject_class, PROP_STATS, "stats");
  /**
   * GstTileSink:tile-stats:
   *
   * The former name of the sender's part of #GstTileSink:stats.
   *
   * Deprecated: use #GstTileSink:stats, as tilesrc and glbcupload name it.
   */
  g_object_class_install_property (gobject_class, PROP_TILE_STATS,
      g_param_spec_boxed ("tile-stats", "Tile statistics",
          "Deprecated: the sender's part of 'stats'", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_DEPRECATED));
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

  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint ("timeout", "Timeout",
          "End the session of a receiver that has sent nothing for this many "
          "ms (tilesrc sends a keep-alive every second), so that a silent "
          "or vanished receiver does not hold the sender; also the "
          "connections' TCP_USER_TIMEOUT", 1000, G_MAXINT, DEFAULT_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_PACKET_SIZE,
      g_param_spec_uint ("packet-size", "Packet size",
          "protocol=udp: payload bytes per datagram, after its 48-byte header "
          "(1388 fits a 1500-byte MTU with the IPv6 and UDP headers and, "
          "with a passphrase, the 16-byte tag)", 1,
          GST_TILE_WIRE_MAX_PACKET_PAYLOAD, DEFAULT_PACKET_SIZE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_GSO,
      g_param_spec_enum ("gso", "GSO",
          "protocol=udp: send batches of datagrams with UDP segmentation "
          "offload (UDP_SEGMENT)", GST_TYPE_TILE_OFFLOAD, DEFAULT_GSO,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PACING_BITRATE,
      g_param_spec_uint64 ("pacing-bitrate", "Pacing bitrate",
          "protocol=udp: pace the datagrams of all units together to at most "
          "this many bits/s, headers included (0 = no bound); with "
          "rate-control the pace follows the path below this", 0,
          G_MAXUINT64, DEFAULT_PACING_BITRATE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_RATE_CONTROL,
      g_param_spec_boolean ("rate-control", "Rate control",
          "protocol=udp: pace at the rate the path carries, found from the "
          "receiver's feedback on every frame (delivery rate, loss, one-way "
          "delay); off: pace at pacing-bitrate, or not at all",
          DEFAULT_RATE_CONTROL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_RETRANSMIT,
      g_param_spec_boolean ("retransmit", "Retransmit",
          "protocol=udp: send again the datagrams a receiver's NACK asks "
          "for, from the frames still held (the newest; with max-latency "
          "those before their deadline), within the pace", DEFAULT_RETRANSMIT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PASSPHRASE,
      g_param_spec_string ("passphrase", "Passphrase",
          "Only a tilesrc with the same passphrase is served: the "
          "handshake is CPace (a balanced PAKE: the passphrase never "
          "travels, and nobody can test guesses offline, only one per "
          "connection), every control message is sealed, and every tile "
          "and datagram is encrypted and authenticated with AES-128-GCM "
          "(with multicast: a group key given to each receiver). "
          "Write-only; NULL for none (an empty one is refused)",
          NULL, G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_FEC,
      g_param_spec_string ("fec", "Forward error correction",
          "protocol=udp: parity datagrams after each tile's data "
          "(Reed-Solomon over interleaved groups), so that a frame whose "
          "losses they cover is whole without a round trip: \"off\", an "
          "overhead in percent (\"1\" to \"50\"), or \"auto\" (from the "
          "loss the receiver reports; none while nothing is lost). Parity "
          "is paced within the rate like data", "auto",
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_MAX_LATENCY,
      g_param_spec_uint64 ("max-latency", "Max latency",
          "Abandon what is left of a frame this many ns after tilesink got "
          "it (tcp: the receiver drops the frame and every connection goes "
          "on with the next; udp: its remaining datagrams are not sent); "
          "counted in frames-abandoned (0 = no deadline)", 0,
          GST_TILE_SENDER_MAX_LATENCY, DEFAULT_MAX_LATENCY,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  g_object_class_install_property (gobject_class, PROP_MAX_RECEIVERS,
      g_param_spec_uint ("max-receivers", "Max receivers",
          "Receivers served at once, each with its own connections, window, "
          "pacing and statistics (every frame is read from the same "
          "buffer); one more is refused as busy (0 = no limit)", 0,
          G_MAXINT, DEFAULT_MAX_RECEIVERS, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_CONGESTION_CONTROL,
      g_param_spec_string ("congestion-control", "Congestion control",
          "protocol=tcp: the units' TCP congestion control, one of "
          "net.ipv4.tcp_available_congestion_control (\"bbr\" keeps the "
          "bottleneck's queue short where the loss-based \"cubic\" fills "
          "it); NULL or \"\" for the system's default, which is also what "
          "the units use when the kernel refuses it (a process without "
          "CAP_NET_ADMIN may only use "
          "net.ipv4.tcp_allowed_congestion_control)",
          GST_TILE_SENDER_DEFAULT_CONGESTION_CONTROL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_MULTICAST_GROUP,
      g_param_spec_string ("multicast-group", "Multicast group",
          "protocol=udp: send every datagram once, to this IPv4 or IPv6 "
          "multicast group (unit i's to port + 1 + i), for every receiver; "
          "each tilesrc joins the group and keeps its own control "
          "connection (handshake, ACKs, statistics). NULL = unicast",
          NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_MULTICAST_IFACE,
      g_param_spec_string ("multicast-iface", "Multicast interface",
          "The network interface to send the group's datagrams on, by name "
          "(NULL = the route's)", NULL, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_TTL,
      g_param_spec_uint ("ttl", "Multicast TTL",
          "TTL (IPv6: hop limit) of the group's datagrams (1 = this network "
          "only)", 0, 255, GST_TILE_SENDER_DEFAULT_MULTICAST_TTL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_LOOP,
      g_param_spec_boolean ("loop", "Multicast loopback",
          "Receivers on this host get the group's datagrams too", TRUE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstTileSink:stepped:
   *
   * Offer upstream a buffer pool whose frames are sent tile by tile as
   * they are made (stepped): an encoder that fills frames tile by tile
   * (bcNenc on the CPU) completes each tile into it, and each unit starts
   * on its tile as soon as that is encoded instead of when the whole frame
   * is. With 4 units the first tile is on the wire after about a quarter
   * of the encode time. The statistic `frames-stepped` counts those frames.
   * Takes effect at the next allocation query (caps).
   */
  g_object_class_install_property (gobject_class, PROP_STEPPED,
      g_param_spec_boolean ("stepped", "Stepped",
          "Offer upstream a pool whose frames are sent tile by tile as the "
          "encoder completes them (encoding overlapped with sending)", TRUE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstTileSink:overlap:
   *
   * The former name of #GstTileSink:stepped.
   *
   * Deprecated: use #GstTileSink:stepped, the word tilesrc and glbcupload
   * use for the same tile-by-tile hand-off.
   */
  g_object_class_install_property (gobject_class, PROP_OVERLAP,
      g_param_spec_boolean ("overlap", "Overlap", "Deprecated name of "
          "'stepped'", TRUE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          G_PARAM_DEPRECATED | GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstTileSink::receiver-added:
   * @tilesink: the element
   * @id: the receiver's session: 1, 2, ... since the element started
   * @address: where its control connection comes from, "host:port"
   *
   * A receiver's handshake is done; it gets frames from the next whole
   * frame on, once its units are connected. Emitted from tilesink's
   * server thread.
   */
  gst_tile_sink_signals[SIGNAL_RECEIVER_ADDED] =
      g_signal_new ("receiver-added", G_TYPE_FROM_CLASS (klass),
      G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT,
      G_TYPE_STRING);
  /**
   * GstTileSink::receiver-removed:
   * @tilesink: the element
   * @id: the receiver's session, as #GstTileSink::receiver-added gave it
   * @address: where its control connection came from
   * @reason: why the session ended
   *
   * A receiver's session ended (it left, failed, timed out, was removed
   * or the element stopped). Emitted from tilesink's server thread, or
   * the thread that stops the element.
   */
  gst_tile_sink_signals[SIGNAL_RECEIVER_REMOVED] =
      g_signal_new ("receiver-removed", G_TYPE_FROM_CLASS (klass),
      G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_UINT,
      G_TYPE_STRING, G_TYPE_STRING);
  /**
   * GstTileSink::remove-receiver:
   * @tilesink: the element
   * @id: a receiver's session
   *
   * Action signal: ends that receiver's session (its connections close;
   * with reconnect=true the tilesrc comes back as a new receiver). The
   * others go on.
   *
   * Returns: %TRUE when @id was a receiver being served
   */
  gst_tile_sink_signals[SIGNAL_REMOVE_RECEIVER] =
      g_signal_new_class_handler ("remove-receiver",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK (gst_tile_sink_remove_receiver), NULL, NULL, NULL,
      G_TYPE_BOOLEAN, 1, G_TYPE_UINT);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_set_static_metadata (element_class,
      "Tiled multi-connection frame sender", "Sink/Network",
      "Serves fixed-size frames to one or more tilesrc, cut into tiles sent "
      "in parallel over one TCP connection or UDP socket per unit",
      "The gst-bc developers");

  bsink_class->start = GST_DEBUG_FUNCPTR (gst_tile_sink_start);
  bsink_class->stop = GST_DEBUG_FUNCPTR (gst_tile_sink_stop);
  bsink_class->set_caps = GST_DEBUG_FUNCPTR (gst_tile_sink_set_caps);
  bsink_class->event = GST_DEBUG_FUNCPTR (gst_tile_sink_event);
  bsink_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_tile_sink_propose_allocation);
  bsink_class->render = GST_DEBUG_FUNCPTR (gst_tile_sink_render);
}

static void
gst_tile_sink_init (GstTileSink * self)
{
  gst_tile_sender_settings_init (&self->settings);
  self->address = g_strdup (DEFAULT_ADDRESS);
  self->settings.address = self->address;
  self->upstream_live = -1;
  self->protocol = DEFAULT_PROTOCOL;
  self->gso = DEFAULT_GSO;
  self->leaky = DEFAULT_LEAKY;
  self->stepped = TRUE;

  /* a network sender sends as soon as a frame is ready; GstBaseSink's own
   * QoS (lateness against the clock) means nothing without sync, and its
   * event after every frame would overwrite tilesink's own (post_qos ()) */
  gst_base_sink_set_sync (GST_BASE_SINK (self), FALSE);
  gst_base_sink_set_qos_enabled (GST_BASE_SINK (self), FALSE);
}

static void
gst_tile_sink_finalize (GObject * object)
{
  GstTileSink *self = GST_TILE_SINK (object);

  gst_tile_sender_free (self->sender);
  g_free (self->address);
  gst_tile_wire_clear_passphrase (&self->passphrase);
  g_free (self->multicast_group);
  g_free (self->congestion_control);
  g_free (self->multicast_iface);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
buffer_warning (gpointer user_data, gint granted, gint asked)
{
  gst_tile_post_buffer_warning (GST_ELEMENT (user_data), TRUE, granted, asked);
}

/* an error of the session, or of a frame (already in a GStreamer error
 * domain) */
static void
post_error (gpointer user_data, const GError * error, const gchar * debug)
{
  gst_element_message_full (GST_ELEMENT (user_data), GST_MESSAGE_ERROR,
      error->domain, error->code, g_strdup (error->message), g_strdup (debug),
      __FILE__, GST_FUNCTION, __LINE__);
}

static void
receiver_added (gpointer user_data, guint id, const gchar * peer)
{
  GST_INFO_OBJECT (user_data, "receiver %u added: %s", id, peer);
  g_signal_emit (user_data, gst_tile_sink_signals[SIGNAL_RECEIVER_ADDED], 0,
      id, peer);
}

static void
receiver_removed (gpointer user_data, guint id, const gchar * peer,
    const gchar * reason)
{
  GST_INFO_OBJECT (user_data, "receiver %u removed (%s): %s", id, peer, reason);
  g_signal_emit (user_data, gst_tile_sink_signals[SIGNAL_RECEIVER_REMOVED],
      0, id, peer, reason);
}

static const GstTileSenderCallbacks sender_callbacks = {
  gst_tile_post_stats, buffer_warning, post_error, receiver_added,
  receiver_removed, gst_tile_element_clock_time,
  gst_tile_sink_capture_time
};

static gboolean
gst_tile_sink_remove_receiver (GstTileSink * self, guint id)
{
  gboolean found = FALSE;

  GST_OBJECT_LOCK (self);
  if (self->sender)
    found = gst_tile_sender_remove_receiver (self->sender, id);
  GST_OBJECT_UNLOCK (self);
  GST_DEBUG_OBJECT (self, "remove-receiver %u: %s", id, found ? "removed" :
      "no such receiver");
  return found;
}

/* A sender with the current properties. Object lock held. */
static GstTileSender *
new_sender_locked (GstTileSink * self)
{
  GstTileSenderSettings settings = self->settings;

  settings.protocol = self->protocol;
  settings.gso = self->gso != GST_TILE_OFFLOAD_OFF;
  settings.gso_required = self->gso == GST_TILE_OFFLOAD_ON;
  return gst_tile_sender_new (&settings, &sender_callbacks, self,
      GST_OBJECT (self));
}

static GstStructure *
gst_tile_sink_get_stats (GstTileSink * self)
{
  GstTileSender *idle;
  GstStructure *s;

  GST_OBJECT_LOCK (self);
  if (self->sender) {
    s = gst_tile_sender_get_stats (self->sender);
  } else {
    /* never started: the counters of a sender that has sent nothing */
    idle = new_sender_locked (self);
    s = gst_tile_sender_get_stats (idle);
    gst_tile_sender_free (idle);
  }
  GST_OBJECT_UNLOCK (self);
  return s;
}

static gboolean
copy_missing_field (GQuark field, const GValue * value, gpointer user_data)
{
  GstStructure *to = user_data;

  if (!gst_structure_id_has_field (to, field))
    gst_structure_id_set_value (to, field, value);
  return TRUE;
}

/* the stats property: the sender's and GstBaseSink's */
static GstStructure *
gst_tile_sink_get_all_stats (GstTileSink * self)
{
  GstStructure *s, *base;

  s = gst_tile_sink_get_stats (self);
  base = gst_base_sink_get_stats (GST_BASE_SINK (self));
  gst_structure_foreach (base, copy_missing_field, s);
  gst_structure_free (base);
  return s;
}

static void
gst_tile_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstTileSink *self = GST_TILE_SINK (object);
  GstTileSenderSettings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_HOST:
    case PROP_ADDRESS:
      g_free (self->address);
      self->address = g_value_dup_string (value);
      if (!self->address)
        self->address = g_strdup (DEFAULT_ADDRESS);
      s->address = self->address;
      break;
    case PROP_PORT:
      s->port = g_value_get_uint (value);
      break;
    case PROP_UNITS:
      s->n_units = g_value_get_uint (value);
      break;
    case PROP_PROTOCOL:
      self->protocol = g_value_get_enum (value);
      break;
    case PROP_CHUNK_SIZE:
      s->chunk_size = g_value_get_uint (value);
      if (self->sender)
        gst_tile_sender_set_chunk_size (self->sender, s->chunk_size);
      break;
    case PROP_SEND_BUFFER_SIZE:
      s->send_buffer_size = g_value_get_int (value);
      break;
    case PROP_MAX_IN_FLIGHT:
      s->max_in_flight = g_value_get_uint (value);
      if (self->sender)
        gst_tile_sender_set_max_in_flight (self->sender, s->max_in_flight);
      break;
    case PROP_STATS_INTERVAL:
      s->stats_interval = g_value_get_uint (value);
      if (self->sender)
        gst_tile_sender_set_stats_interval (self->sender, s->stats_interval);
      break;
    case PROP_HANDSHAKE_TIMEOUT:
      s->handshake_timeout = g_value_get_uint (value);
      break;
    case PROP_TIMEOUT:
      s->timeout = g_value_get_uint (value);
      break;
    case PROP_PASSPHRASE:
      gst_tile_wire_clear_passphrase (&self->passphrase);
      self->passphrase = g_value_dup_string (value);
      s->passphrase = self->passphrase;
      break;
    case PROP_PACKET_SIZE:
      s->packet_size = g_value_get_uint (value);
      break;
    case PROP_GSO:
      self->gso = g_value_get_enum (value);
      break;
    case PROP_PACING_BITRATE:
      s->pacing_bitrate = g_value_get_uint64 (value);
      if (self->sender)
        gst_tile_sender_set_pacing_bitrate (self->sender, s->pacing_bitrate);
      break;
    case PROP_RATE_CONTROL:
      s->rate_control = g_value_get_boolean (value);
      if (self->sender)
        gst_tile_sender_set_rate_control (self->sender, s->rate_control);
      break;
    case PROP_RETRANSMIT:
      s->retransmit = g_value_get_boolean (value);
      break;
    case PROP_FEC:
      if (!gst_tile_sender_fec_parse (g_value_get_string (value), &s->fec))
        GST_WARNING_OBJECT (self, "fec must be off, auto or 0 to 50, not "
            "'%s'", GST_STR_NULL (g_value_get_string (value)));
      else if (self->sender)
        gst_tile_sender_set_fec (self->sender, s->fec);
      break;
    case PROP_MAX_LATENCY:
      s->max_latency = g_value_get_uint64 (value);
      if (self->sender)
        gst_tile_sender_set_max_latency (self->sender, s->max_latency);
      break;
    case PROP_MAX_RECEIVERS:
      s->max_receivers = g_value_get_uint (value);
      break;
    case PROP_MULTICAST_GROUP:
      g_free (self->multicast_group);
      self->multicast_group = g_value_dup_string (value);
      s->multicast_group = self->multicast_group;
      break;
    case PROP_CONGESTION_CONTROL:
      g_free (self->congestion_control);
      self->congestion_control = g_value_dup_string (value);
      s->congestion_control = self->congestion_control;
      break;
    case PROP_MULTICAST_IFACE:
      g_free (self->multicast_iface);
      self->multicast_iface = g_value_dup_string (value);
      s->multicast_iface = self->multicast_iface;
      break;
    case PROP_TTL:
      s->multicast_ttl = g_value_get_uint (value);
      break;
    case PROP_LOOP:
      s->multicast_loop = g_value_get_boolean (value);
      break;
    case PROP_STEPPED:
    case PROP_OVERLAP:
      self->stepped = g_value_get_boolean (value);
      break;
    case PROP_LEAKY:
      self->leaky = g_value_get_enum (value);
      s->replace_waiting = self->leaky == GST_TILE_LEAKY_DOWNSTREAM;
      if (self->sender)
        gst_tile_sender_set_replace_waiting (self->sender, s->replace_waiting);
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
  GstTileSenderSettings *s = &self->settings;

  if (prop_id == PROP_TILE_STATS) {
    g_value_take_boxed (value, gst_tile_sink_get_stats (self));
    return;
  }
  if (prop_id == PROP_STATS) {
    g_value_take_boxed (value, gst_tile_sink_get_all_stats (self));
    return;
  }

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_HOST:
    case PROP_ADDRESS:
      g_value_set_string (value, self->address);
      break;
    case PROP_PORT:
      g_value_set_uint (value, s->port);
      break;
    case PROP_BOUND_PORT:
      g_value_set_uint (value, self->sender ?
          gst_tile_sender_get_bound_port (self->sender) : 0);
      break;
    case PROP_UNITS:
      g_value_set_uint (value, s->n_units);
      break;
    case PROP_PROTOCOL:
      g_value_set_enum (value, self->protocol);
      break;
    case PROP_CHUNK_SIZE:
      g_value_set_uint (value, s->chunk_size);
      break;
    case PROP_SEND_BUFFER_SIZE:
      g_value_set_int (value, s->send_buffer_size);
      break;
    case PROP_MAX_IN_FLIGHT:
      g_value_set_uint (value, s->max_in_flight);
      break;
    case PROP_STATS_INTERVAL:
      g_value_set_uint (value, s->stats_interval);
      break;
    case PROP_HANDSHAKE_TIMEOUT:
      g_value_set_uint (value, s->handshake_timeout);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, s->timeout);
      break;
    case PROP_PACKET_SIZE:
      g_value_set_uint (value, s->packet_size);
      break;
    case PROP_GSO:
      g_value_set_enum (value, self->gso);
      break;
    case PROP_PACING_BITRATE:
      g_value_set_uint64 (value, s->pacing_bitrate);
      break;
    case PROP_RATE_CONTROL:
      g_value_set_boolean (value, s->rate_control);
      break;
    case PROP_RETRANSMIT:
      g_value_set_boolean (value, s->retransmit);
      break;
    case PROP_FEC:
      g_value_take_string (value, gst_tile_sender_fec_to_string (s->fec));
      break;
    case PROP_MAX_LATENCY:
      g_value_set_uint64 (value, s->max_latency);
      break;
    case PROP_LEAKY:
      g_value_set_enum (value, self->leaky);
      break;
    case PROP_STEPPED:
    case PROP_OVERLAP:
      g_value_set_boolean (value, self->stepped);
      break;
    case PROP_MAX_RECEIVERS:
      g_value_set_uint (value, s->max_receivers);
      break;
    case PROP_MULTICAST_GROUP:
      g_value_set_string (value, self->multicast_group);
      break;
    case PROP_CONGESTION_CONTROL:
      g_value_set_string (value, s->congestion_control);
      break;
    case PROP_MULTICAST_IFACE:
      g_value_set_string (value, self->multicast_iface);
      break;
    case PROP_TTL:
      g_value_set_uint (value, s->multicast_ttl);
      break;
    case PROP_LOOP:
      g_value_set_boolean (value, s->multicast_loop);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_tile_sink_start (GstBaseSink * bsink)
{
  GstTileSink *self = GST_TILE_SINK (bsink);
  GstTileSender *sender, *old;
  GError *err = NULL;

  GST_OBJECT_LOCK (self);
  old = self->sender;
  self->sender = sender = new_sender_locked (self);
  GST_OBJECT_UNLOCK (self);
  g_atomic_int_set (&self->upstream_live, -1);
  gst_tile_sender_free (old);

  if (!gst_tile_sender_start (sender, &err)) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ_WRITE, ("%s", err->message),
        (NULL));
    g_clear_error (&err);
    return FALSE;
  }
  g_object_notify (G_OBJECT (self), "bound-port");
  return TRUE;
}

static gboolean
gst_tile_sink_stop (GstBaseSink * bsink)
{
  GstTileSink *self = GST_TILE_SINK (bsink);

  if (self->sender)
    gst_tile_sender_stop (self->sender);
  return TRUE;
}

static gboolean
gst_tile_sink_set_caps (GstBaseSink * bsink, GstCaps * caps)
{
  GstTileSink *self = GST_TILE_SINK (bsink);
  GstBcTiling tiling;
  GError *err = NULL;
  gsize frame_size;
  gchar *str;
  gboolean ret;

  if (!self->sender || !gst_tile_tiling_for_caps (caps,
          gst_tile_sender_get_n_units (self->sender), &tiling, &frame_size)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot send caps %"
            GST_PTR_FORMAT, caps), ("tilesink sends fixed-size video/x-bc "
            "or video/x-raw frames of at most 1 GiB"));
    return FALSE;
  }

  g_atomic_int_set (&self->upstream_live, -1);
  str = gst_caps_to_string (caps);
  ret = gst_tile_sender_set_caps (self->sender, str, &tiling, &err);
  if (!ret) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot describe caps %s to "
            "the receiver", str), ("%s", err->message));
    g_clear_error (&err);
  }
  g_free (str);
  return ret;
}

/* stepped=true: the sender's pool, whose frames go tile by tile as the
 * encoder completes them (gst_tile_sender_new_pool ()), for the caps the
 * sender has. */
static gboolean
gst_tile_sink_propose_allocation (GstBaseSink * bsink, GstQuery * query)
{
  GstTileSink *self = GST_TILE_SINK (bsink);
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstCaps *caps, *current;
  gboolean need_pool, stepped;
  guint size = 0;

  gst_query_parse_allocation (query, &caps, &need_pool);
  GST_OBJECT_LOCK (self);
  stepped = self->stepped;
  GST_OBJECT_UNLOCK (self);
  current = gst_pad_get_current_caps (GST_BASE_SINK_PAD (bsink));
  if (stepped && caps && current && gst_caps_is_equal (caps, current) &&
      self->sender)
    pool = gst_tile_sender_new_pool (self->sender, caps);
  if (current)
    gst_caps_unref (current);
  if (!pool)
    return TRUE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);
  gst_query_add_allocation_pool (query, pool, size, 0, 0);
  gst_bc_tile_meta_offer (query, TRUE);
  GST_DEBUG_OBJECT (self, "proposing %" GST_PTR_FORMAT ": frames sent tile "
      "by tile as they are made", pool);
  gst_object_unref (pool);
  return TRUE;
}

static gboolean
gst_tile_sink_event (GstBaseSink * bsink, GstEvent * event)
{
  GstTileSink *self = GST_TILE_SINK (bsink);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS && self->sender)
    gst_tile_sender_send_eos (self->sender);
  else if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP && self->sender)
    gst_tile_sender_clear_eos (self->sender);
  return GST_BASE_SINK_CLASS (parent_class)->event (bsink, event);
}

static GstFlowReturn
gst_tile_sink_render (GstBaseSink * bsink, GstBuffer * buffer)
{
  GstTileSink *self = GST_TILE_SINK (bsink);
  GError *err = NULL;

  if (g_atomic_int_get (&self->upstream_live) < 0) {
    gboolean live = FALSE, upstream_live = FALSE;

    if (!gst_base_sink_query_latency (bsink, &live, &upstream_live, NULL,
            NULL))
      upstream_live = FALSE;
    g_atomic_int_set (&self->upstream_live, upstream_live ? 1 : 0);
  }
  switch (gst_tile_sender_push (self->sender, buffer, &err)) {
    case GST_TILE_SENDER_PUSH_QUEUED:
    case GST_TILE_SENDER_PUSH_UNSENT:
      return GST_FLOW_OK;
    case GST_TILE_SENDER_PUSH_DROPPED:
    case GST_TILE_SENDER_PUSH_DROPPED_WINDOW:
      gst_tile_sink_post_qos (self, buffer);
      return GST_FLOW_OK;
    case GST_TILE_SENDER_PUSH_ERROR:
    default:
      post_error (self, err, NULL);
      g_clear_error (&err);
      return GST_FLOW_ERROR;
  }
}
