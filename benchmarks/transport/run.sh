#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The transport benchmark (see run.py): iperf3 (TCP and -u),
# tcpserversink/tcpclientsrc, rtpvrawpay/rtpvrawdepay over udpsink/udpsrc
# and tilesink/tilesrc (protocol=tcp and udp) on 127.0.0.1 in one run.
# Builds bc-transport-bench
# and the plugins in a release build directory if needed, installs iperf3
# (and the GStreamer plugins it compares with) when missing and we are root,
# raises net.core.rmem_max/wmem_max to 16 MiB for the run (root only;
# restored on exit, also on Ctrl-C), makes the Python venv, then runs
# run.py, which writes benchmarks/transport/results.json, docs/perf/
# transport-*.png and the transport-bench section of docs/performance.md.
#
#   benchmarks/transport/run.sh            full run, about 7 minutes on 2 cores
#   benchmarks/transport/run.sh --quick    < 1 minute; writes only
#                                          results-quick.json and quick/*.png
#   benchmarks/transport/run.sh --sealed   the sealed session's cost, now
#                                          against before (sealed.py), about
#                                          3 minutes
#
# BUILD_DIR (default: build-bench in the source tree) is the meson build
# directory, set up with -Dbuildtype=release when it does not exist yet.
# BC_BENCH_VENV (default: benchmarks/.venv) is the venv.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
export BC_SRC_ROOT=$(cd "$here/../.." && pwd)
# shellcheck source=../benchlib.sh
. "$BC_SRC_ROOT/benchmarks/benchlib.sh"
start=$(date +%s)

bc_build_deps

# --sealed: the cost of the sealed session (sealed.py): tilesink/tilesrc
# with a passphrase now against the elements as they were before it
# (BASELINE_COMMIT, built once from git into benchmarks/.baseline-*), the
# same driver, runs alternated
if [ "${1:-}" = "--sealed" ]; then
  shift
  BASELINE_COMMIT=380d08c
  base_dir=$BC_SRC_ROOT/benchmarks/.baseline-$BASELINE_COMMIT
  bc_bench_build "$BC_BUILD" benchmarks/transport/bc-transport-bench \
    gst/tile/libgsttile.so
  if [ ! -f "$base_dir/build/gst/tile/libgsttile.so" ]; then
    echo "run.sh: building $BASELINE_COMMIT's tile plugin in $base_dir" >&2
    rm -rf "$base_dir"
    mkdir -p "$base_dir/src"
    git -C "$BC_SRC_ROOT" archive "$BASELINE_COMMIT" | tar -x -C "$base_dir/src"
    meson setup "$base_dir/build" "$base_dir/src" -Dbuildtype=release \
        -Dwerror=false >&2 \
      && ninja -C "$base_dir/build" gst/tile/libgsttile.so >&2 \
      || { echo "run.sh: cannot build $BASELINE_COMMIT" >&2; exit 1; }
  fi
  trap bc_restore_rmem_wmem EXIT
  trap 'exit 130' INT TERM
  bc_raise_rmem_wmem $((16 << 20)) || true
  python3 "$here/sealed.py" \
    --driver "$BC_BUILD/benchmarks/transport/bc-transport-bench" \
    --plugins "$BC_BUILD/gst" --baseline-plugins "$base_dir/build/gst" \
    --baseline-commit "$BASELINE_COMMIT" "$@"
  exit $?
fi

command -v iperf3 >/dev/null || bc_apt_install iperf3
bc_gst_plugins gstreamer1.0-plugins-base tcpserversink tcpclientsrc
bc_gst_plugins gstreamer1.0-plugins-bad rawvideoparse gdppay
bc_gst_plugins gstreamer1.0-plugins-good rtpvrawpay rtpvrawdepay udpsrc \
  udpsink

bc_bench_build "$BC_BUILD" benchmarks/transport/bc-transport-bench \
  gst/tile/libgsttile.so

bc_bench_venv || exit 1

# iperf3 -w 16M and udpsrc/udpsink buffer-size=16M need net.core.[rw]mem_max
# >= 16 MiB (tilesink and tilesrc get their 16 MiB as root anyway, through
# SO_SNDBUFFORCE/SO_RCVBUFFORCE)
want=$((16 << 20))
trap bc_restore_rmem_wmem EXIT
trap 'exit 130' INT TERM
if ! bc_raise_rmem_wmem $want; then
  echo "run.sh: cannot raise net.core.rmem_max/wmem_max to $want:" \
    "iperf3 -w 16M will fail, udpsrc/udpsink get less than 16 MiB" >&2
fi
if [ "$BC_RMEM_WMEM_RAISED" = 1 ]; then
  BC_TRANSPORT_SYSCTL="rmem_max $BC_RMEM_WAS -> $BC_RMEM,\
 wmem_max $BC_WMEM_WAS -> $BC_WMEM (restored after)"
else
  BC_TRANSPORT_SYSCTL="rmem_max $BC_RMEM_WAS, wmem_max $BC_WMEM_WAS\
 (unchanged)"
fi
export BC_TRANSPORT_SYSCTL

# our plugins, and a registry of their own
bc_use_build_plugins transport-bench-registry.bin

rc=0
"$BC_VENV/bin/python" "$here/run.py" \
  --driver "$BC_BUILD/benchmarks/transport/bc-transport-bench" \
  --command "benchmarks/transport/run.sh${*:+ $*}" "$@" || rc=$?
echo "run.sh: done in $(( $(date +%s) - start )) s (exit $rc)" >&2
exit $rc
