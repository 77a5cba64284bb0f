#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Fan-out benchmark: what serving N receivers costs the sender, and what
each receiver gets, for tilesink (protocol=tcp, udp and udp with
multicast-group) against tee + N tcpserversinks and one tcpserversink with
N clients, on the same frames.

Run through benchmarks/fanout/run.sh, which builds the plugins in a release
build directory, installs what is missing and makes the venv (matplotlib,
for the figures). This script runs itself in a network namespace of its own
(`unshare -n`, root): loopback up, multicast on, a route for 224.0.0.0/4 on
it, so that the multicast mode works on one host; every mode runs in that
namespace, on 127.0.0.1.

The frames, for each of SIZES (1080p BC1: 1 036 800 bytes, 498 Mbit/s at
60 fps; 2160p BC1: 4 147 200 bytes, 1991 Mbit/s, where the receivers of
GStreamer's own senders no longer keep up on 2 cores): FRAMES_N frames are
encoded once (`videotestsrc ! bc1enc ! multifilesink`) into a temporary
folder; every sender replays them in a loop at FPS frames/s with

    multifilesrc loop=true ! rawvideoparse (GRAY8 of width x height/2: the
    same bytes, timestamped at FPS) ! capssetter (video/x-bc, BC1)
    ! clocksync

so the sender process does no encoding: its CPU is reading the frame files
(the same for every mode, measured alone as "source only") plus the
sending. Senders, every property at its default except as said:

- tile-tcp: `... ! tilesink host=127.0.0.1 units=UNITS` (protocol=tcp),
  N x `tilesrc ! fakesink`;
- tile-udp: the same with `protocol=udp`;
- tile-multicast: `protocol=udp multicast-group=GROUP` (every datagram sent
  once, to the group), N x `tilesrc` (each joins the group);
- tee-tcpserversink: `... ! tee ! N x (queue ! tcpserversink sync=false
  port=P+i)`, N x `tcpclientsrc port=P+i ! rawvideoparse ! fakesink`
  (rawvideoparse cuts the byte stream back into frames);
- tcpserversink-multi: `... ! tcpserversink sync=false`, N x
  `tcpclientsrc ! rawvideoparse ! fakesink` on the same port;
- source-only: `... ! fakesink` (no receiver): the baseline.

Each sender and receiver is a `gst-launch-1.0` process. Per point (mode,
N): start the sender, wait until it listens, start the N receivers, wait
until each has a frame, then WARMUP seconds, then a window of SECONDS
seconds over which are measured:

- the sender process's CPU time (user + system, /proc/PID/stat: every
  thread of it) over the window's wall time = cores used; per receiver =
  that / N;
- every receiver's frames at its fakesink (`gst-launch-1.0 -v`, one
  last-message line per buffer, counted as they come): delivered
  frames/s (whole: less tilesrc's partial UDP frames), and the delivered
  rate in Gbit/s (whole frames x frame bytes, all receivers);
- tilesrc's own statistics (`tilesrc-stats` element messages every 500
  ms): partial UDP frames (pushed with gaps), packets lost, latency p50 /
  p99 over its last 1024 frames;
- tilesink's `stats` (`tilesink-stats` messages every 500 ms):
  frames sent and dropped (totals, and per receiver);
- the receivers' CPU, the machine's (/proc/stat: busy and softirq cores)
  and that of other processes (benchlib.OtherCpu).

On loopback the receiving side's kernel work (softirq) may run in the
sending process's context and be charged to it, for every mode alike.

For the issue's criterion ("3 multicast receivers cost the sender at most
1.5x the CPU of one"), tile-multicast is also run with N = 3 (RATIO_SIZE),
and in the full run the pair (1, 3) is repeated twice more, interleaved;
the ratio is that of the medians.

Writes benchmarks/fanout/results.json, the figures docs/perf/fanout-*.png
and the section between <!-- fanout-bench:begin --> and
<!-- fanout-bench:end --> of docs/performance.md (--section-out PATH:
also the section alone to PATH, its figure links as from docs/ to
docs/perf/). The full run takes about 9 minutes. --quick: 1080p, N = 1
and 4 (and 3 for multicast), 3 s a point, about 1 minute; writes
results-quick.json and benchmarks/fanout/quick/*.png only.

Timings on a shared 2-core machine are noisy; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent.parent
sys.path.insert(0, str(SRC / "benchmarks"))
import benchlib  # noqa: E402
from benchlib import OtherCpu, log  # noqa: E402

MARK_BEGIN = "<!-- fanout-bench:begin -->"
MARK_END = "<!-- fanout-bench:end -->"

# the streams: BC1 frames at FPS frames/s
SIZES = {
    "1080p": dict(label="1080p BC1", w=1920, h=1080),
    "2160p": dict(label="2160p BC1", w=3840, h=2160),
}
RATIO_SIZE = "1080p"  # the size of the 3-vs-1 multicast runs
FPS = 60
FRAMES_N = 60  # distinct frames, replayed in a loop
UNITS = 2  # tilesink units (2 cores)
GROUP = "239.255.77.1"
STATS_MS = 500

# per size: receiver counts, measured and warm-up seconds, extra multicast
# (1, 3) pairs
FULL = {
    "1080p": dict(ns=[1, 2, 4, 8], seconds=10.0, warmup=2.0,
                  ratio_repeats=2),
    "2160p": dict(ns=[1, 2, 4, 8], seconds=5.0, warmup=2.0,
                  ratio_repeats=0),
}
QUICK = {"1080p": dict(ns=[1, 4], seconds=3.0, warmup=1.0,
                       ratio_repeats=0)}
RATIO_N = (1, 3)
RATIO_BAR = 1.5  # the "done when"

MODES = [
    dict(key="tile-tcp", label="tilesink tcp", color="#08519c", marker="o"),
    dict(key="tile-udp", label="tilesink udp", color="#6baed6", marker="s"),
    dict(key="tile-multicast", label="tilesink udp multicast",
         color="#31a354", marker="D"),
    dict(key="tee-tcpserversink", label="tee + N tcpserversink",
         color="#e6550d", marker="^"),
    dict(key="tcpserversink-multi", label="tcpserversink, N clients",
         color="#756bb1", marker="v"),
]
TILE_MODES = {"tile-tcp", "tile-udp", "tile-multicast"}
BASELINE = "source-only"

HZ = os.sysconf("SC_CLK_TCK")


def frame_bytes(size: str) -> int:
    return SIZES[size]["w"] * SIZES[size]["h"] // 2  # BC1


def offered_gbps(size: str) -> float:
    return frame_bytes(size) * 8 * FPS / 1e9


# --------------------------------------------------------------------------
# the network namespace


def lo_multicast_ready() -> bool:
    """Loopback up with IFF_MULTICAST (SIOCGIFFLAGS: /sys/class/net shows
    the namespace sysfs was mounted in, not ours) and an IPv4 route for
    224.0.0.0/4 on it (/proc/net/route)."""
    import fcntl
    import socket
    import struct
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            res = fcntl.ioctl(s.fileno(), 0x8913,  # SIOCGIFFLAGS
                              struct.pack("16sH14x", b"lo", 0))
        flags = struct.unpack("16sH14x", res)[1]
        if not (flags & 0x1) or not (flags & 0x1000):  # UP, MULTICAST
            return False
        for line in Path("/proc/net/route").read_text().splitlines()[1:]:
            f = line.split()
            if f[0] == "lo" and f[1] == "000000E0" and f[7] == "000000F0":
                return True
    except (OSError, ValueError, IndexError):
        pass
    return False


def reexec_in_netns() -> None:
    """Runs this script again in a new network namespace whose loopback
    carries multicast (needs root and unshare); returns only when it
    cannot."""
    unshare = shutil.which("unshare")
    ip = shutil.which("ip") or next(
        (p for p in ("/usr/sbin/ip", "/sbin/ip") if os.path.exists(p)), None)
    if os.geteuid() != 0 or not unshare or not ip:
        log("not root, or no unshare/ip: running in this network namespace "
            "(tile-multicast needs multicast on lo and a route for "
            "224.0.0.0/4)")
        return
    setup = (f"{ip} link set lo up && {ip} link set lo multicast on && "
             f"{ip} route add 224.0.0.0/4 dev lo && exec \"$@\"")
    argv = [unshare, "-n", "sh", "-c", setup, "sh", sys.executable,
            str(Path(__file__).resolve()), "--in-netns", *sys.argv[1:]]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(unshare, argv)


# --------------------------------------------------------------------------
# processes


def proc_cpu(pid: int) -> tuple[float, float] | None:
    """(user, system) CPU seconds of process @pid, all its threads."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            rest = f.read().rsplit(")", 1)[1].split()
        return int(rest[11]) / HZ, int(rest[12]) / HZ
    except (OSError, IndexError, ValueError):
        return None


def proc_rss_mb(pid: int) -> float | None:
    """VmRSS of process @pid, MiB."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, IndexError, ValueError):
        pass
    return None


def machine_cpu() -> dict:
    """/proc/stat's first line, seconds: busy (everything but idle and
    iowait) and softirq."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    steal = v[7] if len(v) > 7 else 0
    return {"busy": (sum(v[:8]) - idle - steal) / HZ,
            "softirq": v[6] / HZ, "system": v[2] / HZ}


FIELD = re.compile(r"([a-z0-9-]+)=\(([a-z0-9]+)\)([^,;\s]+)")
RECEIVER_FIELDS = ("id", "frames-sent", "frames-dropped",
                   "frames-dropped-window", "bytes-sent", "packets-sent",
                   "pacing-bitrate", "estimated-bitrate", "congestion-events",
                   "delivery-rate")


def parse_fields(text: str) -> dict:
    """name -> value (int, float or str) of the top-level fields of a
    GstStructure string (nested structures are not descended into)."""
    out = {}
    for name, typ, val in FIELD.findall(text):
        if name in out:
            continue
        if typ in ("guint64", "uint", "int", "gint64"):
            try:
                out[name] = int(val)
            except ValueError:
                continue
        elif typ == "double":
            try:
                out[name] = float(val)
            except ValueError:
                continue
        elif typ == "boolean":
            out[name] = val == "true"
        elif typ == "string":
            out[name] = val
    return out


def parse_tilesink_stats(line: str) -> dict:
    """The totals of a tilesink-stats message, and its 'receivers' as a
    list of dicts (RECEIVER_FIELDS)."""
    head, sep, rest = line.partition(", receivers=")
    tot = parse_fields(head.split("tilesink-stats,", 1)[-1])
    recv = []
    if sep:
        arr = rest.split('" >', 1)[0] if '" >' in rest else ""
        for chunk in arr.replace("\\", "").split("tilesink-receiver,")[1:]:
            own = chunk.split("receiver=(structure)", 1)[0]
            f = parse_fields(own)
            recv.append({k: f[k] for k in RECEIVER_FIELDS if k in f})
    tot["receivers"] = recv
    return tot


class Proc:
    """A gst-launch-1.0 process, its output read by a thread: fakesink
    buffers counted (frames), tilesrc-stats and tilesink-stats messages
    kept (the last ones, with the time they came), the rest's last lines
    kept for errors."""

    def __init__(self, name: str, argv: list[str]):
        self.name = name
        self.argv = argv
        self.frames = 0
        self.first_frame = None
        self.stats = None  # (monotonic time, dict): the last one
        self.stats_at = []  # [(t, dict)] every one
        self.tail = deque(maxlen=20)
        self.lock = threading.Lock()
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL)
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    @property
    def pid(self) -> int:
        return self.p.pid

    def _read(self):
        for raw in self.p.stdout:
            if b"last-message = chain" in raw:
                with self.lock:
                    self.frames += 1
                    if self.first_frame is None:
                        self.first_frame = time.monotonic()
                continue
            if b"Got message" in raw and (b"tilesrc-stats" in raw
                                          or b"tilesink-stats" in raw):
                line = raw.decode("utf-8", "replace")
                if "tilesink-stats" in line:
                    st = parse_tilesink_stats(line)
                else:
                    st = parse_fields(line.split("tilesrc-stats,", 1)[-1])
                now = time.monotonic()
                with self.lock:
                    self.stats = (now, st)
                    self.stats_at.append((now, st))
                continue
            self.tail.append(raw.decode("utf-8", "replace").rstrip())

    def snapshot(self) -> dict:
        with self.lock:
            return {"t": time.monotonic(), "frames": self.frames,
                    "cpu": proc_cpu(self.pid),
                    "rss_mb": proc_rss_mb(self.pid),
                    "stats": self.stats[1] if self.stats else None}

    def alive(self) -> bool:
        return self.p.poll() is None

    def stop(self, grace: float = 3.0):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGINT)
            try:
                self.p.wait(grace)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        self.t.join(2)

    def why(self) -> str:
        lines = [ln for ln in self.tail if ln.strip()]
        errs = [ln for ln in lines if "ERROR" in ln or "rror" in ln]
        return " | ".join((errs or lines)[-3:])[:400]


def gst_launch(*args: str) -> list[str]:
    return ["gst-launch-1.0", *args]


# --------------------------------------------------------------------------
# pipelines


def encode_frames(folder: Path, size: str) -> None:
    """FRAMES_N BC1 frames of @size into @folder/f-NNN.bc1"""
    w, h = SIZES[size]["w"], SIZES[size]["h"]
    folder.mkdir(parents=True, exist_ok=True)
    argv = gst_launch("-q", *shlex.split(
        f"videotestsrc num-buffers={FRAMES_N} pattern=smpte "
        f"horizontal-speed=8 ! video/x-raw,width={w},height={h},"
        f"framerate={FPS}/1 ! bc1enc ! multifilesink "
        f"location={folder}/f-%03d.bc1"))
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL,
                   timeout=120)
    n = len(list(folder.glob("f-*.bc1")))
    sizes = {p.stat().st_size for p in folder.glob("f-*.bc1")}
    if n != FRAMES_N or sizes != {frame_bytes(size)}:
        raise RuntimeError(f"encoding the frames gave {n} files of "
                           f"{sorted(sizes)} bytes")


def source(folder: Path, size: str) -> str:
    w, h = SIZES[size]["w"], SIZES[size]["h"]
    caps = f"video/x-bc,format=BC1,width={w},height={h},framerate={FPS}/1"
    return (f"multifilesrc location={folder}/f-%03d.bc1 loop=true "
            f"! rawvideoparse format=gray8 width={w} "
            f"height={h // 2} framerate={FPS}/1 "
            f"! capssetter join=false replace=true caps=\"{caps}\" "
            f"! clocksync")


def sender_argv(mode: str, n: int, port: int, folder: Path,
                size: str) -> list[str]:
    src = source(folder, size)
    if mode == BASELINE:
        desc = f"{src} ! fakesink sync=false"
    elif mode in TILE_MODES:
        desc = (f"{src} ! tilesink host=127.0.0.1 port={port} "
                f"units={UNITS} stats-interval={STATS_MS} "
                f"max-receivers={max(8, n)}")
        if mode != "tile-tcp":
            desc += " protocol=udp"
        if mode == "tile-multicast":
            desc += f" multicast-group={GROUP}"
    elif mode == "tee-tcpserversink":
        desc = f"{src} ! tee name=t" + "".join(
            f" t. ! queue ! tcpserversink host=127.0.0.1 port={port + i} "
            "sync=false" for i in range(n))
    elif mode == "tcpserversink-multi":
        desc = f"{src} ! tcpserversink host=127.0.0.1 port={port} sync=false"
    else:
        raise ValueError(mode)
    return gst_launch("-m", *shlex.split(desc))


def receiver_argv(mode: str, i: int, port: int, size: str) -> list[str]:
    w, h = SIZES[size]["w"], SIZES[size]["h"]
    if mode in TILE_MODES:
        desc = (f"tilesrc host=127.0.0.1 port={port} "
                f"stats-interval={STATS_MS} ! fakesink silent=false "
                "sync=false")
    else:
        p = port + i if mode == "tee-tcpserversink" else port
        desc = (f"tcpclientsrc host=127.0.0.1 port={p} ! rawvideoparse "
                f"format=gray8 width={w} height={h // 2} "
                f"framerate={FPS}/1 ! fakesink silent=false sync=false")
    return gst_launch("-m", "-v", *shlex.split(desc))


def listen_ports() -> set[int]:
    """TCP ports in LISTEN (IPv4 and IPv6) in this namespace."""
    ports = set()
    for f in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            for line in Path(f).read_text().splitlines()[1:]:
                parts = line.split()
                if parts[3] == "0A":
                    ports.add(int(parts[1].rsplit(":", 1)[1], 16))
        except (OSError, IndexError, ValueError):
            continue
    return ports


def wait_until(pred, timeout: float, step: float = 0.05) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return pred()


# --------------------------------------------------------------------------
# one point


def delta(a, b, key):
    if not a or not b or a.get(key) is None or b.get(key) is None:
        return None
    return b[key] - a[key]


def run_point(size: str, mode: str, n: int, port: int, folder: Path,
              timing: dict, tag: str = "") -> dict:
    r = {"size": size, "mode": mode, "n": n, "seconds": timing["seconds"],
         "warmup_s": timing["warmup"], "tag": tag}
    fb = frame_bytes(size)
    sender = Proc("sender", sender_argv(mode, n, port, folder, size))
    r["sender_pipeline"] = " ".join(sender.argv[2:])
    receivers: list[Proc] = []
    try:
        if mode != BASELINE:
            want = ({port + i for i in range(n)}
                    if mode == "tee-tcpserversink" else {port})
            if not wait_until(lambda: want <= listen_ports()
                              or not sender.alive(), 10):
                raise RuntimeError("the sender does not listen: "
                                   + sender.why())
            if not sender.alive():
                raise RuntimeError("the sender ended: " + sender.why())
            for i in range(n):
                receivers.append(Proc(f"receiver{i}",
                                      receiver_argv(mode, i, port,
                                                    size)))
            r["receiver_pipeline"] = " ".join(receivers[0].argv[3:])
            if not wait_until(lambda: all(p.frames > 0 for p in receivers)
                              or not sender.alive()
                              or not all(p.alive() for p in receivers), 15):
                late = [p for p in receivers if p.frames == 0]
                raise RuntimeError(
                    f"{len(late)} of {n} receivers got no frame in 15 s: "
                    + (late[0].why() if late else ""))
            if not sender.alive() or not all(p.alive() for p in receivers):
                dead = [p for p in [sender] + receivers if not p.alive()]
                raise RuntimeError(f"{dead[0].name} ended: {dead[0].why()}")
        else:
            if not wait_until(lambda: proc_cpu(sender.pid) is not None, 5):
                raise RuntimeError("the sender did not start")
        time.sleep(timing["warmup"])
        pids = [sender.pid] + [p.pid for p in receivers]
        with OtherCpu(pids) as other:
            m0 = machine_cpu()
            s0 = sender.snapshot()
            rx0 = [p.snapshot() for p in receivers]
            time.sleep(timing["seconds"])
            s1 = sender.snapshot()
            rx1 = [p.snapshot() for p in receivers]
            m1 = machine_cpu()
        r["other_cpu_cores"] = round(other.cores, 3)
        r["steal_cores"] = round(other.steal_cores, 3)
        wall = s1["t"] - s0["t"]
        r["wall_s"] = round(wall, 3)
        if not s0["cpu"] or not s1["cpu"]:
            raise RuntimeError("the sender ended: " + sender.why())
        user = s1["cpu"][0] - s0["cpu"][0]
        sys_ = s1["cpu"][1] - s0["cpu"][1]
        r["sender"] = {
            "cores": round((user + sys_) / wall, 4),
            "user_cores": round(user / wall, 4),
            "system_cores": round(sys_ / wall, 4),
        }
        if s0["rss_mb"] is not None and s1["rss_mb"] is not None:
            # a sender that queues for receivers slower than the stream
            # (tcpserversink keeps every frame for every client) grows
            r["sender"]["rss_mb"] = round(s1["rss_mb"], 1)
            r["sender"]["rss_growth_mb"] = round(s1["rss_mb"] - s0["rss_mb"],
                                                 1)
        r["machine"] = {
            "busy_cores": round((m1["busy"] - m0["busy"]) / wall, 3),
            "system_cores": round((m1["system"] - m0["system"]) / wall, 3),
            "softirq_cores": round((m1["softirq"] - m0["softirq"]) / wall,
                                   3),
        }
        # tilesink's counters over the window (messages every STATS_MS)
        st0, st1 = s0["stats"], s1["stats"]
        if st0 and st1:
            sd = {k: delta(st0, st1, k) for k in (
                "frames-sent", "frames-dropped", "frames-dropped-window",
                "frames-unsent", "bytes-sent", "packets-sent")}
            sd["gso"] = st1.get("gso")
            sd["receiver-count"] = st1.get("receiver-count")
            sd["disconnects"] = st1.get("disconnects")
            per = []
            before = {x.get("id"): x for x in st0.get("receivers", [])}
            for x in st1.get("receivers", []):
                b = before.get(x.get("id"), {})
                per.append({"id": x.get("id"),
                            "frames-sent": delta(b, x, "frames-sent"),
                            "frames-dropped": delta(b, x, "frames-dropped"),
                            "frames-dropped-window":
                                delta(b, x, "frames-dropped-window"),
                            "pacing-bitrate": x.get("pacing-bitrate"),
                            "congestion-events":
                                delta(b, x, "congestion-events")})
            sd["receivers"] = per
            r["sink_stats"] = sd
        rx = []
        cores_rx = 0.0
        for p, a, b in zip(receivers, rx0, rx1):
            e = {"frames": b["frames"] - a["frames"]}
            e["fps"] = round(e["frames"] / wall, 2)
            if a["cpu"] and b["cpu"]:
                c = (sum(b["cpu"]) - sum(a["cpu"])) / wall
                e["cpu_cores"] = round(c, 4)
                cores_rx += c
            sa, sb = a["stats"], b["stats"]
            if sb:
                for k in ("frames-partial", "frames-timer", "packets-lost",
                          "packets-late", "kernel-drops", "frames-skipped",
                          "frames-incomplete"):
                    d = delta(sa, sb, k)
                    if d is not None:
                        e[k] = d
                for k in ("latency-p50", "latency-p99"):
                    if sb.get(k) is not None:
                        e[k.replace("latency-", "latency_") + "_ms"] = \
                            round(sb[k] / 1e6, 3)
            e["whole_fps"] = round((e["frames"] - e.get("frames-partial", 0))
                                   / wall, 2)
            rx.append(e)
        r["receivers"] = rx
        r["receivers_cpu_cores"] = round(cores_rx, 3)
        if rx:
            fps = [e["fps"] for e in rx]
            r["fps_mean"] = round(sum(fps) / len(fps), 2)
            r["fps_min"] = min(fps)
            r["whole_fps_mean"] = round(
                sum(e["whole_fps"] for e in rx) / len(rx), 2)
            r["delivered_gbps"] = round(
                sum(fps) * fb * 8 / 1e9, 3)
            r["whole_gbps"] = round(
                sum(e["whole_fps"] for e in rx) * fb * 8 / 1e9, 3)
            lat = [e for e in rx if e.get("latency_p50_ms") is not None]
            if lat:
                p50 = sorted(e["latency_p50_ms"] for e in lat)
                p99 = sorted(e["latency_p99_ms"] for e in lat)
                r["latency_p50_ms_median"] = p50[len(p50) // 2]
                r["latency_p99_ms_max"] = p99[-1]
            r["partial_frames"] = sum(e.get("frames-partial", 0) for e in rx)
        r["sender"]["per_receiver_cores"] = round(
            r["sender"]["cores"] / max(1, n), 4) if n else None
    except Exception as e:  # noqa: BLE001 - one point's failure is a result
        r["error"] = str(e)
    finally:
        for p in receivers:
            p.stop()
        sender.stop()
    return r


def describe(r: dict) -> str:
    if r.get("error"):
        return f"{r['size']} {r['mode']} N={r['n']}: ERROR {r['error']}"
    s = (f"{r['size']} {r['mode']} N={r['n']}"
         f"{' ' + r['tag'] if r.get('tag') else ''}: "
         f"sender {r['sender']['cores']:.3f} cores "
         f"(sys {r['sender']['system_cores']:.3f})")
    if r["n"]:
        s += (f", {r['fps_mean']:.1f} fps/receiver (min {r['fps_min']:.1f}),"
              f" {r['delivered_gbps']:.2f} Gbit/s")
        if r.get("latency_p50_ms_median") is not None:
            s += (f", latency p50 {r['latency_p50_ms_median']:.2f} / p99 max "
                  f"{r['latency_p99_ms_max']:.2f} ms")
        if r.get("partial_frames"):
            s += f", {r['partial_frames']} partial"
        ss = r.get("sink_stats") or {}
        if ss.get("frames-dropped"):
            s += f", tilesink dropped {ss['frames-dropped']}"
        if (r["sender"].get("rss_growth_mb") or 0) > 50:
            s += f", sender RSS +{r['sender']['rss_growth_mb']:.0f} MiB"
        s += f"; receivers {r['receivers_cpu_cores']:.2f} cores"
    s += (f"; machine {r['machine']['busy_cores']:.2f} cores, other "
          f"{r['other_cpu_cores']:.2f}")
    return s


# --------------------------------------------------------------------------
# summaries


def median(v):
    v = sorted(x for x in v if x is not None)
    if not v:
        return None
    k = len(v) // 2
    return v[k] if len(v) % 2 else (v[k - 1] + v[k]) / 2


def points(results: dict, size: str, mode: str, n: int) -> list[dict]:
    return [r for r in results["runs"] if r["size"] == size
            and r["mode"] == mode and r["n"] == n and not r.get("error")]


def summary(results: dict, size: str, mode: str, n: int) -> dict | None:
    """The median over the runs of (size, mode, n) of what the tables
    show."""
    rs = points(results, size, mode, n)
    if not rs:
        return None
    out = {"runs": len(rs),
           "cores": median(r["sender"]["cores"] for r in rs),
           "system_cores": median(r["sender"]["system_cores"] for r in rs)}
    if n:
        out["whole_fps_min"] = median(
            min((e["whole_fps"] for e in r["receivers"]), default=None)
            for r in rs)
        for k in ("fps_mean", "fps_min", "whole_fps_mean", "delivered_gbps",
                  "whole_gbps", "latency_p50_ms_median",
                  "latency_p99_ms_max", "receivers_cpu_cores"):
            out[k] = median(r.get(k) for r in rs)
        out["partial_frames"] = sum(r.get("partial_frames", 0) for r in rs)
        out["dropped"] = sum((r.get("sink_stats") or {}).get(
            "frames-dropped") or 0 for r in rs)
        out["rss_growth_mb"] = median(r["sender"].get("rss_growth_mb")
                                      for r in rs)
        # the machine's busy cores less other processes': this run's
        # processes and the kernel's threads (softirq work among them)
        out["machine_busy"] = median(
            max(0.0, r["machine"]["busy_cores"] - r["other_cpu_cores"])
            for r in rs)
    return out


def baseline_cores(results: dict, size: str) -> float | None:
    return median(r["sender"]["cores"]
                  for r in points(results, size, BASELINE, 0))


def ratio(results: dict) -> dict | None:
    sz = RATIO_SIZE
    a = points(results, sz, "tile-multicast", RATIO_N[0])
    b = points(results, sz, "tile-multicast", RATIO_N[1])
    if not a or not b:
        return None
    ca = median(r["sender"]["cores"] for r in a)
    cb = median(r["sender"]["cores"] for r in b)
    base = baseline_cores(results, sz) or 0.0
    out = {"size": sz, "n": list(RATIO_N), "samples": [len(a), len(b)],
           "cores": [round(ca, 4), round(cb, 4)],
           "cores_each": [[r["sender"]["cores"] for r in a],
                          [r["sender"]["cores"] for r in b]],
           "ratio": round(cb / ca, 3) if ca else None,
           "baseline_cores": round(base, 4)}
    if ca - base > 0:
        out["ratio_net"] = round((cb - base) / (ca - base), 3)
    # the same for unicast udp and tcp where measured, for comparison
    for mode in ("tile-udp", "tile-tcp"):
        x = points(results, sz, mode, 1)
        y = points(results, sz, mode, 3)
        if x and y:
            out[f"{mode}_ratio"] = round(
                median(r["sender"]["cores"] for r in y)
                / median(r["sender"]["cores"] for r in x), 3)
    out["met"] = out["ratio"] is not None and out["ratio"] <= RATIO_BAR
    return out


# --------------------------------------------------------------------------
# figures


def plots(results: dict, outdir: Path) -> list[Path]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    stamp = (f"gst-bc fan-out benchmark, 127.0.0.1, {results['date'][:10]}, "
             f"{results['machine']['cpu_count']} cores, {results['git']}")
    modes = [m for m in MODES if m["key"] in results["modes"]]
    sizes = [s for s in SIZES if any(r["size"] == s
                                     for r in results["runs"])]

    def finish(fig, name):
        fig.text(0.99, 0.005, stamp, ha="right", va="bottom", fontsize=7,
                 color="grey")
        fig.tight_layout(rect=(0, 0.02, 1, 1))
        p = outdir / name
        fig.savefig(p, dpi=110)
        plt.close(fig)
        written.append(p)

    def series(size, mode, key):
        ns = sorted({r["n"] for r in results["runs"]
                     if r["size"] == size and r["mode"] == mode})
        pts = []
        for n in ns:
            s = summary(results, size, mode, n)
            if s and s.get(key) is not None:
                pts.append((n, s[key]))
        return pts

    def title(size):
        return (f"{SIZES[size]['label']} at {FPS} fps "
                f"({offered_gbps(size) * 1e3:.0f} Mbit/s per receiver)")

    # sender CPU: total, and per receiver above the source-only baseline
    fig, axes = plt.subplots(len(sizes), 2, figsize=(12, 4.6 * len(sizes)),
                             squeeze=False)
    for (ax, ax2), size in zip(axes, sizes):
        base = baseline_cores(results, size)
        allns = sorted({r["n"] for r in results["runs"]
                        if r["n"] and r["size"] == size})
        for m in modes:
            pts = series(size, m["key"], "cores")
            if pts:
                ax.plot(*zip(*pts), color=m["color"], marker=m["marker"],
                        label=m["label"])
                per = [(n, max(0.0, c - (base or 0)) / n * 100)
                       for n, c in pts]
                ax2.plot(*zip(*per), color=m["color"], marker=m["marker"],
                         label=m["label"])
        if base is not None:
            ax.axhline(base, color="k", linestyle=":", linewidth=1,
                       label=f"source only, no sink ({base:.3f})")
        ax.set_ylabel("sender process CPU (cores)")
        ax.set_title(f"Sender CPU, {title(size)}", fontsize=10)
        ax2.set_ylabel("(sender - source only) / receivers\n(% of a core)")
        ax2.set_title(f"Sender CPU per receiver, {SIZES[size]['label']}",
                      fontsize=10)
        for a in (ax, ax2):
            a.set_xlabel("receivers")
            a.set_xticks(allns)
            a.grid(True, alpha=0.3)
            a.set_ylim(bottom=0)
        ax.legend(fontsize=8)
    finish(fig, "fanout-sender-cpu.png")

    # delivered: frames/s per receiver (mean, min), total Gbit/s
    fig, axes = plt.subplots(len(sizes), 2, figsize=(12, 4.6 * len(sizes)),
                             squeeze=False)
    for (ax, ax2), size in zip(axes, sizes):
        allns = sorted({r["n"] for r in results["runs"]
                        if r["n"] and r["size"] == size})
        for m in modes:
            pts = series(size, m["key"], "whole_fps_mean")
            mins = dict(series(size, m["key"], "whole_fps_min"))
            if pts:
                xs, ys = zip(*pts)
                lo = [max(0.0, y - mins.get(x, y)) for x, y in pts]
                ax.errorbar(xs, ys, yerr=[lo, [0] * len(lo)],
                            color=m["color"], marker=m["marker"], capsize=3,
                            label=m["label"])
            g = series(size, m["key"], "whole_gbps")
            if g:
                ax2.plot(*zip(*g), color=m["color"], marker=m["marker"],
                         label=m["label"])
        ax.axhline(FPS, color="k", linestyle="--", linewidth=0.8,
                   label=f"offered ({FPS} fps)")
        ax.set_ylim(0, FPS * 1.15)
        ax.set_ylabel("whole frames/s per receiver\n(mean; bar down to the "
                      "slowest)")
        ax.set_title(f"Delivered per receiver, {title(size)}", fontsize=10)
        ax2.plot(allns, [n * offered_gbps(size) for n in allns], color="k",
                 linestyle="--", linewidth=0.8, label="offered x receivers")
        ax2.set_ylabel("whole frames, all receivers (Gbit/s)")
        ax2.set_title(f"Delivered, all receivers, {SIZES[size]['label']}",
                      fontsize=10)
        for a in (ax, ax2):
            a.set_xlabel("receivers")
            a.set_xticks(allns)
            a.grid(True, alpha=0.3)
        ax2.set_ylim(bottom=0)
        ax.legend(fontsize=8, loc="lower left")
    finish(fig, "fanout-delivered.png")
    return written


# --------------------------------------------------------------------------
# the doc section


def f3(v, none="-"):
    return none if v is None else f"{v:.3f}"


def findings(results: dict) -> list[str]:
    """Sentences computed from the numbers."""
    L = []
    modes = [x for x in MODES if x["key"] in results["modes"]]
    sizes = [s for s in SIZES if any(r["size"] == s
                                     for r in results["runs"])]
    lab = {x["key"]: x["label"] for x in MODES}
    for size in sizes:
        ns = sorted({r["n"] for r in results["runs"]
                     if r["n"] and r["size"] == size})
        if len(ns) < 2:
            continue
        lo, hi = ns[0], ns[-1]
        grow = {}
        for x in modes:
            a = summary(results, size, x["key"], lo)
            b = summary(results, size, x["key"], hi)
            if a and b and a["cores"]:
                grow[x["key"]] = (a["cores"], b["cores"])
        if "tile-multicast" in grow:
            mc = grow["tile-multicast"]
            others = [f"{lab[k]} {v[1] / v[0]:.1f}x ({v[0]:.3f} -> "
                      f"{v[1]:.3f})" for k, v in grow.items()
                      if k != "tile-multicast"]
            L.append(
                f"{SIZES[size]['label']}: from {lo} to {hi} receivers the "
                f"sender's CPU grows {mc[1] / mc[0]:.1f}x with multicast "
                f"({mc[0]:.3f} -> {mc[1]:.3f} cores), against "
                + ", ".join(others) + f". With {hi} receivers multicast "
                "costs the sender " + ", ".join(
                    f"{mc[1] / v[1]:.2f}x {lab[k]}'s" for k, v in
                    grow.items() if k != "tile-multicast") + ".")
        short = []
        for x in modes:
            for n in ns:
                s = summary(results, size, x["key"], n)
                if s and s.get("whole_fps_mean") is not None \
                        and s["whole_fps_mean"] < 0.95 * FPS:
                    extra = ""
                    if (s.get("rss_growth_mb") or 0) > 50:
                        extra = (f", the sender grew {s['rss_growth_mb']:.0f}"
                                 " MiB in the window (queued frames)")
                    short.append(
                        f"{lab[x['key']]} with {n} receivers "
                        f"({s['whole_fps_mean']:.1f} frames/s each, slowest "
                        f"{s['whole_fps_min']:.1f}; receivers "
                        f"{s['receivers_cpu_cores']:.2f} cores, machine "
                        f"{s['machine_busy']:.2f}{extra})")
        full = [lab[x["key"]] for x in modes
                if all((summary(results, size, x["key"], n) or {}).get(
                    "whole_fps_mean", 0) >= 0.98 * FPS for n in ns)]
        if short:
            L.append(f"{SIZES[size]['label']}: below 95 % of the "
                     f"{FPS} frames/s: " + "; ".join(short) + "."
                     + (" Every frame (at least 98 %) reached every "
                        "receiver at every N with: " + ", ".join(full)
                        + "." if full else ""))
    # UDP frames with gaps: why
    rx = [e for r in results["runs"] if not r.get("error")
          and r["mode"] in ("tile-udp", "tile-multicast")
          for e in r.get("receivers", [])]
    partial = sum(e.get("frames-partial", 0) for e in rx)
    frames = sum(e.get("frames", 0) for e in rx)
    if partial and any("packets-late" in e for e in rx):
        timer = sum(e.get("frames-timer", 0) for e in rx)
        lost = sum(e.get("packets-lost", 0) for e in rx)
        late = sum(e.get("packets-late", 0) for e in rx)
        kdrop = sum(e.get("kernel-drops", 0) for e in rx)
        L.append(
            f"UDP frames with gaps: {partial} of the {frames} frames the "
            "tilesrc receivers pushed over all udp and multicast points "
            f"({100 * partial / frames:.2f} %); {timer} of them pushed by "
            f"their timer; {lost} datagrams missing from them, and "
            f"{late} datagrams arriving after their frame was pushed "
            f"(late: {100 * late / lost:.0f} % of the missing ones; the "
            "window's edges split some frames' counts); the kernel dropped "
            f"{kdrop}. So the gaps are datagrams that came after their "
            "frame's timer, not losses: on this loopback a frame's tiles "
            "start at different times when many unit threads share the "
            f"{results['machine']['cpu_count']} cores.")
    dropped = [(r["size"], r["mode"], r["n"],
                r["sink_stats"]["frames-dropped"])
               for r in results["runs"] if not r.get("error")
               and (r.get("sink_stats") or {}).get("frames-dropped")]
    if dropped:
        L.append("tilesink dropped frames (max-in-flight, a receiver's "
                 "window) in: " + "; ".join(
                     f"{SIZES[s]['label']} {lab[m]} N={n}: {d}"
                     for s, m, n, d in dropped) + ".")
    return L


def mode_rows(results: dict, size: str, modes: list, ns: list,
              cell) -> list[str]:
    """A table row per mode: cell(summary or None, mode key, n) for each N."""
    rows = []
    for x in modes:
        cells = [cell(summary(results, size, x["key"], n), x["key"], n)
                 for n in ns]
        rows.append(f"| {x['label']} | " + " | ".join(cells) + " |")
    return rows


def size_tables(results: dict, size: str) -> list[str]:
    modes = [x for x in MODES if x["key"] in results["modes"]]
    ns = sorted({r["n"] for r in results["runs"]
                 if r["n"] and r["size"] == size})
    base = baseline_cores(results, size)
    t = results["timing"][size]
    head = ["| sender | " + " | ".join(f"N = {n}" for n in ns) + " |",
            "|---|" + "---|" * len(ns)]
    L = [f"### {SIZES[size]['label']}, {FPS} frames/s "
         f"({frame_bytes(size)} bytes a frame, "
         f"{offered_gbps(size) * 1e3:.0f} Mbit/s per receiver)", ""]
    L.append(f"{t['seconds']:g} s measured per point after {t['warmup']:g} "
             "s of warm-up; one run per cell unless said.")
    L.append("")

    L.append("#### Sender CPU: cores (per receiver above source only, % of "
             "a core)")
    L.append("")
    def cpu_cell(s, key, n):
        if not s:
            return "-"
        per = (s["cores"] - (base or 0)) / n * 100
        c = f"{s['cores']:.3f} ({per:.1f} %)"
        return c + (f", median of {s['runs']}" if s["runs"] > 1 else "")

    L += head
    L += mode_rows(results, size, modes, ns, cpu_cell)
    nb = len(points(results, size, BASELINE, 0))
    L.append("| source only (no sink) | "
             + " | ".join([f3(base) + (f", median of {nb}" if nb > 1
                                       else "")] + [""] * (len(ns) - 1))
             + " |")
    L.append("")

    L.append("#### Delivered: whole frames/s per receiver (mean / slowest), "
             "all receivers' Gbit/s")
    L.append("")
    def delivered_cell(s, key, n):
        if not s:
            err = [r for r in results["runs"] if r["size"] == size
                   and r["mode"] == key and r["n"] == n and r.get("error")]
            return "error" if err else "-"
        c = (f"{s['whole_fps_mean']:.1f} / {s['whole_fps_min']:.1f}, "
             f"{s['whole_gbps']:.2f}")
        if s.get("partial_frames"):
            c += f" (+{s['partial_frames']} partial)"
        if s.get("dropped"):
            c += f" [tilesink dropped {s['dropped']}]"
        if (s.get("rss_growth_mb") or 0) > 50:
            c += (f" [sender grew {s['rss_growth_mb']:.0f} MiB: queued "
                  "for slower clients]")
        return c

    L += head
    L += mode_rows(results, size, modes, ns, delivered_cell)
    L.append("")
    L.append("*+P partial*: frames tilesrc pushed with gaps (UDP) over the "
             "window, all receivers together, not counted as whole. "
             "*Slowest*: the receiver with the fewest whole frames.")
    L.append("")

    L.append("#### tilesrc latency (ms): p50, median over the receivers / "
             "p99 of the worst receiver")
    L.append("")
    L += head
    L += mode_rows(
        results, size, [x for x in modes if x["key"] in TILE_MODES], ns,
        lambda s, key, n: "-" if not s or s.get("latency_p50_ms_median")
        is None else f"{s['latency_p50_ms_median']:.2f} / "
        f"{s['latency_p99_ms_max']:.2f}")
    L.append("")

    L.append("#### Receivers' CPU / the whole run's (cores)")
    L.append("")
    L.append("All receivers together / the machine's busy cores (of "
             f"{results['machine']['cpu_count']}) less what other processes "
             "used: sender, receivers and the kernel's threads.")
    L.append("")
    L += head
    L += mode_rows(
        results, size, modes, ns,
        lambda s, key, n: "-" if not s else
        f"{s['receivers_cpu_cores']:.2f} / {s['machine_busy']:.2f}")
    L.append("")
    return L


def markdown(results: dict, figs: list[str]) -> str:
    m = results["machine"]
    sizes = [s for s in SIZES if any(r["size"] == s
                                     for r in results["runs"])]
    L = [MARK_BEGIN, "", "## Fan-out: many receivers", ""]
    L.append(
        f"Measured {results['date']} at gst-bc {results['git']}"
        + (f" (the tree was at {results['git_end']} by the end)"
           if results.get("git_end") not in (None, results["git"]) else "")
        + " on "
        f"{m['cpu']} ({m['cpu_count']} cores), Linux {m['kernel']}, "
        f"GStreamer {m['gstreamer']}; {results['seconds']:.0f} s for the "
        f"whole run (`{results['command']}`). Other processes used "
        f"{results['other_cpu_cores_median']:.2f} cores (median over the "
        f"points, max {results['other_cpu_cores_max']:.2f}) while this ran. "
        "The sender, its receivers and the kernel's loopback work share "
        f"the {m['cpu_count']} cores, and one run per cell is shown, so "
        "differences of 10-20 % are within the noise.")
    L.append("")
    L.append(
        "Method (`benchmarks/fanout/run.sh`): every process in a network "
        "namespace of the run's own (`unshare -n`: loopback up, `multicast "
        "on`, a route for 224.0.0.0/4 on it), every mode on 127.0.0.1. The "
        f"frames: {FRAMES_N} BC1 frames of each size encoded once with "
        "`bc1enc` into files and replayed in a loop at "
        f"{FPS} frames/s by every sender: `multifilesrc loop=true ! "
        "rawvideoparse` (GRAY8 of width x height/2: the same bytes, "
        "timestamped) `! capssetter` (video/x-bc, BC1) `! clocksync ! "
        "<sink>`, so the sender does no encoding; *source only* is that "
        "pipeline into a `fakesink`, the floor under every sender. "
        f"Senders: `tilesink host=127.0.0.1 units={UNITS}` (*tcp*), the "
        f"same with `protocol=udp` (*udp*: a session per receiver) and with "
        f"`protocol=udp multicast-group={GROUP}` (*multicast*: every "
        "datagram sent once, to the group), other properties at their "
        "defaults (max-in-flight=1, rate control on); `tee name=t` and for "
        "each receiver `t. ! queue ! tcpserversink sync=false port=P+i` "
        "(*tee + N tcpserversink*); one `tcpserversink sync=false` with N "
        "clients (*tcpserversink, N clients*), its other properties at "
        "their defaults (no limit on a client's queue). Receivers, a "
        "process each: `tilesrc ! fakesink`, and `tcpclientsrc ! "
        "rawvideoparse ! fakesink` for tcpserversink. Each sender and "
        "receiver is a `gst-launch-1.0`. Per point: the sender starts, the "
        "N receivers connect, and once every receiver has a frame, after "
        "the warm-up, over the measured window: the sender process's CPU "
        "time (user + system of all its threads, /proc/PID/stat) over the "
        "wall time = *cores*; each receiver's frames at its fakesink (a "
        "`-v` line per buffer, counted as they come): frames/s, of which "
        "*partial* (tilesrc's `frames-partial`: UDP frames pushed with "
        "gaps) are not counted as whole; Gbit/s = whole frames x frame "
        "bytes over all receivers; tilesrc's `latency-p50`/`-p99` (its "
        "statistics, over its last 1024 frames: from tilesink's render to "
        "tilesrc's push, same clock). On loopback the receivers' kernel "
        "work may run in the sender's system calls and be charged to it, "
        "for every mode alike: a wire would take some of that off the "
        "sender.")
    L.append("")

    rt = results.get("ratio")
    L.append("### 3 multicast receivers against 1")
    L.append("")
    if rt:
        L.append(
            f"The target: 3 multicast receivers cost the sender at most "
            f"{RATIO_BAR}x the CPU of one. Measured "
            f"({SIZES[rt['size']]['label']}): "
            f"{rt['cores'][1]:.3f} / {rt['cores'][0]:.3f} cores = "
            f"**{rt['ratio']:.2f}x** (medians of {rt['samples'][1]} and "
            f"{rt['samples'][0]} runs, interleaved: "
            + ", ".join(f"{c:.3f}" for c in rt["cores_each"][1]) + " and "
            + ", ".join(f"{c:.3f}" for c in rt["cores_each"][0]) + ")"
            + (f"; above the source-only floor ({rt['baseline_cores']:.3f} "
               f"cores): {rt['ratio_net']:.2f}x" if rt.get("ratio_net")
               is not None else "")
            + f": {'met' if rt['met'] else '**not met**'}.")
    else:
        L.append("Not measured (multicast runs missing or failed).")
    L.append("")

    f = findings(results)
    if f:
        L.append("### Findings")
        L.append("")
        for x in f:
            L.append(f"- {x}")
        L.append("")

    for size in sizes:
        L += size_tables(results, size)

    errs = [r for r in results["runs"] if r.get("error")]
    if errs:
        L.append("Points that failed: " + "; ".join(
            f"{r['size']} {r['mode']} N={r['n']}: {r['error'][:160]}"
            for r in errs) + ".")
        L.append("")
    if results.get("skipped"):
        L.append("Skipped: " + "; ".join(results["skipped"]) + ".")
        L.append("")
    if figs:
        L.append("### Figures")
        L.append("")
        for f in figs:
            L.append(f"![{Path(f).stem}]({f})")
        L.append("")
    L.append(MARK_END)
    return "\n".join(L) + "\n"


# --------------------------------------------------------------------------


def git_describe() -> str:
    d = benchlib.command_output(["git", "-C", str(SRC), "describe",
                                 "--always", "--dirty"])
    return d or "unknown"


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="",
                    help=f"comma-separated sizes of {list(SIZES)} (default:"
                    f" {list(FULL)}, --quick {list(QUICK)})")
    ap.add_argument("--modes", default="",
                    help="comma-separated modes (default: all)")
    ap.add_argument("--ns", default="",
                    help="comma-separated receiver counts (default: "
                    "1,2,4,8, --quick 1,4)")
    ap.add_argument("--seconds", type=float, help="measured s per point")
    ap.add_argument("--ratio-repeats", type=int,
                    help="extra interleaved multicast (1, 3) pairs")
    ap.add_argument("--section-out", type=Path,
                    help="also write the doc section alone to this file "
                    "(figure links as from docs/ to docs/perf/)")
    ap.add_argument("--in-netns", action="store_true",
                    help=argparse.SUPPRESS)
    ap.add_argument("--no-netns", action="store_true",
                    help="run in this network namespace (tile-multicast "
                    "then needs multicast on lo and a 224.0.0.0/4 route)")
    benchlib.add_output_options(
        ap, "1080p, N = 1 and 4 (and 3 for multicast), 3 s a point "
        "(about 1 minute); writes results-quick.json and quick/*.png, not "
        "the doc", "benchmarks/fanout/run.sh")
    args = ap.parse_args()
    write_doc_too = benchlib.resolve_outputs(args, HERE)

    if args.report_only:
        results = json.loads(args.out.read_text())
        return report(args, results, write_doc_too)

    if not args.in_netns and not args.no_netns:
        reexec_in_netns()  # returns only when it cannot

    started = time.monotonic()
    git = git_describe()  # what the run starts with (the tree may move)
    base_plan = QUICK if args.quick else FULL
    plan = {}
    for size in (args.sizes.split(",") if args.sizes else base_plan):
        if size not in SIZES:
            ap.error(f"unknown size {size}")
        p = dict(base_plan.get(size) or FULL[size])
        if args.quick:
            p.update({k: v for k, v in QUICK[RATIO_SIZE].items()
                      if k != "ratio_repeats"})
        if args.ns:
            p["ns"] = [int(x) for x in args.ns.split(",")]
        if args.seconds:
            p["seconds"] = args.seconds
        if args.ratio_repeats is not None:
            p["ratio_repeats"] = args.ratio_repeats
        if size != RATIO_SIZE:
            p["ratio_repeats"] = 0
        plan[size] = p
    modes = [m["key"] for m in MODES
             if not args.modes or m["key"] in args.modes.split(",")]
    skipped = []
    mc_ok = lo_multicast_ready()
    if "tile-multicast" in modes and not mc_ok:
        skipped.append("tile-multicast: no multicast on lo or no route for "
                       "224.0.0.0/4 in this network namespace")
        modes.remove("tile-multicast")
        log("skipping tile-multicast: " + skipped[-1])
    for e in ("tilesink", "tilesrc", "tcpserversink", "tcpclientsrc",
              "rawvideoparse", "capssetter", "clocksync", "multifilesrc",
              "bc1enc"):
        if not benchlib.command_output(["gst-inspect-1.0", e]):
            log(f"the GStreamer element {e} is missing "
                "(GST_PLUGIN_PATH: the build's gst/ folder?)")
            return 1

    machine = benchlib.machine_info()
    quiet = benchlib.wait_for_quiet(args.quick)

    # the order, per size: the baseline, then per N every mode (so drift in
    # the machine's load spreads over the modes), multicast N=3 after
    # N=1, the extra (1, 3) pairs, then the baseline again
    order = []
    for size, p in plan.items():
        timing = {"seconds": p["seconds"], "warmup": p["warmup"]}
        order.append((size, BASELINE, 0, "", timing))
        for n in p["ns"]:
            for mode in modes:
                order.append((size, mode, n, "", timing))
            if "tile-multicast" in modes and size == RATIO_SIZE \
                    and n == RATIO_N[0] and RATIO_N[1] not in p["ns"]:
                order.append((size, "tile-multicast", RATIO_N[1], "",
                              timing))
        if "tile-multicast" in modes:
            for i in range(p["ratio_repeats"]):
                for n in RATIO_N:
                    order.append((size, "tile-multicast", n,
                                  f"repeat {i + 1}", timing))
        order.append((size, BASELINE, 0, "again", timing))
    est = sum(t["seconds"] + t["warmup"] + 2.5 for *_, t in order)
    log(f"{len(order)} points, about {est / 60:.1f} minutes "
        f"(netns: {'own' if args.in_netns else 'the host'}'s, multicast "
        f"{'ready' if mc_ok else 'not ready'})")

    work = Path(tempfile.mkdtemp(prefix="gstbc-fanout."))
    runs = []
    port = 20000 + (os.getpid() % 200) * 100
    try:
        for size in plan:
            encode_frames(work / size, size)
        for size, mode, n, tag, timing in order:
            r = run_point(size, mode, n, port, work / size, timing, tag)
            port += 50
            runs.append(r)
            log(describe(r))
            time.sleep(0.3)
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    finally:
        shutil.rmtree(work, ignore_errors=True)

    others = sorted(r.get("other_cpu_cores", 0) for r in runs) or [0]
    results = {
        **benchlib.results_header(
            args, machine, git,
            "net.core sysctls unchanged: rmem_max "
            f"{benchlib.command_output(['sysctl', '-n', 'net.core.rmem_max'])}"
            ", wmem_max "
            f"{benchlib.command_output(['sysctl', '-n', 'net.core.wmem_max'])}"
            " (tilesink/tilesrc ask for 16 MiB with SO_*BUFFORCE as root; "
            "tcpserversink/tcpclientsrc use the kernel's defaults)"),
        "git_end": git_describe(),
        "netns": ("own (unshare -n), lo multicast, route 224.0.0.0/4 dev lo"
                  if args.in_netns else "the host's"),
        "other_cpu_cores_before": round(quiet, 3),
        "other_cpu_cores_median": others[len(others) // 2],
        "other_cpu_cores_max": others[-1],
        "frames": {s: {"format": "BC1", "width": SIZES[s]["w"],
                       "height": SIZES[s]["h"], "bytes": frame_bytes(s),
                       "offered_gbps_per_receiver":
                           round(offered_gbps(s), 4)} for s in plan},
        "fps": FPS,
        "distinct_frames": FRAMES_N,
        "tilesink_units": UNITS,
        "multicast_group": GROUP,
        "timing": {s: {"seconds": p["seconds"], "warmup": p["warmup"],
                       "ns": p["ns"], "ratio_repeats": p["ratio_repeats"]}
                   for s, p in plan.items()},
        "modes": modes,
        "mode_labels": {m["key"]: m["label"] for m in MODES
                        if m["key"] in modes},
        "skipped": skipped,
        "runs": runs,
        "seconds": time.monotonic() - started,
    }
    return report(args, results, write_doc_too)


def report(args, results: dict, write_doc_too: bool) -> int:
    results["ratio"] = ratio(results)
    figs = benchlib.write_figures(plots, results, args.plots_dir, args.doc)
    results["figures"] = figs
    benchlib.write_json(args.out, results)
    log(f"wrote {args.out}")
    section = markdown(results, figs)
    benchlib.publish_section(section, MARK_BEGIN, MARK_END, args.doc,
                             write_doc_too)
    if args.section_out:
        # the links as they are once the figures are in docs/perf/, where
        # the section in docs/performance.md looks for them
        args.section_out.write_text(markdown(
            results, [f"perf/{Path(f).name}" for f in figs]))
        log(f"wrote {args.section_out} (figure links: docs/perf/)")
    rt = results["ratio"]
    if rt:
        log(f"multicast sender CPU, {RATIO_N[1]} receivers / "
            f"{RATIO_N[0]}: {rt['cores'][1]:.3f} / {rt['cores'][0]:.3f} = "
            f"{rt['ratio']:.2f}x (bar {RATIO_BAR}x: "
            f"{'met' if rt['met'] else 'NOT met'})")
    bad = [r for r in results["runs"] if r.get("error")]
    for r in bad:
        log(f"failed: {r['size']} {r['mode']} N={r['n']}: "
            f"{r['error']}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
