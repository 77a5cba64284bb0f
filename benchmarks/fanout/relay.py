#!/usr/bin/python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Latency per relay hop: a tilesink, then `tilesrc ! tilesink` relays in a
chain, each level also watched by its own tilesrc, all on 127.0.0.1 in one
process.

    benchmarks/fanout/relay.py [--build DIR] [--hops N] [--seconds S]
                               [--width W --height H] [--protocol tcp|udp]
                               [--json OUT]

Level k's tilesrc reports the latency of its frames from their origin (the
first tilesink's CLOCK_REALTIME when it got the frame: every relay puts the
origin back on the wire, see tilesink), so level 1 is one hop, level N
is N hops end to end, and the differences are the cost of a relay.
Printed: latency p50 / p99 per level (tilesrc's statistics over the last
1024 frames) and frames received. Needs python3-gi (installed with apt-get
when missing).
"""
import argparse
import json
import os
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', '..', 'build-bench'))
    ap.add_argument('--hops', type=int, default=3)
    ap.add_argument('--seconds', type=float, default=20)
    ap.add_argument('--width', type=int, default=1920)
    ap.add_argument('--height', type=int, default=1080)
    ap.add_argument('--fps', type=int, default=30)
    ap.add_argument('--protocol', default='tcp', choices=('tcp', 'udp'))
    ap.add_argument('--port', type=int, default=7500)
    ap.add_argument('--json', default='')
    a = ap.parse_args()
    try:
        import gi
    except ImportError:
        subprocess.run(['apt-get', 'install', '-y', '--no-install-recommends',
                        'python3-gi', 'gir1.2-gstreamer-1.0'], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import gi
    os.environ['GST_PLUGIN_PATH'] = os.path.abspath(os.path.join(a.build,
                                                                 'gst'))
    gi.require_version('Gst', '1.0')
    from gi.repository import Gst
    Gst.init(None)

    proto = f'protocol={a.protocol}'
    # the source: a frame encoded once per second is not the point here;
    # bc1enc on every frame is (the same for every level)
    desc = [f'videotestsrc is-live=true pattern=ball ! video/x-raw,'
            f'format=RGBA,width={a.width},height={a.height},'
            f'framerate={a.fps}/1 ! bc1enc ! tilesink host=127.0.0.1 '
            f'port={a.port} units=4 {proto} stats-interval=0']
    for k in range(1, a.hops + 1):
        # level k: a relay to level k + 1 (but the last), and a watcher
        up = a.port + 2 * (k - 1)
        if k < a.hops:
            desc.append(f'tilesrc host=127.0.0.1 port={up} reconnect=true '
                        f'stats-interval=0 ! tilesink host=127.0.0.1 '
                        f'port={up + 2} units=4 {proto} stats-interval=0')
        desc.append(f'tilesrc name=watch{k} host=127.0.0.1 port={up} '
                    'reconnect=true stats-interval=0 ! fakesink sync=false')
    pipes = [Gst.parse_launch(d) for d in desc]
    for p in pipes:
        p.set_state(Gst.State.PLAYING)
    time.sleep(a.seconds)
    levels = []
    for k in range(1, a.hops + 1):
        src = None
        for p in pipes:
            src = src or p.get_by_name(f'watch{k}')
        s = src.get_property('stats')
        ok, p50 = s.get_uint64('latency-p50')
        ok99, p99 = s.get_uint64('latency-p99')
        ok_n, n = s.get_uint64('frames-received')
        levels.append({'hops': k, 'frames': n if ok_n else 0,
                       'p50_ms': p50 / 1e6 if ok else None,
                       'p99_ms': p99 / 1e6 if ok99 else None})
    for p in reversed(pipes):
        p.set_state(Gst.State.NULL)
    prev = 0.0
    print(f'{a.width}x{a.height} BC1 at {a.fps} fps, {a.protocol}, units=4, '
          f'{a.seconds:.0f} s, 127.0.0.1')
    for lv in levels:
        if lv['p50_ms'] is None:
            print(f"{lv['hops']} hop(s): no frames")
            continue
        print(f"{lv['hops']} hop(s): {lv['frames']:5} frames, latency p50 "
              f"{lv['p50_ms']:6.2f} ms (this hop {lv['p50_ms'] - prev:+6.2f}),"
              f" p99 {lv['p99_ms']:6.2f} ms")
        prev = lv['p50_ms']
    if a.json:
        with open(a.json, 'w') as f:
            json.dump({'width': a.width, 'height': a.height, 'fps': a.fps,
                       'protocol': a.protocol, 'levels': levels}, f,
                      indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
