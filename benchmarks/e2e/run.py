#!/usr/bin/python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""End-to-end benchmark: raw RGBA frame in -> frame out of tilesrc, the
encoder and the transport together, on 127.0.0.1.

Run through benchmarks/e2e/run.sh, which builds the plugins in a release
build directory, installs python3-gi when missing, makes the venv (for
matplotlib) and the photographs' frames, then runs this script with the
system's Python (GObject introspection: python3-gi).

Sender, in this process, in two modes (--modes, default both):

    appsrc is-live=true format=time (max-buffers=1 leaky-type=downstream)
      ! <encoder> quality=fast ! tilesink host=127.0.0.1 port=0 units=U
        stepped=false|true

with <encoder> bc1enc (BC1), bc3enc (YCoCg-BC3, its default) or bc7enc
(BC7), their threads property at its default (one per core).

- encode-then-send (stepped=false): tilesink offers no buffer pool; the
  encoder hands it whole frames, and tilesink sends a frame once the
  encoder has finished it.
- overlapped (stepped=true, tilesink's default): tilesink offers upstream
  its sender's buffer pool, whose buffers carry a GstBcTileMeta with the
  sender's tiling (one tile per unit); the encoder (CPU path) encodes the
  frame tile by tile into it and completes each tile as soon as it is
  written, and each of tilesink's units starts sending its tile then:
  encoding overlapped with sending. tilesink's stats
  `frames-overlapped` counts the frames admitted while still being
  encoded; a run in this mode in which it stays 0 is reported as "overlap
  not in effect" (the frames went whole, as in encode-then-send).

A Python loop
pushes photographs (4 of benchmarks/photos/cache/frames, in turn: the
encoder does real work) at --fps frames/s on an absolute schedule; each
buffer gets an explicit PTS (the pipeline's running time at the push) and a
GstReferenceTimestampMeta `timestamp/x-unix` = CLOCK_REALTIME at the push:
the capture time. appsrc keeps at most one frame waiting (leaky downstream:
a capture device hands over the newest frame), so an encoder slower than
the frame rate drops frames at the source instead of building a queue;
those are counted ("source drops").

Receiver: `tilesrc host=127.0.0.1 port=P ! appsink sync=false` in a second
process (this script with --receiver). A second process because a real
receiver is another host, and so that its Python (pulling every frame, the
GIL) does not run in the sender's process, where it would delay the push
loop and the encoder's pad probes; both processes share the machine's
cores, as sender and receiver would share them in one process. Per frame it
records its arrival (CLOCK_REALTIME when appsink hands it over) and the
frame's `timestamp/x-unix` meta: tilesink sends a meta within 10 s of its
clock as the frame's origin, tilesrc puts it back on its buffer, so latency
= arrival - meta = capture -> out of tilesrc. The meta is checked to be one
of the capture times pushed (it survived the encoder); tilesrc's own
statistics (`stats`: latency-p50/p95/p99 over its last 1024 frames, the
same numbers it posts as `tilesrc-stats` messages) are compared with ours
over the same frames.

The encode time, in the same run: pad probes on the encoder's sink and src
pads note when each frame (known by its meta) enters and leaves it, so
every frame's latency splits into wait (capture -> encoder in: appsrc's
queue), encode (encoder in -> out) and transport (encoder out -> out of
tilesrc: tilesink, loopback, tilesrc, appsink). In the overlapped mode the
encoder's src pad sees the frame when its last tile is encoded, after its
first tiles went out: the transport is then only what follows the
encoder's end, and can be below 0 (tilesrc had the whole frame before the
encoder pushed it). And per format and size,
before its units, the same frames through `appsrc ! <encoder> ! fakesink`
(the encoder alone, nothing else on the cores but the push loop).

Per configuration (mode, format, size, units): after the receiver has its
first frame and a warm-up, over a window of --seconds: frames pushed
(captured in the window), source drops, frames encoded, tilesink's
frames-dropped and frames-overlapped (stats, over the window), frames
out (captured in the window, received), output frames/s, latency
p50/p95/p99, the split, CPU cores of the sender and receiver processes and
of other processes. Per format, size and units run in both modes, the
comparison: p50 and p99 of each and overlapped p50 / encode-then-send p50
(the issue's target: <= 0.6 for 2160p BC1 with 4 units).

Live 2160p60 check (the issue's "47 frames/s today, target 60"):
`videotestsrc is-live=true ! video/x-raw,format=RGBA,width=3840,height=2160,
framerate=60/1 ! bc1enc quality=fast ! tilesink units=2` (tilesink's
default, stepped=true: the overlapped mode), in this process,
-> `tilesrc ! fakesink` in a second process: whole frames/s tilesrc
received (its stats, sampled every 100 ms) over --live-seconds, tilesrc's
latency (here from tilesink's clock: videotestsrc puts no capture time on);
in the full run also `... ! bc1enc ! fakesink` and `videotestsrc !
fakesink` alone, the ceilings of encoder and source.

Writes benchmarks/e2e/results.json, the figure docs/perf/e2e-latency.png
and the section between <!-- e2e-bench:begin --> and <!-- e2e-bench:end -->
of docs/performance.md, and prints the section (markdown tables). The full
run (2 modes x 3 formats x 2 sizes x units 1, 2, 4) takes about 14
minutes; --quick (both modes, BC1 only, units 2 and 4, 5 s a point) about
2 minutes and writes
results-quick.json and benchmarks/e2e/quick/e2e-latency.png only. The
figure is drawn with matplotlib: from the venv's Python (--plot-python)
when the system's has none.

Another mode is one more entry in MODES below whose `sender` builds its
pipeline; the pushing, probes, receiver, tables and figure take it as one
more mode.

Timings on a shared 2-core machine are noisy; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent.parent
sys.path.insert(0, str(SRC / "benchmarks"))
import benchlib  # noqa: E402
from benchlib import log  # noqa: E402

MARK_BEGIN = "<!-- e2e-bench:begin -->"
MARK_END = "<!-- e2e-bench:end -->"

FRAMES_DIR = SRC / "benchmarks" / "photos" / "cache" / "frames"
PHOTOS = ["bridge", "dragonfly", "seeding", "sunset"]  # have 2160p frames

SIZES = {"1080p": (1920, 1080), "2160p": (3840, 2160)}

# the encoders, quality=fast, threads at the default (one per core)
FORMATS = {
    "bc1": dict(label="BC1", element="bc1enc", bytes_per_px=0.5,
                color="#08519c"),
    "ycocg-bc3": dict(label="YCoCg-BC3", element="bc3enc", bytes_per_px=1,
                      color="#e6550d"),
    "bc7": dict(label="BC7", element="bc7enc", bytes_per_px=1,
                color="#31a354"),
}


def encode_then_send(enc: str, units: int) -> str:
    """tilesink offers no pool: the encoder hands it whole frames, and
    tilesink sends a frame once the encoder has finished it."""
    return (f"{enc} ! tilesink name=sink host=127.0.0.1 port=0 "
            f"units={units} stepped=false stats-interval=0")


def overlapped(enc: str, units: int) -> str:
    """tilesink offers its sender's pool (a GstBcTileMeta, one tile per
    unit): the encoder completes the frame tile by tile into it, and each
    unit sends its tile as soon as it is encoded."""
    return (f"{enc} ! tilesink name=sink host=127.0.0.1 port=0 "
            f"units={units} stepped=true stats-interval=0")


# The sender modes: key -> label, short label (the figure's ticks), marker
# in the figure, and `sender` (encoder description, units) -> the pipeline
# after the appsrc: it must name its encoder `enc` (the probes' pads) and
# its sink `sink` (a tilesink: bound-port, stats). In the overlapped
# mode the probe on the encoder's src pad marks when the frame's last tile
# is encoded (its first tiles are on their way by then); the latency
# (capture -> out of tilesrc) is measured the same way in both.
MODES = {
    "encode-then-send": dict(label="encode-then-send", short="then-send",
                             marker="o", sender=encode_then_send),
    "overlapped": dict(label="overlapped", short="overlap", marker="D",
                       sender=overlapped),
}
# the comparison: overlapped p50 / encode-then-send p50, and the issue's
# target for it (encoders at the hardware limit)
BASE_MODE, OVERLAP_MODE = "encode-then-send", "overlapped"
TARGET = dict(format="bc1", size="2160p", units=4, ratio=0.6)

FULL = dict(formats=list(FORMATS), sizes=list(SIZES), units=[1, 2, 4],
            seconds=15.0, warmup=2.0, encode_seconds=8.0, live_seconds=10.0,
            live_extras=True)
QUICK = dict(formats=["bc1"], sizes=list(SIZES), units=[2, 4],
             seconds=5.0, warmup=1.5, encode_seconds=4.0, live_seconds=6.0,
             live_extras=False)

LIVE = dict(width=3840, height=2160, fps=60, units=2, target=60)

TS_CAPS = "timestamp/x-unix"
HZ = os.sysconf("SC_CLK_TCK")


def realtime_ns() -> int:
    return time.clock_gettime_ns(time.CLOCK_REALTIME)


def pct(values, q):
    """Nearest-rank percentile (as tilesrc's statistics), None when
    empty."""
    if not values:
        return None
    v = sorted(values)
    rank = min(len(v), max(1, int(q / 100.0 * len(v) + 0.999999)))
    return v[rank - 1]


def summary(values) -> dict | None:
    """p5/p50/p95/p99/max/mean of @values (ms), rounded; None when empty."""
    if not values:
        return None
    return {"n": len(values),
            **{f"p{q}": round(pct(values, q), 3) for q in (5, 50, 95, 99)},
            "max": round(max(values), 3),
            "mean": round(sum(values) / len(values), 3)}


def proc_cpu(pid: int | str = "self") -> float | None:
    """user + system CPU seconds of process @pid (all its threads)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            rest = f.read().rsplit(")", 1)[1].split()
        return (int(rest[11]) + int(rest[12])) / HZ
    except (OSError, IndexError, ValueError):
        return None


def machine_busy() -> float:
    """Busy CPU seconds of the machine (/proc/stat, less idle, iowait and
    steal)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    steal = v[7] if len(v) > 7 else 0
    return (sum(v[:8]) - idle - steal) / HZ


class CpuWindow:
    """Cores used over a window by this process, the receiver @pid, the
    machine, and other processes (benchlib.OtherCpu)."""

    def __init__(self, pid: int | None):
        self.pid = pid

    def start(self):
        self.other = benchlib.OtherCpu([self.pid] if self.pid else [])
        self.other.__enter__()
        self.t = time.monotonic()
        self.c = (proc_cpu(), proc_cpu(self.pid) if self.pid else None,
                  machine_busy())

    def stop(self) -> dict:
        c = (proc_cpu(), proc_cpu(self.pid) if self.pid else None,
             machine_busy())
        wall = time.monotonic() - self.t
        self.other.__exit__(None, None, None)

        def d(i):
            if c[i] is None or self.c[i] is None:
                return None
            return round((c[i] - self.c[i]) / wall, 3)
        return {"sender_cores": d(0), "receiver_cores": d(1),
                "machine_busy_cores": d(2),
                "other_cores": round(self.other.cores, 3),
                "steal_cores": round(self.other.steal_cores, 3)}


# --------------------------------------------------------------------------
# the receiver process


def receiver_main(port: int, out: str, kind: str) -> int:
    """tilesrc ! appsink (kind "frames": every frame's arrival and meta) or
    tilesrc ! fakesink (kind "count": tilesrc's frames-received every
    100 ms), until SIGTERM; then its statistics, all into @out (JSON)."""
    import gi
    gi.require_version("Gst", "1.0")
    gi.require_version("GstApp", "1.0")
    from gi.repository import Gst, GstApp  # noqa: F401
    Gst.init(None)
    src = (f"tilesrc name=src host=127.0.0.1 port={port} timeout=10000 ")
    if kind == "frames":
        desc = src + "! appsink name=s sync=false emit-signals=false"
    else:
        desc = src + "! fakesink sync=false"
    p = Gst.parse_launch(desc)
    tsrc = p.get_by_name("src")
    sink = p.get_by_name("s")
    bus = p.get_bus()
    caps = Gst.Caps.from_string(TS_CAPS)
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    frames, counts, errors, msgs = [], [], [], 0
    p.set_state(Gst.State.PLAYING)
    while not stop:
        if sink is not None:
            sample = sink.try_pull_sample(50 * Gst.MSECOND)
            if sample is not None:
                now = realtime_ns()
                meta = sample.get_buffer().get_reference_timestamp_meta(caps)
                frames.append((now, meta.timestamp if meta else None))
        else:
            time.sleep(0.1)
            st = tsrc.get_property("stats")
            ok, n = st.get_uint64("frames-received")
            counts.append((realtime_ns(), n if ok else 0))
        # keep the bus drained (tilesrc-stats messages every second)
        while True:
            m = bus.pop_filtered(Gst.MessageType.ERROR
                                 | Gst.MessageType.ELEMENT)
            if m is None:
                break
            if m.type == Gst.MessageType.ERROR:
                err, dbg = m.parse_error()
                errors.append(f"{err.message} ({dbg})"[:300])
            else:
                msgs += 1
    st = tsrc.get_property("stats")
    stats = {}
    for k in ("frames-received", "frames-incomplete", "frames-abandoned",
              "latency-samples", "latency-p5", "latency-p50", "latency-p95",
              "latency-p99", "latency-mean"):
        ok, v = st.get_uint64(k)
        if ok:
            stats[k] = v
    p.set_state(Gst.State.NULL)
    with open(out, "w") as f:
        json.dump({"frames": frames, "counts": counts, "stats": stats,
                   "stats_messages": msgs, "errors": errors}, f)
    return 0


class Receiver:
    def __init__(self, port: int, kind: str, work: Path):
        self.out = work / f"rx-{port}-{time.monotonic_ns()}.json"
        self.p = subprocess.Popen([sys.executable, str(Path(__file__)),
                                   "--receiver", str(port), str(self.out),
                                   kind], stdin=subprocess.DEVNULL)

    @property
    def pid(self):
        return self.p.pid

    def finish(self) -> dict:
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
        try:
            self.p.wait(20)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        try:
            return json.loads(self.out.read_text())
        except (OSError, ValueError):
            return {"frames": [], "counts": [], "stats": {},
                    "errors": [f"receiver exited {self.p.returncode} "
                               "without results"]}
        finally:
            self.out.unlink(missing_ok=True)


# --------------------------------------------------------------------------
# the sender


class Gsts:
    """GStreamer, imported when first measuring (--report-only and the
    figure's Python need no gi)."""
    Gst = None

    @classmethod
    def get(cls):
        if cls.Gst is None:
            import gi
            gi.require_version("Gst", "1.0")
            gi.require_version("GstApp", "1.0")
            from gi.repository import Gst, GstApp  # noqa: F401
            Gst.init(None)
            cls.Gst = Gst
        return cls.Gst


def load_frames(size: str, names: list[str]):
    """One GLib.Bytes per photograph at @size (wrapped, not copied, into
    every buffer pushed)."""
    from gi.repository import GLib
    w, h = SIZES[size]
    out = []
    for n in names:
        path = FRAMES_DIR / f"{n}_{w}x{h}.rgba"
        data = path.read_bytes()
        if len(data) != w * h * 4:
            raise RuntimeError(f"{path}: {len(data)} bytes, not {w}x{h} "
                               "RGBA")
        out.append(GLib.Bytes.new(data))
    return out


def tile_stats(sink) -> dict:
    st = sink.get_property("stats")
    out = {}
    for k in ("frames-sent", "frames-dropped", "frames-unsent",
              "frames-abandoned", "frames-replaced", "frames-overlapped",
              "clients"):
        v = st.get_value(k)
        if v is not None:
            out[k] = int(v)
    return out


def bus_errors(pipe) -> list[str]:
    Gst = Gsts.get()
    out = []
    bus = pipe.get_bus()
    while True:
        m = bus.pop_filtered(Gst.MessageType.ERROR)
        if m is None:
            return out
        err, dbg = m.parse_error()
        out.append(f"{err.message} ({dbg})"[:300])


def push_run(fmt: str, size: str, units: int | None, mode: str | None,
             frames, plan: dict, fps: int, work: Path) -> dict:
    """One configuration: appsrc ! encoder ! (tilesink -> receiver | with
    @mode None: fakesink). Returns its measurements."""
    Gst = Gsts.get()
    w, h = SIZES[size]
    enc = (f"{FORMATS[fmt]['element']} name=enc quality=fast")
    head = (f"appsrc name=src is-live=true format=time do-timestamp=false "
            f"max-buffers=1 max-bytes=0 leaky-type=downstream "
            f"caps=\"video/x-raw,format=RGBA,width={w},height={h},"
            f"framerate={fps}/1\" ! ")
    if mode is None:
        desc = head + f"{enc} ! fakesink name=sink sync=false"
    else:
        desc = head + MODES[mode]["sender"](enc, units)
    r = {"mode": mode or "encode-only", "format": fmt, "size": size,
         "units": units, "fps": fps, "pipeline": desc}
    pipe = Gst.parse_launch(desc)
    src = pipe.get_by_name("src")
    sink = pipe.get_by_name("sink")
    encoder = pipe.get_by_name("enc")
    caps = Gst.Caps.from_string(TS_CAPS)
    enc_in, enc_out = {}, {}

    def probe(table):
        def cb(pad, info):
            now = realtime_ns()
            buf = info.get_buffer()
            meta = buf.get_reference_timestamp_meta(caps) if buf else None
            if meta is not None:
                table[meta.timestamp] = now
            return Gst.PadProbeReturn.OK
        return cb
    encoder.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER,
                                             probe(enc_in))
    encoder.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER,
                                            probe(enc_out))
    rx = None
    cpu = None
    captures = []  # (capture ns, phase)
    try:
        pipe.set_state(Gst.State.PLAYING)
        port = 0
        if mode is not None:
            end = time.monotonic() + 10
            while port == 0 and time.monotonic() < end:
                port = sink.get_property("bound-port")
                time.sleep(0.01)
            if port == 0:
                raise RuntimeError("tilesink did not listen: "
                                   + "; ".join(bus_errors(pipe)))
            r["port"] = port
            rx = Receiver(port, "frames", work)
        cpu = CpuWindow(rx.pid if rx else None)
        clock = pipe.get_clock()
        base = pipe.get_base_time()
        period = 1.0 / fps
        dur = Gst.SECOND // fps
        # phases: connect (until tilesink has sent a frame), warmup, window
        phase = "connect" if mode is not None else "warmup"
        t_phase = time.monotonic()
        connect_deadline = t_phase + 20
        ts0 = ts1 = None
        t_win = [None, None]  # realtime ns of the window's edges
        next_t = time.monotonic()
        i = 0
        while True:
            now_m = time.monotonic()
            if next_t > now_m:
                time.sleep(next_t - now_m)
            # the push: capture time, running time, the photograph
            buf = Gst.Buffer.new_wrapped_bytes(frames[i % len(frames)])
            cap = realtime_ns()
            buf.pts = clock.get_time() - base
            buf.duration = dur
            buf.add_reference_timestamp_meta(caps, cap, Gst.CLOCK_TIME_NONE)
            if phase == "window":
                captures.append(cap)
            src.emit("push-buffer", buf)
            del buf
            i += 1
            next_t += period
            if time.monotonic() - next_t > 1.0:
                next_t = time.monotonic()  # far behind: start afresh
            now_m = time.monotonic()
            if phase == "connect":
                if i % 5 == 0 and tile_stats(sink).get("frames-sent", 0) > 0:
                    phase, t_phase = "warmup", now_m
                elif now_m > connect_deadline or (rx and rx.p.poll()
                                                  is not None):
                    raise RuntimeError(
                        "no frame reached the receiver in 20 s: "
                        + "; ".join(bus_errors(pipe)))
            elif phase == "warmup" and now_m - t_phase >= plan["warmup"]:
                phase, t_phase = "window", now_m
                t_win[0] = realtime_ns()
                ts0 = tile_stats(sink) if mode is not None else None
                cpu.start()
            elif phase == "window" and now_m - t_phase >= plan["seconds"]:
                t_win[1] = realtime_ns()
                cpu_r = cpu.stop()
                ts1 = tile_stats(sink) if mode is not None else None
                break
        window_s = (t_win[1] - t_win[0]) / 1e9
        # drain: every frame of the window through (or dropped)
        time.sleep(1.0)
        r["errors"] = bus_errors(pipe)
        rxr = rx.finish() if rx else None
        rx = None
    finally:
        if rx:
            rx.finish()
        pipe.set_state(Gst.State.NULL)

    r["window_s"] = round(window_s, 3)
    r["warmup_s"] = plan["warmup"]
    r["cpu"] = cpu_r
    capset = set(captures)
    r["frames_in"] = len(captures)
    r["encoder_in"] = sum(1 for c in captures if c in enc_in)
    r["encoded"] = sum(1 for c in captures if c in enc_out)
    r["source_dropped"] = r["frames_in"] - r["encoder_in"]
    r["encoded_fps"] = round(r["encoded"] / window_s, 2)
    wait = [(enc_in[c] - c) / 1e6 for c in captures if c in enc_in]
    encode = [(enc_out[c] - enc_in[c]) / 1e6 for c in captures
              if c in enc_out and c in enc_in]
    to_out = [(enc_out[c] - c) / 1e6 for c in captures if c in enc_out]
    r["wait_ms"] = summary(wait)
    r["encode_ms"] = summary(encode)
    r["capture_to_encoded_ms"] = summary(to_out)
    if mode is None:
        return r

    # frames-overlapped: frames tilesink admitted while the encoder was
    # still writing them (tile by tile into its pool): about frames-sent in
    # the overlapped mode, 0 in encode-then-send
    r["tilesink"] = {k: ts1.get(k, 0) - ts0.get(k, 0) for k in
                     ("frames-sent", "frames-dropped", "frames-unsent",
                      "frames-abandoned", "frames-replaced",
                      "frames-overlapped")}
    r["receiver_errors"] = rxr.get("errors", [])
    got = rxr["frames"]  # [(arrival, meta or None)]
    r["received_total"] = len(got)
    r["meta_missing"] = sum(1 for _, m in got if m is None)
    # the capture times pushed over the whole run are not all kept; a meta
    # of the window's must be one of them, and one from before the window
    # must be older than it
    inwin = [(a, m) for a, m in got if m is not None and m >= t_win[0]
             and m <= t_win[1]]
    r["meta_unmatched"] = sum(1 for _, m in inwin if m not in capset)
    win = [(a, m) for a, m in inwin if m in capset]
    r["frames_out"] = len(win)
    r["out_fps"] = round(len(win) / window_s, 2)
    lat = [(a - m) / 1e6 for a, m in win]
    r["latency_ms"] = summary(lat)
    r["transport_ms"] = summary([(a - enc_out[m]) / 1e6 for a, m in win
                                 if m in enc_out])
    r["capture_to_encoded_out_ms"] = summary(
        [(enc_out[m] - m) / 1e6 for a, m in win if m in enc_out])
    # tilesrc's own statistics: its last min(samples, 1024) frames, ours on
    # the same frames
    st = rxr.get("stats", {})
    n = min(st.get("latency-samples", 0), 1024)
    same = [(a - m) / 1e6 for a, m in got[-n:] if m is not None] if n else []
    r["tilesrc_stats"] = {
        "samples": st.get("latency-samples"),
        "frames_received": st.get("frames-received"),
        "frames_incomplete": st.get("frames-incomplete"),
        **{k: round(st[f"latency-{k}"] / 1e6, 3) for k in
           ("p50", "p95", "p99") if f"latency-{k}" in st},
        "ours_same_frames": summary(same),
    }
    # per frame (captured in the window, received): ms from the window's
    # start, wait, encode, transport, latency
    r["frames"] = [
        [round((m - t_win[0]) / 1e6, 2),
         round((enc_in[m] - m) / 1e6, 2) if m in enc_in else None,
         round((enc_out[m] - enc_in[m]) / 1e6, 2)
         if m in enc_out and m in enc_in else None,
         round((a - enc_out[m]) / 1e6, 2) if m in enc_out else None,
         round((a - m) / 1e6, 2)] for a, m in win]
    return r


def live_run(kind: str, seconds: float, warmup: float, work: Path) -> dict:
    """The live 2160p60 check (kind "tile": to tilesrc ! fakesink in
    another process), or its ceilings ("encode": bc1enc ! fakesink;
    "source": videotestsrc ! fakesink)."""
    Gst = Gsts.get()
    L = LIVE
    head = (f"videotestsrc is-live=true ! video/x-raw,format=RGBA,"
            f"width={L['width']},height={L['height']},"
            f"framerate={L['fps']}/1")
    if kind == "tile":
        desc = (f"{head} ! bc1enc quality=fast ! tilesink name=sink "
                f"host=127.0.0.1 port=0 units={L['units']} "
                "stats-interval=0")
    elif kind == "encode":
        desc = f"{head} ! bc1enc quality=fast ! fakesink name=sink sync=false"
    else:
        desc = f"{head} ! fakesink name=sink sync=false"
    r = {"kind": kind, "pipeline": desc}
    pipe = Gst.parse_launch(desc)
    sink = pipe.get_by_name("sink")
    rx = None
    try:
        pipe.set_state(Gst.State.PLAYING)
        if kind == "tile":
            port = 0
            end = time.monotonic() + 10
            while port == 0 and time.monotonic() < end:
                port = sink.get_property("bound-port")
                time.sleep(0.01)
            if port == 0:
                raise RuntimeError("tilesink did not listen")
            rx = Receiver(port, "count", work)
            end = time.monotonic() + 20
            while tile_stats(sink).get("frames-sent", 0) == 0:
                if time.monotonic() > end or rx.p.poll() is not None:
                    raise RuntimeError("no frame reached the receiver")
                time.sleep(0.05)
        time.sleep(warmup)
        cpu = CpuWindow(rx.pid if rx else None)

        def rendered():
            return sink.get_property("stats").get_value("rendered")
        cpu.start()
        t0, n0 = realtime_ns(), rendered()
        ts0 = tile_stats(sink) if kind == "tile" else None
        time.sleep(seconds)
        t1, n1 = realtime_ns(), rendered()
        ts1 = tile_stats(sink) if kind == "tile" else None
        r["cpu"] = cpu.stop()
        r["errors"] = bus_errors(pipe)
        rxr = rx.finish() if rx else None
        rx = None
    finally:
        if rx:
            rx.finish()
        pipe.set_state(Gst.State.NULL)
    wall = (t1 - t0) / 1e9
    r["window_s"] = round(wall, 3)
    # frames the sink rendered: encoded frames (tilesink: sent or dropped)
    r["sink_fps"] = round((n1 - n0) / wall, 2)
    if kind == "tile":
        r["tilesink"] = {k: ts1.get(k, 0) - ts0.get(k, 0) for k in
                         ("frames-sent", "frames-dropped", "frames-unsent",
                          "frames-abandoned", "frames-overlapped")}
        counts = rxr.get("counts", [])

        def at(t):
            # tilesrc's frames-received at realtime @t (nearest sample)
            best = min(counts, key=lambda c: abs(c[0] - t)) if counts \
                else (t, 0)
            return best
        a, b = at(t0), at(t1)
        span = (b[0] - a[0]) / 1e9
        r["delivered_fps"] = round((b[1] - a[1]) / span, 2) if span > 0 \
            else None
        st = rxr.get("stats", {})
        r["tilesrc_stats"] = {
            "frames_received": st.get("frames-received"),
            "frames_incomplete": st.get("frames-incomplete"),
            **{k: round(st[f"latency-{k}"] / 1e6, 3) for k in
               ("p50", "p95", "p99") if f"latency-{k}" in st}}
        r["receiver_errors"] = rxr.get("errors", [])
    return r


# --------------------------------------------------------------------------
# report


def fmt_ms(s: dict | None, key: str = "p50") -> str:
    if not s or s.get(key) is None:
        return "-"
    return f"{s[key]:.1f}"


def run_label(r: dict) -> str:
    return (f"{FORMATS[r['format']]['label']} {r['size']}"
            + (f" units={r['units']}" if r.get("units") else ""))


def mode_label(r: dict) -> str:
    """run_label () with the mode in front."""
    return f"{r['mode']} {run_label(r)}"


def overlapped_frames(r: dict) -> int | None:
    """tilesink's frames-overlapped over the window (None: not recorded,
    results from before the overlapped mode)."""
    return (r.get("tilesink") or {}).get("frames-overlapped")


def overlap_not_in_effect(r: dict) -> bool:
    """A run in the overlapped mode in which tilesink admitted no frame
    while it was being encoded: the frames went whole."""
    return (r.get("mode") == OVERLAP_MODE and not r.get("error")
            and overlapped_frames(r) == 0)


def overlapped_text(r: dict) -> str:
    n = overlapped_frames(r)
    if n is None:
        return "-"
    return f"{n}" + (" (overlap not in effect)" if overlap_not_in_effect(r)
                     else "")


def describe(r: dict) -> str:
    if r.get("error"):
        return f"{r['mode']} {run_label(r)}: FAILED {r['error']}"
    s = (f"{r['mode']} {run_label(r)}: in {r['frames_in']}, source drops "
         f"{r['source_dropped']}, encode p50 {fmt_ms(r['encode_ms'])} ms")
    if r["mode"] != "encode-only":
        s += (f", tilesink dropped {r['tilesink']['frames-dropped']}, "
              f"sent {r['tilesink']['frames-sent']}, overlapped "
              f"{overlapped_text(r)}, out "
              f"{r['frames_out']} ({r['out_fps']:.1f} fps), latency "
              f"p50/p95/p99 {fmt_ms(r['latency_ms'])}/"
              f"{fmt_ms(r['latency_ms'], 'p95')}/"
              f"{fmt_ms(r['latency_ms'], 'p99')} ms, transport p50 "
              f"{fmt_ms(r['transport_ms'])} ms")
    return s


def encode_alone(results: dict, fmt: str, size: str) -> dict | None:
    for r in results.get("encode_only", []):
        if r["format"] == fmt and r["size"] == size and not r.get("error"):
            return r
    return None


def span(lo: float, hi: float, fmt: str = ".1f", unit: str = "") -> str:
    """"lo-hi" (one number when they round the same)."""
    a, b = format(lo, fmt), format(hi, fmt)
    return (a if a == b else f"{a}-{b}") + unit


def comparison(results: dict) -> list[dict]:
    """Per format, size and units measured in both modes (neither failed):
    both runs and overlapped p50 / encode-then-send p50; `target` marks
    the issue's row (TARGET)."""
    out = []
    runs = [r for r in results["runs"] if not r.get("error")
            and r.get("latency_ms")]
    for fmt in FORMATS:
        for size in SIZES:
            for units in sorted({r["units"] for r in runs}):
                pick = {}
                for r in runs:
                    if (r["format"], r["size"], r["units"]) == \
                            (fmt, size, units):
                        pick[r["mode"]] = r
                base, ovl = pick.get(BASE_MODE), pick.get(OVERLAP_MODE)
                if not base or not ovl:
                    continue
                b50 = base["latency_ms"]["p50"]
                out.append(dict(
                    format=fmt, size=size, units=units, base=base, ovl=ovl,
                    ratio=ovl["latency_ms"]["p50"] / b50 if b50 else None,
                    target=(fmt, size, units) == (
                        TARGET["format"], TARGET["size"], TARGET["units"])))
    return out


def target_text(c: dict) -> str:
    """The issue's row: its ratio against TARGET's."""
    ok = c["ratio"] is not None and c["ratio"] <= TARGET["ratio"]
    return (f"target <= {TARGET['ratio']:.1f}: "
            + ("met" if ok else "**not met**"))


def comparison_table(results: dict) -> list[str]:
    rows = comparison(results)
    if not rows:
        return []
    L = [f"| format | size | units | {BASE_MODE} p50 / p99 | {OVERLAP_MODE} "
         f"p50 / p99 | {OVERLAP_MODE} / {BASE_MODE} p50 | frames overlapped "
         "/ sent (overlapped) |",
         "|---" * 7 + "|"]
    for c in rows:
        b, o = c["base"], c["ovl"]
        ratio = "-" if c["ratio"] is None else f"{c['ratio']:.2f}"
        if c["target"]:
            ratio = f"**{ratio}** ({target_text(c)})"
        L.append(
            f"| {FORMATS[c['format']]['label']} | {c['size']} | "
            f"{c['units']} | {fmt_ms(b['latency_ms'])} / "
            f"{fmt_ms(b['latency_ms'], 'p99')} | {fmt_ms(o['latency_ms'])} "
            f"/ {fmt_ms(o['latency_ms'], 'p99')} | {ratio} | "
            f"{overlapped_text(o)} / {o['tilesink']['frames-sent']} |")
    return L


def comparison_log(results: dict) -> list[str]:
    """The comparison, one plain line per configuration (the console)."""
    out = []
    for c in comparison(results):
        b, o = c["base"]["latency_ms"], c["ovl"]["latency_ms"]
        s = (f"{run_label(c['ovl'])}: p50 {b['p50']:.1f} -> {o['p50']:.1f}"
             f" ms, p99 {b['p99']:.1f} -> {o['p99']:.1f} ms ({BASE_MODE} "
             f"-> {OVERLAP_MODE}), ratio p50 "
             + ("-" if c["ratio"] is None else f"{c['ratio']:.2f}")
             + f", frames overlapped {overlapped_text(c['ovl'])} of "
             f"{c['ovl']['tilesink']['frames-sent']} sent")
        if c["target"]:
            s += " [the issue's row: " + target_text(c).replace("*", "") \
                + "]"
        out.append(s)
    return out


def findings(results: dict) -> list[str]:
    out = []
    runs = [r for r in results["runs"] if not r.get("error")]
    fps = results["fps"]
    modes = [m for m in MODES if any(r["mode"] == m for r in runs)]
    if runs:
        for mode in modes:
            mruns = [r for r in runs if r["mode"] == mode]
            shares = []
            for r in mruns:
                lat, enc = r["latency_ms"], r["capture_to_encoded_out_ms"]
                if lat and enc and lat["p50"]:
                    shares.append((enc["p50"] / lat["p50"], r))
            if not shares:
                continue
            lo = min(shares, key=lambda x: x[0])
            hi = max(shares, key=lambda x: x[0])
            out.append(
                f"{mode}: capture -> out of the encoder is "
                f"{span(100 * lo[0], 100 * hi[0], '.0f')} % of the p50 "
                f"latency (least: {run_label(lo[1])}, most: "
                f"{run_label(hi[1])}); "
                "the rest (encoder out -> out of tilesrc) p50 is "
                + ", ".join(
                    f"{FORMATS[f]['label']} {s} "
                    + span(min(r['transport_ms']['p50'] for r in g),
                           max(r['transport_ms']['p50'] for r in g),
                           unit=" ms")
                    for f in FORMATS for s in SIZES
                    for g in [[r for r in mruns if r['format'] == f
                               and r['size'] == s and r['transport_ms']]]
                    if g) + " (over units)"
                + (": the transport after the encoder finished the frame"
                   if mode == BASE_MODE else
                   ": only what is left to send once the last tile is "
                   "encoded, the other tiles having gone out meanwhile")
                + ".")
        rows = comparison(results)
        if rows:
            ratios = [c for c in rows if c["ratio"] is not None]
            s = ""
            if ratios:
                lo = min(ratios, key=lambda c: c["ratio"])
                hi = max(ratios, key=lambda c: c["ratio"])
                s = (f"{OVERLAP_MODE} / {BASE_MODE} p50 latency: "
                     f"{span(lo['ratio'], hi['ratio'], '.2f')} (least: "
                     f"{run_label(lo['ovl'])}, most: {run_label(hi['ovl'])})")
            t = [c for c in rows if c["target"]]
            if t:
                c = t[0]
                s += ((", " if s else "") + "the target row, "
                      f"{run_label(c['ovl'])}: "
                      f"{fmt_ms(c['base']['latency_ms'])} -> "
                      f"{fmt_ms(c['ovl']['latency_ms'])} ms p50, ratio "
                      + ("-" if c["ratio"] is None else f"{c['ratio']:.2f}")
                      + f" ({target_text(c)})")
            else:
                s += ((", " if s else "") + "the target row ("
                      f"{FORMATS[TARGET['format']]['label']} "
                      f"{TARGET['size']} units={TARGET['units']}, ratio <= "
                      f"{TARGET['ratio']:.1f}) was not measured in both "
                      "modes")
            out.append(s[0].upper() + s[1:] + ".")
        ov = [r for r in runs if r["mode"] == OVERLAP_MODE
              and overlapped_frames(r) is not None]
        if ov:
            off = [r for r in ov if overlap_not_in_effect(r)]
            on = [r for r in ov if not overlap_not_in_effect(r)]
            s = ""
            if on:
                fr = [overlapped_frames(r) / r["tilesink"]["frames-sent"]
                      for r in on if r["tilesink"]["frames-sent"]]
                s = (f"In the {OVERLAP_MODE} mode tilesink admitted "
                     f"{sum(overlapped_frames(r) for r in on)} frames while "
                     "they were being encoded (stats "
                     "`frames-overlapped`, over the windows), against "
                     f"{sum(r['tilesink']['frames-sent'] for r in on)} "
                     "frames sent"
                     + (f" ({span(100 * min(fr), 100 * max(fr), '.0f')} % "
                        "per run)" if fr else ""))
            if off:
                s += (("; " if s else "")
                      + "**overlap not in effect** (frames-overlapped 0: the "
                      "frames went whole) in " + ", ".join(
                          run_label(r) for r in off))
            out.append(s + ".")
        base = [r for r in runs if r["mode"] == BASE_MODE
                and overlapped_frames(r) is not None]
        if base:
            bad = [r for r in base if overlapped_frames(r)]
            out.append(
                f"In {BASE_MODE} (stepped=false) frames-overlapped is 0 in "
                "every run." if not bad else
                f"In {BASE_MODE} (stepped=false) frames-overlapped is not 0 "
                "in " + ", ".join(f"{run_label(r)} ({overlapped_frames(r)})"
                                  for r in bad)
                + ": stepped=false did not keep the frames whole.")
        slow = []
        for r in runs:
            alone = encode_alone(results, r["format"], r["size"])
            if alone and alone["encode_ms"] and r["encode_ms"]:
                slow.append(r["encode_ms"]["p50"]
                            / alone["encode_ms"]["p50"])
        if slow:
            out.append(
                "Encode p50 (encoder in -> out) in the end-to-end run / "
                f"alone (-> fakesink): {span(min(slow), max(slow), '.2f')}x"
                "; in the end-to-end run tilesink's and tilesrc's threads "
                "and the loopback copies share the "
                f"{results['machine']['cpu_count']} cores with the "
                "encoder's threads.")
        short = [r for r in runs if r["out_fps"] < 0.95 * fps]
        if short:
            out.append(
                f"Below 95 % of the {fps} frames/s offered: " + "; ".join(
                    f"{mode_label(r)} {r['out_fps']:.1f} frames/s "
                    f"({r['source_dropped']} of {r['frames_in']} dropped "
                    "at the source: the encoder was busy"
                    + (f", {r['tilesink']['frames-dropped']} by tilesink"
                       if r["tilesink"]["frames-dropped"] else "") + ")"
                    for r in short) + ".")
        else:
            out.append(f"Every configuration delivered >= 95 % of the {fps} "
                       "frames/s offered.")
        tdrop = [r for r in runs if r["tilesink"]["frames-dropped"]]
        if tdrop:
            out.append("tilesink dropped frames (max-in-flight=1: the "
                       "previous frame still on its way) in: " + ", ".join(
                           f"{mode_label(r)} "
                           f"({r['tilesink']['frames-dropped']})"
                           for r in tdrop) + ".")
        else:
            out.append("tilesink dropped no frame in any configuration.")
        bad = sum(r["meta_unmatched"] + r["meta_missing"] for r in runs)
        total = sum(r["received_total"] for r in runs)
        diffs = [r["tilesrc_stats"]["ours_same_frames"]["p50"]
                 - r["tilesrc_stats"]["p50"] for r in runs
                 if r["tilesrc_stats"].get("p50") is not None
                 and r["tilesrc_stats"].get("ours_same_frames")]
        out.append(
            ("The capture time survived: every frame out of tilesrc "
             f"({total}) carried a timestamp/x-unix meta, and each in the "
             "windows was one of the capture times pushed"
             if bad == 0 else
             f"{bad} of {total} frames out of tilesrc had no meta or one "
             "that is not a capture time pushed (the meta was lost)")
            + (f"; tilesrc's own latency p50 (its stats, the same frames) "
               f"is {span(min(diffs), max(diffs), '.2f')} ms below ours "
               "(tilesrc counts to the frame's completion, we to appsink "
               "handing it to Python)." if diffs else "."))
    live = results.get("live") or {}
    t = live.get("tile")
    if t and not t.get("error"):
        ok = t["delivered_fps"] is not None and \
            t["delivered_fps"] >= 0.98 * LIVE["target"]
        n = overlapped_frames(t)
        s = (f"Live 2160p60 BC1 (units={LIVE['units']}, tilesink's default "
             "stepped=true"
             + ("" if n is None else
                f": {n} of {t['tilesink']['frames-sent']} frames sent "
                "overlapped" if n else ": **overlap not in effect**")
             + f"): {t['delivered_fps']:.1f} frames/s delivered over "
             f"{t['window_s']:.0f} s: the {LIVE['target']} frames/s target "
             f"is {'reached' if ok else '**not reached**'}")
        e, so = live.get("encode"), live.get("source")
        if e and not e.get("error"):
            s += (f"; `videotestsrc ! bc1enc ! fakesink` alone makes "
                  f"{e['sink_fps']:.1f} frames/s")
        if so and not so.get("error"):
            s += (f", `videotestsrc ! fakesink` {so['sink_fps']:.1f}")
        if e and not e.get("error") and t["delivered_fps"] is not None \
                and e["sink_fps"] < 0.98 * LIVE["target"]:
            s += ("; the limit is " + (
                "the encoder (beside videotestsrc, in the same streaming "
                "thread), not the transport: tilesink -> tilesrc delivers "
                f"{100 * t['delivered_fps'] / e['sink_fps']:.0f} % of what "
                "the encoder alone makes"
                if t["delivered_fps"] >= 0.95 * e["sink_fps"] else
                "the encoder, and the transport costs "
                f"{e['sink_fps'] - t['delivered_fps']:.1f} frames/s more"))
        s += (f"; machine busy {t['cpu']['machine_busy_cores']:.2f} of "
              f"{results['machine']['cpu_count']} cores.")
        out.append(s)
    return out


def tables(results: dict) -> list[str]:
    L = []
    runs = results["runs"]
    L.append("| mode | format | size | units | frames in | source drops "
             "| tilesink dropped | frames overlapped | frames out | out fps "
             "| latency p50 | p95 | p99 | encode alone p50 | capture → "
             "encoded p50 | transport p50 / p99 |")
    L.append("|---" * 16 + "|")
    for r in runs:
        if r.get("error"):
            L.append(f"| {r['mode']} | {FORMATS[r['format']]['label']} | "
                     f"{r['size']} | {r['units']} | failed: "
                     f"{r['error'][:80]} |" + " |" * 11)
            continue
        alone = encode_alone(results, r["format"], r["size"])
        L.append(
            f"| {r['mode']} | {FORMATS[r['format']]['label']} | {r['size']} "
            f"| {r['units']} | {r['frames_in']} | {r['source_dropped']} | "
            f"{r['tilesink']['frames-dropped']} | {overlapped_text(r)} | "
            f"{r['frames_out']} | "
            f"{r['out_fps']:.1f} | {fmt_ms(r['latency_ms'])} | "
            f"{fmt_ms(r['latency_ms'], 'p95')} | "
            f"{fmt_ms(r['latency_ms'], 'p99')} | "
            f"{fmt_ms(alone['capture_to_encoded_ms']) if alone else '-'} | "
            f"{fmt_ms(r['capture_to_encoded_out_ms'])} | "
            f"{fmt_ms(r['transport_ms'])} / "
            f"{fmt_ms(r['transport_ms'], 'p99')} |")
    return L


def cores(c: dict) -> str:
    """sender / receiver / machine cores of a CpuWindow's result."""
    return " / ".join("-" if c.get(k) is None else f"{c[k]:.2f}" for k in
                      ("sender_cores", "receiver_cores",
                       "machine_busy_cores"))


def split_table(results: dict) -> list[str]:
    L = ["| mode | format | size | units | wait p50 | encode p50 / p99 "
         "| encode alone p50 / p99 (fps) | tilesrc p50 / p99 | ours, same "
         "frames p50 / p99 | sender / receiver / machine cores |",
         "|---" * 10 + "|"]
    for r in results["runs"]:
        if r.get("error"):
            continue
        alone = encode_alone(results, r["format"], r["size"])
        ts = r["tilesrc_stats"]
        same = ts.get("ours_same_frames") or {}
        c = r["cpu"]
        L.append(
            f"| {r['mode']} | {FORMATS[r['format']]['label']} | {r['size']} "
            f"| {r['units']} | {fmt_ms(r['wait_ms'])} | "
            f"{fmt_ms(r['encode_ms'])} / "
            f"{fmt_ms(r['encode_ms'], 'p99')} | "
            + (f"{fmt_ms(alone['encode_ms'])} / "
               f"{fmt_ms(alone['encode_ms'], 'p99')} "
               f"({alone['encoded_fps']:.1f})" if alone else "-")
            + f" | {ts.get('p50', float('nan')):.1f} / "
            f"{ts.get('p99', float('nan')):.1f} | {fmt_ms(same)} / "
            f"{fmt_ms(same, 'p99')} | {cores(c)} |")
    return L


def live_lines(results: dict) -> list[str]:
    live = results.get("live") or {}
    if not live:
        return []
    L = ["| pipeline | frames/s | tilesink sent / dropped / overlapped "
         "| tilesrc latency p50 / p99 (from tilesink) | sender / receiver / "
         "machine cores |",
         "|---" * 5 + "|"]
    names = {"tile": f"bc1enc quality=fast ! tilesink units={LIVE['units']}"
             " (stepped=true, the default) → tilesrc ! fakesink "
             "(delivered)",
             "encode": "bc1enc quality=fast ! fakesink (encoded)",
             "source": "videotestsrc ! fakesink (made)"}
    for k in ("tile", "encode", "source"):
        r = live.get(k)
        if not r:
            continue
        if r.get("error"):
            L.append(f"| {names[k]} | failed: {r['error'][:80]} | | | |")
            continue
        cpu = cores(r["cpu"])
        if k == "tile":
            ts = r["tilesrc_stats"]
            L.append(f"| {names[k]} | **{r['delivered_fps']:.1f}** | "
                     f"{r['tilesink']['frames-sent']} / "
                     f"{r['tilesink']['frames-dropped']} / "
                     f"{overlapped_text({**r, 'mode': OVERLAP_MODE})} | "
                     f"{ts.get('p50', float('nan')):.1f} / "
                     f"{ts.get('p99', float('nan')):.1f} ms | {cpu} |")
        else:
            L.append(f"| {names[k]} | {r['sink_fps']:.1f} | - | - | "
                     f"{cpu} |")
    return L


def markdown(results: dict, figs: list[str]) -> str:
    m = results["machine"]
    fps = results["fps"]
    L = [MARK_BEGIN, "", "## End to end (encode + send)", ""]
    L.append(
        f"Measured {results['date']} at gst-bc {results['git']} on "
        f"{m['cpu']} ({m['cpu_count']} cores), Linux {m['kernel']}, "
        f"GStreamer {m['gstreamer']}; {results['seconds']:.0f} s for the "
        f"whole run (`{results['command']}`). Other processes used "
        f"{results['other_cores_median']:.2f} cores (median over the "
        f"points, max {results['other_cores_max']:.2f}) while it ran. One "
        "run per configuration: on 2 shared cores differences of 10-20 % "
        "are within the noise.")
    L.append("")
    L.append(
        "Method (`benchmarks/e2e/run.sh`, all on 127.0.0.1): a Python loop "
        f"pushes photographs ({', '.join(results['photos'])}, in turn, raw "
        f"RGBA) at {fps} frames/s into `appsrc is-live=true format=time "
        "max-buffers=1 leaky-type=downstream ! <encoder> quality=fast ! "
        "tilesink host=127.0.0.1 port=0 units=U stepped=false|true` "
        "(encoders: `bc1enc`, "
        "`bc3enc` (YCoCg-BC3), `bc7enc`, threads at the default: one per "
        "core), each buffer with a PTS and a `timestamp/x-unix` reference "
        "meta = CLOCK_REALTIME at the push (the capture time); appsrc keeps "
        "one frame waiting and drops the older one when the encoder is "
        "busy (*source drops*, as a capture device would). The receiver is "
        "`tilesrc ! appsink` in a second process (as another host would "
        "be, and so that its Python does not run in the sender's): latency "
        "= CLOCK_REALTIME when appsink hands the frame over - the frame's "
        "`timestamp/x-unix` meta, which tilesink sent as the frame's "
        "origin and tilesrc put back; each meta is checked to be a capture "
        "time pushed. Two sender modes (`--modes`): *encode-then-send* "
        "(`stepped=false`: tilesink offers no buffer pool, the encoder "
        "hands it whole frames and it sends a frame once the encoder has "
        "finished it) and *overlapped* (`stepped=true`, tilesink's "
        "default: tilesink offers its sender's pool, whose buffers carry a "
        "GstBcTileMeta with one tile per unit; the encoder fills the frame "
        "tile by tile and completes each tile as soon as it is written, "
        "and each unit starts sending its tile then: encoding overlapped "
        "with sending). *Frames overlapped*: tilesink's stats "
        "`frames-overlapped` over the window, the frames it admitted while "
        "they were still being encoded: about the frames sent in the "
        "overlapped mode, 0 in encode-then-send; 0 in the overlapped mode "
        "is reported as *overlap not in effect*. "
        "The split, per frame, from pad probes on the "
        "encoder's pads: *wait* (capture -> encoder in: appsrc's queue), "
        "*encode* (encoder in -> out), *capture → encoded* (the two), "
        "*transport* (encoder out -> out of tilesrc: tilesink, loopback, "
        "tilesrc, appsink; in the overlapped mode the encoder's out is "
        "after its last tile, when the first tiles went out already, so "
        "this is only the rest, and can be below 0: tilesrc may have the "
        "whole frame before the encoder pushes it). *Encode alone*: the "
        "same frames and rate "
        "through `appsrc ! <encoder> ! fakesink` in the same run. After "
        "the receiver's first frame and "
        f"{results['timing']['warmup']:.1f} s of warm-up, "
        f"{results['timing']['seconds']:.0f} s measured per configuration: "
        "frames captured in the window and what became of them, *out fps* "
        "= frames out / window, latency percentiles (nearest rank) over the "
        "frames out; *tilesink dropped* from stats `frames-dropped` "
        "(max-in-flight=1); *tilesrc p50 / p99*: tilesrc's own statistics "
        "(its last 1024 frames, from the same origin), *ours, same "
        "frames* our latency over those frames; cores: CPU time of the "
        "sender and receiver processes and the machine's busy time over "
        "the window. *Overlapped vs encode-then-send*: per format, size "
        "and units measured in both modes, overlapped p50 / "
        "encode-then-send p50; the target is <= "
        f"{TARGET['ratio']:.1f} for {FORMATS[TARGET['format']]['label']} "
        f"{TARGET['size']} with {TARGET['units']} units.")
    L.append("")
    f = findings(results)
    if f:
        L.append("### Findings")
        L.append("")
        L += [f"- {x}" for x in f]
        L.append("")
    L.append(f"### Latency, capture → out of tilesrc ({fps} frames/s "
             "offered; ms)")
    L.append("")
    L += tables(results)
    L.append("")
    comp = comparison_table(results)
    if comp:
        L.append("### Overlapped vs encode-then-send (latency, ms)")
        L.append("")
        L.append(
            f"Latency p50 / p99 of the two modes, and {OVERLAP_MODE} p50 / "
            f"{BASE_MODE} p50 (below 1: overlapping is faster); the "
            "target row is "
            f"{FORMATS[TARGET['format']]['label']} {TARGET['size']} "
            f"units={TARGET['units']}, ratio <= {TARGET['ratio']:.1f}.")
        L.append("")
        L += comp
        L.append("")
    L.append("### Where the time goes (p50 / p99, ms)")
    L.append("")
    L += split_table(results)
    L.append("")
    live = live_lines(results)
    if live:
        L.append(f"### Live 2160p60 BC1 ({results['timing']['live_seconds']:.0f}"
                 " s)")
        L.append("")
        L.append(
            "`videotestsrc is-live=true ! video/x-raw,format=RGBA,width=3840,"
            "height=2160,framerate=60/1 ! bc1enc quality=fast ! tilesink "
            f"units={LIVE['units']}` in one process (tilesink's default, "
            "`stepped=true`: encoding overlapped with sending, as in the "
            "overlapped mode), `tilesrc ! fakesink` in "
            "another: frames/s tilesrc received (its `frames-received`) "
            "over the window"
            + ("; the rows below it are the same source without the "
               "transport, and without the encoder"
               if len(results.get("live", {})) > 1 else "")
            + ". Target "
            f"{LIVE['target']} frames/s.")
        L.append("")
        L += live
        L.append("")
    errs = [r for r in results["runs"] + results.get("encode_only", [])
            if r.get("error")]
    if errs:
        L.append("Failed: " + "; ".join(
            f"{r['mode']} {run_label(r)}: {r['error'][:160]}"
            for r in errs) + ".")
        L.append("")
    if figs:
        L.append("### Figure")
        L.append("")
        L.append("p50 latency per configuration (marker: "
                 + ", ".join(f"{MODES[m]['label']} "
                             + {"o": "circle", "D": "diamond"}.get(
                                 MODES[m]["marker"], MODES[m]["marker"])
                             for m in MODES if m in results["modes"])
                 + "), p99 (the bar's "
                 "top), and the encoder's share (capture → encoded p50, "
                 "shaded).")
        L.append("")
        for p in figs:
            L.append(f"![{Path(p).stem}]({p})")
        L.append("")
    L.append("Every configuration's frames (wait, encode, transport, latency"
             f" per frame) and pipelines: `benchmarks/e2e/"
             f"{'results-quick.json' if results['quick'] else 'results.json'}"
             "`.")
    L.append("")
    L.append(MARK_END)
    return "\n".join(L) + "\n"


# --------------------------------------------------------------------------
# the figure


def draw(results: dict, outdir: Path) -> list[Path]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.transforms import blended_transform_factory as blend

    outdir.mkdir(parents=True, exist_ok=True)
    runs = [r for r in results["runs"] if not r.get("error")]
    sizes = [s for s in SIZES if any(r["size"] == s for r in runs)]
    if not sizes:
        return []
    fps = results["fps"]
    modes = [m for m in MODES if m in results["modes"]]
    # the widest panel: its points and the gaps between formats; many
    # (the full run: 2 modes x 3 formats x 3 units) stack the sizes
    most = max(sum(1 for r in runs if r["size"] == s) + 0.6 * len(FORMATS)
               for s in sizes)
    w = max(6.5, 0.6 * most + 1.5)
    if most > 10:
        fig, axes = plt.subplots(len(sizes), 1,
                                 figsize=(w, 4.6 * len(sizes)),
                                 squeeze=False)
    else:
        fig, axes = plt.subplots(1, len(sizes),
                                 figsize=(w * len(sizes), 5.0),
                                 squeeze=False)
    axes = list(axes.flat)
    for ax, size in zip(axes, sizes):
        ticks, labels = [], []
        x = 0
        for fmt, fi in FORMATS.items():
            group = [r for r in runs if r["size"] == size
                     and r["format"] == fmt]
            if not group:
                continue
            alone = encode_alone(results, fmt, size)
            xs0 = x
            # per units, the modes side by side
            for r in sorted([g for g in group if g["mode"] in modes],
                            key=lambda r: (r["units"],
                                           modes.index(r["mode"]))):
                lat = r["latency_ms"]
                enc = r["capture_to_encoded_out_ms"]
                if not lat:
                    continue
                if enc:
                    ax.bar(x, enc["p50"], width=0.7, color=fi["color"],
                           alpha=0.22, linewidth=0)
                ax.errorbar([x], [lat["p50"]],
                            yerr=[[0], [lat["p99"] - lat["p50"]]],
                            color=fi["color"],
                            marker=MODES[r["mode"]]["marker"],
                            capsize=4,
                            markersize=7)
                ax.plot([x], [lat["p99"]], marker="_", color=fi["color"],
                        markersize=12)
                ax.annotate(f"{r['out_fps']:.0f}/s", (x, lat["p99"]),
                            textcoords="offset points", xytext=(0, 5),
                            ha="center", fontsize=7, color="dimgrey")
                ticks.append(x)
                labels.append(f"units={r['units']}" + (
                    f"\n{MODES[r['mode']]['short']}" if len(modes) > 1
                    else ""))
                x += 1
            if x > xs0:
                ax.text((xs0 + x - 1) / 2, -0.11 if len(modes) < 2 else -0.15,
                        fi["label"], ha="center",
                        va="top", fontsize=9, color=fi["color"],
                        transform=blend(ax.transData, ax.transAxes))
            if alone and alone.get("capture_to_encoded_ms"):
                ax.hlines(alone["capture_to_encoded_ms"]["p50"], xs0 - 0.4,
                          x - 0.6, colors=fi["color"], linestyles="dashed",
                          linewidth=1)
            x += 0.6
        ax.axhline(1000.0 / fps, color="grey", linestyle=":", linewidth=1)
        ax.text(ax.get_xlim()[1], 1000.0 / fps, f" 1/{fps} s", va="center",
                ha="left", fontsize=7, color="grey")
        ax.set_xticks(ticks)
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylim(bottom=0)
        ax.set_ylabel("latency, capture → out of tilesrc (ms)")
        w, h = SIZES[size]
        ax.set_title(f"{size} ({w}x{h}) RGBA at {fps} frames/s, "
                     "127.0.0.1", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
    handles = [
        Line2D([], [], color="k", marker="o", linestyle="", label="p50"),
        Line2D([], [], color="k", marker="_", markersize=12, linestyle="",
               label="p99 (bar top)"),
        Patch(color="k", alpha=0.22, label="capture → encoded p50"),
        Line2D([], [], color="k", linestyle="dashed", linewidth=1,
               label="encoder alone (→ fakesink) p50"),
        Line2D([], [], color="k", linestyle="", marker="",
               label="n/s: frames out per second"),
    ]
    for m in results["modes"]:
        if m in MODES and len(results["modes"]) > 1:
            handles.append(Line2D([], [], color="k", linestyle="",
                                  marker=MODES[m]["marker"],
                                  label=MODES[m]["label"]))
    # room above the first panel's points for its legend
    axes[0].set_ylim(0, axes[0].get_ylim()[1] * 1.45)
    axes[0].legend(handles=handles, fontsize=7, loc="upper left")
    stamp = (f"gst-bc end-to-end benchmark, {results['date'][:10]}, "
             f"{results['machine']['cpu_count']} cores, {results['git']}")
    fig.text(0.99, 0.005, stamp, ha="right", va="bottom", fontsize=7,
             color="grey")
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    p = outdir / "e2e-latency.png"
    fig.savefig(p, dpi=110)
    plt.close(fig)
    return [p]


def plots_via(python: str | None):
    """The figure function for benchlib.write_figures (): matplotlib in this
    Python, else this script run by @python (the venv's) with --draw."""
    def plots(results: dict, outdir: Path) -> list[Path]:
        try:
            import matplotlib  # noqa: F401
            return draw(results, outdir)
        except ImportError:
            if not python or not Path(python).exists():
                raise
        with tempfile.NamedTemporaryFile("w", suffix=".json",
                                         delete=False) as f:
            json.dump(results, f)
        try:
            out = subprocess.run([python, str(Path(__file__)), "--draw",
                                  f.name, str(outdir)], capture_output=True,
                                 text=True, timeout=120)
        finally:
            os.unlink(f.name)
        if out.returncode != 0:
            raise ImportError(f"{python} could not draw: "
                              + out.stderr.strip()[-300:])
        return [Path(x) for x in out.stdout.split()]
    return plots


# --------------------------------------------------------------------------


def git_head() -> str:
    return benchlib.command_output(["git", "-C", str(SRC), "rev-parse",
                                    "--short", "HEAD"]) or "unknown"


def parse_list(text: str, valid, what: str, ap) -> list:
    out = []
    for x in text.split(","):
        x = x.strip()
        if not x:
            continue
        if x not in valid:
            ap.error(f"unknown {what} {x!r} (valid: {', '.join(valid)})")
        out.append(x)
    return out


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--receiver":
        return receiver_main(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    if len(sys.argv) > 1 and sys.argv[1] == "--draw":
        results = json.loads(Path(sys.argv[2]).read_text())
        for p in draw(results, Path(sys.argv[3])):
            print(p)
        return 0
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modes", default=",".join(MODES),
                    help="comma-separated sender modes: encode-then-send "
                    "(tilesink stepped=false), overlapped (stepped=true) "
                    "(default, full and --quick: %(default)s)")
    ap.add_argument("--formats", default="",
                    help=f"comma-separated of {list(FORMATS)} (default: all;"
                    " --quick bc1)")
    ap.add_argument("--sizes", default="",
                    help=f"comma-separated of {list(SIZES)} (default: both)")
    ap.add_argument("--units", default="",
                    help="comma-separated tilesink units (default 1,2,4; "
                    "--quick 2,4)")
    ap.add_argument("--fps", type=int, default=30,
                    help="frames pushed per second (default 30)")
    ap.add_argument("--seconds", type=float,
                    help="measured seconds per configuration (default 15, "
                    "--quick 5)")
    ap.add_argument("--warmup", type=float, help="seconds before the window")
    ap.add_argument("--encode-seconds", type=float,
                    help="measured seconds of each encoder-alone run")
    ap.add_argument("--live-seconds", type=float,
                    help="seconds of the live 2160p60 check (default 10)")
    ap.add_argument("--no-live", action="store_true",
                    help="skip the live 2160p60 check")
    ap.add_argument("--photos", default=",".join(PHOTOS),
                    help="photographs pushed in turn (default: %(default)s)")
    ap.add_argument("--build", type=Path, default=SRC / "build-bench",
                    help="build directory whose gst/ holds the plugins, "
                    "when GST_PLUGIN_PATH is not set")
    ap.add_argument("--plot-python",
                    default=str(Path(os.environ.get(
                        "BC_BENCH_VENV", SRC / "benchmarks" / ".venv"))
                        / "bin" / "python"),
                    help="a Python with matplotlib, for the figure when "
                    "this one has none (default: the benchmarks' venv)")
    benchlib.add_output_options(
        ap, "both modes, BC1 only, 1080p and 2160p, units 2 and 4, 5 s a "
        "point, the live check 6 s (about 2 minutes); writes "
        "results-quick.json and "
        "quick/e2e-latency.png, not the doc", "benchmarks/e2e/run.py")
    args = ap.parse_args()
    write_doc_too = benchlib.resolve_outputs(args, HERE)
    if args.report_only:
        return report(args, json.loads(args.out.read_text()), write_doc_too)

    plan = dict(QUICK if args.quick else FULL)
    modes = parse_list(args.modes, MODES, "mode", ap)
    if args.formats:
        plan["formats"] = parse_list(args.formats, FORMATS, "format", ap)
    if args.sizes:
        plan["sizes"] = parse_list(args.sizes, SIZES, "size", ap)
    if args.units:
        plan["units"] = [int(x) for x in args.units.split(",")]
    for k in ("seconds", "warmup", "encode_seconds", "live_seconds"):
        if getattr(args, k) is not None:
            plan[k] = getattr(args, k)
    photos = [p for p in args.photos.split(",") if p]
    for size in plan["sizes"]:
        w, h = SIZES[size]
        for p in photos:
            if not (FRAMES_DIR / f"{p}_{w}x{h}.rgba").exists():
                log(f"missing {FRAMES_DIR}/{p}_{w}x{h}.rgba: run "
                    "benchmarks/photos.py (benchmarks/e2e/run.sh does)")
                return 1
    if "GST_PLUGIN_PATH" not in os.environ:
        os.environ["GST_PLUGIN_PATH"] = str((args.build / "gst").resolve())
    Gst = Gsts.get()
    for e in ("appsrc", "appsink", "fakesink", "videotestsrc", "tilesink",
              "tilesrc", *(FORMATS[f]["element"] for f in plan["formats"])):
        if Gst.ElementFactory.find(e) is None:
            log(f"the GStreamer element {e} is missing (GST_PLUGIN_PATH: "
                "the build's gst/ folder?)")
            return 1

    started = time.monotonic()
    git = git_head()
    machine = benchlib.machine_info()
    quiet = benchlib.wait_for_quiet(args.quick)
    n_e2e = len(modes) * len(plan["formats"]) * len(plan["sizes"]) \
        * len(plan["units"])
    n_enc = len(plan["formats"]) * len(plan["sizes"])
    est = (n_e2e * (plan["seconds"] + plan["warmup"] + 2.5)
           + n_enc * (plan["encode_seconds"] + plan["warmup"] + 1.5)
           + (0 if args.no_live else
              (3 if plan["live_extras"] else 1)
              * (plan["live_seconds"] + 4)))
    log(f"{n_e2e} end-to-end configurations, {n_enc} encoder-alone runs"
        f"{'' if args.no_live else ', the live 2160p60 check'}: about "
        f"{est / 60:.1f} minutes")
    work = Path(tempfile.mkdtemp(prefix="gstbc-e2e."))
    runs, encode_only, live = [], [], {}
    try:
        for size in plan["sizes"]:
            frames = load_frames(size, photos)
            for fmt in plan["formats"]:
                todo = [(None, None)] + [(m, u) for u in plan["units"]
                                         for m in modes]
                for mode, units in todo:
                    p = dict(plan)
                    if mode is None:
                        p["seconds"] = plan["encode_seconds"]
                    try:
                        r = push_run(fmt, size, units, mode, frames, p,
                                     args.fps, work)
                    except RuntimeError as e:
                        r = {"mode": mode or "encode-only", "format": fmt,
                             "size": size, "units": units, "error": str(e)}
                    (encode_only if mode is None else runs).append(r)
                    log(describe(r))
                    time.sleep(0.3)
            del frames
        if not args.no_live:
            kinds = ["tile"] + (["encode", "source"] if plan["live_extras"]
                                else [])
            for k in kinds:
                try:
                    live[k] = live_run(k, plan["live_seconds"],
                                       plan["warmup"], work)
                except RuntimeError as e:
                    live[k] = {"kind": k, "error": str(e)}
                r = live[k]
                log(f"live 2160p60 {k}: " + (
                    r["error"] if r.get("error") else
                    f"{r.get('delivered_fps', r['sink_fps'])} frames/s"))
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    finally:
        for f in work.glob("*"):
            f.unlink(missing_ok=True)
        work.rmdir()

    others = sorted(r["cpu"]["other_cores"] for r in runs + encode_only
                    if r.get("cpu")) or [0.0]
    results = {
        **benchlib.results_header(args, machine, git, "unchanged"),
        "other_cpu_cores_before": round(quiet, 3),
        "other_cores_median": others[len(others) // 2],
        "other_cores_max": others[-1],
        "fps": args.fps,
        "photos": photos,
        "modes": modes,
        "timing": {k: plan[k] for k in ("seconds", "warmup",
                                        "encode_seconds", "live_seconds")},
        "plan": {k: plan[k] for k in ("formats", "sizes", "units")},
        "encode_only": encode_only,
        "runs": runs,
        "live": live,
        "frames_columns": ["capture ms from the window's start", "wait ms",
                           "encode ms", "transport ms", "latency ms"],
        "seconds": round(time.monotonic() - started, 1),
    }
    return report(args, results, write_doc_too)


def report(args, results: dict, write_doc_too: bool) -> int:
    figs = benchlib.write_figures(plots_via(args.plot_python), results,
                                  args.plots_dir, args.doc)
    results["figures"] = figs
    benchlib.write_json(args.out, results)
    log(f"wrote {args.out}")
    comp = comparison_log(results)
    if comp:
        log(f"{OVERLAP_MODE} vs {BASE_MODE} (latency):")
        for line in comp:
            log("  " + line)
    for r in results["runs"]:
        if overlap_not_in_effect(r):
            log(f"{mode_label(r)}: overlap not in effect "
                "(frames-overlapped 0)")
    benchlib.publish_section(markdown(results, figs), MARK_BEGIN, MARK_END,
                             args.doc, write_doc_too)
    bad = [r for r in results["runs"] + results["encode_only"]
           if r.get("error")]
    bad += [r for r in results.get("live", {}).values() if r.get("error")]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
