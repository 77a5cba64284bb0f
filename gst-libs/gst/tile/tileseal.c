/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gsttileseal
 * @title: GstTileSeal
 * @short_description: the passphrase: handshake proofs and AES-128-GCM
 *
 * AES-128-GCM and HMAC-SHA256 from OpenSSL's libcrypto, for the
 * passphrase (tilesink's and tilesrc's `passphrase`: the handshake and the
 * keys are in tilepake.c and tilekeys.c) and tilesink's address-validation
 * cookies:
 *
 * - every tile part and datagram of a session with a passphrase:
 *   AES-128-GCM under its data key (gst_tile_keys_data_key()), its header
 *   as additional authenticated data, a 16-byte tag, and a 96-bit nonce
 *   from the transport (TCP or UDP), the unit, the frame number and the
 *   byte offset in the tile (gst_tile_seal_iv()), which the sender never
 *   repeats under one key;
 * - gst_tile_seal_mac(): HMAC-SHA256 under a 32-byte key;
 * - random bytes, wiping, comparison in constant time.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tileseal.h"

#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

struct _GstTileSeal
{
  EVP_CIPHER_CTX *ctx;
  gboolean seal;
  gboolean have_key;
  guint8 key[GST_TILE_SEAL_KEY_SIZE];
};

/**
 * gst_tile_seal_random:
 * @out: (out caller-allocates) (array length=len): where to write
 * @len: bytes wanted
 *
 * Fills @out from the system's cryptographically secure generator.
 *
 * Returns: %FALSE when it could not (then nothing may rely on @out).
 */
gboolean
gst_tile_seal_random (guint8 * out, gsize len)
{
  g_return_val_if_fail (out != NULL || len == 0, FALSE);
  g_return_val_if_fail (len <= G_MAXINT, FALSE);

  return RAND_bytes (out, (int) len) == 1;
}

/**
 * gst_tile_seal_wipe:
 * @data: (array length=len): secret bytes
 * @len: their number
 *
 * Overwrites @data with zeros in a way the compiler keeps even right
 * before the memory is freed.
 */
void
gst_tile_seal_wipe (gpointer data, gsize len)
{
  if (data && len)
    OPENSSL_cleanse (data, len);
}

/**
 * gst_tile_seal_mac:
 * @key: (array fixed-size=32): the key
 * @data: (array length=len): the message
 * @len: its bytes
 * @mac: (out caller-allocates) (array fixed-size=32): HMAC-SHA256 (@key,
 *     @data)
 *
 * A keyed MAC, for what one side hands out and must recognise when it
 * comes back (tilesink's address-validation cookies).
 */
void
gst_tile_seal_mac (const guint8 key[GST_TILE_SEAL_MAC_KEY_SIZE],
    const guint8 * data, gsize len, guint8 mac[GST_TILE_SEAL_MAC_SIZE])
{
  unsigned int out_len = GST_TILE_SEAL_MAC_SIZE;

  g_return_if_fail (key != NULL && mac != NULL);
  g_return_if_fail (data != NULL || len == 0);

  if (!HMAC (EVP_sha256 (), key, GST_TILE_SEAL_MAC_KEY_SIZE, data, len, mac,
          &out_len))
    g_error ("libcrypto: HMAC-SHA256 failed");
}

/**
 * gst_tile_seal_equal:
 * @a: (array length=len): bytes
 * @b: (array length=len): bytes
 * @len: how many
 *
 * Returns: whether @a and @b are equal, compared in a time that does not
 * depend on where they differ.
 */
gboolean
gst_tile_seal_equal (const guint8 * a, const guint8 * b, gsize len)
{
  return CRYPTO_memcmp (a, b, len) == 0;
}

/**
 * gst_tile_seal_iv:
 * @iv: (out caller-allocates) (array fixed-size=12): the nonce
 * @tcp: a tile part on a data connection (else a datagram)
 * @unit: the unit, below 64; for a parity datagram, the unit ORed with
 *   %GST_TILE_SEAL_IV_PARITY
 * @frame: the frame number (its low 56 bits are used: no session reaches
 *   2^56 frames)
 * @offset: the byte offset of the part or datagram in its tile (a parity
 *   datagram: its header's offset field)
 *
 * The AES-GCM nonce of a tile part or datagram: byte 0 is @unit, with bit
 * 7 set for TCP and bit 6 for a parity datagram; bytes 1-7 the frame number
 * and bytes 8-11 the offset, big endian. The sender seals each (transport,
 * kind, unit, frame, offset) once.
 */
void
gst_tile_seal_iv (guint8 iv[GST_TILE_SEAL_IV_SIZE], gboolean tcp, guint unit,
    guint64 frame, guint32 offset)
{
  guint i;

  g_return_if_fail (iv != NULL);
  g_return_if_fail ((unit & ~GST_TILE_SEAL_IV_PARITY) < 64);
  g_return_if_fail (!tcp || unit < 64);

  iv[0] = (tcp ? 0x80 : 0) | unit;
  for (i = 0; i < 7; i++)
    iv[1 + i] = (guint8) (frame >> (8 * (6 - i)));
  for (i = 0; i < 4; i++)
    iv[8 + i] = (guint8) (offset >> (8 * (3 - i)));
}

/**
 * gst_tile_seal_new:
 * @seal: %TRUE to seal (encrypt and tag), %FALSE to open (check and
 *   decrypt)
 *
 * Returns: (transfer full): a cipher for one thread, without a key yet
 * (gst_tile_seal_set_key()).
 */
GstTileSeal *
gst_tile_seal_new (gboolean seal)
{
  GstTileSeal *s = g_new0 (GstTileSeal, 1);

  s->ctx = EVP_CIPHER_CTX_new ();
  if (!s->ctx)
    g_error ("libcrypto: out of memory");
  s->seal = seal;
  return s;
}

void
gst_tile_seal_free (GstTileSeal * seal)
{
  if (!seal)
    return;
  EVP_CIPHER_CTX_free (seal->ctx);
  OPENSSL_cleanse (seal->key, sizeof (seal->key));
  g_free (seal);
}

/**
 * gst_tile_seal_set_key:
 * @seal: a cipher
 * @key: (array fixed-size=16): the session's data key
 *
 * Uses @key from now on; costs nothing when it is the key in use.
 */
void
gst_tile_seal_set_key (GstTileSeal * seal,
    const guint8 key[GST_TILE_SEAL_KEY_SIZE])
{
  g_return_if_fail (seal != NULL && key != NULL);

  if (seal->have_key && CRYPTO_memcmp (seal->key, key, sizeof (seal->key))
      == 0)
    return;
  if (EVP_CipherInit_ex (seal->ctx, EVP_aes_128_gcm (), NULL, key, NULL,
          seal->seal ? 1 : 0) != 1)
    g_error ("libcrypto: cannot set up AES-128-GCM");
  memcpy (seal->key, key, sizeof (seal->key));
  seal->have_key = TRUE;
}

/**
 * gst_tile_seal_begin:
 * @seal: a cipher with a key
 * @iv: (array fixed-size=12): from gst_tile_seal_iv()
 * @aad: (array length=aad_len) (nullable): the header, authenticated but
 *   not encrypted
 * @aad_len: its length
 *
 * Starts a tile part or datagram; gst_tile_seal_update() then goes through
 * its bytes in order and gst_tile_seal_end() finishes it.
 */
void
gst_tile_seal_begin (GstTileSeal * seal,
    const guint8 iv[GST_TILE_SEAL_IV_SIZE], const guint8 * aad, gsize aad_len)
{
  int n;

  g_return_if_fail (seal != NULL && seal->have_key && iv != NULL);
  g_return_if_fail (aad_len <= G_MAXINT);

  if (EVP_CipherInit_ex (seal->ctx, NULL, NULL, NULL, iv, -1) != 1 ||
      (aad_len > 0 && EVP_CipherUpdate (seal->ctx, NULL, &n, aad,
              (int) aad_len) != 1))
    g_error ("libcrypto: AES-128-GCM failed");
}

/**
 * gst_tile_seal_update:
 * @seal: a cipher after gst_tile_seal_begin()
 * @in: (array length=len): plain text to seal, or cipher text to open
 * @out: (array length=len): where the result goes; may be @in
 * @len: bytes
 */
void
gst_tile_seal_update (GstTileSeal * seal, const guint8 * in, guint8 * out,
    gsize len)
{
  g_return_if_fail (seal != NULL);

  while (len > 0) {
    int step = (int) MIN (len, 1 << 30), n;

    if (EVP_CipherUpdate (seal->ctx, out, &n, in, step) != 1 || n != step)
      g_error ("libcrypto: AES-128-GCM failed");
    in += step;
    out += step;
    len -= step;
  }
}

/**
 * gst_tile_seal_end:
 * @seal: a cipher after gst_tile_seal_begin()
 * @tag: (array fixed-size=16): sealing: the tag is written here; opening:
 *   the tag received
 *
 * Returns: opening, whether the tag matches: %FALSE means the header or
 * the data were changed on the way (or sealed with another key), and the
 * bytes opened must not be used. Sealing: %TRUE.
 */
gboolean
gst_tile_seal_end (GstTileSeal * seal, guint8 tag[GST_TILE_SEAL_TAG_SIZE])
{
  int n;

  g_return_val_if_fail (seal != NULL && tag != NULL, FALSE);

  if (seal->seal) {
    if (EVP_CipherFinal_ex (seal->ctx, NULL, &n) != 1 ||
        EVP_CIPHER_CTX_ctrl (seal->ctx, EVP_CTRL_GCM_GET_TAG,
            GST_TILE_SEAL_TAG_SIZE, tag) != 1)
      g_error ("libcrypto: AES-128-GCM failed");
    return TRUE;
  }
  if (EVP_CIPHER_CTX_ctrl (seal->ctx, EVP_CTRL_GCM_SET_TAG,
          GST_TILE_SEAL_TAG_SIZE, tag) != 1)
    g_error ("libcrypto: AES-128-GCM failed");
  return EVP_CipherFinal_ex (seal->ctx, NULL, &n) == 1;
}

/**
 * gst_tile_seal_once:
 * @seal: a cipher with a key
 * @iv: (array fixed-size=12): from gst_tile_seal_iv()
 * @aad: (array length=aad_len) (nullable): the header
 * @aad_len: its length
 * @in: (array length=len): the bytes
 * @out: (array length=len): the result; may be @in
 * @len: bytes
 * @tag: (array fixed-size=16): written (sealing) or checked (opening)
 *
 * gst_tile_seal_begin(), gst_tile_seal_update() and gst_tile_seal_end()
 * for one datagram.
 *
 * Returns: as gst_tile_seal_end().
 */
gboolean
gst_tile_seal_once (GstTileSeal * seal, const guint8 iv[GST_TILE_SEAL_IV_SIZE],
    const guint8 * aad, gsize aad_len, const guint8 * in, guint8 * out,
    gsize len, guint8 tag[GST_TILE_SEAL_TAG_SIZE])
{
  gst_tile_seal_begin (seal, iv, aad, aad_len);
  gst_tile_seal_update (seal, in, out, len);
  return gst_tile_seal_end (seal, tag);
}
