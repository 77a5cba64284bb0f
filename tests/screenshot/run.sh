#!/usr/bin/env bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The screenshot test: examples/sender streams a known picture
# (videotestsrc pattern=colors, 640x360, BC1, 4 units) over 127.0.0.1 to
# `examples/receiver --gl`, which shows it with
# tilesrc ! glbcupload ! glimagesink in an Xvfb X server (GLX or EGL on
# Mesa llvmpipe). The screen is captured with xwd and the video area
# compared with bcdec's CPU decoding of the same frame
# (videotestsrc ! bc1enc ! bcdec): the RGB PSNR must be at least
# MIN_PSNR dB. glbcupload decodes through the texture units, which S3TC
# lets round interpolated values their own way (llvmpipe and GPUs keep
# within 2 LSB of bcdec: about 45 dB and more; a flipped, shifted,
# mis-scaled or mis-coloured picture gives less than 25 dB). The receiver
# must also report zero-copy frames and no copied frames.
#
#   tests/screenshot/run.sh BUILD_DIR [--save-png FILE]
#
# Needs Xvfb (xvfb) and xwd (x11-apps), and gdb for the backtraces of a
# process that hangs: installed with apt-get when missing and root (or sudo
# without a password). Exits 77 (skipped) only when Xvfb cannot be
# installed or started, saying so; under CI (CI set) that is a failure
# too. Every step has a deadline (the whole test takes a few seconds).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run.sh BUILD_DIR [--save-png FILE]}" && pwd)
shift
save=()
if [ "${1:-}" = "--save-png" ]; then
  save=(--save-png "$(realpath -m "$2")")
fi

WIDTH=640
HEIGHT=360
PATTERN=colors
MIN_PSNR=40
# frames shown before the screen is captured
SETTLE_FRAMES=30

skip() {
  if [ -n "${CI:-}" ]; then
    echo "screenshot: FAIL (CI): $*" >&2
    exit 1
  fi
  echo "screenshot: SKIP: $*"
  exit 77
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    return 1
  fi
}

# Xvfb and xwd; gdb for the backtraces of a process that hangs (below)
if ! command -v Xvfb >/dev/null || ! command -v xwd >/dev/null \
    || ! command -v gdb >/dev/null; then
  echo "screenshot: installing xvfb, x11-apps (xwd) and gdb with apt-get"
  pkgs=(xvfb x11-apps xauth gdb)
  if ! { as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
          --no-install-recommends "${pkgs[@]}" >/dev/null 2>&1 \
        || { as_root apt-get update -q >/dev/null 2>&1 \
          && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
            --no-install-recommends "${pkgs[@]}" >/dev/null 2>&1; }; }; then
    if ! command -v Xvfb >/dev/null || ! command -v xwd >/dev/null; then
      skip "Xvfb or xwd is missing and cannot be installed" \
        "(apt-get install xvfb x11-apps needs root or sudo)"
    fi
    echo "screenshot: gdb cannot be installed: no backtraces on a hang"
  fi
fi

for f in "$build/examples/sender" "$build/examples/receiver"; do
  [ -x "$f" ] || { echo "screenshot: $f is not built" >&2; exit 1; }
done

tmp=$(mktemp -d)
pids=()

# Every step has a deadline, so that a hang ends the test well within
# meson's timeout with the logs, and the threads and backtraces of the
# process that hung, instead of a bare timeout.
note() {
  echo "screenshot: [${SECONDS}s] $*"
}

dump_logs() {
  local f
  for f in xvfb sender receiver; do
    if [ -s "$tmp/$f.log" ]; then
      echo "--- $f.log (last 40 lines)" >&2
      tail -n 40 "$tmp/$f.log" >&2
    fi
  done
}

fail() {
  echo "screenshot: FAIL: $*" >&2
  dump_logs
  exit 1
}

# the threads of a process that hangs: name, state, kernel wait channel,
# and with gdb every thread's backtrace
dump_process() {
  local pid=$1 name=$2 t
  echo "--- $name (pid $pid) threads: name, state, wait channel" >&2
  for t in /proc/"$pid"/task/*; do
    echo "  $(cat "$t/comm" 2>/dev/null) $(awk '{print $3}' "$t/stat" \
      2>/dev/null) $(cat "$t/wchan" 2>/dev/null)" >&2
  done
  if command -v gdb >/dev/null; then
    echo "--- $name backtraces" >&2
    timeout 60 gdb -q -batch -p "$pid" -ex "thread apply all bt" \
      2>&1 | grep -E '^(Thread|#)' >&2 || true
  fi
}

# poll PID SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds
# (status 0), PID has ended or SECONDS have passed (status 1)
poll() {
  local pid=$1 end=$((SECONDS + $2))
  shift 2
  until "$@"; do
    if ! kill -0 "$pid" 2>/dev/null || [ "$SECONDS" -ge "$end" ]; then
      return 1
    fi
    sleep 0.1
  done
}

# wait_exit PID NAME SECONDS: waits for the process to end and returns its
# exit status; when it is still running after SECONDS, shows its threads
# and fails
wait_exit() {
  local pid=$1 name=$2 rc=0
  poll "$pid" "$3" false || true
  if kill -0 "$pid" 2>/dev/null; then
    dump_process "$pid" "$name"
    kill -KILL "$pid" 2>/dev/null || true
    fail "$name did not exit within $3 s"
  fi
  wait "$pid" || rc=$?
  return "$rc"
}

# last_match FILE SED-SCRIPT: the last line sed -n prints of the end of
# FILE (a log that floods does not slow the polls down)
last_match() {
  tail -n 50 "$1" 2>/dev/null | sed -n "$2" | tail -n1
}
cleanup() {
  local p
  for p in "${pids[@]}"; do
    kill "$p" 2>/dev/null || true
  done
  for p in "${pids[@]}"; do
    wait "$p" 2>/dev/null || true
  done
  rm -rf "$tmp"
}
trap cleanup EXIT

export GST_PLUGIN_PATH="$build/gst"
export GST_REGISTRY="$build/tests/screenshot.registry"
# GL goes through the X server, not the headless EGL device
unset GST_GL_PLATFORM GST_GL_WINDOW GST_GL_API WAYLAND_DISPLAY
export XDG_RUNTIME_DIR="$tmp"

# Xvfb picks a free display number and writes it to fd 3; -br: black root
Xvfb -displayfd 3 -screen 0 1024x768x24 -br -nolisten tcp \
  3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
pids+=("$xvfb_pid")
if ! poll "$xvfb_pid" 20 test -s "$tmp/display"; then
  cat "$tmp/xvfb.log" >&2
  skip "Xvfb did not start"
fi
export DISPLAY=":$(head -n1 "$tmp/display")"
note "Xvfb on $DISPLAY"

"$build/examples/sender" --address 127.0.0.1 --port 0 --units 4 \
  --width "$WIDTH" --height "$HEIGHT" --fps 30 --pattern "$PATTERN" \
  --format bc1 --quality normal >"$tmp/sender.log" 2>&1 &
sender_pid=$!
pids+=("$sender_pid")
port=""
sender_listens() {
  port=$(last_match "$tmp/sender.log" \
    's/^sender: listening on .* port \([0-9]*\):.*/\1/p')
  [ -n "$port" ]
}
poll "$sender_pid" 20 sender_listens || fail "the sender did not start"
note "sender on port $port"

"$build/examples/receiver" --gl --display --host 127.0.0.1 --port "$port" \
  >"$tmp/receiver.log" 2>&1 &
receiver_pid=$!
pids+=("$receiver_pid")

# the receiver prints its frame count once a second
frames=0
receiver_settled() {
  frames=$(last_match "$tmp/receiver.log" \
    's/^receiver: .*(frames \([0-9]*\),.*/\1/p')
  [ "${frames:-0}" -ge "$SETTLE_FRAMES" ]
}
if ! poll "$receiver_pid" 60 receiver_settled; then
  kill -0 "$receiver_pid" 2>/dev/null && dump_process "$receiver_pid" receiver
  fail "the receiver did not show $SETTLE_FRAMES frames within 60 s"
fi
note "the receiver showed $frames frames"
timeout 30 xwd -root -silent >"$tmp/screen.xwd" \
  || fail "xwd did not capture the screen (status $?)"

# the sender's EOS ends both
kill -INT "$sender_pid"
rc=0
wait_exit "$sender_pid" sender 30 || rc=$?
wait_exit "$receiver_pid" receiver 30 || rc=$?
pids=("$xvfb_pid")
note "sender and receiver exited"
cat "$tmp/receiver.log"
[ "$rc" -eq 0 ] || fail "sender or receiver exited with status $rc"
# zero copies between the socket and the GL buffer
grep -q '^receiver: total: .*upload: zero-copy [1-9][0-9]*, copied 0,' \
  "$tmp/receiver.log" \
  || fail "glbcupload did not report zero-copy frames only"

# the same frame, decoded on the CPU
timeout 60 gst-launch-1.0 -q videotestsrc pattern="$PATTERN" num-buffers=1 \
  ! "video/x-raw,width=$WIDTH,height=$HEIGHT,framerate=30/1" \
  ! bc1enc quality=normal ! bcdec ! videoconvert ! video/x-raw,format=RGB \
  ! filesink location="$tmp/reference.rgb" \
  || fail "the reference decoding failed (status $?)"

timeout 60 python3 "$here/compare.py" "$tmp/screen.xwd" "$tmp/reference.rgb" \
  "$WIDTH" "$HEIGHT" "$MIN_PSNR" "${save[@]}"
