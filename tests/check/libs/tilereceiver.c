/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* libgsttile's receiver session without a pipeline: a GstTileReceiver on
 * 127.0.0.1 against a sender written here with tilewire and tilenet, over
 * TCP and UDP. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <gst/check/gstcheck.h>
#include <gst/bc/bclossmeta.h>
#include <gst/tile/tilereceiver.h>
#include <gst/tile/tilenet.h>

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gstbctest.h"

#define ROWS 4
#define ROW_BYTES 16
#define FRAME_SIZE (ROWS * ROW_BYTES)
#define CAPS "video/x-raw, format=(string)GRAY8, width=(int)16, height=(int)4"

static gint stats_posted;

static GstBuffer *
acquire_buffer (gpointer user_data)
{
  return gst_buffer_new_allocate (NULL, FRAME_SIZE, NULL);
}

static GstClockTime
clock_time (gpointer user_data)
{
  return gst_util_get_timestamp ();
}

static gboolean
check_config (gpointer user_data, const GstTileWireConfig * config,
    GError ** error)
{
  if (strcmp (config->caps, CAPS) == 0)
    return TRUE;
  g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
      "caps not for us");
  return FALSE;
}

static void
post_stats (gpointer user_data, GstStructure * stats)
{
  g_atomic_int_inc (&stats_posted);
  gst_structure_free (stats);
}

static void
buffer_warning (gpointer user_data, gint granted, gint asked)
{
}

static const GstTileReceiverCallbacks callbacks = {
  acquire_buffer, clock_time, check_config, post_stats, buffer_warning
};

/* ---- the sender, by hand ---- */

typedef struct
{
  gint listen_fd;
  guint port;
  gint ctl;
  GstTileWireConfig config;
} Sender;

static void
sender_listen (Sender * s)
{
  GError *err = NULL;

  memset (s, 0, sizeof (*s));
  s->listen_fd = gst_tile_net_listen ("127.0.0.1", 0, &s->port, &err);
  fail_unless (s->listen_fd >= 0, "%s", err ? err->message : "");
  s->ctl = -1;
}

static gint
accept_message (Sender * s, GstTileWireType type, GByteArray * payload)
{
  GstTileWireHeader h;
  GError *err = NULL;
  gint fd;

  fail_unless (gst_tile_net_wait (s->listen_fd, FALSE, 5000, &err));
  fd = gst_tile_net_accept (s->listen_fd, &err);
  fail_unless (fd >= 0);
  fail_unless (gst_tile_net_read_message (fd, 5000, &h, payload, &err), "%s",
      err ? err->message : "");
  fail_unless_equals_int (h.type, type);
  return fd;
}

static void
send_packed (gint fd, GByteArray * m)
{
  GError *err = NULL;

  fail_unless (gst_tile_net_send_packed (fd, m, &err), "%s",
      err ? err->message : "");
  g_byte_array_set_size (m, 0);
}

/* Accepts the receiver's control connection and answers its HELLO with a
 * CONFIG of @n_units tiles. */
static void
sender_handshake (Sender * s, GstTileWireProtocol protocol, guint n_units,
    guint packet_size)
{
  GByteArray *m = g_byte_array_new ();
  GstBcTiling tiling;

  s->ctl = accept_message (s, GST_TILE_WIRE_TYPE_HELLO, m);
  fail_unless (gst_bc_tiling_init (&tiling, ROWS, ROW_BYTES, n_units));
  fail_unless (gst_tile_wire_config_set_tiling (&s->config, &tiling, NULL));
  fail_unless (gst_tile_wire_config_set_caps (&s->config, CAPS, NULL));
  s->config.token = 42;
  s->config.generation = 1;
  s->config.protocol = protocol;
  s->config.chunk_size = 65536;
  s->config.packet_size = packet_size;
  g_byte_array_set_size (m, 0);
  fail_unless (gst_tile_wire_config_pack (&s->config, m, NULL));
  send_packed (s->ctl, m);
  g_byte_array_unref (m);
}

static void
sender_close (Sender * s)
{
  gst_tile_net_close (&s->ctl);
  gst_tile_net_close (&s->listen_fd);
}

static GstTileReceiver *
receiver_start (Sender * s)
{
  GstTileReceiver *rx = gst_tile_receiver_new (&callbacks, NULL, NULL);
  GstTileReceiverSettings settings = { "127.0.0.1", s->port, 5000, 0, FALSE,
    FALSE
  };

  gst_tile_receiver_set_stats_interval (rx, 0);
  gst_tile_receiver_start (rx, &settings);
  return rx;
}

/* The first pull of a session: the sender's caps, then its units start. */
static void
expect_new_caps (GstTileReceiver * rx)
{
  GstTileReceiverFrame f;
  GError *err = NULL;
  gchar *caps = NULL;

  fail_unless_equals_int (gst_tile_receiver_pull (rx, &f, &caps, &err),
      GST_TILE_RECEIVER_NEW_CAPS);
  fail_unless_equals_string (caps, CAPS);
  g_free (caps);
  gst_tile_receiver_start_generation (rx, 20 * GST_MSECOND);
}

static GstBuffer *
expect_frame (GstTileReceiver * rx, guint64 number, GstClockTime sender_time)
{
  GstTileReceiverFrame f;
  GError *err = NULL;
  gchar *caps = NULL;

  fail_unless_equals_int (gst_tile_receiver_pull (rx, &f, &caps, &err),
      GST_TILE_RECEIVER_FRAME);
  fail_unless_equals_uint64 (f.frame, number);
  fail_unless_equals_uint64 (f.sender_time, sender_time);
  fail_unless (GST_CLOCK_TIME_IS_VALID (f.complete_time));
  fail_unless_equals_int (gst_buffer_get_size (f.buffer), FRAME_SIZE);
  if (f.udp)
    gst_tile_receiver_keep_last (rx, f.buffer);
  return f.buffer;
}

static void
fill (guint8 * data, guint64 frame)
{
  guint i;

  for (i = 0; i < FRAME_SIZE; i++)
    data[i] = (guint8) (frame * 31 + i);
}

static guint64
stat_u64 (GstTileReceiver * rx, const gchar * field)
{
  GstStructure *s = gst_tile_receiver_get_stats (rx);
  guint64 v = G_MAXUINT64;

  fail_unless (gst_structure_get_uint64 (s, field, &v), "no %s", field);
  gst_structure_free (s);
  return v;
}

/* A TCP session of two units: handshake, caps, the data connections in
 * @units. */
static void
tcp_session (Sender * s, GstTileReceiver * rx, gint units[2])
{
  GByteArray *m = g_byte_array_new ();
  guint i;

  sender_handshake (s, GST_TILE_WIRE_PROTOCOL_TCP, 2, 0);
  expect_new_caps (rx);
  for (i = 0; i < 2; i++) {
    GstTileWireUnitHello uh;
    gint fd = accept_message (s, GST_TILE_WIRE_TYPE_UNIT_HELLO, m);

    fail_unless (gst_tile_wire_unit_hello_parse (m->data, m->len, &uh, NULL));
    fail_unless_equals_uint64 (uh.token, 42);
    fail_unless (uh.unit < 2);
    units[uh.unit] = fd;
  }
  g_byte_array_unref (m);
}

/* Sends unit @unit's tile of @frame in parts of @sizes bytes (0-ended);
 * with @abandon the last part is followed by an abandon instead of the
 * rest of the tile. */
static void
send_parts (Sender * s, gint fd, guint unit, guint64 n, const guint8 * frame,
    const guint * sizes, gboolean abandon)
{
  const GstTileWireTile *t = &s->config.tiles[unit];
  GstTileWireTileHeader th = { 1, n, 1000 + n, 0, 0 };
  guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE];
  gsize off = 0;
  guint i;

  for (i = 0; sizes[i]; i++) {
    th.size = sizes[i];
    th.flags = off + th.size < t->size ? GST_TILE_WIRE_TILE_FLAG_MORE : 0;
    gst_tile_wire_tile_header_write (hdr, &th);
    fail_unless (gst_tile_net_write_all (fd, hdr, sizeof (hdr), 0, NULL));
    fail_unless (gst_tile_net_write_all (fd, frame + t->offset + off,
            th.size, 0, NULL));
    off += th.size;
  }
  if (abandon) {
    th.size = 0;
    th.flags = GST_TILE_WIRE_TILE_FLAG_ABANDON;
    gst_tile_wire_tile_header_write (hdr, &th);
    fail_unless (gst_tile_net_write_all (fd, hdr, sizeof (hdr), 0, NULL));
  }
}

/* TCP: two units, each reads its tile straight into the frame; EOS. */
GST_START_TEST (test_tcp_frames_and_eos)
{
  GByteArray *m = g_byte_array_new ();
  GstTileReceiver *rx;
  Sender s;
  gint units[2];
  guint8 frame[FRAME_SIZE];
  guint64 n;
  guint i;

  sender_listen (&s);
  rx = receiver_start (&s);
  tcp_session (&s, rx, units);

  for (n = 0; n < 3; n++) {
    GstBuffer *buf;

    fill (frame, n);
    for (i = 0; i < 2; i++) {
      const GstTileWireTile *t = &s.config.tiles[i];
      GstTileWireTileHeader th = { 1, n, 1000 + n, t->size, 0 };
      guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE];

      gst_tile_wire_tile_header_write (hdr, &th);
      fail_unless (gst_tile_net_write_all (units[i], hdr, sizeof (hdr),
              65536, NULL));
      fail_unless (gst_tile_net_write_all (units[i], frame + t->offset,
              t->size, 65536, NULL));
    }
    buf = expect_frame (rx, n, 1000 + n);
    fail_unless (gst_buffer_memcmp (buf, 0, frame, FRAME_SIZE) == 0);
    gst_buffer_unref (buf);
  }
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-received"), 3);
  fail_unless_equals_uint64 (stat_u64 (rx, "bytes-received"),
      3 * (FRAME_SIZE + 2 * GST_TILE_WIRE_TILE_HEADER_SIZE));

  /* EOS: the generation ends when the sender closes its units */
  g_byte_array_set_size (m, 0);
  gst_tile_wire_eos_pack (m);
  send_packed (s.ctl, m);
  for (i = 0; i < 2; i++)
    gst_tile_net_close (&units[i]);
  {
    GstTileReceiverFrame f;
    GError *err = NULL;
    gchar *caps = NULL;

    GstTileReceiverResult r = gst_tile_receiver_pull (rx, &f, &caps, &err);

    fail_unless (r == GST_TILE_RECEIVER_EOS, "%d: %s", r,
        err ? err->message : "");
  }
  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  sender_close (&s);
  g_byte_array_unref (m);
}

GST_END_TEST;

/* Frame @n, unit 0's tile in parts @p0 and unit 1's in parts @p1, both
 * whole: it comes out intact. */
static void
send_expect_whole (Sender * s, GstTileReceiver * rx, gint units[2], guint64 n,
    const guint * p0, const guint * p1)
{
  guint8 frame[FRAME_SIZE];
  GstBuffer *buf;

  fill (frame, n);
  send_parts (s, units[0], 0, n, frame, p0, FALSE);
  send_parts (s, units[1], 1, n, frame, p1, FALSE);
  buf = expect_frame (rx, n, 1000 + n);
  fail_unless (gst_buffer_memcmp (buf, 0, frame, FRAME_SIZE) == 0);
  gst_buffer_unref (buf);
}

/* TCP with deadlines (wire version 3): a tile in parts arrives whole; a
 * tile abandoned by the sender, before or after some parts, drops its
 * frame while both connections go on with the next one; a part of another
 * frame inside a tile is an error that says so. */
GST_START_TEST (test_tcp_parts_and_abandon)
{
  static const guint whole[] = { 32, 0 }, three[] = { 16, 8, 8, 0 },
      one_part[] = { 24, 0 }, none[] = { 0 };
  GstTileReceiverFrame f;
  GstTileReceiver *rx;
  GError *err = NULL;
  gchar *caps = NULL;
  guint8 frame[FRAME_SIZE];
  gint units[2];
  Sender s;

  sender_listen (&s);
  rx = receiver_start (&s);
  tcp_session (&s, rx, units);

  /* frame 0: unit 0 in three parts */
  send_expect_whole (&s, rx, units, 0, three, whole);

  /* frame 1: unit 0 abandons after a part, unit 1 sends all of it; frame 2
   * comes whole on the same connections */
  fill (frame, 1);
  send_parts (&s, units[0], 0, 1, frame, one_part, TRUE);
  send_parts (&s, units[1], 1, 1, frame, whole, FALSE);
  send_expect_whole (&s, rx, units, 2, whole, whole);

  /* frame 3: unit 1 abandons before its first byte */
  fill (frame, 3);
  send_parts (&s, units[0], 0, 3, frame, whole, FALSE);
  send_parts (&s, units[1], 1, 3, frame, none, TRUE);
  send_expect_whole (&s, rx, units, 4, three, whole);

  fail_unless_equals_uint64 (stat_u64 (rx, "frames-received"), 3);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-abandoned"), 2);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-incomplete"), 0);
  {
    GstStructure *st = gst_tile_receiver_get_stats (rx);
    guint connects = 0;

    /* the connections were not remade */
    fail_unless (gst_structure_get_uint (st, "connects", &connects));
    fail_unless_equals_int (connects, 1);
    gst_structure_free (st);
  }
  /* every header and data byte, abandons included */
  fail_unless_equals_uint64 (stat_u64 (rx, "bytes-received"),
      3 * FRAME_SIZE + 24 + 32 + 32 + 15 * GST_TILE_WIRE_TILE_HEADER_SIZE);

  /* a part of frame 6 inside the tile of frame 5 */
  send_parts (&s, units[0], 0, 5, frame, one_part, FALSE);
  {
    GstTileWireTileHeader th = { 1, 6, 1006, 8, 0 };
    guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE];

    gst_tile_wire_tile_header_write (hdr, &th);
    fail_unless (gst_tile_net_write_all (units[0], hdr, sizeof (hdr), 0, NULL));
  }
  fail_unless_equals_int (gst_tile_receiver_pull (rx, &f, &caps, &err),
      GST_TILE_RECEIVER_ERROR);
  fail_unless (strstr (err->message, "unit 0: part of generation 1 frame 6 "
          "inside the tile of generation 1 frame 5") != NULL, "%s",
      err->message);
  g_clear_error (&err);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&units[0]);
  gst_tile_net_close (&units[1]);
  sender_close (&s);
}

GST_END_TEST;

static gint keepalive_stop;

/* The sender's control connection stays alive. */
static gpointer
keep_alive (gpointer data)
{
  Sender *s = data;

  while (!g_atomic_int_get (&keepalive_stop)) {
    GByteArray *m = g_byte_array_new ();

    gst_tile_wire_keepalive_pack (g_get_monotonic_time () * 1000, m);
    send_packed (s->ctl, m);
    g_usleep (100 * 1000);
  }
  return NULL;
}

/* A sender that stops inside a tile while its keep-alives go on: the
 * receiver gives up after its timeout with an error that says so (it
 * waited forever before). Between frames a quiet sender is fine. */
GST_START_TEST (test_tcp_stall_inside_tile)
{
  static const guint whole[] = { 32, 0 };
  GstTileReceiverSettings settings = { "127.0.0.1", 0, 1000, 0, FALSE, FALSE };
  GstTileReceiver *rx = gst_tile_receiver_new (&callbacks, NULL, NULL);
  GstTileWireTileHeader th = { 1, 1, 1001, 32, 0 };
  guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE], frame[FRAME_SIZE];
  GstTileReceiverFrame f;
  GError *err = NULL;
  gchar *caps = NULL;
  GThread *ka;
  gint units[2];
  Sender s;

  sender_listen (&s);
  settings.port = s.port;
  gst_tile_receiver_set_stats_interval (rx, 0);
  gst_tile_receiver_start (rx, &settings);
  tcp_session (&s, rx, units);
  g_atomic_int_set (&keepalive_stop, 0);
  ka = g_thread_new ("keepalive", keep_alive, &s);

  /* quiet for 1.5 x the timeout between frames: no error */
  g_usleep (1500 * 1000);
  send_expect_whole (&s, rx, units, 0, whole, whole);

  /* frame 1: unit 0 sends its header and 10 of its 32 bytes, then nothing */
  fill (frame, 1);
  gst_tile_wire_tile_header_write (hdr, &th);
  fail_unless (gst_tile_net_write_all (units[0], hdr, sizeof (hdr), 0, NULL));
  fail_unless (gst_tile_net_write_all (units[0], frame, 10, 0, NULL));
  send_parts (&s, units[1], 1, 1, frame, whole, FALSE);
  fail_unless_equals_int (gst_tile_receiver_pull (rx, &f, &caps, &err),
      GST_TILE_RECEIVER_ERROR);
  fail_unless (strstr (err->message, "unit 0: the sender stopped inside the "
          "tile of frame 1: no data for 1000 ms") != NULL, "%s", err->message);
  g_clear_error (&err);

  g_atomic_int_set (&keepalive_stop, 1);
  g_thread_join (ka);
  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&units[0]);
  gst_tile_net_close (&units[1]);
  sender_close (&s);
}

GST_END_TEST;

/* A sender that changes its caps all the time (each CONFIG is a
 * renegotiation downstream) is cut off after 10 in a second. */
GST_START_TEST (test_config_flood)
{
  GByteArray *m = g_byte_array_new ();
  GstTileReceiverFrame f;
  GstTileReceiver *rx;
  GError *err = NULL;
  gchar *caps = NULL;
  Sender s;
  guint i;

  sender_listen (&s);
  rx = receiver_start (&s);
  sender_handshake (&s, GST_TILE_WIRE_PROTOCOL_TCP, 2, 0);
  for (i = 0; i < 12; i++) {
    s.config.generation++;
    g_byte_array_set_size (m, 0);
    fail_unless (gst_tile_wire_config_pack (&s.config, m, NULL));
    send_packed (s.ctl, m);
  }
  /* no generation is started: the caps announced until the error comes */
  for (i = 0; i < 100; i++) {
    GstTileReceiverResult r = gst_tile_receiver_pull (rx, &f, &caps, &err);

    g_clear_pointer (&caps, g_free);
    if (r == GST_TILE_RECEIVER_NEW_CAPS) {
      g_usleep (50 * 1000);
      continue;
    }
    fail_unless_equals_int (r, GST_TILE_RECEIVER_ERROR);
    break;
  }
  fail_unless (err != NULL);
  fail_unless (strstr (err->message, "more than 10 CONFIGs") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  sender_close (&s);
  g_byte_array_unref (m);
}

GST_END_TEST;

/* A refusal is an error that says why; flushing interrupts a pull. */
GST_START_TEST (test_refused_and_flushing)
{
  GByteArray *m = g_byte_array_new ();
  GstTileReceiverFrame f;
  GstTileReceiver *rx;
  GError *err = NULL;
  gchar *caps = NULL;
  Sender s;

  sender_listen (&s);
  rx = receiver_start (&s);
  s.ctl = accept_message (&s, GST_TILE_WIRE_TYPE_HELLO, m);
  g_byte_array_set_size (m, 0);
  fail_unless (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_BUSY,
          "another receiver is served", m, NULL));
  send_packed (s.ctl, m);
  fail_unless_equals_int (gst_tile_receiver_pull (rx, &f, &caps, &err),
      GST_TILE_RECEIVER_ERROR);
  /* busy: its own code, on which a receiver decides to try again */
  fail_unless (g_error_matches (err, GST_TILE_WIRE_ERROR,
          GST_TILE_WIRE_ERROR_BUSY));
  fail_unless (strstr (err->message, "refused the connection (busy): "
          "another receiver is served") != NULL, "%s", err->message);
  g_clear_error (&err);

  gst_tile_receiver_set_flushing (rx, TRUE);
  fail_unless_equals_int (gst_tile_receiver_pull (rx, &f, &caps, &err),
      GST_TILE_RECEIVER_FLUSHING);
  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  sender_close (&s);
  g_byte_array_unref (m);
}

GST_END_TEST;

/* Sends the datagrams of @frame but the one at @skip (G_MAXUINT: none). */
static void
send_datagrams (gint fd, const struct sockaddr_storage *to, socklen_t to_len,
    guint64 n, guint skip)
{
  guint8 frame[FRAME_SIZE], pk[GST_TILE_WIRE_PACKET_HEADER_SIZE + 16];
  guint off;

  fill (frame, n);
  for (off = 0; off < FRAME_SIZE; off += 16) {
    GstTileWirePacketHeader ph = { 0, 1, off, n, 2000 + n };

    if (off / 16 == skip)
      continue;
    gst_tile_wire_packet_header_write (pk, &ph);
    memcpy (pk + GST_TILE_WIRE_PACKET_HEADER_SIZE, frame + off, 16);
    gst_tile_net_udp_send_to (fd, pk, sizeof (pk),
        (const struct sockaddr *) to, to_len);
  }
}

/* A frame pushed with one gap, at @offset: flagged corrupted, the gap
 * listed in its loss meta (returned) */
static GstBcLossMeta *
expect_one_gap (GstBuffer * buf, guint64 offset)
{
  GstBcLossMeta *loss = gst_buffer_get_bc_loss_meta (buf);

  fail_unless (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  fail_unless (loss != NULL);
  fail_unless_equals_int (loss->n_ranges, 1);
  fail_unless_equals_uint64 (loss->ranges[0].offset, offset);
  return loss;
}

/* UDP: the unit's hello is answered, the receiver's window comes as an
 * ACK, whole frames leave at once, a frame with a lost datagram leaves on
 * its timer with the gap concealed and listed, also when no frame follows
 * it. */
GST_START_TEST (test_udp_loss_concealed)
{
  GByteArray *m = g_byte_array_new ();
  struct sockaddr_storage ss, unit;
  socklen_t unit_len = sizeof (unit);
  GstTileWireHeader h;
  GstTileWireAck ack;
  GstTileReceiver *rx;
  GstBcLossMeta *loss;
  GstBuffer *buf;
  guint8 hello[256], expect[FRAME_SIZE];
  gssize n;
  guint sl;
  gint udp;
  Sender s;

  sender_listen (&s);
  sl = gst_tile_net_address (s.listen_fd, FALSE, &ss);
  udp = gst_tile_net_udp_bind ((struct sockaddr *) &ss, sl, NULL);
  fail_unless (udp >= 0);
  rx = receiver_start (&s);
  sender_handshake (&s, GST_TILE_WIRE_PROTOCOL_UDP, 1, 16);
  expect_new_caps (rx);

  /* the unit's UNIT_HELLO, echoed */
  fail_unless (gst_tile_net_wait (udp, FALSE, 5000, NULL));
  n = recvfrom (udp, hello, sizeof (hello), 0, (struct sockaddr *) &unit,
      &unit_len);
  fail_unless (n > GST_TILE_WIRE_HEADER_SIZE);
  fail_unless (gst_tile_wire_header_parse (hello, n, &h, NULL) ==
      GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_UNIT_HELLO);
  gst_tile_net_udp_send_to (udp, hello, n, (struct sockaddr *) &unit, unit_len);
  /* its window, before any frame */
  fail_unless (gst_tile_net_read_message (s.ctl, 5000, &h, m, NULL));
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_ACK);
  fail_unless (gst_tile_wire_ack_parse (m->data, m->len, &ack, NULL));
  fail_if (ack.has_frame);
  fail_unless (ack.window >= 2);

  /* frame 0 whole */
  send_datagrams (udp, &unit, unit_len, 0, G_MAXUINT);
  buf = expect_frame (rx, 0, 2000);
  fill (expect, 0);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  gst_buffer_unref (buf);
  fail_unless (gst_tile_net_read_message (s.ctl, 5000, &h, m, NULL));
  fail_unless (gst_tile_wire_ack_parse (m->data, m->len, &ack, NULL));
  fail_unless (ack.has_frame);
  fail_unless_equals_uint64 (ack.frame, 0);

  /* frame 1 without its third datagram, then frame 2 whole: frame 1
   * leaves on its timer, the gap holding frame 0's bytes */
  send_datagrams (udp, &unit, unit_len, 1, 2);
  send_datagrams (udp, &unit, unit_len, 2, G_MAXUINT);
  buf = expect_frame (rx, 1, 2001);
  loss = expect_one_gap (buf, 32);
  fail_unless_equals_uint64 (loss->ranges[0].size, 16);
  fill (expect, 1);
  {
    guint8 f0[FRAME_SIZE];

    fill (f0, 0);
    memcpy (expect + 32, f0 + 32, 16);
  }
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  gst_buffer_unref (buf);
  buf = expect_frame (rx, 2, 2002);
  fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  gst_buffer_unref (buf);

  /* frame 3 without its first datagram and nothing after it (a sender
   * waiting for the window this frame holds): its timer runs from its own
   * first datagram, it does not wait for a newer frame */
  send_datagrams (udp, &unit, unit_len, 3, 0);
  buf = expect_frame (rx, 3, 2003);
  expect_one_gap (buf, 0);
  gst_buffer_unref (buf);

  fail_unless_equals_uint64 (stat_u64 (rx, "frames-partial"), 2);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-timer"), 2);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-lost"), 2);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-received"), 14);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&udp);
  sender_close (&s);
  g_byte_array_unref (m);
}

GST_END_TEST;

static Suite *
tilereceiver_suite (void)
{
  Suite *s = suite_create ("tilereceiver");
  TCase *tc = test_suite_add_general (s, 60);

  tcase_add_test (tc, test_tcp_frames_and_eos);
  tcase_add_test (tc, test_tcp_parts_and_abandon);
  tcase_add_test (tc, test_tcp_stall_inside_tile);
  tcase_add_test (tc, test_config_flood);
  tcase_add_test (tc, test_refused_and_flushing);
  tcase_add_test (tc, test_udp_loss_concealed);
  return s;
}

GST_CHECK_MAIN (tilereceiver);
