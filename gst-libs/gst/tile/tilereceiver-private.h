/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The receiver session's state, shared by tilereceiver.c (lifecycle, the
 * control connection, generations, pull), tilereceiver-tcp.c (frame slots,
 * TCP units) and tilereceiver-udp.c (UDP units, timers, concealment). Not
 * installed. */

#ifndef __GST_TILE_RECEIVER_PRIVATE_H__
#define __GST_TILE_RECEIVER_PRIVATE_H__

#include "tilereceiver.h"
#include "tilenet.h"
#include "tilestats.h"
#include "tilekeys.h"

#include <gst/bc/bctiling.h>
#include <sys/socket.h>

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_tile_receiver_debug);
#define GST_CAT_DEFAULT gst_tile_receiver_debug

/* protocol=udp */
#define UDP_FIRST_TIMER_NS (50 * GST_MSECOND)   /* before any frame arrived whole */
/* The timer of an incomplete frame lasts timer-factor x the average time
 * a frame takes to arrive, and at least the floor: 2 ms to start with,
 * doubled (up to 32 ms) whenever datagrams of a frame pushed by its timer
 * turn up afterwards (the timer was too short for this machine: a unit
 * thread was off the CPU), and lowered by 1/64 per frame that arrives
 * whole once a second has passed without that. */
#define UDP_MIN_TIMER_NS (2 * GST_MSECOND)
#define UDP_MAX_TIMER_FLOOR_NS (32 * GST_MSECOND)
#define UDP_FRAME_WINDOW 64     /* frames ahead of the last pushed one */

#define GST_TILE_RECEIVER_SLOTS 2

typedef enum
{
  SLOT_FREE,
  SLOT_ALLOCATING,
  SLOT_FILLING,
  SLOT_COMPLETE,
} GstTileReceiverSlotState;

typedef struct
{
  GstTileReceiverSlotState state;
  guint64 frame;
  GstBuffer *buffer;
  GstMapInfo map;
  guint64 done_mask;
  guint n_done;
  guint writers;
  gboolean discard;
  gboolean abandoned;           /* TCP: a unit's tile was abandoned */
  GstClockTime sender_ts;
  guint64 session;
  gint64 first_done;            /* monotonic us, first tile in */
  GstClockTime complete_time;   /* clock time, last tile in */
  /* protocol=udp */
  guint8 *got;                  /* a bit per datagram of the frame */
  guint n_got;
  gint64 first_ns;              /* monotonic, first datagram */
  guint64 first_real_ns;        /* CLOCK_REALTIME, first datagram */
  /* the kernel's arrival times (CLOCK_REALTIME) of the first and last
   * datagram, 0 without */
  guint64 arrive_first;
  guint64 arrive_last;
  guint n_at_last;              /* datagrams that arrived at arrive_last */
  gint64 last_ns;               /* monotonic, last datagram filed */
  gint64 deadline;              /* monotonic ns: UDP, pushed with gaps then */
  guint32 tile_copied[GST_TILE_WIRE_MAX_UNITS];   /* datagrams in place */
} GstTileReceiverSlot;

typedef struct
{
  GstTileReceiver *rx;
  guint index;
  GThread *thread;
  gint fd;
  /* the unit thread's, when the session is sealed (else NULL): the
   * cipher, keyed for a generation and an epoch of frames at a time
   * (gst_tile_receiver_unit_key ()), the secret the keys derive from and
   * the MAC keys of UNIT_HELLOs */
  GstTileSeal *seal;
  guint8 data_secret[GST_TILE_KEYS_HASH_SIZE];
  guint8 unit_c2s[GST_TILE_KEYS_HASH_SIZE];
  guint8 unit_s2c[GST_TILE_KEYS_HASH_SIZE];
  gboolean have_key;
  guint32 key_generation;
  guint64 key_epoch;
} GstTileReceiverUnit;

/* sealed bytes a TCP unit opens per step: they are still in the cache */
#define GST_TILE_RECEIVER_SEAL_CHUNK (256 * 1024)

struct _GstTileReceiver
{
  GstTileReceiverCallbacks callbacks;
  gpointer user_data;
  GstObject *log_object;        /* for the debug log */

  /* settings, fixed between start and stop */
  gchar *host;
  guint port;
  guint timeout;
  guint units_stopping;         /* stop_units_locked () calls waiting (the
                                 * control thread's and stop()'s may
                                 * overlap): no unit may start */
  guint units_joining;          /* unit threads being joined, lock released */
  gint receive_buffer_size;
  gboolean gro;
  gboolean gro_required;
  gchar *passphrase;            /* NULL: none */
  gchar *multicast_iface;       /* NULL: the route's */
  /* with a passphrase every session is sealed (the handshake fails
   * otherwise): its keys (lock; the units copy what they need), and the
   * records of its control connection: those we receive (the control
   * thread's), those we send (send_lock) */
  GstTileKeys keys;
  GstTileRecords *records_in;
  /* settings that may change at any time: atomic */
  gint stepped;
  gint reconnect;
  guint stats_interval;

  /* protocol=udp acknowledgements go out on the control connection from
   * pull(): every write to it holds send_lock, and ack_fd is -1 before
   * the connection is closed */
  GMutex send_lock;
  gint ack_fd;
  GstTileRecords *records_out;

  /* everything below: lock */
  GMutex lock;
  GCond cond;
  gboolean running;
  gboolean flushing;
  GThread *control_thread;
  gint control_fd;

  GstTileWireConfig *config;      /* of the running units, NULL when none */
  GstTileWireConfig *pending;     /* received, waiting for its turn */
  GstBcTiling tiling;
  guint64 session;              /* bumped per started generation */
  GstClockTime duration;        /* of a frame, from the caps */
  gdouble timer_factor;
  GstTileReceiverUnit units[GST_TILE_WIRE_MAX_UNITS];
  guint units_running;
  GstTileReceiverSlot slots[GST_TILE_RECEIVER_SLOTS];
  gboolean eos;
  gboolean lost;                /* the control connection is gone */
  struct sockaddr_storage server; /* the control connection's peer */
  guint server_len;
  /* protocol=udp */
  gboolean udp_drain;           /* a CONFIG or EOS came: finish the units */
  guint32 pk_base[GST_TILE_WIRE_MAX_UNITS + 1];   /* first datagram of a tile */
  guint64 last_pushed;
  gboolean have_pushed;
  GstBuffer *last_buffer;       /* newest pushed frame, for concealment */
  gboolean keep_last;           /* FALSE when GstBaseSrc will mark DISCONT */
  gint64 avg_receive_ns;        /* frames that arrived whole */
  gint64 timer_floor_ns;        /* the shortest timer, adapted */
  gint64 timer_raised_ns;       /* when late datagrams last raised it */
  guint64 timer_frame;          /* the newest frame pushed by its timer */
  gboolean have_timer_frame;
  gboolean timer_frame_raised;  /* its late datagrams raised the floor */
  guint udp_window;             /* frames the unit sockets can hold */
  guint udp_windows;            /* units that have set it */
  guint32 unit_drops[GST_TILE_WIRE_MAX_UNITS];
  GError *error;

  /* statistics */
  guint64 frames_received;
  guint64 frames_incomplete;
  guint64 frames_abandoned;
  guint64 bytes_received;
  guint64 tiles_stepped;
  guint64 tile_spread_sum;       /* us, first to last tile of a frame */
  guint64 packets_received;
  guint64 packets_lost;
  guint64 packets_late;
  guint64 packets_invalid;
  guint64 packets_tampered;
  guint64 packets_duplicate;
  guint64 frames_partial;
  guint64 frames_timer;
  guint64 packets_dropped;
  guint64 packets_in_place;
  guint64 frames_skipped;
  guint64 frames_discarded;
  guint64 packets_discarded;    /* the datagrams those frames had */
  guint connects;
  gint granted_rcvbuf;
  gboolean warned_rcvbuf;
  GstTileLatency latency;
};

/* tilereceiver.c */
G_GNUC_INTERNAL
void gst_tile_receiver_unit_seal (GstTileReceiverUnit * u);
G_GNUC_INTERNAL
void gst_tile_receiver_unit_unseal (GstTileReceiverUnit * u);
G_GNUC_INTERNAL
void gst_tile_receiver_unit_key (GstTileReceiverUnit * u, guint32 generation,
    guint64 frame);
G_GNUC_INTERNAL
gboolean gst_tile_receiver_send_control (GstTileReceiver * self, gint fd,
    GByteArray * message);
G_GNUC_INTERNAL
GstStructure *gst_tile_receiver_stats_locked (GstTileReceiver * self);
G_GNUC_INTERNAL
GstClockTime gst_tile_receiver_clock_time (GstTileReceiver * self);

/* tilereceiver-tcp.c */
G_GNUC_INTERNAL
void gst_tile_receiver_set_error_locked (GstTileReceiver * self, GError * err);
G_GNUC_INTERNAL
void gst_tile_receiver_slot_release_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, gboolean count);
G_GNUC_INTERNAL
gboolean gst_tile_receiver_fill_slot_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot);
G_GNUC_INTERNAL
gpointer gst_tile_receiver_tcp_unit (gpointer data);

/* tilereceiver-udp.c */
G_GNUC_INTERNAL
gpointer gst_tile_receiver_udp_unit (gpointer data);
G_GNUC_INTERNAL
void gst_tile_receiver_send_ack (GstTileReceiver * self,
    const GstTileWireAck * ack);
G_GNUC_INTERNAL
gboolean gst_tile_receiver_take_partial_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, gboolean by_timer, GstMapInfo * map);
G_GNUC_INTERNAL
gboolean gst_tile_receiver_udp_credible_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot);
G_GNUC_INTERNAL
void gst_tile_receiver_udp_discard_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot);
G_GNUC_INTERNAL
void gst_tile_receiver_conceal (GstBuffer * buf, GstMapInfo * map,
    GstBuffer * last);
G_GNUC_INTERNAL
void     gst_tile_receiver_refuse_error (GError ** error,
                                         const GstTileWireRefuse * refuse,
                                         const gchar * what);
G_GNUC_INTERNAL
gboolean gst_tile_receiver_refusal (const guint8 * buf, gsize len,
    GError ** error);

G_END_DECLS

#endif /* __GST_TILE_RECEIVER_PRIVATE_H__ */
