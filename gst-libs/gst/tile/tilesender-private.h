/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The insides of GstTileSender, shared by tilesender.c (the API: session,
 * admission, statistics), tilesender-units.c (frames, unit threads, data
 * connections), tilesender-server.c (the server thread) and
 * tilesender-udp.c (datagrams and pacing). Not installed. */

#ifndef __GST_TILE_SENDER_PRIVATE_H__
#define __GST_TILE_SENDER_PRIVATE_H__

#include "tilesender.h"
#include "tilenet.h"
#include "tilerate.h"
#include "tilekeys.h"
#include "tilepake.h"

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
/* protocol=udp: UNIT_HELLO datagrams read per pass at most */
#define UDP_HELLOS_PER_PASS 64
/* REFUSE datagrams sent per second at most, over every receiver */
#define UDP_REFUSES_PER_SECOND 20
/* how long a UNIT_HELLO cookie stays valid, seconds */
#define COOKIE_LIFETIME_S 10
/* warnings about peers per second at most (the rest are counted and
 * reported with the next one) */
#define WARNINGS_PER_SECOND 5
/* frames in flight at most (max-in-flight's largest value) */
#define ADMIT_RING 64
#define PENDING_BUF (GST_TILE_WIRE_HEADER_SIZE + 64)

typedef struct _GstTileSenderSession GstTileSenderSession;

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

/* A frame's bytes, mapped once and read by every session that sends it
 * (no copy per receiver); freed by the last of them. */
typedef struct
{
  gint ref;                     /* atomic */
  GstBuffer *buffer;            /* NULL while it is being written (early) */
  GstMapInfo map;
  /* a frame admitted while its producer still writes it (a buffer of
   * gst_tile_sender_new_pool ()): a unit sends its tile once it is ready,
   * or abandons it when the producer gave the buffer up unfinished
   * (aborted). Lock. */
  gboolean early;
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

/* A frame as one session sends it. */
typedef struct
{
  GstTileSenderSession *session;
  GstTileSenderShared *shared;
  const guint8 *data;           /* shared->map.data */
  guint remaining;              /* units still sending, lock */
  guint started;                /* units that took it from their queue, lock */
  gboolean failed;              /* a unit could not send its tile, lock */
  gint abandoned;               /* a unit abandoned its tile, atomic */
  gint64 deadline_us;           /* monotonic: abandoned after, 0 never */
  guint64 number;
  guint64 timestamp;            /* on the wire: the origin's time */
  gint64 lag_ns;                /* our time at admission - timestamp */
  guint32 generation;
  guint64 token;                /* of the session it was admitted in */
  /* with a passphrase: the secret its data key derives from (its
   * session's, or the multicast group's), see
   * gst_tile_sender_scratch_seal () */
  gboolean sealed;
  const guint8 *secret;
  /* what the units sent of it (lock): for rate control */
  gint64 push_us;               /* g_get_monotonic_time () at admission */
  gint64 send_start_us;         /* the first unit's start, 0 before */
  gint64 send_end_us;           /* the last unit's end */
  guint64 bytes;
  guint64 packets;
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
} GstTileSenderSent;

/* A connection in its handshake (first message not complete yet). */
typedef struct
{
  GstPollFD pfd;
  guint8 buf[PENDING_BUF];
  gsize have;
  gint64 deadline;
  gboolean ready;               /* the last wait found it readable */
  struct sockaddr_storage addr; /* the peer's */
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
  GstTileSeal *seal;
  guint8 *sealed;
  gsize sealed_alloc;
  /* what @seal is keyed for */
  gboolean have_key;
  const guint8 *key_secret;
  guint32 key_generation;
  guint64 key_epoch;
} GstTileSenderScratch;

/* sealed bytes a TCP unit writes per call */
#define GST_TILE_SENDER_SEAL_CHUNK (256 * 1024)

typedef struct
{
  GstTileSender *sender;
  GstTileSenderSession *session;
  guint index;
  GThread *thread;
  gint fd;                      /* -1 when not connected */
  gboolean sending;             /* the unit thread is using fd */
  gboolean close_pending;       /* the unit thread closes fd after use */
  GQueue queue;                 /* of GstTileSenderFrame */
  gint queued;                  /* its length, atomic: read while sending */
  gdouble ns_per_byte;          /* TCP: how fast its tiles left, smoothed;
                                 * unit thread only */
  GCond cond;
  guint64 bytes;
  guint64 busy_ns;
  guint64 frames;
  guint64 packets;
  gboolean gso;                 /* UDP: UDP_SEGMENT is set on fd */
  /* TCP: TCP_INFO when the delivery rate was last measured, see
   * tilesender.c's set_tcp_state_locked() */
  gint tcp_fd;
  gint64 tcp_snap_us;
  guint64 tcp_acked;
  guint64 tcp_busy_us;
  guint64 tcp_rate;
  struct sockaddr_storage peer; /* UDP: the receiver's unit socket */
  guint peer_len;
} GstTileSenderUnit;

/* One receiver: its control connection, its units (threads and
 * connections), the frames in flight to it, its window, pacing and
 * statistics. Everything in it: the sender's lock, but for what is marked
 * otherwise. */
struct _GstTileSenderSession
{
  GstTileSender *sender;
  guint id;                     /* 1, 2, ... per start: remove_receiver ();
                                 * 0: the multicast group's */
  /* multicast: a receiver's session is a member of the group: only its
   * control connection and flow control, no units of its own (the group
   * session's units send its frames) */
  gboolean member;
  gchar *peer;                  /* "host:port" of its control connection */
  /* its address: the host that showed it receives there (TCP's handshake),
   * the only one its units' UNIT_HELLOs may come from */
  struct sockaddr_storage peer_addr;
  gint64 started_us;

  gint control_fd;
  GstPollFD control_pfd;
  gint64 control_rx_us;         /* the receiver's last control message */
  /* the control message being read, a piece at a time as it arrives (the
   * server thread only): no peer can hold that thread */
  guint8 ctl_hdr[GST_TILE_WIRE_HEADER_SIZE];
  GstTileWireHeader ctl_h;
  gboolean ctl_in_payload;
  gsize ctl_have;               /* of the header, then of the payload */
  gint64 ctl_started_us;        /* its first byte, 0 between messages */
  GByteArray *ctl_payload;
  GstTileSenderLimit stats_limit;       /* STATS parsed, server thread */
  guint64 stats_skipped;        /* STATS over that limit, lock */
  gboolean control_dead;        /* shut down, the server thread closes it */
  gboolean control_ready;       /* the last wait found it readable */
  gchar *end_reason;            /* why it ended, for receiver-removed */
  gboolean stopping;            /* its unit threads are to exit */
  guint64 token;
  /* with a passphrase: the session's keys (fixed once the session is
   * made: its units read keys.data), and the records of its control
   * connection (those it sends: lock; those it receives: the server
   * thread's) */
  GstTileKeys keys;
  GstTileRecords *records_out;
  GstTileRecords *records_in;
  guint n_connected;            /* data connections of this generation */
  guint n_threads;
  GstTileSenderUnit units[GST_TILE_WIRE_MAX_UNITS];
  guint in_flight;
  guint64 next_frame;
  /* admission times of the frames in flight (they finish in order: the
   * oldest is next_frame - in_flight), by frame number, and the smoothed
   * time from admission to done: how long until a frame is admitted */
  gint64 admit_us[ADMIT_RING];
  gint64 send_avg_us;
  gint64 progress_us;           /* its last frame done */
  gboolean eos_sent;
  /* protocol=udp flow control: the receiver's acknowledgements */
  guint64 acked_next;           /* the oldest frame not acknowledged */
  guint ack_window;             /* frames the receiver can hold past it */
  gint64 ack_progress_us;       /* when acked_next last moved, or the
                                 * oldest frame not acknowledged was sent */
  /* protocol=udp rate control: the pacing rate, from the receiver's
   * feedback on the frames in sent[] */
  GstTileRateControl rate;
  GstTileSenderSent sent[SENT_RING];

  /* statistics of this receiver */
  guint64 frames_sent;
  guint64 frames_dropped;
  guint64 frames_window;        /* of those, for a full receiver window */
  guint64 frames_abandoned;
  guint64 frames_replaced;
  guint64 bytes_sent;
  guint64 packets_sent;
  gint granted_send_buffer;
  GstStructure *receiver_stats;
};

struct _GstTileSender
{
  /* fixed at gst_tile_sender_new(); the mutable ones are atomic (or, for
   * pacing_bitrate, lock) */
  GstTileSenderSettings settings;
  gchar *address;               /* settings.address points here */
  GstTileSenderCallbacks callbacks;
  gpointer user_data;
  GstObject *log_object;

  /* everything below: lock */
  GMutex lock;
  GCond cond;
  gboolean running;
  guint bound_port;
  gint listen_fd;
  gint udp_fd;                  /* protocol=udp: UNIT_HELLO datagrams */
  GThread *server_thread;
  /* the server thread's descriptors: listen_fd, udp_fd, the control
   * connections and the pending ones; only the server thread changes the
   * set */
  GstPoll *poll;
  GstPollFD listen_pfd;
  /* accept() failing (no descriptors left): the listening socket is not
   * polled until listen_pause_until, for a pause that doubles up to 1 s;
   * failures are logged at most once a second */
  gint64 listen_pause_until;
  gint64 listen_pause_us;
  gint64 accept_warned_us;
  guint accept_failures;
  GstPollFD udp_pfd;
  /* protocol=udp address validation: the key of this start's UNIT_HELLO
   * cookies and the time they count from */
  guint8 cookie_key[GST_TILE_SEAL_MAC_KEY_SIZE];
  gint64 cookie_epoch_us;
  GstTileSenderLimit refuse_limit;      /* REFUSE datagrams */
  GstTileSenderLimit warn_limit;        /* warnings about peers */
  guint64 hellos_unvalidated;   /* UNIT_HELLO datagrams from no receiver's
                                 * host: dropped unanswered */
  guint64 hellos_challenged;    /* answered with a cookie */
  GQueue notices;               /* for the callbacks, see
                                 * tilesender-server.c */

  GstTileSenderPending *pending;        /* handshakes in progress */
  guint n_pending;

  /* the receivers served (GstTileSenderSession), oldest first */
  GPtrArray *sessions;
  /* multicast: the session whose units send every frame to the group (not
   * in sessions), and the group */
  GstTileSenderSession *group;
  gchar *multicast_group;
  gchar *multicast_iface;
  guint8 mcast_family;
  guint8 mcast_addr[16];
  guint16 mcast_port;
  guint max_receivers;          /* 0: no limit */
  /* the passphrase (NULL: none; with one, every session is sealed: a
   * receiver without it is refused) */
  gchar *passphrase;
  /* multicast with a passphrase: the group's secret, drawn at each start,
   * sent to every member in its sealed CONFIG */
  guint8 group_secret[GST_TILE_WIRE_GROUP_SECRET_SIZE];
  guint auth_failures;
  GstTileSenderLimit auth_limit;        /* wrong passphrases this second */
  guint auth_throttled;         /* HELLOs refused for it */
  guint read_start;             /* the session read first in the last pass */
  gboolean have_config;
  GstTileSenderLink *link;
  GstBcTiling tiling;           /* of the config */
  GstTileWireConfig config;     /* token: each session's own, see
                                 * gst_tile_sender_send_config_locked () */
  gsize frame_size;

  /* statistics, over every receiver since the start */
  guint64 frames_sent;
  guint64 frames_dropped;
  guint64 frames_window;
  guint64 frames_unsent;
  guint64 frames_abandoned;
  guint64 frames_replaced;
  guint64 frames_overlapped;
  guint64 bytes_sent;
  guint64 packets_sent;
  guint clients;
  guint disconnects;
  guint refused;
  gint granted_send_buffer;
  /* per unit index, over every receiver */
  guint64 unit_bytes[GST_TILE_WIRE_MAX_UNITS];
  guint64 unit_busy_ns[GST_TILE_WIRE_MAX_UNITS];
};

/* tilesender.c */
G_GNUC_INTERNAL
void     gst_tile_sender_end_session_locked (GstTileSenderSession * session,
                                             const gchar * why);
G_GNUC_INTERNAL
gboolean gst_tile_sender_send_control_locked (GstTileSenderSession * session,
                                              const GByteArray * message);
G_GNUC_INTERNAL
gboolean gst_tile_sender_send_config_locked (GstTileSenderSession * session);
G_GNUC_INTERNAL
void     gst_tile_sender_reset_rate_locked (GstTileSenderSession * session);
G_GNUC_INTERNAL
GstTileSenderSession *gst_tile_sender_session_new_locked (GstTileSender * self,
                                                          gint control_fd);
G_GNUC_INTERNAL
void     gst_tile_sender_session_free (GstTileSenderSession * session);
G_GNUC_INTERNAL
void     gst_tile_sender_session_join (GstTileSenderSession * session);
G_GNUC_INTERNAL
guint64  gst_tile_sender_session_rate_locked (GstTileSenderSession * session);
G_GNUC_INTERNAL
GstTileSenderSession *gst_tile_sender_session_at (GstTileSender * self,
                                                  guint i);

/* A receiver's session that is not ending and has sent its first ACK (its
 * window): one whose feedback counts. Lock held. */
static inline gboolean
gst_tile_sender_session_heard (const GstTileSenderSession * ss)
{
  return ss->ack_window > 0 && !ss->control_dead;
}
G_GNUC_INTERNAL
GstTileSenderSession *gst_tile_sender_data_session (GstTileSenderSession *
                                                    session);

/* frames sent while they are written (tilesender.c, for
 * tilesender-pool.c): see gst_tile_sender_new_pool () */
G_GNUC_INTERNAL
gboolean gst_tile_sender_begin_early (GstTileSender * self,
                                      GstBuffer * buffer, guint32 generation,
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
void     gst_tile_sender_end_early (GstTileSender * self,
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

/* tilesender-pool.c */
G_GNUC_INTERNAL
void     gst_tile_sender_pool_init_once (void);
G_GNUC_INTERNAL
gboolean gst_tile_sender_pool_take_early (GstTileSender * self,
                                          GstBuffer * buffer,
                                          GstTileSenderPushResult * result);

/* tilesender-server.c */
G_GNUC_INTERNAL
void     gst_tile_sender_note_sent_locked (GstTileSenderSession * session,
                                           const GstTileSenderFrame * frame);

/* tilesender-units.c */
G_GNUC_INTERNAL
gpointer gst_tile_sender_unit_thread (gpointer data);
G_GNUC_INTERNAL
void     gst_tile_sender_frame_free (GstTileSenderFrame * frame);
G_GNUC_INTERNAL
void     gst_tile_sender_shared_unref (GstTileSenderShared * shared);
G_GNUC_INTERNAL
void     gst_tile_sender_frame_release_locked (GstTileSender * self,
                                               GstTileSenderFrame * frame,
                                               gboolean ok);
G_GNUC_INTERNAL
gboolean gst_tile_sender_drain_locked (GstTileSender * self);
G_GNUC_INTERNAL
void     gst_tile_sender_close_data_locked (GstTileSenderSession * session);

/* tilesender-server.c */
G_GNUC_INTERNAL
gpointer gst_tile_sender_server_thread (gpointer data);
G_GNUC_INTERNAL
void     gst_tile_sender_close_pending_locked (GstTileSender * self, guint i);

/* tilesender-udp.c */
G_GNUC_INTERNAL
gboolean gst_tile_sender_send_tile_udp (GstTileSenderUnit * u,
                                        GstTileSenderScratch * sc,
                                        gint fd,
                                        GstTileSenderFrame * frame,
                                        const GstTileWireTile * tile,
                                        guint packet_size, guint64 rate,
                                        guint64 * n_packets,
                                        GError ** error);
G_GNUC_INTERNAL
gboolean gst_tile_sender_unit_abandons (GstTileSenderUnit * u,
                                        GstTileSenderFrame * frame,
                                        guint64 left, gdouble ns_per_byte);
G_GNUC_INTERNAL
void     gst_tile_sender_scratch_clear (GstTileSenderScratch * sc);
G_GNUC_INTERNAL
guint8  *gst_tile_sender_scratch_seal (GstTileSenderScratch * sc,
                                       const GstTileSenderFrame * frame,
                                       gsize size);

G_END_DECLS

#endif /* __GST_TILE_SENDER_PRIVATE_H__ */
