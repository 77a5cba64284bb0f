/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The insides of GstTileSender, not installed. The sender serves its
 * receivers as peers (GstTileSenderPeer: one connected receiver, its
 * control connection, keys, flow control and, over unicast, its units);
 * with a multicast group one more owner of units, the group
 * (GstTileSenderGroup), sends every frame once for all its members. Both
 * embed a GstTileSenderOwner: the units, the frames in flight and the
 * counters. Each file owns the state it writes:
 *
 * - tilesender.c: the API, the settings and the current CONFIG, the
 *   peers (made, ended, freed; control messages and CONFIG out),
 *   admission (which owner takes a frame, its window) and the statistics
 *   (one function per counters struct);
 * - tilesender-group.c: the multicast group: its units' sockets, its pace
 *   (gst_tile_rate_group () of its members'), whether it takes frames and
 *   whether a member's window is full;
 * - tilesender-units.c: the owners' units: frames queued to them, unit
 *   threads, TCP tiles, data connections, draining;
 * - tilesender-server.c: the server thread (GstTileSenderServer): accept,
 *   handshakes (GstTileSenderPending, the passphrase's CPace), control
 *   messages in (a peer's GstTileSenderControl; ACKs feed its
 *   GstTileSenderFlow), keep-alives, UDP hellos and their cookies, the
 *   notices for the callbacks;
 * - tilesender-udp.c: protocol=udp: a tile's datagram batches, pacing, and
 *   a unit thread's scratch (GstTileSenderScratch: headers, cipher);
 * - tilesender-fec.c: protocol=udp's forward error correction (fec): a
 *   tile's parity datagrams, and the overhead of `auto` from a peer's
 *   feedback;
 * - tilesender-pool.c: the stepped-frame pool (gst_tile_sender_new_pool ():
 *   a frame sent tile by tile while its producer writes it). */

#ifndef __GST_TILE_SENDER_PRIVATE_H__
#define __GST_TILE_SENDER_PRIVATE_H__

#include "tilesender.h"
#include "tilenet.h"
#include "tilerate.h"
#include "tilekeys.h"
#include "tilepake.h"
#include "tileregion.h"
#include "tilefec.h"
#include "tilebalance.h"

#include <sys/socket.h>

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_tile_sender_debug);
#define GST_CAT_DEFAULT gst_tile_sender_debug

#define KEEPALIVE_INTERVAL_MS 1000
#define DRAIN_TIMEOUT_US (5 * G_USEC_PER_SEC)
/* while draining, a receiver none of whose frames got done for this long
 * (or three of its frame times, if longer) is stalled: its frames are
 * given up, so that it does not hold the others' caps change or EOS */
#define DRAIN_STALL_US (250 * 1000)
/* the least unsent limit of a TCP unit (a quarter tile otherwise) */
#define GST_TILE_SENDER_MIN_UNSENT (16 * 1024)
/* protocol=udp: how long the oldest frame not acknowledged may wait before
 * the receiver's window is taken as open */
#define ACK_STALL_US (G_USEC_PER_SEC)
/* protocol=udp: frames sent whose ACK may still come, for rate control */
#define SENT_RING 64
/* max-latency: a TCP tile is sent in parts of an eighth, at least this
 * much, so that a unit can abandon it between two */
#define GST_TILE_SENDER_MIN_PART (16 * 1024)
/* handshakes in progress from one host at most (an IPv6 host: its /64): a
 * connect flood from one host evicts its own oldest, never another host's;
 * a receiver opens its control connection and up to 64 data connections
 * at once */
#define MAX_PENDING_PER_HOST (GST_TILE_WIRE_MAX_UNITS + 1)
/* handshakes in progress at most: room for four such hosts */
#define MAX_PENDING (4 * MAX_PENDING_PER_HOST)
/* wrong passphrases a second at most (over every host): beyond, HELLOs
 * with a passphrase are refused for the rest of that second, so that
 * online guessing gets at most this many guesses a second */
#define AUTH_FAILURES_PER_SECOND 5
/* the server thread's budget per pass and control connection: a receiver
 * that floods its control connection gets this much of each pass, the
 * others theirs */
#define CONTROL_BUDGET_MESSAGES 32
#define CONTROL_BUDGET_BYTES (64 * 1024)
/* STATS messages parsed per second and receiver at most (the others are
 * skipped unparsed: statistics are informative) */
#define STATS_PER_SECOND 4
/* TIME queries answered per receiver and second (a receiver asks a few a
 * second while its clock settles, then one every few seconds) */
#define TIMES_PER_SECOND 16
/* protocol=udp: UNIT_HELLO datagrams read per pass at most */
#define UDP_HELLOS_PER_PASS 64
/* REFUSE datagrams sent per second at most, over every receiver */
#define UDP_REFUSES_PER_SECOND 20
/* how long a UNIT_HELLO cookie stays valid, seconds */
#define COOKIE_LIFETIME_S 10
/* warnings about remote ends per second at most (the rest are counted and
 * reported with the next one) */
#define WARNINGS_PER_SECOND 5
/* frames in flight at most (max-in-flight's largest value) */
#define ADMIT_RING 64
#define PENDING_BUF (GST_TILE_WIRE_HEADER_SIZE + 64)

typedef struct _GstTileSenderOwner GstTileSenderOwner;
/* protocol=udp retransmission: a unit's frames kept for NACKs and the
 * datagrams asked for (tilesender-resend.c) */
typedef struct _GstTileSenderResend GstTileSenderResend;
typedef struct _GstTileSenderPeer GstTileSenderPeer;
typedef struct _GstTileSenderGroup GstTileSenderGroup;

/* At most a number of events per second: the rest are counted. */
typedef struct
{
  gint64 window_us;
  guint n;
  guint suppressed;
} GstTileSenderLimit;

/* Whether one more event fits in this second's @max (else it is counted
 * in @l->suppressed). */
static inline gboolean
gst_tile_sender_limit_take (GstTileSenderLimit * l, guint max, gint64 now_us)
{
  if (now_us - l->window_us >= G_USEC_PER_SEC) {
    l->window_us = now_us;
    l->n = 0;
  }
  if (l->n < max) {
    l->n++;
    return TRUE;
  }
  l->suppressed++;
  return FALSE;
}

/* A frame's bytes, mapped once and read by every owner that sends it
 * (no copy per receiver); freed by the last of them. */
typedef struct
{
  gint ref;                     /* atomic */
  GstBuffer *buffer;            /* NULL while it is being written (stepped) */
  GstMapInfo map;
  /* a stepped frame: admitted while its producer still writes it (a
   * buffer of gst_tile_sender_new_pool ()): a unit sends its tile once it
   * is ready, or abandons it when the producer gave the buffer up
   * unfinished (aborted). Lock. */
  gboolean stepped;
  gboolean aborted;
  guint8 ready[GST_TILE_WIRE_MAX_UNITS];
} GstTileSenderShared;

/* What the pools of a sender (gst_tile_sender_new_pool ()) reach it
 * through: their buffers may outlive it, so gst_tile_sender_free () clears
 * @sender (under @lock, which the pools' callbacks hold while they use
 * it). Lock order: a link's lock, then the sender's. */
typedef struct
{
  gint ref;                     /* atomic */
  GMutex lock;
  GstTileSender *sender;
} GstTileSenderLink;

/* A frame as one owner (a peer, or the group) sends it. */
typedef struct
{
  GstTileSenderOwner *owner;
  GstTileSenderShared *shared;
  const guint8 *data;           /* shared->map.data */
  guint remaining;              /* units still sending, lock */
  guint started;                /* units that took it from their queue, lock */
  gboolean failed;              /* a unit could not send its tile, lock */
  gint abandoned;               /* a unit abandoned its tile, atomic */
  gint64 deadline_us;           /* monotonic: abandoned after, 0 never */
  /* TCP, redundant paths (@redundant): each unit's connections that hold
   * it (queued or sending), and the units done with it (one of their
   * connections sent it, or none could: a bit each, @units_left not yet);
   * it is settled once every unit is */
  gboolean redundant;
  guint8 holders[GST_TILE_WIRE_MAX_UNITS];
  guint64 units_done;
  guint units_left;
  guint64 number;
  guint64 timestamp;            /* on the wire: the origin's time */
  GstClockTime capture;         /* on the wire: on our pipeline clock */
  gint64 lag_ns;                /* our time at admission - timestamp */
  guint32 generation;
  guint64 token;                /* of its owner */
  guint fec;                    /* parity overhead, percent; 0: none */
  /* with a passphrase: the secret its data key derives from (its peer's
   * session keys, or the multicast group's), see
   * gst_tile_sender_scratch_seal () */
  gboolean sealed;
  const guint8 *secret;
  /* what the units sent of it (lock): for rate control */
  gint64 push_us;               /* g_get_monotonic_time () at admission */
  gint64 send_start_us;         /* the first unit's start, 0 before */
  gint64 send_end_us;           /* the last unit's end */
  guint64 bytes;
  guint64 packets;
  /* balanced tiles (its peer asked, TCP): unit i sends the rows from
   * bounds[i] to bounds[i + 1] of it */
  gboolean balanced;
  guint32 bounds[GST_TILE_WIRE_MAX_UNITS + 1];
  /* of its units still sending, the ones stuck on a failed path (balanced
   * tiles, see gst_tile_sender_balance_paths_locked ()): once only those
   * are left it is settled (no longer in flight, counted); @path_failed:
   * one of them had rows of it, which will not arrive in time */
  guint stuck;
  gboolean settled;
  gboolean path_failed;
  /* striped datagrams: its data datagrams sent over each path (by its
   * number on the wire, see gst_tile_sender_peer_path_of ()), lock */
  guint64 path_packets[GST_TILE_WIRE_MAX_PATHS];
} GstTileSenderFrame;

/* protocol=udp: what is known of a frame for the rate control: what was
 * sent (once its last unit is done) and what arrived (its ACK, which may
 * come first: a paced unit is done only a pacing interval after its last
 * datagram); sampled once both are in */
typedef struct
{
  guint64 number;
  gboolean sent;
  guint64 bytes;
  guint64 packets;
  gint64 send_ns;
  gint64 wait_ns;               /* admission to the first datagram, plus
                                 * the lag of the frame's timestamp (see
                                 * gst_tile_sender_push ()) */
  gboolean acked;
  guint32 received;
  guint32 spanned;
  guint64 receive_ns;
  gint64 delay_ns;
  /* striped datagrams: what was sent over each path and its ACK's
   * feedback of it (a bit per path that has it in @path_acked) */
  guint64 path_packets[GST_TILE_WIRE_MAX_PATHS];
  GstTileWireAckPath path_fb[GST_TILE_WIRE_MAX_PATHS];
  guint path_acked;
} GstTileSenderSent;

/* A connection in its handshake (first message not complete yet). */
typedef struct
{
  GstPollFD pfd;
  guint8 buf[PENDING_BUF];
  gsize have;
  gint64 deadline;
  gboolean ready;               /* the last wait found it readable */
  struct sockaddr_storage addr; /* the remote end's */
  /* with a passphrase: CHALLENGE sent (our CPace share in it), AUTH
   * expected next */
  gboolean challenged;
  GstTileWireHello hello;
  GstTileWireChallenge challenge;
  GstTilePake pake;
} GstTileSenderPending;

/* Scratch space of a unit thread, grown per generation, never per packet:
 * for protocol=udp the datagrams' headers and messages, and with a
 * passphrase the cipher and the sealed bytes. */
typedef struct
{
  guint8 *headers;
  struct iovec *iov;
  struct mmsghdr *msgs;
  guint alloc;
  gint64 pace_next;             /* ns, CLOCK_MONOTONIC */
  /* redundant paths: the unit's other sockets for this send (taken under
   * the lock with the unit's), and what went over them; the unit thread's */
  gint copy_fd[GST_TILE_WIRE_MAX_PATHS - 1];
  guint n_copies;
  guint64 copies_sent;          /* datagrams */
  guint64 copies_dropped;       /* a copy's socket full or failing */
  guint64 primary_failed;       /* the unit's own socket failing */
  /* striped datagrams: the unit's sockets (its own and its copies), each
   * on a path (its number on the wire), the paths' shares of the
   * datagrams, and each socket's credit (datagrams it is owed: a batch
   * goes over the one owed most); the data datagrams of this send over
   * each path */
  gboolean stripe;
  guint n_stripes;
  gint stripe_fd[GST_TILE_WIRE_MAX_PATHS];
  guint stripe_path[GST_TILE_WIRE_MAX_PATHS];
  gdouble stripe_weight[GST_TILE_WIRE_MAX_PATHS];
  gdouble stripe_credit[GST_TILE_WIRE_MAX_PATHS];
  guint64 path_packets[GST_TILE_WIRE_MAX_PATHS];
  guint64 stripe_failed;        /* datagrams no socket took */
  GstTileSeal *seal;
  guint8 *sealed;
  gsize sealed_alloc;
  /* what @seal is keyed for */
  gboolean have_key;
  const guint8 *key_secret;
  guint32 key_generation;
  guint64 key_epoch;
  /* forward error correction (tilesender-fec.c): the coder, and the
   * tile's parity datagrams (sealed in place) */
  GstTileFec *fec;
  guint8 *parity;
  gsize parity_alloc;
} GstTileSenderScratch;

/* sealed bytes a TCP unit writes per call */
#define GST_TILE_SENDER_SEAL_CHUNK (256 * 1024)

/* TCP_INFO's counters of connection @fd when a rate was last sampled (see
 * tilesender.c's tcp_sample_since ()) */
typedef struct
{
  gint fd;                      /* -1: none taken */
  gint64 at_us;
  guint64 acked;                /* tcpi_bytes_acked */
  guint64 busy_us;              /* tcpi_busy_time */
} GstTileSenderTcpSample;

/* One unit of an owner: its thread, its connection (TCP) or socket (UDP)
 * and the frames queued to it (tilesender-units.c). Lock, but for what is
 * marked otherwise. */
typedef struct _GstTileSenderUnit GstTileSenderUnit;
struct _GstTileSenderUnit
{
  GstTileSender *sender;
  GstTileSenderOwner *owner;
  guint index;
  GThread *thread;
  gint fd;                      /* -1 when not connected */
  gboolean sending;             /* the unit thread is using fd */
  gboolean close_pending;       /* the unit thread closes fd after use */
  GQueue queue;                 /* of GstTileSenderFrame */
  gint queued;                  /* its length, atomic: read while sending */
  gdouble ns_per_byte;          /* TCP: how fast its tiles left, smoothed;
                                 * unit thread only */
  /* balanced tiles: its connection's delivery rate (bytes acknowledged
   * over the time it had data in flight, TCP_INFO), smoothed, and the
   * counters at the last sample; lock */
  gdouble bal_rate;
  GstTileSenderTcpSample bal_sample;
  gboolean bal_resample;        /* take a new sample first */
  /* balanced tiles: TCP_INFO at the last frame admitted (@bal_st_ok: read),
   * and whether its path failed then (data in flight, nothing
   * acknowledged): it takes no rows nor frames until it has delivered what
   * it had (gst_tile_sender_balance_paths_locked ()) */
  GstTileNetTcpState bal_st;
  gboolean bal_st_ok;
  gboolean path_failed;
  /* the frame its thread took from the queue (until done with it), whether
   * that frame counts it as stuck, and when its last send began */
  GstTileSenderFrame *current;
  gboolean current_stuck;
  gint64 send_begin_us;
  GCond cond;
  guint64 bytes;
  guint64 busy_ns;
  guint64 frames;
  guint64 packets;
  gboolean gso;                 /* UDP: UDP_SEGMENT is set on fd */
  /* TCP: the delivery rate of the statistics, and TCP_INFO when it was
   * last measured, see tilesender.c's unit_delivery_rate_locked () */
  GstTileSenderTcpSample rate_sample;
  guint64 tcp_rate;
  struct sockaddr_storage remote;       /* UDP: the receiver's unit socket */
  guint remote_len;
  /* UDP: the path fd is on, and each copy socket's (their numbers on the
   * wire, see gst_tile_sender_peer_path_of ()) */
  guint path;
  guint copy_path[GST_TILE_WIRE_MAX_PATHS - 1];
  /* UDP, redundant paths: the unit's socket on each other path of the
   * receiver (from the address its UNIT_HELLO there was sent to), and its
   * socket there; closed as fd (those of a send in progress closed by the
   * unit thread afterwards, from copy_closing) */
  gint copy_fd[GST_TILE_WIRE_MAX_PATHS - 1];
  struct sockaddr_storage copy_remote[GST_TILE_WIRE_MAX_PATHS - 1];
  guint copy_remote_len[GST_TILE_WIRE_MAX_PATHS - 1];
  guint n_copies;
  gint copy_closing[GST_TILE_WIRE_MAX_PATHS - 1];
  guint n_copy_closing;
  /* protocol=udp with retransmit: made and freed by the unit thread
   * (lock), its asks under the lock, the rest the unit thread's */
  GstTileSenderResend *resend;
  gint resend_pending;          /* atomic: asks wait in resend */
  /* TCP, redundant paths: the unit's connections on the receiver's other
   * paths, each a unit of its own (its thread, its queue: the frames
   * queued to this unit, by reference) made when the first connects and
   * kept until the owner stops; on such a connection, the unit it copies
   * (NULL on the owner's own units) */
  GstTileSenderUnit *tcp_copy[GST_TILE_WIRE_MAX_PATHS - 1];
  guint n_tcp_copies;
  GstTileSenderUnit *primary;
};

/* What an owner of units sent and dropped (its peer's `receivers` entry
 * in the statistics; the group's are not reported). The sender sums them
 * in GstTileSenderTotals. Lock. */
typedef struct
{
  guint64 frames_sent;
  guint64 frames_dropped;
  guint64 frames_window;        /* of those, for a full receiver window */
  guint64 frames_abandoned;
  guint64 frames_replaced;
  guint64 frames_path_failed;   /* balanced: rows on a path that failed */
  guint64 bytes_sent;
  guint64 packets_sent;
  gint granted_send_buffer;     /* the last unit socket's */
  /* retransmission (tilesender-resend.c) */
  guint64 packets_retransmitted;
  guint64 nacks_received;
  guint64 nacks_refused;        /* not for a frame, unit, datagram held */
  guint64 retransmits_limited;  /* datagrams asked beyond the bounds */
  /* forward error correction (tilesender-fec.c) */
  guint64 fec_packets_sent;
  /* redundant paths: datagrams sent again over the other paths, dropped
   * there (the socket full or failing), failed on the unit's own path */
  guint64 copies_sent;
  guint64 copies_dropped;
  guint64 primary_failed;
  /* striped datagrams: data datagrams sent over each path (by its number
   * on the wire), and those no path's socket took */
  guint64 path_packets[GST_TILE_WIRE_MAX_PATHS];
  guint64 stripe_failed;
} GstTileSenderCounters;

/* What owns a set of units and sends frames with them: a unicast peer
 * (its own units) or the multicast group (one set for every member; a
 * member's own are not used). Embedded in both; a unit and a frame reach
 * their owner, and through it the peer or the group, by it. Lock. */
struct _GstTileSenderOwner
{
  GstTileSender *sender;
  /* whose units these are: exactly one is set */
  GstTileSenderPeer *peer;
  GstTileSenderGroup *group;
  guint id;                     /* the peer's, the group's 0: logs, threads */
  guint64 token;                /* on the wire: CONFIG's, every datagram's */
  gboolean stopping;            /* its unit threads are to exit */
  gboolean eos_sent;
  guint n_connected;            /* data connections of this generation */
  guint n_threads;
  GstTileSenderUnit units[GST_TILE_WIRE_MAX_UNITS];
  /* the units that carry its frames in this generation, a bit per unit:
   * every tile for the group and a peer without a region, the tiles of a
   * peer's region (gst_tile_region_config_units ()); and how many */
  guint64 units_used;
  guint n_used;
  /* the frames in flight: they finish in order, the oldest is next_frame
   * - in_flight; the admission times of the frames in flight, by frame
   * number, and the smoothed time from admission to done: how long until
   * a frame is admitted */
  guint in_flight;
  guint64 next_frame;
  gint64 admit_us[ADMIT_RING];
  gint64 send_avg_us;
  gint64 progress_us;           /* its last frame done */
  GstTileSenderCounters counters;
};

/* A peer's control connection: its session, in the wire protocol's sense
 * (tilesender-server.c reads it and closes it, tilesender.c writes to it
 * and shuts it down). Lock, but for what is marked otherwise. */
typedef struct
{
  gint fd;
  GstPollFD pfd;
  gboolean dead;                /* shut down, the server thread closes it */
  gboolean ready;               /* the last wait found it readable */
  gint64 rx_us;                 /* the receiver's last control message */
  /* the message being read, a piece at a time as it arrives (the server
   * thread only): no peer can hold that thread */
  guint8 hdr[GST_TILE_WIRE_HEADER_SIZE];
  GstTileWireHeader h;
  gboolean in_payload;
  gsize have;                   /* of the header, then of the payload */
  gint64 started_us;            /* its first byte, 0 between messages */
  GByteArray *payload;
  GstTileSenderLimit stats_limit;       /* STATS parsed, server thread */
  GstTileSenderLimit time_limit;        /* TIME answered, server thread */
  guint64 stats_skipped;        /* STATS over that limit */
  /* a sealed session: its records (those sent: lock; those received: the
   * server thread's) */
  GstTileRecords *records_out;
  GstTileRecords *records_in;
} GstTileSenderControl;

/* protocol=udp: a peer's flow control, from its ACKs: its window and the
 * rate control its feedback on the frames in sent[] feeds
 * (tilesender-server.c takes the ACKs, admission reads the window). */
typedef struct
{
  guint64 acked_next;           /* the oldest frame not acknowledged */
  guint window;                 /* frames the receiver can hold past it */
  gint64 progress_us;           /* when acked_next last moved, or the
                                 * oldest frame not acknowledged was sent */
  GstTileRateControl rate;      /* the pacing rate */
  /* striped datagrams: each path's share of the datagrams (by its number
   * on the wire), from the ACKs' feedback per path
   * (gst_tile_balance_stripe ()) */
  GstTileStripeState stripe;
  GstTileSenderSent sent[SENT_RING];
  /* fec=auto: the loss of its frames' datagrams (parity included),
   * smoothed, and the overhead it gives (tilesender-fec.c) */
  gdouble fec_loss;
  guint fec_percent;
} GstTileSenderFlow;

/* One of a peer's other network paths (tilesender-paths.c): a TCP
 * connection whose first message was PATH; its host is one the peer's
 * units may come from. Lock; the server thread's. */
typedef struct
{
  gint fd;                      /* -1: none */
  GstPollFD pfd;
  gboolean ready;               /* the last wait found it readable */
  struct sockaddr_storage host;
  struct sockaddr_storage local;        /* our address on it */
  gint64 rx_us;                 /* last heard from */
  gint64 tx_us;                 /* last KEEPALIVE sent */
  guint8 buf[GST_TILE_WIRE_HEADER_SIZE + 8];    /* a KEEPALIVE coming in */
  gsize have;
} GstTileSenderPath;

/* One connected receiver: its control connection, its keys, its flow
 * control, and over unicast its units (a member of the multicast group
 * has none: the group's send its frames). Lock, but for what is marked
 * otherwise. */
struct _GstTileSenderPeer
{
  GstTileSenderOwner owner;
  GstTileSenderGroup *group;    /* the group it is a member of, or NULL */
  gchar *address;               /* "host:port" of its control connection */
  /* its host: the one that showed it receives there (TCP's handshake),
   * the only one its units' UNIT_HELLOs may come from */
  struct sockaddr_storage host;
  struct sockaddr_storage local;        /* our address on that connection */
  gint64 started_us;
  gchar *end_reason;            /* why it ended, for receiver-removed */
  GstTileSenderControl control;
  /* with a passphrase: its session's keys (fixed once the peer is made:
   * its units read keys.data) */
  GstTileKeys keys;
  GstTileSenderFlow flow;
  GstStructure *receiver_stats; /* its last STATS */
  /* the region its HELLO asked for (fixed once the peer is made), and
   * per generation the datagrams of a frame on its units and on all (a
   * member of the multicast group: its feedback counts its units'
   * datagrams, the rate control the group's) */
  gboolean has_region;
  GstTileWireRegion region;
  /* its HELLO asked for balanced tiles, and this is TCP: each frame's rows
   * are shared among its units by their rates (fixed once made) */
  gboolean balanced;
  /* its HELLO asked for balanced tiles, and this is UDP: a unit's
   * UNIT_HELLO from another of its addresses adds a socket on that path,
   * and each batch of datagrams goes over one of them, by the paths'
   * rates (fixed once made) */
  gboolean striped;
  guint32 last_bounds[GST_TILE_WIRE_MAX_UNITS + 1];   /* its last frame's */
  /* its HELLO asked for redundant paths: a unit's UNIT_HELLO from another
   * of its addresses adds a copy socket (UDP), or a copy connection with a
   * thread of its own (TCP, gst_tile_sender_unit_copy_locked ()) */
  gboolean redundant;
  guint64 region_packets;
  guint64 all_packets;
  /* the datagrams its NACKs may still have sent again (a token bucket,
   * tilesender-resend.c) */
  gdouble nack_tokens;
  gint64 nack_refill_us;
  /* its other network paths, by index (0, the control connection's, is
   * never used here: its host is `host`) */
  GstTileSenderPath paths[GST_TILE_WIRE_MAX_PATHS];
};

/* multicast: the group's units send every frame once, to the group
 * address, for every peer (its members), paced by the members' rate
 * controls (tilesender-group.c). Lock. */
struct _GstTileSenderGroup
{
  GstTileSenderOwner owner;
  /* its pace until a member has measured one: the pacing bitrate */
  GstTileRateControl rate;
  /* with a passphrase: the secret its data keys derive from, drawn at
   * each start, sent to every member in its sealed CONFIG */
  guint8 secret[GST_TILE_WIRE_GROUP_SECRET_SIZE];
};

/* multicast-group, parsed at each start (tilesender.c) */
typedef struct
{
  gchar *address;               /* settings.multicast_group points here;
                                 * NULL: unicast */
  gchar *iface;                 /* settings.multicast_iface points here */
  guint8 family;
  guint8 addr[16];
  guint16 port;                 /* unit i's: port + i */
} GstTileSenderMulticast;

/* The sender's secrets: the passphrase, and this start's UNIT_HELLO
 * cookie key (tilesender.c draws it, tilesender-server.c uses it). */
typedef struct
{
  gchar *passphrase;            /* settings.passphrase points here; NULL:
                                 * none; with one, every session is
                                 * sealed: a receiver without it is
                                 * refused */
  /* protocol=udp address validation: the key of this start's UNIT_HELLO
   * cookies and the time they count from */
  guint8 cookie_key[GST_TILE_SEAL_MAC_KEY_SIZE];
  gint64 cookie_epoch_us;
  GstTileSenderLimit auth_limit;        /* wrong passphrases this second */
} GstTileSenderCrypto;

/* The server thread's (tilesender-server.c; tilesender.c opens the
 * sockets at a start and closes them at the stop). Lock. */
typedef struct
{
  GThread *thread;
  guint bound_port;
  gint listen_fd;
  gint udp_fd;                  /* protocol=udp: UNIT_HELLO datagrams */
  /* the address the UNIT_HELLO being handled was sent to (family 0: not
   * known): its answers and its unit's datagrams leave from it */
  struct sockaddr_storage udp_dest;
  /* listen_fd, udp_fd, the control connections and the pending ones;
   * only the server thread changes the set */
  GstPoll *poll;
  GstPollFD listen_pfd;
  GstPollFD udp_pfd;
  /* accept() failing (no descriptors left): the listening socket is not
   * polled until listen_pause_until, for a pause that doubles up to 1 s;
   * failures are logged at most once a second */
  gint64 listen_pause_until;
  gint64 listen_pause_us;
  gint64 accept_warned_us;
  guint accept_failures;
  GstTileSenderLimit refuse_limit;      /* REFUSE datagrams */
  GstTileSenderLimit warn_limit;        /* warnings about remote ends */
  GQueue notices;               /* for the callbacks */
  GstTileSenderPending *pending;        /* handshakes in progress */
  guint n_pending;
  guint read_start;             /* the peer read first in the last pass */
} GstTileSenderServer;

/* The sender's statistics since the start, over every receiver. Lock. */
typedef struct
{
  GstTileSenderCounters sum;    /* of every owner's counters */
  guint64 frames_unsent;
  guint64 frames_stepped;       /* admitted while they were written */
  guint clients;                /* peers made, the last one's id */
  guint disconnects;
  guint refused;
  guint auth_failures;
  guint auth_throttled;         /* HELLOs refused for auth_limit */
  guint64 hellos_unvalidated;   /* UNIT_HELLO datagrams from no receiver's
                                 * host: dropped unanswered */
  guint64 hellos_challenged;    /* answered with a cookie */
  /* per unit index */
  guint64 unit_bytes[GST_TILE_WIRE_MAX_UNITS];
  guint64 unit_busy_ns[GST_TILE_WIRE_MAX_UNITS];
} GstTileSenderTotals;

struct _GstTileSender
{
  /* fixed at gst_tile_sender_new(); the mutable ones are atomic (or, for
   * pacing_bitrate, max_latency and replace_waiting, lock) */
  GstTileSenderSettings settings;
  /* the time between frames offered (pushed, sent or not), smoothed; lock */
  gint64 offer_last_us;
  gint64 offer_interval_us;
  gchar *address;               /* settings.address points here */
  gchar *congestion_control;    /* settings.congestion_control, or NULL */
  GstTileSenderMulticast multicast;
  GstTileSenderCallbacks callbacks;
  gpointer user_data;
  GstObject *log_object;

  /* everything below: lock */
  GMutex lock;
  GCond cond;
  gboolean running;
  GstTileSenderServer server;
  GstTileSenderCrypto crypto;
  GPtrArray *peers;             /* the receivers served, oldest first */
  GstTileSenderGroup *group;    /* multicast: the one owner of units */
  /* the current caps: their CONFIG (token: each owner's own, see
   * gst_tile_sender_send_config_locked ()), tiling and frame size */
  gboolean have_config;
  GstTileWireConfig config;
  GstBcTiling tiling;
  gsize frame_size;
  GstTileSenderLink *link;
  GstTileSenderTotals totals;
  gboolean congestion_refused;  /* warned once */
};

/* tilesender.c */
G_GNUC_INTERNAL
GstTileSenderPeer *gst_tile_sender_peer_new_locked (GstTileSender * self,
                                                    gint control_fd,
                                                    const GstTileWireHello *
                                                    hello);
G_GNUC_INTERNAL
void     gst_tile_sender_peer_end_locked (GstTileSenderPeer * peer,
                                          const gchar * why);
G_GNUC_INTERNAL
void     gst_tile_sender_peer_free (GstTileSenderPeer * peer);
G_GNUC_INTERNAL
gboolean gst_tile_sender_peer_ready_locked (GstTileSenderPeer * peer);
G_GNUC_INTERNAL
gboolean gst_tile_sender_send_control_locked (GstTileSenderPeer * peer,
                                              const GByteArray * message);
G_GNUC_INTERNAL
gboolean gst_tile_sender_send_config_locked (GstTileSenderPeer * peer);
G_GNUC_INTERNAL
GstTileSenderOwner *gst_tile_sender_owner_at (GstTileSender * self, guint i);

/* A peer that is not ending and has sent its first ACK (its window): one
 * whose feedback counts. Lock held. */
static inline gboolean
gst_tile_sender_peer_heard (const GstTileSenderPeer * peer)
{
  return peer->flow.window > 0 && !peer->control.dead;
}

/* protocol=udp: whether @flow's window leaves no room for frame @next
 * (acknowledgements that stop for ACK_STALL_US, the ACK lost say, open
 * it). Lock held. */
static inline gboolean
gst_tile_sender_flow_full (const GstTileSenderFlow * flow, guint64 next,
    gint64 now)
{
  return next - flow->acked_next >= flow->window &&
      now - flow->progress_us < ACK_STALL_US;
}

/* Whether unit @i carries @o's frames in this generation. Lock held. */
static inline gboolean
gst_tile_sender_owner_uses (const GstTileSenderOwner * o, guint i)
{
  return i < GST_TILE_WIRE_MAX_UNITS && (o->units_used >> i) & 1;
}

/* The owner whose units send @peer's frames: the group's for a member of
 * the multicast group, else its own. */
static inline GstTileSenderOwner *
gst_tile_sender_peer_data_owner (GstTileSenderPeer * peer)
{
  return peer->group ? &peer->group->owner : &peer->owner;
}

/* stepped frames (tilesender.c, for tilesender-pool.c): see
 * gst_tile_sender_new_pool () */
G_GNUC_INTERNAL
gboolean gst_tile_sender_begin_stepped (GstTileSender * self,
                                        GstBuffer * buffer,
                                        guint32 generation,
                                        GstTileSenderPushResult * result,
                                        GstTileSenderShared ** shared,
                                        GPtrArray ** replaced);
G_GNUC_INTERNAL
void     gst_tile_sender_free_replaced (GPtrArray * replaced);
G_GNUC_INTERNAL
void     gst_tile_sender_tile_ready (GstTileSender * self,
                                     GstTileSenderShared * shared,
                                     guint tile);
G_GNUC_INTERNAL
void     gst_tile_sender_end_stepped (GstTileSender * self,
                                      GstTileSenderShared * shared,
                                      GstBuffer * buffer);
G_GNUC_INTERNAL
guint32  gst_tile_sender_get_generation (GstTileSender * self,
                                         GstBcTiling * tiling,
                                         gsize * frame_size);
G_GNUC_INTERNAL
GstTileSenderLink *gst_tile_sender_link_ref (GstTileSenderLink * link);
G_GNUC_INTERNAL
void     gst_tile_sender_link_unref (GstTileSenderLink * link);

/* tilesender-group.c */
G_GNUC_INTERNAL
GstTileSenderGroup *gst_tile_sender_group_new_locked (GstTileSender * self,
                                                      const guint8 * secret);
G_GNUC_INTERNAL
void     gst_tile_sender_group_free (GstTileSenderGroup * group);
G_GNUC_INTERNAL
gboolean gst_tile_sender_group_open_units_locked (GstTileSenderGroup * group,
                                                  guint n_tiles,
                                                  GError ** error);
G_GNUC_INTERNAL
guint    gst_tile_sender_group_members_locked (GstTileSenderGroup * group,
                                               GstTileSenderPeer ** members,
                                               guint64 * rates);
G_GNUC_INTERNAL
guint64  gst_tile_sender_group_rate_locked (GstTileSenderGroup * group);
G_GNUC_INTERNAL
gboolean gst_tile_sender_group_ready_locked (GstTileSenderGroup * group);
G_GNUC_INTERNAL
gboolean gst_tile_sender_group_window_full_locked (GstTileSenderGroup *
                                                   group, gint64 now);

/* tilesender-pool.c */
G_GNUC_INTERNAL
void     gst_tile_sender_pool_init_once (void);
G_GNUC_INTERNAL
gboolean gst_tile_sender_pool_take_stepped (GstTileSender * self,
                                            GstBuffer * buffer,
                                            GstTileSenderPushResult * result);

/* tilesender-units.c */
G_GNUC_INTERNAL
void     gst_tile_sender_owner_use_units_locked (GstTileSenderOwner * o,
                                                 guint64 units);
G_GNUC_INTERNAL
gboolean gst_tile_sender_unit_abandons (GstTileSenderUnit * u,
                                        GstTileSenderFrame * frame,
                                        guint64 left, gdouble ns_per_byte);
G_GNUC_INTERNAL
void     gst_tile_sender_owner_init (GstTileSenderOwner * owner,
                                     GstTileSender * self, guint id);
G_GNUC_INTERNAL
void     gst_tile_sender_owner_start_locked (GstTileSenderOwner * owner);
G_GNUC_INTERNAL
void     gst_tile_sender_owner_join (GstTileSenderOwner * owner);
G_GNUC_INTERNAL
void     gst_tile_sender_owner_clear (GstTileSenderOwner * owner);
G_GNUC_INTERNAL
void     gst_tile_sender_owner_close_data_locked (GstTileSenderOwner * owner);
G_GNUC_INTERNAL
void     gst_tile_sender_owner_wake_locked (GstTileSenderOwner * owner,
                                            guint tile);
G_GNUC_INTERNAL
guint64  gst_tile_sender_owner_rate_locked (GstTileSenderOwner * owner);
G_GNUC_INTERNAL
gpointer gst_tile_sender_unit_thread (gpointer data);
G_GNUC_INTERNAL
void     gst_tile_sender_frame_free (GstTileSenderFrame * frame);
G_GNUC_INTERNAL
void     gst_tile_sender_shared_unref (GstTileSenderShared * shared);
G_GNUC_INTERNAL
void     gst_tile_sender_frame_release_locked (GstTileSender * self,
                                               GstTileSenderFrame * frame,
                                               guint unit, gboolean ok);
G_GNUC_INTERNAL
GstTileSenderFrame *gst_tile_sender_frame_done_locked (GstTileSender * self,
                                               GstTileSenderFrame * frame,
                                               guint unit, gboolean ok);
G_GNUC_INTERNAL
GstTileSenderUnit *gst_tile_sender_unit_copy_locked (GstTileSenderUnit * u,
                                               gint fd, guint path);
G_GNUC_INTERNAL
gboolean gst_tile_sender_drain_locked (GstTileSender * self);
G_GNUC_INTERNAL
guint    gst_tile_sender_balance_paths_locked (GstTileSenderOwner * o,
                                               GPtrArray ** freed);

/* tilesender-server.c */
G_GNUC_INTERNAL
gpointer gst_tile_sender_server_thread (gpointer data);
G_GNUC_INTERNAL
void     gst_tile_sender_close_pending_locked (GstTileSender * self, guint i);
G_GNUC_INTERNAL
void     gst_tile_sender_note_sent_locked (GstTileSenderOwner * owner,
                                           const GstTileSenderFrame * frame);

/* tilesender-resend.c */
G_GNUC_INTERNAL
void     gst_tile_sender_resend_nack_locked (GstTileSenderPeer * peer,
                                             const GstTileWireNack * nack);
G_GNUC_INTERNAL
void     gst_tile_sender_resend_unit_start_locked (GstTileSenderUnit * u);
G_GNUC_INTERNAL
void     gst_tile_sender_resend_unit_stop (GstTileSenderUnit * u);
G_GNUC_INTERNAL
void     gst_tile_sender_resend_hold (GstTileSenderUnit * u,
                                      const GstTileSenderFrame * frame,
                                      const GstTileWireTile * tile,
                                      guint packet_size);
G_GNUC_INTERNAL
void     gst_tile_sender_resend_serve (GstTileSenderUnit * u,
                                       GstTileSenderScratch * sc, gint fd,
                                       guint64 rate);

/* Whether NACKs wait for unit @u: checked between a tile's batches, no
 * lock. */
static inline gboolean
gst_tile_sender_resend_waiting (GstTileSenderUnit * u)
{
  return G_UNLIKELY (g_atomic_int_get (&u->resend_pending) != 0);
}

/* tilesender-fec.c */
G_GNUC_INTERNAL
guint    gst_tile_sender_owner_fec_locked (GstTileSenderOwner * o);
G_GNUC_INTERNAL
void     gst_tile_sender_fec_feedback_locked (GstTileSenderPeer * peer,
                                              guint64 sent,
                                              guint64 received);
G_GNUC_INTERNAL
guint32  gst_tile_sender_fec_build (GstTileSenderScratch * sc,
                                    const GstTileSenderUnit * u,
                                    const GstTileSenderFrame * frame,
                                    const GstTileWireTile * tile, guint ps,
                                    GstTileFecLayout * layout);
G_GNUC_INTERNAL
void     gst_tile_sender_fec_clear (GstTileSenderScratch * sc);

/* tilesender-udp.c */
G_GNUC_INTERNAL
void     gst_tile_sender_udp_data_datagram (GstTileSeal * seal, guint unit,
                                            GstTileWirePacketHeader * ph,
                                            guint8 * h, guint hl,
                                            const guint8 * data, gsize off,
                                            gsize len, guint ps, guint8 * dst,
                                            struct iovec *iov);
G_GNUC_INTERNAL
void     gst_tile_sender_udp_pace (GstTileSenderScratch * sc, gsize bytes,
                                   guint64 rate);
G_GNUC_INTERNAL
gint     gst_tile_sender_udp_send_resend (GstTileSenderScratch * sc, gint fd,
    struct mmsghdr *msgs, guint n);
void     gst_tile_sender_udp_send_redundant (GstTileSenderScratch * sc,
                                             gint fd, struct mmsghdr *msgs,
                                             guint n);
G_GNUC_INTERNAL
gboolean gst_tile_sender_send_tile_udp (GstTileSenderUnit * u,
                                        GstTileSenderScratch * sc,
                                        gint fd,
                                        GstTileSenderFrame * frame,
                                        const GstTileWireTile * tile,
                                        guint packet_size, guint64 rate,
                                        guint64 * n_packets,
                                        guint64 * n_parity,
                                        GError ** error);
G_GNUC_INTERNAL
void     gst_tile_sender_scratch_clear (GstTileSenderScratch * sc);
G_GNUC_INTERNAL
guint8  *gst_tile_sender_scratch_seal (GstTileSenderScratch * sc,
                                       const GstTileSenderFrame * frame,
                                       gsize size);

/* tilesender-server.c, for tilesender-paths.c */
GstTileSenderPeer *gst_tile_sender_peer_by_token_locked (GstTileSender * self,
    guint64 token);
void     gst_tile_sender_poll_add (GstTileSender * self, GstPollFD * pfd,
    gint fd);
void     gst_tile_sender_poll_remove (GstTileSender * self, GstPollFD * pfd);

/* tilesender-paths.c */
void     gst_tile_sender_paths_init (GstTileSenderPeer * peer);
void     gst_tile_sender_paths_close_locked (GstTileSenderPeer * peer);
guint    gst_tile_sender_peer_paths_locked (GstTileSenderPeer * peer);
gint64   gst_tile_sender_peer_paths_heard_locked (GstTileSenderPeer * peer);
guint    gst_tile_sender_peer_user_timeout (GstTileSenderPeer * peer);
gboolean gst_tile_sender_peer_holds_paths (GstTileSenderPeer * peer);
guint    gst_tile_sender_peer_path_of (GstTileSenderPeer * peer,
    const struct sockaddr_storage *local,
    const struct sockaddr_storage *remote);
void     gst_tile_sender_peer_stripe_locked (GstTileSenderPeer * peer,
    GstTileSenderUnit * u, GstTileSenderScratch * sc);
gboolean gst_tile_sender_peer_has_host (GstTileSenderPeer * peer,
    const struct sockaddr_storage *addr);
gboolean gst_tile_sender_path_hello_locked (GstTileSender * self, gint fd,
    const guint8 * payload, guint32 len, GstTileWireRefuseCode * code,
    gchar ** reason);
void     gst_tile_sender_paths_note_ready_locked (GstTileSender * self,
    gboolean polled);
void     gst_tile_sender_paths_service_locked (GstTileSender * self,
    gint64 now);

G_END_DECLS

#endif /* __GST_TILE_SENDER_PRIVATE_H__ */
