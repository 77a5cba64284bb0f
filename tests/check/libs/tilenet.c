/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The socket helpers of libgsttile. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <gst/check/gstcheck.h>
#include <gst/bc/bc.h>

#include <gst/tile/tilenet.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gstbctest.h"

GST_START_TEST (test_buffer_is_enough)
{
  /* Linux reports twice what was granted */
  fail_unless (gst_tile_net_buffer_is_enough (2 * 4096, 4096));
  fail_if (gst_tile_net_buffer_is_enough (2 * 4096 - 2, 4096));
  fail_if (gst_tile_net_buffer_is_enough (4096, 4096));
}

GST_END_TEST;

GST_START_TEST (test_messages_over_a_socket)
{
  GByteArray *m = g_byte_array_new (), *payload = g_byte_array_new ();
  GstTileWireHeader h;
  GError *err = NULL;
  guint64 t = 0;
  guint8 bad[12];
  gint sv[2];

  fail_unless (socketpair (AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  gst_tile_wire_keepalive_pack (123456789, m);
  fail_unless (gst_tile_net_send_packed (sv[0], m, &err));
  fail_unless (gst_tile_net_read_message (sv[1], 1000, &h, payload, &err));
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_KEEPALIVE);
  fail_unless (gst_tile_wire_keepalive_parse (payload->data, payload->len, &t,
          NULL));
  fail_unless_equals_uint64 (t, 123456789);

  /* an oversized header is refused before its payload is read */
  memcpy (bad, m->data, 12);
  GST_WRITE_UINT32_BE (bad + 8, GST_TILE_WIRE_MAX_PAYLOAD + 1);
  fail_unless (write (sv[0], bad, 12) == 12);
  fail_if (gst_tile_net_read_message (sv[1], 1000, &h, payload, &err));
  fail_unless (g_error_matches (err, GST_TILE_WIRE_ERROR,
          GST_TILE_WIRE_ERROR_OVERSIZED));
  g_clear_error (&err);

  /* silence is a timeout, not a hang */
  fail_if (gst_tile_net_read_message (sv[1], 50, &h, payload, &err));
  fail_unless (g_error_matches (err, G_IO_ERROR, G_IO_ERROR_TIMED_OUT));
  g_clear_error (&err);

  /* a truncated message then the end of the connection */
  fail_unless (write (sv[0], m->data, 5) == 5);
  close (sv[0]);
  fail_if (gst_tile_net_read_message (sv[1], 1000, &h, payload, &err));
  fail_unless (g_error_matches (err, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED));
  g_clear_error (&err);
  close (sv[1]);

  g_byte_array_unref (m);
  g_byte_array_unref (payload);
}

GST_END_TEST;

GST_START_TEST (test_chunked_write)
{
  guint8 *data = g_malloc (100000), *got = g_malloc (100000);
  GError *err = NULL;
  gint sv[2];
  guint i;

  for (i = 0; i < 100000; i++)
    data[i] = i * 7;
  fail_unless (socketpair (AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  /* 1408-byte send calls, like the thesis' packets */
  fail_unless (gst_tile_net_write_all (sv[0], data, 100000, 1408, &err));
  fail_unless (gst_tile_net_read_all (sv[1], got, 100000, 1000, &err));
  fail_unless (memcmp (data, got, 100000) == 0);
  close (sv[0]);
  close (sv[1]);
  g_free (data);
  g_free (got);
}

GST_END_TEST;

GST_START_TEST (test_listen_connect)
{
  GError *err = NULL;
  guint port = 0;
  gint granted = 0;
  gint lfd, cfd, afd;

  lfd = gst_tile_net_listen ("127.0.0.1", 0, &port, &err);
  fail_unless (lfd >= 0, "%s", err ? err->message : "");
  fail_unless (port > 0);
  cfd = gst_tile_net_connect ("127.0.0.1", port, 1000, 1 << 20, &granted, &err);
  fail_unless (cfd >= 0);
  fail_unless (granted > 0);
  afd = gst_tile_net_accept (lfd, &err);
  fail_unless (afd >= 0);
  gst_tile_net_close (&afd);
  gst_tile_net_close (&cfd);
  fail_unless_equals_int (cfd, -1);

  /* nobody listens any more: a clear error */
  gst_tile_net_close (&lfd);
  cfd = gst_tile_net_connect ("127.0.0.1", port, 1000, 0, NULL, &err);
  fail_unless_equals_int (cfd, -1);
  fail_unless (strstr (err->message, "Could not connect to 127.0.0.1") !=
      NULL, "%s", err->message);
  g_clear_error (&err);

  fail_unless (gst_tile_net_listen ("no-such-host.invalid", 0, &port,
          &err) < 0);
  fail_unless (strstr (err->message, "no-such-host.invalid") != NULL);
  g_clear_error (&err);
}

GST_END_TEST;

/* Writes to @fd without blocking until the socket takes no more; returns
 * the bytes written */
static gsize
fill_socket (gint fd)
{
  static guint8 block[16384];
  gsize total = 0;
  gssize n;

  while ((n = send (fd, block, sizeof (block), MSG_DONTWAIT | MSG_NOSIGNAL))
      > 0)
    total += n;
  return total;
}

/* Reads what @fd has without blocking */
static void
drain_socket (gint fd)
{
  guint8 buf[65536];

  while (recv (fd, buf, sizeof (buf), MSG_DONTWAIT) > 0);
}

/* With an unsent limit, a sender whose peer does not read stops being
 * writable once that much is queued unsent, long before its send buffer is
 * full, and is writable again once the peer reads; TCP_INFO tells the
 * unsent bytes and the delivery rate */
GST_START_TEST (test_unsent_limit)
{
  GError *err = NULL;
  guint port = 0;
  gint lfd, rx[2], tx[2], i, limit = 0;
  gsize written[2];
  socklen_t len = sizeof (limit);
  GstTileNetTcpState st;

  lfd = gst_tile_net_listen ("127.0.0.1", 0, &port, &err);
  fail_unless (lfd >= 0, "%s", err ? err->message : "");
  for (i = 0; i < 2; i++) {
    /* receivers with small buffers that do not read */
    rx[i] = gst_tile_net_connect ("127.0.0.1", port, 1000, 65536, NULL, &err);
    fail_unless (rx[i] >= 0, "%s", err ? err->message : "");
    tx[i] = gst_tile_net_accept (lfd, &err);
    fail_unless (tx[i] >= 0, "%s", err ? err->message : "");
    gst_tile_net_set_buffer_size (tx[i], TRUE, 4 << 20);
  }
  fail_unless (gst_tile_net_set_unsent_limit (tx[1], 65536));
  fail_unless (getsockopt (tx[1], IPPROTO_TCP, TCP_NOTSENT_LOWAT, &limit,
          &len) == 0);
  fail_unless_equals_int (limit, 65536);

  for (i = 0; i < 2; i++)
    written[i] = fill_socket (tx[i]);
  GST_INFO ("written without a limit %" G_GSIZE_FORMAT ", with a 64 KiB "
      "limit %" G_GSIZE_FORMAT, written[0], written[1]);
  /* the send buffer (4 MiB asked) against the limit plus the peer's
   * window */
  fail_unless (written[0] > 2 * written[1], "%" G_GSIZE_FORMAT " vs %"
      G_GSIZE_FORMAT, written[0], written[1]);
  fail_if (gst_tile_net_wait (tx[1], TRUE, 100, NULL));
  /* what TCP_INFO says: at least the limit is left unsent */
  fail_unless (gst_tile_net_tcp_state (tx[1], &st));
  fail_unless (st.unsent >= 65536, "%" G_GUINT64_FORMAT " bytes unsent",
      st.unsent);
  /* the send queue holds at least what is unsent, and what was written
   * without a limit and not read is queued too */
  fail_unless (gst_tile_net_queued (tx[1]) >= st.unsent);
  fail_unless (gst_tile_net_queued (tx[0]) >= written[0] / 2,
      "%" G_GUINT64_FORMAT " of %" G_GSIZE_FORMAT " bytes queued",
      gst_tile_net_queued (tx[0]), written[0]);

  /* the peer reads: writable again, and a delivery rate measured */
  for (i = 0; i < 100 && !gst_tile_net_wait (tx[1], TRUE, 10, NULL); i++)
    drain_socket (rx[1]);
  fail_unless (gst_tile_net_wait (tx[1], TRUE, 0, NULL));
  fail_unless (gst_tile_net_tcp_state (tx[1], &st));
  GST_INFO ("delivery rate %" G_GUINT64_FORMAT " bit/s, %" G_GUINT64_FORMAT
      " bytes unsent, %" G_GUINT64_FORMAT " acknowledged, busy %"
      G_GUINT64_FORMAT " us, rtt %u us", st.delivery_rate, st.unsent,
      st.bytes_acked, st.busy_us, st.rtt_us);
  fail_unless (st.delivery_rate > 0);
  fail_unless (st.unsent < 65536);
  /* (nothing queued on a descriptor that is no socket) */
  fail_unless_equals_uint64 (gst_tile_net_queued (-1), 0);
  /* what was read was acknowledged; the connection was busy meanwhile */
  fail_unless (st.bytes_acked > 0);
  fail_unless (st.busy_us > 0);
  /* idle: everything read and acknowledged, the last acknowledgement
   * ages */
  for (i = 0; i < 100 && (st.unsent > 0 || gst_tile_net_queued (tx[1]) > 0);
      i++) {
    drain_socket (rx[1]);
    g_usleep (1000);
    fail_unless (gst_tile_net_tcp_state (tx[1], &st));
  }
  drain_socket (rx[1]);
  g_usleep (60 * 1000);
  fail_unless (gst_tile_net_tcp_state (tx[1], &st));
  fail_unless_equals_int (st.unacked, 0);
  fail_unless (st.last_ack_ms >= 50 && st.last_ack_ms < 10000, "%u ms",
      st.last_ack_ms);
  /* the receiver read everything: its window is open */
  fail_unless (st.send_window > 0);

  for (i = 0; i < 2; i++) {
    gst_tile_net_close (&tx[i]);
    gst_tile_net_close (&rx[i]);
  }
  gst_tile_net_close (&lfd);
}

GST_END_TEST;

/* the non-blocking reads and writes of a connection */
GST_START_TEST (test_stream_reads_and_writes)
{
  guint8 buf[4096], big[65536];
  GError *err = NULL;
  gint sv[2];
  guint i;

  fail_unless (socketpair (AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  /* nothing yet, then what there is */
  fail_unless_equals_int (gst_tile_net_read_some (sv[1], buf, sizeof (buf)), 0);
  fail_unless (gst_tile_net_send_now (sv[0], (const guint8 *) "abc", 3, &err));
  fail_unless_equals_int (gst_tile_net_read_some (sv[1], buf, sizeof (buf)), 3);
  fail_unless (memcmp (buf, "abc", 3) == 0);

  /* a peer that does not read: send_now fails instead of blocking */
  memset (big, 7, sizeof (big));
  for (i = 0; i < 1000; i++) {
    if (!gst_tile_net_send_now (sv[0], big, sizeof (big), &err))
      break;
  }
  fail_unless (i < 1000);
  /* part taken, or nothing (EAGAIN): both "would block" */
  fail_unless (g_error_matches (err, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK),
      "%s", err->message);
  g_clear_error (&err);
  close (sv[0]);
  close (sv[1]);

  /* read until the end: short only at the end of the connection */
  fail_unless (socketpair (AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  fail_unless (write (sv[0], "0123456789", 10) == 10);
  fail_unless_equals_int (gst_tile_net_read_until_eof (sv[1], buf, 4), 4);
  fail_unless (memcmp (buf, "0123", 4) == 0);
  close (sv[0]);
  fail_unless_equals_int (gst_tile_net_read_until_eof (sv[1], buf, 100), 6);
  fail_unless (memcmp (buf, "456789", 6) == 0);
  /* and at the end, nothing is an end, not "wait" */
  fail_unless_equals_int (gst_tile_net_read_some (sv[1], buf, sizeof (buf)),
      -1);
  close (sv[1]);
}

GST_END_TEST;

/* a receiver's unit socket and a sender's connected one on 127.0.0.1:
 * batches both ways, the addresses, the control data */
GST_START_TEST (test_udp_batches)
{
  struct sockaddr_storage ss;
  struct sockaddr_in *sin = (struct sockaddr_in *) &ss;
  struct mmsghdr msgs[4];
  struct iovec iov[4];
  guint8 data[4][100], cmsg[4][128];
  guint64 sent_ns, arrival;
  GError *err = NULL;
  guint port, sl, i, segment;
  guint32 drops;
  gint rx, tx;

  rx = gst_tile_net_udp_bind_any (AF_INET, &err);
  fail_unless (rx >= 0, "%s", err ? err->message : "");
  port = gst_tile_net_local_port (rx);
  fail_unless (port > 0);
  fail_unless_equals_int (gst_tile_net_local_port (-1), 0);
  sl = gst_tile_net_address (rx, FALSE, &ss);
  fail_unless_equals_int (sl, sizeof (struct sockaddr_in));
  fail_unless_equals_int (g_ntohs (sin->sin_port), port);
  /* not connected: no peer */
  fail_unless_equals_int (gst_tile_net_address (rx, TRUE, &ss), 0);
  /* nothing arrived yet: 0, not an error */
  memset (msgs, 0, sizeof (msgs));
  fail_unless_equals_int (gst_tile_net_udp_recv_batch (rx, msgs, 4, &err), 0);
  fail_unless (err == NULL);

  memset (&ss, 0, sizeof (ss));
  sin->sin_family = AF_INET;
  sin->sin_port = g_htons (port);
  sin->sin_addr.s_addr = g_htonl (INADDR_LOOPBACK);
  tx = gst_tile_net_udp_connected ((struct sockaddr *) &ss,
      sizeof (struct sockaddr_in), &err);
  fail_unless (tx >= 0, "%s", err ? err->message : "");
  fail_unless_equals_int (gst_tile_net_address (tx, TRUE, &ss),
      sizeof (struct sockaddr_in));
  fail_unless_equals_int (g_ntohs (sin->sin_port), port);

  /* three datagrams in one call, then one sent to an address */
  for (i = 0; i < 4; i++) {
    memset (data[i], 'a' + i, sizeof (data[i]));
    iov[i].iov_base = data[i];
    iov[i].iov_len = 10 + i;
    memset (&msgs[i], 0, sizeof (msgs[i]));
    msgs[i].msg_hdr.msg_iov = &iov[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
  }
  sent_ns = (guint64) g_get_real_time () * 1000;
  fail_unless_equals_int (gst_tile_net_udp_send_batch (tx, msgs, 3, &err), 3);
  gst_tile_net_udp_send_to (tx, data[3], 13, (struct sockaddr *) &ss,
      sizeof (struct sockaddr_in));

  for (i = 0; i < 4; i++) {
    iov[i].iov_base = data[i];
    iov[i].iov_len = sizeof (data[i]);
    memset (&msgs[i], 0, sizeof (msgs[i]));
    msgs[i].msg_hdr.msg_iov = &iov[i];
    msgs[i].msg_hdr.msg_iovlen = 1;
    msgs[i].msg_hdr.msg_control = cmsg[i];
    msgs[i].msg_hdr.msg_controllen = sizeof (cmsg[i]);
  }
  fail_unless (gst_tile_net_wait (rx, FALSE, 1000, NULL));
  fail_unless_equals_int (gst_tile_net_udp_recv_batch (rx, msgs, 4, &err), 4);
  for (i = 0; i < 4; i++) {
    fail_unless_equals_int (msgs[i].msg_len, 10 + i);
    fail_unless_equals_int (data[i][0], 'a' + i);
    /* no GRO here and no queue drops: both left as they were */
    segment = 12345;
    drops = 54321;
    arrival = 0;
    gst_tile_net_udp_message_info (&msgs[i].msg_hdr, &segment, &drops,
        &arrival);
    fail_unless_equals_int (segment, 12345);
    fail_unless_equals_int (drops, 54321);
    /* the kernel's arrival time: after the send, before now (both
     * CLOCK_REALTIME; 1 ms of slack for the microsecond clock) */
    fail_unless (arrival + 1000000 >= sent_ns &&
        arrival <= (guint64) g_get_real_time () * 1000 + 1000000,
        "arrival %" G_GUINT64_FORMAT " sent %" G_GUINT64_FORMAT, arrival,
        sent_ns);
  }

  gst_tile_net_close (&tx);
  gst_tile_net_close (&rx);
  fail_unless_equals_int (rx, -1);
}

GST_END_TEST;

static Suite *
tilenet_suite (void)
{
  Suite *s = suite_create ("tilenet");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_buffer_is_enough);
  tcase_add_test (tc, test_messages_over_a_socket);
  tcase_add_test (tc, test_chunked_write);
  tcase_add_test (tc, test_listen_connect);
  tcase_add_test (tc, test_unsent_limit);
  tcase_add_test (tc, test_stream_reads_and_writes);
  tcase_add_test (tc, test_udp_batches);
  return s;
}

GST_CHECK_MAIN (tilenet);
