# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Sourced by tests/interop/run.sh and benchmarks/encode/run.sh (bash).
#
#   bc_venv DIR
#
# Makes a Python venv at DIR with benchmarks/requirements.txt installed, or
# reuses it when it already has them. Installs Debian's python3-venv first
# when Python cannot make venvs and we are root (a fresh CI machine).
# Returns 0 on success, 77 when it cannot be done here (no package registry).
#
#   bc_photos VENV_DIR
#
# Runs benchmarks/photos.py with the venv's Python and sets BC_MANIFEST to
# the manifest of the frames. Returns 0, or 77 when the photographs cannot
# be had (no package registry), 1 on other errors.

BC_SRC_ROOT=${BC_SRC_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

bc_venv () {
  local dir=$1
  local req=$BC_SRC_ROOT/benchmarks/requirements.txt
  local py=${PYTHON:-python3}

  if [ -x "$dir/bin/python" ] && cmp -s "$req" "$dir/.bc-requirements"; then
    return 0
  fi

  if ! command -v "$py" >/dev/null 2>&1 \
      || ! "$py" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "venv: installing python3-venv" >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get install -y -qq python3 python3-venv >/dev/null 2>&1 \
        || { apt-get update -qq && apt-get install -y -qq python3 python3-venv; } \
        || return 77
      py=/usr/bin/python3
    else
      echo "venv: $py cannot make virtual environments" >&2
      return 77
    fi
  fi

  echo "venv: creating $dir" >&2
  "$py" -m venv --clear "$dir" || return 77
  if ! "$dir/bin/python" -m pip install --disable-pip-version-check -q \
      --timeout 30 --retries 2 -r "$req"; then
    echo "venv: pip could not install $req (no package registry?)" >&2
    return 77
  fi
  cp "$req" "$dir/.bc-requirements"
}

bc_photos () {
  local venv=$1 out rc=0
  out=$("$venv/bin/python" "$BC_SRC_ROOT/benchmarks/photos.py") || rc=$?
  case $rc in
    0) BC_MANIFEST=$out ;;
    3) return 77 ;;
    *) return 1 ;;
  esac
}
