#!/usr/bin/python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""One tilesink, four tilesrc processes on 127.0.0.1, and one of them
stopped (SIGSTOP) for seconds in the middle of the stream: the check of the
fan-out issue's "done when".

    benchmarks/fanout/stall.py [--build DIR] [--protocol tcp|udp]
                               [--seconds S] [--stop S] [--json OUT]

The sender, in this process, is `videotestsrc is-live=true ! 1280x720
RGBA 30 fps ! bc1enc ! tilesink units=2` (the tilesink defaults otherwise:
max-in-flight=1 per receiver). Each receiver is `tilesrc ! appsink` in a process of its own,
recording every frame's arrival (CLOCK_REALTIME) and its origin time (the
timestamp/x-unix reference timestamp tilesrc puts on it: when tilesink got
the frame, same host, same clock), so its latency is arrival - origin.

Receiver D is stopped with SIGSTOP at --stop seconds for 3 s, then goes on
(SIGCONT). Printed, per receiver: the share of the frames it got of those
tilesink offered it (its entry in stats `receivers`: frames sent,
dropped and abandoned for it), and for A, B
and C the latency p50 / p99 of the frames before the stop and of those
while D is stopped (and 1 s after). The issue's targets: every receiver
>= 90 % of the frames, and A-C's p99 while D is stopped <= 3x their p99
before. Exit status 0 when both hold, 1 otherwise (a benchmark: timings
on a busy machine vary; run it on a quiet one).

Needs Python 3 with GObject introspection for GStreamer (Debian:
python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0), installed
with apt-get when missing.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

FPS = 30


def need_gi():
    try:
        import gi  # noqa: F401
        return
    except ImportError:
        pass
    subprocess.run(['apt-get', 'install', '-y', '--no-install-recommends',
                    'python3-gi', 'gir1.2-gstreamer-1.0',
                    'gir1.2-gst-plugins-base-1.0'], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def receiver(port, out):
    """A tilesrc ! appsink process: records (arrival, origin) per frame
    until SIGTERM, then writes them to @out."""
    import gi
    gi.require_version('Gst', '1.0')
    gi.require_version('GstApp', '1.0')
    from gi.repository import Gst, GstApp  # noqa: F401
    Gst.init(None)
    p = Gst.parse_launch(
        f'tilesrc host=127.0.0.1 port={port} reconnect=true timeout=5000 '
        'stats-interval=1000 ! appsink name=s sync=false max-buffers=64')
    sink = p.get_by_name('s')
    caps = Gst.Caps.from_string('timestamp/x-unix')
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    p.set_state(Gst.State.PLAYING)
    frames = []
    while not stop:
        sample = sink.try_pull_sample(100 * Gst.MSECOND)
        if sample is None:
            continue
        now = time.clock_gettime_ns(time.CLOCK_REALTIME)
        meta = sample.get_buffer().get_reference_timestamp_meta(caps)
        if meta:
            frames.append((now, meta.timestamp))
    p.set_state(Gst.State.NULL)
    with open(out, 'w') as f:
        json.dump(frames, f)


def offered_per_receiver(text):
    """{id: frames sent + dropped + abandoned} from the serialized
    stats (PyGObject cannot read its `receivers` array without
    gst-python's overrides)."""
    out = {}
    for seg in text.replace('\\', '').split('tilesink-receiver')[1:]:
        def field(name):
            m = re.search(name + r'=\((?:uint|guint64)\)(\d+)', seg)
            return int(m.group(1)) if m else 0
        out[field('id')] = sum(field(f) for f in (
            'frames-sent', 'frames-dropped', 'frames-abandoned'))
    return out


def pct(values, q):
    if not values:
        return float('nan')
    v = sorted(values)
    return v[min(len(v) - 1, max(0, int(round(q / 100 * len(v) + 0.5)) - 1))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', '..', 'build-bench'))
    ap.add_argument('--protocol', default='tcp', choices=('tcp', 'udp'))
    ap.add_argument('--seconds', type=float, default=40)
    ap.add_argument('--stop', type=float, default=15,
                    help='seconds into the stream when D is stopped')
    ap.add_argument('--stopped', type=float, default=3)
    ap.add_argument('--port', type=int, default=7400)
    ap.add_argument('--json', default='')
    ap.add_argument('--receiver', nargs=2, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.receiver:
        receiver(int(a.receiver[0]), a.receiver[1])
        return 0
    need_gi()
    os.environ['GST_PLUGIN_PATH'] = os.path.abspath(os.path.join(a.build,
                                                                 'gst'))
    import gi
    gi.require_version('Gst', '1.0')
    from gi.repository import Gst
    Gst.init(None)

    work = tempfile.mkdtemp(prefix='gstbc-stall-')
    sender = Gst.parse_launch(
        'videotestsrc is-live=true pattern=ball ! video/x-raw,format=RGBA,'
        f'width=1280,height=720,framerate={FPS}/1 ! bc1enc ! tilesink '
        f'name=s host=127.0.0.1 port={a.port} protocol={a.protocol} '
        'units=2 stats-interval=0')
    sink = sender.get_by_name('s')
    sender.set_state(Gst.State.PLAYING)
    time.sleep(1.0)
    names = 'ABCD'
    outs = {n: os.path.join(work, n + '.json') for n in names}
    rx = {}
    try:
        return run(a, sender, sink, names, outs, rx)
    finally:
        for p in rx.values():
            if p.poll() is None:
                p.kill()
        sender.set_state(Gst.State.NULL)


def run(a, sender, sink, names, outs, rx):
    from gi.repository import Gst
    for k, n in enumerate(names):
        # one at a time: receiver k is session k + 1
        rx[n] = subprocess.Popen([sys.executable, os.path.abspath(__file__),
                                  '--receiver', str(a.port), outs[n]])
        end = time.time() + 10
        while (sink.get_property('stats').get_value('clients') < k + 1
               and time.time() < end):
            time.sleep(0.01)
    t0 = time.clock_gettime_ns(time.CLOCK_REALTIME)
    time.sleep(a.stop)
    t_stop = time.clock_gettime_ns(time.CLOCK_REALTIME)
    rx['D'].send_signal(signal.SIGSTOP)
    time.sleep(a.stopped)
    rx['D'].send_signal(signal.SIGCONT)
    t_cont = time.clock_gettime_ns(time.CLOCK_REALTIME)
    time.sleep(max(0, a.seconds - a.stop - a.stopped))
    # what tilesink offered each receiver, then stop the sender first, so
    # that every frame offered has left before the receivers stop
    stats = sink.get_property('stats')
    offered = offered_per_receiver(stats.to_string())
    sender.set_state(Gst.State.NULL)
    time.sleep(0.5)
    for p in rx.values():
        p.send_signal(signal.SIGTERM)
    for p in rx.values():
        p.wait(timeout=20)

    result = {'protocol': a.protocol, 'seconds': a.seconds,
              'stopped_at_s': a.stop, 'stopped_s': a.stopped,
              'receivers': {}}
    ok = True
    warm = t0 + 10**9
    for k, n in enumerate(names):
        with open(outs[n]) as f:
            frames = json.load(f)
        origins = [o for _, o in frames]
        expected = offered.get(k + 1, 0)
        if len(origins) < 2 or expected == 0:
            print(f'{n}: {len(origins)} frames, {expected} offered (session '
                  f'{k + 1}; sessions: {sorted(offered)})')
            ok = False
            continue
        share = len(origins) / expected
        before = [(t - o) / 1e6 for t, o in frames if warm <= o < t_stop]
        during = [(t - o) / 1e6 for t, o in frames
                  if t_stop <= o < t_cont + 10**9]
        r = {'frames': len(origins), 'expected': expected, 'share': share,
             'p50_before_ms': pct(before, 50), 'p99_before_ms': pct(before, 99),
             'p50_during_ms': pct(during, 50), 'p99_during_ms': pct(during, 99)}
        result['receivers'][n] = r
        verdict = []
        if share < 0.9:
            ok = False
            verdict.append('< 90 % of the frames')
        if n != 'D' and r['p99_during_ms'] > 3 * r['p99_before_ms']:
            ok = False
            verdict.append('p99 while D is stopped > 3x before')
        print(f"{n}{' (stopped)' if n == 'D' else '':10} {len(origins):5} of "
              f"{expected:5} frames ({100 * share:5.1f} %)  latency before "
              f"p50 {r['p50_before_ms']:6.2f} p99 {r['p99_before_ms']:6.2f} ms,"
              f" while D is stopped p50 {r['p50_during_ms']:6.2f} p99 "
              f"{r['p99_during_ms']:6.2f} ms  {'; '.join(verdict) or 'ok'}")
    result['pass'] = ok
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(result, f, indent=1)
    result['sender'] = {f: stats.get_value(f) for f in (
        'frames-sent', 'frames-dropped', 'frames-unsent', 'clients',
        'disconnects')}
    print(f"sender: {result['sender']}")
    print('PASS' if ok else 'FAIL')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
