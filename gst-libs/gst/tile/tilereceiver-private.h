/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The receiver's state, in parts owned by the files that use them. Not
 * installed.
 *
 * - tilereceiver.c: the API and the lifecycle, the generations (starting
 *   and stopping their units, the units' keys), pull() and the statistics
 *   (GstTileReceiverCounters);
 * - tilereceiver-control.c: the control connection (GstTileReceiverControl):
 *   the handshake and the session's keys, CONFIG, EOS, keep-alives, STATS
 *   and ACKs, TIME queries, reconnects, REFUSE as an error;
 * - tilereceiver-clock.c: the sender's clock (GstTileReceiverClock),
 *   calibrated from the answers to the TIME queries;
 * - tilereceiver-slots.c: the two frame slots (GstTileReceiverSlot) of both
 *   protocols: a frame's buffer, its release, the oldest frame out;
 * - tilereceiver-tcp.c: the TCP units and which slot their tiles go to;
 * - tilereceiver-udp.c: the UDP units, their batches, the completion timers,
 *   the receive window and the concealment. Its state (GstTileReceiverUdp,
 *   also a slot's datagrams) is its own: the other files ask it through the
 *   functions declared below;
 * - tilereceiver-nack.c: the NACKs (retransmit);
 * - tilereceiver-fec.c: forward error correction: a slot's parity
 *   datagrams (GstTileReceiverFec) and the data they recover.
 *
 * GstTileReceiver.lock guards every member unless it says otherwise.
 */

#ifndef __GST_TILE_RECEIVER_PRIVATE_H__
#define __GST_TILE_RECEIVER_PRIVATE_H__

#include "tilereceiver.h"
#include "tilenet.h"
#include "tilestats.h"
#include "tilekeys.h"
#include "tileplayout.h"
#include "tileregion.h"

#include <gst/bc/bctiling.h>
#include <sys/socket.h>

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_tile_receiver_debug);
#define GST_CAT_DEFAULT gst_tile_receiver_debug

#define GST_TILE_RECEIVER_SLOTS 2

/* sealed bytes a TCP unit opens per step: they are still in the cache */
#define GST_TILE_RECEIVER_SEAL_CHUNK (256 * 1024)

typedef struct _GstTileReceiverUdp GstTileReceiverUdp;
typedef struct _GstTileReceiverFec GstTileReceiverFec;

/* What start() copies of its GstTileReceiverSettings: fixed until stop(),
 * read without the lock. */
typedef struct
{
  gchar *host;
  guint port;
  guint timeout;                /* ms */
  gint receive_buffer_size;
  gboolean gro;
  gboolean gro_required;
  gchar *passphrase;            /* NULL: none */
  gchar *multicast_iface;       /* NULL: the route's */
  GstTileReceiverTimeBase time_base;
  GstClock *clock;              /* TIME_CLOCK's */
  gint latency_ms;
  gboolean drop_late;
  gboolean retransmit;          /* protocol=udp: NACKs */
  gboolean redundant;           /* several hosts: each datagram over each */
  /* the region asked for in HELLO (gst_tile_receiver_set_region ()) */
  gboolean has_region;
  GstTileWireRegion region;
} GstTileReceiverFixedSettings;

/* A jump of the sender's clock that is followed at once, not averaged in */
#define GST_TILE_RECEIVER_CLOCK_JUMP (100 * GST_MSECOND)
/* A step back of the sender's time beyond which the receiver's clock,
 * which cannot go back, is replaced (below it, the clock stands still
 * until the sender's time catches up) */
#define GST_TILE_RECEIVER_CLOCK_BACK (1 * GST_SECOND)
/* a frame's capture time later than the time base's clock now plus
 * this, or earlier than now less GST_TILE_RECEIVER_MAX_DELAY, is not
 * believed (see playout_locked () in tilereceiver-slots.c) */
#define GST_TILE_RECEIVER_MAX_AHEAD (50 * GST_MSECOND)
#define GST_TILE_RECEIVER_MAX_DELAY (10 * GST_SECOND)
/* the automatic playout latency before the first frame: a frame at 30/s */
#define GST_TILE_RECEIVER_AUTO_LATENCY_START (33 * GST_MSECOND)

/* The sender's clock (tilereceiver-clock.c). */
typedef struct
{
  GstClock *clock;              /* monotonic, calibrated to the sender's */
  GstClockTime pending;         /* internal time of the query in flight */
  gint64 sent_us;               /* when it went, monotonic */
  gint64 next_us;               /* when the next one is due */
  guint queries;                /* of this connection */
  guint observations;           /* answers used since the last resync */
  GstClockTime rtts[16];        /* the latest round trips */
  guint n_rtt;
  GstClockTime rtt;             /* of the latest answer used, NONE before */
  GstClockTimeDiff offset;      /* the sender's time - this host's */
  GstClockTime cal_internal, cal_external, cal_num, cal_denom;
  guint resyncs;                /* jumps of the sender's clock followed */
  guint ignored;                /* answers to no query of ours */
  guint filtered;               /* answers that took too long */
  guint lost;                   /* queries never answered */
  GstClock *replaced;           /* the clock before a backward step, until
                                 * the control thread reports it */
} GstTileReceiverClock;

/* The control connection (tilereceiver-control.c). */
typedef struct
{
  GThread *thread;              /* from start() to stop() */
  gint fd;                      /* -1 without one */
  gboolean lost;                /* a unit lost its data connection */
  struct sockaddr_storage server;       /* the peer */
  guint server_len;
  /* in a sealed session, the records of the connection: those we receive
   * (the control thread's), those we send (send_lock) */
  GstTileRecords *records_in;
  GstTileRecords *records_out;
  /* every write holds send_lock (pull() sends the protocol=udp ACKs there
   * too); ack_fd is the connection, -1 before it is closed */
  GMutex send_lock;
  gint ack_fd;
  /* redundant paths: messages not sent while the connection's path had
   * failed (send_lock) */
  guint64 skipped;
} GstTileReceiverControl;

/* One network path of the session (tilereceiver-paths.c): the control
 * connection's, or a PATH connection; the control thread's, but for
 * `server` which units read under the lock. */
typedef struct
{
  gint fd;                      /* -1: down */
  struct sockaddr_storage server;       /* the sender's address on it */
  guint server_len;
  gint64 rx_us;                 /* last heard from */
  gint64 tx_us;                 /* last KEEPALIVE sent */
  guint8 buf[GST_TILE_WIRE_HEADER_SIZE + 8];    /* a KEEPALIVE coming in */
  gsize have;
} GstTileReceiverPath;

/* The paths: settings.host's hosts, parsed by the control thread; the
 * paths up (indexes, the control connection's first) under the lock. */
typedef struct
{
  gchar **hosts;
  guint n_hosts;
  guint control;                /* the control connection's path */
  GstTileReceiverPath path[GST_TILE_WIRE_MAX_PATHS];
  guint up[GST_TILE_WIRE_MAX_PATHS];
  guint n_up;
} GstTileReceiverPaths;

typedef enum
{
  SLOT_FREE,
  SLOT_ALLOCATING,
  SLOT_FILLING,
  SLOT_COMPLETE,
} GstTileReceiverSlotState;

/* A frame slot (tilereceiver-slots.c). Over UDP its datagrams are
 * tilereceiver-udp.c's. */
typedef struct
{
  GstTileReceiverSlotState state;
  guint64 frame;
  guint64 run;                  /* of the units that fill it */
  GstBuffer *buffer;
  GstMapInfo map;               /* FILLING: the buffer's */
  guint writers;                /* units writing into it, lock released */
  GstClockTime sender_ts;
  GstClockTime capture;         /* the sender's clock */
  GstClockTime complete_time;   /* clock time, last byte in */
  /* protocol=tcp */
  guint64 done_mask;            /* the tiles in */
  /* balanced tiles: each unit's rows of this frame, once its header came */
  guint64 rows_known;
  guint32 rows_first[GST_TILE_WIRE_MAX_UNITS];
  guint32 rows_end[GST_TILE_WIRE_MAX_UNITS];
  guint32 rows_done;            /* of the tiles in: complete at n_rows */
  guint n_done;
  gint64 first_done;            /* monotonic us, first tile in */
  gboolean discard;             /* can no longer complete: released once
                                 * nobody writes into it */
  gboolean abandoned;           /* the sender abandoned a tile */
  /* protocol=udp: datagrams of it were asked for again (NACK), and how
   * many times its timer did (tilereceiver-nack.c); while its timer holds
   * it for resends: the end of the hold at the latest (monotonic ns), and
   * the datagrams that had filled gaps at the last ask */
  gboolean nacked;
  guint nack_asks;
  gint64 hold_end;
  guint fills_at_ask;
} GstTileReceiverSlot;

/* A unit's gap detection (tilereceiver-nack.c): the frame it last got a
 * datagram of and the next datagram expected, the NACK being gathered,
 * and the messages to send once the lock is released. Lock, but @out and
 * @msg: the unit thread's. */
typedef struct
{
  gboolean have;
  guint64 frame;
  guint32 next;
  guint32 n;                    /* datagrams of the tile */
  GstTileWireNack pending;      /* n_ranges 0: none */
  /* striped datagrams (the paths overtake each other): the same per path
   * (by its number on the wire, a bit each in @path_have); a gap waits
   * for the frame's timer */
  guint path_have;
  guint64 path_frame[GST_TILE_WIRE_MAX_PATHS];
  guint32 path_next[GST_TILE_WIRE_MAX_PATHS];
  /* the newest frame of which parity came to the unit (fec_seen): while
   * parity comes, gaps wait for it, and the frame's timer asks for what
   * it could not recover */
  gboolean fec_seen;
  guint64 fec_frame;
  GByteArray *out;              /* packed NACKs, lock */
  GByteArray *sending;          /* the unit thread's */
  GByteArray *msg;
} GstTileReceiverNackUnit;

typedef struct _GstTileReceiverLeg GstTileReceiverLeg;

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
  GstTileReceiverNackUnit nack;
  /* TCP: when a tile of it last began or ended (monotonic us, lock) */
  gint64 tile_us;
  /* TCP, redundant paths (tilereceiver-tcp.c): the path of this
   * connection (0: the unit's own, k: the k-th path up after it), and the
   * tile it reads before the first copy of each goes into its frame (the
   * connection's thread); on the unit, its connections on the other paths
   * (its thread's) and the newest frame whose tile one of them took for
   * its frame (lock) */
  guint leg;
  guint8 *staging;               /* a tile of the generation's size */
  GstTileReceiverLeg *legs[GST_TILE_WIRE_MAX_PATHS - 1];
  guint n_legs;
  gboolean have_taken;
  guint64 taken_frame;
} GstTileReceiverUnit;

/* TCP, redundant paths: a unit's connection on another path, with its
 * thread (made and joined by the unit's) and how it ended */
struct _GstTileReceiverLeg
{
  GstTileReceiverUnit c;        /* (its index is the unit's) */
  GThread *thread;
  guint64 run;
  GstTileWireUnitHello hello;
  GError *error;
};

/* The statistics' counters, zeroed by start(); named in one place:
 * gst_tile_receiver_counters_to_structure (). */
typedef struct
{
  guint64 frames_received;
  guint64 frames_incomplete;
  guint64 frames_abandoned;
  guint64 bytes_received;
  guint64 tiles_stepped;
  guint64 tiles_late;           /* balanced: their frame was done */
  guint64 tiles_duplicate;      /* redundant: a later copy of a tile */
  guint64 tcp_path_errors;      /* redundant: a connection lost */
  guint64 tile_spread_sum;      /* us, first to last tile of a frame */
  guint connects;
  gint granted_rcvbuf;
  GstTileLatency latency;
  /* playout */
  guint64 frames_late;
  guint64 frames_dropped_late;
  guint64 frames_retimed;
  guint latency_changes;
  /* protocol=udp */
  guint64 packets_received;
  guint64 packets_lost;
  guint64 packets_late;
  guint64 packets_invalid;
  guint64 packets_tampered;
  guint64 packets_duplicate;
  guint64 packets_dropped;
  guint64 packets_in_place;
  guint64 frames_partial;
  guint64 frames_timer;
  guint64 frames_skipped;
  guint64 frames_discarded;
  guint64 packets_discarded;    /* the datagrams those frames had */
  guint64 frames_recovered;     /* had a NACK and became whole */
  guint64 nacks_sent;
  /* forward error correction (tilereceiver-fec.c) */
  guint64 fec_packets_received;
  guint64 fec_packets_recovered;
  guint64 fec_frames_recovered; /* became whole with recovered datagrams */
  guint64 fec_frames_unrecoverable;     /* had parity, left with gaps */
  guint64 fec_packets_unused;   /* parity of frames whole or pushed */
} GstTileReceiverCounters;

struct _GstTileReceiver
{
  GstTileReceiverCallbacks callbacks;
  gpointer user_data;
  GstObject *log_object;        /* for the debug log */
  GstTileReceiverFixedSettings settings;
  /* settings that may change at any time: atomic, but timer_factor */
  gint stepped;
  gint reconnect;
  guint stats_interval;
  gdouble timer_factor;

  GMutex lock;
  GCond cond;                   /* any change of the slots, the units or
                                 * the generations */
  gboolean running;
  gboolean flushing;
  GError *error;                /* the first, for pull() */
  /* the session: its control connection, and its keys when sealed (the
   * handshake derives them, the units copy what they need) */
  GstTileReceiverControl control;
  GstTileKeys keys;
  /* the network paths (tilereceiver-paths.c) */
  GstTileReceiverPaths paths;
  /* the session asked for balanced tiles (HELLO, several paths): over TCP
   * every tile header says its rows (fixed per session by the control
   * thread before the units start) */
  gboolean balance;
  gboolean balance_asked;       /* the control thread's: its HELLO did */
  /* balanced tiles: the newest frame complete in run @balance_done_run
   * (@balance_have_done): a tile of it or of an older frame is late */
  gboolean balance_have_done;
  guint64 balance_done;
  guint64 balance_done_run;
  /* the session asked for redundant paths (HELLO, several paths): each
   * unit has a socket (UDP) or a connection (TCP) on every path up (fixed
   * per session as balance) */
  gboolean redundant;
  gboolean redundant_asked;
  /* the session asked for balanced tiles over UDP: each unit has a socket
   * on every path up, the sender stripes its datagrams over them by the
   * paths' rates, and the ACKs give what arrived over each (fixed per
   * session as balance) */
  gboolean stripe;
  GstTileReceiverClock clock;   /* the sender's */
  GstTilePlayout playout;

  /* the generations: the CONFIG of the running units, the one received
   * that waits for its turn, EOS */
  GstTileWireConfig *config;    /* NULL when none */
  GstTileWireConfig *pending;
  gboolean eos;
  GstBcTiling tiling;           /* of config */
  /* the units of config this receiver runs, a bit per tile (its region's:
   * gst_tile_region_config_units ()), and how many */
  guint64 units_used;
  guint n_used;
  GstClockTime duration;        /* of a frame, from the caps */
  guint64 run;                  /* bumped when units start or stop: a unit
                                 * of an older run leaves the slots alone */
  GstTileReceiverUnit units[GST_TILE_WIRE_MAX_UNITS];
  guint units_running;
  guint units_stopping;         /* gst_tile_receiver_stop_units_locked ()
                                 * calls waiting (the control thread's and
                                 * stop()'s may coincide): no unit may
                                 * start */
  guint units_joining;          /* unit threads being joined, lock released */
  gboolean warned_rcvbuf;

  GstTileReceiverSlot slots[GST_TILE_RECEIVER_SLOTS];
  GstTileReceiverUdp *udp;      /* protocol=udp: tilereceiver-udp.c's */
  GstTileReceiverFec *fec;      /* protocol=udp: tilereceiver-fec.c's */
  GstTileReceiverCounters counters;
  /* NACKs of frames whose timer came, packed under the lock, sent by
   * pull() without it (tilereceiver-nack.c) */
  GByteArray *nack_out;
  GByteArray *nack_sending;
  GByteArray *nack_msg;
  /* holds in a row in which no resend came (the sender no longer had the
   * frame, or its budget was spent), and the timers since the last probe
   * while they are too many (tilereceiver-nack.c) */
  guint nack_futile;
  guint nack_probe;
  /* gst_tile_receiver_set_region (), copied into settings at start () */
  gboolean has_region;
  GstTileWireRegion region;
};

/* Whether unit @i runs in the current generation. Lock held. */
static inline gboolean
gst_tile_receiver_uses (const GstTileReceiver * self, guint i)
{
  return i < GST_TILE_WIRE_MAX_UNITS && (self->units_used >> i) & 1;
}

/* tilereceiver.c */
G_GNUC_INTERNAL
void gst_tile_receiver_set_error_locked (GstTileReceiver * self, GError * err);
G_GNUC_INTERNAL
void gst_tile_receiver_stop_units_locked (GstTileReceiver * self);
G_GNUC_INTERNAL
void gst_tile_receiver_unit_seal (GstTileReceiverUnit * u);
G_GNUC_INTERNAL
void gst_tile_receiver_unit_unseal (GstTileReceiverUnit * u);
G_GNUC_INTERNAL
void gst_tile_receiver_unit_key (GstTileReceiverUnit * u, guint32 generation,
    guint64 frame);
G_GNUC_INTERNAL
GstStructure *gst_tile_receiver_counters_to_structure (const
    GstTileReceiverCounters * counters, const GstTileWireConfig * config,
    guint n_used, const GstTileReceiverFixedSettings * settings,
    GstTileReceiverUdp * udp);
G_GNUC_INTERNAL
GstClockTime gst_tile_receiver_clock_time (GstTileReceiver * self);
G_GNUC_INTERNAL
void gst_tile_receiver_time_stats_locked (GstTileReceiver * self,
    GstStructure * s);

/* tilereceiver-control.c */
G_GNUC_INTERNAL
void gst_tile_receiver_control_start_locked (GstTileReceiver * self);
G_GNUC_INTERNAL
void gst_tile_receiver_control_shutdown_locked (GstTileReceiver * self,
    gboolean lost);
G_GNUC_INTERNAL
void gst_tile_receiver_control_join (GstTileReceiver * self);
G_GNUC_INTERNAL
guint gst_tile_receiver_control_peer_locked (GstTileReceiver * self,
    struct sockaddr_storage *peer);
G_GNUC_INTERNAL
void gst_tile_receiver_send_ack (GstTileReceiver * self,
    const GstTileWireAck * ack);
G_GNUC_INTERNAL
void gst_tile_receiver_refuse_error (GError ** error,
    const GstTileWireRefuse * refuse, const gchar * what);
G_GNUC_INTERNAL
gboolean gst_tile_receiver_refusal (const guint8 * buf, gsize len,
    GError ** error);

/* tilereceiver-slots.c */
G_GNUC_INTERNAL
void gst_tile_receiver_slots_reset (GstTileReceiver * self);
G_GNUC_INTERNAL
gboolean gst_tile_receiver_slot_fill_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot);
G_GNUC_INTERNAL
void gst_tile_receiver_slot_release_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, gboolean count);
G_GNUC_INTERNAL
void gst_tile_receiver_slots_release_locked (GstTileReceiver * self);
G_GNUC_INTERNAL
void gst_tile_receiver_slots_discard_incomplete_locked (GstTileReceiver *
    self);
G_GNUC_INTERNAL
GstTileReceiverSlot *gst_tile_receiver_slots_oldest_locked (GstTileReceiver *
    self, gboolean filling);
G_GNUC_INTERNAL
gint64 gst_tile_receiver_slot_time_left_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot);
G_GNUC_INTERNAL
void gst_tile_receiver_slot_take_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, GstTileReceiverFrame * out);

/* tilereceiver-clock.c */
G_GNUC_INTERNAL
void     gst_tile_receiver_clock_init (GstTileReceiverClock * c);
G_GNUC_INTERNAL
void     gst_tile_receiver_clock_clear (GstTileReceiverClock * c);
G_GNUC_INTERNAL
void     gst_tile_receiver_clock_reset_locked (GstTileReceiverClock * c);
G_GNUC_INTERNAL
gboolean gst_tile_receiver_clock_query_locked (GstTileReceiverClock * c,
    gint64 now_us, GstTileWireTime * q);
G_GNUC_INTERNAL
void     gst_tile_receiver_clock_answer_locked (GstTileReceiverClock * c,
    const GstTileWireTime * a, GstObject * log_object);
G_GNUC_INTERNAL
void     gst_tile_receiver_clock_stats_locked (const GstTileReceiverClock * c,
    GstStructure * s);

/* tilereceiver-tcp.c */
G_GNUC_INTERNAL
gpointer gst_tile_receiver_tcp_unit (gpointer data);
G_GNUC_INTERNAL
GstTileReceiverSlot *gst_tile_receiver_tcp_next_locked (GstTileReceiver * self);

/* tilereceiver-udp.c */
G_GNUC_INTERNAL
GstTileReceiverUdp *gst_tile_receiver_udp_new (void);
G_GNUC_INTERNAL
void gst_tile_receiver_udp_free (GstTileReceiverUdp * udp);
G_GNUC_INTERNAL
void gst_tile_receiver_udp_reset_locked (GstTileReceiverUdp * udp);
G_GNUC_INTERNAL
void gst_tile_receiver_udp_start_locked (GstTileReceiver * self);
G_GNUC_INTERNAL
gpointer gst_tile_receiver_udp_unit (gpointer data);
G_GNUC_INTERNAL
void gst_tile_receiver_udp_drain_locked (GstTileReceiverUdp * udp);
G_GNUC_INTERNAL
void gst_tile_receiver_udp_new_session_locked (GstTileReceiverUdp * udp);
G_GNUC_INTERNAL
GstTileReceiverSlot *gst_tile_receiver_udp_next_locked (GstTileReceiver *
    self, gboolean * partial, GstMapInfo * map, gint64 * wait_until);
G_GNUC_INTERNAL
void gst_tile_receiver_udp_take_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, const GstTileReceiverFrame * frame,
    GstTileWireAck * ack);
G_GNUC_INTERNAL
gboolean gst_tile_receiver_udp_discard_ack_locked (GstTileReceiver * self,
    GstTileWireAck * ack);
G_GNUC_INTERNAL
void gst_tile_receiver_udp_conceal (GstTileReceiver * self, GstBuffer * buf,
    GstMapInfo * map);
G_GNUC_INTERNAL
void gst_tile_receiver_udp_keep_last (GstTileReceiver * self,
    GstBuffer * buffer);
G_GNUC_INTERNAL
void gst_tile_receiver_udp_flushed_locked (GstTileReceiverUdp * udp);
G_GNUC_INTERNAL
void gst_tile_receiver_udp_gauges_locked (GstTileReceiverUdp * udp,
    guint64 * kernel_drops, gint64 * timer_floor_ns, guint64 * path_errors);
G_GNUC_INTERNAL
guint8 *gst_tile_receiver_udp_got_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, guint unit, guint32 * pk_base);
G_GNUC_INTERNAL
void gst_tile_receiver_udp_recovered_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, guint unit, guint n);

/* tilereceiver-nack.c */
G_GNUC_INTERNAL
void gst_tile_receiver_nack_init (GstTileReceiver * self);
G_GNUC_INTERNAL
void gst_tile_receiver_nack_clear (GstTileReceiver * self);
G_GNUC_INTERNAL
void gst_tile_receiver_nack_unit_reset_locked (GstTileReceiverUnit * u);
G_GNUC_INTERNAL
gboolean gst_tile_receiver_nack_note_locked (GstTileReceiver * self,
    GstTileReceiverUnit * u, guint64 frame, guint32 index, guint32 n,
    guint path);
G_GNUC_INTERNAL
void gst_tile_receiver_nack_unit_flush (GstTileReceiver * self,
    GstTileReceiverUnit * u);
G_GNUC_INTERNAL
gboolean gst_tile_receiver_nack_timer_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, const guint8 * got, const guint32 * pk_base,
    guint fills, gint64 * deadline);
G_GNUC_INTERNAL
void gst_tile_receiver_nack_fill_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot, gint64 now, gint64 * deadline);
G_GNUC_INTERNAL
gboolean gst_tile_receiver_nack_flush_locked (GstTileReceiver * self);

/* tilereceiver-fec.c */
typedef enum
{
  GST_TILE_RECEIVER_FEC_NEW,    /* filed: its payload goes to *dst */
  GST_TILE_RECEIVER_FEC_DUPLICATE,
  GST_TILE_RECEIVER_FEC_INVALID,        /* contradicts its tile's parity */
} GstTileReceiverFecResult;

G_GNUC_INTERNAL
GstTileReceiverFec *gst_tile_receiver_fec_new (void);
G_GNUC_INTERNAL
void gst_tile_receiver_fec_free (GstTileReceiverFec * fec);
G_GNUC_INTERNAL
void gst_tile_receiver_fec_start_locked (GstTileReceiver * self);
G_GNUC_INTERNAL
void gst_tile_receiver_fec_slot_reset_locked (GstTileReceiver * self,
    GstTileReceiverSlot * slot);
G_GNUC_INTERNAL
GstTileReceiverFecResult gst_tile_receiver_fec_parity_locked (GstTileReceiver *
    self, GstTileReceiverUnit * u, GstTileReceiverSlot * slot,
    const GstTileWirePacketHeader * h, guint8 ** dst);
G_GNUC_INTERNAL
void gst_tile_receiver_fec_data_locked (GstTileReceiver * self,
    GstTileReceiverUnit * u, GstTileReceiverSlot * slot, guint32 index);
G_GNUC_INTERNAL
void gst_tile_receiver_fec_recover_locked (GstTileReceiver * self,
    GstTileReceiverUnit * u);

/* tilereceiver-paths.c */
gboolean gst_tile_receiver_paths_parse (GstTileReceiver * self,
    GError ** error);
gint     gst_tile_receiver_paths_connect_control (GstTileReceiver * self,
    guint timeout, GError ** error);
void     gst_tile_receiver_paths_open (GstTileReceiver * self,
    gint control_fd, const GstTileWireConfig * config, guint timeout);
void     gst_tile_receiver_paths_close (GstTileReceiver * self);
void     gst_tile_receiver_paths_service (GstTileReceiver * self,
    guint timeout, gint64 now, gint64 keepalive_us);
gint64   gst_tile_receiver_paths_heard (GstTileReceiver * self);
gboolean gst_tile_receiver_holds_paths (GstTileReceiver * self);
guint    gst_tile_receiver_data_timeout (GstTileReceiver * self);
gboolean gst_tile_receiver_control_room_locked (GstTileReceiver * self,
    gint fd);
guint    gst_tile_receiver_paths_unit_servers_locked (GstTileReceiver * self,
                                                      guint unit,
                                                      struct sockaddr_storage * addrs,
                                                      guint * lens,
                                                      guint * paths);
guint    gst_tile_receiver_paths_unit_server_locked (GstTileReceiver * self,
    guint unit, struct sockaddr_storage *addr);
const gchar *gst_tile_receiver_paths_unit_host_locked (GstTileReceiver *
    self, guint unit, gchar * buf, gsize size);
void     gst_tile_receiver_paths_clear (GstTileReceiver * self);

G_END_DECLS

#endif /* __GST_TILE_RECEIVER_PRIVATE_H__ */
