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

Results go to results.json under "gl" and to a subsection of the
encode-bench section of docs/performance.md. Imported by run.py, which puts
benchmarks/ (benchlib) and tests/interop/ (the decoder and PSNR of the
interop test) on sys.path first.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from benchlib import load_rgba, log, mean
from interop import psnr_channels, t2d_decode

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


def run_gl(driver: Path, frame: dict, path: Path, fmt: str, quality: str,
           reps: int, min_time: float, out: Path) -> dict | None:
    """Best of reps runs of bc-encode-gl-bench; the blocks are left in out.
    None when the machine has no GL context that can run the encoder."""
    best = None
    frames = 3
    if (fmt, quality) in SLOW_GL:
        reps, frames, min_time = 1, 1, 0.0
    for _ in range(reps):
        res = subprocess.run(
            [str(driver), "-f", fmt, "-q", quality, "-n", str(frames),
             "-m", str(min_time), "-W", str(frame["width"]),
             "-H", str(frame["height"]), "-i", str(path), "-o", str(out)],
            capture_output=True, text=True)
        if res.returncode == 77:
            return None
        if res.returncode != 0:
            raise RuntimeError(f"bc-encode-gl-bench failed: {res.stderr}")
        r = json.loads(res.stdout)
        if best is None or r["mpix_per_s"] > best["mpix_per_s"]:
            best = r
    return best


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
        "(77 R + 150 G + 29 B + 128) >> 8, for BC5 over red and green. "
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
        for fmt, q in configs:
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
