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

# The library as it was when the encoder-speed issue was filed: its BC7 fast
# is that issue's speed reference, measured in the same run (run.py's
# --baseline-driver). Built once, from git, into benchmarks/.baseline-*.
BASELINE_COMMIT=8a8ebf2
baseline_args=()
base_dir=$BC_SRC_ROOT/benchmarks/.baseline-$BASELINE_COMMIT
base_bench=$base_dir/build/benchmarks/encode/bc-encode-bench
if [ ! -x "$base_bench" ] && [ "$*" != "--gl-only" ] \
    && git -C "$BC_SRC_ROOT" cat-file -e "$BASELINE_COMMIT^{commit}" 2>/dev/null; then
  echo "run.sh: building $BASELINE_COMMIT (the encoder-speed issue's" \
    "reference) in $base_dir" >&2
  rm -rf "$base_dir"
  mkdir -p "$base_dir/src"
  git -C "$BC_SRC_ROOT" archive "$BASELINE_COMMIT" | tar -x -C "$base_dir/src"
  meson setup "$base_dir/build" "$base_dir/src" -Dbuildtype=release \
      -Dwerror=false >&2 \
    && ninja -C "$base_dir/build" benchmarks/encode/bc-encode-bench >&2 \
    || echo "run.sh: cannot build $BASELINE_COMMIT" >&2
fi
if [ -x "$base_bench" ]; then
  baseline_args=(--baseline-driver "$base_bench"
    --baseline-commit "$BASELINE_COMMIT")
else
  echo "run.sh: no build of $BASELINE_COMMIT: the BC7 fast speed bar is" \
    "not measured" >&2
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
  --manifest "$BC_MANIFEST" "${gl_args[@]}" "${baseline_args[@]}" "$@"
# the speed-against-quality figures of a full run (docs/perf/encode-*.png)
case " $* " in
  *" --quick "*) ;;
  *) exec "$BC_VENV/bin/python" "$here/plot.py" ;;
esac
