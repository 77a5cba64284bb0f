/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gsttilewire
 * @title: GstTileWire
 * @short_description: messages of the tilesink/tilesrc protocol
 *
 * Packs, parses and validates the control messages and tile headers of the
 * protocol between tilesink and tilesrc, described in
 * `docs/wire-protocol.md`. No sockets here: the functions work on byte
 * arrays.
 *
 * Every control message is a 12-byte header (gst_tile_wire_header_parse())
 * followed by its payload; the `_pack` functions append header and payload
 * to a #GByteArray, the `_parse` functions read a payload. All integers are
 * big-endian.
 *
 * Everything received is treated as hostile: the parsers check every length
 * before reading and every field before returning it, never read outside
 * the given bytes, and fail with a #GST_TILE_WIRE_ERROR that names the field
 * and the bad value. The packers run the same checks, so a bug on the
 * sending side is found there and not by the peer.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "tilewire.h"
#include "tileseal.h"

#include <string.h>

G_DEFINE_QUARK (gst - tile - wire - error - quark, gst_tile_wire_error);

/* Big-endian integers of @n bytes (1, 2, 4 or 8) at any alignment, through
 * memcpy: GST_READ_UINT32_BE() and friends dereference unaligned pointers
 * on x86, which UBSan reports, and received fields are at any alignment.
 * @n is a constant at every call: each inlines to one load or store. */
static inline guint64
read_be (const guint8 * p, guint n)
{
  guint16 v16;
  guint32 v32;
  guint64 v64;

  switch (n) {
    case 1:
      return p[0];
    case 2:
      memcpy (&v16, p, 2);
      return GUINT16_FROM_BE (v16);
    case 4:
      memcpy (&v32, p, 4);
      return GUINT32_FROM_BE (v32);
    default:
      memcpy (&v64, p, 8);
      return GUINT64_FROM_BE (v64);
  }
}

static inline void
write_be (guint8 * p, guint64 v, guint n)
{
  guint16 v16 = GUINT16_TO_BE ((guint16) v);
  guint32 v32 = GUINT32_TO_BE ((guint32) v);
  guint64 v64 = GUINT64_TO_BE (v);

  switch (n) {
    case 1:
      p[0] = (guint8) v;
      break;
    case 2:
      memcpy (p, &v16, 2);
      break;
    case 4:
      memcpy (p, &v32, 4);
      break;
    default:
      memcpy (p, &v64, 8);
      break;
  }
}

/* Bounds-checked reading of a payload. */
typedef struct
{
  const gchar *msg;
  const guint8 *data;
  gsize len;
  gsize pos;
} WireReader;

static void
reader_init (WireReader * r, const gchar * msg, const guint8 * data, gsize len)
{
  r->msg = msg;
  r->data = data;
  r->len = len;
  r->pos = 0;
}

static gboolean
reader_need (WireReader * r, gsize n, const gchar * field, GError ** error)
{
  if (r->len - r->pos < n) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_TRUNCATED,
        "%s payload is truncated: %s needs %" G_GSIZE_FORMAT
        " bytes at offset %" G_GSIZE_FORMAT ", the payload is %"
        G_GSIZE_FORMAT " bytes", r->msg, field, n, r->pos, r->len);
    return FALSE;
  }
  return TRUE;
}

/* Reads the next big-endian integer into *@v, as wide as *@v is: the
 * fields of the parsed structures have the sizes of the wire format. */
#define reader_uint(r, field, v, error) \
    reader_uint_n (r, field, v, sizeof (*(v)), error)

static gboolean
reader_uint_n (WireReader * r, const gchar * field, gpointer v, guint n,
    GError ** error)
{
  guint64 x;

  if (!reader_need (r, n, field, error))
    return FALSE;
  x = read_be (r->data + r->pos, n);
  r->pos += n;
  switch (n) {
    case 1:
      *(guint8 *) v = (guint8) x;
      break;
    case 2:
      *(guint16 *) v = (guint16) x;
      break;
    case 4:
      *(guint32 *) v = (guint32) x;
      break;
    default:
      g_assert (n == 8);
      *(guint64 *) v = x;
      break;
  }
  return TRUE;
}

static gboolean
reader_bytes (WireReader * r, const gchar * field, gsize n,
    const guint8 ** v, GError ** error)
{
  if (!reader_need (r, n, field, error))
    return FALSE;
  *v = r->data + r->pos;
  r->pos += n;
  return TRUE;
}

static gboolean
reader_copy (WireReader * r, const gchar * field, guint8 * v, gsize n,
    GError ** error)
{
  const guint8 *p;

  if (!reader_bytes (r, field, n, &p, error))
    return FALSE;
  memcpy (v, p, n);
  return TRUE;
}

static gboolean
reader_finish (WireReader * r, GError ** error)
{
  if (r->pos != r->len) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "%s payload is %" G_GSIZE_FORMAT " bytes, its fields end at %"
        G_GSIZE_FORMAT " (%" G_GSIZE_FORMAT " unexpected trailing bytes)",
        r->msg, r->len, r->pos, r->len - r->pos);
    return FALSE;
  }
  return TRUE;
}

/* Appending to a message. */
static gsize
message_begin (GByteArray * out)
{
  gsize start = out->len;

  g_byte_array_set_size (out, out->len + GST_TILE_WIRE_HEADER_SIZE);
  return start;
}

static void
message_end (GByteArray * out, gsize start, GstTileWireType type)
{
  gsize payload_len = out->len - start - GST_TILE_WIRE_HEADER_SIZE;

  g_assert (payload_len <= GST_TILE_WIRE_MAX_PAYLOAD);
  gst_tile_wire_header_write (out->data + start, type, (guint32) payload_len);
}

/* Appends @v as a big-endian integer of @n bytes */
static void
put_be (GByteArray * out, guint64 v, guint n)
{
  guint8 b[8];

  write_be (b, v, n);
  g_byte_array_append (out, b, n);
}

/* Checks a string field received or about to be sent: no NUL inside, valid
 * UTF-8 when @utf8. */
static gboolean
check_text (const gchar * msg, const gchar * field, const guint8 * data,
    gsize len, gboolean utf8, GError ** error)
{
  const guint8 *nul;

  if (len == 0)
    return TRUE;
  nul = memchr (data, 0, len);
  if (nul != NULL) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "%s %s contains a NUL byte at offset %" G_GSIZE_FORMAT " of %"
        G_GSIZE_FORMAT, msg, field, (gsize) (nul - data), len);
    return FALSE;
  }
  if (utf8 && !g_utf8_validate_len ((const gchar *) data, len, NULL)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "%s %s (%" G_GSIZE_FORMAT " bytes) is not valid UTF-8", msg, field,
        len);
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_tile_wire_type_get_name:
 * @type: a message type
 *
 * Returns: the name of @type as used in the documentation ("CONFIG"), or
 * "UNKNOWN".
 */
const gchar *
gst_tile_wire_type_get_name (GstTileWireType type)
{
  switch (type) {
    case GST_TILE_WIRE_TYPE_HELLO:
      return "HELLO";
    case GST_TILE_WIRE_TYPE_CONFIG:
      return "CONFIG";
    case GST_TILE_WIRE_TYPE_UNIT_HELLO:
      return "UNIT_HELLO";
    case GST_TILE_WIRE_TYPE_REFUSE:
      return "REFUSE";
    case GST_TILE_WIRE_TYPE_EOS:
      return "EOS";
    case GST_TILE_WIRE_TYPE_KEEPALIVE:
      return "KEEPALIVE";
    case GST_TILE_WIRE_TYPE_STATS:
      return "STATS";
    case GST_TILE_WIRE_TYPE_ACK:
      return "ACK";
    case GST_TILE_WIRE_TYPE_CHALLENGE:
      return "CHALLENGE";
    case GST_TILE_WIRE_TYPE_AUTH:
      return "AUTH";
    case GST_TILE_WIRE_TYPE_SEALED:
      return "SEALED";
    case GST_TILE_WIRE_TYPE_TIME:
      return "TIME";
    case GST_TILE_WIRE_TYPE_NACK:
      return "NACK";
    case GST_TILE_WIRE_TYPE_PATH:
      return "PATH";
  }
  return "UNKNOWN";
}

static gboolean
type_is_known (guint type)
{
  return type >= GST_TILE_WIRE_TYPE_HELLO && type <= GST_TILE_WIRE_TYPE_PATH;
}

/**
 * gst_tile_wire_header_write:
 * @out: (out caller-allocates) (array fixed-size=12): where to write
 * @type: the message type
 * @payload_len: bytes of payload that follow, at most
 *     %GST_TILE_WIRE_MAX_PAYLOAD
 *
 * Writes a control message header for the current version.
 */
void
gst_tile_wire_header_write (guint8 out[GST_TILE_WIRE_HEADER_SIZE],
    GstTileWireType type, guint32 payload_len)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (payload_len <= GST_TILE_WIRE_MAX_PAYLOAD);

  write_be (out, GST_TILE_WIRE_MAGIC, 4);
  write_be (out + 4, GST_TILE_WIRE_VERSION, 2);
  write_be (out + 6, (guint16) type, 2);
  write_be (out + 8, payload_len, 4);
}

/**
 * gst_tile_wire_header_parse:
 * @data: (array length=len) (nullable): received bytes, starting at a
 *     message header
 * @len: number of bytes in @data
 * @out: (out caller-allocates): the parsed header
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Parses and checks a control message header: magic, version, a known type
 * and a payload length within %GST_TILE_WIRE_MAX_PAYLOAD. Only the first
 * %GST_TILE_WIRE_HEADER_SIZE bytes are read.
 *
 * Returns: %GST_TILE_WIRE_PARSE_NEED_MORE when @len is smaller than a header,
 * %GST_TILE_WIRE_PARSE_ERROR with @error set when the header is invalid,
 * else %GST_TILE_WIRE_PARSE_OK.
 */
GstTileWireParseResult
gst_tile_wire_header_parse (const guint8 * data, gsize len,
    GstTileWireHeader * out, GError ** error)
{
  guint32 magic, payload_len;
  guint16 version, type;

  g_return_val_if_fail (data != NULL || len == 0, GST_TILE_WIRE_PARSE_ERROR);
  g_return_val_if_fail (out != NULL, GST_TILE_WIRE_PARSE_ERROR);

  if (len < GST_TILE_WIRE_HEADER_SIZE)
    return GST_TILE_WIRE_PARSE_NEED_MORE;

  magic = read_be (data, 4);
  version = read_be (data + 4, 2);
  type = read_be (data + 6, 2);
  payload_len = read_be (data + 8, 4);

  if (magic != GST_TILE_WIRE_MAGIC) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_BAD_MAGIC,
        "message header magic is 0x%08x, expected 0x%08x (\"GSBC\")",
        magic, GST_TILE_WIRE_MAGIC);
    return GST_TILE_WIRE_PARSE_ERROR;
  }
  if (version != GST_TILE_WIRE_VERSION) {
    g_set_error (error, GST_TILE_WIRE_ERROR,
        GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION,
        "peer speaks wire protocol version %u, this side speaks version %u",
        version, GST_TILE_WIRE_VERSION);
    return GST_TILE_WIRE_PARSE_ERROR;
  }
  if (!type_is_known (type)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "message header type is %u, not a known message type", type);
    return GST_TILE_WIRE_PARSE_ERROR;
  }
  if (payload_len > GST_TILE_WIRE_MAX_PAYLOAD) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_OVERSIZED,
        "%s payload length is %u bytes, the limit is %u",
        gst_tile_wire_type_get_name (type), payload_len,
        GST_TILE_WIRE_MAX_PAYLOAD);
    return GST_TILE_WIRE_PARSE_ERROR;
  }

  out->magic = magic;
  out->version = version;
  out->type = (GstTileWireType) type;
  out->payload_len = payload_len;
  return GST_TILE_WIRE_PARSE_OK;
}

/* HELLO */

static gboolean
hello_validate (const GstTileWireHello * hello, GError ** error)
{
  const GstTileWireRegion *r = &hello->region;

  if (hello->flags & ~(GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE |
          GST_TILE_WIRE_HELLO_FLAG_REGION |
          GST_TILE_WIRE_HELLO_FLAG_BALANCE |
          GST_TILE_WIRE_HELLO_FLAG_REDUNDANT)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "HELLO flags is 0x%08x, only bits 0 (passphrase), 1 (region), "
        "2 (balance) and 3 (redundant) may be set", hello->flags);
    return FALSE;
  }
  if ((hello->flags & GST_TILE_WIRE_HELLO_FLAG_BALANCE) &&
      (hello->flags & GST_TILE_WIRE_HELLO_FLAG_REGION)) {
    g_set_error_literal (error, GST_TILE_WIRE_ERROR,
        GST_TILE_WIRE_ERROR_INVALID, "HELLO asks for a region and for "
        "balanced tiles: a region's tiles are fixed");
    return FALSE;
  }
  if ((hello->flags & GST_TILE_WIRE_HELLO_FLAG_BALANCE) &&
      (hello->flags & GST_TILE_WIRE_HELLO_FLAG_REDUNDANT)) {
    g_set_error_literal (error, GST_TILE_WIRE_ERROR,
        GST_TILE_WIRE_ERROR_INVALID, "HELLO asks for balanced tiles and for "
        "redundant paths: each path carries all of a frame or a share");
    return FALSE;
  }
  if (!(hello->flags & GST_TILE_WIRE_HELLO_FLAG_REGION)) {
    if (r->x || r->y || r->width || r->height) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "HELLO region is %u,%u,%u,%u without the region flag, must be 0",
          r->x, r->y, r->width, r->height);
      return FALSE;
    }
    return TRUE;
  }
  if (r->width == 0 || r->height == 0 ||
      (guint64) r->x + r->width > GST_TILE_WIRE_MAX_REGION ||
      (guint64) r->y + r->height > GST_TILE_WIRE_MAX_REGION) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "HELLO region is %u,%u,%u,%u: width and height must be at least 1, "
        "x + width and y + height at most %d", r->x, r->y, r->width,
        r->height, GST_TILE_WIRE_MAX_REGION);
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_tile_wire_hello_pack:
 * @hello: the message
 * @out: header and payload are appended here
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE, appending nothing, when @hello is invalid.
 */
gboolean
gst_tile_wire_hello_pack (const GstTileWireHello * hello, GByteArray * out,
    GError ** error)
{
  gsize start;

  g_return_val_if_fail (hello != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!hello_validate (hello, error))
    return FALSE;

  start = message_begin (out);
  put_be (out, hello->flags, 4);
  g_byte_array_append (out, hello->nonce, sizeof (hello->nonce));
  put_be (out, hello->region.x, 4);
  put_be (out, hello->region.y, 4);
  put_be (out, hello->region.width, 4);
  put_be (out, hello->region.height, 4);
  message_end (out, start, GST_TILE_WIRE_TYPE_HELLO);
  return TRUE;
}

/**
 * gst_tile_wire_hello_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @out: (out caller-allocates): the message
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE with @error set when the payload is invalid; @out is then
 * undefined.
 */
gboolean
gst_tile_wire_hello_parse (const guint8 * payload, gsize len,
    GstTileWireHello * out, GError ** error)
{
  WireReader r;

  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  reader_init (&r, "HELLO", payload, len);
  if (!reader_uint (&r, "flags", &out->flags, error) ||
      !reader_copy (&r, "nonce", out->nonce, sizeof (out->nonce), error) ||
      !reader_uint (&r, "region x", &out->region.x, error) ||
      !reader_uint (&r, "region y", &out->region.y, error) ||
      !reader_uint (&r, "region width", &out->region.width, error) ||
      !reader_uint (&r, "region height", &out->region.height, error))
    return FALSE;
  if (!reader_finish (&r, error))
    return FALSE;
  return hello_validate (out, error);
}

/* CHALLENGE and AUTH: fixed-size random bytes, nothing to validate */

/**
 * gst_tile_wire_challenge_pack:
 * @challenge: the message
 * @out: header and payload are appended here
 *
 * Returns: %TRUE
 */
gboolean
gst_tile_wire_challenge_pack (const GstTileWireChallenge * challenge,
    GByteArray * out)
{
  gsize start;

  g_return_val_if_fail (challenge != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  start = message_begin (out);
  g_byte_array_append (out, challenge->nonce, sizeof (challenge->nonce));
  g_byte_array_append (out, challenge->share, sizeof (challenge->share));
  message_end (out, start, GST_TILE_WIRE_TYPE_CHALLENGE);
  return TRUE;
}

/**
 * gst_tile_wire_challenge_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @out: (out caller-allocates): the message
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE with @error set when the payload is not 48 bytes.
 */
gboolean
gst_tile_wire_challenge_parse (const guint8 * payload, gsize len,
    GstTileWireChallenge * out, GError ** error)
{
  WireReader r;

  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  reader_init (&r, "CHALLENGE", payload, len);
  return reader_copy (&r, "nonce", out->nonce, sizeof (out->nonce), error) &&
      reader_copy (&r, "share", out->share, sizeof (out->share), error) &&
      reader_finish (&r, error);
}

/**
 * gst_tile_wire_auth_pack:
 * @auth: the message
 * @out: header and payload are appended here
 *
 * Returns: %TRUE
 */
gboolean
gst_tile_wire_auth_pack (const GstTileWireAuth * auth, GByteArray * out)
{
  gsize start;

  g_return_val_if_fail (auth != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  start = message_begin (out);
  g_byte_array_append (out, auth->share, sizeof (auth->share));
  g_byte_array_append (out, auth->proof, sizeof (auth->proof));
  message_end (out, start, GST_TILE_WIRE_TYPE_AUTH);
  return TRUE;
}

/**
 * gst_tile_wire_auth_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @out: (out caller-allocates): the message
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE with @error set when the payload is not 64 bytes.
 */
gboolean
gst_tile_wire_auth_parse (const guint8 * payload, gsize len,
    GstTileWireAuth * out, GError ** error)
{
  WireReader r;

  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  reader_init (&r, "AUTH", payload, len);
  return reader_copy (&r, "share", out->share, sizeof (out->share), error) &&
      reader_copy (&r, "proof", out->proof, sizeof (out->proof), error) &&
      reader_finish (&r, error);
}

/* CONFIG */

static gboolean
config_check_units (guint n_units, GError ** error)
{
  if (n_units < 1 || n_units > GST_TILE_WIRE_MAX_UNITS) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG n_units is %u, must be 1 to %u", n_units,
        GST_TILE_WIRE_MAX_UNITS);
    return FALSE;
  }
  return TRUE;
}

static gboolean
config_check_tiles (guint n_tiles, guint n_units, GError ** error)
{
  if (n_tiles < 1 || n_tiles > n_units) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG n_tiles is %u, must be 1 to n_units (%u)", n_tiles, n_units);
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_tile_wire_config_validate:
 * @config: a CONFIG
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Checks every field of @config: the ranges documented in
 * #GstTileWireConfig, @frame_size == @n_rows * @row_bytes without overflow,
 * and tiles that are contiguous from 0, each a non-empty whole number of
 * rows, summing to @frame_size. gst_tile_wire_config_pack() and
 * gst_tile_wire_config_parse() call it.
 *
 * Returns: %TRUE when @config is valid.
 */
/* The multicast fields: none for unicast; for multicast over UDP a group
 * address of its family (224.0.0.0/4, ff00::/8) and ports for every tile
 * below 65536. */
static gboolean
config_check_multicast (const GstTileWireConfig * c, GError ** error)
{
  static const guint8 zeros[16] = { 0 };
  guint addr_len = c->mcast_family == 4 ? 4 : 16;

  if (c->mcast_family == 0) {
    if (c->mcast_port == 0 && memcmp (c->mcast_addr, zeros, 16) == 0 &&
        memcmp (c->group_secret, zeros, 16) == 0 &&
        memcmp (c->group_secret + 16, zeros, 16) == 0)
      return TRUE;
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG has a multicast port, address or group secret but no "
        "multicast family");
    return FALSE;
  }
  if (c->mcast_family != 4 && c->mcast_family != 6) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG multicast family is %u, must be 0 (none), 4 or 6",
        c->mcast_family);
    return FALSE;
  }
  if (c->protocol != GST_TILE_WIRE_PROTOCOL_UDP) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG has a multicast group but protocol tcp");
    return FALSE;
  }
  if ((c->mcast_family == 4 && (c->mcast_addr[0] & 0xf0) != 0xe0)
      || (c->mcast_family == 6 && c->mcast_addr[0] != 0xff)
      || memcmp (c->mcast_addr + addr_len, zeros, 16 - addr_len) != 0) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG multicast address is not an IPv%u multicast group",
        c->mcast_family);
    return FALSE;
  }
  if (c->mcast_port == 0 || (guint) c->mcast_port + MAX (c->n_tiles, 1) - 1 >
      65535) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG multicast port %u leaves no port for each of its %u tiles",
        c->mcast_port, c->n_tiles);
    return FALSE;
  }
  return TRUE;
}

gboolean
gst_tile_wire_config_validate (const GstTileWireConfig * config,
    GError ** error)
{
  guint64 sum;
  gsize caps_len;
  const gchar *nul;
  guint i;

  g_return_val_if_fail (config != NULL, FALSE);

  if (config->protocol != GST_TILE_WIRE_PROTOCOL_TCP
      && config->protocol != GST_TILE_WIRE_PROTOCOL_UDP) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG protocol is %d, must be 0 (tcp) or 1 (udp)", config->protocol);
    return FALSE;
  }
  if (!config_check_units (config->n_units, error))
    return FALSE;
  if (config->chunk_size < 1) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG chunk_size is 0, must be at least 1");
    return FALSE;
  }
  if (config->protocol == GST_TILE_WIRE_PROTOCOL_TCP && config->packet_size) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG packet_size is %u, must be 0 for tcp", config->packet_size);
    return FALSE;
  }
  if (config->protocol == GST_TILE_WIRE_PROTOCOL_UDP
      && (config->packet_size < 1
          || config->packet_size > GST_TILE_WIRE_MAX_PACKET_PAYLOAD)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG packet_size is %u, must be 1 to %u for udp (a %u-byte "
        "datagram header plus the payload must fit in %u bytes)",
        config->packet_size, GST_TILE_WIRE_MAX_PACKET_PAYLOAD,
        GST_TILE_WIRE_PACKET_HEADER_SIZE, GST_TILE_WIRE_MAX_UDP_PACKET);
    return FALSE;
  }
  if (!config_check_multicast (config, error))
    return FALSE;
  if (config->frame_size < 1
      || config->frame_size > GST_TILE_WIRE_MAX_FRAME_SIZE) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG frame_size is %" G_GUINT64_FORMAT ", must be 1 to %"
        G_GUINT64_FORMAT, config->frame_size, GST_TILE_WIRE_MAX_FRAME_SIZE);
    return FALSE;
  }
  if (config->n_rows < 1 || config->row_bytes < 1) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG n_rows is %u and row_bytes %" G_GUINT64_FORMAT
        ", both must be at least 1", config->n_rows, config->row_bytes);
    return FALSE;
  }
  if (config->row_bytes > G_MAXUINT64 / config->n_rows) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG n_rows %u * row_bytes %" G_GUINT64_FORMAT
        " overflows 64 bits", config->n_rows, config->row_bytes);
    return FALSE;
  }
  if ((guint64) config->n_rows * config->row_bytes != config->frame_size) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG n_rows %u * row_bytes %" G_GUINT64_FORMAT " is %"
        G_GUINT64_FORMAT ", but frame_size is %" G_GUINT64_FORMAT,
        config->n_rows, config->row_bytes,
        (guint64) config->n_rows * config->row_bytes, config->frame_size);
    return FALSE;
  }
  if (!config_check_tiles (config->n_tiles, config->n_units, error))
    return FALSE;

  sum = 0;
  for (i = 0; i < config->n_tiles; i++) {
    const GstTileWireTile *t = &config->tiles[i];

    if (t->offset != sum) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "CONFIG tile %u offset is %" G_GUINT64_FORMAT ", expected %"
          G_GUINT64_FORMAT " (tiles are contiguous from 0)", i, t->offset, sum);
      return FALSE;
    }
    if (t->size == 0 || t->size % config->row_bytes != 0) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "CONFIG tile %u size is %" G_GUINT64_FORMAT
          ", must be a non-zero multiple of row_bytes %" G_GUINT64_FORMAT,
          i, t->size, config->row_bytes);
      return FALSE;
    }
    if (t->size > config->frame_size - sum) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "CONFIG tile %u (offset %" G_GUINT64_FORMAT ", size %"
          G_GUINT64_FORMAT ") ends past frame_size %" G_GUINT64_FORMAT, i,
          t->offset, t->size, config->frame_size);
      return FALSE;
    }
    sum += t->size;
  }
  if (sum != config->frame_size) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG tiles sum to %" G_GUINT64_FORMAT " bytes, frame_size is %"
        G_GUINT64_FORMAT, sum, config->frame_size);
    return FALSE;
  }

  nul = memchr (config->caps, 0, sizeof (config->caps));
  if (nul == NULL) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_OVERSIZED,
        "CONFIG caps is longer than %u bytes", GST_TILE_WIRE_MAX_CAPS);
    return FALSE;
  }
  caps_len = nul - config->caps;
  if (caps_len == 0) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG caps is empty");
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_tile_wire_config_set_caps:
 * @config: a CONFIG
 * @caps: a caps string, as gst_caps_to_string() makes it
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Copies @caps into @config.
 *
 * Returns: %FALSE when @caps is empty or longer than %GST_TILE_WIRE_MAX_CAPS
 * bytes.
 */
gboolean
gst_tile_wire_config_set_caps (GstTileWireConfig * config, const gchar * caps,
    GError ** error)
{
  gsize len;

  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (caps != NULL, FALSE);

  len = strlen (caps);
  if (len > GST_TILE_WIRE_MAX_CAPS) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_OVERSIZED,
        "CONFIG caps is %" G_GSIZE_FORMAT " bytes, the limit is %u", len,
        GST_TILE_WIRE_MAX_CAPS);
    return FALSE;
  }
  if (len == 0) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG caps is empty");
    return FALSE;
  }
  memcpy (config->caps, caps, len + 1);
  return TRUE;
}

/**
 * gst_tile_wire_config_set_tiling:
 * @config: a CONFIG
 * @tiling: the tiling of the frames to send
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Sets @n_units (the tiles requested), @n_rows, @row_bytes, @frame_size,
 * @n_tiles and @tiles of @config from @tiling.
 *
 * Returns: %FALSE when @tiling asks for more than %GST_TILE_WIRE_MAX_UNITS
 * tiles or is empty.
 */
gboolean
gst_tile_wire_config_set_tiling (GstTileWireConfig * config,
    const GstBcTiling * tiling, GError ** error)
{
  guint i;

  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (tiling != NULL, FALSE);

  if (!config_check_units (tiling->n_requested, error))
    return FALSE;
  if (!config_check_tiles (tiling->n_tiles, tiling->n_requested, error))
    return FALSE;
  if ((guint64) tiling->row_bytes > G_MAXUINT64 / tiling->n_rows) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG n_rows %u * row_bytes %" G_GSIZE_FORMAT " overflows 64 bits",
        tiling->n_rows, tiling->row_bytes);
    return FALSE;
  }

  config->n_units = tiling->n_requested;
  config->n_rows = tiling->n_rows;
  config->row_bytes = tiling->row_bytes;
  config->frame_size = (guint64) tiling->n_rows * tiling->row_bytes;
  config->n_tiles = tiling->n_tiles;
  for (i = 0; i < tiling->n_tiles; i++) {
    config->tiles[i].offset = tiling->tiles[i].offset;
    config->tiles[i].size = tiling->tiles[i].size;
  }
  for (; i < GST_TILE_WIRE_MAX_UNITS; i++) {
    config->tiles[i].offset = 0;
    config->tiles[i].size = 0;
  }
  return TRUE;
}

/**
 * gst_tile_wire_config_check_tiling:
 * @config: a valid CONFIG, as gst_tile_wire_config_parse() returns it
 * @tiling: (out caller-allocates) (optional): the tiling of the frames
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Checks that the tiles of @config are the ones gst_bc_tiling_init() makes
 * for @n_rows rows of @row_bytes bytes in @n_units tiles, so the receiver
 * can rely on #GstBcTiling.
 *
 * Returns: %FALSE when the tiles differ; the error names the first
 * difference.
 */
gboolean
gst_tile_wire_config_check_tiling (const GstTileWireConfig * config,
    GstBcTiling * tiling, GError ** error)
{
  GstBcTiling local;
  guint i;

  g_return_val_if_fail (config != NULL, FALSE);

  if (tiling == NULL)
    tiling = &local;

  /* keeps the comparison below inside config->tiles */
  if (!config_check_units (config->n_units, error))
    return FALSE;

  if (config->row_bytes > G_MAXSIZE
      || !gst_bc_tiling_init (tiling, config->n_rows,
          (gsize) config->row_bytes, config->n_units)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG n_rows %u, row_bytes %" G_GUINT64_FORMAT
        " and n_units %u give no tiling", config->n_rows, config->row_bytes,
        config->n_units);
    return FALSE;
  }
  if (tiling->n_tiles != config->n_tiles) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG n_tiles is %u, the tiling of %u rows in %u units has %u",
        config->n_tiles, config->n_rows, config->n_units, tiling->n_tiles);
    return FALSE;
  }
  for (i = 0; i < tiling->n_tiles; i++) {
    if (config->tiles[i].offset != tiling->tiles[i].offset
        || config->tiles[i].size != tiling->tiles[i].size) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "CONFIG tile %u is (offset %" G_GUINT64_FORMAT ", size %"
          G_GUINT64_FORMAT "), the tiling has (offset %" G_GSIZE_FORMAT
          ", size %" G_GSIZE_FORMAT ")", i, config->tiles[i].offset,
          config->tiles[i].size, tiling->tiles[i].offset,
          tiling->tiles[i].size);
      return FALSE;
    }
  }
  return TRUE;
}

/**
 * gst_tile_wire_config_pack:
 * @config: the message
 * @out: header and payload are appended here
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE, appending nothing, when gst_tile_wire_config_validate()
 * fails.
 */
gboolean
gst_tile_wire_config_pack (const GstTileWireConfig * config, GByteArray * out,
    GError ** error)
{
  gsize start, caps_len;
  guint i;

  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!gst_tile_wire_config_validate (config, error))
    return FALSE;

  caps_len = strlen (config->caps);
  start = message_begin (out);
  put_be (out, config->token, 8);
  put_be (out, config->generation, 4);
  put_be (out, (guint8) config->protocol, 1);
  put_be (out, config->n_units, 2);
  put_be (out, config->chunk_size, 4);
  put_be (out, config->packet_size, 4);
  put_be (out, config->frame_size, 8);
  put_be (out, config->n_rows, 4);
  put_be (out, config->row_bytes, 8);
  put_be (out, config->n_tiles, 2);
  for (i = 0; i < config->n_tiles; i++) {
    put_be (out, config->tiles[i].offset, 8);
    put_be (out, config->tiles[i].size, 8);
  }
  put_be (out, config->mcast_family, 1);
  g_byte_array_append (out, config->mcast_addr, 16);
  put_be (out, config->mcast_port, 2);
  g_byte_array_append (out, config->group_secret,
      GST_TILE_WIRE_GROUP_SECRET_SIZE);
  put_be (out, (guint16) caps_len, 2);
  g_byte_array_append (out, (const guint8 *) config->caps, caps_len);
  message_end (out, start, GST_TILE_WIRE_TYPE_CONFIG);
  return TRUE;
}

/**
 * gst_tile_wire_config_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @out: (out caller-allocates): the message
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Parses a CONFIG and runs gst_tile_wire_config_validate() on it. The caps
 * string is checked for length and embedded NUL bytes but not parsed.
 *
 * Returns: %FALSE with @error set when the payload is invalid; @out is then
 * undefined.
 */
gboolean
gst_tile_wire_config_parse (const guint8 * payload, gsize len,
    GstTileWireConfig * out, GError ** error)
{
  WireReader r;
  guint8 protocol;
  guint16 caps_len;
  const guint8 *caps;
  guint i;

  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof (*out));
  reader_init (&r, "CONFIG", payload, len);

  if (!reader_uint (&r, "token", &out->token, error)
      || !reader_uint (&r, "generation", &out->generation, error)
      || !reader_uint (&r, "protocol", &protocol, error))
    return FALSE;
  if (protocol > GST_TILE_WIRE_PROTOCOL_UDP) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "CONFIG protocol is %u, must be 0 (tcp) or 1 (udp)", protocol);
    return FALSE;
  }
  out->protocol = (GstTileWireProtocol) protocol;

  if (!reader_uint (&r, "n_units", &out->n_units, error))
    return FALSE;
  if (!config_check_units (out->n_units, error))
    return FALSE;

  if (!reader_uint (&r, "chunk_size", &out->chunk_size, error)
      || !reader_uint (&r, "packet_size", &out->packet_size, error)
      || !reader_uint (&r, "frame_size", &out->frame_size, error)
      || !reader_uint (&r, "n_rows", &out->n_rows, error)
      || !reader_uint (&r, "row_bytes", &out->row_bytes, error)
      || !reader_uint (&r, "n_tiles", &out->n_tiles, error))
    return FALSE;
  /* bounds the tiles array before reading into it */
  if (!config_check_tiles (out->n_tiles, out->n_units, error))
    return FALSE;

  for (i = 0; i < out->n_tiles; i++) {
    if (!reader_uint (&r, "tile offset", &out->tiles[i].offset, error)
        || !reader_uint (&r, "tile size", &out->tiles[i].size, error))
      return FALSE;
  }
  {
    const guint8 *addr;

    if (!reader_uint (&r, "multicast family", &out->mcast_family, error)
        || !reader_bytes (&r, "multicast address", 16, &addr, error)
        || !reader_uint (&r, "multicast port", &out->mcast_port, error)
        || !reader_copy (&r, "group secret", out->group_secret,
            GST_TILE_WIRE_GROUP_SECRET_SIZE, error))
      return FALSE;
    memcpy (out->mcast_addr, addr, 16);
  }

  if (!reader_uint (&r, "caps length", &caps_len, error))
    return FALSE;
  if (caps_len > GST_TILE_WIRE_MAX_CAPS) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_OVERSIZED,
        "CONFIG caps length is %u bytes, the limit is %u", caps_len,
        GST_TILE_WIRE_MAX_CAPS);
    return FALSE;
  }
  if (!reader_bytes (&r, "caps", caps_len, &caps, error))
    return FALSE;
  if (!check_text ("CONFIG", "caps", caps, caps_len, TRUE, error))
    return FALSE;
  memcpy (out->caps, caps, caps_len);
  out->caps[caps_len] = '\0';

  if (!reader_finish (&r, error))
    return FALSE;
  return gst_tile_wire_config_validate (out, error);
}

/* UNIT_HELLO */

/* UNIT_HELLO, and PATH (the same payload, `unit` the path) */
static gboolean
unit_hello_validate_type (const GstTileWireUnitHello * hello,
    GstTileWireType type, GError ** error)
{
  guint max = type == GST_TILE_WIRE_TYPE_PATH ? GST_TILE_WIRE_MAX_PATHS :
      GST_TILE_WIRE_MAX_UNITS;

  if (hello->unit >= max) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "%s %s is %u, must be below %u", gst_tile_wire_type_get_name (type),
        type == GST_TILE_WIRE_TYPE_PATH ? "path" : "unit", hello->unit, max);
    return FALSE;
  }
  return TRUE;
}

static gboolean
unit_hello_validate (const GstTileWireUnitHello * hello, GError ** error)
{
  return unit_hello_validate_type (hello, GST_TILE_WIRE_TYPE_UNIT_HELLO,
      error);
}

static void
unit_hello_pack_type (const GstTileWireUnitHello * hello,
    GstTileWireType type, GByteArray * out)
{
  gsize start = message_begin (out);

  put_be (out, hello->token, 8);
  put_be (out, hello->generation, 4);
  put_be (out, hello->unit, 2);
  g_byte_array_append (out, hello->cookie, GST_TILE_WIRE_COOKIE_SIZE);
  g_byte_array_append (out, hello->mac, GST_TILE_WIRE_UNIT_MAC_SIZE);
  message_end (out, start, type);
}

static gboolean
unit_hello_parse_type (const guint8 * payload, gsize len,
    GstTileWireType type, GstTileWireUnitHello * out, GError ** error)
{
  WireReader r;

  reader_init (&r, gst_tile_wire_type_get_name (type), payload, len);
  if (!reader_uint (&r, "token", &out->token, error)
      || !reader_uint (&r, "generation", &out->generation, error)
      || !reader_uint (&r, type == GST_TILE_WIRE_TYPE_PATH ? "path" : "unit",
          &out->unit, error)
      || !reader_copy (&r, "cookie", out->cookie, GST_TILE_WIRE_COOKIE_SIZE,
          error)
      || !reader_copy (&r, "mac", out->mac, GST_TILE_WIRE_UNIT_MAC_SIZE,
          error)
      || !reader_finish (&r, error))
    return FALSE;
  return unit_hello_validate_type (out, type, error);
}

/**
 * gst_tile_wire_unit_hello_pack:
 * @hello: the message
 * @out: header and payload are appended here
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE, appending nothing, when the unit index is not below
 * %GST_TILE_WIRE_MAX_UNITS.
 */
gboolean
gst_tile_wire_unit_hello_pack (const GstTileWireUnitHello * hello,
    GByteArray * out, GError ** error)
{
  g_return_val_if_fail (hello != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!unit_hello_validate (hello, error))
    return FALSE;
  unit_hello_pack_type (hello, GST_TILE_WIRE_TYPE_UNIT_HELLO, out);
  return TRUE;
}

/**
 * gst_tile_wire_unit_hello_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @out: (out caller-allocates): the message
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Parses a UNIT_HELLO. Whether token, generation and unit match the session
 * is for the server to check (and to answer with a REFUSE).
 *
 * Returns: %FALSE with @error set when the payload is invalid.
 */
gboolean
gst_tile_wire_unit_hello_parse (const guint8 * payload, gsize len,
    GstTileWireUnitHello * out, GError ** error)
{
  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  return unit_hello_parse_type (payload, len, GST_TILE_WIRE_TYPE_UNIT_HELLO,
      out, error);
}

/**
 * gst_tile_wire_path_pack:
 * @hello: the message: the UNIT_HELLO fields, `unit` the path's index
 * @out: header and payload are appended here
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Packs a PATH: the first message on a connection that introduces another
 * network path of a session (and the server's answer).
 *
 * Returns: %FALSE, appending nothing, when the path index is not below
 * %GST_TILE_WIRE_MAX_PATHS.
 */
gboolean
gst_tile_wire_path_pack (const GstTileWireUnitHello * hello,
    GByteArray * out, GError ** error)
{
  g_return_val_if_fail (hello != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!unit_hello_validate_type (hello, GST_TILE_WIRE_TYPE_PATH, error))
    return FALSE;
  unit_hello_pack_type (hello, GST_TILE_WIRE_TYPE_PATH, out);
  return TRUE;
}

/**
 * gst_tile_wire_path_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @out: (out caller-allocates): the message
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Parses a PATH (the payload of a UNIT_HELLO, `unit` the path's index,
 * below %GST_TILE_WIRE_MAX_PATHS).
 *
 * Returns: %FALSE with @error set when the payload is invalid.
 */
gboolean
gst_tile_wire_path_parse (const guint8 * payload, gsize len,
    GstTileWireUnitHello * out, GError ** error)
{
  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  return unit_hello_parse_type (payload, len, GST_TILE_WIRE_TYPE_PATH, out,
      error);
}

/* REFUSE */

static gboolean
refuse_check_code (guint32 code, GError ** error)
{
  if (code > GST_TILE_WIRE_REFUSE_UNAUTHORIZED) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "REFUSE code is %u, must be 0 to %u", code,
        GST_TILE_WIRE_REFUSE_UNAUTHORIZED);
    return FALSE;
  }
  return TRUE;
}

static gboolean
refuse_check_reason_len (gsize len, GError ** error)
{
  if (len > GST_TILE_WIRE_MAX_REASON) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_OVERSIZED,
        "REFUSE reason is %" G_GSIZE_FORMAT " bytes, the limit is %u", len,
        GST_TILE_WIRE_MAX_REASON);
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_tile_wire_refuse_pack:
 * @code: why the connection is refused
 * @reason: (nullable): UTF-8 text for the peer's error message
 * @out: header and payload are appended here
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE, appending nothing, when @code is unknown or @reason is
 * longer than %GST_TILE_WIRE_MAX_REASON bytes or not UTF-8.
 */
gboolean
gst_tile_wire_refuse_pack (GstTileWireRefuseCode code, const gchar * reason,
    GByteArray * out, GError ** error)
{
  gsize start, len;

  g_return_val_if_fail (out != NULL, FALSE);

  if (reason == NULL)
    reason = "";
  len = strlen (reason);
  if (!refuse_check_code ((guint32) code, error)
      || !refuse_check_reason_len (len, error)
      || !check_text ("REFUSE", "reason", (const guint8 *) reason, len, TRUE,
          error))
    return FALSE;

  start = message_begin (out);
  put_be (out, (guint32) code, 4);
  put_be (out, (guint16) len, 2);
  g_byte_array_append (out, (const guint8 *) reason, len);
  message_end (out, start, GST_TILE_WIRE_TYPE_REFUSE);
  return TRUE;
}

/**
 * gst_tile_wire_refuse_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @out: (out caller-allocates): the message
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE with @error set when the payload is invalid; @out is then
 * undefined.
 */
gboolean
gst_tile_wire_refuse_parse (const guint8 * payload, gsize len,
    GstTileWireRefuse * out, GError ** error)
{
  WireReader r;
  guint32 code;
  guint16 reason_len;
  const guint8 *reason;

  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  reader_init (&r, "REFUSE", payload, len);
  if (!reader_uint (&r, "code", &code, error))
    return FALSE;
  if (!refuse_check_code (code, error))
    return FALSE;
  if (!reader_uint (&r, "reason length", &reason_len, error))
    return FALSE;
  if (!refuse_check_reason_len (reason_len, error))
    return FALSE;
  if (!reader_bytes (&r, "reason", reason_len, &reason, error)
      || !reader_finish (&r, error))
    return FALSE;
  if (!check_text ("REFUSE", "reason", reason, reason_len, TRUE, error))
    return FALSE;

  out->code = (GstTileWireRefuseCode) code;
  memcpy (out->reason, reason, reason_len);
  out->reason[reason_len] = '\0';
  return TRUE;
}

/* EOS and KEEPALIVE */

/**
 * gst_tile_wire_eos_pack:
 * @out: header (the payload is empty) is appended here
 */
void
gst_tile_wire_eos_pack (GByteArray * out)
{
  gsize start;

  g_return_if_fail (out != NULL);

  start = message_begin (out);
  message_end (out, start, GST_TILE_WIRE_TYPE_EOS);
}

/**
 * gst_tile_wire_eos_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE with @error set when the payload is not empty.
 */
gboolean
gst_tile_wire_eos_parse (const guint8 * payload, gsize len, GError ** error)
{
  WireReader r;

  g_return_val_if_fail (payload != NULL || len == 0, FALSE);

  reader_init (&r, "EOS", payload, len);
  return reader_finish (&r, error);
}

/**
 * gst_tile_wire_keepalive_pack:
 * @time_ns: the sender's monotonic time in nanoseconds
 * @out: header and payload are appended here
 */
void
gst_tile_wire_keepalive_pack (guint64 time_ns, GByteArray * out)
{
  gsize start;

  g_return_if_fail (out != NULL);

  start = message_begin (out);
  put_be (out, time_ns, 8);
  message_end (out, start, GST_TILE_WIRE_TYPE_KEEPALIVE);
}

/**
 * gst_tile_wire_keepalive_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @time_ns: (out): the sender's monotonic time in nanoseconds
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE with @error set when the payload is invalid.
 */
gboolean
gst_tile_wire_keepalive_parse (const guint8 * payload, gsize len,
    guint64 * time_ns, GError ** error)
{
  WireReader r;

  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (time_ns != NULL, FALSE);

  reader_init (&r, "KEEPALIVE", payload, len);
  return reader_uint (&r, "time", time_ns, error) && reader_finish (&r, error);
}

/* TIME */

/**
 * gst_tile_wire_time_pack:
 * @time: the query or the answer
 * @out: header and payload are appended here
 */
void
gst_tile_wire_time_pack (const GstTileWireTime * time, GByteArray * out)
{
  gsize start;

  g_return_if_fail (time != NULL);
  g_return_if_fail (out != NULL);

  start = message_begin (out);
  put_be (out, time->local_time, 8);
  put_be (out, time->remote_time, 8);
  message_end (out, start, GST_TILE_WIRE_TYPE_TIME);
}

/**
 * gst_tile_wire_time_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @out: (out caller-allocates): the times
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE with @error set when the payload is not 16 bytes or its
 * local time is %GST_CLOCK_TIME_NONE.
 */
gboolean
gst_tile_wire_time_parse (const guint8 * payload, gsize len,
    GstTileWireTime * out, GError ** error)
{
  WireReader r;

  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  reader_init (&r, "TIME", payload, len);
  if (!reader_uint (&r, "local time", &out->local_time, error) ||
      !reader_uint (&r, "remote time", &out->remote_time, error) ||
      !reader_finish (&r, error))
    return FALSE;
  if (out->local_time == GST_CLOCK_TIME_NONE) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "TIME without a local time");
    return FALSE;
  }
  return TRUE;
}

/* ACK */

#define ACK_FLAG_FRAME 1u
#define ACK_FLAG_FEEDBACK 2u
#define ACK_FLAG_PATHS 4u
#define ACK_FLAGS (ACK_FLAG_FRAME | ACK_FLAG_FEEDBACK | ACK_FLAG_PATHS)
/* the longest a frame may take to arrive, in an ACK: an hour */
#define ACK_MAX_RECEIVE_NS (G_GUINT64_CONSTANT (3600) * GST_SECOND)

/**
 * gst_tile_wire_ack_pack:
 * @ack: the acknowledgement; @ack->window must be at least 1
 * @out: header and payload are appended here
 *
 * Over UDP the receiver acknowledges frames on the control connection, so
 * that the sender drops whole frames when the receiver falls behind
 * instead of overrunning its socket buffers, and tells the sender what it
 * measured of the frame, for the sender's rate control. The
 * acknowledgement is cumulative: every frame up to @ack->frame is done.
 * The payload is generation (u32), window (u32), flags (u32: bit 0 set
 * when frame is valid, bit 1 when the feedback is, the other bits 0),
 * frame (u64), received (u32), spanned (u32), receive_ns (u64) and
 * delay_ns (i64, two's complement); the feedback fields are 0 without
 * bit 1. With bit 2 (only with bit 1: the units stripe their datagrams
 * over several network paths), the feedback of each path follows: their
 * number (u32, 1 to 8), then for each path (u32), received (u32), spanned
 * (u32), receive_ns (u64) and delay_ns (i64).
 */
void
gst_tile_wire_ack_pack (const GstTileWireAck * ack, GByteArray * out)
{
  gboolean fb;
  gsize start;
  guint n_paths, i;

  g_return_if_fail (ack != NULL && out != NULL);
  g_return_if_fail (ack->window >= 1);
  g_return_if_fail (!ack->has_feedback || ack->has_frame);
  g_return_if_fail (ack->receive_ns <= ACK_MAX_RECEIVE_NS);
  g_return_if_fail (ack->spanned <= ack->received);
  g_return_if_fail (ack->n_paths <= GST_TILE_WIRE_MAX_PATHS);

  fb = ack->has_frame && ack->has_feedback;
  n_paths = fb ? ack->n_paths : 0;
  start = message_begin (out);
  put_be (out, ack->generation, 4);
  put_be (out, ack->window, 4);
  put_be (out, (ack->has_frame ? ACK_FLAG_FRAME : 0) |
      (fb ? ACK_FLAG_FEEDBACK : 0) | (n_paths ? ACK_FLAG_PATHS : 0), 4);
  put_be (out, ack->has_frame ? ack->frame : 0, 8);
  put_be (out, fb ? ack->received : 0, 4);
  put_be (out, fb ? ack->spanned : 0, 4);
  put_be (out, fb ? ack->receive_ns : 0, 8);
  put_be (out, fb ? (guint64) ack->delay_ns : 0, 8);
  if (n_paths) {
    put_be (out, n_paths, 4);
    for (i = 0; i < n_paths; i++) {
      const GstTileWireAckPath *p = &ack->paths[i];

      put_be (out, p->path, 4);
      put_be (out, p->received, 4);
      put_be (out, MIN (p->spanned, p->received), 4);
      put_be (out, MIN (p->receive_ns, ACK_MAX_RECEIVE_NS), 8);
      put_be (out, (guint64) p->delay_ns, 8);
    }
  }
  message_end (out, start, GST_TILE_WIRE_TYPE_ACK);
}

/**
 * gst_tile_wire_ack_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @out: (out caller-allocates): the acknowledgement
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE with @error set when the payload is invalid: truncated,
 * too long, unknown flags, a window of 0 frames, a frame number without
 * the flag that makes it valid, feedback without a frame or feedback
 * fields without the feedback flag, more datagrams spanned than received,
 * a receive time over an hour; per-path feedback without feedback, with
 * no path or more than %GST_TILE_WIRE_MAX_PATHS, a path number out of
 * range or twice, the same faults in a path's fields, or more datagrams
 * over the paths than received.
 */
/* The feedback per path of an ACK (its bit 2), into @out. */
static gboolean
ack_paths_parse (WireReader * r, GstTileWireAck * out, GError ** error)
{
  guint32 n, seen = 0;
  guint i;

  if (!reader_uint (r, "paths", &n, error))
    return FALSE;
  if (n == 0 || n > GST_TILE_WIRE_MAX_PATHS) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "ACK has feedback of %u paths, not 1 to %u", n,
        GST_TILE_WIRE_MAX_PATHS);
    return FALSE;
  }
  for (i = 0; i < n; i++) {
    GstTileWireAckPath *p = &out->paths[i];
    guint64 delay;

    if (!reader_uint (r, "path", &p->path, error) ||
        !reader_uint (r, "path received", &p->received, error) ||
        !reader_uint (r, "path spanned", &p->spanned, error) ||
        !reader_uint (r, "path receive_ns", &p->receive_ns, error) ||
        !reader_uint (r, "path delay_ns", &delay, error))
      return FALSE;
    p->delay_ns = (gint64) delay;
    if (p->path >= GST_TILE_WIRE_MAX_PATHS || (seen & (1u << p->path))) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "ACK path %u is out of range or given twice", p->path);
      return FALSE;
    }
    seen |= 1u << p->path;
    if (p->spanned > p->received || p->receive_ns > ACK_MAX_RECEIVE_NS) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "ACK path %u: %u datagrams spanned of %u received in %"
          G_GUINT64_FORMAT " ns", p->path, p->spanned, p->received,
          p->receive_ns);
      return FALSE;
    }
  }
  out->n_paths = n;
  return TRUE;
}

gboolean
gst_tile_wire_ack_parse (const guint8 * payload, gsize len,
    GstTileWireAck * out, GError ** error)
{
  WireReader r;
  guint32 flags;
  guint64 delay, over_paths = 0;
  guint i;

  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  reader_init (&r, "ACK", payload, len);
  if (!reader_uint (&r, "generation", &out->generation, error) ||
      !reader_uint (&r, "window", &out->window, error) ||
      !reader_uint (&r, "flags", &flags, error) ||
      !reader_uint (&r, "frame", &out->frame, error) ||
      !reader_uint (&r, "received", &out->received, error) ||
      !reader_uint (&r, "spanned", &out->spanned, error) ||
      !reader_uint (&r, "receive_ns", &out->receive_ns, error) ||
      !reader_uint (&r, "delay_ns", &delay, error))
    return FALSE;
  out->n_paths = 0;
  if ((flags & ACK_FLAG_PATHS) && !ack_paths_parse (&r, out, error))
    return FALSE;
  if (!reader_finish (&r, error))
    return FALSE;
  out->delay_ns = (gint64) delay;
  if ((flags & ACK_FLAG_PATHS) && !(flags & ACK_FLAG_FEEDBACK)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "ACK has feedback per path but no feedback");
    return FALSE;
  }
  if (out->window == 0) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "ACK window is 0 frames");
    return FALSE;
  }
  if (flags & ~ACK_FLAGS) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "ACK flags 0x%08x has unknown bits", flags);
    return FALSE;
  }
  out->has_frame = (flags & ACK_FLAG_FRAME) != 0;
  out->has_feedback = (flags & ACK_FLAG_FEEDBACK) != 0;
  if (!out->has_frame && out->frame != 0) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "ACK has frame %" G_GUINT64_FORMAT " but no frame flag", out->frame);
    return FALSE;
  }
  if (out->has_feedback && !out->has_frame) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "ACK has feedback but no frame");
    return FALSE;
  }
  if (!out->has_feedback && (out->received || out->spanned ||
          out->receive_ns || delay)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "ACK has feedback fields but no feedback flag");
    return FALSE;
  }
  if (out->spanned > out->received) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "ACK spanned is %u, more than the %u datagrams received",
        out->spanned, out->received);
    return FALSE;
  }
  if (out->receive_ns > ACK_MAX_RECEIVE_NS) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "ACK receive_ns is %" G_GUINT64_FORMAT ", more than an hour",
        out->receive_ns);
    return FALSE;
  }
  for (i = 0; i < out->n_paths; i++)
    over_paths += out->paths[i].received;
  if (over_paths > out->received) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "ACK paths received %" G_GUINT64_FORMAT " datagrams, more than the "
        "%u received", over_paths, out->received);
    return FALSE;
  }
  return TRUE;
}

/* NACK */

/* the largest datagram index + 1 a range may reach: a tile of the largest
 * frame in datagrams of one byte */
#define NACK_MAX_INDEX GST_TILE_WIRE_MAX_FRAME_SIZE
#define NACK_FIXED 16
#define NACK_RANGE 6

/* The checks of a NACK, for pack and parse. */
static gboolean
nack_check (const GstTileWireNack * nack, GError ** error)
{
  guint64 next = 0;
  guint i;

  if (nack->unit >= GST_TILE_WIRE_MAX_UNITS) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "NACK unit is %u, at most %u units", nack->unit,
        GST_TILE_WIRE_MAX_UNITS);
    return FALSE;
  }
  if (nack->n_ranges < 1 || nack->n_ranges > GST_TILE_WIRE_NACK_MAX_RANGES) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "NACK has %u ranges, expected 1 to %u", nack->n_ranges,
        GST_TILE_WIRE_NACK_MAX_RANGES);
    return FALSE;
  }
  for (i = 0; i < nack->n_ranges; i++) {
    const GstTileWireNackRange *r = &nack->ranges[i];

    if (r->count < 1 || r->count > GST_TILE_WIRE_NACK_MAX_COUNT) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "NACK range %u count is %u, expected 1 to %u", i, r->count,
          GST_TILE_WIRE_NACK_MAX_COUNT);
      return FALSE;
    }
    if (r->first < next) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "NACK range %u starts at datagram %u, before the end of the "
          "range before it (%" G_GUINT64_FORMAT ")", i, r->first, next);
      return FALSE;
    }
    next = (guint64) r->first + r->count;
    if (next > NACK_MAX_INDEX) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "NACK range %u ends at datagram %" G_GUINT64_FORMAT ", beyond "
          "the largest tile", i, next);
      return FALSE;
    }
  }
  return TRUE;
}

/**
 * gst_tile_wire_nack_pack:
 * @nack: the datagrams to send again
 * @out: header and payload are appended here
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * The payload is generation (u32), frame (u64), unit (u16), n_ranges (u16)
 * and n_ranges times first (u32) and count (u16): 16 + 6 x n_ranges bytes.
 *
 * Returns: %FALSE with @error set (nothing appended) when @nack would not
 * parse: see gst_tile_wire_nack_parse().
 */
gboolean
gst_tile_wire_nack_pack (const GstTileWireNack * nack, GByteArray * out,
    GError ** error)
{
  gsize start;
  guint i;

  g_return_val_if_fail (nack != NULL && out != NULL, FALSE);

  if (!nack_check (nack, error))
    return FALSE;
  start = message_begin (out);
  put_be (out, nack->generation, 4);
  put_be (out, nack->frame, 8);
  put_be (out, nack->unit, 2);
  put_be (out, nack->n_ranges, 2);
  for (i = 0; i < nack->n_ranges; i++) {
    put_be (out, nack->ranges[i].first, 4);
    put_be (out, nack->ranges[i].count, 2);
  }
  message_end (out, start, GST_TILE_WIRE_TYPE_NACK);
  return TRUE;
}

/**
 * gst_tile_wire_nack_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @out: (out caller-allocates): the datagrams asked for
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Returns: %FALSE with @error set when the payload is invalid: truncated,
 * trailing bytes, a unit of 64 or more, no ranges or more than
 * %GST_TILE_WIRE_NACK_MAX_RANGES, a range of 0 datagrams, ranges out of
 * order or overlapping, a range past the largest tile. Whether the frame,
 * the unit and the datagrams exist is the sender's check.
 */
gboolean
gst_tile_wire_nack_parse (const guint8 * payload, gsize len,
    GstTileWireNack * out, GError ** error)
{
  WireReader r;
  guint16 n;
  guint i;

  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  reader_init (&r, "NACK", payload, len);
  if (!reader_uint (&r, "generation", &out->generation, error) ||
      !reader_uint (&r, "frame", &out->frame, error) ||
      !reader_uint (&r, "unit", &out->unit, error) ||
      !reader_uint (&r, "n_ranges", &n, error))
    return FALSE;
  if (n < 1 || n > GST_TILE_WIRE_NACK_MAX_RANGES) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "NACK has %u ranges, expected 1 to %u", n,
        GST_TILE_WIRE_NACK_MAX_RANGES);
    return FALSE;
  }
  out->n_ranges = n;
  for (i = 0; i < n; i++) {
    guint16 count;

    if (!reader_uint (&r, "range first", &out->ranges[i].first, error) ||
        !reader_uint (&r, "range count", &count, error))
      return FALSE;
    out->ranges[i].count = count;
  }
  return reader_finish (&r, error) && nack_check (out, error);
}

/* STATS */

static gboolean
is_name_char (gchar c)
{
  return c != '\0' && (g_ascii_isalnum (c) || strchr ("/-_.:+", c) != NULL);
}

/* What a structure string from the wire may hold (STATS, CONFIG caps). */
typedef struct
{
  const gchar *what;            /* for the errors: "STATS", "CONFIG caps" */
  const gchar *const *types;    /* the type casts allowed */
  const gchar *types_text;      /* the same for humans */
} WireStructureRules;

static const gchar *const stats_types[] = {
  "int", "i", "gint", "uint", "u", "guint", "int64", "gint64", "uint64",
  "guint64", "double", "d", "gdouble", "float", "f", "gfloat", "boolean",
  "bool", "b", "gboolean", "string", "str", "s", "gchararray", "fraction",
  "GstFraction", NULL
};

static const WireStructureRules stats_rules = {
  "STATS", stats_types, "numbers, booleans, strings and fractions"
};

/* video caps: plain values, and the multiview flag set gst_caps_to_string()
 * writes for video/x-raw */
static const gchar *const caps_types[] = {
  "int", "i", "gint", "uint", "u", "guint", "int64", "gint64", "uint64",
  "guint64", "double", "d", "gdouble", "float", "f", "gfloat", "boolean",
  "bool", "b", "gboolean", "string", "str", "s", "gchararray", "fraction",
  "GstFraction", "GstVideoMultiviewFlagsSet", NULL
};

static const WireStructureRules caps_rules = {
  "CONFIG caps", caps_types,
  "numbers, booleans, strings, fractions and multiview flags"
};

/* Checks that the name between @start and @end is already a quark. */
static gboolean
check_known_name (const WireStructureRules * rules, const gchar * str,
    const gchar * start, const gchar * end, const gchar * what, GError ** error)
{
  gchar *name;
  gboolean known;

  if (start == end)
    return TRUE;                /* gst_structure_from_string() fails */

  name = g_strndup (start, end - start);
  known = g_quark_try_string (name) != 0;
  if (!known) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "%s %s '%s' at offset %" G_GSIZE_FORMAT " is not a name this "
        "process knows", rules->what, what, name, (gsize) (start - str));
  }
  g_free (name);
  return known;
}

/* Structures from the wire are plain values, so before handing the string
 * to gst_structure_from_string() (or gst_caps_from_string()) this makes
 * sure that:
 * - every value has a type cast, and every type cast (outside quoted
 *   strings) is one of @rules' (numbers, booleans, strings, fractions...);
 *   the structure name starts with a letter and is followed by a ',' or
 *   the end (no caps features): GStreamer 1.22 guesses the type of an
 *   untyped value (with a g_warning for '=""'), and answers a name that
 *   does not start with a letter, also one inside a nested (GstStructure)
 *   or (GstCaps) value, with a critical instead of an error;
 * - there are no lists, arrays or ranges: GStreamer 1.22 leaks the
 *   partial value when one of their elements does not parse;
 * - the structure name and the field names are existing quarks: GLib never
 *   frees quarks, so interning whatever a peer sends would let it grow the
 *   process without bound. */
static gboolean
structure_check_syntax (const WireStructureRules * rules, const gchar * str,
    GError ** error)
{
  const gchar *p = str;
  gboolean quoted = FALSE;

  if (!g_ascii_isalpha (*p)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "%s structure name must start with an ASCII letter, it starts "
        "with byte 0x%02x", rules->what, (guint8) * p);
    return FALSE;
  }
  while (is_name_char (*p))
    p++;
  if (*p != '\0' && *p != ',' && *p != ';' && !g_ascii_isspace (*p)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "%s structure name is followed by byte 0x%02x at offset %"
        G_GSIZE_FORMAT ", expected ',' or the end", rules->what, (guint8) * p,
        (gsize) (p - str));
    return FALSE;
  }
  if (!check_known_name (rules, str, str, p, "structure name", error))
    return FALSE;

  for (; *p != '\0'; p++) {
    if (quoted) {
      if (*p == '\\' && p[1] != '\0')
        p++;
      else if (*p == '"')
        quoted = FALSE;
    } else if (*p == '"') {
      quoted = TRUE;
    } else if (*p == '\\') {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "%s structure has a backslash outside a string at offset %"
          G_GSIZE_FORMAT, rules->what, (gsize) (p - str));
      return FALSE;
    } else if (strchr ("{}[]<>", *p) != NULL) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "%s structure has a list, array or range ('%c') at offset %"
          G_GSIZE_FORMAT ", only plain values are allowed", rules->what, *p,
          (gsize) (p - str));
      return FALSE;
    } else if (*p == ';' && p[strspn (p + 1, " \t\r\n") + 1] != '\0') {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "%s has a second structure at offset %" G_GSIZE_FORMAT,
          rules->what, (gsize) (p - str));
      return FALSE;
    } else if (*p == '=') {
      const gchar *v = p + 1;

      /* gst_structure_to_string() casts every value; an untyped one makes
       * GStreamer 1.22 guess its type, with a g_warning for '=""' */
      while (g_ascii_isspace (*v))
        v++;
      if (*v != '(') {
        g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
            "%s structure has a value without a type at offset %"
            G_GSIZE_FORMAT ", every value must be cast, as in "
            "'frames=(guint64)1'", rules->what, (gsize) (v - str));
        return FALSE;
      }
    } else if (*p == ',') {
      const gchar *start, *end;

      /* a field name follows */
      start = p + 1;
      while (g_ascii_isspace (*start))
        start++;
      end = start;
      while (is_name_char (*end))
        end++;
      if (!check_known_name (rules, str, start, end, "field name", error))
        return FALSE;
      p = end - 1;
    } else if (*p == '(') {
      const gchar *start, *end;
      gchar *type;
      gboolean ok = FALSE;
      guint i;

      start = p + 1;
      while (g_ascii_isspace (*start))
        start++;
      end = start;
      while (is_name_char (*end))
        end++;
      type = g_strndup (start, end - start);
      for (i = 0; rules->types[i] != NULL && !ok; i++)
        ok = strcmp (type, rules->types[i]) == 0;
      if (!ok) {
        g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
            "%s structure has a field of type '%s' at offset %"
            G_GSIZE_FORMAT ", only %s are allowed", rules->what, type,
            (gsize) (p - str), rules->types_text);
        g_free (type);
        return FALSE;
      }
      g_free (type);
      p = end - 1;
    }
  }
  return TRUE;
}

/**
 * gst_tile_wire_caps_know_names:
 *
 * Makes the names video caps carry known to this process (GLib quarks), so
 * that a sender's caps that use them pass gst_tile_wire_caps_check():
 * `video/x-raw`, `video/x-bc` and their fields. Names outside this list
 * (and not known to the process otherwise) are refused, so that a sender
 * cannot grow the receiver with made-up names. gst_tile_receiver_new()
 * calls it.
 */
void
gst_tile_wire_caps_know_names (void)
{
  static const gchar *const names[] = {
    "video/x-raw", "video/x-bc", "format", "width", "height", "framerate",
    "max-framerate", "pixel-aspect-ratio", "interlace-mode", "field-order",
    "colorimetry", "chroma-site", "multiview-mode", "multiview-flags",
    "views", "mastering-display-info", "content-light-level", NULL
  };
  guint i;

  for (i = 0; names[i] != NULL; i++)
    g_quark_from_static_string (names[i]);
}

/**
 * gst_tile_wire_caps_check:
 * @caps: a CONFIG's caps string
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Checks a sender's caps before gst_caps_from_string() sees them, by the
 * rules of STATS (docs/wire-protocol.md): one structure, no caps features,
 * every value cast to a plain type (numbers, booleans, strings, fractions,
 * and GstVideoMultiviewFlagsSet), no lists, arrays, ranges or nested
 * structures, and a structure name and field names that this process
 * already knows (quarks: GLib never frees them, so names from the wire
 * must not be interned). A receiver makes the names it accepts known
 * first (gst_tile_wire_caps_know_names(): those of video/x-raw and
 * video/x-bc caps).
 *
 * Returns: %TRUE when @caps may be parsed
 */
gboolean
gst_tile_wire_caps_check (const gchar * caps, GError ** error)
{
  g_return_val_if_fail (caps != NULL, FALSE);

  return structure_check_syntax (&caps_rules, caps, error);
}

/**
 * gst_tile_wire_stats_pack:
 * @stats: the receiver's statistics
 * @out: header and payload are appended here
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Serializes @stats with gst_structure_to_string().
 *
 * Returns: %FALSE, appending nothing, when the serialized structure is
 * longer than %GST_TILE_WIRE_MAX_STATS bytes.
 */
gboolean
gst_tile_wire_stats_pack (const GstStructure * stats, GByteArray * out,
    GError ** error)
{
  gchar *str;
  gsize start, len;

  g_return_val_if_fail (GST_IS_STRUCTURE (stats), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  str = gst_structure_to_string (stats);
  len = strlen (str);
  if (len > GST_TILE_WIRE_MAX_STATS) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_OVERSIZED,
        "STATS structure is %" G_GSIZE_FORMAT " bytes, the limit is %u",
        len, GST_TILE_WIRE_MAX_STATS);
    g_free (str);
    return FALSE;
  }

  start = message_begin (out);
  put_be (out, (guint16) len, 2);
  g_byte_array_append (out, (const guint8 *) str, len);
  message_end (out, start, GST_TILE_WIRE_TYPE_STATS);
  g_free (str);
  return TRUE;
}

/**
 * gst_tile_wire_stats_parse:
 * @payload: (array length=len) (nullable): the payload
 * @len: payload length from the header
 * @out: (out) (transfer full): the statistics
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Parses a STATS message. The structure string must be UTF-8, its name and
 * field names must already be known to this process (be quarks, as they are
 * once the receiver's code has used them: GLib never frees quarks, so names
 * from the wire are not interned), its values may only be numbers, booleans,
 * strings and fractions, and it must parse with gst_structure_from_string()
 * with nothing after it.
 *
 * Returns: %FALSE with @error set (and @out untouched) when the payload is
 * invalid.
 */
gboolean
gst_tile_wire_stats_parse (const guint8 * payload, gsize len,
    GstStructure ** out, GError ** error)
{
  WireReader r;
  guint16 str_len;
  const guint8 *bytes;
  gchar *str, *end = NULL;
  GstStructure *s;

  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  reader_init (&r, "STATS", payload, len);
  if (!reader_uint (&r, "structure length", &str_len, error))
    return FALSE;
  if (str_len > GST_TILE_WIRE_MAX_STATS) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_OVERSIZED,
        "STATS structure length is %u bytes, the limit is %u", str_len,
        GST_TILE_WIRE_MAX_STATS);
    return FALSE;
  }
  if (!reader_bytes (&r, "structure", str_len, &bytes, error)
      || !reader_finish (&r, error))
    return FALSE;
  if (!check_text ("STATS", "structure", bytes, str_len, TRUE, error))
    return FALSE;

  str = g_strndup ((const gchar *) bytes, str_len);
  if (!structure_check_syntax (&stats_rules, str, error)) {
    g_free (str);
    return FALSE;
  }
  s = gst_structure_from_string (str, &end);
  if (s != NULL) {
    while (g_ascii_isspace (*end))
      end++;
  }
  if (s == NULL || *end != '\0') {
    glong n_chars = g_utf8_strlen (str, -1);
    gchar *shown = g_utf8_substring (str, 0, MIN (n_chars, 64));

    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "STATS structure (%u bytes) does not parse as a GstStructure: "
        "\"%s%s\"", str_len, shown, n_chars > 64 ? "..." : "");
    g_free (shown);
    if (s)
      gst_structure_free (s);
    g_free (str);
    return FALSE;
  }
  g_free (str);
  *out = s;
  return TRUE;
}

/* Tile header */

/* Checks a tile header's size and flags against the @remaining bytes of
 * its tile: the rules of gst_tile_wire_tile_header_parse(). */
static gboolean
tile_part_check (guint32 size, guint32 flags, guint32 remaining,
    GError ** error)
{
  const guint32 known = GST_TILE_WIRE_TILE_FLAG_MORE |
      GST_TILE_WIRE_TILE_FLAG_ABANDON;
  const gchar *why = NULL;

  if (flags & ~known)
    why = "has unknown bits";
  else if (flags == known)
    why = "says both MORE and ABANDON";
  else if ((flags & GST_TILE_WIRE_TILE_FLAG_ABANDON) && size != 0)
    why = "says ABANDON with data";
  if (why) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "tile header flags is 0x%08x: %s", flags, why);
    return FALSE;
  }
  if (flags & GST_TILE_WIRE_TILE_FLAG_ABANDON)
    return TRUE;
  if (size == 0 || size > remaining ||
      (size == remaining) != !(flags & GST_TILE_WIRE_TILE_FLAG_MORE)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "tile header size is %u bytes%s, %u bytes of the tile are left",
        size, (flags & GST_TILE_WIRE_TILE_FLAG_MORE) ? " with more to come" :
        " as its last part", remaining);
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_tile_wire_tile_header_write:
 * @out: (out caller-allocates) (array fixed-size=40): where to write
 * @header: the tile header; its @flags must be #GstTileWireTileFlags, not
 *     both, and an abandon carries no data
 *
 * Writes a tile header.
 */
void
gst_tile_wire_tile_header_write (guint8 out[GST_TILE_WIRE_TILE_HEADER_SIZE],
    const GstTileWireTileHeader * header)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (header != NULL);
  g_return_if_fail (tile_part_check (header->size, header->flags,
          (header->flags & GST_TILE_WIRE_TILE_FLAG_MORE) ? G_MAXUINT32 :
          header->size, NULL));

  write_be (out, GST_TILE_WIRE_TILE_MAGIC, 4);
  write_be (out + 4, header->generation, 4);
  write_be (out + 8, header->frame, 8);
  write_be (out + 16, header->timestamp, 8);
  write_be (out + 24, header->capture, 8);
  write_be (out + 32, header->size, 4);
  write_be (out + 36, header->flags, 4);
}

/**
 * gst_tile_wire_tile_header_parse:
 * @data: (array length=len) (nullable): received bytes, starting at a tile
 *     header
 * @len: number of bytes in @data
 * @remaining: the bytes of the tile not received yet: the size of the tile
 *     this connection carries at a tile's first header, less what earlier
 *     parts of it brought
 * @out: (out caller-allocates): the parsed header
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Parses and checks a tile header: its magic, its flags (only
 * #GstTileWireTileFlags, never both) and its size against @remaining: an
 * abandon carries no data; a part with more to come carries at least one
 * byte and less than @remaining; the last part carries exactly @remaining.
 * Whether the generation and frame are the ones expected is for the caller
 * to check.
 *
 * Returns: %GST_TILE_WIRE_PARSE_NEED_MORE when @len is smaller than a tile
 * header, %GST_TILE_WIRE_PARSE_ERROR with @error set when it is invalid, else
 * %GST_TILE_WIRE_PARSE_OK.
 */
GstTileWireParseResult
gst_tile_wire_tile_header_parse (const guint8 * data, gsize len,
    guint32 remaining, GstTileWireTileHeader * out, GError ** error)
{
  guint32 magic, size, flags;

  g_return_val_if_fail (data != NULL || len == 0, GST_TILE_WIRE_PARSE_ERROR);
  g_return_val_if_fail (out != NULL, GST_TILE_WIRE_PARSE_ERROR);

  if (len < GST_TILE_WIRE_TILE_HEADER_SIZE)
    return GST_TILE_WIRE_PARSE_NEED_MORE;

  magic = read_be (data, 4);
  size = read_be (data + 32, 4);
  flags = read_be (data + 36, 4);

  if (magic != GST_TILE_WIRE_TILE_MAGIC) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_BAD_MAGIC,
        "tile header magic is 0x%08x, expected 0x%08x (\"GSBT\")", magic,
        GST_TILE_WIRE_TILE_MAGIC);
    return GST_TILE_WIRE_PARSE_ERROR;
  }
  if (!tile_part_check (size, flags, remaining, error))
    return GST_TILE_WIRE_PARSE_ERROR;

  out->generation = read_be (data + 4, 4);
  out->frame = read_be (data + 8, 8);
  out->timestamp = read_be (data + 16, 8);
  out->capture = read_be (data + 24, 8);
  out->size = size;
  out->flags = flags;
  return GST_TILE_WIRE_PARSE_OK;
}

/**
 * gst_tile_wire_tile_header_write_balanced:
 * @out: (out caller-allocates) (array fixed-size=48): where to write
 * @header: the tile header, with the frame's rows of this tile
 *     (@first_row, @rows; 0 rows: the unit carries nothing of the frame, a
 *     part of no bytes without flags)
 *
 * Writes the tile header of a session with balanced tiles: the 40 bytes
 * of gst_tile_wire_tile_header_write(), then `first_row` and `rows`.
 */
void
gst_tile_wire_tile_header_write_balanced (guint8
    out[GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED],
    const GstTileWireTileHeader * header)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (header != NULL);
  g_return_if_fail (header->rows > 0 || (header->size == 0 &&
          !(header->flags & GST_TILE_WIRE_TILE_FLAG_MORE)));

  if (header->rows > 0) {
    gst_tile_wire_tile_header_write (out, header);
  } else {
    GstTileWireTileHeader h = *header;

    /* (written as an abandon, which has the same bytes but the flags) */
    h.flags = GST_TILE_WIRE_TILE_FLAG_ABANDON;
    gst_tile_wire_tile_header_write (out, &h);
    write_be (out + 36, header->flags, 4);
  }
  write_be (out + 40, header->first_row, 4);
  write_be (out + 44, header->rows, 4);
}

/**
 * gst_tile_wire_tile_header_parse_balanced:
 * @data: (array length=len) (nullable): received bytes, starting at a tile
 *     header of a session with balanced tiles
 * @len: number of bytes in @data
 * @n_rows: the rows of a frame (the CONFIG's)
 * @row_bytes: the bytes of a row (the CONFIG's)
 * @first: (nullable): the tile's first header when this is a later part,
 *     NULL at the tile's first header
 * @remaining: with @first, the bytes of the tile not received yet
 * @out: (out caller-allocates): the parsed header
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Parses a tile header of a session with balanced tiles (48 bytes): as
 * gst_tile_wire_tile_header_parse(), the size of the tile being the
 * header's `rows` × @row_bytes. Its rows must lie in the frame
 * (`first_row` + `rows` ≤ @n_rows) and the tile must not be larger than
 * 2^32 − 1 bytes; a tile of 0 rows is one part of 0 bytes without flags
 * (the unit carries nothing of that frame); a later part repeats the
 * first's rows. Whether the tiles of a frame cover it exactly is for the
 * caller to check once it has them all.
 *
 * Returns: as gst_tile_wire_tile_header_parse().
 */
GstTileWireParseResult
gst_tile_wire_tile_header_parse_balanced (const guint8 * data, gsize len,
    guint32 n_rows, guint64 row_bytes, const GstTileWireTileHeader * first,
    guint32 remaining, GstTileWireTileHeader * out, GError ** error)
{
  guint32 first_row, rows, size, flags;
  GstTileWireParseResult r;
  guint64 tile;

  g_return_val_if_fail (data != NULL || len == 0, GST_TILE_WIRE_PARSE_ERROR);
  g_return_val_if_fail (out != NULL, GST_TILE_WIRE_PARSE_ERROR);

  if (len < GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED)
    return GST_TILE_WIRE_PARSE_NEED_MORE;
  first_row = read_be (data + 40, 4);
  rows = read_be (data + 44, 4);
  size = read_be (data + 32, 4);
  flags = read_be (data + 36, 4);
  if (first && (first_row != first->first_row || rows != first->rows)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "tile header rows are %u+%u inside a tile of rows %u+%u",
        first_row, rows, first->first_row, first->rows);
    return GST_TILE_WIRE_PARSE_ERROR;
  }
  if (first_row > n_rows || rows > n_rows - first_row) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "tile header rows are %u+%u, the frame has %u", first_row, rows,
        n_rows);
    return GST_TILE_WIRE_PARSE_ERROR;
  }
  tile = rows * row_bytes;
  if (row_bytes && tile / row_bytes != rows) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "tile header rows are %u of %" G_GUINT64_FORMAT " bytes: too large",
        rows, row_bytes);
    return GST_TILE_WIRE_PARSE_ERROR;
  }
  if (!first && tile > G_MAXUINT32) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_OVERSIZED,
        "tile header rows make a tile of %" G_GUINT64_FORMAT " bytes, at "
        "most %u are allowed", tile, G_MAXUINT32);
    return GST_TILE_WIRE_PARSE_ERROR;
  }
  if (rows == 0) {
    /* nothing of this frame on this unit: one empty part */
    if (size != 0 || flags != 0 || read_be (data, 4) !=
        GST_TILE_WIRE_TILE_MAGIC) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "tile header of 0 rows has size %u and flags 0x%08x, must be 0",
          size, flags);
      return GST_TILE_WIRE_PARSE_ERROR;
    }
    out->generation = read_be (data + 4, 4);
    out->frame = read_be (data + 8, 8);
    out->timestamp = read_be (data + 16, 8);
    out->capture = read_be (data + 24, 8);
    out->size = 0;
    out->flags = 0;
  } else {
    r = gst_tile_wire_tile_header_parse (data, len, first ? remaining :
        (guint32) tile, out, error);
    if (r != GST_TILE_WIRE_PARSE_OK)
      return r;
  }
  out->first_row = first_row;
  out->rows = rows;
  return GST_TILE_WIRE_PARSE_OK;
}

/* UDP datagram header */

/**
 * gst_tile_wire_packet_header_write:
 * @out: (out caller-allocates) (array fixed-size=48): where to write
 * @h: the datagram header; its @unit must be below %GST_TILE_WIRE_MAX_UNITS
 *
 * Writes the header of a UDP datagram, version %GST_TILE_WIRE_VERSION and
 * the flags of @h (0, or %GST_TILE_WIRE_PACKET_FLAG_PARITY).
 */
void
gst_tile_wire_packet_header_write (guint8 out[GST_TILE_WIRE_PACKET_HEADER_SIZE],
    const GstTileWirePacketHeader * h)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (h != NULL);
  g_return_if_fail (h->unit < GST_TILE_WIRE_MAX_UNITS);
  g_return_if_fail ((h->flags & ~GST_TILE_WIRE_PACKET_FLAG_PARITY) == 0);

  write_be (out, GST_TILE_WIRE_PACKET_MAGIC, 4);
  out[4] = GST_TILE_WIRE_VERSION;
  out[5] = h->flags;
  write_be (out + 6, h->unit, 2);
  write_be (out + 8, h->generation, 4);
  write_be (out + 12, h->offset, 4);
  write_be (out + 16, h->frame, 8);
  write_be (out + 24, h->timestamp, 8);
  write_be (out + 32, h->capture, 8);
  write_be (out + 40, h->token, 8);
}

/**
 * gst_tile_wire_packet_header_parse:
 * @data: (array length=len) (nullable): a received datagram
 * @len: number of bytes in @data
 * @out: (out caller-allocates): the parsed header
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Parses and checks the header of a UDP datagram: magic, version, flags 0
 * (a data datagram) or %GST_TILE_WIRE_PACKET_FLAG_PARITY (a parity
 * datagram, whose group span and parity count in @offset must be a layout
 * Reed-Solomon over GF(2^8) allows: see gst_tile_wire_parity_offset()) and
 * a unit below %GST_TILE_WIRE_MAX_UNITS. Only the first
 * %GST_TILE_WIRE_PACKET_HEADER_SIZE bytes are read; whether the rest of the
 * datagram is packet_size bytes, and whether the header fits the current
 * CONFIG (gst_tile_wire_packet_check()), is for the caller to check.
 *
 * Returns: %GST_TILE_WIRE_PARSE_NEED_MORE when @len is smaller than a
 * datagram header (for a datagram, a truncated one), %GST_TILE_WIRE_PARSE_ERROR
 * with @error set when it is invalid, else %GST_TILE_WIRE_PARSE_OK.
 */
GstTileWireParseResult
gst_tile_wire_packet_header_parse (const guint8 * data, gsize len,
    GstTileWirePacketHeader * out, GError ** error)
{
  guint32 magic;
  guint8 version, flags;
  guint16 unit;

  g_return_val_if_fail (data != NULL || len == 0, GST_TILE_WIRE_PARSE_ERROR);
  g_return_val_if_fail (out != NULL, GST_TILE_WIRE_PARSE_ERROR);

  if (len < GST_TILE_WIRE_PACKET_HEADER_SIZE)
    return GST_TILE_WIRE_PARSE_NEED_MORE;

  magic = read_be (data, 4);
  version = data[4];
  flags = data[5];
  unit = read_be (data + 6, 2);

  if (magic != GST_TILE_WIRE_PACKET_MAGIC) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_BAD_MAGIC,
        "datagram header magic is 0x%08x, expected 0x%08x (\"GSBU\")", magic,
        GST_TILE_WIRE_PACKET_MAGIC);
    return GST_TILE_WIRE_PARSE_ERROR;
  }
  if (version != GST_TILE_WIRE_VERSION) {
    g_set_error (error, GST_TILE_WIRE_ERROR,
        GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION,
        "datagram header version is %u, this side speaks version %u",
        version, GST_TILE_WIRE_VERSION);
    return GST_TILE_WIRE_PARSE_ERROR;
  }
  if ((flags & ~GST_TILE_WIRE_PACKET_FLAG_PARITY) != 0) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "datagram header flags is 0x%02x, must be 0 or 0x%02x", flags,
        GST_TILE_WIRE_PACKET_FLAG_PARITY);
    return GST_TILE_WIRE_PARSE_ERROR;
  }
  if (unit >= GST_TILE_WIRE_MAX_UNITS) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "datagram header unit is %u, must be below %u", unit,
        GST_TILE_WIRE_MAX_UNITS);
    return GST_TILE_WIRE_PARSE_ERROR;
  }

  out->unit = unit;
  out->flags = flags;
  out->generation = read_be (data + 8, 4);
  out->offset = read_be (data + 12, 4);
  if (flags & GST_TILE_WIRE_PACKET_FLAG_PARITY) {
    guint span, parity, index;

    gst_tile_wire_parity_fields (out->offset, &span, &parity, &index);
    if (span == 0 || parity == 0 || span + parity > 256) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "parity datagram group span is %u and parity count %u, must be "
          "at least 1 each and at most 256 together", span, parity);
      return GST_TILE_WIRE_PARSE_ERROR;
    }
  }
  out->frame = read_be (data + 16, 8);
  out->timestamp = read_be (data + 24, 8);
  out->capture = read_be (data + 32, 8);
  out->token = read_be (data + 40, 8);
  return GST_TILE_WIRE_PARSE_OK;
}

/**
 * gst_tile_wire_packet_check:
 * @h: a header from gst_tile_wire_packet_header_parse()
 * @config: the current, valid CONFIG, with protocol udp
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Checks that the datagram belongs to the session of @config: its @token,
 * @unit below
 * @n_tiles, @generation the current one, and @offset a multiple of
 * @packet_size inside the tile; for a parity datagram, its layout fits the
 * tile (gst_tile_wire_parity_layout_check()) and its index is below the
 * layout's parity datagrams. Meant to be called for every datagram: it
 * allocates nothing unless it fails with @error non-%NULL.
 *
 * Returns: %TRUE when the datagram fits @config.
 */
gboolean
gst_tile_wire_packet_check (const GstTileWirePacketHeader * h,
    const GstTileWireConfig * config, GError ** error)
{
  const GstTileWireTile *tile;

  g_return_val_if_fail (h != NULL, FALSE);
  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (config->packet_size > 0, FALSE);

  if (G_UNLIKELY (h->token != config->token)) {
    /* (the token is not named: it is what keeps others out) */
    g_set_error_literal (error, GST_TILE_WIRE_ERROR,
        GST_TILE_WIRE_ERROR_INVALID,
        "datagram token is not the session token of the CONFIG");
    return FALSE;
  }
  if (G_UNLIKELY (h->unit >= config->n_tiles)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "datagram unit is %u, the CONFIG has %u tiles", h->unit,
        config->n_tiles);
    return FALSE;
  }
  if (G_UNLIKELY (h->generation != config->generation)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "datagram generation is %u, the CONFIG generation is %u",
        h->generation, config->generation);
    return FALSE;
  }
  if (h->flags & GST_TILE_WIRE_PACKET_FLAG_PARITY) {
    guint32 n = gst_tile_wire_packets_per_tile (config->tiles[h->unit].size,
        config->packet_size);
    guint span, parity, index;

    gst_tile_wire_parity_fields (h->offset, &span, &parity, &index);
    if (G_UNLIKELY (!gst_tile_wire_parity_layout_check (n, span, parity,
                error)))
      return FALSE;
    if (G_UNLIKELY (index >= parity * gst_tile_wire_parity_groups (n, span))) {
      g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
          "parity datagram index is %u, tile %u has %u parity datagrams",
          index, h->unit, parity * gst_tile_wire_parity_groups (n, span));
      return FALSE;
    }
    return TRUE;
  }
  if (G_UNLIKELY (h->offset % config->packet_size != 0)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "datagram offset is %u, not a multiple of packet_size %u",
        h->offset, config->packet_size);
    return FALSE;
  }
  tile = &config->tiles[h->unit];
  if (G_UNLIKELY (h->offset >= tile->size)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "datagram offset is %u, tile %u is %" G_GUINT64_FORMAT " bytes",
        h->offset, h->unit, tile->size);
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_tile_wire_packets_per_tile:
 * @tile_size: bytes in a tile
 * @packet_size: payload bytes per datagram, at least 1
 *
 * Returns: the number of datagrams that carry a tile of @tile_size bytes,
 * @tile_size / @packet_size rounded up; 0 for an empty tile. The result
 * must fit in 32 bits (it does for every tile of a valid CONFIG).
 */
guint32
gst_tile_wire_packets_per_tile (guint64 tile_size, guint32 packet_size)
{
  guint64 n;

  g_return_val_if_fail (packet_size > 0, 0);

  n = tile_size / packet_size + (tile_size % packet_size != 0);
  g_return_val_if_fail (n <= G_MAXUINT32, G_MAXUINT32);
  return (guint32) n;
}

/**
 * gst_tile_wire_parity_offset:
 * @span: data datagrams per parity group, 1 to
 *     %GST_TILE_WIRE_PARITY_MAX_SPAN
 * @parity: parity datagrams per group, 1 to 256 - @span
 * @index: the parity datagram's index in its tile, below 65536: parity row
 *     @index / groups of group @index % groups (the groups:
 *     gst_tile_wire_parity_groups())
 *
 * Returns: the @offset field of a parity datagram's header: @span in bits
 * 31-24, @parity in bits 23-16, @index in bits 15-0.
 */
guint32
gst_tile_wire_parity_offset (guint span, guint parity, guint index)
{
  g_return_val_if_fail (span >= 1 && span <= GST_TILE_WIRE_PARITY_MAX_SPAN, 0);
  g_return_val_if_fail (parity >= 1 && span + parity <= 256, 0);
  g_return_val_if_fail (index < GST_TILE_WIRE_PARITY_MAX_PACKETS, 0);

  return ((guint32) span << 24) | ((guint32) (parity & 0xff) << 16) | index;
}

/**
 * gst_tile_wire_parity_fields:
 * @offset: the @offset field of a parity datagram's header
 * @span: (out): data datagrams per group
 * @parity: (out): parity datagrams per group
 * @index: (out): the parity datagram's index in its tile
 *
 * Splits @offset as gst_tile_wire_parity_offset() packs it (no check).
 */
void
gst_tile_wire_parity_fields (guint32 offset, guint * span, guint * parity,
    guint * index)
{
  *span = offset >> 24;
  *parity = (offset >> 16) & 0xff;
  *index = offset & 0xffff;
}

/**
 * gst_tile_wire_parity_groups:
 * @n_packets: data datagrams of the tile
 * @span: data datagrams per group, at least 1
 *
 * Returns: the parity groups of a tile of @n_packets datagrams, @n_packets
 * / @span rounded up. Data datagram i belongs to group i % groups, as its
 * member i / groups: the groups interleave, so that a burst of losses
 * spreads over them.
 */
guint32
gst_tile_wire_parity_groups (guint32 n_packets, guint span)
{
  g_return_val_if_fail (span >= 1, 0);

  return n_packets / span + (n_packets % span != 0);
}

/**
 * gst_tile_wire_parity_max:
 * @n_packets: data datagrams of the tile
 *
 * Returns: the most parity datagrams a tile of @n_packets datagrams may
 * have: half its data datagrams, rounded up, and at most
 * %GST_TILE_WIRE_PARITY_MAX_PACKETS.
 */
guint32
gst_tile_wire_parity_max (guint32 n_packets)
{
  return MIN (n_packets / 2 + n_packets % 2, GST_TILE_WIRE_PARITY_MAX_PACKETS);
}

/**
 * gst_tile_wire_parity_layout_check:
 * @n_packets: data datagrams of the tile
 * @span: data datagrams per group
 * @parity: parity datagrams per group
 * @error: return location for a #GST_TILE_WIRE_ERROR
 *
 * Checks a tile's parity layout: @span 1 to @n_packets (and at most
 * %GST_TILE_WIRE_PARITY_MAX_SPAN), @parity at least 1 with @span + @parity
 * at most 256, and @parity x groups at most gst_tile_wire_parity_max().
 *
 * Returns: whether the layout is valid.
 */
gboolean
gst_tile_wire_parity_layout_check (guint32 n_packets, guint span,
    guint parity, GError ** error)
{
  guint64 total;

  if (span < 1 || span > MIN (n_packets, GST_TILE_WIRE_PARITY_MAX_SPAN)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "parity group span is %u, the tile has %u datagrams", span, n_packets);
    return FALSE;
  }
  if (parity < 1 || span + parity > 256) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "parity count is %u with a group span of %u (at most 256 together)",
        parity, span);
    return FALSE;
  }
  total = (guint64) parity * gst_tile_wire_parity_groups (n_packets, span);
  if (total > gst_tile_wire_parity_max (n_packets)) {
    g_set_error (error, GST_TILE_WIRE_ERROR, GST_TILE_WIRE_ERROR_INVALID,
        "%" G_GUINT64_FORMAT " parity datagrams for a tile of %u datagrams, "
        "at most %u", total, n_packets, gst_tile_wire_parity_max (n_packets));
    return FALSE;
  }
  return TRUE;
}

/**
 * gst_tile_wire_clear_passphrase:
 * @passphrase: (inout) (nullable) (transfer full): a passphrase copy, or
 *     %NULL
 *
 * Wipes and frees *@passphrase, and sets it to %NULL: what tilesink,
 * tilesrc and the sessions do with their copies of a passphrase.
 */
void
gst_tile_wire_clear_passphrase (gchar ** passphrase)
{
  g_return_if_fail (passphrase != NULL);

  if (*passphrase)
    gst_tile_seal_wipe (*passphrase, strlen (*passphrase));
  g_clear_pointer (passphrase, g_free);
}

/**
 * gst_tile_wire_protocol_get_type:
 *
 * Returns: the enum type of #GstTileWireProtocol, with the nicks `tcp` and
 * `udp`: the type of tilesink's `protocol` property.
 */
GType
gst_tile_wire_protocol_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_TILE_WIRE_PROTOCOL_TCP, "One TCP connection per unit", "tcp"},
    {GST_TILE_WIRE_PROTOCOL_UDP, "UDP datagrams, one socket per unit", "udp"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstTileWireProtocol",
            values));
  return type;
}
