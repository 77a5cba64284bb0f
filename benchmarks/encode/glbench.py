# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The GL compute path of the encoders in the encoder benchmark (run.py).

For every photograph, size and configuration of run.py's CONFIGS (and at
1080p of its GL_NEW_CONFIGS, the newer formats the GL path encodes),
bc-encode-gl-bench encodes the frame with the GL encoder the elements run
(gst-libs/gst/bcgl/bcglencode.c) on the machine's GL context (headless EGL:
GST_GL_PLATFORM=egl GST_GL_WINDOW=egl-device) and reports:

- Mpixel/s of the pipelined encode (frame k submitted, frame k - 1 waited
  for and copied out, as the element does), best of --reps runs;
- GPU time per frame from GL_TIME_ELAPSED timer queries around each
  dispatch (real GPU time on a GPU; Mesa's llvmpipe only times rasteriser
  work, so it reports about 0 for compute);
- the time of one frame alone, submit to readable (latency without
  pipelining);
- PSNR of the blocks decoded by texture2ddecoder (RGB; BC4: against the
  luma the encoder computes from RGBA input; BC5: red and green), and
  whether they are
  the CPU path's blocks bit for bit (bc-encode-bench encodes the same frame
  once for the comparison).

BC6H and BC6H-SF (HDR_CONFIGS: bc6henc's GL path, quality fast and
normal; high, about 4 s a 1080p frame on llvmpipe, is measured apart on
crops, docs/performance.md) run at 1080p on
the photographs made HDR as bc6h.py makes them (sRGB decoded to linear
light, highlights expanded up to 31x), in PQ RGBA64_LE codes; its PSNR
column is the mPSNR (exposures -3 .. +3) of the blocks decoded by libgstbc
against the PQ codes' linear light, which bc-encode-gl-bench computes, and
it writes the CPU encoder's blocks of the same codes for the comparison.

Results go to results.json under "gl" and to a subsection of the
encode-bench section of docs/performance.md. Imported by run.py, which puts
benchmarks/ (benchlib) and tests/interop/ (the decoder and PSNR of the
interop test) on sys.path first. Run as a script it measures HDR_CONFIGS
alone and prints their JSON and table rows:

    glbench.py --gl-driver BUILD/benchmarks/encode/bc-encode-gl-bench \
        --manifest benchmarks/photos/cache/frames/manifest.json
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

if __name__ == "__main__":
    # run as a script: run.py's sys.path
    _HERE = Path(__file__).resolve().parent
    sys.path[:0] = [str(_HERE.parent),
                    str(_HERE.parent.parent / "tests" / "interop"),
                    str(_HERE)]

from benchlib import load_rgba, log, mean  # noqa: E402
from interop import psnr_channels, t2d_decode  # noqa: E402

# Published GPU encoders, on a 2006 NVIDIA GeForce 8800 GTX (constants, not
# measured here): J.M.P. van Waveren, "Real-Time DXT Compression" (2006) and
# van Waveren and Castano, "Real-Time YCoCg-DXT Compression" (2007).
GPU_ANCHORS = [
    ("van Waveren real-time DXT1 (BC1), GeForce 8800", "BC1", 1547.0),
    ("van Waveren and Castano real-time YCoCg-DXT5, GeForce 8800",
     "YCoCg-BC3", 939.0),
]


# Configurations that a software rasteriser runs at well under 1 Mpix/s
# (BC7 high on llvmpipe: about 14 s a 1080p frame): one run of the fewest
# frames (the timed run still pipelines two frames), so that the benchmark
# stays within minutes. Their speed is as informational as the others'
# on llvmpipe; the bytes are compared with the CPU's all the same.
SLOW_GL = {("BC7", "high")}

# HDR input (bc6henc's GL path), at 1080p: see the top
HDR_CONFIGS = [("BC6H", "fast"), ("BC6H", "normal"), ("BC6H-SF", "normal")]

# SMPTE ST 2084
PQ_M1 = 2610.0 / 16384.0
PQ_M2 = 2523.0 / 4096.0 * 128.0
PQ_C1 = 3424.0 / 4096.0
PQ_C2 = 2413.0 / 4096.0 * 32.0
PQ_C3 = 2392.0 / 4096.0 * 32.0


def pq_codes(path: Path, width: int, height: int, out: Path) -> None:
    """The photograph made HDR (bc6h.py's hdr_from_photo (): half floats,
    1.0 = 203 cd/m2) as full-range PQ RGBA64_LE codes, written to out"""
    import importlib.util

    import numpy as np

    # (by its path: tests/interop has a bc6h.py too)
    spec = importlib.util.spec_from_file_location(
        "bc6h_bench", Path(__file__).resolve().parent / "bc6h.py")
    bc6h = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bc6h)
    v = bc6h.hdr_from_photo(str(path), width, height)[..., :3].astype(
        np.float64)
    y = np.clip(v * 203.0 / 10000.0, 0.0, 1.0)
    p = y ** PQ_M1
    e = ((PQ_C1 + PQ_C2 * p) / (1.0 + PQ_C3 * p)) ** PQ_M2
    codes = np.full((height, width, 4), 65535, dtype="<u2")
    codes[..., :3] = np.floor(65535.0 * e + 0.5).astype("<u2")
    codes.tofile(out)


def best_run(cmd: list[str], reps: int) -> dict | None:
    """Best of reps runs of the bc-encode-gl-bench command cmd (by Mpix/s).
    None when the machine has no GL context that can run the encoder."""
    best = None
    for _ in range(reps):
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode == 77:
            return None
        if res.returncode != 0:
            raise RuntimeError(f"bc-encode-gl-bench failed: {res.stderr}")
        r = json.loads(res.stdout)
        if best is None or r["mpix_per_s"] > best["mpix_per_s"]:
            best = r
    return best


def run_hdr(driver: Path, frame: dict, codes: Path, fmt: str, quality: str,
            reps: int, min_time: float, out: Path,
            cpu_out: Path) -> dict | None:
    """Best of reps runs of bc-encode-gl-bench -f fmt (BC6H, BC6H-SF) at
    quality on the PQ codes; the GL blocks are left in out, the CPU's in
    cpu_out. None without a GL context that can run the encoder."""
    return best_run(
        [str(driver), "-f", fmt, "-q", quality, "-t", "pq", "-n", "3",
         "-m", str(min_time), "-W", str(frame["width"]),
         "-H", str(frame["height"]), "-i", str(codes), "-o", str(out),
         "-c", str(cpu_out)], reps)


def measure_hdr(gl_driver: Path, todo: list[dict], manifest_dir: Path,
                reps: int, min_time: float, tmp: Path) -> list[dict] | None:
    """HDR_CONFIGS on the 1080p photographs of todo; None without GL"""
    runs = []
    for frame in todo:
        if frame["kind"] != "1080p":
            continue
        codes = tmp / "pq.rgba64"
        pq_codes(manifest_dir / frame["file"], frame["width"],
                 frame["height"], codes)
        for fmt, quality in HDR_CONFIGS:
            r = run_hdr(gl_driver, frame, codes, fmt, quality, reps,
                        min_time, tmp / "gl.bc6h", tmp / "cpu.bc6h")
            if r is None:
                log("GL: no context that can run the encoder: skipped")
                return None
            blocks = (tmp / "gl.bc6h").read_bytes()
            cpu = (tmp / "cpu.bc6h").read_bytes()
            differ = sum(1 for i in range(0, len(cpu), 16)
                         if cpu[i:i + 16] != blocks[i:i + 16]) \
                if blocks != cpu else 0
            runs.append({
                "photo": frame["photo"], "size": frame["kind"],
                "width": frame["width"], "height": frame["height"],
                "format": fmt, "quality": quality,
                "mpix_per_s": r["mpix_per_s"], "gpu_ms": r["gpu_ms"],
                "single_frame_ms": r["single_frame_ms"],
                "psnr": r["mpsnr"], "psnr_cpu": r["mpsnr_cpu"],
                "blocks": len(cpu) // 16, "blocks_differ": differ,
                "renderer": r["renderer"], "version": r["version"]})
            log(f"{frame['name']:22} GL {fmt:9} {quality:6} "
                f"{r['mpix_per_s']:8.1f} Mpix/s {r['mpsnr']:6.2f} dB mPSNR "
                f"(CPU {r['mpsnr_cpu']:6.2f}), {differ} blocks differ")
    return runs


def run_gl(driver: Path, frame: dict, path: Path, fmt: str, quality: str,
           reps: int, min_time: float, out: Path) -> dict | None:
    """Best of reps runs of bc-encode-gl-bench; the blocks are left in out.
    None when the machine has no GL context that can run the encoder."""
    frames = 3
    if (fmt, quality) in SLOW_GL:
        reps, frames, min_time = 1, 1, 0.0
    return best_run(
        [str(driver), "-f", fmt, "-q", quality, "-n", str(frames),
         "-m", str(min_time), "-W", str(frame["width"]),
         "-H", str(frame["height"]), "-i", str(path), "-o", str(out)], reps)


def cpu_blocks(driver: Path, frame: dict, path: Path, fmt: str,
               quality: str, out: Path) -> bytes:
    subprocess.run(
        [str(driver), "encode", "-f", fmt, "-q", quality, "-t", "0",
         "-n", "0", "-W", str(frame["width"]), "-H", str(frame["height"]),
         "-i", str(path), "-o", str(out)],
        capture_output=True, text=True, check=True)
    return out.read_bytes()


def measure(gl_driver: Path, cpu_driver: Path, todo: list[dict],
            manifest_dir: Path, configs, new_configs, reps: int,
            min_time: float, tmp: Path) -> dict | None:
    """configs at every size, new_configs at 1080p only. PSNR is over what
    the format codes of the RGBA frame: BC4 the luma the encoder computes
    from RGBA input, BC5 red and green, the others RGB."""
    runs = []
    renderer = version = None
    for frame in todo:
        path = manifest_dir / frame["file"]
        src = load_rgba(path, frame["width"], frame["height"])
        todo_configs = list(configs)
        if frame["kind"] == "1080p":
            todo_configs += new_configs
        for fmt, quality in todo_configs:
            out = tmp / "gl.bc"
            r = run_gl(gl_driver, frame, path, fmt, quality, reps, min_time,
                       out)
            if r is None:
                log("GL: no context that can run the encoder: skipped")
                return None
            blocks = out.read_bytes()
            cpu = cpu_blocks(cpu_driver, frame, path, fmt, quality,
                             tmp / "cpu.bc")
            psnr = psnr_channels(fmt, t2d_decode(fmt, blocks, frame["width"],
                                                 frame["height"]), src)
            psnr_cpu = psnr_channels(fmt, t2d_decode(fmt, cpu, frame["width"],
                                                     frame["height"]), src)
            bs = 8 if fmt in ("BC1", "BC4") else 16
            differ = sum(1 for i in range(0, len(cpu), bs)
                         if cpu[i:i + bs] != blocks[i:i + bs]) \
                if blocks != cpu else 0
            renderer, version = r["renderer"], r["version"]
            runs.append({
                "photo": frame["photo"], "size": frame["kind"],
                "width": frame["width"], "height": frame["height"],
                "format": fmt, "quality": quality,
                "mpix_per_s": r["mpix_per_s"], "gpu_ms": r["gpu_ms"],
                "single_frame_ms": r["single_frame_ms"], "psnr": psnr,
                "psnr_cpu": psnr_cpu, "blocks": len(cpu) // bs,
                "blocks_differ": differ})
            gpu = "–" if r["gpu_ms"] is None else f"{r['gpu_ms']:.3f}"
            log(f"{frame['name']:22} GL {fmt:9} {quality:6} "
                f"{r['mpix_per_s']:8.1f} Mpix/s GPU {gpu} ms "
                f"{psnr:6.2f} dB (CPU {psnr_cpu:6.2f}), {differ} blocks "
                "differ")
    if new_configs:
        hdr = measure_hdr(gl_driver, todo, manifest_dir, reps, min_time, tmp)
        runs += hdr or []
    return {"renderer": renderer, "version": version, "runs": runs}


def markdown(gl: dict | None, configs) -> list[str]:
    lines = ["### GL compute path (`glupload ! bcNenc`)", ""]
    if not gl:
        return lines + ["Not measured in this run (no GL driver built, or "
                        "no GL context that can run compute shaders).", ""]
    lines += [
        f"Renderer: **{gl['renderer']}**, OpenGL {gl['version']}, "
        "through headless EGL. `bc-encode-gl-bench` runs the elements' GL "
        "encoder (`gst-libs/gst/bcgl/bcglencode.c`) on a texture holding the "
        "frame: frames pipelined as the element does (frame k queued, frame "
        "k - 1 waited for through its fence and copied out of the "
        "persistently mapped buffer), for at least the same time as the "
        "CPU runs; best of the same number of runs (but "
        f"{', '.join(f + ' ' + q for f, q in sorted(SLOW_GL))}: one run of "
        "two pipelined frames, see SLOW_GL in glbench.py); mean over the same "
        "photographs. *GPU ms/frame* is GL_TIME_ELAPSED around each "
        "dispatch; *1 frame ms* is one frame alone, from submit to readable "
        "blocks. *PSNR* is over RGB, for BC4 over the luma it encodes "
        "(77 R + 150 G + 29 B + 128) >> 8, for BC5 over red and green; "
        "BC6H and BC6H-SF (`bc6henc`'s GL path, `fast` and `normal`) encode "
        "the photographs "
        "made HDR as `bc6h.py` makes them, in PQ RGBA64_LE codes, and its "
        "PSNR is the mPSNR (exposures -3..+3) against their linear light. "
        "*ΔPSNR* is GL minus CPU path, *blocks differ* counts the "
        "blocks that are not the CPU path's bit for bit (summed over the "
        "photographs).",
        ""]
    if "llvmpipe" in (gl["renderer"] or ""):
        lines += [
            "llvmpipe is Mesa's CPU rasteriser: it runs the compute shader "
            "on this machine's cores (its own threads, vectorised by LLVM), "
            "so its Mpix/s say what the shader costs on a CPU, not what a "
            "GPU does, and its timer queries only time rasteriser work "
            "(they read about 0 for compute). On a machine with a GPU the "
            "same benchmark reports the GPU's numbers.",
            ""]
    sizes = [s for s in ("1080p", "2160p")
             if any(r["size"] == s for r in gl["runs"])]
    for size in sizes:
        label = {"1080p": "1920x1080", "2160p": "3840x2160"}[size]
        lines += [f"#### {label}", "",
                  "| format | quality | Mpix/s | GPU ms/frame | 1 frame ms "
                  "| PSNR dB | ΔPSNR vs CPU dB | blocks differ |",
                  "|---|---|---|---|---|---|---|---|"]
        for fmt, q in list(configs) + HDR_CONFIGS:
            rs = [r for r in gl["runs"] if r["size"] == size and
                  r["format"] == fmt and r["quality"] == q]
            if not rs:
                continue
            gpu = mean(r["gpu_ms"] for r in rs)
            dpsnr = mean(r["psnr"] - r["psnr_cpu"] for r in rs)
            differ = sum(r["blocks_differ"] for r in rs)
            total = sum(r["blocks"] for r in rs)
            mpix = mean(r["mpix_per_s"] for r in rs)
            lines.append(
                f"| {fmt} | {q} | {mpix:.{1 if mpix >= 10 else 2}f} "
                f"| {'–' if gpu is None else f'{gpu:.3f}'} | "
                f"{mean(r['single_frame_ms'] for r in rs):.1f} | "
                f"{mean(r['psnr'] for r in rs):.2f} | {dpsnr:+.4f} | "
                f"{differ} of {total} |")
        lines.append("")
    lines += ["Published GPU encoders for comparison (constants, not "
              "measured here):", "",
              "| encoder | format | Mpix/s |", "|---|---|---|"]
    for name, fmt, mpix in GPU_ANCHORS:
        lines.append(f"| {name} | {fmt} | {mpix:g} |")
    lines += ["",
              "Those encoders are single-pass (bounding-box endpoints, no "
              "least-squares refinement), closest to our `fast` level; "
              "`normal` adds a least-squares refinement, `high` two starts "
              "of four refinements and a search of neighbouring endpoints "
              "(about 30 palette fits per block instead of one).",
              ""]
    return lines


def main() -> int:
    """HDR_CONFIGS alone: their runs as JSON, then their table rows"""
    import argparse
    import tempfile

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--gl-driver", type=Path, required=True)
    ap.add_argument("--manifest", type=Path, required=True)
    ap.add_argument("--photos", default="")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--min-time", type=float, default=0.3)
    args = ap.parse_args()
    frames = json.loads(args.manifest.read_text())["frames"]
    todo = [f for f in frames if f["kind"] == "1080p" and
            (not args.photos or f["photo"] in args.photos.split(","))]
    with tempfile.TemporaryDirectory() as tmp:
        runs = measure_hdr(args.gl_driver, todo, args.manifest.parent,
                           args.reps, args.min_time, Path(tmp))
    if not runs:
        return 77
    print(json.dumps(runs, indent=1))
    gl = {"renderer": runs[0]["renderer"], "version": runs[0]["version"],
          "runs": runs}
    print("\n".join(line for line in markdown(gl, [])
                    if line.startswith("| BC6H")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
