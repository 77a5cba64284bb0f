#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The time benchmark (see run.py): tilesrc's shared clock and playout
# latency between network namespaces (a sender, two receivers behind a
# 1 Gbit/s and a 300 Mbit/s tbf): the same frame's render instants at both
# receivers and how long after its capture, before (clock=none, sync=false)
# and after (latency=80, fakesink sync=true); a receiver whose realtime
# clock is 3 s ahead (libfaketime); 1080p60 through bcdec with latency=50;
# the render cadence with bursts of UDP through the tbf. Needs root (the
# namespaces). Builds the plugins and tests/netns/tile-time-check in a
# release build directory if needed, installs what is missing (iproute2,
# faketime) when we are root, then runs run.py, which writes
# benchmarks/time/results.json and the time-bench section of
# docs/performance.md.
#
#   benchmarks/time/run.sh            full run, about 4 minutes (20 s a
#                                     scenario after 3 s)
#   benchmarks/time/run.sh --quick    about 2 minutes (6 s a scenario);
#                                     writes only results-quick.json
#
# Other options go to run.py (--seconds, --skip, --scenarios, --no-doc,
# --report-only; see run.py --help). BUILD_DIR (default: build-bench in the
# source tree) is the meson build directory, set up with
# -Dbuildtype=release when it does not exist yet.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
export BC_SRC_ROOT=$(cd "$here/../.." && pwd)
# shellcheck source=../benchlib.sh
. "$BC_SRC_ROOT/benchmarks/benchlib.sh"
start=$(date +%s)
PATH=$PATH:/usr/sbin:/sbin

if [ "$(id -u)" -ne 0 ]; then
  echo "run.sh: needs root (network namespaces)" >&2
  exit 1
fi

bc_build_deps
command -v ip >/dev/null && command -v tc >/dev/null || bc_apt_install iproute2
command -v faketime >/dev/null || bc_apt_install faketime
bc_gst_plugins gstreamer1.0-plugins-base videotestsrc videoconvert
bc_gst_plugins gstreamer1.0-plugins-base appsrc

bc_gst_plugins gstreamer1.0-plugins-base opusenc rtpopuspay
bc_gst_plugins gstreamer1.0-plugins-good rtpbin

bc_bench_build "$BC_BUILD" gst/tile/libgsttile.so gst/bc/libgstbc.so \
  tests/netns/tile-time-check examples/av-sync

rc=0
python3 "$here/run.py" --build "$BC_BUILD" \
  --command "benchmarks/time/run.sh${*:+ $*}" "$@" || rc=$?
echo "run.sh: done in $(( $(date +%s) - start )) s (exit $rc)" >&2
exit $rc
