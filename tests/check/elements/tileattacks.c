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
#include <gst/tile/tilekeys.h>
#include <gst/tile/tilenet.h>
#include <gst/tile/tilepake.h>
#include <gst/tile/tileseal.h>

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

/* @address NULL: tilesink's default (every address) */
static void
sender_start_on (Sender * s, const gchar * address, const gchar * props)
{
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true pattern=ball ! "
      "video/x-raw,format=GRAY8,width=320,height=240,framerate=30/1 ! "
      "tilesink name=sink %s%s port=0 stats-interval=0 %s",
      address ? "host=" : "", address ? address : "", props);

  s->pipeline = launch (desc);
  g_free (desc);
  s->sink = get (s->pipeline, "sink");
  play (s->pipeline);
  g_object_get (s->sink, "bound-port", &s->port, NULL);
  fail_unless (s->port > 0);
}

static void
sender_start (Sender * s, const gchar * props)
{
  sender_start_on (s, ATTACKER_HOST, props);
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

/* Waits up to 10 s for @r to have received @n frames. */
static void
wait_frames (Receiver * r, guint64 n, const gchar * what)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (frames_received (r) < n && g_get_monotonic_time () < end)
    g_usleep (10000);
  fail_unless (frames_received (r) >= n, "%s: %" G_GUINT64_FORMAT " frames "
      "(%" G_GUINT64_FORMAT " datagrams invalid)", what, frames_received (r),
      test_stat_u64 (r->src, "stats", "packets-invalid"));
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

/* The attacker's control connection: a HELLO without a passphrase (with
 * @flags), then the CONFIG (after keep-alives, maybe) in @config. */
static gint
attacker_hello_flags (guint port, GstTileWireConfig * config, guint32 flags)
{
  GstTileWireHello hello = { 0 };
  GByteArray *m = g_byte_array_new ();
  guint8 *buf = g_malloc (GST_TILE_WIRE_MAX_PAYLOAD);
  GstTileWireHeader h;
  gint fd = connect_from (ATTACKER_HOST, port);

  hello.flags = flags;
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

static gint
attacker_hello (guint port, GstTileWireConfig * config)
{
  return attacker_hello_flags (port, config, 0);
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

/* A unit socket's handshake from @fd (UDP, on the attacker's host): a
 * UNIT_HELLO for @unit to the control port, its cookie back, the
 * UNIT_HELLO again with it. Returns the type of the last answer:
 * UNIT_HELLO (accepted), REFUSE, or 0 (none within 2 s). */
static guint
unit_handshake (gint fd, guint port, const GstTileWireConfig * config,
    guint unit)
{
  GstTileWireUnitHello uh = { 0 }, answer;
  GByteArray *m = g_byte_array_new ();
  struct sockaddr_in dst;
  GstTileWireHeader h;
  guint8 buf[1024];
  guint step, type = 0;
  gssize n;

  sockaddr_of (&dst, ATTACKER_HOST, port);
  uh.token = config->token;
  uh.generation = config->generation;
  uh.unit = unit;
  for (step = 0; step < 2; step++) {
    fail_unless (gst_tile_wire_unit_hello_pack (&uh, m, NULL));
    fail_unless (sendto (fd, m->data, m->len, 0, (struct sockaddr *) &dst,
            sizeof (dst)) == (gssize) m->len);
    g_byte_array_set_size (m, 0);
    type = 0;
    if (!gst_tile_net_wait (fd, FALSE, 2000, NULL))
      break;
    n = recv (fd, buf, sizeof (buf), 0);
    fail_unless (n >= GST_TILE_WIRE_HEADER_SIZE);
    fail_unless_equals_int (gst_tile_wire_header_parse (buf, n, &h, NULL),
        GST_TILE_WIRE_PARSE_OK);
    type = h.type;
    if (type != GST_TILE_WIRE_TYPE_UNIT_HELLO)
      break;
    /* the challenge: its cookie goes back */
    fail_unless (gst_tile_wire_unit_hello_parse (buf +
            GST_TILE_WIRE_HEADER_SIZE, h.payload_len, &answer, NULL));
    memcpy (uh.cookie, answer.cookie, sizeof (uh.cookie));
  }
  g_byte_array_unref (m);
  return type;
}

/* Redundant paths (HELLO bit 3): a receiver may introduce a unit from
 * more addresses of its hosts, each validated with its cookie, up to
 * seven more than the first; the ninth socket is refused, and without the
 * bit already the second */
GST_START_TEST (test_redundant_copies_limit)
{
  guint redundant;

  for (redundant = 0; redundant < 2; redundant++) {
    GstTileWireConfig *config = g_new0 (GstTileWireConfig, 1);
    struct sockaddr_in sa;
    gint ctl, fds[10];
    Sender s;
    guint i;

    sender_start (&s, "protocol=udp units=1");
    ctl = attacker_hello_flags (s.port, config,
        redundant ? GST_TILE_WIRE_HELLO_FLAG_REDUNDANT : 0);
    for (i = 0; i < G_N_ELEMENTS (fds); i++) {
      guint want = i == 0 || (redundant && i < 8) ?
          GST_TILE_WIRE_TYPE_UNIT_HELLO : GST_TILE_WIRE_TYPE_REFUSE;

      fds[i] = udp_on (ATTACKER_HOST, &sa);
      fail_unless_equals_int (unit_handshake (fds[i], s.port, config, 0),
          want);
    }
    for (i = 0; i < G_N_ELEMENTS (fds); i++)
      close (fds[i]);
    close (ctl);
    sender_stop (&s);
    g_free (config);
  }
}

GST_END_TEST;

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
  fail_unless (test_stat_u64 (s.sink, "stats", "hellos-unvalidated") > 0);
  fail_unless (test_stat_u64 (s.sink, "stats", "hellos-challenged") > 0);
  fail_unless_equals_uint64 (test_stat_u64 (s.sink, "stats",
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

  sender_start (&s, props);
  receiver_start (&a, s.port, "");
  /* the first receiver is served */
  wait_frames (&a, 10, "the receiver");

  f.port = s.port;
  t = g_thread_new ("flood", flood_thread, &f);
  g_usleep (300 * 1000);
  receiver_start (&b, s.port, "");
  wait_frames (&b, 10, "the receiver that joined during the flood");

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
/* a man in the middle, with a passphrase                                  */

typedef enum
{
  MITM_NONE,                    /* relays everything unchanged */
  MITM_EDIT_CONFIG,             /* flips a bit of the sealed CONFIG */
  MITM_INJECT_EOS,              /* injects an EOS once frames flow */
  MITM_REPLAY,                  /* replays a record of the receiver's */
  MITM_CLAIM,                   /* claims the units with their token */
} MitmMode;

typedef struct
{
  gint listen_fd;
  guint port, target;
  MitmMode mode;
  gint stop;
  GThread *thread;
  GPtrArray *relays;            /* of GThread */
  gint n_connections;
  /* the control connection: records relayed each way */
  gint s2c_records, c2s_records;
  gint attacked;
  gint claims_refused;
} Mitm;

typedef struct
{
  Mitm *m;
  gint a, b;                    /* the receiver's and the sender's side */
  gboolean control;
} Relay;

/* Relays one complete message (or a raw chunk on a data connection) from
 * @in to @out; FALSE at the end of either. The control connection is
 * relayed a message at a time, and attacked. */
static gboolean
relay_message (Relay * r, gint in, gint out, gboolean s2c)
{
  Mitm *m = r->m;
  guint8 *buf = g_malloc (GST_TILE_WIRE_HEADER_SIZE +
      GST_TILE_WIRE_MAX_PAYLOAD);
  GstTileWireHeader h;
  gsize len;
  gboolean ok = FALSE;

  if (!r->control) {
    gssize n = recv (in, buf, 65536, 0);

    ok = n > 0 && send (out, buf, n, MSG_NOSIGNAL) == n;
    g_free (buf);
    return ok;
  }
  if (test_read_some (in, buf, GST_TILE_WIRE_HEADER_SIZE, 10000) !=
      GST_TILE_WIRE_HEADER_SIZE ||
      gst_tile_wire_header_parse (buf, GST_TILE_WIRE_HEADER_SIZE, &h, NULL)
      != GST_TILE_WIRE_PARSE_OK)
    goto out;
  len = GST_TILE_WIRE_HEADER_SIZE + h.payload_len;
  if (test_read_some (in, buf + GST_TILE_WIRE_HEADER_SIZE, h.payload_len,
          10000) != (gssize) h.payload_len)
    goto out;
  if (h.type == GST_TILE_WIRE_TYPE_SEALED) {
    gint n = g_atomic_int_add (s2c ? &m->s2c_records : &m->c2s_records, 1);

    if (s2c && n == 0 && m->mode == MITM_EDIT_CONFIG) {
      /* the first sealed record from the sender is its CONFIG: a byte of
       * the caps, say, another framerate */
      buf[len - GST_TILE_SEAL_TAG_SIZE - 3] ^= 0x01;
      g_atomic_int_set (&m->attacked, 1);
    }
    if (!s2c && n == 3 && m->mode == MITM_REPLAY) {
      /* the receiver's fourth record (its window, statistics or a
       * keep-alive), sent twice */
      if (send (out, buf, len, MSG_NOSIGNAL) != (gssize) len)
        goto out;
      g_atomic_int_set (&m->attacked, 1);
    }
    if (s2c && n == 1 && m->mode == MITM_INJECT_EOS) {
      GByteArray *eos = g_byte_array_new ();

      /* after the CONFIG (frames flow), an EOS of our own before the
       * sender's first keep-alive */
      gst_tile_wire_eos_pack (eos);
      /* (set before the send: the receiver's error may reach the test
       * before this thread runs again) */
      g_atomic_int_set (&m->attacked, 1);
      ok = send (out, eos->data, eos->len, MSG_NOSIGNAL) == (gssize) eos->len;
      g_byte_array_unref (eos);
      if (!ok)
        goto out;
    }
  }
  ok = send (out, buf, len, MSG_NOSIGNAL) == (gssize) len;
out:
  g_free (buf);
  return ok;
}

static gpointer
relay_thread (gpointer data)
{
  Relay *r = data;

  while (!g_atomic_int_get (&r->m->stop)) {
    struct pollfd p[2] = { {r->a, POLLIN, 0}, {r->b, POLLIN, 0} };

    if (poll (p, 2, 100) <= 0)
      continue;
    if ((p[0].revents & (POLLIN | POLLHUP | POLLERR)) &&
        !relay_message (r, r->a, r->b, FALSE))
      break;
    if ((p[1].revents & (POLLIN | POLLHUP | POLLERR)) &&
        !relay_message (r, r->b, r->a, TRUE))
      break;
  }
  shutdown (r->a, SHUT_RDWR);
  shutdown (r->b, SHUT_RDWR);
  close (r->a);
  close (r->b);
  g_free (r);
  return NULL;
}

/* A data connection's UNIT_HELLO went by: the man in the middle tries to
 * claim that unit first, with the token, generation and unit it saw and a
 * MAC of its own making (it has no key), from the receiver's host; then
 * the receiver's own UNIT_HELLO goes on. */
static void
mitm_claim (Mitm * m, Relay * r)
{
  guint8 buf[GST_TILE_WIRE_HEADER_SIZE + 64];
  GstTileWireUnitHello uh;
  GstTileWireHeader h;
  GByteArray *msg = g_byte_array_new ();
  gssize n = GST_TILE_WIRE_HEADER_SIZE + 50;
  gint fd;

  fail_unless_equals_int (test_read_some (r->a, buf, n, 5000), n);
  fail_unless_equals_int (gst_tile_wire_header_parse (buf, n, &h, NULL),
      GST_TILE_WIRE_PARSE_OK);
  fail_unless (gst_tile_wire_unit_hello_parse (buf +
          GST_TILE_WIRE_HEADER_SIZE, h.payload_len, &uh, NULL));
  memset (uh.mac, 0x5a, sizeof (uh.mac));
  gst_tile_wire_unit_hello_pack (&uh, msg, NULL);
  fd = connect_from (ATTACKER_HOST, m->target);
  fail_unless (send (fd, msg->data, msg->len, MSG_NOSIGNAL) ==
      (gssize) msg->len);
  g_atomic_int_set (&m->attacked, 1);
  {
    guint8 ans[2048];
    gssize got = test_read_some (fd, ans, sizeof (ans), 5000);
    GstTileWireHeader ah;

    if (got >= GST_TILE_WIRE_HEADER_SIZE &&
        gst_tile_wire_header_parse (ans, got, &ah, NULL) ==
        GST_TILE_WIRE_PARSE_OK && ah.type == GST_TILE_WIRE_TYPE_REFUSE)
      g_atomic_int_inc (&m->claims_refused);
  }
  close (fd);
  fail_unless (send (r->b, buf, n, MSG_NOSIGNAL) == n);
  g_byte_array_unref (msg);
}

static gpointer
mitm_thread (gpointer data)
{
  Mitm *m = data;

  while (!g_atomic_int_get (&m->stop)) {
    struct pollfd p = { m->listen_fd, POLLIN, 0 };
    Relay *r;
    gint fd;

    if (poll (&p, 1, 100) <= 0)
      continue;
    fd = accept (m->listen_fd, NULL, NULL);
    if (fd < 0)
      continue;
    r = g_new0 (Relay, 1);
    r->m = m;
    r->a = fd;
    r->b = connect_from (ATTACKER_HOST, m->target);
    /* the receiver's first connection is its control connection */
    r->control = g_atomic_int_add (&m->n_connections, 1) == 0;
    if (!r->control && m->mode == MITM_CLAIM)
      mitm_claim (m, r);
    g_ptr_array_add (m->relays, g_thread_new ("relay", relay_thread, r));
  }
  return NULL;
}

static void
mitm_start (Mitm * m, guint target, MitmMode mode)
{
  struct sockaddr_in sa;
  socklen_t sl = sizeof (sa);

  memset (m, 0, sizeof (*m));
  m->target = target;
  m->mode = mode;
  m->relays = g_ptr_array_new ();
  m->listen_fd = socket (AF_INET, SOCK_STREAM, 0);
  sockaddr_of (&sa, ATTACKER_HOST, 0);
  fail_unless (bind (m->listen_fd, (struct sockaddr *) &sa, sizeof (sa)) == 0);
  fail_unless (listen (m->listen_fd, 16) == 0);
  fail_unless (getsockname (m->listen_fd, (struct sockaddr *) &sa, &sl) == 0);
  m->port = ntohs (sa.sin_port);
  m->thread = g_thread_new ("mitm", mitm_thread, m);
}

static void
mitm_stop (Mitm * m)
{
  guint i;

  g_atomic_int_set (&m->stop, 1);
  g_thread_join (m->thread);
  for (i = 0; i < m->relays->len; i++)
    g_thread_join (g_ptr_array_index (m->relays, i));
  g_ptr_array_unref (m->relays);
  close (m->listen_fd);
}

static void
on_removed (GstElement * sink, guint id, const gchar * address,
    const gchar * reason, gchar ** out)
{
  if (!*out)
    *out = g_strdup (reason);
}

/* tilesink and tilesrc with a passphrase, through a man in the middle who
 * relays the handshake unchanged and then attacks the control connection
 * (@mode): the attack ends the session with a clear error on the side
 * that receives the attacked message, and nothing of it is used. */
static void
check_mitm (MitmMode mode)
{
  Sender s;
  Receiver r;
  Mitm m;
  gchar *removed = NULL;
  GstBus *bus;
  GstMessage *msg;
  gint64 end;

  sender_start (&s, "passphrase=correct-horse units=2");
  g_signal_connect (s.sink, "receiver-removed", G_CALLBACK (on_removed),
      &removed);
  mitm_start (&m, s.port, mode);
  receiver_start (&r, m.port, "passphrase=correct-horse");
  bus = gst_element_get_bus (r.pipeline);
  switch (mode) {
    case MITM_CLAIM:
      /* every claim refused, and the receiver's own units get the
       * frames */
      wait_frames (&r, 30, "after the claims");
      fail_unless (g_atomic_int_get (&m.attacked));
      fail_unless_equals_int (g_atomic_int_get (&m.claims_refused), 2);
      break;
    case MITM_NONE:
      /* the proxy itself is harmless: frames flow through it */
      wait_frames (&r, 30, "through the relay");
      break;
    case MITM_EDIT_CONFIG:
    case MITM_INJECT_EOS:
      /* an error first (an EOS may follow it, as after any error of a
       * source), not an EOS */
      msg = gst_bus_timed_pop_filtered (bus, PULL_TIMEOUT,
          GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
      fail_unless (msg != NULL, "no error");
      fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
      {
        GError *err = NULL;
        gchar *dbg = NULL;

        gst_message_parse_error (msg, &err, &dbg);
        fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
                GST_RESOURCE_ERROR_NOT_AUTHORIZED), "%s", err->message);
        fail_unless (strstr (dbg, mode == MITM_EDIT_CONFIG ?
                "failed its authentication" : "EOS message in the clear") !=
            NULL, "%s", dbg);
        g_error_free (err);
        g_free (dbg);
      }
      gst_message_unref (msg);
      fail_unless (g_atomic_int_get (&m.attacked));
      /* the changed CONFIG gave no caps and no frame */
      if (mode == MITM_EDIT_CONFIG)
        fail_unless_equals_uint64 (frames_received (&r), 0);
      /* (the error was expected: off the bus before stop () checks it) */
      while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR |
                  GST_MESSAGE_WARNING)))
        gst_message_unref (msg);
      break;
    case MITM_REPLAY:
      /* the sender ends the session of a receiver whose records do not
       * open */
      end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
      while (!g_atomic_pointer_get (&removed) &&
          g_get_monotonic_time () < end)
        g_usleep (10000);
      fail_unless (g_atomic_int_get (&m.attacked));
      fail_unless (removed != NULL, "the session went on");
      fail_unless (strstr (removed, "failed its authentication") != NULL,
          "%s", removed);
      while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR |
                  GST_MESSAGE_WARNING)))
        gst_message_unref (msg);
      break;
  }
  gst_object_unref (bus);
  receiver_stop (&r);
  mitm_stop (&m);
  sender_stop (&s);
  g_free (removed);
}

GST_START_TEST (test_mitm_relay)
{
  check_mitm (MITM_NONE);
}

GST_END_TEST;

GST_START_TEST (test_mitm_edit_config)
{
  check_mitm (MITM_EDIT_CONFIG);
}

GST_END_TEST;

GST_START_TEST (test_mitm_inject_eos)
{
  check_mitm (MITM_INJECT_EOS);
}

GST_END_TEST;

GST_START_TEST (test_mitm_replay)
{
  check_mitm (MITM_REPLAY);
}

GST_END_TEST;

/* (someone who saw the token: in the clear in every UNIT_HELLO and UDP
 * datagram header) */
GST_START_TEST (test_mitm_claim_units)
{
  check_mitm (MITM_CLAIM);
}

GST_END_TEST;

/* A fake sender who wants the receivers' passphrase: it answers their
 * HELLO with a CHALLENGE whose CPace share comes from a guess, and records
 * the receiver's AUTH (its share and its proof). Offline it then tries a
 * dictionary that holds the right passphrase: with the guess's own scalar
 * it recomputes the receiver's proof for every candidate. None matches,
 * not even the right one: a recording tests no guess but the one the fake
 * sender committed to online (and the receiver reports the failed
 * handshake). With the PBKDF2 proofs before, the same recording (and a
 * salt of the fake sender's choosing, the same for every receiver) was a
 * test per guess. */
GST_START_TEST (test_fake_sender_offline_guess)
{
  static const gchar *const dictionary[] = {
    "123456", "password", "correct-horse", "letmein", "tilesink"
  };
  static const guint8 scalar[GST_TILE_PAKE_SCALAR_SIZE] = { 0x42, 0x17 };
  GstTileWireChallenge ch;
  GstTileWireHello hello;
  GstTileWireAuth auth;
  GstTileWireHeader h;
  GstTilePake pake;
  GByteArray *m = g_byte_array_new ();
  GError *err = NULL;
  Receiver r;
  GstBus *bus;
  GstMessage *msg;
  guint8 sid[32];
  guint port, i, matches = 0;
  gint listen_fd, fd;

  listen_fd = gst_tile_net_listen (ATTACKER_HOST, 0, &port, &err);
  fail_unless (listen_fd >= 0);
  receiver_start (&r, port, "passphrase=correct-horse");
  fail_unless (gst_tile_net_wait (listen_fd, FALSE, 5000, NULL));
  fd = gst_tile_net_accept (listen_fd, NULL);
  fail_unless (gst_tile_net_read_message (fd, 5000, &h, m, NULL));
  fail_unless (gst_tile_wire_hello_parse (m->data, m->len, &hello, NULL));
  /* the same nonce for everyone, and a share from a guess */
  memset (ch.nonce, 0x5a, sizeof (ch.nonce));
  memcpy (sid, hello.nonce, 16);
  memcpy (sid + 16, ch.nonce, 16);
  fail_unless (gst_tile_pake_start (&pake, (const guint8 *) "password", 8,
          (const guint8 *) GST_TILE_KEYS_CPACE_CI,
          strlen (GST_TILE_KEYS_CPACE_CI), sid, sizeof (sid), scalar));
  memcpy (ch.share, gst_tile_pake_share (&pake), sizeof (ch.share));
  gst_tile_pake_clear (&pake);
  g_byte_array_set_size (m, 0);
  gst_tile_wire_challenge_pack (&ch, m);
  fail_unless (gst_tile_net_send_packed (fd, m, NULL));
  fail_unless (gst_tile_net_read_message (fd, 5000, &h, m, NULL));
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_AUTH);
  fail_unless (gst_tile_wire_auth_parse (m->data, m->len, &auth, NULL));
  close (fd);

  /* offline */
  for (i = 0; i < G_N_ELEMENTS (dictionary); i++) {
    guint8 isk[GST_TILE_PAKE_ISK_SIZE], th[32];
    GstTileKeys keys;

    fail_unless (gst_tile_pake_start (&pake, (const guint8 *) dictionary[i],
            strlen (dictionary[i]), (const guint8 *) GST_TILE_KEYS_CPACE_CI,
            strlen (GST_TILE_KEYS_CPACE_CI), sid, sizeof (sid), scalar));
    fail_unless (gst_tile_pake_finish (&pake, TRUE, NULL, 0, auth.share, NULL,
            0, sid, sizeof (sid), isk));
    gst_tile_keys_transcript (&hello, &ch, auth.share, th);
    gst_tile_keys_derive (isk, sizeof (isk), th, &keys);
    if (memcmp (keys.client_proof, auth.proof, 32) == 0)
      matches++;
  }
  fail_unless_equals_int (matches, 0);

  /* the receiver: no session, a clear error */
  bus = gst_element_get_bus (r.pipeline);
  msg = check_error_message (bus, 0, 0, NULL);
  gst_message_unref (msg);
  /* (basesrc follows the element's error with its own "Internal data
   * stream error" once the flow error reaches its loop: stopped first, so
   * that the drain below sees it too and the stop's check finds none) */
  fail_unless_equals_int (gst_element_set_state (r.pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR |
              GST_MESSAGE_WARNING)))
    gst_message_unref (msg);
  gst_object_unref (bus);
  receiver_stop (&r);
  close (listen_fd);
  g_byte_array_unref (m);
}

GST_END_TEST;

/* One online guess of the passphrase, as a receiver would make it: the
 * REFUSE code tilesink answers with (unauthorized for a wrong one, busy
 * when it throttles guessing), or G_MAXUINT32 when it accepted. */
static guint32
guess_online (guint port, const gchar * guess)
{
  GstTileWireHello hello = { GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE };
  GstTileWireChallenge ch;
  GstTileWireAuth auth;
  GstTileWireHeader h;
  GstTileWireRefuse *refuse = g_new0 (GstTileWireRefuse, 1);
  GstTileKeys keys;
  GstTilePake pake;
  GByteArray *m = g_byte_array_new ();
  guint8 sid[32], isk[GST_TILE_PAKE_ISK_SIZE], th[32];
  guint32 code = G_MAXUINT32;
  gint fd = connect_from (ATTACKER_HOST, port);

  fail_unless (gst_tile_seal_random (hello.nonce, sizeof (hello.nonce)));
  gst_tile_wire_hello_pack (&hello, m, NULL);
  send_message (fd, m);
  fail_unless (gst_tile_net_read_message (fd, 5000, &h, m, NULL));
  if (h.type == GST_TILE_WIRE_TYPE_REFUSE)
    goto refused;
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_CHALLENGE);
  fail_unless (gst_tile_wire_challenge_parse (m->data, m->len, &ch, NULL));
  memcpy (sid, hello.nonce, 16);
  memcpy (sid + 16, ch.nonce, 16);
  fail_unless (gst_tile_pake_start (&pake, (const guint8 *) guess,
          strlen (guess), (const guint8 *) GST_TILE_KEYS_CPACE_CI,
          strlen (GST_TILE_KEYS_CPACE_CI), sid, sizeof (sid), NULL));
  memcpy (auth.share, gst_tile_pake_share (&pake), sizeof (auth.share));
  fail_unless (gst_tile_pake_finish (&pake, FALSE, NULL, 0, ch.share, NULL, 0,
          sid, sizeof (sid), isk));
  gst_tile_keys_transcript (&hello, &ch, auth.share, th);
  gst_tile_keys_derive (isk, sizeof (isk), th, &keys);
  memcpy (auth.proof, keys.client_proof, sizeof (auth.proof));
  g_byte_array_set_size (m, 0);
  gst_tile_wire_auth_pack (&auth, m);
  send_message (fd, m);
  fail_unless (gst_tile_net_read_message (fd, 5000, &h, m, NULL));
  if (h.type != GST_TILE_WIRE_TYPE_REFUSE)
    goto out;
refused:
  fail_unless (gst_tile_wire_refuse_parse (m->data, m->len, refuse, NULL));
  code = refuse->code;
out:
  close (fd);
  g_free (refuse);
  g_byte_array_unref (m);
  return code;
}

/* Online guessing: every wrong passphrase is refused, and after 5 within
 * a second tilesink answers no more passphrase handshakes for the rest of
 * that second (busy); then the right passphrase gets in. */
GST_START_TEST (test_online_guess_throttled)
{
  Sender s;
  Receiver r;
  guint i, unauthorized = 0, busy = 0;

  sender_start (&s, "passphrase=correct-horse");
  for (i = 0; i < 8; i++) {
    gchar *guess = g_strdup_printf ("guess-%u", i);
    guint32 code = guess_online (s.port, guess);

    g_free (guess);
    if (code == GST_TILE_WIRE_REFUSE_UNAUTHORIZED)
      unauthorized++;
    else if (code == GST_TILE_WIRE_REFUSE_BUSY)
      busy++;
    else
      fail ("guess %u: code %u", i, code);
  }
  GST_INFO ("%u refused as wrong, %u throttled", unauthorized, busy);
  /* (the 8 guesses may span two seconds of the limit) */
  fail_unless (unauthorized >= 5 && unauthorized <= 10 && busy >= 1,
      "%u wrong, %u throttled", unauthorized, busy);
  fail_unless (test_tile_stat_uint (s.sink, "auth-throttled") >= 1);
  g_usleep (1100 * 1000);
  receiver_start (&r, s.port, "passphrase=correct-horse");
  wait_frames (&r, 5, "the right passphrase after the throttle");
  receiver_stop (&r);
  sender_stop (&s);
}

GST_END_TEST;

/* An empty passphrase is refused on both ends, not taken for none. */
GST_START_TEST (test_empty_passphrase)
{
  GstElement *p;
  GstBus *bus;
  GstMessage *msg;

  p = launch ("videotestsrc ! tilesink passphrase=\"\" port=0");
  fail_unless_equals_int (gst_element_set_state (p, GST_STATE_PLAYING),
      GST_STATE_CHANGE_FAILURE);
  bus = gst_element_get_bus (p);
  msg = check_error_message (bus, 0, 0, NULL);
  {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    fail_unless (strstr (err->message, "empty passphrase") != NULL, "%s",
        err->message);
    g_error_free (err);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);

  p = launch ("tilesrc passphrase=\"\" port=9 ! fakesink");
  play (p);
  bus = gst_element_get_bus (p);
  msg = check_error_message (bus, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_NOT_AUTHORIZED, "empty passphrase", NULL);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* multicast                                                               */

/* A receiver on the sender's own host, tilesink with default properties
 * (no address: the group's datagrams leave from whichever address the
 * route picks, not 127.0.0.1 where the receiver connected): it gets the
 * frames, none of the datagrams counted invalid. (packet-size 1200: the
 * datagrams go out on the route's interface, whose MTU may be below the
 * default's datagrams.) */
GST_START_TEST (test_multicast_own_host)
{
  Sender s;
  Receiver r;

  if (!test_have_multicast_route ("test_multicast_own_host"))
    return;
  sender_start_on (&s, NULL, "protocol=udp packet-size=1200 "
      "multicast-group=239.255.77.2");
  receiver_start (&r, s.port, "");
  wait_frames (&r, 10, "a receiver on the sender's host");
  fail_unless_equals_uint64 (test_stat_u64 (r.src, "stats",
          "packets-invalid"), 0);
  receiver_stop (&r);
  sender_stop (&s);
}

GST_END_TEST;

/* Multicast with a passphrase: every member gets the group's secret in
 * its sealed CONFIG, the group's datagrams are sealed with keys from it
 * (none counted tampered or invalid); a receiver without the passphrase
 * gets no session. */
GST_START_TEST (test_multicast_passphrase)
{
  Sender s;
  Receiver a, b;
  GstBus *bus;
  GstMessage *msg;
  gboolean sealed = FALSE;

  if (!test_have_multicast_route ("test_multicast_passphrase"))
    return;
  sender_start_on (&s, NULL, "protocol=udp packet-size=1200 "
      "multicast-group=239.255.77.3 passphrase=correct-horse");
  receiver_start (&a, s.port, "passphrase=correct-horse");
  wait_frames (&a, 10, "a member with the passphrase");
  test_get_stat (a.src, "stats", "sealed", G_TYPE_BOOLEAN, &sealed);
  fail_unless (sealed);
  fail_unless_equals_uint64 (test_stat_u64 (a.src, "stats",
          "packets-tampered"), 0);
  fail_unless_equals_uint64 (test_stat_u64 (a.src, "stats",
          "packets-invalid"), 0);

  receiver_start (&b, s.port, "");
  bus = gst_element_get_bus (b.pipeline);
  msg = check_error_message (bus, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_NOT_AUTHORIZED, NULL);
  gst_message_unref (msg);
  /* (basesrc follows the element's error with its own "Internal data
   * stream error" once the flow error reaches its loop: stopped first, so
   * that the drain below sees it too and the stop's check finds none) */
  fail_unless_equals_int (gst_element_set_state (b.pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR |
              GST_MESSAGE_WARNING)))
    gst_message_unref (msg);
  gst_object_unref (bus);
  receiver_stop (&b);
  receiver_stop (&a);
  sender_stop (&s);
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
    tcase_add_test (tc, test_redundant_copies_limit);
    tcase_add_test (tc, test_control_flood_tcp);
    tcase_add_test (tc, test_control_flood_udp);
    tcase_add_test (tc, test_connect_flood);
    tcase_add_test (tc, test_multicast_own_host);
    tcase_add_test (tc, test_multicast_passphrase);
    tcase_add_test (tc, test_mitm_relay);
    tcase_add_test (tc, test_mitm_edit_config);
    tcase_add_test (tc, test_mitm_inject_eos);
    tcase_add_test (tc, test_mitm_replay);
    tcase_add_test (tc, test_mitm_claim_units);
    tcase_add_test (tc, test_fake_sender_offline_guess);
    tcase_add_test (tc, test_online_guess_throttled);
    tcase_add_test (tc, test_empty_passphrase);
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
