#!/usr/bin/env bash
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
# Needs Xvfb (xvfb) and xwd (x11-apps): installed with apt-get when missing
# and root (or sudo without a password). Exits 77 (skipped) only when Xvfb
# cannot be installed or started, saying so; under CI (CI set) that is a
# failure too.
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

# Xvfb and xwd
if ! command -v Xvfb >/dev/null || ! command -v xwd >/dev/null; then
  echo "screenshot: installing xvfb and x11-apps (xwd) with apt-get"
  if ! { as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
          --no-install-recommends xvfb x11-apps xauth >/dev/null 2>&1 \
        || { as_root apt-get update -q >/dev/null 2>&1 \
          && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
            --no-install-recommends xvfb x11-apps xauth >/dev/null 2>&1; }; }; then
    skip "Xvfb or xwd is missing and cannot be installed" \
      "(apt-get install xvfb x11-apps needs root or sudo)"
  fi
fi

for f in "$build/examples/sender" "$build/examples/receiver"; do
  [ -x "$f" ] || { echo "screenshot: $f is not built" >&2; exit 1; }
done

tmp=$(mktemp -d)
pids=()
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
for _ in $(seq 100); do
  [ -s "$tmp/display" ] && break
  kill -0 "$xvfb_pid" 2>/dev/null || break
  sleep 0.1
done
if [ ! -s "$tmp/display" ]; then
  cat "$tmp/xvfb.log" >&2
  skip "Xvfb did not start"
fi
export DISPLAY=":$(head -n1 "$tmp/display")"
echo "screenshot: Xvfb on $DISPLAY"

"$build/examples/sender" --address 127.0.0.1 --port 0 --units 4 \
  --width "$WIDTH" --height "$HEIGHT" --fps 30 --pattern "$PATTERN" \
  --format bc1 --quality normal >"$tmp/sender.log" 2>&1 &
sender_pid=$!
pids+=("$sender_pid")
port=""
for _ in $(seq 100); do
  port=$(sed -n 's/^sender: listening on .* port \([0-9]*\):.*/\1/p' \
    "$tmp/sender.log")
  [ -n "$port" ] && break
  kill -0 "$sender_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$port" ]; then
  cat "$tmp/sender.log" >&2
  echo "screenshot: FAIL: the sender did not start" >&2
  exit 1
fi

"$build/examples/receiver" --gl --display --host 127.0.0.1 --port "$port" \
  >"$tmp/receiver.log" 2>&1 &
receiver_pid=$!
pids+=("$receiver_pid")

frames=0
for _ in $(seq 300); do
  frames=$(sed -n 's/^receiver: .*(frames \([0-9]*\),.*/\1/p' \
    "$tmp/receiver.log" | tail -n1)
  [ "${frames:-0}" -ge "$SETTLE_FRAMES" ] && break
  kill -0 "$receiver_pid" 2>/dev/null || break
  sleep 0.1
done
if [ "${frames:-0}" -lt "$SETTLE_FRAMES" ]; then
  cat "$tmp/receiver.log" "$tmp/sender.log" >&2
  echo "screenshot: FAIL: the receiver did not show $SETTLE_FRAMES frames" >&2
  exit 1
fi
xwd -root -silent >"$tmp/screen.xwd"

# the sender's EOS ends both
kill -INT "$sender_pid"
rc=0
wait "$sender_pid" || rc=$?
wait "$receiver_pid" || rc=$?
pids=("$xvfb_pid")
cat "$tmp/receiver.log"
if [ "$rc" -ne 0 ]; then
  cat "$tmp/sender.log" >&2
  echo "screenshot: FAIL: sender or receiver exited with status $rc" >&2
  exit 1
fi
# zero copies between the socket and the GL buffer
if ! grep -q '^receiver: total: .*upload: zero-copy [1-9][0-9]*, copied 0,' \
    "$tmp/receiver.log"; then
  echo "screenshot: FAIL: glbcupload did not report zero-copy frames only" >&2
  exit 1
fi

# the same frame, decoded on the CPU
gst-launch-1.0 -q videotestsrc pattern="$PATTERN" num-buffers=1 \
  ! "video/x-raw,width=$WIDTH,height=$HEIGHT,framerate=30/1" \
  ! bc1enc quality=normal ! bcdec ! videoconvert ! video/x-raw,format=RGB \
  ! filesink location="$tmp/reference.rgb"

python3 "$here/compare.py" "$tmp/screen.xwd" "$tmp/reference.rgb" \
  "$WIDTH" "$HEIGHT" "$MIN_PSNR" "${save[@]}"
