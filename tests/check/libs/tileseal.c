/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The passphrase's ciphers (tileseal.c) against values computed
 * independently: GLib's HMAC, Python's cryptography package's AESGCM,
 * and test case 4 of McGrew and Viega's GCM specification. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/tile/tileseal.h>

#include <string.h>

#include "gstbctest.h"

/* The key, IV, AAD and plain text of the known answer computed with
 * Python's cryptography package (AESGCM (key).encrypt (iv, pt, aad)):
 * key 00 01 .. 0f, the IV of gst_tile_seal_iv (TRUE, 5, 0x0102030405060708,
 * 0xfff0), AAD "GSBT header bytes", plain text (i * 7 + 3) & 0xff for i
 * below 100. */
static const guint8 kat_key[GST_TILE_SEAL_KEY_SIZE] = {
  0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
  0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f
};

static const gchar kat_aad[] = "GSBT header bytes";

static const guint8 kat_ct[100] = {
  0xe3, 0xf1, 0xfd, 0x3c, 0x9e, 0xf9, 0xe1, 0x77, 0xe2, 0x22, 0x4a, 0x0e,
  0x83, 0x3b, 0x4e, 0xe0, 0x60, 0x3b, 0xc7, 0x90, 0x06, 0x65, 0xca, 0xf4,
  0x65, 0x60, 0x25, 0x7e, 0x5c, 0x2d, 0x50, 0x4f, 0xbf, 0x9f, 0x46, 0xf0,
  0x0d, 0x25, 0x08, 0xf3, 0xfb, 0xcd, 0x5c, 0xa4, 0xfe, 0xe1, 0x62, 0x88,
  0x72, 0x2a, 0x2f, 0x01, 0xac, 0xb0, 0xa7, 0x44, 0x48, 0xbd, 0xcb, 0xf8,
  0xa6, 0x0a, 0xda, 0x19, 0x64, 0x7e, 0xb9, 0xf4, 0xc6, 0x70, 0x86, 0xb0,
  0x9a, 0xaa, 0x05, 0x4e, 0x39, 0x07, 0x06, 0xbd, 0x98, 0x66, 0x76, 0xea,
  0xa5, 0x7d, 0xa0, 0x3e, 0xbb, 0x41, 0x3c, 0xc9, 0x77, 0x78, 0x76, 0x0a,
  0x87, 0x38, 0x7b, 0x5b
};

static const guint8 kat_tag[GST_TILE_SEAL_TAG_SIZE] = {
  0x5c, 0xc2, 0xf9, 0x1f, 0xfe, 0x15, 0xc7, 0x1e,
  0xcc, 0xb7, 0x15, 0xb5, 0x53, 0x83, 0x59, 0x64
};

/* the same key, IV and AAD with no plain text: an abandoned tile */
static const guint8 kat_empty_tag[GST_TILE_SEAL_TAG_SIZE] = {
  0x7d, 0xe1, 0x5f, 0x8e, 0x33, 0x9d, 0x51, 0x49,
  0x7e, 0x5e, 0x10, 0x9a, 0x64, 0x3e, 0xc0, 0x5f
};

static void
kat_plain (guint8 * pt, gsize len)
{
  gsize i;

  for (i = 0; i < len; i++)
    pt[i] = (guint8) (i * 7 + 3);
}

static void
kat_iv (guint8 iv[GST_TILE_SEAL_IV_SIZE])
{
  gst_tile_seal_iv (iv, TRUE, 5, G_GUINT64_CONSTANT (0x0102030405060708),
      0xfff0);
}

static void
hex_to_bytes (const gchar * hex, guint8 * out, gsize len)
{
  gsize i;

  fail_unless_equals_int (strlen (hex), 2 * len);
  for (i = 0; i < len; i++)
    out[i] = (g_ascii_xdigit_value (hex[2 * i]) << 4) |
        g_ascii_xdigit_value (hex[2 * i + 1]);
}

GST_START_TEST (test_random)
{
  guint8 a[32] = { 0 }, b[32] = { 0 }, zero[32] = { 0 };

  fail_unless (gst_tile_seal_random (a, sizeof (a)));
  fail_unless (gst_tile_seal_random (b, sizeof (b)));
  /* 2^-256 chances each */
  fail_if (memcmp (a, zero, sizeof (a)) == 0);
  fail_if (memcmp (a, b, sizeof (a)) == 0);
  fail_unless (gst_tile_seal_random (NULL, 0));
}

GST_END_TEST;

/* HMAC-SHA256 against GLib's, an independent implementation; the
 * comparison in constant time tells equal from unequal. */
GST_START_TEST (test_mac)
{
  guint8 key[GST_TILE_SEAL_MAC_KEY_SIZE], mac[GST_TILE_SEAL_MAC_SIZE];
  guint8 want[GST_TILE_SEAL_MAC_SIZE];
  gsize len = sizeof (want), i;
  static const gchar msg[] = "UNIT_HELLO cookie input";
  GHmac *h;

  for (i = 0; i < sizeof (key); i++)
    key[i] = 0x0b * i + 7;
  gst_tile_seal_mac (key, (const guint8 *) msg, strlen (msg), mac);
  h = g_hmac_new (G_CHECKSUM_SHA256, key, sizeof (key));
  g_hmac_update (h, (const guint8 *) msg, strlen (msg));
  g_hmac_get_digest (h, want, &len);
  g_hmac_unref (h);
  fail_unless (memcmp (mac, want, sizeof (mac)) == 0);
  fail_unless (gst_tile_seal_equal (mac, want, sizeof (mac)));
  want[31] ^= 1;
  fail_if (gst_tile_seal_equal (mac, want, sizeof (mac)));
  /* another key, another MAC */
  key[0] ^= 1;
  gst_tile_seal_mac (key, (const guint8 *) msg, strlen (msg), want);
  fail_if (gst_tile_seal_equal (mac, want, sizeof (mac)));
}

GST_END_TEST;

GST_START_TEST (test_iv)
{
  guint8 iv[GST_TILE_SEAL_IV_SIZE];
  static const guint8 tcp5[GST_TILE_SEAL_IV_SIZE] = {
    0x85, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x0a, 0x0b, 0x0c, 0x0d
  };
  static const guint8 udp5[GST_TILE_SEAL_IV_SIZE] = {
    0x05, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x0a, 0x0b, 0x0c, 0x0d
  };
  static const guint8 max[GST_TILE_SEAL_IV_SIZE] = {
    0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
  };
  static const guint8 tcp_max[GST_TILE_SEAL_IV_SIZE] = {
    0xbf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
  };
  static const guint8 zero[GST_TILE_SEAL_IV_SIZE] = { 0 };
  static const guint8 small[GST_TILE_SEAL_IV_SIZE] = {
    0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01
  };

  /* the frame's top byte (0x01) is dropped: bytes 1-7 are 02 .. 08 */
  gst_tile_seal_iv (iv, TRUE, 5, G_GUINT64_CONSTANT (0x0102030405060708),
      0x0a0b0c0d);
  fail_unless (memcmp (iv, tcp5, sizeof (iv)) == 0);
  gst_tile_seal_iv (iv, FALSE, 5, G_GUINT64_CONSTANT (0x0102030405060708),
      0x0a0b0c0d);
  fail_unless (memcmp (iv, udp5, sizeof (iv)) == 0);
  /* frames 2^56 apart share a nonce: no session gets there */
  gst_tile_seal_iv (iv, FALSE, 5, G_GUINT64_CONSTANT (0xff02030405060708),
      0x0a0b0c0d);
  fail_unless (memcmp (iv, udp5, sizeof (iv)) == 0);
  gst_tile_seal_iv (iv, FALSE, 63, G_MAXUINT64, G_MAXUINT32);
  fail_unless (memcmp (iv, max, sizeof (iv)) == 0);
  gst_tile_seal_iv (iv, TRUE, 63, G_MAXUINT64, G_MAXUINT32);
  fail_unless (memcmp (iv, tcp_max, sizeof (iv)) == 0);
  gst_tile_seal_iv (iv, FALSE, 0, 0, 0);
  fail_unless (memcmp (iv, zero, sizeof (iv)) == 0);
  gst_tile_seal_iv (iv, TRUE, 0, G_GUINT64_CONSTANT (1) << 56 | 1, 1);
  fail_unless (memcmp (iv, small, sizeof (iv)) == 0);

  /* a parity datagram: bit 6 of byte 0, never a data datagram's nonce */
  gst_tile_seal_iv (iv, FALSE, 5 | GST_TILE_SEAL_IV_PARITY,
      G_GUINT64_CONSTANT (0x0102030405060708), 0x0a0b0c0d);
  fail_unless_equals_int (iv[0], 0x45);
  fail_unless (memcmp (iv + 1, udp5 + 1, sizeof (iv) - 1) == 0);

  /* a unit of 128 would reach the TCP bit; TCP has no parity */
  memset (iv, 0x55, sizeof (iv));
  ASSERT_CRITICAL (gst_tile_seal_iv (iv, FALSE, 128, 0, 0));
  ASSERT_CRITICAL (gst_tile_seal_iv (iv, TRUE, GST_TILE_SEAL_IV_PARITY, 0,
          0));
}

GST_END_TEST;

/* AES-128-GCM test case 4 of McGrew and Viega, "The Galois/Counter Mode of
 * Operation (GCM)": a 96-bit IV, 20 bytes of AAD and 60 bytes of plain
 * text. */
GST_START_TEST (test_gcm_spec_vector)
{
  guint8 key[16], iv[12], aad[20], pt[60], ct[60], tag[16];
  guint8 out[60], got_tag[16];
  GstTileSeal *sealer = gst_tile_seal_new (TRUE);
  GstTileSeal *opener = gst_tile_seal_new (FALSE);

  hex_to_bytes ("feffe9928665731c6d6a8f9467308308", key, sizeof (key));
  hex_to_bytes ("cafebabefacedbaddecaf888", iv, sizeof (iv));
  hex_to_bytes ("feedfacedeadbeeffeedfacedeadbeefabaddad2", aad, sizeof (aad));
  hex_to_bytes ("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d"
      "8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39", pt,
      sizeof (pt));
  hex_to_bytes ("42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e23"
      "29aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091", ct,
      sizeof (ct));
  hex_to_bytes ("5bc94fbc3221a5db94fae95ae7121a47", tag, sizeof (tag));

  gst_tile_seal_set_key (sealer, key);
  fail_unless (gst_tile_seal_once (sealer, iv, aad, sizeof (aad), pt, out,
          sizeof (pt), got_tag));
  fail_unless (memcmp (out, ct, sizeof (ct)) == 0);
  fail_unless (memcmp (got_tag, tag, sizeof (tag)) == 0);

  gst_tile_seal_set_key (opener, key);
  memset (out, 0, sizeof (out));
  fail_unless (gst_tile_seal_once (opener, iv, aad, sizeof (aad), ct, out,
          sizeof (ct), tag));
  fail_unless (memcmp (out, pt, sizeof (pt)) == 0);

  gst_tile_seal_free (sealer);
  gst_tile_seal_free (opener);
}

GST_END_TEST;

/* The vector from Python's cryptography package, with the IV from
 * gst_tile_seal_iv(), and the tag of no plain text */
GST_START_TEST (test_gcm_known_answer)
{
  guint8 iv[GST_TILE_SEAL_IV_SIZE], pt[100], out[100], back[100];
  guint8 tag[GST_TILE_SEAL_TAG_SIZE];
  GstTileSeal *sealer = gst_tile_seal_new (TRUE);
  GstTileSeal *opener = gst_tile_seal_new (FALSE);

  kat_iv (iv);
  kat_plain (pt, sizeof (pt));
  gst_tile_seal_set_key (sealer, kat_key);
  gst_tile_seal_set_key (opener, kat_key);

  fail_unless (gst_tile_seal_once (sealer, iv, (const guint8 *) kat_aad,
          strlen (kat_aad), pt, out, sizeof (pt), tag));
  fail_unless (memcmp (out, kat_ct, sizeof (out)) == 0);
  fail_unless (memcmp (tag, kat_tag, sizeof (tag)) == 0);
  fail_unless (gst_tile_seal_once (opener, iv, (const guint8 *) kat_aad,
          strlen (kat_aad), out, back, sizeof (out), tag));
  fail_unless (memcmp (back, pt, sizeof (pt)) == 0);

  /* no data: the tag covers the header alone */
  fail_unless (gst_tile_seal_once (sealer, iv, (const guint8 *) kat_aad,
          strlen (kat_aad), NULL, NULL, 0, tag));
  fail_unless (memcmp (tag, kat_empty_tag, sizeof (tag)) == 0);
  gst_tile_seal_begin (sealer, iv, (const guint8 *) kat_aad, strlen (kat_aad));
  memset (tag, 0, sizeof (tag));
  fail_unless (gst_tile_seal_end (sealer, tag));
  fail_unless (memcmp (tag, kat_empty_tag, sizeof (tag)) == 0);
  fail_unless (gst_tile_seal_once (opener, iv, (const guint8 *) kat_aad,
          strlen (kat_aad), NULL, NULL, 0, tag));
  tag[0] ^= 1;
  fail_if (gst_tile_seal_once (opener, iv, (const guint8 *) kat_aad,
          strlen (kat_aad), NULL, NULL, 0, tag));
  tag[0] ^= 1;
  fail_if (gst_tile_seal_once (opener, iv, (const guint8 *) kat_aad,
          strlen (kat_aad) - 1, NULL, NULL, 0, tag));

  gst_tile_seal_free (sealer);
  gst_tile_seal_free (opener);
}

GST_END_TEST;

#define RT_LEN 10000

/* Goes through @len bytes of @in in parts of the sizes in @steps (0 ends
 * the list; the rest in one last part), writing @out. */
static gboolean
seal_chunked (GstTileSeal * s, const guint8 iv[GST_TILE_SEAL_IV_SIZE],
    const guint8 * aad, gsize aad_len, const guint8 * in, guint8 * out,
    gsize len, const gsize * steps, guint8 tag[GST_TILE_SEAL_TAG_SIZE])
{
  gsize done = 0;

  gst_tile_seal_begin (s, iv, aad, aad_len);
  for (; *steps && done + *steps <= len; steps++) {
    gst_tile_seal_update (s, in + done, out + done, *steps);
    done += *steps;
  }
  gst_tile_seal_update (s, in + done, out + done, len - done);
  return gst_tile_seal_end (s, tag);
}

GST_START_TEST (test_round_trip)
{
  static const gsize steps[] = { 1, 7, 4096, 0 };
  static const gsize steps2[] = { 4095, 3, 1, 1, 2048, 0 };
  static const guint8 aad[] = "GSBT\0\0\0\x01 a tile part header";
  guint8 key[GST_TILE_SEAL_KEY_SIZE], iv[GST_TILE_SEAL_IV_SIZE];
  guint8 tag[GST_TILE_SEAL_TAG_SIZE], tag2[GST_TILE_SEAL_TAG_SIZE];
  guint8 *pt = g_malloc (RT_LEN), *ct = g_malloc (RT_LEN);
  guint8 *buf = g_malloc (RT_LEN);
  GstTileSeal *sealer = gst_tile_seal_new (TRUE);
  GstTileSeal *opener = gst_tile_seal_new (FALSE);
  guint i;

  fail_unless (gst_tile_seal_random (key, sizeof (key)));
  for (i = 0; i < RT_LEN; i++)
    pt[i] = (guint8) (i * 31 + (i >> 8));
  gst_tile_seal_iv (iv, TRUE, 3, 1234, 65536);
  gst_tile_seal_set_key (sealer, key);
  gst_tile_seal_set_key (opener, key);

  /* out of place in one call: the reference */
  fail_unless (gst_tile_seal_once (sealer, iv, aad, sizeof (aad), pt, ct,
          RT_LEN, tag));
  fail_if (memcmp (ct, pt, RT_LEN) == 0);

  /* in place, in one call and in parts: the same bytes and tag */
  memcpy (buf, pt, RT_LEN);
  fail_unless (gst_tile_seal_once (sealer, iv, aad, sizeof (aad), buf, buf,
          RT_LEN, tag2));
  fail_unless (memcmp (buf, ct, RT_LEN) == 0);
  fail_unless (memcmp (tag, tag2, sizeof (tag)) == 0);
  memcpy (buf, pt, RT_LEN);
  fail_unless (seal_chunked (sealer, iv, aad, sizeof (aad), buf, buf, RT_LEN,
          steps, tag2));
  fail_unless (memcmp (buf, ct, RT_LEN) == 0);
  fail_unless (memcmp (tag, tag2, sizeof (tag)) == 0);
  memset (buf, 0, RT_LEN);
  fail_unless (seal_chunked (sealer, iv, aad, sizeof (aad), pt, buf, RT_LEN,
          steps2, tag2));
  fail_unless (memcmp (buf, ct, RT_LEN) == 0);
  fail_unless (memcmp (tag, tag2, sizeof (tag)) == 0);

  /* opened out of place and in place, in one call and in parts */
  memset (buf, 0, RT_LEN);
  fail_unless (gst_tile_seal_once (opener, iv, aad, sizeof (aad), ct, buf,
          RT_LEN, tag));
  fail_unless (memcmp (buf, pt, RT_LEN) == 0);
  memcpy (buf, ct, RT_LEN);
  fail_unless (gst_tile_seal_once (opener, iv, aad, sizeof (aad), buf, buf,
          RT_LEN, tag));
  fail_unless (memcmp (buf, pt, RT_LEN) == 0);
  memcpy (buf, ct, RT_LEN);
  fail_unless (seal_chunked (opener, iv, aad, sizeof (aad), buf, buf, RT_LEN,
          steps, tag));
  fail_unless (memcmp (buf, pt, RT_LEN) == 0);
  memset (buf, 0, RT_LEN);
  fail_unless (seal_chunked (opener, iv, aad, sizeof (aad), ct, buf, RT_LEN,
          steps2, tag));
  fail_unless (memcmp (buf, pt, RT_LEN) == 0);

  /* another IV (the next part of the tile), another cipher text */
  gst_tile_seal_iv (iv, TRUE, 3, 1234, 65536 + RT_LEN);
  fail_unless (gst_tile_seal_once (sealer, iv, aad, sizeof (aad), pt, buf,
          RT_LEN, tag2));
  fail_if (memcmp (buf, ct, RT_LEN) == 0);
  fail_if (memcmp (tag, tag2, sizeof (tag)) == 0);
  fail_unless (gst_tile_seal_once (opener, iv, aad, sizeof (aad), buf, buf,
          RT_LEN, tag2));
  fail_unless (memcmp (buf, pt, RT_LEN) == 0);

  /* an abandon: the header alone, no AAD at all, and no AAD nor data */
  fail_unless (gst_tile_seal_once (sealer, iv, aad, sizeof (aad), NULL, NULL,
          0, tag));
  fail_unless (gst_tile_seal_once (opener, iv, aad, sizeof (aad), NULL, NULL,
          0, tag));
  fail_if (gst_tile_seal_once (opener, iv, NULL, 0, NULL, NULL, 0, tag));
  fail_unless (gst_tile_seal_once (sealer, iv, NULL, 0, pt, buf, 100, tag));
  fail_unless (gst_tile_seal_once (opener, iv, NULL, 0, buf, buf, 100, tag));
  fail_unless (memcmp (buf, pt, 100) == 0);
  fail_unless (gst_tile_seal_once (sealer, iv, NULL, 0, NULL, NULL, 0, tag));
  fail_unless (gst_tile_seal_once (opener, iv, NULL, 0, NULL, NULL, 0, tag));

  gst_tile_seal_free (sealer);
  gst_tile_seal_free (opener);
  gst_tile_seal_free (NULL);
  g_free (pt);
  g_free (ct);
  g_free (buf);
}

GST_END_TEST;

#define TAMPER_LEN 33

/* Opens @ct with @opener and expects it to fail. */
static void
expect_tampered (GstTileSeal * opener, const guint8 * iv, const guint8 * aad,
    gsize aad_len, const guint8 * ct, guint8 * tag, const gchar * what,
    guint bit)
{
  guint8 out[TAMPER_LEN];

  fail_if (gst_tile_seal_once (opener, iv, aad, aad_len, ct, out, TAMPER_LEN,
          tag), "%s bit %u", what, bit);
}

GST_START_TEST (test_tampered)
{
  static const guint8 other_key[GST_TILE_SEAL_KEY_SIZE] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0e
  };
  guint8 aad[20], pt[TAMPER_LEN], ct[TAMPER_LEN], out[TAMPER_LEN];
  guint8 iv[GST_TILE_SEAL_IV_SIZE], tag[GST_TILE_SEAL_TAG_SIZE];
  GstTileSeal *sealer = gst_tile_seal_new (TRUE);
  GstTileSeal *opener = gst_tile_seal_new (FALSE);
  guint i;

  for (i = 0; i < sizeof (aad); i++)
    aad[i] = 0x40 + i;
  kat_plain (pt, sizeof (pt));
  gst_tile_seal_iv (iv, FALSE, 7, 99, 4096);
  gst_tile_seal_set_key (sealer, kat_key);
  gst_tile_seal_set_key (opener, kat_key);
  fail_unless (gst_tile_seal_once (sealer, iv, aad, sizeof (aad), pt, ct,
          sizeof (pt), tag));
  fail_unless (gst_tile_seal_once (opener, iv, aad, sizeof (aad), ct, out,
          sizeof (ct), tag));
  fail_unless (memcmp (out, pt, sizeof (pt)) == 0);

#define FLIP(a, i) ((a)[(i) / 8] ^= 1 << ((i) % 8))
  for (i = 0; i < 8 * sizeof (ct); i++) {
    FLIP (ct, i);
    expect_tampered (opener, iv, aad, sizeof (aad), ct, tag, "cipher text", i);
    FLIP (ct, i);
  }
  for (i = 0; i < 8 * sizeof (tag); i++) {
    FLIP (tag, i);
    expect_tampered (opener, iv, aad, sizeof (aad), ct, tag, "tag", i);
    FLIP (tag, i);
  }
  for (i = 0; i < 8 * sizeof (aad); i++) {
    FLIP (aad, i);
    expect_tampered (opener, iv, aad, sizeof (aad), ct, tag, "AAD", i);
    FLIP (aad, i);
  }
  for (i = 0; i < 8 * sizeof (iv); i++) {
    FLIP (iv, i);
    expect_tampered (opener, iv, aad, sizeof (aad), ct, tag, "IV", i);
    FLIP (iv, i);
  }
#undef FLIP
  /* AAD cut short or dropped, cipher text cut short */
  expect_tampered (opener, iv, aad, sizeof (aad) - 1, ct, tag, "AAD length", 0);
  expect_tampered (opener, iv, NULL, 0, ct, tag, "no AAD", 0);
  fail_if (gst_tile_seal_once (opener, iv, aad, sizeof (aad), ct, out,
          sizeof (ct) - 1, tag));

  /* another key */
  gst_tile_seal_set_key (opener, other_key);
  expect_tampered (opener, iv, aad, sizeof (aad), ct, tag, "key", 0);

  /* after all that, the right key opens it again */
  gst_tile_seal_set_key (opener, kat_key);
  memset (out, 0, sizeof (out));
  fail_unless (gst_tile_seal_once (opener, iv, aad, sizeof (aad), ct, out,
          sizeof (ct), tag));
  fail_unless (memcmp (out, pt, sizeof (pt)) == 0);

  gst_tile_seal_free (sealer);
  gst_tile_seal_free (opener);
}

GST_END_TEST;

GST_START_TEST (test_set_key)
{
  guint8 key2[GST_TILE_SEAL_KEY_SIZE], iv[GST_TILE_SEAL_IV_SIZE];
  guint8 pt[100], out[100], out2[100], tag[GST_TILE_SEAL_TAG_SIZE];
  guint8 tag2[GST_TILE_SEAL_TAG_SIZE];
  GstTileSeal *sealer = gst_tile_seal_new (TRUE);
  GstTileSeal *sealer2 = gst_tile_seal_new (TRUE);
  GstTileSeal *opener = gst_tile_seal_new (FALSE);

  kat_iv (iv);
  kat_plain (pt, sizeof (pt));
  memcpy (key2, kat_key, sizeof (key2));
  key2[0] ^= 0x80;

  /* the same key again changes nothing, even in the middle of a part
   * (setting it up again would start the part over) */
  gst_tile_seal_set_key (sealer, kat_key);
  gst_tile_seal_set_key (sealer, kat_key);
  gst_tile_seal_begin (sealer, iv, (const guint8 *) kat_aad, strlen (kat_aad));
  gst_tile_seal_update (sealer, pt, out, 40);
  gst_tile_seal_set_key (sealer, kat_key);
  gst_tile_seal_update (sealer, pt + 40, out + 40, sizeof (pt) - 40);
  fail_unless (gst_tile_seal_end (sealer, tag));
  fail_unless (memcmp (out, kat_ct, sizeof (out)) == 0);
  fail_unless (memcmp (tag, kat_tag, sizeof (tag)) == 0);

  /* a new key: as a fresh cipher with that key, and no longer the old */
  gst_tile_seal_set_key (sealer, key2);
  fail_unless (gst_tile_seal_once (sealer, iv, (const guint8 *) kat_aad,
          strlen (kat_aad), pt, out, sizeof (pt), tag));
  fail_if (memcmp (out, kat_ct, sizeof (out)) == 0);
  gst_tile_seal_set_key (sealer2, key2);
  fail_unless (gst_tile_seal_once (sealer2, iv, (const guint8 *) kat_aad,
          strlen (kat_aad), pt, out2, sizeof (pt), tag2));
  fail_unless (memcmp (out, out2, sizeof (out)) == 0);
  fail_unless (memcmp (tag, tag2, sizeof (tag)) == 0);

  gst_tile_seal_set_key (opener, kat_key);
  fail_if (gst_tile_seal_once (opener, iv, (const guint8 *) kat_aad,
          strlen (kat_aad), out, out2, sizeof (out), tag));
  gst_tile_seal_set_key (opener, key2);
  fail_unless (gst_tile_seal_once (opener, iv, (const guint8 *) kat_aad,
          strlen (kat_aad), out, out2, sizeof (out), tag));
  fail_unless (memcmp (out2, pt, sizeof (pt)) == 0);

  /* and back to the first */
  gst_tile_seal_set_key (sealer, kat_key);
  fail_unless (gst_tile_seal_once (sealer, iv, (const guint8 *) kat_aad,
          strlen (kat_aad), pt, out, sizeof (pt), tag));
  fail_unless (memcmp (out, kat_ct, sizeof (out)) == 0);
  fail_unless (memcmp (tag, kat_tag, sizeof (tag)) == 0);

  /* a cipher without a key yet is a programming error */
  {
    GstTileSeal *keyless = gst_tile_seal_new (TRUE);

    ASSERT_CRITICAL (gst_tile_seal_begin (keyless, iv, NULL, 0));
    gst_tile_seal_free (keyless);
  }

  gst_tile_seal_free (sealer);
  gst_tile_seal_free (sealer2);
  gst_tile_seal_free (opener);
}

GST_END_TEST;

static Suite *
tileseal_suite (void)
{
  Suite *s = suite_create ("tileseal");
  TCase *tc = test_suite_add_general (s, 0);

  test_watch_log_domain ("GStreamer-Tile");
  tcase_add_test (tc, test_random);
  tcase_add_test (tc, test_mac);
  tcase_add_test (tc, test_iv);
  tcase_add_test (tc, test_gcm_spec_vector);
  tcase_add_test (tc, test_gcm_known_answer);
  tcase_add_test (tc, test_round_trip);
  tcase_add_test (tc, test_tampered);
  tcase_add_test (tc, test_set_key);
  return s;
}

GST_CHECK_MAIN (tileseal);
