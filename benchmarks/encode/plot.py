#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Speed against quality, one plot per format, from an encode benchmark run.

    benchmarks/encode/plot.py [RESULTS.json] [OUT_DIR]

Reads benchmarks/encode/results.json (what run.py wrote) and writes
docs/perf/encode-speed-psnr-<format>.png: for 1920x1080, one thread, the
mean speed (Mpixel/s, log scale) and mean RGB PSNR over the photographs of
every quality level of ours, with the SIMD build of the run and the
portable C one, and of every peer build in the run (etcpak's portable,
SSE4.1, AVX2 and AVX-512 builds and their variants), one point each. The
title says which run. run.sh calls it after a full run.
"""
import json
import os
import sys

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))

# the plots: our formats on it, and the peers' format they compare with
PLOTS = [
    ('BC1', ['BC1'], 'BC1'),
    ('BC3', ['YCoCg-BC3', 'BC3'], 'BC3'),
    ('BC4', ['BC4'], 'BC4'),
    ('BC5', ['BC5'], 'BC5'),
    ('BC7', ['BC7'], 'BC7'),
]


def main():
    results = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        HERE, 'results.json')
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        ROOT, 'docs', 'perf')
    with open(results) as f:
        d = json.load(f)
    m = d['machine']
    run = f"{m['date']}, {m['cpu']} ({m['cores']} cores)"
    os.makedirs(out, exist_ok=True)
    for name, ours, peer in PLOTS:
        fig, ax = plt.subplots(figsize=(9, 6))
        n_peer = 0
        for e in sorted(d['summary'], key=lambda e: e['mpix_per_s']):
            size, encoder, fmt, quality, threads, simd = e['key']
            if size != '1080p' or threads != 1 or e.get('psnr') is None:
                continue
            if encoder == 'gst-bc' and fmt in ours:
                label = f"{fmt} {quality}" + (" (portable C)"
                                              if simd == 'none' else '')
                marker, color = ('o', 'tab:blue') if simd != 'none' else \
                    ('o', 'tab:cyan')
                if fmt != ours[0]:
                    color = 'tab:green' if simd != 'none' else 'lightgreen'
            elif encoder.startswith('etcpak') and fmt == peer:
                variant = quality.replace('compress_', '').replace(
                    peer.lower(), '').strip(' _')
                label = 'etcpak ' + encoder.split()[-1] + (
                    f' {variant}' if variant else '')
                marker, color = 's', 'tab:red'
                dy = (-10, 4, -22, 16)[n_peer % 4]
                n_peer += 1
            else:
                continue
            ax.scatter(e['mpix_per_s'], e['psnr'], marker=marker,
                       color=color, s=36, zorder=3)
            ax.annotate(label, (e['mpix_per_s'], e['psnr']), fontsize=7,
                        xytext=(4, dy if marker == 's' else 3),
                        textcoords='offset points')
        ax.set_xscale('log')
        ax.set_xlabel('Mpixel/s, 1 thread (log scale)')
        ax.set_ylabel('RGB PSNR, dB (mean over the photographs)')
        ax.set_title(f'{name}: speed and quality, 1920x1080 photographs, '
                     f'1 thread\ngst-bc (circles) and etcpak builds '
                     f'(squares); run of {run}', fontsize=8)
        ax.margins(x=0.15, y=0.08)
        ax.grid(True, which='both', alpha=0.3)
        fig.tight_layout()
        path = os.path.join(out, f'encode-speed-psnr-{name.lower()}.png')
        fig.savefig(path, dpi=110)
        plt.close(fig)
        print(path)
    return 0


if __name__ == '__main__':
    sys.exit(main())
