#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Real photographs for the interop test and the encoder benchmarks.

The photographs come from Debian's ``lomiri-wallpapers-16.04`` package
(Ubuntu's 18.04 free-culture showcase: camera photographs under CC-BY-4.0,
CC-BY-SA-4.0 and CC0-1.0; see benchmarks/photos/SOURCES.md). This script

1. finds the package's JPEGs: already unpacked in the cache, installed in
   /usr/share/backgrounds, or fetched with ``apt-get download`` (running
   ``apt-get update`` first when root and the download fails) and unpacked
   into the cache with ``dpkg-deb -x`` -- nothing is installed system-wide;
2. checks them against the SHA-256 sums recorded here;
3. writes raw RGBA frames (8 bits per channel, alpha 255, rows top to
   bottom, no padding) into ``benchmarks/photos/cache/frames/``: a 16:9
   centre crop of each photograph resized with Pillow's Lanczos filter to
   1920x1080 and, for sources at least 3840 pixels wide after the crop, to
   3840x2160 (never upscaled), plus a few odd-sized crops of the 1080p
   frames (1918x1078, 129x67, 30x26, 7x9, 3x5, 1x1);
4. writes ``manifest.json`` listing every frame.

The images themselves are never committed: ``benchmarks/photos/cache/`` is
git-ignored. Needs Pillow (run it with the venv python of tests/interop/run.sh
or benchmarks/encode/run.sh). Prints the manifest's path on success.

Exit status: 0 on success, 3 when the photographs cannot be had (no package
registry), 1 on any other error.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

# Bump when the frames this script writes change, so caches are rebuilt.
FRAMES_VERSION = 1

PACKAGE = "lomiri-wallpapers-16.04"
PACKAGE_VERSION = "20.04.0-2"  # the one Debian 12 (bookworm) ships
SOURCE_DIR = "usr/share/backgrounds"

HERE = Path(__file__).resolve().parent
DEFAULT_CACHE = HERE / "photos" / "cache"


@dataclass(frozen=True)
class Photo:
    """One source photograph and how to frame it."""

    name: str  # short name used in frame file names
    file: str  # file name in /usr/share/backgrounds
    sha256: str
    author: str
    license: str
    what: str
    # vertical position of the 16:9 crop: 0 = top, 0.5 = centre, 1 = bottom
    focus_y: float = 0.5


PHOTOS = [
    Photo("bridge", "Bridge_by_Sander_Klootwijk.jpg",
          "bd86b081f9975e2b83527f71e49b9271a8ab40885428395969d9f7d834d7f050",
          "Sander Klootwijk", "CC-BY-SA-4.0",
          "bridge cables against a smooth sky over a beach"),
    Photo("dragonfly", "Dragonfly_by_Bolly.jpg",
          "af5af17841009732def24b09bb1e669a1b09d2b4bdeee7812c371101c30d2bb3",
          "Bolly", "CC-BY-SA-4.0",
          "dragonfly in foliage, fine wing veins, blue sky"),
    Photo("seeding", "seeding_by_Clements_Engelhardt.jpg",
          "a5634d1ab5e41a3568e92d4a894a500c92b891f9ff734e50bd224d6e185a605f",
          "Clemens Engelhardt", "CC0-1.0",
          "backlit dandelion clocks in a meadow, bokeh"),
    Photo("sunset", "sunset_by_Aitzol_Berasategi.jpg",
          "474dab6a4b9f94dc76c29dfe30e9f5db4af0fd2e33fe5d695f8152b371efca18",
          "Aitzol Berasategi", "CC-BY-4.0",
          "sun low over mountains, lens flare, sky gradient"),
    Photo("life", "life_by_Aitzol_Berasategi.jpg",
          "4c119350ead80201fe256850c3d316309ddfb4bdf10b235ce982dcde0c667c05",
          "Aitzol Berasategi", "CC-BY-4.0",
          "forest stream over rocks, dense texture"),
    Photo("picos", "picosdeeuropa_by_Aitzol_Berasategi.jpg",
          "414d0072b2f6f2c555deafeaef6e45c4fed6fa9ad26eba6560ca8803959cf97a",
          "Aitzol Berasategi", "CC-BY-4.0",
          "limestone peaks, clouds, alpine meadow"),
    Photo("fig", "Picture_0B_by_freespace.jpg",
          "c8c0ab18e48d9e0419fe42881112137f3afafc27dfddc29ec3a6d54c56d225ad",
          'Trevor "Freespace"', "CC-BY-4.0",
          "halved fig in a red bowl on concrete, saturated colour"),
    Photo("friends", "friends_by_Aitzol_Berasategi.jpg",
          "cc40e313c74e421edffe3403def413c16878ce14661cce7ec5915baeab35538d",
          "Aitzol Berasategi", "CC-BY-4.0",
          "two spaniels behind a wooden fence, fur and wood grain",
          focus_y=0.62),
]

SIZES = {"1080p": (1920, 1080), "2160p": (3840, 2160)}

# Odd-sized crops of the 1080p frames: (photo, width, height, x, y).
# Sizes that are not multiples of 4 exercise edge padding; the positions
# are on detailed parts of the pictures.
CROPS = [
    ("bridge", 1918, 1078, 1, 1),
    ("life", 129, 67, 901, 517),
    ("dragonfly", 30, 26, 1013, 611),
    ("fig", 7, 9, 700, 400),
    ("friends", 3, 5, 1100, 700),
    ("seeding", 1, 1, 960, 540),
]


def log(msg: str) -> None:
    print(f"photos: {msg}", file=sys.stderr, flush=True)


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class Unavailable(Exception):
    """The photographs cannot be had on this machine."""


def fetch_package(cache: Path) -> Path:
    """Returns a directory holding the package's photographs."""
    unpacked = cache / "deb" / PACKAGE
    src = unpacked / SOURCE_DIR
    if all((src / p.file).exists() for p in PHOTOS):
        return src

    system = Path("/") / SOURCE_DIR
    if all((system / p.file).exists() for p in PHOTOS):
        log(f"using the installed {PACKAGE} in {system}")
        return system

    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        raise Unavailable("apt-get and dpkg-deb are needed to fetch "
                          f"{PACKAGE} (a Debian package)")

    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        def download() -> subprocess.CompletedProcess:
            return subprocess.run(["apt-get", "download", PACKAGE], cwd=tmp,
                                  capture_output=True, text=True)

        log(f"apt-get download {PACKAGE}")
        res = download()
        if res.returncode != 0 and os.geteuid() == 0:
            # a fresh machine has no package lists yet
            log("apt-get update")
            subprocess.run(["apt-get", "update", "-qq"], check=False)
            res = download()
        if res.returncode != 0:
            raise Unavailable(f"apt-get download {PACKAGE} failed: "
                              f"{res.stderr.strip()}")
        debs = list(Path(tmp).glob("*.deb"))
        if len(debs) != 1:
            raise Unavailable(f"apt-get download left {debs}")
        if unpacked.exists():
            shutil.rmtree(unpacked)
        unpacked.mkdir(parents=True)
        subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(unpacked)],
                       check=True)
        log(f"unpacked {debs[0].name}")
    return src


def center_crop_16_9(img, focus_y: float):
    """The largest 16:9 window of img, centred horizontally."""
    w, h = img.size
    if w * 9 >= h * 16:
        cw, ch = h * 16 // 9, h
    else:
        cw, ch = w, w * 9 // 16
    x = (w - cw) // 2
    y = round((h - ch) * focus_y)
    return img.crop((x, y, x + cw, y + ch))


def rgba_bytes(img) -> bytes:
    return img.convert("RGB").convert("RGBA").tobytes()


def make_frames(src: Path, out: Path, write_png: bool) -> list[dict]:
    from PIL import Image  # from the venv

    frames = []
    cropped = {}
    out.mkdir(parents=True, exist_ok=True)

    def save(name: str, img, photo: Photo, kind: str, note: str) -> None:
        data = rgba_bytes(img)
        path = out / f"{name}.rgba"
        path.write_bytes(data)
        if write_png:
            img.convert("RGB").save(out / f"{name}.png")
        frames.append({
            "name": name,
            "photo": photo.name,
            "kind": kind,
            "width": img.size[0],
            "height": img.size[1],
            "file": path.name,
            "sha256": hashlib.sha256(data).hexdigest(),
            "source": photo.file,
            "license": photo.license,
            "note": note,
        })

    for photo in PHOTOS:
        path = src / photo.file
        digest = sha256_of(path)
        if digest != photo.sha256:
            # another package version: still a photograph, but numbers are
            # not comparable with older runs
            log(f"warning: {photo.file} has SHA-256 {digest}, expected "
                f"{photo.sha256}")
        with Image.open(path) as im:
            im.load()
            crop = center_crop_16_9(im.convert("RGB"), photo.focus_y)
        for size_name, (w, h) in SIZES.items():
            if crop.size[0] < w:
                continue  # never upscale
            img = crop.resize((w, h), Image.Resampling.LANCZOS)
            if size_name == "1080p":
                cropped[photo.name] = img
            note = (f"{photo.file} {im.size[0]}x{im.size[1]}, 16:9 crop "
                    f"{crop.size[0]}x{crop.size[1]}, Lanczos to {w}x{h}")
            save(f"{photo.name}_{w}x{h}", img, photo, size_name, note)
        log(f"{photo.name}: {im.size[0]}x{im.size[1]}")

    by_name = {p.name: p for p in PHOTOS}
    for name, w, h, x, y in CROPS:
        img = cropped[name].crop((x, y, x + w, y + h))
        note = f"crop of {name}_1920x1080 at ({x}, {y})"
        save(f"{name}_crop_{w}x{h}", img, by_name[name], "crop", note)

    return frames


def prepare(cache: Path, write_png: bool, force: bool) -> int:
    """Makes the frames in cache/frames unless they are current."""
    frames_dir = cache / "frames"
    manifest = frames_dir / "manifest.json"

    if not force and manifest.exists():
        try:
            m = json.loads(manifest.read_text())
            if (m.get("version") == FRAMES_VERSION
                    and all((frames_dir / f["file"]).exists()
                            for f in m["frames"])):
                print(manifest)
                return 0
        except (ValueError, KeyError):
            pass

    try:
        src = fetch_package(cache)
    except Unavailable as e:
        log(str(e))
        return 3

    frames = make_frames(src, frames_dir, write_png)
    manifest.write_text(json.dumps({
        "version": FRAMES_VERSION,
        "package": PACKAGE,
        "frames": frames,
    }, indent=1) + "\n")
    log(f"{len(frames)} frames in {frames_dir}")
    print(manifest)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE,
                    help="cache directory (default: %(default)s)")
    ap.add_argument("--png", action="store_true",
                    help="also write a PNG of every frame, for looking at")
    ap.add_argument("--force", action="store_true",
                    help="remake the frames even if the cache is current")
    args = ap.parse_args()

    cache = args.cache.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    # one writer at a time (the benchmark and the test may run together)
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return prepare(cache, args.png, args.force)


if __name__ == "__main__":
    sys.exit(main())
