/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_SEAL_H__
#define __GST_TILE_SEAL_H__

#include <gst/tile/tilewire.h>
#include <glib.h>

G_BEGIN_DECLS

/**
 * GST_TILE_SEAL_NONCE_SIZE:
 *
 * Bytes of the random nonce each side brings to a handshake (HELLO and
 * CHALLENGE): together, the session id of the passphrase's CPace.
 */
#define GST_TILE_SEAL_NONCE_SIZE GST_TILE_WIRE_NONCE_SIZE

/**
 * GST_TILE_SEAL_KEY_SIZE:
 *
 * Bytes of a data key (AES-128-GCM) of a session (gst_tile_keys_data_key())
 * or of a sealed control record.
 */
#define GST_TILE_SEAL_KEY_SIZE 16

/**
 * GST_TILE_SEAL_TAG_SIZE:
 *
 * Bytes of the authentication tag of every sealed tile part and datagram.
 */
#define GST_TILE_SEAL_TAG_SIZE GST_TILE_WIRE_TAG_SIZE

/**
 * GST_TILE_SEAL_IV_SIZE:
 *
 * Bytes of the AES-GCM nonce of a tile part or datagram
 * (gst_tile_seal_iv()).
 */
#define GST_TILE_SEAL_IV_SIZE 12

/**
 * GST_TILE_SEAL_IV_PARITY:
 *
 * ORed into the unit of gst_tile_seal_iv() for a parity datagram: its
 * nonces never meet those of the data datagrams.
 */
#define GST_TILE_SEAL_IV_PARITY 0x40

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

gboolean     gst_tile_seal_random        (guint8 * out, gsize len);

void         gst_tile_seal_wipe          (gpointer data, gsize len);

void         gst_tile_seal_mac           (const guint8 key[GST_TILE_SEAL_MAC_KEY_SIZE],
                                          const guint8 * data, gsize len,
                                          guint8 mac[GST_TILE_SEAL_MAC_SIZE]);

gboolean     gst_tile_seal_equal         (const guint8 * a, const guint8 * b,
                                          gsize len);

void         gst_tile_seal_iv            (guint8 iv[GST_TILE_SEAL_IV_SIZE],
                                          gboolean tcp, guint unit,
                                          guint64 frame, guint32 offset);

GstTileSeal *gst_tile_seal_new           (gboolean seal);

void         gst_tile_seal_free          (GstTileSeal * seal);

void         gst_tile_seal_set_key       (GstTileSeal * seal,
                                          const guint8 key[GST_TILE_SEAL_KEY_SIZE]);

void         gst_tile_seal_begin         (GstTileSeal * seal,
                                          const guint8 iv[GST_TILE_SEAL_IV_SIZE],
                                          const guint8 * aad, gsize aad_len);

void         gst_tile_seal_update        (GstTileSeal * seal,
                                          const guint8 * in, guint8 * out,
                                          gsize len);

gboolean     gst_tile_seal_end           (GstTileSeal * seal,
                                          guint8 tag[GST_TILE_SEAL_TAG_SIZE]);

gboolean     gst_tile_seal_once          (GstTileSeal * seal,
                                          const guint8 iv[GST_TILE_SEAL_IV_SIZE],
                                          const guint8 * aad, gsize aad_len,
                                          const guint8 * in, guint8 * out,
                                          gsize len,
                                          guint8 tag[GST_TILE_SEAL_TAG_SIZE]);

G_END_DECLS

#endif /* __GST_TILE_SEAL_H__ */
