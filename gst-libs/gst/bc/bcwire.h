/* gst-bc
 * Copyright (C) 2026 gst-bc developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_BC_WIRE_H__
#define __GST_BC_WIRE_H__

#include <gst/bc/bc-prelude.h>
#include <gst/bc/bctiling.h>

G_BEGIN_DECLS

/**
 * GST_BC_WIRE_MAGIC:
 *
 * First four bytes of every control message: "GSBC".
 */
#define GST_BC_WIRE_MAGIC 0x47534243u

/**
 * GST_BC_WIRE_TILE_MAGIC:
 *
 * First four bytes of every tile header: "GSBT".
 */
#define GST_BC_WIRE_TILE_MAGIC 0x47534254u

/**
 * GST_BC_WIRE_VERSION:
 *
 * The protocol version this library speaks. Peers with another version are
 * refused.
 */
#define GST_BC_WIRE_VERSION 1

/**
 * GST_BC_WIRE_HEADER_SIZE:
 *
 * Bytes in a control message header.
 */
#define GST_BC_WIRE_HEADER_SIZE 12

/**
 * GST_BC_WIRE_TILE_HEADER_SIZE:
 *
 * Bytes in a tile header.
 */
#define GST_BC_WIRE_TILE_HEADER_SIZE 32

/**
 * GST_BC_WIRE_MAX_PAYLOAD:
 *
 * Largest control message payload accepted.
 */
#define GST_BC_WIRE_MAX_PAYLOAD 65536

/**
 * GST_BC_WIRE_MAX_UNITS:
 *
 * Largest number of units (data connections) in a session.
 */
#define GST_BC_WIRE_MAX_UNITS 64

/**
 * GST_BC_WIRE_MAX_FRAME_SIZE:
 *
 * Largest frame size a CONFIG may announce: 1 GiB.
 */
#define GST_BC_WIRE_MAX_FRAME_SIZE (G_GUINT64_CONSTANT (1) << 30)

/**
 * GST_BC_WIRE_MAX_CAPS:
 *
 * Largest caps string in a CONFIG, in bytes.
 */
#define GST_BC_WIRE_MAX_CAPS 8192

/**
 * GST_BC_WIRE_MAX_REASON:
 *
 * Largest reason string in a REFUSE, in bytes.
 */
#define GST_BC_WIRE_MAX_REASON 1024

/**
 * GST_BC_WIRE_MAX_STATS:
 *
 * Largest serialized structure in a STATS message, in bytes.
 */
#define GST_BC_WIRE_MAX_STATS 16384

/**
 * GST_BC_WIRE_MAX_UDP_PACKET:
 *
 * Largest UDP datagram (header and payload) the protocol sends: the
 * largest UDP payload over IPv4.
 */
#define GST_BC_WIRE_MAX_UDP_PACKET 65507

/**
 * GST_BC_WIRE_PACKET_MAGIC:
 *
 * First four bytes of every UDP datagram: "GSBU".
 */
#define GST_BC_WIRE_PACKET_MAGIC 0x47534255u

/**
 * GST_BC_WIRE_PACKET_HEADER_SIZE:
 *
 * Bytes in the header of a UDP datagram.
 */
#define GST_BC_WIRE_PACKET_HEADER_SIZE 32

/**
 * GST_BC_WIRE_MAX_PACKET_PAYLOAD:
 *
 * Largest packet_size (payload bytes per UDP datagram) a CONFIG may
 * announce: %GST_BC_WIRE_MAX_UDP_PACKET minus
 * %GST_BC_WIRE_PACKET_HEADER_SIZE, 65475.
 */
#define GST_BC_WIRE_MAX_PACKET_PAYLOAD \
    (GST_BC_WIRE_MAX_UDP_PACKET - GST_BC_WIRE_PACKET_HEADER_SIZE)

/**
 * GST_BC_WIRE_ERROR:
 *
 * Error domain of the wire protocol parsers. Codes are #GstBcWireError.
 */
#define GST_BC_WIRE_ERROR (gst_bc_wire_error_quark ())

GST_BC_API
GQuark gst_bc_wire_error_quark (void);

/**
 * GstBcWireError:
 * @GST_BC_WIRE_ERROR_BAD_MAGIC: the magic number is wrong
 * @GST_BC_WIRE_ERROR_UNSUPPORTED_VERSION: the peer speaks another version
 * @GST_BC_WIRE_ERROR_TRUNCATED: the data ends before a field
 * @GST_BC_WIRE_ERROR_OVERSIZED: a length is larger than its limit
 * @GST_BC_WIRE_ERROR_INVALID: a field has a value that is not allowed, or
 *     the payload has bytes after its last field
 *
 * Why a message was rejected. The #GError message names the field and its
 * value.
 */
typedef enum
{
  GST_BC_WIRE_ERROR_BAD_MAGIC,
  GST_BC_WIRE_ERROR_UNSUPPORTED_VERSION,
  GST_BC_WIRE_ERROR_TRUNCATED,
  GST_BC_WIRE_ERROR_OVERSIZED,
  GST_BC_WIRE_ERROR_INVALID,
} GstBcWireError;

/**
 * GstBcWireParseResult:
 * @GST_BC_WIRE_PARSE_OK: a complete header was parsed
 * @GST_BC_WIRE_PARSE_NEED_MORE: fewer bytes than a header; read more
 * @GST_BC_WIRE_PARSE_ERROR: the header is invalid; the error says why
 *
 * Result of the fixed-size header parsers.
 */
typedef enum
{
  GST_BC_WIRE_PARSE_OK,
  GST_BC_WIRE_PARSE_NEED_MORE,
  GST_BC_WIRE_PARSE_ERROR,
} GstBcWireParseResult;

/**
 * GstBcWireType:
 * @GST_BC_WIRE_TYPE_HELLO: client to server, first control message
 * @GST_BC_WIRE_TYPE_CONFIG: server to client, the session layout and caps
 * @GST_BC_WIRE_TYPE_UNIT_HELLO: client to server, first message on a data
 *     connection
 * @GST_BC_WIRE_TYPE_REFUSE: either way, the connection is refused
 * @GST_BC_WIRE_TYPE_EOS: server to client, end of stream
 * @GST_BC_WIRE_TYPE_KEEPALIVE: either way, a sign of life
 * @GST_BC_WIRE_TYPE_STATS: client to server, receiver statistics
 * @GST_BC_WIRE_TYPE_ACK: client to server over UDP, the newest frame the
 *   receiver is done with and how many frames it can hold (flow control)
 *
 * Control message types.
 */
typedef enum
{
  GST_BC_WIRE_TYPE_HELLO = 1,
  GST_BC_WIRE_TYPE_CONFIG = 2,
  GST_BC_WIRE_TYPE_UNIT_HELLO = 3,
  GST_BC_WIRE_TYPE_REFUSE = 4,
  GST_BC_WIRE_TYPE_EOS = 5,
  GST_BC_WIRE_TYPE_KEEPALIVE = 6,
  GST_BC_WIRE_TYPE_STATS = 7,
  GST_BC_WIRE_TYPE_ACK = 8,
} GstBcWireType;

/**
 * GstBcWireProtocol:
 * @GST_BC_WIRE_PROTOCOL_TCP: tiles travel over one TCP connection per unit
 * @GST_BC_WIRE_PROTOCOL_UDP: tiles travel as UDP packets
 *
 * The data transport announced in a CONFIG.
 */
typedef enum
{
  GST_BC_WIRE_PROTOCOL_TCP = 0,
  GST_BC_WIRE_PROTOCOL_UDP = 1,
} GstBcWireProtocol;

/**
 * GstBcWireRefuseCode:
 * @GST_BC_WIRE_REFUSE_BAD_MESSAGE: a message did not parse
 * @GST_BC_WIRE_REFUSE_BAD_VERSION: the peer speaks another version
 * @GST_BC_WIRE_REFUSE_UNKNOWN_TOKEN: the session token (or generation) of a
 *     UNIT_HELLO is not the current one
 * @GST_BC_WIRE_REFUSE_UNKNOWN_UNIT: the unit index of a UNIT_HELLO does not
 *     exist or is taken
 * @GST_BC_WIRE_REFUSE_BUSY: the server already serves a client
 * @GST_BC_WIRE_REFUSE_OTHER: anything else; see the reason
 *
 * Why a peer refuses a connection.
 */
typedef enum
{
  GST_BC_WIRE_REFUSE_BAD_MESSAGE = 0,
  GST_BC_WIRE_REFUSE_BAD_VERSION = 1,
  GST_BC_WIRE_REFUSE_UNKNOWN_TOKEN = 2,
  GST_BC_WIRE_REFUSE_UNKNOWN_UNIT = 3,
  GST_BC_WIRE_REFUSE_BUSY = 4,
  GST_BC_WIRE_REFUSE_OTHER = 5,
} GstBcWireRefuseCode;

/**
 * GstBcWireHeader:
 * @magic: %GST_BC_WIRE_MAGIC
 * @version: %GST_BC_WIRE_VERSION
 * @type: the message type
 * @payload_len: bytes of payload after the header, at most
 *     %GST_BC_WIRE_MAX_PAYLOAD
 *
 * The 12-byte header in front of every control message.
 */
typedef struct
{
  guint32 magic;
  guint16 version;
  GstBcWireType type;
  guint32 payload_len;
} GstBcWireHeader;

/**
 * GstBcWireHello:
 * @flags: must be 0
 *
 * Payload of a HELLO.
 */
typedef struct
{
  guint32 flags;
} GstBcWireHello;

/**
 * GstBcWireTile:
 * @offset: byte offset of the tile in the frame
 * @size: byte size of the tile
 *
 * One tile of a CONFIG.
 */
typedef struct
{
  guint64 offset;
  guint64 size;
} GstBcWireTile;

/**
 * GstBcWireConfig:
 * @token: session token the client repeats in every UNIT_HELLO
 * @generation: bumped by the server on every caps change
 * @protocol: data transport
 * @n_units: units requested by the server, 1 to %GST_BC_WIRE_MAX_UNITS
 * @chunk_size: bytes per send call, at least 1
 * @packet_size: for UDP, payload bytes per datagram (the datagram adds a
 *     %GST_BC_WIRE_PACKET_HEADER_SIZE header), 1 to
 *     %GST_BC_WIRE_MAX_PACKET_PAYLOAD; 0 for TCP
 * @frame_size: bytes per frame, 1 to %GST_BC_WIRE_MAX_FRAME_SIZE
 * @n_rows: rows in a frame
 * @row_bytes: bytes per row; @n_rows * @row_bytes == @frame_size
 * @n_tiles: tiles (and data connections), 1 to @n_units
 * @tiles: the tiles, contiguous from offset 0, each a whole number of rows
 * @caps: the caps of the stream, NUL-terminated, at most
 *     %GST_BC_WIRE_MAX_CAPS bytes
 *
 * Payload of a CONFIG: everything a client needs to receive frames.
 */
typedef struct
{
  guint64 token;
  guint32 generation;
  GstBcWireProtocol protocol;
  guint16 n_units;
  guint32 chunk_size;
  guint32 packet_size;
  guint64 frame_size;
  guint32 n_rows;
  guint64 row_bytes;
  guint16 n_tiles;
  GstBcWireTile tiles[GST_BC_WIRE_MAX_UNITS];
  gchar caps[GST_BC_WIRE_MAX_CAPS + 1];
} GstBcWireConfig;

/**
 * GstBcWireUnitHello:
 * @token: the session token of the CONFIG
 * @generation: the generation of the CONFIG
 * @unit: the tile this connection carries, below %GST_BC_WIRE_MAX_UNITS
 *
 * Payload of a UNIT_HELLO.
 */
typedef struct
{
  guint64 token;
  guint32 generation;
  guint16 unit;
} GstBcWireUnitHello;

/**
 * GstBcWireRefuse:
 * @code: why
 * @reason: UTF-8 text for humans, NUL-terminated, at most
 *     %GST_BC_WIRE_MAX_REASON bytes
 *
 * Payload of a REFUSE.
 */
typedef struct
{
  GstBcWireRefuseCode code;
  gchar reason[GST_BC_WIRE_MAX_REASON + 1];
} GstBcWireRefuse;

/**
 * GstBcWireTileHeader:
 * @generation: the CONFIG generation the tile belongs to
 * @frame: frame number, counted by the sender
 * @timestamp: sender time in nanoseconds, or %GST_CLOCK_TIME_NONE
 * @size: bytes of tile data after the header
 * @flags: must be 0
 *
 * The 32-byte header in front of every tile on a data connection.
 */
typedef struct
{
  guint32 generation;
  guint64 frame;
  GstClockTime timestamp;
  guint32 size;
  guint32 flags;
} GstBcWireTileHeader;

/**
 * GstBcWirePacketHeader:
 * @unit: the tile the payload belongs to, below %GST_BC_WIRE_MAX_UNITS
 * @generation: the CONFIG generation the datagram belongs to
 * @offset: byte offset of the payload within the tile, a multiple of the
 *     CONFIG packet_size
 * @frame: frame number, counted by the sender from 0
 * @timestamp: sender CLOCK_REALTIME in nanoseconds when it got the frame,
 *     or %GST_CLOCK_TIME_NONE
 *
 * The 32-byte header in front of every UDP datagram. The datagram carries
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
} GstBcWirePacketHeader;

GST_BC_API
const gchar * gst_bc_wire_type_get_name (GstBcWireType type);

GST_BC_API
void          gst_bc_wire_header_write (guint8 out[GST_BC_WIRE_HEADER_SIZE],
                                        GstBcWireType type,
                                        guint32 payload_len);

GST_BC_API
GstBcWireParseResult gst_bc_wire_header_parse (const guint8 * data,
                                               gsize len,
                                               GstBcWireHeader * out,
                                               GError ** error);

GST_BC_API
gboolean gst_bc_wire_hello_pack (const GstBcWireHello * hello,
                                 GByteArray * out, GError ** error);

GST_BC_API
gboolean gst_bc_wire_hello_parse (const guint8 * payload, gsize len,
                                  GstBcWireHello * out, GError ** error);

GST_BC_API
gboolean gst_bc_wire_config_set_caps (GstBcWireConfig * config,
                                      const gchar * caps, GError ** error);

GST_BC_API
gboolean gst_bc_wire_config_set_tiling (GstBcWireConfig * config,
                                        const GstBcTiling * tiling,
                                        GError ** error);

GST_BC_API
gboolean gst_bc_wire_config_check_tiling (const GstBcWireConfig * config,
                                          GstBcTiling * tiling,
                                          GError ** error);

GST_BC_API
gboolean gst_bc_wire_config_validate (const GstBcWireConfig * config,
                                      GError ** error);

GST_BC_API
gboolean gst_bc_wire_config_pack (const GstBcWireConfig * config,
                                  GByteArray * out, GError ** error);

GST_BC_API
gboolean gst_bc_wire_config_parse (const guint8 * payload, gsize len,
                                   GstBcWireConfig * out, GError ** error);

GST_BC_API
gboolean gst_bc_wire_unit_hello_pack (const GstBcWireUnitHello * hello,
                                      GByteArray * out, GError ** error);

GST_BC_API
gboolean gst_bc_wire_unit_hello_parse (const guint8 * payload, gsize len,
                                       GstBcWireUnitHello * out,
                                       GError ** error);

GST_BC_API
gboolean gst_bc_wire_refuse_pack (GstBcWireRefuseCode code,
                                  const gchar * reason, GByteArray * out,
                                  GError ** error);

GST_BC_API
gboolean gst_bc_wire_refuse_parse (const guint8 * payload, gsize len,
                                   GstBcWireRefuse * out, GError ** error);

GST_BC_API
void     gst_bc_wire_eos_pack (GByteArray * out);

GST_BC_API
gboolean gst_bc_wire_eos_parse (const guint8 * payload, gsize len,
                                GError ** error);

GST_BC_API
void     gst_bc_wire_keepalive_pack (guint64 time_ns, GByteArray * out);

/**
 * GstBcWireAck:
 * @generation: the generation acknowledged
 * @window: how many frames past the newest one done (or, with no frame yet,
 *   from the first one of @generation) the receiver can hold, at least 1
 * @has_frame: %FALSE before the receiver is done with any frame of
 *   @generation: the acknowledgement only gives the window
 * @frame: the newest frame the receiver is done with (pushed, or given up)
 *
 * An ACK message (protocol UDP, client to server).
 */
typedef struct
{
  guint32 generation;
  guint32 window;
  gboolean has_frame;
  guint64 frame;
} GstBcWireAck;

GST_BC_API
void     gst_bc_wire_ack_pack (const GstBcWireAck * ack, GByteArray * out);

GST_BC_API
gboolean gst_bc_wire_ack_parse (const guint8 * payload, gsize len,
    GstBcWireAck * out, GError ** error);

GST_BC_API
gboolean gst_bc_wire_keepalive_parse (const guint8 * payload, gsize len,
                                      guint64 * time_ns, GError ** error);

GST_BC_API
gboolean gst_bc_wire_stats_pack (const GstStructure * stats,
                                 GByteArray * out, GError ** error);

GST_BC_API
gboolean gst_bc_wire_stats_parse (const guint8 * payload, gsize len,
                                  GstStructure ** out, GError ** error);

GST_BC_API
void     gst_bc_wire_tile_header_write (guint8 out[GST_BC_WIRE_TILE_HEADER_SIZE],
                                        const GstBcWireTileHeader * header);

GST_BC_API
GstBcWireParseResult gst_bc_wire_tile_header_parse (const guint8 * data,
                                                    gsize len,
                                                    guint32 expected_size,
                                                    GstBcWireTileHeader * out,
                                                    GError ** error);

GST_BC_API
void     gst_bc_wire_packet_header_write (guint8 out[GST_BC_WIRE_PACKET_HEADER_SIZE],
                                          const GstBcWirePacketHeader * h);

GST_BC_API
GstBcWireParseResult gst_bc_wire_packet_header_parse (const guint8 * data,
                                                      gsize len,
                                                      GstBcWirePacketHeader * out,
                                                      GError ** error);

GST_BC_API
gboolean gst_bc_wire_packet_check (const GstBcWirePacketHeader * h,
                                   const GstBcWireConfig * config,
                                   GError ** error);

GST_BC_API
guint32  gst_bc_wire_packets_per_tile (guint64 tile_size, guint32 packet_size);

G_END_DECLS

#endif /* __GST_BC_WIRE_H__ */
