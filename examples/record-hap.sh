#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# record-hap.sh: records test video into a Hap QuickTime file (.mov) that
# Hap players (and ffmpeg, VLC, Resolume, ...) open:
#
#   videotestsrc ! video/x-raw,... ! ${FORMAT}enc ! hapenc ! qtmux ! filesink
#
#   examples/record-hap.sh OUT.mov [FORMAT] [FRAMES]
#
# FORMAT   bc1    Hap (Hap1, BC1; the default)
#          bc3    Hap Alpha (Hap5, BC3 with alpha: bc3enc ycocg=false)
#          ycocg  Hap Q (HapY, YCoCg-BC3: bc3enc's default)
#          bc4    Hap Alpha-Only (HapA, BC4: the luma as one channel)
#          bc7    Hap R (Hap7, BC7; ffmpeg 5.1 cannot decode it)
#          bc6h   Hap HDR (HapH, BC6H of PQ video: RGBA64_LE, bt2100-pq;
#                 ffmpeg 5.1 cannot decode it)
# FRAMES   frames to record (default 300: 10 s at 30 fps)
#
# Environment (optional):
#   WIDTH, HEIGHT  frame size (default 640x360; any size, partial 4x4
#                  blocks are padded)
#   FPS            frames per second (default 30)
#   PATTERN        videotestsrc pattern (default ball)
#   BACKGROUND     videotestsrc background-color, big-endian ARGB
#                  (default 0xff000000; 0x00000000 with bc3 or bc7: a
#                  ball on a transparent background)
#   COMPRESSOR     hapenc compressor: snappy (default) or none
#   CHUNKS         hapenc chunks, 1 to 64 (default 1)
#   QUALITY        the encoder's quality: fast, normal (default) or high
#
# gst-launch-1.0 -e sends EOS on Ctrl-C, so an interrupted recording is
# still a finished file. Uninstalled, from the source tree:
#   GST_PLUGIN_PATH=build/gst examples/record-hap.sh /tmp/ball.mov ycocg 90
#   ffplay /tmp/ball.mov
#   gst-launch-1.0 filesrc location=/tmp/ball.mov ! qtdemux ! hapdec \
#     ! bcdec ! videoconvert ! autovideosink

set -eu

usage () {
  sed -n '/^#   examples/p' "$0" | sed 's/^#   //' >&2
  echo "FORMAT: bc1, bc3, ycocg, bc4, bc7 or bc6h (see the top of $0)" >&2
  exit 2
}

[ $# -ge 1 ] && [ $# -le 3 ] || usage
out=$1
format=${2:-bc1}
frames=${3:-300}
width=${WIDTH:-640}
height=${HEIGHT:-360}
fps=${FPS:-30}
pattern=${PATTERN:-ball}
background=${BACKGROUND:-0xff000000}
compressor=${COMPRESSOR:-snappy}
chunks=${CHUNKS:-1}
quality=${QUALITY:-normal}

raw="format=RGBA"
case $format in
  bc1) enc="bc1enc" ;;
  bc3) enc="bc3enc ycocg=false" ;;
  ycocg) enc="bc3enc ycocg=true" ;;
  bc4) enc="bc4enc" ;;
  bc7) enc="bc7enc" ;;
  bc6h) enc="bc6henc"; raw="format=RGBA64_LE,colorimetry=bt2100-pq" ;;
  *) echo "record-hap.sh: unknown FORMAT '$format'" >&2; usage ;;
esac
case $frames in
  '' | *[!0-9]*) echo "record-hap.sh: FRAMES must be a number" >&2; usage ;;
esac

# RGBA from videotestsrc: its alpha reaches bc3enc and bc7enc (bc6henc:
# 16-bit PQ codes)
# shellcheck disable=SC2086  # $enc is an element and its properties
exec gst-launch-1.0 -e \
  videotestsrc num-buffers="$frames" pattern="$pattern" \
    background-color="$background" \
  ! "video/x-raw,$raw,width=$width,height=$height,framerate=$fps/1" \
  ! $enc quality="$quality" \
  ! hapenc compressor="$compressor" chunks="$chunks" \
  ! qtmux ! filesink location="$out"
