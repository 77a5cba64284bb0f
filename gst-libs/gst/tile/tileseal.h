/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_SEAL_H__
#define __GST_TILE_SEAL_H__

#include <gst/tile/tile-prelude.h>
#include <glib.h>

G_BEGIN_DECLS

/**
 * GST_TILE_SEAL_NONCE_SIZE:
 *
 * Bytes of the random nonce each side brings to a handshake (HELLO and
 * CHALLENGE).
 */
#define GST_TILE_SEAL_NONCE_SIZE 16

/**
 * GST_TILE_SEAL_SALT_SIZE:
 *
 * Bytes of the sender's salt for the passphrase (CHALLENGE).
 */
#define GST_TILE_SEAL_SALT_SIZE 16

/**
 * GST_TILE_SEAL_SECRET_SIZE:
 *
 * Bytes of the key derived from the passphrase and the salt.
 */
#define GST_TILE_SEAL_SECRET_SIZE 32

/**
 * GST_TILE_SEAL_PROOF_SIZE:
 *
 * Bytes of the proof each side sends in AUTH.
 */
#define GST_TILE_SEAL_PROOF_SIZE 32

/**
 * GST_TILE_SEAL_KEY_SIZE:
 *
 * Bytes of a session's data key (AES-128-GCM).
 */
#define GST_TILE_SEAL_KEY_SIZE 16

/**
 * GST_TILE_SEAL_TAG_SIZE:
 *
 * Bytes of the authentication tag of every sealed tile part and datagram.
 */
#define GST_TILE_SEAL_TAG_SIZE 16

/**
 * GST_TILE_SEAL_IV_SIZE:
 *
 * Bytes of the AES-GCM nonce of a tile part or datagram
 * (gst_tile_seal_iv()).
 */
#define GST_TILE_SEAL_IV_SIZE 12

/**
 * GST_TILE_SEAL_ITERATIONS:
 *
 * PBKDF2-HMAC-SHA256 iterations from the passphrase to the secret: the
 * price of every guess an attacker makes offline.
 */
#define GST_TILE_SEAL_ITERATIONS 200000

/**
 * GST_TILE_SEAL_MAC_KEY_SIZE:
 *
 * Bytes of a key of gst_tile_seal_mac().
 */
#define GST_TILE_SEAL_MAC_KEY_SIZE 32

/**
 * GST_TILE_SEAL_MAC_SIZE:
 *
 * Bytes of a MAC of gst_tile_seal_mac() (HMAC-SHA256).
 */
#define GST_TILE_SEAL_MAC_SIZE 32

/**
 * GstTileSeal:
 *
 * AES-128-GCM in one direction (sealing or opening) for one thread: the
 * tiles and datagrams of a session with a passphrase.
 */
typedef struct _GstTileSeal GstTileSeal;

GST_TILE_API
gboolean     gst_tile_seal_random        (guint8 * out, gsize len);

GST_TILE_API
void         gst_tile_seal_wipe          (gpointer data, gsize len);

GST_TILE_API
void         gst_tile_seal_clear_passphrase (gchar ** passphrase);

GST_TILE_API
void         gst_tile_seal_mac           (const guint8 key[GST_TILE_SEAL_MAC_KEY_SIZE],
                                          const guint8 * data, gsize len,
                                          guint8 mac[GST_TILE_SEAL_MAC_SIZE]);

GST_TILE_API
gboolean     gst_tile_seal_equal         (const guint8 * a, const guint8 * b,
                                          gsize len);

GST_TILE_API
gboolean     gst_tile_seal_derive_secret (const gchar * passphrase,
                                          const guint8 salt[GST_TILE_SEAL_SALT_SIZE],
                                          guint8 secret[GST_TILE_SEAL_SECRET_SIZE]);

GST_TILE_API
void         gst_tile_seal_proof         (const guint8 secret[GST_TILE_SEAL_SECRET_SIZE],
                                          gboolean from_sender,
                                          const guint8 client_nonce[GST_TILE_SEAL_NONCE_SIZE],
                                          const guint8 sender_nonce[GST_TILE_SEAL_NONCE_SIZE],
                                          guint8 proof[GST_TILE_SEAL_PROOF_SIZE]);

GST_TILE_API
gboolean     gst_tile_seal_proof_check   (const guint8 secret[GST_TILE_SEAL_SECRET_SIZE],
                                          gboolean from_sender,
                                          const guint8 client_nonce[GST_TILE_SEAL_NONCE_SIZE],
                                          const guint8 sender_nonce[GST_TILE_SEAL_NONCE_SIZE],
                                          const guint8 proof[GST_TILE_SEAL_PROOF_SIZE]);

GST_TILE_API
void         gst_tile_seal_data_key      (const guint8 secret[GST_TILE_SEAL_SECRET_SIZE],
                                          const guint8 client_nonce[GST_TILE_SEAL_NONCE_SIZE],
                                          const guint8 sender_nonce[GST_TILE_SEAL_NONCE_SIZE],
                                          guint8 key[GST_TILE_SEAL_KEY_SIZE]);

GST_TILE_API
void         gst_tile_seal_iv            (guint8 iv[GST_TILE_SEAL_IV_SIZE],
                                          gboolean tcp, guint unit,
                                          guint64 frame, guint32 offset);

GST_TILE_API
GstTileSeal *gst_tile_seal_new           (gboolean seal);

GST_TILE_API
void         gst_tile_seal_free          (GstTileSeal * seal);

GST_TILE_API
void         gst_tile_seal_set_key       (GstTileSeal * seal,
                                          const guint8 key[GST_TILE_SEAL_KEY_SIZE]);

GST_TILE_API
void         gst_tile_seal_begin         (GstTileSeal * seal,
                                          const guint8 iv[GST_TILE_SEAL_IV_SIZE],
                                          const guint8 * aad, gsize aad_len);

GST_TILE_API
void         gst_tile_seal_update        (GstTileSeal * seal,
                                          const guint8 * in, guint8 * out,
                                          gsize len);

GST_TILE_API
gboolean     gst_tile_seal_end           (GstTileSeal * seal,
                                          guint8 tag[GST_TILE_SEAL_TAG_SIZE]);

GST_TILE_API
gboolean     gst_tile_seal_once          (GstTileSeal * seal,
                                          const guint8 iv[GST_TILE_SEAL_IV_SIZE],
                                          const guint8 * aad, gsize aad_len,
                                          const guint8 * in, guint8 * out,
                                          gsize len,
                                          guint8 tag[GST_TILE_SEAL_TAG_SIZE]);

G_END_DECLS

#endif /* __GST_TILE_SEAL_H__ */
