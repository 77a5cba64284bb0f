#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Time benchmark: tilesrc's shared clock (clock=sender) and playout latency
(latency=N) between network namespaces, measured where a viewer would see
them: when the sink renders.

Run through benchmarks/time/run.sh, which builds the plugins and
tests/netns/tile-time-check and installs what is missing (iproute2,
faketime). The scenarios and their measurements are those of the netns test
(tests/netns/time_scenarios.py, imported here: see its head for the
network, the stamped frames and where each time is taken), run longer and
without its bounds:

- sync: one sender, receiver 1 behind a 1 Gbit/s tbf, receiver 2 behind a
  300 Mbit/s tbf, 1280x720 BC1-sized frames at 30/s, `tilesrc latency=80 !
  fakesink sync=true processing-deadline=0`: the difference between the
  two receivers' render instants of the same frame, and render - capture
  at each;
- before: the same with `tilesrc clock=none ! fakesink sync=false`;
- faketime: receiver 1 with CLOCK_REALTIME 3 s ahead (libfaketime,
  CLOCK_MONOTONIC left alone), clock=sender and clock=system: tilesrc's
  latency-p50 against the real capture -> push delay;
- render: 1080p60 `videotestsrc is-live=true ! bc1enc ! tilesink` ->
  `tilesrc latency=50 ! bcdec ! videoconvert ! fakesink sync=true`:
  rendered, dropped, frames-late;
- wall: four receivers of one 3840x2160 BC1 sender (5/s, 8 units), each
  `region=` a quarter, all behind the 1 Gbit/s path (its tbf queue 200 ms),
  `latency=150 ! fakesink sync=true processing-deadline=0`: the spread of
  the four render instants of each frame, and the bytes each got;
- av-sync: examples/av-sync --measure: audio (Opus over RTP, rtpbin)
  beside the video (tilesink/tilesrc), both ends in one process on
  127.0.0.1, the receiver on tilesrc's clock: how long after its capture
  each stream presents its marker (a white frame, a tick), and the skew;
- cadence: receiver 2 with UDP bursts through its tbf, `tilesrc latency=80
  ! queue ! fakesink sync=true processing-deadline=0`: the intervals between
  renders and between tilesrc's pushes; cadence-system: the same with
  clock=system (the host's own clock, which the sender's is here too): the
  floor of what this machine's scheduling adds.

Writes benchmarks/time/results.json and the section between
<!-- time-bench:begin --> and <!-- time-bench:end --> of
docs/performance.md; prints the section. --quick: 6 s a scenario, writes
results-quick.json only.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent.parent
sys.path.insert(0, str(SRC / "benchmarks"))
sys.path.insert(0, str(SRC / "tests" / "netns"))
import benchlib  # noqa: E402
from benchlib import log  # noqa: E402
import time_scenarios as ts  # noqa: E402

MARK_BEGIN = "<!-- time-bench:begin -->"
MARK_END = "<!-- time-bench:end -->"
ORDER = ("sync", "before", "faketime", "render", "wall", "av-sync",
         "cadence", "cadence-system")


def run_av_sync(build: Path, seconds: float) -> dict:
    """examples/av-sync --measure: the markers' delays and the skew."""
    import json
    import os
    import re
    env = dict(os.environ, GST_PLUGIN_PATH=str(build / "gst"))
    p = subprocess.run([str(build / "examples" / "av-sync"), "--measure",
                        "--seconds", str(max(10, int(seconds)))],
                       capture_output=True, text=True, env=env,
                       timeout=seconds + 60)
    markers = []
    summary = {}
    for line in p.stdout.splitlines():
        m = re.match(r"marker \d+: video presented ([\d.]+) ms after its "
                     r"capture, audio ([\d.]+) ms: skew ([+-][\d.]+) ms",
                     line)
        if m:
            markers.append({"video_ms": float(m[1]), "audio_ms": float(m[2]),
                            "skew_ms": float(m[3])})
        elif line.startswith("{"):
            summary = json.loads(line)
    return {"exit": p.returncode, "marker_list": markers, **summary}


def git_describe() -> str:
    r = subprocess.run(["git", "-C", str(SRC), "describe", "--always",
                        "--dirty"], capture_output=True, text=True)
    return r.stdout.strip() or "?"


def f(v, nd=2):
    if v is None:
        return "-"
    return f"{v:.{nd}f}"


def strip_raw(results: dict) -> dict:
    """The results without the per-frame records (kept apart)."""
    return {k: {kk: vv for kk, vv in v.items() if not kk.startswith("_raw")}
            for k, v in results.items()}


def frames_only(results: dict) -> dict:
    """Per scenario and receiver: the frame records, [frame, capture,
    arrival, render, render_realtime, pts] (ns, CLOCK_MONOTONIC; -1
    unknown)."""
    out = {}
    for k, v in results.items():
        for kk, vv in v.items():
            if not kk.startswith("_raw"):
                continue
            if "frames" in vv:
                out[f"{k}{kk[4:]}"] = vv.get("frames")
            else:
                for rk, rv in vv.items():
                    if isinstance(rv, dict) and "frames" in rv and \
                            rv.get("role") == "receive":
                        out[f"{k}.{rk}"] = rv["frames"]
    return out


def targets(r: dict) -> list:
    """The issue's targets, each (what, measured, met)."""
    out = []
    if "sync" in r:
        s = r["sync"]
        sk = s["skew"]
        out.append(("the same frame rendered at both receivers within p50 "
                    "<= 1 ms, p99 <= 3 ms",
                    f"p50 {f(sk['p50'])} ms, p99 {f(sk['p99'])} ms",
                    sk["p50"] is not None and sk["p50"] <= 1
                    and sk["p99"] <= 3))
        for i in (1, 2):
            d = s[f"rx{i}"]["render_after_capture"]
            out.append((f"rendered 80 +/- 5 ms after capture, receiver {i} "
                        f"({ts.LINKS[i]})",
                        f"p1 {f(d['p1'])} / p50 {f(d['p50'])} / p99 "
                        f"{f(d['p99'])} ms (min {f(d['min'])}, max "
                        f"{f(d['max'])})",
                        d["p1"] is not None and 75 <= d["p1"]
                        and d["p99"] <= 85))
    if "faketime" in r:
        fs, fy = r["faketime"]["sender"], r["faketime"]["system"]
        ls = fs["src"]["latency-p50"]
        real = fs["arrival_after_capture"]["p50"]
        out.append(("receiver 3 s ahead, clock=sender: latency-p50 near the "
                    "real delay",
                    f"{f(ts.ms(ls))} ms against {f(real)} ms real "
                    f"(clock=system: {f(ts.ms(fy['src']['latency-p50']), 0)}"
                    " ms)",
                    ls is not None and real is not None
                    and abs(ts.ms(ls) - real) <= 2))
    if "render" in r:
        x = r["render"]
        ratio = x["rendered_of_received"]
        out.append(("1080p60, latency=50, bcdec, fakesink sync=true: >= 99 "
                    "% rendered, none late",
                    f"{x['rendered']} of {x['received']} "
                    f"({f(100 * ratio if ratio else None)} %), dropped "
                    f"{x['dropped']}, frames-late {x['src']['frames-late']}",
                    ratio is not None and ratio >= 0.99
                    and not x["src"]["frames-late"] and not x["dropped"]))
    if "wall" in r:
        x = r["wall"]
        sp = x["spread"]
        out.append(("the wall: four quarter receivers present every frame "
                    "at the same instant",
                    f"spread of the four render instants p50 "
                    f"{f(sp['p50'])} / p99 {f(sp['p99'])} / max "
                    f"{f(sp['max'])} ms over {x['frames_at_all_four']} "
                    "frames",
                    sp["p99"] is not None and sp["p99"] <= 3))
    if "av-sync" in r:
        a = r["av-sync"]
        out.append(("audio beside the video, in sync within one video frame",
                    f"skew p50 {f(a.get('skew_p50_ms'))} ms, max "
                    f"{f(a.get('skew_max_ms'))} ms over "
                    f"{a.get('markers')} markers (a frame: "
                    f"{f(a.get('frame_ms'), 1)} ms)",
                    a.get("exit") == 0))
    if "cadence" in r:
        c = r["cadence"]
        rd, ad = c["render_interval_dev"], c["arrival_interval_dev"]
        out.append(("with UDP bursts: render intervals within +/- 1 ms of "
                    "the frame interval (p99)",
                    f"p1 {f(rd['p1'])} / p99 {f(rd['p99'])} ms (|dev| p99 "
                    f"{f(rd['abs_p99'])}); arrivals p1 {f(ad['p1'])} / p99 "
                    f"{f(ad['p99'])} ms",
                    rd["p1"] is not None and rd["p1"] >= -1
                    and rd["p99"] <= 1))
    return out


def markdown(res: dict) -> str:
    r = res["results"]
    m = res["machine"]
    L = [MARK_BEGIN, "", "## Time: one clock, presentation at capture + "
         "latency", ""]
    L.append(
        f"Measured {res['date']} at gst-bc {res['git']} on {m['cpu']} "
        f"({m['cpu_count']} cores), Linux {m['kernel']}, GStreamer "
        f"{m['gstreamer']}; {res['wall_s']:.0f} s for the whole run "
        f"(`{res['command']}`), one run, {res['seconds']:.0f} s measured "
        f"per scenario after {res['skip']:.0f} s. Other processes used "
        f"{res['other_cores']:.2f} cores over the run: on this 2-core "
        "machine the sender, the receivers, the kernel's packet work and "
        "whatever else runs share the cores, and a late wake-up of a sink's "
        "thread is a late render.")
    L.append("")
    L.append(
        "Method (`benchmarks/time/run.sh`, the scenarios of "
        "`tests/netns/time_scenarios.py` run longer): three network "
        "namespaces on this host, a sender and two receivers, each receiver "
        "on a veth pair of its own with a tbf qdisc on the sender's end "
        f"(receiver 1: `tbf {ts.tbf_spec('1gbit')}`, receiver 2: `tbf "
        f"{ts.tbf_spec('300mbit')}`; this kernel has no netem). Both ends "
        "are `tests/netns/tile-time-check`. The sender pushes 1280x720 "
        "BC1-sized frames (460800 pseudo-random bytes) at 30/s from "
        "`appsrc is-live=true` into `tilesink host=0.0.0.0 units=4` (TCP, "
        "the other properties at their defaults), each stamped with its "
        "number and its capture time: the sender pipeline clock's time when "
        "it is made (a GstSystemClock, CLOCK_MONOTONIC), which is also its "
        "PTS (less the base time), so tilesink puts that instant on the "
        "wire. Each receiver runs `tilesrc name=src ... ! fakesink "
        "name=sink` and reads CLOCK_MONOTONIC (i) when the sink renders the "
        "frame, in fakesink's `handoff` signal, which `render()` emits "
        "after the clock wait of `sync=true`, and (ii) when the frame "
        "leaves tilesrc, in a buffer probe on tilesrc's src pad. The "
        "namespaces share the host's clocks, so these instants and the "
        "stamped capture are on one time line: *render - capture* is when "
        "a viewer would see the frame, *skew* the render at receiver 1 "
        "minus the render of the same frame (by number) at receiver 2. "
        "The receivers take LATENCY messages and a lost clock as "
        "`gst-launch-1.0` does. Percentiles are nearest rank over the "
        "measured frames.")
    L.append("")

    if "sync" in r and "before" in r:
        L.append("### Two receivers, 1 Gbit/s and 300 Mbit/s: render "
                 "instants (ms)")
        L.append("")
        L.append("| receivers | skew p50 / p99 / max | receiver 1 (1 "
                 "Gbit/s): render - capture p1 / p50 / p99 | receiver 2 "
                 "(300 Mbit/s): render - capture p1 / p50 / p99 | frames "
                 "| tilesrc frames-late (1 / 2) |")
        L.append("|---|---|---|---|---|---|")
        for key, label in (("sync", "`tilesrc latency=80 ! fakesink "
                            "sync=true processing-deadline=0`"),
                           ("before", "`tilesrc clock=none ! fakesink "
                            "sync=false` (no shared clock)")):
            s = r[key]
            sk = s["skew"]
            cells = []
            for i in (1, 2):
                d = s[f"rx{i}"]["render_after_capture"]
                cells.append(f"{f(d['p1'])} / {f(d['p50'])} / "
                             f"{f(d['p99'])}")
            late = " / ".join(str(s[f"rx{i}"]["src"]["frames-late"]
                                  if s[f"rx{i}"]["src"]["frames-late"]
                                  is not None else "-") for i in (1, 2))
            L.append(f"| {label} | {f(sk['p50'])} / {f(sk['p99'])} / "
                     f"{f(sk['max'])} | {cells[0]} | {cells[1]} | "
                     f"{sk['n']} | {late} |")
        L.append("")
        b = r["before"]
        L.append(
            "Without the shared clock (`clock=none`, `sync=false`, a "
            "render as soon as a frame is whole) the render follows the "
            "path: "
            f"{f(b['rx1']['render_after_capture']['p50'])} ms after capture "
            "behind 1 Gbit/s, "
            f"{f(b['rx2']['render_after_capture']['p50'])} ms behind 300 "
            f"Mbit/s (a frame is 460800 bytes: 3.7 ms on the first link, "
            f"12.3 ms on the second, plus the tbf's bursts and the hosts' "
            f"work), so the two receivers show the same frame "
            f"{f(abs(b['skew']['signed_p50']) if b['skew']['signed_p50'] is not None else None)} "
            "ms apart (p50). With the shared clock and `latency=80` both "
            "render it at capture + 80 ms, whatever the path.")
        L.append("")

    if "faketime" in r:
        ft = r["faketime"]
        L.append("### A receiver whose realtime clock is 3 s ahead")
        L.append("")
        L.append(
            "Receiver 1 runs under `faketime -f +3s` with "
            "`FAKETIME_DONT_FAKE_MONOTONIC=1` (libfaketime: the process's "
            "CLOCK_REALTIME 3 s ahead, its CLOCK_MONOTONIC the host's; with "
            "CLOCK_MONOTONIC faked too, every GStreamer clock wait hangs, "
            "`videotestsrc ! fakesink sync=true` included, so that is no "
            "test of tilesrc), `tilesrc clock=... latency=80 ! queue ! "
            "fakesink sync=true processing-deadline=0`. *Real delay*: "
            "capture -> the push out of tilesrc (probe - stamp, "
            "CLOCK_MONOTONIC); the queue takes each frame as it is pushed, "
            "so the probe is not held back by the sink's wait.")
        L.append("")
        L.append("| clock | tilesrc latency-p50 / p99 (ms) | real delay "
                 "p50 / p99 (ms) | render - capture p50 (ms) | rendered | "
                 "frames-late | frames-retimed |")
        L.append("|---|---|---|---|---|---|---|")
        for mode in ("sender", "system"):
            x = ft[mode]
            L.append(f"| `{mode}` | {f(ts.ms(x['src']['latency-p50']))} / "
                     f"{f(ts.ms(x['src']['latency-p99']))} | "
                     f"{f(x['arrival_after_capture']['p50'])} / "
                     f"{f(x['arrival_after_capture']['p99'])} | "
                     f"{f(x['render_after_capture']['p50'])} | "
                     f"{x['sink']['rendered']} | {x['src']['frames-late']} "
                     f"| {x['src']['frames-retimed']} |")
        L.append("")

    if "render" in r:
        x = r["render"]
        L.append("### 1080p60 through bcdec with `latency=50`")
        L.append("")
        L.append(
            f"Sender `{x['sender']}`; receiver (1 Gbit/s path) "
            f"`{x['pipeline']}` (the issue's `autovideosink` needs a "
            "display, which this headless machine has not: `fakesink "
            "sync=true` has the same clock wait). Counted from the "
            "receiver's start to its stop: fakesink's `stats` (rendered, "
            "dropped) and tilesrc's (frames pushed, frames-late).")
        L.append("")
        L.append("| tilesrc pushed | rendered | rendered / pushed | "
                 "dropped (fakesink) | frames-late (tilesrc) | rendered "
                 "frames/s | playout latency |")
        L.append("|---|---|---|---|---|---|---|")
        ratio = x["rendered_of_received"]
        L.append(f"| {x['received']} | {x['rendered']} | "
                 f"{f(100 * ratio if ratio else None)} % | {x['dropped']} "
                 f"| {x['src']['frames-late']} | {f(x['render_rate'])} | "
                 f"{f(ts.ms(x['src']['playout-latency']), 0)} ms |")
        L.append("")
        L.append("The frames pushed but not rendered are those still "
                 "between tilesrc and the sink when the receiver stops "
                 "(its last 50 ms).")
        L.append("")

    if "wall" in r:
        x = r["wall"]
        sp = x["spread"]
        L.append("### The video wall: four quarters of 3840x2160")
        L.append("")
        L.append(
            f"The sender pushes {x['size']} BC1-sized frames at "
            f"{x['fps']}/s into `tilesink units={x['units']}`; four "
            "receivers, all behind the 1 Gbit/s path (its tbf: "
            f"`{x['tbf']}`: the four quarters' tiles of a frame leave at "
            "once, 9.3 MB, which a 20 ms queue would drop into TCP's 200 ms "
            "retransmission timeout), each `tilesrc latency=150 "
            "region=X,Y,1920,1080 ! fakesink sync=true "
            "processing-deadline=0` with its quarter. A frame is told "
            "apart by its PTS plus the base time: its capture on the shared "
            "clock, the same at every receiver. *Spread*: the latest of the "
            "four render instants of a frame minus the earliest. Tiles are "
            "rows, so a quarter needs the rows of its half, rounded out to "
            "whole tiles.")
        L.append("")
        L.append("| frames at all four | spread p50 / p99 / max (ms) | "
                 "quarter: render - capture p50 (ms), bytes / frame bytes, "
                 "frames-late |")
        L.append("|---|---|---|")
        qs = "; ".join(
            f"{x[f'rx{q}']['region']}: "
            f"{f(x[f'rx{q}']['render_after_capture']['p50'])}, "
            f"{f(x[f'rx{q}']['bytes_per_frame_of_frame'])}, "
            f"{x[f'rx{q}']['src']['frames-late']}" for q in range(4))
        L.append(f"| {x['frames_at_all_four']} | {f(sp['p50'])} / "
                 f"{f(sp['p99'])} / {f(sp['max'])} | {qs} |")
        L.append("")
    if "av-sync" in r:
        a = r["av-sync"]
        L.append("### Audio beside the video")
        L.append("")
        L.append(
            "`examples/av-sync --measure` (both ends in one process, "
            "127.0.0.1): the sender pipeline sends 320x240 GRAY8 at 30/s "
            "through `tilesink` and `audiotestsrc is-live=true wave=ticks` "
            "(a tick every second) through `opusenc ! rtpopuspay ! rtpbin "
            "ntp-time-source=clock-time rtcp-sync-send-time=false`; every "
            "frame that starts a second is white. The receiver pipeline "
            "runs on tilesrc's clock: `tilesrc latency=150 ! fakesink "
            "sync=true` and `udpsrc ! rtpbin ntp-sync=true "
            "ntp-time-source=clock-time buffer-mode=synced latency=150 ! "
            "rtpopusdepay ! opusdec ! fakesink sync=true` (both "
            "processing-deadline=0). The sinks' `handoff` (after the clock "
            "wait) note when a white frame and a tick's first loud sample "
            "are presented; the sender's probes note when they were "
            "captured (the white frame's timestamp; the tick's first loud "
            "sample before the encoder). Each stream's delay from capture "
            "to presentation, and the skew (audio's minus video's), per "
            "marker; the first four seconds left out (rtpbin lines the "
            "audio up from the first RTCP sender reports).")
        L.append("")
        L.append("| markers | video: capture -> presented p50 (ms) | audio: "
                 "capture -> presented p50 (ms) | skew p50 / max (ms) | a "
                 "video frame (ms) |")
        L.append("|---|---|---|---|---|")
        mk = a.get("marker_list") or []
        vm = sorted(x["video_ms"] for x in mk) if isinstance(mk, list) else []
        am = sorted(x["audio_ms"] for x in mk) if isinstance(mk, list) else []
        n = len(vm)
        L.append(f"| {n} | {f(vm[(n - 1) // 2] if n else None)} | "
                 f"{f(am[(n - 1) // 2] if n else None)} | "
                 f"{f(a.get('skew_p50_ms'))} / {f(a.get('skew_max_ms'))} | "
                 f"{f(a.get('frame_ms'), 1)} |")
        L.append("")

    if "cadence" in r:
        L.append("### Cadence with bursts of other traffic (ms, interval - "
                 "33.33)")
        L.append("")
        c = r["cadence"]
        L.append(
            "Receiver 2 (300 Mbit/s) while a UDP blaster in the sender's "
            "namespace sends bursts through the same tbf (0.2-0.9 MB each, "
            "as fast as its socket goes, every 30-250 ms: "
            f"{c['blaster'].get('bursts')} bursts, "
            f"{c['blaster'].get('datagrams')} datagrams of 1400 bytes in "
            f"the run; the tbf dropped {c['tbf_dropped']} packets), "
            "`tilesrc latency=80 ! queue ! fakesink sync=true "
            "processing-deadline=0`. *Render*: intervals between the "
            "renders of consecutive frames; *arrival*: between their pushes "
            "out of tilesrc (the queue lets tilesrc push each frame as soon "
            "as it is whole). `clock=system` is the control: the host's "
            "own clock, the sender's clock too here, so nothing is "
            "followed and what remains is this machine's wake-up jitter.")
        L.append("")
        L.append("| tilesrc | intervals | render p1 / p50 / p99, |dev| "
                 "p99, max | arrival p1 / p50 / p99, |dev| p99, max | "
                 "render - capture p50 / p99 | arrival - capture p50 / "
                 "p99 | frames-late |")
        L.append("|---|---|---|---|---|---|---|")
        for key, label in (("cadence", "`latency=80` (clock=sender)"),
                           ("cadence-system", "`clock=system latency=80`")):
            if key not in r:
                continue
            x = r[key]
            rd, ad = x["render_interval_dev"], x["arrival_interval_dev"]
            pr, pa = x["render_after_capture"], x["arrival_after_capture"]
            L.append(f"| {label} | {rd['n']} | {f(rd['p1'])} / "
                     f"{f(rd['p50'])} / {f(rd['p99'])}, {f(rd['abs_p99'])}"
                     f", {f(rd['abs_max'])} | {f(ad['p1'])} / "
                     f"{f(ad['p50'])} / {f(ad['p99'])}, {f(ad['abs_p99'])}"
                     f", {f(ad['abs_max'])} | {f(pr['p50'])} / "
                     f"{f(pr['p99'])} | {f(pa['p50'])} / {f(pa['p99'])} | "
                     f"{x['src']['frames-late']} |")
        L.append("")

    L.append("### Against the targets")
    L.append("")
    L.append("| target | measured | met |")
    L.append("|---|---|---|")
    for what, meas, ok in targets(r):
        L.append(f"| {what} | {meas} | {'yes' if ok else '**no**'} |")
    L.append("")
    L.append("Every frame's capture, push and render time of every "
             "scenario, and both elements' statistics: "
             "`benchmarks/time/results.json`.")
    L.append("")
    L.append(MARK_END)
    return "\n".join(L) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    benchlib.add_output_options(ap, "6 s a scenario",
                                "benchmarks/time/run.sh")
    ap.add_argument("--build", type=Path, default=SRC / "build-bench")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--skip", type=float, default=3.0)
    ap.add_argument("--scenarios", default=",".join(ORDER))
    args = ap.parse_args()
    write_doc = benchlib.resolve_outputs(args, HERE)
    if args.report_only:
        res = __import__("json").loads(args.out.read_text())
    else:
        if args.quick:
            args.seconds = 6.0
        scen = [s for s in args.scenarios.split(",") if s]
        work = Path(__import__("tempfile").mkdtemp(prefix="gstbc-timebench."))
        t0 = time.monotonic()
        try:
            with benchlib.OtherCpu() as other:
                results = ts.run(args.build.resolve(),
                                 [x for x in scen if x != "av-sync"],
                                 args.seconds, args.skip, work)
                if "av-sync" in scen:
                    results["av-sync"] = run_av_sync(args.build.resolve(),
                                                     args.seconds)
        except ts.Skip as e:
            log(f"run.py: cannot run: {e}")
            return 1
        log(f"run.py: logs in {work}")
        res = {**benchlib.results_header(args, benchlib.machine_info(
                   netns="3 namespaces on this host, veth + tbf"),
                   git_describe(), ""),
               "seconds": args.seconds, "skip": args.skip,
               "wall_s": time.monotonic() - t0,
               "other_cores": other.cores,
               "results": strip_raw(results),
               "frames": frames_only(results)}
        benchlib.write_json(args.out, res)
        log(f"wrote {args.out}")
    section = markdown(res)
    benchlib.publish_section(section, MARK_BEGIN, MARK_END, args.doc,
                             write_doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
