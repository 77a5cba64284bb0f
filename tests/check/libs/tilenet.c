/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The socket helpers of libgsttile. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/bc/bc.h>

#include <gst/tile/tilenet.h>

#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

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
  fail_unless (g_error_matches (err, G_IO_ERROR,
          G_IO_ERROR_CONNECTION_CLOSED));
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
  cfd = gst_tile_net_connect ("127.0.0.1", port, 1000, 1 << 20, &granted,
      &err);
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

static Suite *
tilenet_suite (void)
{
  Suite *s = suite_create ("tilenet");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_buffer_is_enough);
  tcase_add_test (tc, test_messages_over_a_socket);
  tcase_add_test (tc, test_chunked_write);
  tcase_add_test (tc, test_listen_connect);
  return s;
}

GST_CHECK_MAIN (tilenet);
