/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* A session's keys and sealed control records (tilekeys.c): HKDF-SHA256
 * against RFC 5869's test vectors (appendix A, test cases 1 and 3), the
 * key schedule's separation, and records that do not open once changed,
 * replayed, reordered, injected or sent in the clear, across key
 * updates. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/tile/tilekeys.h>

#include <string.h>

#include "gstbctest.h"

static void
hex (const gchar * text, guint8 * out, gsize len)
{
  gsize i;

  fail_unless_equals_int (strlen (text), 2 * len);
  for (i = 0; i < len; i++)
    out[i] = g_ascii_xdigit_value (text[2 * i]) * 16 +
        g_ascii_xdigit_value (text[2 * i + 1]);
}

/* RFC 5869, appendix A.1 (test case 1) and A.3 (test case 3: no salt, no
 * info) */
GST_START_TEST (test_hkdf_rfc5869)
{
  guint8 ikm[22], salt[13], info[10], prk[32], okm[42], want_prk[32];
  guint8 want_okm[42];
  guint i;

  memset (ikm, 0x0b, sizeof (ikm));
  for (i = 0; i < sizeof (salt); i++)
    salt[i] = i;
  for (i = 0; i < sizeof (info); i++)
    info[i] = 0xf0 + i;
  gst_tile_keys_hkdf_extract (salt, sizeof (salt), ikm, sizeof (ikm), prk);
  hex ("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
      want_prk, sizeof (want_prk));
  fail_unless (memcmp (prk, want_prk, 32) == 0);
  gst_tile_keys_hkdf_expand (prk, sizeof (prk), info, sizeof (info), okm,
      sizeof (okm));
  hex ("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
      "34007208d5b887185865", want_okm, sizeof (want_okm));
  fail_unless (memcmp (okm, want_okm, 42) == 0);

  gst_tile_keys_hkdf_extract (NULL, 0, ikm, sizeof (ikm), prk);
  hex ("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
      want_prk, sizeof (want_prk));
  fail_unless (memcmp (prk, want_prk, 32) == 0);
  gst_tile_keys_hkdf_expand (prk, sizeof (prk), NULL, 0, okm, sizeof (okm));
  hex ("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
      "9d201395faa4b61a96c8", want_okm, sizeof (want_okm));
  fail_unless (memcmp (okm, want_okm, 42) == 0);
}

GST_END_TEST;

static void
derive (guint8 seed, GstTileKeys * keys)
{
  guint8 isk[64], th[32];

  memset (isk, seed, sizeof (isk));
  memset (th, 0x77, sizeof (th));
  gst_tile_keys_derive (isk, sizeof (isk), th, keys);
}

/* Every key of a session is its own; the same inputs give the same keys;
 * another ISK or another transcript gives others. */
GST_START_TEST (test_key_schedule)
{
  GstTileKeys a, b;
  const guint8 *k[7];
  guint8 isk[64], th[32];
  guint i, j;

  derive (1, &a);
  derive (1, &b);
  fail_unless (memcmp (&a, &b, sizeof (a)) == 0);
  k[0] = a.client_proof;
  k[1] = a.sender_proof;
  k[2] = a.c2s;
  k[3] = a.s2c;
  k[4] = a.data;
  k[5] = a.unit_c2s;
  k[6] = a.unit_s2c;
  for (i = 0; i < 7; i++)
    for (j = i + 1; j < 7; j++)
      fail_if (memcmp (k[i], k[j], 32) == 0, "keys %u and %u", i, j);
  derive (2, &b);
  fail_if (memcmp (a.c2s, b.c2s, 32) == 0);
  memset (isk, 1, sizeof (isk));
  memset (th, 0x78, sizeof (th));
  gst_tile_keys_derive (isk, sizeof (isk), th, &b);
  fail_if (memcmp (a.client_proof, b.client_proof, 32) == 0);
  gst_tile_keys_clear (&b);
  for (i = 0; i < sizeof (b); i++)
    fail_unless_equals_int (((guint8 *) & b)[i], 0);
}

GST_END_TEST;

/* The data key: one per generation and per 65536 frames. */
GST_START_TEST (test_data_key)
{
  GstTileKeys keys;
  guint8 a[16], b[16];

  derive (3, &keys);
  gst_tile_keys_data_key (keys.data, 1, 0, a);
  gst_tile_keys_data_key (keys.data, 1, GST_TILE_KEYS_EPOCH_FRAMES - 1, b);
  fail_unless (memcmp (a, b, 16) == 0);
  gst_tile_keys_data_key (keys.data, 1, GST_TILE_KEYS_EPOCH_FRAMES, b);
  fail_if (memcmp (a, b, 16) == 0);
  gst_tile_keys_data_key (keys.data, 2, 0, b);
  fail_if (memcmp (a, b, 16) == 0);
  fail_unless_equals_int (GST_TILE_KEYS_EPOCH_FRAMES, 65536);
}

GST_END_TEST;

/* A UNIT_HELLO's MAC covers token, generation, unit, cookie and what it
 * is (the client's, the server's challenge, its acceptance), and the two
 * directions' keys differ. */
GST_START_TEST (test_unit_mac)
{
  GstTileKeys keys;
  GstTileWireUnitHello uh = { 0 };

  derive (4, &keys);
  uh.token = 42;
  uh.generation = 3;
  uh.unit = 5;
  memset (uh.cookie, 0xc0, sizeof (uh.cookie));
  gst_tile_keys_unit_mac (keys.unit_c2s, &uh, GST_TILE_KEYS_UNIT_HELLO,
      uh.mac);
  fail_unless (gst_tile_keys_unit_mac_check (keys.unit_c2s,
          GST_TILE_KEYS_UNIT_HELLO, &uh));
  fail_if (gst_tile_keys_unit_mac_check (keys.unit_s2c,
          GST_TILE_KEYS_UNIT_HELLO, &uh));
  uh.cookie[19] ^= 1;
  fail_if (gst_tile_keys_unit_mac_check (keys.unit_c2s,
          GST_TILE_KEYS_UNIT_HELLO, &uh));
  uh.cookie[19] ^= 1;
  uh.unit = 6;
  fail_if (gst_tile_keys_unit_mac_check (keys.unit_c2s,
          GST_TILE_KEYS_UNIT_HELLO, &uh));
  uh.unit = 5;
  uh.token = 43;
  fail_if (gst_tile_keys_unit_mac_check (keys.unit_c2s,
          GST_TILE_KEYS_UNIT_HELLO, &uh));
  uh.token = 42;
  /* a challenge does not pass for an acceptance */
  gst_tile_keys_unit_mac (keys.unit_s2c, &uh, GST_TILE_KEYS_UNIT_CHALLENGE,
      uh.mac);
  fail_unless (gst_tile_keys_unit_mac_check (keys.unit_s2c,
          GST_TILE_KEYS_UNIT_CHALLENGE, &uh));
  fail_if (gst_tile_keys_unit_mac_check (keys.unit_s2c,
          GST_TILE_KEYS_UNIT_ACCEPT, &uh));
}

GST_END_TEST;

/* A KEEPALIVE record carrying @t, sealed by @out */
static GByteArray *
sealed_keepalive (GstTileRecords * out, guint64 t)
{
  GByteArray *m = g_byte_array_new ();

  gst_tile_wire_keepalive_pack (t, m);
  gst_tile_records_seal (out, m);
  return m;
}

/* Opens record @m with @in; TRUE and its time in @t when it opens. */
static gboolean
open_keepalive (GstTileRecords * in, const GByteArray * m, guint64 * t,
    GError ** err)
{
  GByteArray *p = g_byte_array_new ();
  GstTileWireHeader outer, inner;
  gboolean ok;

  fail_unless_equals_int (gst_tile_wire_header_parse (m->data, m->len, &outer,
          NULL), GST_TILE_WIRE_PARSE_OK);
  g_byte_array_append (p, m->data + GST_TILE_WIRE_HEADER_SIZE,
      m->len - GST_TILE_WIRE_HEADER_SIZE);
  ok = gst_tile_records_open (in, &outer, p, &inner, err);
  if (ok) {
    fail_unless_equals_int (inner.type, GST_TILE_WIRE_TYPE_KEEPALIVE);
    fail_unless (gst_tile_wire_keepalive_parse (p->data, p->len, t, NULL));
  }
  g_byte_array_unref (p);
  return ok;
}

static void
expect_refused (GstTileRecords * in, const GByteArray * m, const gchar * part)
{
  GError *err = NULL;
  guint64 t;

  fail_if (open_keepalive (in, m, &t, &err));
  fail_unless (g_error_matches (err, GST_TILE_WIRE_ERROR,
          GST_TILE_WIRE_ERROR_UNAUTHORIZED), "%s", err->message);
  fail_unless (strstr (err->message, part) != NULL, "%s", err->message);
  g_clear_error (&err);
}

/* Records open in order; the layout is a SEALED header, the inner message
 * encrypted, a tag. */
GST_START_TEST (test_records)
{
  GstTileKeys keys;
  GstTileRecords *out, *in;
  GByteArray *m;
  guint64 t, i;
  GError *err = NULL;

  derive (5, &keys);
  out = gst_tile_records_new (TRUE, keys.s2c);
  in = gst_tile_records_new (FALSE, keys.s2c);
  for (i = 0; i < 20; i++) {
    m = sealed_keepalive (out, 1000 + i);
    fail_unless_equals_int (m->len, GST_TILE_WIRE_HEADER_SIZE +
        GST_TILE_WIRE_HEADER_SIZE + 8 + GST_TILE_SEAL_TAG_SIZE);
    fail_unless_equals_int (GST_READ_UINT16_BE (m->data + 6),
        GST_TILE_WIRE_TYPE_SEALED);
    /* the inner message is not in the clear */
    fail_if (GST_READ_UINT32_BE (m->data + GST_TILE_WIRE_HEADER_SIZE) ==
        GST_TILE_WIRE_MAGIC);
    fail_unless (open_keepalive (in, m, &t, &err), "%s",
        err ? err->message : "");
    fail_unless_equals_uint64 (t, 1000 + i);
    g_byte_array_unref (m);
  }
  fail_unless_equals_uint64 (gst_tile_records_get_count (out), 20);
  fail_unless_equals_uint64 (gst_tile_records_get_count (in), 20);
  gst_tile_records_free (out);
  gst_tile_records_free (in);
}

GST_END_TEST;

/* What a man in the middle can do to records: change a bit of the record
 * or its header, replay one, reorder two, drop one, inject one sealed with
 * the other direction's key, send a message in the clear: none opens. */
GST_START_TEST (test_records_attacks)
{
  GstTileKeys keys;
  GstTileRecords *out, *in, *other;
  GByteArray *m[4], *plain;
  guint64 t;
  guint i;

  derive (6, &keys);
  out = gst_tile_records_new (TRUE, keys.s2c);
  other = gst_tile_records_new (TRUE, keys.c2s);
  for (i = 0; i < 4; i++)
    m[i] = sealed_keepalive (out, i);

  /* changed */
  for (i = 0; i < m[0]->len; i++) {
    if (i >= 6 && i < GST_TILE_WIRE_HEADER_SIZE)
      continue;                 /* (type and length: not a record then) */
    in = gst_tile_records_new (FALSE, keys.s2c);
    m[0]->data[i] ^= 0x04;
    if (i < 6) {
      /* magic and version: the header parser refuses it first */
      GstTileWireHeader h;

      fail_if (gst_tile_wire_header_parse (m[0]->data, m[0]->len, &h, NULL)
          == GST_TILE_WIRE_PARSE_OK);
    } else {
      expect_refused (in, m[0], "failed its authentication");
    }
    m[0]->data[i] ^= 0x04;
    gst_tile_records_free (in);
  }

  /* replayed */
  in = gst_tile_records_new (FALSE, keys.s2c);
  fail_unless (open_keepalive (in, m[0], &t, NULL));
  expect_refused (in, m[0], "failed its authentication");
  gst_tile_records_free (in);
  /* reordered */
  in = gst_tile_records_new (FALSE, keys.s2c);
  fail_unless (open_keepalive (in, m[0], &t, NULL));
  expect_refused (in, m[2], "failed its authentication");
  gst_tile_records_free (in);
  /* dropped: the next one does not open either */
  in = gst_tile_records_new (FALSE, keys.s2c);
  expect_refused (in, m[1], "failed its authentication");
  gst_tile_records_free (in);
  /* injected, sealed with the other direction's key (a reflection) */
  in = gst_tile_records_new (FALSE, keys.s2c);
  g_byte_array_unref (m[3]);
  m[3] = sealed_keepalive (other, 0);
  expect_refused (in, m[3], "failed its authentication");
  gst_tile_records_free (in);
  /* in the clear */
  in = gst_tile_records_new (FALSE, keys.s2c);
  plain = g_byte_array_new ();
  gst_tile_wire_eos_pack (plain);
  {
    GstTileWireHeader h, inner;
    GByteArray *p = g_byte_array_new ();
    GError *err = NULL;

    fail_unless_equals_int (gst_tile_wire_header_parse (plain->data,
            plain->len, &h, NULL), GST_TILE_WIRE_PARSE_OK);
    fail_if (gst_tile_records_open (in, &h, p, &inner, &err));
    fail_unless (strstr (err->message, "EOS message in the clear") != NULL,
        "%s", err->message);
    g_clear_error (&err);
    g_byte_array_unref (p);
  }
  g_byte_array_unref (plain);
  gst_tile_records_free (in);

  for (i = 0; i < 4; i++)
    g_byte_array_unref (m[i]);
  gst_tile_records_free (out);
  gst_tile_records_free (other);
}

GST_END_TEST;

/* The key is updated every so many records on both sides (here 3): the
 * records keep opening across updates, and a record sealed under the old
 * key after an update does not. */
GST_START_TEST (test_records_key_update)
{
  GstTileKeys keys;
  GstTileRecords *out, *in, *stale;
  GByteArray *m;
  guint64 t, i;

  derive (7, &keys);
  out = gst_tile_records_new (TRUE, keys.c2s);
  in = gst_tile_records_new (FALSE, keys.c2s);
  stale = gst_tile_records_new (TRUE, keys.c2s);
  gst_tile_records_set_key_interval (out, 3);
  gst_tile_records_set_key_interval (in, 3);
  /* (stale keeps its first key for 2^32 records) */
  for (i = 0; i < 10; i++) {
    m = sealed_keepalive (out, i);
    fail_unless (open_keepalive (in, m, &t, NULL), "record %" G_GUINT64_FORMAT,
        i);
    fail_unless_equals_uint64 (t, i);
    g_byte_array_unref (m);
  }
  /* record 10 under the first key, sequence number 10 */
  for (i = 0; i < 10; i++)
    g_byte_array_unref (sealed_keepalive (stale, i));
  m = sealed_keepalive (stale, 10);
  expect_refused (in, m, "failed its authentication");
  g_byte_array_unref (m);
  fail_unless_equals_uint64 (GST_TILE_KEYS_RECORDS_PER_KEY,
      G_GUINT64_CONSTANT (1) << 32);
  gst_tile_records_free (out);
  gst_tile_records_free (in);
  gst_tile_records_free (stale);
}

GST_END_TEST;

/* The transcript hash binds HELLO, CHALLENGE and the client's share: a
 * change to any gives another hash. */
GST_START_TEST (test_transcript)
{
  GstTileWireHello hello = { 0 };
  GstTileWireChallenge ch;
  guint8 share[32], a[32], b[32];

  memset (hello.nonce, 1, sizeof (hello.nonce));
  hello.flags = GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE;
  memset (ch.nonce, 2, sizeof (ch.nonce));
  memset (ch.share, 3, sizeof (ch.share));
  memset (share, 4, sizeof (share));
  gst_tile_keys_transcript (&hello, &ch, share, a);
  gst_tile_keys_transcript (&hello, &ch, share, b);
  fail_unless (memcmp (a, b, 32) == 0);
  hello.nonce[15] ^= 1;
  gst_tile_keys_transcript (&hello, &ch, share, b);
  fail_if (memcmp (a, b, 32) == 0);
  hello.nonce[15] ^= 1;
  ch.share[0] ^= 1;
  gst_tile_keys_transcript (&hello, &ch, share, b);
  fail_if (memcmp (a, b, 32) == 0);
  ch.share[0] ^= 1;
  share[31] ^= 1;
  gst_tile_keys_transcript (&hello, &ch, share, b);
  fail_if (memcmp (a, b, 32) == 0);
}

GST_END_TEST;

static Suite *
tilekeys_suite (void)
{
  Suite *s = suite_create ("tilekeys");
  TCase *tc = test_suite_add_general (s, 0);

  tcase_add_test (tc, test_hkdf_rfc5869);
  tcase_add_test (tc, test_key_schedule);
  tcase_add_test (tc, test_data_key);
  tcase_add_test (tc, test_unit_mac);
  tcase_add_test (tc, test_records);
  tcase_add_test (tc, test_records_attacks);
  tcase_add_test (tc, test_records_key_update);
  tcase_add_test (tc, test_transcript);
  return s;
}

GST_CHECK_MAIN (tilekeys);
