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
command -v iperf3 >/dev/null || bc_apt_install iperf3
for e in tcpserversink tcpclientsrc; do
  gst-inspect-1.0 "$e" >/dev/null 2>&1 \
    || bc_apt_install gstreamer1.0-plugins-base
done
for e in rawvideoparse gdppay; do
  gst-inspect-1.0 "$e" >/dev/null 2>&1 \
    || bc_apt_install gstreamer1.0-plugins-bad
done
for e in rtpvrawpay rtpvrawdepay udpsrc udpsink; do
  gst-inspect-1.0 "$e" >/dev/null 2>&1 \
    || bc_apt_install gstreamer1.0-plugins-good
done

bc_bench_build "$BC_BUILD" benchmarks/transport/bc-transport-bench \
  gst/tile/libgsttile.so

rc=0
bc_venv "$BC_VENV" || rc=$?
if [ $rc -ne 0 ]; then
  echo "run.sh: cannot make the Python venv $BC_VENV" >&2
  exit 1
fi

# iperf3 -w 16M and udpsrc/udpsink buffer-size=16M need net.core.[rw]mem_max
# >= 16 MiB (tilesink and tilesrc get their 16 MiB as root anyway, through
# SO_SNDBUFFORCE/SO_RCVBUFFORCE)
want=$((16 << 20))
old_r=$(sysctl -n net.core.rmem_max 2>/dev/null || echo 0)
old_w=$(sysctl -n net.core.wmem_max 2>/dev/null || echo 0)
restore () {
  if [ "${raised:-0}" = 1 ]; then
    sysctl -qw net.core.rmem_max="$old_r" net.core.wmem_max="$old_w" \
      >/dev/null 2>&1 || true
  fi
}
trap restore EXIT
trap 'exit 130' INT TERM
raised=0
BC_TRANSPORT_SYSCTL="rmem_max $old_r, wmem_max $old_w (unchanged)"
if [ "$old_r" -lt $want ] || [ "$old_w" -lt $want ]; then
  if [ "$(id -u)" = 0 ] && sysctl -qw net.core.rmem_max=$((old_r > want \
      ? old_r : want)) net.core.wmem_max=$((old_w > want ? old_w : want)) \
      >/dev/null 2>&1; then
    raised=1
    BC_TRANSPORT_SYSCTL="rmem_max $old_r -> $(sysctl -n net.core.rmem_max),\
 wmem_max $old_w -> $(sysctl -n net.core.wmem_max) (restored after)"
  else
    echo "run.sh: cannot raise net.core.rmem_max/wmem_max to $want:" \
      "iperf3 -w 16M will fail, udpsrc/udpsink get less than 16 MiB" >&2
  fi
fi
export BC_TRANSPORT_SYSCTL

# our plugins, and a registry of their own
export GST_PLUGIN_PATH="$BC_BUILD/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
export GST_REGISTRY="$BC_BUILD/transport-bench-registry.bin"

rc=0
"$BC_VENV/bin/python" "$here/run.py" \
  --driver "$BC_BUILD/benchmarks/transport/bc-transport-bench" \
  --command "benchmarks/transport/run.sh${*:+ $*}" "$@" || rc=$?
echo "run.sh: done in $(( $(date +%s) - start )) s (exit $rc)" >&2
exit $rc
