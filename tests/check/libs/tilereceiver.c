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
#include <gst/tile/tilestats.h>
#include <gst/tile/tilekeys.h>
#include <gst/tile/tilepake.h>
#include <gst/tile/tilefec.h>

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
  /* with a passphrase: the handshake (@bad_proof: our proof is wrong), the
   * session's keys, its sealed control records, and the data key of
   * generation 1's first frames */
  const gchar *passphrase;
  gboolean bad_proof;
  GstTileKeys keys;
  GstTileRecords *out, *in;
  guint8 key[GST_TILE_SEAL_KEY_SIZE];
} Sender;

static void
sender_listen (Sender * s)
{
  GError *err = NULL;
  const gchar *passphrase = s->passphrase;
  gboolean bad_proof = s->bad_proof;

  memset (s, 0, sizeof (*s));
  s->passphrase = passphrase;
  s->bad_proof = bad_proof;
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

/* A control message to the receiver: sealed after a handshake with a
 * passphrase. */
static void
sender_send (Sender * s, GByteArray * m)
{
  if (s->out)
    gst_tile_records_seal (s->out, m);
  send_packed (s->ctl, m);
}

/* The receiver's next control message (opened, when sealed), past its
 * queries of the sender's clock (TIME: this sender has none to answer
 * with). */
static gboolean
sender_read (Sender * s, GstTileWireHeader * h, GByteArray * m)
{
  GstTileWireHeader outer;
  GError *err = NULL;

  do {
    if (!gst_tile_net_read_message (s->ctl, 5000, s->in ? &outer : h, m,
            &err)) {
      g_clear_error (&err);
      return FALSE;
    }
    fail_unless (!s->in || gst_tile_records_open (s->in, &outer, m, h, &err),
        "%s", err ? err->message : "");
  } while (h->type == GST_TILE_WIRE_TYPE_TIME);
  return TRUE;
}

/* With a passphrase, the sender's side of CHALLENGE and AUTH after the
 * HELLO in @m (CPace, the sender the initiator): checks the receiver's
 * proof, derives the keys; the control messages are sealed from then on. */
static void
sender_auth (Sender * s, GByteArray * m)
{
  GstTileWireHello hello;
  GstTileWireChallenge ch;
  GstTileWireAuth auth;
  GstTileWireHeader h;
  GstTilePake pake;
  guint8 sid[32], isk[GST_TILE_PAKE_ISK_SIZE], th[32];
  GError *err = NULL;

  fail_unless (gst_tile_wire_hello_parse (m->data, m->len, &hello, NULL));
  fail_unless (hello.flags & GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE);
  fail_unless (gst_tile_seal_random (ch.nonce, sizeof (ch.nonce)));
  memcpy (sid, hello.nonce, 16);
  memcpy (sid + 16, ch.nonce, 16);
  fail_unless (gst_tile_pake_start (&pake, (const guint8 *) s->passphrase,
          strlen (s->passphrase), (const guint8 *) GST_TILE_KEYS_CPACE_CI,
          strlen (GST_TILE_KEYS_CPACE_CI), sid, sizeof (sid), NULL));
  memcpy (ch.share, gst_tile_pake_share (&pake), sizeof (ch.share));
  g_byte_array_set_size (m, 0);
  gst_tile_wire_challenge_pack (&ch, m);
  send_packed (s->ctl, m);
  fail_unless (gst_tile_net_read_message (s->ctl, 5000, &h, m, &err), "%s",
      err ? err->message : "");
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_AUTH);
  fail_unless (gst_tile_wire_auth_parse (m->data, m->len, &auth, NULL));
  fail_unless (gst_tile_pake_finish (&pake, TRUE, NULL, 0, auth.share, NULL,
          0, sid, sizeof (sid), isk));
  gst_tile_keys_transcript (&hello, &ch, auth.share, th);
  gst_tile_keys_derive (isk, sizeof (isk), th, &s->keys);
  fail_unless (memcmp (auth.proof, s->keys.client_proof, 32) == 0);
  memcpy (auth.share, ch.share, sizeof (auth.share));
  memcpy (auth.proof, s->keys.sender_proof, sizeof (auth.proof));
  if (s->bad_proof)
    auth.proof[7] ^= 0x10;
  g_byte_array_set_size (m, 0);
  gst_tile_wire_auth_pack (&auth, m);
  send_packed (s->ctl, m);
  s->out = gst_tile_records_new (TRUE, s->keys.s2c);
  s->in = gst_tile_records_new (FALSE, s->keys.c2s);
  gst_tile_keys_data_key (s->keys.data, 1, 0, s->key);
}

/* Accepts the receiver's control connection and answers its HELLO with a
 * CONFIG of @n_units tiles (with a passphrase, after CHALLENGE and
 * AUTH). */
static void
sender_handshake (Sender * s, GstTileWireProtocol protocol, guint n_units,
    guint packet_size)
{
  GByteArray *m = g_byte_array_new ();
  GstBcTiling tiling;

  s->ctl = accept_message (s, GST_TILE_WIRE_TYPE_HELLO, m);
  if (s->passphrase)
    sender_auth (s, m);
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
  sender_send (s, m);
  g_byte_array_unref (m);
}

/* so that the receiver does not time out on a long test */
static void
send_keepalive (Sender * s)
{
  GByteArray *m = g_byte_array_new ();

  gst_tile_wire_keepalive_pack (g_get_monotonic_time (), m);
  sender_send (s, m);
  g_byte_array_unref (m);
}

static void
sender_close (Sender * s)
{
  gst_tile_net_close (&s->ctl);
  gst_tile_net_close (&s->listen_fd);
  g_clear_pointer (&s->out, gst_tile_records_free);
  g_clear_pointer (&s->in, gst_tile_records_free);
}

/* the receivers started ask for what they miss (NACKs); receive
 * offload (UDP_GRO) */
static gboolean rx_retransmit, rx_gro;

static GstTileReceiver *
receiver_start (Sender * s)
{
  GstTileReceiver *rx = gst_tile_receiver_new (&callbacks, NULL, NULL);
  GstTileReceiverSettings settings = { "127.0.0.1", s->port, 5000, 0, FALSE,
    FALSE, s->passphrase
  };

  settings.retransmit = rx_retransmit;
  settings.gro = rx_gro;

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
  GstTileWireTileHeader th = { 1, n, 1000 + n, 500 + n, 0, 0 };
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
  Sender s = { 0 };
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
      GstTileWireTileHeader th = { 1, n, 1000 + n, 500 + n, t->size, 0 };
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
  sender_send (&s, m);
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
  Sender s = { 0 };

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
    GstTileWireTileHeader th = { 1, 6, 1006, 506, 8, 0 };
    guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE];

    gst_tile_wire_tile_header_write (hdr, &th);
    fail_unless (gst_tile_net_write_all (units[0], hdr, sizeof (hdr), 0, NULL));
  }
  fail_unless_equals_int (gst_tile_receiver_pull (rx, &f, &caps, &err),
      GST_TILE_RECEIVER_ERROR);
  fail_unless_equals_string (err->message, "unit 0: part of generation 1 "
      "frame 6 inside the tile of generation 1 frame 5");
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
    sender_send (s, m);
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
  GstTileWireTileHeader th = { 1, 1, 1001, 501, 32, 0 };
  guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE], frame[FRAME_SIZE];
  GstTileReceiverFrame f;
  GError *err = NULL;
  gchar *caps = NULL;
  GThread *ka;
  gint units[2];
  Sender s = { 0 };

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

/* Someone on the path closes the data connections at a tile boundary
 * (what a sender does before a new CONFIG or EOS), while the sender's
 * keep-alives go on and no CONFIG or EOS comes: that is not the end of the
 * stream, and after the timeout it is an error that says why. */
GST_START_TEST (test_tcp_units_end_without_config)
{
  static const guint whole[] = { 32, 0 };
  GstTileReceiverSettings settings = { "127.0.0.1", 0, 1000, 0, FALSE, FALSE };
  GstTileReceiver *rx = gst_tile_receiver_new (&callbacks, NULL, NULL);
  GstTileReceiverFrame f;
  GError *err = NULL;
  gchar *caps = NULL;
  GThread *ka;
  gint units[2];
  Sender s = { 0 };
  gint64 t0;

  sender_listen (&s);
  settings.port = s.port;
  gst_tile_receiver_set_stats_interval (rx, 0);
  gst_tile_receiver_start (rx, &settings);
  tcp_session (&s, rx, units);
  g_atomic_int_set (&keepalive_stop, 0);
  ka = g_thread_new ("keepalive", keep_alive, &s);
  send_expect_whole (&s, rx, units, 0, whole, whole);
  gst_tile_net_close (&units[0]);
  gst_tile_net_close (&units[1]);
  t0 = g_get_monotonic_time ();
  fail_unless_equals_int (gst_tile_receiver_pull (rx, &f, &caps, &err),
      GST_TILE_RECEIVER_ERROR);
  fail_unless (strstr (err->message, "the data connections ended, and no "
          "CONFIG or EOS followed within 1000 ms") != NULL, "%s",
      err->message);
  fail_unless (g_get_monotonic_time () - t0 >= 900 * 1000);
  g_clear_error (&err);

  g_atomic_int_set (&keepalive_stop, 1);
  g_thread_join (ka);
  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  sender_close (&s);
}

GST_END_TEST;

static void send_datagrams (gint fd, const struct sockaddr_storage *to,
    socklen_t to_len, guint64 n, guint skip);

/* A UDP session of one unit of 16-byte datagrams whose UNIT_HELLO is not
 * answered yet: the sender's control-port socket in @udp, another socket
 * of the sender's host in @other, the unit's address in @unit and its
 * first UNIT_HELLO, parsed, in @uh (its bytes: @hello_len). */
static GstTileReceiver *
udp_unanswered (Sender * s, gint * udp, gint * other,
    struct sockaddr_storage *unit, socklen_t * unit_len,
    GstTileWireUnitHello * uh, gssize * hello_len)
{
  struct sockaddr_storage ss;
  GstTileWireHeader h;
  GstTileReceiver *rx;
  guint8 hello[256];
  guint sl;

  sender_listen (s);
  sl = gst_tile_net_address (s->listen_fd, FALSE, &ss);
  *udp = gst_tile_net_udp_bind ((struct sockaddr *) &ss, sl, NULL);
  fail_unless (*udp >= 0);
  ((struct sockaddr_in *) &ss)->sin_port = 0;
  *other = gst_tile_net_udp_bind ((struct sockaddr *) &ss, sl, NULL);
  fail_unless (*other >= 0);
  rx = receiver_start (s);
  sender_handshake (s, GST_TILE_WIRE_PROTOCOL_UDP, 1, 16);
  expect_new_caps (rx);

  fail_unless (gst_tile_net_wait (*udp, FALSE, 5000, NULL));
  *unit_len = sizeof (*unit);
  *hello_len = recvfrom (*udp, hello, sizeof (hello), 0,
      (struct sockaddr *) unit, unit_len);
  fail_unless (gst_tile_wire_header_parse (hello, *hello_len, &h, NULL) ==
      GST_TILE_WIRE_PARSE_OK);
  fail_unless (gst_tile_wire_unit_hello_parse (hello +
          GST_TILE_WIRE_HEADER_SIZE, h.payload_len, uh, NULL));
  return rx;
}

/* Stops and frees what udp_unanswered () made, and @m */
static void
udp_unanswered_end (GstTileReceiver * rx, Sender * s, gint * udp,
    gint * other, GByteArray * m)
{
  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (udp);
  gst_tile_net_close (other);
  sender_close (s);
  g_byte_array_unref (m);
}

/* The answers to a UDP unit's UNIT_HELLO are checked before the unit
 * socket is connected: one for another unit, one with another token, both
 * from another port of the sender's host, are ignored (the unit repeats
 * its UNIT_HELLO and stays unconnected); the sender's own echo connects
 * it, and the frame from the sender's socket arrives. */
GST_START_TEST (test_udp_echo_checked)
{
  GstTileReceiver *rx;
  GstTileWireUnitHello uh, bad;
  GstTileWireHeader h;
  GByteArray *m = g_byte_array_new ();
  struct sockaddr_storage unit;
  socklen_t unit_len;
  guint8 hello[256], expect[FRAME_SIZE];
  GstBuffer *buf;
  gint udp, decoy;
  guint hellos = 1;
  gssize n;
  Sender s = { 0 };

  rx = udp_unanswered (&s, &udp, &decoy, &unit, &unit_len, &uh, &n);
  /* the wrong answers, from the decoy */
  bad = uh;
  bad.unit = 1;
  gst_tile_wire_unit_hello_pack (&bad, m, NULL);
  gst_tile_net_udp_send_to (decoy, m->data, m->len,
      (struct sockaddr *) &unit, unit_len);
  g_byte_array_set_size (m, 0);
  bad = uh;
  bad.token ^= 1;
  gst_tile_wire_unit_hello_pack (&bad, m, NULL);
  gst_tile_net_udp_send_to (decoy, m->data, m->len,
      (struct sockaddr *) &unit, unit_len);
  /* the unit goes on asking */
  while (hellos < 3) {
    fail_unless (gst_tile_net_wait (udp, FALSE, 5000, NULL));
    fail_unless (recv (udp, hello, sizeof (hello), 0) == n);
    hellos++;
  }
  /* the sender's echo, from its socket, then a frame from it */
  gst_tile_net_udp_send_to (udp, hello, n, (struct sockaddr *) &unit,
      unit_len);
  fail_unless (sender_read (&s, &h, m));
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_ACK);
  send_datagrams (udp, &unit, unit_len, 0, G_MAXUINT);
  buf = expect_frame (rx, 0, 2000);
  fill (expect, 0);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  gst_buffer_unref (buf);

  udp_unanswered_end (rx, &s, &udp, &decoy, m);
}

GST_END_TEST;

/* A message of several datagrams (segmentation offload at the sender,
 * receive offload at the receiver) that comes before the answer to the
 * unit's UNIT_HELLO (over a unit's second path the sender sends as soon
 * as it has answered, and the data can overtake the answer; or a batch
 * holds both): each datagram is found in its place (the room for a long
 * answer is past the message's last slot, not its first), and the frame
 * is whole. */
GST_START_TEST (test_udp_datagrams_before_echo)
{
  GstTileReceiver *rx;
  GstTileWireUnitHello uh;
  GByteArray *m = g_byte_array_new ();
  struct sockaddr_storage unit;
  socklen_t unit_len;
  guint8 frame[FRAME_SIZE];
  guint8 hdrs[FRAME_SIZE / 16][GST_TILE_WIRE_PACKET_HEADER_SIZE];
  struct iovec iov[2 * (FRAME_SIZE / 16)];
  struct msghdr msg = { 0 };
  GstBuffer *buf;
  gint udp, decoy;
  guint i;
  gssize n;
  Sender s = { 0 };

  rx_gro = TRUE;
  rx = udp_unanswered (&s, &udp, &decoy, &unit, &unit_len, &uh, &n);
  fail_unless (gst_tile_net_set_gso (udp, GST_TILE_WIRE_PACKET_HEADER_SIZE +
          16));
  /* the frame's datagrams first, in one message */
  fill (frame, 0);
  for (i = 0; i < FRAME_SIZE / 16; i++) {
    GstTileWirePacketHeader ph = { 0, 1, i * 16, 0, 2000, 600, 42 };

    gst_tile_wire_packet_header_write (hdrs[i], &ph);
    iov[2 * i].iov_base = hdrs[i];
    iov[2 * i].iov_len = GST_TILE_WIRE_PACKET_HEADER_SIZE;
    iov[2 * i + 1].iov_base = frame + i * 16;
    iov[2 * i + 1].iov_len = 16;
  }
  msg.msg_name = &unit;
  msg.msg_namelen = unit_len;
  msg.msg_iov = iov;
  msg.msg_iovlen = G_N_ELEMENTS (iov);
  fail_unless (sendmsg (udp, &msg, 0) ==
      (FRAME_SIZE / 16) * (GST_TILE_WIRE_PACKET_HEADER_SIZE + 16));
  /* then the answer */
  gst_tile_wire_unit_hello_pack (&uh, m, NULL);
  gst_tile_net_udp_send_to (udp, m->data, m->len, (struct sockaddr *) &unit,
      unit_len);
  buf = expect_frame (rx, 0, 2000);
  fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  fail_unless (gst_buffer_memcmp (buf, 0, frame, FRAME_SIZE) == 0);
  gst_buffer_unref (buf);
  rx_gro = FALSE;

  udp_unanswered_end (rx, &s, &udp, &decoy, m);
}

GST_END_TEST;

/* Address validation as tilesink runs it: the challenge (our UNIT_HELLO
 * with the sender's cookie) comes from the control port, twice (a
 * round trip over the 100 ms between UNIT_HELLOs gives two); the unit
 * repeats its UNIT_HELLO with the cookie and is not connected by the
 * second challenge, only by the acceptance from the unit's own socket, and
 * the frame from that socket arrives. */
GST_START_TEST (test_udp_repeated_challenge)
{
  GstTileReceiver *rx;
  GstTileWireUnitHello uh;
  GstTileWireHeader h;
  GByteArray *m = g_byte_array_new ();
  struct sockaddr_storage unit;
  socklen_t unit_len;
  guint8 hello[256], expect[FRAME_SIZE];
  GstBuffer *buf;
  gint udp, unit_fd;
  guint i;
  gssize n;
  Sender s = { 0 };

  rx = udp_unanswered (&s, &udp, &unit_fd, &unit, &unit_len, &uh, &n);
  /* the challenge, twice, from the control port */
  memset (uh.cookie, 0xc5, sizeof (uh.cookie));
  gst_tile_wire_unit_hello_pack (&uh, m, NULL);
  for (i = 0; i < 2; i++)
    gst_tile_net_udp_send_to (udp, m->data, m->len,
        (struct sockaddr *) &unit, unit_len);
  /* the unit answers with the cookie */
  do {
    fail_unless (gst_tile_net_wait (udp, FALSE, 5000, NULL));
    n = recv (udp, hello, sizeof (hello), 0);
  } while (n != (gssize) m->len || memcmp (hello, m->data, m->len) != 0);
  /* the acceptance, from the unit's socket, then a frame from it */
  gst_tile_net_udp_send_to (unit_fd, m->data, m->len,
      (struct sockaddr *) &unit, unit_len);
  fail_unless (sender_read (&s, &h, m));
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_ACK);
  g_usleep (50 * 1000);
  send_datagrams (unit_fd, &unit, unit_len, 0, G_MAXUINT);
  buf = expect_frame (rx, 0, 2000);
  fill (expect, 0);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  gst_buffer_unref (buf);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-invalid"), 0);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&udp);
  gst_tile_net_close (&unit_fd);
  sender_close (&s);
  g_byte_array_unref (m);
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
  Sender s = { 0 };
  guint i;

  sender_listen (&s);
  rx = receiver_start (&s);
  sender_handshake (&s, GST_TILE_WIRE_PROTOCOL_TCP, 2, 0);
  for (i = 0; i < 12; i++) {
    s.config.generation++;
    g_byte_array_set_size (m, 0);
    fail_unless (gst_tile_wire_config_pack (&s.config, m, NULL));
    sender_send (&s, m);
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
  Sender s = { 0 };

  sender_listen (&s);
  rx = receiver_start (&s);
  s.ctl = accept_message (&s, GST_TILE_WIRE_TYPE_HELLO, m);
  g_byte_array_set_size (m, 0);
  fail_unless (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_BUSY,
          "another receiver is served", m, NULL));
  sender_send (&s, m);
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

/* Sends the datagrams of @frame, @ps payload bytes each, but the one at
 * @skip (G_MAXUINT: none). */
static void
send_datagrams_ps (gint fd, const struct sockaddr_storage *to,
    socklen_t to_len, guint64 n, guint ps, guint skip)
{
  guint8 frame[FRAME_SIZE], pk[GST_TILE_WIRE_PACKET_HEADER_SIZE + 16];
  guint off;

  fill (frame, n);
  for (off = 0; off < FRAME_SIZE; off += ps) {
    GstTileWirePacketHeader ph = { 0, 1, off, n, 2000 + n, 600 + n, 42 };

    if (off / ps == skip)
      continue;
    gst_tile_wire_packet_header_write (pk, &ph);
    memcpy (pk + GST_TILE_WIRE_PACKET_HEADER_SIZE, frame + off, ps);
    gst_tile_net_udp_send_to (fd, pk, GST_TILE_WIRE_PACKET_HEADER_SIZE + ps,
        (const struct sockaddr *) to, to_len);
  }
}

static void
send_datagrams (gint fd, const struct sockaddr_storage *to, socklen_t to_len,
    guint64 n, guint skip)
{
  send_datagrams_ps (fd, to, to_len, n, 16, skip);
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

/* Sends the datagrams of @frame, @ps payload bytes each, whose bit is set
 * in @mask (datagram i: bit i). */
static void
send_datagrams_mask (gint fd, const struct sockaddr_storage *to,
    socklen_t to_len, guint64 n, guint ps, guint64 mask)
{
  guint8 frame[FRAME_SIZE], pk[GST_TILE_WIRE_PACKET_HEADER_SIZE + 16];
  guint off;

  fill (frame, n);
  for (off = 0; off < FRAME_SIZE; off += ps) {
    GstTileWirePacketHeader ph = { 0, 1, off, n, 2000 + n, 600 + n, 42 };

    if (!(mask & (G_GUINT64_CONSTANT (1) << (off / ps))))
      continue;
    gst_tile_wire_packet_header_write (pk, &ph);
    memcpy (pk + GST_TILE_WIRE_PACKET_HEADER_SIZE, frame + off, ps);
    gst_tile_net_udp_send_to (fd, pk, GST_TILE_WIRE_PACKET_HEADER_SIZE + ps,
        (const struct sockaddr *) to, to_len);
  }
}

/* A UDP session of one unit with datagrams of @packet_size bytes: the
 * unit's UNIT_HELLO is echoed from @udp (the sender's unit socket), and the
 * receiver's window comes as an ACK. The unit's address goes into @unit. */
static GstTileReceiver *
udp_session (Sender * s, guint packet_size, gint * udp,
    struct sockaddr_storage *unit, socklen_t * unit_len)
{
  GByteArray *m = g_byte_array_new ();
  struct sockaddr_storage ss;
  GstTileWireHeader h;
  GstTileWireAck ack;
  GstTileReceiver *rx;
  guint8 hello[256];
  gssize n;
  guint sl;

  sender_listen (s);
  sl = gst_tile_net_address (s->listen_fd, FALSE, &ss);
  *udp = gst_tile_net_udp_bind ((struct sockaddr *) &ss, sl, NULL);
  fail_unless (*udp >= 0);
  rx = receiver_start (s);
  sender_handshake (s, GST_TILE_WIRE_PROTOCOL_UDP, 1, packet_size);
  expect_new_caps (rx);

  /* the unit's UNIT_HELLO, echoed */
  fail_unless (gst_tile_net_wait (*udp, FALSE, 5000, NULL));
  *unit_len = sizeof (*unit);
  n = recvfrom (*udp, hello, sizeof (hello), 0, (struct sockaddr *) unit,
      unit_len);
  fail_unless (n > GST_TILE_WIRE_HEADER_SIZE);
  fail_unless (gst_tile_wire_header_parse (hello, n, &h, NULL) ==
      GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_UNIT_HELLO);
  gst_tile_net_udp_send_to (*udp, hello, n, (struct sockaddr *) unit,
      *unit_len);
  /* its window, before any frame */
  fail_unless (sender_read (s, &h, m));
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_ACK);
  fail_unless (gst_tile_wire_ack_parse (m->data, m->len, &ack, NULL));
  fail_if (ack.has_frame);
  fail_unless (ack.window >= 2);
  g_byte_array_unref (m);
  return rx;
}

/* UDP: the unit's hello is answered, the receiver's window comes as an
 * ACK, whole frames leave at once, a frame with a lost datagram leaves on
 * its timer with the gap concealed and listed, also when no frame follows
 * it. */
GST_START_TEST (test_udp_loss_concealed)
{
  GByteArray *m = g_byte_array_new ();
  struct sockaddr_storage unit;
  socklen_t unit_len;
  GstTileWireHeader h;
  GstTileWireAck ack;
  GstTileReceiver *rx;
  GstBcLossMeta *loss;
  GstBuffer *buf;
  guint8 expect[FRAME_SIZE];
  gint udp;
  Sender s = { 0 };

  rx = udp_session (&s, 16, &udp, &unit, &unit_len);

  /* frame 0 whole */
  send_datagrams (udp, &unit, unit_len, 0, G_MAXUINT);
  buf = expect_frame (rx, 0, 2000);
  fill (expect, 0);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  gst_buffer_unref (buf);
  fail_unless (sender_read (&s, &h, m));
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

/* pull () of frame 1, in a thread: its timer's NACKs go out from pull () */
static gpointer
pull_frame_1 (gpointer rx)
{
  return expect_frame (rx, 1, 2001);
}

/* UDP with retransmit: a frame that misses datagrams 2, 3, 5 (gaps) and
 * 15 (its tail, seen only by its timer) of its 16 makes the receiver send
 * NACKs that ask for exactly those (every range parsed; the timer's asks
 * again for what is still missing, never for more); the sender's resends,
 * the same datagrams, make the frame whole and byte-exact, pushed
 * without a gap and counted in frames-recovered. */
GST_START_TEST (test_udp_nack_recovered)
{
  const guint64 all = 0xffff, missing = (1 << 2) | (1 << 3) | (1 << 5) |
      (1 << 15);
  GByteArray *m = g_byte_array_new ();
  struct sockaddr_storage unit;
  socklen_t unit_len;
  GstTileWireHeader h;
  GstTileWireAck ack;
  GstTileWireNack nack;
  GstTileReceiver *rx;
  GstBuffer *buf;
  guint8 expect[FRAME_SIZE];
  guint64 asked = 0;
  guint nacks = 0, i;
  GThread *puller;
  gint udp;
  Sender s = { 0 };

  rx_retransmit = TRUE;
  rx = udp_session (&s, 4, &udp, &unit, &unit_len);

  /* frame 0 whole: no NACK */
  send_datagrams_mask (udp, &unit, unit_len, 0, 4, all);
  buf = expect_frame (rx, 0, 2000);
  gst_buffer_unref (buf);
  fail_unless (sender_read (&s, &h, m));
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_ACK);

  /* frame 1 without the chosen datagrams: NACKs until all are asked (the
   * tail by the frame's timer, in pull ()) */
  puller = g_thread_new ("pull", pull_frame_1, rx);
  send_datagrams_mask (udp, &unit, unit_len, 1, 4, all & ~missing);
  while (asked != missing) {
    fail_unless (sender_read (&s, &h, m), "no NACK for %" G_GINT64_MODIFIER
        "x (asked %" G_GINT64_MODIFIER "x)", missing, asked);
    if (h.type != GST_TILE_WIRE_TYPE_NACK)
      continue;
    fail_unless (gst_tile_wire_nack_parse (m->data, m->len, &nack, NULL));
    fail_unless_equals_int (nack.generation, 1);
    fail_unless_equals_uint64 (nack.frame, 1);
    fail_unless_equals_int (nack.unit, 0);
    for (i = 0; i < nack.n_ranges; i++) {
      guint32 j;

      for (j = nack.ranges[i].first;
          j < nack.ranges[i].first + nack.ranges[i].count; j++) {
        fail_unless (j < 16 && (missing & (G_GUINT64_CONSTANT (1) << j)),
            "datagram %u asked for, not missing", j);
        asked |= G_GUINT64_CONSTANT (1) << j;
      }
    }
    nacks++;
  }
  fail_unless (nacks >= 1);

  /* the resends: the frame is whole, byte for byte */
  send_datagrams_mask (udp, &unit, unit_len, 1, 4, missing);
  buf = g_thread_join (puller);
  fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  fail_unless (gst_buffer_get_bc_loss_meta (buf) == NULL);
  fill (expect, 1);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  gst_buffer_unref (buf);
  /* its ACK tells the rate control of the first sendings only */
  do {
    fail_unless (sender_read (&s, &h, m));
  } while (h.type != GST_TILE_WIRE_TYPE_ACK);
  fail_unless (gst_tile_wire_ack_parse (m->data, m->len, &ack, NULL));
  fail_unless_equals_uint64 (ack.frame, 1);
  fail_unless_equals_int (ack.received, 12);

  fail_unless_equals_uint64 (stat_u64 (rx, "frames-recovered"), 1);
  fail_unless (stat_u64 (rx, "nacks-sent") >= nacks);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-partial"), 0);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-lost"), 0);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  rx_retransmit = FALSE;
  gst_tile_net_close (&udp);
  sender_close (&s);
  g_byte_array_unref (m);
}

GST_END_TEST;

typedef struct
{
  gint fd;
  const struct sockaddr_storage *to;
  socklen_t to_len;
} SlowSend;

/* Frame 3's 16 datagrams of 4 bytes as a sender slowed down sends them:
 * the first 8 half a millisecond apart, then nothing for 4 ms (its thread
 * off the CPU), then the rest. */
static gpointer
send_slow_frame (gpointer data)
{
  SlowSend *ss = data;
  guint8 frame[FRAME_SIZE], pk[GST_TILE_WIRE_PACKET_HEADER_SIZE + 4];
  guint off;

  fill (frame, 3);
  for (off = 0; off < FRAME_SIZE; off += 4) {
    GstTileWirePacketHeader ph = { 0, 1, off, 3, 2003, 603, 42 };

    gst_tile_wire_packet_header_write (pk, &ph);
    memcpy (pk + GST_TILE_WIRE_PACKET_HEADER_SIZE, frame + off, 4);
    gst_tile_net_udp_send_to (ss->fd, pk, sizeof (pk),
        (const struct sockaddr *) ss->to, ss->to_len);
    g_usleep (off == FRAME_SIZE / 2 - 4 ? 4000 : off < FRAME_SIZE / 2 ? 500 :
        0);
  }
  return NULL;
}

static gpointer
pull_frame_2 (gpointer rx)
{
  return expect_frame (rx, 2, 2002);
}

/* UDP: a frame of which a quarter or less of the datagrams came (too few
 * to leave: it may be stray or forged) is given up on its timer, without
 * moving the receive window, and acknowledged with what arrived of it:
 * without that ACK, a path that carries less than a quarter of each frame
 * would never slow the sender's rate control down. */
GST_START_TEST (test_udp_discarded_acked)
{
  GByteArray *m = g_byte_array_new ();
  struct sockaddr_storage unit;
  socklen_t unit_len;
  GstTileWireHeader h;
  GstTileWireAck ack;
  GstTileReceiver *rx;
  GstBuffer *buf;
  GThread *puller;
  gint udp;
  Sender s = { 0 };

  rx = udp_session (&s, 16, &udp, &unit, &unit_len);
  send_datagrams (udp, &unit, unit_len, 0, G_MAXUINT);
  buf = expect_frame (rx, 0, 2000);
  gst_buffer_unref (buf);
  fail_unless (sender_read (&s, &h, m));
  fail_unless (gst_tile_wire_ack_parse (m->data, m->len, &ack, NULL));
  fail_unless_equals_uint64 (ack.frame, 0);

  /* frame 1: its first datagram of 4 only; its ACK comes on its timer,
   * before any newer frame */
  send_datagrams_mask (udp, &unit, unit_len, 1, 16, 0x1);
  puller = g_thread_new ("pull", pull_frame_2, rx);
  do {
    fail_unless (sender_read (&s, &h, m));
  } while (h.type != GST_TILE_WIRE_TYPE_ACK);
  fail_unless (gst_tile_wire_ack_parse (m->data, m->len, &ack, NULL));
  fail_unless (ack.has_frame);
  fail_unless_equals_uint64 (ack.frame, 1);
  fail_unless (ack.has_feedback);
  fail_unless_equals_int (ack.received, 1);
  fail_unless (ack.delay_ns != 0);

  /* the window did not move past it: frame 2 leaves whole */
  send_datagrams (udp, &unit, unit_len, 2, G_MAXUINT);
  buf = g_thread_join (puller);
  fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  gst_buffer_unref (buf);
  fail_unless (sender_read (&s, &h, m));
  fail_unless (gst_tile_wire_ack_parse (m->data, m->len, &ack, NULL));
  fail_unless_equals_uint64 (ack.frame, 2);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-discarded"), 1);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-discarded"), 1);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-partial"), 0);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&udp);
  sender_close (&s);
  g_byte_array_unref (m);
}

GST_END_TEST;

/* UDP (issue 36): a frame whose datagrams come slower than the frames
 * before (sent at a lower pace, or its sender off the CPU for a while) is
 * not cut by a timer made for the faster ones: the timer follows the
 * frame's own pace (timer-factor x its receive time so far, scaled to the
 * whole frame). The frames before arrive at once (a timer of the 2 ms
 * floor); frame 3 has half its datagrams after 4 ms and a 4 ms silence. */
GST_START_TEST (test_udp_slow_frame_whole)
{
  struct sockaddr_storage unit;
  socklen_t unit_len;
  GstTileReceiver *rx;
  GstBuffer *buf;
  GThread *t;
  SlowSend ss;
  guint64 n;
  gint udp;
  Sender s = { 0 };

  rx = udp_session (&s, 4, &udp, &unit, &unit_len);
  for (n = 0; n < 3; n++) {
    send_datagrams_ps (udp, &unit, unit_len, n, 4, G_MAXUINT);
    buf = expect_frame (rx, n, 2000 + n);
    fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
    gst_buffer_unref (buf);
  }

  ss.fd = udp;
  ss.to = &unit;
  ss.to_len = unit_len;
  t = g_thread_new ("slow-sender", send_slow_frame, &ss);
  buf = expect_frame (rx, 3, 2003);
  g_thread_join (t);
  fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  gst_buffer_unref (buf);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-partial"), 0);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-late"), 0);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&udp);
  sender_close (&s);
}

GST_END_TEST;

/* A sender that refuses a UDP unit with a reason longer than a datagram of
 * the session (packet_size 4: 44 bytes): the unit reports the refusal and
 * its code, not a missing answer. */
GST_START_TEST (test_udp_long_refusal)
{
  GByteArray *m = g_byte_array_new ();
  struct sockaddr_storage ss, unit;
  socklen_t unit_len = sizeof (unit);
  GstTileReceiverFrame f;
  GstTileReceiver *rx;
  GError *err = NULL;
  gchar *caps = NULL;
  guint8 hello[256];
  gssize n;
  guint sl;
  gint udp;
  Sender s = { 0 };

  sender_listen (&s);
  sl = gst_tile_net_address (s.listen_fd, FALSE, &ss);
  udp = gst_tile_net_udp_bind ((struct sockaddr *) &ss, sl, NULL);
  fail_unless (udp >= 0);
  rx = receiver_start (&s);
  sender_handshake (&s, GST_TILE_WIRE_PROTOCOL_UDP, 1, 4);
  expect_new_caps (rx);
  fail_unless (gst_tile_net_wait (udp, FALSE, 5000, NULL));
  n = recvfrom (udp, hello, sizeof (hello), 0, (struct sockaddr *) &unit,
      &unit_len);
  fail_unless (n > GST_TILE_WIRE_HEADER_SIZE);
  fail_unless (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN,
          "UNIT_HELLO for session 0123456789abcdef generation 1, the current "
          "one is fedcba9876543210 generation 2", m, NULL));
  fail_unless (m->len > GST_TILE_WIRE_PACKET_HEADER_SIZE + 4);
  gst_tile_net_udp_send_to (udp, m->data, m->len, (struct sockaddr *) &unit,
      unit_len);
  fail_unless_equals_int (gst_tile_receiver_pull (rx, &f, &caps, &err),
      GST_TILE_RECEIVER_ERROR);
  fail_unless (g_error_matches (err, GST_TILE_WIRE_ERROR,
          GST_TILE_WIRE_ERROR_REFUSED), "%s", err->message);
  fail_unless (strstr (err->message, "refused the connection "
          "(unknown-token)") != NULL, "%s", err->message);
  g_clear_error (&err);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&udp);
  sender_close (&s);
  g_byte_array_unref (m);
}

GST_END_TEST;

/* Whether byte @offset of @buf is in a gap of its loss meta. */
static gboolean
in_gap (GstBuffer * buf, guint64 offset)
{
  GstBcLossMeta *loss = gst_buffer_get_bc_loss_meta (buf);
  guint i;

  for (i = 0; loss && i < loss->n_ranges; i++)
    if (offset >= loss->ranges[i].offset &&
        offset < loss->ranges[i].offset + loss->ranges[i].size)
      return TRUE;
  return FALSE;
}

/* Every byte of frame @f from @from on is @expect's, or in a listed gap. */
static void
expect_sender_bytes (GstBuffer * buf, const guint8 * expect, guint from,
    guint64 f)
{
  GstMapInfo map;
  guint i;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  for (i = from; i < FRAME_SIZE; i++)
    fail_unless (map.data[i] == expect[i] || in_gap (buf, i),
        "frame %" G_GUINT64_FORMAT " byte %u: %u, the sender's %u", f, i,
        map.data[i], expect[i]);
  gst_buffer_unmap (buf, &map);
}

/* Datagrams from the sender's own address and port (spoofed, or an
 * attacker on the path), during a stream of 100 frames of 16 datagrams:
 * those without the session token never reach a frame; those with it,
 * one per frame number ahead (0, 16, 32, ... from the frame expected),
 * never move the receive window: every real frame leaves, in order. Then
 * 100 000 random datagrams, half of them with a valid header prefix: none
 * reaches a frame. */
GST_START_TEST (test_udp_forged_datagrams)
{
  struct sockaddr_storage unit;
  socklen_t unit_len;
  GstTileReceiver *rx;
  GstBuffer *buf;
  GRand *rand = g_rand_new_with_seed (17);
  guint8 pk[GST_TILE_WIRE_PACKET_HEADER_SIZE + 4], expect[FRAME_SIZE];
  guint64 f, invalid;
  guint i, k;
  gint udp;
  gint64 t0, t[2];
  Sender s = { 0 };

  rx = udp_session (&s, 4, &udp, &unit, &unit_len);
  memset (pk + GST_TILE_WIRE_PACKET_HEADER_SIZE, 0xee, 4);
  t0 = g_get_monotonic_time ();
  for (f = 0; f < 100; f++) {
    GstTileWirePacketHeader ph = { 0, 1, 0, 0, 0, 0, 42 };

    /* without the token: a whole frame's worth for the frame expected
     * and the next */
    ph.token = 43;
    for (k = 0; k < 2 * FRAME_SIZE / 4; k++) {
      ph.frame = f + k / (FRAME_SIZE / 4);
      ph.offset = k % (FRAME_SIZE / 4) * 4;
      gst_tile_wire_packet_header_write (pk, &ph);
      gst_tile_net_udp_send_to (udp, pk, sizeof (pk),
          (struct sockaddr *) &unit, unit_len);
    }
    /* with it: one datagram for frames 1, 16, 32 and 48 ahead */
    ph.token = 42;
    for (k = 0; k < 4; k++) {
      ph.frame = f + MAX (1, 16 * k);
      ph.offset = 0;
      gst_tile_wire_packet_header_write (pk, &ph);
      gst_tile_net_udp_send_to (udp, pk, sizeof (pk),
          (struct sockaddr *) &unit, unit_len);
    }
    send_datagrams_ps (udp, &unit, unit_len, f, 4, G_MAXUINT);
    buf = expect_frame (rx, f, 2000 + f);
    /* the forged first datagram of a frame may have come before the real
     * one (it has the token); the rest of the frame is the sender's, but
     * for gaps listed in its loss meta: the slot's timer runs from that
     * forged datagram, and may end while this thread is off the CPU in the
     * middle of the real ones (the frame then leaves on its timer, as it
     * should). Never a forged byte past the first datagram. */
    fill (expect, f);
    expect_sender_bytes (buf, expect, 4, f);
    fail_unless (gst_buffer_memcmp (buf, 0, expect, 4) == 0 ||
        gst_buffer_memcmp (buf, 0, pk + GST_TILE_WIRE_PACKET_HEADER_SIZE,
            4) == 0 || in_gap (buf, 0));
    gst_buffer_unref (buf);
    send_keepalive (&s);
  }
  GST_INFO ("100 frames with forged datagrams in %" G_GINT64_FORMAT " ms",
      (g_get_monotonic_time () - t0) / 1000);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-skipped"), 0);
  fail_unless (stat_u64 (rx, "frames-discarded") > 0);
  /* each held one forged datagram at least */
  fail_unless (stat_u64 (rx, "packets-discarded") >=
      stat_u64 (rx, "frames-discarded"));
  invalid = stat_u64 (rx, "packets-invalid");
  fail_unless (invalid >= 100 * 2 * FRAME_SIZE / 4, "%" G_GUINT64_FORMAT,
      invalid);

  /* 100 000 random datagrams, 100 before each frame (the kernel's default
   * socket buffer holds them and the frame); half of them start like a
   * datagram of this session (magic, version, unit 0). Long timers: a
   * frame must not leave with gaps because this thread was off the CPU in
   * the middle of it */
  gst_tile_receiver_set_timer_factor (rx, 1000);
  for (f = 100; f < 1150; f++) {
    for (i = 0; i < (f < 150 ? 0 : 100); i++) {
      guint8 junk[GST_TILE_WIRE_PACKET_HEADER_SIZE + 8];
      gsize len = g_rand_int_range (rand, 0, sizeof (junk) + 1);

      for (k = 0; k < sizeof (junk); k++)
        junk[k] = g_rand_int (rand);
      if (i % 2) {
        memcpy (junk, "GSBU", 4);
        junk[4] = GST_TILE_WIRE_VERSION;
        junk[5] = junk[6] = junk[7] = 0;
        len = GST_TILE_WIRE_PACKET_HEADER_SIZE + 4;
      }
      gst_tile_net_udp_send_to (udp, junk, len, (struct sockaddr *) &unit,
          unit_len);
    }
    if (f == 100 || f == 150)
      t[f / 150] = g_get_monotonic_time ();
    send_datagrams_ps (udp, &unit, unit_len, f, 4, G_MAXUINT);
    buf = expect_frame (rx, f, 2000 + f);
    fill (expect, f);
    /* (up to frame 147 the forged datagrams above may still be waiting
     * in a slot for their frame: its first 4 bytes) */
    fail_unless (gst_buffer_memcmp (buf, f < 150 ? 4 : 0,
            expect + (f < 150 ? 4 : 0), FRAME_SIZE - (f < 150 ? 4 : 0)) == 0,
        "frame %" G_GUINT64_FORMAT " (partial %" G_GUINT64_FORMAT ", kernel "
        "drops %" G_GUINT64_FORMAT ")", f, stat_u64 (rx, "frames-partial"),
        stat_u64 (rx, "kernel-drops"));
    gst_buffer_unref (buf);
    send_keepalive (&s);
  }
  GST_INFO ("50 frames alone in %" G_GINT64_FORMAT " us, 1000 frames with "
      "100 000 random datagrams in %" G_GINT64_FORMAT " us", t[1] - t[0],
      g_get_monotonic_time () - t[1]);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-skipped"), 0);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-received"), 1150);
  fail_unless (stat_u64 (rx, "packets-invalid") >= invalid + 1000 * 100);

  /* the pattern: 6000 datagrams with the token and the frame
   * numbers 0, 16, 32, ..., 60 before each of 100 frames */
  t0 = g_get_monotonic_time ();
  for (f = 1150, k = 0; f < 1250; f++) {
    GstTileWirePacketHeader ph = { 0, 1, 0, 0, 0, 0, 42 };

    for (i = 0; i < 60; i++, k++) {
      ph.frame = 16 * (guint64) k;
      gst_tile_wire_packet_header_write (pk, &ph);
      gst_tile_net_udp_send_to (udp, pk, sizeof (pk),
          (struct sockaddr *) &unit, unit_len);
    }
    send_datagrams_ps (udp, &unit, unit_len, f, 4, G_MAXUINT);
    buf = expect_frame (rx, f, 2000 + f);
    fill (expect, f);
    fail_unless (gst_buffer_memcmp (buf, 4, expect + 4, FRAME_SIZE - 4) == 0);
    gst_buffer_unref (buf);
    send_keepalive (&s);
  }
  GST_INFO ("100 frames with 6000 forged datagrams in %" G_GINT64_FORMAT
      " us", g_get_monotonic_time () - t0);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-skipped"), 0);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-received"), 1250);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&udp);
  sender_close (&s);
  g_rand_free (rand);
}

GST_END_TEST;

/* Datagram @k (of @ps bytes) of frame @n, sealed with @key; @tamper flips
 * a bit of its payload after sealing. */
static void
send_sealed_datagram (gint fd, const struct sockaddr_storage *to,
    socklen_t to_len, const guint8 * key, guint64 n, guint k, gboolean tamper)
{
  GstTileWirePacketHeader ph = { 0, 1, k * 16, n, 2000 + n, 600 + n, 42 };
  guint8 frame[FRAME_SIZE], iv[GST_TILE_SEAL_IV_SIZE];
  guint8 pk[GST_TILE_WIRE_PACKET_HEADER_SIZE + GST_TILE_WIRE_TAG_SIZE + 16];
  guint8 *payload = pk + GST_TILE_WIRE_PACKET_HEADER_SIZE +
      GST_TILE_WIRE_TAG_SIZE;
  GstTileSeal *seal = gst_tile_seal_new (TRUE);

  fill (frame, n);
  gst_tile_seal_set_key (seal, key);
  gst_tile_wire_packet_header_write (pk, &ph);
  gst_tile_seal_iv (iv, FALSE, 0, n, k * 16);
  fail_unless (gst_tile_seal_once (seal, iv, pk,
          GST_TILE_WIRE_PACKET_HEADER_SIZE, frame + k * 16, payload, 16,
          pk + GST_TILE_WIRE_PACKET_HEADER_SIZE));
  if (tamper)
    payload[3] ^= 0x01;
  gst_tile_net_udp_send_to (fd, pk, sizeof (pk), (const struct sockaddr *) to,
      to_len);
  gst_tile_seal_free (seal);
}

/* A UDP session with a passphrase: sealed datagrams are opened (also in
 * place, straight in the frame); one changed on the way, one sealed with
 * another key and one sent in the clear are dropped and counted, and the
 * frame still comes out whole from the real ones. */
GST_START_TEST (test_udp_sealed)
{
  struct sockaddr_storage unit;
  socklen_t unit_len;
  GstTileReceiver *rx;
  GstBuffer *buf;
  guint8 expect[FRAME_SIZE], other[GST_TILE_SEAL_KEY_SIZE];
  guint64 n;
  guint k;
  gint udp;
  Sender s = { 0 };

  s.passphrase = "correct horse battery staple";
  rx = udp_session (&s, 16, &udp, &unit, &unit_len);
  memcpy (other, s.key, sizeof (other));
  other[0] ^= 1;
  for (n = 0; n < 8; n++) {
    for (k = 0; k < FRAME_SIZE / 16; k++) {
      if (n % 2) {
        /* before each real one, a forgery of it */
        send_sealed_datagram (udp, &unit, unit_len, s.key, n, k, TRUE);
        send_sealed_datagram (udp, &unit, unit_len, other, n, k, FALSE);
      }
      send_sealed_datagram (udp, &unit, unit_len, s.key, n, k, FALSE);
    }
    buf = expect_frame (rx, n, 2000 + n);
    fill (expect, n);
    fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0,
        "frame %" G_GUINT64_FORMAT, n);
    fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
    gst_buffer_unref (buf);
  }
  /* in the clear: the size of a datagram without a tag */
  send_datagrams (udp, &unit, unit_len, 8, G_MAXUINT);
  for (k = 0; k < FRAME_SIZE / 16; k++)
    send_sealed_datagram (udp, &unit, unit_len, s.key, 8, k, FALSE);
  buf = expect_frame (rx, 8, 2008);
  fill (expect, 8);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  gst_buffer_unref (buf);

  fail_unless_equals_uint64 (stat_u64 (rx, "packets-tampered"),
      4 * 2 * FRAME_SIZE / 16);
  fail_unless (stat_u64 (rx, "packets-invalid") >= FRAME_SIZE / 16);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-received"),
      9 * FRAME_SIZE / 16);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-partial"), 0);

  /* every name of the statistics the receiver sends (STATS) is one the
   * sender registers: a sender in another process only parses those */
  {
    GstStructure *st = gst_tile_receiver_get_stats (rx);
    guint i;

    fail_unless (gst_tile_stats_name_is_registered (gst_structure_get_name
            (st)));
    for (i = 0; i < (guint) gst_structure_n_fields (st); i++) {
      const gchar *name = gst_structure_nth_field_name (st, i);

      /* (udp-ports, paths-up, unit-paths, path-errors, control-skipped,
       * tiles-late and tiles-duplicate are in the stats property only,
       * never sent) */
      fail_unless (strcmp (name, "udp-ports") == 0 ||
          strcmp (name, "path-errors") == 0 ||
          strcmp (name, "control-skipped") == 0 ||
          strcmp (name, "tiles-late") == 0 ||
          strcmp (name, "tiles-duplicate") == 0 ||
          strcmp (name, "paths-up") == 0 || strcmp (name, "unit-paths") == 0 ||
          gst_tile_stats_name_is_registered (name), "%s", name);
    }
    gst_structure_free (st);
  }

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&udp);
  sender_close (&s);
}

GST_END_TEST;

/* The first frame of a session (nothing to conceal with) with a datagram
 * that fails its tag and none that passes: the datagram was received
 * straight into the frame, but its bytes do not stay there; the gap holds
 * zeros. */
GST_START_TEST (test_udp_first_frame_gap_zeroed)
{
  struct sockaddr_storage unit;
  socklen_t unit_len;
  GstTileReceiver *rx;
  GstBuffer *buf;
  guint8 expect[FRAME_SIZE];
  guint k;
  gint udp;
  Sender s = { 0 };

  s.passphrase = "correct horse battery staple";
  rx = udp_session (&s, 16, &udp, &unit, &unit_len);
  /* the first datagram alone, so that the unit expects the second one
   * next and receives it in place */
  send_sealed_datagram (udp, &unit, unit_len, s.key, 0, 0, FALSE);
  g_usleep (20 * 1000);
  send_sealed_datagram (udp, &unit, unit_len, s.key, 0, 1, TRUE);
  for (k = 2; k < FRAME_SIZE / 16; k++)
    send_sealed_datagram (udp, &unit, unit_len, s.key, 0, k, FALSE);
  buf = expect_frame (rx, 0, 2000);
  expect_one_gap (buf, 16);
  fill (expect, 0);
  memset (expect + 16, 0, 16);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  gst_buffer_unref (buf);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-tampered"), 1);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&udp);
  sender_close (&s);
}

GST_END_TEST;

/* Unit @unit's tile of frame @n as one sealed part; @tamper flips a bit of
 * its data. */
static void
send_sealed_tile (Sender * s, gint fd, guint unit, guint64 n, gboolean tamper)
{
  const GstTileWireTile *t = &s->config.tiles[unit];
  GstTileWireTileHeader th = { 1, n, 1000 + n, 500 + n, t->size, 0 };
  guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE], iv[GST_TILE_SEAL_IV_SIZE];
  guint8 frame[FRAME_SIZE], tag[GST_TILE_WIRE_TAG_SIZE];
  GstTileSeal *seal = gst_tile_seal_new (TRUE);

  fill (frame, n);
  gst_tile_seal_set_key (seal, s->key);
  gst_tile_wire_tile_header_write (hdr, &th);
  gst_tile_seal_iv (iv, TRUE, unit, n, 0);
  gst_tile_seal_once (seal, iv, hdr, sizeof (hdr), frame + t->offset,
      frame + t->offset, t->size, tag);
  if (tamper)
    frame[t->offset + 5] ^= 0x80;
  fail_unless (gst_tile_net_write_all (fd, hdr, sizeof (hdr), 0, NULL));
  fail_unless (gst_tile_net_write_all (fd, frame + t->offset, t->size, 0,
          NULL));
  fail_unless (gst_tile_net_write_all (fd, tag, sizeof (tag), 0, NULL));
  gst_tile_seal_free (seal);
}

/* TCP with a passphrase: sealed tiles are opened; a tile changed on the
 * way is an error that says so (TAMPERED), and never a frame. */
GST_START_TEST (test_tcp_sealed)
{
  GstTileReceiverFrame f;
  GstTileReceiver *rx;
  GstBuffer *buf;
  GError *err = NULL;
  gchar *caps = NULL;
  guint8 expect[FRAME_SIZE];
  gint units[2];
  Sender s = { 0 };

  s.passphrase = "correct horse battery staple";
  sender_listen (&s);
  rx = receiver_start (&s);
  tcp_session (&s, rx, units);
  send_sealed_tile (&s, units[0], 0, 0, FALSE);
  send_sealed_tile (&s, units[1], 1, 0, FALSE);
  buf = expect_frame (rx, 0, 1000);
  fill (expect, 0);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  gst_buffer_unref (buf);

  send_sealed_tile (&s, units[0], 0, 1, FALSE);
  send_sealed_tile (&s, units[1], 1, 1, TRUE);
  fail_unless_equals_int (gst_tile_receiver_pull (rx, &f, &caps, &err),
      GST_TILE_RECEIVER_ERROR);
  fail_unless (g_error_matches (err, GST_TILE_WIRE_ERROR,
          GST_TILE_WIRE_ERROR_TAMPERED), "%s", err->message);
  fail_unless (strstr (err->message, "unit 1: the tile of frame 1 (32 bytes "
          "at 0) failed authentication") != NULL, "%s", err->message);
  g_clear_error (&err);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&units[0]);
  gst_tile_net_close (&units[1]);
  sender_close (&s);
}

GST_END_TEST;

/* A sender that does not know the passphrase (its proof is wrong) is
 * refused by the receiver: UNAUTHORIZED, no reconnect. */
GST_START_TEST (test_sender_bad_proof)
{
  GstTileReceiverFrame f;
  GstTileReceiver *rx;
  GError *err = NULL;
  gchar *caps = NULL;
  Sender s = { 0 };

  s.passphrase = "correct horse battery staple";
  s.bad_proof = TRUE;
  sender_listen (&s);
  rx = receiver_start (&s);
  sender_handshake (&s, GST_TILE_WIRE_PROTOCOL_TCP, 2, 0);
  fail_unless_equals_int (gst_tile_receiver_pull (rx, &f, &caps, &err),
      GST_TILE_RECEIVER_ERROR);
  fail_unless (g_error_matches (err, GST_TILE_WIRE_ERROR,
          GST_TILE_WIRE_ERROR_UNAUTHORIZED), "%s", err->message);
  fail_unless (strstr (err->message, "does not know it") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  sender_close (&s);
}

GST_END_TEST;

/* ---- forward error correction ---- */

/* One datagram of frame @n: header @ph, @len payload bytes from @payload
 * padded to @ps; sealed with @key unless NULL (a parity datagram with its
 * own kind of nonce, unless @data_nonce), its tag changed with @tamper. */
static void
send_one (gint fd, const struct sockaddr_storage *to, socklen_t to_len,
    const GstTileWirePacketHeader * ph, const guint8 * payload, gsize len,
    guint ps, const guint8 * key, gboolean data_nonce, gboolean tamper)
{
  guint8 pk[GST_TILE_WIRE_PACKET_HEADER_SIZE + GST_TILE_WIRE_TAG_SIZE + 64];
  guint hl = GST_TILE_WIRE_DATAGRAM_OVERHEAD (key != NULL);
  guint8 *p = pk + hl;

  fail_unless (ps <= 64);
  gst_tile_wire_packet_header_write (pk, ph);
  memset (p, 0, ps);
  memcpy (p, payload, len);
  if (key) {
    GstTileSeal *seal = gst_tile_seal_new (TRUE);
    guint8 iv[GST_TILE_SEAL_IV_SIZE];
    gboolean parity = ph->flags & GST_TILE_WIRE_PACKET_FLAG_PARITY;

    gst_tile_seal_set_key (seal, key);
    gst_tile_seal_iv (iv, FALSE, ph->unit | (parity && !data_nonce ?
            GST_TILE_SEAL_IV_PARITY : 0), ph->frame, ph->offset);
    fail_unless (gst_tile_seal_once (seal, iv, pk,
            GST_TILE_WIRE_PACKET_HEADER_SIZE, p, p, len,
            pk + GST_TILE_WIRE_PACKET_HEADER_SIZE));
    if (tamper)
      pk[GST_TILE_WIRE_PACKET_HEADER_SIZE] ^= 0x01;
    gst_tile_seal_free (seal);
  }
  gst_tile_net_udp_send_to (fd, pk, hl + ps, (const struct sockaddr *) to,
      to_len);
}

typedef struct
{
  gint fd;
  const struct sockaddr_storage *to;
  socklen_t to_len;
  guint ps;
  guint percent;
  const guint8 *key;            /* NULL: in the clear */
  GstTileFecLayout l;
  guint8 frame[FRAME_SIZE];
  guint8 *parity;
} FecSender;

/* A receiver in a UDP session with @ps bytes a datagram, and @fs to send
 * it a frame and @percent parity. */
static GstTileReceiver *
fec_session (Sender * s, FecSender * fs, guint ps, guint percent, gint * udp,
    struct sockaddr_storage *unit, socklen_t * unit_len)
{
  GstTileReceiver *rx = udp_session (s, ps, udp, unit, unit_len);

  fs->fd = *udp;
  fs->to = unit;
  fs->to_len = *unit_len;
  fs->ps = ps;
  fs->percent = percent;
  return rx;
}

/* Encodes frame @n as a sender with forward error correction at
 * fs->percent does (into fs->frame, fs->parity, fs->l). */
static void
fec_encode_frame (FecSender * fs, guint64 n)
{
  GstTileFec *fec = gst_tile_fec_new ();

  fill (fs->frame, n);
  fail_unless (gst_tile_fec_layout_for (&fs->l,
          gst_tile_wire_packets_per_tile (FRAME_SIZE, fs->ps), fs->percent));
  g_free (fs->parity);
  fs->parity = g_malloc ((gsize) fs->l.n_parity * fs->ps);
  gst_tile_fec_encode (fec, &fs->l, fs->frame, FRAME_SIZE, fs->ps, fs->parity);
  gst_tile_fec_free (fec);
}

/* Sends the data datagrams of frame @n whose bit is set in @data (datagram
 * i: bit i), then its parity datagrams whose bit is set in @parity. */
static void
fec_send_frame (FecSender * fs, guint64 n, guint64 data, guint64 parity)
{
  GstTileWirePacketHeader ph = { 0, 1, 0, n, 2000 + n, 600 + n, 42, 0 };
  guint32 i;

  fec_encode_frame (fs, n);
  for (i = 0; i < fs->l.n; i++) {
    gsize off = (gsize) i * fs->ps;

    if (!(data & (G_GUINT64_CONSTANT (1) << i)))
      continue;
    ph.flags = 0;
    ph.offset = off;
    send_one (fs->fd, fs->to, fs->to_len, &ph, fs->frame + off,
        MIN (fs->ps, FRAME_SIZE - off), fs->ps, fs->key, FALSE, FALSE);
  }
  for (i = 0; i < fs->l.n_parity; i++) {
    if (!(parity & (G_GUINT64_CONSTANT (1) << i)))
      continue;
    ph.flags = GST_TILE_WIRE_PACKET_FLAG_PARITY;
    ph.offset = gst_tile_wire_parity_offset (fs->l.span, fs->l.parity, i);
    send_one (fs->fd, fs->to, fs->to_len, &ph, fs->parity + (gsize) i *
        fs->ps, fs->ps, fs->ps, fs->key, FALSE, FALSE);
  }
}

/* Reads the sender's control messages up to the next ACK: its
 * received. */
static guint32
ack_received (Sender * s, guint64 frame)
{
  GByteArray *m = g_byte_array_new ();
  GstTileWireHeader h;
  GstTileWireAck ack;

  do {
    fail_unless (sender_read (s, &h, m));
  } while (h.type != GST_TILE_WIRE_TYPE_ACK);
  fail_unless (gst_tile_wire_ack_parse (m->data, m->len, &ack, NULL));
  fail_unless_equals_uint64 (ack.frame, frame);
  g_byte_array_unref (m);
  return ack.received;
}

#define ALL(n) ((n) == 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (n)) - 1)
#define BITS(first, count) (ALL ((first) + (count)) & ~ALL (first))

/* UDP with forward error correction and without retransmit: 64 datagrams
 * of one byte in 2 interleaved groups of 32, 4 parity datagrams each. A
 * burst of 8 lost datagrams (4 in each group) is recovered from the
 * parity, at once (no timer), byte-exact, and counted (the ACK counts what
 * arrived: the parity, not what it recovered); a burst of 10 (5 in each)
 * is not: the frame leaves with its gaps, counted unrecoverable. */
GST_START_TEST (test_udp_fec_recovered)
{
  struct sockaddr_storage unit;
  socklen_t unit_len;
  GstTileReceiver *rx;
  GstBuffer *buf;
  GstBcLossMeta *loss;
  guint8 expect[FRAME_SIZE];
  gint udp;
  Sender s = { 0 };
  FecSender fs = { 0 };

  rx = fec_session (&s, &fs, 1, 10, &udp, &unit, &unit_len);
  fec_encode_frame (&fs, 0);
  fail_unless_equals_int (fs.l.groups, 2);
  fail_unless_equals_int (fs.l.span, 32);
  fail_unless_equals_int (fs.l.parity, 4);

  /* frame 0 whole, without parity (parity after a frame is whole is not
   * needed: fec-packets-unused) */
  fec_send_frame (&fs, 0, ALL (64), 0);
  buf = expect_frame (rx, 0, 2000);
  fill (expect, 0);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  gst_buffer_unref (buf);
  fail_unless_equals_int (ack_received (&s, 0), 64);
  fec_send_frame (&fs, 0, 0, ALL (2));

  /* frame 1: datagrams 10 to 17 lost, recovered */
  fec_send_frame (&fs, 1, ALL (64) & ~BITS (10, 8), ALL (8));
  buf = expect_frame (rx, 1, 2001);
  fill (expect, 1);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  fail_unless (gst_buffer_get_bc_loss_meta (buf) == NULL);
  gst_buffer_unref (buf);
  /* the data datagrams that came: not the recovered ones, nor parity */
  fail_unless_equals_int (ack_received (&s, 1), 56);
  fail_unless_equals_uint64 (stat_u64 (rx, "fec-frames-recovered"), 1);
  fail_unless_equals_uint64 (stat_u64 (rx, "fec-packets-recovered"), 8);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-timer"), 0);

  /* frame 2: the same burst and only 3 parity datagrams of group 1:
   * group 0 is recovered, group 1 not */
  fec_send_frame (&fs, 2, ALL (64) & ~BITS (10, 8), ALL (8) & ~(1 << 3));
  buf = expect_frame (rx, 2, 2002);
  fail_unless (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  loss = gst_buffer_get_bc_loss_meta (buf);
  fail_unless (loss != NULL);
  fail_unless_equals_int (loss->n_ranges, 4);
  fail_unless_equals_uint64 (loss->ranges[0].offset, 11);
  fail_unless_equals_uint64 (loss->ranges[3].offset, 17);
  gst_buffer_unref (buf);
  ack_received (&s, 2);

  /* frame 3: a burst of 10, 5 in each group: nothing recovered */
  fec_send_frame (&fs, 3, ALL (64) & ~BITS (20, 10), ALL (8));
  buf = expect_frame (rx, 3, 2003);
  fail_unless (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  loss = gst_buffer_get_bc_loss_meta (buf);
  fail_unless (loss != NULL);
  fail_unless_equals_int (loss->n_ranges, 1);
  fail_unless_equals_uint64 (loss->ranges[0].offset, 20);
  fail_unless_equals_uint64 (loss->lost_bytes, 10);
  gst_buffer_unref (buf);

  fail_unless_equals_uint64 (stat_u64 (rx, "fec-frames-recovered"), 1);
  fail_unless_equals_uint64 (stat_u64 (rx, "fec-packets-recovered"), 12);
  fail_unless_equals_uint64 (stat_u64 (rx, "fec-frames-unrecoverable"), 2);
  fail_unless_equals_uint64 (stat_u64 (rx, "fec-packets-received"), 8 + 7 + 8);
  fail_unless_equals_uint64 (stat_u64 (rx, "fec-packets-unused"), 2);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-late"), 0);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-partial"), 2);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-lost"), 4 + 10);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-received"),
      64 + 56 + 56 + 54);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&udp);
  sender_close (&s);
  g_free (fs.parity);
}

GST_END_TEST;

/* The tile's last datagram is short (13 datagrams of 5 bytes, the last of
 * 4): lost, it is recovered with exactly its bytes; received, it counts
 * zero-padded in the decoding of the others. With retransmit on, the
 * losses parity covers are never asked for. */
GST_START_TEST (test_udp_fec_short_last)
{
  struct sockaddr_storage unit;
  socklen_t unit_len;
  GstTileReceiver *rx;
  GstBuffer *buf;
  guint8 expect[FRAME_SIZE];
  gint udp;
  guint64 n;
  Sender s = { 0 };
  FecSender fs = { 0 };

  rx_retransmit = TRUE;
  rx = fec_session (&s, &fs, 5, 50, &udp, &unit, &unit_len);
  for (n = 0; n < 4; n++) {
    /* frame 0: all; 1: the last and 5 more lost; 2: the first 7 lost,
     * 3: 5, 7 and 9 lost and half the parity */
    const guint64 lost[] = { 0, (1 << 12) | BITS (2, 5), BITS (0, 7),
      (1 << 5) | (1 << 7) | (1 << 9)
    };

    fec_send_frame (&fs, n, ALL (13) & ~lost[n], n == 3 ? 0x55 : ALL (7));
    buf = expect_frame (rx, n, 2000 + n);
    fill (expect, n);
    fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0,
        "frame %" G_GUINT64_FORMAT, n);
    fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
    gst_buffer_unref (buf);
    ack_received (&s, n);
  }
  fail_unless_equals_uint64 (stat_u64 (rx, "fec-frames-recovered"), 3);
  fail_unless_equals_uint64 (stat_u64 (rx, "fec-packets-recovered"), 6 + 7 + 3);
  /* (parity came with frame 0: the gaps of the frames after it wait for
   * theirs) */
  fail_unless_equals_uint64 (stat_u64 (rx, "nacks-sent"), 0);
  fail_unless_equals_uint64 (stat_u64 (rx, "frames-partial"), 0);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  rx_retransmit = FALSE;
  gst_tile_net_close (&udp);
  sender_close (&s);
  g_free (fs.parity);
}

GST_END_TEST;

/* Forged parity: an index past the layout's parity, a layout other than
 * the tile's first parity datagram's, more parity than half the tile:
 * refused and counted as invalid; a second copy of one counts as a
 * duplicate; the frame is still recovered from the real ones. */
GST_START_TEST (test_udp_fec_forged)
{
  struct sockaddr_storage unit;
  socklen_t unit_len;
  GstTileReceiver *rx;
  GstBuffer *buf;
  GstTileWirePacketHeader ph = { 0, 1, 0, 0, 2000, 600, 42,
    GST_TILE_WIRE_PACKET_FLAG_PARITY
  };
  guint8 expect[FRAME_SIZE], junk[1] = { 0x5a };
  gint udp;
  Sender s = { 0 };
  FecSender fs = { 0 };

  rx = fec_session (&s, &fs, 1, 10, &udp, &unit, &unit_len);
  /* the first parity datagram of the frame, real: the layout is fixed;
   * then again: a duplicate */
  fec_encode_frame (&fs, 0);
  ph.offset = gst_tile_wire_parity_offset (32, 4, 0);
  send_one (udp, &unit, unit_len, &ph, fs.parity, 1, 1, NULL, FALSE, FALSE);
  send_one (udp, &unit, unit_len, &ph, fs.parity, 1, 1, NULL, FALSE, FALSE);
  /* index 8 of 8 */
  ph.offset = gst_tile_wire_parity_offset (32, 4, 8);
  send_one (udp, &unit, unit_len, &ph, junk, 1, 1, NULL, FALSE, FALSE);
  /* another layout, valid by itself (4 groups of 16, 2 each) */
  ph.offset = gst_tile_wire_parity_offset (16, 2, 1);
  send_one (udp, &unit, unit_len, &ph, junk, 1, 1, NULL, FALSE, FALSE);
  /* 33 parity datagrams for 64 */
  ph.offset = gst_tile_wire_parity_offset (2, 1, 1);
  send_one (udp, &unit, unit_len, &ph, junk, 1, 1, NULL, FALSE, FALSE);
  /* the real frame, datagram 0 of it lost (recovered by the first parity
   * datagram as soon as the rest of its group is in), the rest of its
   * parity (used or not, depending on when the frame is whole) */
  fec_send_frame (&fs, 0, ALL (64) & ~1, ALL (8) & ~1);
  buf = expect_frame (rx, 0, 2000);
  fill (expect, 0);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  gst_buffer_unref (buf);
  /* (frame 1 behind them: frame 0's datagrams are all filed) */
  fec_send_frame (&fs, 1, ALL (64), 0);
  gst_buffer_unref (expect_frame (rx, 1, 2001));
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-invalid"), 3);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-duplicate"), 1);
  fail_unless (stat_u64 (rx, "fec-packets-received") >= 1);
  fail_unless_equals_uint64 (stat_u64 (rx, "fec-packets-received") +
      stat_u64 (rx, "fec-packets-unused"), 8);
  fail_unless_equals_uint64 (stat_u64 (rx, "fec-packets-recovered"), 1);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&udp);
  sender_close (&s);
  g_free (fs.parity);
}

GST_END_TEST;

/* With a passphrase, parity datagrams are sealed like data, under a nonce
 * of their own kind: one changed on the way, and one sealed under the
 * nonce its offset would have as a data datagram, are dropped (tampered)
 * before they can recover anything; the real ones recover the frame. */
GST_START_TEST (test_udp_fec_sealed)
{
  struct sockaddr_storage unit;
  socklen_t unit_len;
  GstTileReceiver *rx;
  GstBuffer *buf;
  GstTileWirePacketHeader ph = { 0, 1, 0, 1, 2001, 601, 42,
    GST_TILE_WIRE_PACKET_FLAG_PARITY
  };
  guint8 expect[FRAME_SIZE];
  gint udp;
  Sender s = { 0 };
  FecSender fs = { 0 };

  s.passphrase = "correct horse battery staple";
  rx = fec_session (&s, &fs, 16, 50, &udp, &unit, &unit_len);
  fs.key = s.key;
  /* frame 0: 2 of 4 lost, both parity datagrams */
  fec_send_frame (&fs, 0, 0x5, 0x3);
  buf = expect_frame (rx, 0, 2000);
  fill (expect, 0);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  gst_buffer_unref (buf);
  /* frame 1: the forgeries of parity 0 first, then 1 lost and parity 0 */
  fec_encode_frame (&fs, 1);
  ph.offset = gst_tile_wire_parity_offset (fs.l.span, fs.l.parity, 0);
  send_one (udp, &unit, unit_len, &ph, fs.parity, 16, 16, s.key, FALSE, TRUE);
  send_one (udp, &unit, unit_len, &ph, fs.parity, 16, 16, s.key, TRUE, FALSE);
  fec_send_frame (&fs, 1, 0xd, 0x1);
  buf = expect_frame (rx, 1, 2001);
  fill (expect, 1);
  fail_unless (gst_buffer_memcmp (buf, 0, expect, FRAME_SIZE) == 0);
  fail_if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED));
  gst_buffer_unref (buf);
  fail_unless_equals_uint64 (stat_u64 (rx, "packets-tampered"), 2);
  fail_unless_equals_uint64 (stat_u64 (rx, "fec-packets-recovered"), 3);
  fail_unless_equals_uint64 (stat_u64 (rx, "fec-frames-recovered"), 2);

  gst_tile_receiver_stop (rx);
  gst_tile_receiver_free (rx);
  gst_tile_net_close (&udp);
  sender_close (&s);
  g_free (fs.parity);
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
  tcase_add_test (tc, test_tcp_units_end_without_config);
  tcase_add_test (tc, test_udp_echo_checked);
  tcase_add_test (tc, test_udp_datagrams_before_echo);
  tcase_add_test (tc, test_udp_repeated_challenge);
  tcase_add_test (tc, test_config_flood);
  tcase_add_test (tc, test_refused_and_flushing);
  tcase_add_test (tc, test_udp_loss_concealed);
  tcase_add_test (tc, test_udp_nack_recovered);

  tcase_add_test (tc, test_udp_slow_frame_whole);
  tcase_add_test (tc, test_udp_discarded_acked);
  tcase_add_test (tc, test_udp_forged_datagrams);
  tcase_add_test (tc, test_udp_long_refusal);
  tcase_add_test (tc, test_udp_sealed);
  tcase_add_test (tc, test_udp_first_frame_gap_zeroed);
  tcase_add_test (tc, test_tcp_sealed);
  tcase_add_test (tc, test_sender_bad_proof);
  tcase_add_test (tc, test_udp_fec_recovered);
  tcase_add_test (tc, test_udp_fec_short_last);
  tcase_add_test (tc, test_udp_fec_forged);
  tcase_add_test (tc, test_udp_fec_sealed);
  return s;
}

GST_CHECK_MAIN (tilereceiver);
