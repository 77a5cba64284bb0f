#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# YUV input converted inside the encoders against videoconvert in front of
# them (see yuv.py, issue 38): builds bc-yuv-bench and the bc plugin in a
# release build directory if needed, makes the Python venv, fetches the
# photographs, then runs yuv.py, which writes
# benchmarks/encode/yuv-results.json and the yuv-bench section of
# docs/performance.md.
#
#   benchmarks/encode/yuv.sh [yuv.py options]   e.g. --quick, or
#                                               --other-formats NV12
#
# BUILD_DIR (default: build-bench in the source tree) is the meson build
# directory, set up with -Dbuildtype=release when it does not exist yet.
# BC_BENCH_VENV (default: benchmarks/.venv) is the venv. Installs the Debian
# build dependencies and gstreamer1.0-plugins-base first when they are
# missing and we are root.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
export BC_SRC_ROOT=$(cd "$here/../.." && pwd)
# shellcheck source=../benchlib.sh
. "$BC_SRC_ROOT/benchmarks/benchlib.sh"
start=$(date +%s)

bc_build_deps
bc_gst_plugins gstreamer1.0-plugins-base appsrc videoconvert fakesink
bc_bench_build "$BC_BUILD" benchmarks/encode/bc-yuv-bench gst/bc/libgstbc.so

bc_bench_venv || exit 1
rc=0
bc_photos "$BC_VENV" || rc=$?
manifest_args=()
if [ $rc -eq 0 ]; then
  manifest_args=(--manifest "$BC_MANIFEST")
else
  echo "yuv.sh: no photographs: bc-yuv-bench's synthetic picture" >&2
fi

# our plugins, and a registry of their own
bc_use_build_plugins yuv-bench-registry.bin

rc=0
"$BC_VENV/bin/python" "$here/yuv.py" \
  --bench "$BC_BUILD/benchmarks/encode/bc-yuv-bench" \
  "${manifest_args[@]}" \
  --command "benchmarks/encode/yuv.sh${*:+ $*}" "$@" || rc=$?
echo "yuv.sh: done in $(( $(date +%s) - start )) s (exit $rc)" >&2
exit $rc
