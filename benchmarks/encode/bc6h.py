#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""BC6H encoder benchmark: gst-bc's qualities and, when the ``ispc_texcomp``
Python package (Intel's ISPC Texture Compressor) can be imported, its BC6H
profiles, on the same pictures in the same run.

The pictures are the synthetic HDR picture of tests/check/hdrtest.h and HDR
versions of the benchmark photographs (benchmarks/photos.py): the 8-bit sRGB
values decoded to linear light, then the highlights expanded, an inverse tone
mapping: with Y the BT.709 luminance of a pixel,
``x * (1 + 30 s^2)``, ``s = clamp ((Y - 0.55) / 0.45, 0, 1)``: mid-tones keep
their value (1.0 = 203 cd/m2), the photograph's white becomes 31 (6300
cd/m2).

Speed: bc-bc6h-bench (the median of --frames runs); ISPC's single call on
one thread and on two (the picture cut into two halves, one thread each).
Quality: the mPSNR (exposures -3 .. +3) of the blocks decoded by libgstbc's
decoder (bc-bc6h-bench --score). Prints one JSON object a line.

Usage: bc6h.py --bench BUILD/benchmarks/encode/bc-bc6h-bench
               [--manifest photos/cache/frames/manifest.json] [--photos a,b]
               [--frames N] [--qualities fast,normal,high]
               [--ispc-profiles veryfast,fast]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np


def srgb_decode(v: np.ndarray) -> np.ndarray:
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def hdr_from_photo(path: str, width: int, height: int) -> np.ndarray:
    """RGBA half floats (height, width, 4) of an 8-bit RGBA frame"""
    rgba = np.fromfile(path, dtype=np.uint8).reshape(height, width, 4)
    lin = srgb_decode(rgba[..., :3].astype(np.float64) / 255.0)
    y = lin @ np.array([0.2126, 0.7152, 0.0722])
    s = np.clip((y - 0.55) / 0.45, 0.0, 1.0)
    hdr = lin * (1.0 + 30.0 * s * s)[..., None]
    out = np.ones((height, width, 4), dtype=np.float16)
    out[..., :3] = hdr.astype(np.float16)
    return out


def run_bench(bench: str, args: list[str]) -> list[dict]:
    res = subprocess.run([bench] + args, check=True, capture_output=True,
                         text=True)
    return [json.loads(line) for line in res.stdout.splitlines() if line]


def ispc_runs(pic: np.ndarray, frames: int, blocks_path: str,
              profile: str) -> list[dict]:
    import ispc_texcomp as itc

    height, width = pic.shape[:2]
    settings = itc.BC6HEncSettings.from_profile(profile)
    data = pic.tobytes()
    surface = itc.RGBASurface(data, width, height, width * 8)
    # two halves of whole block rows, for two threads
    cut = (height // 8) * 4
    halves = [itc.RGBASurface(pic[:cut].tobytes(), width, cut, width * 8),
              itc.RGBASurface(pic[cut:].tobytes(), width, height - cut,
                              width * 8)]
    out = []
    blocks = itc.compress_blocks_bc6h(surface, settings)
    with open(blocks_path, "wb") as f:
        f.write(blocks)
    for threads in (1, 2):
        times = []
        with concurrent.futures.ThreadPoolExecutor(threads) as pool:
            for _ in range(frames):
                t0 = time.perf_counter()
                if threads == 1:
                    itc.compress_blocks_bc6h(surface, settings)
                else:
                    list(pool.map(lambda s: itc.compress_blocks_bc6h(
                        s, settings), halves))
                times.append((time.perf_counter() - t0) * 1000.0)
        times.sort()
        ms = times[len(times) // 2]
        out.append({"encoder": "ispc_texcomp", "quality": profile,
                    "threads": threads, "width": width, "height": height,
                    "ms": round(ms, 2),
                    "mpixel_s": round(width * height / 1000.0 / ms, 1)})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", required=True)
    ap.add_argument("--manifest")
    ap.add_argument("--photos", default="bridge,dragonfly,fig,friends")
    ap.add_argument("--frames", type=int, default=5)
    ap.add_argument("--qualities", default="fast,normal,high")
    ap.add_argument("--ispc-profiles", default="veryfast,fast")
    opts = ap.parse_args()

    try:
        import ispc_texcomp  # noqa: F401
        have_ispc = True
    except ImportError:
        have_ispc = False
        print(json.dumps({"note": "ispc_texcomp cannot be imported: no "
                          "comparison"}))

    pictures = [("synthetic", None, 1920, 1080)]
    if opts.manifest:
        with open(opts.manifest) as f:
            manifest = json.load(f)
        frames = manifest["frames"] if isinstance(manifest, dict) else manifest
        wanted = opts.photos.split(",")
        for fr in frames:
            name = fr.get("name", os.path.basename(fr.get("path", "")))
            if (fr.get("width"), fr.get("height")) != (1920, 1080):
                continue
            if not any(name.startswith(w) for w in wanted):
                continue
            path = fr.get("path") or fr.get("file")
            if not os.path.isabs(path):
                path = os.path.join(os.path.dirname(opts.manifest), path)
            pictures.append((name, path, 1920, 1080))

    with tempfile.TemporaryDirectory() as tmp:
        for name, path, w, h in pictures:
            size = ["--width", str(w), "--height", str(h)]
            if path:
                hdr_path = os.path.join(tmp, name + ".half")
                pic = hdr_from_photo(path, w, h)
                pic.tofile(hdr_path)
                size += ["--input", hdr_path]
            else:
                hdr_path = os.path.join(tmp, "synthetic.half")
                subprocess.run([opts.bench] + size + ["--dump", hdr_path],
                               check=True)
                pic = np.fromfile(hdr_path, dtype=np.float16).reshape(
                    h, w, 4)
            for r in run_bench(opts.bench, size + [
                    "--frames", str(opts.frames), "--qualities",
                    opts.qualities]):
                r["picture"] = name
                print(json.dumps(r), flush=True)
            if not have_ispc:
                continue
            for profile in opts.ispc_profiles.split(","):
                blocks = os.path.join(tmp, f"{name}-{profile}.bc6h")
                runs = ispc_runs(pic, opts.frames, blocks, profile)
                score = run_bench(opts.bench, size + ["--score", blocks])
                for r in runs:
                    r["picture"] = name
                    r["mpsnr"] = score[0]["mpsnr"]
                    print(json.dumps(r), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
