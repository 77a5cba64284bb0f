#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The end-to-end benchmark (see run.py): raw RGBA photographs pushed at 30
# frames/s through `appsrc ! bc1enc|bc3enc|bc7enc quality=fast ! tilesink`
# to `tilesrc ! appsink` in a second process, on 127.0.0.1: latency from
# the push (the capture time, a timestamp/x-unix meta) to the frame out of
# tilesrc, split into encode and transport, for BC1, YCoCg-BC3 and BC7 at
# 1080p and 2160p with units 1, 2 and 4, in two modes: encode-then-send
# (tilesink stepped=false: whole frames, sent once encoded) and overlapped
# (stepped=true: the encoder fills tilesink's pool tile by tile and each
# unit sends its tile as soon as it is encoded), compared (overlapped p50 /
# encode-then-send p50; the issue's target: <= 0.6 for 2160p BC1 with 4
# units); and the live 2160p60 BC1 check (videotestsrc ! bc1enc ! tilesink
# units=2, overlap at its default, true -> tilesrc ! fakesink). Builds
# the plugins in a release build directory if needed, installs python3-gi
# when missing (as root), makes the Python venv (matplotlib, for the
# figure) and the photographs' frames (benchmarks/photos.py), then runs
# run.py with the system's Python, which writes benchmarks/e2e/results.json,
# docs/perf/e2e-latency.png and the e2e-bench section of
# docs/performance.md.
#
#   benchmarks/e2e/run.sh            full run, about 14 minutes
#   benchmarks/e2e/run.sh --quick    about 2 minutes (both modes, BC1, units
#                                    2 and 4, 5 s a point); writes only
#                                    results-quick.json and
#                                    quick/e2e-latency.png
#
# Other options go to run.py (--modes, --formats, --sizes, --units, --fps,
# --seconds, --no-live, --no-doc, --report-only; see run.py --help).
# BUILD_DIR (default: build-bench in the source tree) is the meson build
# directory, set up with -Dbuildtype=release when it does not exist yet.
# BC_BENCH_VENV (default: benchmarks/.venv) is the venv.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
export BC_SRC_ROOT=$(cd "$here/../.." && pwd)
# shellcheck source=../benchlib.sh
. "$BC_SRC_ROOT/benchmarks/benchlib.sh"
start=$(date +%s)

py=/usr/bin/python3
bc_build_deps
if ! "$py" -c 'import gi; gi.require_version("GstApp", "1.0")' \
    >/dev/null 2>&1; then
  bc_apt_install python3-gi gir1.2-gstreamer-1.0 \
    gir1.2-gst-plugins-base-1.0 || exit 1
fi
bc_gst_plugins gstreamer1.0-plugins-base appsrc appsink videotestsrc

bc_bench_build "$BC_BUILD" gst/tile/libgsttile.so gst/bc/libgstbc.so

bc_bench_venv || exit 1
bc_photos "$BC_VENV" || { echo "run.sh: no photographs" >&2; exit 1; }

# our plugins, and a registry of their own
bc_use_build_plugins e2e-bench-registry.bin

rc=0
"$py" "$here/run.py" --plot-python "$BC_VENV/bin/python" \
  --command "benchmarks/e2e/run.sh${*:+ $*}" "$@" || rc=$?
echo "run.sh: done in $(( $(date +%s) - start )) s (exit $rc)" >&2
exit $rc
