/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The receiver's control connection (GstTileReceiverControl): its thread
 * connects to the sender's control port, runs the handshake (with a
 * passphrase CPace, the session's keys and sealed records), then reads
 * CONFIG, EOS and keep-alives, sends keep-alives and STATS, and reconnects
 * when the session ends and reconnect is set. The ACKs go out on it too,
 * and REFUSE, wherever it comes, turns into an error here. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilereceiver-private.h"
#include "tilepake.h"

#include <string.h>

#define KEEPALIVE_INTERVAL_MS 1000
/* caps changes a sender may make within a second */
#define MAX_CONFIGS_PER_SECOND 10
#define RECONNECT_DELAY_US (100 * 1000)

/**
 * gst_tile_receiver_refusal:
 * @buf: (array length=len): a whole control message, header included
 * @len: its size
 * @error: set when it is a REFUSE
 *
 * Returns: %TRUE, with @error saying why, when @buf is a well-formed
 * REFUSE.
 */
gboolean
gst_tile_receiver_refusal (const guint8 * buf, gsize len, GError ** error)
{
  GstTileWireHeader h;
  GstTileWireRefuse refuse;

  if (len < GST_TILE_WIRE_HEADER_SIZE
      || gst_tile_wire_header_parse (buf, len, &h, NULL) !=
      GST_TILE_WIRE_PARSE_OK || h.type != GST_TILE_WIRE_TYPE_REFUSE
      || len < GST_TILE_WIRE_HEADER_SIZE + h.payload_len
      || !gst_tile_wire_refuse_parse (buf + GST_TILE_WIRE_HEADER_SIZE,
          h.payload_len, &refuse, NULL))
    return FALSE;
  gst_tile_receiver_refuse_error (error, &refuse, "refused the connection");
  return TRUE;
}

/* A REFUSE as an error: "the sender @what (code): reason", in its own code
 * (GST_TILE_WIRE_ERROR_BUSY is worth a reconnect). */
void
gst_tile_receiver_refuse_error (GError ** error,
    const GstTileWireRefuse * refuse, const gchar * what)
{
  GstTileWireError code = GST_TILE_WIRE_ERROR_REFUSED;

  if (refuse->code == GST_TILE_WIRE_REFUSE_BUSY)
    code = GST_TILE_WIRE_ERROR_BUSY;
  else if (refuse->code == GST_TILE_WIRE_REFUSE_UNAUTHORIZED)
    code = GST_TILE_WIRE_ERROR_UNAUTHORIZED;
  g_set_error (error, GST_TILE_WIRE_ERROR, code, "the sender %s (%s): %s",
      what, gst_tile_net_refuse_code_name (refuse->code), refuse->reason);
}

/* A REFUSE's payload as an error: "the sender @what (code): reason". */
static void
set_refused (GError ** error, const GByteArray * payload, const gchar * what)
{
  GstTileWireRefuse refuse;

  if (gst_tile_wire_refuse_parse (payload->data, payload->len, &refuse, error))
    gst_tile_receiver_refuse_error (error, &refuse, what);
}

/* Reads the next control message from the sender; in a sealed session
 * (records_in set) it must be a sealed record that opens, and @h and @p
 * are then its inner message. The control thread. */
static gboolean
control_read (GstTileReceiver * self, gint fd, guint timeout,
    GstTileWireHeader * h, GByteArray * p, GError ** error)
{
  GstTileWireHeader outer;

  if (!gst_tile_net_read_message (fd, timeout,
          self->control.records_in ? &outer : h, p, error))
    return FALSE;
  return !self->control.records_in ||
      gst_tile_records_open (self->control.records_in, &outer, p, h, error);
}

/* The next message of the handshake but keep-alives (the sender answers
 * once it knows its caps; keep-alives may come first); a REFUSE as an
 * error. */
static gboolean
handshake_read (GstTileReceiver * self, gint fd, guint timeout,
    GstTileWireHeader * h, GByteArray * p, GError ** error)
{
  do {
    if (!control_read (self, fd, timeout, h, p, error))
      return FALSE;
  } while (h->type == GST_TILE_WIRE_TYPE_KEEPALIVE);
  if (h->type == GST_TILE_WIRE_TYPE_REFUSE) {
    set_refused (error, p, "refused the connection");
    return FALSE;
  }
  return TRUE;
}

/* CPace (the sender the initiator) with our passphrase over the sender's
 * CHALLENGE (in @ch): our share in @auth, the session's keys in
 * self->keys. FALSE with @error set when the sender's share is no valid
 * element. */
static gboolean
handshake_pake (GstTileReceiver * self, const GstTileWireHello * hello,
    const GstTileWireChallenge * ch, GstTileWireAuth * auth, GError ** error)
{
  guint8 sid[2 * GST_TILE_SEAL_NONCE_SIZE], isk[GST_TILE_PAKE_ISK_SIZE];
  guint8 th[GST_TILE_KEYS_HASH_SIZE];
  const gchar *pass = self->settings.passphrase;
  GstTilePake pake;
  gboolean ok;

  memcpy (sid, hello->nonce, GST_TILE_SEAL_NONCE_SIZE);
  memcpy (sid + GST_TILE_SEAL_NONCE_SIZE, ch->nonce, GST_TILE_SEAL_NONCE_SIZE);
  if (!gst_tile_pake_start (&pake, (const guint8 *) pass, strlen (pass),
          (const guint8 *) GST_TILE_KEYS_CPACE_CI,
          strlen (GST_TILE_KEYS_CPACE_CI), sid, sizeof (sid), NULL)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
        "cannot run the passphrase handshake: libsodium failed");
    return FALSE;
  }
  memcpy (auth->share, gst_tile_pake_share (&pake), sizeof (auth->share));
  ok = gst_tile_pake_finish (&pake, FALSE, NULL, 0, ch->share, NULL, 0, sid,
      sizeof (sid), isk);
  gst_tile_pake_clear (&pake);
  if (!ok) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_UNAUTHORIZED,
        "the sender's CHALLENGE has an invalid CPace share");
    return FALSE;
  }
  gst_tile_keys_transcript (hello, ch, auth->share, th);
  g_mutex_lock (&self->lock);
  gst_tile_keys_derive (isk, sizeof (isk), th, &self->keys);
  memcpy (auth->proof, self->keys.client_proof, sizeof (auth->proof));
  g_mutex_unlock (&self->lock);
  gst_tile_seal_wipe (isk, sizeof (isk));
  return TRUE;
}

/* The sender's CHALLENGE (in @p): the passphrase's CPace, our AUTH (our
 * share and proof), the sender's AUTH checked (its share as in its
 * CHALLENGE, its proof that it derived the same keys); then every control
 * message is sealed both ways. */
static gboolean
handshake_auth (GstTileReceiver * self, gint fd, guint timeout,
    const GstTileWireHello * hello, GByteArray * p, GError ** error)
{
  GstTileWireChallenge ch;
  GstTileWireAuth auth, theirs;
  GstTileWireHeader h;
  gboolean ok;

  if (!self->settings.passphrase) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_UNAUTHORIZED,
        "the sender requires a passphrase, this receiver has none");
    return FALSE;
  }
  if (!gst_tile_wire_challenge_parse (p->data, p->len, &ch, error) ||
      !handshake_pake (self, hello, &ch, &auth, error))
    return FALSE;
  p->len = 0;
  ok = gst_tile_wire_auth_pack (&auth, p);
  gst_tile_seal_wipe (&auth, sizeof (auth));
  if (!ok || !gst_tile_net_send_packed (fd, p, error) ||
      !handshake_read (self, fd, timeout, &h, p, error))
    return FALSE;
  if (h.type != GST_TILE_WIRE_TYPE_AUTH) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "expected AUTH from the sender, got %s",
        gst_tile_wire_type_get_name (h.type));
    return FALSE;
  }
  if (!gst_tile_wire_auth_parse (p->data, p->len, &theirs, error))
    return FALSE;
  g_mutex_lock (&self->lock);
  ok = gst_tile_seal_equal (theirs.share, ch.share, sizeof (ch.share)) &&
      gst_tile_seal_equal (theirs.proof, self->keys.sender_proof,
      sizeof (theirs.proof));
  g_mutex_unlock (&self->lock);
  if (!ok) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_UNAUTHORIZED,
        "the sender's proof of the passphrase is wrong: it does not know it");
    return FALSE;
  }
  /* from here on every control message is sealed, both ways */
  self->control.records_in = gst_tile_records_new (FALSE, self->keys.s2c);
  g_mutex_lock (&self->control.send_lock);
  self->control.records_out = gst_tile_records_new (TRUE, self->keys.c2s);
  g_mutex_unlock (&self->control.send_lock);
  return TRUE;
}

/* The end of a control connection: its records go. The control thread. */
static void
records_clear (GstTileReceiver * self)
{
  g_clear_pointer (&self->control.records_in, gst_tile_records_free);
  g_mutex_lock (&self->control.send_lock);
  g_clear_pointer (&self->control.records_out, gst_tile_records_free);
  g_mutex_unlock (&self->control.send_lock);
}

/* The handshake on a new control connection: HELLO, then with a
 * passphrase CHALLENGE and AUTH both ways, then the sender's CONFIG.
 * Returns the CONFIG or NULL with @error set. */
static GstTileWireConfig *
handshake (GstTileReceiver * self, gint fd, guint timeout, GError ** error)
{
  GstTileWireHello hello = { 0 };
  GstTileWireHeader h;
  GByteArray *p = g_byte_array_new ();
  GstTileWireConfig *config = NULL;

  if (self->settings.passphrase)
    hello.flags |= GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE;
  /* (a region the wire cannot carry stays home: the element refuses it
   * with the caps) */
  if (self->settings.has_region && self->settings.region.width > 0 &&
      self->settings.region.height > 0 && (guint64) self->settings.region.x +
      self->settings.region.width <= GST_TILE_WIRE_MAX_REGION &&
      (guint64) self->settings.region.y + self->settings.region.height <=
      GST_TILE_WIRE_MAX_REGION) {
    hello.flags |= GST_TILE_WIRE_HELLO_FLAG_REGION;
    hello.region = self->settings.region;
  }
  /* several paths: every datagram over each (redundant), or the rows of
   * each frame shared by the units' rates */
  if (self->paths.n_hosts > 1 && self->settings.redundant)
    hello.flags |= GST_TILE_WIRE_HELLO_FLAG_REDUNDANT;
  else if (!(hello.flags & GST_TILE_WIRE_HELLO_FLAG_REGION) &&
      self->paths.n_hosts > 1)
    hello.flags |= GST_TILE_WIRE_HELLO_FLAG_BALANCE;
  self->redundant_asked =
      (hello.flags & GST_TILE_WIRE_HELLO_FLAG_REDUNDANT) != 0;
  self->balance_asked =
      (hello.flags & GST_TILE_WIRE_HELLO_FLAG_BALANCE) != 0;
  if (!gst_tile_seal_random (hello.nonce, sizeof (hello.nonce))) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
        "no random numbers for the handshake");
    goto out;
  }
  if (!gst_tile_wire_hello_pack (&hello, p, error) ||
      !gst_tile_net_send_packed (fd, p, error) ||
      !handshake_read (self, fd, timeout, &h, p, error))
    goto out;
  if (h.type == GST_TILE_WIRE_TYPE_CHALLENGE) {
    if (!handshake_auth (self, fd, timeout, &hello, p, error) ||
        !handshake_read (self, fd, timeout, &h, p, error))
      goto out;
  } else if (self->settings.passphrase) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_UNAUTHORIZED,
        "this receiver has a passphrase, the sender has none");
    goto out;
  }
  if (h.type != GST_TILE_WIRE_TYPE_CONFIG) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "expected CONFIG from the sender, got %s",
        gst_tile_wire_type_get_name (h.type));
    goto out;
  }
  config = g_new0 (GstTileWireConfig, 1);
  if (!gst_tile_wire_config_parse (p->data, p->len, config, error)) {
    g_clear_pointer (&config, g_free);
    goto out;
  }

out:
  g_byte_array_unref (p);
  return config;
}

/* Checks the CONFIG beyond the message layer: its tiling, its caps as a
 * string (gst_tile_wire_caps_check(): nothing in it is interned), and
 * (the element's part) what they describe. */
static gboolean
config_usable (GstTileReceiver * self, GstTileWireConfig * config,
    GError ** error)
{
  static const guint8 zeros[GST_TILE_WIRE_GROUP_SECRET_SIZE] = { 0 };
  GstBcTiling tiling;

  /* sealed multicast: the group's datagrams need its secret */
  if (self->control.records_in && config->mcast_family &&
      memcmp (config->group_secret, zeros, sizeof (zeros)) == 0) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "a sealed multicast CONFIG without the group's secret");
    return FALSE;
  }
  return gst_tile_wire_config_check_tiling (config, &tiling, error) &&
      gst_tile_wire_caps_check (config->caps, error) &&
      self->callbacks.check_config (self->user_data, config, error);
}

/* what the control connection may hold unacknowledged before messages
 * are skipped, when the session holds its paths (10 s or more of ACKs and
 * STATS) */
#define CONTROL_BACKLOG (64 * 1024)
/* its send buffer then: the backlog and a message never block */
#define CONTROL_SNDBUF (512 * 1024)

/* Whether a message may go on control connection @fd now. When the
 * session holds its paths (gst_tile_receiver_holds_paths ()), not while the connection holds more than CONTROL_BACKLOG bytes
 * unacknowledged: its path failed, and a message that waited for room
 * would block its caller (the thread that pushes frames sends the ACKs);
 * ACKs, NACKs, STATS and TIME queries are all superseded by the next
 * ones. Counted. Checked before a message is sealed (the records' count
 * goes on only for what is sent). send_lock held. */
gboolean
gst_tile_receiver_control_room_locked (GstTileReceiver * self, gint fd)
{
  if (!gst_tile_receiver_holds_paths (self) ||
      gst_tile_net_queued (fd) <= CONTROL_BACKLOG)
    return TRUE;
  self->control.skipped++;
  return FALSE;
}

/* Every write on the control connection: sealed in a session with a
 * passphrase. Takes @message's bytes (it is sealed in place). */
static void
control_send (GstTileReceiver * self, gint fd, GByteArray * message)
{
  g_mutex_lock (&self->control.send_lock);
  if (gst_tile_receiver_control_room_locked (self, fd) &&
      (!self->control.records_out ||
          gst_tile_records_seal (self->control.records_out, message)))
    gst_tile_net_send_packed (fd, message, NULL);
  g_mutex_unlock (&self->control.send_lock);
}

/* protocol=udp: the frames done and the window, so that the sender never
 * has more in flight than the unit sockets hold. Sent once the unit
 * sockets of a generation are up (no frame yet), then per frame that
 * leaves pull(); nothing once the connection is closed. */
void
gst_tile_receiver_send_ack (GstTileReceiver * self, const GstTileWireAck * ack)
{
  GByteArray *a = g_byte_array_sized_new (GST_TILE_WIRE_HEADER_SIZE + 40);

  gst_tile_wire_ack_pack (ack, a);
  g_mutex_lock (&self->control.send_lock);
  if (self->control.ack_fd >= 0 &&
      gst_tile_receiver_control_room_locked (self, self->control.ack_fd) &&
      (!self->control.records_out ||
          gst_tile_records_seal (self->control.records_out, a)))
    gst_tile_net_send_packed (self->control.ack_fd, a, NULL);
  g_mutex_unlock (&self->control.send_lock);
  g_byte_array_unref (a);
}

/* Tells the sender why we end the session (sealed as every message). */
static void
control_refuse (GstTileReceiver * self, gint fd, const gchar * reason)
{
  GByteArray *p = g_byte_array_new ();

  if (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_BAD_MESSAGE, reason, p,
          NULL))
    control_send (self, fd, p);
  g_byte_array_unref (p);
}

static void
send_stats (GstTileReceiver * self, gint fd)
{
  GstStructure *s;
  GByteArray *p = g_byte_array_new ();

  g_mutex_lock (&self->lock);
  s = gst_tile_receiver_counters_to_structure (&self->counters, self->config,
      self->n_used, &self->settings, self->udp);
  gst_tile_receiver_time_stats_locked (self, s);
  g_mutex_unlock (&self->lock);
  if (gst_tile_wire_stats_pack (s, p, NULL))
    control_send (self, fd, p);
  self->callbacks.post_stats (self->user_data, s);
  g_byte_array_unref (p);
}

/* Serves one control connection until it ends. Returns FALSE when the
 * session ended with an error that is not worth a reconnect. */
static gboolean
control_session (GstTileReceiver * self, gint fd, guint timeout,
    GError ** error)
{
  GByteArray *p = g_byte_array_new ();
  gint64 now, last_rx, last_ka, last_stats, config_second, units_gone_us = 0;
  guint configs = 0;
  gboolean ret = TRUE;

  now = last_rx = last_ka = last_stats = config_second =
      g_get_monotonic_time ();
  g_mutex_lock (&self->lock);
  gst_tile_receiver_clock_reset_locked (&self->clock);
  g_mutex_unlock (&self->lock);
  while (TRUE) {
    GstTileWireHeader h;
    GstTileWireTime tq;
    gboolean query;
    guint interval;

    /* the sender's time, asked for first thing in a session: frames that
     * complete before the first answer cannot be timed on its clock */
    g_mutex_lock (&self->lock);
    query = gst_tile_receiver_clock_query_locked (&self->clock, now, &tq);
    g_mutex_unlock (&self->lock);
    if (query) {
      p->len = 0;
      gst_tile_wire_time_pack (&tq, p);
      control_send (self, fd, p);
    }
    if (!gst_tile_net_wait (fd, FALSE, 100, NULL)) {
      now = g_get_monotonic_time ();
    } else {
      if (!control_read (self, fd, timeout, &h, p, error)) {
        ret = (*error)->domain != GST_TILE_WIRE_ERROR;
        break;
      }
      now = last_rx = g_get_monotonic_time ();
      if (h.type == GST_TILE_WIRE_TYPE_CONFIG) {
        GstTileWireConfig *config;

        /* every CONFIG is a renegotiation downstream: a sender that
         * changes its caps all the time is broken or hostile */
        if (now - config_second >= G_USEC_PER_SEC) {
          config_second = now;
          configs = 0;
        }
        if (++configs > MAX_CONFIGS_PER_SECOND) {
          g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
              "the sender sent more than %u CONFIGs (caps changes) within a "
              "second", MAX_CONFIGS_PER_SECOND);
          control_refuse (self, fd, (*error)->message);
          ret = FALSE;
          break;
        }
        config = g_new0 (GstTileWireConfig, 1);

        if (!gst_tile_wire_config_parse (p->data, p->len, config, error) ||
            !config_usable (self, config, error)) {
          g_free (config);
          ret = FALSE;
          break;
        }
        g_mutex_lock (&self->lock);
        GST_INFO_OBJECT (self->log_object, "new CONFIG, generation %u",
            config->generation);
        g_free (self->pending);
        self->pending = config;
        /* UDP has no end of connection to mark the end of a generation:
         * the sender sent everything before this CONFIG */
        gst_tile_receiver_udp_drain_locked (self->udp);
        g_cond_broadcast (&self->cond);
        g_mutex_unlock (&self->lock);
      } else if (h.type == GST_TILE_WIRE_TYPE_EOS) {
        if (!gst_tile_wire_eos_parse (p->data, p->len, error)) {
          ret = FALSE;
          break;
        }
        GST_INFO_OBJECT (self->log_object, "EOS from the sender");
        g_mutex_lock (&self->lock);
        self->eos = TRUE;
        gst_tile_receiver_udp_drain_locked (self->udp);
        g_cond_broadcast (&self->cond);
        g_mutex_unlock (&self->lock);
      } else if (h.type == GST_TILE_WIRE_TYPE_KEEPALIVE) {
        guint64 t;

        if (!gst_tile_wire_keepalive_parse (p->data, p->len, &t, error)) {
          ret = FALSE;
          break;
        }
      } else if (h.type == GST_TILE_WIRE_TYPE_TIME) {
        GstTileWireTime a;
        GstClock *old;

        if (!gst_tile_wire_time_parse (p->data, p->len, &a, error)) {
          ret = FALSE;
          break;
        }
        g_mutex_lock (&self->lock);
        gst_tile_receiver_clock_answer_locked (&self->clock, &a,
            self->log_object);
        old = self->clock.replaced;
        self->clock.replaced = NULL;
        g_cond_broadcast (&self->cond);
        g_mutex_unlock (&self->lock);
        if (old) {
          if (self->callbacks.clock_replaced)
            self->callbacks.clock_replaced (self->user_data, old);
          gst_object_unref (old);
        }
      } else if (h.type == GST_TILE_WIRE_TYPE_REFUSE) {
        set_refused (error, p, "ended the session");
        ret = FALSE;
        break;
      } else {
        g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
            "unexpected %s message from the sender",
            gst_tile_wire_type_get_name (h.type));
        control_refuse (self, fd, (*error)->message);
        ret = FALSE;
        break;
      }
    }

    g_mutex_lock (&self->lock);
    if (!self->running || self->control.lost) {
      g_mutex_unlock (&self->lock);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
          "connection lost");
      break;
    }
    /* every unit of the generation ended (its data connections closed at
     * a tile boundary) and no CONFIG or EOS says why: only the control
     * connection can end a generation (someone on the path can close TCP
     * connections, not send a sealed record) */
    if (self->config && self->units_running == 0 && !self->pending &&
        !self->eos) {
      if (!units_gone_us)
        units_gone_us = now;
    } else {
      units_gone_us = 0;
    }
    g_mutex_unlock (&self->lock);
    if (units_gone_us && now - units_gone_us > (gint64) timeout * 1000) {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
          "the data connections ended, and no CONFIG or EOS followed within "
          "%u ms", timeout);
      break;
    }

    /* (redundant paths, balanced tiles: nor on any other path, see
     * gst_tile_receiver_paths_heard ()) */
    if (now - last_rx > (gint64) timeout * 1000 &&
        (!gst_tile_receiver_holds_paths (self) ||
            now - gst_tile_receiver_paths_heard (self) >
            (gint64) timeout * 1000)) {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
          "nothing heard from the sender for %u ms", timeout);
      break;
    }
    gst_tile_receiver_paths_service (self, timeout, now,
        KEEPALIVE_INTERVAL_MS * 1000);
    if (now - last_ka >= KEEPALIVE_INTERVAL_MS * 1000) {
      p->len = 0;
      gst_tile_wire_keepalive_pack (now * 1000, p);
      control_send (self, fd, p);
      last_ka = now;
    }
    interval = g_atomic_int_get (&self->stats_interval);
    if (interval > 0 && now - last_stats >= (gint64) interval * 1000) {
      send_stats (self, fd);
      last_stats = now;
    }
  }
  g_byte_array_unref (p);
  return ret;
}

/* The control thread: a session after another while reconnect is set. */
static gpointer
control_thread (gpointer data)
{
  GstTileReceiver *self = data;
  guint port = self->settings.port, timeout = self->settings.timeout;

  g_mutex_lock (&self->lock);
  if (self->settings.passphrase && !*self->settings.passphrase) {
    GError *err = g_error_new_literal (GST_TILE_WIRE_ERROR,
        GST_TILE_WIRE_ERROR_UNAUTHORIZED, "An empty passphrase is refused: "
        "leave it unset for none, or set one both ends know");

    gst_tile_receiver_set_error_locked (self, err);
    g_error_free (err);
    g_mutex_unlock (&self->lock);
    return NULL;
  }
  g_mutex_unlock (&self->lock);
  {
    GError *err = NULL;

    if (!gst_tile_receiver_paths_parse (self, &err)) {
      g_mutex_lock (&self->lock);
      gst_tile_receiver_set_error_locked (self, err);
      g_error_free (err);
      g_mutex_unlock (&self->lock);
      return NULL;
    }
  }
  g_mutex_lock (&self->lock);
  while (self->running) {
    GstTileWireConfig *config;
    GError *err = NULL;
    gboolean retry;
    gint fd;

    g_mutex_unlock (&self->lock);
    fd = gst_tile_receiver_paths_connect_control (self, timeout, &err);
    if (fd >= 0) {
      /* so that stop() can interrupt the handshake */
      g_mutex_lock (&self->lock);
      self->control.fd = fd;
      if (!self->running)
        gst_tile_net_shutdown (fd);
      g_mutex_unlock (&self->lock);
    }
    config = fd >= 0 ? handshake (self, fd, timeout, &err) : NULL;
    if (config && !config_usable (self, config, &err))
      g_clear_pointer (&config, g_free);
    if (!config)
      records_clear (self);
    if (config) {
      /* the other paths, before the units start: they are dealt out over
       * the paths up */
      gst_tile_receiver_paths_open (self, fd, config, timeout);
      /* before the units start: their first ACK goes out here */
      g_mutex_lock (&self->control.send_lock);
      self->control.ack_fd = fd;
      g_mutex_unlock (&self->control.send_lock);
    }
    g_mutex_lock (&self->lock);

    if (config) {
      self->control.server_len = gst_tile_net_address (fd, TRUE,
          &self->control.server);
      self->control.fd = fd;
      self->counters.connects++;
      self->control.lost = FALSE;
      /* a new session: its sender may count its frames from anywhere (a
       * sender started again counts from 0) */
      gst_tile_receiver_udp_new_session_locked (self->udp);
      g_free (self->pending);
      self->pending = config;
      self->balance = self->balance_asked &&
          config->protocol == GST_TILE_WIRE_PROTOCOL_TCP;
      self->redundant = self->redundant_asked && config->mcast_family == 0;
      self->stripe = self->balance_asked &&
          config->protocol == GST_TILE_WIRE_PROTOCOL_UDP &&
          config->mcast_family == 0;
      if (gst_tile_receiver_holds_paths (self))
        gst_tile_net_set_buffer_size (fd, TRUE, CONTROL_SNDBUF);
      g_cond_broadcast (&self->cond);
      GST_INFO_OBJECT (self->log_object,
          "connected to %s port %u, generation %u",
          self->paths.hosts[self->paths.control], port,
          config->generation);
      g_mutex_unlock (&self->lock);
      retry = control_session (self, fd, timeout, &err);
      /* an error that ends the stream is its error before the connection
       * closes: the sender then ends the session, and what the units hear
       * of that (refusals, closed connections) is not the cause */
      if (err && (!retry || !g_atomic_int_get (&self->reconnect))) {
        g_mutex_lock (&self->lock);
        if (self->running && !self->eos)
          gst_tile_receiver_set_error_locked (self, err);
        g_mutex_unlock (&self->lock);
      }
      g_mutex_lock (&self->control.send_lock);
      self->control.ack_fd = -1;
      g_mutex_unlock (&self->control.send_lock);
      gst_tile_receiver_paths_close (self);
      records_clear (self);
      g_mutex_lock (&self->lock);
      self->control.fd = -1;
      gst_tile_net_close (&fd);
      if (self->eos && self->running) {
        /* the sender may close once it has sent EOS */
        g_clear_error (&err);
        break;
      }
    } else {
      retry = !err || err->domain != GST_TILE_WIRE_ERROR ||
          err->code == GST_TILE_WIRE_ERROR_BUSY;
      self->control.fd = -1;
      gst_tile_net_close (&fd);
    }
    if (!self->running) {
      g_clear_error (&err);
      break;
    }

    /* the session is over: frames of it can no longer complete */
    gst_tile_receiver_stop_units_locked (self);
    g_clear_pointer (&self->config, g_free);
    g_clear_pointer (&self->pending, g_free);
    /* (no unit of it can start now: its keys go) */
    gst_tile_keys_clear (&self->keys);
    self->control.lost = FALSE;
    if (!retry || !g_atomic_int_get (&self->reconnect)) {
      if (!err)
        g_set_error (&err, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
            "connection to the sender lost");
      gst_tile_receiver_set_error_locked (self, err);
      g_clear_error (&err);
      break;
    }
    GST_INFO_OBJECT (self->log_object, "%s; reconnecting",
        err ? err->message : "lost");
    g_clear_error (&err);
    g_cond_wait_until (&self->cond, &self->lock, g_get_monotonic_time () +
        RECONNECT_DELAY_US);
  }
  g_mutex_unlock (&self->lock);
  gst_tile_receiver_paths_clear (self);
  return NULL;
}

/* start(): the control thread begins connecting. Lock held. */
void
gst_tile_receiver_control_start_locked (GstTileReceiver * self)
{
  self->control.lost = FALSE;
  self->control.thread = g_thread_new ("tilesrc-control", control_thread,
      self);
}

/* Shuts the control connection down, which wakes the control thread: for
 * stop(), or with @lost when a unit lost its data connection and the
 * session is to start again. Lock held. */
void
gst_tile_receiver_control_shutdown_locked (GstTileReceiver * self,
    gboolean lost)
{
  if (lost)
    self->control.lost = TRUE;
  if (self->control.fd >= 0)
    gst_tile_net_shutdown (self->control.fd);
}

/* stop(): waits for the control thread, which has seen running unset. */
void
gst_tile_receiver_control_join (GstTileReceiver * self)
{
  if (self->control.thread)
    g_thread_join (self->control.thread);
  self->control.thread = NULL;
}

/* The sender's address on the control connection, in @peer; returns its
 * length. Lock held. */
guint
gst_tile_receiver_control_peer_locked (GstTileReceiver * self,
    struct sockaddr_storage *peer)
{
  memcpy (peer, &self->control.server, sizeof (*peer));
  return self->control.server_len;
}
