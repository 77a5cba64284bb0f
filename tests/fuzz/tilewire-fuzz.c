/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* libFuzzer target for the tilewire parsers: everything a peer can send on
 * the control and data connections and in UDP datagrams. The first byte
 * picks the parser (its value modulo 11; 0 is the header, and on the same
 * bytes the sealed control records; 1 the handshake: HELLO, CHALLENGE and
 * AUTH on the same bytes; 10 the feedback: ACK and NACK on the same
 * bytes); the rest is the input, in a buffer
 * of exactly its size so that the sanitizers see any read past the end.
 * Built and run by run.sh. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <gst/gst.h>
#include <gst/tile/tilewire.h>
#include <gst/tile/tileregion.h>
#include <gst/tile/tilekeys.h>
#include <gst/video/video.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

/* The UDP session the fuzzed datagrams are checked against: 7 rows of 64
 * bytes in 3 tiles (192, 128, 128 bytes), 16 payload bytes per datagram,
 * generation 7. */
static GstTileWireConfig packet_config;

/* no input may make a new quark */
#define FUZZ_TARGET "tilewire-fuzz"
#include "fuzz-quark.h"



/* GStreamer registers some types on first use: a cast to a name that is
 * not a type abbreviation (such as "uint64") makes it register
 * GstDynamicTypeFactory to look the name up. Every cast STATS allows is
 * parsed once here, so that such one-time work (and its quarks) happens
 * before the first input. */
static void
warm_up (void)
{
  static const gchar *const casts[] = {
    "int", "i", "gint", "uint", "u", "guint", "int64", "gint64", "uint64",
    "guint64", "double", "d", "gdouble", "float", "f", "gfloat", "boolean",
    "bool", "b", "gboolean", "string", "str", "s", "gchararray", "fraction",
    "GstFraction"
  };
  guint i;

  /* the names receivers know, and the multiview flag set type a caps
   * cast may name (registered on first use) */
  gst_tile_wire_caps_know_names ();
  g_type_class_unref (g_type_class_ref (gst_video_multiview_flagset_get_type
          ()));
  for (i = 0; i < G_N_ELEMENTS (casts); i++) {
    gchar *str = g_strdup_printf ("stats, frames-received=(%s)1", casts[i]);
    gsize len = strlen (str);
    guint8 *payload = g_malloc (2 + len);
    GstStructure *s = NULL;

    payload[0] = len >> 8;
    payload[1] = len & 0xff;
    memcpy (payload + 2, str, len);
    if (gst_tile_wire_stats_parse (payload, 2 + len, &s, NULL))
      gst_structure_free (s);
    g_free (payload);
    g_free (str);
  }
}

/* An ACK that parses has per-path feedback only with feedback, each path
 * once and below 8, each within its own bounds and all of them within the
 * ACK's, and the length that says */
static gboolean
ack_paths_valid (const GstTileWireAck * ack, gsize len)
{
  guint64 sum = 0;
  guint seen = 0, i;

  if (ack->n_paths > GST_TILE_WIRE_MAX_PATHS ||
      len != (ack->n_paths ? 48 + 28 * (gsize) ack->n_paths : 44) ||
      (ack->n_paths && !ack->has_feedback))
    return FALSE;
  for (i = 0; i < ack->n_paths; i++) {
    const GstTileWireAckPath *p = &ack->paths[i];

    if (p->path >= GST_TILE_WIRE_MAX_PATHS || (seen & (1u << p->path)) ||
        p->spanned > p->received || p->receive_ns > 3600 * GST_SECOND)
      return FALSE;
    seen |= 1u << p->path;
    sum += p->received;
  }
  return sum <= ack->received;
}

/* A NACK that parses is what the message says, byte for byte, and within
 * the limits: 1 to 64 ranges in order, not overlapping, each of 1 to 65535
 * datagrams ending at most 2^30 datagrams in, a unit below 64; and packed
 * again it gives the same bytes. */
/* a big-endian number of @n bytes (the input has no alignment) */
static guint64
be_bytes (const guint8 * p, guint n)
{
  guint64 v = 0;

  while (n--)
    v = v << 8 | *p++;
  return v;
}

static void
nack_parsed (const guint8 * buf, gsize len)
{
  GstTileWireNack nack;
  GByteArray *again;
  guint64 next = 0;
  guint i;

  if (!gst_tile_wire_nack_parse (buf, len, &nack, NULL))
    return;
  if (len != 16 + 6 * (gsize) nack.n_ranges || nack.n_ranges < 1
      || nack.n_ranges > GST_TILE_WIRE_NACK_MAX_RANGES
      || nack.unit >= GST_TILE_WIRE_MAX_UNITS
      || nack.generation != be_bytes (buf, 4)
      || nack.frame != be_bytes (buf + 4, 8))
    abort ();
  for (i = 0; i < nack.n_ranges; i++) {
    if (nack.ranges[i].count < 1
        || nack.ranges[i].count > GST_TILE_WIRE_NACK_MAX_COUNT
        || nack.ranges[i].first < next)
      abort ();
    next = (guint64) nack.ranges[i].first + nack.ranges[i].count;
    if (next > (G_GUINT64_CONSTANT (1) << 30))
      abort ();
  }
  again = g_byte_array_new ();
  if (!gst_tile_wire_nack_pack (&nack, again, NULL)
      || again->len != GST_TILE_WIRE_HEADER_SIZE + len
      || memcmp (again->data + GST_TILE_WIRE_HEADER_SIZE, buf, len) != 0)
    abort ();
  g_byte_array_unref (again);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  GstBcTiling tiling;

  /* The parsers need no plugins. Without the registry the set of quarks
   * after gst_init () is the same on every machine: with it, it depends on
   * the plugins installed and on the registry cache, and where it ends near
   * a multiple of 2048 the next quark makes GLib abandon its first quark
   * array (by design), which LeakSanitizer reports as a 16 KiB leak with no
   * stack past g_malloc. That made this test fail on some runs only. */
  g_setenv ("GST_REGISTRY_DISABLE", "yes", TRUE);
  gst_init (NULL, NULL);
  /* a critical or warning from GLib or GStreamer is a finding */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  /* the error domain is made on first use: make it now */
  gst_tile_wire_error_quark ();
  if (!gst_bc_tiling_init (&tiling, 7, 64, 3)
      || !gst_tile_wire_config_set_tiling (&packet_config, &tiling, NULL)
      || !gst_tile_wire_config_set_caps (&packet_config, "video/x-bc", NULL))
    abort ();
  packet_config.token = 1;
  packet_config.generation = 7;
  packet_config.protocol = GST_TILE_WIRE_PROTOCOL_UDP;
  packet_config.chunk_size = 65536;
  packet_config.packet_size = 16;
  if (!gst_tile_wire_config_validate (&packet_config, NULL))
    abort ();
  /* the receiver knows its own statistics field names */
  g_quark_from_static_string ("stats");
  g_quark_from_static_string ("frames-received");
  warm_up ();
  return 0;
}

/* Sealed control records (a session with a passphrase), on the bytes of
 * case 0: as a record from the wire (header and payload), which never
 * opens (it was not sealed with the key), and as the inner message of a
 * record we seal, which opens to exactly those bytes when they are a
 * header and the payload it announces, and is refused otherwise. */
static void
sealed_records (const guint8 * buf, gsize len)
{
  static const guint8 secret[GST_TILE_KEYS_HASH_SIZE] = { 0x5e, 0xa1 };
  GstTileRecords *out = gst_tile_records_new (TRUE, secret);
  GstTileRecords *in = gst_tile_records_new (FALSE, secret);
  GByteArray *p = g_byte_array_new ();
  GstTileWireHeader h, inner;
  GError *error = NULL;

  /* from the wire */
  if (gst_tile_wire_header_parse (buf, len, &h, NULL) ==
      GST_TILE_WIRE_PARSE_OK && h.type == GST_TILE_WIRE_TYPE_SEALED) {
    g_byte_array_append (p, buf + GST_TILE_WIRE_HEADER_SIZE,
        MIN (h.payload_len, len - GST_TILE_WIRE_HEADER_SIZE));
    if (gst_tile_records_open (in, &h, p, &inner, &error))
      abort ();
    g_clear_error (&error);
  }
  /* sealed by us */
  if (len >= GST_TILE_WIRE_HEADER_SIZE && len + GST_TILE_SEAL_TAG_SIZE <=
      GST_TILE_WIRE_MAX_PAYLOAD) {
    gboolean whole;

    gst_tile_records_free (in);
    in = gst_tile_records_new (FALSE, secret);
    g_byte_array_set_size (p, 0);
    g_byte_array_append (p, buf, len);
    gst_tile_records_seal (out, p);
    if (gst_tile_wire_header_parse (p->data, p->len, &h, NULL) !=
        GST_TILE_WIRE_PARSE_OK || h.type != GST_TILE_WIRE_TYPE_SEALED)
      abort ();
    g_byte_array_remove_range (p, 0, GST_TILE_WIRE_HEADER_SIZE);
    whole = gst_tile_wire_header_parse (buf, len, &inner, NULL) ==
        GST_TILE_WIRE_PARSE_OK && inner.type != GST_TILE_WIRE_TYPE_SEALED &&
        inner.payload_len == len - GST_TILE_WIRE_HEADER_SIZE;
    if (gst_tile_records_open (in, &h, p, &inner, &error) != whole)
      abort ();
    if (whole && (p->len != len - GST_TILE_WIRE_HEADER_SIZE ||
            memcmp (p->data, buf + GST_TILE_WIRE_HEADER_SIZE, p->len) != 0))
      abort ();
    g_clear_error (&error);
  }
  g_byte_array_unref (p);
  gst_tile_records_free (out);
  gst_tile_records_free (in);
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GError *error = NULL;
  guint8 *buf;
  gsize len;

  if (size < 1)
    return 0;
  fuzz_in_input = TRUE;
  len = size - 1;
  buf = malloc (len ? len : 1);
  memcpy (buf, data + 1, len);

  switch (data[0] % 11) {
    case 0:{
      GstTileWireHeader h;
      gst_tile_wire_header_parse (buf, len, &h, &error);
      g_clear_error (&error);
      sealed_records (buf, len);
      break;
    }
    case 1:{
      /* the handshake: HELLO, and on the same bytes CHALLENGE and AUTH
       * (their own parser bytes would need a modulo other than 11, which
       * would move the committed corpus to other parsers) */
      GstTileWireHello m;
      GstTileWireChallenge ch;
      GstTileWireAuth auth;

      if (gst_tile_wire_hello_parse (buf, len, &m, &error) &&
          (len != 4 + GST_TILE_SEAL_NONCE_SIZE + 16
              || (m.flags & ~(GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE |
                      GST_TILE_WIRE_HELLO_FLAG_REGION |
                      GST_TILE_WIRE_HELLO_FLAG_BALANCE |
                      GST_TILE_WIRE_HELLO_FLAG_REDUNDANT))
              || ((m.flags & GST_TILE_WIRE_HELLO_FLAG_REGION) &&
                  (m.flags & GST_TILE_WIRE_HELLO_FLAG_BALANCE))
              || ((m.flags & GST_TILE_WIRE_HELLO_FLAG_REDUNDANT) &&
                  (m.flags & GST_TILE_WIRE_HELLO_FLAG_BALANCE))
              || memcmp (m.nonce, buf + 4, sizeof (m.nonce)) != 0
              || (!(m.flags & GST_TILE_WIRE_HELLO_FLAG_REGION) &&
                  (m.region.width || m.region.height || m.region.x ||
                      m.region.y))
              || ((m.flags & GST_TILE_WIRE_HELLO_FLAG_REGION) &&
                  (m.region.width == 0 || m.region.height == 0 ||
                      (guint64) m.region.x + m.region.width > G_MAXINT ||
                      (guint64) m.region.y + m.region.height > G_MAXINT))))
        abort ();
      g_clear_error (&error);
      if (gst_tile_wire_challenge_parse (buf, len, &ch, &error) &&
          (len != sizeof (ch.nonce) + sizeof (ch.share)
              || memcmp (ch.nonce, buf, sizeof (ch.nonce)) != 0
              || memcmp (ch.share, buf + sizeof (ch.nonce),
                  sizeof (ch.share)) != 0))
        abort ();
      g_clear_error (&error);
      if (gst_tile_wire_auth_parse (buf, len, &auth, &error) &&
          (len != sizeof (auth.share) + sizeof (auth.proof)
              || memcmp (auth.share, buf, sizeof (auth.share)) != 0
              || memcmp (auth.proof, buf + sizeof (auth.share),
                  sizeof (auth.proof)) != 0))
        abort ();
      break;
    }
    case 2:{
      GstTileWireConfig *m = g_new0 (GstTileWireConfig, 1);
      if (gst_tile_wire_config_parse (buf, len, m, &error)) {
        /* a parsed CONFIG must also validate */
        if (!gst_tile_wire_config_validate (m, NULL))
          abort ();
        /* caps that pass the check parse as a receiver parses them,
         * without a new quark or a GLib warning */
        if (gst_tile_wire_caps_check (m->caps, NULL)) {
          GstCaps *caps = gst_caps_from_string (m->caps);
          /* a region of the CONFIG's frames, from its token: its units
           * are some of the CONFIG's tiles, or all of them on an error */
          GstTileWireRegion region = { m->token & 0xffff,
            (m->token >> 16) & 0xffff, ((m->token >> 32) & 0xffff) + 1,
            (m->token >> 48) + 1
          };
          guint64 units, all = m->n_tiles == 64 ? G_MAXUINT64 :
              (G_GUINT64_CONSTANT (1) << m->n_tiles) - 1;

          if (caps)
            gst_caps_unref (caps);
          if (gst_tile_region_config_units (&region, m, &units, NULL) ?
              units == 0 || (units & ~all) != 0 : units != all)
            abort ();
        }
      }
      g_free (m);
      break;
    }
    case 3:{
      GstTileWireUnitHello m;
      gst_tile_wire_unit_hello_parse (buf, len, &m, &error);
      break;
    }
    case 4:{
      GstTileWireRefuse *m = g_new0 (GstTileWireRefuse, 1);
      gst_tile_wire_refuse_parse (buf, len, m, &error);
      g_free (m);
      break;
    }
    case 5:
      gst_tile_wire_eos_parse (buf, len, &error);
      break;
    case 6:{
      guint64 t;
      gst_tile_wire_keepalive_parse (buf, len, &t, &error);
      break;
    }
    case 7:{
      GstStructure *s = NULL;
      if (gst_tile_wire_stats_parse (buf, len, &s, &error))
        gst_structure_free (s);
      break;
    }
    case 8:{
      GstTileWirePacketHeader h;
      GstTileWireParseResult res;

      /* a received datagram: header, then the check against the session */
      res = gst_tile_wire_packet_header_parse (buf, len, &h, &error);
      if (res == GST_TILE_WIRE_PARSE_NEED_MORE
          && len >= GST_TILE_WIRE_PACKET_HEADER_SIZE)
        abort ();
      if (res == GST_TILE_WIRE_PARSE_OK) {
        gboolean ok;

        if (h.unit >= GST_TILE_WIRE_MAX_UNITS)
          abort ();
        ok = gst_tile_wire_packet_check (&h, &packet_config, &error);
        if (ok != gst_tile_wire_packet_check (&h, &packet_config, NULL))
          abort ();
        /* an accepted payload lies inside its tile; accepted parity has
         * a layout that fits its tile and an index inside it */
        if (ok && h.token != packet_config.token)
          abort ();
        if (ok && !(h.flags & GST_TILE_WIRE_PACKET_FLAG_PARITY) &&
            (h.offset >= packet_config.tiles[h.unit].size
                || h.offset % packet_config.packet_size != 0))
          abort ();
        if (ok && (h.flags & GST_TILE_WIRE_PACKET_FLAG_PARITY)) {
          guint32 n = gst_tile_wire_packets_per_tile
              (packet_config.tiles[h.unit].size, packet_config.packet_size);
          guint span, parity, index;

          gst_tile_wire_parity_fields (h.offset, &span, &parity, &index);
          if (!gst_tile_wire_parity_layout_check (n, span, parity, NULL) ||
              index >= parity * gst_tile_wire_parity_groups (n, span) ||
              parity * gst_tile_wire_parity_groups (n, span) >
              gst_tile_wire_parity_max (n))
            abort ();
        }
      }
      break;
    }
    case 10:{
      GstTileWireAck ack;

      if (gst_tile_wire_ack_parse (buf, len, &ack, &error) &&
          (ack.window == 0 || (!ack.has_frame && ack.frame != 0)
              || (ack.has_feedback && !ack.has_frame)
              || (!ack.has_feedback && (ack.received || ack.spanned
                      || ack.receive_ns || ack.delay_ns))
              || ack.spanned > ack.received
              || ack.receive_ns > 3600 * GST_SECOND
              || !ack_paths_valid (&ack, len)))
        abort ();
      g_clear_error (&error);
      /* the other feedback, on the same bytes: a NACK (its own parser
       * byte would need a modulo other than 11, see case 1) */
      nack_parsed (buf, len);
      break;
    }
    default:{
      GstTileWireTileHeader h;
      /* the bytes of the tile left: a whole tile, or a few after parts */
      guint32 left = (data[0] & 0x80) ? 1036800 : 1 + (data[0] >> 4);

      if (gst_tile_wire_tile_header_parse (buf, len, left, &h, &error) ==
          GST_TILE_WIRE_PARSE_OK &&
          !(h.flags == GST_TILE_WIRE_TILE_FLAG_ABANDON ? h.size == 0 :
              h.flags == GST_TILE_WIRE_TILE_FLAG_MORE ? h.size >= 1
              && h.size < left : h.flags == 0 && h.size == left))
        abort ();
      break;
    }
  }
  g_clear_error (&error);
  free (buf);
  fuzz_in_input = FALSE;
  return 0;
}
