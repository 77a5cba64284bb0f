#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The BC6H interop test: checks our BC6H decoder (half floats, PQ and the
# tone curve) against imagecodecs' (bcdec) on random blocks of every mode.
# See bc6h.py for what it checks.
#
#   tests/interop/bc6h.sh DRIVER [WORKDIR]
#
# DRIVER is the bc-encode-bench executable; WORKDIR (default: the driver's
# directory) holds temporary files. The venv is the interop test's
# (tests/interop/.venv, benchmarks/requirements.txt). meson registers this
# as the test 'interop-bc6h' (suite 'interop').
#
# Exits 77 (skipped) when the venv cannot be made (no package registry),
# except under CI (CI set), where that is a failure.

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

if [ ! -x "$driver" ]; then
  echo "interop-bc6h: $driver not built (run ninja first)" >&2
  exit 1
fi
mkdir -p "$workdir" || exit 1

venv=${BC_INTEROP_VENV:-$BC_SRC_ROOT/tests/interop/.venv}
bc_venv "$venv"
case $? in
  0) ;;
  77)
    if [ -n "${CI:-}" ]; then
      echo "interop-bc6h: cannot make the Python venv ($venv); failing" \
        "instead of skipping under CI" >&2
      exit 1
    fi
    echo "interop-bc6h: SKIP: cannot make the Python venv ($venv)" >&2
    exit 77
    ;;
  *) exit 1 ;;
esac

exec "$venv/bin/python" "$here/bc6h.py" --driver "$driver" \
  --workdir "$workdir"
