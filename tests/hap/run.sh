#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The hap suite: Hap QuickTime files played and recorded as a user would,
# with gst-launch-1.0 against ffmpeg and ffprobe (check.py says what is
# checked): ffmpeg-made files through qtdemux ! hapdec ! bcdec,
# uridecodebin, playbin, uridecodebin3 and playbin3;
# examples/record-hap.sh and
# examples/record-tile-hap.sh; damaged files.
#
#   tests/hap/run.sh BUILD_DIR [HAP_PLUGIN]
#
# HAP_PLUGIN is the built libgsthap.so (meson passes it; default: the one
# under BUILD_DIR/gst). The plugins come from the build tree, every other
# element from the system, with a registry of the test's own.
# Installs ffmpeg (ffmpeg, ffprobe) and GStreamer's tools, base and good
# plugins with apt-get when missing and root (or sudo without a
# password). Exits 77 (skipped) only when they cannot be installed,
# except under CI (CI set), where that is a failure. Takes about a minute.

set -u

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: $0 BUILD_DIR [HAP_PLUGIN]}" && pwd)
plugin=${2:-$build/gst/hap/libgsthap.so}
python=/usr/bin/python3

skip () {
  if [ -n "${CI:-}" ]; then
    echo "hap: FAIL (CI): $*" >&2
    exit 1
  fi
  echo "hap: SKIP: $*"
  exit 77
}

as_root () {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    return 1
  fi
}

# apt_install PACKAGE...: apt-get update only when the install fails
apt_install () {
  echo "hap: installing $* with apt-get"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      --no-install-recommends "$@" >/dev/null 2>&1 \
    || { as_root apt-get update -q >/dev/null 2>&1 \
      && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        --no-install-recommends "$@" >/dev/null 2>&1; }
}

[ -f "$plugin" ] || { echo "hap: $plugin is not built" >&2; exit 1; }
[ -x "$python" ] || skip "$python is missing"

# our plugins, and the hap plugin wherever meson put it (meson passes a
# path relative to the build directory, the test's working directory)
plugin_dir=$(cd "$(dirname "$plugin")" && pwd)
case $plugin_dir in
  "$build/gst"/*) GST_PLUGIN_PATH=$build/gst ;;
  *) GST_PLUGIN_PATH=$build/gst:$plugin_dir ;;
esac
export GST_PLUGIN_PATH
export GST_PLUGIN_PATH_1_0=$GST_PLUGIN_PATH
export GST_REGISTRY=$build/tests/hap.registry
export GST_REGISTRY_FORK=no
# check.py sets the GL variables of each run itself
unset GST_GL_PLATFORM GST_GL_WINDOW GST_GL_API

# the system's elements: qtdemux, qtmux (good); videotestsrc, videoconvert,
# uridecodebin, playbin, uridecodebin3, playbin3 (base); gst-launch-1.0
# (tools)
has_elements () {
  local e
  command -v gst-launch-1.0 >/dev/null && command -v gst-inspect-1.0 \
    >/dev/null || return 1
  for e in qtdemux qtmux videotestsrc videoconvert uridecodebin playbin \
      uridecodebin3 playbin3 filesink fakesink; do
    gst-inspect-1.0 --exists "$e" || return 1
  done
}
if ! has_elements; then
  apt_install gstreamer1.0-tools gstreamer1.0-plugins-base \
    gstreamer1.0-plugins-good
  has_elements || skip "GStreamer's tools, base or good plugins are" \
    "missing and cannot be installed (apt-get needs root or sudo)"
fi
if ! command -v ffmpeg >/dev/null || ! command -v ffprobe >/dev/null; then
  apt_install ffmpeg
  command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null \
    || skip "ffmpeg is missing and cannot be installed" \
      "(apt-get install ffmpeg needs root or sudo)"
fi
# (not --exists: it also wants the plugin's version to be GStreamer's)
for e in hapdec hapenc bcdec bc1enc bc3enc bc4enc bc7enc bc6henc tilesink \
  tilesrc; do
  gst-inspect-1.0 "$e" >/dev/null 2>&1 \
    || { echo "hap: $e is not in $GST_PLUGIN_PATH" >&2; exit 1; }
done
echo "hap: $(ffmpeg -version | head -n1)"
echo "hap: plugins from $GST_PLUGIN_PATH"

work=$(mktemp -d "${TMPDIR:-/tmp}/gstbc-hap.XXXXXX")
rc=0
"$python" "$here/check.py" --examples "$src/examples" --work "$work" || rc=$?
if [ "$rc" -eq 0 ]; then
  rm -rf "$work"
else
  echo "hap: the files are kept in $work" >&2
fi
exit "$rc"
