#!/usr/bin/env bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
# gst-bc developer entry point: installs what is needed, builds, runs.
#
#   ./dev.sh demo        install dependencies, build, stream test video from
#                        examples/sender to examples/receiver over 127.0.0.1
#                        (tilesink -> tilesrc), then the encode/decode demo
#   ./dev.sh test        install dependencies, build with -Werror, run every test
#   ./dev.sh test-asan   the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   ./dev.sh deps        only install the Debian packages
#   ./dev.sh build       only build (into ./build)
#
# Works on a fresh Debian 12 machine as root or as a user with sudo.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

DEB_PACKAGES=(
  build-essential pkg-config meson ninja-build git
  libglib2.0-dev
  libssl-dev  # OpenSSL's libcrypto: tilesink/tilesrc's passphrase (AES-GCM)
  libsodium-dev  # libsodium: the passphrase's PAKE (CPace on ristretto255)
  libisal-dev  # ISA-L: protocol=udp's forward error correction (Reed-Solomon)
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-gl
  libegl-mesa0 libgl1-mesa-dri  # llvmpipe: headless GL for the glbcupload test
  python3 python3-venv python3-pip
  clang libclang-rt-14-dev
  gdb  # a test that times out waiting for a pipeline prints every thread's stack
  faketime  # libfaketime: the netns-time test's receiver with its clock shifted
  # GObject introspection of libgstbc (GstBc-1.0) and its Python test
  libsnappy-dev  # Snappy: the hap plugin (Hap .mov files)
  gobject-introspection libgirepository1.0-dev python3-gi
  gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
)

log() { printf '\n=== %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

deps() {
  local missing=()
  for p in "${DEB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    log "Debian packages: all present"
    return
  fi
  log "installing Debian packages: ${missing[*]}"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# build DIR [meson options...]
build() {
  local dir=$1; shift
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" --werror "$@"
  else
    meson configure "$dir" --werror "$@" >/dev/null
  fi
  ninja -C "$dir"
}

# The main demo: examples/sender (videotestsrc -> bc1enc -> tilesink) serves
# 1920x1080 30 fps BC1 over 4 TCP connections to examples/receiver (tilesrc
# -> bcdec -> fakesink) on 127.0.0.1 for about 5 s; the receiver prints
# frames/s, Gbit/s and the delivery latency percentiles every second. Then
# the sender is interrupted: its EOS reaches the receiver and both exit.
demo_network() {
  local tmp port="" sender_pid receiver_pid rc=0 frames
  local plugins="$here/build/gst"
  tmp=$(mktemp -d)

  log "demo: sender (videotestsrc -> bc1enc -> tilesink units=4, 1920x1080 30 fps)" \
    "-> receiver (tilesrc -> bcdec -> fakesink) on 127.0.0.1, 5 s"
  # port 0: the sender listens on a free port and prints it
  GST_PLUGIN_PATH="$plugins" "$here/build/examples/sender" \
    --address 127.0.0.1 --port 0 --units 4 \
    --width 1920 --height 1080 --fps 30 --format bc1 >"$tmp/sender.log" 2>&1 &
  sender_pid=$!
  # shellcheck disable=SC2064
  trap "kill $sender_pid 2>/dev/null || true; rm -rf '$tmp'" EXIT
  for _ in $(seq 100); do
    port=$(sed -n 's/^sender: listening on .* port \([0-9]*\):.*/\1/p' \
      "$tmp/sender.log")
    if [ -n "$port" ] || ! kill -0 "$sender_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  if [ -z "$port" ]; then
    cat "$tmp/sender.log" >&2
    echo "demo: the sender did not start" >&2
    return 1
  fi

  # (with pipefail, waiting for the pipeline gives the receiver's status)
  GST_PLUGIN_PATH="$plugins" "$here/build/examples/receiver" \
    --host 127.0.0.1 --port "$port" --no-display 2>&1 | tee "$tmp/receiver.log" &
  receiver_pid=$!
  # shellcheck disable=SC2064
  trap "kill $sender_pid $receiver_pid 2>/dev/null || true; rm -rf '$tmp'" EXIT
  sleep 5
  # the sender sends EOS on SIGINT; tilesink passes it on to the receiver
  kill -INT "$sender_pid" 2>/dev/null || true
  wait "$sender_pid" || rc=$?
  wait "$receiver_pid" || rc=$?
  trap - EXIT

  log "the sender's side (frames sent, dropped, unsent; the latency the receiver reported)"
  cat "$tmp/sender.log"
  frames=$(sed -n 's/^receiver: total: \([0-9]*\) frames.*/\1/p' \
    "$tmp/receiver.log")
  rm -rf "$tmp"
  if [ "$rc" -ne 0 ] || [ "${frames:-0}" -eq 0 ]; then
    echo "demo: sender -> receiver failed (exit status $rc, ${frames:-0} frames)" >&2
    return 1
  fi
}

cmd=${1:-}
case "$cmd" in
  deps)
    deps
    ;;
  build)
    deps
    build build
    ;;
  demo)
    deps
    build build
    demo_network
    log "gst-inspect-1.0 (uninstalled, GST_PLUGIN_PATH=build)"
    GST_PLUGIN_PATH="$here/build" gst-inspect-1.0 bc1enc | sed -n '1,12p'
    for fmt in bc1 ycocg; do
      log "demo: videotestsrc -> ${fmt} encoder -> bcdec, 1920x1080"
      GST_PLUGIN_PATH="$here/build" "$here/build/examples/bc-roundtrip" \
        --format "$fmt" --width 1920 --height 1080 --frames 120
    done
    ;;
  test)
    deps
    build build
    log "unit, element and interop tests"
    meson test -C build --print-errorlogs --num-processes 2
    ;;
  test-asan)
    deps
    # (no introspection: g-ir-scanner would run its instrumented dumper)
    build build-asan -Db_sanitize=address,undefined -Db_lundef=false \
      -Dbuildtype=debug -Dintrospection=disabled
    log "tests under AddressSanitizer + UndefinedBehaviorSanitizer"
    # Plugins are scanned in-process (the scanner helper is not
    # instrumented), and only the GStreamer plugins the tests use and ours
    # are loaded, so reports are about our code; any report fails the test.
    # (All of gst-plugins-base would register ~2000 GLib quarks; past 2048
    # GLib abandons its first quark block by design, which LeakSanitizer
    # reports and no suppression can tell from our leaks: GLib has no frame
    # pointers.) The screenshot suite is left out: it runs Xvfb and
    # glimagesink on the X server's GL (Mesa's GLX), outside what the
    # whitelist and the suppressions cover; glbcupload itself runs under
    # the sanitizers in its element test.
    # GST_PLUGIN_LOADING_WHITELIST entries are package[@file-prefix],
    # separated by ':'; system plugins are listed by file, under both
    # spellings of the multiarch directory (/lib is /usr/lib here).
    wl=gst-bc
    for d in "/usr/lib/$(gcc -print-multiarch)/gstreamer-1.0" \
        "/lib/$(gcc -print-multiarch)/gstreamer-1.0"; do
      wl="$wl:gstreamer@$d/libgstcoreelements.so"
      for p in app videotestsrc videoconvertscale opengl playback \
          typefindfunctions; do
        wl="$wl:gst-plugins-base@$d/libgst$p.so"
      done
      # qtmux/qtdemux: the Hap .mov test (elements_hap)
      wl="$wl:gst-plugins-good@$d/libgstisomp4.so"
    done
    asan_test() {
      GST_REGISTRY_FORK=no \
      GST_PLUGIN_LOADING_WHITELIST="$wl" \
      ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1 \
      LSAN_OPTIONS=suppressions="$here/tests/lsan.supp":print_suppressions=0 \
      UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        meson test -C build-asan --print-errorlogs --num-processes 2 \
          --timeout-multiplier 4 "$@"
    }
    # The examples suite (examples/av-sync: Opus, RTP, UDP and audio
    # plugins outside the whitelist) is left out too: the library code it
    # runs is the element tests'.
    if ! asan_test --no-suite interop --no-suite fuzz --no-suite netns \
        --no-suite screenshot --no-suite install --no-suite gi --no-suite hap \
        --no-suite docs --no-suite examples; then
      # LeakSanitizer itself can fail: its tracer thread, stopping the
      # test's threads to scan them (llvmpipe's among them), dies ("Tracer
      # caught signal 11 ... LeakSanitizer has encountered a fatal error").
      # That is no finding about our code (a leak reads "ERROR:
      # LeakSanitizer: detected memory leaks"): a test that failed that way
      # and only that way runs once more. Any other failure stands.
      retry=$(python3 - build-asan/meson-logs/testlog.json <<'PYEOF'
import json
import sys

retry, other = [], []
for line in open(sys.argv[1]):
    t = json.loads(line)
    if t.get("result") in ("OK", "SKIP", "EXPECTEDFAIL"):
        continue
    out = (t.get("stdout") or "") + (t.get("stderr") or "")
    name = t["name"].split(" / ", 1)[-1]
    if ("LeakSanitizer has encountered a fatal error" in out
            and "ERROR: LeakSanitizer: detected memory leaks" not in out
            and "ERROR: AddressSanitizer" not in out
            and "runtime error:" not in out):
        retry.append(name)
    else:
        other.append(name)
print(" ".join(retry) if retry and not other else "")
PYEOF
      )
      [ -n "$retry" ] || exit 1
      log "LeakSanitizer's own crash in: $retry; once more"
      # shellcheck disable=SC2086
      asan_test $retry
    fi
    ;;
  *)
    sed -n '5,15p' "$0"
    exit 2
    ;;
esac
