#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The CPU encoder benchmark (see run.py): builds bc-encode-bench in a
# release build directory if needed, makes the Python venv, fetches the
# photographs, then runs run.py, which writes benchmarks/encode/results.json
# and the encode-bench section of docs/performance.md.
#
#   benchmarks/encode/run.sh [run.py options]      e.g. --photos bridge --reps 1
#   benchmarks/encode/run.sh --gl-only             the GL path only, added to
#                                                  the existing results.json
#
# BUILD_DIR (default: build-bench in the source tree) is the meson build
# directory, set up with -Dbuildtype=release when it does not exist yet.
# BC_BENCH_VENV (default: benchmarks/.venv) is the venv. Installs the Debian
# build dependencies first when they are missing and we are root.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
export BC_SRC_ROOT=$(cd "$here/../.." && pwd)
# shellcheck source=../benchlib.sh
. "$BC_SRC_ROOT/benchmarks/benchlib.sh"

bc_build_deps
bc_bench_build "$BC_BUILD" benchmarks/encode/bc-encode-bench
# the GL path, when the build has the GStreamer GL library
gl_args=()
if ninja -C "$BC_BUILD" -t targets all 2>/dev/null \
    | grep -q '^benchmarks/encode/bc-encode-gl-bench:'; then
  ninja -C "$BC_BUILD" benchmarks/encode/bc-encode-gl-bench >&2
  gl_args=(--gl-driver "$BC_BUILD/benchmarks/encode/bc-encode-gl-bench")
fi

rc=0
bc_venv "$BC_VENV" || rc=$?
if [ $rc -ne 0 ]; then
  echo "run.sh: cannot make the Python venv $BC_VENV" >&2
  exit 1
fi
rc=0
bc_photos "$BC_VENV" || rc=$?
if [ $rc -ne 0 ]; then
  echo "run.sh: cannot fetch the photographs" >&2
  exit 1
fi

"$BC_VENV/bin/python" "$here/run.py" \
  --driver "$BC_BUILD/benchmarks/encode/bc-encode-bench" \
  --manifest "$BC_MANIFEST" "${gl_args[@]}" "$@"
# the speed-against-quality figures of a full run (docs/perf/encode-*.png)
case " $* " in
  *" --quick "*) ;;
  *) exec "$BC_VENV/bin/python" "$here/plot.py" ;;
esac
