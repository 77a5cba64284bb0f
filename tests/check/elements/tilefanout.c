/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* One tilesink, many receivers at once, over 127.0.0.1: every receiver
 * gets every frame byte-exact; receivers join, leave, stall, are refused
 * past max-receivers and are removed by the application, and the others
 * do not notice. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/app/app.h>
#include <gst/tile/tilewire.h>

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FRAME_DURATION (GST_SECOND / 30)
#define PULL_TIMEOUT (10 * GST_SECOND)
/* every wait of these tests */
#define WAIT_US (10 * G_USEC_PER_SEC)

#include "gstbctest.h"

#define GRAY(w, h) "video/x-raw,format=GRAY8,width=" #w ",height=" #h \
    ",framerate=30/1"

/* nothing is lost on loopback: a generous timer so that a unit thread the
 * scheduler delays does not make a partial frame */
#define UDP_RX_PROPS "timer-factor=1000"

static guint64
realtime_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_REALTIME, &ts);
  return (guint64) ts.tv_sec * GST_SECOND + ts.tv_nsec;
}

/* Frame @seed (1, 2, ...): its number in its first 4 bytes, then bytes
 * of its own. */
static void
fill_frame (guint8 * data, gsize size, guint seed)
{
  guint32 x = seed * 2654435761u + 12345;
  gsize i;

  GST_WRITE_UINT32_BE (data, seed);
  for (i = 4; i < size; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    data[i] = x >> 24;
  }
}

/* ---------------------------------------------------------------------- */
/* the sender: appsrc ! tilesink, and what its signals said                */

typedef struct
{
  guint id;
  gchar *address;
  gchar *reason;                /* receiver-removed only */
} Event;

typedef struct
{
  GstElement *pipeline, *appsrc, *tilesink;
  guint port;
  gsize size;

  GMutex lock;
  GPtrArray *added, *removed;   /* of Event */
  GArray *push_ns;              /* realtime before each push, by seed - 1 */

  gint pushed;                  /* frames pushed (the last seed), atomic */
  gint push_errors;             /* atomic */
  /* the pusher thread: a frame every interval_us until stop */
  GThread *thread;
  gint stop;
  gulong interval_us;
} Tx;

static void
event_free (gpointer data)
{
  Event *e = data;

  g_free (e->address);
  g_free (e->reason);
  g_free (e);
}

/* tilesink's server thread (or the one that stops it) */
static void
on_receiver_added (GstElement * sink, guint id, const gchar * address, Tx * t)
{
  Event *e = g_new0 (Event, 1);

  e->id = id;
  e->address = g_strdup (address);
  g_mutex_lock (&t->lock);
  g_ptr_array_add (t->added, e);
  g_mutex_unlock (&t->lock);
}

static void
on_receiver_removed (GstElement * sink, guint id, const gchar * address,
    const gchar * reason, Tx * t)
{
  Event *e = g_new0 (Event, 1);

  e->id = id;
  e->address = g_strdup (address);
  e->reason = g_strdup (reason);
  g_mutex_lock (&t->lock);
  g_ptr_array_add (t->removed, e);
  g_mutex_unlock (&t->lock);
}

static Tx *
tx_start (const gchar * caps, gsize size, const gchar * props)
{
  Tx *t = g_new0 (Tx, 1);
  gchar *desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" ! "
      "tilesink name=sink port=0 stats-interval=0 %s", caps, props);

  g_mutex_init (&t->lock);
  t->added = g_ptr_array_new_with_free_func (event_free);
  t->removed = g_ptr_array_new_with_free_func (event_free);
  t->push_ns = g_array_new (FALSE, FALSE, sizeof (guint64));
  t->size = size;
  t->pipeline = launch (desc);
  g_free (desc);
  t->appsrc = get (t->pipeline, "src");
  t->tilesink = get (t->pipeline, "sink");
  g_signal_connect (t->tilesink, "receiver-added",
      G_CALLBACK (on_receiver_added), t);
  g_signal_connect (t->tilesink, "receiver-removed",
      G_CALLBACK (on_receiver_removed), t);
  play (t->pipeline);
  g_object_get (t->tilesink, "bound-port", &t->port, NULL);
  fail_unless (t->port > 0);
  return t;
}

static void
tx_stop (Tx * t)
{
  fail_unless (t->thread == NULL);
  fail_unless_equals_int (g_atomic_int_get (&t->push_errors), 0);
  gst_element_set_state (t->pipeline, GST_STATE_NULL);
  gst_object_unref (t->appsrc);
  gst_object_unref (t->tilesink);
  gst_object_unref (t->pipeline);
  g_ptr_array_unref (t->added);
  g_ptr_array_unref (t->removed);
  g_array_unref (t->push_ns);
  g_mutex_clear (&t->lock);
  g_free (t);
}

/* Pushes the next frame; any thread, one at a time. */
static void
tx_push (Tx * t)
{
  guint seed = g_atomic_int_get (&t->pushed) + 1;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, t->size, NULL);
  GstMapInfo map;
  guint64 now;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  fill_frame (map.data, t->size, seed);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = (seed - 1) * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  now = realtime_ns ();
  g_mutex_lock (&t->lock);
  g_array_append_val (t->push_ns, now);
  g_mutex_unlock (&t->lock);
  if (gst_app_src_push_buffer (GST_APP_SRC (t->appsrc), buf) != GST_FLOW_OK)
    g_atomic_int_inc (&t->push_errors);
  g_atomic_int_set (&t->pushed, seed);
}

static guint
tx_pushed (Tx * t)
{
  return g_atomic_int_get (&t->pushed);
}

static gpointer
pusher (gpointer data)
{
  Tx *t = data;

  while (!g_atomic_int_get (&t->stop)) {
    tx_push (t);
    g_usleep (t->interval_us);
  }
  return NULL;
}

/* Pushes a frame every @interval_us from a thread of its own, until
 * tx_pusher_stop () */
static void
tx_pusher_start (Tx * t, gulong interval_us)
{
  t->interval_us = interval_us;
  g_atomic_int_set (&t->stop, 0);
  t->thread = g_thread_new ("pusher", pusher, t);
}

static void
tx_pusher_stop (Tx * t)
{
  g_atomic_int_set (&t->stop, 1);
  g_thread_join (t->thread);
  t->thread = NULL;
}

static guint
n_events (Tx * t, GPtrArray * events)
{
  guint n;

  g_mutex_lock (&t->lock);
  n = events->len;
  g_mutex_unlock (&t->lock);
  return n;
}

/* Waits for the @n-th receiver-added and returns its id */
static guint
wait_added (Tx * t, guint n)
{
  gint64 end = g_get_monotonic_time () + WAIT_US;
  guint id;

  while (n_events (t, t->added) < n) {
    fail_unless (g_get_monotonic_time () < end, "receiver-added was emitted "
        "%u times, not %u, within 10 s", n_events (t, t->added), n);
    g_usleep (2000);
  }
  g_mutex_lock (&t->lock);
  id = ((Event *) g_ptr_array_index (t->added, n - 1))->id;
  g_mutex_unlock (&t->lock);
  return id;
}

/* Waits for receiver-removed of @id and returns its reason (free it) */
static gchar *
wait_removed (Tx * t, guint id)
{
  gint64 end = g_get_monotonic_time () + WAIT_US;
  gchar *reason = NULL;
  guint i;

  while (TRUE) {
    g_mutex_lock (&t->lock);
    for (i = 0; i < t->removed->len && !reason; i++) {
      Event *e = g_ptr_array_index (t->removed, i);

      if (e->id == id)
        reason = g_strdup (e->reason);
    }
    g_mutex_unlock (&t->lock);
    if (reason)
      return reason;
    fail_unless (g_get_monotonic_time () < end, "no receiver-removed for "
        "receiver %u within 10 s", id);
    g_usleep (2000);
  }
}

/* ---------------------------------------------------------------------- */
/* the sender's statistics                                                 */

static GstStructure *
tx_stats (Tx * t)
{
  return test_get_stats (t->tilesink, "stats");
}

static guint
stats_uint (const GstStructure * s, const gchar * field)
{
  guint v = 0;

  fail_unless (gst_structure_get_uint (s, field, &v), "no uint %s in %"
      GST_PTR_FORMAT, field, s);
  return v;
}

static guint64
stats_u64 (const GstStructure * s, const gchar * field)
{
  guint64 v = 0;

  fail_unless (gst_structure_get_uint64 (s, field, &v), "no uint64 %s in %"
      GST_PTR_FORMAT, field, s);
  return v;
}

static guint
tx_stat_uint (Tx * t, const gchar * field)
{
  GstStructure *s = tx_stats (t);
  guint v = stats_uint (s, field);

  gst_structure_free (s);
  return v;
}

static guint
n_entries (const GstStructure * s)
{
  const GValue *v = gst_structure_get_value (s, "receivers");

  fail_unless (v != NULL && GST_VALUE_HOLDS_ARRAY (v), "no receivers array "
      "in %" GST_PTR_FORMAT, s);
  return gst_value_array_get_size (v);
}

static const GstStructure *
entry (const GstStructure * s, guint i)
{
  const GValue *v = gst_value_array_get_value (gst_structure_get_value (s,
          "receivers"), i);
  const GstStructure *e;

  fail_unless (GST_VALUE_HOLDS_STRUCTURE (v));
  e = gst_value_get_structure (v);
  fail_unless (gst_structure_has_name (e, "tilesink-receiver"), "%"
      GST_PTR_FORMAT, e);
  return e;
}

/* The `receivers` entry of receiver @id, or NULL */
static const GstStructure *
entry_by_id (const GstStructure * s, guint id)
{
  guint i;

  for (i = 0; i < n_entries (s); i++)
    if (stats_uint (entry (s, i), "id") == id)
      return entry (s, i);
  return NULL;
}

static const GstStructure *
entry_by_address (const GstStructure * s, const gchar * address)
{
  guint i;

  for (i = 0; i < n_entries (s); i++)
    if (g_strcmp0 (gst_structure_get_string (entry (s, i), "address"),
            address) == 0)
      return entry (s, i);
  return NULL;
}

/* Waits until tilesink serves @n receivers, each of them connected (its
 * units up, ready for frames) */
static void
wait_receivers (Tx * t, guint n)
{
  gint64 end = g_get_monotonic_time () + WAIT_US;

  while (TRUE) {
    GstStructure *s = tx_stats (t);
    guint count = stats_uint (s, "receiver-count"), len = n_entries (s);
    guint i, connected = 0;

    for (i = 0; i < len; i++) {
      gboolean c = FALSE;

      fail_unless (gst_structure_get_boolean (entry (s, i), "connected", &c));
      connected += c;
    }
    gst_structure_free (s);
    if (count == n && len == n && connected == n)
      return;
    fail_unless (g_get_monotonic_time () < end, "receiver-count %u, %u "
        "entries, %u connected; expected %u connected receivers", count,
        len, connected, n);
    g_usleep (5000);
  }
}

/* ---------------------------------------------------------------------- */
/* the receivers: tilesrc ! appsink, every frame checked as it comes       */

typedef struct
{
  const gchar *name;
  GstElement *pipeline, *tilesrc, *appsink;
  gsize size;
  guint8 *want;                 /* scratch: the expected frame */

  GMutex lock;
  GArray *seeds;                /* guint: the frames, in arrival order */
  GArray *stamps;               /* guint64: their sender timestamps */
  GstClockTime last_pts;
  guint errors;
  gchar *error;                 /* the first one */
} Rx;

static void
rx_error_locked (Rx * r, gchar * msg)
{
  if (r->errors++ == 0)
    r->error = msg;
  else
    g_free (msg);
}

/* the tilesrc streaming thread: checks the bytes, the timestamps and the
 * sender's timestamp meta of a frame, and notes its seed */
static GstFlowReturn
rx_new_sample (GstAppSink * sink, gpointer data)
{
  static GstStaticCaps unix_static = GST_STATIC_CAPS ("timestamp/x-unix");
  Rx *r = data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buf;
  GstMapInfo map;
  GstCaps *unix_caps;
  GstReferenceTimestampMeta *meta;
  guint seed = 0;
  guint64 stamp = 0, now = realtime_ns ();

  if (!sample)
    return GST_FLOW_OK;
  buf = gst_sample_get_buffer (sample);
  unix_caps = gst_static_caps_get (&unix_static);
  meta = gst_buffer_get_reference_timestamp_meta (buf, unix_caps);
  gst_caps_unref (unix_caps);

  g_mutex_lock (&r->lock);
  if (gst_buffer_get_size (buf) != r->size) {
    rx_error_locked (r, g_strdup_printf ("a frame of %" G_GSIZE_FORMAT
            " bytes, not %" G_GSIZE_FORMAT, gst_buffer_get_size (buf),
            r->size));
  } else if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
    seed = GST_READ_UINT32_BE (map.data);
    fill_frame (r->want, r->size, seed);
    if (seed == 0 || memcmp (map.data, r->want, r->size) != 0)
      rx_error_locked (r, g_strdup_printf ("frame %u (after %u frames) is "
              "not byte-exact", seed, r->seeds->len));
    gst_buffer_unmap (buf, &map);
  }
  if (!GST_BUFFER_PTS_IS_VALID (buf) || (GST_CLOCK_TIME_IS_VALID
          (r->last_pts) && GST_BUFFER_PTS (buf) < r->last_pts))
    rx_error_locked (r, g_strdup_printf ("frame %u: PTS %" GST_TIME_FORMAT
            " after %" GST_TIME_FORMAT, seed,
            GST_TIME_ARGS (GST_BUFFER_PTS (buf)), GST_TIME_ARGS (r->last_pts)));
  r->last_pts = GST_BUFFER_PTS (buf);
  if (GST_BUFFER_DURATION (buf) != gst_util_uint64_scale_int (GST_SECOND, 1,
          30))
    rx_error_locked (r, g_strdup_printf ("frame %u: duration %"
            GST_TIME_FORMAT, seed, GST_TIME_ARGS (GST_BUFFER_DURATION (buf))));
  if (!meta || meta->timestamp > now)
    rx_error_locked (r, g_strdup_printf ("frame %u: sender timestamp %"
            G_GUINT64_FORMAT " (now %" G_GUINT64_FORMAT ")", seed,
            meta ? meta->timestamp : 0, now));
  else
    stamp = meta->timestamp;
  g_array_append_val (r->seeds, seed);
  g_array_append_val (r->stamps, stamp);
  g_mutex_unlock (&r->lock);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static Rx *
rx_start (const gchar * name, Tx * t, const gchar * props)
{
  GstAppSinkCallbacks callbacks = {.new_sample = rx_new_sample };
  Rx *r = g_new0 (Rx, 1);
  gchar *desc = g_strdup_printf ("tilesrc name=src port=%u timeout=5000 "
      "stats-interval=0 %s ! appsink name=sink sync=false", t->port,
      props ? props : "");

  r->name = name;
  r->size = t->size;
  r->want = g_malloc (t->size);
  r->last_pts = GST_CLOCK_TIME_NONE;
  g_mutex_init (&r->lock);
  r->seeds = g_array_new (FALSE, FALSE, sizeof (guint));
  r->stamps = g_array_new (FALSE, FALSE, sizeof (guint64));
  r->pipeline = launch (desc);
  g_free (desc);
  r->tilesrc = get (r->pipeline, "src");
  r->appsink = get (r->pipeline, "sink");
  gst_app_sink_set_callbacks (GST_APP_SINK (r->appsink), &callbacks, r, NULL);
  play (r->pipeline);
  return r;
}

/* Stops the pipeline; what it received stays readable */
static void
rx_stop (Rx * r)
{
  if (!r->pipeline)
    return;
  gst_element_set_state (r->pipeline, GST_STATE_NULL);
  gst_object_unref (r->tilesrc);
  gst_object_unref (r->appsink);
  gst_object_unref (r->pipeline);
  r->pipeline = r->tilesrc = r->appsink = NULL;
}

static void
rx_free (Rx * r)
{
  rx_stop (r);
  g_array_unref (r->seeds);
  g_array_unref (r->stamps);
  g_mutex_clear (&r->lock);
  g_free (r->error);
  g_free (r->want);
  g_free (r);
}

static guint
rx_count (Rx * r)
{
  guint n;

  g_mutex_lock (&r->lock);
  n = r->seeds->len;
  g_mutex_unlock (&r->lock);
  return n;
}

/* Only the receiver's own thread appends: the first @n stay put */
static guint
rx_seed (Rx * r, guint i)
{
  guint seed;

  g_mutex_lock (&r->lock);
  fail_unless (i < r->seeds->len);
  seed = g_array_index (r->seeds, guint, i);
  g_mutex_unlock (&r->lock);
  return seed;
}

static guint64
rx_stamp (Rx * r, guint i)
{
  guint64 stamp;

  g_mutex_lock (&r->lock);
  fail_unless (i < r->stamps->len);
  stamp = g_array_index (r->stamps, guint64, i);
  g_mutex_unlock (&r->lock);
  return stamp;
}

/* Every frame so far was byte-exact, with good timestamps */
static void
rx_check (Rx * r)
{
  g_mutex_lock (&r->lock);
  fail_unless (r->errors == 0, "receiver %s: %u bad frames, the first: %s",
      r->name, r->errors, GST_STR_NULL (r->error));
  g_mutex_unlock (&r->lock);
}

/* Fails on an ERROR message of the receiver's pipeline (warnings, of
 * socket buffers smaller than asked for, are the host's business) */
static void
rx_check_no_error (Rx * r)
{
  GstBus *bus = gst_element_get_bus (r->pipeline);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

  if (msg) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    fail ("receiver %s: error %s (%s)", r->name, err->message,
        GST_STR_NULL (dbg));
  }
  gst_object_unref (bus);
}

/* Waits until the receiver has @n frames */
static void
rx_wait (Rx * r, guint n)
{
  gint64 end = g_get_monotonic_time () + WAIT_US;

  while (rx_count (r) < n) {
    if (g_get_monotonic_time () >= end) {
      rx_check (r);
      fail ("receiver %s got %u frames, not %u, within 10 s", r->name,
          rx_count (r), n);
    }
    g_usleep (1000);
  }
}

/* Waits until the receiver has frame @seed (or a later one) */
static void
rx_wait_seed (Rx * r, guint seed)
{
  gint64 end = g_get_monotonic_time () + WAIT_US;

  while (rx_count (r) == 0 || rx_seed (r, rx_count (r) - 1) < seed) {
    if (g_get_monotonic_time () >= end) {
      rx_check (r);
      fail ("receiver %s did not get frame %u within 10 s (%u frames, the "
          "last %u)", r->name, seed, rx_count (r), rx_count (r) ?
          rx_seed (r, rx_count (r) - 1) : 0);
    }
    g_usleep (1000);
  }
}

/* The receiver's frames are byte-exact and consecutive, @first (0: any)
 * to @last (0: any), their sender timestamps increasing; returns the
 * first */
static guint
rx_check_run (Rx * r, guint first, guint last)
{
  guint i, n = rx_count (r);

  rx_check (r);
  fail_unless (n > 0, "receiver %s got no frame", r->name);
  fail_unless (first == 0 || rx_seed (r, 0) == first, "receiver %s: the "
      "first frame is %u, not %u", r->name, rx_seed (r, 0), first);
  for (i = 1; i < n; i++) {
    fail_unless (rx_seed (r, i) == rx_seed (r, i - 1) + 1, "receiver %s: "
        "frame %u after frame %u", r->name, rx_seed (r, i), rx_seed (r, i - 1));
    fail_unless (rx_stamp (r, i) > rx_stamp (r, i - 1), "receiver %s: frame "
        "%u has sender time %" G_GUINT64_FORMAT ", frame %u %"
        G_GUINT64_FORMAT, r->name, rx_seed (r, i), rx_stamp (r, i),
        rx_seed (r, i - 1), rx_stamp (r, i - 1));
  }
  fail_unless (last == 0 || rx_seed (r, n - 1) == last, "receiver %s: the "
      "last frame is %u, not %u", r->name, rx_seed (r, n - 1), last);
  return rx_seed (r, 0);
}

/* Waits until the `receivers` entry of @id carries a STATS report of
 * the receiver @r that counts all the frames it has (the receiver sends
 * one every 50 ms from now on) */
static void
wait_report (Tx * t, guint id, Rx * r)
{
  gint64 end = g_get_monotonic_time () + WAIT_US;
  guint64 received = 0;

  g_object_set (r->tilesrc, "stats-interval", 50, NULL);
  while (TRUE) {
    GstStructure *s = tx_stats (t);
    const GstStructure *e = entry_by_id (s, id);
    const GValue *v;

    fail_unless (e != NULL, "receiver %u not in %" GST_PTR_FORMAT, id, s);
    v = gst_structure_get_value (e, "receiver");
    if (v) {
      const GstStructure *report = gst_value_get_structure (v);

      fail_unless (gst_structure_has_name (report, "tilesrc-stats"));
      received = stats_u64 (report, "frames-received");
    }
    gst_structure_free (s);
    if (received == rx_count (r))
      return;
    fail_unless (g_get_monotonic_time () < end, "the report of receiver %u "
        "(%s) says %" G_GUINT64_FORMAT " frames received, it has %u", id,
        r->name, received, rx_count (r));
    g_usleep (10000);
  }
}

/* ---------------------------------------------------------------------- */
/* raw clients                                                             */

static gint
raw_connect_rcvbuf (guint port, gint rcvbuf)
{
  struct sockaddr_in sa = { 0 };
  gint fd = socket (AF_INET, SOCK_STREAM, 0);

  fail_unless (fd >= 0);
  /* before connect (), so that the window is offered that small */
  if (rcvbuf > 0)
    fail_unless (setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
            sizeof (rcvbuf)) == 0, "SO_RCVBUF: %s", g_strerror (errno));
  sa.sin_family = AF_INET;
  sa.sin_port = htons (port);
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  fail_unless (connect (fd, (struct sockaddr *) &sa, sizeof (sa)) == 0,
      "connect: %s", g_strerror (errno));
  return fd;
}

static gint
raw_connect (guint port)
{
  return raw_connect_rcvbuf (port, 0);
}

static void
send_message (gint fd, const GByteArray * m)
{
  fail_unless (send (fd, m->data, m->len, MSG_NOSIGNAL) == (gssize) m->len,
      "send: %s", g_strerror (errno));
}

static void
send_hello (gint fd)
{
  GstTileWireHello hello = { 0 };
  GByteArray *m = g_byte_array_new ();

  fail_unless (gst_tile_wire_hello_pack (&hello, m, NULL));
  send_message (fd, m);
  g_byte_array_unref (m);
}

/* Sends HELLO and expects a REFUSE with @code and a reason with
 * @reason_part, then the end of the connection. */
static void
expect_refused_hello (guint port, GstTileWireRefuseCode code,
    const gchar * reason_part)
{
  guint8 buf[2048];
  gssize n;
  GstTileWireHeader h;
  GstTileWireRefuse refuse;
  gint fd = raw_connect (port);

  send_hello (fd);
  n = test_read_some (fd, buf, sizeof (buf), 7000);
  fail_unless (n >= GST_TILE_WIRE_HEADER_SIZE, "no answer to HELLO");
  fail_unless_equals_int (gst_tile_wire_header_parse (buf, n, &h, NULL),
      GST_TILE_WIRE_PARSE_OK);
  fail_unless (h.type == GST_TILE_WIRE_TYPE_REFUSE, "%s instead of REFUSE",
      gst_tile_wire_type_get_name (h.type));
  fail_unless (gst_tile_wire_refuse_parse (buf + GST_TILE_WIRE_HEADER_SIZE,
          h.payload_len, &refuse, NULL));
  fail_unless_equals_int (refuse.code, code);
  fail_unless (strstr (refuse.reason, reason_part) != NULL, "reason: %s",
      refuse.reason);
  /* then the connection is closed */
  fail_unless (test_read_some (fd, buf, 1, 7000) == 0);
  close (fd);
}

/* A receiver that does the handshake by hand, HELLO then a data
 * connection per tile with a tiny receive buffer, and then never reads
 * them: its tiles stay in the sender. */
typedef struct
{
  gint ctl;
  gint data[GST_TILE_WIRE_MAX_UNITS];
  guint n_data;
  gchar *address;               /* of its control connection */
} RawRx;

static RawRx *
raw_rx_start (guint port, gint rcvbuf)
{
  RawRx *r = g_new0 (RawRx, 1);
  GstTileWireConfig *config = g_new0 (GstTileWireConfig, 1);
  guint8 *buf = g_malloc (GST_TILE_WIRE_MAX_PAYLOAD);
  GByteArray *m = g_byte_array_new ();
  GstTileWireUnitHello uh = { 0 };
  GstTileWireHeader h;
  struct sockaddr_in sa;
  socklen_t sl = sizeof (sa);
  guint i;

  r->ctl = raw_connect (port);
  fail_unless (getsockname (r->ctl, (struct sockaddr *) &sa, &sl) == 0);
  r->address = g_strdup_printf ("127.0.0.1:%u", ntohs (sa.sin_port));
  send_hello (r->ctl);
  /* the CONFIG, maybe after keep-alives */
  do {
    fail_unless_equals_int (test_read_some (r->ctl, buf,
            GST_TILE_WIRE_HEADER_SIZE, 5000), GST_TILE_WIRE_HEADER_SIZE);
    fail_unless_equals_int (gst_tile_wire_header_parse (buf,
            GST_TILE_WIRE_HEADER_SIZE, &h, NULL), GST_TILE_WIRE_PARSE_OK);
    fail_unless (h.payload_len <= GST_TILE_WIRE_MAX_PAYLOAD);
    fail_unless_equals_int (test_read_some (r->ctl, buf, h.payload_len, 5000),
        h.payload_len);
  } while (h.type == GST_TILE_WIRE_TYPE_KEEPALIVE);
  fail_unless (h.type == GST_TILE_WIRE_TYPE_CONFIG, "%s instead of CONFIG",
      gst_tile_wire_type_get_name (h.type));
  fail_unless (gst_tile_wire_config_parse (buf, h.payload_len, config, NULL));

  r->n_data = config->n_tiles;
  for (i = 0; i < r->n_data; i++) {
    uh.token = config->token;
    uh.generation = config->generation;
    uh.unit = i;
    g_byte_array_set_size (m, 0);
    fail_unless (gst_tile_wire_unit_hello_pack (&uh, m, NULL));
    r->data[i] = raw_connect_rcvbuf (port, rcvbuf);
    send_message (r->data[i], m);
  }
  g_byte_array_unref (m);
  g_free (buf);
  g_free (config);
  return r;
}

/* A KEEPALIVE, so that the sender does not time the receiver out, and
 * what came on the control connection is read and dropped */
static void
raw_rx_keepalive (RawRx * r)
{
  GByteArray *m = g_byte_array_new ();
  guint8 buf[4096];

  gst_tile_wire_keepalive_pack (g_get_monotonic_time () * 1000, m);
  send_message (r->ctl, m);
  g_byte_array_unref (m);
  while (recv (r->ctl, buf, sizeof (buf), MSG_DONTWAIT) > 0);
}

static void
raw_rx_free (RawRx * r)
{
  guint i;

  for (i = 0; i < r->n_data; i++)
    close (r->data[i]);
  close (r->ctl);
  g_free (r->address);
  g_free (r);
}

/* ---------------------------------------------------------------------- */
/* the tests                                                               */

#define N_FANOUT 4

/* 4 receivers at once get every frame byte-exact, in order, with the same
 * sender timestamp; the signals and `receivers` say who they are. */
static void
check_four_receivers (gboolean udp)
{
  const guint n_frames = 30;
  const gsize size = 320 * 240;
  Tx *t = tx_start (GRAY (320, 240), size, udp ?
      "units=3 max-in-flight=64 protocol=udp" : "units=3 max-in-flight=64");
  static const gchar *names[N_FANOUT] = { "A", "B", "C", "D" };
  Rx *rx[N_FANOUT];
  GstStructure *s;
  guint64 frames = 0, bytes = 0, packets = 0;
  guint i, j, k;

  for (i = 0; i < N_FANOUT; i++)
    rx[i] = rx_start (names[i], t, udp ? UDP_RX_PROPS : NULL);
  wait_receivers (t, N_FANOUT);

  /* one frame at a time: every receiver has it before the next (none can
   * be dropped for max-in-flight or a receiver window) */
  for (k = 1; k <= n_frames; k++) {
    tx_push (t);
    for (i = 0; i < N_FANOUT; i++)
      rx_wait (rx[i], k);
  }

  for (i = 0; i < N_FANOUT; i++) {
    rx_check_run (rx[i], 1, n_frames);
    fail_unless_equals_int (rx_count (rx[i]), n_frames);
    for (k = 0; k < n_frames; k++) {
      /* the time tilesink took the frame, the same for every receiver */
      fail_unless (rx_stamp (rx[i], k) == rx_stamp (rx[0], k),
          "frame %u: sender time %" G_GUINT64_FORMAT " at %s, %"
          G_GUINT64_FORMAT " at %s", k + 1, rx_stamp (rx[i], k),
          rx[i]->name, rx_stamp (rx[0], k), rx[0]->name);
      fail_unless (rx_stamp (rx[i], k) >= g_array_index (t->push_ns, guint64,
              k), "frame %u: sender time before the push", k + 1);
    }
  }

  /* the signals: four receivers, four ids */
  fail_unless_equals_int (n_events (t, t->added), N_FANOUT);
  fail_unless_equals_int (n_events (t, t->removed), 0);
  for (i = 0; i < N_FANOUT; i++) {
    Event *e = g_ptr_array_index (t->added, i);

    fail_unless (e->id > 0);
    fail_unless (g_str_has_prefix (e->address, "127.0.0.1:") &&
        strlen (e->address) > strlen ("127.0.0.1:"), "address %s", e->address);
    for (j = 0; j < i; j++)
      fail_unless (e->id != ((Event *) g_ptr_array_index (t->added,
                  j))->id, "receiver id %u twice", e->id);
  }

  /* the statistics: a frame counts as sent once its tiles are out, which
   * on loopback can be after the receiver has it */
  {
    gint64 end = g_get_monotonic_time () + WAIT_US;

    while (TRUE) {
      s = tx_stats (t);
      if (stats_u64 (s, "frames-sent") == (guint64) N_FANOUT * n_frames)
        break;
      fail_unless (g_get_monotonic_time () < end, "frames-sent %"
          G_GUINT64_FORMAT ", not %u", stats_u64 (s, "frames-sent"),
          N_FANOUT * n_frames);
      gst_structure_free (s);
      g_usleep (5000);
    }
  }
  fail_unless_equals_int (stats_uint (s, "receiver-count"), N_FANOUT);
  fail_unless_equals_int (stats_uint (s, "max-receivers"), 8);
  fail_unless_equals_int (stats_uint (s, "clients"), N_FANOUT);
  fail_unless_equals_int (stats_uint (s, "disconnects"), 0);
  fail_unless_equals_uint64 (stats_u64 (s, "frames-dropped"), 0);
  fail_unless_equals_uint64 (stats_u64 (s, "frames-unsent"), 0);
  fail_unless_equals_int (n_entries (s), N_FANOUT);
  for (i = 0; i < N_FANOUT; i++) {
    Event *e = g_ptr_array_index (t->added, i);
    const GstStructure *r = entry_by_id (s, e->id);

    fail_unless (r != NULL, "receiver %u not in %" GST_PTR_FORMAT, e->id, s);
    fail_unless_equals_string (gst_structure_get_string (r, "address"),
        e->address);
    fail_unless_equals_uint64 (stats_u64 (r, "frames-sent"), n_frames);
    fail_unless_equals_uint64 (stats_u64 (r, "frames-dropped"), 0);
    fail_unless (stats_u64 (r, "bytes-sent") >= n_frames * size,
        "receiver %u: %" G_GUINT64_FORMAT " bytes sent", e->id,
        stats_u64 (r, "bytes-sent"));
    if (udp)
      fail_unless (stats_u64 (r, "packets-sent") > 0);
    frames += stats_u64 (r, "frames-sent");
    bytes += stats_u64 (r, "bytes-sent");
    packets += stats_u64 (r, "packets-sent");
  }
  /* the totals are the receivers' sums */
  fail_unless_equals_uint64 (frames, stats_u64 (s, "frames-sent"));
  fail_unless_equals_uint64 (bytes, stats_u64 (s, "bytes-sent"));
  fail_unless_equals_uint64 (packets, stats_u64 (s, "packets-sent"));
  gst_structure_free (s);

  for (i = 0; i < N_FANOUT; i++) {
    fail_unless_equals_uint64 (test_stat_u64 (rx[i]->tilesrc, "stats",
            "frames-received"), n_frames);
    rx_check_no_error (rx[i]);
    rx_free (rx[i]);
  }
  tx_stop (t);
}

GST_START_TEST (test_four_receivers_tcp)
{
  check_four_receivers (FALSE);
}

GST_END_TEST;

GST_START_TEST (test_four_receivers_udp)
{
  check_four_receivers (TRUE);
}

GST_END_TEST;

/* While a stream runs to A, B joins (and gets whole frames from some
 * point on), leaves, and C joins: A gets every frame throughout. */
GST_START_TEST (test_join_and_leave)
{
  Tx *t = tx_start (GRAY (160, 120), 160 * 120,
      "units=2 max-in-flight=64");
  Rx *a, *b, *c;
  guint id_a, id_b, id_c, before, first, n;
  gchar *reason;
  GstStructure *s;

  a = rx_start ("A", t, NULL);
  wait_receivers (t, 1);
  id_a = wait_added (t, 1);
  tx_pusher_start (t, 10 * 1000);
  rx_wait (a, 10);

  /* B joins mid-stream: from a frame after those A had when B started */
  before = rx_count (a);
  b = rx_start ("B", t, NULL);
  id_b = wait_added (t, 2);
  fail_unless (id_b != id_a);
  rx_wait (b, 10);
  first = rx_check_run (b, 0, 0);
  fail_unless (first > before, "B's first frame is %u, A had %u before B "
      "started", first, before);

  /* B leaves: its session ends, A goes on */
  rx_stop (b);
  n = rx_count (b);
  reason = wait_removed (t, id_b);
  GST_INFO ("receiver %u removed: %s", id_b, reason);
  fail_unless (reason != NULL && *reason != '\0');
  g_free (reason);
  wait_receivers (t, 1);
  /* and gets nothing more */
  fail_unless_equals_int (rx_count (b), n);
  rx_check_run (b, first, 0);

  /* C joins */
  before = rx_count (a);
  c = rx_start ("C", t, NULL);
  id_c = wait_added (t, 3);
  fail_unless (id_c != id_a && id_c != id_b);
  rx_wait (c, 10);
  fail_unless (rx_check_run (c, 0, 0) > before);
  rx_wait (a, rx_count (a) + 10);
  tx_pusher_stop (t);

  /* A got every frame, C every frame since it joined, to the last */
  rx_wait_seed (a, tx_pushed (t));
  rx_wait_seed (c, tx_pushed (t));
  rx_check_run (a, 1, tx_pushed (t));
  rx_check_run (c, 0, tx_pushed (t));
  /* each receiver's STATS go to its own entry (A has more frames than C) */
  fail_unless (rx_count (a) > rx_count (c));
  wait_report (t, id_a, a);
  wait_report (t, id_c, c);

  s = tx_stats (t);
  fail_unless_equals_int (stats_uint (s, "receiver-count"), 2);
  fail_unless_equals_int (stats_uint (s, "clients"), 3);
  fail_unless_equals_int (stats_uint (s, "disconnects"), 1);
  fail_unless (entry_by_id (s, id_a) != NULL);
  fail_unless (entry_by_id (s, id_b) == NULL);
  fail_unless (entry_by_id (s, id_c) != NULL);
  fail_unless_equals_uint64 (stats_u64 (entry_by_id (s, id_a),
          "frames-dropped"), 0);
  gst_structure_free (s);
  fail_unless_equals_int (n_events (t, t->removed), 1);

  rx_check_no_error (a);
  rx_check_no_error (c);
  rx_free (a);
  rx_free (b);
  rx_free (c);
  tx_stop (t);
}

GST_END_TEST;

/* A receiver that never reads its data connections loses frames alone:
 * A and B, served by the same tilesink, get (nearly) every frame. */
GST_START_TEST (test_stalled_receiver)
{
  const guint n_frames = 60;
  const gsize size = 1024 * 1024;
  /* max-in-flight=8: the stalled receiver has its first frame stuck, the
   * next 7 queued, and loses the others */
  Tx *t = tx_start (GRAY (1024, 1024), size,
      "units=2 max-in-flight=8 timeout=20000");
  Rx *a, *b;
  RawRx *stalled;
  GstStructure *s;
  const GstStructure *e;
  guint i, id_a, id_b;
  gint64 end;

  a = rx_start ("A", t, NULL);
  wait_receivers (t, 1);
  id_a = wait_added (t, 1);
  b = rx_start ("B", t, NULL);
  wait_receivers (t, 2);
  id_b = wait_added (t, 2);
  stalled = raw_rx_start (t->port, 4096);
  wait_receivers (t, 3);

  /* 30 frames/s of 1 MiB */
  for (i = 0; i < n_frames; i++) {
    tx_push (t);
    if (i % 15 == 0)
      raw_rx_keepalive (stalled);
    g_usleep (G_USEC_PER_SEC / 30);
  }
  /* what A and B still get, within 10 s */
  end = g_get_monotonic_time () + WAIT_US;
  while ((rx_count (a) < n_frames || rx_count (b) < n_frames)
      && g_get_monotonic_time () < end)
    g_usleep (10000);
  raw_rx_keepalive (stalled);

  GST_INFO ("A got %u, B got %u of %u frames", rx_count (a), rx_count (b),
      n_frames);
  rx_check (a);
  rx_check (b);
  fail_unless (rx_count (a) * 10 >= n_frames * 9, "A got %u of %u frames",
      rx_count (a), n_frames);
  fail_unless (rx_count (b) * 10 >= n_frames * 9, "B got %u of %u frames",
      rx_count (b), n_frames);
  for (i = 1; i < rx_count (a); i++)
    fail_unless (rx_seed (a, i) > rx_seed (a, i - 1));
  for (i = 1; i < rx_count (b); i++)
    fail_unless (rx_seed (b, i) > rx_seed (b, i - 1));

  s = tx_stats (t);
  GST_INFO ("%" GST_PTR_FORMAT, s);
  fail_unless_equals_int (stats_uint (s, "receiver-count"), 3);
  e = entry_by_address (s, stalled->address);
  fail_unless (e != NULL, "the stalled receiver %s is not in %"
      GST_PTR_FORMAT, stalled->address, s);
  fail_unless (stats_u64 (e, "frames-dropped") > 0, "the stalled receiver "
      "lost no frame: %" GST_PTR_FORMAT, e);
  fail_unless (stats_u64 (e, "frames-sent") < n_frames / 2,
      "%" GST_PTR_FORMAT, e);
  e = entry_by_id (s, id_a);
  fail_unless (e != NULL);
  fail_unless (stats_u64 (e, "frames-dropped") * 10 <= n_frames,
      "A: %" GST_PTR_FORMAT, e);
  e = entry_by_id (s, id_b);
  fail_unless (e != NULL);
  fail_unless (stats_u64 (e, "frames-dropped") * 10 <= n_frames,
      "B: %" GST_PTR_FORMAT, e);
  gst_structure_free (s);

  /* EOS reaches A at once: draining does not wait the 5 s for the stalled
   * receiver's frames, it gives them up */
  {
    GstBus *bus = gst_element_get_bus (a->pipeline);
    GstMessage *m;
    gint64 t0 = g_get_monotonic_time ();

    gst_app_src_end_of_stream (GST_APP_SRC (t->appsrc));
    m = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND, GST_MESSAGE_EOS);
    fail_unless (m != NULL, "no EOS at A");
    fail_unless (g_get_monotonic_time () - t0 < 2 * G_USEC_PER_SEC,
        "EOS took %" G_GINT64_FORMAT " ms to reach A",
        (g_get_monotonic_time () - t0) / 1000);
    GST_INFO ("EOS reached A in %" G_GINT64_FORMAT " ms",
        (g_get_monotonic_time () - t0) / 1000);
    gst_message_unref (m);
    gst_object_unref (bus);
  }

  rx_check_no_error (a);
  rx_check_no_error (b);
  rx_free (a);
  rx_free (b);
  /* tilesink stops with the stalled receiver's tiles stuck in send () */
  tx_stop (t);
  raw_rx_free (stalled);
}

GST_END_TEST;

/* max-receivers=2: a third receiver is refused busy, and gets in once one
 * of the two leaves. */
GST_START_TEST (test_max_receivers)
{
  Tx *t = tx_start (GRAY (64, 48), 64 * 48,
      "units=2 max-in-flight=64 max-receivers=2");
  Rx *a, *b, *c;
  guint refused, k;
  gint64 end;
  GstStructure *s;

  a = rx_start ("A", t, NULL);
  b = rx_start ("B", t, NULL);
  wait_receivers (t, 2);
  refused = tx_stat_uint (t, "refused");
  expect_refused_hello (t->port, GST_TILE_WIRE_REFUSE_BUSY, "max-receivers");
  fail_unless_equals_int (tx_stat_uint (t, "refused"), refused + 1);

  /* a third tilesrc keeps trying */
  c = rx_start ("C", t, "reconnect=true");
  end = g_get_monotonic_time () + WAIT_US;
  while (tx_stat_uint (t, "refused") < refused + 3) {
    fail_unless (g_get_monotonic_time () < end, "C was refused %u times",
        tx_stat_uint (t, "refused") - refused - 1);
    g_usleep (5000);
  }
  for (k = 1; k <= 5; k++) {
    tx_push (t);
    rx_wait (a, k);
    rx_wait (b, k);
  }
  fail_unless_equals_int (rx_count (c), 0);
  fail_unless_equals_int (tx_stat_uint (t, "receiver-count"), 2);
  fail_unless_equals_int (n_events (t, t->added), 2);

  /* B leaves: C gets in */
  rx_stop (b);
  wait_added (t, 3);
  wait_receivers (t, 2);
  for (k = 6; k <= 10; k++) {
    tx_push (t);
    rx_wait (a, k);
    rx_wait_seed (c, k);
  }
  rx_check_run (a, 1, 10);
  rx_check_run (b, 1, 5);
  rx_check_run (c, 6, 10);

  s = tx_stats (t);
  fail_unless_equals_int (stats_uint (s, "clients"), 3);
  fail_unless_equals_int (stats_uint (s, "max-receivers"), 2);
  fail_unless (stats_uint (s, "refused") >= refused + 3);
  gst_structure_free (s);

  rx_check_no_error (a);
  rx_check_no_error (c);
  rx_free (a);
  rx_free (b);
  rx_free (c);
  tx_stop (t);
}

GST_END_TEST;

/* The application ends one receiver's session; the other goes on. */
GST_START_TEST (test_remove_receiver)
{
  Tx *t = tx_start (GRAY (64, 48), 64 * 48, "units=2 max-in-flight=64");
  Rx *a, *b;
  guint id_a, id_b, n;
  gboolean ret = FALSE;
  gchar *reason;
  GstStructure *s;

  a = rx_start ("A", t, NULL);
  wait_receivers (t, 1);
  id_a = wait_added (t, 1);
  b = rx_start ("B", t, NULL);
  wait_receivers (t, 2);
  id_b = wait_added (t, 2);
  tx_pusher_start (t, 10 * 1000);
  rx_wait (a, 5);
  rx_wait (b, 5);

  g_signal_emit_by_name (t->tilesink, "remove-receiver", id_b, &ret);
  fail_unless (ret, "remove-receiver %u returned FALSE", id_b);
  /* it is gone already */
  ret = TRUE;
  g_signal_emit_by_name (t->tilesink, "remove-receiver", id_b, &ret);
  fail_unless (!ret, "receiver %u removed twice", id_b);
  reason = wait_removed (t, id_b);
  fail_unless (strstr (reason, "removed") != NULL, "reason: %s", reason);
  g_free (reason);
  wait_receivers (t, 1);

  /* A goes on, B gets nothing more */
  n = rx_count (b);
  rx_wait (a, rx_count (a) + 10);
  fail_unless (rx_count (b) <= n + 1, "B got %u frames after its removal",
      rx_count (b) - n);

  ret = TRUE;
  g_signal_emit_by_name (t->tilesink, "remove-receiver", 999u, &ret);
  fail_unless (!ret, "an unknown receiver removed");
  ret = TRUE;
  g_signal_emit_by_name (t->tilesink, "remove-receiver", 0u, &ret);
  fail_unless (!ret, "receiver 0 removed");

  tx_pusher_stop (t);
  rx_wait_seed (a, tx_pushed (t));
  rx_check_run (a, 1, tx_pushed (t));
  rx_check_run (b, 1, 0);
  s = tx_stats (t);
  fail_unless_equals_int (stats_uint (s, "receiver-count"), 1);
  fail_unless (entry_by_id (s, id_a) != NULL);
  fail_unless (entry_by_id (s, id_b) == NULL);
  fail_unless_equals_int (stats_uint (s, "disconnects"), 1);
  gst_structure_free (s);
  fail_unless_equals_int (n_events (t, t->removed), 1);

  rx_check_no_error (a);
  rx_free (a);
  rx_free (b);
  tx_stop (t);
}

GST_END_TEST;

GST_START_TEST (test_max_receivers_property)
{
  GstElement *sink = gst_element_factory_make ("tilesink", NULL);
  GstStructure *s;
  guint v = 0;

  fail_unless (sink != NULL);
  g_object_get (sink, "max-receivers", &v, NULL);
  fail_unless_equals_int (v, 8);
  s = test_get_stats (sink, "stats");
  fail_unless_equals_int (stats_uint (s, "max-receivers"), 8);
  fail_unless_equals_int (stats_uint (s, "receiver-count"), 0);
  fail_unless_equals_int (n_entries (s), 0);
  gst_structure_free (s);

  /* 0: no limit */
  g_object_set (sink, "max-receivers", 0, NULL);
  g_object_get (sink, "max-receivers", &v, NULL);
  fail_unless_equals_int (v, 0);
  s = test_get_stats (sink, "stats");
  fail_unless_equals_int (stats_uint (s, "max-receivers"), 0);
  gst_structure_free (s);
  g_object_set (sink, "max-receivers", 3, NULL);
  g_object_get (sink, "max-receivers", &v, NULL);
  fail_unless_equals_int (v, 3);
  gst_object_unref (sink);
}

GST_END_TEST;

static Suite *
tilefanout_suite (void)
{
  Suite *s = suite_create ("tilefanout");
  TCase *tc = test_suite_add_general (s, 60);

  tcase_add_test (tc, test_max_receivers_property);
  tcase_add_test (tc, test_four_receivers_tcp);
  tcase_add_test (tc, test_four_receivers_udp);
  tcase_add_test (tc, test_join_and_leave);
  tcase_add_test (tc, test_stalled_receiver);
  tcase_add_test (tc, test_max_receivers);
  tcase_add_test (tc, test_remove_receiver);
  return s;
}

GST_CHECK_MAIN (tilefanout);
