/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GstTileSender without a pipeline: a sender on 127.0.0.1 (a free port)
 * and a receiver written here with tilewire and tilenet, which checks the
 * handshake, the tiles (TCP) and the datagrams (UDP) byte by byte, the
 * refusals, the handshake timeout, EOS and the frames dropped whole. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <gst/check/gstcheck.h>
#include <gst/bc/bc.h>

#include <gst/tile/tilenet.h>
#include <gst/tile/tilesender.h>
#include <gst/tile/tilefec.h>

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gstbctest.h"

/* every wait of the receiver is bounded by this */
#define WAIT_MS 2000

typedef struct
{
  GstTileSender *sender;
  guint port;
  GAsyncQueue *messages;        /* what the callbacks were called with */
  GAsyncQueue *receivers;       /* receiver_added/removed: "+id peer",
                                 * "-id peer: reason" */
  gint stats_calls;
} Tx;

typedef struct
{
  gint control;
  GstTileWireConfig config;
  gint units[GST_TILE_WIRE_MAX_UNITS];
} Rx;

static void
post_stats (gpointer user_data, GstStructure * stats)
{
  Tx *tx = user_data;

  fail_unless (gst_structure_has_name (stats, "tilesink-stats"));
  g_atomic_int_inc (&tx->stats_calls);
  gst_structure_free (stats);
}

static void
buffer_warning (gpointer user_data, gint granted, gint asked)
{
  Tx *tx = user_data;

  g_async_queue_push (tx->messages, g_strdup_printf ("send buffer %d of %d",
          granted, asked));
}

static void
post_error (gpointer user_data, const GError * error, const gchar * debug)
{
  Tx *tx = user_data;

  g_async_queue_push (tx->messages, g_strdup_printf ("error: %s | %s",
          error->message, debug ? debug : ""));
}

static void
receiver_added (gpointer user_data, guint id, const gchar * peer)
{
  Tx *tx = user_data;

  g_async_queue_push (tx->receivers, g_strdup_printf ("+%u %s", id, peer));
}

static void
receiver_removed (gpointer user_data, guint id, const gchar * peer,
    const gchar * reason)
{
  Tx *tx = user_data;

  g_async_queue_push (tx->receivers, g_strdup_printf ("-%u %s: %s", id, peer,
          reason));
}

static const GstTileSenderCallbacks callbacks = {
  post_stats, buffer_warning, post_error, receiver_added, receiver_removed
};

static void
settings_for_test (GstTileSenderSettings * s, guint n_units,
    GstTileWireProtocol protocol)
{
  gst_tile_sender_settings_init (s);
  s->address = "127.0.0.1";
  s->port = 0;
  s->n_units = n_units;
  s->protocol = protocol;
  s->stats_interval = 0;
}

static void
tx_start (Tx * tx, const GstTileSenderSettings * s)
{
  GError *err = NULL;

  tx->messages = g_async_queue_new_full (g_free);
  tx->receivers = g_async_queue_new_full (g_free);
  tx->sender = gst_tile_sender_new (s, &callbacks, tx, NULL);
  fail_unless (tx->sender != NULL);
  tx->port = gst_tile_sender_start (tx->sender, &err);
  fail_unless (tx->port > 0, "%s", err ? err->message : "");
  fail_unless_equals_int (gst_tile_sender_get_bound_port (tx->sender),
      tx->port);
}

/* GRAY8 frames of @width x @height: one row of the tiling per pixel row */
static void
tx_set_caps (Tx * tx, guint width, guint height)
{
  GstBcTiling tiling;
  GError *err = NULL;
  gchar *caps = g_strdup_printf ("video/x-raw, format=(string)GRAY8, "
      "width=(int)%u, height=(int)%u, framerate=(fraction)30/1", width,
      height);

  fail_unless (gst_bc_tiling_init (&tiling, height, width,
          gst_tile_sender_get_n_units (tx->sender)));
  fail_unless (gst_tile_sender_set_caps (tx->sender, caps, &tiling, &err),
      "%s", err ? err->message : "");
  g_free (caps);
}

static void
tx_stop (Tx * tx)
{
  gst_tile_sender_stop (tx->sender);
  fail_unless_equals_int (gst_tile_sender_get_bound_port (tx->sender), 0);
  gst_tile_sender_free (tx->sender);
  g_async_queue_unref (tx->messages);
  g_async_queue_unref (tx->receivers);
}

/* The statistic @name, of the type @type. */
static void
stat_value (Tx * tx, const gchar * name, GType type, GValue * v)
{
  GstStructure *s = gst_tile_sender_get_stats (tx->sender);
  const GValue *f = gst_structure_get_value (s, name);

  fail_unless (f != NULL && G_VALUE_HOLDS (f, type), "no %s", name);
  g_value_init (v, type);
  g_value_copy (f, v);
  gst_structure_free (s);
}

static guint64
stat_u64 (Tx * tx, const gchar * name)
{
  GValue v = G_VALUE_INIT;

  stat_value (tx, name, G_TYPE_UINT64, &v);
  return g_value_get_uint64 (&v);
}

static guint
stat_uint (Tx * tx, const gchar * name)
{
  GValue v = G_VALUE_INIT;

  stat_value (tx, name, G_TYPE_UINT, &v);
  return g_value_get_uint (&v);
}

static gint
stat_int (Tx * tx, const gchar * name)
{
  GValue v = G_VALUE_INIT;

  stat_value (tx, name, G_TYPE_INT, &v);
  return g_value_get_int (&v);
}

static gchar *
stat_string (Tx * tx, const gchar * name)
{
  GValue v = G_VALUE_INIT;
  gchar *str;

  stat_value (tx, name, G_TYPE_STRING, &v);
  str = g_value_dup_string (&v);
  g_value_unset (&v);
  return str;
}

static gboolean
stat_connected (Tx * tx)
{
  GValue v = G_VALUE_INIT;

  stat_value (tx, "connected", G_TYPE_BOOLEAN, &v);
  return g_value_get_boolean (&v);
}

static void
wait_u64 (Tx * tx, const gchar * name, guint64 want)
{
  gint64 end = g_get_monotonic_time () + WAIT_MS * 1000;

  while (stat_u64 (tx, name) != want && g_get_monotonic_time () < end)
    g_usleep (2000);
  fail_unless_equals_uint64 (stat_u64 (tx, name), want);
}

static void
wait_connected (Tx * tx)
{
  gint64 end = g_get_monotonic_time () + WAIT_MS * 1000;

  while (!stat_connected (tx) && g_get_monotonic_time () < end)
    g_usleep (2000);
  fail_unless (stat_connected (tx), "the receiver did not get connected");
}

static gint
tcp_connect (guint port, gint rcvbuf)
{
  GError *err = NULL;
  gint fd = gst_tile_net_connect ("127.0.0.1", port, WAIT_MS, rcvbuf, NULL,
      &err);

  fail_unless (fd >= 0, "%s", err ? err->message : "");
  return fd;
}

static void
send_packed (gint fd, GByteArray * m)
{
  GError *err = NULL;

  fail_unless (gst_tile_net_send_packed (fd, m, &err), "%s",
      err ? err->message : "");
  g_byte_array_unref (m);
}

static void
send_hello (gint fd)
{
  GstTileWireHello hello = { 0 };
  GByteArray *m = g_byte_array_new ();

  fail_unless (gst_tile_wire_hello_pack (&hello, m, NULL));
  send_packed (fd, m);
}

/* The next control message other than a KEEPALIVE; it must be @type. */
static GByteArray *
read_control (gint fd, GstTileWireType type)
{
  GByteArray *payload = g_byte_array_new ();
  GstTileWireHeader h;
  GError *err = NULL;

  do {
    fail_unless (gst_tile_net_read_message (fd, WAIT_MS, &h, payload, &err),
        "%s", err ? err->message : "");
  } while (h.type == GST_TILE_WIRE_TYPE_KEEPALIVE &&
      type != GST_TILE_WIRE_TYPE_KEEPALIVE);
  fail_unless_equals_string (gst_tile_wire_type_get_name (h.type),
      gst_tile_wire_type_get_name (type));
  return payload;
}

static void
read_config (Rx * rx)
{
  GByteArray *p = read_control (rx->control, GST_TILE_WIRE_TYPE_CONFIG);
  GError *err = NULL;

  fail_unless (gst_tile_wire_config_parse (p->data, p->len, &rx->config,
          &err), "%s", err ? err->message : "");
  g_byte_array_unref (p);
}

/* A REFUSE of @code, then the end of the connection. */
static void
expect_refuse (gint fd, GstTileWireRefuseCode code, const gchar * reason)
{
  GByteArray *p = read_control (fd, GST_TILE_WIRE_TYPE_REFUSE);
  GstTileWireRefuse r;
  GError *err = NULL;
  guint8 b;

  fail_unless (gst_tile_wire_refuse_parse (p->data, p->len, &r, NULL));
  fail_unless_equals_int (r.code, code);
  fail_unless (strstr (r.reason, reason) != NULL, "reason: %s", r.reason);
  g_byte_array_unref (p);
  fail_if (gst_tile_net_read_all (fd, &b, 1, WAIT_MS, &err));
  fail_unless (g_error_matches (err, G_IO_ERROR,
          G_IO_ERROR_CONNECTION_CLOSED), "%s", err->message);
  g_clear_error (&err);
}

static void
rx_hello (Rx * rx, guint port, gint rcvbuf)
{
  guint i;

  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++)
    rx->units[i] = -1;
  rx->control = tcp_connect (port, rcvbuf);
  send_hello (rx->control);
  read_config (rx);
}

static GByteArray *
unit_hello (Rx * rx, guint unit)
{
  GstTileWireUnitHello uh = { 0 };
  GByteArray *m = g_byte_array_new ();

  uh.token = rx->config.token;
  uh.generation = rx->config.generation;
  uh.unit = unit;
  fail_unless (gst_tile_wire_unit_hello_pack (&uh, m, NULL));
  return m;
}

static void
rx_units_tcp (Rx * rx, guint port, gint rcvbuf)
{
  guint i;

  for (i = 0; i < rx->config.n_tiles; i++) {
    rx->units[i] = tcp_connect (port, rcvbuf);
    send_packed (rx->units[i], unit_hello (rx, i));
  }
}

static void
rx_close (Rx * rx)
{
  guint i;

  for (i = 0; i < GST_TILE_WIRE_MAX_UNITS; i++)
    gst_tile_net_close (&rx->units[i]);
  gst_tile_net_close (&rx->control);
}

static GstBuffer *
make_frame (gsize size, guint seed)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  GstMapInfo map;
  gsize i;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (i = 0; i < size; i++)
    map.data[i] = (guint8) (i * 7 + seed * 31 + (i >> 8));
  gst_buffer_unmap (buf, &map);
  return buf;
}

static void
push_expect (Tx * tx, GstBuffer * frame, GstTileSenderPushResult want)
{
  GError *err = NULL;

  fail_unless_equals_int (gst_tile_sender_push (tx->sender, frame, &err), want);
  fail_unless (err == NULL);
}

/* Unit @unit's tile header and tile of frame number @number; returns the
 * header's timestamp. */
static GstClockTime
expect_tile_tcp (Rx * rx, guint unit, guint64 number, GstBuffer * frame)
{
  const GstTileWireTile *tile = &rx->config.tiles[unit];
  guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE];
  GstTileWireTileHeader th;
  GError *err = NULL;
  guint8 *data = g_malloc (tile->size);
  GstMapInfo map;

  fail_unless (gst_tile_net_read_all (rx->units[unit], hdr, sizeof (hdr),
          WAIT_MS, &err), "%s", err ? err->message : "");
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (hdr, sizeof (hdr),
          tile->size, &th, &err), GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_int (th.generation, rx->config.generation);
  fail_unless_equals_uint64 (th.frame, number);
  fail_unless (GST_CLOCK_TIME_IS_VALID (th.timestamp));
  fail_unless (gst_tile_net_read_all (rx->units[unit], data, tile->size,
          WAIT_MS, &err), "%s", err ? err->message : "");
  gst_buffer_map (frame, &map, GST_MAP_READ);
  fail_unless (memcmp (data, map.data + tile->offset, tile->size) == 0,
      "unit %u: the tile of frame %" G_GUINT64_FORMAT " differs", unit, number);
  gst_buffer_unmap (frame, &map);
  g_free (data);
  return th.timestamp;
}

/* The connection ends without another byte. */
static void
expect_end (gint fd)
{
  GError *err = NULL;
  guint8 b;

  fail_if (gst_tile_net_read_all (fd, &b, 1, WAIT_MS, &err));
  fail_unless (g_error_matches (err, G_IO_ERROR,
          G_IO_ERROR_CONNECTION_CLOSED), "%s", err->message);
  g_clear_error (&err);
}

/* HELLO -> CONFIG, a UNIT_HELLO per unit, then every tile exactly as
 * pushed; a caps change closes the data connections and sends CONFIG with
 * the next generation; the stats callback runs. */
GST_START_TEST (test_tcp_session)
{
  GstTileSenderSettings s;
  GstBuffer *frames[3];
  Tx tx = { 0 };
  Rx rx;
  guint i, k;

  settings_for_test (&s, 3, GST_TILE_WIRE_PROTOCOL_TCP);
  s.stats_interval = 20;
  tx_start (&tx, &s);
  tx_set_caps (&tx, 64, 10);
  rx_hello (&rx, tx.port, 0);
  fail_unless_equals_int (rx.config.generation, 1);
  fail_unless_equals_int (rx.config.protocol, GST_TILE_WIRE_PROTOCOL_TCP);
  fail_unless_equals_int (rx.config.n_units, 3);
  fail_unless_equals_int (rx.config.n_tiles, 3);
  fail_unless_equals_uint64 (rx.config.frame_size, 640);
  fail_unless_equals_int (rx.config.chunk_size, s.chunk_size);
  fail_unless_equals_int (rx.config.packet_size, 0);
  fail_unless (g_str_has_prefix (rx.config.caps, "video/x-raw, format="));
  rx_units_tcp (&rx, tx.port, 0);
  wait_connected (&tx);

  for (i = 0; i < 3; i++) {
    frames[i] = make_frame (640, i);
    push_expect (&tx, frames[i], GST_TILE_SENDER_PUSH_QUEUED);
    for (k = 0; k < 3; k++)
      expect_tile_tcp (&rx, k, i, frames[i]);
    /* with max-in-flight=1 the next frame is admitted only once this one
     * counts as sent, which can come after the receiver has it */
    wait_u64 (&tx, "frames-sent", i + 1);
  }
  wait_u64 (&tx, "frames-sent", 3);
  fail_unless_equals_uint64 (stat_u64 (&tx, "bytes-sent"),
      3 * (640 + 3 * GST_TILE_WIRE_TILE_HEADER_SIZE));
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-dropped"), 0);
  fail_unless_equals_int (stat_uint (&tx, "clients"), 1);
  fail_unless_equals_int (stat_uint (&tx, "generation"), 1);
  /* the kernel's view of the connected units: all sent and read */
  fail_unless (stat_u64 (&tx, "delivery-rate") > 0);
  fail_unless_equals_uint64 (stat_u64 (&tx, "unsent-bytes"), 0);
  fail_unless (stat_uint (&tx, "rtt-us") > 0);

  /* a caps change: the old generation's connections end, a new CONFIG */
  tx_set_caps (&tx, 32, 2);
  for (k = 0; k < 3; k++)
    expect_end (rx.units[k]);
  read_config (&rx);
  fail_unless_equals_int (rx.config.generation, 2);
  fail_unless_equals_int (rx.config.n_tiles, 2);
  fail_if (stat_connected (&tx));

  while (g_atomic_int_get (&tx.stats_calls) == 0)
    g_usleep (1000);
  fail_unless_equals_int (g_async_queue_length (tx.messages), 0);
  rx_close (&rx);
  tx_stop (&tx);
  for (i = 0; i < 3; i++)
    gst_buffer_unref (frames[i]);
}

GST_END_TEST;

/* A sysctl of net.ipv4, without its newline. */
static gchar *
ipv4_sysctl (const gchar * name)
{
  gchar *path = g_strdup_printf ("/proc/sys/net/ipv4/%s", name);
  gchar *text = NULL;

  fail_unless (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
  g_free (path);
  return g_strstrip (text);
}

static gboolean
word_in (const gchar * word, const gchar * list)
{
  gchar **words = g_strsplit (list, " ", -1);
  gboolean in = g_strv_contains ((const gchar * const *) words, word);

  g_strfreev (words);
  return in;
}

/* The congestion control a TCP session's units use, with @cc set. */
static gchar *
session_congestion (const gchar * cc, gboolean set)
{
  GstTileSenderSettings s;
  Tx tx = { 0 };
  Rx rx;
  gchar *used;

  settings_for_test (&s, 2, GST_TILE_WIRE_PROTOCOL_TCP);
  if (set)
    s.congestion_control = cc;
  tx_start (&tx, &s);
  tx_set_caps (&tx, 64, 4);
  rx_hello (&rx, tx.port, 0);
  rx_units_tcp (&rx, tx.port, 0);
  wait_connected (&tx);
  used = stat_string (&tx, "congestion-control");
  rx_close (&rx);
  tx_stop (&tx);
  return used;
}

/* The units' TCP congestion control: the one the settings name (reno is
 * in every kernel), the system's default when there is none or the kernel
 * refuses it, and by default bbr when this process may use it. */
GST_START_TEST (test_tcp_congestion_control)
{
  gchar *system = ipv4_sysctl ("tcp_congestion_control");
  gchar *available = ipv4_sysctl ("tcp_available_congestion_control");
  gchar *allowed = ipv4_sysctl ("tcp_allowed_congestion_control");
  gboolean bbr = word_in ("bbr", available) && (geteuid () == 0 ||
      word_in ("bbr", allowed));
  gchar *used;

  used = session_congestion ("reno", TRUE);
  fail_unless_equals_string (used, "reno");
  g_free (used);
  used = session_congestion ("no-such-cc", TRUE);
  fail_unless_equals_string (used, system);
  g_free (used);
  used = session_congestion (NULL, TRUE);
  fail_unless_equals_string (used, system);
  g_free (used);
  used = session_congestion (NULL, FALSE);
  fail_unless_equals_string (used, bbr ? "bbr" : system);
  g_free (used);
  g_free (system);
  g_free (available);
  g_free (allowed);
}

GST_END_TEST;

/* The next receiver_added/removed event, which must start with @prefix
 * and contain @part. */
static void
expect_receiver_event (Tx * tx, const gchar * prefix, const gchar * part)
{
  gchar *e = g_async_queue_timeout_pop (tx->receivers, WAIT_MS * 1000);

  fail_unless (e != NULL, "no receiver event %s", prefix);
  fail_unless (g_str_has_prefix (e, prefix) && strstr (e, part) != NULL,
      "event '%s', expected '%s...%s'", e, prefix, part);
  g_free (e);
}

/* The uint64 field @name of receiver @id in the `receivers` array; fails
 * when there is no such receiver. */
static guint64
receiver_u64 (Tx * tx, guint id, const gchar * name)
{
  GstStructure *s = gst_tile_sender_get_stats (tx->sender);
  const GValue *list = gst_structure_get_value (s, "receivers");
  guint64 v = 0;
  guint i, got;
  gboolean found = FALSE;

  fail_unless (list != NULL && GST_VALUE_HOLDS_ARRAY (list));
  for (i = 0; i < gst_value_array_get_size (list); i++) {
    const GstStructure *r =
        gst_value_get_structure (gst_value_array_get_value (list, i));

    fail_unless (gst_structure_has_name (r, "tilesink-receiver"));
    fail_unless (gst_structure_get_uint (r, "id", &got));
    if (got == id) {
      fail_unless (gst_structure_get_uint64 (r, name, &v), "no %s", name);
      found = TRUE;
    }
  }
  gst_structure_free (s);
  fail_unless (found, "no receiver %u", id);
  return v;
}

/* Until @n receivers in `receivers` are connected (all units up). */
static void
wait_receivers_connected (Tx * tx, guint n)
{
  gint64 end = g_get_monotonic_time () + WAIT_MS * 1000;
  guint i, got = 0;

  do {
    GstStructure *s = gst_tile_sender_get_stats (tx->sender);
    const GValue *list = gst_structure_get_value (s, "receivers");
    gboolean c;

    got = 0;
    for (i = 0; i < gst_value_array_get_size (list); i++)
      if (gst_structure_get_boolean (gst_value_get_structure
              (gst_value_array_get_value (list, i)), "connected", &c) && c)
        got++;
    gst_structure_free (s);
    if (got < n)
      g_usleep (2000);
  } while (got < n && g_get_monotonic_time () < end);
  fail_unless_equals_int (got, n);
}

/* Two receivers at once, each with its own session (token, units): both
 * get every tile of every frame, byte-exact; each has its entry in
 * `receivers`, the totals are their sum. Removing one ends its
 * connections; the other goes on. */
GST_START_TEST (test_two_receivers)
{
  GstTileSenderSettings s;
  GstBuffer *frame;
  Tx tx = { 0 };
  Rx rx[2];
  guint i, k, r;

  settings_for_test (&s, 2, GST_TILE_WIRE_PROTOCOL_TCP);
  tx_start (&tx, &s);
  tx_set_caps (&tx, 64, 8);
  for (r = 0; r < 2; r++) {
    rx_hello (&rx[r], tx.port, 0);
    expect_receiver_event (&tx, r ? "+2 " : "+1 ", "127.0.0.1:");
    rx_units_tcp (&rx[r], tx.port, 0);
  }
  fail_if (rx[0].config.token == rx[1].config.token);
  fail_unless_equals_int (gst_tile_sender_get_n_receivers (tx.sender), 2);
  fail_unless_equals_int (stat_uint (&tx, "receiver-count"), 2);
  /* both sessions ready: every frame goes to both */
  wait_receivers_connected (&tx, 2);
  for (i = 0; i < 3; i++) {
    frame = make_frame (512, i);
    push_expect (&tx, frame, GST_TILE_SENDER_PUSH_QUEUED);
    for (r = 0; r < 2; r++)
      for (k = 0; k < 2; k++)
        expect_tile_tcp (&rx[r], k, i, frame);
    gst_buffer_unref (frame);
    wait_u64 (&tx, "frames-sent", 2 * (i + 1));
  }
  for (r = 1; r <= 2; r++) {
    fail_unless_equals_uint64 (receiver_u64 (&tx, r, "frames-sent"), 3);
    fail_unless_equals_uint64 (receiver_u64 (&tx, r, "bytes-sent"),
        3 * (512 + 2 * GST_TILE_WIRE_TILE_HEADER_SIZE));
  }
  fail_unless_equals_uint64 (stat_u64 (&tx, "bytes-sent"),
      2 * 3 * (512 + 2 * GST_TILE_WIRE_TILE_HEADER_SIZE));

  /* receiver 2 removed: its connections end, receiver 1 goes on */
  fail_unless (gst_tile_sender_remove_receiver (tx.sender, 2));
  fail_if (gst_tile_sender_remove_receiver (tx.sender, 7));
  expect_receiver_event (&tx, "-2 127.0.0.1:", "removed by the application");
  for (k = 0; k < 2; k++)
    expect_end (rx[1].units[k]);
  fail_unless_equals_int (gst_tile_sender_get_n_receivers (tx.sender), 1);
  frame = make_frame (512, 9);
  push_expect (&tx, frame, GST_TILE_SENDER_PUSH_QUEUED);
  for (k = 0; k < 2; k++)
    expect_tile_tcp (&rx[0], k, 3, frame);
  gst_buffer_unref (frame);
  wait_u64 (&tx, "frames-sent", 7);
  fail_unless_equals_int (stat_uint (&tx, "clients"), 2);
  fail_unless_equals_int (stat_uint (&tx, "disconnects"), 1);

  rx_close (&rx[1]);
  rx_close (&rx[0]);
  /* the sender sees receiver 1 leave */
  expect_receiver_event (&tx, "-1 127.0.0.1:", "");
  tx_stop (&tx);
}

GST_END_TEST;

/* The time on the wire is the frame's origin: a timestamp/x-unix
 * reference timestamp on the buffer (a capture time, or the first
 * sender's through a relay) when it is within 10 s of now, else the time
 * the sender got the frame. */
GST_START_TEST (test_origin_timestamp)
{
  GstTileSenderSettings s;
  GstCaps *unix_caps = gst_caps_new_empty_simple ("timestamp/x-unix");
  GstBuffer *frame;
  GstClockTime ts, before, origin;
  Tx tx = { 0 };
  Rx rx;
  guint i;

  settings_for_test (&s, 1, GST_TILE_WIRE_PROTOCOL_TCP);
  tx_start (&tx, &s);
  tx_set_caps (&tx, 16, 4);
  rx_hello (&rx, tx.port, 0);
  rx_units_tcp (&rx, tx.port, 0);
  wait_connected (&tx);

  for (i = 0; i < 4; i++) {
    before = g_get_real_time () * 1000;
    /* none, 5 ms ago, 2 ms ahead (another host's clock), 20 s ago */
    origin = i == 1 ? before - 5 * GST_MSECOND : i == 2 ?
        before + 2 * GST_MSECOND : before - 20 * GST_SECOND;
    frame = make_frame (64, i);
    if (i > 0)
      gst_buffer_add_reference_timestamp_meta (frame, unix_caps, origin,
          GST_CLOCK_TIME_NONE);
    push_expect (&tx, frame, GST_TILE_SENDER_PUSH_QUEUED);
    ts = expect_tile_tcp (&rx, 0, i, frame);
    if (i == 1 || i == 2) {
      fail_unless_equals_uint64 (ts, origin);
    } else {
      fail_unless (ts >= before && ts < before + GST_SECOND,
          "frame %u: %" G_GUINT64_FORMAT " is not the sender's time %"
          G_GUINT64_FORMAT, i, ts, before);
    }
    gst_buffer_unref (frame);
    wait_u64 (&tx, "frames-sent", i + 1);
  }
  gst_caps_unref (unix_caps);
  rx_close (&rx);
  tx_stop (&tx);
}

GST_END_TEST;

/* max_receivers=1: a second HELLO is refused busy; a UNIT_HELLO with a
 * wrong token is refused too. */
GST_START_TEST (test_second_receiver_busy)
{
  GstTileSenderSettings s;
  Tx tx = { 0 };
  Rx rx, other;
  gint fd;

  settings_for_test (&s, 1, GST_TILE_WIRE_PROTOCOL_TCP);
  s.max_receivers = 1;
  tx_start (&tx, &s);
  tx_set_caps (&tx, 16, 4);
  rx_hello (&rx, tx.port, 0);

  fd = tcp_connect (tx.port, 0);
  send_hello (fd);
  expect_refuse (fd, GST_TILE_WIRE_REFUSE_BUSY, "already serves");
  gst_tile_net_close (&fd);

  other = rx;
  other.config.token ^= 1;
  fd = tcp_connect (tx.port, 0);
  send_packed (fd, unit_hello (&other, 0));
  expect_refuse (fd, GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN, "UNIT_HELLO for");
  gst_tile_net_close (&fd);

  fail_unless_equals_int (stat_uint (&tx, "refused"), 2);
  fail_unless_equals_int (stat_uint (&tx, "clients"), 1);
  rx_close (&rx);
  tx_stop (&tx);
}

GST_END_TEST;

/* A connection that says nothing (or half a message) is refused and closed
 * after handshake-timeout. */
GST_START_TEST (test_handshake_timeout)
{
  GstTileSenderSettings s;
  Tx tx = { 0 };
  gint silent, half;
  gint64 t0, waited;
  guint8 part[5] = { 'G', 'S', 'B', 'C', 0 };

  settings_for_test (&s, 1, GST_TILE_WIRE_PROTOCOL_TCP);
  s.handshake_timeout = 300;
  tx_start (&tx, &s);

  t0 = g_get_monotonic_time ();
  silent = tcp_connect (tx.port, 0);
  half = tcp_connect (tx.port, 0);
  fail_unless (write (half, part, sizeof (part)) == sizeof (part));
  expect_refuse (silent, GST_TILE_WIRE_REFUSE_BAD_MESSAGE, "handshake timeout");
  expect_refuse (half, GST_TILE_WIRE_REFUSE_BAD_MESSAGE, "handshake timeout");
  waited = (g_get_monotonic_time () - t0) / 1000;
  /* the deadline is checked at least every 200 ms */
  fail_unless (waited >= 300 && waited < 1500, "%" G_GINT64_FORMAT " ms",
      waited);
  fail_unless_equals_int (stat_uint (&tx, "refused"), 2);
  gst_tile_net_close (&silent);
  gst_tile_net_close (&half);
  tx_stop (&tx);
}

GST_END_TEST;

/* EOS: the frames pushed go out, the data connections end, EOS follows on
 * the control connection; frames after it are not sent. */
GST_START_TEST (test_eos)
{
  GstTileSenderSettings s;
  GstBuffer *frame = make_frame (256, 7);
  Tx tx = { 0 };
  Rx rx;
  GByteArray *p;
  guint k;

  settings_for_test (&s, 2, GST_TILE_WIRE_PROTOCOL_TCP);
  tx_start (&tx, &s);
  tx_set_caps (&tx, 32, 8);
  rx_hello (&rx, tx.port, 0);
  rx_units_tcp (&rx, tx.port, 0);
  wait_connected (&tx);

  push_expect (&tx, frame, GST_TILE_SENDER_PUSH_QUEUED);
  gst_tile_sender_send_eos (tx.sender);
  for (k = 0; k < 2; k++) {
    expect_tile_tcp (&rx, k, 0, frame);
    expect_end (rx.units[k]);
  }
  p = read_control (rx.control, GST_TILE_WIRE_TYPE_EOS);
  fail_unless_equals_int (p->len, 0);
  g_byte_array_unref (p);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-sent"), 1);

  push_expect (&tx, frame, GST_TILE_SENDER_PUSH_UNSENT);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-unsent"), 1);
  gst_tile_sender_clear_eos (tx.sender);
  rx_close (&rx);
  tx_stop (&tx);
  gst_buffer_unref (frame);
}

GST_END_TEST;

/* max-in-flight: while a frame is still on its way (the receiver does not
 * read, the socket buffers are small), the next one is dropped whole and
 * counted; before a receiver is there, frames are counted as unsent. */
GST_START_TEST (test_drop_in_flight)
{
  const gsize size = 16 << 20;
  GstTileSenderSettings s;
  GstBuffer *first = make_frame (size, 1), *second = make_frame (size, 2);
  Tx tx = { 0 };
  Rx rx;

  settings_for_test (&s, 1, GST_TILE_WIRE_PROTOCOL_TCP);
  s.max_in_flight = 1;
  s.send_buffer_size = 4096;
  tx_start (&tx, &s);
  tx_set_caps (&tx, 16384, 1024);

  push_expect (&tx, first, GST_TILE_SENDER_PUSH_UNSENT);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-unsent"), 1);

  rx_hello (&rx, tx.port, 4096);
  rx_units_tcp (&rx, tx.port, 4096);
  wait_connected (&tx);
  push_expect (&tx, first, GST_TILE_SENDER_PUSH_QUEUED);
  push_expect (&tx, second, GST_TILE_SENDER_PUSH_DROPPED);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-dropped"), 1);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-dropped-window"), 0);

  /* nothing measured yet: no wait to tell */
  fail_unless_equals_uint64 (gst_tile_sender_estimate_wait (tx.sender, NULL),
      0);

  /* the first frame arrives whole, then counts as sent */
  expect_tile_tcp (&rx, 0, 0, first);
  wait_u64 (&tx, "frames-sent", 1);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-dropped"), 1);
  fail_unless_equals_int (g_async_queue_length (tx.messages), 0);

  /* QoS: with a frame in flight, the wait is what is left of the time
   * frames take (the first one took at least the time the test took to
   * read it) */
  {
    GstClockTime send_time = 0, wait;

    fail_unless_equals_uint64 (gst_tile_sender_estimate_wait (tx.sender,
            &send_time), 0);
    fail_unless (send_time > 0);
    push_expect (&tx, second, GST_TILE_SENDER_PUSH_QUEUED);
    wait = gst_tile_sender_estimate_wait (tx.sender, NULL);
    fail_unless (wait > 0 && wait <= send_time, "wait %" GST_TIME_FORMAT
        " of %" GST_TIME_FORMAT, GST_TIME_ARGS (wait),
        GST_TIME_ARGS (send_time));
    expect_tile_tcp (&rx, 0, 1, second);
    wait_u64 (&tx, "frames-sent", 2);
  }
  rx_close (&rx);
  tx_stop (&tx);
  gst_buffer_unref (first);
  gst_buffer_unref (second);
}

GST_END_TEST;

/* replace_waiting with max_in_flight 2: while a frame is stuck on the
 * wire, each new frame replaces the one waiting behind it (counted as
 * dropped and replaced); the newest then goes out with the next number. */
GST_START_TEST (test_replace_waiting)
{
  const gsize size = 16 << 20;
  GstTileSenderSettings s;
  GstBuffer *frames[4];
  Tx tx = { 0 };
  Rx rx;
  guint i;

  settings_for_test (&s, 1, GST_TILE_WIRE_PROTOCOL_TCP);
  s.max_in_flight = 2;
  s.replace_waiting = TRUE;
  s.send_buffer_size = 4096;
  tx_start (&tx, &s);
  tx_set_caps (&tx, 16384, 1024);
  rx_hello (&rx, tx.port, 4096);
  rx_units_tcp (&rx, tx.port, 4096);
  wait_connected (&tx);
  for (i = 0; i < 4; i++)
    frames[i] = make_frame (size, i);

  /* frame 0 goes out (its bytes are in the socket), then frames 1, 2 and
   * 3 take the waiting place in turn */
  push_expect (&tx, frames[0], GST_TILE_SENDER_PUSH_QUEUED);
  while (stat_u64 (&tx, "unsent-bytes") == 0)
    g_usleep (1000);
  for (i = 1; i < 4; i++)
    push_expect (&tx, frames[i], GST_TILE_SENDER_PUSH_QUEUED);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-replaced"), 2);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-dropped"), 2);

  /* on the wire: frame 0, then frame 3's bytes as frame number 1 */
  expect_tile_tcp (&rx, 0, 0, frames[0]);
  expect_tile_tcp (&rx, 0, 1, frames[3]);
  wait_u64 (&tx, "frames-sent", 2);

  /* off: the new frame is the one dropped */
  gst_tile_sender_set_replace_waiting (tx.sender, FALSE);
  push_expect (&tx, frames[0], GST_TILE_SENDER_PUSH_QUEUED);
  while (stat_u64 (&tx, "unsent-bytes") == 0)
    g_usleep (1000);
  push_expect (&tx, frames[1], GST_TILE_SENDER_PUSH_QUEUED);
  push_expect (&tx, frames[2], GST_TILE_SENDER_PUSH_DROPPED);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-replaced"), 2);
  expect_tile_tcp (&rx, 0, 2, frames[0]);
  expect_tile_tcp (&rx, 0, 3, frames[1]);

  rx_close (&rx);
  tx_stop (&tx);
  for (i = 0; i < 4; i++)
    gst_buffer_unref (frames[i]);
}

GST_END_TEST;

/* max-latency over TCP: a frame still being sent at its deadline is
 * abandoned between two parts of its tile (an eighth each) with a header
 * that says so, counted as abandoned; the next frame goes on the same
 * connection, in one part once the deadline is off. */
GST_START_TEST (test_tcp_deadline)
{
  const gsize size = 16 << 20;
  GstTileSenderSettings s;
  GstBuffer *first = make_frame (size, 1), *second = make_frame (size, 2);
  guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE];
  guint8 *data = g_malloc (size);
  GstTileWireTileHeader th;
  GError *err = NULL;
  GstMapInfo map;
  gsize got = 0;
  guint parts = 0;
  Tx tx = { 0 };
  Rx rx;

  settings_for_test (&s, 1, GST_TILE_WIRE_PROTOCOL_TCP);
  s.send_buffer_size = 4096;
  s.max_latency = 100 * GST_MSECOND;
  tx_start (&tx, &s);
  tx_set_caps (&tx, 16384, 1024);
  rx_hello (&rx, tx.port, 4096);
  rx_units_tcp (&rx, tx.port, 4096);
  wait_connected (&tx);

  /* the receiver reads nothing until the deadline has passed: the unit is
   * stuck in its first part */
  push_expect (&tx, first, GST_TILE_SENDER_PUSH_QUEUED);
  g_usleep (300 * 1000);
  gst_buffer_map (first, &map, GST_MAP_READ);
  while (TRUE) {
    fail_unless (gst_tile_net_read_all (rx.units[0], hdr, sizeof (hdr),
            WAIT_MS, &err), "%s", err ? err->message : "");
    fail_unless_equals_int (gst_tile_wire_tile_header_parse (hdr, sizeof (hdr),
            size - got, &th, &err), GST_TILE_WIRE_PARSE_OK);
    fail_unless_equals_uint64 (th.frame, 0);
    if (th.flags == GST_TILE_WIRE_TILE_FLAG_ABANDON)
      break;
    fail_unless_equals_int (th.flags, GST_TILE_WIRE_TILE_FLAG_MORE);
    fail_unless_equals_int (th.size, size / 8);
    fail_unless (gst_tile_net_read_all (rx.units[0], data, th.size, WAIT_MS,
            &err), "%s", err ? err->message : "");
    fail_unless (memcmp (data, map.data + got, th.size) == 0);
    got += th.size;
    parts++;
  }
  gst_buffer_unmap (first, &map);
  /* the part under way at the deadline (the first, unless the unit
   * started late) was finished, no other started */
  fail_unless (parts <= 1, "%u parts", parts);
  wait_u64 (&tx, "frames-abandoned", 1);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-sent"), 0);
  fail_unless_equals_uint64 (stat_u64 (&tx, "bytes-sent"),
      got + (parts + 1) * GST_TILE_WIRE_TILE_HEADER_SIZE);

  /* no deadline: the next frame in one part, on the same connection */
  gst_tile_sender_set_max_latency (tx.sender, 0);
  push_expect (&tx, second, GST_TILE_SENDER_PUSH_QUEUED);
  expect_tile_tcp (&rx, 0, 1, second);
  wait_u64 (&tx, "frames-sent", 1);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-abandoned"), 1);
  fail_unless_equals_int (stat_uint (&tx, "disconnects"), 0);

  rx_close (&rx);
  tx_stop (&tx);
  g_free (data);
  gst_buffer_unref (first);
  gst_buffer_unref (second);
}

GST_END_TEST;

/* A send buffer smaller than asked for is reported to the owner. */
GST_START_TEST (test_send_buffer_warning)
{
  GstTileSenderSettings s;
  Tx tx = { 0 };
  Rx rx;
  gchar *msg;

  settings_for_test (&s, 1, GST_TILE_WIRE_PROTOCOL_TCP);
  s.send_buffer_size = G_MAXINT;
  tx_start (&tx, &s);
  tx_set_caps (&tx, 16, 4);
  rx_hello (&rx, tx.port, 0);
  rx_units_tcp (&rx, tx.port, 0);
  msg = g_async_queue_timeout_pop (tx.messages, WAIT_MS * 1000);
  fail_unless (msg != NULL);
  fail_unless (g_str_has_prefix (msg, "send buffer "), "%s", msg);
  fail_unless (g_str_has_suffix (msg, " of 2147483647"), "%s", msg);
  g_free (msg);
  fail_unless_equals_int (stat_int (&tx, "send-buffer-size"), G_MAXINT);
  rx_close (&rx);
  tx_stop (&tx);
}

GST_END_TEST;

/* A unit's UDP socket, introduced to the sender: our UNIT_HELLO (no
 * cookie) is answered from the control port with the same UNIT_HELLO and
 * a cookie of the sender's, our UNIT_HELLO with that cookie with its echo
 * from the unit's own socket (another port). */
static gint
udp_unit_socket (Rx * rx, guint unit, guint port)
{
  struct sockaddr_in sa = { 0 }, from;
  socklen_t fl = sizeof (from);
  GByteArray *m = unit_hello (rx, unit);
  guint8 echo[64], zero[GST_TILE_WIRE_COOKIE_SIZE] = { 0 };
  GstTileWireUnitHello uh;
  GError *err = NULL;
  gint fd = gst_tile_net_udp_bind_any (AF_INET, &err);

  fail_unless (fd >= 0, "%s", err ? err->message : "");
  sa.sin_family = AF_INET;
  sa.sin_port = htons (port);
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  gst_tile_net_udp_send_to (fd, m->data, m->len, (struct sockaddr *) &sa,
      sizeof (sa));
  /* the challenge: as many bytes as we sent, with a cookie */
  fail_unless (gst_tile_net_wait (fd, FALSE, WAIT_MS, &err), "%s",
      err ? err->message : "");
  fail_unless_equals_int (recvfrom (fd, echo, sizeof (echo), 0,
          (struct sockaddr *) &from, &fl), m->len);
  fail_unless_equals_int (ntohs (from.sin_port), port);
  fail_unless (gst_tile_wire_unit_hello_parse (echo +
          GST_TILE_WIRE_HEADER_SIZE, m->len - GST_TILE_WIRE_HEADER_SIZE, &uh,
          NULL));
  fail_unless_equals_uint64 (uh.token, rx->config.token);
  fail_unless_equals_int (uh.unit, unit);
  fail_if (memcmp (uh.cookie, zero, sizeof (zero)) == 0);
  /* with the cookie: the echo, from the unit's socket */
  g_byte_array_set_size (m, 0);
  fail_unless (gst_tile_wire_unit_hello_pack (&uh, m, NULL));
  gst_tile_net_udp_send_to (fd, m->data, m->len, (struct sockaddr *) &sa,
      sizeof (sa));
  fail_unless (gst_tile_net_wait (fd, FALSE, WAIT_MS, &err), "%s",
      err ? err->message : "");
  fl = sizeof (from);
  fail_unless_equals_int (recvfrom (fd, echo, sizeof (echo), 0,
          (struct sockaddr *) &from, &fl), m->len);
  fail_unless (memcmp (echo, m->data, m->len) == 0);
  fail_unless (ntohs (from.sin_port) != port);
  g_byte_array_unref (m);
  return fd;
}

static void
send_ack (Rx * rx, guint window, gboolean has_frame, guint64 frame)
{
  GstTileWireAck ack = { 0 };
  GByteArray *m = g_byte_array_new ();

  ack.generation = rx->config.generation;
  ack.window = window;
  ack.has_frame = has_frame;
  ack.frame = frame;
  gst_tile_wire_ack_pack (&ack, m);
  send_packed (rx->control, m);
}

/* Unit @unit's datagrams of frame @number: the right headers, the tile's
 * bytes, zeros after the end of the tile. */
static void
expect_tile_udp (Rx * rx, guint unit, guint64 number, GstBuffer * frame)
{
  const GstTileWireTile *tile = &rx->config.tiles[unit];
  guint ps = rx->config.packet_size;
  guint n = gst_tile_wire_packets_per_tile (tile->size, ps), i;
  guint8 *dgram = g_malloc (GST_TILE_WIRE_PACKET_HEADER_SIZE + ps + 1);
  guint8 *seen = g_malloc0 (n);
  GError *err = NULL;
  GstMapInfo map;

  gst_buffer_map (frame, &map, GST_MAP_READ);
  for (i = 0; i < n; i++) {
    GstTileWirePacketHeader ph;
    const guint8 *payload = dgram + GST_TILE_WIRE_PACKET_HEADER_SIZE;
    gssize len;
    gsize off, part;

    fail_unless (gst_tile_net_wait (rx->units[unit], FALSE, WAIT_MS, &err),
        "unit %u datagram %u: %s", unit, i, err ? err->message : "");
    len = recv (rx->units[unit], dgram, GST_TILE_WIRE_PACKET_HEADER_SIZE +
        ps + 1, 0);
    fail_unless_equals_int (len, GST_TILE_WIRE_PACKET_HEADER_SIZE + ps);
    fail_unless_equals_int (gst_tile_wire_packet_header_parse (dgram, len,
            &ph, NULL), GST_TILE_WIRE_PARSE_OK);
    fail_unless (gst_tile_wire_packet_check (&ph, &rx->config, NULL));
    fail_unless_equals_int (ph.unit, unit);
    fail_unless_equals_uint64 (ph.frame, number);
    fail_unless (GST_CLOCK_TIME_IS_VALID (ph.timestamp));
    off = ph.offset;
    fail_if (seen[off / ps]++, "offset %" G_GSIZE_FORMAT " twice", off);
    part = MIN (ps, tile->size - off);
    fail_unless (memcmp (payload, map.data + tile->offset + off, part) == 0);
    for (; part < ps; part++)
      fail_unless_equals_int (payload[part], 0);
  }
  gst_buffer_unmap (frame, &map);
  g_free (seen);
  g_free (dgram);
}

/* protocol=udp: UNIT_HELLO datagrams are echoed, nothing is sent before
 * the receiver's first ACK, the datagrams carry the right headers and
 * payload, and a frame beyond the receiver's window is dropped whole. */
GST_START_TEST (test_udp_units)
{
  GstTileSenderSettings s;
  GstBuffer *frames[3];
  Tx tx = { 0 };
  Rx rx;
  guint i, k;

  settings_for_test (&s, 2, GST_TILE_WIRE_PROTOCOL_UDP);
  s.packet_size = 100;
  tx_start (&tx, &s);
  tx_set_caps (&tx, 250, 8);
  rx_hello (&rx, tx.port, 0);
  fail_unless_equals_int (rx.config.protocol, GST_TILE_WIRE_PROTOCOL_UDP);
  fail_unless_equals_int (rx.config.packet_size, 100);
  for (k = 0; k < rx.config.n_tiles; k++)
    rx.units[k] = udp_unit_socket (&rx, k, tx.port);
  for (i = 0; i < 3; i++)
    frames[i] = make_frame (2000, i);

  /* the units are in (echoed), but no window yet: not ready */
  fail_if (stat_connected (&tx));
  push_expect (&tx, frames[0], GST_TILE_SENDER_PUSH_UNSENT);

  send_ack (&rx, 1, FALSE, 0);
  wait_connected (&tx);
  fail_unless_equals_int (stat_uint (&tx, "receiver-window"), 1);
  push_expect (&tx, frames[0], GST_TILE_SENDER_PUSH_QUEUED);
  push_expect (&tx, frames[1], GST_TILE_SENDER_PUSH_DROPPED_WINDOW);
  for (k = 0; k < rx.config.n_tiles; k++)
    expect_tile_udp (&rx, k, 0, frames[0]);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-dropped"), 1);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-dropped-window"), 1);

  /* frame 0 done (and, max-in-flight being 1, counted as sent), a window
   * of 2: the next frame goes */
  wait_u64 (&tx, "frames-sent", 1);
  send_ack (&rx, 2, TRUE, 0);
  while (stat_uint (&tx, "receiver-window") != 2)
    g_usleep (1000);
  push_expect (&tx, frames[2], GST_TILE_SENDER_PUSH_QUEUED);
  for (k = 0; k < rx.config.n_tiles; k++)
    expect_tile_udp (&rx, k, 1, frames[2]);
  wait_u64 (&tx, "frames-sent", 2);
  /* 2 units of 1000 bytes: 10 datagrams of 100 bytes each per frame, after
   * their headers */
  fail_unless_equals_uint64 (stat_u64 (&tx, "packets-sent"), 2 * 20);
  fail_unless_equals_uint64 (stat_u64 (&tx, "bytes-sent"), 2 * 20 *
      (100 + GST_TILE_WIRE_PACKET_HEADER_SIZE));

  rx_close (&rx);
  tx_stop (&tx);
  for (i = 0; i < 3; i++)
    gst_buffer_unref (frames[i]);
}

GST_END_TEST;

/* max-latency over UDP: a unit stops sending a frame's datagrams at its
 * deadline (paced at 1 Mbit/s, the first 64 KiB burst takes half a
 * second: the rest is never sent) and the frame counts as abandoned. */
GST_START_TEST (test_udp_deadline)
{
  GstTileSenderSettings s;
  GstBuffer *frame = make_frame (256 * 1024, 3);
  guint8 dgram[GST_TILE_WIRE_PACKET_HEADER_SIZE +
      GST_TILE_SENDER_DEFAULT_PACKET_SIZE];
  guint n = gst_tile_wire_packets_per_tile (256 * 1024,
      GST_TILE_SENDER_DEFAULT_PACKET_SIZE), got = 0;
  Tx tx = { 0 };
  Rx rx;

  settings_for_test (&s, 1, GST_TILE_WIRE_PROTOCOL_UDP);
  s.gso = FALSE;
  s.rate_control = FALSE;
  s.pacing_bitrate = 1000000;
  s.max_latency = 100 * GST_MSECOND;
  tx_start (&tx, &s);
  tx_set_caps (&tx, 1024, 256);
  rx_hello (&rx, tx.port, 0);
  rx.units[0] = udp_unit_socket (&rx, 0, tx.port);
  send_ack (&rx, 4, FALSE, 0);
  wait_connected (&tx);

  push_expect (&tx, frame, GST_TILE_SENDER_PUSH_QUEUED);
  wait_u64 (&tx, "frames-abandoned", 1);
  while (gst_tile_net_wait (rx.units[0], FALSE, 200, NULL)) {
    fail_unless_equals_int (recv (rx.units[0], dgram, sizeof (dgram), 0),
        sizeof (dgram));
    got++;
  }
  fail_unless (got < n, "%u of %u datagrams", got, n);
  fail_unless_equals_uint64 (stat_u64 (&tx, "packets-sent"), got);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-sent"), 0);

  rx_close (&rx);
  tx_stop (&tx);
  gst_buffer_unref (frame);
}

GST_END_TEST;

/* ---- retransmission: NACKs ---- */

/* A UDP session of one unit, packet-size 100, frames of 250 x @height
 * (8: 2000 bytes, 20 datagrams), window 4; paced at @pacing bits/s
 * without the rate control (0: not paced). */
static void
nack_session (Tx * tx, Rx * rx, guint64 pacing, guint height)
{
  GstTileSenderSettings s;

  settings_for_test (&s, 1, GST_TILE_WIRE_PROTOCOL_UDP);
  s.packet_size = 100;
  s.gso = FALSE;
  s.rate_control = FALSE;
  s.pacing_bitrate = pacing;
  tx_start (tx, &s);
  tx_set_caps (tx, 250, height);
  rx_hello (rx, tx->port, 0);
  rx->units[0] = udp_unit_socket (rx, 0, tx->port);
  send_ack (rx, 4, FALSE, 0);
  wait_connected (tx);
}

#define NACK_DGRAM (GST_TILE_WIRE_PACKET_HEADER_SIZE + 100)
#define NACK_N 20

/* Unit 0's next @n datagrams of frame @number, each into @dgrams at its
 * index (all of them different) */
static void
recv_datagrams (Rx * rx, guint64 number, guint n,
    guint8 dgrams[NACK_N][NACK_DGRAM])
{
  guint8 buf[NACK_DGRAM + 1];
  gboolean seen[NACK_N] = { FALSE };
  guint i;

  for (i = 0; i < n; i++) {
    GstTileWirePacketHeader ph;
    guint idx;

    fail_unless (gst_tile_net_wait (rx->units[0], FALSE, WAIT_MS, NULL),
        "datagram %u of %u", i, n);
    fail_unless_equals_int (recv (rx->units[0], buf, sizeof (buf), 0),
        NACK_DGRAM);
    fail_unless_equals_int (gst_tile_wire_packet_header_parse (buf,
            NACK_DGRAM, &ph, NULL), GST_TILE_WIRE_PARSE_OK);
    fail_unless_equals_uint64 (ph.frame, number);
    idx = ph.offset / 100;
    fail_unless (idx < NACK_N && !seen[idx]);
    seen[idx] = TRUE;
    memcpy (dgrams[idx], buf, NACK_DGRAM);
  }
}

/* nothing more comes on unit 0 within @ms */
static void
unit_quiet (Rx * rx, guint ms)
{
  fail_if (gst_tile_net_wait (rx->units[0], FALSE, ms, NULL),
      "a datagram nobody asked for");
}

static void
send_nack (Rx * rx, guint32 generation, guint64 frame, guint unit,
    const guint32 * ranges, guint n_ranges)
{
  GstTileWireNack nack;
  GByteArray *m = g_byte_array_new ();
  guint i;

  nack.generation = generation;
  nack.frame = frame;
  nack.unit = unit;
  nack.n_ranges = n_ranges;
  for (i = 0; i < n_ranges; i++) {
    nack.ranges[i].first = ranges[2 * i];
    nack.ranges[i].count = ranges[2 * i + 1];
  }
  fail_unless (gst_tile_wire_nack_pack (&nack, m, NULL));
  send_packed (rx->control, m);
}

/* A NACK of datagrams 2-3, 7 and 19 of a frame sent: exactly those come
 * again, the same bytes as the first time, and nothing else. */
GST_START_TEST (test_udp_nack_resend)
{
  static guint8 first[NACK_N][NACK_DGRAM], again[NACK_N][NACK_DGRAM];
  const guint32 ranges[] = { 2, 2, 7, 1, 19, 1 };
  const guint asked[] = { 2, 3, 7, 19 };
  GstBuffer *frame = make_frame (2000, 5);
  Tx tx = { 0 };
  Rx rx;
  guint i;

  nack_session (&tx, &rx, 0, 8);
  push_expect (&tx, frame, GST_TILE_SENDER_PUSH_QUEUED);
  recv_datagrams (&rx, 0, NACK_N, first);
  wait_u64 (&tx, "frames-sent", 1);

  memset (again, 0, sizeof (again));
  send_nack (&rx, rx.config.generation, 0, 0, ranges, 3);
  recv_datagrams (&rx, 0, G_N_ELEMENTS (asked), again);
  for (i = 0; i < G_N_ELEMENTS (asked); i++)
    fail_unless (memcmp (first[asked[i]], again[asked[i]], NACK_DGRAM) == 0,
        "datagram %u resent with other bytes", asked[i]);
  unit_quiet (&rx, 100);
  wait_u64 (&tx, "packets-retransmitted", 4);
  fail_unless_equals_uint64 (stat_u64 (&tx, "nacks-received"), 1);
  fail_unless_equals_uint64 (stat_u64 (&tx, "nacks-refused"), 0);
  fail_unless_equals_uint64 (stat_u64 (&tx, "retransmits-limited"), 0);
  /* not in packets-sent, their bytes in bytes-sent */
  fail_unless_equals_uint64 (stat_u64 (&tx, "packets-sent"), NACK_N);
  fail_unless_equals_uint64 (stat_u64 (&tx, "bytes-sent"),
      (NACK_N + 4) * NACK_DGRAM);

  rx_close (&rx);
  tx_stop (&tx);
  gst_buffer_unref (frame);
}

GST_END_TEST;

/* NACKs the sender cannot answer are refused and counted, and nothing is
 * sent for them: another generation, a frame not sent yet, a unit of
 * none (64 is the parser's; 1 is past this session's one unit),
 * datagrams past the tile, and a frame no longer held (the unit keeps
 * only its newest frame without max-latency). */
GST_START_TEST (test_udp_nack_refused)
{
  static guint8 dgrams[NACK_N][NACK_DGRAM];
  const guint32 one[] = { 3, 1 }, past[] = { 19, 2 }, far[] = { 1000, 5 };
  GstBuffer *frames[3] = { make_frame (2000, 1), make_frame (2000, 2),
    make_frame (2000, 3)
  };
  Tx tx = { 0 };
  Rx rx;

  nack_session (&tx, &rx, 0, 8);
  push_expect (&tx, frames[0], GST_TILE_SENDER_PUSH_QUEUED);
  recv_datagrams (&rx, 0, NACK_N, dgrams);
  wait_u64 (&tx, "frames-sent", 1);

  send_nack (&rx, rx.config.generation + 1, 0, 0, one, 1);
  send_nack (&rx, rx.config.generation - 1, 0, 0, one, 1);
  send_nack (&rx, rx.config.generation, 1, 0, one, 1);
  send_nack (&rx, rx.config.generation, G_MAXUINT64, 0, one, 1);
  send_nack (&rx, rx.config.generation, 0, 1, one, 1);
  send_nack (&rx, rx.config.generation, 0, 63, one, 1);
  send_nack (&rx, rx.config.generation, 0, 0, past, 1);
  send_nack (&rx, rx.config.generation, 0, 0, far, 1);
  wait_u64 (&tx, "nacks-received", 8);
  wait_u64 (&tx, "nacks-refused", 8);
  unit_quiet (&rx, 100);

  /* the unit keeps its newest 2 frames: once frames 1 and 2 are sent, a
   * NACK of frame 0 is refused */
  send_ack (&rx, 4, TRUE, 0);
  push_expect (&tx, frames[1], GST_TILE_SENDER_PUSH_QUEUED);
  recv_datagrams (&rx, 1, NACK_N, dgrams);
  wait_u64 (&tx, "frames-sent", 2);
  send_ack (&rx, 4, TRUE, 1);
  push_expect (&tx, frames[2], GST_TILE_SENDER_PUSH_QUEUED);
  recv_datagrams (&rx, 2, NACK_N, dgrams);
  wait_u64 (&tx, "frames-sent", 3);
  send_nack (&rx, rx.config.generation, 0, 0, one, 1);
  wait_u64 (&tx, "nacks-refused", 9);
  unit_quiet (&rx, 100);
  fail_unless_equals_uint64 (stat_u64 (&tx, "nacks-received"), 9);
  fail_unless_equals_uint64 (stat_u64 (&tx, "packets-retransmitted"), 0);
  /* the session goes on */
  fail_unless (stat_connected (&tx));

  rx_close (&rx);
  tx_stop (&tx);
  gst_buffer_unref (frames[0]);
  gst_buffer_unref (frames[1]);
  gst_buffer_unref (frames[2]);
}

GST_END_TEST;

/* A flood of NACKs (each for the whole tile of 80 datagrams) costs a
 * bounded rate: paced at 400 kbit/s the receiver's bucket holds 64
 * datagrams and refills at 25 % of the pace (about 84 datagrams of 148
 * bytes a second), below the unit's own bound (twice the frame's
 * datagrams, 160); the rest is counted in retransmits-limited, never
 * sent. */
GST_START_TEST (test_udp_nack_flood)
{
  const guint32 all[] = { 0, 4 * NACK_N };
  GstBuffer *frame = make_frame (8000, 9);
  guint8 buf[NACK_DGRAM + 1];
  guint64 resent, limited, got = 0;
  gint64 start, elapsed;
  gdouble bound;
  Tx tx = { 0 };
  Rx rx;
  guint i;

  nack_session (&tx, &rx, 400000, 32);
  push_expect (&tx, frame, GST_TILE_SENDER_PUSH_QUEUED);
  for (i = 0; i < 4 * NACK_N; i++) {
    fail_unless (gst_tile_net_wait (rx.units[0], FALSE, WAIT_MS, NULL));
    fail_unless_equals_int (recv (rx.units[0], buf, sizeof (buf), 0),
        NACK_DGRAM);
  }
  wait_u64 (&tx, "frames-sent", 1);

  start = g_get_monotonic_time ();
  for (i = 0; i < 200; i++)
    send_nack (&rx, rx.config.generation, 0, 0, all, 1);
  wait_u64 (&tx, "nacks-received", 200);
  /* what comes, until it stops */
  while (gst_tile_net_wait (rx.units[0], FALSE, 300, NULL)) {
    fail_unless_equals_int (recv (rx.units[0], buf, sizeof (buf), 0),
        NACK_DGRAM);
    got++;
  }
  elapsed = g_get_monotonic_time () - start;
  resent = stat_u64 (&tx, "packets-retransmitted");
  limited = stat_u64 (&tx, "retransmits-limited");
  fail_unless_equals_uint64 (resent, got);
  /* the bucket: its burst and its refill while the test ran; and never
   * more than twice the frame's datagrams */
  bound = 64 + 0.25 * 400000 / 8 / NACK_DGRAM * elapsed / 1e6 + 1;
  fail_unless (resent <= bound, "%" G_GUINT64_FORMAT " datagrams resent in "
      "%" G_GINT64_FORMAT " us, more than %.0f", resent, elapsed, bound);
  fail_unless (resent < 2 * 4 * NACK_N);
  fail_unless (resent >= 64);
  fail_unless (limited > 0);
  /* what was not sent again was limited (none refused) */
  fail_unless_equals_uint64 (resent + limited, 200 * 4 * NACK_N);
  fail_unless_equals_uint64 (stat_u64 (&tx, "nacks-refused"), 0);
  fail_unless (stat_connected (&tx));

  rx_close (&rx);
  tx_stop (&tx);
  gst_buffer_unref (frame);
}

GST_END_TEST;

/* With a passphrase a datagram carries a 16-byte tag too: a packet-size
 * that leaves it no room is refused at start, with the largest one that
 * fits. */
GST_START_TEST (test_passphrase_packet_size)
{
  GstTileSenderSettings s;
  GstTileSender *sender;
  GError *err = NULL;

  settings_for_test (&s, 1, GST_TILE_WIRE_PROTOCOL_UDP);
  s.passphrase = "s3cret-p4ss";
  s.packet_size = GST_TILE_WIRE_MAX_PACKET_PAYLOAD;
  sender = gst_tile_sender_new (&s, &callbacks, NULL, NULL);
  fail_if (gst_tile_sender_start (sender, &err));
  fail_unless (err && strstr (err->message, "packet-size 65459 is too large "
          "with a passphrase") && strstr (err->message, "at most 65443"),
      "%s", err ? err->message : "");
  g_clear_error (&err);
  gst_tile_sender_free (sender);

  s.packet_size = GST_TILE_WIRE_MAX_PACKET_PAYLOAD - GST_TILE_WIRE_TAG_SIZE;
  sender = gst_tile_sender_new (&s, &callbacks, NULL, NULL);
  fail_unless (gst_tile_sender_start (sender, &err) > 0, "%s",
      err ? err->message : "");
  gst_tile_sender_free (sender);
}

GST_END_TEST;

/* ---- frames sent while they are written: gst_tile_sender_new_pool () ---- */

/* An active pool for the sender's caps (GRAY8 @width x @height). */
static GstBufferPool *
tx_pool (Tx * tx, guint width, guint height)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      "GRAY8", "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      NULL);
  GstBufferPool *pool = gst_tile_sender_new_pool (tx->sender, caps);
  GstStructure *config;
  guint size = 0;

  fail_unless (pool != NULL);
  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_config_get_params (config, NULL, &size, NULL,
          NULL));
  fail_unless_equals_int (size, width * height);
  gst_structure_free (config);
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  gst_caps_unref (caps);
  return pool;
}

/* A buffer of @pool, its tiling the sender's (@n_tiles of @height rows). */
static GstBuffer *
pool_frame (GstBufferPool * pool, guint n_tiles, guint height, guint width)
{
  GstBuffer *buf = NULL;
  GstBcTileMeta *meta;

  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf, NULL),
      GST_FLOW_OK);
  meta = gst_buffer_get_bc_tile_meta (buf);
  fail_unless (meta != NULL);
  fail_unless_equals_int (gst_bc_tile_meta_get_n_tiles (meta), n_tiles);
  fail_unless (gst_bc_tile_meta_tiles_rows (meta, height, width));
  fail_unless_equals_int (gst_bc_tile_meta_get_n_complete (meta), 0);
  return buf;
}

/* Writes tile @t of @buf (mapped in @map) from @src and completes it. */
static void
write_tile (GstBuffer * buf, GstMapInfo * map, GstBuffer * src, guint t)
{
  GstBcTileMeta *meta = gst_buffer_get_bc_tile_meta (buf);
  const GstBcTile *tile = gst_bc_tile_meta_get_tile (meta, t);

  fail_unless (tile != NULL);
  fail_unless_equals_int (gst_buffer_extract (src, tile->offset,
          map->data + tile->offset, tile->size), tile->size);
  fail_unless (gst_bc_tile_meta_complete (meta, buf, t));
}

/* Nothing to read on @fd for @ms. */
static void
expect_quiet (gint fd, guint ms)
{
  GError *err = NULL;
  guint8 b;

  fail_if (gst_tile_net_read_all (fd, &b, 1, ms, &err),
      "a unit sent before its tile was written");
  g_clear_error (&err);
}

/* The pool's frames go tile by tile: a unit sends its tile as soon as the
 * producer completes it, before the frame is pushed (frames-stepped),
 * with the capture time the producer put on the buffer; the push says the
 * frame is written and returns the admission's result; the buffer comes
 * back to the pool, its tiles reset. A buffer of the pool pushed without
 * completions goes as any frame. */
GST_START_TEST (test_pool_overlap)
{
  GstTileSenderSettings s;
  GstCaps *unix_caps = gst_caps_new_empty_simple ("timestamp/x-unix");
  GstBufferPool *pool;
  GstBuffer *buf, *src, *again;
  GstClockTime origin;
  GstMapInfo map;
  Tx tx = { 0 };
  Rx rx;
  guint k;

  settings_for_test (&s, 3, GST_TILE_WIRE_PROTOCOL_TCP);
  tx_start (&tx, &s);
  /* no caps, no pool */
  fail_unless (gst_tile_sender_new_pool (tx.sender, unix_caps) == NULL);
  tx_set_caps (&tx, 64, 12);
  rx_hello (&rx, tx.port, 0);
  rx_units_tcp (&rx, tx.port, 0);
  wait_connected (&tx);
  pool = tx_pool (&tx, 64, 12);

  src = make_frame (768, 5);
  buf = pool_frame (pool, 3, 12, 64);
  origin = g_get_real_time () * 1000 - 5 * GST_MSECOND;
  gst_buffer_add_reference_timestamp_meta (buf, unix_caps, origin,
      GST_CLOCK_TIME_NONE);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READWRITE));
  /* tile 1 first: only unit 1 sends */
  write_tile (buf, &map, src, 1);
  fail_unless_equals_uint64 (expect_tile_tcp (&rx, 1, 0, src), origin);
  expect_quiet (rx.units[0], 100);
  expect_quiet (rx.units[2], 100);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-stepped"), 1);
  /* and under its former name */
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-overlapped"), 1);
  write_tile (buf, &map, src, 0);
  fail_unless_equals_uint64 (expect_tile_tcp (&rx, 0, 0, src), origin);
  expect_quiet (rx.units[2], 100);
  /* tile 2 written but not completed: the push says it is */
  fail_unless_equals_int (gst_buffer_extract (src, 512, map.data + 512, 256),
      256);
  gst_buffer_unmap (buf, &map);
  push_expect (&tx, buf, GST_TILE_SENDER_PUSH_QUEUED);
  fail_unless_equals_uint64 (expect_tile_tcp (&rx, 2, 0, src), origin);
  gst_buffer_unref (buf);
  wait_u64 (&tx, "frames-sent", 1);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-stepped"), 1);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-dropped"), 0);

  /* back in the pool once sent, its tiles to do again; pushed without a
   * completion it goes whole */
  again = pool_frame (pool, 3, 12, 64);
  fail_unless (gst_buffer_map (again, &map, GST_MAP_WRITE));
  gst_buffer_extract (src, 0, map.data, 768);
  gst_buffer_unmap (again, &map);
  push_expect (&tx, again, GST_TILE_SENDER_PUSH_QUEUED);
  for (k = 0; k < 3; k++)
    expect_tile_tcp (&rx, k, 1, src);
  gst_buffer_unref (again);
  wait_u64 (&tx, "frames-sent", 2);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-stepped"), 1);

  /* a producer that maps the buffer WRITE only: its tiles cannot be read
   * while it writes (a mapping would be a copy), so nothing goes before
   * the push, and the buffer keeps its memory (a buffer of a new pool:
   * GStreamer lets memory once mapped READWRITE be read while mapped
   * WRITE later) */
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  pool = tx_pool (&tx, 64, 12);
  again = pool_frame (pool, 3, 12, 64);
  fail_unless (gst_buffer_map (again, &map, GST_MAP_WRITE));
  write_tile (again, &map, src, 0);
  expect_quiet (rx.units[0], 100);
  write_tile (again, &map, src, 1);
  write_tile (again, &map, src, 2);
  gst_buffer_unmap (again, &map);
  fail_unless (gst_buffer_peek_memory (again, 0) == map.memory);
  push_expect (&tx, again, GST_TILE_SENDER_PUSH_QUEUED);
  for (k = 0; k < 3; k++)
    expect_tile_tcp (&rx, k, 2, src);
  gst_buffer_unref (again);
  wait_u64 (&tx, "frames-sent", 3);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-stepped"), 1);

  gst_buffer_unref (src);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  rx_close (&rx);
  tx_stop (&tx);
  gst_caps_unref (unix_caps);
}

GST_END_TEST;

/* A frame its producer gives up after a completion (the buffer back in
 * the pool unpushed): the tiles sent stay sent, the others are abandoned
 * (an abandon header: the receiver drops the frame), and the stream goes
 * on. Without a receiver the early frame counts once as unsent. A pool
 * that outlives its sender keeps working as a plain pool. */
GST_START_TEST (test_pool_abandon)
{
  GstTileSenderSettings s;
  GstBufferPool *pool;
  GstBuffer *buf, *src;
  guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE];
  GstTileWireTileHeader th;
  GError *err = NULL;
  GstMapInfo map;
  Tx tx = { 0 };
  Rx rx;
  guint k;

  settings_for_test (&s, 2, GST_TILE_WIRE_PROTOCOL_TCP);
  tx_start (&tx, &s);
  tx_set_caps (&tx, 32, 8);
  pool = tx_pool (&tx, 32, 8);
  src = make_frame (256, 9);

  /* no receiver yet: unsent, once */
  buf = pool_frame (pool, 2, 8, 32);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READWRITE));
  write_tile (buf, &map, src, 0);
  write_tile (buf, &map, src, 1);
  gst_buffer_unmap (buf, &map);
  push_expect (&tx, buf, GST_TILE_SENDER_PUSH_UNSENT);
  gst_buffer_unref (buf);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-unsent"), 1);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-stepped"), 0);

  rx_hello (&rx, tx.port, 0);
  rx_units_tcp (&rx, tx.port, 0);
  wait_connected (&tx);
  buf = pool_frame (pool, 2, 8, 32);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READWRITE));
  write_tile (buf, &map, src, 0);
  expect_tile_tcp (&rx, 0, 0, src);
  gst_buffer_unmap (buf, &map);
  /* given up: back to the pool unpushed */
  gst_buffer_unref (buf);
  fail_unless (gst_tile_net_read_all (rx.units[1], hdr, sizeof (hdr),
          WAIT_MS, &err), "%s", err ? err->message : "");
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (hdr, sizeof (hdr),
          128, &th, &err), GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_uint64 (th.frame, 0);
  fail_unless_equals_int (th.flags, GST_TILE_WIRE_TILE_FLAG_ABANDON);
  fail_unless_equals_int (th.size, 0);
  wait_u64 (&tx, "frames-abandoned", 1);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-sent"), 0);

  /* the next frame, from the pool again (the abandoned buffer or a new
   * one), goes whole */
  buf = pool_frame (pool, 2, 8, 32);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READWRITE));
  write_tile (buf, &map, src, 1);
  write_tile (buf, &map, src, 0);
  gst_buffer_unmap (buf, &map);
  push_expect (&tx, buf, GST_TILE_SENDER_PUSH_QUEUED);
  for (k = 0; k < 2; k++)
    expect_tile_tcp (&rx, k, 1, src);
  gst_buffer_unref (buf);
  wait_u64 (&tx, "frames-sent", 1);
  fail_unless_equals_uint64 (stat_u64 (&tx, "frames-stepped"), 2);

  /* the sender gone, its pool still hands out buffers, whose completions
   * do nothing */
  rx_close (&rx);
  tx_stop (&tx);
  buf = pool_frame (pool, 2, 8, 32);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READWRITE));
  write_tile (buf, &map, src, 0);
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  gst_buffer_unref (src);
}

GST_END_TEST;

/* Unit @unit's datagrams of frame @number with forward error correction
 * at @percent: the data datagrams as expect_tile_udp () checks them, then
 * the tile's parity datagrams, each with a valid layout and index, and
 * exactly the parity a receiver decodes with. Returns how many parity
 * datagrams came. */
static guint
expect_tile_udp_fec (Rx * rx, guint unit, guint64 number, GstBuffer * frame,
    guint percent)
{
  const GstTileWireTile *tile = &rx->config.tiles[unit];
  guint ps = rx->config.packet_size;
  guint n = gst_tile_wire_packets_per_tile (tile->size, ps), i;
  guint8 *dgram = g_malloc (GST_TILE_WIRE_PACKET_HEADER_SIZE + ps + 1);
  GstTileFec *fec = gst_tile_fec_new ();
  GstTileFecLayout l;
  guint8 *parity, *seen;
  GError *err = NULL;
  GstMapInfo map;

  fail_unless (gst_tile_fec_layout_for (&l, n, percent));
  parity = g_malloc ((gsize) l.n_parity * ps);
  seen = g_malloc0 (n + l.n_parity);
  gst_buffer_map (frame, &map, GST_MAP_READ);
  gst_tile_fec_encode (fec, &l, map.data + tile->offset, tile->size, ps,
      parity);
  for (i = 0; i < n + l.n_parity; i++) {
    GstTileWirePacketHeader ph;
    const guint8 *payload = dgram + GST_TILE_WIRE_PACKET_HEADER_SIZE;
    guint span, par, index;
    gssize len;

    fail_unless (gst_tile_net_wait (rx->units[unit], FALSE, WAIT_MS, &err),
        "unit %u datagram %u: %s", unit, i, err ? err->message : "");
    len = recv (rx->units[unit], dgram, GST_TILE_WIRE_PACKET_HEADER_SIZE +
        ps + 1, 0);
    fail_unless_equals_int (len, GST_TILE_WIRE_PACKET_HEADER_SIZE + ps);
    fail_unless_equals_int (gst_tile_wire_packet_header_parse (dgram, len,
            &ph, NULL), GST_TILE_WIRE_PARSE_OK);
    fail_unless (gst_tile_wire_packet_check (&ph, &rx->config, NULL));
    fail_unless_equals_uint64 (ph.frame, number);
    if (!(ph.flags & GST_TILE_WIRE_PACKET_FLAG_PARITY)) {
      gsize part = MIN (ps, tile->size - ph.offset);

      /* the data first, all of it */
      fail_unless (i < n);
      fail_if (seen[ph.offset / ps]++);
      fail_unless (memcmp (payload, map.data + tile->offset + ph.offset,
              part) == 0);
      continue;
    }
    fail_unless (i >= n, "parity before the tile's data");
    gst_tile_wire_parity_fields (ph.offset, &span, &par, &index);
    fail_unless_equals_int (span, l.span);
    fail_unless_equals_int (par, l.parity);
    fail_if (seen[n + index]++);
    fail_unless (memcmp (payload, parity + (gsize) index * ps, ps) == 0,
        "parity %u", index);
  }
  gst_buffer_unmap (frame, &map);
  gst_tile_fec_free (fec);
  g_free (parity);
  g_free (seen);
  g_free (dgram);
  return l.n_parity;
}

/* fec=20 over UDP: each unit sends its tile's data, then its parity
 * datagrams (2 groups of 10 data datagrams: 2 parity each), counted in
 * packets-sent and fec-packets-sent. */
GST_START_TEST (test_udp_fec_parity)
{
  GstTileSenderSettings s;
  GstBuffer *frame;
  Tx tx = { 0 };
  Rx rx;
  guint k, parity = 0;

  settings_for_test (&s, 2, GST_TILE_WIRE_PROTOCOL_UDP);
  s.packet_size = 100;
  s.fec = 20;
  tx_start (&tx, &s);
  tx_set_caps (&tx, 1950, 2);
  rx_hello (&rx, tx.port, 0);
  for (k = 0; k < rx.config.n_tiles; k++)
    rx.units[k] = udp_unit_socket (&rx, k, tx.port);
  send_ack (&rx, 4, FALSE, 0);
  wait_connected (&tx);
  fail_unless_equals_int (stat_uint (&tx, "fec-overhead"), 20);
  frame = make_frame (3900, 1);
  push_expect (&tx, frame, GST_TILE_SENDER_PUSH_QUEUED);
  for (k = 0; k < rx.config.n_tiles; k++)
    parity += expect_tile_udp_fec (&rx, k, 0, frame, 20);
  /* 1950 bytes a tile: 20 datagrams, 2 groups of 10, 2 parity each */
  fail_unless_equals_int (parity, 2 * 4);
  wait_u64 (&tx, "frames-sent", 1);
  fail_unless_equals_uint64 (stat_u64 (&tx, "fec-packets-sent"), parity);
  fail_unless_equals_uint64 (stat_u64 (&tx, "packets-sent"), 40 + parity);

  rx_close (&rx);
  tx_stop (&tx);
  gst_buffer_unref (frame);
}

GST_END_TEST;

/* An ACK of @frame with feedback: @received of its datagrams arrived. */
static void
send_ack_feedback (Rx * rx, guint64 frame, guint32 received)
{
  GstTileWireAck ack = { 0 };
  GByteArray *m = g_byte_array_new ();

  ack.generation = rx->config.generation;
  ack.window = 4;
  ack.has_frame = TRUE;
  ack.frame = frame;
  ack.has_feedback = TRUE;
  ack.received = received;
  ack.spanned = received ? received - 1 : 0;
  ack.receive_ns = 1000 * 1000;
  gst_tile_wire_ack_pack (&ack, m);
  send_packed (rx->control, m);
}

/* Reads unit 0's datagrams of one frame until it is quiet: how many. */
static guint
drain_unit (Rx * rx)
{
  guint8 dgram[2048];
  guint n = 0;

  while (gst_tile_net_wait (rx->units[0], FALSE, 30, NULL) &&
      recv (rx->units[0], dgram, sizeof (dgram), 0) > 0)
    n++;
  return n;
}

/* fec=auto: no parity while the receiver reports no loss; parity once it
 * reports loss, never above 50 % however much it reports (a receiver that
 * claims to lose everything gets half, within the pace); none again once
 * the loss is gone. */
GST_START_TEST (test_udp_fec_auto)
{
  GstTileSenderSettings s;
  GstBuffer *frame;
  Tx tx = { 0 };
  Rx rx;
  guint64 f = 0;
  guint got, i;

  settings_for_test (&s, 1, GST_TILE_WIRE_PROTOCOL_UDP);
  s.packet_size = 100;
  s.fec = GST_TILE_SENDER_FEC_AUTO;
  tx_start (&tx, &s);
  tx_set_caps (&tx, 1000, 2);
  rx_hello (&rx, tx.port, 0);
  rx.units[0] = udp_unit_socket (&rx, 0, tx.port);
  send_ack (&rx, 4, FALSE, 0);
  wait_connected (&tx);
  frame = make_frame (2000, 1);

  /* clean: 20 datagrams a frame, no parity */
  for (i = 0; i < 3; i++, f++) {
    push_expect (&tx, frame, GST_TILE_SENDER_PUSH_QUEUED);
    got = drain_unit (&rx);
    fail_unless_equals_int (got, 20);
    wait_u64 (&tx, "frames-sent", f + 1);
    send_ack_feedback (&rx, f, got);
  }
  fail_unless_equals_int (stat_uint (&tx, "fec-overhead"), 0);
  fail_unless_equals_uint64 (stat_u64 (&tx, "fec-packets-sent"), 0);

  /* a receiver that claims to lose everything: at most half again */
  for (i = 0; i < 40; i++, f++) {
    push_expect (&tx, frame, GST_TILE_SENDER_PUSH_QUEUED);
    got = drain_unit (&rx);
    fail_unless (got <= 30, "%u datagrams", got);
    wait_u64 (&tx, "frames-sent", f + 1);
    send_ack_feedback (&rx, f, 0);
  }
  while (stat_uint (&tx, "fec-overhead") < GST_TILE_FEC_MAX_PERCENT)
    g_usleep (1000);
  fail_unless (stat_u64 (&tx, "fec-packets-sent") > 0);

  /* no loss again: the overhead falls back to none */
  for (i = 0; i < 80 && stat_uint (&tx, "fec-overhead") > 0; i++, f++) {
    push_expect (&tx, frame, GST_TILE_SENDER_PUSH_QUEUED);
    got = drain_unit (&rx);
    wait_u64 (&tx, "frames-sent", f + 1);
    send_ack_feedback (&rx, f, got);
    g_usleep (2000);
  }
  fail_unless_equals_int (stat_uint (&tx, "fec-overhead"), 0);

  rx_close (&rx);
  tx_stop (&tx);
  gst_buffer_unref (frame);
}

GST_END_TEST;

static Suite *
tilesender_suite (void)
{
  Suite *s = suite_create ("tilesender");
  TCase *tc = test_suite_add_general (s, 30);

  gst_bc_init ();
  tcase_add_test (tc, test_tcp_session);
  tcase_add_test (tc, test_second_receiver_busy);
  tcase_add_test (tc, test_two_receivers);
  tcase_add_test (tc, test_origin_timestamp);
  tcase_add_test (tc, test_handshake_timeout);
  tcase_add_test (tc, test_eos);
  tcase_add_test (tc, test_drop_in_flight);
  tcase_add_test (tc, test_tcp_deadline);
  tcase_add_test (tc, test_tcp_congestion_control);
  tcase_add_test (tc, test_replace_waiting);
  tcase_add_test (tc, test_send_buffer_warning);
  tcase_add_test (tc, test_udp_units);
  tcase_add_test (tc, test_udp_deadline);
  tcase_add_test (tc, test_udp_nack_resend);
  tcase_add_test (tc, test_udp_fec_parity);
  tcase_add_test (tc, test_udp_fec_auto);
  tcase_add_test (tc, test_udp_nack_refused);
  tcase_add_test (tc, test_udp_nack_flood);
  tcase_add_test (tc, test_passphrase_packet_size);
  tcase_add_test (tc, test_pool_overlap);
  tcase_add_test (tc, test_pool_abandon);
  return s;
}

GST_CHECK_MAIN (tilesender);
