/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gsttilepake
 * @title: GstTilePake
 * @short_description: CPace, a balanced PAKE on ristretto255 with SHA-512
 *
 * Both ends of a connection know the same passphrase (the password-related
 * string PRS); CPace turns it into a strong shared key, the intermediate
 * session key ISK, without letting a passive observer or an active attacker
 * test guesses offline: an attacker gets one guess per run it takes part in.
 *
 * This is the cipher suite CPACE-RISTR255-SHA512 of the IRTF CFRG draft
 * "CPace, a balanced composable PAKE", draft-irtf-cfrg-cpace-21 (23 April
 * 2026, tag draft-irtf-cfrg-cpace-21 of
 * https://github.com/cfrg/draft-irtf-cfrg-cpace), in its
 * initiator-responder setting, and it reproduces the draft's test vectors
 * of appendix B.3 byte for byte (tests/check/libs/tilepake.c). The group
 * operations are libsodium's; this module only composes them:
 *
 * - lv_cat (appendix A.1.3): every field prefixed with its length in
 *   LEB128 (prepend_len, appendix A.1.1);
 * - generator_string (section 8.1, appendix A.2) = lv_cat (DSI, PRS,
 *   zero_bytes (len_zpad), CI, sid), with DSI = "CPaceRistretto255" and
 *   len_zpad = MAX (0, 128 - 1 - len (prepend_len (PRS)) -
 *   len (prepend_len (DSI))), 128 being SHA-512's input block size;
 * - g = element_derivation (SHA-512 (generator_string)): ristretto255's
 *   one-way map of the 64 bytes (section 8.3,
 *   crypto_core_ristretto255_from_hash());
 * - each side samples its scalar y as 32 random bytes with the bits above
 *   bit 251 cleared (section 8.3's recommended sample_scalar) and sends
 *   Y = encode (y * g);
 * - K = scalar_mult_vfy (y, peer's Y): the run is aborted when the peer's
 *   Y does not decode or K is the identity (section 7.2; libsodium's
 *   crypto_scalarmult_ristretto255() fails on both);
 * - ISK = SHA-512 (lv_cat ("CPaceRistretto255_ISK", sid, K) ||
 *   transcript_ir (Ya, ADa, Yb, ADb)), with transcript_ir = lv_cat (Ya,
 *   ADa) || lv_cat (Yb, ADb) (section 7.2, appendix A.3.4), where A is the
 *   initiator.
 *
 * K is never exposed (section 10.3) and the scalar is wiped as soon as it
 * has been used. CI and PRS never go on the wire; Y, AD and sid do. ISK
 * only authenticates implicitly: the application confirms it (section
 * 10.4) and derives its keys from it with a KDF (section 4).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilepake.h"

#include <string.h>
#include <sodium.h>

/* G_Ristretto255.DSI (section 8.3) and G.DSI || "_ISK" (section 7.2) */
static const gchar pake_dsi[] = "CPaceRistretto255";
static const gchar pake_dsi_isk[] = "CPaceRistretto255_ISK";

/* libsodium's sizes are the draft's */
G_STATIC_ASSERT (crypto_scalarmult_ristretto255_SCALARBYTES ==
    GST_TILE_PAKE_SCALAR_SIZE);
G_STATIC_ASSERT (crypto_scalarmult_ristretto255_BYTES ==
    GST_TILE_PAKE_SHARE_SIZE);
G_STATIC_ASSERT (crypto_core_ristretto255_BYTES ==
    GST_TILE_PAKE_GENERATOR_SIZE);
G_STATIC_ASSERT (crypto_core_ristretto255_HASHBYTES ==
    crypto_hash_sha512_BYTES);
G_STATIC_ASSERT (crypto_hash_sha512_BYTES == GST_TILE_PAKE_ISK_SIZE);

/* SHA-512's input block size: H.s_in_bytes (section 6.2) */
#define PAKE_HASH_BLOCK 128

/* the largest LEB128 encoding of a gsize (64 bits, 7 a byte) */
#define PAKE_LEB128_MAX 10

/* Where lv_cat writes: a SHA-512 state, a buffer, or neither (counting) */
typedef struct
{
  crypto_hash_sha512_state *hash;
  guint8 *out;
  gsize len;
} PakeSink;

static gboolean
pake_init (void)
{
  /* thread-safe, and cheap once done: 1 when it already was */
  if (sodium_init () < 0) {
    g_warning ("libsodium could not be initialised");
    return FALSE;
  }
  return TRUE;
}

static void
sink_put (PakeSink * sink, const guint8 * data, gsize len)
{
  if (len == 0)
    return;
  if (sink->hash)
    crypto_hash_sha512_update (sink->hash, data, len);
  if (sink->out)
    memcpy (sink->out + sink->len, data, len);
  sink->len += len;
}

/* prepend_len's prefix (appendix A.1.1): LEB128, 7 bits a byte, least
 * significant first, bit 7 set while more follow */
static gsize
leb128 (gsize len, guint8 out[PAKE_LEB128_MAX])
{
  gsize n = 0;

  do {
    out[n] = len & 0x7f;
    len >>= 7;
    if (len != 0)
      out[n] |= 0x80;
    n++;
  } while (len != 0);
  return n;
}

/* prepend_len (@data): one field of lv_cat */
static void
sink_put_lv (PakeSink * sink, const guint8 * data, gsize len)
{
  guint8 prefix[PAKE_LEB128_MAX];

  sink_put (sink, prefix, leb128 (len, prefix));
  sink_put (sink, data, len);
}

/* prepend_len (zero_bytes (@len)) */
static void
sink_put_zeros_lv (PakeSink * sink, gsize len)
{
  static const guint8 zeros[PAKE_HASH_BLOCK] = { 0 };
  guint8 prefix[PAKE_LEB128_MAX];

  sink_put (sink, prefix, leb128 (len, prefix));
  while (len > 0) {
    gsize n = MIN (len, sizeof (zeros));

    sink_put (sink, zeros, n);
    len -= n;
  }
}

/* generator_string (G.DSI, PRS, CI, sid, H.s_in_bytes) (appendix A.2) */
static void
sink_put_generator_string (PakeSink * sink, const guint8 * prs, gsize prs_len,
    const guint8 * ci, gsize ci_len, const guint8 * sid, gsize sid_len)
{
  guint8 prefix[PAKE_LEB128_MAX];
  gsize dsi_len = strlen (pake_dsi), used, zpad = 0;

  /* len_zpad = MAX (0, s_in_bytes - 1 - len (prepend_len (PRS)) -
   * len (prepend_len (DSI))); a PRS of a block or more needs none */
  if (prs_len < PAKE_HASH_BLOCK) {
    used = 1 + leb128 (prs_len, prefix) + prs_len +
        leb128 (dsi_len, prefix) + dsi_len;
    if (used < PAKE_HASH_BLOCK)
      zpad = PAKE_HASH_BLOCK - used;
  }

  sink_put_lv (sink, (const guint8 *) pake_dsi, dsi_len);
  sink_put_lv (sink, prs, prs_len);
  sink_put_zeros_lv (sink, zpad);
  sink_put_lv (sink, ci, ci_len);
  sink_put_lv (sink, sid, sid_len);
}

/**
 * gst_tile_pake_generator_string:
 * @prs: (array length=prs_len) (nullable): the password-related string
 * @prs_len: bytes of @prs
 * @ci: (array length=ci_len) (nullable): the channel identifier, or %NULL
 * @ci_len: bytes of @ci
 * @sid: (array length=sid_len) (nullable): the session identifier, or %NULL
 * @sid_len: bytes of @sid
 * @out: (out caller-allocates) (array length=out_size) (nullable): where to
 *   write the string, or %NULL to only measure it
 * @out_size: bytes available at @out
 *
 * The string CPace hashes into its generator: generator_string (G.DSI, PRS,
 * CI, sid, 128) of draft-irtf-cfrg-cpace-21, appendix A.2, for ristretto255
 * and SHA-512. It holds @prs in clear: wipe it after use
 * (gst_tile_seal_wipe()). Mostly for tests: gst_tile_pake_start() hashes
 * the same fields without ever assembling them.
 *
 * Returns: the length of the string; it is written only when @out holds at
 * least that many bytes.
 */
gsize
gst_tile_pake_generator_string (const guint8 * prs, gsize prs_len,
    const guint8 * ci, gsize ci_len, const guint8 * sid, gsize sid_len,
    guint8 * out, gsize out_size)
{
  PakeSink sink = { NULL, NULL, 0 };
  gsize len;

  g_return_val_if_fail (prs != NULL || prs_len == 0, 0);
  g_return_val_if_fail (ci != NULL || ci_len == 0, 0);
  g_return_val_if_fail (sid != NULL || sid_len == 0, 0);

  sink_put_generator_string (&sink, prs, prs_len, ci, ci_len, sid, sid_len);
  len = sink.len;
  if (out != NULL && out_size >= len) {
    PakeSink writer = { NULL, out, 0 };

    sink_put_generator_string (&writer, prs, prs_len, ci, ci_len, sid,
        sid_len);
  }
  return len;
}

/* g = encode (element_derivation (SHA-512 (generator_string))) */
static gboolean
pake_generator (const guint8 * prs, gsize prs_len, const guint8 * ci,
    gsize ci_len, const guint8 * sid, gsize sid_len,
    guint8 g[GST_TILE_PAKE_GENERATOR_SIZE])
{
  crypto_hash_sha512_state state;
  guint8 hash[crypto_hash_sha512_BYTES];
  PakeSink sink = { &state, NULL, 0 };
  gboolean ok;

  crypto_hash_sha512_init (&state);
  sink_put_generator_string (&sink, prs, prs_len, ci, ci_len, sid, sid_len);
  crypto_hash_sha512_final (&state, hash);
  ok = crypto_core_ristretto255_from_hash (g, hash) == 0;
  sodium_memzero (hash, sizeof (hash));
  sodium_memzero (&state, sizeof (state));
  if (!ok)
    sodium_memzero (g, GST_TILE_PAKE_GENERATOR_SIZE);
  return ok;
}

/**
 * gst_tile_pake_generator:
 * @prs: (array length=prs_len) (nullable): the password-related string
 * @prs_len: bytes of @prs
 * @ci: (array length=ci_len) (nullable): the channel identifier, or %NULL
 * @ci_len: bytes of @ci
 * @sid: (array length=sid_len) (nullable): the session identifier, or %NULL
 * @sid_len: bytes of @sid
 * @g: (out caller-allocates) (array fixed-size=32): the encoded generator
 *
 * CPace's generator G.calculate_generator (SHA-512, PRS, CI, sid) for
 * ristretto255 (draft-irtf-cfrg-cpace-21, section 8.3), encoded. Whoever
 * learns it can test password guesses offline: wipe it after use. Mostly
 * for tests:
 * gst_tile_pake_start() computes it on its own.
 *
 * Returns: %FALSE when libsodium could not be initialised.
 */
gboolean
gst_tile_pake_generator (const guint8 * prs, gsize prs_len,
    const guint8 * ci, gsize ci_len, const guint8 * sid, gsize sid_len,
    guint8 g[GST_TILE_PAKE_GENERATOR_SIZE])
{
  g_return_val_if_fail (prs != NULL || prs_len == 0, FALSE);
  g_return_val_if_fail (ci != NULL || ci_len == 0, FALSE);
  g_return_val_if_fail (sid != NULL || sid_len == 0, FALSE);
  g_return_val_if_fail (g != NULL, FALSE);

  if (!pake_init ())
    return FALSE;
  return pake_generator (prs, prs_len, ci, ci_len, sid, sid_len, g);
}

/**
 * gst_tile_pake_start:
 * @pake: (out caller-allocates): the side's state
 * @prs: (array length=prs_len) (nullable): the password-related string,
 *   the same on both sides
 * @prs_len: bytes of @prs
 * @ci: (array length=ci_len) (nullable): the channel identifier (both
 *   sides' view of the channel, never sent), or %NULL
 * @ci_len: bytes of @ci
 * @sid: (array length=sid_len) (nullable): the session identifier (public,
 *   unique to the session), or %NULL
 * @sid_len: bytes of @sid
 * @scalar: (array fixed-size=32) (nullable): %NULL for a fresh random
 *   scalar, as every real run needs; a fixed little-endian one reproduces
 *   the draft's test vectors
 *
 * Starts one side of a CPace run: computes the generator g from @prs, @ci
 * and @sid, samples the secret scalar y (32 random bytes, bits above 251
 * cleared, the recommended G.sample_scalar() of section 8.3) and the
 * public share Y = y * g (gst_tile_pake_share()), which goes to the peer
 * with this side's associated data. A scalar must never be used twice.
 *
 * Returns: %FALSE when libsodium could not be initialised or the share is
 * the identity (a scalar of zero modulo the group order); @pake is then
 * wiped.
 */
gboolean
gst_tile_pake_start (GstTilePake * pake, const guint8 * prs, gsize prs_len,
    const guint8 * ci, gsize ci_len, const guint8 * sid, gsize sid_len,
    const guint8 * scalar)
{
  guint8 g[GST_TILE_PAKE_GENERATOR_SIZE];
  gboolean ok;

  g_return_val_if_fail (pake != NULL, FALSE);
  g_return_val_if_fail (prs != NULL || prs_len == 0, FALSE);
  g_return_val_if_fail (ci != NULL || ci_len == 0, FALSE);
  g_return_val_if_fail (sid != NULL || sid_len == 0, FALSE);

  gst_tile_pake_clear (pake);
  if (!pake_init ())
    return FALSE;

  if (scalar != NULL) {
    memcpy (pake->scalar, scalar, sizeof (pake->scalar));
  } else {
    /* group_size_bits = 252: keep bits 0 to 251 */
    randombytes_buf (pake->scalar, sizeof (pake->scalar));
    pake->scalar[31] &= 0x0f;
  }

  ok = pake_generator (prs, prs_len, ci, ci_len, sid, sid_len, g) &&
      crypto_scalarmult_ristretto255 (pake->share, pake->scalar, g) == 0;
  sodium_memzero (g, sizeof (g));
  if (!ok)
    gst_tile_pake_clear (pake);
  return ok;
}

/**
 * gst_tile_pake_share:
 * @pake: a side started with gst_tile_pake_start()
 *
 * Returns: (transfer none) (array fixed-size=32): the side's public share
 * Y, to send to the peer; valid as long as @pake is.
 */
const guint8 *
gst_tile_pake_share (const GstTilePake * pake)
{
  g_return_val_if_fail (pake != NULL, NULL);

  return pake->share;
}

/**
 * gst_tile_pake_finish:
 * @pake: a side started with gst_tile_pake_start()
 * @initiator: %TRUE on the initiator's side (A, whose share and associated
 *   data come first in the transcript), %FALSE on the responder's (B)
 * @ad_self: (array length=ad_self_len) (nullable): the associated data this
 *   side sent with its share (ADa on the initiator's side), or %NULL
 * @ad_self_len: bytes of @ad_self
 * @peer_share: (array fixed-size=32): the share the peer sent
 * @ad_peer: (array length=ad_peer_len) (nullable): the associated data the
 *   peer sent with it, or %NULL
 * @ad_peer_len: bytes of @ad_peer
 * @sid: (array length=sid_len) (nullable): the session identifier given to
 *   gst_tile_pake_start(), or %NULL
 * @sid_len: bytes of @sid
 * @isk: (out caller-allocates) (array fixed-size=64): the intermediate
 *   session key
 *
 * Ends this side of the run: K = scalar_mult_vfy (y, @peer_share), then
 * ISK = SHA-512 (lv_cat ("CPaceRistretto255_ISK", sid, K) ||
 * transcript_ir (Ya, ADa, Yb, ADb)) (draft-irtf-cfrg-cpace-21, section
 * 7.2). Both sides get the same ISK only when they used the same
 * password, CI and sid and saw the same shares and associated data. The
 * scalar and K are wiped whatever happens: a side finishes once.
 *
 * Returns: %FALSE when the run must be aborted: @peer_share is not the
 * encoding of a ristretto255 element, or K is the identity (the peer sent
 * the identity, or @pake was not started or already finished); @isk is
 * then zeroed.
 */
gboolean
gst_tile_pake_finish (GstTilePake * pake, gboolean initiator,
    const guint8 * ad_self, gsize ad_self_len,
    const guint8 peer_share[GST_TILE_PAKE_SHARE_SIZE],
    const guint8 * ad_peer, gsize ad_peer_len,
    const guint8 * sid, gsize sid_len, guint8 isk[GST_TILE_PAKE_ISK_SIZE])
{
  crypto_hash_sha512_state state;
  guint8 k[crypto_scalarmult_ristretto255_BYTES];
  PakeSink sink = { &state, NULL, 0 };
  gboolean args_valid, ok = FALSE;

  g_return_val_if_fail (pake != NULL, FALSE);

  /* checked here, so that the scalar is wiped also on a caller's error */
  args_valid = peer_share != NULL && isk != NULL &&
      (ad_self != NULL || ad_self_len == 0) &&
      (ad_peer != NULL || ad_peer_len == 0) && (sid != NULL || sid_len == 0);

  /* scalar_mult_vfy: fails on an invalid encoding and on K = G.I */
  if (args_valid)
    ok = crypto_scalarmult_ristretto255 (k, pake->scalar, peer_share) == 0;
  sodium_memzero (pake->scalar, sizeof (pake->scalar));

  if (ok) {
    crypto_hash_sha512_init (&state);
    sink_put_lv (&sink, (const guint8 *) pake_dsi_isk, strlen (pake_dsi_isk));
    sink_put_lv (&sink, sid, sid_len);
    sink_put_lv (&sink, k, sizeof (k));
    /* transcript_ir (Ya, ADa, Yb, ADb) = lv_cat (Ya, ADa) ||
     * lv_cat (Yb, ADb), A being the initiator */
    if (initiator) {
      sink_put_lv (&sink, pake->share, sizeof (pake->share));
      sink_put_lv (&sink, ad_self, ad_self_len);
      sink_put_lv (&sink, peer_share, GST_TILE_PAKE_SHARE_SIZE);
      sink_put_lv (&sink, ad_peer, ad_peer_len);
    } else {
      sink_put_lv (&sink, peer_share, GST_TILE_PAKE_SHARE_SIZE);
      sink_put_lv (&sink, ad_peer, ad_peer_len);
      sink_put_lv (&sink, pake->share, sizeof (pake->share));
      sink_put_lv (&sink, ad_self, ad_self_len);
    }
    crypto_hash_sha512_final (&state, isk);
  } else if (isk != NULL) {
    sodium_memzero (isk, GST_TILE_PAKE_ISK_SIZE);
  }
  sodium_memzero (k, sizeof (k));
  sodium_memzero (&state, sizeof (state));

  g_return_val_if_fail (args_valid, FALSE);
  return ok;
}

/**
 * gst_tile_pake_clear:
 * @pake: a side, started or not
 *
 * Wipes @pake's scalar and share; gst_tile_pake_finish() would then refuse
 * it.
 */
void
gst_tile_pake_clear (GstTilePake * pake)
{
  g_return_if_fail (pake != NULL);

  sodium_memzero (pake, sizeof (*pake));
}
