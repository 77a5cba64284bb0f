#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The upload benchmark: runs bc-upload-bench (tilesink -> tilesrc ->
glbcupload -> fakesink on 127.0.0.1, headless GL) for every size and mode in
one run, profiles the zero-copy and the copy run with perf, and writes
benchmarks/upload/results.json and the upload-bench section of
docs/performance.md.

    run.py BC_UPLOAD_BENCH

Modes: zero copy + stepped upload (glbcupload's default behind tilesrc),
zero copy + whole-frame upload (stepped=false), copy-in (identity
drop-allocation=true keeps glbcupload's pool from tilesrc; every frame is
copied once). Frame rates are below what Mesa llvmpipe can decode and draw,
so that queues do not decide the latency. Standard library only.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import benchlib  # noqa: E402

RESULTS = os.path.join(HERE, "results.json")
BEGIN = "<!-- upload-bench:begin -->"
END = "<!-- upload-bench:end -->"

# (label, width, height, frames per second, seconds measured)
SIZES = [
    ("1080p", 1920, 1080, 8, 8),
    ("2160p", 3840, 2160, 2, 12),
    ("4320p", 7680, 4320, 1, 16),
]
MODES = [
    ("zero-copy, stepped", ["--stepped"]),
    ("zero-copy, frame", ["--frame"]),
    ("copy-in", ["--copy", "--frame"]),
]
UNITS = 4
WARMUP = 2


def run_bench(bench, width, height, rate, seconds, extra, prefix=()):
    cmd = list(prefix) + [bench, "-W", str(width), "-H", str(height), "-u",
                          str(UNITS), "--rate", str(rate), "--seconds",
                          str(seconds), "--warmup", str(WARMUP)] + extra
    benchlib.log("run.py: " + " ".join(cmd))
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit("run.py: bc-upload-bench failed (%d)" % p.returncode)
    return json.loads(p.stdout)


DRIVER = re.compile(r"swrast|_dri\.so|gallium|libLLVM|libEGL|libGL|glapi")


def classify(stack):
    """Who made a copy, from its call stack (innermost first): a list of
    "dso!symbol" (copytrace) or "symbol (dso)" (perf script) frames."""
    text = " ".join(stack)
    if "gst_buffer_extract" in text and "libgstglbc" in text:
        return "glbcupload copy-in (gst_buffer_extract)"
    if "gst_gl_bc_upload_transform" in text:
        return "glbcupload copy-in (gst_buffer_extract)"
    # the first frame outside libc says who called memcpy
    for f in stack:
        if re.search(r"libc\.so|memcpy|memmove", f):
            continue
        if DRIVER.search(f):
            return "GL driver (PBO to texture: a DMA on a GPU)"
        break
    if re.search(r"libgsttile|tilesrc|tilesink|gst_tile", text):
        return "tilesrc / tilesink"
    return "other (start-up: registry, shader compiler)"


def copytrace(bench, lib, width, height, rate, seconds, extra, label):
    """Every memcpy/memmove of >= 1 KiB in one run, counted by copytrace
    (LD_PRELOAD), in bytes per frame by caller."""
    if not lib or not os.path.exists(lib):
        return {"error": "libbc-copytrace.so not built"}
    tmp = tempfile.mkdtemp()
    out = os.path.join(tmp, "copies.txt")
    env_keep = {k: os.environ.get(k) for k in ("LD_PRELOAD",
                                               "BC_COPYTRACE_OUT")}
    os.environ["LD_PRELOAD"] = lib
    os.environ["BC_COPYTRACE_OUT"] = out
    try:
        result = run_bench(bench, width, height, rate, seconds, extra)
    finally:
        for k, v in env_keep.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    by_class = {}
    stacks = []
    with open(out) as f:
        for line in f:
            if line.startswith("#"):
                continue
            calls, nbytes, rest = line.rstrip("\n").split(" ", 2)
            stack = rest.split(" <- ")
            who = classify(stack)
            c = by_class.setdefault(who, {"calls": 0, "bytes": 0})
            c["calls"] += int(calls)
            c["bytes"] += int(nbytes)
            stacks.append((int(nbytes), int(calls), who, rest))
    shutil.rmtree(tmp, ignore_errors=True)
    s = result["glbcupload_stats"]
    frames = s["zero_copy_frames"] + s["copied_frames"]
    frame_bytes = ((width + 3) // 4) * ((height + 3) // 4) * 8
    for c in by_class.values():
        c["frames_per_frame"] = round(c["bytes"] / frames / frame_bytes, 4) \
            if frames else None
    stacks.sort(reverse=True)
    return {
        "label": label,
        "frames": frames,
        "frame_bytes": frame_bytes,
        "by_caller": by_class,
        "top_stacks": [{"bytes": b, "calls": c, "caller": w, "stack": st}
                       for b, c, w, st in stacks[:6]],
        "glbcupload_stats": s,
    }


def profile(bench, width, height, rate, seconds, extra, label):
    """perf record -g of one run: the share of samples in memcpy/memmove,
    by caller."""
    if not shutil.which("perf"):
        return {"error": "perf not installed"}
    tmp = tempfile.mkdtemp()
    data = os.path.join(tmp, "perf.data")
    try:
        result = run_bench(bench, width, height, rate, seconds, extra,
                           ["perf", "record", "-q", "-e", "cpu-clock",
                            "-F", "1999", "--call-graph", "dwarf,16384",
                            "-o", data, "--"])
        p = subprocess.run(["perf", "script", "-i", data, "-F",
                            "comm,ip,sym,dso"], capture_output=True,
                           text=True)
        if p.returncode != 0:
            return {"error": "perf script failed: " + p.stderr[-300:]}
    finally:
        pass
    shutil.rmtree(tmp, ignore_errors=True)
    # one sample: a line with the thread name, then its frames, indented
    samples = []
    for line in p.stdout.splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            samples.append([])
        elif samples:
            # "addr symbol (dso)"
            samples[-1].append(line.strip().split(" ", 1)[-1])
    copies = {}
    for st in samples:
        # user-space copies only: the kernel's socket receive is the one
        # copy every path has (into the GL buffer, on the zero-copy path)
        if not st or "kernel" in st[0] or not re.search(r"mem(cpy|move)",
                                                         st[0]):
            continue
        who = classify(st)
        copies[who] = copies.get(who, 0) + 1
    n = len(samples)
    return {
        "label": label,
        "samples": n,
        "memcpy_samples_by_caller": copies,
        "memcpy_share_by_caller": {k: round(v / n, 4)
                                   for k, v in copies.items()} if n else {},
        "glbcupload_stats": result["glbcupload_stats"],
    }


def ratio(a, b):
    return round(a / b, 3) if b else None


def markdown(res):
    lines = [BEGIN, ""]
    lines.append("Written by `benchmarks/upload/run.sh` on %s (%s, %d cores, "
                 "GL renderer: Mesa llvmpipe, headless EGL). One run; BC1, %d "
                 "units, `tilesink` → `tilesrc stepped=true` → `identity` → "
                 "`glbcupload` → `fakesink` in one process on 127.0.0.1."
                 % (res["date"], res["machine"], res["cores"], UNITS))
    lines.append("")
    lines.append("llvmpipe decodes and draws on the CPU, so absolute numbers "
                 "say little about a GPU: compare the modes within a size. "
                 "Frame rates are set below what llvmpipe can draw (1080p "
                 "8/s, 2160p 2/s, 4320p 1/s) so that no queue builds up.")
    lines.append("")
    lines.append("- *transform*: buffer enters glbcupload → output leaves it "
                 "(the rows not uploaded yet + the draw, submitted on the GL "
                 "thread).")
    lines.append("- *ready*: buffer enters glbcupload → its output texture is "
                 "ready (`gst_gl_sync_meta_wait_cpu()` on the draw's fence "
                 "returns).")
    lines.append("- *delivery*: the sender's wall clock when `tilesink` got "
                 "the frame → texture ready (end to end).")
    lines.append("- *tilesrc*: the same start → `tilesrc` pushes the frame.")
    lines.append("")
    lines.append("| size | mode | frames | zero-copy / copied | stepped / "
                 "frame uploads | transform p50 | ready p50 | delivery p50 / "
                 "p95 | tilesrc p50 |")
    lines.append("|---|---|---|---|---|---|---|---|---|")
    for r in res["runs"]:
        s = r["glbcupload_stats"]
        lines.append("| %s | %s | %d | %d / %d | %d / %d | %.2f ms | %.1f ms "
                     "| %.1f / %.1f ms | %.2f ms |" % (
                         r["size"], r["mode"], r["delivery_ms"]["n"],
                         s["zero_copy_frames"], s["copied_frames"],
                         s["stepped_uploads"], s["frame_uploads"],
                         r["transform_ms"]["p50"], r["ready_ms"]["p50"],
                         r["delivery_ms"]["p50"], r["delivery_ms"]["p95"],
                         r["tilesrc_latency_ms"]["p50"]))
    lines.append("")
    lines.append("Ratios (delivery p50): ")
    lines.append("")
    lines.append("| size | stepped / frame | zero-copy / copy-in (frame "
                 "upload both) |")
    lines.append("|---|---|---|")
    for size, rr in res["ratios"].items():
        lines.append("| %s | %s | %s |" % (size, rr["stepped_vs_frame"],
                                           rr["zerocopy_vs_copy"]))
    lines.append("")
    copies = res.get("copies", {})
    if copies:
        lines.append("Where the CPU copies frame data, counted exactly: "
                     "`copytrace` (`benchmarks/upload/copytrace.c`, "
                     "LD_PRELOAD) counts every `memcpy`/`memmove` of at "
                     "least 1 KiB by call stack. Frames copied per frame "
                     "received, 2160p:")
        lines.append("")
        lines.append("| run | frames | glbcupload copy-in | tilesrc / "
                     "tilesink | GL driver (PBO to texture) | other | GPU "
                     "time per frame |")
        lines.append("|---|---|---|---|---|---|---|")
        for key in ("zero_copy_stepped", "zero_copy_frame", "copy"):
            r = copies.get(key, {})
            if "error" in r or not r:
                lines.append("| %s | — | %s | | | |" % (key, r.get("error")))
                continue
            bc = r["by_caller"]

            def fpf(prefix):
                v = sum(c["frames_per_frame"] or 0 for k, c in bc.items()
                        if k.startswith(prefix))
                return "%.4f" % v
            st = r["glbcupload_stats"]
            timed = st.get("gpu_timed_frames", 0)
            lines.append("| %s | %d | %s | %s | %s | %s | %s |" % (
                r["label"], r["frames"], fpf("glbcupload"), fpf("tilesrc"),
                fpf("GL driver"), fpf("other"), "%.1f ms" % (
                    st["gpu_time_ns"] / timed / 1e6) if timed else "–"))
        lines.append("")
        lines.append("The GL driver's copy is Mesa llvmpipe moving the "
                     "compressed blocks from the pixel-unpack buffer into "
                     "its texture, inside `glCompressedTexSubImage2D`; on a "
                     "GPU that is the GPU reading GPU-visible memory. The "
                     "kernel's copy from the socket into the GL buffer is "
                     "the receive itself. \"other\" is start-up (the "
                     "plugin registry, the shader compiler). These runs set "
                     "`gpu-timing=true`: the GPU time is glbcupload's "
                     "`GL_TIME_ELAPSED` queries around the last rows' upload "
                     "and the draw (on llvmpipe it spans its rasteriser's "
                     "queue); the latency runs above leave it off.")
        lines.append("")
    prof = res.get("profile", {})
    if prof:
        lines.append("Where the CPU copies frame data (`perf record -e "
                     "cpu-clock -F 1999 --call-graph dwarf` of the 2160p runs; "
                     "share of all samples whose leaf is a user-space "
                     "`memcpy`/`memmove`, by caller; a sampling check of "
                     "the count above):")
        lines.append("")
        lines.append("| run | samples | memcpy by caller | glbcupload "
                     "zero-copy / copied frames |")
        lines.append("|---|---|---|---|")
        for key in ("zero_copy", "copy"):
            p = prof.get(key, {})
            if "error" in p or not p:
                lines.append("| %s | — | %s | — |" % (key, p.get("error")))
                continue
            share = ", ".join("%s %.2f %%" % (k, 100 * v) for k, v in
                              sorted(p["memcpy_share_by_caller"].items()))
            lines.append("| %s | %d | %s | %d / %d |" % (
                p["label"], p["samples"], share or "none",
                p["glbcupload_stats"]["zero_copy_frames"],
                p["glbcupload_stats"]["copied_frames"]))
        lines.append("")
    lines.append("Bars:")
    lines.append("")
    for bar in res["bars"]:
        lines.append("- %s: **%s** — %s" % (bar["bar"], "met" if bar["met"]
                                             else "NOT met", bar["detail"]))
    lines.append("")
    lines.append(END)
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    bench = argv[1]
    res = {
        "date": benchlib.utc_date(),
        "machine": benchlib.cpu_model(),
        "cores": os.cpu_count(),
        "units": UNITS,
        "runs": [],
        "ratios": {},
    }
    for size, w, h, rate, secs in SIZES:
        by_mode = {}
        for mode, extra in MODES:
            r = run_bench(bench, w, h, rate, secs, extra)
            r["size"] = size
            r["mode"] = mode
            res["runs"].append(r)
            by_mode[mode] = r
        d = {m: by_mode[m]["delivery_ms"]["p50"] for m in by_mode}
        res["ratios"][size] = {
            "stepped_vs_frame": ratio(d["zero-copy, stepped"],
                                      d["zero-copy, frame"]),
            "zerocopy_vs_copy": ratio(d["zero-copy, frame"], d["copy-in"]),
        }

    lib = os.path.join(os.path.dirname(os.path.abspath(bench)),
                       "libbc-copytrace.so")
    res["copies"] = {
        "zero_copy_stepped": copytrace(bench, lib, 3840, 2160, 2, 6,
                                       ["--stepped", "--gpu-timing"],
                                       "2160p zero-copy, stepped"),
        "zero_copy_frame": copytrace(bench, lib, 3840, 2160, 2, 6,
                                     ["--frame", "--gpu-timing"],
                                     "2160p zero-copy, frame"),
        "copy": copytrace(bench, lib, 3840, 2160, 2, 6, ["--copy", "--frame",
                                                   "--gpu-timing"],
                          "2160p copy-in"),
    }
    res["profile"] = {
        "zero_copy": profile(bench, 3840, 2160, 2, 6, ["--stepped"],
                             "2160p zero-copy, stepped"),
        "copy": profile(bench, 3840, 2160, 2, 6, ["--copy", "--frame"],
                        "2160p copy-in"),
    }

    bars = []
    zc = [r for r in res["runs"] if r["mode"] != "copy-in"]
    zc_ok = all(r["glbcupload_stats"]["copied_frames"] == 0 and
                r["glbcupload_stats"]["zero_copy_frames"] > 0 for r in zc)
    ours = ("glbcupload copy-in (gst_buffer_extract)", "tilesrc / tilesink")

    def copied(run, who):
        c = run.get("by_caller", {}).get(who)
        return c["frames_per_frame"] if c else 0.0

    cc = res["copies"]["copy"]
    # the copy-in run is the control: the tracer must see its one copy of
    # every frame, or it cannot show the absence of one
    control = "error" not in cc and copied(cc, ours[0]) >= 0.99
    trace_ok = control and all(
        "error" not in r and all(copied(r, w) < 0.01 for w in ours)
        for k, r in res["copies"].items() if k != "copy")
    pz = res["profile"]["zero_copy"]
    pc = res["profile"]["copy"]
    perf_seen = "error" not in pc and pc["memcpy_samples_by_caller"].get(
        ours[0], 0) > 0
    perf_ok = perf_seen and "error" not in pz and not any(
        pz["memcpy_samples_by_caller"].get(w, 0) for w in ours)
    bars.append({
        "bar": "zero copy: no CPU copy of frame data between the socket and "
               "the GL buffer",
        "met": zc_ok and trace_ok,
        "detail": "copied-frames %s in every zero-copy run; copytrace "
                  "(every memcpy/memmove >= 1 KiB): %s; perf: %s" % (
                      "0" if zc_ok else "NOT 0",
                      "glbcupload/tilesrc copy %.4f / %.4f frames per frame "
                      "zero-copy (stepped / frame) vs %.4f in the copy-in "
                      "control" % (
                          max(copied(res["copies"]["zero_copy_stepped"], w)
                              for w in ours),
                          max(copied(res["copies"]["zero_copy_frame"], w)
                              for w in ours), copied(cc, ours[0]))
                      if control else "the copy-in control run does not "
                      "show glbcupload's copy: the trace cannot tell",
                      "no memcpy sample from glbcupload or tilesrc in the "
                      "zero-copy run, %d in the copy-in control" %
                      pc["memcpy_samples_by_caller"].get(ours[0], 0)
                      if perf_ok else "control without samples of the copy "
                      "(too few samples)" if not perf_seen else
                      "memcpy samples from glbcupload or tilesrc FOUND"),
    })
    for size, rr in res["ratios"].items():
        st = next(r for r in res["runs"] if r["size"] == size and
                  r["mode"] == "zero-copy, stepped")
        fr = next(r for r in res["runs"] if r["size"] == size and
                  r["mode"] == "zero-copy, frame")
        bars.append({
            "bar": "stepped upload lowers end-to-end delivery latency (%s)"
                   % size,
            "met": st["delivery_ms"]["p50"] < fr["delivery_ms"]["p50"],
            "detail": "delivery p50 %.2f ms stepped vs %.2f ms whole-frame "
                      "(ratio %s; the thesis: 24 vs 29 ms)" % (
                          st["delivery_ms"]["p50"], fr["delivery_ms"]["p50"],
                          rr["stepped_vs_frame"]),
        })
    res["bars"] = bars

    benchlib.write_json(RESULTS, res)
    benchlib.write_doc_section(markdown(res), BEGIN, END,
                               heading="## Upload (glbcupload)\n\n")
    print("run.py: wrote %s and %s" % (RESULTS, benchlib.DOC))
    for b in bars:
        print("  %s: %s (%s)" % ("met" if b["met"] else "NOT met", b["bar"],
                                 b["detail"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
