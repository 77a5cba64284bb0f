/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* bc-transport-bench: sends fixed-size frames from one pipeline to another
 * in the same process over 127.0.0.1 and measures throughput and delivery
 * latency, for the transport benchmark (benchmarks/transport/run.sh).
 *
 *   bc-transport-bench -T tile -f BC1 -W 3840 -H 2160 -u 4 -c 1048576 \
 *       --seconds 2 [--rate 30] [--frames 150] [--window 4] ...
 *   bc-transport-bench -T tile --protocol udp --packet-size 1408 --gso auto \
 *       [--max-bitrate 8000000000] -f BC1 -W 3840 -H 2160 -u 4 ...
 *   bc-transport-bench -T rtp --send-buffer-size 0 --receive-buffer-size 0 \
 *       -f BC1 -W 3840 -H 2160 ...
 *   bc-transport-bench -T tile [--protocol udp] --passphrase STR ...
 *
 * Transports (sender pipeline / receiver pipeline):
 *
 *   tile     appsrc ! tilesink port=0   /  tilesrc ! appsink
 *            (--protocol udp: tilesink protocol=udp packet-size=N gso=M
 *            pacing-bitrate=B, tilesrc gro=M [timer-factor=F];
 *            --passphrase STR: passphrase=STR at both ends, every TCP tile
 *            part and UDP datagram sealed with AES-128-GCM; STR is letters,
 *            digits, '_' and '-' only, so it needs no quoting)
 *   tcp      appsrc ! tcpserversink port=0
 *              /  tcpclientsrc ! rawvideoparse ! appsink
 *            (rawvideoparse cuts the byte stream into frames: GRAY8 of
 *            width x height/2 for BC1, i.e. the same byte count, or the raw
 *            format itself)
 *   tcp-gdp  appsrc ! gdppay ! tcpserversink port=0
 *              /  tcpclientsrc ! gdpdepay ! appsink
 *   raw      no GStreamer: --units plain blocking TCP connections, a thread
 *            per connection at each end sending / receiving 1/units of
 *            every frame with send() of --chunk-size / recv() straight
 *            into a ring of frames; the frame is delivered when its last
 *            slice is in (the baseline: what the loopback and the
 *            scheduler allow, measured the same way)
 *   rtp      appsrc ! rtpvrawpay mtu=1448 ! udpsink buffer-size=S
 *              /  udpsrc buffer-size=R caps=application/x-rtp,... !
 *                 rtpvrawdepay ! appsink
 *            (RFC 4175: BC1 frames go as UYVY of width/2 x height/2, the
 *            same byte count, RGB as RGB; S and R from --send-buffer-size
 *            and --receive-buffer-size, 0 = the kernel's default; RTP
 *            packets lost are counted from the sequence numbers at udpsrc)
 *
 * The frames are pseudo-random bytes, pre-filled once in a ring of --window
 * blocks. Before a frame is pushed the sender writes into its first bytes a
 * magic, the frame number and CLOCK_REALTIME in ns, and the frame number
 * every 64 KiB and into the last 8 bytes; the appsink callback reads the
 * time back at delivery (CLOCK_REALTIME again) and checks that every 64 KiB
 * stamp belongs to the same frame. That in-band latency is measured the
 * same way for every transport. With tilesrc the GstReferenceTimestampMeta
 * (sender's time when tilesink got the frame) is read as well.
 *
 * At most --window frames are pushed and not yet delivered: the sender
 * waits for the receiver (the same process), so no transport ever queues
 * more than that, and a block of the ring is rewritten only once the frame
 * it last carried has been delivered. --rate 0 pushes as fast as the window
 * allows (throughput); --rate R pushes R frames per second (latency).
 *
 * With --tile-pool the appsink answers the ALLOCATION query with a buffer
 * pool whose buffers carry a GstBcTileMeta: tilesrc then reports every
 * tile as it lands (stepped=true), and the times of those reports, relative
 * to the sender's time, are measured too (first tile / last tile).
 *
 * UDP (tile --protocol udp, rtp) may lose: a frame may never come, or come
 * with gaps. tilesrc flags such a frame GST_BUFFER_FLAG_CORRUPTED with a
 * GstBcLossMeta (the gaps keep an older frame's bytes): the stamps inside
 * the lost ranges are skipped, the others checked (bad_stamps counts
 * frames with a wrong one: damaged beyond what the meta says), and the
 * corrupted frames and lost bytes are reported. rtpvrawdepay flags nothing:
 * there the stamps alone find damaged frames. When the header is lost (or
 * stale), the frame number is the highest stamp not above the frames
 * pushed, and the time the one noted at the push. Frames are delivered in
 * order, so a frame counts as done (for the window) once it or a newer one
 * is delivered, and --tail unmeasured frames follow the measured ones
 * (rtpvrawdepay completes an incomplete frame only when a newer one starts;
 * tilesrc when its timer, started by its own first datagram, fires). The
 * ring has two
 * more blocks, each reused only once the sender has released its buffer.
 * A frame tilesink drops whole (max-in-flight, or over UDP the receiver's
 * window: its QoS message names the PTS) is done too, and counted in
 * "sender_dropped", not in "lost" (frames sent and never delivered).
 * Reported as well: tilesrc's and tilesink's UDP counters over the
 * measurement (src_udp, sink_udp) and the kernel's (/proc/net/snmp Udp:
 * RcvbufErrors, SndbufErrors, ... over the measurement, machine-wide).
 *
 * Prints one JSON object on stdout. Exit status 0 when the run completed
 * (frames lost or late are reported, not failed), 1 on a pipeline error or
 * when nothing was delivered, 2 on bad options. A UDP run that stalls (a
 * frame neither delivered nor passed by a newer one for --timeout s) is
 * reported with "stalled": true, without asking tilesrc for its stats
 * again (a receiver stuck on its lock would hang the call), and the
 * process exits without tearing the pipelines down.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/bc/bc.h>

#include "../benchlib.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define STAMP_MAGIC 0x42544342u /* "BCTB" little endian */
#define STAMP_STRIDE 65536
#define HEADER_BYTES 24
#define MAX_GROUPS 32
#define SENT_RING 4096
#define UDP_HEADER_BYTES 40     /* tilesink's datagram header */
#define UDP_TAG_BYTES 16        /* and its AES-GCM tag, with a passphrase */

/* command line */
static gchar *opt_transport = NULL;
static gchar *opt_format = NULL;
static gint opt_width = 3840;
static gint opt_height = 2160;
static gint opt_frames = 1000;
static gdouble opt_seconds = 0.0;
static gdouble opt_rate = 0.0;
static gint opt_window = 4;
static gint opt_units = 4;
static gint opt_chunk = 1 << 20;
static gint opt_sndbuf = 16 << 20;
static gint opt_rcvbuf = 16 << 20;
static gint opt_max_in_flight = 0;
static gchar *opt_flush = NULL;
static gboolean opt_tile_pool = FALSE;
static gint opt_warmup = 3;
static gdouble opt_timeout = 10.0;
static gchar *opt_protocol = NULL;
static gint opt_packet_size = 1408;
static gchar *opt_gso = NULL;
static gint64 opt_max_bitrate = 0;
static gboolean opt_no_rate_control = FALSE;
static gdouble opt_timer_factor = -1.0;
static gint opt_rtp_mtu = 1448;
static gint opt_tail = 2;
static gchar *opt_passphrase = NULL;

static GOptionEntry entries[] = {
  {"transport", 'T', 0, G_OPTION_ARG_STRING, &opt_transport,
      "tile, tcp, tcp-gdp, raw or rtp (default tile)", "NAME"},
  {"protocol", 0, 0, G_OPTION_ARG_STRING, &opt_protocol,
      "-T tile: tilesink protocol, tcp or udp (default tcp)", "PROTO"},
  {"packet-size", 0, 0, G_OPTION_ARG_INT, &opt_packet_size,
      "-T tile --protocol udp: tilesink packet-size (default 1408)", "BYTES"},
  {"gso", 0, 0, G_OPTION_ARG_STRING, &opt_gso,
      "-T tile --protocol udp: tilesink and tilesrc gso, auto, on or off "
        "(default auto)", "MODE"},
  {"max-bitrate", 0, 0, G_OPTION_ARG_INT64, &opt_max_bitrate,
        "-T tile --protocol udp: tilesink pacing-bitrate (default 0 = none)",
      "BITS"},
  {"no-rate-control", 0, 0, G_OPTION_ARG_NONE, &opt_no_rate_control,
      "-T tile --protocol udp: tilesink rate-control=false", NULL},
  {"timer-factor", 0, 0, G_OPTION_ARG_DOUBLE, &opt_timer_factor,
      "-T tile --protocol udp: tilesrc timer-factor (default: the "
        "element's)", "F"},
  {"rtp-mtu", 0, 0, G_OPTION_ARG_INT, &opt_rtp_mtu,
      "-T rtp: rtpvrawpay mtu, RTP header included (default 1448, the "
        "datagram of tilesink's default packet-size)", "BYTES"},
  {"tail", 0, 0, G_OPTION_ARG_INT, &opt_tail,
      "UDP transports: frames pushed after the measured ones, not "
        "measured, so that the last measured frame is not the newest one "
        "(rtpvrawdepay completes an incomplete frame only when a newer one "
        "starts) (default 2)", "N"},
  {"passphrase", 0, 0, G_OPTION_ARG_STRING, &opt_passphrase,
      "-T tile: tilesink and tilesrc passphrase (AES-128-GCM on every tile "
        "part / datagram); letters, digits, '_' and '-' only", "STR"},
  {"format", 'f', 0, G_OPTION_ARG_STRING, &opt_format,
      "BC1 (video/x-bc) or RGB (video/x-raw) (default BC1)", "FORMAT"},
  {"width", 'W', 0, G_OPTION_ARG_INT, &opt_width, "Width (default 3840)",
      "PIXELS"},
  {"height", 'H', 0, G_OPTION_ARG_INT, &opt_height, "Height (default 2160)",
      "PIXELS"},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt_frames,
      "Measured frames, at most (default 1000)", "N"},
  {"seconds", 's', 0, G_OPTION_ARG_DOUBLE, &opt_seconds,
      "Stop pushing after this many seconds (0 = only --frames)", "S"},
  {"rate", 'r', 0, G_OPTION_ARG_DOUBLE, &opt_rate,
      "Frames per second pushed (0 = as fast as the window allows)", "FPS"},
  {"window", 'w', 0, G_OPTION_ARG_INT, &opt_window,
      "Frames pushed but not yet delivered, at most (default 4)", "N"},
  {"units", 'u', 0, G_OPTION_ARG_INT, &opt_units,
      "tilesink units (default 4)", "N"},
  {"chunk-size", 'c', 0, G_OPTION_ARG_INT, &opt_chunk,
      "tilesink chunk-size (default 1048576)", "BYTES"},
  {"send-buffer-size", 0, 0, G_OPTION_ARG_INT, &opt_sndbuf,
      "tilesink send-buffer-size (default 16 MiB)", "BYTES"},
  {"receive-buffer-size", 0, 0, G_OPTION_ARG_INT, &opt_rcvbuf,
      "tilesrc receive-buffer-size (default 16 MiB)", "BYTES"},
  {"max-in-flight", 0, 0, G_OPTION_ARG_INT, &opt_max_in_flight,
      "tilesink max-in-flight (default: --window + 2, at most 64)", "N"},
  {"flush", 0, 0, G_OPTION_ARG_STRING, &opt_flush,
      "tilesrc flush: stepped or frame (default stepped)", "MODE"},
  {"tile-pool", 0, 0, G_OPTION_ARG_NONE, &opt_tile_pool,
      "Offer tilesrc a pool whose buffers carry GstBcTileMeta", NULL},
  {"warmup", 0, 0, G_OPTION_ARG_INT, &opt_warmup,
      "Frames delivered before measuring (default 3)", "N"},
  {"timeout", 't', 0, G_OPTION_ARG_DOUBLE, &opt_timeout,
        "Seconds to wait for the connection or a stalled frame (default 10)",
      "S"},
  {NULL}
};

/* Times a buffer of the --tile-pool pool was reported complete, per tile. */
typedef struct
{
  gint n;                       /* atomic */
  guint64 ns[GST_BC_TILING_MAX_TILES];
} TileTimes;

typedef struct
{
  gchar name[32];
  gdouble seconds;
} CpuGroup;

typedef struct
{
  /* fixed before the pipelines run */
  gsize frame_size;
  guint64 first_seq;            /* of the measured frames */
  guint n_slots;                /* measured frames we have room for */

  GMutex lock;
  GCond cond;
  guint64 delivered;            /* every frame, warm-up included */
  guint64 measured;             /* measured frames delivered */
  guint64 bad_stamps;           /* frames whose stamps disagree */
  guint64 foreign;              /* buffers without our header */
  guint64 out_of_order;
  guint64 last_seq;
  gboolean have_last;
  gboolean eos;
  guint64 first_delivery_mono;
  /* per measured frame, indexed by seq - first_seq */
  guint64 *recv_mono;           /* delivery, CLOCK_MONOTONIC ns */
  gint64 *lat_inband;           /* ns; -1 = not delivered */
  gint64 *lat_meta;
  gint64 *lat_first_tile;
  gint64 *lat_last_tile;
  guint64 *push_mono;           /* push, CLOCK_MONOTONIC ns */

  /* bytes the receiving source produced (tcpclientsrc read sizes) */
  guint64 src_buffers;
  guint64 src_bytes;

  /* lossy transports (UDP): a frame may never come, or come with gaps */
  gboolean lossy;
  gboolean *done;               /* per measured frame: delivered */
  gboolean *dropped;            /* per measured frame: tilesink dropped it
                                 * whole (its QoS message) */
  GstClockTime duration;        /* PTS = seq x duration */
  guint64 max_pushed;           /* highest seq pushed + 1 */
  guint64 sent_rt[SENT_RING];   /* the time stamped into frame seq */
  guint64 sent_seq[SENT_RING];
  guint64 corrupted;            /* measured frames: GST_BUFFER_FLAG_CORRUPTED */
  guint64 loss_meta;            /* measured frames with a GstBcLossMeta */
  guint64 lost_bytes;           /* their GstBcLossMeta lost_bytes */
  guint64 header_lost;          /* measured frames whose header was lost */
  guint64 damaged;              /* measured frames with wrong bytes outside
                                 * the lost ranges (= bad_stamps) */
  guint64 checked_stamps;       /* stamps compared (measured frames) */
  guint64 skipped_stamps;       /* stamps inside lost ranges, not compared */
  /* RTP packets at udpsrc: sequence-number gaps */
  guint64 rtp_packets;
  guint64 rtp_gaps;
  guint64 rtp_reordered;
  guint16 rtp_last_seq;
  gboolean rtp_have_seq;
  /* appsrc buffers of a ring block not yet released by the sender */
  gint *block_refs;             /* atomic */
} Bench;

static Bench bench;
static GQuark tile_times_quark;
static GstCaps *unix_ts_caps;

static void
sleep_until_mono (guint64 t)
{
  struct timespec ts;

  ts.tv_sec = t / GST_SECOND;
  ts.tv_nsec = t % GST_SECOND;
  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR);
}

/* ------------------------------------------------------------------ */
/* A buffer pool whose buffers carry a GstBcTileMeta */

#define BENCH_TYPE_POOL (bench_pool_get_type ())
G_DECLARE_FINAL_TYPE (BenchPool, bench_pool, BENCH, POOL, GstBufferPool);

struct _BenchPool
{
  GstBufferPool parent;
};

G_DEFINE_TYPE (BenchPool, bench_pool, GST_TYPE_BUFFER_POOL);

static void
tile_done (GstBuffer * buffer, GstBcTileMeta * meta, const GstBcTile * tile,
    gpointer user_data)
{
  TileTimes *t = user_data;

  if (tile->index < GST_BC_TILING_MAX_TILES) {
    t->ns[tile->index] = bench_realtime_ns ();
    g_atomic_int_inc (&t->n);
  }
}

static GstFlowReturn
bench_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstFlowReturn ret;
  TileTimes *t;

  ret = GST_BUFFER_POOL_CLASS (bench_pool_parent_class)->alloc_buffer (pool,
      buffer, params);
  if (ret != GST_FLOW_OK)
    return ret;
  t = g_new0 (TileTimes, 1);
  /* the meta owns the times; the qdata only points at them */
  gst_buffer_add_bc_tile_meta (*buffer, tile_done, t, g_free);
  gst_mini_object_set_qdata (GST_MINI_OBJECT (*buffer), tile_times_quark, t,
      NULL);
  return GST_FLOW_OK;
}

static void
bench_pool_class_init (BenchPoolClass * klass)
{
  GST_BUFFER_POOL_CLASS (klass)->alloc_buffer = bench_pool_alloc_buffer;
}

static void
bench_pool_init (BenchPool * self)
{
}

static GstPadProbeReturn
allocation_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstBufferPool *pool;
  GstCaps *caps = NULL;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps)
    return GST_PAD_PROBE_OK;
  pool = g_object_new (BENCH_TYPE_POOL, NULL);
  gst_query_add_allocation_pool (query, pool, bench.frame_size, 3, 0);
  gst_object_unref (pool);
  return GST_PAD_PROBE_HANDLED;
}

/* ------------------------------------------------------------------ */
/* The receiving end */

static GstPadProbeReturn
count_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  bench.src_buffers++;
  bench.src_bytes += gst_buffer_get_size (buf);
  if (user_data) {
    /* udpsrc of -T rtp: one RTP packet per buffer; count the gaps in its
     * sequence numbers (packets lost before the depayloader) */
    guint8 h[4];

    if (gst_buffer_extract (buf, 0, h, 4) == 4 && (h[0] >> 6) == 2) {
      guint16 sn = GST_READ_UINT16_BE (h + 2);

      bench.rtp_packets++;
      if (bench.rtp_have_seq) {
        guint16 d = (guint16) (sn - bench.rtp_last_seq);

        if (d == 0 || d >= 0x8000) {
          bench.rtp_reordered++;
          return GST_PAD_PROBE_OK;
        }
        bench.rtp_gaps += d - 1;
      }
      bench.rtp_last_seq = sn;
      bench.rtp_have_seq = TRUE;
    }
  }
  return GST_PAD_PROBE_OK;
}

static void stamp_frame (guint8 * data, gsize size, guint64 seq);

/* The stamps of a frame: the header (magic, seq, time) at 0, the seq every
 * STAMP_STRIDE bytes and in the last 8 bytes. */
typedef struct
{
  guint64 pos;
  guint64 value;
} Stamp;

typedef struct
{
  guint64 start, end;
} Range;

static gint
cmp_range (gconstpointer a, gconstpointer b)
{
  const Range *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* The lost ranges of a GstBcLossMeta, sorted and merged. */
static guint
lost_ranges (GstBcLossMeta * meta, Range ** out)
{
  Range *r;
  guint i, n = 0;

  *out = NULL;
  if (!meta || meta->n_ranges == 0)
    return 0;
  r = g_new (Range, meta->n_ranges);
  for (i = 0; i < meta->n_ranges; i++) {
    r[i].start = meta->ranges[i].offset;
    r[i].end = meta->ranges[i].offset + meta->ranges[i].size;
  }
  qsort (r, meta->n_ranges, sizeof (Range), cmp_range);
  for (i = 0; i < meta->n_ranges; i++) {
    if (n > 0 && r[i].start <= r[n - 1].end)
      r[n - 1].end = MAX (r[n - 1].end, r[i].end);
    else
      r[n++] = r[i];
  }
  *out = r;
  return n;
}

/* Whether [pos, pos + len) overlaps one of the @n sorted @ranges. */
static gboolean
in_lost (const Range * ranges, guint n, guint64 pos, guint64 len)
{
  guint lo = 0, hi = n;

  while (lo < hi) {
    guint mid = (lo + hi) / 2;

    if (ranges[mid].end <= pos)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && ranges[lo].start < pos + len;
}

/* Collects the seq stamps of @buf without merging its memories (a parser's
 * output may be many of them). */
static guint
collect_stamps (GstBuffer * buf, gsize size, Stamp * st, guint max)
{
  gsize at = 0, next = STAMP_STRIDE;
  guint m, n_mem = gst_buffer_n_memory (buf), n = 0;
  guint8 b[8];

  for (m = 0; m < n_mem && n < max; m++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, m);
    GstMapInfo mi;
    gsize end;

    if (!gst_memory_map (mem, &mi, GST_MAP_READ))
      break;
    end = at + mi.size;
    for (; next + 8 <= end && next + 8 <= size && n < max; next += STAMP_STRIDE) {
      st[n].pos = next;
      st[n++].value = GST_READ_UINT64_LE (mi.data + (next - at));
    }
    /* a stamp across two memories */
    if (next < end && next + 8 <= size && n < max) {
      if (gst_buffer_extract (buf, next, b, 8) == 8) {
        st[n].pos = next;
        st[n++].value = GST_READ_UINT64_LE (b);
      }
      next += STAMP_STRIDE;
    }
    gst_memory_unmap (mem, &mi);
    at = end;
  }
  if (n < max && gst_buffer_extract (buf, size - 8, b, 8) == 8) {
    st[n].pos = size - 8;
    st[n++].value = GST_READ_UINT64_LE (b);
  }
  return n;
}

/* Reads the frame number and the sender's time of @buf and checks every
 * stamp outside the @n_lost @lost ranges (a receiver's loss meta: those
 * bytes are another frame's). The frame number is the header's; when the
 * header is lost or stale (an RTP frame whose first packet was lost keeps
 * an older frame's bytes there), it is the highest stamp not above the
 * highest frame pushed: older bytes can only be older frames'. The time
 * then comes from what the sender noted. FALSE when the buffer is not a
 * frame of ours. */
static gboolean
read_stamps (GstBuffer * buf, const Range * lost, guint n_lost,
    guint64 * seq, guint64 * sent, gboolean * good, gboolean * hdr_ok,
    guint * n_checked, guint * n_skipped)
{
  guint8 hdr[HEADER_BYTES];
  gsize size = gst_buffer_get_size (buf);
  guint max = size / STAMP_STRIDE + 2, n, i;
  Stamp *st;
  guint64 limit, best = 0, hseq = 0, hsent = 0;
  gboolean have = FALSE, hdr_valid = FALSE;

  *good = TRUE;
  *hdr_ok = FALSE;
  *n_checked = *n_skipped = 0;
  if (size != bench.frame_size || size < HEADER_BYTES + 8)
    return FALSE;
  g_mutex_lock (&bench.lock);
  limit = bench.max_pushed;
  g_mutex_unlock (&bench.lock);

  if (!in_lost (lost, n_lost, 0, HEADER_BYTES) &&
      gst_buffer_extract (buf, 0, hdr, HEADER_BYTES) == HEADER_BYTES &&
      GST_READ_UINT32_LE (hdr) == STAMP_MAGIC) {
    hseq = GST_READ_UINT64_LE (hdr + 8);
    hsent = GST_READ_UINT64_LE (hdr + 16);
    hdr_valid = TRUE;
    if (hseq < limit || !bench.lossy) {
      best = hseq;
      have = TRUE;
    }
  }
  st = g_new (Stamp, max);
  n = collect_stamps (buf, size, st, max);
  for (i = 0; i < n; i++) {
    if (in_lost (lost, n_lost, st[i].pos, 8))
      continue;
    if (bench.lossy && !hdr_valid && st[i].value < limit &&
        (!have || st[i].value > best)) {
      best = st[i].value;
      have = TRUE;
    } else if (bench.lossy && hdr_valid && st[i].value < limit &&
        st[i].value > best) {
      /* the header is an older frame's */
      best = st[i].value;
      have = TRUE;
    }
  }
  if (!have) {
    g_free (st);
    return FALSE;
  }
  for (i = 0; i < n; i++) {
    if (in_lost (lost, n_lost, st[i].pos, 8)) {
      (*n_skipped)++;
      continue;
    }
    (*n_checked)++;
    if (st[i].value != best)
      *good = FALSE;
  }
  g_free (st);
  *seq = best;
  if (hdr_valid && hseq == best) {
    *sent = hsent;
    *hdr_ok = TRUE;
  } else {
    *good = *good && in_lost (lost, n_lost, 0, HEADER_BYTES);
    g_mutex_lock (&bench.lock);
    *sent = bench.sent_seq[best % SENT_RING] == best ?
        bench.sent_rt[best % SENT_RING] : 0;
    g_mutex_unlock (&bench.lock);
  }
  return TRUE;
}

/* Records the delivery of @buf (a frame of ours, or not). */
static void
deliver_buffer (GstBuffer * buf)
{
  guint64 now = bench_realtime_ns (), now_mono = bench_mono_ns ();
  GstReferenceTimestampMeta *rmeta;
  TileTimes *tt;
  GstBcLossMeta *lmeta = NULL;
  Range *lost = NULL;
  guint n_lost = 0, n_checked = 0, n_skipped = 0;
  guint64 seq = 0, sent = 0, first = 0, last = 0;
  gint64 meta_lat = -1;
  gboolean ok = FALSE, good = FALSE, hdr_ok = FALSE, corrupted = FALSE;
  gint i, n_tiles = 0;

  if (buf) {
    lmeta = gst_buffer_get_bc_loss_meta (buf);
    n_lost = lost_ranges (lmeta, &lost);
    corrupted = GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED);
    ok = read_stamps (buf, lost, n_lost, &seq, &sent, &good, &hdr_ok,
        &n_checked, &n_skipped);
    g_free (lost);
  }
  if (ok) {
    rmeta = gst_buffer_get_reference_timestamp_meta (buf, unix_ts_caps);
    if (rmeta)
      meta_lat = (gint64) now - (gint64) rmeta->timestamp;
    tt = gst_mini_object_get_qdata (GST_MINI_OBJECT (buf), tile_times_quark);
    if (tt) {
      n_tiles = g_atomic_int_get (&tt->n);
      for (i = 0; i < GST_BC_TILING_MAX_TILES && n_tiles > 0; i++) {
        if (tt->ns[i] == 0)
          continue;
        first = first ? MIN (first, tt->ns[i]) : tt->ns[i];
        last = MAX (last, tt->ns[i]);
      }
      /* we own the buffer: clear for its next filling */
      memset (tt->ns, 0, sizeof (tt->ns));
      g_atomic_int_set (&tt->n, 0);
    }
  }

  g_mutex_lock (&bench.lock);
  if (bench.delivered++ == 0)
    bench.first_delivery_mono = now_mono;
  if (!ok) {
    bench.foreign++;
  } else {
    if (bench.have_last && seq <= bench.last_seq)
      bench.out_of_order++;
    bench.last_seq = seq;
    bench.have_last = TRUE;
    if (seq >= bench.first_seq && seq - bench.first_seq < bench.n_slots) {
      guint64 k = seq - bench.first_seq;

      if (!good)
        bench.bad_stamps++;
      if (corrupted)
        bench.corrupted++;
      if (lmeta) {
        bench.loss_meta++;
        bench.lost_bytes += lmeta->lost_bytes;
      }
      if (!hdr_ok)
        bench.header_lost++;
      bench.checked_stamps += n_checked;
      bench.skipped_stamps += n_skipped;
      if (!bench.done[k])
        bench.measured++;
      bench.done[k] = TRUE;
      bench.recv_mono[k] = now_mono;
      bench.lat_inband[k] = sent ? (gint64) now - (gint64) sent : -1;
      bench.lat_meta[k] = meta_lat;
      if (first) {
        bench.lat_first_tile[k] = (gint64) first - (gint64) sent;
        bench.lat_last_tile[k] = (gint64) last - (gint64) sent;
      }
    }
  }
  g_cond_broadcast (&bench.cond);
  g_mutex_unlock (&bench.lock);
}

static GstFlowReturn
new_sample (GstAppSink * sink, gpointer user_data)
{
  GstSample *sample = gst_app_sink_pull_sample (sink);

  if (!sample)
    return GST_FLOW_EOS;
  deliver_buffer (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* ------------------------------------------------------------------ */
/* -T raw: the same frames over plain blocking sockets, one connection and
 * one thread per unit at each end, no GStreamer: the baseline of what the
 * loopback and this machine's scheduler allow, measured the same way. */

typedef struct
{
  guint index;
  gint fd;
  gsize offset;
  gsize size;
  GThread *thread;
  GAsyncQueue *queue;           /* sender: seq + 1 per frame, RAW_STOP */
} RawUnit;

#define RAW_STOP GSIZE_TO_POINTER (G_MAXSIZE)

static struct
{
  guint n;
  gint chunk;
  guint8 **blocks;              /* the sender's ring */
  guint n_blocks;
  guint8 **rx;                  /* the receiver's ring */
  gint *rx_done;                /* per ring slot, atomic */
  RawUnit send[64];
  RawUnit recv[64];
} raw;

static void
raw_set_buffer (gint fd, gboolean send, gint size)
{
  gint opt = send ? SO_SNDBUF : SO_RCVBUF;
  gint force = send ? SO_SNDBUFFORCE : SO_RCVBUFFORCE;

  if (size <= 0)
    return;
  /* as tilesink/tilesrc do: the privileged option past [rw]mem_max */
  if (setsockopt (fd, SOL_SOCKET, force, &size, sizeof (size)) != 0)
    setsockopt (fd, SOL_SOCKET, opt, &size, sizeof (size));
}

static gpointer
raw_send_thread (gpointer data)
{
  RawUnit *u = data;
  gpointer item;

  while ((item = g_async_queue_pop (u->queue)) != RAW_STOP) {
    guint64 seq = GPOINTER_TO_SIZE (item) - 1;
    const guint8 *p = raw.blocks[seq % raw.n_blocks] + u->offset;
    gsize left = u->size;

    while (left > 0) {
      gssize n = send (u->fd, p, MIN (left, (gsize) raw.chunk),
          MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return NULL;
      p += n;
      left -= n;
    }
  }
  return NULL;
}

static gpointer
raw_recv_thread (gpointer data)
{
  RawUnit *u = data;
  guint64 seq;

  for (seq = 0;; seq++) {
    guint slot = seq % raw.n_blocks;
    guint8 *p = raw.rx[slot] + u->offset;
    gsize left = u->size;

    while (left > 0) {
      gssize n = recv (u->fd, p, left, 0);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return NULL;
      p += n;
      left -= n;
    }
    /* the last slice of a frame delivers it */
    if (g_atomic_int_add (&raw.rx_done[slot], 1) == (gint) raw.n - 1) {
      GstBuffer *buf;

      g_atomic_int_set (&raw.rx_done[slot], 0);
      buf = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY,
          raw.rx[slot], bench.frame_size, 0, bench.frame_size, NULL, NULL);
      deliver_buffer (buf);
      gst_buffer_unref (buf);
    }
  }
  return NULL;
}

static gboolean
raw_start (guint n, gint chunk, gint sndbuf, gint rcvbuf, guint8 ** blocks,
    guint n_blocks)
{
  struct sockaddr_in addr;
  socklen_t len = sizeof (addr);
  gint lfd, one = 1;
  guint i;

  raw.n = n;
  raw.chunk = chunk;
  raw.blocks = blocks;
  raw.n_blocks = n_blocks;
  raw.rx = g_new0 (guint8 *, n_blocks);
  raw.rx_done = g_new0 (gint, n_blocks);
  for (i = 0; i < n_blocks; i++)
    raw.rx[i] = g_malloc0 (bench.frame_size);

  lfd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  memset (&addr, 0, sizeof (addr));
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (lfd < 0 || bind (lfd, (struct sockaddr *) &addr, sizeof (addr)) != 0
      || listen (lfd, 64) != 0
      || getsockname (lfd, (struct sockaddr *) &addr, &len) != 0) {
    g_printerr ("raw: cannot listen: %s\n", g_strerror (errno));
    if (lfd >= 0)
      close (lfd);
    return FALSE;
  }
  for (i = 0; i < n; i++) {
    RawUnit *s = &raw.send[i], *r = &raw.recv[i];

    s->index = r->index = i;
    s->offset = r->offset = bench.frame_size * i / n;
    s->size = r->size = bench.frame_size * (i + 1) / n - s->offset;
    r->fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    raw_set_buffer (r->fd, FALSE, rcvbuf);
    if (r->fd < 0 || connect (r->fd, (struct sockaddr *) &addr,
            sizeof (addr)) != 0) {
      g_printerr ("raw: cannot connect: %s\n", g_strerror (errno));
      close (lfd);
      return FALSE;
    }
    s->fd = accept4 (lfd, NULL, NULL, SOCK_CLOEXEC);
    if (s->fd < 0) {
      g_printerr ("raw: cannot accept: %s\n", g_strerror (errno));
      close (lfd);
      return FALSE;
    }
    raw_set_buffer (s->fd, TRUE, sndbuf);
    setsockopt (s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof (one));
    setsockopt (r->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof (one));
    s->queue = g_async_queue_new ();
  }
  close (lfd);
  for (i = 0; i < n; i++) {
    raw.send[i].thread = g_thread_new ("raw-send", raw_send_thread,
        &raw.send[i]);
    raw.recv[i].thread = g_thread_new ("raw-recv", raw_recv_thread,
        &raw.recv[i]);
  }
  return TRUE;
}

static void
raw_push (guint64 seq)
{
  guint i;

  stamp_frame (raw.blocks[seq % raw.n_blocks], bench.frame_size, seq);
  for (i = 0; i < raw.n; i++)
    g_async_queue_push (raw.send[i].queue, GSIZE_TO_POINTER (seq + 1));
}

static void
raw_stop (void)
{
  guint i;

  for (i = 0; i < raw.n; i++) {
    if (raw.send[i].queue)
      g_async_queue_push (raw.send[i].queue, RAW_STOP);
    if (raw.send[i].thread)
      g_thread_join (raw.send[i].thread);
    if (raw.send[i].fd > 0)
      shutdown (raw.send[i].fd, SHUT_RDWR);
    if (raw.recv[i].fd > 0)
      shutdown (raw.recv[i].fd, SHUT_RDWR);
    if (raw.recv[i].thread)
      g_thread_join (raw.recv[i].thread);
    if (raw.send[i].fd > 0)
      close (raw.send[i].fd);
    if (raw.recv[i].fd > 0)
      close (raw.recv[i].fd);
    if (raw.send[i].queue)
      g_async_queue_unref (raw.send[i].queue);
  }
  for (i = 0; raw.rx && i < raw.n_blocks; i++)
    g_free (raw.rx[i]);
  g_free (raw.rx);
  g_free (raw.rx_done);
  memset (&raw, 0, sizeof (raw));
}

static void
appsink_eos (GstAppSink * sink, gpointer user_data)
{
  g_mutex_lock (&bench.lock);
  bench.eos = TRUE;
  g_cond_broadcast (&bench.cond);
  g_mutex_unlock (&bench.lock);
}

/* ------------------------------------------------------------------ */
/* Bus, CPU time, JSON */

static gchar *first_error = NULL;
static gchar *first_warning = NULL;

static void
poll_bus (GstElement * pipeline)
{
  GstBus *bus;
  GstMessage *msg;

  if (!pipeline)
    return;
  bus = gst_element_get_bus (pipeline);
  while ((msg = gst_bus_pop_filtered (bus,
              GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    GError *err = NULL;
    gchar *dbg = NULL, *text;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, &dbg);
    else
      gst_message_parse_warning (msg, &err, &dbg);
    text = g_strdup_printf ("%s: %s%s%s", GST_OBJECT_NAME (msg->src),
        err->message, dbg ? " -- " : "", dbg ? dbg : "");
    g_printerr ("bc-transport-bench: %s %s\n",
        GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR ? "error" : "warning",
        text);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR && !first_error)
      first_error = text;
    else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING && !first_warning)
      first_warning = text;
    else
      g_free (text);
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
}

/* CPU seconds of every thread of this process, by thread name with its
 * trailing digits dropped (tilesink-unit3 -> tilesink-unit). */
typedef struct
{
  gint tid;
  gchar group[32];
  guint64 ticks;
} ThreadCpu;

static GArray *
thread_cpu_snapshot (void)
{
  GArray *arr = g_array_new (FALSE, TRUE, sizeof (ThreadCpu));
  DIR *dir = opendir ("/proc/self/task");
  struct dirent *de;

  if (!dir)
    return arr;
  while ((de = readdir (dir))) {
    gchar *path, *contents = NULL, *open_paren, *close_paren;
    ThreadCpu t = { 0, };
    guint64 utime = 0, stime = 0;
    gsize len;

    if (de->d_name[0] == '.')
      continue;
    path = g_strdup_printf ("/proc/self/task/%s/stat", de->d_name);
    if (g_file_get_contents (path, &contents, NULL, NULL)) {
      open_paren = strchr (contents, '(');
      close_paren = strrchr (contents, ')');
      if (open_paren && close_paren && close_paren > open_paren) {
        len = MIN ((gsize) (close_paren - open_paren - 1),
            sizeof (t.group) - 1);
        memcpy (t.group, open_paren + 1, len);
        t.group[len] = 0;
        while (len > 0 && g_ascii_isdigit (t.group[len - 1]))
          t.group[--len] = 0;
        /* after ") ": state ppid pgrp session tty tpgid flags minflt
         * cminflt majflt cmajflt utime stime */
        if (sscanf (close_paren + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u "
                "%*u %*u %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, &utime,
                &stime) == 2) {
          t.tid = atoi (de->d_name);
          t.ticks = utime + stime;
          g_array_append_val (arr, t);
        }
      }
    }
    g_free (contents);
    g_free (path);
  }
  closedir (dir);
  return arr;
}

static guint
thread_cpu_groups (GArray * before, GArray * after, CpuGroup * groups,
    guint max_groups)
{
  gdouble tick = (gdouble) sysconf (_SC_CLK_TCK);
  guint i, j, n = 0;

  for (i = 0; i < after->len; i++) {
    ThreadCpu *a = &g_array_index (after, ThreadCpu, i);
    guint64 base = 0;

    for (j = 0; j < before->len; j++)
      if (g_array_index (before, ThreadCpu, j).tid == a->tid)
        base = g_array_index (before, ThreadCpu, j).ticks;
    for (j = 0; j < n; j++)
      if (strcmp (groups[j].name, a->group) == 0)
        break;
    if (j == n) {
      if (n == max_groups)
        continue;
      g_strlcpy (groups[n].name, a->group, sizeof (groups[n].name));
      groups[n].seconds = 0;
      n++;
    }
    groups[j].seconds += (a->ticks - MIN (base, a->ticks)) / tick;
  }
  return n;
}

static gint
cmp_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* "name": {"n": .., "p5": .., "p50": .., "p95": .., "p99": .., "mean": ..,
 * "max": ..} in ms over the valid (>= 0) samples; nearest rank. */
static void
json_percentiles (GString * s, const gchar * name, const gint64 * samples,
    guint n, gboolean with_samples)
{
  gint64 *v = g_new (gint64, MAX (n, 1));
  static const gdouble ps[] = { 5, 50, 95, 99 };
  guint i, m = 0;
  gdouble sum = 0;

  for (i = 0; i < n; i++)
    if (samples[i] >= 0)
      v[m++] = samples[i];
  g_string_append_printf (s, "\"%s\": ", name);
  if (m == 0) {
    g_string_append (s, "null");
    g_free (v);
    return;
  }
  qsort (v, m, sizeof (gint64), cmp_i64);
  g_string_append_printf (s, "{\"n\": %u", m);
  for (i = 0; i < G_N_ELEMENTS (ps); i++) {
    guint rank = (guint) (ps[i] / 100.0 * m + 0.999999);

    rank = CLAMP (rank, 1, m);
    g_string_append_printf (s, ", \"p%g\": %.4f", ps[i], v[rank - 1] / 1e6);
  }
  for (i = 0; i < m; i++)
    sum += v[i];
  g_string_append_printf (s, ", \"mean\": %.4f, \"min\": %.4f, \"max\": %.4f",
      sum / m / 1e6, v[0] / 1e6, v[m - 1] / 1e6);
  if (with_samples) {
    g_string_append (s, ", \"samples_ms\": [");
    for (i = 0; i < n; i++)
      if (samples[i] >= 0)
        g_string_append_printf (s, "%s%.3f", i ? ", " : "", samples[i] / 1e6);
    g_string_append (s, "]");
  }
  g_string_append (s, "}");
  g_free (v);
}

static void
json_stats (GString * s, const gchar * name, GstElement * element)
{
  GstStructure *st = bench_get_stats (element);
  gchar *str;

  g_string_append_printf (s, ", \"%s\": ", name);
  if (!st) {
    g_string_append (s, "null");
    return;
  }
  str = gst_structure_to_string (st);
  bench_json_string (s, str);
  g_free (str);
  gst_structure_free (st);
}

/* a guint64 or gint field of a stats structure, -1 when absent */
static gint64
stats_int (GstElement * element, const gchar * field)
{
  GstStructure *st = bench_get_stats (element);
  const GValue *v;
  gint64 ret = -1;

  if (!st)
    return -1;
  v = gst_structure_get_value (st, field);
  if (v && G_VALUE_HOLDS_UINT64 (v))
    ret = (gint64) g_value_get_uint64 (v);
  else if (v && G_VALUE_HOLDS_INT (v))
    ret = g_value_get_int (v);
  else if (v && G_VALUE_HOLDS_UINT (v))
    ret = g_value_get_uint (v);
  else if (v && G_VALUE_HOLDS_BOOLEAN (v))
    ret = g_value_get_boolean (v);
  gst_structure_free (st);
  return ret;
}

/* ------------------------------------------------------------------ */

static void
stamp_frame (guint8 * data, gsize size, guint64 seq)
{
  gsize off;
  guint64 t;

  for (off = STAMP_STRIDE; off + 8 <= size; off += STAMP_STRIDE)
    GST_WRITE_UINT64_LE (data + off, seq);
  GST_WRITE_UINT64_LE (data + size - 8, seq);
  GST_WRITE_UINT32_LE (data, STAMP_MAGIC);
  GST_WRITE_UINT32_LE (data + 4, 0);
  GST_WRITE_UINT64_LE (data + 8, seq);
  /* last: the time, as close to the push as can be */
  t = bench_realtime_ns ();
  GST_WRITE_UINT64_LE (data + 16, t);
  /* for frames whose header does not arrive */
  g_mutex_lock (&bench.lock);
  bench.sent_rt[seq % SENT_RING] = t;
  bench.sent_seq[seq % SENT_RING] = seq;
  bench.max_pushed = MAX (bench.max_pushed, seq + 1);
  g_mutex_unlock (&bench.lock);
}

static void
block_released (gpointer data)
{
  g_mutex_lock (&bench.lock);
  g_atomic_int_add ((gint *) data, -1);
  g_cond_broadcast (&bench.cond);
  g_mutex_unlock (&bench.lock);
}

/* Lossy transports: waits until the sender has let go of ring block @b
 * (a frame counts as done once a newer one is delivered, which does not
 * mean every sender thread is done with it). */
static gboolean
wait_block (guint b, gdouble timeout_s)
{
  gint64 end = g_get_monotonic_time () + (gint64) (timeout_s * 1e6);
  gboolean ok = TRUE;

  if (!bench.block_refs)
    return TRUE;
  g_mutex_lock (&bench.lock);
  while (g_atomic_int_get (&bench.block_refs[b]) > 0)
    if (!g_cond_wait_until (&bench.cond, &bench.lock, end)) {
      ok = g_atomic_int_get (&bench.block_refs[b]) == 0;
      break;
    }
  g_mutex_unlock (&bench.lock);
  return ok;
}

static gboolean
push_frame (GstAppSrc * src, guint8 * block, guint b, guint64 seq,
    GstClockTime duration)
{
  GstBuffer *buf;

  stamp_frame (block, bench.frame_size, seq);
  if (bench.block_refs) {
    g_atomic_int_inc (&bench.block_refs[b]);
    buf = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, block,
        bench.frame_size, 0, bench.frame_size, &bench.block_refs[b],
        block_released);
  } else {
    buf = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, block,
        bench.frame_size, 0, bench.frame_size, NULL, NULL);
  }
  GST_BUFFER_PTS (buf) = seq * duration;
  GST_BUFFER_DURATION (buf) = duration;
  return gst_app_src_push_buffer (src, buf) == GST_FLOW_OK;
}

static gboolean
push_any (GstElement * appsrc, guint8 ** blocks, guint n_blocks, guint64 seq,
    GstClockTime duration)
{
  guint b = seq % n_blocks;

  if (!appsrc) {
    raw_push (seq);
    return TRUE;
  }
  if (!wait_block (b, opt_timeout)) {
    g_printerr ("the sender still holds frame %" G_GUINT64_FORMAT " after "
        "%g s\n", seq - n_blocks, opt_timeout);
    return FALSE;
  }
  return push_frame (GST_APP_SRC (appsrc), blocks[b], b, seq, duration);
}

/* The kernel's UDP counters (/proc/net/snmp): datagrams dropped for a full
 * receive or send buffer, anywhere on the machine. */
typedef struct
{
  gint64 in_datagrams, in_errors, rcvbuf_errors, sndbuf_errors, out_datagrams;
} UdpSnmp;

static void
udp_snmp (UdpSnmp * u)
{
  gchar *contents = NULL, **lines, **names = NULL;
  guint i, j;

  memset (u, 0, sizeof (*u));
  if (!g_file_get_contents ("/proc/net/snmp", &contents, NULL, NULL))
    return;
  lines = g_strsplit (contents, "\n", -1);
  for (i = 0; lines[i]; i++) {
    gchar **f;

    if (!g_str_has_prefix (lines[i], "Udp: "))
      continue;
    f = g_strsplit (lines[i] + 5, " ", -1);
    if (!names) {
      names = f;
      continue;
    }
    for (j = 0; f[j] && names[j]; j++) {
      gint64 v = g_ascii_strtoll (f[j], NULL, 10);

      if (!strcmp (names[j], "InDatagrams"))
        u->in_datagrams = v;
      else if (!strcmp (names[j], "InErrors"))
        u->in_errors = v;
      else if (!strcmp (names[j], "RcvbufErrors"))
        u->rcvbuf_errors = v;
      else if (!strcmp (names[j], "SndbufErrors"))
        u->sndbuf_errors = v;
      else if (!strcmp (names[j], "OutDatagrams"))
        u->out_datagrams = v;
    }
    g_strfreev (f);
    break;
  }
  g_strfreev (names);
  g_strfreev (lines);
  g_free (contents);
}

/* The UDP counters of tilesink / tilesrc, at the start and the end of the
 * measurement. */
static const gchar *const udp_src_fields[] = {
  "packets-received", "packets-lost", "packets-late", "packets-invalid",
  "packets-duplicate", "packets-dropped", "frames-partial", "frames-timer",
  "frames-skipped", "frames-incomplete", "kernel-drops", "frames-received",
  "bytes-received", "packets-in-place", "packets-tampered",
  "frames-discarded", NULL
};

static const gchar *const udp_sink_fields[] = {
  "packets-sent", "bytes-sent", "frames-sent", "frames-dropped",
  "frames-unsent", "congestion-events", NULL
};

#define N_STATS 20

static void
stats_snapshot (GstElement * element, const gchar * const *fields, gint64 * out)
{
  GstStructure *st;
  guint i;

  for (i = 0; fields[i]; i++)
    out[i] = -1;
  st = bench_get_stats (element);
  if (!st)
    return;
  for (i = 0; fields[i]; i++) {
    const GValue *v = gst_structure_get_value (st, fields[i]);

    if (v && G_VALUE_HOLDS_UINT64 (v))
      out[i] = (gint64) g_value_get_uint64 (v);
    else if (v && G_VALUE_HOLDS_UINT (v))
      out[i] = g_value_get_uint (v);
    else if (v && G_VALUE_HOLDS_INT (v))
      out[i] = g_value_get_int (v);
  }
  gst_structure_free (st);
}

/* "name": {"field": end - start, ...} (null where the field is absent) */
static void
json_stats_delta (GString * s, const gchar * name,
    const gchar * const *fields, const gint64 * a, const gint64 * b)
{
  guint i;

  g_string_append_printf (s, ", \"%s\": {", name);
  for (i = 0; fields[i]; i++) {
    g_string_append_printf (s, "%s\"%s\": ", i ? ", " : "", fields[i]);
    if (a[i] < 0 || b[i] < 0)
      g_string_append (s, "null");
    else
      g_string_append_printf (s, "%" G_GINT64_FORMAT, b[i] - a[i]);
  }
  g_string_append (s, "}");
}

/* Whether measured frame @k is done with: delivered, or (lossy
 * transports, whose frames leave in order) a newer frame was. Lock held. */
static gboolean
frame_done_locked (guint64 k)
{
  if (bench.done[k] || bench.dropped[k])
    return TRUE;
  return bench.lossy && bench.have_last && bench.last_seq != G_MAXUINT64 &&
      bench.first_seq != G_MAXUINT64 && bench.last_seq > bench.first_seq + k;
}

/* tilesink drops a frame whole (max-in-flight, or over UDP the
 * receiver's window) with a QoS message carrying its PTS: that frame is
 * done, it will never come. Runs on the sink's streaming thread. */
static GstBusSyncReply
sender_sync_handler (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  GstClockTime ts;
  guint64 seq;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_QOS)
    return GST_BUS_PASS;
  gst_message_parse_qos (msg, NULL, NULL, NULL, &ts, NULL);
  if (!GST_CLOCK_TIME_IS_VALID (ts) || bench.duration == 0)
    return GST_BUS_DROP;
  seq = ts / bench.duration;
  g_mutex_lock (&bench.lock);
  if (bench.first_seq != G_MAXUINT64 && seq >= bench.first_seq &&
      seq - bench.first_seq < bench.n_slots) {
    bench.dropped[seq - bench.first_seq] = TRUE;
    g_cond_broadcast (&bench.cond);
  }
  g_mutex_unlock (&bench.lock);
  return GST_BUS_DROP;
}

/* Receiver pipelines: the appsink callbacks and the probes. */
static gboolean
setup_receiver (GstElement * receiver, GstElement ** appsink,
    GstElement ** src, gboolean rtp)
{
  GstAppSinkCallbacks callbacks = { 0, };
  GstPad *pad;

  *appsink = gst_bin_get_by_name (GST_BIN (receiver), "rsink");
  *src = gst_bin_get_by_name (GST_BIN (receiver), "rsrc");
  if (!*appsink || !*src)
    return FALSE;
  g_object_set (*appsink, "sync", FALSE, "enable-last-sample", FALSE,
      "max-buffers", 2, NULL);
  callbacks.new_sample = new_sample;
  callbacks.eos = appsink_eos;
  gst_app_sink_set_callbacks (GST_APP_SINK (*appsink), &callbacks, NULL, NULL);
  if (opt_tile_pool) {
    pad = gst_element_get_static_pad (*appsink, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
        allocation_probe, NULL, NULL);
    gst_object_unref (pad);
  }
  pad = gst_element_get_static_pad (*src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_probe,
      rtp ? GINT_TO_POINTER (1) : NULL, NULL);
  gst_object_unref (pad);
  return TRUE;
}

/* Waits until frame @seq has been delivered or @timeout_s pass. Frames are
 * delivered in order, so all before it are through too. Lock held. */
static gboolean
wait_seq_locked (guint64 seq, gdouble timeout_s)
{
  gint64 end = g_get_monotonic_time () + (gint64) (timeout_s * 1e6);

  while (!bench.have_last || bench.last_seq < seq)
    if (!g_cond_wait_until (&bench.cond, &bench.lock, end))
      break;
  return bench.have_last && bench.last_seq >= seq;
}

/* ------------------------------------------------------------------ */
/* The run: options, pipelines, warm-up, measurement, report */

/* The transport chosen and its pipelines */
typedef struct
{
  /* --transport, --protocol and --format */
  gboolean is_bc, tile, gdp, is_raw, rtp, udp, lossy;
  guint window, n_blocks, tail;
  gint max_in_flight;
  GstClockTime duration;
  /* -T rtp: the raw video the frames go as */
  const gchar *rtp_format;
  gint rtp_w, rtp_h;

  guint8 **blocks;              /* the sender's ring of frames */
  GstCaps *caps;
  GstElement *sender, *receiver, *sink, *src, *appsrc, *appsink;
  guint64 t0;                   /* the receiver's start */
} Run;

/* What the measurement found, beside bench's counters */
typedef struct
{
  guint64 seq;                  /* warm-up frames, then the first measured */
  guint64 n_meas, late, t_start, t_end;
  gboolean stalled, eos_ok;
  gint64 first_delivery_ms, drops_before;
  gint64 src_before[N_STATS], src_after[N_STATS];
  gint64 sink_before[N_STATS], sink_after[N_STATS];
  UdpSnmp snmp_before, snmp_after;
  guint64 rtp_before[3];
  struct rusage ru0, ru1;
  GArray *cpu_before, *cpu_after;
  CpuGroup groups[MAX_GROUPS];
  guint n_groups;
} Measurement;

/* The command line into @r: 0, or 2 on a bad one */
static gint
parse_options (gint * argc, gchar *** argv, Run * r)
{
  if (!bench_parse_options (argc, argv, entries, "- throughput, delivery "
          "latency and loss of tilesink/tilesrc (TCP and UDP), "
          "tcpserversink/tcpclientsrc and rtpvrawpay/rtpvrawdepay on "
          "127.0.0.1", NULL))
    return 2;
  gst_bc_init ();

  if (!opt_transport)
    opt_transport = g_strdup ("tile");
  if (!opt_format)
    opt_format = g_strdup ("BC1");
  if (!opt_flush)
    opt_flush = g_strdup ("stepped");
  if (!opt_protocol)
    opt_protocol = g_strdup ("tcp");
  if (!opt_gso)
    opt_gso = g_strdup ("auto");
  r->tile = strcmp (opt_transport, "tile") == 0;
  r->gdp = strcmp (opt_transport, "tcp-gdp") == 0;
  r->is_raw = strcmp (opt_transport, "raw") == 0;
  r->rtp = strcmp (opt_transport, "rtp") == 0;
  if (!r->tile && !r->gdp && !r->is_raw && !r->rtp
      && strcmp (opt_transport, "tcp")) {
    g_printerr ("Unknown --transport '%s'\n", opt_transport);
    return 2;
  }
  if (strcmp (opt_protocol, "tcp") && strcmp (opt_protocol, "udp")) {
    g_printerr ("--protocol must be tcp or udp\n");
    return 2;
  }
  if (strcmp (opt_gso, "auto") && strcmp (opt_gso, "on") &&
      strcmp (opt_gso, "off")) {
    g_printerr ("--gso must be auto, on or off\n");
    return 2;
  }
  r->udp = r->tile && strcmp (opt_protocol, "udp") == 0;
  if (opt_passphrase && !*opt_passphrase)
    g_clear_pointer (&opt_passphrase, g_free);
  if (opt_passphrase) {
    const gchar *c;

    if (!r->tile) {
      g_printerr ("--passphrase is for -T tile only\n");
      return 2;
    }
    /* it goes into gst_parse_launch() descriptions unquoted */
    for (c = opt_passphrase; *c; c++)
      if (!g_ascii_isalnum (*c) && *c != '_' && *c != '-') {
        g_printerr ("--passphrase may only hold letters, digits, '_' and "
            "'-'\n");
        return 2;
      }
  }
  r->lossy = r->udp || r->rtp;
  if (opt_packet_size < 1 || opt_max_bitrate < 0 || opt_rtp_mtu < 28 ||
      opt_tail < 0) {
    g_printerr ("Bad option value\n");
    return 2;
  }
  r->is_bc = g_ascii_strcasecmp (opt_format, "BC1") == 0;
  if (!r->is_bc && g_ascii_strcasecmp (opt_format, "RGB") != 0) {
    g_printerr ("--format must be BC1 or RGB\n");
    return 2;
  }
  if (opt_width < 16 || opt_height < 16 || opt_width % 4 || opt_height % 8 ||
      opt_frames < 1 || opt_window < 1 || opt_units < 1 || opt_units > 64 ||
      opt_chunk < 1 || opt_rate < 0 || opt_warmup < 1) {
    g_printerr ("Bad option value (width a multiple of 4, height of 8)\n");
    return 2;
  }
  r->window = (guint) opt_window;
  /* tilesink counts a frame in flight until its last unit thread is done
   * with it, which can be a little after the receiver has it: two more
   * than the window, so that the window alone limits the sender */
  r->max_in_flight = opt_max_in_flight > 0 ? opt_max_in_flight :
      MIN (opt_window + 2, 64);
  r->duration = GST_SECOND / 30;
  return 0;
}

/* bench's per-frame records and the sender's ring of frames */
static void
setup_bench (Run * r)
{
  guint i;

  bench.frame_size = r->is_bc ? (gsize) opt_width *opt_height / 2 :
      (gsize) opt_width *opt_height * 3;
  /* lossy transports: a few more frames after the measured ones, and two
   * more ring blocks, the sender's hold on them tracked */
  bench.lossy = r->lossy;
  r->tail = r->lossy ? (guint) opt_tail : 0;
  r->n_blocks = r->window + (r->lossy ? 2 : 0);
  bench.n_slots = (guint) opt_frames + r->tail;
  bench.done = g_new0 (gboolean, bench.n_slots);
  bench.dropped = g_new0 (gboolean, bench.n_slots);
  bench.duration = r->duration;
  if (r->lossy)
    bench.block_refs = g_new0 (gint, r->n_blocks);
  bench.recv_mono = g_new0 (guint64, bench.n_slots);
  bench.push_mono = g_new0 (guint64, bench.n_slots);
  bench.lat_inband = g_new (gint64, bench.n_slots);
  bench.lat_meta = g_new (gint64, bench.n_slots);
  bench.lat_first_tile = g_new (gint64, bench.n_slots);
  bench.lat_last_tile = g_new (gint64, bench.n_slots);
  for (i = 0; i < bench.n_slots; i++)
    bench.lat_inband[i] = bench.lat_meta[i] = bench.lat_first_tile[i] =
        bench.lat_last_tile[i] = -1;
  bench.first_seq = G_MAXUINT64;
  g_mutex_init (&bench.lock);
  g_cond_init (&bench.cond);
  tile_times_quark = g_quark_from_static_string ("bc-transport-bench-tiles");
  unix_ts_caps = gst_caps_new_empty_simple ("timestamp/x-unix");

  r->blocks = g_new0 (guint8 *, r->n_blocks);
  for (i = 0; i < r->n_blocks; i++) {
    r->blocks[i] = g_malloc (bench.frame_size);
    bench_fill_random (r->blocks[i], bench.frame_size,
        (i + 1) * 0x9E3779B97F4A7C15ull + 1);
  }
}

/* The @what ("sender" or "receiver") pipeline of @desc, or NULL */
static GstElement *
launch (const gchar * what, gchar * desc)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch_full (desc, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, &error);

  g_free (desc);
  if (!pipeline) {
    g_printerr ("%s pipeline: %s\n", what, error->message);
    g_clear_error (&error);
  }
  return pipeline;
}

/* Sets the @what pipeline to PLAYING; FALSE, with its errors, when it
 * does not start */
static gboolean
play (const gchar * what, GstElement * pipeline)
{
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE)
    return TRUE;
  poll_bus (pipeline);
  g_printerr ("the %s does not start\n", what);
  return FALSE;
}

/* The sender's appsrc "src" and sink "sink", the appsrc set up */
static void
setup_appsrc (Run * r)
{
  r->appsrc = gst_bin_get_by_name (GST_BIN (r->sender), "src");
  r->sink = gst_bin_get_by_name (GST_BIN (r->sender), "sink");
  g_object_set (r->appsrc, "caps", r->caps, "format", GST_FORMAT_TIME,
      "block", TRUE, "max-bytes", (guint64) bench.frame_size * (r->window + 1),
      NULL);
}

/* -T rtp: the receiver first (udpsrc picks the port), then the sender */
static gboolean
start_rtp (Run * r)
{
  guint port = 0;

  /* RFC 4175 raw video: frames of the same byte count. BC1 (width x
   * height / 2 bytes) goes as UYVY of width/2 x height/2 (2 bytes a
   * pixel, rows of exactly width bytes), RGB as itself. */
  r->rtp_format = r->is_bc ? "UYVY" : "RGB";
  r->rtp_w = r->is_bc ? opt_width / 2 : opt_width;
  r->rtp_h = r->is_bc ? opt_height / 2 : opt_height;
  r->caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      r->rtp_format, "width", G_TYPE_INT, r->rtp_w, "height", G_TYPE_INT,
      r->rtp_h, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);

  r->receiver = launch ("receiver", g_strdup_printf ("udpsrc name=rsrc "
          "address=127.0.0.1 port=0 buffer-size=%d caps=\"application/x-rtp, "
          "media=(string)video, clock-rate=(int)90000, "
          "encoding-name=(string)RAW, sampling=(string)%s, "
          "depth=(string)8, width=(string)%d, height=(string)%d, "
          "payload=(int)96\" ! rtpvrawdepay ! appsink name=rsink", opt_rcvbuf,
          r->is_bc ? "YCbCr-4:2:2" : "RGB", r->rtp_w, r->rtp_h));
  if (!r->receiver || !setup_receiver (r->receiver, &r->appsink, &r->src, TRUE))
    return FALSE;
  r->t0 = bench_mono_ns ();
  if (!play ("receiver", r->receiver))
    return FALSE;
  g_object_get (r->src, "port", &port, NULL);
  if (port == 0) {
    g_printerr ("udpsrc has no port\n");
    return FALSE;
  }

  r->sender = launch ("sender", g_strdup_printf ("appsrc name=src ! "
          "rtpvrawpay mtu=%d pt=96 ! udpsink name=sink host=127.0.0.1 "
          "port=%u sync=false async=false buffer-size=%d", opt_rtp_mtu, port,
          opt_sndbuf));
  if (!r->sender)
    return FALSE;
  setup_appsrc (r);
  return play ("sender", r->sender);
}

/* -T tile, tcp, tcp-gdp: the sender (appsrc ! tilesink or
 * tcpserversink); its port, or 0 */
static guint
start_sender (Run * r)
{
  gchar *desc;
  guint port = 0;

  r->caps = gst_caps_new_simple (r->is_bc ? "video/x-bc" : "video/x-raw",
      "format", G_TYPE_STRING, r->is_bc ? "BC1" : "RGB", "width", G_TYPE_INT,
      opt_width, "height", G_TYPE_INT, opt_height, "framerate",
      GST_TYPE_FRACTION, 30, 1, NULL);
  if (r->udp)
    desc = g_strdup_printf ("appsrc name=src ! tilesink name=sink "
        "host=127.0.0.1 port=0 units=%d protocol=udp packet-size=%d "
        "gso=%s pacing-bitrate=%" G_GINT64_FORMAT " rate-control=%s "
        "send-buffer-size=%d max-in-flight=%d%s%s", opt_units,
        opt_packet_size, opt_gso, opt_max_bitrate,
        opt_no_rate_control ? "false" : "true", opt_sndbuf, r->max_in_flight,
        opt_passphrase ? " passphrase=" : "",
        opt_passphrase ? opt_passphrase : "");
  else if (r->tile)
    desc = g_strdup_printf ("appsrc name=src ! tilesink name=sink "
        "host=127.0.0.1 port=0 units=%d chunk-size=%d "
        "send-buffer-size=%d max-in-flight=%d%s%s", opt_units, opt_chunk,
        opt_sndbuf, r->max_in_flight, opt_passphrase ? " passphrase=" : "",
        opt_passphrase ? opt_passphrase : "");
  else
    desc = g_strdup_printf ("appsrc name=src ! %s tcpserversink name=sink "
        "host=127.0.0.1 port=0 sync=false", r->gdp ? "gdppay !" : "");
  r->sender = launch ("sender", desc);
  if (!r->sender)
    return 0;
  setup_appsrc (r);
  if (r->tile) {
    GstBus *bus = gst_element_get_bus (r->sender);

    gst_bus_set_sync_handler (bus, sender_sync_handler, NULL, NULL);
    gst_object_unref (bus);
  }
  if (!play ("sender", r->sender))
    return 0;
  g_object_get (r->sink, r->tile ? "bound-port" : "current-port", &port, NULL);
  if (port == 0)
    g_printerr ("the sender has no port\n");
  return port;
}

/* -T tile, tcp, tcp-gdp: the receiver, connecting to @port */
static gboolean
start_receiver (Run * r, guint port)
{
  gchar *desc;

  if (r->tile) {
    gchar *extra = r->udp ? (opt_timer_factor >= 0 ?
        g_strdup_printf (" gro=%s timer-factor=%g", opt_gso,
            opt_timer_factor) : g_strdup_printf (" gro=%s", opt_gso)) :
        g_strdup ("");

    desc = g_strdup_printf ("tilesrc name=rsrc host=127.0.0.1 port=%u "
        "receive-buffer-size=%d stepped=%s timeout=%d%s%s%s ! appsink "
        "name=rsink", port, opt_rcvbuf,
        g_strcmp0 (opt_flush, "frame") ? "true" : "false",
        (gint) (opt_timeout * 1000), extra,
        opt_passphrase ? " passphrase=" : "",
        opt_passphrase ? opt_passphrase : "");
    g_free (extra);
  } else if (r->gdp)
    desc = g_strdup_printf ("tcpclientsrc name=rsrc host=127.0.0.1 port=%u "
        "! gdpdepay ! appsink name=rsink", port);
  else
    desc = g_strdup_printf ("tcpclientsrc name=rsrc host=127.0.0.1 port=%u "
        "! rawvideoparse use-sink-caps=false format=%s width=%d height=%d "
        "framerate=30/1 ! appsink name=rsink", port,
        r->is_bc ? "gray8" : "rgb", opt_width, r->is_bc ? opt_height / 2 :
        opt_height);
  r->receiver = launch ("receiver", desc);
  if (!r->receiver || !setup_receiver (r->receiver, &r->appsink, &r->src,
          FALSE))
    return FALSE;

  r->t0 = bench_mono_ns ();
  return play ("receiver", r->receiver);
}

/* tcpserversink sends nothing to a client it has not added yet */
static gboolean
wait_client (Run * r)
{
  guint64 deadline = r->t0 + (guint64) (opt_timeout * GST_SECOND);
  gint handles = 0;

  while (TRUE) {
    g_object_get (r->sink, "num-handles", &handles, NULL);
    if (handles > 0)
      return TRUE;
    if (bench_mono_ns () > deadline) {
      g_printerr ("the receiver did not connect\n");
      return FALSE;
    }
    g_usleep (2000);
  }
}

/* Both ends of the transport, connected */
static gboolean
start (Run * r)
{
  guint port;

  if (r->is_raw) {
    r->t0 = bench_mono_ns ();
    return raw_start ((guint) opt_units, opt_chunk, opt_sndbuf, opt_rcvbuf,
        r->blocks, r->window);
  }
  if (r->rtp)
    return start_rtp (r);
  port = start_sender (r);
  if (port == 0 || !start_receiver (r, port))
    return FALSE;
  return r->tile || wait_client (r);
}

/* tilesink's frames not sent (no receiver yet) or dropped */
static gint64
frames_not_sent (Run * r)
{
  return MAX (stats_int (r->sink, "frames-unsent"), 0) +
      MAX (stats_int (r->sink, "frames-dropped"), 0);
}

/* warm-up: frames one at a time until opt_warmup have been delivered.
 * The first one also carries the caps, which tilesink needs before a
 * receiver can connect: frames before that are not sent (unsent), and
 * are not waited for. Only one frame at a time, so that no frame is
 * still queued somewhere when the measurement starts. A lossy transport
 * may lose a frame, or complete an incomplete one only when a newer one
 * starts: at most 0.3 s per frame there, and the warm-up ends with a
 * frame delivered. */
static gboolean
warm_up (Run * r, Measurement * m)
{
  guint64 deadline = r->t0 + (guint64) (opt_timeout * GST_SECOND);

  while (TRUE) {
    gboolean done;
    gint64 not_sent = 0;
    guint64 frame_end;

    g_mutex_lock (&bench.lock);
    done = bench.delivered >= (guint64) opt_warmup && (!r->lossy ||
        (m->seq > 0 && bench.have_last && bench.last_seq == m->seq - 1));
    g_mutex_unlock (&bench.lock);
    if (done)
      break;
    poll_bus (r->sender);
    poll_bus (r->receiver);
    if (first_error || bench_mono_ns () > deadline) {
      g_printerr ("no frames delivered during the warm-up%s\n",
          first_error ? "" : " (timeout)");
      return FALSE;
    }
    if (r->tile)
      not_sent = frames_not_sent (r);
    if (!push_any (r->appsrc, r->blocks, r->n_blocks, m->seq, r->duration)) {
      g_printerr ("push failed during the warm-up\n");
      return FALSE;
    }
    frame_end = r->lossy ? bench_mono_ns () + 300 * GST_MSECOND : deadline;
    g_mutex_lock (&bench.lock);
    while (!bench.have_last || bench.last_seq < m->seq) {
      g_cond_wait_until (&bench.cond, &bench.lock,
          g_get_monotonic_time () + 2000);
      if (bench_mono_ns () > MIN (deadline, frame_end))
        break;
      if (r->tile) {
        gint64 now_not_sent;

        g_mutex_unlock (&bench.lock);
        now_not_sent = frames_not_sent (r);
        g_mutex_lock (&bench.lock);
        if (now_not_sent > not_sent)
          break;
      }
    }
    g_mutex_unlock (&bench.lock);
    m->seq++;
  }
  /* nothing of the warm-up may still be on its way */
  g_mutex_lock (&bench.lock);
  if (!wait_seq_locked (m->seq - 1, opt_timeout)) {
    g_mutex_unlock (&bench.lock);
    g_printerr ("the last warm-up frame was not delivered\n");
    return FALSE;
  }
  m->first_delivery_ms = (gint64) ((bench.first_delivery_mono - r->t0) /
      1000000);
  bench.first_seq = m->seq;
  g_mutex_unlock (&bench.lock);
  return TRUE;
}

/* The counters at the start of the measurement */
static void
snapshot_before (Run * r, Measurement * m)
{
  if (r->tile)
    m->drops_before = MAX (stats_int (r->sink, "frames-dropped"), 0);
  stats_snapshot (r->tile ? r->src : NULL, udp_src_fields, m->src_before);
  g_mutex_lock (&bench.lock);
  m->rtp_before[0] = bench.rtp_packets;
  m->rtp_before[1] = bench.rtp_gaps;
  m->rtp_before[2] = bench.rtp_reordered;
  g_mutex_unlock (&bench.lock);
  stats_snapshot (r->tile ? r->sink : NULL, udp_sink_fields, m->sink_before);
  udp_snmp (&m->snmp_before);
  m->cpu_before = thread_cpu_snapshot ();
  getrusage (RUSAGE_SELF, &m->ru0);
}

/* The window before frame @pushed: frame pushed - window must have been
 * delivered, or a frame dropped by tilesink in the meantime (a dropped
 * frame is never sent, so its block is free), or (lossy transports) a
 * newer frame delivered. FALSE, with a message, when it stalls. */
static gboolean
wait_window (Run * r, Measurement * m, guint64 pushed, guint64 * drops_seen)
{
  gint64 end;

  if (pushed < r->window)
    return TRUE;
  end = g_get_monotonic_time () + (gint64) (opt_timeout * 1e6);
  g_mutex_lock (&bench.lock);
  while (!frame_done_locked (pushed - r->window)) {
    gint64 step = g_get_monotonic_time () + 20000;

    if (g_cond_wait_until (&bench.cond, &bench.lock, MIN (step, end)))
      continue;
    if (r->tile) {
      gint64 dropped;

      g_mutex_unlock (&bench.lock);
      dropped = stats_int (r->sink, "frames-dropped");
      g_mutex_lock (&bench.lock);
      if (dropped - m->drops_before > (gint64) * drops_seen) {
        (*drops_seen)++;
        break;
      }
    }
    if (g_get_monotonic_time () >= end)
      break;
  }
  if (!frame_done_locked (pushed - r->window) && g_get_monotonic_time () >= end) {
    g_mutex_unlock (&bench.lock);
    g_printerr ("frame %" G_GUINT64_FORMAT " not delivered after %g s: "
        "stalled\n", pushed - r->window, opt_timeout);
    return FALSE;
  }
  g_mutex_unlock (&bench.lock);
  return TRUE;
}

/* The measured frames, then (lossy transports) the tail: at --rate, or as
 * fast as the window allows */
static void
push_frames (Run * r, Measurement * m)
{
  guint64 period = opt_rate > 0 ? (guint64) (GST_SECOND / opt_rate) : 0;
  guint64 pushed, drops_seen = 0;

  m->t_start = bench_mono_ns ();
  m->n_meas = G_MAXUINT64;
  for (pushed = 0;; pushed++) {
    guint64 now = bench_mono_ns (), due;

    if (m->n_meas == G_MAXUINT64 && (pushed >= (guint64) opt_frames ||
            (opt_seconds > 0 && now - m->t_start >= opt_seconds * GST_SECOND)))
      m->n_meas = pushed;
    if (m->n_meas != G_MAXUINT64 && pushed >= m->n_meas + r->tail)
      break;
    if (period) {
      due = m->t_start + pushed * period;
      if (now < due)
        sleep_until_mono (due);
      else if (now > due + period && m->n_meas == G_MAXUINT64)
        m->late++;
    }
    if (!wait_window (r, m, pushed, &drops_seen)) {
      m->stalled = TRUE;
      break;
    }
    bench.push_mono[pushed] = bench_mono_ns ();
    if (!push_any (r->appsrc, r->blocks, r->n_blocks, m->seq + pushed,
            r->duration)) {
      g_printerr ("push failed\n");
      break;
    }
    if ((pushed & 15) == 0) {
      poll_bus (r->sender);
      poll_bus (r->receiver);
      if (first_error)
        break;
    }
  }
  if (m->n_meas == G_MAXUINT64)
    m->n_meas = pushed;
}

/* the last measured frames (less the ones tilesink dropped; lossy
 * transports: until the last one or a newer one is delivered) */
static void
wait_measured (Run * r, Measurement * m)
{
  gint64 end = g_get_monotonic_time () + (gint64) (opt_timeout * 1e6);
  guint64 n_meas = m->n_meas;

  g_mutex_lock (&bench.lock);
  while (!m->stalled && n_meas > 0 && g_get_monotonic_time () < end) {
    guint64 k, got = 0;

    if (r->lossy && frame_done_locked (n_meas - 1))
      break;
    /* (tilesink's drops are known by their QoS messages: its counter
     * moves before the message is posted) */
    for (k = 0; k < n_meas; k++)
      got += bench.done[k] || bench.dropped[k];
    if (got >= n_meas)
      break;
    g_cond_wait_until (&bench.cond, &bench.lock,
        MIN (g_get_monotonic_time () + 20000, end));
  }
  if (r->lossy && !m->stalled && n_meas > 0 && !frame_done_locked (n_meas - 1)) {
    g_printerr ("frame %" G_GUINT64_FORMAT " not delivered after %g s: "
        "stalled\n", n_meas - 1, opt_timeout);
    m->stalled = TRUE;
  }
  g_mutex_unlock (&bench.lock);
}

/* The counters at the end of the measurement, then EOS */
static void
snapshot_after (Run * r, Measurement * m)
{
  m->t_end = bench_mono_ns ();
  getrusage (RUSAGE_SELF, &m->ru1);
  m->cpu_after = thread_cpu_snapshot ();
  m->n_groups = thread_cpu_groups (m->cpu_before, m->cpu_after, m->groups,
      MAX_GROUPS);
  udp_snmp (&m->snmp_after);
  /* a stalled tilesrc may hold its lock for good: not asked again */
  stats_snapshot (r->tile && !m->stalled ? r->src : NULL, udp_src_fields,
      m->src_after);
  stats_snapshot (r->tile ? r->sink : NULL, udp_sink_fields, m->sink_after);
  poll_bus (r->sender);
  poll_bus (r->receiver);

  /* EOS travels to the receiver (tilesink sends it on its control
   * connection; tcpserversink does not tell its clients) */
  if (r->appsrc)
    gst_app_src_end_of_stream (GST_APP_SRC (r->appsrc));
  if (r->tile && !m->stalled) {
    gint64 end = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;

    g_mutex_lock (&bench.lock);
    while (!bench.eos)
      if (!g_cond_wait_until (&bench.cond, &bench.lock, end))
        break;
    m->eos_ok = bench.eos;
    g_mutex_unlock (&bench.lock);
  }
}

/* The report: what was run */
static void
report_config (GString * out, Run * r, Measurement * m)
{
  g_string_append (out, "\"transport\": ");
  bench_json_string (out, opt_transport);
  g_string_append (out, ", \"format\": ");
  bench_json_string (out, r->is_bc ? "BC1" : "RGB");
  g_string_append_printf (out, ", \"width\": %d, \"height\": %d, "
      "\"frame_bytes\": %" G_GSIZE_FORMAT ", \"rate\": %g, \"window\": %u",
      opt_width, opt_height, bench.frame_size, opt_rate, r->window);
  if (r->tile)
    g_string_append_printf (out, ", \"units\": %d, \"chunk_size\": %d, "
        "\"send_buffer_size\": %d, \"receive_buffer_size\": %d, "
        "\"max_in_flight\": %d, \"flush\": \"%s\", \"tile_pool\": %s",
        opt_units, opt_chunk, opt_sndbuf, opt_rcvbuf, r->max_in_flight,
        opt_flush, opt_tile_pool ? "true" : "false");
  if (r->tile)
    /* sealed: tilesink's own word that its session is encrypted (-1 when
     * it does not say) */
    g_string_append_printf (out, ", \"protocol\": \"%s\", "
        "\"passphrase\": %s, \"sealed\": %" G_GINT64_FORMAT, opt_protocol,
        opt_passphrase ? "true" : "false", stats_int (r->sink, "sealed"));
  /* tilesink's datagram: its 40-byte header, the payload and, sealed, the
   * 16-byte AES-GCM tag */
  if (r->udp)
    g_string_append_printf (out, ", \"packet_size\": %d, \"datagram\": %d, "
        "\"gso\": \"%s\", \"max_bitrate\": %" G_GINT64_FORMAT
        ", \"timer_factor\": %g, \"gso_used\": %" G_GINT64_FORMAT,
        opt_packet_size, opt_packet_size + UDP_HEADER_BYTES +
        (opt_passphrase ? UDP_TAG_BYTES : 0), opt_gso, opt_max_bitrate,
        opt_timer_factor, stats_int (r->sink, "gso"));
  if (r->rtp)
    g_string_append_printf (out, ", \"units\": 1, \"rtp_caps\": "
        "\"video/x-raw,format=%s,width=%d,height=%d\", \"rtp_mtu\": %d, "
        "\"datagram\": %d, \"send_buffer_size\": %d, "
        "\"receive_buffer_size\": %d", r->rtp_format, r->rtp_w, r->rtp_h,
        opt_rtp_mtu, opt_rtp_mtu, opt_sndbuf, opt_rcvbuf);
  else if (r->tile);
  else if (r->is_raw)
    g_string_append_printf (out, ", \"units\": %d, \"chunk_size\": %d, "
        "\"send_buffer_size\": %d, \"receive_buffer_size\": %d", opt_units,
        opt_chunk, opt_sndbuf, opt_rcvbuf);
  else
    g_string_append (out, ", \"units\": 1");
  g_string_append_printf (out, ", \"first_delivery_ms\": %" G_GINT64_FORMAT
      ", \"warmup_frames\": %" G_GUINT64_FORMAT, m->first_delivery_ms, m->seq);
}

/* The report: throughput of the @n_recv frames delivered between @first
 * and @last (CLOCK_MONOTONIC ns) */
static void
report_throughput (GString * out, Run * r, guint n_recv, guint64 first,
    guint64 last)
{
  /* between the first and the last delivery: no start-up, no tail */
  if (n_recv >= 2 && last > first) {
    gdouble s = (last - first) / 1e9;
    gdouble frames = n_recv - 1;

    g_string_append_printf (out, ", \"fps\": %.3f, \"gbit_s\": %.4f",
        frames / s, frames * bench.frame_size * 8 / s / 1e9);
    /* less the bytes a loss meta says did not arrive */
    if (r->lossy)
      g_string_append_printf (out, ", \"gbit_s_good\": %.4f",
          frames * bench.frame_size * 8 / s / 1e9 * (1.0 -
              (gdouble) bench.lost_bytes / ((gdouble) n_recv *
                  bench.frame_size)));
  } else {
    g_string_append (out, ", \"fps\": null, \"gbit_s\": null");
  }
  /* from the first push to the last delivery */
  if (n_recv >= 1 && last > bench.push_mono[0]) {
    gdouble s = (last - bench.push_mono[0]) / 1e9;

    g_string_append_printf (out, ", \"gbit_s_e2e\": %.4f",
        n_recv * (gdouble) bench.frame_size * 8 / s / 1e9);
  }
}

/* The report: the latency percentiles of the @n measured frames */
static void
report_latency (GString * out, guint64 n)
{
  g_string_append (out, ", \"latency_ms\": {");
  json_percentiles (out, "inband", bench.lat_inband, n, opt_rate > 0);
  g_string_append (out, ", ");
  json_percentiles (out, "meta", bench.lat_meta, n, FALSE);
  g_string_append (out, ", ");
  json_percentiles (out, "first_tile", bench.lat_first_tile, n, FALSE);
  g_string_append (out, ", ");
  json_percentiles (out, "last_tile", bench.lat_last_tile, n, FALSE);
  g_string_append (out, "}");
}

/* The report: losses of the lossy transports (UDP) */
static void
report_loss (GString * out, Run * r, Measurement * m, guint n_recv)
{
  if (r->lossy) {
    g_string_append_printf (out, ", \"tail_frames\": %u, "
        "\"frames_corrupted\": %" G_GUINT64_FORMAT ", \"frames_loss_meta\": %"
        G_GUINT64_FORMAT ", \"lost_bytes\": %" G_GUINT64_FORMAT
        ", \"lost_fraction\": %.6g, \"header_lost\": %" G_GUINT64_FORMAT
        ", \"stamps_checked\": %" G_GUINT64_FORMAT ", \"stamps_skipped\": %"
        G_GUINT64_FORMAT, r->tail, bench.corrupted, bench.loss_meta,
        bench.lost_bytes, n_recv ? (gdouble) bench.lost_bytes /
        ((gdouble) n_recv * bench.frame_size) : 0.0, bench.header_lost,
        bench.checked_stamps, bench.skipped_stamps);
    g_string_append_printf (out, ", \"udp_snmp\": {\"InDatagrams\": %"
        G_GINT64_FORMAT ", \"OutDatagrams\": %" G_GINT64_FORMAT
        ", \"InErrors\": %" G_GINT64_FORMAT ", \"RcvbufErrors\": %"
        G_GINT64_FORMAT ", \"SndbufErrors\": %" G_GINT64_FORMAT "}",
        m->snmp_after.in_datagrams - m->snmp_before.in_datagrams,
        m->snmp_after.out_datagrams - m->snmp_before.out_datagrams,
        m->snmp_after.in_errors - m->snmp_before.in_errors,
        m->snmp_after.rcvbuf_errors - m->snmp_before.rcvbuf_errors,
        m->snmp_after.sndbuf_errors - m->snmp_before.sndbuf_errors);
  }
  if (r->rtp)
    g_string_append_printf (out, ", \"rtp_packets\": %" G_GUINT64_FORMAT
        ", \"rtp_packets_lost\": %" G_GUINT64_FORMAT ", \"rtp_reordered\": %"
        G_GUINT64_FORMAT, bench.rtp_packets - m->rtp_before[0],
        bench.rtp_gaps - m->rtp_before[1],
        bench.rtp_reordered - m->rtp_before[2]);
}

/* The report: the measured frames (bench's lock held); the wall seconds */
static gdouble
report_frames (GString * out, Run * r, Measurement * m)
{
  guint64 first = 0, last = 0, n_dropped = 0, pushed = m->n_meas, i;
  guint n_recv = 0;
  gdouble wall_s;

  for (i = 0; i < pushed && i < bench.n_slots; i++) {
    if (!bench.done[i]) {
      n_dropped += bench.dropped[i];
      continue;
    }
    if (!n_recv || bench.recv_mono[i] < first)
      first = bench.recv_mono[i];
    if (!n_recv || bench.recv_mono[i] > last)
      last = bench.recv_mono[i];
    n_recv++;
  }
  wall_s = (m->t_end - m->t_start) / 1e9;
  g_string_append_printf (out, ", \"pushed\": %" G_GUINT64_FORMAT
      ", \"delivered\": %u, \"sender_dropped\": %" G_GUINT64_FORMAT
      ", \"lost\": %" G_GUINT64_FORMAT
      ", \"late_pushes\": %" G_GUINT64_FORMAT ", \"bad_stamps\": %"
      G_GUINT64_FORMAT ", \"foreign_buffers\": %" G_GUINT64_FORMAT
      ", \"out_of_order\": %" G_GUINT64_FORMAT ", \"stalled\": %s"
      ", \"eos_delivered\": %s, \"seconds\": %.4f",
      pushed, n_recv, n_dropped, pushed - n_recv - n_dropped, m->late,
      bench.bad_stamps, bench.foreign, bench.out_of_order,
      m->stalled ? "true" : "false", r->tile ? (m->eos_ok ? "true" : "false")
      : "null", wall_s);
  report_throughput (out, r, n_recv, first, last);
  report_latency (out, MIN (pushed, bench.n_slots));
  g_string_append_printf (out, ", \"source_buffers\": %" G_GUINT64_FORMAT
      ", \"source_bytes\": %" G_GUINT64_FORMAT, bench.src_buffers,
      bench.src_bytes);
  report_loss (out, r, m, n_recv);
  return wall_s;
}

/* The report: CPU time over @wall_s seconds, by thread group */
static void
report_cpu (GString * out, Measurement * m, gdouble wall_s)
{
  gdouble cpu_s;
  guint i;

  cpu_s = (m->ru1.ru_utime.tv_sec - m->ru0.ru_utime.tv_sec) +
      (m->ru1.ru_utime.tv_usec - m->ru0.ru_utime.tv_usec) / 1e6 +
      (m->ru1.ru_stime.tv_sec - m->ru0.ru_stime.tv_sec) +
      (m->ru1.ru_stime.tv_usec - m->ru0.ru_stime.tv_usec) / 1e6;
  g_string_append_printf (out, ", \"cpu_seconds\": %.3f, \"cpu_cores\": %.3f",
      cpu_s, wall_s > 0 ? cpu_s / wall_s : 0.0);
  g_string_append (out, ", \"thread_cpu_seconds\": {");
  for (i = 0; i < m->n_groups; i++) {
    g_string_append (out, i ? ", " : "");
    bench_json_string (out, m->groups[i].name);
    g_string_append_printf (out, ": %.3f", m->groups[i].seconds);
  }
  g_string_append (out, "}");
}

/* The report: the sending and receiving elements' own statistics */
static void
report_elements (GString * out, Run * r, Measurement * m)
{
  gboolean stalled = m->stalled;

  if (r->tile) {
    g_string_append_printf (out, ", \"frames_dropped\": %" G_GINT64_FORMAT
        ", \"frames_unsent\": %" G_GINT64_FORMAT ", \"send_buffer_granted\": %"
        G_GINT64_FORMAT ", \"receive_buffer_granted\": %" G_GINT64_FORMAT
        ", \"frames_incomplete\": %" G_GINT64_FORMAT ", \"tiles_stepped\": %"
        G_GINT64_FORMAT, stats_int (r->sink, "frames-dropped"),
        stats_int (r->sink, "frames-unsent"),
        stats_int (r->sink, "send-buffer-granted"),
        stalled ? -1 : stats_int (r->src, "receive-buffer-granted"),
        stalled ? -1 : stats_int (r->src, "frames-incomplete"),
        stalled ? -1 : stats_int (r->src, "tiles-stepped"));
    json_stats (out, "sink_stats", r->sink);
    json_stats (out, "src_stats", stalled ? NULL : r->src);
    if (r->udp) {
      json_stats_delta (out, "src_udp", udp_src_fields, m->src_before,
          m->src_after);
      json_stats_delta (out, "sink_udp", udp_sink_fields, m->sink_before,
          m->sink_after);
    }
  } else if (r->sink && !r->rtp) {
    guint64 served = 0;

    g_object_get (r->sink, "bytes-served", &served, NULL);
    g_string_append_printf (out, ", \"bytes_served\": %" G_GUINT64_FORMAT,
        served);
  }
}

/* Prints the JSON object; returns the exit status */
static gint
report (Run * r, Measurement * m)
{
  GString *out = g_string_new ("{");
  gdouble wall_s;

  report_config (out, r, m);
  g_mutex_lock (&bench.lock);
  wall_s = report_frames (out, r, m);
  g_mutex_unlock (&bench.lock);
  report_cpu (out, m, wall_s);
  report_elements (out, r, m);
  g_string_append (out, ", \"error\": ");
  bench_json_string (out, first_error);
  g_string_append (out, ", \"warning\": ");
  bench_json_string (out, first_warning);
  g_string_append (out, "}\n");
  fputs (out->str, stdout);
  fflush (stdout);
  g_string_free (out, TRUE);
  return first_error || bench.measured == 0 ? 1 : 0;
}

static void
cleanup (Run * r, Measurement * m)
{
  guint i;

  if (r->is_raw)
    raw_stop ();
  if (r->receiver)
    gst_element_set_state (r->receiver, GST_STATE_NULL);
  if (r->sender)
    gst_element_set_state (r->sender, GST_STATE_NULL);
  gst_clear_object (&r->appsrc);
  gst_clear_object (&r->appsink);
  gst_clear_object (&r->sink);
  gst_clear_object (&r->src);
  gst_clear_object (&r->receiver);
  gst_clear_object (&r->sender);
  gst_clear_caps (&r->caps);
  gst_clear_caps (&unix_ts_caps);
  if (m->cpu_before)
    g_array_unref (m->cpu_before);
  if (m->cpu_after)
    g_array_unref (m->cpu_after);
  if (r->blocks) {
    for (i = 0; i < r->n_blocks; i++)
      g_free (r->blocks[i]);
    g_free (r->blocks);
  }
  g_free (bench.recv_mono);
  g_free (bench.done);
  g_free (bench.dropped);
  g_free (bench.block_refs);
  g_free (bench.push_mono);
  g_free (bench.lat_inband);
  g_free (bench.lat_meta);
  g_free (bench.lat_first_tile);
  g_free (bench.lat_last_tile);
  if (bench.n_slots) {
    g_mutex_clear (&bench.lock);
    g_cond_clear (&bench.cond);
  }
  g_free (first_error);
  g_free (first_warning);
  g_free (opt_transport);
  g_free (opt_format);
  g_free (opt_flush);
  g_free (opt_protocol);
  g_free (opt_gso);
  g_free (opt_passphrase);
}

gint
main (gint argc, gchar ** argv)
{
  Run r = { 0, };
  Measurement m = { 0, };
  gint ret;

  ret = parse_options (&argc, &argv, &r);
  if (ret == 0) {
    ret = 1;
    setup_bench (&r);
    if (start (&r) && warm_up (&r, &m)) {
      snapshot_before (&r, &m);
      push_frames (&r, &m);
      wait_measured (&r, &m);
      snapshot_after (&r, &m);
      ret = report (&r, &m);
      if (m.stalled && r.lossy) {
        /* the receiver may be stuck for good (a thread spinning on its
         * lock): tearing the pipelines down could hang */
        fflush (stderr);
        _exit (ret ? ret : 1);
      }
    }
  }
  cleanup (&r, &m);
  gst_deinit ();
  return ret;
}
