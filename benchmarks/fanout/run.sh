#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The fan-out benchmark (see run.py): sender CPU and delivered rate for 1, 2,
# 4 and 8 receivers of a 1080p and a 2160p BC1 60 fps stream, over tilesink
# protocol=tcp, udp and udp with multicast-group, against tee + N
# tcpserversinks and one tcpserversink with N clients. Every process is a gst-launch-1.0 in a network
# namespace of the run's own (run.py makes it with `unshare -n`: loopback with
# multicast and a route for 224.0.0.0/4; root needed, else tile-multicast is
# skipped). Builds the plugins in a release build directory if needed,
# installs what is missing (iproute2, the GStreamer plugins it uses and
# compares with) when we are root, makes the Python venv, then runs run.py,
# which writes benchmarks/fanout/results.json, docs/perf/fanout-*.png and the
# fanout-bench section of docs/performance.md.
#
#   benchmarks/fanout/run.sh            full run, about 9 minutes
#   benchmarks/fanout/run.sh --quick    about 1 minute (N = 1 and 4, and 3
#                                       for multicast, 3 s a point); writes
#                                       only results-quick.json and quick/*.png
#
# Other options go to run.py (--sizes, --modes, --ns, --seconds, --no-doc,
# --plots-dir, --section-out, --report-only; see run.py --help).
# BUILD_DIR (default: build-bench in the source tree) is the meson build
# directory, set up with -Dbuildtype=release when it does not exist yet.
# BC_BENCH_VENV (default: benchmarks/.venv) is the venv.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
export BC_SRC_ROOT=$(cd "$here/../.." && pwd)
# shellcheck source=../benchlib.sh
. "$BC_SRC_ROOT/benchmarks/benchlib.sh"
start=$(date +%s)
PATH=$PATH:/usr/sbin:/sbin

if [ "$(id -u)" -ne 0 ]; then
  echo "run.sh: not root: no network namespace of our own, so" \
    "tile-multicast is skipped unless lo here carries multicast" >&2
fi

bc_build_deps
if ! command -v ip >/dev/null; then
  bc_apt_install iproute2 || true
fi
bc_gst_plugins gstreamer1.0-plugins-base tcpserversink tcpclientsrc \
  videotestsrc
bc_gst_plugins gstreamer1.0-plugins-good multifilesrc multifilesink \
  capssetter
bc_gst_plugins gstreamer1.0-plugins-bad rawvideoparse
for e in tcpserversink tcpclientsrc multifilesrc capssetter rawvideoparse \
    clocksync; do
  if ! gst-inspect-1.0 "$e" >/dev/null 2>&1; then
    echo "run.sh: the GStreamer element $e is missing" >&2
    exit 1
  fi
done

bc_bench_build "$BC_BUILD" gst/tile/libgsttile.so gst/bc/libgstbc.so

bc_bench_venv || exit 1

# our plugins, and a registry of their own
bc_use_build_plugins fanout-bench-registry.bin
gst-inspect-1.0 tilesink >/dev/null 2>&1 || {
  echo "run.sh: tilesink is not in $BC_BUILD/gst" >&2
  exit 1
}

rc=0
"$BC_VENV/bin/python" "$here/run.py" \
  --command "benchmarks/fanout/run.sh${*:+ $*}" "$@" || rc=$?
echo "run.sh: done in $(( $(date +%s) - start )) s (exit $rc)" >&2
exit $rc
