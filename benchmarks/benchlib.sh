# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Sourced by benchmarks/*/run.sh (bash): what they share. Sources venv.sh
# (bc_venv, bc_photos) and sets
#
#   BC_BUILD   the meson build directory: BUILD_DIR, by default build-bench
#              in the source tree
#   BC_VENV    the Python venv: BC_BENCH_VENV, by default benchmarks/.venv
#
#   bc_apt_install PACKAGE...
#
# Installs Debian packages when we are root and have apt-get; says what is
# needed and returns 1 otherwise.
#
#   bc_build_deps
#
# Installs meson, ninja and the GStreamer development files when one of them
# is missing.
#
#   bc_bench_build BUILD_DIR TARGET...
#
# Sets BUILD_DIR up as a release build of the source tree when it is not a
# build directory yet, warns when it is not an optimised build, and builds
# the ninja TARGETs.
#
#   bc_gst_plugins PACKAGE ELEMENT...
#
# Installs the Debian package PACKAGE (bc_apt_install) when one of the
# GStreamer ELEMENTs is missing.
#
#   bc_bench_venv
#
# Makes the venv BC_VENV (bc_venv); says so and returns 1 when it cannot.
#
#   bc_use_build_plugins REGISTRY
#
# Exports GST_PLUGIN_PATH with BC_BUILD's plugins first, and GST_REGISTRY
# as BC_BUILD/REGISTRY: a registry of their own.
#
#   bc_raise_rmem_wmem BYTES
#
# Raises net.core.rmem_max and wmem_max to BYTES where they are lower (as
# root), setting BC_RMEM_WAS and BC_WMEM_WAS to what they were, BC_RMEM and
# BC_WMEM to what they are now and BC_RMEM_WMEM_RAISED to 1 when it raised
# them (0 else). Returns 1 when they stay lower. bc_restore_rmem_wmem (for
# the EXIT trap) puts back what it raised.

BC_SRC_ROOT=${BC_SRC_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# shellcheck source=venv.sh
. "$BC_SRC_ROOT/benchmarks/venv.sh"

BC_BUILD=${BUILD_DIR:-$BC_SRC_ROOT/build-bench}
BC_VENV=${BC_BENCH_VENV:-$BC_SRC_ROOT/benchmarks/.venv}

bc_apt_install () {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "run.sh: installing $*" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq "$@" >/dev/null 2>&1 \
      || { apt-get update -qq && apt-get install -y -qq "$@" >/dev/null; }
  else
    echo "run.sh: $* needed (not root: install it yourself)" >&2
    return 1
  fi
}

bc_build_deps () {
  if ! command -v meson >/dev/null || ! command -v ninja >/dev/null \
      || ! pkg-config --exists gstreamer-video-1.0 gstreamer-app-1.0 \
        2>/dev/null; then
    bc_apt_install meson ninja-build gcc pkg-config libgstreamer1.0-dev \
      libgstreamer-plugins-base1.0-dev
  fi
}

bc_bench_build () {
  local build=$1 buildtype
  shift
  if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" "$BC_SRC_ROOT" -Dbuildtype=release >&2 || return 1
  fi
  buildtype=$(meson introspect --buildoptions "$build" 2>/dev/null \
    | python3 -c 'import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "buildtype"))' \
    2>/dev/null || echo unknown)
  case $buildtype in
    release|debugoptimized) ;;
    *) echo "run.sh: warning: $build is a '$buildtype' build;" \
         "benchmark a release build (BUILD_DIR)" >&2 ;;
  esac
  ninja -C "$build" "$@" >&2
}

bc_gst_plugins () {
  local package=$1 e
  shift
  for e in "$@"; do
    if ! gst-inspect-1.0 "$e" >/dev/null 2>&1; then
      bc_apt_install "$package"
      return
    fi
  done
}

bc_bench_venv () {
  if ! bc_venv "$BC_VENV"; then
    echo "run.sh: cannot make the Python venv $BC_VENV" >&2
    return 1
  fi
}

bc_use_build_plugins () {
  export GST_PLUGIN_PATH="$BC_BUILD/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
  export GST_REGISTRY="$BC_BUILD/$1"
}

BC_RMEM_WMEM_RAISED=0

bc_raise_rmem_wmem () {
  local want=$1
  BC_RMEM_WAS=$(sysctl -n net.core.rmem_max 2>/dev/null || echo 0)
  BC_WMEM_WAS=$(sysctl -n net.core.wmem_max 2>/dev/null || echo 0)
  BC_RMEM=$BC_RMEM_WAS
  BC_WMEM=$BC_WMEM_WAS
  if [ "$BC_RMEM_WAS" -ge "$want" ] && [ "$BC_WMEM_WAS" -ge "$want" ]; then
    return 0
  fi
  if [ "$(id -u)" = 0 ] && sysctl -qw \
      net.core.rmem_max=$((BC_RMEM_WAS > want ? BC_RMEM_WAS : want)) \
      net.core.wmem_max=$((BC_WMEM_WAS > want ? BC_WMEM_WAS : want)) \
      >/dev/null 2>&1; then
    BC_RMEM_WMEM_RAISED=1
    BC_RMEM=$(sysctl -n net.core.rmem_max)
    BC_WMEM=$(sysctl -n net.core.wmem_max)
    return 0
  fi
  return 1
}

bc_restore_rmem_wmem () {
  if [ "$BC_RMEM_WMEM_RAISED" = 1 ]; then
    sysctl -qw net.core.rmem_max="$BC_RMEM_WAS" \
      net.core.wmem_max="$BC_WMEM_WAS" >/dev/null 2>&1 || true
  fi
  return 0
}
