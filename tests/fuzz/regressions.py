#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes the regression inputs of tilewire-fuzz into corpus/tilewire/.

Each is an input the parsers once mishandled, or one a check in tilewire.c
exists for, so that the gate run replays it first and fails at once when
that check is lost. An input is one byte that picks the parser (its value
modulo 11, as in tilewire-fuzz.c), then the message payload.

    tests/fuzz/regressions.py        rewrite the files (they are committed)
"""
import struct
from pathlib import Path

CONFIG = 2  # the parser byte of gst_tile_wire_config_parse
STATS = 7  # the parser byte of gst_tile_wire_stats_parse
ACK = 10  # ... of gst_tile_wire_ack_parse
# ... of gst_tile_wire_tile_header_parse (9 modulo 11): a tile with
# 1036800 bytes left when bit 7 is set, else 1 + (byte >> 4)
TILE_WHOLE = 130
TILE_THREE_LEFT = 42


def tile(parser: int, size: int, flags: int) -> bytes:
    return bytes([parser]) + b"GSBT" + struct.pack(
        ">IQQII", 1, 9, 123456789, size, flags)


def stats(text: str) -> bytes:
    raw = text.encode()
    return bytes([STATS]) + struct.pack(">H", len(raw)) + raw


def config(mcast_family: int, addr: bytes, port: int) -> bytes:
    """A valid CONFIG (wire version 5) of one udp tile of 4 rows of 16
    bytes, unicast (family 0) or to a multicast group."""
    caps = b"video/x-raw"
    return bytes([CONFIG]) + struct.pack(
        ">QIBHIIQIQH", 1, 7, 1, 1, 65536, 16, 64, 4, 16, 1) + struct.pack(
        ">QQ", 0, 64) + struct.pack(
        ">B16sH", mcast_family, addr.ljust(16, b"\0"), port) + struct.pack(
        ">H", len(caps)) + caps


# name -> (input, what goes wrong without the check)
CASES = {
    # GStreamer 1.22 leaks the partial list when an element does not parse
    "regress-stats-list-leak": stats("stats, frames-received=(int){ 1, x }"),
    "regress-stats-array-leak": stats("stats, frames-received=(int)< 1, x >"),
    "regress-stats-range-leak": stats("stats, frames-received=(int)[ 1, x ]"),
    # g_critical for a structure name that does not start with a letter
    "regress-stats-name-critical": stats("3tats, frames-received=(int)1"),
    "regress-stats-nested-critical":
        stats('stats, frames-received=(structure)"3x;"'),
    "regress-stats-caps-critical":
        stats('stats, frames-received=(GstCaps)"3x"'),
    # g_warning for an untyped '=""'
    "regress-stats-untyped-warning": stats('stats, frames-received=""'),
    # a new quark per unknown name: memory without bound
    "regress-stats-new-field-quark":
        stats("stats, frames-received=(int)1, tilewire-fuzz-new-name=(int)2"),
    "regress-stats-new-name-quark": stats("tilewire-fuzz-new-name, a=(int)1"),
    # valid, for the mutations to start from: an ACK with feedback
    "valid-ack": bytes([ACK]) + struct.pack(
        ">IIIQIIQq", 7, 4, 3, 1234, 700, 690, 27600000, -5000000000),
    # valid tile headers (wire version 3): a part with more to come, the
    # last part, an abandoned tile
    "valid-tile-part": tile(TILE_WHOLE, 65536, 1),
    "valid-tile-last": tile(TILE_THREE_LEFT, 3, 0),
    "valid-tile-abandon": tile(TILE_THREE_LEFT, 0, 2),
    # valid CONFIGs (wire version 5): unicast, IPv4 and IPv6 multicast
    "valid-config-unicast": config(0, b"", 0),
    "valid-config-mcast4": config(4, bytes([239, 255, 0, 1]), 7001),
    "valid-config-mcast6": config(6, bytes([0xff, 0x15]) + bytes(13) + b"\1",
                                  7001),
    # valid, for the mutations to start from
    "valid-stats": stats('stats, frames-received=(guint64)7, '
                         'frames-received=(string)"a, b", '
                         'frames-received=(fraction)30/1, '
                         'frames-received=(boolean)true'),
}


def main() -> None:
    out = Path(__file__).resolve().parent / "corpus" / "tilewire"
    out.mkdir(parents=True, exist_ok=True)
    for name, data in CASES.items():
        (out / name).write_bytes(data)


if __name__ == "__main__":
    main()
