/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GstTileSender's server thread (GstTileSenderServer): one GstPoll over
 * the listening socket, the UDP socket of the units' UNIT_HELLO datagrams
 * (protocol=udp), the peers' control connections and the connections
 * still in their handshake (GstTileSenderPending). It accepts, runs the
 * handshakes (HELLO, with a passphrase CHALLENGE and AUTH -> a peer and
 * its CONFIG; UNIT_HELLO -> a unit's connection of the peer with that
 * token; refusals, the handshake timeout), validates UDP units' addresses
 * with cookies, reads the peers' control messages (KEEPALIVE, STATS, ACK:
 * the window and rate control of their GstTileSenderFlow), sends
 * keep-alives, ends peers (and joins their unit threads, without the lock)
 * and calls the callbacks. Only this thread changes the poll set and the
 * list of peers, and closes control connections; gst_tile_sender_stop()
 * ends the wait by setting the set flushing. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "tilesender-private.h"
#include "tilebalance.h"

#include <errno.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* the longest wait: handshake deadlines are checked this often */
#define WAIT_MAX_MS 200

typedef struct
{
  gint64 last_keepalive;
  gint64 last_stats;
} ServerState;

/* Something for the callbacks that came up with the lock held: a send
 * buffer smaller than asked for, an error, a receiver added or a peer
 * ended (its threads are joined, then it is freed). */
typedef enum
{
  NOTICE_BUFFER,
  NOTICE_ERROR,
  NOTICE_ADDED,
  NOTICE_REMOVED,
} NoticeKind;

typedef struct
{
  NoticeKind kind;
  gint granted;
  gint asked;
  GError *error;
  gchar *debug;
  guint id;
  gchar *address;
  GstTileSenderPeer *peer;
} Notice;

static void
notice_buffer_locked (GstTileSender * self, gint granted, gint asked)
{
  Notice *n = g_new0 (Notice, 1);

  n->kind = NOTICE_BUFFER;
  n->granted = granted;
  n->asked = asked;
  g_queue_push_tail (&self->server.notices, n);
}

static void
notice_added_locked (GstTileSender * self, GstTileSenderPeer * peer)
{
  Notice *n = g_new0 (Notice, 1);

  n->kind = NOTICE_ADDED;
  n->id = peer->owner.id;
  n->address = g_strdup (peer->address);
  g_queue_push_tail (&self->server.notices, n);
}

/* Takes @peer, out of the list already. */
static void
notice_removed_locked (GstTileSender * self, GstTileSenderPeer * peer)
{
  Notice *n = g_new0 (Notice, 1);

  n->kind = NOTICE_REMOVED;
  n->peer = peer;
  g_queue_push_tail (&self->server.notices, n);
}

/* Takes @debug. Lock held. */
static void
notice_error_locked (GstTileSender * self, GQuark domain, gint code,
    const gchar * text, gchar * debug)
{
  Notice *n = g_new0 (Notice, 1);

  n->kind = NOTICE_ERROR;
  n->error = g_error_new_literal (domain, code, text);
  n->debug = debug;
  g_queue_push_tail (&self->server.notices, n);
}

/* Calls the callbacks for what came up. Lock not held. */
static void
flush_notices (GstTileSender * self)
{
  const GstTileSenderCallbacks *cb = &self->callbacks;
  GQueue q = G_QUEUE_INIT;
  Notice *n;

  g_mutex_lock (&self->lock);
  q = self->server.notices;
  g_queue_init (&self->server.notices);
  g_mutex_unlock (&self->lock);

  while ((n = g_queue_pop_head (&q))) {
    GstTileSenderPeer *peer = n->peer;

    switch (n->kind) {
      case NOTICE_ERROR:
        if (cb->post_error)
          cb->post_error (self->user_data, n->error, n->debug);
        break;
      case NOTICE_BUFFER:
        if (cb->buffer_warning)
          cb->buffer_warning (self->user_data, n->granted, n->asked);
        break;
      case NOTICE_ADDED:
        if (cb->receiver_added)
          cb->receiver_added (self->user_data, n->id, n->address);
        break;
      case NOTICE_REMOVED:
        gst_tile_sender_owner_join (&peer->owner);
        if (cb->receiver_removed)
          cb->receiver_removed (self->user_data, peer->owner.id,
              peer->address, peer->end_reason ? peer->end_reason :
              "the session ended");
        gst_tile_sender_peer_free (peer);
        break;
    }
    g_clear_error (&n->error);
    g_free (n->debug);
    g_free (n->address);
    g_free (n);
  }
}

void
gst_tile_sender_poll_add (GstTileSender * self, GstPollFD * pfd, gint fd)
{
  gst_poll_fd_init (pfd);
  if (fd < 0)
    return;
  pfd->fd = fd;
  gst_poll_add_fd (self->server.poll, pfd);
  gst_poll_fd_ctl_read (self->server.poll, pfd, TRUE);
}

void
gst_tile_sender_poll_remove (GstTileSender * self, GstPollFD * pfd)
{
  if (pfd->fd >= 0 && self->server.poll)
    gst_poll_remove_fd (self->server.poll, pfd);
  gst_poll_fd_init (pfd);
}

/* Whether the last wait found anything on @pfd: data, the end of the
 * connection or an error. */
static gboolean
poll_ready (GstTileSender * self, GstPollFD * pfd)
{
  return pfd->fd >= 0 && (gst_poll_fd_can_read (self->server.poll, pfd) ||
      gst_poll_fd_has_closed (self->server.poll, pfd) ||
      gst_poll_fd_has_error (self->server.poll, pfd));
}

/* Lock held, or the sender stopped. */
void
gst_tile_sender_close_pending_locked (GstTileSender * self, guint i)
{
  GstTileSenderServer *sv = &self->server;
  GstTileSenderPending *p = &sv->pending[i];
  gint fd = p->pfd.fd;

  gst_tile_sender_poll_remove (self, &p->pfd);
  gst_tile_net_close (&fd);
  gst_tile_pake_clear (&p->pake);
  *p = sv->pending[--sv->n_pending];
  /* (the moved entry's CPace scalar is not left behind) */
  gst_tile_seal_wipe (&sv->pending[sv->n_pending], sizeof (sv->pending[0]));
}

/* A warning about a remote end, at most WARNINGS_PER_SECOND (a flood of
 * bad ones must not flood the log); the ones left out are counted in the
 * next. Lock held. */
static void
warn_remote (GstTileSender * self, const gchar * what, const gchar * code,
    const gchar * reason)
{
  GstTileSenderLimit *l = &self->server.warn_limit;
  guint before = l->suppressed;

  if (!gst_tile_sender_limit_take (l, WARNINGS_PER_SECOND,
          g_get_monotonic_time ())) {
    GST_DEBUG_OBJECT (self->log_object, "%s (%s): %s", what, code, reason);
    return;
  }
  if (before > 0) {
    GST_WARNING_OBJECT (self->log_object, "%s (%s): %s (and %u more "
        "refusals not shown)", what, code, reason, before);
    l->suppressed = 0;
  } else {
    GST_WARNING_OBJECT (self->log_object, "%s (%s): %s", what, code, reason);
  }
}

static void
refuse (GstTileSender * self, gint fd, GstTileWireRefuseCode code,
    const gchar * reason)
{
  warn_remote (self, "refusing a connection",
      gst_tile_net_refuse_code_name (code), reason);
  self->totals.refused++;
  gst_tile_net_send_refuse (fd, code, reason);
}

/* Refuses @fd as busy when max_receivers are served already (the caller
 * closes it). Lock held. */
static gboolean
refused_busy (GstTileSender * self, gint fd)
{
  gchar *msg;

  if (self->settings.max_receivers == 0 ||
      self->peers->len < self->settings.max_receivers)
    return FALSE;
  msg = g_strdup_printf ("this tilesink already serves %u receiver%s "
      "(max-receivers)", self->peers->len,
      self->peers->len == 1 ? "" : "s");
  refuse (self, fd, GST_TILE_WIRE_REFUSE_BUSY, msg);
  g_free (msg);
  return TRUE;
}

/* Whether a HELLO may go on: it parses, its passphrase flag matches ours
 * and there is no receiver yet; else it is refused (the caller closes
 * @fd). Lock held. */
static gboolean
hello_acceptable (GstTileSender * self, gint fd, const guint8 * payload,
    guint32 len, GstTileWireHello * hello)
{
  GError *err = NULL;
  gboolean theirs;

  if (!gst_tile_wire_hello_parse (payload, len, hello, &err)) {
    refuse (self, fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE, err->message);
    g_clear_error (&err);
    return FALSE;
  }
  theirs = (hello->flags & GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE) != 0;
  if (theirs != (self->crypto.passphrase != NULL)) {
    refuse (self, fd, GST_TILE_WIRE_REFUSE_UNAUTHORIZED, theirs ?
        "this tilesink has no passphrase, the receiver has one" :
        "this tilesink requires a passphrase, the receiver has none");
    return FALSE;
  }
  return !refused_busy (self, fd);
}

/* The handshake is over: @fd becomes the control connection of a new
 * peer (with @keys, its session's keys, when there is a passphrase: every
 * control message is sealed from now on; with its @hello's region), and
 * the CONFIG goes out when there is one. Takes @fd over. Lock held. */
static void
take_control (GstTileSender * self, gint fd, const GstTileKeys * keys,
    const GstTileWireHello * hello)
{
  GstTileSenderPeer *peer = gst_tile_sender_peer_new_locked (self, fd, hello);

  if (keys) {
    peer->keys = *keys;
    peer->control.records_out = gst_tile_records_new (TRUE, keys->s2c);
    peer->control.records_in = gst_tile_records_new (FALSE, keys->c2s);
  }
  /* a receiver whose host vanishes: sends fail after the timeout, too */
  gst_tile_net_set_user_timeout (fd, gst_tile_sender_peer_user_timeout (peer));
  gst_tile_sender_poll_add (self, &peer->control.pfd, fd);
  GST_INFO_OBJECT (self->log_object, "receiver %u connected from %s (%u "
      "served)", peer->owner.id, peer->address, self->peers->len);
  notice_added_locked (self, peer);
  if (self->have_config)
    gst_tile_sender_send_config_locked (peer);
}

/* The peer with @token, NULL when none (or it is ending). Lock held. */
GstTileSenderPeer *
gst_tile_sender_peer_by_token_locked (GstTileSender * self, guint64 token)
{
  guint i;

  for (i = 0; i < self->peers->len; i++) {
    GstTileSenderPeer *peer = g_ptr_array_index (self->peers, i);

    if (peer->owner.token == token && !peer->control.dead)
      return peer;
  }
  return NULL;
}

/* The send buffer a unit's socket got; a warning when it is less than
 * asked for (once per size). Lock held. */
static void
note_send_buffer (GstTileSenderPeer * peer, gint fd)
{
  GstTileSender *self = peer->owner.sender;
  gint asked = self->settings.send_buffer_size;
  gint size = gst_tile_net_set_buffer_size (fd, TRUE, asked);

  if (self->totals.sum.granted_send_buffer != size && asked > 0
      && !gst_tile_net_buffer_is_enough (size, asked))
    notice_buffer_locked (self, size, asked);
  self->totals.sum.granted_send_buffer =
      peer->owner.counters.granted_send_buffer = size;
}

/* A unit's data connection gets the congestion control of the settings;
 * when the kernel refuses it (not built, or not allowed to this process)
 * the connection keeps the system's default, said once. Lock held. */
static void
set_congestion_locked (GstTileSender * self, gint fd)
{
  const gchar *cc = self->settings.congestion_control;

  if (!cc || gst_tile_net_set_congestion (fd, cc) ||
      self->congestion_refused)
    return;
  self->congestion_refused = TRUE;
  GST_WARNING_OBJECT (self->log_object, "the kernel refused the TCP "
      "congestion control '%s' (%s): the units use the system's default. "
      "See net.ipv4.tcp_available_congestion_control, and for a process "
      "without CAP_NET_ADMIN net.ipv4.tcp_allowed_congestion_control", cc,
      g_strerror (errno));
}

/* Whether the data connection @fd comes from the host of @peer's control
 * connection or of one of its paths. */
static gboolean
data_peer_is_host (gint fd, GstTileSenderPeer * peer)
{
  struct sockaddr_storage addr;

  return gst_tile_net_address (fd, TRUE, &addr) > 0 &&
      gst_tile_sender_peer_has_host (peer, &addr);
}

/* The path (its number on the wire) of @peer's data connection @fd: the
 * path whose connection reaches the address of ours it came to, or comes
 * from its host. Lock held. */
static guint
tcp_data_path_locked (GstTileSenderPeer * peer, gint fd)
{
  struct sockaddr_storage local = { 0 }, remote = { 0 };

  gst_tile_net_address (fd, FALSE, &local);
  gst_tile_net_address (fd, TRUE, &remote);
  return gst_tile_sender_peer_path_of (peer, &local, &remote);
}

/* Redundant paths over TCP: whether a second connection @fd of unit @u
 * (connected already) becomes a copy of it: when it came over another path
 * (in @path) than the unit's connections. Lock held. */
static gboolean
tcp_copy_path_locked (GstTileSenderPeer * peer, GstTileSenderUnit * u,
    gint fd, guint * path)
{
  guint k;

  if (!peer->redundant || peer->owner.stopping ||
      peer->owner.sender->settings.protocol != GST_TILE_WIRE_PROTOCOL_TCP)
    return FALSE;
  *path = tcp_data_path_locked (peer, fd);
  if (*path >= GST_TILE_WIRE_MAX_PATHS || *path == u->path)
    return FALSE;
  for (k = 0; k < u->n_tcp_copies; k++)
    if (u->tcp_copy[k]->fd >= 0 && u->tcp_copy[k]->path == *path)
      return FALSE;
  return TRUE;
}

/* UNIT_HELLO on a new TCP connection: it becomes that unit's data
 * connection (with redundant paths, a unit's second connection from
 * another path a copy of it). Takes @fd over. Lock held. */
static void
handle_unit_hello (GstTileSender * self, gint fd, const guint8 * payload,
    guint32 len)
{
  GstTileSenderPeer *peer = NULL;
  GstTileWireUnitHello uh;
  GError *err = NULL;
  gchar *msg = NULL;
  guint copy_path = 0;

  if (!gst_tile_wire_unit_hello_parse (payload, len, &uh, &err)) {
    refuse (self, fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE, err->message);
    g_clear_error (&err);
  } else if (!(peer = gst_tile_sender_peer_by_token_locked (self, uh.token))
      || !self->have_config || uh.generation != self->config.generation) {
    /* (the tokens of the others are not told) */
    msg = g_strdup_printf ("UNIT_HELLO for session %016" G_GINT64_MODIFIER
        "x generation %u: %s", uh.token, uh.generation, peer ?
        "not the current generation" : "no such session");
    refuse (self, fd, GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN, msg);
  } else if (peer->control.records_in && !gst_tile_keys_unit_mac_check
      (peer->keys.unit_c2s, GST_TILE_KEYS_UNIT_HELLO, &uh)) {
    refuse (self, fd, GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN,
        "UNIT_HELLO failed its authentication");
  } else if (!data_peer_is_host (fd, peer)) {
    /* the session's token seen by another host (on the path): the units
     * of a session are its receiver's */
    refuse (self, fd, GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN,
        "UNIT_HELLO from another host than the session's receiver");
  } else if (uh.unit >= self->config.n_tiles ||
      !gst_tile_sender_owner_uses (&peer->owner, uh.unit) ||
      (peer->owner.units[uh.unit].fd >= 0 && !tcp_copy_path_locked (peer,
              &peer->owner.units[uh.unit], fd, &copy_path))) {
    msg = g_strdup_printf ("unit %u %s (the session has %u units)",
        uh.unit, uh.unit >= self->config.n_tiles ? "does not exist" :
        !gst_tile_sender_owner_uses (&peer->owner, uh.unit) ?
        "is outside the receiver's region" : "is already connected",
        self->config.n_tiles);
    refuse (self, fd, GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT, msg);
  } else {
    GstTileSenderUnit *u = &peer->owner.units[uh.unit];

    note_send_buffer (peer, fd);
    set_congestion_locked (self, fd);
    gst_tile_net_set_user_timeout (fd,
        gst_tile_sender_peer_user_timeout (peer));
    /* a unit's frame counts as sent once at most a quarter of its tile is
     * left in the host (see unit_send_tile ()) */
    if (!gst_tile_net_set_unsent_limit (fd,
            MAX (self->config.tiles[uh.unit].size / 4,
                GST_TILE_SENDER_MIN_UNSENT)))
      GST_DEBUG_OBJECT (self->log_object, "unit %u: no TCP_NOTSENT_LOWAT",
          uh.unit);
    if (u->fd >= 0) {
      /* redundant paths: a copy of the unit's tiles over another path */
      if (gst_tile_sender_unit_copy_locked (u, fd, copy_path)) {
        GST_DEBUG_OBJECT (self->log_object, "receiver %u: unit %u connected "
            "over path %u too", peer->owner.id, uh.unit, copy_path);
        return;
      }
      refuse (self, fd, GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT,
          "unit is connected over every path");
      gst_tile_net_close (&fd);
      return;
    }
    u->path = tcp_data_path_locked (peer, fd);
    peer->owner.units[uh.unit].fd = fd;
    /* (balanced tiles: a new connection's path has not failed) */
    peer->owner.units[uh.unit].path_failed = FALSE;
    peer->owner.n_connected++;
    GST_DEBUG_OBJECT (self->log_object, "receiver %u: unit %u connected "
        "(%u/%u)", peer->owner.id, uh.unit, peer->owner.n_connected,
        peer->owner.n_used);
    if (peer->owner.n_connected == peer->owner.n_used)
      GST_INFO_OBJECT (self->log_object, "receiver %u: all %u units "
          "connected, generation %u", peer->owner.id,
          peer->owner.n_connected, self->config.generation);
    return;
  }
  g_free (msg);
  gst_tile_net_close (&fd);
}

/* A complete first message on a new connection: HELLO (control, without
 * a passphrase), UNIT_HELLO (data) or PATH (another network path of a
 * session). Takes @fd over. Lock held. */
static void
handle_first_message (GstTileSender * self, gint fd,
    const GstTileWireHeader * h, const guint8 * payload)
{
  GstTileWireHello hello;

  if (h->type == GST_TILE_WIRE_TYPE_HELLO) {
    if (hello_acceptable (self, fd, payload, h->payload_len, &hello))
      take_control (self, fd, NULL, &hello);
    else
      gst_tile_net_close (&fd);
  } else if (h->type == GST_TILE_WIRE_TYPE_UNIT_HELLO
      && self->settings.protocol == GST_TILE_WIRE_PROTOCOL_UDP) {
    refuse (self, fd, GST_TILE_WIRE_REFUSE_OTHER, "this tilesink uses "
        "protocol udp: send UNIT_HELLO as a datagram to the control port");
    gst_tile_net_close (&fd);
  } else if (h->type == GST_TILE_WIRE_TYPE_UNIT_HELLO) {
    handle_unit_hello (self, fd, payload, h->payload_len);
  } else if (h->type == GST_TILE_WIRE_TYPE_PATH) {
    GstTileWireRefuseCode code;
    gchar *reason = NULL;

    if (!gst_tile_sender_path_hello_locked (self, fd, payload,
            h->payload_len, &code, &reason)) {
      refuse (self, fd, code, reason);
      gst_tile_net_close (&fd);
    }
    g_free (reason);
  } else {
    refuse (self, fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE, "the first message "
        "on a connection must be HELLO, UNIT_HELLO or PATH");
    gst_tile_net_close (&fd);
  }
}

/* A header of a first message just completed: refuses it (returns FALSE)
 * when it is bad or its payload too large for a first message. */
static gboolean
pending_check_header (GstTileSender * self, GstTileSenderPending * p)
{
  GstTileWireHeader h;
  GError *err = NULL;

  if (gst_tile_wire_header_parse (p->buf, p->have, &h, &err) !=
      GST_TILE_WIRE_PARSE_OK) {
    refuse (self, p->pfd.fd, err->code ==
        GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION ?
        GST_TILE_WIRE_REFUSE_BAD_VERSION : GST_TILE_WIRE_REFUSE_BAD_MESSAGE,
        err->message);
    g_clear_error (&err);
    return FALSE;
  }
  if (h.payload_len > PENDING_BUF - GST_TILE_WIRE_HEADER_SIZE) {
    gchar *msg = g_strdup_printf ("%s payload of %u bytes is too large for "
        "a first message", gst_tile_wire_type_get_name (h.type),
        h.payload_len);

    refuse (self, p->pfd.fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE, msg);
    g_free (msg);
    return FALSE;
  }
  return TRUE;
}

/* CPace's session id: the nonces of HELLO and CHALLENGE */
static void
pending_sid (const GstTileSenderPending * p,
    guint8 sid[2 * GST_TILE_SEAL_NONCE_SIZE])
{
  memcpy (sid, p->hello.nonce, GST_TILE_SEAL_NONCE_SIZE);
  memcpy (sid + GST_TILE_SEAL_NONCE_SIZE, p->challenge.nonce,
      GST_TILE_SEAL_NONCE_SIZE);
}

/* A HELLO with a passphrase: answered with a CHALLENGE (a fresh nonce and
 * our CPace share: we are the initiator); the connection stays in its
 * handshake for the AUTH. Returns FALSE when it is refused (the caller
 * closes it). Lock held. */
static gboolean
pending_challenge (GstTileSender * self, GstTileSenderPending * p,
    const GstTileWireHeader * h, const guint8 * payload)
{
  const GstTileSenderCrypto *cr = &self->crypto;
  guint8 sid[2 * GST_TILE_SEAL_NONCE_SIZE];
  GByteArray *m;
  gboolean ok;

  if (!hello_acceptable (self, p->pfd.fd, payload, h->payload_len, &p->hello))
    return FALSE;
  /* online guessing: this second's wrong passphrases are used up */
  if (cr->auth_limit.n >= AUTH_FAILURES_PER_SECOND &&
      g_get_monotonic_time () - cr->auth_limit.window_us < G_USEC_PER_SEC) {
    self->totals.auth_throttled++;
    refuse (self, p->pfd.fd, GST_TILE_WIRE_REFUSE_BUSY, "too many wrong "
        "passphrases in the last second: try again later");
    return FALSE;
  }
  if (!gst_tile_seal_random (p->challenge.nonce,
          sizeof (p->challenge.nonce))) {
    refuse (self, p->pfd.fd, GST_TILE_WIRE_REFUSE_OTHER,
        "no random numbers for the handshake");
    return FALSE;
  }
  pending_sid (p, sid);
  if (!gst_tile_pake_start (&p->pake, (const guint8 *) cr->passphrase,
          strlen (cr->passphrase), (const guint8 *) GST_TILE_KEYS_CPACE_CI,
          strlen (GST_TILE_KEYS_CPACE_CI), sid, sizeof (sid), NULL)) {
    refuse (self, p->pfd.fd, GST_TILE_WIRE_REFUSE_OTHER,
        "the passphrase handshake failed (libsodium)");
    return FALSE;
  }
  memcpy (p->challenge.share, gst_tile_pake_share (&p->pake),
      sizeof (p->challenge.share));
  m = g_byte_array_new ();
  gst_tile_wire_challenge_pack (&p->challenge, m);
  ok = gst_tile_net_send_now (p->pfd.fd, m->data, m->len, NULL);
  g_byte_array_unref (m);
  p->challenged = ok;
  return ok;
}

/* The receiver's AUTH, the answer to our CHALLENGE: its CPace share gives
 * the session's keys; with its proof of the same keys (the same
 * passphrase, and the same transcript) we send ours, and the connection
 * becomes the control connection (returns FALSE, the descriptor taken
 * over); with a wrong one it is refused. Lock held. */
static gboolean
pending_auth (GstTileSender * self, GstTileSenderPending * p,
    const GstTileWireHeader * h, const guint8 * payload)
{
  guint8 sid[2 * GST_TILE_SEAL_NONCE_SIZE], isk[GST_TILE_PAKE_ISK_SIZE];
  guint8 th[GST_TILE_KEYS_HASH_SIZE];
  GstTileWireAuth auth;
  GstTileKeys keys;
  GError *err = NULL;
  GByteArray *m;
  gboolean ok;
  gint fd;

  if (h->type != GST_TILE_WIRE_TYPE_AUTH) {
    gchar *msg = g_strdup_printf ("expected AUTH after CHALLENGE, got %s",
        gst_tile_wire_type_get_name (h->type));

    refuse (self, p->pfd.fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE, msg);
    g_free (msg);
    return FALSE;
  }
  if (!gst_tile_wire_auth_parse (payload, h->payload_len, &auth, &err)) {
    refuse (self, p->pfd.fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE, err->message);
    g_clear_error (&err);
    return FALSE;
  }
  pending_sid (p, sid);
  ok = gst_tile_pake_finish (&p->pake, TRUE, NULL, 0, auth.share, NULL, 0,
      sid, sizeof (sid), isk);
  gst_tile_pake_clear (&p->pake);
  if (ok) {
    gst_tile_keys_transcript (&p->hello, &p->challenge, auth.share, th);
    gst_tile_keys_derive (isk, sizeof (isk), th, &keys);
    gst_tile_seal_wipe (isk, sizeof (isk));
    ok = gst_tile_seal_equal (auth.proof, keys.client_proof,
        sizeof (auth.proof));
  }
  if (!ok) {
    self->totals.auth_failures++;
    gst_tile_sender_limit_take (&self->crypto.auth_limit,
        AUTH_FAILURES_PER_SECOND, g_get_monotonic_time ());
    gst_tile_keys_clear (&keys);
    refuse (self, p->pfd.fd, GST_TILE_WIRE_REFUSE_UNAUTHORIZED,
        "wrong passphrase");
    return FALSE;
  }
  if (refused_busy (self, p->pfd.fd)) {
    gst_tile_keys_clear (&keys);
    return FALSE;
  }
  memcpy (auth.share, p->challenge.share, sizeof (auth.share));
  memcpy (auth.proof, keys.sender_proof, sizeof (auth.proof));
  m = g_byte_array_new ();
  gst_tile_wire_auth_pack (&auth, m);
  ok = gst_tile_net_send_now (p->pfd.fd, m->data, m->len, NULL);
  g_byte_array_unref (m);
  if (ok) {
    fd = p->pfd.fd;
    gst_tile_sender_poll_remove (self, &p->pfd);
    take_control (self, fd, &keys, &p->hello);
  }
  gst_tile_keys_clear (&keys);
  return FALSE;
}

/* Reads what has arrived on a handshaking connection. Returns FALSE when
 * the connection is done with: taken over (p->pfd.fd is then -1) or to be
 * closed. Lock held. */
static gboolean
pending_read (GstTileSender * self, GstTileSenderPending * p)
{
  GstTileWireHeader h;
  gsize want = GST_TILE_WIRE_HEADER_SIZE;
  gssize n;
  gint fd;

  if (p->have >= GST_TILE_WIRE_HEADER_SIZE) {
    if (gst_tile_wire_header_parse (p->buf, p->have, &h, NULL) !=
        GST_TILE_WIRE_PARSE_OK)
      g_assert_not_reached ();
    want += h.payload_len;
  }
  n = gst_tile_net_read_some (p->pfd.fd, p->buf + p->have, want - p->have);
  if (n == 0)
    return TRUE;
  if (n < 0) {
    GST_DEBUG_OBJECT (self->log_object,
        "connection closed during the handshake");
    return FALSE;
  }
  p->have += n;
  if (p->have < GST_TILE_WIRE_HEADER_SIZE)
    return TRUE;
  if (p->have == GST_TILE_WIRE_HEADER_SIZE && !pending_check_header (self, p))
    return FALSE;

  gst_tile_wire_header_parse (p->buf, p->have, &h, NULL);
  if (p->have < GST_TILE_WIRE_HEADER_SIZE + h.payload_len)
    return TRUE;
  p->have = 0;
  if (p->challenged)
    return pending_auth (self, p, &h, p->buf + GST_TILE_WIRE_HEADER_SIZE);
  if (h.type == GST_TILE_WIRE_TYPE_HELLO && self->crypto.passphrase)
    return pending_challenge (self, p, &h, p->buf + GST_TILE_WIRE_HEADER_SIZE);
  fd = p->pfd.fd;
  gst_tile_sender_poll_remove (self, &p->pfd);
  handle_first_message (self, fd, &h, p->buf + GST_TILE_WIRE_HEADER_SIZE);
  return FALSE;
}

/* Striped datagrams: the paths' shares learn from what each path did with
 * frame @e (its datagrams sent over it, and its ACK's feedback of it; a
 * path that carried some and is not in the feedback lost them all). Lock
 * held. */
static void
stripe_sample_locked (GstTileSenderPeer * peer, GstTileSenderSent * e)
{
  GstTileSenderFlow *f = &peer->flow;
  GstTileStripeSample s[GST_TILE_WIRE_MAX_PATHS] = { {0} };
  guint p;

  for (p = 0; p < GST_TILE_WIRE_MAX_PATHS; p++) {
    const GstTileWireAckPath *fb = &e->path_fb[p];

    if (e->path_packets[p] == 0)
      continue;
    s[p].sent = e->path_packets[p];
    if (!(e->path_acked & (1u << p)))
      continue;
    if (fb->delay_ns == 0)
      return;                   /* (no timestamp: no common time line) */
    s[p].received = fb->received;
    /* (its last arrival is that of a receive batch (GRO): those after the
     * first of it came later, at the path's pace) */
    s[p].last_ns = fb->delay_ns + (gint64) fb->receive_ns +
        (gint64) (fb->received - fb->spanned) * (gint64) fb->receive_ns /
        MAX (fb->spanned, 1);
  }
  gst_tile_balance_stripe (&f->stripe, s, e->send_ns, e->number,
      gst_tile_sender_peer_data_owner (peer)->next_frame);
  for (p = 0; p < GST_TILE_WIRE_MAX_PATHS; p++)
    if (s[p].sent)
      GST_LOG_OBJECT (peer->owner.sender->log_object, "receiver %u frame %"
          G_GUINT64_FORMAT " path %u: %" G_GUINT64_FORMAT " of %"
          G_GUINT64_FORMAT " datagrams, the last at %" G_GINT64_FORMAT
          " us (sent in %" G_GINT64_FORMAT " us): share %.3f",
          peer->owner.id, e->number, p, s[p].received, s[p].sent,
          s[p].last_ns / 1000, e->send_ns / 1000, f->stripe.weight[p]);
}

/* Striped datagrams: the delivery rate of frame @e, bits/s: the sum of its
 * paths' (what each delivered within its own receive time: the paths
 * deliver side by side, and the frame's receive time is the slowest's);
 * 0 when one of them cannot be told (its datagrams too few or too close
 * together). */
static guint64
stripe_delivered (const GstTileSenderSent * e)
{
  guint64 sum = 0;
  guint p;

  if (e->packets == 0)
    return 0;
  for (p = 0; p < GST_TILE_WIRE_MAX_PATHS; p++) {
    const GstTileWireAckPath *fb = &e->path_fb[p];

    if (e->path_packets[p] == 0 || !(e->path_acked & (1u << p)))
      continue;
    if (fb->spanned < 1 || fb->receive_ns < 100 * GST_USECOND)
      return 0;
    sum += gst_util_uint64_scale (gst_util_uint64_scale (e->bytes,
            fb->spanned, e->packets) * 8, GST_SECOND, fb->receive_ns);
  }
  return sum;
}

/* One frame's sample for the rate control, once both what was sent of it
 * and what arrived are known. Lock held. */
static void
rate_sample_locked (GstTileSenderPeer * peer, GstTileSenderSent * e)
{
  GstTileSender *self = peer->owner.sender;
  GstTileRateSample rs = { 0 };
  guint64 before = gst_tile_rate_control_get_rate (&peer->flow.rate);

  rs.frame = e->number;
  rs.bytes = e->bytes;
  rs.packets_sent = MIN (e->packets, G_MAXUINT);
  rs.send_ns = e->send_ns;
  rs.packets_received = e->received;
  rs.packets_spanned = e->spanned;
  rs.receive_ns = e->receive_ns;        /* at most an hour (the parser) */
  rs.delay_ns = e->delay_ns - e->wait_ns;
  rs.has_delay = e->delay_ns != 0;
  rs.interval_ns = self->offer_interval_us * 1000;
  if (peer->striped && e->path_acked)
    rs.delivered = stripe_delivered (e);
  e->sent = e->acked = FALSE;
  gst_tile_sender_fec_feedback_locked (peer, e->packets, e->received);
  if (peer->striped && e->path_acked)
    stripe_sample_locked (peer, e);
  if (!self->settings.rate_control)
    return;                     /* (fec=auto's, the shares' feedback only) */
  GST_LOG_OBJECT (self->log_object, "frame %" G_GUINT64_FORMAT ": %u of %u "
      "datagrams in %" G_GINT64_FORMAT " us (sent in %" G_GINT64_FORMAT
      " us), delay %" G_GINT64_FORMAT " us", rs.frame, rs.packets_received,
      rs.packets_sent, rs.receive_ns / 1000, rs.send_ns / 1000,
      rs.delay_ns / 1000);
  if (gst_tile_rate_control_update (&peer->flow.rate, &rs,
          gst_tile_sender_peer_data_owner (peer)->next_frame,
          g_get_monotonic_time () * 1000))
    GST_DEBUG_OBJECT (self->log_object, "receiver %u frame %"
        G_GUINT64_FORMAT ": pacing at %" G_GUINT64_FORMAT " bit/s, was %"
        G_GUINT64_FORMAT, peer->owner.id, rs.frame,
        gst_tile_rate_control_get_rate (&peer->flow.rate), before);
}

/* The ring entry of frame @number, taken over from an older frame when it
 * held one. Lock held. */
static GstTileSenderSent *
sent_entry_locked (GstTileSenderPeer * peer, guint64 number)
{
  GstTileSenderSent *e = &peer->flow.sent[number % SENT_RING];

  if (e->number != number) {
    memset (e, 0, sizeof (*e));
    e->number = number;
  }
  return e;
}

static void
note_sent_one_locked (GstTileSenderPeer * peer,
    const GstTileSenderFrame * frame)
{
  GstTileSenderSent *e = sent_entry_locked (peer, frame->number);

  e->sent = TRUE;
  e->bytes = frame->bytes;
  e->packets = frame->packets;
  e->send_ns = (frame->send_end_us - frame->send_start_us) * 1000;
  e->wait_ns = (frame->send_start_us - frame->push_us) * 1000 + frame->lag_ns;
  memcpy (e->path_packets, frame->path_packets, sizeof (e->path_packets));
  if (e->acked)
    rate_sample_locked (peer, e);
}

/* protocol=udp, rate control: the last unit of @o is done with a frame
 * sent whole: its peer's rate control learns of it, or for the multicast
 * group every heard member's. Lock held. */
void
gst_tile_sender_note_sent_locked (GstTileSenderOwner * o,
    const GstTileSenderFrame * frame)
{
  GstTileSender *self = o->sender;
  guint i;

  if (self->config.protocol != GST_TILE_WIRE_PROTOCOL_UDP ||
      !(self->settings.rate_control || (o->peer && o->peer->striped) ||
          self->settings.fec == GST_TILE_SENDER_FEC_AUTO) ||
      frame->packets == 0)
    return;
  if (o->peer) {
    note_sent_one_locked (o->peer, frame);
    return;
  }
  for (i = 0; i < self->peers->len; i++) {
    GstTileSenderPeer *m = g_ptr_array_index (self->peers, i);

    if (gst_tile_sender_peer_heard (m))
      note_sent_one_locked (m, frame);
  }
}

/* The frames an ACK moves past: those not acknowledged themselves did not
 * arrive at all (the receiver skipped them), the acknowledged one tells
 * what arrived of it. Lock held. */
static void
rate_feedback_locked (GstTileSenderPeer * peer, const GstTileWireAck * ack)
{
  guint64 f = MAX (peer->flow.acked_next, ack->frame >= SENT_RING ?
      ack->frame - SENT_RING + 1 : 0);
  guint i;

  for (; f <= ack->frame; f++) {
    GstTileSenderSent *e;

    if (f == ack->frame && !ack->has_feedback)
      break;
    e = sent_entry_locked (peer, f);
    e->acked = TRUE;
    if (f == ack->frame) {
      e->received = ack->received;
      e->spanned = ack->spanned;
      if (peer->group && peer->region_packets > 0 &&
          peer->region_packets < peer->all_packets) {
        /* a member with a region receives its units' datagrams of the
         * group's frames: in the group's terms, its share of them */
        e->received = MIN (peer->all_packets, (guint64) ack->received *
            peer->all_packets / peer->region_packets);
        e->spanned = MIN (e->received, (guint64) ack->spanned *
            peer->all_packets / peer->region_packets);
      }
      e->receive_ns = ack->receive_ns;
      e->delay_ns = ack->delay_ns;
      e->path_acked = 0;
      for (i = 0; i < ack->n_paths; i++) {
        e->path_fb[ack->paths[i].path] = ack->paths[i];
        e->path_acked |= 1u << ack->paths[i].path;
      }
    }
    if (e->sent)
      rate_sample_locked (peer, e);
  }
}

/* ACK: the receiver's window and the newest frame it is done with. Lock
 * held. */
static void
handle_ack (GstTileSenderPeer * peer, const GstTileWireAck * ack)
{
  GstTileSender *self = peer->owner.sender;

  /* acknowledgements of another generation (an old one still on its way)
   * move nothing; nor do those of frames never sent (a confused or hostile
   * peer) */
  if (!self->have_config || ack->generation != self->config.generation) {
    GST_DEBUG_OBJECT (self->log_object, "ignoring ACK of generation %u",
        ack->generation);
    return;
  }
  peer->flow.window = ack->window;
  if (ack->has_frame &&
      ack->frame < gst_tile_sender_peer_data_owner (peer)->next_frame &&
      ack->frame + 1 > peer->flow.acked_next) {
    if (self->settings.rate_control || peer->striped ||
        self->settings.fec == GST_TILE_SENDER_FEC_AUTO)
      rate_feedback_locked (peer, ack);
    peer->flow.acked_next = ack->frame + 1;
    peer->flow.progress_us = g_get_monotonic_time ();
  }
}

/* The receiver broke the protocol (@err): it is told why. Lock held. */
static void
refuse_control_locked (GstTileSenderPeer * peer, const GError * err)
{
  GByteArray *m = g_byte_array_new ();

  GST_WARNING_OBJECT (peer->owner.sender->log_object, "receiver %u: bad "
      "control message: %s", peer->owner.id, err->message);
  if (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_BAD_MESSAGE,
          err->message, m, NULL))
    gst_tile_sender_send_control_locked (peer, m);
  g_byte_array_unref (m);
}

/* A control message from the receiver, parsed (without the lock). */
typedef struct
{
  GstTileWireType type;
  GstTileWireAck ack;
  GstStructure *stats;          /* NULL: skipped */
  GstTileWireTime time;         /* TIME, answered (local_time NONE: not) */
  GstTileWireNack nack;
} ControlMessage;

/* Parses a message from the receiver; the server thread, lock not held
 * (parsing a STATS structure is the costly part: a receiver sending too
 * many gets them skipped unparsed). FALSE with @err set when it breaks
 * the protocol. */
static gboolean
control_parse (GstTileSenderPeer * peer, const GstTileWireHeader * h,
    GByteArray * payload, ControlMessage * m, GError ** err)
{
  GstTileSender *self = peer->owner.sender;
  GError *serr = NULL;
  guint64 t;

  m->type = h->type;
  m->stats = NULL;
  m->time.local_time = GST_CLOCK_TIME_NONE;
  switch (h->type) {
    case GST_TILE_WIRE_TYPE_KEEPALIVE:
      return gst_tile_wire_keepalive_parse (payload->data, payload->len, &t,
          err);
    case GST_TILE_WIRE_TYPE_ACK:
      return gst_tile_wire_ack_parse (payload->data, payload->len, &m->ack,
          err);
    case GST_TILE_WIRE_TYPE_NACK:
      return gst_tile_wire_nack_parse (payload->data, payload->len, &m->nack,
          err);
    case GST_TILE_WIRE_TYPE_STATS:
      if (!gst_tile_sender_limit_take (&peer->control.stats_limit,
              STATS_PER_SECOND, g_get_monotonic_time ()))
        return TRUE;
      /* statistics are informative: a report we cannot read (another
       * version's field names, say) is skipped, not fatal */
      if (!gst_tile_wire_stats_parse (payload->data, payload->len, &m->stats,
              &serr)) {
        GST_DEBUG_OBJECT (self->log_object, "receiver %u: ignoring its "
            "statistics: %s", peer->owner.id, serr->message);
        g_clear_error (&serr);
      }
      return TRUE;
    case GST_TILE_WIRE_TYPE_TIME:
      if (!gst_tile_wire_time_parse (payload->data, payload->len, &m->time,
              err))
        return FALSE;
      if (m->time.remote_time != GST_CLOCK_TIME_NONE) {
        g_set_error (err, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
            "a TIME query with a remote time");
        return FALSE;
      }
      /* a receiver asking too often gets no answer to the excess */
      if (!gst_tile_sender_limit_take (&peer->control.time_limit,
              TIMES_PER_SECOND, g_get_monotonic_time ())) {
        m->time.local_time = GST_CLOCK_TIME_NONE;
        return TRUE;
      }
      /* the clock is read as late as possible before the answer goes */
      m->time.remote_time = self->callbacks.clock_time ?
          self->callbacks.clock_time (self->user_data) : GST_CLOCK_TIME_NONE;
      return TRUE;
    default:
      g_set_error (err, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "unexpected %s message from the receiver",
          gst_tile_wire_type_get_name (h->type));
      return FALSE;
  }
}

/* Applies a parsed message from the receiver. Lock held. */
static void
handle_control (GstTileSenderPeer * peer, ControlMessage * m)
{
  switch (m->type) {
    case GST_TILE_WIRE_TYPE_ACK:
      handle_ack (peer, &m->ack);
      break;
    case GST_TILE_WIRE_TYPE_NACK:
      gst_tile_sender_resend_nack_locked (peer, &m->nack);
      break;
    case GST_TILE_WIRE_TYPE_STATS:
      if (!m->stats) {
        peer->control.stats_skipped++;
        break;
      }
      if (peer->receiver_stats)
        gst_structure_free (peer->receiver_stats);
      peer->receiver_stats = m->stats;
      m->stats = NULL;
      break;
    case GST_TILE_WIRE_TYPE_TIME:
      if (m->time.local_time != GST_CLOCK_TIME_NONE) {
        GByteArray *p = g_byte_array_sized_new (GST_TILE_WIRE_HEADER_SIZE +
            16);

        gst_tile_wire_time_pack (&m->time, p);
        gst_tile_sender_send_control_locked (peer, p);
        g_byte_array_unref (p);
      }
      break;
    default:
      break;
  }
}

/* Ends a peer, closes its control connection and takes it out of the
 * list; its threads are joined and it is freed by flush_notices (),
 * without the lock. Lock held. */
static void
end_control_locked (GstTileSenderPeer * peer, const gchar * why)
{
  GstTileSender *self = peer->owner.sender;

  gst_tile_sender_peer_end_locked (peer, why);
  gst_tile_sender_paths_close_locked (peer);
  gst_tile_sender_poll_remove (self, &peer->control.pfd);
  gst_tile_net_close (&peer->control.fd);
  g_ptr_array_remove (self->peers, peer);
  notice_removed_locked (self, peer);
  g_cond_broadcast (&self->cond);
}

/* The control connection failed (@err) or its receiver broke the
 * protocol (a GST_TILE_WIRE_ERROR: it is told why). Lock held. */
static void
control_failed_locked (GstTileSenderPeer * peer, GError * err)
{
  if (err->domain == GST_TILE_WIRE_ERROR && peer->control.fd >= 0 &&
      !peer->control.dead)
    refuse_control_locked (peer, err);
  end_control_locked (peer, err->message);
}

/* The control connection is readable: reads what has arrived, without
 * blocking, and handles every message that is complete, up to this pass's
 * budget (CONTROL_BUDGET_MESSAGES, CONTROL_BUDGET_BYTES): the rest waits
 * for the next pass, so that a receiver flooding its control connection
 * cannot hold the server thread from the others' handshakes, hellos and
 * keep-alives. A message in pieces is kept until the rest comes (within
 * the timeout, see server_timers ()). Messages are parsed without the lock;
 * lock not held (only this thread closes the control connection and frees
 * peers, so reading it unlocked is safe). */
static void
server_read_control (GstTileSenderPeer * peer)
{
  GstTileSender *self = peer->owner.sender;
  GstTileSenderControl *c = &peer->control;
  GByteArray *payload = c->payload;
  GError *err = NULL;
  guint messages = 0;
  gsize bytes = 0;

  while (messages < CONTROL_BUDGET_MESSAGES && bytes < CONTROL_BUDGET_BYTES) {
    gsize want = c->in_payload ? c->h.payload_len - c->have :
        GST_TILE_WIRE_HEADER_SIZE - c->have;
    ControlMessage m;
    GstTileWireHeader h;
    gssize n = 0;

    if (want > 0) {
      n = gst_tile_net_read_some (c->fd, c->in_payload ?
          payload->data + c->have : c->hdr + c->have, want);
      if (n == 0)
        return;                 /* the rest is not here yet */
    }
    if (n < 0) {
      g_set_error (&err, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
          "the receiver closed its control connection");
      break;
    }
    if (c->have == 0 && !c->in_payload)
      c->started_us = g_get_monotonic_time ();
    c->have += n;
    bytes += n;
    if (!c->in_payload) {
      if (c->have < GST_TILE_WIRE_HEADER_SIZE)
        continue;
      if (gst_tile_wire_header_parse (c->hdr, GST_TILE_WIRE_HEADER_SIZE,
              &c->h, &err) != GST_TILE_WIRE_PARSE_OK)
        break;
      g_byte_array_set_size (payload, c->h.payload_len);
      c->in_payload = TRUE;
      c->have = 0;
    }
    if (c->have < c->h.payload_len)
      continue;
    /* a whole message */
    c->in_payload = FALSE;
    c->have = 0;
    c->started_us = 0;
    messages++;
    h = c->h;
    /* sealed: a record that does not open (changed, replayed, reordered,
     * injected, or in the clear) ends the session, nothing of it used */
    if (c->records_in && !gst_tile_records_open (c->records_in, &c->h,
            payload, &h, &err))
      break;
    if (!control_parse (peer, &h, payload, &m, &err))
      break;
    g_mutex_lock (&self->lock);
    c->rx_us = g_get_monotonic_time ();
    handle_control (peer, &m);
    g_mutex_unlock (&self->lock);
    if (m.stats)
      gst_structure_free (m.stats);
  }
  if (!err)
    return;                     /* the budget is spent: next pass */

  g_mutex_lock (&self->lock);
  control_failed_locked (peer, err);
  g_mutex_unlock (&self->lock);
  g_clear_error (&err);
}

/* The peer on the host of @addr, NULL when none: a host that showed it
 * receives at its address (its control connection's TCP handshake). Lock
 * held. */
static GstTileSenderPeer *
peer_of_host_locked (GstTileSender * self,
    const struct sockaddr_storage *addr)
{
  guint i;

  for (i = 0; i < self->peers->len; i++) {
    GstTileSenderPeer *peer = g_ptr_array_index (self->peers, i);

    if (!peer->control.dead && gst_tile_sender_peer_has_host (peer, addr))
      return peer;
  }
  return NULL;
}

/* Answers a bad UNIT_HELLO datagram of @request_len bytes with a REFUSE:
 * only to the host of a receiver (the caller checks), at most
 * UDP_REFUSES_PER_SECOND, and never more than three times the bytes of
 * the request (the reason is cut to fit; too short a request gets no
 * answer). Lock held. */
static void
udp_refuse (GstTileSender * self, const struct sockaddr_storage *addr,
    socklen_t len, gsize request_len, GstTileWireRefuseCode code,
    const gchar * reason)
{
  gchar cut[GST_TILE_WIRE_MAX_REASON + 1];
  gsize room = 3 * request_len;
  GByteArray *m;

  self->totals.refused++;
  warn_remote (self, "refusing a UDP unit", gst_tile_net_refuse_code_name
      (code), reason);
  if (room < GST_TILE_WIRE_HEADER_SIZE + 6 + 1 ||
      !gst_tile_sender_limit_take (&self->server.refuse_limit,
          UDP_REFUSES_PER_SECOND, g_get_monotonic_time ()))
    return;
  g_strlcpy (cut, reason, MIN (sizeof (cut),
          room - GST_TILE_WIRE_HEADER_SIZE - 6 + 1));
  /* (not in the middle of a UTF-8 sequence) */
  g_utf8_validate (cut, -1, (const gchar **) &reason);
  cut[reason - cut] = '\0';
  m = g_byte_array_new ();
  if (cut[0] && gst_tile_wire_refuse_pack (code, cut, m, NULL))
    gst_tile_net_udp_send_from (self->server.udp_fd, m->data, m->len,
        (const struct sockaddr *) addr, len, &self->server.udp_dest);
  g_byte_array_unref (m);
}

/* Big-endian integers at any address, byte by byte (GStreamer's
 * GST_READ/WRITE macros load and store them whole, which needs alignment) */
static void
put_be (guint8 * p, guint64 v, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    p[i] = (guint8) (v >> (8 * (n - 1 - i)));
}

static guint32
get_be32 (const guint8 * p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) |
      ((guint32) p[2] << 8) | p[3];
}

/* The address-validation cookie of a unit's UNIT_HELLO from @addr at
 * @t (seconds since the start): @t and the first 16 bytes of HMAC-SHA256
 * (this start's cookie key, token || generation || unit || t || the
 * address's family, bytes and port). Only the host at @addr receives it,
 * so only it can send it back; it is stateless for us. */
static void
cookie_make (GstTileSender * self, const GstTileWireUnitHello * uh,
    const struct sockaddr_storage *addr, guint32 t,
    guint8 cookie[GST_TILE_WIRE_COOKIE_SIZE])
{
  guint8 msg[8 + 4 + 2 + 4 + 1 + 16 + 2], mac[GST_TILE_SEAL_MAC_SIZE];

  memset (msg, 0, sizeof (msg));
  put_be (msg, uh->token, 8);
  put_be (msg + 8, uh->generation, 4);
  put_be (msg + 12, uh->unit, 2);
  put_be (msg + 14, t, 4);
  msg[18] = addr->ss_family == AF_INET6 ? 6 : 4;
  if (addr->ss_family == AF_INET6) {
    const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *) addr;

    memcpy (msg + 19, &a6->sin6_addr, 16);
    memcpy (msg + 35, &a6->sin6_port, 2);
  } else {
    const struct sockaddr_in *a4 = (const struct sockaddr_in *) addr;

    memcpy (msg + 19, &a4->sin_addr, 4);
    memcpy (msg + 35, &a4->sin_port, 2);
  }
  gst_tile_seal_mac (self->crypto.cookie_key, msg, sizeof (msg), mac);
  put_be (cookie, t, 4);
  memcpy (cookie + 4, mac, GST_TILE_WIRE_COOKIE_SIZE - 4);
  gst_tile_seal_wipe (mac, sizeof (mac));
}

static guint32
cookie_now (GstTileSender * self)
{
  return (guint32) ((g_get_monotonic_time () - self->crypto.cookie_epoch_us) /
      G_USEC_PER_SEC);
}

/* Whether @uh carries a cookie we made for its unit and @addr within the
 * last COOKIE_LIFETIME_S seconds. */
static gboolean
cookie_check (GstTileSender * self, const GstTileWireUnitHello * uh,
    const struct sockaddr_storage *addr)
{
  guint8 want[GST_TILE_WIRE_COOKIE_SIZE];
  guint32 t = get_be32 (uh->cookie), now = cookie_now (self);

  if (t > now || now - t > COOKIE_LIFETIME_S)
    return FALSE;
  cookie_make (self, uh, addr, t, want);
  return gst_tile_seal_equal (want, uh->cookie, sizeof (want));
}

/* Connects a UDP socket to the unit socket at @addr and makes it unit @u's
 * (with redundant paths, when @u has one: another copy socket). Returns
 * it, -1 when it could not be made. Lock held. */
static gint
udp_connect_unit (GstTileSender * self, GstTileSenderUnit * u,
    const struct sockaddr_storage *addr, socklen_t sl)
{
  GstTileSenderPeer *peer = u->owner->peer;
  GError *err = NULL;
  gint fd;

  if (u->fd >= 0) {
    /* redundant paths: a copy socket, the same as the unit's (GSO too: the
     * same messages go out of both) */
    fd = gst_tile_net_udp_connected_from ((const struct sockaddr *) addr, sl,
        &self->server.udp_dest, &err);
    if (fd >= 0) {
      gst_tile_net_set_buffer_size (fd, TRUE,
          self->settings.send_buffer_size);
      if (u->gso && !gst_tile_net_set_gso (fd,
              GST_TILE_WIRE_DATAGRAM_OVERHEAD (self->crypto.passphrase !=
                  NULL) + self->config.packet_size)) {
        g_set_error (&err, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
            "no UDP_SEGMENT on its socket");
        gst_tile_net_close (&fd);
      }
    }
    if (fd < 0) {
      GST_WARNING_OBJECT (self->log_object, "unit %u: no socket for another "
          "path: %s", u->index, err->message);
      g_clear_error (&err);
      return -1;
    }
    memcpy (&u->copy_remote[u->n_copies], addr, sl);
    u->copy_remote_len[u->n_copies] = sl;
    u->copy_path[u->n_copies] = gst_tile_sender_peer_path_of (peer,
        &self->server.udp_dest, addr);
    u->copy_fd[u->n_copies++] = fd;
    GST_DEBUG_OBJECT (self->log_object, "receiver %u: UDP unit %u on "
        "another path (%u copies)", peer->owner.id, u->index, u->n_copies);
    return fd;
  }

  /* from the address the receiver sent its UNIT_HELLO to: its path */
  fd = gst_tile_net_udp_connected_from ((const struct sockaddr *) addr, sl,
      &self->server.udp_dest, &err);
  if (fd < 0) {
    GST_WARNING_OBJECT (self->log_object, "unit %u: %s", u->index,
        err->message);
    g_clear_error (&err);
    return -1;
  }
  self->totals.sum.granted_send_buffer =
      peer->owner.counters.granted_send_buffer =
      gst_tile_net_set_buffer_size (fd, TRUE, self->settings.send_buffer_size);
  u->gso = FALSE;
  if (self->settings.gso) {
    u->gso = gst_tile_net_set_gso (fd,
        GST_TILE_WIRE_DATAGRAM_OVERHEAD (self->crypto.passphrase != NULL) +
        self->config.packet_size);
    if (!u->gso && self->settings.gso_required) {
      notice_error_locked (self, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_SETTINGS, "This kernel has no UDP segmentation "
          "offload (UDP_SEGMENT), and gso=on",
          g_strdup ("Use gso=auto or gso=off"));
      gst_tile_net_close (&fd);
      gst_tile_sender_peer_end_locked (peer, "no UDP GSO");
      return -1;
    }
  }
  memcpy (&u->remote, addr, sl);
  u->remote_len = sl;
  u->path = gst_tile_sender_peer_path_of (peer, &self->server.udp_dest, addr);
  u->fd = fd;
  peer->owner.n_connected++;
  return fd;
}

/* The socket of unit @u that is connected to @addr (its own, or with
 * redundant paths a copy), -1 when none is. Lock held. */
static gint
udp_unit_socket_to (GstTileSenderUnit * u,
    const struct sockaddr_storage *addr, socklen_t sl)
{
  guint k;

  if (u->fd >= 0 && u->remote_len == sl &&
      gst_tile_net_same_address (&u->remote, addr))
    return u->fd;
  for (k = 0; k < u->n_copies; k++)
    if (u->copy_remote_len[k] == sl &&
        gst_tile_net_same_address (&u->copy_remote[k], addr))
      return u->copy_fd[k];
  return -1;
}

/* Checks a UNIT_HELLO datagram from @addr, a receiver's host, against
 * the peers; returns the one it is for, or refuses it (and returns NULL)
 * when it does not fit one of that host's. Lock held. */
static GstTileSenderPeer *
udp_hello_check (GstTileSender * self, const guint8 * buf, gssize n,
    const struct sockaddr_storage *addr, socklen_t sl,
    GstTileWireUnitHello * uh)
{
  GstTileSenderPeer *peer;
  GstTileWireHeader h;
  GError *err = NULL;

  if (gst_tile_wire_header_parse (buf, n, &h, &err) != GST_TILE_WIRE_PARSE_OK
      || h.type != GST_TILE_WIRE_TYPE_UNIT_HELLO
      || h.payload_len != n - GST_TILE_WIRE_HEADER_SIZE
      || !gst_tile_wire_unit_hello_parse (buf + GST_TILE_WIRE_HEADER_SIZE,
          h.payload_len, uh, &err)) {
    udp_refuse (self, addr, sl, n, GST_TILE_WIRE_REFUSE_BAD_MESSAGE,
        err ? err->message : "expected one UNIT_HELLO per datagram");
    g_clear_error (&err);
    return NULL;
  }
  peer = gst_tile_sender_peer_by_token_locked (self, uh->token);
  /* (a session's token from another host: someone who saw it on the
   * path; told no more than a wrong token) */
  if (!peer || !gst_tile_sender_peer_has_host (peer, addr)
      || !self->have_config || uh->generation != self->config.generation) {
    udp_refuse (self, addr, sl, n, GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN,
        "UNIT_HELLO for another session or generation");
    return NULL;
  }
  /* sealed: the receiver's MAC (someone who saw the token cannot claim
   * its units) */
  if (peer->control.records_in &&
      !gst_tile_keys_unit_mac_check (peer->keys.unit_c2s,
          GST_TILE_KEYS_UNIT_HELLO, uh)) {
    udp_refuse (self, addr, sl, n, GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN,
        "UNIT_HELLO for another session or generation");
    return NULL;
  }
  if (uh->unit >= self->config.n_tiles) {
    udp_refuse (self, addr, sl, n, GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT,
        "no such unit");
    return NULL;
  }
  if (!gst_tile_sender_owner_uses (&peer->owner, uh->unit)) {
    udp_refuse (self, addr, sl, n, GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT,
        "unit outside the receiver's region");
    return NULL;
  }
  return peer;
}

/* Our answer to a UNIT_HELLO: @uh (with the cookie it should carry),
 * with our MAC of its @kind (the challenge or the acceptance) when sealed,
 * from @fd (to @addr, or where @fd is
 * connected), never larger than the @request_len bytes it answers. Lock
 * held. */
static void
udp_answer (GstTileSenderPeer * peer, GstTileWireUnitHello * uh,
    GstTileKeysUnitMac kind, gint fd, const struct sockaddr_storage *addr,
    socklen_t sl, gsize request_len)
{
  GByteArray *m = g_byte_array_new ();

  memset (uh->mac, 0, sizeof (uh->mac));
  if (peer->control.records_in)
    gst_tile_keys_unit_mac (peer->keys.unit_s2c, uh, kind, uh->mac);
  gst_tile_wire_unit_hello_pack (uh, m, NULL);
  if (m->len <= request_len)
    gst_tile_net_udp_send_from (fd, m->data, m->len,
        (const struct sockaddr *) addr, addr ? sl : 0,
        fd == peer->owner.sender->server.udp_fd ?
        &peer->owner.sender->server.udp_dest : NULL);
  g_byte_array_unref (m);
}

/* protocol=udp: one UNIT_HELLO datagram (@n bytes in @buf) from @addr.
 *
 * Data goes only to an address that has shown it receives there (RFC 9000
 * section 8's address validation): the datagram must come from the host of
 * its session's control connection (which the TCP handshake validated),
 * else it is dropped unanswered; and the port is validated with a
 * stateless cookie: a UNIT_HELLO without a valid one is answered with a
 * UNIT_HELLO of the same size that carries one, from the control port;
 * the receiver sends it back, and only then is the unit connected to its
 * address and the UNIT_HELLO echoed from the unit's own socket, the one
 * that sends its datagrams. Before that nothing is sent to the address but
 * as many bytes as it sent. Lock held. */
static void
udp_hello_one (GstTileSender * self, guint8 * buf, gssize n,
    const struct sockaddr_storage *addr, socklen_t sl)
{
  GstTileSenderPeer *peer;
  GstTileWireUnitHello uh;
  GstTileSenderUnit *u;
  gint fd;

  if (!peer_of_host_locked (self, addr)) {
    self->totals.hellos_unvalidated++;
    GST_LOG_OBJECT (self->log_object, "a datagram from no receiver's host: "
        "dropped");
    return;
  }
  if (!(peer = udp_hello_check (self, buf, n, addr, sl, &uh)))
    return;
  u = &peer->owner.units[uh.unit];
  if (u->fd >= 0) {
    /* the echo got lost: again, from the unit's socket there */
    fd = udp_unit_socket_to (u, addr, sl);
    if (fd >= 0) {
      udp_answer (peer, &uh, GST_TILE_KEYS_UNIT_ACCEPT, fd, NULL, 0, n);
      return;
    }
    /* with redundant paths or striped datagrams, from another address: a
     * copy socket (its address validated the same way), one per path */
    if (!(peer->redundant || peer->striped) ||
        u->n_copies >= GST_TILE_WIRE_MAX_PATHS - 1) {
      udp_refuse (self, addr, sl, n, GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT,
          "unit is already connected");
      return;
    }
  }
  if (!cookie_check (self, &uh, addr)) {
    /* the address has not shown it receives: the cookie, in a datagram
     * the size of the request */
    self->totals.hellos_challenged++;
    cookie_make (self, &uh, addr, cookie_now (self), uh.cookie);
    udp_answer (peer, &uh, GST_TILE_KEYS_UNIT_CHALLENGE,
        self->server.udp_fd, addr, sl, n);
    return;
  }

  fd = udp_connect_unit (self, u, addr, sl);
  if (fd < 0)
    return;
  /* the echo (with the receiver's cookie) leaves from the unit's own
   * socket, connected to the receiver's: the receiver connects to where it
   * came from, and its kernel drops datagrams from anywhere else */
  udp_answer (peer, &uh, GST_TILE_KEYS_UNIT_ACCEPT, fd, NULL, 0, n);
  if (fd != u->fd)
    return;
  GST_DEBUG_OBJECT (self->log_object, "receiver %u: UDP unit %u connected "
      "(%u/%u), gso %d", peer->owner.id, uh.unit, peer->owner.n_connected,
      peer->owner.n_used, u->gso);
  if (peer->owner.n_connected == peer->owner.n_used)
    GST_INFO_OBJECT (self->log_object, "receiver %u: all %u UDP units "
        "connected, generation %u", peer->owner.id, peer->owner.n_connected,
        self->config.generation);
}

/* protocol=udp: the UNIT_HELLO datagrams that have arrived, up to
 * UDP_HELLOS_PER_PASS. Lock held. */
static void
handle_udp_hello (GstTileSender * self)
{
  guint8 buf[GST_TILE_WIRE_HEADER_SIZE + 64];
  guint i;

  for (i = 0; i < UDP_HELLOS_PER_PASS; i++) {
    struct sockaddr_storage addr;
    socklen_t sl = sizeof (addr);
    gssize n;

    /* (the address it was sent to: answers and the unit's datagrams
     * leave from it, on a host with several) */
    n = gst_tile_net_udp_recv_dest (self->server.udp_fd, buf, sizeof (buf),
        &addr, &sl, &self->server.udp_dest);
    if (n < 0)
      break;
    udp_hello_one (self, buf, n, &addr, sl);
  }
}

/* Whether @a and @b are the same source for the handshake quota: the
 * same IPv4 address, or the same IPv6 /64 (one host may have them all). */
static gboolean
same_source (const struct sockaddr_storage *a,
    const struct sockaddr_storage *b)
{
  if (a->ss_family == AF_INET6 && b->ss_family == AF_INET6 &&
      !IN6_IS_ADDR_V4MAPPED (&((const struct sockaddr_in6 *) a)->sin6_addr))
    return memcmp (&((const struct sockaddr_in6 *) a)->sin6_addr,
        &((const struct sockaddr_in6 *) b)->sin6_addr, 8) == 0;
  return gst_tile_net_same_host (a, b);
}

/* The handshake to close to make room for a new connection from @addr,
 * -1 when there is room: the oldest of @addr's host (IPv6: its /64) when
 * it has MAX_PENDING_PER_HOST already; when every slot is taken, the oldest
 * of the host with the most. A host that floods connections thus only ever
 * evicts its own, never a receiver's on another host. Lock held. */
static gint
pending_victim (GstTileSender * self, const struct sockaddr_storage *addr)
{
  const GstTileSenderPending *pending = self->server.pending;
  guint i, j, mine = 0, most = 0, n = self->server.n_pending;
  gint oldest_mine = -1, victim = -1;

  for (i = 0; i < n; i++) {
    if (same_source (&pending[i].addr, addr)) {
      mine++;
      if (oldest_mine < 0 || pending[i].deadline <
          pending[oldest_mine].deadline)
        oldest_mine = i;
    }
  }
  if (mine >= MAX_PENDING_PER_HOST)
    return oldest_mine;
  if (n < MAX_PENDING)
    return -1;
  for (i = 0; i < n; i++) {
    guint count = 0;

    for (j = 0; j < n; j++)
      count += same_source (&pending[i].addr, &pending[j].addr);
    if (count > most || (count == most && pending[i].deadline <
            pending[victim].deadline)) {
      most = count;
      victim = i;
    }
  }
  return victim;
}

/* A new connection: it has handshake_timeout ms for its first message.
 * Lock held. */
static void
server_accept (GstTileSender * self)
{
  GstTileSenderServer *sv = &self->server;
  struct sockaddr_storage addr;
  gint victim;
  GError *err = NULL;
  gint fd = gst_tile_net_accept (sv->listen_fd, &err);
  gint64 now = g_get_monotonic_time ();
  GstTileSenderPending *p;

  if (fd < 0) {
    /* no descriptors left, say: the socket stays readable, so stop
     * polling it for a while instead of spinning */
    sv->accept_failures++;
    sv->listen_pause_us = CLAMP (sv->listen_pause_us * 2, 10000,
        G_USEC_PER_SEC);
    sv->listen_pause_until = now + sv->listen_pause_us;
    gst_poll_fd_ctl_read (sv->poll, &sv->listen_pfd, FALSE);
    if (now - sv->accept_warned_us >= G_USEC_PER_SEC) {
      GST_WARNING_OBJECT (self->log_object, "%s (%u times since the last "
          "report); not accepting for %" G_GINT64_FORMAT " ms", err->message,
          sv->accept_failures, sv->listen_pause_us / 1000);
      sv->accept_warned_us = now;
      sv->accept_failures = 0;
    }
    g_clear_error (&err);
    return;
  }
  sv->listen_pause_us = 0;
  memset (&addr, 0, sizeof (addr));
  gst_tile_net_address (fd, TRUE, &addr);
  victim = pending_victim (self, &addr);
  if (victim >= 0) {
    refuse (self, sv->pending[victim].pfd.fd, GST_TILE_WIRE_REFUSE_BUSY,
        "too many connections in handshake: the oldest is closed");
    gst_tile_sender_close_pending_locked (self, victim);
  }
  p = &sv->pending[sv->n_pending++];
  p->addr = addr;
  gst_tile_sender_poll_add (self, &p->pfd, fd);
  p->have = 0;
  p->ready = FALSE;
  p->challenged = FALSE;
  p->deadline = now + (gint64) self->settings.handshake_timeout * 1000;
}

/* The listening socket is polled again once its pause is over. Lock
 * held. */
static void
server_listen_resume (GstTileSender * self, gint64 now)
{
  GstTileSenderServer *sv = &self->server;

  if (sv->listen_pause_until && now >= sv->listen_pause_until) {
    sv->listen_pause_until = 0;
    gst_poll_fd_ctl_read (sv->poll, &sv->listen_pfd, TRUE);
  }
}

/* Handshakes: only the first @n_polled were in the last wait; newest first
 * so that removal (swap with the last) does not skip any. Lock held. */
static void
server_handshakes (GstTileSender * self, guint n_polled, gint64 now)
{
  guint i;

  for (i = n_polled; i-- > 0;) {
    GstTileSenderPending *p = &self->server.pending[i];

    if (p->ready && !pending_read (self, p)) {
      gst_tile_sender_close_pending_locked (self, i);
    } else if (now > p->deadline) {
      refuse (self, p->pfd.fd, GST_TILE_WIRE_REFUSE_BAD_MESSAGE,
          "no complete first message within the handshake timeout");
      gst_tile_sender_close_pending_locked (self, i);
    }
  }
}

/* A receiver that says nothing (a client that sent HELLO and no more, a
 * host gone without FIN or RST), or that drips a message a byte at a time,
 * must not hold its peer. Lock held. */
static void
peer_liveness_locked (GstTileSenderPeer * peer, gint64 now)
{
  GstTileSender *self = peer->owner.sender;
  gint64 limit = (gint64) self->settings.timeout * 1000;
  gchar *why = NULL;

  /* redundant paths, balanced tiles: the session lives while another path
   * hears from the receiver (its control connection's path failed: TCP
   * holds what goes over it until the path comes back) */
  if (gst_tile_sender_peer_holds_paths (peer) &&
      now - gst_tile_sender_peer_paths_heard_locked (peer) <= limit)
    return;
  if (peer->control.started_us && now - peer->control.started_us > limit)
    why = g_strdup_printf ("a control message from the receiver took "
        "more than %u ms to arrive", self->settings.timeout);
  else if (now - peer->control.rx_us > limit)
    why = g_strdup_printf ("the receiver sent nothing for %u ms",
        self->settings.timeout);
  if (why) {
    GST_WARNING_OBJECT (self->log_object, "receiver %u (%s): %s: ending its "
        "session", peer->owner.id, peer->address, why);
    end_control_locked (peer, why);
    g_free (why);
  }
}

/* Liveness, keep-alives and the stats callback, when due. Lock held;
 * released around the callback. */
static void
server_timers (GstTileSender * self, ServerState * st, gint64 now)
{
  gboolean keepalive = now - st->last_keepalive > KEEPALIVE_INTERVAL_MS * 1000;
  GByteArray *p = NULL;
  guint interval, i;

  for (i = self->peers->len; i-- > 0;)
    peer_liveness_locked (g_ptr_array_index (self->peers, i), now);
  if (keepalive) {
    p = g_byte_array_new ();
    gst_tile_wire_keepalive_pack (g_get_monotonic_time () * 1000, p);
    for (i = 0; i < self->peers->len; i++)
      gst_tile_sender_send_control_locked (g_ptr_array_index (self->peers,
              i), p);
    g_byte_array_unref (p);
    st->last_keepalive = now;
  }
  interval = g_atomic_int_get (&self->settings.stats_interval);
  if (interval > 0 && now - st->last_stats >= (gint64) interval * 1000) {
    st->last_stats = now;
    g_mutex_unlock (&self->lock);
    if (self->callbacks.post_stats)
      self->callbacks.post_stats (self->user_data,
          gst_tile_sender_get_stats (self));
    g_mutex_lock (&self->lock);
  }
}

/* Waits for the descriptors, then notes which are ready. Returns the
 * number of pending connections that were waited on. Lock held on entry
 * and on return, released during the wait. */
static guint
server_wait (GstTileSender * self, gboolean * listen, gboolean * udp)
{
  GstTileSenderServer *sv = &self->server;
  gint timeout = KEEPALIVE_INTERVAL_MS, res;
  guint interval, i;

  interval = g_atomic_int_get (&self->settings.stats_interval);
  if (interval > 0)
    timeout = MIN (timeout, (gint) MIN (interval, G_MAXINT));
  if (sv->listen_pause_until)
    timeout = CLAMP ((sv->listen_pause_until - g_get_monotonic_time ()) /
        1000 + 1, 1, timeout);
  g_mutex_unlock (&self->lock);

  res = gst_poll_wait (sv->poll, MIN (timeout, WAIT_MAX_MS) * GST_MSECOND);
  if (res < 0 && errno != EINTR && errno != EBUSY) {
    GST_ERROR_OBJECT (self->log_object, "poll: %s", g_strerror (errno));
    g_usleep (10000);
  }

  g_mutex_lock (&self->lock);
  /* after a failed wait the results are those of an older one */
  for (i = 0; i < self->peers->len; i++) {
    GstTileSenderPeer *peer = g_ptr_array_index (self->peers, i);

    peer->control.ready = res > 0 && poll_ready (self, &peer->control.pfd);
  }
  *listen = res > 0 && gst_poll_fd_can_read (sv->poll, &sv->listen_pfd);
  *udp = res > 0 && sv->udp_pfd.fd >= 0 &&
      gst_poll_fd_can_read (sv->poll, &sv->udp_pfd);
  for (i = 0; i < sv->n_pending; i++)
    sv->pending[i].ready = res > 0 && poll_ready (self, &sv->pending[i].pfd);
  gst_tile_sender_paths_note_ready_locked (self, res > 0);
  return sv->n_pending;
}

/* Reads the control connections the last wait found ready. Lock held;
 * released for the reads (peers only leave the list in this thread, and
 * are freed after this). */
static void
server_read_controls (GstTileSender * self)
{
  GstTileSenderPeer *ready[64];
  guint i, n = 0, len = self->peers->len;

  /* from where the last pass stopped, so that with more than 64 readable
   * every receiver gets its turn */
  for (i = 0; i < len && n < G_N_ELEMENTS (ready); i++) {
    GstTileSenderPeer *peer = g_ptr_array_index (self->peers,
        (self->server.read_start + i) % len);

    if (peer->control.ready) {
      peer->control.ready = FALSE;
      ready[n++] = peer;
    }
  }
  self->server.read_start = len ? (self->server.read_start + i) % len : 0;
  g_mutex_unlock (&self->lock);
  for (i = 0; i < n; i++)
    server_read_control (ready[i]);
  g_mutex_lock (&self->lock);
}

gpointer
gst_tile_sender_server_thread (gpointer data)
{
  GstTileSender *self = data;
  ServerState st;

  st.last_keepalive = st.last_stats = g_get_monotonic_time ();

  g_mutex_lock (&self->lock);
  gst_tile_sender_poll_add (self, &self->server.listen_pfd, self->server.listen_fd);
  gst_tile_sender_poll_add (self, &self->server.udp_pfd, self->server.udp_fd);
  while (self->running) {
    gboolean listen, udp;
    guint n_polled = server_wait (self, &listen, &udp);
    gint64 now;

    server_read_controls (self);
    if (!self->running)
      break;
    if (udp)
      handle_udp_hello (self);
    if (listen)
      server_accept (self);
    now = g_get_monotonic_time ();
    server_listen_resume (self, now);
    server_handshakes (self, n_polled, now);
    gst_tile_sender_paths_service_locked (self, now);
    server_timers (self, &st, now);

    g_mutex_unlock (&self->lock);
    flush_notices (self);
    g_mutex_lock (&self->lock);
  }
  g_mutex_unlock (&self->lock);
  flush_notices (self);
  return NULL;
}
