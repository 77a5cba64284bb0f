/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_TILE_WIRE_H__
#define __GST_TILE_WIRE_H__

#include <gst/tile/tile-prelude.h>
#include <gst/bc/bctiling.h>

G_BEGIN_DECLS

/**
 * GST_TILE_WIRE_MAGIC:
 *
 * First four bytes of every control message: "GSBC".
 */
#define GST_TILE_WIRE_MAGIC 0x47534243u

/**
 * GST_TILE_WIRE_TILE_MAGIC:
 *
 * First four bytes of every tile header: "GSBT".
 */
#define GST_TILE_WIRE_TILE_MAGIC 0x47534254u

/**
 * GST_TILE_WIRE_VERSION:
 *
 * The protocol version this library speaks. Peers with another version are
 * refused.
 */
#define GST_TILE_WIRE_VERSION 7

/**
 * GST_TILE_WIRE_HEADER_SIZE:
 *
 * Bytes in a control message header.
 */
#define GST_TILE_WIRE_HEADER_SIZE 12

/**
 * GST_TILE_WIRE_TILE_HEADER_SIZE:
 *
 * Bytes in a tile header.
 */
#define GST_TILE_WIRE_TILE_HEADER_SIZE 40

/**
 * GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED:
 *
 * Size of a tile header in a session with balanced tiles: the 40 bytes,
 * then the tile's first row and rows in that frame.
 */
#define GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED 48

/**
 * GST_TILE_WIRE_MAX_PAYLOAD:
 *
 * Largest control message payload accepted.
 */
#define GST_TILE_WIRE_MAX_PAYLOAD 65536

/**
 * GST_TILE_WIRE_MAX_UNITS:
 *
 * Largest number of units (data connections) in a session.
 */
#define GST_TILE_WIRE_MAX_UNITS 64

/**
 * GST_TILE_WIRE_MAX_FRAME_SIZE:
 *
 * Largest frame size a CONFIG may announce: 1 GiB.
 */
#define GST_TILE_WIRE_MAX_FRAME_SIZE (G_GUINT64_CONSTANT (1) << 30)

/**
 * GST_TILE_WIRE_MAX_CAPS:
 *
 * Largest caps string in a CONFIG, in bytes.
 */
#define GST_TILE_WIRE_MAX_CAPS 8192

/**
 * GST_TILE_WIRE_MAX_REASON:
 *
 * Largest reason string in a REFUSE, in bytes.
 */
#define GST_TILE_WIRE_MAX_REASON 1024

/**
 * GST_TILE_WIRE_MAX_STATS:
 *
 * Largest serialized structure in a STATS message, in bytes.
 */
#define GST_TILE_WIRE_MAX_STATS 16384

/**
 * GST_TILE_WIRE_MAX_UDP_PACKET:
 *
 * Largest UDP datagram (header and payload) the protocol sends: the
 * largest UDP payload over IPv4.
 */
#define GST_TILE_WIRE_MAX_UDP_PACKET 65507

/**
 * GST_TILE_WIRE_PACKET_MAGIC:
 *
 * First four bytes of every UDP datagram: "GSBU".
 */
#define GST_TILE_WIRE_PACKET_MAGIC 0x47534255u

/**
 * GST_TILE_WIRE_PACKET_HEADER_SIZE:
 *
 * Bytes in the header of a UDP datagram.
 */
#define GST_TILE_WIRE_PACKET_HEADER_SIZE 48

/**
 * GST_TILE_WIRE_TAG_SIZE:
 *
 * Bytes of the authentication tag (AES-128-GCM) that follows every sealed
 * tile part, datagram and control record of a session with a passphrase.
 */
#define GST_TILE_WIRE_TAG_SIZE 16

/**
 * GST_TILE_WIRE_NONCE_SIZE:
 *
 * Bytes of the random nonce each side brings to a handshake (HELLO and
 * CHALLENGE).
 */
#define GST_TILE_WIRE_NONCE_SIZE 16

/**
 * GST_TILE_WIRE_DATAGRAM_OVERHEAD:
 * @sealed: whether the session has a passphrase
 *
 * Bytes of a UDP datagram before its payload: the header and, in a session
 * with a passphrase, the authentication tag that follows it.
 */
#define GST_TILE_WIRE_DATAGRAM_OVERHEAD(sealed) \
    (GST_TILE_WIRE_PACKET_HEADER_SIZE + ((sealed) ? GST_TILE_WIRE_TAG_SIZE : 0))

/**
 * GST_TILE_WIRE_MAX_PACKET_PAYLOAD:
 *
 * Largest packet_size (payload bytes per UDP datagram) a CONFIG may
 * announce: %GST_TILE_WIRE_MAX_UDP_PACKET minus
 * %GST_TILE_WIRE_PACKET_HEADER_SIZE, 65459.
 */
#define GST_TILE_WIRE_MAX_PACKET_PAYLOAD \
    (GST_TILE_WIRE_MAX_UDP_PACKET - GST_TILE_WIRE_PACKET_HEADER_SIZE)

/**
 * GST_TILE_WIRE_ERROR:
 *
 * Error domain of the wire protocol parsers. Codes are #GstTileWireError.
 */
#define GST_TILE_WIRE_ERROR (gst_tile_wire_error_quark ())

GST_TILE_API
GQuark gst_tile_wire_error_quark (void);

/**
 * GstTileWireError:
 * @GST_TILE_WIRE_ERROR_BAD_MAGIC: the magic number is wrong
 * @GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION: the peer speaks another version
 * @GST_TILE_WIRE_ERROR_TRUNCATED: the data ends before a field
 * @GST_TILE_WIRE_ERROR_OVERSIZED: a length is larger than its limit
 * @GST_TILE_WIRE_ERROR_INVALID: a field has a value that is not allowed, or
 *     the payload has bytes after its last field
 * @GST_TILE_WIRE_ERROR_REFUSED: the peer refused the connection (a REFUSE
 *     message; its code and reason are in the message)
 * @GST_TILE_WIRE_ERROR_BUSY: the peer refused the connection because it
 *     serves another one (REFUSE `busy`): worth trying again later
 * @GST_TILE_WIRE_ERROR_UNAUTHORIZED: the passphrases of the two ends differ,
 *     or only one end has one (REFUSE `unauthorized`, or a proof that does
 *     not check)
 * @GST_TILE_WIRE_ERROR_TAMPERED: sealed data whose authentication tag does
 *     not check: changed on the way
 *
 * Why a message was rejected, or the peer's refusal. The #GError message
 * names the field and its value, or the refusal's reason.
 */
typedef enum
{
  GST_TILE_WIRE_ERROR_BAD_MAGIC,
  GST_TILE_WIRE_ERROR_UNSUPPORTED_VERSION,
  GST_TILE_WIRE_ERROR_TRUNCATED,
  GST_TILE_WIRE_ERROR_OVERSIZED,
  GST_TILE_WIRE_ERROR_INVALID,
  GST_TILE_WIRE_ERROR_REFUSED,
  GST_TILE_WIRE_ERROR_BUSY,
  GST_TILE_WIRE_ERROR_UNAUTHORIZED,
  GST_TILE_WIRE_ERROR_TAMPERED,
} GstTileWireError;

/**
 * GstTileWireParseResult:
 * @GST_TILE_WIRE_PARSE_OK: a complete header was parsed
 * @GST_TILE_WIRE_PARSE_NEED_MORE: fewer bytes than a header; read more
 * @GST_TILE_WIRE_PARSE_ERROR: the header is invalid; the error says why
 *
 * Result of the fixed-size header parsers.
 */
typedef enum
{
  GST_TILE_WIRE_PARSE_OK,
  GST_TILE_WIRE_PARSE_NEED_MORE,
  GST_TILE_WIRE_PARSE_ERROR,
} GstTileWireParseResult;

/**
 * GstTileWireType:
 * @GST_TILE_WIRE_TYPE_HELLO: client to server, first control message
 * @GST_TILE_WIRE_TYPE_CONFIG: server to client, the session layout and caps
 * @GST_TILE_WIRE_TYPE_UNIT_HELLO: client to server, first message on a data
 *     connection
 * @GST_TILE_WIRE_TYPE_REFUSE: either way, the connection is refused
 * @GST_TILE_WIRE_TYPE_EOS: server to client, end of stream
 * @GST_TILE_WIRE_TYPE_KEEPALIVE: either way, a sign of life
 * @GST_TILE_WIRE_TYPE_STATS: client to server, receiver statistics
 * @GST_TILE_WIRE_TYPE_ACK: client to server over UDP, the newest frame the
 *   receiver is done with and how many frames it can hold (flow control)
 * @GST_TILE_WIRE_TYPE_CHALLENGE: server to client, the answer to a HELLO
 *   with a passphrase: the salt and the server's nonce
 * @GST_TILE_WIRE_TYPE_SEALED: either way, after a handshake with a
 *     passphrase: every control message, sealed (see #GstTileRecords)
 * @GST_TILE_WIRE_TYPE_AUTH: either way, the proof that this side knows the
 *   passphrase
 * @GST_TILE_WIRE_TYPE_TIME: client to server, a query of the sender's
 *   clock; server to client, its answer (#GstTileWireTime)
 * @GST_TILE_WIRE_TYPE_NACK: client to server over UDP, the datagrams of a
 *   frame's tile that did not arrive, to send again (#GstTileWireNack)
 * @GST_TILE_WIRE_TYPE_PATH: client to server, first message on a connection
 *   that introduces another network path of a session, and the server's
 *   answer (the payload of a UNIT_HELLO, its `unit` the path)
 *
 * Control message types.
 */
typedef enum
{
  GST_TILE_WIRE_TYPE_HELLO = 1,
  GST_TILE_WIRE_TYPE_CONFIG = 2,
  GST_TILE_WIRE_TYPE_UNIT_HELLO = 3,
  GST_TILE_WIRE_TYPE_REFUSE = 4,
  GST_TILE_WIRE_TYPE_EOS = 5,
  GST_TILE_WIRE_TYPE_KEEPALIVE = 6,
  GST_TILE_WIRE_TYPE_STATS = 7,
  GST_TILE_WIRE_TYPE_ACK = 8,
  GST_TILE_WIRE_TYPE_CHALLENGE = 9,
  GST_TILE_WIRE_TYPE_AUTH = 10,
  GST_TILE_WIRE_TYPE_SEALED = 11,
  GST_TILE_WIRE_TYPE_TIME = 12,
  GST_TILE_WIRE_TYPE_NACK = 13,
  GST_TILE_WIRE_TYPE_PATH = 14,
} GstTileWireType;

/**
 * GstTileWireTime:
 * @local_time: the receiver's time when it sent the query, in its own
 *     clock's terms (never %GST_CLOCK_TIME_NONE); the answer echoes it
 * @remote_time: in an answer, the time of the sender's pipeline clock when
 *     it answered; %GST_CLOCK_TIME_NONE in a query, and in the answer of a
 *     sender that has no clock yet
 *
 * Payload of a TIME message: the two times of GStreamer's network clock
 * packet (#GstNetTimePacket, 16 bytes, big-endian), exchanged over the
 * control connection (sealed with a passphrase) instead of a UDP socket.
 */
typedef struct
{
  guint64 local_time;
  guint64 remote_time;
} GstTileWireTime;

/**
 * GstTileWireProtocol:
 * @GST_TILE_WIRE_PROTOCOL_TCP: tiles travel over one TCP connection per unit
 * @GST_TILE_WIRE_PROTOCOL_UDP: tiles travel as UDP packets
 *
 * The data transport announced in a CONFIG.
 */
typedef enum
{
  GST_TILE_WIRE_PROTOCOL_TCP = 0,
  GST_TILE_WIRE_PROTOCOL_UDP = 1,
} GstTileWireProtocol;

GST_TILE_API
GType    gst_tile_wire_protocol_get_type (void);
#define GST_TYPE_TILE_WIRE_PROTOCOL (gst_tile_wire_protocol_get_type ())

/**
 * GstTileWireRefuseCode:
 * @GST_TILE_WIRE_REFUSE_BAD_MESSAGE: a message did not parse
 * @GST_TILE_WIRE_REFUSE_BAD_VERSION: the peer speaks another version
 * @GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN: the session token (or generation) of a
 *     UNIT_HELLO is not the current one
 * @GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT: the unit index of a UNIT_HELLO does not
 *     exist or is taken
 * @GST_TILE_WIRE_REFUSE_BUSY: the server already serves a client
 * @GST_TILE_WIRE_REFUSE_OTHER: anything else; see the reason
 * @GST_TILE_WIRE_REFUSE_UNAUTHORIZED: the passphrase is wrong, missing, or
 *     not expected
 *
 * Why a peer refuses a connection.
 */
typedef enum
{
  GST_TILE_WIRE_REFUSE_BAD_MESSAGE = 0,
  GST_TILE_WIRE_REFUSE_BAD_VERSION = 1,
  GST_TILE_WIRE_REFUSE_UNKNOWN_TOKEN = 2,
  GST_TILE_WIRE_REFUSE_UNKNOWN_UNIT = 3,
  GST_TILE_WIRE_REFUSE_BUSY = 4,
  GST_TILE_WIRE_REFUSE_OTHER = 5,
  GST_TILE_WIRE_REFUSE_UNAUTHORIZED = 6,
} GstTileWireRefuseCode;

/**
 * GstTileWireHeader:
 * @magic: %GST_TILE_WIRE_MAGIC
 * @version: %GST_TILE_WIRE_VERSION
 * @type: the message type
 * @payload_len: bytes of payload after the header, at most
 *     %GST_TILE_WIRE_MAX_PAYLOAD
 *
 * The 12-byte header in front of every control message.
 */
typedef struct
{
  guint32 magic;
  guint16 version;
  GstTileWireType type;
  guint32 payload_len;
} GstTileWireHeader;

/**
 * GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE:
 *
 * HELLO flag: the client has a passphrase; the server answers with a
 * CHALLENGE.
 */
#define GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE (1u << 0)

/**
 * GST_TILE_WIRE_HELLO_FLAG_REGION:
 *
 * HELLO flag: the client asks for a region of the frame only; the server
 * sends it only the tiles that cover it (see #GstTileWireRegion).
 */
#define GST_TILE_WIRE_HELLO_FLAG_REGION (1u << 1)

/**
 * GST_TILE_WIRE_HELLO_FLAG_BALANCE:
 *
 * HELLO flag: the client takes balanced tiles. Over TCP (and without a
 * region, which it excludes) the server then shares the rows of each frame
 * among the units by their measured rates, and every tile header is
 * GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED bytes, with the tile's rows in
 * that frame. Over UDP nothing changes.
 */
#define GST_TILE_WIRE_HELLO_FLAG_BALANCE (1u << 2)

/**
 * GST_TILE_WIRE_HELLO_FLAG_REDUNDANT:
 *
 * HELLO flag: the client has several paths to the server and wants every
 * datagram over each of them. Over UDP the server then accepts a
 * UNIT_HELLO for a unit already connected from another address of the
 * client's (one per path, the cookie checked as for the first) and sends
 * each of the unit's datagrams to every address it accepted; the client
 * keeps the first copy. Excludes %GST_TILE_WIRE_HELLO_FLAG_BALANCE. Over
 * TCP nothing changes.
 */
#define GST_TILE_WIRE_HELLO_FLAG_REDUNDANT (1u << 3)

/**
 * GST_TILE_WIRE_MAX_REGION:
 *
 * Largest right or bottom edge (x + width, y + height) of a region, in
 * pixels: the largest size caps can say (%G_MAXINT).
 */
#define GST_TILE_WIRE_MAX_REGION G_MAXINT

/**
 * GstTileWireRegion:
 * @x: the left edge, in pixels of the sender's frames
 * @y: the top edge, in pixels
 * @width: the width in pixels; 0 for no region (the whole frame)
 * @height: the height in pixels; 0 for no region
 *
 * A rectangle of the sender's frames that a receiver asks for (tilesrc's
 * `region`): the sender sends it only the tiles whose rows it needs
 * (gst_tile_region_config_units()). All zero: no region.
 */
typedef struct
{
  guint32 x;
  guint32 y;
  guint32 width;
  guint32 height;
} GstTileWireRegion;

/**
 * GstTileWireHello:
 * @flags: %GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE,
 *   %GST_TILE_WIRE_HELLO_FLAG_REGION, or 0
 * @nonce: the client's random nonce for this session (its proof and the
 *   session's key depend on it)
 * @region: with %GST_TILE_WIRE_HELLO_FLAG_REGION, the part of the frame
 *   the client receives (width and height at least 1, right and bottom
 *   edges at most %GST_TILE_WIRE_MAX_REGION); all zero without
 *
 * Payload of a HELLO.
 */
typedef struct
{
  guint32 flags;
  guint8 nonce[GST_TILE_WIRE_NONCE_SIZE];
  GstTileWireRegion region;
} GstTileWireHello;

/**
 * GST_TILE_WIRE_SHARE_SIZE:
 *
 * Bytes of a side's CPace share (a ristretto255 element) in CHALLENGE and
 * AUTH.
 */
#define GST_TILE_WIRE_SHARE_SIZE 32

/**
 * GST_TILE_WIRE_PROOF_SIZE:
 *
 * Bytes of a side's proof (key confirmation) in AUTH.
 */
#define GST_TILE_WIRE_PROOF_SIZE 32

/**
 * GstTileWireChallenge:
 * @nonce: the server's random nonce for this session
 * @share: the server's CPace share (it is the initiator)
 *
 * Payload of a CHALLENGE: the server's answer to a HELLO with
 * %GST_TILE_WIRE_HELLO_FLAG_PASSPHRASE.
 */
typedef struct
{
  guint8 nonce[GST_TILE_WIRE_NONCE_SIZE];
  guint8 share[GST_TILE_WIRE_SHARE_SIZE];
} GstTileWireChallenge;

/**
 * GstTileWireAuth:
 * @share: the side's CPace share (the client's answer; the server repeats
 *     the one of its CHALLENGE)
 * @proof: the side's key confirmation: it derived the same keys, so it
 *     knows the passphrase
 *
 * Payload of an AUTH: the client's answer to the CHALLENGE, then the
 * server's (before its CONFIG, the first sealed record).
 */
typedef struct
{
  guint8 share[GST_TILE_WIRE_SHARE_SIZE];
  guint8 proof[GST_TILE_WIRE_PROOF_SIZE];
} GstTileWireAuth;

/**
 * GstTileWireTile:
 * @offset: byte offset of the tile in the frame
 * @size: byte size of the tile
 *
 * One tile of a CONFIG.
 */
typedef struct
{
  guint64 offset;
  guint64 size;
} GstTileWireTile;

/**
 * GST_TILE_WIRE_GROUP_SECRET_SIZE:
 *
 * Bytes of the multicast group's secret in a sealed CONFIG.
 */
#define GST_TILE_WIRE_GROUP_SECRET_SIZE 32

/**
 * GstTileWireConfig:
 * @token: session token the client repeats in every UNIT_HELLO
 * @generation: bumped by the server on every caps change
 * @protocol: data transport
 * @n_units: units requested by the server, 1 to %GST_TILE_WIRE_MAX_UNITS
 * @chunk_size: bytes per send call, at least 1
 * @packet_size: for UDP, payload bytes per datagram (the datagram adds a
 *     %GST_TILE_WIRE_PACKET_HEADER_SIZE header), 1 to
 *     %GST_TILE_WIRE_MAX_PACKET_PAYLOAD; 0 for TCP
 * @frame_size: bytes per frame, 1 to %GST_TILE_WIRE_MAX_FRAME_SIZE
 * @n_rows: rows in a frame
 * @row_bytes: bytes per row; @n_rows * @row_bytes == @frame_size
 * @n_tiles: tiles (and data connections), 1 to @n_units
 * @tiles: the tiles, contiguous from offset 0, each a whole number of rows
 * @caps: the caps of the stream, NUL-terminated, at most
 *     %GST_TILE_WIRE_MAX_CAPS bytes
 * @mcast_family: UDP multicast: 4 or 6, the family of @mcast_addr; 0
 *     for unicast (then @mcast_addr and @mcast_port are 0)
 * @mcast_addr: the group (4 bytes for IPv4, the rest 0; 16 for IPv6), in
 *     network order
 * @mcast_port: the UDP port of unit 0's datagrams; unit i's are sent to
 *     @mcast_port + i
 * @group_secret: multicast in a session with a passphrase: the group's
 *     secret, from which the keys of every member's datagrams derive
 *     (gst_tile_keys_data_key()); zeros otherwise (a CONFIG in the clear
 *     never carries one)
 *
 * Payload of a CONFIG: everything a client needs to receive frames. With
 * multicast, @token is the group's (every datagram carries it), and the
 * client joins the group instead of sending UNIT_HELLO.
 */
typedef struct
{
  guint64 token;
  guint32 generation;
  GstTileWireProtocol protocol;
  guint16 n_units;
  guint32 chunk_size;
  guint32 packet_size;
  guint64 frame_size;
  guint32 n_rows;
  guint64 row_bytes;
  guint16 n_tiles;
  GstTileWireTile tiles[GST_TILE_WIRE_MAX_UNITS];
  gchar caps[GST_TILE_WIRE_MAX_CAPS + 1];
  guint8 mcast_family;
  guint8 mcast_addr[16];
  guint16 mcast_port;
  guint8 group_secret[GST_TILE_WIRE_GROUP_SECRET_SIZE];
} GstTileWireConfig;

/**
 * GST_TILE_WIRE_COOKIE_SIZE:
 *
 * Bytes of the address-validation cookie in a UNIT_HELLO (protocol=udp):
 * the server's time in seconds (4 bytes) and a 16-byte MAC.
 */
#define GST_TILE_WIRE_COOKIE_SIZE 20

/**
 * GST_TILE_WIRE_UNIT_MAC_SIZE:
 *
 * Bytes of the MAC of a UNIT_HELLO in a session with a passphrase.
 */
#define GST_TILE_WIRE_UNIT_MAC_SIZE 16

/**
 * GST_TILE_WIRE_MAX_PATHS:
 *
 * The most network paths of a session (PATH's index is below it).
 */
#define GST_TILE_WIRE_MAX_PATHS 8

/**
 * GstTileWireUnitHello:
 * @token: the session token of the CONFIG
 * @generation: the generation of the CONFIG
 * @unit: the tile this connection carries, below %GST_TILE_WIRE_MAX_UNITS
 * @cookie: protocol=udp: all zero in a receiver's first UNIT_HELLO of a
 *     unit, then the cookie the server answered it with (the proof that
 *     the receiver's unit socket receives at its address); all zero on a
 *     TCP data connection
 * @mac: in a session with a passphrase, the MAC of the side that sends it
 *     over the fields before it (gst_tile_keys_unit_mac()); zeros without
 *
 * Payload of a UNIT_HELLO.
 */
typedef struct
{
  guint64 token;
  guint32 generation;
  guint16 unit;
  guint8 cookie[GST_TILE_WIRE_COOKIE_SIZE];
  guint8 mac[GST_TILE_WIRE_UNIT_MAC_SIZE];
} GstTileWireUnitHello;

/**
 * GstTileWireRefuse:
 * @code: why
 * @reason: UTF-8 text for humans, NUL-terminated, at most
 *     %GST_TILE_WIRE_MAX_REASON bytes
 *
 * Payload of a REFUSE.
 */
typedef struct
{
  GstTileWireRefuseCode code;
  gchar reason[GST_TILE_WIRE_MAX_REASON + 1];
} GstTileWireRefuse;

/**
 * GstTileWireTileFlags:
 * @GST_TILE_WIRE_TILE_FLAG_MORE: more parts of this tile follow, each
 *     with a header of its own
 * @GST_TILE_WIRE_TILE_FLAG_ABANDON: the sender abandoned the rest of this
 *     tile (its deadline passed); the header carries no data and the
 *     receiver drops the frame
 *
 * Flags of a tile header. Without either, the header's part is the last
 * one of its tile.
 */
typedef enum
{
  GST_TILE_WIRE_TILE_FLAG_MORE = (1 << 0),
  GST_TILE_WIRE_TILE_FLAG_ABANDON = (1 << 1),
} GstTileWireTileFlags;

/**
 * GstTileWireTileHeader:
 * @generation: the CONFIG generation the tile belongs to
 * @frame: frame number, counted by the sender
 * @timestamp: the sender's CLOCK_REALTIME in nanoseconds when it got the
 *     frame (or its origin's, see gst_tile_sender_push()), or
 *     %GST_CLOCK_TIME_NONE
 * @capture: the frame's capture time on the sender's clock (the clock its
 *     TIME answers give), or %GST_CLOCK_TIME_NONE
 * @size: bytes of tile data after the header (this part of the tile)
 * @flags: #GstTileWireTileFlags
 * @first_row: balanced tiles only: the tile's first row in this frame
 * @rows: balanced tiles only: its rows in this frame (0: none)
 *
 * The 40-byte header in front of every part of a tile on a data
 * connection. A tile is sent as one part or more, in order; the last one
 * either ends the tile or abandons it.
 */
typedef struct
{
  guint32 generation;
  guint64 frame;
  GstClockTime timestamp;
  GstClockTime capture;
  guint32 size;
  guint32 flags;
  guint32 first_row;
  guint32 rows;
} GstTileWireTileHeader;

/**
 * GST_TILE_WIRE_PACKET_FLAG_PARITY:
 *
 * The datagram header flag of a parity datagram (forward error
 * correction): its payload is packet_size parity bytes over a group of the
 * tile's data datagrams, and its @offset field holds the group's layout and
 * the parity's index (gst_tile_wire_parity_offset()) instead of a byte
 * offset.
 */
#define GST_TILE_WIRE_PACKET_FLAG_PARITY 0x01

/**
 * GST_TILE_WIRE_PARITY_MAX_SPAN:
 *
 * The most data datagrams in one parity group (Reed-Solomon over GF(2^8):
 * a group's data and parity datagrams together are at most 256).
 */
#define GST_TILE_WIRE_PARITY_MAX_SPAN 255

/**
 * GST_TILE_WIRE_PARITY_MAX_PACKETS:
 *
 * The most parity datagrams of one tile of one frame (their index is 16
 * bits).
 */
#define GST_TILE_WIRE_PARITY_MAX_PACKETS 65536

/**
 * GstTileWirePacketHeader:
 * @unit: the tile the payload belongs to, below %GST_TILE_WIRE_MAX_UNITS
 * @generation: the CONFIG generation the datagram belongs to
 * @offset: a data datagram's byte offset of the payload within the tile, a
 *     multiple of the CONFIG packet_size; a parity datagram's layout and
 *     index (gst_tile_wire_parity_offset())
 * @frame: frame number, counted by the sender from 0
 * @timestamp: sender CLOCK_REALTIME in nanoseconds when it got the frame,
 *     or %GST_CLOCK_TIME_NONE
 * @capture: the frame's capture time on the sender's clock (the clock its
 *     TIME answers give), or %GST_CLOCK_TIME_NONE
 * @token: the session token of the CONFIG: a datagram from anyone who did
 *     not see the CONFIG is dropped
 * @flags: 0 for a data datagram, %GST_TILE_WIRE_PACKET_FLAG_PARITY for a
 *     parity datagram
 *
 * The 48-byte header in front of every UDP datagram. The datagram carries
 * exactly packet_size payload bytes after it; the last datagram of a tile
 * is padded with zeros.
 */
typedef struct
{
  guint16 unit;
  guint32 generation;
  guint32 offset;
  guint64 frame;
  GstClockTime timestamp;
  GstClockTime capture;
  guint64 token;
  guint8 flags;
} GstTileWirePacketHeader;

GST_TILE_API
const gchar * gst_tile_wire_type_get_name (GstTileWireType type);

GST_TILE_API
void          gst_tile_wire_header_write (guint8 out[GST_TILE_WIRE_HEADER_SIZE],
                                        GstTileWireType type,
                                        guint32 payload_len);

GST_TILE_API
GstTileWireParseResult gst_tile_wire_header_parse (const guint8 * data,
                                               gsize len,
                                               GstTileWireHeader * out,
                                               GError ** error);

GST_TILE_API
gboolean gst_tile_wire_hello_pack (const GstTileWireHello * hello,
                                 GByteArray * out, GError ** error);

GST_TILE_API
gboolean gst_tile_wire_hello_parse (const guint8 * payload, gsize len,
                                  GstTileWireHello * out, GError ** error);

GST_TILE_API
gboolean gst_tile_wire_challenge_pack (const GstTileWireChallenge * challenge,
                                     GByteArray * out);

GST_TILE_API
gboolean gst_tile_wire_challenge_parse (const guint8 * payload, gsize len,
                                      GstTileWireChallenge * out,
                                      GError ** error);

GST_TILE_API
gboolean gst_tile_wire_auth_pack (const GstTileWireAuth * auth,
                                GByteArray * out);

GST_TILE_API
gboolean gst_tile_wire_auth_parse (const guint8 * payload, gsize len,
                                 GstTileWireAuth * out, GError ** error);

GST_TILE_API
gboolean gst_tile_wire_config_set_caps (GstTileWireConfig * config,
                                      const gchar * caps, GError ** error);

GST_TILE_API
gboolean gst_tile_wire_config_set_tiling (GstTileWireConfig * config,
                                        const GstBcTiling * tiling,
                                        GError ** error);

GST_TILE_API
gboolean gst_tile_wire_config_check_tiling (const GstTileWireConfig * config,
                                          GstBcTiling * tiling,
                                          GError ** error);

GST_TILE_API
gboolean gst_tile_wire_config_validate (const GstTileWireConfig * config,
                                      GError ** error);

GST_TILE_API
gboolean gst_tile_wire_config_pack (const GstTileWireConfig * config,
                                  GByteArray * out, GError ** error);

GST_TILE_API
gboolean gst_tile_wire_config_parse (const guint8 * payload, gsize len,
                                   GstTileWireConfig * out, GError ** error);

GST_TILE_API
gboolean gst_tile_wire_unit_hello_pack (const GstTileWireUnitHello * hello,
                                      GByteArray * out, GError ** error);

GST_TILE_API
gboolean gst_tile_wire_unit_hello_parse (const guint8 * payload, gsize len,
                                       GstTileWireUnitHello * out,
                                       GError ** error);

GST_TILE_API
gboolean gst_tile_wire_path_pack (const GstTileWireUnitHello * hello,
                                  GByteArray * out, GError ** error);

GST_TILE_API
gboolean gst_tile_wire_path_parse (const guint8 * payload, gsize len,
                                   GstTileWireUnitHello * out,
                                   GError ** error);

GST_TILE_API
gboolean gst_tile_wire_refuse_pack (GstTileWireRefuseCode code,
                                  const gchar * reason, GByteArray * out,
                                  GError ** error);

GST_TILE_API
gboolean gst_tile_wire_refuse_parse (const guint8 * payload, gsize len,
                                   GstTileWireRefuse * out, GError ** error);

GST_TILE_API
void     gst_tile_wire_eos_pack (GByteArray * out);

GST_TILE_API
gboolean gst_tile_wire_eos_parse (const guint8 * payload, gsize len,
                                GError ** error);

GST_TILE_API
void     gst_tile_wire_keepalive_pack (guint64 time_ns, GByteArray * out);

/**
 * GstTileWireAckPath:
 * @path: the network path: 0 for the control connection's, else the index
 *     its PATH connection gave (below %GST_TILE_WIRE_MAX_PATHS)
 * @received: datagrams of the frame that arrived over the path (as
 *     #GstTileWireAck's @received: first sendings only)
 * @spanned: of those, the ones between the path's first arrival and its
 *     last; at most @received
 * @receive_ns: from the frame's first datagram that arrived over the path
 *     to its last, receiver clock, ns
 * @delay_ns: as #GstTileWireAck's, for the first datagram over the path;
 *     0 when unknown
 *
 * What arrived of a frame over one path, when the units stripe their
 * datagrams over several (balanced tiles over UDP): the sender's rate
 * control of each path.
 */
typedef struct
{
  guint32 path;
  guint32 received;
  guint32 spanned;
  guint64 receive_ns;
  gint64 delay_ns;
} GstTileWireAckPath;

/**
 * GstTileWireAck:
 * @generation: the generation acknowledged
 * @window: how many frames past the newest one done (or, with no frame yet,
 *   from the first one of @generation) the receiver can hold, at least 1
 * @has_frame: %FALSE before the receiver is done with any frame of the
 *   generation: the acknowledgement only gives the window
 * @frame: the newest frame the receiver is done with (pushed, or given up)
 * @has_feedback: what the receiver measured of @frame follows (it got at
 *   least one datagram of it); needs @has_frame
 * @received: datagrams of @frame that arrived
 * @spanned: of those, the ones that arrived between the first arrival and
 *   the last (the link delivered them in @receive_ns): with receive
 *   offload one arrival time covers a batch of datagrams, so the last
 *   batch does not count; at most @received
 * @receive_ns: from the first datagram of @frame that arrived to the last,
 *   receiver clock, ns
 * @delay_ns: the receiver's `CLOCK_REALTIME` when the first datagram of
 *   @frame arrived minus the frame's timestamp (the sender's clock): the
 *   one-way delay plus the offset between the two clocks, so only its
 *   changes mean something; 0 when the frame has no timestamp
 * @n_paths: the feedback per network path that follows (0: none, else at
 *   least 1 and at most %GST_TILE_WIRE_MAX_PATHS; needs @has_feedback)
 * @paths: (array length=n_paths): each path's, every @path once
 *
 * An ACK message (protocol UDP, client to server): flow control (@window)
 * and, for the sender's rate control, what the receiver measured.
 */
typedef struct
{
  guint32 generation;
  guint32 window;
  gboolean has_frame;
  guint64 frame;
  gboolean has_feedback;
  guint32 received;
  guint32 spanned;
  guint64 receive_ns;
  gint64 delay_ns;
  guint n_paths;
  GstTileWireAckPath paths[GST_TILE_WIRE_MAX_PATHS];
} GstTileWireAck;

GST_TILE_API
void     gst_tile_wire_ack_pack (const GstTileWireAck * ack, GByteArray * out);

GST_TILE_API
gboolean gst_tile_wire_ack_parse (const guint8 * payload, gsize len,
    GstTileWireAck * out, GError ** error);

/**
 * GST_TILE_WIRE_NACK_MAX_RANGES:
 *
 * Ranges of missing datagrams one NACK may list at most.
 */
#define GST_TILE_WIRE_NACK_MAX_RANGES 64

/**
 * GST_TILE_WIRE_NACK_MAX_COUNT:
 *
 * Datagrams one range of a NACK may ask for at most.
 */
#define GST_TILE_WIRE_NACK_MAX_COUNT 65535

/**
 * GstTileWireNackRange:
 * @first: the first missing datagram, its index in the tile (its datagram
 *   header's offset / packet_size)
 * @count: how many datagrams from @first, 1 to
 *   %GST_TILE_WIRE_NACK_MAX_COUNT
 *
 * A run of missing datagrams of a tile.
 */
typedef struct
{
  guint32 first;
  guint32 count;
} GstTileWireNackRange;

/**
 * GstTileWireNack:
 * @generation: the frame's generation
 * @frame: the frame number
 * @unit: the tile, < %GST_TILE_WIRE_MAX_UNITS
 * @n_ranges: ranges that follow, 1 to %GST_TILE_WIRE_NACK_MAX_RANGES
 * @ranges: the missing datagrams, in order, not overlapping
 *
 * A NACK message (protocol UDP, client to server): the datagrams of one
 * tile of one frame that did not arrive, for the sender to send again
 * while the frame can still arrive in time.
 */
typedef struct
{
  guint32 generation;
  guint64 frame;
  guint16 unit;
  guint n_ranges;
  GstTileWireNackRange ranges[GST_TILE_WIRE_NACK_MAX_RANGES];
} GstTileWireNack;

GST_TILE_API
gboolean gst_tile_wire_nack_pack (const GstTileWireNack * nack,
    GByteArray * out, GError ** error);

GST_TILE_API
gboolean gst_tile_wire_nack_parse (const guint8 * payload, gsize len,
    GstTileWireNack * out, GError ** error);

GST_TILE_API
gboolean gst_tile_wire_keepalive_parse (const guint8 * payload, gsize len,
                                      guint64 * time_ns, GError ** error);

GST_TILE_API
gboolean gst_tile_wire_caps_check (const gchar * caps, GError ** error);

GST_TILE_API
void     gst_tile_wire_caps_know_names (void);

GST_TILE_API
gboolean gst_tile_wire_stats_pack (const GstStructure * stats,
                                 GByteArray * out, GError ** error);

GST_TILE_API
gboolean gst_tile_wire_stats_parse (const guint8 * payload, gsize len,
                                  GstStructure ** out, GError ** error);

GST_TILE_API
void     gst_tile_wire_tile_header_write (guint8 out[GST_TILE_WIRE_TILE_HEADER_SIZE],
                                        const GstTileWireTileHeader * header);

GST_TILE_API
GstTileWireParseResult gst_tile_wire_tile_header_parse (const guint8 * data,
                                                    gsize len,
                                                    guint32 remaining,
                                                    GstTileWireTileHeader * out,
                                                    GError ** error);

GST_TILE_API
void     gst_tile_wire_tile_header_write_balanced (guint8 out[GST_TILE_WIRE_TILE_HEADER_SIZE_BALANCED],
                                                   const GstTileWireTileHeader * header);

GST_TILE_API
GstTileWireParseResult gst_tile_wire_tile_header_parse_balanced (const guint8 * data,
                                                                 gsize len,
                                                                 guint32 n_rows,
                                                                 guint64 row_bytes,
                                                                 const GstTileWireTileHeader * first,
                                                                 guint32 remaining,
                                                                 GstTileWireTileHeader * out,
                                                                 GError ** error);

GST_TILE_API
void     gst_tile_wire_packet_header_write (guint8 out[GST_TILE_WIRE_PACKET_HEADER_SIZE],
                                          const GstTileWirePacketHeader * h);

GST_TILE_API
GstTileWireParseResult gst_tile_wire_packet_header_parse (const guint8 * data,
                                                      gsize len,
                                                      GstTileWirePacketHeader * out,
                                                      GError ** error);

GST_TILE_API
gboolean gst_tile_wire_packet_check (const GstTileWirePacketHeader * h,
                                   const GstTileWireConfig * config,
                                   GError ** error);

GST_TILE_API
guint32  gst_tile_wire_packets_per_tile (guint64 tile_size, guint32 packet_size);

GST_TILE_API
guint32  gst_tile_wire_parity_offset (guint span, guint parity, guint index);

GST_TILE_API
void     gst_tile_wire_parity_fields (guint32 offset, guint * span,
                                      guint * parity, guint * index);

GST_TILE_API
guint32  gst_tile_wire_parity_groups (guint32 n_packets, guint span);

GST_TILE_API
guint32  gst_tile_wire_parity_max (guint32 n_packets);

GST_TILE_API
gboolean gst_tile_wire_parity_layout_check (guint32 n_packets, guint span,
                                            guint parity, GError ** error);

GST_TILE_API
void     gst_tile_wire_time_pack (const GstTileWireTime * time,
                                  GByteArray * out);

GST_TILE_API
gboolean gst_tile_wire_time_parse (const guint8 * payload, gsize len,
                                   GstTileWireTime * out, GError ** error);

GST_TILE_API
void     gst_tile_wire_clear_passphrase (gchar ** passphrase);

G_END_DECLS

#endif /* __GST_TILE_WIRE_H__ */
