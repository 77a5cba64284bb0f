/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* A peer's other network paths (tilesrc's `host` with several addresses):
 * each is a TCP connection from the receiver to our control port whose
 * first message is PATH, with the session's token (and with a passphrase,
 * the receiver's MAC). Its TCP handshake shows that the receiver receives
 * at that address, so its host may then connect units and introduce UDP
 * unit sockets as the control connection's host may (the units are spread
 * over the paths). Afterwards only KEEPALIVEs travel on it, both ways, so
 * that each side knows whether the path is up. The server thread owns
 * them. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilesender-private.h"

#include <string.h>

/* Whether @addr is the host of @peer's control connection or of one of its
 * paths: a host that showed it receives there. Lock held. */
gboolean
gst_tile_sender_peer_has_host (GstTileSenderPeer * peer,
    const struct sockaddr_storage *addr)
{
  return gst_tile_sender_peer_path_of (peer, NULL, addr) <
      GST_TILE_WIRE_MAX_PATHS;
}

/* The paths @peer's session has up: its control connection's, and those
 * it introduced with PATH. Lock held. */
guint
gst_tile_sender_peer_paths_locked (GstTileSenderPeer * peer)
{
  guint i, n = 1;

  for (i = 1; i < GST_TILE_WIRE_MAX_PATHS; i++)
    n += peer->paths[i].fd >= 0;
  return n;
}

/* Whether @peer's session holds on to a path that fails while another
 * carries it: with redundant paths (every datagram over each) and with
 * balanced tiles (the rows move to the other paths). Lock held. */
gboolean
gst_tile_sender_peer_holds_paths (GstTileSenderPeer * peer)
{
  return peer->redundant || peer->balanced || peer->striped;
}

/* The path (its number on the wire: 0 for the control connection's, else
 * its PATH's index) of a unit socket of @peer's whose UNIT_HELLO came to
 * our address @local (NULL or family 0: not known) from @remote: the path whose
 * connection reaches that address of ours, or comes from that host;
 * GST_TILE_WIRE_MAX_PATHS when none does. Lock held. */
guint
gst_tile_sender_peer_path_of (GstTileSenderPeer * peer,
    const struct sockaddr_storage *local,
    const struct sockaddr_storage *remote)
{
  guint i;

  if (local && local->ss_family != 0) {
    if (gst_tile_net_same_host (local, &peer->local))
      return 0;
    for (i = 1; i < GST_TILE_WIRE_MAX_PATHS; i++)
      if (peer->paths[i].fd >= 0 &&
          gst_tile_net_same_host (local, &peer->paths[i].local))
        return i;
  }
  if (gst_tile_net_same_host (remote, &peer->host))
    return 0;
  for (i = 1; i < GST_TILE_WIRE_MAX_PATHS; i++)
    if (peer->paths[i].fd >= 0 &&
        gst_tile_net_same_host (remote, &peer->paths[i].host))
      return i;
  return GST_TILE_WIRE_MAX_PATHS;
}

/* Striped datagrams: @sc gets @u's sockets (its own first, then its
 * copies), and the share of its datagrams each takes: its path's share
 * (learnt from the receiver's feedback, gst_tile_balance_stripe ()) over
 * those of @u's paths, equal shares until each of them has one. Lock
 * held. */
void
gst_tile_sender_peer_stripe_locked (GstTileSenderPeer * peer,
    GstTileSenderUnit * u, GstTileSenderScratch * sc)
{
  GstTileSenderFlow *f = &peer->flow;
  gdouble w[GST_TILE_WIRE_MAX_PATHS], sum = 0;
  gboolean known = TRUE;
  guint k, n = 0;

  sc->stripe = FALSE;
  if (u->fd < 0 || u->n_copies == 0)
    return;
  sc->stripe_fd[n] = u->fd;
  sc->stripe_path[n++] = u->path;
  for (k = 0; k < u->n_copies; k++) {
    sc->stripe_fd[n] = u->copy_fd[k];
    sc->stripe_path[n++] = u->copy_path[k];
  }
  for (k = 0; k < n; k++) {
    guint p = sc->stripe_path[k];

    w[k] = 0;
    if (p >= GST_TILE_WIRE_MAX_PATHS || !(f->stripe.have & (1u << p)))
      known = FALSE;
    else
      w[k] = f->stripe.weight[p];
    sum += w[k];
  }
  if (n != sc->n_stripes)
    memset (sc->stripe_credit, 0, sizeof (sc->stripe_credit));
  sc->n_stripes = n;
  for (k = 0; k < n; k++)
    sc->stripe_weight[k] = known && sum > 0 ? w[k] / sum : 1.0 / n;
  sc->stripe = TRUE;
}

/* How long what @peer's control, path and data connections send may stay
 * unacknowledged before the kernel fails them (TCP_USER_TIMEOUT), ms: the
 * timeout; when the session holds its paths
 * (gst_tile_sender_peer_holds_paths ()) a minute at least, so that a path
 * whose link is down is held until it comes back while another carries
 * the session (a receiver that vanished still ends it after the timeout,
 * see peer_liveness_locked ()). Lock held. */
guint
gst_tile_sender_peer_user_timeout (GstTileSenderPeer * peer)
{
  guint t = peer->owner.sender->settings.timeout;

  return gst_tile_sender_peer_holds_paths (peer) ? MAX (t, 60000) : t;
}

/* When @peer's paths other than the control connection's last heard from
 * the receiver (0: none up). Lock held. */
gint64
gst_tile_sender_peer_paths_heard_locked (GstTileSenderPeer * peer)
{
  gint64 last = 0;
  guint i;

  for (i = 1; i < GST_TILE_WIRE_MAX_PATHS; i++)
    if (peer->paths[i].fd >= 0)
      last = MAX (last, peer->paths[i].rx_us);
  return last;
}

/* Closes path @i of @peer. Lock held, server thread. */
static void
path_close (GstTileSenderPeer * peer, guint i, const gchar * why)
{
  GstTileSender *self = peer->owner.sender;
  GstTileSenderPath *path = &peer->paths[i];

  if (path->fd < 0)
    return;
  GST_INFO_OBJECT (self->log_object, "receiver %u: path %u closed: %s",
      peer->owner.id, i, why);
  gst_tile_sender_poll_remove (self, &path->pfd);
  gst_tile_net_close (&path->fd);
  path->have = 0;
}

/* Every path of @peer closed (its session ends). Lock held, server
 * thread, or the sender stopped. */
void
gst_tile_sender_paths_close_locked (GstTileSenderPeer * peer)
{
  guint i;

  for (i = 0; i < GST_TILE_WIRE_MAX_PATHS; i++)
    path_close (peer, i, "the session ended");
}

/* Marks no path of @peer: a new peer. */
void
gst_tile_sender_paths_init (GstTileSenderPeer * peer)
{
  guint i;

  for (i = 0; i < GST_TILE_WIRE_MAX_PATHS; i++) {
    peer->paths[i].fd = -1;
    gst_poll_fd_init (&peer->paths[i].pfd);
  }
}

/* PATH on a new connection (@payload, @len): checked like a UNIT_HELLO
 * (the session's token, its receiver's MAC with a passphrase), then @fd
 * becomes that path of the session, answered with the PATH back (our MAC
 * with a passphrase). Returns FALSE with @reason and @code set when it is
 * refused (the caller refuses and closes @fd); takes @fd over otherwise.
 * Lock held. */
gboolean
gst_tile_sender_path_hello_locked (GstTileSender * self, gint fd,
    const guint8 * payload, guint32 len, GstTileWireRefuseCode * code,
    gchar ** reason)
{
  GstTileSenderPeer *peer = NULL;
  GstTileSenderPath *path;
  GstTileWireUnitHello ph;
  GError *err = NULL;
  GByteArray *answer;

  *code = GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN;
  if (!gst_tile_wire_path_parse (payload, len, &ph, &err)) {
    *code = GST_TILE_WIRE_REFUSE_BAD_MESSAGE;
    *reason = g_strdup (err->message);
    g_clear_error (&err);
    return FALSE;
  }
  peer = gst_tile_sender_peer_by_token_locked (self, ph.token);
  /* (the tokens of the others are not told) */
  if (!peer) {
    *reason = g_strdup ("PATH for no current session");
    return FALSE;
  }
  if (peer->control.records_in && !gst_tile_keys_unit_mac_check
      (peer->keys.unit_c2s, GST_TILE_KEYS_PATH_HELLO, &ph)) {
    *reason = g_strdup ("PATH failed its authentication");
    return FALSE;
  }
  if (peer->group) {
    *code = GST_TILE_WIRE_REFUSE_OTHER;
    *reason = g_strdup ("a member of a multicast group has one path");
    return FALSE;
  }
  if (ph.unit == 0 || peer->paths[ph.unit].fd >= 0) {
    *code = GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT;
    *reason = g_strdup_printf ("path %u %s", ph.unit, ph.unit == 0 ?
        "is the control connection's" : "is already connected");
    return FALSE;
  }
  path = &peer->paths[ph.unit];
  memset (&path->host, 0, sizeof (path->host));
  gst_tile_net_address (fd, TRUE, &path->host);
  memset (&path->local, 0, sizeof (path->local));
  gst_tile_net_address (fd, FALSE, &path->local);
  path->fd = fd;
  path->have = 0;
  path->rx_us = path->tx_us = g_get_monotonic_time ();
  gst_tile_net_set_user_timeout (fd, gst_tile_sender_peer_user_timeout (peer));
  gst_tile_sender_poll_add (self, &path->pfd, fd);

  memset (ph.mac, 0, sizeof (ph.mac));
  if (peer->control.records_in)
    gst_tile_keys_unit_mac (peer->keys.unit_s2c, &ph,
        GST_TILE_KEYS_PATH_ACCEPT, ph.mac);
  answer = g_byte_array_new ();
  gst_tile_wire_path_pack (&ph, answer, NULL);
  if (!gst_tile_net_send_now (fd, answer->data, answer->len, &err)) {
    path_close (peer, ph.unit, err->message);
    g_clear_error (&err);
  } else {
    gchar *where = gst_tile_net_peer_string (fd);

    GST_INFO_OBJECT (self->log_object, "receiver %u: path %u up, from %s",
        peer->owner.id, ph.unit, where);
    g_free (where);
  }
  g_byte_array_unref (answer);
  return TRUE;
}

/* Reads path @i of @peer: KEEPALIVEs only (anything else, or its end,
 * closes the path; never the session). Lock held. */
static void
path_read (GstTileSenderPeer * peer, guint i, gint64 now)
{
  GstTileSenderPath *path = &peer->paths[i];
  guint messages;

  for (messages = 0; messages < 16; messages++) {
    GstTileWireHeader h;
    GError *err = NULL;
    gsize want = GST_TILE_WIRE_HEADER_SIZE + 8 - path->have;
    gssize n = gst_tile_net_read_some (path->fd, path->buf + path->have,
        want);
    guint64 t;

    if (n == 0)
      return;
    if (n < 0) {
      path_close (peer, i, "the receiver closed it");
      return;
    }
    path->have += n;
    if (path->have < GST_TILE_WIRE_HEADER_SIZE + 8)
      continue;
    path->have = 0;
    if (gst_tile_wire_header_parse (path->buf, GST_TILE_WIRE_HEADER_SIZE,
            &h, &err) != GST_TILE_WIRE_PARSE_OK ||
        h.type != GST_TILE_WIRE_TYPE_KEEPALIVE ||
        !gst_tile_wire_keepalive_parse (path->buf + GST_TILE_WIRE_HEADER_SIZE,
            h.payload_len, &t, &err)) {
      gchar *why = g_strdup_printf ("%s", err ? err->message :
          "a path carries KEEPALIVEs only");

      g_clear_error (&err);
      path_close (peer, i, why);
      g_free (why);
      return;
    }
    path->rx_us = now;
  }
}

/* After a wait: notes which paths it found ready (@polled: it returned
 * events). Lock held, server thread. */
void
gst_tile_sender_paths_note_ready_locked (GstTileSender * self, gboolean polled)
{
  guint i, j;

  for (i = 0; i < self->peers->len; i++) {
    GstTileSenderPeer *peer = g_ptr_array_index (self->peers, i);

    for (j = 1; j < GST_TILE_WIRE_MAX_PATHS; j++) {
      GstTileSenderPath *path = &peer->paths[j];

      path->ready = polled && path->fd >= 0 &&
          (gst_poll_fd_can_read (self->server.poll, &path->pfd) ||
          gst_poll_fd_has_closed (self->server.poll, &path->pfd) ||
          gst_poll_fd_has_error (self->server.poll, &path->pfd));
    }
  }
}

/* Then: reads the paths it found ready, and every path's
 * liveness (nothing heard for the timeout closes it) and keep-alive.
 * Lock held, server thread. */
void
gst_tile_sender_paths_service_locked (GstTileSender * self, gint64 now)
{
  gint64 limit = (gint64) self->settings.timeout * 1000;
  GByteArray *ka = NULL;
  guint i, j;

  for (i = 0; i < self->peers->len; i++) {
    GstTileSenderPeer *peer = g_ptr_array_index (self->peers, i);

    for (j = 1; j < GST_TILE_WIRE_MAX_PATHS; j++) {
      GstTileSenderPath *path = &peer->paths[j];

      if (path->fd < 0)
        continue;
      if (path->ready)
        path_read (peer, j, now);
      path->ready = FALSE;
      if (path->fd < 0)
        continue;
      /* (redundant paths, balanced tiles: a path silent because its link
       * failed is kept, TCP takes it up again when the link comes back,
       * and the session needs it then; see peer_liveness_locked ()) */
      if (!gst_tile_sender_peer_holds_paths (peer) &&
          now - path->rx_us > limit) {
        gchar *why = g_strdup_printf ("nothing heard on it for %u ms",
            self->settings.timeout);

        path_close (peer, j, why);
        g_free (why);
        continue;
      }
      if (now - path->tx_us >= KEEPALIVE_INTERVAL_MS * 1000) {
        if (!ka) {
          ka = g_byte_array_new ();
          gst_tile_wire_keepalive_pack (now * 1000, ka);
        }
        path->tx_us = now;
        /* a full send buffer: the path is not moving; its liveness will
         * tell */
        gst_tile_net_send_now (path->fd, ka->data, ka->len, NULL);
      }
    }
  }
  if (ka)
    g_byte_array_unref (ka);
}
