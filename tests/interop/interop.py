#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Checks libgstbc's block encoder and decoder against code we did not write.

Run by tests/interop/run.sh (which makes the venv and fetches the
photographs). Independent parties:

- texture2ddecoder (PyPI): a C++ decoder of BC1..BC7. It returns BGRA.
- etcpak (PyPI, a wrapper of wolfpld/etcpak): BC1/BC3/BC4/BC5/BC7 encoders.
  Its compress_* functions take RGBA bytes, width and height, both
  multiples of 4 (so odd-sized pictures are padded by edge replication
  first, as our encoder pads), and run on the calling thread.

Checks (each prints one "ok"/"FAIL" line):

1. our BC1, YCoCg-BC3, BC3, BC4, BC5 and BC7 output, at every quality
   level, on real photographs (1080p frames and odd-sized crops) decodes
   bit-exactly the same with texture2ddecoder and with our decoder; for
   YCoCg-BC3, texture2ddecoder's raw BC3 decode goes through ycocg_to_rgb()
   below; BC4 (the luma of the photograph) is compared on red, as
   texture2ddecoder writes red only; BC7 blocks use only the modes their
   quality allows;
2. the portable-C and SSE2 builds of the encoder write the same blocks as
   the best one the machine has (the header promises it);
3. etcpak's BC4, BC5 and BC7 output on the photographs (and BC7 on a
   picture with alpha) decodes bit-exactly the same with both decoders:
   this is the independent check of our BC4/BC5/BC7 decoders;
4. random bytes decode the same with both decoders, in every format. Known,
   documented differences are masked (see "Random-block rules" below);
5. the quality floor: mean RGB PSNR over the 1080p photographs, measured
   with texture2ddecoder, is above a lower bound per format and quality.
   The floors sit 0.5 dB under what the encoder measured when they were
   set (see PSNR_FLOOR); they are not the project's targets (those are
   reported by benchmarks/encode/).

Exit status 0 when every check passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import etcpak
import texture2ddecoder as t2d

FORMATS = ["BC1", "YCoCg-BC3", "BC3", "BC4", "BC5", "BC7"]
# the BC7 modes each quality may write (mode 5: solid blocks only)
BC7_MODES = {"fast": {5, 6}, "normal": {1, 3, 5, 6},
             "high": {0, 1, 2, 3, 5, 6}}
QUALITIES = ["fast", "normal", "high"]
BLOCK_BYTES = {"BC1": 8, "BC3": 16, "YCoCg-BC3": 16, "BC4": 8, "BC5": 16,
               "BC7": 16}

# Lower bounds of the mean RGB PSNR (dB) over the eight 1080p photographs:
# 0.5 dB under the lowest of the means measured on 2026-11-22 while the
# encoder was being tuned (BC1 fast 37.42-38.39, normal 38.65-39.12, high
# 38.65-39.32; YCoCg-BC3 fast 44.21-44.57, normal 44.98-45.27, high
# 45.08-45.43; BC3 = BC1, as its colour half is BC1's). Every run prints the
# measured means. A regression of the encoder fails the test; raise the
# floors when the encoder improves. The project's quality targets are
# reported, not asserted, by benchmarks/encode/.
PSNR_FLOOR = {
    ("BC1", "fast"): 36.9,
    ("BC1", "normal"): 38.1,
    ("BC1", "high"): 38.1,
    ("YCoCg-BC3", "fast"): 43.7,
    ("YCoCg-BC3", "normal"): 44.4,
    ("YCoCg-BC3", "high"): 44.5,
    ("BC3", "fast"): 36.9,
    ("BC3", "normal"): 38.1,
    ("BC3", "high"): 38.1,
    # BC4: the luma of the photographs; BC5: red and green; BC7: RGB.
    # Measured on 2026-11-22 (means over the eight photographs): BC4 fast
    # 47.06, normal 47.77, high 48.43; BC5 fast 46.88, normal 47.59, high
    # 48.25; BC7 fast 45.78, normal 47.90, high 48.34 (floors 0.5 dB under)
    ("BC4", "fast"): 46.5,
    ("BC4", "normal"): 47.2,
    ("BC4", "high"): 47.9,
    ("BC5", "fast"): 46.3,
    ("BC5", "normal"): 47.0,
    ("BC5", "high"): 47.7,
    ("BC7", "fast"): 45.2,
    ("BC7", "normal"): 47.4,
    ("BC7", "high"): 47.8,
}

# Random-block rules: how blocks may legitimately decode differently
# (check 4):
# - BC3 colour half with c0 <= c1: we follow Direct3D (always 4-colour
#   mode); texture2ddecoder uses BC1's 3-colour mode there. Such blocks are
#   left out of the colour comparison (alpha is still compared). Our
#   encoder never writes them ambiguously: check 1 would fail.
# - BC4: texture2ddecoder writes the value to red only (green = blue = 0);
#   we replicate it to green and blue. Only red is compared, and our green
#   and blue are checked to equal our red.
# - BC1, BC5 and BC7 (all modes, and the reserved mode whose first byte is
#   0: transparent black in both) are compared whole.


def log(msg: str) -> None:
    print(msg, flush=True)


# --------------------------------------------------------------------------
# pictures and decoders


@dataclass
class Frame:
    name: str
    kind: str  # 1080p, 2160p or crop
    width: int
    height: int
    path: Path

    def rgba(self) -> np.ndarray:
        data = np.fromfile(self.path, dtype=np.uint8)
        return data.reshape(self.height, self.width, 4)


def load_frames(manifest: Path) -> list[Frame]:
    m = json.loads(manifest.read_text())
    return [Frame(f["name"], f["kind"], f["width"], f["height"],
                  manifest.parent / f["file"]) for f in m["frames"]]


def frame_bytes(fmt: str, w: int, h: int) -> int:
    return ((w + 3) // 4) * ((h + 3) // 4) * BLOCK_BYTES[fmt]


def ycocg_to_rgb(rgba: np.ndarray) -> np.ndarray:
    """RGB of a YCoCg-BC3 picture from its raw BC3 decode (R, G, B, A).

    Co = R - 128, Cg = G - 128, scale = (B >> 3) + 1, Y = A, and with
    d = Co - Cg, Cg, -Co - Cg for red, green, blue the value is
    Y + d / scale rounded half up:
    floor((2 * scale * Y + scale + 2 * d) / (2 * scale)), clamped to 0..255.
    For the scales 1, 2, 4 an encoder writes this equals
    floor((4 * Y + d * (4 / scale) + 2) / 4). Same rule as bcdecode.c.
    """
    p = rgba.astype(np.int32)
    co = p[..., 0] - 128
    cg = p[..., 1] - 128
    scale = (p[..., 2] >> 3) + 1
    base = 2 * scale * p[..., 3] + scale
    den = 2 * scale
    out = np.empty(rgba.shape[:-1] + (3,), dtype=np.int32)
    out[..., 0] = np.floor_divide(base + 2 * (co - cg), den)
    out[..., 1] = np.floor_divide(base + 2 * cg, den)
    out[..., 2] = np.floor_divide(base - 2 * (co + cg), den)
    return np.clip(out, 0, 255).astype(np.uint8)


def t2d_decode(fmt: str, blocks: bytes, w: int, h: int) -> np.ndarray:
    """texture2ddecoder's decode as an RGBA array (H, W, 4).

    YCoCg-BC3 comes back already converted to RGB (alpha 255)."""
    fn = {"BC1": t2d.decode_bc1, "BC3": t2d.decode_bc3,
          "YCoCg-BC3": t2d.decode_bc3, "BC4": t2d.decode_bc4,
          "BC5": t2d.decode_bc5, "BC7": t2d.decode_bc7}[fmt]
    bgra = np.frombuffer(fn(blocks, w, h), dtype=np.uint8).reshape(h, w, 4)
    rgba = bgra[..., [2, 1, 0, 3]].copy()
    if fmt == "YCoCg-BC3":
        rgba[..., :3] = ycocg_to_rgb(rgba)
        rgba[..., 3] = 255
    return rgba


def luma(rgba: np.ndarray) -> np.ndarray:
    """The luma our BC4 encoder codes from RGB: (77 R + 150 G + 29 B + 128)
    >> 8."""
    p = rgba.astype(np.int32)
    return ((77 * p[..., 0] + 150 * p[..., 1] + 29 * p[..., 2] + 128)
            >> 8).astype(np.uint8)


def psnr_channels(fmt: str, decoded: np.ndarray, src: np.ndarray,
                  bc4_channel: int | None = None) -> float:
    """PSNR of what the format codes of the RGBA picture src: BC4 (decoded
    in red) the luma, or channel bc4_channel when the encoder was given that
    channel alone; BC5 red and green; the others RGB. The benchmarks use it
    too."""
    if fmt == "BC4":
        ref = luma(src) if bc4_channel is None else src[..., bc4_channel]
        return psnr_rgb(decoded[..., :1], ref[..., None])
    if fmt == "BC5":
        return psnr_rgb(decoded[..., :2], src[..., :2])
    return psnr_rgb(decoded, src)


def bc7_modes(blocks: bytes) -> set:
    """The modes (8: reserved) of every BC7 block."""
    first = np.frombuffer(blocks, dtype=np.uint8)[::16]
    modes = np.full(first.shape, 8)
    for m in range(7, -1, -1):
        modes = np.where(first & (1 << m), m, modes)
    return set(int(m) for m in np.unique(modes))


def psnr_rgb(a: np.ndarray, b: np.ndarray) -> float:
    diff = a[..., :3].astype(np.float64) - b[..., :3].astype(np.float64)
    mse = float(np.mean(diff * diff))
    return float("inf") if mse == 0 else 10.0 * np.log10(255.0 ** 2 / mse)


def pad_to_blocks(rgba: np.ndarray) -> np.ndarray:
    """Pads a picture to whole 4x4 blocks by repeating its last column and
    row, as our encoder does (etcpak wants whole blocks)."""
    h, w = rgba.shape[:2]
    return np.pad(rgba, ((0, -h % 4), (0, -w % 4), (0, 0)), mode="edge")


class Driver:
    """bc-encode-bench: our encoder and decoder, run through files."""

    def __init__(self, path: Path, workdir: Path):
        self.path = path
        self.workdir = workdir

    def _run(self, args: list[str]) -> dict:
        res = subprocess.run([str(self.path)] + args, capture_output=True,
                             text=True)
        if res.returncode != 0:
            raise RuntimeError(f"{self.path.name} {' '.join(args)} failed "
                               f"({res.returncode}): {res.stderr.strip()}")
        return json.loads(res.stdout)

    def encode(self, frame: Frame, fmt: str, quality: str,
               simd: str = "auto", threads: int = 0) -> bytes:
        out = self.workdir / "encoded.bc"
        self._run(["encode", "-f", fmt, "-q", quality, "-s", simd,
                   "-t", str(threads), "-n", "0",
                   "-W", str(frame.width), "-H", str(frame.height),
                   "-i", str(frame.path), "-o", str(out)])
        return out.read_bytes()

    def decode(self, fmt: str, blocks: bytes, w: int, h: int) -> np.ndarray:
        src = self.workdir / "decode-in.bc"
        out = self.workdir / "decoded.rgba"
        src.write_bytes(blocks)
        self._run(["decode", "-f", fmt, "-t", "0", "-W", str(w),
                   "-H", str(h), "-i", str(src), "-o", str(out)])
        return np.fromfile(out, dtype=np.uint8).reshape(h, w, 4)


# --------------------------------------------------------------------------
# checks


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


def describe_mismatch(ours: np.ndarray, theirs: np.ndarray,
                      channels: list[int]) -> str:
    diff = np.any(ours[..., channels] != theirs[..., channels], axis=-1)
    ys, xs = np.nonzero(diff)
    if len(ys) == 0:
        return ""
    y, x = int(ys[0]), int(xs[0])
    return (f"{len(ys)} pixels differ, first at ({x}, {y}) block "
            f"({x // 4}, {y // 4}): ours {ours[y, x].tolist()} "
            f"texture2ddecoder {theirs[y, x].tolist()}")


def same_pixels(res: Results, what: str, ours: np.ndarray,
                theirs: np.ndarray, channels=(0, 1, 2, 3)) -> bool:
    channels = list(channels)
    ok = np.array_equal(ours[..., channels], theirs[..., channels])
    return res.check(ok, what, "" if ok else
                     describe_mismatch(ours, theirs, channels))


def check_our_encoder(res: Results, drv: Driver, frames: list[Frame],
                      psnr: dict) -> None:
    """1: our blocks decode the same with both decoders; collects PSNR."""
    for fmt in FORMATS:
        for quality in QUALITIES:
            for fr in frames:
                blocks = drv.encode(fr, fmt, quality)
                what = f"{fmt} {quality} {fr.name}"
                if not res.check(len(blocks) == frame_bytes(
                        fmt, fr.width, fr.height), f"{what}: frame size"):
                    continue
                theirs = t2d_decode(fmt, blocks, fr.width, fr.height)
                ours = drv.decode(fmt, blocks, fr.width, fr.height)
                # texture2ddecoder writes BC4 to red only
                same_pixels(res, f"{what}: decoders agree", ours, theirs,
                            [0, 3] if fmt == "BC4" else (0, 1, 2, 3))
                if fmt != "BC3":
                    res.check(bool(np.all(ours[..., 3] == 255)),
                              f"{what}: opaque")
                if fmt == "BC7":
                    modes = bc7_modes(blocks)
                    res.check(modes <= BC7_MODES[quality],
                              f"{what}: modes {sorted(modes)} allowed")
                if fr.kind == "1080p":
                    psnr.setdefault((fmt, quality), {})[fr.name] = \
                        psnr_channels(fmt, theirs, fr.rgba())


def check_simd_levels(res: Results, drv: Driver,
                      frames: list[Frame]) -> None:
    """2: every instruction-set build writes the same blocks."""
    for fmt in FORMATS:
        for quality in QUALITIES:
            for fr in frames:
                if fmt == "BC7" and (fr.kind != "crop" or
                                     fr.width * fr.height > 256 * 256):
                    continue  # portable C BC7 at 1080p: too slow for a test
                best = drv.encode(fr, fmt, quality, "auto")
                for simd in ("none", "sse2"):
                    other = drv.encode(fr, fmt, quality, simd, threads=1)
                    res.check(other == best,
                              f"{fmt} {quality} {fr.name}: simd {simd} "
                              "blocks equal the best level's")


def check_etcpak_blocks(res: Results, drv: Driver,
                        frames: list[Frame], bc7_frames: list[Frame]) -> None:
    """3: etcpak's BC4/BC5/BC7 decode the same with both decoders."""
    def compare(fmt: str, name: str, blocks: bytes, w: int, h: int) -> None:
        theirs = t2d_decode(fmt, blocks, w, h)
        ours = drv.decode(fmt, blocks, w, h)
        what = f"etcpak {fmt} {name}: decoders agree"
        if fmt == "BC4":
            # texture2ddecoder fills red only; ours replicates red
            same_pixels(res, what, ours, theirs, channels=[0, 3])
            res.check(bool(np.array_equal(ours[..., 0], ours[..., 1])
                           and np.array_equal(ours[..., 0], ours[..., 2])),
                      f"etcpak BC4 {name}: ours is grey")
        else:
            same_pixels(res, what, ours, theirs)

    for fr in frames:
        rgba = pad_to_blocks(fr.rgba())
        ph, pw = rgba.shape[:2]
        raw = rgba.tobytes()
        compare("BC4", fr.name, etcpak.compress_bc4(raw, pw, ph),
                fr.width, fr.height)
        compare("BC5", fr.name, etcpak.compress_bc5(raw, pw, ph),
                fr.width, fr.height)

    params = etcpak.BC7CompressBlockParams()
    for fr in bc7_frames:
        rgba = pad_to_blocks(fr.rgba())
        ph, pw = rgba.shape[:2]
        compare("BC7", fr.name,
                etcpak.compress_bc7(rgba.tobytes(), pw, ph, params),
                fr.width, fr.height)
        # the same picture with a varying alpha (luma and a ramp) makes
        # etcpak use BC7's alpha modes too
        alpha = rgba.copy()
        ramp = np.linspace(0, 255, pw, dtype=np.float64)[None, :]
        luma = rgba[..., :3].astype(np.float64) @ [0.25, 0.5, 0.25]
        alpha[..., 3] = np.clip((luma + ramp) / 2, 0, 255).astype(np.uint8)
        compare("BC7", fr.name + " with alpha",
                etcpak.compress_bc7(alpha.tobytes(), pw, ph, params),
                fr.width, fr.height)


def check_random_blocks(res: Results, drv: Driver) -> None:
    """4: random bytes decode the same, known differences masked."""
    rng = np.random.default_rng(20261122)
    w, h = 1024, 512  # 32768 blocks: every BC7 mode, ~128 reserved blocks
    bx, by = w // 4, h // 4
    for fmt in ["BC1", "BC3", "YCoCg-BC3", "BC4", "BC5", "BC7"]:
        bb = BLOCK_BYTES[fmt]
        data = rng.integers(0, 256, bx * by * bb, dtype=np.uint8)
        if fmt == "BC7":
            # make sure the reserved first byte 0 is well represented
            blocks = data.reshape(-1, 16)
            blocks[::64, 0] = 0
        blocks_b = data.tobytes()
        theirs = t2d_decode(fmt, blocks_b, w, h)
        ours = drv.decode(fmt, blocks_b, w, h)
        what = f"random {fmt} blocks: decoders agree"

        if fmt in ("BC3", "YCoCg-BC3"):
            # compare colour only where the colour half is unambiguous
            b = data.reshape(by, bx, 16).astype(np.uint16)
            c0 = b[..., 8] | (b[..., 9] << 8)
            c1 = b[..., 10] | (b[..., 11] << 8)
            unambiguous = np.repeat(np.repeat(c0 > c1, 4, 0), 4, 1)
            if fmt == "BC3":
                same_pixels(res, what + " (alpha)", ours, theirs, [3])
            mask = unambiguous[..., None]
            ours_m = np.where(mask, ours, 0)
            theirs_m = np.where(mask, theirs, 0)
            same_pixels(res, what + " (colour, c0 > c1 blocks)",
                        ours_m, theirs_m)
        elif fmt == "BC4":
            same_pixels(res, what, ours, theirs, [0, 3])
        else:
            same_pixels(res, what, ours, theirs)
        if fmt == "BC7":
            reserved = data.reshape(by, bx, 16)[..., 0] == 0
            px = np.repeat(np.repeat(reserved, 4, 0), 4, 1)
            res.check(bool(np.all(ours[px] == 0)),
                      "random BC7: reserved-mode blocks are transparent "
                      f"black ({int(reserved.sum())} blocks)")


def check_quality(res: Results, psnr: dict, etcpak_bc1: dict) -> None:
    """5: quality floors, and the numbers."""
    log("")
    log("mean RGB PSNR over the 1080p photographs (texture2ddecoder):")
    log(f"  {'format':10} {'quality':7} {'mean dB':>8} {'min dB':>7} "
        f"{'floor':>6}")
    means = {}
    for (fmt, quality), per_photo in psnr.items():
        values = list(per_photo.values())
        means[(fmt, quality)] = mean = float(np.mean(values))
        log(f"  {fmt:10} {quality:7} {mean:8.2f} {min(values):7.2f} "
            f"{PSNR_FLOOR[(fmt, quality)]:6.1f}")
    if etcpak_bc1:
        log(f"  {'etcpak BC1':18} {np.mean(list(etcpak_bc1.values())):8.2f} "
            f"{min(etcpak_bc1.values()):7.2f}    (reference)")
    log("")
    for (fmt, quality), mean in means.items():
        floor = PSNR_FLOOR[(fmt, quality)]
        res.check(mean >= floor, f"{fmt} {quality}: mean PSNR {mean:.2f} dB "
                  f">= {floor} dB")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--driver", type=Path, required=True,
                    help="the bc-encode-bench executable")
    ap.add_argument("--manifest", type=Path, required=True,
                    help="manifest.json written by benchmarks/photos.py")
    ap.add_argument("--workdir", type=Path, default=None,
                    help="directory for temporary files")
    args = ap.parse_args()

    frames = load_frames(args.manifest)
    photos = [f for f in frames if f.kind == "1080p"]
    crops = [f for f in frames if f.kind == "crop"]
    if not photos or not crops:
        log("the manifest lists no 1080p frames or crops")
        return 1

    start = time.monotonic()
    res = Results()
    psnr: dict = {}
    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp:
        drv = Driver(args.driver.resolve(), Path(tmp))
        log(f"{len(photos)} photographs at 1080p, {len(crops)} crops: "
            + ", ".join(f"{c.width}x{c.height}" for c in crops))

        check_our_encoder(res, drv, photos + crops, psnr)
        check_simd_levels(res, drv, crops + photos[:1])
        check_etcpak_blocks(res, drv, photos + crops, crops + photos[:1])
        check_random_blocks(res, drv)

    etcpak_bc1 = {}
    for fr in photos:
        blocks = etcpak.compress_bc1(fr.rgba().tobytes(), fr.width, fr.height)
        etcpak_bc1[fr.name] = psnr_rgb(
            t2d_decode("BC1", blocks, fr.width, fr.height), fr.rgba())
    check_quality(res, psnr, etcpak_bc1)

    log(f"interop: {time.monotonic() - start:.0f} s")
    log(f"{res.passed} passed, {res.failed} failed")
    return 0 if res.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
