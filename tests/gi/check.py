#!/usr/bin/python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The GstBc-1.0 and GstTile-1.0 bindings from Python (the `gi` suite):
the loss and tile metas read and written through GObject introspection, a
format helper, libgsttile's wire helpers and latency statistics, then examples/play-stats.py against a sender of its own (tile:// URI,
statistics, metas). Run by meson with GI_TYPELIB_PATH, LD_LIBRARY_PATH
and GST_PLUGIN_PATH pointing into the build tree. Exit 0 = pass."""
import os
import subprocess
import sys

import gi
gi.require_version('Gst', '1.0')
gi.require_version('GstBc', '1.0')
gi.require_version('GstTile', '1.0')
from gi.repository import Gst, GstBc, GstTile  # noqa: E402


def check(cond, what):
    if not cond:
        print(f'FAIL: {what}')
        sys.exit(1)
    print(f'ok: {what}')


def main():
    Gst.init(None)
    buf = Gst.Buffer.new_allocate(None, 4096, None)
    check(GstBc.buffer_get_bc_loss_meta(buf) is None, 'no loss meta at first')
    meta = GstBc.buffer_add_bc_loss_meta(buf)
    meta.add_range(100, 20)
    meta.add_range(120, 10)       # extends the first
    meta.add_range(1000, 8)
    got = GstBc.buffer_get_bc_loss_meta(buf)
    check(got is not None and got.n_ranges == 2 and got.lost_bytes == 38,
          f'loss meta: 2 ranges, 38 bytes (got {got.n_ranges}, '
          f'{got.lost_bytes})')
    check(tuple(got.get_range(0)) == (True, 100, 30) and
          tuple(got.get_range(1)) == (True, 1000, 8) and
          not got.get_range(2)[0], f'loss ranges {got.get_range(0)} '
          f'{got.get_range(1)}')
    check(GstBc.buffer_get_bc_tile_meta(buf) is None, 'no tile meta')
    caps = Gst.Caps.from_string(
        'video/x-bc,format=BC1,width=64,height=32,framerate=30/1')
    fmt = [f for f in dir(GstBc) if f.lower().startswith('format')]
    check(len(fmt) > 0, f'format helpers: {fmt[:4]}')

    # libgsttile: the wire protocol's arithmetic and the latency window
    check(GstTile.wire_packets_per_tile(10000, 1408) == 8 and
          GstTile.wire_packets_per_tile(0, 1408) == 0,
          'GstTile.wire_packets_per_tile: 8 datagrams for 10000 bytes')
    lat = GstTile.Latency()
    lat.reset()
    for ms in range(1, 101):
        lat.add(ms * 1000000)
    p50 = lat.percentile(50)
    check(49000000 <= p50 <= 51000000, f'GstTile.Latency p50 of 1..100 ms '
          f'is about 50 ms (got {p50})')
    st = Gst.Structure.new_empty('stats')
    lat.to_structure(st)
    check(st.n_fields() > 0, f'latency fields: {st.to_string()}')
    GstTile.register_stats_names()
    check(GstTile.stats_name_is_registered('frames-received') and
          not GstTile.stats_name_is_registered('no-such-statistic'),
          'GstTile.stats_name_is_registered')
    for name in ('net_listen', 'seal_new', 'rate_control_init'):
        check(not hasattr(GstTile, name), f'internal {name} is not API')

    here = os.path.dirname(os.path.abspath(__file__))
    example = os.path.join(here, '..', '..', 'examples', 'play-stats.py')
    r = subprocess.run([sys.executable, example, '--serve', '--frames', '30'],
                       capture_output=True, text=True, timeout=60)
    print(r.stdout, r.stderr, sep='\n')
    check(r.returncode == 0, 'examples/play-stats.py exits 0')
    check('playing tile://127.0.0.1:' in r.stdout, 'it opens a tile:// URI')
    check('summary: 30 frames' in r.stdout, 'it plays 30 frames')
    check('stats: frames-received' in r.stdout, 'it prints the statistics')
    del caps
    return 0


if __name__ == '__main__':
    sys.exit(main())
