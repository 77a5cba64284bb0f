/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_KEYS_H__
#define __GST_TILE_KEYS_H__

#include <gst/tile/tile-prelude.h>
#include <gst/tile/tilewire.h>
#include <gst/tile/tileseal.h>
#include <glib.h>

G_BEGIN_DECLS

/**
 * GST_TILE_KEYS_HASH_SIZE:
 *
 * Bytes of a SHA-256 hash: the handshake's transcript, the secrets.
 */
#define GST_TILE_KEYS_HASH_SIZE 32

/**
 * GST_TILE_KEYS_CPACE_CI:
 *
 * CPace's channel identifier of the passphrase handshake (the session id
 * is the two nonces of HELLO and CHALLENGE).
 */
#define GST_TILE_KEYS_CPACE_CI "gst-bc tile wire 6"

/**
 * GST_TILE_KEYS_EPOCH_FRAMES:
 *
 * The data key changes every this many frames (and with every
 * generation): far below AES-GCM's safety margin for the datagrams of the
 * largest frames at the highest rates.
 */
#define GST_TILE_KEYS_EPOCH_FRAMES 65536

/**
 * GST_TILE_KEYS_RECORDS_PER_KEY:
 *
 * Sealed control records under one key in one direction, after which both
 * sides update it (as TLS 1.3's KeyUpdate, implicitly).
 */
#define GST_TILE_KEYS_RECORDS_PER_KEY (G_GUINT64_CONSTANT (1) << 32)

/**
 * GstTileKeys:
 * @client_proof: what the client sends in its AUTH
 * @sender_proof: what the server sends in its AUTH
 * @c2s: the traffic secret of the client's sealed control records
 * @s2c: the traffic secret of the server's sealed control records
 * @data: the secret the data keys derive from
 * @unit_c2s: the MAC key of the client's UNIT_HELLOs
 * @unit_s2c: the MAC key of the server's answers to them
 *
 * Everything a session with a passphrase derives from the CPace
 * handshake's ISK and the hash of its transcript (HKDF-SHA256, RFC 5869).
 */
typedef struct
{
  guint8 client_proof[GST_TILE_WIRE_PROOF_SIZE];
  guint8 sender_proof[GST_TILE_WIRE_PROOF_SIZE];
  guint8 c2s[GST_TILE_KEYS_HASH_SIZE];
  guint8 s2c[GST_TILE_KEYS_HASH_SIZE];
  guint8 data[GST_TILE_KEYS_HASH_SIZE];
  guint8 unit_c2s[GST_TILE_KEYS_HASH_SIZE];
  guint8 unit_s2c[GST_TILE_KEYS_HASH_SIZE];
} GstTileKeys;

/**
 * GstTileRecords:
 *
 * The sealed control records of one direction of a session: AES-128-GCM
 * with a per-record nonce from a sequence number, as TLS 1.3 records.
 */
typedef struct _GstTileRecords GstTileRecords;

void     gst_tile_keys_hkdf_extract  (const guint8 * salt, gsize salt_len,
                                      const guint8 * ikm, gsize ikm_len,
                                      guint8 prk[GST_TILE_KEYS_HASH_SIZE]);

void     gst_tile_keys_hkdf_expand   (const guint8 * prk, gsize prk_len,
                                      const guint8 * info, gsize info_len,
                                      guint8 * out, gsize out_len);

void     gst_tile_keys_transcript    (const GstTileWireHello * hello,
                                      const GstTileWireChallenge * challenge,
                                      const guint8 client_share[GST_TILE_WIRE_SHARE_SIZE],
                                      guint8 th[GST_TILE_KEYS_HASH_SIZE]);

void     gst_tile_keys_derive        (const guint8 * isk, gsize isk_len,
                                      const guint8 th[GST_TILE_KEYS_HASH_SIZE],
                                      GstTileKeys * keys);

void     gst_tile_keys_clear         (GstTileKeys * keys);

void     gst_tile_keys_data_key      (const guint8 secret[GST_TILE_KEYS_HASH_SIZE],
                                      guint32 generation, guint64 frame,
                                      guint8 key[GST_TILE_SEAL_KEY_SIZE]);

/**
 * GstTileKeysUnitMac:
 * @GST_TILE_KEYS_UNIT_HELLO: the client's UNIT_HELLO
 * @GST_TILE_KEYS_UNIT_CHALLENGE: the server's answer with a cookie
 * @GST_TILE_KEYS_UNIT_ACCEPT: the server's acceptance (the echo from the
 *     unit's socket)
 * @GST_TILE_KEYS_PATH_HELLO: the client's PATH (another network path)
 * @GST_TILE_KEYS_PATH_ACCEPT: the server's answer to it
 *
 * What a UNIT_HELLO's MAC says it is: the same bytes with another kind do
 * not check, so a challenge cannot pass for an acceptance.
 */
typedef enum
{
  GST_TILE_KEYS_UNIT_HELLO = 0,
  GST_TILE_KEYS_UNIT_CHALLENGE = 1,
  GST_TILE_KEYS_UNIT_ACCEPT = 2,
  GST_TILE_KEYS_PATH_HELLO = 3,
  GST_TILE_KEYS_PATH_ACCEPT = 4,
} GstTileKeysUnitMac;

void     gst_tile_keys_unit_mac      (const guint8 key[GST_TILE_KEYS_HASH_SIZE],
                                      const GstTileWireUnitHello * hello,
                                      GstTileKeysUnitMac kind,
                                      guint8 mac[GST_TILE_WIRE_UNIT_MAC_SIZE]);

gboolean gst_tile_keys_unit_mac_check (const guint8 key[GST_TILE_KEYS_HASH_SIZE],
                                       GstTileKeysUnitMac kind,
                                       const GstTileWireUnitHello * hello);

GstTileRecords *gst_tile_records_new (gboolean seal,
                                      const guint8 secret[GST_TILE_KEYS_HASH_SIZE]);

void     gst_tile_records_free       (GstTileRecords * records);

void     gst_tile_records_set_key_interval (GstTileRecords * records,
                                            guint64 records_per_key);

guint64  gst_tile_records_get_count  (const GstTileRecords * records);

gboolean gst_tile_records_seal       (GstTileRecords * records,
                                      GByteArray * message);

gboolean gst_tile_records_open       (GstTileRecords * records,
                                      const GstTileWireHeader * header,
                                      GByteArray * payload,
                                      GstTileWireHeader * inner,
                                      GError ** error);

G_END_DECLS

#endif /* __GST_TILE_KEYS_H__ */
