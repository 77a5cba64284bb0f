/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* CPace on ristretto255 with SHA-512 (tilepake.c) against the test vectors
 * of the IRTF CFRG draft "CPace, a balanced composable PAKE",
 * draft-irtf-cfrg-cpace-21 (23 April 2026), appendix B.3 "Test vector for
 * CPace using group ristretto255 and hash SHA-512": B.3.1 (generator
 * string, its hash, g), B.3.2 and B.3.3 (ya, Ya, yb, Yb), B.3.4 (K), B.3.5
 * (the ISK of the initiator-responder transcript), B.3.10 (scalar_mult
 * with valid inputs) and B.3.11 (invalid inputs for scalar_mult_vfy).
 * Copied from the draft's source, draft-irtf-cfrg-cpace.md at the tag
 * draft-irtf-cfrg-cpace-21 of https://github.com/cfrg/draft-irtf-cfrg-cpace
 * (the same values as the JSON of B.3.9 and the repository's
 * testvectors.json). The long-PRS generator strings come from the
 * definitions of appendices A.1 and A.2 and the prepend_len vectors of
 * A.1.2. Then what the vectors cannot show: random runs agree, and every
 * mismatch (password, CI, sid, associated data, roles, a bit of a share)
 * gives different keys or a refusal. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/tile/tilepake.h>

#include <string.h>

#include "gstbctest.h"

/* B.3.1: PRS, CI and sid of every run of the vectors */
static const gchar tv_prs[] = "Password";
static const gchar tv_ci[] = "\x0b" "A_initiator" "\x0b" "B_responder";
static const gchar tv_sid[] = "7e4b4791d6a8ef019b936c79fb7f2c57";

/* B.3.1: generator_string (G.DSI, PRS, CI, sid, H.s_in_bytes), 170 bytes,
 * its SHA-512 and the encoded generator g */
static const gchar tv_gen_string[] =
    "11435061636552697374726574746f3235350850617373776f72646400000000"
    "0000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000"
    "180b415f696e69746961746f720b425f726573706f6e646572107e4b4791d6a8"
    "ef019b936c79fb7f2c57";
static const gchar tv_gen_hash[] =
    "da6d3ddc8802fca9058755ffd3ebde08a9c2c74945901a258482a288b6663af0"
    "6bf645c93cd1c51512307199c80e84908916d983b34af77205f90851a657ee27";
static const gchar tv_g[] =
    "222b6b195fe84b1652badb6f6a3ae3d24341e7306967f0b8115b40d5698c7e56";

/* B.3.2 and B.3.3: the scalars (little endian), the shares, ADa and ADb */
static const gchar tv_ya[] =
    "da3d23700a9e5699258aef94dc060dfda5ebb61f02a5ea77fad53f4ff0976d08";
static const gchar tv_Ya[] =
    "d6bac480f2c386c394efc7c47adb9925dcd2630b64f240c50f8d0eec482b9157";
static const gchar tv_yb[] =
    "d2316b454718c35362d83d69df6320f38578ed5984651435e2949762d900b80d";
static const gchar tv_Yb[] =
    "3ea7e0b19560d7c0b0f5734f63b955286dfa8232b5ebe63324e2d9e7433f7258";
static const gchar tv_ada[] = "ADa";
static const gchar tv_adb[] = "ADb";

/* B.3.4: K = scalar_mult_vfy (ya, Yb) = scalar_mult_vfy (yb, Ya) */
static const gchar tv_K[] =
    "80b69a8a76457ab6a4d7f887a4bf6b55a2f80ac19c333f917a05fc9887c8b40f";

/* B.3.5: lv_cat (DSI, sid, K) || transcript_ir (Ya, ADa, Yb, ADb), 146
 * bytes, and ISK_IR, its SHA-512 */
static const gchar tv_isk_input[] =
    "15435061636552697374726574746f3235355f49534b107e4b4791d6a8ef019b"
    "936c79fb7f2c572080b69a8a76457ab6a4d7f887a4bf6b55a2f80ac19c333f91"
    "7a05fc9887c8b40f20d6bac480f2c386c394efc7c47adb9925dcd2630b64f240"
    "c50f8d0eec482b915703414461203ea7e0b19560d7c0b0f5734f63b955286dfa"
    "8232b5ebe63324e2d9e7433f725803414462";
static const gchar tv_isk_ir[] =
    "b69effbf61b51d56401c0f65601abe428de8206feaaf0e32198896dcae7b35cd"
    "2b38950a39dfd5d4a79164614c2984f7daa460b588c1e80c3fa2068af7900447";

/* B.3.10: s, X and G.scalar_mult_vfy (s, X) */
static const gchar tv_s[] =
    "7cd0e075fa7955ba52c02759a6c90dbbfc10e6d40aea8d283e407d88cf538a05";
static const gchar tv_X[] =
    "2c3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c";
static const gchar tv_sX[] =
    "7c13645fe790a468f62c39beb7388e541d8405d1ade69d1778c5fe3e7f6b600e";

/* B.3.11: Y_i1 does not decode; Y_i2 is G.I, the identity's encoding
 * (all zero) */
static const gchar tv_Y_i1[] =
    "2b3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c";

/* G_Ristretto255.DSI (section 8.3), G.DSI || "_ISK" (section 7.2) */
static const gchar dsi[] = "CPaceRistretto255";
static const gchar dsi_isk[] = "CPaceRistretto255_ISK";

static void
hex_to_bytes (const gchar * hex, guint8 * out, gsize len)
{
  gsize i;

  fail_unless_equals_int (strlen (hex), 2 * len);
  for (i = 0; i < len; i++)
    out[i] = (g_ascii_xdigit_value (hex[2 * i]) << 4) |
        g_ascii_xdigit_value (hex[2 * i + 1]);
}

/* the vectors' sid: 16 bytes */
static void
vector_sid (guint8 sid[16])
{
  hex_to_bytes (tv_sid, sid, 16);
}

static void
sha512 (const guint8 * data, gsize len, guint8 out[64])
{
  GChecksum *c = g_checksum_new (G_CHECKSUM_SHA512);
  gsize out_len = 64;

  g_checksum_update (c, data, len);
  g_checksum_get_digest (c, out, &out_len);
  fail_unless_equals_int (out_len, 64);
  g_checksum_free (c);
}

/* prepend_len (@data) (appendix A.1.1) for fields below 128 bytes */
static void
append_lv (GByteArray * a, const guint8 * data, gsize len)
{
  guint8 prefix = len;

  fail_unless (len < 128);
  g_byte_array_append (a, &prefix, 1);
  g_byte_array_append (a, data, len);
}

/* One side of the vectors' runs: PRS, CI and sid of B.3.1 and the fixed
 * scalar @y_hex */
static void
start_vector_side (GstTilePake * pake, const gchar * y_hex)
{
  guint8 y[GST_TILE_PAKE_SCALAR_SIZE], sid[16];

  hex_to_bytes (y_hex, y, sizeof (y));
  vector_sid (sid);
  fail_unless (gst_tile_pake_start (pake, (const guint8 *) tv_prs,
          strlen (tv_prs), (const guint8 *) tv_ci, strlen (tv_ci), sid,
          sizeof (sid), y));
}

/* The initiator's (A's) end of the vectors' run, with @peer as Yb */
static gboolean
finish_vector_a (GstTilePake * a, const guint8 * peer, guint8 * isk)
{
  guint8 sid[16];

  vector_sid (sid);
  return gst_tile_pake_finish (a, TRUE, (const guint8 *) tv_ada,
      strlen (tv_ada), peer, (const guint8 *) tv_adb, strlen (tv_adb), sid,
      sizeof (sid), isk);
}

GST_START_TEST (test_generator_string)
{
  guint8 expected[170], out[200], hash[64], expected_hash[64];
  guint8 sid[16];
  gsize len;

  hex_to_bytes (tv_gen_string, expected, sizeof (expected));
  vector_sid (sid);

  /* measured without writing, and not written into a short buffer */
  len = gst_tile_pake_generator_string ((const guint8 *) tv_prs,
      strlen (tv_prs), (const guint8 *) tv_ci, strlen (tv_ci), sid,
      sizeof (sid), NULL, 0);
  fail_unless_equals_int (len, sizeof (expected));
  memset (out, 0xaa, sizeof (out));
  len = gst_tile_pake_generator_string ((const guint8 *) tv_prs,
      strlen (tv_prs), (const guint8 *) tv_ci, strlen (tv_ci), sid,
      sizeof (sid), out, sizeof (expected) - 1);
  fail_unless_equals_int (len, sizeof (expected));
  fail_unless_equals_int (out[0], 0xaa);

  /* B.3.1, byte for byte (ZPAD length 100) */
  len = gst_tile_pake_generator_string ((const guint8 *) tv_prs,
      strlen (tv_prs), (const guint8 *) tv_ci, strlen (tv_ci), sid,
      sizeof (sid), out, sizeof (out));
  fail_unless_equals_int (len, sizeof (expected));
  fail_unless (memcmp (out, expected, sizeof (expected)) == 0);
  fail_unless_equals_int (out[sizeof (expected)], 0xaa);

  /* and its SHA-512 is B.3.1's hash result */
  hex_to_bytes (tv_gen_hash, expected_hash, sizeof (expected_hash));
  sha512 (out, len, hash);
  fail_unless (memcmp (hash, expected_hash, sizeof (hash)) == 0);
}

GST_END_TEST;

/* A PRS of 127 and of 128 bytes (bytes (range (n)), whose prepend_len are
 * A.1.2's vectors, prefix 7f and 80 01): the padding is empty (its field is
 * the single byte 00), as are CI and sid. */
GST_START_TEST (test_generator_string_long_prs)
{
  guint8 prs[128], out[256];
  GByteArray *expected;
  guint n, i;

  for (i = 0; i < sizeof (prs); i++)
    prs[i] = i;

  for (n = 127; n <= 128; n++) {
    static const guint8 empty_fields[3] = { 0, 0, 0 };
    gsize len;

    expected = g_byte_array_new ();
    append_lv (expected, (const guint8 *) dsi, strlen (dsi));
    if (n == 127) {
      g_byte_array_append (expected, (const guint8 *) "\x7f", 1);
    } else {
      g_byte_array_append (expected, (const guint8 *) "\x80\x01", 2);
    }
    g_byte_array_append (expected, prs, n);
    /* zero_bytes (0), CI and sid */
    g_byte_array_append (expected, empty_fields, 3);

    len = gst_tile_pake_generator_string (prs, n, NULL, 0, NULL, 0, out,
        sizeof (out));
    fail_unless_equals_int (len, expected->len);
    fail_unless (memcmp (out, expected->data, len) == 0);
    g_byte_array_unref (expected);
  }

  /* an empty PRS (its field: 00 at byte 18) is padded to fill the first
   * block: len_zpad = 128 - 1 - 1 - 18 = 108 (6c at byte 19), then the
   * empty CI and sid */
  fail_unless_equals_int (gst_tile_pake_generator_string (NULL, 0, NULL, 0,
          NULL, 0, out, sizeof (out)), 18 + 1 + 1 + 108 + 1 + 1);
  fail_unless_equals_int (out[18], 0);
  fail_unless_equals_int (out[19], 108);
  for (i = 20; i < 130; i++)
    fail_unless_equals_int (out[i], 0);
}

GST_END_TEST;

GST_START_TEST (test_generator)
{
  guint8 g[GST_TILE_PAKE_GENERATOR_SIZE], expected[32], sid[16];

  hex_to_bytes (tv_g, expected, sizeof (expected));
  vector_sid (sid);
  fail_unless (gst_tile_pake_generator ((const guint8 *) tv_prs,
          strlen (tv_prs), (const guint8 *) tv_ci, strlen (tv_ci), sid,
          sizeof (sid), g));
  fail_unless (memcmp (g, expected, sizeof (g)) == 0);

  /* another password, another generator */
  fail_unless (gst_tile_pake_generator ((const guint8 *) "Passwort", 8,
          (const guint8 *) tv_ci, strlen (tv_ci), sid, sizeof (sid), g));
  fail_if (memcmp (g, expected, sizeof (g)) == 0);
}

GST_END_TEST;

/* B.3.2 to B.3.5: both sides of the run with the draft's scalars */
GST_START_TEST (test_vector_run)
{
  static const guint8 zero[64] = { 0 };
  GstTilePake a, b;
  guint8 ya_share[32], yb_share[32], isk_ir[64], isk_a[64], isk_b[64];
  guint8 k[32], isk_input[146], hash[64], sid[16];

  hex_to_bytes (tv_Ya, ya_share, sizeof (ya_share));
  hex_to_bytes (tv_Yb, yb_share, sizeof (yb_share));
  hex_to_bytes (tv_isk_ir, isk_ir, sizeof (isk_ir));
  vector_sid (sid);

  /* B.3.4 and B.3.5 agree: SHA-512 of the draft's ISK input is ISK_IR,
   * and that input carries the draft's K (K is never exposed: the ISKs
   * below depend on it) */
  hex_to_bytes (tv_isk_input, isk_input, sizeof (isk_input));
  hex_to_bytes (tv_K, k, sizeof (k));
  sha512 (isk_input, sizeof (isk_input), hash);
  fail_unless (memcmp (hash, isk_ir, sizeof (hash)) == 0);
  fail_unless (memcmp (isk_input + 22 + 17 + 1, k, sizeof (k)) == 0);

  /* B.3.2, B.3.3: Ya = ya * g, Yb = yb * g */
  start_vector_side (&a, tv_ya);
  start_vector_side (&b, tv_yb);
  fail_unless (memcmp (gst_tile_pake_share (&a), ya_share, 32) == 0);
  fail_unless (memcmp (gst_tile_pake_share (&b), yb_share, 32) == 0);

  /* B.3.5: A is the initiator, B the responder */
  fail_unless (finish_vector_a (&a, yb_share, isk_a));
  fail_unless (gst_tile_pake_finish (&b, FALSE, (const guint8 *) tv_adb,
          strlen (tv_adb), ya_share, (const guint8 *) tv_ada, strlen (tv_ada),
          sid, sizeof (sid), isk_b));
  fail_unless (memcmp (isk_a, isk_ir, sizeof (isk_a)) == 0);
  fail_unless (memcmp (isk_b, isk_ir, sizeof (isk_b)) == 0);

  /* a side finishes once: its scalar is gone */
  fail_if (finish_vector_a (&a, yb_share, isk_a));
  fail_unless (memcmp (isk_a, zero, sizeof (isk_a)) == 0);
  gst_tile_pake_clear (&a);
  gst_tile_pake_clear (&b);
}

GST_END_TEST;

/* B.3.10: scalar_mult_vfy (s, X) with valid inputs, seen through the ISK
 * of a run where a side with scalar s receives X */
GST_START_TEST (test_scalar_mult_valid)
{
  GstTilePake pake;
  guint8 s[32], x[32], k[32], isk[64], expected[64];
  GByteArray *input;

  hex_to_bytes (tv_s, s, sizeof (s));
  hex_to_bytes (tv_X, x, sizeof (x));
  hex_to_bytes (tv_sX, k, sizeof (k));

  fail_unless (gst_tile_pake_start (&pake, (const guint8 *) tv_prs,
          strlen (tv_prs), NULL, 0, NULL, 0, s));
  fail_unless (gst_tile_pake_finish (&pake, TRUE, NULL, 0, x, NULL, 0, NULL,
          0, isk));

  /* ISK = SHA-512 (lv_cat (DSI_ISK, sid, K) || lv_cat (Ya, ADa) ||
   * lv_cat (Yb, ADb)), with the draft's K and empty sid and ADs */
  input = g_byte_array_new ();
  append_lv (input, (const guint8 *) dsi_isk, strlen (dsi_isk));
  append_lv (input, NULL, 0);
  append_lv (input, k, sizeof (k));
  append_lv (input, gst_tile_pake_share (&pake), GST_TILE_PAKE_SHARE_SIZE);
  append_lv (input, NULL, 0);
  append_lv (input, x, sizeof (x));
  append_lv (input, NULL, 0);
  sha512 (input->data, input->len, expected);
  g_byte_array_unref (input);
  fail_unless (memcmp (isk, expected, sizeof (isk)) == 0);
  gst_tile_pake_clear (&pake);
}

GST_END_TEST;

/* B.3.11: a share that does not decode (Y_i1) and the identity (Y_i2 =
 * G.I) abort the run; the scalar is wiped either way */
GST_START_TEST (test_invalid_shares)
{
  static const guint8 zero[64] = { 0 };
  GstTilePake a;
  guint8 y_i1[32], y_i2[32] = { 0 }, yb_share[32], isk[64];

  hex_to_bytes (tv_Y_i1, y_i1, sizeof (y_i1));
  hex_to_bytes (tv_Yb, yb_share, sizeof (yb_share));

  start_vector_side (&a, tv_ya);
  memset (isk, 0xaa, sizeof (isk));
  fail_if (finish_vector_a (&a, y_i1, isk));
  fail_unless (memcmp (isk, zero, sizeof (isk)) == 0);
  /* the run is over: not even the right share saves it */
  fail_if (finish_vector_a (&a, yb_share, isk));

  start_vector_side (&a, tv_ya);
  memset (isk, 0xaa, sizeof (isk));
  fail_if (finish_vector_a (&a, y_i2, isk));
  fail_unless (memcmp (isk, zero, sizeof (isk)) == 0);
  fail_if (finish_vector_a (&a, yb_share, isk));

  /* the same on the responder's side, with random scalars */
  {
    GstTilePake b;
    guint8 sid[16];

    vector_sid (sid);
    fail_unless (gst_tile_pake_start (&b, (const guint8 *) tv_prs,
            strlen (tv_prs), NULL, 0, sid, sizeof (sid), NULL));
    fail_if (gst_tile_pake_finish (&b, FALSE, NULL, 0, y_i2, NULL, 0, sid,
            sizeof (sid), isk));
    fail_unless (gst_tile_pake_start (&b, (const guint8 *) tv_prs,
            strlen (tv_prs), NULL, 0, sid, sizeof (sid), NULL));
    fail_if (gst_tile_pake_finish (&b, FALSE, NULL, 0, y_i1, NULL, 0, sid,
            sizeof (sid), isk));
  }

  /* a scalar of zero gives the identity as a share: refused at the start */
  fail_if (gst_tile_pake_start (&a, (const guint8 *) tv_prs, strlen (tv_prs),
          NULL, 0, NULL, 0, zero));
  fail_unless (memcmp (gst_tile_pake_share (&a), zero, 32) == 0);
}

GST_END_TEST;

/* Two sides with random scalars: the same ISK; runs differ */
static void
random_run (const gchar * prs_a, const gchar * prs_b, const gchar * ci_a,
    const gchar * ci_b, const gchar * sid_a, const gchar * sid_b,
    const gchar * ad_a_at_b, gboolean b_initiator, gboolean * ok_a,
    gboolean * ok_b, guint8 isk_a[64], guint8 isk_b[64])
{
  GstTilePake a, b;
  guint8 share_a[32], share_b[32];

  fail_unless (gst_tile_pake_start (&a, (const guint8 *) prs_a,
          strlen (prs_a), (const guint8 *) ci_a, strlen (ci_a),
          (const guint8 *) sid_a, strlen (sid_a), NULL));
  fail_unless (gst_tile_pake_start (&b, (const guint8 *) prs_b,
          strlen (prs_b), (const guint8 *) ci_b, strlen (ci_b),
          (const guint8 *) sid_b, strlen (sid_b), NULL));
  memcpy (share_a, gst_tile_pake_share (&a), 32);
  memcpy (share_b, gst_tile_pake_share (&b), 32);
  fail_if (memcmp (share_a, share_b, 32) == 0);

  *ok_a = gst_tile_pake_finish (&a, TRUE, (const guint8 *) "A", 1, share_b,
      (const guint8 *) "B", 1, (const guint8 *) sid_a, strlen (sid_a), isk_a);
  *ok_b = gst_tile_pake_finish (&b, b_initiator, (const guint8 *) "B", 1,
      share_a, (const guint8 *) ad_a_at_b, strlen (ad_a_at_b),
      (const guint8 *) sid_b, strlen (sid_b), isk_b);
  gst_tile_pake_clear (&a);
  gst_tile_pake_clear (&b);
}

GST_START_TEST (test_random_run)
{
  static const guint8 zero[64] = { 0 };
  guint8 isk_a[64], isk_b[64], first[64];
  gboolean ok_a, ok_b;

  random_run ("correct horse", "correct horse", "ci", "ci", "sid", "sid",
      "A", FALSE, &ok_a, &ok_b, isk_a, isk_b);
  fail_unless (ok_a && ok_b);
  fail_unless (memcmp (isk_a, isk_b, sizeof (isk_a)) == 0);
  fail_if (memcmp (isk_a, zero, sizeof (isk_a)) == 0);
  memcpy (first, isk_a, sizeof (first));

  /* the same inputs, fresh scalars: another key */
  random_run ("correct horse", "correct horse", "ci", "ci", "sid", "sid",
      "A", FALSE, &ok_a, &ok_b, isk_a, isk_b);
  fail_unless (ok_a && ok_b);
  fail_unless (memcmp (isk_a, isk_b, sizeof (isk_a)) == 0);
  fail_if (memcmp (isk_a, first, sizeof (isk_a)) == 0);

  /* empty CI, sid and password are allowed */
  random_run ("", "", "", "", "", "", "A", FALSE, &ok_a, &ok_b, isk_a, isk_b);
  fail_unless (ok_a && ok_b);
  fail_unless (memcmp (isk_a, isk_b, sizeof (isk_a)) == 0);
}

GST_END_TEST;

/* Any difference between the sides' inputs: both finish (nothing tells
 * them apart on the wire) with different keys */
GST_START_TEST (test_mismatch)
{
  guint8 isk_a[64], isk_b[64];
  gboolean ok_a, ok_b;

  /* another password */
  random_run ("correct horse", "correct horsf", "ci", "ci", "sid", "sid",
      "A", FALSE, &ok_a, &ok_b, isk_a, isk_b);
  fail_unless (ok_a && ok_b);
  fail_if (memcmp (isk_a, isk_b, sizeof (isk_a)) == 0);

  /* another channel identifier */
  random_run ("correct horse", "correct horse", "ci", "cj", "sid", "sid",
      "A", FALSE, &ok_a, &ok_b, isk_a, isk_b);
  fail_unless (ok_a && ok_b);
  fail_if (memcmp (isk_a, isk_b, sizeof (isk_a)) == 0);

  /* another session identifier */
  random_run ("correct horse", "correct horse", "ci", "ci", "sid", "sie",
      "A", FALSE, &ok_a, &ok_b, isk_a, isk_b);
  fail_unless (ok_a && ok_b);
  fail_if (memcmp (isk_a, isk_b, sizeof (isk_a)) == 0);

  /* A's associated data altered on the way */
  random_run ("correct horse", "correct horse", "ci", "ci", "sid", "sid",
      "a", FALSE, &ok_a, &ok_b, isk_a, isk_b);
  fail_unless (ok_a && ok_b);
  fail_if (memcmp (isk_a, isk_b, sizeof (isk_a)) == 0);

  /* both sides think they are the initiator */
  random_run ("correct horse", "correct horse", "ci", "ci", "sid", "sid",
      "A", TRUE, &ok_a, &ok_b, isk_a, isk_b);
  fail_unless (ok_a && ok_b);
  fail_if (memcmp (isk_a, isk_b, sizeof (isk_a)) == 0);
}

GST_END_TEST;

/* Every single flipped bit of B's share in the vectors' run: A refuses it
 * (no ristretto255 encoding) or gets another key */
GST_START_TEST (test_flipped_share)
{
  GstTilePake a;
  guint8 yb_share[32], isk_ir[64], isk[64];
  guint bit, refused = 0;

  hex_to_bytes (tv_Yb, yb_share, sizeof (yb_share));
  hex_to_bytes (tv_isk_ir, isk_ir, sizeof (isk_ir));

  for (bit = 0; bit < 256; bit++) {
    yb_share[bit / 8] ^= 1 << (bit % 8);
    start_vector_side (&a, tv_ya);
    if (finish_vector_a (&a, yb_share, isk))
      fail_if (memcmp (isk, isk_ir, sizeof (isk)) == 0, "bit %u", bit);
    else
      refused++;
    yb_share[bit / 8] ^= 1 << (bit % 8);
  }
  GST_INFO ("%u of 256 flipped bits refused", refused);
  /* bit 0 makes the encoding odd (negative), bit 255 non-canonical: both
   * invalid encodings */
  fail_unless (refused >= 2);

  /* and the unaltered share still gives the vector */
  start_vector_side (&a, tv_ya);
  fail_unless (finish_vector_a (&a, yb_share, isk));
  fail_unless (memcmp (isk, isk_ir, sizeof (isk)) == 0);
}

GST_END_TEST;

GST_START_TEST (test_clear)
{
  static const guint8 zero[32] = { 0 };
  GstTilePake a;
  guint8 yb_share[32], isk[64];

  hex_to_bytes (tv_Yb, yb_share, sizeof (yb_share));
  start_vector_side (&a, tv_ya);
  fail_if (memcmp (gst_tile_pake_share (&a), zero, 32) == 0);
  gst_tile_pake_clear (&a);
  fail_unless (memcmp (gst_tile_pake_share (&a), zero, 32) == 0);
  fail_if (finish_vector_a (&a, yb_share, isk));

  /* a caller's error is a critical, and still ends the run */
  start_vector_side (&a, tv_ya);
  ASSERT_CRITICAL (fail_if (finish_vector_a (&a, NULL, isk)));
  fail_if (finish_vector_a (&a, yb_share, isk));
  ASSERT_CRITICAL (fail_if (gst_tile_pake_start (NULL, NULL, 0, NULL, 0,
              NULL, 0, NULL)));
}

GST_END_TEST;

static Suite *
tilepake_suite (void)
{
  Suite *s = suite_create ("tilepake");
  TCase *tc = test_suite_add_general (s, 0);

  test_watch_log_domain ("GStreamer-Tile");
  tcase_add_test (tc, test_generator_string);
  tcase_add_test (tc, test_generator_string_long_prs);
  tcase_add_test (tc, test_generator);
  tcase_add_test (tc, test_vector_run);
  tcase_add_test (tc, test_scalar_mult_valid);
  tcase_add_test (tc, test_invalid_shares);
  tcase_add_test (tc, test_random_run);
  tcase_add_test (tc, test_mismatch);
  tcase_add_test (tc, test_flipped_share);
  tcase_add_test (tc, test_clear);
  return s;
}

GST_CHECK_MAIN (tilepake);
