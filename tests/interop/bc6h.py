#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Checks libgstbc's BC6H decoder against an independent one.

Run by tests/interop/bc6h.sh (which makes the venv). The independent party
is imagecodecs (PyPI), whose bcn_decode() decodes BC6H (unsigned: format 6,
signed: -6) to half floats with bcdec (iOrange/bcdec, a C decoder written
from the same specification). Our decoder runs through bc-encode-bench's
decode mode (-p half: gst_bc_decode_rows_half(); -p RGBA64_LE:
gst_bc_decode_rows_pq(); -p RGBA: the tone curve of gst_bc_decode_rows()).

Checks (each prints one "ok"/"FAIL" line), for BC6H and BC6H-SF:

1. random blocks, the low five bits cycling over all 32 mode values (14
   modes, the 2-bit ones also with every value of their next three bits,
   and the 4 reserved ones), plus blocks of all zeros and all ones in every
   mode, at a size that is not a multiple of 4: our half floats equal
   bcdec's bit for bit, alpha is 1.0 everywhere, and reserved modes give
   (0, 0, 0);
2. the PQ output (RGBA64_LE) equals the SMPTE ST 2084 code of bcdec's half
   floats computed here in double precision (1.0 = 203 cd/m2), exactly;
3. the 8-bit output equals the documented tone curve and sRGB encoding of
   bcdec's half floats computed here in double precision, exactly except
   where the formula lands within 1e-6 of a rounding boundary (counted);
4. our encoder's blocks (bc-bc6h-bench, next to the driver, --signed for
   BC6H-SF) of the synthetic HDR picture at every quality decode with
   bcdec to the same half floats as with ours, and BC6H-SF's values of
   this picture (never negative) are never below -2^-14.

Exit status 0 when every check passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import imagecodecs

FORMATS = {"BC6H": 6, "BC6H-SF": -6}
RESERVED = (19, 23, 27, 31)
REFERENCE_WHITE = 203.0
KNEE = 0.8


def log(msg: str) -> None:
    print(msg, flush=True)


class Results:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, ok: bool, what: str, detail: str = "") -> bool:
        if ok:
            self.passed += 1
            log(f"ok - {what}")
        else:
            self.failed += 1
            log(f"FAIL - {what}" + (f": {detail}" if detail else ""))
        return ok


def make_blocks(rng: np.random.Generator, n_blocks: int) -> np.ndarray:
    """n_blocks random blocks (n_blocks, 16), the low five bits of block i
    set to i % 32; the last 64 blocks are all zeros or all ones but for
    their mode bits."""
    blocks = rng.integers(0, 256, (n_blocks, 16), dtype=np.uint8)
    special = blocks[-64:]
    special[:32] = 0
    special[32:] = 0xff
    modes = (np.arange(n_blocks) % 32).astype(np.uint8)
    blocks[:, 0] = (blocks[:, 0] & 0xe0) | modes
    return blocks


def mode_of(blocks: np.ndarray) -> np.ndarray:
    low = blocks[:, 0] & 0x1f
    return np.where((low & 3) < 2, low & 3, low)


def ours(driver: Path, tmp: Path, fmt: str, data: bytes, w: int, h: int,
         pixel_format: str) -> np.ndarray:
    src, out = tmp / "in.bc6h", tmp / "out.raw"
    src.write_bytes(data)
    res = subprocess.run([str(driver), "decode", "-f", fmt, "-t", "0",
                          "-W", str(w), "-H", str(h), "-p", pixel_format,
                          "-i", str(src), "-o", str(out)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"{driver.name} decode failed: {res.stderr}")
    if pixel_format == "RGBA":
        return np.fromfile(out, dtype=np.uint8).reshape(h, w, 4)
    return np.fromfile(out, dtype="<u2").reshape(h, w, 4)


def half_values(bits: np.ndarray) -> np.ndarray:
    return bits.astype(np.uint16).view(np.float16).astype(np.float64)


def pq_codes(bits: np.ndarray) -> np.ndarray:
    """SMPTE ST 2084 codes of half floats of linear light, 1.0 = 203 cd/m2"""
    m1, m2 = 2610 / 16384, 2523 / 4096 * 128
    c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
    x = half_values(bits)
    y = np.clip(np.nan_to_num(x * REFERENCE_WHITE / 10000.0, nan=0.0,
                              posinf=1.0, neginf=0.0), 0.0, 1.0)
    p = y ** m1
    e = ((c1 + c2 * p) / (1 + c3 * p)) ** m2
    return np.floor(65535.0 * e + 0.5).astype(np.int64)


def tone_curve(x: np.ndarray) -> np.ndarray:
    t = (x - KNEE) / (1.0 - KNEE)
    return np.where(x <= KNEE, x, KNEE + (1.0 - KNEE) * t / (1.0 + t))


def sdr_values(bits: np.ndarray) -> np.ndarray:
    """255 * sRGB (c * f (m) / m), unrounded, of half-float pixels (..., 3)"""
    x = np.nan_to_num(half_values(bits), nan=0.0, neginf=0.0)
    x = np.maximum(x, 0.0)
    m = x.max(axis=-1, keepdims=True)
    safe = np.where(m > 0, m, 1.0)
    c = np.where(m > 0, x * tone_curve(safe) / safe, 0.0)
    v = np.where(c <= 0.0031308, 12.92 * c,
                 1.055 * np.power(c, 1 / 2.4) - 0.055)
    return 255.0 * v


def first_difference(a: np.ndarray, b: np.ndarray) -> str:
    diff = np.any(a != b, axis=-1)
    ys, xs = np.nonzero(diff)
    if len(ys) == 0:
        return ""
    y, x = int(ys[0]), int(xs[0])
    return (f"{len(ys)} pixels differ, first at ({x}, {y}) block "
            f"({x // 4}, {y // 4}): ours {a[y, x].tolist()} "
            f"theirs {b[y, x].tolist()}")


def check_format(res: Results, driver: Path, tmp: Path, fmt: str,
                 rng: np.random.Generator) -> None:
    w, h = 1022, 510  # 256 x 128 blocks, the last column and row cropped
    bw, bh = (w + 3) // 4, (h + 3) // 4
    blocks = make_blocks(rng, bw * bh)
    data = blocks.tobytes()
    modes = mode_of(blocks)

    theirs_full = imagecodecs.bcn_decode(data, FORMATS[fmt],
                                         shape=(bh * 4, bw * 4, 3))
    theirs = theirs_full.view(np.uint16)[:h, :w]

    half = ours(driver, tmp, fmt, data, w, h, "half")
    counts = ", ".join(f"{m}: {int((modes == m).sum())}"
                       for m in sorted(set(modes.tolist())))
    log(f"{fmt}: {bw * bh} blocks by mode value ({counts})")
    res.check(np.array_equal(half[..., :3], theirs),
              f"{fmt}: half floats equal imagecodecs/bcdec "
              f"{imagecodecs.bcn_version()}, bit for bit",
              first_difference(half[..., :3], theirs))
    res.check(bool(np.all(half[..., 3] == 0x3c00)), f"{fmt}: alpha is 1.0")
    reserved = np.isin(modes, RESERVED).reshape(bh, bw)
    px = np.repeat(np.repeat(reserved, 4, 0), 4, 1)[:h, :w]
    res.check(bool(np.all(half[px][:, :3] == 0)) and int(reserved.sum()) > 0,
              f"{fmt}: the {int(reserved.sum())} reserved-mode blocks are "
              "(0, 0, 0)")

    pq = ours(driver, tmp, fmt, data, w, h, "RGBA64_LE")
    want = pq_codes(theirs)
    diff = np.abs(pq[..., :3].astype(np.int64) - want)
    res.check(int(diff.max()) == 0 and bool(np.all(pq[..., 3] == 65535)),
              f"{fmt}: PQ codes equal ST 2084 of bcdec's values "
              f"(max difference {int(diff.max())})",
              first_difference(pq[..., :3].astype(np.int64), want))

    sdr = ours(driver, tmp, fmt, data, w, h, "RGBA")
    v = sdr_values(theirs)
    near_tie = np.abs(v - np.floor(v) - 0.5) < 1e-6
    want8 = np.floor(v + 0.5).astype(np.int64)
    got8 = sdr[..., :3].astype(np.int64)
    bad = (got8 != want8) & ~near_tie
    res.check(not bool(bad.any()) and bool(np.all(sdr[..., 3] == 255)),
              f"{fmt}: 8-bit output equals the tone curve and sRGB of "
              f"bcdec's values ({int(near_tie.sum())} of {near_tie.size} "
              "components at a rounding tie left out, "
              f"max difference {int(np.abs(got8 - want8).max())})",
              first_difference(np.where(bad, got8, 0),
                               np.where(bad, want8, 0)))


def check_encoder(res: Results, driver: Path, tmp: Path, fmt: str) -> None:
    bench = driver.parent / "bc-bc6h-bench"
    w, h = 258, 130
    bw, bh = (w + 3) // 4, (h + 3) // 4
    prefix = tmp / f"enc-{fmt}"
    cmd = [str(bench), "--width", str(w), "--height", str(h), "--frames", "1",
           "--threads", "1", "--write-blocks", str(prefix)]
    if fmt == "BC6H-SF":
        cmd.append("--signed")
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        res.check(False, f"{fmt}: bc-bc6h-bench ran", run.stderr)
        return
    for quality in ("fast", "normal", "high"):
        data = Path(f"{prefix}-{quality}.bc6h").read_bytes()
        theirs = imagecodecs.bcn_decode(data, FORMATS[fmt],
                                        shape=(bh * 4, bw * 4, 3))
        theirs = theirs.view(np.uint16)[:h, :w]
        half = ours(driver, tmp, fmt, data, w, h, "half")[..., :3]
        res.check(np.array_equal(half, theirs),
                  f"{fmt} encoded at {quality}: bcdec decodes it as ours",
                  first_difference(half, theirs))
        if fmt == "BC6H-SF":
            low = float(half_values(theirs).min())
            res.check(low >= -2.0 ** -14,
                      f"{fmt} encoded at {quality}: least value {low:g}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--driver", type=Path, required=True,
                    help="the bc-encode-bench executable")
    ap.add_argument("--workdir", type=Path, default=None,
                    help="directory for temporary files")
    args = ap.parse_args()

    res = Results()
    rng = np.random.default_rng(20261129)
    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp:
        for fmt in FORMATS:
            check_format(res, args.driver.resolve(), Path(tmp), fmt, rng)
            check_encoder(res, args.driver.resolve(), Path(tmp), fmt)
    log(f"{res.passed} passed, {res.failed} failed")
    return 0 if res.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
