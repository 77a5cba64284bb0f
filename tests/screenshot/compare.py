#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Compares an X screenshot (xwd's format) with a reference frame.

    compare.py SHOT.xwd REF.rgb WIDTH HEIGHT MIN_PSNR [--save-png FILE]

REF.rgb is WIDTH x HEIGHT packed RGB (3 bytes a pixel), here bcdec's decoding
of the frame the sender streams. The screen's background is black (Xvfb -br):
the video area is the bounding box of the pixels brighter than a small
threshold, which must be exactly WIDTH x HEIGHT (the window shows the video
1:1). The RGB PSNR of that area against REF must be at least MIN_PSNR dB.
For comparison it also prints the PSNR against REF upside down and against
REF shifted by one pixel, which a correct picture must beat by far.

Standard library only (no numpy, no PIL): it runs on a fresh Debian 12.
Exits 0 when the picture matches, 1 when it does not, 2 on a bad file.
"""

import math
import struct
import sys
import zlib

# a screen pixel belongs to the video when any channel is above this
BACKGROUND_MAX = 8


def read_xwd(path):
    """(width, height, rows) with rows a list of bytes objects, packed RGB."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 100:
        raise ValueError("%s: too short for an XWD file" % path)
    for endian in (">", "<"):
        fields = struct.unpack(endian + "25I", data[:100])
        if fields[1] == 7:  # XWD_FILE_VERSION
            break
    else:
        raise ValueError("%s: not an XWD version 7 file" % path)
    (header_size, _version, pixmap_format, _depth, width, height, _xoffset,
     byte_order, _unit, _bit_order, _pad, bits_per_pixel, bytes_per_line,
     _visual_class, red_mask, green_mask, blue_mask, _bits_per_rgb,
     _cmap_entries, ncolors) = fields[:20]
    if pixmap_format != 2 or bits_per_pixel not in (24, 32):
        raise ValueError("%s: only ZPixmap TrueColor 24/32-bit screenshots "
                         "are read (format %d, %d bits per pixel)"
                         % (path, pixmap_format, bits_per_pixel))
    offset = header_size + ncolors * 12
    if len(data) < offset + height * bytes_per_line:
        raise ValueError("%s: truncated image data" % path)

    def shift(mask):
        s = 0
        while mask and not mask & 1:
            mask >>= 1
            s += 1
        return s

    rs, gs, bs = shift(red_mask), shift(green_mask), shift(blue_mask)
    bpp = bits_per_pixel // 8
    order = "little" if byte_order == 0 else "big"
    rows = []
    for y in range(height):
        line = data[offset + y * bytes_per_line:
                    offset + y * bytes_per_line + width * bpp]
        out = bytearray(width * 3)
        for x in range(width):
            p = int.from_bytes(line[x * bpp:x * bpp + bpp], order)
            out[3 * x] = (p & red_mask) >> rs
            out[3 * x + 1] = (p & green_mask) >> gs
            out[3 * x + 2] = (p & blue_mask) >> bs
        rows.append(bytes(out))
    return width, height, rows


def bounding_box(width, height, rows):
    """(x0, y0, x1, y1) of the pixels above the background, x1/y1 excluded."""
    x0, y0, x1, y1 = width, height, -1, -1
    for y in range(height):
        row = rows[y]
        bright = [x for x in range(width)
                  if max(row[3 * x:3 * x + 3]) > BACKGROUND_MAX]
        if bright:
            y0 = min(y0, y)
            y1 = y
            x0 = min(x0, bright[0])
            x1 = max(x1, bright[-1])
    if x1 < 0:
        return None
    return x0, y0, x1 + 1, y1 + 1


def psnr(a, b):
    """RGB PSNR of two equally long byte strings."""
    se = 0
    for p, q in zip(a, b):
        d = p - q
        se += d * d
    if se == 0:
        return float("inf")
    return 10.0 * math.log10(255.0 * 255.0 * len(a) / se)


def write_png(path, width, height, rgb):
    def chunk(kind, payload):
        c = kind + payload
        return (struct.pack(">I", len(payload)) + c
                + struct.pack(">I", zlib.crc32(c) & 0xffffffff))

    raw = b"".join(b"\0" + rgb[y * width * 3:(y + 1) * width * 3]
                   for y in range(height))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                           0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def main(argv):
    args = argv[1:]
    save = None
    if "--save-png" in args:
        i = args.index("--save-png")
        save = args[i + 1]
        del args[i:i + 2]
    if len(args) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    shot, ref_path = args[0], args[1]
    width, height, min_psnr = int(args[2]), int(args[3]), float(args[4])

    try:
        sw, sh, rows = read_xwd(shot)
    except (OSError, ValueError) as e:
        print("compare: %s" % e, file=sys.stderr)
        return 2
    with open(ref_path, "rb") as f:
        ref = f.read()
    if len(ref) != width * height * 3:
        print("compare: %s has %d bytes, not %dx%d RGB"
              % (ref_path, len(ref), width, height), file=sys.stderr)
        return 2

    box = bounding_box(sw, sh, rows)
    print("compare: screen %dx%d, video area %s" % (sw, sh, box))
    if box is None:
        print("compare: FAIL: the screen is black, no video was drawn")
        return 1
    x0, y0, x1, y1 = box
    if (x1 - x0, y1 - y0) != (width, height):
        print("compare: FAIL: the video area is %dx%d, expected %dx%d (1:1)"
              % (x1 - x0, y1 - y0, width, height))
        return 1
    crop = b"".join(rows[y][3 * x0:3 * x1] for y in range(y0, y1))
    if save:
        write_png(save, width, height, crop)
        print("compare: wrote %s" % save)

    stride = width * 3
    flipped = b"".join(ref[y * stride:(y + 1) * stride]
                       for y in range(height - 1, -1, -1))
    shifted = b"".join(ref[y * stride + 3:(y + 1) * stride] + ref[
        (y + 1) * stride - 3:(y + 1) * stride] for y in range(height))
    value = psnr(crop, ref)
    print("compare: PSNR against bcdec's decoding: %.2f dB (bound %.1f dB); "
          "against it upside down: %.2f dB, shifted by one pixel: %.2f dB"
          % (value, min_psnr, psnr(crop, flipped), psnr(crop, shifted)))
    if value < min_psnr:
        print("compare: FAIL: the picture on screen differs from bcdec's "
              "decoding of the same frame")
        return 1
    print("compare: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
