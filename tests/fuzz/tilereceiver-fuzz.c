/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* libFuzzer target for the receiver's state machine: libgsttile's real
 * GstTileReceiver (what tilesrc runs) against a sender played by this
 * harness on 127.0.0.1, with real sockets, driven by the input. Built and
 * run by run.sh; its seeds come from receiver_seeds.py, which describes
 * the input format in more words.
 *
 * An input is two setting bytes, then operations, each an opcode byte (its
 * value modulo N_OPS) and the operand bytes it reads (zeros past the end):
 *
 *   byte 0: 0x01 passphrase (the receiver has one; the AUTH operation plays
 *           the sender's CPace CHALLENGE and AUTH, then the control
 *           messages both ways are sealed records, and tiles and
 *           datagrams are sealed with the session's data keys),
 *           0x02 buffers carry a GstBcTileMeta, 0x04 statistics every 20 ms,
 *           0x08 every fourth buffer acquire fails (no buffer, or one
 *           too small), 0x10 UDP receive
 *           offload, 0x20 stepped off, 0x40 the consumer stops pulling at
 *           the first ERROR or EOS (else it goes on), 0x80 a slow pool
 *           (every buffer acquire takes 10 ms, as a downstream pool with
 *           no buffer free blocks)
 *   byte 1: bits 0-1 the UDP timer factor (1.5, 0.25, 4, 1000), 0x04
 *           reconnect on, 0x08 the consumer does not keep UDP frames for
 *           concealment, 0x10 a receive buffer of 64 MiB asked for (the
 *           kernel grants less: a warning), 0x20 retransmit off (the
 *           receiver sends no NACKs; on, tilesrc's default, it asks for
 *           the datagrams it misses)
 *
 * The operations (OP_*, run_op ()): send a CONFIG (TCP or UDP, 1 to 4
 * units, small GRAY8 or BC1 frames, maybe caps that do not describe them
 * or caps from the input), do the passphrase handshake (right, wrong, or
 * half), accept the TCP units or answer the UDP units' hellos (or refuse
 * them), send whole frames, one unit's tile (in parts, abandoned, cut
 * short, lying, tampered), runs of datagrams (lost, far ahead, near 2^64,
 * wrong token, generation or unit, tampered, short, repeated), raw bytes
 * on any connection or socket, KEEPALIVE, EOS, REFUSE, any control
 * message, close or reset a connection, flush, wait, sleep, and accept
 * the receiver's next control connection (reconnect).
 *
 * Each input starts a receiver (timeout 300 ms), accepts its control
 * connection and reads its HELLO; a consumer thread pulls frames (and
 * starts every new generation) the way tilesrc does. At the end the
 * consumer is flushed out, the receiver stopped and freed. Findings: a
 * crash or sanitizer report, a leak, a hang (libFuzzer's -timeout), a
 * critical or warning from GLib or GStreamer, a new quark, a file
 * descriptor left open, and these checks (abort):
 *   - a frame pulled has the frame size of the caps of its generation, its
 *     frame number grows within a generation, its loss ranges lie inside
 *     it and only a frame with gaps has them, and (stepped, with a tile
 *     meta) a whole frame has every tile reported complete;
 *   - nothing is pulled after an ERROR that ended the session (without
 *     reconnect), and no frame after EOS but in a new generation (after
 *     an ERROR of one unit, frames the others complete may still come:
 *     the session goes on; tilesrc stops at the first ERROR);
 *   - every message the receiver sends parses (HELLO with the passphrase
 *     flag of its settings, AUTH with a valid share and a proof that is
 *     right exactly when our passphrase is, ACK, STATS, KEEPALIVE,
 *     REFUSE), sealed records open once the receiver took our AUTH, it
 *     never answers an invalid share, and every UNIT_HELLO parses and, in
 *     a sealed session, carries the receiver's MAC.
 * The whole input is bounded in time: at most MAX_OPS operations within
 * OPS_BUDGET_MS, each wait short; then stopping takes at most about the
 * receiver's timeout.
 *
 * It found two races in join_units_locked () (stop () or a new generation
 * while the control thread ended the session: a double join, or a NULL
 * CONFIG; fixed in 9b23812): seed-regress-* in the corpus. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/bc/bcformat.h>
#include <gst/bc/bclossmeta.h>
#include <gst/bc/bctilemeta.h>
#include <gst/bc/bctiling.h>
#include <gst/tile/tilenet.h>
#include <gst/tile/tilereceiver.h>
#include <gst/tile/tileseal.h>
#include <gst/tile/tilekeys.h>
#include <gst/tile/tilepake.h>
#include <gst/tile/tilestats.h>
#include <gst/tile/tilewire.h>
/* the session's state, for the check after an ERROR (consumer ()) */
#include "tilereceiver-private.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

#define MAX_UNITS 4             /* units a CONFIG of this harness asks for */
#define MAX_OPS 96
#define OPS_BUDGET_MS 700       /* the operations stop then */
#define TIMEOUT_MS 300          /* the receiver's */
#define MAX_FRAME 65536         /* check_config's max-frame-size */
#define MAX_DATAGRAMS 4096      /* per input */
#define MAX_SENT (2 << 20)      /* bytes per input */
#define PASSPHRASE "fuzz passphrase"

enum
{
  OP_CONFIG, OP_AUTH, OP_ACCEPT, OP_ECHO, OP_FRAME, OP_TILE, OP_DGRAM,
  OP_KEEPALIVE, OP_EOS, OP_WAIT, OP_SLEEP, OP_RAW_CTL, OP_CTL_MSG, OP_REFUSE,
  OP_TILE_RAW, OP_DGRAM_RAW, OP_CLOSE_UNIT, OP_CLOSE_CTL, OP_FLUSH,
  OP_READ_CTL, OP_RECONNECT, OP_STATS, N_OPS
};

/* ---- new quarks are findings (see tilewire-fuzz.c) ---- */

#define FUZZ_TARGET "tilereceiver-fuzz"
#include "fuzz-quark.h"

static gboolean verbose;

#define CHECK(cond, ...) G_STMT_START { \
  if (G_UNLIKELY (!(cond))) { \
    fprintf (stderr, "tilereceiver-fuzz: check failed: %s: ", #cond); \
    fprintf (stderr, __VA_ARGS__); \
    fprintf (stderr, "\n"); \
    abort (); \
  } \
} G_STMT_END

/* ---- the input ---- */

typedef struct
{
  const guint8 *p;
  gsize n, i;
} Reader;

static guint8
rd8 (Reader * r)
{
  return r->i < r->n ? r->p[r->i++] : 0;
}

static guint16
rd16 (Reader * r)
{
  guint16 v = rd8 (r) << 8;

  return v | rd8 (r);
}

/* up to @len bytes of the input (fewer at its end) */
static const guint8 *
rdbytes (Reader * r, gsize * len)
{
  const guint8 *p = r->p + r->i;

  *len = MIN (*len, r->n - r->i);
  r->i += *len;
  return p;
}

/* ---- one input's state ---- */

typedef struct
{
  /* settings */
  gboolean passphrase, tile_meta, stats, failing_pool, gro, stepped;
  gboolean slow_pool;
  gboolean stop_at_end, reconnect, keep_last, big_rcvbuf, retransmit;
  gdouble timer_factor;

  GstTileReceiver *rx;
  gint listen_fd, udp_fd, ctl;
  gint other_fd;                /* UDP, on 127.0.0.2: another host */
  guint port;
  GByteArray *ctl_in;           /* what the receiver sent, not parsed yet */
  gboolean ctl_eof;
  GstTileWireHello hello;       /* the receiver's */
  gboolean have_hello;
  guint auths;
  /* on this control connection: a CHALLENGE of op_auth () was sent, or
   * control bytes from the input (one may be a CHALLENGE): the receiver
   * answers the first CHALLENGE only */
  gboolean challenged, ctl_raw;

  /* the CONFIG last sent (the units of the receiver use it once it has
   * started that generation) */
  gboolean have_config;
  GstTileWireConfig config;
  gboolean sent_udp_config;     /* a UDP CONFIG was sent (NACKs may come) */
  guint nacks;                  /* NACKs the receiver sent */
  guint32 generation;
  guint64 next_frame;
  gint unit_fd[MAX_UNITS];
  guint64 unit_frame[MAX_UNITS];        /* next frame of a TCP unit */
  struct sockaddr_storage unit_addr[MAX_UNITS];
  socklen_t unit_len[MAX_UNITS];

  /* sealing, once the handshake gave keys: the data (tiles, datagrams),
   * and the control records both ways (records_in only once the receiver
   * took our AUTH: it seals what it sends from then on) */
  gboolean sealed;
  GstTileKeys keys;
  GstTileSeal *seal;
  GstTileRecords *records_out, *records_in;

  gint64 start, deadline;
  guint datagrams;
  gsize sent;

  /* the consumer thread: lock and cond guard what follows */
  GThread *consumer;
  GMutex lock;
  GCond cond;
  gboolean ending;
  gboolean flushing;
  guint frames;
  gboolean seen_error, seen_eos;
  gchar *error;                 /* the first, for TILERECEIVER_FUZZ_VERBOSE */
  gboolean eos_last;            /* EOS came out, and no NEW_CAPS since */
  gboolean ended;               /* an ERROR came out after the session ended */
  gsize frame_size;             /* of the generation started last */
  gboolean have_last;
  guint64 last_frame;
  gint acquires;
  gint tiles_completed;
} Harness;

/* ---- the element's part: tilesrc's callbacks ---- */

/* The frame size and frame duration @caps describe, and their tiling into
 * @n_units: gst_tile_tiling_for_caps() of gst/tile. */
static gboolean
caps_tiling (const gchar * str, guint n_units, GstBcTiling * tiling,
    gsize * size, GstClockTime * duration)
{
  GstCaps *caps = gst_caps_from_string (str);
  GstStructure *s;
  gint fps_n = 0, fps_d = 1;
  gboolean ok = FALSE;

  if (!caps || !gst_caps_is_fixed (caps))
    goto out;
  s = gst_caps_get_structure (caps, 0);
  if (gst_structure_has_name (s, "video/x-bc")) {
    GstBcInfo info;

    if (!gst_bc_info_from_caps (&info, caps) ||
        !gst_bc_tiling_init_for_info (tiling, &info, n_units))
      goto out;
    fps_n = info.fps_n;
    fps_d = info.fps_d;
  } else if (gst_structure_has_name (s, "video/x-raw")) {
    GstVideoInfo info;
    guint rows;

    if (!gst_video_info_from_caps (&info, caps) || info.size == 0)
      goto out;
    rows = GST_VIDEO_INFO_HEIGHT (&info);
    if (rows == 0 || info.size % rows != 0)
      rows = 1;
    if (!gst_bc_tiling_init (tiling, rows, info.size / rows, n_units))
      goto out;
    fps_n = GST_VIDEO_INFO_FPS_N (&info);
    fps_d = GST_VIDEO_INFO_FPS_D (&info);
  } else {
    goto out;
  }
  *size = (gsize) tiling->n_rows * tiling->row_bytes;
  *duration = fps_n > 0 && fps_d > 0 ?
      gst_util_uint64_scale_int (GST_SECOND, fps_d, fps_n) :
      GST_CLOCK_TIME_NONE;
  ok = *size > 0 && *size <= GST_TILE_WIRE_MAX_FRAME_SIZE;
out:
  if (caps)
    gst_caps_unref (caps);
  return ok;
}

static void
tile_complete (GstBuffer * buffer, GstBcTileMeta * meta, const GstBcTile * tile,
    gpointer user_data)
{
  Harness *h = user_data;

  g_atomic_int_inc (&h->tiles_completed);
}

static GstBuffer *
acquire_buffer (gpointer user_data)
{
  Harness *h = user_data;
  GstBuffer *buf;
  gsize size;
  gint n = g_atomic_int_add (&h->acquires, 1);

  if (h->slow_pool)
    g_usleep (10 * 1000);
  if (h->failing_pool && n % 8 == 3)
    return NULL;
  g_mutex_lock (&h->lock);
  size = h->frame_size;
  g_mutex_unlock (&h->lock);
  if (h->failing_pool && n % 8 == 7)
    size--;                     /* too small: the receiver refuses it */
  /* a pool's buffer of the caps last negotiated: too small for a CONFIG
   * that was never negotiated (the receiver must refuse it) */
  buf = gst_buffer_new_allocate (NULL, MAX (size, 1), NULL);
  if (h->tile_meta)
    gst_buffer_add_bc_tile_meta (buf, tile_complete, h, NULL);
  return buf;
}

static GstClockTime
clock_time (gpointer user_data)
{
  return gst_util_get_timestamp ();
}

/* tilesrc's check_config () */
static gboolean
check_config (gpointer user_data, const GstTileWireConfig * config,
    GError ** error)
{
  GstBcTiling tiling;
  GstClockTime duration;
  gsize size = 0;

  if (config->frame_size > MAX_FRAME) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_OVERSIZED,
        "frames of %" G_GUINT64_FORMAT " bytes", config->frame_size);
    return FALSE;
  }
  if (!caps_tiling (config->caps, config->n_units, &tiling, &size, &duration)
      || size != config->frame_size) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "the caps do not describe the frames");
    return FALSE;
  }
  return TRUE;
}

static void
post_stats (gpointer user_data, GstStructure * stats)
{
  gst_structure_free (stats);
}

static void
buffer_warning (gpointer user_data, gint granted, gint asked)
{
}

static const GstTileReceiverCallbacks callbacks = {
  acquire_buffer, clock_time, check_config, post_stats, buffer_warning
};

/* ---- the consumer: tilesrc's create () ---- */


static void
check_frame (Harness * h, GstTileReceiverFrame * f)
{
  GstBcLossMeta *loss = gst_buffer_get_bc_loss_meta (f->buffer);
  GstBcTileMeta *meta = gst_buffer_get_bc_tile_meta (f->buffer);
  gsize size = gst_buffer_get_size (f->buffer);
  gboolean corrupted = GST_BUFFER_FLAG_IS_SET (f->buffer,
      GST_BUFFER_FLAG_CORRUPTED);
  guint i;

  g_mutex_lock (&h->lock);
  /* (after an ERROR frames may still come: a unit's error leaves the
   * others and the session running, and frames complete before it are
   * still pulled; the element stops at the first ERROR) */
  CHECK (!h->eos_last, "frame %" G_GUINT64_FORMAT " after EOS", f->frame);
  CHECK (!h->ended, "frame %" G_GUINT64_FORMAT " after the ERROR that ended "
      "the session", f->frame);
  CHECK (size == h->frame_size, "frame %" G_GUINT64_FORMAT " of %"
      G_GSIZE_FORMAT " bytes, the caps say %" G_GSIZE_FORMAT, f->frame, size,
      h->frame_size);
  CHECK (!h->have_last || f->frame > h->last_frame, "frame %" G_GUINT64_FORMAT
      " after frame %" G_GUINT64_FORMAT, f->frame, h->last_frame);
  h->have_last = TRUE;
  h->last_frame = f->frame;
  CHECK (GST_CLOCK_TIME_IS_VALID (f->complete_time), "no complete time");
  /* whatever capture times the wire says, a frame is never presented far
   * in the future, nor stamped from long ago */
  CHECK (GST_CLOCK_TIME_IS_VALID (f->capture_time) &&
      GST_CLOCK_TIME_IS_VALID (f->reference_time) &&
      f->capture_time <= f->reference_time + 50 * GST_MSECOND &&
      f->reference_time - MIN (f->reference_time, f->capture_time) <=
      10 * GST_SECOND, "frame %" G_GUINT64_FORMAT " captured at %"
      G_GUINT64_FORMAT ", taken out at %" G_GUINT64_FORMAT, f->frame,
      f->capture_time, f->reference_time);
  CHECK (!f->drop || (f->late && h->reconnect), "a frame to drop that is "
      "not late, or without drop-late");
  if (loss) {
    CHECK (f->udp && corrupted, "a loss meta on a whole frame");
    for (i = 0; i < loss->n_ranges; i++)
      CHECK (loss->ranges[i].size > 0 && loss->ranges[i].offset <= size &&
          loss->ranges[i].size <= size - loss->ranges[i].offset,
          "loss range %" G_GUINT64_FORMAT "+%" G_GUINT64_FORMAT " of %"
          G_GSIZE_FORMAT, (guint64) loss->ranges[i].offset,
          (guint64) loss->ranges[i].size, size);
  } else {
    CHECK (!corrupted, "a corrupted frame without a loss meta");
  }
  if (meta && h->stepped && !corrupted)
    CHECK (gst_bc_tile_meta_get_n_complete (meta) ==
        gst_bc_tile_meta_get_n_tiles (meta), "frame %" G_GUINT64_FORMAT
        " whole with %u of %u tiles reported", f->frame,
        gst_bc_tile_meta_get_n_complete (meta),
        gst_bc_tile_meta_get_n_tiles (meta));
  h->frames++;
  g_cond_broadcast (&h->cond);
  g_mutex_unlock (&h->lock);
}

static gpointer
consumer (gpointer data)
{
  Harness *h = data;

  while (TRUE) {
    GstTileReceiverFrame f;
    GError *err = NULL;
    gchar *caps = NULL;
    GstTileReceiverResult r = gst_tile_receiver_pull (h->rx, &f, &caps, &err);

    switch (r) {
      case GST_TILE_RECEIVER_FRAME:
        CHECK (f.buffer != NULL, "FRAME without a buffer");
        check_frame (h, &f);
        if (f.udp && h->keep_last)
          gst_tile_receiver_keep_last (h->rx, f.buffer);
        gst_buffer_unref (f.buffer);
        break;
      case GST_TILE_RECEIVER_NEW_CAPS:{
        GstBcTiling tiling;
        GstClockTime duration = GST_CLOCK_TIME_NONE;
        gsize size = 0;

        CHECK (caps != NULL, "NEW_CAPS without caps");
        CHECK (!h->ended, "NEW_CAPS after the ERROR that ended the session");
        /* check_config () accepted them */
        CHECK (caps_tiling (caps, 1, &tiling, &size, &duration),
            "NEW_CAPS with caps check_config refused: %s", caps);
        g_free (caps);
        g_mutex_lock (&h->lock);
        h->frame_size = size;
        h->eos_last = FALSE;
        h->have_last = FALSE;
        g_mutex_unlock (&h->lock);
        gst_tile_receiver_start_generation (h->rx, duration);
        break;
      }
      case GST_TILE_RECEIVER_EOS:
      case GST_TILE_RECEIVER_ERROR:
        g_mutex_lock (&h->lock);
        if (r == GST_TILE_RECEIVER_EOS) {
          h->seen_eos = TRUE;
          h->eos_last = TRUE;
        } else {
          CHECK (err != NULL, "ERROR without an error");
          h->seen_error = TRUE;
          if (!h->error)
            h->error = g_strdup (err->message);
          /* a session that ended (its teardown cleared both CONFIGs) does
           * not come back without reconnect: nothing may follow */
          g_mutex_lock (&h->rx->lock);
          if (!h->reconnect && !h->rx->config && !h->rx->pending)
            h->ended = TRUE;
          g_mutex_unlock (&h->rx->lock);
        }
        g_cond_broadcast (&h->cond);
        if (h->stop_at_end) {
          /* GstBaseSrc: the task pauses, the element stops later */
          while (!h->ending)
            g_cond_wait (&h->cond, &h->lock);
          g_mutex_unlock (&h->lock);
          g_clear_error (&err);
          return NULL;
        }
        if (r == GST_TILE_RECEIVER_EOS)
          /* pull says EOS at once until a CONFIG comes: no busy loop */
          g_cond_wait_until (&h->cond, &h->lock,
              g_get_monotonic_time () + 2000);
        g_mutex_unlock (&h->lock);
        g_clear_error (&err);
        break;
      case GST_TILE_RECEIVER_FLUSHING:
        g_mutex_lock (&h->lock);
        if (h->ending) {
          g_mutex_unlock (&h->lock);
          return NULL;
        }
        /* until the flush ends (pull would return at once) */
        while (h->flushing && !h->ending)
          g_cond_wait (&h->cond, &h->lock);
        g_mutex_unlock (&h->lock);
        break;
      default:
        CHECK (FALSE, "pull returned %d", r);
    }
  }
  return NULL;
}

/* ---- the sender's sockets ---- */

static gint
remaining_ms (Harness * h, gint want)
{
  gint64 left = (h->deadline - g_get_monotonic_time ()) / 1000;

  return (gint) CLAMP (left, 0, want);
}

/* Writes all of @len bytes, waiting a little when the socket is full. */
static gboolean
send_all (Harness * h, gint fd, const guint8 * data, gsize len)
{
  gsize done = 0;

  if (fd < 0 || h->sent + len > MAX_SENT)
    return FALSE;
  h->sent += len;
  while (done < len) {
    gssize n = send (fd, data + done, len - done, MSG_DONTWAIT | MSG_NOSIGNAL);

    if (n > 0) {
      done += n;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      struct pollfd p = { fd, POLLOUT, 0 };

      if (poll (&p, 1, MIN (20, remaining_ms (h, 20))) <= 0)
        return FALSE;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return FALSE;
    }
  }
  return TRUE;
}

/* A message on @fd; on the control connection of a sealed session, as a
 * sealed record. */
static void
send_message (Harness * h, gint fd, GByteArray * m)
{
  if (fd == h->ctl && h->records_out)
    gst_tile_records_seal (h->records_out, m);
  send_all (h, fd, m->data, m->len);
  g_byte_array_set_size (m, 0);
}

static void
send_datagram_from (Harness * h, gint fd, guint unit, const guint8 * data,
    gsize len)
{
  if (fd < 0 || unit >= MAX_UNITS || h->unit_len[unit] == 0
      || h->datagrams >= MAX_DATAGRAMS)
    return;
  h->datagrams++;
  gst_tile_net_udp_send_to (fd, data, len,
      (struct sockaddr *) &h->unit_addr[unit], h->unit_len[unit]);
}

static void
send_datagram (Harness * h, guint unit, const guint8 * data, gsize len)
{
  send_datagram_from (h, h->udp_fd, unit, data, len);
}

static void
close_fd (gint * fd, guint how)
{
  if (*fd < 0)
    return;
  if (how == 1) {
    /* a reset */
    struct linger l = { 1, 0 };

    setsockopt (*fd, SOL_SOCKET, SO_LINGER, &l, sizeof (l));
  } else if (how == 2) {
    /* the end of what we send, the socket stays */
    shutdown (*fd, SHUT_WR);
    return;
  }
  close (*fd);
  *fd = -1;
}

/* Checks one message the receiver sent on its control connection. */
static void
check_receiver_message (Harness * h, const GstTileWireHeader * hdr,
    const guint8 * payload)
{
  GError *err = NULL;
  guint len = hdr->payload_len;

  switch (hdr->type) {
    case GST_TILE_WIRE_TYPE_HELLO:{
      GstTileWireHello hello;

      CHECK (!h->have_hello, "a second HELLO");
      CHECK (gst_tile_wire_hello_parse (payload, len, &hello, &err), "%s",
          err->message);
      CHECK (!!(hello.flags & GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE) ==
          h->passphrase, "HELLO flags %x", hello.flags);
      /* (the harness's receiver asks for no region) */
      CHECK (!(hello.flags & GST_TILE_WIRE_HELLO_FLAG_REGION),
          "HELLO flags %x", hello.flags);
      h->hello = hello;
      h->have_hello = TRUE;
      break;
    }
    case GST_TILE_WIRE_TYPE_AUTH:{
      GstTileWireAuth auth;

      CHECK (gst_tile_wire_auth_parse (payload, len, &auth, &err), "%s",
          err->message);
      break;
    }
    case GST_TILE_WIRE_TYPE_ACK:{
      GstTileWireAck ack;

      CHECK (gst_tile_wire_ack_parse (payload, len, &ack, &err), "%s",
          err->message);
      break;
    }
    case GST_TILE_WIRE_TYPE_STATS:{
      GstStructure *s = NULL;

      CHECK (gst_tile_wire_stats_parse (payload, len, &s, &err), "%s",
          err->message);
      gst_structure_free (s);
      break;
    }
    case GST_TILE_WIRE_TYPE_KEEPALIVE:{
      guint64 t;

      CHECK (gst_tile_wire_keepalive_parse (payload, len, &t, &err), "%s",
          err->message);
      break;
    }
    case GST_TILE_WIRE_TYPE_TIME:{
      GstTileWireTime t;

      /* a query of the sender's clock: a time of the receiver's, none of
       * ours */
      CHECK (gst_tile_wire_time_parse (payload, len, &t, &err), "%s",
          err->message);
      CHECK (t.remote_time == GST_CLOCK_TIME_NONE, "a TIME query with a "
          "remote time");
      /* answered from a clock that started at 1 us with the harness: the
       * frames' capture times (3000 + frame ns) are then believable */
      if (h->ctl >= 0) {
        GByteArray *m = g_byte_array_new ();

        t.remote_time = (g_get_monotonic_time () - h->start) * 1000 + 1000;
        gst_tile_wire_time_pack (&t, m);
        send_message (h, h->ctl, m);
        g_byte_array_unref (m);
      }
      break;
    }
    case GST_TILE_WIRE_TYPE_NACK:{
      GstTileWireNack nack;

      /* only with retransmit on, of a UDP generation, and a message the
       * parser takes (ranges in order, inside the limits); whether its
       * frame and datagrams are missing is the sender's check (the
       * harness's CONFIGs may reuse a generation, so it cannot tell) */
      CHECK (h->retransmit, "a NACK with retransmit off");
      CHECK (h->sent_udp_config, "a NACK before any UDP CONFIG");
      CHECK (gst_tile_wire_nack_parse (payload, len, &nack, &err), "%s",
          err->message);
      h->nacks++;
      break;
    }
    case GST_TILE_WIRE_TYPE_REFUSE:{
      GstTileWireRefuse *refuse = g_new0 (GstTileWireRefuse, 1);

      CHECK (gst_tile_wire_refuse_parse (payload, len, refuse, &err), "%s",
          err->message);
      g_free (refuse);
      break;
    }
    default:
      CHECK (FALSE, "the receiver sent %s on its control connection",
          gst_tile_wire_type_get_name (hdr->type));
  }
}

/* Reads what the receiver sent (waiting up to @wait_ms for something when
 * nothing is there) and checks its messages; with @want, returns the
 * first message of that type (its payload in @out) and leaves the rest. */
static gboolean
ctl_pump (Harness * h, gint wait_ms, GstTileWireType want, GByteArray * out)
{
  gint64 end = g_get_monotonic_time () + (gint64) wait_ms * 1000;

  while (h->ctl >= 0) {
    guint8 buf[4096];
    gssize n;

    /* the complete messages first */
    while (h->ctl_in->len >= GST_TILE_WIRE_HEADER_SIZE) {
      GstTileWireHeader hdr;
      GError *err = NULL;
      GByteArray *payload;
      guint total;

      CHECK (gst_tile_wire_header_parse (h->ctl_in->data,
              h->ctl_in->len, &hdr, &err) == GST_TILE_WIRE_PARSE_OK,
          "the receiver sent a bad header: %s", err ? err->message : "");
      total = GST_TILE_WIRE_HEADER_SIZE + hdr.payload_len;
      if (h->ctl_in->len < total)
        break;
      payload = g_byte_array_new ();
      g_byte_array_append (payload, h->ctl_in->data +
          GST_TILE_WIRE_HEADER_SIZE, hdr.payload_len);
      /* sealed: every message the receiver sends opens */
      if (h->records_in) {
        GstTileWireHeader outer = hdr;

        CHECK (gst_tile_records_open (h->records_in, &outer, payload, &hdr,
                &err), "the receiver sent a record that does not open: %s",
            err ? err->message : "");
      }
      check_receiver_message (h, &hdr, payload->data);
      if (want && hdr.type == want) {
        g_byte_array_set_size (out, 0);
        g_byte_array_append (out, payload->data, payload->len);
        g_byte_array_unref (payload);
        g_byte_array_remove_range (h->ctl_in, 0, total);
        return TRUE;
      }
      g_byte_array_unref (payload);
      g_byte_array_remove_range (h->ctl_in, 0, total);
      if (want && hdr.type == GST_TILE_WIRE_TYPE_REFUSE)
        return FALSE;
    }
    if (h->ctl_eof)
      return FALSE;
    n = recv (h->ctl, buf, sizeof (buf), MSG_DONTWAIT);
    if (n > 0) {
      g_byte_array_append (h->ctl_in, buf, n);
      continue;
    }
    if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
      h->ctl_eof = TRUE;
      return FALSE;
    }
    {
      gint64 left = (end - g_get_monotonic_time ()) / 1000;
      struct pollfd p = { h->ctl, POLLIN, 0 };

      left = MIN (left, remaining_ms (h, (gint) MAX (left, 0)));
      if (left <= 0 || poll (&p, 1, (gint) left) <= 0)
        return FALSE;
    }
  }
  return FALSE;
}

/* A unit's data connection: its UNIT_HELLO is checked, the connection
 * kept as that unit's. */
static guint
adopt_unit (Harness * h, gint fd, const GByteArray * m)
{
  GstTileWireUnitHello uh;

  CHECK (gst_tile_wire_unit_hello_parse (m->data, m->len, &uh, NULL),
      "UNIT_HELLO");
  CHECK (uh.unit < MAX_UNITS, "UNIT_HELLO of unit %u", uh.unit);
  CHECK (!h->records_in || gst_tile_keys_unit_mac_check (h->keys.unit_c2s,
          GST_TILE_KEYS_UNIT_HELLO, &uh), "a sealed session's UNIT_HELLO "
      "without its MAC");
  close_fd (&h->unit_fd[uh.unit], 0);
  h->unit_fd[uh.unit] = fd;
  h->unit_frame[uh.unit] = h->next_frame;
  return uh.unit;
}

/* A new control connection (the first, or a reconnect) and its HELLO; the
 * units' connections that come first are kept. */
static gboolean
accept_control (Harness * h, gint wait_ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) wait_ms * 1000;
  GByteArray *m = g_byte_array_new ();
  GstTileWireHeader hdr;
  gint fd = -1;

  while (TRUE) {
    struct pollfd p = { h->listen_fd, POLLIN, 0 };
    gint left = remaining_ms (h, (gint) MAX (0,
            (end - g_get_monotonic_time ()) / 1000));

    if (poll (&p, 1, left) <= 0)
      break;
    fd = gst_tile_net_accept (h->listen_fd, NULL);
    if (fd < 0)
      break;
    if (!gst_tile_net_read_message (fd, MAX (remaining_ms (h, 200), 10), &hdr,
            m, NULL)) {
      close (fd);
      fd = -1;
      continue;
    }
    if (hdr.type == GST_TILE_WIRE_TYPE_HELLO)
      break;
    if (hdr.type == GST_TILE_WIRE_TYPE_UNIT_HELLO)
      adopt_unit (h, fd, m);
    else
      close (fd);
    fd = -1;
  }
  if (fd >= 0) {
    close_fd (&h->ctl, 0);
    h->ctl = fd;
    h->ctl_eof = FALSE;
    g_byte_array_set_size (h->ctl_in, 0);
    h->have_hello = FALSE;
    h->sealed = FALSE;
    g_clear_pointer (&h->records_out, gst_tile_records_free);
    g_clear_pointer (&h->records_in, gst_tile_records_free);
    h->challenged = h->ctl_raw = FALSE;
    check_receiver_message (h, &hdr, m->data);
  }
  g_byte_array_unref (m);
  return fd >= 0;
}

/* ---- what the sender sends ---- */

/* A frame number near the next one, far ahead, or near the top. */
static guint64
pick_frame (Harness * h, guint8 b)
{
  if (b < 128) {
    gint64 f = (gint64) MIN (h->next_frame, (guint64) G_MAXINT64) + (b % 8) - 2;

    return f < 0 ? 0 : (guint64) f;
  }
  if (b < 224)
    return h->next_frame + (guint64) (b - 128) * 3;
  return G_MAXUINT64 - (b - 224);
}

/* A frame near the next one moves it on; one far ahead is a stray. */
static void
sent_frame (Harness * h, guint64 f)
{
  if (f >= h->next_frame && f - h->next_frame < 8)
    h->next_frame = f + 1;
}

static void
fill (guint8 * data, gsize len, guint64 frame, guint8 seed)
{
  gsize i;

  for (i = 0; i < len; i++)
    data[i] = (guint8) (seed + frame * 31 + i);
}

/* OP_CONFIG: a CONFIG for small frames of raw GRAY8 or BC1. */
static void
op_config (Harness * h, Reader * r)
{
  guint8 a = rd8 (r), b = rd8 (r), c = rd8 (r), d = rd8 (r), e = rd8 (r);
  guint8 g = rd8 (r);
  GstTileWireConfig *config = g_new0 (GstTileWireConfig, 1);
  GByteArray *m = g_byte_array_new ();
  static const gchar *const rates[] = { "", ", framerate=(fraction)1000/1",
    ", framerate=(fraction)30/1", ", framerate=(fraction)0/1"
  };
  guint n_units = 1 + ((a >> 1) & 3), w, ht, kind = (a >> 3) & 3;
  GstBcTiling tiling;
  GstClockTime duration;
  gsize size;
  gchar *caps;
  gsize raw_len = 0;
  const guint8 *raw = NULL;

  if (kind == 3) {
    w = 4 * (1 + (b & 31));
    ht = 4 * (1 + (c & 7));
    caps = g_strdup_printf ("video/x-bc, format=(string)BC1, width=(int)%u, "
        "height=(int)%u%s", w, ht, rates[a >> 6]);
  } else {
    w = 4 * (1 + (b & 63));
    ht = 1 + (c & 63);
    if (kind == 2) {
      /* caps from the input: the size comes from the GRAY8 ones */
      raw_len = rd8 (r) & 127;
      raw = rdbytes (r, &raw_len);
    }
    caps = g_strdup_printf ("video/x-raw, format=(string)GRAY8, width=(int)%u,"
        " height=(int)%u%s", w, ht, rates[a >> 6]);
  }
  if (!caps_tiling (caps, n_units, &tiling, &size, &duration))
    goto out;
  if (a & 0x20) {
    /* a frame size the caps do not describe */
    tiling.row_bytes += 4;
    if (!gst_bc_tiling_init (&tiling, tiling.n_rows, tiling.row_bytes, n_units))
      goto out;
  }
  if (!gst_tile_wire_config_set_tiling (config, &tiling, NULL))
    goto out;
  if (raw) {
    gchar *text = g_strndup ((const gchar *) raw, raw_len);

    if (!text[0] || !gst_tile_wire_config_set_caps (config, text, NULL))
      gst_tile_wire_config_set_caps (config, caps, NULL);
    g_free (text);
  } else {
    gst_tile_wire_config_set_caps (config, caps, NULL);
  }
  config->token = 42 + (d >> 6);
  config->generation = g ? g : h->generation + 1;
  config->n_units = n_units;
  config->protocol = c & 0x80 ? GST_TILE_WIRE_PROTOCOL_UDP :
      GST_TILE_WIRE_PROTOCOL_TCP;
  config->chunk_size = 65536;
  config->packet_size = config->protocol == GST_TILE_WIRE_PROTOCOL_UDP ?
      (e & 0x40 ? 1 + (e & 63) : 4 + (guint) (e & 63) * 4) : 0;
  if (!gst_tile_wire_config_pack (config, m, NULL))
    goto out;
  send_message (h, h->ctl, m);
  h->config = *config;
  h->have_config = TRUE;
  if (config->protocol == GST_TILE_WIRE_PROTOCOL_UDP)
    h->sent_udp_config = TRUE;
  h->generation = config->generation;
  if (d & 0x10)
    h->next_frame = 0;          /* a sender that counts from 0 again */
  {
    guint i;

    /* a sender ends a TCP generation by closing its units; the units of
     * the next one come from new sockets */
    for (i = 0; i < MAX_UNITS; i++) {
      if (!(d & 0x20))
        close_fd (&h->unit_fd[i], 0);
      h->unit_len[i] = 0;
      h->unit_frame[i] = h->next_frame;
    }
  }
out:
  g_byte_array_unref (m);
  g_free (config);
  g_free (caps);
}

/* OP_AUTH: the sender's CHALLENGE (CPace, the sender the initiator; its
 * share from the right passphrase, another one, or an invalid element),
 * the receiver's AUTH (its proof checked), the sender's AUTH (right or
 * wrong), and the session's keys. */
static void
op_auth (Harness * h, Reader * r)
{
  static const guint8 identity[GST_TILE_WIRE_SHARE_SIZE] = { 0 };
  guint8 a = rd8 (r), sid[2 * GST_TILE_SEAL_NONCE_SIZE];
  guint8 isk[GST_TILE_PAKE_ISK_SIZE], th[GST_TILE_KEYS_HASH_SIZE];
  const gchar *passphrase = (a & 3) < 2 ? PASSPHRASE : "another one";
  GstTileWireChallenge ch;
  GstTileWireAuth auth;
  GstTilePake pake;
  GByteArray *m = g_byte_array_new ();
  gboolean first, agreed;

  if (h->auths++ >= 2 || !h->have_hello)
    goto out;
  memset (ch.nonce, a, sizeof (ch.nonce));
  ch.nonce[0] = rd8 (r);
  memcpy (sid, h->hello.nonce, GST_TILE_SEAL_NONCE_SIZE);
  memcpy (sid + GST_TILE_SEAL_NONCE_SIZE, ch.nonce, GST_TILE_SEAL_NONCE_SIZE);
  CHECK (gst_tile_pake_start (&pake, (const guint8 *) passphrase,
          strlen (passphrase), (const guint8 *) GST_TILE_KEYS_CPACE_CI,
          strlen (GST_TILE_KEYS_CPACE_CI), sid, sizeof (sid), NULL), "CPace");
  memcpy (ch.share, (a & 0x20) ? identity : gst_tile_pake_share (&pake),
      sizeof (ch.share));
  gst_tile_wire_challenge_pack (&ch, m);
  send_message (h, h->ctl, m);
  first = !h->challenged && !h->ctl_raw;
  h->challenged = TRUE;
  if (a & 0x04 || !ctl_pump (h, 400, GST_TILE_WIRE_TYPE_AUTH, m)) {
    gst_tile_pake_clear (&pake);
    goto out;                   /* (and then nothing, or it gave up) */
  }
  CHECK (!(a & 0x20) || !first, "the receiver answered an invalid share");
  CHECK (gst_tile_wire_auth_parse (m->data, m->len, &auth, NULL), "AUTH");
  agreed = gst_tile_pake_finish (&pake, TRUE, NULL, 0, auth.share, NULL, 0,
      sid, sizeof (sid), isk);
  CHECK (agreed || !first, "the receiver's CPace share is invalid");
  if (agreed) {
    gst_tile_keys_transcript (&h->hello, &ch, auth.share, th);
    gst_tile_keys_derive (isk, sizeof (isk), th, &h->keys);
  }
  /* the receiver knows the passphrase when it has one: its proof is
   * right exactly when ours is */
  if (agreed && h->passphrase && first)
    CHECK ((memcmp (auth.proof, h->keys.client_proof, 32) == 0) ==
        ((a & 3) < 2), "the receiver's proof is %s",
        (a & 3) < 2 ? "wrong" : "right for another passphrase");
  memcpy (auth.share, ch.share, sizeof (auth.share));
  memcpy (auth.proof, h->keys.sender_proof, sizeof (auth.proof));
  if (a & 0x08)
    auth.proof[a % GST_TILE_WIRE_PROOF_SIZE] ^= 0x20;
  g_byte_array_set_size (m, 0);
  gst_tile_wire_auth_pack (&auth, m);
  send_message (h, h->ctl, m);
  g_clear_pointer (&h->records_out, gst_tile_records_free);
  g_clear_pointer (&h->records_in, gst_tile_records_free);
  h->sealed = agreed && !(a & 0x10);    /* or a sender that then sends in the
                                         * clear */
  if (h->sealed)
    h->records_out = gst_tile_records_new (TRUE, h->keys.s2c);
  /* the receiver seals from now on when it took our AUTH */
  if (agreed && first && h->passphrase && (a & 3) < 2 && !(a & 0x08))
    h->records_in = gst_tile_records_new (FALSE, h->keys.c2s);
out:
  g_byte_array_unref (m);
}

/* OP_ACCEPT: the data connections of the TCP units and their UNIT_HELLO;
 * one of them refused, closed or greeted with garbage. */
static void
op_accept (Harness * h, Reader * r)
{
  guint8 a = rd8 (r);
  gint64 end = g_get_monotonic_time () + (gint64) (a & 31) * 4000;
  guint action = a >> 5, accepted = 0;
  GByteArray *m = g_byte_array_new ();

  while (TRUE) {
    struct pollfd p = { h->listen_fd, POLLIN, 0 };
    gint64 left = (end - g_get_monotonic_time ()) / 1000;
    GstTileWireHeader hdr;
    guint i, have = 0;
    gint fd;

    for (i = 0; i < MAX_UNITS; i++)
      have += h->unit_fd[i] >= 0;
    if (h->have_config && have >= h->config.n_tiles && accepted > 0)
      break;
    if (poll (&p, 1, remaining_ms (h, (gint) MAX (left, 0))) <= 0)
      break;
    fd = gst_tile_net_accept (h->listen_fd, NULL);
    if (fd < 0)
      break;
    accepted++;
    if (!gst_tile_net_read_message (fd, MAX (remaining_ms (h, 100), 10), &hdr,
            m, NULL) || hdr.type != GST_TILE_WIRE_TYPE_UNIT_HELLO) {
      /* (a reconnect: the receiver's next control connection) */
      close (fd);
      continue;
    }
    if (accepted == 1 && action == 4) {
      g_byte_array_set_size (m, 0);
      gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN,
          "not this session", m, NULL);
      send_message (h, fd, m);
      close (fd);
      continue;
    }
    if (accepted == 1 && action == 5) {
      close (fd);
      continue;
    }
    adopt_unit (h, fd, m);
    if (accepted == 1 && action == 6)
      send_all (h, fd, (const guint8 *) "GSBC\0\0\0\0garbage!", 16);
  }
  g_byte_array_unref (m);
}

/* OP_ECHO: the UDP units' UNIT_HELLO datagrams: echoed (the unit's
 * address learnt), refused, ignored, or answered wrong. */
static void
op_echo (Harness * h, Reader * r)
{
  guint8 a = rd8 (r);
  gint64 end = g_get_monotonic_time () + (gint64) (a & 31) * 4000;
  guint action = a >> 5, got = 0;

  while (TRUE) {
    struct sockaddr_storage from;
    socklen_t from_len = sizeof (from);
    guint8 buf[512];
    GstTileWireHeader hdr;
    GstTileWireUnitHello uh;
    gssize n;
    guint i, have = 0;

    for (i = 0; i < MAX_UNITS; i++)
      have += h->unit_len[i] > 0;
    if (h->have_config && have >= h->config.n_tiles && got > 0)
      break;
    n = recvfrom (h->udp_fd, buf, sizeof (buf), MSG_DONTWAIT,
        (struct sockaddr *) &from, &from_len);
    if (n < 0) {
      struct pollfd p = { h->udp_fd, POLLIN, 0 };
      gint64 left = (end - g_get_monotonic_time ()) / 1000;

      if (poll (&p, 1, remaining_ms (h, (gint) MAX (left, 0))) <= 0)
        break;
      continue;
    }
    /* only UNIT_HELLO comes here */
    CHECK (gst_tile_wire_header_parse (buf, n, &hdr, NULL) ==
        GST_TILE_WIRE_PARSE_OK && hdr.type == GST_TILE_WIRE_TYPE_UNIT_HELLO
        && n == GST_TILE_WIRE_HEADER_SIZE + (gssize) hdr.payload_len,
        "a datagram of %d bytes on the sender's UDP port", (gint) n);
    CHECK (gst_tile_wire_unit_hello_parse (buf + GST_TILE_WIRE_HEADER_SIZE,
            hdr.payload_len, &uh, NULL), "UNIT_HELLO datagram");
    CHECK (uh.unit < MAX_UNITS, "UNIT_HELLO of unit %u", uh.unit);
    CHECK (!h->records_in || gst_tile_keys_unit_mac_check (h->keys.unit_c2s,
            GST_TILE_KEYS_UNIT_HELLO, &uh), "a sealed session's UNIT_HELLO "
        "without its MAC");
    got++;
    memcpy (&h->unit_addr[uh.unit], &from, from_len);
    h->unit_len[uh.unit] = from_len;
    if (got == 1 && action == 4) {
      GByteArray *m = g_byte_array_new ();

      /* (the long one is longer than a datagram of a small packet_size) */
      gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT, a & 1 ?
          "UNIT_HELLO for another session or generation" : "no such unit",
          m, NULL);
      gst_tile_net_udp_send_to (h->udp_fd, m->data, m->len,
          (struct sockaddr *) &from, from_len);
      g_byte_array_unref (m);
      continue;
    }
    if (got == 1 && action == 5)
      continue;                 /* not answered (yet its address is known:
                                 * datagrams may come before the echo) */
    if (got == 1 && action == 6)
      n -= 1;                   /* cut short */
    if (got == 1 && action == 7)
      buf[7] = GST_TILE_WIRE_TYPE_KEEPALIVE;
    /* sealed: the echo with our MAC (action 3: without, so ignored) */
    if (h->sealed && action != 3 && n == GST_TILE_WIRE_HEADER_SIZE +
        (gssize) hdr.payload_len) {
      GByteArray *m = g_byte_array_new ();

      /* (from the control port: a challenge, its cookie the receiver's
       * own, so it repeats its UNIT_HELLO and connects on the first
       * datagram) */
      gst_tile_keys_unit_mac (h->keys.unit_s2c, &uh,
          GST_TILE_KEYS_UNIT_CHALLENGE, uh.mac);
      gst_tile_wire_unit_hello_pack (&uh, m, NULL);
      memcpy (buf, m->data, MIN ((gsize) n, m->len));
      g_byte_array_unref (m);
    }
    gst_tile_net_udp_send_to (h->udp_fd, buf, n, (struct sockaddr *) &from,
        from_len);
  }
}

/* The data key of frame @f of @generation (a multicast group's from its
 * secret: never here, the harness plays a unicast sender). */
static void
seal_key (Harness * h, guint32 generation, guint64 f)
{
  guint8 key[GST_TILE_SEAL_KEY_SIZE];

  gst_tile_keys_data_key (h->keys.data, generation, f, key);
  gst_tile_seal_set_key (h->seal, key);
}

/* Unit @unit's tile of frame @f in @parts parts (the last one maybe an
 * abandon, or cut short), sealed when the session is. */
static void
send_tile (Harness * h, guint unit, guint64 f, guint8 mode, guint8 seed)
{
  const GstTileWireTile *t;
  guint parts = 1 + (mode & 3), i;
  gboolean abandon = mode & 0x04, lie = mode & 0x10, tamper = mode & 0x20;
  gboolean clear = mode & 0x40, cut = mode & 0x80;
  guint8 *data;
  gsize have = 0;
  gint fd;

  if (!h->have_config || unit >= MAX_UNITS || unit >= h->config.n_tiles)
    return;
  fd = h->unit_fd[unit];
  if (fd < 0)
    return;
  t = &h->config.tiles[unit];
  data = g_malloc (t->size + 1);
  fill (data, t->size, f, seed);
  for (i = 0; i < parts; i++) {
    GstTileWireTileHeader th;
    guint8 hdr[GST_TILE_WIRE_TILE_HEADER_SIZE], tag[GST_TILE_SEAL_TAG_SIZE];
    guint8 iv[GST_TILE_SEAL_IV_SIZE];
    gboolean last = i + 1 == parts;
    gsize size = last ? t->size - have : (t->size - have) / (parts - i);

    th.generation = h->config.generation + (mode & 0x08 ? 1 : 0);
    /* seed 0x80: the parts after the first are of the next frame */
    th.frame = f + (i > 0 && (seed & 0x80) ? 1 : 0);
    th.timestamp = seed & 1 ? GST_CLOCK_TIME_NONE : 1000 + f;
    /* capture times far off either way, or none */
    th.capture = seed & 2 ? GST_CLOCK_TIME_NONE : seed & 4 ?
        G_MAXUINT64 - 1 - f : 3000 + f;
    th.flags = last ? 0 : GST_TILE_WIRE_TILE_FLAG_MORE;
    if (last && abandon) {
      size = 0;
      th.flags = GST_TILE_WIRE_TILE_FLAG_ABANDON;
    }
    if (size == 0 && !(th.flags & GST_TILE_WIRE_TILE_FLAG_ABANDON))
      continue;                 /* (a part of nothing is not allowed) */
    th.size = size;
    gst_tile_wire_tile_header_write (hdr, &th);
    if (lie && last)
      GST_WRITE_UINT32_BE (hdr + 24, size + 1); /* (its size field) */
    if (h->sealed && !clear) {
      seal_key (h, th.generation, th.frame);
      gst_tile_seal_iv (iv, TRUE, unit, th.frame, have);
      gst_tile_seal_once (h->seal, iv, hdr, sizeof (hdr), data + have,
          data + have, size, tag);
      if (tamper && size > 0)
        data[have + size / 2] ^= 0x40;
      else if (tamper)
        tag[3] ^= 1;
    }
    if (!send_all (h, fd, hdr, sizeof (hdr)))
      break;
    if (cut && last) {
      send_all (h, fd, data + have, size / 2);
      break;
    }
    if (!send_all (h, fd, data + have, size))
      break;
    if (h->sealed && !clear && !send_all (h, fd, tag, sizeof (tag)))
      break;
    have += size;
  }
  g_free (data);
}

/* Datagrams @first to @last (of @ps bytes, of unit @unit's tile) of frame
 * @f; @mode: 0x01 the token is wrong, 0x02 the generation, 0x04 another
 * unit's number in the header, 0x08 sent in the clear in a sealed
 * session, 0x10 tampered, 0x20 one byte short, 0x40 backwards, 0x80 each
 * twice. */
static void
send_datagrams (Harness * h, guint unit, guint64 f, guint first, guint last,
    guint skip, guint8 mode, guint8 seed)
{
  const GstTileWireTile *t;
  guint ps, n, k;
  gboolean sealed;
  guint8 *pk, *data;
  gsize hl, len;

  if (!h->have_config || h->config.protocol != GST_TILE_WIRE_PROTOCOL_UDP
      || unit >= MAX_UNITS || unit >= h->config.n_tiles)
    return;
  t = &h->config.tiles[unit];
  ps = h->config.packet_size;
  n = gst_tile_wire_packets_per_tile (t->size, ps);
  last = MIN (last, n);
  sealed = h->sealed && !(mode & 0x08);
  hl = GST_TILE_WIRE_DATAGRAM_OVERHEAD (sealed);
  pk = g_malloc0 (hl + ps);
  data = g_malloc0 ((gsize) n * ps);
  fill (data, t->size, f, seed);
  for (k = first; k < last; k++) {
    guint idx = mode & 0x40 ? last - 1 - (k - first) : k, rep;
    GstTileWirePacketHeader ph;
    guint64 off = (guint64) idx * ps;
    gsize plen = MIN (ps, t->size - off);

    if (idx == skip)
      continue;
    ph.flags = 0;
    ph.unit = (mode & 0x04) ? (unit + 1) % MAX_UNITS : unit;
    ph.generation = h->config.generation + (mode & 0x02 ? 1 : 0);
    ph.offset = off;
    ph.frame = f;
    ph.timestamp = seed & 1 ? GST_CLOCK_TIME_NONE : 2000 + f;
    ph.capture = seed & 2 ? GST_CLOCK_TIME_NONE : seed & 4 ?
        G_MAXUINT64 - 1 - f : 4000 + f;
    ph.token = h->config.token + (mode & 0x01);
    memset (pk, 0, hl + ps);
    gst_tile_wire_packet_header_write (pk, &ph);
    if (sealed) {
      guint8 iv[GST_TILE_SEAL_IV_SIZE];

      seal_key (h, ph.generation, f);
      gst_tile_seal_iv (iv, FALSE, ph.unit, f, ph.offset);
      gst_tile_seal_once (h->seal, iv, pk, GST_TILE_WIRE_PACKET_HEADER_SIZE,
          data + off, pk + hl, plen, pk + GST_TILE_WIRE_PACKET_HEADER_SIZE);
    } else {
      memcpy (pk + hl, data + off, plen);
    }
    if (mode & 0x10)
      pk[hl + plen / 2] ^= 0x08;
    len = hl + ps - (mode & 0x20 ? 1 : 0);
    for (rep = 0; rep < (mode & 0x80 ? 2u : 1u); rep++)
      send_datagram (h, unit, pk, len);
  }
  g_free (data);
  g_free (pk);
}

/* OP_FRAME: a whole frame on every unit (TCP tiles, or UDP datagrams but
 * maybe one), then maybe a wait for it to come out. */
static void
op_frame (Harness * h, Reader * r)
{
  guint8 b = rd8 (r), mode = rd8 (r), seed = rd8 (r);
  guint64 f = pick_frame (h, b);
  guint frames, i;

  if (!h->have_config)
    return;
  g_mutex_lock (&h->lock);
  frames = h->frames;
  g_mutex_unlock (&h->lock);
  for (i = 0; i < h->config.n_tiles && i < MAX_UNITS; i++) {
    if (h->config.protocol == GST_TILE_WIRE_PROTOCOL_TCP) {
      /* mode 0x01: unit (seed % n) abandons it */
      guint8 tmode = (mode & 0x01) && i == (seed & 3) % h->config.n_tiles ?
          0x04 : (mode >> 1) & 0x03;

      send_tile (h, i, f, tmode, seed);
      if (f >= h->unit_frame[i] && f != G_MAXUINT64)
        h->unit_frame[i] = f + 1;
    } else {
      /* mode 0x01: one datagram lost (of unit seed % n), 0x40 backwards,
       * 0x80 each twice */
      guint skip = (mode & 0x01) && i == (seed & 3) % h->config.n_tiles ?
          (seed >> 2) & 7 : G_MAXUINT;

      send_datagrams (h, i, f, 0, G_MAXUINT, skip, mode & 0xc0, seed);
    }
  }
  sent_frame (h, f);
  if (mode & 0x20) {
    /* until the consumer has it (or a little while) */
    gint64 end = g_get_monotonic_time () + 40 * 1000;

    g_mutex_lock (&h->lock);
    while (h->frames == frames && !h->seen_error &&
        g_get_monotonic_time () < MIN (end, h->deadline))
      g_cond_wait_until (&h->cond, &h->lock, MIN (end, h->deadline));
    g_mutex_unlock (&h->lock);
  }
}

/* OP_TILE: one unit's tile, in parts, maybe wrong. */
static void
op_tile (Harness * h, Reader * r)
{
  guint8 unit = rd8 (r), b = rd8 (r), mode = rd8 (r), seed = rd8 (r);
  guint64 f;

  if (unit >= MAX_UNITS)
    unit %= MAX_UNITS;
  f = b == 0 ? h->unit_frame[unit] : pick_frame (h, b);
  send_tile (h, unit, f, mode, seed);
  if (f >= h->unit_frame[unit] && f != G_MAXUINT64)
    h->unit_frame[unit] = f + 1;
  sent_frame (h, f);
}

/* OP_DGRAM: a run of datagrams of one unit's tile. */
static void
op_dgram (Harness * h, Reader * r)
{
  guint8 unit = rd8 (r) % MAX_UNITS, b = rd8 (r), first = rd8 (r);
  guint8 count = rd8 (r), mode = rd8 (r), seed = rd8 (r);
  guint64 f = pick_frame (h, b);

  send_datagrams (h, unit, f, first, first + 1 + count, G_MAXUINT, mode, seed);
}

/* OP_CTL_MSG: a control message of any type with a payload from the
 * input, its header maybe lying about its length. */
static void
op_ctl_msg (Harness * h, Reader * r)
{
  guint8 type = rd8 (r), lenb = rd8 (r);
  gsize len = lenb & 0x7f;
  const guint8 *payload = rdbytes (r, &len);
  guint8 *msg = g_malloc (GST_TILE_WIRE_HEADER_SIZE + len + 1);
  guint32 claimed = (lenb & 0x80) ? len + 1 + rd8 (r) : len;

  gst_tile_wire_header_write (msg, (GstTileWireType) (type % 12), claimed);
  memcpy (msg + GST_TILE_WIRE_HEADER_SIZE, payload, len);
  send_all (h, h->ctl, msg, GST_TILE_WIRE_HEADER_SIZE + len);
  h->ctl_raw = TRUE;
  g_free (msg);
}

/* OP_REFUSE: the sender ends the session. */
static void
op_refuse (Harness * h, Reader * r)
{
  guint8 code = rd8 (r);
  gsize len = rd8 (r) & 31;
  const guint8 *reason = rdbytes (r, &len);
  GByteArray *m = g_byte_array_new ();
  gchar *text = g_strndup ((const gchar *) reason, len);

  if (!gst_tile_wire_refuse_pack (code % 8, text, m, NULL))
    gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_OTHER, "no", m, NULL);
  send_message (h, h->ctl, m);
  g_free (text);
  g_byte_array_unref (m);
}

/* OP_DGRAM_RAW: a datagram from the input; or a datagram of this session
 * (header, payload of packet_size bytes) with input bytes XORed into it
 * (pairs: position, value); or a control message header, then the input;
 * or a datagram of this session from another host (127.0.0.2). */
static void
op_dgram_raw (Harness * h, Reader * r)
{
  guint8 unit = rd8 (r) % MAX_UNITS, a = rd8 (r);
  gsize len = a & 63, i;
  const guint8 *bytes = rdbytes (r, &len);
  guint8 pk[GST_TILE_WIRE_PACKET_HEADER_SIZE + GST_TILE_SEAL_TAG_SIZE + 256];
  gsize total = len;

  memset (pk, 0, sizeof (pk));
  if ((a >> 6) != 0 && (a >> 6) != 2 && h->have_config &&
      h->config.protocol == GST_TILE_WIRE_PROTOCOL_UDP) {
    GstTileWirePacketHeader ph = { unit, h->config.generation, 0,
      h->next_frame, 0, 0, h->config.token
    };

    gst_tile_wire_packet_header_write (pk, &ph);
    total = MIN (sizeof (pk), GST_TILE_WIRE_DATAGRAM_OVERHEAD (h->sealed) +
        h->config.packet_size);
    for (i = 0; i + 1 < len; i += 2)
      pk[bytes[i] % total] ^= bytes[i + 1];
  } else if ((a >> 6) == 2) {
    gst_tile_wire_header_write (pk, (GstTileWireType) (len % 12), len);
    memcpy (pk + GST_TILE_WIRE_HEADER_SIZE, bytes, len);
    total = GST_TILE_WIRE_HEADER_SIZE + len;
  } else {
    memcpy (pk, bytes, len);
  }
  if ((a >> 6) == 3) {
    if (h->other_fd < 0) {
      struct sockaddr_in other = { 0 };

      other.sin_family = AF_INET;
      other.sin_addr.s_addr = g_htonl (0x7f000002);
      h->other_fd = gst_tile_net_udp_bind ((struct sockaddr *) &other,
          sizeof (other), NULL);
    }
    send_datagram_from (h, h->other_fd, unit, pk, total);
  } else {
    send_datagram (h, unit, pk, total);
  }
}

static void
run_op (Harness * h, Reader * r, guint op)
{
  GByteArray *m;

  switch (op) {
    case OP_CONFIG:
      op_config (h, r);
      break;
    case OP_AUTH:
      op_auth (h, r);
      break;
    case OP_ACCEPT:
      op_accept (h, r);
      break;
    case OP_ECHO:
      op_echo (h, r);
      break;
    case OP_FRAME:
      op_frame (h, r);
      break;
    case OP_TILE:
      op_tile (h, r);
      break;
    case OP_DGRAM:
      op_dgram (h, r);
      break;
    case OP_KEEPALIVE:
      m = g_byte_array_new ();
      gst_tile_wire_keepalive_pack (g_get_real_time () * 1000, m);
      send_message (h, h->ctl, m);
      g_byte_array_unref (m);
      break;
    case OP_EOS:
      m = g_byte_array_new ();
      gst_tile_wire_eos_pack (m);
      send_message (h, h->ctl, m);
      g_byte_array_unref (m);
      break;
    case OP_WAIT:{
      /* for frames to come out (or the end) */
      guint8 a = rd8 (r);
      gint64 end = g_get_monotonic_time () + (gint64) (a >> 2) * 1000;
      guint want;

      g_mutex_lock (&h->lock);
      want = h->frames + 1 + (a & 3);
      while (h->frames < want && !h->seen_error && !h->seen_eos &&
          g_get_monotonic_time () < MIN (end, h->deadline))
        g_cond_wait_until (&h->cond, &h->lock, MIN (end, h->deadline));
      g_mutex_unlock (&h->lock);
      break;
    }
    case OP_SLEEP:
      g_usleep ((rd8 (r) % 6) * 1000);
      break;
    case OP_RAW_CTL:{
      gsize len = rd8 (r);
      const guint8 *bytes = rdbytes (r, &len);

      send_all (h, h->ctl, bytes, len);
      h->ctl_raw = TRUE;
      break;
    }
    case OP_CTL_MSG:
      op_ctl_msg (h, r);
      break;
    case OP_REFUSE:
      op_refuse (h, r);
      break;
    case OP_TILE_RAW:{
      guint8 unit = rd8 (r) % MAX_UNITS;
      gsize len = rd8 (r) & 127;
      const guint8 *bytes = rdbytes (r, &len);

      send_all (h, h->unit_fd[unit], bytes, len);
      break;
    }
    case OP_DGRAM_RAW:
      op_dgram_raw (h, r);
      break;
    case OP_CLOSE_UNIT:{
      guint8 a = rd8 (r);

      close_fd (&h->unit_fd[a % MAX_UNITS], (a >> 2) % 3);
      break;
    }
    case OP_CLOSE_CTL:{
      guint8 a = rd8 (r);

      close_fd (&h->ctl, a % 3);
      break;
    }
    case OP_FLUSH:
      g_mutex_lock (&h->lock);
      h->flushing = TRUE;
      g_mutex_unlock (&h->lock);
      gst_tile_receiver_set_flushing (h->rx, TRUE);
      g_usleep (1000);
      gst_tile_receiver_set_flushing (h->rx, FALSE);
      g_mutex_lock (&h->lock);
      h->flushing = FALSE;
      g_cond_broadcast (&h->cond);
      g_mutex_unlock (&h->lock);
      break;
    case OP_READ_CTL:
      ctl_pump (h, rd8 (r) % 32, 0, NULL);
      break;
    case OP_STATS:
      /* what a property read of tilesrc does, meanwhile */
      gst_structure_free (gst_tile_receiver_get_stats (h->rx));
      break;
    case OP_RECONNECT:
      /* the receiver's next control connection, once it reconnects */
      if (accept_control (h, 150 + rd8 (r)))
        h->auths = 0;
      break;
  }
}

/* ---- one input ---- */

static guint
count_fds (void)
{
  DIR *d = opendir ("/proc/self/fd");
  guint n = 0;

  if (!d)
    return 0;
  while (readdir (d))
    n++;
  closedir (d);
  return n;
}

static void
run_input (const guint8 * data, size_t size)
{
  static const gdouble factors[] = { 1.5, 0.25, 4, 1000 };
  Harness *h = g_new0 (Harness, 1);
  Reader r = { data, size, 0 };
  GstTileReceiverSettings settings = { 0 };
  struct sockaddr_storage ss;
  guint8 f0 = rd8 (&r), f1 = rd8 (&r);
  guint ops = 0, i, sl;

  h->passphrase = f0 & 0x01;
  h->tile_meta = f0 & 0x02;
  h->stats = f0 & 0x04;
  h->failing_pool = f0 & 0x08;
  h->gro = f0 & 0x10;
  h->stepped = !(f0 & 0x20);
  h->stop_at_end = f0 & 0x40;
  h->slow_pool = f0 & 0x80;
  h->timer_factor = factors[f1 & 3];
  h->reconnect = f1 & 0x04;
  h->keep_last = !(f1 & 0x08);
  h->big_rcvbuf = f1 & 0x10;
  h->retransmit = !(f1 & 0x20);
  h->ctl = -1;
  h->listen_fd = -1;
  h->udp_fd = -1;
  h->other_fd = -1;
  for (i = 0; i < MAX_UNITS; i++)
    h->unit_fd[i] = -1;
  h->ctl_in = g_byte_array_new ();
  h->seal = gst_tile_seal_new (TRUE);
  g_mutex_init (&h->lock);
  g_cond_init (&h->cond);
  h->start = g_get_monotonic_time ();
  h->deadline = h->start + OPS_BUDGET_MS * 1000;

  /* the sender's sockets: its control port, and its UDP socket on the same
   * address and port */
  for (i = 0; i < 100 && h->udp_fd < 0; i++) {
    /* (the kernel picks the TCP port: the UDP one may be taken) */
    gst_tile_net_close (&h->listen_fd);
    h->listen_fd = gst_tile_net_listen ("127.0.0.1", 0, &h->port, NULL);
    CHECK (h->listen_fd >= 0, "cannot listen");
    sl = gst_tile_net_address (h->listen_fd, FALSE, &ss);
    h->udp_fd = gst_tile_net_udp_bind ((struct sockaddr *) &ss, sl, NULL);
  }
  CHECK (h->udp_fd >= 0, "cannot bind a UDP socket on a listening port");

  h->rx = gst_tile_receiver_new (&callbacks, h, NULL);
  gst_tile_receiver_set_stats_interval (h->rx, h->stats ? 20 : 0);
  gst_tile_receiver_set_timer_factor (h->rx, h->timer_factor);
  gst_tile_receiver_set_stepped (h->rx, h->stepped);
  gst_tile_receiver_set_reconnect (h->rx, h->reconnect);
  settings.host = "127.0.0.1";
  settings.port = h->port;
  settings.timeout_ms = TIMEOUT_MS;
  settings.gro = h->gro;
  settings.receive_buffer_size = h->big_rcvbuf ? 64 << 20 : 0;
  settings.passphrase = h->passphrase ? PASSPHRASE : NULL;
  /* tilesrc's default time base (and its realtime one), latencies fixed
   * and automatic, late frames kept or dropped */
  settings.time_base = h->stepped ? GST_TILE_RECEIVER_TIME_SENDER :
      GST_TILE_RECEIVER_TIME_REALTIME;
  settings.latency_ms = h->gro ? -1 : 5;
  settings.drop_late = h->reconnect;
  settings.retransmit = h->retransmit;
  gst_tile_receiver_start (h->rx, &settings);
  h->consumer = g_thread_new ("fuzz-consumer", consumer, h);

  if (accept_control (h, 500)) {
    while (r.i < r.n && ops++ < MAX_OPS &&
        g_get_monotonic_time () < h->deadline) {
      run_op (h, &r, rd8 (&r) % N_OPS);
      /* what the receiver sent meanwhile: checked, and out of the way */
      ctl_pump (h, 0, 0, NULL);
    }
  }

  /* GstBaseSrc: unlock (the streaming thread leaves), then stop */
  g_mutex_lock (&h->lock);
  h->ending = TRUE;
  g_cond_broadcast (&h->cond);
  g_mutex_unlock (&h->lock);
  gst_tile_receiver_set_flushing (h->rx, TRUE);
  g_thread_join (h->consumer);
  gst_tile_receiver_stop (h->rx);
  gst_tile_receiver_free (h->rx);

  if (verbose)
    fprintf (stderr, "tilereceiver-fuzz: %u ops in %u ms: %u frames, %u "
        "NACKs, %s%s%s\n", ops,
        (guint) ((g_get_monotonic_time () - h->start) / 1000), h->frames,
        h->nacks, h->seen_eos ? "EOS, " : "", h->error ? "ERROR: " : "",
        h->error ? h->error : "");
  g_free (h->error);
  for (i = 0; i < MAX_UNITS; i++)
    close_fd (&h->unit_fd[i], 0);
  close_fd (&h->ctl, 0);
  gst_tile_net_close (&h->udp_fd);
  gst_tile_net_close (&h->other_fd);
  gst_tile_net_close (&h->listen_fd);
  gst_tile_seal_free (h->seal);
  g_clear_pointer (&h->records_out, gst_tile_records_free);
  g_clear_pointer (&h->records_in, gst_tile_records_free);
  g_byte_array_unref (h->ctl_in);
  g_mutex_clear (&h->lock);
  g_cond_clear (&h->cond);
  g_free (h);
}

/* ---- libFuzzer ---- */

static void
on_trap (int sig)
{
  abort ();
}

/* Sessions run once before the first input, so that the one-time work of
 * GLib, GStreamer and libcrypto (types, quarks, the debug category, the
 * error domains, the metas, the names of the statistics) is done then:
 * LeakSanitizer would see it as leaks of an input, and the quark check
 * as the input's. The bytes are in the input format above. */
static const guint8 warm_tcp[] = {
  0x06, 0x00,
  OP_CONFIG, 0x02, 0x03, 0x03, 0x00, 0x00, 0x00,        /* TCP, 2 units, 16x4 */
  OP_ACCEPT, 0x1f,
  OP_FRAME, 0x02, 0x20, 0x00,
  OP_FRAME, 0x03, 0x21, 0x00,   /* abandoned */
  OP_TILE, 0x00, 0x00, 0x01, 0x00,
  OP_STATS, OP_WAIT, 0x40,
  OP_EOS, OP_CLOSE_UNIT, 0x00, OP_CLOSE_UNIT, 0x01,
  OP_WAIT, 0x40,
};

static const guint8 warm_udp[] = {
  0x16, 0x00,
  OP_CONFIG, 0x42, 0x03, 0x83, 0x00, 0x03, 0x00,        /* UDP, 2 units, ps 16 */
  OP_ECHO, 0x1f,
  OP_FRAME, 0x02, 0x20, 0x00,
  OP_FRAME, 0x03, 0x21, 0x01,   /* a datagram lost */
  OP_DGRAM, 0x00, 0x80, 0x00, 0x00, 0x01, 0x00,
  OP_DGRAM, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00,
  OP_DGRAM_RAW, 0x00, 0x08, 1, 2, 3, 4, 5, 6, 7, 8,
  OP_WAIT, 0x80, OP_KEEPALIVE, OP_STATS, OP_WAIT, 0x80,
  OP_CONFIG, 0x5a, 0x03, 0x83, 0x00, 0x03, 0x00,        /* BC1, a new generation */
  OP_ECHO, 0x1f,
  OP_FRAME, 0x02, 0x20, 0x00,
  OP_CTL_MSG, 0x07, 0x00,       /* unexpected: refused */
  OP_WAIT, 0x40,
};

static const guint8 warm_sealed[] = {
  0x01, 0x00,
  OP_AUTH, 0x00, 0x00,
  OP_CONFIG, 0x00, 0x03, 0x83, 0x00, 0x03, 0x00,        /* UDP, 1 unit */
  OP_ECHO, 0x1f,
  OP_FRAME, 0x02, 0x20, 0x00,
  OP_DGRAM, 0x00, 0x03, 0x00, 0x00, 0x10, 0x00, /* tampered */
  OP_CONFIG, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00,        /* TCP */
  OP_ACCEPT, 0x1f,
  OP_FRAME, 0x02, 0x20, 0x00,
  OP_TILE, 0x00, 0x00, 0x20, 0x00,      /* tampered */
  OP_WAIT, 0x40,
};

static const guint8 warm_refused[] = {
  0x00, 0x00, OP_REFUSE, 0x04, 0x00,
};

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  guint i;

  /* as tilewire-fuzz.c: no plugins, the same quarks on every machine */
  g_setenv ("GST_REGISTRY_DISABLE", "yes", TRUE);
  gst_init (NULL, NULL);
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  signal (SIGPIPE, SIG_IGN);
  /* a fatal GLib message raises SIGTRAP, which libFuzzer does not catch:
   * make it an abort, so that the input is saved */
  signal (SIGTRAP, on_trap);
  verbose = g_getenv ("TILERECEIVER_FUZZ_VERBOSE") != NULL;
  gst_tile_wire_error_quark ();
  gst_tile_wire_caps_know_names ();
  gst_tile_register_stats_names ();
  g_type_class_unref (g_type_class_ref (gst_video_multiview_flagset_get_type
          ()));
  for (i = 0; i < 2; i++) {
    run_input (warm_tcp, sizeof (warm_tcp));
    run_input (warm_udp, sizeof (warm_udp));
    run_input (warm_sealed, sizeof (warm_sealed));
    run_input (warm_refused, sizeof (warm_refused));
  }
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  guint fds = count_fds ();

  if (size < 2)
    return 0;
  fuzz_in_input = TRUE;
  run_input (data, size);
  fuzz_in_input = FALSE;
  CHECK (count_fds () <= fds, "%u descriptors open after the input, %u "
      "before", count_fds (), fds);
  return 0;
}
