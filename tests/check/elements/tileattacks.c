/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Attacks on tilesink by a peer on the same network, each as the attacker
 * would run it, against a live tilesink (and real tilesrc receivers where
 * the attack is on them): UNIT_HELLO datagrams with a forged source address
 * (a reflection of the video to a victim), junk datagrams to draw REFUSEs
 * (a reflector), a receiver flooding its control connection beside real
 * receivers, and a connection flood during a real receiver's handshake;
 * and a multicast receiver on the sender's own host, which used to take
 * the sender's datagrams for forgeries.
 *
 * The forged datagrams need a raw socket (CAP_NET_RAW): run with --raw,
 * this program runs only that test and exits 77 (skipped) without the
 * capability; without arguments it runs the others. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <gst/check/gstcheck.h>
#include <gst/tile/tilewire.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PULL_TIMEOUT (10 * GST_SECOND)

#include "gstbctest.h"

/* 127.0.0.1 is the attacker's host (and the receivers'); 127.0.0.2 is
 * another host, the victim's (every 127/8 address is this machine's
 * loopback, which is all the tests have) */
#define ATTACKER_HOST "127.0.0.1"
#define OTHER_HOST "127.0.0.2"

/* A live tilesink, 320x240 GRAY8 at 30 frames/s. */
typedef struct
{
  GstElement *pipeline, *sink;
  guint port;
} Sender;

static void
sender_start (Sender * s, const gchar * props)
{
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true pattern=ball ! "
      "video/x-raw,format=GRAY8,width=320,height=240,framerate=30/1 ! "
      "tilesink name=sink address=" ATTACKER_HOST " port=0 stats-interval=0 "
      "%s", props);

  s->pipeline = launch (desc);
  g_free (desc);
  s->sink = get (s->pipeline, "sink");
  play (s->pipeline);
  g_object_get (s->sink, "bound-port", &s->port, NULL);
  fail_unless (s->port > 0);
}

static void
sender_stop (Sender * s)
{
  gst_object_unref (s->sink);
  stop (s->pipeline);
}

/* A real receiver: tilesrc ! fakesink */
typedef struct
{
  GstElement *pipeline, *src;
} Receiver;

static void
receiver_start (Receiver * r, guint port, const gchar * props)
{
  gchar *desc = g_strdup_printf ("tilesrc name=src host=" ATTACKER_HOST
      " port=%u timeout=5000 stats-interval=0 %s ! fakesink sync=false",
      port, props);

  r->pipeline = launch (desc);
  g_free (desc);
  r->src = get (r->pipeline, "src");
  play (r->pipeline);
}

static guint64
frames_received (Receiver * r)
{
  return test_stat_u64 (r->src, "stats", "frames-received");
}

static void
receiver_stop (Receiver * r)
{
  gst_object_unref (r->src);
  stop (r->pipeline);
}

static void
sockaddr_of (struct sockaddr_in *sa, const gchar * host, guint port)
{
  memset (sa, 0, sizeof (*sa));
  sa->sin_family = AF_INET;
  sa->sin_port = htons (port);
  fail_unless (inet_pton (AF_INET, host, &sa->sin_addr) == 1);
}

/* A TCP connection to tilesink from @host (any port) */
static gint
connect_from (const gchar * host, guint port)
{
  struct sockaddr_in sa, local;
  gint fd = socket (AF_INET, SOCK_STREAM, 0);

  fail_unless (fd >= 0);
  sockaddr_of (&local, host, 0);
  fail_unless (bind (fd, (struct sockaddr *) &local, sizeof (local)) == 0,
      "bind %s: %s", host, g_strerror (errno));
  sockaddr_of (&sa, ATTACKER_HOST, port);
  fail_unless (connect (fd, (struct sockaddr *) &sa, sizeof (sa)) == 0,
      "connect: %s", g_strerror (errno));
  return fd;
}

/* A UDP socket bound to @host, any port; its address in @sa */
static gint
udp_on (const gchar * host, struct sockaddr_in *sa)
{
  socklen_t sl = sizeof (*sa);
  gint fd = socket (AF_INET, SOCK_DGRAM, 0);

  fail_unless (fd >= 0);
  sockaddr_of (sa, host, 0);
  fail_unless (bind (fd, (struct sockaddr *) sa, sizeof (*sa)) == 0);
  fail_unless (getsockname (fd, (struct sockaddr *) sa, &sl) == 0);
  fail_unless (fcntl (fd, F_SETFL, O_NONBLOCK) == 0);
  return fd;
}

static void
send_message (gint fd, GByteArray * m)
{
  fail_unless (send (fd, m->data, m->len, MSG_NOSIGNAL) == (gssize) m->len);
  g_byte_array_set_size (m, 0);
}

/* The attacker's control connection: a HELLO without a passphrase, then
 * the CONFIG (after keep-alives, maybe) in @config. */
static gint
attacker_hello (guint port, GstTileWireConfig * config)
{
  GstTileWireHello hello = { 0 };
  GByteArray *m = g_byte_array_new ();
  guint8 *buf = g_malloc (GST_TILE_WIRE_MAX_PAYLOAD);
  GstTileWireHeader h;
  gint fd = connect_from (ATTACKER_HOST, port);

  gst_tile_wire_hello_pack (&hello, m, NULL);
  send_message (fd, m);
  do {
    fail_unless_equals_int (test_read_some (fd, buf,
            GST_TILE_WIRE_HEADER_SIZE, 5000), GST_TILE_WIRE_HEADER_SIZE);
    fail_unless_equals_int (gst_tile_wire_header_parse (buf,
            GST_TILE_WIRE_HEADER_SIZE, &h, NULL), GST_TILE_WIRE_PARSE_OK);
    fail_unless_equals_int (test_read_some (fd, buf, h.payload_len, 5000),
        h.payload_len);
  } while (h.type == GST_TILE_WIRE_TYPE_KEEPALIVE);
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_CONFIG);
  fail_unless (gst_tile_wire_config_parse (buf, h.payload_len, config, NULL));
  g_byte_array_unref (m);
  g_free (buf);
  return fd;
}

static void
send_keepalive (gint fd)
{
  GByteArray *m = g_byte_array_new ();

  gst_tile_wire_keepalive_pack (g_get_monotonic_time () * 1000, m);
  send_message (fd, m);
  g_byte_array_unref (m);
}

/* Reads what came on @fd (non-blocking) into the totals: bytes, and the
 * datagrams that were tile data ("GSBU") */
static void
drain_victim (gint fd, guint64 * bytes, guint * data_datagrams,
    guint * messages)
{
  guint8 buf[65536];
  gssize n;

  while ((n = recv (fd, buf, sizeof (buf), 0)) > 0) {
    *bytes += n;
    if (n >= 4 && GST_READ_UINT32_BE (buf) == GST_TILE_WIRE_PACKET_MAGIC)
      (*data_datagrams)++;
    else
      (*messages)++;
  }
}

/* ---------------------------------------------------------------------- */
/* reflection                                                              */

/* A UDP datagram from @src to @dst sent through the raw socket @raw (the
 * IP header is ours: any source address) */
static void
forge_udp (gint raw, const struct sockaddr_in *src,
    const struct sockaddr_in *dst, const guint8 * data, gsize len)
{
  guint8 pkt[sizeof (struct iphdr) + sizeof (struct udphdr) + 256];
  struct iphdr *ip = (struct iphdr *) pkt;
  struct udphdr *udp = (struct udphdr *) (pkt + sizeof (struct iphdr));
  gsize total = sizeof (struct iphdr) + sizeof (struct udphdr) + len;

  fail_unless (len <= 256);
  memset (pkt, 0, sizeof (pkt));
  ip->version = 4;
  ip->ihl = 5;
  ip->ttl = 64;
  ip->protocol = IPPROTO_UDP;
  ip->tot_len = htons (total);
  ip->saddr = src->sin_addr.s_addr;
  ip->daddr = dst->sin_addr.s_addr;
  udp->source = src->sin_port;
  udp->dest = dst->sin_port;
  udp->len = htons (sizeof (struct udphdr) + len);
  udp->check = 0;               /* (optional over IPv4) */
  memcpy (pkt + sizeof (struct iphdr) + sizeof (struct udphdr), data, len);
  fail_unless (sendto (raw, pkt, total, 0, (const struct sockaddr *) dst,
          sizeof (*dst)) == (gssize) total, "sendto: %s", g_strerror (errno));
}

/* The attacker completes the TCP handshake from its own address, then
 * sends the units' UNIT_HELLO datagrams with the source address of a
 * victim: on another host (the datagram must come from the control
 * connection's host: nothing may reach that victim), and on the attacker's
 * own host at another port (it must answer with a cookie first, which the
 * attacker never sees: the victim gets no more than three times the bytes
 * the attacker sent, and no tile data). It keeps its session alive with
 * keep-alives, as the attack needs. */
GST_START_TEST (test_forged_unit_hello)
{
  Sender s;
  GstTileWireConfig *config = g_new0 (GstTileWireConfig, 1);
  GByteArray *m = g_byte_array_new ();
  struct sockaddr_in other, same, dst;
  guint64 other_bytes = 0, same_bytes = 0, sent_same = 0;
  guint other_data = 0, same_data = 0, other_msgs = 0, same_msgs = 0;
  gint ctl, raw, v_other, v_same, round;
  guint u;

  raw = socket (AF_INET, SOCK_RAW, IPPROTO_RAW);
  fail_unless (raw >= 0, "raw socket: %s", g_strerror (errno));
  sender_start (&s, "protocol=udp units=2");
  v_other = udp_on (OTHER_HOST, &other);
  v_same = udp_on (ATTACKER_HOST, &same);
  ctl = attacker_hello (s.port, config);
  sockaddr_of (&dst, ATTACKER_HOST, s.port);

  for (round = 0; round < 30; round++) {
    for (u = 0; u < config->n_tiles; u++) {
      GstTileWireUnitHello uh = { 0 };

      uh.token = config->token;
      uh.generation = config->generation;
      uh.unit = u;
      fail_unless (gst_tile_wire_unit_hello_pack (&uh, m, NULL));
      forge_udp (raw, &other, &dst, m->data, m->len);
      forge_udp (raw, &same, &dst, m->data, m->len);
      sent_same += m->len;
      g_byte_array_set_size (m, 0);
    }
    /* the window that opens the stream, as a receiver would announce it */
    {
      GstTileWireAck ack = { 0 };

      ack.generation = config->generation;
      ack.window = 64;
      gst_tile_wire_ack_pack (&ack, m);
      send_message (ctl, m);
    }
    send_keepalive (ctl);
    g_usleep (50 * 1000);
    drain_victim (v_other, &other_bytes, &other_data, &other_msgs);
    drain_victim (v_same, &same_bytes, &same_data, &same_msgs);
  }
  g_usleep (200 * 1000);
  drain_victim (v_other, &other_bytes, &other_data, &other_msgs);
  drain_victim (v_same, &same_bytes, &same_data, &same_msgs);
  GST_INFO ("victim on another host: %" G_GUINT64_FORMAT " bytes; on the "
      "attacker's host: %" G_GUINT64_FORMAT " bytes (%u cookies) for %"
      G_GUINT64_FORMAT " sent", other_bytes, same_bytes, same_msgs,
      sent_same);

  /* nothing for the host that never connected */
  fail_unless_equals_uint64 (other_bytes, 0);
  /* at most three times what was sent, and never a tile */
  fail_unless_equals_int (same_data, 0);
  fail_unless (same_bytes <= 3 * sent_same, "%" G_GUINT64_FORMAT " bytes "
      "for %" G_GUINT64_FORMAT, same_bytes, sent_same);
  fail_unless (test_stat_u64 (s.sink, "tile-stats", "hellos-unvalidated") > 0);
  fail_unless (test_stat_u64 (s.sink, "tile-stats", "hellos-challenged") > 0);
  fail_unless_equals_uint64 (test_stat_u64 (s.sink, "tile-stats",
          "packets-sent"), 0);

  close (ctl);
  close (raw);
  close (v_other);
  close (v_same);
  g_byte_array_unref (m);
  g_free (config);
  sender_stop (&s);
}

GST_END_TEST;

/* Junk datagrams to tilesink's UDP port: from a host without a receiver
 * they get no answer at all (no reflector); from a receiver's host at most
 * 20 REFUSEs a second, each at most three times the junk's size. */
GST_START_TEST (test_refuse_reflection)
{
  Sender s;
  GstTileWireConfig *config = g_new0 (GstTileWireConfig, 1);
  struct sockaddr_in a_other, a_same, dst;
  guint8 junk[20], buf[2048];
  gint ctl, other, same, i;
  guint answers = 0;
  gssize n;

  sender_start (&s, "protocol=udp units=2");
  ctl = attacker_hello (s.port, config);
  other = udp_on (OTHER_HOST, &a_other);
  same = udp_on (ATTACKER_HOST, &a_same);
  sockaddr_of (&dst, ATTACKER_HOST, s.port);
  memset (junk, 0x55, sizeof (junk));
  gst_tile_wire_header_write (junk, GST_TILE_WIRE_TYPE_UNIT_HELLO, 8);

  /* (in bursts the socket buffer holds) */
  for (i = 0; i < 200; i++) {
    fail_unless (sendto (other, junk, sizeof (junk), 0,
            (struct sockaddr *) &dst, sizeof (dst)) == sizeof (junk));
    fail_unless (sendto (same, junk, sizeof (junk), 0,
            (struct sockaddr *) &dst, sizeof (dst)) == sizeof (junk));
    if (i % 20 == 19)
      g_usleep (10 * 1000);
  }
  test_tile_wait_u64 (s.sink, "hellos-unvalidated", 200);
  fail_unless (recv (other, buf, sizeof (buf), 0) < 0,
      "an answer to a host without a receiver");
  while ((n = recv (same, buf, sizeof (buf), 0)) > 0) {
    GstTileWireHeader h;

    answers++;
    fail_unless (n <= 3 * (gssize) sizeof (junk), "an answer of %d bytes to "
        "%d", (gint) n, (gint) sizeof (junk));
    fail_unless_equals_int (gst_tile_wire_header_parse (buf, n, &h, NULL),
        GST_TILE_WIRE_PARSE_OK);
    fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_REFUSE);
  }
  GST_INFO ("%u answers to 200 junk datagrams", answers);
  /* (the sends may span two of the one-second windows) */
  fail_unless (answers >= 1 && answers <= 40, "%u answers", answers);

  close (ctl);
  close (other);
  close (same);
  g_free (config);
  sender_stop (&s);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* starvation                                                              */

typedef struct
{
  guint port;
  gint stop;
  guint64 messages;
} Flood;

/* Connects, then floods the control connection with KEEPALIVE and STATS
 * messages as fast as the socket takes them, until told to stop. */
static gpointer
flood_thread (gpointer data)
{
  Flood *f = data;
  GstTileWireConfig *config = g_new0 (GstTileWireConfig, 1);
  GstStructure *st = gst_structure_new ("tilesrc-stats", "frames-received",
      G_TYPE_UINT64, G_GUINT64_CONSTANT (1), NULL);
  GByteArray *m = g_byte_array_new ();
  gint fd = attacker_hello (f->port, config);
  guint i;

  /* a batch of 200 KEEPALIVEs and a STATS, written again and again */
  for (i = 0; i < 200; i++)
    gst_tile_wire_keepalive_pack (i, m);
  fail_unless (gst_tile_wire_stats_pack (st, m, NULL));
  while (!g_atomic_int_get (&f->stop)) {
    struct pollfd p = { fd, POLLOUT, 0 };

    if (poll (&p, 1, 100) <= 0)
      continue;
    if (send (fd, m->data, m->len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 &&
        errno != EAGAIN)
      break;
    f->messages += 201;
  }
  close (fd);
  gst_structure_free (st);
  g_byte_array_unref (m);
  g_free (config);
  return NULL;
}

/* Counts frames over @ms and returns how many arrived at @r */
static guint64
frames_over (Receiver * r, guint ms)
{
  guint64 before = frames_received (r);

  g_usleep ((gulong) ms * 1000);
  return frames_received (r) - before;
}

/* One receiver floods its control connection with KEEPALIVE and STATS;
 * a real receiver already there, and one that joins during the flood,
 * keep at least 90 % of the frames (30 a second). */
static void
check_control_flood (const gchar * props)
{
  Sender s;
  Receiver a, b;
  Flood f = { 0 };
  GThread *t;
  guint64 got_a, got_b;
  gint64 end;

  sender_start (&s, props);
  receiver_start (&a, s.port, "");
  /* the first receiver is served */
  end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (frames_received (&a) < 10 && g_get_monotonic_time () < end)
    g_usleep (10000);
  fail_unless (frames_received (&a) >= 10);

  f.port = s.port;
  t = g_thread_new ("flood", flood_thread, &f);
  g_usleep (300 * 1000);
  receiver_start (&b, s.port, "");
  end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (frames_received (&b) < 10 && g_get_monotonic_time () < end)
    g_usleep (10000);
  fail_unless (frames_received (&b) >= 10, "the receiver that joined during "
      "the flood got %" G_GUINT64_FORMAT " frames", frames_received (&b));

  /* both, over 3 s of flood: 90 frames sent */
  got_b = frames_received (&b);
  got_a = frames_over (&a, 3000);
  got_b = frames_received (&b) - got_b;
  GST_INFO ("during the flood (%" G_GUINT64_FORMAT " messages): %"
      G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT " of 90 frames",
      f.messages, got_a, got_b);
  fail_unless (f.messages > 10000, "the flood sent only %" G_GUINT64_FORMAT
      " messages", f.messages);
  fail_unless (got_a >= 81 && got_b >= 81, "%" G_GUINT64_FORMAT " and %"
      G_GUINT64_FORMAT " frames of 90 during the flood", got_a, got_b);

  g_atomic_int_set (&f.stop, 1);
  g_thread_join (t);
  receiver_stop (&a);
  receiver_stop (&b);
  sender_stop (&s);
}

GST_START_TEST (test_control_flood_tcp)
{
  check_control_flood ("protocol=tcp units=2");
}

GST_END_TEST;

GST_START_TEST (test_control_flood_udp)
{
  check_control_flood ("protocol=udp units=2");
}

GST_END_TEST;

/* A host opens connections without end and says nothing, while a
 * receiver on another host runs its handshake (with a passphrase, whose
 * key derivation keeps the handshake open a while): the flood only ever
 * evicts its own connections, and the receiver gets in. */
GST_START_TEST (test_connect_flood)
{
  Sender s;
  Receiver r;
  GQueue fds = G_QUEUE_INIT;
  gint64 end;
  gint fd;

  sender_start (&s, "passphrase=correct-horse");
  /* the flood from the other host, already under way */
  while (g_queue_get_length (&fds) < 100)
    g_queue_push_tail (&fds, GINT_TO_POINTER (connect_from (OTHER_HOST,
                s.port)));
  receiver_start (&r, s.port, "passphrase=correct-horse");
  end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (frames_received (&r) < 5 && g_get_monotonic_time () < end) {
    guint i;

    for (i = 0; i < 20; i++) {
      g_queue_push_tail (&fds, GINT_TO_POINTER (connect_from (OTHER_HOST,
                  s.port)));
      if (g_queue_get_length (&fds) > 200)
        close (GPOINTER_TO_INT (g_queue_pop_head (&fds)));
    }
    g_usleep (2000);
  }
  fail_unless (frames_received (&r) >= 5, "the receiver got %"
      G_GUINT64_FORMAT " frames during the connection flood",
      frames_received (&r));
  while ((fd = GPOINTER_TO_INT (g_queue_pop_head (&fds))))
    close (fd);
  receiver_stop (&r);
  sender_stop (&s);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* multicast                                                               */

/* Whether this host can send to a multicast group (a route for it). */
static gboolean
have_multicast_route (void)
{
  struct sockaddr_in sa;
  gint fd = socket (AF_INET, SOCK_DGRAM, 0);
  gboolean ok;

  sockaddr_of (&sa, "239.255.77.1", 9);
  ok = fd >= 0 && sendto (fd, "x", 1, 0, (struct sockaddr *) &sa,
      sizeof (sa)) == 1;
  if (fd >= 0)
    close (fd);
  return ok;
}

/* A receiver on the sender's own host, tilesink with default properties
 * (no address: the group's datagrams leave from whichever address the
 * route picks, not 127.0.0.1 where the receiver connected): it gets the
 * frames, none of the datagrams counted invalid. (packet-size 1200: the
 * datagrams go out on the route's interface, whose MTU may be below the
 * default's 1448 bytes.) */
GST_START_TEST (test_multicast_own_host)
{
  GstElement *tx;
  Receiver r;
  guint port;
  gint64 end;

  if (!have_multicast_route ()) {
    g_print ("test_multicast_own_host: this host has no route for "
        "multicast; skipped\n");
    return;
  }
  tx = launch ("videotestsrc is-live=true ! video/x-raw,format=GRAY8,"
      "width=320,height=240,framerate=30/1 ! tilesink name=sink port=0 "
      "protocol=udp packet-size=1200 multicast-group=239.255.77.2 "
      "stats-interval=0");
  play (tx);
  {
    GstElement *sink = get (tx, "sink");

    g_object_get (sink, "bound-port", &port, NULL);
    gst_object_unref (sink);
  }
  receiver_start (&r, port, "");
  end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (frames_received (&r) < 10 && g_get_monotonic_time () < end)
    g_usleep (10000);
  fail_unless (frames_received (&r) >= 10, "%" G_GUINT64_FORMAT " frames, "
      "%" G_GUINT64_FORMAT " datagrams invalid", frames_received (&r),
      test_stat_u64 (r.src, "stats", "packets-invalid"));
  fail_unless_equals_uint64 (test_stat_u64 (r.src, "stats",
          "packets-invalid"), 0);
  receiver_stop (&r);
  stop (tx);
}

GST_END_TEST;

static Suite *
tileattacks_suite (gboolean raw)
{
  Suite *s = suite_create ("tileattacks");
  TCase *tc = test_suite_add_general (s, 120);

  if (raw) {
    tcase_add_test (tc, test_forged_unit_hello);
  } else {
    tcase_add_test (tc, test_refuse_reflection);
    tcase_add_test (tc, test_control_flood_tcp);
    tcase_add_test (tc, test_control_flood_udp);
    tcase_add_test (tc, test_connect_flood);
    tcase_add_test (tc, test_multicast_own_host);
  }
  return s;
}

int
main (int argc, char **argv)
{
  gboolean raw = argc > 1 && strcmp (argv[1], "--raw") == 0;
  SRunner *sr;
  gint failed;

  if (raw)
    argc = 1;                   /* (ours, not GStreamer's) */
  gst_check_init (&argc, &argv);
  if (raw) {
    gint fd = socket (AF_INET, SOCK_RAW, IPPROTO_RAW);

    if (fd < 0) {
      g_print ("no raw socket (%s): forging source addresses needs "
          "CAP_NET_RAW; skipped\n", g_strerror (errno));
      return 77;
    }
    close (fd);
  }
  sr = srunner_create (tileattacks_suite (raw));
  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
