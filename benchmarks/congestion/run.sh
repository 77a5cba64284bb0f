#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The congestion benchmark (see run.py): a 60 frames/s stream of BC1-sized
# frames into a bottleneck slower than the stream, over tilesink/tilesrc
# (protocol=tcp and udp), tcpserversink/tcpclientsrc with gdppay,
# rtpvrawpay/udpsink and srtsink/srtsrc (latency 125 and 20 ms); then
# 2160p BC1 at 30 fps with 1, 2 and 5 % of the packets dropped at random
# and 2 % in bursts (an nftables rule in the receiver's namespace), and two
# GRAY8 streams (111 and 498 Mbit/s) beside one and four iperf3 TCP flows
# on a 300 Mbit/s link, and 720p GRAY8 at 30 fps (221 Mbit/s) alone on a
# clean 700 Mbit/s link (partial frames, the longest time between two
# frames, latency growth over 60 s). The sender and the receiver run in
# two network namespaces joined by a veth pair, the bottleneck a tbf qdisc
# on the sender's veth (as tests/netns/run.sh).
#
# Needs root (the namespaces, tc, nft). Builds bc-congestion-bench and the
# plugins in a release build directory if needed, installs what is missing
# (iproute2, iperf3, nftables, ethtool, the GStreamer plugins it compares
# with: base, good, bad with SRT), raises net.core.rmem_max/wmem_max to
# 16 MiB for the run
# (restored on exit, also on Ctrl-C; they are not per namespace), makes the
# namespaces (deleted on exit) and the Python venv, then runs run.py, which
# writes benchmarks/congestion/results.json, docs/perf/congestion-*.png and
# the congestion-bench section of docs/performance.md.
#
#   benchmarks/congestion/run.sh            full run, about 36 minutes
#   benchmarks/congestion/run.sh --quick    < 2 minutes (the sweep: 1080p
#                                           at 300 Mbit/s; the 2 % loss row;
#                                           111 Mbit/s beside 1 TCP flow;
#                                           the clean row, tilesink udp
#                                           only; 2-3 s a run); writes only
#                                           results-quick.json and quick/*.png
#
# Other options go to run.py (--keep-logs, --only KEYS, --report-only,
# --sections sweep,loss,cross,clean (some of them: the others' results are
# kept from results.json), --seconds S: the long rows' length, 60 s by
# default; every clean row is a long row).
# BUILD_DIR (default: build-bench in the source tree) is the meson build
# directory, set up with -Dbuildtype=release when it does not exist yet.
# BC_BENCH_VENV (default: benchmarks/.venv) is the venv.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
export BC_SRC_ROOT=$(cd "$here/../.." && pwd)

if [ "$(id -u)" -ne 0 ]; then
  echo "run.sh: the congestion benchmark needs root: it creates network" \
    "namespaces, a veth pair and a tbf qdisc (uid $(id -u)); run it with" \
    "sudo" >&2
  exit 1
fi

# shellcheck source=../benchlib.sh
. "$BC_SRC_ROOT/benchmarks/benchlib.sh"
start=$(date +%s)
PATH=$PATH:/usr/sbin:/sbin

bc_build_deps
if ! command -v ip >/dev/null || ! command -v tc >/dev/null \
    || ! command -v ss >/dev/null; then
  bc_apt_install iproute2
fi
command -v iperf3 >/dev/null || bc_apt_install iperf3 \
  || echo "run.sh: no iperf3: no bulk-TCP reference, no cross traffic" >&2
command -v nft >/dev/null || bc_apt_install nftables || {
  echo "run.sh: no nft: the loss rows cannot drop packets" >&2
  exit 1
}
command -v ethtool >/dev/null || bc_apt_install ethtool \
  || echo "run.sh: no ethtool: the loss rows' drops hit GSO batches" >&2
bc_gst_plugins gstreamer1.0-plugins-base appsrc tcpserversink tcpclientsrc
bc_gst_plugins gstreamer1.0-plugins-good rtpvrawpay rtpvrawdepay udpsrc \
  udpsink
bc_gst_plugins gstreamer1.0-plugins-bad gdppay gdpdepay srtsink srtsrc \
  || true
for e in appsrc tcpserversink rtpvrawpay gdppay; do
  if ! gst-inspect-1.0 "$e" >/dev/null 2>&1; then
    echo "run.sh: the GStreamer element $e is missing" >&2
    exit 1
  fi
done
srt=()
if ! gst-inspect-1.0 srtsink >/dev/null 2>&1 \
    || ! gst-inspect-1.0 srtsrc >/dev/null 2>&1; then
  echo "run.sh: no srtsink/srtsrc: the SRT contenders are skipped" >&2
  srt=(--no-srt)
fi

bc_bench_build "$BC_BUILD" benchmarks/congestion/bc-congestion-bench \
  gst/tile/libgsttile.so

bc_bench_venv || exit 1

# ---- the namespaces, as tests/netns/run.sh makes them ----

tag=$$
ns_tx=gstbc-cg-$tag-tx
ns_rx=gstbc-cg-$tag-rx
# a /30 in 10.x picked from the pid
o2=$(( 64 + (tag / 64) % 128 ))
o3=$(( (tag / 8192) % 256 ))
o4=$(( (tag % 64) * 4 ))
addr_tx=10.$o2.$o3.$(( o4 + 1 ))
addr_rx=10.$o2.$o3.$(( o4 + 2 ))
made_ns=()
pypid=

cleanup () {
  local n
  set +e  # everything below, whatever fails
  if [ -n "$pypid" ]; then
    kill "$pypid" 2>/dev/null && wait "$pypid" 2>/dev/null
  fi
  # the ends run.py started, if it could not stop them itself
  for n in "${made_ns[@]}"; do
    ip netns pids "$n" 2>/dev/null | xargs -r kill 2>/dev/null
  done
  for n in "${made_ns[@]}"; do
    ip netns del "$n" 2>/dev/null
  done
  bc_restore_rmem_wmem
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ip netns add "$ns_tx"
made_ns+=("$ns_tx")
ip netns add "$ns_rx"
made_ns+=("$ns_rx")
# made straight inside the namespaces: no name in the host's namespace
ip link add name veth-tx netns "$ns_tx" type veth peer name veth-rx \
  netns "$ns_rx"
ip -n "$ns_tx" addr add "$addr_tx/30" dev veth-tx
ip -n "$ns_rx" addr add "$addr_rx/30" dev veth-rx
for n in "$ns_tx" "$ns_rx"; do
  ip -n "$n" link set lo up
done
ip -n "$ns_tx" link set veth-tx up
ip -n "$ns_rx" link set veth-rx up
if command -v ping >/dev/null; then
  ip netns exec "$ns_tx" ping -c 1 -W 2 "$addr_rx" >/dev/null 2>&1 || {
    echo "run.sh: no ping answer over the veth pair" >&2
    exit 1
  }
fi
tc -n "$ns_tx" qdisc add dev veth-tx root tbf rate 100mbit burst 256kb \
  latency 20ms 2>/dev/null || {
  echo "run.sh: no tbf qdisc in this kernel" >&2
  exit 1
}
tc -n "$ns_tx" qdisc del dev veth-tx root
echo "run.sh: namespaces $ns_tx ($addr_tx) and $ns_rx ($addr_rx)" >&2

# udpsrc buffer-size=16M and SRT's UDP buffers (12 MiB) need
# net.core.rmem_max/wmem_max >= 16 MiB (tilesink and tilesrc get theirs as
# root anyway, through SO_SNDBUFFORCE/SO_RCVBUFFORCE)
want=$((16 << 20))
if ! bc_raise_rmem_wmem $want; then
  echo "run.sh: cannot raise net.core.rmem_max/wmem_max to $want" >&2
fi
if [ "$BC_RMEM_WMEM_RAISED" = 1 ]; then
  BC_CONGESTION_SYSCTL="net.core.rmem_max raised from $BC_RMEM_WAS to\
 $BC_RMEM, wmem_max from $BC_WMEM_WAS to $BC_WMEM for the run"
else
  BC_CONGESTION_SYSCTL="net.core.rmem_max $BC_RMEM_WAS, wmem_max\
 $BC_WMEM_WAS, unchanged"
fi
export BC_CONGESTION_SYSCTL

# our plugins, and a registry of their own
bc_use_build_plugins congestion-bench-registry.bin
gst-inspect-1.0 tilesink >/dev/null 2>&1 || {
  echo "run.sh: tilesink is not in $BC_BUILD/gst" >&2
  exit 1
}

rc=0
"$BC_VENV/bin/python" "$here/run.py" \
  --driver "$BC_BUILD/benchmarks/congestion/bc-congestion-bench" \
  --ns-tx "$ns_tx" --ns-rx "$ns_rx" --addr-tx "$addr_tx" \
  --addr-rx "$addr_rx" --command "benchmarks/congestion/run.sh${*:+ $*}" \
  ${srt[@]+"${srt[@]}"} "$@" &
pypid=$!
wait "$pypid" || rc=$?
pypid=
echo "run.sh: done in $(( $(date +%s) - start )) s (exit $rc)" >&2
exit $rc
