#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# record-tile-hap.sh: records a tile:// stream (a tilesink sending BC1,
# BC3, YCoCg-BC3, BC4 or BC7 frames, e.g. examples/sender) into a Hap
# QuickTime file, without decoding or re-encoding a frame:
#
#   tilesrc host=HOST port=PORT ! hapenc ! qtmux ! filesink location=OUT.mov
#
#   examples/record-tile-hap.sh HOST PORT OUT.mov [SECONDS]
#
# Stops when the sender ends its stream (EOS), after SECONDS when given, or
# on Ctrl-C: each time with an EOS through qtmux (gst-launch-1.0 -e), so
# the .mov is finished and plays. The stream must be BC (video/x-bc): a
# sender of raw video cannot be recorded as Hap.
#
# Environment (optional):
#   COMPRESSOR     hapenc compressor: snappy (default) or none
#   CHUNKS         hapenc chunks, 1 to 64 (default 1)
#
# Uninstalled, from the source tree, with build/examples/sender on port 7000:
#   GST_PLUGIN_PATH=build/gst examples/record-tile-hap.sh 127.0.0.1 7000 \
#     /tmp/tile.mov 10
#   ffplay /tmp/tile.mov

set -eu

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
  echo "usage: $0 HOST PORT OUT.mov [SECONDS]" >&2
  exit 2
fi
host=$1
port=$2
out=$3
seconds=${4:-}
compressor=${COMPRESSOR:-snappy}
chunks=${CHUNKS:-1}

pipeline=(tilesrc host="$host" port="$port"
  ! hapenc compressor="$compressor" chunks="$chunks"
  ! qtmux ! filesink location="$out")

if [ -z "$seconds" ]; then
  exec gst-launch-1.0 -e "${pipeline[@]}"
fi
# SIGINT after SECONDS: gst-launch-1.0 -e answers it with an EOS. With
# --foreground, a Ctrl-C reaches gst-launch-1.0 too; -k: killed when the
# EOS has not gone through 30 s later. --preserve-status: gst-launch-1.0's
# own exit status (0 for a finished file), not 124.
exec timeout --foreground --preserve-status -s INT -k 30 "$seconds" \
  gst-launch-1.0 -e "${pipeline[@]}"
