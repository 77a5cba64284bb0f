#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The network-namespace test: tilesink in one network namespace, tilesrc in
# another, a veth pair between them, and real packet loss (an nftables rule
# in the receiver's namespace dropping N % of the data packets at random)
# or a real bottleneck (a 5 Gbit/s tbf qdisc on the sender's veth).
# tile-netns-check (tile-netns-check.c) is both ends: it checks every frame
# byte for byte outside the lost ranges of its GstBcLossMeta, the frame
# order, and prints its counts and the element's final stats as JSON;
# check.py asserts on them.
#
#   tests/netns/run.sh BUILDDIR [--protocol tcp|udp] [SCENARIO...]
#
# SCENARIO (default: all):
#   tcp        TCP baseline, no loss: every frame, byte-exact
#   loss-0     1080p BC1 60 fps, no drop rule
#   loss-1     the same, 1 % of the data packets dropped; UDP
#              retransmission (tilesink/tilesrc retransmit, on by
#              default) must make >= 95 % of the frames whole
#   loss-5     the same, 5 % dropped: >= 50 % whole (the tails lost again,
#              or asked for after tilesink let the frame go, are
#              concealed)
#   conceal-5  loss-5 with retransmit=false at both ends: the concealment
#              path (every frame partial, its lost ranges in its
#              GstBcLossMeta, about 5 % of the datagrams lost)
#   tbf        2160p BC1 200 fps (6.6 Gbit/s) into a 5 Gbit/s tbf
#   tbf-paced  the same with tilesink pacing-bitrate=4000000000
#   lat-0      2160p BC1 30 fps (1 Gbit/s), no drop rule: the latency
#              reference for lat-2
#   lat-2      the same, 2 % dropped: every frame loses datagrams (and
#              with retransmission >= 50 % must arrive whole); its
#              latency p50 must stay <= max(3 x lat-0's, 5 ms) (a frame's
#              timer runs from its own first datagram, not from the next
#              frame's; a frame is held for resends only while they come)
#   slow-tcp   1080p BC1 60 fps (498 Mbit/s) over TCP into a 300 Mbit/s tbf
#              (20 ms queue), default properties: the sender must drop
#              frames rather than queue them; latency (from capture) p50
#              within 2x the 27.6 ms a frame takes on that link, p99
#              within 3x + the link's 20 ms queue, which the units' TCP
#              fills now and then (BBR, tilesink's default congestion
#              control, when it starts and probes; cubic all the time:
#              there p50 1.3-2.4x, p99 3.2-4.4x); tilesrc clock=none, so
#              the latency is on the wall clocks the namespaces share (the
#              sender's clock, followed over the full link, is off by up
#              to tens of ms: see docs/performance.md)
#   slow-udp   the same over UDP with no rate set by hand (retransmit
#              on: the tbf's drops are asked for, few resends come): the rate
#              control (rate-control, on by default) must find the link's
#              rate (estimated-bitrate within 0.5-1.5x), <= 5 % of the
#              frames partial, latency p50 / p99 within 2x / 3x
#   deadline-tcp  slow-tcp with max-in-flight=8 (frames queue in the
#              sender) and max-latency=60 ms: the frames that would leave
#              too late are abandoned (counted the same on both sides),
#              the connections stay up, latency p99 <= 60 ms + 1.5x the
#              wire time of a frame (what is past the sender when the
#              deadline comes still arrives: its unsent limit, the link's
#              20 ms queue), at least half the frames the link carries
#   step-udp   1080p BC1 60 fps (498 Mbit/s) over UDP into a 300 Mbit/s
#              tbf that becomes 800 Mbit/s at frame 180 (3 s in): 2 s
#              later (frames 300-599) the rate control must carry the
#              whole stream again, >= 90 % of those frames, <= 5 % partial
#   clean-udp  720p GRAY8 at 30 fps (221 Mbit/s) over UDP, alone on a
#              clean path with room to spare: a 700 Mbit/s tbf (256 KB
#              burst, 20 ms queue), no drop rule, default properties (rate
#              control on): no partial frame, no time between two frames
#              at the receiver over 1.5 frame intervals (issue 36). The
#              gap bound is known failing now and then (all the sender's
#              units stall for 15-40 ms), and a single partial frame seen
#              once in about 20 runs: reported as KNOWN FAILING, not a
#              failure, unless BC_NETNS_CLEAN_GAP=1.
#              BC_NETNS_CLEAN_FRAMES=1800: a 60 s run
#   fair-udp   1280x360 GRAY8 at 30 fps (111 Mbit/s, 37 % of the link)
#              over UDP into a 300 Mbit/s tbf (20 ms queue) beside one
#              iperf3 TCP flow (issue 36): >= 90 % of the frames whole,
#              latency p50 <= 60 ms (the benchmark's bar: 95 %, 45 ms):
#              the rate control's floor, the stream's own pace
#   fair-over  1920x540 GRAY8 at 60 fps (498 Mbit/s, more than the link)
#              beside one iperf3 TCP flow on that link: the stream and the
#              TCP flow each get >= 0.3 of it (the benchmark's bar: 0.35)
#              BC_NETNS_FAIR_FRAMES: the frames of either (300 and 600)
#   max-rate   2160p BC1, 2 units, frames pushed far faster than the path
#              carries: the receive buffers overflow and the sender drops
#              frames for the receiver's window, but the stream must not
#              stall
#   vanish     a receiver's host vanishes without FIN or RST (its link goes
#              down for good, then the process dies): tilesink
#              (timeout=2000) must end that session by itself, so that 4 s
#              later a new tilesrc on another host (a third namespace,
#              reconnect=false: a busy sender would be an error) is served
#              30 frames
#   multicast  UDP multicast to 3 receivers: a sender and three receiver
#              namespaces on one Linux bridge (a namespace of its own,
#              mcast_snooping 0); tilesink multicast-group=239.x.y.z (from
#              the pid) host=<its IP>, 720p BC1 at 60 fps, 300 frames,
#              pushed once all 3 receivers take frames (tile-netns-check
#              --receivers 3); 2 % of the UDP packets dropped in the third
#              receiver's namespace only. Every receiver byte-exact outside
#              its lost ranges, in order; the two loss-free ones >= 95 %
#              of the frames, (nearly) none partial; the lossy one >= 90 %,
#              its loss about 2 % of the datagrams; the sender sent every
#              datagram once (packets-sent = frames x datagrams per frame,
#              not 3x). Receivers 1 and 3 join on the route's interface
#              (224.0.0.0/4 dev veth-rx), receiver 2 has no such route and
#              joins with tilesrc multicast-iface=veth-rx.
#   multicast-ipv6  the same over IPv6: group ff15::67:x:y, addresses in a
#              fd67:x:y::/64 (nodad), the ff00::/8 routes the kernel makes
#
# The many-paths scenarios (issue 37: tilesrc host="A,B", one address of the
# sender per network path): paths-tcp, paths-udp, redundant-udp,
# redundant-udp-control, redundant-udp-flap, redundant-tcp,
# redundant-tcp-control, paths-down-tcp,
# paths-down-tcp-control, paths-down-udp and paths-flap-tcp, all in the
# default list, and paths-down-udp-control. They add a
# second veth pair between the same two namespaces
# (path B, veth-txb / veth-rxb, 10.x.(y^32).z/30; path A is the usual
# veth-tx / veth-rx), each sender-side veth with its own tbf (256 KB burst,
# 20 ms queue); tilesink listens on 0.0.0.0, tilesrc gets host="A,B" (path
# A's address first: the control connection's) and, for redundant, the
# checker's --src-prop redundant=true; the bytes each sender-side veth
# carried (its tx_bytes) are checked. At a step, the sender (its
# --step-frame / --step-cmd, run between two pushes) takes a path's link
# down or up in its own namespace (ip link set DEV down), writing both
# counters just before and just after.
#   paths-tcp  1920x1080 GRAY8 at 50 fps (829 Mbit/s) over TCP, 4 units,
#              path A 300 Mbit/s and path B 700 Mbit/s, 10 s: byte-exact,
#              no stall (no 500 ms without a frame), each path carries
#              >= 10 % of the bytes (the units are spread); the balancing
#              (rows shared by the units' rates): >= 85 % of the frames,
#              latency p50 <= 40 ms, path A's share of the bytes within
#              0.15-0.45 (the benchmark's bar: 95 %, 25 ms, 0.24-0.36):
#              tilesink shares each frame's rows by the units' TCP
#              delivery rates (balanced tiles)
#   paths-udp  the same over UDP (frames: whole ones): each unit stripes
#              its datagrams over both paths, by shares learnt from the
#              receiver's feedback per path
#   redundant-udp  1280x720 GRAY8 at 30 fps (221 Mbit/s) over UDP, 20 s,
#              two 700 Mbit/s paths, tilesrc redundant=true (everything over
#              each path); path B's link goes down at 8 s and up at 14 s:
#              no partial or incomplete frame, >= 99 % of the frames, no
#              time between two frames over 100 ms, each path carried
#              >= 10 % of the bytes before the failure
#   redundant-udp-control  the same with path A (the control connection's)
#              going down and up
#   redundant-tcp, redundant-tcp-control  the same two over TCP (each unit
#              a connection on each path, each tile over both: the first
#              copy is kept, the others counted in tiles-duplicate)
#   redundant-udp-flap  the same, 28 s: path B down at 5 s and up at 11 s,
#              then path A down at 17 s and up at 23 s (path B's
#              connection, silent while its link was down, must carry the
#              session again); redundant-tcp-flap, the same over TCP, runs
#              by name
#   paths-flap-tcp  the same, path B down at 4 s, up at 7 s, down at 10 s
#              and up at 13 s (the first outage's bytes checked as
#              paths-down-tcp's): no frame cut, no reconnect
#   paths-down-tcp  1280x720 GRAY8 at 30 fps over TCP, 20 s, two 700 Mbit/s
#              paths, balanced tiles; path B's link goes down at 5 s and up
#              at 10 s: no frame pushed partial (frames may be dropped:
#              >= 95 % arrive), no time between two frames over 500 ms (the
#              rows move to path A), no reconnect, path B carries >= 10 %
#              again after it is back, each path >= 10 % before the
#              failure
#   paths-down-udp  the same over UDP (striped datagrams: the failed path's
#              share moves to path A; frames pushed partial fail it too)
#   paths-down-udp-control  the same with path A (the control
#              connection's) going down and up; not in the default list
#   paths-flap-udp  paths-flap-tcp over UDP; not in the default list
# BC_NETNS_PATHS_HOST=a|b gives tilesrc only path A's (or B's) address and
# no redundant=true: the harness itself with a tilesrc before issue 37 (the
# topology, the counters, the link steps; the spread check then fails).
# check_paths_test.py (the meson test netns-paths-check) holds check.py's
# paths checks to crafted JSON.
# With --retransmit false every UDP scenario runs with retransmit=false at
# both ends (lost datagrams concealed, not asked for), and its loss is checked as for
# conceal-5. --fec VALUE sets tilesink's fec (off, auto, or a percentage)
# in the UDP pairs (default: tilesink's default, auto; off where
# retransmit is false, conceal-5 and --retransmit false, unless given); --drop PCT drops
# PCT % instead of loss-1's, loss-5's and conceal-5's own (measurements;
# check.py's expectations are those of the scenario's own loss).
# The loss and tbf scenarios use protocol=udp, or the protocol given with
# --protocol (--protocol tcp runs them all over TCP: the drop rule then
# matches TCP, which retransmits; useful to prove the harness). A scenario
# whose tilesink cannot start with its settings fails. The loss scenarios make the sender's veth segment UDP
# GSO batches (see set_segment), so the drop rule drops datagrams; so do
# the multicast ones (on the sender's veth to the bridge). The multicast
# scenarios are UDP whatever --protocol says.
#
# meson registers this as the test 'netns' (suite 'netns'):
#   meson test -C build --suite netns
#
# Needs root: it creates the namespaces and installs nftables and ethtool
# (apt-get) when they are missing. Exits 77 (skipped) when it cannot, except under CI
# (CI set), where that is a failure. Set BC_NETNS_KEEP=1 to keep the JSON
# and logs (their directory is printed).

set -u

here=$(cd "$(dirname "$0")" && pwd)

usage () {
  echo "usage: $0 BUILDDIR [--protocol tcp|udp] [--retransmit true|false] [--fec off|auto|PCT] [--drop PCT] [tcp|loss-0|loss-1|loss-5|conceal-5|tbf|tbf-paced|lat-0|lat-2|slow-tcp|slow-udp|deadline-tcp|step-udp|clean-udp|fair-udp|fair-over|max-rate|vanish|multicast|multicast-ipv6|paths-tcp|paths-udp|redundant-udp|redundant-udp-control|redundant-udp-flap|redundant-tcp|redundant-tcp-control|redundant-tcp-flap|paths-down-tcp|paths-down-tcp-control|paths-down-udp|paths-down-udp-control|paths-flap-tcp|paths-flap-udp ...]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
builddir=$1
shift
lossproto=udp
retransmit=true
fec=
drop_pct=
scenarios=()
while [ $# -gt 0 ]; do
  case $1 in
    --protocol) [ $# -ge 2 ] || usage; lossproto=$2; shift 2 ;;
    --retransmit) [ $# -ge 2 ] || usage; retransmit=$2; shift 2 ;;
    --fec) [ $# -ge 2 ] || usage; fec=$2; shift 2 ;;
    --drop) [ $# -ge 2 ] || usage; drop_pct=$2; shift 2 ;;
    tcp|loss-0|loss-1|loss-5|conceal-5|tbf|tbf-paced|lat-0|lat-2|max-rate|slow-tcp|slow-udp|deadline-tcp|step-udp|clean-udp|fair-udp|fair-over|vanish|multicast|multicast-ipv6)
      scenarios+=("$1"); shift ;;
    # many paths (those not in the default list below run by name only)
    paths-tcp|paths-udp|redundant-udp|redundant-udp-control|redundant-udp-flap|redundant-tcp|redundant-tcp-control|redundant-tcp-flap|paths-down-tcp|paths-down-tcp-control|paths-down-udp|paths-down-udp-control|paths-flap-tcp|paths-flap-udp)
      scenarios+=("$1"); shift ;;
    *) usage ;;
  esac
done
case $lossproto in tcp|udp) ;; *) usage ;; esac
case $retransmit in true|false) ;; *) usage ;; esac
[ ${#scenarios[@]} -gt 0 ] ||
  scenarios=(tcp loss-0 loss-1 loss-5 conceal-5 tbf tbf-paced lat-0 lat-2 slow-tcp slow-udp deadline-tcp step-udp clean-udp fair-udp fair-over max-rate vanish multicast multicast-ipv6 paths-tcp paths-udp redundant-udp redundant-udp-control redundant-udp-flap redundant-tcp redundant-tcp-control paths-down-tcp paths-down-tcp-control paths-down-udp paths-flap-tcp)

skip () {
  if [ -n "${CI:-}" ]; then
    echo "netns: $1; failing instead of skipping under CI" >&2
    exit 1
  fi
  echo "netns: SKIP: $1" >&2
  exit 77
}

fail () {
  echo "netns: FAIL: $1" >&2
  exit 1
}

[ -d "$builddir" ] || fail "no build directory $builddir"
builddir=$(cd "$builddir" && pwd)
checker=$builddir/tests/netns/tile-netns-check
[ -x "$checker" ] || fail "$checker not built (run ninja -C $builddir first)"
ls "$builddir"/gst/tile/libgsttile.* >/dev/null 2>&1 ||
  fail "the tile plugin is not built in $builddir/gst/tile"

# ---- tools ----

[ "$(id -u)" -eq 0 ] || skip "needs root to create network namespaces (uid $(id -u))"

apt_install () {
  # $1: package; quiet unless it fails
  local log
  log=$(mktemp)
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$1" >"$log" 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get update >>"$log" 2>&1
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$1" >>"$log" 2>&1; then
      tail -5 "$log" >&2
      rm -f "$log"
      return 1
    fi
  fi
  rm -f "$log"
}

PATH=$PATH:/usr/sbin:/sbin
if ! command -v ip >/dev/null || ! command -v tc >/dev/null; then
  command -v apt-get >/dev/null || skip "no ip/tc and no apt-get"
  echo "netns: installing iproute2" >&2
  apt_install iproute2 || skip "cannot install iproute2"
fi
if ! command -v ethtool >/dev/null && command -v apt-get >/dev/null; then
  echo "netns: installing ethtool" >&2
  apt_install ethtool || echo "netns: note: no ethtool" >&2
fi
if ! command -v nft >/dev/null; then
  command -v apt-get >/dev/null || skip "no nft and no apt-get"
  echo "netns: installing nftables" >&2
  apt_install nftables || skip "cannot install nftables"
fi
if ! command -v iperf3 >/dev/null; then
  command -v apt-get >/dev/null || skip "no iperf3 and no apt-get"
  echo "netns: installing iperf3" >&2
  apt_install iperf3 || skip "cannot install iperf3"
fi
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3) || skip "no python3"
command -v timeout >/dev/null || skip "no timeout (coreutils)"

# ---- the namespaces ----

tag=$$
ns_tx=gstbc-$tag-tx
ns_rx=gstbc-$tag-rx
# a /30 in 10.x picked from the pid
o2=$(( 64 + (tag / 64) % 128 ))
o3=$(( (tag / 8192) % 256 ))
o4=$(( (tag % 64) * 4 ))
addr_tx=10.$o2.$o3.$(( o4 + 1 ))
addr_rx=10.$o2.$o3.$(( o4 + 2 ))
work=$(mktemp -d "${TMPDIR:-/tmp}/gstbc-netns.XXXXXX")
pids=()
made_ns=()

# forget_pid PID: a process waited for, no longer for cleanup to kill (a
# whole entry: a pattern substitution would cut a pid out of a longer one)
forget_pid () {
  local p keep=()
  for p in "${pids[@]}"; do
    [ "$p" = "$1" ] || keep+=("$p")
  done
  pids=("${keep[@]}")
}

cleanup () {
  local p n
  for p in "${pids[@]}"; do
    kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
  done
  for n in "${made_ns[@]}"; do
    ip netns del "$n" 2>/dev/null
  done
  if [ -n "${BC_NETNS_KEEP:-}" ]; then
    echo "netns: logs and JSON kept in $work" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! err=$(ip netns add "$ns_tx" 2>&1); then
  skip "cannot create a network namespace (ip netns add: $err); needs root with CAP_NET_ADMIN and CAP_SYS_ADMIN"
fi
made_ns+=("$ns_tx")
ip netns add "$ns_rx" || fail "ip netns add $ns_rx"
made_ns+=("$ns_rx")
# made straight inside the namespaces: no name in the host's namespace
if ! err=$(ip link add name veth-tx netns "$ns_tx" type veth peer name veth-rx netns "$ns_rx" 2>&1); then
  skip "cannot create a veth pair ($err)"
fi
ip -n "$ns_tx" addr add "$addr_tx/30" dev veth-tx || fail "ip addr add"
ip -n "$ns_rx" addr add "$addr_rx/30" dev veth-rx || fail "ip addr add"
for n in "$ns_tx" "$ns_rx"; do
  ip -n "$n" link set lo up || fail "ip link set lo up"
done
have_ethtool=0
command -v ethtool >/dev/null && have_ethtool=1
ip -n "$ns_tx" link set veth-tx up || fail "ip link set up"
ip -n "$ns_rx" link set veth-rx up || fail "ip link set up"
if command -v ping >/dev/null; then
  ip netns exec "$ns_tx" ping -c 1 -W 2 "$addr_rx" >/dev/null 2>&1 ||
    fail "no ping answer over the veth pair"
fi
echo "netns: namespaces $ns_tx ($addr_tx) and $ns_rx ($addr_rx), logs in $work" >&2

# the build tree's plugins, a registry of our own
export GST_PLUGIN_PATH_1_0=$builddir/gst
export GST_PLUGIN_PATH=$builddir/gst
export GST_REGISTRY_1_0=$work/registry.bin
export GST_REGISTRY=$work/registry.bin
unset GST_PLUGIN_SYSTEM_PATH_1_0 GST_PLUGIN_SYSTEM_PATH
export GST_REGISTRY_FORK=no

# ---- can tilesink start with a scenario's settings? ----

# A sender that does not start with a scenario's settings fails the
# scenario (the probe says why).
probe () {
  # probe PROTO [SENDER ARGS...]: prints the reason, returns 77 if it does not start
  local proto=$1 out rc
  shift
  out=$(ip netns exec "$ns_tx" "$checker" --probe --protocol "$proto" \
    --address "$txbind" "$@" 2>&1)
  rc=$?
  echo "$out" | tail -1
  return $rc
}

# ---- scenarios ----

port=$(( 20000 + tag % 20000 ))
segment=0
pair_retransmit=$retransmit
results=()
failed=0
checkargs=()
cross=0
rxargs=()
units=4
tbf_spec="rate 5gbit burst ${BC_NETNS_TBF_BURST:-128kb} latency 2ms"
# where the sender listens, the receiver's host (see paths_setup)
txbind=$addr_tx
rxhost=$addr_tx

# ---- two paths (issue 37): a second veth pair ----

# Path A is the veth pair above (veth-tx / veth-rx, $addr_tx / $addr_rx),
# path B a second pair between the same namespaces on another /30. Each
# subnet is directly connected: what goes to the receiver's address on a
# path leaves by that path's veth, from the sender's address on it. Made
# once, by the first paths scenario; gone with the namespaces.
addr_txb=10.$o2.$(( o3 ^ 32 )).$(( o4 + 1 ))
addr_rxb=10.$o2.$(( o3 ^ 32 )).$(( o4 + 2 ))
paths=0
paths_ready=0
paths_why=
tbf_spec_b=

# paths_setup RATE_A RATE_B: the second path (once), a tbf of RATE_A on
# veth-tx and one of RATE_B on veth-txb for the next run_pair (256 KB
# burst, 20 ms queue, as clean-udp's), the sender listening on 0.0.0.0 and
# the receiver given both addresses (BC_NETNS_PATHS_HOST=a|b: only one).
# Not in a subshell (paths_ready); says why it cannot in paths_why.
paths_setup () {
  local err
  if [ $paths_ready = 0 ]; then
    [ -n "$paths_why" ] && return 1
    err=$(ip link add name veth-txb netns "$ns_tx" type veth peer name \
      veth-rxb netns "$ns_rx" 2>&1) ||
      { paths_why="ip link add veth-txb: $err"; return 1; }
    ip -n "$ns_tx" addr add "$addr_txb/30" dev veth-txb &&
      ip -n "$ns_rx" addr add "$addr_rxb/30" dev veth-rxb &&
      ip -n "$ns_tx" link set veth-txb up &&
      ip -n "$ns_rx" link set veth-rxb up ||
      { paths_why="cannot set up veth-txb / veth-rxb"; return 1; }
    if command -v ping >/dev/null &&
        ! ip netns exec "$ns_tx" ping -c 1 -W 2 "$addr_rxb" >/dev/null 2>&1; then
      paths_why="no ping answer over path B"
      return 1
    fi
    paths_ready=1
    echo "netns: two paths: A $addr_tx - $addr_rx (veth-tx - veth-rx), B $addr_txb - $addr_rxb (veth-txb - veth-rxb)" >&2
  fi
  tbf_spec="rate $1 burst 256kb latency 20ms"
  tbf_spec_b="rate $2 burst 256kb latency 20ms"
  paths=1
  txbind=0.0.0.0
  case ${BC_NETNS_PATHS_HOST:-} in
    a|A) rxhost=$addr_tx ;;
    b|B) rxhost=$addr_txb ;;
    *)   rxhost=$addr_tx,$addr_txb ;;
  esac
}

# paths_bytes [rx]: the bytes each sender-side veth (path A, path B) has
# carried so far, "A,B"; rx: each receiver-side veth (the receiver's
# control messages, ACKs, NACKs)
paths_bytes () {
  if [ "${1:-}" = rx ]; then
    ip netns exec "$ns_rx" cat /sys/class/net/veth-rx/statistics/tx_bytes \
      /sys/class/net/veth-rxb/statistics/tx_bytes | paste -sd,
  else
    ip netns exec "$ns_tx" cat /sys/class/net/veth-tx/statistics/tx_bytes \
      /sys/class/net/veth-txb/statistics/tx_bytes | paste -sd,
  fi
}

# paths_step down|up DEV FILE: a --step-cmd (the sender runs it, in its
# namespace, waiting for it: two processes, sh and ip, a few ms) that takes
# DEV down or up, and writes both counters to FILE just before (its first
# line) and just after (its second line)
paths_step () {
  local p=/sys/class/net
  echo "sh -c 'read a <$p/veth-tx/statistics/tx_bytes && read b <$p/veth-txb/statistics/tx_bytes && ip link set $2 $1 && read c <$p/veth-tx/statistics/tx_bytes && read d <$p/veth-txb/statistics/tx_bytes && printf \"%s,%s\\n%s,%s\\n\" \$a \$b \$c \$d >$3'"
}

# paths_diff FILE0 LINE0 FILE1 LINE1: what each path carried from one
# snapshot (line LINE0 of FILE0) to another, "A,B"
paths_diff () {
  local a0 b0 a1 b1
  IFS=, read -r a0 b0 < <(sed -n "$2p" "$1") &&
    IFS=, read -r a1 b1 < <(sed -n "$4p" "$3") || return 1
  echo "$(( a1 - a0 )),$(( b1 - b0 ))"
}

reset_net () {
  ip netns exec "$ns_rx" nft flush ruleset
  tc -n "$ns_tx" qdisc del dev veth-tx root 2>/dev/null
  # (a paths scenario takes a link down; it comes back for the next one)
  ip -n "$ns_tx" link set veth-tx up
  if [ $paths_ready = 1 ]; then
    tc -n "$ns_tx" qdisc del dev veth-txb root 2>/dev/null
    ip -n "$ns_tx" link set veth-txb up
  fi
  return 0
}

# segment 1|0: where UDP GSO batches become datagrams. A NIC puts single
# datagrams on the wire even when tilesink sends with UDP GSO, but a veth
# carries a whole GSO batch (up to 64 datagrams) to the other namespace as
# one packet, where the drop rule would drop the whole batch. With 1, the
# sender's veth segments (tx-udp-segmentation off), so the drop rule sees
# datagrams; this costs the sender's CPU. The tbf scenarios keep the
# batches (0): on 2 cores the segmenting sender cannot offer more than the
# 5 Gbit/s bottleneck, and a tail-drop queue drops bursts anyway.
# BC_NETNS_SEGMENT=0|1 forces either.
set_segment () {
  local want=${BC_NETNS_SEGMENT:-$1}
  if [ $have_ethtool = 0 ]; then
    [ "$want" = 1 ] && echo "netns: note: no ethtool: UDP GSO batches cross the veth whole, drops hit whole batches" >&2
    return 0
  fi
  ip netns exec "$ns_tx" ethtool -K veth-tx tx-udp-segmentation \
    "$([ "$want" = 1 ] && echo off || echo on)" ||
    fail "ethtool -K veth-tx tx-udp-segmentation"
  segment=$want
}

# add_drop N PROTO [NS]: drop N % of the PROTO packets arriving in the
# receiver's namespace (or in NS)
add_drop () {
  ip netns exec "${3:-$ns_rx}" nft -f - <<EOF || fail "nft: cannot add the drop rule"
table inet gstbc {
  chain in {
    type filter hook input priority 0; policy accept;
    meta l4proto $2 numgen random mod 100 < $1 counter drop
  }
}
EOF
}

# nft_dropped [NS]: the packets the drop rule dropped
nft_dropped () {
  ip netns exec "${1:-$ns_rx}" nft list table inet gstbc 2>/dev/null |
    sed -n 's/.*counter packets \([0-9]*\) .*/\1/p' | head -1
}

# a 5 Gbit/s bottleneck on the sender's veth
add_tbf () {
  tc -n "$ns_tx" qdisc add dev veth-tx root tbf $tbf_spec 2>"$work/tbf.err" ||
    skip "no tbf qdisc: $(cat "$work/tbf.err")"
}

tbf_dropped () {
  tc -n "$ns_tx" -s qdisc show dev "${1:-veth-tx}" |
    sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -1
}

# run_pair NAME PROTO DROP TBF SEGMENT FRAMES FPS WIDTH HEIGHT [SENDER ARGS...]
run_pair () {
  local name=$1 proto=$2 drop=$3 tbf=$4 seg=$5 frames=$6 fps=$7 w=$8 h=$9
  shift 9
  local txpid rxrc txrc i why nftd= tbfd= rt=$pair_retransmit
  local common=(--port "$port" --protocol "$proto" --frames "$frames"
                --fps "$fps" --width "$w" --height "$h" --units "$units")
  local rxprops=()

  # UDP retransmission (NACKs) is on at both ends by default; off, the
  # receiver conceals the lost datagrams as before it
  if [ "$proto" = udp ] && [ "$rt" = false ]; then
    set -- "$@" --sink-prop retransmit=false
    rxprops=(--src-prop retransmit=false)
  fi
  [ "$proto" = udp ] || rt=false
  # forward error correction (--fec); without retransmission (conceal-5,
  # --retransmit false) off unless asked for: those check the concealment
  local pfec=$fec
  [ "$rt" = false ] && [ -z "$pfec" ] && pfec=off
  if [ "$proto" = udp ] && [ -n "$pfec" ]; then
    set -- "$@" --sink-prop fec="$pfec"
  fi
  # a long run has longer timeouts: the run's length and the usual margin
  local secs=$(( frames / fps ))
  local rxto=$(( secs + 20 > 30 ? secs + 20 : 30 ))
  local txto=$(( rxto + 10 ))

  why=$(probe "$proto" "$@")
  case $? in
    0) ;;
    *)
      echo "netns: --- $name: FAIL: the tilesink probe failed: $why" >&2
      results+=("FAIL $name (probe)")
      failed=1
      return 0 ;;
  esac

  reset_net
  set_segment "$seg"
  [ "$drop" -gt 0 ] && add_drop "$drop" "$proto"
  [ "$tbf" = 1 ] && add_tbf
  if [ "$paths" = 1 ]; then
    tc -n "$ns_tx" qdisc add dev veth-txb root tbf $tbf_spec_b \
      2>"$work/tbf.err" || skip "no tbf qdisc: $(cat "$work/tbf.err")"
  fi
  echo "netns: --- $name: $proto, ${w}x$h BC1 at $fps fps, $frames frames, drop $drop %$([ "$proto" = udp ] && echo ", retransmit $rt")$([ "$tbf" = 1 ] && echo ", tbf $tbf_spec")$([ "$paths" = 1 ] && echo " on path A, tbf $tbf_spec_b on path B, tilesrc host=$rxhost${rxargs[*]:+ ${rxargs[*]}}")$([ "$segment" = 1 ] && echo ', segmented on the veth')${*:+, $*}" >&2

  # cross traffic (cross=1): one iperf3 TCP flow through the same
  # bottleneck, from a second before the stream to after it
  local cpid= cspid=
  if [ "$cross" = 1 ]; then
    ip netns exec "$ns_rx" iperf3 -s -1 -p "$(( port + 9000 ))" \
      >"$work/$name.iperf-s.log" 2>&1 &
    cspid=$!
    pids+=("$cspid")
    for i in $(seq 100); do
      ip netns exec "$ns_rx" ss -Hltn "sport = :$(( port + 9000 ))" 2>/dev/null | grep -q . && break
      sleep 0.05
    done
    ip netns exec "$ns_tx" iperf3 -c "$addr_rx" -p "$(( port + 9000 ))" \
      -t "$(( secs + 3 ))" -J >"$work/$name.iperf.json" 2>&1 &
    cpid=$!
    pids+=("$cpid")
    sleep 1
    checkargs+=(--cross-json "$work/$name.iperf.json" --cross-from 1.5
                --cross-to "$secs")
  fi

  if [ "$paths" = 1 ]; then
    paths_bytes >"$work/$name.paths-start"
    paths_bytes rx >"$work/$name.paths-rx-start"
  fi
  timeout $(( txto + 20 )) ip netns exec "$ns_tx" "$checker" --send --address "$txbind" \
    "${common[@]}" --wait 20 --timeout "$txto" "$@" \
    >"$work/$name.tx.json" 2>"$work/$name.tx.log" &
  txpid=$!
  pids+=("$txpid")
  # wait for it to listen
  for i in $(seq 100); do
    ip netns exec "$ns_tx" ss -Hltn "sport = :$port" 2>/dev/null | grep -q . && break
    kill -0 "$txpid" 2>/dev/null || break
    sleep 0.05
  done
  timeout $(( txto + 20 )) ip netns exec "$ns_rx" "$checker" --receive --host "$rxhost" \
    "${common[@]}" --timeout "$rxto" "${rxargs[@]}" "${rxprops[@]}" \
    >"$work/$name.rx.json" 2>"$work/$name.rx.log"
  rxrc=$?
  wait "$txpid"
  txrc=$?
  forget_pid "$txpid"
  if [ -n "$cpid" ]; then
    wait "$cpid"
    forget_pid "$cpid"
    kill "$cspid" 2>/dev/null
    wait "$cspid" 2>/dev/null
    forget_pid "$cspid"
  fi
  [ "$drop" -gt 0 ] && nftd=$(nft_dropped)
  [ "$tbf" = 1 ] && tbfd=$(tbf_dropped)
  # for the record (BC_NETNS_KEEP): the qdisc's counters and the receiver's
  # UDP counters
  tc -n "$ns_tx" -s qdisc show dev veth-tx >"$work/$name.tc" 2>&1
  ip netns exec "$ns_rx" grep '^Udp:' /proc/net/snmp >"$work/$name.snmp" 2>&1
  port=$(( port + 1 ))
  # two paths: what each sender-side veth carried in the run, before the
  # step that took a link down (paths-down), after the one that brought it
  # back (paths-up); the tbf drops of path B
  if [ "$paths" = 1 ]; then
    tc -n "$ns_tx" -s qdisc show dev veth-txb >>"$work/$name.tc" 2>&1
    paths_bytes >"$work/$name.paths-end"
    paths_bytes rx >"$work/$name.paths-rx-end"
    local pb
    local w=$work/$name.paths
    pb=$(paths_diff "$w-start" 1 "$w-end" 1) &&
      checkargs+=(--path-bytes "$pb")
    pb=$(paths_diff "$w-rx-start" 1 "$w-rx-end" 1) &&
      checkargs+=(--path-bytes-rx "$pb")
    if [ -s "$w-down" ]; then
      pb=$(paths_diff "$w-start" 1 "$w-down" 1) &&
        checkargs+=(--path-bytes-before "$pb")
      if [ -s "$w-up" ]; then
        pb=$(paths_diff "$w-down" 2 "$w-up" 1)
      else
        pb=$(paths_diff "$w-down" 2 "$w-end" 1)
      fi && checkargs+=(--path-bytes-during "$pb")
    fi
    [ -s "$w-up" ] && pb=$(paths_diff "$w-up" 2 "$w-end" 1) &&
      checkargs+=(--path-bytes-after "$pb")
    tbfd="${tbfd:-?}/$(tbf_dropped veth-txb)"
  fi

  "$python" "$here/check.py" --name "$name" --protocol "$proto" \
    --drop "$drop" --tbf "$tbf" --frames "$frames" --retransmit "$rt" \
    --paced "$([ "$name" = tbf-paced ] && echo 1 || echo 0)" \
    --tx "$work/$name.tx.json" --rx "$work/$name.rx.json" \
    --tx-rc "$txrc" --rx-rc "$rxrc" \
    --nft-dropped "${nftd:-}" --tbf-dropped "${tbfd:-}" \
    --tx-log "$work/$name.tx.log" --rx-log "$work/$name.rx.log" \
    "${checkargs[@]}" >&2
  if [ $? -eq 0 ]; then
    results+=("PASS $name")
  else
    results+=("FAIL $name")
    failed=1
  fi
}

# vanish: the receiver's host goes away without a word (its link down for
# good, then the process killed: its FIN or RST cannot leave); the sender
# must end the session on its own (tilesink timeout), or the next receiver,
# on another host and not retrying, is refused as busy.
run_vanish () {
  local txpid rx1pid t0 t1 rc i ns_rx2=gstbc-$tag-rx2
  local addr_tx2=10.$o2.$(( o3 ^ 128 )).$(( o4 + 1 ))
  local addr_rx2=10.$o2.$(( o3 ^ 128 )).$(( o4 + 2 ))
  local src="videotestsrc is-live=true num-buffers=900 ! video/x-raw,width=640,height=352,framerate=30/1 ! bc1enc"

  reset_net
  # the second receiver's host: a third namespace with its own link
  ip netns add "$ns_rx2" || fail "ip netns add $ns_rx2"
  made_ns+=("$ns_rx2")
  ip link add name veth-tx2 netns "$ns_tx" type veth peer name veth-rx2 \
    netns "$ns_rx2" || fail "ip link add veth-tx2"
  ip -n "$ns_tx" addr add "$addr_tx2/30" dev veth-tx2 || fail "ip addr add"
  ip -n "$ns_rx2" addr add "$addr_rx2/30" dev veth-rx2 || fail "ip addr add"
  ip -n "$ns_rx2" link set lo up || fail "ip link set lo up"
  ip -n "$ns_tx" link set veth-tx2 up || fail "ip link set up"
  ip -n "$ns_rx2" link set veth-rx2 up || fail "ip link set up"
  echo "netns: --- vanish: tcp, the receiver's link goes down for good and it dies; tilesink timeout=2000; the next receiver on $addr_rx2" >&2
  timeout 60 ip netns exec "$ns_tx" gst-launch-1.0 -q $src ! \
    tilesink host=0.0.0.0 port="$port" timeout=2000 \
    >"$work/vanish.tx.log" 2>&1 &
  txpid=$!
  pids+=("$txpid")
  for i in $(seq 100); do
    ip netns exec "$ns_tx" ss -Hltn "sport = :$port" 2>/dev/null | grep -q . && break
    sleep 0.05
  done
  ip netns exec "$ns_rx" gst-launch-1.0 -q tilesrc host="$addr_tx" \
    port="$port" ! fakesink >"$work/vanish.rx1.log" 2>&1 &
  rx1pid=$!
  pids+=("$rx1pid")
  sleep 3
  ip -n "$ns_rx" link set veth-rx down || fail "ip link set down"
  kill -9 "$rx1pid" 2>/dev/null
  wait "$rx1pid" 2>/dev/null
  t0=$(date +%s%N)
  sleep 4
  timeout 20 ip netns exec "$ns_rx2" gst-launch-1.0 -q tilesrc \
    host="$addr_tx2" port="$port" reconnect=false num-buffers=30 ! \
    fakesink >"$work/vanish.rx2.log" 2>&1
  rc=$?
  t1=$(date +%s%N)
  ip -n "$ns_rx" link set veth-rx up || fail "ip link set up"
  kill "$txpid" 2>/dev/null
  wait "$txpid" 2>/dev/null
  forget_pid "$txpid"
  forget_pid "$rx1pid"
  port=$(( port + 1 ))
  if [ $rc -eq 0 ]; then
    echo "netns: PASS vanish: the next receiver got 30 frames $(( (t1 - t0) / 1000000 )) ms after the first one vanished" >&2
    results+=("PASS vanish")
  else
    echo "netns: FAIL vanish: the next receiver was not served (exit $rc):" >&2
    sed 's/^/    /' "$work/vanish.rx2.log" | tail -8 >&2
    results+=("FAIL vanish")
    failed=1
  fi
}

# ---- multicast: a sender and three receivers on one bridge ----

# The bridge has a namespace of its own (as a switch would be): the sender's
# veth-tx and each receiver's veth-rx are peers of its ports p0-p3. Made
# once, for the first multicast scenario; removed with the others on exit.
ns_mtx=gstbc-$tag-mtx
ns_mbr=gstbc-$tag-mbr
ns_mrx=(gstbc-$tag-m1 gstbc-$tag-m2 gstbc-$tag-m3)
# a /29 and a /64 picked from the pid, and groups picked from it too
mc_net4=10.$o2.$(( o3 ^ 64 ))
mc_host4=$(( (tag % 32) * 8 ))
mc_tx4=$mc_net4.$(( mc_host4 + 1 ))
mc_rx4=("$mc_net4.$(( mc_host4 + 2 ))" "$mc_net4.$(( mc_host4 + 3 ))"
        "$mc_net4.$(( mc_host4 + 4 ))")
mc_net6=fd67:$(printf %x $(( tag >> 16 ))):$(printf %x $(( tag & 65535 )))
mc_tx6=$mc_net6::1
mc_rx6=("$mc_net6::2" "$mc_net6::3" "$mc_net6::4")
mc_group4=239.$(( (tag >> 16) & 255 )).$(( (tag >> 8) & 255 )).$(( tag & 255 ))
mc_group6=ff15::67:$(printf %x $(( tag >> 16 ))):$(printf %x $(( tag & 65535 )))
mc_ready=0
mc_why=

# Not in a subshell (made_ns, mc_ready): says why it cannot in mc_why.
mc_setup () {
  local n i err
  [ $mc_ready = 1 ] && return 0
  [ -n "$mc_why" ] && return 1
  for n in "$ns_mtx" "$ns_mbr" "${ns_mrx[@]}"; do
    err=$(ip netns add "$n" 2>&1) || { mc_why="ip netns add $n: $err"; return 1; }
    made_ns+=("$n")
    ip -n "$n" link set lo up || { mc_why="ip link set lo up in $n"; return 1; }
  done
  err=$(ip -n "$ns_mbr" link add br0 type bridge mcast_snooping 0 2>&1) ||
    { mc_why="cannot make a bridge: $err"; return 1; }
  err=$(ip link add name veth-tx netns "$ns_mtx" type veth peer name p0 \
    netns "$ns_mbr" 2>&1) || { mc_why="ip link add veth-tx: $err"; return 1; }
  for i in 0 1 2; do
    err=$(ip link add name veth-rx netns "${ns_mrx[i]}" type veth peer \
      name p$(( i + 1 )) netns "$ns_mbr" 2>&1) ||
      { mc_why="ip link add veth-rx: $err"; return 1; }
  done
  for i in 0 1 2 3; do
    ip -n "$ns_mbr" link set p$i master br0 up ||
      { mc_why="cannot put p$i on the bridge"; return 1; }
  done
  ip -n "$ns_mbr" link set br0 up || { mc_why="ip link set br0 up"; return 1; }
  ip -n "$ns_mtx" addr add "$mc_tx4/29" dev veth-tx &&
    ip -n "$ns_mtx" addr add "$mc_tx6/64" dev veth-tx nodad &&
    ip -n "$ns_mtx" link set veth-tx up &&
    ip -n "$ns_mtx" route add 224.0.0.0/4 dev veth-tx ||
    { mc_why="cannot set up veth-tx"; return 1; }
  for i in 0 1 2; do
    ip -n "${ns_mrx[i]}" addr add "${mc_rx4[i]}/29" dev veth-rx &&
      ip -n "${ns_mrx[i]}" addr add "${mc_rx6[i]}/64" dev veth-rx nodad &&
      ip -n "${ns_mrx[i]}" link set veth-rx up ||
      { mc_why="cannot set up veth-rx in ${ns_mrx[i]}"; return 1; }
    # the second receiver has no multicast route: it joins on the
    # interface named by its multicast-iface
    if [ $i != 1 ]; then
      ip -n "${ns_mrx[i]}" route add 224.0.0.0/4 dev veth-rx ||
        { mc_why="cannot add the multicast route in ${ns_mrx[i]}"; return 1; }
    fi
  done
  mc_ready=1
  echo "netns: multicast: $ns_mtx ($mc_tx4, $mc_tx6) and ${ns_mrx[*]} (${mc_rx4[*]}, ${mc_rx6[*]}) on the bridge br0 in $ns_mbr" >&2
}

# run_multicast NAME 4|6: 3 receivers of one group, 2 % UDP dropped at
# the third only
run_multicast () {
  local name=$1 fam=$2 frames=300 fps=60 w=1280 h=720 drop=2
  local group txaddr txpid txrc i why nftd want seg
  local rxpids=() rxrcs=() checkrx=() rxextra
  local common rtx=() rtrx=()
  # retransmission: NACKs, resent to the group (--retransmit false: off)
  if [ "$retransmit" = false ]; then
    rtx=(--sink-prop retransmit=false)
    rtrx=(--src-prop retransmit=false)
  fi

  if ! mc_setup; then
    echo "netns: --- $name: FAIL: no multicast topology: $mc_why" >&2
    results+=("FAIL $name (topology)")
    failed=1
    return 0
  fi
  if [ "$fam" = 6 ]; then
    group=$mc_group6 txaddr=$mc_tx6
  else
    group=$mc_group4 txaddr=$mc_tx4
  fi
  common=(--port "$port" --protocol udp --frames "$frames" --fps "$fps"
          --width "$w" --height "$h" --units "$units")

  why=$(ip netns exec "$ns_mtx" "$checker" --probe --protocol udp \
    --address "$txaddr" --sink-prop "multicast-group=$group" 2>&1)
  if [ $? -ne 0 ]; then
    echo "netns: --- $name: FAIL: the tilesink probe failed: $(echo "$why" | tail -1)" >&2
    results+=("FAIL $name (probe)")
    failed=1
    return 0
  fi

  for i in 0 1 2; do
    ip netns exec "${ns_mrx[i]}" nft flush ruleset
  done
  # the sender's veth segments the UDP GSO batches (see set_segment): the
  # bridge then floods datagrams, and the drop rule drops datagrams
  seg=${BC_NETNS_SEGMENT:-1}
  if [ $have_ethtool = 1 ]; then
    ip netns exec "$ns_mtx" ethtool -K veth-tx tx-udp-segmentation \
      "$([ "$seg" = 1 ] && echo off || echo on)" ||
      fail "ethtool -K veth-tx tx-udp-segmentation"
  else
    seg=0
    echo "netns: note: no ethtool: UDP GSO batches cross the veth whole, drops hit whole batches" >&2
  fi
  add_drop "$drop" udp "${ns_mrx[2]}"
  echo "netns: --- $name: udp multicast to $group from $txaddr, 3 receivers, ${w}x$h BC1 at $fps fps, $frames frames, drop $drop % at the third receiver only$([ "$seg" = 1 ] && echo ', segmented on the veth')" >&2

  timeout 60 ip netns exec "$ns_mtx" "$checker" --send --address "$txaddr" \
    "${common[@]}" --receivers 3 --wait 20 --timeout 40 \
    --sink-prop "multicast-group=$group" "${rtx[@]}" \
    >"$work/$name.tx.json" 2>"$work/$name.tx.log" &
  txpid=$!
  pids+=("$txpid")
  for i in $(seq 100); do
    ip netns exec "$ns_mtx" ss -Hltn "sport = :$port" 2>/dev/null | grep -q . && break
    kill -0 "$txpid" 2>/dev/null || break
    sleep 0.05
  done
  for i in 0 1 2; do
    rxextra=()
    [ $i = 1 ] && rxextra=(--src-prop multicast-iface=veth-rx)
    timeout 60 ip netns exec "${ns_mrx[i]}" "$checker" --receive \
      --host "$txaddr" "${common[@]}" --timeout 30 "${rxextra[@]}" "${rtrx[@]}" \
      >"$work/$name.rx$(( i + 1 )).json" 2>"$work/$name.rx$(( i + 1 )).log" &
    rxpids+=($!)
    pids+=($!)
  done
  for i in 0 1 2; do
    wait "${rxpids[i]}"
    rxrcs+=($?)
    forget_pid "${rxpids[i]}"
  done
  wait "$txpid"
  txrc=$?
  forget_pid "$txpid"
  nftd=$(nft_dropped "${ns_mrx[2]}")
  ip netns exec "${ns_mrx[2]}" nft flush ruleset
  # the control port and the group's ports (one per unit)
  port=$(( port + units + 1 ))

  for i in 0 1 2; do
    want=0
    [ $i = 2 ] && want=$drop
    checkrx+=(--rx "$work/$name.rx$(( i + 1 )).json" --rx-rc "${rxrcs[i]}"
              --rx-log "$work/$name.rx$(( i + 1 )).log" --rx-drop "$want")
  done
  "$python" "$here/check.py" --name "$name" --protocol udp --multicast 3 \
    --retransmit "$retransmit" --frames "$frames" --tx "$work/$name.tx.json" --tx-rc "$txrc" \
    --tx-log "$work/$name.tx.log" "${checkrx[@]}" \
    --nft-dropped "${nftd:-}" >&2
  if [ $? -eq 0 ]; then
    results+=("PASS $name")
  else
    results+=("FAIL $name")
    failed=1
  fi
}

# run_paths NAME RATE_A RATE_B PROTO FRAMES FPS WIDTH HEIGHT [SENDER ARGS...]:
# run_pair over both paths (paths_setup), GRAY8, no drop rule; checkargs,
# rxargs as for run_pair. With BC_NETNS_PATHS_HOST (one path), no
# redundant=true either: a tilesrc before issue 37 has none.
run_paths () {
  local name=$1 ra=$2 rb=$3 proto=$4 frames=$5 fps=$6 w=$7 h=$8
  shift 8
  if ! paths_setup "$ra" "$rb"; then
    echo "netns: --- $name: FAIL: no second path: $paths_why" >&2
    results+=("FAIL $name (topology)")
    failed=1
    return 0
  fi
  if [ -n "${BC_NETNS_PATHS_HOST:-}" ]; then
    local keep=() i
    for (( i = 0; i < ${#rxargs[@]}; i++ )); do
      if [ "${rxargs[i]}" = --src-prop ] &&
          [ "${rxargs[i + 1]:-}" = redundant=true ]; then
        i=$(( i + 1 ))
        continue
      fi
      keep+=("${rxargs[i]}")
    done
    rxargs=("${keep[@]}")
    echo "netns: $name: BC_NETNS_PATHS_HOST=$BC_NETNS_PATHS_HOST: tilesrc host=$rxhost only, no redundant=true (the harness's own check)" >&2
  fi
  rm -f "$work/$name.paths-"*
  run_pair "$name" "$proto" 0 1 0 "$frames" "$fps" "$w" "$h" \
    --format gray8 "$@"
}

# lat-0: the loss-free latency that lat-2 is held to
lat_reference () {
  checkargs=(--save-p50 "$work/lat-0.p50")
  run_pair lat-0 "$lossproto" 0 0 1 150 30 3840 2160
  checkargs=()
}

run_scenario () {
  local s=$1
  case $s in
    tcp)       run_pair tcp tcp 0 0 0 180 60 1920 1080 ;;
    loss-0)    run_pair loss-0 "$lossproto" 0 0 1 180 60 1920 1080 ;;
    loss-1)    run_pair loss-1 "$lossproto" "${drop_pct:-1}" 0 1 180 60 1920 1080 ;;
    loss-5)    run_pair loss-5 "$lossproto" "${drop_pct:-5}" 0 1 180 60 1920 1080 ;;
    conceal-5) pair_retransmit=false
               run_pair conceal-5 "$lossproto" "${drop_pct:-5}" 0 1 180 60 1920 1080 ;;
    tbf)       run_pair tbf "$lossproto" 0 1 0 400 200 3840 2160 ;;
    tbf-paced) run_pair tbf-paced "$lossproto" 0 1 0 400 200 3840 2160 \
                 --max-bitrate 4000000000 ;;
    lat-0)     lat_reference ;;
    lat-2)     [ -f "$work/lat-0.p50" ] || lat_reference
               checkargs=(--ref-p50 "$work/lat-0.p50")
               run_pair lat-2 "$lossproto" 2 0 1 150 30 3840 2160 ;;
    slow-tcp)  tbf_spec="rate 300mbit burst 256kb latency 20ms"
               checkargs=(--slow-link 300000000 --link-queue 20)
               # the transport's latency on the wall clocks both ends
               # share: the sender's clock, followed over the link the
               # stream fills, is off by the TIME answers' wait behind the
               # frames (p50 30-66 ms on it, 30-34 on the wall clocks)
               rxargs=(--src-prop clock=none)
               run_pair slow-tcp tcp 0 1 0 300 60 1920 1080 ;;
    slow-udp)  tbf_spec="rate 300mbit burst 256kb latency 20ms"
               checkargs=(--slow-link 300000000)
               run_pair slow-udp udp 0 1 0 300 60 1920 1080 ;;
    deadline-tcp)
               tbf_spec="rate 300mbit burst 256kb latency 20ms"
               checkargs=(--deadline 60000000 --link 300000000)
               run_pair deadline-tcp tcp 0 1 0 300 60 1920 1080 \
                 --max-in-flight 8 --sink-prop max-latency=60000000 ;;
    step-udp)  tbf_spec="rate 300mbit burst 256kb latency 20ms"
               checkargs=(--count-from 300)
               rxargs=(--count-from 300)
               run_pair step-udp udp 0 1 0 600 60 1920 1080 \
                 --step-frame 180 --step-cmd \
                 "tc -n $ns_tx qdisc change dev veth-tx root tbf rate 800mbit burst 256kb latency 20ms" ;;
    clean-udp) tbf_spec="rate 700mbit burst 256kb latency 20ms"
               # the gap bound is known failing now and then (a sender
               # stall of 15-40 ms, see README): reported, not failed;
               # BC_NETNS_CLEAN_GAP=1 makes it fail
               checkargs=(--clean 1.5
                          --clean-gap-known "$(( ${BC_NETNS_CLEAN_GAP:-0} ? 0 : 1 ))")
               run_pair clean-udp udp 0 1 0 ${BC_NETNS_CLEAN_FRAMES:-360} 30 \
                 1280 720 --format gray8 ;;
    fair-udp)  tbf_spec="rate 300mbit burst 256kb latency 20ms"
               cross=1
               checkargs=(--cross-frames 0.9 --cross-p50 60 --link 300000000)
               run_pair fair-udp udp 0 1 0 ${BC_NETNS_FAIR_FRAMES:-300} 30 \
                 1280 360 --format gray8 ;;
    fair-over) tbf_spec="rate 300mbit burst 256kb latency 20ms"
               cross=1
               checkargs=(--cross-share 0.3 --link 300000000)
               run_pair fair-over udp 0 1 0 ${BC_NETNS_FAIR_FRAMES:-600} 60 \
                 1920 540 --format gray8 ;;
    vanish)    run_vanish ;;
    multicast) run_multicast multicast 4 ;;
    multicast-ipv6) run_multicast multicast-ipv6 6 ;;
    paths-tcp|paths-udp)
               # 829 Mbit/s over 300 + 700 Mbit/s: path A's share 0.3
               checkargs=(--paths-balance 0.3 --max-gap 500)
               run_paths "$s" 300mbit 700mbit "${s#paths-}" 500 50 1920 1080 ;;
    redundant-udp|redundant-udp-control|redundant-tcp|redundant-tcp-control)
               # path B (or A, the control connection's) down at 8 s, up
               # at 14 s (the sender runs the steps after frames 240, 420)
               dev=veth-txb down=B proto=${s#redundant-}
               proto=${proto%-control}
               [ "$s" = "redundant-$proto-control" ] && dev=veth-tx down=A
               checkargs=(--paths-redundant 1 --max-gap 100
                          --path-down "$down")
               rxargs=(--src-prop redundant=true)
               run_paths "$s" 700mbit 700mbit "$proto" 600 30 1280 720 \
                 --step-frame 240 --step-cmd \
                 "$(paths_step down "$dev" "$work/$s.paths-down")" \
                 --step-frame 420 --step-cmd \
                 "$(paths_step up "$dev" "$work/$s.paths-up")" ;;
    redundant-udp-flap|redundant-tcp-flap)
               # path B down at 5 s and up at 11 s, then path A (the
               # control connection's) down at 17 s and up at 23 s: path
               # B's connection must carry the session again by then
               proto=${s#redundant-}
               checkargs=(--paths-redundant 1 --max-gap 100)
               rxargs=(--src-prop redundant=true)
               run_paths "$s" 700mbit 700mbit "${proto%-flap}" 840 30 1280 720 \
                 --step-frame 150 --step-cmd \
                 "$(paths_step down veth-txb "$work/$s.flap-1")" \
                 --step-frame 330 --step-cmd \
                 "$(paths_step up veth-txb "$work/$s.flap-2")" \
                 --step-frame 510 --step-cmd \
                 "$(paths_step down veth-tx "$work/$s.flap-3")" \
                 --step-frame 690 --step-cmd \
                 "$(paths_step up veth-tx "$work/$s.flap-4")" ;;
    paths-flap-tcp|paths-flap-udp)
               # path B down at 4 s and up at 7 s, down again at 10 s and
               # up at 13 s: frames never flap between cut and whole
               checkargs=(--paths-down 1 --max-gap 500 --path-down B)
               run_paths "$s" 700mbit 700mbit "${s#paths-flap-}" 600 30 1280 720 \
                 --step-frame 120 --step-cmd \
                 "$(paths_step down veth-txb "$work/$s.paths-down")" \
                 --step-frame 210 --step-cmd \
                 "$(paths_step up veth-txb "$work/$s.paths-up")" \
                 --step-frame 300 --step-cmd \
                 "$(paths_step down veth-txb "$work/$s.flap-3")" \
                 --step-frame 390 --step-cmd \
                 "$(paths_step up veth-txb "$work/$s.flap-4")" ;;
    paths-down-tcp|paths-down-tcp-control|paths-down-udp|paths-down-udp-control)
               # path B (or A, the control connection's) down at 5 s
               # (after frame 150), up at 10 s
               dev=veth-txb down=B
               [ "${s%-control}" != "$s" ] && dev=veth-tx down=A
               checkargs=(--paths-down 1 --max-gap 500 --path-down "$down")
               proto=tcp
               [ "${s#paths-down-udp}" != "$s" ] && proto=udp
               run_paths "$s" 700mbit 700mbit "$proto" 600 30 1280 720 \
                 --step-frame 150 --step-cmd \
                 "$(paths_step down "$dev" "$work/$s.paths-down")" \
                 --step-frame 300 --step-cmd \
                 "$(paths_step up "$dev" "$work/$s.paths-up")" ;;
    max-rate)  checkargs=(--max-rate 1)
               units=2
               run_pair max-rate "$lossproto" 0 0 0 600 1000 3840 2160 \
                 --packet-size 1408 ;;
  esac
}

reset_scenario () {
  checkargs=()
  rxargs=()
  cross=0
  units=4
  paths=0
  tbf_spec_b=
  txbind=$addr_tx
  rxhost=$addr_tx
  pair_retransmit=$retransmit
  tbf_spec="rate 5gbit burst ${BC_NETNS_TBF_BURST:-128kb} latency 2ms"
}

# A scenario that fails runs once more (BC_NETNS_RETRY=0: not): its bounds
# are timings on a machine shared by both ends and everything else, where
# one stall of the host now and then shows as a late frame. A failure
# that repeats fails; both runs are in the log and the summary says so.
for s in "${scenarios[@]}"; do
  n0=${#results[@]}
  f0=$failed
  run_scenario "$s"
  reset_scenario
  new=("${results[@]:n0}")
  if [ "$failed" != "$f0" ] && [ "${BC_NETNS_RETRY:-1}" = 1 ] &&
     ! printf '%s\n' "${new[@]}" | grep -q '(probe)\|(topology)'; then
    echo "netns: $s failed (${new[*]}); running it once more" >&2
    results=("${results[@]:0:n0}")
    failed=$f0
    run_scenario "$s"
    reset_scenario
    for ((i = n0; i < ${#results[@]}; i++)); do
      results[i]="${results[i]} (second run; the first: ${new[*]})"
    done
  fi
done

echo "netns: summary:" >&2
for r in "${results[@]}"; do
  echo "netns:   $r" >&2
done
exit $failed
