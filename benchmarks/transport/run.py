#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Transport benchmark: tilesink/tilesrc (protocol=tcp and udp) against
tcpserversink/tcpclientsrc, rtpvrawpay/rtpvrawdepay and iperf3 (TCP and
-u), on 127.0.0.1, in one run.

Run through benchmarks/transport/run.sh, which builds bc-transport-bench and
the plugins, installs iperf3, raises net.core.[rw]mem_max for the run and
makes the venv. Measures:

- iperf3 -c 127.0.0.1 -P N (N = 1, 2, 4, 8), with the kernel's default
  (autotuned) socket buffers and with -w 16M (the buffers tilesink and
  tilesrc ask for), against an iperf3 server of ours on a free port;
- bc-transport-bench (see its header comment) for the frame sizes 1080p,
  2160p and 4320p BC1 (width * height / 2 bytes) and 4320p RGB, over
  tilesink/tilesrc (units 1, 2, 4, 8), tcpserversink/tcpclientsrc with
  rawvideoparse cutting the frames, tcpserversink/tcpclientsrc with
  gdppay/gdpdepay, and plain blocking sockets without GStreamer (the
  driver's -T raw: the baseline of what this loopback and scheduler allow
  for frames, measured the same way):
  * throughput: frames pushed as fast as a window of 4 undelivered frames
    allows, for --seconds;
  * delivery latency: frames pushed at a fixed rate well below every
    transport's capacity, sender's CLOCK_REALTIME in the frame -> appsink;
  * tilesink chunk-size from 1408 B (one loopback-free Ethernet payload) to
    1 MiB, at 2160p and 4 units;
  * tilesrc stepped=true and stepped=false, with and without a downstream
    pool whose buffers carry GstBcTileMeta;
- tilesink/tilesrc protocol=udp for 2160p and 4320p BC1: packet-size 1408,
  8972 and 65000 (datagrams of 1448, 9012 and 65040 bytes), gso=auto
  (UDP_SEGMENT / UDP_GRO) and off at both ends, units 1, 2 and 4,
  throughput and latency as above (4320p latency: 4 units only), with the
  loss each run saw (frames pushed with gaps, their lost bytes, datagrams
  lost and late, kernel drops); then one run paced with pacing-bitrate at
  PACE x the capacity just measured;
- rtpvrawpay ! udpsink -> udpsrc ! rtpvrawdepay (RFC 4175; BC1 frames as
  UYVY of the same byte count) with the default socket buffers and with
  16 MiB, the same measurements;
- iperf3 -u -b 0 -l 1448 / 9012 / 65040 -w 16M: the kernel's UDP rate for
  those datagrams (what arrived);
- the cost of a passphrase (tilesink/tilesrc passphrase=...: AES-128-GCM on
  every TCP tile part and UDP datagram, + 16 bytes a datagram), 2160p BC1,
  4 units: TCP, and UDP packet-size 1408 and 8972 with GSO/GRO; throughput
  and latency as above, each run with the passphrase made right after the
  same run without;
- how late a thread sleeping 20 ms wakes up (the scheduler's share of any
  latency tail on this machine).

Writes benchmarks/transport/results.json, the figures docs/perf/transport-*.png
and the section between <!-- transport-bench:begin --> and
<!-- transport-bench:end --> of docs/performance.md. --quick measures a small
subset in well under a minute and writes results-quick.json and
benchmarks/transport/quick/*.png only.

Timings on a shared 2-core machine are noisy; nothing here asserts a speed.
The CPU time other processes took during each run is recorded
(other_cpu_cores) so that a disturbed run can be told apart.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent.parent
sys.path.insert(0, str(SRC / "benchmarks"))
import benchlib  # noqa: E402
from benchlib import OtherCpu, log  # noqa: E402

MARK_BEGIN = "<!-- transport-bench:begin -->"
MARK_END = "<!-- transport-bench:end -->"

# name, format, width, height, latency rate (frames/s), latency frames
SIZES = [
    ("1080p BC1", "BC1", 1920, 1080, 60, 150),
    ("2160p BC1", "BC1", 3840, 2160, 30, 150),
    ("4320p BC1", "BC1", 7680, 4320, 15, 60),
    ("4320p RGB", "RGB", 7680, 4320, 2, 6),
]
UNITS = [1, 2, 4, 8]
CHUNKS = [1408, 4096, 16384, 65536, 262144, 1048576]
DEFAULT_CHUNK = 1 << 20
BUFFER = 16 << 20
KEY_SIZE = "2160p BC1"
KEY_UNITS = 4
BIG = 4_000_000  # "frames >= 4 MB" of the bar
# fewer frames for the latency runs that no bar reads (chunk-size, flush,
# plain sockets at other unit counts), to leave time for UDP
SMALL_LAT = 60

# protocol=udp
UDP_SIZES = ["2160p BC1", "4320p BC1"]
UDP_PACKETS = [1408, 8972, 65000]  # tilesink packet-size (payload)
UDP_GSO = ["auto", "off"]
UDP_UNITS = [1, 2, 4]
UDP_HEADER = 40  # tilesink's datagram header
UDP_TAG = 16  # and the AES-GCM tag after it, with a passphrase
UDP_DEFAULT = 1408
UDP_LAT = {"2160p BC1": (30, 45), "4320p BC1": (15, 30)}  # fps, frames
# iperf3 -u -l: the same datagrams (tilesink's payload + its header)
IPERF_UDP = {p: p + UDP_HEADER for p in UDP_PACKETS}
RTP_BUFFERS = [0, BUFFER]  # udpsink/udpsrc buffer-size: default, 16 MiB
RTP_MTU = UDP_DEFAULT + UDP_HEADER  # the same datagram as tilesink's default
# rtpvrawpay/rtpvrawdepay carry ~1 Gbit/s here: slower fixed rates
RTP_LAT = {"2160p BC1": (10, 20)}  # 4320p: throughput only
PACE = 0.75  # the paced run: pacing-bitrate = this x the measured capacity
# the passphrase runs (2160p BC1, KEY_UNITS units, TCP and these UDP
# packet sizes with GSO/GRO): the driver's --passphrase, the same at both
# ends
PASSPHRASE = "bench-passphrase-0123456789"
PASSPHRASE_PACKETS = [p for p in (UDP_DEFAULT, 8972) if p in UDP_PACKETS]
PASSPHRASE_RATIO = 0.6  # the issue's target: >= 0.6x plain throughput
PASSPHRASE_ADDED_P50 = 0.5  # and < 0.5 ms added latency p50


def frame_bytes(fmt: str, w: int, h: int) -> int:
    return w * h // 2 if fmt == "BC1" else w * h * 3


# --------------------------------------------------------------------------
# the scheduler


def wakeup_jitter(n: int, period: float = 0.02) -> dict:
    """How late a thread sleeping @period wakes up: the scheduler's share
    of any latency measured on this machine."""
    late = []
    for _ in range(n):
        t = time.perf_counter()
        time.sleep(period)
        late.append((time.perf_counter() - t - period) * 1e3)
    late.sort()

    def q(p):
        return round(late[min(n - 1, max(0, int(p / 100 * n + 0.999999) - 1))],
                     3)
    return {"n": n, "period_ms": period * 1e3, "p50": q(50), "p95": q(95),
            "p99": q(99), "max": round(late[-1], 3)}


# --------------------------------------------------------------------------
# iperf3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Iperf3Server:
    def __init__(self, binary: str):
        self.binary = binary
        self.proc = None
        self.port = 0

    def __enter__(self):
        for _ in range(5):
            self.port = free_port()
            self.proc = subprocess.Popen(
                [self.binary, "-s", "-B", "127.0.0.1", "-p", str(self.port)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline and self.proc.poll() is None:
                try:
                    with socket.create_connection(("127.0.0.1", self.port),
                                                  timeout=0.2):
                        # iperf3 takes a bare connect as a test that fails;
                        # give it a moment to be ready again
                        time.sleep(0.1)
                        return self
                except OSError:
                    time.sleep(0.05)
            self.stop()
        raise RuntimeError("cannot start an iperf3 server")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __exit__(self, *exc):
        self.stop()
        return False


def run_iperf3_json(cmd: list, server: Iperf3Server, timeout: int,
                    what: str, counters=lambda: None):
    """Runs the iperf3 client @cmd (-J), up to three times while its JSON
    has an "error": (that JSON, the OtherCpu of the run, @counters () before
    and after it). @what names the run in the log."""
    for attempt in range(3):
        c0 = counters()
        with OtherCpu([server.proc.pid]) as o:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=timeout)
        c1 = counters()
        try:
            d = json.loads(p.stdout)
        except json.JSONDecodeError:
            d = {"error": p.stderr.strip() or "no JSON"}
        if "error" not in d:
            break
        log(f"iperf3 {what}: {d['error']}; again")
        time.sleep(0.5)
    return d, o, (c0, c1)


def run_iperf3(binary: str, server: Iperf3Server, streams: int, window: str,
               seconds: int, omit: int) -> dict:
    cmd = [binary, "-c", "127.0.0.1", "-p", str(server.port), "-P",
           str(streams), "-t", str(seconds), "-O", str(omit), "-J"]
    if window:
        cmd += ["-w", window]
    d, o, _ = run_iperf3_json(cmd, server, seconds + omit + 20,
                              f"-P {streams} {window}")
    if "error" in d:
        return {"tool": "iperf3", "streams": streams,
                "buffers": window or "default", "error": d["error"]}
    start, end = d["start"], d["end"]
    return {
        "tool": "iperf3", "streams": streams, "buffers": window or "default",
        "command": " ".join(cmd[:1] + cmd[1:]),
        "gbit_s": end["sum_received"]["bits_per_second"] / 1e9,
        "gbit_s_sent": end["sum_sent"]["bits_per_second"] / 1e9,
        "retransmits": end["sum_sent"].get("retransmits"),
        "sndbuf_actual": start.get("sndbuf_actual"),
        "rcvbuf_actual": start.get("rcvbuf_actual"),
        "cpu_percent": end.get("cpu_utilization_percent"),
        "seconds": seconds, "omit": omit,
        "other_cpu_cores": round(o.cores, 3),
        "steal_cores": round(o.steal_cores, 3),
    }


def run_iperf3_udp(binary: str, server: Iperf3Server, length: int,
                   window: str, seconds: int, omit: int) -> dict:
    """iperf3 -u -b 0 (as fast as it can) with datagrams of @length bytes:
    one thread, one send() per datagram. The rate that counts is what
    arrived: the sender's rate less iperf3's lost packets (its "received"
    sum for UDP is the sender's byte count)."""
    cmd = [binary, "-c", "127.0.0.1", "-p", str(server.port), "-u", "-b",
           "0", "-l", str(length), "-t", str(seconds), "-O", str(omit),
           "-J"]
    if window:
        cmd += ["-w", window]
    d, o, (snmp0, snmp1) = run_iperf3_json(
        cmd, server, seconds + omit + 20, f"-u -l {length} {window}",
        udp_snmp)
    if "error" in d:
        return {"tool": "iperf3", "udp": True, "length": length,
                "buffers": window or "default", "error": d["error"]}
    start, end = d["start"], d["end"]
    snt = end.get("sum_sent") or end["sum"]
    rcv = end.get("sum_received") or end["sum"]
    lost_pct = rcv.get("lost_percent", end["sum"].get("lost_percent", 0))
    sent = snt["bits_per_second"] / 1e9
    return {
        "tool": "iperf3", "udp": True, "length": length,
        "buffers": window or "default",
        "command": " ".join(cmd),
        "gbit_s_sent": sent,
        "gbit_s": sent * (1 - lost_pct / 100),
        "lost_percent": lost_pct,
        "lost_packets": rcv.get("lost_packets"),
        "packets": rcv.get("packets"),
        "sndbuf_actual": start.get("sndbuf_actual"),
        "rcvbuf_actual": start.get("rcvbuf_actual"),
        "cpu_percent": end.get("cpu_utilization_percent"),
        "udp_snmp": {k: snmp1.get(k, 0) - snmp0.get(k, 0) for k in snmp1},
        "seconds": seconds, "omit": omit,
        "other_cpu_cores": round(o.cores, 3),
        "steal_cores": round(o.steal_cores, 3),
    }


def udp_snmp() -> dict:
    """The kernel's UDP counters (/proc/net/snmp)."""
    try:
        lines = [ln.split() for ln in open("/proc/net/snmp")
                 if ln.startswith("Udp:")]
        return {k: int(v) for k, v in zip(lines[0][1:], lines[1][1:])
                if k in ("InDatagrams", "OutDatagrams", "InErrors",
                         "RcvbufErrors", "SndbufErrors")}
    except (OSError, IndexError, ValueError):
        return {}


# --------------------------------------------------------------------------
# bc-transport-bench


def run_driver(args, kind: str, transport: str, size: tuple, *,
               units: int = KEY_UNITS, chunk: int = DEFAULT_CHUNK,
               rate: float = 0.0, frames: int = 100000,
               seconds: float = 0.0, window: int = 4,
               max_in_flight: int = 0, flush: str = "stepped",
               tile_pool: bool = False, tag: str = "", packet: int = 0,
               gso: str = "auto", max_bitrate: int = 0,
               buffers: int = BUFFER, once: bool = False,
               passphrase: bool = False) -> dict:
    """transport: tile, tcp, tcp-gdp, raw, tile-udp (-T tile --protocol
    udp) or rtp; packet, gso, max_bitrate for tile-udp; buffers (socket
    buffer bytes, 0 = the kernel's default) for rtp; passphrase (tile,
    tile-udp): PASSPHRASE at both ends, the run's "passphrase" true."""
    name, fmt, w, h = size[:4]
    udp = transport == "tile-udp"
    # UDP: a stall is a receiver that stopped (see the driver), not a slow
    # transport: do not wait 8 s for it
    cmd = [str(args.driver), "-T", "tile" if udp else transport, "-f", fmt,
           "-W", str(w), "-H", str(h), "-n", str(frames), "-w", str(window),
           "-t", "2" if udp or transport == "rtp" else "8"]
    if seconds:
        cmd += ["--seconds", str(seconds)]
    if rate:
        cmd += ["--rate", str(rate)]
    if transport == "raw":
        cmd += ["-u", str(units), "-c", str(chunk), "--send-buffer-size",
                str(BUFFER), "--receive-buffer-size", str(BUFFER)]
    if udp:
        cmd += ["-u", str(units), "--protocol", "udp", "--packet-size",
                str(packet), "--gso", gso, "--send-buffer-size", str(BUFFER),
                "--receive-buffer-size", str(BUFFER)]
        if max_bitrate:
            cmd += ["--max-bitrate", str(int(max_bitrate))]
    if transport == "rtp":
        cmd += ["--send-buffer-size", str(buffers), "--receive-buffer-size",
                str(buffers)]
    if transport == "tile":
        cmd += ["-u", str(units), "-c", str(chunk), "--send-buffer-size",
                str(BUFFER), "--receive-buffer-size", str(BUFFER), "--flush",
                flush]
        if max_in_flight:
            cmd += ["--max-in-flight", str(max_in_flight)]
        if tile_pool:
            cmd.append("--tile-pool")
    if passphrase:
        if transport not in ("tile", "tile-udp"):
            raise ValueError(f"no passphrase for {transport}")
        cmd += ["--passphrase", PASSPHRASE]
    limit = 60 + (seconds or frames / max(rate, 1))
    with OtherCpu() as o:
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=limit)
            out, errtext, rc = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else ""
            errtext, rc = f"timed out after {limit:.0f} s", -1
    r = None
    for line in out.splitlines():
        if line.startswith("{"):
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                pass
    if r is None:
        r = {"transport": transport, "error": errtext.strip()[-500:]
             or f"exit {rc}"}
    r.update({"kind": kind, "size": name, "tag": tag, "exit": rc,
              "command": " ".join(cmd[:1] + [c for c in cmd[1:]]),
              "other_cpu_cores": round(o.cores, 3),
              "steal_cores": round(o.steal_cores, 3),
              "wall_seconds": round(o.wall, 2)})
    if rc != 0 and not r.get("error"):
        r["error"] = errtext.strip()[-500:]
    if r.get("stalled"):
        r["stall"] = errtext.strip()[-500:]
    if transport not in ("tile", "raw", "tile-udp"):
        r["units"] = 1
    r["transport"] = transport
    if transport == "rtp":
        r["buffers"] = buffer_label(buffers)
    if udp:
        r["packet_size"] = packet
        r["gso"] = gso
        r["max_bitrate"] = max_bitrate
    # also when the driver printed nothing: pick() tells the runs apart by it
    r["passphrase"] = bool(passphrase)
    return r


def buffer_label(b: int) -> str:
    return "default" if not b else f"{b >> 20}M"


def describe(r: dict) -> str:
    t = r["transport"] + (f" u={r['units']}" if r["transport"] in
                          ("tile", "raw", "tile-udp") else "")
    if r["transport"] == "tile-udp":
        t += f" ps={r.get('packet_size')} gso={r.get('gso')}"
        if r.get("max_bitrate"):
            t += f" max={r['max_bitrate'] / 1e9:.1f}G"
    if r["transport"] == "rtp":
        t += f" buf={r.get('buffers')}"
    if r.get("chunk_size") and r["chunk_size"] != DEFAULT_CHUNK:
        t += f" chunk={r['chunk_size']}"
    if r.get("tile_pool"):
        t += " pool"
    if r.get("transport") == "tile" and r.get("flush") != "stepped":
        t += f" flush={r.get('flush')}"
    if r.get("passphrase"):
        t += {1: " sealed", 0: " NOT-SEALED"}.get(r.get("sealed"),
                                                  " sealed?")
    if r.get("error") and r.get("gbit_s") is None:
        return f"{r['kind']:10} {r['size']:10} {t:28} ERROR {r['error']}"
    lat = (r.get("latency_ms") or {}).get("inband") or {}
    s = (f"{r['kind']:10} {r['size']:10} {t:28} "
         f"{r.get('gbit_s') or 0:7.2f} Gbit/s {r.get('fps') or 0:8.1f} fps")
    if lat:
        s += (f"  latency p50 {lat['p50']:7.2f} p99 {lat['p99']:7.2f} ms")
    s += (f"  lost {r.get('lost')} drop {r.get('frames_dropped', '-')}"
          f" other-cpu {r['other_cpu_cores']:.2f}")
    if r["transport"] in ("tile-udp", "rtp"):
        su = r.get("src_udp") or {}
        sn = r.get("udp_snmp") or {}
        s += (f" corrupted {r.get('frames_corrupted')} damaged "
              f"{r.get('bad_stamps')} pk-lost "
              f"{su.get('packets-lost', r.get('rtp_packets_lost'))}"
              f" late {su.get('packets-late', '-')} kdrops "
              f"{su.get('kernel-drops', '-')} rcvbuf-err "
              f"{sn.get('RcvbufErrors')}")
    if r.get("stalled"):
        s += " STALLED"
    return s


# --------------------------------------------------------------------------
# the plan


def plan(quick: bool):
    """(passes, iperf3 runs, throughput runs, latency runs): the iperf3 and
    throughput runs are done `passes` times, one pass after the other, and
    the best of each counts (noise on a shared machine only slows)."""
    if quick:
        sizes = [s for s in SIZES if s[0] in ("1080p BC1", "2160p BC1")]
        units = [1, 4]
        ip = [dict(streams=n, window=w, seconds=1, omit=0)
              for n in units for w in ("", "16M")]
        ip += [dict(udp=True, length=IPERF_UDP[p], window="16M", seconds=1,
                    omit=0) for p in (1408, 65000)]
        tput_s, lat_scale = 0.5, 0.2
        chunks = [4096, DEFAULT_CHUNK]
        udp_sizes = ["2160p BC1"]
        udp_cfg = [(1408, "auto", 4), (1408, "off", 4), (65000, "auto", 4)]
        rtp_bufs = [BUFFER]
    else:
        sizes, units = SIZES, UNITS
        ip = [dict(streams=n, window=w, seconds=1, omit=1)
              for n in UNITS for w in ("", "16M")]
        ip += [dict(udp=True, length=IPERF_UDP[p], window="16M", seconds=1,
                    omit=1) for p in UDP_PACKETS]
        tput_s, lat_scale = 1.2, 1.0
        chunks = CHUNKS
        udp_sizes = UDP_SIZES
        udp_cfg = [(p, g, u) for p in UDP_PACKETS for g in UDP_GSO
                   for u in UDP_UNITS]
        rtp_bufs = RTP_BUFFERS
    key = next(s for s in SIZES if s[0] == KEY_SIZE)
    # the passphrase runs: each right after the same run without, so that
    # their ratio compares runs made close together; UDP: the packet sizes
    # this plan lacks get their run without too
    udp_sealed = [(p, "auto", KEY_UNITS) for p in PASSPHRASE_PACKETS]
    udp_key_cfg = udp_cfg + [c for c in udp_sealed if c not in udp_cfg]
    runs = []
    # throughput
    for s in sizes:
        for u in units:
            runs.append(dict(kind="throughput", transport="tile", size=s,
                             units=u, seconds=tput_s))
            if s is key and u == KEY_UNITS:
                runs.append(dict(kind="throughput", transport="tile", size=s,
                                 units=u, seconds=tput_s, passphrase=True))
        runs.append(dict(kind="throughput", transport="tcp", size=s,
                         seconds=tput_s))
        if not quick or s is key:
            runs.append(dict(kind="throughput", transport="tcp-gdp", size=s,
                             seconds=tput_s))
        for u in units:
            if u == KEY_UNITS or (s is key and not quick):
                runs.append(dict(kind="throughput", transport="raw", size=s,
                                 units=u, seconds=tput_s))
    for c in chunks:
        if c != DEFAULT_CHUNK:
            runs.append(dict(kind="throughput", transport="tile", size=key,
                             units=KEY_UNITS, chunk=c, seconds=tput_s,
                             tag="chunk"))
    # tilesink's own default, max-in-flight 1: the sender waits for each
    # frame
    runs.append(dict(kind="throughput", transport="tile", size=key,
                     units=KEY_UNITS, window=1, max_in_flight=1,
                     seconds=tput_s, tag="max-in-flight=1"))
    # protocol=udp, and rtpvrawpay; 4320p in the first pass only
    for name in udp_sizes:
        s = next(x for x in SIZES if x[0] == name)
        once = name != KEY_SIZE
        for p, g, u in (udp_key_cfg if s is key else udp_cfg):
            sealed = s is key and (p, g, u) in udp_sealed
            # the second pass only where a bar reads the rate, or the
            # passphrase's ratio
            runs.append(dict(kind="throughput", transport="tile-udp", size=s,
                             units=u, packet=p, gso=g, seconds=tput_s,
                             once=not sealed and (once or (
                                 g == "auto" and p != UDP_DEFAULT))))
            if sealed:
                runs.append(dict(kind="throughput", transport="tile-udp",
                                 size=s, units=u, packet=p, gso=g,
                                 seconds=tput_s, passphrase=True))
        for b in rtp_bufs:
            runs.append(dict(kind="throughput", transport="rtp", size=s,
                             buffers=b, seconds=tput_s, once=once))
    tput, runs = runs, []
    # latency
    for s in sizes:
        rate, n = s[4], max(10 if s[5] >= 10 else s[5],
                            int(s[5] * lat_scale))
        for u in units:
            if s[1] == "RGB" and u not in (2, KEY_UNITS):
                continue  # 3 s a run: the units that tell something
            runs.append(dict(kind="latency", transport="tile", size=s,
                             units=u, rate=rate, frames=n))
            if s is key and u == KEY_UNITS:
                runs.append(dict(kind="latency", transport="tile", size=s,
                                 units=u, rate=rate, frames=n,
                                 passphrase=True))
        runs.append(dict(kind="latency", transport="tcp", size=s, rate=rate,
                         frames=n))
        if not quick or s is key:
            runs.append(dict(kind="latency", transport="tcp-gdp", size=s,
                             rate=rate, frames=n))
        for u in units:
            if u == KEY_UNITS or (s is key and not quick):
                runs.append(dict(kind="latency", transport="raw", size=s,
                                 units=u, rate=rate, frames=n if u ==
                                 KEY_UNITS else min(n, SMALL_LAT)))
    for name in udp_sizes:
        s = next(x for x in SIZES if x[0] == name)
        rate, nf = UDP_LAT[name]
        nf = max(10, int(nf * lat_scale))
        for p, g, u in (udp_key_cfg if s is key else udp_cfg):
            if name == KEY_SIZE or u == KEY_UNITS:
                runs.append(dict(kind="latency", transport="tile-udp",
                                 size=s, units=u, packet=p, gso=g,
                                 rate=rate, frames=nf))
            if s is key and (p, g, u) in udp_sealed:
                runs.append(dict(kind="latency", transport="tile-udp",
                                 size=s, units=u, packet=p, gso=g,
                                 rate=rate, frames=nf, passphrase=True))
        if name not in RTP_LAT:
            continue
        rate, nf = RTP_LAT[name]
        nf = max(6, int(nf * lat_scale))
        for b in rtp_bufs:
            runs.append(dict(kind="latency", transport="rtp", size=s,
                             buffers=b, rate=rate, frames=nf))
    n = max(10, int(min(key[5], SMALL_LAT) * lat_scale))
    for c in chunks:
        if c != DEFAULT_CHUNK:
            runs.append(dict(kind="latency", transport="tile", size=key,
                             units=KEY_UNITS, chunk=c, rate=key[4], frames=n,
                             tag="chunk"))
    for pool, flush in ((False, "frame"), (True, "stepped"), (True, "frame")):
        runs.append(dict(kind="latency", transport="tile", size=key,
                         units=KEY_UNITS, rate=key[4], frames=n,
                         tile_pool=pool, flush=flush, tag="flush"))
    return (1 if quick else 2), ip, tput, runs


# --------------------------------------------------------------------------
# analysis


def pick(runs, kind, size, transport, units=None, chunk=DEFAULT_CHUNK,
         tag="", flush="stepped", pool=False, passphrase=False):
    """The run of that configuration; of several (passes), the fastest.
    Runs with a passphrase only when @passphrase, and then only those."""
    best = None
    for r in runs:
        if (r.get("kind") == kind and r.get("size") == size
                and r.get("transport") == transport
                and r.get("tag", "") == tag
                and bool(r.get("passphrase")) == passphrase
                and (units is None or r.get("units") == units)
                and (transport != "tile"
                     or (r.get("chunk_size", chunk) == chunk
                         and r.get("flush", flush) == flush
                         and bool(r.get("tile_pool")) == pool))
                and r.get("gbit_s") is not None):
            if best is None or r["gbit_s"] > best["gbit_s"]:
                best = r
    return best


def spread(runs, kind, size, transport, units=None, tag=""):
    """All passes' Gbit/s of a configuration."""
    return [r["gbit_s"] for r in runs
            if r.get("kind") == kind and r.get("size") == size
            and r.get("transport") == transport and r.get("tag", "") == tag
            and not r.get("passphrase")
            and (units is None or r.get("units") == units)
            and (transport != "tile" or (r.get("chunk_size") == DEFAULT_CHUNK
                                         and not r.get("tile_pool")))
            and r.get("gbit_s") is not None]


def iperf(results, streams, buffers="16M"):
    """The best of the passes."""
    rates = [r["gbit_s"] for r in results["iperf3"]
             if not r.get("udp") and r.get("streams") == streams
             and r["buffers"] == buffers and r.get("gbit_s")]
    return max(rates) if rates else None


def iperf_udp(results, length, buffers="16M"):
    """The iperf3 -u run with the best received rate."""
    best = None
    for r in results["iperf3"]:
        if (r.get("udp") and r.get("length") == length
                and r["buffers"] == buffers and r.get("gbit_s")
                and (best is None or r["gbit_s"] > best["gbit_s"])):
            best = r
    return best


def pick_udp(runs, kind, size, packet, gso, units, tag="",
             passphrase=False):
    """The tilesink/tilesrc protocol=udp run of that configuration; of
    several (passes), the one that delivered the most. Runs with a
    passphrase only when @passphrase, and then only those."""
    best = None
    for r in runs:
        if (r.get("transport") == "tile-udp" and r.get("kind") == kind
                and r.get("size") == size and r.get("packet_size") == packet
                and r.get("gso") == gso and r.get("units") == units
                and r.get("tag", "") == tag and r.get("gbit_s") is not None
                and bool(r.get("passphrase")) == passphrase
                and (best is None or (not r.get("stalled"), good_rate(r)) >
                     (not best.get("stalled"), good_rate(best)))):
            best = r
    return best


def pick_rtp(runs, kind, size, buffers):
    best = None
    for r in runs:
        if (r.get("transport") == "rtp" and r.get("kind") == kind
                and r.get("size") == size and r.get("buffers") == buffers
                and r.get("gbit_s") is not None
                and (best is None or good_rate(r) > good_rate(best))):
            best = r
    return best


def good_rate(r):
    """Gbit/s of frames that arrived intact: tile-udp counts a partial
    frame less its lost bytes (GstBcLossMeta); rtp, which flags nothing,
    counts only the frames whose every stamp checked out."""
    if not r or r.get("gbit_s") is None:
        return None
    if r.get("transport") == "rtp":
        n = r.get("delivered") or 0
        bad = r.get("bad_stamps") or 0
        return r["gbit_s"] * (n - bad) / n if n else 0.0
    if r.get("gbit_s_good") is not None:
        return r["gbit_s_good"]
    return r["gbit_s"]


def udp_loss(r):
    """Loss counters of a tile-udp or rtp run, over its measurement."""
    su = r.get("src_udp") or {}
    sn = r.get("udp_snmp") or {}
    return {
        "stalled": bool(r.get("stalled")),
        "frames": r.get("delivered"),
        "frames_lost": r.get("lost"),
        "frames_corrupted": r.get("frames_corrupted"),
        "frames_damaged": r.get("bad_stamps"),
        "lost_fraction": r.get("lost_fraction"),
        "packets_received": su.get("packets-received",
                                   r.get("rtp_packets")),
        "packets_lost": su.get("packets-lost", r.get("rtp_packets_lost")),
        "packets_late": su.get("packets-late"),
        "frames_partial": su.get("frames-partial"),
        "frames_timer": su.get("frames-timer"),
        "kernel_drops": su.get("kernel-drops"),
        "packets_tampered": su.get("packets-tampered"),
        "frames_discarded": su.get("frames-discarded"),
        "rcvbuf_errors": sn.get("RcvbufErrors"),
        "sndbuf_errors": sn.get("SndbufErrors"),
    }


def lat(r, which="inband"):
    if not r:
        return None
    return (r.get("latency_ms") or {}).get(which)


def analyse(results: dict) -> dict:
    runs = results["runs"]
    sizes = {s[0]: s for s in SIZES}
    a = {"throughput_vs_iperf3": [], "throughput_vs_tcp": [], "ideal": [],
         "latency_vs_ideal": []}
    for name in results["sizes"]:
        s = sizes[name]
        fb = frame_bytes(s[1], s[2], s[3])
        tcp = pick(runs, "throughput", name, "tcp")
        gdp = pick(runs, "throughput", name, "tcp-gdp")
        for u in results["units"]:
            t = pick(runs, "throughput", name, "tile", u)
            if not t:
                continue
            ip16, ipd = iperf(results, u, "16M"), iperf(results, u, "default")
            if fb >= BIG:
                a["throughput_vs_iperf3"].append({
                    "size": name, "units": u, "tile": t["gbit_s"],
                    "iperf3_16M": ip16, "iperf3_default": ipd,
                    "ratio_16M": t["gbit_s"] / ip16 if ip16 else None,
                    "ratio_default": t["gbit_s"] / ipd if ipd else None})
                a["throughput_vs_tcp"].append({
                    "size": name, "units": u, "tile": t["gbit_s"],
                    "tcp": tcp and tcp["gbit_s"],
                    "tcp_gdp": gdp and gdp["gbit_s"],
                    "ratio": t["gbit_s"] / tcp["gbit_s"] if tcp else None,
                    "ratio_gdp": t["gbit_s"] / gdp["gbit_s"] if gdp
                    else None})
            if ip16:
                ideal = fb * 8 / (ip16 * 1e9) * 1e3
                a["ideal"].append({"size": name, "units": u,
                                   "iperf3_16M": ip16, "ideal_ms": ideal})
                lr = lat(pick(runs, "latency", name, "tile", u))
                if lr:
                    a["latency_vs_ideal"].append({
                        "size": name, "units": u, "ideal_ms": ideal,
                        "p5": lr["p5"], "p50": lr["p50"], "p95": lr["p95"],
                        "p99": lr["p99"], "p50_ratio": lr["p50"] / ideal,
                        "p99_ratio": lr["p99"] / ideal})
    a["udp"] = analyse_udp(results)
    a["passphrase"] = analyse_passphrase(results)
    return a


def cpu_ms_per_gb(r):
    """CPU time of the process's threads per GB delivered over a
    throughput run (ms), or None."""
    rate = good_rate(r)
    if not r or not rate or not r.get("seconds"):
        return None
    gb = rate * r["seconds"] / 8
    cpu = sum((r.get("thread_cpu_seconds") or {}).values())
    return cpu / gb * 1e3 if gb > 0 and cpu else None


def analyse_passphrase(results: dict) -> list:
    """The cost of a passphrase: per configuration, the runs with it
    against the same runs without (the best of the passes for each, as
    pick() and pick_udp() take them), and the issue's targets."""
    runs = results["runs"]
    out = []
    cfgs = [("tile", None)] + [("tile-udp", p) for p in PASSPHRASE_PACKETS]
    for transport, packet in cfgs:
        def get(kind, sealed):
            if transport == "tile":
                return pick(runs, kind, KEY_SIZE, "tile", KEY_UNITS,
                            passphrase=sealed)
            return pick_udp(runs, kind, KEY_SIZE, packet, "auto", KEY_UNITS,
                            passphrase=sealed)
        tp, ts = get("throughput", False), get("throughput", True)
        lp, ls = lat(get("latency", False)), lat(get("latency", True))
        if not ts and not ls:
            continue
        # UDP counts what arrived intact (gaps less), like its tables
        gp, gs = good_rate(tp), good_rate(ts)
        rat = ratio(gs, gp)
        added = ls["p50"] - lp["p50"] if lp and ls else None
        sealed_runs = [r for r in (ts, get("latency", True)) if r]
        out.append({
            "transport": transport, "size": KEY_SIZE, "units": KEY_UNITS,
            "packet": packet, "gso": "auto" if packet else None,
            "datagram": packet and packet + UDP_HEADER,
            "datagram_sealed": packet and packet + UDP_HEADER + UDP_TAG,
            "plain_gbit_s": gp, "sealed_gbit_s": gs, "ratio": rat,
            "plain_passes": sum(same_cfg(r, tp) for r in runs),
            "sealed_passes": sum(same_cfg(r, ts) for r in runs),
            "plain_p50": lp and lp["p50"], "plain_p99": lp and lp["p99"],
            "sealed_p50": ls and ls["p50"], "sealed_p99": ls and ls["p99"],
            "added_p50_ms": added,
            "plain_cpu_ms_per_gb": cpu_ms_per_gb(tp),
            "sealed_cpu_ms_per_gb": cpu_ms_per_gb(ts),
            # tilesink's word that the session was encrypted (1), in
            # every run with a passphrase
            "sealed_confirmed": all(r.get("sealed") == 1
                                    for r in sealed_runs),
            "sealed_loss": udp_loss(ts) if ts and transport == "tile-udp"
            else None,
            "target_met": {
                "ratio": None if rat is None else rat >= PASSPHRASE_RATIO,
                "added_p50": None if added is None else
                added < PASSPHRASE_ADDED_P50}})
    return out


def same_cfg(r, best) -> bool:
    """Whether @r is a pass of @best's configuration (for the count of
    passes behind a pick)."""
    if not best:
        return False
    keys = ("kind", "size", "transport", "units", "tag", "chunk_size",
            "flush", "tile_pool", "packet_size", "gso", "passphrase")
    return (r.get("gbit_s") is not None
            and all(r.get(k) == best.get(k) for k in keys))


def ratio(x, y):
    return x / y if x is not None and y else None


def stall_timeout(r) -> float:
    """The driver's -t of a run."""
    c = (r.get("command") or "").split()
    try:
        return float(c[c.index("-t") + 1])
    except (ValueError, IndexError):
        return 0.0


def run_label(e) -> str:
    return (f"{e['kind']} {e['size']} {e['packet']} "
            f"{'GSO' if e['gso'] == 'auto' else 'no GSO'} u={e['units']}"
            + (", passphrase" if e.get("passphrase") else "")
            + (f", pass {e['rep'] + 1}" if e.get("rep") else ""))


def analyse_udp(results: dict) -> dict:
    runs = results["runs"]
    sizes = [n for n in UDP_SIZES if any(
        r.get("transport") == "tile-udp" and r.get("size") == n
        for r in runs)]
    u = {"sizes": sizes, "matrix": [], "bars": {}, "loss": {}}
    if not sizes:
        return u
    ip65 = iperf_udp(results, IPERF_UDP[65000])
    # the matrix
    for name in sizes:
        for p in UDP_PACKETS:
            for g in UDP_GSO:
                for n in UDP_UNITS:
                    t = pick_udp(runs, "throughput", name, p, g, n)
                    lr = pick_udp(runs, "latency", name, p, g, n)
                    if not t and not lr:
                        continue
                    ip = iperf_udp(results, IPERF_UDP[p])
                    e = {"size": name, "packet": p, "gso": g, "units": n,
                         "gbit_s": t and t["gbit_s"],
                         "gbit_s_good": good_rate(t),
                         "gso_used": t and t.get("gso_used"),
                         "iperf3_same": ip and ip["gbit_s"],
                         "ratio_iperf3_same": ratio(good_rate(t),
                                                    ip and ip["gbit_s"]),
                         "ratio_iperf3_65000": ratio(good_rate(t),
                                                     ip65 and ip65["gbit_s"])}
                    if t:
                        e["loss"] = udp_loss(t)
                        e["cpu"] = t.get("thread_cpu_seconds")
                        e["seconds"] = t.get("seconds")
                    if lr and lat(lr):
                        e["latency"] = {k: lat(lr)[k] for k in
                                        ("p5", "p50", "p95", "p99", "max")}
                        e["latency_loss"] = udp_loss(lr)
                    u["matrix"].append(e)

    def cell(name, p, g, n):
        return next((e for e in u["matrix"] if e["size"] == name and
                     e["packet"] == p and e["gso"] == g and
                     e["units"] == n), None)

    # bar 1: 1408-byte packets with GSO/GRO >= 0.7x iperf3 -u 65000
    # bar 2: ... >= 10x rtpvrawpay (16 MiB buffers: its loss-free setting)
    b1, b2, b3, b5 = [], [], [], []
    for name in sizes:
        rtp = pick_rtp(runs, "throughput", name, buffer_label(BUFFER))
        rtpd = pick_rtp(runs, "throughput", name, "default")
        for n in UDP_UNITS:
            e = cell(name, UDP_DEFAULT, "auto", n)
            if not e or e["gbit_s_good"] is None:
                continue
            st = bool((e.get("loss") or {}).get("stalled"))
            b1.append({"size": name, "units": n, "tile": e["gbit_s_good"],
                       "gso_used": e["gso_used"], "stalled": st,
                       "iperf3": ip65 and ip65["gbit_s"],
                       "ratio": e["ratio_iperf3_65000"]})
            b2.append({"size": name, "units": n, "tile": e["gbit_s_good"],
                       "stalled": st,
                       "rtp": good_rate(rtp), "rtp_raw": rtp and rtp["gbit_s"],
                       "rtp_default": good_rate(rtpd),
                       "rtp_default_raw": rtpd and rtpd["gbit_s"],
                       "ratio": ratio(e["gbit_s_good"], good_rate(rtp))})
        # bar 3: without GSO >= 0.9x iperf3 at the same datagram size
        for p in UDP_PACKETS:
            ip = iperf_udp(results, IPERF_UDP[p])
            row = {"size": name, "packet": p, "datagram": IPERF_UDP[p],
                   "iperf3": ip and ip["gbit_s"],
                   "iperf3_sent": ip and ip["gbit_s_sent"],
                   "iperf3_lost_percent": ip and ip["lost_percent"],
                   "units": {}}
            for n in UDP_UNITS:
                e = cell(name, p, "off", n)
                if e and e["gbit_s_good"] is not None:
                    row["units"][n] = {
                        "tile": e["gbit_s_good"],
                        "ratio": e["ratio_iperf3_same"],
                        "stalled": bool((e.get("loss") or {}).get(
                            "stalled"))}
            if row["units"]:
                b3.append(row)
    # bar 5: 2160p latency p50 within 1.3x of the TCP path's
    for n in UDP_UNITS:
        tcp = lat(pick(runs, "latency", KEY_SIZE, "tile", n))
        for p in UDP_PACKETS:
            for g in UDP_GSO:
                e = cell(KEY_SIZE, p, g, n)
                if not e or not e.get("latency") or not tcp:
                    continue
                b5.append({"units": n, "packet": p, "gso": g,
                           "udp_p50": e["latency"]["p50"],
                           "udp_p99": e["latency"]["p99"],
                           "tcp_p50": tcp["p50"], "tcp_p99": tcp["p99"],
                           "ratio": e["latency"]["p50"] / tcp["p50"]})
    u["bars"] = {"gso_vs_iperf3_65000": b1, "gso_vs_rtp": b2,
                 "nogso_vs_iperf3": b3, "latency_vs_tcp": b5}
    # bar 4: loss on the loopback at full rate, 16 MiB socket buffers
    tot = {}
    partial_runs = []
    for r in runs:
        if r.get("transport") != "tile-udp" or r.get("tag") == "paced":
            continue
        lo = udp_loss(r)
        for k, v in lo.items():
            if (isinstance(v, (int, float)) and not isinstance(v, bool)
                    and k not in ("lost_fraction",)):
                tot[k] = tot.get(k, 0) + v
        tot["runs"] = tot.get("runs", 0) + 1
        if (lo.get("frames_partial") or 0) > 0 or (lo.get("frames_lost")
                                                    or 0) > 0:
            partial_runs.append({
                "kind": r["kind"], "size": r["size"], "rep": r.get("rep"),
                "packet": r.get("packet_size"), "gso": r.get("gso"),
                "units": r.get("units"), "stalled": r.get("stalled"),
                "passphrase": bool(r.get("passphrase")),
                # what the sender may have queued for one socket, against
                # what the kernel granted it (Linux reports twice the
                # size asked for; a datagram costs more than its payload)
                "tile_mb": r["frame_bytes"] / r["units"] / 1e6,
                "window": r.get("window"),
                "rcvbuf_granted_mb": r["receive_buffer_granted"] / 1e6
                if (r.get("receive_buffer_granted") or 0) > 0 else None,
                **lo})
        if r.get("stalled"):
            tot["stalled"] = tot.get("stalled", 0) + 1
    u["loss"] = {"tile_udp": tot, "runs_with_partial_frames": partial_runs,
                 "stalled_runs": [
                     {"kind": r["kind"], "size": r["size"],
                      "packet": r.get("packet_size"), "gso": r.get("gso"),
                      "units": r.get("units"), "stall": r.get("stall"),
                      "passphrase": bool(r.get("passphrase")),
                      "rep": r.get("rep"), "timeout": stall_timeout(r),
                      "thread_cpu_seconds": r.get("thread_cpu_seconds"),
                      "seconds": r.get("seconds")}
                     for r in runs if r.get("stalled")]}
    paced = [r for r in runs if r.get("transport") == "tile-udp"
             and r.get("tag") == "paced"]
    u["paced"] = [{"kind": r["kind"], "max_bitrate": r.get("max_bitrate"),
                   "capacity": r.get("capacity_gbit_s"),
                   "gbit_s": r.get("gbit_s"), "good": good_rate(r),
                   "latency": lat(r), "loss": udp_loss(r)} for r in paced]
    u["rtp"] = []
    for name in sizes:
        for b in RTP_BUFFERS:
            t = pick_rtp(runs, "throughput", name, buffer_label(b))
            lr = pick_rtp(runs, "latency", name, buffer_label(b))
            if t or lr:
                u["rtp"].append({
                    "size": name, "buffers": buffer_label(b),
                    "gbit_s": t and t["gbit_s"], "good": good_rate(t),
                    "loss": t and udp_loss(t),
                    "latency": lat(lr), "latency_rate": lr and lr["rate"],
                    "latency_loss": lr and udp_loss(lr),
                    "caps": (t or lr).get("rtp_caps")})
    return u


# --------------------------------------------------------------------------
# figures

STYLE = {  # transport label -> (color, marker)
    "tile u=1": ("#9ecae1", "o"), "tile u=2": ("#4292c6", "o"),
    "tile u=4": ("#08519c", "o"), "tile u=8": ("#08306b", "s"),
    "tcp": ("#e6550d", "^"), "tcp-gdp": ("#fd8d3c", "v"),
    "raw u=4": ("#636363", "D"),
}


def plots(results: dict, outdir: Path) -> list[Path]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    outdir.mkdir(parents=True, exist_ok=True)
    runs = results["runs"]
    sizes = [s for s in SIZES if s[0] in results["sizes"]]
    units = results["units"]
    written = []
    stamp = (f"gst-bc transport benchmark, 127.0.0.1, "
             f"{results['date'][:10]}, {results['machine']['cpu_count']} "
             f"cores")

    def finish(fig, name, legend_ax=None):
        # legend_ax: a grid, and the legend to the right of the plot
        if legend_ax is not None:
            legend_ax.grid(True, which="both", alpha=0.3)
            legend_ax.legend(fontsize=7, loc="upper left",
                             bbox_to_anchor=(1.01, 1), borderaxespad=0)
        fig.text(0.99, 0.01, stamp, ha="right", va="bottom", fontsize=7,
                 color="grey")
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        p = outdir / name
        fig.savefig(p, dpi=110)
        plt.close(fig)
        written.append(p)

    def size_axis(ax):
        ax.set_xscale("log")
        ticks = [frame_bytes(s[1], s[2], s[3]) / 1e6 for s in sizes]
        ax.set_xticks(ticks)
        ax.set_xticklabels([f"{t:.3g} MB\n{s[0]}" for t, s in
                            zip(ticks, sizes)], fontsize=8)
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.set_xlabel("frame size")

    def series(kind, transport, u=None):
        xs, rs = [], []
        for s in sizes:
            r = pick(runs, kind, s[0], transport, u)
            if r:
                xs.append(r["frame_bytes"] / 1e6)
                rs.append(r)
        return xs, rs

    # latency vs frame size
    fig, ax = plt.subplots(figsize=(10, 5.2))
    lines = [(f"tile u={u}", "tile", u) for u in units] + \
        [("tcp", "tcp", None), ("tcp-gdp", "tcp-gdp", None),
         (f"raw u={KEY_UNITS}", "raw", KEY_UNITS)]
    for label, tr, u in lines:
        xs, rs = series("latency", tr, u)
        if not rs:
            continue
        c, m = STYLE.get(label, ("k", "o"))
        p50 = [lat(r)["p50"] for r in rs]
        lo = [lat(r)["p50"] - lat(r)["p5"] for r in rs]
        hi = [lat(r)["p95"] - lat(r)["p50"] for r in rs]
        ax.errorbar(xs, p50, yerr=[lo, hi], color=c, marker=m, capsize=3,
                    label=f"{label} (p50, bars p5-p95)")
        ax.plot(xs, [lat(r)["p99"] for r in rs], color=c, marker="x",
                linestyle=":", linewidth=0.8)
    ip = iperf(results, KEY_UNITS)
    if ip:
        xs = [frame_bytes(s[1], s[2], s[3]) / 1e6 for s in sizes]
        ax.plot(xs, [x * 8e6 / (ip * 1e9) * 1e3 for x in xs], "k--",
                linewidth=1,
                label=f"ideal: frame / iperf3 -P {KEY_UNITS} -w 16M "
                f"({ip:.1f} Gbit/s)")
    size_axis(ax)
    ax.set_yscale("log")
    ax.set_ylabel("delivery latency (ms), x = p99")
    ax.set_title("Delivery latency vs frame size (fixed frame rate)")
    finish(fig, "transport-latency-vs-size.png", legend_ax=ax)

    # latency vs units
    fig, ax = plt.subplots(figsize=(10, 5.2))
    colors = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a"]
    for (s, c) in zip(sizes, colors):
        us, rs = [], []
        for u in units:
            r = pick(runs, "latency", s[0], "tile", u)
            if r:
                us.append(u)
                rs.append(r)
        if not rs:
            continue
        ax.plot(us, [lat(r)["p50"] for r in rs], color=c, marker="o",
                label=f"{s[0]} p50")
        ax.plot(us, [lat(r)["p99"] for r in rs], color=c, marker="x",
                linestyle=":", label=f"{s[0]} p99")
        fb = frame_bytes(s[1], s[2], s[3])
        ideal = [fb * 8 / (iperf(results, u) * 1e9) * 1e3
                 if iperf(results, u) else None for u in us]
        if all(ideal):
            ax.plot(us, ideal, color=c, linestyle="--", linewidth=0.8,
                    label=f"{s[0]} ideal (iperf3 -P u -w 16M)")
    us, rs = [], []
    for u in units:
        r = pick(runs, "latency", KEY_SIZE, "raw", u)
        if r:
            us.append(u)
            rs.append(r)
    if rs:
        ax.plot(us, [lat(r)["p50"] for r in rs], color="#636363", marker="D",
                linewidth=0.9, label=f"{KEY_SIZE} plain sockets p50")
    ax.set_xscale("log", base=2)
    ax.set_xticks(units)
    ax.set_xticklabels([str(u) for u in units])
    ax.set_yscale("log")
    ax.set_xlabel("tilesink units (TCP connections and threads per end)")
    ax.set_ylabel("delivery latency (ms)")
    ax.set_title("tilesink -> tilesrc latency vs units (fixed frame rate)")
    finish(fig, "transport-latency-vs-units.png", legend_ax=ax)

    # latency and throughput vs chunk size
    key = next(s for s in SIZES if s[0] == KEY_SIZE)
    cs, lr, tr = [], [], []
    for c in results["chunks"]:
        tag = "" if c == DEFAULT_CHUNK else "chunk"
        lt = pick(runs, "latency", key[0], "tile", KEY_UNITS, c, tag)
        tt = pick(runs, "throughput", key[0], "tile", KEY_UNITS, c, tag)
        if lt or tt:
            cs.append(c)
            lr.append(lt)
            tr.append(tt)
    if cs:
        fig, ax = plt.subplots(figsize=(7.5, 5))
        xs = [c for c, r in zip(cs, lr) if r]
        ax.plot(xs, [lat(r)["p50"] for r in lr if r], "o-", color="#08519c",
                label="latency p50 (30 fps)")
        ax.plot(xs, [lat(r)["p99"] for r in lr if r], "x:", color="#08519c",
                label="latency p99 (30 fps)")
        ax.set_xscale("log", base=2)
        ax.set_xticks(cs)
        ax.set_xticklabels([f"{c // 1024} KiB" if c >= 4096 else f"{c} B"
                            for c in cs], fontsize=8)
        ax.set_xlabel("tilesink chunk-size (bytes per send())")
        ax.set_ylabel("delivery latency (ms)")
        ax2 = ax.twinx()
        xs = [c for c, r in zip(cs, tr) if r]
        ax2.plot(xs, [r["gbit_s"] for r in tr if r], "s--", color="#e6550d",
                 label="throughput (Gbit/s, flat out)")
        ax2.set_ylabel("throughput (Gbit/s)")
        ax2.set_ylim(bottom=0)
        ax.set_ylim(bottom=0)
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax.legend(h1 + h2, l1 + l2, fontsize=8, loc="lower center")
        ax.set_title(f"tilesink chunk-size, {KEY_SIZE}, {KEY_UNITS} units")
        ax.grid(True, which="both", alpha=0.3)
        finish(fig, "transport-latency-vs-chunk.png")

    # throughput vs frame size
    fig, ax = plt.subplots(figsize=(7.5, 5))
    for label, trn, u in lines:
        xs, rs = series("throughput", trn, u)
        if rs:
            c, m = STYLE.get(label, ("k", "o"))
            ax.plot(xs, [r["gbit_s"] for r in rs], color=c, marker=m,
                    label=label)
    for n, ls, c in zip(units, [":", "-.", "--", "-"],
                        ["#969696", "#737373", "#525252", "#bdbdbd"]):
        ip = iperf(results, n)
        if ip:
            ax.axhline(ip, color=c, linestyle=ls, linewidth=0.9,
                       label=f"iperf3 -P {n} -w 16M")
    size_axis(ax)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("throughput (Gbit/s)")
    ax.set_title("Throughput vs frame size (flat out, 4 frames in flight)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    finish(fig, "transport-throughput-vs-size.png")

    u = (results.get("analysis") or {}).get("udp") or {}
    if u.get("matrix"):
        udp_plots(results, u, plt, finish)
    return written


UNIT_COLORS = {1: "#9ecae1", 2: "#4292c6", 4: "#08519c"}


def udp_plots(results, u, plt, finish):
    import matplotlib.ticker
    runs = results["runs"]
    sizes = u["sizes"]

    def cell(name, p, g, n):
        return next((e for e in u["matrix"] if e["size"] == name and
                     e["packet"] == p and e["gso"] == g and
                     e["units"] == n), None)

    def packet_axis(ax):
        ax.set_xscale("log")
        ax.set_xticks(UDP_PACKETS)
        ax.set_xticklabels([f"{p}\n({p + UDP_HEADER} B datagram)"
                            for p in UDP_PACKETS], fontsize=8)
        ax.minorticks_off()
        ax.set_xlabel("tilesink packet-size (payload bytes per datagram)")

    # throughput vs packet size, with and without GSO
    fig, axes = plt.subplots(1, len(sizes), figsize=(6 * len(sizes), 5.2),
                             squeeze=False)
    for ax, name in zip(axes[0], sizes):
        for n in UDP_UNITS:
            for g, ls, mk in (("auto", "-", "o"), ("off", "--", "s")):
                xs, ys = [], []
                for p in UDP_PACKETS:
                    e = cell(name, p, g, n)
                    if e and e["gbit_s_good"] is not None:
                        xs.append(p)
                        ys.append(e["gbit_s_good"])
                if xs:
                    ax.plot(xs, ys, linestyle=ls, marker=mk,
                            color=UNIT_COLORS.get(n, "k"),
                            label=f"tile udp u={n} "
                            f"{'GSO/GRO' if g == 'auto' else 'no GSO'}")
        xs, ys, ss = [], [], []
        for p in UDP_PACKETS:
            ip = iperf_udp(results, IPERF_UDP[p])
            if ip:
                xs.append(p)
                ys.append(ip["gbit_s"])
                ss.append(ip["gbit_s_sent"])
        if xs:
            ax.plot(xs, ys, "k-", marker="D", linewidth=1.2,
                    label="iperf3 -u -b 0 received")
            ax.plot(xs, ss, "k:", marker="d", linewidth=0.8,
                    label="iperf3 -u -b 0 sent")
        t = pick(runs, "throughput", name, "tile", KEY_UNITS)
        if t:
            ax.axhline(t["gbit_s"], color="#e6550d", linewidth=0.9,
                       label=f"tile TCP u={KEY_UNITS}")
        r = pick_rtp(runs, "throughput", name, buffer_label(BUFFER))
        if r:
            ax.axhline(good_rate(r), color="#31a354", linestyle="-.",
                       linewidth=0.9,
                       label=f"rtpvrawpay ({BUFFER >> 20} MiB buffers)")
        packet_axis(ax)
        ax.set_ylim(bottom=0)
        ax.set_ylabel("Gbit/s delivered (flat out, 4 frames in flight)")
        ax.set_title(f"{name}: tilesink/tilesrc protocol=udp")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=1)
    finish(fig, "transport-udp-throughput-vs-packet.png")

    # latency vs packet size
    fig, ax = plt.subplots(figsize=(9, 5.2))
    for n in UDP_UNITS:
        for g, ls, mk in (("auto", "-", "o"), ("off", "--", "s")):
            xs, p50, p99 = [], [], []
            for p in UDP_PACKETS:
                e = cell(KEY_SIZE, p, g, n)
                if e and e.get("latency"):
                    xs.append(p)
                    p50.append(e["latency"]["p50"])
                    p99.append(e["latency"]["p99"])
            if xs:
                c = UNIT_COLORS.get(n, "k")
                ax.plot(xs, p50, linestyle=ls, marker=mk, color=c,
                        label=f"u={n} {'GSO/GRO' if g == 'auto' else 'no GSO'}"
                        " p50")
                ax.plot(xs, p99, linestyle="none", marker="x", color=c)
    for n, ls in zip(UDP_UNITS, [":", "-.", "-"]):
        lt = lat(pick(runs, "latency", KEY_SIZE, "tile", n))
        if lt:
            ax.axhline(lt["p50"], color="#e6550d", linestyle=ls,
                       linewidth=0.9, label=f"TCP u={n} p50")
    packet_axis(ax)
    ax.set_yscale("log")
    plain = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}")
    ax.yaxis.set_major_formatter(plain)
    ax.yaxis.set_minor_formatter(plain)
    ax.set_ylabel("delivery latency (ms), x = p99")
    ax.set_title(f"{KEY_SIZE} at {UDP_LAT[KEY_SIZE][0]} frames/s: "
                 "tilesink/tilesrc protocol=udp")
    finish(fig, "transport-udp-latency-vs-packet.png", legend_ax=ax)


# --------------------------------------------------------------------------
# report


def fmt(v, spec=".2f", none="-"):
    return none if v is None else format(v, spec)


def units_str(u):
    return f"{u} unit" + ("s" if u != 1 else "")


def mark(ok):
    return "-" if ok is None else ("yes" if ok else "**no**")


def markdown(results: dict, figs: list[str]) -> str:
    runs = results["runs"]
    a = results["analysis"]
    m = results["machine"]
    jit = results.get("wakeup_jitter_ms") or {}
    ip0 = results["iperf3"][0] if results.get("iperf3") else {}
    L = [MARK_BEGIN, "",
         "## Transport: tilesink/tilesrc vs TCP and UDP (127.0.0.1)", ""]
    L.append(
        f"Measured {results['date']} on {m['cpu']} ({m['cpu_count']} cores), "
        f"Linux {m['kernel']}, GStreamer {m['gstreamer']}, {m['iperf3']}, "
        f"gst-bc {results['git']}; {results['seconds']:.0f} s for the whole "
        f"run (`{results['command']}`). The sender and the receiver run on "
        "the same machine, so each transport's two ends share its cores: "
        "loopback numbers say how much CPU a byte costs, not what a wire "
        "would carry. Other processes used "
        f"{results['other_cpu_cores_median']:.2f} cores (median over the "
        f"runs, max {results['other_cpu_cores_max']:.2f}) while this ran; "
        "latency figures are one run each, so differences of 10-20 % are "
        "within the noise. This is a virtual machine: the hypervisor took "
        f"{results.get('steal_cores_median', 0):.2f} cores (steal time, "
        "median over the runs), and a thread sleeping 20 ms woke up "
        f"{jit.get('p50', 0):.2f} / {jit.get('p99', 0):.2f} / "
        f"{jit.get('max', 0):.2f} ms late (p50 / p99 / max, measured "
        "before the runs): latency tails of a few ms are the machine's.")
    L.append("")
    L.append(
        "Method: `benchmarks/transport/bc-transport-bench` runs the sender "
        "pipeline and the receiver pipeline in one process. Frames are "
        "pseudo-random bytes; before each push the sender writes its "
        "CLOCK_REALTIME into the frame's first bytes (and the frame number "
        "every 64 KiB, all checked at the receiver), and the appsink "
        "callback subtracts it from CLOCK_REALTIME at delivery: the same "
        "in-band measurement for every transport. *Throughput*: frames "
        "pushed as fast as a window of 4 undelivered frames allows, "
        "frames/s between the first and the last delivery, "
        f"{results.get('throughput_seconds', '?')} s per run"
        + (f", the best of {results['passes']} passes made one after the "
           f"other (iperf3 the same way: -t {ip0.get('seconds')} after -O "
           f"{ip0.get('omit')})" if results.get("passes", 1) > 1 else
           f" (iperf3: -t {ip0.get('seconds')} after -O {ip0.get('omit')})")
        + ". *Latency*: "
        "frames pushed at a fixed rate (" + ", ".join(
            f"{x[0]} {x[4]:g}/s" for x in SIZES if x[0] in results["sizes"])
        + ": below every TCP transport's capacity), "
        "percentiles by nearest rank. tcpserversink/tcpclientsrc: "
        "`appsrc ! tcpserversink` / `tcpclientsrc ! rawvideoparse ! "
        "appsink`, rawvideoparse cutting the byte stream into frames of "
        "the known size (for BC1: GRAY8 of width x height/2, the same "
        "byte count); *tcp-gdp* is `gdppay`/`gdpdepay` instead. tilesink: "
        f"send-buffer-size and tilesrc receive-buffer-size {BUFFER >> 20} "
        "MiB (granted: "
        f"{results['granted']}), chunk-size 1 MiB, max-in-flight 6 "
        "(window + 2, see below). *Plain sockets*: the same frames over "
        "N blocking TCP connections with a thread per connection at each "
        "end, send() of 1 MiB and recv() straight into the frame, the same "
        "16 MiB buffers, no GStreamer: what this loopback and scheduler "
        "allow, measured the same way. net.core.rmem_max/wmem_max were "
        f"{results['sysctl']} for the run so that `iperf3 -w 16M` gets the "
        "same buffers; the default-buffer iperf3 runs use the kernel's "
        "autotuning.")
    L.append("")

    # throughput table
    L += ["### Throughput (Gbit/s, frames/s)", ""]
    hdr = "| transport |" + "".join(f" {s} |" for s in results["sizes"])
    L += [hdr, "|---|" + "---|" * len(results["sizes"])]
    rows = [(f"tilesink/tilesrc, {units_str(u)}", "tile", u)
            for u in results["units"]]
    rows += [("tcpserversink/tcpclientsrc + rawvideoparse", "tcp", None),
             ("tcpserversink/tcpclientsrc + gdppay/gdpdepay", "tcp-gdp",
              None),
             (f"plain sockets, {KEY_UNITS} connections (no GStreamer)", "raw",
              KEY_UNITS)]
    for label, tr, u in rows:
        cells = []
        for s in results["sizes"]:
            r = pick(runs, "throughput", s, tr, u)
            cells.append(f"{fmt(r['gbit_s'], '.1f')} ({fmt(r['fps'], '.0f')}"
                         "/s)" if r else "-")
        L.append(f"| {label} | " + " | ".join(cells) + " |")
    L.append("")
    ipl = []
    for n in results["units"]:
        ipl.append(f"-P {n}: {fmt(iperf(results, n, 'default'), '.1f')} / "
                   f"{fmt(iperf(results, n, '16M'), '.1f')}")
    L.append("iperf3 -c 127.0.0.1 (Gbit/s, default buffers / -w 16M): " +
             "; ".join(ipl) + ".")
    L.append("")
    diffs = []
    for name in results["sizes"]:
        for label, tr, u in rows:
            v = spread(runs, "throughput", name, tr, u)
            if len(v) > 1 and max(v) > 0:
                diffs.append((max(v) - min(v)) / max(v) * 100)
    if diffs:
        diffs.sort()
        L.append(f"The passes of a configuration differed by "
                 f"{diffs[len(diffs) // 2]:.0f} % (median) and up to "
                 f"{diffs[-1]:.0f} %: the machine's noise (a VM sharing its "
                 "last-level cache and memory bandwidth with others; copies "
                 "of frames that do not fit in cache are what a loopback "
                 "transfer costs).")
        L.append("")

    # bars
    L += ["### The project's bars", "",
          "| bar | measured | met |", "|---|---|---|"]
    for e in a["throughput_vs_iperf3"]:
        ok = e["ratio_16M"] >= 0.9 if e["ratio_16M"] else None
        L.append(f"| {e['size']}, {units_str(e['units'])}: >= 0.9x iperf3 -P "
                 f"{e['units']} -w 16M | {fmt(e['tile'], '.1f')} vs "
                 f"{fmt(e['iperf3_16M'], '.1f')} Gbit/s = "
                 f"{fmt(e['ratio_16M'])}x (vs default buffers "
                 f"{fmt(e['ratio_default'])}x) | {mark(ok)} |")
    for e in a["throughput_vs_tcp"]:
        ok = e["ratio"] >= 3 if e["ratio"] else None
        L.append(f"| {e['size']}, {units_str(e['units'])}: >= 3x "
                 f"tcpserversink | {fmt(e['tile'], '.1f')} vs "
                 f"{fmt(e['tcp'], '.1f')} Gbit/s = {fmt(e['ratio'], '.1f')}x"
                 f" (vs gdp {fmt(e['ratio_gdp'], '.1f')}x) | {mark(ok)} |")
    for e in a["latency_vs_ideal"]:
        if e["size"] != KEY_SIZE:
            continue
        L.append(f"| {KEY_SIZE} latency, {units_str(e['units'])}: p50 <= 1.3x, "
                 f"p99 <= 2x ideal ({fmt(e['ideal_ms'])} ms) | p50 "
                 f"{fmt(e['p50'])} ms = {fmt(e['p50_ratio'])}x, p99 "
                 f"{fmt(e['p99'])} ms = {fmt(e['p99_ratio'])}x | "
                 f"{mark(e['p50_ratio'] <= 1.3)} / "
                 f"{mark(e['p99_ratio'] <= 2.0)} |")
    L.append("")
    L.append(
        "Ideal latency = frame bits / iperf3 rate with the same number of "
        "streams and -w 16M, i.e. the time the bytes alone take on this "
        "loopback.")
    L.append("")

    # latency table
    nf = " / ".join(str(s[5]) for s in SIZES if s[0] in results["sizes"])
    L += ["### Delivery latency (ms, p5 / p50 / p95 / p99)", "",
          f"Frames per run: {nf} (with 60 frames or fewer p99 is the "
          "maximum or next to it).", ""]
    L += [hdr, "|---|" + "---|" * len(results["sizes"])]
    for label, tr, u in rows:
        cells = []
        for s in results["sizes"]:
            lr = lat(pick(runs, "latency", s, tr, u))
            cells.append(" / ".join(fmt(lr[k]) for k in
                                    ("p5", "p50", "p95", "p99"))
                         if lr else "-")
        L.append(f"| {label} | " + " | ".join(cells) + " |")
    ideal_cells = []
    for s in results["sizes"]:
        e = next((x for x in a["ideal"] if x["size"] == s
                  and x["units"] == KEY_UNITS), None)
        ideal_cells.append(fmt(e and e["ideal_ms"]))
    L.append(f"| ideal ({KEY_UNITS} streams, -w 16M) | " +
             " | ".join(ideal_cells) + " |")
    L.append("")
    meta = lat(pick(runs, "latency", KEY_SIZE, "tile", KEY_UNITS), "meta")
    inb = lat(pick(runs, "latency", KEY_SIZE, "tile", KEY_UNITS))
    if meta and inb:
        L.append(
            f"tilesrc's own timestamp (GstReferenceTimestampMeta, taken when "
            f"tilesink got the frame) gives {fmt(meta['p50'])} / "
            f"{fmt(meta['p99'])} ms (p50 / p99) for {KEY_SIZE} at "
            f"{KEY_UNITS} units, against {fmt(inb['p50'])} / "
            f"{fmt(inb['p99'])} ms in-band: the difference is appsrc "
            "handing the buffer to tilesink.")
        L.append("")

    # against plain sockets
    raws = [u for u in results["units"]
            if pick(runs, "latency", KEY_SIZE, "raw", u)
            or pick(runs, "throughput", KEY_SIZE, "raw", u)]
    if raws:
        L += [f"### tilesink/tilesrc against plain sockets ({KEY_SIZE})", "",
              "| units | Gbit/s tile / sockets | latency p50 tile / sockets "
              "(ms) | p99 tile / sockets (ms) |", "|---|---|---|---|"]
        for u in raws:
            tt = pick(runs, "throughput", KEY_SIZE, "tile", u)
            rt = pick(runs, "throughput", KEY_SIZE, "raw", u)
            tl = lat(pick(runs, "latency", KEY_SIZE, "tile", u))
            rl = lat(pick(runs, "latency", KEY_SIZE, "raw", u))
            L.append(
                f"| {u} | {fmt(tt and tt['gbit_s'], '.1f')} / "
                f"{fmt(rt and rt['gbit_s'], '.1f')} | "
                f"{fmt(tl and tl['p50'])} / {fmt(rl and rl['p50'])} | "
                f"{fmt(tl and tl['p99'])} / {fmt(rl and rl['p99'])} |")
        L.append("")
        L.append(
            "Where tilesink/tilesrc is as fast as plain sockets with the same "
            "connections, a gap to iperf3 is not the elements': iperf3 "
            "sends one 128 KiB buffer over and over, which stays in the CPU "
            "cache, while a frame transport reads and writes every byte of "
            "frames that do not fit in it.")
        L.append("")

    # chunk
    L += [f"### tilesink chunk-size ({KEY_SIZE}, {KEY_UNITS} units)", "",
          "| chunk-size | Gbit/s | latency p50 (ms) | p99 (ms) | "
          "tilesink-unit CPU per GB sent (ms) |", "|---|---|---|---|---|"]
    for c in results["chunks"]:
        tag = "" if c == DEFAULT_CHUNK else "chunk"
        t = pick(runs, "throughput", KEY_SIZE, "tile", KEY_UNITS, c, tag)
        lr = pick(runs, "latency", KEY_SIZE, "tile", KEY_UNITS, c, tag)
        cpu = None
        if t and t.get("seconds") and t.get("gbit_s_e2e"):
            gb = t["gbit_s_e2e"] * t["seconds"] / 8
            cpu = (t.get("thread_cpu_seconds") or {}).get(
                "tilesink-unit", 0) / gb * 1e3
        L.append(f"| {c} | {fmt(t and t['gbit_s'], '.1f')} | "
                 f"{fmt(lat(lr) and lat(lr)['p50'])} | "
                 f"{fmt(lat(lr) and lat(lr)['p99'])} | {fmt(cpu, '.0f')} |")
    L.append("")

    # flush
    L += [f"### tilesrc flush ({KEY_SIZE}, {KEY_UNITS} units, 30 frames/s)",
          "", "| downstream pool | flush | frame delivered p50 / p99 | "
          "first tile ready p50 / p99 | last tile ready p50 | "
          "tiles reported |", "|---|---|---|---|---|---|"]
    for pool in (False, True):
        for flush in ("stepped", "frame"):
            tag = "" if (not pool and flush == "stepped") else "flush"
            r = pick(runs, "latency", KEY_SIZE, "tile", KEY_UNITS,
                     DEFAULT_CHUNK, tag, flush, pool)
            if not r:
                continue
            d, ft, lt = lat(r), lat(r, "first_tile"), lat(r, "last_tile")
            L.append(
                f"| {'with GstBcTileMeta' if pool else 'none (own pool)'} | "
                f"{flush} | {fmt(d['p50'])} / {fmt(d['p99'])} | "
                f"{fmt(ft and ft['p50'])} / {fmt(ft and ft['p99'])} | "
                f"{fmt(lt and lt['p50'])} | {r.get('tiles_stepped')} |")
    L.append("")
    L.append(
        "The pool with GstBcTileMeta is the benchmark's own (a "
        "GstBufferPool subclass offered from the appsink's ALLOCATION "
        "query); its callback notes CLOCK_REALTIME per tile. *First tile "
        "ready* is what a stepped consumer (e.g. an uploader) could start "
        "on; without such a pool, or with stepped=false, nothing is "
        "reported before the whole frame is pushed.")
    L.append("")

    d = pick(runs, "throughput", KEY_SIZE, "tile", KEY_UNITS,
             tag="max-in-flight=1")
    if d:
        L.append(
            f"With tilesink's default max-in-flight=1 and a sender that "
            f"pushes frame n only once frame n-1 has been delivered (one "
            f"frame at a time: the latency-bound case), "
            f"{fmt(d['gbit_s'], '.1f')} Gbit/s; tilesink dropped "
            f"{d.get('frames_dropped')} of {d.get('pushed')} frames (a "
            "frame is released only after its last unit thread, back from "
            "send(), has taken the element's lock again, twice; on 2 busy "
            "cores that can come after the delivery, and the next frame "
            "finds the previous one still in flight). The other throughput "
            "runs use max-in-flight = window + 2, so that only the "
            "transport limits them.")
        L.append("")

    L += markdown_udp(results)
    L += markdown_passphrase(results)

    if figs:
        L += ["### Figures", ""]
        for f in figs:
            L.append(f"![{Path(f).stem}]({f})")
        L.append("")
    L.append(f"Every measurement, with the commands: "
             f"`benchmarks/transport/results.json`.")
    L += ["", MARK_END]
    return "\n".join(L) + "\n"


def pct(v, spec=".2f"):
    return "-" if v is None else format(v * 100, spec) + " %"


def loss_note(lo):
    """" (x % lost)" when a run lost anything."""
    if not lo:
        return ""
    if lo.get("stalled"):
        return f" (stalled after {lo.get('frames')} frames)"
    bits = []
    if lo.get("lost_fraction"):
        bits.append(f"{pct(lo['lost_fraction'], '.2g')} of bytes lost")
    if lo.get("frames_lost"):
        bits.append(f"{lo['frames_lost']} frame"
                    f"{'s' if lo['frames_lost'] != 1 else ''} lost")
    if lo.get("frames_damaged"):
        bits.append(f"{lo['frames_damaged']} damaged")
    return f" ({', '.join(bits)})" if bits else ""


def markdown_udp(results: dict) -> list[str]:
    u = results["analysis"].get("udp") or {}
    if not u.get("matrix"):
        return []
    runs = results["runs"]
    sizes = u["sizes"]
    L = ["### UDP: tilesink/tilesrc protocol=udp, rtpvrawpay, iperf3 -u", ""]
    L.append(
        "tilesink `protocol=udp packet-size=P gso=auto|off` and tilesrc "
        "`gso=auto|off` (the same at both ends: `auto` sends with "
        "`UDP_SEGMENT` and receives with `UDP_GRO` when the kernel has "
        "them, and the kernel here has them; `off` sends and receives one "
        f"datagram per message), datagrams of P + {UDP_HEADER} bytes, send "
        f"and receive buffers {BUFFER >> 20} MiB, the same frames, window "
        "and in-band measurement as above. A frame that tilesrc pushes with "
        "gaps is flagged `GST_BUFFER_FLAG_CORRUPTED` with a "
        "`GstBcLossMeta`: the driver counts those frames and their lost "
        "bytes and checks every stamp outside the lost ranges (a wrong one "
        "would be *damaged*); a frame never pushed is *lost*. Gbit/s here "
        "are frames delivered less the bytes lost. Two unmeasured frames "
        "follow the measured ones (rtpvrawdepay completes an incomplete "
        "frame only once a newer one has started; tilesrc when its timer, "
        "started by the frame's own first datagram, fires). Kernel drops: "
        "tilesrc's "
        "`kernel-drops` (`SO_RXQ_OVFL`) and `RcvbufErrors` of "
        "/proc/net/snmp (the whole machine) over the measurement. "
        "*rtpvrawpay*: `appsrc ! rtpvrawpay mtu="
        f"{RTP_MTU} ! udpsink` / `udpsrc caps=\"application/x-rtp, "
        "encoding-name=RAW, sampling=YCbCr-4:2:2, ...\" ! rtpvrawdepay ! "
        "appsink`, RFC 4175 with the frames sent as UYVY of width/2 x "
        "height/2 (2 bytes a pixel: the byte count of the BC1 frame; "
        "2160p BC1 goes as 1920x1080 UYVY), datagrams of "
        f"{RTP_MTU} bytes like tilesink's default, `buffer-size` left at "
        f"the default (0) or {BUFFER >> 20} MiB at both ends; RTP packets "
        "lost are the gaps in the sequence numbers at udpsrc; "
        "rtpvrawdepay flags nothing, so a damaged frame shows only in the "
        "stamps, and its rate counts intact frames only. *iperf3*: "
        f"`iperf3 -u -b 0 -l D -w 16M` with D = P + {UDP_HEADER} (one "
        "thread, one datagram per send() and recv()); its rate is what "
        "arrived (sent "
        "less its lost datagrams: at -b 0 iperf3's own receiver falls "
        "behind).")
    L.append("")

    # throughput table
    hdr = "| packet-size (datagram), GSO/GRO |"
    sep = "|---|"
    for name in sizes:
        for n in UDP_UNITS:
            hdr += f" {name}, {units_str(n)} |"
            sep += "---|"
    hdr += " iperf3 -u -l datagram (sent, lost) |"
    sep += "---|"
    L += ["#### Throughput (Gbit/s delivered, loss when any)", "", hdr, sep]

    def cell(name, p, g, n):
        return next((e for e in u["matrix"] if e["size"] == name and
                     e["packet"] == p and e["gso"] == g and
                     e["units"] == n), None)
    for p in UDP_PACKETS:
        for g in UDP_GSO:
            row = f"| {p} ({p + UDP_HEADER}), {'on' if g == 'auto' else 'off'} |"
            any_cell = False
            for name in sizes:
                for n in UDP_UNITS:
                    e = cell(name, p, g, n)
                    if e and e["gbit_s_good"] is not None:
                        any_cell = True
                        row += (f" {fmt(e['gbit_s_good'], '.1f')}"
                                f"{loss_note(e.get('loss'))} |")
                    else:
                        row += " - |"
            ip = iperf_udp(results, IPERF_UDP[p])
            row += (f" {fmt(ip and ip['gbit_s'], '.1f')} ("
                    f"{fmt(ip and ip['gbit_s_sent'], '.1f')}, "
                    f"{fmt(ip and ip['lost_percent'], '.1f')} %) |"
                    if g == "auto" else " |")
            if any_cell:
                L.append(row)
    L.append("")
    tcp = [pick(runs, "throughput", name, "tile", n) for name in sizes
           for n in UDP_UNITS]
    L.append("For comparison, tilesink/tilesrc over TCP in this run: " +
             "; ".join(f"{name} {units_str(n)} "
                       f"{fmt((pick(runs, 'throughput', name, 'tile', n) or {}).get('gbit_s'), '.1f')}"
                       for name in sizes for n in UDP_UNITS
                       if pick(runs, "throughput", name, "tile", n))
             + " Gbit/s." if any(tcp) else "")
    L.append("")

    # CPU per GB
    rows = []
    for p in UDP_PACKETS:
        for g in UDP_GSO:
            e = cell(KEY_SIZE, p, g, KEY_UNITS)
            if not e or not e.get("cpu") or not e.get("gbit_s_good"):
                continue
            if (e.get("loss") or {}).get("stalled"):
                rows.append(f"| {p}, {'on' if g == 'auto' else 'off'} | "
                            "stalled | - | - | - |")
                continue
            gb = e["gbit_s_good"] * (e.get("seconds") or 0) / 8
            if gb <= 0:
                continue
            c = e["cpu"]
            rows.append(
                f"| {p}, {'on' if g == 'auto' else 'off'} | "
                f"{fmt(e['gbit_s_good'], '.1f')} | "
                f"{fmt(c.get('tilesink-unit', 0) / gb * 1e3, '.0f')} | "
                f"{fmt(c.get('tilesrc-unit', 0) / gb * 1e3, '.0f')} | "
                f"{fmt(sum(c.values()) / (e.get('seconds') or 1), '.2f')} |")
    if rows:
        L += [f"CPU time of the threads per GB delivered ({KEY_SIZE}, "
              f"{units_str(KEY_UNITS)}, throughput runs; with the loopback "
              "the kernel's receive work runs mostly on the sending "
              "thread):", "",
              "| packet-size, GSO/GRO | Gbit/s | tilesink-unit threads (ms/GB)"
              " | tilesrc-unit threads (ms/GB) | process CPU (cores) |",
              "|---|---|---|---|---|"] + rows + [""]

    # rtp
    if u.get("rtp"):
        L += ["#### rtpvrawpay / rtpvrawdepay", "",
              "| frames | buffer-size | Gbit/s delivered / intact | RTP "
              "packets lost | frames damaged / delivered | RcvbufErrors | "
              "latency p50 / p99 (ms, fps) |", "|---|---|---|---|---|---|---|"]
        for e in u["rtp"]:
            lo = e.get("loss") or {}
            got = (lo.get("packets_received") or 0) + (lo.get("packets_lost")
                                                        or 0)
            pl = (f"{lo.get('packets_lost')} of {got} "
                  f"({pct((lo.get('packets_lost') or 0) / got, '.1f')})"
                  if got else "-")
            lt = e.get("latency")
            L.append(
                f"| {e['size']} as {e.get('caps', '').split(',', 1)[-1]} | "
                f"{e['buffers']} | {fmt(e['gbit_s'], '.2f')} / "
                f"{fmt(e['good'], '.2f')} | {pl} | "
                f"{lo.get('frames_damaged', '-')} / {lo.get('frames', '-')} | "
                f"{lo.get('rcvbuf_errors', '-')} | "
                + (f"{fmt(lt['p50'])} / {fmt(lt['p99'])} ({e['latency_rate']:g})"
                   if lt else "-") + " |")
        L.append("")

    # latency
    others = [n for n in sizes if n != KEY_SIZE]
    L += ["#### Delivery latency (ms, p50 / p99)", "",
          "Fixed rates: " + ", ".join(
              f"{n} {UDP_LAT[n][0]} frames/s, {UDP_LAT[n][1]} frames"
              for n in sizes)
          + (f" ({', '.join(others)}: {units_str(KEY_UNITS)} only)"
             if others else "") + ".", ""]
    hdr = "| packet-size, GSO/GRO |" + "".join(
        f" {KEY_SIZE}, {units_str(n)} |" for n in UDP_UNITS)
    sep = "|---|" + "---|" * len(UDP_UNITS)
    for n in others:
        hdr += f" {n}, {units_str(KEY_UNITS)} |"
        sep += "---|"
    L += [hdr, sep]
    for p in UDP_PACKETS:
        for g in UDP_GSO:
            row = f"| {p}, {'on' if g == 'auto' else 'off'} |"
            for n in UDP_UNITS:
                e = cell(KEY_SIZE, p, g, n)
                lt = e and e.get("latency")
                row += (f" {fmt(lt['p50'])} / {fmt(lt['p99'])}"
                        f"{loss_note(e.get('latency_loss'))} |" if lt
                        else " - |")
            for name in others:
                e = cell(name, p, g, KEY_UNITS)
                lt = e and e.get("latency")
                row += (f" {fmt(lt['p50'])} / {fmt(lt['p99'])}"
                        f"{loss_note(e.get('latency_loss'))} |" if lt
                        else " - |")
            if row.count(" - |") < len(UDP_UNITS) + len(others):
                L.append(row)
    row = "| TCP (tilesink/tilesrc, this run) |"
    for n in UDP_UNITS:
        lt = lat(pick(runs, "latency", KEY_SIZE, "tile", n))
        row += f" {fmt(lt and lt['p50'])} / {fmt(lt and lt['p99'])} |"
    for name in others:
        lt = lat(pick(runs, "latency", name, "tile", KEY_UNITS))
        row += f" {fmt(lt and lt['p50'])} / {fmt(lt and lt['p99'])} |"
    L += [row, ""]

    # bars
    b = u["bars"]
    L += ["#### The UDP bars", "", "| bar | measured | met |",
          "|---|---|---|"]
    for e in b["gso_vs_iperf3_65000"]:
        ok = e["ratio"] >= 0.7 if e["ratio"] is not None else None
        L.append(
            f"| {e['size']}, {units_str(e['units'])}: packet-size "
            f"{UDP_DEFAULT} with GSO/GRO >= 0.7x iperf3 -u -l "
            f"{IPERF_UDP[65000]} | {fmt(e['tile'], '.1f')}"
            f"{' (until it stalled)' if e.get('stalled') else ''} vs "
            f"{fmt(e['iperf3'], '.1f')} Gbit/s = {fmt(e['ratio'])}x"
            f"{'' if e.get('gso_used') else ' (GSO not in use!)'} | "
            f"{mark(ok)} |")
    for e in b["gso_vs_rtp"]:
        ok = e["ratio"] >= 10 if e["ratio"] is not None else None
        L.append(
            f"| {e['size']}, {units_str(e['units'])}: packet-size "
            f"{UDP_DEFAULT} with GSO/GRO >= 10x rtpvrawpay | "
            f"{fmt(e['tile'], '.1f')}"
            f"{' (until it stalled)' if e.get('stalled') else ''} vs "
            f"{fmt(e['rtp'], '.2f')} Gbit/s "
            f"({BUFFER >> 20} MiB buffers) = {fmt(e['ratio'], '.1f')}x"
            + ((f" (vs default buffers, intact frames only: "
                f"{fmt(e['rtp_default'], '.2f')} Gbit/s, "
                f"{fmt(ratio(e['tile'], e['rtp_default']), '.1f')}x)"
                if e.get("rtp_default") else
                f" (with default buffers rtpvrawpay delivered "
                f"{fmt(e['rtp_default_raw'], '.2f')} Gbit/s of frames, none "
                "intact)")
               if e.get("rtp_default_raw") is not None else "")
            + f" | {mark(ok)} |")
    for e in b["nogso_vs_iperf3"]:
        cells, oks = [], []
        for n, v in sorted(e["units"].items()):
            cells.append(f"{n}: {fmt(v['tile'], '.1f')} = "
                         f"{fmt(v['ratio'])}x"
                         f"{' (until it stalled)' if v.get('stalled') else ''}")
            oks.append(v["ratio"] >= 0.9 if v["ratio"] is not None
                       else None)
        L.append(
            f"| {e['size']}, packet-size {e['packet']} without GSO >= 0.9x "
            f"iperf3 -u -l {e['datagram']} ({fmt(e['iperf3'], '.1f')} "
            f"Gbit/s) | units {'; '.join(cells)} | "
            f"{' / '.join(mark(o) for o in oks)} |")
    lo = u["loss"].get("tile_udp") or {}
    if lo:
        ok = (lo.get("packets_lost", 0) == 0 and lo.get("kernel_drops", 0)
              == 0 and lo.get("frames_lost", 0) == 0)
        L.append(
            f"| no loss on loopback at full rate, {BUFFER >> 20} MiB socket "
            f"buffers (all {lo.get('runs')} tile UDP runs, throughput and "
            f"latency) | {lo.get('frames_partial', 0)} frames pushed with "
            f"gaps ({lo.get('frames_timer', 0)} by their timer), "
            f"{lo.get('frames_lost', 0)} frames never delivered, "
            f"{lo.get('packets_lost', 0)} datagrams missing of "
            f"{lo.get('packets_received', 0) + lo.get('packets_lost', 0)}, "
            f"{lo.get('packets_late', 0)} late; kernel drops "
            f"{lo.get('kernel_drops', 0)}, RcvbufErrors "
            f"{lo.get('rcvbuf_errors', 0)}"
            + (f"; {lo['stalled']} runs stalled" if lo.get("stalled")
               else "") + f" | {mark(ok)} |")
    for e in b["latency_vs_tcp"]:
        if e["packet"] != UDP_DEFAULT or e["gso"] != "auto":
            continue
        L.append(
            f"| {KEY_SIZE} latency, {units_str(e['units'])}: p50 with "
            f"packet-size {UDP_DEFAULT}, GSO/GRO <= 1.3x TCP's | "
            f"{fmt(e['udp_p50'])} vs {fmt(e['tcp_p50'])} ms = "
            f"{fmt(e['ratio'])}x (p99 {fmt(e['udp_p99'])} vs "
            f"{fmt(e['tcp_p99'])}) | {mark(e['ratio'] <= 1.3)} |")
    L.append("")
    if b["latency_vs_tcp"]:
        L.append(
            "Latency p50 against TCP for every packet size (UDP / TCP): " +
            "; ".join(f"{e['packet']} {'GSO' if e['gso'] == 'auto' else 'no GSO'}"
                      f" u={e['units']}: {fmt(e['ratio'])}x"
                      for e in b["latency_vs_tcp"]) + ".")
        L.append("")

    # loss detail
    pr = [e for e in u["loss"].get("runs_with_partial_frames") or []
          if not e.get("stalled")]
    if pr:
        L += ["Runs with frames pushed with gaps or never delivered (*late*: "
              "datagrams that came after their frame had been pushed by its "
              "timer; *in flight*: the frames in flight x the tile, what "
              "the sender may queue for one socket, against the receive "
              "buffer granted):", "",
              "| run | frames with gaps (timer) / delivered | never "
              "delivered | datagrams missing / late | kernel drops | "
              "RcvbufErrors | in flight / granted (MB) |",
              "|---|---|---|---|---|---|---|"]
        for e in pr:
            L.append(
                f"| {run_label(e)} | "
                f"{fmt(e.get('frames_partial'), 'd')} "
                f"({fmt(e.get('frames_timer'), 'd')}) / {e.get('frames')} | "
                f"{e.get('frames_lost')} | {fmt(e.get('packets_lost'), 'd')}"
                f" / {fmt(e.get('packets_late'), 'd')} | "
                f"{fmt(e.get('kernel_drops'), 'd')} | "
                f"{e.get('rcvbuf_errors')} | "
                f"{fmt((e.get('window') or 0) * e['tile_mb'], '.1f')} / "
                f"{fmt(e['rcvbuf_granted_mb'], '.1f')} |")
        L.append("")
    L += udp_findings(u)
    st = u["loss"].get("stalled_runs") or []
    if st:
        L += ["Stalled runs (a frame neither delivered nor passed by a newer "
              "one for the driver's timeout; the run ends there):", "",
              "| run | frames delivered before | thread CPU over the run "
              "(s) |", "|---|---|---|"]
        for e in st:
            cpu = e.get("thread_cpu_seconds") or {}
            r = e.get("stall") or ""
            L.append(
                f"| {run_label(e)}"
                f" | {r.split(' ')[1] if r.startswith('frame ') else '?'} | "
                + ", ".join(f"{k} {v:.2f}" for k, v in cpu.items()
                            if v >= 0.05)
                + f" of {fmt(e.get('seconds'), '.1f')} |")
        L.append("")

    # paced
    for e in u.get("paced") or []:
        lo = e["loss"]
        lt = e.get("latency")
        L.append(
            f"Paced ({e['kind']}): tilesink pacing-bitrate "
            f"{fmt(e['max_bitrate'] and e['max_bitrate'] / 1e9, '.2f')} "
            f"Gbit/s ({PACE:.2f}x the {fmt(e['capacity'], '.1f')} Gbit/s "
            f"measured above for packet-size {UDP_DEFAULT} with GSO, "
            f"{units_str(KEY_UNITS)}, headers included): "
            f"{fmt(e['good'], '.2f')} Gbit/s delivered"
            + (f", latency p50 / p99 {fmt(lt['p50'])} / {fmt(lt['p99'])} ms"
               if lt and e["kind"] == "latency" else "")
            + f"; {lo.get('frames_partial')} frames with gaps, "
            f"{lo.get('packets_lost')} datagrams missing, kernel drops "
            f"{lo.get('kernel_drops')}, RcvbufErrors "
            f"{lo.get('rcvbuf_errors')}.")
        L.append("")
    return L


# the key size's frame, MB (2160p BC1)
KEY_FRAME_MB = 3840 * 2160 / 2 / 1e6


def markdown_passphrase(results: dict) -> list[str]:
    """The "Cost of a passphrase" subsection."""
    rows = results["analysis"].get("passphrase") or []
    if not rows:
        return []
    runs = results["runs"]
    key = next(s for s in SIZES if s[0] == KEY_SIZE)
    lt_tcp = lat(pick(runs, "latency", KEY_SIZE, "tile", KEY_UNITS,
                      passphrase=True))
    lt_udp = lat(pick_udp(runs, "latency", KEY_SIZE, UDP_DEFAULT, "auto",
                          KEY_UNITS, passphrase=True))
    L = ["### Cost of a passphrase", ""]
    L.append(
        f"tilesink and tilesrc `passphrase=...` ({KEY_SIZE}, "
        f"{units_str(KEY_UNITS)}, everything else as above): every TCP tile "
        "part and every UDP datagram is encrypted and authenticated with "
        f"AES-128-GCM, a {UDP_TAG}-byte tag each (a datagram of packet-size "
        f"+ {UDP_HEADER + UDP_TAG} bytes instead of + {UDP_HEADER}). Each "
        "run with the passphrase came right after the same run without, in "
        "the same invocation: AES-128-GCM via OpenSSL, both ends on the "
        f"same {results['machine']['cpu_count']}-core machine so encryption "
        "and decryption share the cores that also move the bytes. "
        + ("Throughput is the best of the passes for each"
           if results.get("passes", 1) > 1 else "Throughput is one run each")
        + " (Gbit/s delivered, UDP: less the bytes lost), latency one run "
        f"each (TCP {key[4]:g} frames/s, "
        f"{fmt(lt_tcp and lt_tcp.get('n'), 'd', '?')} frames; UDP "
        f"{UDP_LAT[KEY_SIZE][0]:g} frames/s, "
        f"{fmt(lt_udp and lt_udp.get('n'), 'd', '?')} frames). The "
        "targets: with the "
        f"passphrase >= {PASSPHRASE_RATIO:g}x the throughput and < "
        f"{PASSPHRASE_ADDED_P50:g} ms added to the latency p50.")
    L.append("")
    L += ["| transport | Gbit/s plain | Gbit/s with passphrase | ratio | "
          "latency p50 plain / with (p99) (ms) | added p50 (ms) | met "
          "(ratio / latency) |", "|---|---|---|---|---|---|---|"]
    for e in rows:
        if e["transport"] == "tile":
            label = f"TCP, {units_str(e['units'])}"
        else:
            label = (f"UDP {e['packet']} (datagram {e['datagram']} / "
                     f"{e['datagram_sealed']}), GSO, "
                     f"{units_str(e['units'])}")
        if not e.get("sealed_confirmed"):
            label += " (tilesink did not report the session sealed!)"
        t = e["target_met"]
        L.append(
            f"| {label} | {fmt(e['plain_gbit_s'], '.1f')} | "
            f"{fmt(e['sealed_gbit_s'], '.1f')}"
            f"{loss_note(e.get('sealed_loss'))} | {fmt(e['ratio'])}x | "
            f"{fmt(e['plain_p50'])} / {fmt(e['sealed_p50'])} "
            f"({fmt(e['plain_p99'])} / {fmt(e['sealed_p99'])}) | "
            f"{fmt(e['added_p50_ms'])} | {mark(t['ratio'])} / "
            f"{mark(t['added_p50'])} |")
    L.append("")
    cpu = [e for e in rows if e.get("plain_cpu_ms_per_gb")
           and e.get("sealed_cpu_ms_per_gb")]
    if cpu:
        L.append(
            "CPU time of the process's threads per GB delivered "
            "(throughput runs, plain / with the passphrase): " + "; ".join(
                f"{'TCP' if e['transport'] == 'tile' else 'UDP ' + str(e['packet'])}"
                f" {fmt(e['plain_cpu_ms_per_gb'], '.0f')} / "
                f"{fmt(e['sealed_cpu_ms_per_gb'], '.0f')} ms"
                for e in cpu) + ".")
        L.append("")
        tcp = next((e for e in cpu if e["transport"] == "tile"), None)
        if tcp:
            # every byte is sealed once and opened once, both on this
            # machine: what one pass costs, and the bound it sets
            extra = (tcp["sealed_cpu_ms_per_gb"] -
                     tcp["plain_cpu_ms_per_gb"]) / 2
            cores = results["machine"]["cpu_count"]
            bound = cores * 1000 / tcp["sealed_cpu_ms_per_gb"] * 8
            need = PASSPHRASE_RATIO * tcp["plain_gbit_s"]
            speed = results["machine"].get("aes_128_gcm_gb_s")
            floor = ""
            if speed:
                # even if sealing cost nothing but the cipher itself
                best = tcp["plain_cpu_ms_per_gb"] / (
                    tcp["plain_cpu_ms_per_gb"] + 2 * 1000 / speed)
                floor = (
                    f"; `openssl speed -evp aes-128-gcm -bytes 262144` "
                    f"gives {speed:.1f} GB/s on one core in this run, so "
                    "even a seal and an open that cost nothing but the "
                    f"cipher ({2 * 1000 / speed:.0f} ms per GB for the "
                    "two) would leave TCP at most "
                    f"{best:.2f}x its plain throughput when both ends "
                    "share these cores")
            L.append(
                "Why the targets are out of reach here: over TCP every byte "
                "is sealed once and opened once, both on this machine, and "
                f"the passphrase adds {extra:.0f} ms of CPU per GB for each "
                f"of those passes (AES-128-GCM at {1000 / extra:.1f} GB/s "
                f"per core as the units run it, through OpenSSL{floor}). "
                "With the "
                f"{tcp['sealed_cpu_ms_per_gb']:.0f} ms per GB the sealed "
                f"stream costs in all, {cores} cores carry at most "
                f"{bound:.1f} Gbit/s, short of the {need:.1f} Gbit/s "
                f"{PASSPHRASE_RATIO:g}x would take; and a 4.15 MB frame "
                f"takes {KEY_FRAME_MB * 2 * extra / 1000:.1f} ms of CPU to "
                f"seal and open, {KEY_FRAME_MB * extra / 1000:.1f} ms even "
                "spread over "
                f"both cores, more than the {PASSPHRASE_ADDED_P50:g} ms "
                "latency budget. Between two hosts each end does one pass "
                "on its own cores, in parallel over the units: at this "
                f"speed 4 units seal {4 * 8 / (extra / 1000):.0f} Gbit/s "
                "(more than a 25 GbE link) and a frame's tile of 1.04 MB "
                f"in {1.04 * extra / 1000:.2f} ms, overlapped with sending "
                "it (tiles are sealed and opened 256 KiB at a time). That "
                "case cannot be measured on this one machine.")
            L.append("")
    return L


def udp_findings(u: dict) -> list[str]:
    """What the loss counters say, in words."""
    L = []
    pr = u["loss"].get("runs_with_partial_frames") or []
    timer = [e for e in pr if (e.get("packets_late") or 0) > 0
             and not e.get("kernel_drops") and not e.get("rcvbuf_errors")]
    if timer:
        nf = sum(e.get("frames_partial") or 0 for e in timer)
        L.append(
            f"In {len(timer)} run{'s' if len(timer) != 1 else ''} tilesrc "
            f"pushed {nf} frame{'s' if nf != 1 else ''} with "
            "gaps although the kernel dropped nothing (kernel drops and "
            "RcvbufErrors 0): every datagram missing from them arrived "
            f"afterwards ({sum(e.get('packets_late') or 0 for e in timer)} "
            "late). Their timer (timer-factor x the average time a whole "
            "frame takes, at least the adaptive floor: 2 ms, doubled by "
            "late datagrams) fired before a unit thread had read "
            "them: on two cores shared by both ends a thread can be off the "
            "CPU for longer than that.")
        L.append("")
    drops = [e for e in pr if (e.get("kernel_drops") or 0) > 0
             and e.get("rcvbuf_granted_mb")]
    if drops:
        sizes = {s[0]: frame_bytes(s[1], s[2], s[3]) for s in SIZES}
        lo = min((e.get("window") or 0) * e["tile_mb"] for e in drops)
        tput = [r for r in u["matrix"] if r.get("loss")
                and r["loss"].get("kernel_drops") is not None]
        below = [r for r in tput
                 if 4 * sizes[r["size"]] / r["units"] / 1e6 < lo]
        above = [r for r in tput
                 if 4 * sizes[r["size"]] / r["units"] / 1e6 >= lo]
        L.append(
            f"The kernel dropped datagrams in {len(drops)} runs (tilesrc's "
            "receive buffer full), all with at least "
            f"{lo:.1f} MB in flight for one socket (4 frames x the tile, "
            "sent unpaced) against the "
            f"{drops[0]['rcvbuf_granted_mb']:.1f} MB the kernel granted "
            "(which it charges with each datagram's whole buffer, more than "
            f"its payload): none of the {len(below)} throughput runs with "
            f"less in flight lost a datagram to the kernel, "
            f"{sum(1 for r in above if r['loss']['kernel_drops'])} of the "
            f"{len(above)} with more did.")
        L.append("")
    stalled = u["loss"].get("stalled_runs") or []
    spin = [e for e in stalled
            if (e.get("thread_cpu_seconds") or {}).get("rsrc:src", 0)
            >= 0.8 * (e.get("timeout") or 1e9)]
    if spin:
        L.append(
            f"{len(spin)} of the {len(stalled)} stalled runs (below) had "
            "tilesrc's streaming thread "
            "(rsrc:src) on the CPU for the whole stall while no frame came "
            "out: create() waiting, again and again, for a frame timer that "
            "had already expired while a unit thread still held that frame; "
            "the unit thread, waiting for the lock, did not get it.")
        L.append("")
    return L


# --------------------------------------------------------------------------


def aes_gcm_speed() -> float | None:
    """GB/s of one core sealing 256 KiB blocks with AES-128-GCM through
    OpenSSL's EVP interface (`openssl speed`, the library tilesink and
    tilesrc use), None without the openssl command."""
    out = benchlib.command_output(["openssl", "speed", "-evp", "aes-128-gcm",
                                   "-seconds", "2", "-bytes", "262144"])
    for line in out.splitlines():
        f = line.split()
        if len(f) == 2 and f[0].upper() == "AES-128-GCM" and \
                f[1].endswith("k"):
            return float(f[1][:-1]) * 1000 / 1e9
    return None


def machine_info(iperf3: str) -> dict:
    ip = benchlib.command_output([iperf3, "--version"]).splitlines()
    return benchlib.machine_info(
        iperf3=ip[0].split(" (")[0] if ip else "iperf3 ?",
        aes_128_gcm_gb_s=aes_gcm_speed())


def git_describe() -> str:
    try:
        rev = subprocess.run(["git", "-C", str(SRC), "rev-parse", "--short",
                              "HEAD"], capture_output=True, text=True,
                             timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(SRC), "status",
                                "--porcelain", "--", "gst/tile",
                                "gst-libs"], capture_output=True,
                               text=True, timeout=10).stdout.strip()
        return rev + (" with uncommitted changes in gst/tile or gst-libs"
                      if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--driver", type=Path, help="bc-transport-bench")
    ap.add_argument("--iperf3", default="iperf3")
    benchlib.add_output_options(
        ap, "a small subset, < 1 minute; writes results-quick.json and "
        "quick/*.png, not the doc", "benchmarks/transport/run.sh")
    args = ap.parse_args()
    write_doc_too = benchlib.resolve_outputs(args, HERE)

    if args.report_only:
        results = json.loads(args.out.read_text())
        return report(args, results, write_doc_too)
    if not args.driver:
        ap.error("--driver is required")

    started = time.monotonic()
    machine = machine_info(args.iperf3)
    quiet = benchlib.wait_for_quiet(args.quick)
    jitter = wakeup_jitter(50 if args.quick else 150)
    log(f"wakeup lateness of a 20 ms sleep: p50 {jitter['p50']} p99 "
        f"{jitter['p99']} max {jitter['max']} ms")
    passes, ip_plan, tput_plan, lat_plan = plan(args.quick)
    runs_plan = tput_plan + lat_plan
    log(f"{passes} x ({len(ip_plan)} iperf3 runs, {len(tput_plan)} "
        f"throughput runs), {len(lat_plan)} latency runs")

    iperf_results, runs = [], []
    for rep in range(passes):
        with Iperf3Server(args.iperf3) as server:
            for p in ip_plan:
                if p.get("udp"):
                    r = run_iperf3_udp(args.iperf3, server, p["length"],
                                       p["window"], p["seconds"], p["omit"])
                    r["rep"] = rep
                    iperf_results.append(r)
                    log(f"iperf3 -u -l {r['length']} {r['buffers']:7}: "
                        f"{fmt(r.get('gbit_s_sent'), '.2f')} Gbit/s sent, "
                        f"{fmt(r.get('lost_percent'), '.1f')} % lost"
                        f"{'  ' + r['error'] if r.get('error') else ''}"
                        f" (other-cpu {r.get('other_cpu_cores', 0):.2f})")
                    continue
                r = run_iperf3(args.iperf3, server, p["streams"], p["window"],
                               p["seconds"], p["omit"])
                r["rep"] = rep
                iperf_results.append(r)
                log(f"iperf3 -P {r['streams']} {r['buffers']:7}: "
                    f"{fmt(r.get('gbit_s'), '.2f')} Gbit/s"
                    f"{'  ' + r['error'] if r.get('error') else ''}"
                    f" (buffers {r.get('sndbuf_actual')}/"
                    f"{r.get('rcvbuf_actual')}, other-cpu "
                    f"{r.get('other_cpu_cores', 0):.2f})")
        for p in tput_plan:
            kw = dict(p)
            kind, tr, size = (kw.pop("kind"), kw.pop("transport"),
                              kw.pop("size"))
            if kw.get("once") and rep > 0:
                continue
            r = run_driver(args, kind, tr, size, **kw)
            r["rep"] = rep
            runs.append(r)
            log(describe(r))
    # UDP paced below the capacity just measured
    key = next(s for s in SIZES if s[0] == KEY_SIZE)
    cap = pick_udp(runs, "throughput", KEY_SIZE, UDP_DEFAULT, "auto",
                   KEY_UNITS)
    if cap:
        wire = cap["gbit_s"] * (UDP_DEFAULT + UDP_HEADER + 28) / UDP_DEFAULT
        mb = int(PACE * wire * 1e9)
        common = dict(units=KEY_UNITS, packet=UDP_DEFAULT, gso="auto",
                      max_bitrate=mb, tag="paced")
        pl = [dict(kind="throughput", seconds=tput_plan[0]["seconds"],
                   **common)]
        if not args.quick:
            rate, nf = UDP_LAT[KEY_SIZE]
            pl.append(dict(kind="latency", rate=rate, frames=nf, **common))
        for p in pl:
            kw = dict(p)
            r = run_driver(args, kw.pop("kind"), "tile-udp", key, **kw)
            r["capacity_gbit_s"] = cap["gbit_s"]
            r["capacity_wire_gbit_s"] = wire
            runs.append(r)
            log(describe(r))
    for p in lat_plan:
        kw = dict(p)
        kind, tr, size = kw.pop("kind"), kw.pop("transport"), kw.pop("size")
        r = run_driver(args, kind, tr, size, **kw)
        runs.append(r)
        log(describe(r))

    others = sorted(r["other_cpu_cores"] for r in runs)
    granted = sorted({f"{r.get('send_buffer_granted')}/"
                      f"{r.get('receive_buffer_granted')}"
                      for r in runs if r.get("transport") == "tile"
                      and r.get("send_buffer_granted") is not None})
    results = {
        **benchlib.results_header(
            args, machine, git_describe(),
            os.environ.get("BC_TRANSPORT_SYSCTL", "unchanged")),
        "granted": ", ".join(f"{g} bytes (getsockopt, send/receive)"
                             for g in granted) or "?",
        "other_cpu_cores_before": round(quiet, 3),
        "wakeup_jitter_ms": jitter,
        "passes": passes,
        "throughput_seconds": tput_plan[0]["seconds"] if tput_plan else None,
        "other_cpu_cores_median": others[len(others) // 2] if others else 0,
        "other_cpu_cores_max": others[-1] if others else 0,
        "steal_cores_median": sorted(r.get("steal_cores", 0) for r in runs)[
            len(runs) // 2] if runs else 0,
        "sizes": sorted({p["size"][0] for p in runs_plan},
                        key=lambda n: [s[0] for s in SIZES].index(n)),
        "units": sorted({p.get("units", KEY_UNITS) for p in runs_plan
                         if p["transport"] == "tile"}),
        "chunks": sorted({p.get("chunk", DEFAULT_CHUNK) for p in runs_plan
                          if p["transport"] == "tile"}),
        "iperf3": iperf_results,
        "runs": runs,
        "seconds": time.monotonic() - started,
    }
    return report(args, results, write_doc_too)


def report(args, results: dict, write_doc_too: bool) -> int:
    results["analysis"] = analyse(results)
    figs = benchlib.write_figures(plots, results, args.plots_dir, args.doc)
    results["figures"] = figs
    benchlib.write_json(args.out, results)
    log(f"wrote {args.out}")
    benchlib.publish_section(markdown(results, figs), MARK_BEGIN, MARK_END,
                             args.doc, write_doc_too)
    def expected(r):
        # rtpvrawpay into default-sized socket buffers loses so much that
        # no frame may come whole: that is the result, not a failure
        return (r.get("transport") == "rtp"
                and not r.get("receive_buffer_size"))

    failed = [r for r in results["runs"] if r.get("gbit_s") is None]
    for r in failed:
        log(f"{'no frames (expected)' if expected(r) else 'failed'}: "
            f"{r['command']}: {r.get('error')}")
    return 1 if any(not expected(r) for r in failed) else 0


if __name__ == "__main__":
    sys.exit(main())
