#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The upload benchmark (see run.py): tilesink -> tilesrc -> glbcupload on
# 127.0.0.1 (bc-upload-bench), stepped vs whole-frame upload and zero copy
# vs copy-in, at 1080p, 2160p and 4320p BC1, on headless GL
# (GST_GL_PLATFORM=egl GST_GL_WINDOW=egl-device), plus a perf profile of the
# zero-copy and the copy runs that attributes every sampled memcpy to its
# caller. Builds the driver and plugins in a release build directory if
# needed, installs linux-perf when missing and we are root, then runs
# run.py, which writes benchmarks/upload/results.json and the upload-bench
# section of docs/performance.md. Not run in CI; nothing is asserted.
#
#   nice -n -5 benchmarks/upload/run.sh          about 4 minutes on 2 cores
#
# BUILD_DIR (default: build-bench in the source tree) is the meson build
# directory, set up with -Dbuildtype=release when it does not exist yet.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
export BC_SRC_ROOT=$(cd "$here/../.." && pwd)
# shellcheck source=../benchlib.sh
. "$BC_SRC_ROOT/benchmarks/benchlib.sh"

command -v perf >/dev/null || bc_apt_install linux-perf \
  || echo "run.sh: no perf: the copy profile is left out" >&2

bc_bench_build "$BC_BUILD" benchmarks/upload/bc-upload-bench \
  benchmarks/upload/libbc-copytrace.so gst/tile/libgsttile.so \
  gst/glbc/libgstglbc.so

export GST_PLUGIN_PATH="$BC_BUILD/gst"
export GST_GL_PLATFORM=egl GST_GL_WINDOW=egl-device
python3 "$here/run.py" "$BC_BUILD/benchmarks/upload/bc-upload-bench" "$@"
# the figures (docs/perf/upload-*.png), with the benchmarks' venv's matplotlib
venv=${BC_BENCH_VENV:-$BC_SRC_ROOT/benchmarks/.venv}
case " $* " in
  *" --quick "*) ;;
  *) if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import matplotlib' 2>/dev/null; then
       "$venv/bin/python" "$here/plot.py"
     else
       echo "run.sh: no matplotlib in $venv: the figures are not redrawn (benchmarks/upload/plot.py)" >&2
     fi ;;
esac
