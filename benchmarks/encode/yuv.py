#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""YUV input converted inside the encoders against videoconvert in front of
them (issue 38): bc-yuv-bench for every YUV input format the encoders take
and each encoder / quality, on one photograph at 3840x2160, the same total
threads in both paths.

bc-yuv-bench times, in one invocation and alternating (--rounds each, the
best counts),

  A (direct):       appsrc (YUV) ! bcNenc quality=Q threads=T ! fakesink
  B (videoconvert): appsrc (YUV) ! videoconvert n-threads=T
                      ! video/x-raw,format=RGBx ! bcNenc ... ! fakesink

and scores the last frame of each against the RGB photograph (PSNR over R, G,
B; BC4: luma; BC5: R, G), and the RGB each path makes before the block
encoding (R, G, B). bc6henc (HDR) takes P010_10LE and v210 only: its
picture is the photograph made HDR as bc6h.py makes it, in PQ codes,
colorimetry=bt2100-pq, videoconvert makes RGBA64_LE, and the scores are
mPSNRs (exposures -3 .. +3) against the HDR picture in linear light.
The YUV frame is the photograph (bc6henc: its PQ codes) converted once,
exactly (--yuv-source exact, the default: double precision, rounded, the
codes BT.709 and BT.2020 define) or by GstVideoConverter (--yuv-source
gstreamer, whose 10-bit frames are off by a few codes: see
bc-yuv-bench.c). Writes
benchmarks/encode/yuv-results.json and the yuv-bench section of
docs/performance.md (a markdown table, the issue's targets met or not:
reported, never asserted).

Usage (benchmarks/encode/yuv.sh builds, makes the venv and fetches the
photographs first):

  yuv.py --bench BUILD/benchmarks/encode/bc-yuv-bench
         --manifest photos/cache/frames/manifest.json [--photo bridge]
         [--frames 20] [--rounds 2] [--threads 2]
         [--formats NV12,...] [--encoders bc1enc:fast,bc1enc:normal,...,
                               bc6henc:fast,bc6henc:normal]
         [--other-formats NV12] [--budget SECONDS] [--quick]
         [--yuv-source exact|gstreamer]
         [--report-only] [--no-doc]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import benchlib  # noqa: E402
from benchlib import log  # noqa: E402

HERE = Path(__file__).resolve().parent
SRC = benchlib.SRC

MARK_BEGIN = "<!-- yuv-bench:begin -->"
MARK_END = "<!-- yuv-bench:end -->"
# where the section goes when the doc has none yet: after the CPU encoders'
# section (and stb_dxt's, measured beside it), before the transport's
MARK_BEFORE = "<!-- transport-bench:begin -->"

FORMATS = ("NV12", "I420", "YUY2", "UYVY", "P010_10LE", "v210")
ENCODERS = ("bc1enc:fast", "bc1enc:normal", "bc3enc:fast", "bc4enc:fast",
            "bc5enc:fast", "bc7enc:fast", "bc6henc:fast", "bc6henc:normal")
# the HDR encoder and the YUV formats it takes (10-bit only)
HDR_ENCODERS = ("bc6henc",)
HDR_FORMATS = ("P010_10LE", "v210")
WIDTH, HEIGHT = 3840, 2160

RATIO_BAR = 1.5
RATIO_ROWS = (("NV12", "bc1enc", "fast"), ("UYVY", "bc1enc", "fast"))
DELTA_BAR = -0.1

WHAT = {"bc1enc": "BC1", "bc3enc": "YCoCg-BC3", "bc4enc": "BC4 (luma)",
        "bc5enc": "BC5 (R, G)", "bc7enc": "BC7", "bc6henc": "BC6H"}


def is_hdr(r: dict) -> bool:
    """Whether row @r is an HDR one (bc6henc: mPSNR, not PSNR)"""
    return r.get("metric") == "mpsnr" or r["encoder"] in HDR_ENCODERS


class MachineCpu:
    """The cores the rest of the machine used while the block ran: the busy
    time of /proc/stat (user, nice, system, irq, softirq) less this
    process's and its waited-for children's (os.times ()). Unlike
    benchlib.OtherCpu it counts the processes that start and end within
    the block (other engineers' test binaries, compilers) and never
    bc-yuv-bench, which ends within it too."""

    @staticmethod
    def _busy() -> float:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return (v[0] + v[1] + v[2] + v[5] + v[6]) / benchlib.HZ

    @staticmethod
    def _own() -> float:
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    def __enter__(self):
        self.t, self.busy, self.own = (time.monotonic(), self._busy(),
                                       self._own())
        return self

    def __exit__(self, *exc):
        wall = (time.monotonic() - self.t) or 1.0
        other = (self._busy() - self.busy) - (self._own() - self.own)
        self.cores = max(0.0, other) / wall
        return False


def git_describe() -> str:
    r = subprocess.run(["git", "-C", str(SRC), "describe", "--always",
                        "--dirty"], capture_output=True, text=True)
    return r.stdout.strip() or "?"


def find_picture(manifest: Path | None, photo: str, w: int, h: int):
    """The raw RGBA frame @photo_@wx@h of benchmarks/photos.py's manifest,
    None when there is none."""
    if manifest is None or not manifest.exists():
        return None
    frames = json.loads(manifest.read_text())["frames"]
    for fr in frames:
        if fr["name"] == f"{photo}_{w}x{h}":
            return manifest.parent / fr["file"]
    return None


def run_one(bench: Path, encoder: str, quality: str, formats: list,
            args, picture: Path | None) -> list:
    """bc-yuv-bench's rows (JSON objects) for @encoder @quality on
    @formats, logged as they come."""
    cmd = [str(bench), "-e", encoder, "-q", quality, "-F", ",".join(formats),
           "-W", str(args.width), "-H", str(args.height),
           "-t", str(args.threads), "-n", str(args.frames),
           "-r", str(args.rounds), "-s", args.yuv_source]
    if picture is not None:
        cmd += ["-i", str(picture)]
    log(f"yuv.py: {' '.join(cmd)}")
    rows = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) as p:
        for line in p.stdout:
            line = line.strip()
            if not line.startswith("{"):
                continue
            r = json.loads(line)
            r["delta_db"] = round(r["psnr_yuv"] - r["psnr_videoconvert"], 3)
            log(f"  {r['format']:<10} {encoder} {quality:<6} direct "
                f"{r['fps_yuv']:6.1f} fps, videoconvert "
                f"{r['fps_videoconvert']:6.1f} fps, x{r['ratio']:.2f}; "
                f"{r['psnr_yuv']:.2f} / {r['psnr_videoconvert']:.2f} dB"
                f"{' mPSNR' if is_hdr(r) else ''} "
                f"(RGB before BC {r['psnr_rgb_yuv']:.2f} / "
                f"{r['psnr_rgb_videoconvert']:.2f})")
            rows.append(r)
    if p.returncode != 0:
        log(f"yuv.py: bc-yuv-bench exited {p.returncode} ({encoder} "
            f"{quality})")
    return rows


def targets(rows: list, size: str = "2160p") -> list:
    """The issue's targets (at @size), each (what, measured, met); met None
    when the row was not measured."""
    out = []
    for fmt, enc, q in RATIO_ROWS:
        r = next((r for r in rows if (r["format"], r["encoder"],
                                      r["quality"]) == (fmt, enc, q)), None)
        out.append((f"{size} {fmt} into `{enc} quality={q}`: at least "
                    f"{RATIO_BAR}x the frames/s of `videoconvert ! {enc} "
                    f"quality={q}`, same total threads",
                    f"{r['ratio']:.2f}x ({r['fps_yuv']:.1f} against "
                    f"{r['fps_videoconvert']:.1f} frames/s)" if r else
                    "not measured", r["ratio"] >= RATIO_BAR if r else None))
    if rows:
        worst = min(rows, key=lambda r: r["delta_db"])
        below = [r for r in rows if r["delta_db"] < DELTA_BAR]
        hdr = [r for r in rows if is_hdr(r)]
        out.append((f"PSNR against the photograph at least the videoconvert "
                    f"path's {DELTA_BAR:+.1f} dB, every format and encoder"
                    + (" (bc6henc: mPSNR against the photograph made HDR)"
                       if hdr else ""),
                    f"{len(rows) - len(below)} of {len(rows)} rows; lowest "
                    f"{worst['delta_db']:+.2f} dB ({worst['format']}, "
                    f"{worst['encoder']} {worst['quality']})"
                    + ("; below: " + ", ".join(
                        f"{r['format']} {r['encoder']} {r['quality']} "
                        f"{r['delta_db']:+.2f}" for r in below)
                       if below else ""),
                    not below))
    return out


def size_name(res: dict) -> str:
    return ("2160p" if (res["width"], res["height"]) == (WIDTH, HEIGHT)
            else f"{res['width']}x{res['height']}")


def rgb(r: dict, key: str) -> str:
    """@r's PSNR of the RGB before BC, "-" in results made before it
    was measured"""
    return f"{r[key]:.2f}" if key in r else "-"


def markdown(res: dict) -> str:
    m = res["machine"]
    rows = res["rows"]
    L = [MARK_BEGIN, "",
         "## YUV input: converted inside the encoders against videoconvert",
         ""]
    L.append(
        f"Measured {res['date']} at gst-bc {res['git']} on {m['cpu']} "
        f"({m['cpu_count']} cores), Linux {m['kernel']}, GStreamer "
        f"{m['gstreamer']}, by `{res['command']}` (release build), "
        f"{res['wall_s']:.0f} s. Load average at start / end: "
        f"{res['load_start']:.2f} / {res['load_end']:.2f}; other processes "
        + (f"used {res['machine_other_cores']:.2f} cores over the run "
           "(/proc/stat's busy time less this run's; "
           f"{res['other_cores']:.2f} by those alive from start to end)"
           if "machine_other_cores" in res else
           f"used {res['other_cores']:.2f} cores over the run")
        + "; other work makes the speeds lower, never higher.")
    L.append("")
    pic = res["picture"]
    source = res.get("yuv_source", "gstreamer")
    sdr = [r for r in rows if not is_hdr(r)]
    hdr = [r for r in rows if is_hdr(r)]
    colorimetry = ", ".join(sorted({r.get("colorimetry", "?")
                                    for r in sdr})) or "?"
    L.append(
        f"Method (`benchmarks/encode/yuv.py` running "
        "`benchmarks/encode/bc-yuv-bench`): for each encoder and quality, one "
        f"invocation times, on {res['width']}x{res['height']} frames, "
        f"`appsrc (YUV) ! bcNenc threads={res['threads']} ! fakesink` "
        "(*direct*: the encoder converts the YUV as it gathers its blocks) "
        f"against `appsrc (YUV) ! videoconvert n-threads={res['threads']} ! "
        "video/x-raw,format=RGBx ! bcNenc threads="
        f"{res['threads']} ! fakesink` (*videoconvert*), both in one "
        "streaming thread, so each stage has the same threads while it "
        f"works: the same total. {res['frames']} timed frames after 3 "
        f"untimed, {res['rounds']} round{'s' if res['rounds'] > 1 else ''} "
        "of each alternating, the best counts. The picture: "
        + (f"the photograph `{pic}` (`benchmarks/photos.py`: 16:9 crop, "
           f"Lanczos to {res['width']}x{res['height']})"
           if pic != "synthetic" else
           "bc-yuv-bench's synthetic picture (no photographs here)")
        + ", converted once to each YUV format "
        + ("exactly (double precision, rounded to the nearest code, "
           "BT.709 / BT.2020 codes: 10-bit limited range four times the "
           "8-bit ones; chroma filtered 1 2 1 at cosited, 1 3 3 1 at "
           "centred sites)" if source == "exact" else
           "by GstVideoConverter with its defaults (its 10-bit frames are "
           "a few codes off: see bc-yuv-bench.c)")
        + " with GstVideoInfo's default colorimetry and chroma siting for "
        f"the size ({colorimetry}); the same frame "
        "is pushed again and again. PSNR: the last frame of each path "
        "decoded by libgstbc against the RGB picture (R, G, B; BC4: luma "
        "(77 R + 150 G + 29 B) / 256; BC5: R and G); *RGB*: the same for "
        "the RGB each path makes before the block encoding (R, G, B; "
        "videoconvert's from a GstVideoConverter with the element's "
        f"defaults and its {res['threads']} threads: GStreamer 1.22 "
        "upsamples 4:2:0 chroma otherwise on 2 threads than on one). "
        "*delta*: direct minus videoconvert.")
    if hdr:
        L.append("")
        L.append(
            "`bc6henc` (HDR; the second table) takes P010_10LE and v210 "
            "only, with `colorimetry=bt2100-pq` in the caps: the same "
            "photograph made HDR as `benchmarks/encode/bc6h.py` makes its "
            "pictures (sRGB decoded to linear light, the highlights "
            "expanded: 1.0 = 203 cd/m2, the photograph's white 31), "
            "encoded as full-range 16-bit PQ codes (SMPTE ST 2084 of 203 "
            "cd/m2 x the value), then converted "
            + ("exactly" if source == "exact" else "by GstVideoConverter")
            + " as above with the "
            "BT.2020 matrix, limited range (the primaries are only "
            "carried); *videoconvert* is `videoconvert n-threads="
            f"{res['threads']} ! video/x-raw,format=RGBA64_LE ! bc6henc` "
            "(videoconvert negotiates full-range RGB, PQ, BT.2020: "
            "1:1:14:7). Its scores are mPSNRs (exposures -3 .. +3, "
            "`hdrtest_mpsnr()` of `tests/check/hdrtest.h`, the definition "
            "`bc6h.py` uses) against the HDR picture in linear light (half "
            "floats, before PQ and YUV): of the last frame of each path "
            "decoded by libgstbc's BC6H decoder "
            "(`gst_bc_decode_rows_half()`), and (*PQ RGB*) of the 16-bit "
            "PQ RGB each path makes before the block encoding, read as "
            "`bc6henc` reads it (the direct path's from "
            "`gst_bc_yuv_convert_row()` at 16 bits, videoconvert's from a "
            "GstVideoConverter to RGBA64_LE, as *RGB*).")
    if res.get("skipped"):
        L.append("")
        L.append("Not measured in this run (kept short): "
                 + "; ".join(res["skipped"]) + ".")
    order = {f: i for i, f in enumerate(FORMATS)}
    encs = {e: i for i, e in enumerate(ENCODERS)}

    def ordered(rs: list) -> list:
        return sorted(rs, key=lambda r: (
            encs.get(f"{r['encoder']}:{r['quality']}", 99),
            order.get(r["format"], 99)))

    def row(r: dict) -> str:
        bold = (r["format"], r["encoder"], r["quality"]) in RATIO_ROWS
        ratio = f"{r['ratio']:.2f}x"
        return (
            f"| {r['format']} | `{r['encoder']}` {WHAT.get(r['encoder'], '')}"
            f" {r['quality']} | {r['fps_yuv']:.1f} | "
            f"{r['fps_videoconvert']:.1f} | "
            f"{'**' + ratio + '**' if bold else ratio} | "
            f"{r['psnr_yuv']:.2f} | {r['psnr_videoconvert']:.2f} | "
            f"{r['delta_db']:+.2f} | {rgb(r, 'psnr_rgb_yuv')} | "
            f"{rgb(r, 'psnr_rgb_videoconvert')} |")

    if sdr:
        L += ["", "| format | encoder / quality | fps direct "
              "| fps videoconvert | ratio | PSNR direct | PSNR videoconvert "
              "| delta | RGB direct | RGB videoconvert |",
              "|---|---|---|---|---|---|---|---|---|---|"]
        L += [row(r) for r in ordered(sdr)]
    if hdr:
        L += ["", "| format | encoder / quality | fps direct "
              "| fps videoconvert | ratio | mPSNR direct "
              "| mPSNR videoconvert | delta | PQ RGB direct "
              "| PQ RGB videoconvert |",
              "|---|---|---|---|---|---|---|---|---|---|"]
        L += [row(r) for r in ordered(hdr)]
    L += ["", "### The issue's targets (issue 38)", ""]
    for what, got, met in targets(rows, size_name(res)):
        if met is None:
            L.append(f"- {what}: not measured.")
        else:
            L.append(f"- {what}: {got}: {'met' if met else '**NOT met**'}.")
    ten = [r["delta_db"] for r in sdr
           if r["format"] in ("P010_10LE", "v210")]
    eight = [r["delta_db"] for r in sdr
             if r["format"] not in ("P010_10LE", "v210")]
    hdr_d = [r["delta_db"] for r in hdr]
    L += ["", "Reported, not asserted."
          + (f" With the 8-bit formats the direct path scores "
             f"{min(eight):+.2f} to {max(eight):+.2f} dB against "
             "videoconvert's (the *RGB* columns: videoconvert's own 8-bit "
             "conversion is that much further from the picture)."
             if eight else "")
          + (f" With the 10-bit formats (P010_10LE, v210) "
             f"{min(ten):+.2f} to {max(ten):+.2f} dB." if ten else "")
          + (f" `bc6henc`: {min(hdr_d):+.2f} to {max(hdr_d):+.2f} dB "
             "mPSNR." if hdr_d else "")
          + (" The frames are GStreamer's conversion, which favours "
             "videoconvert with the 10-bit formats: GStreamer 1.22 makes "
             "them with a luma gain of 1/255 and Cb a few codes low, and "
             "videoconvert's truncation back to 8 bits cancels part of "
             "that (bc-yuv-bench.c's header)."
             if ten and source != "exact" else ""),
          "", MARK_END]
    return "\n".join(L) + "\n"


def place_markers(doc: Path) -> None:
    """Puts an empty yuv-bench section before the transport's when @doc
    has none, so that it comes after the CPU encoders' section."""
    if not doc.exists():
        return
    text = doc.read_text()
    if MARK_BEGIN in text or MARK_BEFORE not in text:
        return
    i = text.index(MARK_BEFORE)
    doc.write_text(text[:i] + MARK_BEGIN + "\n" + MARK_END + "\n\n"
                   + text[i:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    benchlib.add_output_options(ap, "NV12 and UYVY, bc1enc fast only, 5 "
                                "frames, 1 round; no doc",
                                "benchmarks/encode/yuv.sh")
    ap.add_argument("--bench", type=Path,
                    default=SRC / "build-bench" / "benchmarks" / "encode" /
                    "bc-yuv-bench")
    ap.add_argument("--manifest", type=Path)
    ap.add_argument("--photo", default="bridge")
    ap.add_argument("--width", type=int, default=WIDTH)
    ap.add_argument("--height", type=int, default=HEIGHT)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--formats", default=",".join(FORMATS))
    ap.add_argument("--encoders", default=",".join(ENCODERS),
                    help="ENCODER:QUALITY, comma-separated")
    ap.add_argument("--other-formats",
                    help="the formats of the encoders other than bc1enc "
                    "(default: --formats)")
    ap.add_argument("--yuv-source", choices=("exact", "gstreamer"),
                    default="exact",
                    help="how the YUV frames are made (bc-yuv-bench -s)")
    ap.add_argument("--budget", type=float, default=0,
                    help="seconds: encoders other than bc1enc not started "
                    "after this (0: no limit)")
    args = ap.parse_args()
    if args.out is None:
        args.out = HERE / ("yuv-results-quick.json" if args.quick
                           else "yuv-results.json")
    write_doc = benchlib.resolve_outputs(args, HERE)

    if args.report_only:
        res = json.loads(args.out.read_text())
    else:
        formats = [f for f in args.formats.split(",") if f]
        encoders = [e for e in args.encoders.split(",") if e]
        other = ([f for f in args.other_formats.split(",") if f]
                 if args.other_formats else formats)
        if args.quick:
            formats = other = ["NV12", "UYVY"]
            encoders = ["bc1enc:fast"]
            args.frames, args.rounds = 5, 1
        picture = find_picture(args.manifest, args.photo, args.width,
                               args.height)
        if picture is None:
            log(f"yuv.py: no {args.photo}_{args.width}x{args.height} "
                "frame: bc-yuv-bench's synthetic picture instead")
        quiet = benchlib.wait_for_quiet(args.quick)
        load_start = os.getloadavg()[0]
        rows, skipped = [], []
        t0 = time.monotonic()
        with benchlib.OtherCpu() as oc, MachineCpu() as mc:
            for e in encoders:
                enc, _, q = e.partition(":")
                fmts = formats if enc == "bc1enc" else other
                # the HDR encoder: its formats only (the 8-bit ones are no
                # input of it, not skipped)
                wanted = formats
                if enc in HDR_ENCODERS:
                    fmts = [f for f in fmts if f in HDR_FORMATS]
                    wanted = [f for f in formats if f in HDR_FORMATS]
                    if not fmts:
                        continue
                if enc != "bc1enc" and args.budget and \
                        time.monotonic() - t0 > args.budget:
                    skipped.append(f"`{enc} quality={q}` (time budget)")
                    continue
                rows += run_one(args.bench, enc, q or "fast", fmts, args,
                                picture)
                if enc != "bc1enc" and set(fmts) != set(wanted):
                    skipped.append(
                        f"`{enc} quality={q}` on "
                        + ", ".join(f for f in wanted if f not in fmts))
        res = {**benchlib.results_header(args, benchlib.machine_info(),
                                         git_describe(), ""),
               "picture": (f"{args.photo}_{args.width}x{args.height}"
                           if picture else "synthetic"),
               "width": args.width, "height": args.height,
               "yuv_source": args.yuv_source,
               "threads": args.threads, "frames": args.frames,
               "rounds": args.rounds, "quiet_cores_before": quiet,
               "load_start": load_start, "load_end": os.getloadavg()[0],
               "other_cores": oc.cores, "machine_other_cores": mc.cores,
               "wall_s": time.monotonic() - t0,
               "skipped": skipped, "rows": rows,
               "targets": []}
        res["targets"] = [{"what": w, "measured": g, "met": m}
                          for w, g, m in targets(rows, size_name(res))]
        benchlib.write_json(args.out, res)
        log(f"wrote {args.out}")
    if write_doc:
        place_markers(args.doc)
    benchlib.publish_section(markdown(res), MARK_BEGIN, MARK_END, args.doc,
                             write_doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
