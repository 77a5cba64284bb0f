#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Congestion benchmark: what happens when the network is slower than the
stream, for tilesink/tilesrc (protocol=tcp and udp) and the GStreamer
transports a user would try instead (tcpserversink/tcpclientsrc with
gdppay, rtpvrawpay/udpsink, srtsink/srtsrc), on the same emulated link.

Run through benchmarks/congestion/run.sh, which builds bc-congestion-bench
and the plugins, installs what is missing, makes the two network
namespaces (sender and receiver, a veth pair between them) and the venv,
then runs this with their names and addresses.

For every stream size, bottleneck rate and contender: a tbf qdisc on the
sender's veth (`tbf rate R burst B latency 20ms`, B = max(16 KiB, 1 ms of
R)), then bc-congestion-bench --role send in the sender's namespace and
--role receive in the receiver's (see its header comment: frames stamped
with the sender's CLOCK_REALTIME, checked whole at the receiver's appsink).
Frames are pushed at 60 frames/s from an agreed start time T0 for the
warm-up plus the measured seconds; the receiver stops 1 s after the last
push. Per run:

- over the whole frames received during the measured window: latency p50,
  p99 and max (nearest rank), frames/s and goodput (Mbit/s of whole
  frames);
- over the frames pushed during the window: lost % (not delivered whole by
  the end of the run) and partial % (delivered with bytes missing);
- whether the latency is still growing: the median latency of the frames
  received in the window's last second against its second second, and the
  longest gap between two whole frames (a stall);
- the tbf's counters (bytes, drops), the sink's and source's statistics
  (tilesink frames dropped, SRT retransmissions and drops, RTP sequence
  gaps), CPU time of both ends and of the rest of the machine.

Also iperf3 (TCP, one stream) through every bottleneck: what bulk TCP
carries on it.

Then (issue 36) the same contenders (tilesink/tilesrc udp and tcp,
rtpvrawpay, srtsink latency 20 and 125) on impaired links:

- loss rows: 2160p BC1 at 30 fps with no tbf, an nftables rule in the
  receiver's namespace dropping 0, 1, 2, 5 % of the contender's packets
  at random (numgen random) and 2 % in bursts of 50 packets in a row
  (numgen inc mod 2500 >= 2450), the sender's veth segmenting GSO batches;
- cross-traffic rows: a 1280x360 GRAY8 stream at 30 fps (111 Mbit/s) and
  a 1920x540 GRAY8 stream at 60 fps (498 Mbit/s) on a 300 Mbit/s tbf
  beside 1 and 4 iperf3 TCP flows (-P) started a second before the
  stream; the stream's and the flows' shares of the link over the
  stream's measured window;
- clean-path rows: a 1280x720 GRAY8 stream at 30 fps (221 Mbit/s) alone on
  a 700 Mbit/s tbf (256 KB burst, 20 ms queue), no drop rule (as
  tests/netns clean-udp): partial frames, latency, the longest time
  between two whole frames at the receiver (the issue's bound: 1.5 frame
  intervals, 50 ms), no stall or latency growth over --seconds (60 s).

The issue's target rows (2 % and 5 % loss, the two streams beside one
flow) run --seconds (60 s) for tilesink udp, the 2 % row, the 111 Mbit/s
row and the clean-path row for every contender; the targets are checked and reported
(met / missed), never asserted.

Writes benchmarks/congestion/results.json (per-frame series of the whole
frames: receive time and latency), docs/perf/congestion-*.png and the
section between <!-- congestion-bench:begin --> and
<!-- congestion-bench:end --> of docs/performance.md. --quick: 1080p at
300 Mbit/s only, the 2 % loss row, the 111 Mbit/s stream beside one flow
and the clean-path row for tilesink udp only, 2-3 s a run; writes
results-quick.json and quick/*.png only.

Timings on a shared 2-core machine are noisy; nothing here asserts
anything.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
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
from benchlib import OtherCpu, log  # noqa: E402

MARK_BEGIN = "<!-- congestion-bench:begin -->"
MARK_END = "<!-- congestion-bench:end -->"

FPS = 60
TBF_LATENCY_MS = 20
KEY_RATE = 300e6  # the rate of the latency-over-time figure
GOODPUT_FLOOR = 10  # Mbit/s: the goodput figure's floor (log scale)

# stream: key -> label, BC1 size, bottleneck rates (bit/s), warm-up and
# measured seconds (full run)
SIZES = {
    "1080p": dict(label="1080p BC1", w=1920, h=1080,
                  rates=[100e6, 300e6, 1e9, 2.5e9, 5e9], warmup=2.0,
                  seconds=6.0),
    "2160p": dict(label="2160p BC1", w=3840, h=2160,
                  rates=[1e9, 2.5e9, 5e9], warmup=2.0, seconds=6.0),
}
QUICK = {"1080p": dict(rates=[300e6], warmup=1.0, seconds=2.0)}
GRACE = 1.0  # s after the last push that the receiver keeps receiving
QUICK_GRACE = 0.5

# key, label, bc-congestion-bench --transport, its other options, style
CONTENDERS = [
    dict(key="tile-tcp", label="tilesink/tilesrc tcp", transport="tile-tcp",
         args=[], color="#08519c", marker="o"),
    dict(key="tile-udp", label="tilesink/tilesrc udp", transport="tile-udp",
         args=[], color="#6baed6", marker="s"),
    dict(key="tile-tcp-leaky",
         label="tilesink/tilesrc tcp, max-in-flight=2 leaky=downstream",
         transport="tile-tcp",
         args=["--sink-props", "max-in-flight=2 leaky=downstream"],
         color="#2171b5", marker="P"),
    dict(key="tcp-gdp", label="tcpserversink + gdppay", transport="tcp-gdp",
         args=[], color="#e6550d", marker="^"),
    dict(key="rtp", label="rtpvrawpay + udpsink", transport="rtp", args=[],
         color="#31a354", marker="v"),
    dict(key="srt-125", label="srtsink latency=125 (default)",
         transport="srt", args=[], color="#756bb1", marker="D",
         srt_latency=125),
    dict(key="srt-20", label="srtsink latency=20", transport="srt",
         args=["--srt-latency", "20"], color="#bcbddc", marker="d",
         srt_latency=20),
]
CONT = {c["key"]: c for c in CONTENDERS}
# the end that listens: the other one connects to it
SENDER_LISTENS = {"tile-tcp", "tile-udp", "tcp-gdp"}  # transports

# The loss section: 2160p BC1 at 30 fps (995 Mbit/s) on the veth with no
# tbf (as tests/netns lat-0 / lat-2), a drop rule in the receiver's
# namespace (nft, on the contender's protocol: TCP segments for tilesink
# tcp, UDP datagrams for the others), the sender's veth cutting GSO
# batches into packets so that the rule sees packets.
LOSS_STREAM = dict(label="2160p BC1, 30 fps", w=3840, h=2160, fmt="bc1",
                   fps=30, warmup=2.0, seconds=6.0)
# key, label, nft expression (None: no rule)
LOSS_ROWS = [
    dict(key="0", label="no loss", expr=None),
    dict(key="1", label="1 % random", expr="numgen random mod 100 < 1"),
    dict(key="2", label="2 % random", expr="numgen random mod 100 < 2"),
    dict(key="5", label="5 % random", expr="numgen random mod 100 < 5"),
    # 50 packets in a row out of every 2500: 2 % as in row "2", in bursts
    # (at 995 Mbit/s of 1.4 KB packets about 0.6 ms each, every 28 ms);
    # the last 50, not the first: a first burst would drop the
    # handshakes (TCP's SYN-ACK, SRT's) 50 times over
    dict(key="burst", label="2 % in bursts of 50",
         expr="numgen inc mod 2500 >= 2450"),
]
LOSS_ROW = {r["key"]: r for r in LOSS_ROWS}
SERIES_ROW = "2"  # the row whose latency over time is drawn
# tilesink/tilesrc at their defaults (udp: retransmit on, fec=auto)
IMPAIRED_CONTENDERS = ["tile-udp", "tile-tcp", "rtp", "srt-20", "srt-125"]

# The cross-traffic section: a 300 Mbit/s tbf, iperf3 TCP flows (-P 1 or 4)
# from the sender's namespace to the receiver's, started a second before
# the stream's ends, beside two streams (as tests/netns fair-udp and
# fair-over)
CROSS_RATE = 300e6
CROSS_TBF = "rate 300mbit burst 256kb latency 20ms"
CROSS_STREAMS = {
    "fair": dict(label="1280x360 GRAY8, 30 fps", w=1280, h=360,
                 fmt="gray8", fps=30, warmup=2.0, seconds=6.0),
    "over": dict(label="1920x540 GRAY8, 60 fps", w=1920, h=540,
                 fmt="gray8", fps=60, warmup=2.0, seconds=6.0),
}
CROSS_FLOWS = [1, 4]
CROSS_LEAD = 1.0  # s from the iperf3 client's start to the stream's ends'

# The clean-path section (issue 36, as tests/netns clean-udp): a 1280x720
# GRAY8 stream at 30 fps (221 Mbit/s) alone on a 700 Mbit/s tbf (more than
# twice its rate), no drop rule: every frame whole, no time between two
# whole frames at the receiver over CLEAN_GAP frame intervals, no stall or
# latency growth; every row a long row (--seconds, 60 s)
CLEAN_STREAM = dict(label="1280x720 GRAY8, 30 fps", w=1280, h=720,
                    fmt="gray8", fps=30, warmup=2.0)
CLEAN_RATE = 700e6
CLEAN_TBF = "rate 700mbit burst 256kb latency 20ms"
CLEAN_GAP = 1.5  # frame intervals

# the rows run --seconds (60 s in the full run) instead of the section's
# own seconds, and for which contenders (None: all): the issue's target
# rows, the whole row where the issue names it
LONG = {("loss", "2"): None, ("loss", "5"): {"tile-udp"},
        ("cross", "fair", 1): None, ("cross", "over", 1): {"tile-udp"}}
LONG_SECONDS = 60.0
# --quick: one row of each
QUICK_LOSS = dict(rows=["2"], warmup=1.0, seconds=2.0)
QUICK_CROSS = dict(rows=[("fair", 1)], warmup=1.0, seconds=3.0)
QUICK_CLEAN = dict(contenders=["tile-udp"], warmup=1.0, seconds=3.0)


def frame_bytes(size: dict) -> int:
    """BC1: half a byte a pixel; GRAY8 (fmt "gray8"): a byte"""
    return size["w"] * size["h"] // (1 if size.get("fmt") == "gray8" else 2)


def offered_bps(size: dict) -> float:
    return frame_bytes(size) * 8 * size.get("fps", FPS)


def rate_label(r: float) -> str:
    return f"{r / 1e9:g} Gbit/s" if r >= 1e9 else f"{r / 1e6:g} Mbit/s"


def burst_bytes(rate: float) -> int:
    """1 ms at the rate, at least 16 KiB: the link lets no more than that
    through above its rate (a bigger bucket, filled while a sender that
    keeps below the rate idles, would carry frames faster than the rate)"""
    return max(16 * 1024, int(rate / 8 * 0.001))


def tbf_spec(rate: float) -> str:
    return (f"rate {int(rate / 1e6)}mbit burst {burst_bytes(rate)} "
            f"latency {TBF_LATENCY_MS}ms")


# --------------------------------------------------------------------------
# the machine


def machine_info() -> dict:
    srt = benchlib.command_output(
        ["dpkg-query", "-W", "-f", "${Version}", "libsrt1.5-gnutls"]) \
        or benchlib.command_output(
            ["dpkg-query", "-W", "-f", "${Version}", "libsrt1.5-openssl"])
    return benchlib.machine_info(libsrt=srt or "?")


def git_describe() -> str:
    d = benchlib.command_output(["git", "-C", str(SRC), "describe",
                                 "--always", "--dirty"])
    return d or "unknown"


# --------------------------------------------------------------------------
# the link and the runs


class Net:
    def __init__(self, args):
        self.tx, self.rx = args.ns_tx, args.ns_rx
        self.addr_tx, self.addr_rx = args.addr_tx, args.addr_rx
        self.dev = args.dev_tx

    def tc(self, *a, check=True):
        return subprocess.run(["tc", "-n", self.tx, *a], capture_output=True,
                              text=True, check=check)

    def set_rate(self, rate: float):
        self.tc("qdisc", "del", "dev", self.dev, "root", check=False)
        self.tc("qdisc", "add", "dev", self.dev, "root", "tbf",
                *tbf_spec(rate).split())

    def clear(self):
        self.tc("qdisc", "del", "dev", self.dev, "root", check=False)

    def set_tbf(self, spec: str):
        self.clear()
        self.tc("qdisc", "add", "dev", self.dev, "root", "tbf",
                *spec.split())

    def segment(self, on: bool) -> str | None:
        """Whether the sender's veth cuts TCP and UDP GSO batches into
        packets (on: as a NIC puts them on the wire; off, the default, a
        veth carries a batch of up to 64 KiB to the other namespace as one
        packet, which a drop rule would drop whole); an error or None"""
        v = "off" if on else "on"
        out = subprocess.run(
            ["ip", "netns", "exec", self.tx, "ethtool", "-K", self.dev,
             "tx-udp-segmentation", v, "tso", v], capture_output=True,
            text=True)
        return None if out.returncode == 0 else \
            (out.stderr.strip() or f"ethtool exit {out.returncode}")[:200]

    def nft_drop(self, proto: str, expr: str) -> str | None:
        """Drops the @proto packets arriving in the receiver's namespace
        that @expr (an nft numgen expression) selects, counting them all
        first; an error or None"""
        self.nft_clear()
        script = (
            "table inet gstbc_cg {\n"
            "  chain in {\n"
            "    type filter hook input priority 0; policy accept;\n"
            f"    meta l4proto {proto} counter\n"
            f"    meta l4proto {proto} {expr} counter drop\n"
            "  }\n"
            "}\n")
        out = subprocess.run(["ip", "netns", "exec", self.rx, "nft", "-f",
                              "-"], input=script, capture_output=True,
                             text=True)
        return None if out.returncode == 0 else \
            (out.stderr.strip() or f"nft exit {out.returncode}")[:200]

    def nft_counts(self) -> tuple[int, int] | None:
        """(packets seen, packets dropped) by the rules of nft_drop ()"""
        out = benchlib.command_output(["ip", "netns", "exec", self.rx, "nft",
                                       "list", "table", "inet", "gstbc_cg"])
        c = [int(x) for x in re.findall(r"counter packets (\d+)", out or "")]
        return (c[0], c[1]) if len(c) >= 2 else None

    def nft_clear(self):
        subprocess.run(["ip", "netns", "exec", self.rx, "nft", "delete",
                        "table", "inet", "gstbc_cg"], capture_output=True)

    def qdisc_stats(self) -> dict:
        try:
            q = json.loads(self.tc("-s", "-j", "qdisc", "show", "dev",
                                   self.dev).stdout)
            q = next(x for x in q if x.get("kind") == "tbf")
            return {k: q.get(k) for k in ("bytes", "packets", "drops",
                                          "overlimits", "backlog", "qlen")}
        except (ValueError, StopIteration, subprocess.SubprocessError):
            return {}

    def listening(self, ns: str, udp: bool, port: int) -> bool:
        out = benchlib.command_output(["ip", "netns", "exec", ns, "ss",
                                       "-Hln" + ("u" if udp else "t"),
                                       f"sport = :{port}"])
        return bool(out)


def wait_listen(net: Net, ns: str, udp: bool, port: int, proc,
                deadline: float) -> bool:
    while time.monotonic() < deadline and proc.poll() is None:
        if net.listening(ns, udp, port):
            return True
        time.sleep(0.02)
    return False


def load_json(path: Path):
    try:
        lines = [ln for ln in path.read_text().splitlines()
                 if ln.startswith("{")]
        return json.loads(lines[-1]) if lines else None
    except (OSError, ValueError):
        return None


def tail(path: Path, n: int = 4) -> str:
    try:
        return " | ".join(path.read_text().splitlines()[-n:])
    except OSError:
        return ""


def start_and_wait(net: Net, cont: dict, port: int, lead: float, end: int,
                   cmds: dict, files: dict, first: str, second: str,
                   procs: dict):
    """Starts the listening end, then the other, and waits for both to
    exit (killing them 10 s past the end); an error message or None."""
    error = None
    for role in (first, second):
        out, err = files[role]
        with open(out, "w") as fo, open(err, "w") as fe:
            procs[role] = subprocess.Popen(cmds[role], stdout=fo,
                                           stderr=fe)
        if role == first:
            udp = cont["transport"] in ("rtp", "srt")
            ns = net.tx if role == "tx" else net.rx
            if not wait_listen(net, ns, udp, port, procs[role],
                               time.monotonic() + lead - 0.15):
                error = f"the {role} end did not listen on {port} in time"
    limit = time.monotonic() + (end - time.time_ns()) / 1e9 + 10
    for role in ("rx", "tx"):
        try:
            procs[role].wait(timeout=max(1.0, limit - time.monotonic()))
        except subprocess.TimeoutExpired:
            procs[role].kill()
            procs[role].wait()
            error = error or f"the {role} end did not exit; killed"
    return error


def run_one(args, net: Net, work: Path, size_key: str, size: dict,
            cont: dict, rate: float | None, port: int, timing: dict,
            name: str | None = None, tbf: str | None = None) -> dict:
    """One run of @cont with the stream @size on the link as the caller
    set it: a tbf of @rate (tbf_spec (@rate), or @tbf when given), or none
    (@rate None)."""
    warmup, seconds, grace = (timing["warmup"], timing["seconds"],
                              timing["grace"])
    fps = size.get("fps", FPS)
    lead = 0.6 if args.quick else 1.0
    t0 = time.time_ns() + int(lead * 1e9)
    n = round((warmup + seconds) * fps)
    end = t0 + int((warmup + seconds + grace) * 1e9)
    common = ["--transport", cont["transport"], "--port", str(port),
              "--start", str(t0), "--end", str(end), "-W", str(size["w"]),
              "-H", str(size["h"]), "--fps", f"{fps:g}",
              *(["--format", size["fmt"]] if size.get("fmt") else []),
              *cont["args"]]
    tx_cmd = ["ip", "netns", "exec", net.tx, str(args.driver), "--role",
              "send", "--address", net.addr_tx, "--peer", net.addr_rx,
              "--frames", str(n), *common]
    rx_cmd = ["ip", "netns", "exec", net.rx, str(args.driver), "--role",
              "receive", "--address", net.addr_rx, "--peer", net.addr_tx,
              *common]
    name = name or f"{size_key}-{cont['key']}-{int(rate / 1e6)}"
    files = {r: (work / f"{name}.{r}.json", work / f"{name}.{r}.log")
             for r in ("tx", "rx")}
    first, second = (("tx", "rx") if cont["transport"] in SENDER_LISTENS
                     else ("rx", "tx"))
    cmds = {"tx": tx_cmd, "rx": rx_cmd}
    procs = {}
    try:
        with OtherCpu() as other:
            error = start_and_wait(net, cont, port, lead, end, cmds, files,
                                   first, second, procs)
    finally:
        # interrupted (Ctrl-C, SIGTERM): no end of ours left running
        for p in procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()
    rcs = {role: p.returncode for role, p in procs.items()}
    q = net.qdisc_stats()
    tx, rx = load_json(files["tx"][0]), load_json(files["rx"][0])
    if tx is None or rx is None:
        error = error or ("no JSON from the "
                          + ("sender" if tx is None else "receiver")
                          + f": {tail(files['tx' if tx is None else 'rx'][1])}")
    r = {"size": size_key, "contender": cont["key"], "label": cont["label"],
         "transport": cont["transport"], "rate_bps": rate,
         "tbf": tbf or (tbf_spec(rate) if rate else None),
         "frame_bytes": frame_bytes(size),
         "offered_bps": offered_bps(size), "fps": fps, "port": port,
         "t0_ns": t0,
         "warmup_s": warmup, "seconds": seconds, "grace_s": grace,
         "frames_pushed_total": n,
         "command_tx": " ".join(tx_cmd[4:]), "command_rx": " ".join(
             rx_cmd[4:]),
         "exit_tx": rcs.get("tx"), "exit_rx": rcs.get("rx"),
         "error": error or (tx or {}).get("error") or (rx or {}).get("error"),
         "qdisc": q, "other_cpu_cores": round(other.cores, 3),
         "steal_cores": round(other.steal_cores, 3)}
    if tx:
        r["sender"] = tx
    if rx:
        frames = rx.pop("frames", [])
        r["receiver"] = rx
        r.update(summarize(frames, r))
    if not args.keep_logs:
        for f in (*files["tx"], *files["rx"]):
            f.unlink(missing_ok=True)
    return r


def nearest_rank(v: list, p: float):
    if not v:
        return None
    k = max(1, min(len(v), int(p / 100 * len(v) + 0.999999)))
    return v[k - 1]


def median(v: list):
    v = sorted(v)
    return nearest_rank(v, 50)


def summarize(frames: list, r: dict) -> dict:
    """The run's numbers from the receiver's records [seq, send_us,
    recv_us, whole]."""
    warmup, seconds = r["warmup_s"], r["seconds"]
    fps = r.get("fps", FPS)
    k0, k1 = round(warmup * fps), round((warmup + seconds) * fps)
    w0, w1 = warmup * 1e6, (warmup + seconds) * 1e6
    whole, partial = {}, set()
    for seq, send, recv, ok in frames:
        if ok and send >= 0 and seq not in whole:
            whole[seq] = (send, recv)
        elif not ok:
            partial.add(seq)
    series = sorted((recv / 1e6, (recv - send) / 1e3)
                    for send, recv in whole.values())
    lat = sorted(ms for t, ms in series if w0 <= t * 1e6 < w1)
    pushed_w = k1 - k0
    lost = [k for k in range(k0, k1) if k not in whole]
    partial_w = [k for k in lost if k in partial]
    # the stream's second second (after the first one's start-up) against
    # the window's last
    second = [ms for t, ms in series if 1.0 <= t < 2.0]
    last = [ms for t, ms in series if w1 - 1e6 <= t * 1e6 < w1]
    m2, ml = median(second), median(last)
    growing = None
    if m2 is not None and ml is not None:
        growing = ml - m2 > max(10.0, 0.25 * m2)
    # least-squares slope of the latency over the window, ms per s
    win = [(t, ms) for t, ms in series if w0 <= t * 1e6 < w1]
    slope = None
    if len(win) >= 3:
        mt = sum(t for t, _ in win) / len(win)
        mm = sum(ms for _, ms in win) / len(win)
        var = sum((t - mt) ** 2 for t, _ in win)
        if var > 0:
            slope = sum((t - mt) * (ms - mm) for t, ms in win) / var
    # the longest time without a whole frame in the window
    times = [w0 / 1e6] + [t for t, _ in series if w0 <= t * 1e6 < w1] + \
        [w1 / 1e6]
    gap = max(b - a for a, b in zip(times, times[1:]))
    n = len(lat)
    fb = r["frame_bytes"]
    return {
        "delivered": n,
        "fps_delivered": n / seconds,
        "goodput_mbps": n * fb * 8 / seconds / 1e6,
        "p50_ms": nearest_rank(lat, 50), "p99_ms": nearest_rank(lat, 99),
        "max_ms": lat[-1] if lat else None,
        "mean_ms": sum(lat) / n if n else None,
        "pushed_window": pushed_w, "lost_window": len(lost),
        "lost_pct": 100.0 * len(lost) / pushed_w,
        "partial_window": len(partial_w),
        "partial_pct": 100.0 * len(partial_w) / pushed_w,
        "partial_total": len(partial),
        "median_second_s_ms": m2, "median_last_s_ms": ml,
        "slope_ms_per_s": slope,
        "growing": growing, "longest_gap_s": gap,
        "stalled": gap > 1.0,
        "wire_ms": fb * 8 / r["rate_bps"] * 1e3 if r["rate_bps"] else None,
        # every whole frame of the run: receive time (s after T0), latency
        "series": [[round(t, 4), round(ms, 3)] for t, ms in series],
    }


def run_iperf3(args, net: Net, rate: float, seconds: float) -> dict:
    net.set_rate(rate)
    port = 5201 + int(rate / 1e8) % 500
    srv = subprocess.Popen(["ip", "netns", "exec", net.rx, args.iperf3, "-s",
                            "-1", "-B", net.addr_rx, "-p", str(port)],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    res = {"rate_bps": rate, "tbf": tbf_spec(rate), "seconds": seconds}
    try:
        if not wait_listen(net, net.rx, False, port, srv,
                           time.monotonic() + 3):
            res["error"] = "no iperf3 server"
            return res
        out = subprocess.run(["ip", "netns", "exec", net.tx, args.iperf3,
                              "-c", net.addr_rx, "-p", str(port), "-t",
                              str(seconds), "-J"], capture_output=True,
                             text=True, timeout=seconds + 15)
        j = json.loads(out.stdout)
        end = j["end"]
        res["mbps"] = end["sum_received"]["bits_per_second"] / 1e6
        res["retransmits"] = end["sum_sent"].get("retransmits")
        res["qdisc"] = net.qdisc_stats()
    except (subprocess.SubprocessError, ValueError, KeyError) as e:
        res["error"] = str(e)[:200]
    finally:
        if srv.poll() is None:
            srv.terminate()
        try:
            srv.wait(timeout=3)
        except subprocess.TimeoutExpired:
            srv.kill()
            srv.wait()
    return res


def long_for(key: tuple, cont: str) -> bool:
    return key in LONG and (LONG[key] is None or cont in LONG[key])


def run_loss(args, net: Net, work: Path, conts: list, port: int,
             grace: float) -> tuple[dict, int]:
    """The loss section's runs; returns it and the next free port."""
    st = dict(LOSS_STREAM)
    rows = [r for r in LOSS_ROWS
            if not args.quick or r["key"] in QUICK_LOSS["rows"]]
    if args.quick:
        st.update(warmup=QUICK_LOSS["warmup"], seconds=QUICK_LOSS["seconds"])
    conts = [c for c in conts if c["key"] in IMPAIRED_CONTENDERS]
    started, date = time.monotonic(), benchlib.utc_date()
    runs, notes = [], []
    net.clear()
    err = net.segment(True)
    if err:
        notes.append("the sender's veth could not be made to segment "
                     f"(ethtool: {err}): a drop hits a whole GSO batch")
        log(f"loss: {notes[-1]}")
    try:
        for row in rows:
            for c in conts:
                proto = "tcp" if c["transport"] in ("tile-tcp", "tcp-gdp") \
                    else "udp"
                seconds = st["seconds"]
                if long_for(("loss", row["key"]), c["key"]):
                    seconds = args.seconds if args.seconds else (
                        seconds if args.quick else LONG_SECONDS)
                timing = dict(warmup=st["warmup"], seconds=seconds,
                              grace=grace)
                nerr = None
                if row["expr"]:
                    nerr = net.nft_drop(proto, row["expr"])
                else:
                    net.nft_clear()
                tag = f"loss {row['key']:>5} {c['key']:9}"
                r = run_one(args, net, work, "loss", st, c, None, port,
                            timing, name=f"loss-{row['key']}-{c['key']}")
                port += 1
                counts = net.nft_counts() if row["expr"] else None
                net.nft_clear()
                r.update(section="loss", row=row["key"], tag=tag,
                         drop={"proto": proto, "expr": row["expr"],
                               "seen": counts[0] if counts else None,
                               "dropped": counts[1] if counts else None,
                               "pct": (100.0 * counts[1] / counts[0]
                                       if counts and counts[0] else None),
                               "error": nerr})
                if nerr:
                    r["error"] = r.get("error") or f"nft: {nerr}"
                runs.append(r)
                log(describe(r))
    finally:
        net.nft_clear()
        net.segment(False)
    return ({"date": date, "git": args.git,
             "seconds": time.monotonic() - started,
             "stream": st, "rows": [r["key"] for r in rows],
             "contenders": [c["key"] for c in conts],
             "segmented": not err, "notes": notes, "runs": runs}, port)


def iperf_window(j: dict, t_start: float, w0: float, w1: float) -> dict:
    """The TCP flows' rate over [@w0, @w1) (CLOCK_REALTIME s) from iperf3's
    1 s intervals (the server's, received bytes, when there; the client's,
    sent bytes, else), the intervals that straddle the window's edges
    counted by their overlap; @t_start: when the client was started"""
    srv = j.get("server_output_json") or {}
    iv = srv.get("intervals") or j.get("intervals") or []
    side = "server (received)" if srv.get("intervals") else "client (sent)"
    got = cov = 0.0
    for x in iv:
        sm = x.get("sum") or {}
        a, b = t_start + sm.get("start", 0), t_start + sm.get("end", 0)
        ov = max(0.0, min(b, w1) - max(a, w0))
        if b > a and ov > 0:
            got += sm.get("bytes", 0) * ov / (b - a)
            cov += ov
    end = j.get("end") or {}
    return {"bps": got * 8 / (w1 - w0) if w1 > w0 else None,
            "covered_s": round(cov, 3), "window_s": round(w1 - w0, 3),
            "side": side,
            "retransmits": (end.get("sum_sent") or {}).get("retransmits"),
            "mbps_whole_run": ((end.get("sum_received") or {}).get(
                "bits_per_second") or 0) / 1e6,
            "error": j.get("error")}


def run_cross(args, net: Net, work: Path, conts: list, port: int,
              grace: float) -> tuple[dict, int]:
    """The cross-traffic section's runs; returns it and the next port."""
    rows = [(sk, n) for sk in CROSS_STREAMS for n in CROSS_FLOWS
            if not args.quick or (sk, n) in QUICK_CROSS["rows"]]
    conts = [c for c in conts if c["key"] in IMPAIRED_CONTENDERS]
    started, date = time.monotonic(), benchlib.utc_date()
    runs = []
    have_iperf = bool(shutil.which(args.iperf3))
    try:
        for sk, flows in rows:
            st = dict(CROSS_STREAMS[sk])
            if args.quick:
                st.update(warmup=QUICK_CROSS["warmup"],
                          seconds=QUICK_CROSS["seconds"])
            for c in conts:
                seconds = st["seconds"]
                if long_for(("cross", sk, flows), c["key"]):
                    seconds = args.seconds if args.seconds else (
                        seconds if args.quick else LONG_SECONDS)
                timing = dict(warmup=st["warmup"], seconds=seconds,
                              grace=grace)
                r = cross_one(args, net, work, st, sk, flows, c, port,
                              timing, have_iperf)
                port += 2
                runs.append(r)
                log(describe(r))
    finally:
        net.clear()
    cc = benchlib.command_output(["ip", "netns", "exec", net.tx, "sysctl",
                                  "-n", "net.ipv4.tcp_congestion_control"])
    return ({"date": date, "git": args.git,
             "seconds": time.monotonic() - started, "tbf": CROSS_TBF,
             "tcp_congestion_control": (cc or "?").strip(),
             "rate_bps": CROSS_RATE, "lead_s": CROSS_LEAD,
             "streams": {k: dict(CROSS_STREAMS[k], **(
                 dict(warmup=QUICK_CROSS["warmup"],
                      seconds=QUICK_CROSS["seconds"]) if args.quick else {}))
                 for k in {sk for sk, _ in rows}},
             "rows": [list(x) for x in rows],
             "contenders": [c["key"] for c in conts], "runs": runs}, port)


def cross_one(args, net: Net, work: Path, st: dict, sk: str, flows: int,
              c: dict, port: int, timing: dict, have_iperf: bool) -> dict:
    """@c's stream @st beside @flows iperf3 TCP flows on the 300 Mbit/s
    link"""
    net.set_tbf(CROSS_TBF)
    name = f"cross-{sk}-{flows}-{c['key']}"
    iport = port + 10000
    srv = cli = None
    ierr = None
    t_start = 0.0
    out = work / f"{name}.iperf.json"
    dur = (CROSS_LEAD + (0.6 if args.quick else 1.0) + timing["warmup"]
           + timing["seconds"] + timing["grace"] + 1.0)
    try:
        if have_iperf:
            srv = subprocess.Popen(
                ["ip", "netns", "exec", net.rx, args.iperf3, "-s", "-1",
                 "-J", "-B", net.addr_rx, "-p", str(iport)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if wait_listen(net, net.rx, False, iport, srv,
                           time.monotonic() + 3):
                with open(out, "w") as fo:
                    t_start = time.time()
                    cli = subprocess.Popen(
                        ["ip", "netns", "exec", net.tx, args.iperf3, "-c",
                         net.addr_rx, "-p", str(iport), "-P", str(flows),
                         "-t", f"{dur:.1f}", "-J", "--get-server-output"],
                        stdout=fo, stderr=subprocess.DEVNULL)
                time.sleep(CROSS_LEAD)
            else:
                ierr = "no iperf3 server"
        else:
            ierr = "no iperf3"
        r = run_one(args, net, work, sk, st, c, CROSS_RATE, port, timing,
                    name=name, tbf=CROSS_TBF)
        if cli is not None:
            try:
                cli.wait(timeout=dur + 15)
            except subprocess.TimeoutExpired:
                ierr = "iperf3 did not end; killed"
    finally:
        for p in (cli, srv):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
    ip = {"error": ierr}
    if cli is not None and not ierr:
        try:
            j = json.loads(out.read_text())
            w0 = r["t0_ns"] / 1e9 + r["warmup_s"]
            ip = iperf_window(j, t_start, w0, w0 + r["seconds"])
        except (OSError, ValueError) as e:
            ip = {"error": f"no iperf3 JSON: {str(e)[:120]}"}
    if not args.keep_logs:
        out.unlink(missing_ok=True)
    r.update(section="cross", stream=sk, flows=flows, iperf3=ip,
             tag=f"cross {sk} x{flows} {c['key']:9}")
    if r.get("goodput_mbps") is not None:
        r["stream_share"] = r["goodput_mbps"] * 1e6 / CROSS_RATE
    if ip.get("bps") is not None:
        r["tcp_share"] = ip["bps"] / CROSS_RATE
    return r


def run_clean(args, net: Net, work: Path, conts: list, port: int,
              grace: float) -> tuple[dict, int]:
    """The clean-path section's runs; returns it and the next free port."""
    st = dict(CLEAN_STREAM)
    conts = [c for c in conts if c["key"] in IMPAIRED_CONTENDERS
             and (not args.quick or c["key"] in QUICK_CLEAN["contenders"])]
    if args.quick:
        st.update(warmup=QUICK_CLEAN["warmup"])
    seconds = args.seconds if args.seconds else (
        QUICK_CLEAN["seconds"] if args.quick else LONG_SECONDS)
    st["seconds"] = seconds
    started, date = time.monotonic(), benchlib.utc_date()
    runs = []
    try:
        for c in conts:
            net.set_tbf(CLEAN_TBF)
            timing = dict(warmup=st["warmup"], seconds=seconds, grace=grace)
            r = run_one(args, net, work, "clean", st, c, CLEAN_RATE, port,
                        timing, name=f"clean-{c['key']}", tbf=CLEAN_TBF)
            port += 1
            r.update(section="clean", tag=f"clean {c['key']:9}",
                     **clean_interval(r))
            runs.append(r)
            log(describe(r))
    finally:
        net.clear()
    return ({"date": date, "git": args.git,
             "seconds": time.monotonic() - started, "tbf": CLEAN_TBF,
             "rate_bps": CLEAN_RATE, "gap_intervals": CLEAN_GAP,
             "stream": st, "contenders": [c["key"] for c in conts],
             "runs": runs}, port)


def clean_interval(r: dict) -> dict:
    """The longest time between two whole frames received in the measured
    window (as tests/netns/check.py --clean: between two frames, not from
    the window's edges), ms, and the receive time (s after T0) of the
    frame after it"""
    w0, w1 = r["warmup_s"], r["warmup_s"] + r["seconds"]
    t = [x for x, _ in r.get("series") or [] if w0 <= x < w1]
    if len(t) < 2:
        return {"max_interval_ms": None, "max_interval_at_s": None}
    i = max(range(1, len(t)), key=lambda k: t[k] - t[k - 1])
    return {"max_interval_ms": round((t[i] - t[i - 1]) * 1e3, 2),
            "max_interval_at_s": t[i]}


def describe(r: dict) -> str:
    def f(v, spec=".1f"):
        return "-" if v is None else format(v, spec)
    where = r.get("tag") or f"{r['size']} {r['contender']:9} " \
        f"{rate_label(r['rate_bps']):>12}"
    s = (f"{where}: "
         f"p50 {f(r.get('p50_ms'))} p99 {f(r.get('p99_ms'))} max "
         f"{f(r.get('max_ms'))} ms, {f(r.get('fps_delivered'))} fps, "
         f"{f(r.get('goodput_mbps'), '.0f')} Mbit/s, lost "
         f"{f(r.get('lost_pct'), '.0f')} % (partial "
         f"{f(r.get('partial_pct'), '.0f')} %)")
    if r.get("growing"):
        s += f", growing {f(r.get('median_second_s_ms'))} -> " \
             f"{f(r.get('median_last_s_ms'))} ms"
    if r.get("stalled"):
        s += f", stalled {r['longest_gap_s']:.1f} s"
    d = r.get("drop") or {}
    if d.get("pct") is not None:
        s += f", dropped {d['pct']:.2f} % of {d['seen']} {d['proto']}"
    if r.get("section") == "clean" and r.get("max_interval_ms") is not None:
        s += (f", partial {r.get('partial_total')}, longest interval "
              f"{r['max_interval_ms']:.1f} ms")
    if r.get("section") == "cross":
        s += (f", share stream {r.get('stream_share', 0):.2f} TCP "
              f"{r.get('tcp_share', 0):.2f}")
    if r.get("section"):
        s += f", {r['seconds']:g} s"
    s += f" (other cpu {r['other_cpu_cores']:.2f})"
    if r.get("error"):
        s += f"  ERROR {r['error']}"
    return s


# --------------------------------------------------------------------------
# figures


def pick(results, size, key, rate):
    for r in results["runs"]:
        if (r["size"] == size and r["contender"] == key
                and abs(r["rate_bps"] - rate) < 1):
            return r
    return None


def plots(results: dict, outdir: Path) -> list[Path]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    stamp = (f"gst-bc congestion benchmark, veth + tbf, {results['date'][:10]}"
             f", {results['machine']['cpu_count']} cores, "
             f"{results['git']}")
    sizes = [s for s in SIZES if any(r["size"] == s
                                     for r in results["runs"])]
    conts = [c for c in CONTENDERS if c["key"] in results["contenders"]]

    def finish(fig, name):
        fig.text(0.99, 0.005, stamp, ha="right", va="bottom", fontsize=7,
                 color="grey")
        fig.tight_layout(rect=(0, 0.02, 1, 1))
        p = outdir / name
        fig.savefig(p, dpi=110)
        plt.close(fig)
        written.append(p)

    if (results.get("loss") or {}).get("runs"):
        plot_loss(results, plt, finish)
    if (results.get("cross") or {}).get("runs"):
        plot_cross(results, plt, finish)
    if not sizes:
        return written

    # (a) latency over time at KEY_RATE (or the lowest rate run)
    size0 = sizes[0]
    rates0 = sorted({r["rate_bps"] for r in results["runs"]
                     if r["size"] == size0})
    key_rate = KEY_RATE if KEY_RATE in rates0 else rates0[0]
    sz = SIZES[size0]
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(10, 7.5), sharex=True,
                                  gridspec_kw={"height_ratios": [3, 1.3]})
    tmax, w = 0, 0
    for c in conts:
        r = pick(results, size0, c["key"], key_rate)
        if not r or not r.get("series"):
            continue
        xs = [p[0] for p in r["series"]]
        ys = [p[1] for p in r["series"]]
        tmax = max(tmax, r["warmup_s"] + r["seconds"] + r["grace_s"])
        ax.plot(xs, ys, color=c["color"], marker=c["marker"], markersize=2.5,
                linewidth=0.8, label=f"{c['label']} (p50 "
                f"{r['p50_ms']:.0f} ms)" if r.get("p50_ms") else c["label"])
        # whole frames per second, in 0.5 s bins
        bins = {}
        for x in xs:
            bins[int(x * 2)] = bins.get(int(x * 2), 0) + 1
        bx = sorted(bins)
        ax2.step([b / 2 for b in bx], [bins[b] * 2 for b in bx],
                 where="post", color=c["color"], linewidth=1)
        w = r["warmup_s"]
    if tmax:
        for a in (ax, ax2):
            a.axvspan(0, w, color="0.92", zorder=0)
            a.axvline(tmax - results["grace_s"], color="0.6",
                      linestyle=":", linewidth=1)
    wire = frame_bytes(sz) * 8 / key_rate * 1e3
    ax.axhline(wire, color="k", linestyle="--", linewidth=0.8,
               label=f"one frame's time on the link ({wire:.1f} ms)")
    ax.set_yscale("log")
    ax.set_ylabel("latency of each whole frame (ms)")
    ax.set_title(f"{sz['label']} at 60 frames/s "
                 f"({offered_bps(sz) / 1e6:.0f} Mbit/s) into a "
                 f"{rate_label(key_rate)} bottleneck "
                 f"(grey: warm-up; dotted: last push)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    cap = key_rate / (frame_bytes(sz) * 8)
    ax2.axhline(FPS, color="k", linestyle="--", linewidth=0.8)
    ax2.axhline(cap, color="0.5", linestyle="-.", linewidth=0.8)
    ax2.text(0.05, FPS, " pushed", fontsize=7, va="bottom")
    ax2.text(0.05, cap, " link capacity", fontsize=7, va="bottom",
             color="0.4")
    ax2.set_ylabel("whole frames/s")
    ax2.set_xlabel("receive time (s after the first push)")
    ax2.set_ylim(0, FPS * 1.25)
    ax2.grid(True, alpha=0.3)
    finish(fig, "congestion-latency-time.png")

    # (b) p50 and p99 vs bottleneck rate, (c) goodput vs rate
    for what in ("latency", "goodput"):
        fig, axes = plt.subplots(1, len(sizes), figsize=(6 * len(sizes) + 1,
                                                         5.2), squeeze=False)
        for ax, s in zip(axes[0], sizes):
            sz = SIZES[s]
            rates = sorted({r["rate_bps"] for r in results["runs"]
                            if r["size"] == s})
            for c in conts:
                rs = [pick(results, s, c["key"], x) for x in rates]
                pts = [(x / 1e6, r) for x, r in zip(rates, rs) if r]
                if what == "latency":
                    p = [(x, r["p50_ms"]) for x, r in pts
                         if r.get("p50_ms") is not None]
                    q = [(x, r["p99_ms"]) for x, r in pts
                         if r.get("p99_ms") is not None]
                    if p:
                        ax.plot(*zip(*p), color=c["color"], marker=c["marker"],
                                label=f"{c['label']} p50")
                    if q:
                        ax.plot(*zip(*q), color=c["color"], marker="x",
                                linestyle="--", linewidth=0.9,
                                label=f"{c['label']} p99")
                else:
                    # nothing whole (a stall) drawn at the floor
                    p = [(x, max(GOODPUT_FLOOR, r.get("goodput_mbps") or 0.0))
                         for x, r in pts]
                    if p:
                        ax.plot(*zip(*p), color=c["color"], marker=c["marker"],
                                label=c["label"])
            xs = [x / 1e6 for x in rates]
            none = []
            for c in conts:
                nr = [x for x in rates if (lambda r: r and r.get("p50_ms")
                                           is None)(pick(results, s,
                                                         c["key"], x))]
                if nr:
                    none.append(f"{c['label']} at " + ", ".join(
                        rate_label(x) for x in nr))
            if what == "latency":
                ax.plot(xs, [frame_bytes(sz) * 8 / x * 1e3 for x in rates],
                        color="k", linestyle=":", linewidth=1,
                        label="one frame's time on the link")
                ax.set_yscale("log")
                ax.set_ylabel("latency of whole frames (ms)")
            else:
                off = offered_bps(sz) / 1e6
                ax.axhline(off, color="k", linestyle="--", linewidth=0.9,
                           label=f"offered ({off:.0f} Mbit/s)")
                ax.plot(xs, xs, color="0.5", linestyle="-.", linewidth=0.9,
                        label="link rate (tbf)")
                ip = [(i["rate_bps"] / 1e6, i["mbps"])
                      for i in results.get("iperf3", [])
                      if i.get("mbps") and i["rate_bps"] in rates]
                if ip:
                    ax.plot(*zip(*ip), color="0.3", marker="*", linestyle="",
                            markersize=8, label="iperf3 TCP on that link")
                ax.set_yscale("log")
                ticks = [t for t in (10, 20, 50, 100, 200, 500, 1000, 2000,
                                     5000) if t <= 1.2 * max(xs + [off])]
                ax.set_yticks(ticks)
                ax.set_yticklabels([str(t) for t in ticks])
                ax.set_ylim(bottom=GOODPUT_FLOOR * 0.8)
                ax.set_ylabel("goodput: whole frames delivered (Mbit/s; "
                              f"below {GOODPUT_FLOOR} drawn at {GOODPUT_FLOOR})")
            ax.set_xscale("log")
            ax.set_xticks(xs)
            ax.set_xticklabels([rate_label(x) for x in rates], fontsize=8)
            ax.minorticks_off()
            ax.set_xlabel("bottleneck rate" + (
                "\nno whole frame: " + "; ".join(none) if none and
                what == "latency" else ""))
            ax.set_title(f"{sz['label']}, 60 frames/s "
                         f"({offered_bps(sz) / 1e6:.0f} Mbit/s offered)")
            ax.grid(True, which="both", alpha=0.3)
        handles, labels = [], []
        for ax in axes[0]:
            for h, lab in zip(*ax.get_legend_handles_labels()):
                if lab not in labels:
                    handles.append(h)
                    labels.append(lab)
        axes[0][-1].legend(handles, labels, fontsize=7, loc="upper left",
                           bbox_to_anchor=(1.01, 1), borderaxespad=0)
        finish(fig, f"congestion-{what}-vs-rate.png")
    return written


def plain_ticks():
    """log-axis tick labels as plain numbers, the minor ones at 2 and 5
    only"""
    import math
    from matplotlib.ticker import FuncFormatter

    def f(v, _):
        if v <= 0:
            return ""
        m = round(v / 10 ** math.floor(math.log10(v) + 1e-9), 6)
        return f"{v:g}" if m in (1, 2, 5) else ""
    return FuncFormatter(f)


def plot_series(ax, r, c, label):
    if not r or not r.get("series"):
        return
    xs = [p[0] for p in r["series"]]
    ys = [p[1] for p in r["series"]]
    ax.plot(xs, ys, color=c["color"], marker=c["marker"], markersize=1.5,
            linewidth=0.6, label=label)


def plot_loss(results: dict, plt, finish):
    """congestion-loss.png: whole frames and latency per loss row and
    contender, and the latency over time of the long 2 % row"""
    sec = results["loss"]
    rows = [LOSS_ROW[k] for k in sec["rows"] if k in LOSS_ROW]
    conts = [CONT[k] for k in sec["contenders"] if k in CONT]
    fig, axes = plt.subplots(1, 3, figsize=(17, 5.2),
                             gridspec_kw={"width_ratios": [1, 1, 1.4]})
    ax1, ax2, ax3 = axes
    xs = list(range(len(rows)))
    wdt = 0.8 / max(1, len(conts))
    for i, c in enumerate(conts):
        rs = [pick_loss(results, row["key"], c["key"]) for row in rows]
        off = (i - (len(conts) - 1) / 2) * wdt
        ax1.bar([x + off for x in xs],
                [whole_pct(r) or 0 if r else 0 for r in rs], width=wdt,
                color=c["color"], label=c["label"])
        p50 = [(x + off, r["p50_ms"]) for x, r in zip(xs, rs)
               if r and r.get("p50_ms") is not None]
        p99 = [(x + off, r["p99_ms"]) for x, r in zip(xs, rs)
               if r and r.get("p99_ms") is not None]
        if p50:
            ax2.plot(*zip(*p50), color=c["color"], marker=c["marker"],
                     linestyle="", markersize=6, label=f"{c['label']} p50")
        if p99:
            ax2.plot(*zip(*p99), color=c["color"], marker="_",
                     linestyle="", markersize=12, markeredgewidth=2,
                     label=f"{c['label']} p99")
        r = pick_loss(results, SERIES_ROW, c["key"])
        if r:
            plot_series(ax3, r, c, f"{c['label']} ({r['seconds']:g} s, "
                        f"p50 {fnum(r.get('p50_ms'))} ms)")
    plain = plain_ticks()
    for ax in (ax1, ax2):
        ax.set_xticks(xs)
        ax.set_xticklabels([r["label"].replace(" in ", "\nin ")
                            for r in rows], fontsize=8)
        ax.set_xlim(-0.5, len(rows) - 0.5)
        ax.grid(True, axis="y", alpha=0.3)
    low = min([whole_pct(r) for r in sec["runs"]
               if whole_pct(r) is not None] or [0])
    ax1.set_ylabel("frames arrived whole (byte-exact), %"
                   + (" (axis from " f"{max(0, int(low) - 5)} %)"
                      if low > 5 else ""))
    ax1.set_ylim(max(0, int(low) - 5), 100.5)
    ax1.axhline(99, color="k", linestyle=":", linewidth=0.8)
    ax1.axhline(98, color="0.5", linestyle=":", linewidth=0.8)
    ax1.text(len(rows) - 0.5, 99, " 99 / 98 %", fontsize=7, va="bottom",
             ha="right")
    ax1.set_title("whole frames", fontsize=10)
    ax1.legend(fontsize=7, loc="lower left")
    ax2.set_yscale("log")
    ax2.yaxis.set_major_formatter(plain)
    ax2.yaxis.set_minor_formatter(plain)
    ax2.set_ylabel("latency of whole frames (ms; dot p50, bar p99)")
    ax2.set_title("latency", fontsize=10)
    ax3.set_yscale("log")
    ax3.yaxis.set_major_formatter(plain)
    ax3.yaxis.set_minor_formatter(plain)
    ax3.set_xlabel("receive time (s after the first push)")
    ax3.set_ylabel("latency of each whole frame (ms)")
    ax3.set_title(f"{LOSS_ROW[SERIES_ROW]['label']}, each whole frame",
                  fontsize=10)
    ax3.grid(True, which="both", alpha=0.3)
    if ax3.lines:
        ax3.legend(fontsize=7, loc="upper right")
    st = sec["stream"]
    fig.suptitle(f"{st['label']} ({offered_bps(st) / 1e6:.0f} Mbit/s), "
                 "no bottleneck, packets dropped in the receiver's "
                 "namespace (nft)", fontsize=11)
    finish(fig, "congestion-loss.png")


def plot_cross(results: dict, plt, finish):
    """congestion-cross.png: the link's shares (stream, TCP) and the
    latency per stream, contender and number of TCP flows, and the
    latency over time of the long rows"""
    sec = results["cross"]
    rows = [tuple(x) for x in sec["rows"]]
    conts = [CONT[k] for k in sec["contenders"] if k in CONT]
    streams = [sk for sk in CROSS_STREAMS if any(x[0] == sk for x in rows)]
    plain = plain_ticks()
    fig, axes = plt.subplots(2, 2, figsize=(15, 9.5), squeeze=False)
    for j, sk in enumerate(streams[:2]):
        ax = axes[0][j]
        flows = [n for s2, n in rows if s2 == sk]
        labels, st_sh, tcp_sh, ann, cols = [], [], [], [], []
        for c in conts:
            for n in flows:
                r = pick_cross(results, sk, n, c["key"])
                labels.append(f"{c['key']}\n{n} TCP")
                st_sh.append((r or {}).get("stream_share") or 0)
                tcp_sh.append((r or {}).get("tcp_share") or 0)
                cols.append(c["color"])
                ann.append("-" if not r or r.get("delivered") is None else
                           f"{whole_pct(r):.0f} %\n"
                           + (f"{fnum(r['p50_ms'])} ms" if r.get("p50_ms")
                              is not None else "-"))
        x = list(range(len(labels)))
        ax.bar(x, st_sh, color=cols, label="the stream (whole frames)")
        ax.bar(x, tcp_sh, bottom=st_sh, color="0.8", edgecolor="0.5",
               label="iperf3 TCP")
        for xi, a, b, t in zip(x, st_sh, tcp_sh, ann):
            ax.text(xi, a + b + 0.02, t, ha="center", fontsize=6.5)
        ax.axhline(0.35, color="k", linestyle=":", linewidth=0.8)
        ax.set_xticks(x)
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylim(0, 1.3)
        ax.set_ylabel(f"share of the {rate_label(sec['rate_bps'])} link")
        v = sec["streams"][sk]
        ax.set_title(f"{v['label']} ({offered_bps(v) / 1e6:.0f} Mbit/s): "
                     "shares; above: whole %, p50", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=7, loc="upper right")
    # latency over time, one flow, per stream
    for j, sk in enumerate(streams[:2]):
        ax = axes[1][j]
        n = min(n for s2, n in rows if s2 == sk)
        for c in conts:
            r = pick_cross(results, sk, n, c["key"])
            if r:
                plot_series(ax, r, c, f"{c['label']} ({r['seconds']:g} s, "
                            f"p50 {fnum(r.get('p50_ms'))} ms)")
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(plain)
        ax.yaxis.set_minor_formatter(plain)
        ax.set_xlabel("receive time (s after the first push)")
        ax.set_ylabel("latency of each whole frame (ms)")
        ax.set_title(f"{sec['streams'][sk]['label']} beside {n} TCP flow"
                     f"{'s' if n > 1 else ''}, over time", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        if ax.lines:
            ax.legend(fontsize=7, loc="upper right")
    for j in range(len(streams[:2]), 2):
        axes[0][j].axis("off")
        axes[1][j].axis("off")
    fig.suptitle(f"beside iperf3 TCP flows, tbf {sec['tbf']}", fontsize=11)
    finish(fig, "congestion-cross.png")


# --------------------------------------------------------------------------
# the doc section


def fnum(v, none="-"):
    if v is None:
        return none
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}".rstrip("0").rstrip(".")
    return f"{v:.1f}"


def cell(r) -> str:
    if r is None:
        return "-"
    if r.get("p50_ms") is None:
        s = "no whole frame"
    else:
        s = f"{fnum(r['p50_ms'])} / {fnum(r['p99_ms'])} ms"
    s += f", {r.get('fps_delivered', 0):.1f} fps, " \
        f"{r.get('lost_pct', 100):.0f} % lost"
    marks = []
    if r.get("growing"):
        marks.append("growing")
    if r.get("stalled"):
        marks.append(f"stall {r['longest_gap_s']:.1f} s")
    if r.get("error") and not r.get("delivered"):
        marks.append("error")
    return s + (f" ({', '.join(marks)})" if marks else "")


def congested(size: dict, rate: float) -> bool:
    return rate < offered_bps(size)


def rng(vals, fmt=fnum, unit="") -> str:
    """"a-b unit", or "a unit" when they are the same"""
    lo, hi = fmt(min(vals)), fmt(max(vals))
    return (lo if lo == hi else f"{lo}-{hi}") + unit


def srt_counts(r: dict) -> dict:
    """srtsink's retransmissions and drops, srtsrc's losses and drops"""
    tx = (r.get("sender") or {}).get("sink_stats") or {}
    rx = (r.get("receiver") or {}).get("src_stats") or {}
    callers = rx.get("callers") or [{}]
    rx = callers[0] if isinstance(callers[0], dict) else {}
    return {"retransmitted": int(tx.get("packets-retransmitted") or 0),
            "sender_dropped": int(tx.get("packets-sent-dropped") or 0),
            "receiver_lost": int(rx.get("packets-received-lost") or 0),
            "receiver_retransmitted": int(
                rx.get("packets-received-retransmitted") or 0),
            "receiver_dropped": int(rx.get("packets-received-dropped") or 0)}


# --------------------------------------------------------------------------
# loss and cross traffic: the issue's targets, the tables


def whole_pct(r: dict) -> float | None:
    """frames pushed in the window that arrived whole (byte-exact), %"""
    return None if r.get("lost_pct") is None else 100.0 - r["lost_pct"]


def pick_loss(results: dict, row: str, key: str):
    for r in (results.get("loss") or {}).get("runs") or []:
        if r["row"] == row and r["contender"] == key:
            return r
    return None


def pick_cross(results: dict, stream: str, flows: int, key: str):
    for r in (results.get("cross") or {}).get("runs") or []:
        if r["stream"] == stream and r["flows"] == flows and \
                r["contender"] == key:
            return r
    return None


def pick_clean(results: dict, key: str):
    for r in (results.get("clean") or {}).get("runs") or []:
        if r["contender"] == key:
            return r
    return None


def window_medians(r: dict, span: float = 10.0):
    """the median latency of the whole frames received in the first and
    in the last @span s of the measured window (runs of at least 3
    spans), else None"""
    if r["seconds"] < 3 * span or not r.get("series"):
        return None
    w0, w1 = r["warmup_s"], r["warmup_s"] + r["seconds"]
    a = [ms for t, ms in r["series"] if w0 <= t < w0 + span]
    b = [ms for t, ms in r["series"] if w1 - span <= t < w1]
    return (median(a), median(b)) if a and b else None


def steady(r: dict) -> tuple[str, bool | None]:
    """no stall (> 1 s without a whole frame) and no latency growth (the
    window's last second's median against the stream's second second's,
    the benchmark's "growing"); for long runs also the medians of the
    window's first and last 10 s"""
    if r.get("delivered") is None:
        return "no result", False
    ok = not r.get("stalled") and not r.get("growing")
    wm = window_medians(r)
    return (f"longest gap {r['longest_gap_s'] * 1e3:.0f} ms; median "
            f"{fnum(r.get('median_second_s_ms'))} ms in the stream's 2nd "
            f"second, {fnum(r.get('median_last_s_ms'))} ms in the window's "
            "last" + ("" if wm is None else
                      f" ({fnum(wm[0])} ms in the window's first 10 s, "
                      f"{fnum(wm[1])} ms in its last 10 s)")
            + ("" if not (wm and r.get("growing")) else
               "; growing by the benchmark's check (the 2nd second against "
               "the last), " + (
                   "flat across the measured window: the rise came before"
                   if wm[1] - wm[0] <= max(10.0, 0.25 * wm[0]) else
                   "and across the measured window"))
            + f"; a {r['seconds']:g} s run"
            + ("" if r["seconds"] >= 60 else " (shorter than the issue's "
               "60 s)"), ok)


def targets(results: dict) -> list[dict]:
    """The issue's targets for tilesink/tilesrc udp: each a dict row,
    what, want, got, met (True, False, None: not checked)"""
    T = []

    def add(row, what, want, got, met):
        T.append(dict(row=row, what=what, want=want, got=got, met=met))

    ref = pick_loss(results, "0", "tile-udp")
    p0 = ref.get("p50_ms") if ref else None
    for key, wmin, bound, how in (
            ("2", 99.0, (lambda p: max(1.5 * p, p + 2.0)),
             "max(1.5x, + 2 ms) the loss-free p50"),
            ("5", 98.0, (lambda p: 2.0 * p), "2x the loss-free p50")):
        r = pick_loss(results, key, "tile-udp")
        if r is None:
            continue
        row = f"2160p BC1 30 fps, {LOSS_ROW[key]['label']} loss"
        w = whole_pct(r)
        add(row, "frames whole", f">= {wmin:g} %",
            "-" if w is None else f"{w:.1f} %",
            None if w is None else w >= wmin)
        p50 = r.get("p50_ms")
        if p0 is None:
            add(row, "p50", f"<= {how}", (f"{fnum(p50)} ms" if p50 else "-")
                + ", no loss-free run to compare with", None)
        else:
            b = bound(p0)
            add(row, "p50", f"<= {b:.1f} ms ({how}, {p0:.1f} ms)",
                f"{fnum(p50)} ms" if p50 is not None else "no whole frame",
                p50 is not None and p50 <= b)
        got, ok = steady(r)
        add(row, "no stall, no latency growth", "", got, ok)
    r = pick_cross(results, "fair", 1, "tile-udp")
    if r is not None:
        row = "1280x360 GRAY8 30 fps (111 Mbit/s) beside 1 TCP flow"
        w = whole_pct(r)
        add(row, "frames whole", ">= 95 %", "-" if w is None else
            f"{w:.1f} %", None if w is None else w >= 95.0)
        p50 = r.get("p50_ms")
        add(row, "p50", "<= 45 ms", f"{fnum(p50)} ms" if p50 is not None
            else "no whole frame", p50 is not None and p50 <= 45.0)
        got, ok = steady(r)
        add(row, "no stall, no latency growth", "", got, ok)
    r = pick_cross(results, "over", 1, "tile-udp")
    if r is not None:
        row = "1920x540 GRAY8 60 fps (498 Mbit/s) beside 1 TCP flow"
        sh, tc = r.get("stream_share"), r.get("tcp_share")
        add(row, "the stream's share of the link", ">= 0.35",
            "-" if sh is None else f"{sh:.2f}",
            None if sh is None else sh >= 0.35)
        add(row, "the TCP flow's share", ">= 0.35",
            "-" if tc is None else f"{tc:.2f}",
            None if tc is None else tc >= 0.35)
        got, ok = steady(r)
        add(row, "no stall, no latency growth", "", got, ok)
    r = pick_clean(results, "tile-udp")
    if r is not None:
        row = ("1280x720 GRAY8 30 fps (221 Mbit/s) alone on a 700 Mbit/s "
               "clean path")
        pt, gap = r.get("partial_total"), r.get("max_interval_ms")
        bound = CLEAN_GAP * 1e3 / r.get("fps", 30)
        add(row, "clean path: no partial frame", "",
            "no result" if pt is None else
            f"{pt} partial in the run, "
            f"{r['pushed_window'] - r['lost_window']} of "
            f"{r['pushed_window']} frames of the window whole", None if pt is None else pt == 0)
        add(row, "no gap between two frames",
            f"> {CLEAN_GAP:g} frame intervals ({bound:.0f} ms)",
            "-" if gap is None else f"longest {gap:.1f} ms",
            None if gap is None else gap <= bound)
        got, ok = steady(r)
        # a shorter run (--quick, --seconds) cannot meet "over 60 s"
        add(row, "no stall or latency growth over 60 s", "", got,
            ok if r["seconds"] >= 60 or not ok else None)
    return T


def loss_label(key: str) -> str:
    """"no loss", "2 % random loss", ..."""
    lab = LOSS_ROW[key]["label"]
    return lab if key == "0" else f"{lab} loss"


def run_label(r: dict) -> str:
    if r.get("section") == "loss":
        return f"2160p BC1 30 fps, {loss_label(r['row'])}"
    if r.get("section") == "clean":
        return f"{CLEAN_STREAM['label']}, clean {rate_label(r['rate_bps'])}"
    if r.get("section") == "cross":
        return (f"{CROSS_STREAMS[r['stream']]['label']} beside "
                f"{r['flows']} TCP flow{'s' if r['flows'] > 1 else ''}")
    return f"{SIZES[r['size']]['label']} at {rate_label(r['rate_bps'])}"


def impaired_cell(r, share=False) -> str:
    if r is None:
        return "-"
    if r.get("delivered") is None:
        return "no result" + (" (error)" if r.get("error") else "")
    w = whole_pct(r)
    s = f"{w:.1f} % whole, "
    s += ("no whole frame" if r.get("p50_ms") is None else
          f"{fnum(r['p50_ms'])} / {fnum(r['p99_ms'])} ms")
    if share:
        s += (f", {r.get('stream_share', 0):.2f} / "
              + ("-" if r.get("tcp_share") is None
                 else f"{r['tcp_share']:.2f}"))
    marks = []
    if r.get("partial_pct", 0) >= 0.5:
        marks.append(f"{r['partial_pct']:.1f} % partial")
    if r.get("growing"):
        marks.append("growing")
    if r.get("stalled"):
        marks.append(f"stall {r['longest_gap_s']:.1f} s")
    if r["seconds"] >= 30:
        marks.append(f"{r['seconds']:g} s run")
    return s + (f" ({', '.join(marks)})" if marks else "")


def loss_markdown(results: dict) -> list[str]:
    L = []
    sec = results.get("loss")
    if not sec or not sec.get("runs"):
        return L
    st = sec["stream"]
    rows = [LOSS_ROW[k] for k in sec["rows"] if k in LOSS_ROW]
    conts = [CONT[k] for k in sec["contenders"] if k in CONT]
    L.append(f"### Packet loss: {st['label']} "
             f"({offered_bps(st) / 1e6:.0f} Mbit/s), no bottleneck")
    L.append("")
    L.append(
        f"Measured {sec['date']} at gst-bc {sec['git']} "
        f"({sec['seconds']:.0f} s). No tbf: the veth pair has room "
        "(as `tests/netns` lat-0 / lat-2). An nftables rule in the "
        "receiver's namespace drops packets of the contender's protocol "
        "(TCP segments for tilesink tcp, UDP datagrams for the others): "
        "`meta l4proto P numgen random mod 100 < N counter drop` for N % "
        "at random; for the bursts `meta l4proto P numgen inc mod 2500 >= "
        "2450 counter drop`, the same 2 % as 50 packets in a row out of "
        "every 2500 (deterministic: at this rate a burst of about 0.6 ms "
        "every 28 ms; the first 2450 packets, the handshakes among them, "
        "pass). " + (
            "The sender's veth segments the GSO batches (`ethtool -K "
            "veth-tx tx-udp-segmentation off tso off`), so that the rule "
            "sees packets as on a wire. " if sec.get("segmented") else
            "The sender's veth could not be made to segment GSO batches "
            "(" + "; ".join(sec.get("notes") or []) + "). ")
        + f"{st['warmup']:g} s warm-up, {st['seconds']:g} s measured, "
        "except the cells marked with a longer run. Every element at its "
        "defaults (tilesink/tilesrc udp: retransmit on, fec=auto); "
        "rtpvrawpay has no retransmission here (rtprtxsend/rtprtxreceive "
        "need an rtpbin and a jitterbuffer on both sides, not set up). "
        "Cells: frames pushed in the window that arrived whole "
        "(byte-exact) %, latency p50 / p99 of those; *dropped*: the "
        "rule's count over the packets of that protocol it saw.")
    L.append("")
    L.append("| contender | " + " | ".join(r["label"] for r in rows) + " |")
    L.append("|---|" + "---|" * len(rows))
    for c in conts:
        L.append(f"| {c['label']} | " + " | ".join(
            impaired_cell(pick_loss(results, r["key"], c["key"]))
            for r in rows) + " |")
    L.append("")
    L.append("Packets dropped by the rule, % of those it saw (the "
             "retransmissions and resends are packets too):")
    L.append("")
    L.append("| contender | " + " | ".join(r["label"] for r in rows
                                          if r["expr"]) + " |")
    L.append("|---|" + "---|" * len([r for r in rows if r["expr"]]))
    for c in conts:
        cells = []
        for row in rows:
            if not row["expr"]:
                continue
            r = pick_loss(results, row["key"], c["key"])
            d = (r or {}).get("drop") or {}
            cells.append("-" if d.get("pct") is None else
                         f"{d['pct']:.2f} % of {d['seen']}")
        L.append(f"| {c['label']} | " + " | ".join(cells) + " |")
    L.append("")
    return L


def cross_markdown(results: dict) -> list[str]:
    L = []
    sec = results.get("cross")
    if not sec or not sec.get("runs"):
        return L
    rows = [tuple(x) for x in sec["rows"]]
    conts = [CONT[k] for k in sec["contenders"] if k in CONT]
    streams = sec["streams"]
    L.append("### Cross traffic: beside iperf3 TCP flows on a "
             f"{rate_label(sec['rate_bps'])} link")
    L.append("")
    L.append(
        f"Measured {sec['date']} at gst-bc {sec['git']} "
        f"({sec['seconds']:.0f} s). `tbf {sec['tbf']}` on the sender's "
        "veth; `iperf3 -c receiver -P N -J --get-server-output` ("
        f"{sec.get('tcp_congestion_control', '?')}, the namespace's "
        "default congestion control) from the sender's namespace to the "
        "receiver's, "
        f"started {sec['lead_s']:g} s before the stream's ends and running "
        "past its end. Streams: " + "; ".join(
            f"{v['label']} ({offered_bps(v) / 1e6:.0f} Mbit/s, "
            f"{100 * offered_bps(v) / sec['rate_bps']:.0f} % of the link)"
            for v in streams.values())
        + ". Each run " + ", ".join(
            f"{v['warmup']:g} s warm-up and {v['seconds']:g} s measured"
            for v in list(streams.values())[:1])
        + ", except the cells marked with a longer run. Cells: frames "
        "pushed in the window that arrived whole (byte-exact) %, latency "
        "p50 / p99, then the link's share (of "
        f"{rate_label(sec['rate_bps'])}) the stream's whole frames got / "
        "the TCP flows got over the stream's measured window (iperf3's "
        "1 s intervals, " + " and ".join(sorted({
            {"server (received)": "the bytes the server received",
             "client (sent)": "the bytes the client sent (the server's "
             "were not in its JSON)"}.get((r.get("iperf3") or {}).get(
                 "side"), "?") for r in sec["runs"]
            if (r.get("iperf3") or {}).get("side")}))
        + ", the window's edges counted pro rata).")
    L.append("")
    L.append("| contender | " + " | ".join(
        f"{streams[sk]['label']}, {n} TCP flow{'s' if n > 1 else ''}"
        for sk, n in rows if sk in streams) + " |")
    L.append("|---|" + "---|" * len(rows))
    for c in conts:
        L.append(f"| {c['label']} | " + " | ".join(
            impaired_cell(pick_cross(results, sk, n, c["key"]), share=True)
            for sk, n in rows) + " |")
    L.append("")
    return L


def clean_markdown(results: dict) -> list[str]:
    L = []
    sec = results.get("clean")
    if not sec or not sec.get("runs"):
        return L
    st = sec["stream"]
    conts = [CONT[k] for k in sec["contenders"] if k in CONT]
    bound = sec["gap_intervals"] * 1e3 / st["fps"]
    L.append(f"### A clean path: {st['label']} "
             f"({offered_bps(st) / 1e6:.0f} Mbit/s) alone on "
             f"{rate_label(sec['rate_bps'])}")
    L.append("")
    L.append(
        f"Measured {sec['date']} at gst-bc {sec['git']} "
        f"({sec['seconds']:.0f} s). `tbf {sec['tbf']}` on the sender's "
        "veth (more than twice the stream's rate), no drop rule, no other "
        "traffic (as `tests/netns` clean-udp). "
        f"{st['warmup']:g} s warm-up, {st['seconds']:g} s measured. Every "
        "element at its defaults. Cells: frames pushed in the window that "
        "arrived whole (byte-exact), frames received with bytes missing "
        "over the whole run (*partial*), latency p50 / p99 of the whole "
        "frames, the longest time between two whole frames received in "
        f"the window (the issue's bound: {sec['gap_intervals']:g} frame "
        f"intervals, {bound:.0f} ms), and the stall and latency-growth "
        "check of the long rows (the medians of the window's first and "
        "last 10 s).")
    L.append("")
    L.append("| contender | whole | partial | p50 / p99 | longest interval "
             "| stall, growth |")
    L.append("|---|---|---|---|---|---|")
    for c in conts:
        r = pick_clean(results, c["key"])
        if r is None:
            continue
        if r.get("delivered") is None:
            L.append(f"| {c['label']} | no result"
                     + (" (error)" if r.get("error") else "")
                     + " | - | - | - | - |")
            continue
        gap = r.get("max_interval_ms")
        wm = window_medians(r)
        marks = []
        if r.get("stalled"):
            marks.append(f"stall {r['longest_gap_s']:.1f} s")
        if r.get("growing"):
            marks.append("growing")
        L.append(
            f"| {c['label']} | {r['pushed_window'] - r['lost_window']} of "
            f"{r['pushed_window']} "
            f"({whole_pct(r):.1f} %) | {r.get('partial_total', 0)} | "
            + ("no whole frame" if r.get("p50_ms") is None else
               f"{fnum(r['p50_ms'])} / {fnum(r['p99_ms'])} ms") + " | "
            + ("-" if gap is None else
               f"{gap:.1f} ms" + (" (**over**)" if gap > bound else ""))
            + " | " + (", ".join(marks) if marks else "none")
            + ("" if wm is None else
               f" ({fnum(wm[0])} -> {fnum(wm[1])} ms)") + " |")
    L.append("")
    return L


def targets_markdown(results: dict) -> list[str]:
    T = results.get("targets") or []
    if not T:
        return []
    L = ["### The issue's targets (issue 36), tilesink/tilesrc udp", "",
         "Reported, not asserted (one run each, on a 2-core machine).", "",
         "| row | target | measured | |", "|---|---|---|---|"]
    for t in T:
        L.append(f"| {t['row']} | {t['what']}"
                 + (f" {t['want']}" if t["want"] else "")
                 + f" | {t['got']} | "
                 + {True: "met", False: "**missed**",
                    None: "not checked"}[t["met"]] + " |")
    L.append("")
    return L


def impaired_findings(results: dict) -> list[str]:
    """Sentences on the loss and cross-traffic sections"""
    L = []
    sec = results.get("loss") or {}
    conts = [CONT[k] for k in sec.get("contenders", []) if k in CONT]
    for row in [LOSS_ROW[k] for k in sec.get("rows", []) if k != "0"]:
        g = [(c, pick_loss(results, row["key"], c["key"])) for c in conts]
        g = [(c, r) for c, r in g if r and r.get("delivered") is not None]
        if not g:
            continue
        g.sort(key=lambda x: -(whole_pct(x[1]) or 0))
        L.append(f"2160p BC1 30 fps, {loss_label(row['key'])}: " + "; ".join(
            f"{c['label']} {whole_pct(r):.1f} % whole"
            + (f", p50 {fnum(r['p50_ms'])} ms" if r.get("p50_ms")
               is not None else "")
            + (" (" + ", ".join(x for x in (
                "growing" if r.get("growing") else "",
                f"stall {r['longest_gap_s']:.1f} s" if r.get("stalled")
                else "") if x) + ")" if r.get("growing") or r.get("stalled")
               else "")
            for c, r in g) + ".")
    for row in [LOSS_ROW[k] for k in sec.get("rows", [])]:
        r = pick_loss(results, row["key"], "tile-udp")
        if not r or r.get("delivered") is None:
            continue
        rx = (r.get("receiver") or {}).get("src_stats") or {}
        tx = (r.get("sender") or {}).get("sink_stats") or {}
        if not rx.get("frames-received"):
            continue
        L.append(
            f"**tilesink/tilesrc udp**, {loss_label(row['key'])} "
            f"({r['seconds']:g} s): of the {rx.get('frames-received')} "
            f"frames tilesrc pushed, {rx.get('fec-frames-recovered', 0)} "
            "became whole with datagrams recovered from FEC parity, "
            f"{rx.get('frames-recovered', 0)} with datagrams asked for "
            "again (a frame can be both), "
            f"{rx.get('frames-partial', 0)} went out partial "
            f"({rx.get('frames-timer', 0)} at their timer, floor "
            f"{(rx.get('timer-floor-us') or 0) / 1e3:g} ms); "
            f"{rx.get('packets-lost', 0)} datagrams lost, "
            f"{rx.get('packets-late', 0)} late, "
            f"{rx.get('fec-packets-recovered', 0)} recovered by FEC; "
            f"{rx.get('nacks-sent', 0)} NACKs sent, "
            f"{tx.get('packets-retransmitted', 0)} datagrams resent, "
            f"{tx.get('fec-packets-sent', 0)} FEC datagrams sent "
            f"({100.0 * tx.get('fec-packets-sent', 0) / max(1, tx.get('packets-sent', 1)):.1f} % "
            "of all sent).")
    sec = results.get("cross") or {}
    conts = [CONT[k] for k in sec.get("contenders", []) if k in CONT]
    for sk, n in [tuple(x) for x in sec.get("rows", [])]:
        g = [(c, pick_cross(results, sk, n, c["key"])) for c in conts]
        g = [(c, r) for c, r in g if r and r.get("delivered") is not None]
        if not g:
            continue
        L.append(f"{sec['streams'][sk]['label']} beside {n} TCP flow"
                 f"{'s' if n > 1 else ''}: " + "; ".join(
                     f"{c['label']} {whole_pct(r):.1f} % whole"
                     + (f", p50 {fnum(r['p50_ms'])} ms" if r.get("p50_ms")
                        is not None else "")
                     + f", shares {r.get('stream_share', 0):.2f} / "
                     + ("-" if r.get("tcp_share") is None
                        else f"{r['tcp_share']:.2f}")
                     + (", growing" if r.get("growing") else "")
                     + (f", stall {r['longest_gap_s']:.1f} s"
                        if r.get("stalled") else "")
                     for c, r in g) + ".")
    T = results.get("targets") or []
    if T:
        met = [t for t in T if t["met"] is True]
        missed = [t for t in T if t["met"] is False]
        L.append(f"tilesink/tilesrc udp against the issue's targets: "
                 f"{len(met)} of {len(T)} met"
                 + ("; missed: " + "; ".join(
                     f"{t['row']}: {t['what']}"
                     + (f" {t['want']} (measured {t['got']})" if t["want"]
                        else "") for t in missed) if missed else "")
                 + ".")
    return L


def findings(results: dict) -> list[str]:
    """Sentences computed from the numbers."""
    L = []
    runs = [r for r in results["runs"] if r.get("delivered") is not None]
    conts = [c for c in CONTENDERS if c["key"] in results["contenders"]]

    def rs(key, pred=lambda r: True):
        return [r for r in runs if r["contender"] == key and pred(r)]

    def is_cong(r):
        return congested(SIZES[r["size"]], r["rate_bps"])

    def where(r):
        return f"{SIZES[r['size']]['label']} at {rate_label(r['rate_bps'])}"

    # the order when congested
    for s in SIZES:
        for rate in SIZES[s]["rates"]:
            g = [r for r in runs if r["size"] == s and r["rate_bps"] == rate
                 and is_cong(r) and r.get("p50_ms") is not None]
            if len(g) < 2:
                continue
            g.sort(key=lambda r: r["p50_ms"])
            best = max(g, key=lambda r: r["fps_delivered"])
            L.append(
                f"{SIZES[s]['label']} at {rate_label(rate)}: lowest p50 "
                f"{CONT[g[0]['contender']]['label']} "
                f"({fnum(g[0]['p50_ms'])} ms), then "
                + ", ".join(f"{CONT[r['contender']]['label']} "
                            f"({fnum(r['p50_ms'])} ms)" for r in g[1:])
                + f"; most whole frames/s: {CONT[best['contender']]['label']}"
                f" ({best['fps_delivered']:.1f} of the "
                f"{rate / (frame_bytes(SIZES[s]) * 8):.1f} the link could "
                "carry).")
    # standing queues
    grow = {}
    for r in runs:
        if is_cong(r) and r.get("growing"):
            grow.setdefault(r["contender"], []).append(r)
    for key, g in grow.items():
        worst = max(g, key=lambda r: r["median_last_s_ms"])
        n_cong = len(rs(key, is_cong))
        L.append(
            f"**{CONT[key]['label']}** builds a standing queue: its latency "
            f"was still growing at the end of {len(g)} of its {n_cong} "
            f"congested runs; worst {where(worst)}: median "
            f"{fnum(worst['median_second_s_ms'])} ms in the stream's second "
            f"second, {fnum(worst['median_last_s_ms'])} ms in the window's "
            f"last (+{fnum(worst['slope_ms_per_s'])} ms per s), "
            f"{worst['lost_pct']:.0f} % of the window's frames not delivered "
            "by the end of the run.")
    # the others when congested
    for c in conts:
        g = rs(c["key"], is_cong)
        if not g or c["key"] in grow or c.get("srt_latency"):
            continue  # SRT: its own sentence below
        ok = [r for r in g if r.get("p50_ms") is not None]
        if not ok:
            continue
        ratio50 = [r["p50_ms"] / r["wire_ms"] for r in ok]
        util = [100 * r["goodput_mbps"] / (r["rate_bps"] / 1e6) for r in g]
        L.append(
            f"**{c['label']}**, congested ({', '.join(where(r) for r in g)}"
            f"): latency not growing at the end; "
            + (f"where whole frames arrived ({', '.join(where(r) for r in ok)})"
               ", " if len(ok) < len(g) else "") + "p50 "
            f"{rng(ratio50, lambda v: f'{v:.1f}', 'x')} the time one frame "
            f"takes on the link (p50 {rng([r['p50_ms'] for r in ok])} ms, "
            f"p99 {rng([r['p99_ms'] for r in ok])} ms); whole frames carried "
            f"{rng(util, lambda v: f'{v:.0f}', ' %')} of the link rate; "
            f"{rng([r['lost_pct'] for r in g], lambda v: f'{v:.0f}', ' %')} "
            "of the frames lost, partial "
            f"{rng([r['partial_pct'] for r in g], lambda v: f'{v:.0f}', ' %')}"
            + (f"; stalled (> 1 s without a whole frame) at "
               + ", ".join(where(r) for r in g if r.get("stalled"))
               if any(r.get("stalled") for r in g) else "") + ".")
    # tilesink udp: frames that arrive with datagrams missing
    for r in rs("tile-udp"):
        rx = (r.get("receiver") or {}).get("src_stats") or {}
        tx = (r.get("sender") or {}).get("sink_stats") or {}
        got, part = rx.get("frames-received"), rx.get("frames-partial")
        if not got or not part or part < 0.1 * got:
            continue
        L.append(
            f"**tilesink/tilesrc udp** at {where(r)}: {part} of the {got} "
            f"frames tilesrc pushed had datagrams missing "
            f"({rx.get('packets-lost')} datagrams lost, "
            f"{rx.get('packets-late')} late), so "
            + ("no frame arrived whole" if not r["delivered"] else
               f"{r['delivered']} arrived whole in the window")
            + f"; tilesink's pace at the end was "
            f"{(tx.get('pacing-bitrate') or 0) / 1e6:.0f} Mbit/s "
            f"(estimated-bitrate {(tx.get('estimated-bitrate') or 0) / 1e6:.0f}"
            f" Mbit/s) on the {rate_label(r['rate_bps'])} link, whose tbf "
            f"dropped {(r.get('qdisc') or {}).get('drops')} packets; it sent "
            f"{tx.get('frames-sent')} frames and dropped "
            f"{tx.get('frames-dropped')} whole.")
    # SRT against its latency setting
    for c in conts:
        lat = c.get("srt_latency")
        if not lat:
            continue
        parts = []
        for sk in SIZES:
            g = [r for r in rs(c["key"]) if r["size"] == sk]
            if not g:
                continue
            fb = frame_bytes(SIZES[sk])
            items = []
            for r in g:
                sd = (r.get("sender") or {})
                tx = sd.get("sink_stats") or {}
                t = f"{rate_label(r['rate_bps'])}" + (
                    " (congested)" if is_cong(r) else "") + ": "
                if r.get("p50_ms") is not None:
                    t += (f"p50 {fnum(r['p50_ms'])} ms "
                          f"({r['p50_ms'] / lat:.1f}x its setting), p99 "
                          f"{fnum(r['p99_ms'])} ms, ")
                else:
                    t += "no whole frame, "
                t += f"{r['lost_pct']:.0f} % lost"
                if r["partial_pct"] >= 1:
                    t += f" (partial {r['partial_pct']:.0f} %)"
                if sd.get("appsrc_dropped") and not is_cong(r):
                    t += (f", {sd['appsrc_dropped']} of {sd.get('pushed', 0) + sd['appsrc_dropped']}"
                          " frames dropped at the appsrc (srtsink had not "
                          "taken the 2 before)")
                if r.get("stalled"):
                    t += ", stalled"
                items.append(t)
            part = f"{SIZES[sk]['label']}: " + "; ".join(items)
            st = [r for r in g if r.get("stalled")]
            if st:
                sent = sorted({((r.get("sender") or {}).get("sink_stats")
                                or {}).get("packets-sent") or 0 for r in st})
                got = sorted({(r.get("receiver") or {}).get("buffers", 0)
                              for r in st})
                part += (
                    f" (stalled: {sum(r['delivered'] for r in st)} whole "
                    "frames in the windows; in each of those runs srtsink "
                    f"sent {rng(sent, str)} packets in all, "
                    f"{rng([x * 1316 / fb for x in sent], lambda v: f'{v:.1f}')}"
                    f" frames' worth, and srtsrc received {rng(got, str)} "
                    f"messages; {lat} ms of this stream is "
                    f"{offered_bps(SIZES[sk]) / 8 * lat / 1e3 / 1316:.0f} "
                    "packets of 1316 bytes)")
            parts.append(part)
        cnt = [srt_counts(r) for r in rs(c["key"])]
        L.append(f"**{c['label']}**: " + ". ".join(parts) + ". Over its "
                 f"runs srtsrc counted {sum(x['receiver_lost'] for x in cnt)}"
                 " packets lost (recovered or not).")
    # RTP: where its losses were
    g = rs("rtp")
    if g:
        gaps = sum(int((r.get("receiver") or {}).get("rtp_gaps") or 0)
                   for r in g)
        cg = [r for r in g if is_cong(r)]
        drop = sum(int((r.get("sender") or {}).get("appsrc_dropped") or 0)
                   for r in cg)
        pushed = sum(r["frames_pushed_total"] for r in cg)
        s = (f"**rtpvrawpay + udpsink**: {gaps} RTP packets missing at "
             "udpsrc over all its runs")
        if cg:
            s += (f"; in its congested runs {drop} of the {pushed} frames "
                  "it was given were dropped at the appsrc, before the "
                  "payloader, because udpsink blocked")
            if drop > 0:
                s += (" (its socket's send buffer stays full while its "
                      "datagrams wait in the tbf queue: with the bottleneck "
                      "on the sender's own interface the kernel holds a UDP "
                      "sender back; a bottleneck further along the path "
                      "would let it run and drop datagrams instead, which "
                      "this setup does not measure)")
        L.append(s + ".")
    # uncongested: the baseline, and loss where the link had room
    for sk in SIZES:
        free = [r for r in runs if r["size"] == sk
                and r["rate_bps"] >= 2 * r["offered_bps"]]
        parts = []
        for c in conts:
            g = [r for r in free if r["contender"] == c["key"]
                 and r.get("p50_ms") is not None]
            if g:
                parts.append(f"{c['label']} {rng([r['p50_ms'] for r in g])}"
                             " ms")
        if parts:
            L.append(f"{SIZES[sk]['label']} with the link at least twice the "
                     f"stream's rate ({', '.join(sorted({rate_label(r['rate_bps']) for r in free}, key=lambda x: [r['rate_bps'] for r in free if rate_label(r['rate_bps']) == x][0]))}"
                     "), p50: " + "; ".join(parts) + ".")
    lossy = [r for r in runs if not is_cong(r) and
             not CONT[r["contender"]].get("srt_latency") and
             (r["lost_pct"] >= 1 or r.get("stalled"))]
    if lossy:
        L.append("Frames lost where the link had room for the stream: " +
                 "; ".join(f"{CONT[r['contender']]['label']}, {where(r)}: "
                           f"{r['lost_pct']:.0f} %"
                           + (f" (partial {r['partial_pct']:.0f} %)"
                              if r["partial_pct"] >= 1 else "")
                           + (f", stalled {r['longest_gap_s']:.1f} s"
                              if r.get("stalled") else "")
                           + (f"; {r['sender']['appsrc_dropped']} frames "
                              "dropped at the appsrc, its sender element "
                              "not having taken the 2 before" if
                              (r.get("sender") or {}).get("appsrc_dropped")
                              else "")
                           for r in lossy) + ".")
    return L


def markdown(results: dict, figs: list[str]) -> str:
    m = results["machine"]
    L = [MARK_BEGIN, "",
         "## Congestion: a link slower than the stream", ""]
    sizes = [s for s in SIZES if any(r["size"] == s
                                     for r in results["runs"])]
    conts = [c for c in CONTENDERS if c["key"] in results["contenders"]]
    timing = results["timing"]
    sw = results.get("sweep_run") or {}
    parts = [f"{k} {v['seconds']:.0f} s" for k, v in (
        ("the rate sweep", {"seconds": results.get("sweep_seconds")}),
        ("the loss rows", results.get("loss") or {}),
        ("the cross-traffic rows", results.get("cross") or {}),
        ("the clean-path rows", results.get("clean") or {}))
        if v.get("seconds") is not None]
    L.append(
        f"Measured {results['date']} at gst-bc {results['git']} on "
        f"{m['cpu']} ({m['cpu_count']} cores), Linux {m['kernel']}, "
        f"GStreamer {m['gstreamer']}, libsrt {m['libsrt']}; "
        f"{results['seconds']:.0f} s for the whole run "
        f"(`{results['command']}`"
        + (f"; {', '.join(parts)}" if parts else "") + ")"
        + (f"; the rate sweep is an earlier run's, {sw.get('date')} at "
           f"gst-bc {sw.get('git')} (`{sw.get('command')}`)"
           if sw.get("date") else "")
        + ". Other processes used "
        f"{results.get('other_cpu_cores_median', 0):.2f} cores (median "
        "over the sweep's runs, max "
        f"{results.get('other_cpu_cores_max', 0):.2f}). One run per "
        "cell: on this 2-core machine the sender, the receiver and the "
        "kernel's packet work share the cores, so differences of 10-20 % "
        "are within the noise.")
    L.append("")
    L.append(
        "Method (`benchmarks/congestion/run.sh`): two network namespaces "
        "joined by a veth pair, the bottleneck a tbf qdisc on the sender's "
        f"veth, `tbf rate R burst max(16 KiB, 1 ms of R) latency "
        f"{TBF_LATENCY_MS}ms`; the sender pipeline in one namespace, the "
        "receiver in the other "
        f"({results.get('sysctl', 'net.core sysctls unchanged')}). "
        "`bc-congestion-bench` pushes 60 frames/s "
        "of pseudo-random bytes of the size of a BC1 frame (" + ", ".join(
            f"{SIZES[s]['label']}: {frame_bytes(SIZES[s])} bytes, "
            f"{offered_bps(SIZES[s]) / 1e6:.0f} Mbit/s" for s in sizes)
        + ") from an `appsrc`, each frame stamped before the push with the "
        "sender's CLOCK_REALTIME and its number (and the number at the start "
        "of every 1316 bytes); when the appsrc still holds 2 frames the "
        "sender element has not taken, the frame is dropped, as a live "
        "source would. The receiver's `appsink` checks every stamp: a frame "
        "is delivered when it arrives whole (every stamp its own, no "
        "`GST_BUFFER_FLAG_CORRUPTED`); latency = CLOCK_REALTIME at the "
        "appsink - the stamped time (both namespaces share the clock). The "
        "same measurement for every contender. "
        + "; ".join(f"{SIZES[s]['label']}: {timing[s]['warmup']:g} s warm-up"
                    f", then {timing[s]['seconds']:g} s measured" for s in sizes)
        + f"; the receiver stops {results['grace_s']:g} s after the last "
        "push. *p50 / p99*: latency of the whole frames received in the "
        "measured window (nearest rank). *fps*: those frames per second. "
        "*lost*: frames pushed in the window that were not delivered whole "
        "by the end (dropped by the sender, lost or cut on the way, or still "
        "queued: tcpserversink drops nothing, so its lost frames are "
        "queued). *growing*: the median latency of the window's last second "
        "exceeds the stream's second second's by more than max(10 ms, 25 %). "
        "*stall*: more than 1 s without a whole frame. The goodput tables "
        "add `iperf3` (TCP, one stream, 2 s) through each bottleneck: what "
        "bulk TCP gets out of it. The bottleneck's "
        "queue is the sender's own interface's, as on a sender whose uplink "
        "is the slowest link: a socket's datagrams count against its send "
        "buffer while they wait in the tbf, so UDP senders with a small "
        "one (udpsink's default, SRT's UDP socket) are held back by the "
        "kernel instead of losing datagrams further on. A bottleneck "
        "further along the path (a router) is not measured here.")
    L.append("")
    L.append(
        "Contenders, every property at its default except as said: "
        "`appsrc ! tilesink units=4 protocol=tcp` / `tilesrc ! appsink`; "
        "the same with `protocol=udp` (rate control on, the default); "
        "`appsrc ! gdppay ! tcpserversink sync=false` / `tcpclientsrc ! "
        "gdpdepay ! appsink`; `appsrc ! rtpvrawpay mtu=1440 ! udpsink "
        "sync=false` / `udpsrc buffer-size=16777216 ! rtpvrawdepay ! appsink`"
        " (RFC 4175, the frame sent as UYVY of the same byte count, no "
        "rtpjitterbuffer: it would only add its latency); `appsrc ! srtsink "
        "uri=srt://receiver sync=false [latency=20]` (caller) / `srtsrc "
        "uri=srt://:port?mode=listener [latency=20] ! appsink` (srtsink cuts "
        "each buffer into 1316-byte messages; the receiver puts each frame "
        "together from its stamps, and a frame with a message missing when "
        "the next frame's first arrives is partial). `sync=false` because "
        "the stream is live and timed by the appsrc; the sinks' clock sync "
        "would only add its processing deadline.")
    L.append("")
    for s in sizes:
        sz = SIZES[s]
        rates = sorted({r["rate_bps"] for r in results["runs"]
                        if r["size"] == s})
        L.append(f"### {sz['label']}, 60 frames/s "
                 f"({offered_bps(sz) / 1e6:.0f} Mbit/s offered): "
                 "p50 / p99 latency, whole frames/s, lost %")
        L.append("")
        L.append("| contender | " + " | ".join(
            rate_label(x) + (" (congested)" if congested(sz, x) else "")
            for x in rates) + " |")
        L.append("|---|" + "---|" * len(rates))
        for c in conts:
            L.append(f"| {c['label']} | " + " | ".join(
                cell(pick(results, s, c["key"], x)) for x in rates) + " |")
        L.append("")
        L.append(f"Goodput (Mbit/s of whole frames) and what the tbf dropped "
                 f"(packets), {sz['label']}:")
        L.append("")
        L.append("| contender | " + " | ".join(rate_label(x) for x in rates)
                 + " |")
        L.append("|---|" + "---|" * len(rates))
        for c in conts:
            cells = []
            for x in rates:
                r = pick(results, s, c["key"], x)
                if r is None or r.get("goodput_mbps") is None:
                    cells.append("-")
                    continue
                cells.append(f"{r['goodput_mbps']:.0f} "
                             f"({(r.get('qdisc') or {}).get('drops', '?')})")
            L.append(f"| {c['label']} | " + " | ".join(cells) + " |")
        ip = [i for i in results.get("iperf3", [])
              if i.get("mbps") and i["rate_bps"] in rates]
        if ip:
            L.append("| iperf3 TCP, 1 stream | " + " | ".join(
                next((f"{i['mbps']:.0f} ({(i.get('qdisc') or {}).get('drops', '?')})"
                      for i in ip if i["rate_bps"] == x), "-")
                for x in rates) + " |")
        L.append("")
    L += loss_markdown(results)
    L += cross_markdown(results)
    L += clean_markdown(results)
    L += targets_markdown(results)
    L.append("### Findings")
    L.append("")
    for f in findings(results) + impaired_findings(results):
        L.append(f"- {f}")
    failed = [r for r in all_runs(results) if r.get("error")]
    if failed:
        L.append("")
        L.append("Runs that reported an error (their numbers are what "
                 "arrived before it): " + "; ".join(
                     f"{run_label(r)} ({CONT[r['contender']]['label']}): "
                     f"{r['error']}"
                     for r in failed) + ".")
    if results.get("skipped"):
        L.append("")
        L.append("Not run: " + "; ".join(results["skipped"]) + ".")
    L.append("")
    L.append("### Figures")
    L.append("")
    for f in figs:
        L.append(f"![{Path(f).stem}]({f})")
    L.append("")
    L.append("Every run, its commands, the sink's and the source's "
             "statistics and every whole frame's receive time and latency: "
             "`benchmarks/congestion/results.json`.")
    L += ["", MARK_END]
    return "\n".join(L) + "\n"


# --------------------------------------------------------------------------


def write_results(path: Path, results: dict) -> None:
    """results.json with indent 1, but each [t, ms] pair of a series on
    one line, and the series itself packed ten pairs to a line."""
    text = json.dumps(results, indent=1)

    def pack(m):
        pairs = re.findall(r"\[\s*([-0-9.e]+),\s*([-0-9.e]+)\s*\]", m.group(2))
        ind = m.group(1)
        rows = [", ".join(f"[{a}, {b}]" for a, b in pairs[i:i + 10])
                for i in range(0, len(pairs), 10)]
        inner = (",\n" + ind + " ").join(rows)
        return f'{ind}"series": [\n{ind} {inner}\n{ind}]' if rows else \
            f'{ind}"series": []'
    text = re.sub(r'( *)"series": (\[(?:\s*\[\s*[-0-9.e]+,\s*[-0-9.e]+\s*\],?)*'
                  r'\s*\])', pack, text)
    path.write_text(text + "\n")


SECTIONS = ("sweep", "loss", "cross", "clean")


def main() -> int:
    # SIGTERM (run.sh's cleanup) unwinds like Ctrl-C: the ends of the
    # current run are stopped, the tbf removed
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--driver", type=Path, help="bc-congestion-bench")
    ap.add_argument("--iperf3", default="iperf3")
    ap.add_argument("--ns-tx", help="the sender's network namespace")
    ap.add_argument("--ns-rx", help="the receiver's network namespace")
    ap.add_argument("--addr-tx", help="the sender's address")
    ap.add_argument("--addr-rx", help="the receiver's address")
    ap.add_argument("--dev-tx", default="veth-tx")
    ap.add_argument("--no-srt", action="store_true",
                    help="srtsink/srtsrc are not there: skip them")
    ap.add_argument("--only", default="",
                    help="comma-separated contender keys (debugging)")
    ap.add_argument("--sections", default=",".join(SECTIONS),
                    help="comma-separated: sweep (the rate sweep), loss, "
                    "cross, clean (default: all); the sections not run are "
                    "kept "
                    "from --out's earlier results")
    ap.add_argument("--seconds", type=float, default=0,
                    help="measured seconds of the long rows (the issue's "
                    "target rows: 2160p 2 %% loss, the 111 Mbit/s stream "
                    "beside one TCP flow, the clean-path rows, ...); "
                    "default "
                    f"{LONG_SECONDS:g}, with --quick the rows' own")
    ap.add_argument("--keep-logs", action="store_true")
    benchlib.add_output_options(
        ap, "the sweep at 300 Mbit/s (1080p), one loss row (2 %%), one "
        "cross-traffic row (111 Mbit/s beside one TCP flow) and the "
        "clean-path row of tilesink udp, 2-3 s a run "
        "(< 2 minutes); writes results-quick.json and quick/*.png, not "
        "the doc", "benchmarks/congestion/run.sh")
    args = ap.parse_args()
    write_doc_too = benchlib.resolve_outputs(args, HERE)
    want = [x for x in args.sections.split(",") if x]
    if not want or any(x not in SECTIONS for x in want):
        ap.error(f"--sections: some of {', '.join(SECTIONS)}")

    if args.report_only:
        results = json.loads(args.out.read_text())
        return report(args, results, write_doc_too)
    for a in ("driver", "ns_tx", "ns_rx", "addr_tx", "addr_rx"):
        if not getattr(args, a):
            ap.error(f"--{a.replace('_', '-')} is required (run.sh sets it)")

    started = time.monotonic()
    machine = machine_info()
    # the commit measured (commits made while it runs are not)
    args.git = git_describe()
    quiet = benchlib.wait_for_quiet(args.quick)

    sizes = {}
    for k, s in SIZES.items():
        if args.quick and k not in QUICK:
            continue
        sizes[k] = dict(s, **(QUICK.get(k, {}) if args.quick else {}))
    grace = QUICK_GRACE if args.quick else GRACE
    conts = [c for c in CONTENDERS
             if (not args.only or c["key"] in args.only.split(","))]
    skipped = []
    if args.no_srt:
        skipped.append("srtsink/srtsrc (not installed: "
                       "gstreamer1.0-plugins-bad without SRT)")
        conts = [c for c in conts if c["transport"] != "srt"]
    net = Net(args)
    work = Path(tempfile.mkdtemp(prefix="gstbc-congestion."))
    port = 20000 + os.getpid() % 20000
    if "sweep" in want:
        n_runs = sum(len(s["rates"]) for s in sizes.values()) * len(conts)
        log(f"sweep: {n_runs} runs: " + ", ".join(
            f"{s['label']} at {', '.join(rate_label(x) for x in s['rates'])}"
            for s in sizes.values())
            + f"; contenders {', '.join(c['key'] for c in conts)}")

    iperf = []
    runs = []
    loss = cross = clean = None
    sweep_started = time.monotonic()
    try:
        if "sweep" in want and not args.quick and shutil.which(args.iperf3):
            for rate in sorted({x for s in sizes.values()
                                for x in s["rates"]}):
                i = run_iperf3(args, net, rate, 2)
                iperf.append(i)
                log(f"iperf3 through {rate_label(rate)}: "
                    f"{i.get('mbps', 0):.0f} Mbit/s"
                    + (f" ({i['error']})" if i.get("error") else ""))
        if "sweep" in want:
            for sk, s in sizes.items():
                timing = dict(warmup=s["warmup"], seconds=s["seconds"],
                              grace=grace)
                for rate in s["rates"]:
                    for c in conts:
                        net.set_rate(rate)
                        r = run_one(args, net, work, sk, s, c, rate, port,
                                    timing)
                        port += 1
                        runs.append(r)
                        log(describe(r))
        sweep_seconds = time.monotonic() - sweep_started
        if "loss" in want:
            loss, port = run_loss(args, net, work, conts, port, grace)
        if "cross" in want:
            cross, port = run_cross(args, net, work, conts, port, grace)
        if "clean" in want:
            clean, port = run_clean(args, net, work, conts, port, grace)
    finally:
        net.clear()
        net.nft_clear()
        if not args.keep_logs:
            shutil.rmtree(work, ignore_errors=True)
        else:
            log(f"logs kept in {work}")

    new = {}
    if "sweep" in want:
        others = sorted(r["other_cpu_cores"] for r in runs) or [0]
        new = {
            "other_cpu_cores_before": round(quiet, 3),
            "other_cpu_cores_median": others[len(others) // 2],
            "other_cpu_cores_max": others[-1],
            "fps": FPS,
            "grace_s": grace,
            "timing": {k: {"warmup": s["warmup"], "seconds": s["seconds"],
                           "rates": s["rates"]} for k, s in sizes.items()},
            "contenders": [c["key"] for c in conts],
            "contender_labels": {c["key"]: c["label"] for c in conts},
            "skipped": skipped,
            "iperf3": iperf,
            "runs": runs,
            "sweep_seconds": sweep_seconds,
        }
    else:
        # the sweep of the earlier results in --out, as it was
        try:
            old = json.loads(args.out.read_text())
        except (OSError, ValueError):
            old = {}
        keep = ("other_cpu_cores_before", "other_cpu_cores_median",
                "other_cpu_cores_max", "fps", "grace_s", "timing",
                "contenders", "contender_labels", "skipped", "iperf3",
                "runs", "sweep_seconds", "sweep_run")
        new = {k: old[k] for k in keep if k in old}
        new.setdefault("runs", [])
        new.setdefault("contenders", [])
        new.setdefault("grace_s", grace)
        new.setdefault("timing", {})
        new.setdefault("sweep_run", {k: old.get(k) for k in (
            "date", "git", "command", "seconds")})
        for sec in ("loss", "cross"):
            if sec not in want and old.get(sec):
                if sec == "loss":
                    loss = old[sec]
                else:
                    cross = old[sec]
        log("sweep: kept from " + str(args.out) + " ("
            + str(new["sweep_run"].get("date")) + ")")
    if loss is None or cross is None or clean is None:
        try:
            old = json.loads(args.out.read_text())
        except (OSError, ValueError):
            old = {}
        loss = loss if loss is not None else old.get("loss")
        cross = cross if cross is not None else old.get("cross")
        clean = clean if clean is not None else old.get("clean")
    results = {
        **benchlib.results_header(
            args, machine, args.git,
            os.environ.get("BC_CONGESTION_SYSCTL",
                           "net.core sysctls unchanged")),
        "topology": (f"namespaces {args.ns_tx} ({args.addr_tx}) and "
                     f"{args.ns_rx} ({args.addr_rx}), veth pair, tbf on "
                     f"{args.dev_tx} in {args.ns_tx}"),
        "sections_run": want,
        **new,
        "loss": loss,
        "cross": cross,
        "clean": clean,
        "seconds": time.monotonic() - started,
    }
    return report(args, results, write_doc_too)


def all_runs(results: dict) -> list:
    return results.get("runs", []) + [
        r for sec in ("loss", "cross", "clean") for r in
        ((results.get(sec) or {}).get("runs") or [])]


def report(args, results: dict, write_doc_too: bool) -> int:
    results["targets"] = targets(results)
    figs = benchlib.write_figures(plots, results, args.plots_dir, args.doc)
    results["figures"] = figs
    write_results(args.out, results)
    log(f"wrote {args.out}")
    benchlib.publish_section(markdown(results, figs), MARK_BEGIN, MARK_END,
                             args.doc, write_doc_too)
    for t in results["targets"]:
        log(f"target (issue 36), tilesink/tilesrc udp, {t['row']}: "
            f"{t['what']} {t['want']}: {t['got']}: "
            + {True: "met", False: "MISSED", None: "not checked"}[t["met"]])
    bad = [r for r in all_runs(results) if r.get("delivered") is None]
    for r in bad:
        log(f"no result: {r.get('tag') or r['size']} {r['contender']}: "
            f"{r.get('error')}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
