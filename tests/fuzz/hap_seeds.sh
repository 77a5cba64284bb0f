#!/bin/bash
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Writes the seeds of the hap fuzz target (tests/fuzz/corpus/hap): Hap
# frames from hapenc, each behind the two bytes hap-fuzz.c reads the stream
# from (format index modulo 7, then the size byte: width 1 + (b & 63)).
#
#   GST_PLUGIN_PATH=build/gst tests/fuzz/hap_seeds.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/corpus/hap
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# format index in hap-fuzz.c: 0 BC1, 1 BC3, 2 YCoCg-BC3, 3 BC4, 4 BC7,
# 5 BC6H, 6 BC6H-SF
# height: 1 + ((b1 >> 6) * 10 + (b0 >> 3)) % 32; width: 1 + (b1 & 63)
byte0 () {  # INDEX H
  local b0
  # b0 = 8 (h - 1) + r, r < 7, b0 % 7 = idx (b1 = w - 1, so b1 >> 6 = 0)
  b0=$((8 * ($2 - 1)))
  echo $((b0 + (($1 - b0 % 7 + 7) % 7)))
}
seed () {  # NAME ENCODER INDEX W H OPTIONS [RAW FORMAT]
  local name=$1 enc=$2 idx=$3 w=$4 h=$5 opts=$6 raw=${7:-} b0 b1
  b1=$((w - 1))
  b0=$(byte0 "$idx" "$h")
  gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte \
    ! "video/x-raw,width=$w,height=$h${raw:+,format=$raw}" ! $enc \
    ! hapenc $opts ! filesink location="$tmp/frame"
  { printf "\\x$(printf %02x "$b0")\\x$(printf %02x "$b1")"; cat "$tmp/frame"; } > "$out/$name"
}
# BC6H-SF: no encoder makes it; the BC6H seed FROM with its section type
# 0x_2 made 0x_3 (the same blocks read signed)
seed_sf () {  # NAME FROM H
  local name=$1 from=$2 h=$3 type
  type=$(od -An -tu1 -j5 -N1 "$out/$from" | tr -d ' ')
  cp "$out/$from" "$out/$name"
  printf "\\x$(printf %02x "$(byte0 6 "$h")")" |
    dd of="$out/$name" bs=1 seek=0 conv=notrunc status=none
  printf "\\x$(printf %02x $((type | 1)))" |
    dd of="$out/$name" bs=1 seek=5 conv=notrunc status=none
}
seed bc1-snappy bc1enc 0 16 8 ""
seed bc1-stored bc1enc 0 8 4 "compressor=none"
seed bc1-chunks bc1enc 0 32 16 "chunks=3"
seed bc3-chunks "bc3enc ycocg=false" 1 16 12 "chunks=2 compressor=none"
seed ycocg-snappy bc3enc 2 24 8 ""
seed bc4-chunks bc4enc 3 16 16 "chunks=4"
seed bc7-snappy bc7enc 4 12 4 ""
seed bc6h-snappy "bc6henc quality=fast" 5 16 8 "" RGBA64_LE
seed bc6h-chunks "bc6henc quality=fast" 5 20 12 "chunks=3" RGBA64_LE
seed_sf bc6hsf-snappy bc6h-snappy 8
seed_sf bc6hsf-chunks bc6h-chunks 12
ls -l "$out"
