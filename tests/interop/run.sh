#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The interop test: checks our BC encoder and decoder against independent
# implementations (texture2ddecoder, etcpak) on real photographs. See
# interop.py for what it checks.
#
#   tests/interop/run.sh DRIVER [WORKDIR]
#
# DRIVER is the bc-encode-bench executable; WORKDIR (default: the driver's
# directory) holds the venv and temporary files. meson registers this as the
# test 'interop' (suite 'interop'): meson test -C build interop
#
# Exits 77 (skipped) when the venv or the photographs cannot be had (no
# package registry), except under CI (CI set), where that is a failure.

set -u

here=$(cd "$(dirname "$0")" && pwd)
export BC_SRC_ROOT=$(cd "$here/../.." && pwd)
# shellcheck source=../../benchmarks/venv.sh
. "$BC_SRC_ROOT/benchmarks/venv.sh"

if [ $# -lt 1 ]; then
  echo "usage: $0 DRIVER [WORKDIR]" >&2
  exit 2
fi
driver=$1
workdir=${2:-$(dirname "$driver")}

skip () {
  if [ -n "${CI:-}" ]; then
    echo "interop: $1; failing instead of skipping under CI" >&2
    exit 1
  fi
  echo "interop: SKIP: $1" >&2
  exit 77
}

if [ ! -x "$driver" ]; then
  echo "interop: $driver not built (run ninja first)" >&2
  exit 1
fi
mkdir -p "$workdir" || exit 1

# the venv lives in the source tree (git-ignored), not in the build
# directory: GST_PLUGIN_PATH=<builddir> must not scan its .so files
venv=${BC_INTEROP_VENV:-$BC_SRC_ROOT/tests/interop/.venv}
bc_venv "$venv"
case $? in
  0) ;;
  77) skip "cannot make the Python venv ($venv)" ;;
  *) exit 1 ;;
esac

bc_photos "$venv"
case $? in
  0) ;;
  77) skip "cannot fetch the photographs" ;;
  *) exit 1 ;;
esac

exec "$venv/bin/python" "$here/interop.py" --driver "$driver" \
  --manifest "$BC_MANIFEST" --workdir "$workdir"
