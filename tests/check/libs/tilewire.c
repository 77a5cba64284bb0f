/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/bc/bc.h>
#include <gst/tile/tilewire.h>
#include <gst/tile/tilenet.h>

#include <string.h>

#include "gstbctest.h"

#define FUZZ_ITERATIONS 20000

/* Byte-wise big-endian access: GST_WRITE_UINT32_BE() and friends use
 * unaligned stores on x86, which UBSan reports. */
static void
write_be (guint8 * p, guint64 v, guint n_bytes)
{
  guint i;

  for (i = 0; i < n_bytes; i++)
    p[i] = (guint8) (v >> (8 * (n_bytes - 1 - i)));
}

static guint64
read_be (const guint8 * p, guint n_bytes)
{
  guint64 v = 0;
  guint i;

  for (i = 0; i < n_bytes; i++)
    v = (v << 8) | p[i];
  return v;
}

/* Parses the header of a packed message, checks its type and length and
 * returns where the payload is. */
static const guint8 *
split_message (GByteArray * msg, GstTileWireType type, gsize * payload_len)
{
  GstTileWireHeader h;
  GError *err = NULL;

  fail_unless_equals_int (gst_tile_wire_header_parse (msg->data, msg->len, &h,
          &err), GST_TILE_WIRE_PARSE_OK);
  fail_unless (err == NULL);
  fail_unless_equals_int (h.magic, GST_TILE_WIRE_MAGIC);
  fail_unless_equals_int (h.version, GST_TILE_WIRE_VERSION);
  fail_unless_equals_int (h.type, type);
  fail_unless_equals_int (h.payload_len, msg->len - GST_TILE_WIRE_HEADER_SIZE);
  *payload_len = h.payload_len;
  return msg->data + GST_TILE_WIRE_HEADER_SIZE;
}

/* Checks that @err is set with @code and that its message holds @needle. */
static void
check_error (GError * err, gint code, const gchar * needle)
{
  fail_unless (err != NULL);
  fail_unless (err->domain == GST_TILE_WIRE_ERROR, "domain of '%s'",
      err->message);
  fail_unless_equals_int (err->code, code);
  if (needle != NULL)
    fail_unless (strstr (err->message, needle) != NULL,
        "'%s' not in error '%s'", needle, err->message);
  GST_DEBUG ("expected error: %s", err->message);
}

/* Copies @len bytes to an allocation of exactly that size, so the sanitizer
 * sees any read past the end. */
static guint8 *
exact_copy (const guint8 * data, gsize len)
{
  return len ? g_memdup2 (data, len) : NULL;
}

/* Writes the CONFIG payload of @c without any validation, with @caps_len
 * bytes of caps (which may hold a NUL or be longer than the limit). */
static void
raw_config_payload (const GstTileWireConfig * c, const gchar * caps,
    gsize caps_len, GByteArray * out)
{
  guint8 b[8];
  guint i;

#define PUT(bits, v) G_STMT_START { \
    write_be (b, v, bits / 8); \
    g_byte_array_append (out, b, bits / 8); } G_STMT_END
  PUT (64, c->token);
  PUT (32, c->generation);
  b[0] = c->protocol;
  g_byte_array_append (out, b, 1);
  PUT (16, c->n_units);
  PUT (32, c->chunk_size);
  PUT (32, c->packet_size);
  PUT (64, c->frame_size);
  PUT (32, c->n_rows);
  PUT (64, c->row_bytes);
  PUT (16, c->n_tiles);
  for (i = 0; i < c->n_tiles && i < GST_TILE_WIRE_MAX_UNITS; i++) {
    PUT (64, c->tiles[i].offset);
    PUT (64, c->tiles[i].size);
  }
  b[0] = c->mcast_family;
  g_byte_array_append (out, b, 1);
  g_byte_array_append (out, c->mcast_addr, 16);
  PUT (16, c->mcast_port);
  g_byte_array_append (out, c->group_secret, GST_TILE_WIRE_GROUP_SECRET_SIZE);
  PUT (16, caps_len);
#undef PUT
  g_byte_array_append (out, (const guint8 *) caps, caps_len);
}

static void
make_config (GstTileWireConfig * c, guint n_rows, gsize row_bytes,
    guint n_units)
{
  GstBcTiling tiling;
  GError *err = NULL;

  memset (c, 0, sizeof (*c));
  c->token = G_GUINT64_CONSTANT (0x0123456789abcdef);
  c->generation = 7;
  c->protocol = GST_TILE_WIRE_PROTOCOL_TCP;
  c->chunk_size = 65536;
  fail_unless (gst_bc_tiling_init (&tiling, n_rows, row_bytes, n_units));
  fail_unless (gst_tile_wire_config_set_tiling (c, &tiling, &err));
  fail_unless (gst_tile_wire_config_set_caps (c,
          "video/x-bc, format=(string)BC1, width=(int)1920, "
          "height=(int)1080, framerate=(fraction)30/1", &err));
  fail_unless (err == NULL);
}

static void
check_config_equal (const GstTileWireConfig * a, const GstTileWireConfig * b)
{
  guint i;

  fail_unless_equals_uint64 (a->token, b->token);
  fail_unless_equals_int (a->generation, b->generation);
  fail_unless_equals_int (a->protocol, b->protocol);
  fail_unless_equals_int (a->n_units, b->n_units);
  fail_unless_equals_int (a->chunk_size, b->chunk_size);
  fail_unless_equals_int (a->packet_size, b->packet_size);
  fail_unless_equals_uint64 (a->frame_size, b->frame_size);
  fail_unless_equals_int (a->n_rows, b->n_rows);
  fail_unless_equals_uint64 (a->row_bytes, b->row_bytes);
  fail_unless_equals_int (a->n_tiles, b->n_tiles);
  for (i = 0; i < a->n_tiles; i++) {
    fail_unless_equals_uint64 (a->tiles[i].offset, b->tiles[i].offset);
    fail_unless_equals_uint64 (a->tiles[i].size, b->tiles[i].size);
  }
  fail_unless_equals_string (a->caps, b->caps);
  fail_unless_equals_int (a->mcast_family, b->mcast_family);
  fail_unless (memcmp (a->mcast_addr, b->mcast_addr, 16) == 0);
  fail_unless_equals_int (a->mcast_port, b->mcast_port);
  fail_unless (memcmp (a->group_secret, b->group_secret,
          GST_TILE_WIRE_GROUP_SECRET_SIZE) == 0);
}

/* Packs @c, parses it back and compares. */
static void
config_round_trip (const GstTileWireConfig * c)
{
  GByteArray *msg = g_byte_array_new ();
  GstTileWireConfig *parsed = g_new0 (GstTileWireConfig, 1);
  GError *err = NULL;
  const guint8 *payload;
  guint8 *copy;
  gsize len;

  fail_unless (gst_tile_wire_config_pack (c, msg, &err));
  fail_unless (err == NULL);
  payload = split_message (msg, GST_TILE_WIRE_TYPE_CONFIG, &len);
  fail_unless_equals_int (len, 45 + 16 * c->n_tiles + 19 +
      GST_TILE_WIRE_GROUP_SECRET_SIZE + 2 + strlen (c->caps));
  copy = exact_copy (payload, len);
  fail_unless (gst_tile_wire_config_parse (copy, len, parsed, &err));
  fail_unless (err == NULL);
  check_config_equal (c, parsed);
  g_free (copy);
  g_free (parsed);
  g_byte_array_unref (msg);
}

/* Expects the raw payload of @c to be rejected with @code, and, when
 * @pack_too, gst_tile_wire_config_pack() to refuse @c with the same code. */
static void
config_expect_error (const GstTileWireConfig * c, gboolean pack_too, gint code,
    const gchar * needle)
{
  GByteArray *payload = g_byte_array_new ();
  GByteArray *msg = g_byte_array_new ();
  GstTileWireConfig *parsed = g_new0 (GstTileWireConfig, 1);
  GError *err = NULL;
  guint8 *copy;

  raw_config_payload (c, c->caps, strlen (c->caps), payload);
  copy = exact_copy (payload->data, payload->len);
  fail_if (gst_tile_wire_config_parse (copy, payload->len, parsed, &err));
  check_error (err, code, needle);
  g_clear_error (&err);

  if (pack_too) {
    fail_if (gst_tile_wire_config_pack (c, msg, &err));
    check_error (err, code, needle);
    fail_unless_equals_int (msg->len, 0);
    g_clear_error (&err);
  }
  g_free (copy);
  g_free (parsed);
  g_byte_array_unref (payload);
  g_byte_array_unref (msg);
}

GST_START_TEST (test_header)
{
  guint8 buf[GST_TILE_WIRE_HEADER_SIZE];
  GstTileWireHeader h;
  GError *err = NULL;
  gsize i;

  gst_tile_wire_header_write (buf, GST_TILE_WIRE_TYPE_CONFIG, 1234);
  fail_unless_equals_int (read_be (buf, 4), 0x47534243);
  fail_unless (memcmp (buf, "GSBC", 4) == 0);
  fail_unless_equals_int (gst_tile_wire_header_parse (buf, sizeof (buf), &h,
          &err), GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_int (h.type, GST_TILE_WIRE_TYPE_CONFIG);
  fail_unless_equals_int (h.payload_len, 1234);
  fail_unless_equals_int (h.version, GST_TILE_WIRE_VERSION);

  /* every short length asks for more, without reading past @len */
  for (i = 0; i < GST_TILE_WIRE_HEADER_SIZE; i++) {
    guint8 *copy = exact_copy (buf, i);

    fail_unless_equals_int (gst_tile_wire_header_parse (copy, i, &h, &err),
        GST_TILE_WIRE_PARSE_NEED_MORE);
    fail_unless (err == NULL);
    g_free (copy);
  }

  /* the limit itself is fine, one more is not */
  gst_tile_wire_header_write (buf, GST_TILE_WIRE_TYPE_STATS,
      GST_TILE_WIRE_MAX_PAYLOAD);
  fail_unless_equals_int (gst_tile_wire_header_parse (buf, sizeof (buf), &h,
          &err), GST_TILE_WIRE_PARSE_OK);
  write_be (buf + 8, GST_TILE_WIRE_MAX_PAYLOAD + 1, 4);
  fail_unless_equals_int (gst_tile_wire_header_parse (buf, sizeof (buf), &h,
          &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_OVERSIZED, "65537");
  g_clear_error (&err);
  write_be (buf + 8, G_MAXUINT32, 4);
  fail_unless_equals_int (gst_tile_wire_header_parse (buf, sizeof (buf), &h,
          &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_OVERSIZED, "4294967295");
  g_clear_error (&err);

  /* wrong magic */
  gst_tile_wire_header_write (buf, GST_TILE_WIRE_TYPE_HELLO, 4);
  memcpy (buf, "GET ", 4);
  fail_unless_equals_int (gst_tile_wire_header_parse (buf, sizeof (buf), &h,
          &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_BAD_MAGIC, "0x47455420");
  g_clear_error (&err);

  /* other versions, named together with ours */
  gst_tile_wire_header_write (buf, GST_TILE_WIRE_TYPE_HELLO, 4);
  write_be (buf + 4, 2, 2);
  fail_unless_equals_int (gst_tile_wire_header_parse (buf, sizeof (buf), &h,
          &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION,
      "version 2, this side speaks version 7");
  g_clear_error (&err);
  write_be (buf + 4, 6, 2);
  fail_unless_equals_int (gst_tile_wire_header_parse (buf, sizeof (buf), &h,
          &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION,
      "version 6, this side speaks version 7");
  g_clear_error (&err);
  write_be (buf + 4, 8, 2);
  fail_unless_equals_int (gst_tile_wire_header_parse (buf, sizeof (buf), &h,
          &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION,
      "version 8, this side speaks version 7");
  g_clear_error (&err);
  write_be (buf + 4, 0, 2);
  fail_unless_equals_int (gst_tile_wire_header_parse (buf, sizeof (buf), &h,
          &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION, "version 0");
  g_clear_error (&err);

  /* the newest types are known */
  for (i = GST_TILE_WIRE_TYPE_CHALLENGE; i <= GST_TILE_WIRE_TYPE_PATH; i++) {
    gst_tile_wire_header_write (buf, i, 32);
    fail_unless_equals_int (gst_tile_wire_header_parse (buf, sizeof (buf), &h,
            &err), GST_TILE_WIRE_PARSE_OK);
    fail_unless (err == NULL);
    fail_unless_equals_int (h.type, i);
    fail_unless_equals_int (h.payload_len, 32);
  }
  fail_unless_equals_string (gst_tile_wire_type_get_name
      (GST_TILE_WIRE_TYPE_CHALLENGE), "CHALLENGE");
  fail_unless_equals_string (gst_tile_wire_type_get_name
      (GST_TILE_WIRE_TYPE_AUTH), "AUTH");
  fail_unless_equals_int (GST_TILE_WIRE_TYPE_CHALLENGE, 9);
  fail_unless_equals_int (GST_TILE_WIRE_TYPE_AUTH, 10);
  fail_unless_equals_string (gst_tile_wire_type_get_name
      (GST_TILE_WIRE_TYPE_SEALED), "SEALED");
  fail_unless_equals_int (GST_TILE_WIRE_TYPE_SEALED, 11);
  fail_unless_equals_string (gst_tile_wire_type_get_name
      (GST_TILE_WIRE_TYPE_TIME), "TIME");
  fail_unless_equals_int (GST_TILE_WIRE_TYPE_TIME, 12);
  fail_unless_equals_string (gst_tile_wire_type_get_name
      (GST_TILE_WIRE_TYPE_NACK), "NACK");
  fail_unless_equals_int (GST_TILE_WIRE_TYPE_NACK, 13);
  fail_unless_equals_string (gst_tile_wire_type_get_name
      (GST_TILE_WIRE_TYPE_PATH), "PATH");
  fail_unless_equals_int (GST_TILE_WIRE_TYPE_PATH, 14);
  fail_unless_equals_string (gst_tile_wire_type_get_name (15), "UNKNOWN");

  /* unknown types */
  for (i = 0; i < 4; i++) {
    const guint16 types[] = { 0, GST_TILE_WIRE_TYPE_PATH + 1, 16, 0xffff };
    gchar *needle = g_strdup_printf ("type is %u", types[i]);

    gst_tile_wire_header_write (buf, GST_TILE_WIRE_TYPE_HELLO, 4);
    write_be (buf + 6, types[i], 2);
    fail_unless_equals_int (gst_tile_wire_header_parse (buf, sizeof (buf), &h,
            &err), GST_TILE_WIRE_PARSE_ERROR);
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, needle);
    g_clear_error (&err);
    g_free (needle);
  }
}

GST_END_TEST;

GST_START_TEST (test_small_messages)
{
  GByteArray *msg = g_byte_array_new ();
  GError *err = NULL;
  const guint8 *payload;
  gsize len;
  GstTileWireHello hello = { 0 }, hello_out;
  GstTileWireUnitHello uh = { G_GUINT64_CONSTANT (0xfeedfacecafebeef), 42, 63 };
  GstTileWireUnitHello uh_out;
  GstTileWireRefuse *refuse = g_new0 (GstTileWireRefuse, 1);
  guint64 t;
  guint i;

  /* HELLO: the flags, then the client's nonce, then the region (none) */
  {
    static const guint8 expected[GST_TILE_WIRE_HEADER_SIZE + 36] = {
      'G', 'S', 'B', 'C', 0, 7, 0, 1, 0, 0, 0, 36,
      0, 0, 0, 1,
      0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
      0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    };
    guint8 *copy;

    fail_unless_equals_int (GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE, 1);
    hello.flags = GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE;
    for (i = 0; i < sizeof (hello.nonce); i++)
      hello.nonce[i] = 0xc0 + i;
    fail_unless (gst_tile_wire_hello_pack (&hello, msg, &err));
    fail_unless_equals_int (msg->len, sizeof (expected));
    fail_unless (memcmp (msg->data, expected, sizeof (expected)) == 0);
    payload = split_message (msg, GST_TILE_WIRE_TYPE_HELLO, &len);
    fail_unless_equals_int (len, 36);
    copy = exact_copy (payload, len);
    memset (&hello_out, 0xaa, sizeof (hello_out));
    fail_unless (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    fail_unless_equals_int (hello_out.flags,
        GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE);
    fail_unless (memcmp (hello_out.nonce, hello.nonce,
            sizeof (hello.nonce)) == 0);

    /* no passphrase: flags 0, the nonce all the same */
    copy[3] = 0;
    memset (&hello_out, 0xaa, sizeof (hello_out));
    fail_unless (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    fail_unless_equals_int (hello_out.flags, 0);
    fail_unless (memcmp (hello_out.nonce, hello.nonce,
            sizeof (hello.nonce)) == 0);

    /* balanced tiles (bit 2), with or without a passphrase */
    copy[3] = 4;
    fail_unless (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    fail_unless_equals_int (hello_out.flags, GST_TILE_WIRE_HELLO_FLAG_BALANCE);
    copy[3] = 5;
    fail_unless (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    /* redundant paths (bit 3), with or without a passphrase; not with
     * balanced tiles */
    copy[3] = 8;
    fail_unless (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    fail_unless_equals_int (hello_out.flags,
        GST_TILE_WIRE_HELLO_FLAG_REDUNDANT);
    copy[3] = 9;
    fail_unless (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    copy[3] = 12;
    fail_if (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "balanced tiles and for "
        "redundant paths");
    g_clear_error (&err);
    /* any other flag is refused, received or sent */
    copy[3] = 16;
    fail_if (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "HELLO flags is 0x00000010");
    g_clear_error (&err);
    copy[3] = 17;
    fail_if (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "flags is 0x00000011");
    g_clear_error (&err);
    /* balanced tiles and a region exclude each other */
    copy[3] = 6;
    copy[20 + 11] = 8;
    copy[20 + 15] = 8;
    fail_if (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "a region and for "
        "balanced tiles");
    g_clear_error (&err);
    copy[20 + 11] = 0;
    copy[20 + 15] = 0;
    /* the region flag with an empty region, a region without the flag */
    copy[3] = 3;
    fail_if (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID,
        "HELLO region is 0,0,0,0: width and height must be at least 1");
    g_clear_error (&err);
    copy[3] = 1;
    copy[20 + 11] = 8;
    fail_if (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID,
        "HELLO region is 0,0,8,0 without the region flag");
    g_clear_error (&err);
    copy[20 + 11] = 0;
    /* truncated: a HELLO of version 6 (20 bytes) */
    fail_if (gst_tile_wire_hello_parse (copy, 20, &hello_out, &err));
    check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, "region x");
    g_clear_error (&err);
    copy[3] = 1;
    copy[0] = 0x80;
    fail_if (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "flags is 0x80000001");
    g_clear_error (&err);
    g_free (copy);

    hello.flags = 16;
    g_byte_array_set_size (msg, 0);
    fail_if (gst_tile_wire_hello_pack (&hello, msg, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "flags is 0x00000010");
    g_clear_error (&err);
    fail_unless_equals_int (msg->len, 0);
    hello.flags = 0;
    fail_unless (gst_tile_wire_hello_pack (&hello, msg, &err));
    payload = split_message (msg, GST_TILE_WIRE_TYPE_HELLO, &len);
    fail_unless_equals_int (len, 36);
    fail_unless (memcmp (payload, "\0\0\0\0", 4) == 0);
    fail_unless (memcmp (payload + 4, hello.nonce, sizeof (hello.nonce)) == 0);

    /* a region: the flag, then x, y, width, height */
    {
      static const guint8 region[16] = {
        0, 0, 0x03, 0xc0, 0, 0, 0x02, 0x1c, 0, 0, 0x03, 0xc0, 0, 0, 0x02, 0x1c
      };
      GstTileWireRegion r = { 960, 540, 960, 540 };

      hello.flags = GST_TILE_WIRE_HELLO_FLAG_REGION;
      hello.region = r;
      g_byte_array_set_size (msg, 0);
      fail_unless (gst_tile_wire_hello_pack (&hello, msg, &err));
      payload = split_message (msg, GST_TILE_WIRE_TYPE_HELLO, &len);
      fail_unless_equals_int (len, 36);
      fail_unless (memcmp (payload, "\0\0\0\2", 4) == 0);
      fail_unless (memcmp (payload + 20, region, 16) == 0);
      copy = exact_copy (payload, len);
      memset (&hello_out, 0xaa, sizeof (hello_out));
      fail_unless (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
      fail_unless_equals_int (hello_out.flags,
          GST_TILE_WIRE_HELLO_FLAG_REGION);
      fail_unless (memcmp (&hello_out.region, &r, sizeof (r)) == 0);
      /* edges past the largest size caps can say */
      GST_WRITE_UINT32_BE (copy + 20, G_MAXINT);
      fail_if (gst_tile_wire_hello_parse (copy, len, &hello_out, &err));
      check_error (err, GST_TILE_WIRE_ERROR_INVALID,
          "x + width and y + height at most 2147483647");
      g_clear_error (&err);
      g_free (copy);
      hello.region.width = 0;
      g_byte_array_set_size (msg, 0);
      fail_if (gst_tile_wire_hello_pack (&hello, msg, &err));
      check_error (err, GST_TILE_WIRE_ERROR_INVALID, "HELLO region is");
      g_clear_error (&err);
      fail_unless_equals_int (msg->len, 0);
      memset (&hello.region, 0, sizeof (hello.region));
      hello.flags = 0;
    }
  }

  /* CHALLENGE: the sender's nonce, then its CPace share */
  {
    GstTileWireChallenge ch, ch_out;
    guint8 *copy;

    for (i = 0; i < sizeof (ch.nonce); i++)
      ch.nonce[i] = 0x10 + i;
    for (i = 0; i < sizeof (ch.share); i++)
      ch.share[i] = 0xa0 + i;
    g_byte_array_set_size (msg, 0);
    fail_unless (gst_tile_wire_challenge_pack (&ch, msg));
    fail_unless_equals_int (msg->len, GST_TILE_WIRE_HEADER_SIZE + 48);
    fail_unless_equals_int (read_be (msg->data + 6, 2),
        GST_TILE_WIRE_TYPE_CHALLENGE);
    fail_unless_equals_int (read_be (msg->data + 8, 4), 48);
    payload = split_message (msg, GST_TILE_WIRE_TYPE_CHALLENGE, &len);
    fail_unless_equals_int (len, 48);
    for (i = 0; i < 16; i++)
      fail_unless_equals_int (payload[i], 0x10 + i);
    for (i = 0; i < 32; i++)
      fail_unless_equals_int (payload[16 + i], 0xa0 + i);
    copy = exact_copy (payload, len);
    memset (&ch_out, 0, sizeof (ch_out));
    fail_unless (gst_tile_wire_challenge_parse (copy, len, &ch_out, &err));
    fail_unless (memcmp (&ch_out, &ch, sizeof (ch)) == 0);
    /* the layout of version 5 (a salt and a nonce) is refused */
    fail_if (gst_tile_wire_challenge_parse (copy, 32, &ch_out, &err));
    check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, "share");
    g_clear_error (&err);
    g_free (copy);
  }

  /* AUTH: the share, then the proof */
  {
    GstTileWireAuth auth, auth_out;
    guint8 *copy;

    for (i = 0; i < sizeof (auth.share); i++)
      auth.share[i] = 0x33 + i;
    for (i = 0; i < sizeof (auth.proof); i++)
      auth.proof[i] = 0x55 ^ (i * 13);
    g_byte_array_set_size (msg, 0);
    fail_unless (gst_tile_wire_auth_pack (&auth, msg));
    fail_unless_equals_int (msg->len, GST_TILE_WIRE_HEADER_SIZE + 64);
    fail_unless_equals_int (read_be (msg->data + 6, 2),
        GST_TILE_WIRE_TYPE_AUTH);
    fail_unless_equals_int (read_be (msg->data + 8, 4), 64);
    payload = split_message (msg, GST_TILE_WIRE_TYPE_AUTH, &len);
    fail_unless_equals_int (len, 64);
    fail_unless (memcmp (payload, auth.share, sizeof (auth.share)) == 0);
    fail_unless (memcmp (payload + 32, auth.proof, sizeof (auth.proof)) == 0);
    copy = exact_copy (payload, len);
    memset (&auth_out, 0, sizeof (auth_out));
    fail_unless (gst_tile_wire_auth_parse (copy, len, &auth_out, &err));
    fail_unless (memcmp (&auth_out, &auth, sizeof (auth)) == 0);
    g_free (copy);
  }

  /* UNIT_HELLO: token, generation, unit, then the cookie */
  g_byte_array_set_size (msg, 0);
  for (i = 0; i < sizeof (uh.cookie); i++)
    uh.cookie[i] = 0xe0 + i;
  fail_unless (gst_tile_wire_unit_hello_pack (&uh, msg, &err));
  payload = split_message (msg, GST_TILE_WIRE_TYPE_UNIT_HELLO, &len);
  fail_unless_equals_int (len, 14 + GST_TILE_WIRE_COOKIE_SIZE +
      GST_TILE_WIRE_UNIT_MAC_SIZE);
  fail_unless_equals_int (GST_TILE_WIRE_COOKIE_SIZE, 20);
  fail_unless_equals_int (GST_TILE_WIRE_UNIT_MAC_SIZE, 16);
  fail_unless_equals_uint64 (read_be (payload, 8),
      G_GUINT64_CONSTANT (0xfeedfacecafebeef));
  fail_unless_equals_int (read_be (payload + 8, 4), 42);
  fail_unless_equals_int (read_be (payload + 12, 2), 63);
  fail_unless (memcmp (payload + 14, uh.cookie, sizeof (uh.cookie)) == 0);
  fail_unless (gst_tile_wire_unit_hello_parse (payload, len, &uh_out, &err));
  fail_unless_equals_uint64 (uh_out.token, uh.token);
  fail_unless_equals_int (uh_out.generation, 42);
  fail_unless_equals_int (uh_out.unit, 63);
  fail_unless (memcmp (uh_out.cookie, uh.cookie, sizeof (uh.cookie)) == 0);
  /* a UNIT_HELLO of version 5 (no cookie) is truncated */
  fail_if (gst_tile_wire_unit_hello_parse (payload, 14, &uh_out, &err));
  check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, "cookie");
  g_clear_error (&err);
  uh.unit = 64;
  g_byte_array_set_size (msg, 0);
  fail_if (gst_tile_wire_unit_hello_pack (&uh, msg, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "unit is 64");
  g_clear_error (&err);

  /* PATH: a UNIT_HELLO's payload, its unit the path, below 8 */
  uh.unit = 7;
  g_byte_array_set_size (msg, 0);
  fail_unless (gst_tile_wire_path_pack (&uh, msg, &err));
  payload = split_message (msg, GST_TILE_WIRE_TYPE_PATH, &len);
  fail_unless_equals_int (len, 14 + GST_TILE_WIRE_COOKIE_SIZE +
      GST_TILE_WIRE_UNIT_MAC_SIZE);
  fail_unless_equals_int (read_be (payload + 12, 2), 7);
  fail_unless (gst_tile_wire_path_parse (payload, len, &uh_out, &err));
  fail_unless_equals_uint64 (uh_out.token, uh.token);
  fail_unless_equals_int (uh_out.unit, 7);
  fail_unless (memcmp (uh_out.mac, uh.mac, sizeof (uh.mac)) == 0);
  fail_if (gst_tile_wire_path_parse (payload, len - 1, &uh_out, &err));
  check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, "PATH");
  g_clear_error (&err);
  ((guint8 *) payload)[13] = 8;
  fail_if (gst_tile_wire_path_parse (payload, len, &uh_out, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "PATH path is 8, must be "
      "below 8");
  g_clear_error (&err);
  uh.unit = GST_TILE_WIRE_MAX_PATHS;
  g_byte_array_set_size (msg, 0);
  fail_if (gst_tile_wire_path_pack (&uh, msg, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "path is 8");
  g_clear_error (&err);
  fail_unless_equals_int (msg->len, 0);

  g_byte_array_set_size (msg, 0);
  fail_unless (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT,
          "unit 9 does not exist: the session has 8 tiles (ünïcödé)", msg,
          &err));
  payload = split_message (msg, GST_TILE_WIRE_TYPE_REFUSE, &len);
  fail_unless (gst_tile_wire_refuse_parse (payload, len, refuse, &err));
  fail_unless_equals_int (refuse->code, GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT);
  fail_unless_equals_string (refuse->reason,
      "unit 9 does not exist: the session has 8 tiles (ünïcödé)");
  g_byte_array_set_size (msg, 0);
  fail_unless (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_BUSY, NULL, msg,
          &err));
  payload = split_message (msg, GST_TILE_WIRE_TYPE_REFUSE, &len);
  fail_unless_equals_int (len, 6);
  fail_unless (gst_tile_wire_refuse_parse (payload, len, refuse, &err));
  fail_unless_equals_int (refuse->code, GST_TILE_WIRE_REFUSE_BUSY);
  fail_unless_equals_string (refuse->reason, "");
  /* the wrong passphrase */
  g_byte_array_set_size (msg, 0);
  fail_unless_equals_int (GST_TILE_WIRE_REFUSE_UNAUTHORIZED, 6);
  fail_unless (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_UNAUTHORIZED,
          "the passphrase does not match", msg, &err));
  payload = split_message (msg, GST_TILE_WIRE_TYPE_REFUSE, &len);
  fail_unless_equals_int (read_be (payload, 4), 6);
  fail_unless (gst_tile_wire_refuse_parse (payload, len, refuse, &err));
  fail_unless_equals_int (refuse->code, GST_TILE_WIRE_REFUSE_UNAUTHORIZED);
  fail_unless_equals_string (refuse->reason, "the passphrase does not match");
  fail_unless_equals_string (gst_tile_net_refuse_code_name
      (GST_TILE_WIRE_REFUSE_UNAUTHORIZED), "unauthorized");

  g_byte_array_set_size (msg, 0);
  gst_tile_wire_eos_pack (msg);
  payload = split_message (msg, GST_TILE_WIRE_TYPE_EOS, &len);
  fail_unless_equals_int (len, 0);
  fail_unless (gst_tile_wire_eos_parse (NULL, 0, &err));
  fail_if (gst_tile_wire_eos_parse ((const guint8 *) "x", 1, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "1 unexpected trailing");
  g_clear_error (&err);

  g_byte_array_set_size (msg, 0);
  gst_tile_wire_keepalive_pack (G_GUINT64_CONSTANT (123456789012345), msg);
  payload = split_message (msg, GST_TILE_WIRE_TYPE_KEEPALIVE, &len);
  fail_unless_equals_int (len, 8);
  fail_unless (gst_tile_wire_keepalive_parse (payload, len, &t, &err));
  fail_unless_equals_uint64 (t, G_GUINT64_CONSTANT (123456789012345));

  /* one byte short and one byte long */
  fail_if (gst_tile_wire_keepalive_parse (payload, len - 1, &t, &err));
  check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, "time");
  g_clear_error (&err);
  g_byte_array_append (msg, (const guint8 *) "", 1);
  payload = msg->data + GST_TILE_WIRE_HEADER_SIZE;
  fail_if (gst_tile_wire_keepalive_parse (payload, len + 1, &t, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "KEEPALIVE payload is 9");
  g_clear_error (&err);

  {
    GstTileWireTime q = { G_GUINT64_CONSTANT (0x0102030405060708),
      GST_CLOCK_TIME_NONE
    }, a = { 5, G_GUINT64_CONSTANT (77000000000) }, got;
    static const guint8 want[16] = { 1, 2, 3, 4, 5, 6, 7, 8,
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
    };

    /* a query: GstNetTimePacket's layout, the remote time unknown */
    g_byte_array_set_size (msg, 0);
    gst_tile_wire_time_pack (&q, msg);
    payload = split_message (msg, GST_TILE_WIRE_TYPE_TIME, &len);
    fail_unless_equals_int (len, 16);
    fail_unless (memcmp (payload, want, 16) == 0);
    fail_unless (gst_tile_wire_time_parse (payload, len, &got, &err));
    fail_unless_equals_uint64 (got.local_time, q.local_time);
    fail_unless_equals_uint64 (got.remote_time, GST_CLOCK_TIME_NONE);
    fail_if (gst_tile_wire_time_parse (payload, len - 1, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, "remote time");
    g_clear_error (&err);
    /* an answer */
    g_byte_array_set_size (msg, 0);
    gst_tile_wire_time_pack (&a, msg);
    payload = split_message (msg, GST_TILE_WIRE_TYPE_TIME, &len);
    fail_unless (gst_tile_wire_time_parse (payload, len, &got, &err));
    fail_unless_equals_uint64 (got.local_time, 5);
    fail_unless_equals_uint64 (got.remote_time, a.remote_time);
    /* a query must say when it was sent */
    q.local_time = GST_CLOCK_TIME_NONE;
    g_byte_array_set_size (msg, 0);
    gst_tile_wire_time_pack (&q, msg);
    payload = split_message (msg, GST_TILE_WIRE_TYPE_TIME, &len);
    fail_if (gst_tile_wire_time_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "local time");
    g_clear_error (&err);
  }

  {
    GstTileWireAck ack =
        { 7, 5, TRUE, G_GUINT64_CONSTANT (0xfedcba9876543210), TRUE, 1234,
      1200, G_GUINT64_CONSTANT (27600000), -G_GINT64_CONSTANT (5000000000)
    };
    GstTileWireAck got;

    g_byte_array_set_size (msg, 0);
    gst_tile_wire_ack_pack (&ack, msg);
    payload = split_message (msg, GST_TILE_WIRE_TYPE_ACK, &len);
    fail_unless_equals_int (len, 44);
    fail_unless (gst_tile_wire_ack_parse (payload, len, &got, &err));
    fail_unless_equals_int (got.generation, 7);
    fail_unless_equals_int (got.window, 5);
    fail_unless (got.has_frame);
    fail_unless_equals_uint64 (got.frame,
        G_GUINT64_CONSTANT (0xfedcba9876543210));
    fail_unless (got.has_feedback);
    fail_unless_equals_int (got.received, 1234);
    fail_unless_equals_int (got.spanned, 1200);
    fail_unless_equals_uint64 (got.receive_ns, 27600000);
    /* negative: the receiver's clock behind the sender's */
    fail_unless_equals_int64 (got.delay_ns, -G_GINT64_CONSTANT (5000000000));
    fail_unless_equals_string (gst_tile_wire_type_get_name
        (GST_TILE_WIRE_TYPE_ACK), "ACK");
    fail_if (gst_tile_wire_ack_parse (payload, len - 1, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, "delay_ns");
    g_clear_error (&err);
    /* more datagrams spanned than received */
    GST_WRITE_UINT32_BE (msg->data + GST_TILE_WIRE_HEADER_SIZE + 24, 1235);
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "spanned is 1235");
    g_clear_error (&err);
    GST_WRITE_UINT32_BE (msg->data + GST_TILE_WIRE_HEADER_SIZE + 24, 1200);
    /* a receive time over an hour */
    memset (msg->data + GST_TILE_WIRE_HEADER_SIZE + 28, 0xff, 8);
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "more than an hour");
    g_clear_error (&err);
    /* feedback fields without the feedback flag */
    memset (msg->data + GST_TILE_WIRE_HEADER_SIZE + 28, 0, 8);
    msg->data[GST_TILE_WIRE_HEADER_SIZE + 11] = 1;
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "no feedback flag");
    g_clear_error (&err);
    /* feedback without a frame */
    msg->data[GST_TILE_WIRE_HEADER_SIZE + 11] = 2;
    memset (msg->data + GST_TILE_WIRE_HEADER_SIZE + 12, 0, 8);
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "feedback but no frame");
    g_clear_error (&err);
    /* without feedback the fields go out as 0 */
    ack.has_feedback = FALSE;
    g_byte_array_set_size (msg, 0);
    gst_tile_wire_ack_pack (&ack, msg);
    payload = split_message (msg, GST_TILE_WIRE_TYPE_ACK, &len);
    fail_unless (gst_tile_wire_ack_parse (payload, len, &got, &err));
    fail_if (got.has_feedback);
    fail_unless_equals_int (got.received, 0);
    fail_unless_equals_int (got.spanned, 0);
    fail_unless_equals_uint64 (got.receive_ns, 0);
    fail_unless_equals_int64 (got.delay_ns, 0);
    /* unknown flags */
    msg->data[GST_TILE_WIRE_HEADER_SIZE + 8] = 0x80;
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "unknown bits");
    g_clear_error (&err);
    /* a frame number without its flag */
    msg->data[GST_TILE_WIRE_HEADER_SIZE + 8] = 0;
    msg->data[GST_TILE_WIRE_HEADER_SIZE + 11] = 0;
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "no frame flag");
    g_clear_error (&err);
    /* the window alone, before any frame is done */
    ack.has_frame = FALSE;
    g_byte_array_set_size (msg, 0);
    gst_tile_wire_ack_pack (&ack, msg);
    payload = split_message (msg, GST_TILE_WIRE_TYPE_ACK, &len);
    fail_unless (gst_tile_wire_ack_parse (payload, len, &got, &err));
    fail_if (got.has_frame);
    fail_unless_equals_uint64 (got.frame, 0);
    /* a window of 0 frames would stop the sender for good */
    memset (msg->data + GST_TILE_WIRE_HEADER_SIZE + 4, 0, 4);
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "window is 0");
    g_clear_error (&err);
  }

  {
    /* feedback per path (bit 2): striped datagrams */
    GstTileWireAck ack = { 7, 5, TRUE, 99, TRUE, 1000, 990, 20000000, 300000,
      2, {{0, 700, 695, 19000000, 310000}, {3, 300, 296, 20000000, -5}}
    };
    GstTileWireAck got;
    guint8 *p;

    g_byte_array_set_size (msg, 0);
    gst_tile_wire_ack_pack (&ack, msg);
    payload = split_message (msg, GST_TILE_WIRE_TYPE_ACK, &len);
    fail_unless_equals_int (len, 44 + 4 + 2 * 28);
    fail_unless_equals_int (payload[11], 7);
    fail_unless (gst_tile_wire_ack_parse (payload, len, &got, &err));
    fail_unless_equals_int (got.n_paths, 2);
    fail_unless_equals_int (got.paths[0].path, 0);
    fail_unless_equals_int (got.paths[0].received, 700);
    fail_unless_equals_int (got.paths[0].spanned, 695);
    fail_unless_equals_uint64 (got.paths[0].receive_ns, 19000000);
    fail_unless_equals_int64 (got.paths[0].delay_ns, 310000);
    fail_unless_equals_int (got.paths[1].path, 3);
    fail_unless_equals_int (got.paths[1].received, 300);
    fail_unless_equals_int64 (got.paths[1].delay_ns, -5);
    /* truncated in the second path */
    fail_if (gst_tile_wire_ack_parse (payload, len - 1, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, "path delay_ns");
    g_clear_error (&err);
    p = (guint8 *) payload;
    /* the same path twice */
    GST_WRITE_UINT32_BE (p + 44 + 4 + 28, 0);
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "given twice");
    g_clear_error (&err);
    /* out of range */
    GST_WRITE_UINT32_BE (p + 44 + 4 + 28, GST_TILE_WIRE_MAX_PATHS);
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "out of range");
    g_clear_error (&err);
    GST_WRITE_UINT32_BE (p + 44 + 4 + 28, 3);
    /* a path's spanned above its received */
    GST_WRITE_UINT32_BE (p + 44 + 4 + 28 + 8, 301);
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "301 datagrams spanned");
    g_clear_error (&err);
    GST_WRITE_UINT32_BE (p + 44 + 4 + 28 + 8, 296);
    /* more over the paths than received */
    GST_WRITE_UINT32_BE (p + 44 + 4 + 28 + 4, 301);
    GST_WRITE_UINT32_BE (p + 44 + 4 + 28 + 8, 0);
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "more than the 1000");
    g_clear_error (&err);
    GST_WRITE_UINT32_BE (p + 44 + 4 + 28 + 4, 300);
    /* no path, or more than the most */
    GST_WRITE_UINT32_BE (p + 44, 0);
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "feedback of 0 paths");
    g_clear_error (&err);
    GST_WRITE_UINT32_BE (p + 44, GST_TILE_WIRE_MAX_PATHS + 1);
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "feedback of 9 paths");
    g_clear_error (&err);
    GST_WRITE_UINT32_BE (p + 44, 2);
    fail_unless (gst_tile_wire_ack_parse (payload, len, &got, &err));
    /* per-path feedback without feedback */
    p[11] = 5;
    memset (p + 20, 0, 24);
    fail_if (gst_tile_wire_ack_parse (payload, len, &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "per path but no feedback");
    g_clear_error (&err);
    /* without feedback, no paths go out */
    ack.has_feedback = FALSE;
    g_byte_array_set_size (msg, 0);
    gst_tile_wire_ack_pack (&ack, msg);
    payload = split_message (msg, GST_TILE_WIRE_TYPE_ACK, &len);
    fail_unless_equals_int (len, 44);
  }

  fail_unless (err == NULL);
  g_free (refuse);
  g_byte_array_unref (msg);
}

GST_END_TEST;

/* A sender's caps are checked as a string first: what gst_caps_to_string()
 * writes for video caps passes; features, nested or untyped values, a
 * second structure and names the process does not know are refused, and
 * nothing is interned. */
GST_START_TEST (test_caps_check)
{
  static const gchar *const good[] = {
    "video/x-bc, format=(string)BC1, width=(int)3840, height=(int)2160, "
        "framerate=(fraction)60/1, pixel-aspect-ratio=(fraction)1/1",
    "video/x-raw, format=(string)GRAY8, width=(int)1920, height=(int)540, "
        "framerate=(fraction)60/1, multiview-mode=(string)mono, "
        "interlace-mode=(string)progressive, "
        "multiview-flags=(GstVideoMultiviewFlagsSet)0:ffffffff:/right-view-"
        "first/left-flipped",
  };
  static const struct
  {
    const gchar *caps, *needle;
  } bad[] = {
    {"video/x-raw(memory:GLMemory), format=(string)RGBA",
        "followed by byte 0x28"},
    {"video/x-bc, format=BC1", "value without a type"},
    {"video/x-bc, views=(structure)\"a, b=(int)1;\"", "type 'structure'"},
    {"video/x-bc, width=(int)4; video/x-raw, width=(int)4",
        "second structure"},
    {"video/x-bc, width=(int)[ 1, 4 ]", "list, array or range"},
    {"video/x-bc, tilewire-caps-unknown=(int)1",
        "field name 'tilewire-caps-unknown'"},
    {"tilewire-caps-unknown/x-raw, width=(int)1",
        "structure name 'tilewire-caps-unknown/x-raw'"},
  };
  GError *err = NULL;
  guint i;

  gst_tile_wire_caps_know_names ();
  for (i = 0; i < G_N_ELEMENTS (good); i++)
    fail_unless (gst_tile_wire_caps_check (good[i], &err), "%s: %s", good[i],
        err ? err->message : "");
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    fail_if (gst_tile_wire_caps_check (bad[i].caps, &err), "%s", bad[i].caps);
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, bad[i].needle);
    fail_unless (g_str_has_prefix (err->message, "CONFIG caps "), "%s",
        err->message);
    g_clear_error (&err);
  }
  fail_unless (g_quark_try_string ("tilewire-caps-unknown") == 0);
  fail_unless (g_quark_try_string ("tilewire-caps-unknown/x-raw") == 0);
}

GST_END_TEST;

GST_START_TEST (test_stats)
{
  GByteArray *msg = g_byte_array_new ();
  GError *err = NULL;
  GstStructure *s, *out = NULL;
  const guint8 *payload;
  gsize len;
  GString *big;
  guint i;

  s = gst_structure_new ("tilesrc-stats",
      "frames-received", G_TYPE_UINT64, G_GUINT64_CONSTANT (1000),
      "latency-p50", G_TYPE_DOUBLE, 4.25,
      "receive-buffer-size", G_TYPE_INT, 16777216,
      "note", G_TYPE_STRING, "a \"quoted\" string, with commas (and "
      "parentheses) \\ (structure)", "rate", GST_TYPE_FRACTION, 30, 1,
      "ok", G_TYPE_BOOLEAN, TRUE, NULL);
  fail_unless (gst_tile_wire_stats_pack (s, msg, &err));
  payload = split_message (msg, GST_TILE_WIRE_TYPE_STATS, &len);
  fail_unless (gst_tile_wire_stats_parse (payload, len, &out, &err));
  fail_unless (err == NULL);
  fail_unless (gst_structure_is_equal (s, out));
  gst_structure_free (out);
  out = NULL;

  /* one byte short and one byte long */
  fail_if (gst_tile_wire_stats_parse (payload, len - 1, &out, &err));
  check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, "structure");
  g_clear_error (&err);
  g_byte_array_append (msg, (const guint8 *) " ", 1);
  payload = msg->data + GST_TILE_WIRE_HEADER_SIZE;
  fail_if (gst_tile_wire_stats_parse (payload, len + 1, &out, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "trailing");
  g_clear_error (&err);
  fail_unless (out == NULL);

  /* structures that do not parse, or parse with something after them */
  /* names the receiving process knows */
  g_quark_from_static_string ("this");
  g_quark_from_static_string ("stats");
  g_quark_from_static_string ("a");
  g_quark_from_static_string ("n");
  for (i = 0; i < 14; i++) {
    const gchar *bad[] = { "this is = not a structure",
      "stats, a=(int)1; garbage", "stats, n=(int)notanumber",
      /* names and types GStreamer 1.22 answers with a critical */
      "", "3tats, a=(int)1", "\"3tats\", a=(int)1",
      "stats, a=(structure)\"3x;\"", "stats, a=(GstCaps)\"3x\"",
      "stats, a=( GstStructure )\"3x;\", n=(int)1",
      "stats, a=(int){ 1, x }",
      /* names the process does not know yet */
      "tilewire-unknown-structure, a=(int)1",
      "stats, a=(int)1, tilewire-unknown-field=(int)2",
      "stats, a=(string)\"x, y\",tilewire-unknown-field=(int)2",
      /* an untyped value: GStreamer 1.22 guesses, with a g_warning for "" */
      "stats, a=\"\""
    };
    const gchar *needle[] = { "value without a type at offset 10",
      "second structure at offset 15",
      "does not parse", "starts with byte 0x00", "starts with byte 0x33",
      "starts with byte 0x22", "type 'structure' at offset 9",
      "type 'GstCaps'", "type 'GstStructure' at offset 9",
      "list, array or range ('{') at offset 14",
      "structure name 'tilewire-unknown-structure' at offset 0 is not a name "
          "this process knows",
      "field name 'tilewire-unknown-field' at offset 17",
      "field name 'tilewire-unknown-field' at offset 24",
      "value without a type at offset 9"
    };
    guint8 *p = g_malloc (2 + strlen (bad[i]));

    write_be (p, strlen (bad[i]), 2);
    memcpy (p + 2, bad[i], strlen (bad[i]));
    fail_if (gst_tile_wire_stats_parse (p, 2 + strlen (bad[i]), &out, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, needle[i]);
    g_clear_error (&err);
    fail_unless (out == NULL);
    g_free (p);
  }

  /* too long, on both sides */
  big = g_string_new (NULL);
  for (i = 0; i < GST_TILE_WIRE_MAX_STATS; i++)
    g_string_append_c (big, 'a' + i % 26);
  gst_structure_set (s, "big", G_TYPE_STRING, big->str, NULL);
  g_byte_array_set_size (msg, 0);
  fail_if (gst_tile_wire_stats_pack (s, msg, &err));
  check_error (err, GST_TILE_WIRE_ERROR_OVERSIZED, "limit is 16384");
  g_clear_error (&err);
  fail_unless_equals_int (msg->len, 0);
  {
    guint8 *p = g_malloc0 (2 + GST_TILE_WIRE_MAX_STATS + 1);

    write_be (p, GST_TILE_WIRE_MAX_STATS + 1, 2);
    fail_if (gst_tile_wire_stats_parse (p, 2 + GST_TILE_WIRE_MAX_STATS + 1,
            &out, &err));
    check_error (err, GST_TILE_WIRE_ERROR_OVERSIZED, "16385");
    g_clear_error (&err);
    g_free (p);
  }

  g_string_free (big, TRUE);
  gst_structure_free (s);
  g_byte_array_unref (msg);
}

GST_END_TEST;

GST_START_TEST (test_refuse_invalid)
{
  GByteArray *msg = g_byte_array_new ();
  GstTileWireRefuse *refuse = g_new0 (GstTileWireRefuse, 1);
  GError *err = NULL;
  gchar *reason = g_strnfill (GST_TILE_WIRE_MAX_REASON + 1, 'x');
  guint8 *p;
  gsize n;

  fail_if (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_OTHER, reason, msg,
          &err));
  check_error (err, GST_TILE_WIRE_ERROR_OVERSIZED, "reason is 1025 bytes");
  g_clear_error (&err);
  fail_unless_equals_int (msg->len, 0);
  reason[GST_TILE_WIRE_MAX_REASON] = '\0';
  fail_unless (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_OTHER, reason,
          msg, &err));
  fail_if (gst_tile_wire_refuse_pack (7, "x", msg, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "code is 7, must be 0 to 6");
  g_clear_error (&err);
  fail_if (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_OTHER, "\xff\xfe",
          msg, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "UTF-8");
  g_clear_error (&err);

  /* received: too long, unknown code, NUL, not UTF-8 */
  n = 6 + GST_TILE_WIRE_MAX_REASON + 1;
  p = g_malloc0 (n);
  write_be (p + 4, GST_TILE_WIRE_MAX_REASON + 1, 2);
  memset (p + 6, 'x', GST_TILE_WIRE_MAX_REASON + 1);
  fail_if (gst_tile_wire_refuse_parse (p, n, refuse, &err));
  check_error (err, GST_TILE_WIRE_ERROR_OVERSIZED, "1025");
  g_clear_error (&err);
  write_be (p + 4, GST_TILE_WIRE_MAX_REASON, 2);
  fail_unless (gst_tile_wire_refuse_parse (p, n - 1, refuse, &err));
  fail_unless_equals_int (strlen (refuse->reason), GST_TILE_WIRE_MAX_REASON);
  write_be (p, GST_TILE_WIRE_REFUSE_UNAUTHORIZED, 4);
  fail_unless (gst_tile_wire_refuse_parse (p, n - 1, refuse, &err));
  fail_unless_equals_int (refuse->code, GST_TILE_WIRE_REFUSE_UNAUTHORIZED);
  write_be (p, 7, 4);
  fail_if (gst_tile_wire_refuse_parse (p, n - 1, refuse, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "code is 7, must be 0 to 6");
  g_clear_error (&err);
  write_be (p, 0x10000, 4);
  fail_if (gst_tile_wire_refuse_parse (p, n - 1, refuse, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "code is 65536");
  g_clear_error (&err);
  write_be (p, 0, 4);
  p[10] = 0;
  fail_if (gst_tile_wire_refuse_parse (p, n - 1, refuse, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "NUL byte at offset 4");
  g_clear_error (&err);
  p[10] = 0xc3;
  fail_if (gst_tile_wire_refuse_parse (p, n - 1, refuse, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "UTF-8");
  g_clear_error (&err);
  /* reason length pointing past the payload */
  write_be (p + 4, 10, 2);
  fail_if (gst_tile_wire_refuse_parse (p, 12, refuse, &err));
  check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, "reason");
  g_clear_error (&err);

  g_free (p);
  g_free (reason);
  g_free (refuse);
  g_byte_array_unref (msg);
}

GST_END_TEST;

GST_START_TEST (test_config_tilings)
{
  GstTileWireConfig *c = g_new0 (GstTileWireConfig, 1);
  GstBcTiling *tiling = g_new0 (GstBcTiling, 1);
  GstBcTiling *check = g_new0 (GstBcTiling, 1);
  GstBcInfo info;
  GError *err = NULL;
  struct
  {
    guint width, height, units, n_tiles;
  } cases[] = {
    {1920, 1080, 8, 8},
    {30, 26, 3, 3},
    {1, 1, 64, 1},
    {3840, 2160, 64, 64},
    {64, 16, 8, 4},
  };
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    fail_unless (gst_bc_info_set_format (&info, GST_BC_FORMAT_BC1,
            cases[i].width, cases[i].height));
    fail_unless (gst_bc_tiling_init_for_info (tiling, &info, cases[i].units));
    memset (c, 0, sizeof (*c));
    c->token = g_random_int ();
    c->generation = i;
    c->chunk_size = 1408;
    fail_unless (gst_tile_wire_config_set_tiling (c, tiling, &err));
    fail_unless (gst_tile_wire_config_set_caps (c, "video/x-bc", &err));
    fail_unless_equals_int (c->n_units, cases[i].units);
    fail_unless_equals_int (c->n_tiles, cases[i].n_tiles);
    fail_unless_equals_uint64 (c->frame_size, info.size);
    for (j = 0; j < c->n_tiles; j++) {
      fail_unless_equals_uint64 (c->tiles[j].offset, tiling->tiles[j].offset);
      fail_unless_equals_uint64 (c->tiles[j].size, tiling->tiles[j].size);
    }
    fail_unless (gst_tile_wire_config_validate (c, &err));
    config_round_trip (c);
    fail_unless (gst_tile_wire_config_check_tiling (c, check, &err));
    fail_unless (memcmp (check, tiling, sizeof (*check)) == 0);
    fail_unless (gst_tile_wire_config_check_tiling (c, NULL, &err));
  }

  /* raw RGBA: pixel rows, over UDP */
  make_config (c, 1080, 1920 * 4, 7);
  c->protocol = GST_TILE_WIRE_PROTOCOL_UDP;
  c->packet_size = 1408;
  config_round_trip (c);
  fail_unless (gst_tile_wire_config_check_tiling (c, NULL, &err));

  /* the smallest and largest UDP payloads per datagram */
  c->packet_size = 1;
  config_round_trip (c);
  c->packet_size = GST_TILE_WIRE_MAX_PACKET_PAYLOAD;
  fail_unless_equals_int (c->packet_size + GST_TILE_WIRE_PACKET_HEADER_SIZE,
      GST_TILE_WIRE_MAX_UDP_PACKET);
  config_round_trip (c);

  /* the largest payload: 64 tiles and the longest caps */
  make_config (c, 4096, 16, 64);
  memset (c->caps, 'c', GST_TILE_WIRE_MAX_CAPS);
  c->caps[GST_TILE_WIRE_MAX_CAPS] = '\0';
  config_round_trip (c);

  /* valid, but not the tiling gst_bc_tiling_init() makes: 2, 2, 3 rows */
  make_config (c, 7, 64, 3);
  c->tiles[0].size = 128;
  c->tiles[1].offset = 128;
  c->tiles[1].size = 128;
  c->tiles[2].offset = 256;
  c->tiles[2].size = 192;
  fail_unless (gst_tile_wire_config_validate (c, &err));
  config_round_trip (c);
  fail_if (gst_tile_wire_config_check_tiling (c, NULL, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID,
      "tile 0 is (offset 0, size 128)" ", the tiling has (offset 0, size 192)");
  g_clear_error (&err);
  /* fewer tiles than the tiling makes */
  make_config (c, 8, 64, 4);
  c->n_tiles = 2;
  c->tiles[0].size = 256;
  c->tiles[1].offset = 256;
  c->tiles[1].size = 256;
  fail_unless (gst_tile_wire_config_validate (c, &err));
  fail_if (gst_tile_wire_config_check_tiling (c, NULL, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "n_tiles is 2");
  g_clear_error (&err);

  /* set_tiling refuses more than 64 units */
  fail_unless (gst_bc_tiling_init (tiling, 100, 8, 65));
  fail_if (gst_tile_wire_config_set_tiling (c, tiling, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "n_units is 65");
  g_clear_error (&err);

  g_free (check);
  g_free (tiling);
  g_free (c);
}

GST_END_TEST;

/* The CONFIG of the invalid-config tests (7 rows of 64 bytes in 3 tiles:
 * 192, 128, 128) in @good, and a copy to break in @c, reset by RESET () */
static void
config_invalid_setup (GstTileWireConfig ** good, GstTileWireConfig ** c)
{
  *good = g_new0 (GstTileWireConfig, 1);
  *c = g_new0 (GstTileWireConfig, 1);
  make_config (*good, 7, 64, 3);
}

#define RESET() memcpy (c, good, sizeof (*c))

/* UDP multicast: the group and port travel in CONFIG, IPv4 and IPv6;
 * anything but a group of its family, a port for every tile and
 * protocol udp is refused, packing and parsing. */
GST_START_TEST (test_config_multicast)
{
  GstTileWireConfig *good, *c;
  static const guint8 v4[4] = { 239, 255, 1, 2 };
  static const guint8 v6[16] = { 0xff, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0x12, 0x34
  };

  config_invalid_setup (&good, &c);
  good->protocol = GST_TILE_WIRE_PROTOCOL_UDP;
  good->packet_size = 1408;
  good->mcast_family = 4;
  memcpy (good->mcast_addr, v4, 4);
  good->mcast_port = 7001;
  config_round_trip (good);
  /* a group secret (in a sealed CONFIG) travels with a group */
  RESET ();
  memset (c->group_secret, 0x5c, sizeof (c->group_secret));
  config_round_trip (c);
  c->mcast_family = 0;
  c->mcast_port = 0;
  memset (c->mcast_addr, 0, sizeof (c->mcast_addr));
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "group secret but no multicast family");
  RESET ();
  c->mcast_family = 6;
  memcpy (c->mcast_addr, v6, 16);
  config_round_trip (c);
  /* the last tile's port is 65535 at most */
  RESET ();
  c->mcast_port = 65536 - c->n_tiles;
  config_round_trip (c);
  c->mcast_port++;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "multicast port 65534 leaves no port for each of its 3 tiles");
  RESET ();
  c->mcast_port = 0;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "multicast port 0");
  RESET ();
  c->mcast_addr[0] = 192;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "not an IPv4 multicast group");
  RESET ();
  c->mcast_addr[5] = 1;         /* past the 4 bytes of IPv4 */
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "not an IPv4 multicast group");
  RESET ();
  c->mcast_family = 6;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "not an IPv6 multicast group");
  RESET ();
  c->mcast_family = 5;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "multicast family is 5");
  RESET ();
  c->mcast_family = 0;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "no multicast family");
  RESET ();
  c->protocol = GST_TILE_WIRE_PROTOCOL_TCP;
  c->packet_size = 0;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "multicast group but protocol tcp");
  g_free (good);
  g_free (c);
}

GST_END_TEST;

GST_START_TEST (test_config_invalid_fields)
{
  GstTileWireConfig *good, *c;

  config_invalid_setup (&good, &c);
  RESET ();
  c->n_units = 0;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID, "n_units is 0");
  RESET ();
  c->n_units = 65;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID, "n_units is 65");
  RESET ();
  c->n_units = 2;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "n_tiles is 3, must be 1 to n_units (2)");
  RESET ();
  c->n_tiles = 0;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID, "n_tiles is 0");
  RESET ();
  c->protocol = 2;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID, "protocol is 2");
  RESET ();
  c->packet_size = 1400;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "packet_size is 1400, must be 0 for tcp");
  RESET ();
  c->protocol = GST_TILE_WIRE_PROTOCOL_UDP;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "packet_size is 0, must be 1 to 65459 for udp");
  RESET ();
  c->protocol = GST_TILE_WIRE_PROTOCOL_UDP;
  c->packet_size = GST_TILE_WIRE_MAX_PACKET_PAYLOAD + 1;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "packet_size is 65460, must be 1 to 65459 for udp (a 48-byte datagram "
      "header plus the payload must fit in 65507 bytes)");
  RESET ();
  c->protocol = GST_TILE_WIRE_PROTOCOL_UDP;
  c->packet_size = GST_TILE_WIRE_MAX_UDP_PACKET;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "packet_size is 65507, must be 1 to 65459");
  RESET ();
  c->chunk_size = 0;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID, "chunk_size is 0");
  RESET ();
  c->frame_size = 0;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID, "frame_size is 0");
  RESET ();
  c->n_rows = 1 << 20;
  c->row_bytes = 1025;
  c->frame_size = (guint64) c->n_rows * c->row_bytes;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "frame_size is 1074790400, must be 1 to 1073741824");
  RESET ();
  c->frame_size += 64;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "row_bytes 64 is 448, but frame_size is 512");
  RESET ();
  /* n_rows * row_bytes = 2^31 * 2^33 = 2^64 */
  c->n_rows = 1u << 31;
  c->row_bytes = G_GUINT64_CONSTANT (1) << 33;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "n_rows 2147483648 * row_bytes 8589934592 overflows 64 bits");
  RESET ();
  c->n_rows = 0;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID, "n_rows is 0");
  RESET ();
  c->row_bytes = 0;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID, "row_bytes 0");

  g_free (c);
  g_free (good);
}

GST_END_TEST;

GST_START_TEST (test_config_invalid_tiles)
{
  GstTileWireConfig *good, *c;

  config_invalid_setup (&good, &c);
  /* tiles: a gap, an overlap, not a row multiple, empty, too few bytes,
   * past the end */
  RESET ();
  c->tiles[1].offset += 64;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "tile 1 offset is 256, expected 192");
  RESET ();
  c->tiles[2].offset -= 64;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "tile 2 offset is 256, expected 320");
  RESET ();
  c->tiles[0].size = 191;
  c->tiles[1].offset = 191;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "tile 0 size is 191, must be a non-zero multiple of row_bytes 64");
  RESET ();
  c->tiles[1].size = 0;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "tile 1 size is 0");
  RESET ();
  c->tiles[2].size = 64;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "tiles sum to 384 bytes, frame_size is 448");
  RESET ();
  c->tiles[2].size = 192;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "tile 2 (offset 320, size 192) ends past frame_size 448");
  RESET ();
  c->tiles[2].size = G_GUINT64_CONSTANT (1) << 63;
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID,
      "ends past frame_size");

  g_free (c);
  g_free (good);
}

GST_END_TEST;

/* The caps of a CONFIG: empty, with a NUL, too long; every truncation */
GST_START_TEST (test_config_invalid_caps)
{
  GstTileWireConfig *good, *c;
  GstTileWireConfig *parsed = g_new0 (GstTileWireConfig, 1);
  GByteArray *payload = g_byte_array_new ();
  GError *err = NULL;
  gchar *caps;
  guint8 *copy;
  gsize i;

  config_invalid_setup (&good, &c);
  /* caps: empty */
  RESET ();
  c->caps[0] = '\0';
  config_expect_error (c, TRUE, GST_TILE_WIRE_ERROR_INVALID, "caps is empty");

  /* caps: an embedded NUL (only possible on the wire) */
  raw_config_payload (good, "video/x-bc\0evil", 15, payload);
  copy = exact_copy (payload->data, payload->len);
  fail_if (gst_tile_wire_config_parse (copy, payload->len, parsed, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "caps contains a NUL byte "
      "at offset 10 of 15");
  g_clear_error (&err);
  g_free (copy);

  /* caps: too long, on the wire and when set */
  caps = g_strnfill (GST_TILE_WIRE_MAX_CAPS + 1, 'c');
  g_byte_array_set_size (payload, 0);
  raw_config_payload (good, caps, GST_TILE_WIRE_MAX_CAPS + 1, payload);
  copy = exact_copy (payload->data, payload->len);
  fail_if (gst_tile_wire_config_parse (copy, payload->len, parsed, &err));
  check_error (err, GST_TILE_WIRE_ERROR_OVERSIZED, "caps length is 8193");
  g_clear_error (&err);
  g_free (copy);
  RESET ();
  fail_if (gst_tile_wire_config_set_caps (c, caps, &err));
  check_error (err, GST_TILE_WIRE_ERROR_OVERSIZED, "caps is 8193 bytes");
  g_clear_error (&err);
  /* a caps array without its NUL */
  memset (c->caps, 'c', sizeof (c->caps));
  {
    GByteArray *msg = g_byte_array_new ();

    fail_if (gst_tile_wire_config_pack (c, msg, &err));
    check_error (err, GST_TILE_WIRE_ERROR_OVERSIZED, "longer than 8192");
    g_clear_error (&err);
    g_byte_array_unref (msg);
  }
  g_free (caps);

  /* every truncation, and one byte long */
  g_byte_array_set_size (payload, 0);
  raw_config_payload (good, good->caps, strlen (good->caps), payload);
  for (i = 0; i < payload->len; i++) {
    copy = exact_copy (payload->data, i);
    fail_if (gst_tile_wire_config_parse (copy, i, parsed, &err));
    check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, NULL);
    g_clear_error (&err);
    g_free (copy);
  }
  g_byte_array_append (payload, (const guint8 *) "x", 1);
  copy = exact_copy (payload->data, payload->len);
  fail_if (gst_tile_wire_config_parse (copy, payload->len, parsed, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "1 unexpected trailing byte");
  g_clear_error (&err);
  fail_unless (gst_tile_wire_config_parse (copy, payload->len - 1, parsed,
          &err));
  check_config_equal (good, parsed);
  g_free (copy);
  g_byte_array_unref (payload);
  g_free (parsed);
  g_free (c);
  g_free (good);
}

GST_END_TEST;

#undef RESET

/* Parses @len bytes at @payload as the payload of a HELLO, UNIT_HELLO,
 * REFUSE, CHALLENGE or AUTH, as @type says */
static gboolean
parse_payload (GstTileWireType type, const guint8 * payload, gsize len,
    GError ** err)
{
  GstTileWireHello hello;
  GstTileWireUnitHello uh;
  GstTileWireChallenge ch;
  GstTileWireAuth auth;
  GstTileWireRefuse *refuse;
  gboolean ok;

  switch (type) {
    case GST_TILE_WIRE_TYPE_HELLO:
      return gst_tile_wire_hello_parse (payload, len, &hello, err);
    case GST_TILE_WIRE_TYPE_UNIT_HELLO:
      return gst_tile_wire_unit_hello_parse (payload, len, &uh, err);
    case GST_TILE_WIRE_TYPE_REFUSE:
      refuse = g_new0 (GstTileWireRefuse, 1);
      ok = gst_tile_wire_refuse_parse (payload, len, refuse, err);
      g_free (refuse);
      return ok;
    case GST_TILE_WIRE_TYPE_CHALLENGE:
      return gst_tile_wire_challenge_parse (payload, len, &ch, err);
    case GST_TILE_WIRE_TYPE_AUTH:
      return gst_tile_wire_auth_parse (payload, len, &auth, err);
    default:
      fail ("no parser for message type %d", type);
      return FALSE;
  }
}

/* Every length short of the payload of @msg, a message of @type, fails to
 * parse as truncated, the error naming @name */
static void
check_truncations (GByteArray * msg, GstTileWireType type, const gchar * name)
{
  const guint8 *payload;
  gsize len, i;

  payload = split_message (msg, type, &len);
  for (i = 0; i < len; i++) {
    guint8 *copy = exact_copy (payload, i);
    GError *err = NULL;

    fail_if (parse_payload (type, copy, i, &err));
    check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, name);
    g_clear_error (&err);
    g_free (copy);
  }
}

GST_START_TEST (test_truncated_payloads)
{
  static const GstTileWireType types[5] = { GST_TILE_WIRE_TYPE_HELLO,
    GST_TILE_WIRE_TYPE_UNIT_HELLO, GST_TILE_WIRE_TYPE_REFUSE,
    GST_TILE_WIRE_TYPE_CHALLENGE, GST_TILE_WIRE_TYPE_AUTH
  };
  /* every message one byte short, and every short length of it */
  GByteArray *msgs[5] = { g_byte_array_new (), g_byte_array_new (),
    g_byte_array_new (), g_byte_array_new (), g_byte_array_new ()
  };
  GstTileWireHello hello = { GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE, {1, 2, 3} };
  GstTileWireUnitHello uh = { 1, 2, 3 };
  GstTileWireChallenge ch = { {4, 5, 6}, {7, 8, 9} };
  GstTileWireAuth auth = { {10, 11, 12} };
  guint k;

  fail_unless (gst_tile_wire_hello_pack (&hello, msgs[0], NULL));
  check_truncations (msgs[0], GST_TILE_WIRE_TYPE_HELLO, "HELLO");
  fail_unless (gst_tile_wire_challenge_pack (&ch, msgs[3]));
  check_truncations (msgs[3], GST_TILE_WIRE_TYPE_CHALLENGE, "CHALLENGE");
  fail_unless (gst_tile_wire_auth_pack (&auth, msgs[4]));
  check_truncations (msgs[4], GST_TILE_WIRE_TYPE_AUTH, "AUTH");
  fail_unless (gst_tile_wire_unit_hello_pack (&uh, msgs[1], NULL));
  check_truncations (msgs[1], GST_TILE_WIRE_TYPE_UNIT_HELLO, "UNIT_HELLO");
  fail_unless (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN,
          "token 5 is not the session's", msgs[2], NULL));
  check_truncations (msgs[2], GST_TILE_WIRE_TYPE_REFUSE, "REFUSE");

  /* every message one byte long */
  g_byte_array_set_size (msgs[2], 0);
  fail_unless (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_OTHER, "no",
          msgs[2], NULL));
  for (k = 0; k < G_N_ELEMENTS (msgs); k++) {
    gsize n = msgs[k]->len - GST_TILE_WIRE_HEADER_SIZE + 1;
    guint8 *copy = g_malloc0 (n);
    GError *err = NULL;

    memcpy (copy, msgs[k]->data + GST_TILE_WIRE_HEADER_SIZE, n - 1);
    fail_if (parse_payload (types[k], copy, n, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "1 unexpected trailing");
    g_clear_error (&err);
    g_free (copy);
    g_byte_array_unref (msgs[k]);
  }
}

GST_END_TEST;

/* balanced tiles: 48-byte headers with the tile's rows in the frame */
GST_START_TEST (test_tile_header_balanced)
{
  guint8 buf[GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED];
  GstTileWireTileHeader h = { 3, 77, 1000, 2000, 3840, 0, 100, 2 };
  GstTileWireTileHeader out, head;
  GError *err = NULL;

  /* rows 100-101 of 1080 rows of 1920 bytes: a 3840-byte tile */
  gst_tile_wire_tile_header_write_balanced (buf, &h);
  fail_unless_equals_int (read_be (buf + 40, 4), 100);
  fail_unless_equals_int (read_be (buf + 44, 4), 2);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse_balanced (buf,
          sizeof (buf), 1080, 1920, NULL, 0, &out, &err),
      GST_TILE_WIRE_PARSE_OK);
  fail_unless (memcmp (&out, &h, sizeof (h)) == 0);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse_balanced (buf,
          sizeof (buf) - 1, 1080, 1920, NULL, 0, &out, &err),
      GST_TILE_WIRE_PARSE_NEED_MORE);
  /* the size must be the rows' */
  h.size = 1920;
  gst_tile_wire_tile_header_write_balanced (buf, &h);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse_balanced (buf,
          sizeof (buf), 1080, 1920, NULL, 0, &out, &err),
      GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "3840 bytes of the tile");
  g_clear_error (&err);
  /* parts: the first with more, the next repeating its rows */
  h.flags = GST_TILE_WIRE_TILE_FLAG_MORE;
  gst_tile_wire_tile_header_write_balanced (buf, &h);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse_balanced (buf,
          sizeof (buf), 1080, 1920, NULL, 0, &head, &err),
      GST_TILE_WIRE_PARSE_OK);
  h.flags = 0;
  gst_tile_wire_tile_header_write_balanced (buf, &h);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse_balanced (buf,
          sizeof (buf), 1080, 1920, &head, 1920, &out, &err),
      GST_TILE_WIRE_PARSE_OK);
  h.first_row = 101;
  gst_tile_wire_tile_header_write_balanced (buf, &h);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse_balanced (buf,
          sizeof (buf), 1080, 1920, &head, 1920, &out, &err),
      GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "inside a tile of rows "
      "100+2");
  g_clear_error (&err);
  /* rows past the frame, and their sum overflowing */
  h.first_row = 1079;
  h.size = 3840;
  gst_tile_wire_tile_header_write_balanced (buf, &h);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse_balanced (buf,
          sizeof (buf), 1080, 1920, NULL, 0, &out, &err),
      GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "the frame has 1080");
  g_clear_error (&err);
  h.first_row = 2;
  h.rows = G_MAXUINT32;
  gst_tile_wire_tile_header_write_balanced (buf, &h);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse_balanced (buf,
          sizeof (buf), G_MAXUINT32, 1920, NULL, 0, &out, &err),
      GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "the frame has");
  g_clear_error (&err);
  /* a tile larger than 4 GiB */
  h.first_row = 0;
  h.rows = 3;
  gst_tile_wire_tile_header_write_balanced (buf, &h);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse_balanced (buf,
          sizeof (buf), 1080, G_GUINT64_CONSTANT (1) << 31, NULL, 0, &out,
          &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_OVERSIZED, "at most");
  g_clear_error (&err);
  /* no rows: one part of no bytes without flags */
  h.rows = 0;
  h.size = 0;
  h.flags = 0;
  gst_tile_wire_tile_header_write_balanced (buf, &h);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse_balanced (buf,
          sizeof (buf), 1080, 1920, NULL, 0, &out, &err),
      GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_int (out.rows, 0);
  fail_unless_equals_int (out.size, 0);
  buf[35] = 1;                  /* size 1 */
  fail_unless_equals_int (gst_tile_wire_tile_header_parse_balanced (buf,
          sizeof (buf), 1080, 1920, NULL, 0, &out, &err),
      GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "0 rows has size 1");
  g_clear_error (&err);
  buf[35] = 0;
  buf[39] = GST_TILE_WIRE_TILE_FLAG_MORE;
  fail_unless_equals_int (gst_tile_wire_tile_header_parse_balanced (buf,
          sizeof (buf), 1080, 1920, NULL, 0, &out, &err),
      GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "0 rows");
  g_clear_error (&err);
}

GST_END_TEST;

GST_START_TEST (test_tile_header)
{
  guint8 buf[GST_TILE_WIRE_TILE_HEADER_SIZE];
  GstTileWireTileHeader h = { 3, G_GUINT64_CONSTANT (1) << 40,
    GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE, 518400, 0
  };
  GstTileWireTileHeader out;
  GError *err = NULL;
  gsize i;

  gst_tile_wire_tile_header_write (buf, &h);
  fail_unless (memcmp (buf, "GSBT", 4) == 0);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          518400, &out, &err), GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_int (out.generation, 3);
  fail_unless_equals_uint64 (out.frame, G_GUINT64_CONSTANT (1) << 40);
  fail_unless_equals_uint64 (out.timestamp, GST_CLOCK_TIME_NONE);
  fail_unless_equals_int (out.size, 518400);
  fail_unless_equals_int (out.flags, 0);

  fail_unless_equals_uint64 (out.capture, GST_CLOCK_TIME_NONE);

  h.timestamp = 123 * GST_SECOND;
  h.capture = 77 * GST_SECOND + 5;
  gst_tile_wire_tile_header_write (buf, &h);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          518400, &out, &err), GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_uint64 (out.timestamp, 123 * GST_SECOND);
  fail_unless_equals_uint64 (out.capture, 77 * GST_SECOND + 5);
  fail_unless_equals_int (out.size, 518400);

  for (i = 0; i < GST_TILE_WIRE_TILE_HEADER_SIZE; i++) {
    guint8 *copy = exact_copy (buf, i);

    fail_unless_equals_int (gst_tile_wire_tile_header_parse (copy, i, 518400,
            &out, &err), GST_TILE_WIRE_PARSE_NEED_MORE);
    fail_unless (err == NULL);
    g_free (copy);
  }

  /* the last part of a tile brings exactly what is left of it */
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          518399, &out, &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID,
      "size is 518400 bytes as its last part, 518399 bytes of the tile are "
      "left");
  g_clear_error (&err);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          518401, &out, &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "518401 bytes of the tile");
  g_clear_error (&err);

  /* a part with more to come: at least a byte, less than what is left */
  h.flags = GST_TILE_WIRE_TILE_FLAG_MORE;
  h.size = 65536;
  gst_tile_wire_tile_header_write (buf, &h);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          518400, &out, &err), GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_int (out.size, 65536);
  fail_unless_equals_int (out.flags, GST_TILE_WIRE_TILE_FLAG_MORE);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          65537, &out, &err), GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          65536, &out, &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID,
      "size is 65536 bytes with more to come, 65536 bytes of the tile are left");
  g_clear_error (&err);
  write_be (buf + 32, 0, 4);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          518400, &out, &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "size is 0 bytes");
  g_clear_error (&err);

  /* an abandon: no data, whatever is left */
  h.flags = GST_TILE_WIRE_TILE_FLAG_ABANDON;
  h.size = 0;
  gst_tile_wire_tile_header_write (buf, &h);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          518400, &out, &err), GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_int (out.size, 0);
  fail_unless_equals_int (out.flags, GST_TILE_WIRE_TILE_FLAG_ABANDON);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          1, &out, &err), GST_TILE_WIRE_PARSE_OK);
  write_be (buf + 32, 1, 4);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          518400, &out, &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID,
      "flags is 0x00000002: says ABANDON with data");
  g_clear_error (&err);

  write_be (buf + 36, 3, 4);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          518400, &out, &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "both MORE and ABANDON");
  g_clear_error (&err);

  write_be (buf + 36, 0x80, 4);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          518400, &out, &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_INVALID,
      "flags is 0x00000080: has unknown bits");
  g_clear_error (&err);

  /* a control header where a tile header belongs */
  gst_tile_wire_header_write (buf, GST_TILE_WIRE_TYPE_KEEPALIVE, 8);
  fail_unless_equals_int (gst_tile_wire_tile_header_parse (buf, sizeof (buf),
          518400, &out, &err), GST_TILE_WIRE_PARSE_ERROR);
  check_error (err, GST_TILE_WIRE_ERROR_BAD_MAGIC, "0x47534243");
  g_clear_error (&err);
}

GST_END_TEST;

GST_START_TEST (test_packet_header)
{
  guint8 buf[GST_TILE_WIRE_PACKET_HEADER_SIZE];
  GstTileWirePacketHeader h = { 5, 0x01020304, 0x05060708,
    G_GUINT64_CONSTANT (0x1112131415161718),
    G_GUINT64_CONSTANT (0x2122232425262728),
    G_GUINT64_CONSTANT (0x4142434445464748),
    G_GUINT64_CONSTANT (0x3132333435363738)
  };
  static const guint8 expected[GST_TILE_WIRE_PACKET_HEADER_SIZE] = {
    'G', 'S', 'B', 'U', 7, 0, 0x00, 0x05,
    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
    0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
    0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
    0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
    0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38
  };
  GstTileWirePacketHeader out;
  GError *err = NULL;
  guint8 *copy;
  gsize i;

  /* the layout, byte for byte */
  gst_tile_wire_packet_header_write (buf, &h);
  fail_unless (memcmp (buf, expected, sizeof (buf)) == 0);
  fail_unless_equals_int (read_be (buf, 4), GST_TILE_WIRE_PACKET_MAGIC);
  copy = exact_copy (buf, sizeof (buf));
  fail_unless_equals_int (gst_tile_wire_packet_header_parse (copy, sizeof (buf),
          &out, &err), GST_TILE_WIRE_PARSE_OK);
  fail_unless (err == NULL);
  fail_unless_equals_int (out.unit, 5);
  fail_unless_equals_int (out.generation, 0x01020304);
  fail_unless_equals_int (out.offset, 0x05060708);
  fail_unless_equals_uint64 (out.frame,
      G_GUINT64_CONSTANT (0x1112131415161718));
  fail_unless_equals_uint64 (out.timestamp,
      G_GUINT64_CONSTANT (0x2122232425262728));
  fail_unless_equals_uint64 (out.capture,
      G_GUINT64_CONSTANT (0x4142434445464748));
  fail_unless_equals_uint64 (out.token,
      G_GUINT64_CONSTANT (0x3132333435363738));
  g_free (copy);

  /* every field at its bounds */
  {
    GstTileWirePacketHeader bounds[] = {
      {0, 0, 0, 0, 0, 0, 0},
      {GST_TILE_WIRE_MAX_UNITS - 1, G_MAXUINT32, G_MAXUINT32, G_MAXUINT64,
          GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE, G_MAXUINT64},
      {1, 1, 1, 1, 1, 1, 1},
      {32, G_MAXUINT32 - 1, G_MAXUINT32 - 1, G_MAXUINT64 - 1,
          G_MAXUINT64 - 1, G_MAXUINT64 - 2, G_MAXUINT64 - 1},
    };

    for (i = 0; i < G_N_ELEMENTS (bounds); i++) {
      memset (&out, 0xaa, sizeof (out));
      gst_tile_wire_packet_header_write (buf, &bounds[i]);
      fail_unless_equals_int (buf[4], GST_TILE_WIRE_VERSION);
      fail_unless_equals_int (buf[5], 0);
      fail_unless_equals_int (gst_tile_wire_packet_header_parse (buf,
              sizeof (buf), &out, &err), GST_TILE_WIRE_PARSE_OK);
      fail_unless (err == NULL);
      fail_unless_equals_int (out.unit, bounds[i].unit);
      fail_unless_equals_uint64 (out.generation, bounds[i].generation);
      fail_unless_equals_uint64 (out.offset, bounds[i].offset);
      fail_unless_equals_uint64 (out.frame, bounds[i].frame);
      fail_unless_equals_uint64 (out.timestamp, bounds[i].timestamp);
      fail_unless_equals_uint64 (out.capture, bounds[i].capture);
      fail_unless_equals_uint64 (out.token, bounds[i].token);
    }
  }

  /* a whole datagram: only the header is read */
  {
    guint8 *dgram = g_malloc0 (GST_TILE_WIRE_PACKET_HEADER_SIZE + 1400);

    gst_tile_wire_packet_header_write (dgram, &h);
    fail_unless_equals_int (gst_tile_wire_packet_header_parse (dgram,
            GST_TILE_WIRE_PACKET_HEADER_SIZE + 1400, &out, &err),
        GST_TILE_WIRE_PARSE_OK);
    fail_unless_equals_int (out.offset, h.offset);
    g_free (dgram);
  }

  /* truncated at every length */
  gst_tile_wire_packet_header_write (buf, &h);
  for (i = 0; i < GST_TILE_WIRE_PACKET_HEADER_SIZE; i++) {
    copy = exact_copy (buf, i);
    fail_unless_equals_int (gst_tile_wire_packet_header_parse (copy, i, &out,
            &err), GST_TILE_WIRE_PARSE_NEED_MORE);
    fail_unless (err == NULL);
    g_free (copy);
  }
  fail_unless_equals_int (gst_tile_wire_packet_header_parse (NULL, 0, &out,
          &err), GST_TILE_WIRE_PARSE_NEED_MORE);

#define EXPECT_ERROR(code, needle) G_STMT_START { \
    copy = exact_copy (buf, sizeof (buf)); \
    fail_unless_equals_int (gst_tile_wire_packet_header_parse (copy, \
            sizeof (buf), &out, &err), GST_TILE_WIRE_PARSE_ERROR); \
    check_error (err, code, needle); \
    g_clear_error (&err); \
    fail_unless_equals_int (gst_tile_wire_packet_header_parse (copy, \
            sizeof (buf), &out, NULL), GST_TILE_WIRE_PARSE_ERROR); \
    g_free (copy); \
    gst_tile_wire_packet_header_write (buf, &h); } G_STMT_END

  write_be (buf, 0x47534256, 4);
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_BAD_MAGIC,
      "datagram header magic is 0x47534256, expected 0x47534255 (\"GSBU\")");
  /* the other magics of the protocol are not datagrams */
  write_be (buf, GST_TILE_WIRE_TILE_MAGIC, 4);
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_BAD_MAGIC, "magic is 0x47534254");
  gst_tile_wire_header_write (buf, GST_TILE_WIRE_TYPE_KEEPALIVE, 8);
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_BAD_MAGIC, "magic is 0x47534243");
  buf[4] = 2;
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION,
      "datagram header version is 2, this side speaks version 7");
  buf[4] = 0;
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION, "version is 0");
  buf[4] = 255;
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION, "version is 255");
  buf[5] = 2;
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_INVALID,
      "datagram header flags is 0x02, must be 0 or 0x01");
  buf[5] = 0x80;
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_INVALID, "flags is 0x80");
  buf[5] = 0x81;
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_INVALID, "flags is 0x81");
  /* parity: a group span and a parity count of 1 at least, 256 together
   * at most */
  buf[5] = GST_TILE_WIRE_PACKET_FLAG_PARITY;
  write_be (buf + 12, 0x0000ffff, 4);
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_INVALID,
      "parity datagram group span is 0 and parity count 0");
  buf[5] = GST_TILE_WIRE_PACKET_FLAG_PARITY;
  write_be (buf + 12, 0x01000000, 4);
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_INVALID, "parity count 0");
  buf[5] = GST_TILE_WIRE_PACKET_FLAG_PARITY;
  write_be (buf + 12, 0x00010000, 4);
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_INVALID, "group span is 0");
  buf[5] = GST_TILE_WIRE_PACKET_FLAG_PARITY;
  write_be (buf + 12, 0xff020000, 4);
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_INVALID,
      "group span is 255 and parity count 2");
  /* a valid one: its flag and layout come back */
  buf[5] = GST_TILE_WIRE_PACKET_FLAG_PARITY;
  write_be (buf + 12, 0xfe020005, 4);
  fail_unless_equals_int (gst_tile_wire_packet_header_parse (buf,
          sizeof (buf), &out, &err), GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_int (out.flags, GST_TILE_WIRE_PACKET_FLAG_PARITY);
  fail_unless_equals_int (out.offset, 0xfe020005);
  gst_tile_wire_packet_header_write (buf, &h);
  fail_unless_equals_int (gst_tile_wire_packet_header_parse (buf,
          sizeof (buf), &out, &err), GST_TILE_WIRE_PARSE_OK);
  fail_unless_equals_int (out.flags, 0);
  write_be (buf + 6, 64, 2);
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_INVALID,
      "datagram header unit is 64, must be below 64");
  write_be (buf + 6, 0xffff, 2);
  EXPECT_ERROR (GST_TILE_WIRE_ERROR_INVALID, "unit is 65535");
#undef EXPECT_ERROR
}

GST_END_TEST;

GST_START_TEST (test_packet_check)
{
  GstTileWireConfig *c = g_new0 (GstTileWireConfig, 1);
  GstTileWirePacketHeader h = { 0, 7, 0, 0, GST_CLOCK_TIME_NONE,
    GST_CLOCK_TIME_NONE, G_GUINT64_CONSTANT (0x0123456789abcdef)
  };
  GError *err = NULL;
  guint i;

  /* 7 rows of 64 bytes in 3 tiles: 192, 128, 128 bytes */
  make_config (c, 7, 64, 3);
  c->protocol = GST_TILE_WIRE_PROTOCOL_UDP;
  c->packet_size = 40;
  fail_unless (gst_tile_wire_config_validate (c, NULL));
  fail_unless_equals_uint64 (c->tiles[0].size, 192);
  fail_unless_equals_uint64 (c->tiles[2].size, 128);

  /* every packet of every tile; the last one of a tile is padded */
  for (i = 0; i < c->n_tiles; i++) {
    guint32 n = gst_tile_wire_packets_per_tile (c->tiles[i].size,
        c->packet_size);
    guint32 k;

    fail_unless_equals_int (n, i == 0 ? 5 : 4);
    h.unit = i;
    for (k = 0; k < n; k++) {
      h.offset = k * c->packet_size;
      fail_unless (gst_tile_wire_packet_check (&h, c, &err));
      fail_unless (err == NULL);
    }
    h.offset = n * c->packet_size;
    fail_if (gst_tile_wire_packet_check (&h, c, NULL));
  }

#define EXPECT_ERROR(needle) G_STMT_START { \
    fail_if (gst_tile_wire_packet_check (&h, c, &err)); \
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, needle); \
    g_clear_error (&err); \
    fail_if (gst_tile_wire_packet_check (&h, c, NULL)); \
    h.unit = 0; h.generation = 7; h.offset = 0; \
    h.token = c->token; } G_STMT_END

  /* anyone who did not see the CONFIG: the token is not named */
  h.token = c->token ^ 1;
  EXPECT_ERROR ("datagram token is not the session token of the CONFIG");
  h.token = 0;
  EXPECT_ERROR ("datagram token is not the session token of the CONFIG");
  h.unit = 3;
  EXPECT_ERROR ("datagram unit is 3, the CONFIG has 3 tiles");
  h.unit = GST_TILE_WIRE_MAX_UNITS - 1;
  EXPECT_ERROR ("datagram unit is 63, the CONFIG has 3 tiles");
  h.generation = 6;
  EXPECT_ERROR ("datagram generation is 6, the CONFIG generation is 7");
  h.generation = 8;
  EXPECT_ERROR ("datagram generation is 8, the CONFIG generation is 7");
  h.offset = 1;
  EXPECT_ERROR ("datagram offset is 1, not a multiple of packet_size 40");
  h.offset = 79;
  EXPECT_ERROR ("datagram offset is 79, not a multiple of packet_size 40");
  /* tile 0 is 192 bytes: its last packet starts at 160 */
  h.offset = 200;
  EXPECT_ERROR ("datagram offset is 200, tile 0 is 192 bytes");
  h.unit = 1;
  h.offset = 160;
  EXPECT_ERROR ("datagram offset is 160, tile 1 is 128 bytes");
  h.offset = G_MAXUINT32 - G_MAXUINT32 % 40;
  EXPECT_ERROR ("tile 0 is 192 bytes");

  /* parity of tile 0 (5 datagrams, 3 parity at most): every one of a
   * valid layout passes, its index past the layout's parity, a layout
   * beyond the tile or with too much parity do not */
  h.flags = GST_TILE_WIRE_PACKET_FLAG_PARITY;
  for (i = 0; i < 3; i++) {
    /* span 2: 3 groups of one parity */
    h.offset = gst_tile_wire_parity_offset (2, 1, i);
    fail_unless (gst_tile_wire_packet_check (&h, c, &err));
    fail_unless (err == NULL);
  }
  h.offset = gst_tile_wire_parity_offset (2, 1, 3);
  EXPECT_ERROR ("parity datagram index is 3, tile 0 has 3 parity datagrams");
  h.flags = GST_TILE_WIRE_PACKET_FLAG_PARITY;
  h.offset = gst_tile_wire_parity_offset (5, 3, 2);
  fail_unless (gst_tile_wire_packet_check (&h, c, NULL));
  h.offset = gst_tile_wire_parity_offset (5, 4, 0);
  EXPECT_ERROR ("4 parity datagrams for a tile of 5 datagrams, at most 3");
  h.flags = GST_TILE_WIRE_PACKET_FLAG_PARITY;
  h.offset = gst_tile_wire_parity_offset (6, 1, 0);
  EXPECT_ERROR ("parity group span is 6, the tile has 5 datagrams");
  h.flags = GST_TILE_WIRE_PACKET_FLAG_PARITY;
  h.offset = gst_tile_wire_parity_offset (1, 1, 0);
  EXPECT_ERROR ("5 parity datagrams for a tile of 5 datagrams, at most 3");
  /* (a parity datagram's token, unit and generation are checked too) */
  h.flags = GST_TILE_WIRE_PACKET_FLAG_PARITY;
  h.offset = gst_tile_wire_parity_offset (2, 1, 0);
  h.token ^= 1;
  EXPECT_ERROR ("datagram token is not the session token of the CONFIG");
  h.flags = 0;
#undef EXPECT_ERROR

  /* packet_size dividing the tile: no padded packet, offset == size is out */
  c->packet_size = 64;
  h.unit = 0;
  h.offset = 128;
  fail_unless (gst_tile_wire_packet_check (&h, c, NULL));
  h.offset = 192;
  fail_if (gst_tile_wire_packet_check (&h, c, NULL));
  /* one packet for the whole tile */
  c->packet_size = GST_TILE_WIRE_MAX_PACKET_PAYLOAD;
  h.offset = 0;
  fail_unless (gst_tile_wire_packet_check (&h, c, NULL));
  h.offset = GST_TILE_WIRE_MAX_PACKET_PAYLOAD;
  fail_if (gst_tile_wire_packet_check (&h, c, NULL));

  g_free (c);
}

GST_END_TEST;

GST_START_TEST (test_packets_per_tile)
{
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (0, 1), 0);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (0, 1400), 0);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (1, 1), 1);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (1, 1400), 1);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (1399, 1400), 1);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (1400, 1400), 1);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (1401, 1400), 2);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (2800, 1400), 2);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (2801, 1400), 3);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (7, 1), 7);
  /* 1080p BC1 in 8 tiles: 1036800 / 8 bytes per tile */
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (129600, 1408), 93);
  /* the largest frame in one tile */
  fail_unless_equals_int (gst_tile_wire_packets_per_tile
      (GST_TILE_WIRE_MAX_FRAME_SIZE, 1), 1u << 30);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile
      (GST_TILE_WIRE_MAX_FRAME_SIZE, GST_TILE_WIRE_MAX_PACKET_PAYLOAD), 16404);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile
      (GST_TILE_WIRE_MAX_FRAME_SIZE - 1, GST_TILE_WIRE_MAX_PACKET_PAYLOAD),
      16404);
  /* no overflow in the rounding */
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (G_MAXUINT32,
          G_MAXUINT32), 1);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile
      ((guint64) G_MAXUINT32 + 1, G_MAXUINT32), 2);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile ((guint64) G_MAXUINT32
          * G_MAXUINT32, G_MAXUINT32), G_MAXUINT32);
  fail_unless_equals_int (gst_tile_wire_packets_per_tile (G_MAXUINT32, 1),
      G_MAXUINT32);
}

GST_END_TEST;

/* A UDP CONFIG the random datagrams are checked against. */
static const GstTileWireConfig *
packet_config (void)
{
  static GstTileWireConfig config;

  if (config.n_tiles == 0) {
    make_config (&config, 7, 64, 3);
    config.protocol = GST_TILE_WIRE_PROTOCOL_UDP;
    config.packet_size = 16;
  }
  return &config;
}

/* Feeds @data to every parser; whatever they return must be consistent. */
static void
feed_all (const guint8 * data, gsize len)
{
  guint8 *copy = exact_copy (data, len);
  GstTileWireHeader h;
  GstTileWireTileHeader th;
  GstTileWirePacketHeader ph;
  GstTileWireHello hello;
  GstTileWireUnitHello uh;
  static GstTileWireRefuse refuse;
  static GstTileWireConfig config;
  GstStructure *s = NULL;
  GError *err = NULL;
  GstTileWireParseResult res;
  guint64 t;
  gboolean ok;

#define CHECK_RESULT(ok) G_STMT_START { \
    if (ok) { \
      fail_unless (err == NULL); \
    } else { \
      fail_unless (err != NULL && err->domain == GST_TILE_WIRE_ERROR); \
      g_clear_error (&err); \
    } } G_STMT_END

  res = gst_tile_wire_header_parse (copy, len, &h, &err);
  CHECK_RESULT (res != GST_TILE_WIRE_PARSE_ERROR);
  if (res == GST_TILE_WIRE_PARSE_OK)
    fail_unless (h.payload_len <= GST_TILE_WIRE_MAX_PAYLOAD);
  res = gst_tile_wire_tile_header_parse (copy, len, 1024, &th, &err);
  CHECK_RESULT (res != GST_TILE_WIRE_PARSE_ERROR);
  if (res == GST_TILE_WIRE_PARSE_OK) {
    if (th.flags == GST_TILE_WIRE_TILE_FLAG_ABANDON)
      fail_unless (th.size == 0);
    else if (th.flags == GST_TILE_WIRE_TILE_FLAG_MORE)
      fail_unless (th.size >= 1 && th.size < 1024);
    else
      fail_unless (th.flags == 0 && th.size == 1024);
  }
  res = gst_tile_wire_packet_header_parse (copy, len, &ph, &err);
  CHECK_RESULT (res != GST_TILE_WIRE_PARSE_ERROR);
  if (res == GST_TILE_WIRE_PARSE_OK) {
    const GstTileWireConfig *pc = packet_config ();

    fail_unless (ph.unit < GST_TILE_WIRE_MAX_UNITS);
    ok = gst_tile_wire_packet_check (&ph, pc, &err);
    CHECK_RESULT (ok);
    fail_unless_equals_int (ok, gst_tile_wire_packet_check (&ph, pc, NULL));
    if (ok)
      fail_unless (ph.unit < pc->n_tiles && ph.generation == pc->generation
          && ph.token == pc->token && ph.offset % pc->packet_size == 0
          && ph.offset < pc->tiles[ph.unit].size);
  } else {
    fail_unless (res == GST_TILE_WIRE_PARSE_ERROR
        || len < GST_TILE_WIRE_PACKET_HEADER_SIZE);
  }

  ok = gst_tile_wire_hello_parse (copy, len, &hello, &err);
  CHECK_RESULT (ok);
  if (ok)
    fail_unless (len == 36
        && (hello.flags & ~(GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE |
                GST_TILE_WIRE_HELLO_FLAG_REGION |
                GST_TILE_WIRE_HELLO_FLAG_BALANCE |
                GST_TILE_WIRE_HELLO_FLAG_REDUNDANT)) == 0
        && memcmp (hello.nonce, copy + 4, sizeof (hello.nonce)) == 0
        && ((hello.flags & GST_TILE_WIRE_HELLO_FLAG_REGION) ?
            hello.region.width > 0 && hello.region.height > 0 :
            hello.region.width == 0 && hello.region.x == 0));
  {
    GstTileWireChallenge ch;
    GstTileWireAuth auth;

    ok = gst_tile_wire_challenge_parse (copy, len, &ch, &err);
    CHECK_RESULT (ok);
    if (ok)
      fail_unless (len == 48 && memcmp (ch.nonce, copy, 16) == 0
          && memcmp (ch.share, copy + 16, 32) == 0);
    ok = gst_tile_wire_auth_parse (copy, len, &auth, &err);
    CHECK_RESULT (ok);
    if (ok)
      fail_unless (len == 64 && memcmp (auth.share, copy, 32) == 0
          && memcmp (auth.proof, copy + 32, 32) == 0);
  }
  CHECK_RESULT (gst_tile_wire_unit_hello_parse (copy, len, &uh, &err));
  CHECK_RESULT (gst_tile_wire_refuse_parse (copy, len, &refuse, &err));
  CHECK_RESULT (gst_tile_wire_eos_parse (copy, len, &err));
  CHECK_RESULT (gst_tile_wire_keepalive_parse (copy, len, &t, &err));
  {
    GstTileWireTime tm;

    ok = gst_tile_wire_time_parse (copy, len, &tm, &err);
    CHECK_RESULT (ok);
    if (ok)
      fail_unless (len == 16 && tm.local_time != GST_CLOCK_TIME_NONE);
  }
  {
    GstTileWireAck ack;

    ok = gst_tile_wire_ack_parse (copy, len, &ack, &err);
    CHECK_RESULT (ok);
    if (ok)
      fail_unless (ack.window > 0 && (ack.has_frame || ack.frame == 0));
  }
  ok = gst_tile_wire_config_parse (copy, len, &config, &err);
  CHECK_RESULT (ok);
  if (ok)
    fail_unless (gst_tile_wire_config_validate (&config, NULL));
  ok = gst_tile_wire_stats_parse (copy, len, &s, &err);
  CHECK_RESULT (ok);
  if (ok)
    gst_structure_free (s);
#undef CHECK_RESULT

  g_free (copy);
}

/* Parses a whole message (header and the payload of its type). */
static void
feed_message (const guint8 * data, gsize len)
{
  guint8 *copy = exact_copy (data, len);
  GstTileWireHeader h;
  GError *err = NULL;

  if (gst_tile_wire_header_parse (copy, len, &h,
          &err) == GST_TILE_WIRE_PARSE_OK) {
    const guint8 *payload = copy + GST_TILE_WIRE_HEADER_SIZE;
    gsize payload_len = MIN (h.payload_len, len - GST_TILE_WIRE_HEADER_SIZE);

    feed_all (payload, payload_len);
  }
  g_clear_error (&err);
  g_free (copy);
}

/* The valid messages that test_fuzz mutates: every type, and datagram
 * headers that pass gst_tile_wire_packet_check() on packet_config() */
static GPtrArray *
fuzz_valid_messages (void)
{
  GPtrArray *valid = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_byte_array_unref);
  GstTileWireConfig *c = g_new0 (GstTileWireConfig, 1);
  GstTileWireHello hello = { 0, {0x01, 0x23, 0x45, 0x67, 0x89} };
  GstTileWireUnitHello uh = { 99, 1, 5 };
  GstTileWireChallenge ch = { {0xa1, 0xa2, 0xa3}, {0xb1, 0xb2, 0xb3} };
  GstTileWireAuth auth = { {0xc1, 0xc2, 0xc3,[31] = 0xcf} };
  GstStructure *s;
  GByteArray *msg;
  guint i;

  make_config (c, 270, 3840, 8);
  msg = g_byte_array_new ();
  fail_unless (gst_tile_wire_config_pack (c, msg, NULL));
  g_ptr_array_add (valid, msg);
  make_config (c, 7, 64, 3);
  msg = g_byte_array_new ();
  fail_unless (gst_tile_wire_config_pack (c, msg, NULL));
  g_ptr_array_add (valid, msg);
  msg = g_byte_array_new ();
  fail_unless (gst_tile_wire_hello_pack (&hello, msg, NULL));
  g_ptr_array_add (valid, msg);
  hello.flags = GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE;
  msg = g_byte_array_new ();
  fail_unless (gst_tile_wire_hello_pack (&hello, msg, NULL));
  g_ptr_array_add (valid, msg);
  msg = g_byte_array_new ();
  fail_unless (gst_tile_wire_challenge_pack (&ch, msg));
  g_ptr_array_add (valid, msg);
  msg = g_byte_array_new ();
  fail_unless (gst_tile_wire_auth_pack (&auth, msg));
  g_ptr_array_add (valid, msg);
  msg = g_byte_array_new ();
  fail_unless (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_UNAUTHORIZED,
          "wrong passphrase", msg, NULL));
  g_ptr_array_add (valid, msg);
  msg = g_byte_array_new ();
  fail_unless (gst_tile_wire_unit_hello_pack (&uh, msg, NULL));
  g_ptr_array_add (valid, msg);
  msg = g_byte_array_new ();
  fail_unless (gst_tile_wire_refuse_pack (GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT,
          "unit 5 is taken", msg, NULL));
  g_ptr_array_add (valid, msg);
  msg = g_byte_array_new ();
  gst_tile_wire_eos_pack (msg);
  g_ptr_array_add (valid, msg);
  msg = g_byte_array_new ();
  gst_tile_wire_keepalive_pack (42, msg);
  g_ptr_array_add (valid, msg);
  msg = g_byte_array_new ();
  {
    GstTileWireAck ack = { 3, 4, TRUE, 1000 };

    gst_tile_wire_ack_pack (&ack, msg);
  }
  g_ptr_array_add (valid, msg);
  s = gst_structure_new ("stats", "frames", G_TYPE_UINT64,
      G_GUINT64_CONSTANT (5), "latency", G_TYPE_DOUBLE, 1.5,
      "name", G_TYPE_STRING, "unit 0", "ok", G_TYPE_BOOLEAN, TRUE,
      "rate", GST_TYPE_FRACTION, 30, 1, NULL);
  msg = g_byte_array_new ();
  fail_unless (gst_tile_wire_stats_pack (s, msg, NULL));
  g_ptr_array_add (valid, msg);
  gst_structure_free (s);
  {
    /* a whole tile, a first part and an abandon */
    GstTileWireTileHeader th[] = { {1, 2, 3, 1024, 0},
    {1, 2, 3, 512, GST_TILE_WIRE_TILE_FLAG_MORE},
    {1, 2, 3, 0, GST_TILE_WIRE_TILE_FLAG_ABANDON}
    };

    for (i = 0; i < G_N_ELEMENTS (th); i++) {
      msg = g_byte_array_new ();
      g_byte_array_set_size (msg, GST_TILE_WIRE_TILE_HEADER_SIZE);
      gst_tile_wire_tile_header_write (msg->data, &th[i]);
      g_ptr_array_add (valid, msg);
    }
  }
  {
    /* datagrams that pass gst_tile_wire_packet_check() on packet_config() */
    GstTileWirePacketHeader ph = { 2, 7, 112, 9, GST_CLOCK_TIME_NONE,
      GST_CLOCK_TIME_NONE, packet_config ()->token
    };

    msg = g_byte_array_new ();
    g_byte_array_set_size (msg, GST_TILE_WIRE_PACKET_HEADER_SIZE + 16);
    memset (msg->data, 0, msg->len);
    gst_tile_wire_packet_header_write (msg->data, &ph);
    g_ptr_array_add (valid, msg);
    ph.unit = 0;
    ph.offset = 176;
    msg = g_byte_array_new ();
    g_byte_array_set_size (msg, GST_TILE_WIRE_PACKET_HEADER_SIZE);
    gst_tile_wire_packet_header_write (msg->data, &ph);
    g_ptr_array_add (valid, msg);
  }

  g_free (c);
  return valid;
}

GST_START_TEST (test_fuzz)
{
  const gchar *seed_env = g_getenv ("BCWIRE_FUZZ_SEED");
  guint32 seed = seed_env ? g_ascii_strtoull (seed_env, NULL, 0) : 0x6273;
  GRand *rand = g_rand_new_with_seed (seed);
  GPtrArray *valid = fuzz_valid_messages ();
  GByteArray *msg;
  guint8 buf[4096];
  guint i, j;

  GST_INFO ("fuzz seed %u (set BCWIRE_FUZZ_SEED to change it)", seed);

  /* random byte strings, mostly short, sometimes starting with a valid
   * magic so the later checks are reached */
  for (i = 0; i < FUZZ_ITERATIONS; i++) {
    gsize len = g_rand_int_range (rand, 0, i % 16 == 0 ? sizeof (buf) : 96);

    for (j = 0; j < len; j++)
      buf[j] = g_rand_int_range (rand, 0, 256);
    if (len >= 4 && g_rand_boolean (rand))
      write_be (buf, g_rand_boolean (rand) ? GST_TILE_WIRE_MAGIC :
          GST_TILE_WIRE_TILE_MAGIC, 4);
    if (len >= 6 && g_rand_boolean (rand))
      write_be (buf + 4, GST_TILE_WIRE_VERSION, 2);
    if (len >= 8 && i % 4 == 1) {
      /* a datagram header with a small unit and generation 7 sometimes */
      write_be (buf, GST_TILE_WIRE_PACKET_MAGIC, 4);
      buf[4] = GST_TILE_WIRE_VERSION;
      buf[5] = g_rand_int_range (rand, 0, 8) == 0 ? 1 : 0;
      write_be (buf + 6, g_rand_int_range (rand, 0, 70), 2);
      if (len >= 12 && g_rand_boolean (rand))
        write_be (buf + 8, 7, 4);
      if (len >= 16 && g_rand_boolean (rand))
        write_be (buf + 12, g_rand_int_range (rand, 0, 256), 4);
    }
    feed_all (buf, len);
    feed_message (buf, len);
  }

  /* single-byte mutations of valid messages, fed whole and as payloads */
  for (i = 0; i < FUZZ_ITERATIONS; i++) {
    GByteArray *orig = g_ptr_array_index (valid, i % valid->len);
    guint8 *m = g_memdup2 (orig->data, orig->len);
    guint pos = g_rand_int_range (rand, 0, orig->len);

    switch (g_rand_int_range (rand, 0, 3)) {
      case 0:
        m[pos] = g_rand_int_range (rand, 0, 256);
        break;
      case 1:
        m[pos] ^= 1 << g_rand_int_range (rand, 0, 8);
        break;
      default:
        m[pos] += g_rand_boolean (rand) ? 1 : -1;
        break;
    }
    feed_message (m, orig->len);
    if (orig->len > GST_TILE_WIRE_HEADER_SIZE)
      feed_all (m + GST_TILE_WIRE_HEADER_SIZE,
          orig->len - GST_TILE_WIRE_HEADER_SIZE);
    feed_all (m, orig->len);
    /* and cut short at a random place */
    feed_message (m, g_rand_int_range (rand, 0, orig->len));
    g_free (m);
  }

  /* STATS strings made of structure syntax, with known names, to reach
   * deep into gst_structure_from_string() */
  for (i = 0; i < FUZZ_ITERATIONS; i++) {
    static const gchar *const pieces[] = { "stats", "frames", "latency",
      "name", ",", " ", "=", "(int)", "(double)", "(string)", "(fraction)",
      "(boolean)", "(GstCaps)", "1", "-2", "0x7f", "1.5e300", "30/1", "true",
      "\"", "\\", "\"a, b\"", ";", "{", "}", "<", ">", "[", "]", "(", ")",
      "/", "x", "\xc3\xa9", "99999999999999999999"
    };
    guint n = g_rand_int_range (rand, 1, 24);

    msg = g_byte_array_new ();
    g_byte_array_set_size (msg, 2);
    for (j = 0; j < n; j++) {
      const gchar *piece =
          pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))];

      g_byte_array_append (msg, (const guint8 *) piece, strlen (piece));
    }
    write_be (msg->data, msg->len - 2, 2);
    feed_all (msg->data, msg->len);
    g_byte_array_unref (msg);
  }

  g_ptr_array_unref (valid);
  g_rand_free (rand);
}

GST_END_TEST;

/* NACK: round trip, and every limit the parser checks */
GST_START_TEST (test_nack)
{
  GstTileWireNack n = { 0 }, got;
  GByteArray *msg = g_byte_array_new ();
  const guint8 *payload;
  guint8 bad[16 + 6 * 2];
  GError *err = NULL;
  gsize len;
  guint i;

  n.generation = 3;
  n.frame = G_GUINT64_CONSTANT (0x123456789);
  n.unit = 63;
  n.n_ranges = 2;
  n.ranges[0].first = 0;
  n.ranges[0].count = 5;
  n.ranges[1].first = 5;
  n.ranges[1].count = 65535;
  fail_unless (gst_tile_wire_nack_pack (&n, msg, &err));
  payload = split_message (msg, GST_TILE_WIRE_TYPE_NACK, &len);
  fail_unless_equals_int (len, 16 + 6 * 2);
  fail_unless (gst_tile_wire_nack_parse (payload, len, &got, &err));
  fail_unless_equals_int (got.generation, 3);
  fail_unless_equals_uint64 (got.frame, n.frame);
  fail_unless_equals_int (got.unit, 63);
  fail_unless_equals_int (got.n_ranges, 2);
  fail_unless_equals_int (got.ranges[1].first, 5);
  fail_unless_equals_int (got.ranges[1].count, 65535);
  fail_if (gst_tile_wire_nack_parse (payload, len - 1, &got, &err));
  check_error (err, GST_TILE_WIRE_ERROR_TRUNCATED, "NACK");
  g_clear_error (&err);
  memcpy (bad, payload, len);

  /* trailing bytes */
  {
    guint8 longer[16 + 6 * 2 + 1] = { 0 };

    memcpy (longer, bad, sizeof (bad));
    fail_if (gst_tile_wire_nack_parse (longer, sizeof (longer), &got, &err));
    check_error (err, GST_TILE_WIRE_ERROR_INVALID, "NACK");
    g_clear_error (&err);
  }
  /* unit 64 */
  write_be (bad + 12, 64, 2);
  fail_if (gst_tile_wire_nack_parse (bad, sizeof (bad), &got, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "unit is 64");
  g_clear_error (&err);
  write_be (bad + 12, 1, 2);
  /* no ranges, too many */
  write_be (bad + 14, 0, 2);
  fail_if (gst_tile_wire_nack_parse (bad, 16, &got, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "0 ranges");
  g_clear_error (&err);
  write_be (bad + 14, GST_TILE_WIRE_NACK_MAX_RANGES + 1, 2);
  fail_if (gst_tile_wire_nack_parse (bad, sizeof (bad), &got, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "65 ranges");
  g_clear_error (&err);
  write_be (bad + 14, 2, 2);
  /* a range of 0 */
  write_be (bad + 20, 0, 2);
  fail_if (gst_tile_wire_nack_parse (bad, sizeof (bad), &got, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "range 0 count is 0");
  g_clear_error (&err);
  write_be (bad + 20, 5, 2);
  /* overlapping, out of order */
  write_be (bad + 22, 4, 4);
  fail_if (gst_tile_wire_nack_parse (bad, sizeof (bad), &got, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "range 1 starts at "
      "datagram 4");
  g_clear_error (&err);
  /* past the largest tile */
  write_be (bad + 22, (1u << 30) - 2, 4);
  fail_if (gst_tile_wire_nack_parse (bad, sizeof (bad), &got, &err));
  check_error (err, GST_TILE_WIRE_ERROR_INVALID, "beyond the largest tile");
  g_clear_error (&err);

  /* the packer refuses what the parser would */
  g_byte_array_set_size (msg, 0);
  n.n_ranges = 0;
  fail_if (gst_tile_wire_nack_pack (&n, msg, &err));
  g_clear_error (&err);
  n.n_ranges = GST_TILE_WIRE_NACK_MAX_RANGES;
  for (i = 0; i < n.n_ranges; i++) {
    n.ranges[i].first = 2 * i;
    n.ranges[i].count = 1;
  }
  fail_unless (gst_tile_wire_nack_pack (&n, msg, NULL));
  n.ranges[3].first = 0;
  fail_if (gst_tile_wire_nack_pack (&n, msg, &err));
  g_clear_error (&err);
  n.ranges[3].first = 6;
  n.unit = 64;
  fail_if (gst_tile_wire_nack_pack (&n, msg, &err));
  g_clear_error (&err);
  g_byte_array_unref (msg);
}

GST_END_TEST;

static Suite *
tilewire_suite (void)
{
  Suite *s = suite_create ("tilewire");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_header);
  tcase_add_test (tc, test_small_messages);
  tcase_add_test (tc, test_stats);
  tcase_add_test (tc, test_refuse_invalid);
  tcase_add_test (tc, test_config_tilings);
  tcase_add_test (tc, test_config_invalid_fields);
  tcase_add_test (tc, test_config_multicast);
  tcase_add_test (tc, test_config_invalid_tiles);
  tcase_add_test (tc, test_config_invalid_caps);
  tcase_add_test (tc, test_truncated_payloads);
  tcase_add_test (tc, test_tile_header);
  tcase_add_test (tc, test_tile_header_balanced);
  tcase_add_test (tc, test_caps_check);
  tcase_add_test (tc, test_packet_header);
  tcase_add_test (tc, test_packet_check);
  tcase_add_test (tc, test_packets_per_tile);
  tcase_add_test (tc, test_nack);
  tcase_add_test (tc, test_fuzz);
  return s;
}

GST_CHECK_MAIN (tilewire);
