/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The network paths of a session (tilesrc's `host` with several addresses
 * of the sender, tilepaths.c parses them): the control connection goes to
 * the first that answers; every other is introduced with a PATH connection
 * (the session's token, our MAC with a passphrase; the sender answers with
 * its own), which shows the sender that we receive at that address, so
 * that our units may connect from it; then the units are dealt out over
 * the paths up. KEEPALIVEs go both ways on each PATH connection. The
 * control thread owns the connections; the units read where they go under
 * the lock. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilereceiver-private.h"
#include "tilepaths.h"

#include <netdb.h>
#include <string.h>

/* the longest a path's connection may take (an unreachable path must not
 * hold the session, nor stop(), for the whole timeout) */
#define PATH_CONNECT_MS 2000

/* Parses settings.host into the paths (none up yet). FALSE with @error set
 * when the list is not usable. Control thread, before it connects. */
gboolean
gst_tile_receiver_paths_parse (GstTileReceiver * self, GError ** error)
{
  GstTileReceiverPaths *ps = &self->paths;
  gchar **hosts = gst_tile_paths_parse (self->settings.host, error);
  guint i;

  if (!hosts)
    return FALSE;
  if (!gst_tile_paths_check_addresses (hosts, error)) {
    g_strfreev (hosts);
    return FALSE;
  }
  if (self->settings.redundant && g_strv_length (hosts) < 2) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "redundant=true needs two addresses or more in host (one per "
        "path), not \"%s\"", self->settings.host);
    g_strfreev (hosts);
    return FALSE;
  }
  g_strfreev (ps->hosts);
  ps->hosts = hosts;
  ps->n_hosts = g_strv_length (hosts);
  for (i = 0; i < GST_TILE_WIRE_MAX_PATHS; i++)
    ps->path[i].fd = -1;
  ps->n_up = 0;
  return TRUE;
}

/* Connects the control connection to the first host that answers, and
 * notes it as the session's first path. Returns the descriptor, -1 with
 * @error set (the last host's reason) when none does. Control thread. */
gint
gst_tile_receiver_paths_connect_control (GstTileReceiver * self,
    guint timeout, GError ** error)
{
  GstTileReceiverPaths *ps = &self->paths;
  guint i;

  for (i = 0; i < ps->n_hosts; i++) {
    GError *err = NULL;
    gint fd = gst_tile_net_connect (ps->hosts[i], self->settings.port,
        ps->n_hosts > 1 ? MIN (timeout, PATH_CONNECT_MS) : timeout, 0, NULL,
        &err);

    if (fd >= 0) {
      ps->control = i;
      return fd;
    }
    if (i + 1 < ps->n_hosts) {
      GST_WARNING_OBJECT (self->log_object, "path %u (%s) does not answer: "
          "%s; trying the next", i, ps->hosts[i], err->message);
      g_clear_error (&err);
    } else {
      g_propagate_error (error, err);
    }
  }
  return -1;
}

/* The sender's address on @fd, with the port of its control port; its
 * length, 0 when it has none. */
static guint
sender_address (gint fd, struct sockaddr_storage *addr)
{
  memset (addr, 0, sizeof (*addr));
  return gst_tile_net_address (fd, TRUE, addr);
}

/* Introduces path @i over its own connection: PATH with the session's
 * token, and the sender's PATH back. Returns the connection, -1 with
 * @error set. Control thread. */
static gint
path_open (GstTileReceiver * self, guint i, const GstTileWireConfig * config,
    guint timeout, GError ** error)
{
  GstTileWireUnitHello ph = { 0 }, back;
  GstTileWireHeader h;
  GByteArray *p;
  gboolean sealed = self->settings.passphrase != NULL;
  gint fd;

  fd = gst_tile_net_connect (self->paths.hosts[i], self->settings.port,
      MIN (timeout, PATH_CONNECT_MS), 0, NULL, error);
  if (fd < 0)
    return -1;
  ph.token = config->token;
  ph.generation = config->generation;
  ph.unit = i;
  if (sealed)
    gst_tile_keys_unit_mac (self->keys.unit_c2s, &ph,
        GST_TILE_KEYS_PATH_HELLO, ph.mac);
  p = g_byte_array_new ();
  if (!gst_tile_wire_path_pack (&ph, p, error) ||
      !gst_tile_net_send_packed (fd, p, error) ||
      !gst_tile_net_read_message (fd, MIN (timeout, PATH_CONNECT_MS), &h, p,
          error))
    goto fail;
  if (h.type == GST_TILE_WIRE_TYPE_REFUSE) {
    GstTileWireRefuse refuse;

    if (gst_tile_wire_refuse_parse (p->data, p->len, &refuse, error))
      gst_tile_receiver_refuse_error (error, &refuse, "refused the path");
    goto fail;
  }
  if (h.type != GST_TILE_WIRE_TYPE_PATH ||
      !gst_tile_wire_path_parse (p->data, p->len, &back, error))
    goto bad;
  if (back.token != ph.token || back.unit != ph.unit ||
      (sealed && !gst_tile_keys_unit_mac_check (self->keys.unit_s2c,
              GST_TILE_KEYS_PATH_ACCEPT, &back)))
    goto bad;
  g_byte_array_unref (p);
  return fd;

bad:
  if (error && !*error)
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "the sender's answer to PATH %u is not its acceptance", i);
fail:
  g_byte_array_unref (p);
  gst_tile_net_close (&fd);
  return -1;
}

/* Once the control connection (@control_fd) has its first CONFIG: opens
 * every other path (one that fails, or reaches the same address of the
 * sender as a path up, is skipped with a warning), then publishes the
 * paths up, the control connection's first, for the units. Control
 * thread, lock not held. */
void
gst_tile_receiver_paths_open (GstTileReceiver * self, gint control_fd,
    const GstTileWireConfig * config, guint timeout)
{
  GstTileReceiverPaths *ps = &self->paths;
  GstTileReceiverPath *c = &ps->path[ps->control];
  guint up[GST_TILE_WIRE_MAX_PATHS], n_up = 0, i, j;
  gint64 now = g_get_monotonic_time ();

  c->fd = control_fd;
  c->server_len = sender_address (control_fd, &c->server);
  up[n_up++] = ps->control;
  for (i = 0; i < ps->n_hosts; i++) {
    GstTileReceiverPath *path = &ps->path[i];
    GError *err = NULL;
    gboolean same = FALSE;

    if (i == ps->control)
      continue;
    path->fd = path_open (self, i, config, timeout, &err);
    if (path->fd < 0) {
      GST_WARNING_OBJECT (self->log_object, "path %u (%s) skipped: %s", i,
          ps->hosts[i], err->message);
      g_clear_error (&err);
      continue;
    }
    path->server_len = sender_address (path->fd, &path->server);
    for (j = 0; j < n_up && !same; j++)
      same = gst_tile_net_same_host (&path->server, &ps->path[up[j]].server);
    if (same) {
      GST_WARNING_OBJECT (self->log_object, "path %u (%s) skipped: it "
          "reaches the same address of the sender as path %u (%s)", i,
          ps->hosts[i], up[j - 1], ps->hosts[up[j - 1]]);
      gst_tile_net_close (&path->fd);
      continue;
    }
    path->rx_us = path->tx_us = now;
    path->have = 0;
    up[n_up++] = i;
    GST_INFO_OBJECT (self->log_object, "path %u (%s) up", i, ps->hosts[i]);
  }
  g_mutex_lock (&self->lock);
  memcpy (ps->up, up, sizeof (up));
  ps->n_up = n_up;
  g_mutex_unlock (&self->lock);
}

/* Closes the paths but the control connection's (the session ended).
 * Control thread, lock not held. */
void
gst_tile_receiver_paths_close (GstTileReceiver * self)
{
  GstTileReceiverPaths *ps = &self->paths;
  guint i;

  g_mutex_lock (&self->lock);
  ps->n_up = 0;
  g_mutex_unlock (&self->lock);
  for (i = 0; i < GST_TILE_WIRE_MAX_PATHS; i++) {
    if (i != ps->control)
      gst_tile_net_close (&ps->path[i].fd);
    ps->path[i].fd = -1;
  }
}

/* Path @i lost: closed, and no longer dealt units. Control thread. */
static void
path_lost (GstTileReceiver * self, guint i, const gchar * why)
{
  GstTileReceiverPaths *ps = &self->paths;
  guint j, k = 0;

  GST_WARNING_OBJECT (self->log_object, "path %u (%s) lost: %s", i,
      ps->hosts[i], why);
  gst_tile_net_close (&ps->path[i].fd);
  g_mutex_lock (&self->lock);
  for (j = 0; j < ps->n_up; j++)
    if (ps->up[j] != i)
      ps->up[k++] = ps->up[j];
  ps->n_up = k;
  g_mutex_unlock (&self->lock);
}

/* Reads what the sender sent on path @i (KEEPALIVEs only) without
 * blocking. Control thread. */
static void
path_read (GstTileReceiver * self, guint i, gint64 now)
{
  GstTileReceiverPath *path = &self->paths.path[i];

  while (path->fd >= 0) {
    gsize want = sizeof (path->buf) - path->have;
    gssize n = gst_tile_net_read_some (path->fd, path->buf + path->have,
        want);
    GstTileWireHeader h;
    guint64 t;

    if (n == 0)
      return;
    if (n < 0) {
      path_lost (self, i, "the sender closed its connection");
      return;
    }
    path->have += n;
    if (path->have < sizeof (path->buf))
      continue;
    path->have = 0;
    if (gst_tile_wire_header_parse (path->buf, GST_TILE_WIRE_HEADER_SIZE,
            &h, NULL) != GST_TILE_WIRE_PARSE_OK ||
        h.type != GST_TILE_WIRE_TYPE_KEEPALIVE ||
        !gst_tile_wire_keepalive_parse (path->buf + GST_TILE_WIRE_HEADER_SIZE,
            h.payload_len, &t, NULL)) {
      path_lost (self, i, "it carried something else than KEEPALIVE");
      return;
    }
    path->rx_us = now;
  }
}

/* The paths' keep-alives out and in: called by the control thread's
 * loop; a path silent for @timeout ms is lost. */
void
gst_tile_receiver_paths_service (GstTileReceiver * self, guint timeout,
    gint64 now, gint64 keepalive_us)
{
  GstTileReceiverPaths *ps = &self->paths;
  GByteArray *ka = NULL;
  guint i;

  for (i = 0; i < ps->n_hosts; i++) {
    GstTileReceiverPath *path = &ps->path[i];

    if (i == ps->control || path->fd < 0)
      continue;
    path_read (self, i, now);
    if (path->fd < 0)
      continue;
    /* (redundant paths, balanced tiles: kept while silent, see the
     * sender's) */
    if (!gst_tile_receiver_holds_paths (self) &&
        now - path->rx_us > (gint64) timeout * 1000) {
      path_lost (self, i, "nothing heard on it within the timeout");
      continue;
    }
    if (now - path->tx_us >= keepalive_us) {
      if (!ka) {
        ka = g_byte_array_new ();
        gst_tile_wire_keepalive_pack (now * 1000, ka);
      }
      path->tx_us = now;
      gst_tile_net_send_now (path->fd, ka->data, ka->len, NULL);
    }
  }
  if (ka)
    g_byte_array_unref (ka);
}

/* Where unit @unit connects: the sender's address on its path (the units
 * are dealt out in turn over the paths up; one path: the control
 * connection's), in @addr; returns its length. Lock held. */
guint
gst_tile_receiver_paths_unit_server_locked (GstTileReceiver * self,
    guint unit, struct sockaddr_storage *addr)
{
  GstTileReceiverPaths *ps = &self->paths;

  if (ps->n_up <= 1)
    return gst_tile_receiver_control_peer_locked (self, addr);
  memcpy (addr, &ps->path[ps->up[unit % ps->n_up]].server, sizeof (*addr));
  return ps->path[ps->up[unit % ps->n_up]].server_len;
}

/* Whether the session holds on to a path that fails while another carries
 * it: with redundant paths (every datagram over each), balanced tiles (the
 * sender moves the rows to the other paths) and striped datagrams (the
 * sender stripes over the others). Fixed per session. */
gboolean
gst_tile_receiver_holds_paths (GstTileReceiver * self)
{
  return self->redundant || self->balance || self->stripe;
}

/* How long a TCP unit waits for the rest of a tile it started, ms: the
 * timeout; when the session holds its paths, a minute at least (a unit
 * whose path failed inside a tile gets the rest once the path is back). */
guint
gst_tile_receiver_data_timeout (GstTileReceiver * self)
{
  guint t = self->settings.timeout;

  return gst_tile_receiver_holds_paths (self) ? MAX (t, 60000) : t;
}

/* When the paths other than the control connection's last heard from the
 * sender (0: none up): when the session holds its paths, it lives while
 * one does. Control thread. */
gint64
gst_tile_receiver_paths_heard (GstTileReceiver * self)
{
  GstTileReceiverPaths *ps = &self->paths;
  gint64 last = 0;
  guint i;

  for (i = 0; i < ps->n_hosts && i < GST_TILE_WIRE_MAX_PATHS; i++)
    if (i != ps->control && ps->path[i].fd >= 0)
      last = MAX (last, ps->path[i].rx_us);
  return last;
}

/* Path @i's number on the wire (the ACK's feedback per path): 0 for the
 * control connection's, else the index its PATH connection gave (no PATH
 * has 0: the sender refuses it). */
static guint
path_wire_index (GstTileReceiverPaths * ps, guint i)
{
  return i == ps->control ? 0 : i;
}

/* Where unit @unit's sockets go: its path's server first (as above), and
 * with redundant paths or striped datagrams every other path up's after
 * it, in @addrs, their lengths in @lens and their numbers on the wire in
 * @paths (GST_TILE_WIRE_MAX_PATHS room each); returns how many. Lock
 * held. */
guint
gst_tile_receiver_paths_unit_servers_locked (GstTileReceiver * self,
    guint unit, struct sockaddr_storage *addrs, guint * lens, guint * paths)
{
  GstTileReceiverPaths *ps = &self->paths;
  guint j;

  if (!(self->redundant || self->stripe) || ps->n_up <= 1) {
    lens[0] = gst_tile_receiver_paths_unit_server_locked (self, unit, addrs);
    paths[0] = ps->n_up ? path_wire_index (ps, ps->up[unit % ps->n_up]) : 0;
    return 1;
  }
  for (j = 0; j < ps->n_up; j++) {
    guint i = ps->up[(unit + j) % ps->n_up];
    GstTileReceiverPath *path = &ps->path[i];

    memcpy (&addrs[j], &path->server, sizeof (addrs[j]));
    lens[j] = path->server_len;
    paths[j] = path_wire_index (ps, i);
  }
  return ps->n_up;
}

/* The same as a numeric host for connect(), in @buf (@size bytes).
 * Lock held. */
const gchar *
gst_tile_receiver_paths_unit_host_locked (GstTileReceiver * self,
    guint unit, gchar * buf, gsize size)
{
  struct sockaddr_storage addr;
  guint len;

  if (self->paths.n_up <= 1)
    return self->paths.n_hosts ? self->paths.hosts[self->paths.control] :
        self->settings.host;
  len = gst_tile_receiver_paths_unit_server_locked (self, unit, &addr);
  if (getnameinfo ((struct sockaddr *) &addr, len, buf, size, NULL, 0,
          NI_NUMERICHOST) != 0)
    return self->paths.hosts[self->paths.control];
  return buf;
}

/* Frees what parse() made. */
void
gst_tile_receiver_paths_clear (GstTileReceiver * self)
{
  g_clear_pointer (&self->paths.hosts, g_strfreev);
  self->paths.n_hosts = 0;
  self->paths.n_up = 0;
}
