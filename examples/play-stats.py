#!/usr/bin/python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Plays a tile:// stream from Python and prints what an application can
read of it: tilesrc's statistics every second, and, through the GstBc
bindings (GObject introspection of libgstbc-1.0), the lost byte ranges of
every frame that arrived with gaps (GstBc.LossMeta, protocol=udp) and the
tiles of a frame (GstBc.TileMeta, when tilesrc's flush is stepped).

    examples/play-stats.py [--frames N] [--serve] [URI]

URI: tile://HOST:PORT[?PROPERTY=VALUE&...] (tilesrc's properties), default
tile://127.0.0.1:7000. --serve also runs a sender in this process
(videotestsrc ! bc1enc ! tilesink protocol=udp on a free port of
127.0.0.1) and plays that: a try on one machine. Stops after --frames
frames (default: never) and prints a summary line.

From the build tree: GI_TYPELIB_PATH=build/gst-libs/gst/bc
LD_LIBRARY_PATH=build/gst-libs/gst/bc:build/gst-libs/gst/tile
GST_PLUGIN_PATH=build/gst examples/play-stats.py --serve --frames 60
"""
import argparse
import sys
import time

import gi
gi.require_version('Gst', '1.0')
gi.require_version('GstBc', '1.0')
gi.require_version('GstApp', '1.0')
from gi.repository import Gst, GstApp, GstBc  # noqa: E402,F401

STATS = ('frames-received', 'frames-partial', 'packets-lost',
         'latency-p50', 'latency-p99')


def serve():
    """A sender in this process; returns it and its port."""
    tx = Gst.parse_launch(
        'videotestsrc is-live=true pattern=ball ! video/x-raw,width=640,'
        'height=360,framerate=30/1 ! bc1enc ! tilesink name=s '
        'host=127.0.0.1 port=0 protocol=udp units=2 stats-interval=0')
    tx.set_state(Gst.State.PLAYING)
    tx.get_state(5 * Gst.SECOND)
    return tx, tx.get_by_name('s').get_property('bound-port')


def show_stats(src):
    s = src.get_property('stats')
    fields = []
    for name in STATS:
        ok, v = s.get_uint64(name)
        if ok:
            fields.append(f'{name} {v / 1e6:.2f} ms' if name.startswith(
                'latency') else f'{name} {v}')
    print('stats: ' + ', '.join(fields), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('uri', nargs='?', default='tile://127.0.0.1:7000')
    ap.add_argument('--frames', type=int, default=0)
    ap.add_argument('--serve', action='store_true')
    a = ap.parse_args()
    Gst.init(None)
    tx = None
    uri = a.uri
    if a.serve:
        tx, port = serve()
        uri = f'tile://127.0.0.1:{port}'
    src = Gst.Element.make_from_uri(Gst.URIType.SRC, uri, 'src')
    sink = Gst.ElementFactory.make('appsink', 'sink')
    sink.set_property('sync', False)
    pipe = Gst.Pipeline.new('play-stats')
    pipe.add(src)
    pipe.add(sink)
    src.link(sink)
    pipe.set_state(Gst.State.PLAYING)
    print(f'playing {uri} ({src.get_factory().get_name()})', flush=True)

    frames = gappy = lost = tiled = 0
    last = time.monotonic()
    bus = pipe.get_bus()
    while not a.frames or frames < a.frames:
        sample = sink.try_pull_sample(Gst.SECOND)
        msg = bus.pop_filtered(Gst.MessageType.ERROR)
        if msg:
            err, debug = msg.parse_error()
            print(f'error: {err.message} ({debug})', file=sys.stderr)
            return 1
        if sample:
            buf = sample.get_buffer()
            frames += 1
            loss = GstBc.buffer_get_bc_loss_meta(buf)
            if loss:
                gappy += 1
                lost += loss.lost_bytes
                ranges = [loss.get_range(i)[1:] for i in
                          range(min(loss.n_ranges, 4))]
                print(f'frame {frames}: {loss.n_ranges} lost ranges, '
                      f'{loss.lost_bytes} bytes: '
                      + ', '.join(f'{o}+{s}' for o, s in ranges)
                      + (' ...' if loss.n_ranges > 4 else ''), flush=True)
            tiles = GstBc.buffer_get_bc_tile_meta(buf)
            if tiles:
                tiled += 1
        if time.monotonic() - last >= 1.0:
            show_stats(src)
            last = time.monotonic()
    show_stats(src)
    print(f'summary: {frames} frames, {gappy} with gaps ({lost} bytes lost), '
          f'{tiled} with a tile meta', flush=True)
    pipe.set_state(Gst.State.NULL)
    if tx:
        tx.set_state(Gst.State.NULL)
    return 0


if __name__ == '__main__':
    sys.exit(main())
