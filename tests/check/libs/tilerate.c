/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GstTileRateControl against a simulated path: a sender that paces each
 * frame's datagrams at the control's rate into a bottleneck (a FIFO that
 * drains at the link rate and drops what does not fit in its queue, as
 * tbf does), the receiver's feedback computed from the datagrams that
 * came out of it. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/tile/tilerate.h>

#include "gstbctest.h"

#define PKT 1440                /* a datagram on the wire, bytes */
#define HOST_RATE G_GUINT64_CONSTANT (20000000000)      /* unpaced */
#define ACK_DELAY_NS (200 * GST_USECOND)
#define MAX_ACKS 8

typedef struct
{
  /* the path */
  guint64 link_rate;            /* bit/s */
  guint64 queue_bytes;          /* what the bottleneck holds */
  gdouble random_loss;          /* share dropped before the bottleneck */
  gint64 link_free_ns;          /* when the bottleneck sent its last bit */
  GRand *rand;
  /* the stream */
  guint64 frame_bytes;
  gint64 interval_ns;
  gint64 sender_free_ns;
  guint64 next_frame;
  /* ACKs on their way */
  GstTileRateSample acks[MAX_ACKS];
  gint64 ack_at[MAX_ACKS];
  guint n_acks;
  /* a loss-based TCP flow on the same bottleneck, as a fluid (see
   * sim_tcp_until ()), when tcp_cwnd > 0 */
  gdouble tcp_cwnd;             /* bytes */
  gint64 tcp_t;                 /* simulated up to */
  gint64 tcp_recover_ns;        /* one decrease per round trip */
  guint64 tcp_bytes;            /* through the bottleneck */
  guint64 own_bytes;            /* the stream's, through the bottleneck */
  /* results */
  guint frames_sent;
  guint frames_partial;
  guint frames_dropped;
  GstTileRateControl rc;
} Sim;

static void
sim_init (Sim * sim, guint64 link_rate, gdouble random_loss)
{
  memset (sim, 0, sizeof (*sim));
  sim->link_rate = link_rate;
  /* tbf rate R burst 256kb latency 20ms */
  sim->queue_bytes = link_rate / 8 / 50 + 32 * 1024;
  sim->random_loss = random_loss;
  sim->rand = g_rand_new_with_seed (7);
  /* 1920x540 GRAY8 at 60 fps, as in the netns test */
  sim->frame_bytes = 1920 * 540;
  sim->interval_ns = GST_SECOND / 60;
  gst_tile_rate_control_init (&sim->rc, 0);
}

#define TCP_MSS 1448
#define TCP_STEP_NS (50 * GST_USECOND)
#define TCP_BASE_RTT_NS (GST_MSECOND)

/* The TCP flow up to @until: every TCP_STEP_NS it puts cwnd / RTT worth of
 * bytes into the bottleneck (RTT: the base round trip and the queue ahead),
 * grows by one segment a round trip (Reno; CUBIC's TCP-friendly region on
 * short round trips), and when the queue has no room for them loses the
 * excess and backs off to 0.7 x (CUBIC's beta), once a round trip. */
static void
sim_tcp_until (Sim * sim, gint64 until)
{
  if (sim->tcp_cwnd <= 0)
    return;
  if (sim->tcp_t == 0)
    sim->tcp_t = until;
  while (sim->tcp_t + TCP_STEP_NS <= until) {
    gint64 t = sim->tcp_t;
    gint64 ahead = MAX (sim->link_free_ns - t, 0);
    gint64 rtt = TCP_BASE_RTT_NS + ahead;
    gdouble backlog = (gdouble) ahead * sim->link_rate / 8 / GST_SECOND;
    gdouble room = MAX ((gdouble) sim->queue_bytes - backlog, 0);
    gdouble bytes = sim->tcp_cwnd * TCP_STEP_NS / rtt;

    if (bytes > room) {
      bytes = room;
      if (t >= sim->tcp_recover_ns) {
        sim->tcp_cwnd = MAX (sim->tcp_cwnd * 0.7, 2 * TCP_MSS);
        sim->tcp_recover_ns = t + rtt;
      }
    } else {
      sim->tcp_cwnd += (gdouble) TCP_MSS * TCP_STEP_NS / rtt;
    }
    sim->link_free_ns = MAX (sim->link_free_ns, t) +
        (gint64) (bytes * 8 * GST_SECOND / sim->link_rate);
    sim->tcp_bytes += (guint64) bytes;
    sim->tcp_t += TCP_STEP_NS;
  }
}

/* The ACKs that arrived by @now go into the control. */
static void
sim_deliver_acks (Sim * sim, gint64 now)
{
  guint i = 0;

  while (i < sim->n_acks) {
    if (sim->ack_at[i] > now) {
      i++;
      continue;
    }
    gst_tile_rate_control_update (&sim->rc, &sim->acks[i], sim->next_frame,
        sim->ack_at[i]);
    sim->n_acks--;
    sim->acks[i] = sim->acks[sim->n_acks];
    sim->ack_at[i] = sim->ack_at[sim->n_acks];
  }
}

/* One frame of the stream at time @t: sent when the previous one has left
 * the sender (else dropped, as tilesink does with max-in-flight=1). */
static void
sim_frame (Sim * sim, gint64 t)
{
  guint64 rate = gst_tile_rate_control_get_rate (&sim->rc);
  guint n = (sim->frame_bytes + PKT - 1) / PKT, i, got = 0;
  gint64 gap, sent = t, first = -1, last = 0;
  GstTileRateSample *s;

  sim_deliver_acks (sim, t);
  if (sim->sender_free_ns > t) {
    sim->frames_dropped++;
    return;
  }
  gap = gst_util_uint64_scale (PKT * 8, GST_SECOND, rate ? rate : HOST_RATE);
  for (i = 0; i < n; i++) {
    gint64 start, backlog;

    sent = t + i * gap;
    sim_tcp_until (sim, sent);
    if (g_rand_double (sim->rand) < sim->random_loss)
      continue;
    /* bytes waiting in the bottleneck when this one arrives */
    backlog = sim->link_free_ns > sent ?
        (gint64) gst_util_uint64_scale (sim->link_free_ns - sent,
        sim->link_rate, 8 * GST_SECOND) : 0;
    if (backlog + PKT > (gint64) sim->queue_bytes)
      continue;
    start = MAX (sent, sim->link_free_ns);
    sim->link_free_ns = start + gst_util_uint64_scale (PKT * 8, GST_SECOND,
        sim->link_rate);
    if (first < 0)
      first = sim->link_free_ns;
    last = sim->link_free_ns;
    got++;
  }
  sim->own_bytes += (guint64) got *PKT;
  sim->sender_free_ns = sent + gap;
  sim->frames_sent++;
  if (got < n)
    sim->frames_partial++;
  fail_unless (sim->n_acks < MAX_ACKS);
  s = &sim->acks[sim->n_acks];
  memset (s, 0, sizeof (*s));
  s->frame = sim->next_frame++;
  s->bytes = (guint64) n *PKT;
  s->packets_sent = n;
  s->packets_received = got;
  s->packets_spanned = got ? got - 1 : 0;
  s->send_ns = sent - t;
  s->receive_ns = got ? last - first : 0;
  s->delay_ns = got ? first - t : 0;
  s->has_delay = got > 0;
  s->interval_ns = sim->interval_ns;
  sim->ack_at[sim->n_acks++] = (got ? last : sent) + ACK_DELAY_NS;
}

/* Runs @seconds of the stream from @start; returns the end time. */
static gint64
sim_run (Sim * sim, gint64 start, gdouble seconds)
{
  gint64 t = start, end = start + (gint64) (seconds * GST_SECOND);

  for (; t < end; t += sim->interval_ns) {
    sim_tcp_until (sim, t);
    sim_frame (sim, t);
  }
  sim_tcp_until (sim, t);
  return t;
}

static void
sim_clear (Sim * sim)
{
  g_rand_free (sim->rand);
}

/* The bottleneck: 498 Mbit/s offered into 300 Mbit/s. The rate
 * settles near the link's, without losses after the first frames. */
GST_START_TEST (test_bottleneck)
{
  Sim sim;
  guint64 rate;
  gint64 t;
  guint partial, sent;

  sim_init (&sim, 300000000, 0);
  t = sim_run (&sim, GST_SECOND, 2);
  /* unpaced at first: the first frame overflows the queue, then it is
   * paced near the link rate */
  fail_unless (sim.rc.congestion_events >= 1);
  partial = sim.frames_partial;
  sent = sim.frames_sent;
  GST_INFO ("after 2 s: %u of %u frames partial, rate %" G_GUINT64_FORMAT,
      partial, sent, gst_tile_rate_control_get_rate (&sim.rc));
  fail_unless (partial <= 5, "%u frames partial while converging", partial);

  t = sim_run (&sim, t, 10);
  rate = gst_tile_rate_control_get_rate (&sim.rc);
  GST_INFO ("after 12 s: %u of %u frames partial, %u dropped, rate %"
      G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " congestion events",
      sim.frames_partial, sim.frames_sent, sim.frames_dropped, rate,
      sim.rc.congestion_events);
  fail_unless (sim.frames_partial - partial == 0,
      "%u frames partial in steady state", sim.frames_partial - partial);
  fail_unless (rate >= 240000000 && rate <= 400000000,
      "rate %" G_GUINT64_FORMAT, rate);
  /* the link carries 300/498 of the stream, 36 frames/s; one frame in
   * flight at a time, a frame that takes longer than 1/60 s leaves every
   * other frame slot: 30 frames/s at most */
  fail_unless (sim.frames_sent - sent >= 10 * 28, "%u frames in 10 s",
      sim.frames_sent - sent);
  sim_clear (&sim);
}

GST_END_TEST;

/* The link gets faster mid-stream: the rate follows within 2 s. */
GST_START_TEST (test_step_up)
{
  Sim sim;
  gint64 t;
  guint64 rate;

  sim_init (&sim, 300000000, 0);
  t = sim_run (&sim, GST_SECOND, 5);
  sim.link_rate = 800000000;
  sim.queue_bytes = sim.link_rate / 8 / 50 + 32 * 1024;
  t = sim_run (&sim, t, 2);
  rate = gst_tile_rate_control_get_rate (&sim.rc);
  GST_INFO ("2 s after the step: rate %" G_GUINT64_FORMAT, rate);
  fail_unless (rate >= 600000000, "rate %" G_GUINT64_FORMAT " 2 s after the "
      "step to 800 Mbit/s", rate);
  /* and down again: within a few frames, with few losses */
  sim.link_rate = 300000000;
  sim.queue_bytes = sim.link_rate / 8 / 50 + 32 * 1024;
  sim.frames_partial = 0;
  sim_run (&sim, t, 2);
  rate = gst_tile_rate_control_get_rate (&sim.rc);
  fail_unless (rate <= 400000000, "rate %" G_GUINT64_FORMAT, rate);
  fail_unless (sim.frames_partial <= 5, "%u partial", sim.frames_partial);
  sim_clear (&sim);
}

GST_END_TEST;

/* A bottleneck with a short queue (tbf latency 2ms: 1.25 MB at 5 Gbit/s)
 * and 2160p BC1 frames (4.15 MB) offered at 200 fps: the queue overflows
 * before it delays much, so loss with a short queue counts as overuse. */
GST_START_TEST (test_short_queue)
{
  Sim sim;
  guint partial, sent;
  guint64 rate;

  sim_init (&sim, G_GUINT64_CONSTANT (5000000000), 0);
  sim.queue_bytes = sim.link_rate / 8 / 500 + 16 * 1024;
  sim.frame_bytes = 3840 * 2160 / 2;
  sim.interval_ns = GST_SECOND / 200;
  sim_run (&sim, GST_SECOND, 1);
  partial = sim.frames_partial;
  sent = sim.frames_sent;
  sim_run (&sim, 2 * GST_SECOND, 5);
  rate = gst_tile_rate_control_get_rate (&sim.rc);
  GST_INFO ("%u of %u frames partial after the first second, rate %"
      G_GUINT64_FORMAT, sim.frames_partial - partial, sim.frames_sent - sent,
      rate);
  fail_unless (sim.frames_partial - partial <= (sim.frames_sent - sent) / 20,
      "%u of %u frames partial", sim.frames_partial - partial,
      sim.frames_sent - sent);
  fail_unless (rate >= G_GUINT64_CONSTANT (4000000000), "rate %"
      G_GUINT64_FORMAT, rate);
  sim_clear (&sim);
}

GST_END_TEST;

/* Random loss of 2 % on a link faster than the sender is not congestion:
 * no pacing. And such a link without loss stays unpaced. */
GST_START_TEST (test_random_loss)
{
  Sim sim;

  sim_init (&sim, G_GUINT64_CONSTANT (40000000000), 0.02);
  sim_run (&sim, GST_SECOND, 5);
  fail_unless_equals_uint64 (gst_tile_rate_control_get_rate (&sim.rc), 0);
  fail_unless_equals_uint64 (sim.rc.congestion_events, 0);
  sim_clear (&sim);

  sim_init (&sim, G_GUINT64_CONSTANT (40000000000), 0);
  sim_run (&sim, GST_SECOND, 5);
  fail_unless_equals_uint64 (gst_tile_rate_control_get_rate (&sim.rc), 0);
  fail_unless_equals_int (sim.frames_partial, 0);
  sim_clear (&sim);
}

GST_END_TEST;

/* Beside a loss-based TCP flow on a 300 Mbit/s bottleneck with a 20 ms
 * queue (the tbf and iperf3): a stream that needs 111 Mbit/s
 * (1280x360 GRAY8 at 30 fps, 37 % of the link) keeps its frames whole and
 * leaves the rest to TCP; one that offers more than the link (1920x540 at
 * 60 fps) gets at least 0.35 of it and leaves TCP at least 0.35. */
GST_START_TEST (test_tcp_share)
{
  struct
  {
    guint64 frame_bytes;
    gint64 interval_ns;
  } streams[] = {
    {1280 * 360, GST_SECOND / 30},
    {1920 * 540, GST_SECOND / 60},
  };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (streams); k++) {
    Sim sim;
    gint64 t;
    guint sent0, dropped0, partial0;
    guint64 own0, tcp0;
    gdouble own, tcp, secs = 15;

    sim_init (&sim, 300000000, 0);
    sim.frame_bytes = streams[k].frame_bytes;
    sim.interval_ns = streams[k].interval_ns;
    /* TCP alone for a second, then the stream */
    sim.tcp_cwnd = 10 * TCP_MSS;
    sim_tcp_until (&sim, GST_SECOND);
    sim_tcp_until (&sim, 2 * GST_SECOND);
    t = sim_run (&sim, 2 * GST_SECOND, 3);
    sent0 = sim.frames_sent;
    dropped0 = sim.frames_dropped;
    partial0 = sim.frames_partial;
    own0 = sim.own_bytes;
    tcp0 = sim.tcp_bytes;
    sim_run (&sim, t, secs);
    own = (sim.own_bytes - own0) * 8 / secs / sim.link_rate;
    tcp = (sim.tcp_bytes - tcp0) * 8 / secs / sim.link_rate;
    GST_INFO ("stream %u: %u frames sent, %u dropped, %u partial; shares "
        "%.2f and TCP %.2f; rate %" G_GUINT64_FORMAT, k,
        sim.frames_sent - sent0, sim.frames_dropped - dropped0,
        sim.frames_partial - partial0, own, tcp,
        gst_tile_rate_control_get_rate (&sim.rc));
    if (k == 0) {
      fail_unless (sim.frames_sent - sent0 >= 0.95 * secs * 30,
          "%u of %.0f frames sent", sim.frames_sent - sent0, secs * 30);
      fail_unless (tcp >= 0.5, "TCP's share %.2f", tcp);
    } else {
      fail_unless (own >= 0.35, "the stream's share %.2f", own);
      fail_unless (tcp >= 0.35, "TCP's share %.2f", tcp);
    }
    sim_clear (&sim);
  }
}

GST_END_TEST;

static GstTileRateSample
sample (guint64 frame, guint sent, guint received, gint64 send_ns,
    gint64 receive_ns, gint64 delay_ns)
{
  GstTileRateSample s = { 0 };

  s.frame = frame;
  s.bytes = (guint64) sent *PKT;
  s.packets_sent = sent;
  s.packets_received = received;
  s.packets_spanned = received ? received - 1 : 0;
  s.send_ns = send_ns;
  s.receive_ns = receive_ns;
  s.delay_ns = delay_ns;
  s.has_delay = TRUE;
  return s;
}

/* Feeds @s as frames @s.frame and @s.frame + 1 (@next: the next frame
 * number then) 1 ms apart: the first frame of overuse alone changes
 * nothing. Returns whether the second changed the rate. */
static gboolean
feed_twice (GstTileRateControl * rc, GstTileRateSample s, guint64 next,
    gint64 now)
{
  guint64 before = gst_tile_rate_control_get_rate (rc);

  fail_if (gst_tile_rate_control_update (rc, &s, next, now));
  fail_unless_equals_uint64 (gst_tile_rate_control_get_rate (rc), before);
  s.frame++;
  return gst_tile_rate_control_update (rc, &s, next + 1, now + GST_MSECOND);
}

/* The three signals, two frames in a row (one when it took 10 ms to
 * send), the hold after a decrease, the bound; what is not a signal. */
GST_START_TEST (test_signals)
{
  GstTileRateControl rc;
  GstTileRateSample s;
  gint64 now = GST_SECOND;
  GstStructure *st;
  guint64 v;

  /* squeezed: 1000 datagrams sent in 1 ms arrive over 10 ms */
  gst_tile_rate_control_init (&rc, 0);
  fail_unless (feed_twice (&rc, sample (0, 1000, 1000, GST_MSECOND,
              10 * GST_MSECOND, 0), 2, now));
  /* 0.9 x 999 x 1440 x 8 bits in 10 ms */
  v = gst_tile_rate_control_get_rate (&rc);
  fail_unless (v >= 1035763199 && v <= 1035763201, "rate %" G_GUINT64_FORMAT,
      v);
  /* frame 2 was sent before that decrease: it changes nothing */
  s = sample (2, 1000, 500, GST_MSECOND, 10 * GST_MSECOND, 0);
  fail_if (gst_tile_rate_control_update (&rc, &s, 4, now + 2 * GST_MSECOND));
  fail_unless_equals_uint64 (rc.congestion_events, 1);

  /* a clean frame after it grows the rate, by 2x per second */
  v = gst_tile_rate_control_get_rate (&rc);
  s = sample (3, 1000, 1000, 8 * GST_MSECOND, 8 * GST_MSECOND, 0);
  fail_unless (gst_tile_rate_control_update (&rc, &s, 5,
          now + 102 * GST_MSECOND));
  fail_unless (gst_tile_rate_control_get_rate (&rc) > v * 1.06 &&
      gst_tile_rate_control_get_rate (&rc) < v * 1.08);

  /* queueing: the delay 20 ms above its least */
  v = gst_tile_rate_control_get_rate (&rc);
  fail_unless (feed_twice (&rc, sample (4, 1000, 1000, 8 * GST_MSECOND,
              8 * GST_MSECOND, 20 * GST_MSECOND), 6, now + 120 * GST_MSECOND));
  fail_unless (gst_tile_rate_control_get_rate (&rc) < v);
  fail_unless_equals_uint64 (rc.congestion_events, 2);

  /* loss over 10 %, what arrived slower than it was sent */
  v = gst_tile_rate_control_get_rate (&rc);
  fail_unless (feed_twice (&rc, sample (7, 1000, 850, 8 * GST_MSECOND,
              8 * GST_MSECOND, 0), 9, now + 140 * GST_MSECOND));
  fail_unless (gst_tile_rate_control_get_rate (&rc) < v);
  /* frames of which nothing arrived are loss too */
  v = gst_tile_rate_control_get_rate (&rc);
  s = sample (10, 1000, 0, 8 * GST_MSECOND, 0, 0);
  s.has_delay = FALSE;
  fail_unless (feed_twice (&rc, s, 12, now + 150 * GST_MSECOND));
  fail_unless (gst_tile_rate_control_get_rate (&rc) < v);
  fail_unless_equals_uint64 (rc.congestion_events, 4);

  /* loss of 5 %: neither up nor down */
  v = gst_tile_rate_control_get_rate (&rc);
  s = sample (13, 1000, 950, 8 * GST_MSECOND, 8 * GST_MSECOND, 0);
  fail_if (gst_tile_rate_control_update (&rc, &s, 14, now + 250 * GST_MSECOND));
  fail_unless_equals_uint64 (gst_tile_rate_control_get_rate (&rc), v);
  /* 20 % lost, but what arrived came as fast as it was sent (the rest
   * came after the receiver had given up on the frame): not overuse */
  s = sample (14, 1000, 800, 10 * GST_MSECOND, 8 * GST_MSECOND, 0);
  fail_if (feed_twice (&rc, s, 16, now + 260 * GST_MSECOND));
  fail_unless_equals_uint64 (gst_tile_rate_control_get_rate (&rc), v);
  /* one frame of overuse alone, then a clean one: no decrease */
  s = sample (16, 1000, 1000, GST_MSECOND, 10 * GST_MSECOND, 0);
  fail_if (gst_tile_rate_control_update (&rc, &s, 18, now + 270 * GST_MSECOND));
  s = sample (17, 1000, 1000, 8 * GST_MSECOND, 8 * GST_MSECOND, 0);
  fail_unless (gst_tile_rate_control_update (&rc, &s, 19,
          now + 280 * GST_MSECOND));
  fail_unless (gst_tile_rate_control_get_rate (&rc) > v);
  fail_unless_equals_uint64 (rc.congestion_events, 4);
  v = gst_tile_rate_control_get_rate (&rc);

  /* a frame that took 10 ms or more to send: its overuse alone counts;
   * spread out by 8 % (75 ms sent at a pace just above a slow link, 81 ms
   * to arrive) is overuse, by 3 % not */
  s = sample (18, 1000, 1000, 75 * GST_MSECOND, 77 * GST_MSECOND, 0);
  fail_if (gst_tile_rate_control_update (&rc, &s, 19, now + 300 * GST_MSECOND)
      && gst_tile_rate_control_get_rate (&rc) < v);
  v = gst_tile_rate_control_get_rate (&rc);
  s = sample (19, 1000, 1000, 75 * GST_MSECOND, 81 * GST_MSECOND, 0);
  fail_unless (gst_tile_rate_control_update (&rc, &s, 20,
          now + 310 * GST_MSECOND));
  fail_unless (gst_tile_rate_control_get_rate (&rc) < v);
  fail_unless_equals_uint64 (rc.congestion_events, 5);
  v = gst_tile_rate_control_get_rate (&rc);

  /* the bound holds, at once and while growing */
  gst_tile_rate_control_set_max (&rc, v / 2);
  fail_unless_equals_uint64 (gst_tile_rate_control_get_rate (&rc), v / 2);
  s = sample (20, 1000, 1000, 8 * GST_MSECOND, 8 * GST_MSECOND, 0);
  gst_tile_rate_control_update (&rc, &s, 21, now + 500 * GST_MSECOND);
  fail_unless_equals_uint64 (gst_tile_rate_control_get_rate (&rc), v / 2);

  st = gst_structure_new_empty ("s");
  gst_tile_rate_control_to_structure (&rc, st);
  fail_unless (gst_structure_get_uint64 (st, "pacing-bitrate", &v));
  fail_unless_equals_uint64 (v, gst_tile_rate_control_get_rate (&rc));
  fail_unless (gst_structure_get_uint64 (st, "congestion-events", &v));
  fail_unless_equals_uint64 (v, 5);
  fail_unless (gst_structure_get_uint64 (st, "estimated-bitrate", &v));
  fail_unless (v > 0);
  fail_unless (gst_structure_has_field (st, "frame-loss"));
  fail_unless (gst_structure_has_field (st, "queue-delay-ms"));
  gst_structure_free (st);

  /* a bound from the start: paced at it, not above */
  gst_tile_rate_control_init (&rc, 280000000);
  fail_unless_equals_uint64 (gst_tile_rate_control_get_rate (&rc), 280000000);
}

GST_END_TEST;

/* A frame of 1000 datagrams offered every @interval_ns, sent in @send_ns,
 * received over @receive_ns, @received of them, its first datagram
 * @queue_ns behind the least delay (1 ms). */
static GstTileRateSample
offered (guint64 frame, gint64 interval_ns, gint64 send_ns,
    gint64 receive_ns, guint received, gint64 queue_ns)
{
  GstTileRateSample s = sample (frame, 1000, received, send_ns, receive_ns,
      GST_MSECOND + queue_ns);

  s.interval_ns = interval_ns;
  return s;
}

/* @n frames of @received of 1000 datagrams, offered every @iv, sent in
 * 70 ms and received over 84 ms behind 20 ms of standing queue (another
 * flow's): the rate after each is checked against @floor when @check is
 * not 0: at or above it for 1, below it for -1. */
static void
feed_queued (GstTileRateControl * rc, guint64 * frame, gint64 * now,
    gint64 iv, guint n, guint received, guint64 floor, gint check)
{
  GstTileRateSample s;
  guint i;

  for (i = 0; i < n; i++) {
    *now += iv;
    s = offered (*frame, iv, 70 * GST_MSECOND, 84 * GST_MSECOND, received,
        20 * GST_MSECOND);
    gst_tile_rate_control_update (rc, &s, *frame + 1, *now);
    (*frame)++;
    if (check > 0)
      fail_unless (gst_tile_rate_control_get_rate (rc) >= floor);
    else if (check < 0)
      fail_unless (gst_tile_rate_control_get_rate (rc) < floor);
  }
}

/* The stream's own pace: with its need known (1.44 MB every 100 ms,
 * 115.2 Mbit/s), a standing queue and spread trains (another flow's)
 * take the rate down to the pace that sends a frame in 0.7 of its
 * interval, not below; heavy loss turns that floor off for 5 s; a path
 * that never delivered 0.8 x that pace gets none. */
GST_START_TEST (test_floor)
{
  const gint64 iv = 100 * GST_MSECOND;
  const guint64 floor = 164571428;      /* 115.2 Mbit/s / 0.7 */
  GstTileRateControl rc;
  GstTileRateSample s;
  gint64 now = GST_SECOND;
  guint64 frame = 0, r;

  gst_tile_rate_control_init (&rc, 0);
  /* unpaced, squeezed: 1.15 Gbit/s delivered, paced at 0.9 x that */
  fail_unless (feed_twice (&rc, offered (frame, iv, GST_MSECOND,
              10 * GST_MSECOND, 1000, 0), frame + 2, now));
  frame += 2;
  r = gst_tile_rate_control_get_rate (&rc);
  fail_unless (r > 1000000000 && r < 1100000000, "rate %" G_GUINT64_FORMAT,
      r);
  /* 20 ms of standing queue and trains spread by a fifth, for 2 s: down
   * to the floor, and there it stays */
  feed_queued (&rc, &frame, &now, iv, 20, 1000, floor, 1);
  fail_unless_equals_uint64 (gst_tile_rate_control_get_rate (&rc), floor);
  fail_unless (rc.congestion_events >= 5);

  /* half the datagrams lost: the floor is off, the rate goes below it */
  feed_queued (&rc, &frame, &now, iv, 10, 500, floor, 0);
  r = gst_tile_rate_control_get_rate (&rc);
  fail_unless (r < floor / 2, "rate %" G_GUINT64_FORMAT, r);
  /* no loss again: still off for 5 s after the loss... */
  feed_queued (&rc, &frame, &now, iv, 30, 1000, floor, -1);
  /* ... then back at the floor with the first frame that is not overuse
   * (the delivery rate of 1.15 Gbit/s is from the last 5-10 s) */
  now += 3 * GST_SECOND;
  s = offered (frame, iv, 70 * GST_MSECOND, 70 * GST_MSECOND, 1000, 0);
  fail_unless (gst_tile_rate_control_update (&rc, &s, frame + 1, now));
  frame++;
  fail_unless_equals_uint64 (gst_tile_rate_control_get_rate (&rc), floor);

  /* a path slower than the floor (the same stream, 100 Mbit/s delivered):
   * no floor, the rate follows the path */
  gst_tile_rate_control_init (&rc, 0);
  frame = 0;
  now = GST_SECOND;
  fail_unless (feed_twice (&rc, offered (frame, iv, 9 * GST_MSECOND,
              115 * GST_MSECOND, 1000, 0), frame + 2, now));
  frame += 2;
  r = gst_tile_rate_control_get_rate (&rc);
  fail_unless (r > 85000000 && r < 95000000, "rate %" G_GUINT64_FORMAT, r);
}

GST_END_TEST;

/* A multicast group's pace (gst_tile_rate_group ()): the slowest member
 * that is not behind the median. One member that lies about its path
 * (claims a rate of 100 Gbit/s) neither makes the honest members (90 to
 * 120 Mbit/s) look behind nor unpaces the group, which the fastest member
 * as the reference did (all honest ones were below a quarter of the liar's,
 * so the group went at the liar's rate); a liar that claims a crawl is
 * behind and paces nobody; members without a rate do not count. */
GST_START_TEST (test_group_liar)
{
  const guint64 M = 1000 * 1000, G = 1000 * M;
  guint64 honest[4] = { 100 * M, 120 * M, 90 * M, 0 };
  guint64 liar_fast[5] = { 100 * M, 120 * M, 90 * M, 100 * G, 0 };
  guint64 liar_slow[4] = { 100 * M, 120 * M, 90 * M, 1 * M };
  guint64 two[2] = { 100 * M, 100 * G };
  guint64 none[3] = { 0, 0, 0 };

  fail_unless_equals_uint64 (gst_tile_rate_median (honest, 4), 100 * M);
  fail_unless_equals_uint64 (gst_tile_rate_group (honest, 4), 90 * M);
  fail_unless_equals_uint64 (gst_tile_rate_group (liar_fast, 5), 90 * M);
  fail_if (gst_tile_rate_behind (90 * M, gst_tile_rate_median (liar_fast,
              5)));
  fail_unless (gst_tile_rate_behind (1 * M, gst_tile_rate_median (liar_slow,
              4)));
  fail_unless_equals_uint64 (gst_tile_rate_group (liar_slow, 4), 90 * M);
  /* two members, one lying: the lower median is the honest one */
  fail_unless_equals_uint64 (gst_tile_rate_group (two, 2), 100 * M);
  fail_unless_equals_uint64 (gst_tile_rate_group (none, 3), 0);
  fail_unless_equals_uint64 (gst_tile_rate_group (NULL, 0), 0);
  /* a member that is really slow, among several: behind, it does not pace
   * the others (it loses frames alone) */
  fail_unless_equals_int (GST_TILE_RATE_BEHIND_FACTOR, 4);
}

GST_END_TEST;

static Suite *
tilerate_suite (void)
{
  Suite *s = suite_create ("tilerate");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_signals);
  tcase_add_test (tc, test_bottleneck);
  tcase_add_test (tc, test_step_up);
  tcase_add_test (tc, test_short_queue);
  tcase_add_test (tc, test_random_loss);
  tcase_add_test (tc, test_tcp_share);
  tcase_add_test (tc, test_floor);
  tcase_add_test (tc, test_group_liar);
  return s;
}

GST_CHECK_MAIN (tilerate);
