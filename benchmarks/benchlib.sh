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
