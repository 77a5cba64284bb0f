#!/usr/bin/env python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Figures of an upload benchmark run (benchmarks/upload/results.json):

    benchmarks/upload/plot.py [RESULTS.json] [OUT_DIR]

docs/perf/upload-latency.png: per size, the three modes (zero-copy
stepped, zero-copy frame, copy-in): delivery latency (the sender's clock
when tilesink got the frame -> the texture is ready) p50 with p5-p95
bars, and glbcupload's own share of it (buffer in -> texture ready, p50).
docs/perf/upload-transform.png: glbcupload's transform time (buffer in ->
output out) p50 with p5-p95 bars. Log scales: llvmpipe draws on the CPU,
so compare the modes within a size. Needs matplotlib (the benchmarks'
venv has it; run.sh calls this after a run).
"""
import json
import os
import sys

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
MODES = ['zero-copy, stepped', 'zero-copy, frame', 'copy-in']
COLORS = ['tab:blue', 'tab:orange', 'tab:gray']


def grouped(ax, runs, sizes, field, title, ylabel, inner=None):
    width = 0.26
    for k, mode in enumerate(MODES):
        xs, p50, lo, hi, share = [], [], [], [], []
        for i, size in enumerate(sizes):
            r = next((r for r in runs if r['size'] == size and
                      r['mode'] == mode), None)
            if not r or not r.get(field):
                continue
            v = r[field]
            xs.append(i + (k - 1) * width)
            p50.append(v['p50'])
            lo.append(v['p50'] - v['p5'])
            hi.append(v['p95'] - v['p50'])
            share.append(r[inner]['p50'] if inner and r.get(inner) else None)
        ax.bar(xs, p50, width, yerr=[lo, hi], capsize=3, label=mode,
               color=COLORS[k], alpha=0.85)
        if inner:
            ax.scatter(xs, share, marker='_', s=300, color='black',
                       zorder=4, label='glbcupload in -> ready (p50)'
                       if k == 0 else None)
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels(sizes)
    ax.set_yscale('log')
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.grid(True, axis='y', which='both', alpha=0.3)
    ax.legend(fontsize=8)


def main():
    results = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        HERE, 'results.json')
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        ROOT, 'docs', 'perf')
    with open(results) as f:
        d = json.load(f)
    runs = d['runs']
    sizes = []
    for r in runs:
        if r['size'] not in sizes:
            sizes.append(r['size'])
    run = f"run of {d['date']}, {d.get('cores', '?')} cores, Mesa llvmpipe"
    os.makedirs(out, exist_ok=True)

    fig, ax = plt.subplots(figsize=(8, 5))
    grouped(ax, runs, sizes, 'delivery_ms',
            'tilesink -> tilesrc -> glbcupload: delivery latency (tilesink '
            f'got the frame -> texture ready), p50 and p5-p95\n{run}',
            'ms (log scale)', inner='ready_ms')
    fig.tight_layout()
    path = os.path.join(out, 'upload-latency.png')
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(path)

    fig, ax = plt.subplots(figsize=(8, 5))
    grouped(ax, runs, sizes, 'transform_ms',
            'glbcupload transform (buffer in -> output out: the rows not '
            f'uploaded yet and the draw), p50 and p5-p95\n{run}',
            'ms (log scale)')
    fig.tight_layout()
    path = os.path.join(out, 'upload-transform.png')
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(path)
    return 0


if __name__ == '__main__':
    sys.exit(main())
