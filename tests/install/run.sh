#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Installs, as a user would, and checks that GStreamer loads what was
# installed (the `install` suite):
#
#   tests/install/run.sh SRCDIR
#
# 1. A user install into a prefix of its own (meson setup --prefix=P,
#    meson install): with only GST_PLUGIN_PATH=P/<libdir>/gstreamer-1.0
#    set, gst-inspect-1.0 finds bc1enc, bcdec, tilesink, tilesrc (and
#    glbcupload when built), and a pipeline through them runs: the plugins
#    find libgstbc-1.0 and libgsttile-1.0 in P (their RPATH), without
#    LD_LIBRARY_PATH; pkg-config finds the libraries' .pc files in P.
# 2. A system install (--prefix=/usr) staged with DESTDIR: the plugins land
#    in GStreamer's own plugin directory (pkg-config gstreamer-1.0
#    pluginsdir) under DESTDIR, the libraries in /usr/<libdir>, the headers
#    and .pc files where the system's pkg-config looks; the staged plugins
#    load (with the staged libdir standing in for /usr/<libdir>).
# Both builds are plugin-only (no tests, examples or docs) in a temporary
# directory; each plugin's registry is a private one, so nothing of the
# caller's registry is touched (a plugin that fails to load would
# otherwise be blacklisted in it).

set -eu
src=$(cd "${1:?usage: $0 SRCDIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gstbc-install.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail () {
  echo "install: FAIL: $*" >&2
  exit 1
}

opts=(-Dtests=disabled -Dexamples=disabled -Ddoc=disabled
      -Dbuildtype=release --wrap-mode=nodownload)
multiarch=$(gcc -print-multiarch 2>/dev/null || true)
pluginsdir=$(pkg-config --variable=pluginsdir gstreamer-1.0)

# check_loads PLUGIN_DIR [LD_LIBRARY_PATH]: gst-inspect-1.0 with only the
# installed plugins, then a pipeline through them
check_loads () {
  local dir=$1 ldpath=${2:-} el
  local els=(bc1enc bc3enc bcdec tilesink tilesrc)
  ls "$dir"/libgstglbc.so >/dev/null 2>&1 && els+=(glbcupload)
  for el in "${els[@]}"; do
    env -u LD_LIBRARY_PATH ${ldpath:+LD_LIBRARY_PATH=$ldpath} \
      GST_PLUGIN_PATH="$dir" GST_PLUGIN_PATH_1_0="$dir" \
      GST_REGISTRY="$work/registry-$RANDOM.bin" GST_REGISTRY_FORK=no \
      gst-inspect-1.0 "$el" >"$work/inspect.log" 2>&1 ||
      { tail -5 "$work/inspect.log" >&2; fail "$el does not load from $dir"; }
  done
  env -u LD_LIBRARY_PATH ${ldpath:+LD_LIBRARY_PATH=$ldpath} \
    GST_PLUGIN_PATH="$dir" GST_REGISTRY="$work/registry-run.bin" \
    GST_REGISTRY_FORK=no gst-launch-1.0 -q videotestsrc num-buffers=3 \
    ! video/x-raw,width=64,height=32 ! bc1enc ! bcdec ! fakesink \
    >"$work/run.log" 2>&1 ||
    { tail -5 "$work/run.log" >&2; fail "bc1enc ! bcdec does not run"; }
  echo "install:   ${els[*]} load from $dir${ldpath:+ (LD_LIBRARY_PATH=$ldpath)}, bc1enc ! bcdec runs" >&2
}

# ---- 1. a user install into a prefix ----
prefix=$work/prefix
echo "install: --- user install into $prefix" >&2
meson setup "$work/build-user" "$src" --prefix="$prefix" "${opts[@]}" \
  >"$work/setup-user.log" 2>&1 || { tail -20 "$work/setup-user.log" >&2; fail "meson setup"; }
ninja -C "$work/build-user" >"$work/build-user.log" 2>&1 ||
  { tail -20 "$work/build-user.log" >&2; fail "build"; }
meson install -C "$work/build-user" >"$work/install-user.log" 2>&1 ||
  { tail -20 "$work/install-user.log" >&2; fail "meson install"; }
userplugins=$(dirname "$(find "$prefix" -name libgstbc.so -path '*gstreamer-1.0*' | head -1)")
[ -f "$userplugins/libgstbc.so" ] || fail "no libgstbc.so under $prefix"
case $userplugins in
  "$prefix"/lib*/gstreamer-1.0) ;;
  *) fail "plugins in $userplugins, not <prefix>/<libdir>/gstreamer-1.0" ;;
esac
check_loads "$userplugins"
PKG_CONFIG_PATH=$(dirname "$userplugins")/pkgconfig pkg-config --exists \
  gstreamer-bc-1.0 gstreamer-tile-1.0 ||
  fail "pkg-config does not find gstreamer-bc-1.0 and gstreamer-tile-1.0 in $prefix"

# libgsttile installs its API only: these headers, self-contained, and the
# symbols they declare; the internal modules (sockets, rate control, keys)
# are neither installed nor exported
tileinc=$prefix/include/gstreamer-1.0/gst/tile
for h in tile-prelude.h tilewire.h tileregion.h tilestats.h tilesender.h tilereceiver.h; do
  [ -f "$tileinc/$h" ] || fail "$h is not installed in $tileinc"
done
for h in tilenet.h tileseal.h tilerate.h tilekeys.h tilepake.h; do
  [ ! -e "$tileinc/$h" ] || fail "the internal header $h is installed"
done
userlib=$(dirname "$userplugins")
cat >"$work/tileapi.c" <<'EOF'
#include <gst/tile/tilesender.h>
#include <gst/tile/tilereceiver.h>
#include <gst/tile/tilestats.h>
#include <gst/tile/tileregion.h>

int
main (void)
{
  GstTileLatency lat;
  GstTileWireRegion region;

  gst_tile_latency_reset (&lat);
  gst_tile_latency_add (&lat, 1000);
  if (!gst_tile_region_parse ("0,0,4,4", &region, NULL))
    return 1;
  return gst_tile_wire_packets_per_tile (10000, 1408) == 8 ? 0 : 1;
}
EOF
# shellcheck disable=SC2046
cc -Wall -Werror -o "$work/tileapi" "$work/tileapi.c" \
  $(PKG_CONFIG_PATH=$userlib/pkgconfig pkg-config --cflags --libs gstreamer-tile-1.0) \
  >"$work/tileapi.log" 2>&1 ||
  { tail -20 "$work/tileapi.log" >&2; fail "a program of libgsttile's installed API does not build"; }
LD_LIBRARY_PATH=$userlib "$work/tileapi" || fail "a program of libgsttile's installed API fails"
if nm -D --defined-only "$userlib/libgsttile-1.0.so" |
    grep -E ' gst_tile_(net|rate|seal|keys|records|pake)_' >&2; then
  fail "libgsttile exports its internal modules"
fi
if [ -n "$(find "$prefix" -name GstBc-1.0.typelib)" ]; then
  [ -n "$(find "$prefix" -name GstTile-1.0.typelib)" ] ||
    fail "GstBc-1.0 is installed but not GstTile-1.0"
fi
echo "install:   libgsttile: API headers only; a program of them builds and runs; internals not exported" >&2

# ---- 2. a system install, staged with DESTDIR ----
stage=$work/stage
echo "install: --- system install (--prefix=/usr) staged in $stage" >&2
meson setup "$work/build-sys" "$src" --prefix=/usr "${opts[@]}" \
  >"$work/setup-sys.log" 2>&1 || { tail -20 "$work/setup-sys.log" >&2; fail "meson setup"; }
ninja -C "$work/build-sys" >"$work/build-sys.log" 2>&1 ||
  { tail -20 "$work/build-sys.log" >&2; fail "build"; }
DESTDIR=$stage meson install -C "$work/build-sys" >"$work/install-sys.log" 2>&1 ||
  { tail -20 "$work/install-sys.log" >&2; fail "meson install"; }
[ -f "$stage$pluginsdir/libgstbc.so" ] ||
  fail "the plugins are not in GStreamer's plugin directory $pluginsdir: $(find "$stage" -name 'libgstbc.so')"
[ -f "$stage$pluginsdir/libgsttile.so" ] || fail "no libgsttile.so in $pluginsdir"
syslib=$stage/usr/lib${multiarch:+/$multiarch}
ls "$syslib"/libgstbc-1.0.so.0 "$syslib"/libgsttile-1.0.so.0 >/dev/null 2>&1 ||
  fail "the libraries are not in /usr/lib${multiarch:+/$multiarch}"
[ -f "$syslib/pkgconfig/gstreamer-bc-1.0.pc" ] || fail "no gstreamer-bc-1.0.pc"
[ -f "$stage/usr/include/gstreamer-1.0/gst/bc/bc.h" ] || fail "no gst/bc/bc.h"
if readelf -d "$stage$pluginsdir/libgstbc.so" 2>/dev/null | grep -q 'R.*PATH'; then
  fail "a system install's plugin has an RPATH"
fi
check_loads "$stage$pluginsdir" "$syslib"
echo "install: PASS" >&2
