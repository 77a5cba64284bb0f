/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gsttilekeys
 * @title: GstTileKeys
 * @short_description: a session's keys from its passphrase handshake, and
 *     its sealed control records
 *
 * With a passphrase both ends run CPace (tilepake.c): the server's share in
 * its CHALLENGE, the client's in its AUTH, and each derives the same ISK
 * only if both used the same passphrase. Everything else follows with
 * HKDF-SHA256 (RFC 5869), PRK = HKDF-Extract (salt = the transcript hash,
 * IKM = ISK), the transcript hash being SHA-256 of HELLO's payload,
 * CHALLENGE's payload and the client's share:
 *
 * - the proofs (key confirmation): HKDF-Expand (PRK, "gst-bc tile client
 *   proof" or "gst-bc tile sender proof", 32): each side shows it has the
 *   same keys, bound to the whole handshake;
 * - the traffic secrets of the sealed control records, one per direction
 *   ("gst-bc tile c2s", "gst-bc tile s2c"); a record's AES-128-GCM key and
 *   IV are HKDF-Expand (secret, "key", 16) and (secret, "iv", 12), its
 *   nonce the IV XOR the record's sequence number (TLS 1.3's record
 *   protection, RFC 8446 section 5.3); after %GST_TILE_KEYS_RECORDS_PER_KEY
 *   records the secret becomes HKDF-Expand (secret, "traffic upd", 32) on
 *   both sides (section 7.2's key update, at a fixed count instead of a
 *   message);
 * - the data secret ("gst-bc tile data"): the key of the tile parts and
 *   datagrams of frame f in generation g is HKDF-Expand (secret, "gst-bc
 *   tile data key" || g || f / %GST_TILE_KEYS_EPOCH_FRAMES, 16), so it
 *   changes with every generation and every 65536 frames;
 * - the MAC keys of the UNIT_HELLOs, one per direction ("gst-bc tile unit
 *   c2s", "gst-bc tile unit s2c"); the MAC covers the UNIT_HELLO's fields
 *   and its kind (the client's, the server's challenge, its acceptance).
 *
 * A sealed control record is a control message whose header says SEALED
 * and whose payload is the inner message (its 12-byte header and payload)
 * encrypted, followed by the 16-byte tag; the outer header is the
 * additional authenticated data. The sequence number is implicit: a
 * record that was changed, replayed, reordered, dropped or injected does
 * not open.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilekeys.h"

#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>

/* IV bytes of a record's nonce */
#define RECORD_IV_SIZE GST_TILE_SEAL_IV_SIZE

struct _GstTileRecords
{
  GstTileSeal *seal;
  gboolean sealing;
  guint8 secret[GST_TILE_KEYS_HASH_SIZE];
  guint8 iv[RECORD_IV_SIZE];
  guint64 seq;                  /* records under the current key */
  guint64 count;                /* records in all */
  guint64 per_key;
};

/* A big-endian integer at any address, byte by byte */
static void
put_be (guint8 * p, guint64 v, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    p[i] = (guint8) (v >> (8 * (n - 1 - i)));
}

static EVP_PKEY_CTX *
hkdf_ctx (int mode, const guint8 * key, gsize key_len)
{
  EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id (EVP_PKEY_HKDF, NULL);

  if (!ctx || EVP_PKEY_derive_init (ctx) != 1 ||
      EVP_PKEY_CTX_hkdf_mode (ctx, mode) != 1 ||
      EVP_PKEY_CTX_set_hkdf_md (ctx, EVP_sha256 ()) != 1 ||
      EVP_PKEY_CTX_set1_hkdf_key (ctx, key, (int) key_len) != 1)
    g_error ("libcrypto: HKDF-SHA256 failed");
  return ctx;
}

/**
 * gst_tile_keys_hkdf_extract:
 * @salt: (array length=salt_len) (nullable): the salt
 * @salt_len: its bytes
 * @ikm: (array length=ikm_len): the input keying material
 * @ikm_len: its bytes, at least 1
 * @prk: (out caller-allocates) (array fixed-size=32): HKDF-Extract's PRK
 *
 * HKDF-Extract with SHA-256 (RFC 5869 section 2.2).
 */
void
gst_tile_keys_hkdf_extract (const guint8 * salt, gsize salt_len,
    const guint8 * ikm, gsize ikm_len, guint8 prk[GST_TILE_KEYS_HASH_SIZE])
{
  static const guint8 zeros[GST_TILE_KEYS_HASH_SIZE] = { 0 };
  EVP_PKEY_CTX *ctx;
  size_t len = GST_TILE_KEYS_HASH_SIZE;

  g_return_if_fail (ikm != NULL && ikm_len > 0 && ikm_len <= G_MAXINT);
  g_return_if_fail (salt_len <= G_MAXINT && prk != NULL);

  ctx = hkdf_ctx (EVP_PKEY_HKDEF_MODE_EXTRACT_ONLY, ikm, ikm_len);
  /* (RFC 5869: no salt is a string of zeros as long as the hash) */
  if (EVP_PKEY_CTX_set1_hkdf_salt (ctx, salt_len ? salt : zeros,
          (int) (salt_len ? salt_len : sizeof (zeros))) != 1 ||
      EVP_PKEY_derive (ctx, prk, &len) != 1 || len != GST_TILE_KEYS_HASH_SIZE)
    g_error ("libcrypto: HKDF-SHA256 failed");
  EVP_PKEY_CTX_free (ctx);
}

/**
 * gst_tile_keys_hkdf_expand:
 * @prk: (array length=prk_len): a pseudorandom key, at least 32 bytes
 * @prk_len: its bytes
 * @info: (array length=info_len) (nullable): the context
 * @info_len: its bytes
 * @out: (out caller-allocates) (array length=out_len): the output keying
 *     material
 * @out_len: bytes wanted, 1 to 8160
 *
 * HKDF-Expand with SHA-256 (RFC 5869 section 2.3).
 */
void
gst_tile_keys_hkdf_expand (const guint8 * prk, gsize prk_len,
    const guint8 * info, gsize info_len, guint8 * out, gsize out_len)
{
  EVP_PKEY_CTX *ctx;
  size_t len = out_len;

  g_return_if_fail (prk != NULL && prk_len >= GST_TILE_KEYS_HASH_SIZE);
  g_return_if_fail (prk_len <= G_MAXINT && info_len <= 1024);
  g_return_if_fail (out != NULL && out_len > 0 && out_len <= 255 * 32);

  ctx = hkdf_ctx (EVP_PKEY_HKDEF_MODE_EXPAND_ONLY, prk, prk_len);
  if ((info_len > 0 && EVP_PKEY_CTX_add1_hkdf_info (ctx, info,
              (int) info_len) != 1) ||
      EVP_PKEY_derive (ctx, out, &len) != 1 || len != out_len)
    g_error ("libcrypto: HKDF-SHA256 failed");
  EVP_PKEY_CTX_free (ctx);
}

static void
expand_label (const guint8 prk[GST_TILE_KEYS_HASH_SIZE], const gchar * label,
    guint8 * out, gsize out_len)
{
  gst_tile_keys_hkdf_expand (prk, GST_TILE_KEYS_HASH_SIZE,
      (const guint8 *) label, strlen (label), out, out_len);
}

/**
 * gst_tile_keys_transcript:
 * @hello: the client's HELLO
 * @challenge: the server's CHALLENGE
 * @client_share: (array fixed-size=32): the client's share, from its AUTH
 * @th: (out caller-allocates) (array fixed-size=32): SHA-256 of the
 *     payloads of HELLO and CHALLENGE, and the client's share, as they
 *     travel
 */
void
gst_tile_keys_transcript (const GstTileWireHello * hello,
    const GstTileWireChallenge * challenge,
    const guint8 client_share[GST_TILE_WIRE_SHARE_SIZE],
    guint8 th[GST_TILE_KEYS_HASH_SIZE])
{
  GByteArray *m = g_byte_array_new ();
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize len = GST_TILE_KEYS_HASH_SIZE;

  g_return_if_fail (hello && challenge && client_share && th);

  /* the payloads as packed (the headers are fixed) */
  gst_tile_wire_hello_pack (hello, m, NULL);
  g_checksum_update (sum, m->data + GST_TILE_WIRE_HEADER_SIZE,
      m->len - GST_TILE_WIRE_HEADER_SIZE);
  g_byte_array_set_size (m, 0);
  gst_tile_wire_challenge_pack (challenge, m);
  g_checksum_update (sum, m->data + GST_TILE_WIRE_HEADER_SIZE,
      m->len - GST_TILE_WIRE_HEADER_SIZE);
  g_checksum_update (sum, client_share, GST_TILE_WIRE_SHARE_SIZE);
  g_checksum_get_digest (sum, th, &len);
  g_checksum_free (sum);
  g_byte_array_unref (m);
}

/**
 * gst_tile_keys_derive:
 * @isk: (array length=isk_len): the CPace ISK
 * @isk_len: its bytes
 * @th: (array fixed-size=32): gst_tile_keys_transcript()
 * @keys: (out caller-allocates): the session's keys
 *
 * Derives every key of a session (see the section's description).
 */
void
gst_tile_keys_derive (const guint8 * isk, gsize isk_len,
    const guint8 th[GST_TILE_KEYS_HASH_SIZE], GstTileKeys * keys)
{
  guint8 prk[GST_TILE_KEYS_HASH_SIZE];

  g_return_if_fail (isk != NULL && th != NULL && keys != NULL);

  gst_tile_keys_hkdf_extract (th, GST_TILE_KEYS_HASH_SIZE, isk, isk_len, prk);
  expand_label (prk, "gst-bc tile client proof", keys->client_proof,
      sizeof (keys->client_proof));
  expand_label (prk, "gst-bc tile sender proof", keys->sender_proof,
      sizeof (keys->sender_proof));
  expand_label (prk, "gst-bc tile c2s", keys->c2s, sizeof (keys->c2s));
  expand_label (prk, "gst-bc tile s2c", keys->s2c, sizeof (keys->s2c));
  expand_label (prk, "gst-bc tile data", keys->data, sizeof (keys->data));
  expand_label (prk, "gst-bc tile unit c2s", keys->unit_c2s,
      sizeof (keys->unit_c2s));
  expand_label (prk, "gst-bc tile unit s2c", keys->unit_s2c,
      sizeof (keys->unit_s2c));
  gst_tile_seal_wipe (prk, sizeof (prk));
}

/**
 * gst_tile_keys_clear:
 * @keys: a session's keys
 *
 * Wipes every one.
 */
void
gst_tile_keys_clear (GstTileKeys * keys)
{
  g_return_if_fail (keys != NULL);

  gst_tile_seal_wipe (keys, sizeof (*keys));
}

/**
 * gst_tile_keys_data_key:
 * @secret: (array fixed-size=32): the data secret (#GstTileKeys's, or a
 *     multicast group's)
 * @generation: the frame's CONFIG generation
 * @frame: the frame number
 * @key: (out caller-allocates) (array fixed-size=16): the AES-128-GCM key
 *     of the frame's tile parts and datagrams
 *
 * The key changes with the generation and every
 * %GST_TILE_KEYS_EPOCH_FRAMES frames.
 */
void
gst_tile_keys_data_key (const guint8 secret[GST_TILE_KEYS_HASH_SIZE],
    guint32 generation, guint64 frame, guint8 key[GST_TILE_SEAL_KEY_SIZE])
{
  static const gchar label[] = "gst-bc tile data key";
  guint8 info[sizeof (label) - 1 + 4 + 8];
  guint64 epoch = frame / GST_TILE_KEYS_EPOCH_FRAMES;

  g_return_if_fail (secret != NULL && key != NULL);

  memcpy (info, label, sizeof (label) - 1);
  put_be (info + sizeof (label) - 1, generation, 4);
  put_be (info + sizeof (label) - 1 + 4, epoch, 8);
  gst_tile_keys_hkdf_expand (secret, GST_TILE_KEYS_HASH_SIZE, info,
      sizeof (info), key, GST_TILE_SEAL_KEY_SIZE);
}

/**
 * gst_tile_keys_unit_mac:
 * @key: (array fixed-size=32): #GstTileKeys's unit_c2s (the client's) or
 *     unit_s2c (the server's answers)
 * @hello: a UNIT_HELLO (its @mac is not read)
 * @kind: what it is
 * @mac: (out caller-allocates) (array fixed-size=16): the first 16 bytes
 *     of HMAC-SHA256 (@key, token || generation || unit || cookie || kind)
 */
void
gst_tile_keys_unit_mac (const guint8 key[GST_TILE_KEYS_HASH_SIZE],
    const GstTileWireUnitHello * hello, GstTileKeysUnitMac kind,
    guint8 mac[GST_TILE_WIRE_UNIT_MAC_SIZE])
{
  guint8 msg[8 + 4 + 2 + GST_TILE_WIRE_COOKIE_SIZE + 1];
  guint8 full[GST_TILE_SEAL_MAC_SIZE];

  g_return_if_fail (key != NULL && hello != NULL && mac != NULL);

  put_be (msg, hello->token, 8);
  put_be (msg + 8, hello->generation, 4);
  put_be (msg + 12, hello->unit, 2);
  memcpy (msg + 14, hello->cookie, GST_TILE_WIRE_COOKIE_SIZE);
  msg[14 + GST_TILE_WIRE_COOKIE_SIZE] = (guint8) kind;
  gst_tile_seal_mac (key, msg, sizeof (msg), full);
  memcpy (mac, full, GST_TILE_WIRE_UNIT_MAC_SIZE);
  gst_tile_seal_wipe (full, sizeof (full));
}

/**
 * gst_tile_keys_unit_mac_check:
 * @key: (array fixed-size=32): the MAC key of the side that sent @hello
 * @kind: what @hello must be
 * @hello: a UNIT_HELLO
 *
 * Returns: whether @hello's MAC is right for @kind (compared in constant
 *     time).
 */
gboolean
gst_tile_keys_unit_mac_check (const guint8 key[GST_TILE_KEYS_HASH_SIZE],
    GstTileKeysUnitMac kind, const GstTileWireUnitHello * hello)
{
  guint8 want[GST_TILE_WIRE_UNIT_MAC_SIZE];
  gboolean ok;

  gst_tile_keys_unit_mac (key, hello, kind, want);
  ok = gst_tile_seal_equal (want, hello->mac, sizeof (want));
  gst_tile_seal_wipe (want, sizeof (want));
  return ok;
}

/* The key and IV of the current traffic secret. */
static void
records_key (GstTileRecords * r)
{
  guint8 key[GST_TILE_SEAL_KEY_SIZE];

  expand_label (r->secret, "key", key, sizeof (key));
  expand_label (r->secret, "iv", r->iv, sizeof (r->iv));
  gst_tile_seal_set_key (r->seal, key);
  gst_tile_seal_wipe (key, sizeof (key));
  r->seq = 0;
}

/**
 * gst_tile_records_new:
 * @seal: %TRUE for the records this side sends, %FALSE for the ones it
 *     receives
 * @secret: (array fixed-size=32): the direction's traffic secret
 *     (#GstTileKeys's c2s or s2c)
 *
 * Returns: (transfer full): the records of one direction, for one thread
 *     at a time
 */
GstTileRecords *
gst_tile_records_new (gboolean seal,
    const guint8 secret[GST_TILE_KEYS_HASH_SIZE])
{
  GstTileRecords *r;

  g_return_val_if_fail (secret != NULL, NULL);

  r = g_new0 (GstTileRecords, 1);
  r->seal = gst_tile_seal_new (seal);
  r->sealing = seal;
  r->per_key = GST_TILE_KEYS_RECORDS_PER_KEY;
  memcpy (r->secret, secret, sizeof (r->secret));
  records_key (r);
  return r;
}

void
gst_tile_records_free (GstTileRecords * records)
{
  if (!records)
    return;
  gst_tile_seal_free (records->seal);
  gst_tile_seal_wipe (records, sizeof (*records));
  g_free (records);
}

/**
 * gst_tile_records_set_key_interval:
 * @records: records of one direction
 * @records_per_key: records under one key (both sides must agree)
 *
 * For tests: how often the key is updated, instead of
 * %GST_TILE_KEYS_RECORDS_PER_KEY.
 */
void
gst_tile_records_set_key_interval (GstTileRecords * records,
    guint64 records_per_key)
{
  g_return_if_fail (records != NULL && records_per_key > 0);

  records->per_key = records_per_key;
}

/**
 * gst_tile_records_get_count:
 * @records: records of one direction
 *
 * Returns: the records sealed or opened so far
 */
guint64
gst_tile_records_get_count (const GstTileRecords * records)
{
  g_return_val_if_fail (records != NULL, 0);

  return records->count;
}

/* The nonce of the next record; the key is updated first when it is due. */
static void
records_next_iv (GstTileRecords * r, guint8 iv[RECORD_IV_SIZE])
{
  guint i;

  if (r->seq == r->per_key) {
    guint8 next[GST_TILE_KEYS_HASH_SIZE];

    expand_label (r->secret, "traffic upd", next, sizeof (next));
    memcpy (r->secret, next, sizeof (next));
    gst_tile_seal_wipe (next, sizeof (next));
    records_key (r);
  }
  memcpy (iv, r->iv, RECORD_IV_SIZE);
  for (i = 0; i < 8; i++)
    iv[RECORD_IV_SIZE - 1 - i] ^= (guint8) (r->seq >> (8 * i));
  r->seq++;
  r->count++;
}

/**
 * gst_tile_records_seal:
 * @records: the records this side sends
 * @message: (inout): a packed control message (header and payload), of
 *     at most %GST_TILE_WIRE_MAX_PAYLOAD - 28 bytes; replaced by its
 *     sealed record
 *
 * Seals the next record.
 *
 * Returns: %FALSE, @message unchanged, when it cannot be sealed (too
 *     large): it must not be sent then
 */
gboolean
gst_tile_records_seal (GstTileRecords * records, GByteArray * message)
{
  guint8 hdr[GST_TILE_WIRE_HEADER_SIZE], iv[RECORD_IV_SIZE];
  guint inner;

  g_return_val_if_fail (records != NULL && records->sealing, FALSE);
  g_return_val_if_fail (message != NULL && message->len >=
      GST_TILE_WIRE_HEADER_SIZE, FALSE);
  g_return_val_if_fail (message->len + GST_TILE_SEAL_TAG_SIZE <=
      GST_TILE_WIRE_MAX_PAYLOAD, FALSE);

  inner = message->len;
  gst_tile_wire_header_write (hdr, GST_TILE_WIRE_TYPE_SEALED,
      inner + GST_TILE_SEAL_TAG_SIZE);
  records_next_iv (records, iv);
  g_byte_array_set_size (message, GST_TILE_WIRE_HEADER_SIZE + inner +
      GST_TILE_SEAL_TAG_SIZE);
  memmove (message->data + GST_TILE_WIRE_HEADER_SIZE, message->data, inner);
  memcpy (message->data, hdr, GST_TILE_WIRE_HEADER_SIZE);
  gst_tile_seal_once (records->seal, iv, hdr, sizeof (hdr),
      message->data + GST_TILE_WIRE_HEADER_SIZE,
      message->data + GST_TILE_WIRE_HEADER_SIZE, inner,
      message->data + GST_TILE_WIRE_HEADER_SIZE + inner);
  return TRUE;
}

/**
 * gst_tile_records_open:
 * @records: the records this side receives
 * @header: the record's header, parsed
 * @payload: (inout): its payload; replaced by the inner message's payload
 * @inner: (out caller-allocates): the inner message's header
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Opens the next record. Anything but a SEALED record whose tag checks
 * under the next sequence number (a message in the clear, a record
 * changed, replayed, reordered or injected) is
 * %GST_TILE_WIRE_ERROR_UNAUTHORIZED, and nothing of it may be used; the
 * session is over then. The inner header is checked as any header.
 *
 * Returns: %FALSE with @error set when the record does not open.
 */
gboolean
gst_tile_records_open (GstTileRecords * records,
    const GstTileWireHeader * header, GByteArray * payload,
    GstTileWireHeader * inner, GError ** error)
{
  guint8 hdr[GST_TILE_WIRE_HEADER_SIZE], iv[RECORD_IV_SIZE];
  gsize len;

  g_return_val_if_fail (records != NULL && !records->sealing, FALSE);
  g_return_val_if_fail (header != NULL && payload != NULL, FALSE);
  g_return_val_if_fail (inner != NULL, FALSE);

  if (header->type != GST_TILE_WIRE_TYPE_SEALED) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_UNAUTHORIZED,
        "a %s message in the clear in a session with a passphrase (every "
        "control message after the handshake is sealed)",
        gst_tile_wire_type_get_name (header->type));
    return FALSE;
  }
  if (payload->len < GST_TILE_WIRE_HEADER_SIZE + GST_TILE_SEAL_TAG_SIZE) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_UNAUTHORIZED,
        "a sealed control record of %u bytes, shorter than a header and a "
        "tag", payload->len);
    return FALSE;
  }
  len = payload->len - GST_TILE_SEAL_TAG_SIZE;
  gst_tile_wire_header_write (hdr, GST_TILE_WIRE_TYPE_SEALED, payload->len);
  records_next_iv (records, iv);
  if (!gst_tile_seal_once (records->seal, iv, hdr, sizeof (hdr),
          payload->data, payload->data, len, payload->data + len)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_UNAUTHORIZED,
        "control record %" G_GUINT64_FORMAT " failed its authentication: "
        "changed, replayed, reordered or injected on the way",
        records->count - 1);
    /* (its bytes were opened in place: none of it may stay) */
    memset (payload->data, 0, payload->len);
    return FALSE;
  }
  if (gst_tile_wire_header_parse (payload->data, len, inner, error) !=
      GST_TILE_WIRE_PARSE_OK)
    goto bad_inner;
  if (inner->type == GST_TILE_WIRE_TYPE_SEALED ||
      inner->payload_len != len - GST_TILE_WIRE_HEADER_SIZE) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "a sealed record whose inner %s message says %u bytes of %"
        G_GSIZE_FORMAT, gst_tile_wire_type_get_name (inner->type),
        inner->payload_len, len - GST_TILE_WIRE_HEADER_SIZE);
    goto bad_inner;
  }
  memmove (payload->data, payload->data + GST_TILE_WIRE_HEADER_SIZE,
      inner->payload_len);
  g_byte_array_set_size (payload, inner->payload_len);
  return TRUE;

bad_inner:
  /* (NEED_MORE: shorter than a header) */
  if (error && !*error)
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_TRUNCATED,
        "a sealed record shorter than its inner header");
  return FALSE;
}
